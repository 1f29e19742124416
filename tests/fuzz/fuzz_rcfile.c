/*
 * fuzz_rcfile.c -- libFuzzer target for the RCFile reader
 * (src/format/rcfile): arbitrary bytes are written to a temporary file and
 * read as an RCFILE table (LazyBinaryColumnarSerDe, or ColumnarSerDe when
 * a column is complex), all columns and none projected.  The first input byte picks the columns.
 * Any crash, sanitizer report, leak or hang is a bug; errors are fine.
 *
 * Not part of the CMake build.  Build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -std=c11 \
 *     -Iinclude -Isrc tests/fuzz/fuzz_rcfile.c src/format/seqfile/[a-z]*.c \
 *     src/format/rcfile/[a-z]*.c src/format/lazybin/[a-z]*.c \
 *     src/format/text/[a-z]*.c src/vector/[a-z]*.c src/storage/[a-z]*.c src/util/[a-z]*.c \
 *     $(pkg-config --cflags --libs zlib libzstd jansson snappy liblz4) -lbz2 -lcrypto -lm \
 *     -lpthread -o fuzz_rcfile
 *   mkdir -p tests/fuzz/corpus/rcfile && ./fuzz_rcfile tests/fuzz/corpus/rcfile
 */
#include "format/rcfile/rcfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const type_texts[] = {
    "int",       "string",     "double",          "decimal(12,3)",
    "timestamp", "array<int>", "map<string,int>", "date"};
#define N_TYPES (int)(sizeof type_texts / sizeof type_texts[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char path[] = "/tmp/fuzz_rcfile_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
    close(fd);
    unlink(path);
    return 0;
  }
  close(fd);
  hl_arena_t *arena = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  int n_cols = 1 + data[0] % 3;
  const hl_type_t *types[3];
  const char *names[3] = {"a", "b", "c"};
  for (int i = 0; i < n_cols; i++) {
    hl_type_t *t = NULL;
    hl_error_t e;
    hl_err_init(&e);
    hl_type_parse_str(arena, type_texts[(data[0] / 3 + i) % N_TYPES], &t, &e);
    hl_err_clear(&e);
    types[i] = t;
  }
  bool complex = false;
  for (int i = 0; i < n_cols; i++)
    complex |= hl_type_is_complex(types[i]);
  hl_rcfile_format_t fmt;
  hl_error_t err;
  hl_err_init(&err);
  hl_rcfile_format_init(&fmt, arena,
                        complex ? "org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe" : NULL,
                        NULL, 0, NULL, 0, &err);
  bool none[3] = {false, false, false};
  for (int pass = 0; pass < 2; pass++) {
    hl_rcfile_reader_t *r = NULL;
    hl_batch_t *batch = hl_batch_create(n_cols, types);
    if (hl_rcfile_reader_open(fs, path, &fmt, n_cols, types, names, pass ? none : NULL, &r, &err) ==
        HL_OK) {
      for (int i = 0; i < 1000; i++) {
        hl_batch_reset(batch);
        if (hl_rcfile_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
      }
    }
    hl_err_clear(&err);
    hl_rcfile_reader_close(r);
    hl_batch_destroy(batch);
  }
  unlink(path);
  fs->ops->destroy(fs);
  hl_arena_destroy(arena);
  return 0;
}
