/*
 * pg_wire.c -- the protocol's byte level: building outgoing messages,
 * splitting incoming ones, and the checked decoders of client messages
 * (see pg_wire.h; no I/O, no session state).
 */
#include "pg_wire.h"

#include <stdlib.h>
#include <string.h>

/* ---- pg_buf ---- */

void pg_buf_free(pg_buf_t *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

void pg_buf_reset(pg_buf_t *b) {
  b->len = 0;
  b->msg_start = 0;
  b->oom = 0;
}

static int reserve(pg_buf_t *b, size_t n) {
  if (b->oom) return -1;
  if (n <= b->cap - b->len) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < n) {
    if (cap > SIZE_MAX / 2) {
      b->oom = 1;
      return -1;
    }
    cap *= 2;
  }
  unsigned char *d = realloc(b->data, cap);
  if (!d) {
    b->oom = 1;
    return -1;
  }
  b->data = d;
  b->cap = cap;
  return 0;
}

void pg_put_bytes(pg_buf_t *b, const void *p, size_t n) {
  if (n == 0 || reserve(b, n) < 0) return;
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

void pg_put_u8(pg_buf_t *b, unsigned v) {
  unsigned char c = (unsigned char)v;
  pg_put_bytes(b, &c, 1);
}

void pg_put_i16(pg_buf_t *b, int v) {
  unsigned char c[2] = {(unsigned char)((unsigned)v >> 8), (unsigned char)v};
  pg_put_bytes(b, c, 2);
}

void pg_put_i32(pg_buf_t *b, int32_t v) {
  uint32_t u = (uint32_t)v;
  unsigned char c[4] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16), (unsigned char)(u >> 8),
                        (unsigned char)u};
  pg_put_bytes(b, c, 4);
}

void pg_put_i64(pg_buf_t *b, int64_t v) {
  uint64_t u = (uint64_t)v;
  pg_put_i32(b, (int32_t)(uint32_t)(u >> 32));
  pg_put_i32(b, (int32_t)(uint32_t)u);
}

void pg_put_cstr(pg_buf_t *b, const char *s) {
  pg_put_bytes(b, s, strlen(s) + 1);
}

void pg_msg_begin(pg_buf_t *b, char type) {
  b->msg_start = b->len;
  pg_put_u8(b, (unsigned char)type);
  pg_put_i32(b, 0);
}

void pg_msg_end(pg_buf_t *b) {
  if (b->oom) return;
  uint32_t n = (uint32_t)(b->len - b->msg_start - 1);
  unsigned char *p = b->data + b->msg_start + 1;
  p[0] = (unsigned char)(n >> 24);
  p[1] = (unsigned char)(n >> 16);
  p[2] = (unsigned char)(n >> 8);
  p[3] = (unsigned char)n;
}

/* ---- framing ---- */

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

pg_frame_rc_t pg_frame(const unsigned char *buf, size_t len, int startup, size_t max,
                       pg_frame_t *out, size_t *need) {
  size_t head = startup ? 4 : 5;
  if (startup) max = PG_MAX_STARTUP;
  if (len < head) {
    *need = head;
    return PG_FRAME_MORE;
  }
  uint32_t declared = be32(buf + head - 4); /* counts itself, not the type byte */
  if (declared < 4 || declared - 4 > max) return PG_FRAME_BAD;
  size_t total = head - 4 + (size_t)declared;
  if (len < total) {
    *need = total;
    return PG_FRAME_MORE;
  }
  out->type = startup ? 0 : (char)buf[0];
  out->body = buf + head;
  out->body_len = total - head;
  out->total = total;
  *need = total;
  return PG_FRAME_OK;
}

/* ---- pg_rd ---- */

void pg_rd_init(pg_rd_t *r, const unsigned char *p, size_t len) {
  r->p = p;
  r->len = len;
  r->pos = 0;
  r->bad = 0;
}

const unsigned char *pg_get_bytes(pg_rd_t *r, size_t n) {
  if (r->bad || n > r->len - r->pos) {
    r->bad = 1;
    return NULL;
  }
  const unsigned char *p = r->p + r->pos;
  r->pos += n;
  return p;
}

unsigned pg_get_u8(pg_rd_t *r) {
  const unsigned char *p = pg_get_bytes(r, 1);
  return p ? p[0] : 0;
}

int pg_get_i16(pg_rd_t *r) {
  const unsigned char *p = pg_get_bytes(r, 2);
  return p ? (int)(int16_t)(uint16_t)((unsigned)p[0] << 8 | p[1]) : 0;
}

int32_t pg_get_i32(pg_rd_t *r) {
  const unsigned char *p = pg_get_bytes(r, 4);
  return p ? (int32_t)be32(p) : 0;
}

const char *pg_get_cstr(pg_rd_t *r) {
  if (r->bad) return NULL;
  const unsigned char *start = r->p + r->pos;
  const unsigned char *nul = memchr(start, 0, r->len - r->pos);
  if (!nul) {
    r->bad = 1;
    return NULL;
  }
  r->pos += (size_t)(nul - start) + 1;
  return (const char *)start;
}

int pg_rd_done(const pg_rd_t *r) {
  return !r->bad && r->pos == r->len;
}

/* ---- decoders ---- */

