/*
 * cat_scan_state.c -- what PROFILE keeps between runs, stored in the
 * embedded SQLite metastore (catalog.h "profile states, checkpoints",
 * schema v8 in cat_schema.c): mergeable profile states per column of a
 * partition, and the named checkpoints of incremental scans with the
 * partitions each one scanned.
 *
 * Whatever backend CAT is, these act on hl_cat_local(CAT), and rows are
 * keyed by names (the session's catalog name, database, table), not ids:
 * an attached Hive Metastore's tables have no ids that last, and the
 * states of a table must survive reconnecting to it.  The bytes of a state
 * and of a fingerprint are the caller's; this file stores and returns them.
 *
 * Each call is one unit of work (hl_cat_op_begin/end: its own transaction,
 * or a savepoint in the caller's).  A put of thousands of partitions'
 * states prepares each statement once and steps it per row, so 30,000
 * rows cost tens of milliseconds (test_scan_state prints the figure).
 * Checkpoints advance by compare-and-set on their version inside a write
 * transaction (BEGIN IMMEDIATE takes the write lock first), so of two
 * scans that read one version only the first to commit advances it.
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------ */

/* A statement prepared for this call; finalized by the caller. */
static hl_status_t prepare(hl_cat_t *cat, const char *sql, sqlite3_stmt **st, hl_error_t *err) {
  int rc = sqlite3_prepare_v2(hl_cat_sqlite_db(cat), sql, -1, st, NULL);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*st);
    *st = NULL;
    return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  }
  return HL_OK;
}

static hl_status_t sqerr(hl_cat_t *cat, int rc, hl_error_t *err) {
  return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
}

/* Steps ST to its end (rows ignored). */
static hl_status_t step_done(hl_cat_t *cat, sqlite3_stmt *st, hl_error_t *err) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
  }
  return rc == SQLITE_DONE ? HL_OK : sqerr(cat, rc, err);
}

/* Binds S as text (NULL as NULL); false with ERR set on failure. */
static bool bind_text(hl_cat_t *cat, sqlite3_stmt *st, int idx, const char *s, hl_error_t *err) {
  int rc = s ? sqlite3_bind_text(st, idx, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, idx);
  if (rc != SQLITE_OK) sqerr(cat, rc, err);
  return rc == SQLITE_OK;
}

/* Binds the (catalog, db, table) key to parameters 1..3: the SQL texts
 * lower-case them with hl_lower(). */
static bool bind_table(hl_cat_t *cat, sqlite3_stmt *st, const char *catalog, const char *db,
                       const char *table, hl_error_t *err) {
  return bind_text(cat, st, 1, catalog, err) && bind_text(cat, st, 2, db, err) &&
         bind_text(cat, st, 3, table, err);
}

static char *col_text(sqlite3_stmt *st, int col, hl_arena_t *arena, bool *oom) {
  if (sqlite3_column_type(st, col) == SQLITE_NULL) return NULL;
  const char *t = (const char *)sqlite3_column_text(st, col);
  char *out = hl_arena_strndup(arena, t ? t : "", (size_t)sqlite3_column_bytes(st, col));
  if (!out) *oom = true;
  return out;
}

static hl_status_t misuse(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "%s", what);
}

/* Grows *ARR (elements of SIZE bytes, *CAP of them) in ARENA to hold one
 * more than N; false on OOM. */
static bool grow(hl_arena_t *arena, void **arr, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return true;
  size_t ncap = *cap ? *cap * 2 : 16;
  void *na = hl_arena_realloc(arena, *arr, size * *cap, size * ncap);
  if (!na) return false;
  *arr = na;
  *cap = ncap;
  return true;
}

/* "db.t", or "catalog.db.t" outside the embedded catalog, lower-cased as
 * stored, for messages (static-size buffer; long names are cut). */
