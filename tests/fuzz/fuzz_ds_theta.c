// clang-format off
/*
 * fuzz_ds_theta.c -- libFuzzer target for the Theta sketch reader
 * hl_ds_theta_read (src/util/ds_theta.c), which every ds_theta_* function
 * runs on any binary, and what reads its views: the estimate, the union,
 * the intersection and A not B.
 *
 * Build (as `make fuzz` and the fuzz.ds_theta CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_ds_theta.c src/util/[a-z]*.c -lm -lpthread -o fuzz_ds_theta
 *
 * A rejection must be 22023 (or 0A000 for serial version 4).  An accepted
 * sketch must have a finite estimate of at least 0; a union of it
 * (k = 16, so the gadget rebuilds) and its result must serialize to bytes
 * that read back to the same estimate; intersecting it with itself and
 * A not B of it with itself must succeed.
 */
// clang-format on
#include "util/ds_theta.h"
#include "util/murmur3.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reject(hl_error_t *err) {
  if (strcmp(err->sqlstate, "22023") != 0 && strcmp(err->sqlstate, "0A000") != 0) abort();
  hl_err_clear(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(4096);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_theta_view_t v;
  if (hl_ds_theta_read(data, size, HL_DS_SEED, HL_DS_THETA_WRAP, &v, &err) == HL_OK) {
    double e = hl_ds_theta_view_estimate(&v);
    if (!(e >= 0) || isinf(e)) abort();
    hl_ds_theta_inter_t x;
    if (hl_ds_theta_inter_init(&x, HL_DS_SEED, &err) != HL_OK) abort();
    if (hl_ds_theta_inter_add(&x, &v, a, &err) != HL_OK) abort();
    if (hl_ds_theta_inter_add(&x, &v, a, &err) != HL_OK) abort();
    hl_ds_theta_compact_t c;
    if (hl_ds_theta_inter_result(&x, &c, &err) != HL_OK) abort();
    uint64_t *buf = malloc(sizeof(uint64_t) * (v.n_slots + 1));
    if (!buf) abort();
    if (hl_ds_theta_a_not_b(&v, &v, v.empty ? 0x93cc : v.seed_hash, buf, &c, &err) != HL_OK)
      abort();
    if (c.count != 0) abort(); /* A not A is empty of hashes */
    free(buf);
  } else {
    check_reject(&err);
  }
  if (hl_ds_theta_read(data, size, HL_DS_SEED, HL_DS_THETA_UNION, &v, &err) == HL_OK) {
    hl_ds_theta_union_t u;
    if (hl_ds_theta_union_init(&u, 16, 1.0f, HL_DS_SEED, a, &err) != HL_OK) abort();
    if (hl_ds_theta_union_view(&u, &v, a, &err) != HL_OK) abort();
    uint64_t *buf = hl_arena_alloc(a, sizeof(uint64_t) * (u.g.count + 1));
    if (!buf) abort();
    hl_ds_theta_compact_t c;
    hl_ds_theta_union_result(&u, buf, &c);
    if (c.count > 16) abort();
    size_t n = hl_ds_theta_size(&c);
    uint8_t *out = hl_arena_alloc(a, n);
    if (!out) abort();
    hl_ds_theta_write(&c, out);
    hl_ds_theta_view_t w;
    if (hl_ds_theta_read(out, n, HL_DS_SEED, HL_DS_THETA_WRAP, &w, &err) != HL_OK) abort();
    if (hl_ds_theta_view_estimate(&w) != hl_ds_theta_estimate(&c)) abort();
  } else {
    check_reject(&err);
  }
  hl_arena_destroy(a);
  return 0;
}
