/*
 * test_snappy_dec.c -- the Snappy decompressor (src/util/snappy_dec.c)
 * against libsnappy: blocks libsnappy compresses (random, repetitive,
 * column-like and patterned data of many sizes, so that every tag kind,
 * overlapping copies and the 16-byte fast paths near the buffer's end
 * occur) decompress to the same bytes, as do columns of similar records
 * (short copies from close behind); hand-made blocks of each tag kind
 * decode exactly; malformed blocks (truncations of every length, every
 * byte flipped, bad offsets and lengths) are refused or decode within
 * bounds, never read or write outside them (run under ASan).
 */
#include "test.h"

#include "util/snappy_dec.h"

#include <snappy-c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Compresses IN with libsnappy and checks our decoder restores it. */
static void round_trip(const uint8_t *in, size_t n) {
  size_t cap = snappy_max_compressed_length(n);
  char *comp = malloc(cap ? cap : 1);
  CHECK(comp != NULL);
  CHECK(snappy_compress((const char *)in, n, comp, &cap) == SNAPPY_OK);
  size_t len = 0;
  CHECK(hl_snappy_length((const uint8_t *)comp, cap, &len));
  CHECK_INT(len, n);
  uint8_t *out = malloc(n ? n : 1);
  CHECK(out != NULL);
  CHECK(hl_snappy_uncompress((const uint8_t *)comp, cap, out, n));
  CHECK(n == 0 || memcmp(out, in, n) == 0);
  /* a wrong declared size is refused */
  CHECK(!hl_snappy_uncompress((const uint8_t *)comp, cap, out, n ? n - 1 : 1));
  free(out);
  free(comp);
}

TEST(snappy_matches_libsnappy) {
  static const size_t sizes[] = {0,  1,   2,    15,   16,    17,    31,    64,
                                 65, 100, 1000, 4096, 65536, 65537, 300000};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    size_t n = sizes[s];
    uint8_t *buf = malloc(n ? n : 1);
    CHECK(buf != NULL);
    for (int kind = 0; kind < 6; kind++) {
      for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0:
          buf[i] = (uint8_t)rnd();
          break; /* literals */
        case 1:
          buf[i] = 0;
          break; /* offset-1 copies */
        case 2:
          buf[i] = (uint8_t)("abc"[i % 3]);
          break; /* short patterns */
        case 3:
          buf[i] = (uint8_t)(i % 8 < 5 ? rnd() : 0);
          break; /* int64-like columns */
        case 4:
          buf[i] = (uint8_t)("0123456789abcdefghij"[(i / 7) % 20]);
          break;
        default:
          buf[i] = (uint8_t)(i % 1000 < 500 ? i : rnd() % 4);
          break;
        }
      }
      round_trip(buf, n);
    }
    free(buf);
  }
}

/* Columns of similar fixed-width records (a first byte that changes, the
 * rest equal): libsnappy emits a short literal and a copy from one record
 * back, the element pair that the exact-size moves serve; every width 8-15
 * and sizes around the decoder's margins and at the buffer's end. */
TEST(snappy_close_short_copies) {
  static const size_t sizes[] = {40, 63, 64, 65, 100, 129, 1000, 4097, 100000};
  for (size_t w = 8; w <= 16; w++) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      size_t n = sizes[s];
      uint8_t *buf = malloc(n);
      CHECK(buf != NULL);
      for (size_t i = 0; i < n; i++)
        buf[i] = i % w == 0 ? (uint8_t)(i / w * 3) : (uint8_t)(i % w < 4 ? 0 : i % w);
      round_trip(buf, n);
      free(buf);
    }
  }
  /* by hand: a literal of OFF bytes, then copies of every length 1-15 from
   * OFF back, one after the other, ending exactly at the buffer's end */
  for (size_t off = 8; off < 16; off++) {
    uint8_t blk[256], want[256], out[256];
    size_t bl = 0, n = off;
    for (size_t i = 0; i < off; i++)
      want[i] = (uint8_t)('a' + i);
    for (size_t len = 1; len <= 15; len++) {
      for (size_t i = 0; i < len; i++)
        want[n + i] = want[n + i - off];
      n += len;
    }
    blk[bl++] = (uint8_t)(0x80 | (n & 0x7f)); /* 128 <= n < 16384: a two-byte varint */
    blk[bl++] = (uint8_t)(n >> 7);
    blk[bl++] = (uint8_t)((off - 1) << 2);
    memcpy(blk + bl, want, off);
    bl += off;
    for (size_t len = 1; len <= 15; len++) {
      blk[bl++] = (uint8_t)(0x02 | ((len - 1) << 2));
      blk[bl++] = (uint8_t)off;
      blk[bl++] = 0;
    }
    CHECK(hl_snappy_uncompress(blk, bl, out, n));
    CHECK(memcmp(out, want, n) == 0);
  }
}

