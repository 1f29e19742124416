/*
 * cat_schema.c -- the SQLite metastore schema, its versions and migrations.
 *
 * The schema version is PRAGMA user_version (0 = empty file).  MIGRATIONS
 * lists one step per version; opening a metastore applies, in one
 * transaction, every step newer than the file's version.  Adding version 2
 * means appending {2, "ALTER TABLE ..."} to MIGRATIONS: nothing else.
 * A file whose version is newer than the last step is refused (an older
 * hivelite must not write a schema it does not understand).
 *
 * Schema v1 (names are stored lower-case by cat_sqlite.c):
 *   dbs(id, name, comment, location, owner, create_time) + db_params
 *   tbls(id, db_id, name, type, location, formats, serde, owner,
 *        create_time, num_buckets) + tbl_params, serde_params,
 *        tbl_columns, part_keys, bucket_cols, sort_cols (ordered by idx)
 *   partitions(id, tbl_id, name, vals, location, create_time)
 *        + part_values (one row per key, NULL = default partition)
 *        + part_params
 * Schema v2 adds write_intents and write_locks (see schema_v2).
 * Schema v3 adds tab_col_stats and part_col_stats (see schema_v3).
 * Schema v4 adds the view columns of tbls (see schema_v4).
 * Schema v5 indexes tbls.location and partitions.location (schema_v5).
 * Schema v6 gives partitions their own storage descriptor (schema_v6).
 * Schema v7 adds the named catalogs (schema_v7).
 * Schema v8 adds profile states and checkpoints, keyed by names, with the
 * triggers that keep them following the tables (schema_v8).
 * Schema v9 keeps each table's partition count in part_counts
 * (schema_v9).
 * Schema v10 adds part_counts.n_tdates: how many of those partitions have
 * a first value that is a text date (schema_v10).
 * Children reference parents with ON DELETE CASCADE, so dropping a database
 * or table is one DELETE.  Every foreign key is the leading column of a
 * primary key or index, so cascades and per-table scans never scan a
 * whole table.  partitions.vals is the values tuple in one canonical blob
 * (see cat_sqlite.c: encode_values) under a UNIQUE index: exact lookup by
 * values and duplicate detection are one index probe, and listing needs no
 * join; part_values repeats the values per key, indexed by
 * (tbl_id, idx, value), for pruning by the value of one key.
 */
#include "catalog/catalog_int.h"
#include "util/partorder.h"

#include <stdio.h>
#include <string.h>

typedef struct migration {
  int version;     /* user_version after this step */
  const char *sql; /* statements run in the migration transaction */
} migration_t;

