/*
 * stor.h -- the file-system interface.
 *
 * Format, catalog-repair and write code reach files only through an
 * hl_stor_t, a table of operations (Postgres smgr / SQLite VFS style) with
 * one backend per kind of storage: local POSIX (stor_local.c) and S3
 * (s3/stor_s3.c), behind a router by path (stor_route.c).  Paths are
 * absolute strings in the backend's syntax ("/data/t/dt=1/f",
 * "s3://bucket/t/dt=1/f").
 * Every operation fills ERR (SQLSTATE 58030 for I/O, 58P01 for a missing
 * path) on failure.
 */
#ifndef HL_STOR_H
#define HL_STOR_H

#include "util/arena.h"
#include "util/error.h"
#include "util/uri.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_stor hl_stor_t;
typedef struct hl_stor_file hl_stor_file_t; /* an open file, read or write */
typedef struct hl_stor_lock hl_stor_lock_t; /* a held lock (lock_try) */

typedef struct hl_stor_stat {
  bool exists;
  bool is_dir;
  uint64_t size;    /* bytes, files only */
  int64_t mtime_ns; /* modification time, ns since the epoch */
} hl_stor_stat_t;

typedef struct hl_stor_entry {
  char *name; /* base name, in the listing arena */
  bool is_dir;
  bool is_link; /* the entry itself is a symbolic link (is_dir, size: its target's) */
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
  hl_status_t (*open_read)(hl_stor_t *fs, const char *path, hl_stor_file_t **out, hl_error_t *err);
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

  /* ---- Added for the write path (issue 5).  Every op below may be NULL
   * in a backend that has no such notion (object stores); callers check. */

  /* The permission bits (07777) and group of PATH (OUT), following links. */
  hl_status_t (*mode_group)(hl_stor_t *fs, const char *path, uint32_t *mode, int64_t *gid,
                            hl_error_t *err);
  /* Gives PATH -- a file or directory the caller itself created -- the
   * permission bits MODE and the group GID (-1: leave the group).  Nothing
   * is changed that already matches.  A process that may not give away the
   * group (EPERM: not root and not a member of GID) keeps its own group;
   * that is not an error. */
  hl_status_t (*set_mode_group)(hl_stor_t *fs, const char *path, uint32_t mode, int64_t gid,
                                hl_error_t *err);
  /* Like rename, but not made durable here: the caller makes a batch of
   * renames (and file writes) durable with one sync_fs. */
  hl_status_t (*rename_nosync)(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err);
  /* Makes durable every write, create, rename and remove already done on
   * the file system that holds PATH (local: syncfs(2)). */
  hl_status_t (*sync_fs)(hl_stor_t *fs, const char *path, hl_error_t *err);
  /* One attempt at a shared (EXCLUSIVE false) or exclusive lock on the
   * lock file PATH, which is created if missing (its directory must
   * exist).  *out (OUT) is the held lock, or NULL when another holder
   * conflicts.  Locks of one process conflict too (one lock per call), and
   * the system releases them when the process dies.  A shared lock on a
   * file that is missing and cannot be created (read-only or foreign
   * directory) is granted as *out = NULL with *unlockable = true. */
  hl_status_t (*lock_try)(hl_stor_t *fs, const char *path, bool exclusive, hl_stor_lock_t **out,
                          bool *unlockable, hl_error_t *err);
  /* Releases LOCK (NULL is a no-op). */
  void (*unlock)(hl_stor_t *fs, hl_stor_lock_t *lock);
  /* The normal path PATH with every symbolic link resolved (realpath(3)),
   * in ARENA; a missing tail (a table directory not created yet) is kept
   * as written after its deepest existing ancestor is resolved.  NULL op:
   * the backend has no links (object stores). */
  hl_status_t (*real_path)(hl_stor_t *fs, const char *path, hl_arena_t *arena, char **out,
                           hl_error_t *err);

  /* ---- Object stores (issue 15: S3).  NULL in file systems; callers
   * check.  An object store has no rename and no directories: a
   * "directory" is a key prefix that exists while an object lies under
   * it, mkdirs and rmdir do nothing, and a write becomes visible as a
   * whole object at once. */

  /* True when PATH lies on an object store (txn/ then writes pending
   * objects instead of staging and renaming). */
  bool (*object_store)(hl_stor_t *fs, const char *path);
  /* Like create, but the object stays invisible to every reader (a
   * pending multipart upload) until publish_pending; close uploads the
   * rest of its bytes and keeps it pending.  The name is the final one. */
  hl_status_t (*create_pending)(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                                hl_error_t *err);
  /* Makes the closed pending object PATH visible (completes the upload),
   * refusing to replace an existing object where the store can tell. */
  hl_status_t (*publish_pending)(hl_stor_t *fs, const char *path, hl_error_t *err);
  /* publish_pending of N objects, as many at once as the store allows; on
   * an error some may be published and others not (a rollback sorts
   * them out: it deletes the write's published files). */
  hl_status_t (*publish_pending_many)(hl_stor_t *fs, char *const *paths, size_t n, hl_error_t *err);
  /* Drops pending object PATH (closed or not, published or not: a
   * published one is not removed here).  Best effort. */
  void (*abort_pending)(hl_stor_t *fs, const char *path);
  /* Aborts every pending object anywhere under DIR whose base name starts
   * with NAME_PREFIX: recovery's sweep for the uploads of a dead writer
   * (whose file names all start with its query id). */
  hl_status_t (*abort_pending_under)(hl_stor_t *fs, const char *dir, const char *name_prefix,
                                     hl_error_t *err);
  /* Tells the backend which byte ranges of F the caller reads next
   * (Parquet column chunks of a row group): it fetches them, coalesced
   * and in parallel, so that the read_at calls that follow are served
   * from memory.  Ranges past the end are clipped. */
  hl_status_t (*prefetch)(hl_stor_file_t *f, const uint64_t *offsets, const uint64_t *lens,
                          size_t n, hl_error_t *err);
  /* Removes the N files PATHS (missing ones are fine) in as few requests
   * as the store allows. */
  hl_status_t (*remove_many)(hl_stor_t *fs, char *const *paths, size_t n, hl_error_t *err);
} hl_stor_ops_t;

