/*
 * interval.c -- text forms and units of Hive's interval values (see
 * interval.h).  Overflow is checked before every multiplication and
 * addition, so no input can reach signed overflow.
 */
#include "util/interval.h"

#include <string.h>
#include <strings.h>

#define US_PER_SEC 1000000LL

static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/* Digits at s[*i..] as a value capped at LIMIT (beyond it: *over). */
static bool read_uint(const char *s, size_t len, size_t *i, uint64_t limit, uint64_t *v,
                      bool *over) {
  size_t start = *i;
  uint64_t x = 0;
  while (*i < len && is_digit(s[*i])) {
    if (x <= limit) x = x * 10 + (uint64_t)(s[*i] - '0');
    (*i)++;
  }
  if (*i == start) return false;
  if (x > limit) *over = true;
  *v = x;
  return true;
}

/* Hive's pattern starts with ([+|-])?: '|' is a member of the class, and
 * only '-' makes the value negative. */
static int read_sign(const char *s, size_t len, size_t *i) {
  if (*i < len && (s[*i] == '+' || s[*i] == '|' || s[*i] == '-')) return s[(*i)++] == '-' ? -1 : 1;
  return 1;
}

int hl_interval_ym_parse(const char *s, size_t len, int64_t *months) {
  size_t i = 0;
  bool over = false;
  uint64_t y, m;
  int sign = read_sign(s, len, &i);
  if (!read_uint(s, len, &i, INT32_MAX, &y, &over)) return HL_IV_BAD;
  if (i >= len || s[i++] != '-') return HL_IV_BAD;
  if (!read_uint(s, len, &i, INT32_MAX, &m, &over) || i != len) return HL_IV_BAD;
  if (over || m > 11) return HL_IV_RANGE;
  /* years up to INT32_MAX: the total fits int64; Hive's int wraps, we refuse */
  int64_t total = sign * (int64_t)(y * 12 + m);
  if (total > HL_INTERVAL_YM_MAX || total < HL_INTERVAL_YM_MIN) return HL_IV_RANGE;
  *months = total;
  return HL_IV_OK;
}

/* [.digits] after the seconds: microseconds, the digits past 6 dropped. */
static bool read_fraction(const char *s, size_t len, size_t *i, int64_t *us) {
  *us = 0;
  if (*i >= len || s[*i] != '.') return true;
  (*i)++;
  size_t start = *i;
  int n = 0;
  while (*i < len && is_digit(s[*i])) {
    if (n < 6) {
      *us = *us * 10 + (s[*i] - '0');
      n++;
    }
    (*i)++;
  }
  for (; n < 6; n++)
    *us *= 10;
  return *i > start;
}

/* sign * (seconds * 10^6 + us) into *out, or HL_IV_RANGE. */
static int micros_of(int sign, uint64_t seconds, int64_t us, int64_t *out) {
  if (seconds > (uint64_t)(INT64_MAX - us) / US_PER_SEC) return HL_IV_RANGE;
  *out = sign * ((int64_t)seconds * US_PER_SEC + us);
  return HL_IV_OK;
}

int hl_interval_dt_parse(const char *s, size_t len, int64_t *micros) {
  size_t i = 0;
  bool over = false;
  uint64_t d, h, m, sec;
  int64_t us;
  int sign = read_sign(s, len, &i);
  if (!read_uint(s, len, &i, INT32_MAX, &d, &over) || i >= len || s[i++] != ' ') return HL_IV_BAD;
  if (!read_uint(s, len, &i, INT32_MAX, &h, &over) || i >= len || s[i++] != ':') return HL_IV_BAD;
  if (!read_uint(s, len, &i, INT32_MAX, &m, &over) || i >= len || s[i++] != ':') return HL_IV_BAD;
  if (!read_uint(s, len, &i, INT32_MAX, &sec, &over)) return HL_IV_BAD;
  if (!read_fraction(s, len, &i, &us) || i != len) return HL_IV_BAD;
  if (over || h > 23 || m > 59) return HL_IV_RANGE;
  return micros_of(sign, d * 86400 + h * 3600 + m * 60 + sec, us, micros);
}

