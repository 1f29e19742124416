/*
 * cat_sqlite.c -- the embedded metastore: catalog.h on SQLite.
 *
 * One hl_cat_t wraps one SQLite connection (WAL mode, 5 s busy timeout,
 * foreign keys on) and a cache of prepared statements, one per entry of
 * STMT_SQL, prepared on first use and finalized by hl_cat_close.  The
 * schema and its migrations live in cat_schema.c.
 *
 * Atomicity: every public function runs inside op_begin/op_end.  Inside a
 * caller's transaction (hl_cat_begin) that is a SAVEPOINT, so a failing
 * call undoes its own partial work and leaves the caller's earlier work to
 * the caller's commit or rollback; outside one it is its own transaction
 * (BEGIN IMMEDIATE for writes, so the write lock is taken up front and a
 * WAL snapshot can never go stale between read and write).
 *
 * Results are built in the caller's arena; rows are read through rd_t,
 * which remembers the first failure (OOM, or a NULL where the schema
 * forbids one in a damaged file) so a row is checked once.  A cached
 * statement is always reset before the function returns, so no statement
 * stays active across calls.
 */
#include "catalog/cat_backend.h"

#include "catalog/catalog_int.h"
#include "util/mem.h"
#include "util/partorder.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------
 * Statements
 * ------------------------------------------------------------------------ */

typedef enum stmt_id {
  S_BEGIN,
  S_BEGIN_IMMEDIATE,
  S_COMMIT,
  S_ROLLBACK,
  S_SAVEPOINT,
  S_RELEASE,
  S_ROLLBACK_TO,
  S_DB_ID,
  S_DB_INSERT,
  S_DB_PARAM_INSERT,
  S_DB_GET,
  S_DB_PARAMS,
  S_DB_LIST,
  S_DB_HAS_TABLES,
  S_DB_DELETE,
  S_DB_UPDATE,
  S_DB_PARAMS_DELETE,
  S_TBL_ID,
  S_TBL_INSERT,
  S_TBL_UPDATE,
  S_TBL_GET,
  S_TBL_INFO,
  S_TBL_LIST,
  S_TBL_DELETE,
  S_TBL_PARAM_INSERT,
  S_TBL_PARAMS,
  S_TBL_PARAM_DELETE,
  S_SERDE_PARAM_INSERT,
  S_SERDE_PARAMS,
  S_SERDE_PARAM_DELETE,
  S_COL_INSERT,
  S_COLS,
  S_COL_DELETE,
  S_PKEY_INSERT,
  S_PKEYS,
  S_PKEY_DELETE,
  S_BUCKET_INSERT,
  S_BUCKETS,
  S_BUCKET_DELETE,
  S_SORT_INSERT,
  S_SORTS,
  S_SORT_DELETE,
  S_PART_INSERT,
  S_PART_UPDATE,
  S_PART_GET,
  S_PART_TABLE,
  S_PART_COUNTS,
  S_PART_COUNT,
  S_PART_COUNT_ADD,
  S_PART_COUNT_DROP,
  S_PART_COUNT_MOVE,
  S_PART_TDATES,
  S_PART_LIST,
  S_PART_LIST_PARAMS,
  S_PART_DELETE,
  S_PVAL_INSERT,
  S_PVAL_DELETE,
  S_PPARAM_INSERT,
  S_PPARAMS,
  S_PPARAM_DELETE,
  S_COUNT_
} stmt_id_t;

/* 1 when partition ?1's first value is a text date (schema v10) */
#define OLD_TDATE                                                                                  \
  "(SELECT count(*) FROM part_values WHERE part_id = ?1 AND idx = 0 AND hl_is_tdate(value))"

/* Lists that size their result read count(*) OVER () as the last column,
 * so one query gives both the rows and how many there are. */
static const char *const stmt_sql[S_COUNT_] = {
    [S_BEGIN] = "BEGIN",
    [S_BEGIN_IMMEDIATE] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_SAVEPOINT] = "SAVEPOINT hl_op",
    [S_RELEASE] = "RELEASE hl_op",
    [S_ROLLBACK_TO] = "ROLLBACK TO hl_op",
    [S_DB_ID] = "SELECT id FROM dbs WHERE name = ?1",
    [S_DB_INSERT] = "INSERT INTO dbs (name, comment, location, owner, create_time) "
                    "VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_DB_PARAM_INSERT] = "INSERT INTO db_params (db_id, idx, key, value) VALUES (?1, ?2, ?3, ?4)",
    [S_DB_GET] = "SELECT id, name, comment, location, owner FROM dbs WHERE name = ?1",
    [S_DB_PARAMS] = "SELECT key, value, count(*) OVER () FROM db_params WHERE db_id = ?1 "
                    "ORDER BY idx",
    [S_DB_LIST] = "SELECT name, count(*) OVER () FROM dbs ORDER BY name",
    [S_DB_HAS_TABLES] = "SELECT EXISTS (SELECT 1 FROM tbls WHERE db_id = ?1)",
    [S_DB_DELETE] = "DELETE FROM dbs WHERE id = ?1",
    [S_DB_UPDATE] = "UPDATE dbs SET comment = ?2, location = ?3, owner = ?4 WHERE id = ?1",
    [S_DB_PARAMS_DELETE] = "DELETE FROM db_params WHERE db_id = ?1",
    [S_TBL_ID] = "SELECT id FROM tbls WHERE db_id = ?1 AND name = ?2",
    [S_TBL_INSERT] = "INSERT INTO tbls (db_id, name, type, location, input_format, output_format, "
                     "serde_lib, owner, create_time, num_buckets, view_original_text, "
                     "view_expanded_text) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?12, ?13)",
    [S_TBL_UPDATE] = "UPDATE tbls SET db_id = ?1, name = ?2, type = ?3, location = ?4, "
                     "input_format = ?5, output_format = ?6, serde_lib = ?7, owner = ?8, "
                     "create_time = ?9, num_buckets = ?10, view_original_text = ?12, "
                     "view_expanded_text = ?13 WHERE id = ?11",
    [S_TBL_GET] = "SELECT t.id, d.name, t.name, t.type, t.location, t.input_format, "
                  "t.output_format, t.serde_lib, t.owner, t.create_time, t.num_buckets, "
                  "t.view_original_text, t.view_expanded_text "
                  "FROM dbs d JOIN tbls t ON t.db_id = d.id WHERE d.name = ?1 AND t.name = ?2",
    [S_TBL_INFO] =
        "SELECT d.name, t.name, (SELECT count(*) FROM part_keys k WHERE k.tbl_id = t.id) "
        "FROM tbls t JOIN dbs d ON d.id = t.db_id WHERE t.id = ?1",
    [S_TBL_LIST] = "SELECT name, count(*) OVER () FROM tbls WHERE db_id = ?1 ORDER BY name",
    [S_TBL_DELETE] = "DELETE FROM tbls WHERE id = ?1",
    [S_TBL_PARAM_INSERT] = "INSERT INTO tbl_params (tbl_id, idx, key, value) "
                           "VALUES (?1, ?2, ?3, ?4)",
    [S_TBL_PARAMS] = "SELECT key, value, count(*) OVER () FROM tbl_params WHERE tbl_id = ?1 "
                     "ORDER BY idx",
    [S_TBL_PARAM_DELETE] = "DELETE FROM tbl_params WHERE tbl_id = ?1",
    [S_SERDE_PARAM_INSERT] = "INSERT INTO serde_params (tbl_id, idx, key, value) "
                             "VALUES (?1, ?2, ?3, ?4)",
    [S_SERDE_PARAMS] = "SELECT key, value, count(*) OVER () FROM serde_params WHERE tbl_id = ?1 "
                       "ORDER BY idx",
    [S_SERDE_PARAM_DELETE] = "DELETE FROM serde_params WHERE tbl_id = ?1",
    [S_COL_INSERT] = "INSERT INTO tbl_columns (tbl_id, idx, name, type, comment) "
                     "VALUES (?1, ?2, hl_lower(?3), hl_lower(?4), ?5)",
    [S_COLS] = "SELECT name, type, comment, count(*) OVER () FROM tbl_columns WHERE tbl_id = ?1 "
               "ORDER BY idx",
    [S_COL_DELETE] = "DELETE FROM tbl_columns WHERE tbl_id = ?1",
    [S_PKEY_INSERT] = "INSERT INTO part_keys (tbl_id, idx, name, type, comment) "
                      "VALUES (?1, ?2, hl_lower(?3), hl_lower(?4), ?5)",
    [S_PKEYS] = "SELECT name, type, comment, count(*) OVER () FROM part_keys WHERE tbl_id = ?1 "
                "ORDER BY idx",
    [S_PKEY_DELETE] = "DELETE FROM part_keys WHERE tbl_id = ?1",
    [S_BUCKET_INSERT] = "INSERT INTO bucket_cols (tbl_id, idx, name) VALUES (?1, ?2, hl_lower(?3))",
    [S_BUCKETS] = "SELECT name, count(*) OVER () FROM bucket_cols WHERE tbl_id = ?1 ORDER BY idx",
    [S_BUCKET_DELETE] = "DELETE FROM bucket_cols WHERE tbl_id = ?1",
    [S_SORT_INSERT] = "INSERT INTO sort_cols (tbl_id, idx, name, ascending) "
                      "VALUES (?1, ?2, hl_lower(?3), ?4)",
    [S_SORTS] = "SELECT name, ascending, count(*) OVER () FROM sort_cols WHERE tbl_id = ?1 "
                "ORDER BY idx",
    [S_SORT_DELETE] = "DELETE FROM sort_cols WHERE tbl_id = ?1",
    [S_PART_INSERT] = "INSERT INTO partitions (tbl_id, name, vals, location, create_time) "
                      "VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_PART_UPDATE] = "UPDATE partitions SET name = ?2, vals = ?3, location = ?4 WHERE id = ?1",
    [S_PART_GET] = "SELECT id, name, vals, location, create_time FROM partitions "
                   "WHERE tbl_id = ?1 AND vals = ?2",
    [S_PART_TABLE] = "SELECT tbl_id FROM partitions WHERE id = ?1",
    [S_PART_COUNTS] = "SELECT (SELECT count(*) FROM partitions WHERE tbl_id = ?1), "
                      "(SELECT count(*) FROM partitions p JOIN part_params pp "
                      "ON pp.part_id = p.id WHERE p.tbl_id = ?1)",
    [S_PART_COUNT] = "SELECT n FROM part_counts WHERE tbl_id = ?1",
    /* the kept counts (schema v9, v10's n_tdates): a batch added, one
     * partition dropped, one's values replaced (before its part_values
     * are: the old first value is read there) */
    [S_PART_COUNT_ADD] = "UPDATE part_counts SET n = n + ?2, n_tdates = n_tdates + ?3 "
                         "WHERE tbl_id = ?1",
    [S_PART_COUNT_DROP] = "UPDATE part_counts SET n = n - 1, n_tdates = n_tdates - " OLD_TDATE
                          " WHERE tbl_id = (SELECT tbl_id FROM partitions WHERE id = ?1)",
    [S_PART_COUNT_MOVE] = "UPDATE part_counts SET n_tdates = n_tdates - " OLD_TDATE " + ?3 "
                          "WHERE tbl_id = ?2",
    [S_PART_TDATES] = "SELECT n, n_tdates FROM part_counts WHERE tbl_id = ?1",
    [S_PART_LIST] = "SELECT id, name, vals, location, create_time FROM partitions "
                    "WHERE tbl_id = ?1 ORDER BY name",
    [S_PART_LIST_PARAMS] = "SELECT pp.part_id, pp.key, pp.value FROM partitions p "
                           "JOIN part_params pp ON pp.part_id = p.id "
                           "WHERE p.tbl_id = ?1 ORDER BY p.name, pp.idx",
    [S_PART_DELETE] = "DELETE FROM partitions WHERE id = ?1",
    [S_PVAL_INSERT] = "INSERT INTO part_values (part_id, idx, tbl_id, value) "
                      "VALUES (?1, ?2, ?3, ?4)",
    [S_PVAL_DELETE] = "DELETE FROM part_values WHERE part_id = ?1",
    [S_PPARAM_INSERT] = "INSERT INTO part_params (part_id, idx, key, value) "
                        "VALUES (?1, ?2, ?3, ?4)",
    [S_PPARAMS] = "SELECT key, value, count(*) OVER () FROM part_params WHERE part_id = ?1 "
                  "ORDER BY idx",
    [S_PPARAM_DELETE] = "DELETE FROM part_params WHERE part_id = ?1",
};

/* The SQLite backend's handle: base first (cat_backend.h). */
typedef struct sq_cat {
  hl_cat_t base;
  sqlite3 *db;                   /* the connection */
  char *path;                    /* the metastore file, for messages (heap) */
  bool readonly;                 /* opened read-only: every write is refused (25006) */
  int version;                   /* schema version after migration */
  int in_txn;                    /* between hl_cat_begin and commit/rollback */
  bool big_cache;                /* the page cache was raised for a big batch (add_many) */
  int cache_before;              /* cache_size before it was raised (PRAGMA units) */
  sqlite3_stmt *stmts[S_COUNT_]; /* cached, NULL until first use */
  /* hl_cat_cached_stmt: statements of the other backend files, by their
   * (static) SQL text */
  const char *other_sql[HL_CAT_OTHER_STMTS];
  sqlite3_stmt *other[HL_CAT_OTHER_STMTS];
} sq_cat_t;

static const hl_cat_ops_t sq_ops;

/* The SQLite fields of a handle this backend made. */
static inline sq_cat_t *SQ(const hl_cat_t *cat) {
  return (sq_cat_t *)cat;
}

/* ------------------------------------------------------------------------
 * Small helpers: names, statements, binding, reading rows
 * ------------------------------------------------------------------------ */

static char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Heap copy of S lower-cased (ASCII only, as Hive does).  NULL on OOM. */
static char *lower_dup(const char *s) {
  char *out = hl_strdup(s);
  if (out)
    for (char *p = out; *p; p++)
      *p = ascii_lower(*p);
  return out;
}

