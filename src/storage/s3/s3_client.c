/*
 * s3_client.c -- the S3 REST calls of s3_client.h, each one request (or a
 * loop of them) through hl_s3_request (s3_http.c), which signs, sends,
 * retries and names the failure.
 *
 * Queries are built here already encoded and sorted by parameter name,
 * so the string sent is the canonical query SigV4 signs.  Parallel range
 * reads use a few threads over one shared client (its handle pool is
 * thread-safe), each with an arena of its own.
 */
#include "storage/s3/s3_client_int.h"

#include "util/mem.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_MAX_ATTEMPTS  5
#define DEFAULT_RETRY_BASE_MS 100
#define DEFAULT_CONNECT_MS    10000
#define DEFAULT_REQUEST_MS    300000
#define DELETE_BATCH          1000 /* DeleteObjects' limit */
#define DEFAULT_PARALLEL      8

static char *dup_opt(hl_arena_t *a, const char *s, bool *oom) {
  if (!s) return NULL;
  char *d = hl_arena_strdup(a, s);
  if (!d) *oom = true;
  return d;
}

hl_s3_client_t *hl_s3_client_create(const hl_s3_config_t *cfg, hl_error_t *err) {
  if (cfg->max_attempts < 0 || cfg->retry_base_ms < 0 || cfg->connect_timeout_ms < 0 ||
      cfg->request_timeout_ms < 0) {
    hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
               "invalid S3 client configuration: negative attempts or times");
    return NULL;
  }
  if (cfg->access_key && !cfg->secret_key) {
    hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
               "invalid S3 client configuration: an access key without a secret key");
    return NULL;
  }
  if (hl_s3_curl_init(err) != HL_OK) return NULL;
  hl_s3_client_t *c = hl_calloc(1, sizeof *c);
  hl_arena_t *a = hl_arena_create(0);
  if (!c || !a) {
    hl_free(c);
    hl_arena_destroy(a);
    hl_err_nomem(err);
    return NULL;
  }
  c->arena = a;
  bool oom = false;
  c->region = dup_opt(a, cfg->region && *cfg->region ? cfg->region : "us-east-1", &oom);
  c->access_key = dup_opt(a, cfg->access_key, &oom);
  c->secret_key = cfg->access_key ? dup_opt(a, cfg->secret_key, &oom) : NULL;
  c->session_token = cfg->access_key ? dup_opt(a, cfg->session_token, &oom) : NULL;
  c->ca_file = dup_opt(a, cfg->ca_file, &oom);
  c->max_attempts = cfg->max_attempts ? cfg->max_attempts : DEFAULT_MAX_ATTEMPTS;
  c->retry_base_ms = cfg->retry_base_ms ? cfg->retry_base_ms : DEFAULT_RETRY_BASE_MS;
  c->connect_timeout_ms = cfg->connect_timeout_ms ? cfg->connect_timeout_ms : DEFAULT_CONNECT_MS;
  c->request_timeout_ms = cfg->request_timeout_ms ? cfg->request_timeout_ms : DEFAULT_REQUEST_MS;
  if (oom) {
    hl_arena_destroy(a);
    hl_free(c);
    hl_err_nomem(err);
    return NULL;
  }
  if (hl_s3_endpoint_parse(cfg->endpoint, c->region, cfg->path_style, a, &c->ep, err) != HL_OK) {
    hl_arena_destroy(a);
    hl_free(c);
    return NULL;
  }
  pthread_mutex_init(&c->pool_mu, NULL);
  return c;
}

void hl_s3_client_destroy(hl_s3_client_t *c) {
  if (!c) return;
  hl_s3_pool_fini(c);
  pthread_mutex_destroy(&c->pool_mu);
  hl_arena_destroy(c->arena);
  hl_free(c);
}

