/*
 * test_remote_write.c -- writes through a remote (non-transactional)
 * metastore follow the commit protocol (txn.h, "Remote metastores").
 *
 * The remote metastore is remote_cat.c: every write call commits on its
 * own, intents live in a separate local catalog, and the Nth write call
 * fails or kills the process.  For each kind of write -- INSERT into a new
 * partition, INSERT OVERWRITE of an existing one, dynamic partitions
 * creating several and updating one, CTAS, TRUNCATE, DROP PARTITION of
 * two, before-images with tabs and backslashes -- and for every N up
 * to the number of write calls the statement makes:
 *   - a failure at call N (before it took effect, or after: a connection
 *     dropped once the server applied it) leaves the warehouse's files and
 *     the metastore's contents exactly as before (full listings with file
 *     contents, full catalog dumps), no intent behind, and the statement
 *     then runs again to the complete after state;
 *   - a SIGKILL at call N (before or after it took effect) followed by
 *     recovery with the remote catalog leaves exactly the before state;
 *     a SIGKILL after the intent is "committed" leaves the after state,
 *     and one during the undo after a failure leaves the before state.
 * Also: recovery without the remote catalog leaves the crashed write
 * untouched and counts it, and the next writer through that catalog
 * repairs it before it writes; a failure whose undo fails too (the
 * metastore is down) leaves the write to recovery, blocks writers of the
 * table (55P03) while the metastore is down, and is undone once it is
 * back.
 */
#include "command/command.h"
#include "remote_cat.h"
#include "sql/parser.h"
#include "txn/txn.h"
#include "util/mem.h"
#include "util/strbuf.h"
#include "test.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ADDRESS "thrift://metastore.test:9083"

static char root[512];

typedef struct env {
  hl_session_t s;
  hl_cat_t *store, *local; /* the remote metastore's contents; intents */
} env_t;

static void env_open(env_t *e) {
  memset(e, 0, sizeof *e);
  char path[700];
  hl_error_t err;
  hl_err_init(&err);
  snprintf(path, sizeof path, "%s/store.db", root);
  CHECK(hl_cat_open(path, &e->store, &err) == HL_OK);
  snprintf(path, sizeof path, "%s/local.db", root);
  CHECK(hl_cat_open(path, &e->local, &err) == HL_OK);
  CHECK(remote_cat_create(e->store, e->local, ADDRESS, &e->s.cat, &err) == HL_OK);
  e->s.fs = hl_stor_local_create();
  snprintf(path, sizeof path, "%s/wh", root);
  e->s.warehouse = hl_strdup(path);
  e->s.current_db = hl_strdup("default");
  hl_err_clear(&err);
}

static void env_close(env_t *e) {
  hl_cat_close(e->s.cat);
  hl_cat_close(e->store);
  hl_cat_close(e->local);
  e->s.fs->ops->destroy(e->s.fs);
  hl_session_fini(&e->s);
  hl_free(e->s.warehouse);
  hl_free(e->s.current_db);
}

/* Runs one statement and drains its rows; the error (if any) into ERR. */
static hl_status_t run_err(env_t *e, const char *sql, hl_error_t *err) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_ast_stmt_t *stmt = NULL;
  size_t used;
  hl_result_t res = {0};
  hl_status_t rc = hl_sql_parse(arena, sql, strlen(sql), &stmt, &used, err);
  if (rc == HL_OK) rc = hl_cmd_run(&e->s, stmt, arena, &res, err);
  if (rc == HL_OK && res.root) {
    hl_batch_t *b;
    while ((rc = res.root->next(res.root, &b, err)) == HL_OK && b) {
    }
    res.root->close(res.root);
  }
  hl_arena_destroy(arena);
  return rc;
}

static hl_status_t run(env_t *e, const char *sql) {
  hl_error_t err;
  hl_err_init(&err);
  hl_status_t rc = run_err(e, sql, &err);
  if (rc != HL_OK) fprintf(stderr, "statement failed: %s: %s\n", sql, err.message);
  hl_err_clear(&err);
  return rc;
}

/* ------------------------------------------------------------ snapshots */

