/*
 * error.c -- error records and the SQLSTATE table (see error.h).
 */
#include "util/error.h"

#include "util/mem.h"

#include <stdio.h>
#include <string.h>

#define X(name, code) code,
static const char *const sqlstate_codes[] = {
#include "util/sqlstate.def"
};
#undef X

const char *hl_sqlstate_code(hl_sqlstate_id_t id) {
  if ((int)id < 0 || id >= HL_SQLSTATE_COUNT_) return "XX000";
  return sqlstate_codes[id];
}

static const char nomem_message[] = "out of memory";

void hl_err_init(hl_error_t *err) {
  err->code = HL_OK;
  memcpy(err->sqlstate, "00000", 6);
  err->message = NULL;
  err->message_owned = 0;
  err->position = -1;
  err->detail = NULL;
  err->hint = NULL;
}

void hl_err_clear(hl_error_t *err) {
  if (err->message_owned) hl_free(err->message);
  hl_err_init(err);
}

hl_status_t hl_err_nomem(hl_error_t *err) {
  if (err->code != HL_OK) return err->code;
  err->code = HL_NOMEM;
  memcpy(err->sqlstate, "53200", 6);
  err->message = (char *)nomem_message;
  err->message_owned = 0;
  return HL_NOMEM;
}

hl_status_t hl_err_vset(hl_error_t *err, hl_status_t code, const char *sqlstate, const char *fmt,
                        va_list ap) {
  if (err->code != HL_OK) return err->code;
  if (code == HL_NOMEM) return hl_err_nomem(err);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *msg = n >= 0 ? hl_malloc((size_t)n + 1) : NULL;
  if (!msg) return hl_err_nomem(err);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  err->code = code;
  snprintf(err->sqlstate, sizeof err->sqlstate, "%.5s", sqlstate ? sqlstate : "XX000");
  err->message = msg;
  err->message_owned = 1;
  return code;
}

hl_status_t hl_err_set(hl_error_t *err, hl_status_t code, const char *sqlstate, const char *fmt,
                       ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_status_t rc = hl_err_vset(err, code, sqlstate, fmt, ap);
  va_end(ap);
  return rc;
}

hl_status_t hl_err_set_at(hl_error_t *err, long position, hl_status_t code, const char *sqlstate,
                          const char *fmt, ...) {
  if (err->code != HL_OK) return err->code;
  va_list ap;
  va_start(ap, fmt);
  hl_status_t rc = hl_err_vset(err, code, sqlstate, fmt, ap);
  va_end(ap);
  err->position = position;
  return rc;
}

void hl_err_position(hl_error_t *err, long position) {
  if (err->code != HL_OK && err->position < 0) err->position = position;
}

void hl_err_hint(hl_error_t *err, const char *detail, const char *hint) {
  if (err->code == HL_OK || err->detail || err->hint) return;
  err->detail = detail;
  err->hint = hint;
}

void hl_err_move(hl_error_t *dst, hl_error_t *src) {
  hl_err_clear(dst);
  *dst = *src;
  hl_err_init(src);
}

void hl_err_prefix(hl_error_t *err, const char *fmt, ...) {
  if (err->code == HL_OK || err->code == HL_NOMEM) return;
  char prefix[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  size_t n = strlen(prefix) + 2 + strlen(err->message) + 1;
  char *msg = hl_malloc(n);
  if (!msg) return; /* keep the original message */
  snprintf(msg, n, "%s: %s", prefix, err->message);
  if (err->message_owned) hl_free(err->message);
  err->message = msg;
  err->message_owned = 1;
}
