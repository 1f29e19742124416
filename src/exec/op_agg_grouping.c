/*
 * op_agg_grouping.c -- Hive's grouping(c, ...) and GROUPING__ID.
 *
 * The binder makes both an aggregate (HL_AGG_GROUPING) over the GROUP BY
 * columns they name (GROUPING__ID: all of them, in GROUP BY order).  Its
 * state in a group is the group's grouping set + 1, set by op_agg.c as
 * the row is grouped; a group made for the empty set when no row came has
 * 0.  The result is Hive's (GenericUDFGrouping, VirtualColumn.GROUPINGID
 * since Hive 2.3): one bit per named column, the first the highest, 1 when
 * the column is aggregated away (not in the row's set); without grouping
 * sets every column is grouped and the result is 0.
 */
#include "exec/op_agg_int.h"

int64_t hl_agg_grouping_final(const hl_plan_t *plan, const hl_agg_t *ag, const agg_state_t *st) {
  if (!plan->n_grouping_sets) return 0;
  uint64_t mask = st->count > 0 ? plan->grouping_sets[st->count - 1] : 0, out = 0;
  for (int j = 0; j < ag->n_group_idx; j++)
    out = out << 1 | (~mask >> ag->group_idx[j] & 1);
  return (int64_t)out;
}
