/*
 * s3_http_hdr.c -- one HTTP reply header line into hl_s3_resp_headers_t
 * (s3_client.h), for the S3 client's libcurl header callback.
 *
 * The server is not trusted: numbers are checked digit by digit (no
 * strtoull, which takes signs and spaces), every copy is bounded and a
 * value longer than its field is refused rather than cut (a truncated
 * ETag would compare wrong), and anything malformed in a header the
 * client relies on is 08P01.  Depends on util only, so that the fuzz
 * target (tests/fuzz/fuzz_s3_http.c) builds it alone.
 */
#include "storage/s3/s3_client.h"

#include <string.h>

void hl_s3_resp_headers_init(hl_s3_resp_headers_t *h) {
  memset(h, 0, sizeof *h);
  h->content_length = -1;
}

static bool is_ows(char c) {
  return c == ' ' || c == '\t';
}

static char lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool name_is(const char *name, size_t n, const char *want) {
  size_t wn = strlen(want);
  if (n != wn) return false;
  for (size_t i = 0; i < n; i++)
    if (lower(name[i]) != want[i]) return false;
  return true;
}

/* Decimal digits S[0..N) (at least one, no sign) into *OUT; false when
 * empty, not all digits, or over MAX. */
static bool parse_u64(const char *s, size_t n, uint64_t max, uint64_t *out) {
  if (n == 0) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

static hl_status_t malformed(hl_error_t *err, const char *name, const char *v, size_t n) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                    "malformed \"%s\" header in the S3 reply: \"%.*s\"", name,
                    (int)(n > 80 ? 80 : n), v);
}

static hl_status_t copy_value(char *dst, size_t cap, const char *name, const char *v, size_t n,
                              hl_error_t *err) {
  if (n >= cap)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "\"%s\" header of the S3 reply is too long (%zu bytes, at most %zu)", name, n,
                      cap - 1);
  memcpy(dst, v, n);
  dst[n] = '\0';
  return HL_OK;
}

/* "bytes FIRST-LAST/TOTAL" with FIRST <= LAST < TOTAL, or "bytes
 * * /TOTAL" (a 416's: no range, the size only).  An unknown total ("*")
 * is refused: the client needs it to know where the object ends. */
static hl_status_t parse_range(hl_s3_resp_headers_t *h, const char *v, size_t n, hl_error_t *err) {
  if (n < 6 || memcmp(v, "bytes ", 6) != 0) return malformed(err, "Content-Range", v, n);
  const char *p = v + 6, *end = v + n;
  const char *slash = memchr(p, '/', (size_t)(end - p));
  if (!slash) return malformed(err, "Content-Range", v, n);
  uint64_t total;
  if (!parse_u64(slash + 1, (size_t)(end - slash - 1), UINT64_MAX, &total))
    return malformed(err, "Content-Range", v, n);
  if (slash - p == 1 && *p == '*') {
    h->has_range = false;
    h->range_first = h->range_last = 0;
    h->range_total = total;
    return HL_OK;
  }
  const char *dash = memchr(p, '-', (size_t)(slash - p));
  uint64_t first, last;
  if (!dash || !parse_u64(p, (size_t)(dash - p), UINT64_MAX, &first) ||
      !parse_u64(dash + 1, (size_t)(slash - dash - 1), UINT64_MAX, &last) || first > last ||
      last >= total)
    return malformed(err, "Content-Range", v, n);
  h->has_range = true;
  h->range_first = first;
  h->range_last = last;
  h->range_total = total;
  return HL_OK;
}

/* Days from 1970-01-01 to Y-M-D (proleptic Gregorian), without timegm
 * and the process's time zone. */
static int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static bool two_digits(const char *s, int *out) {
  if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return false;
  *out = (s[0] - '0') * 10 + (s[1] - '0');
  return true;
}

/* RFC 9110 IMF-fixdate, the only form S3 sends: "Sun, 06 Nov 1994
 * 08:49:37 GMT" (29 bytes). */
static bool parse_http_date(const char *v, size_t n, int64_t *ns) {
  static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (n != 29 || v[3] != ',' || v[4] != ' ' || v[7] != ' ' || v[11] != ' ' || v[16] != ' ' ||
      v[19] != ':' || v[22] != ':' || v[25] != ' ' || memcmp(v + 26, "GMT", 3) != 0)
    return false;
  int day, mon = -1, c1, c2, hh, mm, ss;
  for (int i = 0; i < 12; i++)
    if (memcmp(v + 8, months + 3 * i, 3) == 0) mon = i + 1;
  if (mon < 0 || !two_digits(v + 5, &day) || !two_digits(v + 12, &c1) || !two_digits(v + 14, &c2) ||
      !two_digits(v + 17, &hh) || !two_digits(v + 20, &mm) || !two_digits(v + 23, &ss))
    return false;
  /* nanoseconds since 1970 in an int64_t reach into 2262 */
  int year = c1 * 100 + c2;
  if (year < 1970 || year > 2261 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60)
    return false;
  int64_t days = days_from_civil(year, mon, day);
  *ns = ((days * 86400) + hh * 3600 + mm * 60 + ss) * 1000000000LL;
  return true;
}

hl_status_t hl_s3_parse_header_line(hl_s3_resp_headers_t *h, const char *line, size_t len,
                                    hl_error_t *err) {
  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    len--;
  const char *colon = memchr(line, ':', len);
  if (!colon) return HL_OK; /* the status line, the blank line ending the block */
  size_t nn = (size_t)(colon - line);
  const char *v = colon + 1, *end = line + len;
  while (v < end && is_ows(*v))
    v++;
  while (end > v && is_ows(end[-1]))
    end--;
  size_t vn = (size_t)(end - v);

  if (name_is(line, nn, "content-length")) {
    uint64_t n;
    if (!parse_u64(v, vn, INT64_MAX, &n)) return malformed(err, "Content-Length", v, vn);
    h->content_length = (int64_t)n;
    return HL_OK;
  }
  if (name_is(line, nn, "content-range")) return parse_range(h, v, vn, err);
  if (name_is(line, nn, "etag")) return copy_value(h->etag, sizeof h->etag, "ETag", v, vn, err);
  if (name_is(line, nn, "x-amz-request-id"))
    return copy_value(h->request_id, sizeof h->request_id, "x-amz-request-id", v, vn, err);
  if (name_is(line, nn, "location"))
    return copy_value(h->location, sizeof h->location, "Location", v, vn, err);
  if (name_is(line, nn, "x-amz-bucket-region"))
    return copy_value(h->region, sizeof h->region, "x-amz-bucket-region", v, vn, err);
  if (name_is(line, nn, "last-modified")) {
    if (!parse_http_date(v, vn, &h->mtime_ns)) return malformed(err, "Last-Modified", v, vn);
    return HL_OK;
  }
  return HL_OK;
}
