/*
 * test_hive_bloom.c -- unit tests for Hive's BloomKFilter read in place
 * (src/util/hive_bloom.c): every added value tests true, absent values
 * mostly false (the false-positive rate a 5 % filter promises), a negative
 * k passes everything as Java's loop does, and bad headers get 22023;
 * BloomKFilter.build's shape for n entries (tests/data/hive_bloom.py
 * checks more sizes) and the per-type hash bloom_filter and in_bloom_filter
 * share.
 */
#include "test.h"

#include "util/hive_bloom.h"
#include "util/hive_hll.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a filter of 1000 expected entries: 6235 bits, k = 4, 104 longs (13 blocks) */
#define NLONGS 104

static uint8_t *new_filter(int k) {
  uint8_t *f = calloc(1, 5 + NLONGS * 8);
  f[0] = (uint8_t)k;
  f[4] = NLONGS;
  return f;
}

TEST(members_and_false_positives) {
  uint8_t *f = new_filter(4);
  size_t len = 5 + NLONGS * 8;
  for (int64_t v = 0; v < 1000; v++)
    hl_hbloom_add(f, len, hl_murmur3_64_long(v * 7));
  hl_error_t err;
  hl_err_init(&err);
  int fp = 0;
  for (int64_t v = 0; v < 1000; v++) {
    bool in = false;
    CHECK(hl_hbloom_test(f, len, hl_murmur3_64_long(v * 7), &in, &err) == HL_OK);
    CHECK(in);
    CHECK(hl_hbloom_test(f, len, hl_murmur3_64_long(v * 7 + 1), &in, &err) == HL_OK);
    fp += in;
  }
  CHECK(fp < 150); /* about 5 %, blocked filters a little more */
  /* k = -1 (byte 0xff): Java's loop runs no hash: everything passes */
  f[0] = 0xff;
  bool in = false;
  CHECK(hl_hbloom_test(f, len, hl_murmur3_64_long(123456789), &in, &err) == HL_OK);
  CHECK(in);
  free(f);
}

TEST(bad_headers) {
  static const struct {
    const char *bytes;
    size_t len;
  } bad[] = {{"", 0},
             {"\x03\x00\x00\x00", 4},
             {"\x03\x00\x00\x00\x00", 5},
             {"\x03\xff\xff\xff\xf8", 5},
             {"\x03\x00\x00\x00\x08", 5},
             {"\x03\x00\x00\x00\x07"
              "0123456701234567012345670123456701234567012345670123456",
              61}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hl_error_t err;
    hl_err_init(&err);
    bool in;
    CHECK(hl_hbloom_test((const uint8_t *)bad[i].bytes, bad[i].len, 42, &in, &err) == HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
}

TEST(shape) {
  static const struct {
    int64_t n;
    int k;
    uint32_t longs;
  } cases[] = {{1, 4, 8}, {8, 4, 8}, {83, 4, 16}, {1000, 4, 104}, {1000000, 4, 97432}};
  hl_error_t err;
  hl_err_init(&err);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int k = 0;
    uint32_t longs = 0;
    CHECK(hl_hbloom_shape(cases[i].n, &k, &longs, &err) == HL_OK);
    CHECK_INT(k, cases[i].k);
    CHECK_INT(longs, cases[i].longs);
  }
  int k;
  uint32_t longs;
  CHECK(hl_hbloom_shape(0, &k, &longs, &err) == HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
  CHECK(hl_hbloom_shape(INT64_C(1) << 40, &k, &longs, &err) == HL_ERROR);
  CHECK_STR(err.sqlstate, "54000");
  hl_err_clear(&err);
}

TEST(hash_by_type) {
  hl_value_t v;
  memset(&v, 0, sizeof v);
  v.u.i = 2;
  CHECK(hl_hbloom_hash(hl_type_prim(HL_T_INT), &v) == hl_murmur3_64_long(2));
  v.u.b = true;
  CHECK(hl_hbloom_hash(hl_type_prim(HL_T_BOOLEAN), &v) == hl_murmur3_64_long(1));
  v.u.i = -1; /* one microsecond before the epoch: millisecond -1 */
  CHECK(hl_hbloom_hash(hl_type_prim(HL_T_TIMESTAMP), &v) == hl_murmur3_64_long(-1));
  v.u.s.ptr = "ab  ";
  v.u.s.len = 4;
  CHECK(hl_hbloom_hash(hl_type_prim(HL_T_CHAR), &v) == hl_murmur3_64((const uint8_t *)"ab", 2));
  CHECK(hl_hbloom_hash(hl_type_prim(HL_T_STRING), &v) == hl_murmur3_64((const uint8_t *)"ab  ", 4));
  v.u.d = NAN; /* every NaN hashes as Java's canonical one */
  CHECK(hl_hbloom_hash(hl_type_prim(HL_T_DOUBLE), &v) ==
        hl_murmur3_64_long(INT64_C(0x7ff8000000000000)));
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(shape);
  RUN(hash_by_type);
  RUN(members_and_false_positives);
  RUN(bad_headers);
  return test_report();
}
