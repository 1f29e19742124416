/*
 * pg_params.c -- Bind's parameter values into a statement's parameters:
 * each value decoded by its format (text or binary) and the PostgreSQL
 * type it is sent as (the type the client declared in Parse, else the one
 * ParameterDescription announced, from hl_bind_parameter_type), then bound
 * with the matching hl_bind_* (through pg_api.h).
 *
 * Text values of integer, float and boolean types are bound as numbers
 * and booleans, so that `SELECT $1` with an int4 parameter yields an int;
 * every other text value is bound as text and converted by the library
 * where its context needs another type, as Hive converts a string literal.
 * Binary values: int2/int4/int8, float4/float8, bool, text-like types,
 * bytea, date, timestamp(tz) and numeric; any other binary type is 0A000.
 */
#include "pg_int.h"
#include "pg_sqltext.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PG_EPOCH_DAYS   10957             /* 2000-01-01 - 1970-01-01 in days */
#define PG_EPOCH_MICROS 946684800000000LL /* the same in microseconds */

static int bad_value(pg_conn_t *c, const char *sqlstate, const char *what, int idx) {
  char msg[160];
  snprintf(msg, sizeof msg, "%s in bind parameter %d", what, idx);
  pg_send_error(c, "ERROR", sqlstate, msg, 0);
  return -1;
}

/* numeric's binary form as a decimal (unscaled 128-bit value, scale). */
static int bind_numeric(pg_conn_t *c, hl_stmt_t *st, int idx, const unsigned char *v, int32_t n) {
  if (n < 8) return bad_value(c, "22P03", "incorrect binary data format", idx);
  int ndigits = (int)pg_be_int(v, 2), weight = (int)pg_be_int(v + 2, 2),
      dscale = (int)pg_be_int(v + 6, 2);
  unsigned sign = (unsigned)pg_be_int(v + 4, 2) & 0xFFFF;
  if (ndigits < 0 || n != 8 + 2 * ndigits || dscale < 0 || dscale > 38 ||
      (sign != 0 && sign != 0x4000))
    return bad_value(c, "22P03", "incorrect binary data format (or NaN/infinity numeric)", idx);
  __int128 u = 0;
  const __int128 limit = (__int128)1 << 126;
  for (int k = 0; k < ndigits; k++) {
    int d = (int)pg_be_int(v + 8 + 2 * k, 2);
    if (d < 0 || d > 9999) return bad_value(c, "22P03", "incorrect binary data format", idx);
    int exp10 = 4 * (weight - k) + dscale; /* the digit's power of ten in the unscaled value */
    __int128 term = d;
    if (exp10 < 0) {
      for (int e = 0; e < -exp10 && term; e++)
        term /= 10;
    } else {
      for (int e = 0; e < exp10; e++) {
        if (term > limit / 10) return bad_value(c, "22003", "numeric value out of range", idx);
        term *= 10;
      }
    }
    u += term;
    if (u > limit) return bad_value(c, "22003", "numeric value out of range", idx);
  }
  int precision = 0;
  for (__int128 t = u; t; t /= 10)
    precision++;
  if (precision < dscale) precision = dscale;
  if (precision < 1) precision = 1;
  if (precision > 38) return bad_value(c, "22003", "numeric value out of range", idx);
  if (sign) u = -u;
  return pg_api_bind_decimal(st, idx, (int64_t)(u >> 64), (uint64_t)u, precision, dscale) == HL_OK
             ? 0
             : (pg_send_db_error(c, NULL, 0), -1);
}

