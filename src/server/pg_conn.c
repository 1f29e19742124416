/*
 * pg_conn.c -- one client connection, on its own thread: the startup
 * packet (SSLRequest, GSSENCRequest, CancelRequest, protocol 3.0),
 * authentication, the session's engine handle, ParameterStatus and
 * BackendKeyData, then the message loop until Terminate, EOF, the idle
 * timeout or shutdown.
 *
 * Nothing touches the warehouse before authentication succeeded: the
 * hl_db_t is opened after AuthenticationOk was sent.
 */
#include "pg_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Settings reported in ParameterStatus at startup (and again on SET): the
 * set PostgreSQL 15 reports (tests/server/pg_compare.py compares them);
 * session_authorization is the user, set at startup. */
static const char *const reported[][2] = {
    {"server_version", PG_SERVER_VERSION},
    {"server_encoding", "UTF8"},
    {"client_encoding", "UTF8"},
    {"DateStyle", "ISO, MDY"},
    {"IntervalStyle", "postgres"},
    {"integer_datetimes", "on"},
    {"standard_conforming_strings", "on"},
    {"TimeZone", "UTC"},
    {"is_superuser", "off"},
    {"application_name", ""},
    {"default_transaction_read_only", "off"},
    {"in_hot_standby", "off"},
    {"session_authorization", ""},
};

int pg_is_reported(const char *name) {
  for (size_t i = 0; i < sizeof reported / sizeof reported[0]; i++)
    if (strcasecmp(reported[i][0], name) == 0) return 1;
  return 0;
}

/* ---- messages ---- */

/* An ErrorResponse; DETAIL and HINT (NULL: none) go in fields D and H. */
static void send_error(pg_conn_t *c, const char *severity, const char *sqlstate,
                       const char *message, const char *detail, const char *hint, int position) {
  pg_buf_t *b = &c->io.out;
  pg_msg_begin(b, 'E');
  pg_put_u8(b, 'S');
  pg_put_cstr(b, severity);
  pg_put_u8(b, 'V');
  pg_put_cstr(b, severity);
  pg_put_u8(b, 'C');
  pg_put_cstr(b, sqlstate && *sqlstate ? sqlstate : "XX000");
  pg_put_u8(b, 'M');
  pg_put_cstr(b, message && *message ? message : "unknown error");
  if (detail && *detail) {
    pg_put_u8(b, 'D');
    pg_put_cstr(b, detail);
  }
  if (hint && *hint) {
    pg_put_u8(b, 'H');
    pg_put_cstr(b, hint);
  }
  if (position > 0) {
    char pos[16];
    snprintf(pos, sizeof pos, "%d", position);
    pg_put_u8(b, 'P');
    pg_put_cstr(b, pos);
  }
  pg_put_u8(b, 0);
  pg_msg_end(b);
  if (c->txn == 'T') c->txn = 'E';
}

void pg_send_error(pg_conn_t *c, const char *severity, const char *sqlstate, const char *message,
                   int position) {
  send_error(c, severity, sqlstate, message, NULL, NULL, position);
}

/* The 1-based character position in QUERY of byte offset OFF. */
static int char_position(const char *query, size_t off) {
  int pos = 1;
  for (size_t i = 0; i < off && query[i]; i++)
    if (((unsigned char)query[i] & 0xC0) != 0x80) pos++;
  return pos;
}

void pg_send_db_error(pg_conn_t *c, const char *query, size_t stmt_off) {
  int line = hl_error_line(c->db), col = hl_error_column(c->db), position = 0;
  if (line > 0 && col > 0 && query) {
    /* line/column are relative to the text given to hl_prepare */
    size_t off = stmt_off;
    for (int l = 1; l < line && query[off]; off++)
      if (query[off] == '\n') l++;
    for (int k = 1; k < col && query[off] && query[off] != '\n'; off++)
      if (((unsigned char)query[off] & 0xC0) != 0x80) k++;
    position = char_position(query, off);
  }
  send_error(c, "ERROR", hl_sqlstate(c->db), hl_errmsg(c->db), hl_errdetail(c->db),
             hl_errhint(c->db), position);
}

