/*
 * func_internal.c -- the Hive built-ins its planner and its replication
 * and authorization code call, which are also user-callable and
 * deterministic: sq_count_check, cardinality_violation,
 * enforce_constraint (the checks Hive's rewrites of scalar subqueries,
 * MERGE and constraints insert), split_map_privs (the privilege bits of
 * the information schema's views) and deserialize (a replication event's
 * message: base64 of gzip, or plain JSON).  Signatures in func.c; the
 * session constants buildversion and restrict_information_schema are
 * folded by the binder (plan/bind.c).
 */
#include "vector/func_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

/* deserialize's result is capped like repeat's and space's */
#define MAX_MESSAGE (100u * 1024 * 1024)

/* sq_count_check(count[, x]): COUNT (a BIGINT) as is.  With one argument
 * the count of a scalar subquery's rows, which may be at most 1; with two
 * (Hive's IN / NOT IN over an aggregate) it must not be 0 or NULL. */
HL_FN(hl_fn_sq_count_check) {
  if (call->n_args == 2) {
    if (a[0].is_null || a[0].u.i == 0)
      return hl_err_set_at(err, call->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "IN/NOT IN subquery with aggregate returning zero result is not "
                           "supported");
  } else if (a[0].is_null) {
    /* Hive fails here too (its unboxing of the NULL count) */
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                         "sq_count_check: the count is NULL");
  } else if (a[0].u.i > 1) {
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(CARDINALITY_VIOLATION),
                         "Scalar subquery expression returns more than one row");
  }
  *out = a[0];
  return HL_OK;
}

/* cardinality_violation(v, ...): fails on the first row it sees, naming
 * the row's values as Hive does ("null" for a NULL); typed INT. */
HL_FN(hl_fn_cardinality_violation) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (int k = 0; k < call->n_args; k++) {
    if (k) hl_buf_putc(&b, ',');
    if (a[k].is_null)
      hl_buf_puts(&b, "null");
    else
      hl_value_format(&b, call->args[k]->type, &a[k]);
  }
  if (b.oom) {
    hl_buf_fini(&b);
    return hl_err_nomem(err);
  }
  /* the values are the user's data: cut to what an error message holds */
  hl_status_t st = hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(CARDINALITY_VIOLATION),
                                 "Cardinality Violation in Merge statement: %.200s",
                                 b.len ? hl_buf_cstr(&b) : "");
  hl_buf_fini(&b);
  return st;
}

/* enforce_constraint(b): TRUE, or the statement fails when b is FALSE or
 * NULL (Hive reads a NULL as a failed check as well). */
HL_FN(hl_fn_enforce_constraint) {
  if (a[0].is_null || !a[0].u.b)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INTEGRITY_CONSTRAINT_VIOLATION),
                         "Either CHECK or NOT NULL constraint violated!");
  out->u.b = true;
  return HL_OK;
}

/* split_map_privs(s): the privileges whose positions in the
 * space-separated list s hold "1", in Hive's order of privileges. */
HL_FN(hl_fn_split_map_privs) {
  static const char *const privs[] = {"SELECT", "UPDATE", "CREATE", "DROP",  "ALTER",
                                      "INDEX",  "LOCK",   "READ",   "WRITE", "ALL"};
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const char *s = a[0].u.s.ptr, *end = s + a[0].u.s.len;
  size_t n = 0;
  for (const char *p = s;; n++) { /* the tokens marked "1" */
    const char *q = memchr(p, ' ', (size_t)(end - p));
    const char *te = q ? q : end;
    if (te - p == 1 && *p == '1' && n >= sizeof privs / sizeof privs[0])
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "split_map_privs: no privilege at position %zu", n + 1);
    if (!q) break;
    p = q + 1;
  }
  hl_value_t *items = hl_arena_alloc(arena, sizeof *items * (n + 1));
  if (!items) return hl_err_nomem(err);
  uint32_t m = 0;
  size_t idx = 0;
  for (const char *p = s;; idx++) {
    const char *q = memchr(p, ' ', (size_t)(end - p));
    const char *te = q ? q : end;
    if (te - p == 1 && *p == '1') {
      items[m].is_null = false;
      items[m].u.s.ptr = privs[idx];
      items[m].u.s.len = (uint32_t)strlen(privs[idx]);
      m++;
    }
    if (!q) break;
    p = q + 1;
  }
  out->is_null = false;
  out->u.list.n = m;
  out->u.list.items = items;
  return HL_OK;
}

static int b64_digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Java's Base64.getDecoder() (the strict basic alphabet, padding optional
 * but exact) of S[0..n) into OUT (n * 3 / 4 + 3 bytes).  False when Java
 * throws. */
