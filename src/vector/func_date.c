/*
 * func_date.c -- date and time functions of the scalar library.
 *
 * Times have no zone: TIMESTAMP is a local date-time as in Hive 3, and
 * unix_timestamp/from_unixtime convert at UTC (hivelite has no session
 * time zone yet; documented in docs/sql.md).  Formats follow Java's
 * SimpleDateFormat letters that Hive users write: y M d H h m s S a E D
 * and quoted literals.  current_date and current_timestamp are folded to
 * constants by the binder when the statement is bound.
 */
#include "vector/func_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define US_PER_DAY 86400000000LL
#define US_PER_SEC 1000000LL

int64_t hl_fn_micros(const hl_type_t *type, const hl_value_t *v) {
  return type->id == HL_T_DATE ? v->u.i * US_PER_DAY : v->u.i;
}

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static int64_t micros_of(const hl_expr_t *call, const hl_value_t *a, int i) {
  return hl_fn_micros(call->args[i]->type, &a[i]);
}

static void civil(int64_t micros, int64_t *y, unsigned *m, unsigned *d) {
  hl_civil_from_days(floor_div(micros, US_PER_DAY), y, m, d);
}

static bool days_valid(int64_t days) {
  /* years 1..9999, as Hive */
  return days >= hl_days_from_civil(1, 1, 1) && days <= hl_days_from_civil(9999, 12, 31);
}

#define NULL_ARG(i)                                                                                \
  do {                                                                                             \
    if (a[i].is_null) {                                                                            \
      out->is_null = true;                                                                         \
      return HL_OK;                                                                                \
    }                                                                                              \
  } while (0)

HL_FN(hl_fn_current_date) {
  out->is_null = true; /* folded by the binder; never evaluated */
  return HL_OK;
}

HL_FN(hl_fn_current_timestamp) {
  out->is_null = true;
  return HL_OK;
}

HL_FN(hl_fn_to_date) {
  NULL_ARG(0);
  out->u.i = floor_div(micros_of(call, a, 0), US_PER_DAY);
  return HL_OK;
}

HL_FN(hl_fn_year) {
  NULL_ARG(0);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  out->u.i = y;
  return HL_OK;
}

HL_FN(hl_fn_quarter) {
  NULL_ARG(0);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  out->u.i = (m - 1) / 3 + 1;
  return HL_OK;
}

HL_FN(hl_fn_month) {
  NULL_ARG(0);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  out->u.i = m;
  return HL_OK;
}

HL_FN(hl_fn_day) {
  NULL_ARG(0);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  out->u.i = d;
  return HL_OK;
}

static int64_t time_of_day(int64_t micros) {
  return micros - floor_div(micros, US_PER_DAY) * US_PER_DAY;
}

HL_FN(hl_fn_hour) {
  NULL_ARG(0);
  out->u.i = time_of_day(micros_of(call, a, 0)) / (3600 * US_PER_SEC);
  return HL_OK;
}

HL_FN(hl_fn_minute) {
  NULL_ARG(0);
  out->u.i = time_of_day(micros_of(call, a, 0)) / (60 * US_PER_SEC) % 60;
  return HL_OK;
}

HL_FN(hl_fn_second) {
  NULL_ARG(0);
  out->u.i = time_of_day(micros_of(call, a, 0)) / US_PER_SEC % 60;
  return HL_OK;
}

/* 1 = Sunday ... 7 = Saturday, as Hive */
static int weekday(int64_t days) {
  return (int)((days % 7 + 7 + 4) % 7) + 1; /* 1970-01-01 was a Thursday */
}

HL_FN(hl_fn_dayofweek) {
  NULL_ARG(0);
  out->u.i = weekday(floor_div(micros_of(call, a, 0), US_PER_DAY));
  return HL_OK;
}

/* ISO-8601 week number (Hive's weekofyear). */
HL_FN(hl_fn_weekofyear) {
  NULL_ARG(0);
  int64_t days = floor_div(micros_of(call, a, 0), US_PER_DAY);
  int iso_dow = (weekday(days) + 5) % 7 + 1; /* Monday 1 .. Sunday 7 */
  int64_t thursday = days - iso_dow + 4;
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(thursday, &y, &m, &d);
  out->u.i = (thursday - hl_days_from_civil(y, 1, 1)) / 7 + 1;
  return HL_OK;
}

