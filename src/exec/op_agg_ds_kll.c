/*
 * op_agg_ds_kll.c -- the aggregates ds_kll_sketch(x [, k]) and
 * ds_kll_union(sketch [, k]): a group's KLL floats sketch
 * (util/ds_kll.h) as the bytes datasketches-hive's DataToSketchUDAF and
 * UnionSketchUDAF return.
 *
 * As their evaluators do: NULLs are skipped; the group's sketch is made
 * at its first non-NULL value with k (the constant second argument, else
 * 200; an invalid k fails there, so an empty input has no error); a
 * group without a value gives NULL.  ds_kll_union reads each row's bytes
 * (heapify: bad bytes are 22023) and merges them into the group's sketch.
 * A partial state merges into the group's as Hive's final phase does:
 * the first one is taken as it is (a copy), the next ones merged into it,
 * in unit order (op_agg_par.c), so the answer is the same at every thread
 * count.  Java's coin is replaced by a per-sketch generator (ds_kll.h);
 * a copy carries its state, and so do the state rows of a spill: the
 * sketch's own bytes followed by the generator's 8 bytes.
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/ds_kll.h"

hl_status_t hl_agg_kll_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                              uint32_t r, hl_error_t *err) {
  if (hl_vec_is_null(arg, r)) return HL_OK;
  if (!st->kll) {
    if (hl_ds_kll_check_k(ag->ip[0], err) != HL_OK) return HL_ERROR;
    hl_ds_kll_t *s = hl_arena_alloc(a->arena, sizeof *s);
    if (!s || hl_ds_kll_init(s, a->arena, (uint32_t)ag->ip[0]) != HL_OK) return hl_err_nomem(err);
    st->kll = s;
  }
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  if (ag->kind == HL_AGG_DS_KLL_SKETCH)
    return hl_ds_kll_update(st->kll, (float)v.u.d) == HL_OK ? HL_OK : hl_err_nomem(err);
  /* the row's sketch lives only as long as the batch */
  hl_arena_t *tmp = a->scratch ? a->scratch : a->arena;
  hl_ds_kll_t in;
  hl_status_t rc = hl_ds_kll_deserialize((const uint8_t *)v.u.s.ptr, v.u.s.len, tmp, &in, err);
  if (rc == HL_NOMEM) return hl_err_nomem(err);
  if (rc != HL_OK) return rc;
  return hl_ds_kll_merge(st->kll, &in) == HL_OK ? HL_OK : hl_err_nomem(err);
}

hl_status_t hl_agg_kll_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err) {
  if (!s->kll) return HL_OK;
  if (d->kll) return hl_ds_kll_merge(d->kll, s->kll) == HL_OK ? HL_OK : hl_err_nomem(err);
  hl_ds_kll_t *c = hl_arena_alloc(a->arena, sizeof *c);
  if (!c || hl_ds_kll_copy(c, s->kll, a->arena) != HL_OK) return hl_err_nomem(err);
  d->kll = c;
  return HL_OK;
}

hl_status_t hl_agg_kll_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  if (!st->kll) {
    out->is_null = true;
    return HL_OK;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_kll_serialize(st->kll, &b);
  char *p = b.oom ? NULL : hl_arena_alloc(arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  out->u.s.ptr = p;
  out->u.s.len = (uint32_t)b.len;
  hl_buf_fini(&b);
  return p ? HL_OK : HL_NOMEM;
}

void hl_agg_kll_save(const agg_state_t *st, hl_buf_t *out) {
  hl_ds_kll_serialize(st->kll, out);
  hl_buf_append(out, &st->kll->rng, sizeof st->kll->rng);
}

hl_status_t hl_agg_kll_load(agg_rd_t *r, hl_arena_t *arena, agg_state_t *st) {
  uint64_t rng;
  if (r->left < sizeof rng) return HL_CORRUPT;
  size_t n = r->left - sizeof rng;
  const uint8_t *p = hl_agg_rd_take(r, n);
  const uint8_t *g = hl_agg_rd_take(r, sizeof rng);
  hl_ds_kll_t *s = hl_arena_alloc(arena, sizeof *s);
  if (!s) return HL_NOMEM;
  hl_error_t err;
  hl_err_init(&err);
  hl_status_t rc = hl_ds_kll_deserialize(p, n, arena, s, &err);
  hl_err_clear(&err);
  if (rc != HL_OK) return rc == HL_NOMEM ? HL_NOMEM : HL_CORRUPT;
  memcpy(&rng, g, sizeof rng);
  s->rng = rng;
  st->kll = s;
  return HL_OK;
}
