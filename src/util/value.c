/*
 * value.c -- text conversions of typed values: Hive's casts from and to
 * STRING, calendar arithmetic, decimal and double formatting (see value.h).
 *
 * Written by hand because the rules are Hive's own (Java-style double
 * printing, lenient dates, decimal rounding) and no C library has them.
 */
#include "util/value.h"

#include "util/interval.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ calendar */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil algorithm, restated). */
int64_t hl_days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

void hl_civil_from_days(int64_t z, int64_t *year, unsigned *month, unsigned *day) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = (int64_t)yoe + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  unsigned d = doy - (153 * mp + 2) / 5 + 1;
  unsigned m = mp < 10 ? mp + 3 : mp - 9;
  *year = y + (m <= 2);
  *month = m;
  *day = d;
}

int hl_days_in_month(int64_t y, unsigned m) {
  static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 29;
  return dim[m - 1];
}

/* Reads 1..MAX digits at *i; returns -1 when there are none. */
static long read_digits(const char *s, size_t len, size_t *i, int max) {
  long v = 0;
  int n = 0;
  while (*i < len && n < max && isdigit((unsigned char)s[*i])) {
    v = v * 10 + (s[*i] - '0');
    (*i)++;
    n++;
  }
  return n ? v : -1;
}

static void trim(const char **s, size_t *len) {
  while (*len && isspace((unsigned char)**s)) {
    (*s)++;
    (*len)--;
  }
  while (*len && isspace((unsigned char)(*s)[*len - 1]))
    (*len)--;
}

/* Parses the date part at s[*i..]; leaves *i after it. */
static int parse_date_part(const char *s, size_t len, size_t *i, int64_t *days) {
  long y = read_digits(s, len, i, 4);
  if (y < 0 || *i >= len || s[*i] != '-') return -1;
  (*i)++;
  long m = read_digits(s, len, i, 2);
  if (m < 1 || m > 12 || *i >= len || s[*i] != '-') return -1;
  (*i)++;
  long d = read_digits(s, len, i, 2);
  if (d < 1 || d > hl_days_in_month(y, (unsigned)m)) return -1;
  if (y < 1) return -1;
  *days = hl_days_from_civil(y, (unsigned)m, (unsigned)d);
  return 0;
}

int hl_parse_date(const char *s, size_t len, int64_t *days) {
  trim(&s, &len);
  size_t i = 0;
  if (parse_date_part(s, len, &i, days) < 0) return -1;
  return i == len ? 0 : -1;
}

int hl_parse_timestamp(const char *s, size_t len, int64_t *micros) {
  trim(&s, &len);
  size_t i = 0;
  int64_t days;
  if (parse_date_part(s, len, &i, &days) < 0) return -1;
  int64_t secs = 0, frac = 0;
  if (i < len) {
    if (s[i] != ' ' && s[i] != 'T') return -1;
    i++;
    long hh = read_digits(s, len, &i, 2);
    if (hh < 0 || hh > 23 || i >= len || s[i] != ':') return -1;
    i++;
    long mi = read_digits(s, len, &i, 2);
    if (mi < 0 || mi > 59) return -1;
    long ss = 0;
    if (i < len && s[i] == ':') {
      i++;
      ss = read_digits(s, len, &i, 2);
      if (ss < 0 || ss > 59) return -1;
      if (i < len && s[i] == '.') {
        i++;
        int n = 0;
        size_t start = i;
        while (i < len && isdigit((unsigned char)s[i])) {
          if (n < 6) {
            frac = frac * 10 + (s[i] - '0');
            n++;
          }
          i++;
        }
        if (i == start || i - start > 9) return -1;
        while (n < 6) {
          frac *= 10;
          n++;
        }
      }
    }
    secs = hh * 3600 + mi * 60 + ss;
  }
  if (i != len) return -1;
  *micros = (days * 86400 + secs) * 1000000 + frac;
  return 0;
}

/* ------------------------------------------------------------- decimal */

static __int128 pow10_i128(int n) {
  __int128 v = 1;
  for (int i = 0; i < n; i++)
    v *= 10;
  return v;
}

