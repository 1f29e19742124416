/*
 * stor_s3.c -- the S3 backend (stor_s3.h): the file-system operations of
 * stor.h as S3 requests (s3_client.h).
 *
 *   stat         HEAD of the key; missing: one LIST of "key/" (max 1) says
 *                whether it is a directory (a prefix with objects)
 *   list         ListObjectsV2 of "key/" with delimiter "/", every page;
 *                objects are files, common prefixes directories.  The
 *                size, ETag and time of every listed file are kept for a
 *                short while, so that opening a file just listed costs no
 *                HEAD (a planned scan lists each partition once, then
 *                opens its files)
 *   read         bounded ranged GETs with If-Match on the ETag seen at open
 *                (and the reply's ETag compared: a changed object is an
 *                error, never mixed bytes); prefetch fetches a row group's
 *                column chunks coalesced (gaps up to 1 MiB merged, merged
 *                ranges up to 16 MiB) and in parallel; other reads get a
 *                1 MiB read-ahead window
 *   writes       stor_s3_write.c
 *   remove       DELETE; remove_many and remove_tree: DeleteObjects in
 *                batches of 1,000 (remove_tree lists "key/" recursively)
 *
 * Locks: the clients, the listed-file cache and the pending uploads are
 * each behind the backend's mutex; an open file belongs to one thread.
 */
#include "storage/s3/stor_s3_int.h"

#include "util/mem.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t hl_s3fs_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ------------------------------------------------------------ paths */

/* PATH as bucket and key (KEY without leading or trailing '/'; "" for
 * the bucket itself), in ARENA. */
static hl_status_t split(const char *path, hl_arena_t *arena, char **bucket, char **key,
                         hl_error_t *err) {
  size_t root = hl_uri_object_root(path);
  if (!root)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "\"%s\" is not an object-store path (s3://bucket/key)", path);
  const char *b = strstr(path, "://") + 3;
  *bucket = hl_arena_strndup(arena, b, (size_t)(path + root - b));
  const char *k = path + root;
  while (*k == '/')
    k++;
  size_t n = strlen(k);
  while (n > 0 && k[n - 1] == '/')
    n--;
  *key = hl_arena_strndup(arena, k, n);
  return *bucket && *key ? HL_OK : hl_err_nomem(err);
}

/* "key/" (or "" for the bucket), the prefix of a directory's entries. */
static char *dir_prefix(hl_arena_t *arena, const char *key) {
  return *key ? hl_arena_sprintf(arena, "%s/", key) : hl_arena_strdup(arena, "");
}

/* ------------------------------------------------------------ clients */

static char *fingerprint(hl_arena_t *arena, const hl_s3_config_t *c) {
  return hl_arena_sprintf(
      arena, "%s\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s\x1f%d\x1f%lld\x1f%lld\x1f%lld\x1f%s",
      c->endpoint ? c->endpoint : "", c->region ? c->region : "", (int)c->path_style,
      c->access_key ? c->access_key : "\x01", c->secret_key ? c->secret_key : "",
      c->session_token ? c->session_token : "", c->max_attempts, (long long)c->retry_base_ms,
      (long long)c->connect_timeout_ms, (long long)c->request_timeout_ms,
      c->ca_file ? c->ca_file : "");
}

/* The client for BUCKET under its current configuration. */
static hl_status_t client_for(s3_fs_t *fs, const char *path, const char *bucket,
                              hl_s3_client_t **out, hl_error_t *err) {
  *out = NULL;
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_s3_config_t cfg = {0};
  hl_status_t rc = fs->config(fs->config_arg, path, bucket, tmp, &cfg, err);
  char *fp = rc == HL_OK ? fingerprint(tmp, &cfg) : NULL;
  if (rc == HL_OK && !fp) rc = hl_err_nomem(err);
  if (rc != HL_OK) {
    hl_arena_destroy(tmp);
    return rc;
  }
  pthread_mutex_lock(&fs->mu);
  for (client_slot_t *c = fs->clients; c; c = c->next)
    if (strcmp(c->bucket, bucket) == 0 && strcmp(c->fingerprint, fp) == 0) *out = c->client;
  if (!*out) {
    /* a configuration seen for the first time gets its own client; an
     * older one stays (a statement running elsewhere may hold it) */
    client_slot_t *slot = hl_calloc(1, sizeof *slot);
    if (slot && (slot->bucket = hl_strdup(bucket)) && (slot->fingerprint = hl_strdup(fp)) &&
        (slot->client = hl_s3_client_create(&cfg, err))) {
      slot->next = fs->clients;
      fs->clients = slot;
      *out = slot->client;
    } else {
      if (err->code == HL_OK) hl_err_nomem(err); /* the client sets its own errors */
      if (slot) {
        hl_free(slot->bucket);
        hl_free(slot->fingerprint);
        hl_free(slot);
      }
      rc = err->code;
    }
  }
  pthread_mutex_unlock(&fs->mu);
  hl_arena_destroy(tmp);
  return rc;
}

