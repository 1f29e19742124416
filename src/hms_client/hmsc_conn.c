/*
 * hmsc_conn.c -- the metastore client's connection: the URI list tried in
 * order, connect and socket timeouts, the buffered or framed transport,
 * SASL GSSAPI (Kerberos) negotiated on every new connection, and one
 * reconnect-and-resend for reads (hmsc_int.h).
 *
 * Why resend only reads: after a write's bytes left, a broken connection
 * does not say whether the metastore applied it; sending it again could
 * apply it twice (Hive's RetryingMetaStoreClient retries only what is
 * marked idempotent for the same reason).
 */
#include "hms_client/hmsc_int.h"

#include "util/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void free_uris(hmsc_conn_t *c) {
  for (int i = 0; i < c->n_uris; i++) {
    hl_free(c->uris[i].text);
    hl_free(c->uris[i].host);
    hl_free(c->uris[i].port);
  }
  hl_free(c->uris);
  c->uris = NULL;
  c->n_uris = 0;
}

static char *dup_n(const char *s, size_t n) {
  char *d = hl_malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

/* One "thrift://host:port" (whitespace around it allowed). */
static hl_status_t parse_one(const char *s, size_t n, hmsc_uri_t *u, hl_error_t *err) {
  while (n && (*s == ' ' || *s == '\t'))
    s++, n--;
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  static const char scheme[] = "thrift://";
  size_t sl = sizeof scheme - 1;
  if (n <= sl || strncmp(s, scheme, sl) != 0)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "metastore URI \"%.*s\" does not start with thrift://", (int)n, s);
  const char *h = s + sl, *end = s + n;
  const char *colon = NULL;
  if (*h == '[') { /* [v6 address]:port */
    const char *close = memchr(h, ']', (size_t)(end - h));
    if (close && close + 1 < end && close[1] == ':') colon = close + 1;
  } else {
    for (const char *p = end; p > h; p--)
      if (p[-1] == ':') {
        colon = p - 1;
        break;
      }
  }
  if (!colon || colon == h || colon + 1 == end)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "metastore URI \"%.*s\" needs a host and a port", (int)n, s);
  for (const char *p = colon + 1; p < end; p++)
    if (*p < '0' || *p > '9' || p - colon > 5)
      return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                        "metastore URI \"%.*s\" has a bad port", (int)n, s);
  const char *hs = h, *he = colon;
  if (*hs == '[') hs++, he--;
  u->text = dup_n(s, n);
  u->host = dup_n(hs, (size_t)(he - hs));
  u->port = dup_n(colon + 1, (size_t)(end - colon - 1));
  if (!u->text || !u->host || !u->port) return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hmsc_conn_init(hmsc_conn_t *c, const char *uris, hl_error_t *err) {
  memset(c, 0, sizeof *c);
  c->fd = -1;
  c->cur = -1;
  c->connect_timeout_ms = 20000;
  c->socket_timeout_ms = 600000;
  int n = 1;
  for (const char *p = uris; *p; p++)
    n += *p == ',';
  if (n > 64)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "more than 64 metastore URIs");
  if (!(c->uris = hl_calloc((size_t)n, sizeof *c->uris))) return hl_err_nomem(err);
  const char *p = uris;
  for (int i = 0; i < n; i++) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    c->n_uris = i + 1;
    if (parse_one(p, len, &c->uris[i], err)) {
      free_uris(c);
      return err->code;
    }
    p += len + (e != NULL);
  }
  return HL_OK;
}

void hmsc_conn_close(hmsc_conn_t *c) {
  if (c->fd >= 0) {
    hl_tt_fini(&c->tt);
    close(c->fd);
  }
  c->fd = -1;
  c->cur = -1;
}

void hmsc_conn_fini(hmsc_conn_t *c) {
  hmsc_conn_close(c);
  free_uris(c);
  hl_free(c->sasl_principal);
  hl_free(c->sasl_keytab);
  hl_free(c->sasl_client);
  c->sasl_principal = c->sasl_keytab = c->sasl_client = NULL;
}

const char *hmsc_conn_uri(const hmsc_conn_t *c) {
  return c->n_uris ? c->uris[c->cur >= 0 ? c->cur : 0].text : "";
}

/* A TCP connection to U within the connect timeout: the fd, or -1 with
 * WHY (a static or strerror text). */
static int connect_one(const hmsc_uri_t *u, int timeout_ms, const char **why) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
  int gai = getaddrinfo(u->host, u->port, &hints, &res);
  if (gai) {
    *why = gai_strerror(gai);
    return -1;
  }
  int fd = -1;
  *why = "no address";
  for (struct addrinfo *a = res; a; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      *why = strerror(errno);
      continue;
    }
    int rc = connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      int n;
      do
        n = poll(&p, 1, timeout_ms > 0 ? timeout_ms : -1);
      while (n < 0 && errno == EINTR);
      int soerr = 0;
      socklen_t sl = sizeof soerr;
      if (n == 0) {
        errno = ETIMEDOUT;
      } else if (n > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0) {
        errno = soerr;
        rc = soerr ? -1 : 0;
      }
    }
    if (rc == 0) {
      /* back to blocking: the transport bounds every wait with poll */
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      break;
    }
    *why = strerror(errno);
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

/* SASL GSSAPI on the fresh connection to URI U, when configured: the
 * service principal is hive.metastore.kerberos.principal with _HOST
 * replaced by U's host (Hive's client rule), so each URI of the list is
 * asked for its own ticket.  The negotiation's waits are bounded by the
 * connect timeout, not the socket timeout: a server that does not speak
 * SASL may sit on the START frame waiting for more bytes, and that
 * should fail as fast as a connect that gets no answer. */
