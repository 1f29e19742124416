/*
 * cat_location.c -- which catalog objects live at or under a directory
 * (catalog.h: hl_cat_locations_within).
 *
 * A write may replace or remove only its own data.  Before an overwrite,
 * a truncate or a drop, the command layer asks which databases, tables
 * and partitions have their location at the target directory or below it,
 * so that a location shared with another object, or one that holds other
 * objects' directories, is refused instead of emptied.  Locations are
 * absolute and normalised; schema v5 indexes tbls.location and
 * partitions.location so that the question costs index probes, not a scan
 * of every partition (a dynamic overwrite asks once per partition).
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"

#include <string.h>

/* ?1 = DIR, ?2 = DIR "/", ?3 = DIR "0" ('0' follows '/'): X = DIR or X
 * under DIR, as an index range. */
#define WITHIN(x) "(" x " = ?1 OR (" x " >= ?2 AND " x " < ?3))"

static const char locations_sql[] =
    "SELECT 0, 0, name, NULL, NULL, location FROM dbs WHERE " WITHIN(
        "location") " UNION ALL "
                    "SELECT t.id, 0, d.name, t.name, NULL, t.location FROM tbls t JOIN dbs d ON "
                    "d.id = t.db_id "
                    "WHERE t.location <> '' AND " WITHIN(
                        "t.location") " UNION ALL "
                                      "SELECT t.id, p.id, d.name, t.name, p.name, p.location FROM "
                                      "partitions p "
                                      "JOIN tbls t ON t.id = p.tbl_id JOIN dbs d ON d.id = t.db_id "
                                      "WHERE " WITHIN("p.location") " ORDER BY 6, 1, 2";

/* The same objects at exactly ?1 (?2 and ?3 unused). */
static const char locations_at_sql[] =
    "SELECT 0, 0, name, NULL, NULL, location FROM dbs WHERE location = ?1 AND ?2 = ?2 AND ?3 = ?3"
    " UNION ALL "
    "SELECT t.id, 0, d.name, t.name, NULL, t.location FROM tbls t JOIN dbs d ON d.id = t.db_id "
    "WHERE t.location = ?1"
    " UNION ALL "
    "SELECT t.id, p.id, d.name, t.name, p.name, p.location FROM partitions p "
    "JOIN tbls t ON t.id = p.tbl_id JOIN dbs d ON d.id = t.db_id WHERE p.location = ?1"
    " ORDER BY 6, 1, 2";

static char *col_text(sqlite3_stmt *st, int col, hl_arena_t *arena) {
  const char *t = (const char *)sqlite3_column_text(st, col);
  return t ? hl_arena_strndup(arena, t, (size_t)sqlite3_column_bytes(st, col)) : NULL;
}

/* Appends the rows of SQL (bound to DIR, SLASH, NEXT) to *OUT. */
static hl_status_t query_locations(hl_cat_t *cat, const char *sql, const char *dir,
                                   const char *slash, const char *next, hl_arena_t *arena,
                                   hl_cat_location_user_t **out, size_t *n, size_t *cap,
                                   hl_error_t *err);

hl_status_t hl_cat_sq_locations_at(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                                   hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                                   hl_error_t *err) {
  *out = NULL;
  *n = 0;
  size_t cap = 0;
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  for (size_t i = 0; status == HL_OK && i < n_paths; i++)
    status = query_locations(cat, locations_at_sql, paths[i], "", "", arena, out, n, &cap, err);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_locations_within(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                       hl_cat_location_user_t **out, size_t *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  size_t cap = 0;
  /* "/" holds every absolute path: the range is then "/" .. "0" */
  const char *base = strcmp(dir, "/") == 0 ? "" : dir;
  char *slash = hl_arena_sprintf(arena, "%s/", base), *next = hl_arena_sprintf(arena, "%s0", base);
  if (!slash || !next) return hl_err_nomem(err);
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  status = query_locations(cat, locations_sql, dir, slash, next, arena, out, n, &cap, err);
  return hl_cat_op_end(cat, status, err);
}

static hl_status_t query_locations(hl_cat_t *cat, const char *sql, const char *dir,
                                   const char *slash, const char *next, hl_arena_t *arena,
                                   hl_cat_location_user_t **out, size_t *n, size_t *capp,
                                   hl_error_t *err) {
  hl_status_t status = HL_OK;
  sqlite3 *db = hl_cat_sqlite_db(cat);
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) status = hl_cat_sqlite_error(db, rc, err);
  if (status == HL_OK) {
    sqlite3_bind_text(st, 1, dir, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, slash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, next, -1, SQLITE_STATIC);
  }
  size_t cap = *capp;
  while (status == HL_OK) {
    rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      status = hl_cat_sqlite_error(db, rc, err);
      break;
    }
    if (*n == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      hl_cat_location_user_t *g =
          hl_arena_realloc(arena, *out, cap * sizeof **out, ncap * sizeof **out);
      if (!g) {
        status = hl_err_nomem(err);
        break;
      }
      *out = g;
      cap = ncap;
    }
    hl_cat_location_user_t *u = &(*out)[(*n)++];
    u->table_id = sqlite3_column_int64(st, 0);
    u->partition_id = sqlite3_column_int64(st, 1);
    u->db = col_text(st, 2, arena);
    u->table = col_text(st, 3, arena);
    u->partition = col_text(st, 4, arena);
    u->location = col_text(st, 5, arena);
    if (!u->db || !u->location || (u->table_id && !u->table) || (u->partition_id && !u->partition))
      status = hl_err_nomem(err);
  }
  sqlite3_finalize(st);
  *capp = cap;
  return status;
}
