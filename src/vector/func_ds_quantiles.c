/*
 * func_ds_quantiles.c -- Hive 4's scalar ds_quantile_doubles_* functions
 * (datasketches-hive 1.2.0 quantiles Get*FromDoublesSketchUDF and DoublesSketchToStringUDF on
 * datasketches-java 3.1.0): n, k, stringify, quantile, quantiles, cdf and
 * pmf of a sketch's compact bytes (util/ds_quantiles.h).
 *
 * A NULL sketch gives NULL.  Of an empty sketch: quantile is NaN, cdf /
 * pmf and quantiles(sketch, number) are NULL (getCDF / getQuantiles return
 * null), quantiles(sketch, fractions...) fails (Hive: a
 * NullPointerException).  quantiles' second argument chooses the form as
 * Java's overloads do: one TINYINT / SMALLINT / INT is the number of
 * evenly spaced ranks (at least 2: datasketches' evenlySpaced), anything
 * else numeric is a list of fractions.
 */
#include "util/ds_quantiles.h"
#include "vector/func_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The sketch of argument 0 (not NULL), in a fresh TMP arena. */
static hl_status_t open_sketch(const hl_value_t *a, hl_arena_t **tmp, hl_ds_quantiles_t **q,
                               hl_error_t *err) {
  if (!(*tmp = hl_arena_create(4096))) return hl_err_nomem(err);
  hl_status_t rc =
      hl_ds_quantiles_deserialize((const uint8_t *)a[0].u.s.ptr, a[0].u.s.len, *tmp, q, err);
  if (rc == HL_NOMEM) rc = hl_err_nomem(err);
  if (rc != HL_OK) {
    hl_arena_destroy(*tmp);
    *tmp = NULL;
  }
  return rc;
}

HL_FN(hl_fn_dsq_n) {
  (void)call;
  (void)arena;
  if (a[0].is_null) return out->is_null = true, HL_OK;
  hl_arena_t *tmp;
  hl_ds_quantiles_t *q;
  if (open_sketch(a, &tmp, &q, err) != HL_OK) return err->code;
  out->u.i = (int64_t)q->n;
  hl_arena_destroy(tmp);
  return HL_OK;
}

HL_FN(hl_fn_dsq_k) {
  (void)call;
  (void)arena;
  if (a[0].is_null) return out->is_null = true, HL_OK;
  hl_arena_t *tmp;
  hl_ds_quantiles_t *q;
  if (open_sketch(a, &tmp, &q, err) != HL_OK) return err->code;
  out->u.i = q->k;
  hl_arena_destroy(tmp);
  return HL_OK;
}

HL_FN(hl_fn_dsq_stringify) {
  (void)call;
  if (a[0].is_null) return out->is_null = true, HL_OK;
  hl_arena_t *tmp;
  hl_ds_quantiles_t *q;
  if (open_sketch(a, &tmp, &q, err) != HL_OK) return err->code;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_quantiles_to_string(q, a[0].u.s.len, &b);
  hl_arena_destroy(tmp);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

HL_FN(hl_fn_dsq_quantile) {
  (void)call;
  (void)arena;
  if (a[0].is_null || a[1].is_null) return out->is_null = true, HL_OK;
  hl_arena_t *tmp;
  hl_ds_quantiles_t *q;
  if (open_sketch(a, &tmp, &q, err) != HL_OK) return err->code;
  hl_status_t rc = HL_OK;
  if (hl_ds_quantiles_empty(q))
    out->u.d = NAN;
  else
    rc = hl_ds_quantiles_quantile(q, a[1].u.d, &out->u.d, err);
  hl_arena_destroy(tmp);
  return rc;
}

/* Argument K of CALL as a double: any number (Double's unboxing). */
static hl_status_t arg_double(const hl_expr_t *call, const hl_value_t *a, int k, double *d,
                              hl_error_t *err) {
  const hl_type_t *t = call->args[k]->type;
  if (a[k].is_null)
    return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                      "%s: argument %d is NULL (Hive: a NullPointerException)", call->fn->name,
                      k + 1);
  if (!hl_type_is_numeric(t))
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH), "%s: argument %d must be a DOUBLE",
                      call->fn->name, k + 1);
  hl_value_t v;
  if (hl_value_cast(t, &a[k], hl_type_prim(HL_T_DOUBLE), &v, NULL, err) != HL_OK) return err->code;
  *d = v.u.d;
  return HL_OK;
}