/* Collects the significant digits and the position of the decimal point
 * (after applying any exponent), then rounds to SCALE digits half up. */
int hl_parse_decimal(const char *s, size_t len, int precision, int scale, __int128 *out) {
  trim(&s, &len);
  size_t i = 0;
  bool neg = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  char digits[80];
  int nd = 0;     /* significant digits kept (leading zeros dropped) */
  long point = 0; /* digits[0..point) are the integer part */
  bool any = false, seen_point = false, big = false;
  for (; i < len; i++) {
    char c = s[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (!isdigit((unsigned char)c)) break;
    any = true;
    if (nd == 0 && c == '0') {
      if (seen_point) point--; /* 0.00x: the point moves left of the first digit */
      continue;
    }
    if (nd < (int)sizeof digits)
      digits[nd++] = c;
    else if (!seen_point)
      big = true; /* more than 80 integer digits */
    if (!seen_point) point++;
  }
  if (!any) return -1;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool eneg = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    long e = read_digits(s, len, &i, 4);
    if (e < 0) return -1;
    point += eneg ? -e : e;
  }
  if (i != len) return -1;
  if (big || point > 38) return -2;
  /* unscaled = digits shifted so that SCALE digits follow the point */
  long keep = point + scale; /* how many of digits[] stay */
  __int128 v = 0;
  for (long k = 0; k < keep; k++) {
    if (v >= pow10_i128(37)) return -2; /* v * 10 + d >= 10^38, and checked before it overflows */
    v = v * 10 + (k < nd && k >= 0 ? digits[k] - '0' : 0);
  }
  if (keep >= 0 && keep < nd && digits[keep] >= '5') v += 1;
  if (v >= pow10_i128(precision)) return -2;
  *out = neg ? -v : v;
  return 0;
}

void hl_format_decimal(hl_buf_t *buf, __int128 v, int scale) {
  char digits[64];
  int n = 0;
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  do {
    digits[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  while (n <= scale)
    digits[n++] = '0';
  if (neg) hl_buf_putc(buf, '-');
  for (int i = n - 1; i >= 0; i--) {
    hl_buf_putc(buf, digits[i]);
    if (i == scale && scale > 0) hl_buf_putc(buf, '.');
  }
}

/* -------------------------------------------------------------- double */

/* Shortest digits that read back to the same value; when one digit is
 * enough, Java picks the closest two-digit decimal instead (it prints at
 * least one fractional digit anyway): 4.9E-324, not 5.0E-324. */
bool hl_double_digits(double d, bool is_float, char digits[24], int *n_digits, int *exp10) {
  char tmp[40];
  int max_prec = is_float ? 9 : 17;
  for (int prec = 1; prec <= max_prec; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec == 1 ? 1 : prec - 1, d);
    if (is_float ? strtof(tmp, NULL) == (float)d : strtod(tmp, NULL) == d) break;
  }
  /* tmp = [-]D.DDDDe[+-]XX: split into digits and exponent */
  int nd = 0;
  const char *p = tmp;
  bool neg = false;
  if (*p == '-') {
    neg = true;
    p++;
  }
  for (; *p && *p != 'e'; p++)
    if (isdigit((unsigned char)*p)) digits[nd++] = *p;
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;
  *n_digits = nd;
  *exp10 = atoi(p + 1);
  return neg;
}

void hl_format_double(hl_buf_t *buf, double d, bool is_float) {
  if (isnan(d)) {
    hl_buf_puts(buf, "NaN");
    return;
  }
  if (isinf(d)) {
    hl_buf_puts(buf, d < 0 ? "-Infinity" : "Infinity");
    return;
  }
  if (d == 0) {
    hl_buf_puts(buf, signbit(d) ? "-0.0" : "0.0");
    return;
  }
  char digits[24];
  int nd, exp10;
  bool neg = hl_double_digits(d, is_float, digits, &nd, &exp10);
  if (neg) hl_buf_putc(buf, '-');
  double mag = fabs(d);
  if (mag >= 1e-3 && mag < 1e7) {
    /* plain notation, at least one digit after the point (Java) */
    if (exp10 < 0) {
      hl_buf_puts(buf, "0.");
      for (int i = -1; i > exp10; i--)
        hl_buf_putc(buf, '0');
      hl_buf_append(buf, digits, (size_t)nd);
    } else {
      for (int i = 0; i <= exp10; i++)
        hl_buf_putc(buf, i < nd ? digits[i] : '0');
      hl_buf_putc(buf, '.');
      if (nd > exp10 + 1)
        hl_buf_append(buf, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
      else
        hl_buf_putc(buf, '0');
    }
  } else {
    /* computerized scientific notation: D.DDDE[-]X */
    hl_buf_putc(buf, digits[0]);
    hl_buf_putc(buf, '.');
    if (nd > 1)
      hl_buf_append(buf, digits + 1, (size_t)(nd - 1));
    else
      hl_buf_putc(buf, '0');
    hl_buf_printf(buf, "E%d", exp10);
  }
}

/* ----------------------------------------------------- date, timestamp */

void hl_format_date(hl_buf_t *buf, int64_t days) {
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  hl_buf_printf(buf, "%04lld-%02u-%02u", (long long)y, m, d);
}

void hl_format_timestamp(hl_buf_t *buf, int64_t micros) {
  int64_t days = micros / 86400000000LL;
  int64_t rem = micros % 86400000000LL;
  if (rem < 0) {
    rem += 86400000000LL;
    days--;
  }
  hl_format_date(buf, days);
  int64_t secs = rem / 1000000, frac = rem % 1000000;
  hl_buf_printf(buf, " %02d:%02d:%02d", (int)(secs / 3600), (int)(secs / 60 % 60),
                (int)(secs % 60));
  if (frac) {
    char f[8];
    snprintf(f, sizeof f, "%06d", (int)frac);
    int n = 6;
    while (n > 0 && f[n - 1] == '0')
      n--;
    hl_buf_putc(buf, '.');
    hl_buf_append(buf, f, (size_t)n);
  }
}

/* ------------------------------------------------------ text -> value */

static hl_status_t bad_value(hl_error_t *err, const hl_type_t *type, const char *text, size_t len) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                    "invalid input syntax for type %s: \"%.*s\"", hl_type_id_name(type->id),
                    (int)(len > 200 ? 200 : len), text);
}

