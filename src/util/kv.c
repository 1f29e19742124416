/*
 * kv.c -- key/value pair lookup (see kv.h).
 */
#include "util/kv.h"

#include <string.h>
#include <strings.h>

const char *hl_kv_get(const hl_kv_t *kvs, int n, const char *key) {
  for (int i = n - 1; i >= 0; i--) /* later pairs override earlier ones */
    if (strcmp(kvs[i].key, key) == 0) return kvs[i].value;
  return NULL;
}

int hl_kv_is_secret(const char *key) {
  static const char *const words[] = {"password",   "secret",      "keytab_content", "token",
                                      "credential", "session.key", "encryption.key", NULL};
  size_t n = strlen(key);
  for (const char *const *w = words; *w; w++) {
    size_t m = strlen(*w);
    for (size_t i = 0; i + m <= n; i++)
      if (strncasecmp(key + i, *w, m) == 0) return 1;
  }
  return 0;
}
