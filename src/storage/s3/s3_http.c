/*
 * s3_http.c -- one S3 REST request over libcurl, signed and retried
 * (s3_client_int.h): URL building, the pool of easy handles, the header
 * and body callbacks, the retry loop and the error message.
 *
 * Connections are reused through a mutex-protected pool of easy handles:
 * a handle keeps its connection cache across curl_easy_reset, so a
 * thread that takes one usually finds a live connection, and no handle is
 * ever used by two threads at once (libcurl's rule).  curl_global_init is
 * not thread-safe and runs once per process (pthread_once).
 *
 * Every attempt is built from scratch (reset handle, fresh signature with
 * the current time), so a retry repeats exactly the request, never half of
 * an earlier one.  Redirects are never followed: a 3xx is reported with
 * the region or Location it names.
 */
#include "storage/s3/s3_client_int.h"

#include "util/mem.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---- endpoint and URL */

hl_status_t hl_s3_endpoint_parse(const char *endpoint, const char *region, bool path_style,
                                 hl_arena_t *arena, hl_s3_endpoint_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  out->path_style = path_style;
  if (!endpoint || !*endpoint) {
    out->https = true;
    out->scheme = hl_arena_strdup(arena, "https");
    out->hostport = hl_arena_sprintf(arena, "s3.%s.amazonaws.com", region);
    if (!out->scheme || !out->hostport) return hl_err_nomem(err);
    return HL_OK;
  }
  const char *rest;
  if (strncmp(endpoint, "https://", 8) == 0) {
    out->https = true;
    rest = endpoint + 8;
  } else if (strncmp(endpoint, "http://", 7) == 0) {
    rest = endpoint + 7;
  } else {
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid S3 endpoint \"%s\": it must start with http:// or https://",
                      endpoint);
  }
  size_t n = strcspn(rest, "/?#");
  const char *tail = rest + n;
  if (n == 0 || memchr(rest, '@', n) || (*tail && strcmp(tail, "/") != 0))
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid S3 endpoint \"%s\": expected scheme://host[:port] without a path",
                      endpoint);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)rest[i];
    if (ch <= ' ' || ch >= 0x7f)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "invalid S3 endpoint \"%s\": bad character in the host", endpoint);
  }
  out->scheme = hl_arena_strdup(arena, out->https ? "https" : "http");
  out->hostport = hl_arena_strndup(arena, rest, n);
  if (!out->scheme || !out->hostport) return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_s3_build_url(const hl_s3_endpoint_t *ep, const char *bucket, const char *key,
                            const char *query, hl_arena_t *arena, hl_s3_url_t *out,
                            hl_error_t *err) {
  char *ebucket = hl_s3_uri_encode(arena, bucket, strlen(bucket), true);
  char *ekey = key ? hl_s3_uri_encode(arena, key, strlen(key), false) : NULL;
  if (!ebucket || (key && !ekey)) return hl_err_nomem(err);
  if (ep->path_style) {
    out->host = hl_arena_strdup(arena, ep->hostport);
    out->path = key ? hl_arena_sprintf(arena, "/%s/%s", ebucket, ekey)
                    : hl_arena_sprintf(arena, "/%s", ebucket);
  } else {
    out->host = hl_arena_sprintf(arena, "%s.%s", ebucket, ep->hostport);
    out->path = key ? hl_arena_sprintf(arena, "/%s", ekey) : hl_arena_strdup(arena, "/");
  }
  if (!out->host || !out->path) return hl_err_nomem(err);
  bool q = query && *query;
  out->url = hl_arena_sprintf(arena, "%s://%s%s%s%s", ep->scheme, out->host, out->path,
                              q ? "?" : "", q ? query : "");
  if (!out->url) return hl_err_nomem(err);
  return HL_OK;
}

/* ---- retry classification */

static bool code_is(const char *code, const char *want) {
  return code && strcmp(code, want) == 0;
}

