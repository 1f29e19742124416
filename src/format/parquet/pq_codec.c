/*
 * pq_codec.c -- Parquet page codecs over Debian libraries (see pq_codec.h);
 * SNAPPY pages are decompressed by util/snappy_dec.c (it says why).
 *
 * Every decompressor writes into the caller's buffer of exactly the size the
 * page header gives and reports any other outcome (too much output, too
 * little, leftover or truncated input) as XX001.  zlib and brotli allocate
 * through hl_malloc (their allocator hooks are per stream); snappy, lz4 and
 * zstd's one-shot calls use the C allocator for their bounded scratch state.
 *
 * Spec: apache/parquet-format Compression.md.  The deprecated LZ4 codec is
 * the Hadoop BlockCompressorStream framing, a sequence of [4-byte big-endian
 * uncompressed size][4-byte big-endian compressed size][raw LZ4 block]; some
 * old writers put a bare LZ4 block there instead, so when the framing does
 * not account for the input exactly the whole input is tried as one block
 * (what parquet-testing's hadoop_lz4_compressed and
 * non_hadoop_lz4_compressed files need).
 */
#include "format/parquet/pq_codec.h"

#include "util/mem.h"
#include "util/snappy_dec.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <limits.h>
#include <lz4.h>
#include <snappy-c.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define GZIP_DEFAULT_LEVEL   6
#define BROTLI_DEFAULT_LEVEL 8 /* Arrow's default: quality 11 is very slow */
#define BROTLI_WINDOW        22

const char *hl_pq_codec_name(hl_parquet_codec_t codec) {
  switch (codec) {
  case HL_PQ_UNCOMPRESSED:
    return "UNCOMPRESSED";
  case HL_PQ_SNAPPY:
    return "SNAPPY";
  case HL_PQ_GZIP:
    return "GZIP";
  case HL_PQ_LZO:
    return "LZO";
  case HL_PQ_BROTLI:
    return "BROTLI";
  case HL_PQ_LZ4:
    return "LZ4";
  case HL_PQ_ZSTD:
    return "ZSTD";
  case HL_PQ_LZ4_RAW:
    return "LZ4_RAW";
  }
  return "?";
}

bool hl_pq_codec_supported(hl_parquet_codec_t codec) {
  switch (codec) {
  case HL_PQ_UNCOMPRESSED:
  case HL_PQ_SNAPPY:
  case HL_PQ_GZIP:
  case HL_PQ_BROTLI:
  case HL_PQ_LZ4:
  case HL_PQ_ZSTD:
  case HL_PQ_LZ4_RAW:
    return true;
  case HL_PQ_LZO:
    break;
  }
  return false;
}

static hl_status_t unsupported(hl_parquet_codec_t codec, hl_error_t *err) {
  if (codec == HL_PQ_LZO) {
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "Parquet compression codec \"LZO\" is not supported");
  }
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "unknown Parquet compression codec %d", (int)codec);
}

static hl_status_t corrupt(hl_parquet_codec_t codec, hl_error_t *err, const char *why) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "corrupt %s page data: %s",
                    hl_pq_codec_name(codec), why);
}

/* ------------------------------------------------------------- allocators */

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  return hl_calloc(items, size);
}

static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  hl_free(p);
}

static void *br_alloc(void *opaque, size_t size) {
  (void)opaque;
  return hl_malloc(size);
}

static void br_free(void *opaque, void *p) {
  (void)opaque;
  hl_free(p);
}

/* ------------------------------------------------------------- decompress */

/* GZIP: one or more gzip members (zlib streams are accepted too) whose
 * output, concatenated, fills DST exactly. */
