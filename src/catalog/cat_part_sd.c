/*
 * cat_part_sd.c -- per-partition storage descriptors in the SQLite
 * metastore (catalog.h: hl_cat_sd_t; schema v6 in cat_schema.c).
 *
 * A partition has rows in part_sds and its children only while its
 * descriptor differs from its table's; every other partition reads the
 * table's descriptor.  Writes keep that invariant: storing a descriptor
 * equal to the table's removes the rows, and before the table's own
 * descriptor changes (hl_cat_part_sd_detach) every partition without rows
 * gets a copy of the old one, so a table-level ALTER never changes how an
 * existing partition is read -- Hive's behaviour, where each partition
 * holds the copy of the table's SD it was created with; after the change,
 * partitions whose descriptor now equals the table's lose their rows
 * (hl_cat_part_sd_prune).
 *
 * Reading is five statements whatever the partition count (descriptors,
 * serde parameters, columns, bucket columns, sort columns, each ordered by
 * owner), with the table as owner 0 in the same shapes.
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"
#include "util/mem.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ SQL */

/* ?1 = table id, ?2 = one partition id or 0 for all; the table's own
 * descriptor is read by the same shapes with owner 0. */
#define PART_OF(alias)                                                                             \
  " JOIN partitions p ON p.id = " alias ".part_id WHERE p.tbl_id = ?1 "                            \
  "AND (?2 = 0 OR p.id = ?2) "

/* One partition's rows: by its key (the OR above keeps SQLite from using
 * it, so a lookup would walk every partition of the table). */
#define PART_ONE(alias)                                                                            \
  " JOIN partitions p ON p.id = " alias ".part_id WHERE " alias ".part_id = ?2 AND p.tbl_id = ?1 "

enum { Q_SD, Q_KV, Q_COL, Q_BUCKET, Q_SORT, Q_N };

static const char *const part_one_sql[Q_N] = {
    "SELECT s.part_id, s.input_format, s.output_format, s.serde_lib, s.num_buckets "
    "FROM part_sds s" PART_ONE("s"),
    "SELECT c.part_id, c.key, c.value FROM part_serde_params c" PART_ONE("c") "ORDER BY c.idx",
    "SELECT c.part_id, c.name, c.type, c.comment FROM part_columns c" PART_ONE(
        "c") "ORDER BY c.idx",
    "SELECT c.part_id, c.name FROM part_bucket_cols c" PART_ONE("c") "ORDER BY c.idx",
    "SELECT c.part_id, c.name, c.ascending FROM part_sort_cols c" PART_ONE("c") "ORDER BY c.idx",
};

static const char *const part_sql[Q_N] = {
    "SELECT s.part_id, s.input_format, s.output_format, s.serde_lib, s.num_buckets "
    "FROM part_sds s" PART_OF("s") "ORDER BY s.part_id",
    "SELECT c.part_id, c.key, c.value FROM part_serde_params c" PART_OF(
        "c") "ORDER BY c.part_id, c.idx",
    "SELECT c.part_id, c.name, c.type, c.comment FROM part_columns c" PART_OF(
        "c") "ORDER BY c.part_id, c.idx",
    "SELECT c.part_id, c.name FROM part_bucket_cols c" PART_OF("c") "ORDER BY c.part_id, c.idx",
    "SELECT c.part_id, c.name, c.ascending FROM part_sort_cols c" PART_OF(
        "c") "ORDER BY c.part_id, c.idx",
};

static const char *const table_sql[Q_N] = {
    "SELECT 0, input_format, output_format, serde_lib, num_buckets FROM tbls "
    "WHERE id = ?1 AND ?2 = 0",
    "SELECT 0, key, value FROM serde_params WHERE tbl_id = ?1 AND ?2 = 0 ORDER BY idx",
    "SELECT 0, name, type, comment FROM tbl_columns WHERE tbl_id = ?1 AND ?2 = 0 ORDER BY idx",
    "SELECT 0, name FROM bucket_cols WHERE tbl_id = ?1 AND ?2 = 0 ORDER BY idx",
    "SELECT 0, name, ascending FROM sort_cols WHERE tbl_id = ?1 AND ?2 = 0 ORDER BY idx",
};

