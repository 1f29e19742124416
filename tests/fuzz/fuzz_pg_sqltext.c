// clang-format off
/*
 * fuzz_pg_sqltext.c -- libFuzzer target for the server's reading of
 * catalog query text (src/server/pg_sqltext.c, with pg_wire.c for Bind):
 * the normalized form, words in order, session-function selects, select
 * lists, LIKE / = / regular-expression filters, numbers after a key, and
 * parameters written into the text.
 *
 * Build (as the fuzz.pg_sqltext CTest entry does):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_pg_sqltext.c src/server/pg_sqltext.c src/server/pg_wire.c -o fuzz_pg_sqltext
 *
 * The input is a query text, optionally followed by a NUL byte and the
 * body of a Bind message whose values are written into the text.  Every
 * answer must be a string ending in its buffer and every compiled
 * expression is freed (ASan checks both).
 */
// clang-format on
#include "server/pg_sqltext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void filters(const char *n) {
  static const char *const fields[] = {"n.nspname", "c.relname", "a.attname", "nspname", "relname"};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    regex_t re;
    int bad = 0;
    if (pg_cat_name_after(n, fields[i], &re, &bad)) {
      regexec(&re, "web", 0, NULL, 0);
      regfree(&re);
    }
  }
  regex_t re;
  int bad = 0;
  if (pg_cat_pattern_after(n, "c.relname operator(pg_catalog.~) ", &re, &bad)) regfree(&re);
  (void)pg_cat_oid_after(n, "c.oid=");
  (void)pg_cat_oid_after(n, "where c.oid = ");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  size_t text_len = nul ? (size_t)(nul - data) : size;
  char *sql = malloc(text_len + 1);
  if (!sql) return 0;
  memcpy(sql, data, text_len);
  sql[text_len] = '\0';

  char *n = pg_cat_normalize(sql);
  if (n) {
    (void)strlen(n);
    (void)pg_cat_contains_in_order(n, "select |from pg_catalog.pg_class c|where c.relnamespace=");
    int kinds[8];
    char names[8][64];
    int k = pg_cat_session_select(n, kinds, names);
    for (int i = 0; i < k; i++)
      if (kinds[i] < 0 || kinds[i] > 7 || !memchr(names[i], 0, 64)) abort();
    if (strncmp(n, "select ", 7) == 0) {
      char list[64][64];
      int m = pg_cat_select_list_names(n, list, 64);
      for (int i = 0; i < m; i++)
        if (!memchr(list[i], 0, 64)) abort();
      (void)pg_cat_select_list_count(n);
    }
    filters(n);
    free(n);
  }

  int highest = pg_params_highest(sql);
  if (highest < 0 || highest > 65535) abort();
  if (nul) {
    pg_bind_msg_t m;
    if (pg_decode_bind(nul + 1, size - text_len - 1, &m) == 0) {
      static const uint32_t types[] = {20, 23, 21, 25, 26};
      int unsupported;
      char *out = pg_params_inline(sql, &m, types, 5, &unsupported);
      if (out) {
        (void)strlen(out);
        free(out);
      }
    }
  }
  free(sql);
  return 0;
}