static hl_status_t gunzip(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                          hl_error_t *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  zs.zalloc = z_alloc;
  zs.zfree = z_free;
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return hl_err_nomem(err);
  uint8_t dummy;
  zs.next_in = (Bytef *)src;
  zs.avail_in = (uInt)src_len;
  zs.next_out = dst_len ? dst : &dummy;
  zs.avail_out = (uInt)dst_len;
  hl_status_t st = HL_OK;
  for (;;) {
    int rc = inflate(&zs, Z_FINISH);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      /* Another member follows (concatenated gzip). */
      if (inflateReset(&zs) != Z_OK) {
        st = corrupt(HL_PQ_GZIP, err, "bad member");
        break;
      }
      continue;
    }
    if (rc == Z_MEM_ERROR) {
      st = hl_err_nomem(err);
    } else if (rc == Z_BUF_ERROR && zs.avail_out == 0 && zs.avail_in > 0) {
      st = corrupt(HL_PQ_GZIP, err, "more data than the page size");
    } else if (rc == Z_BUF_ERROR || rc == Z_OK) {
      st = corrupt(HL_PQ_GZIP, err, "truncated stream");
    } else {
      st = corrupt(HL_PQ_GZIP, err, zs.msg ? zs.msg : "bad stream");
    }
    break;
  }
  if (st == HL_OK && zs.avail_out != 0)
    st = corrupt(HL_PQ_GZIP, err, "less data than the page size");
  inflateEnd(&zs);
  return st;
}

static hl_status_t unbrotli(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                            hl_error_t *err) {
  BrotliDecoderState *s = BrotliDecoderCreateInstance(br_alloc, br_free, NULL);
  if (!s) return hl_err_nomem(err);
  size_t avail_in = src_len, avail_out = dst_len;
  const uint8_t *next_in = src;
  uint8_t *next_out = dst;
  BrotliDecoderResult rc =
      BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
  hl_status_t st = HL_OK;
  if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
    st = corrupt(HL_PQ_BROTLI, err, "more data than the page size");
  } else if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
    st = corrupt(HL_PQ_BROTLI, err, "truncated stream");
  } else if (rc != BROTLI_DECODER_RESULT_SUCCESS) {
    st = corrupt(HL_PQ_BROTLI, err, BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s)));
  } else if (avail_out != 0) {
    st = corrupt(HL_PQ_BROTLI, err, "less data than the page size");
  } else if (avail_in != 0) {
    st = corrupt(HL_PQ_BROTLI, err, "data after the end of the stream");
  }
  BrotliDecoderDestroyInstance(s);
  return st;
}

static bool lz4_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len) {
  if (src_len > INT_MAX || dst_len > INT_MAX) return false;
  int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_len, (int)dst_len);
  return n >= 0 && (size_t)n == dst_len;
}

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Hadoop framing; false when the input is not exactly a sequence of frames
 * filling DST. */
static bool lz4_hadoop(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len) {
  size_t out = 0;
  while (src_len >= 8) {
    uint32_t usize = be32(src), csize = be32(src + 4);
    src += 8;
    src_len -= 8;
    if (csize > src_len || usize > dst_len - out) return false;
    if (!lz4_block(src, csize, dst + out, usize)) return false;
    src += csize;
    src_len -= csize;
    out += usize;
  }
  return src_len == 0 && out == dst_len;
}