static hl_status_t out_of_range(hl_error_t *err, const hl_type_t *type, const char *text,
                                size_t len) {
  return hl_err_set(err, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
                    "value \"%.*s\" is out of range for type %s", (int)(len > 200 ? 200 : len),
                    text, hl_type_id_name(type->id));
}

/* Number of bytes of the first N UTF-8 characters of S (LEN bytes). */
static size_t utf8_prefix(const char *s, size_t len, size_t n_chars) {
  size_t i = 0, chars = 0;
  while (i < len && chars < n_chars) {
    i++;
    while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
      i++;
    chars++;
  }
  return i;
}

static size_t utf8_count(const char *s, size_t len) {
  size_t chars = 0;
  for (size_t i = 0; i < len; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) chars++;
  return chars;
}

int hl_char_fit(hl_arena_t *arena, uint32_t length, const char *s, uint32_t len, hl_str_t *out) {
  size_t keep = utf8_prefix(s, len, length);
  size_t chars = utf8_count(s, keep);
  if (chars >= length) { /* already LENGTH characters (after the cut) */
    out->ptr = s;
    out->len = (uint32_t)keep;
    return 0;
  }
  size_t pad = length - chars;
  char *p = hl_arena_alloc(arena, keep + pad);
  if (!p) return -1;
  if (keep) memcpy(p, s, keep);
  memset(p + keep, ' ', pad);
  out->ptr = p;
  out->len = (uint32_t)(keep + pad);
  return 0;
}

