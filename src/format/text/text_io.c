/*
 * text_io.c -- byte streams under the text formats: decompressing sources,
 * compressing sinks, and base64.
 *
 * A source reads its storage file in fixed chunks (never the whole file)
 * and passes them through zlib (gzip framing, every member of a
 * concatenated file, as gzip(1) and Hadoop's GzipCodec read them) or zstd
 * (streaming; several frames in a row are fine).  A sink buffers plain
 * bytes, compresses them by the same rules and appends the output to the
 * storage file in chunks.  The codec always follows the file name's
 * extension, as Hadoop's CompressionCodecFactory does.
 *
 * Memory: one input chunk plus the codec state per source; one output chunk
 * plus the codec state per sink.  zstd's window is capped (WINDOW_LOG_MAX)
 * so a hostile frame header cannot demand an unbounded window.
 */
#include "format/text/text_int.h"

#include "util/mem.h"

#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define IO_CHUNK       (256 * 1024) /* bytes per storage read / append */
#define WINDOW_LOG_MAX 27           /* zstd default limit: 128 MiB window */

/* ---------------------------------------------------------------------- */
/* Codec selection                                                          */
/* ---------------------------------------------------------------------- */

static bool has_suffix(const char *path, const char *suffix) {
  size_t n = strlen(path), m = strlen(suffix);
  return n >= m && strcasecmp(path + n - m, suffix) == 0;
}

hl_status_t hl_text_codec_for_path(const char *path, hl_text_codec_t *out, hl_error_t *err) {
  static const char *const unsupported[] = {".bz2", ".snappy",      ".lz4", ".deflate",
                                            ".lzo", ".lzo_deflate", ".br"};
  *out = HL_TEXT_CODEC_NONE;
  if (has_suffix(path, ".gz"))
    *out = HL_TEXT_CODEC_GZIP;
  else if (has_suffix(path, ".zst") || has_suffix(path, ".zstd"))
    *out = HL_TEXT_CODEC_ZSTD;
  else {
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
      if (has_suffix(path, unsupported[i]))
        return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                          "compression codec \"%s\" of file \"%s\" is not supported",
                          unsupported[i] + 1, path);
    }
  }
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* Sources                                                                  */
/* ---------------------------------------------------------------------- */

struct hl_text_src {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  const char *path; /* borrowed */
  hl_text_codec_t codec;
  uint64_t file_off;     /* next storage offset to read */
  bool file_eof;         /* storage exhausted */
  unsigned char *in;     /* compressed chunk (codecs only) */
  size_t in_len, in_pos; /* bytes in IN, bytes consumed */
  z_stream zs;
  bool zs_live;     /* inflateInit2 done */
  bool member_done; /* gzip: between members (last inflate hit the end) */
  ZSTD_DCtx *zd;
  size_t zstd_hint; /* last ZSTD_decompressStream result: 0 = frame ended */
  bool done;        /* end of plain data reached */
};

static hl_status_t corrupt(hl_text_src_t *src, const char *what, hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "cannot read \"%s\": %s", src->path,
                    what);
}