hl_s3_fail_t hl_s3_classify(bool curl_ok, long status, const char *code) {
  if (!curl_ok) return HL_S3_FAIL_TRANSIENT;
  /* codes S3 documents as "try again", whatever status carries them (a
   * CompleteMultipartUpload may send them in a 200) */
  if (code_is(code, "SlowDown") || code_is(code, "RequestTimeout") ||
      code_is(code, "InternalError") || code_is(code, "ServiceUnavailable") ||
      code_is(code, "OperationAborted") || code_is(code, "ConditionalRequestConflict"))
    return HL_S3_FAIL_TRANSIENT;
  if (status >= 200 && status < 300) return code ? HL_S3_FAIL_FINAL : HL_S3_FAIL_NONE;
  if (status == 429 || status == 500 || status == 502 || status == 503 || status == 504)
    return HL_S3_FAIL_TRANSIENT;
  return HL_S3_FAIL_FINAL;
}

void hl_s3_error_state(long status, const char *code, bool conditional_write,
                       hl_status_t *status_out, const char **sqlstate) {
  if (code_is(code, "NoSuchKey") || code_is(code, "NoSuchBucket") ||
      code_is(code, "NoSuchUpload") || (!code && status == 404)) {
    *status_out = HL_NOTFOUND;
    *sqlstate = HL_SS(UNDEFINED_FILE);
  } else if (code_is(code, "AccessDenied") || code_is(code, "InvalidAccessKeyId") ||
             code_is(code, "SignatureDoesNotMatch") ||
             (!code && (status == 401 || status == 403))) {
    *status_out = HL_ERROR;
    *sqlstate = HL_SS(INVALID_AUTHORIZATION_SPECIFICATION);
  } else if (conditional_write && (code_is(code, "PreconditionFailed") || status == 412)) {
    *status_out = HL_CONSTRAINT;
    *sqlstate = HL_SS(DUPLICATE_FILE);
  } else if (!conditional_write && (code_is(code, "PreconditionFailed") || status == 412)) {
    *status_out = HL_ERROR;
    *sqlstate = HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE);
  } else {
    *status_out = HL_IOERR;
    *sqlstate = HL_SS(IO_ERROR);
  }
}

int64_t hl_s3_backoff_ms(uint64_t *state, int64_t base_ms, int attempt) {
  uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *state = x;
  int64_t ceil = base_ms;
  for (int i = 0; i < attempt && ceil < HL_S3_BACKOFF_CAP_MS; i++)
    ceil *= 2;
  if (ceil > HL_S3_BACKOFF_CAP_MS) ceil = HL_S3_BACKOFF_CAP_MS;
  if (ceil <= 0) return 0;
  return (int64_t)(x % (uint64_t)ceil);
}

/* ---- requests */

void hl_s3_req_init(hl_s3_req_t *r, hl_s3_kind_t kind, const char *method, const char *verb,
                    const char *bucket, const char *key) {
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->method = method;
  r->verb = verb;
  r->bucket = bucket;
  r->key = key;
  hl_buf_init(&r->xml);
  hl_s3_resp_headers_init(&r->hdr);
}

void hl_s3_req_fini(hl_s3_req_t *r) {
  hl_buf_fini(&r->xml);
}

