// clang-format off
/*
 * fuzz_prof_state.c -- libFuzzer target for the stored column profile
 * decoder, hl_prof_col_decode (src/vector/profile.c).
 *
 * Build (as `make fuzz` and the fuzz.prof_state CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_prof_state.c src/vector/profile.c src/util/[a-z]*.c -lm -lpthread -o fuzz_prof_state
 *
 * The first input byte picks the column type, the rest is an encoding.  It
 * is decoded as it is (the checksum rejects nearly everything) and again
 * with its length and checksum fixed (hl_prof_reseal), so that the field
 * checks behind them are what is fuzzed.  A rejection must be HL_CORRUPT
 * with SQLSTATE XX001; an accepted state must yield a result, merge with
 * itself (or refuse past 2^56 rows, 22003) and encode to bytes that
 * decode and encode to the same bytes.
 */
// clang-format on
#include "vector/profile.h"

#include "util/mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const type_texts[] = {
    "bigint",  "int",    "double",  "float", "decimal(10,2)", "decimal(38,3)", "string",
    "char(4)", "binary", "boolean", "date",  "timestamp",     "array<int>",    "varchar(8)",
};

static void check(const hl_type_t *t, const uint8_t *bytes, size_t len) {
  hl_error_t err;
  hl_err_init(&err);
  hl_prof_col_t *c = hl_prof_col_decode(t, bytes, len, &err);
  if (!c) {
    if (err.code != HL_CORRUPT && err.code != HL_NOMEM) abort();
    if (err.code == HL_CORRUPT && strcmp(err.sqlstate, "XX001") != 0) abort();
    hl_err_clear(&err);
    return;
  }
  hl_arena_t *a = hl_arena_create(0);
  hl_prof_result_t r;
  if (!a || hl_prof_col_result(c, a, &r, &err) != HL_OK) abort();
  if (r.count < 0 || r.nulls > r.count || r.n_top < 0 || r.n_top > 5) abort();
  hl_buf_t b;
  hl_buf_init(&b);
  if (hl_prof_col_encode(c, &b, &err) != HL_OK) abort();
  hl_prof_col_t *d = hl_prof_col_decode(t, b.data, b.len, &err);
  if (!d) abort();
  hl_buf_t b2;
  hl_buf_init(&b2);
  if (hl_prof_col_encode(d, &b2, &err) != HL_OK) abort();
  if (b2.len != b.len || memcmp(b.data, b2.data, b.len) != 0) abort();
  if (hl_prof_col_merge(d, c, &err) != HL_OK) {
    if (strcmp(err.sqlstate, "22003") != 0) abort(); /* more than 2^56 rows */
    hl_err_clear(&err);
  }
  if (hl_prof_col_result(d, a, &r, &err) != HL_OK) abort();
  hl_buf_fini(&b);
  hl_buf_fini(&b2);
  hl_prof_col_free(d);
  hl_prof_col_free(c);
  hl_arena_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  hl_arena_t *ta = hl_arena_create(0);
  hl_type_t *t = NULL;
  hl_error_t err;
  hl_err_init(&err);
  if (!ta || hl_type_parse_str(ta, type_texts[data[0] % (sizeof type_texts / sizeof *type_texts)],
                               &t, &err) != HL_OK)
    abort();
  /* exact-size heap copies, so that ASan sees any read past the input */
  size_t n = size - 1;
  uint8_t *copy = malloc(n ? n : 1);
  if (!copy) abort();
  memcpy(copy, data + 1, n);
  check(t, copy, n);
  if (n >= 16) {
    hl_prof_reseal(copy, n);
    check(t, copy, n);
  }
  free(copy);
  hl_arena_destroy(ta);
  return 0;
}
