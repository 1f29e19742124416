/*
 * tproto.c -- the Thrift binary protocol (see tproto.h for the wire format
 * and the reader's rules against hostile input).
 */
#include "thrift/tproto.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- writer */

static void put_be(hl_buf_t *buf, uint64_t v, int nbytes) {
  uint8_t b[8];
  for (int i = 0; i < nbytes; i++)
    b[i] = (uint8_t)(v >> (8 * (nbytes - 1 - i)));
  hl_buf_append(buf, b, (size_t)nbytes);
}

void hl_tw_bool(hl_buf_t *buf, int v) {
  put_be(buf, v ? 1 : 0, 1);
}
void hl_tw_byte(hl_buf_t *buf, int8_t v) {
  put_be(buf, (uint8_t)v, 1);
}
void hl_tw_i16(hl_buf_t *buf, int16_t v) {
  put_be(buf, (uint16_t)v, 2);
}
void hl_tw_i32(hl_buf_t *buf, int32_t v) {
  put_be(buf, (uint32_t)v, 4);
}
void hl_tw_i64(hl_buf_t *buf, int64_t v) {
  put_be(buf, (uint64_t)v, 8);
}

void hl_tw_double(hl_buf_t *buf, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits); /* IEEE 754 bits, big endian on the wire */
  put_be(buf, bits, 8);
}

void hl_tw_binary(hl_buf_t *buf, const void *data, size_t len) {
  if (len > INT32_MAX) { /* no i32 can say it: fail the whole message */
    buf->oom = 1;
    return;
  }
  hl_tw_i32(buf, (int32_t)len);
  if (len) hl_buf_append(buf, data, len);
}

void hl_tw_string(hl_buf_t *buf, const char *s) {
  hl_tw_binary(buf, s ? s : "", s ? strlen(s) : 0);
}

void hl_tw_field(hl_buf_t *buf, hl_ttype_t type, int16_t id) {
  put_be(buf, (uint8_t)type, 1);
  hl_tw_i16(buf, id);
}

void hl_tw_stop(hl_buf_t *buf) {
  put_be(buf, HL_TT_STOP, 1);
}

void hl_tw_list(hl_buf_t *buf, hl_ttype_t elem, uint32_t count) {
  if (count > INT32_MAX) buf->oom = 1;
  put_be(buf, (uint8_t)elem, 1);
  hl_tw_i32(buf, (int32_t)count);
}

void hl_tw_map(hl_buf_t *buf, hl_ttype_t key, hl_ttype_t value, uint32_t count) {
  if (count > INT32_MAX) buf->oom = 1;
  put_be(buf, (uint8_t)key, 1);
  put_be(buf, (uint8_t)value, 1);
  hl_tw_i32(buf, (int32_t)count);
}

void hl_tw_message(hl_buf_t *buf, const char *name, hl_tmsg_type_t type, int32_t seqid) {
  put_be(buf, 0x80010000u | (uint32_t)type, 4);
  hl_tw_string(buf, name);
  hl_tw_i32(buf, seqid);
}

hl_status_t hl_tw_check(hl_buf_t *buf, hl_error_t *err) {
  return buf->oom ? hl_err_nomem(err) : HL_OK;
}

/* ---- reader */

void hl_tr_init(hl_treader_t *r, const void *data, size_t len, hl_error_t *err) {
  r->start = r->p = data;
  r->end = r->start + len;
  r->max_string = HL_T_DEFAULT_MAX_STRING;
  r->max_elems = HL_T_DEFAULT_MAX_ELEMS;
  r->max_depth = HL_T_DEFAULT_MAX_DEPTH;
  r->depth = 0;
  r->truncated = 0;
  r->err = err;
}

size_t hl_tr_offset(const hl_treader_t *r) {
  return (size_t)(r->p - r->start);
}

hl_status_t hl_tr_fail(hl_treader_t *r, const char *fmt, ...) {
  va_list ap;
  char msg[256];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hl_err_set(r->err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION), "thrift: %s at byte %zu", msg,
                    hl_tr_offset(r));
}

static size_t remaining(const hl_treader_t *r) {
  return (size_t)(r->end - r->p);
}

static hl_status_t need(hl_treader_t *r, size_t n, const char *what) {
  if (remaining(r) >= n) return HL_OK;
  r->truncated = 1;
  return hl_tr_fail(r, "message ends inside %s (%zu bytes needed, %zu left)", what, n,
                    remaining(r));
}

static uint64_t get_be(hl_treader_t *r, int nbytes) {
  uint64_t v = 0;
  for (int i = 0; i < nbytes; i++)
    v = (v << 8) | r->p[i];
  r->p += nbytes;
  return v;
}

hl_status_t hl_tr_byte(hl_treader_t *r, int8_t *out) {
  if (need(r, 1, "a byte")) return HL_CORRUPT;
  *out = (int8_t)(uint8_t)get_be(r, 1);
  return HL_OK;
}

