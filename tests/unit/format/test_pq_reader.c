/*
 * test_pq_reader.c -- the Parquet reader (src/format/parquet/pq_reader.c,
 * pq_column.c) on the public fixtures in ../shared/fixtures/parquet:
 * schema resolution (names, widening, missing columns, type mismatch),
 * projection, nested values, footer cache, row-group skipping by
 * statistics, page skipping by the page index, checksum errors, the bad
 * files, and a few thousand truncated / byte-flipped variants of the small
 * fixtures (fixed seed) that must fail cleanly or read.
 */
#include "format/parquet/parquet.h"
#include "mutate.h"
#include "test.h"
#include "util/mem.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char fixture_dir[1024];
static hl_stor_t *fs;

static const char *fx(const char *name) {
  static char buf[4][1200];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/parquet/%s", fixture_dir, name);
  return buf[k];
}

static const hl_type_t *T(const char *text) {
  static hl_arena_t *a;
  if (!a) a = hl_arena_create(0);
  hl_type_t *t = NULL;
  hl_error_t e;
  hl_err_init(&e);
  hl_type_parse_str(a, text, &t, &e);
  hl_err_clear(&e);
  return t;
}

/* Reads the whole file with the given table columns; returns rows, fills
 * the first row's values formatted into FIRST (may be NULL). */
static long read_all(const char *path, int n, const hl_type_t *const *types,
                     const char *const *names, const bool *proj, const hl_scan_pred_t *preds,
                     int n_preds, hl_parquet_cache_t *cache, hl_error_t *err, char *first,
                     hl_parquet_scan_stats_t *stats) {
  hl_parquet_reader_t *r = NULL;
  if (hl_parquet_reader_open(fs, path, n, types, names, proj, preds, n_preds, cache, &r, err) !=
      HL_OK)
    return -1;
  hl_batch_t *b = hl_batch_create(n, types);
  long rows = 0;
  bool got_first = false;
  for (;;) {
    hl_batch_reset(b);
    if (hl_parquet_reader_next(r, b, err) != HL_OK) {
      rows = -1;
      break;
    }
    if (b->n_rows == 0) break;
    if (first && !got_first) {
      hl_buf_t buf;
      hl_buf_init(&buf);
      for (int c = 0; c < n; c++) {
        hl_value_t v;
        hl_vec_get_value(&b->cols[c], 0, &v);
        if (c) hl_buf_putc(&buf, '|');
        hl_value_format(&buf, types[c], &v);
      }
      snprintf(first, 1024, "%s", hl_buf_cstr(&buf));
      hl_buf_fini(&buf);
      got_first = true;
    }
    rows += b->n_rows;
  }
  if (stats) *stats = *hl_parquet_reader_stats(r);
  hl_batch_destroy(b);
  hl_parquet_reader_close(r);
  return rows;
}

TEST(resolution) {
  const hl_type_t *types[] = {T("bigint"), T("double"),    T("string"),
                              T("int"),    T("timestamp"), T("binary")};
  const char *names[] = {"ID",          "Float_Col",     "no_such_col",
                         "tinyint_col", "timestamp_col", "string_col"};
  hl_error_t e;
  hl_err_init(&e);
  char first[1024];
  long rows =
      read_all(fx("alltypes_plain.parquet"), 6, types, names, NULL, NULL, 0, NULL, &e, first, NULL);
  CHECK_INT(rows, 8);
  CHECK_STR(first, "4|0.0|NULL|0|2009-03-01 00:00:00|0");
  hl_err_clear(&e);
  /* projection: column 0 not read, comes back NULL */
  bool proj[] = {false, true, true, true, true, true};
  rows =
      read_all(fx("alltypes_plain.parquet"), 6, types, names, proj, NULL, 0, NULL, &e, first, NULL);
  CHECK_INT(rows, 8);
  CHECK_STR(first, "NULL|0.0|NULL|0|2009-03-01 00:00:00|0");
  hl_err_clear(&e);
}

