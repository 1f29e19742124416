/*
 * pg_catalog.c -- the catalog questions client tools ask in PostgreSQL's
 * SQL, recognised by their shape and answered from hivelite's catalog
 * (SHOW DATABASES, SHOW TABLES, DESCRIBE through the public API).
 *
 * This is not a SQL engine for pg_catalog: each recognised query is one
 * entry of a table of patterns (distinctive words the lower-cased query
 * must contain, in order; unqualified catalog relations read as
 * pg_catalog's) with the function that answers it.  The table holds what
 * psql's \l, \dn, \dt [PATTERN] and \d TABLE send (answered here), and
 * pgJDBC's, psqlODBC's and DBeaver's questions (pg_catalog_tools.c); a
 * SELECT without FROM of session functions (version(), current_schema(),
 * session_user, ...) is answered here too.  Any other SELECT
 * that reads pg_catalog or information_schema is answered with no rows
 * (the follow-up probes of \d: indexes, constraints, triggers, policies,
 * publications), with as many columns as its select list has.
 *
 * Hive databases are schemas; the PostgreSQL database is the warehouse.
 * Object identifiers are made up but stable: a hash of the name, above
 * PostgreSQL's reserved range, remembered per session to find the table
 * again when psql asks by OID.  Name patterns (psql's '^(name)$' regular
 * expressions) are matched with POSIX extended regular expressions.
 */
#include "pg_catalog_int.h"

#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef int (*answer_fn)(pg_conn_t *c, const char *n, pg_result_t *r);

/* ---- SELECT of session functions without FROM ---- */

static int answer_session(pg_conn_t *c, const char *n, pg_result_t *r) {
  int kinds[8];
  char names[8][64];
  int k = pg_cat_session_select(n, kinds, names);
  const char *cols[8], *row[8];
  for (int i = 0; i < k; i++) {
    cols[i] = names[i];
    switch (kinds[i]) {
    case 0:
      row[i] = "PostgreSQL " PG_SERVER_VERSION " on hivelite, a Hive table engine";
      break;
    case 1:
    case 2:
      /* the current Hive database: hivelite has no function for it, so
       * the session remembers what SET search_path chose */
      row[i] = pg_setting_get(c, "search_path");
      if (!row[i]) row[i] = "default";
      break;
    case 3:
    case 4:
      row[i] = c->database;
      break;
    default:
      row[i] = c->user;
    }
  }
  pg_rows_t *rows = k > 0 ? pg_cat_new_rows(c, r, k, cols) : NULL;
  if (rows) pg_rows_add(rows, row);
  return rows ? 0 : -1;
}

/* ---- reading hivelite's catalog ---- */

/* Runs SQL and keeps the first N_COLS columns of its rows as text; NULL on
 * error (ErrorResponse sent). */
pg_rows_t *pg_cat_hive_rows(pg_conn_t *c, const char *sql, int n_cols) {
  hl_stmt_t *st = NULL;
  pg_rows_t *rows = pg_rows_new(n_cols);
  if (!rows || hl_prepare(c->db, sql, &st, NULL) != HL_OK || !st) goto fail;
  hl_status_t rc;
  while ((rc = hl_step(st)) == HL_ROW) {
    const char *v[8] = {0};
    for (int i = 0; i < n_cols && i < 8 && i < hl_column_count(st); i++)
      v[i] = hl_column_is_null(st, i) ? NULL : hl_column_text(st, i, NULL);
    pg_rows_add(rows, v);
  }
  if (rc != HL_DONE) goto fail;
  hl_finalize(st);
  return rows;
fail:
  if (c->db && hl_errcode(c->db) != HL_OK)
    pg_send_error(c, "ERROR", hl_sqlstate(c->db), hl_errmsg(c->db), 0);
  else
    pg_send_error(c, "ERROR", "53200", "out of memory", 0);
  hl_finalize(st);
  pg_rows_free(rows);
  return NULL;
}

uint32_t pg_cat_name_oid(const char *a, const char *b) {
  uint32_t h = 2166136261u;
  for (const char *p = a; *p; p++)
    h = (h ^ (unsigned char)*p) * 16777619u;
  if (b) {
    h = (h ^ '.') * 16777619u;
    for (const char *p = b; *p; p++)
      h = (h ^ (unsigned char)*p) * 16777619u;
  }
  return 100000 + h % 2000000000u; /* above PostgreSQL's own OIDs */
}

/* The current Hive database (SET search_path or USE keep it). */
static const char *current_db(pg_conn_t *c) {
  const char *v = pg_setting_get(c, "search_path");
  return v && *v && strcmp(v, "public") != 0 ? v : "default";
}

