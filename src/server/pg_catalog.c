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

/* PostgreSQL's catalog relations that clients name without a schema
 * (pg_catalog is always first on PostgreSQL's search path, so an
 * unqualified pg_type is pg_catalog.pg_type there too). */
static const char *const catalog_rels[] = {
    "pg_am",         "pg_attrdef",    "pg_attribute",   "pg_authid", "pg_class",     "pg_collation",
    "pg_constraint", "pg_database",   "pg_description", "pg_enum",   "pg_extension", "pg_index",
    "pg_inherits",   "pg_namespace",  "pg_proc",        "pg_range",  "pg_roles",     "pg_settings",
    "pg_tables",     "pg_tablespace", "pg_trigger",     "pg_type",   "pg_user",      "pg_views"};

/* The length of the catalog relation named at P (a whole word), or 0. */
static size_t catalog_rel_at(const char *p) {
  for (size_t i = 0; i < sizeof catalog_rels / sizeof catalog_rels[0]; i++) {
    size_t k = strlen(catalog_rels[i]);
    if (strncasecmp(p, catalog_rels[i], k) == 0 && !isalnum((unsigned char)p[k]) && p[k] != '_')
      return k;
  }
  return 0;
}

/* Lower-cased copy of S with runs of blanks as one space, and unqualified
 * catalog relations qualified with pg_catalog. (what the patterns name). */
static char *normalize(const char *s) {
  size_t n = strlen(s), extra = 0;
  for (const char *p = s; *p; p++)
    if ((p == s || (!isalnum((unsigned char)p[-1]) && p[-1] != '_' && p[-1] != '.')) &&
        catalog_rel_at(p))
      extra += sizeof "pg_catalog." - 1;
  char *out = malloc(n + extra + 1), *o = out;
  if (!out) return NULL;
  int space = 1;
  for (const char *p = s; *p; p++) {
    if ((p == s || (!isalnum((unsigned char)p[-1]) && p[-1] != '_' && p[-1] != '.')) &&
        catalog_rel_at(p)) {
      memcpy(o, "pg_catalog.", sizeof "pg_catalog." - 1);
      o += sizeof "pg_catalog." - 1;
    }
    if (isspace((unsigned char)*p)) {
      if (!space) *o++ = ' ';
      space = 1;
    } else {
      *o++ = (char)tolower((unsigned char)*p);
      space = 0;
    }
  }
  while (o > out && o[-1] == ' ')
    o--;
  *o = '\0';
  return out;
}

/* 1 when every word of WORDS ('|'-separated) occurs in S, in order. */
static int contains_in_order(const char *s, const char *words) {
  const char *at = s;
  char w[128];
  while (*words) {
    size_t n = strcspn(words, "|");
    if (n >= sizeof w) return 0;
    memcpy(w, words, n);
    w[n] = '\0';
    const char *hit = strstr(at, w);
    if (!hit) return 0;
    at = hit + n;
    words += n + (words[n] == '|');
  }
  return 1;
}

/* ---- SELECT of session functions without FROM ---- */

/* What clients ask of the session without FROM (DBeaver: "SELECT
 * current_schema(), session_user"), with PostgreSQL's column names. */
static const char *const session_functions[] = {
    "version()",       "current_schema()", "current_schema", "current_database()",
    "current_catalog", "session_user",     "current_user",   "user"};

/* The index in session_functions of the select-list item ITEM[0..LEN)
 * (an optional pg_catalog. prefix, an optional "as alias" copied into
 * ALIAS), or -1. */
