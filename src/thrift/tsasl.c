/*
 * tsasl.c -- the SASL GSSAPI negotiation of Thrift's SASL transport,
 * client and server (tsasl.h), and the security layer it leaves on the
 * transport (hl_tlayer_t: gss_wrap / gss_unwrap of every frame).
 *
 * The exchange, server side (the client mirrors it):
 *   <- START "GSSAPI"             -> (BAD for another mechanism)
 *   <- OK token ... -> OK token   Kerberos context (accept_sec_context)
 *   <- OK ""  (after our last token, when the context ended on our side)
 *   -> OK wrap(offer: qop bits, our max receive buffer)
 *   <- OK|COMPLETE wrap(choice: one qop bit, its buffer, authzid)
 *   -> COMPLETE ""
 * then Thrift messages in length-prefixed frames (ttransport.c).
 */
#include "thrift/tsasl.h"

#include "util/mem.h"
#include "util/strbuf.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>
#include <stdio.h>
#include <string.h>

/* What we can receive in one frame, announced in the layer word (24 bits
 * on the wire; our frames are capped by max_message anyway). */
#define OUR_MAX_BUFFER 0xFFFFFFu

typedef struct layer_ctx {
  gss_ctx_id_t gss;
  hl_tsasl_qop_t qop;
} layer_ctx_t;

/* ---- GSSAPI status text ---------------------------------------------- */

static void gss_text(hl_buf_t *b, OM_uint32 code, int type) {
  OM_uint32 min, more = 0;
  do {
    gss_buffer_desc s = GSS_C_EMPTY_BUFFER;
    if (GSS_ERROR(gss_display_status(&min, code, type, GSS_C_NO_OID, &more, &s))) break;
    if (b->len) hl_buf_puts(b, ": ");
    hl_buf_append(b, s.value, s.length);
    gss_release_buffer(&min, &s);
  } while (more);
}

static hl_status_t gss_fail(hl_error_t *err, hl_status_t code, const char *sqlstate,
                            const char *what, OM_uint32 maj, OM_uint32 min) {
  hl_buf_t b;
  hl_buf_init(&b);
  gss_text(&b, maj, GSS_C_GSS_CODE);
  if (min) gss_text(&b, min, GSS_C_MECH_CODE);
  hl_err_set(err, code, sqlstate, "sasl: %s: %s", what, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return code;
}

/* ---- the security layer ---------------------------------------------- */

static hl_status_t layer_wrap(void *p, const uint8_t *in, size_t len, hl_buf_t *out,
                              hl_error_t *err) {
  layer_ctx_t *c = p;
  OM_uint32 min, maj;
  int conf = 0;
  gss_buffer_desc ib = {len, (void *)in}, ob = GSS_C_EMPTY_BUFFER;
  maj = gss_wrap(&min, c->gss, c->qop == HL_TSASL_AUTH_CONF, GSS_C_QOP_DEFAULT, &ib, &conf, &ob);
  if (GSS_ERROR(maj))
    return gss_fail(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "gss_wrap", maj, min);
  hl_buf_append(out, ob.value, ob.length);
  gss_release_buffer(&min, &ob);
  if (c->qop == HL_TSASL_AUTH_CONF && !conf)
    return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION),
                      "sasl: confidentiality was negotiated but gss_wrap did not encrypt");
  return out->oom ? hl_err_nomem(err) : HL_OK;
}

static hl_status_t layer_unwrap(void *p, const uint8_t *in, size_t len, hl_buf_t *out,
                                hl_error_t *err) {
  layer_ctx_t *c = p;
  OM_uint32 min, maj;
  int conf = 0;
  gss_buffer_desc ib = {len, (void *)in}, ob = GSS_C_EMPTY_BUFFER;
  maj = gss_unwrap(&min, c->gss, &ib, &ob, &conf, NULL);
  if (GSS_ERROR(maj))
    return gss_fail(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION), "a frame does not unwrap", maj,
                    min);
  hl_buf_append(out, ob.value, ob.length);
  gss_release_buffer(&min, &ob);
  /* a peer that drops to signing only under auth-conf is refused, not
   * trusted with what we would send back encrypted */
  if (c->qop == HL_TSASL_AUTH_CONF && !conf)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: a frame was not encrypted under auth-conf");
  return out->oom ? hl_err_nomem(err) : HL_OK;
}

static void layer_destroy(void *p) {
  layer_ctx_t *c = p;
  OM_uint32 min;
  if (c->gss != GSS_C_NO_CONTEXT) gss_delete_sec_context(&min, &c->gss, GSS_C_NO_BUFFER);
  hl_free(c);
}

