/*
 * func_sqldt.c -- CAST(x AS type FORMAT 'template'): Hive's cast_format
 * (GenericUDFCastFormat) over its SQL:2016 datetime templates
 * (HiveSqlDateTimeFormatter).  The binder (plan/bind.c) compiles a
 * template once per call with hl_sqldt_compile -- it is always a string
 * literal -- and evaluates rows through hl_fn_cast_format, which formats a
 * DATE or TIMESTAMP as a string or parses a string as a DATE or TIMESTAMP.
 *
 * The template is cut into tokens as Hive does: at each position the
 * longest token of at most five characters (any case) wins; separators
 * (- : space . / ; ' ,) next to each other are one token; T and Z are ISO
 * 8601 delimiters; "text" is literal text (a backslash escapes a quote, and
 * every backslash is dropped); FM (fill mode) applies to the next temporal
 * token, FX (format exact) to the whole template.  Checks are Hive's: for
 * parsing, a year and a day (month and day of month, day of year, or ISO
 * week and day), no duplicate or conflicting field, no D/Q/W/WW; for
 * formatting, no TZH/TZM and a name token (MONTH, MON, DAY, DY) in one of
 * three cases.  A bad template is 22007 with Hive's message.
 *
 * Parsing follows Java's java.time semantics step by step, as Hive does:
 * the fields are applied in template order to 1970-01-01 00:00, so a day
 * of month beyond the month fails, a month change clamps the day, and so
 * on; a year with fewer digits takes its leading digits from the current
 * year (RR/RRRR round); time-zone fields are read and range-checked but, as
 * in Hive, not applied.  Input that does not match is NULL (Hive catches
 * its IllegalArgumentException; where Java would throw an index error
 * instead -- input that ends inside TZH, A.M. or a text token -- it is
 * NULL here too).  hivelite's timestamps hold microseconds, so FF7-FF9
 * format as the microseconds and three zeros, and parsed nanoseconds are
 * truncated; years outside 0001-9999 are NULL; text and names match
 * ignoring the case of ASCII letters only (Java folds every letter).  Fuzzed
 * (tests/fuzz/fuzz_sqldt.c).
 */
#include "vector/func_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define US_PER_SEC 1000000LL
#define US_PER_DAY 86400000000LL

typedef enum tok_kind { K_NUM, K_CHAR, K_SEP, K_TZ, K_ISO, K_TEXT } tok_kind_t;

/* java.time fields, in the names Hive's messages print */
typedef enum field {
  F_YEAR,
  F_MONTH,
  F_DOW_SUN, /* D: day of week, Sunday 1 */
  F_DOM,
  F_DOY,
  F_HOUR12,
  F_HOUR24,
  F_MIN,
  F_SEC,
  F_SOD,
  F_NANO,
  F_AMPM,
  F_AWOY,
  F_AWOM,
  F_QUARTER,
  F_WBY,
  F_WOWBY,
  F_DOW, /* ISO day of week, Monday 1 (ID, DAY, DY) */
  F_TZH,
  F_TZM,
  F_NFIELDS
} field_t;

/* clang-format off */
static const char *const field_names[F_NFIELDS] = {
    "Year", "MonthOfYear", "DayOfWeek[WeekFields[SUNDAY,1]]", "DayOfMonth", "DayOfYear",
    "HourOfAmPm", "HourOfDay", "MinuteOfHour", "SecondOfMinute", "SecondOfDay", "NanoOfSecond",
    "AmPmOfDay", "AlignedWeekOfYear", "AlignedWeekOfMonth", "QuarterOfYear", "WeekBasedYear",
    "WeekOfWeekBasedYear", "DayOfWeek", "Hours", "Minutes"};
/* clang-format on */

typedef struct tok_def {
  const char *name; /* lower case */
  uint8_t kind, field, len;
} tok_def_t;

/* Every temporal and time-zone token with its expected length (Hive's
 * SPECIAL_LENGTHS, else the name's length). */
