/*
 * kv.c -- key/value pair lookup (see kv.h).
 */
#include "util/kv.h"

#include <string.h>

const char *hl_kv_get(const hl_kv_t *kvs, int n, const char *key) {
  for (int i = n - 1; i >= 0; i--) /* later pairs override earlier ones */
    if (strcmp(kvs[i].key, key) == 0) return kvs[i].value;
  return NULL;
}
