/*
 * test_storage.c -- unit tests for the local file-system backend
 * (storage/stor_local.c) and the helpers in storage/stor_util.c.
 *
 * Every test works in a fresh directory under $HIVELITE_TEST_TMP (or /tmp)
 * and removes it at the end; success and error paths are both checked,
 * including the exact messages and SQLSTATEs callers show to users.
 */
#include "storage/stor.h"
#include "util/mem.h"

#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[4096]; /* per-run temporary directory */

static void make_root(void) {
  const char *base = getenv("HIVELITE_TEST_TMP");
  if (!base || !*base) base = "/tmp";
  mkdir(base, 0777);
  snprintf(root, sizeof root, "%s/stor_XXXXXX", base);
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    exit(1);
  }
}

static const char *p(hl_arena_t *a, const char *rel) {
  return hl_arena_sprintf(a, "%s/%s", root, rel);
}

static void write_file(const char *path, const char *data) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(data, f);
  fclose(f);
}

static mode_t mode_of(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) < 0) return (mode_t)-1;
  return sb.st_mode & 07777;
}

TEST(stat_ops) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  hl_stor_stat_t st;
  write_file(p(a, "f.txt"), "hello");
  CHECK_INT(fs->ops->stat(fs, p(a, "f.txt"), &st, &err), HL_OK);
  CHECK(st.exists);
  CHECK(!st.is_dir);
  CHECK_INT(st.size, 5);
  CHECK(st.mtime_ns > 0);
  CHECK_INT(fs->ops->stat(fs, root, &st, &err), HL_OK);
  CHECK(st.exists && st.is_dir);
  CHECK_INT(st.size, 0);
  /* Missing paths (also through a file) are not errors. */
  CHECK_INT(fs->ops->stat(fs, p(a, "nope"), &st, &err), HL_OK);
  CHECK(!st.exists);
  CHECK_INT(fs->ops->stat(fs, p(a, "f.txt/x"), &st, &err), HL_OK);
  CHECK(!st.exists);
  CHECK_INT(err.code, HL_OK);
  unlink(p(a, "f.txt"));
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(list_sorted) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  mkdir(p(a, "d"), 0777);
  write_file(p(a, "d/b"), "bb");
  write_file(p(a, "d/a"), "a");
  write_file(p(a, "d/_SUCCESS"), "");
  mkdir(p(a, "d/c=1"), 0777);
  CHECK_INT(symlink("missing-target", p(a, "d/dangling")), 0);
  hl_stor_entry_t *e = NULL;
  size_t n = 0;
  CHECK_INT(fs->ops->list(fs, p(a, "d"), a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 4); /* the dangling link is skipped */
  if (n == 4) {
    CHECK_STR(e[0].name, "_SUCCESS");
    CHECK_STR(e[1].name, "a");
    CHECK_STR(e[2].name, "b");
    CHECK_STR(e[3].name, "c=1");
    CHECK(!e[0].is_dir && !e[1].is_dir && !e[2].is_dir && e[3].is_dir);
    CHECK_INT(e[1].size, 1);
    CHECK_INT(e[2].size, 2);
    CHECK(e[2].mtime_ns > 0);
  }
  /* Many entries: growth keeps all of them, in order. */
  mkdir(p(a, "many"), 0777);
  for (int i = 0; i < 100; i++)
    write_file(p(a, hl_arena_sprintf(a, "many/f%03d", 99 - i)), "");
  CHECK_INT(fs->ops->list(fs, p(a, "many"), a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 100);
  if (n == 100) {
    CHECK_STR(e[0].name, "f000");
    CHECK_STR(e[57].name, "f057");
    CHECK_STR(e[99].name, "f099");
  }
  /* Empty directory. */
  mkdir(p(a, "empty"), 0777);
  CHECK_INT(fs->ops->list(fs, p(a, "empty"), a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 0);
  /* Missing directory: HL_NOTFOUND / 58P01. */
  CHECK_INT(fs->ops->list(fs, p(a, "nope"), a, &e, &n, &err), HL_NOTFOUND);
  CHECK_STR(err.sqlstate, "58P01");
  CHECK_STR(err.message, hl_arena_sprintf(a,
                                          "could not open directory \"%s/nope\": No such "
                                          "file or directory",
                                          root));
  hl_err_clear(&err);
  /* Not a directory: I/O error. */
  CHECK_INT(fs->ops->list(fs, p(a, "d/a"), a, &e, &n, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message,
            hl_arena_sprintf(a, "could not open directory \"%s/d/a\": Not a directory", root));
  hl_err_clear(&err);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "d"), &err), HL_OK);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "many"), &err), HL_OK);
  CHECK_INT(fs->ops->rmdir(fs, p(a, "empty"), &err), HL_OK);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(read_write) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  const char *path = p(a, "w.bin");
  hl_stor_file_t *f = NULL;
  CHECK_INT(fs->ops->create(fs, path, &f, &err), HL_OK);
  CHECK(f != NULL && f->fs == fs);
  CHECK_INT(fs->ops->append(f, "0123456789", 10, &err), HL_OK);
  CHECK_INT(fs->ops->append(f, "abc", 3, &err), HL_OK);
  CHECK_INT(fs->ops->append(f, "", 0, &err), HL_OK);
  CHECK_INT(fs->ops->file_size(f), 13);
  CHECK_INT(fs->ops->sync(f, &err), HL_OK);
  CHECK_INT(fs->ops->close(f, &err), HL_OK);
  /* New files get 0666 & ~umask; nothing else is chmod-ed. */
  mode_t mask = umask(0);
  umask(mask);
  CHECK_INT(mode_of(path), 0666 & ~mask);

  /* Exclusive create. */
  f = NULL;
  CHECK_INT(fs->ops->create(fs, path, &f, &err), HL_CONSTRAINT);
  CHECK(f == NULL);
  CHECK_STR(err.sqlstate, "58P02");
  CHECK_STR(err.message, hl_arena_sprintf(a, "could not create file \"%s\": File exists", path));
  hl_err_clear(&err);
  /* Missing parent. */
  CHECK_INT(fs->ops->create(fs, p(a, "no/dir/x"), &f, &err), HL_NOTFOUND);
  CHECK_STR(err.sqlstate, "58P01");
  hl_err_clear(&err);

  CHECK_INT(fs->ops->open_read(fs, path, &f, &err), HL_OK);
  CHECK_INT(fs->ops->file_size(f), 13);
  char buf[32];
  size_t got = 99;
  CHECK_INT(fs->ops->read_at(f, 0, buf, 13, &got, &err), HL_OK);
  CHECK_INT(got, 13);
  CHECK(memcmp(buf, "0123456789abc", 13) == 0);
  CHECK_INT(fs->ops->read_at(f, 10, buf, 32, &got, &err), HL_OK); /* past the end: short */
  CHECK_INT(got, 3);
  CHECK(memcmp(buf, "abc", 3) == 0);
  CHECK_INT(fs->ops->read_at(f, 13, buf, 4, &got, &err), HL_OK);
  CHECK_INT(got, 0);
  CHECK_INT(fs->ops->read_at(f, 1000, buf, 4, &got, &err), HL_OK);
  CHECK_INT(got, 0);
  CHECK_INT(fs->ops->read_at(f, 5, buf, 0, &got, &err), HL_OK);
  CHECK_INT(got, 0);
  /* An offset beyond off_t is an error, not a wrap-around. */
  CHECK_INT(fs->ops->read_at(f, UINT64_MAX - 1, buf, 4, &got, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  hl_err_clear(&err);
  /* Appending to a read handle is misuse. */
  CHECK_INT(fs->ops->append(f, "x", 1, &err), HL_MISUSE);
  hl_err_clear(&err);
  CHECK_INT(fs->ops->close(f, &err), HL_OK);
  CHECK_INT(fs->ops->close(NULL, &err), HL_OK);

  /* open_read errors. */
  f = NULL;
  CHECK_INT(fs->ops->open_read(fs, p(a, "missing"), &f, &err), HL_NOTFOUND);
  CHECK(f == NULL);
  CHECK_STR(err.sqlstate, "58P01");
  CHECK_STR(err.message, hl_arena_sprintf(a,
                                          "could not open file \"%s/missing\": No such file or "
                                          "directory",
                                          root));
  hl_err_clear(&err);
  CHECK_INT(fs->ops->open_read(fs, root, &f, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message, hl_arena_sprintf(a, "could not open file \"%s\": Is a directory", root));
  hl_err_clear(&err);
  CHECK_INT(fs->ops->open_read(fs, p(a, "w.bin/x"), &f, &err), HL_IOERR);
  CHECK_STR(err.message,
            hl_arena_sprintf(a, "could not open file \"%s/w.bin/x\": Not a directory", root));
  hl_err_clear(&err);
  if (geteuid() != 0) { /* root ignores permissions */
    write_file(p(a, "secret"), "s");
    chmod(p(a, "secret"), 0);
    CHECK_INT(fs->ops->open_read(fs, p(a, "secret"), &f, &err), HL_IOERR);
    CHECK_STR(err.message,
              hl_arena_sprintf(a, "could not open file \"%s/secret\": Permission denied", root));
    hl_err_clear(&err);
    unlink(p(a, "secret"));
  }
  unlink(path);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(large_file) {
  /* Larger than one pread/copy chunk, with a recognisable pattern. */
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  size_t n = 600 * 1024 + 7;
  unsigned char *data = hl_malloc(n);
  for (size_t i = 0; i < n; i++)
    data[i] = (unsigned char)(i * 31 + (i >> 11));
  hl_stor_file_t *f = NULL;
  CHECK_INT(fs->ops->create(fs, p(a, "big"), &f, &err), HL_OK);
  CHECK_INT(fs->ops->append(f, data, n, &err), HL_OK);
  CHECK_INT(fs->ops->close(f, &err), HL_OK);
  CHECK_INT(hl_stor_copy(fs, p(a, "big"), p(a, "big2"), &err), HL_OK);
  char *back = NULL;
  size_t len = 0;
  CHECK_INT(hl_stor_read_all(fs, p(a, "big2"), a, n, &back, &len, &err), HL_OK);
  CHECK_INT(len, n);
  CHECK(back && memcmp(back, data, n) == 0);
  CHECK(back && back[len] == '\0');
  /* Over the limit: 54000, nothing returned. */
  back = (char *)"x";
  CHECK_INT(hl_stor_read_all(fs, p(a, "big"), a, n - 1, &back, &len, &err), HL_ERROR);
  CHECK(back == NULL);
  CHECK_INT(len, 0);
  CHECK_STR(err.sqlstate, "54000");
  CHECK_STR(err.message, hl_arena_sprintf(a, "file \"%s/big\" is too large (%zu bytes, limit %zu)",
                                          root, n, n - 1));
  hl_err_clear(&err);
  /* Copy onto an existing file fails and leaves it alone. */
  write_file(p(a, "small"), "keep");
  CHECK_INT(hl_stor_copy(fs, p(a, "big"), p(a, "small"), &err), HL_CONSTRAINT);
  hl_err_clear(&err);
  CHECK_INT(hl_stor_read_all(fs, p(a, "small"), a, 100, &back, &len, &err), HL_OK);
  CHECK_STR(back, "keep");
  /* Copy from a missing file creates nothing. */
  CHECK_INT(hl_stor_copy(fs, p(a, "nope"), p(a, "nope2"), &err), HL_NOTFOUND);
  hl_err_clear(&err);
  CHECK(access(p(a, "nope2"), F_OK) != 0);
  /* Empty file. */
  write_file(p(a, "empty"), "");
  CHECK_INT(hl_stor_read_all(fs, p(a, "empty"), a, 0, &back, &len, &err), HL_OK);
  CHECK_INT(len, 0);
  CHECK_STR(back, "");
  CHECK_INT(hl_stor_copy(fs, p(a, "empty"), p(a, "empty2"), &err), HL_OK);
  struct stat sb;
  CHECK(stat(p(a, "empty2"), &sb) == 0 && sb.st_size == 0);
  CHECK_INT(hl_stor_read_all(fs, p(a, "missing"), a, 10, &back, &len, &err), HL_NOTFOUND);
  hl_err_clear(&err);
  hl_free(data);
  const char *names[] = {"big", "big2", "small", "empty", "empty2"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    CHECK_INT(fs->ops->remove(fs, p(a, names[i]), &err), HL_OK);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(rename_noreplace) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  write_file(p(a, "r1"), "one");
  write_file(p(a, "r2"), "two");
  CHECK_INT(fs->ops->rename(fs, p(a, "r1"), p(a, "r2"), &err), HL_CONSTRAINT);
  CHECK_STR(err.sqlstate, "58P02");
  CHECK_STR(err.message, hl_arena_sprintf(a, "could not rename \"%s/r1\" to \"%s/r2\": File exists",
                                          root, root));
  hl_err_clear(&err);
  char *back = NULL;
  size_t len;
  CHECK_INT(hl_stor_read_all(fs, p(a, "r2"), a, 10, &back, &len, &err), HL_OK);
  CHECK_STR(back, "two"); /* untouched */
  CHECK_INT(fs->ops->rename(fs, p(a, "r1"), p(a, "r3"), &err), HL_OK);
  CHECK(access(p(a, "r1"), F_OK) != 0);
  CHECK_INT(hl_stor_read_all(fs, p(a, "r3"), a, 10, &back, &len, &err), HL_OK);
  CHECK_STR(back, "one");
  /* Missing source. */
  CHECK_INT(fs->ops->rename(fs, p(a, "r1"), p(a, "r4"), &err), HL_NOTFOUND);
  CHECK_STR(err.sqlstate, "58P01");
  hl_err_clear(&err);
  /* Directories, also across parents; an existing (even empty) target
   * directory is refused. */
  mkdir(p(a, "d1"), 0777);
  write_file(p(a, "d1/f"), "x");
  mkdir(p(a, "sub"), 0777);
  mkdir(p(a, "d2"), 0777);
  CHECK_INT(fs->ops->rename(fs, p(a, "d1"), p(a, "d2"), &err), HL_CONSTRAINT);
  hl_err_clear(&err);
  CHECK_INT(fs->ops->rename(fs, p(a, "d1"), p(a, "sub/d1"), &err), HL_OK);
  CHECK(access(p(a, "sub/d1/f"), F_OK) == 0);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "sub"), &err), HL_OK);
  CHECK_INT(fs->ops->rmdir(fs, p(a, "d2"), &err), HL_OK);
  fs->ops->remove(fs, p(a, "r2"), &err);
  fs->ops->remove(fs, p(a, "r3"), &err);
  CHECK_INT(err.code, HL_OK);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(remove_ops) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  write_file(p(a, "x"), "x");
  CHECK_INT(fs->ops->remove(fs, p(a, "x"), &err), HL_OK);
  CHECK(access(p(a, "x"), F_OK) != 0);
  CHECK_INT(fs->ops->remove(fs, p(a, "x"), &err), HL_OK); /* missing is fine */
  mkdir(p(a, "dd"), 0777);
  CHECK_INT(fs->ops->remove(fs, p(a, "dd"), &err), HL_IOERR); /* not a file */
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message,
            hl_arena_sprintf(a, "could not remove file \"%s/dd\": Is a directory", root));
  hl_err_clear(&err);
  write_file(p(a, "dd/f"), "f");
  CHECK_INT(fs->ops->rmdir(fs, p(a, "dd"), &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message,
            hl_arena_sprintf(a, "could not remove directory \"%s/dd\": Directory not empty", root));
  hl_err_clear(&err);
  CHECK_INT(fs->ops->rmdir(fs, p(a, "nope"), &err), HL_OK);
  CHECK_INT(fs->ops->remove(fs, p(a, "dd/f"), &err), HL_OK);
  CHECK_INT(fs->ops->rmdir(fs, p(a, "dd"), &err), HL_OK);
  CHECK(access(p(a, "dd"), F_OK) != 0);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(mkdirs) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  mode_t mask = umask(0);
  umask(mask);
  /* An existing directory with an unusual mode keeps it. */
  mkdir(p(a, "m"), 0777);
  chmod(p(a, "m"), 0751);
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "m/a//b/c/"), &err), HL_OK);
  CHECK_INT(mode_of(p(a, "m")), 0751);
  CHECK_INT(mode_of(p(a, "m/a")), 0777 & ~mask);
  CHECK_INT(mode_of(p(a, "m/a/b/c")), 0777 & ~mask);
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "m/a/b/c"), &err), HL_OK); /* exists: fine */
  CHECK_INT(fs->ops->mkdirs(fs, root, &err), HL_OK);
  /* A file in the way. */
  write_file(p(a, "m/file"), "");
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "m/file"), &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message,
            hl_arena_sprintf(a, "could not create directory \"%s/m/file\": Not a directory", root));
  hl_err_clear(&err);
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "m/file/sub/x"), &err), HL_IOERR);
  CHECK_STR(err.message,
            hl_arena_sprintf(a, "could not create directory \"%s/m/file\": Not a directory", root));
  hl_err_clear(&err);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "m"), &err), HL_OK);
  CHECK(access(p(a, "m"), F_OK) != 0);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(remove_tree_no_follow) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  /* A tree holding links to a directory and a file outside it. */
  mkdir(p(a, "outside"), 0777);
  write_file(p(a, "outside/keep"), "k");
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "t/a/b/c"), &err), HL_OK);
  write_file(p(a, "t/a/f1"), "1");
  write_file(p(a, "t/a/b/c/f2"), "2");
  write_file(p(a, "t/_SUCCESS"), "");
  CHECK_INT(symlink(p(a, "outside"), p(a, "t/a/linkdir")), 0);
  CHECK_INT(symlink(p(a, "outside/keep"), p(a, "t/linkfile")), 0);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "t"), &err), HL_OK);
  CHECK_INT(err.code, HL_OK);
  CHECK(access(p(a, "t"), F_OK) != 0);
  CHECK(access(p(a, "outside/keep"), F_OK) == 0);
  /* A symlink given as the root is removed itself, not its target. */
  CHECK_INT(symlink(p(a, "outside"), p(a, "rootlink")), 0);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "rootlink"), &err), HL_OK);
  CHECK(access(p(a, "outside/keep"), F_OK) == 0);
  struct stat sb;
  CHECK(lstat(p(a, "rootlink"), &sb) != 0);
  /* A plain file, and a missing path. */
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "outside/keep"), &err), HL_OK);
  CHECK(access(p(a, "outside/keep"), F_OK) != 0);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "nope"), &err), HL_OK);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "outside"), &err), HL_OK);
  CHECK(access(p(a, "outside"), F_OK) != 0);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