static bool b64_strict(const unsigned char *s, size_t n, unsigned char *out, size_t *out_len) {
  uint32_t acc = 0;
  int have = 0; /* digits in the current unit */
  size_t o = 0, i = 0;
  for (; i < n; i++) {
    if (s[i] == '=') {
      /* "xx==" or "xxx=" ends the data */
      if (have < 2 || (have == 2 && (i + 1 >= n || s[i + 1] != '='))) return false;
      i += have == 2 ? 2 : 1;
      break;
    }
    int d = b64_digit(s[i]);
    if (d < 0) return false;
    acc = acc << 6 | (uint32_t)d;
    if (++have == 4) {
      out[o++] = (unsigned char)(acc >> 16);
      out[o++] = (unsigned char)(acc >> 8);
      out[o++] = (unsigned char)acc;
      acc = 0;
      have = 0;
    }
  }
  if (i < n || have == 1) return false; /* bytes after the padding; a lone digit */
  if (have == 2) out[o++] = (unsigned char)(acc >> 4);
  if (have == 3) {
    out[o++] = (unsigned char)(acc >> 10);
    out[o++] = (unsigned char)(acc >> 2);
  }
  *out_len = o;
  return true;
}

/* Java's GZIPInputStream over IN[0..n) appended to B: members
 * one after another while the bytes after one start with gzip's magic,
 * anything else after a member ignored. */
static hl_status_t gunzip(const hl_expr_t *call, const unsigned char *in, size_t n, hl_buf_t *b,
                          hl_error_t *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return hl_err_nomem(err);
  zs.next_in = (Bytef *)in;
  zs.avail_in = (uInt)n;
  unsigned char chunk[16384];
  const char *what = NULL;
  for (;;) {
    zs.next_out = chunk;
    zs.avail_out = sizeof chunk;
    int rc = inflate(&zs, Z_NO_FLUSH);
    hl_buf_append(b, chunk, sizeof chunk - zs.avail_out);
    if (b->oom) {
      inflateEnd(&zs);
      return hl_err_nomem(err);
    }
    if (b->len > MAX_MESSAGE) {
      inflateEnd(&zs);
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                           "deserialize: the message inflates to more than %u bytes", MAX_MESSAGE);
    }
    if (rc == Z_STREAM_END) {
      if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      what = "the gzip stream ends early";
    } else if (rc == Z_MEM_ERROR) {
      inflateEnd(&zs);
      return hl_err_nomem(err);
    } else {
      what = "the message is not gzip data";
    }
    break;
  }
  inflateEnd(&zs);
  if (what)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(DATA_EXCEPTION), "deserialize: %s", what);
  return HL_OK;
}

/* deserialize(message, format): FORMAT as Hive's MessageFactory names an
 * encoder, ignoring case: 'json-0.2' gives the message as is; 'gzip' and
 * 'gzip(json-2.0)' decode base64, then gzip, then UTF-8 (bad sequences
 * become U+FFFD).  A NULL message is NULL. */
HL_FN(hl_fn_deserialize) {
  if (a[1].is_null)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                         "deserialize: the compression format is NULL");
  const hl_str_t *f = &a[1].u.s;
  bool json = f->len == 8 && strncasecmp(f->ptr, "json-0.2", 8) == 0;
  bool gzip = (f->len == 4 && strncasecmp(f->ptr, "gzip", 4) == 0) ||
              (f->len == 14 && strncasecmp(f->ptr, "gzip(json-2.0)", 14) == 0);
  if (!json && !gzip)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "compressionFormat: %.*s is not supported",
                         (int)(f->len > 64 ? 64 : f->len), f->ptr);
  if (a[0].is_null || json) {
    *out = a[0];
    return HL_OK;
  }
  size_t n = a[0].u.s.len, raw_len = 0;
  unsigned char *raw = hl_arena_alloc(arena, n / 4 * 3 + 3);
  if (!raw) return hl_err_nomem(err);
  if (!b64_strict((const unsigned char *)a[0].u.s.ptr, n, raw, &raw_len))
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                         "deserialize: the message is not base64");
  hl_buf_t b;
  hl_buf_init(&b);
  hl_status_t st = gunzip(call, raw, raw_len, &b, err);
  if (st == HL_OK) {
    /* into the arena, as Java's decoder of UTF-8 reads it */
    char *copy = hl_arena_alloc(arena, b.len ? b.len : 1);
    if (!copy) {
      st = hl_err_nomem(err);
    } else {
      if (b.len) memcpy(copy, b.data, b.len);
      st = hl_fn_utf8_java(copy, b.len, arena, out, err);
    }
  }
  hl_buf_fini(&b);
  return st;
}
