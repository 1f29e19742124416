/*
 * test_tsasl.c -- the parts of the SASL transport (src/thrift/tsasl.h,
 * ttransport.c) that run without a KDC: protection level names, the
 * negotiation frame parser on good, truncated and hostile bytes, Hive's
 * _HOST rule, and SASL framing of messages through a security layer (a
 * test layer that flips bits, so a frame that skipped it fails to decode)
 * over a socketpair: a message split over frames, two messages in one
 * frame, sending in frames of max_wrap_input bytes, a frame that does not
 * unwrap, a 2 GB frame length, an endless message in small frames.  The Kerberos exchange itself is
 * tested against a real KDC by tests/hms/server_kerberos.py.
 */
#include "test.h"
#include "thrift/tproto.h"
#include "thrift/tsasl.h"
#include "util/mem.h"

#include <sys/socket.h>
#include <unistd.h>

TEST(qop_names) {
  hl_error_t err;
  hl_err_init(&err);
  hl_tsasl_qop_t q = 0;
  CHECK_INT(hl_tsasl_qop_parse("auth", &q, &err), HL_OK);
  CHECK_INT(q, HL_TSASL_AUTH);
  CHECK_INT(hl_tsasl_qop_parse("AUTH-INT", &q, &err), HL_OK);
  CHECK_INT(q, HL_TSASL_AUTH_INT);
  CHECK_INT(hl_tsasl_qop_parse("privacy", &q, &err), HL_OK);
  CHECK_INT(q, HL_TSASL_AUTH_CONF);
  CHECK_STR(hl_tsasl_qop_name(HL_TSASL_AUTH_CONF), "auth-conf");
  CHECK_INT(hl_tsasl_qop_parse("conf", &q, &err), HL_MISUSE);
  CHECK_STR(err.sqlstate, "22023");
  CHECK_STR(err.message, "SASL protection level must be auth, auth-int or auth-conf, not \"conf\"");
  hl_err_clear(&err);
}

TEST(frame_parser) {
  hl_error_t err;
  hl_err_init(&err);
  int status = 0, truncated = 0;
  const uint8_t *p = NULL;
  size_t plen = 0, flen = 0;
  const uint8_t start[] = {1, 0, 0, 0, 6, 'G', 'S', 'S', 'A', 'P', 'I', 2};
  CHECK_INT(
      hl_tsasl_parse_frame(start, sizeof start, 100, &status, &p, &plen, &flen, &truncated, &err),
      HL_OK);
  CHECK_INT(status, HL_TSASL_START);
  CHECK_INT(plen, 6);
  CHECK_INT(flen, 11);
  CHECK(p == start + 5);
  /* every strict prefix is truncated */
  for (size_t n = 0; n < 11; n++) {
    CHECK_INT(hl_tsasl_parse_frame(start, n, 100, &status, &p, &plen, &flen, &truncated, &err),
              HL_CORRUPT);
    CHECK_INT(truncated, 1);
    CHECK_STR(err.sqlstate, "08P01");
    hl_err_clear(&err);
  }
  /* a strict Thrift header is no SASL status: refused on its first byte */
  const uint8_t thrift[] = {0x80};
  CHECK_INT(hl_tsasl_parse_frame(thrift, 1, 100, &status, &p, &plen, &flen, &truncated, &err),
            HL_CORRUPT);
  CHECK_INT(truncated, 0);
  CHECK_STR(err.message, "sasl: bad negotiation status byte 128 (a client that does not speak "
                         "SASL?)");
  hl_err_clear(&err);
  const uint8_t zero[] = {0, 0, 0, 0, 0};
  CHECK_INT(hl_tsasl_parse_frame(zero, 5, 100, &status, &p, &plen, &flen, &truncated, &err),
            HL_CORRUPT);
  hl_err_clear(&err);
  /* 4 GB and 101 bytes against a cap of 100: refused from the header */
  const uint8_t huge[] = {2, 0xff, 0xff, 0xff, 0xff};
  CHECK_INT(hl_tsasl_parse_frame(huge, 5, 100, &status, &p, &plen, &flen, &truncated, &err),
            HL_CORRUPT);
  CHECK_INT(truncated, 0);
  CHECK_STR(err.message, "sasl: negotiation payload of 4294967295 bytes is over the limit of 100");
  hl_err_clear(&err);
  const uint8_t over[] = {2, 0, 0, 0, 101};
  CHECK_INT(hl_tsasl_parse_frame(over, 5, 100, &status, &p, &plen, &flen, &truncated, &err),
            HL_CORRUPT);
  CHECK_INT(truncated, 0);
  hl_err_clear(&err);
  const uint8_t empty[] = {5, 0, 0, 0, 0};
  CHECK_INT(hl_tsasl_parse_frame(empty, 5, 100, &status, &p, &plen, &flen, &truncated, &err),
            HL_OK);
  CHECK_INT(status, HL_TSASL_COMPLETE);
  CHECK_INT(plen, 0);
}

