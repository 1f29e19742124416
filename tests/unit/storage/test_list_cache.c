/*
 * test_list_cache.c -- the directory listing cache: hits while the
 * directory's mtime is unchanged, a fresh listing once a file is added.
 */
#include "storage/stor_cache.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  snprintf(path, sizeof path, "%s/b.txt", dir);
  touch(fs, path);
  CHECK_INT(hl_list_cache_list(c, fs, dir, a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 2);
  CHECK_STR(e[1].name, "b.txt");
  CHECK_INT(hl_list_cache_stats(c).misses, 2);
  /* eviction: two more directories push the first one out */
  char d2[300], d3[300];
  snprintf(d2, sizeof d2, "%s/x", dir);
  snprintf(d3, sizeof d3, "%s/y", dir);
  CHECK_INT(fs->ops->mkdirs(fs, d2, &err), HL_OK);
  CHECK_INT(fs->ops->mkdirs(fs, d3, &err), HL_OK);
  CHECK_INT(hl_list_cache_list(c, fs, d2, a, &e, &n, &err), HL_OK);
  CHECK_INT(hl_list_cache_list(c, fs, d3, a, &e, &n, &err), HL_OK);
  CHECK_INT(hl_list_cache_list(c, fs, d2, a, &e, &n, &err), HL_OK); /* still cached */
  CHECK_INT(hl_list_cache_stats(c).hits, 2);
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

int main(void) {
  RUN(cache_hits_and_invalidation);
  return test_report();
}