void pg_send_notice(pg_conn_t *c, const char *sqlstate, const char *message) {
  pg_buf_t *b = &c->io.out;
  pg_msg_begin(b, 'N');
  pg_put_u8(b, 'S');
  pg_put_cstr(b, "WARNING");
  pg_put_u8(b, 'V');
  pg_put_cstr(b, "WARNING");
  pg_put_u8(b, 'C');
  pg_put_cstr(b, sqlstate && *sqlstate ? sqlstate : "01000");
  pg_put_u8(b, 'M');
  pg_put_cstr(b, message);
  pg_put_u8(b, 0);
  pg_msg_end(b);
}

void pg_send_parameter_status(pg_conn_t *c, const char *name, const char *value) {
  pg_msg_begin(&c->io.out, 'S');
  pg_put_cstr(&c->io.out, name);
  pg_put_cstr(&c->io.out, value);
  pg_msg_end(&c->io.out);
}

void pg_send_ready(pg_conn_t *c) {
  pg_msg_begin(&c->io.out, 'Z');
  pg_put_u8(&c->io.out, (unsigned char)c->txn);
  pg_msg_end(&c->io.out);
}

/* ---- client settings ---- */

const char *pg_setting_get(pg_conn_t *c, const char *name) {
  for (int i = 0; i < c->n_settings; i++)
    if (strcasecmp(c->settings[i].name, name) == 0) return c->settings[i].value;
  return NULL;
}

int pg_setting_put(pg_conn_t *c, const char *name, const char *value) {
  for (int i = 0; i < c->n_settings; i++) {
    if (strcasecmp(c->settings[i].name, name) != 0) continue;
    char *v = strdup(value);
    if (!v) return -1;
    free(c->settings[i].value);
    c->settings[i].value = v;
    return 0;
  }
  if (c->n_settings == PG_MAX_SETTINGS) return -1;
  char *n = strdup(name), *v = strdup(value);
  if (!n || !v) {
    free(n);
    free(v);
    return -1;
  }
  c->settings[c->n_settings++] = (pg_setting_t){n, v};
  return 0;
}

/* ---- the session ---- */

static void on_warning(void *ctx, const char *sqlstate, const char *message) {
  pg_send_notice(ctx, sqlstate, message);
}

/* Runs SQL, a statement whose rows nobody reads: 0, or -1 with the error on DB. */
static int run_silent(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = NULL;
  hl_status_t rc = hl_prepare(db, sql, &st, NULL);
  if (rc == HL_OK && st)
    while ((rc = hl_step(st)) == HL_ROW) {
    }
  hl_finalize(st);
  return rc == HL_DONE ? 0 : -1;
}

int pg_session_defaults(pg_conn_t *c) {
  /* string literals as PostgreSQL clients quote them: the server reports
   * standard_conforming_strings=on */
  if (run_silent(c->db, "SET hivelite.sql.string_literals=standard") != 0) return -1;
  const char *limit = c->srv->cfg->memory_limit;
  if (!limit) return 0;
  char sql[128];
  snprintf(sql, sizeof sql, "SET hivelite.memory_limit='%s'", limit);
  return run_silent(c->db, sql);
}

int pg_check_config(const hl_pg_config_t *cfg) {
  const char *limit = cfg->memory_limit;
  if (!limit) return 0;
  /* a size is digits and a unit: no quote can end the literal above */
  if (!*limit || strlen(limit) > 64 || strpbrk(limit, "'\\;")) {
    fprintf(cfg->log, "ERROR 22023: --memory-limit requires a size such as 512MB, not \"%s\"\n",
            limit);
    return -1;
  }
  /* the engine's own reading of the size, once, before any client */
  hl_db_t *db = NULL;
  char sql[128];
  snprintf(sql, sizeof sql, "SET hivelite.memory_limit='%s'", limit);
  /* (the engine reads a setting's value when a statement runs) */
  int rc = hl_open(cfg->warehouse, cfg->metastore, &db) == HL_OK && run_silent(db, sql) == 0
               ? run_silent(db, "SET hivelite.memory_limit")
               : -1;
  if (rc != 0)
    fprintf(cfg->log, "ERROR %s: --memory-limit \"%s\": %s\n", db ? hl_sqlstate(db) : "53200",
            limit, db ? hl_errmsg(db) : "out of memory");
  hl_close(db);
  return rc;
}

