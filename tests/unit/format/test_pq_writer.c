/*
 * test_pq_writer.c -- the Parquet writer (pq_writer.c).
 *
 * Files are written to a temporary directory, then checked two ways:
 * the footer, ColumnIndex and OffsetIndex are decoded with pq_meta.c and
 * their schema, statistics, encodings and page layout compared with what
 * the data must give; and every value is read back through
 * hl_parquet_reader_* and compared, as Hive text (hl_value_format), with
 * what was written.  tests/interop/pq_writer_duckdb.sh does the same
 * against DuckDB.
 */
#include "vector/vector.h"
#include "format/parquet/parquet.h"
#include "format/parquet/pq_meta.h"
#include "test.h"
#include "util/mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[4096];
static hl_stor_t *fs;
static int file_no;

static void tmp_setup(void) {
  if (test_tmpdir(tmpdir, sizeof tmpdir, "pqw") != 0) exit(1);
  fs = hl_stor_local_create();
}

static void tmp_teardown(void) {
  hl_error_t err;
  hl_err_init(&err);
  fs->ops->remove_tree(fs, tmpdir, &err);
  hl_err_clear(&err);
  fs->ops->destroy(fs);
}

static const char *new_path(hl_arena_t *a) {
  return hl_arena_sprintf(a, "%s/f%03d.parquet", tmpdir, ++file_no);
}

/* ------------------------------------------------------------------ values */

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
/* A list/struct/map of N items (MAP: 2*N) copied into A. */
static hl_value_t vlist(hl_arena_t *a, uint32_t n, uint32_t n_items, const hl_value_t *items) {
  hl_value_t v = vint(0);
  v.u.list.n = n;
  v.u.list.items = hl_arena_alloc(a, (n_items ? n_items : 1) * sizeof(hl_value_t));
  if (n_items) memcpy(v.u.list.items, items, n_items * sizeof(hl_value_t));
  return v;
}

static const hl_type_t *ptype(const char *text, hl_arena_t *a) {
  hl_type_t *t = NULL;
  hl_error_t err;
  hl_err_init(&err);
  if (hl_type_parse_str(a, text, &t, &err) != HL_OK) {
    fprintf(stderr, "bad type %s: %s\n", text, err.message);
    exit(1);
  }
  return t;
}

/* A table: N_COLS columns, rows of values (row-major) built by the test. */
typedef struct table {
  int n_cols;
  const hl_type_t **types;
  const char **names;
  size_t n_rows;
  hl_value_t *cells; /* n_rows * n_cols */
} table_t;

static void table_init(table_t *t, hl_arena_t *a, int n_cols, const char *const *names,
                       const char *const *types, size_t n_rows) {
  t->n_cols = n_cols;
  t->types = hl_arena_alloc(a, n_cols * sizeof(*t->types));
  t->names = hl_arena_alloc(a, n_cols * sizeof(*t->names));
  for (int i = 0; i < n_cols; i++) {
    t->types[i] = ptype(types[i], a);
    t->names[i] = names[i];
  }
  t->n_rows = n_rows;
  t->cells = hl_arena_zalloc(a, (n_rows ? n_rows : 1) * n_cols * sizeof(hl_value_t));
}

static hl_value_t *cell(table_t *t, size_t row, int col) {
  return &t->cells[row * t->n_cols + col];
}

/* Hive text of every row ("a|b|c"), the comparison form. */
static char *row_text(const table_t *t, size_t row) {
  hl_buf_t buf;
  hl_buf_init(&buf);
  for (int c = 0; c < t->n_cols; c++) {
    if (c) hl_buf_putc(&buf, '|');
    hl_value_format(&buf, t->types[c], &t->cells[row * t->n_cols + c]);
  }
  hl_buf_cstr(&buf);
  return hl_buf_detach(&buf);
}

/* Writes T to PATH in batches of BATCH_ROWS (every other batch with a
 * selection vector over a bigger batch, to exercise live rows). */
static hl_status_t write_table(const table_t *t, const char *path,
                               const hl_parquet_write_options_t *opts, size_t batch_rows,
                               hl_error_t *err) {
  hl_parquet_writer_t *w = NULL;
  hl_status_t st = hl_parquet_writer_open(fs, path, t->n_cols, t->types, t->names, opts, &w, err);
  if (st != HL_OK) return st;
  hl_batch_t *b = hl_batch_create(t->n_cols, t->types);
  size_t row = 0, batch_no = 0;
  while (st == HL_OK && row < t->n_rows) {
    hl_batch_reset(b);
    size_t n = t->n_rows - row < batch_rows ? t->n_rows - row : batch_rows;
    bool with_sel = (batch_no++ & 1) && n * 2 <= HL_BATCH_CAP;
    uint32_t phys = 0;
    if (with_sel) b->sel = hl_arena_alloc(b->arena, HL_BATCH_CAP * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
      if (with_sel) {
        /* a dead row (garbage) before every live one */
        for (int c = 0; c < t->n_cols; c++) {
          hl_value_t junk = vnull();
          hl_vec_put_value(&b->cols[c], b->arena, phys, &junk);
        }
        phys++;
        b->sel[b->n_sel++] = phys;
      }
      for (int c = 0; c < t->n_cols; c++)
        hl_vec_put_value(&b->cols[c], b->arena, phys, &t->cells[(row + i) * t->n_cols + c]);
      phys++;
    }
    b->n_rows = phys;
    st = hl_parquet_writer_write(w, b, err);
    row += n;
  }
  hl_batch_destroy(b);
  if (st != HL_OK) {
    hl_parquet_writer_abort(w);
    return st;
  }
  uint64_t rows = 0, bytes = 0;
  st = hl_parquet_writer_close(w, &rows, &bytes, err);
  if (st == HL_OK) {
    CHECK_INT(rows, t->n_rows);
    hl_stor_stat_t sst;
    fs->ops->stat(fs, path, &sst, err);
    CHECK_INT(sst.size, bytes);
  }
  return st;
}

/* Reads PATH back through the reader and compares every row with T (CHAR
 * columns compared without trailing blanks). */