/* Bucket, key and client of PATH. */
hl_status_t hl_s3fs_resolve(s3_fs_t *fs, const char *path, hl_arena_t *arena, char **bucket,
                            char **key, hl_s3_client_t **client, hl_error_t *err) {
  hl_status_t rc = split(path, arena, bucket, key, err);
  return rc == HL_OK ? client_for(fs, path, *bucket, client, err) : rc;
}

/* resolve, and the prefix of the directory's entries (dir_prefix). */
hl_status_t hl_s3fs_resolve_dir(s3_fs_t *fs, const char *path, hl_arena_t *arena, char **bucket,
                                char **key, char **prefix, hl_s3_client_t **client,
                                hl_error_t *err) {
  hl_status_t rc = hl_s3fs_resolve(fs, path, arena, bucket, key, client, err);
  if (rc == HL_OK && !(*prefix = dir_prefix(arena, *key))) rc = hl_err_nomem(err);
  return rc;
}

/* ------------------------------------------------------------ listed files */

/* The time a file of object O is said to have: its LastModified second,
 * with the sub-second digits taken from a hash of its ETag.  Caches keyed
 * on a file's path, size and time (the Parquet footer cache) then see an
 * object replaced in place as changed even within one second and at the
 * same size -- S3's own answer to "is it the same object" is the ETag. */
static int64_t object_mtime(const hl_s3_object_t *o) {
  int64_t sec = o->mtime_ns - o->mtime_ns % 1000000000LL;
  const char *e = o->etag ? o->etag : "";
  return sec + (int64_t)(hl_hash_bytes(e, strlen(e)) % 1000000000ULL);
}

static void meta_put(s3_fs_t *fs, const char *path, const hl_s3_object_t *o, int64_t now) {
  if (o->etag && strlen(o->etag) >= sizeof(((meta_t *)0)->etag)) return; /* HEAD instead */
  pthread_mutex_lock(&fs->mu);
  if (!fs->meta_index || fs->n_metas >= META_MAX) { /* full: start over */
    hl_map_destroy(fs->meta_index);
    hl_free(fs->metas);
    fs->n_metas = fs->cap_metas = 0;
    fs->metas = NULL;
    fs->meta_index = hl_map_create();
  }
  if (fs->meta_index && fs->n_metas == fs->cap_metas) {
    size_t cap = fs->cap_metas ? fs->cap_metas * 2 : 256;
    meta_t *g = hl_realloc(fs->metas, sizeof(meta_t) * cap);
    if (g) {
      fs->metas = g;
      fs->cap_metas = cap;
    }
  }
  if (fs->meta_index && fs->n_metas < fs->cap_metas) {
    uint64_t slot;
    bool inserted;
    if (hl_map_upsert(fs->meta_index, path, strlen(path), fs->n_metas, &slot, &inserted) == 0) {
      if (inserted) fs->n_metas++;
      meta_t *m = &fs->metas[slot];
      m->size = o->size;
      snprintf(m->etag, sizeof m->etag, "%s", o->etag ? o->etag : "");
      m->mtime_ns = object_mtime(o);
      m->seen_ns = now;
    }
  }
  pthread_mutex_unlock(&fs->mu);
}

static bool meta_get(s3_fs_t *fs, const char *path, meta_t *out) {
  bool found = false;
  pthread_mutex_lock(&fs->mu);
  uint64_t slot;
  if (fs->meta_index && hl_map_get(fs->meta_index, path, strlen(path), &slot)) {
    *out = fs->metas[slot];
    found = hl_s3fs_now_ns() - out->seen_ns < META_TTL_NS;
  }
  pthread_mutex_unlock(&fs->mu);
  return found;
}