static const tok_def_t tok_defs[] = {
    {"yyyy", K_NUM, F_YEAR, 4},   {"yyy", K_NUM, F_YEAR, 3},     {"yy", K_NUM, F_YEAR, 2},
    {"y", K_NUM, F_YEAR, 1},      {"rrrr", K_NUM, F_YEAR, 4},    {"rr", K_NUM, F_YEAR, 2},
    {"mm", K_NUM, F_MONTH, 2},    {"d", K_NUM, F_DOW_SUN, 1},    {"dd", K_NUM, F_DOM, 2},
    {"ddd", K_NUM, F_DOY, 3},     {"hh", K_NUM, F_HOUR12, 2},    {"hh12", K_NUM, F_HOUR12, 2},
    {"hh24", K_NUM, F_HOUR24, 2}, {"mi", K_NUM, F_MIN, 2},       {"ss", K_NUM, F_SEC, 2},
    {"sssss", K_NUM, F_SOD, 5},   {"ff1", K_NUM, F_NANO, 1},     {"ff2", K_NUM, F_NANO, 2},
    {"ff3", K_NUM, F_NANO, 3},    {"ff4", K_NUM, F_NANO, 4},     {"ff5", K_NUM, F_NANO, 5},
    {"ff6", K_NUM, F_NANO, 6},    {"ff7", K_NUM, F_NANO, 7},     {"ff8", K_NUM, F_NANO, 8},
    {"ff9", K_NUM, F_NANO, 9},    {"ff", K_NUM, F_NANO, 9},      {"a.m.", K_NUM, F_AMPM, 4},
    {"am", K_NUM, F_AMPM, 4},     {"p.m.", K_NUM, F_AMPM, 4},    {"pm", K_NUM, F_AMPM, 4},
    {"ww", K_NUM, F_AWOY, 2},     {"w", K_NUM, F_AWOM, 1},       {"q", K_NUM, F_QUARTER, 1},
    {"iyyy", K_NUM, F_WBY, 4},    {"iyy", K_NUM, F_WBY, 3},      {"iy", K_NUM, F_WBY, 2},
    {"i", K_NUM, F_WBY, 1},       {"iw", K_NUM, F_WOWBY, 2},     {"id", K_NUM, F_DOW, 2},
    {"mon", K_CHAR, F_MONTH, 3},  {"month", K_CHAR, F_MONTH, 9}, {"day", K_CHAR, F_DOW, 9},
    {"dy", K_CHAR, F_DOW, 3},     {"tzh", K_TZ, F_TZH, 3},       {"tzm", K_TZ, F_TZM, 2},
};

typedef struct tok {
  uint8_t kind, field, len; /* len: expected length */
  bool fill;                /* FM before it */
  uint16_t off, slen;       /* its text in hl_sqldt_t.text */
} tok_t;

struct hl_sqldt {
  tok_t tok[HL_SQLDT_MAX_PATTERN];
  int n;
  bool fx;
  bool need_iso;         /* formats IYYY or IW: the ISO week is worked out per value */
  int cur_year, cur_wby; /* of the statement's date, for short years */
  char text[HL_SQLDT_MAX_PATTERN];
  size_t text_len;
};

static const char *const month_names[12] = {"January",   "February", "March",    "April",
                                            "May",       "June",     "July",     "August",
                                            "September", "October",  "November", "December"};
static const char *const day_names[7] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                         "Friday", "Saturday", "Sunday"};

static char lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}
static char upper(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}
static bool is_sep(char c) {
  return c && strchr("-: ./;',", c) != NULL;
}
static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static bool ieq(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

static const tok_def_t *find_def(const char *lc, size_t n) {
  for (size_t k = 0; k < sizeof tok_defs / sizeof tok_defs[0]; k++)
    if (strlen(tok_defs[k].name) == n && memcmp(tok_defs[k].name, lc, n) == 0) return &tok_defs[k];
  return NULL;
}

static hl_status_t bad(hl_error_t *err, long pos, const char *msg, const char *arg) {
  return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_DATETIME_FORMAT), "%s%s", msg,
                       arg ? arg : "");
}

/* ---------------------------------------------------------------- calendar */

static int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
static bool leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}
static int iso_dow(int64_t days) {
  return (int)(((days % 7) + 7 + 3) % 7) + 1;
} /* 1970-01-01: Thu */
static int day_of_year(int64_t y, unsigned m, unsigned d) {
  return (int)(hl_days_from_civil(y, m, d) - hl_days_from_civil(y, 1, 1)) + 1;
}
/* ISO week and week-based year of DAYS: those of its week's Thursday. */
static void iso_week(int64_t days, int64_t *wby, int *week) {
  int64_t thu = days - (iso_dow(days) - 1) + 3;
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(thu, &y, &m, &d);
  *wby = y;
  *week = (day_of_year(y, m, d) - 1) / 7 + 1;
}
static int week_range(int64_t wby) {
  int dow = iso_dow(hl_days_from_civil(wby, 1, 1));
  return dow == 4 || (dow == 3 && leap(wby)) ? 53 : 52;
}