void hl_s3_client_stats(hl_s3_client_t *c, hl_s3_stats_t *out) {
  for (int i = 0; i < HL_S3_N_KINDS; i++)
    out->requests[i] = atomic_load_explicit(&c->requests[i], memory_order_relaxed);
  out->retries = atomic_load_explicit(&c->retries, memory_order_relaxed);
  out->bytes_in = atomic_load_explicit(&c->bytes_in, memory_order_relaxed);
  out->bytes_out = atomic_load_explicit(&c->bytes_out, memory_order_relaxed);
}

/* "&name=value" (value SigV4-encoded, '/' too) appended to Q; parameters
 * must be added in name order. */
static void q_add(hl_buf_t *q, hl_arena_t *a, const char *name, const char *value) {
  char *v = hl_s3_uri_encode(a, value, strlen(value), true);
  if (!v) {
    q->oom = 1;
    return;
  }
  hl_buf_printf(q, "%s%s=%s", q->len ? "&" : "", name, v);
}

static hl_status_t q_done(hl_buf_t *q, hl_arena_t *a, const char **out, hl_error_t *err) {
  char *s = q->oom ? NULL : hl_arena_strdup(a, hl_buf_cstr(q));
  hl_buf_fini(q);
  if (!s) return hl_err_nomem(err);
  *out = s;
  return HL_OK;
}

static hl_status_t not_s3(hl_s3_req_t *r, hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION), "could not %s s3://%s%s%s: %s",
                    r->verb, r->bucket, r->key ? "/" : "", r->key ? r->key : "", what);
}

/* Parse errors of a reply body named after the request. */
static hl_status_t prefix_parse_error(hl_s3_req_t *r, hl_error_t *err) {
  hl_err_prefix(err, "could not %s s3://%s%s%s", r->verb, r->bucket, r->key ? "/" : "",
                r->key ? r->key : "");
  return err->code;
}

hl_status_t hl_s3_head(hl_s3_client_t *c, const char *bucket, const char *key, hl_arena_t *arena,
                       bool *exists, hl_s3_object_t *out, hl_error_t *err) {
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_HEAD, "HEAD", "HEAD", bucket, key);
  r.not_found_ok = true;
  memset(out, 0, sizeof *out);
  *exists = false;
  hl_status_t st = hl_s3_request(c, &r, arena, err);
  if (st == HL_OK && r.status != 404) {
    if (r.hdr.content_length < 0) {
      st = not_s3(&r, err, "the reply has no Content-Length");
    } else {
      out->key = hl_arena_strdup(arena, key);
      out->etag = hl_arena_strdup(arena, r.hdr.etag);
      if (!out->key || !out->etag) {
        st = hl_err_nomem(err);
      } else {
        out->size = (uint64_t)r.hdr.content_length;
        out->mtime_ns = r.hdr.mtime_ns;
        *exists = true;
      }
    }
  }
  hl_s3_req_fini(&r);
  return st;
}

hl_status_t hl_s3_list_page(hl_s3_client_t *c, const char *bucket, const char *prefix,
                            const char *delimiter, const char *token, int max_keys,
                            hl_arena_t *arena, hl_s3_list_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  hl_buf_t q;
  hl_buf_init(&q);
  char mk[16];
  if (token) q_add(&q, arena, "continuation-token", token);
  if (delimiter) q_add(&q, arena, "delimiter", delimiter);
  q_add(&q, arena, "list-type", "2");
  snprintf(mk, sizeof mk, "%d", max_keys);
  if (max_keys > 0) q_add(&q, arena, "max-keys", mk);
  if (prefix && *prefix) q_add(&q, arena, "prefix", prefix);
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_LIST, "GET", "list", bucket, NULL);
  /* messages name the listed prefix: "could not list s3://b/t/: ..." */
  if (prefix && *prefix) r.detail = hl_arena_sprintf(arena, "/%s", prefix);
  hl_status_t st = q_done(&q, arena, &r.query, err);
  if (st == HL_OK) st = hl_s3_request(c, &r, arena, err);
  if (st == HL_OK && hl_s3_xml_parse_list(r.xml.data, r.xml.len, arena, out, err) != HL_OK)
    st = prefix_parse_error(&r, err);
  hl_s3_req_fini(&r);
  return st;
}

