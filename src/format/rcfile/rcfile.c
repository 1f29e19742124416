/*
 * rcfile.c -- RCFile reader and writer for Hive RCFILE tables.
 *
 * Layout (org.apache.hadoop.hive.ql.io.RCFile; see rcfile.h):
 *
 *   header     "RCF" 1 compressed(1) [codec(Text)] metadata sync(16)
 *           or "SEQ" 6 keyClass valueClass compressed(1) 0 [codec] metadata sync
 *   row group  [-1 sync(16)]  recordLen(int) keyLen(int) storedKeyLen(int)
 *              key:   rows(vlong), per column: bufferLen(vlong)
 *                     plainLen(vlong) lensLen(vlong) lens(RLE vlongs)
 *              value: the column buffers back to back
 *
 * recordLen = keyLen + value bytes; storedKeyLen is keyLen unless the file
 * is compressed (then the key is one compressed stream and every column
 * buffer another).  Cell lengths are run-length encoded: a length L >= 0,
 * then optionally ~k for k more cells of length L.
 *
 * Cells (LazyBinaryColumnarSerDe): empty = NULL; BOOLEAN/TINYINT one byte,
 * SMALLINT two bytes big-endian, INT/BIGINT/DATE (days) vlong, FLOAT/DOUBLE
 * IEEE big-endian, STRING/VARCHAR/CHAR/BINARY raw bytes (STRING '' = 0xBF),
 * DECIMAL vint scale + vint length + two's-complement big-endian unscaled
 * value (trailing zeros dropped, as HiveDecimal does), TIMESTAMP as
 * TimestampWritable: int seconds (bit 31 set when more follows), then
 * reversed nanoseconds as a vint (negative when a second vlong holds the
 * seconds above bit 31).
 *
 * Invariant: the key part is validated when a row group is loaded (column
 * lengths add up to the value part, every projected column's cell lengths
 * add up to its buffer and its row count), so per-row decoding cannot run
 * past a buffer.
 */
#include "format/rcfile/rcfile.h"

#include "format/lazybin/lazybin.h"

#include "format/hcodec/hcodec.h"
#include "format/seqfile/seq_io.h"
#include "util/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_CLASS        "org.apache.hadoop.hive.ql.io.RCFile$KeyBuffer"
#define VALUE_CLASS      "org.apache.hadoop.hive.ql.io.RCFile$ValueBuffer"
#define COLUMN_NUMBER    "hive.io.rcfile.column.number"
#define LAZY_BINARY      "org.apache.hadoop.hive.serde2.columnar.LazyBinaryColumnarSerDe"
#define COLUMNAR         "org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe"
#define EMPTY_STRING     0xBF /* LazyBinaryColumnarSerDe.INVALID_UTF__SINGLE_BYTE */
#define MAX_COLUMNS      100000
#define FLUSH_BYTES      ((size_t)256 << 10)
#define BATCH_SOFT_BYTES ((size_t)32 << 20)

hl_status_t hl_rcfile_format_init(hl_rcfile_format_t *fmt, hl_arena_t *arena, const char *serde_lib,
                                  const hl_kv_t *serde_params, int n_serde_params,
                                  const hl_kv_t *tbl_params, int n_tbl_params, hl_error_t *err) {
  memset(fmt, 0, sizeof *fmt);
  if (!serde_lib || !*serde_lib || strcmp(serde_lib, LAZY_BINARY) == 0)
    fmt->binary = true;
  else if (strcmp(serde_lib, COLUMNAR) != 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "serde \"%s\" is not supported for RCFILE tables", serde_lib);
  /* ColumnarSerDe takes LazySimpleSerDe's parameters (separators, null
   * string, escape) */
  return hl_text_format_init(&fmt->text, arena, NULL, serde_params, n_serde_params, tbl_params,
                             n_tbl_params, err);
}

static hl_status_t check_types(const hl_rcfile_format_t *fmt, int n_cols,
                               const hl_type_t *const *types, const char *const *names,
                               hl_error_t *err) {
  if (!fmt->binary) return HL_OK;
  return hl_lazybin_check_types(n_cols, types, names, err);
}

/* ---------------------------------------------------------------------- */
/* LazyBinary cells                                                         */
/* ---------------------------------------------------------------------- */

/* Appends the LazyBinaryColumnarSerDe bytes of V (of TYPE) to B.  Returns
 * false for the one value Hive refuses, a non-NULL empty BINARY. */