hl_status_t hl_text_src_open(hl_stor_t *fs, const char *path, hl_text_src_t **out,
                             hl_error_t *err) {
  *out = NULL;
  hl_text_codec_t codec;
  hl_status_t st = hl_text_codec_for_path(path, &codec, err);
  if (st != HL_OK) return st;
  hl_text_src_t *src = hl_calloc(1, sizeof *src);
  if (!src) return hl_err_nomem(err);
  src->fs = fs;
  src->path = path;
  src->codec = codec;
  src->zstd_hint = 0;
  if (codec != HL_TEXT_CODEC_NONE) {
    src->in = hl_malloc(IO_CHUNK);
    if (!src->in) goto nomem;
  }
  if (codec == HL_TEXT_CODEC_GZIP) {
    /* 16 + MAX_WBITS: gzip framing only; a zlib or raw stream is corrupt */
    if (inflateInit2(&src->zs, 16 + MAX_WBITS) != Z_OK) goto nomem;
    src->zs_live = true;
  } else if (codec == HL_TEXT_CODEC_ZSTD) {
    src->zd = ZSTD_createDCtx();
    if (!src->zd) goto nomem;
    ZSTD_DCtx_setParameter(src->zd, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
  }
  st = fs->ops->open_read(fs, path, &src->file, err);
  if (st != HL_OK) {
    hl_text_src_close(src);
    return st;
  }
  *out = src;
  return HL_OK;
nomem:
  hl_text_src_close(src);
  return hl_err_nomem(err);
}

void hl_text_src_close(hl_text_src_t *src) {
  if (!src) return;
  if (src->file) {
    hl_error_t ignored;
    hl_err_init(&ignored);
    src->fs->ops->close(src->file, &ignored); /* read handle: nothing to lose */
    hl_err_clear(&ignored);
  }
  if (src->zs_live) inflateEnd(&src->zs);
  ZSTD_freeDCtx(src->zd);
  hl_free(src->in);
  hl_free(src);
}

/* Reads up to CAP raw bytes from storage at the current offset. */
static hl_status_t read_file(hl_text_src_t *src, void *dst, size_t cap, size_t *got,
                             hl_error_t *err) {
  *got = 0;
  if (src->file_eof) return HL_OK;
  hl_status_t st = src->fs->ops->read_at(src->file, src->file_off, dst, cap, got, err);
  if (st != HL_OK) return st;
  if (*got > cap) return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "short read");
  src->file_off += *got;
  if (*got < cap) src->file_eof = true;
  return HL_OK;
}

/* Makes sure IN holds unconsumed compressed bytes unless storage is done. */
static hl_status_t refill_in(hl_text_src_t *src, hl_error_t *err) {
  if (src->in_pos < src->in_len) return HL_OK;
  src->in_pos = src->in_len = 0;
  return read_file(src, src->in, IO_CHUNK, &src->in_len, err);
}

static hl_status_t read_gzip(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                             hl_error_t *err) {
  size_t filled = 0;
  while (filled < cap) {
    hl_status_t st = refill_in(src, err);
    if (st != HL_OK) return st;
    if (src->in_pos == src->in_len) { /* storage exhausted */
      /* an empty file is an empty stream; otherwise the last member must
       * have ended */
      if (!src->member_done && src->file_off > 0)
        return corrupt(src, "corrupt gzip data (truncated)", err);
      src->done = true;
      break;
    }
    if (src->member_done) { /* more bytes after a member: the next member */
      if (inflateReset(&src->zs) != Z_OK) return corrupt(src, "corrupt gzip data", err);
      src->member_done = false;
    }
    src->zs.next_in = src->in + src->in_pos;
    src->zs.avail_in = (uInt)(src->in_len - src->in_pos);
    src->zs.next_out = (unsigned char *)dst + filled;
    src->zs.avail_out = (uInt)(cap - filled);
    int zr = inflate(&src->zs, Z_NO_FLUSH);
    src->in_pos = src->in_len - src->zs.avail_in;
    filled = cap - src->zs.avail_out;
    if (zr == Z_STREAM_END)
      src->member_done = true;
    else if (zr == Z_MEM_ERROR)
      return hl_err_nomem(err);
    else if (zr != Z_OK && zr != Z_BUF_ERROR)
      return corrupt(src, "corrupt gzip data", err);
  }
  *got = filled;
  return HL_OK;
}