/* One GET of [OFFSET, OFFSET+LEN) into BUF; *GOT bytes came. */
static hl_status_t get_one(hl_s3_client_t *c, const char *bucket, const char *key, const char *etag,
                           uint64_t offset, size_t len, void *buf, size_t *got, hl_arena_t *arena,
                           hl_error_t *err) {
  *got = 0;
  if (len == 0) return HL_OK;
  if (len - 1 > UINT64_MAX - offset)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "could not GET s3://%s/%s: the range at %llu of %zu bytes passes 2^64",
                      bucket, key, (unsigned long long)offset, len);
  uint64_t last = offset + len - 1;
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_GET, "GET", "GET", bucket, key);
  char *range = hl_arena_sprintf(arena, "bytes=%llu-%llu", (unsigned long long)offset,
                                 (unsigned long long)last);
  r.detail = hl_arena_sprintf(arena, " (bytes %llu-%llu)", (unsigned long long)offset,
                              (unsigned long long)last);
  if (!range || !r.detail) return hl_err_nomem(err);
  hl_s3_req_header(&r, "Range", range);
  if (etag) hl_s3_req_header(&r, "If-Match", etag);
  r.ranged = true;
  r.range_first = offset;
  r.buf = buf;
  r.len = len;
  r.if_match = etag;
  hl_status_t st = hl_s3_request(c, &r, arena, err);
  if (st == HL_OK) *got = r.got;
  hl_s3_req_fini(&r);
  return st;
}

hl_status_t hl_s3_get_range(hl_s3_client_t *c, const char *bucket, const char *key,
                            const char *etag, uint64_t offset, size_t len, void *buf, size_t *got,
                            hl_error_t *err) {
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_status_t st = get_one(c, bucket, key, etag, offset, len, buf, got, a, err);
  hl_arena_destroy(a);
  return st;
}

/* hl_s3_get_ranges: the shared state of its workers. */
typedef struct ranges_job {
  hl_s3_client_t *c;
  const char *bucket, *key, *etag;
  const uint64_t *offsets;
  const size_t *lens;
  void *const *bufs;
  size_t n;
  pthread_mutex_t mu;
  size_t next;    /* the next range to fetch */
  hl_error_t err; /* the first failure; the others stop taking ranges */
} ranges_job_t;

static void *ranges_worker(void *arg) {
  ranges_job_t *j = arg;
  hl_arena_t *a = hl_arena_create(0);
  for (;;) {
    pthread_mutex_lock(&j->mu);
    size_t i = j->err.code == HL_OK ? j->next++ : j->n;
    if (!a && i < j->n) hl_err_nomem(&j->err);
    pthread_mutex_unlock(&j->mu);
    if (i >= j->n || !a) break;
    hl_error_t e;
    hl_err_init(&e);
    size_t got = 0;
    hl_status_t st = get_one(j->c, j->bucket, j->key, j->etag, j->offsets[i], j->lens[i],
                             j->bufs[i], &got, a, &e);
    if (st == HL_OK && got != j->lens[i])
      hl_err_set(&e, HL_IOERR, HL_SS(IO_ERROR),
                 "could not GET s3://%s/%s (bytes %llu-%llu): the object ends at byte %llu",
                 j->bucket, j->key, (unsigned long long)j->offsets[i],
                 (unsigned long long)(j->offsets[i] + j->lens[i] - 1),
                 (unsigned long long)(j->offsets[i] + got));
    hl_arena_reset(a);
    if (e.code != HL_OK) {
      pthread_mutex_lock(&j->mu);
      if (j->err.code == HL_OK) hl_err_move(&j->err, &e);
      pthread_mutex_unlock(&j->mu);
      hl_err_clear(&e);
    }
  }
  hl_arena_destroy(a);
  return NULL;
}

