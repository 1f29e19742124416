/*
 * test_next_result.c -- statements with two results through the public
 * API: PROFILE TABLE's column profiles, then its summary (hl_next_result),
 * and what hl_next_result says for statements with one result.
 */
#include "test.h"

#include "hivelite.h"

#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

/* Steps the current result of ST into OUT as "c1|c2;" per row (NULL as
 * "NULL"), the header "n1|n2:" first; returns the last hl_step status.
 * FIRST is the status of a first hl_step already made (0: none). */
static hl_status_t take(hl_stmt_t *st, hl_status_t first, char *out, size_t n) {
  size_t len = 0;
  out[0] = '\0';
  hl_status_t rc = first ? first : hl_step(st);
  int cols = hl_column_count(st);
  for (int c = 0; c < cols; c++)
    len += (size_t)snprintf(out + len, n - len, "%s%s", hl_column_name(st, c),
                            c + 1 < cols ? "|" : ":");
  for (; rc == HL_ROW && len < n; rc = hl_step(st))
    for (int c = 0; c < cols && len < n; c++) {
      const char *v = hl_column_text(st, c, NULL);
      len += (size_t)snprintf(out + len, n - len, "%s%s", v ? v : "NULL", c + 1 < cols ? "|" : ";");
    }
  return rc;
}

static hl_status_t exec1(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = NULL;
  hl_status_t rc = hl_prepare(db, sql, &st, NULL);
  if (rc == HL_OK) rc = hl_step(st);
  hl_finalize(st);
  if (rc != HL_DONE) fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
  return rc;
}

TEST(profile_two_results) {
  char dir[512], buf[4096];
  if (test_tmpdir(dir, sizeof dir, "next_result") != 0) {
    CHECK(0);
    return;
  }
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(dir, NULL, &db), HL_OK);
  if (!db) return;
  CHECK_INT(exec1(db, "CREATE TABLE t (a INT, s STRING) PARTITIONED BY (hr INT)"), HL_DONE);
  CHECK_INT(exec1(db, "INSERT INTO t PARTITION (hr=1) VALUES (1, 'x'), (NULL, '')"), HL_DONE);
  CHECK_INT(exec1(db, "INSERT INTO t PARTITION (hr=2) VALUES (5, 'yz')"), HL_DONE);

  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "PROFILE TABLE t", &st, NULL), HL_OK);
  CHECK_INT(hl_next_result(st), HL_MISUSE); /* not run yet */
  CHECK_INT(take(st, 0, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf,
            "column|type|count|nulls|distinct|distinct_exact|distinct_error|min|max|mean|"
            "stddev|q25|q50|q75|zeros|negatives|min_length|max_length|mean_length|empty|top:"
            "a|int|3|1|2|true|0.0|1|5|3.0|2.8284271247461903|1|1|1|0|0|NULL|NULL|NULL|NULL|"
            "[{\"value\":\"1\",\"count\":1},{\"value\":\"5\",\"count\":1}];"
            "s|string|3|0|3|true|0.0||yz|NULL|NULL|NULL|NULL|NULL|NULL|NULL|0|2|1.0|1|"
            "[{\"value\":\"\",\"count\":1},{\"value\":\"x\",\"count\":1},"
            "{\"value\":\"yz\",\"count\":1}];"
            "hr|int|3|0|2|true|0.0|1|2|1.3333333333333333|0.5773502691896257|1|1|1|0|0|"
            "NULL|NULL|NULL|NULL|[{\"value\":\"1\",\"count\":2},{\"value\":\"2\",\"count\":1}];");
  CHECK_INT(hl_next_result(st), HL_OK);
  CHECK_INT(hl_column_count(st), 9);
  CHECK_INT(take(st, 0, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "rows_read|partitions_read|partitions_reused|partitions_total|total_rows|"
                 "total_rows_source|warnings|checkpoint|from_metadata:3|2|0|2|3|exact|[]|NULL|[];");
  CHECK_STR(hl_column_type(st, 0), "bigint");
  CHECK_INT(hl_next_result(st), HL_DONE);
  CHECK_INT(hl_column_count(st), 9); /* the last result stays */
  hl_finalize(st);

  /* moving on before the first result's rows are all taken drops them;
   * finalizing before taking the summary is fine too */
  st = NULL;
  CHECK_INT(hl_prepare(db, "PROFILE TABLE t", &st, NULL), HL_OK);
  CHECK_INT(hl_step(st), HL_ROW);
  CHECK_INT(hl_next_result(st), HL_OK);
  CHECK_INT(take(st, 0, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "rows_read|partitions_read|partitions_reused|partitions_total|total_rows|"
                 "total_rows_source|warnings|checkpoint|from_metadata:3|0|2|2|3|exact|[]|NULL|[];");
  hl_finalize(st);
  st = NULL;
  CHECK_INT(hl_prepare(db, "PROFILE TABLE t", &st, NULL), HL_OK);
  CHECK_INT(hl_step(st), HL_ROW);
  hl_finalize(st);

  /* one result: nothing follows */
  st = NULL;
  CHECK_INT(hl_prepare(db, "SELECT a FROM t WHERE hr = 2", &st, NULL), HL_OK);
  CHECK_INT(take(st, 0, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "a:5;");
  CHECK_INT(hl_next_result(st), HL_DONE);
  CHECK_INT(hl_step(st), HL_DONE);
  hl_finalize(st);
  CHECK_INT(hl_next_result(NULL), HL_MISUSE);
  hl_close(db);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(profile_two_results);
  return test_report();
}