hl_status_t hl_pq_decompress(hl_parquet_codec_t codec, const uint8_t *src, size_t src_len,
                             uint8_t *dst, size_t dst_len, hl_error_t *err) {
  if (!hl_pq_codec_supported(codec)) return unsupported(codec, err);
  /* Pages are at most INT32_MAX bytes (PageHeader sizes are i32); this
   * also keeps zlib's and lz4's int lengths exact. */
  if (src_len > INT_MAX || dst_len > INT_MAX) return corrupt(codec, err, "page too large");
  switch (codec) {
  case HL_PQ_UNCOMPRESSED:
    if (src_len != dst_len) return corrupt(codec, err, "size differs from the page size");
    if (dst_len) memmove(dst, src, dst_len);
    return HL_OK;
  case HL_PQ_SNAPPY: { /* util/snappy_dec.h says why not libsnappy */
    size_t n;
    if (!hl_snappy_length(src, src_len, &n)) return corrupt(codec, err, "bad length header");
    if (n != dst_len) return corrupt(codec, err, "size differs from the page size");
    if (!hl_snappy_uncompress(src, src_len, dst, dst_len)) return corrupt(codec, err, "bad stream");
    return HL_OK;
  }
  case HL_PQ_GZIP:
    return gunzip(src, src_len, dst, dst_len, err);
  case HL_PQ_BROTLI:
    return unbrotli(src, src_len, dst, dst_len, err);
  case HL_PQ_ZSTD: {
    uint8_t dummy;
    size_t n = ZSTD_decompress(dst_len ? dst : &dummy, dst_len, src, src_len);
    if (ZSTD_isError(n)) {
      if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
        return corrupt(codec, err, "more data than the page size");
      }
      return corrupt(codec, err, ZSTD_getErrorName(n));
    }
    if (n != dst_len) return corrupt(codec, err, "less data than the page size");
    return HL_OK;
  }
  case HL_PQ_LZ4_RAW:
    if (dst_len == 0 && src_len <= 1) return HL_OK; /* an empty block is one 0 token or nothing */
    if (!lz4_block(src, src_len, dst, dst_len)) {
      return corrupt(codec, err, "bad block or size differs from the page size");
    }
    return HL_OK;
  case HL_PQ_LZ4:
    /* an empty page: no frame (ours, Arrow's), or Hadoop's
     * BlockCompressorStream form, the uncompressed length 0 and no chunk */
    if (dst_len == 0 && (src_len == 0 || (src_len == 4 && be32(src) == 0))) return HL_OK;
    if (lz4_hadoop(src, src_len, dst, dst_len)) return HL_OK;
    if (lz4_block(src, src_len, dst, dst_len)) return HL_OK;
    return corrupt(codec, err, "neither Hadoop-framed nor a raw block of the page size");
  case HL_PQ_LZO:
    break;
  }
  return unsupported(codec, err);
}

/* ------------------------------------------------------------- compress */

/* Reserves CAP bytes at the end of OUT; NULL on OOM. */
static uint8_t *out_reserve(hl_buf_t *out, size_t cap) {
  if (hl_buf_reserve(out, cap) != 0) return NULL;
  return (uint8_t *)out->data + out->len;
}

/* Takes N bytes written at the reserved end into OUT (keeping the NUL the
 * buffer maintains; reserve left room for it). */
static void out_commit(hl_buf_t *out, size_t n) {
  out->len += n;
  out->data[out->len] = '\0';
}

static hl_status_t lib_failed(hl_parquet_codec_t codec, hl_error_t *err) {
  return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "%s compression failed",
                    hl_pq_codec_name(codec));
}

