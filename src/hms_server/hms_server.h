/*
 * hms_server.h -- hivelite's catalog served as a Hive Metastore (Thrift
 * binary protocol, buffered transport): the read methods Hive 2.3 and
 * Hive 4 clients call first (README.md lists them).
 *
 * hl_hms_serve listens on HOST:PORT, runs one thread per connection, each
 * with its own catalog connection (SQLite handles are not shared across
 * threads), and returns when SIGTERM or SIGINT arrives: it stops
 * accepting, shuts every connection down, joins the threads and returns
 * HL_OK.  The two signals are blocked in the calling thread (and so in
 * every thread it starts) while it runs and taken with a signalfd.
 */
#ifndef HL_HMS_SERVER_H
#define HL_HMS_SERVER_H

#include "catalog/catalog.h"
#include "thrift/tsasl.h"
#include "storage/stor.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hl_hms_server_opts {
  const char *metastore; /* path of the SQLite metastore each thread opens */
  const char *host;      /* numeric IPv4 address to bind */
  int port;              /* 0: any free port */
  int idle_timeout_ms;   /* a connection silent this long is closed; <= 0 never */
  int max_conns;         /* connections served at once (>= 1); the next wait in
                            the listen backlog until one closes */
  /* SASL GSSAPI (Kerberos): when sasl_principal is set, every connection
   * must negotiate first (tsasl.h) or is closed before anything is served;
   * the principal (its _HOST resolved) and keytab are checked before the
   * socket listens.  Each connection's outcome and client principal are
   * logged on stderr. */
  const char *sasl_principal;
  const char *sasl_keytab;
  hl_tsasl_qop_t sasl_qop;
  int lock_timeout_s; /* metastore locks without a heartbeat this long are
                         dropped (hivelite.metastore.lock_timeout_s); <= 0:
                         300, Hive's hive.txn.timeout */
  /* called once the socket listens, with the port bound (may be NULL) */
  void (*on_listen)(void *ctx, const char *host, int port);
  void *ctx;
  size_t max_reply; /* largest reply built (a partition list over it is a
                       MetaException); 0: HL_HMS_DEFAULT_MAX_REPLY */
  /* the file system the write methods create and remove data through,
   * shared by every connection (thread-safe: the session's router, with
   * the warehouse's S3 settings); NULL: each connection its own local one */
  hl_stor_t *fs;
} hl_hms_server_opts_t;

hl_status_t hl_hms_serve(const hl_hms_server_opts_t *opts, hl_error_t *err);

/* hivelite.metastore.max_reply_bytes' default: what clients accept in one
 * message (Hive's and Trino's 100 MB). */
#define HL_HMS_DEFAULT_MAX_REPLY (100u * 1024 * 1024)

/* What a connection shares besides its catalog connection: its file
 * system (local; directories of DDL writes) and the server's lock manager
 * (hms_lock.h). */
struct hl_hms_locks;
typedef struct hl_hms_env {
  hl_stor_t *fs;
  struct hl_hms_locks *locks;
} hl_hms_env_t;

/* One message of a connection: decodes the call in MSG[0..LEN), runs it
 * against CAT (and ENV, for the write, statistics and lock methods) and
 * appends the reply to OUT (nothing for a oneway call); a partition list
 * longer than MAX_REPLY bytes is answered with a MetaException instead.
 * HL_OK also for calls answered with an exception; an error (08P01 for
 * bytes that are not a call) means the connection should be closed.
 * Exposed for the server loop (hms_server.c). */
hl_status_t hl_hms_handle(hl_cat_t *cat, const hl_hms_env_t *env, const uint8_t *msg, size_t len,
                          size_t max_reply, hl_arena_t *arena, hl_buf_t *out, hl_error_t *err);

#endif
