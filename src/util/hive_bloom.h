/*
 * hive_bloom.h -- Hive's BloomKFilter, read in place: in_bloom_filter(x,
 * filter) tests a value against the serialized bytes Hive's bloom_filter
 * writes, without building the filter.
 *
 * The bytes (BloomKFilter.serialize) are the number of hash functions k
 * (one signed byte), the number of longs n (a big-endian int, a multiple
 * of 8: blocks of 8 longs), then the n longs big-endian.  A value's
 * Murmur3 hash64 (util/hive_hll.h) is split into two ints h1 and h2; the
 * block is (h1 + h2, complemented when negative) mod n / 8, and hash
 * i = 1..k sets bit (c >>> 3) & 63 of long c & 7 of the block, where
 * c = h1 + (i + 1) * h2, complemented when negative.
 *
 * A filter for n expected entries (BloomKFilter.build) has
 * floor(-n ln p / ln^2 2) bits for p = 0.05f (the float, widened), k =
 * max(1, round(bits / n * ln 2)) and ceil(bits / 64) longs padded with 1..8
 * more to the next block (a multiple of 8 gains a whole block, as Hive's
 * 8 - nLongs % 8 does).
 *
 * Sources (read for the facts, not copied): Apache Hive storage-api
 * .../hive/common/util/BloomKFilter.java, ql GenericUDFInBloomFilter.java,
 * GenericUDAFBloomFilter.java.
 */
#ifndef HL_HIVE_BLOOM_H
#define HL_HIVE_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/value.h"

/* Whether the serialized filter DATA[0..len) may hold the value of Murmur3
 * hash HASH (BloomKFilter.testHash).  22023 for bytes Hive's deserialize
 * refuses: shorter than their header or their longs, a negative or not
 * block-aligned count, or no block at all (Hive: a division by zero). */
hl_status_t hl_hbloom_test(const uint8_t *data, size_t len, uint64_t hash, bool *out,
                           hl_error_t *err);
/* BloomKFilter.addHash on serialized bytes (checked by hl_hbloom_test
 * first): for building filters in tests and bloom_filter. */
void hl_hbloom_add(uint8_t *data, size_t len, uint64_t hash);

/* BloomKFilter.build(ENTRIES): *K hash functions and *N_LONGS longs (the
 * bytes are 5 + 8 * n_longs).  22023 for ENTRIES < 1 (Hive: "expectedEntries
 * should be > 0"), 54000 past Hive's int count of longs. */
hl_status_t hl_hbloom_shape(int64_t entries, int *k, uint32_t *n_longs, hl_error_t *err);
/* The Murmur3 hash Hive's bloom_filter adds and in_bloom_filter tests for
 * the non-NULL value V of primitive type T (not DECIMAL): BOOLEAN 1/0,
 * integers and DATE days as longs, FLOAT/DOUBLE as the double's bits (one
 * NaN), TIMESTAMP (microseconds) as epoch milliseconds (floor), strings
 * and BINARY as their bytes, CHAR without its trailing blanks. */
uint64_t hl_hbloom_hash(const hl_type_t *t, const hl_value_t *v);

#endif
