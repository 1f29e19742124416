/*
 * stor_local.c -- the local POSIX backend of the file-system interface
 * (stor.h).
 *
 * Format readers, catalog repair and the write path reach local files
 * through this ops table only.  It is stateless apart from the open file
 * handles, so one hl_stor_t may be shared by several threads.
 * Invariants: nothing here changes the permissions of an existing file or
 * directory on its own (new ones get 0666/0777 masked by the umask, as any
 * tool would; set_mode_group is for paths the caller just created);
 * symbolic links are followed for reading and listing, never for removal;
 * every failure names the path and the system's reason:
 *   could not open file "/x/y": Permission denied
 * ENOENT maps to HL_NOTFOUND / 58P01, an existing target of an exclusive
 * operation (create, rename) to HL_CONSTRAINT / 58P02, ENOSPC/EDQUOT to HL_IOERR / 53100 and
 * everything else to HL_IOERR / 58030.
 */
#include "storage/stor.h"

#include "util/mem.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef struct local_file {
  hl_stor_file_t base; /* first, so hl_stor_file_t * casts back */
  int fd;
  bool writable; /* opened by create */
  uint64_t size; /* size at open (read) or bytes appended (write) */
  char *path;    /* heap copy, for messages */
} local_file_t;

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

/* Fills ERR for errno value ERRNUM: "<what> "<path>": <strerror>". */
static hl_status_t sys_error(hl_error_t *err, int errnum, const char *what, const char *path) {
  char reason[256];
  /* GNU strerror_r returns the message, which may or may not be REASON. */
  const char *msg = strerror_r(errnum, reason, sizeof reason);
  switch (errnum) {
  case ENOENT:
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE), "%s \"%s\": %s", what, path, msg);
  case EEXIST:
    return hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_FILE), "%s \"%s\": %s", what, path, msg);
  case ENOSPC:
  case EDQUOT:
    return hl_err_set(err, HL_IOERR, HL_SS(DISK_FULL), "%s \"%s\": %s", what, path, msg);
  case ENOMEM:
    return hl_err_nomem(err);
  default:
    return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "%s \"%s\": %s", what, path, msg);
  }
}

static int64_t stat_mtime_ns(const struct stat *sb) {
  return (int64_t)sb->st_mtim.tv_sec * 1000000000 + (int64_t)sb->st_mtim.tv_nsec;
}

/* Syncs directory DIR so that a rename or create inside it is durable.
 * Some file systems refuse fsync on a directory (EINVAL); that is fine. */
static hl_status_t sync_dir(const char *dir, hl_error_t *err) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return sys_error(err, errno, "could not open directory", dir);
  int rc;
  do {
    rc = fsync(fd);
  } while (rc < 0 && errno == EINTR);
  int saved = errno;
  close(fd);
  if (rc < 0 && saved != EINVAL && saved != EROFS)
    return sys_error(err, saved, "could not fsync directory", dir);
  return HL_OK;
}

/* Syncs the directory that contains PATH. */
static hl_status_t sync_parent(const char *path, hl_error_t *err) {
  const char *slash = strrchr(path, '/');
  if (!slash) return sync_dir(".", err);
  if (slash == path) return sync_dir("/", err);
  char *dir = hl_strndup(path, (size_t)(slash - path));
  if (!dir) return hl_err_nomem(err);
  hl_status_t rc = sync_dir(dir, err);
  hl_free(dir);
  return rc;
}

/* ------------------------------------------------------------------------
 * Metadata: stat, list
 * ------------------------------------------------------------------------ */

static hl_status_t local_stat(hl_stor_t *fs, const char *path, hl_stor_stat_t *st,
                              hl_error_t *err) {
  struct stat sb;
  memset(st, 0, sizeof *st);
  if (stat(path, &sb) < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return HL_OK; /* exists = false */
    return sys_error(err, errno, "could not stat file", path);
  }
  st->exists = true;
  st->is_dir = S_ISDIR(sb.st_mode);
  st->size = st->is_dir ? 0 : (uint64_t)sb.st_size;
  st->mtime_ns = stat_mtime_ns(&sb);
  return HL_OK;
}