/* Hands the context *GSS to T (on success *GSS is consumed). PEER_MAX is
 * the largest frame the peer said it takes. */
static hl_status_t install_layer(hl_ttransport_t *t, gss_ctx_id_t *gss, hl_tsasl_qop_t qop,
                                 uint32_t peer_max, hl_error_t *err) {
  t->sasl = 1;
  if (qop == HL_TSASL_AUTH) return HL_OK; /* the context is freed by the caller */
  layer_ctx_t *c = hl_malloc(sizeof *c);
  if (!c) return hl_err_nomem(err);
  c->gss = *gss;
  c->qop = qop;
  *gss = GSS_C_NO_CONTEXT;
  t->layer.wrap = layer_wrap;
  t->layer.unwrap = layer_unwrap;
  t->layer.destroy = layer_destroy;
  t->layer.ctx = c;
  t->layer.max_wrap_input = 0;
  OM_uint32 min, max_in = 0;
  if (peer_max > 0 &&
      !GSS_ERROR(gss_wrap_size_limit(&min, c->gss, qop == HL_TSASL_AUTH_CONF, GSS_C_QOP_DEFAULT,
                                     peer_max, &max_in)) &&
      max_in > 0)
    t->layer.max_wrap_input = max_in;
  return HL_OK;
}

/* ---- negotiation frames ---------------------------------------------- */

/* Reads one negotiation frame into *STATUS and PAYLOAD (replaced). */
static hl_status_t recv_frame(hl_ttransport_t *t, int *status, hl_buf_t *payload, hl_error_t *err) {
  const uint8_t *p;
  size_t plen, flen;
  int truncated;
  /* one byte first: a client that does not speak SASL (0x80 of a strict
   * Thrift header, or anything else) is turned away at once */
  for (size_t need = 1;;) {
    hl_status_t rc = hl_tt_fill(t, need, need == 1, err);
    if (rc == HL_DONE)
      return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION),
                        "sasl: the peer closed the connection during the negotiation");
    if (rc) return rc;
    hl_error_t perr;
    hl_err_init(&perr);
    rc = hl_tsasl_parse_frame((const uint8_t *)t->in.data, t->in.len, HL_TSASL_MAX_TOKEN, status,
                              &p, &plen, &flen, &truncated, &perr);
    if (!rc) {
      hl_err_clear(&perr);
      break;
    }
    if (!truncated) {
      hl_err_move(err, &perr);
      return rc;
    }
    hl_err_clear(&perr);
    need =
        t->in.len < 5
            ? 5
            : 5 + (((size_t)(uint8_t)t->in.data[1] << 24) | ((size_t)(uint8_t)t->in.data[2] << 16) |
                   ((size_t)(uint8_t)t->in.data[3] << 8) | (size_t)(uint8_t)t->in.data[4]);
  }
  hl_buf_reset(payload);
  hl_buf_append(payload, p, plen);
  hl_tt_drop(t, flen);
  return payload->oom ? hl_err_nomem(err) : HL_OK;
}

static hl_status_t send_frame(hl_ttransport_t *t, int status, const void *p, size_t n,
                              hl_error_t *err) {
  uint8_t h[5] = {(uint8_t)status, (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8),
                  (uint8_t)n};
  hl_buf_reset(&t->scratch);
  hl_buf_append(&t->scratch, h, 5);
  hl_buf_append(&t->scratch, p, n);
  if (t->scratch.oom) return hl_err_nomem(err);
  return hl_tt_send_raw(t, t->scratch.data, t->scratch.len, err);
}

/* Tells the peer why (best effort: the connection ends either way). */
static void send_reason(hl_ttransport_t *t, int status, const char *why) {
  hl_error_t ignored;
  hl_err_init(&ignored);
  send_frame(t, status, why, strlen(why), &ignored);
  hl_err_clear(&ignored);
}

/* A BAD or ERROR frame from the peer, its text (bounded) in the error. */
static hl_status_t peer_refused(hl_buf_t *payload, int status, hl_error_t *err) {
  int n = payload->len > 200 ? 200 : (int)payload->len;
  for (int i = 0; i < n; i++)
    if ((unsigned char)payload->data[i] < 0x20 || (unsigned char)payload->data[i] > 0x7e)
      payload->data[i] = '?';
  return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                    "sasl: the peer ended the negotiation (%s): %.*s",
                    status == HL_TSASL_BAD ? "BAD" : "ERROR", n, payload->data);
}