TEST(host_rule) {
  hl_error_t err;
  hl_err_init(&err);
  char *s = NULL;
  CHECK_INT(hl_tsasl_resolve_principal("hive/_HOST@EX.COM", "MS1.Example.COM", &s, &err), HL_OK);
  CHECK_STR(s, "hive/ms1.example.com@EX.COM");
  hl_free(s);
  CHECK_INT(hl_tsasl_resolve_principal("hive/_HOST", "h", &s, &err), HL_OK);
  CHECK_STR(s, "hive/h");
  hl_free(s);
  /* only a whole _HOST component is replaced */
  CHECK_INT(hl_tsasl_resolve_principal("hive/_HOSTX@R", "h", &s, &err), HL_OK);
  CHECK_STR(s, "hive/_HOSTX@R");
  hl_free(s);
  CHECK_INT(hl_tsasl_resolve_principal("_HOST@R", "h", &s, &err), HL_OK);
  CHECK_STR(s, "_HOST@R");
  hl_free(s);
  /* no host (or 0.0.0.0): this machine's name, lowercased, never _HOST */
  CHECK_INT(hl_tsasl_resolve_principal("hive/_HOST@R", "0.0.0.0", &s, &err), HL_OK);
  CHECK(s && strncmp(s, "hive/", 5) == 0 && strstr(s, "@R") && !strstr(s, "_HOST"));
  for (const char *c = s; c && *c && *c != '@'; c++)
    CHECK(!(*c >= 'A' && *c <= 'Z'));
  hl_free(s);
}

/* A test layer: XOR 0x5a and a trailing checksum byte. */
static hl_status_t x_wrap(void *ctx, const uint8_t *in, size_t len, hl_buf_t *out,
                          hl_error_t *err) {
  (void)ctx;
  (void)err;
  uint8_t sum = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = in[i] ^ 0x5a;
    sum += in[i];
    hl_buf_append(out, &c, 1);
  }
  hl_buf_append(out, &sum, 1);
  return HL_OK;
}

static hl_status_t x_unwrap(void *ctx, const uint8_t *in, size_t len, hl_buf_t *out,
                            hl_error_t *err) {
  uint8_t sum = 0;
  (void)ctx;
  if (len < 1) return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION), "x: empty");
  for (size_t i = 0; i + 1 < len; i++) {
    uint8_t c = in[i] ^ 0x5a;
    sum += c;
    hl_buf_append(out, &c, 1);
  }
  if (sum != in[len - 1])
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION), "x: bad checksum");
  return HL_OK;
}

static void x_destroy(void *ctx) {
  (*(int *)ctx)++; /* counts the layers the transports freed */
}

static void x_layer(hl_ttransport_t *t, size_t max_in, int *destroyed) {
  t->sasl = 1;
  t->layer.wrap = x_wrap;
  t->layer.unwrap = x_unwrap;
  t->layer.destroy = x_destroy;
  t->layer.ctx = destroyed;
  t->layer.max_wrap_input = max_in;
}

/* One Thrift call message "m" with an empty argument struct, seqid SEQ. */
static void call(hl_buf_t *b, int32_t seq) {
  hl_tw_message(b, "m", HL_TMSG_CALL, seq);
  hl_tw_stop(b);
}