hl_status_t hl_value_from_text(hl_arena_t *arena, const hl_type_t *type, const char *text,
                               size_t len, hl_value_t *out, hl_error_t *err) {
  memset(out, 0, sizeof(*out));
  const char *s = text;
  size_t n = len;
  /* hl_str_t holds a 32-bit length (VARCHAR and CHAR truncate far below it) */
  if (len > UINT32_MAX && (type->id == HL_T_STRING || type->id == HL_T_BINARY))
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "string of %zu bytes is too long", len);
  switch (type->id) {
  case HL_T_NULL:
    out->is_null = true;
    return HL_OK;
  case HL_T_BOOLEAN:
    trim(&s, &n);
    if (n == 4 && strncasecmp(s, "true", 4) == 0)
      out->u.b = true;
    else if (n == 5 && strncasecmp(s, "false", 5) == 0)
      out->u.b = false;
    else
      return bad_value(err, type, text, len);
    return HL_OK;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT: {
    trim(&s, &n);
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i == n) return bad_value(err, type, text, len);
    uint64_t v = 0;
    bool overflow = false;
    size_t first_digit = i;
    for (; i < n && s[i] != '.'; i++) {
      if (!isdigit((unsigned char)s[i])) return bad_value(err, type, text, len);
      unsigned dgt = (unsigned)(s[i] - '0');
      if (v > (UINT64_MAX - dgt) / 10)
        overflow = true;
      else
        v = v * 10 + dgt;
    }
    /* Hive (LazyLong) accepts a fractional part of digits and truncates it:
     * "1.9" is 1; a lone "." is still rejected here */
    if (i < n) {
      if (i == first_digit && i + 1 == n) return bad_value(err, type, text, len);
      for (i++; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return bad_value(err, type, text, len);
    }
    static const int64_t maxes[] = {127, 32767, 2147483647, INT64_MAX};
    int64_t max = maxes[type->id - HL_T_TINYINT];
    if (overflow || (!neg && v > (uint64_t)max) || (neg && v > (uint64_t)max + 1))
      return out_of_range(err, type, text, len);
    out->u.i = neg ? (int64_t)(0 - v) : (int64_t)v;
    return HL_OK;
  }
  case HL_T_FLOAT:
  case HL_T_DOUBLE: {
    trim(&s, &n);
    /* fast path for plain decimals of at most 15 significant digits: the
     * digits and the power of ten are exact doubles, so one division is
     * correctly rounded (Clinger's fast path); everything else takes the
     * careful route below */
    {
      size_t i = 0;
      bool neg = false;
      if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
      uint64_t m = 0;
      int digits = 0, frac = 0;
      bool dot = false, any = false, ok = true;
      for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
          any = true;
          if (m == 0 && c == '0' && !dot) continue;
          m = m * 10 + (uint64_t)(c - '0');
          if (dot) frac++;
          if (++digits > 15) {
            ok = false;
            break;
          }
        } else if (c == '.' && !dot) {
          dot = true;
        } else {
          ok = false;
          break;
        }
      }
      if (ok && any && frac <= 22) {
        static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        double d = (double)m / pow10[frac];
        if (neg) d = -d;
        out->u.d = type->id == HL_T_FLOAT ? (double)(float)d : d;
        return HL_OK;
      }
    }
    char tmp[128];
    if (n == 0 || n >= sizeof tmp) return bad_value(err, type, text, len);
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    /* Java's spellings of the specials; strtod would also take "inf",
     * hex floats and "nan(...)", which Hive does not */
    const char *body = tmp + (tmp[0] == '-' || tmp[0] == '+');
    double d;
    if (strcmp(body, "NaN") == 0)
      d = NAN;
    else if (strcmp(body, "Infinity") == 0)
      d = tmp[0] == '-' ? -INFINITY : INFINITY;
    else {
      for (const char *c = body; *c; c++)
        if (!isdigit((unsigned char)*c) && *c != '.' && *c != 'e' && *c != 'E' && *c != '-' &&
            *c != '+')
          return bad_value(err, type, text, len);
      char *end;
      errno = 0;
      d = strtod(tmp, &end);
      if (*end != '\0' || end == tmp) return bad_value(err, type, text, len);
    }
    out->u.d = type->id == HL_T_FLOAT ? (double)(float)d : d;
    return HL_OK;
  }
  case HL_T_DECIMAL: {
    int rc = hl_parse_decimal(s, n, type->precision, type->scale, &out->u.dec);
    if (rc == -1) return bad_value(err, type, text, len);
    if (rc == -2) return out_of_range(err, type, text, len);
    return HL_OK;
  }
  case HL_T_STRING:
  case HL_T_BINARY: {
    char *p = hl_arena_alloc(arena, n ? n : 1);
    if (!p) return hl_err_nomem(err);
    if (n) memcpy(p, s, n);
    out->u.s.ptr = p;
    out->u.s.len = (uint32_t)n;
    return HL_OK;
  }
  case HL_T_VARCHAR: {
    size_t keep = utf8_prefix(s, n, (size_t)type->length);
    char *p = hl_arena_alloc(arena, keep ? keep : 1);
    if (!p) return hl_err_nomem(err);
    if (keep) memcpy(p, s, keep);
    out->u.s.ptr = p;
    out->u.s.len = (uint32_t)keep;
    return HL_OK;
  }
  case HL_T_CHAR: {
    size_t keep = utf8_prefix(s, n, (size_t)type->length);
    size_t chars = utf8_count(s, keep);
    size_t pad = (size_t)type->length > chars ? (size_t)type->length - chars : 0;
    char *p = hl_arena_alloc(arena, keep + pad + 1);
    if (!p) return hl_err_nomem(err);
    if (keep) memcpy(p, s, keep);
    memset(p + keep, ' ', pad);
    out->u.s.ptr = p;
    out->u.s.len = (uint32_t)(keep + pad);
    return HL_OK;
  }
  case HL_T_DATE:
    if (hl_parse_date(s, n, &out->u.i) < 0) return bad_value(err, type, text, len);
    return HL_OK;
  case HL_T_TIMESTAMP:
    if (hl_parse_timestamp(s, n, &out->u.i) < 0) return bad_value(err, type, text, len);
    return HL_OK;
  case HL_T_INTERVAL_YM:
  case HL_T_INTERVAL_DT: {
    int rc = type->id == HL_T_INTERVAL_YM ? hl_interval_ym_parse(s, n, &out->u.i)
                                          : hl_interval_dt_parse(s, n, &out->u.i);
    if (rc == HL_IV_RANGE) return out_of_range(err, type, text, len);
    if (rc != HL_IV_OK) return bad_value(err, type, text, len);
    return HL_OK;
  }
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION:
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot convert text to type %s", hl_type_id_name(type->id));
  }
  return bad_value(err, type, text, len);
}

