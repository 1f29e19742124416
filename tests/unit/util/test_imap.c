/*
 * test_imap.c -- unit tests for the integer map (src/util/imap.c): the
 * empty map, first-wins upserts, growth through many rehashes with keys
 * that collide under the table mask, negative and extreme keys, and the
 * byte count the memory budget charges.
 */
#include "test.h"

#include "util/imap.h"

#include <stdint.h>

TEST(imap_empty) {
  hl_imap_t m = {0};
  CHECK_INT(hl_imap_get(&m, 0), 0);
  CHECK_INT(hl_imap_get(&m, -5), 0);
  CHECK_INT(hl_imap_bytes(&m), 0);
  hl_imap_free(&m);
}

TEST(imap_upsert_keeps_first) {
  hl_imap_t m = {0};
  uint32_t found = 0;
  CHECK_INT(hl_imap_upsert(&m, 42, 7, &found), 0);
  CHECK_INT(found, 7);
  CHECK_INT(hl_imap_upsert(&m, 42, 9, &found), 0);
  CHECK_INT(found, 7);
  CHECK_INT(hl_imap_get(&m, 42), 7);
  CHECK_INT(hl_imap_get(&m, 43), 0);
  CHECK_INT(m.count, 1);
  hl_imap_free(&m);
  CHECK_INT(hl_imap_get(&m, 42), 0);
}

TEST(imap_growth_and_extremes) {
  hl_imap_t m = {0};
  uint32_t found;
  /* multiples of 2^20 share their low bits: only the hash spreads them */
  for (int64_t i = 0; i < 100000; i++)
    CHECK_INT(hl_imap_upsert(&m, (i - 50000) * (1 << 20), (uint32_t)i + 1, &found), 0);
  CHECK_INT(hl_imap_upsert(&m, INT64_MIN, 200001, &found), 0);
  CHECK_INT(hl_imap_upsert(&m, INT64_MAX, 200002, &found), 0);
  CHECK_INT(m.count, 100002);
  int bad = 0;
  for (int64_t i = 0; i < 100000; i++)
    bad += hl_imap_get(&m, (i - 50000) * (1 << 20)) != (uint32_t)i + 1;
  CHECK_INT(bad, 0);
  CHECK_INT(hl_imap_get(&m, INT64_MIN), 200001);
  CHECK_INT(hl_imap_get(&m, INT64_MAX), 200002);
  CHECK_INT(hl_imap_get(&m, 1), 0);
  /* at most half full: 262,144 slots of 12 bytes */
  CHECK_INT(m.cap, 262144);
  CHECK_INT(hl_imap_bytes(&m), 262144 * 12);
  hl_imap_free(&m);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(imap_empty);
  RUN(imap_upsert_keeps_first);
  RUN(imap_growth_and_extremes);
  return test_report();
}
