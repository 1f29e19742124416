/*
 * test_hcodec.c -- Hadoop's codecs over whole buffers (src/format/hcodec):
 * class and short names; every codec round-trips empty, small, repetitive
 * and random buffers (Snappy and LZ4 past one chunk, so a block holds
 * several); the block framing is Hadoop's (one block of the plain length,
 * a 0-byte buffer is the length 0 alone); several gzip / bzip2 members or
 * zstd frames read as one stream; output beyond the caller's limit,
 * truncations of every length and trailing garbage are XX001, never a read
 * or write out of bounds (run under ASan).
 */
#include "test.h"

#include "format/hcodec/hcodec.h"

#include <stdlib.h>
#include <string.h>

static const hl_hcodec_t ALL[] = {HL_HCODEC_DEFLATE, HL_HCODEC_GZIP, HL_HCODEC_BZIP2,
                                  HL_HCODEC_SNAPPY,  HL_HCODEC_LZ4,  HL_HCODEC_ZSTD};
#define N_ALL (sizeof ALL / sizeof ALL[0])

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

TEST(names) {
  hl_hcodec_t c;
  CHECK(hl_hcodec_from_class("org.apache.hadoop.io.compress.DeflateCodec", &c) &&
        c == HL_HCODEC_DEFLATE);
  CHECK(hl_hcodec_from_class("org.apache.hadoop.io.compress.ZStandardCodec", &c) &&
        c == HL_HCODEC_ZSTD);
  CHECK(!hl_hcodec_from_class("com.hadoop.compression.lzo.LzoCodec", &c));
  CHECK(!hl_hcodec_from_class("org.apache.hadoop.io.compress.gzipcodec", &c)); /* exact */
  CHECK_STR(hl_hcodec_class(HL_HCODEC_DEFLATE), "org.apache.hadoop.io.compress.DefaultCodec");
  CHECK(hl_hcodec_class(HL_HCODEC_NONE) == NULL);
  CHECK_STR(hl_hcodec_from_name("SNAPPY", &c), "org.apache.hadoop.io.compress.SnappyCodec");
  CHECK(c == HL_HCODEC_SNAPPY);
  CHECK_STR(hl_hcodec_from_name("org.apache.hadoop.io.compress.DeflateCodec", &c),
            "org.apache.hadoop.io.compress.DeflateCodec");
  CHECK(hl_hcodec_from_name("brotli", &c) == NULL);
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_hcodec_lookup("f", "x.Y", &c, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  hl_err_clear(&err);
}

/* Compresses SRC[0..n) with CODEC and checks it decompresses to the same
 * bytes; returns the compressed stream in OUT. */
static void round_trip(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const char *src, size_t n,
                       hl_buf_t *out) {
  hl_buf_reset(out);
  CHECK(hl_hcodec_compress(cx, codec, src, n, out));
  CHECK(!out->oom);
  hl_buf_t back;
  hl_buf_init(&back);
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_hcodec_decompress(cx, codec, "f", (const unsigned char *)out->data, out->len, n,
                                 &back, &err),
            HL_OK);
  CHECK_INT(back.len, n);
  CHECK(n == 0 || memcmp(back.data, src, n) == 0);
  if (n > 0) { /* one byte less room than the plain bytes: refused */
    CHECK_INT(hl_hcodec_decompress(cx, codec, "f", (const unsigned char *)out->data, out->len,
                                   n - 1, &back, &err),
              HL_CORRUPT);
    CHECK_STR(err.sqlstate, "XX001");
    hl_err_clear(&err);
  }
  hl_buf_fini(&back);
}

TEST(round_trips) {
  size_t big = 600000; /* more than two Snappy / LZ4 chunks */
  char *data = malloc(big);
  CHECK(data != NULL);
  hl_buf_t out;
  hl_buf_init(&out);
  hl_hcodec_ctx_t *cx = hl_hcodec_ctx_new(); /* one context for every codec and buffer */
  CHECK(cx != NULL);
  for (size_t k = 0; k < N_ALL; k++) {
    round_trip(cx, ALL[k], NULL, 0, &out);
    round_trip(cx, ALL[k], "x", 1, &out);
    for (size_t i = 0; i < big; i++)
      data[i] = (char)("row 123 of the table\n"[i % 21]);
    round_trip(cx, ALL[k], data, big, &out);
    for (size_t i = 0; i < big; i++)
      data[i] = (char)rnd();
    round_trip(cx, ALL[k], data, big, &out);
  }
  /* block framing: one block of the plain length, then chunks */
  round_trip(cx, HL_HCODEC_SNAPPY, NULL, 0, &out);
  CHECK_INT(out.len, 4);
  CHECK(memcmp(out.data, "\0\0\0\0", 4) == 0);
  round_trip(cx, HL_HCODEC_LZ4, data, big, &out);
  const unsigned char *p = (const unsigned char *)out.data;
  CHECK_INT((size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3], big);
  size_t clen = (size_t)p[4] << 24 | (size_t)p[5] << 16 | (size_t)p[6] << 8 | p[7];
  CHECK(8 + clen < out.len); /* more chunks follow */
  CHECK(hl_hcodec_ctx_mem(cx) > 0);
  hl_hcodec_ctx_free(cx);
  hl_buf_fini(&out);
  free(data);
}

