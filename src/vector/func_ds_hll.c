/*
 * func_ds_hll.c -- Hive 4's scalar functions over DataSketches HLL
 * sketches (datasketches-hive's hll UDFs): ds_hll_estimate
 * (SketchToEstimateUDF), ds_hll_estimate_bounds (SketchToEstimateAnd
 * ErrorBoundsUDF: estimate, lower and upper bound at kappa standard
 * deviations, default 2), ds_hll_stringify (SketchToStringUDF: the
 * sketch's toString) and ds_hll_union_f (UnionSketchUDF: two sketches
 * into a union of lgK, default 12, and its result as type, default
 * HLL_4).
 *
 * Every sketch is untrusted bytes, read by util/ds_hll_ser.c with checked
 * lengths (22023 on bad bytes, as for any invalid argument); each row's
 * sketch is read into a scratch arena freed before the function returns.
 * A NULL sketch gives NULL, except in ds_hll_union_f, which skips it
 * (the union of two NULLs is the empty sketch), as the UDFs do.
 */
#include <string.h>

#include "util/ds_hll.h"
#include "vector/func_int.h"

static hl_status_t read_sketch(const hl_value_t *v, hl_arena_t *tmp, hl_ds_hll_t *sk,
                               hl_error_t *err) {
  return hl_ds_hll_deserialize((const uint8_t *)v->u.s.ptr, v->u.s.len, tmp, sk, err);
}

HL_FN(hl_fn_ds_hll_estimate) {
  (void)call;
  (void)arena;
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_ds_hll_t sk;
  hl_status_t rc = read_sketch(&a[0], tmp, &sk, err);
  if (rc == HL_OK) out->u.d = hl_ds_hll_estimate(&sk);
  hl_arena_destroy(tmp);
  return rc;
}

HL_FN(hl_fn_ds_hll_estimate_bounds) {
  if (a[0].is_null || (call->n_args > 1 && a[1].is_null)) {
    out->is_null = true;
    return HL_OK;
  }
  int64_t kappa = call->n_args > 1 ? a[1].u.i : 2;
  if (kappa < 1 || kappa > 3)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "NumStdDev may not be less than 1 or greater than 3.");
  hl_value_t *items = hl_arena_zalloc(arena, 3 * sizeof *items);
  hl_arena_t *tmp = hl_arena_create(0);
  if (!items || !tmp) {
    hl_arena_destroy(tmp);
    return hl_err_nomem(err);
  }
  hl_ds_hll_t sk;
  hl_status_t rc = read_sketch(&a[0], tmp, &sk, err);
  if (rc == HL_OK) {
    items[0].u.d = hl_ds_hll_estimate(&sk);
    items[1].u.d = hl_ds_hll_lower_bound(&sk, (int)kappa);
    items[2].u.d = hl_ds_hll_upper_bound(&sk, (int)kappa);
    out->u.list.n = 3;
    out->u.list.items = items;
  }
  hl_arena_destroy(tmp);
  return rc;
}

HL_FN(hl_fn_ds_hll_stringify) {
  (void)call;
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_ds_hll_t sk;
  hl_status_t rc = read_sketch(&a[0], tmp, &sk, err);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_ds_hll_to_string(&sk, &b);
    char *s = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
    if (s)
      memcpy(s, b.data, b.len);
    else
      rc = hl_err_nomem(err);
    hl_buf_fini(&b);
  }
  hl_arena_destroy(tmp);
  return rc;
}

HL_FN(hl_fn_ds_hll_union_f) {
  int64_t lgk = HL_DS_HLL_DEFAULT_LGK;
  int type = HL_DS_HLL_4;
  if (call->n_args > 2) {
    if (a[2].is_null)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "ds_hll_union_f: lgK must not be NULL");
    lgk = a[2].u.i;
  }
  if (call->n_args > 3) {
    if (a[3].is_null)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "Name is null");
    if ((type = hl_ds_hll_type_of(a[3].u.s.ptr, a[3].u.s.len)) < 0)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "No enum constant org.apache.datasketches.hll.TgtHllType.%.*s",
                        (int)(a[3].u.s.len > 64 ? 64 : a[3].u.s.len), a[3].u.s.ptr);
  }
  if (lgk < HL_DS_HLL_MIN_LGK || lgk > HL_DS_HLL_MAX_LGK)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Log K must be between 4 and 21, inclusive: %lld", (long long)lgk);
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_ds_hll_t g, sk, res;
  hl_ds_hll_union_init(&g, tmp, (int)lgk);
  hl_status_t rc = HL_OK;
  for (int i = 0; i < 2 && rc == HL_OK; i++) {
    if (a[i].is_null) continue;
    rc = read_sketch(&a[i], tmp, &sk, err);
    if (rc == HL_OK && hl_ds_hll_union_update(&g, (int)lgk, &sk) != HL_OK) rc = hl_err_nomem(err);
  }
  if (rc == HL_OK && hl_ds_hll_union_result(&g, type, &res) != HL_OK) rc = hl_err_nomem(err);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_ds_hll_serialize(&res, &b);
    char *s = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
    if (s)
      memcpy(s, b.data, b.len);
    else
      rc = hl_err_nomem(err);
    hl_buf_fini(&b);
  }
  hl_arena_destroy(tmp);
  return rc;
}
