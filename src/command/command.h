/*
 * command.h -- statement execution entry points.
 *
 * hl_exec_statement dispatches on the statement kind: queries (SELECT,
 * EXPLAIN) go to the planner and operators (query.c); everything else is a
 * command (cmd_*.c) that runs to completion inside hl_exec_statement and
 * may leave a rowset as its result.  Every command that changes the
 * metastore runs in one catalog transaction: on any error it rolls back and
 * leaves no file-system change behind either.
 */
#ifndef HL_COMMAND_H
#define HL_COMMAND_H

#include "exec/result.h"
#include "exec/session.h"
#include "sql/ast.h"

/* Runs STMT.  ARENA is the statement arena (lives until the statement is
 * finalized); RESULT is zeroed by the caller and filled when the statement
 * returns rows. */
hl_status_t hl_exec_statement(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                              hl_result_t *result, hl_error_t *err);

/* Commands (cmd_*.c): same contract as hl_exec_statement. */
hl_status_t hl_exec_command(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err);
/* Queries (query.c): SELECT and EXPLAIN. */
hl_status_t hl_exec_query(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err);

/* Builds the operator pipeline of one SELECT (bind + plan + operators)
 * into RESULT, for commands that consume query results (INSERT, CTAS).
 * The caller pulls result->root and closes it. */
hl_status_t hl_exec_select(hl_session_t *s, const hl_ast_select_t *select, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err);
struct hl_plan;
/* Same from a bound plan (plan/plan.h). */
hl_status_t hl_exec_plan(hl_session_t *s, const struct hl_plan *plan, hl_arena_t *arena,
                         hl_result_t *result, hl_error_t *err);

#endif
