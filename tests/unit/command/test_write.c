/*
 * test_write.c -- unit tests of the write path (cmd_insert.c over
 * txn/txn.c) that need to see file-system calls: a counting storage
 * decorator (storage/stor_count.h) proves that writing one new partition
 * into a table with 300 partitions of 15 files makes no call at all on the
 * existing partitions (Hive re-permissions every existing partition), for
 * a static and a dynamic insert, and that the total number of calls does
 * not grow with the number of existing partitions.  Also: new partition
 * directories and files take the table directory's mode and group, and
 * existing ones are left exactly as they were (ctime unchanged).
 */
#include "command/command.h"
#include "sql/parser.h"
#include "storage/stor_count.h"
#include "util/mem.h"
#include "test.h"

#include <dirent.h>
#include <grp.h>
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
  if (rc == HL_OK) rc = hl_cmd_run(s, stmt, arena, &res, &err);
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

/* A group other than the process's own that chown accepts on DIR (root:
 * daemon or adm; others: a supplementary group), or -1. */
static gid_t pick_group(const char *dir) {
  gid_t cands[34];
  int n = 0;
  struct group *g = getgrnam("daemon");
  if (g) cands[n++] = g->gr_gid;
  g = getgrnam("adm");
  if (g) cands[n++] = g->gr_gid;
  int n_sup = getgroups(32, cands + n);
  if (n_sup > 0) n += n_sup;
  struct stat sb;
  if (stat(dir, &sb) != 0) return (gid_t)-1;
  for (int i = 0; i < n; i++)
    if (cands[i] != sb.st_gid && chown(dir, (uid_t)-1, cands[i]) == 0) {
      CHECK(chown(dir, (uid_t)-1, sb.st_gid) == 0); /* back: the test sets it itself */
      return cands[i];
    }
  return (gid_t)-1;
}

/* The one data file in DIR (visible names only), into OUT. */
static bool only_file(const char *dir, char *out, size_t cap) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return false;
  struct dirent *de;
  while ((de = readdir(d)))
    if (de->d_name[0] != '.' && de->d_name[0] != '_') {
      snprintf(out, cap, "%s/%s", dir, de->d_name);
      n++;
    }
  closedir(d);
  return n == 1;
}

static void check_mode_group(const char *path, unsigned mode, gid_t gid) {
  struct stat sb;
  CHECK(stat(path, &sb) == 0);
  CHECK_INT(sb.st_mode & 07777, mode);
  if (gid != (gid_t)-1) CHECK_INT(sb.st_gid, gid);
}

TEST(new_paths_inherit_mode_and_group) {
  hl_session_t s;
  setup(&s);
  CHECK(run(&s, "CREATE TABLE t (k INT) PARTITIONED BY (y STRING, m STRING)") == HL_OK);
  CHECK(run(&s, "INSERT INTO t PARTITION (y='2023', m='12') VALUES (1)") == HL_OK);
  char old_dir[900], old_file[1200], new_dir[900], new_top[900], new_file[1200];
  snprintf(old_dir, sizeof old_dir, "%s/y=2023/m=12", table_dir);
  snprintf(new_top, sizeof new_top, "%s/y=2024", table_dir);
  snprintf(new_dir, sizeof new_dir, "%s/y=2024/m=01", table_dir);
  CHECK(only_file(old_dir, old_file, sizeof old_file));
  gid_t gid = pick_group(table_dir);
  if (gid == (gid_t)-1) fprintf(stderr, "note: no second group to test chown with\n");
  CHECK(chmod(table_dir, 0750) == 0);
  if (gid != (gid_t)-1) CHECK(chown(table_dir, (uid_t)-1, gid) == 0);
  struct stat dir_before, file_before, dir_after, file_after;
  CHECK(stat(old_dir, &dir_before) == 0);
  CHECK(stat(old_file, &file_before) == 0);
  /* both levels of the new partition are created by the write */
  CHECK(run(&s, "INSERT INTO t PARTITION (y='2024', m='01') VALUES (2), (3)") == HL_OK);
  check_mode_group(new_top, 0750, gid);
  check_mode_group(new_dir, 0750, gid);
  CHECK(only_file(new_dir, new_file, sizeof new_file));
  check_mode_group(new_file, 0640, gid); /* files: no execute bits */
  /* a dynamic insert creating another partition, and an append into an
   * existing one: the old partition is not touched at all */
  CHECK(run(&s, "SET hive.exec.dynamic.partition.mode=nonstrict") == HL_OK);
  CHECK(run(&s, "INSERT INTO t PARTITION (y, m) SELECT 4, '2024', '02'") == HL_OK);
  snprintf(new_dir, sizeof new_dir, "%s/y=2024/m=02", table_dir);
  check_mode_group(new_dir, 0750, gid);
  CHECK(run(&s, "INSERT INTO t PARTITION (y='2024', m='01') VALUES (5)") == HL_OK);
  CHECK(stat(old_dir, &dir_after) == 0);
  CHECK(stat(old_file, &file_after) == 0);
  CHECK_INT(dir_after.st_mode, dir_before.st_mode);
  CHECK_INT(dir_after.st_gid, dir_before.st_gid);
  CHECK_INT(dir_after.st_ctim.tv_sec, dir_before.st_ctim.tv_sec); /* no chmod/chown/rename */
  CHECK_INT(dir_after.st_ctim.tv_nsec, dir_before.st_ctim.tv_nsec);
  CHECK_INT(file_after.st_ctim.tv_nsec, file_before.st_ctim.tv_nsec);
  CHECK_INT(file_after.st_mode, file_before.st_mode);
  /* the table directory itself keeps what the test gave it */
  check_mode_group(table_dir, 0750, gid);
  teardown(&s);
}

int main(void) {
  RUN(new_partition_touches_no_existing_partition);
  RUN(new_paths_inherit_mode_and_group);
  printf("%d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