/* -------------------------------------------------------------- compiling */

hl_status_t hl_sqldt_compile(const char *pat, size_t n, bool for_parse, int64_t today,
                             hl_arena_t *arena, long pos, hl_sqldt_t **out, hl_error_t *err) {
  if (n >= HL_SQLDT_MAX_PATTERN)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_DATETIME_FORMAT),
                         "the format template is too long (%zu characters; at most %d)", n,
                         HL_SQLDT_MAX_PATTERN - 1);
  hl_sqldt_t *f = hl_arena_zalloc(arena, sizeof *f);
  if (!f) return hl_err_nomem(err);
  char lc[HL_SQLDT_MAX_PATTERN + 1];
  for (size_t i = 0; i < n; i++)
    lc[i] = lower(pat[i]);
  lc[n] = 0;
  int64_t cy;
  unsigned cm, cd;
  hl_civil_from_days(today, &cy, &cm, &cd);
  int64_t cwby;
  int cw;
  iso_week(today, &cwby, &cw);
  f->cur_year = (int)cy;
  f->cur_wby = (int)cwby;

  bool fill = false;
  int last = -1; /* the token a separator may join: the last one added */
  char msg[320];
  size_t i = 0;
  while (i < n) {
    if (pat[i] == '"') { /* text up to an unescaped quote */
      if (fill) goto fm_error;
      size_t e = i + 1;
      while (e < n && !(pat[e] == '"' && pat[e - 1] != '\\'))
        e++;
      if (e >= n) {
        snprintf(msg, sizeof msg, "Missing closing double quote (\") opened at index %zu", i);
        return bad(err, pos, msg, NULL);
      }
      tok_t *t = &f->tok[f->n++];
      t->kind = K_TEXT;
      t->off = (uint16_t)f->text_len;
      for (size_t k = i + 1; k < e; k++)
        if (pat[k] != '\\') f->text[f->text_len++] = pat[k];
      t->slen = (uint16_t)(f->text_len - t->off);
      t->len = (uint8_t)t->slen;
      last = f->n - 1;
      i = e + 1;
      continue;
    }
    if (is_sep(lc[i])) {
      if (fill) goto fm_error;
      if (last >= 0 && f->tok[last].kind == K_SEP) {
        f->tok[last].slen++;
        f->tok[last].len++;
      } else {
        tok_t *t = &f->tok[f->n++];
        t->kind = K_SEP;
        t->off = (uint16_t)f->text_len;
        t->slen = t->len = 1;
        last = f->n - 1;
      }
      f->text[f->text_len++] = lc[i];
      i++;
      continue;
    }
    const tok_def_t *def = NULL;
    size_t len = 0;
    for (size_t l = 5; l > 0 && !def; l--)
      if (i + l <= n && (def = find_def(lc + i, l))) len = l;
    if (!def && (lc[i] == 't' || lc[i] == 'z')) {
      if (fill) goto fm_error;
      tok_t *t = &f->tok[f->n++];
      t->kind = K_ISO;
      t->off = (uint16_t)f->text_len;
      t->slen = t->len = 1;
      f->text[f->text_len++] = upper(lc[i]);
      last = f->n - 1;
      i++;
      continue;
    }
    if (!def && i + 2 <= n && lc[i] == 'f' && (lc[i + 1] == 'm' || lc[i + 1] == 'x')) {
      if (fill) goto fm_error;
      fill = lc[i + 1] == 'm';
      if (!fill) f->fx = true;
      i += 2;
      continue;
    }
    if (!def) {
      snprintf(msg, sizeof msg, "Bad date/time conversion pattern: %.*s", (int)n, lc);
      return bad(err, pos, msg, NULL);
    }
    if (def->kind == K_TZ && fill) goto fm_error;
    tok_t *t = &f->tok[f->n++];
    t->kind = def->kind;
    t->field = def->field;
    t->len = def->len;
    t->fill = def->kind != K_TZ && fill;
    f->need_iso |= def->field == F_WBY || def->field == F_WOWBY;
    t->off = (uint16_t)f->text_len;
    t->slen = (uint16_t)len;
    /* AM/PM and the names keep the template's case (it decides the output's) */
    bool keep = def->kind == K_CHAR || def->field == F_AMPM;
    memcpy(f->text + f->text_len, keep ? pat + i : lc + i, len);
    f->text_len += len;
    if (def->kind != K_TZ) fill = false;
    last = f->n - 1;
    i += len;
  }
  /* Hive's checks: verifyForParse / verifyForFormat */
  if (for_parse) {
    int count[F_NFIELDS] = {0};
    int round_year = 0, year = 0;
    bool iso = false, greg = false;
    for (int k = 0; k < f->n; k++) {
      const tok_t *t = &f->tok[k];
      if (t->kind != K_NUM && t->kind != K_CHAR && t->kind != K_TZ) continue;
      count[t->field]++;
      if (t->field == F_YEAR) *(f->text[t->off] == 'r' ? &round_year : &year) += 1;
      if (t->field == F_WBY || t->field == F_WOWBY) iso = true;
      if (t->field == F_YEAR || t->field == F_MONTH || t->field == F_DOW_SUN || t->field == F_DOM ||
          t->field == F_DOY || t->field == F_AWOY || t->field == F_AWOM || t->field == F_QUARTER)
        greg = true;
    }
#define HAS(x) (count[x] > 0)
    if (HAS(F_QUARTER)) return bad(err, pos, "Illegal field: q (QuarterOfYear)", NULL);
    if (HAS(F_DOW_SUN))
      return bad(err, pos, "Illegal field: d (DayOfWeek[WeekFields[SUNDAY,1]])", NULL);
    if (HAS(F_DOW) && greg) return bad(err, pos, "Illegal field: dy/day (DayOfWeek)", NULL);
    if (HAS(F_AWOM)) return bad(err, pos, "Illegal field: w (AlignedWeekOfMonth)", NULL);
    if (HAS(F_AWOY)) return bad(err, pos, "Illegal field: ww (AlignedWeekOfYear)", NULL);
    if (greg && iso)
      return bad(err, pos, "Pattern cannot contain both ISO and Gregorian tokens", NULL);
    if (!HAS(F_YEAR) && !HAS(F_WBY)) return bad(err, pos, "Missing year token.", NULL);
    if (greg && !((HAS(F_MONTH) && HAS(F_DOM)) || HAS(F_DOY)))
      return bad(err, pos, "Missing day of year or (month of year + day of month) tokens.", NULL);
    if (iso && !(HAS(F_WOWBY) && HAS(F_DOW)))
      return bad(err, pos, "Missing week of year (iw) or day of week (id) tokens.", NULL);
    if (round_year && year)
      return bad(err, pos,
                 "Invalid duplication of format element: Both year and round year are provided",
                 NULL);
    for (int k = 0; k < f->n; k++) {
      const tok_t *t = &f->tok[k];
      if ((t->kind == K_NUM || t->kind == K_CHAR) && count[t->field] > 1) {
        snprintf(msg, sizeof msg,
                 "Invalid duplication of format element: multiple %s tokens provided.",
                 field_names[t->field]);
        return bad(err, pos, msg, NULL);
      }
    }
    if (HAS(F_AMPM) && !HAS(F_HOUR24) && !HAS(F_HOUR12))
      return bad(err, pos, "AM/PM provided but missing hour token.", NULL);
    if (HAS(F_AMPM) && HAS(F_HOUR24))
      return bad(err, pos, "Conflict between median indicator and hour token.", NULL);
    if (HAS(F_HOUR12) && HAS(F_HOUR24))
      return bad(err, pos, "Conflict between hour of day and hour of am/pm token.", NULL);
    if (HAS(F_DOY) && (HAS(F_DOM) || HAS(F_MONTH)))
      return bad(err, pos, "Day of year provided with day or month token.", NULL);
    if (HAS(F_SOD) && (HAS(F_HOUR24) || HAS(F_HOUR12) || HAS(F_MIN) || HAS(F_SEC)))
      return bad(err, pos, "Second of day token conflicts with other token(s).", NULL);
    if (HAS(F_TZM) && !HAS(F_TZH))
      return bad(err, pos, "Time zone minute token provided without time zone hour token.", NULL);
#undef HAS
  } else {
    for (int k = 0; k < f->n; k++) {
      const tok_t *t = &f->tok[k];
      const char *s = f->text + t->off;
      if (t->kind == K_TZ) {
        snprintf(msg, sizeof msg, "%s not a valid format for timestamp or date.",
                 t->field == F_TZH ? "TZH" : "TZM");
        return bad(err, pos, msg, NULL);
      }
      if (t->kind != K_CHAR) continue;
      bool all_up = true, all_low = true, cap = s[0] >= 'A' && s[0] <= 'Z';
      for (int c = 0; c < t->slen; c++) {
        all_up &= !(s[c] >= 'a' && s[c] <= 'z');
        all_low &= !(s[c] >= 'A' && s[c] <= 'Z');
        if (c > 0) cap &= !(s[c] >= 'A' && s[c] <= 'Z');
      }
      if (!all_up && !all_low && !cap) {
        char u[6], c1[6], l[6];
        for (int c = 0; c < t->slen; c++) {
          u[c] = upper(s[c]);
          l[c] = lower(s[c]);
          c1[c] = c ? l[c] : u[c];
        }
        snprintf(msg, sizeof msg,
                 "Ambiguous capitalization of token %.*s. Accepted forms are %.*s, %.*s, or %.*s.",
                 t->slen, s, t->slen, u, t->slen, c1, t->slen, l);
        return bad(err, pos, msg, NULL);
      }
    }
  }
  *out = f;
  return HL_OK;

