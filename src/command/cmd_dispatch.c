/*
 * cmd_dispatch.c -- hl_cmd_dispatch: routes a non-query statement to its
 * handler (cmd_database.c, cmd_table.c, cmd_partition.c, cmd_show.c,
 * cmd_msck.c, cmd_set.c, cmd_checkpoint.c, ...).
 *
 * Handlers own their catalog transaction; the dispatcher only guarantees
 * that no transaction is left open whatever a handler returns (a rollback
 * outside a transaction is a no-op).
 *
 * A statement whose target names a catalog (DROP TABLE hive.db.t, INSERT
 * INTO hive.db.t ..., SHOW TABLES FROM hive.db) runs with s->cat set to
 * that catalog for its duration: every handler acts on "the catalog", so
 * this is all it takes.  Other names in the statement (the SELECT of an
 * INSERT, CREATE TABLE ... LIKE src) resolve on their own in plan/table.c,
 * unqualified ones in the session's current catalog; s->current_db stays
 * the current catalog's, since a catalog-qualified target always names its
 * database too.
 */
#include "command/cmd_int.h"

#include "session/catalogs.h"

#include <strings.h>

/* The catalog the target of STMT names (NULL: none); *POS its position.
 * A statement with two targets in different catalogs is 0A000. */
static hl_status_t target_catalog(const hl_ast_stmt_t *stmt, const char **out, long *pos,
                                  hl_error_t *err) {
  const hl_ast_qname_t *q = NULL, *other = NULL;
  *out = NULL;
  *pos = stmt->pos;
  switch (stmt->kind) {
  case HL_STMT_SHOW_DATABASES:
  case HL_STMT_SHOW_TABLES:
  case HL_STMT_SHOW_TABLE_EXTENDED:
  case HL_STMT_CREATE_DATABASE:
  case HL_STMT_DROP_DATABASE:
  case HL_STMT_DESCRIBE_DATABASE:
  case HL_STMT_SHOW_CREATE_DATABASE:
    *out = stmt->catalog_name;
    *pos = stmt->catalog_pos;
    return HL_OK;
  case HL_STMT_CREATE_TABLE:
    q = &stmt->create_table->name;
    break;
  case HL_STMT_ALTER_TABLE:
    q = &stmt->alter_table->name;
    if (stmt->alter_table->kind == HL_ALTER_RENAME ||
        stmt->alter_table->kind == HL_ALTER_EXCHANGE_PARTITION)
      other = &stmt->alter_table->new_name;
    break;
  case HL_STMT_CREATE_VIEW:
    q = &stmt->create_view->name;
    break;
  case HL_STMT_ALTER_VIEW:
    q = &stmt->alter_table->name;
    if (stmt->alter_table->kind == HL_ALTER_RENAME) other = &stmt->alter_table->new_name;
    break;
  case HL_STMT_INSERT:
    q = &stmt->inserts[0].table;
    for (int i = 1; i < stmt->n_inserts; i++) {
      const hl_ast_qname_t *t = &stmt->inserts[i].table;
      if (strcasecmp(t->catalog ? t->catalog : "", q->catalog ? q->catalog : "") != 0)
        return hl_err_set_at(err, t->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                             "a multi-insert into tables of two catalogs is not supported yet");
    }
    break;
  case HL_STMT_DROP_TABLE:
  case HL_STMT_SHOW_COLUMNS:
  case HL_STMT_SHOW_TBLPROPERTIES:
  case HL_STMT_SHOW_CREATE_TABLE:
  case HL_STMT_SHOW_PARTITIONS:
  case HL_STMT_DESCRIBE:
  case HL_STMT_MSCK:
  case HL_STMT_LOAD_DATA:
  case HL_STMT_TRUNCATE:
  case HL_STMT_ANALYZE:
  case HL_STMT_PROFILE:
  case HL_STMT_DROP_VIEW:
  case HL_STMT_SHOW_CHECKPOINTS: /* FOR t; without it, table.catalog is NULL */
  case HL_STMT_DROP_CHECKPOINT:
    q = &stmt->table;
    break;
  default:
    return HL_OK;
  }
  if (other && strcasecmp(other->catalog ? other->catalog : "", q->catalog ? q->catalog : "") != 0)
    return hl_err_set_at(err, other->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "%s between two catalogs is not supported yet",
                         stmt->alter_table->kind == HL_ALTER_RENAME ? "RENAME"
                                                                    : "EXCHANGE PARTITION");
  *out = q->catalog;
  *pos = q->pos;
  return HL_OK;
}

