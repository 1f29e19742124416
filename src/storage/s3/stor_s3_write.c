/*
 * stor_s3_write.c -- the S3 backend's writes (stor_s3.h; the shared state
 * is in stor_s3_int.h).
 *
 *   create       buffered; a small file is one PUT with If-None-Match: *,
 *                a large one a multipart upload completed at close
 *   pending      create_pending: a multipart upload that close leaves
 *                open.  Its parts go to UPLOAD_THREADS background threads
 *                (the first part's thread starts the upload; at most
 *                UPLOAD_QUEUED bytes wait), so the writer goes on while
 *                they upload; publish_pending waits for an object's parts
 *                and completes it conditionally (publish_pending_many:
 *                PUBLISH_THREADS at once); abort_pending aborts it;
 *                abort_pending_under sweeps a dead writer's uploads by
 *                name
 */
#include "storage/s3/stor_s3_int.h"

#include "util/mem.h"

#include <pthread.h>
#include <string.h>

/* The pending records, by path (fs->mu held): a write into thousands of
 * partitions finds each one at its stat and its publish without walking
 * all of them.  The index goes when the last record does, so it does not
 * grow with every file a session ever wrote. */
static pending_t *pending_find(s3_fs_t *fs, const char *path) {
  uint64_t v;
  return fs->pending_index && hl_map_get(fs->pending_index, path, strlen(path), &v)
             ? (pending_t *)(uintptr_t)v
             : NULL;
}

static bool pending_link(s3_fs_t *fs, pending_t *p) {
  if (!fs->pending_index && !(fs->pending_index = hl_map_create())) return false;
  if (hl_map_set(fs->pending_index, p->path, strlen(p->path), (uint64_t)(uintptr_t)p) < 0)
    return false;
  p->prev = NULL;
  p->next = fs->pendings;
  if (p->next) p->next->prev = p;
  fs->pendings = p;
  return true;
}

static void pending_unlink(s3_fs_t *fs, pending_t *p) {
  if (p->prev)
    p->prev->next = p->next;
  else
    fs->pendings = p->next;
  if (p->next) p->next->prev = p->prev;
  p->next = p->prev = NULL;
  hl_map_set(fs->pending_index, p->path, strlen(p->path), 0); /* an existing key: no allocation */
  if (!fs->pendings) {
    hl_map_destroy(fs->pending_index);
    fs->pending_index = NULL;
  }
}

/* A closed pending object of this process is a file to it (its writer
 * asks its size), though no other reader sees it yet. */
bool hl_s3fs_pending_stat(s3_fs_t *fs, const char *path, hl_stor_stat_t *st) {
  pthread_mutex_lock(&fs->mu);
  pending_t *p = pending_find(fs, path);
  bool found = p && p->closed;
  if (found) {
    st->exists = true;
    st->size = p->size;
  }
  pthread_mutex_unlock(&fs->mu);
  return found;
}

static hl_status_t create_file(s3_fs_t *fs, const char *path, bool pending, s3_file_t **out,
                               hl_error_t *err) {
  *out = NULL;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve(fs, path, a, &bucket, &key, &c, err);
  if (rc == HL_OK && !*key)
    rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "could not create \"%s\": it is a bucket, not an object", path);
  s3_file_t *f = NULL;
  if (rc == HL_OK && !(f = hl_s3fs_file_new(fs, path, bucket, key, c))) rc = hl_err_nomem(err);
  if (rc == HL_OK && pending) {
    pending_t *p = hl_calloc(1, sizeof *p);
    if (!p || !(p->path = hl_strdup(path)) || !(p->arena = hl_arena_create(0)) ||
        !(p->bucket = hl_arena_strdup(p->arena, bucket)) ||
        !(p->key = hl_arena_strdup(p->arena, key))) {
      if (p) {
        hl_free(p->path);
        hl_arena_destroy(p->arena);
        hl_free(p);
      }
      rc = hl_err_nomem(err);
    } else {
      p->client = c;
      hl_err_init(&p->perr);
      pthread_mutex_lock(&fs->mu);
      bool linked = pending_link(fs, p);
      pthread_mutex_unlock(&fs->mu);
      if (linked) {
        f->pending = p;
      } else {
        hl_free(p->path);
        hl_arena_destroy(p->arena);
        hl_free(p);
        rc = hl_err_nomem(err);
      }
    }
  }
  if (rc == HL_OK) {
    f->writing = true;
    hl_s3fs_meta_forget(fs, path);
    *out = f;
  } else if (f) {
    hl_s3fs_file_free(f);
  }
  hl_arena_destroy(a);
  return rc;
}

