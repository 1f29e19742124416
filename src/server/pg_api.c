/*
 * pg_api.c -- stand-ins for the API issue 17 adds to include/hivelite.h
 * (parameters, hl_reset); see pg_api.h.  Each answers HL_UNSUPPORTED until
 * the library has the real function, then forwards to it.
 */
#include "pg_api.h"

int pg_api_has_parameters(void) {
  return 0;
}

int pg_api_parameter_count(hl_stmt_t *stmt) {
  (void)stmt;
  return 0;
}

const char *pg_api_parameter_type(hl_stmt_t *stmt, int idx) {
  (void)stmt;
  (void)idx;
  return NULL;
}

hl_status_t pg_api_bind_null(hl_stmt_t *stmt, int idx) {
  (void)stmt;
  (void)idx;
  return HL_UNSUPPORTED;
}

hl_status_t pg_api_bind_text(hl_stmt_t *stmt, int idx, const char *text, size_t len) {
  (void)stmt;
  (void)idx;
  (void)text;
  (void)len;
  return HL_UNSUPPORTED;
}

hl_status_t pg_api_bind_int64(hl_stmt_t *stmt, int idx, int64_t v) {
  (void)stmt;
  (void)idx;
  (void)v;
  return HL_UNSUPPORTED;
}

hl_status_t pg_api_bind_double(hl_stmt_t *stmt, int idx, double v) {
  (void)stmt;
  (void)idx;
  (void)v;
  return HL_UNSUPPORTED;
}

hl_status_t pg_api_bind_bool(hl_stmt_t *stmt, int idx, int v) {
  (void)stmt;
  (void)idx;
  (void)v;
  return HL_UNSUPPORTED;
}

hl_status_t pg_api_bind_blob(hl_stmt_t *stmt, int idx, const void *data, size_t len) {
  (void)stmt;
  (void)idx;
  (void)data;
  (void)len;
  return HL_UNSUPPORTED;
}

hl_status_t pg_api_reset(hl_stmt_t *stmt) {
  (void)stmt;
  return HL_UNSUPPORTED;
}