/* The RFC 4752 layer word: qop bits and a 24-bit buffer size. */
static void layer_word(uint8_t w[4], unsigned bits, uint32_t max) {
  w[0] = (uint8_t)bits;
  w[1] = (uint8_t)(max >> 16);
  w[2] = (uint8_t)(max >> 8);
  w[3] = (uint8_t)max;
}

static hl_status_t wrap_plain(gss_ctx_id_t gss, const void *p, size_t n, gss_buffer_desc *out,
                              hl_error_t *err) {
  OM_uint32 min, maj;
  gss_buffer_desc ib = {n, (void *)p};
  maj = gss_wrap(&min, gss, 0, GSS_C_QOP_DEFAULT, &ib, NULL, out);
  return GSS_ERROR(maj) ? gss_fail(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "gss_wrap", maj, min)
                        : HL_OK;
}

static hl_status_t unwrap_plain(gss_ctx_id_t gss, const hl_buf_t *in, gss_buffer_desc *out,
                                hl_error_t *err) {
  OM_uint32 min, maj;
  gss_buffer_desc ib = {in->len, in->data};
  maj = gss_unwrap(&min, gss, &ib, out, NULL, NULL);
  return GSS_ERROR(maj) ? gss_fail(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                                   "the security layer message does not unwrap", maj, min)
                        : HL_OK;
}

static unsigned needed_flags(hl_tsasl_qop_t qop) {
  if (qop == HL_TSASL_AUTH_CONF) return GSS_C_CONF_FLAG | GSS_C_INTEG_FLAG;
  if (qop == HL_TSASL_AUTH_INT) return GSS_C_INTEG_FLAG;
  return 0;
}

/* ---- credentials ------------------------------------------------------ */

static hl_status_t import_name(const char *s, gss_OID type, gss_name_t *out, hl_error_t *err) {
  OM_uint32 min, maj;
  gss_buffer_desc b = {strlen(s), (void *)s};
  maj = gss_import_name(&min, &b, type, out);
  if (GSS_ERROR(maj)) {
    hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "sasl: bad principal \"%s\"", s);
    return HL_MISUSE;
  }
  return HL_OK;
}

/* Credentials from KEYTAB for PRINCIPAL (NULL: any in the keytab), USAGE
 * GSS_C_ACCEPT (key "keytab") or GSS_C_INITIATE (key "client_keytab": the
 * library then gets a ticket into a memory cache of its own). */
static hl_status_t acquire(const char *principal, const char *keytab, gss_cred_usage_t usage,
                           gss_cred_id_t *cred, hl_error_t *err) {
  OM_uint32 min, maj;
  gss_name_t name = GSS_C_NO_NAME;
  if (principal && import_name(principal, GSS_KRB5_NT_PRINCIPAL_NAME, &name, err)) return HL_MISUSE;
  gss_key_value_element_desc el = {usage == GSS_C_ACCEPT ? "keytab" : "client_keytab", keytab};
  gss_key_value_set_desc store = {1, &el};
  maj = gss_acquire_cred_from(&min, name, GSS_C_INDEFINITE, GSS_C_NO_OID_SET, usage,
                              keytab ? &store : NULL, cred, NULL, NULL);
  if (name != GSS_C_NO_NAME) gss_release_name(&min, &name);
  if (GSS_ERROR(maj)) {
    char what[600];
    snprintf(what, sizeof what, "no credentials for %s in %s", principal ? principal : "the client",
             keytab ? keytab : "the default credential cache");
    return gss_fail(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION), what, maj, min);
  }
  return HL_OK;
}

hl_status_t hl_tsasl_server_check(const hl_tsasl_server_opts_t *o, hl_error_t *err) {
  OM_uint32 min;
  gss_cred_id_t cred = GSS_C_NO_CREDENTIAL;
  hl_status_t rc = acquire(o->principal, o->keytab, GSS_C_ACCEPT, &cred, err);
  if (cred != GSS_C_NO_CREDENTIAL) gss_release_cred(&min, &cred);
  return rc;
}

/* ---- server ----------------------------------------------------------- */

static hl_status_t display(gss_name_t n, char **out, hl_error_t *err) {
  OM_uint32 min;
  gss_buffer_desc b = GSS_C_EMPTY_BUFFER;
  if (GSS_ERROR(gss_display_name(&min, n, &b, NULL)))
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: the client's name cannot be displayed");
  *out = hl_malloc(b.length + 1);
  if (*out) {
    memcpy(*out, b.value, b.length);
    (*out)[b.length] = 0;
  }
  gss_release_buffer(&min, &b);
  return *out ? HL_OK : hl_err_nomem(err);
}

