/*
 * catalog.h -- the metastore interface.
 *
 * Databases, tables (columns, partition keys, storage descriptor,
 * parameters), partitions (values, own location, parameters) behind one C
 * interface, dispatched to a backend (cat_backend.h, cat_dispatch.c): the
 * embedded SQLite metastore (cat_sqlite.c, opened by hl_cat_open) or an
 * attached Hive Metastore (src/hms_client/).
 *
 * Names are stored lower-case (Hive identifiers are case-insensitive);
 * lookups lower-case their arguments.  Partition values are stored as the
 * raw (unescaped) text Hive keeps; NULL stands for the default partition.
 * Callers type-check values against the key types before adding them.
 *
 * Objects returned by get/list are allocated in the caller's ARENA.
 * Every DDL statement runs between hl_cat_begin and hl_cat_commit (or
 * hl_cat_rollback on any error), so a failed statement changes nothing.
 * Error codes: HL_NOTFOUND with 3F000 (database) / 42P01 (table) / 42704
 * (partition); HL_CONSTRAINT with 42P04 / 42P07 / 42710 for duplicates and
 * 2BP01 for a non-empty database; HL_IOERR/HL_CORRUPT for SQLite trouble.
 */
#ifndef HL_CATALOG_H
#define HL_CATALOG_H

#include "util/arena.h"
#include "util/error.h"
#include "util/kv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_cat hl_cat_t;

typedef struct hl_cat_db {
  int64_t id;      /* assigned by the catalog */
  char *name;      /* lower-case */
  char *comment;   /* NULL if none */
  char *location;  /* absolute path/URI */
  char *owner;     /* NULL if none */
  hl_kv_t *params; /* DBPROPERTIES */
  int n_params;
} hl_cat_db_t;

typedef struct hl_cat_column {
  char *name;    /* lower-case */
  char *type;    /* Hive type text, lower-case: "decimal(10,2)" */
  char *comment; /* NULL if none */
} hl_cat_column_t;

typedef struct hl_cat_sort_col {
  char *name;
  bool ascending;
} hl_cat_sort_col_t;

typedef struct hl_cat_table {
  int64_t id;         /* assigned by the catalog */
  char *db_name;      /* lower-case */
  char *name;         /* lower-case */
  bool external;      /* EXTERNAL_TABLE vs MANAGED_TABLE */
  char *location;     /* absolute path/URI */
  char *input_format; /* Java class name, as Hive records it */
  char *output_format;
  char *serde_lib;
  hl_kv_t *serde_params; /* SERDEPROPERTIES (incl. field.delim etc.) */
  int n_serde_params;
  hl_kv_t *params; /* TBLPROPERTIES (comment is params["comment"]) */
  int n_params;
  char *owner;         /* NULL if none */
  int64_t create_time; /* seconds since the epoch */
  hl_cat_column_t *cols;
  int n_cols;
  hl_cat_column_t *part_keys;
  int n_part_keys;
  int num_buckets; /* -1 when not bucketed */
  char **bucket_cols;
  int n_bucket_cols;
  hl_cat_sort_col_t *sort_cols;
  int n_sort_cols;
  /* Views (schema v4): Hive's VIRTUAL_VIEW.  A view has no location, no
   * storage format and no partition keys; cols are its query's columns.
   * A zeroed record is a table. */
  bool view;
  char *view_original_text; /* the query as written */
  char *view_expanded_text; /* the query with every table name qualified */
} hl_cat_table_t;

/* A storage descriptor (schema v6): what a table's fields of that name
 * hold, kept per partition as Hive's metastore does.  Strings and arrays
 * are in the reader's arena (or the caller's, on writes). */
typedef struct hl_cat_sd {
  char *input_format; /* Java class names, as Hive records them */
  char *output_format;
  char *serde_lib;
  hl_kv_t *serde_params;
  int n_serde_params;
  hl_cat_column_t *cols;
  int n_cols;
  int num_buckets; /* -1 when not bucketed */
  char **bucket_cols;
  int n_bucket_cols;
  hl_cat_sort_col_t *sort_cols;
  int n_sort_cols;
} hl_cat_sd_t;