/* Partitions without rows get a copy of the table's descriptor
 * (hl_cat_part_sd_detach): children first, then the part_sds rows that
 * mark them as copied. */
#define NO_SD " AND NOT EXISTS (SELECT 1 FROM part_sds s WHERE s.part_id = p.id)"
static const char *const detach_sql[] = {
    "INSERT INTO part_serde_params (part_id, idx, key, value) SELECT p.id, c.idx, c.key, c.value "
    "FROM partitions p JOIN serde_params c ON c.tbl_id = p.tbl_id WHERE p.tbl_id = ?1" NO_SD,
    "INSERT INTO part_columns (part_id, idx, name, type, comment) "
    "SELECT p.id, c.idx, c.name, c.type, c.comment "
    "FROM partitions p JOIN tbl_columns c ON c.tbl_id = p.tbl_id WHERE p.tbl_id = ?1" NO_SD,
    "INSERT INTO part_bucket_cols (part_id, idx, name) SELECT p.id, c.idx, c.name "
    "FROM partitions p JOIN bucket_cols c ON c.tbl_id = p.tbl_id WHERE p.tbl_id = ?1" NO_SD,
    "INSERT INTO part_sort_cols (part_id, idx, name, ascending) "
    "SELECT p.id, c.idx, c.name, c.ascending "
    "FROM partitions p JOIN sort_cols c ON c.tbl_id = p.tbl_id WHERE p.tbl_id = ?1" NO_SD,
    "INSERT INTO part_sds (part_id, input_format, output_format, serde_lib, num_buckets) "
    "SELECT p.id, t.input_format, t.output_format, t.serde_lib, t.num_buckets "
    "FROM partitions p JOIN tbls t ON t.id = p.tbl_id WHERE p.tbl_id = ?1" NO_SD,
};