HL_FN(hl_fn_date_add) {
  NULL_ARG(0);
  NULL_ARG(1);
  int64_t days = floor_div(micros_of(call, a, 0), US_PER_DAY) + a[1].u.i;
  if (!days_valid(days))
    out->is_null = true;
  else
    out->u.i = days;
  return HL_OK;
}

HL_FN(hl_fn_date_sub) {
  NULL_ARG(0);
  NULL_ARG(1);
  int64_t days = floor_div(micros_of(call, a, 0), US_PER_DAY) - a[1].u.i;
  if (!days_valid(days))
    out->is_null = true;
  else
    out->u.i = days;
  return HL_OK;
}

static void format_micros(hl_buf_t *b, int64_t micros, const char *f, size_t fl);

/* Hive: the day is kept, clamped to the month's end; a start on the last
 * day of its month ends on the last day of the target month. */
HL_FN(hl_fn_add_months) {
  NULL_ARG(0);
  NULL_ARG(1);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  bool last = (int)d == hl_days_in_month(y, m);
  int64_t total = y * 12 + (m - 1) + a[1].u.i;
  int64_t ny = floor_div(total, 12);
  unsigned nm = (unsigned)(total - ny * 12) + 1;
  if (ny < 1 || ny > 9999) {
    out->is_null = true;
    return HL_OK;
  }
  unsigned nd = last || (int)d > hl_days_in_month(ny, nm) ? (unsigned)hl_days_in_month(ny, nm) : d;
  int64_t days = hl_days_from_civil(ny, nm, nd);
  if (call->n_args < 3) {
    out->u.i = days;
    return HL_OK;
  }
  /* add_months(t, n, fmt) (Hive 3+): a STRING in fmt, the time of day kept */
  NULL_ARG(2);
  hl_buf_t b;
  hl_buf_init(&b);
  format_micros(&b, days * US_PER_DAY + time_of_day(micros_of(call, a, 0)), a[2].u.s.ptr,
                a[2].u.s.len);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

HL_FN(hl_fn_datediff) {
  NULL_ARG(0);
  NULL_ARG(1);
  out->u.i =
      floor_div(micros_of(call, a, 0), US_PER_DAY) - floor_div(micros_of(call, a, 1), US_PER_DAY);
  return HL_OK;
}

/* ------------------------------------------------------------ formats */

static const char *const month_names[] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const day_names[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};

static void format_micros(hl_buf_t *b, int64_t micros, const char *f, size_t fl) {
  int64_t days = floor_div(micros, US_PER_DAY), tod = micros - days * US_PER_DAY;
  int64_t y;
  unsigned mo, d;
  hl_civil_from_days(days, &y, &mo, &d);
  int hh = (int)(tod / (3600 * US_PER_SEC)), mi = (int)(tod / (60 * US_PER_SEC) % 60),
      ss = (int)(tod / US_PER_SEC % 60), ms = (int)(tod / 1000 % 1000);
  for (size_t i = 0; i < fl;) {
    char c = f[i];
    if (c == '\'') {
      size_t j = i + 1;
      if (j < fl && f[j] == '\'') {
        hl_buf_putc(b, '\'');
        i += 2;
        continue;
      }
      while (j < fl && f[j] != '\'')
        hl_buf_putc(b, f[j++]);
      i = j + 1;
      continue;
    }
    size_t n = 1;
    while (i + n < fl && f[i + n] == c)
      n++;
    int w = (int)n;
    switch (c) {
    case 'y':
      if (w == 2)
        hl_buf_printf(b, "%02lld", (long long)(y % 100));
      else
        hl_buf_printf(b, "%0*lld", w, (long long)y);
      break;
    case 'M':
      if (w >= 4)
        hl_buf_puts(b, month_names[mo - 1]);
      else if (w == 3)
        hl_buf_printf(b, "%.3s", month_names[mo - 1]);
      else
        hl_buf_printf(b, "%0*u", w, mo);
      break;
    case 'd':
      hl_buf_printf(b, "%0*u", w, d);
      break;
    case 'D':
      hl_buf_printf(b, "%0*lld", w, (long long)(days - hl_days_from_civil(y, 1, 1) + 1));
      break;
    case 'H':
      hl_buf_printf(b, "%0*d", w, hh);
      break;
    case 'h':
      hl_buf_printf(b, "%0*d", w, hh % 12 == 0 ? 12 : hh % 12);
      break;
    case 'm':
      hl_buf_printf(b, "%0*d", w, mi);
      break;
    case 's':
      hl_buf_printf(b, "%0*d", w, ss);
      break;
    case 'S':
      hl_buf_printf(b, "%0*d", w, ms);
      break;
    case 'a':
      hl_buf_puts(b, hh < 12 ? "AM" : "PM");
      break;
    case 'E':
      if (w >= 4)
        hl_buf_puts(b, day_names[weekday(days) - 1]);
      else
        hl_buf_printf(b, "%.3s", day_names[weekday(days) - 1]);
      break;
    default:
      hl_buf_append(b, f + i, n);
      break;
    }
    i += n;
  }
}

/* Parses TEXT with format F into micros; -1 when it does not match. */
static int parse_micros(const char *t, size_t tl, const char *f, size_t fl, int64_t *out) {
  long y = 1970, mo = 1, d = 1, hh = 0, mi = 0, ss = 0, ms = 0;
  bool pm = false, has_ampm = false;
  size_t ti = 0;
  for (size_t i = 0; i < fl;) {
    char c = f[i];
    if (c == '\'') {
      size_t j = i + 1;
      while (j < fl && f[j] != '\'') {
        if (ti >= tl || t[ti] != f[j]) return -1;
        ti++;
        j++;
      }
      i = j + 1;
      continue;
    }
    size_t n = 1;
    while (i + n < fl && f[i + n] == c)
      n++;
    if (strchr("yMdHhmsS", c)) {
      long v = 0;
      size_t start = ti, max = (c == 'y' && n != 2) ? 4 : (n > 2 ? n : 2);
      if (c == 'S') max = 9;
      while (ti < tl && ti - start < max && t[ti] >= '0' && t[ti] <= '9') {
        if (v > 100000000000000L) return -1; /* a long pattern's field: no date has it */
        v = v * 10 + (t[ti++] - '0');
      }
      if (ti == start) return -1;
      switch (c) {
      case 'y':
        y = n == 2 ? 2000 + v : v;
        break;
      case 'M':
        mo = v;
        break;
      case 'd':
        d = v;
        break;
      case 'H':
      case 'h':
        hh = v;
        break;
      case 'm':
        mi = v;
        break;
      case 's':
        ss = v;
        break;
      case 'S': {
        size_t digits = ti - start;
        ms = v;
        while (digits < 3) {
          ms *= 10;
          digits++;
        }
        while (digits > 3) {
          ms /= 10;
          digits--;
        }
        break;
      }
      }
    } else if (c == 'a') {
      if (ti + 2 > tl) return -1;
      has_ampm = true;
      pm = t[ti] == 'P' || t[ti] == 'p';
      ti += 2;
    } else {
      for (size_t k = 0; k < n; k++) {
        if (ti >= tl || t[ti] != c) return -1;
        ti++;
      }
    }
    i += n;
  }
  if (ti != tl) return -1;
  if (has_ampm && pm && hh < 12) hh += 12;
  if (has_ampm && !pm && hh == 12) hh = 0;
  if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > hl_days_in_month(y, (unsigned)mo) ||
      hh > 23 || mi > 59 || ss > 59)
    return -1;
  *out = (hl_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + hh * 3600 + mi * 60 + ss) *
             US_PER_SEC +
         ms * 1000;
  return 0;
}

