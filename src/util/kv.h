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

/* True when KEY names a value that is never shown (SET, SHOW CREATE
 * CATALOG, errors): passwords, secret keys, session tokens -- Hadoop's
 * hadoop.security.sensitive-config-keys and Doris's rule, by words of the
 * key, case-insensitively. */
int hl_kv_is_secret(const char *key);
/* What is shown instead of a secret value: Doris's mask, which its users'
 * tools already recognise (SHOW CREATE CATALOG showed it before). */
#define HL_KV_MASK "*XXX"

#endif
