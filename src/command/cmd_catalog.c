/*
 * cmd_catalog.c -- the catalog statements (Doris's): CREATE / DROP /
 * ALTER CATALOG, SHOW CATALOGS, SHOW CREATE CATALOG, SWITCH, USE c.db and
 * REFRESH CATALOG / DATABASE / TABLE.
 *
 * Catalogs are stored in the embedded metastore (catalog.h "named
 * catalogs") and opened by the session on first use (session/catalogs.h),
 * so CREATE CATALOG checks its properties but does not connect: a
 * metastore that cannot be reached is an error where the catalog is used,
 * as in Doris.  `internal` is the embedded metastore itself and cannot be
 * created, dropped, renamed or altered (42939).
 */
#include "command/cmd_int.h"

#include "session/catalogs.h"

#include <string.h>
#include <strings.h>
#include <time.h>

#define URIS_KEY "hive.metastore.uris"

static hl_status_t reserved(const hl_ast_stmt_t *stmt, const char *what, hl_error_t *err) {
  return hl_err_set_at(err, stmt->catalog_pos, HL_ERROR, HL_SS(RESERVED_NAME),
                       "catalog \"internal\" is the embedded metastore and cannot be %s", what);
}

/* The session-only catalog NAME (-m) exists, not stored: true. */
static bool session_only(const hl_session_t *s, const char *name) {
  const char *n, *u;
  for (int i = 0; hl_catalogs_session_only(s, i, &n, &u); i++)
    if (strcasecmp(n, name) == 0) return true;
  return false;
}

/* Checks the properties of a catalog: 'type'='hms' (another Doris type is
 * 0A000) and 'hive.metastore.uris', a list of thrift://host:port. */
static hl_status_t check_props(const hl_ast_stmt_t *stmt, const hl_kv_t *props, int n,
                               hl_error_t *err) {
  const char *type = hl_kv_get(props, n, "type");
  long pos = stmt->catalog_pos;
  if (!type)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "catalog \"%s\" needs the property 'type' ('hms')", stmt->catalog_name);
  if (strcasecmp(type, "hms") != 0)
    return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "catalog type '%s' is not supported yet (only 'hms')", type);
  const char *uris = hl_kv_get(props, n, URIS_KEY);
  if (!uris || !*uris)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "catalog \"%s\" needs the property '" URIS_KEY "'", stmt->catalog_name);
  for (const char *u = uris; *u;) {
    while (*u == ' ')
      u++;
    size_t len = strcspn(u, ",");
    size_t trim = len;
    while (trim > 0 && u[trim - 1] == ' ')
      trim--;
    if (trim <= 9 || strncasecmp(u, "thrift://", 9) != 0)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "invalid metastore URI \"%.*s\" in '" URIS_KEY
                           "': expected thrift://host:port",
                           (int)trim, u);
    u += len;
    if (*u == ',') u++;
  }
  return HL_OK;
}

static hl_kv_t *kvs_of(const hl_ast_kvlist_t *l, hl_arena_t *arena) {
  hl_kv_t *kv = hl_arena_alloc(arena, sizeof *kv * (size_t)(l->n ? l->n : 1));
  if (!kv) return NULL;
  for (int i = 0; i < l->n; i++) {
    kv[i].key = l->items[i].key;
    kv[i].value = l->items[i].value;
  }
  return kv;
}

hl_status_t hl_cmd_create_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                  hl_result_t *result, hl_error_t *err) {
  (void)result;
  if (hl_catalogs_is_internal(stmt->catalog_name)) return reserved(stmt, "created", err);
  hl_kv_t *props = kvs_of(&stmt->props, arena);
  if (!props) return hl_err_nomem(err);
  hl_status_t rc = check_props(stmt, props, stmt->props.n, err);
  if (rc != HL_OK) return rc;
  if (session_only(s, stmt->catalog_name)) {
    if (stmt->if_not_exists) return HL_OK;
    return hl_err_set_at(err, stmt->catalog_pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                         "catalog \"%s\" already exists", stmt->catalog_name);
  }
  hl_cat_catalog_t c = {.name = stmt->catalog_name,
                        .type = "hms",
                        .comment = stmt->comment,
                        .props = props,
                        .n_props = stmt->props.n};
  hl_error_t cerr;
  hl_err_init(&cerr);
  rc = hl_cat_catalog_create(hl_catalogs_internal(s), &c, &cerr);
  if (rc == HL_CONSTRAINT && stmt->if_not_exists) {
    hl_err_clear(&cerr);
    return HL_OK;
  }
  if (rc != HL_OK) {
    hl_err_move(err, &cerr);
    hl_err_position(err, stmt->catalog_pos);
  }
  return rc;
}

