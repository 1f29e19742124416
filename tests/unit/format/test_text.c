/*
 * test_text.c -- unit tests of the Hive text formats (src/format/text):
 * format properties, LazySimpleSerDe / OpenCSVSerde / JsonSerDe reading,
 * compression, errors, projection, batching, and writer round trips.
 *
 * Files are written with stdio into a temporary directory and read back
 * through the local storage backend.  Results are rendered as text (rows
 * joined by '\n', columns by '|', values in Hive's text form, NULL as NULL)
 * and compared with exact expected strings.
 */
#include "format/text/text.h"
#include "format/text/text_int.h"

#include "test.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

typedef struct ctx {
  char dir[512];
  hl_stor_t *fs;
  hl_arena_t *arena;
} ctx_t;

static ctx_t T;

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

static const char *put_text(const char *name, const char *text) {
  return put_file(name, text, strlen(text));
}

static size_t gzip_bytes(const char *text, size_t len, unsigned char *out, size_t cap) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  zs.next_in = (unsigned char *)text;
  zs.avail_in = (uInt)len;
  zs.next_out = out;
  zs.avail_out = (uInt)cap;
  deflate(&zs, Z_FINISH);
  size_t n = cap - zs.avail_out;
  deflateEnd(&zs);
  return n;
}

static hl_text_format_t fmt_of(const char *serde, const hl_kv_t *sp, int n_sp, const hl_kv_t *tp,
                               int n_tp) {
  hl_text_format_t fmt;
  hl_error_t err;
  hl_err_init(&err);
  hl_status_t st = hl_text_format_init(&fmt, T.arena, serde, sp, n_sp, tp, n_tp, &err);
  CHECK_INT(st, HL_OK);
  hl_err_clear(&err);
  return fmt;
}

static hl_text_format_t lazy_fmt(void) {
  return fmt_of(NULL, NULL, 0, NULL, 0);
}

/* Parses "name type, name type, ..." into columns. */
typedef struct cols {
  int n;
  const hl_type_t *types[32];
  const char *names[32];
} cols_t;

static cols_t cols_of(const char *spec) {
  cols_t c;
  memset(&c, 0, sizeof c);
  const char *p = spec;
  while (*p && c.n < 32) {
    while (*p == ' ' || *p == ',')
      p++;
    const char *name = p;
    while (*p != ' ')
      p++;
    c.names[c.n] = hl_arena_strndup(T.arena, name, (size_t)(p - name));
    p++;
    /* the type runs to the next top-level comma */
    const char *ty = p;
    int depth = 0;
    while (*p && !(depth == 0 && *p == ',')) {
      if (*p == '<' || *p == '(') depth++;
      if (*p == '>' || *p == ')') depth--;
      p++;
    }
    char *text = hl_arena_strndup(T.arena, ty, (size_t)(p - ty));
    hl_type_t *t = NULL;
    hl_error_t err;
    hl_err_init(&err);
    if (hl_type_parse_str(T.arena, text, &t, &err) != HL_OK) {
      fprintf(stderr, "bad type %s: %s\n", text, err.message);
      hl_err_clear(&err);
      exit(1);
    }
    c.types[c.n++] = t;
  }
  return c;
}

/* Reads the whole file and renders it; NULL on error (ERR set). */
static char *render_file(const char *path, const hl_text_format_t *fmt, const cols_t *c,
                         const bool *projected, int *n_batches, hl_error_t *err) {
  hl_text_reader_t *r = NULL;
  if (n_batches) *n_batches = 0;
  if (hl_text_reader_open(T.fs, path, fmt, c->n, c->types, c->names, projected, &r, err) != HL_OK)
    return NULL;
  hl_batch_t *batch = hl_batch_create(c->n, c->types);
  hl_buf_t out;
  hl_buf_init(&out);
  hl_buf_cstr(&out);
  bool first = true, ok = true;
  for (;;) {
    hl_batch_reset(batch);
    if (hl_text_reader_next(r, batch, err) != HL_OK) {
      ok = false;
      break;
    }
    if (batch->n_rows == 0) break;
    if (n_batches) (*n_batches)++;
    for (uint32_t row = 0; row < batch->n_rows; row++) {
      if (!first) hl_buf_putc(&out, '\n');
      first = false;
      for (int col = 0; col < c->n; col++) {
        if (col) hl_buf_putc(&out, '|');
        hl_value_t v;
        hl_vec_get_value(&batch->cols[col], row, &v);
        if (c->types[col]->id == HL_T_BINARY && !v.is_null) { /* bytes as hex */
          hl_buf_puts(&out, "0x");
          for (uint32_t i = 0; i < v.u.s.len; i++)
            hl_buf_printf(&out, "%02x", (unsigned char)v.u.s.ptr[i]);
        } else {
          hl_value_format(&out, c->types[col], &v);
        }
      }
    }
  }
  hl_batch_destroy(batch);
  hl_text_reader_close(r);
  if (!ok) {
    hl_buf_fini(&out);
    return NULL;
  }
  char *s = hl_arena_strdup(T.arena, hl_buf_cstr(&out));
  hl_buf_fini(&out);
  return s;
}

static const char *render(const char *path, const hl_text_format_t *fmt, const char *spec) {
  cols_t c = cols_of(spec);
  hl_error_t err;
  hl_err_init(&err);
  char *s = render_file(path, fmt, &c, NULL, NULL, &err);
  if (!s) {
    fprintf(stderr, "read error: %s\n", err.message);
    s = hl_arena_sprintf(T.arena, "ERROR %s", err.sqlstate);
  }
  hl_err_clear(&err);
  return s;
}