fm_error:
  snprintf(msg, sizeof msg,
           "Bad date/time conversion pattern: %.*s. Error at index %zu: Fill mode modifier (FM) "
           "must be followed by a temporal token.",
           (int)n, pat, i);
  return bad(err, pos, msg, NULL);
}

/* -------------------------------------------------------------- formatting */

/* Appends the digits of V for numeric token T (padOrTruncateNumericTemporal). */
static size_t fmt_number(char *o, const tok_t *t, int64_t v) {
  char d[24]; /* V's decimal digits (String.valueOf), without snprintf's cost per row */
  size_t len = 0;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  char rev[24];
  do
    rev[len++] = (char)('0' + u % 10);
  while (u /= 10);
  size_t dl = 0;
  if (v < 0) d[dl++] = '-';
  while (len)
    d[dl++] = rev[--len];
  const char *p = d;
  len = dl;
  char buf[32];
  if (t->field == F_NANO) {
    /* left-pad to nine digits, keep the first LEN; FF drops trailing zeros */
    memset(buf, '0', 9);
    memcpy(buf + 9 - len, d, len);
    len = t->len < 9 ? t->len : 9;
    p = buf;
    if (t->slen == 2)
      while (len > 0 && p[len - 1] == '0')
        len--;
  } else {
    if (len < t->len && !t->fill) {
      size_t pad = t->len - len;
      memset(buf, '0', pad);
      memcpy(buf + pad, d, len);
      p = buf;
      len = t->len;
    } else if (len > t->len) {
      p += len - t->len;
      len = t->len;
    }
    if (t->fill)
      while (len > 0 && *p == '0')
        p++, len--;
  }
  if (len == 0) {
    o[0] = '0';
    return 1;
  }
  memcpy(o, p, len);
  return len;
}

