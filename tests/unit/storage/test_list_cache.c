/*
 * test_list_cache.c -- the directory listing cache: hits while the
 * directory's mtime is unchanged, a fresh listing once a file is added,
 * and no reuse of a listing taken within the directory's timestamp tick
 * (coarse file-system clocks).
 */
#include "storage/stor_cache.h"
#include "test.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Sets PATH's mtime SECONDS before now: a directory that changed long ago
 * (a listing of it is trusted). */
static void age(const char *path, int seconds) {
  struct timespec ts[2];
  clock_gettime(CLOCK_REALTIME, &ts[0]);
  ts[0].tv_sec -= seconds;
  ts[1] = ts[0];
  CHECK_INT(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void touch(hl_stor_t *fs, const char *path) {
  hl_error_t err;
  hl_err_init(&err);
  hl_stor_file_t *f;
  CHECK_INT(fs->ops->create(fs, path, &f, &err), HL_OK);
  CHECK_INT(fs->ops->close(f, &err), HL_OK);
  hl_err_clear(&err);
}

TEST(cache_hits_and_invalidation) {
  char dir[] = "/tmp/hl_list_cache_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  hl_stor_t *fs = hl_stor_local_create();
  hl_list_cache_t *c = hl_list_cache_create(2);
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  char path[256];
  snprintf(path, sizeof path, "%s/a.txt", dir);
  touch(fs, path);
  age(dir, 60);
  hl_stor_entry_t *e;
  size_t n;
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 1);
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 1);
  CHECK_STR(e[0].name, "a.txt");
  CHECK_INT(hl_list_cache_stats(c).hits, 1);
  CHECK_INT(hl_list_cache_stats(c).misses, 1);
  /* a new file changes the directory's mtime: the next listing is fresh */
  snprintf(path, sizeof path, "%s/b.txt", dir);
  touch(fs, path);
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 2);
  CHECK_STR(e[1].name, "b.txt");
  CHECK_INT(hl_list_cache_stats(c).misses, 2);
  /* taken right after the change: not reused while the mtime is recent */
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(hl_list_cache_stats(c).misses, 3);
  CHECK_INT(hl_list_cache_stats(c).hits, 1);
  age(dir, 30); /* a new mtime, old enough: listed once more, then reused */
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 2);
  CHECK_INT(hl_list_cache_stats(c).misses, 4);
  CHECK_INT(hl_list_cache_stats(c).hits, 2);
  /* eviction: two more directories push the first one out */
  char d2[300], d3[300];
  snprintf(d2, sizeof d2, "%s/x", dir);
  snprintf(d3, sizeof d3, "%s/y", dir);
  CHECK_INT(fs->ops->mkdirs(fs, d2, &err), HL_OK);
  CHECK_INT(fs->ops->mkdirs(fs, d3, &err), HL_OK);
  age(d2, 60);
  age(d3, 60);
  CHECK_INT(hl_list_cache_list(c, fs, d2, a, &e, &n, &err), HL_OK);
  CHECK_INT(hl_list_cache_list(c, fs, d3, a, &e, &n, &err), HL_OK);
  CHECK_INT(hl_list_cache_list(c, fs, d2, a, &e, &n, &err), HL_OK); /* still cached */
  CHECK_INT(hl_list_cache_stats(c).hits, 3);
  /* a missing directory is HL_NOTFOUND, as the file system says */
  char missing[300];
  snprintf(missing, sizeof missing, "%s/nope", dir);
  CHECK_INT(hl_list_cache_list(c, fs, missing, a, &e, &n, &err), HL_NOTFOUND);
  hl_err_clear(&err);
  CHECK_INT(fs->ops->remove_tree(fs, dir, &err), HL_OK);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_list_cache_destroy(c);
  fs->ops->destroy(fs);
}

/* A file system whose clock is coarse: every directory reports one mtime,
 * a moment ago, whatever changes in it (a whole timestamp tick). */
typedef struct coarse_fs {
  hl_stor_t base;
  hl_stor_t *inner;
  int64_t mtime_ns;
} coarse_fs_t;

static hl_status_t coarse_stat(hl_stor_t *fs, const char *path, hl_stor_stat_t *st,
                               hl_error_t *err) {
  coarse_fs_t *c = (coarse_fs_t *)fs;
  hl_status_t rc = c->inner->ops->stat(c->inner, path, st, err);
  st->mtime_ns = c->mtime_ns;
  return rc;
}

static hl_status_t coarse_list(hl_stor_t *fs, const char *path, hl_arena_t *arena,
                               hl_stor_entry_t **out, size_t *n, hl_error_t *err) {
  coarse_fs_t *c = (coarse_fs_t *)fs;
  return c->inner->ops->list(c->inner, path, arena, out, n, err);
}

TEST(cache_coarse_mtime) {
  char dir[] = "/tmp/hl_list_cache_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  hl_stor_t *local = hl_stor_local_create();
  hl_stor_ops_t ops = {.stat = coarse_stat, .list = coarse_list};
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  coarse_fs_t cfs = {{&ops}, local, (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec};
  hl_list_cache_t *c = hl_list_cache_create(4);
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  char path[256];
  snprintf(path, sizeof path, "%s/a.txt", dir);
  touch(local, path);
  hl_stor_entry_t *e;
  size_t n;
  CHECK_INT(hl_list_cache_list(c, &cfs.base, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 1);
  /* published within the same tick: the mtime does not move */
  snprintf(path, sizeof path, "%s/b.txt", dir);
  touch(local, path);
  CHECK_INT(hl_list_cache_list(c, &cfs.base, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 2);
  CHECK_INT(hl_list_cache_stats(c).hits, 0);
  hl_err_clear(&err);
  CHECK_INT(local->ops->remove_tree(local, dir, &err), HL_OK);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_list_cache_destroy(c);
  local->ops->destroy(local);
}

int main(void) {
  RUN(cache_hits_and_invalidation);
  RUN(cache_coarse_mtime);
  return test_report();
}
