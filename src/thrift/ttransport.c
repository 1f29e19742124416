/*
 * ttransport.c -- buffered and framed Thrift transports over a stream fd
 * (see ttransport.h).
 */
#include "thrift/ttransport.h"

#include "thrift/tproto.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void hl_tt_init(hl_ttransport_t *t, int fd, int framed) {
  t->fd = fd;
  t->framed = framed;
  t->timeout_ms = HL_TT_DEFAULT_TIMEOUT_MS;
  t->max_message = HL_TT_DEFAULT_MAX_MESSAGE;
  hl_buf_init(&t->in);
  t->consumed = 0;
  memset(&t->layer, 0, sizeof t->layer);
  t->sasl = 0;
  hl_buf_init(&t->plain);
  hl_buf_init(&t->scratch);
}

void hl_tt_fini(hl_ttransport_t *t) {
  if (t->layer.destroy) t->layer.destroy(t->layer.ctx);
  memset(&t->layer, 0, sizeof t->layer);
  hl_buf_fini(&t->in);
  hl_buf_fini(&t->plain);
  hl_buf_fini(&t->scratch);
}

/* Waits until FD is ready for EVENTS: HL_OK, or HL_IOERR on timeout. */
static hl_status_t wait_fd(hl_ttransport_t *t, short events, hl_error_t *err) {
  struct pollfd p = {.fd = t->fd, .events = events};
  for (;;) {
    int n = poll(&p, 1, t->timeout_ms > 0 ? t->timeout_ms : -1);
    if (n > 0) return HL_OK;
    if (n == 0)
      return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION),
                        "thrift: no data from the peer for %d ms", t->timeout_ms);
    if (errno != EINTR)
      return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "thrift: poll: %s",
                        strerror(errno));
  }
}

/* Reads at least one and at most WANT bytes onto t->in: HL_OK, HL_DONE at
 * end of stream, HL_IOERR. */
static hl_status_t read_some(hl_ttransport_t *t, size_t want, hl_error_t *err) {
  /* memory grows with the bytes that arrive, not with a length the peer
   * announced: a frame header saying 100 MB followed by silence costs 1 MB */
  if (want > (1u << 20)) want = 1u << 20;
  if (hl_buf_reserve(&t->in, want + 1)) return hl_err_nomem(err);
  for (;;) {
    if (wait_fd(t, POLLIN, err)) return HL_IOERR;
    ssize_t n = read(t->fd, t->in.data + t->in.len, want);
    if (n > 0) {
      t->in.len += (size_t)n;
      return HL_OK;
    }
    if (n == 0) return HL_DONE;
    if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
      return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "thrift: read: %s",
                        strerror(errno));
  }
}

/* Reads until t->in holds N bytes; the end of stream here is a truncated
 * message (AT_START: no byte of it yet, which is a clean close). */
hl_status_t hl_tt_fill(hl_ttransport_t *t, size_t n, int at_start, hl_error_t *err) {
  while (t->in.len < n) {
    hl_status_t rc = read_some(t, n - t->in.len, err);
    if (rc == HL_DONE && !(at_start && t->in.len == 0))
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "thrift: connection closed inside a message (%zu of %zu bytes)", t->in.len,
                        n);
    if (rc) return rc;
  }
  return HL_OK;
}

hl_status_t hl_tt_message_length(const uint8_t *data, size_t len, size_t *msg_len, int *truncated,
                                 hl_error_t *err) {
  hl_treader_t r;
  const uint8_t *name;
  size_t name_len;
  hl_tmsg_type_t type;
  int32_t seqid;
  hl_tr_init(&r, data, len, err);
  hl_status_t rc = hl_tr_message(&r, &name, &name_len, &type, &seqid);
  if (!rc) rc = hl_tr_skip(&r, HL_TT_STRUCT);
  *truncated = r.truncated;
  if (!rc) *msg_len = hl_tr_offset(&r);
  return rc;
}

