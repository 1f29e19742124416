/*
 * op_agg_sketch.c -- the sketch aggregates of Hive's column statistics:
 * compute_bit_vector_hll(x), Hive's HyperLogLog (util/hive_hll.h) of a
 * column as the binary Hive writes.
 *
 * Hive (GenericUDAFComputeBitVectorHLL, GenericUDAFComputeBitVectorBase)
 * makes the sketch at the group's first row, NULL or not, and adds each
 * non-NULL value by its column statistics type: integers and DATE days as
 * longs, FLOAT and DOUBLE (DECIMAL through doubleValue(), bound as a
 * cast) as the bits of the double, TIMESTAMP as its epoch seconds, and
 * strings as their UTF-8 bytes (CHAR without its trailing blanks).  A group that saw no row gives an empty binary (Hive's
 * empty BytesWritable), a group of NULLs the sketch of nothing.
 *
 * The bytes of a sparse sketch depend on the order distinct values first
 * arrive (hive_hll.h), so these states merge in unit order only (never in
 * hl_agg_merge_exact's any-order mode): the parallel result is the
 * single-threaded one.
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/hive_hll.h"

static hl_status_t ensure(agg_t *a, agg_state_t *st, hl_error_t *err) {
  if (st->hive_hll) return HL_OK;
  hl_hhll_t *h = hl_arena_alloc(a->arena, sizeof *h);
  if (!h) return hl_err_nomem(err);
  hl_hhll_init(h, a->arena, HL_HHLL_DEFAULT_P);
  st->hive_hll = h;
  return HL_OK;
}

hl_status_t hl_agg_sketch_update(agg_t *a, agg_state_t *st, const hl_vec_t *arg, uint32_t r,
                                 hl_error_t *err) {
  if (ensure(a, st, err) != HL_OK) return HL_NOMEM;
  if (hl_vec_is_null(arg, r)) return HL_OK;
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
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
    while (v.u.s.len > 0 && v.u.s.ptr[v.u.s.len - 1] == ' ') v.u.s.len--;
    return hl_hhll_add_bytes(h, v.u.s.ptr, v.u.s.len, err);
  case HL_T_STRING:
  case HL_T_VARCHAR:
    return hl_hhll_add_bytes(h, v.u.s.ptr, v.u.s.len, err);
  default: /* TINYINT .. BIGINT, DATE */
    return hl_hhll_add_long(h, v.u.i, err);
  }
}

hl_status_t hl_agg_sketch_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err) {
  if (!s->hive_hll) return HL_OK;
  if (ensure(a, d, err) != HL_OK) return HL_NOMEM;
  return hl_hhll_merge(d->hive_hll, s->hive_hll, err);
}

hl_status_t hl_agg_sketch_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  if (!st->hive_hll) return HL_OK; /* no row: the empty binary */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_error_t err;
  hl_err_init(&err);
  /* a p = 10 sketch always has an estimate: only memory can fail */
  hl_status_t rc = hl_hhll_serialize(st->hive_hll, &b, &err);
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
