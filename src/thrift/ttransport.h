/*
 * ttransport.h -- Thrift transports over a socket (or any stream fd):
 * buffered and framed, both handing the protocol one whole message.
 *
 * Framed: each message is preceded by its length as a 4-byte big-endian
 * integer; the length is checked against max_message before anything is
 * read into memory.  Buffered (the default of Hive, Spark and Trino): the
 * bytes of the message follow one another with no length, so the receiver
 * finds the end of a message by walking it (hl_tr_message + hl_tr_skip of
 * the argument struct); while the walk stops only because the bytes ran
 * out, it reads more, up to max_message bytes, then fails.
 *
 * Every wait for the peer is bounded by timeout_ms (poll); a timeout or an
 * I/O error is HL_IOERR with SQLSTATE 08000, a bad frame length or a
 * message over the cap HL_CORRUPT with 08P01, the peer closing before the
 * first byte of a message HL_DONE (a clean end of the connection).
 * Not thread-safe: one transport per connection and thread.
 *
 * A security layer (hl_tlayer_t, set by src/thrift/tsasl.c after a SASL
 * negotiation) turns the transport into Thrift's SASL transport: every
 * send is wrapped by the layer and framed (4-byte length), every frame
 * received is unwrapped onto a plaintext buffer in which messages are
 * found as the buffered transport finds them (a message may span frames,
 * as the peers' runtimes allow).  The layer knows the cipher, the
 * transport the framing, so this file needs no GSSAPI.
 */
#ifndef HL_THRIFT_TTRANSPORT_H
#define HL_THRIFT_TTRANSPORT_H

#include "util/error.h"
#include "util/strbuf.h"

#include <stddef.h>
#include <stdint.h>

/* hl_ttransport_t.framed: -1 decides at the first message.  A buffered
 * message in the strict binary protocol starts with the version word's
 * byte 0x80, which no frame length (1..max_message, positive) has; so a
 * first byte other than 0x80 is a frame length.  The answer keeps the
 * transport the peer chose.  (A buffered peer writing the old unversioned
 * header, whose first byte is 0x00, needs framed set to 0.) */
#define HL_TT_DETECT (-1)

/* What clients allow for one message (Hive's and Trino's default). */
#define HL_TT_DEFAULT_MAX_MESSAGE (100u * 1024 * 1024)
#define HL_TT_DEFAULT_TIMEOUT_MS  600000

/* A SASL security layer: WRAP appends the protected form of IN[0..LEN) to
 * OUT (possibly several frames' worth: max_wrap_input says how much
 * plaintext one frame may carry), UNWRAP appends the plaintext of one
 * received frame; both fail with 08P01 on bytes that do not verify.
 * DESTROY frees CTX (called by hl_tt_fini). */
typedef struct hl_tlayer {
  hl_status_t (*wrap)(void *ctx, const uint8_t *in, size_t len, hl_buf_t *out, hl_error_t *err);
  hl_status_t (*unwrap)(void *ctx, const uint8_t *in, size_t len, hl_buf_t *out, hl_error_t *err);
  void (*destroy)(void *ctx);
  void *ctx;
  size_t max_wrap_input; /* plaintext bytes per sent frame; 0: no limit */
} hl_tlayer_t;

typedef struct hl_ttransport {
  int fd;             /* not owned: the caller closes it */
  int framed;         /* 1: framed transport, 0: buffered, HL_TT_DETECT */
  int timeout_ms;     /* longest wait for the peer; <= 0 waits forever */
  size_t max_message; /* largest message (framed: frame length) accepted */
  hl_buf_t in;        /* bytes received; the current message starts at 0 */
  size_t consumed;    /* length of the message last returned */
  hl_tlayer_t layer;  /* wrap == NULL: no SASL layer; owned (hl_tt_fini) */
  int sasl;           /* 1: SASL framing (frames of layer-wrapped bytes) */
  hl_buf_t plain;     /* SASL: unwrapped bytes; the current message at 0 */
  hl_buf_t scratch;   /* SASL: the wrapped form of a message being sent */
} hl_ttransport_t;

void hl_tt_init(hl_ttransport_t *t, int fd, int framed);
void hl_tt_fini(hl_ttransport_t *t);
/* Receives one whole message into *DATA, *LEN (framed: without the length
 * prefix), valid until the next hl_tt_recv or hl_tt_fini. */
hl_status_t hl_tt_recv(hl_ttransport_t *t, const uint8_t **data, size_t *len, hl_error_t *err);
/* Sends MSG[0..LEN) (framed: after its length), all of it or an error. */
hl_status_t hl_tt_send(hl_ttransport_t *t, const void *msg, size_t len, hl_error_t *err);
/* Reads until T's input buffer holds N bytes (AT_START: the peer closing
 * before the first byte is HL_DONE, later a truncated message 08P01).
 * For the SASL negotiation (tsasl.c), before any message. */
hl_status_t hl_tt_fill(hl_ttransport_t *t, size_t n, int at_start, hl_error_t *err);
/* Sends P[0..N) as it is (no framing, no layer). */
hl_status_t hl_tt_send_raw(hl_ttransport_t *t, const void *p, size_t n, hl_error_t *err);
/* Drops the first N bytes of T's input buffer (a negotiation frame read). */
void hl_tt_drop(hl_ttransport_t *t, size_t n);

/* The length of the buffered message at the start of DATA[0..LEN): HL_OK
 * with *MSG_LEN, or HL_CORRUPT in ERR, *TRUNCATED = 1 when more bytes may
 * complete it. */
hl_status_t hl_tt_message_length(const uint8_t *data, size_t len, size_t *msg_len, int *truncated,
                                 hl_error_t *err);

#endif
