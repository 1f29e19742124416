/*
 * test_thrift.c -- the Thrift binary protocol and transports (src/thrift/):
 * round trips of every type, both message header forms, skipping of nested
 * unknown fields, hostile input (huge and negative lengths, truncation at
 * every byte, deep nesting, bad type codes) failing with 08P01 at once, and
 * the buffered and framed transports over a socket pair.
 */
#include "test.h"
#include "thrift/tproto.h"
#include "thrift/ttransport.h"

#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* A struct with one field of every type, then an i32 field 99 = 7 (which
 * tells a skipping reader it came out at the right place). */
static void write_everything(hl_buf_t *b) {
  hl_tw_field(b, HL_TT_BOOL, 1);
  hl_tw_bool(b, 1);
  hl_tw_field(b, HL_TT_BYTE, 2);
  hl_tw_byte(b, -5);
  hl_tw_field(b, HL_TT_I16, 3);
  hl_tw_i16(b, -30000);
  hl_tw_field(b, HL_TT_I32, 4);
  hl_tw_i32(b, INT32_MIN);
  hl_tw_field(b, HL_TT_I64, 5);
  hl_tw_i64(b, INT64_MAX);
  hl_tw_field(b, HL_TT_DOUBLE, 6);
  hl_tw_double(b, -1.5e300);
  hl_tw_field(b, HL_TT_STRING, 7);
  hl_tw_binary(b, "a\0b", 3);
  hl_tw_field(b, HL_TT_STRUCT, 8); /* struct { 1: string "in" } */
  hl_tw_field(b, HL_TT_STRING, 1);
  hl_tw_string(b, "in");
  hl_tw_stop(b);
  hl_tw_field(b, HL_TT_MAP, 9); /* map<string, list<i16>> {"k": [1, 2]} */
  hl_tw_map(b, HL_TT_STRING, HL_TT_LIST, 1);
  hl_tw_string(b, "k");
  hl_tw_list(b, HL_TT_I16, 2);
  hl_tw_i16(b, 1);
  hl_tw_i16(b, 2);
  hl_tw_field(b, HL_TT_SET, 10); /* set<i64> {9} */
  hl_tw_list(b, HL_TT_I64, 1);
  hl_tw_i64(b, 9);
  hl_tw_field(b, HL_TT_LIST, 11); /* list<struct> [{}, {2: bool false}] */
  hl_tw_list(b, HL_TT_STRUCT, 2);
  hl_tw_stop(b);
  hl_tw_field(b, HL_TT_BOOL, 2);
  hl_tw_bool(b, 0);
  hl_tw_stop(b);
  hl_tw_field(b, HL_TT_I32, 99);
  hl_tw_i32(b, 7);
  hl_tw_stop(b);
}

TEST(round_trip_every_type) {
  hl_buf_t b;
  hl_error_t err;
  hl_buf_init(&b);
  hl_err_init(&err);
  write_everything(&b);
  CHECK_INT(hl_tw_check(&b, &err), HL_OK);
  hl_treader_t r;
  hl_tr_init(&r, b.data, b.len, &err);
  hl_ttype_t t, k, v;
  int16_t id, s;
  int bo;
  int8_t by;
  int32_t i;
  int64_t l;
  double d;
  const uint8_t *p;
  size_t n;
  uint32_t cnt;
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_BOOL && id == 1 && !hl_tr_bool(&r, &bo) && bo == 1);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_BYTE && id == 2 && !hl_tr_byte(&r, &by) &&
        by == -5);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_I16 && !hl_tr_i16(&r, &s) && s == -30000);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_I32 && !hl_tr_i32(&r, &i) && i == INT32_MIN);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_I64 && !hl_tr_i64(&r, &l) && l == INT64_MAX);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_DOUBLE && !hl_tr_double(&r, &d) && d == -1.5e300);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STRING && !hl_tr_binary(&r, &p, &n) && n == 3 &&
        memcmp(p, "a\0b", 3) == 0);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STRUCT && id == 8);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STRING && !hl_tr_binary(&r, &p, &n) && n == 2);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STOP);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_MAP && !hl_tr_map(&r, &k, &v, &cnt) &&
        k == HL_TT_STRING && v == HL_TT_LIST && cnt == 1);
  CHECK(!hl_tr_binary(&r, &p, &n) && n == 1 && p[0] == 'k');
  CHECK(!hl_tr_list(&r, &k, &cnt) && k == HL_TT_I16 && cnt == 2);
  CHECK(!hl_tr_i16(&r, &s) && s == 1 && !hl_tr_i16(&r, &s) && s == 2);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_SET && !hl_tr_list(&r, &k, &cnt) &&
        k == HL_TT_I64 && cnt == 1 && !hl_tr_i64(&r, &l) && l == 9);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_LIST && !hl_tr_list(&r, &k, &cnt) &&
        k == HL_TT_STRUCT && cnt == 2);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STOP);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_BOOL && !hl_tr_bool(&r, &bo) && bo == 0);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STOP);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_I32 && id == 99 && !hl_tr_i32(&r, &i) && i == 7);
  CHECK(!hl_tr_field(&r, &t, &id) && t == HL_TT_STOP);
  CHECK_INT(hl_tr_offset(&r), b.len);
  CHECK_INT(err.code, HL_OK);
  hl_buf_fini(&b);
}