static int compare_entries(const void *a, const void *b) {
  return strcmp(((const hl_stor_entry_t *)a)->name, ((const hl_stor_entry_t *)b)->name);
}

static hl_status_t local_list(hl_stor_t *fs, const char *path, hl_arena_t *arena,
                              hl_stor_entry_t **out, size_t *n_out, hl_error_t *err) {
  *out = NULL;
  *n_out = 0;
  DIR *dir = opendir(path);
  if (!dir) return sys_error(err, errno, "could not open directory", path);
  hl_status_t rc = HL_OK;
  hl_stor_entry_t *entries = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    errno = 0;
    struct dirent *de = readdir(dir);
    if (!de) {
      if (errno != 0) rc = sys_error(err, errno, "could not read directory", path);
      break;
    }
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    struct stat sb;
    if (fstatat(dirfd(dir), de->d_name, &sb, 0) < 0) {
      /* Removed since readdir, or a dangling symlink: not a usable entry. */
      if (errno == ENOENT) continue;
      rc = sys_error(err, errno, "could not stat file in directory", path);
      break;
    }
    if (n == cap) {
      size_t new_cap = cap ? cap * 2 : 16;
      hl_stor_entry_t *grown =
          hl_arena_realloc(arena, entries, cap * sizeof *entries, new_cap * sizeof *entries);
      if (!grown) {
        rc = hl_err_nomem(err);
        break;
      }
      entries = grown;
      cap = new_cap;
    }
    hl_stor_entry_t *e = &entries[n];
    /* The name goes in after the array grew, so the array stays the last
     * allocation as often as possible and grows in place. */
    e->name = hl_arena_strdup(arena, de->d_name);
    if (!e->name) {
      rc = hl_err_nomem(err);
      break;
    }
    e->is_dir = S_ISDIR(sb.st_mode);
    /* d_type saves a second stat on the file systems that fill it */
    struct stat lsb;
    e->is_link =
        de->d_type == DT_LNK ||
        (de->d_type == DT_UNKNOWN &&
         fstatat(dirfd(dir), de->d_name, &lsb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lsb.st_mode));
    e->size = e->is_dir ? 0 : (uint64_t)sb.st_size;
    e->mtime_ns = stat_mtime_ns(&sb);
    n++;
  }
  closedir(dir);
  if (rc != HL_OK) return rc;
  if (n > 1) qsort(entries, n, sizeof *entries, compare_entries);
  *out = entries;
  *n_out = n;
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * Files: open_read, read_at, file_size, create, append, sync, close
 * ------------------------------------------------------------------------ */

static hl_status_t file_new(hl_stor_t *fs, const char *path, int fd, bool writable, uint64_t size,
                            hl_stor_file_t **out, hl_error_t *err) {
  local_file_t *f = hl_calloc(1, sizeof *f);
  char *copy = hl_strdup(path);
  if (!f || !copy) {
    hl_free(f);
    hl_free(copy);
    close(fd);
    return hl_err_nomem(err);
  }
  f->base.fs = fs;
  f->fd = fd;
  f->writable = writable;
  f->size = size;
  f->path = copy;
  *out = &f->base;
  return HL_OK;
}

static hl_status_t local_open_read(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                                   hl_error_t *err) {
  *out = NULL;
  int fd;
  do {
    fd = open(path, O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return sys_error(err, errno, "could not open file", path);
  struct stat sb;
  if (fstat(fd, &sb) < 0) {
    int saved = errno;
    close(fd);
    return sys_error(err, saved, "could not stat file", path);
  }
  if (S_ISDIR(sb.st_mode)) {
    close(fd);
    return sys_error(err, EISDIR, "could not open file", path);
  }
  return file_new(fs, path, fd, false, (uint64_t)sb.st_size, out, err);
}

static hl_status_t local_read_at(hl_stor_file_t *file, uint64_t offset, void *buf, size_t len,
                                 size_t *got, hl_error_t *err) {
  local_file_t *f = (local_file_t *)file;
  *got = 0;
  size_t done = 0;
  while (done < len) {
    uint64_t pos;
    if (__builtin_add_overflow(offset, (uint64_t)done, &pos) || pos > (uint64_t)INT64_MAX)
      return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR),
                        "could not read file \"%s\": offset %llu is out of range", f->path,
                        (unsigned long long)offset);
    ssize_t n = pread(f->fd, (char *)buf + done, len - done, (off_t)pos);
    if (n < 0) {
      if (errno == EINTR) continue;
      return sys_error(err, errno, "could not read file", f->path);
    }
    if (n == 0) break; /* end of file */
    done += (size_t)n;
  }
  *got = done;
  return HL_OK;
}