/* PostgreSQL's spelling of a Hive type (format_type). */
static void pg_type_name(const char *hive, char *out, size_t cap) {
  static const char *const map[][2] = {
      {"int", "integer"},
      {"bigint", "bigint"},
      {"smallint", "smallint"},
      {"tinyint", "smallint"},
      {"double", "double precision"},
      {"float", "real"},
      {"boolean", "boolean"},
      {"string", "text"},
      {"date", "date"},
      {"timestamp", "timestamp without time zone"},
      {"binary", "bytea"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(hive, map[i][0]) == 0) {
      snprintf(out, cap, "%s", map[i][1]);
      return;
    }
  if (strncmp(hive, "decimal", 7) == 0) {
    snprintf(out, cap, "numeric%s", hive + 7);
  } else if (strncmp(hive, "varchar", 7) == 0) {
    snprintf(out, cap, "character varying%s", hive + 7);
  } else if (strncmp(hive, "char", 4) == 0) {
    snprintf(out, cap, "character%s", hive + 4);
  } else {
    snprintf(out, cap, "text"); /* arrays, maps, structs travel as their text */
  }
}

/* Every (database, table) whose names match the optional patterns; the
 * table OIDs are remembered for later questions by OID. */
int pg_cat_each_table(pg_conn_t *c, regex_t *db_re, regex_t *tab_re, int only_current,
                      pg_rows_t *out, pg_cat_table_fn fn) {
  pg_rows_t *dbs = pg_cat_hive_rows(c, "SHOW DATABASES", 1);
  if (!dbs) return -1;
  int rc = 0;
  for (size_t i = 0; i < dbs->n_rows && rc == 0; i++) {
    const char *db = dbs->cells[i];
    if (!db || (db_re && regexec(db_re, db, 0, NULL, 0) != 0)) continue;
    if (only_current && strcmp(db, current_db(c)) != 0) continue;
    char sql[600];
    snprintf(sql, sizeof sql, "SHOW TABLES IN `%s`", db);
    if (strchr(db, '`')) continue;
    pg_rows_t *tabs = pg_cat_hive_rows(c, sql, 1);
    if (!tabs) {
      rc = -1;
      break;
    }
    for (size_t k = 0; k < tabs->n_rows && rc == 0; k++) {
      const char *t = tabs->cells[k];
      if (!t || (tab_re && regexec(tab_re, t, 0, NULL, 0) != 0)) continue;
      rc = fn(c, out, db, t);
    }
    pg_rows_free(tabs);
  }
  pg_rows_free(dbs);
  return rc;
}

int pg_cat_remember(pg_conn_t *c, const char *db, const char *table) {
  uint32_t oid = pg_cat_name_oid(db, table);
  for (int i = 0; i < c->n_rels; i++)
    if (c->rels[i].oid == oid) return 0;
  if (c->n_rels == PG_MAX_RELS) c->n_rels = 0; /* a cache: start over */
  pg_rel_t *r = &c->rels[c->n_rels];
  snprintf(r->db, sizeof r->db, "%s", db);
  snprintf(r->table, sizeof r->table, "%s", table);
  r->oid = oid;
  c->n_rels++;
  return 0;
}

const pg_rel_t *pg_cat_rel_by_oid(pg_conn_t *c, uint32_t oid) {
  for (int i = 0; i < c->n_rels; i++)
    if (c->rels[i].oid == oid) return &c->rels[i];
  return NULL;
}

/* ---- the answers ---- */

pg_rows_t *pg_cat_new_rows(pg_conn_t *c, pg_result_t *r, int n, const char *const *names) {
  r->rows = pg_rows_new(n);
  if (!r->rows) {
    pg_send_error(c, "ERROR", "53200", "out of memory", 0);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    pg_rows_col(r->rows, i, names ? names[i] : "?column?", 25);
  snprintf(r->tag, sizeof r->tag, "SELECT");
  r->counted = 1;
  return r->rows;
}

/* \l */
static int answer_databases(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"Name",  "Owner",      "Encoding",        "Collate",
                                     "Ctype", "ICU Locale", "Locale Provider", "Access privileges"};
  int k = pg_cat_select_list_count(n);
  if (k > 8) k = 8;
  pg_rows_t *rows = pg_cat_new_rows(c, r, k, cols);
  if (!rows) return -1;
  const char *row[8] = {c->database, "hivelite", "UTF8", "C", "C", NULL, "libc", NULL};
  pg_rows_add(rows, row);
  return 0;
}

/* \dn */
static int answer_schemas(pg_conn_t *c, const char *n, pg_result_t *r) {
  static const char *const cols[] = {"Name", "Owner"};
  pg_rows_t *dbs = pg_cat_hive_rows(c, "SHOW DATABASES", 1);
  if (!dbs) return -1;
  pg_rows_t *rows = pg_cat_new_rows(c, r, 2, cols);
  for (size_t i = 0; rows && i < dbs->n_rows; i++) {
    const char *row[2] = {dbs->cells[i], "hivelite"};
    pg_rows_add(rows, row);
  }
  pg_rows_free(dbs);
  return rows ? 0 : -1;
}

static int add_listed(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  const char *row[4] = {db, t, "table", "hivelite"};
  pg_rows_add(out, row);
  return pg_cat_remember(c, db, t);
}

static int add_lookup(pg_conn_t *c, pg_rows_t *out, const char *db, const char *t) {
  char oid[16];
  snprintf(oid, sizeof oid, "%u", pg_cat_name_oid(db, t));
  const char *row[3] = {oid, db, t};
  pg_rows_add(out, row);
  return pg_cat_remember(c, db, t);
}

/* \dt [PATTERN] and \d NAME's first question: tables by name patterns */
static int answer_tables(pg_conn_t *c, const char *n, pg_result_t *r, int lookup) {
  static const char *const list_cols[] = {"Schema", "Name", "Type", "Owner"};
  static const char *const lookup_cols[] = {"oid", "nspname", "relname"};
  regex_t db_re, tab_re;
  int bad = 0;
  int has_db = pg_cat_pattern_after(n, "n.nspname operator(pg_catalog.~) ", &db_re, &bad);
  int has_tab = pg_cat_pattern_after(n, "c.relname operator(pg_catalog.~) ", &tab_re, &bad);
  int rc = -1;
  if (bad) {
    pg_send_error(c, "ERROR", "2201B", "invalid regular expression", 0);
    goto out;
  }
  pg_rows_t *rows = pg_cat_new_rows(c, r, lookup ? 3 : 4, lookup ? lookup_cols : list_cols);
  if (!rows) goto out;
  /* without a schema pattern psql asks for what is visible: the current database */
  rc = pg_cat_each_table(c, has_db ? &db_re : NULL, has_tab ? &tab_re : NULL,
                         !has_db && strstr(n, "pg_table_is_visible") != NULL, rows,
                         lookup ? add_lookup : add_listed);
out:
  if (has_db) regfree(&db_re);
  if (has_tab) regfree(&tab_re);
  return rc;
}

/* \d NAME's second question: the table's flags (c.relchecks, c.relkind, ...) */
static int answer_relation(pg_conn_t *c, const char *n, pg_result_t *r) {
  const pg_rel_t *rel = pg_cat_rel_by_oid(c, pg_cat_oid_after(n, "where c.oid = "));
  int k = pg_cat_select_list_count(n);
  pg_rows_t *rows = pg_cat_new_rows(c, r, k, NULL);
  if (!rows || !rel) return rows ? 0 : -1;
  /* relchecks, relkind, relhasindex, relhasrules, relhastriggers,
   * relrowsecurity, relforcerowsecurity, relhasoids, relispartition, '',
   * reltablespace, reloftype, relpersistence, relreplident, amname */
  static const char *const v[] = {"0", "r", "f", "f", "f", "f", "f",   "f",
                                  "f", "",  "0", "",  "p", "d", "heap"};
  const char *row[32] = {0};
  for (int i = 0; i < k && i < 32; i++)
    row[i] = i < 15 ? v[i] : NULL;
  pg_rows_add(rows, row);
  return 0;
}

/* \d NAME's columns: attname, format_type, default, attnotnull, collation,
 * attidentity, attgenerated (DESCRIBE's rows, partition keys included) */
static int answer_attributes(pg_conn_t *c, const char *n, pg_result_t *r) {
  const pg_rel_t *rel = pg_cat_rel_by_oid(c, pg_cat_oid_after(n, "a.attrelid = "));
  int k = pg_cat_select_list_count(n);
  pg_rows_t *rows = pg_cat_new_rows(c, r, k, NULL);
  if (!rows || !rel) return rows ? 0 : -1;
  char sql[600];
  snprintf(sql, sizeof sql, "DESCRIBE `%s`.`%s`", rel->db, rel->table);
  pg_rows_t *d = pg_cat_hive_rows(c, sql, 2);
  if (!d) return -1;
  for (size_t i = 0; i < d->n_rows; i++) {
    const char *name = d->cells[2 * i], *type = d->cells[2 * i + 1];
    if (!name || !*name || name[0] == '#') break; /* the partition section repeats the keys */
    char pgtype[128];
    pg_type_name(type ? type : "string", pgtype, sizeof pgtype);
    const char *row[32] = {name, pgtype, NULL, "f", NULL, "", ""};
    pg_rows_add(rows, row);
  }
  pg_rows_free(d);
  return 0;
}

/* any other catalog SELECT: no rows, as many columns as it asks */
static int answer_empty(pg_conn_t *c, const char *n, pg_result_t *r) {
  char local[64][64];
  int k = pg_cat_select_list_names(n, local, 64);
  const char *ptrs[64];
  for (int i = 0; i < k; i++)
    ptrs[i] = local[i];
  return pg_cat_new_rows(c, r, k, ptrs) ? 0 : -1;
}

static int answer_list(pg_conn_t *c, const char *n, pg_result_t *r) {
  return answer_tables(c, n, r, 0);
}

static int answer_lookup(pg_conn_t *c, const char *n, pg_result_t *r) {
  return answer_tables(c, n, r, 1);
}

typedef struct pattern {
  const char *words; /* in the normalized statement, in order ('|'-separated) */
  answer_fn fn;
} pattern_t;

static const pattern_t patterns[] = {
    /* DBeaver (before psql's \l, whose words its query contains) */
    {"select db.oid,db.* from pg_catalog.pg_database db", pg_cat_dbeaver_databases},
    {"select n.oid,n.*,d.description from pg_catalog.pg_namespace n", pg_cat_dbeaver_schemas},
    {"select c.oid,c.*,d.description|from pg_catalog.pg_class c|where c.relnamespace=",
     pg_cat_dbeaver_tables},
    {"select c.relname,a.*|from pg_catalog.pg_attribute a|inner join pg_catalog.pg_class c",
     pg_cat_dbeaver_columns},
    {"select t.oid,t.*,c.relkind|from pg_catalog.pg_type t", pg_cat_dbeaver_types},
    {"select |from pg_catalog.pg_database d", answer_databases},
    {"select n.nspname as \"name\"|from pg_catalog.pg_namespace n", answer_schemas},
    {"select n.nspname as \"schema\", c.relname as \"name\"|from pg_catalog.pg_class c|"
     "c.relkind in (",
     answer_list},
    {"select c.oid, n.nspname, c.relname from pg_catalog.pg_class c", answer_lookup},
    {"select c.relchecks, c.relkind|from pg_catalog.pg_class c|where c.oid = ", answer_relation},
    {"select a.attname|from pg_catalog.pg_attribute a|a.attrelid = ", answer_attributes},
    {"select nspname as table_schem, null as table_catalog from pg_catalog.pg_namespace",
     pg_cat_jdbc_schemas},
    {"select null as table_cat, n.nspname as table_schem, c.relname as table_name|"
     "from pg_catalog.pg_namespace n, pg_catalog.pg_class c",
     pg_cat_jdbc_tables},
    {"select * from (select n.nspname,c.relname,a.attname,a.atttypid", pg_cat_jdbc_columns},
    /* psqlODBC: SQLTables, SQLColumns */
    {"select relname, nspname, relkind from pg_catalog.pg_class c, pg_catalog.pg_namespace n",
     pg_cat_odbc_tables},
    {"select n.nspname, c.relname, a.attname, a.atttypid, t.typname, a.attnum, a.attlen, "
     "a.atttypmod, a.attnotnull, c.relhasrules",
     pg_cat_odbc_columns},
};

/* The answer for normalized N, or NULL. */
static answer_fn find(const char *n) {
  if (strncmp(n, "select ", 7) != 0) return NULL;
  int kinds[8];
  char names[8][64];
  if (pg_cat_session_select(n, kinds, names) > 0) return answer_session;
  for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
    if (strncmp(n, patterns[i].words, 7) == 0 && pg_cat_contains_in_order(n, patterns[i].words))
      return patterns[i].fn;
  if (strstr(n, "pg_catalog.") || strstr(n, "information_schema.")) return answer_empty;
  return NULL;
}

int pg_catalog_match(const char *stmt) {
  char *n = pg_cat_normalize(stmt);
  int hit = n && find(n) != NULL;
  free(n);
  return hit;
}

int pg_catalog_run(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  char *n = pg_cat_normalize(stmt);
  answer_fn fn = n ? find(n) : NULL;
  int rc;
  if (!fn) {
    pg_send_error(c, "ERROR", n ? "XX000" : "53200", n ? "not a catalog query" : "out of memory",
                  0);
    rc = -1;
  } else {
    rc = fn(c, n, r);
  }
  free(n);
  return rc;
}