static bool put_binary_cell(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v) {
  if (v->is_null) return true;
  switch (type->id) {
  case HL_T_BOOLEAN:
    hl_buf_putc(b, v->u.b ? 1 : 0);
    return true;
  case HL_T_TINYINT:
    hl_buf_putc(b, (char)(int8_t)v->u.i);
    return true;
  case HL_T_SMALLINT:
    hl_lazybin_put_be(b, (uint64_t)v->u.i, 2);
    return true;
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
    hl_seqio_put_vlong(b, v->u.i);
    return true;
  case HL_T_FLOAT: {
    float f = (float)v->u.d;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    hl_lazybin_put_be(b, bits, 4);
    return true;
  }
  case HL_T_DOUBLE: {
    uint64_t bits;
    memcpy(&bits, &v->u.d, 8);
    hl_lazybin_put_be(b, bits, 8);
    return true;
  }
  case HL_T_STRING:
    if (v->u.s.len == 0)
      hl_buf_putc(b, (char)EMPTY_STRING);
    else
      hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return true;
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return true;
  case HL_T_BINARY:
    if (v->u.s.len == 0) return false;
    hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return true;
  case HL_T_TIMESTAMP:
    hl_lazybin_put_timestamp(b, v->u.i);
    return true;
  case HL_T_DECIMAL:
    hl_lazybin_put_decimal(b, v->u.dec, type->scale);
    return true;
  default: /* ARRAY, MAP, STRUCT, UNIONTYPE: never empty, so never taken for NULL */
    hl_lazybin_encode_cell(b, type, v);
    return true;
  }
}

/* Decodes cell P[0..n) (n > 0) of TYPE into *out in ARENA; bytes that are
 * not a value of the type read as NULL, as a text value that does not
 * convert.  Only running out of memory fails. */
static hl_status_t get_binary_cell(hl_arena_t *arena, const hl_type_t *type, const unsigned char *p,
                                   size_t n, hl_value_t *out, hl_error_t *conv, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  int64_t i;
  switch (type->id) {
  case HL_T_BOOLEAN:
    out->u.b = p[0] != 0;
    return HL_OK;
  case HL_T_TINYINT:
    out->u.i = (int8_t)p[0];
    return HL_OK;
  case HL_T_SMALLINT:
    if (n < 2) break;
    out->u.i = hl_lazybin_be_int(p, 2);
    return HL_OK;
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
    if (!hl_seqio_vlong_decode(p, n, &i)) break;
    if (type->id != HL_T_BIGINT && (i < INT32_MIN || i > INT32_MAX)) break;
    out->u.i = i;
    return HL_OK;
  case HL_T_FLOAT: {
    if (n < 4) break;
    uint32_t bits = (uint32_t)hl_lazybin_be_int(p, 4);
    float f;
    memcpy(&f, &bits, 4);
    out->u.d = f;
    return HL_OK;
  }
  case HL_T_DOUBLE: {
    if (n < 8) break;
    uint64_t bits = (uint64_t)hl_lazybin_be_int(p, 8);
    memcpy(&out->u.d, &bits, 8);
    return HL_OK;
  }
  case HL_T_STRING:
  case HL_T_BINARY: {
    if (type->id == HL_T_STRING && n == 1 && p[0] == EMPTY_STRING) {
      out->u.s.ptr = "";
      return HL_OK;
    }
    char *c = hl_arena_alloc(arena, n);
    if (!c) return hl_err_nomem(err);
    memcpy(c, p, n);
    out->u.s.ptr = c;
    out->u.s.len = (uint32_t)n;
    return HL_OK;
  }
  case HL_T_VARCHAR:
  case HL_T_CHAR: { /* truncation / padding as the column declares */
    hl_status_t st = hl_value_from_text(arena, type, (const char *)p, n, out, conv);
    if (st == HL_NOMEM) return hl_err_nomem(err);
    if (st != HL_OK) break;
    return HL_OK;
  }
  case HL_T_TIMESTAMP: {
    size_t used;
    if (!hl_lazybin_get_timestamp(p, n, &used, &out->u.i)) break;
    return HL_OK;
  }
  case HL_T_DECIMAL: {
    size_t used;
    bool ok;
    hl_status_t st = hl_lazybin_get_decimal(arena, type, p, n, &used, &ok, out, err);
    if (st != HL_OK) return st;
    if (!ok) break;
    return HL_OK;
  }
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION: { /* as a row's nested value, without its size; damaged: NULL */
    bool ok;
    const char *why;
    hl_status_t st = hl_lazybin_decode_cell(p, n, type, out, arena, &ok, &why, err);
    if (st != HL_OK) return st;
    if (!ok) break;
    return HL_OK;
  }
  default:
    break;
  }
  hl_err_clear(conv);
  memset(out, 0, sizeof *out);
  out->is_null = true;
  return HL_OK;
}

