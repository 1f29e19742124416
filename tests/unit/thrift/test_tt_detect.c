/*
 * test_tt_detect.c -- the transport's HL_TT_DETECT mode (src/thrift/
 * ttransport.c), as the metastore server uses it: a peer's first byte
 * decides, a strict header (0x80) is buffered, anything else a frame
 * length; two messages in a row come out whole either way, the answer goes
 * back in the same transport, and a frame length over the cap fails.
 */
#include "thrift/tproto.h"
#include "thrift/ttransport.h"
#include "test.h"

#include <sys/socket.h>
#include <unistd.h>

/* A strict call "ping" with an empty argument struct. */
static void call(hl_buf_t *b, int32_t seqid) {
  hl_tw_message(b, "ping", HL_TMSG_CALL, seqid);
  hl_tw_stop(b);
}

static void one(int framed_peer) {
  int sv[2];
  hl_error_t err;
  hl_ttransport_t peer, srv;
  hl_buf_t m;
  const uint8_t *d;
  size_t n;
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_err_init(&err);
  hl_buf_init(&m);
  hl_tt_init(&peer, sv[0], framed_peer);
  hl_tt_init(&srv, sv[1], HL_TT_DETECT);
  srv.timeout_ms = peer.timeout_ms = 5000;
  call(&m, 1);
  CHECK_INT(hl_tt_send(&peer, m.data, m.len, &err), HL_OK);
  CHECK_INT(hl_tt_send(&peer, m.data, m.len, &err), HL_OK);
  CHECK_INT(hl_tt_recv(&srv, &d, &n, &err), HL_OK);
  CHECK_INT(srv.framed, framed_peer);
  CHECK_INT(n, m.len);
  CHECK(n == m.len && memcmp(d, m.data, n) == 0);
  CHECK_INT(hl_tt_recv(&srv, &d, &n, &err), HL_OK);
  CHECK(n == m.len && memcmp(d, m.data, n) == 0);
  CHECK_INT(hl_tt_send(&srv, "reply", 5, &err), HL_OK);
  uint8_t got[16];
  size_t want = framed_peer ? 9 : 5;
  CHECK_INT(read(sv[0], got, sizeof got), (long long)want);
  CHECK(memcmp(got + (framed_peer ? 4 : 0), "reply", 5) == 0);
  if (framed_peer) CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0 && got[3] == 5);
  hl_err_clear(&err);
  hl_buf_fini(&m);
  hl_tt_fini(&peer);
  hl_tt_fini(&srv);
  close(sv[0]);
  close(sv[1]);
}

TEST(buffered_and_framed) {
  one(0);
  one(1);
}

TEST(frame_over_cap) {
  int sv[2];
  hl_error_t err;
  hl_ttransport_t srv;
  const uint8_t *d;
  size_t n;
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_err_init(&err);
  hl_tt_init(&srv, sv[1], HL_TT_DETECT);
  srv.timeout_ms = 5000;
  CHECK_INT(write(sv[0], "\x7f\xff\xff\xffxxxx", 8), 8);
  CHECK_INT(hl_tt_recv(&srv, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, "thrift: frame length 2147483647 is outside 1..104857600");
  hl_err_clear(&err);
  hl_tt_fini(&srv);
  close(sv[0]);
  close(sv[1]);
}

TEST(closed_before_a_byte) {
  int sv[2];
  hl_error_t err;
  hl_ttransport_t srv;
  const uint8_t *d;
  size_t n;
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_err_init(&err);
  hl_tt_init(&srv, sv[1], HL_TT_DETECT);
  close(sv[0]);
  CHECK_INT(hl_tt_recv(&srv, &d, &n, &err), HL_DONE);
  CHECK_INT(srv.framed, HL_TT_DETECT);
  hl_err_clear(&err);
  hl_tt_fini(&srv);
  close(sv[1]);
}

int main(void) {
  RUN(buffered_and_framed);
  RUN(frame_over_cap);
  RUN(closed_before_a_byte);
  return test_report();
}
