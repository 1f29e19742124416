/*
 * fuzz_seqfile.c -- libFuzzer target for the SequenceFile reader
 * (src/format/seqfile): arbitrary bytes are written to a temporary file and
 * read as a SEQUENCEFILE table with scalar and nested columns, all columns
 * and none projected.  The first input byte picks the columns.  Any crash,
 * sanitizer report, leak or hang is a bug; errors are fine.
 *
 * Not part of the CMake build.  Build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -std=c11 \
 *     -Iinclude -Isrc tests/fuzz/fuzz_seqfile.c src/format/seqfile/[a-z]*.c \
 *     src/format/text/[a-z]*.c src/format/lazybin/[a-z]*.c src/vector/[a-z]*.c \
 *     src/storage/[a-z]*.c src/util/[a-z]*.c \
 *     $(pkg-config --cflags --libs zlib libzstd jansson snappy liblz4) -lbz2 -lcrypto -lm \
 *     -lpthread -o fuzz_seqfile
 *   mkdir -p tests/fuzz/corpus/seqfile && ./fuzz_seqfile tests/fuzz/corpus/seqfile
 */
#include "format/seqfile/seqfile.h"

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
  char path[] = "/tmp/fuzz_seqfile_XXXXXX";
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
  hl_text_format_t fmt;
  hl_error_t err;
  hl_err_init(&err);
  bool none[3] = {false, false, false};
  for (int pass = 0; pass < 4; pass++) { /* LazySimpleSerDe rows, then LazyBinarySerDe rows */
    hl_text_format_init(
        &fmt, arena, pass < 2 ? NULL : "org.apache.hadoop.hive.serde2.lazybinary.LazyBinarySerDe",
        NULL, 0, NULL, 0, &err);
    hl_seqfile_reader_t *r = NULL;
    hl_batch_t *batch = hl_batch_create(n_cols, types);
    if (hl_seqfile_reader_open(fs, path, &fmt, n_cols, types, names, pass % 2 ? none : NULL, &r,
                               &err) == HL_OK) {
      for (int i = 0; i < 1000; i++) {
        hl_batch_reset(batch);
        if (hl_seqfile_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
      }
    }
    hl_err_clear(&err);
    hl_seqfile_reader_close(r);
    hl_batch_destroy(batch);
  }
  unlink(path);
  fs->ops->destroy(fs);
  hl_arena_destroy(arena);
  return 0;
}
