/*
 * cat_catalogs.c -- the named catalogs of CREATE CATALOG, stored in the
 * embedded SQLite metastore (catalog.h "named catalogs", schema v7 in
 * cat_schema.c).
 *
 * A catalog is a name, a type ("hms"), a comment and its properties as the
 * user gave them (the metastore URIs and the client's settings), which the
 * session hands to the backend when it first opens the catalog.  Whatever
 * backend CAT is, these act on hl_cat_local(CAT): the list of catalogs is
 * the embedded metastore's own.  Statements are prepared per call: they run
 * once per catalog statement, not per row.
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"

#include <ctype.h>
#include <string.h>
#include <time.h>

static hl_status_t prepare(hl_cat_t *cat, const char *sql, sqlite3_stmt **st, hl_error_t *err) {
  int rc = sqlite3_prepare_v2(hl_cat_sqlite_db(cat), sql, -1, st, NULL);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*st);
    *st = NULL;
    return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  }
  return HL_OK;
}

static hl_status_t step_done(hl_cat_t *cat, sqlite3_stmt *st, hl_error_t *err) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return HL_OK;
  return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
}

static char *col_text(sqlite3_stmt *st, int col, hl_arena_t *arena) {
  if (sqlite3_column_type(st, col) == SQLITE_NULL) return NULL;
  const char *t = (const char *)sqlite3_column_text(st, col);
  return hl_arena_strndup(arena, t ? t : "", (size_t)sqlite3_column_bytes(st, col));
}

#define NAME_MAX_BYTES 255

/* NAME lower-cased into BUF (NAME_MAX_BYTES + 1 bytes); false when NAME is
 * longer: no stored catalog has such a name (create refuses it). */
static bool lower(const char *name, char *buf) {
  size_t i = 0;
  for (; name[i]; i++) {
    if (i == NAME_MAX_BYTES) {
      buf[0] = '\0';
      return false;
    }
    buf[i] = (char)tolower((unsigned char)name[i]);
  }
  buf[i] = '\0';
  return true;
}

static hl_status_t too_long(hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_NAME), "a catalog name is at most %d bytes long",
                    NAME_MAX_BYTES);
}

static hl_status_t not_found(const char *name, hl_error_t *err) {
  return hl_err_set(err, HL_NOTFOUND, HL_SS(INVALID_CATALOG_NAME), "catalog \"%s\" does not exist",
                    name);
}

/* A UNIQUE clash on the name is a duplicate catalog, not an I/O error. */
static hl_status_t write_error(hl_cat_t *cat, int rc, const char *name, hl_error_t *err) {
  if ((rc & 0xff) == SQLITE_CONSTRAINT)
    return hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT), "catalog \"%s\" already exists",
                      name);
  return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
}

static hl_status_t write_props(hl_cat_t *cat, int64_t id, const hl_cat_catalog_t *c,
                               hl_error_t *err) {
  sqlite3_stmt *st = NULL;
  hl_status_t status = prepare(cat, "DELETE FROM catalog_params WHERE cat_id = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, id);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  st = NULL;
  if (status == HL_OK)
    status =
        prepare(cat, "INSERT INTO catalog_params (cat_id, idx, key, value) VALUES (?1, ?2, ?3, ?4)",
                &st, err);
  for (int i = 0; status == HL_OK && i < c->n_props; i++) {
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_text(st, 3, c->props[i].key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, c->props[i].value, -1, SQLITE_STATIC);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  return status;
}

hl_status_t hl_cat_catalog_create(hl_cat_t *cat, const hl_cat_catalog_t *c, hl_error_t *err) {
  cat = hl_cat_local(cat);
  char name[NAME_MAX_BYTES + 1];
  if (!lower(c->name, name)) return too_long(err);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   "INSERT INTO catalogs (name, type, comment, create_time, update_time) "
                   "VALUES (?1, ?2, ?3, ?4, ?4)",
                   &st, err);
  int64_t id = 0;
  if (status == HL_OK) {
    int64_t now = c->create_time ? c->create_time : (int64_t)time(NULL);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, c->type, -1, SQLITE_STATIC);
    if (c->comment)
      sqlite3_bind_text(st, 3, c->comment, -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 3);
    sqlite3_bind_int64(st, 4, now);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
      id = sqlite3_last_insert_rowid(hl_cat_sqlite_db(cat));
    else
      status = write_error(cat, rc, name, err);
  }
  sqlite3_finalize(st);
  if (status == HL_OK) status = write_props(cat, id, c, err);
  return hl_cat_op_end(cat, status, err);
}

/* The catalog row of ST (id, name, type, comment, create_time,
 * update_time) and its properties. */
