/*
 * tproto.h -- the Thrift binary protocol: a writer that appends to an
 * hl_buf_t and a reader over a bounded byte buffer.
 *
 * Written from the public specification of the binary protocol (Apache
 * Thrift's doc/specs/thrift-binary-protocol.md): every integer is big
 * endian, a string is an i32 byte length and the bytes, a field is a type
 * byte and an i16 id, a struct ends with a STOP byte, a list or set is an
 * element type byte and an i32 count, a map a key type, a value type and an
 * i32 count.  A message starts with the strict header (i32 0x80010000 | type,
 * name, i32 seqid); the reader also accepts the old unversioned one (name
 * with a positive length, type byte, seqid), the writer writes only strict.
 *
 * The reader never trusts a length: each string length and container count
 * is checked against the bytes that remain and against the reader's caps
 * before anything is allocated or looped over, nesting is capped, and an
 * unknown type code is an error.  Every failure is HL_CORRUPT with SQLSTATE
 * 08P01 (protocol_violation) in the reader's error record, and
 * reader->truncated says whether it was only the input ending early (a
 * buffered transport reads more and tries again).  Writer errors (out of
 * memory, a string longer than an i32 can say) are sticky in buf->oom;
 * hl_tw_check turns them into an error at the end.
 */
#ifndef HL_THRIFT_TPROTO_H
#define HL_THRIFT_TPROTO_H

#include "util/error.h"
#include "util/strbuf.h"

#include <stddef.h>
#include <stdint.h>

/* Wire type codes (the spec's TType). */
typedef enum hl_ttype {
  HL_TT_STOP = 0,
  HL_TT_BOOL = 2,
  HL_TT_BYTE = 3,
  HL_TT_DOUBLE = 4,
  HL_TT_I16 = 6,
  HL_TT_I32 = 8,
  HL_TT_I64 = 10,
  HL_TT_STRING = 11, /* also binary */
  HL_TT_STRUCT = 12,
  HL_TT_MAP = 13,
  HL_TT_SET = 14,
  HL_TT_LIST = 15
} hl_ttype_t;

/* Message types. */
typedef enum hl_tmsg_type {
  HL_TMSG_CALL = 1,
  HL_TMSG_REPLY = 2,
  HL_TMSG_EXCEPTION = 3,
  HL_TMSG_ONEWAY = 4
} hl_tmsg_type_t;

/* Default caps: a string of 100 MB (what clients allow for a message), a
 * container of 10 million elements, 64 levels of nesting. */
#define HL_T_DEFAULT_MAX_STRING (100u * 1024 * 1024)
#define HL_T_DEFAULT_MAX_ELEMS  10000000u
#define HL_T_DEFAULT_MAX_DEPTH  64

/* ---- writer: appends to BUF (check buf->oom or hl_tw_check at the end) */
void hl_tw_bool(hl_buf_t *buf, int v);
void hl_tw_byte(hl_buf_t *buf, int8_t v);
void hl_tw_i16(hl_buf_t *buf, int16_t v);
void hl_tw_i32(hl_buf_t *buf, int32_t v);
void hl_tw_i64(hl_buf_t *buf, int64_t v);
void hl_tw_double(hl_buf_t *buf, double v);
void hl_tw_binary(hl_buf_t *buf, const void *data, size_t len);
void hl_tw_string(hl_buf_t *buf, const char *s); /* NULL writes "" */
void hl_tw_field(hl_buf_t *buf, hl_ttype_t type, int16_t id);
void hl_tw_stop(hl_buf_t *buf);
void hl_tw_list(hl_buf_t *buf, hl_ttype_t elem, uint32_t count); /* also sets */
void hl_tw_map(hl_buf_t *buf, hl_ttype_t key, hl_ttype_t value, uint32_t count);
void hl_tw_message(hl_buf_t *buf, const char *name, hl_tmsg_type_t type, int32_t seqid);
/* HL_OK, or HL_NOMEM in ERR when an append failed or a length did not fit. */
hl_status_t hl_tw_check(hl_buf_t *buf, hl_error_t *err);

/* ---- reader */
typedef struct hl_treader {
  const uint8_t *start, *p, *end;
  size_t max_string;  /* longest string or binary accepted */
  uint32_t max_elems; /* most elements in one list, set or map */
  int max_depth;      /* deepest nesting of structs and containers */
  int depth;          /* current nesting (hl_tr_enter / hl_tr_leave) */
  int truncated;      /* the failure was the input ending early */
  hl_error_t *err;    /* filled on the first failure */
} hl_treader_t;

/* A reader over DATA[0..LEN) with the default caps; the bytes must outlive
 * it.  ERR receives the first failure. */
void hl_tr_init(hl_treader_t *r, const void *data, size_t len, hl_error_t *err);
/* Bytes consumed so far. */
size_t hl_tr_offset(const hl_treader_t *r);

/* Each returns HL_OK or HL_CORRUPT (08P01). */
hl_status_t hl_tr_bool(hl_treader_t *r, int *out);
hl_status_t hl_tr_byte(hl_treader_t *r, int8_t *out);
hl_status_t hl_tr_i16(hl_treader_t *r, int16_t *out);
hl_status_t hl_tr_i32(hl_treader_t *r, int32_t *out);
hl_status_t hl_tr_i64(hl_treader_t *r, int64_t *out);
hl_status_t hl_tr_double(hl_treader_t *r, double *out);
/* *DATA points into the input (not NUL-terminated), valid while it is. */
hl_status_t hl_tr_binary(hl_treader_t *r, const uint8_t **data, size_t *len);
/* A field header: *TYPE is HL_TT_STOP at the end of a struct (then *ID is
 * 0).  An unknown type code is an error here. */
hl_status_t hl_tr_field(hl_treader_t *r, hl_ttype_t *type, int16_t *id);
/* Container headers: the count is checked against the remaining bytes
 * (every element takes at least one byte, most more) and max_elems. */
hl_status_t hl_tr_list(hl_treader_t *r, hl_ttype_t *elem, uint32_t *count); /* also sets */
hl_status_t hl_tr_map(hl_treader_t *r, hl_ttype_t *key, hl_ttype_t *value, uint32_t *count);
/* The message header, strict or old form.  *NAME points into the input. */
hl_status_t hl_tr_message(hl_treader_t *r, const uint8_t **name, size_t *name_len,
                          hl_tmsg_type_t *type, int32_t *seqid);
/* Skips one value of TYPE whatever it holds (unknown fields). */
hl_status_t hl_tr_skip(hl_treader_t *r, hl_ttype_t type);
/* Nesting: a struct or container decoder calls enter before its contents
 * and leave after; enter fails past max_depth. */
hl_status_t hl_tr_enter(hl_treader_t *r);
void hl_tr_leave(hl_treader_t *r);
/* Fails with a protocol error naming WHAT (printf style); for decoders'
 * own checks (a wrong field type, a missing required field). */
hl_status_t hl_tr_fail(hl_treader_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Name of a type code, "unknown" if none. */
const char *hl_ttype_name(int type);

#endif
