/*
 * pg_int.h -- declarations shared by the files of the PostgreSQL server
 * (src/server, see pg_server.h for the file map).
 *
 * Ownership: a pg_server_t lives for one hl_pg_serve call; a pg_conn_t is
 * its connection thread's, freed when the thread ends, and owns everything
 * below it (its hl_db_t, prepared statements, portals, buffers).  Plain
 * malloc/free as in the CLI: util/mem.h is not visible to a client of the
 * public API.
 */
#ifndef HL_PG_INT_H
#define HL_PG_INT_H

#include "hivelite.h"
#include "pg_api.h"
#include "pg_server.h"
#include "pg_wire.h"

#include <openssl/ssl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* What we report as server_version: the protocol and catalog behaviour
 * clients see is that of PostgreSQL 14 (see docs/server.md). */
#define PG_SERVER_VERSION     "14.0 (hivelite " HIVELITE_VERSION ")"
#define PG_SERVER_VERSION_NUM "140000"

/* ---- one connection's byte stream (pg_io.c) ---- */

typedef enum pg_io_rc {
  PG_IO_OK = 0,
  PG_IO_EOF = -1,     /* the client closed */
  PG_IO_ERR = -2,     /* a socket or TLS error, or a bad frame */
  PG_IO_TIMEOUT = -3, /* idle for longer than the idle timeout */
  PG_IO_STOP = -4     /* the server shuts down (while idle) */
} pg_io_rc_t;

typedef struct pg_io {
  int fd;
  SSL *ssl;               /* after a successful SSLRequest, else NULL */
  unsigned char *in;      /* received bytes not yet consumed */
  size_t in_len, in_cap;  /* bytes held, capacity */
  size_t consumed;        /* bytes of the last frame returned */
  pg_buf_t out;           /* messages not yet written */
  const atomic_int *stop; /* the server's shutdown flag */
  int idle_timeout_ms;    /* 0: none */
} pg_io_t;

void pg_io_init(pg_io_t *io, int fd, const atomic_int *stop, int idle_timeout_ms);
void pg_io_close(pg_io_t *io);
/* The next whole message (STARTUP: the untyped first packet).  IDLE: the
 * idle timeout and the shutdown flag apply while waiting.  The frame is
 * valid until the next call. */
pg_io_rc_t pg_io_next(pg_io_t *io, int startup, int idle, pg_frame_t *f);
/* Writes out every pending byte. */
pg_io_rc_t pg_io_flush(pg_io_t *io);
/* The TLS handshake on the socket (after 'S' was sent).  0 or -1. */
int pg_io_start_tls(pg_io_t *io, SSL_CTX *ctx);
/* Bytes that arrived before the TLS handshake (must be none). */
size_t pg_io_pending(const pg_io_t *io);

/* ---- the server (pg_listen.c) ---- */

typedef struct pg_users pg_users_t;

typedef struct pg_slot {
  int in_use;
  int32_t pid, key; /* BackendKeyData */
  hl_db_t *db;      /* set while a session is open, under the server mutex */
} pg_slot_t;

typedef struct pg_server {
  const hl_pg_config_t *cfg;
  SSL_CTX *tls;        /* NULL without --tls-cert */
  pg_users_t *users;   /* NULL with --auth trust */
  atomic_int stop;     /* SIGTERM seen */
  pthread_mutex_t mu;  /* slots, n_threads */
  pg_slot_t *slots;    /* cfg->max_connections */
  int n_threads;       /* connection threads alive (sessions and handshakes) */
  pthread_cond_t gone; /* signalled when a thread ends */
} pg_server_t;

/* Cancels the statement of the session with this key (CancelRequest). */
void pg_server_cancel(pg_server_t *srv, int32_t pid, int32_t key);
/* Takes a free slot with fresh keys, or NULL when all are in use. */
pg_slot_t *pg_server_slot_take(pg_server_t *srv);
void pg_server_slot_set_db(pg_server_t *srv, pg_slot_t *slot, hl_db_t *db);
void pg_server_slot_release(pg_server_t *srv, pg_slot_t *slot);

/* ---- authentication (pg_auth.c) ---- */

pg_users_t *pg_users_load(const char *path, FILE *err);
void pg_users_free(pg_users_t *u);

typedef struct pg_conn pg_conn_t;
/* Runs the authentication exchange for CONN's user: 0 when it succeeded
 * (AuthenticationOk sent), -1 when it failed (the FATAL error sent). */
