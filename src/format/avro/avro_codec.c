/*
 * avro_codec.c -- the block codecs of Avro container files.
 *
 *   null       the block as it is
 *   deflate    raw deflate (RFC 1951, no zlib header), zlib
 *   snappy     a Snappy block followed by the big-endian CRC-32 of the
 *              uncompressed bytes (checked); util/snappy_dec.c decodes,
 *              libsnappy encodes
 *   zstandard  one or more zstd frames, libzstd's streaming decoder (Java
 *              writers do not always record the content size)
 *   xz         an .xz stream, liblzma ("lzma" is Avro C's name for it)
 *   bzip2      a .bz2 stream, libbz2
 *
 * Invariant: no decoder produces more than MAX bytes; output beyond it,
 * truncated or trailing data is HL_CORRUPT.
 */
#include "format/avro/avro_int.h"

#include "util/mem.h"
#include "util/snappy_dec.h"

#include <bzlib.h>
#include <lzma.h>
#include <snappy-c.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

static hl_status_t corrupt(hl_error_t *err, const char *codec, const char *why) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s block: %s", codec, why);
}

static hl_status_t too_big(hl_error_t *err, const char *codec) {
  return corrupt(err, codec, "decompressed block is larger than the limit");
}

/* Room for at least 64 KiB more output (doubling), capped near MAX. */
static int grow(hl_buf_t *out, size_t max) {
  if (out->cap - out->len >= 4096) return 0;
  size_t want = out->cap ? out->cap : 65536;
  if (out->len + want > max + 1) want = max + 1 - out->len;
  if (want < 4096) want = 4096;
  return hl_buf_reserve(out, want);
}

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  return hl_calloc(items, size);
}

static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  hl_free(p);
}

static hl_status_t inflate_raw(const uint8_t *src, size_t n, size_t max, hl_buf_t *out,
                               hl_error_t *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  zs.zalloc = z_alloc;
  zs.zfree = z_free;
  if (inflateInit2(&zs, -15) != Z_OK) return hl_err_nomem(err);
  zs.next_in = (Bytef *)src;
  zs.avail_in = (uInt)n;
  hl_status_t st = HL_OK;
  for (;;) {
    if (grow(out, max) < 0) {
      st = hl_err_nomem(err);
      break;
    }
    size_t room = out->cap - out->len;
    zs.next_out = (Bytef *)out->data + out->len;
    zs.avail_out = (uInt)(room > (1u << 30) ? (1u << 30) : room);
    uInt before = zs.avail_out;
    int zr = inflate(&zs, Z_NO_FLUSH);
    out->len += before - zs.avail_out;
    if (out->len > max) {
      st = too_big(err, "deflate");
      break;
    }
    if (zr == Z_STREAM_END) break; /* Java's Deflater may leave padding: ignored */
    if (zr == Z_MEM_ERROR) {
      st = hl_err_nomem(err);
      break;
    }
    if (zr != Z_OK || (zs.avail_in == 0 && zs.avail_out != 0)) {
      st = corrupt(err, "deflate", "corrupt or truncated data");
      break;
    }
  }
  inflateEnd(&zs);
  return st;
}

static hl_status_t unsnappy(const uint8_t *src, size_t n, size_t max, hl_buf_t *out,
                            hl_error_t *err) {
  size_t len;
  if (n < 4 || !hl_snappy_length(src, n - 4, &len)) return corrupt(err, "snappy", "bad header");
  if (len > max) return too_big(err, "snappy");
  if (hl_buf_reserve(out, len + 1) < 0) return hl_err_nomem(err);
  if (!hl_snappy_uncompress(src, n - 4, (uint8_t *)out->data, len))
    return corrupt(err, "snappy", "corrupt data");
  out->len = len;
  const uint8_t *c = src + n - 4;
  uint32_t want = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
  if ((uint32_t)crc32(0, (const Bytef *)out->data, (uInt)len) != want)
    return corrupt(err, "snappy", "CRC-32 mismatch");
  return HL_OK;
}

