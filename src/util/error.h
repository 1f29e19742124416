/*
 * error.h -- the error record every fallible function fills.
 *
 * A failing layer fills the hl_error_t it was handed; the first error wins
 * (later hl_err_set calls on a set record are ignored), so code can test the
 * record once at a chokepoint.  The message is one line without a final
 * period, identifiers in double quotes (PostgreSQL's message style).
 * POSITION is a 0-based byte offset into the statement text, -1 if none.
 */
#ifndef HL_ERROR_H
#define HL_ERROR_H

#include "hivelite.h"

#include <stdarg.h>

#define X(name, code) HL_SQLSTATE_##name,
typedef enum hl_sqlstate_id {
#include "util/sqlstate.def"
  HL_SQLSTATE_COUNT_
} hl_sqlstate_id_t;
#undef X

/* Code strings, e.g. HL_SS(SYNTAX_ERROR) -> "42601". */
#define HL_SS(name) hl_sqlstate_code(HL_SQLSTATE_##name)
const char *hl_sqlstate_code(hl_sqlstate_id_t id);

typedef struct hl_error {
  hl_status_t code;  /* HL_OK when no error */
  char sqlstate[6];  /* "42P01" */
  char *message;     /* heap, owned by the record; static text on OOM */
  int message_owned; /* 1 when message must be freed */
  long position;     /* byte offset into the statement, -1 if none */
  /* PostgreSQL's DETAIL and HINT (hl_err_hint): static text, never owned,
   * so that copies of the record need no care; NULL when none */
  const char *detail;
  const char *hint;
} hl_error_t;

void hl_err_init(hl_error_t *err);
/* Frees the message and returns the record to HL_OK. */
void hl_err_clear(hl_error_t *err);
/* Sets the error unless one is already set.  Returns CODE so callers can
 * write `return hl_err_set(err, ...)`. */
hl_status_t hl_err_set(hl_error_t *err, hl_status_t code, const char *sqlstate, const char *fmt,
                       ...) __attribute__((format(printf, 4, 5)));
hl_status_t hl_err_vset(hl_error_t *err, hl_status_t code, const char *sqlstate, const char *fmt,
                        va_list ap);
/* Like hl_err_set with a source position (byte offset) attached. */
hl_status_t hl_err_set_at(hl_error_t *err, long position, hl_status_t code, const char *sqlstate,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The standard out-of-memory error (allocates nothing). */
hl_status_t hl_err_nomem(hl_error_t *err);
/* Attaches POSITION if the error has none yet. */
void hl_err_position(hl_error_t *err, long position);
/* Attaches DETAIL and HINT (static text; NULL: none) to a set error that
 * has none yet: a fact about this error, and what the user can do about
 * it, as PostgreSQL's ErrorResponse carries them apart from the message. */
void hl_err_hint(hl_error_t *err, const char *detail, const char *hint);
/* Moves SRC into DST (DST cleared first); SRC ends cleared. */
void hl_err_move(hl_error_t *dst, hl_error_t *src);
/* Prefixes the message with "PREFIX: " (keeps code and position). */
void hl_err_prefix(hl_error_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
