/*
 * pg_extended.c -- the extended query protocol: Parse, Bind, Describe,
 * Execute (with a row limit and PortalSuspended), Close, Sync and Flush,
 * over named and unnamed prepared statements and portals.
 *
 * A prepared statement keeps its text and, from Parse, one hl_stmt_t
 * (hl_prepare checks the text then, and hl_stmt_check a query's names and
 * types, so errors come at Parse as in PostgreSQL, and Describe knows a
 * query's columns).  The first Bind takes
 * that handle for its portal; later ones prepare the text again (hl_reset
 * will rewind instead, see pg_api.h).  A portal's statement runs at its
 * first Describe or Execute; an Execute with a row limit leaves it open
 * for the next.  After an error, messages are skipped until Sync; a Sync
 * outside a transaction block drops the portals (PostgreSQL's implicit
 * transaction ends there).
 *
 * Parameters ($1 or ?): counted and typed at Parse (pg_api.h), bound at
 * Bind (pg_params.c) into the portal's own statement handle.
 */
#include "pg_int.h"
#include "pg_sqltext.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct pg_pstmt {
  pg_pstmt_t *next;
  char *name, *sql;
  pg_kind_t kind;
  hl_stmt_t *tmpl; /* prepared at Parse and not yet taken by a Bind */
  int n_types;     /* parameter types the client declared */
  uint32_t *types; /* their OIDs (0: unspecified) */
};

struct pg_portal {
  pg_portal_t *next;
  char *name;
  char *sql; /* the statement's text (owned copy) */
  pg_kind_t kind;
  pg_result_t res;
  int started;      /* run (local) or first step taken */
  int done;         /* CommandComplete sent */
  int n_formats;    /* Bind's result format codes */
  int16_t *formats; /* per column after start: 0 text, 1 binary */
  int has_params;   /* values were bound */
};

/* ---- lookup and freeing ---- */

static void pstmt_free(pg_pstmt_t *s) {
  if (!s) return;
  hl_finalize(s->tmpl);
  free(s->name);
  free(s->sql);
  free(s->types);
  free(s);
}

static void portal_free(pg_portal_t *p) {
  if (!p) return;
  pg_result_free(&p->res);
  free(p->name);
  free(p->sql);
  free(p->formats);
  free(p);
}

static pg_pstmt_t **find_pstmt(pg_conn_t *c, const char *name) {
  pg_pstmt_t **s = &c->pstmts;
  while (*s && strcmp((*s)->name, name) != 0)
    s = &(*s)->next;
  return s;
}

static pg_portal_t **find_portal(pg_conn_t *c, const char *name) {
  pg_portal_t **p = &c->portals;
  while (*p && strcmp((*p)->name, name) != 0)
    p = &(*p)->next;
  return p;
}

static void drop_portal(pg_conn_t *c, const char *name) {
  pg_portal_t **p = find_portal(c, name);
  if (!*p) return;
  pg_portal_t *gone = *p;
  *p = gone->next;
  portal_free(gone);
}

static void drop_pstmt(pg_conn_t *c, const char *name) {
  pg_pstmt_t **s = find_pstmt(c, name);
  if (!*s) return;
  pg_pstmt_t *gone = *s;
  *s = gone->next;
  pstmt_free(gone);
}

void pg_pstmt_drop_unnamed(pg_conn_t *c) {
  drop_pstmt(c, "");
  drop_portal(c, "");
}

static void drop_portals(pg_conn_t *c) {
  while (c->portals) {
    pg_portal_t *p = c->portals;
    c->portals = p->next;
    portal_free(p);
  }
}

void pg_extended_free(pg_conn_t *c) {
  drop_portals(c);
  while (c->pstmts) {
    pg_pstmt_t *s = c->pstmts;
    c->pstmts = s->next;
    pstmt_free(s);
  }
}

static void fail(pg_conn_t *c, const char *sqlstate, const char *fmt, const char *arg) {
  char msg[256];
  snprintf(msg, sizeof msg, fmt, arg);
  pg_send_error(c, "ERROR", sqlstate, msg, 0);
  c->ext_failed = 1;
}

static void simple_msg(pg_conn_t *c, char type) {
  pg_msg_begin(&c->io.out, type);
  pg_msg_end(&c->io.out);
}

/* ---- the messages ---- */