/* SQL function hl_lower(x): the same lower-casing for names stored from
 * inside statements (columns, keys), independent of SQLite's build. */
static void sql_lower(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  const unsigned char *text = sqlite3_value_text(argv[0]);
  int len = sqlite3_value_bytes(argv[0]);
  char *out = text ? sqlite3_malloc(len + 1) : NULL;
  if (!out) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  for (int i = 0; i < len; i++)
    out[i] = ascii_lower((char)text[i]);
  out[len] = '\0';
  sqlite3_result_text(ctx, out, len, sqlite3_free);
}

static hl_status_t sqerr(hl_cat_t *cat, int rc, hl_error_t *err) {
  return hl_cat_sqlite_error(SQ(cat)->db, rc, err);
}

static hl_status_t misuse(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "%s", what);
}

/* The cached statement ID, prepared on first use; NULL with ERR set. */
static sqlite3_stmt *prep(hl_cat_t *cat, stmt_id_t id, hl_error_t *err) {
  if (!SQ(cat)->stmts[id]) {
    int rc = sqlite3_prepare_v3(SQ(cat)->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                                &SQ(cat)->stmts[id], NULL);
    if (rc != SQLITE_OK) {
      sqerr(cat, rc, err);
      sqlite3_finalize(SQ(cat)->stmts[id]);
      SQ(cat)->stmts[id] = NULL;
    }
  }
  return SQ(cat)->stmts[id];
}

/* Returns a cached statement to its idle state (and frees bound blobs). */
static void release(sqlite3_stmt *st) {
  if (st) {
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
}

static int bind_text(hl_cat_t *cat, sqlite3_stmt *st, int idx, const char *s, hl_error_t *err) {
  int rc = s ? sqlite3_bind_text(st, idx, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, idx);
  if (rc != SQLITE_OK) sqerr(cat, rc, err);
  return rc == SQLITE_OK;
}

static int bind_i64(hl_cat_t *cat, sqlite3_stmt *st, int idx, int64_t v, hl_error_t *err) {
  int rc = sqlite3_bind_int64(st, idx, v);
  if (rc != SQLITE_OK) sqerr(cat, rc, err);
  return rc == SQLITE_OK;
}

/* Steps a statement that returns no rows (or whose rows are ignored). */
static hl_status_t run(hl_cat_t *cat, sqlite3_stmt *st, hl_error_t *err) {
  int rc = sqlite3_step(st);
  return (rc == SQLITE_DONE || rc == SQLITE_ROW) ? HL_OK : sqerr(cat, rc, err);
}

/* Steps a query: 1 = row, 0 = done, -1 = error (ERR set). */
static int next_row(hl_cat_t *cat, sqlite3_stmt *st, hl_error_t *err) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) return 1;
  if (rc == SQLITE_DONE) return 0;
  sqerr(cat, rc, err);
  return -1;
}

/* Row reader with a sticky status: the first failure is kept in ERR. */
typedef struct rd {
  hl_arena_t *arena; /* where results go */
  hl_error_t *err;
  hl_status_t status; /* HL_OK until something failed */
} rd_t;

static void *rd_alloc(rd_t *r, size_t count, size_t size) {
  if (r->status != HL_OK) return NULL;
  if (count == 0) return NULL;
  size_t nbytes;
  if (__builtin_mul_overflow(count, size, &nbytes)) {
    r->status = hl_err_nomem(r->err);
    return NULL;
  }
  void *p = hl_arena_zalloc(r->arena, nbytes);
  if (!p) r->status = hl_err_nomem(r->err);
  return p;
}

/* Column COL as an arena string; NULL stays NULL unless REQUIRED, in which
 * case the file is damaged (the schema says NOT NULL). */
static char *rd_text(rd_t *r, sqlite3_stmt *st, int col, int required) {
  if (r->status != HL_OK) return NULL;
  if (sqlite3_column_type(st, col) == SQLITE_NULL) {
    if (required)
      r->status = hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                             "metastore is corrupt: unexpected NULL in column \"%s\"",
                             sqlite3_column_name(st, col));
    return NULL;
  }
  const char *text = (const char *)sqlite3_column_text(st, col);
  if (!text && sqlite3_errcode(sqlite3_db_handle(st)) == SQLITE_NOMEM) {
    r->status = hl_err_nomem(r->err);
    return NULL;
  }
  /* NULL text without OOM: a zero-length blob where text belongs. */
  char *out = text ? hl_arena_strndup(r->arena, text, (size_t)sqlite3_column_bytes(st, col))
                   : hl_arena_strdup(r->arena, "");
  if (!out) r->status = hl_err_nomem(r->err);
  return out;
}

/* A count(*) OVER () column, bounded so that a damaged file cannot make
 * us allocate without limit (the real count is checked against the rows). */
static size_t rd_count(rd_t *r, sqlite3_stmt *st, int col) {
  sqlite3_int64 n = sqlite3_column_int64(st, col);
  if (n < 0 || n > INT32_MAX) {
    if (r->status == HL_OK)
      r->status = hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                             "metastore is corrupt: invalid row count %lld", (long long)n);
    return 0;
  }
  return (size_t)n;
}

static void rd_too_many(rd_t *r) {
  if (r->status == HL_OK)
    r->status = hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                           "metastore is corrupt: row count changed while reading");
}

/* ------------------------------------------------------------------------
 * Transactions
 * ------------------------------------------------------------------------ */

static hl_status_t exec_sql(hl_cat_t *cat, const char *sql, hl_error_t *err) {
  int rc = sqlite3_exec(SQ(cat)->db, sql, NULL, NULL, NULL);
  return rc == SQLITE_OK ? HL_OK : sqerr(cat, rc, err);
}

/* Runs a cached transaction-control statement (parsed once per handle:
 * a partition add runs two of them). */
static hl_status_t exec(hl_cat_t *cat, stmt_id_t id, hl_error_t *err) {
  sqlite3_stmt *st = prep(cat, id, err);
  if (!st) return err->code;
  hl_status_t status = run(cat, st, err);
  sqlite3_reset(st);
  return status;
}

/* The same for cleanup paths, where a failure has nowhere to go (and the
 * first error, already in ERR, is the one to report). */
static void exec_quiet(hl_cat_t *cat, stmt_id_t id) {
  hl_error_t ignored;
  hl_err_init(&ignored);
  exec(cat, id, &ignored);
  hl_err_clear(&ignored);
}

/* SQLite rolls a transaction back by itself after some errors (full disk,
 * I/O error); a caller still inside "its" transaction must hear of it. */
static hl_status_t check_txn_alive(hl_cat_t *cat, hl_error_t *err) {
  if (SQ(cat)->in_txn && sqlite3_get_autocommit(SQ(cat)->db))
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_TRANSACTION_STATE),
                      "the metastore transaction was aborted by an earlier error");
  return HL_OK;
}

/* The error of a write on a metastore opened read-only. */
static hl_status_t read_only(hl_cat_t *cat, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(READ_ONLY_SQL_TRANSACTION),
                    "metastore \"%s\" is read-only (the file, its directory or its -wal/-shm "
                    "files are not writable): this statement needs to change it",
                    SQ(cat)->path ? SQ(cat)->path : "");
}

/* Opens the unit of work of one public call (see the file comment). */
static hl_status_t op_begin(hl_cat_t *cat, int write, hl_error_t *err) {
  if (write && SQ(cat)->readonly) return read_only(cat, err);
  if (check_txn_alive(cat, err) != HL_OK) return err->code;
  if (SQ(cat)->in_txn) return exec(cat, S_SAVEPOINT, err);
  return exec(cat, write ? S_BEGIN_IMMEDIATE : S_BEGIN, err);
}

/* Closes it: keeps the work when STATUS is HL_OK, undoes it otherwise.
 * Returns the final status (a failed COMMIT turns success into failure). */
/* Gives back the page cache a big batch raised (hl_cat_sq_partition_add_many)
 * once its transaction has ended: a long-lived handle (a server, a shell)
 * would otherwise keep 32 MB of pages after one big MSCK. */
static void cache_restore(hl_cat_t *cat) {
  if (!SQ(cat)->big_cache || SQ(cat)->in_txn) return;
  char sql[48];
  snprintf(sql, sizeof sql, "PRAGMA cache_size = %d", SQ(cat)->cache_before);
  if (sqlite3_exec(SQ(cat)->db, sql, NULL, NULL, NULL) == SQLITE_OK) SQ(cat)->big_cache = false;
}

static hl_status_t op_end(hl_cat_t *cat, hl_status_t status, hl_error_t *err) {
  if (sqlite3_get_autocommit(SQ(cat)->db)) { /* SQLite rolled back already */
    cache_restore(cat);
    return status;
  }
  if (SQ(cat)->in_txn) {
    if (status != HL_OK) exec_quiet(cat, S_ROLLBACK_TO);
    hl_status_t rel = exec(cat, S_RELEASE, err);
    return status != HL_OK ? status : rel;
  }
  if (status == HL_OK) status = exec(cat, S_COMMIT, err);
  if (status != HL_OK && !sqlite3_get_autocommit(SQ(cat)->db))
    sqlite3_exec(SQ(cat)->db, "ROLLBACK", NULL, NULL, NULL);
  cache_restore(cat);
  return status;
}

hl_status_t hl_cat_sq_begin(hl_cat_t *cat, hl_error_t *err) {
  if (SQ(cat)->in_txn)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_TRANSACTION_STATE),
                      "a metastore transaction is already in progress");
  if (SQ(cat)->readonly) return read_only(cat, err);
  hl_status_t status = exec(cat, S_BEGIN_IMMEDIATE, err);
  if (status == HL_OK) SQ(cat)->in_txn = 1;
  return status;
}

hl_status_t hl_cat_sq_commit(hl_cat_t *cat, hl_error_t *err) {
  if (!SQ(cat)->in_txn)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_TRANSACTION_STATE),
                      "no metastore transaction is in progress");
  hl_status_t status = check_txn_alive(cat, err);
  if (status == HL_OK) status = exec(cat, S_COMMIT, err);
  /* A commit that failed even after the busy timeout is given up: the
   * caller's contract is "commit or nothing". */
  if (status != HL_OK && !sqlite3_get_autocommit(SQ(cat)->db))
    sqlite3_exec(SQ(cat)->db, "ROLLBACK", NULL, NULL, NULL);
  SQ(cat)->in_txn = 0;
  cache_restore(cat);
  return status;
}

void hl_cat_sq_rollback(hl_cat_t *cat) {
  if (!cat || !SQ(cat)->in_txn) return;
  if (!sqlite3_get_autocommit(SQ(cat)->db)) sqlite3_exec(SQ(cat)->db, "ROLLBACK", NULL, NULL, NULL);
  SQ(cat)->in_txn = 0;
  cache_restore(cat);
}

/* ------------------------------------------------------------------------
 * Open and close
 * ------------------------------------------------------------------------ */

/* Creates the directory holding PATH if it is missing (one level only:
 * the warehouse itself is the caller's business). */
static hl_status_t make_parent_dir(const char *path, hl_error_t *err) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return HL_OK; /* current directory or "/" */
  char *parent = hl_strndup(path, (size_t)(slash - path));
  if (!parent) return hl_err_nomem(err);
  hl_status_t status = HL_OK;
  struct stat sb;
  if (stat(parent, &sb) != 0) {
    if (mkdir(parent, 0777) != 0 && errno != EEXIST)
      status = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not create directory \"%s\": %s",
                          parent, strerror(errno));
  } else if (!S_ISDIR(sb.st_mode)) {
    status = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "\"%s\" is not a directory", parent);
  }
  hl_free(parent);
  return status;
}

/* The directory holding PATH (heap), "." for a bare name; NULL on OOM. */
static char *parent_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return hl_strdup(".");
  return slash == path ? hl_strdup("/") : hl_strndup(path, (size_t)(slash - path));
}

/* Makes the directory entry of a new file in DIR durable. */
static hl_status_t sync_dir(const char *dir, hl_error_t *err) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) {
    int e = errno;
    if (fd >= 0) close(fd);
    return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not sync directory \"%s\": %s", dir,
                      strerror(e));
  }
  close(fd);
  return HL_OK;
}

/* Creates a new metastore at PATH, which does not exist: the schema is
 * built in a file of its own next to it and linked into place only when
 * complete, so that PATH never exists as an empty file.  That is what lets
 * hl_cat_open refuse an empty file at PATH (a truncated metastore) instead
 * of starting an empty warehouse over it, without mistaking the metastore
 * a concurrent first open is creating for one.  If another process linked
 * its metastore first, that one is kept. */
static hl_status_t create_metastore(const char *path, hl_error_t *err) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  size_t n = strlen(path) + 80; /* ".new-<pid>-<ns>" and a "-wal" suffix */
  char *tmp = hl_malloc(n);
  if (!tmp) return hl_err_nomem(err);
  snprintf(tmp, n, "%s.new-%ld-%lld%09ld", path, (long)getpid(), (long long)ts.tv_sec,
           (long)ts.tv_nsec);
  sqlite3 *db = NULL;
  hl_status_t status = HL_OK;
  int rc = sqlite3_open_v2(tmp, &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK) {
    status = !db || (rc & 0xff) == SQLITE_NOMEM
                 ? hl_err_nomem(err)
                 : hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR),
                              "could not create metastore \"%s\": %s", path, sqlite3_errmsg(db));
  } else {
    int version;
    sqlite3_extended_result_codes(db, 1);
    status = hl_cat_schema_prepare(db, path, HL_CAT_SCHEMA_FRESH, &version, err);
  }
  /* closing the only connection checkpoints the WAL into the file and
   * removes the -wal and -shm files */
  rc = sqlite3_close(db);
  if (status == HL_OK && rc != SQLITE_OK)
    status = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not create metastore \"%s\": %s",
                        path, sqlite3_errstr(rc));
  if (status == HL_OK && link(tmp, path) != 0 && errno != EEXIST) {
    /* a file system without hard links: a rename that never replaces */
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) != 0 && errno != EEXIST)
      status = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not create metastore \"%s\": %s",
                          path, strerror(errno));
  }
  /* the file is linked (or renamed) into place, or not wanted; its -wal
   * and -shm are gone unless the close failed */
  unlink(tmp);
  size_t len = strlen(tmp);
  for (int i = 0; i < 2; i++) {
    snprintf(tmp + len, n - len, "%s", i ? "-shm" : "-wal");
    unlink(tmp);
  }
  hl_free(tmp);
  if (status == HL_OK) {
    char *dir = parent_of(path);
    status = dir ? sync_dir(dir, err) : hl_err_nomem(err);
    hl_free(dir);
  }
  return status;
}

