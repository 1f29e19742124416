/*
 * pq_thrift.c -- Thrift compact protocol reader and writer (see pq_thrift.h).
 *
 * The reader is a cursor over a byte range that fails, never reads past the
 * end, and bounds every count by the bytes remaining; pq_meta.c drives it
 * field by field.  The writer appends to an hl_buf_t whose allocation
 * failure is sticky, so encoders check the buffer once at the end.
 *
 * Compact protocol summary: integers are zigzag varints (LEB128); a field
 * header is one byte (id delta << 4 | type) when the delta is 1..15, else
 * the type byte followed by the zigzag i16 id; bool fields carry the value
 * in the type (1 true, 2 false); lists start with (size << 4 | elem type),
 * size 15 meaning a varint size follows; maps with a varint size and, when
 * nonzero, a (key type << 4 | value type) byte; binary is a varint length
 * and the bytes; a struct ends with a 0 byte.
 */
#include "format/parquet/pq_thrift.h"

#include <string.h>

/* ---------------------------------------------------------------- reader */

void hl_pq_thrift_reader_init(hl_pq_thrift_reader_t *r, const void *buf, size_t len,
                              hl_error_t *err) {
  r->pos = buf;
  r->end = r->pos + len;
  if (!buf) r->pos = r->end = NULL;
  r->depth = 0;
  r->truncated = false;
  r->err = err;
}

size_t hl_pq_thrift_remaining(const hl_pq_thrift_reader_t *r) {
  return (size_t)(r->end - r->pos);
}

static hl_status_t truncated(hl_pq_thrift_reader_t *r, const char *what) {
  r->truncated = true;
  return hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "corrupt Parquet metadata: %s runs past the end of its buffer", what);
}

static hl_status_t corrupt(hl_pq_thrift_reader_t *r, const char *what) {
  return hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "corrupt Parquet metadata: %s",
                    what);
}

/* Reads an unsigned varint of at most MAX_BITS bits. */
static hl_status_t read_varint(hl_pq_thrift_reader_t *r, int max_bits, uint64_t *out) {
  uint64_t v = 0;
  int shift = 0;
  for (;;) {
    if (r->pos >= r->end) return truncated(r, "a varint");
    uint8_t b = *r->pos++;
    uint64_t bits = b & 0x7f;
    if (shift >= max_bits || (shift > 0 && max_bits - shift < 7 && (bits >> (max_bits - shift)))) {
      return corrupt(r, "varint too long for its type");
    }
    v |= bits << shift;
    if (!(b & 0x80)) break;
    shift += 7;
  }
  *out = v;
  return HL_OK;
}