static void fatal(pg_conn_t *c, const char *sqlstate, const char *message) {
  pg_send_error(c, "FATAL", sqlstate, message, 0);
  pg_io_flush(&c->io);
}

/* The startup exchange up to the protocol 3.0 packet: 0 to go on with
 * *st filled, -1 to close. */
static int startup(pg_conn_t *c, pg_startup_t *st) {
  for (;;) {
    pg_frame_t f;
    if (pg_io_next(&c->io, 1, 1, &f) != PG_IO_OK) return -1;
    const char *why = NULL;
    int rc = pg_decode_startup(f.body, f.body_len, st, &why);
    if (rc != 0) {
      fatal(c, rc == -2 ? "0A000" : "08P01", why);
      return -1;
    }
    if (st->code == PG_SSL_REQUEST && c->srv->tls && !c->is_tls) {
      pg_put_u8(&c->io.out, 'S');
      if (pg_io_flush(&c->io) != PG_IO_OK) return -1;
      /* bytes sent after the request but before the handshake would be
       * read as if encrypted: refuse them (CVE-2021-23214's lesson) */
      if (c->io.in_len > c->io.consumed) return -1;
      if (pg_io_start_tls(&c->io, c->srv->tls) != 0) return -1;
      c->is_tls = 1;
      continue;
    }
    if (st->code == PG_SSL_REQUEST || st->code == PG_GSSENC_REQUEST) {
      pg_put_u8(&c->io.out, 'N');
      if (pg_io_flush(&c->io) != PG_IO_OK) return -1;
      continue;
    }
    if (st->code == PG_CANCEL_REQUEST) {
      pg_server_cancel(c->srv, st->cancel_pid, st->cancel_key);
      return -1; /* the cancel connection is closed without a reply */
    }
    if (st->code != PG_PROTOCOL_3) {
      fatal(c, "0A000", "unsupported frontend protocol: the server speaks 3.0");
      return -1;
    }
    return 0;
  }
}

/* One message of the main loop: 0 to go on, -1 to close. */
static int dispatch(pg_conn_t *c, const pg_frame_t *f) {
  switch (f->type) {
  case 'Q': {
    const char *q = memchr(f->body, 0, f->body_len) ? (const char *)f->body : NULL;
    if (!q) {
      fatal(c, "08P01", "invalid Query message");
      return -1;
    }
    pg_simple_query(c, q);
    return 0;
  }
  case 'X':
    return -1;
  case 'P':
  case 'B':
  case 'D':
  case 'E':
  case 'C':
  case 'S':
  case 'H':
    return pg_extended(c, f);
  case 'F':
    pg_send_error(c, "ERROR", "0A000", "the function call protocol is not supported", 0);
    pg_send_ready(c);
    return 0;
  case 'd':
  case 'c':
  case 'f':
    return 0; /* COPY messages outside COPY are ignored, as PostgreSQL does */
  default: {
    char msg[64];
    snprintf(msg, sizeof msg, "invalid frontend message type %d", (unsigned char)f->type);
    fatal(c, "08P01", msg);
    return -1;
  }
  }
}