/* real_path resolves every link, keeps a missing tail; list flags links;
 * create never follows a link (the location allowlist relies on all
 * three: session/loc_allow.c). */
TEST(real_path_links) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  char *real_root = realpath(root, NULL); /* the root itself may lie under a link */
  CHECK(real_root != NULL);
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "rp/real/sub"), &err), HL_OK);
  CHECK_INT(symlink(p(a, "rp/real"), p(a, "rp/link")), 0);
  CHECK_INT(symlink("real/sub", p(a, "rp/rel")), 0); /* relative target */
  CHECK_INT(symlink(p(a, "rp/loop"), p(a, "rp/loop")), 0);
  CHECK_INT(symlink(p(a, "rp/real/target"), p(a, "rp/flink")), 0);
  char *out = NULL;
  CHECK_INT(fs->ops->real_path(fs, p(a, "rp/link/sub"), a, &out, &err), HL_OK);
  CHECK_STR(out, hl_arena_sprintf(a, "%s/rp/real/sub", real_root));
  CHECK_INT(fs->ops->real_path(fs, p(a, "rp/rel"), a, &out, &err), HL_OK);
  CHECK_STR(out, hl_arena_sprintf(a, "%s/rp/real/sub", real_root));
  CHECK_INT(fs->ops->real_path(fs, p(a, "rp/link/new/x"), a, &out, &err), HL_OK);
  CHECK_STR(out, hl_arena_sprintf(a, "%s/rp/real/new/x", real_root));
  CHECK_INT(fs->ops->real_path(fs, "/", a, &out, &err), HL_OK);
  CHECK_STR(out, "/");
  CHECK_INT(fs->ops->real_path(fs, "/no_such_dir_hl/x", a, &out, &err), HL_OK);
  CHECK_STR(out, "/no_such_dir_hl/x");
  CHECK(fs->ops->real_path(fs, p(a, "rp/loop/x"), a, &out, &err) != HL_OK);
  CHECK_STR(err.sqlstate, "58030");
  hl_err_clear(&err);
  CHECK_INT(unlink(p(a, "rp/loop")), 0); /* a listing fails on a link loop */
  hl_stor_entry_t *e = NULL;
  size_t n = 0;
  CHECK_INT(fs->ops->list(fs, p(a, "rp"), a, &e, &n, &err), HL_OK);
  CHECK_INT(n, 3); /* flink (dangling) is left out */
  if (n == 3) {
    CHECK_STR(e[0].name, "link");
    CHECK(e[0].is_link && e[0].is_dir);
    CHECK_STR(e[1].name, "real");
    CHECK(!e[1].is_link && e[1].is_dir);
    CHECK_STR(e[2].name, "rel");
    CHECK(e[2].is_link);
  }
  hl_stor_file_t *file = NULL;
  CHECK(fs->ops->create(fs, p(a, "rp/flink"), &file, &err) != HL_OK);
  hl_err_clear(&err);
  CHECK(access(p(a, "rp/real/target"), F_OK) != 0);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "rp"), &err), HL_OK);
  free(real_root);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(paths) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(hl_path_join(a, "/a/b", "c"), "/a/b/c");
  CHECK_STR(hl_path_join(a, "/a/b/", "c"), "/a/b/c");
  CHECK_STR(hl_path_join(a, "/a/b//", "/c"), "/a/b/c");
  CHECK_STR(hl_path_join(a, "/", "c"), "/c");
  CHECK_STR(hl_path_join(a, "/", "/c"), "/c");
  CHECK_STR(hl_path_join(a, "", "c"), "c");
  CHECK_STR(hl_path_join(a, "rel", "dt=1/f"), "rel/dt=1/f");
  CHECK_STR(hl_path_join(a, "/a", ""), "/a/");

  CHECK_STR(hl_path_normalize(a, "/", NULL), "/");
  CHECK_STR(hl_path_normalize(a, "/a/b/", NULL), "/a/b");
  CHECK_STR(hl_path_normalize(a, "//a//b", NULL), "/a/b");
  CHECK_STR(hl_path_normalize(a, "/a/./b/.", NULL), "/a/b");
  CHECK_STR(hl_path_normalize(a, "/a/b/../c", NULL), "/a/c");
  CHECK_STR(hl_path_normalize(a, "/a/b/../../..", NULL), "/");
  CHECK_STR(hl_path_normalize(a, "/../x", NULL), "/x");
  CHECK_STR(hl_path_normalize(a, "/a/..b/.c", NULL), "/a/..b/.c");
  CHECK_STR(hl_path_normalize(a, "wh", "/home/u"), "/home/u/wh");
  CHECK_STR(hl_path_normalize(a, "./wh/../x/", "/home/u/"), "/home/u/x");
  CHECK_STR(hl_path_normalize(a, "../../..", "/home/u"), "/");
  CHECK_STR(hl_path_normalize(a, "", "/home/u"), "/home/u");
  CHECK_STR(hl_path_normalize(a, ".", "/"), "/");
  CHECK_STR(hl_path_normalize(a, "/abs", "/ignored"), "/abs");
  char cwd[4096];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  CHECK_STR(hl_path_normalize(a, "x/y", NULL),
            hl_arena_sprintf(a, "%s/x/y", strcmp(cwd, "/") ? cwd : ""));

  /* normal paths are those hl_path_normalize leaves as they are */
  CHECK(hl_path_is_normal("/"));
  CHECK(hl_path_is_normal("/a/b"));
  CHECK(hl_path_is_normal("/a/..b/.c/..."));
  CHECK(!hl_path_is_normal(""));
  CHECK(!hl_path_is_normal("a/b"));
  CHECK(!hl_path_is_normal("/a/"));
  CHECK(!hl_path_is_normal("//a"));
  CHECK(!hl_path_is_normal("/a//b"));
  CHECK(!hl_path_is_normal("/a/."));
  CHECK(!hl_path_is_normal("/a/x/.."));
  CHECK(!hl_path_is_normal("/wh/../evil"));
  CHECK(!hl_path_is_normal(NULL));
  /* containment is component-wise */
  CHECK(hl_path_within("/a/b", "/a/b"));
  CHECK(hl_path_within("/a/b/c", "/a/b"));
  CHECK(!hl_path_within("/a/bc", "/a/b"));
  CHECK(!hl_path_within("/a", "/a/b"));
  CHECK(hl_path_within("/a", "/"));
  CHECK(hl_path_within("/", "/"));
  CHECK(hl_path_strictly_inside("/a/b/c", "/a/b"));
  CHECK(!hl_path_strictly_inside("/a/b", "/a/b"));
  CHECK(!hl_path_strictly_inside("/a/bc", "/a/b"));
  CHECK(hl_path_strictly_inside("/a", "/"));
  CHECK(!hl_path_strictly_inside("/", "/"));
  hl_arena_destroy(a);
}

