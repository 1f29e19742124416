// clang-format off
/*
 * fuzz_s3_http.c -- libFuzzer target for the S3 client's reply header
 * parser, hl_s3_parse_header_line (src/storage/s3/s3_http_hdr.c).
 *
 * Build (as `make fuzz` and the fuzz.s3_http CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_s3_http.c src/storage/s3/s3_http_hdr.c src/util/[a-z]*.c -lm -lpthread -o fuzz_s3_http
 *
 * The input is split into lines at '\n' and fed to one header block the
 * way libcurl's header callback does, each line with its "\r\n".  Every
 * line must either parse or fail with 08P01 and a message; afterwards the
 * block's invariants must hold (strings terminated inside their fields, a
 * range with first <= last < total, a length >= -1).
 */
// clang-format on
#include "storage/s3/s3_client.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_field(const char *f, size_t cap) {
  if (!memchr(f, '\0', cap)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_s3_resp_headers_t h;
  hl_s3_resp_headers_init(&h);
  const char *p = (const char *)data, *end = p + size;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
    /* an exact-size heap copy, so that ASan sees any read past the line */
    char *line = malloc(n ? n : 1);
    if (!line) abort();
    memcpy(line, p, n);
    hl_error_t err;
    hl_err_init(&err);
    hl_status_t st = hl_s3_parse_header_line(&h, line, n, &err);
    if (st != HL_OK) {
      if (st != HL_CORRUPT || strcmp(err.sqlstate, "08P01") != 0 || !err.message) abort();
    } else if (err.code != HL_OK) {
      abort();
    }
    hl_err_clear(&err);
    free(line);
    p += n;
  }
  check_field(h.etag, sizeof h.etag);
  check_field(h.request_id, sizeof h.request_id);
  check_field(h.location, sizeof h.location);
  check_field(h.region, sizeof h.region);
  if (h.content_length < -1) abort();
  if (h.has_range && (h.range_first > h.range_last || h.range_last >= h.range_total)) abort();
  return 0;
}
