/*
 * stor_cache.c -- directory listing cache (see stor_cache.h).
 *
 * A hash map from path to slot; each slot owns a heap copy of the listing
 * and the directory mtime it was taken at.  A lookup stats the directory
 * (one call) and, when the mtime matches, copies the listing out instead
 * of reading the directory and stat-ing every entry.  Slots are recycled
 * in insertion order when the cache is full.
 *
 * Racy listings (git's "racy index" problem): file-system timestamps are
 * coarse -- a kernel tick on Linux before 6.13, a second or two on some
 * file systems -- so a file added just after a listing can leave the
 * directory's mtime what it was, and the cache would serve the listing
 * without that file for as long as nothing else changes the directory.  A
 * listing whose directory mtime is less than RACY_NS older than the moment
 * the lookup began is therefore kept but not trusted: the next lookup
 * lists again (and trusts that listing once the mtime has aged).
 */
#include "storage/stor_cache.h"

#include "util/hashmap.h"
#include "util/mem.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

/* Wider than any file system's timestamp granularity (FAT: 2 s). */
#define RACY_NS (3LL * 1000000000LL)

typedef struct slot {
  char *path; /* heap; NULL when free */
  int64_t mtime_ns;
  bool racy;                /* taken within RACY_NS of mtime_ns: list again */
  hl_stor_entry_t *entries; /* heap array; names in `names` */
  char *names;
  size_t n;
} slot_t;

struct hl_list_cache {
  pthread_mutex_t mu;
  hl_map_t *index; /* path -> slot + 1 (0: stale) */
  slot_t *slots;
  size_t cap, next;
  hl_list_cache_stats_t stats;
  int64_t object_ttl_ns; /* object stores: how long a listing is reused (0: never) */
};

hl_list_cache_t *hl_list_cache_create(size_t max_dirs) {
  hl_list_cache_t *c = hl_calloc(1, sizeof(*c));
  if (!c) return NULL;
  c->cap = max_dirs ? max_dirs : 1;
  c->slots = hl_calloc(c->cap, sizeof(slot_t));
  c->index = hl_map_create();
  if (!c->slots || !c->index) {
    hl_free(c->slots);
    hl_map_destroy(c->index);
    hl_free(c);
    return NULL;
  }
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

static void slot_clear(slot_t *s) {
  hl_free(s->path);
  hl_free(s->entries);
  hl_free(s->names);
  memset(s, 0, sizeof(*s));
}

void hl_list_cache_destroy(hl_list_cache_t *c) {
  if (!c) return;
  for (size_t i = 0; i < c->cap; i++)
    slot_clear(&c->slots[i]);
  hl_free(c->slots);
  hl_map_destroy(c->index);
  pthread_mutex_destroy(&c->mu);
  hl_free(c);
}

/* Copies N entries (names included) into ARENA. */
static hl_status_t copy_out(const hl_stor_entry_t *src, size_t n, hl_arena_t *arena,
                            hl_stor_entry_t **out, hl_error_t *err) {
  hl_stor_entry_t *e = hl_arena_alloc(arena, sizeof(*e) * (n ? n : 1));
  if (!e) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++) {
    e[i] = src[i];
    if (!(e[i].name = hl_arena_strdup(arena, src[i].name))) return hl_err_nomem(err);
  }
  *out = e;
  return HL_OK;
}

/* Stores a listing; failures to cache are not errors (the caller has it). */
static void store(hl_list_cache_t *c, const char *dir, int64_t mtime, bool racy,
                  const hl_stor_entry_t *src, size_t n) {
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++)
    bytes += strlen(src[i].name) + 1;
  char *path = hl_strdup(dir);
  hl_stor_entry_t *e = hl_malloc(sizeof(*e) * (n ? n : 1));
  char *names = hl_malloc(bytes ? bytes : 1);
  if (!path || !e || !names) {
    hl_free(path);
    hl_free(e);
    hl_free(names);
    return;
  }
  size_t off = 0;
  for (size_t i = 0; i < n; i++) {
    e[i] = src[i];
    size_t len = strlen(src[i].name) + 1;
    memcpy(names + off, src[i].name, len);
    e[i].name = names + off;
    off += len;
  }
  uint64_t idx;
  if (hl_map_get(c->index, dir, strlen(dir), &idx) && idx &&
      strcmp(c->slots[idx - 1].path, dir) == 0) {
    slot_clear(&c->slots[idx - 1]); /* replace the stale listing in place */
  } else {
    idx = c->next + 1;
    slot_t *old = &c->slots[c->next];
    if (old->path) {
      /* the evicted path no longer has a slot */
      if (hl_map_set(c->index, old->path, strlen(old->path), 0) < 0) {
        hl_free(path);
        hl_free(e);
        hl_free(names);
        return;
      }
      slot_clear(old);
    }
    c->next = (c->next + 1) % c->cap;
  }
  slot_t *s = &c->slots[idx - 1];
  s->path = path;
  s->mtime_ns = mtime;
  s->racy = racy;
  s->entries = e;
  s->names = names;
  s->n = n;
  if (hl_map_set(c->index, dir, strlen(dir), idx) < 0) slot_clear(s); /* uncached, still right */
}

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* An object store's prefix has no modification time: a listing is reused
 * for the configured time after it was taken (slot mtime_ns: when), and
 * listed again after that; our own writes forget what they change
 * (hl_list_cache_forget). */
