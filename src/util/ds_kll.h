/*
 * ds_kll.h -- the KLL floats quantiles sketch of Apache DataSketches, as
 * datasketches-java 3.1.0 (what datasketches-hive 1.2.0, Hive 4's ds_kll_*
 * functions, is built on) keeps, merges, queries and serializes it.
 *
 * A sketch of parameter k keeps levels of floats: level h holds items of
 * weight 2^h, level 0 unsorted, the others sorted, all packed at the top
 * of one buffer whose size is the sum of the levels' capacities (k times
 * (2/3)^depth, at least m = 8, depth counted from the top level).  When
 * level 0 reaches the bottom of the buffer, the lowest level at its
 * capacity is compacted: sorted, every other item kept (which half is a
 * coin flip), merged into the level above; compacting the top level adds
 * a level.  A merge feeds the other's level 0 through update and then
 * compacts the union of both sketches' upper levels in one pass.
 *
 * The coin: Java flips java.util.Random (one static generator, not
 * seeded), so Hive's sketches differ from run to run once a compaction
 * happens.  Here every sketch has its own SplitMix64 generator started at
 * HL_DS_KLL_SEED (a fresh one for every sketch built or read from bytes;
 * a copy carries its state), and a flip is the top bit of its next output:
 * the same input in the same order gives the same bytes every time.
 * Below the first compaction (fewer than k items, or any merge of such
 * sketches) nothing is random and the bytes and answers are Java's.
 *
 * Bytes (KllFloatsSketch.toByteArray, little-endian): preamble ints (2
 * empty or single item, 5 full), serial version (1, or 2 for a single
 * item), family 15, flags (1 empty, 2 level 0 sorted, 4 single item), k
 * (u16), m (8), a spare byte; empty ends there (8 bytes); a single item
 * is followed by the float; a full one by n (u64), min k (u16), the number
 * of levels (u8), a spare byte, the start offset of every level but the
 * last (i32 each, in the buffer of the sum of capacities), min, max, and
 * the retained items from level 0 up.
 *
 * Queries are 3.1.0's (before the search criteria of 4.0): the rank of x
 * counts the weights of items < x; the quantile of fraction f is the item
 * whose cumulative weight range holds floor(f * n) in the weight-sorted
 * item list, with f = 0 and 1 answering min and max; PMF and CDF buckets
 * are [split_i-1, split_i) by weight over n.
 *
 * Sources (read for the facts, not copied): datasketches-java 3.1.0
 * kll/KllFloatsSketch.java, KllHelper.java, KllFloatsQuantileCalculator.java,
 * QuantilesHelper.java, Util.validateValues; datasketches-hive 1.2.0 kll/.
 */
#ifndef HL_UTIL_DS_KLL_H
#define HL_UTIL_DS_KLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#define HL_DS_KLL_DEFAULT_K 200
#define HL_DS_KLL_MIN_K     8
#define HL_DS_KLL_MAX_K     65535
/* the start of every sketch's coin-flip generator (SplitMix64) */
#define HL_DS_KLL_SEED 0x6b6c6c5f66363401ull

typedef struct hl_ds_kll {
  hl_arena_t *arena; /* owns levels and items */
  uint32_t k, min_k;
  uint64_t n;
  uint32_t num_levels;
  uint32_t *levels;    /* num_levels + 1 offsets into items (room for 2 more) */
  uint32_t cap_levels; /* entries levels has room for */
  float *items;        /* levels[num_levels] floats */
  bool sorted0;        /* level 0 is sorted */
  float min, max;      /* NaN while empty */
  uint64_t rng;        /* the coin generator's state */
} hl_ds_kll_t;

/* Whether K is one a sketch takes; else 22023 with Java's message. */
hl_status_t hl_ds_kll_check_k(int64_t k, hl_error_t *err);
/* An empty sketch of K (checked) in ARENA.  HL_NOMEM. */
hl_status_t hl_ds_kll_init(hl_ds_kll_t *s, hl_arena_t *arena, uint32_t k);
/* KllFloatsSketch.update (NaN ignored).  HL_NOMEM. */
hl_status_t hl_ds_kll_update(hl_ds_kll_t *s, float v);
/* KllFloatsSketch.merge: O's items into S (O unchanged).  HL_NOMEM. */
hl_status_t hl_ds_kll_merge(hl_ds_kll_t *s, const hl_ds_kll_t *o);
/* D (uninitialised) becomes a copy of S, its generator state included,
 * in ARENA.  HL_NOMEM. */
hl_status_t hl_ds_kll_copy(hl_ds_kll_t *d, const hl_ds_kll_t *s, hl_arena_t *arena);
bool hl_ds_kll_empty(const hl_ds_kll_t *s);

/* toByteArray, appended to OUT (out->oom on failure). */
void hl_ds_kll_serialize(const hl_ds_kll_t *s, hl_buf_t *out);
/* heapify of DATA[0..len) into S (memory in ARENA, a fresh generator).
 * 22023 for bytes that are not a sketch this version writes: a wrong
 * preamble, version, family, m or k, a length other than the form's, and
 * levels, counts or items that break the sketch's invariants (the weights
 * must add up to n, upper levels sorted, no NaN).  HL_NOMEM. */
hl_status_t hl_ds_kll_deserialize(const uint8_t *data, size_t len, hl_arena_t *arena,
                                  hl_ds_kll_t *s, hl_error_t *err);

/* getRank(v): NaN when empty. */
double hl_ds_kll_rank(const hl_ds_kll_t *s, float v);
/* getPMF / getCDF (CDF) of SPLITS[0..n_splits): n_splits + 1 values into
 * OUT.  *IS_NULL when the sketch is empty (Java: null).  22023 when the
 * splits are not finite and strictly increasing. */
hl_status_t hl_ds_kll_pmf(const hl_ds_kll_t *s, const float *splits, size_t n_splits, bool cdf,
                          double *out, bool *is_null, hl_error_t *err);
/* getQuantiles(FRACS[0..n)) into OUT (getQuantile for one): NaN for
 * each when empty; sorts level 0 in place (as Java does).  22023 for a
 * fraction outside [0, 1].  HL_NOMEM. */
hl_status_t hl_ds_kll_quantiles(hl_ds_kll_t *s, const double *fracs, size_t n, float *out,
                                hl_error_t *err);
/* toString(): Java's summary text, appended to OUT. */
void hl_ds_kll_to_string(const hl_ds_kll_t *s, hl_buf_t *out);

#endif
