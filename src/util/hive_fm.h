/*
 * hive_fm.h -- Hive's FMSketch (Flajolet-Martin bit vectors), the other
 * bit vector of Hive's column statistics, with its exact bytes.
 *
 * compute_bit_vector_fm(x, n) keeps n 31-bit vectors; vector i sets the
 * bit of the lowest 1 of (a[i] * v + b[i]) mod (2^31 - 1), where a and b
 * are the first odd draws of java.util.Random seeded 99397 and 9876413.
 * The bytes (FMSketchUtils) are "FM", n as two little-endian bytes, then
 * each vector's bits 0..30 as a little-endian int.  The estimate is
 * 2^(mean of the vectors' lowest clear bit - log2(0.77351)).
 *
 * Sources (read for the facts, not copied): Apache Hive
 * standalone-metastore .../common/ndv/fm/FMSketch.java, FMSketchUtils.java;
 * java.util.Random's documented generator.
 */
#ifndef HL_HIVE_FM_H
#define HL_HIVE_FM_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

/* GenericUDAFComputeBitVectorFMSketch's MAX_BIT_VECTORS */
#define HL_HFM_MAX_VECTORS 1024

typedef struct hl_hfm {
  int n;          /* vectors, 0..HL_HFM_MAX_VECTORS */
  int32_t *a, *b; /* the hash coefficients per vector */
  uint32_t *bits; /* per vector; bit 31 can be set (a hash of 0) but is not written */
} hl_hfm_t;

/* An empty sketch of N vectors (0..HL_HFM_MAX_VECTORS), memory in ARENA.
 * HL_NOMEM. */
hl_status_t hl_hfm_init(hl_hfm_t *f, int n, hl_arena_t *arena, hl_error_t *err);
/* addToEstimator(long) and (double: Double.hashCode of it). */
void hl_hfm_add_long(hl_hfm_t *f, int64_t v);
void hl_hfm_add_double(hl_hfm_t *f, double v);
/* mergeEstimators: D |= S (the same n). */
void hl_hfm_merge(hl_hfm_t *d, const hl_hfm_t *s);
/* estimateNumDistinctValues(): 0 for no vectors (Java's (long) NaN). */
int64_t hl_hfm_estimate(const hl_hfm_t *f);
/* FMSketchUtils.serializeFM, appended to OUT.  HL_NOMEM. */
hl_status_t hl_hfm_serialize(const hl_hfm_t *f, hl_buf_t *out, hl_error_t *err);
/* The estimate of serialized bytes DATA[0..len) (deserializeFM then
 * estimateNumDistinctValues).  Only a missing "FM" is an error (22023):
 * Hive's reader takes bytes past the end as 0xff, and so does this. */
hl_status_t hl_hfm_estimate_bytes(const uint8_t *data, size_t len, int64_t *out, hl_error_t *err);

/* java.util.Random(seed) and its nextInt(), for the coefficients. */
void hl_java_random_init(uint64_t *state, int64_t seed);
int32_t hl_java_random_next_int(uint64_t *state);

#endif