static const char schema_v1[] =
    "PRAGMA application_id = 1212960083;\n" /* HL_CAT_APPLICATION_ID */
    "CREATE TABLE dbs (\n"
    "  id          INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  name        TEXT NOT NULL UNIQUE,\n"
    "  comment     TEXT,\n"
    "  location    TEXT NOT NULL,\n"
    "  owner       TEXT,\n"
    "  create_time INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE db_params (\n"
    "  db_id INTEGER NOT NULL REFERENCES dbs (id) ON DELETE CASCADE,\n"
    "  idx   INTEGER NOT NULL,\n"
    "  key   TEXT NOT NULL,\n"
    "  value TEXT NOT NULL,\n"
    "  PRIMARY KEY (db_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE tbls (\n"
    "  id            INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  db_id         INTEGER NOT NULL REFERENCES dbs (id) ON DELETE CASCADE,\n"
    "  name          TEXT NOT NULL,\n"
    "  type          TEXT NOT NULL CHECK (type IN ('MANAGED_TABLE', 'EXTERNAL_TABLE')),\n"
    "  location      TEXT NOT NULL,\n"
    "  input_format  TEXT,\n"
    "  output_format TEXT,\n"
    "  serde_lib     TEXT,\n"
    "  owner         TEXT,\n"
    "  create_time   INTEGER NOT NULL,\n"
    "  num_buckets   INTEGER NOT NULL,\n"
    "  UNIQUE (db_id, name)\n"
    ");\n"
    "CREATE TABLE tbl_params (\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  idx    INTEGER NOT NULL,\n"
    "  key    TEXT NOT NULL,\n"
    "  value  TEXT NOT NULL,\n"
    "  PRIMARY KEY (tbl_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE serde_params (\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  idx    INTEGER NOT NULL,\n"
    "  key    TEXT NOT NULL,\n"
    "  value  TEXT NOT NULL,\n"
    "  PRIMARY KEY (tbl_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE tbl_columns (\n"
    "  tbl_id  INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  idx     INTEGER NOT NULL,\n"
    "  name    TEXT NOT NULL,\n"
    "  type    TEXT NOT NULL,\n"
    "  comment TEXT,\n"
    "  PRIMARY KEY (tbl_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE part_keys (\n"
    "  tbl_id  INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  idx     INTEGER NOT NULL,\n"
    "  name    TEXT NOT NULL,\n"
    "  type    TEXT NOT NULL,\n"
    "  comment TEXT,\n"
    "  PRIMARY KEY (tbl_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE bucket_cols (\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  idx    INTEGER NOT NULL,\n"
    "  name   TEXT NOT NULL,\n"
    "  PRIMARY KEY (tbl_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE sort_cols (\n"
    "  tbl_id    INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  idx       INTEGER NOT NULL,\n"
    "  name      TEXT NOT NULL,\n"
    "  ascending INTEGER NOT NULL CHECK (ascending IN (0, 1)),\n"
    "  PRIMARY KEY (tbl_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE partitions (\n"
    "  id          INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  tbl_id      INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  name        TEXT NOT NULL,\n"
    "  vals        BLOB NOT NULL,\n"
    "  location    TEXT NOT NULL,\n"
    "  create_time INTEGER NOT NULL\n"
    ");\n"
    "CREATE UNIQUE INDEX partitions_by_name ON partitions (tbl_id, name);\n"
    "CREATE UNIQUE INDEX partitions_by_vals ON partitions (tbl_id, vals);\n"
    "CREATE TABLE part_values (\n"
    "  part_id INTEGER NOT NULL REFERENCES partitions (id) ON DELETE CASCADE,\n"
    "  idx     INTEGER NOT NULL,\n"
    "  tbl_id  INTEGER NOT NULL,\n"
    "  value   TEXT,\n"
    "  PRIMARY KEY (part_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX part_values_by_value ON part_values (tbl_id, idx, value);\n"
    "CREATE TABLE part_params (\n"
    "  part_id INTEGER NOT NULL REFERENCES partitions (id) ON DELETE CASCADE,\n"
    "  idx     INTEGER NOT NULL,\n"
    "  key     TEXT NOT NULL,\n"
    "  value   TEXT NOT NULL,\n"
    "  PRIMARY KEY (part_id, idx)\n"
    ") WITHOUT ROWID;\n";

/* v2: the write-intent log and write locks (src/txn).  An intent row is
 * created when a write starts (state 'staging'), carries the write's plan
 * once it is about to touch the target ('pending') and is marked
 * 'committed' in the same transaction as the write's metadata changes;
 * recovery reads it to roll a crashed write back or forward.  A lock row
 * per table serializes the commit phases of writes; owner_* identify the
 * holding process so a dead holder's lock can be taken over. */