static hl_status_t store(hl_vec_t *vec, hl_arena_t *arena, uint32_t row, const hl_value_t *v,
                         hl_error_t *err) {
  if (v->is_null) return hl_vec_set_null(vec, arena, row) == HL_OK ? HL_OK : hl_err_nomem(err);
  switch (hl_type_phys(vec->type)) {
  case HL_P_BOOL:
    HL_VEC_BOOL(vec)[row] = v->u.b ? 1 : 0;
    break;
  case HL_P_I64:
    HL_VEC_I64(vec)[row] = v->u.i;
    break;
  case HL_P_F64:
    HL_VEC_F64(vec)[row] = v->u.d;
    break;
  case HL_P_I128:
    HL_VEC_I128(vec)[row] = v->u.dec;
    break;
  case HL_P_STR:
    HL_VEC_STR(vec)[row] = v->u.s;
    break;
  case HL_P_VALUE: { /* kept by pointer: a copy in the batch arena */
    hl_value_t *c = hl_arena_alloc(arena, sizeof *c);
    if (!c) return hl_err_nomem(err);
    *c = *v;
    HL_VEC_VALUE(vec)[row] = c;
    break;
  }
  }
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* Reader                                                                   */
/* ---------------------------------------------------------------------- */

typedef struct rc_col {
  bool loaded;               /* projected and present in the file */
  bool nulled;               /* no cell lengths: every cell NULL */
  const unsigned char *lens; /* RLE cell lengths (in the key buffer) */
  size_t lens_len, lens_pos;
  int64_t prev_len, run_left; /* RLE state */
  const unsigned char *data;  /* the column buffer, plain */
  size_t data_len, data_pos;
  hl_buf_t plain; /* inflated buffer (compressed files) */
} rc_col_t;

struct hl_rcfile_reader {
  hl_seqio_in_t in;
  bool binary;
  hl_text_reader_t *dec; /* batch setup; ColumnarSerDe cells */
  int n_cols;
  const hl_type_t *const *types;
  bool *projected;
  int64_t file_cols;
  bool compressed, empty;
  hl_hcodec_t codec;
  hl_hcodec_ctx_t *cx; /* codec state reused from buffer to buffer */
  uint8_t sync[HL_SEQIO_SYNC_SIZE];
  unsigned char *key, *val; /* current row group's key and value bytes (heap) */
  size_t key_cap, val_cap;
  hl_buf_t key_plain;
  rc_col_t *cols;
  int64_t group_rows, group_pos;
  hl_error_t conv;
};

static hl_status_t grow(unsigned char **p, size_t *cap, size_t n, hl_error_t *err) {
  if (n <= *cap) return HL_OK;
  size_t c = *cap ? *cap : 4096;
  while (c < n)
    c *= 2;
  unsigned char *q = hl_realloc(*p, c);
  if (!q) return hl_err_nomem(err);
  *p = q;
  *cap = c;
  return HL_OK;
}

static hl_status_t read_header(hl_rcfile_reader_t *r, hl_error_t *err) {
  hl_seqio_in_t *in = &r->in;
  unsigned char magic[4];
  hl_status_t st = hl_seqio_in_read(in, magic, 4, err);
  if (st != HL_OK) {
    hl_err_clear(err);
    return hl_seqio_corrupt(in, err, "not an RCFile (file too short)");
  }
  bool original = memcmp(magic, "SEQ", 3) == 0;
  if (original) {
    if (magic[3] != 6) return hl_seqio_corrupt(in, err, "a SequenceFile, not an RCFile");
  } else if (memcmp(magic, "RCF", 3) != 0) {
    return hl_seqio_corrupt(in, err, "not an RCFile (bad magic)");
  } else if (magic[3] > 1) {
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": RCFile version %d is not supported", in->path, magic[3]);
  }
  char *key_class = NULL, *value_class = NULL, *codec = NULL, *ncols = NULL;
  if (original) {
    st = hl_seqio_in_text(in, 4096, &key_class, err);
    if (st == HL_OK) st = hl_seqio_in_text(in, 4096, &value_class, err);
    if (st == HL_OK && (strcmp(key_class, KEY_CLASS) != 0 || strcmp(value_class, VALUE_CLASS) != 0))
      st = hl_seqio_corrupt(in, err, "a SequenceFile, not an RCFile");
  }
  uint8_t flag = 0;
  if (st == HL_OK) st = hl_seqio_in_u8(in, &flag, err);
  r->compressed = flag != 0;
  if (st == HL_OK && original) {
    st = hl_seqio_in_u8(in, &flag, err);
    if (st == HL_OK && flag) st = hl_seqio_corrupt(in, err, "RCFile marked block-compressed");
  }
  if (st == HL_OK && r->compressed) {
    st = hl_seqio_in_text(in, 4096, &codec, err);
    if (st == HL_OK) st = hl_hcodec_lookup(in->path, codec, &r->codec, err);
  }
  if (st == HL_OK) st = hl_seqio_in_metadata(in, COLUMN_NUMBER, &ncols, err);
  if (st == HL_OK) st = hl_seqio_in_read(in, r->sync, HL_SEQIO_SYNC_SIZE, err);
  if (st == HL_OK) {
    char *end = NULL;
    long n = ncols ? strtol(ncols, &end, 10) : -1;
    if (!ncols || end == ncols || *end || n < 0 || n > MAX_COLUMNS)
      st = hl_seqio_corrupt(in, err, "missing or bad hive.io.rcfile.column.number");
    else
      r->file_cols = n;
  }
  hl_free(key_class);
  hl_free(value_class);
  hl_free(codec);
  hl_free(ncols);
  return st;
}