struct hl_stor {
  const hl_stor_ops_t *ops;
};

struct hl_stor_file {
  hl_stor_t *fs;
};

/* The local POSIX backend.  Caller destroys with fs->ops->destroy(fs). */
hl_stor_t *hl_stor_local_create(void);

/* Paths on object stores are URIs "s3://bucket/key/parts" (also s3a://
 * and s3n://, as Hive and Spark write them; the scheme is kept as
 * given): util/uri.h hl_uri_object_root tells them. */

/* A backend that sends every path to LOCAL or, for object-store URIs
 * (hl_uri_object_root), to OBJECTS (may be NULL: such paths fail with
 * 0A000).  Takes ownership of both; destroy destroys them. */
hl_stor_t *hl_stor_route_create(hl_stor_t *local, hl_stor_t *objects);

/* A decorator over INNER (borrowed, must outlive it) for writers that batch
 * their durability: files created through it ignore sync (the writer
 * calls sync_fs once for the whole batch instead) and rename is
 * rename_nosync.  Everything else is forwarded.  Destroy with
 * fs->ops->destroy(fs) after every file created through it is closed.
 * NULL on OOM, or when INNER has no sync_fs/rename_nosync (then write
 * through INNER). */
hl_stor_t *hl_stor_batch_create(hl_stor_t *inner);

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
/* True when PATH is what hl_path_normalize makes of it: absolute, without
 * ".", ".." or empty segments and without a trailing slash ("/" itself is
 * normal).  Every location hivelite stores is normal. */
bool hl_path_is_normal(const char *path);
/* True when normal path PATH is DIR or lies below it, component-wise
 * ("/a/bc" is not within "/a/b"); DIR normal. */
bool hl_path_within(const char *path, const char *dir);
/* hl_path_within, and PATH is not DIR itself. */
bool hl_path_strictly_inside(const char *path, const char *dir);

#endif
