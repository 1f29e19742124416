// clang-format off
/*
 * fuzz_matchpath.c -- libFuzzer target for the pattern of Hive's matchpath
 * table function (src/vector/matchpath.c): the compiler of 'A.B*.C+' and
 * the matcher run at every row of a partition.
 *
 * Build (as the fuzz.matchpath CTest entry does):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_matchpath.c src/vector/matchpath.c src/util/[a-z]*.c -lcrypto -lz -lm -lpthread -o fuzz_matchpath
 *
 * The first byte gives the partition's rows (0..63); the next eight bytes
 * are the symbols' values (symbol s at row r: bit r % 8 of byte s, flipped
 * in every other block of eight rows); the rest is the
 * pattern over the symbols a b c late early x y z.  Compiling must return
 * HL_OK or a clean 22023; a match's path must lie within the partition
 * (at least 1 row, at most the rows from its start), and matching twice
 * must give the same answer.
 */
// clang-format on
#include "vector/matchpath.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool symbol_at(void *ctx, int symbol, size_t row) {
  const uint8_t *bits = ctx;
  return ((bits[symbol & 7] >> (row % 8)) ^ (row / 8)) & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const names[] = {"a", "b", "c", "late", "early", "x", "y", "z"};
  if (size < 9 || size > 4096) return 0;
  size_t n = data[0] % 64;
  uint8_t bits[8];
  memcpy(bits, data + 1, 8);
  const char *pat = (const char *)data + 9;
  size_t pn = size - 9;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_mp_pattern_t *p = NULL;
  hl_status_t rc = hl_mp_compile(pat, pn, names, 8, arena, &p, &err);
  if (rc != HL_OK) {
    if (strcmp(err.sqlstate, "22023") != 0 && rc != HL_NOMEM) abort();
    hl_err_clear(&err);
  } else {
    if (p->n_steps < 1 || (size_t)p->n_steps > pn + 1) abort();
    for (size_t i = 0; i < n; i++) {
      size_t len = 0, len2 = 0;
      bool m = hl_mp_match(p, n, i, symbol_at, bits, &len);
      bool m2 = hl_mp_match(p, n, i, symbol_at, bits, &len2);
      if (m != m2 || (m && (len < 1 || len > n - i || len != len2))) abort();
    }
  }
  hl_arena_destroy(arena);
  return 0;
}
