/*
 * test_params.c -- statement parameters through the public API: `?` and
 * `$n` bound with every hl_bind_* and read back, types from the context
 * (hl_bind_parameter_type) and the described result before execution,
 * re-execution with new values (hl_reset), unbound and out-of-range
 * parameters, and partition pruning with a parameter compared with the
 * partition key (EXPLAIN ANALYZE's counters: one partition read of three);
 * hl_stmt_check's answer before execution (unknown names and wrong types,
 * not errors that depend on bound values); an error's detail and hint.
 */
#include "test.h"

#include "hivelite.h"

#include <stdbool.h>
#include <stdio.h>

static hl_db_t *open_db(const char *name) {
  char dir[512];
  if (test_tmpdir(dir, sizeof dir, name) != 0) return NULL;
  hl_db_t *db = NULL;
  if (hl_open(dir, NULL, &db) != HL_OK) {
    hl_close(db);
    return NULL;
  }
  return db;
}

static hl_status_t exec1(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = NULL;
  hl_status_t rc = hl_prepare(db, sql, &st, NULL);
  if (rc == HL_OK) rc = hl_step(st);
  hl_finalize(st);
  if (rc != HL_DONE) fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
  return rc;
}

/* The rows of ST as "v1|v2;" (NULL as "NULL"); the last hl_step status in
 * *RC. */
static const char *rows(hl_stmt_t *st, char *out, size_t n, hl_status_t *rc) {
  size_t len = 0;
  out[0] = '\0';
  hl_status_t s;
  while ((s = hl_step(st)) == HL_ROW && len < n) {
    int cols = hl_column_count(st);
    for (int c = 0; c < cols && len < n; c++) {
      const char *v = hl_column_text(st, c, NULL);
      len += (size_t)snprintf(out + len, n - len, "%s%s", v ? v : "NULL", c + 1 < cols ? "|" : ";");
    }
  }
  if (rc) *rc = s;
  return out;
}

/* A partitioned table of three partitions, one row each. */
static bool setup_table(hl_db_t *db) {
  return exec1(db, "CREATE TABLE t (id INT, s STRING) PARTITIONED BY (dt STRING)") == HL_DONE &&
         exec1(db, "INSERT INTO t PARTITION (dt) VALUES (1, 'a', '2024-01-01'), "
                   "(2, 'b', '2024-01-02'), (3, 'c', '2024-01-03')") == HL_DONE;
}