static const char schema_v2[] =
    "CREATE TABLE write_intents (\n"
    "  id          INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  kind        TEXT NOT NULL,\n"
    "  state       TEXT NOT NULL CHECK (state IN ('staging', 'pending', 'committed')),\n"
    "  staging     TEXT NOT NULL,\n"
    "  plan        TEXT NOT NULL DEFAULT '',\n"
    "  owner_host  TEXT NOT NULL,\n"
    "  owner_pid   INTEGER NOT NULL,\n"
    "  owner_start INTEGER NOT NULL,\n"
    "  create_time INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE write_locks (\n"
    "  name        TEXT PRIMARY KEY,\n"
    "  owner_host  TEXT NOT NULL,\n"
    "  owner_pid   INTEGER NOT NULL,\n"
    "  owner_start INTEGER NOT NULL,\n"
    "  acquired    INTEGER NOT NULL\n"
    ") WITHOUT ROWID;\n";

/* v3: column statistics (ANALYZE ... FOR COLUMNS), one row per column of
 * a table (tab_col_stats) or of a partition (part_col_stats), as Hive's
 * metastore keeps them.  Fields a type does not have are NULL (min/max of
 * a string, lengths of a number); min/max are the values' text forms;
 * bit_vector holds the HyperLogLog registers (util/hll.h) so partition
 * sketches merge into table-level distinct counts. */
#define COL_STATS_FIELDS                                                                           \
  "  col_name      TEXT NOT NULL,\n"                                                               \
  "  col_type      TEXT NOT NULL,\n"                                                               \
  "  num_nulls     INTEGER,\n"                                                                     \
  "  num_distinct  INTEGER,\n"                                                                     \
  "  low_value     TEXT,\n"                                                                        \
  "  high_value    TEXT,\n"                                                                        \
  "  avg_col_len   REAL,\n"                                                                        \
  "  max_col_len   INTEGER,\n"                                                                     \
  "  num_trues     INTEGER,\n"                                                                     \
  "  num_falses    INTEGER,\n"                                                                     \
  "  bit_vector    BLOB,\n"                                                                        \
  "  last_analyzed INTEGER NOT NULL,\n"
static const char schema_v3[] =
    "CREATE TABLE tab_col_stats (\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls (id) ON DELETE CASCADE,\n" COL_STATS_FIELDS
    "  PRIMARY KEY (tbl_id, col_name)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE part_col_stats (\n"
    "  part_id INTEGER NOT NULL REFERENCES partitions (id) ON DELETE CASCADE,\n"
    "  tbl_id  INTEGER NOT NULL,\n" COL_STATS_FIELDS "  PRIMARY KEY (part_id, col_name)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX part_col_stats_by_table ON part_col_stats (tbl_id, col_name);\n";

/* v4: views.  Hive keeps a view's query in TBLS.VIEW_ORIGINAL_TEXT and
 * VIEW_EXPANDED_TEXT; so do we.  A row whose view_expanded_text is not NULL
 * is a view (Hive's table type VIRTUAL_VIEW); v1's CHECK on tbls.type
 * cannot be widened without rebuilding tbls, so a view's type column
 * holds MANAGED_TABLE and its location is empty (cat_sqlite.c). */
static const char schema_v4[] = "ALTER TABLE tbls ADD COLUMN view_original_text TEXT;\n"
                                "ALTER TABLE tbls ADD COLUMN view_expanded_text TEXT;\n";

/* v5: locations are looked up by range before a write replaces or removes
 * a directory (cat_location.c). */
static const char schema_v5[] = "CREATE INDEX tbls_by_location ON tbls (location);\n"
                                "CREATE INDEX partitions_by_location ON partitions (location);\n";

/* v6: per-partition storage descriptors, as Hive's metastore keeps one SD
 * per partition (formats, serde and its parameters, columns, buckets).  A
 * partition has rows here only while its descriptor differs from its
 * table's (cat_part_sd.c): a partition without rows has the table's, the
 * way Hive shares one column descriptor among the partitions that have the
 * same columns.  So v5 partitions, which were all read with their table's
 * descriptor, need no rows, and listing a table whose partitions all
 * follow it reads nothing more.  Before the table's descriptor changes,
 * the partitions without rows get a copy of the old one (Hive copied the
 * table's SD into each partition when it was created, and table-level
 * ALTERs leave partitions alone).  Children reference partitions, so a
 * dropped partition takes its descriptor with it. */