hl_status_t hl_s3_get_ranges(hl_s3_client_t *c, const char *bucket, const char *key,
                             const char *etag, const uint64_t *offsets, const size_t *lens,
                             void *const *bufs, size_t n, int max_parallel, hl_error_t *err) {
  if (n == 0) return HL_OK;
  ranges_job_t j = {.c = c,
                    .bucket = bucket,
                    .key = key,
                    .etag = etag,
                    .offsets = offsets,
                    .lens = lens,
                    .bufs = bufs,
                    .n = n};
  pthread_mutex_init(&j.mu, NULL);
  hl_err_init(&j.err);
  size_t workers = max_parallel > 0 ? (size_t)max_parallel : DEFAULT_PARALLEL;
  if (workers > n) workers = n;
  /* this thread is one worker; the rest are threads (fewer when a
   * thread cannot be started: the ranges still all get fetched) */
  pthread_t *tids = workers > 1 ? hl_calloc(workers - 1, sizeof *tids) : NULL;
  size_t started = 0;
  for (size_t i = 0; tids && i + 1 < workers; i++) {
    if (pthread_create(&tids[started], NULL, ranges_worker, &j) != 0) break;
    started++;
  }
  ranges_worker(&j);
  for (size_t i = 0; i < started; i++)
    pthread_join(tids[i], NULL);
  hl_free(tids);
  pthread_mutex_destroy(&j.mu);
  hl_status_t st = j.err.code;
  if (st != HL_OK) hl_err_move(err, &j.err);
  hl_err_clear(&j.err);
  return st;
}

hl_status_t hl_s3_put(hl_s3_client_t *c, const char *bucket, const char *key, const void *data,
                      size_t len, bool if_none_match, hl_arena_t *arena, char **etag,
                      hl_error_t *err) {
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_PUT, "PUT", "PUT", bucket, key);
  r.body = data;
  r.body_len = len;
  hl_s3_req_header(&r, "Content-Type", "application/octet-stream");
  if (if_none_match) {
    hl_s3_req_header(&r, "If-None-Match", "*");
    r.conditional_write = true;
  }
  hl_status_t st = hl_s3_request(c, &r, arena, err);
  if (st == HL_OK && etag) {
    *etag = hl_arena_strdup(arena, r.hdr.etag);
    if (!*etag) st = hl_err_nomem(err);
  }
  hl_s3_req_fini(&r);
  return st;
}

hl_status_t hl_s3_mpu_create(hl_s3_client_t *c, const char *bucket, const char *key,
                             hl_arena_t *arena, char **upload_id, hl_error_t *err) {
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_MPU_CREATE, "POST", "start a multipart upload of", bucket, key);
  r.query = "uploads=";
  hl_s3_req_header(&r, "Content-Type", "application/octet-stream");
  hl_status_t st = hl_s3_request(c, &r, arena, err);
  if (st == HL_OK &&
      hl_s3_xml_parse_initiate(r.xml.data, r.xml.len, arena, upload_id, err) != HL_OK)
    st = prefix_parse_error(&r, err);
  hl_s3_req_fini(&r);
  return st;
}

hl_status_t hl_s3_mpu_part(hl_s3_client_t *c, const char *bucket, const char *key,
                           const char *upload_id, int part_number, const void *data, size_t len,
                           hl_arena_t *arena, char **etag, hl_error_t *err) {
  if (part_number < 1 || part_number > 10000)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid part number %d for s3://%s/%s (1 to 10,000)", part_number, bucket,
                      key);
  hl_buf_t q;
  hl_buf_init(&q);
  char pn[16];
  snprintf(pn, sizeof pn, "%d", part_number);
  q_add(&q, arena, "partNumber", pn);
  q_add(&q, arena, "uploadId", upload_id);
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_MPU_PART, "PUT", "upload a part of", bucket, key);
  r.body = data;
  r.body_len = len;
  r.detail = hl_arena_sprintf(arena, " (part %d)", part_number);
  hl_status_t st = r.detail ? q_done(&q, arena, &r.query, err) : hl_err_nomem(err);
  if (!r.detail) hl_buf_fini(&q);
  if (st == HL_OK) st = hl_s3_request(c, &r, arena, err);
  if (st == HL_OK && !r.hdr.etag[0]) st = not_s3(&r, err, "the reply has no ETag");
  if (st == HL_OK) {
    *etag = hl_arena_strdup(arena, r.hdr.etag);
    if (!*etag) st = hl_err_nomem(err);
  }
  hl_s3_req_fini(&r);
  return st;
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The 16 bytes of an MD5 ETag ("\"<32 lower-case hex>\""), false when it
 * is not one (SSE-KMS parts, other servers). */
