/*
 * op_agg.c -- hash aggregation: GROUP BY, DISTINCT and the aggregates
 * count, sum, min, max, avg (with DISTINCT), then HAVING.
 *
 * The whole input is consumed on the first next(): each row's group
 * expressions are serialized into a byte key (null flag + fixed-width or
 * length-prefixed bytes per value), the key finds or creates a group number
 * in a hash map, and per-group states are updated.  Output batches hold the
 * group values followed by the aggregate results ("aggregate layout").
 * Ungrouped aggregation over an empty input yields one row (count 0, others
 * NULL), as SQL requires; grouped aggregation yields none.
 *
 * The table (agg_t, op_agg_int.h) is also the parallel aggregation's unit
 * of merging (op_agg_par.c): hl_agg_merge folds one table's groups into
 * another as if the second had read the first's rows after its own, for
 * every aggregate kind (section "merging").
 */
#include "exec/op_agg_int.h"

#include "util/mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Up to this many distinct values approx_count_distinct is exact (the set
 * of hashes takes at most as much memory as a 16 KiB sketch), as
 * HyperLogLog++'s sparse mode is; beyond, a sketch with about 0.8 %
 * standard error. */
#define SKETCH_EXACT 1024

/* Decimal sums keep |sum.dec| below DEC_CHUNK and count whole chunks in
 * dec_carry, so adding values below 10^38 never overflows 128 bits and the
 * total stays exact until final_value checks it against the precision. */
#define DEC_CHUNK ((__int128)10000000000000000000ULL * (__int128)1000000000000000000ULL)

/* Copies the payload of V (string bytes, complex-value trees) into the
 * operator arena: V points into the child's batch, reset on its next call. */
static int persist(hl_arena_t *arena, const hl_type_t *type, hl_value_t *v) {
  hl_value_t copy;
  if (hl_value_copy_deep(arena, type, v, &copy) != HL_OK) return -1;
  *v = copy;
  return 0;
}

static hl_status_t add_group(agg_t *a, const hl_value_t *vals, hl_error_t *err) {
  const hl_plan_t *plan = a->plan;
  if (a->n_groups == a->cap_groups) {
    size_t cap = a->cap_groups ? a->cap_groups * 2 : 64;
    hl_value_t *gv =
        hl_realloc(a->group_vals, sizeof(hl_value_t) * cap * (size_t)(plan->n_group + 1));
    if (!gv) return hl_err_nomem(err);
    a->group_vals = gv;
    agg_state_t *st = hl_realloc(a->states, sizeof(agg_state_t) * cap * (size_t)(plan->n_aggs + 1));
    if (!st) return hl_err_nomem(err);
    a->states = st;
    if (a->track_pos) {
      uint64_t *fp = hl_realloc(a->first_pos, sizeof(uint64_t) * cap);
      if (!fp) return hl_err_nomem(err);
      a->first_pos = fp;
    }
    a->cap_groups = cap;
  }
  if (a->track_pos) a->first_pos[a->n_groups] = a->cur_pos;
  hl_value_t *gv = &a->group_vals[a->n_groups * (size_t)plan->n_group];
  for (int g = 0; g < plan->n_group; g++) {
    gv[g] = vals[g];
    if (persist(a->arena, plan->group_exprs[g]->type, &gv[g]) < 0) return hl_err_nomem(err);
  }
  memset(&a->states[a->n_groups * (size_t)plan->n_aggs], 0,
         sizeof(agg_state_t) * (size_t)plan->n_aggs);
  a->n_groups++;
  return HL_OK;
}

/* Packs the string key of row R into *KEY (see agg_t.str_keys); false when
 * it takes more than 8 bytes. */
static bool pack_str_key(const hl_vec_t *gvecs, int ng, uint32_t r, int64_t *key) {
  uint8_t bytes[8] = {0};
  size_t at = 0;
  for (int g = 0; g < ng; g++) {
    if (hl_vec_is_null(&gvecs[g], r)) {
      if (at == 8) return false;
      bytes[at++] = 0;
      continue;
    }
    const hl_str_t *v = &HL_VEC_STR(&gvecs[g])[r];
    if (at + 1 + (size_t)v->len > 8) return false;
    bytes[at++] = (uint8_t)(v->len + 1);
    memcpy(bytes + at, v->ptr, v->len);
    at += v->len;
  }
  memcpy(key, bytes, sizeof *key);
  return true;
}

/* The group number of row R (group values in VALS), adding the group when
 * it is new.  Not for grouping sets. */
static hl_status_t group_id(agg_t *a, const hl_vec_t *gvecs, uint32_t r, hl_value_t *vals,
                            uint64_t *id, hl_error_t *err) {
  const hl_plan_t *plan = a->plan;
  int ng = plan->n_group;
  a->cur_pos = a->pos_base + r;
  if (a->int_key) {
    if (hl_vec_is_null(&gvecs[0], r)) {
      if (a->null_id < 0) {
        memset(&vals[0], 0, sizeof vals[0]);
        vals[0].is_null = true;
        hl_status_t rc = add_group(a, vals, err);
        if (rc != HL_OK) return rc;
        a->null_id = (int64_t)a->n_groups - 1;
      }
      *id = (uint64_t)a->null_id;
      return HL_OK;
    }
    int64_t key = HL_VEC_I64(&gvecs[0])[r];
    if (a->n_groups >= UINT32_MAX - 1)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "an aggregation has too many groups");
    uint32_t found;
    if (hl_imap_upsert(&a->ikeys, key, (uint32_t)a->n_groups + 1, &found) < 0)
      return hl_err_nomem(err);
    *id = found - 1;
    if (found != (uint32_t)a->n_groups + 1) return HL_OK;
    memset(&vals[0], 0, sizeof vals[0]);
    vals[0].u.i = key;
    return add_group(a, vals, err); /* the new group's number is n_groups */
  }
  int64_t packed;
  if (a->str_keys && pack_str_key(gvecs, ng, r, &packed)) {
    if (a->n_groups >= UINT32_MAX - 1)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "an aggregation has too many groups");
    uint32_t found;
    if (hl_imap_upsert(&a->ikeys, packed, (uint32_t)a->n_groups + 1, &found) < 0)
      return hl_err_nomem(err);
    *id = found - 1;
    if (found != (uint32_t)a->n_groups + 1) return HL_OK;
    for (int g = 0; g < ng; g++)
      hl_vec_get_value(&gvecs[g], r, &vals[g]);
    return add_group(a, vals, err);
  }
  bool inserted;
  if (a->str_keys && ng == 1) {
    /* one string column: NULL and every string under 8 bytes packed above,
     * so the bytes themselves are the key (no serialization) */
    const hl_str_t *v = &HL_VEC_STR(&gvecs[0])[r];
    if (hl_map_upsert(a->groups, v->ptr, v->len, a->n_groups, id, &inserted) < 0)
      return hl_err_nomem(err);
    if (inserted) hl_vec_get_value(&gvecs[0], r, &vals[0]);
    return inserted ? add_group(a, vals, err) : HL_OK;
  }
  hl_buf_reset(&a->key);
  for (int g = 0; g < ng; g++) {
    hl_vec_get_value(&gvecs[g], r, &vals[g]);
    hl_value_key_append(&a->key, gvecs[g].type, &vals[g]);
  }
  if (a->key.oom) return hl_err_nomem(err);
  if (hl_map_upsert(a->groups, a->key.data ? a->key.data : "", a->key.len, a->n_groups, id,
                    &inserted) < 0)
    return hl_err_nomem(err);
  return inserted ? add_group(a, vals, err) : HL_OK;
}

/* The key of row R's group in grouping set SET into a->key (the set's
 * number first, so that (a, NULL) of different sets stay apart), its
 * values into VALS: NULL in the columns the set does not group. */
static void set_key(agg_t *a, const hl_vec_t *gvecs, uint32_t r, int set, hl_value_t *vals) {
  const hl_plan_t *plan = a->plan;
  hl_buf_reset(&a->key);
  hl_buf_append(&a->key, &set, sizeof set);
  for (int g = 0; g < plan->n_group; g++) {
    hl_vec_get_value(&gvecs[g], r, &vals[g]);
    if (!(plan->grouping_sets[set] >> g & 1)) {
      memset(&vals[g], 0, sizeof vals[g]);
      vals[g].is_null = true;
    }
    hl_value_key_append(&a->key, gvecs[g].type, &vals[g]);
  }
}

bool hl_agg_set_group_known(agg_t *a, const hl_vec_t *gvecs, uint32_t r, int set, hl_value_t *vals,
                            uint64_t *hash) {
  *hash = 0;
  set_key(a, gvecs, r, set, vals);
  if (a->key.oom) return true;
  const void *k = a->key.data ? a->key.data : "";
  *hash = hl_hash_bytes(k, a->key.len);
  uint64_t id;
  return hl_map_get(a->groups, k, a->key.len, &id) == 1;
}

bool hl_agg_group_known(agg_t *a, const hl_vec_t *gvecs, uint32_t r) {
  int ng = a->plan->n_group;
  uint64_t id;
  if (a->int_key) {
    if (hl_vec_is_null(&gvecs[0], r)) return a->null_id >= 0;
    return hl_imap_get(&a->ikeys, HL_VEC_I64(&gvecs[0])[r]) != 0;
  }
  int64_t packed;
  if (a->str_keys && pack_str_key(gvecs, ng, r, &packed))
    return hl_imap_get(&a->ikeys, packed) != 0;
  if (a->str_keys && ng == 1) {
    const hl_str_t *v = &HL_VEC_STR(&gvecs[0])[r];
    return hl_map_get(a->groups, v->ptr, v->len, &id) == 1;
  }
  hl_buf_reset(&a->key);
  for (int g = 0; g < ng; g++) {
    hl_value_t v;
    hl_vec_get_value(&gvecs[g], r, &v);
    hl_value_key_append(&a->key, gvecs[g].type, &v);
  }
  /* no memory for the key: the row is taken as known, which only keeps
   * it in memory (the budget then says so) */
  if (a->key.oom) return true;
  return hl_map_get(a->groups, a->key.data ? a->key.data : "", a->key.len, &id) == 1;
}