static uint64_t local_file_size(hl_stor_file_t *file) {
  return ((local_file_t *)file)->size;
}

static hl_status_t local_create(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                                hl_error_t *err) {
  *out = NULL;
  int fd;
  do {
    /* 0666 is masked by the umask: new files get the user's usual mode. */
    /* O_EXCL already refuses a symbolic link in the last component;
     * O_NOFOLLOW says so where O_EXCL's guarantee is not relied on */
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return sys_error(err, errno, "could not create file", path);
  return file_new(fs, path, fd, true, 0, out, err);
}

static hl_status_t local_append(hl_stor_file_t *file, const void *buf, size_t len,
                                hl_error_t *err) {
  local_file_t *f = (local_file_t *)file;
  if (!f->writable)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "could not write to file \"%s\": file is open for reading", f->path);
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(f->fd, (const char *)buf + done, len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return sys_error(err, errno, "could not write to file", f->path);
    }
    done += (size_t)n;
    f->size += (uint64_t)n;
  }
  return HL_OK;
}

static hl_status_t local_sync(hl_stor_file_t *file, hl_error_t *err) {
  local_file_t *f = (local_file_t *)file;
  int rc;
  do {
    rc = fsync(f->fd);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) return sys_error(err, errno, "could not fsync file", f->path);
  return HL_OK;
}

static hl_status_t local_close(hl_stor_file_t *file, hl_error_t *err) {
  if (!file) return HL_OK;
  local_file_t *f = (local_file_t *)file;
  hl_status_t rc = HL_OK;
  /* close() is not retried on EINTR: on Linux the descriptor is gone. */
  if (close(f->fd) < 0 && f->writable) rc = sys_error(err, errno, "could not close file", f->path);
  hl_free(f->path);
  hl_free(f);
  return rc;
}

/* ------------------------------------------------------------------------
 * Namespace: rename, remove, mkdirs, rmdir, remove_tree
 * ------------------------------------------------------------------------ */

static hl_status_t rename_error(hl_error_t *err, int errnum, const char *from, const char *to) {
  char reason[256];
  const char *msg = strerror_r(errnum, reason, sizeof reason);
  hl_status_t code = HL_IOERR;
  const char *state = HL_SS(IO_ERROR);
  if (errnum == ENOENT) {
    code = HL_NOTFOUND;
    state = HL_SS(UNDEFINED_FILE);
  } else if (errnum == EEXIST || errnum == ENOTEMPTY) {
    code = HL_CONSTRAINT;
    state = HL_SS(DUPLICATE_FILE);
  } else if (errnum == ENOSPC || errnum == EDQUOT) {
    state = HL_SS(DISK_FULL);
  }
  return hl_err_set(err, code, state, "could not rename \"%s\" to \"%s\": %s", from, to, msg);
}

/* Fallback for file systems without RENAME_NOREPLACE. */
static int rename_noreplace_fallback(const char *from, const char *to) {
  struct stat sb;
  if (lstat(from, &sb) < 0) return -1;
  if (!S_ISDIR(sb.st_mode)) {
    /* link() fails with EEXIST atomically; the source is removed after. */
    if (link(from, to) == 0) {
      if (unlink(from) == 0) return 0;
      int saved = errno;
      unlink(to);
      errno = saved;
      return -1;
    }
    if (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK) return -1;
  }
  /* Directories (and files on file systems without hard links): check, then
   * rename.  A racing creator of TO could slip in between; writers stage
   * under unique names, so the window only matters for concurrent commits
   * of the same target, which the catalog's locks already serialise. */
  if (lstat(to, &sb) == 0) {
    errno = EEXIST;
    return -1;
  }
  if (errno != ENOENT) return -1;
  return rename(from, to);
}

