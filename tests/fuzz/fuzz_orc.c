/*
 * fuzz_orc.c -- libFuzzer target for the ORC reader (src/format/orc):
 * arbitrary bytes are written to a temporary file, its schema is read with
 * hl_orc_file_schema and every column is read through hl_orc_reader_*
 * (tail, stripe footers, compression chunks and codecs, run-length
 * encodings, dictionaries, nested columns, time zones), then once more with
 * only the first column projected.  Any crash, sanitizer report, leak or
 * hang is a bug; errors are fine.
 *
 * CTest runs it as fuzz.orc when clang has -fsanitize=fuzzer:
 * tests/fuzz/run_fuzz.sh builds it (clang, libFuzzer + ASan + UBSan) and
 * fuzzes ~20 s from a seed corpus of the ORC fixtures made at test time.
 * By hand, for a longer run:
 *
 *   tests/fuzz/run_fuzz.sh clang "$PWD" build/fuzz ../shared/fixtures 3600 orc
 */
#include "format/orc/orc.h"
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_file(hl_stor_t *fs, const char *path, bool first_only) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  int n = 0;
  char **names = NULL;
  hl_type_t **types = NULL;
  if (arena && hl_orc_file_schema(fs, path, arena, &n, &types, &names, &err) == HL_OK) {
    bool *projected = calloc((size_t)n + 1, sizeof(bool));
    for (int i = 0; projected && i < n; i++)
      projected[i] = !first_only || i == 0;
    hl_orc_reader_t *r = NULL;
    if (projected &&
        hl_orc_reader_open(fs, path, n, (const hl_type_t *const *)types, (const char *const *)names,
                           projected, NULL, 0, &r, &err) == HL_OK) {
      hl_batch_t *b = hl_batch_create(n, (const hl_type_t *const *)types);
      while (b && hl_batch_reset(b) == HL_OK && hl_orc_reader_next(r, b, &err) == HL_OK &&
             b->n_rows > 0) {
      }
      hl_batch_destroy(b);
    }
    hl_orc_reader_close(r);
    free(projected);
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_with_file(data, size, "fuzz_orc_", read_file);
  return 0;
}
