/*
 * tsasl.h -- Thrift's SASL transport with the GSSAPI (Kerberos v5)
 * mechanism, as the Hive Metastore speaks it when
 * hive.metastore.sasl.enabled is true: client and server negotiation,
 * then a transport (ttransport.h) whose every message travels in 4-byte
 * length frames, wrapped by the security layer the two sides agreed on.
 *
 * Negotiation frames (Thrift's TSaslTransport): a status byte (START 1,
 * OK 2, BAD 3, ERROR 4, COMPLETE 5), a 4-byte big-endian payload length,
 * the payload.  The client sends START with the mechanism name "GSSAPI",
 * then OK frames carrying GSS tokens; the server answers OK with its
 * tokens and COMPLETE at the end.  After the Kerberos context, the SASL
 * GSSAPI mechanism (RFC 4752) exchanges one wrapped 4-byte word each way:
 * the server's offered protection levels (bit 1 auth, 2 auth-int, 4
 * auth-conf) and largest receive buffer, the client's choice, its buffer
 * and an optional authorization id.
 *
 * Kerberos itself is MIT's GSSAPI library (libgssapi_krb5): tickets,
 * keytabs, replay caches and ciphers are not something to write by hand.
 * Credentials come from a keytab named per call (gss_acquire_cred_from),
 * never from process-wide settings, so several servers and clients can
 * live in one process.
 *
 * Every length from the peer is checked before use (a negotiation
 * payload above HL_TSASL_MAX_TOKEN is refused), a status byte that is not
 * expected ends the negotiation, and every failure is an error: 08P01 for
 * bytes that break the protocol, 28000 for a peer that does not
 * authenticate (no ticket, wrong principal, a protection level the other
 * side refuses), 08000 for I/O.
 */
#ifndef HL_THRIFT_TSASL_H
#define HL_THRIFT_TSASL_H

#include "thrift/ttransport.h"
#include "util/error.h"

#include <stddef.h>
#include <stdint.h>

/* Largest negotiation payload accepted: Kerberos tokens carrying a large
 * authorization data (Active Directory PACs) stay well below. */
#define HL_TSASL_MAX_TOKEN (1u << 20)

typedef enum hl_tsasl_status {
  HL_TSASL_START = 1,
  HL_TSASL_OK = 2,
  HL_TSASL_BAD = 3,
  HL_TSASL_ERROR = 4,
  HL_TSASL_COMPLETE = 5
} hl_tsasl_status_t;

/* The protection levels, as RFC 4752 numbers them. */
typedef enum hl_tsasl_qop {
  HL_TSASL_AUTH = 1,      /* authentication only: frames are plaintext */
  HL_TSASL_AUTH_INT = 2,  /* every frame signed (gss_wrap without confidentiality) */
  HL_TSASL_AUTH_CONF = 4, /* every frame encrypted */
} hl_tsasl_qop_t;

/* "auth", "auth-int", "auth-conf" (Hive's hive.metastore.thrift.sasl.qop
 * names; Hadoop's hadoop.rpc.protection names authentication, integrity,
 * privacy are accepted too) -> *OUT; else 22023. */
hl_status_t hl_tsasl_qop_parse(const char *name, hl_tsasl_qop_t *out, hl_error_t *err);
const char *hl_tsasl_qop_name(hl_tsasl_qop_t qop);

/* One negotiation frame at the start of DATA[0..LEN): HL_OK with its
 * status, payload and total size; HL_CORRUPT (08P01) with *TRUNCATED = 1
 * when more bytes may complete it, or for a status outside 1..5 or a
 * payload longer than MAX. Pure: no allocation (the fuzz target runs it). */
hl_status_t hl_tsasl_parse_frame(const uint8_t *data, size_t len, size_t max, int *status,
                                 const uint8_t **payload, size_t *payload_len, size_t *frame_len,
                                 int *truncated, hl_error_t *err);

/* Hive's principal rule: a PATTERN "service/_HOST@REALM" has its _HOST
 * replaced by HOST lowercased, or, when HOST is NULL, empty or 0.0.0.0, by
 * the canonical name of this machine (its host name resolved with
 * AI_CANONNAME), lowercased.  Other patterns are copied.  *OUT is
 * heap-allocated (hl_free). */
hl_status_t hl_tsasl_resolve_principal(const char *pattern, const char *host, char **out,
                                       hl_error_t *err);

typedef struct hl_tsasl_server_opts {
  const char *principal; /* the service principal, _HOST already resolved */
  const char *keytab;    /* keytab holding its keys */
  hl_tsasl_qop_t qop;    /* the one level offered (Hive offers its configured one) */
} hl_tsasl_server_opts_t;

/* Checks at start-up that the keytab holds the principal's keys (so a
 * misconfigured server fails at once, not at the first client). */
hl_status_t hl_tsasl_server_check(const hl_tsasl_server_opts_t *opts, hl_error_t *err);

/* Server side: runs the negotiation on T (an hl_tt_init'ed transport on
 * the accepted socket, its timeout bounding each wait).  On HL_OK, T
 * carries SASL frames with the agreed layer and *PEER (hl_free) names the
 * authenticated client principal.  On failure the peer has been sent BAD
 * or ERROR where the protocol allows, and the caller closes the socket. */
hl_status_t hl_tsasl_server_accept(hl_ttransport_t *t, const hl_tsasl_server_opts_t *opts,
                                   char **peer, hl_error_t *err);

typedef struct hl_tsasl_client_opts {
  const char *keytab;    /* client keytab; NULL: the default credential cache */
  const char *principal; /* the client principal in KEYTAB (NULL: the default) */
  /* the server's whole principal, "hive/host@REALM" (Hive's client takes
   * hive.metastore.kerberos.principal with _HOST replaced by the URI's
   * host: hl_tsasl_resolve_principal); NULL: SERVICE@HOST, the realm
   * from krb5.conf's domain_realm */
  const char *server_principal;
} hl_tsasl_client_opts_t;

/* Client side: negotiates with the server SERVICE/HOST (e.g. "hive",
 * "metastore.example.com") on T, requiring protection level QOP; OPTS may
 * be NULL (the default credential cache).  On HL_OK, hl_tt_send and
 * hl_tt_recv on T carry whole Thrift messages. */
hl_status_t hl_tsasl_client_start(hl_ttransport_t *t, const char *service, const char *host,
                                  hl_tsasl_qop_t qop, const hl_tsasl_client_opts_t *opts,
                                  hl_error_t *err);

#endif