/* The server's exchange; the caller frees what it leaves in S. */
typedef struct server_state {
  gss_cred_id_t cred;
  gss_ctx_id_t gss;
  gss_name_t src;
  hl_buf_t in;
} server_state_t;

static hl_status_t server_run(hl_ttransport_t *t, const hl_tsasl_server_opts_t *o,
                              server_state_t *s, char **peer, hl_error_t *err) {
  OM_uint32 min, maj, flags = 0;
  int status;
  hl_status_t rc = recv_frame(t, &status, &s->in, err);
  if (rc) return rc;
  if (status != HL_TSASL_START) {
    send_reason(t, HL_TSASL_BAD, "expected a START message");
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: the negotiation did not begin with START (status %d)", status);
  }
  if (s->in.len != 6 || memcmp(s->in.data, "GSSAPI", 6) != 0) {
    send_reason(t, HL_TSASL_BAD, "unsupported SASL mechanism (this server speaks GSSAPI)");
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: the client asked for a mechanism other than GSSAPI");
  }
  if ((rc = acquire(o->principal, o->keytab, GSS_C_ACCEPT, &s->cred, err))) {
    send_reason(t, HL_TSASL_ERROR, "the server has no credentials");
    return rc;
  }
  int sent_after_done = 0;
  for (;;) {
    if ((rc = recv_frame(t, &status, &s->in, err))) return rc;
    if (status != HL_TSASL_OK && status != HL_TSASL_COMPLETE) {
      if (status == HL_TSASL_BAD || status == HL_TSASL_ERROR)
        return peer_refused(&s->in, status, err);
      send_reason(t, HL_TSASL_BAD, "expected an OK message");
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "sasl: unexpected status %d during the Kerberos exchange", status);
    }
    gss_buffer_desc tok = {s->in.len, s->in.data}, out = GSS_C_EMPTY_BUFFER;
    if (s->src != GSS_C_NO_NAME) gss_release_name(&min, &s->src);
    maj = gss_accept_sec_context(&min, &s->gss, s->cred, &tok, GSS_C_NO_CHANNEL_BINDINGS, &s->src,
                                 NULL, &out, &flags, NULL, NULL);
    if (GSS_ERROR(maj)) {
      gss_release_buffer(&min, &out);
      send_reason(t, HL_TSASL_BAD, "Kerberos authentication failed");
      return gss_fail(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "the client did not authenticate", maj, min);
    }
    int more = (maj & GSS_S_CONTINUE_NEEDED) != 0;
    if (out.length || more) {
      rc = send_frame(t, HL_TSASL_OK, out.value, out.length, err);
      gss_release_buffer(&min, &out);
      if (rc) return rc;
      if (!more) sent_after_done = 1;
    }
    if (!more) break;
  }
  if (sent_after_done) { /* the client answers our last token (empty) */
    if ((rc = recv_frame(t, &status, &s->in, err))) return rc;
    if (status == HL_TSASL_BAD || status == HL_TSASL_ERROR)
      return peer_refused(&s->in, status, err);
    if (status != HL_TSASL_OK)
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "sasl: unexpected status %d after the Kerberos exchange", status);
  }
  if ((flags & needed_flags(o->qop)) != needed_flags(o->qop)) {
    send_reason(t, HL_TSASL_BAD, "the Kerberos context cannot protect at the required level");
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: the client's context offers no %s", hl_tsasl_qop_name(o->qop));
  }
  /* the offer: the one level configured, and our receive buffer */
  uint8_t w[4];
  gss_buffer_desc wrapped = GSS_C_EMPTY_BUFFER;
  layer_word(w, o->qop, o->qop == HL_TSASL_AUTH ? 0 : OUR_MAX_BUFFER);
  if ((rc = wrap_plain(s->gss, w, 4, &wrapped, err))) return rc;
  rc = send_frame(t, HL_TSASL_OK, wrapped.value, wrapped.length, err);
  gss_release_buffer(&min, &wrapped);
  if (rc) return rc;
  if ((rc = recv_frame(t, &status, &s->in, err))) return rc;
  if (status == HL_TSASL_BAD || status == HL_TSASL_ERROR) return peer_refused(&s->in, status, err);
  if (status != HL_TSASL_OK && status != HL_TSASL_COMPLETE)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: unexpected status %d for the security layer", status);
  gss_buffer_desc choice = GSS_C_EMPTY_BUFFER;
  if ((rc = unwrap_plain(s->gss, &s->in, &choice, err))) return rc;
  const uint8_t *c = choice.value;
  unsigned chosen = choice.length >= 4 ? c[0] : 0;
  uint32_t peer_max =
      choice.length >= 4 ? ((uint32_t)c[1] << 16) | ((uint32_t)c[2] << 8) | (uint32_t)c[3] : 0;
  if ((rc = display(s->src, peer, err))) {
    gss_release_buffer(&min, &choice);
    return rc;
  }
  /* an authorization id other than the authenticated principal would be
   * impersonation (Hadoop's proxy users), which this server does not do */
  int authz_ok = choice.length <= 4 || (choice.length - 4 == strlen(*peer) &&
                                        memcmp(c + 4, *peer, choice.length - 4) == 0);
  size_t clen = choice.length;
  gss_release_buffer(&min, &choice);
  if (clen < 4) {
    send_reason(t, HL_TSASL_BAD, "the security layer reply is too short");
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: the security layer reply has %zu bytes (at least 4)", clen);
  }
  if (chosen != (unsigned)o->qop) {
    send_reason(t, HL_TSASL_BAD, "the client chose a protection level that was not offered");
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: the client chose protection bits 0x%02x, offered only %s", chosen,
                      hl_tsasl_qop_name(o->qop));
  }
  if (!authz_ok) {
    send_reason(t, HL_TSASL_BAD, "the authorization id is not the authenticated principal");
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: %s asked to act as another user", *peer);
  }
  if ((rc = send_frame(t, HL_TSASL_COMPLETE, "", 0, err))) return rc;
  return install_layer(t, &s->gss, o->qop, peer_max, err);
}