/* A file name this write chose ("<qid>_<n>..."): 16 hex digits and '_'. */
static bool generated(const char *name) {
  for (int i = 0; i < 16; i++)
    if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return false;
  return name[16] == '_';
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every entry under DIR (hidden ones too, except the warehouse's own
 * .hivelite directory), sorted, with each file's contents.  NORMALIZE:
 * generated file names become "*" (two runs of one write name their files
 * differently), and the files of a directory are sorted by contents. */
static void list_tree(const char *dir, const char *rel, bool normalize, hl_buf_t *out) {
  DIR *d = opendir(dir);
  if (!d) return;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    if (!rel[0] && !strcmp(de->d_name, ".hivelite")) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 16;
      names = hl_realloc(names, cap * sizeof *names);
    }
    names[n++] = hl_strdup(de->d_name);
  }
  closedir(d);
  char **lines = hl_calloc(n ? n : 1, sizeof *lines);
  size_t n_lines = 0;
  for (size_t i = 0; i < n; i++) {
    char path[2048], sub[2048];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      hl_buf_t b;
      hl_buf_init(&b);
      hl_buf_printf(&b, "D %s\n", sub);
      list_tree(path, sub, normalize, &b);
      lines[n_lines++] = hl_buf_detach(&b);
      continue;
    }
    hl_buf_t b;
    hl_buf_init(&b);
    if (normalize && generated(names[i]))
      hl_buf_printf(&b, "F %s%s*: ", rel, rel[0] ? "/" : "");
    else
      hl_buf_printf(&b, "F %s: ", sub);
    FILE *f = fopen(path, "rb");
    char chunk[4096];
    size_t got;
    while (f && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
      for (size_t c = 0; c < got; c++)
        hl_buf_printf(&b, chunk[c] == '\n' ? "|" : "%c", chunk[c]);
    if (f) fclose(f);
    hl_buf_putc(&b, '\n');
    lines[n_lines++] = hl_buf_detach(&b);
  }
  if (normalize) qsort(lines, n_lines, sizeof *lines, cmp_str);
  for (size_t i = 0; i < n_lines; i++) {
    hl_buf_puts(out, lines[i]);
    hl_free(lines[i]);
  }
  for (size_t i = 0; i < n; i++)
    hl_free(names[i]);
  hl_free(names);
  hl_free(lines);
}

static void dump_kv(hl_buf_t *b, const hl_kv_t *kvs, int n) {
  char **pairs = hl_calloc(n ? (size_t)n : 1, sizeof *pairs);
  for (int i = 0; i < n; i++) {
    hl_buf_t p;
    hl_buf_init(&p);
    hl_buf_printf(&p, "%s=%s", kvs[i].key, kvs[i].value ? kvs[i].value : "NULL");
    pairs[i] = hl_buf_detach(&p);
  }
  qsort(pairs, (size_t)n, sizeof *pairs, cmp_str);
  for (int i = 0; i < n; i++) {
    hl_buf_printf(b, " %s", pairs[i]);
    hl_free(pairs[i]);
  }
  hl_free(pairs);
}

/* Everything the remote metastore holds of database "default". */
static void dump_catalog(hl_cat_t *store, hl_buf_t *b) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  char **names;
  size_t n;
  CHECK(hl_cat_table_list(store, "default", arena, &names, &n, &err) == HL_OK);
  for (size_t i = 0; i < n; i++) {
    hl_cat_table_t *t;
    CHECK(hl_cat_table_get(store, "default", names[i], arena, &t, &err) == HL_OK);
    hl_buf_printf(b, "table %s location=%s format=%s cols=", t->name, t->location,
                  t->input_format ? t->input_format : "");
    for (int c = 0; c < t->n_cols; c++)
      hl_buf_printf(b, "%s:%s,", t->cols[c].name, t->cols[c].type);
    hl_buf_puts(b, " params:");
    dump_kv(b, t->params, t->n_params);
    hl_buf_putc(b, '\n');
    hl_cat_partition_t *parts;
    size_t n_parts;
    CHECK(hl_cat_partition_list(store, t->id, arena, &parts, &n_parts, &err) == HL_OK);
    for (size_t p = 0; p < n_parts; p++) {
      hl_buf_printf(b, "  partition %s location=%s params:", parts[p].name, parts[p].location);
      dump_kv(b, parts[p].params, parts[p].n_params);
      hl_buf_putc(b, '\n');
    }
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

/* The state of files and metastore, as text (caller frees). */
static char *snapshot(env_t *e, bool normalize) {
  hl_buf_t b;
  hl_buf_init(&b);
  list_tree(e->s.warehouse, "", normalize, &b);
  dump_catalog(e->store, &b);
  return hl_buf_detach(&b);
}

static size_t intents(env_t *e) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_cat_intent_t *in;
  size_t n = 0;
  CHECK(hl_cat_intent_list(e->local, arena, &in, &n, &err) == HL_OK);
  hl_arena_destroy(arena);
  return n;
}

/* ------------------------------------------------------------ scenarios */

typedef struct scenario {
  const char *name;
  const char *setup[6]; /* statements that make the before state */
  const char *write;    /* the write under test */
  int calls;            /* the remote write calls it makes */
} scenario_t;

