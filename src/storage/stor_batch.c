/*
 * stor_batch.c -- the batched-durability decorator (stor.h,
 * hl_stor_batch_create).
 *
 * A write transaction writes hundreds or thousands of files and renames
 * each into place.  Syncing every file at close and both directories at
 * every rename costs three fsyncs per file; the write only needs all of it
 * durable once, just before its commit record (txn.c explains the order).
 * Format writers call sync when they close a file, so this decorator hands
 * them files whose sync does nothing, and turns rename into the inner
 * backend's rename_nosync; the transaction then calls sync_fs once.
 * Everything else goes straight to the inner backend.  Files opened for
 * reading belong to the inner backend (their ops dispatch there).
 */
#include "storage/stor.h"

#include "util/mem.h"

typedef struct batch_fs {
  hl_stor_t base;
  hl_stor_t *inner;
  hl_stor_ops_t ops; /* the inner ops with the batching ones swapped in */
} batch_fs_t;

typedef struct batch_file {
  hl_stor_file_t base; /* base.fs is the decorator */
  hl_stor_file_t *inner;
} batch_file_t;

static hl_stor_t *inner_of(hl_stor_t *fs) {
  return ((batch_fs_t *)fs)->inner;
}

static hl_status_t b_sync(hl_stor_file_t *f, hl_error_t *err);

/* The inner backend's file behind F.  Callers may dispatch a file's ops
 * through the decorator even for files that belong to the inner backend
 * (opened for reading), so F is unwrapped only if it is one of ours. */
static hl_stor_file_t *inner_file(hl_stor_file_t *f) {
  return f->fs->ops->sync == b_sync ? ((batch_file_t *)f)->inner : f;
}

static hl_status_t b_stat(hl_stor_t *fs, const char *path, hl_stor_stat_t *st, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->stat(in, path, st, err);
}

static hl_status_t b_list(hl_stor_t *fs, const char *path, hl_arena_t *arena, hl_stor_entry_t **out,
                          size_t *n_out, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->list(in, path, arena, out, n_out, err);
}

static hl_status_t b_open_read(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                               hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->open_read(in, path, out, err);
}

static hl_status_t b_read_at(hl_stor_file_t *f, uint64_t offset, void *buf, size_t len, size_t *got,
                             hl_error_t *err) {
  hl_stor_file_t *in = inner_file(f);
  return in->fs->ops->read_at(in, offset, buf, len, got, err);
}

static uint64_t b_file_size(hl_stor_file_t *f) {
  hl_stor_file_t *in = inner_file(f);
  return in->fs->ops->file_size(in);
}

static hl_status_t b_create(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                            hl_error_t *err) {
  *out = NULL;
  batch_file_t *bf = hl_calloc(1, sizeof *bf);
  if (!bf) return hl_err_nomem(err);
  hl_stor_t *in = inner_of(fs);
  /* on an object store a write's files stay pending until the commit
   * publishes them (txn.h, "Object stores") */
  hl_status_t rc = in->ops->object_store && in->ops->object_store(in, path)
                       ? in->ops->create_pending(in, path, &bf->inner, err)
                       : in->ops->create(in, path, &bf->inner, err);
  if (rc != HL_OK) {
    hl_free(bf);
    return rc;
  }
  bf->base.fs = fs;
  *out = &bf->base;
  return HL_OK;
}

static hl_status_t b_append(hl_stor_file_t *f, const void *buf, size_t len, hl_error_t *err) {
  hl_stor_file_t *in = inner_file(f);
  return in->fs->ops->append(in, buf, len, err);
}

/* Deferred for our files: the owner of the batch calls sync_fs before
 * relying on them.  (An inner file passed here is synced now.) */
static hl_status_t b_sync(hl_stor_file_t *f, hl_error_t *err) {
  hl_stor_file_t *in = inner_file(f);
  return in == f ? in->fs->ops->sync(in, err) : HL_OK;
}

static hl_status_t b_close(hl_stor_file_t *f, hl_error_t *err) {
  if (!f) return HL_OK;
  hl_stor_file_t *in = inner_file(f);
  hl_status_t rc = in->fs->ops->close(in, err);
  if (in != f) hl_free(f);
  return rc;
}

static hl_status_t b_rename(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->rename_nosync(in, from, to, err);
}

static hl_status_t b_remove(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->remove(in, path, err);
}

static hl_status_t b_mkdirs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->mkdirs(in, path, err);
}

static hl_status_t b_rmdir(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->rmdir(in, path, err);
}

static hl_status_t b_remove_tree(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->remove_tree(in, path, err);
}

static hl_status_t b_mode_group(hl_stor_t *fs, const char *path, uint32_t *mode, int64_t *gid,
                                hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->mode_group(in, path, mode, gid, err);
}

