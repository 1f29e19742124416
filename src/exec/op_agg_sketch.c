/*
 * op_agg_sketch.c -- the sketch aggregates of Hive's column statistics:
 * compute_bit_vector_hll(x), Hive's HyperLogLog (util/hive_hll.h), and
 * compute_bit_vector_fm(x, n), Hive's FMSketch of n vectors
 * (util/hive_fm.h), of a column as the binary Hive writes.
 *
 * Hive (GenericUDAFComputeBitVectorHLL, GenericUDAFComputeBitVectorBase)
 * makes the sketch at the group's first row, NULL or not, and adds each
 * non-NULL value by its column statistics type: integers and DATE days as
 * longs, FLOAT and DOUBLE (DECIMAL through doubleValue(), bound as a
 * cast) as the bits of the double (FMSketch: Double.hashCode of it), TIMESTAMP as its epoch
 * seconds, and strings as their UTF-8 bytes (CHAR without its trailing blanks).  A group that saw
 * no row gives an empty binary (Hive's empty BytesWritable), a group of NULLs the sketch of
 * nothing.
 *
 * The bytes of a sparse HyperLogLog depend on the order distinct values
 * first arrive (hive_hll.h), so these states merge in unit order only (never in
 * hl_agg_merge_exact's any-order mode): the parallel result is the
 * single-threaded one.
 *
 * compute_stats (op_agg_cstats.c) keeps the same sketches: the
 * hl_agg_sketch_add/join/bytes/ndv functions take which sketch (FM or not,
 * and n) instead of the aggregate.
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/hive_fm.h"
#include "util/hive_hll.h"

static bool is_fm(const hl_agg_t *ag) {
  return ag->kind == HL_AGG_BITVECTOR_FM;
}

static hl_status_t ensure(agg_t *a, bool fm, int n, agg_state_t *st, hl_error_t *err) {
  if (fm) {
    if (st->hive_fm) return HL_OK;
    hl_hfm_t *f = hl_arena_alloc(a->arena, sizeof *f);
    if (!f || hl_hfm_init(f, n, a->arena, err) != HL_OK) return hl_err_nomem(err);
    st->hive_fm = f;
    return HL_OK;
  }
  if (st->hive_hll) return HL_OK;
  hl_hhll_t *h = hl_arena_alloc(a->arena, sizeof *h);
  if (!h) return hl_err_nomem(err);
  hl_hhll_init(h, a->arena, HL_HHLL_DEFAULT_P);
  st->hive_hll = h;
  return HL_OK;
}

/* The long an FMSketch adds for V of TYPE (not a FLOAT/DOUBLE). */
static int64_t fm_long(const hl_type_t *type, const hl_value_t *v) {
  if (type->id != HL_T_TIMESTAMP) return v->u.i;
  int64_t secs = v->u.i / 1000000;
  return v->u.i % 1000000 < 0 ? secs - 1 : secs;
}

hl_status_t hl_agg_sketch_add(agg_t *a, bool fm, int n, agg_state_t *st, const hl_vec_t *arg,
                              uint32_t r, hl_error_t *err) {
  if (ensure(a, fm, n, st, err) != HL_OK) return HL_NOMEM;
  if (hl_vec_is_null(arg, r)) return HL_OK;
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  if (fm) { /* strings and DECIMAL are refused by the binder */
    if (arg->type->id == HL_T_FLOAT || arg->type->id == HL_T_DOUBLE)
      hl_hfm_add_double(st->hive_fm, v.u.d);
    else
      hl_hfm_add_long(st->hive_fm, fm_long(arg->type, &v));
    return HL_OK;
  }
  hl_hhll_t *h = st->hive_hll;
  switch (arg->type->id) {
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    return hl_hhll_add_double(h, v.u.d, err);
  case HL_T_TIMESTAMP: { /* TimestampWritableV2.getSeconds(): floor */
    int64_t secs = v.u.i / 1000000;
    if (v.u.i % 1000000 < 0) secs--;
    return hl_hhll_add_long(h, secs, err);
  }
  case HL_T_CHAR: /* getString of a CHAR: HiveChar.getStrippedValue() */
    while (v.u.s.len > 0 && v.u.s.ptr[v.u.s.len - 1] == ' ')
      v.u.s.len--;
    return hl_hhll_add_bytes(h, v.u.s.ptr, v.u.s.len, err);
  case HL_T_STRING:
  case HL_T_VARCHAR:
    return hl_hhll_add_bytes(h, v.u.s.ptr, v.u.s.len, err);
  default: /* TINYINT .. BIGINT, DATE */
    return hl_hhll_add_long(h, v.u.i, err);
  }
}

