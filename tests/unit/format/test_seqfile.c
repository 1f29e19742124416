/*
 * test_seqfile.c -- unit tests of Hive SEQUENCEFILE support
 * (src/format/seqfile): the exact bytes the writer produces, round trips,
 * sync markers, record- and block-compressed files (zlib and gzip), and
 * malformed files (HL_CORRUPT naming the file, never a crash).
 *
 * Rows enter as LazySimpleSerDe text read with format/text, are written as
 * SequenceFiles, and are rendered back as "v|v|v" lines (NULL as NULL).
 */
#include "format/seqfile/seqfile.h"

#include "format/seqfile/seq_io.h"
#include "test.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static struct {
  char dir[512];
  hl_stor_t *fs;
  hl_arena_t *arena;
} T;

static const uint8_t SYNC[16] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
                                 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};

typedef struct cols {
  int n;
  const hl_type_t *types[8];
  const char *names[8];
} cols_t;

static cols_t cols_of(int n, const char *const *names, const char *const *types) {
  cols_t c;
  memset(&c, 0, sizeof c);
  for (int i = 0; i < n; i++) {
    hl_type_t *t = NULL;
    hl_error_t err;
    hl_err_init(&err);
    if (hl_type_parse_str(T.arena, types[i], &t, &err) != HL_OK) exit(1);
    c.types[i] = t;
    c.names[i] = names[i];
  }
  c.n = n;
  return c;
}

static const char *tpath(const char *name) {
  return hl_arena_sprintf(T.arena, "%s/%s", T.dir, name);
}

static const char *put_file(const char *name, const void *data, size_t len) {
  const char *p = tpath(name);
  unlink(p);
  FILE *f = fopen(p, "wb");
  if (!f) return p;
  if (len) fwrite(data, 1, len, f);
  fclose(f);
  return p;
}

static size_t get_file(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

static hl_text_format_t lazy_fmt(void) {
  hl_text_format_t fmt;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_text_format_init(&fmt, T.arena, NULL, NULL, 0, NULL, 0, &err), HL_OK);
  return fmt;
}