/* PATH as a SQLite "file:" URI with query QUERY: '%', '?' and '#' (and
 * bytes SQLite's URI parser would misread) percent-encoded.  Heap. */
static char *file_uri(const char *path, const char *query) {
  size_t n = strlen(path);
  char *out = hl_malloc(5 + 3 * n + 1 + strlen(query) + 1);
  if (!out) return NULL;
  size_t k = 0;
  memcpy(out, "file:", 5);
  k = 5;
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (*p == '%' || *p == '?' || *p == '#' || *p <= 0x20 || *p >= 0x7f) {
      static const char hex[] = "0123456789ABCDEF";
      out[k++] = '%';
      out[k++] = hex[*p >> 4];
      out[k++] = hex[*p & 15];
    } else {
      out[k++] = (char)*p;
    }
  }
  out[k++] = '?';
  strcpy(out + k, query);
  return out;
}

/* True when this process may change PATH: the file, its directory (for
 * the -wal and -shm files) and the -wal and -shm files that exist are
 * writable.  access() also reports a read-only file system and immutable
 * files, even to root.  A -wal or -shm file of ours that we may not write
 * while the database file is writable was left by a read-only open of an
 * older hivelite (SQLite gives them the database file's permissions): it
 * gets the database file's permission bits back, or the warehouse would
 * stay unwritable after its permissions were restored.  1 writable, 0
 * not, -1 out of memory. */
static int metastore_writable(const char *path) {
  struct stat db_st;
  if (access(path, W_OK) != 0 || stat(path, &db_st) != 0) return 0;
  size_t n = strlen(path) + 5;
  char *dir = parent_of(path);
  char *side = hl_malloc(n);
  int ok = dir && side ? access(dir, W_OK) == 0 : -1;
  for (int i = 0; ok == 1 && i < 2; i++) {
    snprintf(side, n, "%s%s", path, i == 0 ? "-wal" : "-shm");
    struct stat st;
    if (stat(side, &st) != 0 || access(side, W_OK) == 0) continue;
    if (st.st_uid == geteuid()) chmod(side, db_st.st_mode & 0666);
    ok = access(side, W_OK) == 0;
  }
  hl_free(dir);
  hl_free(side);
  return ok;
}

/* Opens PATH read-only into *DB without creating anything next to it.  A
 * checkpointed metastore (no -wal file with frames in it: the normal state
 * once every process closed it) is opened immutable, which needs no -shm
 * file and takes no locks; otherwise the WAL must be read, through the
 * existing -shm file, which is never created (SQLite would give it the
 * permissions of the read-only database file, and a -shm nobody may write
 * keeps the warehouse unwritable after its permissions are restored). */
static hl_status_t open_readonly(const char *path, sqlite3 **db, hl_error_t *err) {
  size_t n = strlen(path) + 5;
  char *side = hl_malloc(n);
  if (!side) return hl_err_nomem(err);
  struct stat sb;
  snprintf(side, n, "%s-wal", path);
  bool frames = stat(side, &sb) == 0 && sb.st_size > 0;
  snprintf(side, n, "%s-shm", path);
  bool shm = stat(side, &sb) == 0;
  hl_free(side);
  if (frames && !shm)
    return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR),
                      "could not open read-only metastore \"%s\": its write-ahead log "
                      "\"%s-wal\" holds changes that cannot be read without the missing "
                      "\"%s-shm\" file; open the warehouse once with write access",
                      path, path, path);
  char *uri = file_uri(path, frames ? "mode=ro&readonly_shm=1" : "immutable=1");
  if (!uri) return hl_err_nomem(err);
  int rc =
      sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
  hl_free(uri);
  if (rc == SQLITE_OK) return HL_OK;
  if (!*db || (rc & 0xff) == SQLITE_NOMEM) return hl_err_nomem(err);
  return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not open read-only metastore \"%s\": %s",
                    path, sqlite3_errmsg(*db));
}

hl_status_t hl_cat_open(const char *path, hl_cat_t **out, hl_error_t *err) {
  *out = NULL;
  if (!path || !*path) return misuse(err, "metastore path is empty");
  bool memory = strcmp(path, ":memory:") == 0;
  hl_status_t status = memory ? HL_OK : make_parent_dir(path, err);
  if (status != HL_OK) return status;
  if (!memory) {
    struct stat sb;
    if (stat(path, &sb) != 0) {
      if (errno != ENOENT)
        return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not open metastore \"%s\": %s",
                          path, strerror(errno));
      status = create_metastore(path, err);
      if (status != HL_OK) return status;
    }
  }
  sq_cat_t *sq = hl_calloc(1, sizeof *sq);
  hl_cat_t *cat = sq ? &sq->base : NULL;
  if (sq) sq->base.ops = &sq_ops;
  if (!sq || !(sq->path = hl_strdup(path))) {
    hl_free(sq);
    return hl_err_nomem(err);
  }
  int writable = memory ? 1 : metastore_writable(path);
  if (writable < 0) {
    status = hl_err_nomem(err);
    goto done;
  }
  SQ(cat)->readonly = writable == 0;
  int rc = SQLITE_OK;
  if (SQ(cat)->readonly) {
    status = open_readonly(path, &SQ(cat)->db, err);
    if (status != HL_OK) goto done;
  } else {
    /* NOMUTEX: a handle is used by one thread at a time (catalog.h).  No
     * CREATE: the file exists (create_metastore made a missing one). */
    rc = sqlite3_open_v2(
        path, &SQ(cat)->db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (memory ? SQLITE_OPEN_CREATE : 0), NULL);
    if (rc != SQLITE_OK) {
      if (!SQ(cat)->db || (rc & 0xff) == SQLITE_NOMEM)
        status = hl_err_nomem(err);
      else
        status = hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not open metastore \"%s\": %s",
                            path, sqlite3_errmsg(SQ(cat)->db));
      goto done;
    }
  }
  sqlite3_extended_result_codes(SQ(cat)->db, 1);
  /* a writer waits for another's metastore transaction as long as for a
   * table lock (hivelite.lock.timeout's default): 5 s was too short on a
   * loaded machine, where many writers queue behind one another */
  sqlite3_busy_timeout(SQ(cat)->db, 60000);
  rc = sqlite3_create_function_v2(SQ(cat)->db, "hl_lower", 1,
                                  SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                  sql_lower, NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    status = sqerr(cat, rc, err);
    goto done;
  }
  status = exec_sql(cat, "PRAGMA foreign_keys = ON", err);
  if (status == HL_OK)
    status = hl_cat_schema_prepare(SQ(cat)->db, path,
                                   (memory ? HL_CAT_SCHEMA_FRESH : 0) |
                                       (SQ(cat)->readonly ? HL_CAT_SCHEMA_READONLY : 0),
                                   &SQ(cat)->version, err);
done:
  if (status != HL_OK) {
    hl_cat_sq_close(cat);
    return status;
  }
  *out = cat;
  return HL_OK;
}

bool hl_cat_sq_readonly(const hl_cat_t *cat) {
  return cat && SQ(cat)->readonly;
}

void hl_cat_sq_close(hl_cat_t *cat) {
  if (!cat) return;
  if (SQ(cat)->db && !sqlite3_get_autocommit(SQ(cat)->db))
    sqlite3_exec(SQ(cat)->db, "ROLLBACK", NULL, NULL, NULL);
  for (int id = 0; id < S_COUNT_; id++)
    sqlite3_finalize(SQ(cat)->stmts[id]);
  for (int i = 0; i < HL_CAT_OTHER_STMTS; i++)
    sqlite3_finalize(SQ(cat)->other[i]);
  sqlite3_close(SQ(cat)->db);
  hl_free(SQ(cat)->path);
  hl_free(SQ(cat));
}

int hl_cat_sq_schema_version(hl_cat_t *cat) {
  return SQ(cat)->version;
}

/* ------------------------------------------------------------------------
 * Shared pieces: key/value lists, existence checks
 * ------------------------------------------------------------------------ */

static hl_status_t check_kvs(const hl_kv_t *kvs, int n, const char *what, hl_error_t *err) {
  if (n < 0 || (n > 0 && !kvs))
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "invalid %s list", what);
  for (int i = 0; i < n; i++) {
    if (!kvs[i].key)
      return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "%s key is NULL", what);
    if (!kvs[i].value)
      return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED), "%s \"%s\" has a NULL value",
                        what, kvs[i].key);
  }
  return HL_OK;
}

/* Inserts N pairs for OWNER_ID with statement ID (owner, idx, key, value). */
static hl_status_t insert_kvs(hl_cat_t *cat, stmt_id_t id, int64_t owner_id, const hl_kv_t *kvs,
                              int n, hl_error_t *err) {
  if (n == 0) return HL_OK;
  sqlite3_stmt *st = prep(cat, id, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  for (int i = 0; status == HL_OK && i < n; i++) {
    if (!bind_i64(cat, st, 1, owner_id, err) || !bind_i64(cat, st, 2, i, err) ||
        !bind_text(cat, st, 3, kvs[i].key, err) || !bind_text(cat, st, 4, kvs[i].value, err))
      status = err->code;
    else
      status = run(cat, st, err);
    sqlite3_reset(st);
  }
  release(st);
  return status;
}

/* Reads the (key, value, count) rows of statement ID for OWNER_ID. */
static hl_status_t read_kvs(hl_cat_t *cat, stmt_id_t id, int64_t owner_id, rd_t *r, hl_kv_t **out,
                            int *n_out) {
  *out = NULL;
  *n_out = 0;
  sqlite3_stmt *st = prep(cat, id, r->err);
  if (!st) return r->status = r->err->code;
  if (bind_i64(cat, st, 1, owner_id, r->err)) {
    size_t cap = 0, n = 0;
    int row = 0;
    while (r->status == HL_OK && (row = next_row(cat, st, r->err)) == 1) {
      if (n == 0) *out = rd_alloc(r, cap = rd_count(r, st, 2), sizeof **out);
      if (r->status != HL_OK) break;
      if (n >= cap) {
        rd_too_many(r);
        break;
      }
      (*out)[n].key = rd_text(r, st, 0, 1);
      (*out)[n].value = rd_text(r, st, 1, 1);
      n++;
    }
    if (r->status == HL_OK && row < 0) r->status = r->err->code;
    *n_out = (int)n;
  } else {
    r->status = r->err->code;
  }
  release(st);
  return r->status;
}

/* Looks up database NAME (already lower-case): *ID, or 0 when missing. */
static hl_status_t find_db(hl_cat_t *cat, const char *name, int64_t *id, hl_error_t *err) {
  *id = 0;
  sqlite3_stmt *st = prep(cat, S_DB_ID, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  if (!bind_text(cat, st, 1, name, err)) {
    status = err->code;
  } else {
    int row = next_row(cat, st, err);
    if (row < 0) status = err->code;
    if (row == 1) *id = sqlite3_column_int64(st, 0);
  }
  release(st);
  return status;
}

static hl_status_t need_db(hl_cat_t *cat, const char *name, int64_t *id, hl_error_t *err) {
  hl_status_t status = find_db(cat, name, id, err);
  if (status == HL_OK && *id == 0)
    status = hl_err_set(err, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                        "database \"%s\" does not exist", name);
  return status;
}

/* Looks up table NAME (lower-case) in database DB_ID: *ID, or 0. */
static hl_status_t find_table(hl_cat_t *cat, int64_t db_id, const char *name, int64_t *id,
                              hl_error_t *err) {
  *id = 0;
  sqlite3_stmt *st = prep(cat, S_TBL_ID, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  if (!bind_i64(cat, st, 1, db_id, err) || !bind_text(cat, st, 2, name, err)) {
    status = err->code;
  } else {
    int row = next_row(cat, st, err);
    if (row < 0) status = err->code;
    if (row == 1) *id = sqlite3_column_int64(st, 0);
  }
  release(st);
  return status;
}

/* What partition functions need to know about table TBL_ID. */
typedef struct tbl_info {
  char *qname; /* "db.table", heap (hl_free), for messages */
  int n_keys;  /* number of partition keys */
} tbl_info_t;

/* Fills INFO for table TBL_ID; HL_NOTFOUND (42P01) when there is none. */
static hl_status_t table_info(hl_cat_t *cat, int64_t tbl_id, tbl_info_t *info, hl_error_t *err) {
  info->qname = NULL;
  info->n_keys = 0;
  sqlite3_stmt *st = prep(cat, S_TBL_INFO, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  int row = bind_i64(cat, st, 1, tbl_id, err) ? next_row(cat, st, err) : -1;
  if (row < 0) {
    status = err->code;
  } else if (row == 0) {
    status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE),
                        "table with id %lld does not exist", (long long)tbl_id);
  } else {
    const char *db = (const char *)sqlite3_column_text(st, 0);
    const char *name = (const char *)sqlite3_column_text(st, 1);
    hl_buf_t buf;
    hl_buf_init(&buf);
    hl_buf_printf(&buf, "%s.%s", db ? db : "", name ? name : "");
    info->qname = hl_buf_detach(&buf);
    info->n_keys = sqlite3_column_int(st, 2);
    if (!info->qname) status = hl_err_nomem(err);
  }
  release(st);
  return status;
}

/* ------------------------------------------------------------------------
 * Databases
 * ------------------------------------------------------------------------ */

hl_status_t hl_cat_sq_db_create(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  if (!db || !db->name || !*db->name) return misuse(err, "database name is empty");
  char *name = lower_dup(db->name);
  if (!name) return hl_err_nomem(err);
  hl_status_t status = HL_OK;
  if (!db->location || !*db->location) {
    status = hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                        "database \"%s\" has no location", name);
    goto out;
  }
  if ((status = check_kvs(db->params, db->n_params, "database property", err)) != HL_OK) goto out;
  if ((status = op_begin(cat, 1, err)) != HL_OK) goto out;

  int64_t id;
  sqlite3_stmt *st = NULL;
  if ((status = find_db(cat, name, &id, err)) != HL_OK) goto done;
  if (id != 0) {
    status = hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_DATABASE),
                        "database \"%s\" already exists", name);
    goto done;
  }
  if (!(st = prep(cat, S_DB_INSERT, err))) {
    status = err->code;
    goto done;
  }
  if (!bind_text(cat, st, 1, name, err) || !bind_text(cat, st, 2, db->comment, err) ||
      !bind_text(cat, st, 3, db->location, err) || !bind_text(cat, st, 4, db->owner, err) ||
      !bind_i64(cat, st, 5, (int64_t)time(NULL), err)) {
    status = err->code;
    goto done;
  }
  if ((status = run(cat, st, err)) != HL_OK) goto done;
  id = sqlite3_last_insert_rowid(SQ(cat)->db);
  release(st);
  st = NULL;
  status = insert_kvs(cat, S_DB_PARAM_INSERT, id, db->params, db->n_params, err);
