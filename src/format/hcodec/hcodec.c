/*
 * hcodec.c -- Hadoop codec class names, and one whole buffer compressed
 * into / decompressed from one complete codec stream (see hcodec.h).
 *
 * SequenceFile and RCFile writers compress each value, block buffer, key
 * or column by a CompressionOutputStream between resetState() and
 * finish(), so every piece is a complete stream of its own: that is the
 * unit here.  The block framing follows BlockCompressorStream.write for
 * one write of the whole buffer: one block of the buffer's length, chunks
 * of at most hl_hcodec_block_max_input bytes each (a 0-byte buffer is the
 * block length 0 alone, as Hadoop's finish() writes it).
 *
 * Invariant: nothing decoded is trusted.  Output grows only up to MAX (the
 * caller's stated or largest plain size), zstd's window is capped, a block
 * chunk's lengths are checked before anything is allocated for it.
 */
#include "format/hcodec/hcodec.h"

#include "util/mem.h"

#include <bzlib.h>
#include <limits.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#define ZSTD_LEVEL     3  /* io.compression.codec.zstd.level default */
#define WINDOW_LOG_MAX 27 /* zstd frames needing a larger window are refused */

/* ---------------------------------------------------------------------- */
/* Names                                                                    */
/* ---------------------------------------------------------------------- */

static const struct {
  const char *cls;
  hl_hcodec_t codec;
} classes[] = {
    {"org.apache.hadoop.io.compress.DefaultCodec", HL_HCODEC_DEFLATE},
    {"org.apache.hadoop.io.compress.DeflateCodec", HL_HCODEC_DEFLATE},
    {"org.apache.hadoop.io.compress.GzipCodec", HL_HCODEC_GZIP},
    {"org.apache.hadoop.io.compress.BZip2Codec", HL_HCODEC_BZIP2},
    {"org.apache.hadoop.io.compress.SnappyCodec", HL_HCODEC_SNAPPY},
    {"org.apache.hadoop.io.compress.Lz4Codec", HL_HCODEC_LZ4},
    {"org.apache.hadoop.io.compress.ZStandardCodec", HL_HCODEC_ZSTD},
};

bool hl_hcodec_from_class(const char *name, hl_hcodec_t *out) {
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (strcmp(name, classes[i].cls) == 0) return *out = classes[i].codec, true;
  return false;
}

const char *hl_hcodec_from_name(const char *name, hl_hcodec_t *out) {
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (strcmp(name, classes[i].cls) == 0) return *out = classes[i].codec, classes[i].cls;
  for (hl_hcodec_t c = HL_HCODEC_GZIP; c <= HL_HCODEC_LZ4; c++)
    if (strcasecmp(name, hl_hcodec_name(c)) == 0) return *out = c, hl_hcodec_class(c);
  return NULL;
}

hl_status_t hl_hcodec_lookup(const char *path, const char *name, hl_hcodec_t *out,
                             hl_error_t *err) {
  if (hl_hcodec_from_class(name, out)) return HL_OK;
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "cannot read \"%s\": compression codec \"%s\" is not supported", path, name);
}

const char *hl_hcodec_class(hl_hcodec_t codec) {
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (classes[i].codec == codec) return classes[i].cls; /* DefaultCodec first */
  return NULL;
}

const char *hl_hcodec_name(hl_hcodec_t codec) {
  switch (codec) {
  case HL_HCODEC_GZIP:
    return "gzip";
  case HL_HCODEC_ZSTD:
    return "zstd";
  case HL_HCODEC_DEFLATE:
    return "deflate";
  case HL_HCODEC_BZIP2:
    return "bzip2";
  case HL_HCODEC_SNAPPY:
    return "snappy";
  case HL_HCODEC_LZ4:
    return "lz4";
  case HL_HCODEC_NONE:
    break;
  }
  return "uncompressed";
}

/* ---------------------------------------------------------------------- */
/* Allocators: the libraries' state goes through hl_malloc                  */
/* ---------------------------------------------------------------------- */

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  return hl_calloc(items, size);
}

static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  hl_free(p);
}

static void *bz_alloc(void *opaque, int items, int size) {
  (void)opaque;
  return hl_calloc((size_t)items, (size_t)size);
}

static void bz_free(void *opaque, void *p) {
  (void)opaque;
  hl_free(p);
}

