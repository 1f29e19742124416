/*
 * s3_sign.c -- AWS Signature Version 4 (the contract is in s3_sign.h).
 *
 * A signature is HMAC-SHA256 over a "string to sign" whose last line is
 * the SHA-256 of a canonical form of the request; the key is derived from
 * the secret through the date, region and service.  The canonical form is
 * where signers disagree, so each rule below says what it follows:
 *
 *  - path: as given (S3 signs the path exactly as sent, "//" and "."
 *    included); with normalize_path, dot segments removed and empty
 *    segments dropped, a trailing '/' kept when the path had one (what
 *    the AWS suite and botocore's SigV4Auth do).  The path is never
 *    encoded a second time: hivelite signs S3 only, where it is encoded
 *    once, by the caller.
 *  - query: split on '&' and the first '='; each name and value is
 *    percent-decoded and re-encoded, so a query sent encoded is not
 *    encoded twice and one sent raw gets encoded once; sorted by name,
 *    then value, as bytes; "name" alone becomes "name=".
 *  - headers: names lower-cased and sorted (stably: duplicates keep their
 *    order and are joined with ','), values trimmed and every run of
 *    white space, line breaks of folded values included, made one space.
 *
 * Everything lives in the caller's arena.  The secret is copied only into
 * the first HMAC key, which is wiped after use; no error names it.
 */
#include "storage/s3/s3_sign.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALGORITHM "AWS4-HMAC-SHA256"

/* ---- a growable string in the arena; OOM is sticky and checked once */

typedef struct sbuf {
  hl_arena_t *arena;
  char *p;
  size_t len, cap;
  bool oom;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *s, size_t n) {
  if (b->oom) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *p = hl_arena_realloc(b->arena, b->p, b->cap, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static void sb_str(sbuf_t *b, const char *s) {
  sb_add(b, s, strlen(s));
}

static char *sb_done(sbuf_t *b) {
  if (!b->oom && !b->p) sb_add(b, "", 0);
  return b->oom ? NULL : b->p;
}

/* ---- primitives */

static const char HEX_UPPER[] = "0123456789ABCDEF";
static const char HEX_LOWER[] = "0123456789abcdef";

static bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

char *hl_s3_uri_encode(hl_arena_t *arena, const char *s, size_t len, bool encode_slash) {
  char *out = hl_arena_alloc(arena, len * 3 + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (unreserved(c) || (c == '/' && !encode_slash)) {
      out[o++] = (char)c;
    } else {
      out[o++] = '%';
      out[o++] = HEX_UPPER[c >> 4];
      out[o++] = HEX_UPPER[c & 15];
    }
  }
  out[o] = '\0';
  return out;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Percent-decodes S[0..LEN) and encodes the result again (encode_slash):
 * the one canonical encoding, whatever the input's.  A '%' that does not
 * start a valid escape stands for itself.  '+' is a plus (SigV4 does not
 * use form encoding). */
static char *reencode(hl_arena_t *arena, const char *s, size_t len) {
  char *raw = hl_arena_alloc(arena, len + 1);
  if (!raw) return NULL;
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    int hi, lo;
    if (s[i] == '%' && i + 2 < len && (hi = hex_value(s[i + 1])) >= 0 &&
        (lo = hex_value(s[i + 2])) >= 0) {
      raw[n++] = (char)(hi << 4 | lo);
      i += 2;
    } else {
      raw[n++] = s[i];
    }
  }
  return hl_s3_uri_encode(arena, raw, n, true);
}

void hl_s3_sha256_hex(const void *data, size_t len, char out[65]) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
  for (unsigned int i = 0; i < 32; i++) {
    out[2 * i] = HEX_LOWER[md[i] >> 4];
    out[2 * i + 1] = HEX_LOWER[md[i] & 15];
  }
  out[64] = '\0';
}

/* Civil date of a day count since 1970-01-01 (proleptic Gregorian). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

void hl_s3_amz_date(int64_t unix_time, char out[17]) {
  /* Years 1970..9999 only (the format has four digits): times outside
   * are clamped to the range's ends. */
  const int64_t max_time = 253402300799; /* 9999-12-31T23:59:59Z */
  if (unix_time < 0) unix_time = 0;
  if (unix_time > max_time) unix_time = max_time;
  int64_t days = unix_time / 86400, secs = unix_time % 86400, y;
  int m, d;
  civil_from_days(days, &y, &m, &d);
  int v[6] = {(int)y, m, d, (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60)};
  int width[6] = {4, 2, 2, 2, 2, 2};
  size_t o = 0;
  for (int f = 0; f < 6; f++) {
    for (int k = width[f] - 1, x = v[f]; k >= 0; k--, x /= 10)
      out[o + (size_t)k] = (char)('0' + x % 10);
    o += (size_t)width[f];
    if (f == 2) out[o++] = 'T';
  }
  out[o++] = 'Z';
  out[o] = '\0';
}

