/*
 * test_orc_writer.c -- unit tests of the ORC writer (src/format/orc):
 * the encoders against the worked byte examples of the ORC v1 spec, the
 * encoders through their inverse on random and edge data, and written
 * files whose tail (PostScript, Footer, Metadata) is decoded with protoc-c
 * and checked field by field (types, row counts, statistics), uncompressed
 * and ZLIB-compressed, with one and with several stripes.
 */
#include "format/orc/orc.h"
#include "format/orc/orc_enc.h"

#include "orc.pb-c.h"
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

static bool bytes_eq(const hl_buf_t *b, const uint8_t *want, size_t n) {
  if (b->len != n || memcmp(b->data, want, n) != 0) {
    fprintf(stderr, "  got:");
    for (size_t i = 0; i < b->len; i++)
      fprintf(stderr, " %02x", (uint8_t)b->data[i]);
    fprintf(stderr, "\n");
    return false;
  }
  return true;
}

/* ------------------------------------------------------------ spec examples */

TEST(spec_examples) {
  hl_buf_t b;
  hl_buf_init(&b);
  /* varints */
  static const struct {
    uint64_t v;
    uint8_t bytes[3];
    size_t n;
  } uv[] = {{0, {0x00}, 1},
            {1, {0x01}, 1},
            {127, {0x7f}, 1},
            {128, {0x80, 0x01}, 2},
            {129, {0x81, 0x01}, 2},
            {16383, {0xff, 0x7f}, 2},
            {16384, {0x80, 0x80, 0x01}, 3}};
  for (size_t i = 0; i < sizeof uv / sizeof uv[0]; i++) {
    hl_buf_reset(&b);
    hl_orc_put_uvarint(&b, uv[i].v);
    CHECK(bytes_eq(&b, uv[i].bytes, uv[i].n));
  }
  static const int64_t sv[] = {0, -1, 1, -2, 2};
  for (int i = 0; i < 5; i++) {
    hl_buf_reset(&b);
    hl_orc_put_svarint(&b, sv[i]);
    uint8_t want = (uint8_t)i;
    CHECK(bytes_eq(&b, &want, 1));
  }
  /* byte RLE: 100 zeros; then 0x44, 0x45 */
  uint8_t zeros[100] = {0};
  hl_buf_reset(&b);
  hl_orc_put_byte_rle(&b, zeros, 100, NULL);
  CHECK(bytes_eq(&b, (const uint8_t[]){0x61, 0x00}, 2));
  hl_buf_reset(&b);
  hl_orc_put_byte_rle(&b, (const uint8_t[]){0x44, 0x45}, 2, NULL);
  CHECK(bytes_eq(&b, (const uint8_t[]){0xfe, 0x44, 0x45}, 3));
  /* boolean RLE: one true then seven false */
  hl_buf_reset(&b);
  hl_orc_put_bool_rle(&b, (const uint8_t[]){1, 0, 0, 0, 0, 0, 0, 0}, 8, NULL);
  CHECK(bytes_eq(&b, (const uint8_t[]){0xff, 0x80}, 2));
  /* RLE v2 SHORT_REPEAT: 10000 five times */
  int64_t rep[5] = {10000, 10000, 10000, 10000, 10000};
  hl_buf_reset(&b);
  hl_orc_put_rle2(&b, rep, 5, false, NULL);
  CHECK(bytes_eq(&b, (const uint8_t[]){0x0a, 0x27, 0x10}, 3));
  /* DIRECT */
  int64_t dir[4] = {23713, 43806, 57005, 48879};
  hl_buf_reset(&b);
  hl_orc_put_rle2(&b, dir, 4, false, NULL);
  CHECK(bytes_eq(&b, (const uint8_t[]){0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef},
                 10));
  /* DELTA: the spec packs the deltas in 4 bits; 3 suffice (width code 2) */
  int64_t primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
  hl_buf_reset(&b);
  hl_orc_put_rle2(&b, primes, 10, false, NULL);
  CHECK(bytes_eq(&b, (const uint8_t[]){0xc4, 0x09, 0x02, 0x02, 0x4a, 0x28, 0xa6}, 7));
  int64_t out[16];
  static const uint8_t spec_delta[] = {0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46};
  CHECK_INT(hl_orc_unrle2(spec_delta, sizeof spec_delta, false, out, 16), 10);
  CHECK(memcmp(out, primes, sizeof primes) == 0);
  /* timestamp nanoseconds */
  CHECK_INT(hl_orc_encode_nanos(1000), 0x0a);
  CHECK_INT(hl_orc_encode_nanos(100000), 0x0c);
  CHECK_INT(hl_orc_encode_nanos(0), 0);
  CHECK_INT(hl_orc_encode_nanos(123456789), 123456789LL << 3);
  CHECK_INT(hl_orc_encode_nanos(100000000), (1 << 3) | 7);
  hl_buf_fini(&b);
}

/* ------------------------------------------------------------ round trips */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Encodes V with row-index marks at random value indices, decodes it
 * whole, and decodes again from each mark's run (skipping the mark's
 * values): both must give the values from the mark on. */
static bool rle2_roundtrip(const int64_t *v, size_t n, bool is_signed) {
  enum { MARKS = 6 };
  uint64_t at[MARKS], off[MARKS], skip[MARKS];
  for (int i = 0; i < MARKS; i++)
    at[i] = i == 0 ? 0 : i == MARKS - 1 ? n : at[i - 1] + rnd() % (n / 4 + 1);
  for (int i = 1; i < MARKS; i++)
    if (at[i] > n) at[i] = n;
  hl_orc_marks_t marks = {at, MARKS, off, skip, NULL};
  hl_buf_t b;
  hl_buf_init(&b);
  hl_orc_put_rle2(&b, v, n, is_signed, &marks);
  int64_t *out = hl_malloc((n + 1) * sizeof *out);
  long got = hl_orc_unrle2((const uint8_t *)b.data, b.len, is_signed, out, n + 1);
  bool ok = !b.oom && got == (long)n && (n == 0 || memcmp(out, v, n * sizeof *v) == 0);
  for (int i = 0; ok && i < MARKS; i++) {
    long rest =
        hl_orc_unrle2((const uint8_t *)b.data + off[i], b.len - off[i], is_signed, out, n + 1);
    ok = off[i] <= b.len && rest >= 0 && (uint64_t)rest - skip[i] == n - at[i] &&
         memcmp(out + skip[i], v + at[i], (n - at[i]) * sizeof *v) == 0;
    if (!ok)
      fprintf(stderr, "  mark %d at %llu: offset %llu skip %llu\n", i, (unsigned long long)at[i],
              (unsigned long long)off[i], (unsigned long long)skip[i]);
  }
  if (!ok) fprintf(stderr, "  round trip of %zu values failed (got %ld)\n", n, got);
  hl_free(out);
  hl_buf_fini(&b);
  return ok;
}

TEST(rle2_roundtrip) {
  enum { N = 3000 };
  int64_t *v = hl_malloc(N * sizeof *v);
  static const int64_t edge[] = {
      INT64_MIN, INT64_MAX,     INT64_MIN,     0, -1, 1, INT64_MAX, INT64_MAX,
      INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 0, 0,  0};
  CHECK(rle2_roundtrip(edge, sizeof edge / sizeof edge[0], true));
  CHECK(rle2_roundtrip(edge, 0, true));
  CHECK(rle2_roundtrip(edge + 3, 1, true));
  for (int trial = 0; trial < 400; trial++) {
    size_t n = 1 + rnd() % N;
    int shape = trial % 8;
    int bits = 1 + (int)(rnd() % 63);
    int64_t x = (int64_t)(rnd() >> (64 - bits));
    for (size_t i = 0; i < n; i++) {
      switch (shape) {
      case 0:
        v[i] = (int64_t)(rnd() >> (64 - bits));
        break; /* random width */
      case 1:
        v[i] = (int64_t)rnd();
        break; /* full 64 bits */
      case 2:
        v[i] = (rnd() % 5 == 0) ? (int64_t)(rnd() % 7) : x;
        break; /* runs */
      case 3:
        v[i] = x + (int64_t)i * 3;
        break; /* fixed delta */
      case 4:
        v[i] = (i ? v[i - 1] : 0) + (int64_t)(rnd() % 1000);
        break; /* increasing */
      case 5:
        v[i] = (i ? v[i - 1] : 0) - (int64_t)(rnd() % 100000);
        break; /* decreasing */
      case 6:
        v[i] = (rnd() & 1) ? INT64_MIN : INT64_MAX;
        break;
      default:
        v[i] = (int64_t)(rnd() % 3) - 1;
        break; /* zigzag */
      }
    }
    CHECK(rle2_roundtrip(v, n, true));
    if (shape != 1 && shape != 5 && shape != 6 && shape != 7) {
      for (size_t i = 0; i < n; i++)
        if (v[i] < 0) v[i] = -(v[i] + 1);
      CHECK(rle2_roundtrip(v, n, false));
    }
  }
  hl_free(v);
}