static const scenario_t scenarios[] = {
    {"insert into a new partition",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)",
      "INSERT INTO t PARTITION (dt='a') VALUES (1), (2)"},
     "INSERT INTO t PARTITION (dt='b') VALUES (3)",
     2},
    {"overwrite of an existing partition",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)",
      "INSERT INTO t PARTITION (dt='a') VALUES (1), (2)",
      "INSERT INTO t PARTITION (dt='b') VALUES (5)"},
     "INSERT OVERWRITE TABLE t PARTITION (dt='a') VALUES (9)",
     2},
    {"dynamic partitions",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)",
      "INSERT INTO t PARTITION (dt='a') VALUES (1), (2)"},
     "INSERT INTO t PARTITION (dt) VALUES (4, 'c'), (5, 'd'), (6, 'a'), (7, 'e')",
     5},
    {"ctas",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)",
      "INSERT INTO t PARTITION (dt='a') VALUES (1), (2)"},
     "CREATE TABLE c AS SELECT k, dt FROM t",
     2},
    {"truncate",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)",
      "INSERT INTO t PARTITION (dt='a') VALUES (1), (2)",
      "INSERT INTO t PARTITION (dt='b') VALUES (3)"},
     "TRUNCATE TABLE t",
     3},
    /* before-images with tabs, newlines and backslashes, and the default
     * partition (a NULL value) */
    {"overwrite of awkward partitions",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING) "
      "TBLPROPERTIES ('note'='a\\tb\\nc\\\\d\\\\N')",
      "INSERT INTO t PARTITION (dt) VALUES (1, 'x\\ty'), (2, NULL), (3, 'b\\\\N')"},
     "INSERT OVERWRITE TABLE t PARTITION (dt) VALUES (5, 'x\\ty'), (6, NULL), (7, 'b\\\\N'), "
     "(8, 'new')",
     5},
    {"drop of two partitions",
     {"CREATE TABLE t (k INT) PARTITIONED BY (dt STRING)",
      "INSERT INTO t PARTITION (dt) VALUES (1, 'a'), (2, 'b'), (3, 'c')"},
     "ALTER TABLE t DROP PARTITION (dt='a'), PARTITION (dt='c')",
     2},
    {"insert into an unpartitioned table",
     {"CREATE TABLE u (k INT, v STRING)", "INSERT INTO u VALUES (1, 'x')"},
     "INSERT INTO u VALUES (2, 'y'), (3, 'z')",
     1},
};

/* A fresh warehouse and metastore in the before state of SC; returns its
 * exact snapshot (caller frees). */
static char *make_before(const scenario_t *sc) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "rm -rf '%s/wh' '%s/store.db' '%s/store.db-wal' '%s/store.db-shm' "
           "'%s/local.db' '%s/local.db-wal' '%s/local.db-shm'",
           root, root, root, root, root, root, root);
  CHECK(system(cmd) == 0);
  snprintf(cmd, sizeof cmd, "%s/wh", root);
  mkdir(cmd, 0777);
  env_t e;
  env_open(&e);
  hl_error_t err;
  hl_err_init(&err);
  hl_cat_db_t db = {.name = "default", .location = e.s.warehouse};
  CHECK(hl_cat_db_create(e.store, &db, &err) == HL_OK);
  hl_err_clear(&err);
  CHECK(run(&e, "SET hive.exec.dynamic.partition.mode=nonstrict") == HL_OK);
  for (int i = 0; i < 6 && sc->setup[i]; i++)
    CHECK(run(&e, sc->setup[i]) == HL_OK);
  char *before = snapshot(&e, false);
  env_close(&e);
  return before;
}

/* Runs SC's write in a child process with FAULT at write call N (none
 * when N is 0) and a SIGKILL at txn step CRASH_AT (NULL: none); returns
 * the wait status. */
static int crash_child(const scenario_t *sc, int n, remote_fault_t fault, const char *crash_at) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (crash_at) setenv("HIVELITE_CRASH_AT", crash_at, 1);
    /* N with CRASH_AT: the fault at call N, the kill at the step */
    env_t e;
    env_open(&e);
    run(&e, "SET hive.exec.dynamic.partition.mode=nonstrict");
    if (n > 0) remote_cat_fault(e.s.cat, n, fault);
    hl_error_t err;
    hl_err_init(&err);
    run_err(&e, sc->write, &err);
    _exit(3); /* not killed */
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

typedef struct opener_arg {
  hl_cat_t *cat;
  int calls;
} opener_arg_t;

