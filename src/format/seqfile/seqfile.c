/*
 * seqfile.c -- SequenceFile reader and writer for Hive SEQUENCEFILE tables.
 *
 * File layout (org.apache.hadoop.io.SequenceFile):
 *
 *   header   "SEQ" version(1) keyClass(Text) valueClass(Text)
 *            compressed(1) blockCompressed(1) [codec(Text)]   (v5+: codec)
 *            metadata(int count, Text pairs)                   (v6+)
 *            sync(16)
 *   records  [-1 sync(16)]  recordLen(int) keyLen(int) key value
 *            (record-compressed: value is one zlib/gzip stream)
 *   blocks   -1 sync(16) nRecords(vint) then four (vint length, stream)
 *            pairs: key lengths, keys, value lengths (vints), values
 *
 * The reader decodes a value (Text: vint length + bytes; BytesWritable:
 * int length + bytes) into one row through format/text's decoder.  The
 * writer emits Hive's uncompressed layout (see seqfile.h).
 */
#include "format/seqfile/seqfile.h"

#include "format/hcodec/hcodec.h"
#include "format/seqfile/seq_io.h"
#include "util/mem.h"

#include <string.h>

#define KEY_CLASS        "org.apache.hadoop.io.BytesWritable"
#define TEXT_CLASS       "org.apache.hadoop.io.Text"
#define BYTES_CLASS      "org.apache.hadoop.io.BytesWritable"
#define FLUSH_BYTES      ((size_t)256 << 10)
#define BATCH_SOFT_BYTES ((size_t)32 << 20) /* end a batch early past this */

/* ---------------------------------------------------------------------- */
/* Reader                                                                   */
/* ---------------------------------------------------------------------- */

struct hl_seqfile_reader {
  hl_seqio_in_t in;
  hl_text_reader_t *dec; /* row decoder */
  bool value_is_text;    /* Text values, else BytesWritable */
  bool compressed, block;
  hl_hcodec_t codec;
  hl_hcodec_ctx_t *cx; /* codec state reused from value to value */
  uint8_t sync[HL_SEQIO_SYNC_SIZE];
  bool empty;         /* a 0-byte file: no rows (Hive writes those for empty buckets) */
  unsigned char *rec; /* raw record (heap) */
  size_t rec_cap;
  hl_buf_t plain; /* inflated value (record compression) */
  /* block compression: the current block */
  hl_buf_t blk_lens, blk_vals, blk_tmp;
  int64_t blk_left;          /* records left in the block */
  size_t lens_pos, vals_pos; /* cursors into blk_lens / blk_vals */
};

static hl_status_t grow_rec(hl_seqfile_reader_t *r, size_t n, hl_error_t *err) {
  if (n <= r->rec_cap) return HL_OK;
  size_t cap = r->rec_cap ? r->rec_cap : 4096;
  while (cap < n)
    cap *= 2;
  unsigned char *p = hl_realloc(r->rec, cap);
  if (!p) return hl_err_nomem(err);
  r->rec = p;
  r->rec_cap = cap;
  return HL_OK;
}