/* Java's Integer.parseInt: [+-]digits within int. */
static int parse_java_int(const char *s, size_t len, int64_t *v) {
  size_t i = 0;
  bool over = false;
  uint64_t x;
  int sign = 1;
  if (i < len && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
  if (!read_uint(s, len, &i, (uint64_t)INT32_MAX + 1, &x, &over) || i != len) return HL_IV_BAD;
  if (over || (sign > 0 && x > INT32_MAX)) return HL_IV_RANGE;
  *v = sign * (int64_t)x;
  return HL_IV_OK;
}

int hl_interval_parse_unit(hl_interval_unit_t unit, const char *s, size_t len, int64_t *out) {
  static const int64_t scale[] = {
      [HL_IU_YEAR] = 12,
      [HL_IU_MONTH] = 1,
      [HL_IU_DAY] = 86400 * US_PER_SEC,
      [HL_IU_HOUR] = 3600 * US_PER_SEC,
      [HL_IU_MINUTE] = 60 * US_PER_SEC,
  };
  switch (unit) {
  case HL_IU_YEAR_TO_MONTH:
    return hl_interval_ym_parse(s, len, out);
  case HL_IU_DAY_TO_SECOND:
    return hl_interval_dt_parse(s, len, out);
  case HL_IU_SECOND: { /* BigDecimal ("5", "5.", ".5"): the seconds must fit an int */
    size_t i = 0;
    bool over = false;
    uint64_t sec = 0;
    int64_t us = 0;
    int sign = 1;
    if (i < len && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
    size_t digits_at = i;
    bool whole = read_uint(s, len, &i, INT32_MAX, &sec, &over);
    if (i < len && s[i] == '.') {
      if (!read_fraction(s, len, &i, &us) && !whole) return HL_IV_BAD;
    }
    if (i != len || i == digits_at) return HL_IV_BAD;
    if (over) return HL_IV_RANGE;
    return micros_of(sign, sec, us, out);
  }
  case HL_IU_YEAR:
  case HL_IU_MONTH:
  case HL_IU_DAY:
  case HL_IU_HOUR:
  case HL_IU_MINUTE: {
    int64_t v;
    int rc = parse_java_int(s, len, &v);
    if (rc != HL_IV_OK) return rc;
    /* |v| <= 2^31: YEAR * 12 fits int64; DAY * 86400e6 may not */
    int64_t k = scale[unit];
    if (v > INT64_MAX / k || v < INT64_MIN / k) return HL_IV_RANGE;
    v *= k;
    if (unit == HL_IU_YEAR && (v > HL_INTERVAL_YM_MAX || v < HL_INTERVAL_YM_MIN))
      return HL_IV_RANGE;
    *out = v;
    return HL_IV_OK;
  }
  }
  return HL_IV_BAD;
}

bool hl_interval_unit_is_ym(hl_interval_unit_t unit) {
  return unit == HL_IU_YEAR_TO_MONTH || unit == HL_IU_YEAR || unit == HL_IU_MONTH;
}

static const char *const unit_names[] = {
    [HL_IU_YEAR_TO_MONTH] = "YEAR TO MONTH",
    [HL_IU_YEAR] = "YEAR",
    [HL_IU_MONTH] = "MONTH",
    [HL_IU_DAY_TO_SECOND] = "DAY TO SECOND",
    [HL_IU_DAY] = "DAY",
    [HL_IU_HOUR] = "HOUR",
    [HL_IU_MINUTE] = "MINUTE",
    [HL_IU_SECOND] = "SECOND",
};

const char *hl_interval_unit_name(hl_interval_unit_t unit) {
  return (unsigned)unit < sizeof unit_names / sizeof unit_names[0] ? unit_names[unit] : "?";
}

bool hl_interval_unit_lookup(const char *w, size_t len, hl_interval_unit_t *unit) {
  /* collapse the blanks between words to one space */
  char norm[32];
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    bool blank = w[i] == ' ' || w[i] == '\t' || w[i] == '\n' || w[i] == '\r';
    if (blank && (n == 0 || norm[n - 1] == ' ')) continue;
    if (n + 1 >= sizeof norm) return false;
    norm[n++] = blank ? ' ' : w[i];
  }
  while (n && norm[n - 1] == ' ')
    n--;
  for (size_t u = 0; u < sizeof unit_names / sizeof unit_names[0]; u++) {
    size_t k = strlen(unit_names[u]);
    bool single = u != HL_IU_YEAR_TO_MONTH && u != HL_IU_DAY_TO_SECOND;
    if ((n == k || (single && n == k + 1 && (norm[k] == 's' || norm[k] == 'S'))) &&
        strncasecmp(norm, unit_names[u], k) == 0) {
      *unit = (hl_interval_unit_t)u;
      return true;
    }
  }
  return false;
}

void hl_interval_ym_format(hl_buf_t *buf, int64_t months) {
  uint64_t a = months < 0 ? 0 - (uint64_t)months : (uint64_t)months;
  hl_buf_printf(buf, "%s%llu-%llu", months < 0 ? "-" : "", (unsigned long long)(a / 12),
                (unsigned long long)(a % 12));
}

void hl_interval_dt_format(hl_buf_t *buf, int64_t micros) {
  uint64_t a = micros < 0 ? 0 - (uint64_t)micros : (uint64_t)micros;
  uint64_t secs = a / US_PER_SEC;
  hl_buf_printf(buf, "%s%llu %02u:%02u:%02u.%06u000", micros < 0 ? "-" : "",
                (unsigned long long)(secs / 86400), (unsigned)(secs / 3600 % 24),
                (unsigned)(secs / 60 % 60), (unsigned)(secs % 60), (unsigned)(a % US_PER_SEC));
}