/* Writes the rows of TEXT (LazySimpleSerDe lines) to a SequenceFile. */
static const char *write_seq(const char *name, const cols_t *c, const char *text) {
  hl_text_format_t fmt = lazy_fmt();
  const char *src = put_file(hl_arena_sprintf(T.arena, "%s.txt", name), text, strlen(text));
  const char *dst = tpath(name);
  unlink(dst);
  hl_error_t err;
  hl_err_init(&err);
  hl_text_reader_t *r = NULL;
  hl_seqfile_writer_t *w = NULL;
  hl_batch_t *batch = hl_batch_create(c->n, c->types);
  CHECK_INT(hl_text_reader_open(T.fs, src, &fmt, c->n, c->types, c->names, NULL, &r, &err), HL_OK);
  CHECK_INT(hl_seqfile_writer_open(T.fs, dst, &fmt, c->n, c->types, c->names, NULL, SYNC, &w, &err),
            HL_OK);
  for (;;) {
    hl_batch_reset(batch);
    if (hl_text_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
    CHECK_INT(hl_seqfile_writer_write(w, batch, &err), HL_OK);
  }
  CHECK_INT(hl_seqfile_writer_close(w, &err), HL_OK);
  hl_text_reader_close(r);
  hl_batch_destroy(batch);
  hl_err_clear(&err);
  return dst;
}

/* Reads PATH; the rows rendered, or "ERROR <sqlstate> <message>". */
static const char *render(const char *path, const cols_t *c, const bool *projected) {
  hl_text_format_t fmt = lazy_fmt();
  hl_error_t err;
  hl_err_init(&err);
  hl_seqfile_reader_t *r = NULL;
  hl_buf_t out;
  hl_buf_init(&out);
  hl_buf_cstr(&out);
  hl_batch_t *batch = hl_batch_create(c->n, c->types);
  hl_status_t st =
      hl_seqfile_reader_open(T.fs, path, &fmt, c->n, c->types, c->names, projected, &r, &err);
  bool first = true;
  while (st == HL_OK) {
    hl_batch_reset(batch);
    st = hl_seqfile_reader_next(r, batch, &err);
    if (st != HL_OK || batch->n_rows == 0) break;
    for (uint32_t row = 0; row < batch->n_rows; row++) {
      if (!first) hl_buf_putc(&out, '\n');
      first = false;
      for (int col = 0; col < c->n; col++) {
        if (col) hl_buf_putc(&out, '|');
        hl_value_t v;
        hl_vec_get_value(&batch->cols[col], row, &v);
        hl_value_format(&out, c->types[col], &v);
      }
    }
  }
  hl_seqfile_reader_close(r);
  hl_batch_destroy(batch);
  const char *res = st == HL_OK
                        ? hl_arena_strdup(T.arena, hl_buf_cstr(&out))
                        : hl_arena_sprintf(T.arena, "ERROR %s %s", err.sqlstate, err.message);
  hl_buf_fini(&out);
  hl_err_clear(&err);
  return res;
}

static bool contains(const char *s, const char *sub) {
  return s && strstr(s, sub) != NULL;
}

static const char *const NAMES2[] = {"i", "s"};
static const char *const TYPES2[] = {"int", "string"};

/* ---------------------------------------------------------------------- */

TEST(exact_bytes) {
  cols_t c = cols_of(2, NAMES2, TYPES2);
  const char *p = write_seq("exact.seq", &c, "1\001a\n\\N\001\n");
  unsigned char got[512];
  size_t n = get_file(p, got, sizeof got);
  hl_buf_t want;
  hl_buf_init(&want);
  hl_buf_append(&want, "SEQ\x06", 4);
  hl_buf_append(&want, "\x22org.apache.hadoop.io.BytesWritable", 35);
  hl_buf_append(&want, "\x19org.apache.hadoop.io.Text", 26);
  hl_buf_append(&want, "\x00\x00\x00\x00\x00\x00", 6); /* not compressed, no metadata */
  hl_buf_append(&want, SYNC, 16);
  /* record: length 8, key length 4, empty BytesWritable, Text "1\x01a" */
  hl_buf_append(&want,
                "\x00\x00\x00\x08\x00\x00\x00\x04\x00\x00\x00\x00\x03"
                "1\x01"
                "a",
                16);
  /* NULL int, empty string: "\N\x01" */
  hl_buf_append(&want,
                "\x00\x00\x00\x08\x00\x00\x00\x04\x00\x00\x00\x00\x03"
                "\\N\x01",
                16);
  CHECK_INT(n, want.len);
  CHECK(n == want.len && memcmp(got, want.data, n) == 0);
  hl_buf_fini(&want);
  CHECK_STR(render(p, &c, NULL), "1|a\nNULL|");
  bool proj[2] = {false, true};
  CHECK_STR(render(p, &c, proj), "NULL|a\nNULL|");
}

TEST(roundtrip_types) {
  static const char *const names[] = {"b", "d", "m", "t", "a", "st"};
  static const char *const types[] = {"boolean",   "double",     "decimal(10,2)",
                                      "timestamp", "array<int>", "struct<x:int,y:string>"};
  cols_t c = cols_of(6, names, types);
  const char *p = write_seq("types.seq", &c,
                            "true\0011.5\0013.25\0012020-01-02 03:04:05.5\0011\0022\0017\002q\n"
                            "\\N\001-0.25\001\\N\001\\N\001\001\\N\n");
  CHECK_STR(render(p, &c, NULL), "true|1.5|3.25|2020-01-02 03:04:05.5|[1,2]|{\"x\":7,\"y\":\"q\"}\n"
                                 "NULL|-0.25|NULL|NULL|[]|NULL");
}

TEST(sync_markers) {
  /* 3000 rows of ~60 bytes: more than one sync interval */
  cols_t c = cols_of(2, NAMES2, TYPES2);
  hl_buf_t text;
  hl_buf_init(&text);
  for (int i = 0; i < 3000; i++)
    hl_buf_printf(&text, "%d\001row %d padded out to make the file grow faster ....\n", i, i);
  const char *p = write_seq("sync.seq", &c, hl_buf_cstr(&text));
  hl_buf_fini(&text);
  static unsigned char buf[1 << 20];
  size_t n = get_file(p, buf, sizeof buf);
  CHECK(n > HL_SEQFILE_SYNC_INTERVAL);
  /* every escape + marker after the header sits at a record boundary right
   * after the first record that ends past the interval */
  int syncs = 0;
  size_t pos = 4 + 35 + 26 + 6 + 16, last_sync = 0;
  while (pos + 4 <= n) {
    int32_t len = (int32_t)((uint32_t)buf[pos] << 24 | (uint32_t)buf[pos + 1] << 16 |
                            (uint32_t)buf[pos + 2] << 8 | buf[pos + 3]);
    if (len == -1) {
      CHECK(pos >= last_sync + HL_SEQFILE_SYNC_INTERVAL);
      CHECK(memcmp(buf + pos + 4, SYNC, 16) == 0);
      syncs++;
      pos += 20;
      last_sync = pos;
      continue;
    }
    CHECK(pos < last_sync + HL_SEQFILE_SYNC_INTERVAL);
    pos += 8 + (size_t)len;
  }
  CHECK_INT(pos, n);
  CHECK_INT(syncs, 2); /* ~220 KB of records */
  const char *rows = render(p, &c, NULL);
  CHECK(contains(rows, "2999|row 2999 padded"));
  int lines = 1;
  for (const char *q = rows; *q; q++)
    lines += *q == '\n';
  CHECK_INT(lines, 3000);
}

/* ---------------------------------------------------------------- compressed files */

static size_t zbytes(const void *src, size_t n, unsigned char *out, size_t cap, bool gzip) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  deflateInit2(&zs, 6, Z_DEFLATED, (gzip ? 16 : 0) + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  zs.next_in = (unsigned char *)src;
  zs.avail_in = (uInt)n;
  zs.next_out = out;
  zs.avail_out = (uInt)cap;
  deflate(&zs, Z_FINISH);
  size_t got = cap - zs.avail_out;
  deflateEnd(&zs);
  return got;
}

static void header(hl_buf_t *b, const char *codec, bool block) {
  hl_buf_append(b, "SEQ\x06", 4);
  hl_seqio_put_text(b, "org.apache.hadoop.io.BytesWritable");
  hl_seqio_put_text(b, "org.apache.hadoop.io.Text");
  hl_buf_putc(b, codec ? 1 : 0);
  hl_buf_putc(b, block ? 1 : 0);
  if (codec) hl_seqio_put_text(b, codec);
  hl_seqio_put_i32(b, 1); /* one metadata entry, ignored */
  hl_seqio_put_text(b, "k");
  hl_seqio_put_text(b, "v");
  hl_buf_append(b, SYNC, 16);
}

static void text_value(hl_buf_t *b, const char *row) {
  hl_seqio_put_vlong(b, (int64_t)strlen(row));
  hl_buf_puts(b, row);
}

static const char *record_compressed(const char *name, const char *codec, bool gzip) {
  hl_buf_t f, v;
  hl_buf_init(&f);
  hl_buf_init(&v);
  header(&f, codec, false);
  const char *rows[] = {"1\001one", "2\001two", "\\N\001three"};
  for (int i = 0; i < 3; i++) {
    hl_buf_reset(&v);
    text_value(&v, rows[i]);
    unsigned char z[256];
    size_t zn = zbytes(v.data, v.len, z, sizeof z, gzip);
    if (i == 1) { /* a sync between records */
      hl_seqio_put_i32(&f, -1);
      hl_buf_append(&f, SYNC, 16);
    }
    hl_seqio_put_i32(&f, (int32_t)(4 + zn));
    hl_seqio_put_i32(&f, 4);
    hl_seqio_put_i32(&f, 0);
    hl_buf_append(&f, z, zn);
  }
  const char *p = put_file(name, f.data, f.len);
  hl_buf_fini(&f);
  hl_buf_fini(&v);
  return p;
}

static void block(hl_buf_t *f, const char *const *rows, int n, bool gzip) {
  hl_buf_t kl, k, vl, v;
  hl_buf_init(&kl);
  hl_buf_init(&k);
  hl_buf_init(&vl);
  hl_buf_init(&v);
  for (int i = 0; i < n; i++) {
    hl_seqio_put_vlong(&kl, 4);
    hl_seqio_put_i32(&k, 0);
    size_t before = v.len;
    text_value(&v, rows[i]);
    hl_seqio_put_vlong(&vl, (int64_t)(v.len - before));
  }
  hl_seqio_put_i32(f, -1);
  hl_buf_append(f, SYNC, 16);
  hl_seqio_put_vlong(f, n);
  hl_buf_t *parts[4] = {&kl, &k, &vl, &v};
  for (int i = 0; i < 4; i++) {
    unsigned char z[1024];
    size_t zn = zbytes(parts[i]->data ? parts[i]->data : "", parts[i]->len, z, sizeof z, gzip);
    hl_seqio_put_vlong(f, (int64_t)zn);
    hl_buf_append(f, z, zn);
  }
  hl_buf_fini(&kl);
  hl_buf_fini(&k);
  hl_buf_fini(&vl);
  hl_buf_fini(&v);
}

TEST(compressed) {
  cols_t c = cols_of(2, NAMES2, TYPES2);
  CHECK_STR(
      render(record_compressed("rec_zlib.seq", "org.apache.hadoop.io.compress.DefaultCodec", false),
             &c, NULL),
      "1|one\n2|two\nNULL|three");
  CHECK_STR(
      render(record_compressed("rec_gzip.seq", "org.apache.hadoop.io.compress.GzipCodec", true), &c,
             NULL),
      "1|one\n2|two\nNULL|three");
  hl_buf_t f;
  hl_buf_init(&f);
  header(&f, "org.apache.hadoop.io.compress.DefaultCodec", true);
  const char *b1[] = {"10\001x", "11\001y"}, *b2[] = {"12\001z"};
  block(&f, b1, 2, false);
  block(&f, b2, 1, false);
  const char *p = put_file("block.seq", f.data, f.len);
  CHECK_STR(render(p, &c, NULL), "10|x\n11|y\n12|z");
  hl_buf_reset(&f);
  header(&f, "org.apache.hadoop.io.compress.GzipCodec", true);
  block(&f, b1, 2, true);
  p = put_file("block_gz.seq", f.data, f.len);
  CHECK_STR(render(p, &c, NULL), "10|x\n11|y");
  /* another codec: 0A000 naming it */
  hl_buf_reset(&f);
  header(&f, "com.hadoop.compression.lzo.LzoCodec", true);
  p = put_file("lzo.seq", f.data, f.len);
  const char *e = render(p, &c, NULL);
  CHECK(contains(e, "ERROR 0A000"));
  CHECK(contains(e, "LzoCodec"));
  hl_buf_fini(&f);
}

/* ---------------------------------------------------------------- malformed */

TEST(malformed) {
  cols_t c = cols_of(2, NAMES2, TYPES2);
  const char *p = put_file("bad_magic.seq", "PAR1xxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 33);
  const char *e = render(p, &c, NULL);
  CHECK(contains(e, "ERROR XX001"));
  CHECK(contains(e, "bad_magic.seq"));
  CHECK_STR(render(put_file("empty.seq", "", 0), &c, NULL), "");
  /* every truncation of a valid file: rows or XX001, never a crash */
  const char *good = write_seq("good.seq", &c, "1\001a\n2\001bb\n3\001ccc\n");
  unsigned char buf[512];
  size_t n = get_file(good, buf, sizeof buf);
  size_t header_len = 4 + 35 + 26 + 6 + 16;
  for (size_t len = 1; len < n; len++) {
    const char *t = put_file("trunc.seq", buf, len);
    const char *r = render(t, &c, NULL);
    if (len < header_len || (len > header_len && len != header_len + 16 && len != header_len + 33))
      CHECK(contains(r, "ERROR XX001") && contains(r, "trunc.seq"));
    else
      CHECK(!contains(r, "ERROR"));
  }
  /* a sync marker that does not match the header */
  memcpy(buf + n, "\xff\xff\xff\xff", 4);
  memset(buf + n + 4, 0x77, 16);
  e = render(put_file("badsync.seq", buf, n + 20), &c, NULL);
  CHECK(contains(e, "ERROR XX001") && contains(e, "sync marker"));
  /* record lengths that lie */
  unsigned char bad[512];
  memcpy(bad, buf, n);
  bad[header_len + 3] = 0x70; /* record length beyond the file */
  e = render(put_file("badlen.seq", bad, n), &c, NULL);
  CHECK(contains(e, "ERROR XX001"));
  memcpy(bad, buf, n);
  bad[header_len + 7] = 0x09; /* key longer than the record */
  e = render(put_file("badkey.seq", bad, n), &c, NULL);
  CHECK(contains(e, "ERROR XX001"));
  memcpy(bad, buf, n);
  bad[header_len + 12] = 0x05; /* Text length beyond the value */
  e = render(put_file("badtext.seq", bad, n), &c, NULL);
  CHECK(contains(e, "ERROR XX001"));
  /* unsupported value class */
  hl_buf_t f;
  hl_buf_init(&f);
  hl_buf_append(&f, "SEQ\x06", 4);
  hl_seqio_put_text(&f, "org.apache.hadoop.io.LongWritable");
  hl_seqio_put_text(&f, "org.apache.hadoop.io.LongWritable");
  hl_buf_append(&f, "\0\0\0\0\0\0", 6);
  hl_buf_append(&f, SYNC, 16);
  e = render(put_file("longw.seq", f.data, f.len), &c, NULL);
  CHECK(contains(e, "ERROR 0A000") && contains(e, "LongWritable"));
  hl_buf_fini(&f);
}

TEST(vlong) {
  static const int64_t vals[] = {0,         1,         -1,        127,       -112,      -113,
                                 128,       255,       256,       -129,      65535,     1 << 24,
                                 INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 123456789, -987654321};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_seqio_put_vlong(&b, vals[i]);
    CHECK_INT(b.len, hl_seqio_vlong_size(vals[i]));
    int64_t back = 0;
    CHECK_INT(hl_seqio_vlong_decode((const unsigned char *)b.data, b.len, &back), b.len);
    CHECK(back == vals[i]);
    CHECK_INT(hl_seqio_vlong_decode((const unsigned char *)b.data, b.len - 1, &back), 0);
    hl_buf_fini(&b);
  }
  /* WritableUtils' bytes: 300 -> 0x8e 0x01 0x2c, -300 -> 0x86 0x01 0x2b */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_seqio_put_vlong(&b, 300);
  hl_seqio_put_vlong(&b, -300);
  CHECK(b.len == 6 && memcmp(b.data, "\x8e\x01\x2c\x86\x01\x2b", 6) == 0);
  hl_buf_fini(&b);
}

int main(void) {
  if (test_tmpdir(T.dir, sizeof T.dir, "seqfile") != 0) return 1;
  T.fs = hl_stor_local_create();
  T.arena = hl_arena_create(0);
  RUN(vlong);
  RUN(exact_bytes);
  RUN(roundtrip_types);
  RUN(sync_markers);
  RUN(compressed);
  RUN(malformed);
  hl_error_t err;
  hl_err_init(&err);
  T.fs->ops->remove_tree(T.fs, T.dir, &err);
  hl_err_clear(&err);
  hl_arena_destroy(T.arena);
  T.fs->ops->destroy(T.fs);
  return test_report();
}