/* The text of MICROS by F into O (room for HL_SQLDT_MAX_OUTPUT); its length. */
size_t hl_sqldt_format(const hl_sqldt_t *f, int64_t micros, char *o) {
  int64_t days = floor_div(micros, US_PER_DAY), tod = micros - days * US_PER_DAY;
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  int64_t secs = tod / US_PER_SEC;
  int hour = (int)(secs / 3600), min = (int)(secs / 60 % 60), sec = (int)(secs % 60);
  int64_t nano = (tod % US_PER_SEC) * 1000;
  int dow = iso_dow(days), doy = day_of_year(y, m, d);
  int64_t wby = 0;
  int week = 0;
  if (f->need_iso) iso_week(days, &wby, &week);
  size_t n = 0;
  for (int k = 0; k < f->n; k++) {
    const tok_t *t = &f->tok[k];
    const char *s = f->text + t->off;
    switch (t->kind) {
    case K_SEP:
    case K_TEXT:
    case K_ISO:
      memcpy(o + n, s, t->slen);
      n += t->slen;
      break;
    case K_TZ: /* refused when compiled for formatting */
      break;
    case K_NUM: {
      if (t->field == F_AMPM) {
        bool up = s[0] == 'A' || s[0] == 'P';
        o[n++] = up ? (hour >= 12 ? 'P' : 'A') : (hour >= 12 ? 'p' : 'a');
        if (t->slen == 2) {
          o[n++] = up ? 'M' : 'm';
        } else {
          memcpy(o + n, up ? ".M." : ".m.", 3);
          n += 3;
        }
        break;
      }
      int64_t v = 0;
      switch ((field_t)t->field) {
      case F_YEAR:
        v = y;
        break;
      case F_MONTH:
        v = m;
        break;
      case F_DOW_SUN:
        v = dow % 7 + 1;
        break;
      case F_DOM:
        v = d;
        break;
      case F_DOY:
        v = doy;
        break;
      case F_HOUR12:
        v = hour % 12 == 0 ? 12 : hour % 12;
        break;
      case F_HOUR24:
        v = hour;
        break;
      case F_MIN:
        v = min;
        break;
      case F_SEC:
        v = sec;
        break;
      case F_SOD:
        v = secs;
        break;
      case F_NANO:
        v = nano;
        break;
      case F_AWOY:
        v = (doy - 1) / 7 + 1;
        break;
      case F_AWOM:
        v = (d - 1) / 7 + 1;
        break;
      case F_QUARTER:
        v = (m - 1) / 3 + 1;
        break;
      case F_WBY:
        v = wby;
        break;
      case F_WOWBY:
        v = week;
        break;
      case F_DOW:
        v = dow;
        break;
      default:
        break;
      }
      n += fmt_number(o + n, t, v);
      break;
    }
    case K_CHAR: {
      const char *name = t->field == F_MONTH ? month_names[m - 1] : day_names[dow - 1];
      size_t len = strlen(name);
      if (len > t->len) len = t->len;
      /* case: a second capital is all capitals, a small first all small */
      bool up = s[1] >= 'A' && s[1] <= 'Z', low = s[0] >= 'a' && s[0] <= 'z';
      for (size_t c = 0; c < len; c++)
        o[n + c] = up ? upper(name[c]) : low ? lower(name[c]) : name[c];
      n += len;
      if (!t->fill)
        for (; len < t->len; len++)
          o[n++] = ' ';
      break;
    }
    }
  }
  return n;
}

