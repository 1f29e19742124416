/*
 * func_ds_theta.c -- Hive 4's scalar Theta sketch functions
 * (datasketches-hive theta EstimateSketchUDF, UnionSketchUDF,
 * IntersectSketchUDF, ExcludeSketchUDF) on util/ds_theta.h:
 * ds_theta_estimate(sketch [, seed]), ds_theta_union_f(a, b [, k [, seed]]),
 * ds_theta_intersect_f(a, b [, seed]), ds_theta_exclude(a, b [, seed]).
 *
 * The UDFs' own rules are kept: the estimate of NULL or of 8 bytes or
 * fewer is 0.0; union_f skips a NULL sketch or one under 8 bytes (and
 * union(Memory) one under 16); intersect_f and exclude read every non-empty
 * binary as Sketch.wrap does and fail on a NULL one, as Java's
 * Intersection and AnotB refuse a null sketch.  k and the seed are Java
 * primitives: NULL fails.  Each sketch is untrusted bytes, checked by
 * util/ds_theta.c (22023).
 */
#include <string.h>

#include "util/ds_theta.h"
#include "util/mem.h"
#include "util/murmur3.h"
#include "vector/func_int.h"

/* Argument K, a Java primitive (int or long), into *OUT. */
static hl_status_t prim_arg(const hl_value_t *a, int k, const char *fn, int64_t *out,
                            hl_error_t *err) {
  if (a[k].is_null)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s: argument %d must not be NULL", fn, k + 1);
  *out = a[k].u.i;
  return HL_OK;
}

static hl_status_t seed_arg(const hl_expr_t *call, const hl_value_t *a, int k, const char *fn,
                            int64_t *seed, hl_error_t *err) {
  *seed = HL_DS_SEED;
  return call->n_args > k ? prim_arg(a, k, fn, seed, err) : HL_OK;
}

/* C's bytes as OUT, in ARENA. */
static hl_status_t put_sketch(const hl_ds_theta_compact_t *c, hl_value_t *out, hl_arena_t *arena,
                              hl_error_t *err) {
  size_t n = hl_ds_theta_size(c);
  char *p = hl_fn_alloc_str(out, arena, n);
  if (!p) return hl_err_nomem(err);
  hl_ds_theta_write(c, (uint8_t *)p);
  return HL_OK;
}

HL_FN(hl_fn_ds_theta_estimate) {
  (void)arena;
  int64_t seed;
  if (seed_arg(call, a, 1, "ds_theta_estimate", &seed, err) != HL_OK) return HL_ERROR;
  if (a[0].is_null || a[0].u.s.len <= 8) {
    out->u.d = 0.0;
    return HL_OK;
  }
  hl_ds_theta_view_t v;
  if (hl_ds_theta_read((const uint8_t *)a[0].u.s.ptr, a[0].u.s.len, seed, HL_DS_THETA_WRAP, &v,
                       err) != HL_OK)
    return err->code;
  out->u.d = hl_ds_theta_view_estimate(&v);
  return HL_OK;
}

HL_FN(hl_fn_ds_theta_union_f) {
  int64_t k = HL_DS_THETA_DEFAULT_K, seed;
  if (call->n_args > 2 && prim_arg(a, 2, "ds_theta_union_f", &k, err) != HL_OK) return HL_ERROR;
  if (seed_arg(call, a, 3, "ds_theta_union_f", &seed, err) != HL_OK) return HL_ERROR;
  hl_arena_t *tmp = hl_arena_create(8192);
  if (!tmp) return hl_err_nomem(err);
  hl_ds_theta_union_t u;
  hl_status_t rc = hl_ds_theta_union_init(&u, (int32_t)k, 1.0f, seed, tmp, err);
  for (int i = 0; i < 2 && rc == HL_OK; i++) {
    /* Union.union(Memory) skips fewer than 16 bytes; the UDF fewer than 8 */
    if (a[i].is_null || a[i].u.s.len < 16) continue;
    hl_ds_theta_view_t v;
    rc = hl_ds_theta_read((const uint8_t *)a[i].u.s.ptr, a[i].u.s.len, seed, HL_DS_THETA_UNION, &v,
                          err);
    if (rc == HL_OK) rc = hl_ds_theta_union_view(&u, &v, tmp, err);
  }
  if (rc == HL_OK) {
    uint64_t *buf = hl_arena_alloc(tmp, sizeof(uint64_t) * (u.g.count + 1));
    if (!buf) {
      rc = hl_err_nomem(err);
    } else {
      hl_ds_theta_compact_t c;
      hl_ds_theta_union_result(&u, buf, &c);
      rc = put_sketch(&c, out, arena, err);
    }
  }
  hl_arena_destroy(tmp);
  return rc == HL_OK ? HL_OK : err->code;
}

/* The two sketch arguments of intersect_f / exclude, read as Sketch.wrap;
 * a NULL or empty binary is Java's null sketch, which MSG refuses. */
static hl_status_t two_views(const hl_value_t *a, int64_t seed, const char *msg,
                             hl_ds_theta_view_t v[2], hl_error_t *err) {
  for (int i = 0; i < 2; i++) {
    if (a[i].is_null || a[i].u.s.len == 0)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "%s", msg);
    if (hl_ds_theta_read((const uint8_t *)a[i].u.s.ptr, a[i].u.s.len, seed, HL_DS_THETA_WRAP, &v[i],
                         err) != HL_OK)
      return err->code;
  }
  return HL_OK;
}

HL_FN(hl_fn_ds_theta_intersect_f) {
  int64_t seed;
  if (seed_arg(call, a, 2, "ds_theta_intersect_f", &seed, err) != HL_OK) return HL_ERROR;
  hl_ds_theta_view_t v[2];
  if (two_views(a, seed, "Intersection argument must not be null.", v, err) != HL_OK)
    return err->code;
  hl_arena_t *tmp = hl_arena_create(8192);
  if (!tmp) return hl_err_nomem(err);
  hl_ds_theta_inter_t x;
  hl_ds_theta_compact_t c;
  hl_status_t rc = hl_ds_theta_inter_init(&x, seed, err);
  for (int i = 0; i < 2 && rc == HL_OK; i++)
    rc = hl_ds_theta_inter_add(&x, &v[i], tmp, err);
  if (rc == HL_OK) rc = hl_ds_theta_inter_result(&x, &c, err);
  if (rc == HL_OK) rc = put_sketch(&c, out, arena, err);
  hl_arena_destroy(tmp);
  return rc == HL_OK ? HL_OK : err->code;
}

HL_FN(hl_fn_ds_theta_exclude) {
  int64_t seed;
  uint16_t sh;
  if (seed_arg(call, a, 2, "ds_theta_exclude", &seed, err) != HL_OK) return HL_ERROR;
  if (hl_ds_theta_seed_hash(seed, &sh, err) != HL_OK) return HL_ERROR;
  hl_ds_theta_view_t v[2];
  if (two_views(a, seed, "Neither argument may be null", v, err) != HL_OK) return err->code;
  uint64_t *buf = hl_malloc(sizeof(uint64_t) * (v[0].n_slots + 1));
  if (!buf) return hl_err_nomem(err);
  hl_ds_theta_compact_t c;
  hl_status_t rc = hl_ds_theta_a_not_b(&v[0], &v[1], sh, buf, &c, err);
  if (rc == HL_OK) rc = put_sketch(&c, out, arena, err);
  hl_free(buf);
  return rc == HL_OK ? HL_OK : err->code;
}