/* The descriptor fields of TABLE as one hl_cat_sd_t (pointers shared). */
hl_cat_sd_t hl_cat_table_sd(const hl_cat_table_t *table);
/* TABLE's record with SD as its storage descriptor: a partition's view of
 * its table, for code written for tables (readers, writers, DESCRIBE). */
hl_cat_table_t hl_cat_table_with_sd(const hl_cat_table_t *table, const hl_cat_sd_t *sd);
/* True when A and B describe the same storage (formats, serde, its
 * parameters in order, columns with types and comments, buckets). */
bool hl_cat_sd_equal(const hl_cat_sd_t *a, const hl_cat_sd_t *b);

typedef struct hl_cat_partition {
  int64_t id; /* assigned by the catalog */
  int64_t table_id;
  char **values; /* n_values raw values; NULL = default partition */
  int n_values;
  char *name;     /* escaped path name "k1=v1/k2=v2" */
  char *location; /* absolute path/URI of the partition directory */
  hl_kv_t *params;
  int n_params;
  int64_t create_time; /* seconds since the epoch */
  /* The partition's storage descriptor.  Reads always set it (partitions
   * that kept their table's share one record).  On add, NULL is a copy of
   * the table's descriptor (as Hive copies it into a new partition); on
   * update, NULL keeps the partition's. */
  hl_cat_sd_t *sd;
} hl_cat_partition_t;

/* Opens (creating and migrating as needed) the SQLite metastore at PATH.
 * A missing file becomes a new metastore, built completely before it
 * appears at PATH; an existing file must be a hivelite metastore (an empty
 * one is XX001).  When the file or its directory is not writable (also on
 * a read-only file system) it is opened read-only, creating nothing next
 * to it; every write then fails with 25006.  Caller closes. */
hl_status_t hl_cat_open(const char *path, hl_cat_t **out, hl_error_t *err);
/* True when hl_cat_open opened the metastore read-only. */
bool hl_cat_readonly(const hl_cat_t *cat);
void hl_cat_close(hl_cat_t *cat); /* NULL is a no-op */
/* Schema version of the open metastore. */
int hl_cat_schema_version(hl_cat_t *cat);

/* The embedded SQLite catalog behind CAT (CAT itself when it is one):
 * intents, write locks and the schema version always live there. */
hl_cat_t *hl_cat_local(hl_cat_t *cat);
/* "sqlite" or "hms": which backend CAT is. */
const char *hl_cat_backend_name(const hl_cat_t *cat);
/* Forgets what the backend cached of DB.TABLE (TABLE NULL: every table of
 * DB; DB NULL: everything); the embedded catalog caches nothing. */
hl_status_t hl_cat_refresh(hl_cat_t *cat, const char *db, const char *table, hl_error_t *err);

/* ------------------------------------------------ remote metastores
 * A remote metastore applies each write call at once and on its own, so
 * hl_cat_begin/commit cannot make several calls one unit there.  Writes
 * that must be undoable (src/txn) set a journal hook: before each write
 * call of such a backend (table create/update/drop, partition
 * add/update/drop, and the calls that cannot be undone), the catalog reads
 * what the call will destroy and hands the hook an undo record (text,
 * cat_journal.c); the call is made only when the hook succeeded (the
 * record is durable), else it fails with the hook's error.
 * hl_cat_undo reverses one record, checking the remote state first (the
 * call may or may not have taken effect), and is idempotent. */

/* True when begin..commit make CAT's calls one unit (the embedded
 * catalog); false for a remote metastore. */
bool hl_cat_transactional(const hl_cat_t *cat);
/* What reopens CAT elsewhere (a remote metastore's URIs); "" for the
 * embedded catalog and for backends that cannot say.  Borrowed. */
