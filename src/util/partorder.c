/*
 * partorder.c -- text dates and batch numbers (see partorder.h).
 *
 * Each format is its own pattern: the letters y M d H m s stand for one
 * digit of that field and every other character must appear as it is.  A
 * value is matched against the patterns of its length only, so the format
 * is decided by length and separators alone (yyyy-MM-dd and yyyyMMddHH are
 * both ten characters long and differ in their separators).
 */
#include "util/partorder.h"

#include "util/value.h"

#include <string.h>

/* Indexed by hl_tdate_fmt_t. */
static const char *const patterns[HL_TDATE_N_FMTS] = {
    [HL_TDATE_NONE] = "none",
    [HL_TDATE_YMD] = "yyyyMMdd",
    [HL_TDATE_Y_M_D] = "yyyy-MM-dd",
    [HL_TDATE_YMDH] = "yyyyMMddHH",
    [HL_TDATE_YMDHM] = "yyyyMMddHHmm",
    [HL_TDATE_YMDHMS] = "yyyyMMddHHmmss",
    [HL_TDATE_Y_M_D_H] = "yyyy-MM-dd-HH",
    [HL_TDATE_Y_M_D_HM] = "yyyy-MM-dd HH:mm",
    [HL_TDATE_Y_M_D_HMS] = "yyyy-MM-dd HH:mm:ss",
};

/* S[0..len) against the pattern of FMT: the epoch seconds, or false. */
static bool match(const char *s, size_t len, hl_tdate_fmt_t fmt, int64_t *epoch) {
  const char *p = patterns[fmt];
  if (strlen(p) != len) return false;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  for (size_t i = 0; i < len; i++) {
    int64_t *field = NULL;
    switch (p[i]) {
    case 'y':
      field = &year;
      break;
    case 'M':
      field = &month;
      break;
    case 'd':
      field = &day;
      break;
    case 'H':
      field = &hour;
      break;
    case 'm':
      field = &minute;
      break;
    case 's':
      field = &second;
      break;
    default:
      if (s[i] != p[i]) return false;
      continue;
    }
    if (s[i] < '0' || s[i] > '9') return false;
    *field = *field * 10 + (s[i] - '0');
  }
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 ||
      day > hl_days_in_month(year, (unsigned)month) || hour > 23 || minute > 59 || second > 59)
    return false;
  *epoch = hl_days_from_civil(year, (unsigned)month, (unsigned)day) * 86400 + hour * 3600 +
           minute * 60 + second;
  return true;
}

bool hl_tdate_parse(const char *s, size_t len, int64_t *epoch_sec, hl_tdate_fmt_t *fmt) {
  if (!s) return false;
  for (int f = HL_TDATE_NONE + 1; f < HL_TDATE_N_FMTS; f++) {
    int64_t e;
    if (!match(s, len, (hl_tdate_fmt_t)f, &e)) continue;
    if (epoch_sec) *epoch_sec = e;
    if (fmt) *fmt = (hl_tdate_fmt_t)f;
    return true;
  }
  return false;
}

int64_t hl_tdate_unit_sec(hl_tdate_fmt_t fmt) {
  switch (fmt) {
  case HL_TDATE_YMD:
  case HL_TDATE_Y_M_D:
    return 86400;
  case HL_TDATE_YMDH:
  case HL_TDATE_Y_M_D_H:
    return 3600;
  case HL_TDATE_YMDHM:
  case HL_TDATE_Y_M_D_HM:
    return 60;
  case HL_TDATE_YMDHMS:
  case HL_TDATE_Y_M_D_HMS:
    return 1;
  default:
    return 0;
  }
}

const char *hl_tdate_format_name(hl_tdate_fmt_t fmt) {
  return (int)fmt > HL_TDATE_NONE && fmt < HL_TDATE_N_FMTS ? patterns[fmt] : "none";
}

int64_t hl_tdate_unit_start(int64_t epoch, hl_tdate_fmt_t fmt) {
  int64_t u = hl_tdate_unit_sec(fmt);
  if (u <= 1) return epoch;
  int64_t r = epoch % u; /* floor, also before 1970 */
  return r < 0 ? epoch - r - u : epoch - r;
}

bool hl_batch_parse(const char *s, size_t len, int64_t *out) {
  if (!s || len == 0 || len > 16) return false;
  int64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0'); /* at most 16 digits: no overflow */
  }
  if (v > HL_BATCH_MAX) return false;
  if (out) *out = v;
  return true;
}

bool hl_tdate_majority(size_t dates, size_t n) {
  return dates > 0 && dates > n / 2; /* more than half */
}

hl_tdate_fmt_t hl_tdate_recognise(const char *const *values, size_t n) {
  size_t count[HL_TDATE_N_FMTS] = {0};
  size_t dates = 0;
  for (size_t i = 0; i < n; i++) {
    hl_tdate_fmt_t f;
    if (values[i] && hl_tdate_parse(values[i], strlen(values[i]), NULL, &f)) {
      count[f]++;
      dates++;
    }
  }
  if (!hl_tdate_majority(dates, n)) return HL_TDATE_NONE;
  int best = HL_TDATE_NONE + 1;
  for (int f = best + 1; f < HL_TDATE_N_FMTS; f++)
    if (count[f] > count[best]) best = f;
  return (hl_tdate_fmt_t)best;
}