static hl_status_t gzip_compress(int level, const uint8_t *src, size_t src_len, hl_buf_t *out,
                                 hl_error_t *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  zs.zalloc = z_alloc;
  zs.zfree = z_free;
  if (deflateInit2(&zs, level ? level : GZIP_DEFAULT_LEVEL, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return hl_err_nomem(err);
  }
  size_t cap = deflateBound(&zs, (uLong)src_len) + 32;
  uint8_t *dst = out_reserve(out, cap);
  hl_status_t st = HL_OK;
  if (!dst) {
    st = hl_err_nomem(err);
  } else {
    zs.next_in = (Bytef *)src;
    zs.avail_in = (uInt)src_len;
    zs.next_out = dst;
    zs.avail_out = (uInt)cap;
    int rc = deflate(&zs, Z_FINISH);
    if (rc == Z_STREAM_END) {
      out_commit(out, cap - zs.avail_out);
    } else {
      st = rc == Z_MEM_ERROR ? hl_err_nomem(err) : lib_failed(HL_PQ_GZIP, err);
    }
  }
  deflateEnd(&zs);
  return st;
}

static hl_status_t lz4_compress(hl_parquet_codec_t codec, const uint8_t *src, size_t src_len,
                                hl_buf_t *out, hl_error_t *err) {
  /* Hadoop framing of nothing: no frame.  A frame of an empty block (its
   * one 0x00 token, compressed length 1) is not read by every reader
   * (hyparquet's block decoder wants a match offset after it), and a frame
   * with compressed length 0 is no LZ4 block at all; zero frames is what
   * Arrow's, hyparquet's and our readers take for an empty page. */
  if (codec == HL_PQ_LZ4 && src_len == 0) return HL_OK;
  size_t header = codec == HL_PQ_LZ4 ? 8 : 0;
  int bound = LZ4_compressBound((int)src_len);
  if (bound <= 0) return lib_failed(codec, err);
  uint8_t *dst = out_reserve(out, header + (size_t)bound);
  if (!dst) return hl_err_nomem(err);
  int n = LZ4_compress_default((const char *)src, (char *)dst + header, (int)src_len, bound);
  if (n <= 0) return lib_failed(codec, err);
  if (header) {
    uint32_t sizes[2] = {(uint32_t)src_len, (uint32_t)n};
    for (int i = 0; i < 2; i++) {
      dst[4 * i] = (uint8_t)(sizes[i] >> 24);
      dst[4 * i + 1] = (uint8_t)(sizes[i] >> 16);
      dst[4 * i + 2] = (uint8_t)(sizes[i] >> 8);
      dst[4 * i + 3] = (uint8_t)sizes[i];
    }
  }
  out_commit(out, header + (size_t)n);
  return HL_OK;
}

hl_status_t hl_pq_compress(hl_parquet_codec_t codec, int level, const uint8_t *src, size_t src_len,
                           hl_buf_t *out, hl_error_t *err) {
  if (!hl_pq_codec_supported(codec)) return unsupported(codec, err);
  if (src_len > INT_MAX) {
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "Parquet page of %zu bytes is too large", src_len);
  }
  if (out->oom) return hl_err_nomem(err);
  switch (codec) {
  case HL_PQ_UNCOMPRESSED:
    hl_buf_append(out, src, src_len);
    return out->oom ? hl_err_nomem(err) : HL_OK;
  case HL_PQ_SNAPPY: {
    size_t cap = snappy_max_compressed_length(src_len);
    uint8_t *dst = out_reserve(out, cap);
    if (!dst) return hl_err_nomem(err);
    if (snappy_compress((const char *)src, src_len, (char *)dst, &cap) != SNAPPY_OK) {
      return lib_failed(codec, err);
    }
    out_commit(out, cap);
    return HL_OK;
  }
  case HL_PQ_GZIP:
    return gzip_compress(level, src, src_len, out, err);
  case HL_PQ_BROTLI: {
    size_t cap = BrotliEncoderMaxCompressedSize(src_len);
    if (cap == 0) cap = src_len + 1024; /* the bound overflowed; the call checks */
    uint8_t *dst = out_reserve(out, cap);
    if (!dst) return hl_err_nomem(err);
    if (!BrotliEncoderCompress(level ? level : BROTLI_DEFAULT_LEVEL, BROTLI_WINDOW,
                               BROTLI_MODE_GENERIC, src_len, src, &cap, dst)) {
      return lib_failed(codec, err);
    }
    out_commit(out, cap);
    return HL_OK;
  }
  case HL_PQ_ZSTD: {
    size_t cap = ZSTD_compressBound(src_len);
    uint8_t *dst = out_reserve(out, cap);
    if (!dst) return hl_err_nomem(err);
    size_t n = ZSTD_compress(dst, cap, src, src_len, level ? level : ZSTD_CLEVEL_DEFAULT);
    if (ZSTD_isError(n)) return lib_failed(codec, err);
    out_commit(out, n);
    return HL_OK;
  }
  case HL_PQ_LZ4:
  case HL_PQ_LZ4_RAW:
    return lz4_compress(codec, src, src_len, out, err);
  case HL_PQ_LZO:
    break;
  }
  return unsupported(codec, err);
}

/* ------------------------------------------------------------- CRC */

uint32_t hl_pq_crc32_update(uint32_t crc, const void *data, size_t len) {
  const Bytef *p = data;
  uLong c = crc;
  while (len > 0) {
    uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
    c = crc32(c, p, chunk);
    p += chunk;
    len -= chunk;
  }
  return (uint32_t)c;
}

uint32_t hl_pq_crc32(const void *data, size_t len) {
  return hl_pq_crc32_update((uint32_t)crc32(0L, Z_NULL, 0), data, len);
}