static hl_status_t list_object(hl_list_cache_t *c, hl_stor_t *fs, const char *dir,
                               hl_arena_t *arena, hl_stor_entry_t **out, size_t *n,
                               hl_error_t *err) {
  int64_t now = mono_ns();
  pthread_mutex_lock(&c->mu);
  int64_t ttl = c->object_ttl_ns;
  uint64_t idx;
  if (ttl > 0 && hl_map_get(c->index, dir, strlen(dir), &idx) && idx) {
    slot_t *s = &c->slots[idx - 1];
    if (s->path && strcmp(s->path, dir) == 0 && now - s->mtime_ns < ttl) {
      c->stats.hits++;
      hl_status_t rc = copy_out(s->entries, s->n, arena, out, err);
      *n = s->n;
      pthread_mutex_unlock(&c->mu);
      return rc;
    }
  }
  c->stats.misses++;
  pthread_mutex_unlock(&c->mu);
  hl_status_t rc = fs->ops->list(fs, dir, arena, out, n, err);
  if (rc != HL_OK || ttl <= 0) return rc;
  pthread_mutex_lock(&c->mu);
  store(c, dir, now, false, *out, *n);
  pthread_mutex_unlock(&c->mu);
  return HL_OK;
}

void hl_list_cache_set_object_ttl(hl_list_cache_t *c, int64_t ttl_ns) {
  if (!c) return;
  pthread_mutex_lock(&c->mu);
  c->object_ttl_ns = ttl_ns;
  pthread_mutex_unlock(&c->mu);
}

void hl_list_cache_forget(hl_list_cache_t *c, const char *dir) {
  if (!c) return;
  pthread_mutex_lock(&c->mu);
  uint64_t idx;
  if (hl_map_get(c->index, dir, strlen(dir), &idx) && idx &&
      strcmp(c->slots[idx - 1].path, dir) == 0)
    c->slots[idx - 1].mtime_ns = INT64_MIN / 2; /* stale: listed again */
  pthread_mutex_unlock(&c->mu);
}

hl_status_t hl_list_cache_list(hl_list_cache_t *c, hl_stor_t *fs, const char *dir,
                               hl_arena_t *arena, hl_stor_entry_t **out, size_t *n,
                               hl_error_t *err) {
  if (!c) return fs->ops->list(fs, dir, arena, out, n, err);
  if (fs->ops->object_store && fs->ops->object_store(fs, dir))
    return list_object(c, fs, dir, arena, out, n, err);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now); /* before the stat: see "Racy listings" */
  hl_stor_stat_t st;
  hl_status_t rc = fs->ops->stat(fs, dir, &st, err);
  if (rc != HL_OK) return rc;
  if (!st.exists)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE), "directory \"%s\" does not exist",
                      dir);
  pthread_mutex_lock(&c->mu);
  uint64_t idx;
  if (hl_map_get(c->index, dir, strlen(dir), &idx) && idx) {
    slot_t *s = &c->slots[idx - 1];
    if (s->path && strcmp(s->path, dir) == 0 && s->mtime_ns == st.mtime_ns && !s->racy) {
      c->stats.hits++;
      rc = copy_out(s->entries, s->n, arena, out, err);
      *n = s->n;
      pthread_mutex_unlock(&c->mu);
      return rc;
    }
  }
  c->stats.misses++;
  pthread_mutex_unlock(&c->mu);
  rc = fs->ops->list(fs, dir, arena, out, n, err);
  if (rc != HL_OK) return rc;
  int64_t began = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
  pthread_mutex_lock(&c->mu);
  store(c, dir, st.mtime_ns, began - st.mtime_ns < RACY_NS, *out, *n);
  pthread_mutex_unlock(&c->mu);
  return HL_OK;
}

hl_list_cache_stats_t hl_list_cache_stats(hl_list_cache_t *c) {
  hl_list_cache_stats_t s = {0, 0};
  if (!c) return s;
  pthread_mutex_lock(&c->mu);
  s = c->stats;
  pthread_mutex_unlock(&c->mu);
  return s;
}