/* mode_group / set_mode_group: bits and group copied, nothing changed
 * that already matches (ctime stays). */
TEST(mode_group_ops) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  mkdir(p(a, "perm"), 0777);
  chmod(p(a, "perm"), 02750);
  uint32_t mode = 0;
  int64_t gid = -2;
  CHECK_INT(fs->ops->mode_group(fs, p(a, "perm"), &mode, &gid, &err), HL_OK);
  CHECK_INT(mode, 02750);
  CHECK_INT(gid, (int64_t)getegid());
  write_file(p(a, "perm/f"), "x");
  CHECK_INT(fs->ops->set_mode_group(fs, p(a, "perm/f"), mode & 0666, gid, &err), HL_OK);
  CHECK_INT(mode_of(p(a, "perm/f")), 0640);
  struct stat before, after;
  CHECK(stat(p(a, "perm/f"), &before) == 0);
  usleep(20000);
  CHECK_INT(fs->ops->set_mode_group(fs, p(a, "perm/f"), 0640, -1, &err), HL_OK);
  CHECK(stat(p(a, "perm/f"), &after) == 0);
  CHECK_INT(after.st_ctim.tv_nsec, before.st_ctim.tv_nsec); /* nothing to change: untouched */
  CHECK_INT(fs->ops->set_mode_group(fs, p(a, "perm/none"), 0640, -1, &err), HL_NOTFOUND);
  CHECK_STR(err.sqlstate, "58P01");
  hl_err_clear(&err);
  CHECK_INT(fs->ops->mode_group(fs, p(a, "perm/none"), &mode, &gid, &err), HL_NOTFOUND);
  hl_err_clear(&err);
  CHECK_INT(fs->ops->sync_fs(fs, p(a, "perm"), &err), HL_OK);
  CHECK_INT(fs->ops->rename_nosync(fs, p(a, "perm/f"), p(a, "perm/g"), &err), HL_OK);
  write_file(p(a, "perm/f"), "y");
  CHECK_INT(fs->ops->rename_nosync(fs, p(a, "perm/f"), p(a, "perm/g"), &err), HL_CONSTRAINT);
  hl_err_clear(&err);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "perm"), &err), HL_OK);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