/* Reads expecting failure; returns "<SQLSTATE> <message>". */
static const char *read_error(const char *path, const hl_text_format_t *fmt, const char *spec) {
  cols_t c = cols_of(spec);
  hl_error_t err;
  hl_err_init(&err);
  char *s = render_file(path, fmt, &c, NULL, NULL, &err);
  const char *res = s ? "no error" : hl_arena_sprintf(T.arena, "%s %s", err.sqlstate, err.message);
  hl_err_clear(&err);
  return res;
}

static bool contains(const char *s, const char *sub) {
  return s && strstr(s, sub) != NULL;
}

/* ---------------------------------------------------------------------- */

TEST(format_init) {
  hl_text_format_t f = lazy_fmt();
  CHECK_INT(f.kind, HL_TEXT_LAZY);
  CHECK(memcmp(f.separators, "\001\002\003\004\005\006\007\010", 8) == 0);
  CHECK(!f.has_escape);
  CHECK_STR(f.null_string, "\\N");
  CHECK_INT(f.line_delim, '\n');
  CHECK_INT(f.skip_header_lines, 0);
  CHECK_INT(f.csv_separator, ',');
  CHECK_INT(f.csv_quote, '"');
  CHECK_INT(f.csv_escape, '\\');

  hl_kv_t sp[] = {{"field.delim", ","},   {"colelction.delim", "|"},         {"mapkey.delim", "9"},
                  {"escape.delim", "\\"}, {"serialization.null.format", ""}, {"line.delim", "\n"}};
  hl_kv_t tp[] = {{"skip.header.line.count", "2"}};
  f = fmt_of("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe", sp, 6, tp, 1);
  CHECK_INT(f.separators[0], ',');
  CHECK_INT(f.separators[1], '|');
  CHECK_INT(f.separators[2], '\t'); /* "9" is the byte 9, as Hive reads it */
  CHECK_INT(f.separators[3], '\004');
  CHECK(f.has_escape);
  CHECK_INT(f.escape, '\\');
  CHECK_STR(f.null_string, "");
  CHECK_INT(f.skip_header_lines, 2);

  hl_kv_t sp2[] = {{"serialization.format", "1"}, {"collection.delim", "44"}};
  f = fmt_of("org.apache.hadoop.hive.serde2.MetadataTypedColumnsetSerDe", sp2, 2, NULL, 0);
  CHECK_INT(f.kind, HL_TEXT_LAZY);
  CHECK_INT(f.separators[0], '\001');
  CHECK_INT(f.separators[1], ',');

  hl_kv_t csv[] = {{"separatorChar", ";"}, {"quoteChar", "'"}, {"escapeChar", "#"}};
  f = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", csv, 3, NULL, 0);
  CHECK_INT(f.kind, HL_TEXT_CSV);
  CHECK_INT(f.csv_separator, ';');
  CHECK_INT(f.csv_quote, '\'');
  CHECK_INT(f.csv_escape, '#');
  CHECK_INT(fmt_of("org.apache.hive.hcatalog.data.JsonSerDe", NULL, 0, NULL, 0).kind, HL_TEXT_JSON);
  CHECK_INT(fmt_of("org.apache.hadoop.hive.serde2.JsonSerDe", NULL, 0, NULL, 0).kind, HL_TEXT_JSON);

  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_text_format_init(&f, T.arena, "com.example.NoSuchSerDe", NULL, 0, NULL, 0, &err),
            HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  CHECK_STR(err.message, "serde \"com.example.NoSuchSerDe\" is not supported");
  hl_err_clear(&err);
  CHECK_INT(hl_text_format_init(&f, T.arena, "org.apache.hadoop.hive.serde2.RegexSerDe", NULL, 0,
                                NULL, 0, &err),
            HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
  hl_kv_t rx[] = {{"input.regex", "(a)"}, {"input.regex.case.insensitive", "TRUE"}};
  f = fmt_of("org.apache.hadoop.hive.serde2.RegexSerDe", rx, 2, NULL, 0);
  CHECK_INT(f.kind, HL_TEXT_REGEX);
  CHECK_STR(f.input_regex, "(a)");
  CHECK(f.regex_icase);
  hl_kv_t md[] = {{"field.delim", "|~|"}, {"colelction.delim", "#"}};
  f = fmt_of("org.apache.hadoop.hive.serde2.MultiDelimitSerDe", md, 2, NULL, 0);
  CHECK_INT(f.kind, HL_TEXT_LAZY);
  CHECK_STR(f.multi_delim, "|~|");
  CHECK_INT(f.separators[0], '|');
  CHECK_INT(f.separators[1], '\002'); /* MultiDelimitSerDe reads collection.delim only */
  CHECK_INT(
      fmt_of("org.apache.hadoop.hive.serde2.lazybinary.LazyBinarySerDe", NULL, 0, NULL, 0).kind,
      HL_TEXT_LAZYBIN);
  hl_kv_t bad_line[] = {{"line.delim", "|"}};
  CHECK_INT(hl_text_format_init(&f, T.arena, NULL, bad_line, 1, NULL, 0, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  hl_err_clear(&err);
  hl_kv_t footer[] = {{"skip.footer.line.count", "1"}};
  CHECK_INT(hl_text_format_init(&f, T.arena, NULL, NULL, 0, footer, 1, &err), HL_UNSUPPORTED);
  hl_err_clear(&err);
  hl_kv_t bad_header[] = {{"skip.header.line.count", "x"}};
  CHECK_INT(hl_text_format_init(&f, T.arena, NULL, NULL, 0, bad_header, 1, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
}

TEST(lazy_primitives) {
  hl_text_format_t f = lazy_fmt();
  const char *spec = "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
                     "m decimal(10,2), str string, v varchar(3), dt date, ts timestamp, bin binary";
  const char *p =
      put_text("prim.txt", "true\0011\0012\0013\0014\0011.5\0012.25\0013.14159\001hello\001abcdef"
                           "\0012024-02-29\0012024-02-29 12:34:56.5\001aGk=\n"
                           "FALSE\001-128\001-32768\001-2147483648\001-9223372036854775808\001"
                           "-0.5\0011e10\001-0.005\001\001x\0011970-01-01\0011970-01-01 00:00:00"
                           "\001\n"
                           "yes\001128\00140000\0012147483648\0019223372036854775808\001abc\001"
                           "x\00112345678901\001\\N\001\\N\0012024-13-01\001garbage\001!!\n");
  CHECK_STR(render(p, &f, spec),
            "true|1|2|3|4|1.5|2.25|3.14|hello|abc|2024-02-29|2024-02-29 12:34:56.5|0x6869\n"
            "false|-128|-32768|-2147483648|-9223372036854775808|-0.5|1.0E10|-0.01||x|1970-01-01|"
            "1970-01-01 00:00:00|0x\n"
            "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|0x2121");
}

TEST(lazy_missing_extra_empty) {
  hl_text_format_t f = lazy_fmt();
  const char *p = put_text("fields.txt", "1\001a\n"
                                         "2\001b\0013\001extra\001more\n"
                                         "\001\001\n"
                                         "\n"
                                         "\\N\001\\N\001\\N\n"
                                         "x\001\\n\0014\n");
  CHECK_STR(render(p, &f, "i int, s string, j int"), "1|a|NULL\n"
                                                     "2|b|3\n"
                                                     "NULL||NULL\n"
                                                     "NULL|NULL|NULL\n"
                                                     "NULL|NULL|NULL\n"
                                                     "NULL|\\n|4");
  /* an empty line: the first string field is empty, the rest missing */
  p = put_text("empty_line.txt", "\n\n");
  CHECK_STR(render(p, &f, "s string, i int"), "|NULL\n|NULL");
}

TEST(lazy_custom_delims_escape_null) {
  hl_kv_t sp[] = {
      {"field.delim", ","}, {"escape.delim", "\\"}, {"serialization.null.format", "NULL"}};
  hl_text_format_t f = fmt_of(NULL, sp, 3, NULL, 0);
  const char *p = put_text("esc.csv", "a\\,b,1,x\\\\y\n"
                                      "NULL,NULL,\n"
                                      "line\\nbreak\\rcr,2,\\N\n"
                                      "tail\\,3,4,end\\\n");
  CHECK_STR(render(p, &f, "s string, i int, t string"), "a,b|1|x\\y\n"
                                                        "NULL|NULL|\n"
                                                        "line\nbreak\rcr|2|N\n"
                                                        "tail,3|4|end\\");
  /* an empty null string makes empty fields NULL for strings too */
  hl_kv_t sp2[] = {{"field.delim", "|"}, {"serialization.null.format", ""}};
  f = fmt_of(NULL, sp2, 2, NULL, 0);
  p = put_text("emptynull.txt", "|x\n");
  CHECK_STR(render(p, &f, "a string, b string"), "NULL|x");
}

TEST(lazy_complex) {
  hl_text_format_t f = lazy_fmt();
  const char *spec = "a array<int>, m map<string,int>, s struct<x:int,y:string>, "
                     "aa array<array<int>>, ma map<string,array<string>>, "
                     "sa struct<n:string,l:array<int>>";
  const char *p = put_text("complex.txt", "1\0022\002x\002\\N\001k1\0031\002k2\003\\N\002k3\001"
                                          "7\002seven\001"
                                          "1\0032\0023\001a\0031\0042\002b\003\001nm\0025\0036\n"
                                          "\001\001\001\001\001\n"
                                          "\\N\001\\N\001\\N\001\\N\001\\N\001\\N\n"
                                          "9\001\\N\0031\002k\0032\0012\n");
  CHECK_STR(render(p, &f, spec),
            "[1,2,null,null]|{\"k1\":1,\"k2\":null,\"k3\":null}|{\"x\":7,\"y\":\"seven\"}|"
            "[[1,2],[3]]|{\"a\":[\"1\",\"2\"],\"b\":[]}|{\"n\":\"nm\",\"l\":[5,6]}\n"
            "[]|{}|{\"x\":null,\"y\":null}|[]|{}|{\"n\":\"\",\"l\":null}\n"
            "NULL|NULL|NULL|NULL|NULL|NULL\n"
            "[9]|{\"k\":2}|{\"x\":2,\"y\":null}|NULL|NULL|NULL");
  /* duplicate map keys: the first entry wins, as in Hive's LazyMap */
  p = put_text("dupkeys.txt", "k\0031\002k\0032\002j\0033\002\\N\0034\n");
  CHECK_STR(render(p, &f, "m map<string,int>"), "{\"k\":1,\"j\":3}");
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < 100; i++)
    hl_buf_printf(&b, "%s%d\003%d", i ? "\002" : "", (i * 7) % 40, i);
  hl_buf_putc(&b, '\n');
  p = put_file("dupkeys2.txt", b.data, b.len);
  hl_buf_reset(&b);
  hl_buf_putc(&b, '{');
  for (int i = 0; i < 40; i++)
    hl_buf_printf(&b, "%s%d:%d", i ? "," : "", (i * 7) % 40, i);
  hl_buf_putc(&b, '}');
  CHECK_STR(render(p, &f, "m map<int,int>"), b.data);
  hl_buf_fini(&b);
  /* a nesting deeper than Hive's 7 separator levels is refused */
  cols_t c = cols_of("deep array<array<array<array<array<array<array<array<int>>>>>>>>");
  hl_error_t err;
  hl_err_init(&err);
  hl_text_reader_t *r = NULL;
  CHECK_INT(hl_text_reader_open(T.fs, p, &f, c.n, c.types, c.names, NULL, &r, &err),
            HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  hl_err_clear(&err);
}

TEST(csv) {
  hl_text_format_t f = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", NULL, 0, NULL, 0);
  const char *p = put_text("q.csv", "a,1,x\n"
                                    "\"b,c\",2,\"say \"\"hi\"\"\"\n"
                                    "\"multi\nline\",3,\"q\\\"e\\\\\"\n"
                                    ",notint,\n"
                                    "only\n"
                                    "drop\\ped,4,y,extra\r\n"
                                    "last,5,\"no newline\"");
  CHECK_STR(render(p, &f, "s string, i int, t string"), "a|1|x\n"
                                                        "b,c|2|say \"hi\"\n"
                                                        "multi\nline|3|q\"e\\\n"
                                                        "|NULL|\n"
                                                        "only|NULL|NULL\n"
                                                        "dropped|4|y\n"
                                                        "last|5|no newline");
  hl_kv_t sp[] = {{"separatorChar", "\t"}, {"quoteChar", "'"}, {"escapeChar", "'"}};
  f = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", sp, 3, NULL, 0);
  p = put_text("q.tsv", "'it''s'\t2.5\n");
  CHECK_STR(render(p, &f, "s string, d double"), "it's|2.5");
  p = put_text("open.csv", "a,\"never closed\n");
  f = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", NULL, 0, NULL, 0);
  const char *e = read_error(p, &f, "s string, t string");
  CHECK(contains(e, "XX001"));
  CHECK(contains(e, "unterminated quoted field"));
  cols_t c = cols_of("a array<int>");
  hl_error_t err;
  hl_err_init(&err);
  hl_text_reader_t *r = NULL;
  CHECK_INT(hl_text_reader_open(T.fs, p, &f, c.n, c.types, c.names, NULL, &r, &err),
            HL_UNSUPPORTED);
  hl_err_clear(&err);
}

TEST(json) {
  hl_text_format_t f = fmt_of("org.apache.hive.hcatalog.data.JsonSerDe", NULL, 0, NULL, 0);
  const char *spec = "id int, name string, score double, ok boolean, tags array<string>, "
                     "attrs map<string,int>, pos struct<x:int,y:int>, d date, big decimal(30,0)";
  const char *p = put_text(
      "j.json",
      "{\"ID\": 1, \"Name\": \"ann\", \"score\": 1.5, \"ok\": true, \"tags\": [\"a\",\"b\"], "
      "\"attrs\": {\"k\": 3}, \"POS\": {\"Y\": 2, \"x\": 1}, \"d\": \"2020-01-02\", "
      "\"big\": 123456789012345678901234567890}\n"
      "{\"id\": \"12\", \"name\": 42, \"score\": \"2\", \"ok\": \"FALSE\", \"tags\": \"no\", "
      "\"attrs\": {\"a\": \"x\", \"b\": 2}, \"pos\": [1], \"d\": 5, \"extra\": 1}\n"
      "{\"id\": 1.5, \"name\": null, \"ok\": 1, \"tags\": [null, 1], \"name2\": \"z\"}\n"
      "{}\n"
      "{\"name\": {\"a\": [1, 2]}, \"id\": true}\n");
  CHECK_STR(render(p, &f, spec),
            "1|ann|1.5|true|[\"a\",\"b\"]|{\"k\":3}|{\"x\":1,\"y\":2}|2020-01-02|"
            "123456789012345678901234567890\n"
            "12|42|2.0|false|NULL|{\"a\":null,\"b\":2}|NULL|NULL|NULL\n"
            "1|NULL|NULL|NULL|[null,\"1\"]|NULL|NULL|NULL|NULL\n"
            "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "NULL|{\"a\":[1,2]}|NULL|NULL|NULL|NULL|NULL|NULL|NULL");
  p = put_text("bad.json", "{\"id\": 1}\n{\"id\": 2\n{\"id\": 3}\n");
  const char *e = read_error(p, &f, "id int");
  CHECK(contains(e, "XX001"));
  CHECK(contains(e, "bad.json"));
  CHECK(contains(e, "line 2"));
  p = put_text("arr.json", "[1,2]\n");
  e = read_error(p, &f, "id int");
  CHECK(contains(e, "line 1 is not a JSON object"));
}

TEST(compression) {
  hl_text_format_t f = lazy_fmt();
  unsigned char gz[4096];
  size_t n1 = gzip_bytes("1\001a\n2\001b\n", 8, gz, sizeof gz);
  size_t n2 = gzip_bytes("3\001c\n", 4, gz + n1, sizeof gz - n1); /* a second member */
  const char *p = put_file("two.gz", gz, n1 + n2);
  CHECK_STR(render(p, &f, "i int, s string"), "1|a\n2|b\n3|c");

  unsigned char zs[4096];
  size_t z1 = ZSTD_compress(zs, sizeof zs, "4\001d\n", 4, 3);
  size_t z2 = ZSTD_compress(zs + z1, sizeof zs - z1, "5\001e", 3, 3);
  p = put_file("two.zst", zs, z1 + z2);
  CHECK_STR(render(p, &f, "i int, s string"), "4|d\n5|e");

  p = put_file("empty.gz", "", 0);
  CHECK_STR(render(p, &f, "i int"), "");

  unsigned char bad[4096];
  memcpy(bad, gz, n1);
  for (size_t i = 12; i < n1 - 8; i++)
    bad[i] ^= 0x5a;
  p = put_file("bad.gz", bad, n1);
  const char *e = read_error(p, &f, "i int, s string");
  CHECK_STR(e, hl_arena_sprintf(T.arena, "XX001 cannot read \"%s\": corrupt gzip data", p));
  p = put_file("trunc.gz", gz, n1 - 5);
  e = read_error(p, &f, "i int, s string");
  CHECK(contains(e, "XX001"));
  CHECK(contains(e, "truncated"));
  p = put_file("garbage_after.gz", "\x1f\x8b\x08\x00junkjunkjunk", 16);
  CHECK(contains(read_error(p, &f, "i int"), "XX001"));
  p = put_file("trunc.zst", zs, z1 - 3);
  e = read_error(p, &f, "i int, s string");
  CHECK(contains(e, "XX001"));
  CHECK(contains(e, "trunc.zst"));
  p = put_file("bad.zst", "\x28\xb5\x2f\xfdxxxxxxxx", 12);
  CHECK(contains(read_error(p, &f, "i int"), "corrupt zstd data"));

  p = put_text("x.lzo", "LZO");
  e = read_error(p, &f, "i int");
  CHECK(contains(e, "0A000"));
  CHECK(contains(e, "\"lzo\""));
  p = put_text("x.br", "");
  CHECK(contains(read_error(p, &f, "i int"), "\"br\""));
  p = put_text("x.bz2", "BZh9");
  CHECK_STR(
      read_error(p, &f, "i int"),
      hl_arena_sprintf(T.arena, "XX001 cannot read \"%s\": corrupt bzip2 data (truncated)", p));
  p = put_text("x.snappy", ""); /* an empty file is an empty stream for every codec */
  CHECK_STR(render(p, &f, "i int"), "");
  p = put_file("zero.lz4", "\0\0\0\0", 4); /* what Hadoop writes for an empty stream */
  CHECK_STR(render(p, &f, "i int"), "");
}

/* Every codec's sink and source: 3 MB of text written in pieces of odd
 * sizes (some beyond a snappy/lz4 block, some one byte) reads back byte
 * for byte, in reads of odd sizes too. */
TEST(codec_round_trip) {
  static const char *const exts[] = {"", ".gz", ".zst", ".deflate", ".bz2", ".snappy", ".lz4"};
  size_t total = 3u << 20;
  char *plain = hl_arena_alloc(T.arena, total);
  char *back = hl_arena_alloc(T.arena, total + 1);
  uint32_t x = 12345;
  for (size_t i = 0; i < total; i++) { /* compressible, but not trivially */
    x = x * 1103515245u + 12345u;
    plain[i] = (char)((i % 61 == 0) ? '\n' : 'a' + (int)((x >> 16) % 7));
  }
  for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
    const char *p = tpath(hl_arena_sprintf(T.arena, "rt%zu.txt%s", e, exts[e]));
    unlink(p);
    hl_error_t err;
    hl_err_init(&err);
    hl_text_sink_t *sink = NULL;
    CHECK_INT(hl_text_sink_open(T.fs, p, &sink, &err), HL_OK);
    static const size_t pieces[] = {1, 300000, 7, 65536, 1000000, 3};
    size_t off = 0;
    for (int k = 0; off < total; k++) {
      size_t n = pieces[k % 6] < total - off ? pieces[k % 6] : total - off;
      CHECK_INT(hl_text_sink_write(sink, plain + off, n, &err), HL_OK);
      off += n;
    }
    CHECK_INT(hl_text_sink_close(sink, false, &err), HL_OK);
    hl_text_src_t *src = NULL;
    CHECK_INT(hl_text_src_open(T.fs, p, &src, &err), HL_OK);
    size_t got = 0, n = 0;
    do {
      CHECK_INT(hl_text_src_read(src, back + got,
                                 (got % 3 ? 100003 : 17) < total + 1 - got ? (got % 3 ? 100003 : 17)
                                                                           : total + 1 - got,
                                 &n, &err),
                HL_OK);
      got += n;
    } while (n > 0 && got <= total);
    hl_text_src_close(src);
    CHECK_INT(got, total);
    CHECK(memcmp(back, plain, total) == 0);
    hl_err_clear(&err);
  }
}

TEST(lines_and_batches) {
  hl_text_format_t f = lazy_fmt();
  CHECK_STR(render(put_text("empty.txt", ""), &f, "s string"), "");
  CHECK_STR(render(put_text("one.txt", "a\n"), &f, "s string"), "a");
  CHECK_STR(render(put_text("nonl.txt", "a\nb"), &f, "s string"), "a\nb");
  CHECK_STR(render(put_text("crlf.txt", "a\001x\r\nb\001y\r\nc\r"), &f, "s string, t string"),
            "a|x\nb|y\nc|NULL");
  CHECK_STR(render(put_text("blank.txt", "a\n\n"), &f, "s string"), "a\n");

  hl_kv_t tp[] = {{"skip.header.line.count", "2"}};
  hl_text_format_t fh = fmt_of(NULL, NULL, 0, tp, 1);
  CHECK_STR(render(put_text("hdr.txt", "h1\nh2\n1\n2\n"), &fh, "i int"), "1\n2");
  CHECK_STR(render(put_text("hdr_only.txt", "h1\n"), &fh, "i int"), "");

  /* 5000 lines: three batches, every row in order */
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < 5000; i++)
    hl_buf_printf(&b, "%d\001v%d\n", i, i);
  const char *p = put_file("many.txt", b.data, b.len);
  hl_buf_fini(&b);
  cols_t c = cols_of("i int, s string");
  hl_error_t err;
  hl_err_init(&err);
  int n_batches = 0;
  char *s = render_file(p, &f, &c, NULL, &n_batches, &err);
  CHECK(s != NULL);
  CHECK_INT(n_batches, 3);
  hl_buf_init(&b);
  for (int i = 0; i < 5000; i++)
    hl_buf_printf(&b, "%s%d|v%d", i ? "\n" : "", i, i);
  CHECK(s && strcmp(s, b.data) == 0);
  hl_buf_fini(&b);

  /* projection: unprojected columns stay NULL */
  bool proj[2] = {false, true};
  s = render_file(put_text("proj.txt", "1\001a\n2\001b\n"), &f, &c, proj, NULL, &err);
  CHECK_STR(s, "NULL|a\nNULL|b");
  bool none[2] = {false, false};
  s = render_file(p, &f, &c, none, &n_batches, &err);
  CHECK_INT(n_batches, 3);
  /* count(*) over CSV counts records, not lines */
  hl_text_format_t fc = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", NULL, 0, NULL, 0);
  s = render_file(put_text("ml.csv", "\"a\nb\",1\nc,2\n"), &fc, &c, none, NULL, &err);
  CHECK_STR(s, "NULL|NULL\nNULL|NULL");
  hl_err_clear(&err);
}

TEST(long_line) {
  /* a 65 MiB line (zstd-compressed on disk) is an error, not an allocation */
  hl_text_format_t f = lazy_fmt();
  size_t len = (size_t)65 << 20;
  char *big = hl_malloc(len);
  memset(big, 'a', len);
  size_t cap = ZSTD_compressBound(len);
  char *z = hl_malloc(cap);
  size_t zn = ZSTD_compress(z, cap, big, len, 1);
  const char *p = put_file("long.zst", z, zn);
  hl_free(big);
  hl_free(z);
  const char *e = read_error(p, &f, "s string");
  CHECK(contains(e, "54000"));
  CHECK(contains(e, "longer than 64 MiB"));
}

/* Writes rows with the writer, then reads them back. */
static const char *roundtrip(const char *name, const hl_text_format_t *f, const char *spec,
                             const char *source, const hl_text_format_t *source_fmt,
                             char **file_text) {
  cols_t c = cols_of(spec);
  hl_error_t err;
  hl_err_init(&err);
  const char *src = put_text(hl_arena_sprintf(T.arena, "%s.src", name), source);
  const char *dst = tpath(name);
  unlink(dst);
  hl_text_reader_t *r = NULL;
  hl_text_writer_t *w = NULL;
  hl_batch_t *batch = hl_batch_create(c.n, c.types);
  CHECK_INT(hl_text_reader_open(T.fs, src, source_fmt, c.n, c.types, c.names, NULL, &r, &err),
            HL_OK);
  CHECK_INT(hl_text_writer_open(T.fs, dst, f, c.n, c.types, c.names, &w, &err), HL_OK);
  for (;;) {
    hl_batch_reset(batch);
    if (hl_text_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
    CHECK_INT(hl_text_writer_write(w, batch, &err), HL_OK);
  }
  CHECK(hl_text_writer_raw_bytes(w) > 0);
  CHECK_INT(hl_text_writer_close(w, &err), HL_OK);
  hl_text_reader_close(r);
  hl_batch_destroy(batch);
  if (err.code) fprintf(stderr, "roundtrip error: %s\n", err.message);
  hl_err_clear(&err);
  if (file_text) {
    FILE *fp = fopen(dst, "rb");
    char buf[8192];
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (fp) fclose(fp);
    buf[n] = '\0';
    *file_text = hl_arena_strdup(T.arena, buf);
  }
  return render(dst, f, spec);
}

TEST(roundtrip) {
  const char *spec = "b boolean, i int, l bigint, d double, m decimal(10,2), s string, "
                     "dt date, ts timestamp, bin binary, a array<string>, "
                     "mp map<string,array<int>>, st struct<x:int,y:string>";
  /* source: JSON, since it can express every value including separators */
  hl_text_format_t json = fmt_of("org.apache.hadoop.hive.serde2.JsonSerDe", NULL, 0, NULL, 0);
  const char *source =
      "{\"b\":true,\"i\":1,\"l\":-9000000000,\"d\":0.1,\"m\":\"12.5\",\"s\":\"a\\u0001b\\nc\\\\d\","
      "\"dt\":\"2021-03-04\",\"ts\":\"2021-03-04 05:06:07.123456\",\"bin\":\"AAEC/w==\","
      "\"a\":[\"x\",\"\",null,\"y\\u0002z\"],\"mp\":{\"k\":[1,null],\"e\":[]},"
      "\"st\":{\"x\":null,\"y\":\"\"}}\n"
      "{\"s\":\"\"}\n"
      "{\"s\":\"\\\\N\",\"d\":-1e300,\"a\":[]}\n";
  const char *expect =
      "true|1|-9000000000|0.1|12.50|a\001b\nc\\d|2021-03-04|2021-03-04 05:06:07.123456|"
      "0x000102ff|[\"x\",\"\",null,\"y\\u0002z\"]|{\"k\":[1,null],\"e\":[]}|"
      "{\"x\":null,\"y\":\"\"}\n"
      "NULL|NULL|NULL|NULL|NULL||NULL|NULL|NULL|NULL|NULL|NULL\n"
      "NULL|NULL|NULL|-1.0E300|NULL|\\N|NULL|NULL|NULL|[]|NULL|NULL";
  hl_kv_t esc[] = {{"escape.delim", "\\"}};
  hl_text_format_t lazy_esc = fmt_of(NULL, esc, 1, NULL, 0);
  char *raw = NULL;
  CHECK_STR(roundtrip("rt_esc.txt", &lazy_esc, spec, source, &json, &raw), expect);
  /* the written text itself: separators and newline escaped, binary base64 */
  CHECK(contains(raw, "a\\\001b\\nc\\\\d"));
  CHECK(contains(raw, "AAEC/w=="));
  CHECK(contains(raw, "x\002\002\\N\002y\\\002z"));
  CHECK_STR(roundtrip("rt_esc.txt.gz", &lazy_esc, spec, source, &json, NULL), expect);
  CHECK_STR(roundtrip("rt.json", &json, spec, source, &json, &raw), expect);
  CHECK(contains(raw, "\"bin\":\"AAEC/w==\""));
  CHECK_STR(roundtrip("rt.json.zst", &json, spec, source, &json, NULL), expect);
  hl_error_t err;
  hl_err_init(&err);

  /* plain text without escapes, compressed */
  const char *simple_spec = "i int, s string, a array<int>, m map<int,string>";
  const char *simple_src = "{\"i\":1,\"s\":\"x y\",\"a\":[1,2],\"m\":{\"1\":\"one\",\"2\":null}}\n"
                           "{\"i\":null,\"s\":\"\",\"a\":[],\"m\":{}}\n";
  const char *simple_want = "1|x y|[1,2]|{1:\"one\",2:null}\nNULL||[]|{}";
  hl_text_format_t lazy = lazy_fmt();
  CHECK_STR(roundtrip("rt.txt.gz", &lazy, simple_spec, simple_src, &json, NULL), simple_want);
  CHECK_STR(roundtrip("rt.txt.zst", &lazy, simple_spec, simple_src, &json, NULL), simple_want);
  CHECK_STR(roundtrip("rt.txt", &lazy, simple_spec, simple_src, &json, &raw), simple_want);
  CHECK_STR(raw, "1\001x y\0011\0022\0011\003one\0022\003\\N\n\\N\001\001\001\n");

  /* CSV: quotes and separators inside values */
  hl_text_format_t csv = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", NULL, 0, NULL, 0);
  const char *csv_src = "{\"i\":7,\"s\":\"a,\\\"b\\\"\\\\c\\nd\"}\n{\"i\":null,\"s\":null}\n";
  CHECK_STR(roundtrip("rt.csv", &csv, "i int, s string", csv_src, &json, &raw),
            "7|a,\"b\"\\c\nd\nNULL|");
  CHECK_STR(raw, "\"7\",\"a,\\\"b\\\"\\\\c\nd\"\n,\n");

  /* the writer refuses an existing file */
  cols_t c2 = cols_of("i int");
  hl_text_writer_t *w = NULL;
  CHECK(hl_text_writer_open(T.fs, tpath("rt.txt"), &lazy, 1, c2.types, c2.names, &w, &err) !=
        HL_OK);
  hl_err_clear(&err);
}

TEST(speed) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < 200000; i++)
    hl_buf_printf(&b, "%d\001name_%d\001%d.25\0012024-01-%02d\001%lld\n", i, i, i % 1000,
                  i % 28 + 1, (long long)i * 1000003);
  const char *p = put_file("speed.txt", b.data, b.len);
  size_t bytes = b.len;
  hl_buf_fini(&b);
  hl_text_format_t f = lazy_fmt();
  cols_t c = cols_of("id int, name string, price double, day date, big bigint");
  hl_error_t err;
  hl_err_init(&err);
  hl_text_reader_t *r = NULL;
  hl_batch_t *batch = hl_batch_create(c.n, c.types);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CHECK_INT(hl_text_reader_open(T.fs, p, &f, c.n, c.types, c.names, NULL, &r, &err), HL_OK);
  uint64_t rows = 0;
  int64_t sum = 0;
  for (;;) {
    hl_batch_reset(batch);
    if (hl_text_reader_next(r, batch, &err) != HL_OK || batch->n_rows == 0) break;
    for (uint32_t i = 0; i < batch->n_rows; i++)
      sum += HL_VEC_I64(&batch->cols[0])[i];
    rows += batch->n_rows;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  hl_text_reader_close(r);
  hl_batch_destroy(batch);
  CHECK_INT(err.code, HL_OK);
  hl_err_clear(&err);
  CHECK_INT(rows, 200000);
  CHECK_INT(sum, (int64_t)199999 * 200000 / 2);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("read 200000 lines x 5 columns (%zu bytes) in %.3f s\n", bytes, secs);
}

/* Reads PATH failing the 1st, 2nd, ... allocation: every run must end
 * with the right rows or a clean HL_NOMEM (ASan reports any leak). */
static void read_failing_allocs(const char *path, const hl_text_format_t *fmt, const char *spec,
                                const char *expect) {
  cols_t c = cols_of(spec);
  bool done = false;
  for (long n = 1; n < 1000 && !done; n++) {
    hl_error_t err;
    hl_err_init(&err);
    hl_buf_t out;
    hl_buf_init(&out);
    hl_text_reader_t *r = NULL;
    hl_batch_t *batch = NULL;
    hl_mem_fail_after(n);
    hl_status_t st = hl_text_reader_open(T.fs, path, fmt, c.n, c.types, c.names, NULL, &r, &err);
    if (st == HL_OK && !(batch = hl_batch_create(c.n, c.types))) st = HL_NOMEM;
    while (st == HL_OK) {
      if (hl_batch_reset(batch) != HL_OK) {
        st = HL_NOMEM;
        break;
      }
      if ((st = hl_text_reader_next(r, batch, &err)) != HL_OK || batch->n_rows == 0) break;
      for (uint32_t row = 0; row < batch->n_rows; row++) {
        for (int col = 0; col < c.n; col++) {
          hl_value_t v;
          hl_vec_get_value(&batch->cols[col], row, &v);
          hl_buf_putc(&out, col ? '|' : (out.len ? '\n' : '\0'));
          hl_value_format(&out, c.types[col], &v);
        }
      }
    }
    hl_mem_fail_after(0);
    if (st == HL_OK && out.oom) st = HL_NOMEM;
    if (st == HL_OK) {
      done = true;
      CHECK_STR(out.data ? out.data + 1 : "", expect);
    } else {
      CHECK_INT(st, HL_NOMEM);
    }
    hl_batch_destroy(batch);
    hl_text_reader_close(r);
    hl_buf_fini(&out);
    hl_err_clear(&err);
  }
  CHECK(done);
}

/* Writes one batch read from SRC to DST (with FMT) failing the 1st, 2nd,
 * ... allocation of the writer: each run ends in HL_OK or HL_NOMEM without
 * leaks, and the successful run's file reads back as EXPECT. */
static void write_failing_allocs(const char *src, const hl_text_format_t *src_fmt,
                                 const char *dst_name, const hl_text_format_t *fmt,
                                 const char *spec, const char *expect) {
  cols_t c = cols_of(spec);
  hl_error_t err;
  hl_err_init(&err);
  hl_text_reader_t *r = NULL;
  hl_batch_t *batch = hl_batch_create(c.n, c.types);
  CHECK_INT(hl_text_reader_open(T.fs, src, src_fmt, c.n, c.types, c.names, NULL, &r, &err), HL_OK);
  CHECK_INT(hl_text_reader_next(r, batch, &err), HL_OK);
  const char *dst = tpath(dst_name);
  bool done = false;
  for (long n = 1; n < 1000 && !done; n++) {
    unlink(dst);
    hl_text_writer_t *w = NULL;
    hl_mem_fail_after(n);
    hl_status_t st = hl_text_writer_open(T.fs, dst, fmt, c.n, c.types, c.names, &w, &err);
    if (st == HL_OK) st = hl_text_writer_write(w, batch, &err);
    hl_status_t cst = hl_text_writer_close(w, &err);
    if (st == HL_OK) st = cst;
    hl_mem_fail_after(0);
    if (st == HL_OK)
      done = true;
    else
      CHECK_INT(st, HL_NOMEM);
    hl_err_clear(&err);
  }
  CHECK(done);
  CHECK_STR(render(dst, fmt, spec), expect);
  hl_text_reader_close(r);
  hl_batch_destroy(batch);
}

TEST(out_of_memory) {
  hl_text_format_t f = lazy_fmt();
  unsigned char gz[1024];
  const char *text = "1\001a\002b\001k\0031\002j\0032\001s\n2\001\001\001\\N\n";
  size_t n = gzip_bytes(text, strlen(text), gz, sizeof gz);
  const char *p = put_file("oom.gz", gz, n);
  read_failing_allocs(p, &f, "i int, a array<string>, m map<string,int>, s string",
                      "1|[\"a\",\"b\"]|{\"k\":1,\"j\":2}|s\n2|[]|{}|NULL");
  hl_text_format_t j = fmt_of("org.apache.hive.hcatalog.data.JsonSerDe", NULL, 0, NULL, 0);
  p = put_text("oom.json", "{\"i\":1,\"a\":[\"x\"],\"s\":{\"f\":2}}\n");
  read_failing_allocs(p, &j, "i int, a array<string>, s struct<f:int>", "1|[\"x\"]|{\"f\":2}");
  hl_text_format_t csv = fmt_of("org.apache.hadoop.hive.serde2.OpenCSVSerde", NULL, 0, NULL, 0);
  p = put_text("oom.csv", "\"a,b\",1\n");
  read_failing_allocs(p, &csv, "s string, i int", "a,b|1");
  p = put_text("oom_src.json", "{\"i\":1,\"a\":[\"x\",null],\"s\":{\"f\":2}}\n{}\n");
  const char *spec = "i int, a array<string>, s struct<f:int>";
  const char *want = "1|[\"x\",null]|{\"f\":2}\nNULL|NULL|NULL";
  write_failing_allocs(p, &j, "oom_out.txt.gz", &f, spec, want);
  write_failing_allocs(p, &j, "oom_out.json.zst", &j, spec, want);
  write_failing_allocs(p, &j, "oom_out.csv", &csv, "i int", "1\nNULL");
}

static void remove_dir(const char *dir) {
  hl_error_t err;
  hl_err_init(&err);
  T.fs->ops->remove_tree(T.fs, dir, &err);
  hl_err_clear(&err);
}

int main(void) {
  if (test_tmpdir(T.dir, sizeof T.dir, "text") != 0) return 1;
  T.fs = hl_stor_local_create();
  T.arena = hl_arena_create(0);
  RUN(format_init);
  RUN(lazy_primitives);
  RUN(lazy_missing_extra_empty);
  RUN(lazy_custom_delims_escape_null);
  RUN(lazy_complex);
  RUN(csv);
  RUN(json);
  RUN(compression);
  RUN(codec_round_trip);
  RUN(lines_and_batches);
  RUN(long_line);
  RUN(roundtrip);
  RUN(out_of_memory);
  RUN(speed);
  remove_dir(T.dir);
  hl_arena_destroy(T.arena);
  T.fs->ops->destroy(T.fs);
  return test_report();
}