TEST(type_mismatch) {
  const hl_type_t *types[] = {T("string")};
  const char *names[] = {"id"};
  hl_error_t e;
  hl_err_init(&e);
  long rows =
      read_all(fx("alltypes_plain.parquet"), 1, types, names, NULL, NULL, 0, NULL, &e, NULL, NULL);
  CHECK_INT(rows, -1);
  CHECK_STR(e.sqlstate, "42804");
  CHECK(e.message && strstr(e.message, "alltypes_plain.parquet") && strstr(e.message, "\"id\"") &&
        strstr(e.message, "int") && strstr(e.message, "string"));
  hl_err_clear(&e);
  /* a narrower decimal is refused, a wider one with the same scale reads */
  const hl_type_t *d1[] = {T("decimal(3,2)")};
  const char *vn[] = {"value"};
  CHECK_INT(read_all(fx("int32_decimal.parquet"), 1, d1, vn, NULL, NULL, 0, NULL, &e, NULL, NULL),
            -1);
  CHECK_STR(e.sqlstate, "42804");
  hl_err_clear(&e);
  const hl_type_t *d2[] = {T("decimal(12,2)")};
  char first[1024];
  CHECK_INT(read_all(fx("int32_decimal.parquet"), 1, d2, vn, NULL, NULL, 0, NULL, &e, first, NULL),
            24);
  CHECK_STR(first, "1.00");
  hl_err_clear(&e);
}

TEST(nested) {
  const hl_type_t *types[] = {T("map<string,map<int,boolean>>"), T("int")};
  const char *names[] = {"a", "b"};
  hl_error_t e;
  hl_err_init(&e);
  char first[1024];
  CHECK_INT(read_all(fx("nested_maps.snappy.parquet"), 2, types, names, NULL, NULL, 0, NULL, &e,
                     first, NULL),
            6);
  CHECK_STR(first, "{\"a\":{1:true,2:false}}|1");
  hl_err_clear(&e);
  /* struct fields matched by name; a field the file lacks is NULL */
  const hl_type_t *st[] = {T("struct<zz:int,b_c_int:bigint>")};
  const char *sn[] = {"b_struct"};
  CHECK_INT(read_all(fx("nulls.snappy.parquet"), 1, st, sn, NULL, NULL, 0, NULL, &e, first, NULL),
            8);
  CHECK_STR(first, "{\"zz\":null,\"b_c_int\":null}");
  hl_err_clear(&e);
  const hl_type_t *lt[] = {T("array<array<int>>")};
  const char *ln[] = {"a"};
  CHECK_INT(
      read_all(fx("old_list_structure.parquet"), 1, lt, ln, NULL, NULL, 0, NULL, &e, first, NULL),
      1);
  CHECK_STR(first, "[[1,2],[3,4]]");
  hl_err_clear(&e);
}

TEST(cache) {
  hl_parquet_cache_t *cache = hl_parquet_cache_create(2);
  const hl_type_t *types[] = {T("int")};
  const char *names[] = {"id"};
  const char *files[] = {"alltypes_plain.parquet", "alltypes_dictionary.parquet",
                         "alltypes_plain.snappy.parquet", "alltypes_plain.parquet"};
  const long want[] = {8, 2, 2, 8};
  hl_error_t e;
  hl_err_init(&e);
  for (int round = 0; round < 2; round++)
    for (int i = 0; i < 4; i++)
      CHECK_INT(read_all(fx(files[i]), 1, types, names, NULL, NULL, 0, cache, &e, NULL, NULL),
                want[i]);
  /* a reader may outlive the entry's eviction */
  hl_parquet_reader_t *r = NULL;
  CHECK(hl_parquet_reader_open(fs, fx("alltypes_plain.parquet"), 1, types, names, NULL, NULL, 0,
                               cache, &r, &e) == HL_OK);
  for (int i = 1; i < 3; i++)
    CHECK_INT(read_all(fx(files[i]), 1, types, names, NULL, NULL, 0, cache, &e, NULL, NULL), 2);
  hl_batch_t *b = hl_batch_create(1, types);
  CHECK(hl_parquet_reader_next(r, b, &e) == HL_OK);
  CHECK_INT(b->n_rows, 8);
  hl_parquet_cache_destroy(cache);
  hl_parquet_reader_close(r);
  hl_batch_destroy(b);
  hl_err_clear(&e);
}