static int64_t unzigzag(uint64_t v) {
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static hl_status_t read_zigzag(hl_pq_thrift_reader_t *r, int bits, int64_t *out) {
  uint64_t v = 0;
  hl_status_t st = read_varint(r, bits, &v);
  if (st != HL_OK) return st;
  *out = unzigzag(v);
  return HL_OK;
}

hl_status_t hl_pq_thrift_read_byte(hl_pq_thrift_reader_t *r, int8_t *out) {
  if (r->pos >= r->end) return truncated(r, "a byte");
  *out = (int8_t)*r->pos++;
  return HL_OK;
}

hl_status_t hl_pq_thrift_read_i16(hl_pq_thrift_reader_t *r, int16_t *out) {
  int64_t v;
  hl_status_t st = read_zigzag(r, 16, &v);
  if (st == HL_OK) *out = (int16_t)v;
  return st;
}

hl_status_t hl_pq_thrift_read_i32(hl_pq_thrift_reader_t *r, int32_t *out) {
  int64_t v;
  hl_status_t st = read_zigzag(r, 32, &v);
  if (st == HL_OK) *out = (int32_t)v;
  return st;
}

hl_status_t hl_pq_thrift_read_i64(hl_pq_thrift_reader_t *r, int64_t *out) {
  return read_zigzag(r, 64, out);
}

hl_status_t hl_pq_thrift_read_double(hl_pq_thrift_reader_t *r, double *out) {
  if (r->end - r->pos < 8) return truncated(r, "a double");
  uint64_t bits = 0;
  for (int i = 7; i >= 0; i--)
    bits = (bits << 8) | r->pos[i]; /* little-endian */
  r->pos += 8;
  memcpy(out, &bits, sizeof *out);
  return HL_OK;
}

bool hl_pq_thrift_read_field_bool(hl_pq_ttype_t type) {
  return type == HL_PQ_T_TRUE;
}

hl_status_t hl_pq_thrift_read_elem_bool(hl_pq_thrift_reader_t *r, bool *out) {
  if (r->pos >= r->end) return truncated(r, "a bool");
  /* Thrift writes 1 for true and 2 (older writers 0) for false. */
  *out = *r->pos++ == 1;
  return HL_OK;
}

hl_status_t hl_pq_thrift_read_binary(hl_pq_thrift_reader_t *r, const uint8_t **data, size_t *len) {
  uint64_t n = 0;
  hl_status_t st = read_varint(r, 32, &n);
  if (st != HL_OK) return st;
  if (n > hl_pq_thrift_remaining(r)) return truncated(r, "a binary value");
  *data = r->pos;
  *len = (size_t)n;
  r->pos += n;
  return HL_OK;
}

hl_status_t hl_pq_thrift_struct_begin(hl_pq_thrift_reader_t *r, int16_t *last_id) {
  if (r->depth >= HL_PQ_THRIFT_MAX_DEPTH) return corrupt(r, "structures nested too deeply");
  r->depth++;
  *last_id = 0;
  return HL_OK;
}

void hl_pq_thrift_struct_end(hl_pq_thrift_reader_t *r) {
  if (r->depth > 0) r->depth--;
}

static bool valid_type(unsigned t) {
  return t >= HL_PQ_T_TRUE && t <= HL_PQ_T_UUID;
}

hl_status_t hl_pq_thrift_field(hl_pq_thrift_reader_t *r, int16_t *last_id, hl_pq_ttype_t *type,
                               int16_t *id) {
  if (r->pos >= r->end) return truncated(r, "a structure");
  uint8_t b = *r->pos++;
  unsigned t = b & 0x0f;
  if (t == HL_PQ_T_STOP) {
    if (b != 0) return corrupt(r, "bad field header");
    *type = HL_PQ_T_STOP;
    *id = 0;
    return HL_OK;
  }
  if (!valid_type(t)) return corrupt(r, "unknown field type");
  unsigned delta = b >> 4;
  if (delta) {
    int32_t next = (int32_t)*last_id + (int32_t)delta;
    if (next > INT16_MAX) return corrupt(r, "field id out of range");
    *id = (int16_t)next;
  } else {
    hl_status_t st = hl_pq_thrift_read_i16(r, id);
    if (st != HL_OK) return st;
  }
  *last_id = *id;
  *type = (hl_pq_ttype_t)t;
  return HL_OK;
}

hl_status_t hl_pq_thrift_expect(hl_pq_thrift_reader_t *r, hl_pq_ttype_t type,
                                hl_pq_ttype_t expected, const char *what) {
  bool is_bool = type == HL_PQ_T_TRUE || type == HL_PQ_T_FALSE;
  bool want_bool = expected == HL_PQ_T_TRUE || expected == HL_PQ_T_FALSE;
  if (type == expected || (is_bool && want_bool)) return HL_OK;
  /* A set is a list on the wire; accept either for list fields. */
  if ((type == HL_PQ_T_SET && expected == HL_PQ_T_LIST) ||
      (type == HL_PQ_T_LIST && expected == HL_PQ_T_SET)) {
    return HL_OK;
  }
  return hl_err_set(r->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "corrupt Parquet metadata: field %s has the wrong type", what);
}

hl_status_t hl_pq_thrift_list_begin(hl_pq_thrift_reader_t *r, hl_pq_ttype_t *elem_type,
                                    uint32_t *n) {
  if (r->pos >= r->end) return truncated(r, "a list header");
  uint8_t b = *r->pos++;
  unsigned t = b & 0x0f;
  uint64_t size = b >> 4;
  if (size == 15) {
    hl_status_t st = read_varint(r, 32, &size);
    if (st != HL_OK) return st;
    if (size < 15) return corrupt(r, "bad list size");
  }
  /* Bool elements are written with type 1 (some writers use 2); an empty
   * list's element type is not looked at. */
  if (size > 0 && !valid_type(t)) return corrupt(r, "unknown list element type");
  if (size > hl_pq_thrift_remaining(r) || size > INT32_MAX) {
    return truncated(r, "a list");
  }
  *elem_type = (hl_pq_ttype_t)(t == HL_PQ_T_FALSE ? HL_PQ_T_TRUE : t);
  *n = (uint32_t)size;
  return HL_OK;
}

hl_status_t hl_pq_thrift_map_begin(hl_pq_thrift_reader_t *r, hl_pq_ttype_t *key_type,
                                   hl_pq_ttype_t *value_type, uint32_t *n) {
  uint64_t size = 0;
  hl_status_t st = read_varint(r, 32, &size);
  if (st != HL_OK) return st;
  *key_type = *value_type = HL_PQ_T_STOP;
  if (size == 0) {
    *n = 0;
    return HL_OK;
  }
  if (r->pos >= r->end) return truncated(r, "a map header");
  uint8_t b = *r->pos++;
  unsigned kt = b >> 4, vt = b & 0x0f;
  if (!valid_type(kt) || !valid_type(vt)) return corrupt(r, "unknown map key or value type");
  if (size > hl_pq_thrift_remaining(r) / 2 || size > INT32_MAX) return truncated(r, "a map");
  *key_type = (hl_pq_ttype_t)(kt == HL_PQ_T_FALSE ? HL_PQ_T_TRUE : kt);
  *value_type = (hl_pq_ttype_t)(vt == HL_PQ_T_FALSE ? HL_PQ_T_TRUE : vt);
  *n = (uint32_t)size;
  return HL_OK;
}

/* Skips a value; TYPE TRUE/FALSE in a list or map is a one-byte bool, but a
 * bool field's value is in its header, so the caller passes FIELD. */
static hl_status_t skip_value(hl_pq_thrift_reader_t *r, hl_pq_ttype_t type, bool field) {
  hl_status_t st = HL_OK;
  int64_t ignored;
  switch (type) {
  case HL_PQ_T_TRUE:
  case HL_PQ_T_FALSE:
    if (!field) {
      if (r->pos >= r->end) return truncated(r, "a bool");
      r->pos++;
    }
    return HL_OK;
  case HL_PQ_T_BYTE:
    if (r->pos >= r->end) return truncated(r, "a byte");
    r->pos++;
    return HL_OK;
  case HL_PQ_T_I16:
    return read_zigzag(r, 16, &ignored);
  case HL_PQ_T_I32:
    return read_zigzag(r, 32, &ignored);
  case HL_PQ_T_I64:
    return read_zigzag(r, 64, &ignored);
  case HL_PQ_T_DOUBLE:
    if (r->end - r->pos < 8) return truncated(r, "a double");
    r->pos += 8;
    return HL_OK;
  case HL_PQ_T_UUID:
    if (r->end - r->pos < 16) return truncated(r, "a uuid");
    r->pos += 16;
    return HL_OK;
  case HL_PQ_T_BINARY: {
    const uint8_t *p;
    size_t len;
    return hl_pq_thrift_read_binary(r, &p, &len);
  }
  case HL_PQ_T_LIST:
  case HL_PQ_T_SET: {
    hl_pq_ttype_t et;
    uint32_t n;
    if ((st = hl_pq_thrift_list_begin(r, &et, &n)) != HL_OK) return st;
    /* Lists of structs recurse through skip_value; count the list itself
     * as a nesting level so deeply nested lists stop too. */
    if (r->depth >= HL_PQ_THRIFT_MAX_DEPTH) return corrupt(r, "structures nested too deeply");
    r->depth++;
    for (uint32_t i = 0; i < n && st == HL_OK; i++)
      st = skip_value(r, et, false);
    r->depth--;
    return st;
  }
  case HL_PQ_T_MAP: {
    hl_pq_ttype_t kt, vt;
    uint32_t n;
    if ((st = hl_pq_thrift_map_begin(r, &kt, &vt, &n)) != HL_OK) return st;
    if (r->depth >= HL_PQ_THRIFT_MAX_DEPTH) return corrupt(r, "structures nested too deeply");
    r->depth++;
    for (uint32_t i = 0; i < n && st == HL_OK; i++) {
      st = skip_value(r, kt, false);
      if (st == HL_OK) st = skip_value(r, vt, false);
    }
    r->depth--;
    return st;
  }
  case HL_PQ_T_STRUCT: {
    int16_t last;
    if ((st = hl_pq_thrift_struct_begin(r, &last)) != HL_OK) return st;
    for (;;) {
      hl_pq_ttype_t ft;
      int16_t id;
      if ((st = hl_pq_thrift_field(r, &last, &ft, &id)) != HL_OK) break;
      if (ft == HL_PQ_T_STOP) break;
      if ((st = skip_value(r, ft, true)) != HL_OK) break;
    }
    hl_pq_thrift_struct_end(r);
    return st;
  }
  case HL_PQ_T_STOP:
  default:
    return corrupt(r, "unknown value type");
  }
}

hl_status_t hl_pq_thrift_skip(hl_pq_thrift_reader_t *r, hl_pq_ttype_t type) {
  return skip_value(r, type, true);
}

/* ---------------------------------------------------------------- writer */

void hl_pq_thrift_writer_init(hl_pq_thrift_writer_t *w, hl_buf_t *buf) {
  w->buf = buf;
  w->depth = 0;
  w->last_id[0] = 0;
}

void hl_pq_thrift_write_varint(hl_pq_thrift_writer_t *w, uint64_t v) {
  uint8_t tmp[10];
  size_t n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
  } while (v);
  hl_buf_append(w->buf, tmp, n);
}