static bool etag_md5(const char *etag, unsigned char out[16]) {
  size_t n = strlen(etag);
  if (n == 34 && etag[0] == '"' && etag[33] == '"') etag++, n = 32;
  if (n != 32) return false;
  for (int i = 0; i < 16; i++) {
    int hi = hexval(etag[2 * i]), lo = hexval(etag[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = (unsigned char)(hi << 4 | lo);
  }
  return true;
}

/* Whether ETAG is the one S3 gives the object completed from parts with
 * ETAGS[0..N_PARTS): "<hex>-N", the hex being the MD5 of the parts' MD5s
 * when those are MD5s. */
static bool multipart_etag(const char *etag, char *const *etags, size_t n_parts) {
  char want[24];
  snprintf(want, sizeof want, "-%zu", n_parts);
  size_t n = strlen(etag), wn = strlen(want);
  if (n >= 2 && etag[0] == '"' && etag[n - 1] == '"') etag++, n -= 2;
  if (n <= wn || memcmp(etag + n - wn, want, wn) != 0) return false;
  unsigned char *md5s = hl_malloc(16 * n_parts + 1);
  if (!md5s) return false;
  bool all_md5 = true;
  for (size_t i = 0; i < n_parts && all_md5; i++)
    all_md5 = etag_md5(etags[i], md5s + 16 * i);
  bool ok = true;
  if (all_md5) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdn = 0;
    char hex[33];
    ok = EVP_Digest(md5s, 16 * n_parts, md, &mdn, EVP_md5(), NULL) == 1 && mdn == 16;
    for (int i = 0; ok && i < 16; i++)
      snprintf(hex + 2 * i, 3, "%02x", md[i]);
    ok = ok && n - wn == 32 && memcmp(etag, hex, 32) == 0;
  }
  hl_free(md5s);
  return ok;
}

hl_status_t hl_s3_mpu_complete(hl_s3_client_t *c, const char *bucket, const char *key,
                               const char *upload_id, char *const *etags, size_t n_parts,
                               bool if_none_match, hl_arena_t *arena, hl_error_t *err) {
  hl_buf_t body, q;
  hl_buf_init(&body);
  hl_buf_init(&q);
  hl_s3_xml_build_complete(&body, etags, n_parts);
  q_add(&q, arena, "uploadId", upload_id);
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_MPU_COMPLETE, "POST", "complete the multipart upload of", bucket, key);
  hl_status_t st = q_done(&q, arena, &r.query, err);
  if (st == HL_OK && body.oom) st = hl_err_nomem(err);
  r.body = body.data;
  r.body_len = body.len;
  hl_s3_req_header(&r, "Content-Type", "application/xml");
  if (if_none_match) {
    hl_s3_req_header(&r, "If-None-Match", "*");
    r.conditional_write = true;
  }
  hl_error_t e;
  hl_err_init(&e);
  if (st == HL_OK) st = hl_s3_request(c, &r, arena, &e);
  if (st != HL_OK && e.code != HL_OK && r.attempts > 1 && r.s3err.code &&
      strcmp(r.s3err.code, "NoSuchUpload") == 0) {
    /* an earlier attempt may have completed the upload and lost its
     * reply: then the object is there with a multipart ETag */
    bool exists = false;
    hl_s3_object_t obj;
    hl_error_t he;
    hl_err_init(&he);
    if (hl_s3_head(c, bucket, key, arena, &exists, &obj, &he) == HL_OK && exists &&
        multipart_etag(obj.etag, etags, n_parts)) {
      hl_err_clear(&e);
      st = HL_OK;
    }
    hl_err_clear(&he);
  }
  if (st == HL_OK && r.xml.len > 0 && r.status / 100 == 2) {
    char *etag;
    bool is_error = false;
    hl_s3_error_t xe;
    if (hl_s3_xml_parse_complete(r.xml.data, r.xml.len, arena, &etag, &is_error, &xe, &e) !=
        HL_OK) {
      st = prefix_parse_error(&r, &e);
    } else if (is_error) { /* cannot happen: hl_s3_request judged the body */
      st = not_s3(&r, &e, "the reply is an error");
    }
  }
  if (st != HL_OK) hl_err_move(err, &e);
  hl_err_clear(&e);
  hl_s3_req_fini(&r);
  hl_buf_fini(&body);
  return st;
}