static hl_status_t local_rename_nosync(hl_stor_t *fs, const char *from, const char *to,
                                       hl_error_t *err) {
  int rc = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
  if (rc < 0 && (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP))
    rc = rename_noreplace_fallback(from, to);
  if (rc < 0) return rename_error(err, errno, from, to);
  return HL_OK;
}

static hl_status_t local_rename(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err) {
  hl_status_t st = local_rename_nosync(fs, from, to, err);
  if (st != HL_OK) return st;
  /* A committed rename must survive a crash: sync the directories. */
  st = sync_parent(to, err);
  if (st != HL_OK) return st;
  const char *from_slash = strrchr(from, '/'), *to_slash = strrchr(to, '/');
  size_t from_dir = from_slash ? (size_t)(from_slash - from) : 0;
  size_t to_dir = to_slash ? (size_t)(to_slash - to) : 0;
  if (from_dir != to_dir || strncmp(from, to, from_dir) != 0) return sync_parent(from, err);
  return HL_OK;
}

static hl_status_t local_remove(hl_stor_t *fs, const char *path, hl_error_t *err) {
  if (unlink(path) < 0 && errno != ENOENT)
    return sys_error(err, errno, "could not remove file", path);
  return HL_OK;
}

/* mkdir -p for PATH (a heap copy the walk may cut): the deepest missing
 * directory is found by trying mkdir from the end, so a path whose parent
 * exists costs one call, not one per component.  Existing directories are
 * left as they are; new ones get 0777 & ~umask. */
static hl_status_t make_dirs(char *path, hl_error_t *err) {
  if (mkdir(path, 0777) == 0) return HL_OK;
  int e = errno;
  struct stat sb;
  if (e == EEXIST) {
    if (stat(path, &sb) < 0) return sys_error(err, errno, "could not stat file", path);
    if (!S_ISDIR(sb.st_mode)) return sys_error(err, ENOTDIR, "could not create directory", path);
    return HL_OK;
  }
  char *slash = strrchr(path, '/');
  /* ENOTDIR: a file somewhere above; the walk up names it */
  if ((e != ENOENT && e != ENOTDIR) || !slash || slash == path)
    return sys_error(err, e, "could not create directory", path);
  *slash = '\0';
  hl_status_t rc = make_dirs(path, err);
  *slash = '/';
  if (rc != HL_OK) return rc;
  if (mkdir(path, 0777) == 0) return HL_OK;
  e = errno;
  if (e == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) return HL_OK; /* a racer */
  return sys_error(err, e == EEXIST ? ENOTDIR : e, "could not create directory", path);
}

static hl_status_t local_mkdirs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  struct stat sb;
  if (stat(path, &sb) == 0) {
    if (S_ISDIR(sb.st_mode)) return HL_OK;
    return sys_error(err, ENOTDIR, "could not create directory", path);
  }
  char *buf = hl_strdup(path);
  if (!buf) return hl_err_nomem(err);
  size_t len = strlen(buf); /* "a/b/" -> "a/b" */
  while (len > 1 && buf[len - 1] == '/')
    buf[--len] = '\0';
  hl_status_t rc = make_dirs(buf, err);
  hl_free(buf);
  return rc;
}

static hl_status_t local_rmdir(hl_stor_t *fs, const char *path, hl_error_t *err) {
  if (rmdir(path) < 0 && errno != ENOENT)
    return sys_error(err, errno, "could not remove directory", path);
  return HL_OK;
}

/* Empties the directory open as DFD (whose path is PATH, for messages) and
 * closes DFD.  Symbolic links are removed, never followed: entries are
 * examined with AT_SYMLINK_NOFOLLOW and subdirectories opened with
 * O_NOFOLLOW relative to their parent's descriptor.  The names are read
 * first and the directory closed for reading before anything is removed, so
 * readdir never sees a directory changing under it; one descriptor per
 * level stays open while descending. */