#define PART_SD_CHILD(name, fields)                                                                \
  "CREATE TABLE " name " (\n"                                                                      \
  "  part_id INTEGER NOT NULL REFERENCES partitions (id) ON DELETE CASCADE,\n"                     \
  "  idx     INTEGER NOT NULL,\n" fields "  PRIMARY KEY (part_id, idx)\n"                          \
  ") WITHOUT ROWID;\n"
static const char schema_v6[] =
    "CREATE TABLE part_sds (\n"
    "  part_id       INTEGER PRIMARY KEY REFERENCES partitions (id) ON DELETE CASCADE,\n"
    "  input_format  TEXT,\n"
    "  output_format TEXT,\n"
    "  serde_lib     TEXT,\n"
    "  num_buckets   INTEGER NOT NULL\n"
    ");\n" PART_SD_CHILD("part_serde_params", "  key TEXT NOT NULL,\n  value TEXT NOT NULL,\n")
        PART_SD_CHILD("part_columns",
                      "  name TEXT NOT NULL,\n  type TEXT NOT NULL,\n  comment TEXT,\n")
            PART_SD_CHILD("part_bucket_cols", "  name TEXT NOT NULL,\n")
                PART_SD_CHILD("part_sort_cols",
                              "  name TEXT NOT NULL,\n"
                              "  ascending INTEGER NOT NULL CHECK (ascending IN (0, 1)),\n");

/* v7: named catalogs (CREATE CATALOG, cat_catalogs.c): the Hive Metastores
 * a session may attach by name, with their properties as given.  `internal`
 * (the embedded metastore) is never a row: it always exists and has no
 * properties.  Names are stored lower-case; ids are never reused, so
 * SHOW CATALOGS' CatalogId keeps naming one catalog. */
static const char schema_v7[] =
    "CREATE TABLE catalogs (\n"
    "  id          INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  name        TEXT NOT NULL UNIQUE,\n"
    "  type        TEXT NOT NULL,\n"
    "  comment     TEXT,\n"
    "  create_time INTEGER NOT NULL,\n"
    "  update_time INTEGER NOT NULL\n"
    ");\n"
    "CREATE TABLE catalog_params (\n"
    "  cat_id INTEGER NOT NULL REFERENCES catalogs (id) ON DELETE CASCADE,\n"
    "  idx    INTEGER NOT NULL,\n"
    "  key    TEXT NOT NULL,\n"
    "  value  TEXT NOT NULL,\n"
    "  PRIMARY KEY (cat_id, idx)\n"
    ") WITHOUT ROWID;\n";

/* v8: what PROFILE keeps between runs (cat_scan_state.c).  prof_states
 * holds one mergeable profile state per column of a partition ('' for an
 * unpartitioned table), with the fingerprint of the partition's files it
 * was computed from; checkpoints holds the named positions of incremental
 * scans and checkpoint_parts the partitions each one scanned, with their
 * fingerprints then, so that a later scan finds rows that arrived late.
 *
 * Rows are keyed by names -- the session's catalog name, database, table
 * (and partition) -- not by ids: a table of an attached Hive Metastore has
 * no id that lasts, and these rows always live in the embedded catalog.
 * The triggers keep the rows of the embedded catalog's own tables
 * (catalog 'internal') in step with them whoever changes them (DDL, MSCK,
 * the metastore server): a dropped database, table or partition takes its
 * rows along (a dropped partition only its profile states: a checkpoint
 * remembers what it scanned), a renamed table keeps them under its new
 * name, a renamed partition loses its profile states (its key values
 * changed).  A dropped or renamed named catalog does the same for its
 * rows.  A table of an attached metastore changed by hivelite's own
 * statements is handled by the statement (hl_cat_scan_state_forget /
 * _move); changes made there by others are not seen. */
