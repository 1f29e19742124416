// clang-format off
/*
 * fuzz_ds_quantiles.c -- libFuzzer target for the reader of DataSketches
 * quantiles sketches, hl_ds_quantiles_deserialize (src/util/ds_quantiles.c),
 * which every ds_quantile_doubles_* function and the union aggregate run
 * on any binary.
 *
 * Build (as `make fuzz` and the fuzz.ds_quantiles CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_ds_quantiles.c src/util/[a-z]*.c -lm -lpthread -o fuzz_ds_quantiles
 *
 * A rejection must be HL_ERROR with SQLSTATE 22023.  An accepted sketch
 * must answer every query (quantiles, CDF, toString), serialize to a
 * compact form that reads back to the same bytes, and union with itself
 * (n doubles, when no NaN was read: streaming drops NaN as Java's update)
 * and into a smaller k.
 */
// clang-format on
#include "util/ds_quantiles.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(4096);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_quantiles_t *q = NULL;
  hl_status_t rc = hl_ds_quantiles_deserialize(data, size, a, &q, &err);
  if (rc != HL_OK) {
    if (rc != HL_NOMEM && (rc != HL_ERROR || strcmp(err.sqlstate, "22023") != 0)) abort();
    hl_err_clear(&err);
    hl_arena_destroy(a);
    return 0;
  }
  if (!hl_ds_quantiles_empty(q)) {
    static const double ranks[] = {0.0, 0.3, 0.5, 0.99, 1.0, NAN};
    double out[6];
    if (hl_ds_quantiles_quantiles(q, ranks, 6, out, &err) != HL_OK) abort();
    static const double splits[] = {-1.0, 0.0, 1e300};
    double cdf[4];
    if (hl_ds_quantiles_cdf_pmf(q, splits, 3, true, cdf, &err) != HL_OK) abort();
  }
  hl_buf_t b, s, b2;
  hl_buf_init(&b);
  hl_buf_init(&s);
  hl_buf_init(&b2);
  hl_ds_quantiles_to_string(q, size, &s);
  hl_ds_quantiles_serialize(q, &b);
  hl_ds_quantiles_t *w = NULL;
  if (!b.oom) {
    if (hl_ds_quantiles_deserialize((const uint8_t *)b.data, b.len, a, &w, &err) != HL_OK) abort();
    hl_ds_quantiles_serialize(w, &b2);
    if (!b2.oom && (b2.len != b.len || memcmp(b2.data, b.data, b.len) != 0)) abort();
    /* n doubles, unless the bytes held NaN, which streaming drops as Java's update does */
    bool nan = isnan(q->min) || isnan(q->max);
    for (uint32_t i = 0; i < q->bb; i++)
      nan |= isnan(q->buf[i]);
    hl_ds_quantiles_union_t u = {q->k, NULL};
    if (hl_ds_quantiles_union_update(&u, q, a) == HL_OK &&
        hl_ds_quantiles_union_update(&u, w, a) == HL_OK && !nan && u.gadget->n != 2 * q->n)
      abort();
    hl_ds_quantiles_union_t d = {2, NULL};
    if (hl_ds_quantiles_union_update(&d, q, a) == HL_OK && !nan && d.gadget->n != q->n) abort();
  }
  hl_buf_fini(&b);
  hl_buf_fini(&b2);
  hl_buf_fini(&s);
  hl_arena_destroy(a);
  return 0;
}
