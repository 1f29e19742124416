/*
 * profile.h -- one column's mergeable profile state (PROFILE TABLE, issue 16).
 *
 * A state takes the live rows of column vectors (hl_prof_col_add), merges
 * with the state of another split of the same column (hl_prof_col_merge),
 * serialises for the catalog, which keeps one state per partition
 * (hl_prof_col_encode / hl_prof_col_decode), and yields the column's
 * profile (hl_prof_col_result).  The PROFILE driver keeps one state per
 * column per scan thread and partition, merges them, and stores them.
 *
 * What is exact and what is estimated (profile.c explains how):
 *  - count, nulls, min, max, integer and decimal sums (so the mean), zeros,
 *    negatives, NaNs, infinities, string lengths and empties: exact, and a
 *    merge of splits equals one state over all rows exactly.  Standard
 *    deviation is computed in double (Chan's parallel formula): a merge
 *    agrees with one state to about 1e-12 relative, not bit for bit; so
 *    does the mean of FLOAT/DOUBLE columns (a double sum).
 *  - distinct and the most frequent values: exact while the column has at
 *    most HL_PROF_EXACT_MAX distinct values (strings: also at most
 *    HL_PROF_EXACT_BYTES bytes of them), merges included; beyond, a
 *    HyperLogLog of 2^12 registers (relative standard error 1.04/64 =
 *    1.625 %) and a Misra-Gries summary of HL_PROF_TOP_K counters, whose
 *    counts are lower bounds: the true count is in [top_count, top_count +
 *    top_count_err].  Strings longer than HL_PROF_TOP_MAX_LEN bytes are then
 *    left out of the summary (never reported as frequent).
 *  - quantiles (numbers, DATE, TIMESTAMP): exact (from the distinct set)
 *    while the distinct set is exact; beyond, a deterministic KLL-style
 *    compactor sketch whose measured rank error stays under
 *    HL_PROF_QUANTILE_RANK_ERR (tests/unit/vector/test_profile.c checks it
 *    over many seeds).  Quantile values are values that occurred, except
 *    for DECIMAL with more than 18 digits, whose sketch orders doubles.
 *  - FLOAT/DOUBLE: NaN is a value (counted, one distinct value, can be a
 *    frequent value, reported in nans) but is left out of min, max, mean,
 *    stddev, quantiles, zeros and negatives; infinities take part in min,
 *    max and quantiles and are left out of mean and stddev (reported in
 *    infinities), so the mean and stddev are never NaN.  -0.0 is 0.
 *  - CHAR values are compared, counted and measured without their trailing
 *    blanks (Hive's CHAR semantics); lengths are in characters (UTF-8) for
 *    STRING/VARCHAR/CHAR and in bytes for BINARY.
 *  - ARRAY/MAP/STRUCT: count and nulls only.
 *
 * Encoded size (format version 2; sizes measured by test_profile's
 * state_size_table): exact states hold their distinct values (at most
 * 1024), integers and doubles as Rice-coded gaps, strings front-coded
 * (at most 32 KiB of string bytes): ~0.75 KB for 1000 BIGINTs below 2^32,
 * ~7.5 KB for 1000 arbitrary doubles.  Sketch states hold a HyperLogLog
 * (rANS-coded: ~1.4-1.5 KB), the summary pruned to HL_PROF_TOP_K values and,
 * for ordered types, the quantile sketch held to KLL's capacities (at most
 * about 400 items, Rice-coded gaps): 8,000 to 1,000,000 rows of distinct
 * BIGINTs take ~2.2-2.4 KB below 2^32 and ~3.0-3.3 KB over all 63 bits,
 * DOUBLEs ~2.8-3.0 KB, short strings ~1.5-1.9 KB; string states also hold
 * their min and max values in full.  Without long min/max strings a state
 * stays under 48 KiB.
 */
#ifndef HL_PROFILE_H
#define HL_PROFILE_H

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/type.h"
#include "util/value.h"
#include "vector/vector.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HL_PROF_EXACT_MAX         1024        /* distinct values kept exactly */
#define HL_PROF_EXACT_BYTES       (32 * 1024) /* string bytes kept exactly */
#define HL_PROF_TOP_K             32          /* Misra-Gries counters */
#define HL_PROF_TOP_MAX_LEN       256         /* longest string the summary tracks */
#define HL_PROF_DISTINCT_REL_ERR  (1.04 / 64.0)
#define HL_PROF_QUANTILE_RANK_ERR 0.02               /* stated bound on |rank - q| / count */
#define HL_PROF_MAX_ROWS          ((int64_t)1 << 56) /* rows one state counts at most */

