// clang-format off
/*
 * fuzz_ds_hll.c -- libFuzzer target for the DataSketches HLL readers
 * (src/util/ds_hll_ser.c): hl_ds_hll_deserialize, which every ds_hll_*
 * function runs on any binary, and hl_ds_hll_load, the reader of spilled
 * aggregation states.
 *
 * Build (as `make fuzz` and the fuzz.ds_hll CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_ds_hll.c src/util/[a-z]*.c -lm -lpthread -o fuzz_ds_hll
 *
 * A rejection must be HL_ERROR with SQLSTATE 22023.  An accepted sketch
 * must give estimates and bounds, a toString, and go through a union of
 * lgK 12 and one of lgK 4 (down-sizing) whose results serialize, read
 * back and estimate the same.  A state hl_ds_hll_load accepts must save
 * to the same bytes and take updates.
 */
// clang-format on
#include "util/ds_hll.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void through_union(hl_arena_t *a, const hl_ds_hll_t *sk, int lgk, int type) {
  hl_ds_hll_t g, r, back;
  hl_ds_hll_union_init(&g, a, lgk);
  if (hl_ds_hll_union_update(&g, lgk, sk) != HL_OK) return;
  if (hl_ds_hll_union_update(&g, lgk, sk) != HL_OK) return;
  if (hl_ds_hll_union_result(&g, type, &r) != HL_OK) return;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_hll_serialize(&r, &b);
  if (!b.oom) {
    hl_error_t err;
    hl_err_init(&err);
    if (hl_ds_hll_deserialize((const uint8_t *)b.data, b.len, a, &back, &err) != HL_OK) abort();
    double e1 = hl_ds_hll_estimate(&r), e2 = hl_ds_hll_estimate(&back);
    if (!(e1 == e2 || (e1 != e1 && e2 != e2))) abort();
    hl_err_clear(&err);
  }
  hl_buf_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(4096);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_hll_t sk;
  if (hl_ds_hll_deserialize(data, size, a, &sk, &err) == HL_OK) {
    for (int k = 1; k <= 3; k++) {
      (void)hl_ds_hll_lower_bound(&sk, k);
      (void)hl_ds_hll_upper_bound(&sk, k);
    }
    (void)hl_ds_hll_composite_estimate(&sk);
    hl_buf_t s;
    hl_buf_init(&s);
    hl_ds_hll_to_string(&sk, &s);
    hl_buf_fini(&s);
    through_union(a, &sk, 12, HL_DS_HLL_4);
    through_union(a, &sk, 4, HL_DS_HLL_6);
  } else if (err.code != HL_ERROR || strcmp(err.sqlstate, "22023") != 0) {
    abort();
  }
  hl_err_clear(&err);
  size_t used = 0;
  if (hl_ds_hll_load(data, size, &used, a, &sk)) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_ds_hll_save(&sk, &b);
    if (!b.oom && (b.len != used || memcmp(b.data, data, used) != 0)) abort();
    hl_buf_fini(&b);
    for (uint32_t c = 1; c < 2000; c += 7)
      if (hl_ds_hll_update(&sk, (c % 63 + 1) << 26 | (c * 2654435761u >> 6)) != HL_OK) break;
    (void)hl_ds_hll_estimate(&sk);
  }
  hl_arena_destroy(a);
  return 0;
}
