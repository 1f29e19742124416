/*
 * stor.h -- the file-system interface.
 *
 * Format, catalog-repair and write code reach files only through an
 * hl_stor_t, a table of operations (Postgres smgr / SQLite VFS style) with
 * one backend per kind of storage: local POSIX now (stor_local.c), S3 next.
 * Paths are absolute strings in the backend's syntax ("/data/t/dt=1/f").
 * Every operation fills ERR (SQLSTATE 58030 for I/O, 58P01 for a missing
 * path) on failure.
 */
#ifndef HL_STOR_H
#define HL_STOR_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_stor hl_stor_t;
typedef struct hl_stor_file hl_stor_file_t; /* an open file, read or write */

typedef struct hl_stor_stat {
  bool exists;
  bool is_dir;
  uint64_t size;    /* bytes, files only */
  int64_t mtime_ns; /* modification time, ns since the epoch */
} hl_stor_stat_t;

typedef struct hl_stor_entry {
  char *name; /* base name, in the listing arena */
  bool is_dir;
  uint64_t size;
  int64_t mtime_ns;
} hl_stor_entry_t;

typedef struct hl_stor_ops {
  /* A missing path is not an error: st->exists = false. */
  hl_status_t (*stat)(hl_stor_t *fs, const char *path, hl_stor_stat_t *st, hl_error_t *err);
  /* Entries of directory PATH sorted by name, in ARENA.  Missing dir:
   * HL_NOTFOUND. */
  hl_status_t (*list)(hl_stor_t *fs, const char *path, hl_arena_t *arena, hl_stor_entry_t **out,
                      size_t *n_out, hl_error_t *err);
  hl_status_t (*open_read)(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                           hl_error_t *err);
  /* Reads up to LEN bytes at OFFSET; *got < LEN only at end of file. */
  hl_status_t (*read_at)(hl_stor_file_t *f, uint64_t offset, void *buf, size_t len, size_t *got,
                         hl_error_t *err);
  uint64_t (*file_size)(hl_stor_file_t *f);
  /* Creates a new file for writing; fails if it exists (exclusive). Parent
   * directories must exist. */
  hl_status_t (*create)(hl_stor_t *fs, const char *path, hl_stor_file_t **out, hl_error_t *err);
  hl_status_t (*append)(hl_stor_file_t *f, const void *buf, size_t len, hl_error_t *err);
  /* Flushes written data to stable storage. */
  hl_status_t (*sync)(hl_stor_file_t *f, hl_error_t *err);
  /* Closes (write files: returns the close error). NULL is a no-op. */
  hl_status_t (*close)(hl_stor_file_t *f, hl_error_t *err);
  /* Renames FROM to TO atomically; fails if TO exists. */
  hl_status_t (*rename)(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err);
  /* Removes a file; a missing file is not an error. */
  hl_status_t (*remove)(hl_stor_t *fs, const char *path, hl_error_t *err);
  /* Creates PATH and missing parents; existing dirs are fine and are left
   * untouched (never re-permissioned). */
  hl_status_t (*mkdirs)(hl_stor_t *fs, const char *path, hl_error_t *err);
  /* Removes an empty directory; missing is not an error. */
  hl_status_t (*rmdir)(hl_stor_t *fs, const char *path, hl_error_t *err);
  /* Removes PATH recursively (file or directory); missing is fine. */
  hl_status_t (*remove_tree)(hl_stor_t *fs, const char *path, hl_error_t *err);
  void (*destroy)(hl_stor_t *fs);
} hl_stor_ops_t;

struct hl_stor {
  const hl_stor_ops_t *ops;
};

struct hl_stor_file {
  hl_stor_t *fs;
};

/* The local POSIX backend.  Caller destroys with fs->ops->destroy(fs). */
hl_stor_t *hl_stor_local_create(void);

/* Convenience: reads a whole file (up to MAX_BYTES, else 54000 error) into
 * ARENA.  */
hl_status_t hl_stor_read_all(hl_stor_t *fs, const char *path, hl_arena_t *arena, size_t max_bytes,
                             char **data, size_t *len, hl_error_t *err);
/* Copies file FROM to new file TO (exclusive create). */
hl_status_t hl_stor_copy(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err);
/* Joins directory and name with one '/'.  In ARENA; NULL on OOM. */
char *hl_path_join(hl_arena_t *arena, const char *dir, const char *name);
/* Normalises a local path: makes it absolute against CWD (may be NULL for
 * the process's cwd), removes "." segments, ".." segments and doubled or
 * trailing slashes.  In ARENA; NULL on OOM. */
char *hl_path_normalize(hl_arena_t *arena, const char *path, const char *cwd);

#endif
