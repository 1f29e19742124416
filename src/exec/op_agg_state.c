/*
 * op_agg_state.c -- aggregate states as rows of a batch, so that the
 * parallel aggregation (op_agg_par.c) can spill a unit's partial states
 * through the spill block format (spill.h) and merge them later, in the
 * same order, exactly as it would have in memory (op_agg_spill.c).
 *
 * A state row is: the group values (their own types), the group's first
 * row (BIGINT: unit ordinal << 40 | row), then per aggregate two columns:
 * a BINARY of the state's fixed part (agg_state_t's bytes; for
 * approx_count_distinct followed by its hash set or sketch), and a value
 * column -- the kept values as an ARRAY of the argument's type for the
 * kinds that keep values (collect_list/set, percentiles, every DISTINCT),
 * min/max's best as the argument's type, a BINARY of the structure of
 * the kinds that keep one of their own (histogram_numeric, ngrams, the bit
 * vectors, compute_stats: op_agg_own.c; NULL before the group's first
 * value), else an always-NULL BOOLEAN.
 * Pointers in the fixed bytes are never read back: the decoder takes them
 * from the value column or the bytes after the struct, and checks every
 * length (a damaged file is XX001, never a crash).
 */
#include "exec/op_agg_int.h"

#include "util/mem.h"

#include <string.h>

struct agg_state_layout {
  int n_cols;
  const hl_type_t **types;
  hl_type_t *arrays;    /* per aggregate: ARRAY<argument type> */
  hl_type_t **children; /* per aggregate: the array's element */
};

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
  hl_free(l->arrays);
  hl_free(l->children);
  hl_free(l);
}

agg_state_layout_t *hl_agg_state_layout(const hl_plan_t *plan, hl_error_t *err) {
  int ng = plan->n_group, na = plan->n_aggs;
  agg_state_layout_t *l = hl_calloc(1, sizeof(*l));
  if (!l) return hl_err_nomem(err), NULL;
  l->n_cols = ng + 1 + 2 * na;
  l->types = hl_calloc((size_t)l->n_cols, sizeof(hl_type_t *));
  l->arrays = hl_calloc((size_t)na + 1, sizeof(hl_type_t));
  l->children = hl_calloc((size_t)na + 1, sizeof(hl_type_t *));
  if (!l->types || !l->arrays || !l->children) {
    hl_agg_state_layout_free(l);
    return hl_err_nomem(err), NULL;
  }
  for (int g = 0; g < ng; g++)
    l->types[g] = plan->group_exprs[g]->type;
  l->types[ng] = hl_type_prim(HL_T_BIGINT);
  for (int k = 0; k < na; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    l->types[ng + 1 + 2 * k] = hl_type_prim(HL_T_BINARY);
    const hl_type_t *vt = hl_type_prim(HL_T_BOOLEAN);
    state_kind_t sk = kind_of(ag);
    if (sk == ST_BEST) vt = ag->arg->type;
    if (sk == ST_OWN) vt = hl_type_prim(HL_T_BINARY);
    if (sk == ST_ITEMS) {
      l->children[k] = (hl_type_t *)ag->arg->type; /* read only */
      l->arrays[k].id = HL_T_ARRAY;
      l->arrays[k].n_children = 1;
      l->arrays[k].children = &l->children[k];
      vt = &l->arrays[k];
    }
    l->types[ng + 2 + 2 * k] = vt;
  }
  return l;
}

int hl_agg_state_cols(const agg_state_layout_t *l) {
  return l->n_cols;
}

const hl_type_t *const *hl_agg_state_types(const agg_state_layout_t *l) {
  return l->types;
}