static hl_status_t read_header(hl_seqfile_reader_t *r, hl_error_t *err) {
  hl_seqio_in_t *in = &r->in;
  unsigned char magic[4];
  hl_status_t st = hl_seqio_in_read(in, magic, 4, err);
  if (st != HL_OK || memcmp(magic, "SEQ", 3) != 0) {
    hl_err_clear(err);
    return hl_seqio_corrupt(in, err, "not a SequenceFile (bad magic)");
  }
  int version = magic[3];
  if (version < 4 || version > 6)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": SequenceFile version %d is not supported", in->path,
                      version);
  char *key_class = NULL, *value_class = NULL, *codec = NULL;
  st = hl_seqio_in_text(in, 4096, &key_class, err);
  if (st == HL_OK) st = hl_seqio_in_text(in, 4096, &value_class, err);
  uint8_t flag = 0;
  if (st == HL_OK && (st = hl_seqio_in_u8(in, &flag, err)) == HL_OK) r->compressed = flag != 0;
  if (st == HL_OK && (st = hl_seqio_in_u8(in, &flag, err)) == HL_OK) r->block = flag != 0;
  if (st == HL_OK && r->compressed) {
    if (version >= 5) {
      st = hl_seqio_in_text(in, 4096, &codec, err);
      if (st == HL_OK) st = hl_hcodec_lookup(in->path, codec, &r->codec, err);
    } else {
      r->codec = HL_HCODEC_DEFLATE; /* before v5 always DefaultCodec */
    }
  }
  if (st == HL_OK && r->block && !r->compressed)
    st = hl_seqio_corrupt(in, err, "block compression without compression");
  if (st == HL_OK && version >= 6) {
    char *unused = NULL;
    st = hl_seqio_in_metadata(in, NULL, &unused, err);
    hl_free(unused);
  }
  if (st == HL_OK) st = hl_seqio_in_read(in, r->sync, HL_SEQIO_SYNC_SIZE, err);
  if (st == HL_OK) {
    if (strcmp(value_class, TEXT_CLASS) == 0)
      r->value_is_text = true;
    else if (strcmp(value_class, BYTES_CLASS) != 0)
      st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": SequenceFile value class \"%s\" is not supported",
                      in->path, value_class);
  }
  hl_free(key_class);
  hl_free(value_class);
  hl_free(codec);
  return st;
}

hl_status_t hl_seqfile_reader_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                   int n_cols, const hl_type_t *const *types,
                                   const char *const *names, const bool *projected,
                                   hl_seqfile_reader_t **out, hl_error_t *err) {
  *out = NULL;
  hl_seqfile_reader_t *r = hl_calloc(1, sizeof *r);
  if (!r) return hl_err_nomem(err);
  hl_buf_init(&r->plain);
  hl_buf_init(&r->blk_lens);
  hl_buf_init(&r->blk_vals);
  hl_buf_init(&r->blk_tmp);
  hl_status_t st = hl_text_decoder_open(path, fmt, n_cols, types, names, projected, &r->dec, err);
  if (st == HL_OK) st = hl_seqio_in_open(&r->in, fs, path, err);
  if (st == HL_OK && r->in.size == 0) r->empty = true;
  if (st == HL_OK && !r->empty) st = read_header(r, err);
  if (st == HL_OK && r->compressed && !(r->cx = hl_hcodec_ctx_new())) st = hl_err_nomem(err);
  if (st != HL_OK) {
    hl_seqfile_reader_close(r);
    return st;
  }
  *out = r;
  return HL_OK;
}

void hl_seqfile_reader_close(hl_seqfile_reader_t *r) {
  if (!r) return;
  hl_seqio_in_close(&r->in);
  hl_hcodec_ctx_free(r->cx);
  hl_text_reader_close(r->dec);
  hl_free(r->rec);
  hl_buf_fini(&r->plain);
  hl_buf_fini(&r->blk_lens);
  hl_buf_fini(&r->blk_vals);
  hl_buf_fini(&r->blk_tmp);
  hl_free(r);
}

static hl_status_t check_sync(hl_seqfile_reader_t *r, hl_error_t *err) {
  uint8_t check[HL_SEQIO_SYNC_SIZE];
  hl_status_t st = hl_seqio_in_read(&r->in, check, sizeof check, err);
  if (st != HL_OK) return st;
  if (memcmp(check, r->sync, sizeof check) != 0)
    return hl_seqio_corrupt(&r->in, err, "sync marker does not match the header");
  return HL_OK;
}

/* The serialized value V[0..n) -> the row bytes inside it. */
static hl_status_t unwrap_value(hl_seqfile_reader_t *r, const unsigned char *v, size_t n,
                                const char **row, size_t *row_len, hl_error_t *err) {
  size_t hdr;
  int64_t len;
  if (r->value_is_text) {
    hdr = hl_seqio_vlong_decode(v, n, &len);
    if (hdr == 0) return hl_seqio_corrupt(&r->in, err, "bad Text value length");
  } else {
    if (n < 4) return hl_seqio_corrupt(&r->in, err, "bad BytesWritable value length");
    len = (int32_t)((uint32_t)v[0] << 24 | (uint32_t)v[1] << 16 | (uint32_t)v[2] << 8 | v[3]);
    hdr = 4;
  }
  if (len < 0 || (uint64_t)len > n - hdr)
    return hl_seqio_corrupt(&r->in, err, "value length exceeds its record");
  *row = (const char *)v + hdr;
  *row_len = (size_t)len;
  return HL_OK;
}