/* ------------------------------------------------------ value -> text */

static void put_json_string(hl_buf_t *buf, const char *s, size_t len) {
  hl_buf_putc(buf, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '"':
      hl_buf_puts(buf, "\\\"");
      break;
    case '\\':
      hl_buf_puts(buf, "\\\\");
      break;
    case '\n':
      hl_buf_puts(buf, "\\n");
      break;
    case '\r':
      hl_buf_puts(buf, "\\r");
      break;
    case '\t':
      hl_buf_puts(buf, "\\t");
      break;
    case '\b':
      hl_buf_puts(buf, "\\b");
      break;
    case '\f':
      hl_buf_puts(buf, "\\f");
      break;
    default:
      if (c < 0x20)
        hl_buf_printf(buf, "\\u%04x", c);
      else
        hl_buf_putc(buf, (char)c);
    }
  }
  hl_buf_putc(buf, '"');
}

static void format_value(hl_buf_t *buf, const hl_type_t *type, const hl_value_t *v, bool nested) {
  if (v->is_null) {
    hl_buf_puts(buf, nested ? "null" : "NULL");
    return;
  }
  switch (type->id) {
  case HL_T_NULL:
    hl_buf_puts(buf, nested ? "null" : "NULL");
    return;
  case HL_T_BOOLEAN:
    hl_buf_puts(buf, v->u.b ? "true" : "false");
    return;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
    hl_buf_printf(buf, "%lld", (long long)v->u.i);
    return;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    hl_format_double(buf, v->u.d, type->id == HL_T_FLOAT);
    return;
  case HL_T_DECIMAL:
    hl_format_decimal(buf, v->u.dec, type->scale);
    return;
  case HL_T_BINARY: /* Hive prints the bytes as they are, even nested */
    hl_buf_append(buf, v->u.s.ptr, v->u.s.len);
    return;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    if (nested)
      put_json_string(buf, v->u.s.ptr, v->u.s.len);
    else
      hl_buf_append(buf, v->u.s.ptr, v->u.s.len);
    return;
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
    if (nested) hl_buf_putc(buf, '"');
    if (type->id == HL_T_DATE)
      hl_format_date(buf, v->u.i);
    else
      hl_format_timestamp(buf, v->u.i);
    if (nested) hl_buf_putc(buf, '"');
    return;
  case HL_T_INTERVAL_YM:
  case HL_T_INTERVAL_DT:
    if (nested) hl_buf_putc(buf, '"');
    if (type->id == HL_T_INTERVAL_YM)
      hl_interval_ym_format(buf, v->u.i);
    else
      hl_interval_dt_format(buf, v->u.i);
    if (nested) hl_buf_putc(buf, '"');
    return;
  case HL_T_ARRAY:
    hl_buf_putc(buf, '[');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(buf, ',');
      format_value(buf, type->children[0], &v->u.list.items[i], true);
    }
    hl_buf_putc(buf, ']');
    return;
  case HL_T_MAP:
    hl_buf_putc(buf, '{');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(buf, ',');
      /* keys print like any nested value, so an int key is unquoted:
       * Hive's SerDeUtils.buildJSONString shows map(1,'x') as {1:"x"} */
      format_value(buf, type->children[0], &v->u.list.items[2 * i], true);
      hl_buf_putc(buf, ':');
      format_value(buf, type->children[1], &v->u.list.items[2 * i + 1], true);
    }
    hl_buf_putc(buf, '}');
    return;
  case HL_T_STRUCT:
    hl_buf_putc(buf, '{');
    for (uint32_t i = 0; i < v->u.list.n && (int)i < type->n_children; i++) {
      if (i) hl_buf_putc(buf, ',');
      put_json_string(buf, type->field_names[i], strlen(type->field_names[i]));
      hl_buf_putc(buf, ':');
      format_value(buf, type->children[i], &v->u.list.items[i], true);
    }
    hl_buf_putc(buf, '}');
    return;
  case HL_T_UNION: /* SerDeUtils: {tag:value}, the value as a nested one */
    hl_buf_printf(buf, "{%u:", (unsigned)v->u.list.tag);
    if (v->u.list.n && (int)v->u.list.tag < type->n_children)
      format_value(buf, type->children[v->u.list.tag], &v->u.list.items[0], true);
    else
      hl_buf_puts(buf, "null");
    hl_buf_putc(buf, '}');
    return;
  }
}

