// clang-format off
/*
 * fuzz_parser.c -- libFuzzer target for the HiveQL lexer and parser.
 *
 * Build (not part of the CMake build), from the repository root, then run:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_parser.c src/sql/[a-z]*.c src/util/[a-z]*.c -lm -o fuzz_parser
 *   ./fuzz_parser -max_len=4096 tests/fuzz/corpus/parser
 *
 * Parses every statement of the input as a script would (advancing by
 * `consumed`) and traps if an error position falls outside the text, a
 * statement span is inconsistent, or the parser stops making progress.
 * Each input is parsed twice: with Hive's string literals and with
 * hivelite.sql.string_literals=standard (doubled quotes, E'...').
 */
// clang-format on
#include "sql/parser.h"
#include "util/arena.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse_all(hl_arena_t *arena, const char *sql, size_t size, hl_sql_strings_t strings) {
  size_t off = 0;
  while (off < size) {
    hl_error_t err;
    hl_err_init(&err);
    hl_ast_stmt_t *st = NULL;
    size_t used = 0;
    hl_status_t rc = hl_sql_parse_strings(arena, sql + off, size - off, strings, &st, &used, &err);
    if (rc != HL_OK && rc != HL_NOMEM &&
        (err.position < 0 || err.position > (long)(size - off) || !err.message))
      abort();
    if (rc == HL_OK && st &&
        (st->pos < 0 || st->end_pos < st->pos || st->end_pos > (long)(size - off)))
      abort();
    if (used > size - off) abort();
    hl_err_clear(&err);
    if (used == 0) {
      if (rc == HL_OK && st == NULL) break; /* nothing left but blanks */
      abort();                              /* no progress */
    }
    off += used;
    hl_arena_reset(arena);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return 0;
  parse_all(arena, (const char *)data, size, HL_SQL_STRINGS_HIVE);
  hl_arena_reset(arena);
  parse_all(arena, (const char *)data, size, HL_SQL_STRINGS_STANDARD);
  hl_arena_destroy(arena);
  return 0;
}
