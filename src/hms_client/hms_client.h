/*
 * hms_client.h -- a Hive Metastore attached over Thrift as a catalog
 * backend (catalog.h's interface, cat_backend.h's operations).
 *
 * URIS is "thrift://host:port[,thrift://host2:port]": each is tried in
 * order at connect and reconnect, as Hive's clients do.  PROPS are the
 * catalog's properties (CREATE CATALOG ... PROPERTIES, Hive's names):
 *
 *   hive.metastore.client.socket.timeout          longest wait for a reply
 *                                                 (Hive's default 600s)
 *   hive.metastore.client.connect.timeout         longest wait for a connect
 *                                                 (default 20s)
 *   hive.metastore.thrift.framed.transport.enabled  'true': framed transport
 *                                                 (default buffered)
 *   hive.metastore.sasl.enabled                   'true': SASL GSSAPI
 *                                                 (Kerberos) on every
 *                                                 connection (tsasl.h)
 *   hive.metastore.kerberos.principal             the service principal,
 *                                                 hive/_HOST@REALM (_HOST:
 *                                                 each URI's host); unset:
 *                                                 hive@HOST, realm from
 *                                                 krb5.conf
 *   hive.metastore.thrift.sasl.qop                auth (default), auth-int,
 *     (else hadoop.rpc.protection)                auth-conf required
 *   hadoop.kerberos.keytab, .principal            (Doris's names) a client
 *                                                 keytab and principal;
 *                                                 unset: KRB5CCNAME's ticket
 *   hive.metastore.batch.retrieve.max             partitions per
 *                                                 get_partitions_by_names
 *                                                 (Hive's default 300)
 *   hive.metastore-cache-ttl                      seconds a read reply is
 *                                                 reused (default 0: never)
 *
 * LOCAL is the embedded catalog that keeps intents and write locks
 * (hl_cat_local); it stays the caller's to close, after *OUT.  The
 * connection opens here, so a metastore that no URI reaches is 08001 now,
 * and one that refuses the Kerberos credentials 28000.
 */
#ifndef HL_HMS_CLIENT_H
#define HL_HMS_CLIENT_H

#include "catalog/catalog.h"

hl_status_t hl_hmsc_open(const char *uris, const hl_kv_t *props, int n_props, hl_cat_t *local,
                         hl_cat_t **out, hl_error_t *err);

/* True when TEXT names a metastore to attach ("thrift://..."). */
bool hl_hmsc_is_uri(const char *text);

#endif
