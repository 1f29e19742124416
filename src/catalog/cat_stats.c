/*
 * cat_stats.c -- column statistics in the SQLite metastore (catalog.h,
 * schema v3 in cat_schema.c: tab_col_stats, part_col_stats).
 *
 * ANALYZE ... FOR COLUMNS writes one row per column and table or
 * partition; DESCRIBE FORMATTED t col reads them.  Statements are prepared
 * per call: these run once per analyzed column, not per row.  Every call
 * runs in one unit of work (catalog_int.h), joining the caller's
 * transaction when one is open.
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"

#include <string.h>

#define STATS_COLS                                                                                 \
  "col_name, col_type, num_nulls, num_distinct, low_value, high_value, avg_col_len, "              \
  "max_col_len, num_trues, num_falses, bit_vector, last_analyzed"

static hl_status_t prepare(hl_cat_t *cat, const char *sql, sqlite3_stmt **st, hl_error_t *err) {
  int rc = sqlite3_prepare_v2(hl_cat_sqlite_db(cat), sql, -1, st, NULL);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*st);
    *st = NULL;
    return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  }
  return HL_OK;
}

/* Binds an optional count: -1 is NULL. */
static void bind_count(sqlite3_stmt *st, int idx, int64_t v) {
  if (v < 0)
    sqlite3_bind_null(st, idx);
  else
    sqlite3_bind_int64(st, idx, v);
}

/* Binds the twelve STATS_COLS fields of S from parameter FIRST on. */
static void bind_stats(sqlite3_stmt *st, int first, const hl_cat_col_stats_t *s) {
  sqlite3_bind_text(st, first, s->col_name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, first + 1, s->col_type ? s->col_type : "", -1, SQLITE_STATIC);
  bind_count(st, first + 2, s->num_nulls);
  bind_count(st, first + 3, s->num_distinct);
  sqlite3_bind_text(st, first + 4, s->low_value, -1, SQLITE_STATIC); /* NULL binds NULL */
  sqlite3_bind_text(st, first + 5, s->high_value, -1, SQLITE_STATIC);
  if (s->avg_col_len < 0)
    sqlite3_bind_null(st, first + 6);
  else
    sqlite3_bind_double(st, first + 6, s->avg_col_len);
  bind_count(st, first + 7, s->max_col_len);
  bind_count(st, first + 8, s->num_trues);
  bind_count(st, first + 9, s->num_falses);
  if (s->bit_vector)
    sqlite3_bind_blob(st, first + 10, s->bit_vector, (int)s->bit_vector_len, SQLITE_STATIC);
  else
    sqlite3_bind_null(st, first + 10);
  sqlite3_bind_int64(st, first + 11, s->last_analyzed);
}

hl_status_t hl_cat_sq_col_stats_put(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                    const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err) {
  for (size_t i = 0; i < n; i++)
    if (!stats[i].col_name || !*stats[i].col_name || stats[i].bit_vector_len > (size_t)INT32_MAX)
      return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                        "invalid column statistics");
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   partition_id
                       ? "INSERT OR REPLACE INTO part_col_stats (part_id, tbl_id, " STATS_COLS
                         ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
                       : "INSERT OR REPLACE INTO tab_col_stats (tbl_id, " STATS_COLS
                         ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                   &st, err);
  for (size_t i = 0; status == HL_OK && i < n; i++) {
    int first = 2;
    if (partition_id) {
      sqlite3_bind_int64(st, 1, partition_id);
      sqlite3_bind_int64(st, 2, table_id);
      first = 3;
    } else {
      sqlite3_bind_int64(st, 1, table_id);
    }
    bind_stats(st, first, &stats[i]);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

static int64_t col_count(sqlite3_stmt *st, int col) {
  return sqlite3_column_type(st, col) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, col);
}

/* NULL column -> NULL; otherwise a copy in ARENA (*oom set on failure). */
static char *col_text(sqlite3_stmt *st, int col, hl_arena_t *arena, bool *oom) {
  if (sqlite3_column_type(st, col) == SQLITE_NULL) return NULL;
  const char *t = (const char *)sqlite3_column_text(st, col);
  char *out = t ? hl_arena_strndup(arena, t, (size_t)sqlite3_column_bytes(st, col)) : NULL;
  if (!out) *oom = true;
  return out;
}

