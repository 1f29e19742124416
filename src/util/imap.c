/*
 * imap.c -- open-addressing map of 64-bit integers (see imap.h).
 *
 * Linear probing over a power-of-two table kept at most half full;
 * Fibonacci hashing spreads sequential keys (ids, dates) over the table.
 */
#include "util/imap.h"

#include "util/mem.h"

static size_t slot_of(size_t cap, int64_t key) {
  return hl_imap_slot(cap, key);
}

void hl_imap_free(hl_imap_t *m) {
  hl_free(m->keys);
  hl_free(m->vals);
  m->keys = NULL;
  m->vals = NULL;
  m->cap = m->count = 0;
}

uint32_t hl_imap_get(const hl_imap_t *m, int64_t key) {
  if (!m->cap) return 0;
  for (size_t i = slot_of(m->cap, key);; i = (i + 1) & (m->cap - 1)) {
    if (!m->vals[i]) return 0;
    if (m->keys[i] == key) return m->vals[i];
  }
}

static int grow(hl_imap_t *m) {
  size_t cap = m->cap ? m->cap * 2 : 1024;
  int64_t *keys = hl_malloc(sizeof(int64_t) * cap);
  uint32_t *vals = hl_calloc(cap, sizeof(uint32_t));
  if (!keys || !vals) {
    hl_free(keys);
    hl_free(vals);
    return -1;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->vals[i]) continue;
    size_t k = slot_of(cap, m->keys[i]);
    while (vals[k])
      k = (k + 1) & (cap - 1);
    keys[k] = m->keys[i];
    vals[k] = m->vals[i];
  }
  hl_free(m->keys);
  hl_free(m->vals);
  m->keys = keys;
  m->vals = vals;
  m->cap = cap;
  return 0;
}

int hl_imap_upsert(hl_imap_t *m, int64_t key, uint32_t value, uint32_t *found) {
  if ((m->count + 1) * 2 > m->cap && grow(m) < 0) return -1;
  size_t i = slot_of(m->cap, key);
  while (m->vals[i]) {
    if (m->keys[i] == key) {
      *found = m->vals[i];
      return 0;
    }
    i = (i + 1) & (m->cap - 1);
  }
  m->keys[i] = key;
  m->vals[i] = value;
  m->count++;
  *found = value;
  return 0;
}

size_t hl_imap_bytes(const hl_imap_t *m) {
  return m->cap * (sizeof(int64_t) + sizeof(uint32_t));
}