TEST(bind_and_reexecute) {
  hl_db_t *db = open_db("params_basic");
  if (!db || !setup_table(db)) {
    CHECK(0);
    hl_close(db);
    return;
  }
  char buf[1024];
  hl_status_t rc;
  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "SELECT id, s FROM t WHERE dt = ? AND id >= ? ORDER BY id", &st, NULL),
            HL_OK);
  CHECK_INT(hl_bind_parameter_count(st), 2);
  /* known before it runs: the parameters' types and the result */
  CHECK_STR(hl_bind_parameter_type(st, 1), "string");
  CHECK_STR(hl_bind_parameter_type(st, 2), "int");
  CHECK(hl_bind_parameter_type(st, 3) == NULL);
  CHECK_INT(hl_column_count(st), 2);
  CHECK_STR(hl_column_name(st, 1), "s");
  CHECK_STR(hl_column_type(st, 0), "int");
  /* unbound: 07002, nothing ran; bound afterwards it runs */
  CHECK_INT(hl_bind_text(st, 1, "2024-01-02", 10), HL_OK);
  CHECK_INT(hl_step(st), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "07002");
  CHECK_STR(hl_errmsg(db), "parameter $2 is not bound");
  CHECK_INT(hl_bind_int64(st, 2, 0), HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "2|b;");
  CHECK_INT(rc, HL_DONE);
  /* new values take effect at the next execution */
  CHECK_INT(hl_bind_text(st, 1, "2024-01-03", 10), HL_OK);
  CHECK_INT(hl_step(st), HL_DONE);
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "3|c;");
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_bind_int64(st, 2, 4), HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "");
  CHECK_INT(rc, HL_DONE);
  /* reset in the middle of a result drops its rows */
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_bind_null(st, 2), HL_OK); /* id >= NULL: no row */
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "");
  /* out of range */
  CHECK_INT(hl_bind_int64(st, 0, 1), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42P02");
  CHECK_STR(hl_errmsg(db), "there is no parameter $0");
  CHECK_INT(hl_bind_text(st, 3, "x", 1), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42P02");
  /* cleared bindings are unbound again */
  CHECK_INT(hl_clear_bindings(st), HL_OK);
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_step(st), HL_ERROR);
  CHECK_STR(hl_errmsg(db), "parameter $1 is not bound");
  hl_finalize(st);

  /* $n: numbered, repeatable; the first context types it */
  CHECK_INT(
      hl_prepare(db, "SELECT id FROM t WHERE id = $2 OR s = $1 OR id = $2 ORDER BY id", &st, NULL),
      HL_OK);
  CHECK_INT(hl_bind_parameter_count(st), 2);
  CHECK_STR(hl_bind_parameter_type(st, 1), "string");
  CHECK_STR(hl_bind_parameter_type(st, 2), "int");
  CHECK_INT(hl_bind_text(st, 1, "c", 1), HL_OK);
  CHECK_INT(hl_bind_text(st, 2, "1", 1), HL_OK); /* text cast to the INT it stands for */
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "1;3;");
  hl_finalize(st);

  /* LIMIT / OFFSET parameters: bigint; NULL is no limit */
  CHECK_INT(hl_prepare(db, "SELECT id FROM t ORDER BY id LIMIT ? OFFSET ?", &st, NULL), HL_OK);
  CHECK_STR(hl_bind_parameter_type(st, 1), "bigint");
  CHECK_STR(hl_bind_parameter_type(st, 2), "bigint");
  CHECK_INT(hl_bind_int64(st, 1, 1), HL_OK);
  CHECK_INT(hl_bind_int64(st, 2, 1), HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "2;");
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_bind_null(st, 1), HL_OK);
  CHECK_INT(hl_bind_int64(st, 2, 0), HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "1;2;3;");
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_bind_int64(st, 1, -1), HL_OK);
  CHECK_INT(hl_step(st), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "2201W");
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_bind_double(st, 1, 1.5), HL_OK);
  CHECK_INT(hl_step(st), HL_ERROR);
  CHECK_STR(hl_errmsg(db), "argument of LIMIT must be an integer, not double");
  hl_finalize(st);
  hl_close(db);
}

