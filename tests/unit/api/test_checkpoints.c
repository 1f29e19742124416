/*
 * test_checkpoints.c -- SHOW CHECKPOINTS and DROP CHECKPOINT through the
 * public API, on checkpoints put into a warehouse's metastore with the
 * catalog API (PROFILE ... INCREMENTAL, which makes them, is another
 * statement); and the profile states and checkpoints that DROP TABLE and
 * ALTER TABLE ... RENAME take along.
 */
#include "test.h"

#include "catalog/catalog.h"
#include "hivelite.h"

#include <ftw.h>
#include <sqlite3.h>
#include <stdint.h>
#include <unistd.h>

/* Runs SQL (one statement) and puts its rows in OUT as "c1|c2|...;" per
 * row (NULL as "NULL"); the header "n1|n2|...:" first when HEADER.
 * Returns the final status (HL_DONE on success). */
static hl_status_t rows(hl_db_t *db, const char *sql, bool header, char *out, size_t n) {
  hl_stmt_t *st = NULL;
  size_t len = 0;
  out[0] = '\0';
  if (hl_prepare(db, sql, &st, NULL) != HL_OK) return hl_errcode(db);
  /* a command runs at the first step, which also gives the columns */
  hl_status_t rc = hl_step(st);
  int cols = hl_column_count(st);
  for (int c = 0; header && c < cols; c++)
    len += (size_t)snprintf(out + len, n - len, "%s%s", hl_column_name(st, c),
                            c + 1 < cols ? "|" : ":");
  for (; rc == HL_ROW && len < n; rc = hl_step(st))
    for (int c = 0; c < cols && len < n; c++) {
      const char *v = hl_column_text(st, c, NULL);
      len += (size_t)snprintf(out + len, n - len, "%s%s", v ? v : "NULL", c + 1 < cols ? "|" : ";");
    }
  hl_finalize(st);
  return rc;
}

static hl_status_t exec1(hl_db_t *db, const char *sql) {
  char buf[64];
  hl_status_t rc = rows(db, sql, false, buf, sizeof buf);
  if (rc != HL_DONE) fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
  return rc;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static int sql_exec(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK) fprintf(stderr, "sql_exec(%s): %s\n", sql, sqlite3_errmsg(db));
  sqlite3_close(db);
  return rc;
}

static hl_status_t put_cp(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                          const char *name, const char *kind, const char *value, int64_t expect,
                          hl_error_t *err) {
  hl_cat_checkpoint_t cp = {.catalog = catalog,
                            .db = db,
                            .table = table,
                            .name = name,
                            .field = "ds",
                            .kind = kind,
                            .value = value};
  return hl_cat_checkpoint_put(cat, &cp, expect, NULL, NULL, 0, err);
}

