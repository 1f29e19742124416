// clang-format off
/*
 * fuzz_ds_kll.c -- libFuzzer target for the KLL floats sketch reader
 * hl_ds_kll_deserialize (src/util/ds_kll.c), which every ds_kll_* function
 * and ds_kll_union run on any binary.
 *
 * Build (as `make fuzz` and the fuzz.ds_kll CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_ds_kll.c src/util/[a-z]*.c -lm -lpthread -o fuzz_ds_kll
 *
 * A rejection must be HL_ERROR with SQLSTATE 22023.  An accepted sketch
 * must write bytes that read back and write the same again, answer every
 * query (rank in [0, 1] or NaN, a CDF ending at 1), take more values and
 * merge with a copy of itself and with the bytes' own sketch, the weights
 * adding up to n every time.
 */
// clang-format on
#include "util/ds_kll.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void weights_add_up(const hl_ds_kll_t *s) {
  uint64_t total = 0;
  for (uint32_t h = 0; h < s->num_levels; h++)
    total += (uint64_t)(s->levels[h + 1] - s->levels[h]) << h;
  if (total != s->n) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(4096);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_kll_t s;
  hl_status_t rc = hl_ds_kll_deserialize(data, size, a, &s, &err);
  if (rc != HL_OK) {
    if (rc != HL_NOMEM && (rc != HL_ERROR || strcmp(err.sqlstate, "22023") != 0)) abort();
    hl_err_clear(&err);
    hl_arena_destroy(a);
    return 0;
  }
  hl_buf_t b1, b2;
  hl_buf_init(&b1);
  hl_buf_init(&b2);
  hl_ds_kll_serialize(&s, &b1);
  hl_ds_kll_t t;
  if (hl_ds_kll_deserialize((const uint8_t *)b1.data, b1.len, a, &t, &err) != HL_OK) abort();
  hl_ds_kll_serialize(&t, &b2);
  if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len) != 0) abort();
  double r = hl_ds_kll_rank(&s, 0.5f);
  if (!isnan(r) && (r < 0 || r > 1)) abort();
  float sp[] = {-1.f, 0.f, 100.f};
  double cdf[4];
  bool is_null = false;
  if (hl_ds_kll_pmf(&s, sp, 3, true, cdf, &is_null, &err) != HL_OK) abort();
  if (!is_null && fabs(cdf[3] - 1.0) > 1e-9) abort();
  double fr[] = {0, 0.3, 0.5, 0.99, 1};
  float q[5];
  if (hl_ds_kll_quantiles(&s, fr, 5, q, &err) != HL_OK) abort();
  hl_ds_kll_t c;
  if (hl_ds_kll_copy(&c, &s, a) == HL_OK && s.n < 1000000) {
    for (int i = 0; i < 300; i++)
      if (hl_ds_kll_update(&s, (float)i) != HL_OK) abort();
    weights_add_up(&s);
    if (hl_ds_kll_merge(&s, &c) != HL_OK || hl_ds_kll_merge(&s, &t) != HL_OK) abort();
    weights_add_up(&s);
  }
  hl_buf_reset(&b1);
  hl_ds_kll_to_string(&s, &b1);
  hl_buf_fini(&b1);
  hl_buf_fini(&b2);
  hl_arena_destroy(a);
  return 0;
}