/* ---------------------------------------------------------------------- */
/* Contexts                                                                 */
/* ---------------------------------------------------------------------- */

struct hl_hcodec_ctx {
  z_stream def; /* deflating: zlib or gzip framing (def_bits) */
  int def_bits;
  bool def_live;
  z_stream inf; /* inflating: either framing */
  bool inf_live;
  ZSTD_CCtx *zc;
  ZSTD_DCtx *zd;
};

hl_hcodec_ctx_t *hl_hcodec_ctx_new(void) {
  return hl_calloc(1, sizeof(hl_hcodec_ctx_t));
}

void hl_hcodec_ctx_free(hl_hcodec_ctx_t *cx) {
  if (!cx) return;
  if (cx->def_live) deflateEnd(&cx->def);
  if (cx->inf_live) inflateEnd(&cx->inf);
  ZSTD_freeCCtx(cx->zc);
  ZSTD_freeDCtx(cx->zd);
  hl_free(cx);
}

uint64_t hl_hcodec_ctx_mem(const hl_hcodec_ctx_t *cx) {
  if (!cx) return 0;
  /* zlib's deflate state at level 6 / memLevel 8 is about 268 KiB, its
   * inflate state with the window about 40 KiB (zlib's zconf.h formulas) */
  uint64_t n = sizeof *cx + (cx->def_live ? 268u << 10 : 0) + (cx->inf_live ? 40u << 10 : 0);
  return n + ZSTD_sizeof_CCtx(cx->zc) + ZSTD_sizeof_DCtx(cx->zd);
}

/* ---------------------------------------------------------------------- */
/* Compression                                                              */
/* ---------------------------------------------------------------------- */

static void put_be32(hl_buf_t *out, size_t v) {
  unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                        (unsigned char)v};
  hl_buf_append(out, b, 4);
}