static void check_read_back(const table_t *t, const char *path) {
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_reader_t *r = NULL;
  bool *proj = calloc((size_t)t->n_cols, sizeof(bool));
  for (int i = 0; i < t->n_cols; i++)
    proj[i] = true;
  hl_status_t st = hl_parquet_reader_open(fs, path, t->n_cols, t->types, t->names, proj, NULL, 0,
                                          NULL, &r, &err);
  CHECK_INT(st, HL_OK);
  if (st != HL_OK) {
    fprintf(stderr, "open %s: %s\n", path, err.message);
    hl_err_clear(&err);
    free(proj);
    return;
  }
  hl_batch_t *b = hl_batch_create(t->n_cols, t->types);
  size_t row = 0;
  int mismatches = 0;
  for (;;) {
    hl_batch_reset(b);
    st = hl_parquet_reader_next(r, b, &err);
    CHECK_INT(st, HL_OK);
    if (st != HL_OK) {
      fprintf(stderr, "next %s: %s\n", path, err.message);
      break;
    }
    uint32_t live = hl_batch_live(b);
    if (live == 0) break;
    for (uint32_t i = 0; i < live; i++, row++) {
      uint32_t phys = hl_batch_row(b, i);
      hl_buf_t got;
      hl_buf_init(&got);
      for (int c = 0; c < t->n_cols; c++) {
        hl_value_t v;
        hl_vec_get_value(&b->cols[c], phys, &v);
        if (c) hl_buf_putc(&got, '|');
        if (t->types[c]->id == HL_T_CHAR && !v.is_null)
          while (v.u.s.len && v.u.s.ptr[v.u.s.len - 1] == ' ')
            v.u.s.len--;
        hl_value_format(&got, t->types[c], &v);
      }
      if (row < t->n_rows) {
        table_t tt = *t;
        char *want = NULL;
        /* expected text with CHAR values trimmed the same way */
        hl_value_t *saved = malloc(sizeof(hl_value_t) * t->n_cols);
        memcpy(saved, cell(&tt, row, 0), sizeof(hl_value_t) * t->n_cols);
        for (int c = 0; c < t->n_cols; c++) {
          hl_value_t *v = cell(&tt, row, c);
          if (t->types[c]->id == HL_T_CHAR && !v->is_null)
            while (v->u.s.len && v->u.s.ptr[v->u.s.len - 1] == ' ')
              v->u.s.len--;
        }
        want = row_text(&tt, row);
        memcpy(cell(&tt, row, 0), saved, sizeof(hl_value_t) * t->n_cols);
        free(saved);
        if (strcmp(want, hl_buf_cstr(&got)) != 0) {
          if (mismatches++ < 5)
            fprintf(stderr, "%s row %zu:\n  want %s\n  got  %s\n", path, row, want,
                    hl_buf_cstr(&got));
          test_failures++;
        }
        test_checks++;
        hl_free(want);
      }
      hl_buf_fini(&got);
    }
  }
  CHECK_INT(row, t->n_rows);
  hl_batch_destroy(b);
  hl_parquet_reader_close(r);
  hl_err_clear(&err);
  free(proj);
}

/* ------------------------------------------------------------------ footer */

typedef struct footer {
  hl_arena_t *arena;
  hl_pq_file_meta_t *meta;
  uint64_t size;
  hl_stor_file_t *f;
} footer_t;

static bool footer_open(footer_t *ft, const char *path) {
  hl_error_t err;
  hl_err_init(&err);
  memset(ft, 0, sizeof(*ft));
  ft->arena = hl_arena_create(0);
  hl_status_t st = fs->ops->open_read(fs, path, &ft->f, &err);
  if (st == HL_OK) st = hl_pq_footer_read(ft->f, ft->arena, &ft->meta, &ft->size, &err);
  CHECK_INT(st, HL_OK);
  if (st != HL_OK) fprintf(stderr, "footer %s: %s\n", path, err.message);
  hl_err_clear(&err);
  return st == HL_OK;
}

static void footer_close(footer_t *ft) {
  hl_error_t err;
  hl_err_init(&err);
  if (ft->f) fs->ops->close(ft->f, &err);
  hl_arena_destroy(ft->arena);
  hl_err_clear(&err);
}

static void *read_range(footer_t *ft, int64_t off, int32_t len) {
  uint8_t *buf = hl_arena_alloc(ft->arena, len ? (size_t)len : 1);
  size_t got = 0;
  hl_error_t err;
  hl_err_init(&err);
  fs->ops->read_at(ft->f, (uint64_t)off, buf, (size_t)len, &got, &err);
  hl_err_clear(&err);
  CHECK_INT(got, len);
  return buf;
}

static hl_pq_column_index_t *col_index(footer_t *ft, const hl_pq_column_chunk_t *cc) {
  if (!cc->has_column_index_offset) return NULL;
  hl_pq_column_index_t *ci = NULL;
  hl_error_t err;
  hl_err_init(&err);
  void *buf = read_range(ft, cc->column_index_offset, cc->column_index_length);
  CHECK_INT(hl_pq_column_index_decode(ft->arena, buf, (size_t)cc->column_index_length, &ci, &err),
            HL_OK);
  hl_err_clear(&err);
  return ci;
}

static hl_pq_offset_index_t *off_index(footer_t *ft, const hl_pq_column_chunk_t *cc) {
  CHECK(cc->has_offset_index_offset);
  if (!cc->has_offset_index_offset) return NULL;
  hl_pq_offset_index_t *oi = NULL;
  hl_error_t err;
  hl_err_init(&err);
  void *buf = read_range(ft, cc->offset_index_offset, cc->offset_index_length);
  CHECK_INT(hl_pq_offset_index_decode(ft->arena, buf, (size_t)cc->offset_index_length, &oi, &err),
            HL_OK);
  hl_err_clear(&err);
  return oi;
}

static bool has_encoding(const hl_pq_column_meta_t *m, hl_pq_encoding_t e) {
  for (int i = 0; i < m->n_encodings; i++)
    if (m->encodings[i] == e) return true;
  return false;
}

static bool bytes_eq(hl_pq_meta_bytes_t b, const void *p, size_t n) {
  return b.len == n && (n == 0 || memcmp(b.ptr, p, n) == 0);
}

static int64_t le_int(hl_pq_meta_bytes_t b) {
  if (b.len == 4) {
    int32_t v;
    memcpy(&v, b.ptr, 4);
    return v;
  }
  int64_t v = 0;
  if (b.len == 8) memcpy(&v, b.ptr, 8);
  return v;
}

/* Sanity of the page layout of every chunk: offset index pages are
 * contiguous from data_page_offset, first rows increase from 0, and page
 * sizes add up to the chunk size (minus the dictionary page). */
static void check_layout(footer_t *ft) {
  for (int r = 0; r < ft->meta->n_row_groups; r++) {
    const hl_pq_row_group_t *rg = &ft->meta->row_groups[r];
    for (int c = 0; c < rg->n_columns; c++) {
      const hl_pq_column_chunk_t *cc = &rg->columns[c];
      const hl_pq_column_meta_t *m = cc->meta_data;
      hl_pq_offset_index_t *oi = off_index(ft, cc);
      if (!oi) continue;
      CHECK(oi->n_pages >= 1);
      int64_t pos = m->data_page_offset, sum = 0;
      for (int p = 0; p < oi->n_pages; p++) {
        CHECK_INT(oi->page_locations[p].offset, pos);
        pos += oi->page_locations[p].compressed_page_size;
        sum += oi->page_locations[p].compressed_page_size;
        if (p == 0)
          CHECK_INT(oi->page_locations[p].first_row_index, 0);
        else
          CHECK(oi->page_locations[p].first_row_index > oi->page_locations[p - 1].first_row_index);
        CHECK(oi->page_locations[p].first_row_index < rg->num_rows);
      }
      int64_t start =
          m->has_dictionary_page_offset ? m->dictionary_page_offset : m->data_page_offset;
      CHECK_INT(pos, start + m->total_compressed_size);
      CHECK(sum <= m->total_compressed_size);
      hl_pq_column_index_t *ci = col_index(ft, cc);
      if (ci) CHECK_INT(ci->n_pages, oi->n_pages);
    }
  }
}

/* ------------------------------------------------------------------ tests */

static hl_kv_t kv(const char *k, const char *v) {
  hl_kv_t p = {(char *)k, (char *)v};
  return p;
}