static void sketch_insert(agg_state_t *st, uint64_t h) {
  uint32_t mask = st->cap_hashes - 1;
  for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
    if (st->hashes[i] == h) return;
    if (st->hashes[i] == 0) {
      st->hashes[i] = h;
      st->count++;
      return;
    }
  }
}

static bool sketch_has(const agg_state_t *st, uint64_t h) {
  uint32_t mask = st->cap_hashes - 1;
  for (uint32_t i = (uint32_t)h & mask; st->cap_hashes; i = (i + 1) & mask) {
    if (st->hashes[i] == h) return true;
    if (st->hashes[i] == 0) return false;
  }
  return false;
}

/* approx_count_distinct: adds hash H to the group's state.  The state is
 * a function of the set of hashes (exact set up to SKETCH_EXACT of them,
 * else the sketch of all), so merged states equal one state that saw
 * every value, in any order. */
static hl_status_t sketch_add_hash(agg_t *a, agg_state_t *st, uint64_t h, hl_error_t *err) {
  if (st->hll) {
    hl_hll_add_hash(st->hll, h);
    return HL_OK;
  }
  if (h == 0) h = 1; /* 0 marks an empty slot */
  if (sketch_has(st, h)) return HL_OK;
  if ((uint64_t)st->count * 2 + 2 > st->cap_hashes) {
    if (st->count >= SKETCH_EXACT) { /* to a sketch: every hash so far, then this one */
      hl_hll_t *hll = hl_arena_alloc(a->arena, sizeof *hll);
      if (!hll) return hl_err_nomem(err);
      hl_hll_init(hll);
      for (uint32_t i = 0; i < st->cap_hashes; i++)
        if (st->hashes[i]) hl_hll_add_hash(hll, st->hashes[i]);
      hl_hll_add_hash(hll, h);
      st->hll = hll;
      st->hashes = NULL; /* arena memory, released with the operator */
      st->cap_hashes = 0;
      return HL_OK;
    }
    uint32_t cap = st->cap_hashes ? st->cap_hashes * 2 : 16;
    uint64_t *old = st->hashes;
    uint32_t old_cap = st->cap_hashes;
    st->hashes = hl_arena_zalloc(a->arena, sizeof(uint64_t) * cap);
    if (!st->hashes) return hl_err_nomem(err);
    st->cap_hashes = cap;
    st->count = 0;
    for (uint32_t i = 0; i < old_cap; i++)
      if (old[i]) sketch_insert(st, old[i]);
  }
  sketch_insert(st, h);
  return HL_OK;
}

/* approx_count_distinct: adds the value V (of TYPE) to the group's state. */
static hl_status_t sketch_add(agg_t *a, agg_state_t *st, const hl_type_t *type, const hl_value_t *v,
                              hl_error_t *err) {
  hl_buf_reset(&a->key);
  hl_value_key_append(&a->key, type, v);
  if (a->key.oom) return hl_err_nomem(err);
  return sketch_add_hash(a, st, hl_hll_hash(a->key.data ? a->key.data : "", a->key.len), err);
}

/* One pair (x = Hive's second argument, y its first) into a pair
 * statistic's state. */
static void pair_update(agg_state_t *st, double y, double x) {
  double dx = x - st->pair.mx, dy = y - st->pair.my;
  st->count++;
  st->pair.mx += dx / (double)st->count;
  st->pair.my += dy / (double)st->count;
  st->pair.cxy += dx * (y - st->pair.my);
  st->pair.vx += dx * (x - st->pair.mx);
  st->pair.vy += dy * (y - st->pair.my);
}

/* Appends V (of TYPE) to the state's items, copied into A's arena. */
static hl_status_t append_item(agg_t *a, agg_state_t *st, const hl_type_t *type,
                               const hl_value_t *v, hl_error_t *err) {
  if (st->n_items == st->cap_items) {
    if (st->cap_items >= UINT32_MAX / 2)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "an aggregate has too many values");
    uint32_t cap = st->cap_items ? st->cap_items * 2 : 8;
    hl_value_t *ni = hl_arena_realloc(a->arena, st->items, sizeof(hl_value_t) * st->cap_items,
                                      sizeof(hl_value_t) * cap);
    if (!ni) return hl_err_nomem(err);
    st->items = ni;
    st->cap_items = cap;
  }
  if (hl_value_copy_deep(a->arena, type, v, &st->items[st->n_items]) != HL_OK)
    return hl_err_nomem(err);
  st->n_items++;
  return HL_OK;
}

/* Aggregate K of group GROUP takes the non-NULL value V (of TYPE). */
static hl_status_t update_value(agg_t *a, int k, agg_state_t *st, const hl_type_t *type,
                                const hl_value_t *v, size_t group, hl_error_t *err);

static hl_status_t update(agg_t *a, int k, agg_state_t *st, const hl_vec_t *arg,
                          const hl_vec_t *arg2, uint32_t r, size_t group, hl_error_t *err) {
  const hl_agg_t *ag = &a->plan->aggs[k];
  if (ag->kind == HL_AGG_COUNT_STAR) {
    st->count++;
    return HL_OK;
  }
  if (ag->kind == HL_AGG_GROUPING) {
    st->count = a->cur_set + 1;
    return HL_OK;
  }
  if (ag->kind == HL_AGG_BITVECTOR_HLL || ag->kind == HL_AGG_BITVECTOR_FM)
    return hl_agg_sketch_update(a, ag, st, arg, r, err);
  if (ag->kind == HL_AGG_COMPUTE_STATS) return hl_agg_cstats_update(a, ag, st, arg, arg2, r, err);
  if (ag->kind == HL_AGG_BLOOM_FILTER) return hl_agg_bloom_update(a, ag, st, arg, r, err);
  if (ag->kind == HL_AGG_DS_HLL_SKETCH || ag->kind == HL_AGG_DS_HLL_UNION)
    return hl_agg_dshll_update(a, ag, st, arg, r, err);
  if (ag->kind == HL_AGG_DS_QUANTILES) return hl_agg_dsq_update(a, ag, st, arg, r, err);
  if (ag->kind == HL_AGG_HIVE_APPROX_DISTINCT) return hl_agg_approx_update(a, st, arg, r, err);
  if (ag->kind == HL_AGG_DS_KLL_SKETCH || ag->kind == HL_AGG_DS_KLL_UNION)
    return hl_agg_kll_update(a, ag, st, arg, r, err);
  if (ag->kind >= HL_AGG_DS_THETA_SKETCH && ag->kind <= HL_AGG_DS_THETA_INTERSECT)
    return hl_agg_ds_theta_update(a, ag, st, arg, r, err);
  if (hl_vec_is_null(arg, r) || (ag->arg2 && hl_vec_is_null(arg2, r))) return HL_OK;
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  if (ag->kind >= HL_AGG_CORR) {
    hl_value_t w;
    hl_vec_get_value(arg2, r, &w);
    pair_update(st, v.u.d, w.u.d);
    return HL_OK;
  }
  return update_value(a, k, st, arg->type, &v, group, err);
}

static hl_status_t update_value(agg_t *a, int k, agg_state_t *st, const hl_type_t *type,
                                const hl_value_t *vp, size_t group, hl_error_t *err) {
  const hl_agg_t *ag = &a->plan->aggs[k];
  hl_value_t v = *vp;
  if (ag->kind == HL_AGG_APPROX_DISTINCT) return sketch_add(a, st, type, &v, err);
  if (ag->kind == HL_AGG_HISTOGRAM) return hl_agg_hist_add(a, ag, st, v.u.d, err);
  if (ag->kind == HL_AGG_NGRAMS || ag->kind == HL_AGG_CONTEXT_NGRAMS)
    return hl_agg_ngrams_add(a, ag, st, &v, err);
  if (ag->distinct || ag->kind == HL_AGG_COLLECT_SET) {
    hl_buf_reset(&a->key);
    hl_buf_append(&a->key, &group, sizeof group);
    hl_value_key_append(&a->key, type, &v);
    if (a->key.oom) return hl_err_nomem(err);
    uint64_t dummy;
    bool inserted;
    if (hl_map_upsert(a->distinct[k], a->key.data, a->key.len, 0, &dummy, &inserted) < 0)
      return hl_err_nomem(err);
    if (!inserted) return HL_OK;
    /* a unit's table keeps the distinct values; the merge aggregates them */
    if (a->unit_items && ag->distinct) return append_item(a, st, type, &v, err);
  }
  st->count++;
  switch (ag->kind) {
  case HL_AGG_COUNT:
  case HL_AGG_APPROX_DISTINCT:
    break;
  case HL_AGG_VAR_POP:
  case HL_AGG_VAR_SAMP:
  case HL_AGG_STDDEV_POP:
  case HL_AGG_STDDEV_SAMP: {
    double delta = v.u.d - st->sum.d;
    st->sum.d += delta / (double)st->count;
    st->m2 += delta * (v.u.d - st->sum.d);
    break;
  }
  case HL_AGG_COLLECT_LIST:
  case HL_AGG_COLLECT_SET:
  case HL_AGG_PERCENTILE:
  case HL_AGG_PERCENTILE_CONT:
  case HL_AGG_PERCENTILE_DISC:
    return append_item(a, st, type, &v, err);
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    switch (hl_type_phys(type)) {
    case HL_P_I64:
      st->sum.i = (int64_t)((uint64_t)st->sum.i + (uint64_t)v.u.i);
      break;
    case HL_P_F64:
      st->sum.d += v.u.d;
      break;
    case HL_P_I128:
      st->sum.dec += v.u.dec; /* |sum| < 10^37 and |v| < 10^38: no overflow */
      if (st->sum.dec >= DEC_CHUNK || st->sum.dec <= -DEC_CHUNK) {
        st->dec_carry += (int64_t)(st->sum.dec / DEC_CHUNK);
        st->sum.dec %= DEC_CHUNK;
      }
      break;
    default:
      break;
    }
    st->has = true;
    break;
  case HL_AGG_MIN:
  case HL_AGG_MAX: {
    int c = st->has ? hl_value_compare(type, &v, &st->best) : 0;
    if (!st->has || (ag->kind == HL_AGG_MIN ? c < 0 : c > 0)) {
      st->best = v;
      if (persist(a->arena, type, &st->best) < 0) return hl_err_nomem(err);
      st->has = true;
    }
    break;
  }
  default:
    break;
  }
  return HL_OK;
}

