/*
 * cmd_checkpoint.c -- SHOW CHECKPOINTS and DROP CHECKPOINT: the named
 * checkpoints that PROFILE ... INCREMENTAL leaves behind (stored in the
 * embedded catalog, catalog.h "profile states, checkpoints").
 *
 *   SHOW CHECKPOINTS [FOR [[c.]db.]t]
 *     one row per checkpoint, ordered by table and name: table ("db.t"),
 *     name, field, kind (date | batch | value), value (NULL: none yet),
 *     version, updated ("yyyy-MM-dd HH:mm:ss", UTC); without FOR, every
 *     checkpoint of the current catalog.
 *   DROP CHECKPOINT [IF EXISTS] 'name' [FOR [[c.]db.]t]
 *     without FOR, the one checkpoint of that name in the current catalog
 *     (42000 when several tables have one: FOR says which).
 *
 * Checkpoints are keyed by the session's name of the table's catalog, so
 * FOR c.db.t (the dispatcher makes c the statement's catalog) reaches an
 * attached catalog's.  A table named by FOR must exist (42P01); a missing
 * checkpoint is 42704 unless IF EXISTS.
 */
#include "command/cmd_int.h"

#include "session/catalogs.h"

#include <string.h>
#include <time.h>

/* "YYYY-MM-DD HH:MM:SS" (UTC) of T in ARENA. */
static char *time_text(int64_t t, hl_arena_t *arena) {
  time_t tt = (time_t)t;
  struct tm tm;
  char buf[32];
  if (!gmtime_r(&tt, &tm) || strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm) == 0)
    return hl_arena_strdup(arena, "");
  return hl_arena_strdup(arena, buf);
}

/* The catalog name, database and table of FOR t (*db and *table NULL when
 * the statement has no FOR): the table must exist. */
static hl_status_t for_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                             const char **catalog, const char **db, const char **table,
                             hl_error_t *err) {
  *catalog = hl_catalogs_name_of(s, s->cat);
  *db = *table = NULL;
  if (!stmt->table.name) return HL_OK;
  hl_table_t *t;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  *catalog = hl_catalogs_name_of(s, hl_table_catalog(s, t));
  *db = t->cat->db_name;
  *table = t->cat->name;
  return HL_OK;
}

hl_status_t hl_cmd_show_checkpoints(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                    hl_result_t *result, hl_error_t *err) {
  static const char *const names[] = {"table", "name",    "field",  "kind",
                                      "value", "version", "updated"};
  const char *catalog, *db, *table;
  hl_status_t rc = for_table(s, stmt, arena, &catalog, &db, &table, err);
  if (rc != HL_OK) return rc;
  hl_cat_checkpoint_t *cps = NULL;
  size_t n = 0;
  rc = hl_cat_checkpoint_list(s->cat, catalog, db, table, arena, &cps, &n, err);
  if (rc != HL_OK) return rc;
  hl_rowset_t *rs = hl_rowset_create_text(arena, 7, names);
  if (!rs) return hl_err_nomem(err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const hl_cat_checkpoint_t *c = &cps[i];
    char *qname = hl_arena_sprintf(arena, "%s.%s", c->db, c->table);
    char *version = hl_arena_sprintf(arena, "%lld", (long long)c->version);
    char *updated = time_text(c->updated, arena);
    if (!qname || !version || !updated) return hl_err_nomem(err);
    const char *row[7] = {qname, c->name, c->field, c->kind, c->value, version, updated};
    rc = hl_rowset_add_text(rs, row, err);
  }
  if (rc != HL_OK) return rc;
  return hl_rowset_result(rs, result, err);
}

hl_status_t hl_cmd_drop_checkpoint(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                   hl_result_t *result, hl_error_t *err) {
  (void)result;
  const char *catalog, *db, *table;
  hl_status_t rc = for_table(s, stmt, arena, &catalog, &db, &table, err);
  if (rc != HL_OK) return rc;
  const char *name = stmt->checkpoint_name;
  if (!table) {
    /* no FOR: the table is the one whose checkpoint has that name */
    hl_cat_checkpoint_t *cps = NULL;
    size_t n = 0, found = 0;
    rc = hl_cat_checkpoint_list(s->cat, catalog, NULL, NULL, arena, &cps, &n, err);
    for (size_t i = 0; rc == HL_OK && i < n; i++) {
      if (strcmp(cps[i].name, name) != 0) continue;
      if (found++ == 0) {
        db = cps[i].db;
        table = cps[i].table;
      } else if (found == 2) {
        return hl_err_set_at(err, stmt->checkpoint_pos, HL_ERROR,
                             HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                             "checkpoint \"%s\" exists for tables \"%s.%s\" and \"%s.%s\": "
                             "say which with FOR",
                             name, db, table, cps[i].db, cps[i].table);
      }
    }
    if (rc != HL_OK) return rc;
    if (!found) {
      if (stmt->if_exists) return HL_OK;
      return hl_err_set_at(err, stmt->checkpoint_pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                           "checkpoint \"%s\" does not exist", name);
    }
  }
  rc = hl_cat_checkpoint_drop(s->cat, catalog, db, table, name, err);
  if (rc == HL_NOTFOUND && stmt->if_exists) {
    hl_err_clear(err);
    return HL_OK;
  }
  if (rc == HL_NOTFOUND) hl_err_position(err, stmt->checkpoint_pos);
  return rc;
}