/* Forgets PATH (it was written or removed here, or found changed). */
void hl_s3fs_meta_forget(s3_fs_t *fs, const char *path) {
  pthread_mutex_lock(&fs->mu);
  uint64_t slot;
  if (fs->meta_index && hl_map_get(fs->meta_index, path, strlen(path), &slot))
    fs->metas[slot].seen_ns = INT64_MIN / 2;
  pthread_mutex_unlock(&fs->mu);
}

/* ------------------------------------------------------------ stat, list */

static hl_status_t s_stat(hl_stor_t *base, const char *path, hl_stor_stat_t *st, hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  memset(st, 0, sizeof *st);
  if (hl_s3fs_pending_stat(fs, path, st)) return HL_OK;
  meta_t m;
  if (meta_get(fs, path, &m)) { /* listed a moment ago */
    st->exists = true;
    st->size = m.size;
    st->mtime_ns = m.mtime_ns;
    return HL_OK;
  }
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve(fs, path, a, &bucket, &key, &c, err);
  if (rc == HL_OK && *key) {
    hl_s3_object_t o;
    bool exists;
    rc = hl_s3_head(c, bucket, key, a, &exists, &o, err);
    if (rc == HL_OK && exists) {
      st->exists = true;
      st->size = o.size;
      st->mtime_ns = object_mtime(&o);
      meta_put(fs, path, &o, hl_s3fs_now_ns()); /* the open that follows needs no HEAD */
    }
  }
  if (rc == HL_OK && !st->exists) {
    /* a directory: some object under "key/" (the bucket root always is) */
    hl_s3_list_t l;
    char *prefix = dir_prefix(a, key);
    rc = !prefix ? hl_err_nomem(err)
         : !*key ? HL_OK
                 : hl_s3_list_page(c, bucket, prefix, "/", NULL, 1, a, &l, err);
    if (rc == HL_OK && (!*key || l.n_objects > 0 || l.n_prefixes > 0)) {
      st->exists = true;
      st->is_dir = true;
    }
  }
  hl_arena_destroy(a);
  return rc;
}

static int cmp_entry(const void *a, const void *b) {
  return strcmp(((const hl_stor_entry_t *)a)->name, ((const hl_stor_entry_t *)b)->name);
}

/* A listed name that is not an entry: Hadoop's directory markers
 * ("dt=1_$folder$", and "dir/" objects, which come back as "" here). */
static bool marker(const char *name) {
  size_t n = strlen(name);
  return n == 0 || (n >= 9 && strcmp(name + n - 9, "_$folder$") == 0);
}

static hl_status_t s_list(hl_stor_t *base, const char *path, hl_arena_t *arena,
                          hl_stor_entry_t **out, size_t *n_out, hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  *out = NULL;
  *n_out = 0;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key, *prefix = NULL;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve_dir(fs, path, a, &bucket, &key, &prefix, &c, err);
  hl_stor_entry_t *entries = NULL;
  size_t n = 0, cap = 0;
  char *token = NULL;
  int64_t now = hl_s3fs_now_ns();
  size_t plen = prefix ? strlen(prefix) : 0;
  while (rc == HL_OK) {
    hl_s3_list_t l;
    rc = hl_s3_list_page(c, bucket, prefix, "/", token, 0, a, &l, err);
    if (rc != HL_OK) break;
    size_t want = n + l.n_objects + l.n_prefixes;
    if (want > cap) {
      size_t ncap = want > cap * 2 ? want : cap * 2;
      hl_stor_entry_t *g =
          hl_arena_realloc(arena, entries, cap * sizeof *entries, ncap * sizeof *entries);
      if (!g) {
        rc = hl_err_nomem(err);
        break;
      }
      entries = g;
      cap = ncap;
    }
    for (size_t i = 0; i < l.n_objects; i++) {
      const hl_s3_object_t *o = &l.objects[i];
      if (strncmp(o->key, prefix, plen) != 0) continue; /* not ours: a broken server */
      const char *name = o->key + plen;
      if (marker(name) || strchr(name, '/')) continue;
      hl_stor_entry_t *e = &entries[n];
      memset(e, 0, sizeof *e);
      e->name = hl_arena_strdup(arena, name);
      e->size = o->size;
      e->mtime_ns = object_mtime(o);
      char *full = hl_path_join(a, path, name);
      if (!e->name || !full) {
        rc = hl_err_nomem(err);
        break;
      }
      meta_put(fs, full, o, now);
      n++;
    }
    for (size_t i = 0; rc == HL_OK && i < l.n_prefixes; i++) {
      const char *p = l.prefixes[i];
      size_t len = strlen(p);
      if (strncmp(p, prefix, plen) != 0 || len <= plen + 1 || p[len - 1] != '/') continue;
      hl_stor_entry_t *e = &entries[n];
      memset(e, 0, sizeof *e);
      e->name = hl_arena_strndup(arena, p + plen, len - plen - 1);
      e->is_dir = true;
      if (!e->name) {
        rc = hl_err_nomem(err);
        break;
      }
      if (!strchr(e->name, '/')) n++;
    }
    if (rc != HL_OK || !l.truncated) break;
    if (!l.next_token || !*l.next_token) {
      rc = hl_err_set(err, HL_ERROR, HL_SS(PROTOCOL_VIOLATION),
                      "could not list \"%s\": a truncated listing without a continuation token",
                      path);
      break;
    }
    token = l.next_token;
  }
  if (rc == HL_OK && n > 1) qsort(entries, n, sizeof *entries, cmp_entry);
  /* a name listed both as an object and as a prefix ("a" and "a/x"): the
   * directory wins, as a file system cannot hold both */
  size_t w = 0;
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    if (w > 0 && strcmp(entries[w - 1].name, entries[i].name) == 0) {
      if (entries[i].is_dir) entries[w - 1] = entries[i];
      continue;
    }
    entries[w++] = entries[i];
  }
  if (rc == HL_OK) {
    *out = entries;
    *n_out = w;
  }
  hl_arena_destroy(a);
  return rc;
}

