/*
 * pq_codec.h -- Parquet page compression codecs and the page CRC.
 *
 * The reader decompresses each page body into a buffer of exactly the size
 * the page header announces; the writer compresses page bodies into an
 * hl_buf_t.  Codecs come from Debian libraries: snappy (snappy-c.h), zlib
 * (GZIP, every concatenated member), libzstd, liblz4 (LZ4_RAW = raw block;
 * the deprecated LZ4 = Hadoop framing, falling back to a raw block as
 * Arrow does), brotli.  LZO is not supported (0A000).
 *
 * Invariant: decompression never writes past DST + DST_LEN, and output of
 * any other size than DST_LEN is HL_CORRUPT (XX001); the message says what
 * failed but not the file (the caller prefixes it).
 *
 * Spec: apache/parquet-format Compression.md.
 */
#ifndef HL_PQ_CODEC_H
#define HL_PQ_CODEC_H

#include "format/parquet/parquet.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "SNAPPY", "LZ4_RAW", ...; "?" for an unknown value.  Static. */
const char *hl_pq_codec_name(hl_parquet_codec_t codec);
/* True when hl_pq_decompress handles CODEC (everything but LZO and
 * unknown values). */
bool hl_pq_codec_supported(hl_parquet_codec_t codec);

/* Decompresses SRC[0..src_len) into DST[0..dst_len), which must come out
 * exactly full.  HL_CORRUPT on malformed or wrong-sized data, HL_UNSUPPORTED
 * (0A000) for LZO or an unknown codec, HL_NOMEM.  UNCOMPRESSED requires
 * src_len == dst_len and copies. */
hl_status_t hl_pq_decompress(hl_parquet_codec_t codec, const uint8_t *src, size_t src_len,
                             uint8_t *dst, size_t dst_len, hl_error_t *err);

/* Appends the compressed form of SRC[0..src_len) to OUT.  LEVEL 0 picks the
 * codec's default (used by GZIP, ZSTD, BROTLI; ignored by the others).  LZ4
 * (deprecated) is written in the Hadoop framing: one frame [4-byte
 * big-endian uncompressed size][4-byte big-endian compressed size][block],
 * and no frame at all (0 bytes) for an empty input.  HL_UNSUPPORTED for LZO or
 * an unknown codec, HL_NOMEM, HL_INTERNAL if a library fails. */
hl_status_t hl_pq_compress(hl_parquet_codec_t codec, int level, const uint8_t *src, size_t src_len,
                           hl_buf_t *out, hl_error_t *err);

/* CRC-32 (zlib's polynomial, as PageHeader.crc requires) of DATA[0..len).
 * Chain with hl_pq_crc32_update starting from hl_pq_crc32(NULL, 0). */
uint32_t hl_pq_crc32(const void *data, size_t len);
uint32_t hl_pq_crc32_update(uint32_t crc, const void *data, size_t len);

#endif
