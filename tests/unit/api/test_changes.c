/*
 * test_changes.c -- hl_changes: the rows a write wrote once it is done
 * (INSERT with static and dynamic partitions, INSERT OVERWRITE, a
 * multi-insert summed over its tables, CREATE TABLE AS SELECT, an INSERT
 * of no rows, IF NOT EXISTS of an existing partition), again after
 * hl_reset; -1 before the statement ran, for queries and DDL, for LOAD
 * DATA (files moved unread) and for a failed write.
 */
#include "test.h"

#include "hivelite.h"

#include <stdio.h>
#include <string.h>

/* Runs SQL to its end; returns hl_changes afterwards, or -2 when the
 * statement failed to prepare or run (the failure counted). */
static int64_t changes_of(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = NULL;
  if (hl_prepare(db, sql, &st, NULL) != HL_OK || !st) {
    fprintf(stderr, "prepare <%s>: %s\n", sql, hl_errmsg(db));
    test_failures++;
    return -2;
  }
  int64_t before = hl_changes(st);
  hl_status_t rc;
  while ((rc = hl_step(st)) == HL_ROW) {
  }
  int64_t n = hl_changes(st);
  hl_finalize(st);
  if (rc != HL_DONE) {
    fprintf(stderr, "run <%s>: %s\n", sql, hl_errmsg(db));
    test_failures++;
    return -2;
  }
  CHECK_INT(before, -1);
  return n;
}

TEST(changes) {
  char dir[512];
  if (test_tmpdir(dir, sizeof dir, "changes") != 0) {
    CHECK(0);
    return;
  }
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(dir, NULL, &db), HL_OK);
  if (!db) return;
  CHECK_INT(changes_of(db, "CREATE TABLE p (x INT) PARTITIONED BY (k STRING)"), -1);
  CHECK_INT(changes_of(db, "CREATE TABLE plain (x INT, s STRING)"), -1);
  CHECK_INT(changes_of(db, "INSERT INTO p PARTITION (k='a') VALUES (1), (2), (3)"), 3);
  CHECK_INT(changes_of(db, "INSERT INTO p PARTITION (k) VALUES (4, 'b'), (5, 'c'), (6, 'b')"), 3);
  CHECK_INT(changes_of(db, "INSERT INTO plain SELECT x, k FROM p"), 6);
  CHECK_INT(changes_of(db, "INSERT INTO plain SELECT x, k FROM p WHERE x > 100"), 0);
  CHECK_INT(changes_of(db, "INSERT OVERWRITE TABLE p PARTITION (k='a') SELECT x FROM p WHERE "
                           "k = 'b'"),
            2);
  CHECK_INT(changes_of(db, "INSERT OVERWRITE TABLE p PARTITION (k='a') IF NOT EXISTS "
                           "SELECT 9"),
            0); /* the partition exists: nothing written */
  CHECK_INT(changes_of(db, "FROM plain INSERT INTO p PARTITION (k='m') SELECT x WHERE x < 3 "
                           "INSERT INTO plain SELECT x + 10, s"),
            2 + 6);
  CHECK_INT(changes_of(db, "CREATE TABLE c AS SELECT x FROM plain"), 12);
  CHECK_INT(changes_of(db, "SELECT count(*) FROM c"), -1);
  CHECK_INT(changes_of(db, "SHOW TABLES"), -1);
  /* LOAD DATA moves a file it does not read */
  char path[600];
  snprintf(path, sizeof path, "%s/load.txt", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("1\001x\n2\001y\n", f);
    fclose(f);
  }
  char load[700];
  snprintf(load, sizeof load, "LOAD DATA LOCAL INPATH '%s' INTO TABLE plain", path);
  CHECK_INT(changes_of(db, load), -1);
  /* hl_reset runs the write again */
  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "INSERT INTO plain VALUES (7, 'z'), (8, 'z')", &st, NULL), HL_OK);
  CHECK_INT(hl_step(st), HL_DONE);
  CHECK_INT(hl_changes(st), 2);
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_changes(st), -1);
  CHECK_INT(hl_step(st), HL_DONE);
  CHECK_INT(hl_changes(st), 2);
  hl_finalize(st);
  /* a failed write */
  CHECK_INT(hl_prepare(db, "INSERT INTO plain SELECT 1", &st, NULL), HL_OK);
  CHECK_INT(hl_step(st), HL_ERROR);
  CHECK_INT(hl_changes(st), -1);
  hl_finalize(st);
  CHECK_INT(hl_changes(NULL), -1);
  hl_close(db);
}

int main(void) {
  RUN(changes);
  return test_report();
}