hl_status_t hl_agg_state_encode(const agg_t *p, const uint32_t *gs, uint32_t n, hl_batch_t *out,
                                hl_error_t *err) {
  const hl_plan_t *plan = p->plan;
  int ng = plan->n_group, na = plan->n_aggs;
  if (hl_batch_reset(out) != HL_OK) return hl_err_nomem(err);
  hl_value_t v;
  for (uint32_t i = 0; i < n; i++) {
    size_t g = gs[i];
    int c = 0;
    for (; c < ng; c++)
      if (hl_vec_put_value(&out->cols[c], out->arena, i,
                           &p->group_vals[g * (size_t)ng + (size_t)c]) != HL_OK)
        return hl_err_nomem(err);
    memset(&v, 0, sizeof v);
    v.u.i = (int64_t)p->first_pos[g];
    if (hl_vec_put_value(&out->cols[c++], out->arena, i, &v) != HL_OK) return hl_err_nomem(err);
    for (int k = 0; k < na; k++) {
      const hl_agg_t *ag = &plan->aggs[k];
      const agg_state_t *st = &p->states[g * (size_t)na + (size_t)k];
      state_kind_t sk = kind_of(ag);
      size_t extra = 0;
      if (sk == ST_SKETCH) extra = st->hll ? sizeof(hl_hll_t) : sizeof(uint64_t) * st->cap_hashes;
      char *bytes = hl_arena_alloc(out->arena, sizeof *st + extra);
      if (!bytes) return hl_err_nomem(err);
      memcpy(bytes, st, sizeof *st);
      if (sk == ST_SKETCH && st->hll) memcpy(bytes + sizeof *st, st->hll, extra);
      if (sk == ST_SKETCH && !st->hll && extra) memcpy(bytes + sizeof *st, st->hashes, extra);
      memset(&v, 0, sizeof v);
      v.u.s.ptr = bytes;
      v.u.s.len = (uint32_t)(sizeof *st + extra);
      if (hl_vec_put_value(&out->cols[c++], out->arena, i, &v) != HL_OK) return hl_err_nomem(err);
      memset(&v, 0, sizeof v);
      if (sk == ST_OWN && st->fam) { /* the value column: the structure's bytes */
        if (hl_agg_own_put(ag, st, &out->cols[c++], out->arena, i) != HL_OK)
          return hl_err_nomem(err);
        continue;
      }
      if (sk == ST_ITEMS) {
        v.u.list.n = st->n_items;
        v.u.list.items = st->items;
      } else if (sk == ST_BEST && st->has) {
        v = st->best;
        v.is_null = false;
      } else {
        v.is_null = true;
      }
      if (hl_vec_put_value(&out->cols[c++], out->arena, i, &v) != HL_OK) return hl_err_nomem(err);
    }
  }
  out->n_rows = n;
  return HL_OK;
}

hl_status_t hl_agg_state_decode(const hl_plan_t *plan, const hl_batch_t *in, hl_arena_t *arena,
                                agg_t *t, hl_error_t *err) {
  int ng = plan->n_group, na = plan->n_aggs;
  uint32_t n = in->n_rows;
  t->plan = plan;
  t->n_groups = t->cap_groups = n;
  t->group_vals = hl_arena_alloc(arena, sizeof(hl_value_t) * ((size_t)n * (size_t)ng + 1));
  t->states = hl_arena_zalloc(arena, sizeof(agg_state_t) * ((size_t)n * (size_t)na + 1));
  t->first_pos = hl_arena_alloc(arena, sizeof(uint64_t) * ((size_t)n + 1));
  if (!t->group_vals || !t->states || !t->first_pos) return hl_err_nomem(err);
  hl_value_t v;
  for (uint32_t i = 0; i < n; i++) {
    int c = 0;
    for (; c < ng; c++)
      hl_vec_get_value(&in->cols[c], i, &t->group_vals[(size_t)i * (size_t)ng + (size_t)c]);
    hl_vec_get_value(&in->cols[c++], i, &v);
    t->first_pos[i] = (uint64_t)v.u.i;
    for (int k = 0; k < na; k++) {
      const hl_agg_t *ag = &plan->aggs[k];
      agg_state_t *st = &t->states[(size_t)i * (size_t)na + (size_t)k];
      state_kind_t sk = kind_of(ag);
      hl_vec_get_value(&in->cols[c++], i, &v);
      if (v.is_null || v.u.s.len < sizeof *st) goto corrupt;
      memcpy(st, v.u.s.ptr, sizeof *st);
      size_t extra = v.u.s.len - sizeof *st;
      const char *tail = v.u.s.ptr + sizeof *st;
      if (sk == ST_SKETCH) {
        bool sketch = st->hll != NULL; /* a flag here, never followed */
        st->hll = NULL;
        st->hashes = NULL;
        if (sketch) {
          if (extra != sizeof(hl_hll_t)) goto corrupt;
          st->cap_hashes = 0;
          if (!(st->hll = hl_arena_alloc(arena, sizeof(hl_hll_t)))) return hl_err_nomem(err);
          memcpy(st->hll, tail, extra);
        } else {
          if (extra != sizeof(uint64_t) * st->cap_hashes) goto corrupt;
          if (extra && !(st->hashes = hl_arena_alloc(arena, extra))) return hl_err_nomem(err);
          if (extra) memcpy(st->hashes, tail, extra);
        }
      } else if (extra) {
        goto corrupt;
      }
      hl_vec_get_value(&in->cols[c++], i, &v);
      if (sk == ST_ITEMS) {
        st->items = v.is_null ? NULL : v.u.list.items;
        st->n_items = st->cap_items = v.is_null ? 0 : v.u.list.n;
      } else if (sk == ST_BEST) {
        if (v.is_null != !st->has) goto corrupt;
        if (!v.is_null) st->best = v;
      } else if (sk == ST_OWN) {
        bool made = st->fam != NULL; /* a flag here, never followed */
        st->fam = NULL;
        if (v.is_null != !made) goto corrupt;
        if (made) {
          hl_status_t rc =
              hl_agg_own_load(ag, (const uint8_t *)v.u.s.ptr, v.u.s.len, arena, st, err);
          if (rc != HL_OK) return rc;
        }
      }
    }
  }
  return HL_OK;
corrupt:
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "a spilled aggregation state is damaged");
}
