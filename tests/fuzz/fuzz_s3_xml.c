// clang-format off
/*
 * fuzz_s3_xml.c -- libFuzzer target for the S3 XML bodies
 * (src/storage/s3/s3_xml.c): the replies come from a server we do not
 * trust.
 *
 * Build (as `make fuzz` and the fuzz.s3_xml CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_s3_xml.c src/storage/s3/s3_xml.c src/util/[a-z]*.c $(pkg-config --cflags --libs expat) -lm -lpthread -o fuzz_s3_xml
 *
 * The first byte picks what runs over the rest: 0 ListObjectsV2, 1 Error,
 * 2 CreateMultipartUpload, 3 CompleteMultipartUpload, 4
 * ListMultipartUploads, 5 DeleteObjects, 6 the builders' escaping (the
 * rest is a key: built into a request, turned into a listing and parsed
 * back, it must come back unchanged; a key of printable ASCII, tabs and
 * line ends must always come back).  On success every result must keep
 * the caps (entries, value lengths); on failure the error must be 08P01
 * or out-of-memory.  Any violation aborts.  Seeds: tests/fuzz/corpus/s3_xml/
 * (the selector byte, then a reply of the shapes in the S3 API reference).
 */
// clang-format on
#include "storage/s3/s3_xml.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A value within HL_S3_XML_MAX_VALUE, or NULL when ALLOW_NULL. */
static void check_value(const char *s, int allow_null) {
  if (!s) {
    if (!allow_null) abort();
    return;
  }
  if (strlen(s) > HL_S3_XML_MAX_VALUE) abort();
}

static void check_failure(hl_status_t rc, hl_error_t *err) {
  if (rc == HL_OK || err->code != rc) abort();
  if (strcmp(err->sqlstate, "08P01") != 0 && strcmp(err->sqlstate, "53200") != 0) abort();
  if (!err->message || strncmp(err->message, "S3 ", 3) != 0) {
    if (strcmp(err->sqlstate, "53200") != 0) abort();
  }
}

static void check_error(const hl_s3_error_t *e, int present) {
  if (!present) {
    if (e->code || e->message || e->request_id) abort();
    return;
  }
  check_value(e->code, 0);
  check_value(e->message, 1);
  check_value(e->request_id, 1);
}

static void run_parser(int which, const char *body, size_t len, hl_arena_t *a, hl_error_t *err) {
  hl_status_t rc = HL_OK;
  switch (which) {
  case 0: {
    hl_s3_list_t l;
    rc = hl_s3_xml_parse_list(body, len, a, &l, err);
    if (rc != HL_OK) {
      if (l.n_objects || l.objects || l.n_prefixes || l.prefixes || l.next_token) abort();
      break;
    }
    if (l.n_objects + l.n_prefixes > HL_S3_XML_MAX_ENTRIES) abort();
    for (size_t i = 0; i < l.n_objects; i++) {
      check_value(l.objects[i].key, 0);
      check_value(l.objects[i].etag, 1);
      if (l.objects[i].size > (uint64_t)INT64_MAX) abort();
    }
    for (size_t i = 0; i < l.n_prefixes; i++)
      check_value(l.prefixes[i], 0);
    check_value(l.next_token, 1);
    break;
  }
  case 1: {
    hl_s3_error_t e;
    bool is_error = true;
    rc = hl_s3_xml_parse_error(body, len, a, &e, &is_error, err);
    if (rc != HL_OK && is_error) abort();
    check_error(&e, is_error);
    break;
  }
  case 2: {
    char *id = (char *)"x";
    rc = hl_s3_xml_parse_initiate(body, len, a, &id, err);
    if (rc == HL_OK) {
      check_value(id, 0);
      if (!*id) abort();
    } else if (id) {
      abort();
    }
    break;
  }
  case 3: {
    char *etag = (char *)"x";
    bool is_error = true;
    hl_s3_error_t e;
    rc = hl_s3_xml_parse_complete(body, len, a, &etag, &is_error, &e, err);
    if (rc != HL_OK) {
      if (etag || is_error) abort();
      check_error(&e, 0);
    } else if (is_error) {
      if (etag) abort();
      check_error(&e, 1);
    } else {
      check_value(etag, 0);
      check_error(&e, 0);
    }
    break;
  }
  case 4: {
    hl_s3_uploads_t u;
    rc = hl_s3_xml_parse_uploads(body, len, a, &u, err);
    if (rc != HL_OK) {
      if (u.n_uploads || u.uploads) abort();
      break;
    }
    if (u.n_uploads > HL_S3_XML_MAX_ENTRIES) abort();
    for (size_t i = 0; i < u.n_uploads; i++) {
      check_value(u.uploads[i].key, 0);
      check_value(u.uploads[i].upload_id, 0);
    }
    check_value(u.next_key_marker, 1);
    check_value(u.next_upload_id_marker, 1);
    break;
  }
  default: {
    hl_s3_delete_error_t *e = (hl_s3_delete_error_t *)1;
    size_t n = 1;
    rc = hl_s3_xml_parse_delete(body, len, a, &e, &n, err);
    if (rc != HL_OK) {
      if (e || n) abort();
      break;
    }
    if (n > HL_S3_XML_MAX_ENTRIES) abort();
    for (size_t i = 0; i < n; i++) {
      check_value(e[i].key, 0);
      check_value(e[i].code, 0);
      check_value(e[i].message, 1);
    }
    break;
  }
  }
  if (rc != HL_OK) check_failure(rc, err);
}

/* Selector 6: KEY (LEN bytes, no NUL) through build_delete, into a
 * listing, through parse_list. */
static void run_escape(const char *data, size_t len, hl_arena_t *a, hl_error_t *err) {
  if (len > HL_S3_XML_MAX_VALUE) len = HL_S3_XML_MAX_VALUE;
  char *key = hl_arena_strndup(a, data, len);
  if (!key) abort();
  len = strlen(key); /* up to the first NUL */
  int plain = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)key[i];
    if (!((c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r')) plain = 0;
  }
  hl_buf_t req, reply;
  hl_buf_init(&req);
  hl_buf_init(&reply);
  hl_s3_xml_build_delete(&req, &key, 1);
  const char *k = strstr(hl_buf_cstr(&req), "<Key>");
  const char *end = k ? strstr(k, "</Key>") : NULL;
  if (!k || !end) abort();
  hl_buf_puts(&reply, "<ListBucketResult><Contents>");
  hl_buf_append(&reply, k, (size_t)(end - k) + 6);
  hl_buf_puts(&reply, "<Size>1</Size></Contents></ListBucketResult>");
  if (req.oom || reply.oom) abort();
  hl_s3_list_t l;
  hl_status_t rc = hl_s3_xml_parse_list(reply.data, reply.len, a, &l, err);
  if (rc == HL_OK) {
    if (l.n_objects != 1 || strcmp(l.objects[0].key, key) != 0) abort();
  } else if (plain) {
    abort();
  }
  hl_buf_fini(&req);
  hl_buf_fini(&reply);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  int which = data[0] % 7;
  if (which == 6)
    run_escape((const char *)data + 1, size - 1, a, &err);
  else
    run_parser(which, (const char *)data + 1, size - 1, a, &err);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  return 0;
}
