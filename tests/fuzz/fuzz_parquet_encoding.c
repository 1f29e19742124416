/*
 * fuzz_parquet_encoding.c -- libFuzzer target for the Parquet value and level
 * decoders (src/format/parquet/pq_encoding.h).
 *
 * Input: byte 0 picks the decoder, byte 1 a parameter (bit width, type
 * width), bytes 2-3 the value count (<= 4096), byte 4 the batch size; the
 * rest is the encoded data.  Every decoder runs in batches over it; errors
 * are fine, any crash, sanitizer report, leak or hang is a bug.  The same
 * bytes are also taken as values, encoded, decoded and compared (a mismatch
 * traps), so encoders and decoders are checked against each other.
 *
 * Not part of the CMake build.  Build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -std=c11 \
 *     -Iinclude -Isrc tests/fuzz/fuzz_parquet_encoding.c \
 *     src/format/parquet/pq_encoding.c src/format/parquet/pq_rle.c \
 *     src/format/parquet/pq_delta.c src/util/[a-z]*.c -lm -lpthread \
 *     -o fuzz_parquet_encoding
 *   mkdir -p tests/fuzz/corpus/parquet_encoding
 *   ./fuzz_parquet_encoding tests/fuzz/corpus/parquet_encoding
 */
#include "format/parquet/pq_encoding.h"
#include "util/mem.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_N 4096

typedef struct outputs {
  uint32_t u32[MAX_N + 8];
  int16_t i16[MAX_N];
  uint8_t u8[MAX_N];
  int32_t i32[MAX_N];
  int64_t i64[MAX_N];
  hl_pq_bytes_t bytes[MAX_N];
  uint8_t raw[MAX_N * 16];
} outputs_t;

static void decode(int kind, int param, size_t n, size_t batch, const uint8_t *in, size_t len,
                   outputs_t *o, hl_arena_t *arena) {
  hl_error_t err;
  hl_err_init(&err);
  hl_pq_rle_dec_t rle;
  hl_pq_delta_dec_t dd;
  hl_pq_dlba_dec_t dl;
  hl_pq_dba_dec_t db;
  hl_status_t rc = HL_OK;
  size_t used = 0;
  int w = param % 34; /* 33 exercises the bad-width path */
  switch (kind % 14) {
  case 0:
    rc = hl_pq_rle_init(&rle, in, len, w, (uint32_t)param * 131, n, "levels", &err);
    for (size_t d = 0; rc == HL_OK && d < n; d += batch)
      rc = hl_pq_rle_get_u32(&rle, d + batch > n ? n - d : batch, o->u32 + d, &err);
    break;
  case 1:
    rc = hl_pq_rle_init_prefixed(&rle, in, len, w % 17, (uint32_t)param % 300, n, "levels", &used,
                                 &err);
    for (size_t d = 0; rc == HL_OK && d < n; d += batch)
      rc = hl_pq_rle_get_levels(&rle, d + batch > n ? n - d : batch, o->i16 + d, &err);
    break;
  case 2:
    rc = hl_pq_rle_init_prefixed(&rle, in, len, 1, 1, n, "BOOLEAN", &used, &err);
    for (size_t d = 0; rc == HL_OK && d < n; d += batch)
      rc = hl_pq_rle_get_bool(&rle, d + batch > n ? n - d : batch, o->u8 + d, &err);
    break;
  case 3: {
    static const int64_t dict[7] = {1, 2, 3, 4, 5, 6, 7};
    rc = hl_pq_dict_init(&rle, in, len, (uint32_t)param % 8, n, &err);
    for (size_t d = 0; rc == HL_OK && d < n; d += batch)
      rc = hl_pq_dict_get(&rle, dict, 8, d + batch > n ? n - d : batch, o->i64 + d, &err);
    break;
  }
  case 4:
    rc = hl_pq_bitpacked_decode(in, len, w % 17, (uint32_t)param, param % 5, n, o->i16, &err);
    break;
  case 5:
  case 6:
    rc = hl_pq_delta_init(&dd, in, len, kind % 14 == 6, n, &err);
    if (rc == HL_OK) {
      const uint8_t *end;
      rc = hl_pq_delta_find_end(&dd, &end, &err);
      if (rc == HL_OK && (end < in || end > in + len)) abort();
    }
    for (size_t d = 0; rc == HL_OK && d < hl_pq_delta_total(&dd); d += batch) {
      size_t k = d + batch > hl_pq_delta_total(&dd) ? hl_pq_delta_total(&dd) - d : batch;
      rc = kind % 14 == 6 ? hl_pq_delta_get_i64(&dd, k, o->i64 + d, &err)
                          : hl_pq_delta_get_i32(&dd, k, o->i32 + d, &err);
    }
    break;
  case 7:
    rc = hl_pq_dlba_init(&dl, in, len, n, &err);
    for (size_t d = 0; rc == HL_OK && d < dl.lengths.total; d += batch)
      rc = hl_pq_dlba_get(&dl, d + batch > dl.lengths.total ? dl.lengths.total - d : batch,
                          o->bytes + d, &err);
    break;
  case 8:
    rc = hl_pq_dba_init(&db, in, len, n, arena, 1 << 20, &err);
    for (size_t d = 0; rc == HL_OK && d < db.prefixes.total; d += batch)
      rc = hl_pq_dba_get(&db, d + batch > db.prefixes.total ? db.prefixes.total - d : batch,
                         o->bytes + d, &err);
    break;
  case 9:
    rc = hl_pq_plain_decode_bytes(in, len, n, o->bytes, &used, &err);
    if (rc == HL_OK && used > len) abort();
    break;
  case 10:
    rc = hl_pq_plain_decode_bool(in, len, (size_t)param, n, o->u8, &err);
    break;
  case 11:
    rc = hl_pq_plain_decode_int96_micros(in, len, n, o->i64, &used, &err);
    break;
  case 12:
    rc = hl_pq_bss_decode(in, len, (size_t)(param % 16) + 1, (size_t)param % 3, n, o->raw, &err);
    break;
  default:
    rc = hl_pq_plain_decode_flba(in, len, n, (uint32_t)param % 17, o->bytes, &used, &err);
    break;
  }
  if (rc != HL_OK && (!err.message || err.code == HL_OK)) abort(); /* errors carry a message */
  hl_err_clear(&err);
}