static void session(pg_conn_t *c) {
  pg_startup_t st;
  if (startup(c, &st) != 0) return;
  for (int i = 0; i < st.n_params; i++) {
    if (strcmp(st.names[i], "user") == 0) c->user = strdup(st.values[i]);
    if (strcmp(st.names[i], "database") == 0) c->database = strdup(st.values[i]);
    if (strcmp(st.names[i], "replication") == 0 && strcmp(st.values[i], "false") != 0) {
      fatal(c, "0A000", "replication connections are not supported");
      return;
    }
  }
  if (!c->user || !*c->user) {
    fatal(c, "28000", "no PostgreSQL user name specified in startup packet");
    return;
  }
  if (!c->database || !*c->database) {
    free(c->database);
    c->database = strdup(c->user);
  }
  for (size_t i = 0; i < sizeof reported / sizeof reported[0]; i++)
    pg_setting_put(c, reported[i][0], reported[i][1]);
  pg_setting_put(c, "search_path", "default");
  pg_setting_put(c, "extra_float_digits", "1");
  pg_setting_put(c, "statement_timeout", "0");
  pg_setting_put(c, "session_authorization", c->user);
  for (int i = 0; i < st.n_params; i++)
    if (strcmp(st.names[i], "application_name") == 0)
      pg_setting_put(c, "application_name", st.values[i]);
  if (!c->database || !(c->slot = pg_server_slot_take(c->srv))) {
    fatal(c, "53300", "sorry, too many clients already");
    return;
  }
  if (pg_auth_run(c) != 0) return;
  /* authenticated: only now the warehouse is opened */
  hl_status_t rc = hl_open(c->srv->cfg->warehouse, c->srv->cfg->metastore, &c->db);
  if (rc != HL_OK) {
    fatal(c, c->db ? hl_sqlstate(c->db) : "53200", c->db ? hl_errmsg(c->db) : "out of memory");
    return;
  }
  hl_set_warning_handler(c->db, on_warning, c);
  if (pg_session_defaults(c) != 0) {
    fatal(c, hl_sqlstate(c->db), hl_errmsg(c->db));
    return;
  }
  pg_server_slot_set_db(c->srv, c->slot, c->db);
  for (size_t i = 0; i < sizeof reported / sizeof reported[0]; i++)
    pg_send_parameter_status(c, reported[i][0], pg_setting_get(c, reported[i][0]));
  pg_msg_begin(&c->io.out, 'K');
  pg_put_i32(&c->io.out, c->slot->pid);
  pg_put_i32(&c->io.out, c->slot->key);
  pg_msg_end(&c->io.out);
  c->txn = 'I';
  pg_send_ready(c);
  if (pg_io_flush(&c->io) != PG_IO_OK) return;
  for (;;) {
    pg_frame_t f;
    pg_io_rc_t r = pg_io_next(&c->io, 0, 1, &f);
    if (r == PG_IO_STOP) {
      fatal(c, "57P01", "terminating connection due to administrator command");
      return;
    }
    if (r == PG_IO_TIMEOUT) {
      fatal(c, "57P05", "terminating connection due to idle-session timeout");
      return;
    }
    if (r == PG_IO_ERR && c->io.in_len >= 5) {
      fatal(c, "08P01", "invalid message length");
      return;
    }
    if (r != PG_IO_OK) return;
    if (dispatch(c, &f) != 0) {
      pg_io_flush(&c->io); /* a FATAL error may be waiting */
      return;
    }
    /* Sync and simple queries flush; so does a buffer grown large */
    if (c->io.out.len > 0 && (f.type == 'Q' || f.type == 'S' || f.type == 'H' || f.type == 'F' ||
                              c->io.out.len > 65536)) {
      if (pg_io_flush(&c->io) != PG_IO_OK) return;
    }
  }
}

void pg_conn_main(pg_server_t *srv, int fd) {
  pg_conn_t *c = calloc(1, sizeof *c);
  if (!c) {
    close(fd);
    return;
  }
  c->srv = srv;
  c->txn = 'I';
  pg_io_init(&c->io, fd, &srv->stop, srv->cfg->idle_timeout_s * 1000);
  session(c);
  pg_extended_free(c);
  if (c->slot) {
    pg_server_slot_set_db(srv, c->slot, NULL);
    pg_server_slot_release(srv, c->slot);
  }
  hl_close(c->db);
  pg_io_close(&c->io);
  for (int i = 0; i < c->n_settings; i++) {
    free(c->settings[i].name);
    free(c->settings[i].value);
  }
  free(c->user);
  free(c->database);
  free(c);
}