static hl_status_t read_catalog(hl_cat_t *cat, sqlite3_stmt *st, hl_arena_t *arena,
                                hl_cat_catalog_t *c, hl_error_t *err) {
  memset(c, 0, sizeof *c);
  c->id = sqlite3_column_int64(st, 0);
  c->name = col_text(st, 1, arena);
  c->type = col_text(st, 2, arena);
  c->comment = col_text(st, 3, arena);
  c->create_time = sqlite3_column_int64(st, 4);
  c->update_time = sqlite3_column_int64(st, 5);
  if (!c->name || !c->type || (!c->comment && sqlite3_column_type(st, 3) != SQLITE_NULL))
    return hl_err_nomem(err);
  sqlite3_stmt *ps = NULL;
  hl_status_t status = prepare(
      cat, "SELECT key, value FROM catalog_params WHERE cat_id = ?1 ORDER BY idx", &ps, err);
  if (status != HL_OK) return status;
  sqlite3_bind_int64(ps, 1, c->id);
  int cap = 0, rc;
  while ((rc = sqlite3_step(ps)) == SQLITE_ROW) {
    if (c->n_props == cap) {
      int ncap = cap ? cap * 2 : 8;
      hl_kv_t *np = hl_arena_realloc(arena, c->props, sizeof(hl_kv_t) * (size_t)cap,
                                     sizeof(hl_kv_t) * (size_t)ncap);
      if (!np) {
        status = hl_err_nomem(err);
        break;
      }
      c->props = np;
      cap = ncap;
    }
    hl_kv_t *kv = &c->props[c->n_props++];
    kv->key = col_text(ps, 0, arena);
    kv->value = col_text(ps, 1, arena);
    if (!kv->key || !kv->value) {
      status = hl_err_nomem(err);
      break;
    }
  }
  if (status == HL_OK && rc != SQLITE_DONE)
    status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  sqlite3_finalize(ps);
  return status;
}

#define CATALOG_COLUMNS "id, name, type, comment, create_time, update_time"

hl_status_t hl_cat_catalog_get(hl_cat_t *cat, const char *name, hl_arena_t *arena,
                               hl_cat_catalog_t **out, hl_error_t *err) {
  cat = hl_cat_local(cat);
  *out = NULL;
  char lname[NAME_MAX_BYTES + 1];
  if (!lower(name, lname)) return not_found(name, err);
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat, "SELECT " CATALOG_COLUMNS " FROM catalogs WHERE name = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_text(st, 1, lname, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      hl_cat_catalog_t *c = hl_arena_zalloc(arena, sizeof *c);
      status = c ? read_catalog(cat, st, arena, c, err) : hl_err_nomem(err);
      if (status == HL_OK) *out = c;
    } else if (rc == SQLITE_DONE) {
      status = not_found(lname, err);
    } else {
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    }
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_catalog_list(hl_cat_t *cat, hl_arena_t *arena, hl_cat_catalog_t **out, size_t *n,
                                hl_error_t *err) {
  cat = hl_cat_local(cat);
  *out = NULL;
  *n = 0;
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat, "SELECT " CATALOG_COLUMNS " FROM catalogs ORDER BY id", &st, err);
  size_t cap = 0;
  int rc = SQLITE_DONE;
  while (status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (*n == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      hl_cat_catalog_t *na = hl_arena_realloc(arena, *out, sizeof **out * cap, sizeof **out * ncap);
      if (!na) {
        status = hl_err_nomem(err);
        break;
      }
      *out = na;
      cap = ncap;
    }
    status = read_catalog(cat, st, arena, &(*out)[*n], err);
    if (status == HL_OK) (*n)++;
  }
  if (status == HL_OK && rc != SQLITE_DONE)
    status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

/* The id of catalog NAME (lower-case), 3D000 when there is none. */
static hl_status_t catalog_id(hl_cat_t *cat, const char *name, int64_t *id, hl_error_t *err) {
  sqlite3_stmt *st = NULL;
  hl_status_t status = prepare(cat, "SELECT id FROM catalogs WHERE name = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
      *id = sqlite3_column_int64(st, 0);
    else if (rc == SQLITE_DONE)
      status = not_found(name, err);
    else
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  }
  sqlite3_finalize(st);
  return status;
}

hl_status_t hl_cat_catalog_update(hl_cat_t *cat, const char *name, const hl_cat_catalog_t *c,
                                  hl_error_t *err) {
  cat = hl_cat_local(cat);
  char old[NAME_MAX_BYTES + 1], nw[NAME_MAX_BYTES + 1];
  if (!lower(name, old)) return not_found(name, err);
  if (!lower(c->name, nw)) return too_long(err);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  int64_t id = 0;
  status = catalog_id(cat, old, &id, err);
  sqlite3_stmt *st = NULL;
  if (status == HL_OK)
    status =
        prepare(cat, "UPDATE catalogs SET name = ?2, comment = ?3, update_time = ?4 WHERE id = ?1",
                &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, nw, -1, SQLITE_STATIC);
    if (c->comment)
      sqlite3_bind_text(st, 3, c->comment, -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 3);
    sqlite3_bind_int64(st, 4, c->update_time ? c->update_time : (int64_t)time(NULL));
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) status = write_error(cat, rc, nw, err);
  }
  sqlite3_finalize(st);
  if (status == HL_OK) status = write_props(cat, id, c, err);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_catalog_drop(hl_cat_t *cat, const char *name, hl_error_t *err) {
  cat = hl_cat_local(cat);
  char lname[NAME_MAX_BYTES + 1];
  if (!lower(name, lname)) return not_found(name, err);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  int64_t id = 0;
  status = catalog_id(cat, lname, &id, err);
  sqlite3_stmt *st = NULL;
  /* the parameters go with the row (ON DELETE CASCADE) */
  if (status == HL_OK) status = prepare(cat, "DELETE FROM catalogs WHERE id = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, id);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}