done:
  release(st);
  status = op_end(cat, status, err);
out:
  hl_free(name);
  return status;
}

hl_status_t hl_cat_sq_db_update(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  if (!db || !db->name || !*db->name) return misuse(err, "database name is empty");
  if (!db->location || !*db->location) return misuse(err, "database has no location");
  char *name = lower_dup(db->name);
  if (!name) return hl_err_nomem(err);
  hl_status_t status = check_kvs(db->params, db->n_params, "database property", err);
  int64_t id = 0;
  sqlite3_stmt *st = NULL;
  if (status != HL_OK || (status = op_begin(cat, 1, err)) != HL_OK) goto out;
  if ((status = find_db(cat, name, &id, err)) != HL_OK) goto done;
  if (id == 0) {
    status = hl_err_set(err, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                        "database \"%s\" does not exist", name);
    goto done;
  }
  if (!(st = prep(cat, S_DB_UPDATE, err)) || !bind_i64(cat, st, 1, id, err) ||
      !bind_text(cat, st, 2, db->comment, err) || !bind_text(cat, st, 3, db->location, err) ||
      !bind_text(cat, st, 4, db->owner, err)) {
    status = err->code;
    goto done;
  }
  if ((status = run(cat, st, err)) != HL_OK) goto done;
  release(st);
  if (!(st = prep(cat, S_DB_PARAMS_DELETE, err)) || !bind_i64(cat, st, 1, id, err)) {
    status = err->code;
    goto done;
  }
  if ((status = run(cat, st, err)) != HL_OK) goto done;
  release(st);
  st = NULL;
  status = insert_kvs(cat, S_DB_PARAM_INSERT, id, db->params, db->n_params, err);
done:
  release(st);
  status = op_end(cat, status, err);
out:
  hl_free(name);
  return status;
}

hl_status_t hl_cat_sq_db_get(hl_cat_t *cat, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                             hl_error_t *err) {
  *out = NULL;
  if (!name || !arena) return misuse(err, "database name is missing");
  char *lname = lower_dup(name);
  if (!lname) return hl_err_nomem(err);
  rd_t r = {arena, err, HL_OK};
  hl_cat_db_t *db = NULL;
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) goto out;
  sqlite3_stmt *st = prep(cat, S_DB_GET, err);
  if (!st) {
    r.status = err->code;
    goto done;
  }
  int row = bind_text(cat, st, 1, lname, err) ? next_row(cat, st, err) : -1;
  if (row < 0) {
    r.status = err->code;
  } else if (row == 0) {
    r.status = hl_err_set(err, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                          "database \"%s\" does not exist", lname);
  } else if ((db = rd_alloc(&r, 1, sizeof *db)) != NULL) {
    db->id = sqlite3_column_int64(st, 0);
    db->name = rd_text(&r, st, 1, 1);
    db->comment = rd_text(&r, st, 2, 0);
    db->location = rd_text(&r, st, 3, 1);
    db->owner = rd_text(&r, st, 4, 0);
  }
  release(st);
  if (r.status == HL_OK) read_kvs(cat, S_DB_PARAMS, db->id, &r, &db->params, &db->n_params);
done:
  r.status = op_end(cat, r.status, err);
  if (r.status == HL_OK) *out = db;
out:
  hl_free(lname);
  return r.status;
}

/* Reads a (name, count) query into an arena array of names. */
static hl_status_t read_names(hl_cat_t *cat, sqlite3_stmt *st, rd_t *r, char ***names, size_t *n) {
  size_t cap = 0, count = 0;
  int row = 0;
  *names = NULL;
  while (r->status == HL_OK && (row = next_row(cat, st, r->err)) == 1) {
    if (count == 0) *names = rd_alloc(r, cap = rd_count(r, st, 1), sizeof **names);
    if (r->status != HL_OK) break;
    if (count >= cap) {
      rd_too_many(r);
      break;
    }
    (*names)[count++] = rd_text(r, st, 0, 1);
  }
  if (r->status == HL_OK && row < 0) r->status = r->err->code;
  *n = r->status == HL_OK ? count : 0;
  return r->status;
}

hl_status_t hl_cat_sq_db_list(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                              hl_error_t *err) {
  *names = NULL;
  *n = 0;
  if (!arena) return misuse(err, "arena is missing");
  rd_t r = {arena, err, HL_OK};
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) return r.status;
  sqlite3_stmt *st = prep(cat, S_DB_LIST, err);
  if (st) {
    read_names(cat, st, &r, names, n);
    release(st);
  } else {
    r.status = err->code;
  }
  r.status = op_end(cat, r.status, err);
  if (r.status != HL_OK) {
    *names = NULL;
    *n = 0;
  }
  return r.status;
}

hl_status_t hl_cat_sq_db_drop(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err) {
  if (!name) return misuse(err, "database name is missing");
  char *lname = lower_dup(name);
  if (!lname) return hl_err_nomem(err);
  hl_status_t status;
  if (strcmp(lname, "default") == 0) {
    status = hl_err_set(err, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                        "cannot drop the default database");
    goto out;
  }
  if ((status = op_begin(cat, 1, err)) != HL_OK) goto out;
  int64_t id;
  sqlite3_stmt *st = NULL;
  if ((status = need_db(cat, lname, &id, err)) != HL_OK) goto done;
  if (!cascade) {
    if (!(st = prep(cat, S_DB_HAS_TABLES, err))) {
      status = err->code;
      goto done;
    }
    int row = bind_i64(cat, st, 1, id, err) ? next_row(cat, st, err) : -1;
    if (row < 0) {
      status = err->code;
      goto done;
    }
    if (row == 1 && sqlite3_column_int(st, 0)) {
      status = hl_err_set(err, HL_CONSTRAINT, HL_SS(DEPENDENT_OBJECTS_STILL_EXIST),
                          "database \"%s\" is not empty", lname);
      goto done;
    }
    release(st);
  }
  /* ON DELETE CASCADE removes tables, partitions and all their rows. */
  if (!(st = prep(cat, S_DB_DELETE, err))) {
    status = err->code;
    goto done;
  }
  if (bind_i64(cat, st, 1, id, err)) status = run(cat, st, err);
done:
  release(st);
  status = op_end(cat, status, err);
out:
  hl_free(lname);
  return status;
}

/* ------------------------------------------------------------------------
 * Tables
 * ------------------------------------------------------------------------ */

static hl_status_t check_columns(const hl_cat_column_t *cols, int n, const char *what,
                                 hl_error_t *err) {
  if (n < 0 || (n > 0 && !cols))
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "invalid %s list", what);
  for (int i = 0; i < n; i++)
    if (!cols[i].name || !*cols[i].name || !cols[i].type || !*cols[i].type)
      return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "%s %d has no name or type",
                        what, i + 1);
  return HL_OK;
}

static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (ascii_lower(*a) != ascii_lower(*b)) return 0;
  return *a == *b;
}

/* Checks what the schema cannot: required fields, list shapes, and that
 * no name is used twice among columns and partition keys. */
static hl_status_t check_table(const hl_cat_table_t *t, hl_error_t *err) {
  if (!t || !t->name || !*t->name || !t->db_name || !*t->db_name)
    return misuse(err, "table name is empty");
  if (t->view) {
    if (!t->view_original_text || !t->view_expanded_text || t->n_part_keys > 0)
      return misuse(err, "a view needs its query text and has no partition keys");
  } else if (!t->location || !*t->location) {
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "table \"%s.%s\" has no location", t->db_name, t->name);
  }
  hl_status_t status;
  if ((status = check_columns(t->cols, t->n_cols, "column", err)) != HL_OK ||
      (status = check_columns(t->part_keys, t->n_part_keys, "partition key", err)) != HL_OK ||
      (status = check_kvs(t->params, t->n_params, "table property", err)) != HL_OK ||
      (status = check_kvs(t->serde_params, t->n_serde_params, "serde property", err)) != HL_OK)
    return status;
  if (t->n_bucket_cols < 0 || (t->n_bucket_cols > 0 && !t->bucket_cols) || t->n_sort_cols < 0 ||
      (t->n_sort_cols > 0 && !t->sort_cols) || t->num_buckets < -1 || t->num_buckets == 0)
    return misuse(err, "invalid bucketing specification");
  for (int i = 0; i < t->n_bucket_cols; i++)
    if (!t->bucket_cols[i]) return misuse(err, "bucket column name is NULL");
  for (int i = 0; i < t->n_sort_cols; i++)
    if (!t->sort_cols[i].name) return misuse(err, "sort column name is NULL");
  int n_all = t->n_cols + t->n_part_keys;
  for (int i = 0; i < n_all; i++) {
    const char *a = i < t->n_cols ? t->cols[i].name : t->part_keys[i - t->n_cols].name;
    for (int j = i + 1; j < n_all; j++) {
      const char *b = j < t->n_cols ? t->cols[j].name : t->part_keys[j - t->n_cols].name;
      if (same_name(a, b)) {
        char *lname = lower_dup(a);
        if (!lname) return hl_err_nomem(err);
        hl_err_set(err, HL_ERROR, HL_SS(DUPLICATE_COLUMN), "column \"%s\" specified more than once",
                   lname);
        hl_free(lname);
        return err->code;
      }
    }
  }
  return HL_OK;
}

static hl_status_t insert_columns(hl_cat_t *cat, stmt_id_t id, int64_t tbl_id,
                                  const hl_cat_column_t *cols, int n, hl_error_t *err) {
  if (n == 0) return HL_OK;
  sqlite3_stmt *st = prep(cat, id, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  for (int i = 0; status == HL_OK && i < n; i++) {
    if (!bind_i64(cat, st, 1, tbl_id, err) || !bind_i64(cat, st, 2, i, err) ||
        !bind_text(cat, st, 3, cols[i].name, err) || !bind_text(cat, st, 4, cols[i].type, err) ||
        !bind_text(cat, st, 5, cols[i].comment, err))
      status = err->code;
    else
      status = run(cat, st, err);
    sqlite3_reset(st);
  }
  release(st);
  return status;
}

/* Writes every child row of a table (the part that update replaces). */
static hl_status_t insert_table_children(hl_cat_t *cat, int64_t id, const hl_cat_table_t *t,
                                         hl_error_t *err) {
  hl_status_t status;
  if ((status = insert_kvs(cat, S_TBL_PARAM_INSERT, id, t->params, t->n_params, err)) != HL_OK ||
      (status = insert_kvs(cat, S_SERDE_PARAM_INSERT, id, t->serde_params, t->n_serde_params,
                           err)) != HL_OK ||
      (status = insert_columns(cat, S_COL_INSERT, id, t->cols, t->n_cols, err)) != HL_OK ||
      (status = insert_columns(cat, S_PKEY_INSERT, id, t->part_keys, t->n_part_keys, err)) != HL_OK)
    return status;
  sqlite3_stmt *st = NULL;
  if (t->n_bucket_cols > 0) {
    if (!(st = prep(cat, S_BUCKET_INSERT, err))) return err->code;
    for (int i = 0; status == HL_OK && i < t->n_bucket_cols; i++) {
      if (!bind_i64(cat, st, 1, id, err) || !bind_i64(cat, st, 2, i, err) ||
          !bind_text(cat, st, 3, t->bucket_cols[i], err))
        status = err->code;
      else
        status = run(cat, st, err);
      sqlite3_reset(st);
    }
    release(st);
  }
  if (status == HL_OK && t->n_sort_cols > 0) {
    if (!(st = prep(cat, S_SORT_INSERT, err))) return err->code;
    for (int i = 0; status == HL_OK && i < t->n_sort_cols; i++) {
      if (!bind_i64(cat, st, 1, id, err) || !bind_i64(cat, st, 2, i, err) ||
          !bind_text(cat, st, 3, t->sort_cols[i].name, err) ||
          !bind_i64(cat, st, 4, t->sort_cols[i].ascending ? 1 : 0, err))
        status = err->code;
      else
        status = run(cat, st, err);
      sqlite3_reset(st);
    }
    release(st);
  }
  return status;
}

/* Binds ?1..?10, ?12, ?13 of S_TBL_INSERT / S_TBL_UPDATE.  A view (schema
 * v4) is the row whose view_expanded_text is not NULL; type keeps v1's
 * CHECK, so a view is stored as MANAGED_TABLE with an empty location. */
static int bind_table_row(hl_cat_t *cat, sqlite3_stmt *st, int64_t db_id, const char *name,
                          const hl_cat_table_t *t, hl_error_t *err) {
  int64_t create_time = t->create_time > 0 ? t->create_time : (int64_t)time(NULL);
  return bind_i64(cat, st, 1, db_id, err) && bind_text(cat, st, 2, name, err) &&
         bind_text(cat, st, 3, t->external ? "EXTERNAL_TABLE" : "MANAGED_TABLE", err) &&
         bind_text(cat, st, 4, t->location ? t->location : "", err) &&
         bind_text(cat, st, 5, t->input_format, err) &&
         bind_text(cat, st, 6, t->output_format, err) && bind_text(cat, st, 7, t->serde_lib, err) &&
         bind_text(cat, st, 8, t->owner, err) && bind_i64(cat, st, 9, create_time, err) &&
         bind_i64(cat, st, 10, t->num_buckets, err) &&
         bind_text(cat, st, 12, t->view ? t->view_original_text : NULL, err) &&
         bind_text(cat, st, 13, t->view ? t->view_expanded_text : NULL, err);
}

hl_status_t hl_cat_sq_table_create(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  hl_status_t status = check_table(table, err);
  if (status != HL_OK) return status;
  char *db_name = lower_dup(table->db_name), *name = lower_dup(table->name);
  sqlite3_stmt *st = NULL;
  if (!db_name || !name) {
    status = hl_err_nomem(err);
    goto out;
  }
  if ((status = op_begin(cat, 1, err)) != HL_OK) goto out;
  int64_t db_id, tbl_id;
  if ((status = need_db(cat, db_name, &db_id, err)) != HL_OK) goto done;
  if ((status = find_table(cat, db_id, name, &tbl_id, err)) != HL_OK) goto done;
  if (tbl_id != 0) {
    status = hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_TABLE),
                        "table \"%s.%s\" already exists", db_name, name);
    goto done;
  }
  if (!(st = prep(cat, S_TBL_INSERT, err)) || !bind_table_row(cat, st, db_id, name, table, err)) {
    status = err->code;
    goto done;
  }
  if ((status = run(cat, st, err)) != HL_OK) goto done;
  tbl_id = sqlite3_last_insert_rowid(SQ(cat)->db);
  release(st);
  st = NULL;
  status = insert_table_children(cat, tbl_id, table, err);