/* Aggregates the vectorized path handles: count(*), and count/sum/avg/
 * min/max without DISTINCT over integers, doubles (and min/max over
 * strings). */
static bool fast_supported(const hl_agg_t *ag, const hl_vec_t *arg) {
  if (ag->kind == HL_AGG_COUNT_STAR) return true;
  if (ag->distinct || !ag->arg || ag->arg2) return false;
  hl_phys_t p = hl_type_phys(arg->type);
  switch (ag->kind) {
  case HL_AGG_COUNT:
    return true;
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    return p == HL_P_I64 || p == HL_P_F64 || p == HL_P_I128;
  case HL_AGG_MIN:
  case HL_AGG_MAX:
    return (p == HL_P_I64 || p == HL_P_F64 || (p == HL_P_STR && arg->type->id != HL_T_CHAR));
  default:
    return false;
  }
}

/* The first 8 bytes of S as a big-endian number, zero-padded: when two
 * prefixes differ they order the strings (a zero pad only ties). */
static inline uint64_t str_prefix(hl_str_t s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  uint64_t v;
  uint32_t a, b;
  if (s.len >= 8) {
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
  }
  if (s.len >= 4) { /* two overlapping 4-byte loads; the overlap ORs equal bits */
    memcpy(&a, p, 4);
    memcpy(&b, p + s.len - 4, 4);
    return ((uint64_t)__builtin_bswap32(a) << 32) |
           ((uint64_t)__builtin_bswap32(b) << (32 - 8 * (s.len - 4)));
  }
  if (s.len == 0) return 0;
  return (uint64_t)p[0] << 56 | (uint64_t)p[s.len / 2] << (56 - 8 * (s.len / 2)) |
         (uint64_t)p[s.len - 1] << (56 - 8 * (s.len - 1));
}

static int str_cmp(hl_str_t x, hl_str_t y) {
  /* shared pointers (dictionary values) and differing 8-byte prefixes
   * settle most comparisons without a call */
  if (x.ptr == y.ptr) return (x.len > y.len) - (x.len < y.len);
  uint64_t a = str_prefix(x), b = str_prefix(y);
  if (a != b) return a < b ? -1 : 1;
  uint32_t n = x.len < y.len ? x.len : y.len;
  int c = n > 8 ? memcmp(x.ptr + 8, y.ptr + 8, n - 8) : 0;
  return c ? c : (x.len > y.len) - (x.len < y.len);
}

/* Bytes the aggregation keeps: states, group keys and DISTINCT sets. */
static uint64_t held_bytes(const agg_t *a, int ng, int na) {
  uint64_t n = hl_arena_used(a->arena) + hl_map_bytes(a->groups) + hl_imap_bytes(&a->ikeys) +
               a->cap_groups *
                   (sizeof(hl_value_t) * (size_t)(ng + 1) + sizeof(agg_state_t) * (size_t)(na + 1));
  for (int k = 0; k < na; k++)
    if (a->distinct[k]) n += hl_map_bytes(a->distinct[k]);
  return n;
}

/* min (SIGN -1) / max (1): CAND, a batch's best, replaces the state's best
 * when better -- one copy per batch at most, as the winner outlives the
 * batch. */
static hl_status_t offer_best(agg_t *a, agg_state_t *st, const hl_type_t *type,
                              const hl_value_t *cand, int sign, hl_error_t *err) {
  if (st->has && hl_value_compare(type, cand, &st->best) * sign <= 0) return HL_OK;
  if (hl_value_copy_deep(a->arena, type, cand, &st->best) != HL_OK) return hl_err_nomem(err);
  st->has = true;
  return HL_OK;
}

static hl_status_t fast_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *v,
                               const hl_batch_t *b, hl_error_t *err) {
  uint32_t live = hl_batch_live(b);
  if (ag->kind == HL_AGG_COUNT_STAR) {
    st->count += live;
    return HL_OK;
  }
  hl_phys_t p = hl_type_phys(v->type);
  const uint32_t *sel = b->sel;
  bool nulls = v->validity != NULL;
#define ROW(i) (sel ? sel[i] : (i))
  switch (ag->kind) {
  case HL_AGG_COUNT:
    if (!nulls)
      st->count += live;
    else
      for (uint32_t i = 0; i < live; i++)
        st->count += !hl_vec_is_null(v, ROW(i));
    return HL_OK;
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    if (p == HL_P_I64) {
      const int64_t *x = HL_VEC_I64(v);
      uint64_t sum = (uint64_t)st->sum.i;
      int64_t n = 0;
      for (uint32_t i = 0; i < live; i++) {
        uint32_t r = ROW(i);
        if (nulls && hl_vec_is_null(v, r)) continue;
        sum += (uint64_t)x[r]; /* wraps like Java */
        n++;
      }
      st->sum.i = (int64_t)sum;
      st->count += n;
      if (n) st->has = true;
    } else if (p == HL_P_I128) {
      const __int128 *x = HL_VEC_I128(v);
      int64_t n = 0;
      if (v->type->precision <= 18) {
        /* |x| < 10^18: a batch sums to below 2^127 in one accumulator */
        __int128 acc = 0;
        for (uint32_t i = 0; i < live; i++) {
          uint32_t r = ROW(i);
          if (nulls && hl_vec_is_null(v, r)) continue;
          acc += x[r];
          n++;
        }
        st->sum.dec += acc;
        if (st->sum.dec >= DEC_CHUNK || st->sum.dec <= -DEC_CHUNK) {
          st->dec_carry += (int64_t)(st->sum.dec / DEC_CHUNK);
          st->sum.dec %= DEC_CHUNK;
        }
      } else {
        for (uint32_t i = 0; i < live; i++) {
          uint32_t r = ROW(i);
          if (nulls && hl_vec_is_null(v, r)) continue;
          st->sum.dec += x[r];
          n++;
          if (st->sum.dec >= DEC_CHUNK || st->sum.dec <= -DEC_CHUNK) {
            st->dec_carry += (int64_t)(st->sum.dec / DEC_CHUNK);
            st->sum.dec %= DEC_CHUNK;
          }
        }
      }
      st->count += n;
      if (n) st->has = true;
    } else {
      const double *x = HL_VEC_F64(v);
      double sum = st->sum.d;
      int64_t n = 0;
      for (uint32_t i = 0; i < live; i++) {
        uint32_t r = ROW(i);
        if (nulls && hl_vec_is_null(v, r)) continue;
        sum += x[r];
        n++;
      }
      st->sum.d = sum;
      st->count += n;
      if (n) st->has = true;
    }
    return HL_OK;
  case HL_AGG_MIN:
  case HL_AGG_MAX: {
    int sign = ag->kind == HL_AGG_MIN ? -1 : 1;
    int64_t best = -1; /* row of the batch's best candidate */
    hl_value_t cand;
    if (p == HL_P_STR && v->dict && v->dict_n <= 4 * (size_t)live + 64) {
      /* a dictionary view: mark the entries the live rows hold, then
       * compare each entry once instead of each row */
      uint8_t *seen = hl_arena_zalloc(a->scratch, v->dict_n ? v->dict_n : 1);
      if (!seen) return hl_err_nomem(err);
      for (uint32_t i = 0; i < live; i++) {
        uint32_t r = ROW(i);
        if (nulls && hl_vec_is_null(v, r)) continue;
        st->count++;
        seen[v->dict_idx[r]] = 1;
      }
      for (uint32_t e = 0; e < v->dict_n; e++)
        if (seen[e] && (best < 0 || str_cmp(v->dict[e], v->dict[best]) * sign > 0)) best = e;
      if (best < 0) return HL_OK;
      memset(&cand, 0, sizeof cand);
      cand.u.s = v->dict[best];
      return offer_best(a, st, v->type, &cand, sign, err);
    }
    if (p == HL_P_STR) {
      /* the best string's prefix is kept: a candidate costs one prefix and
       * usually one integer comparison, and a repeat of the best (same
       * dictionary entry) nothing */
      const hl_str_t *sv = HL_VEC_STR(v);
      uint64_t bp = 0;
      for (uint32_t i = 0; i < live; i++) {
        uint32_t r = ROW(i);
        if (nulls && hl_vec_is_null(v, r)) continue;
        st->count++;
        if (best >= 0 && sv[r].ptr == sv[best].ptr && sv[r].len == sv[best].len) continue;
        uint64_t cp = str_prefix(sv[r]);
        int c = best < 0 ? 1 : cp != bp ? (cp > bp ? 1 : -1) : str_cmp(sv[r], sv[best]);
        if (best < 0 || c * sign > 0) {
          best = r;
          bp = cp;
        }
      }
    } else if (p == HL_P_I64 && !nulls && !sel && live > 0) {
      /* no NULLs, every row: four running extremes (no branch, no chain
       * through one register), then the best of them */
      const int64_t *x = HL_VEC_I64(v);
      int64_t m[4] = {x[0], x[0], x[0], x[0]};
      uint32_t i = 0;
      if (sign > 0)
        for (; i + 4 <= live; i += 4)
          for (int j = 0; j < 4; j++)
            m[j] = x[i + j] > m[j] ? x[i + j] : m[j];
      else
        for (; i + 4 <= live; i += 4)
          for (int j = 0; j < 4; j++)
            m[j] = x[i + j] < m[j] ? x[i + j] : m[j];
      for (; i < live; i++)
        m[0] = (x[i] > m[0]) == (sign > 0) ? x[i] : m[0];
      for (int j = 1; j < 4; j++)
        m[0] = (m[j] > m[0]) == (sign > 0) ? m[j] : m[0];
      st->count += live;
      memset(&cand, 0, sizeof cand);
      cand.u.i = m[0];
      return offer_best(a, st, v->type, &cand, sign, err);
    } else {
      for (uint32_t i = 0; i < live; i++) {
        uint32_t r = ROW(i);
        if (nulls && hl_vec_is_null(v, r)) continue;
        st->count++;
        if (best < 0) {
          best = r;
          continue;
        }
        int c;
        if (p == HL_P_I64) {
          c = (HL_VEC_I64(v)[r] > HL_VEC_I64(v)[best]) - (HL_VEC_I64(v)[r] < HL_VEC_I64(v)[best]);
        } else {
          hl_value_t x = {.u.d = HL_VEC_F64(v)[r]}, y = {.u.d = HL_VEC_F64(v)[best]};
          c = hl_value_compare(v->type, &x, &y);
        }
        if (c * sign > 0) best = r;
      }
    }
    if (best < 0) return HL_OK;
    hl_vec_get_value(v, (uint32_t)best, &cand);
    return offer_best(a, st, v->type, &cand, sign, err);
  }
  default:
    return HL_OK;
  }
#undef ROW
}

