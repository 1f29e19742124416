/*
 * ds_quantiles.h -- Apache DataSketches' classic quantiles sketch of
 * doubles (DoublesSketch / DoublesUnion, datasketches-java 3.1.0, the one
 * datasketches-hive 1.2.0 and so Hive 4's ds_quantile_doubles_* use):
 * updating, the union (with downsampling between k's), the queries and
 * the compact serialization, byte for byte Java's.
 *
 * A sketch of parameter k (a power of two, 2..32768) after n values keeps
 * a base buffer of n mod 2k values (in arrival order) and, for each set
 * bit i of n / 2k (the bit pattern), a sorted level of k values weighing
 * 2^(i+1) each.  A full base buffer is sorted and zipped (every other
 * value, from a random offset 0 or 1) into level 0, carried upwards by
 * merging with full levels and zipping again, like binary addition.
 * Java draws the offsets from one static java.util.Random, so Hive's
 * sketches differ from run to run once a compaction happens; here each
 * sketch has its own java.util.Random seeded HL_DS_QUANTILES_SEED, so the
 * same values in the same order give the same sketch every time.  Below
 * 2k values nothing is random and the sketch is Hive's exactly.
 *
 * The compact form (toByteArray(true)): 8 preamble bytes (preamble longs
 * 1 when empty else 2, serialization version 3, family 8, flags: read-only
 * 2, empty 4, compact 8, ordered 16; k as a little-endian u16), then, when
 * not empty, n (u64), min and max (doubles), the base buffer sorted and the
 * valid levels from the lowest, all little-endian.
 *
 * Queries (DoublesSketch 3.1.0): getQuantile(r) is the min at r = 0, the
 * max at r = 1, else the value whose weighted position in sorted order
 * contains floor(r * n); getCDF / getPMF count the weight of the values
 * strictly below each split point.
 *
 * Sources (read for the facts, not copied): apache/datasketches-java
 * 3.1.0 quantiles/ (DoublesUpdateImpl, DoublesMergeImpl, DoublesUnionImpl,
 * DoublesAuxiliary, DoublesPmfCdfImpl, DoublesUtil, DirectCompactDoublesSketch).
 */
#ifndef HL_DS_QUANTILES_H
#define HL_DS_QUANTILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#define HL_DS_QUANTILES_DEFAULT_K 128
#define HL_DS_QUANTILES_SEED      20260901

typedef struct hl_ds_quantiles {
  uint32_t k;
  uint64_t n;
  double min, max; /* NaN while empty */
  uint32_t bb;     /* values in the base buffer */
  uint64_t bits;   /* the levels in use: n / 2k */
  uint32_t n_lvls; /* levels allocated */
  double *buf;     /* 2k base buffer, then n_lvls levels of k (arena) */
  uint64_t rng;    /* java.util.Random state for the zip offsets */
  hl_arena_t *arena;
} hl_ds_quantiles_t;

/* Whether K is a valid k (a power of two in 2..32768). */
bool hl_ds_quantiles_valid_k(int64_t k);
/* An empty sketch of K (valid) in ARENA.  NULL when out of memory. */
hl_ds_quantiles_t *hl_ds_quantiles_new(hl_arena_t *arena, uint32_t k);
/* Adds V (NaN is ignored, as Java).  HL_NOMEM. */
hl_status_t hl_ds_quantiles_update(hl_ds_quantiles_t *q, double v);

/* DoublesUnion: the union's maxK and its sketch (NULL: none yet). */
typedef struct hl_ds_quantiles_union {
  uint32_t max_k;
  hl_ds_quantiles_t *gadget;
} hl_ds_quantiles_union_t;
/* DoublesUnion.update(sketch): SRC (not changed) into U, the sketch made
 * in ARENA.  SRC's base buffer is taken sorted, as its compact form has
 * it.  HL_NOMEM. */
hl_status_t hl_ds_quantiles_union_update(hl_ds_quantiles_union_t *u, const hl_ds_quantiles_t *src,
                                         hl_arena_t *arena);
/* A copy of SRC in ARENA (DoublesUnion.heapify's copy).  NULL: no memory. */
hl_ds_quantiles_t *hl_ds_quantiles_copy(const hl_ds_quantiles_t *src, hl_arena_t *arena);

/* The compact form of Q appended to OUT (out->oom on failure). */
void hl_ds_quantiles_serialize(const hl_ds_quantiles_t *q, hl_buf_t *out);
/* A sketch read from DATA[0..len), the compact or the updatable form
 * (toByteArray(false)), into ARENA (bytes after the sketch are ignored, as
 * Java's wrap does).  22023 for bytes Java refuses (short, wrong family,
 * version or k) and for n = 0 without the empty flag; HL_NOMEM. */
hl_status_t hl_ds_quantiles_deserialize(const uint8_t *data, size_t len, hl_arena_t *arena,
                                        hl_ds_quantiles_t **out, hl_error_t *err);

static inline bool hl_ds_quantiles_empty(const hl_ds_quantiles_t *q) {
  return q->n == 0;
}
/* getQuantile(rank) of a non-empty sketch; 22023 for a rank outside [0, 1]. */
hl_status_t hl_ds_quantiles_quantile(const hl_ds_quantiles_t *q, double rank, double *out,
                                     hl_error_t *err);
/* getQuantiles(ranks) into OUT[0..n) (non-empty sketch). */
hl_status_t hl_ds_quantiles_quantiles(const hl_ds_quantiles_t *q, const double *ranks, size_t n,
                                      double *out, hl_error_t *err);
/* getCDF (CDF) or getPMF of SPLITS[0..m) into OUT[0..m]: 22023 unless the
 * split points increase strictly (no NaN). */
hl_status_t hl_ds_quantiles_cdf_pmf(const hl_ds_quantiles_t *q, const double *splits, size_t m,
                                    bool cdf, double *out, hl_error_t *err);
/* DoublesSketch.toString() of the sketch Java wraps from its compact form
 * of CAP bytes (DirectCompactDoublesSketch), appended to OUT. */
void hl_ds_quantiles_to_string(const hl_ds_quantiles_t *q, size_t cap, hl_buf_t *out);

#endif