TEST(every_binding) {
  hl_db_t *db = open_db("params_types");
  if (!db) {
    CHECK(0);
    return;
  }
  char buf[1024];
  hl_status_t rc;
  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?", &st, NULL), HL_OK);
  for (int i = 1; i <= 10; i++)
    CHECK(hl_bind_parameter_type(st, i) == NULL); /* no context */
  CHECK_INT(hl_bind_null(st, 1), HL_OK);
  CHECK_INT(hl_bind_int64(st, 2, INT64_MIN), HL_OK);
  CHECK_INT(hl_bind_double(st, 3, 0.1), HL_OK);
  CHECK_INT(hl_bind_bool(st, 4, 7), HL_OK);
  /* -10^38 + 1 at scale 10: the smallest DECIMAL(38,10) */
  CHECK_INT(
      hl_bind_decimal(st, 5, (int64_t)~0x4B3B4CA85A86C47AULL, ~0x098A223FFFFFFFFFULL + 1, 38, 10),
      HL_OK);
  CHECK_INT(hl_bind_date(st, 6, -1), HL_OK);
  CHECK_INT(hl_bind_timestamp(st, 7, -1), HL_OK);
  CHECK_INT(hl_bind_text(st, 8, "a\0b", 3), HL_OK);
  CHECK_INT(hl_bind_blob(st, 9, "\x01\xff", 2), HL_OK);
  CHECK_INT(hl_bind_text(st, 10, NULL, 0), HL_OK); /* the empty string */
  CHECK_INT(hl_step(st), HL_ROW);
  const char *types[] = {"void", "bigint",    "double", "boolean", "decimal(38,10)",
                         "date", "timestamp", "string", "binary",  "string"};
  for (int c = 0; c < 10; c++)
    CHECK_STR(hl_column_type(st, c), types[c]);
  CHECK(hl_column_is_null(st, 0));
  CHECK(hl_column_int64(st, 1) == INT64_MIN);
  CHECK(hl_column_double(st, 2) == 0.1);
  CHECK_INT(hl_column_bool(st, 3), 1);
  CHECK_STR(hl_column_text(st, 4, NULL), "-9999999999999999999999999999.9999999999");
  CHECK_STR(hl_column_text(st, 5, NULL), "1969-12-31");
  CHECK_STR(hl_column_text(st, 6, NULL), "1969-12-31 23:59:59.999999");
  size_t len = 0;
  const char *b = hl_column_blob(st, 7, &len);
  CHECK(len == 3 && b && memcmp(b, "a\0b", 3) == 0);
  b = hl_column_blob(st, 8, &len);
  CHECK(len == 2 && b && memcmp(b, "\x01\xff", 2) == 0);
  b = hl_column_blob(st, 9, &len);
  CHECK(len == 0 && b != NULL);
  CHECK_INT(hl_step(st), HL_DONE);
  /* bad decimals */
  CHECK_INT(hl_bind_decimal(st, 5, 0, 1000, 3, 0), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "22003");
  CHECK_INT(hl_bind_decimal(st, 5, 0, 1, 39, 0), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "22023");
  CHECK_INT(hl_bind_decimal(st, 5, 0, 1, 5, 6), HL_ERROR);
  hl_finalize(st);

  /* a text in a DATE context is a date, as a string literal would be */
  CHECK_INT(hl_prepare(db,
                       "SELECT d FROM (SELECT DATE '2024-01-02' AS d UNION ALL SELECT DATE "
                       "'1960-05-06') x WHERE d BETWEEN ? AND ? OR d IN (?)",
                       &st, NULL),
            HL_OK);
  CHECK_STR(hl_bind_parameter_type(st, 1), "date");
  CHECK_STR(hl_bind_parameter_type(st, 2), "date");
  CHECK_STR(hl_bind_parameter_type(st, 3), "date");
  CHECK_INT(hl_bind_text(st, 1, "2024-01-01", 10), HL_OK);
  CHECK_INT(hl_bind_text(st, 2, "2024-12-31", 10), HL_OK);
  CHECK_INT(hl_bind_date(st, 3, -3527), HL_OK); /* 1960-05-06 */
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "2024-01-02;1960-05-06;");
  CHECK_INT(rc, HL_DONE);
  hl_finalize(st);

  /* arithmetic and LIKE contexts */
  CHECK_INT(hl_prepare(db, "SELECT 1.5 * ?, 'abc' LIKE ?, ? || 1", &st, NULL), HL_OK);
  CHECK_STR(hl_bind_parameter_type(st, 1), "decimal(2,1)");
  CHECK_STR(hl_bind_parameter_type(st, 2), "string");
  CHECK_STR(hl_bind_parameter_type(st, 3), "string");
  CHECK_INT(hl_bind_text(st, 1, "2.5", 3), HL_OK);
  CHECK_INT(hl_bind_text(st, 2, "a%", 2), HL_OK);
  CHECK_INT(hl_bind_int64(st, 3, 7), HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "3.75|true|71;");
  hl_finalize(st);
  hl_close(db);
}

