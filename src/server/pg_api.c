/*
 * pg_api.c -- the server's calls of the library's parameter API, forwarded
 * (see pg_api.h for why this seam exists).
 */
#include "pg_api.h"

int pg_api_parameter_count(hl_stmt_t *stmt) {
  return hl_bind_parameter_count(stmt);
}

const char *pg_api_parameter_type(hl_stmt_t *stmt, int idx) {
  return hl_bind_parameter_type(stmt, idx);
}

hl_status_t pg_api_bind_null(hl_stmt_t *stmt, int idx) {
  return hl_bind_null(stmt, idx);
}

hl_status_t pg_api_bind_text(hl_stmt_t *stmt, int idx, const char *text, size_t len) {
  return hl_bind_text(stmt, idx, text, len);
}

hl_status_t pg_api_bind_int64(hl_stmt_t *stmt, int idx, int64_t v) {
  return hl_bind_int64(stmt, idx, v);
}

hl_status_t pg_api_bind_double(hl_stmt_t *stmt, int idx, double v) {
  return hl_bind_double(stmt, idx, v);
}

hl_status_t pg_api_bind_bool(hl_stmt_t *stmt, int idx, int v) {
  return hl_bind_bool(stmt, idx, v);
}

hl_status_t pg_api_bind_decimal(hl_stmt_t *stmt, int idx, int64_t hi, uint64_t lo, int precision,
                                int scale) {
  return hl_bind_decimal(stmt, idx, hi, lo, precision, scale);
}

hl_status_t pg_api_bind_date(hl_stmt_t *stmt, int idx, int32_t days) {
  return hl_bind_date(stmt, idx, days);
}

hl_status_t pg_api_bind_timestamp(hl_stmt_t *stmt, int idx, int64_t micros) {
  return hl_bind_timestamp(stmt, idx, micros);
}

hl_status_t pg_api_bind_blob(hl_stmt_t *stmt, int idx, const void *data, size_t len) {
  return hl_bind_blob(stmt, idx, data, len);
}

hl_status_t pg_api_reset(hl_stmt_t *stmt) {
  return hl_reset(stmt);
}
