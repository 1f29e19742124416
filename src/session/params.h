/*
 * params.h -- the parameters of the running statement (`?`, `$n`).
 *
 * The api keeps one hl_params_t per prepared statement (the values bound
 * with hl_bind_*) and lends it to the session while the statement is
 * planned (hl_session_t.params).  The binder turns each parameter into a
 * constant of its bound value, so a parameter is planned exactly like the
 * literal it stands for -- partition pruning included -- and a statement
 * run again with new values is planned again (hl_reset).  While binding it
 * also notes the type each parameter's context fixes (a comparison with a
 * column, an INSERT target column, LIMIT): hl_bind_parameter_type.  In
 * `describe` mode (planning only to learn those types and the result
 * columns) an unbound parameter is a NULL of that type.
 */
#ifndef HL_PARAMS_H
#define HL_PARAMS_H

#include "util/arena.h"
#include "util/type.h"
#include "util/value.h"

#include <stdbool.h>

typedef struct hl_param {
  const hl_type_t *type; /* the bound value's type; NULL: not bound */
  hl_type_t own_type;    /* storage for a bound DECIMAL(p,s)'s type */
  hl_value_t value;      /* the bound value; strings in `bytes` */
  char *bytes;           /* heap copy of a bound string or binary (owned) */
  const hl_type_t *want; /* the type its first context fixes (in `arena`); NULL: none */
  char *want_name;       /* its spelling, made by the api when asked (in `arena`) */
} hl_param_t;

typedef struct hl_params {
  int n;             /* parameters of the statement: numbers 1..n */
  hl_param_t *items; /* n of them (owned by the statement's arena) */
  hl_arena_t *arena; /* the statement's arena: `want` types are copied here */
  bool describe;     /* planning only: unbound parameters are typed NULLs */
} hl_params_t;

/* Notes that parameter NUM (1-based) stands where a value of type T is
 * needed, unless a type was noted already (the first context wins) or T
 * is no primitive type.  Out of memory only loses the note. */
void hl_params_note_type(hl_params_t *ps, int num, const hl_type_t *t);

#endif