static bool compress_zlib(hl_hcodec_ctx_t *cx, bool gzip, const void *src, size_t n,
                          hl_buf_t *out) {
  int bits = gzip ? 16 + MAX_WBITS : MAX_WBITS;
  if (cx->def_live && cx->def_bits != bits) {
    deflateEnd(&cx->def);
    cx->def_live = false;
  }
  if (cx->def_live) {
    if (deflateReset(&cx->def) != Z_OK) return false;
  } else {
    memset(&cx->def, 0, sizeof cx->def);
    cx->def.zalloc = z_alloc;
    cx->def.zfree = z_free;
    if (deflateInit2(&cx->def, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
      out->oom = 1;
      return true;
    }
    cx->def_live = true;
    cx->def_bits = bits;
  }
  z_stream *zs = &cx->def;
  size_t bound = deflateBound(zs, (uLong)n) + 32;
  if (hl_buf_reserve(out, bound) < 0) {
    out->oom = 1;
    return true;
  }
  zs->next_in = (Bytef *)src;
  zs->avail_in = (uInt)n;
  zs->next_out = (Bytef *)out->data + out->len;
  zs->avail_out = (uInt)bound;
  if (deflate(zs, Z_FINISH) != Z_STREAM_END) return false;
  out->len += bound - zs->avail_out;
  return true;
}

static bool compress_bzip2(const void *src, size_t n, hl_buf_t *out) {
  size_t bound = n + n / 100 + 600; /* libbz2's documented worst case */
  if (hl_buf_reserve(out, bound) < 0) {
    out->oom = 1;
    return true;
  }
  bz_stream bz;
  memset(&bz, 0, sizeof bz);
  bz.bzalloc = bz_alloc;
  bz.bzfree = bz_free;
  if (BZ2_bzCompressInit(&bz, 9, 0, 0) != BZ_OK) { /* BZip2Codec: block size 900k */
    out->oom = 1;
    return true;
  }
  bz.next_in = (char *)src;
  bz.avail_in = (unsigned)n;
  bz.next_out = out->data + out->len;
  bz.avail_out = (unsigned)bound;
  int r = BZ2_bzCompress(&bz, BZ_FINISH);
  bool ok = r == BZ_STREAM_END;
  if (ok) out->len += bound - bz.avail_out;
  BZ2_bzCompressEnd(&bz);
  return ok;
}

static bool compress_zstd(hl_hcodec_ctx_t *cx, const void *src, size_t n, hl_buf_t *out) {
  if (!cx->zc && !(cx->zc = ZSTD_createCCtx())) {
    out->oom = 1;
    return true;
  }
  size_t bound = ZSTD_compressBound(n);
  if (hl_buf_reserve(out, bound) < 0) {
    out->oom = 1;
    return true;
  }
  size_t r = ZSTD_compressCCtx(cx->zc, out->data + out->len, bound, src, n, ZSTD_LEVEL);
  if (ZSTD_isError(r)) return false;
  out->len += r;
  return true;
}

static bool compress_blocks(hl_hcodec_t codec, const char *src, size_t n, hl_buf_t *out) {
  put_be32(out, n); /* callers keep buffers below 2 GiB */
  size_t step = hl_hcodec_block_max_input(codec);
  for (size_t off = 0; off < n && !out->oom; off += step) {
    size_t len = n - off < step ? n - off : step;
    size_t cap = hl_hcodec_block_bound(codec, len);
    if (hl_buf_reserve(out, 4 + cap) < 0) {
      out->oom = 1;
      break;
    }
    size_t clen = 0;
    if (!hl_hcodec_block_compress(codec, src + off, len, out->data + out->len + 4, cap, &clen))
      return false;
    unsigned char *p = (unsigned char *)out->data + out->len;
    p[0] = (unsigned char)(clen >> 24);
    p[1] = (unsigned char)(clen >> 16);
    p[2] = (unsigned char)(clen >> 8);
    p[3] = (unsigned char)clen;
    out->len += 4 + clen;
  }
  return true;
}

static bool compress_with(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const void *src, size_t n,
                          hl_buf_t *out) {
  switch (codec) {
  case HL_HCODEC_DEFLATE:
    return compress_zlib(cx, false, src, n, out);
  case HL_HCODEC_GZIP:
    return compress_zlib(cx, true, src, n, out);
  case HL_HCODEC_BZIP2:
    return compress_bzip2(src, n, out); /* libbz2 has no reset */
  case HL_HCODEC_ZSTD:
    return compress_zstd(cx, src, n, out);
  case HL_HCODEC_SNAPPY:
  case HL_HCODEC_LZ4:
    return compress_blocks(codec, src, n, out);
  case HL_HCODEC_NONE:
    hl_buf_append(out, src, n);
    return true;
  }
  return false;
}

bool hl_hcodec_compress(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const void *src, size_t n,
                        hl_buf_t *out) {
  if (n > (size_t)INT32_MAX) return false; /* the formats' lengths are Java ints */
  if (!src) src = "";
  if (cx) return compress_with(cx, codec, src, n, out);
  hl_hcodec_ctx_t one;
  memset(&one, 0, sizeof one);
  bool ok = compress_with(&one, codec, src, n, out);
  if (one.def_live) deflateEnd(&one.def);
  ZSTD_freeCCtx(one.zc);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* Decompression                                                            */
/* ---------------------------------------------------------------------- */

static hl_status_t corrupt(hl_hcodec_t codec, const char *path, const char *why, hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "cannot read \"%s\": corrupt %s data%s",
                    path ? path : "?", hl_hcodec_name(codec), why);
}

/* Makes room for more output in OUT, never beyond MAX + 1 bytes (one past
 * the limit tells a stream that is too large); *ROOM gets the bytes free. */
static hl_status_t more_room(hl_buf_t *out, size_t max, size_t *room, hl_error_t *err) {
  size_t limit = max + 1;
  if (out->cap - out->len >= 4096 || out->cap >= limit) {
    *room = out->cap - out->len;
    if (out->len + *room > limit) *room = limit - out->len;
    return HL_OK;
  }
  size_t want = out->cap ? out->cap : 65536;
  if (out->len + want > limit) want = limit - out->len;
  if (hl_buf_reserve(out, want) < 0) return hl_err_nomem(err);
  *room = out->cap - out->len;
  if (out->len + *room > limit) *room = limit - out->len;
  return HL_OK;
}

static hl_status_t inflate_all(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const char *path,
                               const unsigned char *src, size_t n, size_t max, hl_buf_t *out,
                               hl_error_t *err) {
  if (cx->inf_live) {
    if (inflateReset(&cx->inf) != Z_OK) return corrupt(codec, path, "", err);
  } else {
    memset(&cx->inf, 0, sizeof cx->inf);
    cx->inf.zalloc = z_alloc;
    cx->inf.zfree = z_free;
    /* zlib or gzip headers, whichever the stream has (Hadoop's zlib
     * decompressor detects them too) */
    if (inflateInit2(&cx->inf, 32 + MAX_WBITS) != Z_OK) return hl_err_nomem(err);
    cx->inf_live = true;
  }
  z_stream *zs = &cx->inf;
  zs->next_in = (Bytef *)src;
  zs->avail_in = (uInt)n; /* n <= INT32_MAX, checked by the caller */
  hl_status_t st = HL_OK;
  for (;;) {
    size_t room = 0;
    if ((st = more_room(out, max, &room, err)) != HL_OK) break;
    zs->next_out = (Bytef *)out->data + out->len;
    zs->avail_out = (uInt)(room > (1u << 30) ? (1u << 30) : room);
    uInt before = zs->avail_out;
    int zr = inflate(zs, Z_NO_FLUSH);
    out->len += before - zs->avail_out;
    if (out->len > max) {
      st = corrupt(codec, path, " (larger than its stated size)", err);
      break;
    }
    if (zr == Z_STREAM_END) {
      if (zs->avail_in == 0) break;
      if (inflateReset(zs) != Z_OK) { /* another member follows */
        st = corrupt(codec, path, "", err);
        break;
      }
      continue;
    }
    if (zr == Z_MEM_ERROR) {
      st = hl_err_nomem(err);
      break;
    }
    if (zr != Z_OK || (zs->avail_in == 0 && zs->avail_out != 0)) {
      st = corrupt(codec, path, zs->avail_in == 0 ? " (truncated)" : "", err);
      break;
    }
  }
  return st;
}

static hl_status_t bunzip_all(const char *path, const unsigned char *src, size_t n, size_t max,
                              hl_buf_t *out, hl_error_t *err) {
  size_t pos = 0;
  hl_status_t st = HL_OK;
  while (pos < n && st == HL_OK) { /* one bzip2 stream after another */
    bz_stream bz;
    memset(&bz, 0, sizeof bz);
    bz.bzalloc = bz_alloc;
    bz.bzfree = bz_free;
    if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) return hl_err_nomem(err);
    bz.next_in = (char *)src + pos;
    bz.avail_in = (unsigned)(n - pos);
    for (;;) {
      size_t room = 0;
      if ((st = more_room(out, max, &room, err)) != HL_OK) break;
      bz.next_out = out->data + out->len;
      bz.avail_out = (unsigned)(room > (1u << 30) ? (1u << 30) : room);
      unsigned before = bz.avail_out;
      int r = BZ2_bzDecompress(&bz);
      out->len += before - bz.avail_out;
      if (out->len > max) {
        st = corrupt(HL_HCODEC_BZIP2, path, " (larger than its stated size)", err);
        break;
      }
      if (r == BZ_STREAM_END) break;
      if (r == BZ_MEM_ERROR) {
        st = hl_err_nomem(err);
        break;
      }
      if (r != BZ_OK || (bz.avail_in == 0 && bz.avail_out != 0)) {
        st = corrupt(HL_HCODEC_BZIP2, path, bz.avail_in == 0 ? " (truncated)" : "", err);
        break;
      }
    }
    pos = n - bz.avail_in;
    BZ2_bzDecompressEnd(&bz);
  }
  return st;
}