static hl_status_t handshake(hmsc_conn_t *c, const hmsc_uri_t *u, hl_error_t *err) {
  if (!c->sasl) return HL_OK;
  char *principal = NULL;
  if (c->sasl_principal) {
    hl_status_t rc = hl_tsasl_resolve_principal(c->sasl_principal, u->host, &principal, err);
    if (rc) return rc;
  }
  hl_tsasl_client_opts_t o = {c->sasl_keytab, c->sasl_client, principal};
  int saved = c->tt.timeout_ms;
  if (c->connect_timeout_ms > 0 && (saved <= 0 || c->connect_timeout_ms < saved))
    c->tt.timeout_ms = c->connect_timeout_ms;
  hl_status_t rc = hl_tsasl_client_start(&c->tt, "hive", u->host, c->sasl_qop, &o, err);
  c->tt.timeout_ms = saved;
  hl_free(principal);
  return rc;
}

/* Appends "URI: TEXT" to the list WHY[0..*WL). */
static void add_why(char *why, size_t cap, size_t *wl, const char *uri, const char *text) {
  int k = snprintf(why + *wl, cap - *wl, "%s%s: %s", *wl ? "; " : "", uri, text);
  if (k > 0) *wl = *wl + (size_t)k < cap ? *wl + (size_t)k : cap - 1;
}

hl_status_t hmsc_conn_connect(hmsc_conn_t *c, hl_error_t *err) {
  hmsc_conn_close(c);
  char why[1024] = "";
  size_t wl = 0;
  /* a Kerberos refusal (28000) outranks an unreachable URI in the
   * SQLSTATE reported: it says what to fix */
  bool auth = false;
  for (int i = 0; i < c->n_uris; i++) {
    const char *w;
    int fd = connect_one(&c->uris[i], c->connect_timeout_ms, &w);
    if (fd < 0) {
      add_why(why, sizeof why, &wl, c->uris[i].text, w);
      continue;
    }
    hl_tt_init(&c->tt, fd, c->framed);
    c->tt.timeout_ms = c->socket_timeout_ms;
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = handshake(c, &c->uris[i], &e);
    if (rc == HL_OK) {
      c->fd = fd;
      c->cur = i;
      return HL_OK;
    }
    hl_tt_fini(&c->tt);
    close(fd);
    if (rc == HL_NOMEM || rc == HL_MISUSE) { /* the next URI would fail the same way */
      hl_err_move(err, &e);
      hl_err_prefix(err, "metastore %s", c->uris[i].text);
      return rc;
    }
    bool refused = strcmp(e.sqlstate, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION)) == 0;
    auth |= refused;
    /* a plain metastore takes the SASL start for the beginning of a call
     * and waits for the rest, or closes: say where it failed */
    char text[512];
    snprintf(text, sizeof text, "%s%s", e.message ? e.message : "SASL failed",
             refused ? "" : " (in the SASL negotiation: is SASL enabled on the metastore?)");
    add_why(why, sizeof why, &wl, c->uris[i].text, text);
    hl_err_clear(&e);
  }
  if (auth)
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "could not authenticate to the metastore with Kerberos (%s)", why);
  return hl_err_set(err, HL_IOERR, HL_SS(SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
                    "could not connect to the metastore (%s)", why);
}

/* One send and receive on the open connection. */
static hl_status_t exchange(hmsc_conn_t *c, const void *msg, size_t len, const uint8_t **reply,
                            size_t *rlen, hl_error_t *err) {
  hl_status_t rc = hl_tt_send(&c->tt, msg, len, err);
  if (!rc) rc = hl_tt_recv(&c->tt, reply, rlen, err);
  return rc;
}

hl_status_t hmsc_conn_roundtrip(hmsc_conn_t *c, const void *msg, size_t len, bool idempotent,
                                const uint8_t **reply, size_t *rlen, hl_error_t *err) {
  if (c->fd < 0) {
    hl_status_t rc = hmsc_conn_connect(c, err);
    if (rc) return rc;
  }
  for (int attempt = 0;; attempt++) {
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = exchange(c, msg, len, reply, rlen, &e);
    if (rc == HL_OK) {
      c->replied = true;
      return HL_OK;
    }
    /* a metastore that requires Kerberos closes a connection whose first
     * bytes are not SASL without a word: say what may be missing */
    const char *hint = !c->sasl && !c->replied && rc != HL_CORRUPT
                           ? " (if the metastore requires Kerberos, set "
                             "'hive.metastore.sasl.enabled'='true')"
                           : "";
    char *uri = hl_strdup(hmsc_conn_uri(c));
    hmsc_conn_close(c);
    if (rc == HL_CORRUPT) { /* the stream is out of step: never reused */
      hl_err_move(err, &e);
      hl_err_prefix(err, "metastore %s", uri ? uri : "");
      hl_free(uri);
      return HL_CORRUPT;
    }
    /* HL_DONE (closed before a reply), HL_IOERR (reset, timeout) */
    if (idempotent && attempt == 0) {
      hl_error_t ce;
      hl_err_init(&ce);
      if (hmsc_conn_connect(c, &ce) == HL_OK) {
        hl_err_clear(&e);
        hl_free(uri);
        continue;
      }
      hl_err_clear(&ce);
    }
    hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_FAILURE),
               "connection to the metastore %s lost: %s%s", uri ? uri : "",
               rc == HL_DONE ? "closed by the server" : e.message, hint);
    hl_err_clear(&e);
    hl_free(uri);
    return HL_IOERR;
  }
}