static const char *table_label(const char *catalog, const char *db, const char *table, char *buf,
                               size_t n) {
  bool internal = !catalog || strcasecmp(catalog, HL_CAT_INTERNAL) == 0;
  snprintf(buf, n, "%s%s%s.%s", internal ? "" : catalog, internal ? "" : ".", db ? db : "",
           table ? table : "");
  for (char *p = buf; *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  return buf;
}

static bool key_ok(const char *catalog, const char *db, const char *table) {
  return catalog && db && table;
}

/* ------------------------------------------------------------------------
 * Profile states
 * ------------------------------------------------------------------------ */

#define KEY_WHERE "catalog = hl_lower(?1) AND db = hl_lower(?2) AND tbl = hl_lower(?3)"

/* The states of the table, of partition PART only unless it is NULL. */
static hl_status_t prof_select(hl_cat_t *cat, const char *catalog, const char *db,
                               const char *table, const char *part, hl_arena_t *arena,
                               hl_cat_prof_state_t **out, size_t *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  if (!key_ok(catalog, db, table)) return misuse(err, "profile states need catalog, db and table");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   part ? "SELECT part, col, col_type, fingerprint, state, num_rows, update_time "
                          "FROM prof_states WHERE " KEY_WHERE " AND part = ?4 ORDER BY col"
                        : "SELECT part, col, col_type, fingerprint, state, num_rows, update_time "
                          "FROM prof_states WHERE " KEY_WHERE " ORDER BY part, col",
                   &st, err);
  if (status == HL_OK && !bind_table(cat, st, catalog, db, table, err)) status = err->code;
  if (status == HL_OK && part && sqlite3_bind_text(st, 4, part, -1, SQLITE_TRANSIENT) != SQLITE_OK)
    status = hl_err_nomem(err);
  size_t cap = 0;
  int rc = SQLITE_DONE;
  while (status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!grow(arena, (void **)out, &cap, *n, sizeof **out)) {
      status = hl_err_nomem(err);
      break;
    }
    hl_cat_prof_state_t *p = &(*out)[*n];
    bool oom = false;
    p->part = col_text(st, 0, arena, &oom);
    p->column = col_text(st, 1, arena, &oom);
    p->col_type = col_text(st, 2, arena, &oom);
    p->fingerprint = col_text(st, 3, arena, &oom);
    int len = sqlite3_column_bytes(st, 4);
    const void *blob = sqlite3_column_blob(st, 4);
    void *copy = hl_arena_alloc(arena, len > 0 ? (size_t)len : 1);
    if (!copy) oom = true;
    if (copy && len > 0) memcpy(copy, blob, (size_t)len);
    p->state = copy;
    p->state_len = (size_t)len;
    p->rows = sqlite3_column_int64(st, 5);
    p->updated = sqlite3_column_int64(st, 6);
    if (oom) {
      status = hl_err_nomem(err);
      break;
    }
    if (!p->part || !p->column || !p->col_type || !p->fingerprint) {
      status = hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                          "metastore is corrupt: a profile state lacks a key");
      break;
    }
    (*n)++;
  }
  if (status == HL_OK && rc != SQLITE_DONE) status = sqerr(cat, rc, err);
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_prof_list(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                             hl_arena_t *arena, hl_cat_prof_state_t **out, size_t *n,
                             hl_error_t *err) {
  return prof_select(cat, catalog, db, table, NULL, arena, out, n, err);
}

hl_status_t hl_cat_prof_get(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                            const char *part, hl_arena_t *arena, hl_cat_prof_state_t **out,
                            size_t *n, hl_error_t *err) {
  if (!part) return misuse(err, "a partition's profile states need its name");
  return prof_select(cat, catalog, db, table, part, arena, out, n, err);
}