/* ----------------------------------------------------------------- parsing */

/* The Java LocalDateTime being built */
typedef struct ldt {
  int64_t y;
  unsigned m, d;
  int hour, min, sec;
  int64_t nano;
} ldt_t;

static void set_days(ldt_t *t, int64_t days) {
  hl_civil_from_days(days, &t->y, &t->m, &t->d);
}
static int64_t days_of(const ldt_t *t) {
  return hl_days_from_civil(t->y, t->m, t->d);
}

/* LocalDateTime.with(field, v); false where Java throws DateTimeException */
static bool ldt_with(ldt_t *t, field_t fld, int64_t v) {
  switch (fld) {
  case F_YEAR:
    t->y = v;
    if (t->m == 2 && t->d == 29 && !leap(v)) t->d = 28;
    return true;
  case F_MONTH: {
    if (v < 1 || v > 12) return false;
    t->m = (unsigned)v;
    unsigned dim = (unsigned)hl_days_in_month(t->y, t->m);
    if (t->d > dim) t->d = dim;
    return true;
  }
  case F_DOM:
    if (v < 1 || v > hl_days_in_month(t->y, t->m)) return false;
    t->d = (unsigned)v;
    return true;
  case F_DOY:
    if (v < 1 || v > (leap(t->y) ? 366 : 365)) return false;
    set_days(t, hl_days_from_civil(t->y, 1, 1) + v - 1);
    return true;
  case F_HOUR12:
    if (v < 0 || v > 11) return false;
    t->hour = t->hour / 12 * 12 + (int)v;
    return true;
  case F_AMPM:
    t->hour = t->hour % 12 + (int)v * 12;
    return true;
  case F_HOUR24:
    if (v < 0 || v > 23) return false;
    t->hour = (int)v;
    return true;
  case F_MIN:
    if (v < 0 || v > 59) return false;
    t->min = (int)v;
    return true;
  case F_SEC:
    if (v < 0 || v > 59) return false;
    t->sec = (int)v;
    return true;
  case F_SOD:
    if (v < 0 || v > 86399) return false;
    t->hour = (int)(v / 3600);
    t->min = (int)(v / 60 % 60);
    t->sec = (int)(v % 60);
    return true;
  case F_NANO:
    if (v < 0 || v > 999999999) return false;
    t->nano = v;
    return true;
  case F_WBY: { /* IsoFields.WEEK_BASED_YEAR.adjustInto */
    int64_t days = days_of(t), wby;
    int dow = iso_dow(days), week;
    iso_week(days, &wby, &week);
    if (week == 53 && week_range(v) == 52) week = 52;
    int64_t r = hl_days_from_civil(v, 1, 4);
    set_days(t, r + (dow - iso_dow(r)) + (int64_t)(week - 1) * 7);
    return true;
  }
  case F_WOWBY: {
    if (v < 1 || v > 53) return false;
    int64_t days = days_of(t), wby;
    int week;
    iso_week(days, &wby, &week);
    set_days(t, days + (v - week) * 7);
    return true;
  }
  case F_DOW: {
    if (v < 1 || v > 7) return false;
    int64_t days = days_of(t);
    set_days(t, days + v - iso_dow(days));
    return true;
  }
  default:
    return false;
  }
}

