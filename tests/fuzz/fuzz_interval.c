// clang-format off
/*
 * fuzz_interval.c -- libFuzzer target for the interval text parsers
 * (src/util/interval.c): Hive's year-month and day-time forms, every unit
 * of internal_interval, and unit names.
 *
 * Registered in CMake as fuzz.interval (15 s, seeded with
 * tests/fuzz/corpus/interval).  By hand, from the repository root:
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_interval.c src/util/[a-z]*.c -lm -lpthread -o fuzz_interval
 *   ./fuzz_interval -max_len=256 tests/fuzz/corpus/interval
 *
 * Traps when a parser returns a code other than OK/BAD/RANGE, a year-month
 * value leaves Hive's int, or a value printed by the formatter does not
 * parse back to itself (the formatter's text is Hive's toString, which
 * valueOf reads).
 */
// clang-format on
#include "util/interval.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_rc(int rc) {
  if (rc != HL_IV_OK && rc != HL_IV_BAD && rc != HL_IV_RANGE) abort();
}

static void round_trip(bool ym, int64_t v) {
  hl_buf_t b;
  hl_buf_init(&b);
  if (ym)
    hl_interval_ym_format(&b, v);
  else
    hl_interval_dt_format(&b, v);
  int64_t back = 0;
  int rc = ym ? hl_interval_ym_parse(hl_buf_cstr(&b), b.len, &back)
              : hl_interval_dt_parse(hl_buf_cstr(&b), b.len, &back);
  if (rc != HL_IV_OK || back != v) abort();
  hl_buf_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  int64_t v;
  int rc = hl_interval_ym_parse(s, size, &v);
  check_rc(rc);
  if (rc == HL_IV_OK) {
    if (v > HL_INTERVAL_YM_MAX || v < HL_INTERVAL_YM_MIN) abort();
    round_trip(true, v);
  }
  rc = hl_interval_dt_parse(s, size, &v);
  check_rc(rc);
  if (rc == HL_IV_OK) round_trip(false, v);
  for (int u = HL_IU_YEAR_TO_MONTH; u <= HL_IU_SECOND; u++) {
    rc = hl_interval_parse_unit((hl_interval_unit_t)u, s, size, &v);
    check_rc(rc);
    if (rc == HL_IV_OK) round_trip(hl_interval_unit_is_ym((hl_interval_unit_t)u), v);
  }
  hl_interval_unit_t unit;
  if (hl_interval_unit_lookup(s, size, &unit) &&
      strlen(hl_interval_unit_name(unit)) > 13) /* "YEAR TO MONTH" is the longest */
    abort();
  /* the input's first 8 bytes as a value: every int64 prints and reads back */
  if (size >= 8) {
    memcpy(&v, data, 8);
    if (v != INT64_MIN) round_trip(false, v); /* the day-time range is +-INT64_MAX */
    round_trip(true, (int32_t)v);
  }
  return 0;
}
