/*
 * orc_codec.c -- ORC compression chunks and the byte streams built on them.
 *
 * A compressed ORC stream is a sequence of chunks, each behind a 3-byte
 * little-endian header: length << 1 | isOriginal.  An original chunk is
 * stored as is; any other chunk is one codec block (ZLIB = raw deflate,
 * SNAPPY, LZO = lzo1x, LZ4 = raw block, ZSTD = a frame) that inflates to at
 * most the file's compressionBlockSize.  A stream decompresses one chunk at
 * a time, so memory stays at one block per stream whatever the file says.
 */
#include "format/orc/orc_int.h"

#include "util/error.h"

#include <lz4.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

hl_status_t hl_orc_corrupt(hl_error_t *err, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s", msg);
}

static hl_status_t inflate_raw(const uint8_t *src, size_t src_len, uint8_t *dst, size_t cap,
                               size_t *out_len, hl_error_t *err) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return hl_err_nomem(err);
  z.next_in = (Bytef *)src;
  z.avail_in = (uInt)src_len;
  z.next_out = dst;
  z.avail_out = (uInt)cap;
  int zr = inflate(&z, Z_FINISH);
  *out_len = cap - z.avail_out;
  inflateEnd(&z);
  if (zr == Z_MEM_ERROR) return hl_err_nomem(err);
  if (zr != Z_STREAM_END) return hl_orc_corrupt(err, "corrupt zlib chunk");
  return HL_OK;
}

hl_status_t hl_orc_decompress(hl_orc_codec_t codec, const uint8_t *src, size_t src_len,
                              uint8_t *dst, size_t cap, size_t *out_len, hl_error_t *err) {
  *out_len = 0;
  switch (codec) {
  case HL_ORC_NONE:
    if (src_len > cap) return hl_orc_corrupt(err, "chunk larger than the compression block");
    memcpy(dst, src, src_len);
    *out_len = src_len;
    return HL_OK;
  case HL_ORC_ZLIB:
    return inflate_raw(src, src_len, dst, cap, out_len, err);
  case HL_ORC_SNAPPY: {
    size_t n;
    if (snappy_uncompressed_length((const char *)src, src_len, &n) != SNAPPY_OK || n > cap)
      return hl_orc_corrupt(err, "corrupt snappy chunk");
    if (snappy_uncompress((const char *)src, src_len, (char *)dst, &n) != SNAPPY_OK)
      return hl_orc_corrupt(err, "corrupt snappy chunk");
    *out_len = n;
    return HL_OK;
  }
  case HL_ORC_LZO: {
    if (lzo_init() != LZO_E_OK) return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "lzo");
    lzo_uint n = cap;
    if (lzo1x_decompress_safe(src, src_len, dst, &n, NULL) != LZO_E_OK)
      return hl_orc_corrupt(err, "corrupt LZO chunk");
    *out_len = n;
    return HL_OK;
  }
  case HL_ORC_LZ4: {
    if (src_len > INT32_MAX || cap > INT32_MAX) return hl_orc_corrupt(err, "corrupt LZ4 chunk");
    int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_len, (int)cap);
    if (n < 0) return hl_orc_corrupt(err, "corrupt LZ4 chunk");
    *out_len = (size_t)n;
    return HL_OK;
  }
  case HL_ORC_ZSTD: {
    size_t n = ZSTD_decompress(dst, cap, src, src_len);
    if (ZSTD_isError(n)) return hl_orc_corrupt(err, "corrupt ZSTD chunk");
    *out_len = n;
    return HL_OK;
  }
  }
  return hl_orc_corrupt(err, "unknown compression kind %d", (int)codec);
}

void hl_orc_stream_init(hl_orc_stream_t *s, const uint8_t *src, size_t len, hl_orc_codec_t codec,
                        size_t block, hl_arena_t *arena, hl_error_t *err) {
  memset(s, 0, sizeof *s);
  s->src = src;
  s->src_len = src ? len : 0;
  s->codec = codec;
  s->block = block;
  s->arena = arena;
  s->err = err;
  s->name = "stream";
}

bool hl_orc_stream_fill(hl_orc_stream_t *s) {
  while (s->src_pos < s->src_len) {
    if (s->codec == HL_ORC_NONE) {
      s->cur = s->src;
      s->cur_len = s->src_len;
      s->cur_pos = 0;
      s->src_pos = s->src_len;
      return true;
    }
    if (s->src_len - s->src_pos < 3) {
      hl_orc_corrupt(s->err, "truncated compression chunk header in %s", s->name);
      return false;
    }
    const uint8_t *h = s->src + s->src_pos;
    uint32_t hdr = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16;
    size_t len = hdr >> 1;
    s->src_pos += 3;
    if (len > s->src_len - s->src_pos || len > s->block) {
      hl_orc_corrupt(s->err, "compression chunk of %zu bytes does not fit in %s", len, s->name);
      return false;
    }
    const uint8_t *body = s->src + s->src_pos;
    s->src_pos += len;
    if (hdr & 1) {
      s->cur = body;
      s->cur_len = len;
    } else {
      if (!s->buf && !(s->buf = hl_arena_alloc(s->arena, s->block))) {
        hl_err_nomem(s->err);
        return false;
      }
      size_t n;
      if (hl_orc_decompress(s->codec, body, len, s->buf, s->block, &n, s->err) != HL_OK)
        return false;
      s->cur = s->buf;
      s->cur_len = n;
    }
    s->cur_pos = 0;
    if (s->cur_len > 0) return true;
  }
  return false;
}

hl_status_t hl_orc_read_bytes(hl_orc_stream_t *s, uint8_t *dst, size_t len) {
  while (len > 0) {
    if (s->cur_pos >= s->cur_len && !hl_orc_stream_fill(s)) {
      if (s->err->code == HL_OK) hl_orc_corrupt(s->err, "%s ends early", s->name);
      return s->err->code;
    }
    size_t take = s->cur_len - s->cur_pos;
    if (take > len) take = len;
    memcpy(dst, s->cur + s->cur_pos, take);
    s->cur_pos += take;
    dst += take;
    len -= take;
  }
  return HL_OK;
}

uint64_t hl_orc_stream_bound(const hl_orc_stream_t *s) {
  uint64_t rest = s->src_len - s->src_pos;
  uint64_t here = s->cur_len - s->cur_pos;
  if (s->codec == HL_ORC_NONE) return here + rest;
  /* every chunk needs a 3-byte header and inflates to at most a block */
  return here + (rest / 3 + 1) * (uint64_t)s->block;
}

hl_status_t hl_orc_stream_all(hl_orc_stream_t *s, uint64_t limit, uint8_t **out, size_t *len) {
  size_t cap = 0, n = 0;
  uint8_t *buf = NULL;
  for (;;) {
    if (s->cur_pos >= s->cur_len && !hl_orc_stream_fill(s)) {
      if (s->err->code != HL_OK) return s->err->code;
      break;
    }
    size_t take = s->cur_len - s->cur_pos;
    if ((uint64_t)n + take > limit) return hl_orc_corrupt(s->err, "%s is too long", s->name);
    if (n + take > cap) {
      size_t ncap = cap ? cap * 2 : 4096;
      while (ncap < n + take)
        ncap *= 2;
      uint8_t *nb = hl_arena_realloc(s->arena, buf, cap, ncap);
      if (!nb) return hl_err_nomem(s->err);
      buf = nb;
      cap = ncap;
    }
    memcpy(buf + n, s->cur + s->cur_pos, take);
    n += take;
    s->cur_pos = s->cur_len;
  }
  *out = buf;
  *len = n;
  return HL_OK;
}
