/*
 * session.h -- the state one open warehouse handle carries between
 * statements: metastore, file system, warehouse root, current database and
 * SET variables.  Owned by the api layer (one per hl_db_t); commands and
 * queries borrow it for the duration of one statement.
 */
#ifndef HL_SESSION_H
#define HL_SESSION_H

#include "catalog/catalog.h"
#include "storage/stor.h"
#include "util/kv.h"

typedef struct hl_session {
  hl_cat_t *cat;       /* owned by the api layer */
  hl_stor_t *fs;       /* the local file system backend */
  char *warehouse;     /* absolute, normalised warehouse root (heap) */
  char *current_db;    /* lower-case (heap) */
  hl_kv_t *settings;   /* SET key=value pairs (heap, keys/values heap) */
  int n_settings;
  int cap_settings;
} hl_session_t;

/* Value of a session setting: what SET assigned, else the built-in default
 * of known keys (hive.exec.default.partition.name -> __HIVE_DEFAULT_PARTITION__,
 * ...), else NULL.  Borrowed until the next SET/RESET. */
const char *hl_session_get(const hl_session_t *s, const char *key);
/* Sets (copies) KEY=VALUE.  HL_NOMEM on failure. */
hl_status_t hl_session_set(hl_session_t *s, const char *key, const char *value);
/* Forgets every SET (RESET). */
void hl_session_reset_settings(hl_session_t *s);
/* Frees settings and strings (not cat/fs). */
void hl_session_fini(hl_session_t *s);

/* The built-in defaults, NULL-terminated pairs {key, value, key, value, ...,
 * NULL}, for SET's listing. */
extern const char *const hl_session_defaults[];

#endif
