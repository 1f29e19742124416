// clang-format off
/*
 * fuzz_sqldt.c -- libFuzzer target for the SQL:2016 datetime templates of
 * CAST ... FORMAT (src/vector/func_sqldt.c): the template compiler, the
 * formatter and the parser of input text.
 *
 * Build (as the fuzz.sqldt CTest entry does):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc -I/usr/include/libxml2 tests/fuzz/fuzz_sqldt.c src/vector/[a-z]*.c src/util/[a-z]*.c -lcrypto -lxml2 -licui18n -licuuc -lz -lm -lpthread -o fuzz_sqldt
 *
 * The first byte picks parsing (odd) or formatting (even) and the day the
 * statement runs (short years take their digits from it); the rest is split
 * at the first NUL byte into the template and the text to parse (for
 * formatting, its bytes pick the instants formatted, within 0001-9999).
 * Compiling must return HL_OK or a clean 22007; formatting must stay within
 * HL_SQLDT_MAX_OUTPUT bytes (the buffer is exactly that long, so ASan sees
 * any overrun); a parsed value must lie within 0001-01-01..9999-12-31.
 */
// clang-format on
#include "vector/func_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define US_PER_DAY 86400000000LL
#define FIRST_DAY  (-719162LL) /* 0001-01-01 */
#define LAST_DAY   2932896LL   /* 9999-12-31 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  bool for_parse = data[0] & 1;
  int64_t today = (int64_t)(data[0] >> 1) * 300 - 10000; /* 1942 .. 2178 */
  const char *pat = (const char *)data + 1;
  size_t n = size - 1;
  const char *nul = memchr(pat, 0, n);
  size_t pn = nul ? (size_t)(nul - pat) : n;
  const char *text = nul ? nul + 1 : "";
  size_t tn = nul ? n - pn - 1 : 0;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_sqldt_t *f = NULL;
  hl_status_t rc = hl_sqldt_compile(pat, pn, for_parse, today, arena, 0, &f, &err);
  if (rc != HL_OK) {
    if (strcmp(err.sqlstate, "22007") != 0 && rc != HL_NOMEM) abort();
    hl_err_clear(&err);
  } else if (for_parse) {
    int64_t micros;
    if (hl_sqldt_parse(f, text, tn, &micros) &&
        (micros < FIRST_DAY * US_PER_DAY || micros >= (LAST_DAY + 1) * US_PER_DAY))
      abort();
  } else {
    char *out = malloc(HL_SQLDT_MAX_OUTPUT);
    if (out) {
      uint64_t span = (uint64_t)(LAST_DAY - FIRST_DAY + 1) * (uint64_t)US_PER_DAY;
      for (size_t k = 0; k <= tn / 8; k++) {
        uint64_t x = 0;
        for (size_t b = 0; b < 8 && k * 8 + b < tn; b++)
          x = x << 8 | (uint8_t)text[k * 8 + b];
        int64_t micros = FIRST_DAY * US_PER_DAY + (int64_t)(x % span);
        size_t len = hl_sqldt_format(f, micros, out);
        if (len > HL_SQLDT_MAX_OUTPUT) abort();
        /* what a template formats, the same template's parse reads without
         * running past the text (the result may differ: names, FM, ...) */
        int64_t back;
        (void)hl_sqldt_parse(f, out, len, &back);
      }
      free(out);
    }
  }
  hl_arena_destroy(arena);
  return 0;
}
