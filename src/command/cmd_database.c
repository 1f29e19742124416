/*
 * cmd_database.c -- CREATE/DROP DATABASE, USE, SHOW DATABASES, DESCRIBE
 * DATABASE.
 *
 * A database's directory is WAREHOUSE/<db>.db unless LOCATION says
 * otherwise (the `default` database, created by the api layer, lives at the
 * warehouse root).  File-system changes follow the catalog: a directory is
 * created inside the catalog transaction and removed again if the commit
 * fails; data is removed only after a DROP committed.
 */
#include "command/cmd_int.h"

#include "session/catalogs.h"
#include "session/loc_allow.h"

#include <string.h>

static hl_status_t db_missing(const char *name, long pos, hl_error_t *err) {
  return hl_err_set_at(err, pos, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                       "database \"%s\" does not exist", name);
}

/* Looks DB up; *out NULL (no error) when it does not exist. */
static hl_status_t db_find(hl_session_t *s, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                           hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  *out = NULL;
  hl_status_t rc = hl_cat_db_get(s->cat, name, arena, out, &e);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(&e);
    *out = NULL;
    return HL_OK;
  }
  if (rc != HL_OK) hl_err_move(err, &e);
  return rc;
}

hl_status_t hl_cmd_create_database(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                   hl_result_t *result, hl_error_t *err) {
  const char *name = stmt->db_name;
  /* the name becomes the directory WAREHOUSE/<name>.db */
  hl_status_t rc = hl_cmd_check_name("database", name, stmt->pos, arena, err);
  if (rc != HL_OK) return rc;
  hl_cat_db_t *existing;
  rc = db_find(s, name, arena, &existing, err);
  if (rc != HL_OK) return rc;
  if (existing) {
    if (stmt->if_not_exists) return HL_OK;
    return hl_err_set_at(err, stmt->pos, HL_CONSTRAINT, HL_SS(DUPLICATE_DATABASE),
                         "database \"%s\" already exists", name);
  }
  hl_cat_db_t db = {0};
  db.name = (char *)name;
  db.comment = stmt->comment;
  db.owner = (char *)hl_cmd_owner(s);
  if (stmt->location) {
    rc = hl_cmd_resolve_location(stmt->location, NULL, stmt->pos, arena, &db.location, err);
    if (rc != HL_OK) return rc;
  } else {
    rc = hl_cmd_db_default_location(s, name, arena, &db.location, err);
    if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  }
  char *what = hl_arena_sprintf(arena, "database \"%s\"", name);
  if (!what) return hl_err_nomem(err);
  rc = hl_loc_allow_check(s, db.location, what, err);
  if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  db.n_params = stmt->props.n;
  if (stmt->props.n) {
    db.params = hl_arena_alloc(arena, sizeof(hl_kv_t) * (size_t)stmt->props.n);
    if (!db.params) return hl_err_nomem(err);
    int n = 0;
    for (int i = 0; i < stmt->props.n; i++) {
      rc = hl_cmd_kv_put(&db.params, &n, stmt->props.items[i].key, stmt->props.items[i].value,
                         arena, err);
      if (rc != HL_OK) return rc;
    }
    db.n_params = n;
  }
  char *created = NULL;
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  rc = hl_cat_db_create(s->cat, &db, err);
  if (rc == HL_OK) rc = hl_cmd_mkdirs_tracked(s, db.location, arena, &created, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    hl_cmd_undo_mkdirs(s, created);
    hl_err_position(err, stmt->pos);
  }
  return rc;
}