hl_status_t hl_s3fs_create(hl_stor_t *base, const char *path, hl_stor_file_t **out,
                           hl_error_t *err) {
  s3_file_t *f;
  hl_status_t rc = create_file((s3_fs_t *)base, path, false, &f, err);
  *out = rc == HL_OK ? &f->base : NULL;
  return rc;
}

hl_status_t hl_s3fs_create_pending(hl_stor_t *base, const char *path, hl_stor_file_t **out,
                                   hl_error_t *err) {
  s3_file_t *f;
  hl_status_t rc = create_file((s3_fs_t *)base, path, true, &f, err);
  *out = rc == HL_OK ? &f->base : NULL;
  return rc;
}

static bool push_etag(hl_arena_t *a, char ***etags, size_t *n, size_t *cap, const char *etag) {
  if (*n == *cap) {
    size_t ncap = *cap ? *cap * 2 : 8;
    char **g = hl_arena_realloc(a, *etags, *cap * sizeof(char *), ncap * sizeof(char *));
    if (!g) return false;
    *etags = g;
    *cap = ncap;
  }
  char *copy = hl_arena_strdup(a, etag);
  if (!copy) return false;
  (*etags)[(*n)++] = copy;
  return true;
}

/* Uploads the buffer as the next part (starting the upload first). */
static hl_status_t upload_part(s3_file_t *f, hl_error_t *err) {
  pending_t *p = f->pending;
  hl_arena_t *a = p ? p->arena : f->arena;
  char **upload_id = p ? &p->upload_id : &f->upload_id;
  hl_status_t rc = HL_OK;
  if (!*upload_id) rc = hl_s3_mpu_create(f->client, f->bucket, f->key, a, upload_id, err);
  char *etag = NULL;
  size_t *n = p ? &p->n_parts : &f->n_parts;
  if (rc == HL_OK)
    rc = hl_s3_mpu_part(f->client, f->bucket, f->key, *upload_id, (int)*n + 1, f->buf, f->buf_len,
                        f->arena, &etag, err);
  if (rc == HL_OK && !(p ? push_etag(a, &p->etags, &p->n_parts, &p->cap_parts, etag)
                         : push_etag(a, &f->etags, &f->n_parts, &f->cap_parts, etag)))
    rc = hl_err_nomem(err);
  if (rc == HL_OK) {
    if (p) p->size += f->buf_len;
    f->buf_len = 0;
  }
  return rc;
}

static void *uploader_main(void *arg) {
  s3_fs_t *fs = arg;
  pthread_mutex_lock(&fs->mu);
  for (;;) {
    while (!fs->jobs && !fs->stopping)
      pthread_cond_wait(&fs->work, &fs->mu);
    job_t *j = fs->jobs;
    if (!j) break; /* stopping, and nothing left */
    fs->jobs = j->next;
    if (!fs->jobs) fs->jobs_tail = NULL;
    pending_t *p = j->p;
    /* a later part waits for the upload its first part starts (the jobs
     * are taken in order, so that one is already being run) */
    while (!j->create && !p->upload_id && !p->failed)
      pthread_cond_wait(&fs->progress, &fs->mu);
    bool go = !p->failed;
    pthread_mutex_unlock(&fs->mu);
    hl_error_t e;
    hl_err_init(&e);
    hl_arena_t *a = hl_arena_create(0);
    char *etag = NULL, *id = NULL;
    hl_status_t rc = !go ? HL_ERROR : a ? HL_OK : hl_err_nomem(&e);
    if (rc == HL_OK && j->create) {
      rc = hl_s3_mpu_create(p->client, p->bucket, p->key, a, &id, &e);
      pthread_mutex_lock(&fs->mu);
      if (rc == HL_OK && !(p->upload_id = hl_arena_strdup(p->arena, id))) rc = hl_err_nomem(&e);
      pthread_cond_broadcast(&fs->progress);
      pthread_mutex_unlock(&fs->mu);
    }
    if (rc == HL_OK)
      rc = hl_s3_mpu_part(p->client, p->bucket, p->key, p->upload_id, j->part, j->buf, j->len, a,
                          &etag, &e);
    pthread_mutex_lock(&fs->mu);
    if (rc == HL_OK && !(p->etags[j->part - 1] = hl_arena_strdup(p->arena, etag)))
      rc = hl_err_nomem(&e);
    if (rc != HL_OK && !p->failed) {
      p->failed = true;
      if (e.code == HL_OK) hl_err_set(&e, HL_IOERR, HL_SS(IO_ERROR), "a part upload failed");
      hl_err_move(&p->perr, &e);
    }
    hl_err_clear(&e);
    p->outstanding--;
    fs->outstanding--;
    fs->queued -= j->len;
    pthread_cond_broadcast(&fs->progress);
    hl_arena_destroy(a);
    hl_free(j->buf);
    hl_free(j);
  }
  pthread_mutex_unlock(&fs->mu);
  return NULL;
}

