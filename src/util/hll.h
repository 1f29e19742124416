/*
 * hll.h -- HyperLogLog distinct-count sketches for column statistics.
 *
 * ANALYZE ... FOR COLUMNS feeds every non-NULL value of a column (as its
 * grouping key bytes, util/value.h hl_value_key_append) into one sketch;
 * the estimate becomes the column's distinct count, and the registers are
 * stored as the column's bit vector so partition sketches can be merged
 * into table-level counts without reading data again.
 * 2^14 one-byte registers (16 KiB): standard error about 0.8 %.
 */
#ifndef HL_HLL_H
#define HL_HLL_H

#include <stddef.h>
#include <stdint.h>

#define HL_HLL_P         14
#define HL_HLL_REGISTERS (1u << HL_HLL_P)

typedef struct hl_hll {
  uint8_t reg[HL_HLL_REGISTERS]; /* max rank seen per bucket, 0 = empty */
} hl_hll_t;

/* Empties the sketch (caller-owned storage). */
void hl_hll_init(hl_hll_t *h);
/* 64-bit hash of DATA[0..len) (FNV-1a, then the SplitMix64 finaliser so
 * that every output bit depends on every input byte). */
uint64_t hl_hll_hash(const void *data, size_t len);
/* Adds an item by its 64-bit hash. */
void hl_hll_add_hash(hl_hll_t *h, uint64_t hash);
/* Adds DATA[0..len). */
void hl_hll_add(hl_hll_t *h, const void *data, size_t len);
/* DST = union of DST and SRC. */
void hl_hll_merge(hl_hll_t *dst, const hl_hll_t *src);
/* The estimated number of distinct items added (0 for an empty sketch). */
uint64_t hl_hll_estimate(const hl_hll_t *h);

#endif
