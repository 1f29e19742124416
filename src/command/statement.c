/*
 * statement.c -- hl_exec_statement: queries to the planner, everything
 * else to the command layer (see command.h).
 */
#include "exec/command.h"

hl_status_t hl_exec_statement(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                              hl_result_t *result, hl_error_t *err) {
  if (stmt->kind == HL_STMT_SELECT || stmt->kind == HL_STMT_EXPLAIN)
    return hl_exec_query(s, stmt, arena, result, err);
  return hl_exec_command(s, stmt, arena, result, err);
}