/* Hands F's buffer to the upload threads as the next part of its pending
 * object (starting the multipart upload first); F gets a new buffer.
 * Waits while too many bytes are queued. */
static hl_status_t enqueue_part(s3_file_t *f, hl_error_t *err) {
  s3_fs_t *fs = f->fs;
  pending_t *p = f->pending;
  job_t *j = hl_calloc(1, sizeof *j);
  if (!j) return hl_err_nomem(err);
  pthread_mutex_lock(&fs->mu);
  /* one more thread per part queued, up to UPLOAD_THREADS */
  if (fs->n_uploaders < UPLOAD_THREADS && fs->jobs &&
      pthread_create(&fs->uploaders[fs->n_uploaders], NULL, uploader_main, fs) == 0)
    fs->n_uploaders++;
  if (fs->n_uploaders == 0 &&
      pthread_create(&fs->uploaders[fs->n_uploaders], NULL, uploader_main, fs) == 0)
    fs->n_uploaders++;
  if (fs->n_uploaders == 0) { /* no thread at all: upload it here */
    pthread_mutex_unlock(&fs->mu);
    hl_free(j);
    return upload_part(f, err);
  }
  while (fs->queued > 0 && fs->queued + f->buf_len > UPLOAD_QUEUED)
    pthread_cond_wait(&fs->progress, &fs->mu);
  if (p->n_parts == p->cap_parts) {
    size_t ncap = p->cap_parts ? p->cap_parts * 2 : 8;
    char **g =
        hl_arena_realloc(p->arena, p->etags, p->cap_parts * sizeof(char *), ncap * sizeof(char *));
    if (!g) {
      pthread_mutex_unlock(&fs->mu);
      hl_free(j);
      return hl_err_nomem(err);
    }
    p->etags = g;
    p->cap_parts = ncap;
  }
  p->etags[p->n_parts] = NULL;
  j->create = p->n_parts == 0;
  j->part = (int)++p->n_parts;
  j->p = p;
  j->buf = f->buf;
  j->len = f->buf_len;
  p->outstanding++;
  fs->outstanding++;
  p->size += f->buf_len;
  fs->queued += f->buf_len;
  if (fs->jobs_tail)
    fs->jobs_tail->next = j;
  else
    fs->jobs = j;
  fs->jobs_tail = j;
  pthread_cond_signal(&fs->work);
  pthread_mutex_unlock(&fs->mu);
  f->buf = NULL; /* the job's now */
  f->buf_len = f->buf_cap = 0;
  return HL_OK;
}

/* Waits until no part of P is queued or uploading; HL_OK unless one failed
 * (then ERR says why). */
static hl_status_t wait_parts(s3_fs_t *fs, pending_t *p, hl_error_t *err) {
  pthread_mutex_lock(&fs->mu);
  while (p->outstanding > 0)
    pthread_cond_wait(&fs->progress, &fs->mu);
  hl_status_t rc = HL_OK;
  if (p->failed)
    rc = hl_err_set(err, p->perr.code ? p->perr.code : HL_IOERR,
                    p->perr.sqlstate[0] ? p->perr.sqlstate : HL_SS(IO_ERROR), "%s",
                    p->perr.message ? p->perr.message : "a part upload failed");
  pthread_mutex_unlock(&fs->mu);
  return rc;
}

hl_status_t hl_s3fs_append(hl_stor_file_t *base, const void *data, size_t len, hl_error_t *err) {
  s3_file_t *f = (s3_file_t *)base;
  const char *p = data;
  size_t part = f->fs->part_size;
  while (len > 0) {
    if (f->buf_len == f->buf_cap) { /* grows to a part: a write into
                                        thousands of partitions keeps
                                        small files small */
      size_t cap = f->buf_cap ? f->buf_cap * 2 : 64 * 1024;
      if (cap > part) cap = part;
      char *g = hl_realloc(f->buf, cap);
      if (!g) return hl_err_nomem(err);
      f->buf = g;
      f->buf_cap = cap;
    }
    size_t take = f->buf_cap - f->buf_len < len ? f->buf_cap - f->buf_len : len;
    memcpy(f->buf + f->buf_len, p, take);
    f->buf_len += take;
    p += take;
    len -= take;
    /* a full part goes now (never the last one: it waits for close, so
     * that every part but the last has the full size) */
    if (f->buf_len == part && len > 0) {
      hl_status_t rc = f->pending ? enqueue_part(f, err) : upload_part(f, err);
      if (rc != HL_OK) {
        f->failed = true;
        return rc;
      }
    }
  }
  return HL_OK;
}