/* ---- canonical request parts */

/* The path with dot segments and empty segments removed. */
static void normalized_path(sbuf_t *b, const char *path) {
  size_t len = strlen(path);
  /* segment start offsets in PATH, a stack popped by ".." */
  size_t *seg = hl_arena_alloc(b->arena, (len / 2 + 2) * sizeof *seg);
  size_t *seg_len = hl_arena_alloc(b->arena, (len / 2 + 2) * sizeof *seg_len);
  if (!seg || !seg_len) {
    b->oom = true;
    return;
  }
  size_t n = 0;
  for (size_t i = 0; i <= len;) {
    size_t j = i;
    while (j < len && path[j] != '/')
      j++;
    size_t l = j - i;
    if (l == 2 && path[i] == '.' && path[i + 1] == '.') {
      if (n) n--;
    } else if (l > 0 && !(l == 1 && path[i] == '.')) {
      seg[n] = i;
      seg_len[n++] = l;
    }
    i = j + 1;
  }
  sb_str(b, "/");
  for (size_t k = 0; k < n; k++) {
    if (k) sb_str(b, "/");
    sb_add(b, path + seg[k], seg_len[k]);
  }
  if (n && len && path[len - 1] == '/') sb_str(b, "/");
}

typedef struct qparam {
  const char *name, *value; /* encoded */
} qparam_t;

static int qparam_cmp(const void *a, const void *b) {
  const qparam_t *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->value, y->value);
}

/* The request's own parameters, canonically encoded, into *OUT (room for
 * EXTRA more); -1 on OOM. */
static int query_params(hl_arena_t *arena, const char *query, size_t extra, qparam_t **out,
                        size_t *n_out) {
  size_t n = 0, cap = extra + 1;
  for (const char *s = query; s && *s; s++)
    cap += *s == '&';
  qparam_t *p = hl_arena_alloc(arena, cap * sizeof *p);
  if (!p) return -1;
  for (const char *s = query; s && *s;) {
    const char *amp = strchr(s, '&');
    size_t len = amp ? (size_t)(amp - s) : strlen(s);
    if (len) { /* "a&&b": the empty piece is no parameter */
      const char *eq = memchr(s, '=', len);
      size_t nlen = eq ? (size_t)(eq - s) : len;
      p[n].name = reencode(arena, s, nlen);
      p[n].value = eq ? reencode(arena, eq + 1, len - nlen - 1) : "";
      if (!p[n].name || !p[n].value) return -1;
      n++;
    }
    s += len + (amp != NULL);
  }
  *out = p;
  *n_out = n;
  return 0;
}

static void canonical_query(sbuf_t *b, qparam_t *p, size_t n) {
  qsort(p, n, sizeof *p, qparam_cmp);
  for (size_t i = 0; i < n; i++) {
    if (i) sb_str(b, "&");
    sb_str(b, p[i].name);
    sb_str(b, "=");
    sb_str(b, p[i].value);
  }
}

typedef struct hdr {
  char *name; /* lower case */
  const char *value;
  size_t order; /* position in the input: duplicates keep it */
} hdr_t;

static int hdr_cmp(const void *a, const void *b) {
  const hdr_t *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->order > y->order) - (x->order < y->order);
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* VALUE trimmed, inner white space runs made one space. */
static void trimmed_value(sbuf_t *b, const char *v) {
  while (is_space(*v))
    v++;
  while (*v) {
    const char *w = v;
    while (*w && !is_space(*w))
      w++;
    sb_add(b, v, (size_t)(w - v));
    while (is_space(*w))
      w++;
    if (*w) sb_str(b, " ");
    v = w;
  }
}

/* The canonical headers block (each "name:value\n") and the signed-header
 * list ("a;b;c"). */
