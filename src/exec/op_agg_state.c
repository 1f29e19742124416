/*
 * op_agg_state.c -- aggregate states as rows of a batch, so that the
 * parallel aggregation (op_agg_par.c) can spill a unit's partial states
 * through the spill block format (spill.h) and merge them later, in the
 * same order, exactly as it would have in memory (op_agg_spill.c).
 *
 * A state row is: the group values (their own types), the group's first
 * row (BIGINT: unit ordinal << 40 | row; its top bit set when the row is
 * the group's whole state so far -- written by hl_agg_spill_flush, an
 * eviction or the end of a merge -- which the replay restores rather than
 * merges: WHOLE_BIT), one BINARY of every aggregate's
 * state bytes one after the other, then a value column for each aggregate
 * that keeps values -- an ARRAY of the argument's type for the kinds that
 * keep them (collect_list/set, percentiles, every DISTINCT), min/max's
 * best as the argument's type, a BINARY of the structure of the kinds that
 * keep one of their own (histogram_numeric, ngrams, the bit vectors,
 * compute_stats, approx_distinct, bloom_filter: op_agg_own.c; NULL before
 * the group's first value, which a flag byte in the state bytes says).  An aggregate's bytes are
 * only what its kind uses (merge_state's cases in op_agg.c): the fields outside the union (count,
 * has, the decimal carry) as varints and a byte, then count nothing more, an integer sum a varint,
 * a DOUBLE's and the moments' bits as they are, a decimal sum a 128-bit varint,
 * approx_count_distinct its hash set or sketch -- about 4 bytes for a count, 6 for a small sum,
 * where the whole 64-byte state was written before.  Doubles keep their
 * bits and integers their value, so a replay merges the very states of
 * memory.  One function writes and one reads each aggregate's part
 * (put_state, get_state).  The decoder checks every length and flag (a
 * damaged file is XX001, never a crash); no pointer is ever read back.
 */
#include "exec/op_agg_int.h"

#include "util/mem.h"

#include <string.h>

struct agg_state_layout {
  int n_cols;
  const hl_type_t **types;
  int *vcol;            /* per aggregate: its value column, -1: none */
  hl_type_t *arrays;    /* per aggregate: ARRAY<argument type> */
  hl_type_t **children; /* per aggregate: the array's element */
};

/* In the first-row column: the state is a group's whole (agg_t.whole). */
#define WHOLE_BIT ((uint64_t)1 << 63)

typedef enum { ST_PLAIN, ST_PAIR, ST_SKETCH, ST_ITEMS, ST_BEST, ST_OWN } state_kind_t;

/* Which parts of the state aggregate AG uses (merge_state's cases). */
static state_kind_t kind_of(const hl_agg_t *ag) {
  if (ag->kind >= HL_AGG_CORR) return ST_PAIR;
  if (ag->kind == HL_AGG_APPROX_DISTINCT) return ST_SKETCH;
  if (hl_agg_own_state(ag)) return ST_OWN;
  if (ag->kind == HL_AGG_COUNT_STAR || ag->kind == HL_AGG_GROUPING) return ST_PLAIN;
  if (ag->kind == HL_AGG_COUNT && !ag->distinct) return ST_PLAIN;
  if (ag->distinct || ag->kind == HL_AGG_COLLECT_LIST || ag->kind == HL_AGG_COLLECT_SET ||
      ag->kind == HL_AGG_PERCENTILE || ag->kind == HL_AGG_PERCENTILE_CONT ||
      ag->kind == HL_AGG_PERCENTILE_DISC)
    return ST_ITEMS;
  if (ag->kind == HL_AGG_MIN || ag->kind == HL_AGG_MAX) return ST_BEST;
  return ST_PLAIN;
}

void hl_agg_state_layout_free(agg_state_layout_t *l) {
  if (!l) return;
  hl_free(l->types);
  hl_free(l->vcol);
  hl_free(l->arrays);
  hl_free(l->children);
  hl_free(l);
}

