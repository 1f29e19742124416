/*
 * matchpath.h -- the pattern of Hive's matchpath table function
 * (ql/udf/ptf/MatchPath.java): compiling 'LATE.EARLY*.ONTIME+' against
 * the symbol names of the call, and matching it at one row of a partition.
 *
 * The binder (plan/bind.c) compiles the pattern of a matchpath call once;
 * the window operator (exec/op_window.c) runs hl_mp_match at every row of
 * each partition over the symbols' values, which it evaluated before.
 */
#ifndef HL_VECTOR_MATCHPATH_H
#define HL_VECTOR_MATCHPATH_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum hl_mp_kind {
  HL_MP_ONE,  /* SYM: exactly one row */
  HL_MP_STAR, /* SYM*: zero or more */
  HL_MP_PLUS  /* SYM+: one or more */
} hl_mp_kind_t;

typedef struct hl_mp_step {
  int symbol; /* index into the call's symbol list */
  hl_mp_kind_t kind;
} hl_mp_step_t;

typedef struct hl_mp_pattern {
  hl_mp_step_t *steps;
  int n_steps;
} hl_mp_pattern_t;

/* Compiles PATTERN[0..len) as Hive's SymbolParser: symbols separated by
 * '.', a trailing '*' or '+' on one, names matched to NAMES[0..n_names)
 * without regard to case (the last of equal names wins, as Hive's map).
 * A symbol not among the names, an empty one, or a pattern without symbols
 * is 22023 naming it.  The steps are allocated in ARENA. */
hl_status_t hl_mp_compile(const char *pattern, size_t len, const char *const *names, int n_names,
                          hl_arena_t *arena, hl_mp_pattern_t **out, hl_error_t *err);

/* Whether symbol SYMBOL holds at row ROW of the partition (NULL: false). */
typedef bool (*hl_mp_symbol_fn)(void *ctx, int symbol, size_t row);

/* Matches PAT at row START of a partition of N rows (START < N) the way
 * Hive's MatchPath does, greedily and without backtracking, with its
 * iterator's quirks at the partition's end kept (a '+' that runs to the
 * last row stops before it; a '*' that reaches the last row takes it).
 * True when it matches; *path_len is then the rows of the path, from
 * START on (at least 1, as Hive's getPath always takes the first row). */
bool hl_mp_match(const hl_mp_pattern_t *pat, size_t n, size_t start, hl_mp_symbol_fn sym, void *ctx,
                 size_t *path_len);

#endif