static const char *const delete_sql[] = {
    "DELETE FROM part_serde_params WHERE part_id = ?1",
    "DELETE FROM part_columns WHERE part_id = ?1",
    "DELETE FROM part_bucket_cols WHERE part_id = ?1",
    "DELETE FROM part_sort_cols WHERE part_id = ?1",
    "DELETE FROM part_sds WHERE part_id = ?1",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ helpers */

static bool str_eq(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

hl_cat_sd_t hl_cat_table_sd(const hl_cat_table_t *t) {
  hl_cat_sd_t sd = {t->input_format,   t->output_format, t->serde_lib, t->serde_params,
                    t->n_serde_params, t->cols,          t->n_cols,    t->num_buckets,
                    t->bucket_cols,    t->n_bucket_cols, t->sort_cols, t->n_sort_cols};
  return sd;
}

hl_cat_table_t hl_cat_table_with_sd(const hl_cat_table_t *table, const hl_cat_sd_t *sd) {
  hl_cat_table_t out = *table;
  out.input_format = sd->input_format;
  out.output_format = sd->output_format;
  out.serde_lib = sd->serde_lib;
  out.serde_params = sd->serde_params;
  out.n_serde_params = sd->n_serde_params;
  out.cols = sd->cols;
  out.n_cols = sd->n_cols;
  out.num_buckets = sd->num_buckets;
  out.bucket_cols = sd->bucket_cols;
  out.n_bucket_cols = sd->n_bucket_cols;
  out.sort_cols = sd->sort_cols;
  out.n_sort_cols = sd->n_sort_cols;
  return out;
}

bool hl_cat_sd_equal(const hl_cat_sd_t *a, const hl_cat_sd_t *b) {
  if (!str_eq(a->input_format, b->input_format) || !str_eq(a->output_format, b->output_format) ||
      !str_eq(a->serde_lib, b->serde_lib) || a->n_serde_params != b->n_serde_params ||
      a->n_cols != b->n_cols || a->num_buckets != b->num_buckets ||
      a->n_bucket_cols != b->n_bucket_cols || a->n_sort_cols != b->n_sort_cols)
    return false;
  for (int i = 0; i < a->n_serde_params; i++)
    if (!str_eq(a->serde_params[i].key, b->serde_params[i].key) ||
        !str_eq(a->serde_params[i].value, b->serde_params[i].value))
      return false;
  /* names and types are stored lower-case; compare as stored */
  for (int i = 0; i < a->n_cols; i++)
    if (strcasecmp(a->cols[i].name, b->cols[i].name) != 0 ||
        strcasecmp(a->cols[i].type, b->cols[i].type) != 0 ||
        !str_eq(a->cols[i].comment, b->cols[i].comment))
      return false;
  for (int i = 0; i < a->n_bucket_cols; i++)
    if (strcasecmp(a->bucket_cols[i], b->bucket_cols[i]) != 0) return false;
  for (int i = 0; i < a->n_sort_cols; i++)
    if (strcasecmp(a->sort_cols[i].name, b->sort_cols[i].name) != 0 ||
        a->sort_cols[i].ascending != b->sort_cols[i].ascending)
      return false;
  return true;
}

/* Statements are cached per connection (hl_cat_cached_stmt): a single
 * partition's read or write runs a dozen of them. */
static hl_status_t prepare(hl_cat_t *cat, const char *sql, sqlite3_stmt **st, hl_error_t *err) {
  return hl_cat_cached_stmt(cat, sql, st, err);
}

static void finish(sqlite3_stmt *st) {
  if (!st) return;
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
}

/* Runs SQL once with ?1 = A (and ?2 = B when the statement has it). */
static hl_status_t run_sql(hl_cat_t *cat, const char *sql, int64_t a, int64_t b, hl_error_t *err) {
  sqlite3_stmt *st;
  hl_status_t status = prepare(cat, sql, &st, err);
  if (status != HL_OK) return status;
  sqlite3_bind_int64(st, 1, a);
  if (sqlite3_bind_parameter_count(st) >= 2) sqlite3_bind_int64(st, 2, b);
  int rc = sqlite3_step(st);
  if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  finish(st);
  return status;
}

/* ------------------------------------------------------------ reading */

/* The descriptors read for a set of owners, ordered by owner id. */
typedef struct sd_set {
  hl_arena_t *arena;
  hl_error_t *err;
  hl_status_t status;
  int64_t *ids;
  hl_cat_sd_t *sds;
  size_t n, cap;
} sd_set_t;

static char *col_text(sd_set_t *s, sqlite3_stmt *st, int col) {
  if (s->status != HL_OK || sqlite3_column_type(st, col) == SQLITE_NULL) return NULL;
  const char *text = (const char *)sqlite3_column_text(st, col);
  char *out = hl_arena_strdup(s->arena, text ? text : "");
  if (!out) s->status = hl_err_nomem(s->err);
  return out;
}

static hl_cat_sd_t *find_owner(sd_set_t *s, int64_t id) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->ids[mid] == id) return &s->sds[mid];
    if (s->ids[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* A new arena array for OLD[0..n) with room for as many again (called
 * when full() says OLD is full; a descriptor's arrays stay small). */
static void *grow(sd_set_t *s, void *old, int n, size_t size) {
  if (s->status != HL_OK) return NULL;
  size_t cap = n == 0 ? 4 : (size_t)n * 2;
  void *p = hl_arena_alloc(s->arena, cap * size);
  if (!p) {
    s->status = hl_err_nomem(s->err);
    return NULL;
  }
  if (old && n) memcpy(p, old, (size_t)n * size);
  return p;
}

/* Whether an array of N elements built by grow is full: capacities are
 * 4, 8, 16, ... */
static bool full(int n) {
  return n == 0 || (n >= 4 && (n & (n - 1)) == 0);
}

static void read_rows(hl_cat_t *cat, sd_set_t *s, int q, const char *sql, int64_t tbl_id,
                      int64_t part_id) {
  sqlite3_stmt *st;
  if ((s->status = prepare(cat, sql, &st, s->err)) != HL_OK) return;
  sqlite3_bind_int64(st, 1, tbl_id);
  sqlite3_bind_int64(st, 2, part_id);
  int rc;
  while (s->status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    int64_t owner = sqlite3_column_int64(st, 0);
    if (q == Q_SD) {
      if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        int64_t *ids = hl_arena_alloc(s->arena, cap * sizeof *ids);
        hl_cat_sd_t *sds = hl_arena_zalloc(s->arena, cap * sizeof *sds);
        if (!ids || !sds) {
          s->status = hl_err_nomem(s->err);
          break;
        }
        if (s->n) {
          memcpy(ids, s->ids, s->n * sizeof *ids);
          memcpy(sds, s->sds, s->n * sizeof *sds);
        }
        s->ids = ids, s->sds = sds, s->cap = cap;
      }
      hl_cat_sd_t *sd = &s->sds[s->n];
      s->ids[s->n++] = owner;
      sd->input_format = col_text(s, st, 1);
      sd->output_format = col_text(s, st, 2);
      sd->serde_lib = col_text(s, st, 3);
      sd->num_buckets = sqlite3_column_int(st, 4);
      continue;
    }
    hl_cat_sd_t *sd = find_owner(s, owner);
    if (!sd) continue; /* a child without its part_sds row: not this owner's */
    if (q == Q_KV) {
      if (full(sd->n_serde_params) &&
          !(sd->serde_params =
                grow(s, sd->serde_params, sd->n_serde_params, sizeof *sd->serde_params)))
        break;
      hl_kv_t *kv = &sd->serde_params[sd->n_serde_params++];
      kv->key = col_text(s, st, 1);
      kv->value = col_text(s, st, 2);
    } else if (q == Q_COL) {
      if (full(sd->n_cols) && !(sd->cols = grow(s, sd->cols, sd->n_cols, sizeof *sd->cols))) break;
      hl_cat_column_t *c = &sd->cols[sd->n_cols++];
      c->name = col_text(s, st, 1);
      c->type = col_text(s, st, 2);
      c->comment = col_text(s, st, 3);
    } else if (q == Q_BUCKET) {
      if (full(sd->n_bucket_cols) &&
          !(sd->bucket_cols = grow(s, sd->bucket_cols, sd->n_bucket_cols, sizeof *sd->bucket_cols)))
        break;
      sd->bucket_cols[sd->n_bucket_cols++] = col_text(s, st, 1);
    } else {
      if (full(sd->n_sort_cols) &&
          !(sd->sort_cols = grow(s, sd->sort_cols, sd->n_sort_cols, sizeof *sd->sort_cols)))
        break;
      hl_cat_sort_col_t *c = &sd->sort_cols[sd->n_sort_cols++];
      c->name = col_text(s, st, 1);
      c->ascending = sqlite3_column_int(st, 2) != 0;
    }
  }
  if (s->status == HL_OK && rc != SQLITE_DONE)
    s->status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, s->err);
  finish(st);
}

/* Reads the descriptors of the table (TABLE) or of its partitions with
 * rows (PART_ID, 0 for all) into S. */
static hl_status_t read_set(hl_cat_t *cat, sd_set_t *s, bool table, int64_t tbl_id,
                            int64_t part_id) {
  const char *const *sql = table ? table_sql : part_id ? part_one_sql : part_sql;
  for (int q = 0; s->status == HL_OK && q < Q_N; q++) {
    if (q > Q_SD && s->n == 0) break;
    read_rows(cat, s, q, sql[q], tbl_id, part_id);
  }
  return s->status;
}

hl_status_t hl_cat_part_sd_read(hl_cat_t *cat, int64_t tbl_id, int64_t part_id,
                                hl_cat_partition_t *parts, size_t n, hl_arena_t *arena,
                                hl_error_t *err) {
  if (n == 0) return HL_OK;
  sd_set_t table = {arena, err, HL_OK, NULL, NULL, 0, 0};
  sd_set_t own = {arena, err, HL_OK, NULL, NULL, 0, 0};
  if (read_set(cat, &table, true, tbl_id, 0) != HL_OK) return table.status;
  if (table.n != 1)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE), "table with id %lld does not exist",
                      (long long)tbl_id);
  if (read_set(cat, &own, false, tbl_id, part_id) != HL_OK) return own.status;
  for (size_t i = 0; i < n; i++) {
    hl_cat_sd_t *sd = find_owner(&own, parts[i].id);
    parts[i].sd = sd ? sd : &table.sds[0];
  }
  return HL_OK;
}