static int bind_binary(pg_conn_t *c, hl_stmt_t *st, int idx, uint32_t oid, const unsigned char *v,
                       int32_t n) {
  hl_status_t rc;
  switch (oid) {
  case 21:
  case 23:
  case 20: {
    int want = oid == 21 ? 2 : oid == 23 ? 4 : 8;
    if (n != want) return bad_value(c, "22P03", "incorrect binary data format", idx);
    rc = pg_api_bind_int64(st, idx, pg_be_int(v, n));
    break;
  }
  case 700:
  case 701: {
    if (n != (oid == 700 ? 4 : 8))
      return bad_value(c, "22P03", "incorrect binary data format", idx);
    double d;
    if (oid == 700) {
      uint32_t u = (uint32_t)pg_be_int(v, 4);
      float f;
      memcpy(&f, &u, 4);
      d = f;
    } else {
      uint64_t u = (uint64_t)pg_be_int(v, 8);
      memcpy(&d, &u, 8);
    }
    rc = pg_api_bind_double(st, idx, d);
    break;
  }
  case 16:
    if (n != 1) return bad_value(c, "22P03", "incorrect binary data format", idx);
    rc = pg_api_bind_bool(st, idx, v[0] != 0);
    break;
  case 1082:
    if (n != 4) return bad_value(c, "22P03", "incorrect binary data format", idx);
    rc = pg_api_bind_date(st, idx, (int32_t)(pg_be_int(v, 4) + PG_EPOCH_DAYS));
    break;
  case 1114:
  case 1184: /* timestamptz: hivelite's timestamps have no zone; taken as UTC */
    if (n != 8) return bad_value(c, "22P03", "incorrect binary data format", idx);
    rc = pg_api_bind_timestamp(st, idx, pg_be_int(v, 8) + PG_EPOCH_MICROS);
    break;
  case 1700:
    return bind_numeric(c, st, idx, v, n);
  case 17:
    rc = pg_api_bind_blob(st, idx, v, (size_t)n);
    break;
  case 25:
  case 1043:
  case 1042:
  case 19:  /* name */
  case 705: /* unknown */
  case 114: /* json */
    rc = pg_api_bind_text(st, idx, (const char *)v, (size_t)n);
    break;
  default: {
    char msg[120];
    snprintf(msg, sizeof msg, "binary format of parameter type %u is not supported", oid);
    pg_send_error(c, "ERROR", "0A000", msg, 0);
    return -1;
  }
  }
  if (rc != HL_OK) {
    pg_send_db_error(c, NULL, 0);
    return -1;
  }
  return 0;
}

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* A zone offset ("Z", "UTC", "+02", "-05:30", "+0530", "+01:00:00") in
 * seconds east of UTC: 0, or -1 when S is something else. */
static int zone_offset(const char *s, long *secs) {
  if (strcmp(s, "Z") == 0 || strcasecmp(s, "UTC") == 0) return *secs = 0, 0;
  if (*s != '+' && *s != '-') return -1;
  int sign = *s++ == '-' ? -1 : 1, part[3] = {0, 0, 0}, k = 0;
  while (k < 3 && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1])) {
    part[k++] = (s[0] - '0') * 10 + (s[1] - '0');
    s += 2;
    if (*s == ':') s++;
  }
  if (k == 0 || *s || part[0] > 15 || part[1] > 59 || part[2] > 59) return -1;
  *secs = sign * (part[0] * 3600L + part[1] * 60L + part[2]);
  return 0;
}

/* A date or timestamp in PostgreSQL's text input form, with a time zone
 * after it ("2024-01-02 +00", what pgJDBC sends): for timestamptz the
 * instant, in UTC (the sessions' TimeZone); for the zoneless types it is
 * ignored, as PostgreSQL ignores it.  1 when bound (status in *RC), 0 when
 * the text is something else (then bound as text for the library to
 * convert). */
static int datetime_text(hl_stmt_t *st, int idx, const unsigned char *v, int32_t n, uint32_t oid,
                         char *buf, hl_status_t *rc) {
  memcpy(buf, v, (size_t)n);
  buf[n] = '\0';
  int64_t x;
  const char *end;
  if ((oid == 1082 ? pg_parse_date(buf, &x, &end) : pg_parse_timestamp(buf, &x, &end)) != 0)
    return 0;
  while (*end == ' ')
    end++;
  long offset = 0;
  if (*end && zone_offset(end, &offset) != 0) return 0;
  if (oid == 1184) x -= (int64_t)offset * 1000000;
  *rc = oid == 1082 ? pg_api_bind_date(st, idx, (int32_t)(x + PG_EPOCH_DAYS))
                    : pg_api_bind_timestamp(st, idx, x + PG_EPOCH_MICROS);
  return 1;
}

