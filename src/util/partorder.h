/*
 * partorder.h -- text dates and batch numbers in partition values.
 *
 * Hive tables are often partitioned by a STRING column that holds dates
 * (dt=20240131, dt=2024-01-31-07) or load batch numbers (batch=9,
 * batch=10).  Compared as text, batch 10 sorts before batch 9, so the
 * planner's "newest partitions first" (plan/newest.c) and the incremental
 * field (plan/incr.c) read such values as times or numbers.  Only formats
 * whose text order is time order are dates here (never dd-MM-yyyy,
 * MM/dd/yyyy, yyyyMM or yyyy): a value has a format by its exact length and
 * separators, and must be a real calendar time (Feb 29 only in leap years,
 * hours 0-23), years 1900 to 2200, read as UTC.  Pure functions: no
 * allocation, no locale, no whitespace or signs accepted.
 */
#ifndef HL_PARTORDER_H
#define HL_PARTORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hl_tdate_fmt {
  HL_TDATE_NONE = 0,
  HL_TDATE_YMD,       /* yyyyMMdd */
  HL_TDATE_Y_M_D,     /* yyyy-MM-dd */
  HL_TDATE_YMDH,      /* yyyyMMddHH */
  HL_TDATE_YMDHM,     /* yyyyMMddHHmm */
  HL_TDATE_YMDHMS,    /* yyyyMMddHHmmss */
  HL_TDATE_Y_M_D_H,   /* yyyy-MM-dd-HH */
  HL_TDATE_Y_M_D_HM,  /* yyyy-MM-dd HH:mm */
  HL_TDATE_Y_M_D_HMS, /* yyyy-MM-dd HH:mm:ss */
  HL_TDATE_N_FMTS     /* the number of formats (NONE included) */
} hl_tdate_fmt_t;

/* The largest batch number: 2^53, the largest integer a double (and so a
 * JSON number) holds exactly. */
#define HL_BATCH_MAX INT64_C(9007199254740992)

/* Parses S[0..len) as a text date in one of the formats above: true and
 * the seconds since 1970-01-01 00:00:00 UTC in *EPOCH_SEC and the format in
 * *FMT (either pointer may be NULL); false (outputs untouched) otherwise. */
bool hl_tdate_parse(const char *s, size_t len, int64_t *epoch_sec, hl_tdate_fmt_t *fmt);

/* The unit of FMT in seconds: 86400 for the day formats, 3600 for the hour
 * ones, 60 for the minute ones, 1 for the second ones; 0 for NONE. */
int64_t hl_tdate_unit_sec(hl_tdate_fmt_t fmt);

/* The format's pattern ("yyyyMMdd", "yyyy-MM-dd HH:mm", ...); "none" for
 * NONE and anything out of range. */
const char *hl_tdate_format_name(hl_tdate_fmt_t fmt);

/* EPOCH rounded down to the start of FMT's unit (its day for yyyyMMdd, its
 * hour for yyyyMMddHH); EPOCH itself for NONE. */
int64_t hl_tdate_unit_start(int64_t epoch, hl_tdate_fmt_t fmt);

/* Parses S[0..len) as a batch number: 1 to 16 ASCII digits (leading zeros
 * allowed) whose value is at most HL_BATCH_MAX.  False (OUT untouched)
 * for anything else: empty, blanks, a sign, a point, 17 digits. */
bool hl_batch_parse(const char *s, size_t len, int64_t *out);

/* The text-date format of a column whose values are VALUES[0..n) (NULL
 * entries, such as the default partition, count as values that are not
 * dates): the format most of the dates have (ties: the first in enum
 * order) when more than half of the N values are dates, else NONE. */
hl_tdate_fmt_t hl_tdate_recognise(const char *const *values, size_t n);

/* Whether a column of N values of which DATES are text dates (in any of
 * the formats) is one of text dates: more than half are.  The rule of
 * hl_tdate_recognise, for callers that have the counts only (the
 * metastore keeps them per table: catalog.h hl_cat_partition_tdates). */
bool hl_tdate_majority(size_t dates, size_t n);

#endif
