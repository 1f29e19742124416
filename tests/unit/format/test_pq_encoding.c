/*
 * test_pq_encoding.c -- unit tests for src/format/parquet/pq_encoding.h.
 *
 * Spec examples from apache/parquet-format Encodings.md with their exact
 * bytes, encoder/decoder round trips over pseudo-random data (every bit
 * width, edge values, batch boundaries, long runs), malformed inputs with
 * their exact messages, and a decode throughput print (RLE dictionary
 * indices and DELTA_BINARY_PACKED over 10M values).
 */
#include "format/parquet/pq_encoding.h"
#include "util/mem.h"
#include "test.h"

#include <stdint.h>
#include <time.h>

/* ------------------------------------------------------------------ helpers */

static uint64_t rng_next(uint64_t *s) { /* xorshift64* */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * UINT64_C(2685821657736338717);
}

static bool bytes_eq(const hl_buf_t *buf, const uint8_t *want, size_t n) {
  return buf->len == n && memcmp(buf->data, want, n) == 0;
}

/* Expects ERR to hold CODE and exactly MSG, then clears it. */
#define CHECK_ERR(err, code_, msg)                                                                 \
  do {                                                                                             \
    CHECK_INT((err).code, code_);                                                                  \
    CHECK_STR((err).message, msg);                                                                 \
    hl_err_clear(&(err));                                                                          \
  } while (0)

#define U8(...) ((const uint8_t[]){__VA_ARGS__})

/* ------------------------------------------------------------------ PLAIN */

TEST(bit_width) {
  CHECK_INT(hl_pq_bit_width(0), 0);
  CHECK_INT(hl_pq_bit_width(1), 1);
  CHECK_INT(hl_pq_bit_width(2), 2);
  CHECK_INT(hl_pq_bit_width(3), 2);
  CHECK_INT(hl_pq_bit_width(255), 8);
  CHECK_INT(hl_pq_bit_width(256), 9);
  CHECK_INT(hl_pq_bit_width(UINT32_MAX), 32);
  CHECK_INT(hl_pq_bit_width(UINT64_MAX), 64);
}

TEST(plain_bool) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  uint8_t v[11] = {1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1};
  CHECK(hl_pq_plain_encode_bool(&buf, v, 11, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0x8d, 0x06), 2));
  uint8_t out[11];
  CHECK(hl_pq_plain_decode_bool((const uint8_t *)buf.data, buf.len, 0, 11, out, &err) == HL_OK);
  CHECK(memcmp(out, v, 11) == 0);
  /* From a bit offset (batches), across the byte boundary. */
  CHECK(hl_pq_plain_decode_bool((const uint8_t *)buf.data, buf.len, 3, 7, out, &err) == HL_OK);
  CHECK(memcmp(out, v + 3, 7) == 0);
  CHECK(hl_pq_plain_decode_bool((const uint8_t *)buf.data, buf.len, 10, 7, out, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "PLAIN BOOLEAN data truncated: 17 values do not fit 2 bytes");
  hl_buf_fini(&buf);
}