static int bind_text(pg_conn_t *c, hl_stmt_t *st, int idx, uint32_t oid, const unsigned char *v,
                     int32_t n) {
  char buf[64];
  hl_status_t rc;
  if ((oid == 20 || oid == 21 || oid == 23 || oid == 700 || oid == 701 || oid == 16) &&
      (size_t)n < sizeof buf) {
    memcpy(buf, v, (size_t)n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    if (oid == 16) {
      int t = strcasecmp(buf, "t") == 0 || strcasecmp(buf, "true") == 0 || strcmp(buf, "1") == 0 ||
              strcasecmp(buf, "on") == 0 || strcasecmp(buf, "yes") == 0;
      int f = strcasecmp(buf, "f") == 0 || strcasecmp(buf, "false") == 0 || strcmp(buf, "0") == 0 ||
              strcasecmp(buf, "off") == 0 || strcasecmp(buf, "no") == 0;
      if (!t && !f) return bad_value(c, "22P02", "invalid input syntax for type boolean", idx);
      rc = pg_api_bind_bool(st, idx, t);
    } else if (oid == 700 || oid == 701) {
      double d = strtod(buf, &end);
      if (end == buf || *end) return bad_value(c, "22P02", "invalid input syntax for a float", idx);
      rc = pg_api_bind_double(st, idx, d);
    } else {
      long long i = strtoll(buf, &end, 10);
      if (end == buf || *end || errno)
        return bad_value(c, "22P02", "invalid input syntax for an integer", idx);
      rc = pg_api_bind_int64(st, idx, i);
    }
  } else if ((oid == 1082 || oid == 1114 || oid == 1184) && (size_t)n < sizeof buf &&
             datetime_text(st, idx, v, n, oid, buf, &rc)) {
    /* bound as a date or timestamp (what pgJDBC's setDate/setTimestamp send) */
  } else if (oid == 17 && n >= 2 && v[0] == '\\' && v[1] == 'x') {
    /* bytea's hex text form */
    size_t len = (size_t)(n - 2) / 2;
    unsigned char *bytes = malloc(len ? len : 1);
    if (!bytes) return bad_value(c, "53200", "out of memory", idx);
    for (size_t i = 0; i < len; i++) {
      int hi = hexval(v[2 + 2 * i]), lo = hexval(v[3 + 2 * i]);
      if (hi < 0 || lo < 0 || (n - 2) % 2) {
        free(bytes);
        return bad_value(c, "22P02", "invalid hexadecimal bytea", idx);
      }
      bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    rc = pg_api_bind_blob(st, idx, bytes, len);
    free(bytes);
  } else if (oid == 17) {
    rc = pg_api_bind_blob(st, idx, v, (size_t)n);
  } else {
    rc = pg_api_bind_text(st, idx, (const char *)v, (size_t)n);
  }
  if (rc != HL_OK) {
    pg_send_db_error(c, NULL, 0);
    return -1;
  }
  return 0;
}

int pg_bind_params(pg_conn_t *c, hl_stmt_t *st, const pg_bind_msg_t *m, const uint32_t *types,
                   int n_types) {
  size_t cursor = 0;
  const unsigned char *v;
  int32_t n;
  for (int i = 0; i < m->n_params && pg_bind_next_param(m, &cursor, &v, &n) == 0; i++) {
    uint32_t oid = i < n_types ? types[i] : 25;
    int rc;
    if (!v) {
      rc = pg_api_bind_null(st, i + 1) == HL_OK ? 0 : (pg_send_db_error(c, NULL, 0), -1);
    } else if (pg_bind_param_format(m, i) == 1) {
      rc = bind_binary(c, st, i + 1, oid, v, n);
    } else {
      rc = bind_text(c, st, i + 1, oid, v, n);
    }
    if (rc != 0) return -1;
  }
  return 0;
}