int pg_auth_run(pg_conn_t *c);

/* ---- local result rows (pg_query.c) ---- */

typedef struct pg_col {
  char *name;
  uint32_t oid;
  int16_t typlen;
  int32_t typmod;
} pg_col_t;

/* Rows made by the server itself (SHOW of a client setting, catalog
 * answers): every value is text, NULL for SQL NULL. */
typedef struct pg_rows {
  int n_cols;
  pg_col_t *cols;
  char **cells; /* n_rows * n_cols, row-major */
  size_t n_rows, cap_rows;
  int oom;
} pg_rows_t;

pg_rows_t *pg_rows_new(int n_cols);
void pg_rows_free(pg_rows_t *r);
/* Column COL's name and type (by OID: text 25, int4 23, ...). */
void pg_rows_col(pg_rows_t *r, int col, const char *name, uint32_t oid);
/* Appends a row of N_COLS values (copied; NULL = SQL NULL). */
void pg_rows_add(pg_rows_t *r, const char *const *values);

/* ---- a session (pg_conn.c) ---- */

#define PG_MAX_SETTINGS 64

typedef struct pg_setting {
  char *name, *value;
} pg_setting_t;

#define PG_MAX_RELS 256

/* A table psql may ask about by OID (pg_catalog.c). */
typedef struct pg_rel {
  uint32_t oid;
  char db[128], table[128];
} pg_rel_t;

typedef struct pg_pstmt pg_pstmt_t;
typedef struct pg_portal pg_portal_t;

struct pg_conn {
  pg_server_t *srv;
  pg_slot_t *slot;
  pg_io_t io;
  hl_db_t *db;
  char *user, *database;
  char txn;       /* ReadyForQuery status: 'I', 'T' or 'E' */
  int ext_failed; /* extended protocol: skip messages until Sync */
  int is_tls;     /* the stream is encrypted */
  pg_setting_t settings[PG_MAX_SETTINGS];
  int n_settings;
  pg_pstmt_t *pstmts; /* named and unnamed ("") prepared statements */
  pg_portal_t *portals;
  pg_rel_t rels[PG_MAX_RELS]; /* tables listed so far, by made-up OID */
  void *catalog_col_re;       /* pg_catalog.c: the column pattern while listing */
  int n_rels;
};

/* Sends ErrorResponse (SEVERITY "ERROR" or "FATAL"; POSITION 0: none). */
void pg_send_error(pg_conn_t *c, const char *severity, const char *sqlstate, const char *message,
                   int position);
/* ErrorResponse from DB's last error; BASE is the 1-based character
 * position of the statement's first character in the query string, TEXT
 * the statement (for turning line/column into a position). */
void pg_send_db_error(pg_conn_t *c, const char *query, size_t stmt_off);
void pg_send_notice(pg_conn_t *c, const char *sqlstate, const char *message);
void pg_send_parameter_status(pg_conn_t *c, const char *name, const char *value);
void pg_send_ready(pg_conn_t *c);
/* A client setting (SET/SHOW/ParameterStatus); NULL when unknown. */
const char *pg_setting_get(pg_conn_t *c, const char *name);
int pg_setting_put(pg_conn_t *c, const char *name, const char *value);
/* The settings the server gives each session (standard string literals,
 * --memory-limit), at startup and after a bare RESET: 0, or -1 with the
 * handle's error. */
int pg_session_defaults(pg_conn_t *c);
/* Checks what the configuration hands the engine (--memory-limit, read by
 * the engine itself); -1 with the reason on cfg->log. */
int pg_check_config(const hl_pg_config_t *cfg);
/* 1 when PostgreSQL reports NAME in ParameterStatus (at startup, on SET). */
int pg_is_reported(const char *name);

/* ---- statements (pg_query.c) ---- */

typedef enum pg_kind {
  PG_K_EMPTY,     /* blanks and comments only */
  PG_K_BEGIN,     /* BEGIN / START TRANSACTION */
  PG_K_COMMIT,    /* COMMIT / END */
  PG_K_ROLLBACK,  /* ROLLBACK / ABORT */
  PG_K_SET,       /* SET of a client setting (no dot in its name), RESET, DISCARD */
  PG_K_SHOW,      /* SHOW of a client setting */
  PG_K_CATALOG,   /* a catalog query answered by pg_catalog.c */
  PG_K_RESET_ALL, /* a bare RESET: hivelite's, then the server's session settings again */
  PG_K_LOCKED,    /* SET / RESET of hivelite.memory_limit under --memory-limit: refused */
  PG_K_HIVE       /* anything else: hl_prepare */
} pg_kind_t;

