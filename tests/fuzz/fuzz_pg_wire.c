// clang-format off
/*
 * fuzz_pg_wire.c -- libFuzzer target for the PostgreSQL server's message
 * decoder (src/server/pg_wire.c): framing and every client message decoder.
 *
 * Build (as the fuzz.pg_wire CTest entry does):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_pg_wire.c src/server/pg_wire.c -o fuzz_pg_wire
 *
 * The input is a client's byte stream: the untyped startup packet, then
 * typed messages, split with pg_frame exactly as the connection does (a
 * 2 GB or negative length must be PG_FRAME_BAD before any byte of it is
 * needed; the size a reader is told to wait for never exceeds the cap).
 * Each message goes to the decoder of its type; whatever the decoder
 * returns, every pointer it hands out must lie inside the message body and
 * every string must end inside it (checked by touching the bytes under
 * ASan, on an exact-size copy of the body).
 */
// clang-format on
#include "server/pg_wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned char *lo, *hi;

static void inside(const void *p, size_t n) {
  const unsigned char *c = p;
  if (!p) return;
  if (c < lo || c + n > hi) abort();
}

static void str_inside(const char *s) {
  if (s) inside(s, strlen(s) + 1);
}

static void decode(char type, const unsigned char *body, size_t len) {
  lo = body;
  hi = body + len;
  switch (type) {
  case 0: {
    pg_startup_t st;
    const char *why;
    if (pg_decode_startup(body, len, &st, &why) == 0)
      for (int i = 0; i < st.n_params; i++) {
        str_inside(st.names[i]);
        str_inside(st.values[i]);
      }
    break;
  }
  case 'P': {
    pg_parse_msg_t m;
    if (pg_decode_parse(body, len, &m) == 0) {
      str_inside(m.name);
      str_inside(m.query);
      inside(m.types, (size_t)m.n_types * 4);
    }
    break;
  }
  case 'B': {
    pg_bind_msg_t m;
    if (pg_decode_bind(body, len, &m) == 0) {
      str_inside(m.portal);
      str_inside(m.stmt);
      for (int i = 0; i < m.n_params + 2; i++)
        if (pg_bind_param_format(&m, i) > 1) abort();
      for (int i = 0; i < m.n_result_formats + 2; i++)
        if (pg_bind_result_format(&m, i) > 1) abort();
      size_t cursor = 0;
      const unsigned char *v;
      int32_t n;
      int count = 0;
      while (pg_bind_next_param(&m, &cursor, &v, &n) == 0) {
        if (v) inside(v, (size_t)n);
        if (++count > m.n_params) abort();
      }
      if (count != m.n_params) abort();
    }
    break;
  }
  case 'D':
  case 'C': {
    pg_target_msg_t m;
    if (pg_decode_target(body, len, &m) == 0) str_inside(m.name);
    break;
  }
  case 'E': {
    pg_execute_msg_t m;
    if (pg_decode_execute(body, len, &m) == 0) {
      str_inside(m.portal);
      if (m.max_rows < 0) abort();
    }
    break;
  }
  case 'p': {
    pg_sasl_initial_t m;
    if (pg_decode_sasl_initial(body, len, &m) == 0) {
      str_inside(m.mechanism);
      inside(m.data, m.data_len);
    }
    break;
  }
  default:
    break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t off = 0;
  int startup = 1;
  while (off < size) {
    pg_frame_t f;
    size_t need = 0;
    pg_frame_rc_t rc = pg_frame(data + off, size - off, startup, PG_MAX_MESSAGE, &f, &need);
    if (rc == PG_FRAME_BAD) break;
    if (need > PG_MAX_MESSAGE + 5) abort(); /* never told to buffer beyond the cap */
    if (rc == PG_FRAME_MORE) break;
    if (f.total > size - off || f.body + f.body_len != data + off + f.total) abort();
    /* an exact-size copy, so that ASan sees any read past the body */
    unsigned char *copy = malloc(f.body_len ? f.body_len : 1);
    if (!copy) abort();
    memcpy(copy, f.body, f.body_len);
    decode(f.type, copy, f.body_len);
    if (!startup && f.type == 'p') decode('B', copy, f.body_len); /* any bytes as a Bind too */
    free(copy);
    off += f.total;
    startup = 0;
  }
  /* the builder: a message of whatever the input holds, length patched */
  pg_buf_t b = {0};
  pg_msg_begin(&b, 'D');
  pg_put_bytes(&b, data, size);
  pg_msg_end(&b);
  if (!b.oom && (b.len != size + 5 || memcmp(b.data + 5, data, size) != 0)) abort();
  pg_buf_free(&b);
  return 0;
}
