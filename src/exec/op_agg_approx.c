/*
 * op_agg_approx.c -- Hive 4's approx_distinct(x)
 * (GenericUDAFApproximateDistinct): the count() of Hive's own HyperLogLog
 * (util/hive_hll.h) built with 12 register index bits, each group's
 * values added as that UDAF adds them.
 *
 * Hive copies the value to its standard Java object and dispatches on its
 * class: Byte and Short add their hashCode() (the value itself, sign
 * extended) as the hash, with no Murmur3; Integer and a DATE's epoch day
 * go through Murmur3.hash64(int) (the 4 big-endian bytes); Long and a
 * TIMESTAMP's epoch milliseconds through hash64(long); Float its
 * floatToIntBits as an int, Double its doubleToLongBits as a long; strings,
 * VARCHAR and CHAR (HiveChar.toString(): padded to its length, as hivelite
 * keeps CHAR values) as their bytes; DECIMAL by its double (the binder
 * casts it).  BOOLEAN, BINARY and structs fall to Java serialization
 * (ObjectOutputStream) of the object, which the binder refuses.
 *
 * NULLs are skipped; a group without a value counts 0 (Hive's count(), not
 * estimateNumDistinctValues(), so no floor of 1).  The states merge in
 * unit order (they are not in hl_agg_merge_exact); spilled, a state is its
 * sketch's bytes (op_agg_own.c, hl_agg_hll_load).
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/java_bits.h"
#include "util/hive_hll.h"

/* Murmur3.hash64(int): the hash of the int's 4 big-endian bytes. */
static uint64_t hash_int(int32_t v) {
  uint8_t b[4] = {(uint8_t)((uint32_t)v >> 24), (uint8_t)((uint32_t)v >> 16),
                  (uint8_t)((uint32_t)v >> 8), (uint8_t)v};
  return hl_murmur3_64(b, sizeof b);
}

static uint64_t hash_of(const hl_type_t *t, const hl_value_t *v) {
  switch (t->id) {
  case HL_T_TINYINT:
  case HL_T_SMALLINT: /* Byte/Short.hashCode(), sign extended to the long */
    return (uint64_t)v->u.i;
  case HL_T_INT:
  case HL_T_DATE:
    return hash_int((int32_t)v->u.i);
  case HL_T_FLOAT: {
    float f = (float)v->u.d;
    int32_t bits = 0x7fc00000; /* floatToIntBits of every NaN */
    if (f == f) memcpy(&bits, &f, sizeof bits);
    return hash_int(bits);
  }
  case HL_T_DOUBLE:
    return hl_murmur3_64_long(hl_java_double_bits(v->u.d));
  case HL_T_TIMESTAMP:
    return hl_murmur3_64_long(hl_java_epoch_millis(v->u.i));
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    return hl_murmur3_64((const uint8_t *)(v->u.s.len ? v->u.s.ptr : ""), v->u.s.len);
  default: /* BIGINT */
    return hl_murmur3_64_long(v->u.i);
  }
}

static hl_status_t ensure(agg_t *a, agg_state_t *st, hl_error_t *err) {
  if (st->hive_hll) return HL_OK;
  hl_hhll_t *h = hl_arena_alloc(a->arena, sizeof *h);
  if (!h) return hl_err_nomem(err);
  hl_hhll_init(h, a->arena, HL_AGG_APPROX_P);
  st->hive_hll = h;
  return HL_OK;
}

hl_status_t hl_agg_approx_update(agg_t *a, agg_state_t *st, const hl_vec_t *arg, uint32_t r,
                                 hl_error_t *err) {
  if (hl_vec_is_null(arg, r)) return HL_OK;
  if (ensure(a, st, err) != HL_OK) return HL_NOMEM;
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  return hl_hhll_add(st->hive_hll, hash_of(arg->type, &v), err);
}

hl_status_t hl_agg_approx_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err) {
  if (!s->hive_hll) return HL_OK;
  if (ensure(a, d, err) != HL_OK) return HL_NOMEM;
  return hl_hhll_merge(d->hive_hll, s->hive_hll, err);
}

hl_status_t hl_agg_approx_final(const agg_state_t *st, hl_value_t *out) {
  memset(out, 0, sizeof *out);
  if (!st->hive_hll) return HL_OK; /* count() of the empty sketch */
  hl_error_t err;
  hl_err_init(&err);
  int64_t n = 0;
  /* p = 12 has its bias table (util/hive_hll_bias.c): no error */
  hl_status_t rc = hl_hhll_estimate(st->hive_hll, &n, &err);
  hl_err_clear(&err);
  out->u.i = n;
  return rc == HL_OK ? HL_OK : HL_ERROR;
}
