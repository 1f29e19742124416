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
 * Sources (read for the facts, not copied): Apache Hive storage-api
 * .../hive/common/util/BloomKFilter.java, ql GenericUDFInBloomFilter.java.
 */
#ifndef HL_HIVE_BLOOM_H
#define HL_HIVE_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* Whether the serialized filter DATA[0..len) may hold the value of Murmur3
 * hash HASH (BloomKFilter.testHash).  22023 for bytes Hive's deserialize
 * refuses: shorter than their header or their longs, a negative or not
 * block-aligned count, or no block at all (Hive: a division by zero). */
hl_status_t hl_hbloom_test(const uint8_t *data, size_t len, uint64_t hash, bool *out,
                           hl_error_t *err);
/* BloomKFilter.addHash on serialized bytes (checked by hl_hbloom_test
 * first): for building filters in tests and bloom_filter. */
void hl_hbloom_add(uint8_t *data, size_t len, uint64_t hash);

#endif
