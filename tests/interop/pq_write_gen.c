/*
 * pq_write_gen.c -- test tool: writes Parquet files with the hivelite
 * writer, and beside each FILE.parquet a FILE.expect.jsonl holding what a
 * reader must return, for the DuckDB round trip in pq_writer_duckdb.mjs.
 *
 *   pq_write_gen OUTDIR
 *
 * Files: every scalar Hive type under every null pattern (none, all,
 * alternating) and every codec DuckDB reads; nested arrays/maps/structs
 * with NULL and empty collections; many rows over several pages and row
 * groups, and the nested and many-row tables again in 77 and 301 row groups;
 * a dictionary that falls back to PLAIN; INT96 timestamps; an
 * empty file.
 *
 * expect.jsonl: line 1 {"names":[...],"types":[Hive type text...]}; then one JSON array per row in
 * a canonical form that pq_writer_duckdb.mjs also builds from DuckDB's values: null; booleans as
 * JSON booleans; integers, DATE (days), TIMESTAMP (microseconds) and DECIMAL (unscaled) as decimal
 * strings; FLOAT/DOUBLE as "%.17g" strings ("nan"); strings and binary as "x:<hex>" (CHAR without
 * its trailing blanks, as stored); ARRAY and STRUCT as arrays; MAP as an array of [key, value].
 */
#include "format/parquet/parquet.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- values */

static hl_value_t vnull(void) {
  hl_value_t v;
  memset(&v, 0, sizeof(v));
  v.is_null = true;
  return v;
}
static hl_value_t vint(int64_t i) {
  hl_value_t v = vnull();
  v.is_null = false;
  v.u.i = i;
  return v;
}
static hl_value_t vdbl(double d) {
  hl_value_t v = vint(0);
  v.u.d = d;
  return v;
}
static hl_value_t vdec(__int128 q) {
  hl_value_t v = vint(0);
  v.u.dec = q;
  return v;
}
static hl_value_t vbool(bool b) {
  hl_value_t v = vint(0);
  v.u.b = b;
  return v;
}
static hl_value_t vstr(hl_arena_t *a, const char *s, size_t len) {
  hl_value_t v = vint(0);
  char *p = hl_arena_alloc(a, len ? len : 1);
  memcpy(p, s, len);
  v.u.s.ptr = p;
  v.u.s.len = (uint32_t)len;
  return v;
}
static hl_value_t vcstr(hl_arena_t *a, const char *s) {
  return vstr(a, s, strlen(s));
}
static hl_value_t vlist(hl_arena_t *a, uint32_t n, uint32_t n_items, const hl_value_t *items) {
  hl_value_t v = vint(0);
  v.u.list.n = n;
  v.u.list.items = hl_arena_alloc(a, (n_items ? n_items : 1) * sizeof(hl_value_t));
  if (n_items) memcpy(v.u.list.items, items, n_items * sizeof(hl_value_t));
  return v;
}

typedef struct table {
  int n_cols;
  const hl_type_t **types;
  const char **names;
  size_t n_rows;
  hl_value_t *cells;
} table_t;

static void table_init(table_t *t, hl_arena_t *a, int n_cols, const char *const *names,
                       const char *const *types, size_t n_rows) {
  hl_error_t err;
  hl_err_init(&err);
  t->n_cols = n_cols;
  t->types = hl_arena_alloc(a, (size_t)n_cols * sizeof(*t->types));
  t->names = hl_arena_alloc(a, (size_t)n_cols * sizeof(*t->names));
  for (int i = 0; i < n_cols; i++) {
    hl_type_t *ty = NULL;
    if (hl_type_parse_str(a, types[i], &ty, &err) != HL_OK) {
      fprintf(stderr, "bad type %s\n", types[i]);
      exit(1);
    }
    t->types[i] = ty;
    t->names[i] = names[i];
  }
  t->n_rows = n_rows;
  t->cells = hl_arena_zalloc(a, (n_rows ? n_rows : 1) * (size_t)n_cols * sizeof(hl_value_t));
}

static hl_value_t *cell(table_t *t, size_t row, int col) {
  return &t->cells[row * (size_t)t->n_cols + (size_t)col];
}