int pg_decode_startup(const unsigned char *body, size_t len, pg_startup_t *out, const char **why) {
  pg_rd_t r;
  pg_rd_init(&r, body, len);
  memset(out, 0, sizeof *out);
  out->code = (uint32_t)pg_get_i32(&r);
  *why = "invalid startup packet layout";
  if (r.bad) return -1;
  switch (out->code) {
  case PG_SSL_REQUEST:
  case PG_GSSENC_REQUEST:
    return pg_rd_done(&r) ? 0 : -1;
  case PG_CANCEL_REQUEST:
    out->cancel_pid = pg_get_i32(&r);
    out->cancel_key = pg_get_i32(&r);
    return pg_rd_done(&r) ? 0 : -1;
  default:
    break;
  }
  if (out->code >> 16 != 3) {
    *why = "unsupported frontend protocol: the server speaks 3.0";
    return -2;
  }
  /* name/value pairs, then one empty name */
  for (;;) {
    const char *name = pg_get_cstr(&r);
    if (!name) return -1;
    if (!*name) break;
    const char *value = pg_get_cstr(&r);
    if (!value) return -1;
    if (out->n_params == PG_MAX_STARTUP_PARAMS) {
      *why = "too many startup parameters";
      return -1;
    }
    out->names[out->n_params] = name;
    out->values[out->n_params] = value;
    out->n_params++;
  }
  return pg_rd_done(&r) ? 0 : -1;
}

int pg_decode_parse(const unsigned char *body, size_t len, pg_parse_msg_t *out) {
  pg_rd_t r;
  pg_rd_init(&r, body, len);
  out->name = pg_get_cstr(&r);
  out->query = pg_get_cstr(&r);
  out->n_types = pg_get_i16(&r);
  if (r.bad || out->n_types < 0) return -1;
  out->types = pg_get_bytes(&r, (size_t)out->n_types * 4);
  return pg_rd_done(&r) ? 0 : -1;
}

int pg_decode_bind(const unsigned char *body, size_t len, pg_bind_msg_t *out) {
  pg_rd_t r;
  pg_rd_init(&r, body, len);
  memset(out, 0, sizeof *out);
  out->portal = pg_get_cstr(&r);
  out->stmt = pg_get_cstr(&r);
  out->n_formats = pg_get_i16(&r);
  if (r.bad || out->n_formats < 0) return -1;
  out->formats = pg_get_bytes(&r, (size_t)out->n_formats * 2);
  out->n_params = pg_get_i16(&r);
  if (r.bad || out->n_params < 0) return -1;
  /* PostgreSQL: zero, one or exactly one code per parameter */
  if (out->n_formats > 1 && out->n_formats != out->n_params) return -1;
  size_t start = r.pos;
  for (int i = 0; i < out->n_params; i++) {
    int32_t n = pg_get_i32(&r);
    if (r.bad || n < -1) return -1;
    if (n > 0 && !pg_get_bytes(&r, (size_t)n)) return -1;
  }
  out->params = r.p + start;
  out->params_len = r.pos - start;
  out->n_result_formats = pg_get_i16(&r);
  if (r.bad || out->n_result_formats < 0) return -1;
  out->result_formats = pg_get_bytes(&r, (size_t)out->n_result_formats * 2);
  if (!pg_rd_done(&r)) return -1;
  for (int i = 0; i < out->n_formats; i++)
    if (pg_bind_param_format(out, i) > 1) return -1;
  for (int i = 0; i < out->n_result_formats; i++) {
    unsigned v = (unsigned)out->result_formats[2 * i] << 8 | out->result_formats[2 * i + 1];
    if (v > 1) return -1;
  }
  return 0;
}

static int format_at(const unsigned char *codes, int n, int i) {
  if (n == 0) return 0;
  int k = n == 1 ? 0 : i;
  if (k >= n) return 0;
  return (int)((unsigned)codes[2 * k] << 8 | codes[2 * k + 1]);
}

int pg_bind_param_format(const pg_bind_msg_t *b, int i) {
  return format_at(b->formats, b->n_formats, i);
}

int pg_bind_result_format(const pg_bind_msg_t *b, int col) {
  return format_at(b->result_formats, b->n_result_formats, col);
}

int pg_bind_next_param(const pg_bind_msg_t *b, size_t *cursor, const unsigned char **value,
                       int32_t *len) {
  pg_rd_t r;
  pg_rd_init(&r, b->params, b->params_len);
  r.pos = *cursor;
  if (r.pos >= r.len) return -1;
  *len = pg_get_i32(&r);
  *value = *len >= 0 ? pg_get_bytes(&r, (size_t)*len) : NULL;
  if (r.bad) return -1; /* cannot happen after pg_decode_bind */
  *cursor = r.pos;
  return 0;
}

int pg_decode_target(const unsigned char *body, size_t len, pg_target_msg_t *out) {
  pg_rd_t r;
  pg_rd_init(&r, body, len);
  out->kind = (char)pg_get_u8(&r);
  out->name = pg_get_cstr(&r);
  if (!pg_rd_done(&r)) return -1;
  return out->kind == 'S' || out->kind == 'P' ? 0 : -1;
}

int pg_decode_execute(const unsigned char *body, size_t len, pg_execute_msg_t *out) {
  pg_rd_t r;
  pg_rd_init(&r, body, len);
  out->portal = pg_get_cstr(&r);
  out->max_rows = pg_get_i32(&r);
  if (out->max_rows < 0) out->max_rows = 0;
  return pg_rd_done(&r) ? 0 : -1;
}

int pg_decode_sasl_initial(const unsigned char *body, size_t len, pg_sasl_initial_t *out) {
  pg_rd_t r;
  pg_rd_init(&r, body, len);
  out->mechanism = pg_get_cstr(&r);
  int32_t n = pg_get_i32(&r);
  if (r.bad || n < -1) return -1;
  out->data_len = n < 0 ? 0 : (size_t)n;
  out->data = n < 0 ? NULL : pg_get_bytes(&r, (size_t)n);
  return pg_rd_done(&r) ? 0 : -1;
}
