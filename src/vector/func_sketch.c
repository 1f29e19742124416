/*
 * func_sketch.c -- the scalar functions over Hive's column statistics
 * sketches: ndv_compute_bit_vector(bitvector), the distinct count of a
 * bit vector (GenericUDFNDVComputeBitVector), and in_bloom_filter(x,
 * filter), whether x may be in a BloomKFilter (GenericUDFInBloomFilter).
 *
 * The argument is untrusted bytes (a column's stored bitVector, or any
 * binary): util/hive_hll.c decodes it with checked lengths and the
 * result is Hive's estimate recomputed from the registers (Hive ignores
 * the count stored in the header too).  NULL and the empty binary give
 * NULL.  A binary starting "FM" is an FMSketch (compute_bit_vector_fm,
 * util/hive_fm.c), anything else is read as a HyperLogLog, as Hive's
 * NumDistinctValueEstimatorFactory does.
 *
 * in_bloom_filter hashes x as Hive does per type (BOOLEAN 1/0, integers and
 * DATE days as longs, FLOAT/DOUBLE as the double's bits, TIMESTAMP as epoch
 * milliseconds, strings and BINARY as their bytes, CHAR without trailing
 * blanks) and tests the serialized filter in place (util/hive_bloom.c), so
 * a large filter costs nothing per row.  Hive deserializes the filter of
 * the first row and keeps it; here each row's filter is tested, which is
 * the same for the usual constant or scalar filter.  DECIMAL (Hive hashes
 * HiveDecimalWritable.toBytes) is not supported yet.
 */
#include <string.h>

#include "util/hive_bloom.h"
#include "util/hive_fm.h"
#include "util/hive_hll.h"
#include "vector/func_int.h"

HL_FN(hl_fn_ndv_compute_bit_vector) {
  (void)arena;
  if (call->args[0]->type->id != HL_T_BINARY)
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "ndv_compute_bit_vector input only takes BINARY type");
  if (a[0].is_null || a[0].u.s.len == 0) {
    out->is_null = true;
    return HL_OK;
  }
  const uint8_t *p = (const uint8_t *)a[0].u.s.ptr;
  size_t n = a[0].u.s.len;
  if (n >= 2 && p[0] == 'F' && p[1] == 'M') {
    int64_t est = 0;
    if (hl_hfm_estimate_bytes(p, n, &est, err) != HL_OK) return err->code;
    out->u.i = est;
    return HL_OK;
  }
  hl_arena_t *tmp = hl_arena_create(4096);
  if (!tmp) return hl_err_nomem(err);
  hl_hhll_t h;
  int64_t est = 0;
  hl_status_t rc = hl_hhll_deserialize(p, n, tmp, &h, err);
  if (rc == HL_OK) rc = hl_hhll_estimate(&h, &est, err);
  hl_arena_destroy(tmp);
  if (rc != HL_OK) return rc;
  out->u.i = est;
  return HL_OK;
}

HL_FN(hl_fn_in_bloom_filter) {
  (void)arena;
  const hl_type_t *t = call->args[0]->type;
  if (call->args[1]->type->id != HL_T_BINARY)
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "in_bloom_filter: the 2nd argument must be a binary type");
  if (hl_type_is_complex(t))
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "in_bloom_filter: the 1st argument must be a primitive type");
  if (t->id == HL_T_DECIMAL)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "in_bloom_filter of a DECIMAL value is not supported yet");
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const hl_value_t *v = &a[0];
  uint64_t hash;
  switch (t->id) {
  case HL_T_BOOLEAN:
    hash = hl_murmur3_64_long(v->u.b ? 1 : 0);
    break;
  case HL_T_FLOAT:
  case HL_T_DOUBLE: {
    int64_t bits = 0x7ff8000000000000ll; /* doubleToLongBits of every NaN */
    if (v->u.d == v->u.d) memcpy(&bits, &v->u.d, sizeof bits);
    hash = hl_murmur3_64_long(bits);
    break;
  }
  case HL_T_TIMESTAMP: { /* Timestamp.toEpochMilli(): floor */
    int64_t ms = v->u.i / 1000;
    if (v->u.i % 1000 < 0) ms--;
    hash = hl_murmur3_64_long(ms);
    break;
  }
  case HL_T_CHAR: {
    uint32_t n = v->u.s.len;
    while (n > 0 && v->u.s.ptr[n - 1] == ' ')
      n--;
    hash = hl_murmur3_64((const uint8_t *)(n ? v->u.s.ptr : ""), n);
    break;
  }
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_BINARY:
    hash = hl_murmur3_64((const uint8_t *)(v->u.s.len ? v->u.s.ptr : ""), v->u.s.len);
    break;
  default: /* TINYINT .. BIGINT, DATE */
    hash = hl_murmur3_64_long(v->u.i);
    break;
  }
  bool in = false;
  if (hl_hbloom_test((const uint8_t *)a[1].u.s.ptr, a[1].u.s.len, hash, &in, err) != HL_OK)
    return HL_ERROR;
  out->u.b = in;
  return HL_OK;
}