hl_status_t hl_s3_mpu_abort(hl_s3_client_t *c, const char *bucket, const char *key,
                            const char *upload_id, hl_error_t *err) {
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_buf_t q;
  hl_buf_init(&q);
  q_add(&q, a, "uploadId", upload_id);
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_MPU_ABORT, "DELETE", "abort the multipart upload of", bucket, key);
  r.not_found_ok = true;
  hl_status_t st = q_done(&q, a, &r.query, err);
  if (st == HL_OK) st = hl_s3_request(c, &r, a, err);
  hl_s3_req_fini(&r);
  hl_arena_destroy(a);
  return st;
}

hl_status_t hl_s3_mpu_list(hl_s3_client_t *c, const char *bucket, const char *prefix,
                           hl_arena_t *arena, hl_s3_uploads_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  size_t cap = 0;
  const char *key_marker = NULL, *id_marker = NULL;
  hl_status_t st = HL_OK;
  for (;;) {
    hl_buf_t q;
    hl_buf_init(&q);
    if (key_marker) q_add(&q, arena, "key-marker", key_marker);
    if (prefix && *prefix) q_add(&q, arena, "prefix", prefix);
    if (id_marker) q_add(&q, arena, "upload-id-marker", id_marker);
    hl_buf_puts(&q, q.len ? "&uploads=" : "uploads=");
    hl_s3_req_t r;
    hl_s3_req_init(&r, HL_S3_MPU_LIST, "GET", "list the multipart uploads in", bucket, NULL);
    hl_s3_uploads_t page;
    st = q_done(&q, arena, &r.query, err);
    if (st == HL_OK) st = hl_s3_request(c, &r, arena, err);
    if (st == HL_OK && hl_s3_xml_parse_uploads(r.xml.data, r.xml.len, arena, &page, err) != HL_OK)
      st = prefix_parse_error(&r, err);
    if (st == HL_OK && out->n_uploads + page.n_uploads > cap) {
      size_t ncap = cap ? cap : 64;
      while (ncap < out->n_uploads + page.n_uploads)
        ncap *= 2;
      hl_s3_upload_t *u = hl_arena_realloc(arena, out->uploads, cap * sizeof *u, ncap * sizeof *u);
      if (!u) {
        st = hl_err_nomem(err);
      } else {
        out->uploads = u;
        cap = ncap;
      }
    }
    if (st == HL_OK) {
      if (page.n_uploads)
        memcpy(out->uploads + out->n_uploads, page.uploads, page.n_uploads * sizeof *page.uploads);
      out->n_uploads += page.n_uploads;
      if (page.truncated) {
        /* the next page starts after the markers; markers that do not
         * move would loop for ever */
        if (!page.next_key_marker ||
            (key_marker && strcmp(page.next_key_marker, key_marker) == 0 &&
             (!page.next_upload_id_marker ||
              (id_marker && strcmp(page.next_upload_id_marker, id_marker) == 0))))
          st = not_s3(&r, err, "a truncated reply without new NextKeyMarker/NextUploadIdMarker");
        key_marker = page.next_key_marker;
        id_marker = page.next_upload_id_marker;
      }
    }
    hl_s3_req_fini(&r);
    if (st != HL_OK || !page.truncated) break;
  }
  if (st != HL_OK) memset(out, 0, sizeof *out);
  return st;
}

