/*
 * murmur3.h -- MurmurHash3 x64_128, the hash of the Apache DataSketches
 * sketches Hive 4 ships as its ds_* functions (HLL, CPC, Theta, Tuple,
 * KLL and frequent items hash their items with it, seed 9001 unless the
 * call names another), and the item conversions they hash.
 *
 * Hive's own sketches (util/hive_hll.h, hive_bloom.h) use a different,
 * 64-bit variant of Murmur3; this is Austin Appleby's x64_128, as
 * datasketches-java's MurmurHash3 computes it: h1 and h2 start at the
 * seed, 16-byte blocks are read little-endian.  Written here because no
 * Debian package exposes it for C.
 */
#ifndef HL_UTIL_MURMUR3_H
#define HL_UTIL_MURMUR3_H

#include <stddef.h>
#include <stdint.h>

/* DataSketches' DEFAULT_UPDATE_SEED. */
#define HL_DS_SEED 9001u

/* The 128-bit hash of DATA[0..len) with SEED: out[0] = h1, out[1] = h2. */
void hl_murmur3_128(const void *data, size_t len, uint64_t seed, uint64_t out[2]);

/* How a DataSketches update(long) hashes an integer: the long as one
 * 64-bit block (its 8 little-endian bytes). */
void hl_ds_hash_long(int64_t v, uint64_t seed, uint64_t out[2]);

/* update(double): -0.0 as 0.0, every NaN as the canonical one
 * (Double.doubleToLongBits), then hashed as that long. */
void hl_ds_hash_double(double d, uint64_t seed, uint64_t out[2]);

#endif