const char *hl_cat_address(const hl_cat_t *cat);
/* The journal hook: makes RECORD durable before the call it undoes. */
typedef hl_status_t (*hl_cat_journal_fn)(void *arg, const char *record, hl_error_t *err);
/* Sets (FN NULL: clears) CAT's journal hook.  Only non-transactional
 * backends call it. */
void hl_cat_journal_set(hl_cat_t *cat, hl_cat_journal_fn fn, void *arg);
/* Undoes the call RECORD describes (a record the hook was given). */
hl_status_t hl_cat_undo(hl_cat_t *cat, const char *record, hl_error_t *err);

/* Write transactions (nesting is an error). */
hl_status_t hl_cat_begin(hl_cat_t *cat, hl_error_t *err);
hl_status_t hl_cat_commit(hl_cat_t *cat, hl_error_t *err);
void hl_cat_rollback(hl_cat_t *cat); /* no-op outside a transaction */

/* Databases. */
hl_status_t hl_cat_db_create(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err);
hl_status_t hl_cat_db_get(hl_cat_t *cat, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                          hl_error_t *err);
/* Replaces the comment, location, owner and parameters of database
 * DB->name (its name cannot change); a missing one is 3F000. */
hl_status_t hl_cat_db_update(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err);
/* Sorted names. */
hl_status_t hl_cat_db_list(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                           hl_error_t *err);
/* CASCADE drops the tables and partitions (metadata only; callers remove
 * managed data first).  Without it a database holding tables is refused. */
hl_status_t hl_cat_db_drop(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err);

/* Tables.  create fills nothing back; read it with get for the id. */
hl_status_t hl_cat_table_create(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err);
hl_status_t hl_cat_table_get(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                             hl_cat_table_t **out, hl_error_t *err);
hl_status_t hl_cat_table_list(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                              size_t *n, hl_error_t *err);
/* Replaces everything stored for table TABLE->id with TABLE's fields
 * (including db_name/name: this is how RENAME works; a clash is 42P07).
 * Partition keys may not change (callers refuse that).  A change of the
 * table's storage descriptor does not reach its partitions: they keep the
 * descriptor they had, as in Hive. */
hl_status_t hl_cat_table_update(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err);
/* Removes the table and its partitions (metadata only). */
hl_status_t hl_cat_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err);

/* For pruning: the name and values (id too where the backend has ids) of
 * every partition, sorted by name, whose key K equals EQ[K] for each K
 * with EQ[K] set (EQ NULL, or n_part_keys entries: NULL = any value; a
 * set entry is a raw value compared byte for byte, never "" and never the
 * default partition).  Locations, parameters and descriptors may be
 * missing (a Hive Metastore sends names only); a backend that lists whole
 * records as cheaply gives them (sd set).  Then hl_cat_partition_get_many
 * gives the full records of KEYS[0..n_keys) (entries of such a list) in
 * their order, taking complete ones as they are; partitions dropped in
 * between are left out. */
hl_status_t hl_cat_partition_names(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                                   hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                   hl_error_t *err);
hl_status_t hl_cat_partition_get_many(hl_cat_t *cat, int64_t table_id,
                                      const hl_cat_partition_t *keys, size_t n_keys,
                                      hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                      hl_error_t *err);

/* A superset of the partitions a predicate keeps, answered by the
 * catalog's value index: for each key K, EQ[K] as hl_cat_partition_names'
 * EQ, and LO[K] / HI[K] (NULL = open) bound the raw value in byte order,
 * both inclusive (a NULL value, the default partition, is outside every
 * bound).  EQ, LO and HI are NULL or n_part_keys entries each.  Callers
 * evaluate their predicate over what comes back. */
/* A half-open byte-order range of raw values: lo <= value < hi. */
typedef struct hl_cat_vrange {
  const char *lo;
  const char *hi;
} hl_cat_vrange_t;

