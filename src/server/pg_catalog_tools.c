/*
 * pg_catalog_tools.c -- the catalog queries of drivers and tools, answered
 * from hivelite's catalog: pgJDBC's DatabaseMetaData (getSchemas,
 * getTables, getColumns), psqlODBC's SQLTables and SQLColumns, and
 * DBeaver's navigator (database, schemas, tables, columns, types).  pg_catalog.c
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

/* ---- DBeaver ----
 * Its navigator reads the database, the schemas, each schema's tables
 * (by the schema's OID, a parameter) and their columns (by the table's or
 * the schema's OID), and the types, selecting "x.oid, x.*" of the catalog
 * relations: the answers carry the columns it reads by name (others are
 * absent, which it takes as NULL). pg_catalog is listed as a schema (the
 * types live there); it holds no tables. */

#define PG_CATALOG_OID "11"

static void typed(pg_rows_t *rows, const char *const *cols, const uint32_t *types, int n) {
  for (int i = 0; rows && i < n; i++)
    pg_rows_col(rows, i, cols[i], types[i]);
}

int pg_cat_dbeaver_databases(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {
      "oid",      "datname",       "datdba",       "encoding",     "datcollate",
      "datctype", "datistemplate", "datallowconn", "datconnlimit", "dattablespace"};
  static const uint32_t types[] = {26, 19, 26, 23, 19, 19, 16, 16, 23, 26};
  (void)n;
  pg_rows_t *rows = pg_cat_new_rows(c, r, 10, cols);
  typed(rows, cols, types, 10);
  if (!rows) return -1;
  char oid[16];
  snprintf(oid, sizeof oid, "%u", pg_cat_name_oid(c->database, NULL));
  const char *row[10] = {oid, c->database, "10", "6", "C", "C", "f", "t", "-1", "1663"};
  pg_rows_add(rows, row);
  return 0;
}

int pg_cat_dbeaver_schemas(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"oid", "nspname", "nspowner", "nspacl", "description"};
  static const uint32_t types[] = {26, 19, 26, 25, 25};
  regex_t re;
  int bad = 0, has = pg_cat_name_after(n, "nspname", &re, &bad);
  pg_rows_t *dbs = bad ? NULL : pg_cat_hive_rows(c, "SHOW DATABASES", 1);
  pg_rows_t *rows = dbs ? pg_cat_new_rows(c, r, 5, cols) : NULL;
  typed(rows, cols, types, 5);
  if (bad) pg_send_error(c, "ERROR", "22025", "invalid LIKE pattern", 0);
  /* by name, as asked (SHOW DATABASES is sorted): pg_catalog among them */
  int catalog = !has || regexec(&re, "pg_catalog", 0, NULL, 0) == 0;
  for (size_t i = 0; rows && i <= dbs->n_rows; i++) {
    const char *db = i < dbs->n_rows ? dbs->cells[i] : NULL;
    if (catalog && (!db || strcmp(db, "pg_catalog") > 0)) {
      const char *row[5] = {PG_CATALOG_OID, "pg_catalog", "10", NULL, NULL};
      pg_rows_add(rows, row);
      catalog = 0;
    }
    if (!db || (has && regexec(&re, db, 0, NULL, 0) != 0)) continue;
    char oid[16];
    snprintf(oid, sizeof oid, "%u", pg_cat_name_oid(db, NULL));
    const char *row[5] = {oid, db, "10", NULL, NULL};
    pg_rows_add(rows, row);
  }
  pg_rows_free(dbs);
  if (has) regfree(&re);
  return rows ? 0 : -1;
}

/* The Hive database whose schema OID is OID into OUT: 1, 0 when none. */
static int db_of_oid(pg_conn_t *c, uint32_t oid, char *out, size_t cap, int *err) {
  pg_rows_t *dbs = pg_cat_hive_rows(c, "SHOW DATABASES", 1);
  *err = !dbs;
  int found = 0;
  for (size_t i = 0; dbs && i < dbs->n_rows && !found; i++)
    if (dbs->cells[i] && pg_cat_name_oid(dbs->cells[i], NULL) == oid && strlen(dbs->cells[i]) < cap)
      found = snprintf(out, cap, "%s", dbs->cells[i]) > 0;
  pg_rows_free(dbs);
  return found;
}

/* A regular expression matching exactly NAME. */
static int exact(const char *name, regex_t *re) {
  char pat[300];
  size_t k = 0;
  pat[k++] = '^';
  for (const char *p = name; *p && k + 3 < sizeof pat; p++) {
    if (strchr(".[]()*+?{}|^$\\", *p)) pat[k++] = '\\';
    pat[k++] = *p;
  }
  pat[k++] = '$';
  pat[k] = '\0';
  return regcomp(re, pat, REG_EXTENDED | REG_NOSUB) == 0;
}

/* Runs EACH on the tables of the schema with OID SCHEMA (filtered by
 * TAB_RE when set); 0 when the schema is unknown, -1 on error. */
static int each_table_of(pg_conn_t *c, uint32_t schema, regex_t *tab_re, pg_rows_t *rows,
                         pg_cat_table_fn each) {
  char db[128];
  int err = 0;
  if (!db_of_oid(c, schema, db, sizeof db, &err)) return err ? -1 : 0;
  regex_t db_re;
  if (!exact(db, &db_re)) return 0;
  int rc = pg_cat_each_table(c, &db_re, tab_re, 0, rows, each);
  regfree(&db_re);
  return rc;
}