/* Reads one STATS_COLS row starting at column 0 into S. */
static hl_status_t read_stats(sqlite3_stmt *st, hl_arena_t *arena, hl_cat_col_stats_t *s,
                              hl_error_t *err) {
  bool oom = false;
  memset(s, 0, sizeof *s);
  s->col_name = col_text(st, 0, arena, &oom);
  s->col_type = col_text(st, 1, arena, &oom);
  s->num_nulls = col_count(st, 2);
  s->num_distinct = col_count(st, 3);
  s->low_value = col_text(st, 4, arena, &oom);
  s->high_value = col_text(st, 5, arena, &oom);
  s->avg_col_len = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1.0 : sqlite3_column_double(st, 6);
  s->max_col_len = col_count(st, 7);
  s->num_trues = col_count(st, 8);
  s->num_falses = col_count(st, 9);
  if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
    const void *blob = sqlite3_column_blob(st, 10);
    size_t len = (size_t)sqlite3_column_bytes(st, 10);
    if (blob && len) {
      s->bit_vector = hl_arena_alloc(arena, len);
      if (!s->bit_vector)
        oom = true;
      else
        memcpy(s->bit_vector, blob, len);
      s->bit_vector_len = len;
    }
  }
  s->last_analyzed = sqlite3_column_int64(st, 11);
  s->partition_id = sqlite3_column_int64(st, 12); /* every SELECT puts it there */
  if (oom || !s->col_name || !s->col_type) return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_cat_sq_col_stats_get(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                    const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                                    hl_error_t *err) {
  *out = NULL;
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   partition_id ? "SELECT " STATS_COLS ", part_id"
                                  " FROM part_col_stats WHERE part_id = ?1 AND col_name = ?2"
                                : "SELECT " STATS_COLS ", 0"
                                  " FROM tab_col_stats WHERE tbl_id = ?1 AND col_name = ?2",
                   &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, partition_id ? partition_id : table_id);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      hl_cat_col_stats_t *s = hl_arena_alloc(arena, sizeof *s);
      status = s ? read_stats(st, arena, s, err) : hl_err_nomem(err);
      if (status == HL_OK) *out = s;
    } else if (rc != SQLITE_DONE) {
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    }
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_col_stats_list_parts(hl_cat_t *cat, int64_t table_id, const char *col,
                                           hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                           hl_error_t *err) {
  *out = NULL;
  *n = 0;
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   "SELECT " STATS_COLS ", part_id, count(*) OVER () FROM part_col_stats "
                   "WHERE tbl_id = ?1 AND col_name = ?2 ORDER BY part_id",
                   &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, table_id);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    size_t i = 0;
    int rc = SQLITE_DONE;
    while (status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (!*out) {
        int64_t total = sqlite3_column_int64(st, 13);
        if (total <= 0 || (uint64_t)total > SIZE_MAX / sizeof **out) {
          status = hl_err_nomem(err);
          break;
        }
        *out = hl_arena_zalloc(arena, sizeof **out * (size_t)total);
        *n = (size_t)total;
        if (!*out) {
          status = hl_err_nomem(err);
          break;
        }
      }
      if (i >= *n) break; /* count(*) OVER () bounds the rows */
      status = read_stats(st, arena, &(*out)[i++], err);
    }
    if (status == HL_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    if (status == HL_OK) *n = i;
  }
  sqlite3_finalize(st);
  if (status != HL_OK) {
    *out = NULL;
    *n = 0;
  }
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_col_stats_delete(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                       const char *col, bool *deleted, hl_error_t *err) {
  *deleted = false;
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status =
      prepare(cat,
              partition_id ? "DELETE FROM part_col_stats WHERE part_id = ?1 AND (?2 IS NULL OR "
                             "col_name = ?2)"
                           : "DELETE FROM tab_col_stats WHERE tbl_id = ?1 AND (?2 IS NULL OR "
                             "col_name = ?2)",
              &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, partition_id ? partition_id : table_id);
    if (col) sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    else
      *deleted = sqlite3_changes(hl_cat_sqlite_db(cat)) > 0;
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}
