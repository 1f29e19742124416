/*
 * fuzz_lazybin.c -- libFuzzer target for the LazyBinarySerDe row decoder
 * (src/format/lazybin/lazybin.c): arbitrary bytes decoded as a row of one
 * of several column lists (every scalar type, nested arrays, maps and
 * structs, more than 8 columns), and every row that decodes encoded again
 * and decoded once more, which must give the same bytes; the bytes are
 * also decoded as an RCFile cell of each complex column.  Any crash,
 * sanitizer report, leak, hang or mismatch is a bug; malformed rows are
 * fine.  The first byte picks the column list.
 *
 * Registered in CMake (fuzz.lazybin, 15 s under make check) and run by
 * `make fuzz`; seeds in tests/fuzz/corpus/lazybin.  By hand:
 *
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *     -Iinclude -Isrc tests/fuzz/fuzz_lazybin.c src/format/lazybin/lazybin.c \
 *     src/format/seqfile/seq_io.c src/storage/stor_local.c src/storage/stor_util.c \
 *     src/util/[a-z]*.c $(pkg-config --cflags --libs zlib) -lm -lpthread -o fuzz_lazybin
 */
#include "format/lazybin/lazybin.h"

#include <stdlib.h>
#include <string.h>

static const char *const lists[][20] = {
    {"int", "string", "array<string>", "bigint", "int", NULL},
    {"boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "decimal(10,3)",
     "string", "varchar(4)", "char(3)", "binary", "date", "timestamp", NULL},
    {"array<int>", "map<string,double>", "struct<x:int,y:string>", "array<array<string>>", NULL},
    {"map<int,array<struct<a:decimal(38,18),b:timestamp>>>", "struct<s:struct<t:array<binary>>>",
     NULL},
    {"uniontype<int,string,array<string>>", "array<uniontype<bigint,struct<x:int>>>", NULL},
};
#define N_LISTS (sizeof lists / sizeof lists[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const char *const *list = lists[data[0] % N_LISTS];
  data++;
  size--;
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  const hl_type_t *types[20];
  int n = 0;
  for (; list[n]; n++) {
    hl_type_t *t = NULL;
    if (hl_type_parse_str(arena, list[n], &t, &err) != HL_OK) abort();
    types[n] = t;
  }
  hl_value_t vals[20], again[20];
  bool ok = false;
  const char *why = NULL;
  if (hl_lazybin_decode_row(data, size, n, types, NULL, vals, arena, &ok, &why, &err) == HL_OK &&
      ok) {
    hl_buf_t one, two;
    hl_buf_init(&one);
    hl_buf_init(&two);
    hl_lazybin_encode_row(&one, n, types, vals);
    bool ok2 = false;
    if (!one.oom && hl_lazybin_decode_row((const unsigned char *)one.data, one.len, n, types, NULL,
                                          again, arena, &ok2, &why, &err) == HL_OK) {
      if (!ok2) abort(); /* what we write we must read */
      hl_lazybin_encode_row(&two, n, types, again);
      if (two.len != one.len || memcmp(two.data, one.data, one.len) != 0) abort();
    }
    hl_buf_fini(&one);
    hl_buf_fini(&two);
  }
  /* the same bytes as an RCFile cell of each complex column */
  for (int c = 0; c < n; c++) {
    if (!hl_type_is_complex(types[c]) || size == 0) continue;
    hl_value_t cell;
    hl_lazybin_decode_cell(data, size, types[c], &cell, arena, &ok, &why, &err);
    hl_err_clear(&err);
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  return 0;
}
