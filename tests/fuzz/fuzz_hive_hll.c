// clang-format off
/*
 * fuzz_hive_hll.c -- libFuzzer target for the decoders of Hive's bit
 * vectors, hl_hhll_deserialize (src/util/hive_hll.c) and
 * hl_hfm_estimate_bytes (src/util/hive_fm.c), which ndv_compute_bit_vector
 * runs on any binary, and the in-place BloomKFilter test hl_hbloom_test
 * (src/util/hive_bloom.c) of in_bloom_filter.
 *
 * Build (as `make fuzz` and the fuzz.hive_hll CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_hive_hll.c src/util/[a-z]*.c -lm -lpthread -o fuzz_hive_hll
 *
 * A rejection must be HL_ERROR with SQLSTATE 22023.  An accepted sketch
 * must give an estimate of at least 1 (or 0A000 for a dense one of a p
 * without a bias table); a p = 10 one must encode, decode again and
 * encode to the same bytes, and merge with itself.  The FMSketch reader
 * rejects only a missing "FM" (22023) and never answers below 0;
 * the bloom test either answers or rejects with 22023, and a value added
 * to an accepted filter then tests true.
 */
// clang-format on
#include "util/hive_bloom.h"
#include "util/hive_fm.h"
#include "util/hive_hll.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(4096);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  int64_t fm_est = 0;
  if (hl_hfm_estimate_bytes(data, size, &fm_est, &err) == HL_OK) {
    if (fm_est < 0) abort();
  } else if (strcmp(err.sqlstate, "22023") != 0) {
    abort();
  }
  hl_err_clear(&err);
  bool in = false;
  uint64_t probe = hl_murmur3_64(data, size);
  if (hl_hbloom_test(data, size, probe, &in, &err) == HL_OK) {
    uint8_t *copy = malloc(size);
    if (copy) {
      memcpy(copy, data, size);
      hl_hbloom_add(copy, size, probe);
      if (hl_hbloom_test(copy, size, probe, &in, &err) != HL_OK || !in) abort();
      free(copy);
    }
  } else if (strcmp(err.sqlstate, "22023") != 0) {
    abort();
  }
  hl_err_clear(&err);
  hl_hhll_t h;
  hl_status_t rc = hl_hhll_deserialize(data, size, a, &h, &err);
  if (rc != HL_OK) {
    if (rc != HL_NOMEM && (rc != HL_ERROR || strcmp(err.sqlstate, "22023") != 0)) abort();
    hl_err_clear(&err);
    hl_arena_destroy(a);
    return 0;
  }
  int64_t est = 0;
  rc = hl_hhll_estimate(&h, &est, &err);
  if (rc == HL_OK && est < 1) abort();
  if (rc != HL_OK && rc != HL_UNSUPPORTED) abort();
  hl_err_clear(&err);
  if (rc == HL_OK && h.p == 10 && h.n < 100000) {
    hl_buf_t b1, b2;
    hl_buf_init(&b1);
    hl_buf_init(&b2);
    hl_hhll_t h2;
    if (hl_hhll_serialize(&h, &b1, &err) == HL_OK &&
        hl_hhll_deserialize((const uint8_t *)b1.data, b1.len, a, &h2, &err) == HL_OK &&
        hl_hhll_serialize(&h2, &b2, &err) == HL_OK) {
      if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len) != 0) abort();
      if (hl_hhll_merge(&h2, &h, &err) != HL_OK) abort();
    }
    hl_err_clear(&err);
    hl_buf_fini(&b1);
    hl_buf_fini(&b2);
  }
  hl_arena_destroy(a);
  return 0;
}