hl_status_t hl_cat_prof_put(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                            const hl_cat_prof_state_t *states, size_t n, hl_error_t *err) {
  if (!key_ok(catalog, db, table)) return misuse(err, "profile states need catalog, db and table");
  for (size_t i = 0; i < n; i++)
    if (!states[i].part || !states[i].column || !states[i].col_type || !states[i].fingerprint ||
        (states[i].state_len > 0 && !states[i].state) || states[i].state_len > INT32_MAX)
      return misuse(err, "a profile state lacks its partition, column, type, fingerprint or bytes");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *del = NULL, *ins = NULL;
  status = prepare(cat, "DELETE FROM prof_states WHERE " KEY_WHERE " AND part = ?4", &del, err);
  if (status == HL_OK)
    status = prepare(cat,
                     "INSERT INTO prof_states (catalog, db, tbl, part, col, col_type, fingerprint, "
                     "state, num_rows, update_time) VALUES (hl_lower(?1), hl_lower(?2), "
                     "hl_lower(?3), ?4, hl_lower(?5), ?6, ?7, ?8, ?9, ?10)",
                     &ins, err);
  if (status == HL_OK && (!bind_table(cat, del, catalog, db, table, err) ||
                          !bind_table(cat, ins, catalog, db, table, err)))
    status = err->code;
  /* First every named partition loses its states (deleting one twice is
   * harmless, and runs of one partition are deleted once), then the new
   * rows go in: no hash of names needed. */
  for (size_t i = 0; status == HL_OK && i < n; i++) {
    if (i > 0 && strcmp(states[i].part, states[i - 1].part) == 0) continue;
    sqlite3_reset(del);
    if (!bind_text(cat, del, 4, states[i].part, err))
      status = err->code;
    else
      status = step_done(cat, del, err);
  }
  int64_t now = (int64_t)time(NULL);
  for (size_t i = 0; status == HL_OK && i < n; i++) {
    const hl_cat_prof_state_t *p = &states[i];
    sqlite3_reset(ins);
    int rc = SQLITE_OK;
    if (!bind_text(cat, ins, 4, p->part, err) || !bind_text(cat, ins, 5, p->column, err) ||
        !bind_text(cat, ins, 6, p->col_type, err) || !bind_text(cat, ins, 7, p->fingerprint, err))
      rc = SQLITE_ERROR;
    else if ((rc = sqlite3_bind_blob(ins, 8, p->state_len ? p->state : "", (int)p->state_len,
                                     SQLITE_STATIC)) != SQLITE_OK ||
             (rc = sqlite3_bind_int64(ins, 9, p->rows)) != SQLITE_OK ||
             (rc = sqlite3_bind_int64(ins, 10, now)) != SQLITE_OK)
      sqerr(cat, rc, err);
    if (rc != SQLITE_OK) {
      status = err->code;
      break;
    }
    rc = sqlite3_step(ins);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
      status =
          hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                     "two profile states of column \"%s\" of partition \"%s\"", p->column, p->part);
    else if (rc != SQLITE_DONE)
      status = sqerr(cat, rc, err);
  }
  sqlite3_finalize(del);
  sqlite3_finalize(ins);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_prof_drop(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                             const char *part, hl_error_t *err) {
  if (!key_ok(catalog, db, table)) return misuse(err, "profile states need catalog, db and table");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   part ? "DELETE FROM prof_states WHERE " KEY_WHERE " AND part = ?4"
                        : "DELETE FROM prof_states WHERE " KEY_WHERE,
                   &st, err);
  if (status == HL_OK && (!bind_table(cat, st, catalog, db, table, err) ||
                          (part && !bind_text(cat, st, 4, part, err))))
    status = err->code;
  if (status == HL_OK) status = step_done(cat, st, err);
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

/* ------------------------------------------------------------------------
 * Checkpoints
 * ------------------------------------------------------------------------ */

static hl_status_t cp_missing(const char *catalog, const char *db, const char *table,
                              const char *name, hl_error_t *err) {
  char label[600];
  return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                    "checkpoint \"%s\" of table \"%s\" does not exist", name,
                    table_label(catalog, db, table, label, sizeof label));
}

/* Checkpoint NAME's id and version (*ID 0: none). */
static hl_status_t cp_find(hl_cat_t *cat, const char *catalog, const char *db, const char *table,
                           const char *name, int64_t *id, int64_t *version, hl_error_t *err) {
  *id = 0;
  *version = 0;
  sqlite3_stmt *st = NULL;
  hl_status_t status = prepare(
      cat, "SELECT id, version FROM checkpoints WHERE " KEY_WHERE " AND name = ?4", &st, err);
  if (status == HL_OK &&
      (!bind_table(cat, st, catalog, db, table, err) || !bind_text(cat, st, 4, name, err)))
    status = err->code;
  if (status == HL_OK) {
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      *id = sqlite3_column_int64(st, 0);
      *version = sqlite3_column_int64(st, 1);
    } else if (rc != SQLITE_DONE) {
      status = sqerr(cat, rc, err);
    }
  }
  sqlite3_finalize(st);
  return status;
}

#define CP_COLUMNS "catalog, db, tbl, name, field, kind, value, version, update_time"

/* The checkpoint row of ST (CP_COLUMNS) into *CP. */
static hl_status_t cp_read(sqlite3_stmt *st, hl_arena_t *arena, hl_cat_checkpoint_t *cp,
                           hl_error_t *err) {
  bool oom = false;
  cp->catalog = col_text(st, 0, arena, &oom);
  cp->db = col_text(st, 1, arena, &oom);
  cp->table = col_text(st, 2, arena, &oom);
  cp->name = col_text(st, 3, arena, &oom);
  cp->field = col_text(st, 4, arena, &oom);
  cp->kind = col_text(st, 5, arena, &oom);
  cp->value = col_text(st, 6, arena, &oom);
  cp->version = sqlite3_column_int64(st, 7);
  cp->updated = sqlite3_column_int64(st, 8);
  if (oom) return hl_err_nomem(err);
  if (!cp->catalog || !cp->db || !cp->table || !cp->name || !cp->field || !cp->kind)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "metastore is corrupt: a checkpoint lacks a field");
  return HL_OK;
}

