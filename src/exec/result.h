/*
 * result.h -- what a statement produces: named, typed columns and an
 * operator that yields batches.
 *
 * Queries produce an operator tree (scan -> filter -> project -> limit ...);
 * commands that print something (SHOW, DESCRIBE, MSCK, SET) fill a rowset
 * whose operator replays its rows as batches.  The api layer pulls batches
 * from result->root and hands rows to the caller.
 */
#ifndef HL_RESULT_H
#define HL_RESULT_H

#include "vector/vector.h"

typedef struct hl_op hl_op_t;

/* The operator interface (Postgres's Init/Next/End, DuckDB's GetData):
 * next sets *out to the next batch, or to NULL at the end.  The batch is
 * owned by the operator and valid until the next call.  close releases
 * what the operator holds (files, child operators); memory comes from the
 * statement arena.  EXPLAIN text is produced from the plan, not here. */
struct hl_op {
  hl_status_t (*next)(hl_op_t *op, hl_batch_t **out, hl_error_t *err);
  void (*close)(hl_op_t *op);
};

typedef struct hl_result {
  int n_cols;
  char **names;            /* column names (statement arena) */
  const hl_type_t **types; /* column types (statement arena) */
  hl_op_t *root;           /* NULL: statement returns nothing */
  const bool *json;        /* per column: its strings are JSON text; NULL: none */
  /* The statement's next result (PROFILE's summary), in the statement
   * arena; NULL: none.  hl_next_result moves to it. */
  struct hl_result *next;
  /* A write that committed (INSERT, INSERT OVERWRITE, CTAS): it wrote
   * n_written rows (hl_changes).  False: not a write, or a count unknown
   * (LOAD moves files unread). */
  bool wrote;
  uint64_t n_written;
} hl_result_t;

/* ---------------------------------------------------------------- rowset */

typedef struct hl_rowset hl_rowset_t;

/* A rowset of N_COLS columns in ARENA (names and types are copied). */
hl_rowset_t *hl_rowset_create(hl_arena_t *arena, int n_cols, const char *const *names,
                              const hl_type_t *const *types);
/* Appends a row of N_COLS values (strings copied into the rowset's arena). */
hl_status_t hl_rowset_add(hl_rowset_t *rs, const hl_value_t *values, hl_error_t *err);
/* Appends a row for an all-STRING rowset: TEXTS[i] NULL means NULL. */
hl_status_t hl_rowset_add_text(hl_rowset_t *rs, const char *const *texts, hl_error_t *err);
/* Convenience: a rowset whose columns are all STRING. */
hl_rowset_t *hl_rowset_create_text(hl_arena_t *arena, int n_cols, const char *const *names);
size_t hl_rowset_count(const hl_rowset_t *rs);
/* Fills RESULT with the rowset's columns and an operator over its rows. */
hl_status_t hl_rowset_result(hl_rowset_t *rs, hl_result_t *result, hl_error_t *err);

#endif
