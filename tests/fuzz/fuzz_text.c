/*
 * fuzz_text.c -- libFuzzer target for the text-table readers
 * (src/format/text): arbitrary bytes are written to a temporary file and
 * read through LazySimpleSerDe (default and escaped/custom separators),
 * OpenCSVSerde, JsonSerDe and RegexSerDe with scalar and nested column types, plain and
 * as a .gz / .zst / .snappy file name (so the decompressors see the bytes
 * too; tests/fuzz/fuzz_hblock.c fuzzes the other codecs).  Any
 * crash, sanitizer report, leak or hang is a bug; errors are fine.
 *
 * Not part of the CMake build.  Build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -std=c11 \
 *     -Iinclude -Isrc tests/fuzz/fuzz_text.c src/format/text/[a-z]*.c \
 *     src/format/lazybin/lazybin.c src/format/seqfile/seq_io.c \
 *     src/vector/[a-z]*.c src/storage/[a-z]*.c src/util/[a-z]*.c \
 *     $(pkg-config --cflags --libs zlib libzstd jansson snappy liblz4 libxml-2.0 icu-uc icu-i18n) \
 *     -lbz2 -lcrypto -lm -lpthread -o fuzz_text
 *   mkdir -p tests/fuzz/corpus/text && ./fuzz_text tests/fuzz/corpus/text
 */
#include "format/text/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const type_texts[] = {"int",
                                         "string",
                                         "double",
                                         "decimal(12,3)",
                                         "boolean",
                                         "date",
                                         "timestamp",
                                         "binary",
                                         "varchar(4)",
                                         "array<int>",
                                         "map<string,int>",
                                         "struct<a:string,b:array<bigint>>",
                                         "char(3)",
                                         "array<map<int,array<string>>>",
                                         "uniontype<int,array<string>>"};
#define N_TYPES (int)(sizeof type_texts / sizeof type_texts[0])

static void read_file(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt, int n_cols,
                      const hl_type_t *const *types, const char *const *names,
                      const bool *projected) {
  hl_error_t err;
  hl_err_init(&err);
  hl_text_reader_t *r = NULL;
  hl_batch_t *batch = NULL;
  if (hl_text_reader_open(fs, path, fmt, n_cols, types, names, projected, &r, &err) != HL_OK)
    goto done;
  batch = hl_batch_create(n_cols, types);
  if (!batch) goto done;
  for (int guard = 0; guard < 1000; guard++) {
    if (hl_batch_reset(batch) != HL_OK) break;
    if (hl_text_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
    hl_buf_t out; /* touch every value, as a consumer would */
    hl_buf_init(&out);
    for (uint32_t row = 0; row < batch->n_rows; row++)
      for (int col = 0; col < n_cols; col++) {
        hl_value_t v;
        hl_vec_get_value(&batch->cols[col], row, &v);
        hl_value_format(&out, types[col], &v);
      }
    hl_buf_fini(&out);
  }
done:
  hl_batch_destroy(batch);
  hl_text_reader_close(r);
  hl_err_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  /* the first two bytes pick the configuration, the rest is the file */
  uint8_t pick = data[0], cols_pick = data[1];
  data += 2;
  size -= 2;
  char dir[] = "/tmp/fuzz_text_XXXXXX";
  if (!mkdtemp(dir)) return 0;
  static const char *const suffixes[] = {"", ".gz", ".zst", ".snappy"};
  char path[64];
  snprintf(path, sizeof path, "%s/f%s", dir, suffixes[pick & 3]);
  FILE *f = fopen(path, "wb");
  if (f) {
    if (size) fwrite(data, 1, size, f);
    fclose(f);
  }
  hl_stor_t *fs = hl_stor_local_create();
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  int n_cols = 1 + cols_pick % 4;
  const hl_type_t *types[4];
  const char *names[4] = {"a", "B", "c", "struct"};
  bool projected[4];
  for (int i = 0; i < n_cols; i++) {
    hl_type_t *t = NULL;
    if (hl_type_parse_str(arena, type_texts[(cols_pick / 4 + i * 5) % N_TYPES], &t, &err) != HL_OK)
      goto done;
    types[i] = t;
    projected[i] = ((pick >> (2 + i)) & 1) == 0;
  }
  hl_kv_t lazy_props[] = {{"field.delim", ","},
                          {"colelction.delim", "|"},
                          {"escape.delim", "\\"},
                          {"serialization.null.format", ""}};
  hl_kv_t header[] = {{"skip.header.line.count", "1"}};
  static const char *const serdes[] = {NULL, NULL, "org.apache.hadoop.hive.serde2.OpenCSVSerde",
                                       "org.apache.hive.hcatalog.data.JsonSerDe",
                                       "org.apache.hadoop.hive.serde2.RegexSerDe"};
  /* one group per column, Java syntax the rewrite must translate */
  static const char *const regexes[] = {"([^,]*)", "([^,]*),(?:x)?([\\d\\]]*)",
                                        "(.*?),([^\\s]+),(\\w*)", "(a|b)*(c)?(d+)?([\\-^\\]]*)"};
  hl_kv_t regex_props[] = {{"input.regex", (char *)regexes[n_cols - 1]},
                           {"input.regex.case.insensitive", "true"}};
  for (int kind = 0; kind < 5; kind++) {
    hl_text_format_t fmt;
    bool custom = kind == 1;
    hl_kv_t *props = custom ? lazy_props : kind == 4 ? regex_props : NULL;
    int n_props = custom ? 4 : kind == 4 ? 1 + ((pick >> 7) & 1) : 0;
    if (hl_text_format_init(&fmt, arena, serdes[kind], props, n_props, header, (pick >> 6) & 1,
                            &err) != HL_OK)
      break;
    read_file(fs, path, &fmt, n_cols, types, names, projected);
  }
done:
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  unlink(path);
  rmdir(dir);
  fs->ops->destroy(fs);
  return 0;
}