TEST(insert_values) {
  hl_db_t *db = open_db("params_insert");
  if (!db || !setup_table(db)) {
    CHECK(0);
    hl_close(db);
    return;
  }
  char buf[1024];
  hl_status_t rc;
  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "INSERT INTO t PARTITION (dt = '2024-02-01') VALUES (?, ?)", &st, NULL),
            HL_OK);
  CHECK_INT(hl_bind_parameter_count(st), 2);
  CHECK(hl_bind_parameter_type(st, 1) == NULL); /* an INSERT is described when it runs */
  CHECK_INT(hl_bind_int64(st, 1, 10), HL_OK);
  CHECK_INT(hl_bind_text(st, 2, "x'y", 3), HL_OK);
  CHECK_INT(hl_step(st), HL_DONE);
  CHECK_STR(hl_bind_parameter_type(st, 1), "int");
  CHECK_STR(hl_bind_parameter_type(st, 2), "string");
  CHECK_INT(hl_reset(st), HL_OK); /* a write runs again */
  CHECK_INT(hl_bind_text(st, 1, "11", 2), HL_OK);
  CHECK_INT(hl_bind_null(st, 2), HL_OK);
  CHECK_INT(hl_step(st), HL_DONE);
  hl_finalize(st);
  CHECK_INT(hl_prepare(db, "SELECT id, s FROM t WHERE dt = '2024-02-01' ORDER BY id", &st, NULL),
            HL_OK);
  CHECK_STR(rows(st, buf, sizeof buf, &rc), "10|x'y;11|NULL;");
  hl_finalize(st);
  hl_close(db);
}

/* EXPLAIN ANALYZE's line "actual: partitions read N, ..." */
static const char *actual_line(hl_stmt_t *st, char *out, size_t n) {
  out[0] = '\0';
  while (hl_step(st) == HL_ROW) {
    const char *line = hl_column_text(st, 0, NULL);
    const char *a = line ? strstr(line, "actual:") : NULL;
    const char *p = line ? strstr(line, "partitions:") : NULL;
    if (a || p) {
      size_t len = strlen(out);
      snprintf(out + len, n - len, "%s;", a ? a : p);
    }
  }
  return out;
}

TEST(partition_pruning) {
  hl_db_t *db = open_db("params_prune");
  if (!db || !setup_table(db)) {
    CHECK(0);
    hl_close(db);
    return;
  }
  char buf[1024];
  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "EXPLAIN ANALYZE SELECT id FROM t WHERE dt = ?", &st, NULL), HL_OK);
  CHECK_STR(hl_bind_parameter_type(st, 1), "string");
  CHECK_INT(hl_bind_text(st, 1, "2024-01-02", 10), HL_OK);
  CHECK_STR(actual_line(st, buf, sizeof buf),
            "partitions: 1/3;actual: partitions read 1, files 1, rows 1;");
  CHECK_INT(hl_reset(st), HL_OK);
  CHECK_INT(hl_bind_text(st, 1, "2024-01-09", 10), HL_OK);
  CHECK_STR(actual_line(st, buf, sizeof buf),
            "partitions: 0/3;actual: partitions read 0, files 0, rows 0;");
  hl_finalize(st);
  /* a range of a date key over a STRING partition column, from bound dates */
  CHECK_INT(hl_prepare(db, "EXPLAIN ANALYZE SELECT id FROM t WHERE dt >= ? AND dt < ?", &st, NULL),
            HL_OK);
  CHECK_INT(hl_bind_text(st, 1, "2024-01-02", 10), HL_OK);
  CHECK_INT(hl_bind_text(st, 2, "2024-01-04", 10), HL_OK);
  CHECK_STR(actual_line(st, buf, sizeof buf),
            "partitions: 2/3;actual: partitions read 2, files 2, rows 2;");
  hl_finalize(st);
  hl_close(db);
}

