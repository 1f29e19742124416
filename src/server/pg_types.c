/*
 * pg_types.c -- Hive types as PostgreSQL types, and each value in the
 * text or binary encoding a client asked for.
 *
 * The mapping: boolean bool(16); tinyint and smallint int2(21) (PostgreSQL
 * has no one-byte integer); int int4(23); bigint int8(20); float
 * float4(700); double float8(701); decimal(p,s) numeric(1700) with typmod
 * ((p << 16) | s) + 4; string text(25); varchar(n) varchar(1043) and
 * char(n) bpchar(1042) with typmod n + 4; date date(1082); timestamp
 * timestamp(1114); binary bytea(17); arrays, maps, structs, the NULL type
 * and the interval types text(25) in Hive's printed form (PostgreSQL's
 * interval(1186) prints "1 day 02:03:04.5", not Hive's "1 02:03:04.500000000").
 *
 * Text results come from hl_column_text, re-encoded where PostgreSQL's
 * text form differs (booleans t/f, bytea \x hex).  Binary results come from
 * the typed accessors (hl_column_int64, _double, _date, _timestamp, _blob):
 * big-endian integers and IEEE floats, days and microseconds since
 * 2000-01-01; numeric's base-10000 digits from the decimal's text.  The
 * date and timestamp parsers serve text parameters (pg_params.c).
 */
#include "pg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define OID_BOOL      16
#define OID_BYTEA     17
#define OID_INT8      20
#define OID_INT2      21
#define OID_INT4      23
#define OID_TEXT      25
#define OID_FLOAT4    700
#define OID_FLOAT8    701
#define OID_BPCHAR    1042
#define OID_VARCHAR   1043
#define OID_DATE      1082
#define OID_TIMESTAMP 1114
#define OID_NUMERIC   1700

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

pg_type_t pg_type_of(const char *t) {
  if (!t) return (pg_type_t){OID_TEXT, -1, -1};
  if (strcmp(t, "boolean") == 0) return (pg_type_t){OID_BOOL, 1, -1};
  if (strcmp(t, "tinyint") == 0 || strcmp(t, "smallint") == 0) return (pg_type_t){OID_INT2, 2, -1};
  if (strcmp(t, "int") == 0) return (pg_type_t){OID_INT4, 4, -1};
  if (strcmp(t, "bigint") == 0) return (pg_type_t){OID_INT8, 8, -1};
  if (strcmp(t, "float") == 0) return (pg_type_t){OID_FLOAT4, 4, -1};
  if (strcmp(t, "double") == 0) return (pg_type_t){OID_FLOAT8, 8, -1};
  if (strcmp(t, "date") == 0) return (pg_type_t){OID_DATE, 4, -1};
  if (strcmp(t, "timestamp") == 0) return (pg_type_t){OID_TIMESTAMP, 8, -1};
  if (strcmp(t, "binary") == 0) return (pg_type_t){OID_BYTEA, -1, -1};
  if (starts(t, "decimal")) {
    int p = 10, s = 0;
    if (t[7] == '(') sscanf(t + 8, "%d,%d", &p, &s);
    return (pg_type_t){OID_NUMERIC, -1, ((p << 16) | s) + 4};
  }
  if (starts(t, "varchar(")) return (pg_type_t){OID_VARCHAR, -1, atoi(t + 8) + 4};
  if (starts(t, "char(")) return (pg_type_t){OID_BPCHAR, -1, atoi(t + 5) + 4};
  return (pg_type_t){OID_TEXT, -1, -1};
}