/* Reads and inflates one (vint length, stream) buffer of a block. */
static hl_status_t block_buffer(hl_seqfile_reader_t *r, hl_buf_t *out, hl_error_t *err) {
  int64_t n;
  hl_status_t st = hl_seqio_in_vlong(&r->in, &n, err);
  if (st != HL_OK) return st;
  if (n < 0 || (uint64_t)n > HL_SEQIO_MAX_CHUNK || (uint64_t)n > hl_seqio_in_left(&r->in))
    return hl_seqio_corrupt(&r->in, err, "bad compressed block length");
  if ((st = grow_rec(r, (size_t)n, err)) != HL_OK) return st;
  if ((st = hl_seqio_in_read(&r->in, r->rec, (size_t)n, err)) != HL_OK) return st;
  return hl_hcodec_decompress(r->cx, r->codec, r->in.path, r->rec, (size_t)n, HL_SEQIO_MAX_CHUNK,
                              out, err);
}

/* Loads the next block; *got false at end of file. */
static hl_status_t next_block(hl_seqfile_reader_t *r, bool *got, hl_error_t *err) {
  *got = false;
  if (hl_seqio_in_eof(&r->in)) return HL_OK;
  int32_t escape;
  hl_status_t st = hl_seqio_in_i32(&r->in, &escape, err);
  if (st != HL_OK) return st;
  if (escape != -1) return hl_seqio_corrupt(&r->in, err, "missing sync marker before a block");
  if ((st = check_sync(r, err)) != HL_OK) return st;
  if (hl_seqio_in_eof(&r->in)) return HL_OK;
  int64_t n;
  if ((st = hl_seqio_in_vlong(&r->in, &n, err)) != HL_OK) return st;
  if (n < 0) return hl_seqio_corrupt(&r->in, err, "bad record count in block");
  /* key lengths and keys are not needed: Hive ignores keys */
  if ((st = block_buffer(r, &r->blk_tmp, err)) != HL_OK) return st;
  if ((st = block_buffer(r, &r->blk_tmp, err)) != HL_OK) return st;
  if ((st = block_buffer(r, &r->blk_lens, err)) != HL_OK) return st;
  if ((st = block_buffer(r, &r->blk_vals, err)) != HL_OK) return st;
  r->blk_left = n;
  r->lens_pos = r->vals_pos = 0;
  *got = true;
  return HL_OK;
}

/* The next value of a block-compressed file; *got false at end. */
static hl_status_t next_block_value(hl_seqfile_reader_t *r, const unsigned char **v, size_t *n,
                                    bool *got, hl_error_t *err) {
  while (r->blk_left == 0) {
    bool more;
    hl_status_t st = next_block(r, &more, err);
    if (st != HL_OK) return st;
    if (!more) {
      *got = false;
      return HL_OK;
    }
  }
  int64_t len;
  size_t used = r->lens_pos < r->blk_lens.len ? /* an empty buffer may have no memory */
                    hl_seqio_vlong_decode((const unsigned char *)r->blk_lens.data + r->lens_pos,
                                          r->blk_lens.len - r->lens_pos, &len)
                                              : 0;
  if (used == 0)
    return hl_seqio_corrupt(&r->in, err, "block holds fewer value lengths than records");
  r->lens_pos += used;
  if (len < 0 || (uint64_t)len > r->blk_vals.len - r->vals_pos)
    return hl_seqio_corrupt(&r->in, err, "value length exceeds its block");
  *v = r->blk_vals.data ? (const unsigned char *)r->blk_vals.data + r->vals_pos
                        : (const unsigned char *)"";
  *n = (size_t)len;
  r->vals_pos += (size_t)len;
  r->blk_left--;
  *got = true;
  return HL_OK;
}

