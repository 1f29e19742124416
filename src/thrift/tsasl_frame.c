/*
 * tsasl_frame.c -- the parts of the SASL transport (tsasl.h) that need no
 * Kerberos: protection level names, the negotiation frame parser, and
 * Hive's _HOST rule for service principals.  Kept apart from tsasl.c so
 * that the parser is plainly a pure function over untrusted bytes.
 */
#include "thrift/tsasl.h"

#include "util/mem.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <netdb.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

hl_status_t hl_tsasl_qop_parse(const char *name, hl_tsasl_qop_t *out, hl_error_t *err) {
  static const struct {
    const char *name;
    hl_tsasl_qop_t qop;
  } names[] = {{"auth", HL_TSASL_AUTH},           {"authentication", HL_TSASL_AUTH},
               {"auth-int", HL_TSASL_AUTH_INT},   {"integrity", HL_TSASL_AUTH_INT},
               {"auth-conf", HL_TSASL_AUTH_CONF}, {"privacy", HL_TSASL_AUTH_CONF}};
  for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++) {
    if (strcasecmp(name, names[i].name) == 0) {
      *out = names[i].qop;
      return HL_OK;
    }
  }
  return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                    "SASL protection level must be auth, auth-int or auth-conf, not \"%s\"",
                    name ? name : "");
}

const char *hl_tsasl_qop_name(hl_tsasl_qop_t qop) {
  switch (qop) {
  case HL_TSASL_AUTH:
    return "auth";
  case HL_TSASL_AUTH_INT:
    return "auth-int";
  case HL_TSASL_AUTH_CONF:
    return "auth-conf";
  }
  return "?";
}

hl_status_t hl_tsasl_parse_frame(const uint8_t *data, size_t len, size_t max, int *status,
                                 const uint8_t **payload, size_t *payload_len, size_t *frame_len,
                                 int *truncated, hl_error_t *err) {
  *truncated = 0;
  if (len >= 1 && (data[0] < HL_TSASL_START || data[0] > HL_TSASL_COMPLETE))
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: bad negotiation status byte %u (a client that does not speak SASL?)",
                      data[0]);
  if (len < 5) {
    *truncated = 1;
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: negotiation frame header truncated (%zu of 5 bytes)", len);
  }
  /* the length is unsigned on the wire for Java's readers too: compare
   * as 32 bits, never as a signed int */
  uint32_t n = ((uint32_t)data[1] << 24) | ((uint32_t)data[2] << 16) | ((uint32_t)data[3] << 8) |
               (uint32_t)data[4];
  if (n > max)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: negotiation payload of %u bytes is over the limit of %zu", n, max);
  if (len - 5 < n) {
    *truncated = 1;
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: negotiation frame truncated (%zu of %u payload bytes)", len - 5, n);
  }
  *status = data[0];
  *payload = data + 5;
  *payload_len = n;
  *frame_len = 5 + (size_t)n;
  return HL_OK;
}

/* The canonical name of this machine, as Java's
 * InetAddress.getLocalHost().getCanonicalHostName() finds it (the host
 * name, resolved, with the resolver's canonical name). */
static hl_status_t local_canonical_name(char *out, size_t cap, hl_error_t *err) {
  char host[256];
  if (gethostname(host, sizeof host - 1) != 0)
    return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "sasl: gethostname failed");
  host[sizeof host - 1] = 0;
  struct addrinfo hints = {.ai_flags = AI_CANONNAME, .ai_socktype = SOCK_STREAM}, *res = NULL;
  const char *name = host;
  if (getaddrinfo(host, NULL, &hints, &res) == 0 && res && res->ai_canonname)
    name = res->ai_canonname; /* unresolvable: the plain host name, as Java falls back */
  size_t n = strlen(name);
  if (n >= cap) n = cap - 1;
  memcpy(out, name, n);
  out[n] = 0;
  if (res) freeaddrinfo(res);
  return HL_OK;
}

hl_status_t hl_tsasl_resolve_principal(const char *pattern, const char *host, char **out,
                                       hl_error_t *err) {
  *out = NULL;
  const char *slash = strchr(pattern, '/');
  const char *at = slash ? strchr(slash, '@') : NULL;
  size_t host_len = slash ? (at ? (size_t)(at - slash - 1) : strlen(slash + 1)) : 0;
  hl_buf_t b;
  hl_buf_init(&b);
  if (slash && host_len == 5 && memcmp(slash + 1, "_HOST", 5) == 0) {
    char canon[256];
    const char *h = host;
    if (!h || !*h || strcmp(h, "0.0.0.0") == 0) {
      if (local_canonical_name(canon, sizeof canon, err)) return HL_IOERR;
      h = canon;
    }
    hl_buf_append(&b, pattern, (size_t)(slash - pattern) + 1);
    for (const char *p = h; *p; p++)
      hl_buf_putc(&b, (char)tolower((unsigned char)*p));
    if (at) hl_buf_puts(&b, at);
  } else {
    hl_buf_puts(&b, pattern);
  }
  hl_buf_cstr(&b);
  if (b.oom) {
    hl_buf_fini(&b);
    return hl_err_nomem(err);
  }
  *out = hl_buf_detach(&b);
  return HL_OK;
}
