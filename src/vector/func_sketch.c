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
 * in_bloom_filter hashes x as Hive does per type (hl_hbloom_hash, shared
 * with the bloom_filter aggregate) and tests the serialized filter in place (util/hive_bloom.c), so
 * a large filter costs nothing per row.  Hive deserializes the filter of
 * the first row and keeps it; here each row's filter is tested, which is
 * the same for the usual constant or scalar filter.  DECIMAL (Hive hashes
 * HiveDecimalWritable.toBytes) is not supported yet.
 */

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
  uint64_t hash = hl_hbloom_hash(t, &a[0]);
  bool in = false;
  if (hl_hbloom_test((const uint8_t *)a[1].u.s.ptr, a[1].u.s.len, hash, &in, err) != HL_OK)
    return HL_ERROR;
  out->u.b = in;
  return HL_OK;
}
