/*
 * s3_sign_tool.c -- signs requests read as JSON lines on stdin with the
 * hivelite Signature V4 signer (storage/s3/s3_sign.c) and prints one JSON
 * line per request; the driver of tests/s3/sign_botocore.py.
 *
 * In:  {"mode": "header"|"query", "method", "path", "query",
 *       "headers": [[name, value], ...], "payload", "region", "service",
 *       "access_key", "secret_key", "token" (or null), "time" (unix
 *       seconds), "normalize" (bool), "expires" (seconds)}
 * Out: {"canonical_request", "string_to_sign", "signature",
 *       "authorization" | "signed_query"} or {"error": message}.
 * Exit 0, or 2 on unreadable input.
 */
#include "storage/s3/s3_sign.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(json_t *o, const char *k) {
  return json_string_value(json_object_get(o, k));
}

static int sign_one(json_t *req) {
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return -1;
  json_t *hs = json_object_get(req, "headers");
  size_t n = json_array_size(hs);
  hl_s3_kv_t *h = hl_arena_alloc(a, (n + 1) * sizeof *h);
  if (!h) {
    hl_arena_destroy(a);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    h[i].name = json_string_value(json_array_get(json_array_get(hs, i), 0));
    h[i].value = json_string_value(json_array_get(json_array_get(hs, i), 1));
  }
  hl_s3_sign_in_t in = {
      .method = str(req, "method"),
      .path = str(req, "path"),
      .query = str(req, "query"),
      .headers = h,
      .n_headers = n,
      .payload_sha256 = str(req, "payload"),
      .region = str(req, "region"),
      .service = str(req, "service"),
      .access_key = str(req, "access_key"),
      .secret_key = str(req, "secret_key"),
      .session_token = str(req, "token"),
      .unix_time = json_integer_value(json_object_get(req, "time")),
      .normalize_path = json_is_true(json_object_get(req, "normalize")),
      .expires = json_integer_value(json_object_get(req, "expires")),
  };
  bool query = str(req, "mode") && strcmp(str(req, "mode"), "query") == 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_sign_out_t out;
  hl_status_t st =
      query ? hl_s3_sign_query(&in, a, &out, &err) : hl_s3_sign_header(&in, a, &out, &err);
  json_t *o = st != HL_OK ? json_pack("{ss}", "error", err.message ? err.message : "?")
                          : json_pack("{ss ss ss ss}", "canonical_request", out.canonical_request,
                                      "string_to_sign", out.string_to_sign, "signature",
                                      out.signature, query ? "signed_query" : "authorization",
                                      query ? out.signed_query : out.authorization);
  char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
  if (line) printf("%s\n", line);
  free(line);
  json_decref(o);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  return line ? 0 : -1;
}

int main(void) {
  char *buf = NULL;
  size_t cap = 0;
  ssize_t len;
  int rc = 0;
  while ((len = getline(&buf, &cap, stdin)) > 0) {
    json_error_t jerr;
    json_t *req = json_loads(buf, 0, &jerr);
    if (!req || sign_one(req) < 0) {
      fprintf(stderr, "s3_sign_tool: bad input line: %s\n", req ? "sign failed" : jerr.text);
      rc = 2;
    }
    json_decref(req);
    if (rc) break;
    fflush(stdout);
  }
  free(buf);
  return rc;
}