static hl_status_t empty_dir(int dfd, const char *path, hl_error_t *err) {
  hl_buf_t names; /* NUL-separated entry names */
  hl_buf_init(&names);
  hl_status_t rc = HL_OK;
  int list_fd = dup(dfd);
  DIR *dir = list_fd >= 0 ? fdopendir(list_fd) : NULL;
  if (!dir) {
    if (list_fd >= 0) close(list_fd);
    rc = sys_error(err, errno, "could not open directory", path);
    goto done;
  }
  for (;;) {
    errno = 0;
    struct dirent *de = readdir(dir);
    if (!de) {
      if (errno != 0) rc = sys_error(err, errno, "could not read directory", path);
      break;
    }
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    hl_buf_append(&names, de->d_name, strlen(de->d_name) + 1);
  }
  closedir(dir);
  if (rc != HL_OK) goto done;
  if (names.oom) {
    rc = hl_err_nomem(err);
    goto done;
  }
  for (size_t off = 0; off < names.len && rc == HL_OK;) {
    const char *name = names.data + off;
    off += strlen(name) + 1;
    char *child = hl_malloc(strlen(path) + strlen(name) + 2);
    if (!child) {
      rc = hl_err_nomem(err);
      break;
    }
    sprintf(child, "%s/%s", path, name);
    struct stat sb;
    if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
      if (errno != ENOENT) rc = sys_error(err, errno, "could not stat file", child);
    } else if (S_ISDIR(sb.st_mode)) {
      int cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (cfd < 0) {
        if (errno != ENOENT) rc = sys_error(err, errno, "could not open directory", child);
      } else {
        rc = empty_dir(cfd, child, err);
        if (rc == HL_OK && unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
          rc = sys_error(err, errno, "could not remove directory", child);
      }
    } else if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT) {
      rc = sys_error(err, errno, "could not remove file", child);
    }
    hl_free(child);
  }
done:
  hl_buf_fini(&names);
  close(dfd);
  return rc;
}

static hl_status_t local_remove_tree(hl_stor_t *fs, const char *path, hl_error_t *err) {
  struct stat sb;
  if (lstat(path, &sb) < 0) {
    if (errno == ENOENT) return HL_OK;
    return sys_error(err, errno, "could not stat file", path);
  }
  if (!S_ISDIR(sb.st_mode)) return local_remove(fs, path, err);
  int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) {
    if (errno == ENOENT) return HL_OK;
    return sys_error(err, errno, "could not open directory", path);
  }
  hl_status_t rc = empty_dir(dfd, path, err);
  if (rc != HL_OK) return rc;
  return local_rmdir(fs, path, err);
}

/* ------------------------------------------------------------------------
 * Permissions, batched durability, locks
 * ------------------------------------------------------------------------ */

static hl_status_t local_mode_group(hl_stor_t *fs, const char *path, uint32_t *mode, int64_t *gid,
                                    hl_error_t *err) {
  struct stat sb;
  if (stat(path, &sb) < 0) return sys_error(err, errno, "could not stat file", path);
  *mode = (uint32_t)(sb.st_mode & 07777);
  *gid = (int64_t)sb.st_gid;
  return HL_OK;
}

static hl_status_t local_set_mode_group(hl_stor_t *fs, const char *path, uint32_t mode, int64_t gid,
                                        hl_error_t *err) {
  struct stat sb;
  if (stat(path, &sb) < 0) return sys_error(err, errno, "could not stat file", path);
  /* the group first: chown may clear the setgid bit, chmod then sets it */
  if (gid >= 0 && (gid_t)gid != sb.st_gid && chown(path, (uid_t)-1, (gid_t)gid) < 0 &&
      errno != EPERM)
    return sys_error(err, errno, "could not change the group of file", path);
  if ((sb.st_mode & 07777) != (mode & 07777) && chmod(path, (mode_t)(mode & 07777)) < 0)
    return sys_error(err, errno, "could not change the mode of file", path);
  return HL_OK;
}

static hl_status_t local_sync_fs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return sys_error(err, errno, "could not open file", path);
  int rc = syncfs(fd);
  int saved = errno;
  close(fd);
  if (rc < 0) return sys_error(err, saved, "could not sync the file system of", path);
  return HL_OK;
}

