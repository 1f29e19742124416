/*
 * command.h -- statement execution entry points.
 *
 * hl_cmd_run dispatches on the statement kind: queries (SELECT, EXPLAIN)
 * go to the planner and operators (exec/query.h); everything else is a
 * command (cmd_*.c) that runs to completion inside hl_cmd_run and may
 * leave a rowset as its result.  Every command that changes the metastore
 * runs in one catalog transaction: on any error it rolls back and leaves
 * no file-system change behind either.
 */
#ifndef HL_COMMAND_H
#define HL_COMMAND_H

#include "exec/query.h"

/* Runs STMT.  ARENA is the statement arena (lives until the statement is
 * finalized); RESULT is zeroed by the caller and filled when the statement
 * returns rows. */
hl_status_t hl_cmd_run(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                       hl_result_t *result, hl_error_t *err);

/* Commands (cmd_dispatch.c): every statement but SELECT and EXPLAIN; same
 * contract as hl_cmd_run. */
hl_status_t hl_cmd_dispatch(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err);

#endif