static void put_field(pg_buf_t *b, const void *p, size_t n) {
  pg_put_i32(b, (int32_t)n);
  pg_put_bytes(b, p, n);
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

#define PG_EPOCH_DAYS 10957 /* 2000-01-01 in days since 1970-01-01 */

int pg_parse_date(const char *s, int64_t *days, const char **end) {
  char *e;
  long y = strtol(s, &e, 10);
  if (*e != '-') return -1;
  long m = strtol(e + 1, &e, 10);
  if (*e != '-') return -1;
  long d = strtol(e + 1, &e, 10);
  if (m < 1 || m > 12 || d < 1 || d > 31) return -1;
  *days = days_from_civil(y, (int)m, (int)d) - PG_EPOCH_DAYS;
  *end = e;
  return 0;
}

int pg_parse_timestamp(const char *s, int64_t *micros, const char **end) {
  int64_t days;
  const char *e;
  if (pg_parse_date(s, &days, &e) != 0) return -1;
  int hh = 0, mi = 0, ss = 0, n = 0;
  int64_t frac = 0;
  if (*e == ' ' || *e == 'T') {
    if (sscanf(e + 1, "%d:%d:%d%n", &hh, &mi, &ss, &n) != 3) return -1;
    e += 1 + n;
    if (*e == '.') {
      int digits = 0;
      for (e++; isdigit((unsigned char)*e); e++)
        if (digits < 6) {
          frac = frac * 10 + (*e - '0');
          digits++;
        }
      while (digits++ < 6)
        frac *= 10;
    }
  }
  *micros = ((days * 24 + hh) * 60 + mi) * 60 * 1000000 + (int64_t)ss * 1000000 + frac;
  *end = e;
  return 0;
}

/* numeric's binary form: ndigits, weight, sign, dscale, base-10000 digits. */
static int put_numeric(pg_buf_t *b, const char *s, size_t len) {
  int neg = 0;
  size_t i = 0;
  if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  char digits[160];
  size_t nint = 0, nfrac = 0, nd = 0;
  for (; i < len && isdigit((unsigned char)s[i]); i++) {
    if (nd >= sizeof digits / 2) return -1;
    digits[nd++] = s[i];
    nint++;
  }
  if (i < len && s[i] == '.')
    for (i++; i < len && isdigit((unsigned char)s[i]); i++) {
      if (nd >= sizeof digits - 8) return -1;
      digits[nd++] = s[i];
      nfrac++;
    }
  if (i != len) return -1;
  /* pad the integer part left and the fraction right to groups of 4 */
  char padded[176];
  size_t lead = (4 - nint % 4) % 4, np = 0;
  for (size_t k = 0; k < lead; k++)
    padded[np++] = '0';
  memcpy(padded + np, digits, nd);
  np += nd;
  while ((np - (lead + nint)) % 4)
    padded[np++] = '0';
  int16_t groups[44];
  int ng = 0;
  for (size_t k = 0; k < np; k += 4)
    groups[ng++] = (int16_t)((padded[k] - '0') * 1000 + (padded[k + 1] - '0') * 100 +
                             (padded[k + 2] - '0') * 10 + (padded[k + 3] - '0'));
  int weight = (int)((lead + nint) / 4) - 1, first = 0;
  while (first < ng && groups[first] == 0) {
    first++;
    weight--;
  }
  while (ng > first && groups[ng - 1] == 0)
    ng--;
  int n = ng - first;
  pg_put_i32(b, 8 + 2 * n);
  pg_put_i16(b, n);
  pg_put_i16(b, n ? weight : 0);
  pg_put_i16(b, neg && n ? 0x4000 : 0);
  pg_put_i16(b, (int)nfrac);
  for (int k = first; k < ng; k++)
    pg_put_i16(b, groups[k]);
  return 0;
}

/* The binary form from the typed accessors (no text in between). */
static int put_binary(pg_buf_t *b, hl_stmt_t *stmt, int col, uint32_t oid) {
  switch (oid) {
  case OID_BOOL:
    pg_put_i32(b, 1);
    pg_put_u8(b, hl_column_bool(stmt, col) != 0);
    return 0;
  case OID_INT2:
    pg_put_i32(b, 2);
    pg_put_i16(b, (int)hl_column_int64(stmt, col));
    return 0;
  case OID_INT4:
    pg_put_i32(b, 4);
    pg_put_i32(b, (int32_t)hl_column_int64(stmt, col));
    return 0;
  case OID_INT8:
    pg_put_i32(b, 8);
    pg_put_i64(b, hl_column_int64(stmt, col));
    return 0;
  case OID_FLOAT4: {
    float f = (float)hl_column_double(stmt, col);
    uint32_t u;
    memcpy(&u, &f, 4);
    pg_put_i32(b, 4);
    pg_put_i32(b, (int32_t)u);
    return 0;
  }
  case OID_FLOAT8: {
    double d = hl_column_double(stmt, col);
    int64_t u;
    memcpy(&u, &d, 8);
    pg_put_i32(b, 8);
    pg_put_i64(b, u);
    return 0;
  }
  case OID_DATE:
    pg_put_i32(b, 4);
    pg_put_i32(b, hl_column_date(stmt, col) - PG_EPOCH_DAYS);
    return 0;
  case OID_TIMESTAMP:
    pg_put_i32(b, 8);
    pg_put_i64(b, hl_column_timestamp(stmt, col) - (int64_t)PG_EPOCH_DAYS * 86400 * 1000000);
    return 0;
  case OID_NUMERIC: {
    size_t len = 0;
    const char *v = hl_column_text(stmt, col, &len); /* decimal digits as they print */
    if (!v) {
      b->oom = 1;
      return 0;
    }
    return put_numeric(b, v, len);
  }
  case OID_BYTEA:
  case OID_TEXT:
  case OID_VARCHAR:
  case OID_BPCHAR: {
    size_t len = 0;
    const void *p = oid == OID_BYTEA ? hl_column_blob(stmt, col, &len)
                                     : (const void *)hl_column_text(stmt, col, &len);
    if (!p && len) {
      b->oom = 1;
      return 0;
    }
    put_field(b, p, len);
    return 0;
  }
  default:
    return -1;
  }
}

int pg_put_value(pg_buf_t *b, hl_stmt_t *stmt, int col, uint32_t oid, int format) {
  if (hl_column_is_null(stmt, col)) {
    pg_put_i32(b, -1);
    return 0;
  }
  if (format == 1) return put_binary(b, stmt, col, oid);
  size_t len = 0;
  const char *v = hl_column_text(stmt, col, &len);
  if (!v) {
    b->oom = 1;
    return 0;
  }
  if (oid == OID_BOOL) {
    put_field(b, v[0] == 't' ? "t" : "f", 1);
  } else if (oid == OID_BYTEA) {
    static const char hex[] = "0123456789abcdef";
    pg_put_i32(b, (int32_t)(2 + 2 * len));
    pg_put_bytes(b, "\\x", 2);
    for (size_t i = 0; i < len; i++) {
      unsigned char ch = (unsigned char)v[i];
      char two[2] = {hex[ch >> 4], hex[ch & 15]};
      pg_put_bytes(b, two, 2);
    }
  } else {
    put_field(b, v, len);
  }
  return 0;
}