static int on_parse(pg_conn_t *c, const pg_frame_t *f) {
  pg_parse_msg_t m;
  if (pg_decode_parse(f->body, f->body_len, &m) != 0) {
    pg_send_error(c, "FATAL", "08P01", "invalid Parse message", 0);
    return -1;
  }
  if (*m.name && *find_pstmt(c, m.name)) {
    fail(c, "42P05", "prepared statement \"%s\" already exists", m.name);
    return 0;
  }
  size_t end = pg_stmt_end(m.query);
  const char *rest = m.query + end + (m.query[end] == ';');
  while (isspace((unsigned char)*rest))
    rest++;
  if (*rest && pg_stmt_end(rest) > 0) {
    fail(c, "42601", "cannot insert multiple commands into a prepared statement%s", "");
    return 0;
  }
  pg_pstmt_t *s = calloc(1, sizeof *s);
  if (!s || !(s->name = strdup(m.name)) || !(s->sql = strndup(m.query, end))) {
    pstmt_free(s);
    fail(c, "53200", "out of memory%s", "");
    return 0;
  }
  s->kind = pg_classify(c, s->sql);
  if (s->kind == PG_K_HIVE) {
    /* a query naming what does not exist fails here, as in PostgreSQL */
    if (hl_prepare(c->db, s->sql, &s->tmpl, NULL) != HL_OK ||
        (s->tmpl && hl_stmt_check(s->tmpl) != HL_OK)) {
      pg_send_db_error(c, s->sql, 0);
      c->ext_failed = 1;
      pstmt_free(s);
      return 0;
    }
    if (!s->tmpl) s->kind = PG_K_EMPTY;
  }
  /* the parameters: as many as the client declared or the statement has;
   * a type the client left open (0) is the one the statement needs, else
   * text (what ParameterDescription says and Bind decodes by) */
  int n_params = s->tmpl                   ? pg_api_parameter_count(s->tmpl)
                 : s->kind == PG_K_CATALOG ? pg_params_highest(s->sql)
                                           : 0;
  if (m.n_types > n_params) n_params = m.n_types;
  if (n_params > 0) {
    s->types = calloc((size_t)n_params, sizeof *s->types);
    if (!s->types) {
      pstmt_free(s);
      fail(c, "53200", "out of memory%s", "");
      return 0;
    }
    s->n_types = n_params;
    for (int i = 0; i < n_params; i++) {
      uint32_t declared = 0;
      if (i < m.n_types) {
        const unsigned char *t = m.types + 4 * i;
        declared = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
      }
      const char *needed = s->tmpl ? pg_api_parameter_type(s->tmpl, i + 1) : NULL;
      s->types[i] = declared ? declared : needed ? pg_type_of(needed).oid : 25;
    }
  }
  if (!*m.name) drop_pstmt(c, "");
  s->next = c->pstmts;
  c->pstmts = s;
  simple_msg(c, '1');
  return 0;
}