static hl_status_t recv_framed(hl_ttransport_t *t, const uint8_t **data, size_t *len,
                               hl_error_t *err) {
  hl_status_t rc = hl_tt_fill(t, 4, 1, err);
  if (rc) return rc;
  const uint8_t *b = (const uint8_t *)t->in.data;
  int32_t n =
      (int32_t)(((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3]);
  if (n <= 0 || (size_t)n > t->max_message)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "thrift: frame length %d is outside 1..%zu", (int)n, t->max_message);
  if ((rc = hl_tt_fill(t, 4 + (size_t)n, 0, err))) return rc;
  *data = (const uint8_t *)t->in.data + 4;
  *len = (size_t)n;
  t->consumed = 4 + (size_t)n;
  return HL_OK;
}

/* Rescanning the whole message after every read would be quadratic for a
 * large one, so a truncated scan is retried only once the buffer has grown
 * by half or the peer has nothing more ready right now. */
static hl_status_t recv_buffered(hl_ttransport_t *t, const uint8_t **data, size_t *len,
                                 hl_error_t *err) {
  size_t scanned = 0;
  for (;;) {
    if (t->in.len > scanned) {
      struct pollfd p = {.fd = t->fd, .events = POLLIN};
      int more_ready = t->in.len < scanned + scanned / 2 && poll(&p, 1, 0) > 0;
      if (!more_ready) {
        hl_error_t scan_err;
        int truncated = 0;
        size_t mlen = 0;
        hl_err_init(&scan_err);
        hl_status_t rc = hl_tt_message_length((const uint8_t *)t->in.data, t->in.len, &mlen,
                                              &truncated, &scan_err);
        scanned = t->in.len;
        if (!rc) {
          hl_err_clear(&scan_err);
          *data = (const uint8_t *)t->in.data;
          *len = mlen;
          t->consumed = mlen;
          return HL_OK;
        }
        if (!truncated) {
          hl_err_move(err, &scan_err);
          return HL_CORRUPT;
        }
        hl_err_clear(&scan_err);
      }
    }
    if (t->in.len >= t->max_message)
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "thrift: message longer than %zu bytes", t->max_message);
    size_t want = t->max_message - t->in.len;
    if (want > 65536) want = 65536;
    hl_status_t rc = read_some(t, want, err);
    if (rc == HL_DONE && t->in.len > 0)
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "thrift: connection closed inside a message (%zu bytes)", t->in.len);
    if (rc) return rc;
  }
}

void hl_tt_drop(hl_ttransport_t *t, size_t n) {
  if (n > t->in.len) n = t->in.len;
  memmove(t->in.data, t->in.data + n, t->in.len - n);
  t->in.len -= n;
}

/* SASL: frames are read and unwrapped onto t->plain until it holds a whole
 * message.  The plaintext is capped like a buffered message, and each frame
 * like a framed one, so neither a long frame nor many short ones grow
 * memory past max_message. */
static hl_status_t recv_sasl(hl_ttransport_t *t, const uint8_t **data, size_t *len,
                             hl_error_t *err) {
  size_t scanned = 0;
  for (;;) {
    /* as in recv_buffered: a message arriving in many small frames is
     * rescanned only once the plaintext grew by half, or when the peer has
     * nothing more ready (so a complete message is never left waiting) */
    struct pollfd pf = {.fd = t->fd, .events = POLLIN};
    int more_ready = t->plain.len < scanned + scanned / 2 && t->plain.len < t->max_message &&
                     (t->in.len > 0 || poll(&pf, 1, 0) > 0);
    if (t->plain.len > scanned && !more_ready) {
      scanned = t->plain.len;
      hl_error_t scan_err;
      int truncated = 0;
      size_t mlen = 0;
      hl_err_init(&scan_err);
      hl_status_t rc = hl_tt_message_length((const uint8_t *)t->plain.data, t->plain.len, &mlen,
                                            &truncated, &scan_err);
      if (!rc) {
        hl_err_clear(&scan_err);
        *data = (const uint8_t *)t->plain.data;
        *len = mlen;
        t->consumed = mlen;
        return HL_OK;
      }
      if (!truncated) {
        hl_err_move(err, &scan_err);
        return HL_CORRUPT;
      }
      hl_err_clear(&scan_err);
      if (t->plain.len >= t->max_message)
        return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                          "thrift: message longer than %zu bytes", t->max_message);
    }
    hl_status_t rc = recv_framed(t, data, len, err);
    if (rc == HL_DONE && t->plain.len)
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "thrift: connection closed inside a message (%zu bytes)", t->plain.len);
    if (rc) return rc;
    if (t->layer.unwrap) {
      rc = t->layer.unwrap(t->layer.ctx, *data, *len, &t->plain, err);
    } else {
      hl_buf_append(&t->plain, *data, *len);
      if (t->plain.oom) rc = hl_err_nomem(err);
    }
    hl_tt_drop(t, t->consumed);
    t->consumed = 0;
    if (rc) return rc;
  }
}