TEST(snappy_tags_by_hand) {
  /* length 7: literal "abc", copy-1 (len 4, offset 3) -> "abcabca" */
  const uint8_t b1[] = {7, 2 << 2, 'a', 'b', 'c', 0x01 | (0 << 2) | (0 << 5), 3};
  uint8_t out[64];
  CHECK(hl_snappy_uncompress(b1, sizeof b1, out, 7));
  CHECK(memcmp(out, "abcabca", 7) == 0);
  /* copy-2 (len 5, offset 1) after literal "z" -> "zzzzzz" */
  const uint8_t b2[] = {6, 0 << 2, 'z', 0x02 | (4 << 2), 1, 0};
  CHECK(hl_snappy_uncompress(b2, sizeof b2, out, 6));
  CHECK(memcmp(out, "zzzzzz", 6) == 0);
  /* copy-4 (len 2, offset 2) after literal "xy" -> "xyxy" */
  const uint8_t b3[] = {4, 1 << 2, 'x', 'y', 0x03 | (1 << 2), 2, 0, 0, 0};
  CHECK(hl_snappy_uncompress(b3, sizeof b3, out, 4));
  CHECK(memcmp(out, "xyxy", 4) == 0);
  /* literal length in one extra byte (tag 60): 61 bytes */
  uint8_t b4[2 + 1 + 61];
  b4[0] = 61;
  b4[1] = 60 << 2;
  b4[2] = 60;
  for (int i = 0; i < 61; i++)
    b4[3 + i] = (uint8_t)('A' + i % 26);
  CHECK(hl_snappy_uncompress(b4, sizeof b4, out, 61));
  CHECK(out[60] == 'A' + 60 % 26);
}

TEST(snappy_refuses_bad_blocks) {
  uint8_t out[64];
  /* offset 0, offset before the start, copy past the end */
  const uint8_t z[] = {5, 0, 'a', 0x02 | (3 << 2), 0, 0};
  CHECK(!hl_snappy_uncompress(z, sizeof z, out, 5));
  const uint8_t before[] = {5, 0, 'a', 0x02 | (3 << 2), 2, 0};
  CHECK(!hl_snappy_uncompress(before, sizeof before, out, 5));
  const uint8_t past[] = {3, 0, 'a', 0x02 | (3 << 2), 1, 0};
  CHECK(!hl_snappy_uncompress(past, sizeof past, out, 3));
  /* literal longer than the input or the output; output not filled */
  const uint8_t lit[] = {4, 3 << 2, 'a', 'b'};
  CHECK(!hl_snappy_uncompress(lit, sizeof lit, out, 4));
  const uint8_t shortfill[] = {4, 0, 'a'};
  CHECK(!hl_snappy_uncompress(shortfill, sizeof shortfill, out, 4));
  /* a varint longer than 32 bits */
  const uint8_t vi[] = {0xff, 0xff, 0xff, 0xff, 0x7f};
  size_t len;
  CHECK(!hl_snappy_length(vi, sizeof vi, &len));
  CHECK(!hl_snappy_length(vi, 2, &len));

  /* every truncation and every single-byte change of a real block: refused
   * or decoded within the buffer (ASan checks the bounds) */
  uint8_t in[2000];
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = i % 64 < 40 ? (uint8_t) "column values repeat "[i % 21] : (uint8_t)rnd();
  size_t cap = snappy_max_compressed_length(sizeof in);
  uint8_t *comp = malloc(cap);
  CHECK(comp != NULL);
  CHECK(snappy_compress((const char *)in, sizeof in, (char *)comp, &cap) == SNAPPY_OK);
  uint8_t *dec = malloc(sizeof in);
  CHECK(dec != NULL);
  for (size_t cut = 0; cut < cap; cut++)
    CHECK(!hl_snappy_uncompress(comp, cut, dec, sizeof in));
  for (size_t at = 0; at < cap; at++) {
    for (int bit = 0; bit < 8; bit++) {
      comp[at] ^= (uint8_t)(1 << bit);
      (void)hl_snappy_uncompress(comp, cap, dec, sizeof in);
      comp[at] ^= (uint8_t)(1 << bit);
    }
  }
  CHECK(hl_snappy_uncompress(comp, cap, dec, sizeof in));
  CHECK(memcmp(dec, in, sizeof in) == 0);
  free(dec);
  free(comp);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(snappy_matches_libsnappy);
  RUN(snappy_close_short_copies);
  RUN(snappy_tags_by_hand);
  RUN(snappy_refuses_bad_blocks);
  return test_report();
}