static int add_dbeaver_table(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  char oid[16], ns[16];
  snprintf(oid, sizeof oid, "%u", pg_cat_name_oid(db, t));
  snprintf(ns, sizeof ns, "%u", pg_cat_name_oid(db, NULL));
  const char *row[14] = {oid, t, ns, "10", "r", "p", "f", "f", "f", "f", "0", "f", NULL, NULL};
  pg_rows_add(out, row);
  return pg_cat_remember(c, db, t);
}

/* a schema's tables (c.relnamespace=OID, and relname='x' for one) */
int pg_cat_dbeaver_tables(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"oid",
                                     "relname",
                                     "relnamespace",
                                     "relowner",
                                     "relkind",
                                     "relpersistence",
                                     "relhasindex",
                                     "relhasrules",
                                     "relhastriggers",
                                     "relhassubclass",
                                     "relchecks",
                                     "relispartition",
                                     "description",
                                     "partition_key"};
  static const uint32_t types[] = {26, 19, 26, 26, 18, 18, 16, 16, 16, 16, 21, 16, 25, 25};
  regex_t tab_re;
  int bad = 0, has_tab = pg_cat_name_after(n, "relname", &tab_re, &bad);
  pg_rows_t *rows = bad ? NULL : pg_cat_new_rows(c, r, 14, cols);
  typed(rows, cols, types, 14);
  int rc = -1;
  if (rows)
    rc = each_table_of(c, pg_cat_oid_after(n, "c.relnamespace="), has_tab ? &tab_re : NULL, rows,
                       add_dbeaver_table);
  else if (bad)
    pg_send_error(c, "ERROR", "22025", "invalid LIKE pattern", 0);
  if (has_tab) regfree(&tab_re);
  return rc;
}

static void dbeaver_column_row(pg_rows_t *out, const column_t *col) {
  char rel[16], oid[16], len[16], num[16], mod[16];
  snprintf(rel, sizeof rel, "%u", pg_cat_name_oid(col->db, col->table));
  snprintf(oid, sizeof oid, "%u", col->type.oid);
  snprintf(len, sizeof len, "%d", (int)col->type.typlen);
  snprintf(num, sizeof num, "%d", col->attnum);
  snprintf(mod, sizeof mod, "%d", (int)col->type.typmod);
  const char *row[14] = {col->table, rel, col->name, oid, len, num,  mod,
                         "f",        "f", "",        "",  "0", NULL, col->comment};
  pg_rows_add(out, row);
}

static int add_dbeaver_columns(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  return each_column(c, out, db, t, dbeaver_column_row);
}

/* the columns of one table (c.oid=OID) or of a schema's (c.relnamespace=OID) */
int pg_cat_dbeaver_columns(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"relname",   "attrelid",    "attname",      "atttypid",
                                     "attlen",    "attnum",      "atttypmod",    "attnotnull",
                                     "atthasdef", "attidentity", "attgenerated", "attndims",
                                     "def_value", "description"};
  static const uint32_t types[] = {19, 26, 19, 26, 21, 21, 23, 16, 16, 18, 18, 23, 25, 25};
  pg_rows_t *rows = pg_cat_new_rows(c, r, 14, cols);
  typed(rows, cols, types, 14);
  if (!rows) return -1;
  uint32_t table = pg_cat_oid_after(n, "c.oid="), schema = pg_cat_oid_after(n, "c.relnamespace=");
  if (table) {
    /* a table DBeaver knows by OID was listed in this session */
    const pg_rel_t *rel = pg_cat_rel_by_oid(c, table);
    return rel ? add_dbeaver_columns(c, rows, rel->db, rel->table) : 0;
  }
  return each_table_of(c, schema, NULL, rows, add_dbeaver_columns);
}

/* the types values are sent as (pg_types.c), in pg_catalog */
int pg_cat_dbeaver_types(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {
      "oid",         "typname",     "typnamespace", "typowner", "typlen",         "typbyval",
      "typtype",     "typcategory", "typisdefined", "typrelid", "typelem",        "typarray",
      "typbasetype", "typtypmod",   "typndims",     "relkind",  "base_type_name", "description"};
  static const uint32_t types[] = {26, 19, 26, 26, 21, 16, 18, 18, 16,
                                   26, 26, 26, 26, 23, 23, 18, 25, 25};
  static const struct {
    uint32_t oid;
    const char *len, *byval, *category;
  } known[] = {{16, "1", "t", "B"},    {17, "-1", "f", "U"},  {20, "8", "t", "N"},
               {21, "2", "t", "N"},    {23, "4", "t", "N"},   {25, "-1", "f", "S"},
               {700, "4", "t", "N"},   {701, "8", "t", "N"},  {1042, "-1", "f", "S"},
               {1043, "-1", "f", "S"}, {1082, "4", "t", "D"}, {1114, "8", "t", "D"},
               {1700, "-1", "f", "N"}};
  (void)n;
  pg_rows_t *rows = pg_cat_new_rows(c, r, 18, cols);
  typed(rows, cols, types, 18);
  for (size_t i = 0; rows && i < sizeof known / sizeof known[0]; i++) {
    char oid[16];
    snprintf(oid, sizeof oid, "%u", known[i].oid);
    const char *row[18] = {oid,
                           type_name(known[i].oid),
                           PG_CATALOG_OID,
                           "10",
                           known[i].len,
                           known[i].byval,
                           "b",
                           known[i].category,
                           "t",
                           "0",
                           "0",
                           "0",
                           "0",
                           "-1",
                           "0",
                           NULL,
                           NULL,
                           NULL};
    pg_rows_add(rows, row);
  }
  return rows ? 0 : -1;
}