typedef struct hl_prof_col hl_prof_col_t; /* one column's mergeable profile state (heap-owned) */

/* A new empty state for a column of TYPE (borrowed, must outlive the state).
 * NULL with ERR set (HL_NOMEM). */
hl_prof_col_t *hl_prof_col_new(const hl_type_t *type, hl_error_t *err);
void hl_prof_col_free(hl_prof_col_t *c); /* NULL is a no-op */

/* Adds the live rows of vector V: rows sel[0..n) when SEL != NULL, else rows
 * 0..n-1 (as hl_batch_t's sel/n_rows).  V has the state's type.  HL_NOMEM. */
hl_status_t hl_prof_col_add(hl_prof_col_t *c, const hl_vec_t *v, const uint32_t *sel, uint32_t n,
                            hl_error_t *err);

/* Adds N_VALUES rows that all hold V (of the state's type, not NULL) and
 * N_NULLS NULL rows, in time independent of the counts: what a file's
 * statistics say of a column chunk whose values are all one value, or all
 * NULL (then V is unused), and a partition key over a partition's rows.
 * Equals adding the rows one by one: exactly for the exact metrics, within
 * the stated bounds for the sketches.  HL_NOMEM; 22003
 * past HL_PROF_MAX_ROWS rows (the state unchanged). */
hl_status_t hl_prof_col_add_repeat(hl_prof_col_t *c, const hl_value_t *v, int64_t n_values,
                                   int64_t n_nulls, hl_error_t *err);

/* DST += SRC (same type).  Associative; the merged result equals the result
 * of adding all rows to one state, exactly for the exact metrics above and
 * within the stated bounds for the sketches.  HL_NOMEM (DST then holds some
 * of SRC: discard it); 22003 past HL_PROF_MAX_ROWS rows (DST unchanged). */
hl_status_t hl_prof_col_merge(hl_prof_col_t *dst, const hl_prof_col_t *src, hl_error_t *err);

/* Appends the state to OUT: "HLPF", format version, the type, the total
 * length and a trailing checksum, little-endian throughout.  The same
 * state always encodes to the same bytes.  HL_NOMEM. */
hl_status_t hl_prof_col_encode(const hl_prof_col_t *c, hl_buf_t *out, hl_error_t *err);

/* Decodes DATA[0..len) for a column of TYPE.  Any malformed input (wrong
 * length, checksum, version, a state of another type, any field out of
 * its bounds or inconsistent with the others) is HL_CORRUPT with SQLSTATE
 * XX001; allocation is bounded by LEN.  NULL with ERR set. */
hl_prof_col_t *hl_prof_col_decode(const hl_type_t *type, const void *data, size_t len,
                                  hl_error_t *err);

/* For tests and the fuzz target: rewrites the length field and checksum of
 * an encoding in DATA[0..len) (len >= 16) so that a decoder sees mutated
 * bytes behind them. */
void hl_prof_reseal(void *data, size_t len);

typedef struct hl_prof_result {
  int64_t count; /* non-NULL + NULL rows */
  int64_t nulls;
  int64_t distinct;        /* non-NULL distinct values */
  bool distinct_exact;     /* exact (below the threshold) or estimated */
  double distinct_rel_err; /* stated relative standard error when estimated, else 0 */
  bool has_minmax;
  hl_value_t min, max; /* strings copied into the arena */
  bool has_mean;
  double mean, stddev; /* numeric types; sample stddev (n - 1), needs 2 values */
  bool has_stddev;
  bool has_quantiles;
  hl_value_t q25, q50, q75; /* numeric/DATE/TIMESTAMP: values of the column type; the
                               value at sorted position floor(q * (n - 1)) of the
                               non-NULL (non-NaN) values when exact */
  double quantile_rank_err; /* 0 when exact, else HL_PROF_QUANTILE_RANK_ERR */
  int64_t zeros, negatives;
  bool has_signs;           /* numeric */
  int64_t nans, infinities; /* FLOAT/DOUBLE (else 0) */
  bool has_lengths;         /* STRING/VARCHAR/CHAR/BINARY */
  int64_t min_len, max_len;
  double mean_len;
  int64_t empties;
  int n_top; /* most frequent, count desc, ties by value asc */
  hl_value_t top[5];
  int64_t top_count[5];
  bool top_exact;
  int64_t top_count_err; /* when !top_exact: true count <= top_count + this */
} hl_prof_result_t;

/* Fills *OUT (strings in ARENA).  HL_NOMEM. */
hl_status_t hl_prof_col_result(const hl_prof_col_t *c, hl_arena_t *arena, hl_prof_result_t *out,
                               hl_error_t *err);

#endif