/* lock_try: shared locks coexist, exclusive excludes both ways, also within
 * one process; unlock frees; a missing directory is HL_NOTFOUND. */
TEST(locks) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  const char *path = p(a, "t.lock");
  hl_stor_lock_t *s1 = NULL, *s2 = NULL, *x = NULL;
  bool unlockable = true;
  CHECK_INT(fs->ops->lock_try(fs, path, false, &s1, &unlockable, &err), HL_OK);
  CHECK(s1 != NULL);
  CHECK(!unlockable);
  CHECK_INT(fs->ops->lock_try(fs, path, false, &s2, &unlockable, &err), HL_OK);
  CHECK(s2 != NULL);
  CHECK_INT(fs->ops->lock_try(fs, path, true, &x, &unlockable, &err), HL_OK);
  CHECK(x == NULL); /* readers hold it */
  fs->ops->unlock(fs, s1);
  CHECK_INT(fs->ops->lock_try(fs, path, true, &x, &unlockable, &err), HL_OK);
  CHECK(x == NULL);
  fs->ops->unlock(fs, s2);
  CHECK_INT(fs->ops->lock_try(fs, path, true, &x, &unlockable, &err), HL_OK);
  CHECK(x != NULL);
  CHECK_INT(fs->ops->lock_try(fs, path, false, &s1, &unlockable, &err), HL_OK);
  CHECK(s1 == NULL); /* a writer holds it */
  fs->ops->unlock(fs, x);
  fs->ops->unlock(fs, NULL);
  CHECK_INT(fs->ops->lock_try(fs, p(a, "nodir/t.lock"), false, &s1, &unlockable, &err),
            HL_NOTFOUND);
  hl_err_clear(&err);
  CHECK_INT(fs->ops->remove(fs, path, &err), HL_OK);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