hl_status_t hl_cmd_drop_database(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err) {
  const char *name = stmt->db_name;
  hl_cat_db_t *db;
  hl_status_t rc = db_find(s, name, arena, &db, err);
  if (rc != HL_OK) return rc;
  if (!db) return stmt->if_exists ? HL_OK : db_missing(name, stmt->pos, err);
  if (strcmp(db->name, "default") == 0)
    return hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                         "cannot drop the default database");
  char **tables;
  size_t n_tables;
  rc = hl_cat_table_list(s->cat, db->name, arena, &tables, &n_tables, err);
  if (rc != HL_OK) return rc;
  if (n_tables && !stmt->cascade)
    return hl_err_set_at(err, stmt->pos, HL_CONSTRAINT, HL_SS(DEPENDENT_OBJECTS_STILL_EXIST),
                         "database \"%s\" is not empty: it holds %zu table%s (use CASCADE)",
                         db->name, n_tables, n_tables == 1 ? "" : "s");
  hl_cat_table_t **cats = hl_arena_alloc(arena, sizeof(*cats) * (n_tables + 1));
  if (!cats) return hl_err_nomem(err);
  for (size_t i = 0; i < n_tables; i++) {
    rc = hl_cat_table_get(s->cat, db->name, tables[i], arena, &cats[i], err);
    if (rc != HL_OK) return rc;
  }
  /* The directory goes only if it is the default one and now empty (a
   * database named before names were checked may have none). */
  char *def = NULL;
  hl_error_t ignored;
  hl_err_init(&ignored);
  bool own_dir = hl_cmd_db_default_location(s, db->name, arena, &def, &ignored) == HL_OK &&
                 strcmp(def, db->location) == 0 && hl_cmd_path_removable(s, def);
  hl_err_clear(&ignored);
  rc = hl_cmd_drop_tables(s, cats, (int)n_tables, db->name, own_dir ? def : NULL, arena, err);
  if (rc != HL_OK) return rc;
  if (own_dir) s->fs->ops->rmdir(s->fs, def, &ignored);
  hl_err_clear(&ignored);
  hl_cat_t *current = NULL;
  hl_catalogs_get(s, NULL, 0, &current, &ignored); /* cannot fail for NULL */
  /* the current database is the current catalog's (DROP DATABASE c.db runs
   * with s->cat set to c: cmd_dispatch.c) */
  if (s->current_db && current == s->cat && strcmp(s->current_db, db->name) == 0) {
    char *dflt = hl_strdup("default");
    if (!dflt) return hl_err_nomem(err);
    hl_free(s->current_db);
    s->current_db = dflt;
  }
  return HL_OK;
}

hl_status_t hl_cmd_use(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                       hl_result_t *result, hl_error_t *err) {
  hl_cat_db_t *db;
  hl_status_t rc = db_find(s, stmt->db_name, arena, &db, err);
  if (rc != HL_OK) return rc;
  if (!db) return db_missing(stmt->db_name, stmt->pos, err);
  char *name = hl_strdup(db->name);
  if (!name) return hl_err_nomem(err);
  hl_free(s->current_db);
  s->current_db = name;
  return HL_OK;
}

hl_status_t hl_cmd_show_databases(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                  hl_result_t *result, hl_error_t *err) {
  char **names;
  size_t n;
  hl_status_t rc = hl_cat_db_list(s->cat, arena, &names, &n, err);
  if (rc != HL_OK) return rc;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (!stmt->like_pattern || hl_like_match(stmt->like_pattern, names[i]))
      names[kept++] = names[i];
  hl_cmd_sort_strings(names, kept);
  return hl_cmd_lines_result(arena, "database_name", names, kept, result, err);
}

hl_status_t hl_cmd_describe_database(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                     hl_result_t *result, hl_error_t *err) {
  hl_cat_db_t *db;
  hl_status_t rc = db_find(s, stmt->db_name, arena, &db, err);
  if (rc != HL_OK) return rc;
  if (!db) return db_missing(stmt->db_name, stmt->pos, err);
  static const char *const names[] = {"db_name",    "comment",    "location",
                                      "owner_name", "owner_type", "parameters"};
  hl_rowset_t *rs = hl_rowset_create_text(arena, 6, names);
  if (!rs) return hl_err_nomem(err);
  /* Hive prints parameters only for EXTENDED, as {k=v, k2=v2} */
  hl_buf_t b;
  hl_buf_init(&b);
  if (stmt->describe_mode >= 1 && db->n_params > 0) {
    hl_kv_t *kvs = hl_cmd_sorted_kvs(db->params, db->n_params, arena);
    if (!kvs) {
      hl_buf_fini(&b);
      return hl_err_nomem(err);
    }
    hl_buf_putc(&b, '{');
    for (int i = 0; i < db->n_params; i++)
      hl_buf_printf(&b, "%s%s=%s", i ? ", " : "", kvs[i].key, kvs[i].value);
    hl_buf_putc(&b, '}');
  }
  char *params = b.oom ? NULL : hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  if (!params) return hl_err_nomem(err);
  const char *row[6] = {db->name,     db->comment ? db->comment : "",
                        db->location, db->owner ? db->owner : "",
                        "USER",       params};
  rc = hl_rowset_add_text(rs, row, err);
  if (rc != HL_OK) return rc;
  return hl_rowset_result(rs, result, err);
}
