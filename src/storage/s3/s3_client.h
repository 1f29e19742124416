/*
 * s3_client.h -- the S3 REST API client: one object per endpoint and
 * credentials, shared by every thread of a warehouse handle.
 *
 * HTTP is libcurl's (Debian libcurl4-openssl-dev); requests are signed
 * with Signature V4 (s3_sign.h, UNSIGNED-PAYLOAD over TLS, the payload's
 * SHA-256 over plain HTTP) and replies parsed by s3_xml.h.  Every call
 * that is safe to repeat is retried on connection errors, timeouts, 5xx,
 * 429/503 throttling and truncated bodies, with jittered exponential
 * backoff; when it gives up the error names the operation, bucket, key,
 * HTTP status and S3 error code (SQLSTATE 58030; 58P01 for NoSuchKey /
 * NoSuchBucket / NoSuchUpload; 58P02 for PreconditionFailed on a
 * conditional write; 28000 for AccessDenied / InvalidAccessKeyId /
 * SignatureDoesNotMatch; 08P01 for a reply that is not S3's).  Secrets
 * never appear in an error.  Redirects are never followed (a 301/307 is
 * an error naming the region the server asked for).
 *
 * Thread-safe: calls may run on several threads at once (connections are
 * pooled); the config is copied at create.
 */
#ifndef HL_S3_CLIENT_H
#define HL_S3_CLIENT_H

#include "storage/s3/s3_xml.h"
#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_s3_config {
  /* "http://127.0.0.1:9000", "https://minio.local"; NULL or "": AWS,
   * https://s3.<region>.amazonaws.com */
  const char *endpoint;
  const char *region; /* NULL: "us-east-1" */
  bool path_style;    /* http://host/bucket/key, else http://bucket.host/key */
  /* NULL access_key: anonymous (unsigned) requests, for public buckets */
  const char *access_key;
  const char *secret_key;
  const char *session_token;  /* NULL: none */
  int max_attempts;           /* tries per request (>= 1); 0: 5 */
  int64_t retry_base_ms;      /* first backoff; 0: 100 */
  int64_t connect_timeout_ms; /* 0: 10,000 */
  int64_t request_timeout_ms; /* a whole request, incl. body; 0: 300,000 */
  /* PEM file of the certificate authorities an https endpoint's
   * certificate must chain to; NULL: the system's */
  const char *ca_file;
} hl_s3_config_t;

typedef struct hl_s3_client hl_s3_client_t;

/* Request counts by kind, for EXPLAIN ANALYZE and the benchmark. */
typedef enum hl_s3_kind {
  HL_S3_HEAD,
  HL_S3_GET,
  HL_S3_LIST,
  HL_S3_PUT,
  HL_S3_MPU_CREATE,
  HL_S3_MPU_PART,
  HL_S3_MPU_COMPLETE,
  HL_S3_MPU_ABORT,
  HL_S3_MPU_LIST,
  HL_S3_DELETE,
  HL_S3_N_KINDS
} hl_s3_kind_t;

typedef struct hl_s3_stats {
  uint64_t requests[HL_S3_N_KINDS]; /* HTTP requests sent, retries included */
  uint64_t retries;
  uint64_t bytes_in, bytes_out;
} hl_s3_stats_t;

hl_s3_client_t *hl_s3_client_create(const hl_s3_config_t *cfg, hl_error_t *err);
void hl_s3_client_destroy(hl_s3_client_t *c); /* NULL is a no-op */
void hl_s3_client_stats(hl_s3_client_t *c, hl_s3_stats_t *out);

/* HEAD: *EXISTS false on 404 (not an error); else size, ETag, mtime. */
hl_status_t hl_s3_head(hl_s3_client_t *c, const char *bucket, const char *key, hl_arena_t *arena,
                       bool *exists, hl_s3_object_t *out, hl_error_t *err);

/* One page of ListObjectsV2 under PREFIX (may be ""), with DELIMITER
 * (NULL: none), after continuation TOKEN (NULL: the first page), at most
 * MAX_KEYS (0: the server's 1,000). */
hl_status_t hl_s3_list_page(hl_s3_client_t *c, const char *bucket, const char *prefix,
                            const char *delimiter, const char *token, int max_keys,
                            hl_arena_t *arena, hl_s3_list_t *out, hl_error_t *err);