void hl_s3_req_header(hl_s3_req_t *r, const char *name, const char *value) {
  if (r->n_extra < sizeof r->extra / sizeof r->extra[0])
    r->extra[r->n_extra++] = (hl_s3_kv_t){name, value};
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;
static void curl_init(void) {
  curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

hl_status_t hl_s3_curl_init(hl_error_t *err) {
  pthread_once(&curl_once, curl_init);
  if (curl_init_rc != CURLE_OK)
    return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not initialize libcurl: %s",
                      curl_easy_strerror(curl_init_rc));
  return HL_OK;
}

static CURL *pool_take(hl_s3_client_t *c) {
  CURL *h = NULL;
  pthread_mutex_lock(&c->pool_mu);
  if (c->n_pool > 0) h = c->pool[--c->n_pool];
  pthread_mutex_unlock(&c->pool_mu);
  return h ? h : curl_easy_init();
}

static void pool_give(hl_s3_client_t *c, CURL *h) {
  pthread_mutex_lock(&c->pool_mu);
  if (c->n_pool == c->cap_pool) {
    size_t cap = c->cap_pool ? 2 * c->cap_pool : 8;
    void **p = hl_realloc(c->pool, cap * sizeof *p);
    if (p) {
      c->pool = p;
      c->cap_pool = cap;
    }
  }
  if (c->n_pool < c->cap_pool) {
    c->pool[c->n_pool++] = h;
    h = NULL;
  }
  pthread_mutex_unlock(&c->pool_mu);
  if (h) curl_easy_cleanup(h); /* no room (OOM): drop it */
}

void hl_s3_pool_fini(hl_s3_client_t *c) {
  for (size_t i = 0; i < c->n_pool; i++)
    curl_easy_cleanup(c->pool[i]);
  hl_free(c->pool);
  c->pool = NULL;
  c->n_pool = c->cap_pool = 0;
}

/* State of one attempt, seen by the callbacks. */
typedef struct attempt {
  hl_s3_req_t *r;
  hl_error_t herr;   /* a malformed header line */
  bool overflow;     /* more body than BUF (GET) or HL_S3_XML_MAX_BODY */
  bool to_buf;       /* the body of this reply goes to r->buf */
  uint64_t received; /* body bytes of this reply */
  size_t sent;       /* upload position */
} attempt_t;

static size_t on_header(char *data, size_t size, size_t nitems, void *arg) {
  attempt_t *a = arg;
  size_t n = size * nitems;
  hl_s3_req_t *r = a->r;
  if (n >= 5 && memcmp(data, "HTTP/", 5) == 0) {
    /* a new reply (after a 100 Continue): forget the previous block */
    hl_s3_resp_headers_init(&r->hdr);
    const char *sp = memchr(data, ' ', n);
    long st = 0;
    if (sp && (size_t)(sp - data) + 4 <= n) {
      for (int i = 1; i <= 3; i++) {
        char ch = sp[i];
        if (ch < '0' || ch > '9') {
          st = 0;
          break;
        }
        st = st * 10 + (ch - '0');
      }
    }
    r->status = st;
    return n;
  }
  if (hl_s3_parse_header_line(&r->hdr, data, n, &a->herr) != HL_OK) return 0; /* abort */
  return n;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg) {
  attempt_t *a = arg;
  hl_s3_req_t *r = a->r;
  size_t n = size * nmemb;
  a->received += n;
  bool to_buf = r->buf && r->status >= 200 && r->status < 300;
  if (to_buf) {
    if (n > r->len - r->got) {
      /* more than asked for: keep what fits (a whole-object 200 from
       * offset 0 is then complete), stop the transfer */
      memcpy((char *)r->buf + r->got, data, r->len - r->got);
      r->got = r->len;
      a->overflow = true;
      return 0;
    }
    memcpy((char *)r->buf + r->got, data, n);
    r->got += n;
    return n;
  }
  if (n > HL_S3_XML_MAX_BODY - r->xml.len) {
    a->overflow = true;
    return 0;
  }
  hl_buf_append(&r->xml, data, n);
  return r->xml.oom ? 0 : n;
}

static size_t on_read(char *dst, size_t size, size_t nitems, void *arg) {
  attempt_t *a = arg;
  size_t room = size * nitems, left = a->r->body_len - a->sent;
  size_t n = left < room ? left : room;
  if (n) memcpy(dst, (const char *)a->r->body + a->sent, n);
  a->sent += n;
  return n;
}

static void sleep_ms(int64_t ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* The header list of one attempt (signed when the client has keys). */
static hl_status_t build_headers(hl_s3_client_t *c, hl_s3_req_t *r, const hl_s3_url_t *u,
                                 const char *payload, hl_arena_t *a, struct curl_slist **out,
                                 hl_error_t *err) {
  hl_s3_kv_t signed_h[4];
  size_t ns = 0;
  char date[17];
  int64_t now = (int64_t)time(NULL); /* the date signed is the one sent */
  signed_h[ns++] = (hl_s3_kv_t){"Host", u->host};
  if (c->access_key) {
    hl_s3_amz_date(now, date);
    signed_h[ns++] = (hl_s3_kv_t){"x-amz-content-sha256", payload};
    signed_h[ns++] = (hl_s3_kv_t){"x-amz-date", date};
    if (c->session_token) signed_h[ns++] = (hl_s3_kv_t){"x-amz-security-token", c->session_token};
  }
  /* a header value with a line break would smuggle headers in: refuse
   * (an ETag comes from a server's reply) */
  for (size_t i = 0; i < r->n_extra; i++)
    if (strpbrk(r->extra[i].value, "\r\n"))
      return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                        "could not %s s3://%s%s%s: a line break in the %s header", r->verb,
                        r->bucket, r->key ? "/" : "", r->key ? r->key : "", r->extra[i].name);
  struct curl_slist *list = NULL, *t;
  hl_buf_t line;
  hl_buf_init(&line);
#define ADD(name, value)                                                                           \
  do {                                                                                             \
    hl_buf_reset(&line);                                                                           \
    hl_buf_printf(&line, "%s: %s", (name), (value));                                               \
    t = line.oom ? NULL : curl_slist_append(list, hl_buf_cstr(&line));                             \
    if (!t) goto oom;                                                                              \
    list = t;                                                                                      \
  } while (0)
  for (size_t i = 0; i < ns; i++)
    ADD(signed_h[i].name, signed_h[i].value);
  for (size_t i = 0; i < r->n_extra; i++)
    ADD(r->extra[i].name, r->extra[i].value);
  if (c->access_key) {
    hl_s3_sign_in_t in = {
        .method = r->method,
        .path = u->path,
        .query = r->query,
        .headers = signed_h,
        .n_headers = ns,
        .payload_sha256 = payload,
        .region = c->region,
        .service = "s3",
        .access_key = c->access_key,
        .secret_key = c->secret_key,
        .session_token = c->session_token,
        .unix_time = now,
    };
    hl_s3_sign_out_t so;
    hl_error_t serr;
    hl_err_init(&serr);
    if (hl_s3_sign_header(&in, a, &so, &serr) != HL_OK) {
      hl_err_move(err, &serr);
      hl_buf_fini(&line);
      curl_slist_free_all(list);
      return err->code;
    }
    ADD("Authorization", so.authorization);
  }
  /* no "Expect: 100-continue" round trip before a large body (each
   * request sets its own Content-Type where it sends a body) */
  t = curl_slist_append(list, "Expect:");
  if (!t) goto oom;
  list = t;
  hl_buf_fini(&line);
  *out = list;
  return HL_OK;
oom:
  hl_buf_fini(&line);
  curl_slist_free_all(list);
  return hl_err_nomem(err);
#undef ADD
}

/* Sets up H for one attempt of R to U. */
static void setup_handle(hl_s3_client_t *c, CURL *h, hl_s3_req_t *r, const hl_s3_url_t *u,
                         struct curl_slist *headers, attempt_t *a, char *errbuf) {
  curl_easy_reset(h);
  curl_easy_setopt(h, CURLOPT_URL, u->url);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  /* the handles are this client's own, so its authorities stay theirs */
  if (c->ca_file) curl_easy_setopt(h, CURLOPT_CAINFO, c->ca_file);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)c->connect_timeout_ms);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)c->request_timeout_ms);
  /* a body that stops flowing for as long as a connect may take is a
   * stalled connection: time it out and retry, well before the whole
   * request's limit */
  long stall_s = (long)((c->connect_timeout_ms + 999) / 1000);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, stall_s < 1 ? 1L : stall_s);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, a);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, a);
  if (strcmp(r->method, "HEAD") == 0) {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (strcmp(r->method, "PUT") == 0) {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(h, CURLOPT_READDATA, a);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)r->body_len);
  } else if (strcmp(r->method, "POST") == 0) {
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, r->body ? (const char *)r->body : "");
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
  } else if (strcmp(r->method, "GET") != 0) {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r->method);
  }
}

