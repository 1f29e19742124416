/*
 * stor_count.c -- the counting decorator (stor_count.h): forwards every
 * operation to the wrapped backend and counts the calls that name a path.
 * Open files belong to the inner backend, so the per-file operations
 * (read_at, append, sync, close) go straight to it.
 */
#include "storage/stor_count.h"

#include "util/mem.h"

typedef struct count_fs {
  hl_stor_t base;
  hl_stor_t *inner;
  hl_stor_counts_t *counts;
  hl_stor_ops_t ops; /* count_ops minus the optional ops INNER lacks */
} count_fs_t;

static hl_stor_t *note(hl_stor_t *fs, const char *path) {
  count_fs_t *c = (count_fs_t *)fs;
  c->counts->calls++;
  if (c->counts->match && path && c->counts->match(path, c->counts->match_arg))
    c->counts->matched++;
  return c->inner;
}

static hl_status_t c_stat(hl_stor_t *fs, const char *path, hl_stor_stat_t *st, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->stat(in, path, st, err);
}

static hl_status_t c_list(hl_stor_t *fs, const char *path, hl_arena_t *arena, hl_stor_entry_t **out,
                          size_t *n_out, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->list(in, path, arena, out, n_out, err);
}

static hl_status_t c_open_read(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                               hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->open_read(in, path, out, err);
}

static hl_status_t c_read_at(hl_stor_file_t *f, uint64_t offset, void *buf, size_t len, size_t *got,
                             hl_error_t *err) {
  return f->fs->ops->read_at(f, offset, buf, len, got, err);
}

static uint64_t c_file_size(hl_stor_file_t *f) {
  return f->fs->ops->file_size(f);
}

static hl_status_t c_create(hl_stor_t *fs, const char *path, hl_stor_file_t **out,
                            hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->create(in, path, out, err);
}

static hl_status_t c_append(hl_stor_file_t *f, const void *buf, size_t len, hl_error_t *err) {
  return f->fs->ops->append(f, buf, len, err);
}

static hl_status_t c_sync(hl_stor_file_t *f, hl_error_t *err) {
  return f->fs->ops->sync(f, err);
}

static hl_status_t c_close(hl_stor_file_t *f, hl_error_t *err) {
  return f ? f->fs->ops->close(f, err) : HL_OK;
}

static hl_status_t c_rename(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err) {
  note(fs, to);
  hl_stor_t *in = note(fs, from);
  return in->ops->rename(in, from, to, err);
}

static hl_status_t c_remove(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->remove(in, path, err);
}

static hl_status_t c_mkdirs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->mkdirs(in, path, err);
}

static hl_status_t c_rmdir(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->rmdir(in, path, err);
}

static hl_status_t c_remove_tree(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->remove_tree(in, path, err);
}

static hl_status_t c_mode_group(hl_stor_t *fs, const char *path, uint32_t *mode, int64_t *gid,
                                hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->mode_group(in, path, mode, gid, err);
}

static hl_status_t c_set_mode_group(hl_stor_t *fs, const char *path, uint32_t mode, int64_t gid,
                                    hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->set_mode_group(in, path, mode, gid, err);
}

static hl_status_t c_rename_nosync(hl_stor_t *fs, const char *from, const char *to,
                                   hl_error_t *err) {
  note(fs, to);
  hl_stor_t *in = note(fs, from);
  return in->ops->rename_nosync(in, from, to, err);
}

static hl_status_t c_sync_fs(hl_stor_t *fs, const char *path, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->sync_fs(in, path, err);
}

static hl_status_t c_lock_try(hl_stor_t *fs, const char *path, bool exclusive, hl_stor_lock_t **out,
                              bool *unlockable, hl_error_t *err) {
  hl_stor_t *in = note(fs, path);
  return in->ops->lock_try(in, path, exclusive, out, unlockable, err);
}

static void c_unlock(hl_stor_t *fs, hl_stor_lock_t *lock) {
  hl_stor_t *in = ((count_fs_t *)fs)->inner;
  in->ops->unlock(in, lock);
}

static hl_status_t c_real_path(hl_stor_t *fs, const char *path, hl_arena_t *arena, char **out,
                               hl_error_t *err) {
  hl_stor_t *in = ((count_fs_t *)fs)->inner;
  return in->ops->real_path(in, path, arena, out, err);
}

static void c_destroy(hl_stor_t *fs) {
  hl_free(fs);
}

static const hl_stor_ops_t count_ops = {
    .stat = c_stat,
    .list = c_list,
    .open_read = c_open_read,
    .read_at = c_read_at,
    .file_size = c_file_size,
    .create = c_create,
    .append = c_append,
    .sync = c_sync,
    .close = c_close,
    .rename = c_rename,
    .remove = c_remove,
    .mkdirs = c_mkdirs,
    .rmdir = c_rmdir,
    .remove_tree = c_remove_tree,
    .destroy = c_destroy,
    .mode_group = c_mode_group,
    .set_mode_group = c_set_mode_group,
    .rename_nosync = c_rename_nosync,
    .sync_fs = c_sync_fs,
    .lock_try = c_lock_try,
    .unlock = c_unlock,
    .real_path = c_real_path,
};

hl_stor_t *hl_stor_count_create(hl_stor_t *inner, hl_stor_counts_t *counts) {
  count_fs_t *c = hl_calloc(1, sizeof *c);
  if (!c) return NULL;
  /* the optional ops are offered only when the inner backend has them */
  c->ops = count_ops;
  const hl_stor_ops_t *io = inner->ops;
  if (!io->mode_group) c->ops.mode_group = NULL;
  if (!io->real_path) c->ops.real_path = NULL;
  if (!io->set_mode_group) c->ops.set_mode_group = NULL;
  if (!io->rename_nosync) c->ops.rename_nosync = NULL;
  if (!io->sync_fs) c->ops.sync_fs = NULL;
  if (!io->lock_try) c->ops.lock_try = NULL;
  if (!io->unlock) c->ops.unlock = NULL;
  c->base.ops = &c->ops;
  c->inner = inner;
  c->counts = counts;
  return &c->base;
}