TEST(byte_rle_roundtrip) {
  enum { N = 5000 };
  uint8_t *v = hl_malloc(N), *out = hl_malloc(N + 1);
  for (int trial = 0; trial < 200; trial++) {
    size_t n = rnd() % N;
    for (size_t i = 0; i < n; i++)
      v[i] = (trial & 1) ? (uint8_t)rnd() : (rnd() % 4 == 0 ? (uint8_t)rnd() : 7);
    hl_buf_t b;
    hl_buf_init(&b);
    uint64_t at[3] = {n / 3, n / 2 + 1 > n ? n : n / 2 + 1, n}, off[3], skip[3];
    hl_orc_marks_t marks = {at, 3, off, skip, NULL};
    hl_orc_put_byte_rle(&b, v, n, &marks);
    long got = hl_orc_byte_unrle((const uint8_t *)b.data, b.len, out, N + 1);
    CHECK_INT(got, (long)n);
    CHECK(n == 0 || memcmp(v, out, n) == 0);
    for (int i = 0; i < 3; i++) { /* decoding from a mark's run gives the bytes from the mark on */
      long rest = hl_orc_byte_unrle((const uint8_t *)b.data + off[i], b.len - off[i], out, N + 1);
      CHECK(rest >= 0 && (uint64_t)rest - skip[i] == n - at[i]);
      CHECK(rest < 0 || memcmp(out + skip[i], v + at[i], n - at[i]) == 0);
    }
    hl_buf_fini(&b);
  }
  hl_free(v);
  hl_free(out);
}

/* ------------------------------------------------------------ files */

static size_t slurp(const char *path, uint8_t **out) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *out = hl_malloc((size_t)n + 1);
  size_t got = fread(*out, 1, (size_t)n, f);
  fclose(f);
  return got;
}

/* Undoes ORC compression chunks (NONE: a copy). */
static bool unchunk(hl_orc_codec_t codec, const uint8_t *p, size_t n, hl_buf_t *out) {
  if (codec == HL_ORC_NONE) {
    hl_buf_append(out, p, n);
    return true;
  }
  size_t pos = 0;
  while (pos < n) {
    if (pos + 3 > n) return false;
    uint32_t h = p[pos] | (uint32_t)p[pos + 1] << 8 | (uint32_t)p[pos + 2] << 16;
    size_t len = h >> 1;
    pos += 3;
    if (pos + len > n) return false;
    if (h & 1) {
      hl_buf_append(out, p + pos, len);
    } else {
      uint8_t tmp[1 << 16];
      z_stream zs;
      memset(&zs, 0, sizeof zs);
      if (inflateInit2(&zs, -15) != Z_OK) return false;
      zs.next_in = (Bytef *)(p + pos);
      zs.avail_in = (uInt)len;
      int rc;
      do {
        zs.next_out = tmp;
        zs.avail_out = sizeof tmp;
        rc = inflate(&zs, Z_NO_FLUSH);
        hl_buf_append(out, tmp, sizeof tmp - zs.avail_out);
      } while (rc == Z_OK);
      inflateEnd(&zs);
      if (rc != Z_STREAM_END) return false;
    }
    pos += len;
  }
  return true;
}

typedef struct tail {
  Orcpb__PostScript *ps;
  Orcpb__Footer *footer;
  Orcpb__Metadata *meta;
  uint8_t *file;
  size_t size;
} tail_t;

static bool read_tail(const char *path, tail_t *t) {
  memset(t, 0, sizeof *t);
  t->size = slurp(path, &t->file);
  if (t->size < 4 || memcmp(t->file, "ORC", 3) != 0) return false;
  size_t ps_len = t->file[t->size - 1];
  t->ps = orcpb__post_script__unpack(NULL, ps_len, t->file + t->size - 1 - ps_len);
  if (!t->ps) return false;
  size_t foot_end = t->size - 1 - ps_len;
  size_t foot_start = foot_end - t->ps->footer_length;
  size_t meta_start = foot_start - t->ps->metadata_length;
  hl_buf_t fb, mb;
  hl_buf_init(&fb);
  hl_buf_init(&mb);
  hl_orc_codec_t codec = (hl_orc_codec_t)t->ps->compression;
  bool ok = unchunk(codec, t->file + foot_start, t->ps->footer_length, &fb) &&
            unchunk(codec, t->file + meta_start, t->ps->metadata_length, &mb);
  if (ok) t->footer = orcpb__footer__unpack(NULL, fb.len, (uint8_t *)fb.data);
  if (ok) t->meta = orcpb__metadata__unpack(NULL, mb.len, (uint8_t *)mb.data);
  hl_buf_fini(&fb);
  hl_buf_fini(&mb);
  return ok && t->footer && t->meta;
}

static void free_tail(tail_t *t) {
  if (t->ps) orcpb__post_script__free_unpacked(t->ps, NULL);
  if (t->footer) orcpb__footer__free_unpacked(t->footer, NULL);
  if (t->meta) orcpb__metadata__free_unpacked(t->meta, NULL);
  hl_free(t->file);
}

static const hl_type_t *ptype(const char *text) {
  hl_type_t *t = NULL;
  hl_error_t err;
  hl_err_init(&err);
  if (hl_type_parse_str(T.arena, text, &t, &err) != HL_OK) exit(1);
  return t;
}

static hl_value_t *items(int n) {
  return hl_arena_zalloc(T.arena, (size_t)n * sizeof(hl_value_t));
}

enum { NCOLS = 12 };

/* Writes ROWS rows of the 12 test columns into NAME. */
static const char *write_file(const char *name, const hl_orc_write_options_t *opts, int rows) {
  static const char *const type_text[NCOLS] = {
      "int",     "string",        "double",          "boolean",
      "date",    "timestamp",     "decimal(10,2)",   "binary",
      "tinyint", "array<bigint>", "map<string,int>", "struct<x:int,y:varchar(5)>"};
  static const char *const names[NCOLS] = {"i", "s",   "d", "b",  "dt", "ts",
                                           "q", "bin", "t", "ar", "m",  "st"};
  const hl_type_t *types[NCOLS];
  for (int c = 0; c < NCOLS; c++)
    types[c] = ptype(type_text[c]);
  const char *path = hl_arena_sprintf(T.arena, "%s/%s", T.dir, name);
  unlink(path);
  hl_error_t err;
  hl_err_init(&err);
  hl_orc_writer_t *w = NULL;
  if (hl_orc_writer_open(T.fs, path, opts, NCOLS, types, names, &w, &err) != HL_OK) {
    fprintf(stderr, "open: %s\n", err.message);
    return NULL;
  }
  hl_batch_t *batch = hl_batch_create(NCOLS, types);
  for (int r = 0; r < rows; r++) {
    uint32_t row = batch->n_rows;
    hl_value_t v[NCOLS];
    memset(v, 0, sizeof v);
    bool null_row = r % 4 == 3; /* rows 3, 7, ...: all NULL */
    v[0].u.i = r % 2 ? -r : r * 1000;
    static const char *const strs[] = {"", "b", "a", "ccc"};
    v[1].u.s = (hl_str_t){strs[r % 4 == 3 ? 0 : r % 4], (uint32_t)strlen(strs[r % 4])};
    v[2].u.d = r * 0.5;
    v[3].u.b = r % 3 == 0;
    v[4].u.i = 19000 + r;
    v[5].u.i = 1420070400000000LL + r * 1500000LL; /* 2015-01-01 plus 1.5 s a row */
    v[6].u.dec = 1234 - r;
    v[7].u.s = (hl_str_t){"\x01\x02\x03", (uint32_t)(r % 4)};
    v[8].u.i = r % 3 - 1;
    hl_value_t *a = items(2);
    a[0].u.i = r;
    a[1].is_null = true;
    v[9].u.list.n = 2;
    v[9].u.list.items = a;
    hl_value_t *m = items(2);
    m[0].u.s = (hl_str_t){"k", 1};
    m[1].u.i = r;
    v[10].u.list.n = 1;
    v[10].u.list.items = m;
    hl_value_t *s = items(2);
    s[0].u.i = r;
    s[1].u.s = (hl_str_t){"yy", 2};
    v[11].u.list.n = 2;
    v[11].u.list.items = s;
    for (int c = 0; c < NCOLS; c++) {
      v[c].is_null = null_row;
      hl_vec_put_value(&batch->cols[c], batch->arena, row, &v[c]);
      if (null_row) hl_vec_set_null(&batch->cols[c], batch->arena, row);
    }
    batch->n_rows++;
    if (batch->n_rows == HL_BATCH_CAP || r == rows - 1) {
      if (hl_orc_writer_write(w, batch, &err) != HL_OK) {
        fprintf(stderr, "write: %s\n", err.message);
        return NULL;
      }
      hl_batch_reset(batch);
    }
  }
  hl_batch_destroy(batch);
  if (hl_orc_writer_close(w, &err) != HL_OK) {
    fprintf(stderr, "close: %s\n", err.message);
    return NULL;
  }
  return path;
}