static int on_bind(pg_conn_t *c, const pg_frame_t *f) {
  pg_bind_msg_t m;
  if (pg_decode_bind(f->body, f->body_len, &m) != 0) {
    pg_send_error(c, "FATAL", "08P01", "invalid Bind message", 0);
    return -1;
  }
  pg_pstmt_t *s = *find_pstmt(c, m.stmt);
  if (!s) {
    fail(c, "26000", "prepared statement \"%s\" does not exist", m.stmt);
    return 0;
  }
  if (m.n_params != s->n_types) {
    char msg[200];
    snprintf(msg, sizeof msg,
             "bind message supplies %d parameters, but prepared statement \"%.60s\" requires %d",
             m.n_params, m.stmt, s->n_types);
    pg_send_error(c, "ERROR", "08P01", msg, 0);
    c->ext_failed = 1;
    return 0;
  }
  if (*m.portal && *find_portal(c, m.portal)) {
    fail(c, "42P03", "cursor \"%s\" already exists", m.portal);
    return 0;
  }
  if (!*m.portal) drop_portal(c, "");
  pg_portal_t *p = calloc(1, sizeof *p);
  if (!p || !(p->name = strdup(m.portal)) || !(p->sql = strdup(s->sql)) ||
      (m.n_result_formats &&
       !(p->formats = calloc((size_t)m.n_result_formats, sizeof *p->formats)))) {
    portal_free(p);
    fail(c, "53200", "out of memory%s", "");
    return 0;
  }
  p->kind = s->kind;
  if (s->kind == PG_K_CATALOG && m.n_params > 0) {
    int unsupported;
    char *sql = pg_params_inline(s->sql, &m, s->types, s->n_types, &unsupported);
    if (!sql) {
      if (unsupported)
        pg_send_error(c, "ERROR", "0A000", "this parameter of a catalog query is not supported", 0);
      else
        pg_send_error(c, "ERROR", "53200", "out of memory", 0);
      c->ext_failed = 1;
      portal_free(p);
      return 0;
    }
    free(p->sql);
    p->sql = sql;
  }
  p->n_formats = m.n_result_formats;
  for (int i = 0; i < m.n_result_formats; i++)
    p->formats[i] = (int16_t)pg_bind_result_format(&m, i);
  if (s->kind == PG_K_HIVE) {
    if (s->tmpl) {
      p->res.stmt = s->tmpl;
      s->tmpl = NULL;
    } else if (hl_prepare(c->db, s->sql, &p->res.stmt, NULL) != HL_OK || !p->res.stmt) {
      pg_send_db_error(c, s->sql, 0);
      c->ext_failed = 1;
      portal_free(p);
      return 0;
    }
    pg_result_tag(&p->res, s->sql);
    p->has_params = m.n_params > 0;
    if (pg_bind_params(c, p->res.stmt, &m, s->types, s->n_types) != 0) {
      c->ext_failed = 1;
      portal_free(p);
      return 0;
    }
  }
  p->next = c->portals;
  c->portals = p;
  simple_msg(c, '2');
  return 0;
}

/* The per-column formats of P once its column count is known. */
static int16_t *portal_formats(pg_portal_t *p, int ncols) {
  if (p->n_formats == 0 || ncols == 0) return NULL;
  if (p->n_formats == ncols) return p->formats;
  if (p->n_formats == 1) {
    int16_t f = p->formats[0];
    int16_t *all = calloc((size_t)ncols, sizeof *all);
    if (!all) return NULL;
    for (int i = 0; i < ncols; i++)
      all[i] = f;
    free(p->formats);
    p->formats = all;
    p->n_formats = ncols;
    return all;
  }
  return NULL;
}

/* Runs P's statement far enough that its columns are known: 0 or -1. */
static int portal_start(pg_conn_t *c, pg_portal_t *p) {
  if (p->started) return 0;
  p->started = 1;
  if (c->txn == 'E' && p->kind != PG_K_COMMIT && p->kind != PG_K_ROLLBACK) {
    fail(c, "25P02",
         "current transaction is aborted, commands ignored until end of transaction block%s", "");
    return -1;
  }
  if (p->kind == PG_K_EMPTY) return 0;
  if (p->kind != PG_K_HIVE) {
    if (pg_run_local(c, p->kind, p->sql, &p->res) != 0) {
      c->ext_failed = 1;
      return -1;
    }
    return 0;
  }
  /* a query's columns are known after hl_prepare; other statements'
   * only once they ran, and a query's with parameters once it ran with
   * their values (`SELECT $1` is an int when an int is bound) */
  if ((hl_column_count(p->res.stmt) == 0 || p->has_params) && pg_result_start(&p->res) != 0) {
    pg_send_db_error(c, p->sql, 0);
    c->ext_failed = 1;
    p->done = 1;
    return -1;
  }
  return 0;
}

static int check_formats(pg_conn_t *c, pg_portal_t *p, int ncols) {
  if (p->n_formats > 1 && p->n_formats != ncols) {
    fail(c, "08P01",
         "bind message has %s result formats but query has a different number of "
         "columns",
         "several");
    return -1;
  }
  return 0;
}