/* ALT[K] (N_ALT[K] ranges; ALT NULL = none) widens EQ[K]: a value equal
 * to EQ[K] or inside one of the ranges matches.  The planner pins a typed
 * key (INT, DATE) to its canonical text and names as ranges where other
 * spellings of the same value ('05', ' 5', '5.0') would sort, so that the
 * index answers those too; without such stored values the ranges are
 * empty index probes. */
typedef struct hl_cat_part_filter {
  const char *const *eq;             /* values pinned, byte for byte */
  const char *const *lo;             /* value >= lo[k] */
  const char *const *hi;             /* value <= hi[k] */
  const hl_cat_vrange_t *const *alt; /* more values matching eq[k] */
  const int *n_alt;                  /* ranges in alt[k] */
} hl_cat_part_filter_t;

/* Called once per partition; PART (name, values, id, location) is
 * borrowed, valid during the call only.  HL_OK goes on, HL_DONE stops the
 * scan (which then returns HL_OK), any other status ends it with that
 * status.  It may not call the catalog. */
typedef hl_status_t (*hl_cat_part_fn)(void *ctx, const hl_cat_partition_t *part, hl_error_t *err);

/* Streams the partitions of TABLE_ID that FILTER (NULL: none) may keep to
 * FN in name order, in one read of the catalog: memory does not grow with
 * the table's size, and FN stopping early stops the read (SHOW PARTITIONS
 * ... LIMIT).  A backend without a streaming read answers from
 * hl_cat_partition_names with FILTER's EQ, bounds applied here. */
/* Copies into ARENA what a scan hands over (id, table, name, values,
 * location, create time; no parameters or descriptor) from SRC to *DST,
 * so that a callback can keep it.  HL_NOMEM (ERR set) when it does not
 * fit. */
hl_status_t hl_cat_partition_copy_key(hl_arena_t *arena, const hl_cat_partition_t *src,
                                      hl_cat_partition_t *dst, hl_error_t *err);
hl_status_t hl_cat_partition_scan(hl_cat_t *cat, int64_t table_id,
                                  const hl_cat_part_filter_t *filter, hl_cat_part_fn fn, void *ctx,
                                  hl_error_t *err);

/* Partitions.  add fails with 42710 when the values exist already. */
hl_status_t hl_cat_partition_add(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err);
/* Adds PARTS[0..n) (all of one table) in one unit of work: all or none; a
 * duplicate (in the catalog or within PARTS) is 42710 naming it.  Use it
 * for many partitions: it is several times faster than n calls of add. */
hl_status_t hl_cat_partition_add_many(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                      hl_error_t *err);
/* Exact lookup by all values (NULL entries match the default partition). */
hl_status_t hl_cat_partition_get(hl_cat_t *cat, int64_t table_id, char *const *values, int n_values,
                                 hl_arena_t *arena, hl_cat_partition_t **out, hl_error_t *err);
/* All partitions of the table, sorted by name (byte order). */
hl_status_t hl_cat_partition_list(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena,
                                  hl_cat_partition_t **out, size_t *n, hl_error_t *err);
hl_status_t hl_cat_partition_count(hl_cat_t *cat, int64_t table_id, size_t *n, hl_error_t *err);
/* The partition count of TABLE_ID (*N) and how many of those partitions
 * have a first value that is a text date (*N_TDATES; util/partorder.h
 * hl_tdate_parse, the default partition's NULL is not), for
 * plan/incr.h's hl_incr_auto_field.  The embedded catalog keeps both
 * (schema v10; XX001 when the table's row is missing or inconsistent), a
 * remote one has them counted in one streamed read. */
hl_status_t hl_cat_partition_tdates(hl_cat_t *cat, int64_t table_id, size_t *n, size_t *n_tdates,
                                    hl_error_t *err);
/* Replaces values/name/location/params of partition PART->id, and its
 * storage descriptor when PART->sd is set. */
hl_status_t hl_cat_partition_update(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err);
/* Sets the columns of every partition of table TABLE_ID to COLS[0..n)
 * (ALTER TABLE ... CASCADE), keeping the rest of their descriptors. */
