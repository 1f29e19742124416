/*
 * stor_route.c -- one backend that sends each path to the file system it
 * names (stor.h, hl_stor_route_create).
 *
 * The session holds one hl_stor_t for every table, whatever its location:
 * "/data/t" goes to the local backend, "s3a://bucket/t" to the object
 * store's.  Operations on an open file dispatch on the file's own backend
 * (f->fs), so callers may pass a file through the router or through the
 * backend that opened it.  Operations that take two paths (rename) refuse
 * paths on different backends, as rename(2) refuses across devices.
 */
#include "storage/stor.h"

#include "util/mem.h"

#include <string.h>

typedef struct route_fs {
  hl_stor_t base;
  hl_stor_t *local;
  hl_stor_t *objects; /* NULL: none configured */
} route_fs_t;

static hl_status_t no_store(const char *path, hl_error_t *err) {
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "no object store is available for \"%s\"", path);
}

/* The backend for PATH, or NULL (then *ERR says why). */
static hl_stor_t *pick(hl_stor_t *fs, const char *path, hl_error_t *err) {
  route_fs_t *r = (route_fs_t *)fs;
  if (!hl_uri_object_root(path)) return r->local;
  if (!r->objects) no_store(path, err);
  return r->objects;
}

#define PICK(fs, path)                                                                             \
  hl_stor_t *be = pick(fs, path, err);                                                             \
  if (!be) return HL_UNSUPPORTED

/* An op the chosen backend does not have: the router says what the
 * contract says of a NULL op. */
static hl_status_t missing_op(const char *what, const char *path, hl_error_t *err) {
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "%s is not supported on \"%s\"", what, path);
}

static hl_status_t r_stat(hl_stor_t *fs, const char *path, hl_stor_stat_t *st, hl_error_t *err) {
  PICK(fs, path);
  return be->ops->stat(be, path, st, err);
}

static hl_status_t r_list(hl_stor_t *fs, const char *path, hl_arena_t *arena, hl_stor_entry_t **out,
                          size_t *n_out, hl_error_t *err) {
  PICK(fs, path);
  return be->ops->list(be, path, arena, out, n_out, err);
}

static hl_status_t r_open_read(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                               hl_error_t *err) {
  PICK(fs, path);
  return be->ops->open_read(be, path, out, err);
}

static hl_status_t r_read_at(hl_stor_file_t *f, uint64_t offset, void *buf, size_t len, size_t *got,
                             hl_error_t *err) {
  return f->fs->ops->read_at(f, offset, buf, len, got, err);
}

static uint64_t r_file_size(hl_stor_file_t *f) {
  return f->fs->ops->file_size(f);
}

static hl_status_t r_create(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                            hl_error_t *err) {
  PICK(fs, path);
  return be->ops->create(be, path, out, err);
}

static hl_status_t r_append(hl_stor_file_t *f, const void *buf, size_t len, hl_error_t *err) {
  return f->fs->ops->append(f, buf, len, err);
}

static hl_status_t r_sync(hl_stor_file_t *f, hl_error_t *err) {
  return f->fs->ops->sync(f, err);
}

static hl_status_t r_close(hl_stor_file_t *f, hl_error_t *err) {
  return f ? f->fs->ops->close(f, err) : HL_OK;
}

static hl_status_t two_paths(hl_stor_t *fs, const char *from, const char *to, hl_stor_t **be,
                             hl_error_t *err) {
  *be = pick(fs, from, err);
  if (!*be) return HL_UNSUPPORTED;
  hl_stor_t *other = pick(fs, to, err);
  if (!other) return HL_UNSUPPORTED;
  size_t a = hl_uri_object_root(from), b = hl_uri_object_root(to);
  if (*be != other || a != b || strncmp(from, to, a) != 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot move \"%s\" to \"%s\": they are on different file systems", from, to);
  return HL_OK;
}

static hl_status_t r_rename(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err) {
  hl_stor_t *be;
  hl_status_t rc = two_paths(fs, from, to, &be, err);
  return rc != HL_OK ? rc : be->ops->rename(be, from, to, err);
}