hl_status_t hl_cat_checkpoint_get(hl_cat_t *cat, const char *catalog, const char *db,
                                  const char *table, const char *name, hl_arena_t *arena,
                                  hl_cat_checkpoint_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  if (!key_ok(catalog, db, table) || !name)
    return misuse(err, "a checkpoint needs catalog, db, table and name");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat, "SELECT " CP_COLUMNS " FROM checkpoints WHERE " KEY_WHERE " AND name = ?4",
                   &st, err);
  if (status == HL_OK &&
      (!bind_table(cat, st, catalog, db, table, err) || !bind_text(cat, st, 4, name, err)))
    status = err->code;
  if (status == HL_OK) {
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
      status = cp_read(st, arena, out, err);
    else if (rc == SQLITE_DONE)
      status = cp_missing(catalog, db, table, name, err);
    else
      status = sqerr(cat, rc, err);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

static bool kind_ok(const char *kind) {
  return kind &&
         (strcmp(kind, "date") == 0 || strcmp(kind, "batch") == 0 || strcmp(kind, "value") == 0);
}

hl_status_t hl_cat_checkpoint_put(hl_cat_t *cat, const hl_cat_checkpoint_t *cp,
                                  int64_t expect_version, const char *const *scanned_parts,
                                  const char *const *scanned_fps, size_t n_scanned,
                                  hl_error_t *err) {
  if (!cp || !key_ok(cp->catalog, cp->db, cp->table) || !cp->name || !cp->field)
    return misuse(err, "a checkpoint needs catalog, db, table, name and field");
  if (!kind_ok(cp->kind)) return misuse(err, "a checkpoint's kind is date, batch or value");
  if (expect_version < 0) return misuse(err, "a checkpoint's expected version is never negative");
  for (size_t i = 0; i < n_scanned; i++)
    if (!scanned_parts[i] || !scanned_fps[i])
      return misuse(err, "a scanned partition lacks its name or fingerprint");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  int64_t id = 0, version = 0;
  sqlite3_stmt *st = NULL;
  /* The write lock is held from op_begin on (BEGIN IMMEDIATE, or the
   * caller's write transaction), so the version read here is the one the
   * update below replaces: nobody commits in between. */
  status = cp_find(cat, cp->catalog, cp->db, cp->table, cp->name, &id, &version, err);
  if (status == HL_OK && version != expect_version) {
    char label[600];
    table_label(cp->catalog, cp->db, cp->table, label, sizeof label);
    if (id == 0)
      status = hl_err_set(err, HL_CONSTRAINT, HL_SS(SERIALIZATION_FAILURE),
                          "checkpoint \"%s\" of table \"%s\" was dropped by another statement "
                          "meanwhile (expected version %lld)",
                          cp->name, label, (long long)expect_version);
    else
      status = hl_err_set(err, HL_CONSTRAINT, HL_SS(SERIALIZATION_FAILURE),
                          "checkpoint \"%s\" of table \"%s\" was %s by another scan meanwhile "
                          "(version %lld, expected %lld): run the scan again",
                          cp->name, label, expect_version == 0 ? "created" : "advanced",
                          (long long)version, (long long)expect_version);
  }
  int64_t now = (int64_t)time(NULL);
  if (status == HL_OK && id == 0) {
    status =
        prepare(cat,
                "INSERT INTO checkpoints (catalog, db, tbl, name, field, kind, value, version, "
                "update_time) VALUES (hl_lower(?1), hl_lower(?2), hl_lower(?3), ?4, "
                "hl_lower(?5), ?6, ?7, 1, ?8)",
                &st, err);
    if (status == HL_OK && (!bind_table(cat, st, cp->catalog, cp->db, cp->table, err) ||
                            !bind_text(cat, st, 4, cp->name, err)))
      status = err->code;
  } else if (status == HL_OK) {
    status = prepare(cat,
                     "UPDATE checkpoints SET field = hl_lower(?5), kind = ?6, value = ?7, "
                     "version = version + 1, update_time = ?8 WHERE id = ?4",
                     &st, err);
    if (status == HL_OK && sqlite3_bind_int64(st, 4, id) != SQLITE_OK)
      status = sqerr(cat, SQLITE_RANGE, err);
  }
  if (status == HL_OK &&
      (!bind_text(cat, st, 5, cp->field, err) || !bind_text(cat, st, 6, cp->kind, err) ||
       !bind_text(cat, st, 7, cp->value, err)))
    status = err->code;
  if (status == HL_OK && sqlite3_bind_int64(st, 8, now) != SQLITE_OK)
    status = sqerr(cat, SQLITE_RANGE, err);
  if (status == HL_OK) status = step_done(cat, st, err);
  if (status == HL_OK && id == 0) id = sqlite3_last_insert_rowid(hl_cat_sqlite_db(cat));
  sqlite3_finalize(st);
  st = NULL;
  if (status == HL_OK && n_scanned > 0)
    status = prepare(cat,
                     "INSERT INTO checkpoint_parts (cp_id, part, fingerprint) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT (cp_id, part) DO UPDATE SET fingerprint = excluded.fingerprint",
                     &st, err);
  if (status == HL_OK && n_scanned > 0 && sqlite3_bind_int64(st, 1, id) != SQLITE_OK)
    status = sqerr(cat, SQLITE_RANGE, err);
  for (size_t i = 0; status == HL_OK && i < n_scanned; i++) {
    sqlite3_reset(st);
    if (!bind_text(cat, st, 2, scanned_parts[i], err) ||
        !bind_text(cat, st, 3, scanned_fps[i], err))
      status = err->code;
    else
      status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_checkpoint_list(hl_cat_t *cat, const char *catalog, const char *db,
                                   const char *table, hl_arena_t *arena, hl_cat_checkpoint_t **out,
                                   size_t *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  /* a NULL parameter matches every row of that key column */
  status = prepare(cat,
                   "SELECT " CP_COLUMNS " FROM checkpoints "
                   "WHERE (?1 IS NULL OR catalog = hl_lower(?1)) AND (?2 IS NULL OR db = "
                   "hl_lower(?2)) AND (?3 IS NULL OR tbl = hl_lower(?3)) "
                   "ORDER BY catalog, db, tbl, name",
                   &st, err);
  if (status == HL_OK && !bind_table(cat, st, catalog, db, table, err)) status = err->code;
  size_t cap = 0;
  int rc = SQLITE_DONE;
  while (status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!grow(arena, (void **)out, &cap, *n, sizeof **out)) {
      status = hl_err_nomem(err);
      break;
    }
    status = cp_read(st, arena, &(*out)[*n], err);
    if (status == HL_OK) (*n)++;
  }
  if (status == HL_OK && rc != SQLITE_DONE) status = sqerr(cat, rc, err);
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_checkpoint_scanned(hl_cat_t *cat, const hl_cat_checkpoint_t *cp,
                                      hl_arena_t *arena, char ***parts, char ***fps, size_t *n,
                                      hl_error_t *err) {
  *parts = NULL;
  *fps = NULL;
  *n = 0;
  if (!cp || !key_ok(cp->catalog, cp->db, cp->table) || !cp->name)
    return misuse(err, "a checkpoint needs catalog, db, table and name");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  int64_t id = 0, version = 0;
  status = cp_find(cat, cp->catalog, cp->db, cp->table, cp->name, &id, &version, err);
  if (status == HL_OK && id == 0)
    status = cp_missing(cp->catalog, cp->db, cp->table, cp->name, err);
  sqlite3_stmt *st = NULL;
  if (status == HL_OK)
    status = prepare(
        cat, "SELECT part, fingerprint FROM checkpoint_parts WHERE cp_id = ?1 ORDER BY part", &st,
        err);
  if (status == HL_OK && sqlite3_bind_int64(st, 1, id) != SQLITE_OK)
    status = sqerr(cat, SQLITE_RANGE, err);
  size_t cap_p = 0, cap_f = 0;
  int rc = SQLITE_DONE;
  while (status == HL_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!grow(arena, (void **)parts, &cap_p, *n, sizeof **parts) ||
        !grow(arena, (void **)fps, &cap_f, *n, sizeof **fps)) {
      status = hl_err_nomem(err);
      break;
    }
    bool oom = false;
    (*parts)[*n] = col_text(st, 0, arena, &oom);
    (*fps)[*n] = col_text(st, 1, arena, &oom);
    if (oom) {
      status = hl_err_nomem(err);
      break;
    }
    (*n)++;
  }
  if (status == HL_OK && rc != SQLITE_DONE) status = sqerr(cat, rc, err);
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_checkpoint_drop(hl_cat_t *cat, const char *catalog, const char *db,
                                   const char *table, const char *name, hl_error_t *err) {
  if (!key_ok(catalog, db, table) || !name)
    return misuse(err, "a checkpoint needs catalog, db, table and name");
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  /* its scanned partitions go with it (ON DELETE CASCADE) */
  status = prepare(cat, "DELETE FROM checkpoints WHERE " KEY_WHERE " AND name = ?4", &st, err);
  if (status == HL_OK &&
      (!bind_table(cat, st, catalog, db, table, err) || !bind_text(cat, st, 4, name, err)))
    status = err->code;
  if (status == HL_OK) status = step_done(cat, st, err);
  if (status == HL_OK && sqlite3_changes(hl_cat_sqlite_db(cat)) == 0)
    status = cp_missing(catalog, db, table, name, err);
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

/* ------------------------------------------------------------------------
 * Following tables of other catalogs
 * ------------------------------------------------------------------------ */

/* Runs each of SQLS[0..n) with the key bound (parameters 1..5). */
static hl_status_t run_all(hl_cat_t *cat, const char *const *sqls, int n, const char *catalog,
                           const char *db, const char *table, const char *new_db,
                           const char *new_table, hl_error_t *err) {
  hl_status_t status = HL_OK;
  for (int i = 0; status == HL_OK && i < n; i++) {
    sqlite3_stmt *st = NULL;
    status = prepare(cat, sqls[i], &st, err);
    int n_params = st ? sqlite3_bind_parameter_count(st) : 0;
    if (status == HL_OK && (!bind_table(cat, st, catalog, db, table, err) ||
                            (n_params >= 4 && !bind_text(cat, st, 4, new_db, err)) ||
                            (n_params >= 5 && !bind_text(cat, st, 5, new_table, err))))
      status = err->code;
    if (status == HL_OK) status = step_done(cat, st, err);
    sqlite3_finalize(st);
  }
  return status;
}

hl_status_t hl_cat_scan_state_forget(hl_cat_t *cat, const char *catalog, const char *db,
                                     const char *table, hl_error_t *err) {
  if (!catalog || !db) return misuse(err, "forgetting scan states needs catalog and db");
  static const char *const sqls[] = {
      "DELETE FROM prof_states WHERE catalog = hl_lower(?1) AND db = hl_lower(?2) AND "
      "(?3 IS NULL OR tbl = hl_lower(?3))",
      "DELETE FROM checkpoints WHERE catalog = hl_lower(?1) AND db = hl_lower(?2) AND "
      "(?3 IS NULL OR tbl = hl_lower(?3))"};
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  status = run_all(cat, sqls, 2, catalog, db, table, NULL, NULL, err);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_scan_state_move(hl_cat_t *cat, const char *catalog, const char *db,
                                   const char *table, const char *new_db, const char *new_table,
                                   hl_error_t *err) {
  if (!key_ok(catalog, db, table) || !new_db || !new_table)
    return misuse(err, "moving scan states needs catalog, db, table and the new names");
  /* ?1..?3 the old key, ?4 ?5 the new names (?2 ?3 unused by the
   * deletes: binding an unused number is fine); the rows under the new
   * name go first (they belonged to a table no longer there) */
  static const char *const sqls[] = {
      "DELETE FROM prof_states WHERE catalog = hl_lower(?1) AND db = hl_lower(?4) AND "
      "tbl = hl_lower(?5)",
      "DELETE FROM checkpoints WHERE catalog = hl_lower(?1) AND db = hl_lower(?4) AND "
      "tbl = hl_lower(?5)",
      "UPDATE prof_states SET db = hl_lower(?4), tbl = hl_lower(?5) WHERE " KEY_WHERE,
      "UPDATE checkpoints SET db = hl_lower(?4), tbl = hl_lower(?5) WHERE " KEY_WHERE};
  bool same = strcasecmp(db, new_db) == 0 && strcasecmp(table, new_table) == 0;
  if (same) return HL_OK;
  cat = hl_cat_local(cat);
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  status = run_all(cat, sqls, 4, catalog, db, table, new_db, new_table, err);
  return hl_cat_op_end(cat, status, err);
}