/* Seeds the jitter of one request: the clock, the request's own address
 * and its name, so that concurrent requests do not back off in step. */
static uint64_t jitter_seed(const hl_s3_req_t *r) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)(uintptr_t)r;
  const char *s = r->key ? r->key : r->bucket;
  for (; *s; s++)
    x = (x ^ (unsigned char)*s) * 0x100000001b3ull;
  x ^= r->range_first * 0x9e3779b97f4a7c15ull;
  return x ? x : 1;
}

/* Quotes stripped for comparing ETags (a server may send either form). */
static bool etag_eq(const char *a, const char *b) {
  size_t an = strlen(a), bn = strlen(b);
  if (an >= 2 && a[0] == '"' && a[an - 1] == '"') a++, an -= 2;
  if (bn >= 2 && b[0] == '"' && b[bn - 1] == '"') b++, bn -= 2;
  return an == bn && memcmp(a, b, an) == 0;
}

/* What went wrong with one attempt, kept for the final message. */
typedef struct outcome {
  hl_s3_fail_t fail;
  bool curl_ok;
  char why[300]; /* a transport error or a mismatch, when there is no HTTP error to show */
  const char *sqlstate_override; /* 08P01, 55000: not from the status */
  hl_status_t code_override;
} outcome_t;

/* Judges a completed transfer of R. */
static void judge(hl_s3_req_t *r, attempt_t *a, CURLcode rc, const char *errbuf, hl_arena_t *arena,
                  outcome_t *o) {
  memset(o, 0, sizeof *o);
  r->s3err = (hl_s3_error_t){0};
  if (a->herr.code != HL_OK) {
    o->fail = HL_S3_FAIL_FINAL;
    o->curl_ok = true;
    snprintf(o->why, sizeof o->why, "%s", a->herr.message);
    o->sqlstate_override = HL_SS(PROTOCOL_VIOLATION);
    o->code_override = HL_CORRUPT;
    return;
  }
  if (a->overflow && !(r->buf && r->status >= 200 && r->status < 300)) {
    o->fail = HL_S3_FAIL_FINAL;
    o->curl_ok = true;
    snprintf(o->why, sizeof o->why, "the reply body is longer than %u bytes",
             (unsigned)HL_S3_XML_MAX_BODY);
    o->sqlstate_override = HL_SS(PROTOCOL_VIOLATION);
    o->code_override = HL_CORRUPT;
    return;
  }
  if (rc != CURLE_OK && !a->overflow) {
    /* a certificate nobody vouches for, or a URL curl refuses, stays so:
     * no retry, and 08001 (no connection could be made) */
    bool final = rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE ||
                 rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_SSL_ISSUER_ERROR ||
                 rc == CURLE_SSL_PINNEDPUBKEYNOTMATCH || rc == CURLE_UNSUPPORTED_PROTOCOL ||
                 rc == CURLE_URL_MALFORMAT;
    o->fail = final ? HL_S3_FAIL_FINAL : HL_S3_FAIL_TRANSIENT;
    if (final) {
      o->sqlstate_override = HL_SS(SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION);
      o->code_override = HL_IOERR;
    }
    snprintf(o->why, sizeof o->why, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
    size_t n = strlen(o->why);
    while (n > 0 && (o->why[n - 1] == '\n' || o->why[n - 1] == '.'))
      o->why[--n] = '\0';
    return;
  }
  o->curl_ok = true;
  if (r->xml.len > 0 && !(r->status >= 200 && r->status < 300 && r->kind != HL_S3_MPU_COMPLETE)) {
    hl_s3_error_t e;
    bool is_error = false;
    hl_error_t xerr;
    hl_err_init(&xerr);
    if (hl_s3_xml_parse_error(r->xml.data, r->xml.len, arena, &e, &is_error, &xerr) == HL_OK &&
        is_error)
      r->s3err = e;
    hl_err_clear(&xerr);
  }
  if (r->buf && r->status == 416) {
    /* the range starts at or after the end of the object: nothing to read */
    r->got = 0;
    o->fail = HL_S3_FAIL_NONE;
    return;
  }
  if (r->if_match && r->status == 412) {
    /* S3's answer to If-Match with another ETag: the same as seeing it */
    o->fail = HL_S3_FAIL_FINAL;
    snprintf(o->why, sizeof o->why,
             "the object changed while it was read (HTTP 412%s%s, expected ETag %s)",
             r->s3err.code ? " " : "", r->s3err.code ? r->s3err.code : "", r->if_match);
    o->sqlstate_override = HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE);
    o->code_override = HL_ERROR;
    return;
  }
  o->fail = hl_s3_classify(true, r->status, r->s3err.code);
  if (o->fail == HL_S3_FAIL_FINAL && r->not_found_ok && r->status == 404 &&
      !code_is(r->s3err.code, "NoSuchBucket")) {
    o->fail = HL_S3_FAIL_NONE;
    return;
  }
  if (o->fail != HL_S3_FAIL_NONE) return;
  /* a 2xx: the object asked for? */
  if (r->if_match && r->hdr.etag[0] && !etag_eq(r->if_match, r->hdr.etag)) {
    o->fail = HL_S3_FAIL_FINAL;
    snprintf(o->why, sizeof o->why, "the object changed while it was read (ETag %s, expected %s)",
             r->hdr.etag, r->if_match);
    o->sqlstate_override = HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE);
    o->code_override = HL_ERROR;
    return;
  }
  /* a reply that starts where asked and goes on further: a 200 to a
   * ranged GET is the whole object (a server that ignored the Range), a
   * 206 may hold more than asked (s3rver reads "bytes=0-0" as "bytes=0-");
   * its first LEN bytes are the range, and the transfer was stopped there
   * on purpose */
  bool whole_from_0 = r->buf && r->status == 200 && r->range_first == 0;
  bool longer = r->buf && r->status == 206 && r->hdr.has_range &&
                r->hdr.range_first == r->range_first &&
                r->hdr.range_last - r->hdr.range_first >= r->len;
  if ((whole_from_0 || longer) && a->overflow && r->got == r->len) return;
  /* all of the body? */
  if (r->hdr.content_length >= 0 && a->received < (uint64_t)r->hdr.content_length &&
      strcmp(r->method, "HEAD") != 0 && !a->overflow) {
    o->fail = HL_S3_FAIL_TRANSIENT;
    snprintf(o->why, sizeof o->why, "the reply body ended after %llu of %lld bytes",
             (unsigned long long)a->received, (long long)r->hdr.content_length);
    return;
  }
  if (r->buf && !whole_from_0) {
    /* the range must be the one asked for: [first, first+len), or its
     * part up to the end of the object */
    bool ok = r->status == 206 && r->hdr.has_range && r->hdr.range_first == r->range_first &&
              !a->overflow && r->hdr.range_last - r->hdr.range_first + 1 == r->got &&
              (r->got == r->len || r->hdr.range_last + 1 == r->hdr.range_total);
    if (!ok) {
      o->fail = HL_S3_FAIL_TRANSIENT;
      o->sqlstate_override = HL_SS(PROTOCOL_VIOLATION);
      o->code_override = HL_CORRUPT;
      if (r->hdr.has_range)
        snprintf(o->why, sizeof o->why,
                 "the reply holds bytes %llu-%llu (%zu bytes), not the range asked for",
                 (unsigned long long)r->hdr.range_first, (unsigned long long)r->hdr.range_last,
                 r->got);
      else
        snprintf(o->why, sizeof o->why,
                 "the reply (HTTP %ld, %zu bytes) is not the range asked for", r->status, r->got);
    }
  }
}