static hl_status_t r_rename_nosync(hl_stor_t *fs, const char *from, const char *to,
                                   hl_error_t *err) {
  hl_stor_t *be;
  hl_status_t rc = two_paths(fs, from, to, &be, err);
  if (rc != HL_OK) return rc;
  return be->ops->rename_nosync ? be->ops->rename_nosync(be, from, to, err)
                                : be->ops->rename(be, from, to, err);
}

static hl_status_t r_remove(hl_stor_t *fs, const char *path, hl_error_t *err) {
  PICK(fs, path);
  return be->ops->remove(be, path, err);
}

static hl_status_t r_mkdirs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  PICK(fs, path);
  return be->ops->mkdirs(be, path, err);
}

static hl_status_t r_rmdir(hl_stor_t *fs, const char *path, hl_error_t *err) {
  PICK(fs, path);
  return be->ops->rmdir(be, path, err);
}

static hl_status_t r_remove_tree(hl_stor_t *fs, const char *path, hl_error_t *err) {
  PICK(fs, path);
  return be->ops->remove_tree(be, path, err);
}

static void r_destroy(hl_stor_t *fs) {
  route_fs_t *r = (route_fs_t *)fs;
  if (r->local) r->local->ops->destroy(r->local);
  if (r->objects) r->objects->ops->destroy(r->objects);
  hl_free(r);
}

/* Object stores have no permissions of their own: mode_group answers
 * "not found" (txn/ then inherits nothing) and set_mode_group does
 * nothing. */
static hl_status_t r_mode_group(hl_stor_t *fs, const char *path, uint32_t *mode, int64_t *gid,
                                hl_error_t *err) {
  PICK(fs, path);
  if (!be->ops->mode_group)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE), "\"%s\" has no permissions", path);
  return be->ops->mode_group(be, path, mode, gid, err);
}

static hl_status_t r_set_mode_group(hl_stor_t *fs, const char *path, uint32_t mode, int64_t gid,
                                    hl_error_t *err) {
  PICK(fs, path);
  return be->ops->set_mode_group ? be->ops->set_mode_group(be, path, mode, gid, err) : HL_OK;
}

static hl_status_t r_sync_fs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  PICK(fs, path);
  /* an object store's writes are durable when they return */
  return be->ops->sync_fs ? be->ops->sync_fs(be, path, err) : HL_OK;
}

static hl_status_t r_lock_try(hl_stor_t *fs, const char *path, bool exclusive, hl_stor_lock_t **out,
                              bool *unlockable, hl_error_t *err) {
  PICK(fs, path);
  if (!be->ops->lock_try) return missing_op("locking", path, err);
  return be->ops->lock_try(be, path, exclusive, out, unlockable, err);
}

/* Locks are the local backend's only (lock files live in the warehouse). */
static void r_unlock(hl_stor_t *fs, hl_stor_lock_t *lock) {
  route_fs_t *r = (route_fs_t *)fs;
  if (lock && r->local->ops->unlock) r->local->ops->unlock(r->local, lock);
}

static hl_status_t r_real_path(hl_stor_t *fs, const char *path, hl_arena_t *arena, char **out,
                               hl_error_t *err) {
  PICK(fs, path);
  if (!be->ops->real_path) { /* no links: the path is its own real path */
    *out = hl_arena_strdup(arena, path);
    return *out ? HL_OK : hl_err_nomem(err);
  }
  return be->ops->real_path(be, path, arena, out, err);
}

static bool r_object_store(hl_stor_t *fs, const char *path) {
  hl_error_t e;
  hl_err_init(&e);
  hl_stor_t *be = pick(fs, path, &e);
  hl_err_clear(&e);
  return be && be->ops->object_store && be->ops->object_store(be, path);
}

static hl_status_t r_create_pending(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                                    hl_error_t *err) {
  PICK(fs, path);
  if (!be->ops->create_pending) return missing_op("a pending write", path, err);
  return be->ops->create_pending(be, path, out, err);
}

static hl_status_t r_publish_pending(hl_stor_t *fs, const char *path, hl_error_t *err) {
  PICK(fs, path);
  if (!be->ops->publish_pending) return missing_op("a pending write", path, err);
  return be->ops->publish_pending(be, path, err);
}

