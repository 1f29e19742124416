/*
 * s3_client_int.h -- the S3 client's internals shared by its files
 * (s3_client.c: the REST calls; s3_http.c: one request, retried;
 * s3_http_hdr.c: reply header lines) and by the unit test.
 *
 * Not part of the storage contract: only tests/unit/storage/ includes it,
 * to check URL building and retry classification without a network.
 */
#ifndef HL_S3_CLIENT_INT_H
#define HL_S3_CLIENT_INT_H

#include "storage/s3/s3_client.h"
#include "storage/s3/s3_sign.h"
#include "util/strbuf.h"

#include <pthread.h>
#include <stdatomic.h>

/* The endpoint of a client, split once at create. */
typedef struct hl_s3_endpoint {
  bool https;
  char *scheme;   /* "http" / "https" */
  char *hostport; /* "127.0.0.1:9000", "s3.us-east-1.amazonaws.com" */
  bool path_style;
} hl_s3_endpoint_t;

/* Splits ENDPOINT ("http://host:port", a trailing '/' allowed, no other
 * path, no user info) into OUT (strings in ARENA); NULL or "" is AWS's
 * https://s3.REGION.amazonaws.com.  22023 on anything else. */
hl_status_t hl_s3_endpoint_parse(const char *endpoint, const char *region, bool path_style,
                                 hl_arena_t *arena, hl_s3_endpoint_t *out, hl_error_t *err);

/* Where a request goes: the URL handed to libcurl and the parts signed. */
typedef struct hl_s3_url {
  char *url;  /* "http://127.0.0.1:9000/bkt/a%20b?list-type=2" */
  char *host; /* the Host header: "127.0.0.1:9000" or "bkt.s3.amazonaws.com" */
  char *path; /* the encoded path: "/bkt/a%20b", "/a%20b" (virtual-hosted), "/bkt" */
} hl_s3_url_t;

/* The URL of KEY (NULL: the bucket itself) in BUCKET with QUERY (already
 * encoded and sorted by name, NULL or "": none).  Key bytes are encoded
 * per SigV4 with '/' kept.  In ARENA; 53200 on OOM. */
hl_status_t hl_s3_build_url(const hl_s3_endpoint_t *ep, const char *bucket, const char *key,
                            const char *query, hl_arena_t *arena, hl_s3_url_t *out,
                            hl_error_t *err);

/* Why an attempt failed, as far as retrying goes. */
typedef enum hl_s3_fail {
  HL_S3_FAIL_NONE,      /* a reply the caller wants (2xx, or a 404 a HEAD expects) */
  HL_S3_FAIL_TRANSIENT, /* worth another attempt */
  HL_S3_FAIL_FINAL      /* repeating it gives the same answer */
} hl_s3_fail_t;

/* Classification of one attempt's outcome: CURL_OK false for a transport
 * error (connection refused or reset, timeout, short body: always
 * transient), else the HTTP STATUS and the S3 error CODE (NULL: none). */
hl_s3_fail_t hl_s3_classify(bool curl_ok, long status, const char *code);

/* The SQLSTATE and status of a final S3 error: CODE (may be NULL) first,
 * then the HTTP STATUS. */
void hl_s3_error_state(long status, const char *code, bool conditional_write,
                       hl_status_t *status_out, const char **sqlstate);

/* Full-jitter exponential backoff: a delay in [0, min(CAP, BASE << ATTEMPT))
 * ms drawn from *STATE (xorshift64, never 0). */
int64_t hl_s3_backoff_ms(uint64_t *state, int64_t base_ms, int attempt);
#define HL_S3_BACKOFF_CAP_MS 5000

/* ---- one request (s3_http.c) */

struct hl_s3_client {
  hl_arena_t *arena; /* the copied config and the endpoint */
  hl_s3_endpoint_t ep;
  char *region;
  char *access_key, *secret_key, *session_token; /* access_key NULL: anonymous */
  int max_attempts;
  int64_t retry_base_ms, connect_timeout_ms, request_timeout_ms;
  char *ca_file; /* NULL: the system's authorities */
  /* idle easy handles: each keeps its connections alive between requests */
  pthread_mutex_t pool_mu;
  void **pool; /* CURL * */
  size_t n_pool, cap_pool;
  _Atomic uint64_t requests[HL_S3_N_KINDS];
  _Atomic uint64_t retries, bytes_in, bytes_out;
};

/* One REST request, filled by the caller; the reply fields by
 * hl_s3_request. */
typedef struct hl_s3_req {
  hl_s3_kind_t kind;
  const char *method; /* "GET", "HEAD", "PUT", "POST", "DELETE" */
  const char *verb;   /* for messages: "GET", "list", "complete the multipart upload of" */
  const char *bucket;
  const char *key;    /* NULL: the bucket itself */
  const char *query;  /* encoded, sorted by name; NULL: none */
  const char *detail; /* for messages after the name, e.g. " (bytes 0-99)"; NULL: none */
  const void *body;   /* PUT / POST payload */
  size_t body_len;
  hl_s3_kv_t extra[4]; /* unsigned headers sent as they are (Range, If-Match, ...) */
  size_t n_extra;
  bool conditional_write; /* 412 means "exists" (58P02) rather than "changed" (55000) */
  bool not_found_ok;      /* a 404 is an answer (HEAD, DELETE, abort) */
  /* GET of a range: the body goes to BUF (exactly LEN bytes expected) */
  bool ranged;
  uint64_t range_first;
  void *buf;
  size_t len;
  const char *if_match; /* the ETag to compare the reply's with (NULL: none) */
  /* reply */
  long status;
  hl_s3_resp_headers_t hdr;
  hl_buf_t xml;        /* an XML (or error) body, at most HL_S3_XML_MAX_BODY */
  size_t got;          /* bytes written to BUF */
  int attempts;        /* how many were sent */
  hl_s3_error_t s3err; /* the last error body's fields (code NULL: none) */
} hl_s3_req_t;

/* curl_global_init, once per process. */
hl_status_t hl_s3_curl_init(hl_error_t *err);
/* Closes the pooled handles (and their connections) of C. */
void hl_s3_pool_fini(hl_s3_client_t *c);

void hl_s3_req_init(hl_s3_req_t *r, hl_s3_kind_t kind, const char *method, const char *verb,
                    const char *bucket, const char *key);
void hl_s3_req_fini(hl_s3_req_t *r);
void hl_s3_req_header(hl_s3_req_t *r, const char *name, const char *value);

/* Sends R, retrying what is safe to repeat (everything the client sends
 * is idempotent), until a reply the caller wants or the last attempt.
 * Strings of the reply in ARENA.  On an error the message names the
 * operation, s3://bucket/key, the status, the S3 code and message, and
 * the attempts; R's reply fields describe the last attempt. */
hl_status_t hl_s3_request(hl_s3_client_t *c, hl_s3_req_t *r, hl_arena_t *arena, hl_error_t *err);

#endif