hl_status_t hl_rcfile_reader_open(hl_stor_t *fs, const char *path, const hl_rcfile_format_t *fmt,
                                  int n_cols, const hl_type_t *const *types,
                                  const char *const *names, const bool *projected,
                                  hl_rcfile_reader_t **out, hl_error_t *err) {
  *out = NULL;
  hl_status_t st = check_types(fmt, n_cols, types, names, err);
  if (st != HL_OK) return st;
  hl_rcfile_reader_t *r = hl_calloc(1, sizeof *r);
  if (!r) return hl_err_nomem(err);
  hl_err_init(&r->conv);
  hl_buf_init(&r->key_plain);
  r->binary = fmt->binary;
  r->n_cols = n_cols;
  r->types = types;
  r->projected = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof(bool));
  r->cols = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof(rc_col_t));
  if (!r->projected || !r->cols) {
    hl_rcfile_reader_close(r);
    return hl_err_nomem(err);
  }
  for (int col = 0; col < n_cols; col++) {
    r->projected[col] = !projected || projected[col];
    hl_buf_init(&r->cols[col].plain);
  }
  st = hl_text_decoder_open(path, &fmt->text, n_cols, types, names, r->projected, &r->dec, err);
  if (st == HL_OK) st = hl_seqio_in_open(&r->in, fs, path, err);
  if (st == HL_OK && r->in.size == 0) r->empty = true; /* Hive's empty bucket files */
  if (st == HL_OK && !r->empty) st = read_header(r, err);
  if (st == HL_OK && r->compressed && !(r->cx = hl_hcodec_ctx_new())) st = hl_err_nomem(err);
  if (st != HL_OK) {
    hl_rcfile_reader_close(r);
    return st;
  }
  *out = r;
  return HL_OK;
}

void hl_rcfile_reader_close(hl_rcfile_reader_t *r) {
  if (!r) return;
  hl_seqio_in_close(&r->in);
  hl_hcodec_ctx_free(r->cx);
  hl_text_reader_close(r->dec);
  if (r->cols)
    for (int col = 0; col < r->n_cols; col++)
      hl_buf_fini(&r->cols[col].plain);
  hl_free(r->cols);
  hl_free(r->projected);
  hl_free(r->key);
  hl_free(r->val);
  hl_buf_fini(&r->key_plain);
  hl_err_clear(&r->conv);
  hl_free(r);
}

/* Checks that the RLE lengths LENS[0..n) describe ROWS cells of BYTES
 * bytes in total. */
static bool lens_valid(const unsigned char *lens, size_t n, int64_t rows, int64_t bytes) {
  int64_t got_rows = 0, got_bytes = 0, prev = -1;
  size_t pos = 0;
  while (pos < n) {
    int64_t v;
    size_t used = hl_seqio_vlong_decode(lens + pos, n - pos, &v);
    if (!used) return false;
    pos += used;
    int64_t count = 1;
    if (v < 0) {
      count = ~v;
      if (prev < 0 || count < 1) return false;
      v = prev;
    }
    prev = v;
    int64_t add;
    if (__builtin_mul_overflow(count, v, &add) ||
        __builtin_add_overflow(got_bytes, add, &got_bytes) ||
        __builtin_add_overflow(got_rows, count, &got_rows))
      return false;
    if (got_rows > rows || got_bytes > bytes) return false;
  }
  return got_rows == rows && got_bytes == bytes;
}

