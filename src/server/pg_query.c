/*
 * pg_query.c -- statements of a query string: where each one ends, which
 * ones the server answers itself (transaction control, client settings,
 * catalog queries), and sending a result as RowDescription, DataRows and
 * CommandComplete; the simple query protocol (Q) on top.
 *
 * Transactions: every hivelite statement commits on its own (writes are
 * atomic per statement), so BEGIN / COMMIT / ROLLBACK only move the status
 * ReadyForQuery reports, as clients with autocommit off expect.  After an
 * error inside BEGIN, statements are refused with 25P02 until the block
 * ends, as in PostgreSQL; but what ran before the error stays written
 * (docs/server.md says so).
 */
#include "pg_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- local rows ---- */

pg_rows_t *pg_rows_new(int n_cols) {
  pg_rows_t *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->n_cols = n_cols;
  r->cols = calloc((size_t)n_cols ? (size_t)n_cols : 1, sizeof *r->cols);
  if (!r->cols) {
    free(r);
    return NULL;
  }
  return r;
}

void pg_rows_free(pg_rows_t *r) {
  if (!r) return;
  for (int i = 0; i < r->n_cols; i++)
    free(r->cols[i].name);
  for (size_t i = 0; i < r->n_rows * (size_t)r->n_cols; i++)
    free(r->cells[i]);
  free(r->cells);
  free(r->cols);
  free(r);
}

void pg_rows_col(pg_rows_t *r, int col, const char *name, uint32_t oid) {
  free(r->cols[col].name);
  r->cols[col].name = strdup(name);
  if (!r->cols[col].name) r->oom = 1;
  r->cols[col].oid = oid;
  /* PostgreSQL's lengths: int4, oid 4; int8 8; int2 2; bool, "char" 1; name 64 */
  r->cols[col].typlen = oid == 23 || oid == 26   ? 4
                        : oid == 20              ? 8
                        : oid == 21              ? 2
                        : oid == 16 || oid == 18 ? 1
                        : oid == 19              ? 64
                                                 : -1;
  r->cols[col].typmod = -1;
}

void pg_rows_add(pg_rows_t *r, const char *const *values) {
  if (r->oom) return;
  if (r->n_rows == r->cap_rows) {
    size_t cap = r->cap_rows ? r->cap_rows * 2 : 16;
    char **cells = realloc(r->cells, cap * (size_t)r->n_cols * sizeof *cells);
    if (!cells) {
      r->oom = 1;
      return;
    }
    r->cells = cells;
    r->cap_rows = cap;
  }
  char **row = r->cells + r->n_rows * (size_t)r->n_cols;
  for (int i = 0; i < r->n_cols; i++) {
    row[i] = values[i] ? strdup(values[i]) : NULL;
    if (values[i] && !row[i]) r->oom = 1;
  }
  r->n_rows++;
}

void pg_result_free(pg_result_t *r) {
  hl_finalize(r->stmt);
  pg_rows_free(r->rows);
  memset(r, 0, sizeof *r);
}

/* ---- splitting and classifying ---- */

size_t pg_stmt_end(const char *sql) {
  const char *p = sql;
  while (*p) {
    char ch = *p;
    if (ch == '\'' || ch == '"') {
      /* the session's strings are standard (pg_conn.c): a backslash escapes
       * the next byte only in E'...'; a doubled quote reads as a string
       * closed and reopened, which ends in the same place */
      int esc = ch == '\'' && p > sql && (p[-1] == 'E' || p[-1] == 'e') &&
                (p - 1 == sql || !(isalnum((unsigned char)p[-2]) || p[-2] == '_'));
      for (p++; *p && *p != ch; p++)
        if (esc && *p == '\\' && p[1]) p++;
      if (*p) p++;
    } else if (ch == '`') {
      for (p++; *p && *p != '`'; p++) {
      }
      if (*p) p++;
    } else if (ch == '-' && p[1] == '-') {
      while (*p && *p != '\n')
        p++;
    } else if (ch == '/' && p[1] == '*') {
      for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++) {
      }
      if (*p) p += 2;
    } else if (ch == ';') {
      break;
    } else {
      p++;
    }
  }
  return (size_t)(p - sql);
}

/* Skips blanks and comments. */
static const char *skip_space(const char *p) {
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (p[0] == '-' && p[1] == '-') {
      while (*p && *p != '\n')
        p++;
    } else if (p[0] == '/' && p[1] == '*') {
      for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++) {
      }
      if (*p) p += 2;
    } else {
      return p;
    }
  }
}

