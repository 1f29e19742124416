/*
 * ordered.c -- which queries read partitions in ORDER BY order.
 *
 * A top-N query over one partitioned table whose ORDER BY starts with a
 * partition key can read the partitions in that key's order and stop early
 * (exec/op_ordered.c).  The planner's EXPLAIN and the executor ask the same
 * question here, so that what EXPLAIN says is what runs.
 */
#include "plan/plan.h"

int hl_plan_ordered_key(const hl_plan_t *plan) {
  if (!plan->from || plan->from->kind != HL_REL_SCAN) return -1;
  const hl_plan_scan_t *sc = plan->from->scan;
  const hl_table_t *t = sc->table;
  if (plan->aggregate || plan->n_windows || !plan->n_order || !plan->has_limit ||
      plan->limit > HL_PLAN_TOP_N_MAX || plan->offset > HL_PLAN_TOP_N_MAX || t->n_part == 0 ||
      sc->sampled || sc->dataset || sc->n_parts < 2)
    return -1;
  const hl_expr_t *e = plan->out_exprs[plan->order_cols[0]];
  if (e->kind != HL_EX_COLUMN || e->col < t->n_data || e->col >= t->n_all) return -1;
  return e->col - t->n_data;
}