/* Reads the next row group's key and value parts; *got false at end. */
static hl_status_t load_group(hl_rcfile_reader_t *r, bool *got, hl_error_t *err) {
  hl_seqio_in_t *in = &r->in;
  *got = false;
  int32_t record_len;
  hl_status_t st;
  for (;;) {
    if (hl_seqio_in_eof(in)) return HL_OK;
    if ((st = hl_seqio_in_i32(in, &record_len, err)) != HL_OK) return st;
    if (record_len != -1) break;
    uint8_t check[HL_SEQIO_SYNC_SIZE];
    if ((st = hl_seqio_in_read(in, check, sizeof check, err)) != HL_OK) return st;
    if (memcmp(check, r->sync, sizeof check) != 0)
      return hl_seqio_corrupt(in, err, "sync marker does not match the header");
  }
  int32_t key_len, stored_key_len;
  if ((st = hl_seqio_in_i32(in, &key_len, err)) != HL_OK) return st;
  if ((st = hl_seqio_in_i32(in, &stored_key_len, err)) != HL_OK) return st;
  if (record_len < 0 || key_len < 0 || stored_key_len < 0 || key_len > record_len ||
      (size_t)key_len > HL_SEQIO_MAX_CHUNK || (!r->compressed && stored_key_len != key_len) ||
      (uint64_t)stored_key_len + (uint64_t)(record_len - key_len) > hl_seqio_in_left(in))
    return hl_seqio_corrupt(in, err, "bad row group lengths");
  size_t val_len = (size_t)(record_len - key_len);
  if ((st = grow(&r->key, &r->key_cap, (size_t)stored_key_len + 1, err)) != HL_OK) return st;
  if ((st = hl_seqio_in_read(in, r->key, (size_t)stored_key_len, err)) != HL_OK) return st;
  if ((st = grow(&r->val, &r->val_cap, val_len + 1, err)) != HL_OK) return st;
  if ((st = hl_seqio_in_read(in, r->val, val_len, err)) != HL_OK) return st;
  const unsigned char *key = r->key;
  size_t kn = (size_t)key_len;
  if (r->compressed) {
    st = hl_hcodec_decompress(r->cx, r->codec, in->path, r->key, (size_t)stored_key_len, kn,
                              &r->key_plain, err);
    if (st != HL_OK) return st;
    if (r->key_plain.len != kn)
      return hl_seqio_corrupt(in, err, "compressed key has the wrong length");
    key = (const unsigned char *)(r->key_plain.len ? r->key_plain.data : "");
  }
  /* the key part */
  size_t kpos = 0, used;
  int64_t rows;
  if (!(used = hl_seqio_vlong_decode(key, kn, &rows)) || rows < 0)
    return hl_seqio_corrupt(in, err, "bad row count in row group");
  kpos += used;
  size_t vpos = 0;
  for (int64_t fc = 0; fc < r->file_cols; fc++) {
    int64_t col_len, plain_len, lens_len;
    if (!(used = hl_seqio_vlong_decode(key + kpos, kn - kpos, &col_len)))
      return hl_seqio_corrupt(in, err, "truncated row group key");
    kpos += used;
    if (!(used = hl_seqio_vlong_decode(key + kpos, kn - kpos, &plain_len)))
      return hl_seqio_corrupt(in, err, "truncated row group key");
    kpos += used;
    if (!(used = hl_seqio_vlong_decode(key + kpos, kn - kpos, &lens_len)))
      return hl_seqio_corrupt(in, err, "truncated row group key");
    kpos += used;
    if (col_len < 0 || plain_len < 0 || lens_len < 0 || (uint64_t)lens_len > kn - kpos ||
        (uint64_t)col_len > val_len - vpos || (uint64_t)plain_len > HL_SEQIO_MAX_CHUNK ||
        (!r->compressed && plain_len != col_len))
      return hl_seqio_corrupt(in, err, "bad column lengths in row group key");
    const unsigned char *lens = key + kpos;
    kpos += (size_t)lens_len;
    const unsigned char *data = r->val + vpos;
    vpos += (size_t)col_len;
    if (fc >= r->n_cols) continue;
    rc_col_t *c = &r->cols[fc];
    c->loaded = r->projected[fc];
    if (!c->loaded) continue;
    c->nulled = lens_len == 0;
    c->lens = lens;
    c->lens_len = (size_t)lens_len;
    c->lens_pos = 0;
    c->prev_len = -1;
    c->run_left = 0;
    c->data = data;
    c->data_len = (size_t)col_len;
    c->data_pos = 0;
    if (c->nulled) continue;
    if (r->compressed) {
      st = hl_hcodec_decompress(r->cx, r->codec, in->path, data, (size_t)col_len, (size_t)plain_len,
                                &c->plain, err);
      if (st != HL_OK) return st;
      if (c->plain.len != (size_t)plain_len)
        return hl_seqio_corrupt(in, err, "compressed column has the wrong length");
      c->data = (const unsigned char *)(c->plain.len ? c->plain.data : "");
      c->data_len = c->plain.len;
    }
    if (!lens_valid(c->lens, c->lens_len, rows, (int64_t)c->data_len))
      return hl_seqio_corrupt(in, err, "cell lengths do not match their column");
  }
  if (vpos != val_len) return hl_seqio_corrupt(in, err, "column lengths do not add up");
  for (int col = (int)(r->file_cols < r->n_cols ? r->file_cols : r->n_cols); col < r->n_cols; col++)
    r->cols[col].loaded = false; /* not in this file: NULL */
  r->group_rows = rows;
  r->group_pos = 0;
  *got = true;
  return HL_OK;
}

/* The next cell of column C (validated by load_group). */
static void next_cell(rc_col_t *c, const unsigned char **p, size_t *n) {
  int64_t len;
  if (c->run_left > 0) {
    c->run_left--;
    len = c->prev_len;
  } else {
    int64_t v = 0;
    c->lens_pos += hl_seqio_vlong_decode(c->lens + c->lens_pos, c->lens_len - c->lens_pos, &v);
    if (v < 0) {
      c->run_left = ~v - 1;
      len = c->prev_len;
    } else {
      len = c->prev_len = v;
    }
  }
  *p = c->data + c->data_pos;
  *n = (size_t)len;
  c->data_pos += (size_t)len;
}