static uint64_t zigzag(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static void put_byte(hl_pq_thrift_writer_t *w, uint8_t b) {
  hl_buf_append(w->buf, &b, 1);
}

void hl_pq_thrift_write_struct_begin(hl_pq_thrift_writer_t *w) {
  /* Depth beyond the limit cannot come from our own encoders; clamp so a
   * bug cannot write out of bounds. */
  if (w->depth < HL_PQ_THRIFT_MAX_DEPTH - 1) w->depth++;
  w->last_id[w->depth] = 0;
}

void hl_pq_thrift_write_struct_end(hl_pq_thrift_writer_t *w) {
  put_byte(w, 0);
  if (w->depth > 0) w->depth--;
}

void hl_pq_thrift_write_field(hl_pq_thrift_writer_t *w, int16_t id, hl_pq_ttype_t type) {
  int16_t *last = &w->last_id[w->depth];
  int32_t delta = (int32_t)id - (int32_t)*last;
  if (delta > 0 && delta <= 15) {
    put_byte(w, (uint8_t)((delta << 4) | (int)type));
  } else {
    put_byte(w, (uint8_t)type);
    hl_pq_thrift_write_varint(w, zigzag(id));
  }
  *last = id;
}

void hl_pq_thrift_write_field_bool(hl_pq_thrift_writer_t *w, int16_t id, bool v) {
  hl_pq_thrift_write_field(w, id, v ? HL_PQ_T_TRUE : HL_PQ_T_FALSE);
}

void hl_pq_thrift_write_field_i32(hl_pq_thrift_writer_t *w, int16_t id, int32_t v) {
  hl_pq_thrift_write_field(w, id, HL_PQ_T_I32);
  hl_pq_thrift_write_i32(w, v);
}

void hl_pq_thrift_write_field_i64(hl_pq_thrift_writer_t *w, int16_t id, int64_t v) {
  hl_pq_thrift_write_field(w, id, HL_PQ_T_I64);
  hl_pq_thrift_write_i64(w, v);
}

void hl_pq_thrift_write_field_binary(hl_pq_thrift_writer_t *w, int16_t id, const void *data,
                                     size_t len) {
  hl_pq_thrift_write_field(w, id, HL_PQ_T_BINARY);
  hl_pq_thrift_write_binary(w, data, len);
}

void hl_pq_thrift_write_field_struct_begin(hl_pq_thrift_writer_t *w, int16_t id) {
  hl_pq_thrift_write_field(w, id, HL_PQ_T_STRUCT);
  hl_pq_thrift_write_struct_begin(w);
}

void hl_pq_thrift_write_list_begin(hl_pq_thrift_writer_t *w, hl_pq_ttype_t elem_type, uint32_t n) {
  if (n < 15) {
    put_byte(w, (uint8_t)((n << 4) | (unsigned)elem_type));
  } else {
    put_byte(w, (uint8_t)(0xf0 | (unsigned)elem_type));
    hl_pq_thrift_write_varint(w, n);
  }
}

void hl_pq_thrift_write_map_begin(hl_pq_thrift_writer_t *w, hl_pq_ttype_t key_type,
                                  hl_pq_ttype_t value_type, uint32_t n) {
  hl_pq_thrift_write_varint(w, n);
  if (n) put_byte(w, (uint8_t)(((unsigned)key_type << 4) | (unsigned)value_type));
}

void hl_pq_thrift_write_byte(hl_pq_thrift_writer_t *w, int8_t v) {
  put_byte(w, (uint8_t)v);
}

void hl_pq_thrift_write_i16(hl_pq_thrift_writer_t *w, int16_t v) {
  hl_pq_thrift_write_varint(w, zigzag(v));
}

void hl_pq_thrift_write_i32(hl_pq_thrift_writer_t *w, int32_t v) {
  hl_pq_thrift_write_varint(w, zigzag(v));
}

void hl_pq_thrift_write_i64(hl_pq_thrift_writer_t *w, int64_t v) {
  hl_pq_thrift_write_varint(w, zigzag(v));
}

void hl_pq_thrift_write_double(hl_pq_thrift_writer_t *w, double v) {
  uint64_t bits;
  uint8_t tmp[8];
  memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; i++)
    tmp[i] = (uint8_t)(bits >> (8 * i));
  hl_buf_append(w->buf, tmp, 8);
}

void hl_pq_thrift_write_elem_bool(hl_pq_thrift_writer_t *w, bool v) {
  put_byte(w, v ? 1 : 2);
}

void hl_pq_thrift_write_binary(hl_pq_thrift_writer_t *w, const void *data, size_t len) {
  hl_pq_thrift_write_varint(w, len);
  if (len) hl_buf_append(w->buf, data, len);
}