hl_status_t hl_cmd_dispatch(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err) {
  hl_cmd_fn fn = NULL;
  switch (stmt->kind) {
  case HL_STMT_CREATE_DATABASE:
    fn = hl_cmd_create_database;
    break;
  case HL_STMT_DROP_DATABASE:
    fn = hl_cmd_drop_database;
    break;
  case HL_STMT_USE:
    fn = stmt->catalog_name ? hl_cmd_use_catalog : hl_cmd_use; /* cmd_catalog.c */
    break;
  case HL_STMT_CREATE_CATALOG:
    fn = hl_cmd_create_catalog;
    break;
  case HL_STMT_DROP_CATALOG:
    fn = hl_cmd_drop_catalog;
    break;
  case HL_STMT_ALTER_CATALOG:
    fn = hl_cmd_alter_catalog;
    break;
  case HL_STMT_SHOW_CATALOGS:
    fn = hl_cmd_show_catalogs;
    break;
  case HL_STMT_SHOW_FUNCTIONS:
    fn = hl_cmd_show_functions; /* cmd_show_func.c */
    break;
  case HL_STMT_DESCRIBE_FUNCTION:
    fn = hl_cmd_describe_function;
    break;
  case HL_STMT_SHOW_CHECKPOINTS:
    fn = hl_cmd_show_checkpoints; /* cmd_checkpoint.c */
    break;
  case HL_STMT_DROP_CHECKPOINT:
    fn = hl_cmd_drop_checkpoint;
    break;
  case HL_STMT_SHOW_CREATE_CATALOG:
    fn = hl_cmd_show_create_catalog;
    break;
  case HL_STMT_SWITCH:
    fn = hl_cmd_switch;
    break;
  case HL_STMT_REFRESH:
    fn = hl_cmd_refresh;
    break;
  case HL_STMT_SHOW_DATABASES:
    fn = hl_cmd_show_databases;
    break;
  case HL_STMT_DESCRIBE_DATABASE:
    fn = hl_cmd_describe_database;
    break;
  case HL_STMT_CREATE_TABLE:
    fn = hl_cmd_create_table;
    break;
  case HL_STMT_DROP_TABLE:
    fn = hl_cmd_drop_table;
    break;
  case HL_STMT_ALTER_TABLE:
    fn = hl_cmd_alter_table;
    break;
  case HL_STMT_SHOW_TABLES:
    fn = hl_cmd_show_tables;
    break;
  case HL_STMT_SHOW_COLUMNS:
    fn = hl_cmd_show_columns;
    break;
  case HL_STMT_SHOW_TBLPROPERTIES:
    fn = hl_cmd_show_tblproperties;
    break;
  case HL_STMT_SHOW_CREATE_TABLE:
    fn = hl_cmd_show_create_table;
    break;
  case HL_STMT_SHOW_CREATE_DATABASE:
    fn = hl_cmd_show_create_database; /* cmd_show.c */
    break;
  case HL_STMT_SHOW_PARTITIONS:
    fn = hl_cmd_show_partitions;
    break;
  case HL_STMT_DESCRIBE:
    fn = hl_cmd_describe;
    break;
  case HL_STMT_MSCK:
    fn = hl_cmd_msck;
    break;
  case HL_STMT_LOAD_DATA:
    fn = hl_cmd_load; /* cmd_insert.c: the crash-safe write path */
    break;
  case HL_STMT_SET:
    fn = hl_cmd_set;
    break;
  case HL_STMT_RESET:
    fn = hl_cmd_reset;
    break;
  case HL_STMT_INSERT:
    fn = hl_cmd_insert;
    break;
  case HL_STMT_TRUNCATE:
    fn = hl_cmd_truncate;
    break;
  case HL_STMT_ANALYZE:
    fn = hl_cmd_analyze; /* cmd_analyze.c */
    break;
  case HL_STMT_PROFILE:
    fn = hl_cmd_profile; /* cmd_profile.c, cmd_profile_incr.c */
    break;
  case HL_STMT_CREATE_VIEW:
    fn = hl_cmd_create_view; /* cmd_view.c */
    break;
  case HL_STMT_DROP_VIEW:
    fn = hl_cmd_drop_view;
    break;
  case HL_STMT_ALTER_VIEW:
    fn = hl_cmd_alter_view; /* cmd_view.c */
    break;
  case HL_STMT_SHOW_TABLE_EXTENDED:
    fn = hl_cmd_show_table_extended; /* cmd_show_ext.c */
    break;
  case HL_STMT_SELECT:
  case HL_STMT_EXPLAIN:
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                      "query statement passed to the command executor");
  }
  if (!fn)
    return hl_err_set_at(err, stmt->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "statement is not supported");
  const char *catalog;
  long cpos;
  hl_status_t rc = target_catalog(stmt, &catalog, &cpos, err);
  hl_cat_t *current = s->cat, *target = s->cat;
  if (rc == HL_OK && catalog) rc = hl_catalogs_get(s, catalog, cpos, &target, err);
  if (rc != HL_OK) return rc;
  s->cat = target;
  /* a view's query reads the view's catalog (as it will when it is read:
   * plan/bind.c view_rel), so it is checked there */
  bool view_elsewhere = target != current && stmt->kind == HL_STMT_CREATE_VIEW;
  hl_cat_t *outer = view_elsewhere ? hl_catalogs_resolve_in(s, target) : NULL;
  rc = fn(s, stmt, arena, result, err);
  if (view_elsewhere) hl_catalogs_resolve_in(s, outer);
  if (target != current) {
    hl_cat_rollback(target);
    s->cat = current;
  }
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    if (err->code == HL_OK) /* a handler must fill ERR; never report success */
      hl_err_set(err, rc, HL_SS(INTERNAL_ERROR), "command failed without a message");
    hl_err_position(err, stmt->pos);
  }
  return rc;
}
