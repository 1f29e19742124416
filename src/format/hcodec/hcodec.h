/*
 * hcodec.h -- Hadoop's compression codecs, shared by the formats that
 * Hadoop and Hive compress with them: text files (format/text, whole files
 * as streams), SequenceFiles (format/seqfile: values or blocks) and
 * RCFiles (format/rcfile: row group keys and column buffers).
 *
 * Codec classes (org.apache.hadoop.io.compress.*) and what they write:
 *   DefaultCodec, DeflateCodec   zlib streams (DeflateCodec only renames)
 *   GzipCodec                    gzip streams
 *   BZip2Codec                   bzip2 streams ("BZh")
 *   ZStandardCodec               zstd frames
 *   SnappyCodec, Lz4Codec        BlockCompressorStream framing: blocks of a
 *       4-byte big-endian plain length, then chunks of a 4-byte big-endian
 *       compressed length and a raw Snappy / LZ4 block
 *
 * Two levels: one chunk of the block framing (hcodec_block.c, which
 * text_io.c also walks as a stream) and one whole buffer compressed into /
 * decompressed from one complete stream, as a Hadoop CompressionOutputStream
 * writes between resetState() and finish() (hcodec.c).  Nothing here
 * touches storage or keeps state between calls.
 */
#ifndef HL_HCODEC_H
#define HL_HCODEC_H

#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hl_hcodec {
  HL_HCODEC_NONE,
  HL_HCODEC_GZIP,    /* GzipCodec, .gz: gzip members */
  HL_HCODEC_ZSTD,    /* ZStandardCodec, .zst / .zstd: zstd frames */
  HL_HCODEC_DEFLATE, /* DefaultCodec / DeflateCodec, .deflate: zlib streams */
  HL_HCODEC_BZIP2,   /* BZip2Codec, .bz2: bzip2 streams */
  HL_HCODEC_SNAPPY,  /* SnappyCodec, .snappy: block framing, raw Snappy chunks */
  HL_HCODEC_LZ4      /* Lz4Codec, .lz4: block framing, raw LZ4 chunks */
} hl_hcodec_t;

/* The codec of Hadoop class name NAME (exact, as Hadoop's
 * Class.forName); false for any other name. */
bool hl_hcodec_from_class(const char *name, hl_hcodec_t *out);
/* A codec named by a setting: a class name as above, or (ignoring case)
 * the short names hivelite's text.compression takes: gzip, zstd, deflate,
 * bzip2, snappy, lz4.  Returns the class name a file records for it
 * (static: NAME's class, DefaultCodec for "deflate"); NULL for any other
 * name. */
const char *hl_hcodec_from_name(const char *name, hl_hcodec_t *out);
/* hl_hcodec_from_class for the codec named in file PATH's header: another
 * name is HL_UNSUPPORTED 0A000 naming the codec and the file. */
hl_status_t hl_hcodec_lookup(const char *path, const char *name, hl_hcodec_t *out, hl_error_t *err);
/* The class name Hadoop writes for CODEC (DefaultCodec for DEFLATE);
 * NULL for NONE. */
const char *hl_hcodec_class(hl_hcodec_t codec);
/* A short lowercase name for messages ("gzip", "snappy", ...). */
const char *hl_hcodec_name(hl_hcodec_t codec);

/* ------------------------------------------- block framing: one chunk */

/* A chunk's plain bytes are never more than this, whatever a file declares
 * (Hadoop's own buffers are 256 KiB by default). */
#define HL_HCODEC_BLOCK_MAX (64u * 1024 * 1024)
/* Plain bytes per chunk that writers compress (Hadoop's default). */
size_t hl_hcodec_block_max_input(hl_hcodec_t codec);
/* The most bytes compressing PLAIN_LEN bytes can give. */
size_t hl_hcodec_block_bound(hl_hcodec_t codec, size_t plain_len);
/* Compresses SRC[0..len) into DST (CAP >= the bound); false on failure. */
bool hl_hcodec_block_compress(hl_hcodec_t codec, const char *src, size_t len, char *dst, size_t cap,
                              size_t *out_len);
/* The plain buffer the chunk CHUNK[0..clen) needs, when its block still
 * owes BLOCK_LEFT bytes: Snappy's declared length, an LZ4 chunk's most
 * possible output; never more than BLOCK_LEFT or HL_HCODEC_BLOCK_MAX.
 * SIZE_MAX when the chunk cannot fit (corrupt). */
size_t hl_hcodec_block_plain_cap(hl_hcodec_t codec, const unsigned char *chunk, size_t clen,
                                 uint64_t block_left);
/* Decompresses one chunk into DST[0..cap) (CAP from plain_cap); *OUT_LEN
 * gets the plain length.  False when the chunk is malformed. */
bool hl_hcodec_block_decompress(hl_hcodec_t codec, const unsigned char *chunk, size_t clen,
                                unsigned char *dst, size_t cap, size_t *out_len);

/* ------------------------------------------------ whole buffers */

/* Codec state kept between buffers (zlib streams, zstd contexts), so that
 * a writer compressing every value on its own (SequenceFile RECORD) or a
 * reader of such a file does not set a codec up per value, as Hadoop
 * reuses its pooled Compressor / Decompressor.  Opaque, heap; NULL from
 * new on OOM.  One per reader or writer: not shared between threads. */
typedef struct hl_hcodec_ctx hl_hcodec_ctx_t;
hl_hcodec_ctx_t *hl_hcodec_ctx_new(void);
void hl_hcodec_ctx_free(hl_hcodec_ctx_t *cx); /* NULL is a no-op */
/* Bytes of memory CX holds (NULL: 0). */
uint64_t hl_hcodec_ctx_mem(const hl_hcodec_ctx_t *cx);

/* Appends to OUT the one complete stream CODEC writes for SRC[0..n) (n may
 * be 0: an empty stream, e.g. a block framing of one 0 length).  CX (NULL:
 * a context for this call only) carries codec state between calls.  Memory
 * failures set OUT->oom (checked by the caller); false when the library
 * refuses (not expected). */
bool hl_hcodec_compress(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const void *src, size_t n,
                        hl_buf_t *out);
/* Decompresses the complete stream SRC[0..n) into OUT (reset first).  More
 * than MAX plain bytes, a truncated stream, trailing bytes or corrupt data
 * are HL_CORRUPT XX001 `cannot read "<PATH>": corrupt <codec> data ...`.
 * Several gzip / bzip2 members or zstd frames in a row are read as one
 * stream, as Hadoop's decompressor streams read them.  CX as for
 * hl_hcodec_compress. */
hl_status_t hl_hcodec_decompress(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const char *path,
                                 const unsigned char *src, size_t n, size_t max, hl_buf_t *out,
                                 hl_error_t *err);

#endif