TEST(plain_fixed_and_bytes) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  int64_t v[3] = {INT64_MIN, -1, INT64_MAX};
  CHECK(hl_pq_plain_encode_fixed(&buf, v, 3, 8, &err) == HL_OK);
  CHECK(bytes_eq(&buf,
                 U8(0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f),
                 24));
  int64_t out[3];
  size_t used = 0;
  CHECK(hl_pq_plain_decode_fixed((const uint8_t *)buf.data, buf.len, 3, 8, out, &used, &err) ==
        HL_OK);
  CHECK_INT(used, 24);
  CHECK(out[0] == INT64_MIN && out[1] == -1 && out[2] == INT64_MAX);
  CHECK(hl_pq_plain_decode_fixed((const uint8_t *)buf.data, 23, 3, 8, out, &used, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "PLAIN data truncated: 3 values of 8 bytes do not fit 23 bytes");
  /* n * width overflowing size_t is a truncation, not a wrap. */
  CHECK(hl_pq_plain_decode_fixed((const uint8_t *)buf.data, 24, SIZE_MAX / 4, 8, out, &used,
                                 &err) == HL_CORRUPT);
  hl_err_clear(&err);

  hl_buf_reset(&buf);
  hl_pq_bytes_t s[3] = {{(const uint8_t *)"ab", 2}, {NULL, 0}, {(const uint8_t *)"xyz", 3}};
  CHECK(hl_pq_plain_encode_bytes(&buf, s, 3, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z'), 17));
  hl_pq_bytes_t o[3];
  CHECK(hl_pq_plain_decode_bytes((const uint8_t *)buf.data, buf.len, 3, o, &used, &err) == HL_OK);
  CHECK_INT(used, 17);
  CHECK(o[0].len == 2 && memcmp(o[0].ptr, "ab", 2) == 0 && o[1].len == 0 && o[2].len == 3 &&
        o[2].ptr == (const uint8_t *)buf.data + 14);
  CHECK(hl_pq_plain_decode_bytes((const uint8_t *)buf.data, 16, 3, o, &used, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "PLAIN BYTE_ARRAY value 2 of 3 bytes exceeds the 2 bytes left");
  CHECK(hl_pq_plain_decode_bytes((const uint8_t *)buf.data, 8, 3, o, &used, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "PLAIN BYTE_ARRAY length of value 1 truncated");
  /* A huge length claim must not wrap the position. */
  CHECK(hl_pq_plain_decode_bytes(U8(0xff, 0xff, 0xff, 0xff, 1), 5, 1, o, &used, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT,
            "PLAIN BYTE_ARRAY value 0 of 4294967295 bytes exceeds the 1 bytes left");

  hl_buf_reset(&buf);
  hl_pq_bytes_t f[2] = {{(const uint8_t *)"abc", 3}, {(const uint8_t *)"def", 3}};
  CHECK(hl_pq_plain_encode_flba(&buf, f, 2, 3, &err) == HL_OK);
  CHECK(bytes_eq(&buf, (const uint8_t *)"abcdef", 6));
  CHECK(hl_pq_plain_decode_flba((const uint8_t *)buf.data, buf.len, 2, 3, o, &used, &err) == HL_OK);
  CHECK(used == 6 && o[1].len == 3 && memcmp(o[1].ptr, "def", 3) == 0);
  CHECK(hl_pq_plain_encode_flba(&buf, f, 2, 4, &err) == HL_MISUSE);
  CHECK_ERR(err, HL_MISUSE, "FIXED_LEN_BYTE_ARRAY value of 3 bytes, 4 expected");
  hl_buf_fini(&buf);
}

TEST(int96) {
  hl_error_t err;
  hl_err_init(&err);
  uint8_t b[36];
  int64_t us;
  /* Julian day 2440588, 0 ns = the epoch. */
  memcpy(b, U8(0, 0, 0, 0, 0, 0, 0, 0, 0x8c, 0x3d, 0x25, 0x00), 12);
  CHECK(hl_pq_int96_to_micros(b, &us) && us == 0);
  /* 2000-01-01 12:00:00.000001999 = Julian day 2451545; micros floor. */
  uint64_t ns = UINT64_C(43200000001999);
  uint32_t day = 2451545;
  memcpy(b, &ns, 8);
  memcpy(b + 8, &day, 4);
  CHECK(hl_pq_int96_to_micros(b, &us));
  CHECK_INT(us, INT64_C(946728000000001));
  /* Round trip of a pre-epoch instant. */
  hl_pq_int96_from_micros(INT64_C(-1), b);
  CHECK(memcmp(b, U8(0x18, 0xfc, 0x4e, 0x91, 0x94, 0x4e, 0, 0, 0x8b, 0x3d, 0x25, 0), 12) == 0);
  CHECK(hl_pq_int96_to_micros(b, &us) && us == -1);
  int64_t vals[3] = {INT64_C(-62135596800000000), 0, INT64_C(253402300799999999)};
  for (int i = 0; i < 3; i++)
    hl_pq_int96_from_micros(vals[i], b + 12 * i);
  int64_t out[3];
  size_t used;
  CHECK(hl_pq_plain_decode_int96_micros(b, 36, 3, out, &used, &err) == HL_OK);
  CHECK(used == 36 && out[0] == vals[0] && out[1] == 0 && out[2] == vals[2]);
  /* Julian day 0xffffffff overflows int64 microseconds. */
  memset(b + 8, 0xff, 4);
  CHECK(hl_pq_plain_decode_int96_micros(b, 36, 3, out, &used, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "INT96 timestamp (Julian day 4294967295) is out of range");
}

/* ------------------------------------------------------------------ RLE / bit-packing hybrid */

TEST(rle_spec_example) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  uint32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  /* Encodings.md: 0..7 at width 3 pack to 10001000 11000110 11111010. */
  CHECK(hl_pq_rle_encode(&buf, v, 8, 3, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0x03, 0x88, 0xc6, 0xfa), 4));
  hl_pq_rle_dec_t dec;
  uint32_t out[8];
  CHECK(hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, 3, 7, 8, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 8, out, &err) == HL_OK);
  CHECK(memcmp(out, v, sizeof v) == 0);

  /* An RLE run: 100 x 5 at width 3 = header varint(200), one value byte. */
  uint32_t r[100];
  for (int i = 0; i < 100; i++)
    r[i] = 5;
  hl_buf_reset(&buf);
  CHECK(hl_pq_rle_encode(&buf, r, 100, 3, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0xc8, 0x01, 0x05), 3));
  /* Width 9 values take two bytes, little endian. */
  for (int i = 0; i < 10; i++)
    r[i] = 300;
  hl_buf_reset(&buf);
  CHECK(hl_pq_rle_encode(&buf, r, 10, 9, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0x14, 0x2c, 0x01), 3));

  /* Deprecated BIT_PACKED: the same values MSB first = 00000101 00111001 01110111. */
  int16_t lv[8];
  const uint8_t *bp = U8(0x05, 0x39, 0x77);
  size_t nb = 0;
  CHECK(hl_pq_bitpacked_size(8, 3, &nb) && nb == 3);
  CHECK(hl_pq_bitpacked_decode(bp, 3, 3, 7, 0, 8, lv, &err) == HL_OK);
  for (int i = 0; i < 8; i++)
    CHECK_INT(lv[i], i);
  CHECK(hl_pq_bitpacked_decode(bp, 3, 3, 7, 5, 3, lv, &err) == HL_OK);
  CHECK(lv[0] == 5 && lv[1] == 6 && lv[2] == 7);
  CHECK(hl_pq_bitpacked_decode(bp, 3, 3, 6, 0, 8, lv, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "BIT_PACKED level 7 exceeds the maximum 6");
  CHECK(hl_pq_bitpacked_decode(bp, 3, 3, 7, 4, 5, lv, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "BIT_PACKED levels truncated (9 values need more than 3 bytes)");
  hl_buf_fini(&buf);
}

/* Long level streams of widths 1 (flat nullable columns: bit-packed bytes
 * widen 8 levels at a time) and 2, mixing runs and bit-packed stretches,
 * decoded in uneven pieces. */
TEST(rle_levels_long_mixed) {
  hl_error_t err;
  hl_err_init(&err);
  enum { N = 10000 };
  static int16_t lv[N], out[N];
  for (int w = 1; w <= 2; w++) {
    uint32_t x = 12345;
    for (int i = 0; i < N; i++) {
      x = x * 1103515245u + 12345u;
      int16_t r = (int16_t)((x >> 16) % (uint32_t)(w == 1 ? 2 : 4));
      lv[i] = (i / 700) % 3 == 1 ? (int16_t)(w == 1 ? 1 : 3) : r; /* runs every third stretch */
    }
    hl_buf_t buf;
    hl_buf_init(&buf);
    CHECK(hl_pq_rle_encode_levels(&buf, lv, N, w, false, &err) == HL_OK);
    hl_pq_rle_dec_t dec;
    CHECK(hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, w, w == 1 ? 1 : 3, N,
                         "definition levels", &err) == HL_OK);
    memset(out, 0x55, sizeof out);
    for (int at = 0, step = 1; at < N; step = step * 7 % 1031 + 1) {
      int k = N - at < step ? N - at : step;
      CHECK(hl_pq_rle_get_levels(&dec, (size_t)k, out + at, &err) == HL_OK);
      at += k;
    }
    CHECK(memcmp(out, lv, sizeof lv) == 0);
    hl_buf_fini(&buf);
  }
}

TEST(rle_levels_prefixed_and_bool) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  int16_t lv[20];
  for (int i = 0; i < 20; i++)
    lv[i] = i < 12 ? 1 : (int16_t)(i % 2);
  CHECK(hl_pq_rle_encode_levels(&buf, lv, 20, 1, true, &err) == HL_OK);
  /* 12 x 1 as a run, then one padded literal group of the last 8. */
  CHECK(bytes_eq(&buf, U8(4, 0, 0, 0, 0x18, 0x01, 0x03, 0xaa), 8));
  hl_buf_append(&buf, "tail", 4);
  hl_pq_rle_dec_t dec;
  size_t used = 0;
  CHECK(hl_pq_rle_init_prefixed(&dec, (const uint8_t *)buf.data, buf.len, 1, 1, 20,
                                "definition levels", &used, &err) == HL_OK);
  CHECK_INT(used, 8);
  int16_t out[20];
  CHECK(hl_pq_rle_get_levels(&dec, 7, out, &err) == HL_OK);
  CHECK(hl_pq_rle_get_levels(&dec, 13, out + 7, &err) == HL_OK);
  CHECK(memcmp(out, lv, sizeof lv) == 0);
  /* The page holds 20 values: asking for a 21st is the caller's bug. */
  CHECK(hl_pq_rle_get_levels(&dec, 1, out, &err) == HL_MISUSE);
  CHECK_ERR(err, HL_MISUSE, "definition levels: more values requested than the page holds");
  /* A level above the maximum. */
  static const uint8_t in1[] = {0x04, 0x02};
  CHECK(hl_pq_rle_init(&dec, in1, 2, 2, 1, 2, "repetition levels", &err) == HL_OK);
  CHECK(hl_pq_rle_get_levels(&dec, 2, out, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "repetition levels value 2 exceeds the maximum 1");
  static const uint8_t in2[] = {9, 0, 0, 0, 1};
  CHECK(hl_pq_rle_init_prefixed(&dec, in2, 5, 1, 1, 20, "definition levels", &used, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "definition levels: length 9 exceeds the 1 bytes available");

  hl_buf_reset(&buf);
  uint8_t bv[13] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0};
  CHECK(hl_pq_rle_encode_bool(&buf, bv, 13, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(4, 0, 0, 0, 0x14, 0x01, 0x03, 0x02), 8));
  uint8_t bo[13];
  CHECK(hl_pq_rle_init_prefixed(&dec, (const uint8_t *)buf.data, buf.len, 1, 1, 13, "BOOLEAN",
                                &used, &err) == HL_OK);
  CHECK(hl_pq_rle_get_bool(&dec, 13, bo, &err) == HL_OK);
  CHECK(memcmp(bo, bv, 13) == 0);
  hl_buf_fini(&buf);
}

/* Data with runs of random lengths (some long) and random stretches. */
static void fill_runs(uint64_t *s, uint32_t *v, size_t n, int w) {
  uint64_t mask = w == 32 ? UINT32_MAX : ((uint64_t)1 << w) - 1;
  for (size_t i = 0; i < n;) {
    size_t len = 1 + rng_next(s) % 40;
    bool run = rng_next(s) % 2;
    uint32_t x = (uint32_t)(rng_next(s) & mask);
    for (size_t j = 0; j < len && i < n; j++, i++)
      v[i] = run ? x : (uint32_t)(rng_next(s) & mask);
  }
}

TEST(rle_round_trip_all_widths) {
  hl_error_t err;
  hl_err_init(&err);
  uint64_t seed = 42;
  size_t n = 5003;
  uint32_t *v = hl_malloc(n * 4), *out = hl_malloc(n * 4);
  hl_buf_t buf;
  hl_buf_init(&buf);
  for (int w = 0; w <= 32; w++) {
    fill_runs(&seed, v, n, w);
    hl_buf_reset(&buf);
    CHECK(hl_pq_rle_encode(&buf, v, n, w, &err) == HL_OK);
    uint32_t maxv = w == 32 ? UINT32_MAX : (uint32_t)(((uint64_t)1 << w) - 1);
    hl_pq_rle_dec_t dec;
    CHECK(hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, w, maxv, n, "x", &err) == HL_OK);
    /* Odd batch sizes so batches cut runs and groups. */
    size_t done = 0;
    while (done < n) {
      size_t k = 1 + rng_next(&seed) % 700;
      if (k > n - done) k = n - done;
      if (hl_pq_rle_get_u32(&dec, k, out + done, &err) != HL_OK) break;
      done += k;
    }
    CHECK_INT(done, n);
    if (memcmp(out, v, n * 4) != 0) {
      fprintf(stderr, "round trip mismatch at width %d\n", w);
      CHECK(0);
    }
    /* Past the data (and the up to 7 padding values of a last group). */
    CHECK(hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, w, maxv, n + 8, "x", &err) ==
          HL_OK);
    CHECK(hl_pq_rle_get_u32(&dec, n, out, &err) == HL_OK);
    CHECK(hl_pq_rle_get_u32(&dec, 8, out, &err) == HL_CORRUPT);
    CHECK(err.message && strncmp(err.message, "x end with ", 11) == 0);
    hl_err_clear(&err);
  }
  CHECK_STR(err.message ? err.message : "", "");
  hl_buf_fini(&buf);
  hl_free(v);
  hl_free(out);
}