static const char schema_v8[] =
    "CREATE TABLE prof_states (\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  catalog     TEXT NOT NULL,\n"
    "  db          TEXT NOT NULL,\n"
    "  tbl         TEXT NOT NULL,\n"
    "  part        TEXT NOT NULL,\n"
    "  col         TEXT NOT NULL,\n"
    "  col_type    TEXT NOT NULL,\n"
    "  fingerprint TEXT NOT NULL,\n"
    "  state       BLOB NOT NULL,\n"
    "  num_rows    INTEGER NOT NULL,\n"
    "  update_time INTEGER NOT NULL\n"
    ");\n"
    "CREATE UNIQUE INDEX prof_states_by_key ON prof_states (catalog, db, tbl, part, col);\n"
    "CREATE TABLE checkpoints (\n"
    "  id          INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  catalog     TEXT NOT NULL,\n"
    "  db          TEXT NOT NULL,\n"
    "  tbl         TEXT NOT NULL,\n"
    "  name        TEXT NOT NULL,\n"
    "  field       TEXT NOT NULL,\n"
    "  kind        TEXT NOT NULL CHECK (kind IN ('date', 'batch', 'value')),\n"
    "  value       TEXT,\n"
    "  version     INTEGER NOT NULL,\n"
    "  update_time INTEGER NOT NULL,\n"
    "  UNIQUE (catalog, db, tbl, name)\n"
    ");\n"
    "CREATE TABLE checkpoint_parts (\n"
    "  cp_id       INTEGER NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,\n"
    "  part        TEXT NOT NULL,\n"
    "  fingerprint TEXT NOT NULL,\n"
    "  PRIMARY KEY (cp_id, part)\n"
    ") WITHOUT ROWID;\n"
    /* a database's rows go before its tables do (below the cascade the
     * database's name can no longer be looked up) */
    "CREATE TRIGGER dbs_drop_scan_state BEFORE DELETE ON dbs BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = 'internal' AND db = OLD.name;\n"
    "  DELETE FROM checkpoints WHERE catalog = 'internal' AND db = OLD.name;\n"
    "END;\n"
    "CREATE TRIGGER tbls_drop_scan_state BEFORE DELETE ON tbls BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = 'internal'\n"
    "    AND db = (SELECT name FROM dbs WHERE id = OLD.db_id) AND tbl = OLD.name;\n"
    "  DELETE FROM checkpoints WHERE catalog = 'internal'\n"
    "    AND db = (SELECT name FROM dbs WHERE id = OLD.db_id) AND tbl = OLD.name;\n"
    "END;\n"
    /* rows left under the new name belonged to no existing table: gone */
    "CREATE TRIGGER tbls_rename_scan_state AFTER UPDATE OF db_id, name ON tbls\n"
    "  WHEN OLD.db_id <> NEW.db_id OR OLD.name <> NEW.name BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = 'internal'\n"
    "    AND db = (SELECT name FROM dbs WHERE id = NEW.db_id) AND tbl = NEW.name;\n"
    "  DELETE FROM checkpoints WHERE catalog = 'internal'\n"
    "    AND db = (SELECT name FROM dbs WHERE id = NEW.db_id) AND tbl = NEW.name;\n"
    "  UPDATE prof_states SET db = (SELECT name FROM dbs WHERE id = NEW.db_id), tbl = NEW.name\n"
    "    WHERE catalog = 'internal'\n"
    "    AND db = (SELECT name FROM dbs WHERE id = OLD.db_id) AND tbl = OLD.name;\n"
    "  UPDATE checkpoints SET db = (SELECT name FROM dbs WHERE id = NEW.db_id), tbl = NEW.name\n"
    "    WHERE catalog = 'internal'\n"
    "    AND db = (SELECT name FROM dbs WHERE id = OLD.db_id) AND tbl = OLD.name;\n"
    "END;\n"
    /* under a table's drop the table row is gone already: nothing matches */
    "CREATE TRIGGER partitions_drop_scan_state AFTER DELETE ON partitions BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = 'internal'\n"
    "    AND db = (SELECT d.name FROM tbls t JOIN dbs d ON d.id = t.db_id\n"
    "              WHERE t.id = OLD.tbl_id)\n"
    "    AND tbl = (SELECT name FROM tbls WHERE id = OLD.tbl_id) AND part = OLD.name;\n"
    "END;\n"
    "CREATE TRIGGER partitions_rename_scan_state AFTER UPDATE OF name ON partitions\n"
    "  WHEN OLD.name <> NEW.name BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = 'internal'\n"
    "    AND db = (SELECT d.name FROM tbls t JOIN dbs d ON d.id = t.db_id\n"
    "              WHERE t.id = OLD.tbl_id)\n"
    "    AND tbl = (SELECT name FROM tbls WHERE id = OLD.tbl_id) AND part = OLD.name;\n"
    "END;\n"
    "CREATE TRIGGER catalogs_drop_scan_state AFTER DELETE ON catalogs BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = OLD.name;\n"
    "  DELETE FROM checkpoints WHERE catalog = OLD.name;\n"
    "END;\n"
    "CREATE TRIGGER catalogs_rename_scan_state AFTER UPDATE OF name ON catalogs\n"
    "  WHEN OLD.name <> NEW.name BEGIN\n"
    "  DELETE FROM prof_states WHERE catalog = NEW.name;\n"
    "  DELETE FROM checkpoints WHERE catalog = NEW.name;\n"
    "  UPDATE prof_states SET catalog = NEW.name WHERE catalog = OLD.name;\n"
    "  UPDATE checkpoints SET catalog = NEW.name WHERE catalog = OLD.name;\n"
    "END;\n";

