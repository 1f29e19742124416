/*
 * orc_compress.c -- ORC compression chunks (hl_orc_compress of orc_enc.h).
 *
 * A compressed stream is a sequence of chunks, each at most the file's
 * compression block size before compression, each preceded by a 3-byte
 * little-endian header: (length << 1) | original, where ORIGINAL marks a
 * chunk stored uncompressed because compressing it did not make it
 * smaller.  ZLIB is raw deflate (no zlib header or checksum); SNAPPY and
 * LZ4 are raw blocks; ZSTD is a zstd frame.  The block codecs are the
 * Parquet writer's (parquet/pq_codec.h); raw deflate is here.
 *
 * Spec: ORC v1 "Compression".
 */
#include "format/orc/orc_enc.h"
#include "format/parquet/pq_codec.h"

#include <string.h>

#include <zlib.h>

static hl_status_t deflate_raw(const uint8_t *src, size_t n, hl_buf_t *out, hl_error_t *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "zlib deflateInit2 failed");
  size_t cap = deflateBound(&zs, (uLong)n);
  if (hl_buf_reserve(out, cap) != 0) {
    deflateEnd(&zs);
    return hl_err_nomem(err);
  }
  zs.next_in = (Bytef *)src;
  zs.avail_in = (uInt)n;
  zs.next_out = (Bytef *)out->data + out->len;
  zs.avail_out = (uInt)cap;
  int rc = deflate(&zs, Z_FINISH);
  size_t produced = cap - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "zlib deflate failed");
  out->len += produced;
  return HL_OK;
}

static hl_status_t compress_chunk(hl_orc_codec_t codec, const uint8_t *src, size_t n, hl_buf_t *out,
                                  hl_error_t *err) {
  switch (codec) {
  case HL_ORC_ZLIB:
    return deflate_raw(src, n, out, err);
  case HL_ORC_SNAPPY:
    return hl_pq_compress(HL_PQ_SNAPPY, 0, src, n, out, err);
  case HL_ORC_LZ4:
    return hl_pq_compress(HL_PQ_LZ4_RAW, 0, src, n, out, err);
  case HL_ORC_ZSTD:
    return hl_pq_compress(HL_PQ_ZSTD, 0, src, n, out, err);
  default:
    break;
  }
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "ORC compression kind %d is not supported for writing", (int)codec);
}

hl_status_t hl_orc_compress(hl_orc_codec_t codec, size_t block, const uint8_t *src, size_t n,
                            hl_buf_t *out, uint64_t *starts, hl_error_t *err) {
  size_t base = out->len, k_chunk = 0;
  if (codec == HL_ORC_NONE) {
    hl_buf_append(out, src, n);
    return out->oom ? hl_err_nomem(err) : HL_OK;
  }
  if (block == 0 || block > HL_ORC_MAX_CHUNK) block = HL_ORC_COMPRESS_SIZE;
  for (size_t off = 0; off < n; off += block) {
    size_t k = n - off < block ? n - off : block;
    size_t head = out->len;
    if (starts) starts[k_chunk++] = head - base;
    uint8_t hdr[3] = {0, 0, 0};
    hl_buf_append(out, hdr, 3);
    if (out->oom) return hl_err_nomem(err);
    hl_status_t st = compress_chunk(codec, src + off, k, out, err);
    if (st != HL_OK) return st;
    size_t clen = out->len - head - 3;
    uint32_t h;
    if (clen >= k) { /* not smaller: store the original bytes */
      out->len = head + 3;
      hl_buf_append(out, src + off, k);
      h = ((uint32_t)k << 1) | 1;
    } else {
      h = (uint32_t)clen << 1;
    }
    if (out->oom) return hl_err_nomem(err);
    out->data[head] = (char)(h & 0xff);
    out->data[head + 1] = (char)((h >> 8) & 0xff);
    out->data[head + 2] = (char)((h >> 16) & 0xff);
  }
  if (starts) starts[k_chunk] = out->len - base;
  return HL_OK;
}

int hl_orc_chunk_position(hl_orc_codec_t codec, size_t block, const uint64_t *starts, uint64_t off,
                          uint64_t pos[2]) {
  if (codec == HL_ORC_NONE) {
    pos[0] = off;
    return 1;
  }
  if (block == 0 || block > HL_ORC_MAX_CHUNK) block = HL_ORC_COMPRESS_SIZE;
  pos[0] = starts[off / block];
  pos[1] = off % block;
  return 2;
}