hl_status_t hl_cmd_drop_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                hl_result_t *result, hl_error_t *err) {
  (void)arena;
  (void)result;
  if (hl_catalogs_is_internal(stmt->catalog_name)) return reserved(stmt, "dropped", err);
  if (session_only(s, stmt->catalog_name))
    return hl_err_set_at(err, stmt->catalog_pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "catalog \"%s\" is attached for this session (-m) and cannot be dropped",
                         stmt->catalog_name);
  hl_error_t derr;
  hl_err_init(&derr);
  hl_status_t rc = hl_cat_catalog_drop(hl_catalogs_internal(s), stmt->catalog_name, &derr);
  if (rc == HL_NOTFOUND && stmt->if_exists) {
    hl_err_clear(&derr);
    return HL_OK;
  }
  if (rc != HL_OK) {
    hl_err_move(err, &derr);
    hl_err_position(err, stmt->catalog_pos);
    return rc;
  }
  hl_catalogs_forget(s, stmt->catalog_name);
  return HL_OK;
}

hl_status_t hl_cmd_alter_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err) {
  (void)result;
  if (hl_catalogs_is_internal(stmt->catalog_name)) return reserved(stmt, "altered", err);
  if (session_only(s, stmt->catalog_name))
    return hl_err_set_at(err, stmt->catalog_pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "catalog \"%s\" is attached for this session (-m) and cannot be altered",
                         stmt->catalog_name);
  hl_cat_t *local = hl_catalogs_internal(s);
  hl_cat_catalog_t *c;
  hl_status_t rc = hl_cat_catalog_get(local, stmt->catalog_name, arena, &c, err);
  if (rc != HL_OK) {
    hl_err_position(err, stmt->catalog_pos);
    return rc;
  }
  hl_cat_catalog_t nc = *c;
  if (stmt->alter_catalog == HL_ALTER_CATALOG_RENAME) {
    const char *to = stmt->new_catalog_name;
    if (hl_catalogs_is_internal(to))
      return hl_err_set_at(err, stmt->catalog_pos, HL_ERROR, HL_SS(RESERVED_NAME),
                           "catalog name \"internal\" is reserved for the embedded metastore");
    if (session_only(s, to))
      return hl_err_set_at(err, stmt->catalog_pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                           "catalog \"%s\" already exists", to);
    nc.name = stmt->new_catalog_name;
  } else if (stmt->alter_catalog == HL_ALTER_CATALOG_COMMENT) {
    nc.comment = stmt->comment;
  } else {
    /* SET PROPERTIES: given keys replace or join the stored ones */
    hl_kv_t *props =
        hl_arena_alloc(arena, sizeof *props * (size_t)(c->n_props + stmt->props.n + 1));
    if (!props) return hl_err_nomem(err);
    memcpy(props, c->props, sizeof *props * (size_t)c->n_props);
    int n = c->n_props;
    for (int i = 0; i < stmt->props.n; i++) {
      const hl_ast_kv_t *kv = &stmt->props.items[i];
      int k = 0;
      while (k < n && strcmp(props[k].key, kv->key) != 0)
        k++;
      if (k == n) props[n++].key = kv->key;
      props[k].value = kv->value;
    }
    hl_ast_stmt_t check = *stmt;
    rc = check_props(&check, props, n, err);
    if (rc != HL_OK) return rc;
    nc.props = props;
    nc.n_props = n;
  }
  nc.update_time = 0; /* now */
  rc = hl_cat_catalog_update(local, stmt->catalog_name, &nc, err);
  if (rc != HL_OK) {
    hl_err_position(err, stmt->catalog_pos);
    return rc;
  }
  /* the open handle was made from the old properties (or name); the
   * current catalog stays current, reopened with its new definition */
  bool was_current = strcasecmp(hl_catalogs_current(s), stmt->catalog_name) == 0;
  char *db = was_current ? hl_arena_strdup(arena, s->current_db) : NULL;
  if (was_current && !db) return hl_err_nomem(err);
  hl_catalogs_forget(s, stmt->catalog_name);
  if (was_current) {
    rc = hl_catalogs_switch(s, nc.name, db, stmt->catalog_pos, err);
    if (rc != HL_OK)
      hl_err_prefix(err,
                    "catalog \"%s\" was altered, but it could not be reopened, so "
                    "\"internal\" is current",
                    nc.name);
    return rc;
  }
  return HL_OK;
}

