/*
 * hmsc_int.h -- internals of the metastore client shared by its files:
 * the connection (hmsc_conn.c), the record mapping (hmsc_map.c) and the
 * backend (hmsc_cat.c).
 */
#ifndef HL_HMSC_INT_H
#define HL_HMSC_INT_H

#include "catalog/catalog.h"
#include "hms/hms.h"
#include "thrift/tsasl.h"
#include "thrift/ttransport.h"

#include <stdbool.h>

/* ---------------------------------------------------------- connection */

typedef struct hmsc_uri {
  char *text; /* "thrift://host:port", for messages */
  char *host;
  char *port;
} hmsc_uri_t;

typedef struct hmsc_conn {
  hmsc_uri_t *uris; /* heap, parsed from the URI list */
  int n_uris;
  int cur;            /* the URI connected to, -1 when not connected */
  int fd;             /* -1 when not connected */
  hl_ttransport_t tt; /* over fd */
  bool framed;        /* hive.metastore.thrift.framed.transport.enabled */
  bool sasl;          /* hive.metastore.sasl.enabled */
  /* SASL GSSAPI (Kerberos), when sasl is set: the service principal
   * pattern (hive.metastore.kerberos.principal, _HOST replaced by each
   * URI's host), the level required, and a client keytab + principal
   * (hadoop.kerberos.keytab / .principal; NULL: KRB5CCNAME's ticket).
   * Heap strings owned by the connection. */
  char *sasl_principal;
  char *sasl_keytab;
  char *sasl_client;
  hl_tsasl_qop_t sasl_qop;
  bool replied;           /* some connection of this handle answered a call */
  int connect_timeout_ms; /* hive.metastore.client.connect.timeout */
  int socket_timeout_ms;  /* hive.metastore.client.socket.timeout */
  int32_t seqid;          /* of the last call */
} hmsc_conn_t;

/* Parses URIS (22023 on a malformed list); connects nothing. */
hl_status_t hmsc_conn_init(hmsc_conn_t *c, const char *uris, hl_error_t *err);
void hmsc_conn_fini(hmsc_conn_t *c);
/* Connects to the first URI that answers (08001 naming them all). */
hl_status_t hmsc_conn_connect(hmsc_conn_t *c, hl_error_t *err);
void hmsc_conn_close(hmsc_conn_t *c);
/* Sends the call MSG[0..LEN) and receives its reply into *REPLY, *RLEN
 * (valid until the next call).  When the connection breaks and IDEMPOTENT
 * is set, reconnects and sends once more (RetryingMetaStoreClient); a
 * write is never resent, since the metastore may have applied it.  A lost
 * connection is 08006 naming the URI; bytes that break the protocol are
 * 08P01 and close the connection. */
hl_status_t hmsc_conn_roundtrip(hmsc_conn_t *c, const void *msg, size_t len, bool idempotent,
                                const uint8_t **reply, size_t *rlen, hl_error_t *err);
/* The URI in use (or the first), for messages. */
const char *hmsc_conn_uri(const hmsc_conn_t *c);

/* ------------------------------------------------------------- mapping */

/* Metastore records as catalog records, in ARENA (NULL on OOM), through
 * src/hms/hms_map_from.h unchecked: names lower-cased, "file:/p" and
 * "file:///p" become "/p" and other URIs (hdfs://, s3://) stay as given,
 * the default partition's value becomes NULL. */
hl_cat_db_t *hmsc_db_from(const hl_hms_database_t *d, hl_arena_t *arena);
hl_cat_table_t *hmsc_table_from(const hl_hms_table_t *t, int64_t id, hl_arena_t *arena);
/* P of TABLE (whose part keys name its values) with id ID; NULL also
 * when P does not have a value for each key. */
hl_cat_partition_t *hmsc_partition_from(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                        int64_t id, hl_arena_t *arena);
/* A partition name "k1=v1/k2=v2" (escaped) as N values; the default
 * partition's name becomes NULL.  -1 when NAME does not have N keys. */
int hmsc_parse_name(const char *name, int n, char **values, hl_arena_t *arena);

#endif
