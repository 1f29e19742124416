/*
 * test_rcfile.c -- unit tests of Hive RCFILE support (src/format/rcfile):
 * the exact bytes of a written file and of LazyBinary cells, round trips
 * of every primitive type (LazyBinaryColumnarSerDe) and of complex types
 * (ColumnarSerDe), row groups and sync markers, compressed files, the old
 * SEQ header, and malformed files (HL_CORRUPT naming the file, no crash).
 *
 * Rows enter as LazySimpleSerDe text read with format/text and are
 * rendered back as "v|v|v" lines (NULL as NULL).
 */
#include "format/rcfile/rcfile.h"

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

static const uint8_t SYNC[16] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};

typedef struct cols {
  int n;
  const hl_type_t *types[16];
  const char *names[16];
} cols_t;

/* "name type; name type" */
static cols_t cols_of(const char *spec) {
  cols_t c;
  memset(&c, 0, sizeof c);
  char *copy = hl_arena_strdup(T.arena, spec), *save = NULL;
  for (char *item = strtok_r(copy, ";", &save); item && c.n < 16;
       item = strtok_r(NULL, ";", &save)) {
    while (*item == ' ')
      item++;
    char *sp = strchr(item, ' ');
    *sp = '\0';
    hl_type_t *t = NULL;
    hl_error_t err;
    hl_err_init(&err);
    if (hl_type_parse_str(T.arena, sp + 1, &t, &err) != HL_OK) exit(1);
    c.names[c.n] = item;
    c.types[c.n++] = t;
  }
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

static hl_rcfile_format_t rc_fmt(const char *serde) {
  hl_rcfile_format_t fmt;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_rcfile_format_init(&fmt, T.arena, serde, NULL, 0, NULL, 0, &err), HL_OK);
  return fmt;
}

#define BINARY   "org.apache.hadoop.hive.serde2.columnar.LazyBinaryColumnarSerDe"
#define COLUMNAR "org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe"

/* Writes the rows of TEXT (LazySimpleSerDe lines) as an RCFile. */
static const char *write_rc(const char *name, const char *serde, const cols_t *c, const char *text,
                            size_t group_bytes) {
  hl_text_format_t tf;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_text_format_init(&tf, T.arena, NULL, NULL, 0, NULL, 0, &err), HL_OK);
  hl_rcfile_format_t fmt = rc_fmt(serde);
  const char *src = put_file(hl_arena_sprintf(T.arena, "%s.txt", name), text, strlen(text));
  const char *dst = tpath(name);
  unlink(dst);
  hl_text_reader_t *r = NULL;
  hl_rcfile_writer_t *w = NULL;
  hl_batch_t *batch = hl_batch_create(c->n, c->types);
  CHECK_INT(hl_text_reader_open(T.fs, src, &tf, c->n, c->types, c->names, NULL, &r, &err), HL_OK);
  CHECK_INT(hl_rcfile_writer_open(T.fs, dst, &fmt, c->n, c->types, c->names, NULL, SYNC,
                                  group_bytes, &w, &err),
            HL_OK);
  for (;;) {
    hl_batch_reset(batch);
    if (hl_text_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
    CHECK_INT(hl_rcfile_writer_write(w, batch, &err), HL_OK);
  }
  CHECK_INT(hl_rcfile_writer_close(w, &err), HL_OK);
  if (err.code) fprintf(stderr, "write: %s\n", err.message);
  hl_text_reader_close(r);
  hl_batch_destroy(batch);
  hl_err_clear(&err);
  return dst;
}