hl_status_t hl_tsasl_server_accept(hl_ttransport_t *t, const hl_tsasl_server_opts_t *opts,
                                   char **peer, hl_error_t *err) {
  OM_uint32 min;
  server_state_t s = {GSS_C_NO_CREDENTIAL, GSS_C_NO_CONTEXT, GSS_C_NO_NAME, {0}};
  hl_buf_init(&s.in);
  *peer = NULL;
  hl_status_t rc = server_run(t, opts, &s, peer, err);
  if (rc) {
    hl_free(*peer);
    *peer = NULL;
    t->sasl = 0;
  }
  if (s.gss != GSS_C_NO_CONTEXT) gss_delete_sec_context(&min, &s.gss, GSS_C_NO_BUFFER);
  if (s.src != GSS_C_NO_NAME) gss_release_name(&min, &s.src);
  if (s.cred != GSS_C_NO_CREDENTIAL) gss_release_cred(&min, &s.cred);
  hl_buf_fini(&s.in);
  return rc;
}

/* ---- client ----------------------------------------------------------- */

typedef struct client_state {
  gss_cred_id_t cred;
  gss_ctx_id_t gss;
  gss_name_t target;
  hl_buf_t in;
} client_state_t;

static hl_status_t client_step(hl_ttransport_t *t, client_state_t *s, unsigned req,
                               const hl_buf_t *challenge, int *done, unsigned *flags,
                               hl_error_t *err) {
  OM_uint32 min, maj;
  gss_buffer_desc in = {challenge ? challenge->len : 0, challenge ? challenge->data : NULL};
  gss_buffer_desc out = GSS_C_EMPTY_BUFFER;
  OM_uint32 got = 0;
  maj = gss_init_sec_context(&min, s->cred, &s->gss, s->target, GSS_C_NO_OID, req, 0,
                             GSS_C_NO_CHANNEL_BINDINGS, challenge ? &in : GSS_C_NO_BUFFER, NULL,
                             &out, &got, NULL);
  if (GSS_ERROR(maj)) {
    gss_release_buffer(&min, &out);
    return gss_fail(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                    "cannot authenticate to the server", maj, min);
  }
  *done = !(maj & GSS_S_CONTINUE_NEEDED);
  *flags = got;
  hl_status_t rc = send_frame(t, HL_TSASL_OK, out.value, out.length, err);
  gss_release_buffer(&min, &out);
  return rc;
}

