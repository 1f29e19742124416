/*
 * func_printf_time.c -- printf's date-time conversions %tX / %TX, as Java's
 * Formatter prints them (func_format.c parses the specifier and calls in).
 *
 * Hive hands printf its arguments as Java objects, and Formatter's %t
 * takes only a Long among them (Hive's own Timestamp and Date objects are
 * none of Date, Calendar or TemporalAccessor, so Java throws for them):
 * the argument is a BIGINT of milliseconds since 1970-01-01 00:00:00 UTC.
 * Java renders it in the JVM's default zone; hivelite, which keeps no
 * session zone (from_unixtime converts at UTC too), renders it at UTC, in
 * the proleptic Gregorian calendar (Java's Calendar is Julian before
 * 1582-10-15).  Names are Locale.US's, as Hive passes that locale.
 */
#include "vector/func_int.h"

#include <stdio.h>
#include <string.h>

static const char *const months[] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};
static const char *const weekdays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                       "Thursday", "Friday", "Saturday"};

/* The fields of MILLIS at UTC. */
typedef struct when {
  int64_t year, millis, day_of_week, day_of_year;
  unsigned month, day, hour, minute, second, milli;
} when_t;

static void fields(int64_t millis, when_t *w) {
  int64_t days = millis / 86400000, rest = millis % 86400000;
  if (rest < 0) {
    rest += 86400000;
    days--;
  }
  w->millis = millis;
  hl_civil_from_days(days, &w->year, &w->month, &w->day);
  w->day_of_week = ((days % 7) + 11) % 7; /* 1970-01-01 was a Thursday (4) */
  w->day_of_year = days - hl_days_from_civil(w->year, 1, 1) + 1;
  w->hour = (unsigned)(rest / 3600000);
  w->minute = (unsigned)(rest / 60000 % 60);
  w->second = (unsigned)(rest / 1000 % 60);
  w->milli = (unsigned)(rest % 1000);
}

static bool one(char c, const when_t *w, hl_buf_t *out);

/* A composite conversion: the conversions of SEQ, separated as it says
 * ("H:M" is %tH:%tM); an upper-case letter is that conversion upper-cased
 * (Java's %Tp in %tr). */
static bool seq(const char *s, const when_t *w, hl_buf_t *out) {
  for (; *s; s++) {
    if (*s == '^') {
      size_t from = out->len;
      one(*++s, w, out);
      for (size_t k = from; k < out->len; k++)
        if (out->data[k] >= 'a' && out->data[k] <= 'z') out->data[k] = (char)(out->data[k] - 32);
    } else if (strchr(":/- ", *s)) {
      hl_buf_putc(out, *s);
    } else {
      one(*s, w, out);
    }
  }
  return true;
}

static bool one(char c, const when_t *w, hl_buf_t *out) {
  unsigned h12 = w->hour % 12 ? w->hour % 12 : 12;
  switch (c) {
  case 'H':
    hl_buf_printf(out, "%02u", w->hour);
    return true;
  case 'I':
    hl_buf_printf(out, "%02u", h12);
    return true;
  case 'k':
    hl_buf_printf(out, "%u", w->hour);
    return true;
  case 'l':
    hl_buf_printf(out, "%u", h12);
    return true;
  case 'M':
    hl_buf_printf(out, "%02u", w->minute);
    return true;
  case 'S':
    hl_buf_printf(out, "%02u", w->second);
    return true;
  case 'L':
    hl_buf_printf(out, "%03u", w->milli);
    return true;
  case 'N':
    hl_buf_printf(out, "%09lu", (unsigned long)w->milli * 1000000UL);
    return true;
  case 'p':
    hl_buf_puts(out, w->hour < 12 ? "am" : "pm");
    return true;
  case 'z':
    hl_buf_puts(out, "+0000");
    return true;
  case 'Z':
    hl_buf_puts(out, "UTC");
    return true;
  case 's':
    hl_buf_printf(out, "%lld", (long long)(w->millis / 1000));
    return true;
  case 'Q':
    hl_buf_printf(out, "%lld", (long long)w->millis);
    return true;
  case 'B':
    hl_buf_puts(out, months[w->month - 1]);
    return true;
  case 'b':
  case 'h':
    hl_buf_append(out, months[w->month - 1], 3);
    return true;
  case 'A':
    hl_buf_puts(out, weekdays[w->day_of_week]);
    return true;
  case 'a':
    hl_buf_append(out, weekdays[w->day_of_week], 3);
    return true;
  case 'C':
    hl_buf_printf(out, "%02lld", (long long)(w->year / 100));
    return true;
  case 'Y':
    hl_buf_printf(out, "%04lld", (long long)w->year);
    return true;
  case 'y':
    hl_buf_printf(out, "%02lld", (long long)(w->year % 100));
    return true;
  case 'j':
    hl_buf_printf(out, "%03lld", (long long)w->day_of_year);
    return true;
  case 'm':
    hl_buf_printf(out, "%02u", w->month);
    return true;
  case 'd':
    hl_buf_printf(out, "%02u", w->day);
    return true;
  case 'e':
    hl_buf_printf(out, "%u", w->day);
    return true;
  case 'R':
    return seq("H:M", w, out);
  case 'T':
    return seq("H:M:S", w, out);
  case 'r':
    return seq("I:M:S ^p", w, out);
  case 'D':
    return seq("m/d/y", w, out);
  case 'F':
    return seq("Y-m-d", w, out);
  case 'c':
    return seq("a b d T Z Y", w, out);
  default:
    return false;
  }
}

bool hl_printf_datetime(char conv, int64_t millis, hl_buf_t *out) {
  when_t w;
  fields(millis, &w);
  return one(conv, &w, out);
}