done:
  release(st);
  status = op_end(cat, status, err);
out:
  hl_free(db_name);
  hl_free(name);
  return status;
}

static hl_status_t read_columns(hl_cat_t *cat, stmt_id_t id, int64_t tbl_id, rd_t *r,
                                hl_cat_column_t **out, int *n_out) {
  *out = NULL;
  *n_out = 0;
  sqlite3_stmt *st = prep(cat, id, r->err);
  if (!st) return r->status = r->err->code;
  int row = bind_i64(cat, st, 1, tbl_id, r->err) ? 1 : -1;
  size_t cap = 0, n = 0;
  while (r->status == HL_OK && row >= 0 && (row = next_row(cat, st, r->err)) == 1) {
    if (n == 0) *out = rd_alloc(r, cap = rd_count(r, st, 3), sizeof **out);
    if (r->status != HL_OK) break;
    if (n >= cap) {
      rd_too_many(r);
      break;
    }
    (*out)[n].name = rd_text(r, st, 0, 1);
    (*out)[n].type = rd_text(r, st, 1, 1);
    (*out)[n].comment = rd_text(r, st, 2, 0);
    n++;
  }
  if (r->status == HL_OK && row < 0) r->status = r->err->code;
  *n_out = (int)n;
  release(st);
  return r->status;
}

static hl_status_t read_buckets_and_sorts(hl_cat_t *cat, int64_t tbl_id, rd_t *r,
                                          hl_cat_table_t *t) {
  sqlite3_stmt *st = prep(cat, S_BUCKETS, r->err);
  if (!st) return r->status = r->err->code;
  size_t n = 0;
  if (bind_i64(cat, st, 1, tbl_id, r->err))
    read_names(cat, st, r, &t->bucket_cols, &n);
  else
    r->status = r->err->code;
  t->n_bucket_cols = (int)n;
  release(st);
  if (r->status != HL_OK) return r->status;

  if (!(st = prep(cat, S_SORTS, r->err))) return r->status = r->err->code;
  int row = bind_i64(cat, st, 1, tbl_id, r->err) ? 1 : -1;
  size_t cap = 0;
  n = 0;
  while (r->status == HL_OK && row >= 0 && (row = next_row(cat, st, r->err)) == 1) {
    if (n == 0) t->sort_cols = rd_alloc(r, cap = rd_count(r, st, 2), sizeof *t->sort_cols);
    if (r->status != HL_OK) break;
    if (n >= cap) {
      rd_too_many(r);
      break;
    }
    t->sort_cols[n].name = rd_text(r, st, 0, 1);
    t->sort_cols[n].ascending = sqlite3_column_int(st, 1) != 0;
    n++;
  }
  if (r->status == HL_OK && row < 0) r->status = r->err->code;
  t->n_sort_cols = (int)n;
  release(st);
  return r->status;
}

hl_status_t hl_cat_sq_table_get(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                                hl_cat_table_t **out, hl_error_t *err) {
  *out = NULL;
  if (!db || !name || !arena) return misuse(err, "table name is missing");
  char *db_name = lower_dup(db), *lname = lower_dup(name);
  rd_t r = {arena, err, HL_OK};
  hl_cat_table_t *t = NULL;
  if (!db_name || !lname) {
    r.status = hl_err_nomem(err);
    goto out;
  }
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) goto out;
  sqlite3_stmt *st = prep(cat, S_TBL_GET, err);
  if (!st) {
    r.status = err->code;
    goto done;
  }
  int row = (bind_text(cat, st, 1, db_name, err) && bind_text(cat, st, 2, lname, err))
                ? next_row(cat, st, err)
                : -1;
  if (row < 0) {
    r.status = err->code;
  } else if (row == 1 && (t = rd_alloc(&r, 1, sizeof *t)) != NULL) {
    t->id = sqlite3_column_int64(st, 0);
    t->db_name = rd_text(&r, st, 1, 1);
    t->name = rd_text(&r, st, 2, 1);
    const char *type = (const char *)sqlite3_column_text(st, 3);
    t->external = type && strcmp(type, "EXTERNAL_TABLE") == 0;
    t->location = rd_text(&r, st, 4, 1);
    t->input_format = rd_text(&r, st, 5, 0);
    t->output_format = rd_text(&r, st, 6, 0);
    t->serde_lib = rd_text(&r, st, 7, 0);
    t->owner = rd_text(&r, st, 8, 0);
    t->create_time = sqlite3_column_int64(st, 9);
    t->num_buckets = sqlite3_column_int(st, 10);
    t->view_original_text = rd_text(&r, st, 11, 0);
    t->view_expanded_text = rd_text(&r, st, 12, 0);
    t->view = t->view_expanded_text != NULL;
  }
  release(st);
  if (row == 0) {
    /* Say which part of the name is missing. */
    int64_t db_id;
    r.status = need_db(cat, db_name, &db_id, err);
    if (r.status == HL_OK)
      r.status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE),
                            "table \"%s.%s\" does not exist", db_name, lname);
  }
  if (r.status == HL_OK) {
    read_kvs(cat, S_TBL_PARAMS, t->id, &r, &t->params, &t->n_params);
    if (r.status == HL_OK)
      read_kvs(cat, S_SERDE_PARAMS, t->id, &r, &t->serde_params, &t->n_serde_params);
    if (r.status == HL_OK) read_columns(cat, S_COLS, t->id, &r, &t->cols, &t->n_cols);
    if (r.status == HL_OK) read_columns(cat, S_PKEYS, t->id, &r, &t->part_keys, &t->n_part_keys);
    if (r.status == HL_OK) read_buckets_and_sorts(cat, t->id, &r, t);
  }
done:
  r.status = op_end(cat, r.status, err);
  if (r.status == HL_OK) *out = t;
out:
  hl_free(db_name);
  hl_free(lname);
  return r.status;
}

hl_status_t hl_cat_sq_table_list(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                                 size_t *n, hl_error_t *err) {
  *names = NULL;
  *n = 0;
  if (!db || !arena) return misuse(err, "database name is missing");
  char *db_name = lower_dup(db);
  if (!db_name) return hl_err_nomem(err);
  rd_t r = {arena, err, HL_OK};
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) goto out;
  int64_t db_id;
  if ((r.status = need_db(cat, db_name, &db_id, err)) == HL_OK) {
    sqlite3_stmt *st = prep(cat, S_TBL_LIST, err);
    if (!st || !bind_i64(cat, st, 1, db_id, err))
      r.status = err->code;
    else
      read_names(cat, st, &r, names, n);
    release(st);
  }
  r.status = op_end(cat, r.status, err);
  if (r.status != HL_OK) {
    *names = NULL;
    *n = 0;
  }
out:
  hl_free(db_name);
  return r.status;
}

/* Partition keys may change type or comment, not count or names: the
 * stored partitions' values and directory names depend on them. */
static hl_status_t check_same_keys(hl_cat_t *cat, const hl_cat_table_t *t, const char *qname,
                                   hl_error_t *err) {
  sqlite3_stmt *st = prep(cat, S_PKEYS, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  int row = bind_i64(cat, st, 1, t->id, err) ? 1 : -1, n = 0, same = 1;
  while (row >= 0 && (row = next_row(cat, st, err)) == 1) {
    const char *stored = (const char *)sqlite3_column_text(st, 0);
    if (n >= t->n_part_keys || !stored || !same_name(t->part_keys[n].name, stored)) same = 0;
    n++;
  }
  if (row < 0)
    status = err->code;
  else if (!same || n != t->n_part_keys)
    status = hl_err_set(err, HL_ERROR, HL_SS(FEATURE_NOT_SUPPORTED),
                        "partition keys of table \"%s\" cannot be changed", qname);
  release(st);
  return status;
}

static hl_status_t delete_children(hl_cat_t *cat, const stmt_id_t *ids, int n_ids, int64_t owner,
                                   hl_error_t *err) {
  hl_status_t status = HL_OK;
  for (int i = 0; status == HL_OK && i < n_ids; i++) {
    sqlite3_stmt *st = prep(cat, ids[i], err);
    if (!st) return err->code;
    status = bind_i64(cat, st, 1, owner, err) ? run(cat, st, err) : err->code;
    release(st);
  }
  return status;
}

hl_status_t hl_cat_sq_table_update(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  hl_status_t status = check_table(table, err);
  if (status != HL_OK) return status;
  char *db_name = lower_dup(table->db_name), *name = lower_dup(table->name);
  tbl_info_t info = {NULL, 0};
  sqlite3_stmt *st = NULL;
  bool sd_changed = false; /* the table's descriptor changes (cat_part_sd.c) */
  if (!db_name || !name) {
    status = hl_err_nomem(err);
    goto out;
  }
  if ((status = op_begin(cat, 1, err)) != HL_OK) goto out;
  int64_t db_id, other_id;
  if ((status = table_info(cat, table->id, &info, err)) != HL_OK ||
      (status = need_db(cat, db_name, &db_id, err)) != HL_OK ||
      (status = find_table(cat, db_id, name, &other_id, err)) != HL_OK)
    goto done;
  if (other_id != 0 && other_id != table->id) {
    status = hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_TABLE),
                        "table \"%s.%s\" already exists", db_name, name);
    goto done;
  }
  if ((status = check_same_keys(cat, table, info.qname, err)) != HL_OK ||
      (status = hl_cat_part_sd_detach(cat, table, &sd_changed, err)) != HL_OK)
    goto done;
  if (!(st = prep(cat, S_TBL_UPDATE, err)) || !bind_table_row(cat, st, db_id, name, table, err) ||
      !bind_i64(cat, st, 11, table->id, err)) {
    status = err->code;
    goto done;
  }
  if ((status = run(cat, st, err)) != HL_OK) goto done;
  release(st);
  st = NULL;
  static const stmt_id_t children[] = {S_TBL_PARAM_DELETE, S_SERDE_PARAM_DELETE, S_COL_DELETE,
                                       S_PKEY_DELETE,      S_BUCKET_DELETE,      S_SORT_DELETE};
  status =
      delete_children(cat, children, (int)(sizeof children / sizeof children[0]), table->id, err);
  if (status == HL_OK) status = insert_table_children(cat, table->id, table, err);
  if (status == HL_OK && sd_changed) status = hl_cat_part_sd_prune(cat, table->id, err);
done:
  release(st);
  status = op_end(cat, status, err);
out:
  hl_free(info.qname);
  hl_free(db_name);
  hl_free(name);
  return status;
}

hl_status_t hl_cat_sq_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err) {
  hl_status_t status = op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = prep(cat, S_TBL_DELETE, err);
  if (!st || !bind_i64(cat, st, 1, table_id, err))
    status = err->code;
  else if ((status = run(cat, st, err)) == HL_OK && sqlite3_changes(SQ(cat)->db) == 0)
    status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE),
                        "table with id %lld does not exist", (long long)table_id);
  release(st);
  return op_end(cat, status, err);
}

/* ------------------------------------------------------------------------
 * Partitions
 * ------------------------------------------------------------------------ */

/* The values tuple as one blob, for the UNIQUE (tbl_id, vals) index: per
 * value 0x00 for NULL, or 0x01, the bytes, 0x00.  Values are C strings
 * (no NUL inside), so the encoding is unambiguous.  Heap; caller frees. */
static hl_status_t encode_values(char *const *values, int n, unsigned char **out, size_t *len,
                                 hl_error_t *err) {
  size_t total = 0;
  for (int i = 0; i < n; i++)
    total += values[i] ? strlen(values[i]) + 2 : 1;
  unsigned char *buf = hl_malloc(total);
  if (!buf) return hl_err_nomem(err);
  size_t pos = 0;
  for (int i = 0; i < n; i++) {
    if (!values[i]) {
      buf[pos++] = 0;
      continue;
    }
    size_t vlen = strlen(values[i]);
    buf[pos++] = 1;
    memcpy(buf + pos, values[i], vlen);
    pos += vlen;
    buf[pos++] = 0;
  }
  *out = buf;
  *len = total;
  return HL_OK;
}

/* Decodes column COL (a vals blob) into arena values; a malformed blob is
 * reported as corruption, never read past its end. */
