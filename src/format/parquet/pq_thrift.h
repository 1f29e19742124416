/*
 * pq_thrift.h -- Thrift compact protocol primitives for the Parquet metadata.
 *
 * Parquet serialises its footer (FileMetaData), page headers and page index
 * with Thrift's compact protocol.  pq_meta.c builds the Parquet structures on
 * top of the bounded reader and the buffer writer declared here; nothing else
 * in the module should need them, but they are public within the module so
 * tests and future structures (bloom filter headers) can use them.
 *
 * Reader invariants: it never reads past END; every length or element count
 * is checked against the bytes remaining before the caller allocates for it
 * (an element of any compact type takes at least one byte); struct nesting
 * (including skipped values) is limited to HL_PQ_THRIFT_MAX_DEPTH.  Errors
 * are HL_CORRUPT / XX001 with a message saying what was wrong; running out
 * of input also sets r->truncated so a caller that read a prefix of a
 * stream (page headers) can retry with more bytes.
 *
 * Spec: https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
 */
#ifndef HL_PQ_THRIFT_H
#define HL_PQ_THRIFT_H

#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HL_PQ_THRIFT_MAX_DEPTH 64

/* Compact protocol type codes (field header low nibble, list element type). */
typedef enum hl_pq_ttype {
  HL_PQ_T_STOP = 0,
  HL_PQ_T_TRUE = 1, /* bool true (in a field header); also "bool" as a list element type */
  HL_PQ_T_FALSE = 2,
  HL_PQ_T_BYTE = 3,
  HL_PQ_T_I16 = 4,
  HL_PQ_T_I32 = 5,
  HL_PQ_T_I64 = 6,
  HL_PQ_T_DOUBLE = 7,
  HL_PQ_T_BINARY = 8,
  HL_PQ_T_LIST = 9,
  HL_PQ_T_SET = 10,
  HL_PQ_T_MAP = 11,
  HL_PQ_T_STRUCT = 12,
  HL_PQ_T_UUID = 13 /* 16 raw bytes (newer Thrift) */
} hl_pq_ttype_t;

/* ---------------------------------------------------------------- reader */

typedef struct hl_pq_thrift_reader {
  const uint8_t *pos; /* next byte */
  const uint8_t *end; /* one past the last byte */
  int depth;          /* structs currently open */
  bool truncated;     /* the last error was "ran out of input" */
  hl_error_t *err;    /* borrowed; filled on the first error */
} hl_pq_thrift_reader_t;

/* Starts reading BUF[0..len) (borrowed for the reader's lifetime). */
void hl_pq_thrift_reader_init(hl_pq_thrift_reader_t *r, const void *buf, size_t len,
                              hl_error_t *err);
/* Bytes not yet consumed. */
size_t hl_pq_thrift_remaining(const hl_pq_thrift_reader_t *r);

/* Enters a struct: *LAST_ID (caller storage, one per open struct) is reset
 * to 0 for field-id deltas.  Fails past the depth limit. */
hl_status_t hl_pq_thrift_struct_begin(hl_pq_thrift_reader_t *r, int16_t *last_id);
void hl_pq_thrift_struct_end(hl_pq_thrift_reader_t *r);
/* Reads a field header.  OUT *TYPE is HL_PQ_T_STOP at the end of the struct
 * (then *ID is 0); for bools *TYPE is HL_PQ_T_TRUE or HL_PQ_T_FALSE and the
 * value is read with hl_pq_thrift_read_field_bool (consumes nothing). */
hl_status_t hl_pq_thrift_field(hl_pq_thrift_reader_t *r, int16_t *last_id, hl_pq_ttype_t *type,
                               int16_t *id);
/* Fails with a message naming WHAT unless TYPE (of a field just read) is
 * EXPECTED (TRUE and FALSE both count as a bool). */
hl_status_t hl_pq_thrift_expect(hl_pq_thrift_reader_t *r, hl_pq_ttype_t type,
                                hl_pq_ttype_t expected, const char *what);

/* Scalars.  Integer reads check that the zigzag varint fits the width. */
hl_status_t hl_pq_thrift_read_byte(hl_pq_thrift_reader_t *r, int8_t *out);
hl_status_t hl_pq_thrift_read_i16(hl_pq_thrift_reader_t *r, int16_t *out);
hl_status_t hl_pq_thrift_read_i32(hl_pq_thrift_reader_t *r, int32_t *out);
hl_status_t hl_pq_thrift_read_i64(hl_pq_thrift_reader_t *r, int64_t *out);
hl_status_t hl_pq_thrift_read_double(hl_pq_thrift_reader_t *r, double *out);
/* A bool field: the value is in the header's type nibble. */
bool hl_pq_thrift_read_field_bool(hl_pq_ttype_t type);
/* A bool list element: one byte, 1 true, anything else false. */
hl_status_t hl_pq_thrift_read_elem_bool(hl_pq_thrift_reader_t *r, bool *out);
/* Binary/string: *DATA points into the input (borrowed), length checked
 * against the bytes remaining. */