/* The end of the statement starting at SQL: the offset of its ';' or of
 * the terminating NUL (quotes, backquotes and comments skipped). */
size_t pg_stmt_end(const char *sql);
pg_kind_t pg_classify(pg_conn_t *c, const char *stmt);

/* A result to send: from hivelite (stmt) or made here (rows). */
typedef struct pg_result {
  hl_stmt_t *stmt;  /* owned, or NULL */
  pg_rows_t *rows;  /* owned, or NULL */
  size_t next_row;  /* rows: the next to send */
  int started;      /* stmt: the first hl_step ran */
  hl_status_t last; /* stmt: the last hl_step's status */
  uint64_t sent;    /* rows sent so far */
  char tag[64];     /* CommandComplete tag without the row count */
  int counted;      /* 1: the tag takes the row count ("SELECT n") */
} pg_result_t;

void pg_result_free(pg_result_t *r);
/* Runs a local statement of kind KIND (not PG_K_HIVE) into R: -1 when it
 * failed (ErrorResponse sent). */
int pg_run_local(pg_conn_t *c, pg_kind_t kind, const char *stmt, pg_result_t *r);
/* Sets R's tag for the Hive statement STMT. */
void pg_result_tag(pg_result_t *r, const char *stmt);
/* The first hl_step, so that a statement's columns are known: 0, or -1
 * (error left in the handle). */
int pg_result_start(pg_result_t *r);
int pg_result_ncols(pg_result_t *r);
/* RowDescription (FORMATS: per column 0/1, NULL = all text). */
void pg_send_row_description(pg_conn_t *c, pg_result_t *r, const int16_t *formats);
/* DataRows up to MAX (0: all): 1 when more rows remain (PortalSuspended),
 * 0 when done (CommandComplete sent), -1 on error (ErrorResponse sent). */
int pg_send_rows(pg_conn_t *c, pg_result_t *r, const int16_t *formats, uint64_t max,
                 const char *query, size_t stmt_off);

/* What a statement that succeeded changes in the session (USE: the
 * current schema). */
void pg_after_statement(pg_conn_t *c, const pg_result_t *r, const char *stmt);

/* Simple query (Q). */
void pg_simple_query(pg_conn_t *c, const char *query);

/* ---- extended query (pg_extended.c) ---- */

/* One message of the extended protocol (P B D E C S H); -1 to close. */
int pg_extended(pg_conn_t *c, const pg_frame_t *f);
void pg_extended_free(pg_conn_t *c);

/* ---- parameters (pg_params.c) ---- */

/* Binds M's values into ST, parameter I sent as type TYPES[I]: 0, or -1
 * with the ErrorResponse sent. */
int pg_bind_params(pg_conn_t *c, hl_stmt_t *st, const pg_bind_msg_t *m, const uint32_t *types,
                   int n_types);

/* ---- types (pg_types.c) ---- */

typedef struct pg_type {
  uint32_t oid;
  int16_t typlen;
  int32_t typmod;
} pg_type_t;

/* The PostgreSQL type that carries values of the Hive type HIVE_TYPE. */
pg_type_t pg_type_of(const char *hive_type);
/* Appends column COL's value of the current row in FORMAT (0 text, 1
 * binary) as a DataRow field (length word, bytes); -1 when its binary form
 * is unsupported (then 0A000). */
int pg_put_value(pg_buf_t *b, hl_stmt_t *stmt, int col, uint32_t oid, int format);

/* "YYYY-MM-DD": days since 2000-01-01 (PostgreSQL's epoch), *END after
 * it; 0 or -1. */
int pg_parse_date(const char *s, int64_t *days, const char **end);
/* "YYYY-MM-DD[ HH:MM:SS[.f]]": microseconds since 2000-01-01 (digits past
 * the sixth truncated), *END after it; 0 or -1. */
int pg_parse_timestamp(const char *s, int64_t *micros, const char **end);

/* ---- catalog (pg_catalog.c) ---- */

/* 1 when STMT is a catalog query pg_catalog.c answers. */
int pg_catalog_match(const char *stmt);
/* Answers it into R: 0, or -1 (ErrorResponse sent). */
int pg_catalog_run(pg_conn_t *c, const char *stmt, pg_result_t *r);

#endif