/* Encode the input as values, decode, compare. */
static void round_trip(const uint8_t *in, size_t len, int param, outputs_t *o, hl_arena_t *arena) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  size_t n = len / 8 < MAX_N ? len / 8 : MAX_N;
  int64_t *v = hl_malloc(n ? n * 8 : 1);
  if (!v) return;
  memcpy(v, in, n * 8);
  /* DELTA_BINARY_PACKED int64. */
  if (hl_pq_delta_encode_i64(&buf, v, n, &err) == HL_OK) {
    if (hl_pq_delta_decode_i64((const uint8_t *)buf.data, buf.len, n, o->i64, NULL, &err) !=
            HL_OK ||
        memcmp(o->i64, v, n * 8) != 0)
      abort();
  }
  /* RLE indices of width param % 33 (values masked to fit). */
  int w = param % 33;
  uint32_t mask = w == 32 ? UINT32_MAX : (uint32_t)((1u << w) - 1);
  for (size_t i = 0; i < n; i++)
    o->u32[i] = (uint32_t)v[i] & mask;
  /* Long runs too: repeat the first value when the parameter asks. */
  if (param & 0x80)
    for (size_t i = 0; i < n / 2; i++)
      o->u32[i] = o->u32[0];
  hl_buf_reset(&buf);
  uint32_t *idx = hl_malloc(n ? n * 4 : 1);
  if (idx && hl_pq_rle_encode(&buf, o->u32, n, w, &err) == HL_OK) {
    hl_pq_rle_dec_t dec;
    if (hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, w, mask, n, "x", &err) != HL_OK ||
        hl_pq_rle_get_u32(&dec, n, idx, &err) != HL_OK || memcmp(idx, o->u32, n * 4) != 0)
      abort();
  }
  hl_free(idx);
  /* DELTA_BYTE_ARRAY over slices of the input. */
  size_t ns = len / 4 < 256 ? len / 4 : 256;
  hl_pq_bytes_t *s = hl_malloc((ns ? ns : 1) * sizeof *s);
  if (s) {
    for (size_t i = 0; i < ns; i++) {
      size_t off = in[i] % len, l = in[(i + 1) % len] % 16;
      s[i].ptr = in + off;
      s[i].len = (uint32_t)(off + l <= len ? l : len - off);
    }
    hl_buf_reset(&buf);
    if (hl_pq_dba_encode(&buf, s, ns, &err) == HL_OK) {
      hl_pq_dba_dec_t dec;
      if (hl_pq_dba_init(&dec, (const uint8_t *)buf.data, buf.len, ns, arena, 0, &err) != HL_OK ||
          hl_pq_dba_get(&dec, ns, o->bytes, &err) != HL_OK)
        abort();
      for (size_t i = 0; i < ns; i++)
        if (o->bytes[i].len != s[i].len ||
            (s[i].len && memcmp(o->bytes[i].ptr, s[i].ptr, s[i].len) != 0))
          abort();
    }
    hl_free(s);
  }
  hl_err_clear(&err);
  hl_buf_fini(&buf);
  hl_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 5) return 0;
  outputs_t *o = hl_malloc(sizeof *o);
  hl_arena_t *arena = hl_arena_create(0);
  if (!o || !arena) {
    hl_free(o);
    hl_arena_destroy(arena);
    return 0;
  }
  int kind = data[0], param = data[1];
  size_t n = ((size_t)data[2] | (size_t)data[3] << 8) % (MAX_N + 1);
  size_t batch = data[4] ? data[4] : 1;
  decode(kind, param, n, batch, data + 5, size - 5, o, arena);
  round_trip(data + 5, size - 5, param, o, arena);
  hl_arena_destroy(arena);
  hl_free(o);
  return 0;
}