/* Exact bytes: big endian integers, IEEE doubles, strict header. */
TEST(exact_bytes) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_tw_message(&b, "ab", HL_TMSG_REPLY, 258);
  hl_tw_double(&b, 1.0);
  hl_tw_map(&b, HL_TT_STRING, HL_TT_I32, 3);
  static const uint8_t want[] = {0x80, 0x01, 0x00, 0x02, 0, 0, 0, 2, 'a', 'b', 0, 0, 1, 2,
                                 0x3f, 0xf0, 0,    0,    0, 0, 0, 0, 11,  8,   0, 0, 0, 3};
  CHECK_INT(b.len, sizeof want);
  CHECK(b.len == sizeof want && memcmp(b.data, want, sizeof want) == 0);
  hl_buf_fini(&b);
}

TEST(message_headers) {
  hl_error_t err;
  hl_err_init(&err);
  const uint8_t *name;
  size_t nlen;
  hl_tmsg_type_t type;
  int32_t seq;
  hl_treader_t r;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_tw_message(&b, "get_table", HL_TMSG_CALL, 42);
  hl_tr_init(&r, b.data, b.len, &err);
  CHECK_INT(hl_tr_message(&r, &name, &nlen, &type, &seq), HL_OK);
  CHECK(nlen == 9 && memcmp(name, "get_table", 9) == 0 && type == HL_TMSG_CALL && seq == 42);
  /* the old unversioned form: name, type byte, seqid */
  static const uint8_t old[] = {0, 0, 0, 3, 'f', 'o', 'o', 4, 0, 0, 0, 9};
  hl_tr_init(&r, old, sizeof old, &err);
  CHECK_INT(hl_tr_message(&r, &name, &nlen, &type, &seq), HL_OK);
  CHECK(nlen == 3 && memcmp(name, "foo", 3) == 0 && type == HL_TMSG_ONEWAY && seq == 9);
  /* a wrong version, an unknown message type (strict and old) */
  static const uint8_t badver[] = {0x80, 0x02, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  hl_tr_init(&r, badver, sizeof badver, &err);
  CHECK_INT(hl_tr_message(&r, &name, &nlen, &type, &seq), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, "thrift: bad message version 0x80020001 at byte 4");
  hl_err_clear(&err);
  static const uint8_t badtype[] = {0x80, 0x01, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0};
  hl_tr_init(&r, badtype, sizeof badtype, &err);
  CHECK_INT(hl_tr_message(&r, &name, &nlen, &type, &seq), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: unknown message type 7 at byte 8");
  hl_err_clear(&err);
  static const uint8_t oldbad[] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  hl_tr_init(&r, oldbad, sizeof oldbad, &err);
  CHECK_INT(hl_tr_message(&r, &name, &nlen, &type, &seq), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: unknown message type 0 at byte 5");
  hl_err_clear(&err);
  hl_buf_fini(&b);
}

/* A reader that knows only field 99 skips all the others, nested ones
 * included, and lands exactly on it. */
TEST(skip_nested_unknown) {
  hl_buf_t b;
  hl_error_t err;
  hl_buf_init(&b);
  hl_err_init(&err);
  write_everything(&b);
  hl_treader_t r;
  hl_tr_init(&r, b.data, b.len, &err);
  hl_ttype_t t;
  int16_t id;
  int32_t got = 0;
  int fields = 0;
  while (!hl_tr_field(&r, &t, &id) && t != HL_TT_STOP) {
    fields++;
    if (id == 99 && t == HL_TT_I32)
      CHECK_INT(hl_tr_i32(&r, &got), HL_OK);
    else
      CHECK_INT(hl_tr_skip(&r, t), HL_OK);
  }
  CHECK_INT(fields, 12);
  CHECK_INT(got, 7);
  CHECK_INT(hl_tr_offset(&r), b.len);
  CHECK_INT(err.code, HL_OK);
  /* skipping the whole thing as one struct */
  hl_tr_init(&r, b.data, b.len, &err);
  CHECK_INT(hl_tr_skip(&r, HL_TT_STRUCT), HL_OK);
  CHECK_INT(hl_tr_offset(&r), b.len);
  CHECK_INT(r.depth, 0);
  hl_buf_fini(&b);
}

/* Every proper prefix of a valid message fails as truncated with 08P01. */
TEST(truncated_everywhere) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_tw_message(&b, "get_table", HL_TMSG_CALL, 1);
  write_everything(&b);
  size_t len, fails = 0;
  int truncated;
  for (size_t cut = 0; cut < b.len; cut++) {
    hl_error_t err;
    hl_err_init(&err);
    if (hl_tt_message_length((const uint8_t *)b.data, cut, &len, &truncated, &err) == HL_CORRUPT &&
        truncated && strcmp(err.sqlstate, "08P01") == 0)
      fails++;
    else
      fprintf(stderr, "prefix of %zu bytes not rejected as truncated\n", cut);
    hl_err_clear(&err);
  }
  CHECK_INT(fails, b.len);
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_tt_message_length((const uint8_t *)b.data, b.len, &len, &truncated, &err), HL_OK);
  CHECK_INT(len, b.len);
  hl_buf_fini(&b);
}

static hl_status_t skip_bytes(const uint8_t *data, size_t n, hl_ttype_t type, hl_error_t *err,
                              int *truncated) {
  hl_treader_t r;
  hl_tr_init(&r, data, n, err);
  hl_status_t rc = hl_tr_skip(&r, type);
  *truncated = r.truncated;
  return rc;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST(hostile_lengths) {
  hl_error_t err;
  int tr;
  double t0 = now_s();
  hl_err_init(&err);
  /* a 2 GB string in a 20-byte message */
  static const uint8_t big_str[20] = {0x7f, 0xff, 0xff, 0xff, 'x'};
  CHECK_INT(skip_bytes(big_str, sizeof big_str, HL_TT_STRING, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message,
            "thrift: string length 2147483647 exceeds the limit of 104857600 at byte 4");
  hl_err_clear(&err);
  /* within the cap but beyond the input: truncated */
  static const uint8_t mid_str[20] = {0x00, 0x10, 0x00, 0x00, 'x'};
  CHECK_INT(skip_bytes(mid_str, sizeof mid_str, HL_TT_STRING, &err, &tr), HL_CORRUPT);
  CHECK_INT(tr, 1);
  CHECK_STR(err.message,
            "thrift: message ends inside a string (1048576 bytes needed, 16 left) at byte 4");
  hl_err_clear(&err);
  static const uint8_t neg_str[20] = {0xff, 0xff, 0xff, 0xfe};
  CHECK_INT(skip_bytes(neg_str, sizeof neg_str, HL_TT_STRING, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: negative string length -2 at byte 4");
  hl_err_clear(&err);
  /* a list of 1e9 bools, and of 1e6 i64 in 20 bytes: no walk, no allocation */
  static const uint8_t big_list[20] = {HL_TT_BOOL, 0x3b, 0x9a, 0xca, 0x00};
  CHECK_INT(skip_bytes(big_list, sizeof big_list, HL_TT_LIST, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message,
            "thrift: list of 1000000000 elements exceeds the limit of 10000000 at byte 5");
  hl_err_clear(&err);
  static const uint8_t mid_list[20] = {HL_TT_I64, 0x00, 0x0f, 0x42, 0x40};
  CHECK_INT(skip_bytes(mid_list, sizeof mid_list, HL_TT_SET, &err, &tr), HL_CORRUPT);
  CHECK_INT(tr, 1);
  CHECK_STR(err.message,
            "thrift: list of 1000000 elements cannot fit in the 15 bytes left at byte 5");
  hl_err_clear(&err);
  static const uint8_t neg_list[20] = {HL_TT_I32, 0x80, 0, 0, 0};
  CHECK_INT(skip_bytes(neg_list, sizeof neg_list, HL_TT_LIST, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: negative list size -2147483648 at byte 5");
  hl_err_clear(&err);
  /* a map of 3 million string->string in 20 bytes: 8 bytes each at least */
  static const uint8_t big_map[20] = {HL_TT_STRING, HL_TT_STRING, 0x00, 0x2d, 0xc6, 0xc0};
  CHECK_INT(skip_bytes(big_map, sizeof big_map, HL_TT_MAP, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message,
            "thrift: map of 3000000 elements cannot fit in the 14 bytes left at byte 6");
  hl_err_clear(&err);
  /* a list of 4 empty lists in 20 bytes is fine: counts are per level */
  static const uint8_t lists[] = {HL_TT_LIST, 0, 0,         0, 2, HL_TT_I32, 0, 0,
                                  0,          0, HL_TT_I32, 0, 0, 0,         0};
  CHECK_INT(skip_bytes(lists, sizeof lists, HL_TT_LIST, &err, &tr), HL_OK);
  CHECK(now_s() - t0 < 1.0); /* fails at once, whatever the lengths say */
}

TEST(deep_nesting_and_bad_types) {
  hl_error_t err;
  int tr;
  hl_err_init(&err);
  /* 100 nested lists of one list each */
  uint8_t deep[500];
  for (int i = 0; i < 100; i++) {
    deep[5 * i] = HL_TT_LIST;
    deep[5 * i + 1] = deep[5 * i + 2] = deep[5 * i + 3] = 0;
    deep[5 * i + 4] = 1;
  }
  CHECK_INT(skip_bytes(deep, sizeof deep, HL_TT_LIST, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, "thrift: nesting deeper than 64 levels at byte 325");
  hl_err_clear(&err);
  /* 100 nested structs (field 1 of type struct) */
  uint8_t deeps[300];
  for (int i = 0; i < 100; i++) {
    deeps[3 * i] = HL_TT_STRUCT;
    deeps[3 * i + 1] = 0;
    deeps[3 * i + 2] = 1;
  }
  CHECK_INT(skip_bytes(deeps, sizeof deeps, HL_TT_STRUCT, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: nesting deeper than 64 levels at byte 192");
  hl_err_clear(&err);
  static const uint8_t badfield[] = {9, 0, 1, 0};
  CHECK_INT(skip_bytes(badfield, sizeof badfield, HL_TT_STRUCT, &err, &tr), HL_CORRUPT);
  CHECK_INT(tr, 0);
  CHECK_STR(err.message, "thrift: unknown field type code 9 at byte 1");
  hl_err_clear(&err);
  static const uint8_t badelem[] = {1, 0, 0, 0, 0};
  CHECK_INT(skip_bytes(badelem, sizeof badelem, HL_TT_LIST, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: unknown element type code 1 at byte 1");
  hl_err_clear(&err);
  static const uint8_t badkey[] = {HL_TT_I32, 0x7f, 0, 0, 0, 0};
  CHECK_INT(skip_bytes(badkey, sizeof badkey, HL_TT_MAP, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: unknown map value type code 127 at byte 2");
  hl_err_clear(&err);
  CHECK_INT(skip_bytes(badkey, sizeof badkey, (hl_ttype_t)5, &err, &tr), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: cannot skip a value of unknown type code 5 at byte 0");
  hl_err_clear(&err);
}

/* ---- transports over a socket pair */

TEST(framed_transport) {
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_ttransport_t a, b;
  hl_error_t err;
  hl_err_init(&err);
  hl_tt_init(&a, sv[0], 1);
  hl_tt_init(&b, sv[1], 1);
  b.timeout_ms = 200;
  CHECK_INT(hl_tt_send(&a, "hello", 5, &err), HL_OK);
  CHECK_INT(hl_tt_send(&a, "xy", 2, &err), HL_OK);
  const uint8_t *d;
  size_t n;
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_OK);
  CHECK(n == 5 && memcmp(d, "hello", 5) == 0);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_OK);
  CHECK(n == 2 && memcmp(d, "xy", 2) == 0);
  /* nothing more: the timeout */
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "08000");
  CHECK_STR(err.message, "thrift: no data from the peer for 200 ms");
  hl_err_clear(&err);
  /* a 2 GB frame length fails before anything is read into memory */
  static const uint8_t huge[] = {0x7f, 0xff, 0xff, 0xff};
  CHECK(write(sv[0], huge, sizeof huge) == (ssize_t)sizeof huge);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, "thrift: frame length 2147483647 is outside 1..104857600");
  CHECK(b.in.cap < 4096);
  hl_err_clear(&err);
  hl_tt_fini(&b);
  /* a frame said to hold 48 MB that never comes: the buffer holds what
   * arrived (reads of at most 1 MB), not what was announced */
  hl_tt_init(&b, sv[1], 1);
  b.timeout_ms = 200;
  static const uint8_t announced[] = {0x03, 0, 0, 0, 'a', 'b', 'c'};
  CHECK(write(sv[0], announced, sizeof announced) == (ssize_t)sizeof announced);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_IOERR);
  CHECK(b.in.cap <= (3u << 20));
  hl_err_clear(&err);
  hl_tt_fini(&b);
  /* a frame cut short by the peer closing */
  hl_tt_init(&b, sv[1], 1);
  static const uint8_t cut[] = {0, 0, 0, 10, 'a', 'b'};
  CHECK(write(sv[0], cut, sizeof cut) == (ssize_t)sizeof cut);
  close(sv[0]);
  CHECK_INT(hl_tt_recv(&b, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: connection closed inside a message (6 of 14 bytes)");
  hl_err_clear(&err);
  hl_tt_fini(&b);
  hl_tt_fini(&a);
  close(sv[1]);
}

TEST(buffered_transport) {
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_ttransport_t t;
  hl_error_t err;
  hl_err_init(&err);
  hl_tt_init(&t, sv[1], 0);
  t.timeout_ms = 2000;
  hl_buf_t m;
  hl_buf_init(&m);
  hl_tw_message(&m, "get_all_databases", HL_TMSG_CALL, 1);
  hl_tw_stop(&m);
  size_t first = m.len;
  hl_tw_message(&m, "get_table", HL_TMSG_CALL, 2);
  write_everything(&m);
  /* both messages, the second split in two writes */
  CHECK(write(sv[0], m.data, first + 7) == (ssize_t)(first + 7));
  const uint8_t *d;
  size_t n;
  CHECK_INT(hl_tt_recv(&t, &d, &n, &err), HL_OK);
  CHECK(n == first && memcmp(d, m.data, first) == 0);
  CHECK(write(sv[0], m.data + first + 7, m.len - first - 7) == (ssize_t)(m.len - first - 7));
  CHECK_INT(hl_tt_recv(&t, &d, &n, &err), HL_OK);
  CHECK(n == m.len - first && memcmp(d, m.data + first, n) == 0);
  /* a bad type code fails without waiting for more bytes */
  static const uint8_t bad[] = {0x80, 1, 0, 1, 0, 0, 0, 1, 'f', 0, 0, 0, 1, 9};
  CHECK(write(sv[0], bad, sizeof bad) == (ssize_t)sizeof bad);
  CHECK_INT(hl_tt_recv(&t, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: unknown field type code 9 at byte 14");
  hl_err_clear(&err);
  hl_tt_fini(&t);
  /* a message longer than the cap */
  hl_tt_init(&t, sv[1], 0);
  t.max_message = 16;
  static const uint8_t longer[] = {0x80,         1, 0, 1, 0, 0, 0,   1,   'f', 0, 0, 0, 1,
                                   HL_TT_STRING, 0, 1, 0, 0, 0, 100, 'x', 'y'};
  CHECK(write(sv[0], longer, sizeof longer) == (ssize_t)sizeof longer);
  CHECK_INT(hl_tt_recv(&t, &d, &n, &err), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: message longer than 16 bytes");
  hl_err_clear(&err);
  hl_tt_fini(&t);
  /* a clean close between messages is HL_DONE (a new connection: after a
   * protocol error the rest of the old one is garbage) */
  close(sv[0]);
  close(sv[1]);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  hl_tt_init(&t, sv[1], 0);
  close(sv[0]);
  CHECK_INT(hl_tt_recv(&t, &d, &n, &err), HL_DONE);
  CHECK_INT(err.code, HL_OK);
  hl_tt_fini(&t);
  hl_buf_fini(&m);
  close(sv[1]);
}

int main(void) {
  RUN(round_trip_every_type);
  RUN(exact_bytes);
  RUN(message_headers);
  RUN(skip_nested_unknown);
  RUN(truncated_everywhere);
  RUN(hostile_lengths);
  RUN(deep_nesting_and_bad_types);
  RUN(framed_transport);
  RUN(buffered_transport);
  return test_report();
}