static hl_status_t decode_row(hl_rcfile_reader_t *r, hl_batch_t *batch, uint32_t row,
                              hl_error_t *err) {
  for (int col = 0; col < r->n_cols; col++) {
    if (!r->projected[col]) continue;
    rc_col_t *c = &r->cols[col];
    hl_vec_t *vec = &batch->cols[col];
    if (!c->loaded || c->nulled) {
      if (hl_vec_set_null(vec, batch->arena, row) != HL_OK) return hl_err_nomem(err);
      continue;
    }
    const unsigned char *p;
    size_t n;
    next_cell(c, &p, &n);
    hl_status_t st;
    if (!r->binary) {
      st = hl_text_decoder_field(r->dec, batch, col, row, (const char *)p, n, err);
    } else if (n == 0) {
      st = hl_vec_set_null(vec, batch->arena, row) == HL_OK ? HL_OK : hl_err_nomem(err);
    } else {
      hl_value_t v;
      st = get_binary_cell(batch->arena, r->types[col], p, n, &v, &r->conv, err);
      if (st == HL_OK) st = store(vec, batch->arena, row, &v, err);
    }
    if (st != HL_OK) return st;
  }
  return HL_OK;
}

hl_status_t hl_rcfile_reader_next(hl_rcfile_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  batch->n_rows = 0;
  hl_status_t st = hl_text_decoder_begin(r->dec, batch, err);
  if (st != HL_OK) return st;
  uint32_t row = 0;
  while (row < HL_BATCH_CAP && !r->empty) {
    if (row > 0 && hl_arena_used(batch->arena) > BATCH_SOFT_BYTES) break;
    if (r->group_pos == r->group_rows) {
      bool got;
      if ((st = load_group(r, &got, err)) != HL_OK) return st;
      if (!got) break;
      continue;
    }
    if ((st = decode_row(r, batch, row, err)) != HL_OK) return st;
    r->group_pos++;
    row++;
  }
  batch->n_rows = row;
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                   */
/* ---------------------------------------------------------------------- */

typedef struct wcol {
  hl_buf_t data;    /* cells back to back */
  hl_buf_t lens;    /* RLE cell lengths */
  int64_t prev_len; /* length of the pending run, -1 if none */
  int64_t run;      /* cells in the run after its first */
} wcol_t;

struct hl_rcfile_writer {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  char *path;
  bool binary;
  hl_text_writer_t *enc; /* ColumnarSerDe cells */
  int n_cols;
  const hl_type_t *const *types;
  const char *const *names;
  uint8_t sync[HL_SEQIO_SYNC_SIZE];
  size_t group_bytes;
  wcol_t *cols;
  int64_t rows;        /* rows buffered */
  size_t buffered;     /* cell bytes buffered */
  hl_buf_t cell, key;  /* scratch */
  hl_buf_t out;        /* bytes not yet appended */
  hl_hcodec_t codec;   /* HL_HCODEC_NONE: not compressed */
  hl_hcodec_ctx_t *cx; /* codec state reused from buffer to buffer */
  hl_buf_t packed;     /* compressed: the row group's column streams back to back */
  hl_buf_t kpacked;    /* compressed: the key's stream */
  uint64_t pos, last_sync;
  uint64_t raw_bytes;
  bool failed;
};

static void writer_free(hl_rcfile_writer_t *w) {
  hl_text_writer_close(w->enc, NULL);
  hl_hcodec_ctx_free(w->cx);
  if (w->cols)
    for (int col = 0; col < w->n_cols; col++) {
      hl_buf_fini(&w->cols[col].data);
      hl_buf_fini(&w->cols[col].lens);
    }
  hl_free(w->cols);
  hl_buf_fini(&w->cell);
  hl_buf_fini(&w->key);
  hl_buf_fini(&w->out);
  hl_buf_fini(&w->packed);
  hl_buf_fini(&w->kpacked);
  hl_free(w->path);
  hl_free(w);
}

static hl_status_t flush_out(hl_rcfile_writer_t *w, hl_error_t *err) {
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

hl_status_t hl_rcfile_writer_open(hl_stor_t *fs, const char *path, const hl_rcfile_format_t *fmt,
                                  int n_cols, const hl_type_t *const *types,
                                  const char *const *names, const char *codec, const uint8_t *sync,
                                  size_t group_bytes, hl_rcfile_writer_t **out, hl_error_t *err) {
  *out = NULL;
  hl_status_t st = check_types(fmt, n_cols, types, names, err);
  if (st != HL_OK) return st;
  hl_hcodec_t kind = HL_HCODEC_NONE;
  if (codec && !hl_hcodec_from_class(codec, &kind))
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot write \"%s\": compression codec \"%s\" is not supported", path,
                      codec);
  hl_rcfile_writer_t *w = hl_calloc(1, sizeof *w);
  if (!w) return hl_err_nomem(err);
  hl_buf_init(&w->cell);
  hl_buf_init(&w->key);
  hl_buf_init(&w->out);
  hl_buf_init(&w->packed);
  hl_buf_init(&w->kpacked);
  w->codec = kind;
  w->fs = fs;
  w->binary = fmt->binary;
  w->n_cols = n_cols;
  w->types = types;
  w->names = names;
  w->group_bytes = group_bytes ? group_bytes : HL_RCFILE_GROUP_BYTES;
  w->path = hl_strdup(path);
  w->cols = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof(wcol_t));
  if (kind != HL_HCODEC_NONE) w->cx = hl_hcodec_ctx_new();
  if (!w->path || !w->cols || (kind != HL_HCODEC_NONE && !w->cx)) {
    writer_free(w);
    return hl_err_nomem(err);
  }
  for (int col = 0; col < n_cols; col++) {
    hl_buf_init(&w->cols[col].data);
    hl_buf_init(&w->cols[col].lens);
    w->cols[col].prev_len = -1;
  }
  if (!fmt->binary &&
      (st = hl_text_encoder_open(&fmt->text, n_cols, types, names, &w->enc, err)) != HL_OK) {
    writer_free(w);
    return st;
  }
  if (sync)
    memcpy(w->sync, sync, sizeof w->sync);
  else
    hl_seqio_random_sync(w->sync);
  /* RCFile.Writer with Hive's defaults: the "RCF" 1 header
   * (hive.exec.rcfile.use.explicit.header), the codec's class when
   * compressed, the column count as the only metadata */
  char ncols[24];
  snprintf(ncols, sizeof ncols, "%d", n_cols);
  hl_buf_append(&w->out, "RCF\x01", 4);
  hl_buf_putc(&w->out, codec != NULL);
  if (codec) hl_seqio_put_text(&w->out, codec); /* the class asked for, as Hadoop's getName() */
  hl_seqio_put_i32(&w->out, 1);
  hl_seqio_put_text(&w->out, COLUMN_NUMBER);
  hl_seqio_put_text(&w->out, ncols);
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

/* ColumnBuffer.flushGroup: emits the pending run of equal lengths. */
static void flush_run(wcol_t *c) {
  if (c->prev_len < 0) return;
  hl_seqio_put_vlong(&c->lens, c->prev_len);
  if (c->run > 0) hl_seqio_put_vlong(&c->lens, ~c->run);
  c->prev_len = -1;
  c->run = 0;
}

static void add_cell(wcol_t *c, const void *p, size_t n) {
  hl_buf_append(&c->data, p, n);
  if (c->prev_len == (int64_t)n) {
    c->run++;
    return;
  }
  flush_run(c);
  c->prev_len = (int64_t)n;
}

static hl_status_t codec_failed(const hl_rcfile_writer_t *w, const hl_buf_t *b, hl_error_t *err) {
  if (b->oom) return hl_err_nomem(err);
  return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR),
                    "cannot write \"%s\": %s compression failed", w->path,
                    hl_hcodec_name(w->codec));
}