hl_status_t hl_s3fs_sync(hl_stor_file_t *f, hl_error_t *err) {
  (void)f;
  (void)err;
  return HL_OK; /* an object is durable once its upload returns */
}

static void pending_free(pending_t *p) {
  hl_err_clear(&p->perr);
  hl_free(p->path);
  hl_arena_destroy(p->arena);
  hl_free(p);
}

/* Unlinks and returns the pending record of PATH, or NULL. */
static pending_t *pending_take(s3_fs_t *fs, const char *path) {
  pthread_mutex_lock(&fs->mu);
  pending_t *p = pending_find(fs, path);
  if (p) pending_unlink(fs, p);
  pthread_mutex_unlock(&fs->mu);
  return p;
}

static void abort_record(s3_fs_t *fs, pending_t *p) {
  hl_error_t e;
  hl_err_init(&e);
  wait_parts(fs, p, &e); /* no part may land after the abort */
  hl_err_clear(&e);
  if (p->upload_id) {
    hl_error_t e;
    hl_err_init(&e);
    hl_s3_mpu_abort(p->client, p->bucket, p->key, p->upload_id, &e);
    hl_err_clear(&e);
  }
}

hl_status_t hl_s3fs_close(hl_stor_file_t *base, hl_error_t *err) {
  if (!base) return HL_OK;
  s3_file_t *f = (s3_file_t *)base;
  hl_status_t rc = HL_OK;
  if (f->writing && f->pending) {
    /* the last part goes now; publish completes the upload */
    if (!f->failed && (f->buf_len > 0 || f->pending->n_parts > 0)) rc = enqueue_part(f, err);
    if (rc == HL_OK && !f->failed) {
      f->pending->closed = true;
    } else {
      pending_t *p = pending_take(f->fs, f->path);
      if (p) {
        abort_record(f->fs, p);
        pending_free(p);
      }
      if (rc == HL_OK)
        rc = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR),
                        "could not write \"%s\": an earlier part failed", f->path);
    }
  } else if (f->writing) {
    if (f->failed) {
      rc = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR),
                      "could not write \"%s\": an earlier part "
                      "failed",
                      f->path);
    } else if (!f->upload_id) { /* small: one conditional PUT */
      rc = hl_s3_put(f->client, f->bucket, f->key, f->buf, f->buf_len, true, f->arena, NULL, err);
    } else {
      rc = upload_part(f, err);
      if (rc == HL_OK)
        rc = hl_s3_mpu_complete(f->client, f->bucket, f->key, f->upload_id, f->etags, f->n_parts,
                                true, f->arena, err);
    }
    if (rc != HL_OK && f->upload_id) {
      hl_error_t e;
      hl_err_init(&e);
      hl_s3_mpu_abort(f->client, f->bucket, f->key, f->upload_id, &e);
      hl_err_clear(&e);
    }
    hl_s3fs_meta_forget(f->fs, f->path);
  }
  hl_s3fs_file_free(f);
  return rc;
}

hl_status_t hl_s3fs_publish_pending(hl_stor_t *base, const char *path, hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  pending_t *p = pending_take(fs, path);
  if (!p || !p->closed) {
    if (p) {
      abort_record(fs, p);
      pending_free(p);
    }
    return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR),
                      "could not publish \"%s\": it is not a closed pending object", path);
  }
  hl_status_t rc = wait_parts(fs, p, err);
  if (rc != HL_OK) {
    /* a part failed: the caller rolls back, which aborts the upload */
  } else if (p->n_parts == 0) /* nothing was written: an empty object */
    rc = hl_s3_put(p->client, p->bucket, p->key, "", 0, true, p->arena, NULL, err);
  else
    rc = hl_s3_mpu_complete(p->client, p->bucket, p->key, p->upload_id, p->etags, p->n_parts, true,
                            p->arena, err);
  if (rc == HL_OK) {
    p->published = true;
    pending_free(p);
  } else { /* back in the table: a rollback aborts it */
    pthread_mutex_lock(&fs->mu);
    bool linked = pending_link(fs, p);
    pthread_mutex_unlock(&fs->mu);
    if (!linked) { /* out of memory: abort it now, as a rollback would */
      abort_record(fs, p);
      pending_free(p);
    }
  }
  hl_s3fs_meta_forget(fs, path);
  return rc;
}