void hl_value_format(hl_buf_t *buf, const hl_type_t *type, const hl_value_t *v) {
  format_value(buf, type, v, false);
}

/* ------------------------------------------------------------ compare */

static size_t rtrim_len(const char *s, size_t len) {
  while (len && s[len - 1] == ' ')
    len--;
  return len;
}

int hl_value_compare(const hl_type_t *type, const hl_value_t *a, const hl_value_t *b) {
  switch (hl_type_phys(type)) {
  case HL_P_BOOL:
    return (int)a->u.b - (int)b->u.b;
  case HL_P_I64:
    return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
  case HL_P_F64: {
    double x = a->u.d, y = b->u.d;
    if (isnan(x) || isnan(y)) return (isnan(x) != 0) - (isnan(y) != 0);
    return x < y ? -1 : x > y;
  }
  case HL_P_I128:
    return a->u.dec < b->u.dec ? -1 : a->u.dec > b->u.dec;
  case HL_P_STR: {
    size_t la = a->u.s.len, lb = b->u.s.len;
    if (type->id == HL_T_CHAR) {
      la = rtrim_len(a->u.s.ptr, la);
      lb = rtrim_len(b->u.s.ptr, lb);
    }
    size_t n = la < lb ? la : lb;
    int c = n ? memcmp(a->u.s.ptr, b->u.s.ptr, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return la < lb ? -1 : la > lb;
  }
  case HL_P_VALUE:
    return 0;
  }
  return 0;
}

int hl_value_sort_compare(const hl_type_t *type, const hl_value_t *a, const hl_value_t *b,
                          bool desc, bool nulls_first) {
  if (a->is_null || b->is_null) {
    if (a->is_null && b->is_null) return 0;
    int r = a->is_null ? -1 : 1;
    return nulls_first ? r : -r;
  }
  int r = hl_value_compare(type, a, b);
  return desc ? -r : r;
}

bool hl_value_has_sort_prefix(const hl_type_t *type) {
  hl_phys_t p = hl_type_phys(type);
  /* CHAR compares without trailing blanks, which bytes do not */
  return p == HL_P_BOOL || p == HL_P_I64 || p == HL_P_F64 || p == HL_P_I128 ||
         (p == HL_P_STR && type->id != HL_T_CHAR);
}

uint64_t hl_value_sort_prefix(const hl_type_t *type, const hl_value_t *v, bool desc,
                              bool nulls_first) {
  /* NULL takes an end of the range, values the rest: 1 .. UINT64_MAX - 1,
   * the ends shared with the most extreme values (a tie, settled by the
   * full comparison) */
  if (v->is_null) return nulls_first ? 0 : UINT64_MAX;
  uint64_t u = 0;
  switch (hl_type_phys(type)) {
  case HL_P_BOOL:
    u = v->u.b ? 2 : 1;
    break;
  case HL_P_I64:
    u = (uint64_t)v->u.i ^ ((uint64_t)1 << 63);
    break;
  case HL_P_I128: { /* saturated to 64 bits: still never out of order */
    __int128 d = v->u.dec;
    int64_t x = d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN : (int64_t)d;
    u = (uint64_t)x ^ ((uint64_t)1 << 63);
    break;
  }
  case HL_P_F64: {
    double d = v->u.d;
    if (isnan(d)) { /* every NaN equal, above everything */
      u = UINT64_MAX;
      break;
    }
    if (d == 0) d = 0; /* -0.0 equals 0.0 */
    memcpy(&u, &d, sizeof u);
    u = (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
    break;
  }
  case HL_P_STR: {
    size_t n = v->u.s.len < 8 ? v->u.s.len : 8;
    for (size_t i = 0; i < n; i++)
      u |= (uint64_t)(uint8_t)v->u.s.ptr[i] << (56 - 8 * i);
    break;
  }
  default:
    break;
  }
  if (desc) u = UINT64_MAX - u;
  return u < 1 ? 1 : u > UINT64_MAX - 1 ? UINT64_MAX - 1 : u;
}

/* ---------------------------------------------------------- value keys */

void hl_value_key_append(hl_buf_t *key, const hl_type_t *type, const hl_value_t *v) {
  char flag = v->is_null ? 0 : 1;
  hl_buf_append(key, &flag, 1);
  if (v->is_null) return;
  switch (hl_type_phys(type)) {
  case HL_P_BOOL: {
    char c = v->u.b;
    hl_buf_append(key, &c, 1);
    break;
  }
  case HL_P_I64:
    hl_buf_append(key, &v->u.i, 8);
    break;
  case HL_P_F64: {
    double d = v->u.d;
    if (d == 0) d = 0;     /* -0.0 is 0.0 */
    if (isnan(d)) d = NAN; /* one NaN */
    hl_buf_append(key, &d, 8);
    break;
  }
  case HL_P_I128:
    hl_buf_append(key, &v->u.dec, 16);
    break;
  case HL_P_STR: {
    uint32_t len = v->u.s.len;
    if (type->id == HL_T_CHAR)
      while (len && v->u.s.ptr[len - 1] == ' ')
        len--;
    hl_buf_append(key, &len, 4);
    hl_buf_append(key, v->u.s.ptr, len);
    break;
  }
  case HL_P_VALUE: {
    hl_buf_t text;
    hl_buf_init(&text);
    hl_value_format(&text, type, v);
    uint32_t len = (uint32_t)text.len;
    hl_buf_append(key, &len, 4);
    hl_buf_append(key, hl_buf_cstr(&text), text.len);
    if (text.oom) key->oom = 1;
    hl_buf_fini(&text);
    break;
  }
  }
}