hl_status_t hl_cat_partition_set_columns_all(hl_cat_t *cat, int64_t table_id,
                                             const hl_cat_column_t *cols, int n, hl_error_t *err);
hl_status_t hl_cat_partition_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err);

/* ------------------------------------------------ locations */

/* A database, table or partition whose location is a given directory or
 * lies under it (hl_cat_locations_within). */
typedef struct hl_cat_location_user {
  int64_t table_id;     /* 0: a database */
  int64_t partition_id; /* 0: a table or a database */
  char *db;             /* the database's name */
  char *table;          /* the table's name, NULL for a database */
  char *partition;      /* the partition's name, NULL otherwise */
  char *location;
} hl_cat_location_user_t;

/* Every database, table and partition whose location is DIR (absolute,
 * normalised) or lies under it, ordered by location (ARENA). */
hl_status_t hl_cat_locations_within(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                    hl_cat_location_user_t **out, size_t *n, hl_error_t *err);

/* Every database, table and partition whose location is exactly one of
 * PATHS[0..N_PATHS), ordered by location (ARENA). */
hl_status_t hl_cat_locations_at(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                                hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                                hl_error_t *err);

/* ------------------------------------------------ write intents, locks
 * (schema v2; used by src/txn, see txn.h for the protocol).  Like every
 * other call these join the caller's transaction when one is open. */

/* The process that owns an intent or a lock: host name, pid and the
 * process start time (so a reused pid is not mistaken for the owner). */
typedef struct hl_cat_owner {
  char *host;
  int64_t pid;
  int64_t start;
} hl_cat_owner_t;

typedef struct hl_cat_intent {
  int64_t id;    /* assigned by the catalog */
  char *kind;    /* "insert", "overwrite", "ctas", "load", "truncate" */
  char *state;   /* "staging", "pending", "committed" */
  char *staging; /* staging directory of the write */
  char *plan;    /* the write's plan (txn.c's text format), "" if none */
  hl_cat_owner_t owner;
  int64_t create_time; /* seconds since the epoch */
} hl_cat_intent_t;

/* Records INTENT (id ignored) and sets *id (OUT). */
hl_status_t hl_cat_intent_add(hl_cat_t *cat, const hl_cat_intent_t *intent, int64_t *id,
                              hl_error_t *err);
/* Sets the state of intent ID, and its plan unless PLAN is NULL.  A missing
 * intent is HL_NOTFOUND (42704). */
hl_status_t hl_cat_intent_update(hl_cat_t *cat, int64_t id, const char *state, const char *plan,
                                 hl_error_t *err);
/* All intents, oldest first, in ARENA. */
hl_status_t hl_cat_intent_list(hl_cat_t *cat, hl_arena_t *arena, hl_cat_intent_t **out, size_t *n,
                               hl_error_t *err);
/* Intent ID as it is now: *found (OUT) is false when it is gone. */
hl_status_t hl_cat_intent_get(hl_cat_t *cat, int64_t id, hl_arena_t *arena, hl_cat_intent_t *out,
                              bool *found, hl_error_t *err);
/* Recovery's claim on a dead process: in one catalog transaction, every
 * intent and every write lock owned by DEAD becomes ME's, and *ids /
 * *locks (OUT, in ARENA) list what was moved.  Because the owner changes
 * atomically, two recoveries never handle one intent, a writer that
 * finished meanwhile has nothing left to claim, and no other writer can
 * take the dead process's locks while ME repairs its files. */
hl_status_t hl_cat_intent_claim(hl_cat_t *cat, const hl_cat_owner_t *dead, const hl_cat_owner_t *me,
                                hl_arena_t *arena, int64_t **ids, size_t *n_ids, char ***locks,
                                size_t *n_locks, hl_error_t *err);
/* Hands intent ID and the write locks LOCKS[0..n_locks) that ME holds to
 * owner TO, in one transaction (a writer that must leave its intent to
 * recovery names a holder that no longer runs, so that the next writer of
 * those tables repairs it first). */