/* Each table's partition count, so that the checks that need it (the
 * maximum partitions per table before an ADD or a dynamic INSERT, a
 * snapshot's "did a write change the table", EXPLAIN's n/N, the metastore
 * server's get_num_partitions_by_filter) are one primary-key read, not a
 * walk of a million-row index.  A trigger makes a table's row; cat_sqlite.c
 * adds a batch's partitions in one UPDATE and takes a dropped one off, in
 * the writer's own unit of work (per-row triggers on partitions cost 60%
 * more CPU in MSCK and would run a million times under a table's drop);
 * the table's drop takes its row by the cascade.  An older file gets the
 * counts computed once here. */
static const char schema_v9[] =
    "CREATE TABLE part_counts (\n"
    "  tbl_id INTEGER PRIMARY KEY REFERENCES tbls (id) ON DELETE CASCADE,\n"
    "  n      INTEGER NOT NULL CHECK (n >= 0)\n"
    ");\n"
    "INSERT INTO part_counts (tbl_id, n)\n"
    "  SELECT t.id, (SELECT count(*) FROM partitions p WHERE p.tbl_id = t.id) FROM tbls t;\n"
    "CREATE TRIGGER tbls_part_count AFTER INSERT ON tbls BEGIN\n"
    "  INSERT INTO part_counts (tbl_id, n) VALUES (NEW.id, 0);\n"
    "END;\n";

/* Of each table's partitions, how many have a first value that is a text
 * date (util/partorder.h hl_tdate_parse; NULL, the default partition, is
 * not): with n, all that decides whether MSCK, ADD PARTITION and CTAS
 * make the first partition column the incremental field (plan/incr.h
 * hl_incr_auto_field: more than half of the partitions, by partition, not
 * by distinct value, whatever the format), so they read one row instead
 * of every partition's values.  cat_sqlite.c keeps it beside n in the same
 * statements; an older file gets it computed once here, from the first
 * key's rows of part_values (their index covers the query), with
 * hl_is_tdate, which hl_cat_schema_prepare registers before migrating. */
