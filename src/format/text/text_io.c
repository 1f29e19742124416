/*
 * text_io.c -- byte streams under the text formats: decompressing sources,
 * compressing sinks, and base64.
 *
 * A source reads its storage file in fixed chunks (never the whole file)
 * and passes them through zlib (gzip framing, or zlib framing for
 * .deflate, Hadoop's DefaultCodec; every member of a concatenated file, as
 * gzip(1) and Hadoop's decompressor streams read them), libbz2 (bzip2
 * streams, concatenated too), zstd (streaming; several frames in a row are
 * fine) or Hadoop's block framing (.snappy, .lz4: blocks of a plain length
 * and compressed chunks, text_hblock.c).  A sink buffers plain bytes,
 * compresses them by the same rules and appends the output to the storage
 * file in chunks.  The codec always follows the file name's extension, as
 * Hadoop's CompressionCodecFactory does.  None of these files is split
 * (text files never are).
 *
 * Memory: one input chunk plus the codec state per source; one output chunk
 * plus the codec state per sink.  zstd's window is capped (WINDOW_LOG_MAX)
 * so a hostile frame header cannot demand an unbounded window; a block
 * chunk's compressed length is checked against the bytes left in the file
 * and its plain length against HL_HCODEC_BLOCK_MAX before either is
 * allocated.
 */
#include "format/text/text_int.h"

#include "util/mem.h"

#include <bzlib.h>
#include <inttypes.h>
#include <stdio.h>
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

hl_status_t hl_text_codec_for_path(const char *path, hl_hcodec_t *out, hl_error_t *err) {
  /* Hadoop's default extensions of GzipCodec, ZStandardCodec, DefaultCodec,
   * BZip2Codec, SnappyCodec and Lz4Codec */
  static const struct {
    const char *ext;
    hl_hcodec_t codec;
  } codecs[] = {{".gz", HL_HCODEC_GZIP},   {".zst", HL_HCODEC_ZSTD},
                {".zstd", HL_HCODEC_ZSTD}, {".deflate", HL_HCODEC_DEFLATE},
                {".bz2", HL_HCODEC_BZIP2}, {".snappy", HL_HCODEC_SNAPPY},
                {".lz4", HL_HCODEC_LZ4}};
  static const char *const unsupported[] = {".lzo", ".lzo_deflate", ".br"};
  *out = HL_HCODEC_NONE;
  for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++)
    if (has_suffix(path, codecs[i].ext)) return *out = codecs[i].codec, HL_OK;
  for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
    if (has_suffix(path, unsupported[i]))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "compression codec \"%s\" of file \"%s\" is not supported",
                        unsupported[i] + 1, path);
  }
  return HL_OK;
}

bool hl_text_codec_ext(const char *name, const char **ext) {
  static const struct {
    const char *name, *ext;
  } names[] = {{"gzip", ".gz"},
               {"zstd", ".zst"},
               {"deflate", ".deflate"},
               {"bzip2", ".bz2"},
               {"snappy", ".snappy"},
               {"lz4", ".lz4"},
               {"plain", ""},
               {"none", ""},
               {"uncompressed", ""},
               {"org.apache.hadoop.io.compress.GzipCodec", ".gz"},
               {"org.apache.hadoop.io.compress.ZStandardCodec", ".zst"},
               {"org.apache.hadoop.io.compress.DefaultCodec", ".deflate"},
               {"org.apache.hadoop.io.compress.DeflateCodec", ".deflate"},
               {"org.apache.hadoop.io.compress.BZip2Codec", ".bz2"},
               {"org.apache.hadoop.io.compress.SnappyCodec", ".snappy"},
               {"org.apache.hadoop.io.compress.Lz4Codec", ".lz4"}};
  *ext = "";
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(name, names[i].name) == 0) return *ext = names[i].ext, true;
  return false;
}

/* ---------------------------------------------------------------------- */
/* Sources                                                                  */
/* ---------------------------------------------------------------------- */