hl_status_t hl_cat_intent_hand_over(hl_cat_t *cat, int64_t id, const hl_cat_owner_t *me,
                                    const hl_cat_owner_t *to, char *const *locks, size_t n_locks,
                                    hl_error_t *err);
/* Forgets intent ID (missing is fine). */
hl_status_t hl_cat_intent_delete(hl_cat_t *cat, int64_t id, hl_error_t *err);

/* One attempt at lock NAME for ME: *acquired is true when ME holds it
 * afterwards (it was free, held by ME already, or held by exactly STALE, a
 * holder the caller found dead; STALE may be NULL).  Otherwise *holder
 * (OUT, strings in ARENA) names the holder. */
hl_status_t hl_cat_lock_try(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                            const hl_cat_owner_t *stale, bool *acquired, hl_cat_owner_t *holder,
                            hl_arena_t *arena, hl_error_t *err);
/* Releases lock NAME if ME holds it. */
hl_status_t hl_cat_lock_release(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                                hl_error_t *err);

/* ------------------------------------------------ column statistics
 * (schema v3; ANALYZE TABLE ... COMPUTE STATISTICS FOR COLUMNS).  Fields a
 * column's type does not have are -1 (counts, lengths) or NULL (min/max). */

typedef struct hl_cat_col_stats {
  char *col_name;            /* lower-case */
  char *col_type;            /* Hive type text of the column when analyzed */
  int64_t num_nulls;         /* -1: unknown */
  int64_t num_distinct;      /* -1: not computed for the type */
  char *low_value;           /* min as text; NULL: none (strings, all NULL) */
  char *high_value;          /* max as text; NULL: none */
  double avg_col_len;        /* < 0: not a string/binary column */
  int64_t max_col_len;       /* -1: not a string/binary column */
  int64_t num_trues;         /* -1: not a boolean column */
  int64_t num_falses;        /* -1: not a boolean column */
  unsigned char *bit_vector; /* HyperLogLog registers (util/hll.h); NULL: none */
  size_t bit_vector_len;
  int64_t last_analyzed; /* seconds since the epoch */
  int64_t partition_id;  /* set by reads: the partition, 0 for the table */
} hl_cat_col_stats_t;

/* Stores (replacing) STATS[0..n) for table TABLE_ID (PARTITION_ID 0) or for
 * partition PARTITION_ID of it.  Dropping the table or partition drops
 * them. */
hl_status_t hl_cat_col_stats_put(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                 const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err);
/* The statistics of column COL of the table (PARTITION_ID 0) or of one
 * partition; *out (in ARENA) is NULL when there are none. */
hl_status_t hl_cat_col_stats_get(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                 const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                                 hl_error_t *err);
/* Removes the statistics of column COL (NULL: of every column) of the
 * table (PARTITION_ID 0) or of one partition; *deleted says whether there
 * were any. */
hl_status_t hl_cat_col_stats_delete(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                    const char *col, bool *deleted, hl_error_t *err);
/* The statistics of column COL of every partition of the table that has
 * them (for table-level aggregation), in ARENA. */
hl_status_t hl_cat_col_stats_list_parts(hl_cat_t *cat, int64_t table_id, const char *col,
                                        hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                        hl_error_t *err);

/* ------------------------------------------------ named catalogs
 * (schema v7; CREATE CATALOG).  The Hive Metastores a session may attach
 * by name, kept in the embedded catalog (these act on hl_cat_local(CAT)).
 * `internal`, the embedded metastore itself, is never stored.  Names are
 * lower-cased; properties are kept in the order given.  Errors: HL_NOTFOUND
 * 3D000 `catalog "x" does not exist`, HL_CONSTRAINT 42710 `catalog "x"
 * already exists`. */

