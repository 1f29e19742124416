/*
 * orc_enc.h -- ORC stream encoders: varints, byte RLE, boolean RLE,
 * integer RLE version 2, and compression chunks.
 *
 * Each encoder appends to an hl_buf_t (sticky OOM: callers check buf->oom
 * once).  They work on whole arrays: the writer keeps a stripe's values in
 * memory and encodes each stream when the stripe is written, so the run
 * choice can look at all the values.  The inverse decoders here exist for
 * the unit tests (round trips); the table reader has its own.
 *
 * Spec: ORC v1 "Run Length Encoding" and "Compression"
 * (https://orc.apache.org/specification/ORCv1/).
 */
#ifndef HL_ORC_ENC_H
#define HL_ORC_ENC_H

#include "format/orc/orc.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Base-128 varints, least significant group first; signed ones zigzagged. */
void hl_orc_put_uvarint(hl_buf_t *buf, uint64_t v);
void hl_orc_put_svarint(hl_buf_t *buf, int64_t v);
/* The unbounded signed varint of a decimal's unscaled value. */
void hl_orc_put_varint128(hl_buf_t *buf, __int128 v);

/* A TIMESTAMP's nanoseconds (0..999999999) as the SECONDARY stream holds
 * them: when there are two or more trailing decimal zeros they are removed
 * and their count minus one goes into the low 3 bits (1000 -> 0x0a). */
int64_t hl_orc_encode_nanos(int64_t nanos);

/* Row-index positions inside one encoded stream.  AT[0..n) are value
 * indices, non-decreasing (the first value of each row group); the
 * encoder fills, for each, OFFSET (byte offset from the start of the
 * stream of the run holding that value; the stream's length when the
 * index is past the last value) and SKIP (values of that run before it).
 * For boolean RLE, AT counts flags and BITS receives the bit within the
 * byte (OFFSET/SKIP then place the byte). */
typedef struct hl_orc_marks {
  const uint64_t *at;
  size_t n;
  uint64_t *offset; /* OUT, n entries */
  uint64_t *skip;   /* OUT, n entries */
  uint64_t *bits;   /* OUT, n entries (boolean RLE only) */
} hl_orc_marks_t;

/* Byte RLE of BYTES[0..n): runs of 3..130 equal bytes, literal groups of
 * 1..128.  MARKS (may be NULL) receives row-index positions. */
void hl_orc_put_byte_rle(hl_buf_t *buf, const uint8_t *bytes, size_t n, hl_orc_marks_t *marks);
/* Boolean RLE of FLAGS[0..n) (each 0 or 1): eight flags a byte, first flag
 * in the most significant bit, the last byte padded with zeros, then byte
 * RLE. */
void hl_orc_put_bool_rle(hl_buf_t *buf, const uint8_t *flags, size_t n, hl_orc_marks_t *marks);
/* Integer RLE v2 of VALS[0..n): SHORT_REPEAT, DIRECT and DELTA runs of at
 * most 512 values (PATCHED_BASE is never written).  SIGNED zigzags values;
 * unsigned streams must hold non-negative values.  MARKS as above. */
void hl_orc_put_rle2(hl_buf_t *buf, const int64_t *vals, size_t n, bool is_signed,
                     hl_orc_marks_t *marks);

/* Decoders for the tests: return the number of values decoded into OUT
 * (at most CAP), or -1 on malformed input. */
long hl_orc_byte_unrle(const uint8_t *p, size_t len, uint8_t *out, size_t cap);
long hl_orc_unrle2(const uint8_t *p, size_t len, bool is_signed, int64_t *out, size_t cap);

/* Appends SRC[0..n) to OUT as ORC compression chunks of at most BLOCK
 * uncompressed bytes: a 3-byte little-endian header (length << 1, low bit
 * set when the chunk is stored original because compression did not make
 * it smaller), then the chunk.  NONE appends SRC as is.  LZO:
 * HL_UNSUPPORTED; a codec library failure: HL_INTERNAL.  STARTS (may be
 * NULL; n / BLOCK + 2 entries) receives each chunk's offset from the start
 * of what this call appended, then the total length. */
hl_status_t hl_orc_compress(hl_orc_codec_t codec, size_t block, const uint8_t *src, size_t n,
                            hl_buf_t *out, uint64_t *starts, hl_error_t *err);
/* Where uncompressed offset OFF of a stream lands after hl_orc_compress
 * with BLOCK: appends to POS the compressed offset of its chunk (from
 * the stream start; STARTS holds each chunk's) and the offset inside the
 * chunk; for NONE only OFF.  Returns the number of entries appended. */
int hl_orc_chunk_position(hl_orc_codec_t codec, size_t block, const uint64_t *starts, uint64_t off,
                          uint64_t pos[2]);

#endif