struct hl_text_src {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  const char *path; /* borrowed */
  hl_hcodec_t codec;
  uint64_t file_off;     /* next storage offset to read */
  uint64_t file_size;    /* block framing: what lengths are checked against */
  bool file_eof;         /* storage exhausted */
  unsigned char *in;     /* compressed chunk (codecs only) */
  size_t in_len, in_pos; /* bytes in IN, bytes consumed */
  z_stream zs;
  bool zs_live; /* inflateInit2 done */
  bz_stream bz;
  bool bz_live;     /* BZ2_bzDecompressInit done */
  bool member_done; /* gzip, deflate, bzip2: between members (the last one ended) */
  ZSTD_DCtx *zd;
  size_t zstd_hint; /* last ZSTD_decompressStream result: 0 = frame ended */
  /* block framing: the current block and chunk */
  uint64_t block_left;  /* plain bytes the current block still owes */
  unsigned char *chunk; /* compressed chunk */
  size_t chunk_cap;     /* allocated bytes of CHUNK */
  unsigned char *plain; /* the chunk's plain bytes */
  size_t plain_cap;     /* allocated bytes of PLAIN */
  size_t plain_len, plain_pos;
  bool done; /* end of plain data reached */
};

static hl_status_t corrupt(hl_text_src_t *src, const char *what, hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "cannot read \"%s\": %s", src->path,
                    what);
}

/* zlib's window bits for the inflating codecs: gzip framing only, or zlib
 * framing only; anything else is corrupt */
static int zlib_bits(hl_hcodec_t codec) {
  return codec == HL_HCODEC_GZIP ? 16 + MAX_WBITS : MAX_WBITS;
}

