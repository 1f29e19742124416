/*
 * orc.h -- Apache ORC files: Hive's Optimized Row Columnar format; the
 * reader, the writer and what they share.
 *
 * A file is the magic "ORC", stripes (per column: index streams, data
 * streams, then a stripe footer naming every stream and the column
 * encodings), the Metadata (per-stripe column statistics), the Footer
 * (types in pre-order, stripe list, file statistics), the PostScript
 * (uncompressed: lengths, compression, version) and one final byte giving
 * the PostScript's length.  Everything except the PostScript is split into
 * compression chunks.  Metadata messages are protobuf, defined in
 * orc.proto and packed/unpacked with protoc-c (orc.pb-c.h, generated).
 *
 * Spec: https://orc.apache.org/specification/ORCv1/ (apache/orc
 * site/specification/ORCv1.md).  Reader: orc_tail.c (tail and stripe
 * footers), orc_codec.c (chunks and codecs), orc_rle.c (run-length
 * encodings), orc_column.c (one decoder per type), orc_reader.c (schema
 * binding, stripes, batches).  Writer: orc_options.c, orc_encode.c,
 * orc_compress.c, orc_wstats.c, orc_writer.c.  Shared: orc_type.c.
 */
#ifndef HL_ORC_H
#define HL_ORC_H

#include "vector/vector.h"
#include "format/chunk_meta.h"
#include "format/scan_pred.h"
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

/* Whether a TIMESTAMP (microseconds from 1970-01-01) reads back as written
 * from ORC.  The format keeps seconds and nanoseconds; ORC's writers store
 * a negative second with >= 1 ms of nanoseconds one higher (Java's
 * truncating division) and every reader takes one back only when the
 * stored second is negative, so no stored pair reads back as a time from
 * 1969-12-31 23:59:59.001 to 23:59:59.999999 (ORC-763): those read one
 * second late in every ORC reader, and are the only ones refused. */
bool hl_orc_timestamp_ok(int64_t micros);
/* The first TIMESTAMP in V (of TYPE, nested values included) that
 * hl_orc_timestamp_ok refuses, or NULL. */
const hl_value_t *hl_orc_unstorable(const hl_type_t *type, const hl_value_t *v);

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

/* ------------------------------------------------------------ reader */

typedef struct hl_orc_reader hl_orc_reader_t;

/* Opens PATH and reads its tail.  The table has N_COLS columns of TYPES
 * named NAMES (all borrowed until close); PROJECTED[i] false (or the whole
 * array NULL = all) leaves column i unread and all NULL.  Columns are
 * matched to the file's top-level fields by name ignoring case, or by
 * position when the file's fields are Hive's _col0, _col1, ...; a column
 * missing from the file reads NULL.  Integer widening and FLOAT -> DOUBLE
 * are allowed; another type mismatch is HL_ERROR 42804 naming file and
 * column (a UNION's variants match by position, so their counts must
 * agree).  A UNION of more than 128 variants is HL_UNSUPPORTED 0A000.  A malformed
 * file is HL_CORRUPT XX001 "cannot read \"PATH\": ...".  A 0-byte file
 * reads as empty.  PREDS (borrowed until close, may be NULL) are pushed
 * predicates: stripes whose statistics show that no row can satisfy them
 * are skipped (rows are not filtered).  Caller closes. */
hl_status_t hl_orc_reader_open(hl_stor_t *fs, const char *path, int n_cols,
                               const hl_type_t *const *types, const char *const *names,
                               const bool *projected, const hl_scan_pred_t *preds, int n_preds,
                               hl_orc_reader_t **out, hl_error_t *err);
/* Fills columns [0, n_cols) of BATCH (reset by the caller) with up to
 * HL_BATCH_CAP rows; batch->n_rows == 0 at end of file.  After an error the
 * reader only reports HL_MISUSE. */
hl_status_t hl_orc_reader_next(hl_orc_reader_t *r, hl_batch_t *batch, hl_error_t *err);
void hl_orc_reader_close(hl_orc_reader_t *r); /* NULL is a no-op */
/* Stripe statistics answers (format/chunk_meta.h) for data column COL in
 * every stripe: OUT[0..hl_orc_reader_n_stripes) when true.  VALUES false:
 * only the NULL counts are asked for (any column kind).  Before the first
 * next. */
bool hl_orc_reader_meta(hl_orc_reader_t *r, int col, bool values, hl_chunk_meta_t *out);
/* Column COL is not read: it reads NULL.  Before the first next. */
void hl_orc_reader_skip(hl_orc_reader_t *r, int col);
size_t hl_orc_reader_n_stripes(const hl_orc_reader_t *r);

/* Stripes in the file and stripes actually decoded so far (EXPLAIN
 * ANALYZE).  */
void hl_orc_reader_stripes(const hl_orc_reader_t *r, uint64_t *total, uint64_t *read);

/* The file's top-level fields as Hive types (tests, tools): *N_OUT fields,
 * TYPES and NAMES in ARENA.  A UNION of more than 128 variants is
 * HL_UNSUPPORTED 0A000 naming the field. */
