/*
 * test_txn.c -- unit tests of the write transaction (src/txn/txn.c) and
 * the catalog's intent log and locks (src/catalog/cat_intent.c):
 *   - commit of an overwrite moves old files out and new files in;
 *   - a failing metadata step rolls the files back exactly;
 *   - abort removes the staging directory and the root it created;
 *   - recovery rolls back a dead process's pending write (old files back,
 *     new files gone) and rolls forward a committed one, and leaves a live
 *     process's write alone;
 *   - locks: exclusive, re-entrant for the holder, taken over from a dead
 *     holder only when named as stale.
 */
#include "txn/txn.h"

#include "util/mem.h"
#include "test.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct fx {
  char root[512];
  char dir[600];
  hl_cat_t *cat;
  hl_stor_t *fs;
  hl_arena_t *arena;
  hl_error_t err;
} fx_t;

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static bool exists(const char *dir, const char *name) {
  char path[900];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat sb;
  return stat(path, &sb) == 0;
}

/* Names in DIR joined by ' ' (sorted, hidden ones included). */
static char *listing(fx_t *f, const char *dir) {
  hl_stor_entry_t *e;
  size_t n;
  static char buf[2048];
  buf[0] = '\0';
  if (f->fs->ops->list(f->fs, dir, f->arena, &e, &n, &f->err) != HL_OK) return buf;
  for (size_t i = 0; i < n; i++) {
    if (i) strcat(buf, " ");
    strncat(buf,
            e[i].name[0] == '.' ? (strncmp(e[i].name, ".hivelite", 9) == 0 ? ".hl" : e[i].name)
                                : e[i].name,
            sizeof buf - strlen(buf) - 16);
  }
  return buf;
}

static void setup(fx_t *f) {
  memset(f, 0, sizeof *f);
  const char *base = getenv("HIVELITE_TEST_TMP");
  if (base) mkdir(base, 0777);
  snprintf(f->root, sizeof f->root, "%s/txntestXXXXXX", base ? base : "/tmp");
  CHECK(mkdtemp(f->root) != NULL);
  snprintf(f->dir, sizeof f->dir, "%s/t", f->root);
  mkdir(f->dir, 0777);
  char path[700];
  snprintf(path, sizeof path, "%s/old1", f->dir);
  write_file(path, "1\n");
  snprintf(path, sizeof path, "%s/.keep", f->dir);
  write_file(path, "hidden\n");
  snprintf(path, sizeof path, "%s/ms.db", f->root);
  hl_err_init(&f->err);
  CHECK(hl_cat_open(path, &f->cat, &f->err) == HL_OK);
  f->fs = hl_stor_local_create();
  f->arena = hl_arena_create(0);
}

static void teardown(fx_t *f) {
  f->fs->ops->remove_tree(f->fs, f->root, &f->err);
  f->fs->ops->destroy(f->fs);
  hl_cat_close(f->cat);
  hl_arena_destroy(f->arena);
  hl_err_clear(&f->err);
}

/* Stages one new file "NAME" with TEXT in a fresh overwrite of f->dir. */
static hl_txn_t *stage(fx_t *f, const char *text, char **name) {
  hl_txn_t *txn = NULL;
  CHECK(hl_txn_begin(f->cat, f->fs, "overwrite", f->dir, f->arena, &txn, &f->err) == HL_OK);
  if (!txn) return NULL;
  CHECK(hl_txn_lock_add(txn, "db.t", &f->err) == HL_OK);
  hl_txn_target_t *t;
  CHECK(hl_txn_target_add(txn, f->dir, true, &t, &f->err) == HL_OK);
  *name = hl_txn_file_name(txn, "");
  char path[900];
  snprintf(path, sizeof path, "%s/%s", t->stage_dir, *name);
  write_file(path, text);
  CHECK(hl_txn_target_add_file(txn, t, *name, &f->err) == HL_OK);
  return txn;
}