hl_status_t hl_agg_sketch_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                 uint32_t r, hl_error_t *err) {
  return hl_agg_sketch_add(a, is_fm(ag), (int)ag->param, st, arg, r, err);
}

hl_status_t hl_agg_sketch_join(agg_t *a, bool fm, int n, agg_state_t *d, const agg_state_t *s,
                               hl_error_t *err) {
  if (fm) {
    if (!s->hive_fm) return HL_OK;
    if (ensure(a, fm, n, d, err) != HL_OK) return HL_NOMEM;
    hl_hfm_merge(d->hive_fm, s->hive_fm);
    return HL_OK;
  }
  if (!s->hive_hll) return HL_OK;
  if (ensure(a, fm, n, d, err) != HL_OK) return HL_NOMEM;
  return hl_hhll_merge(d->hive_hll, s->hive_hll, err);
}

hl_status_t hl_agg_sketch_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                                hl_error_t *err) {
  return hl_agg_sketch_join(a, is_fm(ag), (int)ag->param, d, s, err);
}

int64_t hl_agg_sketch_ndv(bool fm, const agg_state_t *st) {
  if (fm) return st->hive_fm ? hl_hfm_estimate(st->hive_fm) : 0;
  if (!st->hive_hll) return 0;
  hl_error_t err;
  hl_err_init(&err);
  int64_t n = 0;
  /* a p = 10 sketch always has an estimate */
  if (hl_hhll_estimate(st->hive_hll, &n, &err) != HL_OK) n = 0;
  hl_err_clear(&err);
  return n;
}

hl_status_t hl_agg_sketch_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena) {
  return hl_agg_sketch_bytes(is_fm(ag), st, out, arena);
}

hl_status_t hl_agg_sketch_bytes(bool fm, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  if (fm ? !st->hive_fm : !st->hive_hll) return HL_OK; /* no row: the empty binary */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_error_t err;
  hl_err_init(&err);
  /* a p = 10 sketch always has an estimate: only memory can fail */
  hl_status_t rc =
      fm ? hl_hfm_serialize(st->hive_fm, &b, &err) : hl_hhll_serialize(st->hive_hll, &b, &err);
  hl_err_clear(&err);
  char *copy = rc == HL_OK ? hl_arena_alloc(arena, b.len ? b.len : 1) : NULL;
  if (copy) {
    memcpy(copy, b.data, b.len);
    out->u.s.ptr = copy;
    out->u.s.len = (uint32_t)b.len;
  }
  hl_buf_fini(&b);
  return copy ? HL_OK : HL_NOMEM;
}

/* The bytes of a sketch (op_agg_own.c).  FMSketch: its vectors, then each
 * one's bits (bit 31 included, which Hive's bytes drop); the coefficients
 * are drawn again.  HyperLogLog: p, dense, bit packing, the largest
 * register, the sparse entries and the next arrival number, then each
 * entry's key, value and arrival (the order Hive's HashMap lists them in
 * depends on it) or the 2^p dense registers. */
void hl_agg_sketch_save(bool fm, const agg_state_t *st, hl_buf_t *out) {
  if (fm) {
    const hl_hfm_t *f = st->hive_fm;
    uint32_t n = (uint32_t)f->n;
    hl_buf_append(out, &n, sizeof n);
    hl_buf_append(out, f->bits, sizeof(uint32_t) * n);
    return;
  }
  const hl_hhll_t *h = st->hive_hll;
  uint8_t head[4] = {h->p, h->dense, h->bitpack, h->max_reg};
  hl_buf_append(out, head, sizeof head);
  hl_buf_append(out, &h->n, sizeof h->n);
  hl_buf_append(out, &h->next_seq, sizeof h->next_seq);
  if (h->dense) {
    hl_buf_append(out, h->reg, (size_t)1 << h->p);
    return;
  }
  for (uint32_t i = 0; i < h->n; i++) {
    hl_buf_append(out, &h->keys[i], sizeof h->keys[i]);
    hl_buf_append(out, &h->vals[i], 1);
    hl_buf_append(out, &h->seq[i], sizeof h->seq[i]);
  }
}

