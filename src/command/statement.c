/*
 * statement.c -- hl_cmd_run: queries to the planner, everything
 * else to the command layer (cmd_dispatch.c); see command.h.
 */
#include "command/command.h"

hl_status_t hl_cmd_run(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                       hl_result_t *result, hl_error_t *err) {
  if (stmt->kind == HL_STMT_SELECT || stmt->kind == HL_STMT_EXPLAIN)
    return hl_exec_query(s, stmt, arena, result, err);
  return hl_cmd_dispatch(s, stmt, arena, result, err);
}