/* Reads PATH; the rows rendered, or "ERROR <sqlstate> <message>". */
static const char *render(const char *path, const char *serde, const cols_t *c,
                          const bool *projected) {
  hl_rcfile_format_t fmt = rc_fmt(serde);
  hl_error_t err;
  hl_err_init(&err);
  hl_rcfile_reader_t *r = NULL;
  hl_buf_t out;
  hl_buf_init(&out);
  hl_buf_cstr(&out);
  hl_batch_t *batch = hl_batch_create(c->n, c->types);
  hl_status_t st =
      hl_rcfile_reader_open(T.fs, path, &fmt, c->n, c->types, c->names, projected, &r, &err);
  bool first = true;
  while (st == HL_OK) {
    hl_batch_reset(batch);
    st = hl_rcfile_reader_next(r, batch, &err);
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
  hl_rcfile_reader_close(r);
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

#define HEADER_LEN (4 + 1 + 4 + 29 + 2 + 16)

static void header(hl_buf_t *b, const char *codec, int n_cols) {
  hl_buf_append(b, "RCF\x01", 4);
  hl_buf_putc(b, codec ? 1 : 0);
  if (codec) hl_seqio_put_text(b, codec);
  hl_seqio_put_i32(b, 1);
  hl_seqio_put_text(b, "hive.io.rcfile.column.number");
  char n[8];
  snprintf(n, sizeof n, "%d", n_cols);
  hl_seqio_put_text(b, n);
  hl_buf_append(b, SYNC, 16);
}

/* ---------------------------------------------------------------------- */

TEST(exact_bytes) {
  cols_t c = cols_of("i int; s string");
  const char *p = write_rc("exact.rc", BINARY, &c, "1\001a\n\\N\001\n300\001bc\n", 0);
  unsigned char got[512];
  size_t n = get_file(p, got, sizeof got);
  hl_buf_t want;
  hl_buf_init(&want);
  header(&want, NULL, 2);
  CHECK_INT(want.len, HEADER_LEN);
  /* record length 21, key length 13 (twice: not compressed) */
  hl_buf_append(&want, "\x00\x00\x00\x15\x00\x00\x00\x0d\x00\x00\x00\x0d", 12);
  /* 3 rows; int column: 4 bytes, lengths 1,0,3; string column: 4 bytes,
   * lengths 1, ~1 (one more 1), 2 */
  hl_buf_append(&want, "\x03\x04\x04\x03\x01\x00\x03\x04\x04\x03\x01\xfe\x02", 13);
  /* cells: vint 1, (NULL), vint 300; "a", '' as 0xBF, "bc" */
  hl_buf_append(&want,
                "\x01\x8e\x01\x2c"
                "a\xbf"
                "bc",
                8);
  CHECK_INT(n, want.len);
  CHECK(n == want.len && memcmp(got, want.data, n) == 0);
  hl_buf_fini(&want);
  CHECK_STR(render(p, BINARY, &c, NULL), "1|a\nNULL|\n300|bc");
  bool proj[2] = {false, true};
  CHECK_STR(render(p, BINARY, &c, proj), "NULL|a\nNULL|\nNULL|bc");
}

/* The single cell of a one-row, one-column file. */
static size_t one_cell(const char *type, const char *text, unsigned char *cell) {
  cols_t c = cols_of(hl_arena_sprintf(T.arena, "x %s", type));
  const char *p = write_rc("cell.rc", BINARY, &c, text, 0);
  unsigned char buf[512];
  size_t n = get_file(p, buf, sizeof buf);
  /* header, 12 bytes of lengths, key: rows(1) colLen plainLen lensLen(1) len(1) */
  size_t key_at = HEADER_LEN + 12;
  if (n < key_at + 5) return 0;
  size_t len = buf[key_at + 1];
  memcpy(cell, buf + key_at + 5, len);
  return len;
}

TEST(cells) {
  unsigned char cell[64];
  size_t n = one_cell("timestamp", "1970-01-01 00:00:01.5\n", cell);
  CHECK(n == 5 && memcmp(cell, "\x80\x00\x00\x01\x05", 5) == 0); /* nanos reversed: 5 */
  n = one_cell("timestamp", "1970-01-01 00:00:02\n", cell);
  CHECK(n == 4 && memcmp(cell, "\x00\x00\x00\x02", 4) == 0);
  n = one_cell("decimal(10,2)", "3.50\n", cell);
  CHECK(n == 3 && memcmp(cell, "\x01\x01\x23", 3) == 0); /* scale 1, unscaled 35 */
  n = one_cell("decimal(10,2)", "-1.28\n", cell);
  CHECK(n == 3 && memcmp(cell, "\x02\x01\x80", 3) == 0); /* -128: one byte */
  n = one_cell("decimal(10,2)", "-1.29\n", cell);
  CHECK(n == 4 && memcmp(cell, "\x02\x02\xff\x7f", 4) == 0);
  n = one_cell("double", "1.5\n", cell);
  CHECK(n == 8 && memcmp(cell, "\x3f\xf8\0\0\0\0\0\0", 8) == 0);
  n = one_cell("float", "-2\n", cell);
  CHECK(n == 4 && memcmp(cell, "\xc0\0\0\0", 4) == 0);
  n = one_cell("smallint", "-2\n", cell);
  CHECK(n == 2 && memcmp(cell, "\xff\xfe", 2) == 0);
  n = one_cell("date", "1970-01-11\n", cell);
  CHECK(n == 1 && cell[0] == 10);
  n = one_cell("boolean", "true\n", cell);
  CHECK(n == 1 && cell[0] == 1);
}

TEST(roundtrip_types) {
  cols_t c = cols_of("b boolean; t tinyint; sm smallint; i int; l bigint; f float; d double; "
                     "m decimal(12,3); s string; v varchar(4); ch char(3); dt date; ts timestamp; "
                     "bin binary");
  const char *text = "true\001-5\001-300\0012147483647\001-9000000000\0011.25\001-0.1\001"
                     "-12.5\001hello\001abcdef\001x\0012024-02-29\0012100-01-01 00:00:00.000001\001"
                     "aGk=\n"
                     "false\001127\00132767\001-2147483648\0010\001-1e10\0011e300\001"
                     "0.001\001\\N\001\001yz\0011900-05-06\0011960-07-08 09:10:11.123456789\001"
                     "\\N\n"
                     "\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\001\\N\001\\N\001"
                     "\\N\001\\N\001\\N\n";
  const char *p = write_rc("types.rc", BINARY, &c, text, 0);
  CHECK_STR(render(p, BINARY, &c, NULL),
            "true|-5|-300|2147483647|-9000000000|1.25|-0.1|-12.500|hello|abcd|x  |2024-02-29|"
            "2100-01-01 00:00:00.000001|hi\n"
            "false|127|32767|-2147483648|0|-1.0E10|1.0E300|0.001|NULL|NULL|yz |1900-05-06|"
            "1960-07-08 09:10:11.123456|NULL\n"
            "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL||NULL|NULL|NULL|NULL|NULL");
}

TEST(columnar_serde) {
  cols_t c = cols_of("i int; a array<int>; m map<string,int>; s string");
  const char *p =
      write_rc("columnar.rc", COLUMNAR, &c, "1\0011\0022\001k\0037\001x\n\\N\001\001\001\n", 0);
  unsigned char buf[512];
  size_t n = get_file(p, buf, sizeof buf);
  /* the int column holds the text "1" then "\N" */
  size_t key_at = HEADER_LEN + 12;
  CHECK(n > key_at + 8 && memcmp(buf + key_at, "\x02\x03\x03\x02\x01\x02", 6) == 0);
  CHECK_STR(render(p, COLUMNAR, &c, NULL), "1|[1,2]|{\"k\":7}|x\nNULL|[]|{}|");
  /* LazyBinaryColumnarSerDe holds complex columns too */
  p = write_rc("binary_complex.rc", BINARY, &c, "1\0011\0022\001k\0037\001x\n\\N\001\001\001\n", 0);
  CHECK_STR(render(p, BINARY, &c, NULL), "1|[1,2]|{\"k\":7}|x\nNULL|[]|{}|");
}

TEST(groups_and_syncs) {
  cols_t c = cols_of("i int; s string");
  hl_buf_t text;
  hl_buf_init(&text);
  for (int i = 0; i < 500; i++)
    hl_buf_printf(&text, "%d\001%s\n", i, i % 3 ? "same" : "other!");
  const char *p = write_rc("groups.rc", BINARY, &c, hl_buf_cstr(&text), 100);
  hl_buf_fini(&text);
  const char *rows = render(p, BINARY, &c, NULL);
  CHECK(contains(rows, "0|other!\n1|same\n2|same\n3|other!"));
  CHECK(contains(rows, "499|same"));
  int lines = 1;
  for (const char *q = rows; *q; q++)
    lines += *q == '\n';
  CHECK_INT(lines, 500);
  /* walk the groups: a sync precedes a group once 2000 bytes have passed */
  static unsigned char buf[1 << 16];
  size_t n = get_file(p, buf, sizeof buf), pos = HEADER_LEN, last_sync = 0;
  int groups = 0, syncs = 0;
  while (pos + 4 <= n) {
    int32_t len = (int32_t)((uint32_t)buf[pos] << 24 | (uint32_t)buf[pos + 1] << 16 |
                            (uint32_t)buf[pos + 2] << 8 | buf[pos + 3]);
    if (len == -1) {
      CHECK(pos >= last_sync + HL_RCFILE_SYNC_INTERVAL);
      CHECK(memcmp(buf + pos + 4, SYNC, 16) == 0);
      pos += 20;
      last_sync = pos;
      syncs++;
      continue;
    }
    CHECK(pos < last_sync + HL_RCFILE_SYNC_INTERVAL);
    pos += 12 + (size_t)len;
    groups++;
  }
  CHECK_INT(pos, n);
  CHECK(groups > 20);
  CHECK(syncs >= 1);
}

static size_t zbytes(const void *src, size_t n, unsigned char *out, size_t cap) {
  uLongf len = (uLongf)cap;
  compress2(out, &len, src, (uLong)n, 6); /* zlib format: DefaultCodec */
  return len;
}

TEST(compressed_and_seq_header) {
  cols_t c = cols_of("i int; s string");
  /* a DefaultCodec file by hand: rows (7,"ab"), (8,"ab") */
  const unsigned char col0[] = {7, 8}, col1[] = {'a', 'b', 'a', 'b'};
  unsigned char z0[64], z1[64], zk[64];
  size_t z0n = zbytes(col0, 2, z0, sizeof z0), z1n = zbytes(col1, 4, z1, sizeof z1);
  hl_buf_t key, f;
  hl_buf_init(&key);
  hl_buf_init(&f);
  hl_seqio_put_vlong(&key, 2);
  hl_seqio_put_vlong(&key, (int64_t)z0n);
  hl_seqio_put_vlong(&key, 2);
  hl_seqio_put_vlong(&key, 2);
  hl_buf_append(&key, "\x01\xfe", 2); /* 1, one more 1 */
  hl_seqio_put_vlong(&key, (int64_t)z1n);
  hl_seqio_put_vlong(&key, 4);
  hl_seqio_put_vlong(&key, 2);
  hl_buf_append(&key, "\x02\xfe", 2);
  size_t zkn = zbytes(key.data, key.len, zk, sizeof zk);
  header(&f, "org.apache.hadoop.io.compress.DefaultCodec", 2);
  hl_seqio_put_i32(&f, (int32_t)(key.len + z0n + z1n));
  hl_seqio_put_i32(&f, (int32_t)key.len);
  hl_seqio_put_i32(&f, (int32_t)zkn);
  hl_buf_append(&f, zk, zkn);
  hl_buf_append(&f, z0, z0n);
  hl_buf_append(&f, z1, z1n);
  const char *p = put_file("zlib.rc", f.data, f.len);
  CHECK_STR(render(p, BINARY, &c, NULL), "7|ab\n8|ab");
  /* the original SEQ 6 header */
  const char *good = write_rc("plain.rc", BINARY, &c, "5\001q\n", 0);
  unsigned char buf[512];
  size_t n = get_file(good, buf, sizeof buf);
  hl_buf_reset(&f);
  hl_buf_append(&f, "SEQ\x06", 4);
  hl_seqio_put_text(&f, "org.apache.hadoop.hive.ql.io.RCFile$KeyBuffer");
  hl_seqio_put_text(&f, "org.apache.hadoop.hive.ql.io.RCFile$ValueBuffer");
  hl_buf_append(&f, "\0\0", 2);
  hl_buf_append(&f, buf + 5, n - 5); /* metadata, sync, row group */
  CHECK_STR(render(put_file("seqhdr.rc", f.data, f.len), BINARY, &c, NULL), "5|q");
  /* a file with fewer columns than the table: the rest is NULL */
  cols_t c3 = cols_of("i int; s string; extra double");
  CHECK_STR(render(good, BINARY, &c3, NULL), "5|q|NULL");
  hl_buf_fini(&key);
  hl_buf_fini(&f);
}

TEST(malformed) {
  cols_t c = cols_of("i int; s string");
  const char *e = render(put_file("bad.rc", "RCX\x01zzzzzzzzzzzzzzz", 19), BINARY, &c, NULL);
  CHECK(contains(e, "ERROR XX001") && contains(e, "bad.rc"));
  CHECK_STR(render(put_file("empty.rc", "", 0), BINARY, &c, NULL), "");
  const char *good = write_rc("good.rc", BINARY, &c, "1\001a\n2\001bb\n", 0);
  unsigned char buf[512];
  size_t n = get_file(good, buf, sizeof buf);
  for (size_t len = 1; len < n; len++) {
    const char *r = render(put_file("trunc.rc", buf, len), BINARY, &c, NULL);
    if (len == HEADER_LEN)
      CHECK_STR(r, "");
    else
      CHECK(contains(r, "ERROR XX001") && contains(r, "trunc.rc"));
  }
  /* every single-byte change in the row group: rows or XX001, no crash */
  unsigned char bad[512];
  for (size_t at = HEADER_LEN; at < n; at++) {
    for (int delta = 1; delta < 256; delta += 37) {
      memcpy(bad, buf, n);
      bad[at] = (unsigned char)(bad[at] + delta);
      const char *r = render(put_file("flip.rc", bad, n), BINARY, &c, NULL);
      CHECK(!contains(r, "ERROR") || contains(r, "ERROR XX001"));
    }
  }
  /* cell lengths that do not add up */
  memcpy(bad, buf, n);
  bad[HEADER_LEN + 12 + 4] = 2; /* first cell claims 2 bytes */
  e = render(put_file("lens.rc", bad, n), BINARY, &c, NULL);
  CHECK(contains(e, "ERROR XX001") && contains(e, "cell lengths"));
  /* no column count */
  hl_buf_t f;
  hl_buf_init(&f);
  hl_buf_append(&f, "RCF\x01\x00\x00\x00\x00\x00", 9);
  hl_buf_append(&f, SYNC, 16);
  e = render(put_file("nocols.rc", f.data, f.len), BINARY, &c, NULL);
  CHECK(contains(e, "ERROR XX001") && contains(e, "column.number"));
  /* a plain SequenceFile is not an RCFile */
  hl_buf_reset(&f);
  hl_buf_append(&f, "SEQ\x06", 4);
  hl_seqio_put_text(&f, "org.apache.hadoop.io.BytesWritable");
  hl_seqio_put_text(&f, "org.apache.hadoop.io.Text");
  e = render(put_file("seq.rc", f.data, f.len), BINARY, &c, NULL);
  CHECK(contains(e, "ERROR XX001") && contains(e, "not an RCFile"));
  hl_buf_fini(&f);
  /* an unsupported codec and an empty BINARY are refused */
  hl_buf_init(&f);
  header(&f, "org.apache.hadoop.io.compress.BrotliCodec", 2);
  e = render(put_file("brotli.rc", f.data, f.len), BINARY, &c, NULL);
  CHECK(contains(e, "ERROR 0A000") && contains(e, "BrotliCodec"));
  hl_buf_fini(&f);
}

TEST(empty_binary) {
  cols_t c = cols_of("b binary");
  hl_rcfile_format_t fmt = rc_fmt(BINARY);
  hl_error_t err;
  hl_err_init(&err);
  hl_rcfile_writer_t *w = NULL;
  const char *dst = tpath("emptybin.rc");
  unlink(dst);
  CHECK_INT(hl_rcfile_writer_open(T.fs, dst, &fmt, 1, c.types, c.names, NULL, SYNC, 0, &w, &err),
            HL_OK);
  hl_batch_t *batch = hl_batch_create(1, c.types);
  hl_batch_reset(batch);
  hl_value_t v = {.is_null = false};
  v.u.s.ptr = "";
  v.u.s.len = 0;
  hl_vec_put_value(&batch->cols[0], batch->arena, 0, &v);
  batch->n_rows = 1;
  CHECK_INT(hl_rcfile_writer_write(w, batch, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22000");
  hl_rcfile_writer_abort(w);
  hl_batch_destroy(batch);
  hl_err_clear(&err);
}

int main(void) {
  if (test_tmpdir(T.dir, sizeof T.dir, "rcfile") != 0) return 1;
  T.fs = hl_stor_local_create();
  T.arena = hl_arena_create(0);
  RUN(exact_bytes);
  RUN(cells);
  RUN(roundtrip_types);
  RUN(columnar_serde);
  RUN(groups_and_syncs);
  RUN(compressed_and_seq_header);
  RUN(malformed);
  RUN(empty_binary);
  hl_error_t err;
  hl_err_init(&err);
  T.fs->ops->remove_tree(T.fs, T.dir, &err);
  hl_err_clear(&err);
  hl_arena_destroy(T.arena);
  T.fs->ops->destroy(T.fs);
  return test_report();
}
