/*
 * test_write.c -- unit tests of the write path (cmd_insert.c over
 * txn/txn.c) that need to see file-system calls: a counting storage
 * decorator (storage/stor_count.h) proves that writing one new partition
 * into a table with 300 partitions of 15 files makes no call at all on the
 * existing partitions (Hive re-permissions every existing partition), for
 * a static and a dynamic insert, and that the total number of calls does
 * not grow with the number of existing partitions.
 */
#include "exec/command.h"
#include "sql/parser.h"
#include "storage/stor_count.h"
#include "util/mem.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[512];
static hl_stor_t *local_fs;
static hl_stor_counts_t counts;
static char table_dir[700];

/* A call on an existing partition: a path under the table directory whose
 * first component is one of the pre-made "dt=old..." directories. */
static bool on_existing(const char *path, void *arg) {
  (void)arg;
  size_t n = strlen(table_dir);
  return strncmp(path, table_dir, n) == 0 && strncmp(path + n, "/dt=old", 7) == 0;
}

static void setup(hl_session_t *s) {
  memset(s, 0, sizeof(*s));
  const char *base = getenv("HIVELITE_TEST_TMP");
  if (base) mkdir(base, 0777);
  snprintf(root, sizeof root, "%s/writetestXXXXXX", base ? base : "/tmp");
  CHECK(mkdtemp(root) != NULL);
  char path[600];
  snprintf(path, sizeof path, "%s/wh", root);
  local_fs = hl_stor_local_create();
  memset(&counts, 0, sizeof counts);
  counts.match = on_existing;
  s->fs = hl_stor_count_create(local_fs, &counts);
  hl_error_t err;
  hl_err_init(&err);
  CHECK(s->fs->ops->mkdirs(s->fs, path, &err) == HL_OK);
  s->warehouse = hl_strdup(path);
  s->current_db = hl_strdup("default");
  snprintf(table_dir, sizeof table_dir, "%s/t", path);
  snprintf(path, sizeof path, "%s/metastore.db", root);
  CHECK(hl_cat_open(path, &s->cat, &err) == HL_OK);
  hl_cat_db_t db = {.name = "default", .location = s->warehouse};
  CHECK(hl_cat_db_create(s->cat, &db, &err) == HL_OK);
  hl_err_clear(&err);
}

static void teardown(hl_session_t *s) {
  hl_error_t err;
  hl_err_init(&err);
  local_fs->ops->remove_tree(local_fs, root, &err);
  hl_err_clear(&err);
  hl_cat_close(s->cat);
  s->fs->ops->destroy(s->fs);
  local_fs->ops->destroy(local_fs);
  hl_session_fini(s);
  hl_free(s->warehouse);
  hl_free(s->current_db);
}

/* Runs one statement and drains its rows; returns the status. */
static hl_status_t run(hl_session_t *s, const char *sql) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t *stmt = NULL;
  size_t used;
  hl_result_t res = {0};
  hl_status_t rc = hl_sql_parse(arena, sql, strlen(sql), &stmt, &used, &err);
  if (rc == HL_OK) rc = hl_exec_statement(s, stmt, arena, &res, &err);
  if (rc == HL_OK && res.root) {
    hl_batch_t *b;
    while ((rc = res.root->next(res.root, &b, &err)) == HL_OK && b) {
    }
    res.root->close(res.root);
  }
  if (rc != HL_OK) fprintf(stderr, "statement failed: %s: %s\n", sql, err.message);
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  return rc;
}

/* A table of N_PARTS partitions of 15 files each, made behind the engine's
 * back and registered with one ADD PARTITION statement. */
static void make_table(hl_session_t *s, int n_parts) {
  CHECK(run(s, "CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)") == HL_OK);
  hl_buf_t sql;
  hl_buf_init(&sql);
  hl_buf_puts(&sql, "ALTER TABLE t ADD");
  for (int p = 0; p < n_parts; p++) {
    char dir[800];
    snprintf(dir, sizeof dir, "%s/dt=old%03d", table_dir, p);
    mkdir(dir, 0777);
    for (int f = 0; f < 15; f++) {
      char file[900];
      snprintf(file, sizeof file, "%s/f%02d", dir, f);
      FILE *fp = fopen(file, "w");
      if (fp) {
        fprintf(fp, "%d\n", f);
        fclose(fp);
      }
    }
    hl_buf_printf(&sql, " PARTITION (dt='old%03d')", p);
  }
  CHECK(run(s, hl_buf_cstr(&sql)) == HL_OK);
  hl_buf_fini(&sql);
}

static uint64_t calls_for(hl_session_t *s, const char *sql, uint64_t *matched) {
  counts.calls = counts.matched = 0;
  CHECK(run(s, sql) == HL_OK);
  *matched = counts.matched;
  return counts.calls;
}

TEST(new_partition_touches_no_existing_partition) {
  uint64_t calls_small = 0, calls_big = 0, matched;
  for (int round = 0; round < 2; round++) {
    hl_session_t s;
    setup(&s);
    make_table(&s, round == 0 ? 3 : 300);
    uint64_t c1 = calls_for(&s, "INSERT INTO t PARTITION (dt='new1') VALUES (1), (2)", &matched);
    CHECK_INT(matched, 0);
    uint64_t c2 = calls_for(&s, "SET hive.exec.dynamic.partition.mode=nonstrict", &matched);
    c2 = calls_for(&s, "INSERT INTO t PARTITION (dt) SELECT 3, 'new2'", &matched);
    CHECK_INT(matched, 0);
    uint64_t c3 =
        calls_for(&s, "INSERT OVERWRITE TABLE t PARTITION (dt) SELECT 4, 'new2'", &matched);
    CHECK_INT(matched, 0);
    if (round == 0)
      calls_small = c1 + c2 + c3;
    else
      calls_big = c1 + c2 + c3;
    teardown(&s);
  }
  /* a constant: the same with 3 and with 300 partitions */
  CHECK_INT(calls_big, calls_small);
  CHECK(calls_small < 100);
}

int main(void) {
  RUN(new_partition_touches_no_existing_partition);
  printf("%d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
