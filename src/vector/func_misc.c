/*
 * func_misc.c -- Hive's miscellaneous and conditional functions: crc32,
 * base64/unbase64, aes_encrypt/aes_decrypt (OpenSSL), isnull/isnotnull,
 * istrue/isfalse/isnottrue/isnotfalse, assert_true, uuid (encode/decode:
 * func_charset.c).  Session values
 * (current_user, current_database, version) are folded to constants by
 * the binder (plan/bind.c) and have no row function.  Signatures in func.c.
 */
#include "vector/func_int.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <strings.h>
#include <string.h>
#include <zlib.h>

#define NULL_ARG(i)                                                                                \
  do {                                                                                             \
    if (a[i].is_null) {                                                                            \
      out->is_null = true;                                                                         \
      return HL_OK;                                                                                \
    }                                                                                              \
  } while (0)

/* crc32(string|binary): the CRC-32 of the bytes, as a BIGINT. */
HL_FN(hl_fn_crc32) {
  NULL_ARG(0);
  out->u.i = (int64_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)a[0].u.s.ptr, a[0].u.s.len);
  return HL_OK;
}

/* base64(binary): standard alphabet, padded, no line breaks. */
HL_FN(hl_fn_base64) {
  NULL_ARG(0);
  size_t n = a[0].u.s.len, m = 4 * ((n + 2) / 3);
  char *p = hl_fn_alloc_str(out, arena, m + 1); /* EVP writes a NUL */
  if (!p) return hl_err_nomem(err);
  int k = EVP_EncodeBlock((unsigned char *)p, (const unsigned char *)a[0].u.s.ptr, (int)n);
  out->u.s.len = (uint32_t)k;
  return HL_OK;
}

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

/* unbase64(string) -> binary, as Apache Commons' lenient decoder that Hive
 * uses: characters outside the alphabet are skipped, '=' ends the data, a
 * trailing partial group keeps its whole bytes. */
HL_FN(hl_fn_unbase64) {
  NULL_ARG(0);
  const unsigned char *s = (const unsigned char *)a[0].u.s.ptr;
  size_t n = a[0].u.s.len;
  char *p = hl_fn_alloc_str(out, arena, n * 3 / 4 + 3);
  if (!p) return hl_err_nomem(err);
  uint32_t acc = 0;
  int bits = 0;
  size_t k = 0;
  for (size_t i = 0; i < n && s[i] != '='; i++) {
    int v = b64_value(s[i]);
    if (v < 0) continue;
    acc = (acc << 6 | (uint32_t)v) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      p[k++] = (char)(acc >> bits & 0xFF);
    }
  }
  out->u.s.len = (uint32_t)k;
  return HL_OK;
}

/* AES in ECB mode with PKCS#5 padding, as Hive's Java "AES" cipher; the key
 * is 16, 24 or 32 bytes (else NULL).  Decryption of bad data is NULL. */
static hl_status_t aes(const hl_value_t *a, hl_value_t *out, hl_arena_t *arena, hl_error_t *err,
                       bool encrypt) {
  NULL_ARG(0);
  NULL_ARG(1);
  const EVP_CIPHER *c = a[1].u.s.len == 16   ? EVP_aes_128_ecb()
                        : a[1].u.s.len == 24 ? EVP_aes_192_ecb()
                        : a[1].u.s.len == 32 ? EVP_aes_256_ecb()
                                             : NULL;
  if (!c) {
    out->is_null = true;
    return HL_OK;
  }
  size_t n = a[0].u.s.len;
  char *p = hl_fn_alloc_str(out, arena, n + 32);
  EVP_CIPHER_CTX *ctx = p ? EVP_CIPHER_CTX_new() : NULL;
  if (!ctx) return hl_err_nomem(err);
  int l1 = 0, l2 = 0;
  bool ok = EVP_CipherInit_ex(ctx, c, NULL, (const unsigned char *)a[1].u.s.ptr, NULL,
                              encrypt ? 1 : 0) == 1 &&
            EVP_CipherUpdate(ctx, (unsigned char *)p, &l1, (const unsigned char *)a[0].u.s.ptr,
                             (int)n) == 1 &&
            EVP_CipherFinal_ex(ctx, (unsigned char *)p + l1, &l2) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) {
    out->is_null = true;
    return HL_OK;
  }
  out->u.s.len = (uint32_t)(l1 + l2);
  return HL_OK;
}

HL_FN(hl_fn_aes_encrypt) {
  return aes(a, out, arena, err, true);
}

HL_FN(hl_fn_aes_decrypt) {
  return aes(a, out, arena, err, false);
}

HL_FN(hl_fn_isnull) {
  out->u.b = a[0].is_null;
  return HL_OK;
}

HL_FN(hl_fn_isnotnull) {
  out->u.b = !a[0].is_null;
  return HL_OK;
}

/* istrue(x) is x IS TRUE: never NULL; the other three likewise */
HL_FN(hl_fn_istrue) {
  out->u.b = !a[0].is_null && a[0].u.b;
  return HL_OK;
}

HL_FN(hl_fn_isfalse) {
  out->u.b = !a[0].is_null && !a[0].u.b;
  return HL_OK;
}

HL_FN(hl_fn_isnottrue) {
  out->u.b = a[0].is_null || !a[0].u.b;
  return HL_OK;
}

HL_FN(hl_fn_isnotfalse) {
  out->u.b = a[0].is_null || a[0].u.b;
  return HL_OK;
}

/* assert_true(cond): NULL when cond is true, else the statement fails. */
HL_FN(hl_fn_assert_true) {
  out->is_null = true;
  if (!a[0].is_null && a[0].u.b) return HL_OK;
  return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(DATA_EXCEPTION),
                       "assert_true: the assertion failed");
}

/* uuid(): a random (version 4) UUID, a new one for every row. */
HL_FN(hl_fn_uuid) {
  unsigned char r[16];
  if (RAND_bytes(r, sizeof r) != 1)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "no random bytes for uuid()");
  r[6] = (unsigned char)((r[6] & 0x0F) | 0x40);
  r[8] = (unsigned char)((r[8] & 0x3F) | 0x80);
  char *p = hl_fn_alloc_str(out, arena, 37); /* snprintf's NUL fits */
  if (!p) return hl_err_nomem(err);
  snprintf(p, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", r[0],
           r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
           r[15]);
  out->u.s.len = 36;
  return HL_OK;
}

/* typeof(x): the name of x's type.  The binder folds a call into that
 * constant; this answers a call built without it. */
HL_FN(hl_fn_typeof) {
  (void)a;
  const hl_type_t *t = call->args[0]->type;
  char *name = t->id == HL_T_NULL ? (char *)"void" : hl_type_to_string(arena, t);
  if (!name) return hl_err_nomem(err);
  out->u.s.ptr = name;
  out->u.s.len = (uint32_t)strlen(name);
  return HL_OK;
}
