/*
 * hive_hll.h -- Hive's own HyperLogLog (the bit vectors of column
 * statistics) with its exact bytes and estimates.
 *
 * Hive 4 computes a column's distinct count with compute_bit_vector_hll
 * (an aggregate) and reads it back with ndv_compute_bit_vector (a scalar);
 * the binary in between is what the metastore stores as the column's
 * bitVector.  To give Hive's results, hivelite must hash with Hive's
 * Murmur3 64-bit variant, keep registers the way Hive's HyperLogLog does
 * (sparse map on p' = 25 index bits until more than ((m * 6) / 8) / 5
 * entries, then 2^p dense registers) and serialize byte for byte
 * (HyperLogLogUtils: "HLL", p and encoding in one byte, the estimate as a
 * varint, then the delta-coded sparse map or the bit-packed registers).
 *
 * Hive 4 keeps the sparse map in a java.util.HashMap<Integer, Byte>, and
 * writes it in that map's iteration order: by bucket (the key's
 * h ^ (h >>> 16), masked to the table's capacity: 16, doubled whenever the
 * map holds more than three quarters of it), and within a bucket in the
 * order the keys were first put (a resize keeps that order).  So the bytes
 * depend on the order distinct keys arrive: hivelite keeps each key's
 * first arrival, and a merge puts the other sketch's new keys after its
 * own, in the other's order, as Hive's merge does.  Not reproduced:
 * HashMap's tree bins (a bucket reaching 8 keys; at the load of a sparse
 * map, about once in 10^7 sketches), which reorder that one bucket.
 *
 * This is separate from util/hll.h (hivelite's own 16 KiB sketch for
 * ANALYZE and approx_count_distinct): that one has no byte format to
 * match.  Sources (read for the facts, not copied): Apache Hive
 * standalone-metastore .../common/ndv/hll/HyperLogLog.java,
 * HLLSparseRegister.java, HLLDenseRegister.java, HyperLogLogUtils.java,
 * HLLConstants.java, and storage-api .../hive/common/util/Murmur3.java.
 */
#ifndef HL_HIVE_HLL_H
#define HL_HIVE_HLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

/* HyperLogLog.builder().setSizeOptimized(): what compute_bit_vector_hll
 * and compute_stats build. */
#define HL_HHLL_DEFAULT_P 10

typedef struct hl_hhll {
  hl_arena_t *arena; /* owns keys, vals and reg */
  uint8_t p;         /* register index bits, 4..16 */
  bool dense;
  bool bitpack;    /* false only for a deserialized 8-bit dense one */
  uint8_t max_reg; /* dense: the largest register (0xff without bit packing) */
  uint32_t n, cap; /* sparse: entries, sorted by key */
  uint32_t *keys;  /* sparse: p'-bit register index */
  uint8_t *vals;   /* sparse: run length (relative to p, as Hive keeps it) */
  uint32_t *seq;   /* sparse: when the key first came (its place in HashMap order) */
  uint32_t next_seq;
  uint8_t *reg; /* dense: 2^p registers */
} hl_hhll_t;

/* Murmur3.hash64(byte[]) (seed 104729; the upper half of Murmur3 x64
 * 128 without the second lane). */
uint64_t hl_murmur3_64(const uint8_t *data, size_t len);
/* Murmur3.hash64(long): the same hash of the 8 big-endian bytes. */
uint64_t hl_murmur3_64_long(int64_t v);

/* An empty sparse sketch with P index bits (HL_HHLL_DEFAULT_P), bit
 * packing on, its memory in ARENA. */
void hl_hhll_init(hl_hhll_t *h, hl_arena_t *arena, int p);
/* HyperLogLog.add(hash).  HL_NOMEM. */
hl_status_t hl_hhll_add(hl_hhll_t *h, uint64_t hash, hl_error_t *err);
/* The value adders of Hive's NumDistinctValueEstimator: addToEstimator(long),
 * (double) and (String, as its UTF-8 bytes). */
hl_status_t hl_hhll_add_long(hl_hhll_t *h, int64_t v, hl_error_t *err);
hl_status_t hl_hhll_add_double(hl_hhll_t *h, double v, hl_error_t *err);
hl_status_t hl_hhll_add_bytes(hl_hhll_t *h, const void *data, size_t len, hl_error_t *err);
/* HyperLogLog.merge: D takes S's registers (same p).  HL_NOMEM, 22023
 * when the p differ. */
hl_status_t hl_hhll_merge(hl_hhll_t *d, const hl_hhll_t *s, hl_error_t *err);
/* estimateNumDistinctValues(): the count, at least 1.  0A000 for a dense
 * sketch whose estimate needs the bias table of a p other than 10 (what
 * Hive's column statistics write) or 12 (approx_distinct's); *OUT set on
 * HL_OK. */
hl_status_t hl_hhll_estimate(const hl_hhll_t *h, int64_t *out, hl_error_t *err);
/* HyperLogLogUtils.serializeHLL, appended to OUT.  HL_NOMEM, and the
 * errors of hl_hhll_estimate. */
hl_status_t hl_hhll_serialize(const hl_hhll_t *h, hl_buf_t *out, hl_error_t *err);
/* HyperLogLogUtils.deserializeHLL of DATA[0..len) into H (memory in
 * ARENA).  Bytes that are not a HyperLogLog get 22023 (Hive: an
 * IllegalArgumentException or EOFException); a dense register block
 * that ends early reads 0xff bytes, as Hive's InputStream.read() = -1 does. */
hl_status_t hl_hhll_deserialize(const uint8_t *data, size_t len, hl_arena_t *arena, hl_hhll_t *h,
                                hl_error_t *err);

/* Java's (long) of a double and Math.round: NaN 0, saturating. */
int64_t hl_java_d2l(double x);
int64_t hl_java_round(double x);

#endif