static int applied;
static hl_status_t apply_ok(void *arg, hl_txn_t *txn, hl_error_t *err) {
  (void)arg, (void)txn, (void)err;
  applied++;
  return HL_OK;
}
static hl_status_t apply_fail(void *arg, hl_txn_t *txn, hl_error_t *err) {
  (void)arg, (void)txn;
  return hl_err_set(err, HL_ERROR, HL_SS(DATA_EXCEPTION), "metadata step failed");
}

TEST(commit_and_rollback) {
  fx_t f;
  setup(&f);
  char *name;
  hl_txn_t *txn = stage(&f, "2\n", &name);
  CHECK(hl_txn_commit(txn, apply_fail, NULL, &f.err) == HL_ERROR);
  CHECK_STR(f.err.message, "metadata step failed");
  CHECK_STR(listing(&f, f.dir), ".keep old1"); /* exactly as before */
  hl_err_clear(&f.err);
  hl_err_init(&f.err);
  txn = stage(&f, "3\n", &name);
  applied = 0;
  CHECK(hl_txn_commit(txn, apply_ok, NULL, &f.err) == HL_OK);
  CHECK_INT(applied, 1);
  CHECK(exists(f.dir, name) && !exists(f.dir, "old1") && exists(f.dir, ".keep"));
  CHECK_INT(strlen(listing(&f, f.dir)), strlen(".keep ") + strlen(name));
  hl_cat_intent_t *in;
  size_t n = 9;
  CHECK(hl_cat_intent_list(f.cat, f.arena, &in, &n, &f.err) == HL_OK);
  CHECK_INT(n, 0); /* forgotten after cleanup */
  teardown(&f);
}

TEST(abort_removes_created_root) {
  fx_t f;
  setup(&f);
  char root[700];
  snprintf(root, sizeof root, "%s/new/table", f.root);
  hl_txn_t *txn = NULL;
  CHECK(hl_txn_begin(f.cat, f.fs, "ctas", root, f.arena, &txn, &f.err) == HL_OK);
  char parent[700];
  snprintf(parent, sizeof parent, "%s/new", f.root);
  struct stat sb;
  CHECK(stat(root, &sb) == 0);
  hl_txn_abort(txn);
  CHECK(stat(parent, &sb) != 0);
  teardown(&f);
}

/* A pid that certainly belonged to a process that has exited. */
static int64_t dead_pid(void) {
  pid_t p = fork();
  if (p == 0) _exit(0);
  waitpid(p, NULL, 0);
  return (int64_t)p;
}

