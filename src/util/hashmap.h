/*
 * hashmap.h -- byte-string keys to 64-bit values, open addressing.
 *
 * Used by hash aggregation (group keys to group numbers) and by the
 * partition and file sets of repair.  Keys are copied into the map's arena.
 */
#ifndef HL_HASHMAP_H
#define HL_HASHMAP_H

#include "util/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_map hl_map_t;

hl_map_t *hl_map_create(void); /* caller destroys; NULL on OOM */
void hl_map_destroy(hl_map_t *map);
/* Finds KEY; when absent inserts it with value NEW_VALUE.  *value receives
 * the stored value, *inserted whether it was new.  Returns 0, or -1 on
 * OOM (map unchanged). */
int hl_map_upsert(hl_map_t *map, const void *key, size_t len, uint64_t new_value, uint64_t *value,
                  bool *inserted);
/* Sets KEY to VALUE, inserting or overwriting.  0, or -1 on OOM. */
int hl_map_set(hl_map_t *map, const void *key, size_t len, uint64_t value);
/* Looks KEY up: 1 found (*value set), 0 absent. */
int hl_map_get(const hl_map_t *map, const void *key, size_t len, uint64_t *value);
size_t hl_map_count(const hl_map_t *map);
/* Bytes the map holds (slots and keys), for memory budgets. */
size_t hl_map_bytes(const hl_map_t *map);
uint64_t hl_hash_bytes(const void *data, size_t len);

/* MurmurHash3's 64-bit finalizer: every input bit moves every output bit
 * (spill partitions by hash, Hive's Murmur3). */
static inline uint64_t hl_hash_mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

#endif