static hl_status_t fail_message(hl_s3_req_t *r, const outcome_t *o, hl_error_t *err) {
  hl_buf_t m;
  hl_buf_init(&m);
  hl_buf_printf(&m, "could not %s s3://%s%s%s%s: ", r->verb, r->bucket, r->key ? "/" : "",
                r->key ? r->key : "", r->detail ? r->detail : "");
  hl_status_t code;
  const char *ss;
  if (o->why[0]) {
    hl_buf_puts(&m, o->why);
    code = o->code_override ? o->code_override : HL_IOERR;
    ss = o->sqlstate_override ? o->sqlstate_override : HL_SS(IO_ERROR);
  } else {
    hl_buf_printf(&m, "HTTP %ld", r->status);
    if (r->s3err.code) hl_buf_printf(&m, " %s", r->s3err.code);
    if (r->s3err.message && *r->s3err.message) hl_buf_printf(&m, " \"%s\"", r->s3err.message);
    if (r->status >= 300 && r->status < 400) {
      if (r->hdr.region[0]) hl_buf_printf(&m, ": the bucket is in region \"%s\"", r->hdr.region);
      if (r->hdr.location[0]) hl_buf_printf(&m, " (Location \"%s\")", r->hdr.location);
      hl_buf_puts(&m, "; redirects are not followed");
    }
    hl_s3_error_state(r->status, r->s3err.code, r->conditional_write, &code, &ss);
  }
  if (r->attempts > 1) hl_buf_printf(&m, " after %d attempts", r->attempts);
  if (m.oom) {
    hl_buf_fini(&m);
    return hl_err_nomem(err);
  }
  hl_err_set(err, code, ss, "%s", hl_buf_cstr(&m));
  hl_buf_fini(&m);
  return code;
}