static void rd_values(rd_t *r, sqlite3_stmt *st, int col, char ***values, int *n_values) {
  *values = NULL;
  *n_values = 0;
  if (r->status != HL_OK) return;
  const unsigned char *blob = sqlite3_column_blob(st, col);
  size_t len = (size_t)sqlite3_column_bytes(st, col);
  if (!blob && sqlite3_errcode(sqlite3_db_handle(st)) == SQLITE_NOMEM) {
    r->status = hl_err_nomem(r->err);
    return;
  }
  int n = 0;
  size_t pos = 0;
  /* First pass: validate and count. */
  while (pos < len) {
    if (blob[pos] == 0) {
      pos++;
    } else if (blob[pos] == 1) {
      const unsigned char *end = memchr(blob + pos + 1, 0, len - pos - 1);
      if (!end) break;
      pos = (size_t)(end - blob) + 1;
    } else {
      break;
    }
    n++;
  }
  if (pos != len || n == 0) {
    r->status = hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                           "metastore is corrupt: malformed partition values");
    return;
  }
  char **out = rd_alloc(r, (size_t)n, sizeof *out);
  if (!out) return;
  pos = 0;
  for (int i = 0; i < n; i++) {
    if (blob[pos++] == 0) continue; /* NULL: the default partition */
    size_t vlen = strlen((const char *)blob + pos);
    out[i] = hl_arena_strndup(r->arena, (const char *)blob + pos, vlen);
    if (!out[i]) {
      r->status = hl_err_nomem(r->err);
      return;
    }
    pos += vlen + 1;
  }
  *values = out;
  *n_values = n;
}

/* Checks a partition's own fields and that its value count fits the
 * table's keys (INFO). */
static hl_status_t check_partition(const hl_cat_partition_t *p, const tbl_info_t *info,
                                   hl_error_t *err) {
  if (!p->name || !*p->name) return misuse(err, "partition name is empty");
  if (!p->location || !*p->location)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "partition \"%s\" has no location", p->name);
  if (info->n_keys == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE), "table \"%s\" is not partitioned",
                      info->qname);
  if (p->n_values != info->n_keys || !p->values)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "partition \"%s\" has %d values but table \"%s\" has %d partition keys",
                      p->name, p->n_values, info->qname, info->n_keys);
  return check_kvs(p->params, p->n_params, "partition property", err);
}

/* Writes the per-key value rows and the parameters of partition PART_ID. */
static hl_status_t insert_part_children(hl_cat_t *cat, int64_t part_id, const hl_cat_partition_t *p,
                                        int64_t tbl_id, hl_error_t *err) {
  sqlite3_stmt *st = prep(cat, S_PVAL_INSERT, err);
  if (!st) return err->code;
  hl_status_t status = HL_OK;
  for (int i = 0; status == HL_OK && i < p->n_values; i++) {
    if (!bind_i64(cat, st, 1, part_id, err) || !bind_i64(cat, st, 2, i, err) ||
        !bind_i64(cat, st, 3, tbl_id, err) || !bind_text(cat, st, 4, p->values[i], err))
      status = err->code;
    else
      status = run(cat, st, err);
    sqlite3_reset(st);
  }
  release(st);
  if (status == HL_OK)
    status = insert_kvs(cat, S_PPARAM_INSERT, part_id, p->params, p->n_params, err);
  return status;
}

/* Runs an INSERT/UPDATE of a partition row, turning a UNIQUE violation on
 * (tbl_id, name) or (tbl_id, vals) into 42710. */
static hl_status_t run_part_write(hl_cat_t *cat, sqlite3_stmt *st, const char *name,
                                  const char *qname, hl_error_t *err) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_DONE) return HL_OK;
  if (rc == SQLITE_CONSTRAINT_UNIQUE)
    return hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                      "partition \"%s\" of table \"%s\" already exists", name, qname);
  return sqerr(cat, rc, err);
}

/* Whether PART's first value is a text date (kept in n_tdates). */
static bool first_is_tdate(const hl_cat_partition_t *part) {
  const char *v = part->n_values > 0 ? part->values[0] : NULL;
  return v && hl_tdate_parse(v, strlen(v), NULL, NULL);
}

/* Inserts PART (already checked against INFO) with its children; the
 * caller holds the unit of work.  Shared by add and add_many. */
static hl_status_t insert_partition(hl_cat_t *cat, const hl_cat_partition_t *part,
                                    const tbl_info_t *info, int64_t now, hl_error_t *err) {
  unsigned char *vals = NULL;
  size_t vals_len = 0;
  sqlite3_stmt *st = NULL;
  hl_status_t status;
  if ((status = check_partition(part, info, err)) != HL_OK ||
      (status = encode_values(part->values, part->n_values, &vals, &vals_len, err)) != HL_OK)
    goto done;
  if (!(st = prep(cat, S_PART_INSERT, err))) {
    status = err->code;
    goto done;
  }
  int64_t create_time = part->create_time > 0 ? part->create_time : now;
  int rc = sqlite3_bind_blob(st, 3, vals, (int)vals_len, SQLITE_STATIC);
  if (rc != SQLITE_OK) {
    status = sqerr(cat, rc, err);
    goto done;
  }
  if (!bind_i64(cat, st, 1, part->table_id, err) || !bind_text(cat, st, 2, part->name, err) ||
      !bind_text(cat, st, 4, part->location, err) || !bind_i64(cat, st, 5, create_time, err)) {
    status = err->code;
    goto done;
  }
  if ((status = run_part_write(cat, st, part->name, info->qname, err)) != HL_OK) goto done;
  int64_t part_id = sqlite3_last_insert_rowid(SQ(cat)->db);
  release(st);
  st = NULL;
  status = insert_part_children(cat, part_id, part, part->table_id, err);
  /* without a descriptor of its own the partition has the table's */
  if (status == HL_OK && part->sd)
    status = hl_cat_part_sd_write(cat, part->table_id, part_id, part->sd, err);
done:
  release(st);
  hl_free(vals);
  return status;
}

hl_status_t hl_cat_sq_partition_add(hl_cat_t *cat, const hl_cat_partition_t *part,
                                    hl_error_t *err) {
  if (!part) return misuse(err, "partition is missing");
  return hl_cat_sq_partition_add_many(cat, part, 1, err);
}

/* A table without its kept count: its insert made the row (schema v9's
 * trigger), so the file was damaged or written by something else. */
static hl_status_t no_count(const tbl_info_t *info, hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "metastore has no partition count for table %s", info->qname);
}

/* One unit of work (one SAVEPOINT inside the caller's transaction) and one
 * table lookup for the whole batch; the cached INSERT statements are
 * reused.  Per-call savepoints made each added partition copy its pages
 * into SQLite's statement journal again, which dominated MSCK REPAIR. */
#define ADD_MANY_BIG      4096
#define ADD_MANY_CACHE_KB "32768"

hl_status_t hl_cat_sq_partition_add_many(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                         hl_error_t *err) {
  if (n == 0) return HL_OK;
  if (!parts) return misuse(err, "partitions are missing");
  for (size_t i = 1; i < n; i++)
    if (parts[i].table_id != parts[0].table_id)
      return misuse(err, "partitions of one batch belong to different tables");
  hl_status_t status = op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  tbl_info_t info = {NULL, 0};
  int64_t now = (int64_t)time(NULL);
  status = table_info(cat, parts[0].table_id, &info, err);
  /* A big batch (MSCK of a million directories) updates five indexes of
   * the table's size: with SQLite's default 2 MB page cache most of the
   * time went to re-reading pages from the WAL.  The connection keeps a
   * bounded larger cache until the transaction ends (shrinking it
   * between the batches of one repair would drop the pages the next
   * batch needs); cache_restore gives it back. */
  if (n >= ADD_MANY_BIG && !SQ(cat)->big_cache) {
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(SQ(cat)->db, "PRAGMA cache_size", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW) {
      SQ(cat)->cache_before = sqlite3_column_int(q, 0);
      SQ(cat)->big_cache = sqlite3_exec(SQ(cat)->db, "PRAGMA cache_size = -" ADD_MANY_CACHE_KB,
                                        NULL, NULL, NULL) == SQLITE_OK;
    }
    sqlite3_finalize(q);
  }
  size_t n_tdates = 0;
  for (size_t i = 0; status == HL_OK && i < n; i++) {
    status = insert_partition(cat, &parts[i], &info, now, err);
    n_tdates += first_is_tdate(&parts[i]);
  }
  /* the kept counts, once for the batch */
  sqlite3_stmt *st = status == HL_OK ? prep(cat, S_PART_COUNT_ADD, err) : NULL;
  if (status == HL_OK &&
      (!st || !bind_i64(cat, st, 1, parts[0].table_id, err) ||
       !bind_i64(cat, st, 2, (int64_t)n, err) || !bind_i64(cat, st, 3, (int64_t)n_tdates, err)))
    status = err->code;
  else if (status == HL_OK && (status = run(cat, st, err)) == HL_OK &&
           sqlite3_changes(SQ(cat)->db) != 1)
    status = no_count(&info, err);
  release(st);
  hl_free(info.qname);
  return op_end(cat, status, err);
}

/* Reads the rows (id, name, vals, location, create_time) of a partition
 * query into P (without parameters). */
static void rd_partition(rd_t *r, sqlite3_stmt *st, int64_t tbl_id, hl_cat_partition_t *p) {
  p->id = sqlite3_column_int64(st, 0);
  p->table_id = tbl_id;
  p->name = rd_text(r, st, 1, 1);
  rd_values(r, st, 2, &p->values, &p->n_values);
  p->location = rd_text(r, st, 3, 1);
  p->create_time = sqlite3_column_int64(st, 4);
}

/* "('a', NULL)" for messages, each value cut to a sane length. */
static char *format_values(char *const *values, int n) {
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_buf_putc(&buf, '(');
  for (int i = 0; i < n; i++) {
    if (i) hl_buf_puts(&buf, ", ");
    if (values[i])
      hl_buf_printf(&buf, "'%.64s%s'", values[i], strlen(values[i]) > 64 ? "..." : "");
    else
      hl_buf_puts(&buf, "NULL");
  }
  hl_buf_putc(&buf, ')');
  return hl_buf_detach(&buf);
}

hl_status_t hl_cat_sq_partition_get(hl_cat_t *cat, int64_t table_id, char *const *values,
                                    int n_values, hl_arena_t *arena, hl_cat_partition_t **out,
                                    hl_error_t *err) {
  *out = NULL;
  if (!arena || n_values < 0 || (n_values > 0 && !values))
    return misuse(err, "invalid partition values");
  rd_t r = {arena, err, HL_OK};
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) return r.status;
  tbl_info_t info = {NULL, 0};
  unsigned char *vals = NULL;
  size_t vals_len = 0;
  sqlite3_stmt *st = NULL;
  hl_cat_partition_t *p = NULL;
  if ((r.status = table_info(cat, table_id, &info, err)) != HL_OK) goto done;
  if (n_values != info.n_keys || n_values == 0) {
    r.status = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                          "%d partition values given but table \"%s\" has %d partition keys",
                          n_values, info.qname, info.n_keys);
    goto done;
  }
  if ((r.status = encode_values(values, n_values, &vals, &vals_len, err)) != HL_OK) goto done;
  if (!(st = prep(cat, S_PART_GET, err))) {
    r.status = err->code;
    goto done;
  }
  int rc = sqlite3_bind_blob(st, 2, vals, (int)vals_len, SQLITE_STATIC);
  int row = (rc == SQLITE_OK && bind_i64(cat, st, 1, table_id, err)) ? next_row(cat, st, err) : -1;
  if (rc != SQLITE_OK) {
    r.status = sqerr(cat, rc, err);
  } else if (row < 0) {
    r.status = err->code;
  } else if (row == 0) {
    char *shown = format_values(values, n_values);
    r.status = shown ? hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                                  "partition %s of table \"%s\" does not exist", shown, info.qname)
                     : hl_err_nomem(err);
    hl_free(shown);
  } else if ((p = rd_alloc(&r, 1, sizeof *p)) != NULL) {
    rd_partition(&r, st, table_id, p);
  }
  release(st);
  st = NULL;
  if (r.status == HL_OK) read_kvs(cat, S_PPARAMS, p->id, &r, &p->params, &p->n_params);
  if (r.status == HL_OK) r.status = hl_cat_part_sd_read(cat, table_id, p->id, p, 1, arena, err);
done:
  release(st);
  hl_free(vals);
  hl_free(info.qname);
  r.status = op_end(cat, r.status, err);
  if (r.status == HL_OK) *out = p;
  return r.status;
}

/* Listing is three statements whatever the partition count: the counts,
 * the partitions in name order, and all their parameters in the same order
 * (so each partition's parameters are one contiguous slice of KVS); then
 * the storage descriptors (cat_part_sd.c, five more). */
static hl_status_t list_partitions(hl_cat_t *cat, int64_t table_id, bool full, hl_arena_t *arena,
                                   hl_cat_partition_t **out, size_t *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  if (!arena) return misuse(err, "arena is missing");
  rd_t r = {arena, err, HL_OK};
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) return r.status;
  tbl_info_t info = {NULL, 0};
  hl_cat_partition_t *parts = NULL;
  hl_kv_t *kvs = NULL;
  size_t n_parts = 0, n_kvs = 0, count = 0;
  sqlite3_stmt *st = NULL;
  int row = 0;
  if ((r.status = table_info(cat, table_id, &info, err)) != HL_OK) goto done;

  if (!(st = prep(cat, S_PART_COUNTS, err)) || !bind_i64(cat, st, 1, table_id, err) ||
      (row = next_row(cat, st, err)) < 0) {
    r.status = err->code;
    goto done;
  }
  if (row == 1) {
    n_parts = rd_count(&r, st, 0);
    n_kvs = rd_count(&r, st, 1);
  }
  release(st);
  st = NULL;
  if (r.status != HL_OK || n_parts == 0) goto done;
  parts = rd_alloc(&r, n_parts, sizeof *parts);
  if (n_kvs) kvs = rd_alloc(&r, n_kvs, sizeof *kvs);
  if (r.status != HL_OK) goto done;

  if (!(st = prep(cat, S_PART_LIST, err)) || !bind_i64(cat, st, 1, table_id, err)) {
    r.status = err->code;
    goto done;
  }
  while (r.status == HL_OK && (row = next_row(cat, st, err)) == 1) {
    if (count >= n_parts) {
      rd_too_many(&r);
      break;
    }
    rd_partition(&r, st, table_id, &parts[count++]);
  }
  if (r.status == HL_OK && row < 0) r.status = err->code;
  if (r.status == HL_OK && count != n_parts) rd_too_many(&r);
  release(st);
  st = NULL;
  if (r.status != HL_OK || n_kvs == 0 || !full) goto done;

  if (!(st = prep(cat, S_PART_LIST_PARAMS, err)) || !bind_i64(cat, st, 1, table_id, err)) {
    r.status = err->code;
    goto done;
  }
  size_t part_idx = 0, kv_idx = 0;
  while (r.status == HL_OK && (row = next_row(cat, st, err)) == 1) {
    int64_t part_id = sqlite3_column_int64(st, 0);
    while (part_idx < n_parts && parts[part_idx].id != part_id)
      part_idx++;
    if (part_idx == n_parts || kv_idx >= n_kvs) {
      rd_too_many(&r);
      break;
    }
    hl_cat_partition_t *p = &parts[part_idx];
    if (p->n_params == 0) p->params = &kvs[kv_idx];
    kvs[kv_idx].key = rd_text(&r, st, 1, 1);
    kvs[kv_idx].value = rd_text(&r, st, 2, 1);
    kv_idx++;
    p->n_params++;
  }
  if (r.status == HL_OK && row < 0) r.status = err->code;
