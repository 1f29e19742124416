/*
 * pg_catalog_tools.c -- the catalog queries of drivers, answered from
 * hivelite's catalog: pgJDBC's DatabaseMetaData (getSchemas, getTables,
 * getColumns) and psqlODBC's SQLTables and SQLColumns.  pg_catalog.c
 * recognises the queries (its pattern table) and calls these; the helpers
 * they share are in pg_catalog_int.h.
 *
 * Every Hive table is a table ('r', "TABLE"), views too; columns come from
 * DESCRIBE, typed as RowDescription types them (pg_types.c).
 */
#include "pg_catalog_int.h"

#include <stdio.h>
#include <string.h>

/* ---- one table's columns, for every driver ---- */

typedef struct column {
  const char *db, *table, *name, *comment;
  int attnum;
  pg_type_t type;
} column_t;

typedef void (*column_fn)(pg_rows_t *out, const column_t *col);

/* FN for each column of DB.T (DESCRIBE's, the partition keys after the
 * others) that matches c->catalog_col_re when set. */
static int each_column(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t, column_fn fn) {
  char sql[600];
  snprintf(sql, sizeof sql, "DESCRIBE `%s`.`%s`", db, t);
  pg_rows_t *d = pg_cat_hive_rows(c, sql, 3);
  if (!d) return -1;
  regex_t *col_re = c->catalog_col_re;
  int attnum = 1;
  for (size_t i = 0; i < d->n_rows; i++) {
    const char *name = d->cells[3 * i], *type = d->cells[3 * i + 1], *comment = d->cells[3 * i + 2];
    if (!name || !*name || name[0] == '#') break; /* DESCRIBE's sections */
    if (col_re && regexec(col_re, name, 0, NULL, 0) != 0) continue;
    column_t col = {db,       t,
                    name,     comment && *comment ? comment : NULL,
                    attnum++, pg_type_of(type ? type : "string")};
    fn(out, &col);
  }
  pg_rows_free(d);
  return pg_cat_remember(c, db, t);
}

/* The name of a PostgreSQL type OID in pg_type (what pg_types.c sends). */
static const char *type_name(uint32_t oid) {
  static const struct {
    uint32_t oid;
    const char *name;
  } names[] = {{16, "bool"},     {17, "bytea"},     {20, "int8"},    {21, "int2"},
               {23, "int4"},     {25, "text"},      {700, "float4"}, {701, "float8"},
               {1042, "bpchar"}, {1043, "varchar"}, {1082, "date"},  {1114, "timestamp"},
               {1700, "numeric"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].oid == oid) return names[i].name;
  return "text";
}

/* Filters of the normalized query N on schema, table and column names
 * (each "FIELD like '...'" or "FIELD = '...'"), compiled once. */
typedef struct filters {
  regex_t db, tab, col;
  int has_db, has_tab, has_col, bad;
} filters_t;

static void filters_read(filters_t *f, const char *n, const char *db_field, const char *tab_field,
                         const char *col_field) {
  f->bad = 0;
  f->has_db = pg_cat_name_after(n, db_field, &f->db, &f->bad);
  f->has_tab = pg_cat_name_after(n, tab_field, &f->tab, &f->bad);
  f->has_col = col_field && pg_cat_name_after(n, col_field, &f->col, &f->bad);
}

static void filters_free(filters_t *f) {
  if (f->has_db) regfree(&f->db);
  if (f->has_tab) regfree(&f->tab);
  if (f->has_col) regfree(&f->col);
}

/* The rows EACH adds for every table the filters select, in columns
 * COLS of type OIDs TYPES (NULL: all text); 0, or -1 with an error sent. */
static int answer_filtered(pg_conn_t *c, pg_result_t *r, const char *const *cols,
                           const uint32_t *types, int n_cols, filters_t *f, pg_cat_table_fn each) {
  int rc = -1;
  pg_rows_t *rows = f->bad ? NULL : pg_cat_new_rows(c, r, n_cols, cols);
  for (int i = 0; rows && types && i < n_cols; i++)
    pg_rows_col(rows, i, cols[i], types[i]);
  if (rows) {
    c->catalog_col_re = f->has_col ? &f->col : NULL;
    rc =
        pg_cat_each_table(c, f->has_db ? &f->db : NULL, f->has_tab ? &f->tab : NULL, 0, rows, each);
    c->catalog_col_re = NULL;
  } else if (f->bad) {
    pg_send_error(c, "ERROR", "22025", "invalid LIKE pattern", 0);
  }
  filters_free(f);
  return rc;
}

/* ---- pgJDBC ---- */

