/*
 * op_agg_own.c -- the states that are structures of their own
 * (histogram_numeric, ngrams, context_ngrams, compute_bit_vector_hll /
 * _fm, compute_stats, approx_distinct, bloom_filter, the ds_* sketches) as
 * bytes, so that state rows (op_agg_state.c) carry them and the parallel
 * aggregation spills them like any other state.
 *
 * This file picks the kind's writer or reader (each in the file that owns
 * the structure) and gives them a bounded reader.  The bytes are only
 * ever read back by the process that wrote them, so they are the
 * structures' fields as they are (native doubles, little-endian
 * integers); what a reader rebuilds is a faithful copy -- java.util.Random's
 * state of a histogram, the first-arrival order of a sparse HyperLogLog --
 * and hl_agg_merge merges it as it would have merged the unit's state in
 * memory, in the same order, so a spilled answer is the in-memory one.
 * Every length and count is checked before it is used, and so is every
 * invariant the merges rely on (sorted keys, the number of words of an
 * n-gram, the vectors of a sketch): a torn or damaged spill file is
 * XX001, never a crash.  Fuzzed with the spill blocks (tests/fuzz/fuzz_spill.c).
 */
#include "exec/op_agg_int.h"

#include <string.h>

const uint8_t *hl_agg_rd_take(agg_rd_t *r, size_t n) {
  if (n > r->left) {
    r->left = 0;
    return NULL;
  }
  const uint8_t *p = r->p;
  r->p += n;
  r->left -= n;
  return p;
}

bool hl_agg_rd_u32(agg_rd_t *r, uint32_t *v) {
  const uint8_t *p = hl_agg_rd_take(r, sizeof *v);
  if (p) memcpy(v, p, sizeof *v);
  return p != NULL;
}

bool hl_agg_rd_i64(agg_rd_t *r, int64_t *v) {
  const uint8_t *p = hl_agg_rd_take(r, sizeof *v);
  if (p) memcpy(v, p, sizeof *v);
  return p != NULL;
}

bool hl_agg_rd_f64(agg_rd_t *r, double *v) {
  const uint8_t *p = hl_agg_rd_take(r, sizeof *v);
  if (p) memcpy(v, p, sizeof *v);
  return p != NULL;
}

bool hl_agg_own_state(const hl_agg_t *ag) {
  switch (ag->kind) {
  case HL_AGG_HISTOGRAM:
  case HL_AGG_NGRAMS:
  case HL_AGG_CONTEXT_NGRAMS:
  case HL_AGG_BITVECTOR_HLL:
  case HL_AGG_BITVECTOR_FM:
  case HL_AGG_COMPUTE_STATS:
  case HL_AGG_BLOOM_FILTER:
  case HL_AGG_HIVE_APPROX_DISTINCT:
  case HL_AGG_DS_KLL_SKETCH:
  case HL_AGG_DS_KLL_UNION:
  case HL_AGG_DS_THETA_SKETCH:
  case HL_AGG_DS_THETA_UNION:
  case HL_AGG_DS_THETA_INTERSECT:
  case HL_AGG_DS_HLL_SKETCH:
  case HL_AGG_DS_HLL_UNION:
  case HL_AGG_DS_QUANTILES:
    return true;
  default:
    return false;
  }
}

void hl_agg_own_save(const hl_agg_t *ag, const agg_state_t *st, hl_buf_t *out) {
  switch (ag->kind) {
  case HL_AGG_HISTOGRAM:
    hl_agg_hist_save(st, out);
    break;
  case HL_AGG_NGRAMS:
  case HL_AGG_CONTEXT_NGRAMS:
    hl_agg_ngrams_save(st, out);
    break;
  case HL_AGG_BITVECTOR_HLL:
  case HL_AGG_BITVECTOR_FM:
  case HL_AGG_HIVE_APPROX_DISTINCT:
    hl_agg_sketch_save(ag->kind == HL_AGG_BITVECTOR_FM, st, out);
    break;
  case HL_AGG_BLOOM_FILTER:
    hl_agg_bloom_save(ag, st, out);
    break;
  case HL_AGG_DS_KLL_SKETCH:
  case HL_AGG_DS_KLL_UNION:
    hl_agg_kll_save(st, out);
    break;
  case HL_AGG_DS_THETA_SKETCH:
  case HL_AGG_DS_THETA_UNION:
  case HL_AGG_DS_THETA_INTERSECT:
    hl_agg_ds_theta_save(ag, st, out);
    break;
  case HL_AGG_DS_HLL_SKETCH:
  case HL_AGG_DS_HLL_UNION:
    hl_agg_dshll_save(st, out);
    break;
  case HL_AGG_DS_QUANTILES:
    hl_agg_dsq_save(st, out);
    break;
  default: /* HL_AGG_COMPUTE_STATS */
    hl_agg_cstats_save(ag->arg->type, ag->ip[0] != 0, st, out);
    break;
  }
}

