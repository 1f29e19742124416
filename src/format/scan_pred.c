/*
 * scan_pred.c -- whether statistics rule out every row for a pushed
 * predicate (scan_pred.h).  Shared by the Parquet and ORC readers.
 */
#include "format/scan_pred.h"

#include <math.h>

bool hl_scan_pred_excludes(const hl_scan_pred_t *p, const hl_type_t *t, bool has_bounds,
                           const hl_value_t *mn, const hl_value_t *mx, int64_t null_count,
                           int64_t n_values, bool float_col, bool may_have_nan) {
  if (p->op == HL_PRED_IS_NULL) return null_count == 0;
  bool all_null = null_count >= 0 && n_values >= 0 && null_count == n_values;
  if (p->op == HL_PRED_IS_NOT_NULL) return all_null;
  if (all_null) return true; /* comparisons with NULL are never true */
  if (p->value.is_null) return true;
  if (!has_bounds) return false;
  if (float_col) {
    if (isnan(p->value.u.d)) return false;
    /* NaN sorts above everything in Hive: it may satisfy >, >=, <> */
    if (may_have_nan && (p->op == HL_PRED_GT || p->op == HL_PRED_GE || p->op == HL_PRED_NE))
      return false;
  }
  int c_min = hl_value_compare(t, &p->value, mn); /* value vs min */
  int c_max = hl_value_compare(t, &p->value, mx);
  switch (p->op) {
  case HL_PRED_EQ:
    return c_min < 0 || c_max > 0;
  case HL_PRED_NE:
    return c_min == 0 && c_max == 0;
  case HL_PRED_LT:
    return c_min <= 0; /* x < v impossible when min >= v */
  case HL_PRED_LE:
    return c_min < 0;
  case HL_PRED_GT:
    return c_max >= 0;
  case HL_PRED_GE:
    return c_max > 0;
  default:
    return false;
  }
}