/* The next value of an uncompressed or record-compressed file. */
static hl_status_t next_record_value(hl_seqfile_reader_t *r, const unsigned char **v, size_t *n,
                                     bool *got, hl_error_t *err) {
  *got = false;
  int32_t len;
  hl_status_t st;
  for (;;) {
    if (hl_seqio_in_eof(&r->in)) return HL_OK;
    if ((st = hl_seqio_in_i32(&r->in, &len, err)) != HL_OK) return st;
    if (len != -1) break;
    if ((st = check_sync(r, err)) != HL_OK) return st;
  }
  int32_t key_len;
  if ((st = hl_seqio_in_i32(&r->in, &key_len, err)) != HL_OK) return st;
  if (len < 0 || key_len < 0 || key_len > len || (size_t)len > HL_SEQIO_MAX_CHUNK ||
      (uint64_t)len > hl_seqio_in_left(&r->in))
    return hl_seqio_corrupt(&r->in, err, "bad record length");
  if ((st = hl_seqio_in_read(&r->in, NULL, (size_t)key_len, err)) != HL_OK) return st;
  size_t vlen = (size_t)(len - key_len);
  if ((st = grow_rec(r, vlen ? vlen : 1, err)) != HL_OK) return st;
  if ((st = hl_seqio_in_read(&r->in, r->rec, vlen, err)) != HL_OK) return st;
  if (r->compressed) {
    st = hl_hcodec_decompress(r->cx, r->codec, r->in.path, r->rec, vlen, HL_SEQIO_MAX_CHUNK,
                              &r->plain, err);
    if (st != HL_OK) return st;
    *v = (const unsigned char *)(r->plain.len ? r->plain.data : "");
    *n = r->plain.len;
  } else {
    *v = r->rec;
    *n = vlen;
  }
  *got = true;
  return HL_OK;
}

hl_status_t hl_seqfile_reader_next(hl_seqfile_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  batch->n_rows = 0;
  hl_status_t st = hl_text_decoder_begin(r->dec, batch, err);
  if (st != HL_OK) return st;
  uint32_t row = 0;
  while (row < HL_BATCH_CAP && !r->empty) {
    if (row > 0 && hl_arena_used(batch->arena) > BATCH_SOFT_BYTES) break;
    const unsigned char *v = NULL;
    size_t n = 0;
    bool got;
    st =
        r->block ? next_block_value(r, &v, &n, &got, err) : next_record_value(r, &v, &n, &got, err);
    if (st != HL_OK) return st;
    if (!got) break;
    const char *text = NULL;
    size_t text_len = 0;
    if ((st = unwrap_value(r, v, n, &text, &text_len, err)) != HL_OK) return st;
    if ((st = hl_text_decoder_row(r->dec, batch, row, text, text_len, err)) != HL_OK) return st;
    row++;
  }
  batch->n_rows = row;
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                   */
/* ---------------------------------------------------------------------- */

hl_status_t hl_seqfile_ctype_parse(const char *name, hl_seqfile_ctype_t *out, hl_error_t *err) {
  static const char *const names[] = {"NONE", "RECORD", "BLOCK"};
  for (int i = 0; i < 3; i++)
    if (strcmp(name, names[i]) == 0) return *out = (hl_seqfile_ctype_t)i, HL_OK;
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "SequenceFile compression type \"%s\" is not NONE, RECORD or BLOCK", name);
}

struct hl_seqfile_writer {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  char *path;
  hl_text_writer_t *enc; /* row encoder */
  hl_seqfile_write_opts_t opts;
  hl_hcodec_ctx_t *cx; /* codec state reused from value to value */
  uint8_t sync[HL_SEQIO_SYNC_SIZE];
  hl_buf_t out;       /* bytes not yet appended to the file */
  uint64_t pos;       /* file position after out */
  uint64_t last_sync; /* position after the last sync marker (Hadoop's lastSyncPos) */
  uint64_t raw_bytes;
  bool failed;
  bool bytes_values; /* BytesWritable values (LazyBinarySerDe rows), else Text */
  /* compression: a serialized value, and its codec stream */
  hl_buf_t value, packed;
  /* BLOCK: the block being gathered (BlockCompressWriter's buffers) */
  hl_buf_t key_lens, keys, val_lens, vals;
  int64_t block_records;
};