TEST(skipping) {
  /* sort_columns.parquet: two row groups, a BIGINT in 1..3 with NULLs */
  const hl_type_t *types[] = {T("bigint")};
  const char *names[] = {"a"};
  hl_error_t e;
  hl_err_init(&e);
  hl_parquet_scan_stats_t st;
  hl_scan_pred_t p = {.col = 0, .op = HL_PRED_GT};
  p.value.is_null = false;
  p.value.u.i = 100;
  CHECK_INT(read_all(fx("sort_columns.parquet"), 1, types, names, NULL, &p, 1, NULL, &e, NULL, &st),
            0);
  CHECK_INT(st.row_groups_total, 2);
  CHECK_INT(st.row_groups_read, 0);
  p.value.u.i = 1;
  CHECK_INT(read_all(fx("sort_columns.parquet"), 1, types, names, NULL, &p, 1, NULL, &e, NULL, &st),
            6);
  CHECK_INT(st.row_groups_read, 2);
  /* the page index of alltypes_tiny_pages skips pages; the rows kept
   * include the match and are aligned across columns */
  const hl_type_t *t2[] = {T("int"), T("string")};
  const char *n2[] = {"id", "string_col"};
  hl_scan_pred_t q = {.col = 0, .op = HL_PRED_EQ};
  q.value.is_null = false;
  q.value.u.i = 3650;
  hl_parquet_reader_t *r = NULL;
  CHECK(hl_parquet_reader_open(fs, fx("alltypes_tiny_pages.parquet"), 2, t2, n2, NULL, &q, 1, NULL,
                               &r, &e) == HL_OK);
  hl_batch_t *b = hl_batch_create(2, t2);
  long rows = 0, found = 0;
  for (;;) {
    hl_batch_reset(b);
    if (hl_parquet_reader_next(r, b, &e) != HL_OK || b->n_rows == 0) break;
    for (uint32_t i = 0; i < b->n_rows; i++) {
      int64_t id = HL_VEC_I64(&b->cols[0])[i];
      hl_str_t s = HL_VEC_STR(&b->cols[1])[i];
      /* string_col is id % 10 in this file */
      if (s.len != 1 || s.ptr[0] != '0' + (char)(id % 10)) found = -1000000;
      if (id == 3650) found++;
    }
    rows += b->n_rows;
  }
  CHECK(e.code == HL_OK);
  CHECK_INT(found, 1);
  CHECK(rows > 0 && rows < 7300);
  CHECK(hl_parquet_reader_stats(r)->pages_skipped > 0);
  printf("page index: %ld of 7300 rows decoded, %zu pages skipped\n", rows,
         hl_parquet_reader_stats(r)->pages_skipped);
  hl_parquet_reader_close(r);
  hl_batch_destroy(b);
  hl_err_clear(&e);
}

TEST(checksum) {
  const hl_type_t *types[] = {T("int"), T("int")};
  const char *names[] = {"a", "b"};
  hl_error_t e;
  hl_err_init(&e);
  CHECK_INT(read_all(fx("datapage_v1-uncompressed-checksum.parquet"), 2, types, names, NULL, NULL,
                     0, NULL, &e, NULL, NULL),
            5120);
  CHECK_INT(read_all(fx("datapage_v1-corrupt-checksum.parquet"), 2, types, names, NULL, NULL, 0,
                     NULL, &e, NULL, NULL),
            -1);
  CHECK(e.code == HL_CORRUPT && e.message && strstr(e.message, "page checksum mismatch") &&
        strstr(e.message, "cannot read \"") && strstr(e.message, "corrupt-checksum.parquet"));
  hl_err_clear(&e);
}