/* OUT: the ARRAY<DOUBLE> of V[0..n) in ARENA. */
static hl_status_t put_array(const double *v, size_t n, hl_value_t *out, hl_arena_t *arena,
                             hl_error_t *err) {
  hl_value_t *items = hl_arena_zalloc(arena, (n ? n : 1) * sizeof(hl_value_t));
  if (!items) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    items[i].u.d = v[i];
  out->u.list.items = items;
  out->u.list.n = (uint32_t)n;
  return HL_OK;
}

HL_FN(hl_fn_dsq_quantiles) {
  if (a[0].is_null) return out->is_null = true, HL_OK;
  const hl_type_t *t1 = call->n_args == 2 ? call->args[1]->type : NULL;
  bool number = t1 && (t1->id == HL_T_TINYINT || t1->id == HL_T_SMALLINT || t1->id == HL_T_INT);
  size_t m = (size_t)call->n_args - 1;
  double *r = malloc((m ? m : 1) * sizeof(double)), *v = NULL;
  if (!r) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  for (size_t i = 0; i < m && rc == HL_OK && !number; i++)
    rc = arg_double(call, a, (int)i + 1, &r[i], err);
  if (number && a[1].is_null) rc = arg_double(call, a, 1, &r[0], err);
  hl_arena_t *tmp = NULL;
  hl_ds_quantiles_t *q = NULL;
  if (rc == HL_OK) rc = open_sketch(a, &tmp, &q, err);
  if (rc == HL_OK && hl_ds_quantiles_empty(q)) {
    if (number)
      out->is_null = true;
    else
      rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "ds_quantile_doubles_quantiles of an empty sketch (Hive: a "
                      "NullPointerException)");
  } else if (rc == HL_OK) {
    if (number) { /* datasketches' evenlySpaced(0, 1, number) */
      int64_t num = a[1].u.i;
      if (num < 2) {
        rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "num must be >= 2");
      } else {
        m = (size_t)num;
        free(r);
        if (!(r = malloc(m * sizeof(double)))) rc = hl_err_nomem(err);
        for (size_t i = 0; rc == HL_OK && i < m; i++)
          r[i] = i == 0 ? 0.0 : i == m - 1 ? 1.0 : (double)i * (1.0 / (double)(m - 1));
      }
    }
    if (rc == HL_OK && !(v = malloc((m ? m : 1) * sizeof(double)))) rc = hl_err_nomem(err);
    if (rc == HL_OK) rc = hl_ds_quantiles_quantiles(q, r, m, v, err);
    if (rc == HL_OK) rc = put_array(v, m, out, arena, err);
  }
  if (tmp) hl_arena_destroy(tmp);
  free(r);
  free(v);
  return rc;
}

static hl_status_t cdf_pmf(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                           hl_arena_t *arena, hl_error_t *err, bool cdf) {
  if (a[0].is_null) return out->is_null = true, HL_OK;
  size_t m = (size_t)call->n_args - 1;
  double *s = malloc((m + 1) * sizeof(double)), *v = malloc((m + 1) * sizeof(double));
  hl_status_t rc = s && v ? HL_OK : hl_err_nomem(err);
  for (size_t i = 0; i < m && rc == HL_OK; i++)
    rc = arg_double(call, a, (int)i + 1, &s[i], err);
  hl_arena_t *tmp = NULL;
  hl_ds_quantiles_t *q = NULL;
  if (rc == HL_OK) rc = open_sketch(a, &tmp, &q, err);
  if (rc == HL_OK && hl_ds_quantiles_empty(q))
    out->is_null = true;
  else if (rc == HL_OK && (rc = hl_ds_quantiles_cdf_pmf(q, s, m, cdf, v, err)) == HL_OK)
    rc = put_array(v, m + 1, out, arena, err);
  if (tmp) hl_arena_destroy(tmp);
  free(s);
  free(v);
  return rc;
}

HL_FN(hl_fn_dsq_cdf) {
  return cdf_pmf(call, a, out, arena, err, true);
}

HL_FN(hl_fn_dsq_pmf) {
  return cdf_pmf(call, a, out, arena, err, false);
}