static const char schema_v10[] =
    "ALTER TABLE part_counts ADD COLUMN n_tdates INTEGER NOT NULL DEFAULT 0\n"
    "  CHECK (n_tdates >= 0 AND n_tdates <= n);\n"
    "UPDATE part_counts SET n_tdates = (SELECT count(*) FROM part_values v\n"
    "  WHERE v.tbl_id = part_counts.tbl_id AND v.idx = 0 AND hl_is_tdate(v.value));\n";

static const migration_t migrations[] = {
    {1, schema_v1}, {2, schema_v2}, {3, schema_v3}, {4, schema_v4}, {5, schema_v5},
    {6, schema_v6}, {7, schema_v7}, {8, schema_v8}, {9, schema_v9}, {10, schema_v10},
};

#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

int hl_cat_schema_latest(void) {
  return migrations[N_MIGRATIONS - 1].version;
}

hl_status_t hl_cat_sqlite_error(sqlite3 *db, int rc, hl_error_t *err) {
  const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
  case SQLITE_NOMEM:
    return hl_err_nomem(err);
  case SQLITE_CORRUPT:
  case SQLITE_NOTADB:
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "metastore is corrupt: %s", msg);
  case SQLITE_FULL:
    return hl_err_set(err, HL_IOERR, HL_SS(DISK_FULL), "metastore write failed: %s", msg);
  case SQLITE_TOOBIG:
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED), "metastore value too large: %s",
                      msg);
  case SQLITE_READONLY:
    return hl_err_set(err, HL_ERROR, HL_SS(READ_ONLY_SQL_TRANSACTION), "metastore is read-only: %s",
                      msg);
  case SQLITE_CONSTRAINT:
    return hl_err_set(err, HL_CONSTRAINT, HL_SS(INTEGRITY_CONSTRAINT_VIOLATION),
                      "metastore constraint failed: %s", msg);
  case SQLITE_MISUSE:
  case SQLITE_RANGE:
  case SQLITE_INTERNAL:
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "metastore misuse: %s", msg);
  default:
    return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "metastore error: %s", msg);
  }
}

/* Reads an integer PRAGMA (user_version, application_id). */
static int read_pragma(sqlite3 *db, const char *sql, int *out) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      *out = sqlite3_column_int(st, 0);
      rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
      rc = SQLITE_CORRUPT;
    }
  }
  sqlite3_finalize(st);
  return rc;
}

/* Refuses files that are not ours: not SQLite at all, another
 * application's database, or a schema newer than this code. */
static hl_status_t check_identity(sqlite3 *db, const char *path, unsigned flags, int *version,
                                  hl_error_t *err) {
  int rc = read_pragma(db, "PRAGMA user_version", version);
  if ((rc & 0xff) == SQLITE_NOTADB)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "metastore \"%s\" is not a SQLite database", path);
  if (rc != SQLITE_OK) return hl_cat_sqlite_error(db, rc, err);
  if (*version < 0)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "metastore \"%s\" has an invalid schema version %d", path, *version);
  if (*version > hl_cat_schema_latest())
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "metastore \"%s\" has schema version %d, newer than this hivelite "
                      "supports (%d)",
                      path, *version, hl_cat_schema_latest());
  int app_id = 0, n_objects = 0;
  rc = read_pragma(db, "PRAGMA application_id", &app_id);
  if (rc == SQLITE_OK && *version == 0)
    rc = read_pragma(db, "SELECT count(*) FROM sqlite_master", &n_objects);
  if (rc != SQLITE_OK) return hl_cat_sqlite_error(db, rc, err);
  /* Version 0 with objects in it, or a foreign application id: someone
   * else's database, which we must not write our tables into. */
  if ((*version == 0 && n_objects > 0) || (*version > 0 && app_id != HL_CAT_APPLICATION_ID))
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "file \"%s\" is a SQLite database but not a hivelite metastore", path);
  /* An empty file that this open did not create is a metastore that was
   * truncated or replaced: starting an empty warehouse over it would lose
   * every table silently.  (hl_cat_open creates new metastores complete.) */
  if (*version == 0 && !(flags & HL_CAT_SCHEMA_FRESH))
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "metastore \"%s\" is empty: it was truncated or is not a hivelite "
                      "metastore; restore it from a backup, or remove it to start an empty "
                      "warehouse",
                      path);
  return HL_OK;
}