/* Writes the buffered rows as one row group (Writer.flushRecords).
 * Compressed: every column buffer is one codec stream (the key records its
 * compressed and plain lengths), the key another, stored after its plain
 * length; the record length counts the plain key and the compressed
 * columns. */
static hl_status_t flush_group(hl_rcfile_writer_t *w, hl_error_t *err) {
  if (w->rows == 0) return HL_OK;
  bool packed = w->codec != HL_HCODEC_NONE;
  hl_buf_reset(&w->key);
  hl_buf_reset(&w->packed);
  hl_seqio_put_vlong(&w->key, w->rows);
  uint64_t value_len = 0;
  for (int col = 0; col < w->n_cols; col++) {
    wcol_t *c = &w->cols[col];
    flush_run(c);
    size_t stored = c->data.len;
    if (packed) {
      size_t before = w->packed.len;
      if (c->data.oom ||
          !hl_hcodec_compress(w->cx, w->codec, c->data.data, c->data.len, &w->packed) ||
          w->packed.oom)
        return codec_failed(w, &w->packed, err);
      stored = w->packed.len - before;
    }
    hl_seqio_put_vlong(&w->key, (int64_t)stored);
    hl_seqio_put_vlong(&w->key, (int64_t)c->data.len);
    hl_seqio_put_vlong(&w->key, (int64_t)c->lens.len);
    hl_buf_append(&w->key, c->lens.data, c->lens.len);
    value_len += stored;
  }
  if (w->key.oom) return hl_err_nomem(err);
  const hl_buf_t *stored_key = &w->key;
  if (packed) {
    hl_buf_reset(&w->kpacked);
    if (!hl_hcodec_compress(w->cx, w->codec, w->key.data, w->key.len, &w->kpacked) ||
        w->kpacked.oom)
      return codec_failed(w, &w->kpacked, err);
    stored_key = &w->kpacked;
  }
  if (value_len + w->key.len > (uint64_t)INT32_MAX || stored_key->len > (size_t)INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "cannot write \"%s\": a row group is larger than 2 GiB", w->path);
  if (w->pos >= w->last_sync + HL_RCFILE_SYNC_INTERVAL) { /* Writer.checkAndWriteSync */
    hl_seqio_put_i32(&w->out, -1);
    hl_buf_append(&w->out, w->sync, sizeof w->sync);
    w->pos += 4 + HL_SEQIO_SYNC_SIZE;
    w->last_sync = w->pos;
  }
  hl_seqio_put_i32(&w->out, (int32_t)(w->key.len + value_len));
  hl_seqio_put_i32(&w->out, (int32_t)w->key.len);
  hl_seqio_put_i32(&w->out, (int32_t)stored_key->len);
  hl_buf_append(&w->out, stored_key->data, stored_key->len);
  w->pos += 12 + stored_key->len;
  hl_status_t st = flush_out(w, err);
  if (st == HL_OK && packed && w->packed.len) {
    st = w->fs->ops->append(w->file, w->packed.data, w->packed.len, err);
    if (st != HL_OK) w->failed = true;
    w->pos += w->packed.len;
  }
  for (int col = 0; col < w->n_cols && st == HL_OK; col++) {
    wcol_t *c = &w->cols[col];
    if (!packed && c->data.len) {
      st = w->fs->ops->append(w->file, c->data.data, c->data.len, err);
      if (st != HL_OK) w->failed = true;
      w->pos += c->data.len;
    }
    hl_buf_reset(&c->data);
    hl_buf_reset(&c->lens);
    if (c->data.oom || c->lens.oom) st = hl_err_nomem(err);
  }
  w->rows = 0;
  w->buffered = 0;
  return st;
}

