/*
 * fuzz_parquet.c -- libFuzzer target for the Parquet reader
 * (src/format/parquet): arbitrary bytes are written to a temporary file,
 * its schema is read with hl_parquet_file_schema and every column is read
 * through hl_parquet_reader_* (footer, page headers, codecs, encodings,
 * levels, nested assembly), then once more with a pushed predicate so the
 * statistics and page-index paths run too.  Any crash, sanitizer report,
 * leak or hang is a bug; errors are fine.
 *
 * CTest runs it as fuzz.parquet when clang has -fsanitize=fuzzer:
 * tests/fuzz/run_fuzz.sh builds it (clang, libFuzzer + ASan + UBSan) and
 * fuzzes ~20 s from a seed corpus of the fixtures made at test time.  By
 * hand, for a longer run:
 *
 *   tests/fuzz/run_fuzz.sh clang "$PWD" build/fuzz ../shared/fixtures 3600
 */
#include "format/parquet/parquet.h"
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_file(hl_stor_t *fs, const char *path, bool with_pred) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  int n = 0;
  char **names = NULL;
  hl_type_t **types = NULL;
  if (arena && hl_parquet_file_schema(fs, path, arena, &n, &names, &types, &err) == HL_OK) {
    hl_scan_pred_t pred;
    memset(&pred, 0, sizeof pred);
    pred.col = 0;
    pred.op = HL_PRED_GE;
    pred.value.is_null = false;
    pred.value.u.i = 3; /* fine for integer columns; other types only compare bytes */
    bool usable = n > 0 && hl_type_phys(types[0]) == HL_P_I64;
    hl_parquet_reader_t *r = NULL;
    if (hl_parquet_reader_open(fs, path, n, (const hl_type_t *const *)types,
                               (const char *const *)names, NULL, with_pred && usable ? &pred : NULL,
                               with_pred && usable ? 1 : 0, NULL, &r, &err) == HL_OK) {
      hl_batch_t *b = hl_batch_create(n, (const hl_type_t *const *)types);
      while (b && hl_batch_reset(b) == HL_OK && hl_parquet_reader_next(r, b, &err) == HL_OK &&
             b->n_rows > 0) {
      }
      hl_batch_destroy(b);
    }
    hl_parquet_reader_close(r);
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_with_file(data, size, "fuzz_parquet_", read_file);
  return 0;
}