/* ------------------------------------------------------------ writing */

static hl_status_t insert_kvs(hl_cat_t *cat, int64_t part_id, const hl_cat_sd_t *sd,
                              hl_error_t *err) {
  if (sd->n_serde_params == 0) return HL_OK;
  sqlite3_stmt *st;
  hl_status_t status = prepare(
      cat, "INSERT INTO part_serde_params (part_id, idx, key, value) VALUES (?1, ?2, ?3, ?4)", &st,
      err);
  for (int i = 0; status == HL_OK && i < sd->n_serde_params; i++) {
    sqlite3_bind_int64(st, 1, part_id);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_text(st, 3, sd->serde_params[i].key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, sd->serde_params[i].value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    sqlite3_reset(st);
  }
  finish(st);
  return status;
}

static hl_status_t insert_cols(hl_cat_t *cat, int64_t part_id, const hl_cat_column_t *cols, int n,
                               hl_error_t *err) {
  if (n == 0) return HL_OK;
  sqlite3_stmt *st;
  hl_status_t status = prepare(cat,
                               "INSERT INTO part_columns (part_id, idx, name, type, comment) "
                               "VALUES (?1, ?2, hl_lower(?3), hl_lower(?4), ?5)",
                               &st, err);
  for (int i = 0; status == HL_OK && i < n; i++) {
    sqlite3_bind_int64(st, 1, part_id);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_text(st, 3, cols[i].name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, cols[i].type, -1, SQLITE_STATIC);
    if (cols[i].comment)
      sqlite3_bind_text(st, 5, cols[i].comment, -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 5);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    sqlite3_reset(st);
  }
  finish(st);
  return status;
}

static hl_status_t insert_buckets_sorts(hl_cat_t *cat, int64_t part_id, const hl_cat_sd_t *sd,
                                        hl_error_t *err) {
  hl_status_t status = HL_OK;
  sqlite3_stmt *st = NULL;
  if (sd->n_bucket_cols > 0 &&
      (status = prepare(cat,
                        "INSERT INTO part_bucket_cols (part_id, idx, name) "
                        "VALUES (?1, ?2, hl_lower(?3))",
                        &st, err)) == HL_OK) {
    for (int i = 0; status == HL_OK && i < sd->n_bucket_cols; i++) {
      sqlite3_bind_int64(st, 1, part_id);
      sqlite3_bind_int(st, 2, i);
      sqlite3_bind_text(st, 3, sd->bucket_cols[i], -1, SQLITE_STATIC);
      int rc = sqlite3_step(st);
      if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
      sqlite3_reset(st);
    }
    finish(st);
  }
  if (status == HL_OK && sd->n_sort_cols > 0 &&
      (status = prepare(cat,
                        "INSERT INTO part_sort_cols (part_id, idx, name, ascending) "
                        "VALUES (?1, ?2, hl_lower(?3), ?4)",
                        &st, err)) == HL_OK) {
    for (int i = 0; status == HL_OK && i < sd->n_sort_cols; i++) {
      sqlite3_bind_int64(st, 1, part_id);
      sqlite3_bind_int(st, 2, i);
      sqlite3_bind_text(st, 3, sd->sort_cols[i].name, -1, SQLITE_STATIC);
      sqlite3_bind_int(st, 4, sd->sort_cols[i].ascending ? 1 : 0);
      int rc = sqlite3_step(st);
      if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
      sqlite3_reset(st);
    }
    finish(st);
  }
  return status;
}

static hl_status_t insert_sd(hl_cat_t *cat, int64_t part_id, const hl_cat_sd_t *sd,
                             hl_error_t *err) {
  sqlite3_stmt *st;
  hl_status_t status = prepare(cat,
                               "INSERT INTO part_sds (part_id, input_format, output_format, "
                               "serde_lib, num_buckets) VALUES (?1, ?2, ?3, ?4, ?5)",
                               &st, err);
  if (status != HL_OK) return status;
  sqlite3_bind_int64(st, 1, part_id);
  const char *texts[3] = {sd->input_format, sd->output_format, sd->serde_lib};
  for (int i = 0; i < 3; i++)
    if (texts[i])
      sqlite3_bind_text(st, 2 + i, texts[i], -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 2 + i);
  sqlite3_bind_int(st, 5, sd->num_buckets);
  int rc = sqlite3_step(st);
  if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  finish(st);
  if (status == HL_OK) status = insert_kvs(cat, part_id, sd, err);
  if (status == HL_OK) status = insert_cols(cat, part_id, sd->cols, sd->n_cols, err);
  if (status == HL_OK) status = insert_buckets_sorts(cat, part_id, sd, err);
  return status;
}

/* Reads the table's descriptor as stored into a temporary arena. */
static hl_status_t table_sd(hl_cat_t *cat, int64_t tbl_id, hl_arena_t *arena, hl_cat_sd_t **out,
                            hl_error_t *err) {
  sd_set_t s = {arena, err, HL_OK, NULL, NULL, 0, 0};
  if (read_set(cat, &s, true, tbl_id, 0) != HL_OK) return s.status;
  if (s.n != 1)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE), "table with id %lld does not exist",
                      (long long)tbl_id);
  *out = &s.sds[0];
  return HL_OK;
}

