/*
 * session.h -- the state one open warehouse handle carries between
 * statements: metastore, file system, warehouse root, current database and
 * SET variables.  Owned by the api layer (one per hl_db_t); commands and
 * queries borrow it for the duration of one statement.
 */
#ifndef HL_SESSION_H
#define HL_SESSION_H

#include "catalog/catalog.h"
#include "session/budget.h"
#include "session/notify.h"
#include "storage/stor.h"
#include "util/kv.h"

typedef struct hl_session {
  /* The current catalog (session/catalogs.h): `internal`, the embedded
   * metastore owned by the api layer, unless SWITCH / USE c.db chose
   * another; current_db is its current database. */
  hl_cat_t *cat;
  struct hl_catalogs *catalogs;   /* the catalogs by name (catalogs.h; owned) */
  hl_stor_t *fs;                  /* every location: local and S3 (stor_route.c; owned) */
  hl_stor_t *s3;                  /* the S3 backend inside fs (borrowed), for its statistics */
  struct hl_s3_scopes *s3_scopes; /* S3 settings of tables and catalogs (s3conf.h; owned) */
  char *warehouse;                /* absolute, normalised warehouse root (heap) */
  char *metastore;                /* absolute, normalised metastore file (heap; NULL: unknown) */
  char *current_db;               /* lower-case (heap) */
  hl_kv_t *settings;              /* SET key=value pairs (heap, keys/values heap) */
  int n_settings;
  int cap_settings;
  struct hl_parquet_cache *parquet_cache; /* footers, keyed on path/size/mtime (owned) */
  struct hl_list_cache *list_cache;       /* partition directory listings (owned) */
  hl_budget_t budget; /* memory limit and cancel flag of the running statement */
  hl_notify_t notify; /* warning and progress callbacks (api) */
  /* The read snapshot (exec/snapshot.h) that the scans being built join:
   * set while a query's operators are built (hl_exec_plan) or while a
   * write runs its SELECTs; NULL otherwise.  Borrowed. */
  struct hl_snap *snap;
  /* The spill space (exec/spill.h) of the query whose operators are being
   * built, set beside snap; NULL otherwise.  Borrowed. */
  struct hl_spill *spill;
  /* The running statement's parameters (params.h): lent by the api while
   * it is planned; NULL otherwise.  Borrowed. */
  struct hl_params *params;
  hl_kv_t *config; /* WAREHOUSE/.hivelite/config key=value lines (heap) */
  int n_config;
} hl_session_t;

/* Value of a session setting: what SET assigned, else the built-in default
 * of known keys (hive.exec.default.partition.name -> __HIVE_DEFAULT_PARTITION__,
 * ...), else NULL.  Borrowed until the next SET/RESET. */
const char *hl_session_get(const hl_session_t *s, const char *key);
/* KEY as a positive integer in *OUT (DFLT when unset or empty); anything
 * else is 22023 naming the key. */
hl_status_t hl_session_get_u64(hl_session_t *s, const char *key, uint64_t dflt, uint64_t *out,
                               hl_error_t *err);
/* V, the value of setting KEY (for the message), as a duration in
 * milliseconds: a bare number, or with the unit ms, s or m (Hadoop and
 * Trino write "60s", "200ms").  NULL V leaves *OUT.  Else 22023. */
hl_status_t hl_session_parse_millis(const char *key, const char *v, int64_t *out, hl_error_t *err);
/* hive.exec.default.partition.name, or Hive's default when unset or empty. */
const char *hl_session_default_part_name(const hl_session_t *s);
/* Reads the warehouse configuration file WAREHOUSE/.hivelite/config (if
 * present): one `key=value` per line, blanks around both trimmed, blank
 * lines and lines starting with '#' ignored.  Its values sit between SET
 * and the built-in defaults (SET wins; RESET returns to the file's value).
 * A line without '=' is an error (22023) naming the line; the file is
 * capped at 1 MiB.  Requires s->fs and s->warehouse. */
hl_status_t hl_session_load_config(hl_session_t *s, hl_error_t *err);
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