/* ------------------------------------------------------------ reading */

void hl_s3fs_file_free(s3_file_t *f) {
  for (size_t i = 0; i < f->n_spans; i++)
    hl_free(f->spans[i].data);
  hl_free(f->spans);
  hl_free(f->window.data);
  hl_free(f->buf);
  hl_free(f->path);
  hl_free(f->bucket);
  hl_free(f->key);
  hl_arena_destroy(f->arena);
  hl_free(f);
}

s3_file_t *hl_s3fs_file_new(s3_fs_t *fs, const char *path, const char *bucket, const char *key,
                            hl_s3_client_t *c) {
  s3_file_t *f = hl_calloc(1, sizeof *f);
  if (!f) return NULL;
  f->base.fs = &fs->base;
  f->fs = fs;
  f->client = c;
  f->path = hl_strdup(path);
  f->bucket = hl_strdup(bucket);
  f->key = hl_strdup(key);
  f->arena = hl_arena_create(0);
  if (!f->path || !f->bucket || !f->key || !f->arena) {
    hl_s3fs_file_free(f);
    return NULL;
  }
  return f;
}

static hl_status_t s_open_read(hl_stor_t *base, const char *path, hl_stor_file_t **out,
                               hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  *out = NULL;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve(fs, path, a, &bucket, &key, &c, err);
  meta_t m;
  uint64_t size = 0;
  const char *etag = "";
  if (rc == HL_OK && meta_get(fs, path, &m)) {
    size = m.size;
    etag = m.etag;
  } else if (rc == HL_OK) {
    hl_s3_object_t o;
    bool exists = false;
    rc = *key ? hl_s3_head(c, bucket, key, a, &exists, &o, err) : HL_OK;
    if (rc == HL_OK && !exists)
      rc = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE),
                      "could not open file \"%s\": No such object", path);
    if (rc == HL_OK) {
      size = o.size;
      etag = o.etag ? o.etag : "";
      meta_put(fs, path, &o, hl_s3fs_now_ns());
    }
  }
  s3_file_t *f = NULL;
  if (rc == HL_OK && !(f = hl_s3fs_file_new(fs, path, bucket, key, c))) rc = hl_err_nomem(err);
  if (rc == HL_OK) {
    f->size = size;
    snprintf(f->etag, sizeof f->etag, "%s", etag);
    *out = &f->base;
  }
  hl_arena_destroy(a);
  return rc;
}

static uint64_t s_file_size(hl_stor_file_t *base) {
  s3_file_t *f = (s3_file_t *)base;
  return f->writing ? f->buf_len : f->size;
}