static void writer_free(hl_seqfile_writer_t *w) {
  hl_text_writer_close(w->enc, NULL);
  hl_hcodec_ctx_free(w->cx);
  hl_buf_fini(&w->out);
  hl_buf_fini(&w->value);
  hl_buf_fini(&w->packed);
  hl_buf_fini(&w->key_lens);
  hl_buf_fini(&w->keys);
  hl_buf_fini(&w->val_lens);
  hl_buf_fini(&w->vals);
  hl_free(w->path);
  hl_free(w);
}
static hl_status_t flush_out(hl_seqfile_writer_t *w, hl_error_t *err) {
  if (w->out.oom) {
    w->failed = true;
    return hl_err_nomem(err);
  }
  if (w->out.len == 0) return HL_OK;
  hl_status_t st = w->fs->ops->append(w->file, w->out.data, w->out.len, err);
  if (st != HL_OK) {
    w->failed = true;
    return st;
  }
  hl_buf_reset(&w->out);
  return HL_OK;
}

hl_status_t hl_seqfile_writer_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                   int n_cols, const hl_type_t *const *types,
                                   const char *const *names, const hl_seqfile_write_opts_t *opts,
                                   const uint8_t *sync, hl_seqfile_writer_t **out,
                                   hl_error_t *err) {
  *out = NULL;
  if (opts && opts->type != HL_SEQFILE_NONE && opts->codec == HL_HCODEC_NONE)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "compressed SequenceFile without codec");
  hl_seqfile_writer_t *w = hl_calloc(1, sizeof *w);
  if (!w) return hl_err_nomem(err);
  hl_buf_init(&w->out);
  hl_buf_init(&w->value);
  hl_buf_init(&w->packed);
  hl_buf_init(&w->key_lens);
  hl_buf_init(&w->keys);
  hl_buf_init(&w->val_lens);
  hl_buf_init(&w->vals);
  if (opts) w->opts = *opts;
  if (w->opts.type == HL_SEQFILE_NONE) w->opts.codec = HL_HCODEC_NONE;
  if (w->opts.block_bytes == 0) w->opts.block_bytes = HL_SEQFILE_BLOCK_BYTES;
  if (w->opts.block_bytes > HL_SEQIO_MAX_CHUNK / 2) w->opts.block_bytes = HL_SEQIO_MAX_CHUNK / 2;
  w->fs = fs;
  w->path = hl_strdup(path);
  if (w->opts.type != HL_SEQFILE_NONE) w->cx = hl_hcodec_ctx_new();
  if (!w->path || (w->opts.type != HL_SEQFILE_NONE && !w->cx)) {
    writer_free(w);
    return hl_err_nomem(err);
  }
  hl_status_t st = hl_text_encoder_open(fmt, n_cols, types, names, &w->enc, err);
  if (st != HL_OK) {
    writer_free(w);
    return st;
  }
  if (sync)
    memcpy(w->sync, sync, sizeof w->sync);
  else
    hl_seqio_random_sync(w->sync);
  /* Hive: SequenceFile.Writer with BytesWritable keys, Text values, the
   * session's compression, empty metadata */
  hl_buf_append(&w->out, "SEQ\x06", 4);
  hl_seqio_put_text(&w->out, KEY_CLASS);
  /* LazyBinarySerDe's rows are BytesWritable, the text serdes' Text */
  w->bytes_values = fmt->kind == HL_TEXT_LAZYBIN;
  hl_seqio_put_text(&w->out, w->bytes_values ? BYTES_CLASS : TEXT_CLASS);
  hl_buf_putc(&w->out, w->opts.type != HL_SEQFILE_NONE);  /* compressed */
  hl_buf_putc(&w->out, w->opts.type == HL_SEQFILE_BLOCK); /* block compressed */
  if (w->opts.type != HL_SEQFILE_NONE) /* the class asked for: DeflateCodec stays DeflateCodec */
    hl_seqio_put_text(&w->out,
                      w->opts.codec_class ? w->opts.codec_class : hl_hcodec_class(w->opts.codec));
  w->opts.codec_class = NULL;   /* borrowed only until here */
  hl_seqio_put_i32(&w->out, 0); /* metadata: no entries */
  hl_buf_append(&w->out, w->sync, sizeof w->sync);
  w->pos = w->out.len;
  if (w->out.oom) {
    writer_free(w);
    return hl_err_nomem(err);
  }
  st = fs->ops->create(fs, w->path, &w->file, err);
  if (st != HL_OK) {
    writer_free(w);
    return st;
  }
  *out = w;
  return HL_OK;
}