/* Grouped aggregates the batch loop handles: count(*), count, and sum/
 * avg/min/max over integers and doubles (sum/avg also decimals), without
 * DISTINCT. */
static bool fast_grouped_supported(const hl_agg_t *ag, const hl_vec_t *arg) {
  if (ag->kind == HL_AGG_COUNT_STAR) return true;
  if (ag->distinct || !ag->arg || ag->arg2) return false;
  hl_phys_t p = hl_type_phys(arg->type);
  switch (ag->kind) {
  case HL_AGG_COUNT:
    return true;
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    return p == HL_P_I64 || p == HL_P_F64 || p == HL_P_I128;
  case HL_AGG_MIN:
  case HL_AGG_MAX:
    return p == HL_P_I64 || p == HL_P_F64;
  default:
    return false;
  }
}

enum { FEW_GROUPS = 16, LANES = 4 };

/* count(*), count, and sum/avg over integers and decimals of up to 34
 * digits, when there are few groups (TPC-H Q1 has four): rows add into
 * LANES local accumulators per group, taken in turn, so that consecutive
 * rows of one group do not wait on each other's read-modify-write of the
 * state; the states take the lanes' totals once per batch (exact sums: any
 * order gives the same).  A lane adds at most 512 values below 10^34, so
 * no 128-bit sum overflows before the state's carry normalisation.  False:
 * not this case. */
static bool few_groups_update(agg_t *a, int k, const hl_vec_t *v, const hl_batch_t *b,
                              const uint32_t *gid, uint32_t live) {
  const hl_agg_t *ag = &a->plan->aggs[k];
  if (a->n_groups > FEW_GROUPS || HL_BATCH_CAP / LANES > 512) return false;
  bool star = ag->kind == HL_AGG_COUNT_STAR, sum = ag->kind == HL_AGG_SUM || ag->kind == HL_AGG_AVG;
  hl_phys_t p = star ? HL_P_BOOL : hl_type_phys(v->type);
  bool dec = sum && p == HL_P_I128 && v->type->precision <= 34;
  if (!star && ag->kind != HL_AGG_COUNT && !(sum && p == HL_P_I64) && !dec) return false;
  int64_t cnt[LANES][FEW_GROUPS];
  uint64_t isum[LANES][FEW_GROUPS];
  unsigned __int128 dsum[LANES][FEW_GROUPS]; /* two's complement sums, without overflow traps */
  memset(cnt, 0, sizeof cnt);
  memset(isum, 0, sizeof isum);
  memset(dsum, 0, sizeof dsum);
  const uint64_t *valid = star ? NULL : v->validity;
  const uint32_t *sel = b->sel;
#define FEW_LOOP(BODY)                                                                             \
  for (uint32_t i = 0; i < live; i++) {                                                            \
    uint32_t r = sel ? sel[i] : i, l = i & (LANES - 1), g = gid[i];                                \
    if (valid && !((valid[r >> 6] >> (r & 63)) & 1)) continue;                                     \
    cnt[l][g]++;                                                                                   \
    BODY;                                                                                          \
  }
  if (dec) {
    /* a value past 34 digits (a file breaking its declared precision)
     * could overflow a lane: such a batch is left to the per-row path,
     * which normalises after every row */
    const __int128 *x = HL_VEC_I128(v);
    const unsigned __int128 lim = (unsigned __int128)10000000000000000ULL * 1000000000000000000ULL;
    bool out_of_range = false;
    FEW_LOOP(dsum[l][g] += (unsigned __int128)x[r];
             out_of_range |= (unsigned __int128)x[r] + lim > 2 * lim)
    if (out_of_range) return false;
  } else if (sum) {
    const int64_t *x = HL_VEC_I64(v);
    FEW_LOOP(isum[l][g] += (uint64_t)x[r]) /* wraps like Java */
  } else {
    FEW_LOOP((void)0)
  }
#undef FEW_LOOP
  for (size_t g = 0; g < a->n_groups; g++) {
    int64_t c = 0;
    uint64_t is = 0;
    __int128 ds = 0;
    for (int l = 0; l < LANES; l++)
      c += cnt[l][g], is += isum[l][g], ds += (__int128)dsum[l][g]; /* in range: exact */
    if (!c) continue;
    agg_state_t *st = &a->states[g * (size_t)a->plan->n_aggs + (size_t)k];
    st->count += c;
    if (!sum) continue;
    st->has = true;
    if (!dec) {
      st->sum.i = (int64_t)((uint64_t)st->sum.i + is);
      continue;
    }
    st->sum.dec += ds;
    if (st->sum.dec >= DEC_CHUNK || st->sum.dec <= -DEC_CHUNK) {
      st->dec_carry += (int64_t)(st->sum.dec / DEC_CHUNK);
      st->sum.dec %= DEC_CHUNK;
    }
  }
  return true;
}

/* When every group key of the batch is a string vector with a dictionary
 * view and the combinations of entries (and NULL) are at most 4096: a
 * table from combination to group number, all unset (in scratch).  NULL:
 * not this case (or no memory: the plain path runs). */
static uint32_t *dict_memo(agg_t *a, const hl_vec_t *gvecs) {
  int ng = a->plan->n_group;
  if (!a->str_keys || ng > 4) return NULL;
  uint64_t combos = 1;
  for (int g = 0; g < ng; g++) {
    if (!gvecs[g].dict || gvecs[g].type->id == HL_T_CHAR) return NULL;
    combos *= (uint64_t)gvecs[g].dict_n + 1;
    if (combos > 4096) return NULL;
  }
  uint32_t *memo = hl_arena_alloc(a->scratch, sizeof(uint32_t) * combos);
  if (memo) memset(memo, 0xff, sizeof(uint32_t) * combos);
  return memo;
}

/* A hint that group G's states are updated soon. */
static inline void prefetch_states(const agg_t *a, uint32_t g) {
  int na = a->plan->n_aggs;
  for (int k = 0; k < na && k < 4; k++)
    __builtin_prefetch(&a->states[(size_t)g * (size_t)na + (size_t)k]);
}

/* One batch of grouped aggregation: first every live row's group number
 * (keys serialized and looked up once per row), then one tight loop per
 * aggregate over (group, value). */
static hl_status_t grouped_batch(agg_t *a, const hl_batch_t *b, const hl_vec_t *gvecs,
                                 const hl_vec_t *avecs, hl_value_t *vals, hl_error_t *err) {
  const hl_plan_t *plan = a->plan;
  int na = plan->n_aggs;
  uint32_t live = hl_batch_live(b);
  uint32_t *gid = hl_arena_alloc(a->scratch, sizeof(uint32_t) * (live ? live : 1));
  if (!gid) return hl_err_nomem(err);
  uint32_t *memo = dict_memo(a, gvecs);
  if (memo) {
    /* every key a dictionary view: a combination of entries finds its
     * group once per batch */
    int ng = plan->n_group;
    for (uint32_t i = 0; i < live; i++) {
      uint32_t r = hl_batch_row(b, i), combo = 0;
      for (int g = 0; g < ng; g++)
        combo = combo * (gvecs[g].dict_n + 1) +
                (hl_vec_is_null(&gvecs[g], r) ? gvecs[g].dict_n : gvecs[g].dict_idx[r]);
      if (memo[combo] == UINT32_MAX) {
        uint64_t id;
        hl_status_t rc = group_id(a, gvecs, r, vals, &id, err);
        if (rc != HL_OK) return rc;
        memo[combo] = (uint32_t)id;
      }
      gid[i] = memo[combo];
    }
  }
  /* a key table beyond the cache: each lookup's slot is hinted a few rows
   * ahead, so that the misses overlap */
  bool ahead = a->int_key && a->ikeys.cap > 4096;
  for (uint32_t i = 0; !memo && i < live; i++) {
    if (ahead && i + 16 < live)
      hl_imap_prefetch(&a->ikeys, HL_VEC_I64(&gvecs[0])[hl_batch_row(b, i + 16)]);
    uint64_t id;
    hl_status_t rc = group_id(a, gvecs, hl_batch_row(b, i), vals, &id, err);
    if (rc != HL_OK) return rc;
    gid[i] = (uint32_t)id;
  }
  /* states beyond the cache: the first aggregate's loop hints each row's
   * states a few rows ahead (the later loops find them loaded) */
  bool states_ahead = a->n_groups > 4096;
  for (int k = 0; k < na; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    const hl_vec_t *v = &avecs[k];
    agg_state_t *states = a->states + k;
    size_t stride = (size_t)na;
    bool hint = states_ahead && k == 0;
    if (few_groups_update(a, k, v, b, gid, live)) continue;
    if (ag->kind == HL_AGG_COUNT_STAR) {
      for (uint32_t i = 0; i < live; i++) {
        if (hint && i + 16 < live) prefetch_states(a, gid[i + 16]);
        states[gid[i] * stride].count++;
      }
      continue;
    }
    hl_phys_t p = hl_type_phys(v->type);
    bool nulls = v->validity != NULL;
    for (uint32_t i = 0; i < live; i++) {
      if (hint && i + 16 < live) prefetch_states(a, gid[i + 16]);
      uint32_t r = hl_batch_row(b, i);
      if (nulls && hl_vec_is_null(v, r)) continue;
      agg_state_t *st = &states[gid[i] * stride];
      st->count++;
      switch (ag->kind) {
      case HL_AGG_SUM:
      case HL_AGG_AVG:
        if (p == HL_P_I64)
          st->sum.i = (int64_t)((uint64_t)st->sum.i + (uint64_t)HL_VEC_I64(v)[r]);
        else if (p == HL_P_F64)
          st->sum.d += HL_VEC_F64(v)[r];
        else {
          st->sum.dec += HL_VEC_I128(v)[r];
          if (st->sum.dec >= DEC_CHUNK || st->sum.dec <= -DEC_CHUNK) {
            st->dec_carry += (int64_t)(st->sum.dec / DEC_CHUNK);
            st->sum.dec %= DEC_CHUNK;
          }
        }
        st->has = true;
        break;
      case HL_AGG_MIN:
      case HL_AGG_MAX: {
        hl_value_t x;
        memset(&x, 0, sizeof x);
        if (p == HL_P_I64)
          x.u.i = HL_VEC_I64(v)[r];
        else
          x.u.d = HL_VEC_F64(v)[r];
        int c = st->has ? hl_value_compare(v->type, &x, &st->best) : 0;
        if (!st->has || (ag->kind == HL_AGG_MIN ? c < 0 : c > 0)) {
          st->best = x;
          st->has = true;
        }
        break;
      }
      default:
        break;
      }
    }
  }
  return HL_OK;
}