hl_status_t hl_text_src_open(hl_stor_t *fs, const char *path, hl_text_src_t **out,
                             hl_error_t *err) {
  *out = NULL;
  hl_hcodec_t codec;
  hl_status_t st = hl_text_codec_for_path(path, &codec, err);
  if (st != HL_OK) return st;
  hl_text_src_t *src = hl_calloc(1, sizeof *src);
  if (!src) return hl_err_nomem(err);
  src->fs = fs;
  src->path = path;
  src->codec = codec;
  src->zstd_hint = 0;
  if (codec != HL_HCODEC_NONE) {
    src->in = hl_malloc(IO_CHUNK);
    if (!src->in) goto nomem;
  }
  if (codec == HL_HCODEC_GZIP || codec == HL_HCODEC_DEFLATE) {
    if (inflateInit2(&src->zs, zlib_bits(codec)) != Z_OK) goto nomem;
    src->zs_live = true;
  } else if (codec == HL_HCODEC_BZIP2) {
    if (BZ2_bzDecompressInit(&src->bz, 0, 0) != BZ_OK) goto nomem;
    src->bz_live = true;
  } else if (codec == HL_HCODEC_ZSTD) {
    src->zd = ZSTD_createDCtx();
    if (!src->zd) goto nomem;
    ZSTD_DCtx_setParameter(src->zd, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
  }
  st = fs->ops->open_read(fs, path, &src->file, err);
  if (st != HL_OK) {
    hl_text_src_close(src);
    return st;
  }
  src->file_size = fs->ops->file_size(src->file);
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
  if (src->bz_live) BZ2_bzDecompressEnd(&src->bz);
  ZSTD_freeDCtx(src->zd);
  hl_free(src->in);
  hl_free(src->chunk);
  hl_free(src->plain);
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

/* gzip (.gz) and zlib (.deflate) streams, one member after another */
static hl_status_t read_zlib(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                             hl_error_t *err) {
  const char *bad = src->codec == HL_HCODEC_GZIP ? "corrupt gzip data" : "corrupt deflate data";
  size_t filled = 0;
  while (filled < cap) {
    hl_status_t st = refill_in(src, err);
    if (st != HL_OK) return st;
    if (src->in_pos == src->in_len) { /* storage exhausted */
      /* an empty file is an empty stream; otherwise the last member must
       * have ended */
      if (!src->member_done && src->file_off > 0) {
        char what[64];
        snprintf(what, sizeof what, "%s (truncated)", bad);
        return corrupt(src, what, err);
      }
      src->done = true;
      break;
    }
    if (src->member_done) { /* more bytes after a member: the next member */
      if (inflateReset(&src->zs) != Z_OK) return corrupt(src, bad, err);
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
      return corrupt(src, bad, err);
  }
  *got = filled;
  return HL_OK;
}

/* bzip2 streams, one after another (bzip2(1) and BZip2Codec read them so);
 * libbz2 has no reset, so the next stream gets a fresh decompressor */
static hl_status_t read_bzip2(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                              hl_error_t *err) {
  size_t filled = 0;
  while (filled < cap) {
    hl_status_t st = refill_in(src, err);
    if (st != HL_OK) return st;
    if (src->in_pos == src->in_len) {
      if (!src->member_done && src->file_off > 0)
        return corrupt(src, "corrupt bzip2 data (truncated)", err);
      src->done = true;
      break;
    }
    if (src->member_done) {
      BZ2_bzDecompressEnd(&src->bz);
      src->bz_live = false;
      memset(&src->bz, 0, sizeof src->bz);
      if (BZ2_bzDecompressInit(&src->bz, 0, 0) != BZ_OK) return hl_err_nomem(err);
      src->bz_live = true;
      src->member_done = false;
    }
    src->bz.next_in = (char *)src->in + src->in_pos;
    src->bz.avail_in = (unsigned)(src->in_len - src->in_pos);
    src->bz.next_out = dst + filled;
    src->bz.avail_out = (unsigned)(cap - filled);
    int br = BZ2_bzDecompress(&src->bz);
    src->in_pos = src->in_len - src->bz.avail_in;
    filled = cap - src->bz.avail_out;
    if (br == BZ_STREAM_END)
      src->member_done = true;
    else if (br == BZ_MEM_ERROR)
      return hl_err_nomem(err);
    else if (br != BZ_OK)
      return corrupt(src, "corrupt bzip2 data", err);
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

/* Copies up to N compressed bytes out of IN (refilling it); *GOT < N only
 * at the end of the file. */
static hl_status_t take_in(hl_text_src_t *src, unsigned char *dst, size_t n, size_t *got,
                           hl_error_t *err) {
  *got = 0;
  while (*got < n) {
    hl_status_t st = refill_in(src, err);
    if (st != HL_OK) return st;
    size_t avail = src->in_len - src->in_pos;
    if (avail == 0) break;
    size_t k = n - *got < avail ? n - *got : avail;
    memcpy(dst + *got, src->in + src->in_pos, k);
    src->in_pos += k;
    *got += k;
  }
  return HL_OK;
}

/* Bytes of the file not yet handed out of IN. */
static uint64_t bytes_left(const hl_text_src_t *src) {
  uint64_t buffered = src->in_len - src->in_pos;
  return src->file_size > src->file_off ? src->file_size - src->file_off + buffered : buffered;
}

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Grows *BUF to at least N bytes (contents dropped). */
static hl_status_t ensure(unsigned char **buf, size_t *cap, size_t n, hl_error_t *err) {
  if (n <= *cap && *buf) return HL_OK;
  hl_free(*buf);
  *cap = 0;
  *buf = hl_malloc(n ? n : 1);
  if (!*buf) return hl_err_nomem(err);
  *cap = n;
  return HL_OK;
}

/* The next chunk of Hadoop's block framing decoded into PLAIN, starting a
 * new block first when the current one is complete.  Sets DONE at a clean
 * end of file (between blocks). */
static hl_status_t next_chunk(hl_text_src_t *src, hl_error_t *err) {
  const char *name = src->codec == HL_HCODEC_SNAPPY ? "snappy" : "lz4";
  char what[96];
  unsigned char hdr[4];
  size_t got;
  hl_status_t st;
  src->plain_len = src->plain_pos = 0;
  /* a block of 0 bytes is what Hadoop writes for an empty stream; Hadoop
   * stops there, we go on to any block that follows */
  while (src->block_left == 0) {
    if ((st = take_in(src, hdr, 4, &got, err)) != HL_OK) return st;
    if (got == 0) return src->done = true, HL_OK;
    if (got < 4) goto truncated;
    src->block_left = be32(hdr);
    if (src->block_left > INT32_MAX) { /* a Java int: negative */
      snprintf(what, sizeof what, "corrupt %s data (block length %" PRIu64 ")", name,
               src->block_left);
      return corrupt(src, what, err);
    }
  }
  if ((st = take_in(src, hdr, 4, &got, err)) != HL_OK) return st;
  if (got < 4) goto truncated;
  uint32_t clen = be32(hdr);
  if (clen == 0 || clen > bytes_left(src) ||
      clen > hl_hcodec_block_bound(src->codec, HL_HCODEC_BLOCK_MAX)) {
    snprintf(what, sizeof what, "corrupt %s data (chunk length %" PRIu32 " at offset %" PRIu64 ")",
             name, clen, src->file_off - (src->in_len - src->in_pos) - 4);
    return corrupt(src, what, err);
  }
  if ((st = ensure(&src->chunk, &src->chunk_cap, clen, err)) != HL_OK) return st;
  if ((st = take_in(src, src->chunk, clen, &got, err)) != HL_OK) return st;
  if (got < clen) goto truncated;
  size_t pcap = hl_hcodec_block_plain_cap(src->codec, src->chunk, clen, src->block_left);
  if (pcap == SIZE_MAX) goto bad;
  if ((st = ensure(&src->plain, &src->plain_cap, pcap, err)) != HL_OK) return st;
  size_t n = 0;
  if (!hl_hcodec_block_decompress(src->codec, src->chunk, clen, src->plain, pcap, &n)) goto bad;
  src->plain_len = n;
  src->block_left -= n;
  return HL_OK;
truncated:
  snprintf(what, sizeof what, "corrupt %s data (truncated)", name);
  return corrupt(src, what, err);
bad:
  snprintf(what, sizeof what, "corrupt %s data", name);
  return corrupt(src, what, err);
}

static hl_status_t read_block(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                              hl_error_t *err) {
  size_t filled = 0;
  while (filled < cap) {
    if (src->plain_pos == src->plain_len) {
      hl_status_t st = next_chunk(src, err);
      if (st != HL_OK) return st;
      if (src->done) break;
      continue; /* a chunk may hold no bytes */
    }
    size_t k = src->plain_len - src->plain_pos;
    if (k > cap - filled) k = cap - filled;
    memcpy(dst + filled, src->plain + src->plain_pos, k);
    src->plain_pos += k;
    filled += k;
  }
  *got = filled;
  return HL_OK;
}

hl_status_t hl_text_src_read(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                             hl_error_t *err) {
  *got = 0;
  if (src->done || cap == 0) return HL_OK;
  switch (src->codec) {
  case HL_HCODEC_GZIP:
  case HL_HCODEC_DEFLATE:
    return read_zlib(src, dst, cap, got, err);
  case HL_HCODEC_BZIP2:
    return read_bzip2(src, dst, cap, got, err);
  case HL_HCODEC_ZSTD:
    return read_zstd(src, dst, cap, got, err);
  case HL_HCODEC_SNAPPY:
  case HL_HCODEC_LZ4:
    return read_block(src, dst, cap, got, err);
  case HL_HCODEC_NONE:
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
  hl_hcodec_t codec;
  char *out; /* compressed output chunk (codecs only) */
  size_t out_cap;
  z_stream zs;
  bool zs_live;
  bz_stream bz;
  bool bz_live;
  ZSTD_CCtx *zc;
  char *blk; /* block framing: plain bytes of the next block */
  size_t blk_len, blk_cap;
};

hl_status_t hl_text_sink_open(hl_stor_t *fs, const char *path, hl_text_sink_t **out,
                              hl_error_t *err) {
  *out = NULL;
  hl_hcodec_t codec;
  hl_status_t st = hl_text_codec_for_path(path, &codec, err);
  if (st != HL_OK) return st;
  hl_text_sink_t *sink = hl_calloc(1, sizeof *sink);
  if (!sink) return hl_err_nomem(err);
  sink->fs = fs;
  sink->path = path;
  sink->codec = codec;
  sink->out_cap = IO_CHUNK;
  if (codec == HL_HCODEC_SNAPPY || codec == HL_HCODEC_LZ4) {
    /* one block of one chunk: the two lengths, then the chunk */
    sink->blk_cap = hl_hcodec_block_max_input(codec);
    sink->out_cap = 8 + hl_hcodec_block_bound(codec, sink->blk_cap);
    sink->blk = hl_malloc(sink->blk_cap);
    if (!sink->blk) goto nomem;
  }
  if (codec != HL_HCODEC_NONE) {
    sink->out = hl_malloc(sink->out_cap);
    if (!sink->out) goto nomem;
  }
  if (codec == HL_HCODEC_GZIP || codec == HL_HCODEC_DEFLATE) {
    if (deflateInit2(&sink->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, zlib_bits(codec), 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
      goto nomem;
    sink->zs_live = true;
  } else if (codec == HL_HCODEC_BZIP2) {
    /* 900 KiB blocks, as Hadoop's BZip2Codec (bzip2.compress.blocksize 9) */
    if (BZ2_bzCompressInit(&sink->bz, 9, 0, 0) != BZ_OK) goto nomem;
    sink->bz_live = true;
  } else if (codec == HL_HCODEC_ZSTD) {
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

static hl_status_t append_out(hl_text_sink_t *sink, size_t n, hl_error_t *err) {
  return n ? sink->fs->ops->append(sink->file, sink->out, n, err) : HL_OK;
}

static void put_be32(char *p, size_t v) {
  p[0] = (char)(v >> 24);
  p[1] = (char)(v >> 16);
  p[2] = (char)(v >> 8);
  p[3] = (char)v;
}

/* Hadoop's block framing: the buffered plain bytes as one block of one
 * chunk (BlockCompressorStream does the same for writes that fit its
 * buffer).  Nothing buffered writes nothing, so an empty file stays
 * empty, which Hadoop reads as an empty stream too. */
static hl_status_t flush_block(hl_text_sink_t *sink, hl_error_t *err) {
  if (sink->blk_len == 0) return HL_OK;
  size_t clen = 0;
  if (!hl_hcodec_block_compress(sink->codec, sink->blk, sink->blk_len, sink->out + 8,
                                sink->out_cap - 8, &clen))
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "%s compression failed",
                      sink->codec == HL_HCODEC_SNAPPY ? "snappy" : "lz4");
  put_be32(sink->out, sink->blk_len);
  put_be32(sink->out + 4, clen);
  sink->blk_len = 0;
  return append_out(sink, 8 + clen, err);
}

/* Runs the compressor over DATA (FINISH: end the stream) and appends every
 * output chunk it produces. */
static hl_status_t compress_chunk(hl_text_sink_t *sink, const char *data, size_t len, bool finish,
                                  hl_error_t *err) {
  hl_status_t st;
  if (sink->codec == HL_HCODEC_GZIP || sink->codec == HL_HCODEC_DEFLATE) {
    sink->zs.next_in = (unsigned char *)data;
    sink->zs.avail_in = (uInt)len; /* callers pass at most one chunk */
    for (;;) {
      sink->zs.next_out = (unsigned char *)sink->out;
      sink->zs.avail_out = IO_CHUNK;
      int zr = deflate(&sink->zs, finish ? Z_FINISH : Z_NO_FLUSH);
      if (zr == Z_STREAM_ERROR)
        return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "zlib compression failed");
      if ((st = append_out(sink, IO_CHUNK - sink->zs.avail_out, err)) != HL_OK) return st;
      if (finish ? zr == Z_STREAM_END : (sink->zs.avail_in == 0 && sink->zs.avail_out != 0)) break;
    }
    return HL_OK;
  }
  if (sink->codec == HL_HCODEC_BZIP2) {
    sink->bz.next_in = (char *)data;
    sink->bz.avail_in = (unsigned)len;
    for (;;) {
      sink->bz.next_out = sink->out;
      sink->bz.avail_out = IO_CHUNK;
      int br = BZ2_bzCompress(&sink->bz, finish ? BZ_FINISH : BZ_RUN);
      if (br != BZ_RUN_OK && br != BZ_FINISH_OK && br != BZ_STREAM_END)
        return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "bzip2 compression failed");
      if ((st = append_out(sink, IO_CHUNK - sink->bz.avail_out, err)) != HL_OK) return st;
      if (finish ? br == BZ_STREAM_END : sink->bz.avail_in == 0) break;
    }
    return HL_OK;
  }
  if (sink->codec == HL_HCODEC_SNAPPY || sink->codec == HL_HCODEC_LZ4) {
    while (len > 0) {
      size_t k = sink->blk_cap - sink->blk_len;
      if (k > len) k = len;
      memcpy(sink->blk + sink->blk_len, data, k);
      sink->blk_len += k;
      data += k;
      len -= k;
      if (sink->blk_len == sink->blk_cap && (st = flush_block(sink, err)) != HL_OK) return st;
    }
    return finish ? flush_block(sink, err) : HL_OK;
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
    if ((st = append_out(sink, ob.pos, err)) != HL_OK) return st;
    if (finish ? r == 0 : ib.pos == ib.size) break;
  }
  return HL_OK;
}

hl_status_t hl_text_sink_write(hl_text_sink_t *sink, const char *data, size_t len,
                               hl_error_t *err) {
  if (sink->codec == HL_HCODEC_NONE) return sink->fs->ops->append(sink->file, data, len, err);
  while (len > 0) { /* zlib and libbz2 count in unsigned: at most one chunk per call */
    size_t n = len < IO_CHUNK ? len : IO_CHUNK;
    hl_status_t st = compress_chunk(sink, data, n, false, err);
    if (st != HL_OK) return st;
    data += n;
    len -= n;
  }
  return HL_OK;
}

uint64_t hl_text_sink_mem(const hl_text_sink_t *sink) {
  uint64_t n = sizeof *sink + (sink->out ? IO_CHUNK : 0);
  /* zlib's documented deflate memory: (1 << (windowBits + 2)) + (1 << (memLevel + 9)) */
  if (sink->zs_live) n += (1u << (MAX_WBITS + 2)) + (1u << (8 + 9));
  if (sink->zc) n += ZSTD_sizeof_CCtx(sink->zc);
  return n;
}

hl_status_t hl_text_sink_close(hl_text_sink_t *sink, bool abort, hl_error_t *err) {
  if (!sink) return HL_OK;
  hl_status_t st = HL_OK;
  if (!abort && sink->file) {
    if (sink->codec != HL_HCODEC_NONE) st = compress_chunk(sink, NULL, 0, true, err);
    if (st == HL_OK) st = sink->fs->ops->sync(sink->file, err);
  }
  if (sink->file) {
    hl_status_t cst = sink->fs->ops->close(sink->file, err);
    if (st == HL_OK) st = cst;
  }
  if (sink->zs_live) deflateEnd(&sink->zs);
  if (sink->bz_live) BZ2_bzCompressEnd(&sink->bz);
  ZSTD_freeCCtx(sink->zc);
  hl_free(sink->out);
  hl_free(sink->blk);
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

bool hl_text_b64_alphabet(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < len; i++)
    if (b64_value(s[i]) < 0 && s[i] != '=' && !b64_space(s[i])) return false;
  return true;
}

size_t hl_text_b64_decode(const char *text, size_t len, unsigned char *out) {
  const unsigned char *s = (const unsigned char *)text;
  if (!hl_text_b64_alphabet(text, len)) {
    if (len) memcpy(out, text, len); /* not base64: Hive keeps the bytes */
    return len;
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
