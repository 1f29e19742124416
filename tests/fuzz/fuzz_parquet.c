/*
 * fuzz_parquet.c -- libFuzzer target for the Parquet reader
 * (src/format/parquet): arbitrary bytes are written to a temporary file,
 * its schema is read with hl_parquet_file_schema and every column is read
 * through hl_parquet_reader_* (footer, page headers, codecs, encodings,
 * levels, nested assembly), then once more with a pushed predicate so the
 * statistics and page-index paths run too.  Any crash, sanitizer report,
 * leak or hang is a bug; errors are fine.
 *
 * Not part of the CMake build.  Build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -std=c11 \
 *     -Iinclude -Isrc tests/fuzz/fuzz_parquet.c src/format/parquet/[a-z]*.c \
 *     src/exec/vector.c src/storage/[a-z]*.c src/util/[a-z]*.c \
 *     $(pkg-config --cflags --libs zlib libzstd snappy liblz4 libbrotlidec \
 *       libbrotlienc) -lm -lpthread -o fuzz_parquet
 *   mkdir -p tests/fuzz/corpus/parquet
 *   cp ../shared/fixtures/parquet/*.parquet tests/fuzz/corpus/parquet/  # seeds
 *   ./fuzz_parquet -max_len=65536 -timeout=10 -rss_limit_mb=2048 tests/fuzz/corpus/parquet
 */
#include "format/parquet/parquet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  char path[] = "/tmp/fuzz_parquet_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  if (size && write(fd, data, size) != (ssize_t)size) {
    close(fd);
    unlink(path);
    return 0;
  }
  close(fd);
  hl_stor_t *fs = hl_stor_local_create();
  if (fs) {
    read_file(fs, path, false);
    read_file(fs, path, true);
    fs->ops->destroy(fs);
  }
  unlink(path);
  return 0;
}