hl_status_t hl_agg_bufs_init(const hl_plan_t *plan, hl_arena_t *arena, agg_bufs_t *bufs,
                             hl_error_t *err) {
  int ng = plan->n_group, na = plan->n_aggs;
  bufs->gvecs = hl_arena_alloc(arena, sizeof(hl_vec_t) * (size_t)(ng + 1));
  bufs->avecs = hl_arena_alloc(arena, sizeof(hl_vec_t) * (size_t)(na + 1));
  bufs->avecs2 = hl_arena_alloc(arena, sizeof(hl_vec_t) * (size_t)(na + 1));
  bufs->vals = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(ng + 1));
  if (!bufs->gvecs || !bufs->avecs || !bufs->avecs2 || !bufs->vals) return hl_err_nomem(err);
  return HL_OK;
}

/* Aggregates all of the child's rows into the groups' states. */
static hl_status_t consume_input(agg_t *a, hl_error_t *err) {
  agg_bufs_t bufs;
  hl_status_t rc = hl_agg_bufs_init(a->plan, a->arena, &bufs, err);
  while (rc == HL_OK) {
    hl_batch_t *b;
    if ((rc = a->child->next(a->child, &b, err)) != HL_OK || !b) break;
    rc = hl_agg_consume_batch(a, b, &bufs, err);
  }
  return rc;
}

hl_status_t hl_agg_consume_batch(agg_t *a, const hl_batch_t *b, agg_bufs_t *bufs, hl_error_t *err) {
  const hl_plan_t *plan = a->plan;
  int ng = plan->n_group, na = plan->n_aggs;
  hl_vec_t *gvecs = bufs->gvecs, *avecs = bufs->avecs, *avecs2 = bufs->avecs2;
  hl_value_t *vals = bufs->vals;
  hl_status_t rc;
  hl_arena_reset(a->scratch);
  for (int g = 0; g < ng; g++)
    if ((rc = hl_expr_eval(plan->group_exprs[g], b, &gvecs[g], a->scratch, err)) != HL_OK)
      return rc;
  for (int k = 0; k < na; k++)
    if (plan->aggs[k].arg &&
        (rc = hl_expr_eval(plan->aggs[k].arg, b, &avecs[k], a->scratch, err)) != HL_OK)
      return rc;
  for (int k = 0; k < na; k++)
    if (plan->aggs[k].arg2 &&
        (rc = hl_expr_eval(plan->aggs[k].arg2, b, &avecs2[k], a->scratch, err)) != HL_OK)
      return rc;
  uint64_t held = held_bytes(a, ng, na);
  hl_batch_t view;
  a->set_skip = NULL;
  if (a->sp) { /* past its share: the rows of groups not in memory go to spill files */
    uint32_t cut;
    if ((rc = hl_agg_spill_split(a, &b, &view, gvecs, held, &cut, err)) != HL_OK) return rc;
    if (cut) return hl_agg_spill_cut(a, b, cut, bufs, err);
    if (hl_batch_live(b) == 0) return HL_OK;
  }
  rc = hl_budget_track(a->budget, &a->charged, held, a->what, err);
  if (rc != HL_OK) return rc;
  /* ungrouped aggregates over numbers and strings: tight loops over
   * the vectors instead of one update per value */
  if (ng == 0 && !plan->n_grouping_sets) {
    if (a->n_groups == 0 && (rc = add_group(a, vals, err)) != HL_OK) return rc;
    bool all_fast = true;
    for (int k = 0; k < na && all_fast; k++)
      all_fast = fast_supported(&plan->aggs[k], &avecs[k]);
    if (all_fast) {
      for (int k = 0; k < na; k++)
        if ((rc = fast_update(a, &plan->aggs[k], &a->states[k], &avecs[k], b, err)) != HL_OK)
          return rc;
      return HL_OK;
    }
  }
  if (ng > 0 && !plan->n_grouping_sets) {
    bool all_fast = true;
    for (int k = 0; k < na && all_fast; k++)
      all_fast = fast_grouped_supported(&plan->aggs[k], &avecs[k]);
    if (all_fast) {
      return grouped_batch(a, b, gvecs, avecs, vals, err);
    }
  }
  uint32_t live = hl_batch_live(b);
  /* with grouping sets every row feeds one group per set; the columns a
   * set does not group are NULL in its groups, and the set number is part
   * of the key so that (a, NULL) of different sets stay apart */
  int n_sets = plan->n_grouping_sets ? plan->n_grouping_sets : 1;
  for (uint32_t ii = 0; ii < live * (uint32_t)n_sets; ii++) {
    uint32_t i = ii / (uint32_t)n_sets;
    int set = (int)(ii % (uint32_t)n_sets);
    uint32_t r = hl_batch_row(b, i);
    size_t group = 0;
    /* spilled: a replayed row feeds its own set's group only; a pair
     * written to a spill file is not aggregated here */
    if (a->set_tagged && set != (int)HL_VEC_I64(&b->cols[a->set_col])[r]) continue;
    if (a->set_skip && a->set_skip[ii]) continue;
    a->cur_set = set;
    if (ng > 0 && !plan->n_grouping_sets) {
      uint64_t id;
      if ((rc = group_id(a, gvecs, r, vals, &id, err)) != HL_OK) return rc;
      group = (size_t)id;
    } else if (ng > 0) {
      set_key(a, gvecs, r, set, vals);
      if (a->key.oom) return hl_err_nomem(err);
      uint64_t id;
      bool inserted;
      if (hl_map_upsert(a->groups, a->key.data ? a->key.data : "", a->key.len, a->n_groups, &id,
                        &inserted) < 0)
        return hl_err_nomem(err);
      if (inserted && (rc = add_group(a, vals, err)) != HL_OK) return rc;
      group = (size_t)id;
    } else if (a->n_groups == 0 && (rc = add_group(a, vals, err)) != HL_OK) {
      return rc;
    }
    for (int k = 0; k < na; k++) {
      rc = update(a, k, &a->states[group * (size_t)na + (size_t)k], &avecs[k], &avecs2[k], r, group,
                  err);
      if (rc != HL_OK) return rc;
    }
  }
  return HL_OK;
}

/* After the input: ungrouped aggregation over nothing still answers one
 * row, and so does the empty grouping set (). */
static hl_status_t consume_finish(agg_t *a, hl_error_t *err) {
  const hl_plan_t *plan = a->plan;
  int ng = plan->n_group;
  hl_value_t *vals = hl_arena_alloc(a->arena, sizeof(hl_value_t) * (size_t)(ng + 1));
  if (!vals) return hl_err_nomem(err);
  if (ng == 0 && a->n_groups == 0) return add_group(a, vals, err);
  /* the () group of rows that all spilled is in a file, not missing */
  if (a->n_groups == 0 && !(a->sp && hl_agg_spill_waiting(a)))
    for (int set = 0; set < plan->n_grouping_sets; set++)
      if (plan->grouping_sets[set] == 0) {
        for (int g = 0; g < ng; g++) {
          memset(&vals[g], 0, sizeof vals[g]);
          vals[g].is_null = true;
        }
        return add_group(a, vals, err);
      }
  return HL_OK;
}

static bool dec_fits_prec(__int128 v, int precision) {
  __int128 lim = 1;
  for (int i = 0; i < precision; i++)
    lim *= 10;
  return v < lim && v > -lim;
}

/* The exact decimal sum of ST if it has at most PRECISION digits. */
static bool dec_total(const agg_state_t *st, int precision, __int128 *out) {
  __int128 hi, v;
  if (__builtin_mul_overflow((__int128)st->dec_carry, DEC_CHUNK, &hi) ||
      __builtin_add_overflow(hi, st->sum.dec, &v) || !dec_fits_prec(v, precision))
    return false;
  *out = v;
  return true;
}

/* The average of ST's exact decimal sum (scale FROM) at scale TO, rounded
 * half away from zero, if it has at most PRECISION digits.  Long division
 * one decimal digit at a time: the sum may be wider than 128 bits. */
static bool dec_avg(const agg_state_t *st, int from, int to, int precision, __int128 *out) {
  int64_t carry = st->dec_carry;
  __int128 low = st->sum.dec;
  /* give both parts one sign so the magnitude's digits are carry's then low's */
  if (carry > 0 && low < 0) {
    carry--;
    low += DEC_CHUNK;
  } else if (carry < 0 && low > 0) {
    carry++;
    low -= DEC_CHUNK;
  }
  bool neg = carry < 0 || low < 0;
  unsigned __int128 uc =
      carry < 0 ? (unsigned __int128)(-(__int128)carry) : (unsigned __int128)carry;
  unsigned __int128 ul = (unsigned __int128)(low < 0 ? -low : low);
  char digits[20 + 37 + 40];
  int n = 0;
  char tmp[40];
  int nt = 0;
  do {
    tmp[nt++] = (char)(uc % 10);
    uc /= 10;
  } while (uc);
  while (nt)
    digits[n++] = tmp[--nt];
  for (int i = 36; i >= 0; i--) {
    unsigned __int128 p = 1;
    for (int k = 0; k < i; k++)
      p *= 10;
    digits[n++] = (char)((ul / p) % 10);
  }
  for (int i = from; i < to && n < (int)sizeof digits; i++)
    digits[n++] = 0;
  unsigned __int128 count = (unsigned __int128)st->count, rem = 0, q = 0, lim = 1;
  for (int i = 0; i < precision; i++)
    lim *= 10;
  for (int i = 0; i < n; i++) {
    rem = rem * 10 + (unsigned __int128)digits[i];
    q = q * 10 + rem / count;
    rem %= count;
    if (q >= lim) return false;
  }
  if (rem * 2 >= count) q++;
  if (q >= lim) return false;
  *out = neg ? -(__int128)q : (__int128)q;
  return true;
}