static int canonical_headers(const hl_s3_sign_in_t *in, hl_arena_t *arena, char **block,
                             char **signed_list, hl_error_t *err) {
  hdr_t *h = hl_arena_alloc(arena, (in->n_headers + 1) * sizeof *h);
  if (!h) return hl_err_nomem(err);
  for (size_t i = 0; i < in->n_headers; i++) {
    const char *name = in->headers[i].name;
    if (!name || !*name || !in->headers[i].value)
      return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                        "S3 signing: header %zu has no name or no value", i);
    h[i].name = hl_arena_strdup(arena, name);
    if (!h[i].name) return hl_err_nomem(err);
    for (char *c = h[i].name; *c; c++)
      if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    h[i].value = in->headers[i].value;
    h[i].order = i;
  }
  qsort(h, in->n_headers, sizeof *h, hdr_cmp);
  sbuf_t blk = {.arena = arena}, list = {.arena = arena};
  for (size_t i = 0; i < in->n_headers; i++) {
    bool same = i && strcmp(h[i].name, h[i - 1].name) == 0;
    if (same) {
      sb_str(&blk, ",");
    } else {
      if (i) sb_str(&blk, "\n");
      if (i) sb_str(&list, ";");
      sb_str(&blk, h[i].name);
      sb_str(&blk, ":");
      sb_str(&list, h[i].name);
    }
    trimmed_value(&blk, h[i].value);
  }
  if (in->n_headers) sb_str(&blk, "\n");
  *block = sb_done(&blk);
  *signed_list = sb_done(&list);
  if (!*block || !*signed_list) return hl_err_nomem(err);
  return HL_OK;
}

/* ---- the signature */

static hl_status_t check_in(const hl_s3_sign_in_t *in, hl_error_t *err) {
  const char *missing = !in->method                       ? "method"
                        : !in->path                       ? "path"
                        : !in->payload_sha256             ? "payload hash"
                        : !in->region                     ? "region"
                        : !in->service                    ? "service"
                        : !in->access_key                 ? "access key"
                        : !in->secret_key                 ? "secret key"
                        : (in->n_headers && !in->headers) ? "headers"
                                                          : NULL;
  if (missing)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "S3 signing: no %s", missing);
  return HL_OK;
}

static void to_hex(const unsigned char *md, size_t n, char *out) {
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = HEX_LOWER[md[i] >> 4];
    out[2 * i + 1] = HEX_LOWER[md[i] & 15];
  }
  out[2 * n] = '\0';
}

/* HMAC chain: "AWS4"+secret -> date -> region -> service -> "aws4_request"
 * -> the string to sign; the signature into SIG[65]. */
static hl_status_t hmac_chain(const hl_s3_sign_in_t *in, hl_arena_t *arena, const char *date8,
                              const char *sts, char sig[65], hl_error_t *err) {
  size_t slen = strlen(in->secret_key);
  unsigned char *k0 = hl_arena_alloc(arena, slen + 4);
  if (!k0) return hl_err_nomem(err);
  memcpy(k0, "AWS4", 4);
  memcpy(k0 + 4, in->secret_key, slen);
  const char *msgs[5] = {date8, in->region, in->service, "aws4_request", sts};
  unsigned char key[EVP_MAX_MD_SIZE];
  unsigned int klen = 0;
  bool ok = HMAC(EVP_sha256(), k0, (int)(slen + 4), (const unsigned char *)msgs[0], strlen(msgs[0]),
                 key, &klen) != NULL;
  OPENSSL_cleanse(k0, slen + 4);
  unsigned char next[EVP_MAX_MD_SIZE]; /* HMAC's output must not alias its key */
  for (int i = 1; ok && i < 5; i++) {
    ok = HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)msgs[i], strlen(msgs[i]), next,
              &klen) != NULL;
    memcpy(key, next, sizeof key);
  }
  if (ok) to_hex(key, klen, sig);
  OPENSSL_cleanse(key, sizeof key);
  OPENSSL_cleanse(next, sizeof next);
  if (!ok)
    return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR), "S3 signing: HMAC-SHA256 failed");
  return HL_OK;
}

/* Signs with the request's own query plus X_AMZ[0..N_X_AMZ) (already
 * encoded) in the canonical query; fills OUT's first three fields. */