done:
  release(st);
  if (r.status == HL_OK && count > 0 && full)
    r.status = hl_cat_part_sd_read(cat, table_id, 0, parts, count, arena, err);
  hl_free(info.qname);
  r.status = op_end(cat, r.status, err);
  if (r.status == HL_OK) {
    *out = parts;
    *n = count;
  }
  return r.status;
}

hl_status_t hl_cat_sq_partition_list(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena,
                                     hl_cat_partition_t **out, size_t *n, hl_error_t *err) {
  return list_partitions(cat, table_id, true, arena, out, n, err);
}

/* The partitions whose key K equals EQ[K] for every K with EQ[K] set,
 * through the value index (part_values_by_value): names and values only. */
static hl_status_t names_where(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                               hl_arena_t *arena, hl_cat_partition_t **out, size_t *n, bool *any,
                               hl_error_t *err) {
  rd_t r = {arena, err, HL_OK};
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) return r.status;
  tbl_info_t info = {NULL, 0};
  hl_buf_t sql;
  hl_buf_init(&sql);
  sqlite3_stmt *st = NULL;
  hl_cat_partition_t *parts = NULL;
  size_t count = 0, cap = 0;
  if ((r.status = table_info(cat, table_id, &info, err)) != HL_OK) goto done;
  for (int k = 0; k < info.n_keys; k++)
    *any = *any || eq[k];
  if (!*any) goto done; /* the caller lists everything */
  /* Driven by the first pinned key's index entries (CROSS JOIN keeps that
   * order: left to itself SQLite walks every partition of the table). */
  int first = -1;
  for (int k = 0; k < info.n_keys && first < 0; k++)
    if (eq[k]) first = k;
  hl_buf_printf(&sql,
                "SELECT p.id, p.name, p.vals, p.location, p.create_time FROM part_values v "
                "CROSS JOIN partitions p ON p.id = v.part_id WHERE v.tbl_id = ?1 AND v.idx = %d "
                "AND v.value = ?%d",
                first, first + 2);
  for (int k = first + 1; k < info.n_keys; k++)
    if (eq[k])
      hl_buf_printf(&sql,
                    " AND p.id IN (SELECT part_id FROM part_values WHERE tbl_id = ?1 AND idx = %d "
                    "AND value = ?%d)",
                    k, k + 2);
  hl_buf_puts(&sql, " ORDER BY p.name");
  if (sql.oom) {
    r.status = hl_err_nomem(err);
    goto done;
  }
  int rc = sqlite3_prepare_v2(SQ(cat)->db, hl_buf_cstr(&sql), -1, &st, NULL);
  if (rc != SQLITE_OK) {
    r.status = sqerr(cat, rc, err);
    goto done;
  }
  if (!bind_i64(cat, st, 1, table_id, err)) {
    r.status = err->code;
    goto done;
  }
  for (int k = 0; k < info.n_keys; k++)
    if (eq[k] && !bind_text(cat, st, k + 2, eq[k], err)) {
      r.status = err->code;
      goto done;
    }
  int row;
  while (r.status == HL_OK && (row = next_row(cat, st, err)) == 1) {
    if (count == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      hl_cat_partition_t *np =
          hl_arena_realloc(arena, parts, cap * sizeof *parts, ncap * sizeof *parts);
      if (!np) {
        r.status = hl_err_nomem(err);
        break;
      }
      parts = np;
      cap = ncap;
    }
    memset(&parts[count], 0, sizeof parts[count]);
    rd_partition(&r, st, table_id, &parts[count++]);
  }
  if (r.status == HL_OK && row < 0) r.status = err->code;
done:
  sqlite3_finalize(st);
  hl_buf_fini(&sql);
  hl_free(info.qname);
  r.status = op_end(cat, r.status, err);
  if (r.status == HL_OK) {
    *out = parts;
    *n = count;
  }
  return r.status;
}

/* Binds TEXT as the next parameter (?2 on; ?1 is the table id) and
 * returns its number. */
static int arg_add(const char **args, int *n_args, const char *text) {
  args[*n_args] = text;
  return ++*n_args + 1;
}

static int n_alt_of(const hl_cat_part_filter_t *f, int k) {
  return f->eq && f->eq[k] && f->alt && f->alt[k] && f->n_alt ? f->n_alt[k] : 0;
}

/* Appends to SQL FILTER's bounds on key K over value column COL. */
static bool bound_cond(hl_buf_t *sql, const hl_cat_part_filter_t *f, int k, const char *col,
                       const char **args, int *n_args) {
  const char *lo = f->lo ? f->lo[k] : NULL, *hi = f->hi ? f->hi[k] : NULL;
  if (lo) hl_buf_printf(sql, " AND %s >= ?%d", col, arg_add(args, n_args, lo));
  if (hi) hl_buf_printf(sql, " AND %s <= ?%d", col, arg_add(args, n_args, hi));
  return lo || hi;
}

/* Appends to SQL the condition of FILTER on key K over value column COL
 * ("w.value"), binding texts as ?N from *N_ARGS on (ARGS gets them): the
 * value pinned or in one of its alternative ranges, and the bounds. */
static bool key_cond(hl_buf_t *sql, const hl_cat_part_filter_t *f, int k, const char *col,
                     const char **args, int *n_args) {
  bool any = false;
  if (f->eq && f->eq[k]) {
    hl_buf_printf(sql, " AND (%s = ?%d", col, arg_add(args, n_args, f->eq[k]));
    for (int a = 0; a < n_alt_of(f, k); a++) {
      int lo = arg_add(args, n_args, f->alt[k][a].lo);
      int hi = arg_add(args, n_args, f->alt[k][a].hi);
      hl_buf_printf(sql, " OR (%s >= ?%d AND %s < ?%d)", col, lo, col, hi);
    }
    hl_buf_putc(sql, ')');
    any = true;
  }
  return bound_cond(sql, f, k, col, args, n_args) || any;
}

/* The driving key K with alternative ranges: one index probe per range,
 * as a UNION (an OR over one index column is not planned as probes when
 * the index has leading columns). */
static void driver_union(hl_buf_t *sql, const hl_cat_part_filter_t *f, int k, const char **args,
                         int *n_args) {
  const char *lo = f->lo ? f->lo[k] : NULL, *hi = f->hi ? f->hi[k] : NULL;
  int p_lo = lo ? arg_add(args, n_args, lo) : 0; /* referred to from every arm */
  int p_hi = hi ? arg_add(args, n_args, hi) : 0;
  int p_eq = arg_add(args, n_args, f->eq[k]);
  hl_buf_puts(sql, "SELECT p.id, p.name, p.vals, p.location, p.create_time FROM (");
  for (int a = -1; a < n_alt_of(f, k); a++) {
    if (a >= 0) hl_buf_puts(sql, " UNION ");
    hl_buf_printf(sql, "SELECT part_id FROM part_values WHERE tbl_id = ?1 AND idx = %d", k);
    if (a < 0) {
      hl_buf_printf(sql, " AND value = ?%d", p_eq);
    } else {
      int r_lo = arg_add(args, n_args, f->alt[k][a].lo);
      int r_hi = arg_add(args, n_args, f->alt[k][a].hi);
      hl_buf_printf(sql, " AND value >= ?%d AND value < ?%d", r_lo, r_hi);
    }
    if (p_lo) hl_buf_printf(sql, " AND value >= ?%d", p_lo);
    if (p_hi) hl_buf_printf(sql, " AND value <= ?%d", p_hi);
  }
  hl_buf_puts(sql, ") v CROSS JOIN partitions p ON p.id = v.part_id WHERE 1");
}

static bool key_filtered(const hl_cat_part_filter_t *f, int k) {
  return f && ((f->eq && f->eq[k]) || (f->lo && f->lo[k]) || (f->hi && f->hi[k]));
}

/* One statement, stepped row by row into a scratch arena reset per row:
 * without a filter the name index is walked in order (no sort); with one
 * the first filtered key's value index drives (CROSS JOIN keeps that
 * order: left to itself SQLite walks every partition of the table; a
 * pinned value with alternative ranges is one probe per range), the
 * other keys are probes of part_values' primary key, and only the matches
 * are sorted by name. */
hl_status_t hl_cat_sq_partition_scan(hl_cat_t *cat, int64_t table_id,
                                     const hl_cat_part_filter_t *filter, hl_cat_part_fn fn,
                                     void *ctx, hl_error_t *err) {
  if (!fn) return misuse(err, "callback is missing");
  hl_arena_t *scratch = hl_arena_create(0);
  if (!scratch) return hl_err_nomem(err);
  rd_t r = {scratch, err, HL_OK};
  if ((r.status = op_begin(cat, 0, err)) != HL_OK) {
    hl_arena_destroy(scratch);
    return r.status;
  }
  tbl_info_t info = {NULL, 0};
  hl_buf_t sql;
  hl_buf_init(&sql);
  sqlite3_stmt *st = NULL;
  const char **args = NULL;
  int n_args = 0, first = -1;
  if ((r.status = table_info(cat, table_id, &info, err)) != HL_OK) goto done;
  for (int k = 0; k < info.n_keys && first < 0; k++)
    if (key_filtered(filter, k)) first = k;
  size_t n_texts = 1;
  for (int k = 0; k < info.n_keys; k++)
    n_texts += 3 + 2 * (size_t)(filter ? n_alt_of(filter, k) : 0);
  args = hl_arena_alloc(scratch, sizeof *args * n_texts);
  if (!args) {
    r.status = hl_err_nomem(err);
    goto done;
  }
  if (first < 0) {
    hl_buf_puts(&sql, "SELECT id, name, vals, location, create_time FROM partitions "
                      "WHERE tbl_id = ?1 ORDER BY name");
  } else {
    if (n_alt_of(filter, first) > 0) {
      driver_union(&sql, filter, first, args, &n_args);
    } else {
      hl_buf_printf(&sql,
                    "SELECT p.id, p.name, p.vals, p.location, p.create_time FROM part_values v "
                    "CROSS JOIN partitions p ON p.id = v.part_id WHERE v.tbl_id = ?1 AND v.idx = "
                    "%d",
                    first);
      key_cond(&sql, filter, first, "v.value", args, &n_args);
    }
    for (int k = first + 1; k < info.n_keys; k++) {
      if (!key_filtered(filter, k)) continue;
      hl_buf_printf(&sql,
                    " AND EXISTS (SELECT 1 FROM part_values w WHERE w.part_id = p.id "
                    "AND w.idx = %d",
                    k);
      key_cond(&sql, filter, k, "w.value", args, &n_args);
      hl_buf_putc(&sql, ')');
    }
    hl_buf_puts(&sql, " ORDER BY p.name");
  }
  if (sql.oom) {
    r.status = hl_err_nomem(err);
    goto done;
  }
  int rc = sqlite3_prepare_v2(SQ(cat)->db, hl_buf_cstr(&sql), -1, &st, NULL);
  if (rc != SQLITE_OK) {
    r.status = sqerr(cat, rc, err);
    goto done;
  }
  if (!bind_i64(cat, st, 1, table_id, err)) {
    r.status = err->code;
    goto done;
  }
  for (int i = 0; i < n_args; i++)
    if (!bind_text(cat, st, i + 2, args[i], err)) {
      r.status = err->code;
      goto done;
    }
  int row;
  while (r.status == HL_OK && (row = next_row(cat, st, err)) == 1) {
    hl_arena_reset(scratch);
    hl_cat_partition_t p;
    memset(&p, 0, sizeof p);
    rd_partition(&r, st, table_id, &p);
    if (r.status == HL_OK) r.status = fn(ctx, &p, err);
  }
  if (r.status == HL_OK && row < 0) r.status = err->code;
  if (r.status == HL_DONE) r.status = HL_OK;
done:
  sqlite3_finalize(st);
  hl_buf_fini(&sql);
  hl_free(info.qname);
  r.status = op_end(cat, r.status, err);
  hl_arena_destroy(scratch);
  return r.status;
}

/* Without a value to match, the complete records: one listing costs about
 * what names alone do here, and hl_cat_sq_partition_get_many then takes
 * them as they are (their sd is set). */
hl_status_t hl_cat_sq_partition_names(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                                      hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                      hl_error_t *err) {
  *out = NULL;
  *n = 0;
  if (!arena) return misuse(err, "arena is missing");
  bool any = false;
  if (eq) {
    hl_status_t status = names_where(cat, table_id, eq, arena, out, n, &any, err);
    if (status != HL_OK || any) return status;
  }
  return list_partitions(cat, table_id, true, arena, out, n, err);
}

static int cmp_part_name(const void *key, const void *elem) {
  return strcmp(key, ((const hl_cat_partition_t *)elem)->name);
}