static hl_status_t open_remote(void *arg, const char *address, hl_cat_t **out, hl_error_t *err) {
  (void)err;
  opener_arg_t *o = arg;
  o->calls++;
  *out = strcmp(address, ADDRESS) == 0 ? o->cat : NULL;
  return HL_OK;
}

/* hl_open's recovery with OPEN (NULL: none); returns the writes left. */
static size_t recover(env_t *e, bool with_catalog) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  opener_arg_t o = {e->s.cat, 0};
  size_t left = 99;
  hl_status_t rc = hl_txn_recover(e->local, e->s.fs, hl_txn_lock_dir(arena, e->s.warehouse), 5,
                                  with_catalog ? open_remote : NULL, &o, &left, &err);
  if (rc != HL_OK) fprintf(stderr, "recovery failed: %s\n", err.message);
  CHECK(rc == HL_OK);
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  return left;
}

/* The after state of SC (normalized) and the number of write calls. */
static char *after_state(const scenario_t *sc, int *calls) {
  hl_free(make_before(sc));
  env_t e;
  env_open(&e);
  CHECK(run(&e, "SET hive.exec.dynamic.partition.mode=nonstrict") == HL_OK);
  remote_cat_fault(e.s.cat, 0, REMOTE_OK);
  CHECK(run(&e, sc->write) == HL_OK);
  *calls = remote_cat_writes(e.s.cat);
  if (*calls != sc->calls) fprintf(stderr, "%s: %d remote write calls\n", sc->name, *calls);
  CHECK_INT(*calls, sc->calls);
  char *after = snapshot(&e, true);
  CHECK_INT(intents(&e), 0);
  env_close(&e);
  return after;
}

static void check_same(const char *what, const scenario_t *sc, int n, const char *got,
                       const char *want) {
  test_checks++;
  if (strcmp(got, want) != 0) {
    test_failures++;
    fprintf(stderr, "%s: %s, call %d:\n--- got\n%s--- expected\n%s", sc->name, what, n, got, want);
  }
}

TEST(failure_at_every_call_leaves_the_before_state) {
  for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++) {
    const scenario_t *sc = &scenarios[k];
    int calls;
    char *after = after_state(sc, &calls);
    CHECK(calls >= 1);
    for (int n = 1; n <= calls; n++) {
      for (int mode = 0; mode < 2; mode++) {
        char *before = make_before(sc);
        env_t e;
        env_open(&e);
        CHECK(run(&e, "SET hive.exec.dynamic.partition.mode=nonstrict") == HL_OK);
        remote_cat_fault(e.s.cat, n, mode == 0 ? REMOTE_FAIL_BEFORE : REMOTE_FAIL_AFTER);
        hl_error_t err;
        hl_err_init(&err);
        CHECK(run_err(&e, sc->write, &err) != HL_OK);
        CHECK_STR(err.sqlstate, mode == 0 ? "XX000" : "08000");
        hl_err_clear(&err);
        char *got = snapshot(&e, false);
        check_same(mode == 0 ? "failure" : "failure after effect", sc, n, got, before);
        hl_free(got);
        CHECK_INT(intents(&e), 0);
        /* nothing is left locked or half-done: the write runs again */
        remote_cat_fault(e.s.cat, 0, REMOTE_OK);
        CHECK(run(&e, sc->write) == HL_OK);
        got = snapshot(&e, true);
        check_same("rerun after a failure", sc, n, got, after);
        hl_free(got);
        env_close(&e);
        hl_free(before);
      }
    }
    hl_free(after);
  }
}

TEST(crash_at_every_call_recovers_to_before) {
  for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++) {
    const scenario_t *sc = &scenarios[k];
    int calls;
    char *after = after_state(sc, &calls);
    for (int n = 1; n <= calls; n++) {
      for (int mode = 0; mode < 2; mode++) {
        char *before = make_before(sc);
        int status = crash_child(sc, n, mode == 0 ? REMOTE_CRASH_BEFORE : REMOTE_CRASH_AFTER, NULL);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        env_t e;
        env_open(&e);
        CHECK_INT(intents(&e), 1);
        CHECK_INT(recover(&e, true), 0);
        CHECK_INT(intents(&e), 0);
        char *got = snapshot(&e, false);
        check_same(mode == 0 ? "crash before call" : "crash after call", sc, n, got, before);
        hl_free(got);
        hl_free(before);
        env_close(&e);
      }
    }
    /* killed between the local steps: before the remote calls, after all
     * of them, and once committed */
    static const char *const steps[] = {"synced", "journaled", "remote_done", "committed",
                                        "cleanup"};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
      char *before = make_before(sc);
      int status = crash_child(sc, 0, REMOTE_OK, steps[i]);
      CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
      env_t e;
      env_open(&e);
      CHECK_INT(recover(&e, true), 0);
      CHECK_INT(intents(&e), 0);
      bool done = i >= 3;
      char *got = snapshot(&e, done);
      check_same(steps[i], sc, (int)i, got, done ? after : before);
      hl_free(got);
      hl_free(before);
      env_close(&e);
    }
    /* killed half-way through the undo after a failure of the last call
     * (which took effect): recovery finishes the undo */
    {
      char *before = make_before(sc);
      int status = crash_child(sc, calls, REMOTE_FAIL_AFTER, "undo");
      CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
      env_t e;
      env_open(&e);
      CHECK_INT(recover(&e, true), 0);
      CHECK_INT(intents(&e), 0);
      char *got = snapshot(&e, false);
      check_same("crash during the undo", sc, calls, got, before);
      hl_free(got);
      hl_free(before);
      env_close(&e);
    }
    hl_free(after);
  }
}