TEST(recovery) {
  fx_t f;
  setup(&f);
  char host[256];
  gethostname(host, sizeof host);
  /* a pending overwrite of a dead process: old1 already in the trash, the
   * new file already published */
  char path[900], trash[800];
  snprintf(trash, sizeof trash, "%s/.hivelite-trash-q1", f.dir);
  mkdir(trash, 0777);
  snprintf(path, sizeof path, "%s/old1", f.dir);
  char to[900];
  snprintf(to, sizeof to, "%s/old1", trash);
  CHECK(rename(path, to) == 0);
  snprintf(path, sizeof path, "%s/q1_000000", f.dir);
  write_file(path, "new\n");
  char staging[800], plan[2048];
  snprintf(staging, sizeof staging, "%s/.hivelite-staging-q1", f.dir);
  mkdir(staging, 0777);
  snprintf(path, sizeof path, "%s/0", staging);
  mkdir(path, 0777);
  snprintf(plan, sizeof plan, "Q\tq1\nT\t0\t%s\t1\t\nN\t0\tq1_000000\nO\t0\told1\n", f.dir);
  hl_cat_intent_t in = {.kind = "overwrite",
                        .state = "pending",
                        .staging = staging,
                        .plan = plan,
                        .owner = {.host = host, .pid = dead_pid(), .start = 1}};
  int64_t id;
  CHECK(hl_cat_intent_add(f.cat, &in, &id, &f.err) == HL_OK);
  /* and a write of this (live) process, which must be left alone */
  hl_cat_intent_t live = in;
  live.owner.pid = (int64_t)getpid();
  live.owner.start = 0;
  live.plan = "";
  live.staging = "/nonexistent/staging";
  int64_t live_id;
  CHECK(hl_cat_intent_add(f.cat, &live, &live_id, &f.err) == HL_OK);
  CHECK(hl_txn_recover(f.cat, f.fs, NULL, 60, NULL, NULL, NULL, &f.err) == HL_OK);
  CHECK_STR(listing(&f, f.dir), ".keep old1");
  hl_cat_intent_t *list;
  size_t n;
  CHECK(hl_cat_intent_list(f.cat, f.arena, &list, &n, &f.err) == HL_OK);
  CHECK_INT(n, 1);
  if (n == 1) CHECK_INT(list[0].id, live_id);
  CHECK(hl_cat_intent_delete(f.cat, live_id, &f.err) == HL_OK);

  /* a committed one is rolled forward: trash and staging go, data stays */
  mkdir(trash, 0777);
  snprintf(path, sizeof path, "%s/old0", trash);
  write_file(path, "0\n");
  mkdir(staging, 0777);
  in.state = "committed";
  in.owner.pid = dead_pid();
  CHECK(hl_cat_intent_add(f.cat, &in, &id, &f.err) == HL_OK);
  CHECK(hl_txn_recover(f.cat, f.fs, NULL, 60, NULL, NULL, NULL, &f.err) == HL_OK);
  CHECK_STR(listing(&f, f.dir), ".keep old1");
  CHECK(hl_cat_intent_list(f.cat, f.arena, &list, &n, &f.err) == HL_OK);
  CHECK_INT(n, 0);

  /* a malformed plan is reported, not guessed at */
  in.state = "pending";
  in.plan = "X\tbogus\n";
  CHECK(hl_cat_intent_add(f.cat, &in, &id, &f.err) == HL_OK);
  CHECK(hl_txn_recover(f.cat, f.fs, NULL, 60, NULL, NULL, NULL, &f.err) == HL_CORRUPT);
  CHECK_STR(f.err.message, "metastore is corrupt: malformed write intent plan");
  teardown(&f);
}

TEST(locks) {
  fx_t f;
  setup(&f);
  hl_cat_owner_t a = {.host = "h", .pid = 1, .start = 10};
  hl_cat_owner_t b = {.host = "h", .pid = 2, .start = 20};
  hl_cat_owner_t holder;
  bool got;
  CHECK(hl_cat_lock_try(f.cat, "db.t", &a, NULL, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(got);
  CHECK(hl_cat_lock_try(f.cat, "db.t", &a, NULL, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(got); /* the holder again */
  CHECK(hl_cat_lock_try(f.cat, "db.t", &b, NULL, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(!got);
  CHECK_INT(holder.pid, 1);
  hl_cat_owner_t wrong = {.host = "h", .pid = 1, .start = 11}; /* a reused pid */
  CHECK(hl_cat_lock_try(f.cat, "db.t", &b, &wrong, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(!got);
  CHECK(hl_cat_lock_try(f.cat, "db.t", &b, &a, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(got); /* taken over from the stale holder */
  CHECK(hl_cat_lock_release(f.cat, "db.t", &a, &f.err) == HL_OK); /* not a's: no effect */
  CHECK(hl_cat_lock_try(f.cat, "db.t", &a, NULL, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(!got);
  CHECK(hl_cat_lock_release(f.cat, "db.t", &b, &f.err) == HL_OK);
  CHECK(hl_cat_lock_try(f.cat, "db.t", &a, NULL, &got, &holder, f.arena, &f.err) == HL_OK);
  CHECK(got);
  teardown(&f);
}

int main(void) {
  RUN(commit_and_rollback);
  RUN(abort_removes_created_root);
  RUN(recovery);
  RUN(locks);
  printf("%d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