static int session_function(const char *item, size_t len, char *alias, size_t cap) {
  while (len && *item == ' ')
    item++, len--;
  while (len && item[len - 1] == ' ')
    len--;
  const char *as = NULL;
  for (size_t i = 0; i + 4 <= len; i++)
    if (strncmp(item + i, " as ", 4) == 0) as = item + i;
  size_t fn_len = as ? (size_t)(as - item) : len;
  if (fn_len > 11 && strncmp(item, "pg_catalog.", 11) == 0) item += 11, fn_len -= 11;
  for (size_t k = 0; k < sizeof session_functions / sizeof session_functions[0]; k++) {
    const char *f = session_functions[k];
    if (strlen(f) != fn_len || strncmp(item, f, fn_len) != 0) continue;
    size_t name_len = as ? len - (size_t)(as + 4 - item) : strcspn(f, "(");
    const char *name = as ? as + 4 : f;
    if (name_len >= cap) return -1;
    memcpy(alias, name, name_len);
    alias[name_len] = '\0';
    if (alias[0] == '"') { /* "x" */
      memmove(alias, alias + 1, name_len);
      alias[strcspn(alias, "\"")] = '\0';
    }
    return (int)k;
  }
  return -1;
}

/* Walks the select list of N (no FROM): the session function of each
 * item into KINDS and NAMES; the count, or -1 when an item is not one. */
static int session_select(const char *n, int kinds[8], char names[8][64]) {
  if (strncmp(n, "select ", 7) != 0 || strstr(n, " from ")) return -1;
  const char *p = n + 7;
  int count = 0;
  for (;;) {
    size_t len = strcspn(p, ",;");
    if (count == 8 || (kinds[count] = session_function(p, len, names[count], 64)) < 0) return -1;
    count++;
    if (p[len] != ',') return p[len] == '\0' || p[len] == ';' ? count : -1;
    p += len + 1;
  }
}