/* The next word (letters, digits, '_', '.', '$') lowercased into W; the
 * position after it. */
static const char *word(const char *p, char *w, size_t cap) {
  p = skip_space(p);
  size_t n = 0;
  while ((isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$') && n + 1 < cap)
    w[n++] = (char)tolower((unsigned char)*p++);
  w[n] = '\0';
  return p;
}

/* Settings SHOW answers locally besides the session's own. */
static const char *const show_extra[][2] = {
    {"server_version_num", PG_SERVER_VERSION_NUM},
    {"transaction_isolation", "read committed"},
    {"default_transaction_isolation", "read committed"},
    {"transaction_read_only", "off"},
    {"default_transaction_read_only", "off"},
    {"max_identifier_length", "128"},
    {"lc_collate", "C"},
    {"lc_ctype", "C"},
    {"lock_timeout", "0"},
};

static const char *show_value(pg_conn_t *c, const char *name) {
  const char *v = pg_setting_get(c, name);
  if (v) return v;
  for (size_t i = 0; i < sizeof show_extra / sizeof show_extra[0]; i++)
    if (strcasecmp(show_extra[i][0], name) == 0) return show_extra[i][1];
  return NULL;
}

pg_kind_t pg_classify(pg_conn_t *c, const char *stmt) {
  char w[64], w2[64];
  const char *p = word(stmt, w, sizeof w);
  if (!*w) return *skip_space(stmt) ? PG_K_HIVE : PG_K_EMPTY;
  if (strcmp(w, "begin") == 0) return PG_K_BEGIN;
  if (strcmp(w, "start") == 0) {
    word(p, w2, sizeof w2);
    if (strcmp(w2, "transaction") == 0) return PG_K_BEGIN;
  }
  if (strcmp(w, "commit") == 0 || strcmp(w, "end") == 0) return PG_K_COMMIT;
  if (strcmp(w, "rollback") == 0 || strcmp(w, "abort") == 0) return PG_K_ROLLBACK;
  if (strcmp(w, "discard") == 0) return PG_K_SET;
  if (strcmp(w, "set") == 0 || strcmp(w, "reset") == 0) {
    const char *q = word(p, w2, sizeof w2);
    if (strcmp(w2, "session") == 0 || strcmp(w2, "local") == 0) q = word(q, w2, sizeof w2);
    if (!*w2) return strcmp(w, "reset") == 0 ? PG_K_RESET_ALL : PG_K_HIVE; /* bare: hivelite's */
    /* changing it (SET k=v, RESET k) is refused; SET k only shows it */
    if (c->srv->cfg->memory_limit && strcmp(w2, "hivelite.memory_limit") == 0 &&
        (strcmp(w, "reset") == 0 || *skip_space(q) == '='))
      return PG_K_LOCKED;
    if (strchr(w2, '.')) return PG_K_HIVE;
    (void)q;
    return PG_K_SET;
  }
  if (strcmp(w, "show") == 0) {
    word(p, w2, sizeof w2);
    if (strcmp(w2, "all") == 0 || strcmp(w2, "transaction") == 0 || show_value(c, w2))
      return PG_K_SHOW;
  }
  if (pg_catalog_match(stmt)) return PG_K_CATALOG;
  return PG_K_HIVE;
}

/* ---- local statements ---- */

/* The value of SET NAME {=|TO} VALUE: quotes removed, lists kept. */
static void set_value(const char *p, char *out, size_t cap) {
  p = skip_space(p);
  if (*p == '=') {
    p++;
  } else if (strncasecmp(p, "to", 2) == 0 && !isalnum((unsigned char)p[2])) {
    p += 2;
  }
  p = skip_space(p);
  size_t n = 0;
  while (*p && *p != ';' && n + 1 < cap) {
    if (*p == '\'') {
      for (p++; *p && n + 1 < cap; p++) {
        if (*p == '\'' && p[1] == '\'') {
          out[n++] = '\'';
          p++;
        } else if (*p == '\'') {
          p++;
          break;
        } else {
          out[n++] = *p;
        }
      }
    } else {
      out[n++] = *p++;
    }
  }
  while (n > 0 && isspace((unsigned char)out[n - 1]))
    n--;
  out[n] = '\0';
}

/* The canonical spelling of a setting name (ParameterStatus's). */
static const char *canonical(pg_conn_t *c, const char *name) {
  for (int i = 0; i < c->n_settings; i++)
    if (strcasecmp(c->settings[i].name, name) == 0) return c->settings[i].name;
  return name;
}

static int run_set(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  char w[64], name[64], value[512];
  const char *p = word(stmt, w, sizeof w);
  if (strcmp(w, "discard") == 0) {
    snprintf(r->tag, sizeof r->tag, "DISCARD ALL");
    return 0;
  }
  int reset = strcmp(w, "reset") == 0;
  snprintf(r->tag, sizeof r->tag, reset ? "RESET" : "SET");
  p = word(p, name, sizeof name);
  if (strcmp(name, "session") == 0 || strcmp(name, "local") == 0) p = word(p, name, sizeof name);
  if (reset) return 0; /* RESET name / RESET ALL: the values stay (none is changeable) */
  if (strcmp(name, "time") == 0) { /* SET TIME ZONE x */
    p = word(p, w, sizeof w);
    strcpy(name, "timezone");
  }
  if (strcmp(name, "transaction") == 0 || strcmp(name, "characteristics") == 0 ||
      strcmp(name, "names") == 0 || strcmp(name, "role") == 0 ||
      strcmp(name, "session_authorization") == 0)
    return 0; /* accepted; hivelite has one isolation level and no roles */
  set_value(p, value, sizeof value);
  if (strcasecmp(name, "client_encoding") == 0 && strcasecmp(value, "utf8") != 0 &&
      strcasecmp(value, "utf-8") != 0 && strcasecmp(value, "unicode") != 0) {
    pg_send_error(c, "ERROR", "22023", "hivelite speaks only the UTF8 client encoding", 0);
    return -1;
  }
  if (strcasecmp(name, "client_encoding") == 0) strcpy(value, "UTF8");
  if (strcasecmp(name, "datestyle") == 0 && strncasecmp(value, "iso", 3) != 0) {
    pg_send_error(c, "ERROR", "0A000", "hivelite prints dates only in the ISO style", 0);
    return -1;
  }
  if (strcasecmp(name, "datestyle") == 0) strcpy(value, "ISO, MDY");
  if (strcasecmp(name, "search_path") == 0) {
    /* the first schema that is a Hive database becomes the current one */
    char first[256];
    size_t n = strcspn(value, ",");
    snprintf(first, sizeof first, "%.*s", (int)n, value);
    char *f = first;
    while (isspace((unsigned char)*f) || *f == '"')
      f++;
    size_t fl = strlen(f);
    while (fl > 0 && (isspace((unsigned char)f[fl - 1]) || f[fl - 1] == '"'))
      f[--fl] = '\0';
    if (*f && strcmp(f, "public") != 0 && strcmp(f, "pg_catalog") != 0 &&
        strcmp(f, "\"$user\"") != 0 && strcmp(f, "$user") != 0 && !strchr(f, '`')) {
      char use[300];
      snprintf(use, sizeof use, "USE `%s`", f);
      hl_stmt_t *s = NULL;
      hl_status_t st = hl_prepare(c->db, use, &s, NULL);
      if (st == HL_OK && s) st = hl_step(s);
      hl_finalize(s);
      if (st != HL_DONE && st != HL_OK) {
        pg_send_error(c, "ERROR", hl_sqlstate(c->db), hl_errmsg(c->db), 0);
        return -1;
      }
    }
  }
  if (strcasecmp(name, "statement_timeout") == 0) {
    /* PostgreSQL's setting is hivelite's (same units: ms, or with s/m) */
    char set[600];
    snprintf(set, sizeof set, "SET hivelite.statement_timeout=%s", value);
    hl_stmt_t *s = NULL;
    hl_status_t st = hl_prepare(c->db, set, &s, NULL);
    if (st == HL_OK && s) st = hl_step(s);
    hl_finalize(s);
    if (st != HL_DONE && st != HL_OK) {
      pg_send_error(c, "ERROR", hl_sqlstate(c->db), hl_errmsg(c->db), 0);
      return -1;
    }
  }
  const char *canon = canonical(c, name);
  if (pg_setting_put(c, canon, value) != 0) {
    pg_send_error(c, "ERROR", "53200", "out of memory", 0);
    return -1;
  }
  if (pg_is_reported(canon)) pg_send_parameter_status(c, canon, value);
  return 0;
}

static int run_show(pg_conn_t *c, const char *stmt, pg_result_t *r) {
  char w[64], name[64];
  const char *p = word(word(stmt, w, sizeof w), name, sizeof name);
  snprintf(r->tag, sizeof r->tag, "SHOW");
  if (strcmp(name, "all") == 0) {
    r->rows = pg_rows_new(3);
    if (!r->rows) goto oom;
    pg_rows_col(r->rows, 0, "name", 25);
    pg_rows_col(r->rows, 1, "setting", 25);
    pg_rows_col(r->rows, 2, "description", 25);
    for (int i = 0; i < c->n_settings; i++) {
      const char *row[3] = {c->settings[i].name, c->settings[i].value, ""};
      pg_rows_add(r->rows, row);
    }
  } else {
    const char *v;
    if (strcmp(name, "transaction") == 0) { /* SHOW TRANSACTION ISOLATION LEVEL */
      strcpy(name, "transaction_isolation");
      (void)p;
    }
    v = show_value(c, name);
    r->rows = pg_rows_new(1);
    if (!r->rows) goto oom;
    pg_rows_col(r->rows, 0, canonical(c, name), 25);
    pg_rows_add(r->rows, &v);
  }
  if (r->rows->oom) goto oom;
  return 0;
oom:
  pg_send_error(c, "ERROR", "53200", "out of memory", 0);
  return -1;
}

int pg_run_local(pg_conn_t *c, pg_kind_t kind, const char *stmt, pg_result_t *r) {
  switch (kind) {
  case PG_K_BEGIN:
    /* PostgreSQL tags START TRANSACTION as such */
    snprintf(r->tag, sizeof r->tag, "%s",
             strncasecmp(skip_space(stmt), "start", 5) == 0 ? "START TRANSACTION" : "BEGIN");
    if (c->txn != 'I')
      pg_send_notice(c, "25001", "there is already a transaction in progress");
    else
      c->txn = 'T';
    return 0;
  case PG_K_COMMIT:
  case PG_K_ROLLBACK:
    snprintf(r->tag, sizeof r->tag, kind == PG_K_COMMIT && c->txn != 'E' ? "COMMIT" : "ROLLBACK");
    if (c->txn == 'I') pg_send_notice(c, "25P01", "there is no transaction in progress");
    c->txn = 'I';
    return 0;
  case PG_K_SET:
    return run_set(c, stmt, r);
  case PG_K_SHOW:
    return run_show(c, stmt, r);
  case PG_K_CATALOG:
    return pg_catalog_run(c, stmt, r);
  case PG_K_LOCKED:
    pg_send_error(c, "ERROR", "42501",
                  "hivelite.memory_limit is set by the server (hivelite serve --memory-limit)", 0);
    return -1;
  case PG_K_RESET_ALL: {
    hl_stmt_t *st = NULL;
    hl_status_t rc = hl_prepare(c->db, "RESET", &st, NULL);
    if (rc == HL_OK && st) rc = hl_step(st);
    hl_finalize(st);
    if (rc != HL_DONE || pg_session_defaults(c) != 0) {
      pg_send_db_error(c, stmt, 0);
      return -1;
    }
    snprintf(r->tag, sizeof r->tag, "RESET");
    return 0;
  }
  default:
    pg_send_error(c, "ERROR", "XX000", "not a local statement", 0);
    return -1;
  }
}

/* ---- results ---- */

void pg_result_tag(pg_result_t *r, const char *stmt) {
  char w[24], w2[24];
  const char *p = word(stmt, w, sizeof w);
  for (char *q = w; *q; q++)
    *q = (char)toupper((unsigned char)*q);
  if (strcmp(w, "INSERT") == 0) {
    /* the row count is hl_changes's, known once it ran (command_complete) */
    snprintf(r->tag, sizeof r->tag, "INSERT 0 0");
    return;
  }
  if (strcmp(w, "CREATE") == 0 || strcmp(w, "DROP") == 0 || strcmp(w, "ALTER") == 0 ||
      strcmp(w, "TRUNCATE") == 0) {
    do
      p = word(p, w2, sizeof w2);
    while (strcmp(w2, "external") == 0 || strcmp(w2, "temporary") == 0 || strcmp(w2, "or") == 0 ||
           strcmp(w2, "replace") == 0 || strcmp(w2, "transactional") == 0);
    for (char *q = w2; *q; q++)
      *q = (char)toupper((unsigned char)*q);
    if (strcmp(w2, "SCHEMA") == 0) strcpy(w2, "DATABASE");
    snprintf(r->tag, sizeof r->tag, "%s%s%s", w, *w2 ? " " : "", w2);
    return;
  }
  snprintf(r->tag, sizeof r->tag, "%s", *w ? w : "OK");
}

int pg_result_start(pg_result_t *r) {
  if (!r->stmt || r->started) return 0;
  r->started = 1;
  r->last = hl_step(r->stmt);
  return r->last == HL_ROW || r->last == HL_DONE ? 0 : -1;
}

int pg_result_ncols(pg_result_t *r) {
  if (r->rows) return r->rows->n_cols;
  return r->stmt ? hl_column_count(r->stmt) : 0;
}

void pg_send_row_description(pg_conn_t *c, pg_result_t *r, const int16_t *formats) {
  pg_buf_t *b = &c->io.out;
  int n = pg_result_ncols(r);
  pg_msg_begin(b, 'T');
  pg_put_i16(b, n);
  for (int i = 0; i < n; i++) {
    pg_type_t t;
    const char *name;
    if (r->rows) {
      name = r->rows->cols[i].name ? r->rows->cols[i].name : "?column?";
      t = (pg_type_t){r->rows->cols[i].oid, r->rows->cols[i].typlen, r->rows->cols[i].typmod};
    } else {
      name = hl_column_name(r->stmt, i);
      t = pg_type_of(hl_column_type(r->stmt, i));
    }
    pg_put_cstr(b, name ? name : "?column?");
    pg_put_i32(b, 0); /* table OID */
    pg_put_i16(b, 0); /* attribute number */
    pg_put_i32(b, (int32_t)t.oid);
    pg_put_i16(b, t.typlen);
    pg_put_i32(b, t.typmod);
    pg_put_i16(b, formats ? formats[i] : 0);
  }
  pg_msg_end(b);
}

static void command_complete(pg_conn_t *c, pg_result_t *r) {
  char tag[96];
  /* a write's row count (hl_changes): INSERT 0 n for INSERT, INSERT
   * OVERWRITE and a multi-insert, SELECT n for CREATE TABLE AS, as
   * PostgreSQL tags them (drivers take their update counts from it) */
  int64_t changes = r->stmt && r->last == HL_DONE ? hl_changes(r->stmt) : -1;
  if (r->counted || (r->rows && r->rows->n_cols > 0 && strcmp(r->tag, "SHOW") != 0) ||
      (r->stmt && hl_column_count(r->stmt) > 0))
    snprintf(tag, sizeof tag, "SELECT %llu", (unsigned long long)r->sent);
  else if (changes >= 0)
    snprintf(tag, sizeof tag, "%s %lld", strncmp(r->tag, "CREATE", 6) == 0 ? "SELECT" : "INSERT 0",
             (long long)changes);
  else
    snprintf(tag, sizeof tag, "%s", r->tag);
  pg_msg_begin(&c->io.out, 'C');
  pg_put_cstr(&c->io.out, tag);
  pg_msg_end(&c->io.out);
}

int pg_send_rows(pg_conn_t *c, pg_result_t *r, const int16_t *formats, uint64_t max,
                 const char *query, size_t stmt_off) {
  pg_buf_t *b = &c->io.out;
  uint64_t n = 0;
  int ncols = pg_result_ncols(r);
  if (r->rows) {
    if (r->rows->oom) {
      pg_send_error(c, "ERROR", "53200", "out of memory", 0);
      return -1;
    }
    while (r->next_row < r->rows->n_rows) {
      if (max && n == max) return 1;
      char **row = r->rows->cells + r->next_row * (size_t)ncols;
      pg_msg_begin(b, 'D');
      pg_put_i16(b, ncols);
      for (int i = 0; i < ncols; i++) {
        if (!row[i]) {
          pg_put_i32(b, -1);
        } else {
          pg_put_i32(b, (int32_t)strlen(row[i]));
          pg_put_bytes(b, row[i], strlen(row[i]));
        }
      }
      pg_msg_end(b);
      r->next_row++;
      r->sent++;
      n++;
    }
    command_complete(c, r);
    return 0;
  }
  if (!r->stmt) {
    command_complete(c, r);
    return 0;
  }
  if (pg_result_start(r) != 0) {
    pg_send_db_error(c, query, stmt_off);
    return -1;
  }
  uint32_t *oids = calloc((size_t)ncols + 1, sizeof *oids);
  if (!oids) {
    pg_send_error(c, "ERROR", "53200", "out of memory", 0);
    return -1;
  }
  for (int i = 0; i < ncols; i++)
    oids[i] = pg_type_of(hl_column_type(r->stmt, i)).oid;
  int rc = 0;
  while (r->last == HL_ROW) {
    if (max && n == max) {
      rc = 1;
      goto done;
    }
    size_t start = b->len;
    pg_msg_begin(b, 'D');
    pg_put_i16(b, ncols);
    for (int i = 0; i < ncols; i++) {
      if (pg_put_value(b, r->stmt, i, oids[i], formats ? formats[i] : 0) != 0) {
        b->len = start;
        pg_send_error(c, "ERROR", "0A000", "binary format of this column type is not supported", 0);
        rc = -1;
        goto done;
      }
    }
    pg_msg_end(b);
    r->sent++;
    n++;
    if (b->len > 65536 && pg_io_flush(&c->io) != PG_IO_OK) {
      rc = -2;
      goto done;
    }
    r->last = hl_step(r->stmt);
  }
  if (r->last != HL_DONE) {
    pg_send_db_error(c, query, stmt_off);
    rc = -1;
    goto done;
  }
  command_complete(c, r);
done:
  free(oids);
  return rc;
}

void pg_after_statement(pg_conn_t *c, const pg_result_t *r, const char *stmt) {
  if (strcmp(r->tag, "USE") != 0) return;
  /* USE db: the current schema of current_schema() and psql's \dt */
  char w[16], name[128];
  const char *p = word(stmt, w, sizeof w);
  p = skip_space(p);
  size_t n = 0;
  while (*p && *p != ';' && !isspace((unsigned char)*p) && n + 1 < sizeof name)
    if (*p == '`')
      p++;
    else
      name[n++] = (char)tolower((unsigned char)*p++);
  name[n] = '\0';
  if (n && !strchr(name, '.')) pg_setting_put(c, "search_path", name);
}

/* ---- simple query ---- */

/* Runs one statement's result to the end (every result of a statement
 * with several, like PROFILE): -1 on error, -2 on I/O failure. */
static int send_all(pg_conn_t *c, pg_result_t *r, const char *query, size_t off) {
  for (;;) {
    if (r->stmt && pg_result_start(r) != 0) {
      pg_send_db_error(c, query, off);
      return -1;
    }
    if (pg_result_ncols(r) > 0) pg_send_row_description(c, r, NULL);
    int rc = pg_send_rows(c, r, NULL, 0, query, off);
    if (rc != 0) return rc;
    if (!r->stmt || hl_next_result(r->stmt) != HL_OK) return 0;
    r->started = 0;
    r->sent = 0;
  }
}

void pg_pstmt_drop_unnamed(pg_conn_t *c); /* pg_extended.c */

void pg_simple_query(pg_conn_t *c, const char *query) {
  size_t off = 0;
  int any = 0;
  c->ext_failed = 0;
  pg_pstmt_drop_unnamed(c);
  while (query[off]) {
    size_t len = pg_stmt_end(query + off);
    char *piece = strndup(query + off, len);
    if (!piece) {
      pg_send_error(c, "ERROR", "53200", "out of memory", 0);
      break;
    }
    pg_kind_t kind = pg_classify(c, piece);
    size_t next = off + len + (query[off + len] == ';');
    pg_result_t r = {0};
    int rc = 0;
    if (kind == PG_K_EMPTY) {
      free(piece);
      off = next;
      continue;
    }
    any = 1;
    if (c->txn == 'E' && kind != PG_K_COMMIT && kind != PG_K_ROLLBACK) {
      free(piece);
      pg_send_error(c, "ERROR", "25P02",
                    "current transaction is aborted, commands ignored until end of transaction "
                    "block",
                    0);
      break;
    }
    if (kind == PG_K_HIVE) {
      const char *tail = NULL;
      /* hivelite's lexer decides where its statement ends */
      if (hl_prepare(c->db, query + off, &r.stmt, &tail) != HL_OK) {
        pg_send_db_error(c, query, off);
        free(piece);
        break;
      }
      if (tail) next = (size_t)(tail - query);
      pg_result_tag(&r, piece);
      if (!r.stmt) {
        free(piece);
        off = next;
        continue;
      }
    } else if (pg_run_local(c, kind, piece, &r) != 0) {
      free(piece);
      pg_result_free(&r);
      break;
    }
    free(piece);
    rc = send_all(c, &r, query, off);
    if (rc == 0) pg_after_statement(c, &r, query + off);
    pg_result_free(&r);
    if (rc != 0) break;
    off = next;
  }
  if (!any) {
    pg_msg_begin(&c->io.out, 'I');
    pg_msg_end(&c->io.out);
  }
  pg_send_ready(c);
}