TEST(rle_long_runs) {
  hl_error_t err;
  hl_err_init(&err);
  size_t n = 200000;
  uint32_t *v = hl_malloc(n * 4), *out = hl_malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    v[i] = i < 70000 ? 3 : (i < 70005 ? (uint32_t)i % 4 : 1);
  hl_buf_t buf;
  hl_buf_init(&buf);
  CHECK(hl_pq_rle_encode(&buf, v, n, 2, &err) == HL_OK);
  /* run(70000 x 3): varint(140000) = e0 c5 08; 8 literal values (the 5
   * odd ones and 3 ones), then run(129995 x 1) = varint(259990). */
  CHECK(buf.len == 3 + 1 + 1 + 2 + 3 + 1);
  CHECK(memcmp(buf.data, U8(0xe0, 0xc5, 0x08, 0x03, 0x03), 5) == 0);
  hl_pq_rle_dec_t dec;
  CHECK(hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, 2, 3, n, "x", &err) == HL_OK);
  for (size_t done = 0; done < n; done += 2048) {
    size_t k = n - done < 2048 ? n - done : 2048;
    CHECK(hl_pq_rle_get_u32(&dec, k, out + done, &err) == HL_OK);
  }
  CHECK(memcmp(out, v, n * 4) == 0);
  /* The run of 70000 exceeds a page of 60000 values. */
  CHECK(hl_pq_rle_init(&dec, (const uint8_t *)buf.data, buf.len, 2, 3, 60000, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 10, out, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "x: run of 70000 values exceeds the 60000 values left");
  hl_buf_fini(&buf);
  hl_free(v);
  hl_free(out);
}