static hl_status_t b_set_mode_group(hl_stor_t *fs, const char *path, uint32_t mode, int64_t gid,
                                    hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->set_mode_group(in, path, mode, gid, err);
}

static hl_status_t b_sync_fs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->sync_fs(in, path, err);
}

static hl_status_t b_lock_try(hl_stor_t *fs, const char *path, bool exclusive, hl_stor_lock_t **out,
                              bool *unlockable, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->lock_try(in, path, exclusive, out, unlockable, err);
}

static void b_unlock(hl_stor_t *fs, hl_stor_lock_t *lock) {
  hl_stor_t *in = inner_of(fs);
  in->ops->unlock(in, lock);
}

static hl_status_t b_real_path(hl_stor_t *fs, const char *path, hl_arena_t *arena, char **out,
                               hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->real_path(in, path, arena, out, err);
}

static bool b_object_store(hl_stor_t *fs, const char *path) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->object_store(in, path);
}

static hl_status_t b_create_pending(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                                    hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->create_pending(in, path, out, err);
}

static hl_status_t b_publish_pending(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->publish_pending(in, path, err);
}

static hl_status_t b_publish_pending_many(hl_stor_t *fs, char *const *paths, size_t n,
                                          hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->publish_pending_many(in, paths, n, err);
}

static void b_abort_pending(hl_stor_t *fs, const char *path) {
  hl_stor_t *in = inner_of(fs);
  in->ops->abort_pending(in, path);
}

static hl_status_t b_abort_pending_under(hl_stor_t *fs, const char *dir, const char *name_prefix,
                                         hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->abort_pending_under(in, dir, name_prefix, err);
}

static hl_status_t b_prefetch(hl_stor_file_t *f, const uint64_t *offsets, const uint64_t *lens,
                              size_t n, hl_error_t *err) {
  hl_stor_file_t *in = inner_file(f);
  return in->fs->ops->prefetch ? in->fs->ops->prefetch(in, offsets, lens, n, err) : HL_OK;
}

static hl_status_t b_remove_many(hl_stor_t *fs, char *const *paths, size_t n, hl_error_t *err) {
  hl_stor_t *in = inner_of(fs);
  return in->ops->remove_many(in, paths, n, err);
}

static void b_destroy(hl_stor_t *fs) {
  hl_free(fs);
}

static const hl_stor_ops_t batch_ops = {
    .stat = b_stat,
    .list = b_list,
    .open_read = b_open_read,
    .read_at = b_read_at,
    .file_size = b_file_size,
    .create = b_create,
    .append = b_append,
    .sync = b_sync,
    .close = b_close,
    .rename = b_rename,
    .remove = b_remove,
    .mkdirs = b_mkdirs,
    .rmdir = b_rmdir,
    .remove_tree = b_remove_tree,
    .destroy = b_destroy,
    .mode_group = b_mode_group,
    .set_mode_group = b_set_mode_group,
    .rename_nosync = b_rename,
    .sync_fs = b_sync_fs,
    .lock_try = b_lock_try,
    .unlock = b_unlock,
    .real_path = b_real_path,
    .object_store = b_object_store,
    .create_pending = b_create_pending,
    .publish_pending = b_publish_pending,
    .publish_pending_many = b_publish_pending_many,
    .abort_pending = b_abort_pending,
    .abort_pending_under = b_abort_pending_under,
    .prefetch = b_prefetch,
    .remove_many = b_remove_many,
};

hl_stor_t *hl_stor_batch_create(hl_stor_t *inner) {
  const hl_stor_ops_t *io = inner->ops;
  if (!io->sync_fs || !io->rename_nosync) return NULL;
  batch_fs_t *b = hl_calloc(1, sizeof *b);
  if (!b) return NULL;
  b->ops = batch_ops;
  if (!io->mode_group) b->ops.mode_group = NULL;
  if (!io->real_path) b->ops.real_path = NULL;
  if (!io->set_mode_group) b->ops.set_mode_group = NULL;
  if (!io->object_store || !io->create_pending || !io->publish_pending || !io->abort_pending ||
      !io->abort_pending_under) {
    b->ops.object_store = NULL;
    b->ops.create_pending = NULL;
    b->ops.publish_pending = NULL;
    b->ops.abort_pending = NULL;
    b->ops.abort_pending_under = NULL;
  }
  if (!io->remove_many) b->ops.remove_many = NULL;
  if (!io->publish_pending_many) b->ops.publish_pending_many = NULL;
  if (!io->lock_try || !io->unlock) {
    b->ops.lock_try = NULL;
    b->ops.unlock = NULL;
  }
  b->base.ops = &b->ops;
  b->inner = inner;
  return &b->base;
}
