/*
 * avro_int.h -- private to format/avro: schema nodes, the binary encoding's
 * zig-zag varints, block codecs and the resolution of a writer schema
 * against a reader schema.
 *
 *   avro_schema.c   JSON <-> schema nodes, Hive type mapping, derivation
 *   avro_codec.c    block compression (null, deflate, snappy, zstandard,
 *                   xz, bzip2)
 *   avro_resolve.c  writer schema x reader schema -> decode program
 *   avro_reader.c   container files: header, blocks, decoding into batches
 *   avro_writer.c   encoding batches, blocks, container files
 */
#ifndef HL_AVRO_INT_H
#define HL_AVRO_INT_H

#include "format/avro/avro.h"
#include "util/strbuf.h"

#include <stddef.h>
#include <stdint.h>

typedef enum av_kind {
  AV_NULL,
  AV_BOOLEAN,
  AV_INT,
  AV_LONG,
  AV_FLOAT,
  AV_DOUBLE,
  AV_BYTES,
  AV_STRING,
  AV_RECORD,
  AV_ENUM,
  AV_ARRAY,
  AV_MAP,
  AV_UNION,
  AV_FIXED
} av_kind_t;

typedef enum av_logical {
  AVL_NONE,
  AVL_DECIMAL,   /* bytes or fixed; precision, scale */
  AVL_DATE,      /* int: days since 1970-01-01 */
  AVL_TS_MILLIS, /* long: milliseconds since the epoch */
  AVL_TS_MICROS, /* long: microseconds since the epoch */
  AVL_CHAR,      /* string; max_length (Hive) */
  AVL_VARCHAR    /* string; max_length (Hive) */
} av_logical_t;

typedef struct av_node av_node_t;

typedef struct av_field {
  const char *name;
  av_node_t *type;
  const char *default_json; /* the default as JSON text, NULL when none */
  const char **aliases;
  int n_aliases;
} av_field_t;

struct av_node {
  av_kind_t kind;
  av_logical_t logical;
  int precision, scale; /* decimal */
  int max_length;       /* char/varchar */
  const char *name;     /* full name of a record, enum or fixed */
  int n;                /* fields, symbols or branches */
  av_field_t *fields;   /* record */
  const char **symbols; /* enum */
  const char *enum_default;
  av_node_t **branches; /* union */
  av_node_t *items;     /* array items, map values */
  int size;             /* fixed */
  const char **aliases; /* named types */
  int n_aliases;
  int mark; /* scratch for walks (cycle checks) */
};

struct hl_avro_schema {
  av_node_t *root;
  const char *json; /* the text it was parsed from, or its serialization */
};

/* The node under a nullable union (["null", T] or [T, "null"]), else N
 * itself; *nullable says whether N admits null. */
const av_node_t *hl_avro_strip_null(const av_node_t *n, bool *nullable);
/* The Hive type of node N (see avro.h); 0A000 for what Hive cannot map. */
hl_status_t hl_avro_hive_type(const av_node_t *n, hl_arena_t *arena, hl_type_t **out,
                              hl_error_t *err);
/* The fewest bytes one value of N takes (0 for null, empty records). */
uint64_t hl_avro_min_bytes(const av_node_t *n);

/* ----------------------------------------------------------- varints */

/* Zig-zag varint of at most 10 bytes from P[*pos..end); false when it runs
 * past END or is longer than 10 bytes. */
static inline bool hl_avro_get_long(const uint8_t *p, size_t end, size_t *pos, int64_t *out) {
  uint64_t v = 0;
  int shift = 0;
  size_t i = *pos;
  for (;;) {
    if (i >= end || shift > 63) return false;
    uint8_t b = p[i++];
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
    shift += 7;
  }
  *pos = i;
  *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
  return true;
}

static inline void hl_avro_put_long(hl_buf_t *b, int64_t v) {
  uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
  uint8_t tmp[10];
  int n = 0;
  while (z >= 0x80) {
    tmp[n++] = (uint8_t)(z | 0x80);
    z >>= 7;
  }
  tmp[n++] = (uint8_t)z;
  hl_buf_append(b, tmp, (size_t)n);
}

/* ------------------------------------------------------------ codecs */

/* Decompresses SRC[0..n) of CODEC into OUT (reset first); more than MAX
 * bytes of output or corrupt data is HL_CORRUPT with a message naming
 * nothing but the problem (the caller prefixes file and offset). */
hl_status_t hl_avro_decompress(hl_avro_codec_t codec, const uint8_t *src, size_t n, size_t max,
                               hl_buf_t *out, hl_error_t *err);
/* Appends the compressed form of SRC[0..n) to OUT. */
hl_status_t hl_avro_compress(hl_avro_codec_t codec, int level, const uint8_t *src, size_t n,
                             hl_buf_t *out, hl_error_t *err);

/* ----------------------------------------------------------- resolution */

typedef struct av_prog av_prog_t; /* opaque: avro_resolve.c */

/* Compiles the decoding of records of writer schema W into the columns
 * (N_COLS, TYPES, NAMES, PROJECTED) through reader schema R (a record).
 * 42804 naming FILE when W cannot be read as R. */
hl_status_t hl_avro_resolve(const av_node_t *w, const av_node_t *r, int n_cols,
                            const hl_type_t *const *types, const char *const *names,
                            const bool *projected, const char *file, hl_arena_t *arena,
                            av_prog_t **out, hl_error_t *err);
/* Decodes one record at P[*pos..end) into row ROW of BATCH (columns not
 * projected untouched).  Strings are copied into the batch arena.  Bad
 * data: HL_CORRUPT with a short reason in *why. */
hl_status_t hl_avro_decode_row(const av_prog_t *prog, const uint8_t *p, size_t end, size_t *pos,
                               hl_batch_t *batch, uint32_t row, const char **why, hl_error_t *err);

#define HL_AVRO_MAX_DEPTH 64 /* nesting of schemas (and so of decoded values) */

#endif