hl_status_t hl_cat_part_sd_write(hl_cat_t *cat, int64_t tbl_id, int64_t part_id,
                                 const hl_cat_sd_t *sd, hl_error_t *err) {
  hl_status_t status = HL_OK;
  for (size_t i = 0; status == HL_OK && i < N_OF(delete_sql); i++)
    status = run_sql(cat, delete_sql[i], part_id, 0, err);
  if (status != HL_OK || !sd) return status;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  hl_cat_sd_t *tsd;
  status = table_sd(cat, tbl_id, arena, &tsd, err);
  if (status == HL_OK && !hl_cat_sd_equal(sd, tsd)) status = insert_sd(cat, part_id, sd, err);
  hl_arena_destroy(arena);
  return status;
}

hl_status_t hl_cat_part_sd_detach(hl_cat_t *cat, const hl_cat_table_t *table, bool *changed,
                                  hl_error_t *err) {
  *changed = false;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  hl_cat_sd_t *old;
  hl_status_t status = table_sd(cat, table->id, arena, &old, err);
  hl_cat_sd_t now = hl_cat_table_sd(table);
  if (status == HL_OK && !hl_cat_sd_equal(old, &now)) {
    *changed = true;
    for (size_t i = 0; status == HL_OK && i < N_OF(detach_sql); i++)
      status = run_sql(cat, detach_sql[i], table->id, 0, err);
  }
  hl_arena_destroy(arena);
  return status;
}