static int cmp_double(const void *x, const void *y) {
  double a = ((const hl_value_t *)x)->u.d, b = ((const hl_value_t *)y)->u.d;
  return a < b ? -1 : a > b;
}

/* The pair statistics' results, NULL where Hive's are: over no pairs,
 * and where a variance the formula divides by is 0. */
static void pair_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out) {
  int64_t n = st->count;
  double vx = st->pair.vx, vy = st->pair.vy, c = st->pair.cxy;
  out->is_null = n == 0;
  switch (ag->kind) {
  case HL_AGG_CORR:
    if (vx == 0 || vy == 0) out->is_null = true;
    out->u.d = c / sqrt(vy) / sqrt(vx);
    break;
  case HL_AGG_COVAR_POP:
    out->u.d = c / (double)n;
    break;
  case HL_AGG_COVAR_SAMP: /* Hive: the covariance of one pair is 0 */
    out->u.d = n > 1 ? c / (double)(n - 1) : 0;
    break;
  case HL_AGG_REGR_SXX:
    out->u.d = vx;
    break;
  case HL_AGG_REGR_SYY:
    out->u.d = vy;
    break;
  case HL_AGG_REGR_SXY:
    out->u.d = c;
    break;
  case HL_AGG_REGR_SLOPE:
    if (n < 2 || vx == 0) out->is_null = true;
    out->u.d = c / vx;
    break;
  case HL_AGG_REGR_INTERCEPT:
    if (vx == 0) out->is_null = true;
    out->u.d = st->pair.my - c / vx * st->pair.mx;
    break;
  case HL_AGG_REGR_R2:
    if (n < 2 || vx == 0) out->is_null = true;
    out->u.d = vy == 0 ? 1 : c * c / vx / vy;
    break;
  default:
    break;
  }
  if (out->is_null) out->u.d = 0;
}

/* The percentile P of the N sorted values, interpolating between the two
 * neighbours of position P * (N - 1). */
static double percentile_of(const hl_value_t *sorted, uint32_t n, double p) {
  double pos = p * (double)(n - 1);
  uint32_t lo = (uint32_t)floor(pos), hi = (uint32_t)ceil(pos);
  double x = sorted[lo].u.d, y = sorted[hi].u.d;
  return lo == hi ? x : x + (pos - (double)lo) * (y - x);
}

/* ARENA holds what a result points to (the array of several percentiles). */
static hl_status_t final_value(const hl_plan_t *plan, const hl_agg_t *ag, agg_state_t *st,
                               hl_value_t *out, hl_arena_t *arena) {
  memset(out, 0, sizeof(*out));
  if (ag->kind == HL_AGG_GROUPING) {
    out->u.i = hl_agg_grouping_final(plan, ag, st);
    return HL_OK;
  }
  if (ag->kind >= HL_AGG_CORR) {
    pair_final(ag, st, out);
    return HL_OK;
  }
  switch (ag->kind) {
  case HL_AGG_BITVECTOR_HLL:
  case HL_AGG_BITVECTOR_FM:
    return hl_agg_sketch_final(ag, st, out, arena);
  case HL_AGG_COMPUTE_STATS:
    return hl_agg_cstats_final(ag, st, out, arena);
  case HL_AGG_BLOOM_FILTER:
    return hl_agg_bloom_final(ag, st, out, arena);
  case HL_AGG_DS_HLL_SKETCH:
  case HL_AGG_DS_HLL_UNION:
    return hl_agg_dshll_final(ag, st, out, arena);
  case HL_AGG_DS_QUANTILES:
    return hl_agg_dsq_final(st, out, arena);
  case HL_AGG_HIVE_APPROX_DISTINCT:
    return hl_agg_approx_final(st, out);
  case HL_AGG_DS_KLL_SKETCH:
  case HL_AGG_DS_KLL_UNION:
    return hl_agg_kll_final(st, out, arena);
  case HL_AGG_DS_THETA_SKETCH:
  case HL_AGG_DS_THETA_UNION:
  case HL_AGG_DS_THETA_INTERSECT:
    return hl_agg_ds_theta_final(ag, st, out, arena);
  case HL_AGG_APPROX_DISTINCT:
    out->u.i = st->hll ? (int64_t)hl_hll_estimate(st->hll) : st->count;
    return HL_OK;
  case HL_AGG_VAR_POP:
  case HL_AGG_STDDEV_POP:
  case HL_AGG_VAR_SAMP:
  case HL_AGG_STDDEV_SAMP: {
    bool samp = ag->kind == HL_AGG_VAR_SAMP || ag->kind == HL_AGG_STDDEV_SAMP;
    if (st->count == 0 || (samp && st->count < 2)) {
      out->is_null = true;
      return HL_OK;
    }
    double var = st->m2 / (double)(samp ? st->count - 1 : st->count);
    out->u.d = ag->kind == HL_AGG_STDDEV_POP || ag->kind == HL_AGG_STDDEV_SAMP ? sqrt(var) : var;
    return HL_OK;
  }
  case HL_AGG_COLLECT_LIST:
  case HL_AGG_COLLECT_SET:
    out->u.list.n = st->n_items;
    out->u.list.items = st->items;
    return HL_OK;
  case HL_AGG_PERCENTILE: {
    if (st->n_items == 0) {
      out->is_null = true;
      return HL_OK;
    }
    qsort(st->items, st->n_items, sizeof(hl_value_t), cmp_double);
    if (!ag->n_params) {
      out->u.d = percentile_of(st->items, st->n_items, ag->param);
      return HL_OK;
    }
    hl_value_t *ps = hl_arena_zalloc(arena, sizeof(hl_value_t) * (size_t)ag->n_params);
    if (!ps) return HL_ERROR;
    for (int i = 0; i < ag->n_params; i++)
      ps[i].u.d = percentile_of(st->items, st->n_items, ag->params[i]);
    out->u.list.n = (uint32_t)ag->n_params;
    out->u.list.items = ps;
    return HL_OK;
  }
  case HL_AGG_PERCENTILE_CONT:
  case HL_AGG_PERCENTILE_DISC:
    return hl_agg_pct_final(ag, st, out, arena);
  case HL_AGG_HISTOGRAM:
    return hl_agg_hist_final(st, out, arena);
  case HL_AGG_NGRAMS:
  case HL_AGG_CONTEXT_NGRAMS:
    return hl_agg_ngrams_final(ag, st, out, arena);
  case HL_AGG_COUNT_STAR:
  case HL_AGG_COUNT:
    out->u.i = st->count;
    return HL_OK;
  case HL_AGG_SUM:
    if (!st->has) {
      out->is_null = !ag->empty_zero; /* $sum0: 0 of the result type (zeroed above) */
      return HL_OK;
    }
    switch (hl_type_phys(ag->type)) {
    case HL_P_I64:
      out->u.i = st->sum.i;
      break;
    case HL_P_F64:
      out->u.d = st->sum.d;
      break;
    default:
      if (!dec_total(st, ag->type->precision, &out->u.dec)) out->is_null = true;
    }
    return HL_OK;
  case HL_AGG_AVG:
    if (!st->has || st->count == 0) {
      out->is_null = true;
      return HL_OK;
    }
    if (ag->type->id == HL_T_DECIMAL) {
      /* sum is at the argument's scale; the result has more digits */
      if (!dec_avg(st, ag->arg->type->scale, ag->type->scale, ag->type->precision, &out->u.dec))
        out->is_null = true;
    } else {
      double sum = hl_type_phys(ag->arg->type) == HL_P_I64 ? (double)st->sum.i : st->sum.d;
      out->u.d = sum / (double)st->count;
    }
    return HL_OK;
  case HL_AGG_MIN:
  case HL_AGG_MAX:
    if (!st->has)
      out->is_null = true;
    else
      *out = st->best;
    return HL_OK;
  default: /* the pair statistics, above */
    return HL_OK;
  }
}

void hl_agg_est_init(hl_agg_est_t *e, hl_arena_t *scratch) {
  memset(e, 0, sizeof *e);
  e->t.arena = scratch;
  hl_buf_init(&e->t.key);
}

hl_status_t hl_agg_est_add(hl_agg_est_t *e, const hl_agg_t *ag, const hl_value_t *v,
                           hl_error_t *err) {
  if (v->is_null) return HL_OK;
  return ag->kind == HL_AGG_HISTOGRAM ? hl_agg_hist_add(&e->t, ag, &e->st, v->u.d, err)
                                      : hl_agg_ngrams_add(&e->t, ag, &e->st, v, err);
}

hl_status_t hl_agg_est_result(hl_agg_est_t *e, const hl_agg_t *ag, hl_arena_t *tmp,
                              hl_arena_t *arena, hl_value_t *out, hl_error_t *err) {
  hl_value_t v;
  memset(&v, 0, sizeof v);
  hl_status_t rc = ag->kind == HL_AGG_HISTOGRAM ? hl_agg_hist_final(&e->st, &v, tmp)
                                                : hl_agg_ngrams_final(ag, &e->st, &v, tmp);
  if (rc != HL_OK || hl_value_copy_deep(arena, ag->type, &v, out) != HL_OK)
    return hl_err_nomem(err);
  return HL_OK;
}

void hl_agg_est_fini(hl_agg_est_t *e) {
  hl_buf_fini(&e->t.key);
}

/* ------------------------------------------------------------- merging */

/* Chan et al.'s pairwise update: the mean and the sum of squared
 * deviations of N1 + N2 values from those of the two parts. */
static void chan_merge(double *mean, double *m2, double n1, double mean2, double m2b, double n2) {
  double n = n1 + n2, delta = mean2 - *mean;
  *mean += delta * n2 / n;
  *m2 += m2b + delta * delta * n1 * n2 / n;
}