/* GET [OFF, OFF+LEN) of F into BUF (LEN within the object). */
static hl_status_t fetch(s3_file_t *f, uint64_t off, size_t len, char *buf, hl_error_t *err) {
  size_t got = 0;
  hl_status_t rc = hl_s3_get_range(f->client, f->bucket, f->key, f->etag[0] ? f->etag : NULL, off,
                                   len, buf, &got, err);
  if (rc == HL_OK && got != len)
    rc = hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                    "could not read \"%s\": the object is shorter (%llu bytes at %llu) than when "
                    "it was opened (%llu bytes)",
                    f->path, (unsigned long long)got, (unsigned long long)off,
                    (unsigned long long)f->size);
  if (rc != HL_OK) hl_s3fs_meta_forget(f->fs, f->path);
  return rc;
}

static bool span_has(const span_t *s, uint64_t off, size_t len) {
  return s->data && off >= s->off && off + len <= s->off + s->len;
}

static hl_status_t s_read_at(hl_stor_file_t *base, uint64_t offset, void *buf, size_t len,
                             size_t *got, hl_error_t *err) {
  s3_file_t *f = (s3_file_t *)base;
  *got = 0;
  if (offset >= f->size || len == 0) return HL_OK;
  if (len > f->size - offset) len = (size_t)(f->size - offset);
  for (size_t i = 0; i < f->n_spans; i++) {
    if (span_has(&f->spans[i], offset, len)) {
      memcpy(buf, f->spans[i].data + (offset - f->spans[i].off), len);
      *got = len;
      return HL_OK;
    }
  }
  if (span_has(&f->window, offset, len)) {
    memcpy(buf, f->window.data + (offset - f->window.off), len);
    *got = len;
    return HL_OK;
  }
  if (len >= READ_AHEAD) { /* a big read goes straight to the caller */
    hl_status_t rc = fetch(f, offset, len, buf, err);
    if (rc == HL_OK) *got = len;
    return rc;
  }
  /* a small read: fetch a window from here, for the reads that follow */
  size_t wlen = READ_AHEAD;
  if (wlen > f->size - offset) wlen = (size_t)(f->size - offset);
  char *w =
      f->window.data && f->window.len >= wlen ? f->window.data : hl_realloc(f->window.data, wlen);
  if (!w) return hl_err_nomem(err);
  f->window.data = w;
  f->window.len = 0;
  hl_status_t rc = fetch(f, offset, wlen, w, err);
  if (rc != HL_OK) return rc;
  f->window.off = offset;
  f->window.len = wlen;
  memcpy(buf, w, len);
  *got = len;
  return HL_OK;
}

typedef struct range {
  uint64_t off, end;
} range_t;

static int cmp_range(const void *a, const void *b) {
  const range_t *x = a, *y = b;
  return x->off < y->off ? -1 : x->off > y->off ? 1 : 0;
}

static hl_status_t s_prefetch(hl_stor_file_t *base, const uint64_t *offsets, const uint64_t *lens,
                              size_t n, hl_error_t *err) {
  s3_file_t *f = (s3_file_t *)base;
  if (f->writing || n == 0) return HL_OK;
  range_t *r = hl_malloc(sizeof *r * n);
  if (!r) return hl_err_nomem(err);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (offsets[i] >= f->size || lens[i] == 0) continue;
    uint64_t end = lens[i] > f->size - offsets[i] ? f->size : offsets[i] + lens[i];
    r[m++] = (range_t){offsets[i], end};
  }
  qsort(r, m, sizeof *r, cmp_range);
  /* coalesce: a gap up to MERGE_GAP costs less than another request; a
   * merged range stops growing at MERGE_MAX */
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    if (k > 0 && r[i].off <= r[k - 1].end + MERGE_GAP &&
        (r[i].end > r[k - 1].end ? r[i].end : r[k - 1].end) - r[k - 1].off <= MERGE_MAX) {
      if (r[i].end > r[k - 1].end) r[k - 1].end = r[i].end;
    } else {
      r[k++] = r[i];
    }
  }
  /* the ranges replace what an earlier prefetch left */
  for (size_t i = 0; i < f->n_spans; i++)
    hl_free(f->spans[i].data);
  hl_free(f->spans);
  f->spans = NULL;
  f->n_spans = 0;
  hl_status_t rc = HL_OK;
  span_t *spans = k ? hl_calloc(k, sizeof *spans) : NULL;
  uint64_t *offs = k ? hl_malloc(sizeof *offs * k) : NULL;
  size_t *sizes = k ? hl_malloc(sizeof *sizes * k) : NULL;
  void **bufs = k ? hl_malloc(sizeof *bufs * k) : NULL;
  if (k && (!spans || !offs || !sizes || !bufs)) rc = hl_err_nomem(err);
  for (size_t i = 0; rc == HL_OK && i < k; i++) {
    spans[i].off = offs[i] = r[i].off;
    spans[i].len = sizes[i] = (size_t)(r[i].end - r[i].off);
    if (!(spans[i].data = bufs[i] = hl_malloc(sizes[i] ? sizes[i] : 1))) rc = hl_err_nomem(err);
  }
  if (rc == HL_OK && k)
    rc = hl_s3_get_ranges(f->client, f->bucket, f->key, f->etag[0] ? f->etag : NULL, offs, sizes,
                          bufs, k, 0, err);
  if (rc == HL_OK) {
    f->spans = spans;
    f->n_spans = k;
  } else {
    for (size_t i = 0; spans && i < k; i++)
      hl_free(spans[i].data);
    hl_free(spans);
    hl_s3fs_meta_forget(f->fs, f->path);
  }
  hl_free(offs);
  hl_free(sizes);
  hl_free(bufs);
  hl_free(r);
  return rc;
}

