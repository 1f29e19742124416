/*
 * ds_hll.h -- the Apache DataSketches HLL sketch (Hive 4's ds_hll_*
 * functions) with datasketches-java's exact estimates and bytes.
 *
 * A sketch of 2^lgK slots (lgK 4..21) starts in LIST mode (up to 7
 * coupons: a 26-bit slot address and a 6-bit value, the leading zeros of
 * the item hash's second half plus one), moves to SET mode (an open
 * addressing table of coupons, lgK >= 8 only) and then to HLL mode (one
 * value per slot, HIP accumulator, KxQ registers).  Its serialized form
 * names a target type: HLL_4 (4-bit offsets from curMin, larger values in
 * an aux table), HLL_6 (6 bits a slot) or HLL_8 (a byte a slot).
 *
 * In memory every HLL mode sketch keeps one byte per slot, the slot's
 * true value; the type only decides how curMin and numAtCurMin move
 * (HLL_4 tracks the true minimum, HLL_6 / HLL_8 count zeros) and how the
 * sketch is written.  That is the same information Java keeps: its
 * updates, conversions (copyAs) and union read only slot values and
 * those fields, so every estimate and byte comes out as Java's.
 *
 * The union is Java's HllUnion: an HLL_8 gadget of lgMaxK, whose lgK
 * shrinks to a smaller HLL source's (down-sizing), sources in coupon mode
 * merged coupon by coupon, HLL sources merged slot by slot (out of order
 * from then on: the composite estimator).  Sources are treated as Java
 * treats a wrapped (serialized) sketch, as Hive always hands them over.
 *
 * Facts from apache/datasketches-java (org.apache.datasketches.hll:
 * HllSketch, CouponList, CouponHashSet, Hll4Update, Conversions, HllUnion,
 * HllEstimators, CubicInterpolation, ToByteArrayImpl, PreambleUtil) and
 * datasketches-hive's HLL UDFs, read for their behaviour, not copied.
 */
#ifndef HL_UTIL_DS_HLL_H
#define HL_UTIL_DS_HLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

enum { HL_DS_HLL_4 = 0, HL_DS_HLL_6 = 1, HL_DS_HLL_8 = 2 };
enum { HL_DS_HLL_LIST = 0, HL_DS_HLL_SET = 1, HL_DS_HLL_MODE_HLL = 2 };

#define HL_DS_HLL_MIN_LGK     4
#define HL_DS_HLL_MAX_LGK     21
#define HL_DS_HLL_DEFAULT_LGK 12

typedef struct hl_ds_hll {
  hl_arena_t *arena; /* owns coupons and regs */
  uint8_t lgk, type, mode;
  bool ooo;     /* out of order: the composite estimator instead of HIP */
  bool rebuild; /* curMin, numAtCurMin and KxQ to recompute (union only) */
  /* LIST / SET: cap entries (a LIST's array, a SET's hash table of
   * 2^lg_arr), count of them used (non-zero); a wrapped sketch keeps its
   * stored coupons in stored order */
  uint8_t lg_arr;
  bool wrapped;
  uint32_t count, cap;
  uint32_t *coupons;
  /* HLL: 2^lgk slot values */
  uint8_t *regs;
  double hip, kxq0, kxq1;
  uint32_t cur_min, num_at_cur_min;
} hl_ds_hll_t;

/* TgtHllType.valueOf: 0..2, or -1 for any other name. */
int hl_ds_hll_type_of(const char *s, size_t len);
const char *hl_ds_hll_type_name(int type);

/* An empty sketch (LIST mode) of LGK (checked by the caller) and TYPE. */
void hl_ds_hll_init(hl_ds_hll_t *sk, hl_arena_t *arena, int lgk, int type);

/* The coupon of a 128-bit item hash, and a coupon into the sketch.
 * HL_NOMEM when the arena is exhausted. */
uint32_t hl_ds_hll_coupon(const uint64_t h[2]);
hl_status_t hl_ds_hll_update(hl_ds_hll_t *sk, uint32_t coupon);

/* The 128-bit hash of a Java String's chars (String.toCharArray, as the
 * Hive UDFs add STRING, CHAR and VARCHAR values): UTF8[0..len) as UTF-16
 * code units, little-endian.  Malformed UTF-8 becomes U+FFFD a byte, as
 * Hadoop's Text decodes it (exact for well-formed text).  SCRATCH holds
 * the units; HL_NOMEM when it cannot. */
hl_status_t hl_ds_hash_chars(const char *utf8, size_t len, hl_arena_t *scratch, uint64_t out[2]);

bool hl_ds_hll_is_empty(const hl_ds_hll_t *sk);
double hl_ds_hll_estimate(const hl_ds_hll_t *sk);
double hl_ds_hll_composite_estimate(const hl_ds_hll_t *sk);
/* NSD 1..3 (checked by the caller). */
double hl_ds_hll_lower_bound(const hl_ds_hll_t *sk, int nsd);
double hl_ds_hll_upper_bound(const hl_ds_hll_t *sk, int nsd);

/* A union's gadget: an empty HLL_8 sketch of LG_MAX_K. */
void hl_ds_hll_union_init(hl_ds_hll_t *gadget, hl_arena_t *arena, int lg_max_k);
/* HllUnion.update(SRC) with lgMaxK LG_MAX_K; SRC is only read. */
hl_status_t hl_ds_hll_union_update(hl_ds_hll_t *gadget, int lg_max_k, const hl_ds_hll_t *src);
/* HllUnion.getResult(TYPE) into OUT (in GADGET's arena). */
hl_status_t hl_ds_hll_union_result(hl_ds_hll_t *gadget, int type, hl_ds_hll_t *out);

/* toCompactByteArray() of SK, appended to OUT (check OUT->oom). */
void hl_ds_hll_serialize(const hl_ds_hll_t *sk, hl_buf_t *out);
/* HllSketch.wrap of P[0..n): checked, 22023 on bad bytes. */
hl_status_t hl_ds_hll_deserialize(const uint8_t *p, size_t n, hl_arena_t *arena, hl_ds_hll_t *out,
                                  hl_error_t *err);
/* toString() of a wrapped sketch (what ds_hll_stringify shows). */
void hl_ds_hll_to_string(const hl_ds_hll_t *sk, hl_buf_t *out);

/* Aggregate states spilled and read back by the same process: every
 * field as it is.  hl_ds_hll_load checks every length and invariant the
 * updates rely on and returns false on damaged bytes. */
void hl_ds_hll_save(const hl_ds_hll_t *sk, hl_buf_t *out);
bool hl_ds_hll_load(const uint8_t *p, size_t n, size_t *used, hl_arena_t *arena, hl_ds_hll_t *out);

#endif