/* GET of bytes [OFFSET, OFFSET+LEN) (a bounded "bytes=a-b" range) into
 * BUF; *GOT < LEN only at the end of the object.  ETAG (may be NULL): the
 * object's ETag when it was opened -- sent as If-Match, and a reply with
 * another ETag (412, or a server that ignores If-Match) is an error
 * (55000, "changed while it was read"), never mixed bytes.  A body shorter
 * than its Content-Length is retried. */
hl_status_t hl_s3_get_range(hl_s3_client_t *c, const char *bucket, const char *key,
                            const char *etag, uint64_t offset, size_t len, void *buf, size_t *got,
                            hl_error_t *err);

/* Several ranges of one object fetched in parallel (at most
 * MAX_PARALLEL requests at a time; 0: 8).  Range i fills BUFS[i] with
 * LENS[i] bytes from OFFSETS[i]; each must lie inside the object (a short
 * reply is an error).  Same ETag rule as hl_s3_get_range. */
hl_status_t hl_s3_get_ranges(hl_s3_client_t *c, const char *bucket, const char *key,
                             const char *etag, const uint64_t *offsets, const size_t *lens,
                             void *const *bufs, size_t n, int max_parallel, hl_error_t *err);

/* PUT of a whole object.  IF_NONE_MATCH: sent with "If-None-Match: *", so
 * an existing object is not replaced (58P02). *ETAG (may be NULL) in ARENA. */
hl_status_t hl_s3_put(hl_s3_client_t *c, const char *bucket, const char *key, const void *data,
                      size_t len, bool if_none_match, hl_arena_t *arena, char **etag,
                      hl_error_t *err);

/* Multipart upload.  Parts are numbered from 1; every part but the last
 * must be at least 5 MiB (S3's rule; the caller keeps it). */
hl_status_t hl_s3_mpu_create(hl_s3_client_t *c, const char *bucket, const char *key,
                             hl_arena_t *arena, char **upload_id, hl_error_t *err);
hl_status_t hl_s3_mpu_part(hl_s3_client_t *c, const char *bucket, const char *key,
                           const char *upload_id, int part_number, const void *data, size_t len,
                           hl_arena_t *arena, char **etag, hl_error_t *err);
/* Completes with parts 1..N_PARTS (ETAGS[i] of part i+1).
 * IF_NONE_MATCH: conditional ("If-None-Match: *"), 58P02 when the key
 * exists.  A 200 reply holding an <Error> is an error.  A retry after a
 * lost reply that finds NoSuchUpload checks with HEAD whether the object
 * exists with the multipart ETag and then succeeds. */
hl_status_t hl_s3_mpu_complete(hl_s3_client_t *c, const char *bucket, const char *key,
                               const char *upload_id, char *const *etags, size_t n_parts,
                               bool if_none_match, hl_arena_t *arena, hl_error_t *err);
/* Aborts; NoSuchUpload is success (already gone). */
hl_status_t hl_s3_mpu_abort(hl_s3_client_t *c, const char *bucket, const char *key,
                            const char *upload_id, hl_error_t *err);
/* Every in-progress upload under PREFIX (all pages) into ARENA. */
hl_status_t hl_s3_mpu_list(hl_s3_client_t *c, const char *bucket, const char *prefix,
                           hl_arena_t *arena, hl_s3_uploads_t *out, hl_error_t *err);

/* DELETE of one object (missing is success). */
hl_status_t hl_s3_delete(hl_s3_client_t *c, const char *bucket, const char *key, hl_error_t *err);
/* DeleteObjects in batches of 1,000 (quiet mode); any key that fails is
 * an error naming it and its code. */
hl_status_t hl_s3_delete_many(hl_s3_client_t *c, const char *bucket, char *const *keys, size_t n,
                              hl_error_t *err);

/* Parses one HTTP response header line ("ETag: \"x\"\r\n") into the parts
 * the client keeps; exposed for the fuzz target.  Unknown names are
 * ignored; a malformed Content-Length or Content-Range is an error. */
typedef struct hl_s3_resp_headers {
  int64_t content_length; /* -1: absent */
  bool has_range;
  uint64_t range_first, range_last, range_total; /* Content-Range: bytes a-b/total */
  char etag[128];
  char request_id[128];
  char location[512]; /* a redirect's target */
  char region[64];    /* x-amz-bucket-region */
  int64_t mtime_ns;   /* Last-Modified */
} hl_s3_resp_headers_t;
void hl_s3_resp_headers_init(hl_s3_resp_headers_t *h);
hl_status_t hl_s3_parse_header_line(hl_s3_resp_headers_t *h, const char *line, size_t len,
                                    hl_error_t *err);

#endif
