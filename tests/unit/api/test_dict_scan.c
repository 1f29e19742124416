/*
 * test_dict_scan.c -- a dictionary-encoded Parquet string column keeps its
 * dictionary view (vector/vector.h) through the multi-threaded scan
 * (exec/op_parallel.c), whose workers hand over copies of their batches:
 * the batch a statement yields is looked at through the api's statement
 * struct (api/api_int.h), at one thread (the reader's view) and at two
 * (the copy's), with the values, NULLs and the entries' count checked.
 */
#include "test.h"

#include "api/api_int.h"
#include "hivelite.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int run_all(hl_db_t *db, const char *sql) {
  while (sql && *sql) {
    hl_stmt_t *st = NULL;
    const char *tail = NULL;
    if (hl_prepare(db, sql, &st, &tail) != HL_OK) {
      fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
      return -1;
    }
    if (!st) break;
    hl_status_t rc;
    while ((rc = hl_step(st)) == HL_ROW) {
    }
    hl_finalize(st);
    if (rc != HL_DONE) {
      fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
      return -1;
    }
    sql = tail;
  }
  return 0;
}

/* Reads SELECT k, s FROM t at THREADS threads: every batch's s must be a
 * dictionary view of at most 3 entries that agrees with the plain strings
 * ("v" + k % 3, NULL when k % 5 == 0), for k = 1 .. 30000. */
static void check_threads(hl_db_t *db, int threads) {
  char set[64];
  snprintf(set, sizeof set, "SET hivelite.threads=%d;", threads);
  CHECK(run_all(db, set) == 0);
  hl_stmt_t *st = NULL;
  CHECK(hl_prepare(db, "SELECT k, s FROM t", &st, NULL) == HL_OK && st);
  if (!st) return;
  int64_t n = 0, sum = 0;
  size_t batches = 0, views = 0;
  while (hl_step(st) == HL_ROW) {
    const hl_batch_t *b = st->batch;
    if (st->live_idx != 0) continue; /* once per batch */
    batches++;
    const hl_vec_t *v = &b->cols[1];
    if (v->dict && v->dict_idx) views++;
    CHECK(!v->dict || v->dict_n <= 3);
    for (uint32_t i = 0; i < hl_batch_live(b); i++) {
      uint32_t r = hl_batch_row(b, i);
      int64_t k = HL_VEC_I64(&b->cols[0])[r];
      n++;
      sum += k;
      bool null = hl_vec_is_null(v, r);
      CHECK(null == (k % 5 == 0));
      if (null) continue;
      char want[8];
      snprintf(want, sizeof want, "v%d", (int)(k % 3));
      const hl_str_t *s = &HL_VEC_STR(v)[r];
      CHECK(s->len == strlen(want) && memcmp(s->ptr, want, s->len) == 0);
      if (v->dict) {
        CHECK(v->dict_idx[r] < v->dict_n);
        const hl_str_t *e = &v->dict[v->dict_idx[r]];
        CHECK(e->len == s->len && memcmp(e->ptr, s->ptr, s->len) == 0);
      }
    }
  }
  hl_finalize(st);
  CHECK(n == 30000 && sum == (int64_t)30000 * 30001 / 2);
  CHECK(batches > 1);
  CHECK(views == batches);
}

int main(void) {
  char dir[512];
  CHECK(test_tmpdir(dir, sizeof dir, "dictscan") == 0);
  hl_db_t *db = NULL;
  CHECK(hl_open(dir, NULL, &db) == HL_OK);
  if (!db) return test_report();
  /* 30,000 rows from a text file, into Parquet by two INSERTs (two files,
   * one per worker at two threads) */
  char path[600], sql[1024];
  snprintf(path, sizeof path, "%s/src", dir);
  CHECK(mkdir(path, 0777) == 0);
  snprintf(path, sizeof path, "%s/src/f.txt", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  for (int k = 1; f && k <= 30000; k++)
    fprintf(f, "%d\n", k);
  if (f) fclose(f);
  snprintf(sql, sizeof sql,
           "CREATE EXTERNAL TABLE src (k INT) LOCATION '%s/src';"
           "CREATE TABLE t (k INT, s STRING) STORED AS PARQUET;"
           "INSERT INTO t SELECT k, CASE WHEN k %% 5 = 0 THEN NULL ELSE concat('v', CAST(k %% 3 AS "
           "STRING)) END FROM src WHERE k <= 15000;"
           "INSERT INTO t SELECT k, CASE WHEN k %% 5 = 0 THEN NULL ELSE concat('v', CAST(k %% 3 AS "
           "STRING)) END FROM src WHERE k > 15000;",
           dir);
  CHECK(run_all(db, sql) == 0);
  check_threads(db, 1);
  check_threads(db, 2);
  hl_close(db);
  return test_report();
}