/* Merges state S (of unit table P) of aggregate K into state D of group
 * GID of table A, as if A's aggregate had read S's rows after its own:
 * exact kinds add, the Welford families merge their moments, the kinds
 * that keep values (and every DISTINCT) take S's values in their order,
 * approx_count_distinct joins the hash sets or sketches. */
static hl_status_t merge_state(agg_t *a, int k, agg_state_t *d, size_t gid, const agg_state_t *s,
                               hl_error_t *err) {
  const hl_agg_t *ag = &a->plan->aggs[k];
  if (ag->kind >= HL_AGG_CORR) { /* DISTINCT is not applied to the pair statistics */
    if (s->count == 0) return HL_OK;
    if (d->count == 0) {
      d->count = s->count;
      d->pair = s->pair;
      return HL_OK;
    }
    double n1 = (double)d->count, n2 = (double)s->count, n = n1 + n2;
    double dx = s->pair.mx - d->pair.mx, dy = s->pair.my - d->pair.my;
    d->pair.vx += s->pair.vx + dx * dx * n1 * n2 / n;
    d->pair.vy += s->pair.vy + dy * dy * n1 * n2 / n;
    d->pair.cxy += s->pair.cxy + dx * dy * n1 * n2 / n;
    d->pair.mx += dx * n2 / n;
    d->pair.my += dy * n2 / n;
    d->count += s->count;
    return HL_OK;
  }
  if (ag->kind == HL_AGG_BITVECTOR_HLL || ag->kind == HL_AGG_BITVECTOR_FM)
    return hl_agg_sketch_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_COMPUTE_STATS) return hl_agg_cstats_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_BLOOM_FILTER) return hl_agg_bloom_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_DS_HLL_SKETCH || ag->kind == HL_AGG_DS_HLL_UNION)
    return hl_agg_dshll_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_DS_QUANTILES) return hl_agg_dsq_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_HIVE_APPROX_DISTINCT) return hl_agg_approx_merge(a, d, s, err);
  if (ag->kind == HL_AGG_DS_KLL_SKETCH || ag->kind == HL_AGG_DS_KLL_UNION)
    return hl_agg_kll_merge(a, d, s, err);
  if (ag->kind >= HL_AGG_DS_THETA_SKETCH && ag->kind <= HL_AGG_DS_THETA_INTERSECT)
    return hl_agg_ds_theta_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_APPROX_DISTINCT) {
    if (s->hll) {
      if (!d->hll) { /* to a sketch first: S's set is larger than SKETCH_EXACT */
        hl_hll_t *hll = hl_arena_alloc(a->arena, sizeof *hll);
        if (!hll) return hl_err_nomem(err);
        hl_hll_init(hll);
        for (uint32_t i = 0; i < d->cap_hashes; i++)
          if (d->hashes[i]) hl_hll_add_hash(hll, d->hashes[i]);
        d->hll = hll;
        d->hashes = NULL;
        d->cap_hashes = 0;
      }
      hl_hll_merge(d->hll, s->hll);
      return HL_OK;
    }
    for (uint32_t i = 0; i < s->cap_hashes; i++)
      if (s->hashes[i]) {
        hl_status_t rc = sketch_add_hash(a, d, s->hashes[i], err);
        if (rc != HL_OK) return rc;
      }
    return HL_OK;
  }
  if (ag->kind == HL_AGG_HISTOGRAM) return hl_agg_hist_merge(a, d, s, err);
  if (ag->kind == HL_AGG_NGRAMS || ag->kind == HL_AGG_CONTEXT_NGRAMS)
    return hl_agg_ngrams_merge(a, ag, d, s, err);
  if (ag->kind == HL_AGG_COUNT_STAR || (ag->kind == HL_AGG_COUNT && !ag->distinct)) {
    d->count += s->count;
    return HL_OK;
  }
  if (ag->kind == HL_AGG_GROUPING) { /* the same set in both */
    if (!d->count) d->count = s->count;
    return HL_OK;
  }
  const hl_type_t *t = ag->arg->type;
  if (ag->distinct || ag->kind == HL_AGG_COLLECT_LIST || ag->kind == HL_AGG_COLLECT_SET ||
      ag->kind == HL_AGG_PERCENTILE || ag->kind == HL_AGG_PERCENTILE_CONT ||
      ag->kind == HL_AGG_PERCENTILE_DISC) {
    for (uint32_t i = 0; i < s->n_items; i++) {
      hl_status_t rc = update_value(a, k, d, t, &s->items[i], gid, err);
      if (rc != HL_OK) return rc;
    }
    return HL_OK;
  }
  switch (ag->kind) {
  case HL_AGG_VAR_POP:
  case HL_AGG_VAR_SAMP:
  case HL_AGG_STDDEV_POP:
  case HL_AGG_STDDEV_SAMP:
    if (s->count == 0) return HL_OK;
    if (d->count == 0) {
      d->sum.d = s->sum.d;
      d->m2 = s->m2;
    } else {
      chan_merge(&d->sum.d, &d->m2, (double)d->count, s->sum.d, s->m2, (double)s->count);
    }
    d->count += s->count;
    return HL_OK;
  case HL_AGG_SUM:
  case HL_AGG_AVG:
    d->count += s->count;
    if (!s->has) return HL_OK;
    if (!d->has) {
      d->sum = s->sum;
      d->dec_carry = s->dec_carry;
    } else if (hl_type_phys(t) == HL_P_I64) {
      d->sum.i = (int64_t)((uint64_t)d->sum.i + (uint64_t)s->sum.i);
    } else if (hl_type_phys(t) == HL_P_F64) {
      d->sum.d += s->sum.d; /* units in unit order: the same bits at every thread count */
    } else {
      d->sum.dec += s->sum.dec; /* both below DEC_CHUNK: no overflow */
      d->dec_carry += s->dec_carry;
      if (d->sum.dec >= DEC_CHUNK || d->sum.dec <= -DEC_CHUNK) {
        d->dec_carry += (int64_t)(d->sum.dec / DEC_CHUNK);
        d->sum.dec %= DEC_CHUNK;
      }
    }
    d->has = true;
    return HL_OK;
  case HL_AGG_MIN:
  case HL_AGG_MAX:
    d->count += s->count;
    if (!s->has) return HL_OK;
    /* strictly better only: of equal values the earlier unit's stays */
    return offer_best(a, d, t, &s->best, ag->kind == HL_AGG_MIN ? -1 : 1, err);
  default:
    return HL_OK;
  }
}

uint64_t hl_agg_group_hash(agg_t *a, size_t g) {
  int ng = a->plan->n_group;
  hl_buf_reset(&a->key);
  for (int c = 0; c < ng; c++)
    hl_value_key_append(&a->key, a->plan->group_exprs[c]->type,
                        &a->group_vals[g * (size_t)ng + (size_t)c]);
  return hl_hash_bytes(a->key.data ? a->key.data : "", a->key.len);
}

hl_status_t hl_agg_merge(agg_t *d, const agg_t *p, const uint32_t *groups, size_t n_list,
                         hl_arena_t *scratch, hl_error_t *err) {
  const hl_plan_t *plan = d->plan;
  int ng = plan->n_group, na = plan->n_aggs;
  hl_status_t rc = HL_OK;
  for (size_t i0 = 0; i0 < n_list && rc == HL_OK; i0 += HL_BATCH_CAP) {
    uint32_t n = (uint32_t)(n_list - i0 < HL_BATCH_CAP ? n_list - i0 : HL_BATCH_CAP);
    if ((rc = hl_budget_check_cancel(d->budget, err)) != HL_OK) return rc;
    /* the chunk's group values as vectors, for D's own group lookup */
    hl_arena_reset(scratch);
    hl_vec_t *gvecs = hl_arena_alloc(scratch, sizeof(hl_vec_t) * (size_t)(ng + 1));
    hl_value_t *vals = hl_arena_alloc(scratch, sizeof(hl_value_t) * (size_t)(ng + 1));
    if (!gvecs || !vals) return hl_err_nomem(err);
    for (int c = 0; c < ng && rc == HL_OK; c++) {
      if (hl_vec_alloc(&gvecs[c], plan->group_exprs[c]->type, scratch) != HL_OK) rc = HL_NOMEM;
      for (uint32_t r = 0; r < n && rc == HL_OK; r++) {
        size_t g = groups ? groups[i0 + r] : i0 + r;
        rc = hl_vec_put_value(&gvecs[c], scratch, r, &p->group_vals[g * (size_t)ng + (size_t)c]);
      }
    }
    if (rc != HL_OK) return hl_err_nomem(err);
    /* a spilling table (op_agg_spill.c) freezes at FREEZE_AT: the states
     * of groups it does not hold then go to its spill files, in order */
    uint32_t freeze_at = d->sp && ng > 0 ? hl_agg_spill_freeze_at(d, n, held_bytes(d, ng, na)) : n;
    /* states that grow without new groups (collect_list, percentile, ...)
     * are watched at every group: past the share the table freezes, and
     * past it frozen its groups are evicted, before the chunk ends */
    bool grows = d->sp && ng > 0 && hl_agg_spill_grows(d);
    uint32_t *spilled =
                 freeze_at < n || grows ? hl_arena_alloc(scratch, sizeof(uint32_t) * n) : NULL,
             n_spilled = 0;
    if ((freeze_at < n || grows) && !spilled) return hl_err_nomem(err);
    for (uint32_t r = 0; r < n && rc == HL_OK; r++) {
      size_t g = groups ? groups[i0 + r] : i0 + r, before = d->n_groups;
      uint64_t id = 0;
      if (r == freeze_at) hl_agg_spill_freeze(d);
      if (r >= freeze_at && !hl_agg_group_known(d, gvecs, r)) {
        spilled[n_spilled++] = (uint32_t)g;
        continue;
      }
      if (ng > 0)
        rc = group_id(d, gvecs, r, vals, &id, err);
      else if (d->n_groups == 0)
        rc = add_group(d, vals, err);
      if (rc != HL_OK) break;
      if (id >= before || p->first_pos[g] < d->first_pos[id]) d->first_pos[id] = p->first_pos[g];
      for (int k = 0; k < na && rc == HL_OK; k++)
        rc = merge_state(d, k, &d->states[id * (size_t)na + (size_t)k], (size_t)id,
                         &p->states[g * (size_t)na + (size_t)k], err);
      /* a group's whole state into a table without it: restored, not
       * merged as a unit's (which starts histogram_numeric's generator
       * afresh) */
      for (int k = 0; k < na && rc == HL_OK && id >= before && p->whole && p->whole[g]; k++)
        if (plan->aggs[k].kind == HL_AGG_HISTOGRAM)
          hl_agg_hist_restore(&d->states[id * (size_t)na + (size_t)k],
                              &p->states[g * (size_t)na + (size_t)k]);
      if (rc == HL_OK && grows) {
        uint64_t held = held_bytes(d, ng, na);
        if (r < freeze_at && hl_agg_spill_freeze_at(d, 1, held) == 0) {
          hl_agg_spill_freeze(d);
          if (hl_agg_spill_frozen(d)) freeze_at = r + 1;
        }
        if (hl_agg_spill_evict_due(d, held)) rc = hl_agg_spill_flush(d, err);
      }
    }
    if (rc == HL_OK && n_spilled) rc = hl_agg_spill_states(d, p, spilled, n_spilled, err);
    if (rc == HL_OK)
      rc = hl_budget_track(d->budget, &d->charged, held_bytes(d, ng, na), d->what, err);
  }
  return rc;
}