static int answer_session(pg_conn_t *c, const char *n, pg_result_t *r) {
  int kinds[8];
  char names[8][64];
  int k = session_select(n, kinds, names);
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

/* The regular expression after KEY ("c.relname operator(pg_catalog.~) ")
 * in the normalized query, compiled into RE: 1, or 0 when absent. */
static int pattern_after(const char *n, const char *key, regex_t *re, int *bad) {
  const char *p = strstr(n, key);
  if (!p) return 0;
  p += strlen(key);
  if (*p != '\'') return 0;
  const char *end = strchr(p + 1, '\'');
  if (!end || end - p > 400) return 0;
  char pat[402];
  memcpy(pat, p + 1, (size_t)(end - p - 1));
  pat[end - p - 1] = '\0';
  if (regcomp(re, pat, REG_EXTENDED | REG_NOSUB) != 0) {
    *bad = 1;
    return 0;
  }
  return 1;
}

/* The OID in "KEY'123'". */
uint32_t pg_cat_oid_after(const char *n, const char *key) {
  /* the first KEY followed by a number ("c.oid=dsc.objoid" is a join) */
  for (const char *p = strstr(n, key); p; p = strstr(p + 1, key)) {
    const char *v = p + strlen(key);
    if (*v == '\'') v++;
    if (isdigit((unsigned char)*v)) return (uint32_t)strtoul(v, NULL, 10);
  }
  return 0;
}

/* Columns of the select list (top-level commas before " from "). */
static int select_list_count(const char *n) {
  const char *p = n + 7; /* after "select " */
  int depth = 0, count = 1;
  for (; *p; p++) {
    if (*p == '\'' || *p == '"') {
      char q = *p;
      for (p++; *p && *p != q; p++) {
      }
      if (!*p) break;
    } else if (*p == '(') {
      depth++;
    } else if (*p == ')') {
      depth--;
    } else if (*p == ',' && depth == 0) {
      count++;
    } else if (depth == 0 && strncmp(p, " from ", 6) == 0) {
      break;
    }
  }
  return count;
}

/* The name of select-list item ITEM[0..LEN): its alias ("x as name"), else
 * its last identifier ("result.table_cat"), else "?column?". */
static void item_name(const char *item, size_t len, char *out, size_t cap) {
  while (len > 0 && item[len - 1] == ' ')
    len--;
  size_t start = len;
  while (start > 0 && (isalnum((unsigned char)item[start - 1]) || item[start - 1] == '_'))
    start--;
  if (start == len || len - start >= cap) {
    snprintf(out, cap, "?column?");
    return;
  }
  memcpy(out, item + start, len - start);
  out[len - start] = '\0';
}

/* The names of the select list's columns into NAMES (up to MAX): the count. */
static int select_list_names(const char *n, char names[][64], int max) {
  const char *p = n + 7, *item = p;
  int depth = 0, count = 0;
  for (;; p++) {
    if (*p == '\'' || *p == '"') {
      char q = *p;
      for (p++; *p && *p != q; p++) {
      }
      if (!*p) break;
      continue;
    }
    if (*p == '(') depth++;
    if (*p == ')') depth--;
    int end = !*p || (depth == 0 && (*p == ',' || strncmp(p, " from ", 6) == 0));
    if (end) {
      if (count < max) item_name(item, (size_t)(p - item), names[count], 64);
      count++;
      if (*p != ',') break;
      item = p + 1;
    }
  }
  return count < max ? count : max;
}

/* A LIKE pattern after KEY ("n.nspname like ") as a regular expression;
 * after a KEY that ends in "=" or "= ", the literal name. */
int pg_cat_like_after(const char *n, const char *key, regex_t *re, int *bad) {
  const char *p = strstr(n, key);
  if (!p) return 0;
  size_t key_len = strlen(key);
  int literal = key_len >= 2 && (key[key_len - 1] == '=' || strcmp(key + key_len - 2, "= ") == 0);
  p += key_len;
  if (*p != '\'') return 0;
  char pat[1024];
  size_t k = 0;
  pat[k++] = '^';
  for (p++; *p && *p != '\'' && k + 4 < sizeof pat; p++) {
    if (literal) {
      if (strchr(".[]()*+?{}|^$\\", *p)) pat[k++] = '\\';
      pat[k++] = *p;
    } else if (*p == '\\' && p[1] && p[1] != '\'') {
      p++;
      if (!isalnum((unsigned char)*p)) pat[k++] = '\\';
      pat[k++] = *p;
    } else if (*p == '%') {
      pat[k++] = '.';
      pat[k++] = '*';
    } else if (*p == '_') {
      pat[k++] = '.';
    } else {
      if (strchr(".[]()*+?{}|^$\\", *p)) pat[k++] = '\\';
      pat[k++] = *p;
    }
  }
  pat[k++] = '$';
  pat[k] = '\0';
  if (regcomp(re, pat, REG_EXTENDED | REG_NOSUB) != 0) {
    *bad = 1;
    return 0;
  }
  return 1;
}

int pg_cat_name_after(const char *n, const char *field, regex_t *re, int *bad) {
  char key[64];
  snprintf(key, sizeof key, "%s like ", field);
  if (pg_cat_like_after(n, key, re, bad)) return 1;
  snprintf(key, sizeof key, "%s = ", field);
  if (pg_cat_like_after(n, key, re, bad)) return 1;
  snprintf(key, sizeof key, "%s=", field);
  return pg_cat_like_after(n, key, re, bad);
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
  int k = select_list_count(n);
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
  int has_db = pattern_after(n, "n.nspname operator(pg_catalog.~) ", &db_re, &bad);
  int has_tab = pattern_after(n, "c.relname operator(pg_catalog.~) ", &tab_re, &bad);
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
  int k = select_list_count(n);
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
  int k = select_list_count(n);
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
  int k = select_list_names(n, local, 64);
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
  if (session_select(n, kinds, names) > 0) return answer_session;
  for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
    if (strncmp(n, patterns[i].words, 7) == 0 && contains_in_order(n, patterns[i].words))
      return patterns[i].fn;
  if (strstr(n, "pg_catalog.") || strstr(n, "information_schema.")) return answer_empty;
  return NULL;
}

int pg_catalog_match(const char *stmt) {
  char *n = normalize(stmt);
  int hit = n && find(n) != NULL;
  free(n);
  return hit;
}

int pg_catalog_run(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  char *n = normalize(stmt);
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
