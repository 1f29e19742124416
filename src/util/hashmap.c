/*
 * hashmap.c -- open-addressing hash map of byte strings (see hashmap.h).
 *
 * Linear probing over a power-of-two table kept at most half full; the
 * stored hash short-cuts most key comparisons.  A word-at-a-time
 * multiply-fold hash with a final avalanche step is enough here: keys are group keys and paths, not
 * attacker-chosen in bulk, and the table grows so chains stay short.
 */
#include "util/hashmap.h"

#include "util/mem.h"

#include <string.h>

typedef struct slot {
  uint64_t hash;
  const void *key; /* NULL: empty */
  size_t len;
  uint64_t value;
} slot_t;

struct hl_map {
  slot_t *slots;
  size_t cap; /* power of two */
  size_t count;
  hl_arena_t *keys;
};

/* 64x64 -> 128-bit multiply folded to 64 bits: one multiply mixes a whole
 * word, where FNV-1a took a multiply per byte. */
static uint64_t fold_mul(uint64_t a, uint64_t b) {
  unsigned __int128 r = (unsigned __int128)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t hl_hash_bytes(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)len;
  size_t n = len;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = fold_mul(h ^ w, 0xa0761d6478bd642fULL);
  }
  uint64_t w = 0;
  if (n) memcpy(&w, p, n);
  h = fold_mul(h ^ w, 0xe7037ed1a0b428dbULL);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

hl_map_t *hl_map_create(void) {
  hl_map_t *m = hl_calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->cap = 64;
  m->slots = hl_calloc(m->cap, sizeof(slot_t));
  m->keys = hl_arena_create(0);
  if (!m->slots || !m->keys) {
    hl_map_destroy(m);
    return NULL;
  }
  return m;
}

void hl_map_destroy(hl_map_t *m) {
  if (!m) return;
  hl_free(m->slots);
  hl_arena_destroy(m->keys);
  hl_free(m);
}

static slot_t *find(slot_t *slots, size_t cap, uint64_t h, const void *key, size_t len) {
  size_t i = h & (cap - 1);
  for (;;) {
    slot_t *s = &slots[i];
    if (!s->key) return s;
    if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0) return s;
    i = (i + 1) & (cap - 1);
  }
}

static int grow(hl_map_t *m) {
  size_t cap = m->cap * 2;
  slot_t *slots = hl_calloc(cap, sizeof(slot_t));
  if (!slots) return -1;
  for (size_t i = 0; i < m->cap; i++) {
    slot_t *s = &m->slots[i];
    if (!s->key) continue;
    *find(slots, cap, s->hash, s->key, s->len) = *s;
  }
  hl_free(m->slots);
  m->slots = slots;
  m->cap = cap;
  return 0;
}

int hl_map_upsert(hl_map_t *m, const void *key, size_t len, uint64_t new_value, uint64_t *value,
                  bool *inserted) {
  if ((m->count + 1) * 2 > m->cap && grow(m) < 0) return -1;
  uint64_t h = hl_hash_bytes(key, len);
  slot_t *s = find(m->slots, m->cap, h, key, len);
  if (s->key) {
    *value = s->value;
    *inserted = false;
    return 0;
  }
  /* a zero-length key still needs a non-NULL pointer to mark the slot */
  void *copy = hl_arena_alloc(m->keys, len ? len : 1);
  if (!copy) return -1;
  if (len) memcpy(copy, key, len);
  s->hash = h;
  s->key = copy;
  s->len = len;
  s->value = new_value;
  m->count++;
  *value = new_value;
  *inserted = true;
  return 0;
}

int hl_map_set(hl_map_t *m, const void *key, size_t len, uint64_t value) {
  uint64_t old;
  bool inserted;
  if (hl_map_upsert(m, key, len, value, &old, &inserted) < 0) return -1;
  if (!inserted) find(m->slots, m->cap, hl_hash_bytes(key, len), key, len)->value = value;
  return 0;
}

int hl_map_get(const hl_map_t *m, const void *key, size_t len, uint64_t *value) {
  uint64_t h = hl_hash_bytes(key, len);
  slot_t *s = find(m->slots, m->cap, h, key, len);
  if (!s->key) return 0;
  *value = s->value;
  return 1;
}

size_t hl_map_count(const hl_map_t *m) {
  return m->count;
}

size_t hl_map_bytes(const hl_map_t *m) {
  return m->cap * sizeof(slot_t) + hl_arena_used(m->keys);
}
