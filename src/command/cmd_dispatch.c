/*
 * cmd_dispatch.c -- hl_cmd_dispatch: routes a non-query statement to its
 * handler (cmd_database.c, cmd_table.c, cmd_partition.c, cmd_show.c,
 * cmd_msck.c, cmd_set.c).
 *
 * Handlers own their catalog transaction; the dispatcher only guarantees
 * that no transaction is left open whatever a handler returns (a rollback
 * outside a transaction is a no-op).
 */
#include "command/cmd_int.h"

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
    fn = hl_cmd_use;
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
  case HL_STMT_CREATE_VIEW:
    fn = hl_cmd_create_view; /* cmd_view.c */
    break;
  case HL_STMT_DROP_VIEW:
    fn = hl_cmd_drop_view;
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
  hl_status_t rc = fn(s, stmt, arena, result, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    if (err->code == HL_OK) /* a handler must fill ERR; never report success */
      hl_err_set(err, rc, HL_SS(INTERNAL_ERROR), "command failed without a message");
    hl_err_position(err, stmt->pos);
  }
  return rc;
}