/* "YYYY-MM-DD HH:MM:SS" (UTC) of T in ARENA. */
static char *time_text(int64_t t, hl_arena_t *arena) {
  time_t tt = (time_t)t;
  struct tm tm;
  if (!gmtime_r(&tt, &tm)) return hl_arena_strdup(arena, "");
  char buf[32];
  strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return hl_arena_strdup(arena, buf);
}

hl_status_t hl_cmd_show_catalogs(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err) {
  static const char *const names[] = {"CatalogId",  "CatalogName",    "Type",   "IsCurrent",
                                      "CreateTime", "LastUpdateTime", "Comment"};
  hl_rowset_t *rs = hl_rowset_create_text(arena, 7, names);
  if (!rs) return hl_err_nomem(err);
  const char *current = hl_catalogs_current(s);
  const char *pat = stmt->like_pattern;
#define IS_CURRENT(n) (strcmp(current, (n)) == 0 ? "yes" : "")
  hl_status_t rc = HL_OK;
  /* internal first, with Doris's values for it: id 0, no recorded times */
  if (!pat || hl_like_match(pat, HL_CATALOG_INTERNAL)) {
    const char *row[7] = {
        "0",  HL_CATALOG_INTERNAL,     "internal", IS_CURRENT(HL_CATALOG_INTERNAL), "UNRECORDED",
        NULL, "the embedded metastore"};
    rc = hl_rowset_add_text(rs, row, err);
  }
  const char *sname, *suris;
  for (int i = 0; rc == HL_OK && hl_catalogs_session_only(s, i, &sname, &suris); i++) {
    if (pat && !hl_like_match(pat, sname)) continue;
    const char *row[7] = {NULL,
                          sname,
                          "hms",
                          IS_CURRENT(sname),
                          "UNRECORDED",
                          NULL,
                          "attached for this session (-m)"};
    rc = hl_rowset_add_text(rs, row, err);
  }
  hl_cat_catalog_t *cats = NULL;
  size_t n = 0;
  if (rc == HL_OK) rc = hl_cat_catalog_list(hl_catalogs_internal(s), arena, &cats, &n, err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const hl_cat_catalog_t *c = &cats[i];
    if (pat && !hl_like_match(pat, c->name)) continue;
    char *id = hl_arena_sprintf(arena, "%lld", (long long)c->id);
    char *ct = time_text(c->create_time, arena), *ut = time_text(c->update_time, arena);
    if (!id || !ct || !ut) return hl_err_nomem(err);
    const char *row[7] = {id, c->name, c->type, IS_CURRENT(c->name), ct, ut, c->comment};
    rc = hl_rowset_add_text(rs, row, err);
  }
#undef IS_CURRENT
  if (rc != HL_OK) return rc;
  return hl_rowset_result(rs, result, err);
}

/* Appends S as a single-quoted literal the lexer reads back unchanged. */
static void put_literal(hl_buf_t *b, const char *s) {
  hl_buf_putc(b, '\'');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\'' || *p == '\\') hl_buf_putc(b, '\\');
    if (*p < 0x20 || *p == 0x7F)
      hl_buf_printf(b, "\\%03o", *p);
    else
      hl_buf_putc(b, (char)*p);
  }
  hl_buf_putc(b, '\'');
}