static hl_status_t too_long(const hl_seqfile_writer_t *w, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                    "cannot write \"%s\": a row is longer than 2 GiB", w->path);
}

static hl_status_t codec_failed(const hl_seqfile_writer_t *w, hl_error_t *err) {
  if (w->packed.oom) return hl_err_nomem(err);
  return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR),
                    "cannot write \"%s\": %s compression failed", w->path,
                    hl_hcodec_name(w->opts.codec));
}

/* Appends the serialized value of ROW[0..n) (Text or BytesWritable) to BUF. */
static void put_value(const hl_seqfile_writer_t *w, hl_buf_t *buf, const char *row, size_t n) {
  if (w->bytes_values)
    hl_seqio_put_i32(buf, (int32_t)n); /* BytesWritable value */
  else
    hl_seqio_put_vlong(buf, (int64_t)n); /* Text value */
  hl_buf_append(buf, row, n);
}

/* Writer.checkAndWriteSync, before each record of an unblocked file. */
static void record_sync(hl_seqfile_writer_t *w) {
  if (w->pos < w->last_sync + HL_SEQFILE_SYNC_INTERVAL) return;
  hl_seqio_put_i32(&w->out, -1);
  hl_buf_append(&w->out, w->sync, sizeof w->sync);
  w->pos += 4 + HL_SEQIO_SYNC_SIZE;
  w->last_sync = w->pos;
}

/* One record of an uncompressed or RECORD-compressed file: record length,
 * key length, the empty BytesWritable key, the value (its codec stream). */
static hl_status_t put_record(hl_seqfile_writer_t *w, const char *row, size_t n, hl_error_t *err) {
  const char *v = NULL;
  size_t vlen = 0;
  if (w->opts.type == HL_SEQFILE_RECORD) {
    hl_buf_reset(&w->value);
    hl_buf_reset(&w->packed);
    put_value(w, &w->value, row, n);
    if (w->value.oom) return hl_err_nomem(err);
    if (!hl_hcodec_compress(w->cx, w->opts.codec, w->value.data, w->value.len, &w->packed) ||
        w->packed.oom)
      return codec_failed(w, err);
    v = w->packed.data;
    vlen = w->packed.len;
    if (vlen + 4 > (uint64_t)INT32_MAX) return too_long(w, err);
  }
  record_sync(w);
  if (w->opts.type == HL_SEQFILE_RECORD) {
    hl_seqio_put_i32(&w->out, (int32_t)(4 + vlen)); /* record length */
    hl_seqio_put_i32(&w->out, 4);                   /* key length */
    hl_seqio_put_i32(&w->out, 0);                   /* the empty BytesWritable */
    hl_buf_append(&w->out, v, vlen);
    w->pos += 12 + vlen;
    return HL_OK;
  }
  uint64_t value_len = (w->bytes_values ? 4 : (uint64_t)hl_seqio_vlong_size((int64_t)n)) + n;
  hl_seqio_put_i32(&w->out, (int32_t)(4 + value_len));
  hl_seqio_put_i32(&w->out, 4);
  hl_seqio_put_i32(&w->out, 0);
  put_value(w, &w->out, row, n);
  w->pos += 12 + value_len;
  return HL_OK;
}

/* BlockCompressWriter.sync: the gathered records as one block -- sync
 * escape, record count, then each buffer as a vint length and its codec
 * stream. */