static hl_status_t sign(const hl_s3_sign_in_t *in, const qparam_t *x_amz, size_t n_x_amz,
                        const char *hdr_block, const char *signed_list, hl_arena_t *arena,
                        hl_s3_sign_out_t *out, hl_error_t *err) {
  char amz_date[17];
  hl_s3_amz_date(in->unix_time, amz_date);
  qparam_t *params;
  size_t n;
  if (query_params(arena, in->query, n_x_amz, &params, &n) < 0) return hl_err_nomem(err);
  if (n_x_amz) memcpy(params + n, x_amz, n_x_amz * sizeof *x_amz);
  n += n_x_amz;

  sbuf_t cr = {.arena = arena};
  sb_str(&cr, in->method);
  sb_str(&cr, "\n");
  if (in->normalize_path)
    normalized_path(&cr, in->path);
  else
    sb_str(&cr, *in->path ? in->path : "/");
  sb_str(&cr, "\n");
  canonical_query(&cr, params, n);
  sb_str(&cr, "\n");
  sb_str(&cr, hdr_block);
  sb_str(&cr, "\n");
  sb_str(&cr, signed_list);
  sb_str(&cr, "\n");
  sb_str(&cr, in->payload_sha256);
  out->canonical_request = sb_done(&cr);
  if (!out->canonical_request) return hl_err_nomem(err);

  char cr_hash[65];
  hl_s3_sha256_hex(cr.p, cr.len, cr_hash);
  out->string_to_sign = hl_arena_sprintf(arena, ALGORITHM "\n%s\n%.8s/%s/%s/aws4_request\n%s",
                                         amz_date, amz_date, in->region, in->service, cr_hash);
  out->signature = hl_arena_alloc(arena, 65);
  if (!out->string_to_sign || !out->signature) return hl_err_nomem(err);
  char date8[9];
  memcpy(date8, amz_date, 8);
  date8[8] = '\0';
  return hmac_chain(in, arena, date8, out->string_to_sign, out->signature, err);
}

hl_status_t hl_s3_sign_header(const hl_s3_sign_in_t *in, hl_arena_t *arena, hl_s3_sign_out_t *out,
                              hl_error_t *err) {
  memset(out, 0, sizeof *out);
  char *block, *list;
  if (check_in(in, err) || canonical_headers(in, arena, &block, &list, err)) return err->code;
  hl_status_t st = sign(in, NULL, 0, block, list, arena, out, err);
  if (st) return st;
  char amz_date[17];
  hl_s3_amz_date(in->unix_time, amz_date);
  out->authorization = hl_arena_sprintf(
      arena, ALGORITHM " Credential=%s/%.8s/%s/%s/aws4_request, SignedHeaders=%s, Signature=%s",
      in->access_key, amz_date, in->region, in->service, list, out->signature);
  if (!out->authorization) return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_s3_sign_query(const hl_s3_sign_in_t *in, hl_arena_t *arena, hl_s3_sign_out_t *out,
                             hl_error_t *err) {
  memset(out, 0, sizeof *out);
  char *block, *list;
  if (check_in(in, err) || canonical_headers(in, arena, &block, &list, err)) return err->code;
  /* S3 accepts 1 s .. 7 days */
  if (in->expires < 1 || in->expires > 604800)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "S3 signing: expiry of %lld s is not between 1 s and 7 days",
                      (long long)in->expires);
  char amz_date[17];
  hl_s3_amz_date(in->unix_time, amz_date);
  const char *credential = hl_arena_sprintf(arena, "%s/%.8s/%s/%s/aws4_request", in->access_key,
                                            amz_date, in->region, in->service);
  const char *expires = hl_arena_sprintf(arena, "%lld", (long long)in->expires);
  if (!credential || !expires) return hl_err_nomem(err);
  /* in the order they are sent (the AWS suite's); the canonical query sorts */
  qparam_t x[6] = {
      {"X-Amz-Algorithm", ALGORITHM},
      {"X-Amz-Credential", hl_s3_uri_encode(arena, credential, strlen(credential), true)},
      {"X-Amz-Date", hl_arena_strdup(arena, amz_date)},
      {"X-Amz-SignedHeaders", hl_s3_uri_encode(arena, list, strlen(list), true)},
      {"X-Amz-Expires", expires},
      {"X-Amz-Security-Token", in->session_token ? hl_s3_uri_encode(arena, in->session_token,
                                                                    strlen(in->session_token), true)
                                                 : ""},
  };
  size_t n_x = in->session_token ? 6 : 5;
  for (size_t i = 0; i < n_x; i++)
    if (!x[i].value) return hl_err_nomem(err);
  hl_status_t st = sign(in, x, n_x, block, list, arena, out, err);
  if (st) return st;

  sbuf_t q = {.arena = arena};
  if (in->query && *in->query) {
    sb_str(&q, in->query);
    sb_str(&q, "&");
  }
  for (size_t i = 0; i < n_x; i++) {
    sb_str(&q, x[i].name);
    sb_str(&q, "=");
    sb_str(&q, x[i].value);
    sb_str(&q, "&");
  }
  sb_str(&q, "X-Amz-Signature=");
  sb_str(&q, out->signature);
  out->signed_query = sb_done(&q);
  if (!out->signed_query) return hl_err_nomem(err);
  return HL_OK;
}