TEST(rle_malformed) {
  hl_error_t err;
  hl_err_init(&err);
  hl_pq_rle_dec_t dec;
  uint32_t out[64], out192[192];
  /* Bit-packed run of 2 groups at width 3 needs 6 bytes, has 2. */
  static const uint8_t in3[] = {0x05, 0xff, 0xff};
  CHECK(hl_pq_rle_init(&dec, in3, 3, 3, 7, 16, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 16, out, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "x: bit-packed run truncated (6 bytes needed, 2 available)");
  /* A bit-packed run of 3 groups where only 8 values remain: the other
   * groups are padding (DuckDB writes such runs) and are skipped. */
  static const uint8_t in4[] = {0x07, 0x05, 2, 3};
  CHECK(hl_pq_rle_init(&dec, in4, 4, 1, 1, 8, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 8, out, &err) == HL_OK);
  CHECK(out[0] == 1 && out[1] == 0 && out[2] == 1 && out[3] == 0 && out[7] == 0);
  /* ... also when the padding bytes are missing from the input (only the
   * real values' bytes are needed), */
  static const uint8_t in4b[] = {0x41, 0xff};
  CHECK(hl_pq_rle_init(&dec, in4b, 2, 1, 1, 5, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 5, out, &err) == HL_OK);
  CHECK(out[0] == 1 && out[4] == 1);
  /* but a run of 32 groups whose real values run past the input is not. */
  static const uint8_t in4c[] = {0x41, 0xff};
  CHECK(hl_pq_rle_init(&dec, in4c, 2, 1, 1, 192, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 192, out192, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "x: bit-packed run truncated (32 bytes needed, 1 available)");
  /* A huge group count does not overflow: the real values still decide. */
  static const uint8_t in4d[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x0f};
  CHECK(hl_pq_rle_init(&dec, in4d, sizeof in4d, 1, 1, 4, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 4, out, &err) == HL_OK);
  CHECK(out[0] == 1 && out[3] == 1);
  /* Truncated header varint and value. */
  static const uint8_t in5[] = {0x80};
  CHECK(hl_pq_rle_init(&dec, in5, 1, 3, 7, 8, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 1, out, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "x: run header truncated");
  static const uint8_t in6[] = {0x02, 0x01};
  CHECK(hl_pq_rle_init(&dec, in6, 2, 9, 511, 8, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 1, out, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "x: run value truncated");
  CHECK(hl_pq_rle_init(&dec, NULL, 0, 33, 7, 8, "x", &err) == HL_MISUSE);
  CHECK_ERR(err, HL_MISUSE, "RLE bit width 33 is outside 0..32");
  /* A final group cut short is fine if the real values are present. */
  static const uint8_t in7[] = {0x03, 0x88};
  CHECK(hl_pq_rle_init(&dec, in7, 2, 3, 7, 2, "x", &err) == HL_OK);
  CHECK(hl_pq_rle_get_u32(&dec, 2, out, &err) == HL_OK);
  CHECK(out[0] == 0 && out[1] == 1);
}

TEST(dictionary) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  uint32_t idx[40];
  for (int i = 0; i < 40; i++)
    idx[i] = i < 20 ? 2 : (uint32_t)(i * 7) % 5;
  CHECK(hl_pq_dict_encode(&buf, idx, 40, 3, &err) == HL_OK);
  CHECK_INT((uint8_t)buf.data[0], 3);
  int64_t d64[5] = {INT64_MIN, -1, 0, 1, INT64_MAX}, o64[40];
  hl_pq_rle_dec_t dec;
  CHECK(hl_pq_dict_init(&dec, (const uint8_t *)buf.data, buf.len, 5, 40, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, d64, 8, 13, o64, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, d64, 8, 27, o64 + 13, &err) == HL_OK);
  for (int i = 0; i < 40; i++)
    CHECK(o64[i] == d64[idx[i]]);
  /* Byte arrays and a 12-byte element (raw INT96). */
  hl_pq_bytes_t ds[5] = {{(const uint8_t *)"a", 1},
                         {(const uint8_t *)"bb", 2},
                         {(const uint8_t *)"ccc", 3},
                         {NULL, 0},
                         {(const uint8_t *)"e", 1}};
  hl_pq_bytes_t os[40];
  CHECK(hl_pq_dict_init(&dec, (const uint8_t *)buf.data, buf.len, 5, 40, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, ds, sizeof ds[0], 40, os, &err) == HL_OK);
  for (int i = 0; i < 40; i++)
    CHECK(os[i].ptr == ds[idx[i]].ptr && os[i].len == ds[idx[i]].len);
  uint8_t d96[5 * 12], o96[40 * 12];
  for (int i = 0; i < 60; i++)
    d96[i] = (uint8_t)i;
  CHECK(hl_pq_dict_init(&dec, (const uint8_t *)buf.data, buf.len, 5, 40, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, d96, 12, 40, o96, &err) == HL_OK);
  for (int i = 0; i < 40; i++)
    CHECK(memcmp(o96 + 12 * i, d96 + 12 * idx[i], 12) == 0);

  /* Index 4 with a dictionary of 4 entries (in the bit-packed part). */
  CHECK(hl_pq_dict_init(&dec, (const uint8_t *)buf.data, buf.len, 4, 40, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, d64, 8, 40, o64, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "dictionary index 4 is out of range for a dictionary of 4 values");
  /* Index 2 in an RLE run with a dictionary of 2. */
  CHECK(hl_pq_dict_init(&dec, (const uint8_t *)buf.data, buf.len, 2, 40, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, d64, 8, 1, o64, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "dictionary index 2 is out of range for a dictionary of 2 values");
  /* Width 0 with an empty dictionary. */
  static const uint8_t in8[] = {0, 0x03};
  CHECK(hl_pq_dict_init(&dec, in8, 2, 0, 8, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, d64, 8, 8, o64, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "dictionary index 0 is out of range for a dictionary of 0 values");
  static const uint8_t in9[] = {33, 0x03};
  CHECK(hl_pq_dict_init(&dec, in9, 2, 5, 8, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "dictionary indices: bit width 33 exceeds 32");
  CHECK(hl_pq_dict_init(&dec, NULL, 0, 5, 8, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "dictionary indices: bit width byte missing");
  hl_buf_fini(&buf);
}

/* ------------------------------------------------------------------ DELTA_BINARY_PACKED */

TEST(delta_spec_examples) {
  hl_error_t err;
  hl_err_init(&err);
  /* Example 1: 1..5, block size 8, one miniblock, min delta 1, width 0. */
  const uint8_t *ex1 = U8(0x08, 0x01, 0x05, 0x02, 0x02, 0x00);
  int32_t o[8];
  size_t used = 0;
  CHECK(hl_pq_delta_decode_i32(ex1, 6, 5, o, &used, &err) == HL_OK);
  CHECK_INT(used, 6);
  for (int i = 0; i < 5; i++)
    CHECK_INT(o[i], i + 1);
  /* Example 2: 7,5,3,1,2,3,4,5: min delta -2, width 2, deltas 0,0,0,3,3,3,3. */
  const uint8_t *ex2 = U8(0x08, 0x01, 0x08, 0x0e, 0x03, 0x02, 0xc0, 0x3f);
  int64_t o64[8];
  CHECK(hl_pq_delta_decode_i64(ex2, 8, 8, o64, &used, &err) == HL_OK);
  CHECK_INT(used, 8);
  int64_t want[8] = {7, 5, 3, 1, 2, 3, 4, 5};
  CHECK(memcmp(o64, want, sizeof want) == 0);

  /* Our encoder: block 128 of 4 x 32. */
  hl_buf_t buf;
  hl_buf_init(&buf);
  int32_t v[5] = {1, 2, 3, 4, 5};
  CHECK(hl_pq_delta_encode_i32(&buf, v, 5, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0), 10));
  hl_buf_reset(&buf);
  CHECK(hl_pq_delta_encode_i32(&buf, NULL, 0, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0x80, 0x01, 0x04, 0x00, 0x00), 5));
  CHECK(hl_pq_delta_decode_i32((const uint8_t *)buf.data, buf.len, 0, o, &used, &err) == HL_OK);
  CHECK_INT(used, 5);
  hl_buf_fini(&buf);
}

static void delta_round_trip(uint64_t *seed, size_t n, int mode, bool is64) {
  hl_error_t err;
  hl_err_init(&err);
  int64_t *v = hl_malloc((n + 1) * 8), *out = hl_malloc((n + 1) * 8);
  int32_t *v32 = hl_malloc((n + 1) * 4), *o32 = hl_malloc((n + 1) * 4);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rng_next(seed);
    switch (mode) {
    case 0: /* full range, extremes */
      v[i] = (r % 7 == 0) ? INT64_MIN : (r % 7 == 1) ? INT64_MAX : (int64_t)rng_next(seed);
      break;
    case 1: /* sorted with small steps */
      v[i] = (i ? v[i - 1] : -1000) + (int64_t)(r % 17);
      break;
    case 2: /* small random widths per miniblock */
      v[i] = (int64_t)(r & ((UINT64_C(1) << ((i / 32) % 64)) - 1));
      break;
    default: /* constant */
      v[i] = 42;
    }
    v32[i] = (int32_t)(uint32_t)v[i];
  }
  hl_buf_t buf;
  hl_buf_init(&buf);
  if (is64)
    CHECK(hl_pq_delta_encode_i64(&buf, v, n, &err) == HL_OK);
  else
    CHECK(hl_pq_delta_encode_i32(&buf, v32, n, &err) == HL_OK);
  hl_buf_append(&buf, "XYZ", 3); /* data after the stream */
  hl_pq_delta_dec_t dec;
  CHECK(hl_pq_delta_init(&dec, (const uint8_t *)buf.data, buf.len, is64, n, &err) == HL_OK);
  const uint8_t *end = NULL;
  CHECK(hl_pq_delta_find_end(&dec, &end, &err) == HL_OK);
  CHECK(end == (const uint8_t *)buf.data + buf.len - 3);
  size_t done = 0;
  while (done < n) {
    size_t k = 1 + rng_next(seed) % 300;
    if (k > n - done) k = n - done;
    hl_status_t rc = is64 ? hl_pq_delta_get_i64(&dec, k, out + done, &err)
                          : hl_pq_delta_get_i32(&dec, k, o32 + done, &err);
    if (rc != HL_OK) break;
    done += k;
  }
  CHECK_INT(done, n);
  if (is64 ? memcmp(out, v, n * 8) != 0 : memcmp(o32, v32, n * 4) != 0) {
    fprintf(stderr, "delta mismatch: n %zu mode %d is64 %d\n", n, mode, is64);
    CHECK(0);
  }
  CHECK(hl_pq_delta_get_i64(&dec, 1, out, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED data ends after 0 more values, 1 requested");
  hl_buf_fini(&buf);
  hl_free(v);
  hl_free(out);
  hl_free(v32);
  hl_free(o32);
}

TEST(delta_round_trip) {
  uint64_t seed = 7;
  size_t sizes[] = {0, 1, 2, 31, 32, 33, 128, 129, 130, 1000, 4097};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int mode = 0; mode < 4; mode++) {
      delta_round_trip(&seed, sizes[s], mode, true);
      delta_round_trip(&seed, sizes[s], mode, false);
    }
}

TEST(delta_malformed) {
  hl_error_t err;
  hl_err_init(&err);
  int64_t o[16];
  int32_t o32[16];
  size_t used;
  /* Width 65 for INT64, 33 for INT32. */
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x03, 0x00, 0x00, 65), 6, 3, o, NULL, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED miniblock bit width 65 exceeds 64");
  CHECK(hl_pq_delta_decode_i32(U8(0x08, 0x01, 0x03, 0x00, 0x00, 33), 6, 3, o32, NULL, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED miniblock bit width 33 exceeds 32");
  /* Width 64 deltas: 8 bytes per value, so 8 values need 64 bytes. */
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x03, 0x00, 0x00, 64, 1, 2, 3), 9, 3, o, NULL,
                               &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED miniblock truncated");
  /* find_end (used for consumed) sees the same. */
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x03, 0x00, 0x00, 64, 1, 2, 3), 9, 3, o, &used,
                               &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED miniblock truncated");
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x83), 3, 3, o, NULL, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED header truncated");
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x03, 0x00), 4, 3, o, NULL, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED block header truncated");
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x03, 0x03, 0x00), 4, 3, o, NULL, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED block size 8 with 3 miniblocks is invalid");
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x10, 0x00), 4, 3, o, NULL, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED data holds 16 values, more than the 3 expected");
  CHECK(hl_pq_delta_decode_i64(U8(0x08, 0x01, 0x02, 0x00, 0x00, 0), 6, 3, o, NULL, &err) ==
        HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED data holds 2 values, 3 expected");
  /* Varint longer than 64 bits. */
  CHECK(hl_pq_delta_decode_i64(
            U8(0x08, 0x01, 0x03, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), 13, 3,
            o, NULL, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BINARY_PACKED header truncated");
  /* Wrap-around: INT32 deltas of 2^32 - 1 steps. */
  CHECK(hl_pq_delta_decode_i32(U8(0x08, 0x01, 0x03, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x02, 0x00), 10,
                               3, o32, NULL, &err) == HL_OK);
  CHECK(o32[0] == INT32_MAX && o32[1] == INT32_MIN && o32[2] == INT32_MIN + 1);
}

/* ------------------------------------------------------------------ byte arrays */

TEST(delta_length_byte_array) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_pq_bytes_t v[4] = {{(const uint8_t *)"Hello", 5},
                        {(const uint8_t *)"World", 5},
                        {(const uint8_t *)"Foobar", 6},
                        {(const uint8_t *)"ABCDEF", 6}};
  CHECK(hl_pq_dlba_encode(&buf, v, 4, &err) == HL_OK);
  /* Lengths 5,5,6,6: first 5, deltas 0,1,0 at min 0, width 1: 0b010. */
  const uint8_t *want = U8(0x80, 0x01, 0x04, 0x04, 0x0a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00,
                           0x00, 0x00, 'H', 'e', 'l', 'l', 'o', 'W', 'o', 'r', 'l', 'd', 'F', 'o',
                           'o', 'b', 'a', 'r', 'A', 'B', 'C', 'D', 'E', 'F');
  CHECK(bytes_eq(&buf, want, 36));
  hl_pq_dlba_dec_t dec;
  hl_pq_bytes_t o[4];
  CHECK(hl_pq_dlba_init(&dec, (const uint8_t *)buf.data, buf.len, 4, &err) == HL_OK);
  CHECK(hl_pq_dlba_get(&dec, 1, o, &err) == HL_OK);
  CHECK(hl_pq_dlba_get(&dec, 3, o + 1, &err) == HL_OK);
  for (int i = 0; i < 4; i++)
    CHECK(o[i].len == v[i].len && !memcmp(o[i].ptr, v[i].ptr, v[i].len));
  CHECK(o[0].ptr == (const uint8_t *)buf.data + 14);
  /* Bytes missing. */
  CHECK(hl_pq_dlba_init(&dec, (const uint8_t *)buf.data, buf.len - 1, 4, &err) == HL_OK);
  CHECK(hl_pq_dlba_get(&dec, 4, o, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_LENGTH_BYTE_ARRAY value of 6 bytes exceeds the 5 bytes left");
  /* A negative length: first value zigzag(-1) = 1. */
  static const uint8_t in10[] = {0x08, 0x01, 0x01, 0x01};
  CHECK(hl_pq_dlba_init(&dec, in10, 4, 1, &err) == HL_OK);
  CHECK(hl_pq_dlba_get(&dec, 1, o, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_LENGTH_BYTE_ARRAY length -1 is negative");
  hl_buf_fini(&buf);
}

TEST(delta_byte_array) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_arena_t *arena = hl_arena_create(0);
  hl_pq_bytes_t v[5] = {{(const uint8_t *)"axis", 4},
                        {(const uint8_t *)"axle", 4},
                        {(const uint8_t *)"babble", 6},
                        {(const uint8_t *)"babyhood", 8},
                        {(const uint8_t *)"ba", 2}};
  CHECK(hl_pq_dba_encode(&buf, v, 5, &err) == HL_OK);
  /* Prefixes 0,2,0,3,2 / suffixes 4,2,6,5,0 / "axislebabbleyhood". */
  CHECK(buf.len > 17 && memcmp(buf.data + buf.len - 17, "axislebabbleyhood", 17) == 0);
  hl_pq_delta_dec_t pd;
  int32_t pre[5];
  CHECK(hl_pq_delta_init(&pd, (const uint8_t *)buf.data, buf.len, false, 5, &err) == HL_OK);
  CHECK(hl_pq_delta_get_i32(&pd, 5, pre, &err) == HL_OK);
  CHECK(pre[0] == 0 && pre[1] == 2 && pre[2] == 0 && pre[3] == 3 && pre[4] == 2);
  hl_pq_dba_dec_t dec;
  hl_pq_bytes_t o[5];
  CHECK(hl_pq_dba_init(&dec, (const uint8_t *)buf.data, buf.len, 5, arena, 0, &err) == HL_OK);
  CHECK(hl_pq_dba_get(&dec, 2, o, &err) == HL_OK);
  CHECK(hl_pq_dba_get(&dec, 3, o + 2, &err) == HL_OK);
  for (int i = 0; i < 5; i++)
    CHECK(o[i].len == v[i].len && !memcmp(o[i].ptr, v[i].ptr, v[i].len));
  CHECK(o[4].ptr == o[3].ptr); /* a pure prefix shares the previous bytes */
  /* The budget: "babble" + "babyhood" copy 4 + 8 bytes; a 10-byte cap fails. */
  CHECK(hl_pq_dba_init(&dec, (const uint8_t *)buf.data, buf.len, 5, arena, 10, &err) == HL_OK);
  CHECK(hl_pq_dba_get(&dec, 5, o, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BYTE_ARRAY values expand past the limit of 10 bytes");
  /* A prefix longer than the previous value: prefixes 0,5 / suffixes 1,1. */
  hl_buf_reset(&buf);
  int32_t p[2] = {0, 5}, s[2] = {1, 1};
  CHECK(hl_pq_delta_encode_i32(&buf, p, 2, &err) == HL_OK);
  CHECK(hl_pq_delta_encode_i32(&buf, s, 2, &err) == HL_OK);
  hl_buf_append(&buf, "ab", 2);
  CHECK(hl_pq_dba_init(&dec, (const uint8_t *)buf.data, buf.len, 2, arena, 0, &err) == HL_OK);
  CHECK(hl_pq_dba_get(&dec, 2, o, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT,
            "DELTA_BYTE_ARRAY prefix length 5 exceeds the previous value's 1 bytes");
  /* Prefix and suffix counts disagree. */
  hl_buf_reset(&buf);
  CHECK(hl_pq_delta_encode_i32(&buf, p, 2, &err) == HL_OK);
  CHECK(hl_pq_delta_encode_i32(&buf, s, 1, &err) == HL_OK);
  CHECK(hl_pq_dba_init(&dec, (const uint8_t *)buf.data, buf.len, 2, arena, 0, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "DELTA_BYTE_ARRAY has 2 prefix lengths but 1 suffixes");
  hl_arena_destroy(arena);
  hl_buf_fini(&buf);
}

TEST(byte_array_round_trip) {
  hl_error_t err;
  hl_err_init(&err);
  uint64_t seed = 99;
  size_t n = 3000;
  hl_pq_bytes_t *v = hl_malloc(n * sizeof *v), *o = hl_malloc(n * sizeof *o);
  uint8_t *pool = hl_malloc(n * 40);
  /* Sorted-ish strings sharing prefixes, some empty. */
  for (size_t i = 0; i < n; i++) {
    uint8_t *p = pool + i * 40;
    size_t len = rng_next(&seed) % 40;
    size_t keep = i && rng_next(&seed) % 2 ? v[i - 1].len / 2 : 0;
    if (keep > len) keep = len;
    if (keep) memcpy(p, v[i - 1].ptr, keep);
    for (size_t j = keep; j < len; j++)
      p[j] = (uint8_t)('a' + rng_next(&seed) % 3);
    v[i].ptr = p;
    v[i].len = (uint32_t)len;
  }
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_arena_t *arena = hl_arena_create(0);
  for (int kind = 0; kind < 3; kind++) {
    hl_buf_reset(&buf);
    hl_status_t rc = kind == 0   ? hl_pq_plain_encode_bytes(&buf, v, n, &err)
                     : kind == 1 ? hl_pq_dlba_encode(&buf, v, n, &err)
                                 : hl_pq_dba_encode(&buf, v, n, &err);
    CHECK(rc == HL_OK);
    const uint8_t *data = (const uint8_t *)buf.data;
    hl_pq_dlba_dec_t dl;
    hl_pq_dba_dec_t db;
    size_t used;
    if (kind == 0) CHECK(hl_pq_plain_decode_bytes(data, buf.len, n, o, &used, &err) == HL_OK);
    if (kind == 1) CHECK(hl_pq_dlba_init(&dl, data, buf.len, n, &err) == HL_OK);
    if (kind == 2) CHECK(hl_pq_dba_init(&db, data, buf.len, n, arena, 0, &err) == HL_OK);
    for (size_t done = 0; kind > 0 && done < n;) {
      size_t k = 1 + rng_next(&seed) % 500;
      if (k > n - done) k = n - done;
      rc = kind == 1 ? hl_pq_dlba_get(&dl, k, o + done, &err)
                     : hl_pq_dba_get(&db, k, o + done, &err);
      CHECK(rc == HL_OK);
      if (rc != HL_OK) break;
      done += k;
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
      if (o[i].len != v[i].len || (v[i].len && memcmp(o[i].ptr, v[i].ptr, v[i].len) != 0)) bad++;
    CHECK_INT(bad, 0);
  }
  hl_arena_destroy(arena);
  hl_buf_fini(&buf);
  hl_free(v);
  hl_free(o);
  hl_free(pool);
}

/* ------------------------------------------------------------------ BYTE_STREAM_SPLIT */

TEST(byte_stream_split) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  const uint8_t *raw = U8(0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6);
  CHECK(hl_pq_bss_encode(&buf, raw, 3, 4, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6),
                 12));
  uint8_t out[12];
  CHECK(hl_pq_bss_decode((const uint8_t *)buf.data, 12, 4, 0, 3, out, &err) == HL_OK);
  CHECK(memcmp(out, raw, 12) == 0);
  CHECK(hl_pq_bss_decode((const uint8_t *)buf.data, 12, 4, 1, 2, out, &err) == HL_OK);
  CHECK(memcmp(out, raw + 4, 8) == 0);
  /* The same 12 bytes as 2 values of width 6 (FIXED_LEN_BYTE_ARRAY(6)) and 8-byte values. */
  hl_buf_reset(&buf);
  CHECK(hl_pq_bss_encode(&buf, raw, 2, 6, &err) == HL_OK);
  CHECK(hl_pq_bss_decode((const uint8_t *)buf.data, 12, 6, 0, 2, out, &err) == HL_OK);
  CHECK(memcmp(out, raw, 12) == 0);
  double d[5] = {0.0, -1.5, 3.25e300, -0.0, 1e-310}, dout[5];
  hl_buf_reset(&buf);
  CHECK(hl_pq_bss_encode(&buf, d, 5, 8, &err) == HL_OK);
  CHECK(hl_pq_bss_decode((const uint8_t *)buf.data, buf.len, 8, 0, 5, dout, &err) == HL_OK);
  CHECK(memcmp(dout, d, sizeof d) == 0);
  CHECK(hl_pq_bss_decode((const uint8_t *)buf.data, 39, 8, 0, 4, dout, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "BYTE_STREAM_SPLIT data of 39 bytes is not a multiple of 8");
  CHECK(hl_pq_bss_decode((const uint8_t *)buf.data, 40, 8, 3, 3, dout, &err) == HL_CORRUPT);
  CHECK_ERR(err, HL_CORRUPT, "BYTE_STREAM_SPLIT data holds 5 values, 6 requested");
  hl_buf_fini(&buf);
}

TEST(empty_inputs) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t buf;
  hl_buf_init(&buf);
  CHECK(hl_pq_rle_encode(&buf, NULL, 0, 5, &err) == HL_OK);
  CHECK_INT(buf.len, 0);
  CHECK(hl_pq_rle_encode_levels(&buf, NULL, 0, 1, true, &err) == HL_OK);
  CHECK(bytes_eq(&buf, U8(0, 0, 0, 0), 4));
  hl_pq_rle_dec_t dec;
  size_t used = 9;
  CHECK(hl_pq_rle_init_prefixed(&dec, (const uint8_t *)buf.data, buf.len, 1, 1, 0, "d", &used,
                                &err) == HL_OK);
  CHECK_INT(used, 4);
  CHECK(hl_pq_rle_get_levels(&dec, 0, NULL, &err) == HL_OK);
  CHECK(hl_pq_dict_init(&dec, NULL, 0, 0, 0, &err) == HL_OK);
  CHECK(hl_pq_dict_get(&dec, NULL, 8, 0, NULL, &err) == HL_OK);
  hl_arena_t *arena = hl_arena_create(0);
  for (int kind = 0; kind < 2; kind++) {
    hl_buf_reset(&buf);
    CHECK((kind ? hl_pq_dba_encode(&buf, NULL, 0, &err) : hl_pq_dlba_encode(&buf, NULL, 0, &err)) ==
          HL_OK);
    /* Two empty DELTA_BINARY_PACKED headers for DBA, one for DLBA. */
    CHECK_INT(buf.len, kind ? 10 : 5);
    hl_pq_dlba_dec_t dl;
    hl_pq_dba_dec_t db;
    if (kind == 0)
      CHECK(hl_pq_dlba_init(&dl, (const uint8_t *)buf.data, buf.len, 0, &err) == HL_OK);
    if (kind == 1)
      CHECK(hl_pq_dba_init(&db, (const uint8_t *)buf.data, buf.len, 0, arena, 0, &err) == HL_OK);
  }
  hl_buf_reset(&buf);
  CHECK(hl_pq_bss_encode(&buf, NULL, 0, 4, &err) == HL_OK);
  CHECK(hl_pq_bss_decode((const uint8_t *)"", 0, 4, 0, 0, NULL, &err) == HL_OK);
  CHECK(hl_pq_plain_decode_bytes(NULL, 0, 0, NULL, &used, &err) == HL_OK);
  CHECK_INT(used, 0);
  CHECK(err.code == HL_OK);
  hl_arena_destroy(arena);
  hl_buf_fini(&buf);
}

/* ------------------------------------------------------------------ throughput */

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

TEST(throughput) {
  hl_error_t err;
  hl_err_init(&err);
  size_t n = 10 * 1000 * 1000;
  uint64_t seed = 5;
  uint32_t *idx = hl_malloc(n * 4);
  int64_t *vals = hl_malloc(n * 8), *out = hl_malloc(n * 8);
  int64_t dict[1000];
  for (int i = 0; i < 1000; i++)
    dict[i] = i * 3;
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rng_next(&seed);
    idx[i] = (r % 4 == 0 && i) ? idx[i - 1] : (uint32_t)(r >> 20) % 1000; /* some runs */
    vals[i] = (int64_t)i * 1000 + (int64_t)(r % 997);
  }
  hl_buf_t buf;
  hl_buf_init(&buf);
  CHECK(hl_pq_dict_encode(&buf, idx, n, 10, &err) == HL_OK);
  double t0 = now_sec();
  hl_pq_rle_dec_t dec;
  CHECK(hl_pq_dict_init(&dec, (const uint8_t *)buf.data, buf.len, 1000, n, &err) == HL_OK);
  for (size_t done = 0; done < n; done += 2048) {
    size_t k = n - done < 2048 ? n - done : 2048;
    if (hl_pq_dict_get(&dec, dict, 8, k, out + done, &err) != HL_OK) break;
  }
  double t1 = now_sec();
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += out[i] != dict[idx[i]];
  CHECK_INT(bad, 0);
  printf("  RLE dictionary gather (10 bits, int64): %.1f M values/s\n", n / (t1 - t0) / 1e6);

  hl_buf_reset(&buf);
  CHECK(hl_pq_delta_encode_i64(&buf, vals, n, &err) == HL_OK);
  t0 = now_sec();
  hl_pq_delta_dec_t dd;
  CHECK(hl_pq_delta_init(&dd, (const uint8_t *)buf.data, buf.len, true, n, &err) == HL_OK);
  for (size_t done = 0; done < n; done += 2048) {
    size_t k = n - done < 2048 ? n - done : 2048;
    if (hl_pq_delta_get_i64(&dd, k, out + done, &err) != HL_OK) break;
  }
  t1 = now_sec();
  CHECK(memcmp(out, vals, n * 8) == 0);
  printf("  DELTA_BINARY_PACKED int64 decode: %.1f M values/s\n", n / (t1 - t0) / 1e6);
  hl_buf_fini(&buf);
  hl_free(idx);
  hl_free(vals);
  hl_free(out);
}

int main(void) {
  RUN(bit_width);
  RUN(plain_bool);
  RUN(plain_fixed_and_bytes);
  RUN(int96);
  RUN(rle_spec_example);
  RUN(rle_levels_long_mixed);
  RUN(rle_levels_prefixed_and_bool);
  RUN(rle_round_trip_all_widths);
  RUN(rle_long_runs);
  RUN(rle_malformed);
  RUN(dictionary);
  RUN(delta_spec_examples);
  RUN(delta_round_trip);
  RUN(delta_malformed);
  RUN(delta_length_byte_array);
  RUN(delta_byte_array);
  RUN(byte_array_round_trip);
  RUN(byte_stream_split);
  RUN(empty_inputs);
  RUN(throughput);
  return test_report();
}
