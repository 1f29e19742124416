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
