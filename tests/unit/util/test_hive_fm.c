/*
 * test_hive_fm.c -- unit tests for Hive's FMSketch (src/util/hive_fm.c):
 * java.util.Random's published first draws, the byte layout, merge equal
 * to one pass, the estimate of serialized bytes equal to the sketch's, and
 * the 0xff bytes Hive's reader takes past the end.
 */
#include "test.h"

#include "util/hive_fm.h"

#include <string.h>

TEST(java_random) {
  /* new Random(42).nextInt(), nextInt(): the values every Java prints */
  uint64_t s;
  hl_java_random_init(&s, 42);
  CHECK_INT(hl_java_random_next_int(&s), -1170105035);
  CHECK_INT(hl_java_random_next_int(&s), 234785527);
  hl_java_random_init(&s, 0);
  CHECK_INT(hl_java_random_next_int(&s), -1155484576);
}

TEST(layout_merge_estimate) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_hfm_t one, x, y;
  CHECK(hl_hfm_init(&one, 16, a, &err) == HL_OK);
  CHECK(hl_hfm_init(&x, 16, a, &err) == HL_OK);
  CHECK(hl_hfm_init(&y, 16, a, &err) == HL_OK);
  for (int i = 0; i < 1000; i++) {
    hl_hfm_add_long(&one, i);
    hl_hfm_add_long(i % 3 ? &x : &y, i);
  }
  hl_hfm_merge(&x, &y);
  hl_buf_t b1, b2;
  hl_buf_init(&b1);
  hl_buf_init(&b2);
  CHECK(hl_hfm_serialize(&one, &b1, &err) == HL_OK);
  CHECK(hl_hfm_serialize(&x, &b2, &err) == HL_OK);
  CHECK(b1.len == 4 + 16 * 4);
  CHECK(memcmp(b1.data, "FM\x10\x00", 4) == 0);
  CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
  int64_t est = -1;
  CHECK(hl_hfm_estimate_bytes((const uint8_t *)b1.data, b1.len, &est, &err) == HL_OK);
  CHECK_INT(est, hl_hfm_estimate(&one));
  CHECK(est > 500 && est < 2000);
  /* truncated: the missing vector bytes read as 0xff (32 clear-bit runs) */
  CHECK(hl_hfm_estimate_bytes((const uint8_t *)"FM\x01", 3, &est, &err) == HL_OK);
  CHECK_INT(est, (int64_t)(4294967296.0 / 0.77351));
  CHECK(hl_hfm_estimate_bytes((const uint8_t *)"FX", 2, &est, &err) == HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
  /* no vectors: Java's (long) NaN */
  CHECK(hl_hfm_estimate_bytes((const uint8_t *)"FM\x00\x00", 4, &est, &err) == HL_OK);
  CHECK_INT(est, 0);
  hl_buf_fini(&b1);
  hl_buf_fini(&b2);
  hl_arena_destroy(a);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(java_random);
  RUN(layout_merge_estimate);
  return test_report();
}
