/*
 * stor_cache.h -- a cache of directory listings, keyed on what proves a
 * listing current: the directory's modification time (a file added,
 * removed or renamed inside changes it).  Never on a timer; but a listing
 * taken within a few seconds of the directory's mtime is not reused, since
 * a change within the same timestamp tick would not show (stor_cache.c,
 * "Racy listings").
 *
 * Owned by a session (one per open warehouse handle); safe to use from
 * several threads at once (parallel scan workers share it).
 */
#ifndef HL_STOR_CACHE_H
#define HL_STOR_CACHE_H

#include "storage/stor.h"

typedef struct hl_list_cache hl_list_cache_t;

typedef struct hl_list_cache_stats {
  uint64_t hits;   /* listings served from the cache */
  uint64_t misses; /* directories listed */
} hl_list_cache_stats_t;

/* MAX_DIRS bounds the directories kept (oldest dropped first).  Caller
 * destroys; NULL on OOM. */
hl_list_cache_t *hl_list_cache_create(size_t max_dirs);
void hl_list_cache_destroy(hl_list_cache_t *cache); /* NULL is a no-op */

/* Like fs->ops->list (entries sorted by name, copied into ARENA), served
 * from the cache when DIR's mtime is the one cached.  CACHE may be NULL
 * (then it just lists). */
hl_status_t hl_list_cache_list(hl_list_cache_t *cache, hl_stor_t *fs, const char *dir,
                               hl_arena_t *arena, hl_stor_entry_t **out, size_t *n,
                               hl_error_t *err);
hl_list_cache_stats_t hl_list_cache_stats(hl_list_cache_t *cache);
/* Object stores have no directory mtime: their listings are reused for
 * TTL_NS after they were taken (0, the default: never reused). */
void hl_list_cache_set_object_ttl(hl_list_cache_t *cache, int64_t ttl_ns);
/* Forgets the listing of DIR (a write of this process changed it). */
void hl_list_cache_forget(hl_list_cache_t *cache, const char *dir);

#endif
