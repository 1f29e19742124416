/*
 * s3_xml.h -- the XML bodies of the S3 REST API: replies parsed, request
 * bodies built.
 *
 * The replies come from a server we do not trust: every parser works on a
 * bounded buffer (the caller caps bodies at HL_S3_XML_MAX_BODY), refuses a
 * DOCTYPE (no entity expansion), caps the number of entries and the length
 * of every value, and returns 08P01 with a message naming what was wrong,
 * never a crash.  Parsing is expat's (Debian libexpat); only the mapping of
 * elements to structs is ours.  Fuzz target: tests/fuzz/fuzz_s3_xml.c.
 */
#ifndef HL_S3_XML_H
#define HL_S3_XML_H

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HL_S3_XML_MAX_BODY    (64u << 20) /* no reply body is longer */
#define HL_S3_XML_MAX_ENTRIES 100000      /* per reply (S3 sends at most 1,000) */
#define HL_S3_XML_MAX_VALUE   4096        /* bytes of one element's text (keys <= 1,024) */

typedef struct hl_s3_object {
  char *key;        /* decoded text of <Key> */
  uint64_t size;    /* <Size> */
  char *etag;       /* <ETag> as sent, quotes included ("\"abc\"") */
  int64_t mtime_ns; /* <LastModified> (ISO 8601, UTC), ns since the epoch; 0 if absent */
} hl_s3_object_t;

/* ListObjectsV2: <ListBucketResult>. */
typedef struct hl_s3_list {
  hl_s3_object_t *objects;
  size_t n_objects;
  char **prefixes; /* <CommonPrefixes><Prefix> */
  size_t n_prefixes;
  bool truncated;   /* <IsTruncated>true */
  char *next_token; /* <NextContinuationToken>, NULL if absent */
} hl_s3_list_t;

/* <Error> of a failed request (and of a CompleteMultipartUpload that
 * answered 200 with an error body). */
typedef struct hl_s3_error {
  char *code;    /* "NoSuchKey" */
  char *message; /* may be NULL */
  char *request_id;
} hl_s3_error_t;

/* One in-progress multipart upload: <ListMultipartUploadsResult><Upload>. */
typedef struct hl_s3_upload {
  char *key;
  char *upload_id;
} hl_s3_upload_t;

typedef struct hl_s3_uploads {
  hl_s3_upload_t *uploads;
  size_t n_uploads;
  bool truncated;
  char *next_key_marker; /* NULL if absent */
  char *next_upload_id_marker;
} hl_s3_uploads_t;

/* One failed key of DeleteObjects: <DeleteResult><Error>. */
typedef struct hl_s3_delete_error {
  char *key;
  char *code;
  char *message;
} hl_s3_delete_error_t;

/* Each parser: BODY of LEN bytes, results in ARENA; 08P01 on a malformed
 * body or one of the wrong root element. */
hl_status_t hl_s3_xml_parse_list(const char *body, size_t len, hl_arena_t *arena, hl_s3_list_t *out,
                                 hl_error_t *err);
/* *IS_ERROR = false when BODY is not an <Error> document (OUT zeroed). */
hl_status_t hl_s3_xml_parse_error(const char *body, size_t len, hl_arena_t *arena,
                                  hl_s3_error_t *out, bool *is_error, hl_error_t *err);
/* <InitiateMultipartUploadResult><UploadId>. */
hl_status_t hl_s3_xml_parse_initiate(const char *body, size_t len, hl_arena_t *arena,
                                     char **upload_id, hl_error_t *err);
/* <CompleteMultipartUploadResult><ETag>; an <Error> root is returned as
 * *IS_ERROR with ERROR filled (the 200-with-error case). */
hl_status_t hl_s3_xml_parse_complete(const char *body, size_t len, hl_arena_t *arena, char **etag,
                                     bool *is_error, hl_s3_error_t *error, hl_error_t *err);
hl_status_t hl_s3_xml_parse_uploads(const char *body, size_t len, hl_arena_t *arena,
                                    hl_s3_uploads_t *out, hl_error_t *err);
/* <DeleteResult>: the keys that failed (<Deleted> entries are skipped). */
hl_status_t hl_s3_xml_parse_delete(const char *body, size_t len, hl_arena_t *arena,
                                   hl_s3_delete_error_t **errors, size_t *n_errors,
                                   hl_error_t *err);

/* Request bodies, appended to OUT (text escaped for XML). */
/* <CompleteMultipartUpload> with parts 1..N_PARTS and their ETags. */
void hl_s3_xml_build_complete(hl_buf_t *out, char *const *etags, size_t n_parts);
/* <Delete><Quiet>true</Quiet><Object><Key>... for N_KEYS <= 1,000 keys. */
void hl_s3_xml_build_delete(hl_buf_t *out, char *const *keys, size_t n_keys);

#endif