TEST(show_and_drop) {
  char dir[512], meta[700], buf[2048];
  if (test_tmpdir(dir, sizeof dir, "checkpoints") != 0) {
    CHECK(0);
    return;
  }
  snprintf(meta, sizeof meta, "%s/.hivelite/metastore.db", dir);
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(dir, NULL, &db), HL_OK);
  if (!db) return;
  CHECK_INT(exec1(db, "CREATE DATABASE sales"), HL_DONE);
  CHECK_INT(exec1(db, "CREATE TABLE sales.t (a INT) PARTITIONED BY (ds STRING)"), HL_DONE);
  CHECK_INT(exec1(db, "CREATE TABLE sales.u (a INT)"), HL_DONE);
  CHECK_INT(exec1(db, "ALTER TABLE sales.t ADD PARTITION (ds='20240101')"), HL_DONE);
  CHECK_INT(rows(db, "SHOW CHECKPOINTS", true, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "table|name|field|kind|value|version|updated:");

  /* a second connection to the metastore, as PROFILE's writes would be */
  hl_cat_t *cat = NULL;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_cat_open(meta, &cat, &err), HL_OK);
  if (!cat) {
    hl_close(db);
    return;
  }
  CHECK_INT(put_cp(cat, "internal", "sales", "t", "daily", "date", "20240101", 0, &err), HL_OK);
  CHECK_INT(put_cp(cat, "internal", "sales", "t", "daily", "date", "20240102", 1, &err), HL_OK);
  CHECK_INT(put_cp(cat, "internal", "sales", "t", "adhoc", "value", NULL, 0, &err), HL_OK);
  CHECK_INT(put_cp(cat, "internal", "sales", "u", "b", "batch", "10", 0, &err), HL_OK);
  CHECK_INT(put_cp(cat, "hive", "sales", "t", "daily", "date", "1", 0, &err), HL_OK);
  hl_cat_prof_state_t ps = {.part = "ds=20240101",
                            .column = "a",
                            .col_type = "int",
                            .fingerprint = "fp",
                            .state = "s",
                            .state_len = 1,
                            .rows = 3};
  CHECK_INT(hl_cat_prof_put(cat, "internal", "sales", "t", &ps, 1, &err), HL_OK);
  CHECK_INT(hl_cat_prof_put(cat, "hive", "sales", "t", &ps, 1, &err), HL_OK);
  /* fixed times, so that the rows can be compared exactly (ids 1..4) */
  CHECK_INT(sql_exec(meta, "UPDATE checkpoints SET update_time = 1704067200 + id"), SQLITE_OK);

  CHECK_INT(rows(db, "SHOW CHECKPOINTS", false, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "sales.t|adhoc|ds|value|NULL|1|2024-01-01 00:00:02;"
                 "sales.t|daily|ds|date|20240102|2|2024-01-01 00:00:01;"
                 "sales.u|b|ds|batch|10|1|2024-01-01 00:00:03;");
  CHECK_INT(rows(db, "SHOW CHECKPOINTS FOR sales.U", false, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "sales.u|b|ds|batch|10|1|2024-01-01 00:00:03;");
  CHECK_INT(exec1(db, "USE sales"), HL_DONE);
  CHECK_INT(rows(db, "show checkpoints for t", false, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "sales.t|adhoc|ds|value|NULL|1|2024-01-01 00:00:02;"
                 "sales.t|daily|ds|date|20240102|2|2024-01-01 00:00:01;");
  CHECK_INT(rows(db, "SHOW CHECKPOINTS FOR nope", false, buf, sizeof buf), HL_NOTFOUND);
  CHECK_STR(hl_sqlstate(db), "42P01");

  /* DROP: by table, or by name alone when one table has it */
  CHECK_INT(exec1(db, "DROP CHECKPOINT 'adhoc' FOR t"), HL_DONE);
  CHECK_INT(rows(db, "DROP CHECKPOINT 'adhoc' FOR t", false, buf, sizeof buf), HL_NOTFOUND);
  CHECK_STR(hl_sqlstate(db), "42704");
  CHECK_STR(hl_errmsg(db), "checkpoint \"adhoc\" of table \"sales.t\" does not exist");
  CHECK_INT(exec1(db, "DROP CHECKPOINT IF EXISTS 'adhoc' FOR t"), HL_DONE);
  CHECK_INT(put_cp(cat, "internal", "sales", "u", "daily", "date", "2", 0, &err), HL_OK);
  CHECK_INT(rows(db, "DROP CHECKPOINT 'daily'", false, buf, sizeof buf), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42000");
  CHECK_STR(hl_errmsg(db), "checkpoint \"daily\" exists for tables \"sales.t\" and \"sales.u\": "
                           "say which with FOR");
  CHECK_INT(exec1(db, "DROP CHECKPOINT 'daily' FOR sales.u"), HL_DONE);
  CHECK_INT(put_cp(cat, "internal", "sales", "u", "c", "batch", "1", 0, &err), HL_OK);
  CHECK_INT(exec1(db, "DROP CHECKPOINT 'c'"), HL_DONE);
  CHECK_INT(rows(db, "SHOW CHECKPOINTS", false, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "sales.t|daily|ds|date|20240102|2|2024-01-01 00:00:01;"
                 "sales.u|b|ds|batch|10|1|2024-01-01 00:00:03;");

  /* RENAME moves them, DROP TABLE removes them (the other catalog's
   * table of the same name keeps its own) */
  CHECK_INT(exec1(db, "ALTER TABLE sales.u RENAME TO sales.u2"), HL_DONE);
  CHECK_INT(rows(db, "SHOW CHECKPOINTS FOR u2", false, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "sales.u2|b|ds|batch|10|1|2024-01-01 00:00:03;");
  CHECK_INT(exec1(db, "DROP TABLE sales.t"), HL_DONE);
  CHECK_INT(rows(db, "SHOW CHECKPOINTS", false, buf, sizeof buf), HL_DONE);
  CHECK_STR(buf, "sales.u2|b|ds|batch|10|1|2024-01-01 00:00:03;");
  hl_arena_t *arena = hl_arena_create(0);
  hl_cat_prof_state_t *got = NULL;
  size_t n = 9;
  CHECK_INT(hl_cat_prof_list(cat, "internal", "sales", "t", arena, &got, &n, &err), HL_OK);
  CHECK_INT(n, 0);
  CHECK_INT(hl_cat_prof_list(cat, "hive", "sales", "t", arena, &got, &n, &err), HL_OK);
  CHECK_INT(n, 1);
  hl_cat_checkpoint_t *cps = NULL;
  CHECK_INT(hl_cat_checkpoint_list(cat, "hive", NULL, NULL, arena, &cps, &n, &err), HL_OK);
  CHECK_INT(n, 1);
  /* DROP DATABASE CASCADE: the rest */
  CHECK_INT(exec1(db, "USE default"), HL_DONE);
  CHECK_INT(exec1(db, "DROP DATABASE sales CASCADE"), HL_DONE);
  CHECK_INT(hl_cat_checkpoint_list(cat, "internal", NULL, NULL, arena, &cps, &n, &err), HL_OK);
  CHECK_INT(n, 0);
  hl_arena_destroy(arena);
  hl_err_clear(&err);
  hl_cat_close(cat);
  hl_close(db);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(show_and_drop);
  return test_report();
}