agg_state_layout_t *hl_agg_state_layout(const hl_plan_t *plan, hl_error_t *err) {
  int ng = plan->n_group, na = plan->n_aggs;
  agg_state_layout_t *l = hl_calloc(1, sizeof(*l));
  if (!l) return hl_err_nomem(err), NULL;
  l->types = hl_calloc((size_t)(ng + 2 + na), sizeof(hl_type_t *));
  l->vcol = hl_calloc((size_t)na + 1, sizeof(int));
  l->arrays = hl_calloc((size_t)na + 1, sizeof(hl_type_t));
  l->children = hl_calloc((size_t)na + 1, sizeof(hl_type_t *));
  if (!l->types || !l->vcol || !l->arrays || !l->children) {
    hl_agg_state_layout_free(l);
    return hl_err_nomem(err), NULL;
  }
  int c = 0;
  for (; c < ng; c++)
    l->types[c] = plan->group_exprs[c]->type;
  l->types[c++] = hl_type_prim(HL_T_BIGINT);
  l->types[c++] = hl_type_prim(HL_T_BINARY);
  for (int k = 0; k < na; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    state_kind_t sk = kind_of(ag);
    l->vcol[k] = -1;
    if (sk == ST_BEST) {
      l->vcol[k] = c;
      l->types[c++] = ag->arg->type;
    } else if (sk == ST_OWN) {
      l->vcol[k] = c;
      l->types[c++] = hl_type_prim(HL_T_BINARY);
    } else if (sk == ST_ITEMS) {
      l->children[k] = (hl_type_t *)ag->arg->type; /* read only */
      l->arrays[k].id = HL_T_ARRAY;
      l->arrays[k].n_children = 1;
      l->arrays[k].children = &l->children[k];
      l->vcol[k] = c;
      l->types[c++] = &l->arrays[k];
    }
  }
  l->n_cols = c;
  return l;
}

int hl_agg_state_cols(const agg_state_layout_t *l) {
  return l->n_cols;
}

const hl_type_t *const *hl_agg_state_types(const agg_state_layout_t *l) {
  return l->types;
}

/* ---- bytes: unsigned LEB128 varints, zigzag for signed values */

enum { VARINT_MAX = 10, VARINT128_MAX = 19 };

static uint8_t *put_u64(uint8_t *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}