typedef struct hl_cat_catalog {
  int64_t id;    /* assigned by the catalog, never reused */
  char *name;    /* lower-case */
  char *type;    /* "hms" */
  char *comment; /* NULL if none */
  hl_kv_t *props;
  int n_props;
  int64_t create_time; /* seconds since the epoch; set by create */
  int64_t update_time; /* set by create and update */
} hl_cat_catalog_t;

hl_status_t hl_cat_catalog_create(hl_cat_t *cat, const hl_cat_catalog_t *c, hl_error_t *err);
/* Catalog NAME in ARENA. */
hl_status_t hl_cat_catalog_get(hl_cat_t *cat, const char *name, hl_arena_t *arena,
                               hl_cat_catalog_t **out, hl_error_t *err);
/* Every stored catalog, by id, in ARENA. */
hl_status_t hl_cat_catalog_list(hl_cat_t *cat, hl_arena_t *arena, hl_cat_catalog_t **out, size_t *n,
                                hl_error_t *err);
/* Replaces name, comment and properties of catalog NAME with C's (a new
 * name that exists is 42710) and sets its update time. */
hl_status_t hl_cat_catalog_update(hl_cat_t *cat, const char *name, const hl_cat_catalog_t *c,
                                  hl_error_t *err);
hl_status_t hl_cat_catalog_drop(hl_cat_t *cat, const char *name, hl_error_t *err);

/* ------------------------------------------------ profile states, checkpoints
 * (schema v8; PROFILE TABLE ... and its INCREMENTAL scans, cat_scan_state.c).
 * Kept in the embedded catalog whatever backend CAT is (they act on
 * hl_cat_local(CAT)), keyed by names: CATALOG is the session's name of the
 * table's catalog ("internal" for the embedded one, HL_CAT_INTERNAL), then
 * the database and table names; catalog, database, table and column names
 * are lower-cased, partition and checkpoint names kept as given.  Nothing
 * checks that the table exists: callers do.  The embedded catalog's own
 * tables keep their rows in step by themselves (triggers, cat_schema.c
 * v8): dropping a database, table or partition removes its rows (a
 * partition only its profile states), renaming a table moves them,
 * renaming a partition removes its profile states; DROP / ALTER CATALOG
 * does the same for a named catalog's rows.  For a table of another
 * catalog, the statement that drops or renames it calls
 * hl_cat_scan_state_forget / _move. */

#define HL_CAT_INTERNAL "internal" /* the session's name of the embedded catalog */

/* The stored profile state of one column of one partition. */
typedef struct hl_cat_prof_state {
  const char *part;        /* partition name "k=v/...", "" for an unpartitioned table */
  const char *column;      /* lower-cased when stored */
  const char *col_type;    /* the column's type text when profiled (a change invalidates) */
  const char *fingerprint; /* of the partition's files, as the caller computes it */
  const void *state;       /* the caller's encoding of the state; may be empty */
  size_t state_len;
  int64_t rows;    /* rows the state covers */
  int64_t updated; /* reads: seconds since the epoch when put; put ignores it */
} hl_cat_prof_state_t;

/* Every stored state of table CATALOG.DB.TABLE (every partition), ordered
 * by partition name, then column name (byte order), in ARENA. */
hl_status_t hl_cat_prof_list(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                             hl_arena_t *arena, hl_cat_prof_state_t **out, size_t *n,
                             hl_error_t *err);
/* The stored states of partition PART ("" for an unpartitioned table) of
 * the table, ordered by column name, in ARENA (an index lookup: what a
 * profile that reads few partitions of a huge table asks). */
hl_status_t hl_cat_prof_get(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                            const char *part, hl_arena_t *arena, hl_cat_prof_state_t **out,
                            size_t *n, hl_error_t *err);
/* Replaces the states of every partition named in STATES[0..n) with the
 * states given for it (a partition's columns not given are gone), in one
 * transaction; other partitions keep theirs.  Two states of one column of
 * one partition are 42710. */
hl_status_t hl_cat_prof_put(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                            const hl_cat_prof_state_t *states, size_t n, hl_error_t *err);
/* Removes the states of partition PART (NULL: of every partition) of the
 * table; none there is fine. */