static hl_status_t r_publish_pending_many(hl_stor_t *fs, char *const *paths, size_t n,
                                          hl_error_t *err) {
  if (n == 0) return HL_OK;
  PICK(fs, paths[0]);
  size_t root = hl_uri_object_root(paths[0]);
  bool one = be->ops->publish_pending_many != NULL; /* one backend, one bucket? */
  for (size_t i = 1; one && i < n; i++)
    one = hl_uri_object_root(paths[i]) == root && strncmp(paths[i], paths[0], root) == 0;
  if (one) return be->ops->publish_pending_many(be, paths, n, err);
  for (size_t i = 0; i < n; i++) {
    hl_status_t rc = r_publish_pending(fs, paths[i], err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

static void r_abort_pending(hl_stor_t *fs, const char *path) {
  hl_error_t e;
  hl_err_init(&e);
  hl_stor_t *be = pick(fs, path, &e);
  hl_err_clear(&e);
  if (be && be->ops->abort_pending) be->ops->abort_pending(be, path);
}

static hl_status_t r_abort_pending_under(hl_stor_t *fs, const char *dir, const char *name_prefix,
                                         hl_error_t *err) {
  PICK(fs, dir);
  return be->ops->abort_pending_under ? be->ops->abort_pending_under(be, dir, name_prefix, err)
                                      : HL_OK;
}

static hl_status_t r_prefetch(hl_stor_file_t *f, const uint64_t *offsets, const uint64_t *lens,
                              size_t n, hl_error_t *err) {
  return f->fs->ops->prefetch ? f->fs->ops->prefetch(f, offsets, lens, n, err) : HL_OK;
}

/* Paths of one call may lie on several backends: each run of paths on
 * one backend is one call to it. */
static hl_status_t r_remove_many(hl_stor_t *fs, char *const *paths, size_t n, hl_error_t *err) {
  size_t i = 0;
  while (i < n) {
    PICK(fs, paths[i]);
    size_t j = i + 1;
    size_t root = hl_uri_object_root(paths[i]);
    while (j < n && hl_uri_object_root(paths[j]) == root && strncmp(paths[j], paths[i], root) == 0)
      j++;
    hl_status_t rc = HL_OK;
    if (be->ops->remove_many) {
      rc = be->ops->remove_many(be, paths + i, j - i, err);
    } else {
      for (size_t k = i; rc == HL_OK && k < j; k++)
        rc = be->ops->remove(be, paths[k], err);
    }
    if (rc != HL_OK) return rc;
    i = j;
  }
  return HL_OK;
}

static const hl_stor_ops_t route_ops = {
    .stat = r_stat,
    .list = r_list,
    .open_read = r_open_read,
    .read_at = r_read_at,
    .file_size = r_file_size,
    .create = r_create,
    .append = r_append,
    .sync = r_sync,
    .close = r_close,
    .rename = r_rename,
    .remove = r_remove,
    .mkdirs = r_mkdirs,
    .rmdir = r_rmdir,
    .remove_tree = r_remove_tree,
    .destroy = r_destroy,
    .mode_group = r_mode_group,
    .set_mode_group = r_set_mode_group,
    .rename_nosync = r_rename_nosync,
    .sync_fs = r_sync_fs,
    .lock_try = r_lock_try,
    .unlock = r_unlock,
    .real_path = r_real_path,
    .object_store = r_object_store,
    .create_pending = r_create_pending,
    .publish_pending = r_publish_pending,
    .publish_pending_many = r_publish_pending_many,
    .abort_pending = r_abort_pending,
    .abort_pending_under = r_abort_pending_under,
    .prefetch = r_prefetch,
    .remove_many = r_remove_many,
};

hl_stor_t *hl_stor_route_create(hl_stor_t *local, hl_stor_t *objects) {
  route_fs_t *r = local ? hl_calloc(1, sizeof *r) : NULL;
  if (!r) {
    if (local) local->ops->destroy(local);
    if (objects) objects->ops->destroy(objects);
    return NULL;
  }
  r->base.ops = &route_ops;
  r->local = local;
  r->objects = objects;
  return &r->base;
}