static void check_tail(const tail_t *t, int rows, int stripes, hl_orc_codec_t codec) {
  const Orcpb__PostScript *ps = t->ps;
  CHECK_STR(ps->magic, "ORC");
  CHECK_INT(ps->n_version, 2);
  CHECK_INT(ps->version[0], 0);
  CHECK_INT(ps->version[1], 12);
  CHECK_INT(ps->writer_version, 6);
  CHECK_INT(ps->compression, codec);
  CHECK_INT(ps->compression_block_size, 262144);
  const Orcpb__Footer *f = t->footer;
  CHECK_INT(f->header_length, 3);
  CHECK_INT(f->number_of_rows, rows);
  CHECK_INT(f->row_index_stride, 10000);
  CHECK(!f->has_writer);
  CHECK_INT(f->n_stripes, stripes);
  CHECK_INT(t->meta->n_stripe_stats, stripes);
  uint64_t stripe_rows = 0, end = 3;
  for (size_t i = 0; i < f->n_stripes; i++) {
    CHECK_INT(f->stripes[i]->offset, end);
    end += f->stripes[i]->index_length + f->stripes[i]->data_length + f->stripes[i]->footer_length;
    stripe_rows += f->stripes[i]->number_of_rows;
  }
  CHECK_INT(stripe_rows, rows);
  CHECK_INT(f->content_length, end);
  /* types, pre-order: struct, 9 primitives, list, long, map, string, int,
   * struct, int, varchar */
  static const int kinds[] = {12, 3, 7, 6, 0, 15, 9, 14, 8, 1, 10, 4, 11, 7, 3, 12, 3, 16};
  CHECK_INT(f->n_types, 18);
  for (size_t i = 0; i < f->n_types && i < 18; i++)
    CHECK_INT(f->types[i]->kind, kinds[i]);
  CHECK_INT(f->types[0]->n_subtypes, NCOLS);
  CHECK_INT(f->types[0]->n_field_names, NCOLS);
  CHECK_STR(f->types[0]->field_names[4], "dt");
  CHECK_INT(f->types[0]->subtypes[10], 12);
  CHECK_INT(f->types[7]->precision, 10);
  CHECK_INT(f->types[7]->scale, 2);
  CHECK_INT(f->types[10]->subtypes[0], 11);
  CHECK_STR(f->types[15]->field_names[1], "y");
  CHECK_INT(f->types[17]->maximum_length, 5);
  /* statistics: rows 3, 7, ... are NULL */
  int nn = rows - rows / 4;
  CHECK_INT(f->n_statistics, 18);
  Orcpb__ColumnStats *const *st = f->statistics;
  CHECK_INT(st[0]->number_of_values, rows);
  CHECK(!st[0]->has_null);
  CHECK_INT(st[1]->number_of_values, nn);
  CHECK(st[1]->has_null);
  /* i: r*1000 for even r, -r for odd r (not 3 mod 4) */
  int64_t imin = 0, imax = 0, isum = 0;
  int64_t dtmin = INT64_MAX, dtmax = 0, lens = 0, bins = 0, trues = 0, rsum = 0;
  for (int r = 0; r < rows; r++) {
    if (r % 4 == 3) continue;
    int64_t v = r % 2 ? -r : r * 1000;
    imin = v < imin ? v : imin;
    imax = v > imax ? v : imax;
    isum += v;
    lens += r % 4 == 2 ? 1 : r % 4 == 1 ? 1 : 0;
    bins += r % 4;
    trues += r % 3 == 0;
    rsum += r;
    dtmin = 19000 + r < dtmin ? 19000 + r : dtmin;
    dtmax = 19000 + r;
  }
  CHECK(st[1]->int_stats && st[1]->int_stats->minimum == imin);
  CHECK(st[1]->int_stats && st[1]->int_stats->maximum == imax);
  CHECK(st[1]->int_stats && st[1]->int_stats->sum == isum);
  CHECK(st[2]->string_stats && strcmp(st[2]->string_stats->minimum, "") == 0);
  CHECK(st[2]->string_stats && strcmp(st[2]->string_stats->maximum, rows > 2 ? "b" : "") == 0);
  CHECK(st[2]->string_stats && st[2]->string_stats->sum == lens);
  CHECK(st[3]->double_stats && st[3]->double_stats->minimum == 0.0);
  CHECK(st[4]->bucket_stats && st[4]->bucket_stats->n_count == 1 &&
        st[4]->bucket_stats->count[0] == (uint64_t)trues);
  CHECK(st[5]->date_stats && st[5]->date_stats->minimum == dtmin &&
        st[5]->date_stats->maximum == dtmax);
  CHECK(st[6]->timestamp_stats && st[6]->timestamp_stats->minimum_utc == 1420070400000LL &&
        !st[6]->timestamp_stats->has_minimum);
  CHECK(st[7]->decimal_stats && strcmp(st[7]->decimal_stats->maximum, "12.34") == 0);
  CHECK(st[8]->binary_stats && st[8]->binary_stats->sum == bins);
  CHECK_INT(st[10]->number_of_values, nn);
  CHECK_INT(st[11]->number_of_values, nn); /* list elements: r, NULL */
  CHECK(st[11]->has_null);
  CHECK(st[11]->int_stats && st[11]->int_stats->sum == rsum);
  CHECK_INT(st[13]->number_of_values, nn);
  CHECK_INT(st[17]->string_stats->sum, 2 * nn);
}

TEST(file_tail) {
  hl_orc_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_orc_write_options_init(&o, NULL, 0, &err), HL_OK);
  CHECK_INT(o.codec, HL_ORC_ZLIB);
  o.codec = HL_ORC_NONE;
  const char *p = write_file("plain.orc", &o, 10);
  tail_t t;
  CHECK(p && read_tail(p, &t));
  if (t.footer) check_tail(&t, 10, 1, HL_ORC_NONE);
  /* the list's bigint elements: r for each non-NULL row (0+1+2+4+5+6+8+9) */
  if (t.footer) CHECK_INT(t.footer->statistics[11]->int_stats->sum, 35);
  free_tail(&t);

  o.codec = HL_ORC_ZLIB;
  p = write_file("zlib.orc", &o, 5000);
  CHECK(p && read_tail(p, &t));
  if (t.footer) check_tail(&t, 5000, 1, HL_ORC_ZLIB);
  free_tail(&t);

  o.stripe_size = 20000; /* several stripes */
  p = write_file("stripes.orc", &o, 5000);
  CHECK(p && read_tail(p, &t));
  if (t.footer) {
    CHECK(t.footer->n_stripes > 2);
    check_tail(&t, 5000, (int)t.footer->n_stripes, HL_ORC_ZLIB);
    /* stripe statistics add up to the file's */
    uint64_t n = 0;
    for (size_t i = 0; i < t.meta->n_stripe_stats; i++)
      n += t.meta->stripe_stats[i]->col_stats[1]->number_of_values;
    CHECK_INT(n, t.footer->statistics[1]->number_of_values);
  }
  free_tail(&t);

  p = write_file("empty.orc", NULL, 0);
  CHECK(p && read_tail(p, &t));
  if (t.footer) {
    CHECK_INT(t.footer->number_of_rows, 0);
    CHECK_INT(t.footer->n_stripes, 0);
    CHECK_INT(t.footer->content_length, 3);
  }
  free_tail(&t);
}

