/*
 * test_commands.c -- unit tests of the command executor (src/exec/cmd_*.c)
 * driven through hl_sql_parse + hl_cmd_dispatch on a private warehouse:
 * SHOW CREATE TABLE round trip (the printed statement re-creates a table
 * whose DESCRIBE FORMATTED is identical apart from CreateTime), and MSCK
 * over 10,000 partition directories.
 */
#include "command/command.h"
#include "sql/parser.h"
#include "storage/stor.h"
#include "util/mem.h"
#include "util/strbuf.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[512];

static void setup(hl_session_t *s) {
  memset(s, 0, sizeof(*s));
  const char *base = getenv("HIVELITE_TEST_TMP");
  if (base) mkdir(base, 0777);
  snprintf(root, sizeof root, "%s/cmdtestXXXXXX", base ? base : "/tmp");
  CHECK(mkdtemp(root) != NULL);
  char path[600];
  snprintf(path, sizeof path, "%s/wh", root);
  s->fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  CHECK(s->fs->ops->mkdirs(s->fs, path, &err) == HL_OK);
  s->warehouse = hl_strdup(path);
  s->current_db = hl_strdup("default");
  snprintf(path, sizeof path, "%s/metastore.db", root);
  CHECK(hl_cat_open(path, &s->cat, &err) == HL_OK);
  hl_cat_db_t db = {.name = "default", .location = s->warehouse};
  CHECK(hl_cat_begin(s->cat, &err) == HL_OK);
  CHECK(hl_cat_db_create(s->cat, &db, &err) == HL_OK);
  CHECK(hl_cat_commit(s->cat, &err) == HL_OK);
  hl_err_clear(&err);
}

static void teardown(hl_session_t *s) {
  hl_error_t err;
  hl_err_init(&err);
  s->fs->ops->remove_tree(s->fs, root, &err);
  hl_err_clear(&err);
  hl_cat_close(s->cat);
  s->fs->ops->destroy(s->fs);
  hl_session_fini(s);
}

/* Runs one statement; returns its rows as "c1|c2|..." lines joined by
 * '\n' (NULL printed as \N) in a heap string, or NULL on error (message
 * printed). */
static char *run(hl_session_t *s, const char *sql) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t *stmt = NULL;
  size_t used;
  hl_result_t res = {0};
  char *out = NULL;
  if (hl_sql_parse(arena, sql, strlen(sql), &stmt, &used, &err) != HL_OK || !stmt ||
      hl_cmd_dispatch(s, stmt, arena, &res, &err) != HL_OK) {
    fprintf(stderr, "statement failed: %s: %s\n", sql, err.message ? err.message : "?");
    goto done;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  if (res.root) {
    for (;;) {
      hl_batch_t *batch;
      if (res.root->next(res.root, &batch, &err) != HL_OK || !batch) break;
      for (uint32_t i = 0; i < hl_batch_live(batch); i++) {
        uint32_t row = hl_batch_row(batch, i);
        for (int c = 0; c < batch->n_cols; c++) {
          if (c) hl_buf_putc(&b, '|');
          if (hl_vec_is_null(&batch->cols[c], row))
            hl_buf_puts(&b, "\\N");
          else
            hl_buf_append(&b, HL_VEC_STR(&batch->cols[c])[row].ptr,
                          HL_VEC_STR(&batch->cols[c])[row].len);
        }
        hl_buf_putc(&b, '\n');
      }
    }
    res.root->close(res.root);
  }
  out = hl_strdup(hl_buf_cstr(&b));
  hl_buf_fini(&b);
done:
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  return out;
}

/* Drops the CreateTime line (it differs between two creations). */
static void strip_times(char *text) {
  char *p = strstr(text, "CreateTime:|");
  if (!p) return;
  char *end = strchr(p, '\n');
  memmove(p, end + 1, strlen(end + 1) + 1);
}

/* The SHOW CREATE TABLE rows joined into one statement. */
static char *create_stmt(hl_session_t *s, const char *table) {
  char sql[256];
  snprintf(sql, sizeof sql, "SHOW CREATE TABLE %s", table);
  return run(s, sql);
}

static void round_trip(hl_session_t *s, const char *ddl, const char *table) {
  char *r = run(s, ddl);
  CHECK(r != NULL);
  hl_free(r);
  char sql[256];
  snprintf(sql, sizeof sql, "DESCRIBE FORMATTED %s", table);
  char *before = run(s, sql);
  char *stmt = create_stmt(s, table);
  CHECK(before && stmt);
  if (!before || !stmt) return;
  snprintf(sql, sizeof sql, "DROP TABLE %s", table);
  hl_free(run(s, sql));
  char *again = run(s, stmt);
  CHECK(again != NULL);
  hl_free(again);
  snprintf(sql, sizeof sql, "DESCRIBE FORMATTED %s", table);
  char *after = run(s, sql);
  char *stmt2 = create_stmt(s, table);
  CHECK(after && stmt2);
  if (after && stmt2) {
    strip_times(before);
    strip_times(after);
    CHECK_STR(after, before);
    CHECK_STR(stmt2, stmt);
  }
  hl_free(before);
  hl_free(after);
  hl_free(stmt);
  hl_free(stmt2);
}