static hl_status_t flush_block(hl_seqfile_writer_t *w, hl_error_t *err) {
  if (w->block_records == 0) return HL_OK;
  hl_buf_t *parts[4] = {&w->key_lens, &w->keys, &w->val_lens, &w->vals};
  hl_seqio_put_i32(&w->out, -1);
  hl_buf_append(&w->out, w->sync, sizeof w->sync);
  size_t before = w->out.len;
  hl_seqio_put_vlong(&w->out, w->block_records);
  for (int i = 0; i < 4; i++) {
    if (parts[i]->oom) return hl_err_nomem(err);
    hl_buf_reset(&w->packed);
    if (!hl_hcodec_compress(w->cx, w->opts.codec, parts[i]->data, parts[i]->len, &w->packed) ||
        w->packed.oom)
      return codec_failed(w, err);
    if (w->packed.len > (size_t)INT32_MAX) return too_long(w, err);
    hl_seqio_put_vlong(&w->out, (int64_t)w->packed.len);
    hl_buf_append(&w->out, w->packed.data, w->packed.len);
    hl_buf_reset(parts[i]);
  }
  w->pos += 4 + HL_SEQIO_SYNC_SIZE + (w->out.len - before);
  w->last_sync = w->pos;
  w->block_records = 0;
  return HL_OK;
}

hl_status_t hl_seqfile_writer_write(hl_seqfile_writer_t *w, const hl_batch_t *batch,
                                    hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "write after a failed write");
  uint32_t live = hl_batch_live(batch);
  for (uint32_t i = 0; i < live; i++) {
    const char *row;
    size_t n;
    hl_status_t st = hl_text_encoder_row(w->enc, batch, hl_batch_row(batch, i), &row, &n, err);
    if (st != HL_OK) return st;
    uint64_t value_len = (w->bytes_values ? 4 : (uint64_t)hl_seqio_vlong_size((int64_t)n)) + n;
    if (value_len + 4 > (uint64_t)INT32_MAX) return too_long(w, err);
    if (w->opts.type == HL_SEQFILE_BLOCK) {
      /* BlockCompressWriter.append: the key and value into their buffers,
       * a block once the keys and values reach the block size */
      hl_seqio_put_vlong(&w->key_lens, 4);
      hl_seqio_put_i32(&w->keys, 0);
      hl_seqio_put_vlong(&w->val_lens, (int64_t)value_len);
      put_value(w, &w->vals, row, n);
      w->block_records++;
      if (w->vals.oom || w->keys.oom || w->key_lens.oom || w->val_lens.oom)
        return hl_err_nomem(err);
      if (w->keys.len + w->vals.len >= w->opts.block_bytes && (st = flush_block(w, err)) != HL_OK) {
        w->failed = true;
        return st;
      }
    } else if ((st = put_record(w, row, n, err)) != HL_OK) {
      w->failed = true;
      return st;
    }
    w->raw_bytes += n + 1;
    if (w->out.len >= FLUSH_BYTES || w->out.oom) {
      st = flush_out(w, err);
      if (st != HL_OK) return st;
    }
  }
  return HL_OK;
}

hl_status_t hl_seqfile_writer_close(hl_seqfile_writer_t *w, hl_error_t *err) {
  if (!w) return HL_OK;
  hl_status_t st = HL_OK;
  if (w->failed)
    st = hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR), "cannot write \"%s\": an earlier write failed",
                    w->path);
  if (st == HL_OK) st = flush_block(w, err); /* BlockCompressWriter.close: the last block */
  if (st == HL_OK) st = flush_out(w, err);
  if (st == HL_OK) st = w->fs->ops->sync(w->file, err);
  hl_status_t cst = w->fs->ops->close(w->file, err);
  if (st == HL_OK) st = cst;
  writer_free(w);
  return st;
}

void hl_seqfile_writer_abort(hl_seqfile_writer_t *w) {
  if (!w) return;
  hl_error_t e;
  hl_err_init(&e);
  w->fs->ops->close(w->file, &e);
  hl_err_clear(&e);
  writer_free(w);
}

uint64_t hl_seqfile_writer_mem(const hl_seqfile_writer_t *w) {
  return sizeof *w + w->out.cap + w->value.cap + w->packed.cap + w->key_lens.cap + w->keys.cap +
         w->val_lens.cap + w->vals.cap + hl_hcodec_ctx_mem(w->cx) +
         (w->enc ? hl_text_writer_mem(w->enc) : 0);
}

uint64_t hl_seqfile_writer_raw_bytes(const hl_seqfile_writer_t *w) {
  return w ? w->raw_bytes : 0;
}
