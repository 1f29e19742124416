/*
 * pg_catalog_int.h -- what the catalog answers share: pg_catalog.c (the
 * query shapes, psql's answers, the helpers below) and pg_catalog_tools.c
 * (the answers for pgJDBC's DatabaseMetaData, psqlODBC and DBeaver).
 */
#ifndef HL_PG_CATALOG_INT_H
#define HL_PG_CATALOG_INT_H

#include "pg_int.h"
#include "pg_sqltext.h"

#include <regex.h>

/* Runs SQL and keeps the first N_COLS (at most 8) columns of its rows as
 * text; NULL on error (ErrorResponse sent). */
pg_rows_t *pg_cat_hive_rows(pg_conn_t *c, const char *sql, int n_cols);
/* R's result with N text columns named NAMES; NULL on OOM (error sent). */
pg_rows_t *pg_cat_new_rows(pg_conn_t *c, pg_result_t *r, int n, const char *const *names);
/* The made-up, stable OID of a schema (B NULL) or a table A.B. */
uint32_t pg_cat_name_oid(const char *a, const char *b);
/* Calls FN for every (database, table) whose names match the optional
 * patterns (ONLY_CURRENT: in the current database); remembers their OIDs. */
typedef int (*pg_cat_table_fn)(pg_conn_t *c, pg_rows_t *out, const char *db, const char *table);
int pg_cat_each_table(pg_conn_t *c, regex_t *db_re, regex_t *tab_re, int only_current,
                      pg_rows_t *out, pg_cat_table_fn fn);
int pg_cat_remember(pg_conn_t *c, const char *db, const char *table);
/* A table remembered by its OID, or NULL. */
const pg_rel_t *pg_cat_rel_by_oid(pg_conn_t *c, uint32_t oid);

/* pg_catalog_tools.c: pgJDBC's getSchemas, getTables, getColumns;
 * psqlODBC's SQLTables and SQLColumns; DBeaver's start-up queries. */
int pg_cat_jdbc_schemas(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_jdbc_tables(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_jdbc_columns(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_odbc_tables(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_odbc_columns(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_dbeaver_databases(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_dbeaver_schemas(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_dbeaver_tables(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_dbeaver_columns(pg_conn_t *c, const char *n, pg_result_t *r);
int pg_cat_dbeaver_types(pg_conn_t *c, const char *n, pg_result_t *r);

#endif