/* The batch decorator: files written through it read back, their sync is
 * deferred, rename is exclusive, reads dispatch to the inner backend. */
TEST(batch) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_stor_t *b = hl_stor_batch_create(fs);
  hl_error_t err;
  hl_err_init(&err);
  CHECK(b != NULL);
  hl_stor_file_t *f = NULL;
  CHECK_INT(b->ops->create(b, p(a, "bf"), &f, &err), HL_OK);
  CHECK_INT(b->ops->append(f, "hello", 5, &err), HL_OK);
  CHECK_INT(b->ops->sync(f, &err), HL_OK);
  CHECK_INT(b->ops->file_size(f), 5);
  CHECK_INT(b->ops->close(f, &err), HL_OK);
  CHECK_INT(b->ops->create(b, p(a, "bf"), &f, &err), HL_CONSTRAINT);
  hl_err_clear(&err);
  CHECK_INT(hl_stor_copy(b, p(a, "bf"), p(a, "bf2"), &err), HL_OK);
  CHECK_INT(b->ops->rename(b, p(a, "bf2"), p(a, "bf3"), &err), HL_OK);
  CHECK_INT(b->ops->rename(b, p(a, "bf3"), p(a, "bf"), &err), HL_CONSTRAINT);
  hl_err_clear(&err);
  char *data = NULL;
  size_t len = 0;
  CHECK_INT(hl_stor_read_all(b, p(a, "bf3"), a, 100, &data, &len, &err), HL_OK);
  CHECK_INT(len, 5);
  if (data) CHECK(memcmp(data, "hello", 5) == 0);
  CHECK_INT(b->ops->sync_fs(b, root, &err), HL_OK);
  b->ops->remove(b, p(a, "bf"), &err);
  b->ops->remove(b, p(a, "bf3"), &err);
  b->ops->destroy(b);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