hl_status_t hl_cat_prof_drop(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                             const char *part, hl_error_t *err);

/* A named checkpoint of incremental scans of one table. */
typedef struct hl_cat_checkpoint {
  const char *catalog, *db, *table; /* the table, as above */
  const char *name;                 /* as given; names of one table never interfere */
  const char *field;                /* the incremental column */
  const char *kind;                 /* "date", "batch" (partition values) or "value" */
  const char *value; /* newest partition value scanned, or highest value; NULL: none */
  int64_t version;   /* 1 when created, +1 per advance (compare-and-set) */
  int64_t updated;   /* seconds since the epoch of the last put (set by put) */
} hl_cat_checkpoint_t;

/* Checkpoint NAME of the table into *OUT (strings in ARENA).  Missing:
 * HL_NOTFOUND 42704 `checkpoint "n" of table "db.t" does not exist` (the
 * table named "catalog.db.t" outside the embedded catalog). */
hl_status_t hl_cat_checkpoint_get(hl_cat_t *cat, const char *catalog, const char *db,
                                  const char *table, const char *name, hl_arena_t *arena,
                                  hl_cat_checkpoint_t *out, hl_error_t *err);
/* Creates (EXPECT_VERSION 0) or advances (EXPECT_VERSION: the version read)
 * checkpoint CP (its field, kind and value; version and updated are
 * ignored), whose version becomes EXPECT_VERSION + 1, and records the
 * SCANNED_PARTS[i] / SCANNED_FPS[i] pairs (partition name, fingerprint;
 * upserted: partitions recorded before are kept).  When the stored
 * version is not EXPECT_VERSION (another scan of the same name committed
 * meanwhile, or dropped it) nothing changes and it fails with
 * HL_CONSTRAINT 40001 naming the checkpoint.  One transaction. */
hl_status_t hl_cat_checkpoint_put(hl_cat_t *cat, const hl_cat_checkpoint_t *cp,
                                  int64_t expect_version, const char *const *scanned_parts,
                                  const char *const *scanned_fps, size_t n_scanned,
                                  hl_error_t *err);
/* The checkpoints of table CATALOG.DB.TABLE; each of CATALOG, DB, TABLE
 * may be NULL for any.  Ordered by catalog, database, table, name. */
hl_status_t hl_cat_checkpoint_list(hl_cat_t *cat, const char *catalog, const char *db,
                                   const char *table, hl_arena_t *arena, hl_cat_checkpoint_t **out,
                                   size_t *n, hl_error_t *err);
/* The partitions checkpoint CP (catalog, db, table, name) recorded as
 * scanned and their fingerprints, by partition name (ARENA).  A missing
 * checkpoint is 42704. */
hl_status_t hl_cat_checkpoint_scanned(hl_cat_t *cat, const hl_cat_checkpoint_t *cp,
                                      hl_arena_t *arena, char ***parts, char ***fps, size_t *n,
                                      hl_error_t *err);
/* Drops checkpoint NAME of the table and its partitions; missing: 42704. */
hl_status_t hl_cat_checkpoint_drop(hl_cat_t *cat, const char *catalog, const char *db,
                                   const char *table, const char *name, hl_error_t *err);

/* Removes every profile state and checkpoint of table CATALOG.DB.TABLE
 * (TABLE NULL: of every table of DB): DROP TABLE / DATABASE of a table
 * outside the embedded catalog. */
hl_status_t hl_cat_scan_state_forget(hl_cat_t *cat, const char *catalog, const char *db,
                                     const char *table, hl_error_t *err);
/* Moves them to NEW_DB.NEW_TABLE of the same catalog (what was stored
 * under the new name goes): RENAME outside the embedded catalog. */
hl_status_t hl_cat_scan_state_move(hl_cat_t *cat, const char *catalog, const char *db,
                                   const char *table, const char *new_db, const char *new_table,
                                   hl_error_t *err);

#endif
