/*
 * op_agg_ds_quantiles.c -- Hive 4's ds_quantile_doubles_sketch(x [, k])
 * and ds_quantile_doubles_union(sketch [, k]) (datasketches-hive 1.2.0
 * DataToDoublesSketchUDAF, UnionDoublesSketchUDAF): a DoublesUnion of
 * maxK = k (k <= 0 or none: 128) per group, its result's compact bytes
 * (util/ds_quantiles.h), NULL when the group saw no non-NULL value.
 *
 * The sketch aggregate adds each non-NULL DOUBLE; the union aggregate
 * reads each non-NULL sketch and unions it in (DoublesUnion.update, with
 * its downsampling to the smaller k).  A k outside the powers of two 2 ..
 * 32768 fails at the first value, as Java's builder does then.
 *
 * Partial states merge as Hive's reducer merges partial sketches: the
 * first one is copied (DoublesUnion.heapify), the next ones unioned in.
 * op_agg_par.c merges units in unit order at every thread count, and each
 * sketch draws its compaction offsets from its own seeded generator, so
 * the answer is the same at every thread count and run.  Spilled, a state
 * is its generator's state then the sketch's compact form.
 */
#include "exec/op_agg_int.h"
#include "util/ds_quantiles.h"

#include <string.h>

static uint32_t max_k(const hl_agg_t *ag) {
  return ag->ip[0] > 0 ? (uint32_t)ag->ip[0] : HL_DS_QUANTILES_DEFAULT_K;
}

hl_status_t hl_agg_dsq_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                              uint32_t r, hl_error_t *err) {
  if (hl_vec_is_null(arg, r)) return HL_OK;
  if (ag->ip[0] > 0 && !hl_ds_quantiles_valid_k(ag->ip[0]))
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "K must be >= 2 and <= 32768 and a power of 2: %d", (int)ag->ip[0]);
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  hl_ds_quantiles_union_t u = {max_k(ag), st->dsq};
  hl_status_t rc;
  if (ag->ip[1]) { /* a sketch, read in the batch's scratch */
    hl_ds_quantiles_t *in = NULL;
    rc = hl_ds_quantiles_deserialize((const uint8_t *)v.u.s.ptr, v.u.s.len, a->scratch, &in, err);
    if (rc != HL_OK) return rc == HL_NOMEM ? hl_err_nomem(err) : rc;
    rc = hl_ds_quantiles_union_update(&u, in, a->arena);
  } else {
    if (!u.gadget && !(u.gadget = hl_ds_quantiles_new(a->arena, u.max_k))) return hl_err_nomem(err);
    rc = hl_ds_quantiles_update(u.gadget, v.u.d);
  }
  st->dsq = u.gadget;
  return rc == HL_OK ? HL_OK : hl_err_nomem(err);
}

hl_status_t hl_agg_dsq_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                             hl_error_t *err) {
  if (!s->dsq) return HL_OK;
  if (!d->dsq) {
    if (!(d->dsq = hl_ds_quantiles_copy(s->dsq, a->arena))) return hl_err_nomem(err);
    d->dsq->rng = s->dsq->rng; /* the same sketch, as if it had not moved */
    return HL_OK;
  }
  hl_ds_quantiles_union_t u = {max_k(ag), d->dsq};
  if (hl_ds_quantiles_union_update(&u, s->dsq, a->arena) != HL_OK) return hl_err_nomem(err);
  d->dsq = u.gadget;
  return HL_OK;
}

hl_status_t hl_agg_dsq_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  if (!st->dsq) {
    out->is_null = true;
    return HL_OK;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_quantiles_serialize(st->dsq, &b);
  char *p = b.oom ? NULL : hl_arena_alloc(arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  size_t len = b.len;
  hl_buf_fini(&b);
  if (!p) return HL_NOMEM;
  out->u.s.ptr = p;
  out->u.s.len = (uint32_t)len;
  return HL_OK;
}

void hl_agg_dsq_save(const agg_state_t *st, hl_buf_t *out) {
  hl_buf_append(out, &st->dsq->rng, sizeof st->dsq->rng);
  hl_ds_quantiles_serialize(st->dsq, out);
}

hl_status_t hl_agg_dsq_load(agg_rd_t *r, hl_arena_t *arena, agg_state_t *st) {
  const uint8_t *p = hl_agg_rd_take(r, sizeof(uint64_t));
  if (!p) return HL_CORRUPT;
  uint64_t rng;
  memcpy(&rng, p, sizeof rng);
  hl_error_t e;
  hl_err_init(&e);
  hl_ds_quantiles_t *q = NULL;
  hl_status_t rc = hl_ds_quantiles_deserialize(r->p, r->left, arena, &q, &e);
  hl_err_clear(&e);
  if (rc != HL_OK) return rc == HL_NOMEM ? HL_NOMEM : HL_CORRUPT;
  hl_buf_t b; /* all the bytes are the sketch's */
  hl_buf_init(&b);
  hl_ds_quantiles_serialize(q, &b);
  bool oom = b.oom, whole = !oom && b.len == r->left;
  hl_buf_fini(&b);
  if (!whole) return oom ? HL_NOMEM : HL_CORRUPT;
  hl_agg_rd_take(r, r->left);
  q->rng = rng;
  st->dsq = q;
  return HL_OK;
}