TEST(oom) {
  /* Failing each allocation in turn yields HL_NOMEM or success, no leak. */
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(fs->ops->mkdirs(fs, p(a, "o/d"), &err), HL_OK);
  write_file(p(a, "o/d/f"), "data");
  const char *dir = p(a, "o/d"), *file = p(a, "o/d/f"), *copy = p(a, "o/copy");
  int saw_nomem = 0;
  for (long n = 1; n < 40; n++) {
    hl_arena_t *scratch = hl_arena_create(0);
    hl_stor_entry_t *e;
    size_t count;
    char *data;
    size_t len;
    hl_mem_fail_after(n);
    hl_status_t r1 = fs->ops->list(fs, dir, scratch, &e, &count, &err);
    hl_err_clear(&err);
    hl_status_t r2 = hl_stor_read_all(fs, file, scratch, 100, &data, &len, &err);
    hl_err_clear(&err);
    hl_status_t r3 = hl_stor_copy(fs, file, copy, &err);
    hl_err_clear(&err);
    hl_status_t r4 = fs->ops->remove_tree(fs, copy, &err);
    hl_err_clear(&err);
    hl_mem_fail_after(0);
    CHECK(r1 == HL_OK || r1 == HL_NOMEM);
    CHECK(r2 == HL_OK || r2 == HL_NOMEM);
    CHECK(r3 == HL_OK || r3 == HL_NOMEM);
    CHECK(r4 == HL_OK || r4 == HL_NOMEM);
    saw_nomem |= r1 == HL_NOMEM || r2 == HL_NOMEM || r3 == HL_NOMEM;
    fs->ops->remove(fs, copy, &err);
    hl_arena_destroy(scratch);
  }
  CHECK(saw_nomem);
  CHECK_INT(fs->ops->remove_tree(fs, p(a, "o"), &err), HL_OK);
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

int main(void) {
  (void)test_fixtures_dir; /* the harness helper is not needed here */
  make_root();
  RUN(stat_ops);
  RUN(list_sorted);
  RUN(read_write);
  RUN(large_file);
  RUN(rename_noreplace);
  RUN(remove_ops);
  RUN(mkdirs);
  RUN(remove_tree_no_follow);
  RUN(real_path_links);
  RUN(paths);
  RUN(mode_group_ops);
  RUN(locks);
  RUN(batch);
  RUN(oom);
  /* Everything above cleaned up after itself: the root must be empty. */
  if (rmdir(root) != 0) {
    fprintf(stderr, "temporary directory %s not empty: %s\n", root, strerror(errno));
    return 1;
  }
  return test_report();
}
