/*
 * pg_catalog.c -- the catalog questions client tools ask in PostgreSQL's
 * SQL, recognised by their shape and answered from hivelite's catalog
 * (SHOW DATABASES, SHOW TABLES, DESCRIBE through the public API).
 *
 * This is not a SQL engine for pg_catalog: each recognised query is one
 * entry of a table of patterns (a few distinctive words the query must
 * contain, in order) with the function that answers it.  Hive databases
 * are schemas; the PostgreSQL database is the warehouse.
 */
#include "pg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef int (*answer_fn)(pg_conn_t *c, const char *stmt, pg_result_t *r);

/* Lower-cased copy of S with runs of blanks as one space. */
static char *normalize(const char *s) {
  size_t n = strlen(s);
  char *out = malloc(n + 1), *o = out;
  if (!out) return NULL;
  int space = 1;
  for (const char *p = s; *p; p++) {
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

static int one_value(pg_conn_t *c, pg_result_t *r, const char *col, const char *value) {
  r->rows = pg_rows_new(1);
  if (!r->rows) {
    pg_send_error(c, "ERROR", "53200", "out of memory", 0);
    return -1;
  }
  pg_rows_col(r->rows, 0, col, 25);
  pg_rows_add(r->rows, &value);
  snprintf(r->tag, sizeof r->tag, "SELECT");
  r->counted = 1;
  return 0;
}

static int answer_version(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  return one_value(c, r, "version",
                   "PostgreSQL " PG_SERVER_VERSION " on hivelite, a Hive table engine");
}

static int answer_current_schema(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  /* the current Hive database: hivelite has no function for it, so the
   * session remembers what SET search_path chose */
  const char *v = pg_setting_get(c, "search_path");
  return one_value(c, r, "current_schema", v ? v : "default");
}

static int answer_current_database(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  return one_value(c, r, "current_database", c->database);
}

typedef struct pattern {
  const char *words; /* in the normalized statement, in order */
  answer_fn fn;
} pattern_t;

static const pattern_t patterns[] = {
    {"select|version()", answer_version},
    {"select|current_schema", answer_current_schema},
    {"select|current_database()", answer_current_database},
};

static const pattern_t *find(const char *stmt) {
  char *n = normalize(stmt);
  if (!n) return NULL;
  const pattern_t *hit = NULL;
  /* only SELECTs, and only short ones of the known shapes */
  if (strncmp(n, "select ", 7) == 0)
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0] && !hit; i++)
      if (contains_in_order(n, patterns[i].words) && !strstr(n, " from ")) hit = &patterns[i];
  free(n);
  return hit;
}

int pg_catalog_match(const char *stmt) {
  return find(stmt) != NULL;
}

int pg_catalog_run(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  const pattern_t *p = find(stmt);
  if (!p) {
    pg_send_error(c, "ERROR", "XX000", "not a catalog query", 0);
    return -1;
  }
  return p->fn(c, stmt, r);
}