hl_status_t hl_tt_recv(hl_ttransport_t *t, const uint8_t **data, size_t *len, hl_error_t *err) {
  hl_buf_t *b = t->sasl ? &t->plain : &t->in;
  if (t->consumed) { /* drop the previous message, keep what followed it */
    memmove(b->data, b->data + t->consumed, b->len - t->consumed);
    b->len -= t->consumed;
    t->consumed = 0;
  }
  if (t->sasl) return recv_sasl(t, data, len, err);
  if (t->framed == HL_TT_DETECT) {
    hl_status_t rc = hl_tt_fill(t, 1, 1, err);
    if (rc) return rc;
    t->framed = (uint8_t)t->in.data[0] != 0x80;
  }
  return t->framed ? recv_framed(t, data, len, err) : recv_buffered(t, data, len, err);
}

static hl_status_t send_all(hl_ttransport_t *t, const uint8_t *p, size_t n, hl_error_t *err) {
  while (n) {
    if (wait_fd(t, POLLOUT, err)) return HL_IOERR;
    /* MSG_NOSIGNAL: a closed peer is an error here, not a SIGPIPE */
    ssize_t w = send(t->fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == ENOTSOCK) w = write(t->fd, p, n);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "thrift: write: %s",
                        strerror(errno));
    }
    p += w;
    n -= (size_t)w;
  }
  return HL_OK;
}

hl_status_t hl_tt_send_raw(hl_ttransport_t *t, const void *p, size_t n, hl_error_t *err) {
  return send_all(t, p, n, err);
}

static hl_status_t send_frame(hl_ttransport_t *t, const uint8_t *msg, size_t len, hl_error_t *err) {
  if (len == 0 || len > t->max_message)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "thrift: message of %zu bytes cannot be framed (limit %zu)", len,
                      t->max_message);
  uint8_t hdr[4] = {(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8), (uint8_t)len};
  hl_status_t rc = send_all(t, hdr, 4, err);
  return rc ? rc : send_all(t, msg, len, err);
}

/* SASL: the message goes out in frames of at most max_wrap_input plaintext
 * bytes each (the peer's announced receive buffer), each wrapped alone. */
static hl_status_t send_sasl(hl_ttransport_t *t, const uint8_t *msg, size_t len, hl_error_t *err) {
  size_t step = t->layer.max_wrap_input ? t->layer.max_wrap_input : len;
  for (size_t off = 0; off < len; off += step) {
    size_t n = len - off < step ? len - off : step;
    hl_status_t rc;
    if (!t->layer.wrap) {
      rc = send_frame(t, msg + off, n, err);
    } else {
      hl_buf_reset(&t->scratch);
      rc = t->layer.wrap(t->layer.ctx, msg + off, n, &t->scratch, err);
      if (!rc) rc = send_frame(t, (const uint8_t *)t->scratch.data, t->scratch.len, err);
    }
    if (rc) return rc;
  }
  return HL_OK;
}

hl_status_t hl_tt_send(hl_ttransport_t *t, const void *msg, size_t len, hl_error_t *err) {
  if (t->sasl) return send_sasl(t, msg, len, err);
  if (t->framed) {
    if (len == 0 || len > t->max_message)
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "thrift: message of %zu bytes cannot be framed (limit %zu)", len,
                        t->max_message);
    uint8_t hdr[4] = {(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8),
                      (uint8_t)len};
    hl_status_t rc = send_all(t, hdr, 4, err);
    if (rc) return rc;
  }
  return send_all(t, msg, len, err);
}