hl_status_t hl_orc_file_schema(hl_stor_t *fs, const char *path, hl_arena_t *arena, int *n_out,
                               hl_type_t ***types, char ***names, hl_error_t *err);

/* ------------------------------------------------------------ writer */

#define HL_ORC_COMPRESS_SIZE    (256 * 1024)       /* orc.compress.size */
#define HL_ORC_STRIPE_SIZE      (64 * 1024 * 1024) /* orc.stripe.size */
#define HL_ORC_MAX_CHUNK        ((1 << 23) - 1)    /* a chunk header holds 23 bits of length */
#define HL_ORC_DICT_THRESHOLD   0.8                /* orc.dictionary.key.threshold */
#define HL_ORC_ROW_INDEX_STRIDE 10000              /* orc.row.index.stride */

typedef struct hl_orc_write_options {
  hl_orc_codec_t codec;       /* orc.compress, default ZLIB (as Hive) */
  uint64_t compress_size;     /* orc.compress.size, default 256 KiB, at most HL_ORC_MAX_CHUNK */
  uint64_t stripe_size;       /* orc.stripe.size, default 64 MiB of buffered values */
  double dict_threshold;      /* orc.dictionary.key.threshold, default 0.8 */
  uint32_t row_index_stride;  /* orc.row.index.stride, default 10000; 0: no row index */
  const char *direct_columns; /* orc.column.encoding.direct: comma-separated top-level
                                 columns never dictionary-encoded; borrowed from PARAMS
                                 until hl_orc_writer_open; NULL: none */
} hl_orc_write_options_t;

/* Defaults, then the table properties from PARAMS (may be NULL):
 * orc.compress (ZLIB, SNAPPY, ZSTD, LZ4, NONE), orc.compress.size,
 * orc.stripe.size, orc.row.index.stride (0: no row index),
 * orc.create.index (false: no row index), orc.dictionary.key.threshold,
 * orc.column.encoding.direct.
 * Accepted and without effect on what is written: orc.block.padding,
 * orc.block.size, orc.encoding.strategy, orc.compression.strategy,
 * orc.bloom.filter.fpp, orc.padding.tolerance, orc.write.format 0.12.
 * LZO and every other orc.* property (orc.bloom.filter.columns,
 * orc.encrypt, ...) are HL_UNSUPPORTED 0A000, so a file
 * never silently differs from what the table asks for; so is a
 * transactional (ACID) table.  A bad value is 22023. */
hl_status_t hl_orc_write_options_init(hl_orc_write_options_t *opts, const hl_kv_t *params,
                                      int n_params, hl_error_t *err);

typedef struct hl_orc_writer hl_orc_writer_t;

/* Creates PATH (exclusive) for N_COLS columns of TYPES named NAMES (both
 * borrowed until close; names become the root struct's field names).
 * OPTS NULL: the defaults.  A type with no ORC form is HL_UNSUPPORTED
 * 0A000; orc.column.encoding.direct naming no column is 22023.  Caller
 * closes or aborts. */
hl_status_t hl_orc_writer_open(hl_stor_t *fs, const char *path, const hl_orc_write_options_t *opts,
                               int n_cols, const hl_type_t *const *types, const char *const *names,
                               hl_orc_writer_t **out, hl_error_t *err);
/* Buffers the live rows of columns [0, n_cols) of BATCH; a stripe is
 * written once the buffered values pass the stripe size.  A TIMESTAMP
 * that hl_orc_timestamp_ok refuses is 22008 (and fails the writer). */
hl_status_t hl_orc_writer_write(hl_orc_writer_t *w, const hl_batch_t *batch, hl_error_t *err);
/* Writes the last stripe, the metadata, footer and postscript, syncs,
 * closes and frees W (also on error).  NULL: HL_OK. */
hl_status_t hl_orc_writer_close(hl_orc_writer_t *w, hl_error_t *err);
/* Abandons W after an error (closes the file; the caller removes it).
 * NULL is a no-op. */
void hl_orc_writer_abort(hl_orc_writer_t *w);
/* Rows written so far. */
uint64_t hl_orc_writer_rows(const hl_orc_writer_t *w);
/* Bytes of memory W holds (the stripe's value arrays and dictionaries by
 * capacity, the stripe being assembled, the row index, statistics), so
 * that a caller keeping many writers open can bound them. */
uint64_t hl_orc_writer_mem(const hl_orc_writer_t *w);
/* The part of hl_orc_writer_mem kept for the file's tail: every written
 * stripe's StripeInformation and StripeStatistics, which is all that
 * grows with the rows written. */
uint64_t hl_orc_writer_footer_mem(const hl_orc_writer_t *w);
/* Writes the stripe being built (if any rows) and frees the buffers it
 * used, so that W holds little more than its footer until more rows come.
 * Errors as hl_orc_writer_write. */
hl_status_t hl_orc_writer_flush(hl_orc_writer_t *w, hl_error_t *err);
/* Hive's rawDataSize of the rows so far: what ORC's Java writer reports
 * (getRawDataSize: per column, values times their JavaDataModel size;
 * strings by average length; BINARY by bytes). */
uint64_t hl_orc_writer_raw_bytes(const hl_orc_writer_t *w);

#endif
