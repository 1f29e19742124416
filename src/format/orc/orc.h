/*
 * orc.h -- Apache ORC files: Hive's Optimized Row Columnar format.
 *
 * A file is the magic "ORC", stripes (per column: index streams, data
 * streams, then a stripe footer naming every stream and the column
 * encodings), the Metadata (per-stripe column statistics), the Footer
 * (types in pre-order, stripe list, file statistics), the PostScript
 * (uncompressed: lengths, compression, version) and one final byte giving
 * the PostScript's length.  Metadata messages are protobuf, defined in
 * orc.proto and packed with protoc-c (orc.pb-c.h, generated).
 *
 * This header holds the parts shared by reader and writer (the Hive type
 * <-> ORC type mapping, codecs) and the writer.  Spec:
 * https://orc.apache.org/specification/ORCv1/
 */
#ifndef HL_ORC_H
#define HL_ORC_H

#include "exec/vector.h"
#include "storage/stor.h"
#include "util/kv.h"

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------ types */

/* ORC Type.Kind values (orc.proto). */
typedef enum hl_orc_kind {
  HL_ORC_BOOLEAN = 0,
  HL_ORC_BYTE = 1,
  HL_ORC_SHORT = 2,
  HL_ORC_INT = 3,
  HL_ORC_LONG = 4,
  HL_ORC_FLOAT = 5,
  HL_ORC_DOUBLE = 6,
  HL_ORC_STRING = 7,
  HL_ORC_BINARY = 8,
  HL_ORC_TIMESTAMP = 9,
  HL_ORC_LIST = 10,
  HL_ORC_MAP = 11,
  HL_ORC_STRUCT = 12,
  HL_ORC_UNION = 13,
  HL_ORC_DECIMAL = 14,
  HL_ORC_DATE = 15,
  HL_ORC_VARCHAR = 16,
  HL_ORC_CHAR = 17,
  HL_ORC_TIMESTAMP_INSTANT = 18
} hl_orc_kind_t;

/* The ORC kind Hive uses for TYPE (STRING -> STRING, VARCHAR -> VARCHAR,
 * ARRAY -> LIST, ...); -1 for a type with no ORC form (the NULL type). */
int hl_orc_kind_of(const hl_type_t *type);
/* Number of ORC column ids TYPE takes: 1 plus its children's, pre-order. */
int hl_orc_type_count(const hl_type_t *type);

/* Seconds from 1970-01-01 to 2015-01-01 00:00:00, the origin of the
 * seconds in a TIMESTAMP column's DATA stream. */
#define HL_ORC_TS_BASE 1420070400LL

/* ------------------------------------------------------------ codecs */

/* PostScript CompressionKind values. */
typedef enum hl_orc_codec {
  HL_ORC_NONE = 0,
  HL_ORC_ZLIB = 1, /* raw deflate, no zlib header */
  HL_ORC_SNAPPY = 2,
  HL_ORC_LZO = 3,
  HL_ORC_LZ4 = 4, /* raw LZ4 block */
  HL_ORC_ZSTD = 5 /* zstd frame */
} hl_orc_codec_t;

/* ------------------------------------------------------------ writer */

#define HL_ORC_COMPRESS_SIZE  (256 * 1024)       /* orc.compress.size */
#define HL_ORC_STRIPE_SIZE    (64 * 1024 * 1024) /* orc.stripe.size */
#define HL_ORC_MAX_CHUNK      ((1 << 23) - 1)    /* a chunk header holds 23 bits of length */
#define HL_ORC_DICT_THRESHOLD 0.8                /* orc.dictionary.key.threshold */

typedef struct hl_orc_write_options {
  hl_orc_codec_t codec;   /* orc.compress, default ZLIB (as Hive) */
  uint64_t compress_size; /* orc.compress.size, default 256 KiB, at most HL_ORC_MAX_CHUNK */
  uint64_t stripe_size;   /* orc.stripe.size, default 64 MiB of buffered values */
  double dict_threshold;  /* orc.dictionary.key.threshold, default 0.8 */
} hl_orc_write_options_t;

/* Defaults, then the table properties from PARAMS (may be NULL):
 * orc.compress (ZLIB, SNAPPY, ZSTD, LZ4, NONE), orc.compress.size,
 * orc.stripe.size, orc.dictionary.key.threshold.  Accepted and without
 * effect on what is written: orc.row.index.stride, orc.create.index (no
 * row indexes are written: rowIndexStride 0), orc.block.padding,
 * orc.block.size, orc.encoding.strategy, orc.compression.strategy,
 * orc.bloom.filter.fpp, orc.write.format 0.12.  LZO and every other orc.*
 * property (orc.bloom.filter.columns, orc.column.encoding.direct, ...) are
 * HL_UNSUPPORTED 0A000, so a file never silently differs from what the
 * table asks for; a bad value is 22023. */
hl_status_t hl_orc_write_options_init(hl_orc_write_options_t *opts, const hl_kv_t *params,
                                      int n_params, hl_error_t *err);

typedef struct hl_orc_writer hl_orc_writer_t;

/* Creates PATH (exclusive) for N_COLS columns of TYPES named NAMES (both
 * borrowed until close; names become the root struct's field names).
 * OPTS NULL: the defaults.  A type with no ORC form is HL_UNSUPPORTED
 * 0A000.  Caller closes or aborts. */
hl_status_t hl_orc_writer_open(hl_stor_t *fs, const char *path, const hl_orc_write_options_t *opts,
                               int n_cols, const hl_type_t *const *types, const char *const *names,
                               hl_orc_writer_t **out, hl_error_t *err);
/* Buffers the live rows of columns [0, n_cols) of BATCH; a stripe is
 * written once the buffered values pass the stripe size. */
hl_status_t hl_orc_writer_write(hl_orc_writer_t *w, const hl_batch_t *batch, hl_error_t *err);
/* Writes the last stripe, the metadata, footer and postscript, syncs,
 * closes and frees W (also on error).  NULL: HL_OK. */
hl_status_t hl_orc_writer_close(hl_orc_writer_t *w, hl_error_t *err);
/* Abandons W after an error (closes the file; the caller removes it).
 * NULL is a no-op. */
void hl_orc_writer_abort(hl_orc_writer_t *w);
/* Rows written so far. */
uint64_t hl_orc_writer_rows(const hl_orc_writer_t *w);
/* Hive's rawDataSize of the rows so far: what ORC's Java writer reports
 * (getRawDataSize: per column, values times their JavaDataModel size;
 * strings by average length; BINARY by bytes). */
uint64_t hl_orc_writer_raw_bytes(const hl_orc_writer_t *w);

#endif
