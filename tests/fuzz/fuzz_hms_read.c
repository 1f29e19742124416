// clang-format off
/*
 * fuzz_hms_read.c -- libFuzzer target for what the metastore server's
 * further read methods (src/hms_server/hms_read.c) take from the network:
 * the partition filter text of get_partitions_by_filter (parser and
 * evaluator, src/hms_server/hms_filter.c, and the name scan of
 * get_table_names_by_filter) and argument structs read by
 * hl_hms_read_fields (src/hms/hms_query.c).
 *
 * Build (as the fuzz.hms_read CTest entry and `make fuzz` do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_hms_read.c src/hms_server/hms_filter.c src/hms/hms_[!m]*.c src/thrift/[a-z]*.c src/util/[a-z]*.c -lm -lpthread $(pkg-config --cflags --libs krb5-gssapi) -o fuzz_hms_read
 *
 * The first byte picks: even, the rest (up to a NUL) is a filter over keys
 * of string, int, date, decimal, bigint and double type, evaluated when it
 * parses on partitions with ordinary, default and unreadable values; odd,
 * the rest is an argument struct whose field 1 is a request struct.  Any
 * crash, leak or sanitizer report is a finding; a failure must be a
 * protocol violation (08P01) or out of memory.  Seeds:
 * tests/fuzz/corpus/hms_read/.
 */
// clang-format on
#include "hms/hms_query.h"
#include "hms_server/hms_filter.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hl_cat_column_t keys[] = {{"s", "string", NULL}, {"i", "int", NULL},
                                 {"d", "date", NULL},   {"m", "decimal(5,2)", NULL},
                                 {"b", "bigint", NULL}, {"f", "double", NULL}};
static char *parts[][6] = {
    {"a", "9", "2024-01-02", "1.50", "5000000000", "0.5"},
    {NULL, NULL, NULL, NULL, NULL, NULL},
    {"", "x", "2024-13-40", "1e9", "-", "nan"},
};

static void filter_case(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  hl_arena_t *a = hl_arena_create(4096), *scratch = hl_arena_create(1024);
  hl_hms_filter_t *f;
  hl_error_t err;
  hl_err_init(&err);
  if (!a || !scratch) abort();
  if (hl_hms_filter_parse(text, keys, 6, a, &f, &err) == HL_OK) {
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
      (void)hl_hms_filter_match(f, parts[p], scratch);
      hl_arena_reset(scratch);
    }
  } else if (!err.message) {
    abort(); /* a refusal always says why */
  }
  hl_err_clear(&err);
  char **names; /* the table filter's first step */
  size_t n;
  hl_err_init(&err);
  if (hl_hms_filter_names(text, a, &names, &n, &err) == HL_OK && n > HL_HMS_FILTER_MAX_NAMES)
    abort();
  hl_err_clear(&err);
  hl_arena_destroy(scratch);
  hl_arena_destroy(a);
  free(text);
}

static void fields_case(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_hms_dec_t d;
  hl_hms_fields_t f;
  if (!a) abort();
  hl_err_init(&err);
  hl_hms_dec_init(&d, data, size, a, &err);
  hl_status_t rc = hl_hms_read_fields(&d, 1, &f);
  if (rc == HL_OK && (hl_tr_offset(&d.r) > size || d.r.depth != 0)) abort();
  if (rc && rc != HL_NOMEM && strcmp(err.sqlstate, "08P01") != 0) abort();
  hl_err_clear(&err);
  hl_arena_destroy(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  if (data[0] & 1)
    fields_case(data + 1, size - 1);
  else
    filter_case(data + 1, size - 1);
  return 0;
}