static hl_status_t unzstd(const uint8_t *src, size_t n, size_t max, hl_buf_t *out,
                          hl_error_t *err) {
  ZSTD_DStream *ds = ZSTD_createDStream();
  if (!ds) return hl_err_nomem(err);
  ZSTD_inBuffer in = {src, n, 0};
  hl_status_t st = HL_OK;
  for (;;) {
    if (grow(out, max) < 0) {
      st = hl_err_nomem(err);
      break;
    }
    ZSTD_outBuffer ob = {out->data + out->len, out->cap - out->len, 0};
    size_t zr = ZSTD_decompressStream(ds, &ob, &in);
    if (ZSTD_isError(zr)) {
      st = corrupt(err, "zstandard", ZSTD_getErrorName(zr));
      break;
    }
    out->len += ob.pos;
    if (out->len > max) {
      st = too_big(err, "zstandard");
      break;
    }
    if (zr == 0 && in.pos == in.size) break; /* every frame complete */
    if (in.pos == in.size && ob.pos < ob.size) {
      st = corrupt(err, "zstandard", "truncated data");
      break;
    }
  }
  ZSTD_freeDStream(ds);
  return st;
}

static hl_status_t unxz(const uint8_t *src, size_t n, size_t max, hl_buf_t *out, hl_error_t *err) {
  lzma_stream ls = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&ls, UINT64_MAX, 0) != LZMA_OK) return hl_err_nomem(err);
  ls.next_in = src;
  ls.avail_in = n;
  hl_status_t st = HL_OK;
  for (;;) {
    if (grow(out, max) < 0) {
      st = hl_err_nomem(err);
      break;
    }
    ls.next_out = (uint8_t *)out->data + out->len;
    ls.avail_out = out->cap - out->len;
    size_t before = ls.avail_out;
    lzma_ret lr = lzma_code(&ls, LZMA_FINISH);
    out->len += before - ls.avail_out;
    if (out->len > max) {
      st = too_big(err, "xz");
      break;
    }
    if (lr == LZMA_STREAM_END) break;
    if (lr == LZMA_MEM_ERROR) {
      st = hl_err_nomem(err);
      break;
    }
    if (lr != LZMA_OK) {
      st = corrupt(err, "xz", "corrupt or truncated data");
      break;
    }
  }
  lzma_end(&ls);
  return st;
}

static hl_status_t unbz2(const uint8_t *src, size_t n, size_t max, hl_buf_t *out, hl_error_t *err) {
  bz_stream bs;
  memset(&bs, 0, sizeof bs);
  if (BZ2_bzDecompressInit(&bs, 0, 0) != BZ_OK) return hl_err_nomem(err);
  bs.next_in = (char *)src;
  bs.avail_in = (unsigned)n;
  hl_status_t st = HL_OK;
  for (;;) {
    if (grow(out, max) < 0) {
      st = hl_err_nomem(err);
      break;
    }
    size_t room = out->cap - out->len;
    bs.next_out = out->data + out->len;
    bs.avail_out = (unsigned)(room > (1u << 30) ? (1u << 30) : room);
    unsigned before = bs.avail_out;
    int br = BZ2_bzDecompress(&bs);
    out->len += before - bs.avail_out;
    if (out->len > max) {
      st = too_big(err, "bzip2");
      break;
    }
    if (br == BZ_STREAM_END) break;
    if (br == BZ_MEM_ERROR) {
      st = hl_err_nomem(err);
      break;
    }
    if (br != BZ_OK || (bs.avail_in == 0 && bs.avail_out != 0)) {
      st = corrupt(err, "bzip2", "corrupt or truncated data");
      break;
    }
  }
  BZ2_bzDecompressEnd(&bs);
  return st;
}

