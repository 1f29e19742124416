/*
 * hcodec_block.c -- the chunks of Hadoop's block framing (SnappyCodec,
 * Lz4Codec), compressed and decompressed one at a time.
 *
 * Hadoop's BlockCompressorStream writes a file as blocks: a 4-byte
 * big-endian count of the plain bytes the block holds, then one or more
 * chunks, each a 4-byte big-endian compressed length and that many bytes
 * of a raw Snappy or LZ4 block.  text_io.c walks that framing over the
 * storage file and hcodec.c over one buffer; this file only turns one chunk into plain bytes and
 * back, and says how much memory a chunk may claim before it is decoded, so that a hostile length
 * costs an error, not an allocation.
 */
#include "format/hcodec/hcodec.h"

#include "util/snappy_dec.h"

#include <limits.h>
#include <lz4.h>
#include <snappy-c.h>

/* What Hadoop's codecs compress per chunk with their default 256 KiB
 * buffer (io.compression.codec.{snappy,lz4}.buffersize): the buffer minus
 * the codec's worst-case overhead (SnappyCodec: size / 6 + 32; Lz4Codec:
 * size / 255 + 16), so a Hadoop reader's fixed buffer holds each chunk. */
#define HADOOP_BUFFER (256 * 1024)

size_t hl_hcodec_block_max_input(hl_hcodec_t codec) {
  return codec == HL_HCODEC_SNAPPY ? HADOOP_BUFFER - (HADOOP_BUFFER / 6 + 32)
                                   : HADOOP_BUFFER - (HADOOP_BUFFER / 255 + 16);
}

size_t hl_hcodec_block_bound(hl_hcodec_t codec, size_t plain_len) {
  return codec == HL_HCODEC_SNAPPY ? snappy_max_compressed_length(plain_len)
                                   : (size_t)LZ4_compressBound((int)plain_len);
}

bool hl_hcodec_block_compress(hl_hcodec_t codec, const char *src, size_t len, char *dst, size_t cap,
                              size_t *out_len) {
  if (codec == HL_HCODEC_SNAPPY) {
    *out_len = cap;
    return snappy_compress(src, len, dst, out_len) == SNAPPY_OK;
  }
  if (len > INT_MAX || cap > INT_MAX) return false;
  int n = LZ4_compress_default(src, dst, (int)len, (int)cap);
  *out_len = n > 0 ? (size_t)n : 0;
  return n > 0;
}

/* A Snappy chunk expands at most ~21x (a 3-byte copy yields 64 bytes), an
 * LZ4 one at most ~255x (each 255 of a length run is one byte); the plain
 * buffer of a chunk is never sized beyond that, whatever the block says. */
size_t hl_hcodec_block_plain_cap(hl_hcodec_t codec, const unsigned char *chunk, size_t clen,
                                 uint64_t block_left) {
  uint64_t cap = block_left < HL_HCODEC_BLOCK_MAX ? block_left : HL_HCODEC_BLOCK_MAX;
  if (codec == HL_HCODEC_SNAPPY) {
    size_t n = 0;
    if (!hl_snappy_length(chunk, clen, &n) || n > cap) return SIZE_MAX;
    return n; /* exactly what it declares */
  }
  uint64_t bound = (uint64_t)clen * 255 + 64;
  return (size_t)(bound < cap ? bound : cap);
}

bool hl_hcodec_block_decompress(hl_hcodec_t codec, const unsigned char *chunk, size_t clen,
                                unsigned char *dst, size_t cap, size_t *out_len) {
  *out_len = 0;
  if (codec == HL_HCODEC_SNAPPY) {
    if (!hl_snappy_uncompress(chunk, clen, dst, cap)) return false;
    *out_len = cap;
    return true;
  }
  if (clen > INT_MAX || cap > INT_MAX) return false;
  int n = LZ4_decompress_safe((const char *)chunk, (char *)dst, (int)clen, (int)cap);
  if (n < 0) return false;
  *out_len = (size_t)n;
  return true;
}
