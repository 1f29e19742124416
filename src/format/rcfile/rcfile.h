/*
 * rcfile.h -- Hive RCFILE tables: Hive's Record Columnar File.
 *
 * A file is a header (magic "RCF" version 1, or the original "SEQ" 6
 * header with RCFile$KeyBuffer / RCFile$ValueBuffer class names), metadata
 * naming the column count (hive.io.rcfile.column.number), a 16-byte sync
 * marker, then row groups: a key part (row count, per column its buffer
 * lengths and the run-length encoded length of every cell) and a value
 * part (the column buffers, each cell's bytes back to back).
 *
 * Cells are serialized by the table's serde:
 *   LazyBinaryColumnarSerDe  (Hive's default for STORED AS RCFILE since
 *     0.12, hive.default.rcfile.serde) LazyBinary values (format/lazybin;
 *     complex ones without their size); an empty cell is NULL, a STRING ''
 *     is the single byte 0xBF
 *   ColumnarSerDe  each cell is LazySimpleSerDe text at separator level 1,
 *     decoded and encoded with format/text
 * Files may be compressed with any codec of format/hcodec (the seven
 * Hadoop codec classes; another is HL_UNSUPPORTED 0A000): each row group's
 * key is one codec stream, each column buffer another.  The writer writes
 * what Hive's RCFileOutputFormat writes, compressed when asked (Hive:
 * hive.exec.compress.output with the output codec class).
 */
#ifndef HL_RCFILE_H
#define HL_RCFILE_H

#include "vector/vector.h"
#include "format/hcodec/hcodec.h"
#include "format/text/text.h"
#include "storage/stor.h"
#include "util/kv.h"

#include <stdint.h>

#define HL_RCFILE_SYNC_INTERVAL 2000              /* RCFile.SYNC_INTERVAL (100 * 20) */
#define HL_RCFILE_GROUP_BYTES   (4 * 1024 * 1024) /* hive.io.rcfile.record.buffer.size */

typedef struct hl_rcfile_format {
  bool binary;           /* LazyBinaryColumnarSerDe, else ColumnarSerDe */
  hl_text_format_t text; /* ColumnarSerDe: separators, null string, escape */
} hl_rcfile_format_t;

/* Builds the format from the table's serde class (NULL or empty: Hive's
 * default LazyBinaryColumnarSerDe) and its parameters; strings in ARENA.
 * Another serde is HL_UNSUPPORTED 0A000. */
hl_status_t hl_rcfile_format_init(hl_rcfile_format_t *fmt, hl_arena_t *arena, const char *serde_lib,
                                  const hl_kv_t *serde_params, int n_serde_params,
                                  const hl_kv_t *tbl_params, int n_tbl_params, hl_error_t *err);

typedef struct hl_rcfile_reader hl_rcfile_reader_t;

/* Opens PATH and reads its header; arguments as hl_text_reader_open
 * (borrowed until close).  A file whose column count is smaller than
 * N_COLS reads NULL for the missing columns; extra file columns are
 * ignored.  Not an RCFile / malformed: HL_CORRUPT XX001 naming the file;
 * an unsupported codec: HL_UNSUPPORTED 0A000.  Caller closes. */
hl_status_t hl_rcfile_reader_open(hl_stor_t *fs, const char *path, const hl_rcfile_format_t *fmt,
                                  int n_cols, const hl_type_t *const *types,
                                  const char *const *names, const bool *projected,
                                  hl_rcfile_reader_t **out, hl_error_t *err);
/* Fills columns [0, n_cols) of BATCH (reset by the caller) with up to
 * HL_BATCH_CAP rows; batch->n_rows == 0 at end of file. */
hl_status_t hl_rcfile_reader_next(hl_rcfile_reader_t *r, hl_batch_t *batch, hl_error_t *err);
void hl_rcfile_reader_close(hl_rcfile_reader_t *r); /* NULL is a no-op */

typedef struct hl_rcfile_writer hl_rcfile_writer_t;

/* Creates PATH (exclusive) and writes the header.  CODEC, a Hadoop codec
 * class name (NULL: none; one hl_hcodec_from_class does not know is
 * HL_UNSUPPORTED 0A000), compresses every row group's key and column
 * buffers.  SYNC (16 bytes) fixes
 * the sync marker for tests, NULL draws one.  GROUP_BYTES > 0 overrides
 * HL_RCFILE_GROUP_BYTES (tests).  Caller closes or aborts. */
hl_status_t hl_rcfile_writer_open(hl_stor_t *fs, const char *path, const hl_rcfile_format_t *fmt,
                                  int n_cols, const hl_type_t *const *types,
                                  const char *const *names, const char *codec, const uint8_t *sync,
                                  size_t group_bytes, hl_rcfile_writer_t **out, hl_error_t *err);
/* Buffers the live rows of BATCH; a row group is written once its cells
 * pass the group size.  A non-NULL empty BINARY value is an error (22000),
 * as in Hive, since LazyBinaryColumnarSerDe cannot tell it from NULL. */
hl_status_t hl_rcfile_writer_write(hl_rcfile_writer_t *w, const hl_batch_t *batch, hl_error_t *err);
/* Writes the last row group, syncs, closes and frees W (also on error). */
hl_status_t hl_rcfile_writer_close(hl_rcfile_writer_t *w, hl_error_t *err);
void hl_rcfile_writer_abort(hl_rcfile_writer_t *w); /* NULL is a no-op */
/* Cell bytes so far plus one per row (see hl_seqfile_writer_raw_bytes). */
uint64_t hl_rcfile_writer_raw_bytes(const hl_rcfile_writer_t *w);
/* Bytes of memory W holds (the row group's cells by capacity, bytes not
 * yet appended, the cell encoder). */
uint64_t hl_rcfile_writer_mem(const hl_rcfile_writer_t *w);

#endif