HL_FN(hl_fn_date_format) {
  NULL_ARG(0);
  NULL_ARG(1);
  hl_buf_t b;
  hl_buf_init(&b);
  format_micros(&b, micros_of(call, a, 0), a[1].u.s.ptr, a[1].u.s.len);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

/* unix_timestamp(string[, fmt]) or unix_timestamp(date/timestamp) */
HL_FN(hl_fn_unix_timestamp) {
  NULL_ARG(0);
  const hl_type_t *t = call->args[0]->type;
  int64_t micros;
  if (hl_type_is_string(t)) {
    const char *f = "yyyy-MM-dd HH:mm:ss";
    size_t fl = strlen(f);
    if (call->n_args > 1) {
      NULL_ARG(1);
      f = a[1].u.s.ptr;
      fl = a[1].u.s.len;
    }
    if (parse_micros(a[0].u.s.ptr, a[0].u.s.len, f, fl, &micros) < 0) {
      out->is_null = true;
      return HL_OK;
    }
  } else {
    micros = micros_of(call, a, 0);
  }
  out->u.i = floor_div(micros, US_PER_SEC);
  return HL_OK;
}

HL_FN(hl_fn_from_unixtime) {
  NULL_ARG(0);
  const char *f = "yyyy-MM-dd HH:mm:ss";
  size_t fl = strlen(f);
  if (call->n_args > 1) {
    NULL_ARG(1);
    f = a[1].u.s.ptr;
    fl = a[1].u.s.len;
  }
  int64_t secs = a[0].u.i;
  if (secs > 253402300799LL || secs < -62135596800LL) {
    out->is_null = true;
    return HL_OK;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  format_micros(&b, secs * US_PER_SEC, f, fl);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

static hl_status_t date_string(hl_value_t *out, hl_arena_t *arena, hl_error_t *err, int64_t days) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_format_date(&b, days);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

/* trunc(date, 'YEAR'|'YYYY'|'YY'|'QUARTER'|'Q'|'MONTH'|'MON'|'MM') */
HL_FN(hl_fn_trunc) {
  NULL_ARG(0);
  NULL_ARG(1);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  char unit[16] = {0};
  size_t n = a[1].u.s.len < sizeof unit - 1 ? a[1].u.s.len : sizeof unit - 1;
  for (size_t i = 0; i < n; i++)
    unit[i] = (char)(a[1].u.s.ptr[i] & ~0x20);
  if (!strcmp(unit, "YEAR") || !strcmp(unit, "YYYY") || !strcmp(unit, "YY"))
    m = 1;
  else if (!strcmp(unit, "QUARTER") || !strcmp(unit, "Q"))
    m = (m - 1) / 3 * 3 + 1;
  else if (strcmp(unit, "MONTH") && strcmp(unit, "MON") && strcmp(unit, "MM")) {
    out->is_null = true; /* Hive: an unknown unit is NULL */
    return HL_OK;
  }
  return date_string(out, arena, err, hl_days_from_civil(y, m, 1));
}

HL_FN(hl_fn_last_day) {
  NULL_ARG(0);
  int64_t y;
  unsigned m, d;
  civil(micros_of(call, a, 0), &y, &m, &d);
  return date_string(out, arena, err, hl_days_from_civil(y, m, (unsigned)hl_days_in_month(y, m)));
}

/* months_between(d1, d2[, round]): whole months when both days of month are
 * equal or both are their month's last day; otherwise the month
 * difference plus the difference of day and time of day over 31-day
 * months, rounded HALF_UP to 8 decimals unless round is false. */
HL_FN(hl_fn_months_between) {
  NULL_ARG(0);
  NULL_ARG(1);
  int64_t t1 = micros_of(call, a, 0), t2 = micros_of(call, a, 1);
  int64_t y1, y2;
  unsigned m1, m2, d1, d2;
  civil(t1, &y1, &m1, &d1);
  civil(t2, &y2, &m2, &d2);
  double months = (double)((y1 - y2) * 12 + ((int64_t)m1 - (int64_t)m2));
  bool last1 = (int)d1 == hl_days_in_month(y1, m1), last2 = (int)d2 == hl_days_in_month(y2, m2);
  if (d1 != d2 && !(last1 && last2)) {
    int64_t s1 = floor_div(time_of_day(t1), US_PER_SEC),
            s2 = floor_div(time_of_day(t2), US_PER_SEC);
    double secs = (double)(((int64_t)d1 - (int64_t)d2) * 86400 + s1 - s2);
    months += secs / (31.0 * 86400);
  }
  bool round_off = call->n_args < 3 || a[2].is_null || a[2].u.b;
  if (round_off) {
    /* HALF_UP to 8 decimals (Hive: BigDecimal.setScale) */
    double r = months * 1e8;
    r = r < 0 ? -floor(-r + 0.5) : floor(r + 0.5);
    months = r / 1e8;
  }
  out->u.d = months;
  return HL_OK;
}

/* next_day(date, dow): the first date after DATE that falls on DOW (two
 * or three letters or the full English name, any case); NULL otherwise. */
HL_FN(hl_fn_next_day) {
  NULL_ARG(0);
  NULL_ARG(1);
  static const char *const names[] = {"SU", "MO", "TU", "WE", "TH", "FR", "SA"};
  char w[16] = {0};
  size_t n = a[1].u.s.len;
  if (n < 2 || n >= sizeof w) {
    out->is_null = true;
    return HL_OK;
  }
  for (size_t i = 0; i < n; i++)
    w[i] = (char)toupper((unsigned char)a[1].u.s.ptr[i]);
  int dow = -1;
  for (int k = 0; k < 7; k++) {
    if (memcmp(w, names[k], 2) != 0) continue;
    char full[16];
    snprintf(full, sizeof full, "%s", day_names[k]);
    for (char *c = full; *c; c++)
      *c = (char)toupper((unsigned char)*c);
    if (n == 2 || (n == 3 && memcmp(w, full, 3) == 0) || strcmp(w, full) == 0) dow = k + 1;
  }
  if (dow < 0) {
    out->is_null = true;
    return HL_OK;
  }
  int64_t days = floor_div(micros_of(call, a, 0), US_PER_DAY);
  int delta = (dow - weekday(days) + 7) % 7;
  days += delta ? delta : 7;
  if (!days_valid(days)) {
    out->is_null = true;
    return HL_OK;
  }
  return date_string(out, arena, err, days);
}

/* to_epoch_milli(timestamp): milliseconds since 1970-01-01 00:00:00 UTC. */
HL_FN(hl_fn_to_epoch_milli) {
  NULL_ARG(0);
  out->u.i = floor_div(micros_of(call, a, 0), 1000);
  return HL_OK;
}

/* floor_year ... floor_second(t): t truncated to the start of its unit
 * (floor_week: the Monday of its ISO week), a TIMESTAMP. */
static hl_status_t date_floor(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                              char unit) {
  NULL_ARG(0);
  int64_t t = micros_of(call, a, 0), days = floor_div(t, US_PER_DAY), y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  switch (unit) {
  case 'y':
    t = hl_days_from_civil(y, 1, 1) * US_PER_DAY;
    break;
  case 'q':
    t = hl_days_from_civil(y, (m - 1) / 3 * 3 + 1, 1) * US_PER_DAY;
    break;
  case 'M':
    t = hl_days_from_civil(y, m, 1) * US_PER_DAY;
    break;
  case 'w':
    t = (days - (weekday(days) + 5) % 7) * US_PER_DAY;
    break;
  case 'd':
    t = days * US_PER_DAY;
    break;
  case 'h':
    t = floor_div(t, 3600 * US_PER_SEC) * 3600 * US_PER_SEC;
    break;
  case 'm':
    t = floor_div(t, 60 * US_PER_SEC) * 60 * US_PER_SEC;
    break;
  default:
    t = floor_div(t, US_PER_SEC) * US_PER_SEC;
  }
  out->u.i = t;
  return HL_OK;
}

HL_FN(hl_fn_floor_year) {
  return date_floor(call, a, out, 'y');
}

HL_FN(hl_fn_floor_quarter) {
  return date_floor(call, a, out, 'q');
}

HL_FN(hl_fn_floor_month) {
  return date_floor(call, a, out, 'M');
}

HL_FN(hl_fn_floor_week) {
  return date_floor(call, a, out, 'w');
}

HL_FN(hl_fn_floor_day) {
  return date_floor(call, a, out, 'd');
}

HL_FN(hl_fn_floor_hour) {
  return date_floor(call, a, out, 'h');
}

HL_FN(hl_fn_floor_minute) {
  return date_floor(call, a, out, 'm');
}

HL_FN(hl_fn_floor_second) {
  return date_floor(call, a, out, 's');
}