struct hl_stor_lock {
  int fd;
};

/* Open file description locks (F_OFD_SETLK) on byte 0: unlike POSIX record
 * locks they belong to the open file, not the process, so two locks taken
 * by one process conflict as two processes' would, and closing another
 * descriptor of the file does not drop them. */
static hl_status_t local_lock_try(hl_stor_t *fs, const char *path, bool exclusive,
                                  hl_stor_lock_t **out, bool *unlockable, hl_error_t *err) {
  *out = NULL;
  *unlockable = false;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0 && !exclusive && (errno == EACCES || errno == EROFS || errno == EPERM)) {
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && (errno == ENOENT || errno == EACCES)) {
      *unlockable = true;
      return HL_OK;
    }
  }
  if (fd < 0) return sys_error(err, errno, "could not open lock file", path);
  struct flock fl = {.l_type = exclusive ? F_WRLCK : F_RDLCK, .l_whence = SEEK_SET, .l_len = 1};
  int rc;
  do {
    rc = fcntl(fd, F_OFD_SETLK, &fl);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    int saved = errno;
    close(fd);
    if (saved == EAGAIN || saved == EACCES) return HL_OK; /* held by another */
    return sys_error(err, saved, "could not lock file", path);
  }
  hl_stor_lock_t *lk = hl_malloc(sizeof *lk);
  if (!lk) {
    close(fd);
    return hl_err_nomem(err);
  }
  lk->fd = fd;
  *out = lk;
  return HL_OK;
}

static void local_unlock(hl_stor_t *fs, hl_stor_lock_t *lock) {
  if (!lock) return;
  close(lock->fd); /* drops the lock */
  hl_free(lock);
}

/* realpath(3) of the deepest existing ancestor of PATH, plus the rest:
 * a location that does not exist yet still resolves the links above it. */
static hl_status_t local_real_path(hl_stor_t *fs, const char *path, hl_arena_t *arena, char **out,
                                   hl_error_t *err) {
  (void)fs;
  *out = NULL;
  size_t len = strlen(path);
  char *head = hl_arena_strdup(arena, path);
  if (!head) return hl_err_nomem(err);
  size_t cut = len; /* head[0..cut) is tried; path[cut..] is the missing tail */
  for (;;) {
    char *real = realpath(cut ? head : "/", NULL);
    if (real) {
      const char *tail = path + cut;
      bool root = strcmp(real, "/") == 0;
      *out = hl_arena_sprintf(arena, "%s%s", root && *tail ? "" : real, tail);
      free(real);
      return *out ? HL_OK : hl_err_nomem(err);
    }
    if (errno != ENOENT && errno != ENOTDIR)
      return sys_error(err, errno, "could not resolve path", path);
    char *slash = cut ? memrchr(head, '/', cut) : NULL;
    if (!slash) return sys_error(err, errno, "could not resolve path", path);
    cut = (size_t)(slash - head);
    *slash = '\0';
  }
}

static void local_destroy(hl_stor_t *fs) {
  hl_free(fs);
}

static const hl_stor_ops_t local_ops = {
    .stat = local_stat,
    .list = local_list,
    .open_read = local_open_read,
    .read_at = local_read_at,
    .file_size = local_file_size,
    .create = local_create,
    .append = local_append,
    .sync = local_sync,
    .close = local_close,
    .rename = local_rename,
    .remove = local_remove,
    .mkdirs = local_mkdirs,
    .rmdir = local_rmdir,
    .remove_tree = local_remove_tree,
    .destroy = local_destroy,
    .mode_group = local_mode_group,
    .set_mode_group = local_set_mode_group,
    .rename_nosync = local_rename_nosync,
    .sync_fs = local_sync_fs,
    .lock_try = local_lock_try,
    .unlock = local_unlock,
    .real_path = local_real_path,
};

hl_stor_t *hl_stor_local_create(void) {
  hl_stor_t *fs = hl_malloc(sizeof *fs);
  if (!fs) return NULL;
  fs->ops = &local_ops;
  return fs;
}
