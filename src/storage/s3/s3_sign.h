/*
 * s3_sign.h -- AWS Signature Version 4, for the S3 client (s3_client.c).
 *
 * Written by hand: it is small and exactly specified (AWS "Signature
 * Version 4 signing process"), and the libraries that do it (the AWS C
 * SDK's aws-c-auth) are not in Debian.  Pure functions over strings; the
 * hashes come from OpenSSL's libcrypto.  Checked against the AWS test
 * suite (../shared/fixtures/sigv4/) and against python3-botocore.
 */
#ifndef HL_S3_SIGN_H
#define HL_S3_SIGN_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_s3_kv {
  const char *name;
  const char *value;
} hl_s3_kv_t;

typedef struct hl_s3_sign_in {
  const char *method; /* "GET", "PUT", ... */
  /* The path as sent on the request line, already URI-encoded (S3: each
   * key segment by hl_s3_uri_encode with '/' kept). */
  const char *path;
  const char *query; /* as sent, without '?'; NULL or "": none */
  /* Every header that is sent and signed, Host included, names in any
   * case, duplicates allowed (values joined with ',' in order).  Header
   * signing: the caller has already added X-Amz-Date (hl_s3_amz_date),
   * and for S3 x-amz-content-sha256 and, with a session token,
   * X-Amz-Security-Token. */
  const hl_s3_kv_t *headers;
  size_t n_headers;
  const char *payload_sha256; /* lower-case hex, or "UNSIGNED-PAYLOAD" */
  const char *region;         /* "us-east-1" */
  const char *service;        /* "s3" */
  const char *access_key;
  const char *secret_key;
  const char *session_token; /* NULL: none (query signing adds it) */
  int64_t unix_time;         /* signing time, seconds since the epoch */
  bool normalize_path;       /* RFC 3986 dot-segment removal (not for S3) */
  int64_t expires;           /* query signing: X-Amz-Expires, seconds */
} hl_s3_sign_in_t;

typedef struct hl_s3_sign_out {
  char *canonical_request;
  char *string_to_sign;
  char *signature; /* 64 hex digits */
  /* header signing: the Authorization header's value */
  char *authorization;
  /* query signing: the complete query to send (the request's own query
   * parameters and the X-Amz-* ones, X-Amz-Signature last) */
  char *signed_query;
} hl_s3_sign_out_t;

/* Header signing (Authorization header).  Everything in ARENA. */
hl_status_t hl_s3_sign_header(const hl_s3_sign_in_t *in, hl_arena_t *arena, hl_s3_sign_out_t *out,
                              hl_error_t *err);
/* Query signing (presigned URL): the X-Amz-* parameters go into the query,
 * X-Amz-Date is taken from unix_time (not from the headers). */
hl_status_t hl_s3_sign_query(const hl_s3_sign_in_t *in, hl_arena_t *arena, hl_s3_sign_out_t *out,
                             hl_error_t *err);

/* "20150830T123600Z" of UNIX_TIME (UTC) into OUT[17]. */
void hl_s3_amz_date(int64_t unix_time, char out[17]);
/* SHA-256 of DATA as 64 lower-case hex digits and a NUL into OUT[65]. */
void hl_s3_sha256_hex(const void *data, size_t len, char out[65]);
/* URI-encodes S as SigV4 wants it: unreserved characters (A-Z a-z 0-9 - . _
 * ~) kept, every other byte %XX (upper-case hex); '/' kept unless
 * ENCODE_SLASH.  In ARENA; NULL on OOM. */
char *hl_s3_uri_encode(hl_arena_t *arena, const char *s, size_t len, bool encode_slash);

#endif