/* The digits at S[I..) for a token of length WANT, cut at the first
 * non-digit (getNextNumericSubstring); *LEN their count. */
static bool next_digits(const char *s, size_t n, size_t i, size_t want, size_t *len, int64_t *v) {
  if (i > n) return false;
  size_t e = i + want < n ? i + want : n, k = i;
  int64_t x = 0;
  while (k < e && is_digit(s[k]))
    x = x * 10 + (s[k++] - '0');
  *len = k - i;
  *v = x;
  return true;
}

static bool next_is_tzh(const hl_sqldt_t *f, int k) {
  return k + 1 < f->n && f->tok[k + 1].kind == K_TZ && f->tok[k + 1].field == F_TZH;
}

bool hl_sqldt_parse(const hl_sqldt_t *f, const char *s, size_t n, int64_t *micros) {
  ldt_t t = {1970, 1, 1, 0, 0, 0, 0};
  size_t i = 0;
  int64_t iyyy = 0, iw = 0;
  for (int k = 0; k < f->n; k++) {
    const tok_t *tk = &f->tok[k];
    const char *ts = f->text + tk->off;
    switch (tk->kind) {
    case K_NUM: {
      if (tk->field == F_AMPM) {
        if (i > n) return false;
        size_t l = n - i < tk->len ? n - i : tk->len;
        if (l < 2) return false;
        if (s[i + 1] == 'm' || s[i + 1] == 'M') l = 2;
        if (f->fx && !tk->fill && l != tk->slen) return false;
        if (!ldt_with(&t, F_AMPM, lower(s[i]) == 'a' ? 0 : 1)) return false;
        i += l;
        break;
      }
      size_t l;
      int64_t v;
      if (!next_digits(s, n, i, tk->len, &l, &v)) return false;
      if (f->fx && !tk->fill && tk->field != F_NANO && l != tk->len) return false;
      if (tk->field == F_YEAR || tk->field == F_WBY) {
        int64_t cur = tk->field == F_YEAR ? f->cur_year : f->cur_wby;
        if (ts[0] == 'r' && l == 2) {
          int64_t first = cur / 100, last2 = cur % 100;
          if (v < 50 && last2 >= 50)
            first++;
          else if (v >= 50 && last2 < 50)
            first--;
          v = first * 100 + v;
        } else {
          int64_t p = 1;
          for (size_t c = 0; c < l; c++)
            p *= 10;
          v = cur / p * p + v;
        }
      } else if (tk->field == F_NANO) {
        for (size_t c = l; c < 9; c++)
          v *= 10;
      } else if (l == 0) {
        return false; /* Integer.parseInt("") */
      } else if (tk->field == F_HOUR12 && l == 2 && v == 12) {
        v = 0;
      }
      if (!ldt_with(&t, (field_t)tk->field, v)) return false;
      if (tk->field == F_WBY) iyyy = v;
      if (tk->field == F_WOWBY) iw = v;
      i += l;
      break;
    }
    case K_CHAR: {
      if (i > n) return false;
      int v = 0;
      size_t l = 0;
      if (tk->len == 3) { /* MON, DY: the next three letters, abbreviated */
        l = n - i < 3 ? n - i : 3;
        int count = tk->field == F_MONTH ? 12 : 7;
        for (int c = 0; c < count && !v; c++)
          if (l == 3 && ieq(s + i, tk->field == F_MONTH ? month_names[c] : day_names[c], 3))
            v = c + 1;
      } else { /* MONTH, DAY: a whole name */
        int count = tk->field == F_MONTH ? 12 : 7;
        for (int c = 0; c < count && !v; c++) {
          const char *name = tk->field == F_MONTH ? month_names[c] : day_names[c];
          size_t nl = strlen(name);
          if (nl <= n - i && ieq(s + i, name, nl)) v = c + 1, l = nl;
        }
      }
      if (!v || !ldt_with(&t, (field_t)tk->field, v)) return false;
      i += l;
      break;
    }
    case K_TZ: {
      size_t l;
      int64_t v;
      if (tk->field == F_TZH) {
        if (i >= n) return false;
        if (s[i] == '-' || s[i] == '+') i++;
        if (!next_digits(s, n, i, 2, &l, &v) || l == 0 || v > 15) return false;
      } else {
        if (!next_digits(s, n, i, tk->len, &l, &v) || l == 0 || v > 59) return false;
      }
      i += l; /* read, as Hive, and not applied */
      break;
    }
    case K_SEP: {
      size_t begin = i, found = 0;
      char got[HL_SQLDT_MAX_PATTERN];
      bool same = true;
      while (i < n && is_sep(s[i])) {
        bool last = i + 1 == n || !is_sep(s[i + 1]);
        /* a last '-' before TZH is its sign, unless it is the only one */
        if (!last || !(s[i] == '-' && next_is_tzh(f, k)) || found == 0) {
          if (found < sizeof got) got[found] = s[i];
          found++;
        }
        i++;
      }
      if (found == 0) return false;
      if (f->fx) {
        same = found == tk->slen && memcmp(got, ts, found) == 0;
        if (!same) return false;
      }
      i = begin + found;
      break;
    }
    case K_ISO:
    case K_TEXT:
      if (i > n || n - i < tk->slen || !ieq(s + i, ts, tk->slen)) return false;
      i += tk->slen;
      break;
    }
  }
  if (i != n) return false;
  if (iyyy != 0) { /* the week must exist in that ISO year */
    ldt_t c = {1970, 1, 1, 0, 0, 0, 0};
    if (!ldt_with(&c, F_WBY, iyyy) || !ldt_with(&c, F_WOWBY, iw) || c.y != iyyy) return false;
  }
  if (t.y < 1 || t.y > 9999) return false;
  *micros = days_of(&t) * US_PER_DAY + ((int64_t)t.hour * 3600 + t.min * 60 + t.sec) * US_PER_SEC +
            t.nano / 1000;
  return true;
}