/* ---------------------------------------------------------------- expect */

static void canon(hl_buf_t *out, const hl_type_t *t, const hl_value_t *v) {
  if (!v || v->is_null) {
    hl_buf_puts(out, "null");
    return;
  }
  switch (t->id) {
  case HL_T_BOOLEAN:
    hl_buf_puts(out, v->u.b ? "true" : "false");
    return;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
    hl_buf_printf(out, "\"%lld\"", (long long)v->u.i);
    return;
  case HL_T_FLOAT:
  case HL_T_DOUBLE: {
    double d = t->id == HL_T_FLOAT ? (double)(float)v->u.d : v->u.d;
    if (isnan(d))
      hl_buf_puts(out, "\"nan\"");
    else
      hl_buf_printf(out, "\"%.17g\"", d);
    return;
  }
  case HL_T_DECIMAL: {
    char digits[64];
    int n = 0;
    __int128 q = v->u.dec;
    bool neg = q < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-q) : (unsigned __int128)q;
    do {
      digits[n++] = (char)('0' + (int)(u % 10));
      u /= 10;
    } while (u);
    hl_buf_putc(out, '"');
    if (neg) hl_buf_putc(out, '-');
    while (n > 0)
      hl_buf_putc(out, digits[--n]);
    hl_buf_putc(out, '"');
    return;
  }
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY: {
    uint32_t len = v->u.s.len;
    if (t->id == HL_T_CHAR)
      while (len && v->u.s.ptr[len - 1] == ' ')
        len--;
    hl_buf_puts(out, "\"x:");
    for (uint32_t i = 0; i < len; i++)
      hl_buf_printf(out, "%02x", (unsigned char)v->u.s.ptr[i]);
    hl_buf_putc(out, '"');
    return;
  }
  case HL_T_ARRAY:
  case HL_T_STRUCT:
    hl_buf_putc(out, '[');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(out, ',');
      canon(out, t->id == HL_T_ARRAY ? t->children[0] : t->children[i], &v->u.list.items[i]);
    }
    hl_buf_putc(out, ']');
    return;
  case HL_T_MAP:
    hl_buf_putc(out, '[');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      hl_buf_puts(out, i ? ",[" : "[");
      canon(out, t->children[0], &v->u.list.items[2 * i]);
      hl_buf_putc(out, ',');
      canon(out, t->children[1], &v->u.list.items[2 * i + 1]);
      hl_buf_putc(out, ']');
    }
    hl_buf_putc(out, ']');
    return;
  default:
    hl_buf_puts(out, "\"?\"");
    return;
  }
}

static int write_expect(const table_t *t, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_buf_puts(&buf, "{\"names\":[");
  for (int c = 0; c < t->n_cols; c++)
    hl_buf_printf(&buf, "%s\"%s\"", c ? "," : "", t->names[c]);
  hl_buf_puts(&buf, "],\"types\":[");
  hl_arena_t *a = hl_arena_create(0);
  for (int c = 0; c < t->n_cols; c++)
    hl_buf_printf(&buf, "%s\"%s\"", c ? "," : "", hl_type_to_string(a, t->types[c]));
  hl_arena_destroy(a);
  hl_buf_puts(&buf, "]}\n");
  for (size_t r = 0; r < t->n_rows; r++) {
    hl_buf_putc(&buf, '[');
    for (int c = 0; c < t->n_cols; c++) {
      if (c) hl_buf_putc(&buf, ',');
      canon(&buf, t->types[c], &t->cells[r * (size_t)t->n_cols + (size_t)c]);
    }
    hl_buf_puts(&buf, "]\n");
    if (buf.len > (1 << 20)) {
      fwrite(buf.data, 1, buf.len, f);
      hl_buf_reset(&buf);
    }
  }
  int rc = buf.oom ? -1 : 0;
  if (buf.len) fwrite(buf.data, 1, buf.len, f);
  hl_buf_fini(&buf);
  return fclose(f) == 0 ? rc : -1;
}

/* ---------------------------------------------------------------- write */

static hl_stor_t *fs;