hl_status_t hl_s3_delete(hl_s3_client_t *c, const char *bucket, const char *key, hl_error_t *err) {
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_DELETE, "DELETE", "DELETE", bucket, key);
  r.not_found_ok = true;
  hl_status_t st = hl_s3_request(c, &r, a, err);
  hl_s3_req_fini(&r);
  hl_arena_destroy(a);
  return st;
}

/* base64 of the MD5 of DATA into OUT[25] (S3's Content-MD5). */
static bool content_md5(const void *data, size_t len, char out[25]) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdn = 0;
  if (EVP_Digest(data, len, md, &mdn, EVP_md5(), NULL) != 1 || mdn != 16) return false;
  return EVP_EncodeBlock((unsigned char *)out, md, 16) == 24;
}

/* One DeleteObjects of KEYS[0..N) (N <= 1,000). */
static hl_status_t delete_batch(hl_s3_client_t *c, const char *bucket, char *const *keys, size_t n,
                                hl_arena_t *a, hl_error_t *err) {
  hl_buf_t body;
  hl_buf_init(&body);
  hl_s3_xml_build_delete(&body, keys, n);
  char md5[25];
  if (body.oom) {
    hl_buf_fini(&body);
    return hl_err_nomem(err);
  }
  if (!content_md5(body.data, body.len, md5)) {
    hl_buf_fini(&body);
    return hl_err_set(err, HL_INTERNAL, HL_SS(IO_ERROR), "could not compute the MD5 of a body");
  }
  hl_s3_req_t r;
  hl_s3_req_init(&r, HL_S3_DELETE, "POST", "delete objects in", bucket, NULL);
  r.query = "delete=";
  r.body = body.data;
  r.body_len = body.len;
  hl_s3_req_header(&r, "Content-Type", "application/xml");
  hl_s3_req_header(&r, "Content-MD5", md5);
  hl_status_t st = hl_s3_request(c, &r, a, err);
  hl_s3_delete_error_t *fails = NULL;
  size_t n_fails = 0;
  if (st == HL_OK &&
      hl_s3_xml_parse_delete(r.xml.data, r.xml.len, a, &fails, &n_fails, err) != HL_OK)
    st = prefix_parse_error(&r, err);
  if (st == HL_OK && n_fails > 0) {
    hl_status_t code;
    const char *ss;
    hl_s3_error_state(0, fails[0].code, false, &code, &ss);
    char more[64] = "";
    if (n_fails > 1) snprintf(more, sizeof more, " (and %zu more keys)", n_fails - 1);
    st = hl_err_set(err, code, ss, "could not delete s3://%s/%s: %s%s%s%s%s", bucket,
                    fails[0].key ? fails[0].key : "", fails[0].code ? fails[0].code : "error",
                    fails[0].message ? " \"" : "", fails[0].message ? fails[0].message : "",
                    fails[0].message ? "\"" : "", more);
  }
  hl_s3_req_fini(&r);
  hl_buf_fini(&body);
  return st;
}

hl_status_t hl_s3_delete_many(hl_s3_client_t *c, const char *bucket, char *const *keys, size_t n,
                              hl_error_t *err) {
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_status_t st = HL_OK;
  for (size_t i = 0; i < n && st == HL_OK; i += DELETE_BATCH) {
    size_t m = n - i < DELETE_BATCH ? n - i : DELETE_BATCH;
    st = delete_batch(c, bucket, keys + i, m, a, err);
    hl_arena_reset(a);
  }
  hl_arena_destroy(a);
  return st;
}