static hl_status_t fm_load(agg_rd_t *r, int n, hl_arena_t *arena, agg_state_t *st) {
  uint32_t sn;
  const uint8_t *bits;
  if (n < 0 || n > HL_HFM_MAX_VECTORS || !hl_agg_rd_u32(r, &sn) || sn != (uint32_t)n ||
      !(bits = hl_agg_rd_take(r, sizeof(uint32_t) * sn)))
    return HL_CORRUPT; /* the aggregate's vectors (a merge ORs as many) */
  hl_hfm_t *f = hl_arena_alloc(arena, sizeof *f);
  hl_error_t err;
  hl_err_init(&err);
  hl_status_t rc = f ? hl_hfm_init(f, n, arena, &err) : HL_NOMEM;
  hl_err_clear(&err);
  if (rc != HL_OK) return HL_NOMEM;
  if (n) memcpy(f->bits, bits, sizeof(uint32_t) * sn);
  st->hive_fm = f;
  return HL_OK;
}

/* The limits hl_hhll_add keeps: a sparse key has 25 bits, a value is a
 * run length of at most 6 bits, a dense register at most 65 (and below
 * 128, which bit packing relies on). */
enum { HHLL_KEY_BITS = 25, HHLL_VAL_MAX = 63, HHLL_REG_MAX = 127 };

hl_status_t hl_agg_hll_load(agg_rd_t *r, int p, hl_arena_t *arena, agg_state_t *st) {
  const uint8_t *head = hl_agg_rd_take(r, 4);
  uint32_t n, next_seq;
  if (!head || !hl_agg_rd_u32(r, &n) || !hl_agg_rd_u32(r, &next_seq)) return HL_CORRUPT;
  /* the aggregates' p; a sketch they build always bit packs */
  if (head[0] != p || head[1] > 1 || head[2] != 1) return HL_CORRUPT;
  uint32_t m = 1u << p;
  hl_hhll_t *h = hl_arena_alloc(arena, sizeof *h);
  if (!h) return HL_NOMEM;
  hl_hhll_init(h, arena, p);
  h->next_seq = next_seq;
  if (head[1]) { /* dense: no entries, 2^p registers and their largest */
    const uint8_t *reg;
    if (n != 0 || !(reg = hl_agg_rd_take(r, m))) return HL_CORRUPT;
    uint8_t max = 0;
    for (uint32_t i = 0; i < m; i++) {
      if (reg[i] > HHLL_REG_MAX) return HL_CORRUPT;
      if (reg[i] > max) max = reg[i];
    }
    if (head[3] != max) return HL_CORRUPT;
    if (!(h->reg = hl_arena_alloc(arena, m))) return HL_NOMEM;
    memcpy(h->reg, reg, m);
    h->dense = true;
    h->max_reg = max;
    st->hive_hll = h;
    return HL_OK;
  }
  /* sparse: at most 2^p entries (it turns dense long before), keys
   * ascending, arrivals 0..n-1 each once (a sparse sketch numbers each new
   * key), the bytes of all of them */
  if (head[3] != 0 || n > m || next_seq != n || r->left / 9 < n) return HL_CORRUPT;
  size_t cap = n ? n : 1;
  h->keys = hl_arena_alloc(arena, sizeof(uint32_t) * cap);
  h->vals = hl_arena_alloc(arena, cap);
  h->seq = hl_arena_alloc(arena, sizeof(uint32_t) * cap);
  uint8_t *seen = hl_arena_zalloc(arena, cap);
  if (!h->keys || !h->vals || !h->seq || !seen) return HL_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *val;
    if (!hl_agg_rd_u32(r, &h->keys[i]) || !(val = hl_agg_rd_take(r, 1)) ||
        !hl_agg_rd_u32(r, &h->seq[i]))
      return HL_CORRUPT;
    h->vals[i] = *val;
    if (h->keys[i] >> HHLL_KEY_BITS || (i && h->keys[i] <= h->keys[i - 1]) ||
        h->vals[i] > HHLL_VAL_MAX || h->seq[i] >= n || seen[h->seq[i]]++)
      return HL_CORRUPT;
  }
  h->n = h->cap = n;
  st->hive_hll = h;
  return HL_OK;
}

hl_status_t hl_agg_sketch_load(agg_rd_t *r, bool fm, int n, hl_arena_t *arena, agg_state_t *st) {
  return fm ? fm_load(r, n, arena, st) : hl_agg_hll_load(r, HL_HHLL_DEFAULT_P, arena, st);
}