static hl_status_t read_zstd(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                             hl_error_t *err) {
  ZSTD_outBuffer ob = {dst, cap, 0};
  while (ob.pos < ob.size) {
    hl_status_t st = refill_in(src, err);
    if (st != HL_OK) return st;
    bool no_input = src->in_pos == src->in_len;
    if (no_input && src->zstd_hint == 0) {
      src->done = true; /* every frame ended (or the file is empty) */
      break;
    }
    ZSTD_inBuffer ib = {src->in, src->in_len, src->in_pos};
    size_t before_out = ob.pos;
    size_t r = ZSTD_decompressStream(src->zd, &ob, &ib);
    src->in_pos = ib.pos;
    if (ZSTD_isError(r)) {
      if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) return hl_err_nomem(err);
      return corrupt(src, "corrupt zstd data", err);
    }
    src->zstd_hint = r;
    /* input gone, frame unfinished and the decoder flushed nothing more */
    if (no_input && ob.pos == before_out && r != 0)
      return corrupt(src, "corrupt zstd data (truncated)", err);
  }
  *got = ob.pos;
  return HL_OK;
}

hl_status_t hl_text_src_read(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                             hl_error_t *err) {
  *got = 0;
  if (src->done || cap == 0) return HL_OK;
  switch (src->codec) {
  case HL_TEXT_CODEC_GZIP:
    return read_gzip(src, dst, cap, got, err);
  case HL_TEXT_CODEC_ZSTD:
    return read_zstd(src, dst, cap, got, err);
  case HL_TEXT_CODEC_NONE:
    break;
  }
  size_t filled = 0;
  while (filled < cap) {
    size_t n = 0;
    hl_status_t st = read_file(src, dst + filled, cap - filled, &n, err);
    if (st != HL_OK) return st;
    filled += n;
    if (src->file_eof) break;
  }
  if (filled < cap) src->done = true;
  *got = filled;
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* Sinks                                                                    */
/* ---------------------------------------------------------------------- */

struct hl_text_sink {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  const char *path; /* borrowed */
  hl_text_codec_t codec;
  char *out; /* compressed output chunk (codecs only) */
  z_stream zs;
  bool zs_live;
  ZSTD_CCtx *zc;
};

hl_status_t hl_text_sink_open(hl_stor_t *fs, const char *path, hl_text_sink_t **out,
                              hl_error_t *err) {
  *out = NULL;
  hl_text_codec_t codec;
  hl_status_t st = hl_text_codec_for_path(path, &codec, err);
  if (st != HL_OK) return st;
  hl_text_sink_t *sink = hl_calloc(1, sizeof *sink);
  if (!sink) return hl_err_nomem(err);
  sink->fs = fs;
  sink->path = path;
  sink->codec = codec;
  if (codec != HL_TEXT_CODEC_NONE) {
    sink->out = hl_malloc(IO_CHUNK);
    if (!sink->out) goto nomem;
  }
  if (codec == HL_TEXT_CODEC_GZIP) {
    if (deflateInit2(&sink->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
      goto nomem;
    sink->zs_live = true;
  } else if (codec == HL_TEXT_CODEC_ZSTD) {
    sink->zc = ZSTD_createCCtx();
    if (!sink->zc) goto nomem;
    ZSTD_CCtx_setParameter(sink->zc, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(sink->zc, ZSTD_c_checksumFlag, 1);
  }
  st = fs->ops->create(fs, path, &sink->file, err);
  if (st != HL_OK) {
    hl_text_sink_close(sink, true, err);
    return st;
  }
  *out = sink;
  return HL_OK;
nomem:
  hl_text_sink_close(sink, true, err);
  return hl_err_nomem(err);
}

/* Runs the compressor over DATA (FINISH: end the stream) and appends every
 * output chunk it produces. */
static hl_status_t compress_chunk(hl_text_sink_t *sink, const char *data, size_t len, bool finish,
                                  hl_error_t *err) {
  if (sink->codec == HL_TEXT_CODEC_GZIP) {
    sink->zs.next_in = (unsigned char *)data;
    sink->zs.avail_in = (uInt)len; /* callers pass at most one chunk */
    for (;;) {
      sink->zs.next_out = (unsigned char *)sink->out;
      sink->zs.avail_out = IO_CHUNK;
      int zr = deflate(&sink->zs, finish ? Z_FINISH : Z_NO_FLUSH);
      if (zr == Z_STREAM_ERROR)
        return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "gzip compression failed");
      size_t produced = IO_CHUNK - sink->zs.avail_out;
      if (produced) {
        hl_status_t st = sink->fs->ops->append(sink->file, sink->out, produced, err);
        if (st != HL_OK) return st;
      }
      if (finish ? zr == Z_STREAM_END : (sink->zs.avail_in == 0 && sink->zs.avail_out != 0)) break;
    }
    return HL_OK;
  }
  ZSTD_inBuffer ib = {data, len, 0};
  for (;;) {
    ZSTD_outBuffer ob = {sink->out, IO_CHUNK, 0};
    size_t r = ZSTD_compressStream2(sink->zc, &ob, &ib, finish ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(r)) {
      if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) return hl_err_nomem(err);
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "zstd compression failed: %s",
                        ZSTD_getErrorName(r));
    }
    if (ob.pos) {
      hl_status_t st = sink->fs->ops->append(sink->file, sink->out, ob.pos, err);
      if (st != HL_OK) return st;
    }
    if (finish ? r == 0 : ib.pos == ib.size) break;
  }
  return HL_OK;
}

hl_status_t hl_text_sink_write(hl_text_sink_t *sink, const char *data, size_t len,
                               hl_error_t *err) {
  if (sink->codec == HL_TEXT_CODEC_NONE) return sink->fs->ops->append(sink->file, data, len, err);
  while (len > 0) { /* zlib counts in uInt: feed at most one chunk per call */
    size_t n = len < IO_CHUNK ? len : IO_CHUNK;
    hl_status_t st = compress_chunk(sink, data, n, false, err);
    if (st != HL_OK) return st;
    data += n;
    len -= n;
  }
  return HL_OK;
}

hl_status_t hl_text_sink_close(hl_text_sink_t *sink, bool abort, hl_error_t *err) {
  if (!sink) return HL_OK;
  hl_status_t st = HL_OK;
  if (!abort && sink->file) {
    if (sink->codec != HL_TEXT_CODEC_NONE) st = compress_chunk(sink, NULL, 0, true, err);
    if (st == HL_OK) st = sink->fs->ops->sync(sink->file, err);
  }
  if (sink->file) {
    hl_status_t cst = sink->fs->ops->close(sink->file, err);
    if (st == HL_OK) st = cst;
  }
  if (sink->zs_live) deflateEnd(&sink->zs);
  ZSTD_freeCCtx(sink->zc);
  hl_free(sink->out);
  hl_free(sink);
  return st;
}

/* ---------------------------------------------------------------------- */
/* Base64                                                                   */
/* ---------------------------------------------------------------------- */

static const char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void hl_text_b64_encode(hl_buf_t *buf, const unsigned char *data, size_t len) {
  if (hl_buf_reserve(buf, (len + 2) / 3 * 4) < 0) return;
  char *o = buf->data + buf->len;
  size_t i = 0;
  for (; i + 3 <= len; i += 3) {
    uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
    *o++ = b64_chars[v >> 18];
    *o++ = b64_chars[(v >> 12) & 63];
    *o++ = b64_chars[(v >> 6) & 63];
    *o++ = b64_chars[v & 63];
  }
  if (i < len) {
    uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0);
    *o++ = b64_chars[v >> 18];
    *o++ = b64_chars[(v >> 12) & 63];
    *o++ = i + 1 < len ? b64_chars[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
  buf->len = (size_t)(o - buf->data);
  buf->data[buf->len] = '\0';
}

/* Value of a base64 digit (commons-codec also takes the URL-safe - and _),
 * -1 for others. */
static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

static bool b64_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t hl_text_b64_decode(const char *text, size_t len, unsigned char *out) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < len; i++) {
    if (b64_value(s[i]) < 0 && s[i] != '=' && !b64_space(s[i])) {
      if (len) memcpy(out, text, len); /* not base64: Hive keeps the bytes */
      return len;
    }
  }
  size_t n = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '=') break;
    int v = b64_value(s[i]);
    if (v < 0) continue; /* white space */
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (unsigned char)(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  return n;
}