TEST(options) {
  hl_orc_write_options_t o;
  hl_error_t err;
  hl_kv_t kv[2] = {{"orc.compress", "snappy"}, {"orc.stripe.size", "1000"}};
  hl_err_init(&err);
  CHECK_INT(hl_orc_write_options_init(&o, kv, 2, &err), HL_OK);
  CHECK_INT(o.codec, HL_ORC_SNAPPY);
  CHECK_INT(o.stripe_size, 1000);
  kv[0].value = "LZO";
  CHECK_INT(hl_orc_write_options_init(&o, kv, 1, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  hl_err_clear(&err);
  kv[0] = (hl_kv_t){"orc.bloom.filter.columns", "a"};
  CHECK_INT(hl_orc_write_options_init(&o, kv, 1, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  hl_err_clear(&err);
  kv[0] = (hl_kv_t){"orc.compress.size", "0"};
  CHECK_INT(hl_orc_write_options_init(&o, kv, 1, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
  kv[0] = (hl_kv_t){"orc.row.index.stride", "5000"};
  CHECK_INT(hl_orc_write_options_init(&o, kv, 1, &err), HL_OK);
  CHECK_INT(o.row_index_stride, 5000);
  kv[1] = (hl_kv_t){"orc.create.index", "FALSE"};
  CHECK_INT(hl_orc_write_options_init(&o, kv, 2, &err), HL_OK);
  CHECK_INT(o.row_index_stride, 0);
  CHECK_INT(hl_orc_write_options_init(&o, NULL, 0, &err), HL_OK);
  CHECK_INT(o.row_index_stride, 10000);
  CHECK_INT(o.compress_size, 262144);
  CHECK_INT(o.stripe_size, 64 << 20);
}

/* ------------------------------------------------------------ round trips through the reader */

static const char *const WORDS[] = {"", "a", "b", "hello", "ünïcode", "zz", "a b c", "x\ty"};

static void gen(const hl_type_t *t, hl_value_t *v, int null_pct, int distinct) {
  memset(v, 0, sizeof *v);
  if ((int)(rnd() % 100) < null_pct) {
    v->is_null = true;
    return;
  }
  switch (t->id) {
  case HL_T_BOOLEAN:
    v->u.b = rnd() & 1;
    break;
  case HL_T_TINYINT:
    v->u.i = (int8_t)rnd();
    break;
  case HL_T_SMALLINT:
    v->u.i = (int16_t)rnd();
    break;
  case HL_T_INT:
    v->u.i = rnd() % 3 ? (int32_t)(rnd() % 1000) : (int32_t)rnd();
    break;
  case HL_T_BIGINT:
    v->u.i = rnd() % 4 == 0   ? (int64_t)rnd()
             : rnd() % 3 == 0 ? (rnd() & 1 ? INT64_MIN : INT64_MAX)
                              : (int64_t)(rnd() % 100);
    break;
  case HL_T_FLOAT:
    v->u.d = (double)(float)((double)(int64_t)rnd() / 1e12);
    break;
  case HL_T_DOUBLE:
    v->u.d = (double)(int64_t)rnd() / 1e9;
    break;
  case HL_T_DECIMAL: {
    __int128 x = (__int128)(int64_t)rnd() * (int64_t)(rnd() >> 4); /* up to ~37 digits */
    if (rnd() % 5 == 0) x = (__int128)(int64_t)(rnd() % 1000) - 500;
    __int128 limit = 1;
    for (int k = 0; k < t->precision; k++)
      limit *= 10;
    v->u.dec = x % limit; /* within the type's precision */
    break;
  }
  case HL_T_DATE:
    v->u.i = (int64_t)(rnd() % 200000) - 100000;
    break;
  case HL_T_TIMESTAMP: {
    int64_t us = (int64_t)(rnd() % 6000000000000000ULL) - 2000000000000000LL;
    if (rnd() % 3 == 0) us -= us % 1000000;      /* whole seconds */
    if (!hl_orc_timestamp_ok(us)) us = -1000000; /* ORC cannot hold [-999 ms, 0) */
    v->u.i = us;
    break;
  }
  case HL_T_STRING:
  case HL_T_BINARY: {
    if (distinct > 0) {
      const char *w = WORDS[rnd() % (distinct < 8 ? (uint64_t)distinct : 8)];
      v->u.s = (hl_str_t){w, (uint32_t)strlen(w)};
    } else {
      char *b = hl_arena_sprintf(T.arena, "v%llu", (unsigned long long)rnd());
      v->u.s = (hl_str_t){b, (uint32_t)strlen(b)};
    }
    break;
  }
  case HL_T_VARCHAR: {
    const char *w = WORDS[rnd() % 4];
    v->u.s = (hl_str_t){w, (uint32_t)strlen(w)};
    break;
  }
  case HL_T_CHAR: {
    static const char *const c3[] = {"abc", "a  ", "   ", "xyz"};
    v->u.s = (hl_str_t){c3[rnd() % 4], 3};
    break;
  }
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT: {
    uint32_t n = t->id == HL_T_STRUCT ? (uint32_t)t->n_children : (uint32_t)(rnd() % 4);
    uint32_t slots = t->id == HL_T_MAP ? 2 * n : n;
    hl_value_t *it = items(slots ? (int)slots : 1);
    for (uint32_t i = 0; i < slots; i++) {
      const hl_type_t *ct = t->id == HL_T_ARRAY ? t->children[0]
                            : t->id == HL_T_MAP ? t->children[i & 1]
                                                : t->children[i];
      gen(ct, &it[i], t->id == HL_T_MAP && !(i & 1) ? 0 : 20, distinct);
      if (t->id == HL_T_MAP && !(i & 1) && ct->id == HL_T_INT)
        it[i].u.i = (int64_t)i; /* unique keys */
    }
    v->u.list.n = n;
    v->u.list.items = it;
    break;
  }
  default:
    v->is_null = true;
    break;
  }
}

static void fmt_row(hl_buf_t *b, int n, const hl_type_t *const *types, const hl_value_t *vals) {
  hl_buf_reset(b);
  for (int c = 0; c < n; c++) {
    if (c) hl_buf_putc(b, '|');
    hl_value_format(b, types[c], &vals[c]);
  }
}

/* Writes ROWS random rows of the columns SPEC ("name type; ...") with
 * OPTS, reads them back with the ORC reader and compares every row's text.
 * Returns the number of stripes written, -1 on a mismatch. */
static int roundtrip(const char *name, const char *spec, const hl_orc_write_options_t *opts,
                     int rows, int null_pct, int distinct) {
  const hl_type_t *types[16];
  const char *names[16];
  int n = 0;
  char *copy = hl_arena_strdup(T.arena, spec), *save = NULL;
  for (char *item = strtok_r(copy, ";", &save); item && n < 16; item = strtok_r(NULL, ";", &save)) {
    while (*item == ' ')
      item++;
    char *sp = strchr(item, ' ');
    *sp = '\0';
    names[n] = item;
    types[n++] = ptype(sp + 1);
  }
  const char *path = hl_arena_sprintf(T.arena, "%s/%s", T.dir, name);
  unlink(path);
  hl_error_t err;
  hl_err_init(&err);
  hl_orc_writer_t *w = NULL;
  if (hl_orc_writer_open(T.fs, path, opts, n, types, names, &w, &err) != HL_OK) return -1;
  char **want = hl_malloc((size_t)(rows ? rows : 1) * sizeof *want);
  hl_batch_t *batch = hl_batch_create(n, types);
  hl_buf_t b;
  hl_buf_init(&b);
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    hl_value_t v[16];
    for (int c = 0; c < n; c++) {
      gen(types[c], &v[c], null_pct, distinct);
      if (hl_vec_put_value(&batch->cols[c], batch->arena, batch->n_rows, &v[c]) != HL_OK) bad = 1;
      if (v[c].is_null) hl_vec_set_null(&batch->cols[c], batch->arena, batch->n_rows);
      hl_vec_get_value(&batch->cols[c], batch->n_rows, &v[c]); /* as the vector holds it */
    }
    fmt_row(&b, n, types, v);
    want[r] = hl_strdup(hl_buf_cstr(&b));
    batch->n_rows++;
    if (batch->n_rows == HL_BATCH_CAP || r == rows - 1) {
      if (hl_orc_writer_write(w, batch, &err) != HL_OK) bad = 1;
      hl_batch_reset(batch);
    }
  }
  if (hl_orc_writer_close(w, &err) != HL_OK) bad = 1;
  hl_orc_reader_t *rd = NULL;
  int got = 0;
  if (!bad && hl_orc_reader_open(T.fs, path, n, types, names, NULL, NULL, 0, &rd, &err) != HL_OK) {
    fprintf(stderr, "  reader open: %s\n", err.message);
    bad = 1;
  }
  while (!bad) {
    hl_batch_reset(batch);
    if (hl_orc_reader_next(rd, batch, &err) != HL_OK) {
      fprintf(stderr, "  reader next: %s\n", err.message);
      bad = 1;
      break;
    }
    if (batch->n_rows == 0) break;
    for (uint32_t r = 0; r < batch->n_rows; r++, got++) {
      hl_value_t v[16];
      for (int c = 0; c < n; c++)
        hl_vec_get_value(&batch->cols[c], r, &v[c]);
      fmt_row(&b, n, types, v);
      if (got >= rows || strcmp(want[got], hl_buf_cstr(&b)) != 0) {
        if (bad++ < 3)
          fprintf(stderr, "  %s row %d:\n    wrote %s\n    read  %s\n", name, got,
                  got < rows ? want[got] : "(none)", hl_buf_cstr(&b));
      }
    }
  }
  if (!bad && got != rows) {
    fprintf(stderr, "  %s: read %d rows of %d\n", name, got, rows);
    bad = 1;
  }
  uint64_t stripes = 0, read = 0;
  if (rd) hl_orc_reader_stripes(rd, &stripes, &read);
  hl_orc_reader_close(rd);
  for (int r = 0; r < rows; r++)
    hl_free(want[r]);
  hl_free(want);
  hl_buf_fini(&b);
  hl_batch_destroy(batch);
  hl_err_clear(&err);
  return bad ? -1 : (int)stripes;
}

static hl_orc_write_options_t default_options(void) {
  hl_orc_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  hl_orc_write_options_init(&o, NULL, 0, &err);
  return o;
}

static const char *const ALL_TYPES =
    "b boolean; t tinyint; sm smallint; i int; l bigint; f float; d double; s string; "
    "vc varchar(5); ch char(3); bin binary; dt date; ts timestamp; q decimal(38,6); "
    "q2 decimal(5,2)";

TEST(roundtrip_types) {
  hl_orc_write_options_t o = default_options();
  static const hl_orc_codec_t codecs[] = {HL_ORC_NONE, HL_ORC_ZLIB, HL_ORC_SNAPPY, HL_ORC_ZSTD,
                                          HL_ORC_LZ4};
  for (int k = 0; k < 5; k++) {
    o.codec = codecs[k];
    o.compress_size = k == 1 ? 1000 : HL_ORC_COMPRESS_SIZE; /* many chunks */
    for (int nulls = 0; nulls <= 100; nulls += 50) {
      char *name = hl_arena_sprintf(T.arena, "rt_%d_%d.orc", k, nulls);
      /* 3 distinct strings: dictionary; every one different: direct */
      CHECK_INT(roundtrip(name, ALL_TYPES, &o, 3000, nulls, 3), 1);
      CHECK_INT(roundtrip(name, ALL_TYPES, &o, 700, nulls, 0), 1);
    }
  }
  CHECK_INT(roundtrip("rt_one.orc", ALL_TYPES, &o, 1, 0, 3), 1);
  CHECK_INT(roundtrip("rt_zero.orc", ALL_TYPES, &o, 0, 0, 3), 0);
}

TEST(roundtrip_nested) {
  hl_orc_write_options_t o = default_options();
  const char *spec = "a array<int>; m map<string,double>; st struct<x:int,y:string,z:array<date>>; "
                     "deep array<struct<k:bigint,v:map<int,array<string>>>>; "
                     "ms map<int,struct<p:boolean,q:decimal(20,4)>>";
  for (int nulls = 0; nulls <= 60; nulls += 30) {
    char *name = hl_arena_sprintf(T.arena, "nested_%d.orc", nulls);
    CHECK_INT(roundtrip(name, spec, &o, 2500, nulls, 4), 1);
  }
  o.codec = HL_ORC_ZSTD;
  CHECK_INT(roundtrip("nested_zstd.orc", spec, &o, 500, 10, 0), 1);
}

TEST(roundtrip_stripes) {
  hl_orc_write_options_t o = default_options();
  o.stripe_size = 30000;
  int n = roundtrip("stripes_rt.orc", ALL_TYPES, &o, 6000, 10, 3);
  CHECK(n > 3);
  o.codec = HL_ORC_SNAPPY;
  o.stripe_size = 1; /* one row a stripe */
  CHECK_INT(roundtrip("stripe_each.orc", "i int; s string; a array<int>", &o, 50, 20, 2), 50);
}

/* ------------------------------------------------------------ row indexes */

/* Row r of the row-index test file: i INT (NULL when r % 7 == 3),
 * s STRING (4 words: dictionary), d STRING (all different: direct),
 * b BOOLEAN (NULL when r % 5 == 1), t TINYINT, x DOUBLE, a ARRAY<INT>
 * (r % 3 elements). */
static bool ri_i_null(long r) {
  return r % 7 == 3;
}
static bool ri_b_null(long r) {
  return r % 5 == 1;
}

static const char *ri_write(const char *name, hl_orc_codec_t codec, size_t block,
                            uint64_t stripe_size, int rows) {
  static const char *const spec[7] = {"int",     "string", "string",    "boolean",
                                      "tinyint", "double", "array<int>"};
  static const char *const names[7] = {"i", "s", "d", "b", "t", "x", "a"};
  const hl_type_t *types[7];
  for (int c = 0; c < 7; c++)
    types[c] = ptype(spec[c]);
  hl_orc_write_options_t o = default_options();
  o.codec = codec;
  o.compress_size = block;
  o.stripe_size = stripe_size;
  o.row_index_stride = 100;
  const char *path = hl_arena_sprintf(T.arena, "%s/%s", T.dir, name);
  unlink(path);
  hl_error_t err;
  hl_err_init(&err);
  hl_orc_writer_t *w = NULL;
  if (hl_orc_writer_open(T.fs, path, &o, 7, types, names, &w, &err) != HL_OK) return NULL;
  hl_batch_t *batch = hl_batch_create(7, types);
  for (long r = 0; r < rows; r++) {
    hl_value_t v[7];
    memset(v, 0, sizeof v);
    uint32_t row = batch->n_rows;
    v[0].is_null = ri_i_null(r);
    v[0].u.i = r * 3 - 1000;
    const char *word = WORDS[r % 4];
    v[1].u.s = (hl_str_t){word, (uint32_t)strlen(word)};
    char *d = hl_arena_sprintf(T.arena, "d%ld", r * 7919 % 100003);
    v[2].u.s = (hl_str_t){d, (uint32_t)strlen(d)};
    v[3].is_null = ri_b_null(r);
    v[3].u.b = r % 3 == 0;
    v[4].u.i = (int8_t)(r / 10);
    v[5].u.d = (double)r * 0.5;
    hl_value_t *it = items(3);
    for (int k = 0; k < 3; k++)
      it[k].u.i = r + k;
    v[6].u.list.n = (uint32_t)(r % 3);
    v[6].u.list.items = it;
    for (int c = 0; c < 7; c++) {
      hl_vec_put_value(&batch->cols[c], batch->arena, row, &v[c]);
      if (v[c].is_null) hl_vec_set_null(&batch->cols[c], batch->arena, row);
    }
    if (++batch->n_rows == HL_BATCH_CAP || r == rows - 1) {
      if (hl_orc_writer_write(w, batch, &err) != HL_OK) return NULL;
      hl_batch_reset(batch);
    }
  }
  hl_batch_destroy(batch);
  return hl_orc_writer_close(w, &err) == HL_OK ? path : NULL;
}

/* The uncompressed bytes of a stream from compressed offset FROM on. */
static bool ri_bytes(hl_orc_codec_t codec, const uint8_t *stream, size_t len, uint64_t from,
                     hl_buf_t *out) {
  hl_buf_reset(out);
  return from <= len && unchunk(codec, stream + from, len - from, out);
}

/* Checks one stream's positions (starting at POS[*pi]) against the whole
 * stream: decoding from the position must give the values from index K on.
 * MODE: 'r' RLE v2 (SIGNED), 'b' byte RLE, 'o' boolean RLE, 'w' raw bytes
 * (K is then a byte offset). */
static bool ri_check(hl_orc_codec_t codec, const uint8_t *stream, size_t len, const uint64_t *pos,
                     size_t n_pos, size_t *pi, char mode, bool is_signed, uint64_t k) {
  hl_buf_t whole, part;
  hl_buf_init(&whole);
  hl_buf_init(&part);
  bool ok = ri_bytes(codec, stream, len, 0, &whole);
  size_t need = (codec == HL_ORC_NONE ? 1 : 2) + (mode == 'w' ? 0 : 1) + (mode == 'o' ? 1 : 0);
  if (*pi + need > n_pos) ok = false;
  uint64_t chunk = ok ? pos[*pi] : 0, in_chunk = 0, skip = 0, bits = 0;
  if (ok) {
    size_t i = *pi + 1;
    if (codec != HL_ORC_NONE) in_chunk = pos[i++];
    if (mode != 'w') skip = pos[i++];
    if (mode == 'o') bits = pos[i++];
    *pi += need;
    if (codec == HL_ORC_NONE) { /* the position is the byte offset itself */
      in_chunk = chunk;
      chunk = 0;
    }
    ok = ri_bytes(codec, stream, len, chunk, &part) && in_chunk <= part.len;
  }
  const uint8_t *pp = ok ? (const uint8_t *)part.data + in_chunk : NULL;
  size_t plen = ok ? part.len - in_chunk : 0;
  if (ok && mode == 'w') {
    ok = whole.len - k == plen && memcmp(whole.data + k, pp, plen) == 0;
  } else if (ok && mode == 'r') {
    size_t ca = whole.len * 512 + 8, cb = plen * 512 + 8; /* a DELTA run: 512 values in 4 bytes */
    int64_t *a = hl_malloc(ca * sizeof *a), *b = hl_malloc(cb * sizeof *b);
    long na = hl_orc_unrle2((const uint8_t *)whole.data, whole.len, is_signed, a, ca);
    long nb = hl_orc_unrle2(pp, plen, is_signed, b, cb);
    ok = na >= 0 && nb >= 0 && (uint64_t)nb >= skip && (uint64_t)na >= k &&
         (uint64_t)nb - skip == (uint64_t)na - k &&
         memcmp(b + skip, a + k, ((uint64_t)na - k) * sizeof *a) == 0;
    hl_free(a);
    hl_free(b);
  } else if (ok) { /* byte RLE, or boolean RLE on top of it */
    uint8_t *a = hl_malloc(whole.len * 130 + 1), *b = hl_malloc(plen * 130 + 1);
    long na = hl_orc_byte_unrle((const uint8_t *)whole.data, whole.len, a, whole.len * 130 + 1);
    long nb = hl_orc_byte_unrle(pp, plen, b, plen * 130 + 1);
    ok = na >= 0 && nb >= 0 && (uint64_t)nb >= skip;
    if (ok && mode == 'b') {
      ok = (uint64_t)na >= k && (uint64_t)nb - skip == (uint64_t)na - k &&
           memcmp(b + skip, a + k, (uint64_t)na - k) == 0;
    } else if (ok) { /* flag k is bit BITS of the first byte left after SKIP */
      uint64_t total = (uint64_t)na * 8, left = ((uint64_t)nb - skip) * 8 - bits;
      ok = bits < 8 && total >= k && left == total - k;
      for (uint64_t j = 0; ok && j < left; j++) {
        uint64_t fa = k + j, fb = skip * 8 + bits + j;
        ok = ((a[fa >> 3] >> (7 - (fa & 7))) & 1) == ((b[fb >> 3] >> (7 - (fb & 7))) & 1);
      }
    }
    hl_free(a);
    hl_free(b);
  }
  hl_buf_fini(&whole);
  hl_buf_fini(&part);
  return ok;
}

/* Verifies every row index of the file written by ri_write; returns the
 * number of stripes. */
static int ri_verify(const char *path, int rows) {
  tail_t t;
  CHECK(path && read_tail(path, &t));
  if (!t.footer) return 0;
  hl_orc_codec_t codec = (hl_orc_codec_t)t.ps->compression;
  CHECK_INT(t.footer->row_index_stride, 100);
  long first = 0; /* first row of the stripe */
  int checked = 0;
  for (size_t si = 0; si < t.footer->n_stripes; si++) {
    const Orcpb__StripeInformation *sinfo = t.footer->stripes[si];
    hl_buf_t fb;
    hl_buf_init(&fb);
    const uint8_t *base = t.file + sinfo->offset;
    CHECK(
        unchunk(codec, base + sinfo->index_length + sinfo->data_length, sinfo->footer_length, &fb));
    Orcpb__StripeFooter *sf = orcpb__stripe_footer__unpack(NULL, fb.len, (uint8_t *)fb.data);
    hl_buf_fini(&fb);
    CHECK(sf != NULL);
    if (!sf) break;
    /* stream offsets, in footer order */
    const uint8_t *at[64][16] = {{0}};
    size_t len[64][16] = {{0}};
    uint64_t off = 0, index_len = 0;
    for (size_t i = 0; i < sf->n_streams; i++) {
      const Orcpb__Stream *st = sf->streams[i];
      if (st->column < 64 && st->kind < 16) {
        at[st->column][st->kind] = base + off;
        len[st->column][st->kind] = st->length;
      }
      if (st->kind == ORCPB__STREAM__KIND__ROW_INDEX) index_len += st->length;
      off += st->length;
    }
    CHECK_INT(index_len, sinfo->index_length);
    long n_rows = (long)sinfo->number_of_rows;
    size_t groups = (size_t)(n_rows + 99) / 100;
    /* columns 0..8: struct, i, s, d, b, t, x, a, a's element */
    for (int col = 0; col < 9; col++) {
      hl_buf_t ib;
      hl_buf_init(&ib);
      CHECK(at[col][ORCPB__STREAM__KIND__ROW_INDEX] != NULL);
      CHECK(unchunk(codec, at[col][6], len[col][6], &ib));
      Orcpb__RowIndex *ri = orcpb__row_index__unpack(NULL, ib.len, (uint8_t *)ib.data);
      hl_buf_fini(&ib);
      CHECK(ri && ri->n_entry == groups);
      bool dict = sf->columns[col]->kind == ORCPB__COLUMN_ENCODING__KIND__DICTIONARY_V2;
      for (size_t g = 0; ri && g < ri->n_entry; g++) {
        const Orcpb__RowIndexEntry *e = ri->entry[g];
        long r0 = first + (long)g * 100; /* the group's first row */
        uint64_t slots = (uint64_t)(r0 - first), i_vals = 0, b_vals = 0, elems = 0, dbytes = 0;
        for (long r = first; r < r0; r++) {
          i_vals += !ri_i_null(r);
          b_vals += !ri_b_null(r);
          elems += (uint64_t)(r % 3);
          dbytes += strlen(hl_arena_sprintf(T.arena, "d%ld", r * 7919 % 100003));
        }
        size_t pi = 0;
        bool ok = e->statistics != NULL;
        const uint8_t *const *sa = at[col];
        const size_t *sl = len[col];
        uint64_t *p = e->positions;
        size_t np = e->n_positions;
        if (sa[ORCPB__STREAM__KIND__PRESENT] && ok)
          ok = ri_check(codec, sa[0], sl[0], p, np, &pi, 'o', false, col == 8 ? elems : slots);
        switch (col) {
        case 1:
          ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'r', true, i_vals);
          break;
        case 2:
        case 3:
          if (dict)
            ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'r', false, slots);
          else
            ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'w', false, dbytes) &&
                 ri_check(codec, sa[2], sl[2], p, np, &pi, 'r', false, slots);
          break;
        case 4:
          ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'o', false, b_vals);
          break;
        case 5:
          ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'b', false, slots);
          break;
        case 6:
          ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'w', false, slots * 8);
          break;
        case 7:
          ok = ok && ri_check(codec, sa[2], sl[2], p, np, &pi, 'r', false, slots);
          break;
        case 8:
          ok = ok && ri_check(codec, sa[1], sl[1], p, np, &pi, 'r', true, elems);
          break;
        default:
          break;
        }
        ok = ok && pi == np; /* every position accounted for */
        if (!ok)
          fprintf(stderr, "  stripe %zu column %d group %zu: bad positions (%zu of %zu used)\n", si,
                  col, g, pi, np);
        CHECK(ok);
        checked++;
      }
      if (ri) {
        /* row-group statistics add up to the stripe's row count */
        uint64_t sum = 0;
        for (size_t g = 0; g < ri->n_entry; g++)
          sum += ri->entry[g]->statistics->number_of_values;
        if (col == 0) CHECK_INT(sum, (uint64_t)n_rows);
        orcpb__row_index__free_unpacked(ri, NULL);
      }
    }
    orcpb__stripe_footer__free_unpacked(sf, NULL);
    first += n_rows;
  }
  CHECK_INT(first, rows);
  CHECK(checked > 0);
  int n = (int)t.footer->n_stripes;
  free_tail(&t);
  return n;
}