hl_status_t hl_rcfile_writer_write(hl_rcfile_writer_t *w, const hl_batch_t *batch,
                                   hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "write after a failed write");
  uint32_t live = hl_batch_live(batch);
  for (uint32_t i = 0; i < live; i++) {
    uint32_t row = hl_batch_row(batch, i);
    for (int col = 0; col < w->n_cols; col++) {
      const char *p;
      size_t n;
      if (w->binary) {
        hl_value_t v;
        hl_vec_get_value(&batch->cols[col], row, &v);
        hl_buf_reset(&w->cell);
        if (!put_binary_cell(&w->cell, w->types[col], &v))
          return hl_err_set(err, HL_ERROR, HL_SS(DATA_EXCEPTION),
                            "LazyBinaryColumnarSerDe cannot store an empty BINARY value (column "
                            "\"%s\")",
                            w->names ? w->names[col] : "?");
        if (w->cell.oom) return hl_err_nomem(err);
        p = w->cell.data ? w->cell.data : "";
        n = w->cell.len;
      } else {
        hl_status_t st = hl_text_encoder_field(w->enc, batch, col, row, &p, &n, err);
        if (st != HL_OK) return st;
      }
      add_cell(&w->cols[col], p, n);
      w->buffered += n;
      w->raw_bytes += n;
    }
    w->raw_bytes++;
    w->rows++;
    if (w->buffered > w->group_bytes) { /* Writer.append: columnBufferSize > columnsBufferSize */
      hl_status_t st = flush_group(w, err);
      if (st != HL_OK) return st;
    }
  }
  return HL_OK;
}

hl_status_t hl_rcfile_writer_close(hl_rcfile_writer_t *w, hl_error_t *err) {
  if (!w) return HL_OK;
  hl_status_t st = HL_OK;
  if (w->failed)
    st = hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR), "cannot write \"%s\": an earlier write failed",
                    w->path);
  if (st == HL_OK) st = flush_group(w, err);
  if (st == HL_OK) st = flush_out(w, err);
  if (st == HL_OK) st = w->fs->ops->sync(w->file, err);
  hl_status_t cst = w->fs->ops->close(w->file, err);
  if (st == HL_OK) st = cst;
  writer_free(w);
  return st;
}

void hl_rcfile_writer_abort(hl_rcfile_writer_t *w) {
  if (!w) return;
  hl_error_t e;
  hl_err_init(&e);
  w->fs->ops->close(w->file, &e);
  hl_err_clear(&e);
  writer_free(w);
}

uint64_t hl_rcfile_writer_mem(const hl_rcfile_writer_t *w) {
  uint64_t n = sizeof *w + w->cell.cap + w->key.cap + w->out.cap + w->packed.cap + w->kpacked.cap +
               hl_hcodec_ctx_mem(w->cx);
  if (w->enc) n += hl_text_writer_mem(w->enc);
  for (int col = 0; w->cols && col < w->n_cols; col++)
    n += sizeof w->cols[col] + w->cols[col].data.cap + w->cols[col].lens.cap;
  return n;
}

uint64_t hl_rcfile_writer_raw_bytes(const hl_rcfile_writer_t *w) {
  return w ? w->raw_bytes : 0;
}