static hl_status_t set_wal(sqlite3 *db, const char *path, hl_error_t *err) {
  sqlite3_stmt *st = NULL;
  hl_status_t status = HL_OK;
  int rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  if (rc != SQLITE_ROW) {
    status = hl_cat_sqlite_error(db, rc, err);
  } else {
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    /* An in-memory database (":memory:", used by tests) reports "memory". */
    if (!mode || (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0))
      status = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR),
                          "could not switch metastore \"%s\" to WAL mode (journal mode is %s)",
                          path, mode ? mode : "unknown");
  }
  sqlite3_finalize(st);
  return status;
}

/* hl_is_tdate(x): 1 when X is text that is a text date, else 0 (NULL
 * too). */
static void sql_is_tdate(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const char *s = (const char *)sqlite3_value_text(argv[0]);
  int len = sqlite3_value_bytes(argv[0]);
  sqlite3_result_int(ctx, s && hl_tdate_parse(s, (size_t)len, NULL, NULL));
}

static hl_status_t exec_sql(sqlite3 *db, const char *sql, hl_error_t *err) {
  int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  return rc == SQLITE_OK ? HL_OK : hl_cat_sqlite_error(db, rc, err);
}

/* Applies every step newer than the file's version in one IMMEDIATE
 * transaction; the version is read again under the write lock because
 * another process may have migrated the file meanwhile. */
static hl_status_t migrate(sqlite3 *db, const char *path, unsigned flags, int *version,
                           hl_error_t *err) {
  hl_status_t status = exec_sql(db, "BEGIN IMMEDIATE", err);
  if (status != HL_OK) return status;
  status = check_identity(db, path, flags, version, err);
  for (int step_idx = 0; status == HL_OK && step_idx < N_MIGRATIONS; step_idx++) {
    const migration_t *step = &migrations[step_idx];
    if (step->version <= *version) continue;
    status = exec_sql(db, step->sql, err);
    if (status != HL_OK) {
      hl_err_prefix(err, "migrating metastore \"%s\" to schema version %d", path, step->version);
      break;
    }
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", step->version);
    status = exec_sql(db, pragma, err);
    if (status == HL_OK) *version = step->version;
  }
  if (status == HL_OK) status = exec_sql(db, "COMMIT", err);
  if (status != HL_OK && !sqlite3_get_autocommit(db))
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return status;
}

hl_status_t hl_cat_schema_prepare(sqlite3 *db, const char *path, unsigned flags, int *version,
                                  hl_error_t *err) {
  hl_status_t status = check_identity(db, path, flags, version, err);
  if (status != HL_OK) return status;
  if (flags & HL_CAT_SCHEMA_READONLY) {
    /* read as it is; the journal mode is the file's business */
    if (*version < hl_cat_schema_latest())
      return hl_err_set(err, HL_ERROR, HL_SS(READ_ONLY_SQL_TRANSACTION),
                        "metastore \"%s\" has schema version %d and must be upgraded to %d, "
                        "which needs write access to it",
                        path, *version, hl_cat_schema_latest());
    return HL_OK;
  }
  status = set_wal(db, path, err);
  /* for schema v10's migration and the writes that keep n_tdates */
  int rc = status == HL_OK
               ? sqlite3_create_function_v2(db, "hl_is_tdate", 1,
                                            SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                            NULL, sql_is_tdate, NULL, NULL, NULL)
               : SQLITE_OK;
  if (rc != SQLITE_OK) status = hl_cat_sqlite_error(db, rc, err);
  if (status == HL_OK && *version < hl_cat_schema_latest())
    status = migrate(db, path, flags, version, err);
  return status;
}
