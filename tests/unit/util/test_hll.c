/*
 * test_hll.c -- unit tests for the HyperLogLog sketch (src/util/hll.c):
 * exact small counts (linear counting), the error bound at 10^5 and 10^6
 * distinct items, duplicates not counted, and merge equal to the union.
 */
#include "test.h"

#include "util/hll.h"
#include "util/mem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static hl_hll_t *new_hll(void) {
  hl_hll_t *h = hl_malloc(sizeof *h);
  if (h) hl_hll_init(h);
  return h;
}

static void add_range(hl_hll_t *h, int64_t from, int64_t to) {
  char key[32];
  for (int64_t i = from; i < to; i++) {
    int len = snprintf(key, sizeof key, "k%lld", (long long)i);
    hl_hll_add(h, key, (size_t)len);
  }
}

TEST(hll_empty_and_small) {
  hl_hll_t *h = new_hll();
  CHECK(h != NULL);
  CHECK_INT(hl_hll_estimate(h), 0);
  hl_hll_add(h, "a", 1);
  CHECK_INT(hl_hll_estimate(h), 1);
  for (int rep = 0; rep < 100; rep++)
    hl_hll_add(h, "a", 1); /* duplicates do not count */
  CHECK_INT(hl_hll_estimate(h), 1);
  add_range(h, 0, 100);
  /* 101 distinct: linear counting is deterministic here; one pair of the
   * 101 keys shares a register, so it reads 100 */
  CHECK_INT(hl_hll_estimate(h), 100);
  hl_free(h);
}

TEST(hll_error_bound) {
  hl_hll_t *h = new_hll();
  CHECK(h != NULL);
  add_range(h, 0, 100000);
  uint64_t est = hl_hll_estimate(h);
  /* 3 standard errors (1.04 / sqrt(2^14) = 0.81 %) */
  CHECK(est > 97570 && est < 102430);
  add_range(h, 0, 1000000);
  est = hl_hll_estimate(h);
  CHECK(est > 975700 && est < 1024300);
  hl_free(h);
}

TEST(hll_merge_is_union) {
  hl_hll_t *a = new_hll(), *b = new_hll(), *u = new_hll();
  CHECK(a && b && u);
  add_range(a, 0, 30000);
  add_range(b, 20000, 50000);
  add_range(u, 0, 50000);
  hl_hll_merge(a, b);
  CHECK(memcmp(a->reg, u->reg, sizeof a->reg) == 0);
  uint64_t est = hl_hll_estimate(a);
  CHECK(est > 48785 && est < 51215);
  hl_free(a);
  hl_free(b);
  hl_free(u);
}

TEST(hll_hash_spreads) {
  /* the register index (top 14 bits) differs for consecutive short keys */
  uint64_t h1 = hl_hll_hash("1", 1), h2 = hl_hll_hash("2", 1);
  CHECK((h1 >> 50) != (h2 >> 50));
  CHECK(hl_hll_hash("", 0) != hl_hll_hash("\0", 1));
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(hll_empty_and_small);
  RUN(hll_error_bound);
  RUN(hll_merge_is_union);
  RUN(hll_hash_spreads);
  return test_report();
}