/* Reads every column of PATH; returns 0 read fine, 1 error naming the
 * file, -1 error without the file name. */
static int read_any(const char *path, const char *name_in_msg) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t e;
  hl_err_init(&e);
  int n = 0, rc = 0;
  char **names;
  hl_type_t **types;
  if (hl_parquet_file_schema(fs, path, a, &n, &names, &types, &e) == HL_OK) {
    long rows = read_all(path, n, (const hl_type_t *const *)types, (const char *const *)names, NULL,
                         NULL, 0, NULL, &e, NULL, NULL);
    if (rows >= 0) rc = 0;
  }
  if (e.code != HL_OK) {
    rc = e.code == HL_NOMEM || (e.message && strstr(e.message, name_in_msg)) ? 1 : -1;
    if (rc < 0) fprintf(stderr, "error without the file name: %s\n", e.message);
  }
  hl_err_clear(&e);
  hl_arena_destroy(a);
  return rc;
}

TEST(bad_files) {
  char dir[1200];
  snprintf(dir, sizeof dir, "%s/parquet-bad", fixture_dir);
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  int n = 0;
  while ((de = readdir(d))) {
    if (!strstr(de->d_name, ".parquet")) continue;
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    CHECK(read_any(path, de->d_name) >= 0);
    n++;
  }
  closedir(d);
  CHECK(n >= 8);
}

TEST(mutants) {
  char dir[1024];
  if (test_tmpdir(dir, sizeof dir, "pqmut") != 0) return;
  char path[1200];
  snprintf(path, sizeof path, "%s/mutant.parquet", dir);
  const char *seeds[] = {"alltypes_plain.parquet",
                         "alltypes_dictionary.parquet",
                         "nested_maps.snappy.parquet",
                         "nonnullable.impala.parquet",
                         "datapage_v2.snappy.parquet",
                         "delta_length_byte_array.parquet",
                         "byte_stream_split.zstd.parquet",
                         "old_list_structure.parquet",
                         "fixed_length_decimal.parquet",
                         "rle_boolean_encoding.parquet",
                         "nulls.snappy.parquet",
                         "repeated_no_annotation.parquet",
                         "lz4_raw_compressed.parquet",
                         "int96_from_spark.parquet",
                         "float16_nonzeros_and_nans.parquet"};
  int n_seeds = (int)(sizeof seeds / sizeof seeds[0]);
  static char seed_paths[16][2048];
  const char *paths[16];
  for (int i = 0; i < n_seeds; i++) {
    snprintf(seed_paths[i], sizeof seed_paths[i], "%s", fx(seeds[i]));
    paths[i] = seed_paths[i];
  }
  clock_t t0 = clock();
  mutate_counts_t c = mutate_run(paths, n_seeds, dir, path, read_any);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("mutants: %d variants, %d errors, %.1f s\n", c.variants, c.errors, secs);
  CHECK(c.variants >= 3000);
  CHECK_INT(c.unnamed, 0);
  CHECK(c.errors > c.variants / 4);
  CHECK(secs < 20);
}

int main(void) {
  const char *fixtures = test_fixtures_dir();
  if (!fixtures) fixtures = "../shared/fixtures";
  snprintf(fixture_dir, sizeof fixture_dir, "%s", fixtures);
  char probe[1200];
  snprintf(probe, sizeof probe, "%s/parquet/alltypes_plain.parquet", fixture_dir);
  if (access(probe, R_OK) != 0) {
    printf("no Parquet fixtures: skipped\n");
    return TEST_SKIP_CODE;
  }
  fs = hl_stor_local_create();
  RUN(resolution);
  RUN(type_mismatch);
  RUN(nested);
  RUN(cache);
  RUN(skipping);
  RUN(checksum);
  RUN(bad_files);
  RUN(mutants);
  fs->ops->destroy(fs);
  return test_report();
}