typedef struct publish_run {
  s3_fs_t *fs;
  char *const *paths;
  size_t n, next;
  hl_status_t rc;
  hl_error_t err; /* the first failure */
  pthread_mutex_t mu;
} publish_run_t;

static void *publish_main(void *arg) {
  publish_run_t *r = arg;
  for (;;) {
    pthread_mutex_lock(&r->mu);
    size_t i = r->rc == HL_OK ? r->next++ : r->n; /* the first error stops the rest */
    pthread_mutex_unlock(&r->mu);
    if (i >= r->n) return NULL;
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = hl_s3fs_publish_pending(&r->fs->base, r->paths[i], &e);
    pthread_mutex_lock(&r->mu);
    if (rc != HL_OK && r->rc == HL_OK) {
      r->rc = rc;
      hl_err_move(&r->err, &e);
    }
    pthread_mutex_unlock(&r->mu);
    hl_err_clear(&e);
  }
}

/* Completes N uploads with up to PUBLISH_THREADS at once: a commit of a
 * write into thousands of partitions waits for the slowest few requests,
 * not for the sum of all. */
hl_status_t hl_s3fs_publish_pending_many(hl_stor_t *base, char *const *paths, size_t n,
                                         hl_error_t *err) {
  publish_run_t r = {(s3_fs_t *)base, paths, n, 0, HL_OK, {0}, PTHREAD_MUTEX_INITIALIZER};
  hl_err_init(&r.err);
  pthread_t th[PUBLISH_THREADS];
  int k = 0;
  while (k < PUBLISH_THREADS && (size_t)k + 1 < n &&
         pthread_create(&th[k], NULL, publish_main, &r) == 0)
    k++;
  publish_main(&r); /* this thread too */
  for (int i = 0; i < k; i++)
    pthread_join(th[i], NULL);
  pthread_mutex_destroy(&r.mu);
  if (r.rc != HL_OK) hl_err_move(err, &r.err);
  hl_err_clear(&r.err);
  return r.rc;
}

void hl_s3fs_abort_pending(hl_stor_t *base, const char *path) {
  s3_fs_t *fs = (s3_fs_t *)base;
  pending_t *p = pending_take(fs, path);
  if (!p) return;
  abort_record(fs, p);
  pending_free(p);
}

static bool base_starts_with(const char *key, const char *prefix) {
  const char *slash = strrchr(key, '/');
  const char *name = slash ? slash + 1 : key;
  return strncmp(name, prefix, strlen(prefix)) == 0;
}

hl_status_t hl_s3fs_abort_pending_under(hl_stor_t *base, const char *dir, const char *name_prefix,
                                        hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key, *prefix = NULL;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve_dir(fs, dir, a, &bucket, &key, &prefix, &c, err);
  hl_s3_uploads_t u = {0};
  if (rc == HL_OK) rc = hl_s3_mpu_list(c, bucket, prefix, a, &u, err);
  for (size_t i = 0; rc == HL_OK && i < u.n_uploads; i++)
    if (base_starts_with(u.uploads[i].key, name_prefix))
      rc = hl_s3_mpu_abort(c, bucket, u.uploads[i].key, u.uploads[i].upload_id, err);
  hl_arena_destroy(a);
  return rc;
}

hl_status_t hl_s3fs_sync_fs(hl_stor_t *base, const char *path, hl_error_t *err) {
  (void)path;
  (void)err;
  s3_fs_t *fs = (s3_fs_t *)base;
  /* every part handed to the upload threads is uploaded (or failed: its
   * publish says so); then all a write has written is in S3, pending */
  pthread_mutex_lock(&fs->mu);
  while (fs->outstanding > 0)
    pthread_cond_wait(&fs->progress, &fs->mu);
  pthread_mutex_unlock(&fs->mu);
  return HL_OK;
}

void hl_s3fs_writes_end(s3_fs_t *fs) {
  while (fs->pendings) { /* never published: nothing may be left behind */
    pending_t *p = fs->pendings;
    pending_unlink(fs, p);
    abort_record(fs, p);
    pending_free(p);
  }
  pthread_mutex_lock(&fs->mu); /* the upload threads end once their queue is empty */
  fs->stopping = true;
  pthread_cond_broadcast(&fs->work);
  pthread_mutex_unlock(&fs->mu);
  for (int i = 0; i < fs->n_uploaders; i++)
    pthread_join(fs->uploaders[i], NULL);
  pthread_cond_destroy(&fs->work);
  pthread_cond_destroy(&fs->progress);
}
