/*
 * api_int.h -- what the files of src/api share: the handle and statement
 * structs behind include/hivelite.h's opaque types, and the steps of
 * hl_step that the Arrow export (arrow.c) drives batch by batch instead of
 * row by row.  Private to src/api.
 */
#ifndef HL_API_INT_H
#define HL_API_INT_H

#include "hivelite.h"

#include "command/command.h"
#include "session/params.h"
#include "session/session.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "vector/vector.h"

#include <stdbool.h>
#include <stdint.h>

struct hl_db {
  hl_session_t session;
  hl_error_t err;
  int err_line, err_col;
  int n_open_stmts;
};

struct hl_stmt {
  hl_db_t *db;
  hl_arena_t *arena; /* the statement's: syntax tree, text, parameters */
  hl_arena_t *run;   /* the execution's: plan, operators, rows; new per execution */
  hl_ast_stmt_t *ast;
  char *text; /* the SQL up to the end of this statement (for positions) */
  bool executed;
  bool finished;
  hl_result_t result;
  hl_batch_t *batch;
  uint32_t live_idx; /* index of the current row among the batch's live rows */
  hl_buf_t *texts;   /* per column, formatted value of the current row */
  char **type_names;
  hl_params_t params; /* `?` / `$n` values bound (session/params.h) */
  /* The result shape learnt before the first execution (describe): what
   * hl_column_* report until the statement runs. */
  bool described;
  int desc_n;
  char **desc_names;
  const hl_type_t **desc_types;
  char **desc_type_names;
  /* describe's planning error when it is the text's fault (SQLSTATE class
   * 42: an unknown name, a wrong type), for hl_stmt_check; HL_OK if none */
  hl_error_t desc_err;
};

/* Clears DB's last error (every API call starts so). */
void hl_api_clear_error(hl_db_t *db);
/* Records ERR as DB's last error with its position in STMT's text (STMT
 * NULL: no position); returns its code. */
hl_status_t hl_api_take_error(hl_db_t *db, hl_stmt_t *stmt, hl_error_t *err);
/* Runs STMT (its first hl_step's work: checks the bindings, starts the
 * budget and the deadline, plans and opens the operators).  HL_OK, or the
 * error code with the error recorded and the statement finished. */
hl_status_t hl_api_execute(hl_stmt_t *stmt);
/* Moves STMT to the next batch of its current result: stmt->batch is it
 * (live_idx 0), or NULL at the end (stmt->finished then set, operators
 * closed).  Checks for a cancel first.  HL_OK, or the error code with the
 * error recorded and the statement finished. */
hl_status_t hl_api_fetch(hl_stmt_t *stmt);
/* Ends STMT's current result after an error outside hl_api_fetch: its
 * operators closed, no current batch, finished. */
void hl_api_abort(hl_stmt_t *stmt);

#endif