/* ---------------------------------------------------------------- the call */

static hl_status_t cast_format_impl(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                                    hl_arena_t *arena, hl_error_t *err) {
  (void)err;
  const hl_sqldt_t *f = call->state;
  if (a[0].is_null || !f) {
    out->is_null = true;
    return HL_OK;
  }
  const hl_type_t *in = call->args[0]->type;
  if (in->id == HL_T_DATE || in->id == HL_T_TIMESTAMP) {
    int64_t micros = in->id == HL_T_DATE ? a[0].u.i * US_PER_DAY : a[0].u.i;
    char buf[HL_SQLDT_MAX_OUTPUT];
    size_t len = hl_sqldt_format(f, micros, buf);
    char *p = hl_fn_alloc_str(out, arena, len);
    if (!p) return hl_err_nomem(err);
    if (len) memcpy(p, buf, len);
    return HL_OK;
  }
  int64_t micros;
  size_t len = a[0].u.s.len;
  if (in->id == HL_T_CHAR)
    while (len > 0 && a[0].u.s.ptr[len - 1] == ' ')
      len--;
  if (!hl_sqldt_parse(f, a[0].u.s.ptr, len, &micros)) {
    out->is_null = true;
    return HL_OK;
  }
  out->u.i = call->type->id == HL_T_DATE ? floor_div(micros, US_PER_DAY) : micros;
  return HL_OK;
}

HL_FN(hl_fn_cast_format) {
  return cast_format_impl(call, a, out, arena, err);
}

const hl_func_def_t hl_func_cast_format = {"cast_format", 2, 2, hl_fn_cast_format, NULL};