/* Memory that does not grow with the data (issue 18): 600 stripes, each
 * cut by hl_orc_writer_flush as the writer budget does.  What a flushed
 * stripe leaves in the writer is its StripeInformation and its
 * StripeStatistics, packed: a bounded number of bytes per stripe.  The
 * tail must still describe every stripe, and every row read back. */
TEST(stripe_memory_bounded) {
  enum { STRIPES = 600, PER = 30 };
  const hl_type_t *types[3] = {ptype("bigint"), ptype("string"), ptype("array<int>")};
  const char *names[3] = {"i", "s", "a"};
  const char *path = hl_arena_sprintf(T.arena, "%s/flushed.orc", T.dir);
  unlink(path);
  hl_orc_write_options_t o = default_options();
  hl_error_t err;
  hl_err_init(&err);
  hl_orc_writer_t *w = NULL;
  CHECK_INT(hl_orc_writer_open(T.fs, path, &o, 3, types, names, &w, &err), HL_OK);
  hl_batch_t *batch = hl_batch_create(3, types);
  uint64_t mem20 = 0, mem600 = 0;
  for (int g = 0; w && g < STRIPES; g++) {
    hl_batch_reset(batch);
    for (int i = 0; i < PER; i++) {
      long r = (long)g * PER + i;
      hl_value_t v[3];
      memset(v, 0, sizeof v);
      v[0].u.i = r;
      char *str = hl_arena_sprintf(batch->arena, "s%ld", r % 500);
      v[1].u.s = (hl_str_t){str, (uint32_t)strlen(str)};
      hl_value_t *a = items(2);
      a[0].u.i = (int64_t)(r % 100);
      a[1].is_null = true;
      v[2].u.list.n = (uint32_t)(r % 3);
      v[2].u.list.items = a;
      for (int c = 0; c < 3; c++)
        hl_vec_put_value(&batch->cols[c], batch->arena, (uint32_t)i, &v[c]);
    }
    batch->n_rows = PER;
    CHECK_INT(hl_orc_writer_write(w, batch, &err), HL_OK);
    CHECK_INT(hl_orc_writer_flush(w, &err), HL_OK);
    if (g + 1 == 20) mem20 = hl_orc_writer_mem(w);
    if (g + 1 == STRIPES) mem600 = hl_orc_writer_mem(w);
  }
  /* 5 columns of stripe statistics (~20-40 bytes each) and a 15-byte
   * StripeInformation: ~150 bytes a stripe, up to twice that with buffer
   * doubling; a message struct per stripe took ~90 bytes more. */
  uint64_t per_stripe = (mem600 - mem20) / (STRIPES - 20);
  fprintf(stderr, "ORC writer memory: %llu bytes per flushed stripe of 3 columns\n",
          (unsigned long long)per_stripe);
  CHECK(per_stripe > 50);
  CHECK(per_stripe < 400);
  if (w) CHECK_INT(hl_orc_writer_close(w, &err), HL_OK);
  tail_t t;
  CHECK(read_tail(path, &t));
  if (t.footer) {
    CHECK_INT(t.footer->n_stripes, STRIPES);
    CHECK_INT(t.meta->n_stripe_stats, STRIPES);
    uint64_t end = 3, n_s = 0;
    for (size_t i = 0; i < t.footer->n_stripes; i++) {
      const Orcpb__StripeInformation *si = t.footer->stripes[i];
      CHECK_INT(si->offset, end);
      CHECK_INT(si->number_of_rows, PER);
      end += si->index_length + si->data_length + si->footer_length;
      const Orcpb__ColumnStats *cs = t.meta->stripe_stats[i]->col_stats[1];
      CHECK(cs->int_stats && cs->int_stats->minimum == (int64_t)i * PER &&
            cs->int_stats->maximum == (int64_t)i * PER + PER - 1);
      n_s += t.meta->stripe_stats[i]->col_stats[2]->number_of_values;
    }
    CHECK_INT(t.footer->content_length, end);
    CHECK_INT(t.footer->number_of_rows, STRIPES * PER);
    CHECK_INT(n_s, t.footer->statistics[2]->number_of_values);
  }
  free_tail(&t);
  hl_orc_reader_t *rd = NULL;
  CHECK_INT(hl_orc_reader_open(T.fs, path, 3, types, names, NULL, NULL, 0, &rd, &err), HL_OK);
  long got = 0, bad = 0;
  while (rd) {
    hl_batch_reset(batch);
    if (hl_orc_reader_next(rd, batch, &err) != HL_OK || batch->n_rows == 0) break;
    for (uint32_t i = 0; i < batch->n_rows; i++, got++) {
      hl_value_t v[3];
      for (int c = 0; c < 3; c++)
        hl_vec_get_value(&batch->cols[c], i, &v[c]);
      char want[32];
      snprintf(want, sizeof want, "s%ld", got % 500);
      if (v[0].u.i != got || v[1].u.s.len != strlen(want) ||
          memcmp(v[1].u.s.ptr, want, v[1].u.s.len) != 0 || v[2].u.list.n != (uint32_t)(got % 3) ||
          (v[2].u.list.n > 0 && v[2].u.list.items[0].u.i != got % 100) ||
          (v[2].u.list.n > 1 && !v[2].u.list.items[1].is_null))
        bad++;
    }
  }
  CHECK_INT(got, (long)STRIPES * PER);
  CHECK_INT(bad, 0);
  hl_orc_reader_close(rd);
  hl_batch_destroy(batch);
  hl_err_clear(&err);
}

