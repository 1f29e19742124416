/*
 * imap.h -- 64-bit integer keys to 32-bit values, open addressing.
 *
 * The integer counterpart of hashmap.h for the hot paths that key on one
 * integer (a join on BIGINT/INT/DATE keys, GROUP BY one integer): keys sit
 * inline next to their values, so a probe touches one cache line and never
 * serializes or compares bytes.  Value 0 is reserved (an empty slot), so
 * callers store n + 1.
 */
#ifndef HL_IMAP_H
#define HL_IMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct hl_imap {
  int64_t *keys;
  uint32_t *vals; /* 0: empty slot */
  size_t cap;     /* power of two, or 0 before the first insert */
  size_t count;
} hl_imap_t;

/* A zeroed struct is an empty map; hl_imap_free releases it. */
void hl_imap_free(hl_imap_t *m);
/* The value of KEY, or 0 when absent. */
uint32_t hl_imap_get(const hl_imap_t *m, int64_t key);
/* Finds KEY; when absent inserts it with VALUE (non-zero).  *found gets the
 * stored value (VALUE when inserted).  0, or -1 on OOM (map unchanged). */
int hl_imap_upsert(hl_imap_t *m, int64_t key, uint32_t value, uint32_t *found);
/* Bytes held, for memory budgets. */
size_t hl_imap_bytes(const hl_imap_t *m);

/* The home slot of KEY in a table of CAP slots (a power of two). */
static inline size_t hl_imap_slot(size_t cap, int64_t key) {
  uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL;
  return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* A hint that KEY is looked up soon: its slot's cache lines load
 * meanwhile.  Hinting a batch of keys before looking them up overlaps
 * their cache misses when the table is larger than the cache. */
static inline void hl_imap_prefetch(const hl_imap_t *m, int64_t key) {
  if (!m->cap) return;
  size_t i = hl_imap_slot(m->cap, key);
  __builtin_prefetch(&m->vals[i]);
  __builtin_prefetch(&m->keys[i]);
}

#endif
