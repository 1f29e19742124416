/*
 * pg_server.h -- `hivelite serve`: hivelite as a PostgreSQL server, the
 * entry points the CLI (src/cli/serve.c) calls.
 *
 * The server is a client of the public API only (include/hivelite.h): each
 * connection opens its own hl_db_t on the warehouse, after authentication,
 * and runs statements through hl_prepare / hl_step.  Files of this folder:
 *
 *   pg_wire.c     messages as bytes: builder, framing, checked decoders
 *   pg_io.c       one connection's byte stream: a socket or TLS (OpenSSL)
 *   pg_listen.c   hl_pg_serve: listener, connection slots, cancel keys,
 *                 signals and shutdown
 *   pg_conn.c     one connection: startup, authentication, the message loop
 *   pg_auth.c     SCRAM-SHA-256 and the users file (hl_pg_passwd)
 *   pg_query.c    statements: splitting, local commands (BEGIN, SET, SHOW),
 *                 running, RowDescription / DataRow / CommandComplete
 *   pg_extended.c Parse / Bind / Describe / Execute / Close / Sync
 *   pg_types.c    Hive types as PostgreSQL type OIDs; value encodings
 *   pg_catalog.c  pg_catalog / information_schema queries of client tools
 *                 answered from SHOW / DESCRIBE
 */
#ifndef HL_PG_SERVER_H
#define HL_PG_SERVER_H

#include <stdio.h>

typedef struct hl_pg_config {
  const char *warehouse; /* -w */
  const char *metastore; /* -m, or NULL */
  const char *host;      /* --listen host (numeric or a name) */
  int port;              /* --listen port; 0 picks a free one */
  const char *auth_file; /* --auth FILE (users of hivelite passwd) */
  int auth_trust;        /* --auth trust: no password (loopback only) */
  int allow_cleartext;   /* --auth-cleartext: password over TLS instead of SCRAM */
  const char *tls_cert;  /* --tls-cert, with tls_key */
  const char *tls_key;
  int max_connections; /* --max-connections (default 64) */
  int idle_timeout_s;  /* --idle-timeout: idle sessions closed (0: never) */
  /* --memory-limit: hivelite.memory_limit of every session, which sessions
   * may not change (NULL: each session's own) */
  const char *memory_limit;
  FILE *log; /* "listening on HOST:PORT" and connection errors */
} hl_pg_config_t;

/* Serves until SIGTERM or SIGINT (blocked in every thread of the process
 * from the call on): then stops accepting, lets running statements end,
 * closes idle sessions with 57P01 and returns 0.  Returns 1 when the
 * configuration is refused or the address cannot be bound (the reason on
 * cfg->log). */
int hl_pg_serve(const hl_pg_config_t *cfg);

/* Writes or updates USER in the users file PATH with a SCRAM-SHA-256
 * verifier of PASSWORD (random salt, 4096 iterations; the password itself
 * is not stored).  Returns 0, or 1 with the reason on ERR. */
int hl_pg_passwd(const char *path, const char *user, const char *password, FILE *err);

#endif
