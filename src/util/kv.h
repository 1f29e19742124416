/*
 * kv.h -- string key/value pairs (table, serde and database properties).
 */
#ifndef HL_KV_H
#define HL_KV_H

typedef struct hl_kv {
  char *key;
  char *value;
} hl_kv_t;

/* Value of KEY (exact match) among N pairs; NULL when absent. */
const char *hl_kv_get(const hl_kv_t *kvs, int n, const char *key);

#endif