hl_status_t hl_tr_bool(hl_treader_t *r, int *out) {
  int8_t b;
  if (hl_tr_byte(r, &b)) return HL_CORRUPT;
  *out = b != 0; /* runtimes read any non-zero byte as true */
  return HL_OK;
}

hl_status_t hl_tr_i16(hl_treader_t *r, int16_t *out) {
  if (need(r, 2, "an i16")) return HL_CORRUPT;
  *out = (int16_t)(uint16_t)get_be(r, 2);
  return HL_OK;
}

hl_status_t hl_tr_i32(hl_treader_t *r, int32_t *out) {
  if (need(r, 4, "an i32")) return HL_CORRUPT;
  *out = (int32_t)(uint32_t)get_be(r, 4);
  return HL_OK;
}

hl_status_t hl_tr_i64(hl_treader_t *r, int64_t *out) {
  if (need(r, 8, "an i64")) return HL_CORRUPT;
  *out = (int64_t)get_be(r, 8);
  return HL_OK;
}

hl_status_t hl_tr_double(hl_treader_t *r, double *out) {
  if (need(r, 8, "a double")) return HL_CORRUPT;
  uint64_t bits = get_be(r, 8);
  memcpy(out, &bits, sizeof bits);
  return HL_OK;
}

hl_status_t hl_tr_binary(hl_treader_t *r, const uint8_t **data, size_t *len) {
  int32_t n;
  if (hl_tr_i32(r, &n)) return HL_CORRUPT;
  if (n < 0) return hl_tr_fail(r, "negative string length %d", (int)n);
  if ((size_t)n > r->max_string)
    return hl_tr_fail(r, "string length %d exceeds the limit of %zu", (int)n, r->max_string);
  if (need(r, (size_t)n, "a string")) return HL_CORRUPT;
  *data = r->p;
  *len = (size_t)n;
  r->p += n;
  return HL_OK;
}

static int valid_type(int t) {
  switch (t) {
  case HL_TT_BOOL:
  case HL_TT_BYTE:
  case HL_TT_DOUBLE:
  case HL_TT_I16:
  case HL_TT_I32:
  case HL_TT_I64:
  case HL_TT_STRING:
  case HL_TT_STRUCT:
  case HL_TT_MAP:
  case HL_TT_SET:
  case HL_TT_LIST:
    return 1;
  default:
    return 0;
  }
}

const char *hl_ttype_name(int type) {
  switch (type) {
  case HL_TT_STOP:
    return "stop";
  case HL_TT_BOOL:
    return "bool";
  case HL_TT_BYTE:
    return "byte";
  case HL_TT_DOUBLE:
    return "double";
  case HL_TT_I16:
    return "i16";
  case HL_TT_I32:
    return "i32";
  case HL_TT_I64:
    return "i64";
  case HL_TT_STRING:
    return "string";
  case HL_TT_STRUCT:
    return "struct";
  case HL_TT_MAP:
    return "map";
  case HL_TT_SET:
    return "set";
  case HL_TT_LIST:
    return "list";
  default:
    return "unknown";
  }
}

/* The fewest bytes a value of TYPE takes on the wire: what a count is
 * checked against before a container is walked. */
static size_t min_size(hl_ttype_t type) {
  switch (type) {
  case HL_TT_BOOL:
  case HL_TT_BYTE:
  case HL_TT_STRUCT:
    return 1; /* a struct: its STOP */
  case HL_TT_I16:
    return 2;
  case HL_TT_I32:
  case HL_TT_STRING:
    return 4;
  case HL_TT_I64:
  case HL_TT_DOUBLE:
    return 8;
  case HL_TT_LIST:
  case HL_TT_SET:
    return 5;
  case HL_TT_MAP:
    return 6;
  default:
    return 1;
  }
}

static hl_status_t read_type(hl_treader_t *r, hl_ttype_t *out, const char *what) {
  int8_t t;
  if (hl_tr_byte(r, &t)) return HL_CORRUPT;
  if (!valid_type(t)) return hl_tr_fail(r, "unknown %s type code %d", what, (int)t);
  *out = (hl_ttype_t)t;
  return HL_OK;
}

hl_status_t hl_tr_field(hl_treader_t *r, hl_ttype_t *type, int16_t *id) {
  int8_t t;
  if (hl_tr_byte(r, &t)) return HL_CORRUPT;
  if (t == HL_TT_STOP) {
    *type = HL_TT_STOP;
    *id = 0;
    return HL_OK;
  }
  if (!valid_type(t)) return hl_tr_fail(r, "unknown field type code %d", (int)t);
  *type = (hl_ttype_t)t;
  return hl_tr_i16(r, id);
}

