/*
 * interval.h -- Hive's interval values: INTERVAL_YEAR_MONTH (a count of
 * months, Hive's HiveIntervalYearMonth) and INTERVAL_DAY_TIME (a count of
 * microseconds, Hive's HiveIntervalDayTime, whose nanoseconds hivelite
 * truncates to microseconds as it does for TIMESTAMP).
 *
 * The text forms are Hive's valueOf / toString ("1-2", "1 02:03:04.500000000"),
 * used by CAST and printing (util/value.c); the units are the qualifiers of
 * INTERVAL literals and of Hive's internal_interval (plan/bind.c,
 * vector/func_interval.c).  Every parser here reads untrusted text
 * (fuzzed: tests/fuzz/fuzz_interval.c).
 */
#ifndef HL_INTERVAL_H
#define HL_INTERVAL_H

#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hive keeps the months of a year-month interval in an int. */
#define HL_INTERVAL_YM_MAX INT32_MAX
#define HL_INTERVAL_YM_MIN INT32_MIN

typedef enum hl_interval_unit {
  HL_IU_YEAR_TO_MONTH,
  HL_IU_YEAR,
  HL_IU_MONTH,
  HL_IU_DAY_TO_SECOND,
  HL_IU_DAY,
  HL_IU_HOUR,
  HL_IU_MINUTE,
  HL_IU_SECOND
} hl_interval_unit_t;

/* Results of the parsers. */
#define HL_IV_OK    0
#define HL_IV_BAD   (-1) /* not the form of the unit */
#define HL_IV_RANGE (-2) /* the form, but a field or the total is out of range */

/* HiveIntervalYearMonth.valueOf: [+|-]years-months, months 0..11. */
int hl_interval_ym_parse(const char *s, size_t len, int64_t *months);
/* HiveIntervalDayTime.valueOf: [+|-]days hours:minutes:seconds[.fraction],
 * hours 0..23, minutes 0..59; the fraction cut to microseconds. */
int hl_interval_dt_parse(const char *s, size_t len, int64_t *micros);
/* The value of TEXT in UNIT as internal_interval reads it: YEAR TO MONTH and
 * DAY TO SECOND as above, YEAR/MONTH/DAY/HOUR/MINUTE an integer of Java's
 * Integer.parseInt, SECOND a decimal [+|-]digits[.digits].  *OUT is months
 * or microseconds (hl_interval_unit_is_ym). */
int hl_interval_parse_unit(hl_interval_unit_t unit, const char *s, size_t len, int64_t *out);
bool hl_interval_unit_is_ym(hl_interval_unit_t unit);
/* The unit named by WORDS (case-insensitive, blanks between words, a plural
 * accepted for the single units: "day", "DAYS", "year to month").  False
 * when it names none. */
bool hl_interval_unit_lookup(const char *words, size_t len, hl_interval_unit_t *unit);
/* Upper-case SQL spelling: "YEAR TO MONTH", "DAY". */
const char *hl_interval_unit_name(hl_interval_unit_t unit);

/* HiveIntervalYearMonth.toString: "-1-2". */
void hl_interval_ym_format(hl_buf_t *buf, int64_t months);
/* HiveIntervalDayTime.toString: "-1 02:03:04.500000000".  A day-time value
 * is within +-INT64_MAX microseconds (the arithmetic never makes INT64_MIN,
 * whose text would not read back). */
void hl_interval_dt_format(hl_buf_t *buf, int64_t micros);

#endif