/* ------------------------------------------------------------ removing */

static hl_status_t s_rename(hl_stor_t *base, const char *from, const char *to, hl_error_t *err) {
  (void)base;
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "cannot rename \"%s\" to \"%s\": an object store has no rename", from, to);
}

static hl_status_t s_remove(hl_stor_t *base, const char *path, hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve(fs, path, a, &bucket, &key, &c, err);
  if (rc == HL_OK && *key) rc = hl_s3_delete(c, bucket, key, err);
  hl_s3fs_meta_forget(fs, path);
  hl_arena_destroy(a);
  return rc;
}

/* Deletes KEYS[0..N) of BUCKET, all sharing PATHS' client. */
static hl_status_t s_remove_many(hl_stor_t *base, char *const *paths, size_t n, hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  size_t i = 0;
  char **keys = n ? hl_arena_alloc(a, sizeof(char *) * n) : NULL;
  if (n && !keys) rc = hl_err_nomem(err);
  while (rc == HL_OK && i < n) {
    char *bucket, *key;
    hl_s3_client_t *c;
    rc = hl_s3fs_resolve(fs, paths[i], a, &bucket, &key, &c, err);
    size_t k = 0;
    if (rc == HL_OK && *key) keys[k++] = key;
    hl_s3fs_meta_forget(fs, paths[i]);
    size_t j = i + 1;
    for (; rc == HL_OK && j < n; j++) { /* the run of paths in the same bucket */
      char *b2, *k2;
      rc = split(paths[j], a, &b2, &k2, err);
      if (rc != HL_OK || strcmp(b2, bucket) != 0) break;
      if (*k2) keys[k++] = k2;
      hl_s3fs_meta_forget(fs, paths[j]);
    }
    if (rc == HL_OK && k) rc = hl_s3_delete_many(c, bucket, keys, k, err);
    i = j;
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t s_remove_tree(hl_stor_t *base, const char *path, hl_error_t *err) {
  s3_fs_t *fs = (s3_fs_t *)base;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  char *bucket, *key, *prefix = NULL;
  hl_s3_client_t *c;
  hl_status_t rc = hl_s3fs_resolve_dir(fs, path, a, &bucket, &key, &prefix, &c, err);
  if (rc == HL_OK && !*key)
    rc = hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                    "refusing to remove \"%s\": it is a whole bucket", path);
  if (rc == HL_OK) rc = hl_s3_delete(c, bucket, key, err); /* a file of that name */
  /* page by page: list 1,000 keys below, delete them, list again */
  while (rc == HL_OK) {
    hl_s3_list_t l;
    hl_arena_t *page = hl_arena_create(0);
    if (!page) {
      rc = hl_err_nomem(err);
      break;
    }
    rc = hl_s3_list_page(c, bucket, prefix, NULL, NULL, 0, page, &l, err);
    char **keys =
        rc == HL_OK && l.n_objects ? hl_arena_alloc(page, sizeof(char *) * l.n_objects) : NULL;
    size_t k = 0;
    for (size_t i = 0; keys && i < l.n_objects; i++)
      if (strncmp(l.objects[i].key, prefix, strlen(prefix)) == 0) keys[k++] = l.objects[i].key;
    if (rc == HL_OK && l.n_objects && !keys) rc = hl_err_nomem(err);
    if (rc == HL_OK && k) rc = hl_s3_delete_many(c, bucket, keys, k, err);
    bool more = rc == HL_OK && k > 0;
    hl_arena_destroy(page);
    if (!more) break;
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t s_mkdirs(hl_stor_t *base, const char *path, hl_error_t *err) {
  (void)base;
  (void)path;
  (void)err;
  return HL_OK; /* a prefix exists once an object lies under it */
}

static hl_status_t s_rmdir(hl_stor_t *base, const char *path, hl_error_t *err) {
  (void)base;
  (void)path;
  (void)err;
  return HL_OK;
}

static bool s_object_store(hl_stor_t *base, const char *path) {
  (void)base;
  return hl_uri_object_root(path) != 0;
}

static void s_destroy(hl_stor_t *base) {
  s3_fs_t *fs = (s3_fs_t *)base;
  hl_s3fs_writes_end(fs);
  while (fs->clients) {
    client_slot_t *c = fs->clients;
    fs->clients = c->next;
    hl_s3_client_destroy(c->client);
    hl_free(c->bucket);
    hl_free(c->fingerprint);
    hl_free(c);
  }
  hl_map_destroy(fs->meta_index);
  hl_free(fs->metas);
  pthread_mutex_destroy(&fs->mu);
  hl_free(fs);
}

static const hl_stor_ops_t s3_ops = {
    .stat = s_stat,
    .list = s_list,
    .open_read = s_open_read,
    .read_at = s_read_at,
    .file_size = s_file_size,
    .create = hl_s3fs_create,
    .append = hl_s3fs_append,
    .sync = hl_s3fs_sync,
    .close = hl_s3fs_close,
    .rename = s_rename,
    .remove = s_remove,
    .mkdirs = s_mkdirs,
    .rmdir = s_rmdir,
    .remove_tree = s_remove_tree,
    .sync_fs = hl_s3fs_sync_fs,
    .destroy = s_destroy,
    .object_store = s_object_store,
    .create_pending = hl_s3fs_create_pending,
    .publish_pending = hl_s3fs_publish_pending,
    .publish_pending_many = hl_s3fs_publish_pending_many,
    .abort_pending = hl_s3fs_abort_pending,
    .abort_pending_under = hl_s3fs_abort_pending_under,
    .prefetch = s_prefetch,
    .remove_many = s_remove_many,
};

hl_stor_t *hl_stor_s3_create(hl_s3_config_fn fn, void *arg) {
  s3_fs_t *fs = hl_calloc(1, sizeof *fs);
  if (!fs) return NULL;
  if (pthread_mutex_init(&fs->mu, NULL) != 0) {
    hl_free(fs);
    return NULL;
  }
  if (pthread_cond_init(&fs->work, NULL) != 0 || pthread_cond_init(&fs->progress, NULL) != 0) {
    pthread_mutex_destroy(&fs->mu);
    hl_free(fs);
    return NULL;
  }
  fs->base.ops = &s3_ops;
  fs->config = fn;
  fs->config_arg = arg;
  fs->part_size = DEFAULT_PART;
  return &fs->base;
}

void hl_stor_s3_stats(hl_stor_t *base, hl_s3_stats_t *out) {
  s3_fs_t *fs = (s3_fs_t *)base;
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&fs->mu);
  for (client_slot_t *c = fs->clients; c; c = c->next) {
    hl_s3_stats_t st;
    hl_s3_client_stats(c->client, &st);
    for (int k = 0; k < HL_S3_N_KINDS; k++)
      out->requests[k] += st.requests[k];
    out->retries += st.retries;
    out->bytes_in += st.bytes_in;
    out->bytes_out += st.bytes_out;
  }
  pthread_mutex_unlock(&fs->mu);
}

void hl_stor_s3_set_part_size(hl_stor_t *base, size_t bytes) {
  ((s3_fs_t *)base)->part_size = bytes < MIN_PART ? MIN_PART : bytes;
}
