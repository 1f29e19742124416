/*
 * op_agg_ds_hll.c -- the aggregates ds_hll_sketch(x [, lgK [, type]]) and
 * ds_hll_union(sketch [, lgK [, type]]): Hive 4's DataSketches HLL
 * UDAFs (datasketches-hive DataToSketchUDAF, UnionSketchUDAF) over
 * util/ds_hll.h.  lgK and the type are constants fixed by the binder
 * (ip[0], ip[1]).
 *
 * Hive runs them in two phases: each mapper builds a partial state (a
 * sketch of lgK and type for ds_hll_sketch, a union for ds_hll_union),
 * hands it on as its compact bytes (getResult(type) for a union), and the
 * reducer puts every partial into a union of lgK and returns
 * getResult(type).  The answer depends on that shape (a union of two HLL
 * sketches is out of order and estimated by the composite estimator), so
 * hivelite keeps it: a unit of the scan (op_agg_par.c) is a mapper, its
 * state the partial, and the group's result state is the reducer's
 * union, fed the units' partials in unit order.  A group seen by one unit
 * still goes through the union, as Hive's single mapper does.  The units
 * are the same at every thread count, so the bytes are too.
 *
 * The state is NULL until the group's first non-NULL value (Hive's
 * uninitialised buffer: NULL result), then an agg_dshll.  A value Hive's
 * update ignores (an empty string or binary) still makes the state, so
 * such a group gives the empty sketch.  Spilled (op_agg_own.c), a state
 * is its flags and hl_ds_hll_save's bytes; a merged state read back into
 * an empty table is copied as it is, so the spilled answer is the
 * in-memory one.
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/ds_hll.h"
#include "util/murmur3.h"

struct agg_dshll {
  bool is_union; /* sk is a union's gadget (else a ds_hll_sketch unit's sketch) */
  bool merged;   /* the result state: the reducer's union of partials */
  hl_ds_hll_t sk;
};

static struct agg_dshll *dshll_new(hl_arena_t *arena, int lgk, int type, bool is_union) {
  struct agg_dshll *d = hl_arena_zalloc(arena, sizeof *d);
  if (!d) return NULL;
  d->is_union = is_union;
  if (is_union)
    hl_ds_hll_union_init(&d->sk, arena, lgk);
  else
    hl_ds_hll_init(&d->sk, arena, lgk, type);
  return d;
}

/* The coupon of V (of TYPE) as the UDF's State.update adds it, or 0 for
 * a value it ignores. */
static hl_status_t item_coupon(const hl_type_t *type, const hl_value_t *v, hl_arena_t *scratch,
                               uint32_t *coupon) {
  uint64_t h[2];
  *coupon = 0;
  switch (type->id) {
  case HL_T_TINYINT:
  case HL_T_INT:
  case HL_T_BIGINT:
    hl_ds_hash_long(v->u.i, HL_DS_SEED, h);
    break;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    hl_ds_hash_double(v->u.d, HL_DS_SEED, h);
    break;
  case HL_T_BINARY:
    if (v->u.s.len == 0) return HL_OK;
    hl_murmur3_128(v->u.s.ptr, v->u.s.len, HL_DS_SEED, h);
    break;
  default: /* STRING, VARCHAR, CHAR: the Java String's chars */
    if (v->u.s.len == 0) return HL_OK;
    if (hl_ds_hash_chars(v->u.s.ptr, v->u.s.len, scratch, h) != HL_OK) return HL_NOMEM;
    break;
  }
  *coupon = hl_ds_hll_coupon(h);
  return HL_OK;
}

hl_status_t hl_agg_dshll_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                uint32_t r, hl_error_t *err) {
  if (hl_vec_is_null(arg, r)) return HL_OK;
  bool uni = ag->kind == HL_AGG_DS_HLL_UNION;
  if (!st->dshll && !(st->dshll = dshll_new(a->arena, ag->ip[0], ag->ip[1], uni)))
    return hl_err_nomem(err);
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  if (!uni) {
    uint32_t c = 0;
    if (item_coupon(arg->type, &v, a->scratch, &c) != HL_OK ||
        hl_ds_hll_update(&st->dshll->sk, c) != HL_OK)
      return hl_err_nomem(err);
    return HL_OK;
  }
  /* each sketch read into an arena of its own: a batch of lgK 21 sketches
   * would be gigabytes */
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_ds_hll_t src;
  hl_status_t rc = hl_ds_hll_deserialize((const uint8_t *)v.u.s.ptr, v.u.s.len, tmp, &src, err);
  if (rc == HL_OK && hl_ds_hll_union_update(&st->dshll->sk, ag->ip[0], &src) != HL_OK)
    rc = hl_err_nomem(err);
  hl_arena_destroy(tmp);
  return rc;
}

/* A partial state into the reducer's union G: a unit's sketch as it is,
 * a union as its getResult(type) (made in TMP). */