static uint8_t *put_i64(uint8_t *p, int64_t v) {
  return put_u64(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static uint8_t *put_i128(uint8_t *p, __int128 v) {
  unsigned __int128 z = ((unsigned __int128)v << 1) ^ (unsigned __int128)(v >> 127);
  while (z >= 0x80) {
    *p++ = (uint8_t)(z | 0x80);
    z >>= 7;
  }
  *p++ = (uint8_t)z;
  return p;
}

static uint8_t *put_raw(uint8_t *p, const void *src, size_t n) {
  memcpy(p, src, n);
  return p + n;
}

/* A reader over [p, end); any overrun sets bad and reads zeros. */
typedef struct rd {
  const uint8_t *p, *end;
  bool bad;
} rd_t;

static unsigned __int128 get_uvar(rd_t *r, int max_bytes) {
  unsigned __int128 v = 0;
  for (int i = 0; i < max_bytes; i++) {
    if (r->p == r->end) break;
    uint8_t b = *r->p++;
    v |= (unsigned __int128)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) return v;
  }
  r->bad = true;
  return 0;
}

static uint64_t get_u64(rd_t *r) {
  return (uint64_t)get_uvar(r, VARINT_MAX);
}

static int64_t get_i64(rd_t *r) {
  uint64_t z = get_u64(r);
  return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

static __int128 get_i128(rd_t *r) {
  unsigned __int128 z = get_uvar(r, VARINT128_MAX);
  return (__int128)(z >> 1) ^ -(__int128)(z & 1);
}

static void get_raw(rd_t *r, void *dst, size_t n) {
  if ((size_t)(r->end - r->p) < n) {
    r->bad = true;
    memset(dst, 0, n);
    return;
  }
  memcpy(dst, r->p, n);
  r->p += n;
}

/* The most bytes put_state writes for ST (BOUND_FIXED plus the sketch). */
enum { BOUND_FIXED = 2 * VARINT_MAX + 1 + VARINT_MAX + sizeof(agg_state_t) };
static size_t state_bound(const hl_agg_t *ag, const agg_state_t *st) {
  if (kind_of(ag) != ST_SKETCH) return BOUND_FIXED;
  return BOUND_FIXED + (st->hll ? sizeof(hl_hll_t) : sizeof(uint64_t) * st->cap_hashes);
}

/* Aggregate AG's state ST as bytes at P (room: state_bound), its value
 * (min/max's best, the kept items) into column V at row I; the end of the
 * bytes.  The fields outside the union come first, then what the kind
 * keeps in it. */
static uint8_t *put_state(const hl_agg_t *ag, const agg_state_t *st, uint8_t *p, hl_vec_t *v,
                          hl_arena_t *arena, uint32_t i, hl_status_t *rc) {
  p = put_i64(p, st->count);
  *p++ = st->has ? 1 : 0;
  p = put_i64(p, st->dec_carry);
  hl_value_t val;
  memset(&val, 0, sizeof val);
  switch (kind_of(ag)) {
  case ST_PAIR:
    if (st->count) p = put_raw(p, &st->pair, sizeof st->pair);
    return p;
  case ST_SKETCH:
    *p++ = st->hll ? 1 : 0;
    if (st->hll) return put_raw(p, st->hll, sizeof(hl_hll_t));
    p = put_u64(p, st->cap_hashes);
    return st->cap_hashes ? put_raw(p, st->hashes, sizeof(uint64_t) * st->cap_hashes) : p;
  case ST_ITEMS:
    val.u.list.n = st->n_items;
    val.u.list.items = st->items;
    *rc = hl_vec_put_value(v, arena, i, &val);
    return p;
  case ST_BEST:
    if (st->has) {
      val = st->best;
      val.is_null = false;
    } else {
      val.is_null = true;
    }
    *rc = hl_vec_put_value(v, arena, i, &val);
    return p;
  case ST_OWN: /* a flag, the structure's bytes in the value column */
    *p++ = st->fam ? 1 : 0;
    if (st->fam) {
      *rc = hl_agg_own_put(ag, st, v, arena, i);
    } else {
      val.is_null = true;
      *rc = hl_vec_put_value(v, arena, i, &val);
    }
    return p;
  case ST_PLAIN:
    break;
  }
  switch (ag->kind) {
  case HL_AGG_COUNT_STAR:
  case HL_AGG_COUNT:
  case HL_AGG_GROUPING:
    return p; /* count only */
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    if (!st->has) return p;
    if (hl_type_phys(ag->arg->type) == HL_P_I64) return put_i64(p, st->sum.i);
    if (hl_type_phys(ag->arg->type) == HL_P_F64) return put_raw(p, &st->sum.d, sizeof st->sum.d);
    return put_i128(p, st->sum.dec);
  case HL_AGG_VAR_POP:
  case HL_AGG_VAR_SAMP:
  case HL_AGG_STDDEV_POP:
  case HL_AGG_STDDEV_SAMP:
    if (!st->count) return p;
    p = put_raw(p, &st->sum.d, sizeof st->sum.d);
    return put_raw(p, &st->m2, sizeof st->m2);
  default: /* a plain state of a kind not listed: all of it */
    return put_raw(p, st, sizeof *st);
  }
}

/* The inverse of put_state: ST (zeroed) from R's bytes and row I of V,
 * its arrays in ARENA (values borrowed from V).  False: damaged. */
static bool get_state(const hl_agg_t *ag, agg_state_t *st, rd_t *r, const hl_vec_t *v, uint32_t i,
                      hl_arena_t *arena, hl_status_t *rc) {
  st->count = get_i64(r);
  uint8_t has = 0;
  get_raw(r, &has, 1);
  if (has > 1) return false;
  st->has = has;
  st->dec_carry = get_i64(r);
  hl_value_t val;
  switch (kind_of(ag)) {
  case ST_PAIR:
    if (st->count) get_raw(r, &st->pair, sizeof st->pair);
    return !r->bad;
  case ST_SKETCH: {
    uint8_t sketch = 2;
    get_raw(r, &sketch, 1);
    if (sketch > 1 || r->bad) return false;
    if (sketch) {
      if (!(st->hll = hl_arena_alloc(arena, sizeof(hl_hll_t)))) return *rc = HL_NOMEM, false;
      get_raw(r, st->hll, sizeof(hl_hll_t));
      return !r->bad;
    }
    uint64_t cap = get_u64(r);
    if (r->bad || cap > (uint64_t)(r->end - r->p) / sizeof(uint64_t)) return false;
    st->cap_hashes = (uint32_t)cap;
    if (cap && !(st->hashes = hl_arena_alloc(arena, sizeof(uint64_t) * cap)))
      return *rc = HL_NOMEM, false;
    if (cap) get_raw(r, st->hashes, sizeof(uint64_t) * cap);
    return !r->bad;
  }
  case ST_ITEMS:
    hl_vec_get_value(v, i, &val);
    st->items = val.is_null ? NULL : val.u.list.items;
    st->n_items = st->cap_items = val.is_null ? 0 : val.u.list.n;
    return !r->bad;
  case ST_BEST:
    hl_vec_get_value(v, i, &val);
    if (val.is_null != !st->has) return false;
    if (!val.is_null) st->best = val;
    return !r->bad;
  case ST_OWN: {
    uint8_t made = 2;
    get_raw(r, &made, 1);
    if (made > 1 || r->bad) return false;
    hl_vec_get_value(v, i, &val);
    if (val.is_null != !made) return false;
    if (!made) return true;
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t lr = hl_agg_own_load(ag, (const uint8_t *)val.u.s.ptr, val.u.s.len, arena, st, &e);
    hl_err_clear(&e);
    if (lr == HL_NOMEM) *rc = HL_NOMEM;
    return lr == HL_OK; /* else damaged: the caller's XX001 */
  }
  case ST_PLAIN:
    break;
  }
  switch (ag->kind) {
  case HL_AGG_COUNT_STAR:
  case HL_AGG_COUNT:
  case HL_AGG_GROUPING:
    break;
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    if (!st->has) break;
    if (hl_type_phys(ag->arg->type) == HL_P_I64)
      st->sum.i = get_i64(r);
    else if (hl_type_phys(ag->arg->type) == HL_P_F64)
      get_raw(r, &st->sum.d, sizeof st->sum.d);
    else
      st->sum.dec = get_i128(r);
    break;
  case HL_AGG_VAR_POP:
  case HL_AGG_VAR_SAMP:
  case HL_AGG_STDDEV_POP:
  case HL_AGG_STDDEV_SAMP:
    if (!st->count) break;
    get_raw(r, &st->sum.d, sizeof st->sum.d);
    get_raw(r, &st->m2, sizeof st->m2);
    break;
  default:
    get_raw(r, st, sizeof *st);
    break;
  }
  return !r->bad;
}

hl_status_t hl_agg_state_encode(const agg_t *p, const agg_state_layout_t *l, const uint32_t *gs,
                                uint32_t n, bool whole, hl_batch_t *out, hl_error_t *err) {
  const hl_plan_t *plan = p->plan;
  int ng = plan->n_group, na = plan->n_aggs;
  uint32_t base = out->n_rows;
  if (base == 0 && hl_batch_reset(out) != HL_OK) return hl_err_nomem(err);
  hl_vec_t *pos = &out->cols[ng], *bytes = &out->cols[ng + 1];
  hl_status_t rc = HL_OK;
  for (uint32_t j = 0; j < n && rc == HL_OK; j++) {
    size_t g = gs[j];
    uint32_t i = base + j;
    for (int c = 0; c < ng && rc == HL_OK; c++)
      rc = hl_vec_put_value(&out->cols[c], out->arena, i,
                            &p->group_vals[g * (size_t)ng + (size_t)c]);
    HL_VEC_I64(pos)[i] = (int64_t)(p->first_pos[g] | (whole ? WHOLE_BIT : 0));
    const agg_state_t *sts = &p->states[g * (size_t)na];
    size_t room = 0;
    for (int k = 0; k < na; k++)
      room += state_bound(&plan->aggs[k], &sts[k]);
    uint8_t *b0 = hl_arena_alloc(out->arena, room + 1), *b = b0;
    if (!b0) return hl_err_nomem(err);
    for (int k = 0; k < na && rc == HL_OK; k++) {
      int vc = l->vcol[k];
      b = put_state(&plan->aggs[k], &sts[k], b, vc >= 0 ? &out->cols[vc] : NULL, out->arena, i,
                    &rc);
    }
    HL_VEC_STR(bytes)[i].ptr = (const char *)b0;
    HL_VEC_STR(bytes)[i].len = (uint32_t)(b - b0);
  }
  if (rc != HL_OK) return hl_err_nomem(err);
  out->n_rows = base + n;
  return HL_OK;
}

hl_status_t hl_agg_state_decode(const hl_plan_t *plan, const agg_state_layout_t *l,
                                const hl_batch_t *in, hl_arena_t *arena, agg_t *t,
                                hl_error_t *err) {
  int ng = plan->n_group, na = plan->n_aggs;
  uint32_t n = in->n_rows;
  t->plan = plan;
  t->n_groups = t->cap_groups = n;
  t->group_vals = hl_arena_alloc(arena, sizeof(hl_value_t) * ((size_t)n * (size_t)ng + 1));
  t->states = hl_arena_zalloc(arena, sizeof(agg_state_t) * ((size_t)n * (size_t)na + 1));
  t->first_pos = hl_arena_alloc(arena, sizeof(uint64_t) * ((size_t)n + 1));
  uint8_t *whole = hl_arena_alloc(arena, (size_t)n + 1);
  t->whole = whole;
  if (!t->group_vals || !t->states || !t->first_pos || !whole) return hl_err_nomem(err);
  const hl_vec_t *pos = &in->cols[ng], *bytes = &in->cols[ng + 1];
  hl_status_t rc = HL_OK;
  for (uint32_t i = 0; i < n; i++) {
    for (int c = 0; c < ng; c++)
      hl_vec_get_value(&in->cols[c], i, &t->group_vals[(size_t)i * (size_t)ng + (size_t)c]);
    if (hl_vec_is_null(pos, i) || hl_vec_is_null(bytes, i)) goto corrupt;
    t->first_pos[i] = (uint64_t)HL_VEC_I64(pos)[i] & ~WHOLE_BIT;
    whole[i] = ((uint64_t)HL_VEC_I64(pos)[i] & WHOLE_BIT) != 0;
    const hl_str_t *s = &HL_VEC_STR(bytes)[i];
    rd_t r = {(const uint8_t *)s->ptr, (const uint8_t *)s->ptr + s->len, false};
    for (int k = 0; k < na; k++) {
      int vc = l->vcol[k];
      if (!get_state(&plan->aggs[k], &t->states[(size_t)i * (size_t)na + (size_t)k], &r,
                     vc >= 0 ? &in->cols[vc] : NULL, i, arena, &rc)) {
        if (rc != HL_OK) return hl_err_nomem(err);
        goto corrupt;
      }
    }
    if (r.p != r.end) goto corrupt;
  }
  return HL_OK;
corrupt:
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "a spilled aggregation state is damaged");
}
