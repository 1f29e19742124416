/*
 * query.c -- runs SELECT and EXPLAIN: binds the statement into a plan
 * (plan/bind.c) and assembles the operator pipeline
 *
 *   scan -> filter -> aggregate(+having) -> project -> sort -> limit
 *
 * whose root the api layer pulls batches from.
 */
#include "exec/command.h"
#include "exec/ops.h"
#include "plan/plan.h"

hl_status_t hl_exec_query(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err) {
  const hl_ast_stmt_t *q = stmt->kind == HL_STMT_EXPLAIN ? stmt->inner : stmt;
  if (!q || q->kind != HL_STMT_SELECT)
    return hl_err_set_at(err, stmt->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "EXPLAIN is only supported for SELECT");
  hl_plan_t *plan;
  hl_status_t rc = hl_plan_select(s, q->select, arena, &plan, err);
  if (rc != HL_OK) return rc;

  if (stmt->kind == HL_STMT_EXPLAIN) {
    char **lines;
    int n;
    rc = hl_plan_explain(plan, arena, &lines, &n, err);
    if (rc != HL_OK) return rc;
    const char *name = "Explain";
    hl_rowset_t *rs = hl_rowset_create_text(arena, 1, &name);
    if (!rs) return hl_err_nomem(err);
    for (int i = 0; i < n && rc == HL_OK; i++) {
      const char *text = lines[i];
      rc = hl_rowset_add_text(rs, &text, err);
    }
    if (rc != HL_OK) return rc;
    return hl_rowset_result(rs, result, err);
  }

  return hl_exec_plan(s, plan, arena, result, err);
}

hl_status_t hl_exec_select(hl_session_t *s, const hl_ast_select_t *select, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err) {
  hl_plan_t *plan;
  hl_status_t rc = hl_plan_select(s, select, arena, &plan, err);
  if (rc != HL_OK) return rc;
  return hl_exec_plan(s, plan, arena, result, err);
}

hl_status_t hl_exec_plan(hl_session_t *s, const hl_plan_t *plan, hl_arena_t *arena,
                         hl_result_t *result, hl_error_t *err) {
  hl_op_t *op = plan->scan ? hl_op_scan_create(s, plan->scan, arena, err)
                           : hl_op_one_row_create(arena, err);
  if (op && plan->filter) op = hl_op_filter_create(op, plan->filter, arena, err);
  if (op && plan->aggregate) op = hl_op_agg_create(op, plan, arena, err);
  if (op) op = hl_op_project_create(op, plan->out_exprs, plan->n_out, arena, err);
  const hl_type_t **types = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(plan->n_out + 1));
  if (!types) {
    if (op) op->close(op);
    return hl_err_nomem(err);
  }
  for (int i = 0; i < plan->n_out; i++) types[i] = plan->out_exprs[i]->type;
  if (op && plan->n_order)
    op = hl_op_sort_create(op, plan->n_out, types, plan->order_cols, plan->order_desc,
                           plan->order_nulls_first, plan->n_order, arena, err);
  if (op && plan->has_limit) op = hl_op_limit_create(op, plan->limit, plan->offset, arena, err);
  if (!op) return err->code;
  result->n_cols = plan->n_visible;
  result->names = plan->out_names;
  result->types = types;
  result->root = op;
  return HL_OK;
}