TEST(show_create_round_trip) {
  hl_session_t s;
  setup(&s);
  /* a relative LOCATION resolves against the cwd: make that the test dir */
  char old_cwd[512];
  CHECK(getcwd(old_cwd, sizeof old_cwd) != NULL);
  CHECK(chdir(root) == 0);
  round_trip(&s,
             "CREATE TABLE rt1 (a INT COMMENT 'it''s \\\\ odd', b MAP<STRING,ARRAY<INT>>, "
             "c STRUCT<x:DOUBLE,y:DATE>) COMMENT 'tab\\tcomment' PARTITIONED BY (dt DATE, "
             "hr TINYINT) CLUSTERED BY (a) SORTED BY (a DESC) INTO 8 BUCKETS ROW FORMAT "
             "DELIMITED FIELDS TERMINATED BY '\\001' ESCAPED BY '\\\\' COLLECTION ITEMS "
             "TERMINATED BY '\\002' MAP KEYS TERMINATED BY '\\003' NULL DEFINED AS '' "
             "STORED AS TEXTFILE TBLPROPERTIES ('k1'='v\\'1', 'skip.header.line.count'='1')",
             "rt1");
  round_trip(&s,
             "CREATE EXTERNAL TABLE rt2 (a BIGINT, `select` STRING) STORED AS PARQUET "
             "LOCATION 'rt2_rel'",
             "rt2");
  /* the description itself, apart from the time */
  char *d = run(&s, "DESCRIBE FORMATTED rt2");
  CHECK(d != NULL);
  if (d) {
    strip_times(d);
    char cwd[512], expect[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    const char *owner = getenv("USER");
    snprintf(expect, sizeof expect,
             "# col_name|data_type|comment\n"
             "a|bigint|\n"
             "select|string|\n"
             "|\\N|\\N\n"
             "# Detailed Table Information|\\N|\\N\n"
             "Database:|default|\\N\n"
             "OwnerType:|USER|\\N\n"
             "Owner:|%s|\\N\n"
             "LastAccessTime:|UNKNOWN|\\N\n"
             "Retention:|0|\\N\n"
             "Location:|%s/rt2_rel|\\N\n"
             "Table Type:|EXTERNAL_TABLE|\\N\n"
             "Table Parameters:|\\N|\\N\n"
             "|\\N|\\N\n"
             "# Storage Information|\\N|\\N\n"
             "SerDe Library:|org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe|\\N\n"
             "InputFormat:|org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat|\\N\n"
             "OutputFormat:|org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat|\\N\n"
             "Compressed:|No|\\N\n"
             "Num Buckets:|-1|\\N\n"
             "Bucket Columns:|[]|\\N\n"
             "Sort Columns:|[]|\\N\n"
             "Storage Desc Params:|\\N|\\N\n"
             "|serialization.format|1\n",
             owner && *owner ? owner : "", cwd);
    CHECK_STR(d, expect);
    hl_free(d);
  }
  CHECK(chdir(old_cwd) == 0);
  teardown(&s);
}

TEST(msck_ten_thousand) {
  hl_session_t s;
  setup(&s);
  char sql[800];
  snprintf(sql, sizeof sql,
           "CREATE EXTERNAL TABLE big (v STRING) PARTITIONED BY (d INT, h INT) LOCATION '%s/big'",
           root);
  hl_free(run(&s, sql));
  char path[700];
  for (int d = 0; d < 100; d++)
    for (int h = 0; h < 100; h++) {
      snprintf(path, sizeof path, "%s/big/d=%d/h=%d", root, d, h);
      hl_error_t err;
      hl_err_init(&err);
      CHECK(s.fs->ops->mkdirs(s.fs, path, &err) == HL_OK);
      hl_err_clear(&err);
    }
  snprintf(path, sizeof path, "%s/big/d=5/junk", root);
  hl_error_t err;
  hl_err_init(&err);
  CHECK(s.fs->ops->mkdirs(s.fs, path, &err) == HL_OK);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  char *out = run(&s, "MSCK REPAIR TABLE big");
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  CHECK(out != NULL);
  CHECK(secs < 30.0); /* sanitizer build; seconds in a release build */
  if (out) {
    const char *last = strstr(out, "Skipped 1 invalid partition directory: d=5/junk\n");
    CHECK(last != NULL);
    CHECK(strstr(out, "Repair: Added partition to metastore big:d=99/h=99\n") != NULL);
  }
  hl_free(out);
  size_t n = 0;
  hl_cat_table_t *t;
  hl_arena_t *arena = hl_arena_create(0);
  CHECK(hl_cat_table_get(s.cat, "default", "big", arena, &t, &err) == HL_OK);
  CHECK(hl_cat_partition_count(s.cat, t->id, &n, &err) == HL_OK);
  CHECK_INT(n, 10000);
  /* a second run adds nothing */
  out = run(&s, "MSCK REPAIR TABLE big");
  CHECK_STR(out, "Skipped 1 invalid partition directory: d=5/junk\n");
  hl_free(out);
  hl_arena_destroy(arena);
  hl_err_clear(&err);
  teardown(&s);
}

int main(void) {
  RUN(show_create_round_trip);
  RUN(msck_ten_thousand);
  return test_report();
}