hl_status_t hl_agg_own_put(const hl_agg_t *ag, const agg_state_t *st, hl_vec_t *vec,
                           hl_arena_t *arena, uint32_t row) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_agg_own_save(ag, st, &b);
  hl_value_t v;
  memset(&v, 0, sizeof v);
  v.u.s.ptr = b.data ? b.data : "";
  v.u.s.len = (uint32_t)b.len;
  /* hl_vec_put_value copies the bytes into ARENA */
  hl_status_t rc = b.oom || b.len > UINT32_MAX ? HL_NOMEM : hl_vec_put_value(vec, arena, row, &v);
  hl_buf_fini(&b);
  return rc;
}

hl_status_t hl_agg_own_load(const hl_agg_t *ag, const uint8_t *data, size_t len, hl_arena_t *arena,
                            agg_state_t *st, hl_error_t *err) {
  agg_rd_t r = {data, len};
  hl_status_t rc = HL_CORRUPT;
  uint32_t n;
  int64_t keep;
  switch (ag->kind) {
  case HL_AGG_HISTOGRAM:
    /* a state exists only once nb passed its check (at least 2) */
    if (!ag->params_null && ag->ip[0] >= 2)
      rc = hl_agg_hist_load(&r, (uint32_t)ag->ip[0], arena, st);
    break;
  case HL_AGG_NGRAMS:
  case HL_AGG_CONTEXT_NGRAMS:
    if (!ag->params_null && hl_agg_ngrams_shape(ag, &n, &keep))
      rc = hl_agg_ngrams_load(&r, n, keep, arena, st);
    break;
  case HL_AGG_BITVECTOR_HLL:
  case HL_AGG_BITVECTOR_FM:
    rc = hl_agg_sketch_load(&r, ag->kind == HL_AGG_BITVECTOR_FM, (int)ag->param, arena, st);
    break;
  case HL_AGG_HIVE_APPROX_DISTINCT:
    rc = hl_agg_hll_load(&r, HL_AGG_APPROX_P, arena, st);
    break;
  case HL_AGG_BLOOM_FILTER:
    rc = hl_agg_bloom_load(&r, ag, arena, st);
    break;
  case HL_AGG_DS_KLL_SKETCH:
  case HL_AGG_DS_KLL_UNION:
    rc = hl_agg_kll_load(&r, arena, st);
    break;
  case HL_AGG_DS_THETA_SKETCH:
  case HL_AGG_DS_THETA_UNION:
  case HL_AGG_DS_THETA_INTERSECT:
    rc = hl_agg_ds_theta_load(&r, ag, arena, st);
    break;
  case HL_AGG_DS_HLL_SKETCH:
  case HL_AGG_DS_HLL_UNION:
    rc = hl_agg_dshll_load(&r, ag, arena, st);
    break;
  case HL_AGG_DS_QUANTILES:
    rc = hl_agg_dsq_load(&r, arena, st);
    break;
  default: /* HL_AGG_COMPUTE_STATS */
    /* ip[0] = 1: an FMSketch of param vectors */
    rc = hl_agg_cstats_load(&r, ag->arg->type, ag->ip[0] != 0, (int)ag->param, arena, st);
    break;
  }
  if (rc == HL_OK && r.left) rc = HL_CORRUPT; /* bytes after the structure */
  if (rc == HL_NOMEM) return hl_err_nomem(err);
  if (rc != HL_OK)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "a spilled aggregation state is damaged");
  return HL_OK;
}
