/*
 * seqfile.h -- Hive SEQUENCEFILE tables: Hadoop SequenceFiles whose values
 * are rows in the table's text serde (LazySimpleSerDe by default) or
 * LazyBinarySerDe's binary rows.
 *
 * The reader accepts SequenceFile versions 4 to 6, uncompressed,
 * record-compressed or block-compressed with any codec of format/hcodec
 * (DefaultCodec, DeflateCodec, GzipCodec, BZip2Codec, SnappyCodec,
 * Lz4Codec, ZStandardCodec); another codec is HL_UNSUPPORTED 0A000 naming
 * it.  Values of class org.apache.hadoop.io.Text or BytesWritable are
 * decoded as one row each with format/text's row decoder; keys are ignored
 * (Hive ignores them too).
 *
 * The writer writes what Hive's HiveSequenceFileOutputFormat writes: version
 * 6 header, key class BytesWritable (every key the empty BytesWritable),
 * value class Text (BytesWritable for LazyBinarySerDe rows), no metadata,
 * a random 16-byte sync marker, and either
 *   - no compression, or RECORD compression (each value one complete codec
 *     stream, keys plain): a sync escape (-1, marker) before a record once
 *     SYNC_INTERVAL bytes have passed since the last one, or
 *   - BLOCK compression: records buffered until their keys and values hold
 *     io.seqfile.compress.blocksize bytes, then a block: sync escape, the
 *     record count, and four compressed buffers (key lengths, keys, value
 *     lengths, values), each a vint length and one codec stream.
 * Any codec of format/hcodec (the seven Hadoop codec classes).
 */
#ifndef HL_SEQFILE_H
#define HL_SEQFILE_H

#include "vector/vector.h"
#include "format/hcodec/hcodec.h"
#include "format/text/text.h"
#include "storage/stor.h"

#include <stdint.h>

/* Bytes between sync markers, as Hadoop 3's SequenceFile.Writer
 * (5 KiB * 20); Hadoop 2 used 2000.  Readers do not depend on it. */
#define HL_SEQFILE_SYNC_INTERVAL (5 * 1024 * 20)

typedef struct hl_seqfile_reader hl_seqfile_reader_t;

/* Opens PATH and reads its header.  FMT, TYPES, NAMES, PROJECTED as for
 * hl_text_reader_open (borrowed, valid until close).  A file that is not a
 * SequenceFile or has a malformed header is HL_CORRUPT XX001 naming it; an
 * unsupported version, codec or value class is HL_UNSUPPORTED 0A000.
 * Caller closes. */
hl_status_t hl_seqfile_reader_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                   int n_cols, const hl_type_t *const *types,
                                   const char *const *names, const bool *projected,
                                   hl_seqfile_reader_t **out, hl_error_t *err);
/* Fills columns [0, n_cols) of BATCH (reset by the caller) with up to
 * HL_BATCH_CAP rows; batch->n_rows == 0 at end of file.  Malformed records
 * are HL_CORRUPT naming the file. */
hl_status_t hl_seqfile_reader_next(hl_seqfile_reader_t *r, hl_batch_t *batch, hl_error_t *err);
void hl_seqfile_reader_close(hl_seqfile_reader_t *r); /* NULL is a no-op */

typedef struct hl_seqfile_writer hl_seqfile_writer_t;

/* SequenceFile.CompressionType */
typedef enum hl_seqfile_ctype {
  HL_SEQFILE_NONE,
  HL_SEQFILE_RECORD, /* each value compressed on its own */
  HL_SEQFILE_BLOCK   /* blocks of keys and values compressed together */
} hl_seqfile_ctype_t;

/* io.seqfile.compress.blocksize's default: plain key and value bytes per block */
#define HL_SEQFILE_BLOCK_BYTES 1000000

typedef struct hl_seqfile_write_opts {
  hl_seqfile_ctype_t type; /* NONE: CODEC is not used */
  hl_hcodec_t codec;       /* not HL_HCODEC_NONE unless TYPE is NONE */
  const char *codec_class; /* the class the header names (borrowed until open
                            * returns); NULL: hl_hcodec_class(CODEC) */
  size_t block_bytes;      /* BLOCK: 0 = HL_SEQFILE_BLOCK_BYTES */
} hl_seqfile_write_opts_t;

/* CompressionType.valueOf(NAME): "NONE", "RECORD" or "BLOCK" (exact, as
 * Java's valueOf); another name is HL_ERROR 22023 naming the valid ones. */
hl_status_t hl_seqfile_ctype_parse(const char *name, hl_seqfile_ctype_t *out, hl_error_t *err);

/* Creates PATH (exclusive) and writes the header.  OPTS (copied; NULL: no
 * compression) picks the compression.  SYNC (16 bytes, copied) fixes the
 * sync marker for tests; NULL draws a random one.  Caller closes or
 * aborts. */
hl_status_t hl_seqfile_writer_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                   int n_cols, const hl_type_t *const *types,
                                   const char *const *names, const hl_seqfile_write_opts_t *opts,
                                   const uint8_t *sync, hl_seqfile_writer_t **out, hl_error_t *err);
/* Appends the live rows of BATCH, one record each. */
hl_status_t hl_seqfile_writer_write(hl_seqfile_writer_t *w, const hl_batch_t *batch,
                                    hl_error_t *err);
/* Flushes, syncs and closes the file, then frees W (also on error). */
hl_status_t hl_seqfile_writer_close(hl_seqfile_writer_t *w, hl_error_t *err);
/* Closes without flushing and frees W (error paths).  NULL is a no-op. */
void hl_seqfile_writer_abort(hl_seqfile_writer_t *w);
/* Serialized row bytes so far plus one per row: what the text writer
 * reports for the same rows (text plus line terminators), so callers
 * derive Hive's rawDataSize the same way for both. */
uint64_t hl_seqfile_writer_raw_bytes(const hl_seqfile_writer_t *w);
/* Bytes of memory W holds (bytes not yet appended, the block being
 * gathered, compression buffers, the row encoder). */
uint64_t hl_seqfile_writer_mem(const hl_seqfile_writer_t *w);

#endif