hl_status_t hl_s3_request(hl_s3_client_t *c, hl_s3_req_t *r, hl_arena_t *arena, hl_error_t *err) {
  hl_s3_url_t u;
  if (hl_s3_build_url(&c->ep, r->bucket, r->key, r->query, arena, &u, err) != HL_OK)
    return err->code;
  char payload[65];
  if (c->ep.https)
    snprintf(payload, sizeof payload, "UNSIGNED-PAYLOAD");
  else
    hl_s3_sha256_hex(r->body ? r->body : "", r->body_len, payload);
  uint64_t jitter = jitter_seed(r);
  CURL *h = pool_take(c);
  if (!h) return hl_err_nomem(err);
  outcome_t o = {0};
  hl_status_t st = HL_OK;
  for (r->attempts = 1;; r->attempts++) {
    struct curl_slist *headers = NULL;
    if (build_headers(c, r, &u, payload, arena, &headers, err) != HL_OK) {
      st = err->code;
      break;
    }
    attempt_t a = {.r = r};
    hl_err_init(&a.herr);
    char errbuf[CURL_ERROR_SIZE] = "";
    r->status = 0;
    r->got = 0;
    hl_buf_reset(&r->xml);
    hl_s3_resp_headers_init(&r->hdr);
    setup_handle(c, h, r, &u, headers, &a, errbuf);
    atomic_fetch_add_explicit(&c->requests[r->kind], 1, memory_order_relaxed);
    if (r->attempts > 1) atomic_fetch_add_explicit(&c->retries, 1, memory_order_relaxed);
    CURLcode rc = curl_easy_perform(h);
    atomic_fetch_add_explicit(&c->bytes_out, r->body_len, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->bytes_in, a.received, memory_order_relaxed);
    curl_slist_free_all(headers);
    if (r->xml.oom) {
      hl_err_clear(&a.herr);
      st = hl_err_nomem(err);
      break;
    }
    judge(r, &a, rc, errbuf, arena, &o);
    hl_err_clear(&a.herr);
    if (o.fail == HL_S3_FAIL_NONE) break;
    if (o.fail == HL_S3_FAIL_FINAL || r->attempts >= c->max_attempts) {
      st = fail_message(r, &o, err);
      break;
    }
    sleep_ms(hl_s3_backoff_ms(&jitter, c->retry_base_ms, r->attempts - 1));
  }
  pool_give(c, h);
  return st;
}