/* Keys are looked up one by one (a few statements each) while they are at
 * most GET_MANY_LOOKUPS or a small part of the table (1/GET_MANY_SHARE);
 * more are taken from one listing, which costs the same for any number
 * (a metastore client asks in batches of 300 of 100,000). */
#define GET_MANY_LOOKUPS 64
#define GET_MANY_SHARE   32

hl_status_t hl_cat_sq_partition_get_many(hl_cat_t *cat, int64_t table_id,
                                         const hl_cat_partition_t *keys, size_t n_keys,
                                         hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                         hl_error_t *err) {
  *out = NULL;
  *n = 0;
  if (!arena || (n_keys && !keys)) return misuse(err, "invalid partition keys");
  hl_cat_partition_t *res = hl_arena_alloc(arena, sizeof *res * (n_keys ? n_keys : 1));
  if (!res) return hl_err_nomem(err);
  size_t got = 0;
  hl_status_t status = HL_OK;
  bool complete = true;
  for (size_t i = 0; i < n_keys && complete; i++)
    complete = keys[i].sd != NULL;
  if (complete) { /* partition_names listed them whole */
    if (n_keys) memcpy(res, keys, sizeof *res * n_keys);
    *out = res;
    *n = n_keys;
    return HL_OK;
  }
  /* Each lookup is its own unit of work (they do not nest); a partition
   * dropped between two is left out, like one dropped before. */
  size_t total = 0;
  if (n_keys > GET_MANY_LOOKUPS &&
      (status = hl_cat_sq_partition_count(cat, table_id, &total, err)) != HL_OK)
    return status;
  if (n_keys <= GET_MANY_LOOKUPS || n_keys * GET_MANY_SHARE < total) {
    for (size_t i = 0; i < n_keys && status == HL_OK; i++) {
      hl_cat_partition_t *p;
      status =
          hl_cat_sq_partition_get(cat, table_id, keys[i].values, keys[i].n_values, arena, &p, err);
      if (status == HL_OK)
        res[got++] = *p;
      else if (status == HL_NOTFOUND && strcmp(err->sqlstate, HL_SS(UNDEFINED_OBJECT)) == 0) {
        hl_err_clear(err); /* dropped since the names were read */
        status = HL_OK;
      }
    }
  } else {
    hl_cat_partition_t *all;
    size_t n_all;
    status = list_partitions(cat, table_id, true, arena, &all, &n_all, err);
    for (size_t i = 0; i < n_keys && status == HL_OK; i++) {
      const hl_cat_partition_t *p =
          keys[i].name ? bsearch(keys[i].name, all, n_all, sizeof *all, cmp_part_name) : NULL;
      if (p) res[got++] = *p;
    }
  }
  if (status != HL_OK) return status;
  *out = res;
  *n = got;
  return HL_OK;
}

hl_status_t hl_cat_sq_partition_count(hl_cat_t *cat, int64_t table_id, size_t *n, hl_error_t *err) {
  *n = 0;
  hl_status_t status = op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  tbl_info_t info = {NULL, 0};
  sqlite3_stmt *st = NULL;
  int row = 0;
  if ((status = table_info(cat, table_id, &info, err)) != HL_OK) goto done;
  if (!(st = prep(cat, S_PART_COUNT, err)) || !bind_i64(cat, st, 1, table_id, err) ||
      (row = next_row(cat, st, err)) < 0)
    status = err->code;
  else if (row == 1)
    *n = (size_t)sqlite3_column_int64(st, 0);
  else
    status = no_count(&info, err);
done:
  release(st);
  hl_free(info.qname);
  return op_end(cat, status, err);
}

hl_status_t hl_cat_sq_partition_tdates(hl_cat_t *cat, int64_t table_id, size_t *n, size_t *n_tdates,
                                       hl_error_t *err) {
  *n = *n_tdates = 0;
  hl_status_t status = op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  tbl_info_t info = {NULL, 0};
  sqlite3_stmt *st = NULL;
  int row = 0;
  if ((status = table_info(cat, table_id, &info, err)) != HL_OK) goto done;
  if (!(st = prep(cat, S_PART_TDATES, err)) || !bind_i64(cat, st, 1, table_id, err) ||
      (row = next_row(cat, st, err)) < 0) {
    status = err->code;
    goto done;
  }
  if (row == 0) {
    status = no_count(&info, err);
    goto done;
  }
  int64_t all = sqlite3_column_int64(st, 0), tdates = sqlite3_column_int64(st, 1);
  /* the CHECK of schema v10 forbids it: a file written by something else */
  if (all < 0 || tdates < 0 || tdates > all) {
    status = hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "metastore has an inconsistent text-date count for table %s "
                        "(%lld of %lld partitions)",
                        info.qname, (long long)tdates, (long long)all);
    goto done;
  }
  *n = (size_t)all;
  *n_tdates = (size_t)tdates;
done:
  release(st);
  hl_free(info.qname);
  return op_end(cat, status, err);
}

hl_status_t hl_cat_sq_partition_update(hl_cat_t *cat, const hl_cat_partition_t *part,
                                       hl_error_t *err) {
  if (!part) return misuse(err, "partition is missing");
  hl_status_t status = op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  tbl_info_t info = {NULL, 0};
  unsigned char *vals = NULL;
  size_t vals_len = 0;
  sqlite3_stmt *st = NULL;
  int64_t tbl_id = 0;

  if (!(st = prep(cat, S_PART_TABLE, err))) {
    status = err->code;
    goto done;
  }
  int row = bind_i64(cat, st, 1, part->id, err) ? next_row(cat, st, err) : -1;
  if (row < 0) {
    status = err->code;
    goto done;
  }
  if (row == 0) {
    status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                        "partition with id %lld does not exist", (long long)part->id);
    goto done;
  }
  tbl_id = sqlite3_column_int64(st, 0);
  release(st);
  st = NULL;
  if (part->table_id != tbl_id) {
    status = hl_err_set(err, HL_ERROR, HL_SS(FEATURE_NOT_SUPPORTED),
                        "moving a partition to another table is not supported");
    goto done;
  }
  if ((status = table_info(cat, tbl_id, &info, err)) != HL_OK ||
      (status = check_partition(part, &info, err)) != HL_OK ||
      (status = encode_values(part->values, part->n_values, &vals, &vals_len, err)) != HL_OK)
    goto done;
  if (!(st = prep(cat, S_PART_UPDATE, err))) {
    status = err->code;
    goto done;
  }
  int rc = sqlite3_bind_blob(st, 3, vals, (int)vals_len, SQLITE_STATIC);
  if (rc != SQLITE_OK) {
    status = sqerr(cat, rc, err);
    goto done;
  }
  if (!bind_i64(cat, st, 1, part->id, err) || !bind_text(cat, st, 2, part->name, err) ||
      !bind_text(cat, st, 4, part->location, err)) {
    status = err->code;
    goto done;
  }
  if ((status = run_part_write(cat, st, part->name, info.qname, err)) != HL_OK) goto done;
  release(st);
  /* the text-date count follows the first value, read from part_values
   * before they are replaced */
  if (!(st = prep(cat, S_PART_COUNT_MOVE, err)) || !bind_i64(cat, st, 1, part->id, err) ||
      !bind_i64(cat, st, 2, tbl_id, err) || !bind_i64(cat, st, 3, first_is_tdate(part), err)) {
    status = err->code;
    goto done;
  }
  if ((status = run(cat, st, err)) == HL_OK && sqlite3_changes(SQ(cat)->db) != 1)
    status = no_count(&info, err);
  release(st);
  st = NULL;
  if (status != HL_OK) goto done;
  static const stmt_id_t children[] = {S_PVAL_DELETE, S_PPARAM_DELETE};
  status = delete_children(cat, children, 2, part->id, err);
  if (status == HL_OK) status = insert_part_children(cat, part->id, part, tbl_id, err);
  if (status == HL_OK && part->sd)
    status = hl_cat_part_sd_write(cat, tbl_id, part->id, part->sd, err);
done:
  release(st);
  hl_free(vals);
  hl_free(info.qname);
  return op_end(cat, status, err);
}

hl_status_t hl_cat_sq_partition_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err) {
  hl_status_t status = op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  /* the kept count first: the delete must still find the row's table (a
   * partition that does not exist changes no count, and fails below) */
  sqlite3_stmt *st = prep(cat, S_PART_COUNT_DROP, err);
  if (!st || !bind_i64(cat, st, 1, partition_id, err) || run(cat, st, err) != HL_OK) {
    release(st);
    return op_end(cat, err->code, err);
  }
  release(st);
  st = prep(cat, S_PART_DELETE, err);
  if (!st || !bind_i64(cat, st, 1, partition_id, err))
    status = err->code;
  else if ((status = run(cat, st, err)) == HL_OK && sqlite3_changes(SQ(cat)->db) == 0)
    status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                        "partition with id %lld does not exist", (long long)partition_id);
  release(st);
  return op_end(cat, status, err);
}

/* ------------------------------------------------------------------------
 * For the other backend files (catalog_int.h)
 * ------------------------------------------------------------------------ */

sqlite3 *hl_cat_sqlite_db(hl_cat_t *cat) {
  return SQ(cat)->db;
}

hl_status_t hl_cat_cached_stmt(hl_cat_t *cat, const char *sql, sqlite3_stmt **out,
                               hl_error_t *err) {
  *out = NULL;
  int i = 0;
  while (i < HL_CAT_OTHER_STMTS && SQ(cat)->other_sql[i] && SQ(cat)->other_sql[i] != sql)
    i++;
  if (i == HL_CAT_OTHER_STMTS)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "statement cache is full");
  if (!SQ(cat)->other[i]) {
    int rc = sqlite3_prepare_v3(SQ(cat)->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &SQ(cat)->other[i],
                                NULL);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(SQ(cat)->other[i]);
      SQ(cat)->other[i] = NULL;
      return sqerr(cat, rc, err);
    }
    SQ(cat)->other_sql[i] = sql;
  }
  *out = SQ(cat)->other[i];
  return HL_OK;
}

hl_status_t hl_cat_op_begin(hl_cat_t *cat, int write, hl_error_t *err) {
  return op_begin(cat, write, err);
}

hl_status_t hl_cat_op_end(hl_cat_t *cat, hl_status_t status, hl_error_t *err) {
  return op_end(cat, status, err);
}

/* The table of partition PARTITION_ID (for the undo journal). */
hl_status_t hl_cat_sq_partition_table(hl_cat_t *cat, int64_t partition_id, int64_t *table_id,
                                      hl_error_t *err) {
  static const char sql[] = "SELECT tbl_id FROM partitions WHERE id = ?1";
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st;
  status = hl_cat_cached_stmt(cat, sql, &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, partition_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
      *table_id = sqlite3_column_int64(st, 0);
    else if (rc == SQLITE_DONE)
      status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                          "partition with id %lld does not exist", (long long)partition_id);
    else
      status = hl_cat_sqlite_error(SQ(cat)->db, rc, err);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  return hl_cat_op_end(cat, status, err);
}

/* The names of table TABLE_ID (the undo journal names tables; the
 * embedded catalog journals only when a test backend wraps it). */
hl_status_t hl_cat_sq_table_name(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena, char **db,
                                 char **name, hl_error_t *err) {
  static const char sql[] = "SELECT d.name, t.name FROM tbls t JOIN dbs d ON d.id = t.db_id "
                            "WHERE t.id = ?1";
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st;
  status = hl_cat_cached_stmt(cat, sql, &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, table_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      *db = hl_arena_strdup(arena, (const char *)sqlite3_column_text(st, 0));
      *name = hl_arena_strdup(arena, (const char *)sqlite3_column_text(st, 1));
      if (!*db || !*name) status = hl_err_nomem(err);
    } else if (rc == SQLITE_DONE) {
      status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE),
                          "table with id %lld does not exist", (long long)table_id);
    } else {
      status = hl_cat_sqlite_error(SQ(cat)->db, rc, err);
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  return hl_cat_op_end(cat, status, err);
}

/* ------------------------------------------------------------------------
 * The operations table (cat_backend.h)
 * ------------------------------------------------------------------------ */

static const hl_cat_ops_t sq_ops = {
    .name = "sqlite",
    .readonly = hl_cat_sq_readonly,
    .close = hl_cat_sq_close,
    .begin = hl_cat_sq_begin,
    .commit = hl_cat_sq_commit,
    .rollback = hl_cat_sq_rollback,
    .db_create = hl_cat_sq_db_create,
    .db_get = hl_cat_sq_db_get,
    .db_list = hl_cat_sq_db_list,
    .db_drop = hl_cat_sq_db_drop,
    .db_update = hl_cat_sq_db_update,
    .table_create = hl_cat_sq_table_create,
    .table_get = hl_cat_sq_table_get,
    .table_list = hl_cat_sq_table_list,
    .table_update = hl_cat_sq_table_update,
    .table_drop = hl_cat_sq_table_drop,
    .partition_add = hl_cat_sq_partition_add,
    .partition_add_many = hl_cat_sq_partition_add_many,
    .partition_get = hl_cat_sq_partition_get,
    .partition_list = hl_cat_sq_partition_list,
    .partition_count = hl_cat_sq_partition_count,
    .partition_update = hl_cat_sq_partition_update,
    .partition_set_columns_all = hl_cat_sq_partition_set_columns_all,
    .partition_drop = hl_cat_sq_partition_drop,
    .partition_tdates = hl_cat_sq_partition_tdates,
    .locations_within = hl_cat_sq_locations_within,
    .locations_at = hl_cat_sq_locations_at,
    .col_stats_put = hl_cat_sq_col_stats_put,
    .col_stats_get = hl_cat_sq_col_stats_get,
    .col_stats_list_parts = hl_cat_sq_col_stats_list_parts,
    .col_stats_delete = hl_cat_sq_col_stats_delete,
    .partition_names = hl_cat_sq_partition_names,
    .partition_get_many = hl_cat_sq_partition_get_many,
    .partition_scan = hl_cat_sq_partition_scan,
    .table_name = hl_cat_sq_table_name,
    .partition_table = hl_cat_sq_partition_table,
};