/* ------------------------------------------------------------ operator */

static hl_status_t agg_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  agg_t *a = (agg_t *)op;
  const hl_plan_t *plan = a->plan;
  *out = NULL;
  if (!a->consumed) {
    a->consumed = true;
    hl_status_t rc = a->par ? hl_agg_par_run(a->par, a, err) : consume_input(a, err);
    if (rc == HL_OK && a->sp) rc = hl_agg_spill_end(a, err);
    if (rc == HL_OK) rc = consume_finish(a, err);
    if (rc != HL_OK) return rc;
  }
  for (;;) {
    /* the groups in memory, then each spilled partition's (op_agg_spill.c) */
    while (a->emitted == a->n_groups && a->sp) {
      bool more;
      hl_status_t rc = hl_agg_spill_next(a, &more, err);
      if (rc != HL_OK) return rc;
      if (!more) return HL_OK;
    }
    if (a->emitted == a->n_groups) return HL_OK;
    if (hl_batch_reset(a->out) != HL_OK) return hl_err_nomem(err);
    size_t n = a->n_groups - a->emitted;
    if (n > HL_BATCH_CAP) n = HL_BATCH_CAP;
    for (size_t i = 0; i < n; i++) {
      size_t g = a->emitted + i;
      for (int c = 0; c < plan->n_group; c++)
        if (hl_vec_put_value(&a->out->cols[c], a->out->arena, (uint32_t)i,
                             &a->group_vals[g * (size_t)plan->n_group + (size_t)c]) != HL_OK)
          return hl_err_nomem(err);
      for (int k = 0; k < plan->n_aggs; k++) {
        hl_value_t v;
        if (final_value(plan, &plan->aggs[k], &a->states[g * (size_t)plan->n_aggs + (size_t)k], &v,
                        a->out->arena) != HL_OK)
          return hl_err_nomem(err);
        if (hl_vec_put_value(&a->out->cols[plan->n_group + k], a->out->arena, (uint32_t)i, &v) !=
            HL_OK)
          return hl_err_nomem(err);
      }
    }
    a->emitted += n;
    a->out->n_rows = (uint32_t)n;
    if (plan->having) {
      hl_status_t rc = hl_expr_filter(plan->having, a->out, a->out->arena, err);
      if (rc != HL_OK) return rc;
      if (hl_batch_live(a->out) == 0) continue;
    }
    *out = a->out;
    return HL_OK;
  }
}

/* The groups' tables, maps and arenas, not the struct (in the operator's
 * arena) nor the output batch. */
static void free_groups(agg_t *a) {
  hl_free(a->first_pos);
  a->first_pos = NULL;
  hl_budget_release(a->budget, a->charged);
  a->charged = 0;
  hl_map_destroy(a->groups);
  a->groups = NULL;
  hl_imap_free(&a->ikeys);
  memset(&a->ikeys, 0, sizeof a->ikeys);
  if (a->distinct)
    for (int k = 0; k < a->plan->n_aggs; k++) {
      hl_map_destroy(a->distinct[k]);
      a->distinct[k] = NULL;
    }
  hl_free(a->group_vals);
  hl_free(a->states);
  a->group_vals = NULL;
  a->states = NULL;
  a->n_groups = a->cap_groups = 0;
  a->null_id = -1;
}

/* The maps of an empty table.  HL_NOMEM. */
static hl_status_t make_maps(agg_t *a) {
  if (!(a->groups = hl_map_create())) return HL_NOMEM;
  for (int k = 0; k < a->plan->n_aggs; k++)
    if ((a->plan->aggs[k].distinct || a->plan->aggs[k].kind == HL_AGG_COLLECT_SET) &&
        a->plan->aggs[k].kind != HL_AGG_APPROX_DISTINCT && !(a->distinct[k] = hl_map_create()))
      return HL_NOMEM;
  return HL_OK;
}

void hl_agg_table_free(agg_t *a) {
  if (!a) return;
  if (a->par) hl_agg_par_free(a->par);
  a->par = NULL;
  hl_agg_spill_free(a->sp);
  a->sp = NULL;
  free_groups(a);
  if (a->child) a->child->close(a->child);
  a->child = NULL;
  hl_batch_destroy(a->out);
  a->out = NULL;
  hl_arena_destroy(a->arena);
  if (a->own_scratch) hl_arena_destroy(a->scratch);
  a->arena = a->scratch = NULL;
  hl_buf_fini(&a->key);
}

hl_status_t hl_agg_table_reset(agg_t *a, hl_error_t *err) {
  free_groups(a);
  hl_arena_reset(a->arena);
  if (a->own_scratch) hl_arena_reset(a->scratch); /* a lent one is its owner's to reset */
  a->consumed = false;
  a->emitted = 0;
  return make_maps(a) == HL_OK ? HL_OK : hl_err_nomem(err);
}

static void agg_close(hl_op_t *op) {
  hl_agg_table_free((agg_t *)op);
}

agg_t *hl_agg_table_new(const hl_plan_t *plan, hl_budget_t *budget, bool output, hl_arena_t *arena,
                        hl_error_t *err) {
  agg_t *a = hl_arena_zalloc(arena, sizeof(*a));
  if (!a) return hl_err_nomem(err), NULL;
  a->op.next = agg_next;
  a->op.close = agg_close;
  a->budget = budget;
  a->plan = plan;
  a->what = "the aggregation";
  hl_buf_init(&a->key);
  int n_out = plan->n_group + plan->n_aggs;
  a->out_types = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(n_out + 1));
  a->distinct = hl_arena_zalloc(arena, sizeof(hl_map_t *) * (size_t)(plan->n_aggs + 1));
  a->arena = hl_arena_create(0);
  /* only the operator reads batches itself; the parallel aggregation lends
   * its tables a worker's scratch */
  a->own_scratch = output;
  if (output) a->scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(arena));
  a->null_id = -1;
  a->int_key = plan->n_group == 1 && !plan->n_grouping_sets &&
               hl_type_phys(plan->group_exprs[0]->type) == HL_P_I64;
  a->str_keys = plan->n_group >= 1 && !plan->n_grouping_sets;
  for (int g = 0; g < plan->n_group; g++)
    if (hl_type_phys(plan->group_exprs[g]->type) != HL_P_STR) a->str_keys = false;
  if (a->out_types) {
    for (int g = 0; g < plan->n_group; g++)
      a->out_types[g] = plan->group_exprs[g]->type;
    for (int k = 0; k < plan->n_aggs; k++)
      a->out_types[plan->n_group + k] = plan->aggs[k].type;
    if (output) a->out = hl_batch_create_charged(n_out, a->out_types, hl_arena_account(arena));
  }
  bool ok = a->out_types && a->distinct && a->arena && (!output || (a->scratch && a->out));
  if (!ok || make_maps(a) != HL_OK) {
    hl_agg_table_free(a);
    return hl_err_nomem(err), NULL;
  }
  return a;
}

hl_op_t *hl_op_agg_create(hl_op_t *child, const hl_plan_t *plan, hl_budget_t *budget,
                          hl_arena_t *arena, hl_error_t *err) {
  agg_t *a = hl_agg_table_new(plan, budget, true, arena, err);
  if (!a) {
    child->close(child);
    return NULL;
  }
  a->child = child;
  return &a->op;
}

bool hl_agg_parallel_ok(const hl_plan_t *plan) {
  /* grouping sets: one row feeds a group per set, keyed with the set's
   * number, which the merge's group lookup does not know; they run on one
   * thread (the same answer at every thread count: the scan keeps order) */
  if (plan->n_grouping_sets) return false;
  /* a stateful expression (row_sequence, ...) numbers rows in the order
   * one thread reads them */
  for (int g = 0; g < plan->n_group; g++)
    if (hl_expr_is_stateful(plan->group_exprs[g])) return false;
  for (int k = 0; k < plan->n_aggs; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    if ((ag->arg && hl_expr_is_stateful(ag->arg)) || (ag->arg2 && hl_expr_is_stateful(ag->arg2)))
      return false;
  }
  return true;
}

bool hl_agg_merge_exact(const hl_plan_t *plan) {
  for (int k = 0; k < plan->n_aggs; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    if (ag->distinct && ag->kind != HL_AGG_COUNT_STAR) return false;
    switch (ag->kind) {
    case HL_AGG_COUNT_STAR:
    case HL_AGG_COUNT:
      break;
    case HL_AGG_SUM:
    case HL_AGG_AVG: /* floating-point sums depend on the order of addition */
      if (hl_type_phys(ag->arg->type) == HL_P_F64) return false;
      break;
    case HL_AGG_MIN:
    case HL_AGG_MAX: {
      /* doubles: of -0.0 and 0.0 (equal) the first seen stays; complex
       * values keep the first of equal ones too */
      hl_phys_t p = hl_type_phys(ag->arg->type);
      if (p == HL_P_VALUE || p == HL_P_F64) return false;
      break;
    }
    default:
      return false;
    }
  }
  return true;
}