int pg_cat_jdbc_schemas(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"table_schem", "table_catalog"};
  (void)n;
  pg_rows_t *dbs = pg_cat_hive_rows(c, "SHOW DATABASES", 1);
  if (!dbs) return -1;
  pg_rows_t *rows = pg_cat_new_rows(c, r, 2, cols);
  for (size_t i = 0; rows && i < dbs->n_rows; i++) {
    const char *row[2] = {dbs->cells[i], NULL};
    pg_rows_add(rows, row);
  }
  pg_rows_free(dbs);
  return rows ? 0 : -1;
}

static int add_jdbc_table(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  const char *row[10] = {NULL, db, t, "TABLE", NULL, "", "", "", "", ""};
  pg_rows_add(out, row);
  return pg_cat_remember(c, db, t);
}

int pg_cat_jdbc_tables(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"table_cat",     "table_schem", "table_name",
                                     "table_type",    "remarks",     "type_cat",
                                     "type_schem",    "type_name",   "self_referencing_col_name",
                                     "ref_generation"};
  filters_t f;
  filters_read(&f, n, "n.nspname", "c.relname", NULL);
  return answer_filtered(c, r, cols, NULL, 10, &f, add_jdbc_table);
}

/* the attribute rows pgJDBC computes JDBC types and sizes from */
static void jdbc_column_row(pg_rows_t *out, const column_t *col) {
  char oid[16], mod[16], len[16], num[16];
  snprintf(oid, sizeof oid, "%u", col->type.oid);
  snprintf(mod, sizeof mod, "%d", (int)col->type.typmod);
  snprintf(len, sizeof len, "%d", (int)col->type.typlen);
  snprintf(num, sizeof num, "%d", col->attnum);
  const char *row[15] = {col->db, col->table, col->name, oid,  "f",          mod, len, "-1",
                         num,     NULL,       NULL,      NULL, col->comment, "0", "b"};
  pg_rows_add(out, row);
}

static int add_jdbc_columns(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  return each_column(c, out, db, t, jdbc_column_row);
}

int pg_cat_jdbc_columns(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"nspname",     "relname",     "attname",      "atttypid",
                                     "attnotnull",  "atttypmod",   "attlen",       "typtypmod",
                                     "attnum",      "attidentity", "attgenerated", "adsrc",
                                     "description", "typbasetype", "typtype"};
  filters_t f;
  filters_read(&f, n, "n.nspname", "c.relname", "attname");
  return answer_filtered(c, r, cols, NULL, 15, &f, add_jdbc_columns);
}

/* ---- psqlODBC ---- */

static int add_odbc_table(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  const char *row[3] = {t, db, "r"};
  pg_rows_add(out, row);
  return pg_cat_remember(c, db, t);
}

/* SQLTables: relname, nspname, relkind */
int pg_cat_odbc_tables(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"relname", "nspname", "relkind"};
  filters_t f;
  filters_read(&f, n, "nspname", "relname", NULL);
  return answer_filtered(c, r, cols, NULL, 3, &f, add_odbc_table);
}

/* the attribute rows psqlODBC's SQLColumns describes columns from */
static void odbc_column_row(pg_rows_t *out, const column_t *col) {
  char oid[16], mod[16], len[16], num[16], rel[16];
  snprintf(oid, sizeof oid, "%u", col->type.oid);
  snprintf(mod, sizeof mod, "%d", (int)col->type.typmod);
  snprintf(len, sizeof len, "%d", (int)col->type.typlen);
  snprintf(num, sizeof num, "%d", col->attnum);
  snprintf(rel, sizeof rel, "%u", pg_cat_name_oid(col->db, col->table));
  const char *row[18] = {col->db, col->table, col->name, oid, type_name(col->type.oid),
                         num,     len,        mod,       "f", "f",
                         "r",     rel,        NULL,      "0", "-1",
                         "0",     "",         "f"};
  pg_rows_add(out, row);
}

static int add_odbc_columns(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  return each_column(c, out, db, t, odbc_column_row);
}

/* SQLColumns */
int pg_cat_odbc_columns(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {
      "nspname",     "relname",     "attname",    "atttypid",    "typname",     "attnum",
      "attlen",      "atttypmod",   "attnotnull", "relhasrules", "relkind",     "oid",
      "pg_get_expr", "typbasetype", "typtypmod",  "?column?",    "attidentity", "relhassubclass"};
  /* typed as in PostgreSQL: the driver reads booleans through their type
   * ('f' as text would be taken for NOT NULL) */
  static const uint32_t types[] = {19, 19, 19, 26, 19, 21, 21, 23, 16,
                                   16, 18, 26, 25, 26, 23, 23, 18, 16};
  filters_t f;
  filters_read(&f, n, "n.nspname", "c.relname", "a.attname");
  return answer_filtered(c, r, cols, types, 18, &f, add_odbc_columns);
}