static int on_describe(pg_conn_t *c, const pg_frame_t *f) {
  pg_target_msg_t m;
  if (pg_decode_target(f->body, f->body_len, &m) != 0) {
    pg_send_error(c, "FATAL", "08P01", "invalid Describe message", 0);
    return -1;
  }
  if (m.kind == 'P') {
    pg_portal_t *p = *find_portal(c, m.name);
    if (!p) {
      fail(c, "34000", "portal \"%s\" does not exist", m.name);
      return 0;
    }
    if (portal_start(c, p) != 0) return 0;
    int n = pg_result_ncols(&p->res);
    if (n == 0) {
      simple_msg(c, 'n');
      return 0;
    }
    if (check_formats(c, p, n) != 0) return 0;
    pg_send_row_description(c, &p->res, portal_formats(p, n));
    return 0;
  }
  pg_pstmt_t *s = *find_pstmt(c, m.name);
  if (!s) {
    fail(c, "26000", "prepared statement \"%s\" does not exist", m.name);
    return 0;
  }
  pg_msg_begin(&c->io.out, 't');
  pg_put_i16(&c->io.out, s->n_types);
  for (int i = 0; i < s->n_types; i++)
    pg_put_i32(&c->io.out, (int32_t)(s->types[i] ? s->types[i] : 25));
  pg_msg_end(&c->io.out);
  pg_result_t r = {0};
  if (s->kind == PG_K_HIVE) {
    hl_stmt_t *h = s->tmpl;
    if (!h && hl_prepare(c->db, s->sql, &h, NULL) != HL_OK) {
      pg_send_db_error(c, s->sql, 0);
      c->ext_failed = 1;
      return 0;
    }
    r.stmt = h;
    if (hl_column_count(h) > 0)
      pg_send_row_description(c, &r, NULL);
    else
      simple_msg(c, 'n');
    if (h == s->tmpl) r.stmt = NULL;
    pg_result_free(&r);
    return 0;
  }
  if (s->kind == PG_K_SHOW || s->kind == PG_K_CATALOG) {
    /* read-only: run it to learn its columns */
    if (pg_run_local(c, s->kind, s->sql, &r) != 0) {
      c->ext_failed = 1;
      pg_result_free(&r);
      return 0;
    }
    pg_send_row_description(c, &r, NULL);
    pg_result_free(&r);
    return 0;
  }
  simple_msg(c, 'n');
  return 0;
}

static int on_execute(pg_conn_t *c, const pg_frame_t *f) {
  pg_execute_msg_t m;
  if (pg_decode_execute(f->body, f->body_len, &m) != 0) {
    pg_send_error(c, "FATAL", "08P01", "invalid Execute message", 0);
    return -1;
  }
  pg_portal_t *p = *find_portal(c, m.portal);
  if (!p) {
    fail(c, "34000", "portal \"%s\" does not exist", m.portal);
    return 0;
  }
  if (p->kind == PG_K_EMPTY) {
    simple_msg(c, 'I');
    return 0;
  }
  if (portal_start(c, p) != 0) return 0;
  if (p->done) {
    /* a portal run to its end gives no more rows */
    pg_msg_begin(&c->io.out, 'C');
    pg_put_cstr(&c->io.out, pg_result_ncols(&p->res) ? "SELECT 0" : p->res.tag);
    pg_msg_end(&c->io.out);
    return 0;
  }
  int n = pg_result_ncols(&p->res);
  if (check_formats(c, p, n) != 0) return 0;
  int rc = pg_send_rows(c, &p->res, portal_formats(p, n), (uint64_t)m.max_rows, p->sql, 0);
  if (rc == 1) {
    simple_msg(c, 's');
  } else if (rc == 0) {
    p->done = 1;
    pg_after_statement(c, &p->res, p->sql);
  } else if (rc == -1) {
    p->done = 1;
    c->ext_failed = 1;
  } else {
    return -1;
  }
  return 0;
}

static int on_close(pg_conn_t *c, const pg_frame_t *f) {
  pg_target_msg_t m;
  if (pg_decode_target(f->body, f->body_len, &m) != 0) {
    pg_send_error(c, "FATAL", "08P01", "invalid Close message", 0);
    return -1;
  }
  if (m.kind == 'S')
    drop_pstmt(c, m.name);
  else
    drop_portal(c, m.name);
  simple_msg(c, '3');
  return 0;
}

int pg_extended(pg_conn_t *c, const pg_frame_t *f) {
  if (f->type == 'S') {
    c->ext_failed = 0;
    if (c->txn == 'I') drop_portals(c);
    pg_send_ready(c);
    return 0;
  }
  if (f->type == 'H') return 0; /* the loop flushes */
  if (c->ext_failed) return 0;  /* skipped until Sync */
  switch (f->type) {
  case 'P':
    return on_parse(c, f);
  case 'B':
    return on_bind(c, f);
  case 'D':
    return on_describe(c, f);
  case 'E':
    return on_execute(c, f);
  case 'C':
    return on_close(c, f);
  default:
    return -1;
  }
}