TEST(recovery_without_the_catalog_leaves_it_to_its_next_writer) {
  const scenario_t *sc = &scenarios[2]; /* dynamic partitions */
  int calls;
  char *after = after_state(sc, &calls);
  CHECK(calls >= 3);
  hl_free(make_before(sc));
  int status = crash_child(sc, 2, REMOTE_CRASH_AFTER, NULL);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  env_t e;
  env_open(&e);
  char *crashed = snapshot(&e, false);
  /* hl_open's recovery: only the embedded catalog */
  CHECK_INT(recover(&e, false), 1);
  CHECK_INT(intents(&e), 1);
  char *got = snapshot(&e, false);
  check_same("recovery without the catalog", sc, 0, got, crashed);
  hl_free(got);
  /* the next writer of the table through the remote catalog repairs it,
   * then writes */
  CHECK(run(&e, "SET hive.exec.dynamic.partition.mode=nonstrict") == HL_OK);
  CHECK(run(&e, sc->write) == HL_OK);
  CHECK_INT(intents(&e), 0);
  got = snapshot(&e, true);
  check_same("repaired by the next writer", sc, 0, got, after);
  hl_free(got);
  hl_free(crashed);
  env_close(&e);
  hl_free(after);
}

TEST(failed_undo_is_left_to_recovery) {
  const scenario_t *sc = &scenarios[2];
  char *before = make_before(sc);
  env_t e;
  env_open(&e);
  CHECK(run(&e, "SET hive.exec.dynamic.partition.mode=nonstrict") == HL_OK);
  /* the metastore goes down at call 2 (call 1 took effect) */
  remote_cat_fault(e.s.cat, 2, REMOTE_DOWN);
  hl_error_t err;
  hl_err_init(&err);
  CHECK(run_err(&e, sc->write, &err) != HL_OK);
  CHECK_STR(err.sqlstate, "08000");
  CHECK(err.message && strstr(err.message, "left for crash recovery") != NULL);
  hl_err_clear(&err);
  CHECK_INT(intents(&e), 1);
  /* while the metastore is down, writers of the table cannot lock it */
  CHECK(run_err(&e, "INSERT INTO t PARTITION (dt='z') VALUES (8)", &err) != HL_OK);
  CHECK_STR(err.sqlstate, "55P03");
  hl_err_clear(&err);
  CHECK_INT(intents(&e), 1);
  /* back up: recovery undoes it completely */
  remote_cat_fault(e.s.cat, 0, REMOTE_OK);
  CHECK_INT(recover(&e, true), 0);
  CHECK_INT(intents(&e), 0);
  char *got = snapshot(&e, false);
  check_same("undo after the metastore is back", sc, 0, got, before);
  hl_free(got);
  /* and the table can be written again */
  CHECK(run(&e, "INSERT INTO t PARTITION (dt='z') VALUES (8)") == HL_OK);
  env_close(&e);
  hl_free(before);
}

int main(void) {
  /* on tmpfs when there is one: the test makes thousands of syncs */
  struct stat shm;
  const char *base = stat("/dev/shm", &shm) == 0 && access("/dev/shm", W_OK) == 0
                         ? "/dev/shm"
                         : getenv("HIVELITE_TEST_TMP");
  if (base) mkdir(base, 0777);
  snprintf(root, sizeof root, "%s/remotewriteXXXXXX", base ? base : "/tmp");
  if (!mkdtemp(root)) return 1;
  RUN(failure_at_every_call_leaves_the_before_state);
  RUN(crash_at_every_call_recovers_to_before);
  RUN(recovery_without_the_catalog_leaves_it_to_its_next_writer);
  RUN(failed_undo_is_left_to_recovery);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0) return 1;
  return test_report();
}
