/*
 * pg_sqltext.c -- reading the SQL text of catalog queries without a
 * connection: the normalized form the patterns are matched against
 * (lower case, blanks folded, catalog relations qualified), words in
 * order, select lists, LIKE and = name filters, numbers after a key, the
 * session functions of a SELECT without FROM, and parameters written into
 * the text.  Everything here reads untrusted bytes and depends only on
 * libc and pg_wire.c, so fuzz.pg_sqltext runs it alone; pg_catalog.c,
 * pg_catalog_tools.c and pg_extended.c use it.
 */
#include "pg_sqltext.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int64_t pg_be_int(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v = v << 8 | p[i];
  if (n < 8 && (p[0] & 0x80)) v |= ~(uint64_t)0 << (8 * n); /* sign-extend */
  return (int64_t)v;
}

/* ---- the normalized text ---- */

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
char *pg_cat_normalize(const char *s) {
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
int pg_cat_contains_in_order(const char *s, const char *words) {
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
int pg_cat_session_select(const char *n, int kinds[8], char names[8][64]) {
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

/* ---- select lists and filters ---- */

/* The regular expression after KEY ("c.relname operator(pg_catalog.~) ")
 * in the normalized query, compiled into RE: 1, or 0 when absent. */
int pg_cat_pattern_after(const char *n, const char *key, regex_t *re, int *bad) {
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
int pg_cat_select_list_count(const char *n) {
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
int pg_cat_select_list_names(const char *n, char names[][64], int max) {
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

/* ---- parameters of catalog queries: written into the text ---- */

/* The number N of the placeholder $N at P (not inside a quoted string or
 * an identifier), or 0. */
static int placeholder_at(const char *sql, const char *p) {
  if (*p != '$' || !isdigit((unsigned char)p[1])) return 0;
  if (p > sql && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) return 0;
  long n = strtol(p + 1, NULL, 10);
  return n > 0 && n <= 65535 ? (int)n : 0;
}

/* Calls FN for every character of SQL outside quotes and every
 * placeholder (N > 0 then). */
typedef int (*scan_fn)(void *ctx, const char *p, int n);

static int scan(const char *sql, scan_fn fn, void *ctx) {
  for (const char *p = sql; *p; p++) {
    if (*p == '\'' || *p == '"') {
      const char *q = strchr(p + 1, *p);
      size_t len = q ? (size_t)(q - p) + 1 : strlen(p);
      for (size_t i = 0; i < len; i++)
        if (fn(ctx, p + i, 0) != 0) return -1;
      p += len - 1;
      continue;
    }
    int n = placeholder_at(sql, p);
    if (fn(ctx, p, n) != 0) return -1;
    while (n && isdigit((unsigned char)p[1]))
      p++;
  }
  return 0;
}

static int highest(void *ctx, const char *p, int n) {
  (void)p;
  if (n > *(int *)ctx) *(int *)ctx = n;
  return 0;
}

int pg_params_highest(const char *sql) {
  int n = 0;
  scan(sql, highest, &n);
  return n;
}

typedef struct inline_ctx {
  const pg_bind_msg_t *m;
  const uint32_t *types;
  int n_types;
  char *out;
  size_t len, cap;
  int status; /* 1: a value that cannot be written */
} inline_ctx_t;

static int put(inline_ctx_t *x, const char *s, size_t n) {
  if (x->len + n + 1 > x->cap) {
    size_t cap = (x->len + n + 1) * 2;
    char *grown = realloc(x->out, cap);
    if (!grown) return -1;
    x->out = grown;
    x->cap = cap;
  }
  memcpy(x->out + x->len, s, n);
  x->len += n;
  x->out[x->len] = '\0';
  return 0;
}

/* A literal for parameter N: NULL, a quoted string (quotes doubled), or
 * the number of a binary integer. */
static int put_value(inline_ctx_t *x, int n) {
  size_t cursor = 0;
  const unsigned char *v = NULL;
  int32_t len = 0;
  for (int i = 0; i < n; i++)
    if (pg_bind_next_param(x->m, &cursor, &v, &len) != 0) return -1;
  if (!v) return put(x, "NULL", 4);
  if (pg_bind_param_format(x->m, n - 1) == 1) {
    uint32_t oid = n - 1 < x->n_types ? x->types[n - 1] : 0;
    if (!((oid == 20 && len == 8) || (oid == 23 && len == 4) || (oid == 21 && len == 2))) return -2;
    char num[24];
    int64_t i = pg_be_int(v, len);
    snprintf(num, sizeof num, "%lld", (long long)i);
    return put(x, num, strlen(num));
  }
  if (put(x, "'", 1) != 0) return -1;
  for (int32_t i = 0; i < len; i++) {
    if (!v[i]) return -2;
    if (put(x, (const char *)v + i, 1) != 0 || (v[i] == '\'' && put(x, "'", 1) != 0)) return -1;
  }
  return put(x, "'", 1);
}

static int inline_one(void *ctx, const char *p, int n) {
  inline_ctx_t *x = ctx;
  if (n == 0 || n > x->m->n_params) return put(x, p, 1);
  int rc = put_value(x, n);
  if (rc == -2) x->status = 1;
  return rc;
}

char *pg_params_inline(const char *sql, const pg_bind_msg_t *m, const uint32_t *types, int n_types,
                       int *unsupported) {
  inline_ctx_t x = {m, types, n_types, NULL, 0, 0, 0};
  int rc = put(&x, "", 0) == 0 ? scan(sql, inline_one, &x) : -1;
  *unsupported = x.status;
  if (rc != 0) {
    free(x.out);
    return NULL;
  }
  return x.out;
}