TEST(members) {
  hl_hcodec_ctx_t *cx = NULL; /* one-shot contexts */
  /* two streams back to back read as one: gzip, bzip2, zstd, zlib */
  hl_hcodec_t multi[] = {HL_HCODEC_GZIP, HL_HCODEC_BZIP2, HL_HCODEC_ZSTD, HL_HCODEC_DEFLATE};
  for (size_t k = 0; k < sizeof multi / sizeof multi[0]; k++) {
    hl_buf_t two, back;
    hl_buf_init(&two);
    hl_buf_init(&back);
    CHECK(hl_hcodec_compress(cx, multi[k], "abc", 3, &two));
    CHECK(hl_hcodec_compress(cx, multi[k], "defg", 4, &two));
    hl_error_t err;
    hl_err_init(&err);
    CHECK_INT(hl_hcodec_decompress(cx, multi[k], "f", (const unsigned char *)two.data, two.len, 100,
                                   &back, &err),
              HL_OK);
    CHECK_INT(back.len, 7);
    CHECK(memcmp(back.data, "abcdefg", 7) == 0);
    hl_buf_fini(&two);
    hl_buf_fini(&back);
  }
  (void)cx;
}

TEST(damaged) {
  /* a context reused after every error: each call starts clean */
  hl_hcodec_ctx_t *cx = hl_hcodec_ctx_new();
  CHECK(cx != NULL);
  char plain[3000];
  for (size_t i = 0; i < sizeof plain; i++)
    plain[i] = (char)("abcdefgh"[rnd() % 8]);
  for (size_t k = 0; k < N_ALL; k++) {
    hl_buf_t out, back;
    hl_buf_init(&out);
    hl_buf_init(&back);
    CHECK(hl_hcodec_compress(cx, ALL[k], plain, sizeof plain, &out));
    hl_error_t err;
    hl_err_init(&err);
    /* every truncation: an error, never a read past the cut (ASan) */
    for (size_t cut = 1; cut < out.len; cut++) {
      unsigned char *copy = malloc(cut);
      memcpy(copy, out.data, cut);
      hl_status_t st = hl_hcodec_decompress(cx, ALL[k], "f", copy, cut, sizeof plain, &back, &err);
      CHECK(st == HL_CORRUPT);
      if (st != HL_CORRUPT) printf("codec %s cut %zu\n", hl_hcodec_name(ALL[k]), cut);
      hl_err_clear(&err);
      free(copy);
    }
    /* garbage after the stream */
    hl_buf_append(&out, "\x01\x02\x03\x04\x05", 5);
    CHECK_INT(hl_hcodec_decompress(cx, ALL[k], "f", (const unsigned char *)out.data, out.len,
                                   sizeof plain, &back, &err),
              HL_CORRUPT);
    hl_err_clear(&err);
    /* every byte flipped: an error or some bytes within the limit */
    out.len -= 5;
    for (size_t i = 0; i < out.len; i++) {
      out.data[i] ^= 0x5a;
      hl_status_t st = hl_hcodec_decompress(cx, ALL[k], "f", (const unsigned char *)out.data,
                                            out.len, sizeof plain, &back, &err);
      CHECK(st == HL_OK || st == HL_CORRUPT);
      CHECK(st != HL_OK || back.len <= sizeof plain);
      hl_err_clear(&err);
      out.data[i] ^= 0x5a;
    }
    hl_buf_fini(&out);
    hl_buf_fini(&back);
  }
  hl_hcodec_ctx_free(cx);
}

int main(void) {
  RUN(names);
  RUN(round_trips);
  RUN(members);
  RUN(damaged);
  return test_report();
}