static int write_file(const table_t *t, const char *dir, const char *name,
                      const hl_parquet_write_options_t *opts) {
  char path[4096], expect[4096];
  snprintf(path, sizeof(path), "%s/%s.parquet", dir, name);
  snprintf(expect, sizeof(expect), "%s/%s.expect.jsonl", dir, name);
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_writer_t *w = NULL;
  hl_status_t st = hl_parquet_writer_open(fs, path, t->n_cols, t->types, t->names, opts, &w, &err);
  hl_batch_t *b = st == HL_OK ? hl_batch_create(t->n_cols, t->types) : NULL;
  for (size_t row = 0; st == HL_OK && row < t->n_rows;) {
    hl_batch_reset(b);
    size_t n = t->n_rows - row < 1000 ? t->n_rows - row : 1000;
    for (size_t i = 0; i < n; i++)
      for (int c = 0; c < t->n_cols; c++)
        hl_vec_put_value(&b->cols[c], b->arena, (uint32_t)i,
                         &t->cells[(row + i) * (size_t)t->n_cols + (size_t)c]);
    b->n_rows = (uint32_t)n;
    st = hl_parquet_writer_write(w, b, &err);
    row += n;
  }
  hl_batch_destroy(b);
  if (st == HL_OK) {
    st = hl_parquet_writer_close(w, NULL, NULL, &err);
  } else {
    hl_parquet_writer_abort(w);
  }
  if (st != HL_OK) {
    fprintf(stderr, "ERROR %s: %s\n", err.sqlstate, err.message);
    hl_err_clear(&err);
    return -1;
  }
  if (write_expect(t, expect)) {
    fprintf(stderr, "cannot write %s\n", expect);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- tables */

#define N_FLAT 16
static const char *const flat_names[N_FLAT] = {"b",   "ti",  "si", "i",  "bi", "f",   "d",  "d5",
                                               "d15", "d30", "s",  "vc", "ch", "bin", "dt", "ts"};
static const char *const flat_types[N_FLAT] = {
    "boolean", "tinyint",      "smallint",      "int",           "bigint", "float",
    "double",  "decimal(5,2)", "decimal(15,3)", "decimal(30,5)", "string", "varchar(10)",
    "char(5)", "binary",       "date",          "timestamp"};

static hl_value_t flat_value(hl_arena_t *a, int col, size_t r) {
  int64_t k = (int64_t)r - 50;
  char tmp[64];
  switch (col) {
  case 0:
    return vbool(r % 3 == 0);
  case 1:
    return vint(k);
  case 2:
    return vint(k * 300);
  case 3:
    return vint(k * 1000003);
  case 4:
    return vint(k * 1000000000000LL);
  case 5:
    return vdbl((double)k * 0.3);
  case 6:
    return vdbl(r == 7 ? NAN : (double)k * 1.1);
  case 7:
    return vdec(k * 123);
  case 8:
    return vdec((__int128)k * 1000000000000LL + 7);
  case 9: {
    __int128 big = 1;
    for (int i = 0; i < 25; i++)
      big *= 10;
    return vdec(big * k + 1);
  }
  case 10:
    snprintf(tmp, sizeof(tmp), "str%d \xc3\xa9", (int)(r % 7));
    return vcstr(a, tmp);
  case 11:
    snprintf(tmp, sizeof(tmp), "v%zu", r);
    return vcstr(a, tmp);
  case 12:
    snprintf(tmp, sizeof(tmp), "c%-4zu", r % 100);
    return vstr(a, tmp, 5);
  case 13: {
    uint8_t bytes[4] = {(uint8_t)r, 0, 255, (uint8_t)(r * 7)};
    return vstr(a, (const char *)bytes, r % 5 == 0 ? 0 : 4);
  }
  case 14:
    return vint(k * 100);
  default:
    return vint(k * 86400000123LL);
  }
}

static void build_flat(table_t *t, hl_arena_t *a, int pattern, size_t n_rows) {
  table_init(t, a, N_FLAT, flat_names, flat_types, n_rows);
  for (size_t r = 0; r < n_rows; r++)
    for (int c = 0; c < N_FLAT; c++) {
      int kind = (pattern + c) % 3;
      bool null = kind == 1 || (kind == 2 && r % 2 == 1);
      *cell(t, r, c) = null ? vnull() : flat_value(a, c, r);
    }
}

static void build_nested(table_t *t, hl_arena_t *a, size_t n) {
  const char *names[4] = {"arr", "m", "st", "aa"};
  const char *types[4] = {"array<struct<x:int,y:string>>", "map<string,array<int>>",
                          "struct<p:bigint,q:array<string>,r:struct<z:boolean>>",
                          "array<array<decimal(20,2)>>"};
  table_init(t, a, 4, names, types, n);
  char tmp[64];
  for (size_t r = 0; r < n; r++) {
    int k = (int)(r % 6);
    if (k == 0) {
      *cell(t, r, 0) = vnull();
    } else {
      uint32_t len = (uint32_t)(k - 1);
      hl_value_t items[4];
      for (uint32_t i = 0; i < len; i++) {
        if (i == 2) {
          items[i] = vnull();
          continue;
        }
        snprintf(tmp, sizeof(tmp), "y%zu.%u", r, i);
        hl_value_t f[2] = {i == 1 ? vnull() : vint((int64_t)r * 10 + i), vcstr(a, tmp)};
        items[i] = vlist(a, 2, 2, f);
      }
      *cell(t, r, 0) = vlist(a, len, len, items);
    }
    if (k == 1) {
      *cell(t, r, 1) = vnull();
    } else {
      uint32_t len = (uint32_t)(r % 4);
      hl_value_t kvs[6];
      for (uint32_t i = 0; i < len; i++) {
        snprintf(tmp, sizeof(tmp), "k%u", i);
        kvs[2 * i] = vcstr(a, tmp);
        if (i == 1 && r % 8 == 1) {
          kvs[2 * i + 1] = vnull();
        } else {
          hl_value_t ints[3] = {vint((int64_t)r), vnull(), vint(-(int64_t)i)};
          uint32_t m = (uint32_t)((r + i) % 4);
          kvs[2 * i + 1] = vlist(a, m, m, ints);
        }
      }
      *cell(t, r, 1) = vlist(a, len, 2 * len, kvs);
    }
    if (k == 2) {
      *cell(t, r, 2) = vnull();
    } else {
      hl_value_t qs[2] = {vcstr(a, "q"), vnull()};
      hl_value_t z[1] = {r % 5 == 0 ? vnull() : vbool(r % 2)};
      hl_value_t f[3] = {k == 3 ? vnull() : vint((int64_t)r * 1000000007LL),
                         k == 4 ? vnull() : vlist(a, (uint32_t)(r % 3), (uint32_t)(r % 3), qs),
                         k == 5 ? vnull() : vlist(a, 1, 1, z)};
      *cell(t, r, 2) = vlist(a, 3, 3, f);
    }
    hl_value_t inner[3];
    uint32_t outer = (uint32_t)(r % 4);
    for (uint32_t i = 0; i < outer; i++) {
      hl_value_t ds[2] = {vdec((__int128)r * 100 + i), vdec(-(__int128)r)};
      inner[i] = i == 1 ? vnull() : vlist(a, i, i, ds);
    }
    *cell(t, r, 3) = r % 7 == 3 ? vnull() : vlist(a, outer, outer, inner);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pq_write_gen OUTDIR\n");
    return 2;
  }
  const char *dir = argv[1];
  fs = hl_stor_local_create();
  int rc = 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_write_options_t o;
  char name[128];

  static const struct {
    const char *name;
    hl_parquet_codec_t codec;
  } codecs[] = {{"snappy", HL_PQ_SNAPPY}, {"none", HL_PQ_UNCOMPRESSED}, {"gzip", HL_PQ_GZIP},
                {"zstd", HL_PQ_ZSTD},     {"lz4_raw", HL_PQ_LZ4_RAW},   {"brotli", HL_PQ_BROTLI}};
  for (size_t ci = 0; ci < sizeof(codecs) / sizeof(codecs[0]); ci++)
    for (int pattern = 0; pattern < 3; pattern++) {
      hl_arena_t *a = hl_arena_create(0);
      table_t t;
      build_flat(&t, a, pattern, 100);
      hl_parquet_write_options_init(&o, NULL, 0, &err);
      o.codec = codecs[ci].codec;
      snprintf(name, sizeof(name), "flat_%s_%d", codecs[ci].name, pattern);
      rc |= write_file(&t, dir, name, &o);
      hl_arena_destroy(a);
    }

  { /* nested, several pages and row groups */
    hl_arena_t *a = hl_arena_create(0);
    table_t t;
    build_nested(&t, a, 4000);
    hl_parquet_write_options_init(&o, NULL, 0, &err);
    o.page_bytes = 1024;
    o.row_group_bytes = 40 * 1024;
    rc |= write_file(&t, dir, "nested", &o);
    /* 77 row groups: the footer assembled from the pieces kept
     * per flushed row group (issue 18) */
    o.page_bytes = 256;
    o.row_group_bytes = 2048;
    rc |= write_file(&t, dir, "nested_many_row_groups", &o);
    hl_arena_destroy(a);
  }
  { /* many rows, small pages and row groups, dictionary fallback */
    hl_arena_t *a = hl_arena_create(0);
    const char *names[5] = {"id", "name", "maybe", "u", "k"};
    const char *types[5] = {"bigint", "string", "int", "string", "string"};
    table_t t;
    size_t n = 30000;
    table_init(&t, a, 5, names, types, n);
    char tmp[64];
    for (size_t r = 0; r < n; r++) {
      *cell(&t, r, 0) = vint((int64_t)r);
      snprintf(tmp, sizeof(tmp), "name-%zu", r % 1000);
      *cell(&t, r, 1) = vcstr(a, tmp);
      *cell(&t, r, 2) = (r >= 5000 && r < 10000) || r % 3 == 0 ? vnull() : vint(-(int64_t)r);
      snprintf(tmp, sizeof(tmp), "unique-%08zu", r < 3000 ? r % 10 : r);
      *cell(&t, r, 3) = r % 11 == 5 ? vnull() : vcstr(a, tmp);
      *cell(&t, r, 4) = vcstr(a, "same"); /* a one-entry dictionary: bit width 0 */
    }
    hl_parquet_write_options_init(&o, NULL, 0, &err);
    o.page_bytes = 2048;
    o.row_group_bytes = 128 * 1024;
    o.dictionary_bytes = 3000;
    o.codec = HL_PQ_ZSTD;
    rc |= write_file(&t, dir, "pages", &o);
    o.page_bytes = 512;
    o.row_group_bytes = 4096;
    rc |= write_file(&t, dir, "pages_many_row_groups", &o);
    hl_arena_destroy(a);
  }
  { /* INT96 timestamps */
    hl_arena_t *a = hl_arena_create(0);
    const char *names[2] = {"ts", "tsa"};
    const char *types[2] = {"timestamp", "array<timestamp>"};
    table_t t;
    table_init(&t, a, 2, names, types, 5);
    int64_t vals[5] = {0, -1, 1700000000123456LL, -62135596800000000LL, 253402300799999999LL};
    for (size_t r = 0; r < 5; r++) {
      *cell(&t, r, 0) = r == 3 ? vnull() : vint(vals[r]);
      hl_value_t items[2] = {vint(vals[r]), vnull()};
      *cell(&t, r, 1) = vlist(a, 2, 2, items);
    }
    hl_kv_t p[1] = {{(char *)"parquet.timestamp.int96", (char *)"true"}};
    hl_parquet_write_options_init(&o, p, 1, &err);
    rc |= write_file(&t, dir, "int96", &o);
    hl_arena_destroy(a);
  }
  { /* no rows */
    hl_arena_t *a = hl_arena_create(0);
    const char *names[2] = {"a", "b"};
    const char *types[2] = {"int", "map<string,string>"};
    table_t t;
    table_init(&t, a, 2, names, types, 0);
    rc |= write_file(&t, dir, "empty", NULL);
    hl_arena_destroy(a);
  }
  fs->ops->destroy(fs);
  return rc ? 1 : 0;
}