TEST(stmt_check) {
  hl_db_t *db = open_db("params_check");
  if (!db || !setup_table(db)) {
    CHECK(0);
    hl_close(db);
    return;
  }
  hl_stmt_t *st = NULL;
  /* an unknown column: class 42 at check time, with its position; again
   * at a second call and at the execution */
  CHECK_INT(hl_prepare(db, "SELECT id, nosuch FROM t WHERE dt = ?", &st, NULL), HL_OK);
  CHECK_INT(hl_stmt_check(st), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42703");
  CHECK_INT(hl_error_column(db), 12);
  CHECK_INT(hl_stmt_check(st), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42703");
  CHECK_INT(hl_bind_text(st, 1, "2024-01-01", 10), HL_OK);
  CHECK_INT(hl_step(st), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42703");
  hl_finalize(st);
  CHECK_INT(hl_prepare(db, "SELECT id FROM nosuch", &st, NULL), HL_OK);
  CHECK_INT(hl_stmt_check(st), HL_NOTFOUND);
  CHECK_STR(hl_sqlstate(db), "42P01");
  hl_finalize(st);
  /* a good query, with parameters unbound: HL_OK and the error cleared */
  CHECK_INT(hl_prepare(db, "SELECT id FROM t WHERE dt = ? LIMIT ?", &st, NULL), HL_OK);
  CHECK_INT(hl_stmt_check(st), HL_OK);
  CHECK_INT(hl_errcode(db), HL_OK);
  CHECK_INT(hl_column_count(st), 1);
  hl_finalize(st);
  /* not a query: nothing planned, HL_OK; the write still fails when run */
  CHECK_INT(hl_prepare(db, "INSERT INTO nosuch VALUES (1)", &st, NULL), HL_OK);
  CHECK_INT(hl_stmt_check(st), HL_OK);
  CHECK_INT(hl_step(st), HL_NOTFOUND);
  CHECK_STR(hl_sqlstate(db), "42P01");
  hl_finalize(st);
  CHECK_INT(hl_stmt_check(NULL), HL_MISUSE);
  hl_close(db);
}

/* An error's DETAIL and HINT (hl_errdetail, hl_errhint; the server sends
 * them as ErrorResponse fields D and H): NULL when the error has none and
 * after a success; the hints of the allowlist and the memory limit. */
TEST(error_hint) {
  hl_db_t *db = open_db("params_hint");
  if (!db) {
    CHECK(0);
    return;
  }
  CHECK(hl_errhint(db) == NULL);
  CHECK_INT(exec1(db, "SELECT * FROM nosuch"), HL_NOTFOUND);
  CHECK_STR(hl_sqlstate(db), "42P01");
  CHECK(hl_errdetail(db) == NULL && hl_errhint(db) == NULL);
  CHECK_INT(exec1(db, "SET hivelite.storage.allowed_locations=/nonexistent-allowed"), HL_DONE);
  CHECK_INT(exec1(db, "CREATE EXTERNAL TABLE o (v STRING) LOCATION '/nonexistent-outside'"),
            HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "42501");
  CHECK(hl_errdetail(db) == NULL);
  CHECK_STR(hl_errhint(db) ? hl_errhint(db) : "(none)",
            "Add the location to hivelite.storage.allowed_locations, or leave the setting empty "
            "to allow every location.");
  CHECK_INT(exec1(db, "SET hivelite.storage.allowed_locations="), HL_DONE);
  CHECK(hl_errhint(db) == NULL);
  CHECK_INT(exec1(db, "SET hivelite.memory_limit='2MB'"), HL_DONE);
  CHECK_INT(exec1(db, "SELECT pos, count(*) FROM (SELECT 1 AS one) s LATERAL VIEW "
                      "posexplode(split(space(400000), ' ')) e AS pos, v GROUP BY pos"),
            HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "53200");
  CHECK_STR(hl_errhint(db) ? hl_errhint(db) : "(none)",
            "Raise the limit, for example SET hivelite.memory_limit='8GB'.");
  hl_close(db);
}

int main(void) {
  RUN(error_hint);
  RUN(bind_and_reexecute);
  RUN(stmt_check);
  RUN(every_binding);
  RUN(insert_values);
  RUN(partition_pruning);
  return test_report();
}