TEST(row_index) {
  CHECK_INT(ri_verify(ri_write("ri_none.orc", HL_ORC_NONE, 0, 1 << 20, 1050), 1050), 1);
  CHECK_INT(ri_verify(ri_write("ri_zlib.orc", HL_ORC_ZLIB, 300, 1 << 20, 1050), 1050), 1);
  /* several stripes; tiny chunks (the test decompresses ZLIB only; the
   * other codecs go through the reader in the round trips) */
  CHECK(ri_verify(ri_write("ri_stripes.orc", HL_ORC_ZLIB, 1000, 20000, 2345), 2345) > 2);
  CHECK_INT(ri_verify(ri_write("ri_tiny.orc", HL_ORC_ZLIB, 64, 1 << 20, 777), 777), 1);
  CHECK(ri_verify(ri_write("ri_none_stripes.orc", HL_ORC_NONE, 0, 9000, 999), 999) > 2);
}

/* orc.column.encoding.direct: the named columns are never dictionaries */
TEST(direct_columns) {
  const hl_type_t *types[3] = {ptype("string"), ptype("string"), ptype("varchar(9)")};
  const char *names[3] = {"s1", "s2", "s3"};
  hl_kv_t kv[1] = {{"orc.column.encoding.direct", " S1 ,s3"}};
  hl_orc_write_options_t o;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_orc_write_options_init(&o, kv, 1, &err), HL_OK);
  o.codec = HL_ORC_NONE;
  const char *path = hl_arena_sprintf(T.arena, "%s/direct.orc", T.dir);
  hl_orc_writer_t *w = NULL;
  CHECK_INT(hl_orc_writer_open(T.fs, path, &o, 3, types, names, &w, &err), HL_OK);
  hl_batch_t *batch = hl_batch_create(3, types);
  for (uint32_t r = 0; r < 100; r++) {
    hl_value_t v = {.is_null = false, .u.s = {WORDS[r % 3], (uint32_t)strlen(WORDS[r % 3])}};
    for (int c = 0; c < 3; c++)
      hl_vec_put_value(&batch->cols[c], batch->arena, r, &v);
  }
  batch->n_rows = 100;
  CHECK_INT(hl_orc_writer_write(w, batch, &err), HL_OK);
  CHECK_INT(hl_orc_writer_close(w, &err), HL_OK);
  tail_t t;
  CHECK(read_tail(path, &t));
  if (t.footer && t.footer->n_stripes == 1) {
    const Orcpb__StripeInformation *si = t.footer->stripes[0];
    Orcpb__StripeFooter *sf = orcpb__stripe_footer__unpack(
        NULL, si->footer_length, t.file + si->offset + si->index_length + si->data_length);
    CHECK(sf && sf->n_columns == 4);
    if (sf && sf->n_columns == 4) {
      CHECK_INT(sf->columns[1]->kind, ORCPB__COLUMN_ENCODING__KIND__DIRECT_V2);
      CHECK_INT(sf->columns[2]->kind, ORCPB__COLUMN_ENCODING__KIND__DICTIONARY_V2);
      CHECK_INT(sf->columns[2]->dictionary_size, 3);
      CHECK_INT(sf->columns[3]->kind, ORCPB__COLUMN_ENCODING__KIND__DIRECT_V2);
      CHECK_STR(sf->writer_timezone, "UTC");
    }
    if (sf) orcpb__stripe_footer__free_unpacked(sf, NULL);
  }
  free_tail(&t);
  hl_batch_destroy(batch);
  kv[0].value = "s1,nope";
  CHECK_INT(hl_orc_write_options_init(&o, kv, 1, &err), HL_OK);
  unlink(path);
  CHECK_INT(hl_orc_writer_open(T.fs, path, &o, 3, types, names, &w, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
}

/* Around 1970-01-01 every value ORC can hold reads back as written; the
 * ones it cannot (1969-12-31 23:59:59.001 .. 23:59:59.999999, which read
 * back one second late in every ORC reader) are refused with 22008. */
TEST(timestamps_near_1970) {
  static const int64_t ok[] = {
      -1000000,          /* 1969-12-31 23:59:59 */
      -999999,           /* 23:59:59.000001 */
      -999001,           /* 23:59:59.000999: < 1 ms of fraction, stored as is */
      -1500000,          /* 23:59:58.5 */
      -1000001,          /* 23:59:58.999999 */
      -2000000 + 999000, /* 23:59:58.999 */
      0,
      1,
      999999, /* 1970-01-01 00:00:00.999999 */
      1000,
      -2208988800000000LL + 500000, /* 1900-01-01 00:00:00.5 */
      -2208988800000000LL - 1,      /* 1899-12-31 23:59:59.999999 */
  };
  int n = (int)(sizeof ok / sizeof ok[0]);
  const hl_type_t *types[1] = {ptype("timestamp")};
  const char *names[1] = {"ts"};
  hl_orc_write_options_t o = default_options();
  const char *path = hl_arena_sprintf(T.arena, "%s/ts1970.orc", T.dir);
  unlink(path);
  hl_error_t err;
  hl_err_init(&err);
  hl_orc_writer_t *w = NULL;
  CHECK_INT(hl_orc_writer_open(T.fs, path, &o, 1, types, names, &w, &err), HL_OK);
  hl_batch_t *batch = hl_batch_create(1, types);
  for (int r = 0; r < n; r++) {
    CHECK(hl_orc_timestamp_ok(ok[r]));
    hl_value_t v = {.is_null = false, .u.i = ok[r]};
    hl_vec_put_value(&batch->cols[0], batch->arena, (uint32_t)r, &v);
  }
  batch->n_rows = (uint32_t)n;
  CHECK_INT(hl_orc_writer_write(w, batch, &err), HL_OK);
  CHECK_INT(hl_orc_writer_close(w, &err), HL_OK);
  hl_orc_reader_t *rd = NULL;
  CHECK_INT(hl_orc_reader_open(T.fs, path, 1, types, names, NULL, NULL, 0, &rd, &err), HL_OK);
  hl_batch_reset(batch);
  if (rd) CHECK_INT(hl_orc_reader_next(rd, batch, &err), HL_OK);
  CHECK_INT(batch->n_rows, n);
  for (uint32_t r = 0; r < batch->n_rows && (int)r < n; r++) {
    hl_value_t v;
    hl_vec_get_value(&batch->cols[0], r, &v);
    if (v.u.i != ok[r])
      fprintf(stderr, "  row %u: wrote %lld, read %lld\n", r, (long long)ok[r], (long long)v.u.i);
    CHECK(!v.is_null && v.u.i == ok[r]);
  }
  hl_orc_reader_close(rd);
  /* the edges of what cannot be held, refused: nothing reads back wrong */
  static const int64_t bad[] = {-999000, -500000, -1000, -1};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    CHECK(!hl_orc_timestamp_ok(bad[k]));
    unlink(path);
    CHECK_INT(hl_orc_writer_open(T.fs, path, &o, 1, types, names, &w, &err), HL_OK);
    hl_batch_reset(batch);
    hl_value_t v = {.is_null = false, .u.i = bad[k]};
    hl_vec_put_value(&batch->cols[0], batch->arena, 0, &v);
    batch->n_rows = 1;
    CHECK_INT(hl_orc_writer_write(w, batch, &err), HL_ERROR);
    CHECK_STR(err.sqlstate, "22008");
    if (k == 0)
      CHECK_STR(err.message,
                hl_arena_sprintf(T.arena,
                                 "cannot write \"%s\": ORC cannot store TIMESTAMP '1969-12-31 "
                                 "23:59:59.001' (a time from 1969-12-31 23:59:59.001 to "
                                 "23:59:59.999999 reads back one second late in every ORC reader)",
                                 path));
    hl_err_clear(&err);
    hl_orc_writer_abort(w);
  }
  hl_batch_destroy(batch);
  hl_err_clear(&err);
}

int main(void) {
  if (test_tmpdir(T.dir, sizeof T.dir, "orcw") != 0) return 1;
  T.fs = hl_stor_local_create();
  T.arena = hl_arena_create(0);
  RUN(spec_examples);
  RUN(rle2_roundtrip);
  RUN(byte_rle_roundtrip);
  RUN(file_tail);
  RUN(options);
  RUN(roundtrip_types);
  RUN(roundtrip_nested);
  RUN(roundtrip_stripes);
  RUN(stripe_memory_bounded);
  RUN(row_index);
  RUN(direct_columns);
  RUN(timestamps_near_1970);
  hl_error_t err;
  hl_err_init(&err);
  T.fs->ops->remove_tree(T.fs, T.dir, &err);
  hl_err_clear(&err);
  hl_arena_destroy(T.arena);
  T.fs->ops->destroy(T.fs);
  return test_report();
}