hl_status_t hl_cat_part_sd_prune(hl_cat_t *cat, int64_t tbl_id, hl_error_t *err) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  hl_cat_sd_t *tsd;
  sd_set_t own = {arena, err, HL_OK, NULL, NULL, 0, 0};
  hl_status_t status = table_sd(cat, tbl_id, arena, &tsd, err);
  if (status == HL_OK) status = read_set(cat, &own, false, tbl_id, 0);
  for (size_t i = 0; status == HL_OK && i < own.n; i++)
    if (hl_cat_sd_equal(&own.sds[i], tsd))
      for (size_t q = 0; status == HL_OK && q < N_OF(delete_sql); q++)
        status = run_sql(cat, delete_sql[q], own.ids[i], 0, err);
  hl_arena_destroy(arena);
  return status;
}

hl_status_t hl_cat_sq_partition_set_columns_all(hl_cat_t *cat, int64_t table_id,
                                                const hl_cat_column_t *cols, int n,
                                                hl_error_t *err) {
  if (n < 0 || (n > 0 && !cols))
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "invalid column list");
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  /* partitions without rows follow the table already */
  status = prepare(cat,
                   "SELECT s.part_id FROM part_sds s JOIN partitions p ON p.id = s.part_id "
                   "WHERE p.tbl_id = ?1",
                   &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, table_id);
    int rc;
    while (status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
      int64_t part_id = sqlite3_column_int64(st, 0);
      status = run_sql(cat, "DELETE FROM part_columns WHERE part_id = ?1", part_id, 0, err);
      if (status == HL_OK) status = insert_cols(cat, part_id, cols, n, err);
    }
    if (status == HL_OK && rc != SQLITE_DONE)
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    finish(st);
  }
  if (status == HL_OK) status = hl_cat_part_sd_prune(cat, table_id, err);
  return hl_cat_op_end(cat, status, err);
}