hl_status_t hl_pq_thrift_read_binary(hl_pq_thrift_reader_t *r, const uint8_t **data, size_t *len);

/* List or set header: element type and count; the count is refused if the
 * remaining input cannot hold that many elements (so allocating *N elements
 * is bounded by the input size). */
hl_status_t hl_pq_thrift_list_begin(hl_pq_thrift_reader_t *r, hl_pq_ttype_t *elem_type,
                                    uint32_t *n);
/* Map header: *N pairs (key and value types undefined when *N is 0). */
hl_status_t hl_pq_thrift_map_begin(hl_pq_thrift_reader_t *r, hl_pq_ttype_t *key_type,
                                   hl_pq_ttype_t *value_type, uint32_t *n);
/* Skips one value of TYPE (any type, nested to the depth limit): how fields
 * a newer writer added are ignored. */
hl_status_t hl_pq_thrift_skip(hl_pq_thrift_reader_t *r, hl_pq_ttype_t type);

/* ---------------------------------------------------------------- writer */

/* Appends to BUF (borrowed); allocation failure is sticky in buf->oom, so a
 * writer checks the buffer once at the end. */
typedef struct hl_pq_thrift_writer {
  hl_buf_t *buf;
  int depth;                               /* structs open */
  int16_t last_id[HL_PQ_THRIFT_MAX_DEPTH]; /* field-id delta base per open struct */
} hl_pq_thrift_writer_t;

void hl_pq_thrift_writer_init(hl_pq_thrift_writer_t *w, hl_buf_t *buf);
/* Top-level (or list element) struct. */
void hl_pq_thrift_write_struct_begin(hl_pq_thrift_writer_t *w);
/* Writes the STOP byte and closes the struct. */
void hl_pq_thrift_write_struct_end(hl_pq_thrift_writer_t *w);
/* Field header for field ID of TYPE in the innermost open struct. */
void hl_pq_thrift_write_field(hl_pq_thrift_writer_t *w, int16_t id, hl_pq_ttype_t type);
/* Convenience: header + value. */
void hl_pq_thrift_write_field_bool(hl_pq_thrift_writer_t *w, int16_t id, bool v);
void hl_pq_thrift_write_field_i32(hl_pq_thrift_writer_t *w, int16_t id, int32_t v);
void hl_pq_thrift_write_field_i64(hl_pq_thrift_writer_t *w, int16_t id, int64_t v);
void hl_pq_thrift_write_field_binary(hl_pq_thrift_writer_t *w, int16_t id, const void *data,
                                     size_t len);
/* Field header of a nested struct, then opens it (close with struct_end). */
void hl_pq_thrift_write_field_struct_begin(hl_pq_thrift_writer_t *w, int16_t id);
/* List header (after a HL_PQ_T_LIST field header, or nested). */
void hl_pq_thrift_write_list_begin(hl_pq_thrift_writer_t *w, hl_pq_ttype_t elem_type, uint32_t n);
/* Bare values (list elements). */
void hl_pq_thrift_write_byte(hl_pq_thrift_writer_t *w, int8_t v);
void hl_pq_thrift_write_i16(hl_pq_thrift_writer_t *w, int16_t v);
void hl_pq_thrift_write_i32(hl_pq_thrift_writer_t *w, int32_t v);
void hl_pq_thrift_write_i64(hl_pq_thrift_writer_t *w, int64_t v);
void hl_pq_thrift_write_double(hl_pq_thrift_writer_t *w, double v);
void hl_pq_thrift_write_elem_bool(hl_pq_thrift_writer_t *w, bool v);
void hl_pq_thrift_write_binary(hl_pq_thrift_writer_t *w, const void *data, size_t len);
void hl_pq_thrift_write_map_begin(hl_pq_thrift_writer_t *w, hl_pq_ttype_t key_type,
                                  hl_pq_ttype_t value_type, uint32_t n);
/* Unsigned LEB128 varint (also used by tests to build inputs). */
void hl_pq_thrift_write_varint(hl_pq_thrift_writer_t *w, uint64_t v);

#endif