TEST(options) {
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_parquet_write_options_init(&o, NULL, 0, &err), HL_OK);
  CHECK_INT(o.codec, HL_PQ_SNAPPY);
  CHECK_INT(o.row_group_bytes, 128u << 20);
  CHECK_INT(o.page_bytes, 1u << 20);
  CHECK_INT(o.dictionary_bytes, 1u << 20);
  CHECK(!o.int96_timestamps);
  CHECK_INT(o.compression_level, 0);

  static const struct {
    const char *name;
    hl_parquet_codec_t codec;
  } codecs[] = {{"snappy", HL_PQ_SNAPPY},
                {"ZSTD", HL_PQ_ZSTD},
                {"Gzip", HL_PQ_GZIP},
                {"lz4_raw", HL_PQ_LZ4_RAW},
                {"LZ4", HL_PQ_LZ4},
                {"none", HL_PQ_UNCOMPRESSED},
                {"UNCOMPRESSED", HL_PQ_UNCOMPRESSED},
                {"brotli", HL_PQ_BROTLI}};
  for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
    hl_kv_t p[1] = {kv("parquet.compression", codecs[i].name)};
    CHECK_INT(hl_parquet_write_options_init(&o, p, 1, &err), HL_OK);
    CHECK_INT(o.codec, codecs[i].codec);
  }
  hl_kv_t bad[1] = {kv("parquet.compression", "x")};
  CHECK_INT(hl_parquet_write_options_init(&o, bad, 1, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  CHECK_STR(err.message, "unknown parquet.compression \"x\"");
  hl_err_clear(&err);
  hl_kv_t lzo[1] = {kv("parquet.compression", "lzo")};
  CHECK_INT(hl_parquet_write_options_init(&o, lzo, 1, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  hl_err_clear(&err);

  hl_kv_t sizes[5] = {kv("parquet.block.size", "1048576"), kv("parquet.page.size", "8192"),
                      kv("parquet.dictionary.page.size", "4096"),
                      kv("parquet.timestamp.int96", "TRUE"), kv("other", "ignored")};
  CHECK_INT(hl_parquet_write_options_init(&o, sizes, 5, &err), HL_OK);
  CHECK_INT(o.row_group_bytes, 1048576);
  CHECK_INT(o.page_bytes, 8192);
  CHECK_INT(o.dictionary_bytes, 4096);
  CHECK(o.int96_timestamps);
  CHECK_INT(o.codec, HL_PQ_SNAPPY);

  hl_kv_t nodict[1] = {kv("parquet.enable.dictionary", "false")};
  CHECK_INT(hl_parquet_write_options_init(&o, nodict, 1, &err), HL_OK);
  CHECK_INT(o.dictionary_bytes, 0);

  const char *bad_sizes[] = {"0", "-5", "12k", "", "99999999999999999999999"};
  for (size_t i = 0; i < 5; i++) {
    hl_kv_t p[1] = {kv("parquet.page.size", bad_sizes[i])};
    CHECK_INT(hl_parquet_write_options_init(&o, p, 1, &err), HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
  hl_kv_t bb[1] = {kv("parquet.block.size", "abc")};
  CHECK_INT(hl_parquet_write_options_init(&o, bb, 1, &err), HL_ERROR);
  CHECK_STR(err.message,
            "invalid value for \"parquet.block.size\": \"abc\" is not a positive integer");
  hl_err_clear(&err);
  hl_kv_t bi[1] = {kv("parquet.timestamp.int96", "yes")};
  CHECK_INT(hl_parquet_write_options_init(&o, bi, 1, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
}

/* Every scalar type; PATTERN 0: no NULLs, 1: all NULL, 2: alternating,
 * shifted per column so every column sees every pattern across files. */
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
    return vdbl((double)k * 0.5);
  case 6:
    return vdbl((double)k * 1.25);
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
    snprintf(tmp, sizeof(tmp), "str%d", (int)(r % 7));
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

static bool flat_is_null(int pattern, int col, size_t r) {
  switch ((pattern + col) % 3) {
  case 0:
    return false;
  case 1:
    return true;
  default:
    return r % 2 == 1;
  }
}

static void build_flat(table_t *t, hl_arena_t *a, int pattern, size_t n_rows) {
  table_init(t, a, N_FLAT, flat_names, flat_types, n_rows);
  for (size_t r = 0; r < n_rows; r++)
    for (int c = 0; c < N_FLAT; c++)
      *cell(t, r, c) = flat_is_null(pattern, c, r) ? vnull() : flat_value(a, c, r);
}

TEST(flat_types_codecs_nulls) {
  static const hl_parquet_codec_t codecs[] = {HL_PQ_SNAPPY, HL_PQ_UNCOMPRESSED, HL_PQ_GZIP,
                                              HL_PQ_ZSTD,   HL_PQ_LZ4_RAW,      HL_PQ_LZ4,
                                              HL_PQ_BROTLI};
  for (size_t ci = 0; ci < sizeof(codecs) / sizeof(codecs[0]); ci++) {
    for (int pattern = 0; pattern < 3; pattern++) {
      hl_arena_t *a = hl_arena_create(0);
      table_t t;
      build_flat(&t, a, pattern, 100);
      hl_parquet_write_options_t o;
      hl_error_t err;
      hl_err_init(&err);
      hl_parquet_write_options_init(&o, NULL, 0, &err);
      o.codec = codecs[ci];
      const char *path = new_path(a);
      hl_status_t st = write_table(&t, path, &o, 37, &err);
      CHECK_INT(st, HL_OK);
      if (st != HL_OK) fprintf(stderr, "write: %s\n", err.message);
      hl_err_clear(&err);

      footer_t ft;
      if (footer_open(&ft, path)) {
        hl_pq_file_meta_t *m = ft.meta;
        CHECK_INT(m->num_rows, 100);
        CHECK_STR(m->created_by, "hivelite version " HIVELITE_VERSION " (build hivelite)");
        CHECK_INT(m->n_row_groups, 1);
        CHECK_INT(m->n_schema, N_FLAT + 1);
        CHECK_INT(m->n_column_orders, N_FLAT);
        CHECK_INT(m->column_orders[0], HL_PQ_ORDER_TYPE_DEFINED);
        static const hl_pq_type_t want_types[N_FLAT] = {
            HL_PQ_BOOLEAN,    HL_PQ_INT32,
            HL_PQ_INT32,      HL_PQ_INT32,
            HL_PQ_INT64,      HL_PQ_FLOAT,
            HL_PQ_DOUBLE,     HL_PQ_INT32,
            HL_PQ_INT64,      HL_PQ_FIXED_LEN_BYTE_ARRAY,
            HL_PQ_BYTE_ARRAY, HL_PQ_BYTE_ARRAY,
            HL_PQ_BYTE_ARRAY, HL_PQ_BYTE_ARRAY,
            HL_PQ_INT32,      HL_PQ_INT64};
        for (int c = 0; c < N_FLAT && m->n_row_groups == 1; c++) {
          const hl_pq_schema_elem_t *e = &m->schema[c + 1];
          CHECK_STR(e->name, flat_names[c]);
          CHECK_INT(e->type, want_types[c]);
          CHECK_INT(e->repetition, HL_PQ_OPTIONAL);
          const hl_pq_column_meta_t *cm = m->row_groups[0].columns[c].meta_data;
          CHECK_INT(cm->codec, codecs[ci]);
          CHECK_INT(cm->num_values, 100);
          CHECK(has_encoding(cm, HL_PQ_ENC_RLE));
          int kind = (pattern + c) % 3;
          int64_t nulls = kind == 0 ? 0 : kind == 1 ? 100 : 50;
          CHECK(cm->statistics != NULL);
          if (!cm->statistics) continue;
          CHECK_INT(cm->statistics->null_count, nulls);
          CHECK(cm->statistics->has_min_value == (kind != 1));
          if (kind == 1) continue;
          /* rows 0..99 (kind 0) or the even rows 0..98 (kind 2) */
          size_t last = kind == 0 ? 99 : 98;
          const hl_pq_stats_t *s = cm->statistics;
          switch (c) {
          case 1:
            CHECK_INT(le_int(s->min_value), -50);
            CHECK_INT(le_int(s->max_value), (int64_t)last - 50);
            CHECK_INT(le_int(s->min), -50); /* legacy field for old readers */
            break;
          case 4:
            CHECK_INT(le_int(s->min_value), -50 * 1000000000000LL);
            CHECK_INT(le_int(s->max_value), ((int64_t)last - 50) * 1000000000000LL);
            break;
          case 5: {
            float mn = -25.0f, mx = ((float)last - 50) * 0.5f;
            CHECK(bytes_eq(s->min_value, &mn, 4));
            CHECK(bytes_eq(s->max_value, &mx, 4));
            break;
          }
          case 7:
            CHECK_INT(le_int(s->min_value), -50 * 123);
            CHECK_INT(le_int(s->max_value), ((int64_t)last - 50) * 123);
            break;
          case 9: {
            /* 13-byte big-endian two's complement of -5*10^26 + 1 */
            CHECK_INT(s->min_value.len, 13);
            CHECK_INT(e->type_length, 13);
            CHECK(s->min_value.len == 13 && s->min_value.ptr[0] == 0xff); /* negative */
            CHECK(s->max_value.len == 13 && s->max_value.ptr[0] == 0x00);
            CHECK(!s->has_min); /* no legacy signed bounds for FLBA */
            break;
          }
          case 10:
            CHECK(bytes_eq(s->min_value, "str0", 4));
            CHECK(bytes_eq(s->max_value, "str6", 4));
            CHECK(!s->has_min);
            CHECK(has_encoding(cm, HL_PQ_ENC_RLE_DICTIONARY));
            CHECK(cm->has_dictionary_page_offset);
            break;
          case 12: /* CHAR stored without padding: "c0" < ... < "c99" */
            CHECK(bytes_eq(s->min_value, "c0", 2));
            CHECK(bytes_eq(s->max_value, kind == 0 ? "c99" : "c98", 3));
            break;
          case 13: /* binary: the empty value (rows % 5 == 0) is the minimum */
            CHECK_INT(s->min_value.len, 0);
            CHECK(s->has_min_value);
            break;
          case 14:
            CHECK_INT(le_int(s->min_value), -5000);
            break;
          }
        }
        /* schema annotations */
        CHECK_INT(m->schema[2].logical.kind, HL_PQ_LT_INTEGER);
        CHECK_INT(m->schema[2].logical.bit_width, 8);
        CHECK_INT(m->schema[8].logical.kind, HL_PQ_LT_DECIMAL);
        CHECK_INT(m->schema[8].logical.precision, 5);
        CHECK_INT(m->schema[8].logical.scale, 2);
        CHECK_INT(m->schema[11].logical.kind, HL_PQ_LT_STRING);
        CHECK_INT(m->schema[14].logical.kind, HL_PQ_LT_NONE);
        CHECK_INT(m->schema[15].logical.kind, HL_PQ_LT_DATE);
        CHECK_INT(m->schema[16].logical.kind, HL_PQ_LT_TIMESTAMP);
        CHECK_INT(m->schema[16].logical.unit, HL_PQ_UNIT_MICROS);
        CHECK(!m->schema[16].logical.is_adjusted_to_utc);
        check_layout(&ft);
        footer_close(&ft);
      }
      check_read_back(&t, path);
      hl_arena_destroy(a);
    }
  }
}

/* Many rows with small sizes: several pages and row groups, page index. */
TEST(pages_and_row_groups) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[4] = {"id", "name", "maybe", "k"};
  const char *types[4] = {"bigint", "string", "int", "string"};
  table_t t;
  size_t n = 30000;
  table_init(&t, a, 4, names, types, n);
  char tmp[64];
  for (size_t r = 0; r < n; r++) {
    *cell(&t, r, 0) = vint((int64_t)r);
    snprintf(tmp, sizeof(tmp), "name-%zu", r % 1000);
    *cell(&t, r, 1) = vcstr(a, tmp);
    /* NULL for whole pages (rows 5000..9999) and every 3rd row elsewhere */
    *cell(&t, r, 2) = (r >= 5000 && r < 10000) || r % 3 == 0 ? vnull() : vint(-(int64_t)r);
    *cell(&t, r, 3) = vcstr(a, "same"); /* one dictionary entry: index bit width 0 */
  }
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_write_options_init(&o, NULL, 0, &err);
  o.page_bytes = 4096;
  o.row_group_bytes = 96 * 1024;
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, &o, 2048, &err), HL_OK);
  hl_err_clear(&err);
  footer_t ft;
  if (footer_open(&ft, path)) {
    hl_pq_file_meta_t *m = ft.meta;
    CHECK(m->n_row_groups >= 2);
    int64_t rows = 0;
    for (int r = 0; r < m->n_row_groups; r++) {
      const hl_pq_row_group_t *rg = &m->row_groups[r];
      CHECK_INT(rg->ordinal, r);
      /* the id column: ascending pages, min/max = first/last row */
      const hl_pq_column_chunk_t *cc = &rg->columns[0];
      CHECK_INT(le_int(cc->meta_data->statistics->min_value), rows);
      CHECK_INT(le_int(cc->meta_data->statistics->max_value), rows + rg->num_rows - 1);
      hl_pq_column_index_t *ci = col_index(&ft, cc);
      hl_pq_offset_index_t *oi = off_index(&ft, cc);
      CHECK(ci != NULL && oi != NULL);
      if (ci && oi) {
        CHECK(ci->n_pages >= 2);
        CHECK_INT(ci->boundary_order, HL_PQ_ASCENDING);
        for (int p = 0; p < ci->n_pages; p++) {
          CHECK(!ci->null_pages[p]);
          CHECK_INT(le_int(ci->min_values[p]), rows + oi->page_locations[p].first_row_index);
          int64_t next =
              p + 1 < oi->n_pages ? oi->page_locations[p + 1].first_row_index : rg->num_rows;
          CHECK_INT(le_int(ci->max_values[p]), rows + next - 1);
        }
      }
      /* the maybe column: null pages inside 5000..9999, descending values */
      hl_pq_column_index_t *ci2 = col_index(&ft, &rg->columns[2]);
      hl_pq_offset_index_t *oi2 = off_index(&ft, &rg->columns[2]);
      if (ci2 && oi2) {
        CHECK_INT(ci2->boundary_order, HL_PQ_DESCENDING);
        for (int p = 0; p < ci2->n_pages; p++) {
          int64_t first = rows + oi2->page_locations[p].first_row_index;
          int64_t next = rows + (p + 1 < oi2->n_pages ? oi2->page_locations[p + 1].first_row_index
                                                      : rg->num_rows);
          bool all_null = first >= 5000 && next <= 10000;
          CHECK(ci2->null_pages[p] == all_null);
          if (all_null) CHECK_INT(ci2->null_counts[p], next - first);
          if (all_null) CHECK_INT(ci2->min_values[p].len, 0);
        }
      }
      rows += rg->num_rows;
    }
    CHECK_INT(rows, n);
    check_layout(&ft);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

/* A dictionary that outgrows dictionary_bytes: earlier pages stay
 * dictionary-encoded, later ones PLAIN. */
TEST(dictionary_fallback) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[2] = {"s", "x"};
  const char *types[2] = {"string", "double"};
  table_t t;
  size_t n = 6000;
  table_init(&t, a, 2, names, types, n);
  char tmp[64];
  for (size_t r = 0; r < n; r++) {
    snprintf(tmp, sizeof(tmp), "value-%06zu", r < 1000 ? r % 10 : r);
    *cell(&t, r, 0) = r % 11 == 5 ? vnull() : vcstr(a, tmp);
    *cell(&t, r, 1) = vdbl(r % 4 == 0 ? NAN : (double)(r % 100) - 50.0);
  }
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_write_options_init(&o, NULL, 0, &err);
  o.page_bytes = 256;
  o.dictionary_bytes = 2000;
  o.codec = HL_PQ_ZSTD;
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, &o, 1000, &err), HL_OK);
  hl_err_clear(&err);
  footer_t ft;
  if (footer_open(&ft, path)) {
    hl_pq_file_meta_t *m = ft.meta;
    CHECK_INT(m->n_row_groups, 1);
    const hl_pq_column_meta_t *cm = m->row_groups[0].columns[0].meta_data;
    CHECK(has_encoding(cm, HL_PQ_ENC_RLE_DICTIONARY));
    CHECK(has_encoding(cm, HL_PQ_ENC_PLAIN));
    CHECK(cm->has_dictionary_page_offset);
    int dict_pages = 0, plain_pages = 0;
    for (int i = 0; i < cm->n_encoding_stats; i++) {
      const hl_pq_page_enc_stats_t *es = &cm->encoding_stats[i];
      if (es->page_type == HL_PQ_PAGE_DATA && es->encoding == HL_PQ_ENC_RLE_DICTIONARY)
        dict_pages += es->count;
      if (es->page_type == HL_PQ_PAGE_DATA && es->encoding == HL_PQ_ENC_PLAIN)
        plain_pages += es->count;
    }
    CHECK(dict_pages >= 1);
    CHECK(plain_pages >= 1);
    CHECK(bytes_eq(cm->statistics->min_value, "value-000000", 12));
    CHECK(bytes_eq(cm->statistics->max_value, "value-005999", 12));
    CHECK_INT(cm->statistics->null_count, (n + 5) / 11);
    /* doubles: NaN excluded from the bounds */
    const hl_pq_column_meta_t *dm = m->row_groups[0].columns[1].meta_data;
    double mn = -49.0, mx = 49.0; /* r % 4 != 0 leaves odd and 2 mod 4 rows */
    CHECK(bytes_eq(dm->statistics->min_value, &mn, 8));
    CHECK(bytes_eq(dm->statistics->max_value, &mx, 8));
    CHECK_INT(dm->statistics->null_count, 0);
    check_layout(&ft);
    footer_close(&ft);
  }
  check_read_back(&t, path);

  /* dictionary disabled: PLAIN only */
  o.dictionary_bytes = 0;
  path = new_path(a);
  CHECK_INT(write_table(&t, path, &o, 1000, &err), HL_OK);
  if (footer_open(&ft, path)) {
    const hl_pq_column_meta_t *cm = ft.meta->row_groups[0].columns[0].meta_data;
    CHECK(!has_encoding(cm, HL_PQ_ENC_RLE_DICTIONARY));
    CHECK(!cm->has_dictionary_page_offset);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

/* Float bounds: zero minimum is -0.0, zero maximum +0.0; an all-NaN chunk
 * has no bounds and no ColumnIndex. */
TEST(float_bounds) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[3] = {"z", "n", "f"};
  const char *types[3] = {"double", "double", "float"};
  table_t t;
  table_init(&t, a, 3, names, types, 4);
  double zs[4] = {0.0, NAN, 0.0, -0.0};
  for (size_t r = 0; r < 4; r++) {
    *cell(&t, r, 0) = vdbl(zs[r]);
    *cell(&t, r, 1) = vdbl(NAN);
    *cell(&t, r, 2) = r == 2 ? vnull() : vdbl(r == 0 ? 1.5 : -2.25);
  }
  hl_error_t err;
  hl_err_init(&err);
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, NULL, 10, &err), HL_OK);
  footer_t ft;
  if (footer_open(&ft, path)) {
    const hl_pq_row_group_t *rg = &ft.meta->row_groups[0];
    double nz = -0.0, pz = 0.0;
    CHECK(bytes_eq(rg->columns[0].meta_data->statistics->min_value, &nz, 8));
    CHECK(bytes_eq(rg->columns[0].meta_data->statistics->max_value, &pz, 8));
    CHECK(!rg->columns[1].meta_data->statistics->has_min_value);
    CHECK(!rg->columns[1].has_column_index_offset);
    CHECK(rg->columns[1].has_offset_index_offset);
    float fmn = -2.25f, fmx = 1.5f;
    CHECK(bytes_eq(rg->columns[2].meta_data->statistics->min_value, &fmn, 4));
    CHECK(bytes_eq(rg->columns[2].meta_data->statistics->max_value, &fmx, 4));
    CHECK_INT(rg->columns[2].meta_data->statistics->null_count, 1);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

/* Long strings: chunk bounds over 4 KiB are left out; ColumnIndex bounds
 * are truncated to 64 bytes, the maximum rounded up past a 0xff byte. */
TEST(long_string_bounds) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[2] = {"s", "big"};
  const char *types[2] = {"string", "binary"};
  table_t t;
  table_init(&t, a, 2, names, types, 3);
  char *big = hl_arena_alloc(a, 5000);
  memset(big, 'z', 5000);
  char mid[100];
  memset(mid, 'm', 100);
  mid[63] = (char)0xff;
  *cell(&t, 0, 0) = vstr(a, mid, 100);
  *cell(&t, 1, 0) = vcstr(a, "b");
  *cell(&t, 2, 0) = vcstr(a, "a");
  *cell(&t, 0, 1) = vnull();
  *cell(&t, 1, 1) = vstr(a, big, 5000);
  *cell(&t, 2, 1) = vnull();
  hl_error_t err;
  hl_err_init(&err);
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, NULL, 10, &err), HL_OK);
  footer_t ft;
  if (footer_open(&ft, path)) {
    const hl_pq_column_chunk_t *cc = &ft.meta->row_groups[0].columns[0];
    CHECK(bytes_eq(cc->meta_data->statistics->min_value, "a", 1));
    CHECK(bytes_eq(cc->meta_data->statistics->max_value, mid, 100));
    hl_pq_column_index_t *ci = col_index(&ft, cc);
    CHECK(ci != NULL);
    if (ci) {
      CHECK(bytes_eq(ci->min_values[0], "a", 1));
      /* the 64-byte prefix of the maximum ends in 0xff: 62 m's then 'n' */
      char want[64];
      memset(want, 'm', 62);
      want[62] = 'n';
      CHECK(bytes_eq(ci->max_values[0], want, 63));
    }
    cc = &ft.meta->row_groups[0].columns[1];
    CHECK(!cc->meta_data->statistics->has_min_value);
    CHECK(!cc->meta_data->statistics->has_max_value);
    CHECK_INT(cc->meta_data->statistics->null_count, 2);
    ci = col_index(&ft, cc);
    CHECK(ci != NULL);
    if (ci) {
      char want[64];
      memset(want, 'z', 64);
      CHECK(bytes_eq(ci->min_values[0], want, 64));
      want[63] = '{';
      CHECK(bytes_eq(ci->max_values[0], want, 64));
    }
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

/* Nested: arrays of structs, maps of arrays, structs holding arrays, with
 * NULL and empty collections, NULL elements and NULL fields. */
TEST(nested) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[4] = {"arr", "m", "st", "aa"};
  const char *types[4] = {"array<struct<x:int,y:string>>", "map<string,array<int>>",
                          "struct<p:bigint,q:array<string>,r:struct<z:boolean>>",
                          "array<array<decimal(20,2)>>"};
  size_t n = 4000;
  table_t t;
  table_init(&t, a, 4, names, types, n);
  char tmp[64];
  for (size_t r = 0; r < n; r++) {
    int k = (int)(r % 6);
    /* arr */
    if (k == 0) {
      *cell(&t, r, 0) = vnull();
    } else {
      uint32_t len = (uint32_t)(k - 1); /* 0..4 elements */
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
      *cell(&t, r, 0) = vlist(a, len, len, items);
    }
    /* m */
    if (k == 1) {
      *cell(&t, r, 1) = vnull();
    } else {
      uint32_t len = (uint32_t)(r % 4);
      hl_value_t kvs[6];
      for (uint32_t i = 0; i < len && i < 3; i++) {
        snprintf(tmp, sizeof(tmp), "k%u", i);
        kvs[2 * i] = vcstr(a, tmp);
        if (i == 1 && r % 8 == 1) {
          kvs[2 * i + 1] = vnull();
        } else {
          hl_value_t ints[3] = {vint((int64_t)r), vnull(), vint(-(int64_t)i)};
          uint32_t m = (uint32_t)((r + i) % 4);
          kvs[2 * i + 1] = vlist(a, m > 3 ? 3 : m, m > 3 ? 3 : m, ints);
        }
      }
      if (len > 3) len = 3;
      *cell(&t, r, 1) = vlist(a, len, 2 * len, kvs);
    }
    /* st */
    if (k == 2) {
      *cell(&t, r, 2) = vnull();
    } else {
      hl_value_t qs[2] = {vcstr(a, "q"), vnull()};
      hl_value_t z[1] = {r % 5 == 0 ? vnull() : vbool(r % 2)};
      hl_value_t f[3] = {k == 3 ? vnull() : vint((int64_t)r * 1000000007LL),
                         k == 4 ? vnull() : vlist(a, (uint32_t)(r % 3), (uint32_t)(r % 3), qs),
                         k == 5 ? vnull() : vlist(a, 1, 1, z)};
      *cell(&t, r, 2) = vlist(a, 3, 3, f);
    }
    /* aa */
    {
      hl_value_t inner[3];
      uint32_t outer = (uint32_t)(r % 4);
      for (uint32_t i = 0; i < outer; i++) {
        hl_value_t ds[2] = {vdec((__int128)r * 100 + i), vdec(-(__int128)r)};
        inner[i] = i == 1 ? vnull() : vlist(a, i, i, ds);
      }
      *cell(&t, r, 3) = r % 7 == 3 ? vnull() : vlist(a, outer, outer, inner);
    }
  }
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_write_options_init(&o, NULL, 0, &err);
  o.page_bytes = 1024;
  o.row_group_bytes = 40 * 1024;
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, &o, 500, &err), HL_OK);
  if (err.code) fprintf(stderr, "nested write: %s\n", err.message);
  hl_err_clear(&err);
  footer_t ft;
  if (footer_open(&ft, path)) {
    hl_pq_file_meta_t *m = ft.meta;
    CHECK(m->n_row_groups >= 2);
    /* arr: optional group (LIST) > repeated group list > optional group
     * element > x, y */
    CHECK_STR(m->schema[1].name, "arr");
    CHECK_INT(m->schema[1].logical.kind, HL_PQ_LT_LIST);
    CHECK_INT(m->schema[2].repetition, HL_PQ_REPEATED);
    CHECK_STR(m->schema[2].name, "list");
    CHECK_STR(m->schema[3].name, "element");
    const hl_pq_column_meta_t *x = m->row_groups[0].columns[0].meta_data;
    CHECK_INT(x->n_path, 4);
    CHECK_STR(x->path_in_schema[0], "arr");
    CHECK_STR(x->path_in_schema[3], "x");
    /* NULL count of arr.x in the first row group: every level slot that is
     * not a present x; row count check through num_rows */
    int64_t rows = 0;
    for (int r = 0; r < m->n_row_groups; r++)
      rows += m->row_groups[r].num_rows;
    CHECK_INT(rows, n);
    check_layout(&ft);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

TEST(int96_timestamps) {
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
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_kv_t p[1] = {kv("parquet.timestamp.int96", "true")};
  CHECK_INT(hl_parquet_write_options_init(&o, p, 1, &err), HL_OK);
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, &o, 10, &err), HL_OK);
  footer_t ft;
  if (footer_open(&ft, path)) {
    CHECK_INT(ft.meta->schema[1].type, HL_PQ_INT96);
    const hl_pq_column_chunk_t *cc = &ft.meta->row_groups[0].columns[0];
    CHECK(!cc->meta_data->statistics->has_min_value);
    CHECK_INT(cc->meta_data->statistics->null_count, 1);
    CHECK(!cc->has_column_index_offset);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

TEST(empty_file_and_errors) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[2] = {"id", "m"};
  const char *types[2] = {"decimal(4,1)", "map<int,string>"};
  table_t t;
  table_init(&t, a, 2, names, types, 0);
  hl_error_t err;
  hl_err_init(&err);
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, NULL, 10, &err), HL_OK);
  footer_t ft;
  if (footer_open(&ft, path)) {
    CHECK_INT(ft.meta->num_rows, 0);
    CHECK_INT(ft.meta->n_row_groups, 0);
    footer_close(&ft);
  }
  check_read_back(&t, path);

  /* an existing file is not overwritten */
  hl_parquet_writer_t *w = NULL;
  CHECK(hl_parquet_writer_open(fs, path, 2, t.types, t.names, NULL, &w, &err) != HL_OK);
  CHECK(w == NULL);
  hl_err_clear(&err);

  /* decimal beyond its precision: 22003, then the writer refuses more */
  table_t t2;
  table_init(&t2, a, 2, names, types, 1);
  *cell(&t2, 0, 0) = vdec(10000);
  *cell(&t2, 0, 1) = vnull();
  path = new_path(a);
  CHECK_INT(hl_parquet_writer_open(fs, path, 2, t2.types, t2.names, NULL, &w, &err), HL_OK);
  hl_batch_t *b = hl_batch_create(2, t2.types);
  hl_vec_put_value(&b->cols[0], b->arena, 0, cell(&t2, 0, 0));
  hl_vec_put_value(&b->cols[1], b->arena, 0, cell(&t2, 0, 1));
  b->n_rows = 1;
  CHECK_INT(hl_parquet_writer_write(w, b, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22003");
  hl_err_clear(&err);
  CHECK_INT(hl_parquet_writer_write(w, b, &err), HL_MISUSE);
  hl_err_clear(&err);
  hl_parquet_writer_abort(w);
  hl_stor_stat_t sst;
  fs->ops->stat(fs, path, &sst, &err);
  CHECK(sst.exists);
  CHECK_INT(sst.size, 4); /* only the leading magic: no footer */

  /* a NULL map key: 22004 */
  hl_value_t kvs[2] = {vnull(), vcstr(a, "v")};
  *cell(&t2, 0, 0) = vdec(5);
  *cell(&t2, 0, 1) = vlist(a, 1, 2, kvs);
  path = new_path(a);
  CHECK_INT(hl_parquet_writer_open(fs, path, 2, t2.types, t2.names, NULL, &w, &err), HL_OK);
  hl_batch_reset(b);
  hl_vec_put_value(&b->cols[0], b->arena, 0, cell(&t2, 0, 0));
  hl_vec_put_value(&b->cols[1], b->arena, 0, cell(&t2, 0, 1));
  b->n_rows = 1;
  CHECK_INT(hl_parquet_writer_write(w, b, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22004");
  hl_err_clear(&err);
  uint64_t rows = 7;
  CHECK(hl_parquet_writer_close(w, &rows, NULL, &err) != HL_OK); /* failed writer */
  CHECK_INT(rows, 7);
  hl_err_clear(&err);
  CHECK_INT(hl_parquet_writer_close(NULL, NULL, NULL, &err), HL_OK);
  hl_parquet_writer_abort(NULL);
  hl_batch_destroy(b);
  hl_arena_destroy(a);
}

/* The pages of column chunk CC as (header, body) pairs, in file order. */
typedef struct page {
  hl_pq_page_header_t ph;
  const uint8_t *body;
} page_t;

static int chunk_pages(footer_t *ft, const hl_pq_column_chunk_t *cc, page_t *out, int max) {
  const hl_pq_column_meta_t *m = cc->meta_data;
  int64_t start = m->has_dictionary_page_offset ? m->dictionary_page_offset : m->data_page_offset;
  const uint8_t *p = read_range(ft, start, (int32_t)m->total_compressed_size);
  size_t off = 0, len = (size_t)m->total_compressed_size;
  int n = 0;
  while (off < len && n < max) {
    hl_error_t err;
    hl_err_init(&err);
    size_t used = 0;
    bool more = false;
    hl_status_t st =
        hl_pq_page_header_decode(ft->arena, p + off, len - off, &out[n].ph, &used, &more, &err);
    CHECK_INT(st, HL_OK);
    hl_err_clear(&err);
    if (st != HL_OK) break;
    out[n].body = p + off + used;
    off += used + (size_t)out[n].ph.compressed_page_size;
    n++;
  }
  CHECK_INT(off, len);
  return n;
}

static uint32_t be32_at(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* LZ4 (Hadoop framing): every page is one frame whose sizes match the page
 * header and the block after it, and an empty page (the dictionary of an
 * all-NULL column) is no frame at all, not a frame of an empty block;
 * hivelite reads the file back. */
TEST(lz4_hadoop_framing) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[4] = {"a", "s", "e", "x"};
  const char *types[4] = {"int", "string", "array<int>", "bigint"};
  table_t t;
  table_init(&t, a, 4, names, types, 3);
  for (size_t r = 0; r < 3; r++) {
    *cell(&t, r, 0) = vnull();
    *cell(&t, r, 1) = vnull();
    *cell(&t, r, 2) = vlist(a, 0, 0, NULL); /* an empty array: no element values */
    *cell(&t, r, 3) = vint((int64_t)r * 1000003);
  }
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_kv_t p[1] = {kv("parquet.compression", "LZ4")};
  CHECK_INT(hl_parquet_write_options_init(&o, p, 1, &err), HL_OK);
  const char *path = new_path(a);
  CHECK_INT(write_table(&t, path, &o, 100, &err), HL_OK);
  hl_err_clear(&err);
  footer_t ft;
  if (footer_open(&ft, path)) {
    CHECK_INT(ft.meta->n_row_groups, 1);
    const hl_pq_row_group_t *rg = &ft.meta->row_groups[0];
    CHECK_INT(rg->n_columns, 4);
    for (int c = 0; c < rg->n_columns; c++) {
      CHECK_INT(rg->columns[c].meta_data->codec, HL_PQ_LZ4);
      page_t pages[8];
      int n = chunk_pages(&ft, &rg->columns[c], pages, 8);
      CHECK(n >= 1);
      for (int k = 0; k < n; k++) {
        const hl_pq_page_header_t *ph = &pages[k].ph;
        if (ph->uncompressed_page_size == 0) {
          CHECK_INT(ph->compressed_page_size, 0);
          continue;
        }
        CHECK(ph->compressed_page_size > 8);
        if (ph->compressed_page_size <= 8) continue;
        CHECK_INT(be32_at(pages[k].body), ph->uncompressed_page_size);
        CHECK_INT(be32_at(pages[k].body + 4), ph->compressed_page_size - 8);
      }
      if (c < 2) {
        /* all NULL: an empty dictionary page (no frame), then one data page
         * of 7 bytes -- the RLE definition levels (length 2, a run of 3
         * zeros) and the index bit width 0 -- in one frame of 8 bytes (a
         * token of 7 literals and the literals) */
        CHECK_INT(n, 2);
        if (n != 2) continue;
        CHECK_INT(pages[0].ph.type, HL_PQ_PAGE_DICTIONARY);
        CHECK_INT(pages[0].ph.dictionary_page_header.num_values, 0);
        CHECK_INT(pages[0].ph.uncompressed_page_size, 0);
        CHECK_INT(pages[0].ph.compressed_page_size, 0);
        static const uint8_t frame[16] = {0, 0, 0, 7, 0, 0, 0, 8, 0x70, 2, 0, 0, 0, 6, 0, 0};
        CHECK_INT(pages[1].ph.type, HL_PQ_PAGE_DATA);
        CHECK_INT(pages[1].ph.uncompressed_page_size, 7);
        CHECK_INT(pages[1].ph.compressed_page_size, 16);
        CHECK(pages[1].ph.compressed_page_size == 16 && memcmp(pages[1].body, frame, 16) == 0);
      }
    }
    check_layout(&ft);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

/* Failing the Nth allocation, for every N until the write succeeds: each
 * attempt ends in HL_OK or a clean HL_NOMEM (ASan checks for leaks). */
/* Memory that does not grow with the data (issue 18): a file of many row
 * groups, each cut by hl_parquet_writer_flush as the writer budget does.
 * After a flush the writer holds its fixed state plus, per flushed row
 * group, only the encoded footer pieces (hl_parquet_writer_footer_mem):
 * the rest must not change from the 20th row group to the 600th, and the
 * footer part must grow by a bounded number of bytes per row group.  The
 * file must still read back exactly, with every row group's statistics
 * and page index right. */
TEST(footer_memory_bounded) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[3] = {"id", "name", "arr"};
  const char *types[3] = {"bigint", "string", "array<int>"};
  enum { RGS = 600, PER = 40 };
  table_t t;
  table_init(&t, a, 3, names, types, (size_t)RGS * PER);
  char tmp[64];
  for (size_t r = 0; r < (size_t)RGS * PER; r++) {
    *cell(&t, r, 0) = vint((int64_t)r);
    snprintf(tmp, sizeof(tmp), "name-%05zu", r % 977);
    *cell(&t, r, 1) = r % 9 == 0 ? vnull() : vcstr(a, tmp);
    hl_value_t items[2] = {vint((int64_t)(r % 100)), vnull()};
    *cell(&t, r, 2) = vlist(a, (uint32_t)(r % 3), 2, items);
  }
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_write_options_init(&o, NULL, 0, &err);
  o.page_bytes = 16; /* a few pages per chunk: the page index has entries */
  const char *path = new_path(a);
  hl_parquet_writer_t *w = NULL;
  CHECK_INT(hl_parquet_writer_open(fs, path, 3, t.types, t.names, &o, &w, &err), HL_OK);
  hl_batch_t *b = hl_batch_create(3, t.types);
  uint64_t other20 = 0, footer20 = 0, other600 = 0, footer600 = 0;
  for (int g = 0; w && g < RGS; g++) {
    hl_batch_reset(b);
    for (uint32_t i = 0; i < PER; i++)
      for (int c = 0; c < 3; c++)
        hl_vec_put_value(&b->cols[c], b->arena, i, cell(&t, (size_t)g * PER + i, c));
    b->n_rows = PER;
    CHECK_INT(hl_parquet_writer_write(w, b, &err), HL_OK);
    CHECK_INT(hl_parquet_writer_flush(w, &err), HL_OK);
    uint64_t mem = hl_parquet_writer_mem(w), footer = hl_parquet_writer_footer_mem(w);
    CHECK(footer < mem);
    if (g + 1 == 20) other20 = mem - footer, footer20 = footer;
    if (g + 1 == RGS) other600 = mem - footer, footer600 = footer;
  }
  hl_batch_destroy(b);
  CHECK_INT(other600, other20);
  /* Per row group: 3 chunk heads (~70-90 bytes with statistics), their
   * page index (~10 bytes a page), 12 bytes of lengths each, a RowGroup
   * tail of ~20 bytes: ~450 bytes, times up to 2 for buffer doubling.  The
   * structures kept before took about 3 KB. */
  uint64_t per_rg = (footer600 - footer20) / (RGS - 20);
  fprintf(stderr, "footer memory: %llu bytes per row group of 3 columns\n",
          (unsigned long long)per_rg);
  CHECK(per_rg > 100);
  CHECK(per_rg < 1200);
  uint64_t rows = 0;
  if (w) CHECK_INT(hl_parquet_writer_close(w, &rows, NULL, &err), HL_OK);
  CHECK_INT(rows, (uint64_t)RGS * PER);
  footer_t ft;
  if (footer_open(&ft, path)) {
    hl_pq_file_meta_t *m = ft.meta;
    CHECK_INT(m->n_row_groups, RGS);
    for (int r = 0; r < m->n_row_groups; r++) {
      const hl_pq_row_group_t *rg = &m->row_groups[r];
      CHECK_INT(rg->num_rows, PER);
      CHECK_INT(rg->ordinal, r);
      const hl_pq_column_chunk_t *cc = &rg->columns[0];
      CHECK_INT(le_int(cc->meta_data->statistics->min_value), (int64_t)r * PER);
      CHECK_INT(le_int(cc->meta_data->statistics->max_value), (int64_t)r * PER + PER - 1);
      hl_pq_column_index_t *ci = col_index(&ft, cc);
      hl_pq_offset_index_t *oi = off_index(&ft, cc);
      CHECK(ci != NULL && oi != NULL);
      if (ci && oi) {
        CHECK(ci->n_pages >= 2);
        CHECK_INT(ci->n_pages, oi->n_pages);
        CHECK_INT(le_int(ci->min_values[0]), (int64_t)r * PER);
        CHECK_INT(le_int(ci->max_values[ci->n_pages - 1]), (int64_t)r * PER + PER - 1);
      }
      /* name is NULL on rows divisible by 9 */
      int64_t lo = (int64_t)r * PER, hi = lo + PER;
      CHECK_INT(rg->columns[1].meta_data->statistics->null_count, (hi + 8) / 9 - (lo + 8) / 9);
    }
    check_layout(&ft);
    footer_close(&ft);
  }
  check_read_back(&t, path);
  hl_arena_destroy(a);
}

TEST(allocation_failures) {
  hl_arena_t *a = hl_arena_create(0);
  const char *names[3] = {"s", "arr", "d"};
  const char *types[3] = {"string", "array<struct<x:int,y:string>>", "decimal(25,2)"};
  table_t t;
  table_init(&t, a, 3, names, types, 60);
  for (size_t r = 0; r < 60; r++) {
    char tmp[32];
    snprintf(tmp, sizeof(tmp), "s%zu", r % 9);
    *cell(&t, r, 0) = r % 4 == 1 ? vnull() : vcstr(a, tmp);
    hl_value_t f[2] = {vint((int64_t)r), vcstr(a, tmp)};
    hl_value_t items[2] = {vlist(a, 2, 2, f), vnull()};
    *cell(&t, r, 1) = r % 5 == 0 ? vnull() : vlist(a, (uint32_t)(r % 3), 2, items);
    *cell(&t, r, 2) = vdec((__int128)r * 1000003 - 7);
  }
  hl_batch_t *b = hl_batch_create(3, t.types);
  for (size_t r = 0; r < 60; r++)
    for (int c = 0; c < 3; c++)
      hl_vec_put_value(&b->cols[c], b->arena, (uint32_t)r, cell(&t, r, c));
  b->n_rows = 60;
  hl_parquet_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_parquet_write_options_init(&o, NULL, 0, &err);
  o.page_bytes = 64;
  o.row_group_bytes = 512;
  o.dictionary_bytes = 40;
  int nomem = 0;
  bool done = false;
  const char *path = NULL;
  for (long n = 1; n < 5000 && !done; n++) {
    path = new_path(a);
    hl_parquet_writer_t *w = NULL;
    hl_mem_fail_after(n);
    hl_status_t st = hl_parquet_writer_open(fs, path, 3, t.types, t.names, &o, &w, &err);
    if (st == HL_OK) st = hl_parquet_writer_write(w, b, &err);
    if (st == HL_OK) st = hl_parquet_writer_write(w, b, &err);
    if (st == HL_OK)
      st = hl_parquet_writer_close(w, NULL, NULL, &err);
    else
      hl_parquet_writer_abort(w);
    hl_mem_fail_after(0);
    if (st == HL_OK) {
      done = true;
    } else {
      if (st == HL_NOMEM)
        nomem++;
      else
        fprintf(stderr, "allocation %ld: %s\n", n, err.message);
      CHECK_INT(st, HL_NOMEM);
      hl_err_clear(&err);
      hl_error_t rerr;
      hl_err_init(&rerr);
      fs->ops->remove(fs, path, &rerr);
      hl_err_clear(&rerr);
    }
  }
  CHECK(done);
  CHECK(nomem > 10);
  /* the file written when nothing failed holds the data twice */
  table_t t2;
  table_init(&t2, a, 3, names, types, 120);
  memcpy(t2.cells, t.cells, 60 * 3 * sizeof(hl_value_t));
  memcpy(t2.cells + 180, t.cells, 60 * 3 * sizeof(hl_value_t));
  if (done) check_read_back(&t2, path);
  hl_batch_destroy(b);
  hl_arena_destroy(a);
}

int main(void) {
  tmp_setup();
  RUN(options);
  RUN(flat_types_codecs_nulls);
  RUN(pages_and_row_groups);
  RUN(dictionary_fallback);
  RUN(float_bounds);
  RUN(long_string_bounds);
  RUN(nested);
  RUN(int96_timestamps);
  RUN(empty_file_and_errors);
  RUN(lz4_hadoop_framing);
  RUN(footer_memory_bounded);
  RUN(allocation_failures);
  tmp_teardown();
  return test_report();
}
