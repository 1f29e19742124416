/*
 * fuzz_avro.c -- libFuzzer target for the Avro reader (src/format/avro):
 * arbitrary bytes are written to a temporary file and read as an AVRO
 * table with columns of every Hive type (reader schema derived from them):
 * header, writer schema parse and resolution, blocks, sync markers, every
 * codec, decoding; once with every column projected, once with only the
 * first, once with none (the count-only path), and by two readers that
 * share the file in small pieces (a parallel scan's split by sync
 * markers).  The same bytes are also
 * parsed as a schema literal (the JSON schema parser and Hive type
 * mapping).  Any crash, sanitizer report, leak or hang is a bug; errors are
 * fine.  Seeds: tests/fuzz/corpus/avro (hivelite-written files, one per
 * codec, of these columns -- union_*.avro with the UNIONTYPE ones, every
 * tag and NULLs; schemas, union.json with unions of several branches).
 *
 * CTest runs it as fuzz.avro when clang has -fsanitize=fuzzer (15 s).
 */
#include "format/avro/avro.h"
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_texts[] = {"boolean",
                                         "int",
                                         "bigint",
                                         "float",
                                         "double",
                                         "string",
                                         "binary",
                                         "decimal(10,2)",
                                         "date",
                                         "timestamp",
                                         "varchar(5)",
                                         "char(3)",
                                         "array<int>",
                                         "map<string,string>",
                                         "struct<x:int,y:string>",
                                         "uniontype<int,string,array<int>>",
                                         "array<uniontype<bigint,struct<p:double>>>"};
static const char *const names[] = {"b",  "i",  "l", "f",   "d", "s",  "bin", "dec", "dt",
                                    "ts", "vc", "c", "arr", "m", "st", "u",   "au"};
#define N_COLS (int)(sizeof type_texts / sizeof type_texts[0])

static void read_file(hl_stor_t *fs, const char *path, bool first_only) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  const hl_type_t *types[N_COLS];
  for (int i = 0; i < N_COLS; i++) {
    hl_type_t *t = NULL;
    hl_type_parse_str(arena, type_texts[i], &t, &err);
    types[i] = t;
  }
  hl_avro_schema_t *schema = NULL;
  if (hl_avro_table_schema(fs, arena, NULL, 0, NULL, 0, N_COLS, types, names, &schema, &err) ==
      HL_OK) {
    bool projected[N_COLS];
    for (int pass = 0; pass < (first_only ? 2 : 1); pass++) {
      for (int i = 0; i < N_COLS; i++)
        projected[i] = first_only ? (pass == 0 && i == 0) : true;
      hl_avro_reader_t *r = NULL;
      if (hl_avro_reader_open(fs, path, schema, N_COLS, types, names, projected, &r, &err) ==
          HL_OK) {
        hl_batch_t *b = hl_batch_create(N_COLS, types);
        for (int k = 0; b && k < 1000; k++)
          if (hl_batch_reset(b) != HL_OK || hl_avro_reader_next(r, b, &err) != HL_OK ||
              b->n_rows == 0)
            break;
        hl_batch_destroy(b);
      }
      hl_avro_reader_close(r);
      hl_err_clear(&err);
    }
    /* two readers sharing the file in pieces of 97 bytes (the threads of a
     * parallel scan): the search for each piece's first sync marker */
    for (int w = 0; !first_only && w < 2; w++) {
      hl_avro_reader_t *r = NULL;
      if (hl_avro_reader_open(fs, path, schema, N_COLS, types, names, NULL, &r, &err) == HL_OK) {
        hl_avro_reader_share(r, 97, 1, 2, w);
        hl_batch_t *b = hl_batch_create(N_COLS, types);
        for (int k = 0; b && k < 1000; k++)
          if (hl_batch_reset(b) != HL_OK || hl_avro_reader_next(r, b, &err) != HL_OK ||
              b->n_rows == 0)
            break;
        hl_batch_destroy(b);
      }
      hl_avro_reader_close(r);
      hl_err_clear(&err);
    }
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_with_file(data, size, "fuzz_avro_", read_file);
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_avro_schema_t *s = NULL;
  int n;
  char **nm;
  hl_type_t **ty;
  if (arena && hl_avro_schema_parse(arena, (const char *)data, size, "fuzz", &s, &err) == HL_OK)
    hl_avro_schema_columns(s, arena, &n, &nm, &ty, &err);
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  return 0;
}