hl_status_t hl_avro_decompress(hl_avro_codec_t codec, const uint8_t *src, size_t n, size_t max,
                               hl_buf_t *out, hl_error_t *err) {
  hl_buf_reset(out);
  switch (codec) {
  case HL_AVRO_NULL:
    if (n > max) return too_big(err, "null");
    hl_buf_append(out, src, n);
    return out->oom ? hl_err_nomem(err) : HL_OK;
  case HL_AVRO_DEFLATE:
    return inflate_raw(src, n, max, out, err);
  case HL_AVRO_SNAPPY:
    return unsnappy(src, n, max, out, err);
  case HL_AVRO_ZSTD:
    return unzstd(src, n, max, out, err);
  case HL_AVRO_XZ:
    return unxz(src, n, max, out, err);
  case HL_AVRO_BZIP2:
    return unbz2(src, n, max, out, err);
  }
  return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown Avro codec %d", (int)codec);
}

/* ------------------------------------------------------------ compression */

static hl_status_t deflate_raw(int level, const uint8_t *src, size_t n, hl_buf_t *out,
                               hl_error_t *err) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  zs.zalloc = z_alloc;
  zs.zfree = z_free;
  if (deflateInit2(&zs, level ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    return hl_err_nomem(err);
  size_t bound = deflateBound(&zs, (uLong)n);
  hl_status_t st = HL_OK;
  if (hl_buf_reserve(out, bound + 1) < 0) {
    st = hl_err_nomem(err);
  } else {
    zs.next_in = (Bytef *)src;
    zs.avail_in = (uInt)n;
    zs.next_out = (Bytef *)out->data + out->len;
    zs.avail_out = (uInt)bound;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
      st = hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "deflate failed");
    else
      out->len += bound - zs.avail_out;
  }
  deflateEnd(&zs);
  return st;
}

hl_status_t hl_avro_compress(hl_avro_codec_t codec, int level, const uint8_t *src, size_t n,
                             hl_buf_t *out, hl_error_t *err) {
  switch (codec) {
  case HL_AVRO_NULL:
    hl_buf_append(out, src, n);
    break;
  case HL_AVRO_DEFLATE:
    return deflate_raw(level, src, n, out, err);
  case HL_AVRO_SNAPPY: {
    size_t bound = snappy_max_compressed_length(n);
    if (hl_buf_reserve(out, bound + 5) < 0) return hl_err_nomem(err);
    size_t got = bound;
    if (snappy_compress((const char *)src, n, out->data + out->len, &got) != SNAPPY_OK)
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "snappy compression failed");
    out->len += got;
    uint32_t c = (uint32_t)crc32(0, src, (uInt)n);
    uint8_t b[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
    hl_buf_append(out, b, 4);
    break;
  }
  case HL_AVRO_ZSTD: {
    size_t bound = ZSTD_compressBound(n);
    if (hl_buf_reserve(out, bound + 1) < 0) return hl_err_nomem(err);
    size_t got = ZSTD_compress(out->data + out->len, bound, src, n, level ? level : 3);
    if (ZSTD_isError(got))
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "zstd compression failed: %s",
                        ZSTD_getErrorName(got));
    out->len += got;
    break;
  }
  case HL_AVRO_XZ: {
    size_t bound = lzma_stream_buffer_bound(n);
    if (hl_buf_reserve(out, bound + 1) < 0) return hl_err_nomem(err);
    size_t pos = 0;
    if (lzma_easy_buffer_encode((uint32_t)(level ? level : 6), LZMA_CHECK_CRC64, NULL, src, n,
                                (uint8_t *)out->data + out->len, &pos, bound) != LZMA_OK)
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "xz compression failed");
    out->len += pos;
    break;
  }
  case HL_AVRO_BZIP2: {
    size_t bound = n + n / 100 + 601;
    if (hl_buf_reserve(out, bound + 1) < 0) return hl_err_nomem(err);
    unsigned got = (unsigned)bound;
    if (BZ2_bzBuffToBuffCompress(out->data + out->len, &got, (char *)src, (unsigned)n,
                                 level ? level : 9, 0, 0) != BZ_OK)
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "bzip2 compression failed");
    out->len += got;
    break;
  }
  }
  return out->oom ? hl_err_nomem(err) : HL_OK;
}