static hl_status_t check_count(hl_treader_t *r, int32_t n, size_t elem_min, const char *what) {
  if (n < 0) return hl_tr_fail(r, "negative %s size %d", what, (int)n);
  if ((uint32_t)n > r->max_elems)
    return hl_tr_fail(r, "%s of %d elements exceeds the limit of %u", what, (int)n,
                      (unsigned)r->max_elems);
  if ((uint64_t)(uint32_t)n * elem_min > remaining(r)) {
    r->truncated = 1;
    return hl_tr_fail(r, "%s of %d elements cannot fit in the %zu bytes left", what, (int)n,
                      remaining(r));
  }
  return HL_OK;
}

hl_status_t hl_tr_list(hl_treader_t *r, hl_ttype_t *elem, uint32_t *count) {
  int32_t n;
  if (read_type(r, elem, "element") || hl_tr_i32(r, &n)) return HL_CORRUPT;
  if (check_count(r, n, min_size(*elem), "list")) return HL_CORRUPT;
  *count = (uint32_t)n;
  return HL_OK;
}

hl_status_t hl_tr_map(hl_treader_t *r, hl_ttype_t *key, hl_ttype_t *value, uint32_t *count) {
  int32_t n;
  if (read_type(r, key, "map key") || read_type(r, value, "map value") || hl_tr_i32(r, &n))
    return HL_CORRUPT;
  if (check_count(r, n, min_size(*key) + min_size(*value), "map")) return HL_CORRUPT;
  *count = (uint32_t)n;
  return HL_OK;
}

hl_status_t hl_tr_message(hl_treader_t *r, const uint8_t **name, size_t *name_len,
                          hl_tmsg_type_t *type, int32_t *seqid) {
  int32_t first;
  int8_t t;
  if (hl_tr_i32(r, &first)) return HL_CORRUPT;
  if (first < 0) { /* strict: version in the high half, type in the low byte */
    if (((uint32_t)first & 0xffff0000u) != 0x80010000u)
      return hl_tr_fail(r, "bad message version 0x%08x", (unsigned)(uint32_t)first);
    t = (int8_t)((uint32_t)first & 0xff);
    if (hl_tr_binary(r, name, name_len)) return HL_CORRUPT;
  } else { /* old form: FIRST was the name's length */
    r->p -= 4;
    if (hl_tr_binary(r, name, name_len) || hl_tr_byte(r, &t)) return HL_CORRUPT;
  }
  if (t < HL_TMSG_CALL || t > HL_TMSG_ONEWAY)
    return hl_tr_fail(r, "unknown message type %d", (int)t);
  *type = (hl_tmsg_type_t)t;
  return hl_tr_i32(r, seqid);
}

hl_status_t hl_tr_enter(hl_treader_t *r) {
  if (r->depth >= r->max_depth) return hl_tr_fail(r, "nesting deeper than %d levels", r->max_depth);
  r->depth++;
  return HL_OK;
}

void hl_tr_leave(hl_treader_t *r) {
  r->depth--;
}

hl_status_t hl_tr_skip(hl_treader_t *r, hl_ttype_t type) {
  const uint8_t *d;
  size_t n;
  hl_ttype_t a, b;
  uint32_t count;
  int16_t id;
  hl_status_t rc = HL_OK;
  switch (type) {
  case HL_TT_BOOL:
  case HL_TT_BYTE:
    return need(r, 1, "a byte") ? HL_CORRUPT : (r->p += 1, HL_OK);
  case HL_TT_I16:
    return need(r, 2, "an i16") ? HL_CORRUPT : (r->p += 2, HL_OK);
  case HL_TT_I32:
    return need(r, 4, "an i32") ? HL_CORRUPT : (r->p += 4, HL_OK);
  case HL_TT_I64:
  case HL_TT_DOUBLE:
    return need(r, 8, "an i64") ? HL_CORRUPT : (r->p += 8, HL_OK);
  case HL_TT_STRING:
    return hl_tr_binary(r, &d, &n);
  case HL_TT_STRUCT:
    if (hl_tr_enter(r)) return HL_CORRUPT;
    for (;;) {
      if ((rc = hl_tr_field(r, &a, &id))) break;
      if (a == HL_TT_STOP) break;
      if ((rc = hl_tr_skip(r, a))) break;
    }
    hl_tr_leave(r);
    return rc;
  case HL_TT_LIST:
  case HL_TT_SET:
    if (hl_tr_list(r, &a, &count) || hl_tr_enter(r)) return HL_CORRUPT;
    for (uint32_t i = 0; i < count && !rc; i++)
      rc = hl_tr_skip(r, a);
    hl_tr_leave(r);
    return rc;
  case HL_TT_MAP:
    if (hl_tr_map(r, &a, &b, &count) || hl_tr_enter(r)) return HL_CORRUPT;
    for (uint32_t i = 0; i < count && !rc; i++)
      rc = hl_tr_skip(r, a) ? HL_CORRUPT : hl_tr_skip(r, b);
    hl_tr_leave(r);
    return rc;
  default:
    return hl_tr_fail(r, "cannot skip a value of unknown type code %d", (int)type);
  }
}