static hl_status_t unzstd_all(hl_hcodec_ctx_t *cx, const char *path, const unsigned char *src,
                              size_t n, size_t max, hl_buf_t *out, hl_error_t *err) {
  if (!cx->zd) {
    if (!(cx->zd = ZSTD_createDCtx())) return hl_err_nomem(err);
    ZSTD_DCtx_setParameter(cx->zd, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
  } else {
    ZSTD_DCtx_reset(cx->zd, ZSTD_reset_session_only); /* keeps the window limit */
  }
  ZSTD_DCtx *zd = cx->zd;
  ZSTD_inBuffer in = {src, n, 0};
  size_t hint = 0;
  hl_status_t st = HL_OK;
  while (st == HL_OK) {
    size_t room = 0;
    if ((st = more_room(out, max, &room, err)) != HL_OK) break;
    ZSTD_outBuffer o = {out->data + out->len, room, 0};
    hint = ZSTD_decompressStream(zd, &o, &in);
    out->len += o.pos;
    if (ZSTD_isError(hint)) {
      st = corrupt(HL_HCODEC_ZSTD, path, "", err);
    } else if (out->len > max) {
      st = corrupt(HL_HCODEC_ZSTD, path, " (larger than its stated size)", err);
    } else if (in.pos == in.size && o.pos < o.size) {
      if (hint != 0) st = corrupt(HL_HCODEC_ZSTD, path, " (truncated)", err);
      break; /* all input read and the decoder has nothing more to give */
    }
  }
  return st;
}

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* BlockDecompressorStream: blocks of a plain length and chunks until the
 * block's bytes are all there; a 0-length block holds no chunk. */
static hl_status_t unblock_all(hl_hcodec_t codec, const char *path, const unsigned char *src,
                               size_t n, size_t max, hl_buf_t *out, hl_error_t *err) {
  size_t pos = 0;
  while (pos < n) {
    if (n - pos < 4) return corrupt(codec, path, " (truncated)", err);
    uint64_t block_left = be32(src + pos);
    pos += 4;
    if (block_left > INT32_MAX || block_left > max - out->len)
      return corrupt(codec, path, " (bad block length)", err);
    while (block_left > 0) {
      if (n - pos < 4) return corrupt(codec, path, " (truncated)", err);
      size_t clen = be32(src + pos);
      pos += 4;
      if (clen == 0 || clen > n - pos || clen > hl_hcodec_block_bound(codec, HL_HCODEC_BLOCK_MAX))
        return corrupt(codec, path, " (bad chunk length)", err);
      size_t cap = hl_hcodec_block_plain_cap(codec, src + pos, clen, block_left);
      if (cap == SIZE_MAX) return corrupt(codec, path, " (bad chunk length)", err);
      if (cap > 0 && hl_buf_reserve(out, cap) < 0) return hl_err_nomem(err);
      size_t got = 0;
      unsigned char none[1]; /* a chunk of no plain bytes: OUT may have no memory yet */
      unsigned char *dst = cap ? (unsigned char *)out->data + out->len : none;
      if (!hl_hcodec_block_decompress(codec, src + pos, clen, dst, cap, &got) || got > block_left)
        return corrupt(codec, path, "", err);
      out->len += got;
      block_left -= got;
      pos += clen;
    }
  }
  return HL_OK;
}

static hl_status_t decompress_with(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const char *path,
                                   const unsigned char *src, size_t n, size_t max, hl_buf_t *out,
                                   hl_error_t *err) {
  switch (codec) {
  case HL_HCODEC_DEFLATE:
  case HL_HCODEC_GZIP:
    return inflate_all(cx, codec, path, src, n, max, out, err);
  case HL_HCODEC_BZIP2:
    return bunzip_all(path, src, n, max, out, err);
  case HL_HCODEC_ZSTD:
    return unzstd_all(cx, path, src, n, max, out, err);
  case HL_HCODEC_SNAPPY:
  case HL_HCODEC_LZ4:
    return unblock_all(codec, path, src, n, max, out, err);
  case HL_HCODEC_NONE:
    break;
  }
  if (n > max) return corrupt(codec, path, " (larger than its stated size)", err);
  hl_buf_append(out, src, n);
  return out->oom ? hl_err_nomem(err) : HL_OK;
}

hl_status_t hl_hcodec_decompress(hl_hcodec_ctx_t *cx, hl_hcodec_t codec, const char *path,
                                 const unsigned char *src, size_t n, size_t max, hl_buf_t *out,
                                 hl_error_t *err) {
  hl_buf_reset(out);
  if (n > (size_t)INT32_MAX) return corrupt(codec, path, " (block too large)", err);
  if (n == 0) return HL_OK;   /* nothing written: nothing to read */
  if (max == SIZE_MAX) max--; /* more_room's one past the limit must not wrap */
  if (cx) return decompress_with(cx, codec, path, src, n, max, out, err);
  hl_hcodec_ctx_t one;
  memset(&one, 0, sizeof one);
  hl_status_t st = decompress_with(&one, codec, path, src, n, max, out, err);
  if (one.inf_live) inflateEnd(&one.inf);
  ZSTD_freeDCtx(one.zd);
  return st;
}