TEST(sasl_framing) {
  hl_error_t err;
  hl_err_init(&err);
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_ttransport_t a, b;
  hl_tt_init(&a, sv[0], 0);
  hl_tt_init(&b, sv[1], 0);
  a.timeout_ms = b.timeout_ms = 5000;
  int destroyed = 0;
  x_layer(&a, 5, &destroyed); /* frames of 5 plaintext bytes: a message spans several */
  x_layer(&b, 0, &destroyed);
  hl_buf_t m;
  hl_buf_init(&m);
  call(&m, 7);
  size_t one = m.len;
  CHECK_INT(hl_tt_send(&a, m.data, m.len, &err), HL_OK);
  const uint8_t *d;
  size_t n;
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_OK);
  CHECK_INT(n, one);
  CHECK(memcmp(d, m.data, n) == 0);
  /* two messages in one frame come out one by one */
  call(&m, 8);
  CHECK_INT(hl_tt_send(&b, m.data, m.len, &err), HL_OK);
  CHECK_INT(hl_tt_recv(&a, &d, &n, &err), HL_OK);
  CHECK_INT(n, one);
  CHECK_INT(hl_tt_recv(&a, &d, &n, &err), HL_OK);
  CHECK_INT(n, one);
  CHECK(memcmp(d, m.data + one, n) == 0);
  /* a frame that does not unwrap */
  const uint8_t bad[] = {0, 0, 0, 2, 0x11, 0x22};
  CHECK(write(sv[0], bad, sizeof bad) == (ssize_t)sizeof bad);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "x: bad checksum");
  hl_err_clear(&err);
  hl_tt_fini(&a);
  hl_tt_fini(&b);
  CHECK_INT(destroyed, 2);
  close(sv[0]);
  close(sv[1]);
  /* a 2 GB frame length fails before any read of the body */
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_tt_init(&b, sv[1], 0);
  b.sasl = 1; /* qop auth: no layer, frames carry plaintext */
  const uint8_t big[] = {0x7f, 0xff, 0xff, 0xff, 1};
  CHECK(write(sv[0], big, sizeof big) == (ssize_t)sizeof big);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: frame length 2147483647 is outside 1..104857600");
  hl_err_clear(&err);
  hl_tt_fini(&b);
  close(sv[0]);
  close(sv[1]);
  /* a message that never ends, in small frames, stops at the cap */
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_tt_init(&b, sv[1], 0);
  b.sasl = 1;
  b.max_message = 32;
  /* a call "m" whose argument 1 is a string of 100 bytes that never come */
  const uint8_t head[] = {0,   0, 0, 20, 0x80, 0x01, 0x00, 0x01, 0, 0, 0, 1,
                          'm', 0, 0, 0,  1,    0x0b, 0,    1,    0, 0, 0, 100};
  CHECK(write(sv[0], head, sizeof head) == (ssize_t)sizeof head);
  for (int i = 0; i < 10; i++) {
    const uint8_t more[] = {0, 0, 0, 4, 'a', 'b', 'c', 'd'};
    CHECK(write(sv[0], more, sizeof more) == (ssize_t)sizeof more);
  }
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: message longer than 32 bytes");
  CHECK_INT(b.plain.len, 32);
  hl_err_clear(&err);
  hl_tt_fini(&b);
  close(sv[0]);
  close(sv[1]);
  /* the peer closing inside a message split over frames */
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_tt_init(&b, sv[1], 0);
  b.sasl = 1;
  const uint8_t half[] = {0, 0, 0, 3, 0x80, 0x01, 0x00};
  CHECK(write(sv[0], half, sizeof half) == (ssize_t)sizeof half);
  close(sv[0]);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: connection closed inside a message (3 bytes)");
  hl_err_clear(&err);
  hl_tt_fini(&b);
  close(sv[1]);
  hl_buf_fini(&m);
}

int main(void) {
  RUN(qop_names);
  RUN(frame_parser);
  RUN(host_rule);
  RUN(sasl_framing);
  return test_report();
}