static hl_status_t put_partial(const hl_agg_t *ag, hl_ds_hll_t *g, struct agg_dshll *p,
                               hl_arena_t *tmp) {
  if (!p->is_union) return hl_ds_hll_union_update(g, ag->ip[0], &p->sk);
  hl_ds_hll_t part = p->sk, res;
  part.arena = tmp;
  if (hl_ds_hll_union_result(&part, ag->ip[1], &res) != HL_OK) return HL_NOMEM;
  return hl_ds_hll_union_update(g, ag->ip[0], &res);
}

/* A copy of merged state S in ARENA: a spilled table's merged states are
 * merged into an empty table (op_agg_spill.c), which must copy them. */
static struct agg_dshll *dshll_copy(hl_arena_t *arena, const struct agg_dshll *s) {
  struct agg_dshll *d = hl_arena_alloc(arena, sizeof *d);
  if (!d) return NULL;
  *d = *s;
  d->sk.arena = arena;
  if (s->sk.cap) {
    size_t n = sizeof(uint32_t) * s->sk.cap;
    if (!(d->sk.coupons = hl_arena_alloc(arena, n))) return NULL;
    memcpy(d->sk.coupons, s->sk.coupons, n);
  }
  if (s->sk.regs) {
    size_t n = (size_t)1 << s->sk.lgk;
    if (!(d->sk.regs = hl_arena_alloc(arena, n))) return NULL;
    memcpy(d->sk.regs, s->sk.regs, n);
  }
  return d;
}

hl_status_t hl_agg_dshll_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                               hl_error_t *err) {
  if (!s->dshll) return HL_OK;
  if (!d->dshll && s->dshll->merged)
    return (d->dshll = dshll_copy(a->arena, s->dshll)) ? HL_OK : hl_err_nomem(err);
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  if (!d->dshll || !d->dshll->merged) {
    struct agg_dshll *m = dshll_new(a->arena, ag->ip[0], ag->ip[1], true);
    if (!m) rc = HL_NOMEM;
    if (rc == HL_OK && d->dshll) rc = put_partial(ag, &m->sk, d->dshll, tmp);
    if (rc == HL_OK) {
      m->merged = true;
      d->dshll = m;
    }
  }
  if (rc == HL_OK) rc = put_partial(ag, &d->dshll->sk, s->dshll, tmp);
  hl_arena_destroy(tmp);
  return rc == HL_OK ? HL_OK : hl_err_nomem(err);
}

hl_status_t hl_agg_dshll_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                               hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  if (!st->dshll) {
    out->is_null = true;
    return HL_OK;
  }
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return HL_NOMEM;
  hl_ds_hll_t g, res;
  hl_status_t rc = HL_OK;
  if (st->dshll->merged) {
    g = st->dshll->sk;
  } else {
    hl_ds_hll_union_init(&g, tmp, ag->ip[0]);
    rc = put_partial(ag, &g, st->dshll, tmp);
  }
  g.arena = tmp; /* the result's arrays; the state itself is only read */
  if (rc == HL_OK) rc = hl_ds_hll_union_result(&g, ag->ip[1], &res);
  hl_buf_t b;
  hl_buf_init(&b);
  if (rc == HL_OK) hl_ds_hll_serialize(&res, &b);
  char *p = rc == HL_OK && !b.oom ? hl_arena_alloc(arena, b.len ? b.len : 1) : NULL;
  if (p) {
    memcpy(p, b.data, b.len);
    out->u.s.ptr = p;
    out->u.s.len = (uint32_t)b.len;
  } else {
    rc = HL_NOMEM;
  }
  hl_buf_fini(&b);
  hl_arena_destroy(tmp);
  return rc;
}

void hl_agg_dshll_save(const agg_state_t *st, hl_buf_t *out) {
  uint8_t f[2] = {st->dshll->is_union, st->dshll->merged};
  hl_buf_append(out, f, 2);
  hl_ds_hll_save(&st->dshll->sk, out);
}

hl_status_t hl_agg_dshll_load(agg_rd_t *r, const hl_agg_t *ag, hl_arena_t *arena, agg_state_t *st) {
  const uint8_t *f = hl_agg_rd_take(r, 2);
  if (!f || f[0] > 1 || f[1] > 1 || (f[1] && !f[0])) return HL_CORRUPT;
  if (f[0] != (ag->kind == HL_AGG_DS_HLL_UNION) && !f[1]) return HL_CORRUPT;
  struct agg_dshll *d = hl_arena_zalloc(arena, sizeof *d);
  if (!d) return HL_NOMEM;
  d->is_union = f[0];
  d->merged = f[1];
  size_t used = 0;
  if (!hl_ds_hll_load(r->p, r->left, &used, arena, &d->sk)) return HL_CORRUPT;
  /* a sketch has the aggregate's lgK and type; a union's gadget is HLL_8
   * of at most lgK (it shrinks to a smaller source's) */
  if (d->is_union ? d->sk.type != HL_DS_HLL_8 || d->sk.lgk > ag->ip[0]
                  : d->sk.type != ag->ip[1] || d->sk.lgk != ag->ip[0])
    return HL_CORRUPT;
  hl_agg_rd_take(r, used);
  st->dshll = d;
  return HL_OK;
}
