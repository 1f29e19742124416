/*
 * func_calendar.c -- datetime_legacy_hybrid_calendar(d), as Hive's
 * GenericUDFDatetimeLegacyHybridCalendar: the date or timestamp whose
 * proleptic Gregorian fields (hivelite's, and Hive 3+'s) are the fields
 * Java's legacy calendar shows for the same instant -- the Julian calendar
 * before 1582-10-15, Gregorian from then on.  Hive formats the instant
 * with SimpleDateFormat ("yyyy-MM-dd[ HH:mm:ss]", UTC) and parses the text
 * back; "yyyy" is the year of the era, so a year before 1 AD (1 BC is
 * year 0) comes back as the AD year of the same number.  The time of day
 * and the fraction of a second are kept.  Typed by plan/bind.c (DATE or
 * TIMESTAMP, the argument's own type).
 */
#include "vector/func_int.h"

/* 1582-10-15, the first Gregorian day of Java's default cutover, in days
 * since 1970-01-01 */
#define GREGORIAN_START (-141427)
/* the Julian day number of 1970-01-01 */
#define JDN_EPOCH 2440588

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* DAYS (proleptic Gregorian, since 1970) as the fields of the hybrid
 * calendar, then those fields read as proleptic Gregorian again into
 * *OUT.  False when Hive's parse back fails: a Julian February 29 of a
 * year that is no Gregorian leap year, or a year of more than 4 digits
 * (its parser is strict). */
static bool hybrid_days(int64_t days, int64_t *out) {
  if (days >= GREGORIAN_START) { /* both calendars agree */
    *out = days;
    return true;
  }
  if (days < -5000000) return false; /* before 11000 BC: five digits */
  /* the Julian calendar's fields of the Julian day number (Richards'
   * algorithm, with floor division for the days before its epoch) */
  int64_t c = days + JDN_EPOCH + 32082;
  int64_t d = floor_div(4 * c + 3, 1461);
  int64_t e = c - floor_div(1461 * d, 4);
  int64_t m = floor_div(5 * e + 2, 153);
  int64_t day = e - floor_div(153 * m + 2, 5) + 1;
  int64_t month = m + 3 - 12 * floor_div(m, 10);
  int64_t year = d - 4800 + floor_div(m, 10);
  if (year <= 0) year = 1 - year; /* yyyy: the year of the era */
  if (year > 9999) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && day == 29 && !leap) return false;
  *out = hl_days_from_civil(year, (unsigned)month, (unsigned)day);
  return true;
}

static hl_status_t no_date(const hl_expr_t *call, int64_t days, hl_error_t *err) {
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  return hl_err_set_at(
      err, call->pos, HL_ERROR, HL_SS(DATETIME_FIELD_OVERFLOW),
      "datetime_legacy_hybrid_calendar: the hybrid calendar's date of %lld-%02u-%02u "
      "is no proleptic Gregorian date",
      (long long)y, m, d);
}

HL_FN(hl_fn_legacy_calendar) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  out->is_null = false;
  const int64_t per_day = 86400000000LL;
  bool date = call->type->id == HL_T_DATE;
  int64_t days = date ? a[0].u.i : floor_div(a[0].u.i, per_day), r;
  if (!hybrid_days(days, &r)) return no_date(call, days, err);
  out->u.i = date ? r : r * per_day + (a[0].u.i - days * per_day);
  return HL_OK;
}