hl_status_t hl_cmd_show_create_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt,
                                       hl_arena_t *arena, hl_result_t *result, hl_error_t *err) {
  static const char *const names[] = {"Catalog", "CreateCatalog"};
  if (hl_catalogs_is_internal(stmt->catalog_name))
    return hl_err_set_at(err, stmt->catalog_pos, HL_ERROR, HL_SS(RESERVED_NAME),
                         "catalog \"internal\" is the embedded metastore and has no CREATE "
                         "CATALOG statement");
  hl_cat_catalog_t *c = NULL, tmp;
  const char *sname, *suris;
  for (int i = 0; !c && hl_catalogs_session_only(s, i, &sname, &suris); i++)
    if (strcasecmp(sname, stmt->catalog_name) == 0) {
      static hl_kv_t kv[2] = {{"type", "hms"}, {URIS_KEY, NULL}};
      hl_kv_t *props = hl_arena_alloc(arena, sizeof kv);
      if (!props) return hl_err_nomem(err);
      memcpy(props, kv, sizeof kv);
      props[1].value = (char *)suris;
      tmp = (hl_cat_catalog_t){.name = (char *)sname, .type = "hms", .props = props, .n_props = 2};
      c = &tmp;
    }
  if (!c) {
    hl_status_t rc =
        hl_cat_catalog_get(hl_catalogs_internal(s), stmt->catalog_name, arena, &c, err);
    if (rc != HL_OK) {
      hl_err_position(err, stmt->catalog_pos);
      return rc;
    }
  }
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_printf(&b, "CREATE CATALOG `%s`", c->name);
  if (c->comment) {
    hl_buf_puts(&b, "\nCOMMENT ");
    put_literal(&b, c->comment);
  }
  hl_buf_puts(&b, "\nPROPERTIES (");
  for (int i = 0; i < c->n_props; i++) {
    hl_buf_puts(&b, i ? ",\n  " : "\n  ");
    put_literal(&b, c->props[i].key);
    hl_buf_puts(&b, " = ");
    put_literal(&b, hl_kv_is_secret(c->props[i].key) ? HL_KV_MASK : c->props[i].value);
  }
  hl_buf_puts(&b, "\n)");
  char *text = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  hl_rowset_t *rs = hl_rowset_create_text(arena, 2, names);
  if (!text || !rs) return hl_err_nomem(err);
  const char *row[2] = {c->name, text};
  hl_status_t rc = hl_rowset_add_text(rs, row, err);
  if (rc != HL_OK) return rc;
  return hl_rowset_result(rs, result, err);
}

/* Database DB exists in catalog CAT (3F000 otherwise, at POS). */
static hl_status_t db_exists(hl_cat_t *cat, const char *catalog, const char *db, long pos,
                             hl_arena_t *arena, hl_error_t *err) {
  hl_cat_db_t *d;
  hl_status_t rc = hl_cat_db_get(cat, db, arena, &d, err);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(err);
    return hl_err_set_at(err, pos, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                         "database \"%s\" does not exist in catalog \"%s\"", db, catalog);
  }
  return rc;
}

hl_status_t hl_cmd_switch(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err) {
  (void)arena;
  (void)result;
  return hl_catalogs_switch(s, stmt->catalog_name, NULL, stmt->catalog_pos, err);
}

hl_status_t hl_cmd_use_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err) {
  (void)result;
  hl_cat_t *cat;
  hl_status_t rc = hl_catalogs_get(s, stmt->catalog_name, stmt->catalog_pos, &cat, err);
  if (rc == HL_OK) rc = db_exists(cat, stmt->catalog_name, stmt->db_name, stmt->db_pos, arena, err);
  if (rc == HL_OK) rc = hl_catalogs_switch(s, stmt->catalog_name, stmt->db_name, stmt->pos, err);
  return rc;
}

hl_status_t hl_cmd_refresh(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err) {
  (void)result;
  hl_cat_t *cat;
  const char *catalog = stmt->catalog_name;
  long pos = stmt->catalog_pos;
  if (stmt->refresh_what == HL_REFRESH_TABLE) {
    catalog = stmt->table.catalog;
    pos = stmt->table.pos;
  }
  hl_status_t rc = hl_catalogs_get(s, catalog, pos, &cat, err);
  if (rc != HL_OK) return rc;
  if (!catalog) catalog = hl_catalogs_current(s);
  switch (stmt->refresh_what) {
  case HL_REFRESH_CATALOG:
    return hl_cat_refresh(cat, NULL, NULL, err);
  case HL_REFRESH_DATABASE:
    /* a cache may hold a database that was dropped since: the name is
     * checked after the refresh, against what the metastore has now */
    rc = hl_cat_refresh(cat, stmt->db_name, NULL, err);
    if (rc == HL_OK) rc = db_exists(cat, catalog, stmt->db_name, stmt->db_pos, arena, err);
    return rc;
  default: {
    char *db = hl_table_db_name(s, stmt->table.db, arena);
    if (!db) return hl_err_nomem(err);
    rc = hl_cat_refresh(cat, db, stmt->table.name, err);
    hl_cat_table_t *t;
    if (rc == HL_OK) rc = hl_cat_table_get(cat, db, stmt->table.name, arena, &t, err);
    if (rc != HL_OK) hl_err_position(err, stmt->table.pos);
    return rc;
  }
  }
}
