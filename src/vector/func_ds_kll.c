/*
 * func_ds_kll.c -- Hive 4's scalar ds_kll_* functions on a KLL floats
 * sketch's bytes (util/ds_kll.h): datasketches-hive 1.2.0's kll GetNUDF,
 * GetRankUDF, GetQuantileUDF, GetQuantilesUDF, GetCdfUDF, GetPmfUDF and
 * SketchToStringUDF, each of which heapifies its argument and asks
 * datasketches-java 3.1.0's KllFloatsSketch.
 *
 * A NULL sketch gives NULL (every evaluate starts so).  Bytes that are not
 * a sketch are 22023 (Java: SketchesArgumentException or a bounds
 * exception).  A NULL value, fraction or split point is an error, as in
 * Hive, where it cannot become the Java float or double the method takes
 * (22004).  An empty sketch answers as Java does: n 0, rank and quantile
 * NaN, PMF and CDF NULL; ds_kll_quantiles fails (Hive: a
 * NullPointerException on Java's null array).
 */
#include "vector/func_int.h"

#include <math.h>
#include <string.h>

#include "util/ds_kll.h"

/* the sketch of A[0] (not NULL) in ARENA */
static hl_status_t sketch_of(const hl_value_t *a, hl_arena_t *arena, hl_ds_kll_t *s,
                             hl_error_t *err) {
  hl_status_t rc = hl_ds_kll_deserialize((const uint8_t *)a->u.s.ptr, a->u.s.len, arena, s, err);
  return rc == HL_NOMEM ? hl_err_nomem(err) : rc;
}

/* A[1..n) are not NULL (Hive cannot unbox a NULL into float / double) */
static hl_status_t no_null_args(const hl_expr_t *call, const hl_value_t *a, hl_error_t *err) {
  for (int i = 1; i < call->n_args; i++)
    if (a[i].is_null)
      return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                        "%s: argument %d is NULL (Hive fails on it too)", call->fn->name, i + 1);
  return HL_OK;
}

/* The start of every function: NULL out for a NULL sketch (*DONE), else
 * the sketch in S. */
static hl_status_t begin(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                         hl_arena_t *arena, hl_ds_kll_t *s, bool *done, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  *done = a[0].is_null;
  if (*done) {
    out->is_null = true;
    return HL_OK;
  }
  if (no_null_args(call, a, err) != HL_OK) return HL_ERROR;
  return sketch_of(&a[0], arena, s, err);
}

#define BEGIN()                                                                                    \
  hl_ds_kll_t s;                                                                                   \
  bool done;                                                                                       \
  hl_status_t rc = begin(call, a, out, arena, &s, &done, err);                                     \
  if (rc != HL_OK || done) return rc

HL_FN(hl_fn_ds_kll_n) {
  BEGIN();
  out->u.i = (int64_t)s.n;
  return HL_OK;
}

HL_FN(hl_fn_ds_kll_rank) {
  BEGIN();
  out->u.d = hl_ds_kll_rank(&s, (float)a[1].u.d);
  return HL_OK;
}

HL_FN(hl_fn_ds_kll_quantile) {
  BEGIN();
  float q;
  if ((rc = hl_ds_kll_quantiles(&s, &a[1].u.d, 1, &q, err)) != HL_OK) return rc;
  out->u.d = q;
  return HL_OK;
}

/* an ARRAY of N values in ARENA, their room in *ITEMS */
static hl_status_t new_array(hl_value_t *out, size_t n, hl_arena_t *arena, hl_value_t **items,
                             hl_error_t *err) {
  *items = hl_arena_zalloc(arena, (n ? n : 1) * sizeof **items);
  if (!*items) return hl_err_nomem(err);
  out->u.list.n = (uint32_t)n;
  out->u.list.items = *items;
  return HL_OK;
}

HL_FN(hl_fn_ds_kll_quantiles) {
  BEGIN();
  size_t n = (size_t)call->n_args - 1;
  if (s.n == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "ds_kll_quantiles of an empty sketch (Hive fails with a "
                      "NullPointerException)");
  double *fr = hl_arena_alloc(arena, (n ? n : 1) * sizeof *fr);
  float *q = hl_arena_alloc(arena, (n ? n : 1) * sizeof *q);
  hl_value_t *items;
  if (!fr || !q) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    fr[i] = a[i + 1].u.d;
  if ((rc = hl_ds_kll_quantiles(&s, fr, n, q, err)) != HL_OK) return rc;
  if ((rc = new_array(out, n, arena, &items, err)) != HL_OK) return rc;
  for (size_t i = 0; i < n; i++)
    items[i].u.d = q[i];
  return HL_OK;
}

static hl_status_t pmf_or_cdf(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                              hl_arena_t *arena, bool cdf, hl_error_t *err) {
  BEGIN();
  size_t n = (size_t)call->n_args - 1;
  float *sp = hl_arena_alloc(arena, (n ? n : 1) * sizeof *sp);
  double *v = hl_arena_alloc(arena, (n + 1) * sizeof *v);
  if (!sp || !v) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    sp[i] = (float)a[i + 1].u.d;
  bool is_null = false;
  if ((rc = hl_ds_kll_pmf(&s, sp, n, cdf, v, &is_null, err)) != HL_OK) return rc;
  if (is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_value_t *items;
  if ((rc = new_array(out, n + 1, arena, &items, err)) != HL_OK) return rc;
  for (size_t i = 0; i <= n; i++)
    items[i].u.d = v[i];
  return HL_OK;
}

HL_FN(hl_fn_ds_kll_cdf) {
  return pmf_or_cdf(call, a, out, arena, true, err);
}

HL_FN(hl_fn_ds_kll_pmf) {
  return pmf_or_cdf(call, a, out, arena, false, err);
}

HL_FN(hl_fn_ds_kll_stringify) {
  BEGIN();
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_kll_to_string(&s, &b);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}
