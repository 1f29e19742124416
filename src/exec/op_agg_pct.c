/*
 * op_agg_pct.c -- the results of Hive 4's ordered percentiles,
 * percentile_cont and percentile_disc (GenericUDAFPercentileCont/Disc).
 *
 * The state is op_agg.c's list of kept values (BIGINT or DOUBLE, as the
 * binder typed the argument; NULLs never enter it), merged as the other
 * value-keeping aggregates are.  Here the values are sorted in the
 * aggregate's direction and each percentile p is read at position
 * p * (n - 1), as Hive reads its sorted counts: percentile_cont
 * interpolates between the two neighbours with Hive's formula
 * (higher - pos) * lo + (pos - lower) * hi -- which rounds differently
 * from lo + frac * (hi - lo) -- and percentile_disc takes the value at the
 * higher neighbour.
 */
#include "exec/op_agg_int.h"

#include <math.h>
#include <stdlib.h>

static int cmp_i64(const void *x, const void *y) {
  int64_t a = ((const hl_value_t *)x)->u.i, b = ((const hl_value_t *)y)->u.i;
  return a < b ? -1 : a > b;
}

/* NaN after every number, so that the order is total (Java's compareTo on
 * DoubleWritable leaves it undefined). */
static int cmp_f64(const void *x, const void *y) {
  double a = ((const hl_value_t *)x)->u.d, b = ((const hl_value_t *)y)->u.d;
  if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
  return a < b ? -1 : a > b;
}

static double item(const hl_value_t *v, bool ints) {
  return ints ? (double)v->u.i : v->u.d;
}

static double pct_at(const hl_agg_t *ag, const hl_value_t *sorted, uint32_t n, bool ints,
                     double p) {
  double pos = (double)(n - 1) * p;
  double lower = floor(pos), higher = ceil(pos);
  const hl_value_t *lo = &sorted[(uint32_t)lower], *hi = &sorted[(uint32_t)higher];
  if (lower == higher) return item(lo, ints);
  if (ag->kind == HL_AGG_PERCENTILE_DISC) return item(hi, ints);
  if (ints ? lo->u.i == hi->u.i : lo->u.d == hi->u.d) return item(lo, ints);
  return (higher - pos) * item(lo, ints) + (pos - lower) * item(hi, ints);
}

hl_status_t hl_agg_pct_final(const hl_agg_t *ag, agg_state_t *st, hl_value_t *out,
                             hl_arena_t *arena) {
  uint32_t n = st->n_items;
  if (n == 0) {
    out->is_null = true;
    return HL_OK;
  }
  bool ints = hl_type_phys(ag->arg->type) == HL_P_I64;
  qsort(st->items, n, sizeof(hl_value_t), ints ? cmp_i64 : cmp_f64);
  if (ag->desc)
    for (uint32_t i = 0; i < n / 2; i++) {
      hl_value_t t = st->items[i];
      st->items[i] = st->items[n - 1 - i];
      st->items[n - 1 - i] = t;
    }
  if (!ag->n_params) {
    out->u.d = pct_at(ag, st->items, n, ints, ag->param);
    return HL_OK;
  }
  hl_value_t *ps = hl_arena_zalloc(arena, sizeof(hl_value_t) * (size_t)ag->n_params);
  if (!ps) return HL_NOMEM;
  for (int i = 0; i < ag->n_params; i++)
    ps[i].u.d = pct_at(ag, st->items, n, ints, ag->params[i]);
  out->u.list.n = (uint32_t)ag->n_params;
  out->u.list.items = ps;
  return HL_OK;
}