static hl_status_t client_run(hl_ttransport_t *t, const char *service, const char *host,
                              hl_tsasl_qop_t qop, const hl_tsasl_client_opts_t *o,
                              client_state_t *s, hl_error_t *err) {
  OM_uint32 min;
  char target[1024];
  if ((size_t)snprintf(target, sizeof target, "%s@%s", service, host) >= sizeof target)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "sasl: host name too long");
  hl_status_t rc =
      o && o->server_principal
          ? import_name(o->server_principal, GSS_KRB5_NT_PRINCIPAL_NAME, &s->target, err)
          : import_name(target, GSS_C_NT_HOSTBASED_SERVICE, &s->target, err);
  if (rc) return rc;
  if (o && o->keytab && (rc = acquire(o->principal, o->keytab, GSS_C_INITIATE, &s->cred, err)))
    return rc;
  unsigned req = GSS_C_MUTUAL_FLAG | GSS_C_SEQUENCE_FLAG | needed_flags(qop), flags = 0;
  int done = 0, status;
  if ((rc = send_frame(t, HL_TSASL_START, "GSSAPI", 6, err))) return rc;
  if ((rc = client_step(t, s, req, NULL, &done, &flags, err))) return rc;
  for (;;) {
    if ((rc = recv_frame(t, &status, &s->in, err))) return rc;
    if (status == HL_TSASL_BAD || status == HL_TSASL_ERROR)
      return peer_refused(&s->in, status, err);
    if (status != HL_TSASL_OK)
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "sasl: unexpected status %d from the server", status);
    if (!done) {
      if ((rc = client_step(t, s, req, &s->in, &done, &flags, err))) return rc;
      continue;
    }
    break; /* the server's security layer offer */
  }
  if ((flags & req & ~(unsigned)GSS_C_SEQUENCE_FLAG) != (req & ~(unsigned)GSS_C_SEQUENCE_FLAG))
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: the Kerberos context lacks mutual authentication or %s",
                      hl_tsasl_qop_name(qop));
  gss_buffer_desc offer = GSS_C_EMPTY_BUFFER;
  if ((rc = unwrap_plain(s->gss, &s->in, &offer, err))) return rc;
  const uint8_t *w = offer.value;
  size_t olen = offer.length;
  unsigned bits = olen == 4 ? w[0] : 0;
  uint32_t server_max = olen == 4 ? ((uint32_t)w[1] << 16) | ((uint32_t)w[2] << 8) | w[3] : 0;
  gss_release_buffer(&min, &offer);
  if (olen != 4) {
    send_reason(t, HL_TSASL_BAD, "bad security layer offer");
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: the security layer offer has %zu bytes (4 expected)", olen);
  }
  if (!(bits & (unsigned)qop)) {
    send_reason(t, HL_TSASL_BAD, "the required protection level is not offered");
    return hl_err_set(err, HL_IOERR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "sasl: the server does not offer %s (offered bits 0x%02x)",
                      hl_tsasl_qop_name(qop), bits);
  }
  uint8_t choice[4];
  gss_buffer_desc wrapped = GSS_C_EMPTY_BUFFER;
  layer_word(choice, qop, qop == HL_TSASL_AUTH ? 0 : OUR_MAX_BUFFER);
  if ((rc = wrap_plain(s->gss, choice, 4, &wrapped, err))) return rc;
  rc = send_frame(t, HL_TSASL_OK, wrapped.value, wrapped.length, err);
  gss_release_buffer(&min, &wrapped);
  if (rc) return rc;
  if ((rc = recv_frame(t, &status, &s->in, err))) return rc;
  if (status == HL_TSASL_BAD || status == HL_TSASL_ERROR) return peer_refused(&s->in, status, err);
  if (status != HL_TSASL_COMPLETE)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "sasl: expected COMPLETE from the server, got status %d", status);
  return install_layer(t, &s->gss, qop, server_max, err);
}

hl_status_t hl_tsasl_client_start(hl_ttransport_t *t, const char *service, const char *host,
                                  hl_tsasl_qop_t qop, const hl_tsasl_client_opts_t *opts,
                                  hl_error_t *err) {
  OM_uint32 min;
  client_state_t s = {GSS_C_NO_CREDENTIAL, GSS_C_NO_CONTEXT, GSS_C_NO_NAME, {0}};
  hl_buf_init(&s.in);
  hl_status_t rc = client_run(t, service, host, qop, opts, &s, err);
  if (rc) t->sasl = 0;
  if (s.gss != GSS_C_NO_CONTEXT) gss_delete_sec_context(&min, &s.gss, GSS_C_NO_BUFFER);
  if (s.target != GSS_C_NO_NAME) gss_release_name(&min, &s.target);
  if (s.cred != GSS_C_NO_CREDENTIAL) gss_release_cred(&min, &s.cred);
  hl_buf_fini(&s.in);
  return rc;
}
