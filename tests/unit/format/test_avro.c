/*
 * test_avro.c -- unit tests of the Avro reader and writer (src/format/avro):
 * round trips through every codec with a fixed sync marker, count-only
 * reads, splits by sync marker, and bad input -- every truncation, every
 * flipped byte, a wrong sync marker, huge block counts and sizes, huge
 * item counts and string lengths inside a block -- which must end as
 * errors naming the file (XX001 with the block's offset for a damaged
 * block), never a crash, a hang or a silently shorter table.
 */
#include "format/avro/avro.h"

#include "format/avro/avro_int.h"
#include "format/text/text.h"
#include "mutate.h"
#include "test.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
  char dir[512];
  hl_stor_t *fs;
  hl_arena_t *arena;
} T;

static const uint8_t SYNC[16] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};

#define N_COLS 4
static const char *NAMES[N_COLS] = {"k", "s", "a", "d"};
static const hl_type_t *TYPES[N_COLS];

static const char *tpath(const char *name) {
  return hl_arena_sprintf(T.arena, "%s/%s", T.dir, name);
}

static size_t get_file(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

static hl_avro_schema_t *schema(void) {
  hl_avro_schema_t *s = NULL;
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_avro_table_schema(T.fs, T.arena, NULL, 0, NULL, 0, N_COLS, TYPES, NAMES, &s, &err),
            HL_OK);
  hl_err_clear(&err);
  return s;
}

/* Writes N rows (k, 's<k>', [k, k+1], k/4.0) with CODEC; every 5th row
 * NULL but k. */
static const char *write_rows(const char *name, hl_avro_codec_t codec, int n) {
  const char *path = tpath(name);
  unlink(path);
  hl_error_t err;
  hl_err_init(&err);
  hl_avro_writer_t *w = NULL;
  CHECK_INT(
      hl_avro_writer_open(T.fs, path, schema(), codec, 0, SYNC, N_COLS, TYPES, NAMES, &w, &err),
      HL_OK);
  hl_batch_t *b = hl_batch_create(N_COLS, TYPES);
  for (int row = 0; row < n;) {
    hl_batch_reset(b);
    for (; row < n && b->n_rows < HL_BATCH_CAP; row++) {
      uint32_t r = b->n_rows++;
      hl_value_t v = {.is_null = false};
      v.u.i = row;
      hl_vec_put_value(&b->cols[0], b->arena, r, &v);
      bool null = row % 5 == 4;
      char txt[32];
      snprintf(txt, sizeof txt, "s%d", row);
      hl_value_t s = {.is_null = null, .u.s = {txt, (uint32_t)strlen(txt)}};
      hl_vec_put_value(&b->cols[1], b->arena, r, &s);
      hl_value_t *items = hl_arena_zalloc(b->arena, sizeof(hl_value_t) * 2);
      items[0].u.i = row;
      items[1].u.i = row + 1;
      hl_value_t a = {.is_null = null, .u.list = {.n = 2, .items = items}};
      hl_vec_put_value(&b->cols[2], b->arena, r, &a);
      hl_value_t d = {.is_null = null, .u.d = row / 4.0};
      hl_vec_put_value(&b->cols[3], b->arena, r, &d);
    }
    CHECK_INT(hl_avro_writer_write(w, b, &err), HL_OK);
  }
  CHECK_INT(hl_avro_writer_close(w, &err), HL_OK);
  hl_batch_destroy(b);
  hl_err_clear(&err);
  return path;
}

typedef struct result {
  hl_status_t st;
  char sqlstate[6];
  char message[512];
  uint64_t rows;
  uint64_t sum_k, n_s; /* sum of k, non-NULL s */
  bool content_ok;     /* every row is what write_rows wrote */
} result_t;

/* Reads PATH (PROJECT false: nothing projected) [BEGIN, END). */
static result_t read_file(const char *path, bool project, uint64_t begin, uint64_t end) {
  result_t res;
  memset(&res, 0, sizeof res);
  res.content_ok = true;
  hl_error_t err;
  hl_err_init(&err);
  bool none[N_COLS] = {false};
  hl_avro_reader_t *r = NULL;
  hl_batch_t *b = hl_batch_create(N_COLS, TYPES);
  res.st = hl_avro_reader_open(T.fs, path, schema(), N_COLS, TYPES, NAMES, project ? NULL : none,
                               &r, &err);
  if (res.st == HL_OK && (begin || end != UINT64_MAX))
    res.st = hl_avro_reader_set_range(r, begin, end, &err);
  while (res.st == HL_OK) {
    hl_batch_reset(b);
    res.st = hl_avro_reader_next(r, b, &err);
    if (res.st != HL_OK || b->n_rows == 0) break;
    for (uint32_t i = 0; project && i < b->n_rows; i++) {
      hl_value_t k, s, a, d;
      hl_vec_get_value(&b->cols[0], i, &k);
      hl_vec_get_value(&b->cols[1], i, &s);
      hl_vec_get_value(&b->cols[2], i, &a);
      hl_vec_get_value(&b->cols[3], i, &d);
      res.sum_k += (uint64_t)k.u.i;
      res.n_s += !s.is_null;
      char txt[32];
      snprintf(txt, sizeof txt, "s%lld", (long long)k.u.i);
      bool null = k.u.i % 5 == 4;
      if (k.is_null || s.is_null != null || a.is_null != null || d.is_null != null ||
          (!null &&
           (s.u.s.len != strlen(txt) || memcmp(s.u.s.ptr, txt, s.u.s.len) != 0 || a.u.list.n != 2 ||
            a.u.list.items[1].u.i != k.u.i + 1 || d.u.d != k.u.i / 4.0)))
        res.content_ok = false;
    }
    res.rows += b->n_rows;
  }
  if (res.st != HL_OK) {
    snprintf(res.sqlstate, sizeof res.sqlstate, "%s", err.sqlstate);
    snprintf(res.message, sizeof res.message, "%s", err.message ? err.message : "");
  }
  hl_avro_reader_close(r);
  hl_batch_destroy(b);
  hl_err_clear(&err);
  return res;
}

TEST(round_trip_codecs) {
  const hl_avro_codec_t codecs[] = {HL_AVRO_NULL, HL_AVRO_DEFLATE, HL_AVRO_SNAPPY,
                                    HL_AVRO_ZSTD, HL_AVRO_XZ,      HL_AVRO_BZIP2};
  for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
    const char *p = write_rows(hl_arena_sprintf(T.arena, "rt_%d.avro", (int)c), codecs[c], 10000);
    result_t r = read_file(p, true, 0, UINT64_MAX);
    CHECK_INT(r.st, HL_OK);
    CHECK_INT(r.rows, 10000);
    CHECK_INT(r.sum_k, 49995000);
    CHECK_INT(r.n_s, 8000);
    CHECK(r.content_ok);
    result_t n = read_file(p, false, 0, UINT64_MAX);
    CHECK_INT(n.st, HL_OK);
    CHECK_INT(n.rows, 10000);
  }
}

/* Splits of any size read every row exactly once. */
TEST(splits) {
  const char *p = write_rows("split.avro", HL_AVRO_DEFLATE, 20000);
  struct stat st;
  stat(p, &st);
  uint64_t size = (uint64_t)st.st_size;
  for (int parts = 1; parts <= 7; parts++) {
    uint64_t rows = 0, sum = 0;
    for (int i = 0; i < parts; i++) {
      result_t r = read_file(p, true, size * (uint64_t)i / (uint64_t)parts,
                             size * (uint64_t)(i + 1) / (uint64_t)parts);
      CHECK_INT(r.st, HL_OK);
      rows += r.rows;
      sum += r.sum_k;
    }
    CHECK_INT(rows, 20000);
    CHECK_INT(sum, 199990000);
  }
}

/* Shared readers (the threads of a parallel scan): for any number of
 * threads and piece size, the threads together read every row and every
 * block exactly once, each batch from one of the thread's own pieces, in
 * increasing piece order; the rows of piece i all come before those of
 * piece i + 1. */
TEST(shares) {
  const char *p = write_rows("share.avro", HL_AVRO_SNAPPY, 30000);
  hl_error_t err;
  hl_err_init(&err);
  bool none[N_COLS] = {false};
  hl_batch_t *b = hl_batch_create(N_COLS, TYPES);
  uint64_t whole_blocks = 0;
  {
    hl_avro_reader_t *r = NULL;
    CHECK_INT(hl_avro_reader_open(T.fs, p, schema(), N_COLS, TYPES, NAMES, NULL, &r, &err), HL_OK);
    do {
      hl_batch_reset(b);
      CHECK_INT(hl_avro_reader_next(r, b, &err), HL_OK);
    } while (b->n_rows);
    whole_blocks = hl_avro_reader_blocks(r);
    hl_avro_reader_close(r);
  }
  CHECK(whole_blocks > 3);
  const uint64_t pieces[] = {1, 1000, 65536, 100000, (uint64_t)1 << 30};
  for (int count_only = 0; count_only < 2; count_only++)
    for (size_t pi = 0; pi < sizeof pieces / sizeof pieces[0]; pi++)
      for (int n = 1; n <= 3; n++) {
        uint64_t rows = 0, sum = 0, blocks = 0;
        size_t n_pieces = 0;
        int64_t *lo = NULL, *hi = NULL; /* k of each piece's first and last row */
        for (int w = 0; w < n; w++) {
          hl_avro_reader_t *r = NULL;
          CHECK_INT(hl_avro_reader_open(T.fs, p, schema(), N_COLS, TYPES, NAMES,
                                        count_only ? none : NULL, &r, &err),
                    HL_OK);
          n_pieces = hl_avro_reader_share(r, pieces[pi], 5, n, w);
          CHECK(n_pieces >= 1);
          if (!lo) {
            lo = calloc(n_pieces, sizeof *lo);
            hi = calloc(n_pieces, sizeof *hi);
            for (size_t i = 0; i < n_pieces; i++)
              lo[i] = hi[i] = -1;
          }
          size_t prev = 0;
          bool first = true;
          for (;;) {
            hl_batch_reset(b);
            CHECK_INT(hl_avro_reader_next(r, b, &err), HL_OK);
            if (b->n_rows == 0) break;
            size_t piece = hl_avro_reader_current_piece(r);
            CHECK(piece < n_pieces);
            CHECK_INT((5 + piece) % (size_t)n, (size_t)w);
            CHECK(first || piece >= prev);
            first = false;
            prev = piece;
            rows += b->n_rows;
            for (uint32_t i = 0; !count_only && i < b->n_rows; i++) {
              hl_value_t k;
              hl_vec_get_value(&b->cols[0], i, &k);
              sum += (uint64_t)k.u.i;
              /* rows of a piece are consecutive */
              CHECK(hi[piece] < 0 || k.u.i == hi[piece] + 1);
              if (lo[piece] < 0) lo[piece] = k.u.i;
              hi[piece] = k.u.i;
            }
          }
          blocks += hl_avro_reader_blocks(r);
          hl_avro_reader_close(r);
        }
        /* in piece order the rows follow one another: 0, 1, ..., 29999 */
        int64_t next_k = 0;
        for (size_t i = 0; !count_only && i < n_pieces; i++)
          if (lo[i] >= 0) {
            CHECK_INT(lo[i], next_k);
            next_k = hi[i] + 1;
          }
        if (!count_only) CHECK_INT(next_k, 30000);
        free(lo);
        free(hi);
        CHECK_INT(rows, 30000);
        if (!count_only) CHECK_INT(sum, 449985000);
        CHECK_INT(blocks, whole_blocks);
      }
  hl_batch_destroy(b);
  hl_err_clear(&err);
}

static bool is_error_state(const result_t *r) {
  return strcmp(r->sqlstate, "XX001") == 0 || strcmp(r->sqlstate, "42804") == 0 ||
         strcmp(r->sqlstate, "0A000") == 0 || strcmp(r->sqlstate, "42P16") == 0;
}

/* One block (null codec): every prefix past the header is an error, and
 * its message names the file. */
TEST(truncations) {
  const char *p = write_rows("trunc.avro", HL_AVRO_NULL, 200);
  static unsigned char orig[1 << 16];
  size_t len = get_file(p, orig, sizeof orig);
  CHECK(len > 100);
  /* where the block starts: right after the header's sync marker */
  size_t header = 0;
  for (size_t i = 16; i + 16 <= len && !header; i++)
    if (memcmp(orig + i, SYNC, 16) == 0) header = i + 16;
  const char *q = tpath("trunc_cut.avro");
  for (size_t n = 0; n < len; n++) {
    mutate_write(q, orig, n);
    for (int proj = 0; proj < 2; proj++) {
      result_t r = read_file(q, proj, 0, UINT64_MAX);
      if (n == 0 || n == header) { /* an empty file, a file of no blocks */
        CHECK_INT(r.st, HL_OK);
        CHECK_INT(r.rows, 0);
        continue;
      }
      CHECK(r.st != HL_OK);
      CHECK_STR(r.sqlstate, "XX001");
      CHECK(strstr(r.message, "trunc_cut.avro") != NULL);
      if (n > header) CHECK(strstr(r.message, "offset") != NULL);
    }
  }
}

/* Flipped and replaced bytes (deflate and null blocks): an error or rows,
 * never a crash; damage in a block is never a silent loss. */
TEST(flipped_bytes) {
  const hl_avro_codec_t codecs[] = {HL_AVRO_NULL, HL_AVRO_DEFLATE, HL_AVRO_SNAPPY, HL_AVRO_ZSTD};
  for (size_t c = 0; c < 4; c++) {
    const char *p = write_rows(hl_arena_sprintf(T.arena, "flip%d.avro", (int)c), codecs[c], 300);
    static unsigned char orig[1 << 16], buf[1 << 16];
    size_t len = get_file(p, orig, sizeof orig);
    const char *q = tpath("flip_cut.avro");
    for (size_t pos = 0; pos < len; pos++) {
      memcpy(buf, orig, len);
      buf[pos] ^= 0xff;
      mutate_write(q, buf, len);
      result_t r = read_file(q, true, 0, UINT64_MAX);
      if (r.st != HL_OK) {
        CHECK(is_error_state(&r));
        continue;
      }
      /* read through: the damage was in a value (a string's bytes, a
       * double) or a header entry nobody reads; never fewer rows */
      CHECK_INT(r.rows, 300);
      result_t n = read_file(q, false, 0, UINT64_MAX);
      CHECK(n.st != HL_OK || n.rows == 300);
    }
    for (int v = 40; v < 400; v++) { /* 1 to 4 random bytes */
      size_t n = mutate(orig, len, buf, v);
      mutate_write(q, buf, n);
      result_t r = read_file(q, v % 2, 0, UINT64_MAX);
      CHECK(r.st == HL_OK || is_error_state(&r));
    }
  }
}

TEST(wrong_sync) {
  const char *p = write_rows("sync.avro", HL_AVRO_DEFLATE, 50);
  static unsigned char buf[1 << 16];
  size_t len = get_file(p, buf, sizeof buf);
  buf[len - 1] ^= 1;
  const char *q = tpath("sync_bad.avro");
  mutate_write(q, buf, len);
  for (int proj = 0; proj < 2; proj++) {
    result_t r = read_file(q, proj, 0, UINT64_MAX);
    CHECK_STR(r.sqlstate, "XX001");
    CHECK(strstr(r.message, "wrong sync marker after the block") != NULL);
    CHECK(strstr(r.message, "sync_bad.avro") != NULL);
  }
}

/* A hand-made file: the header of write_rows's schema, then BLOCK. */
static const char *craft(const char *name, const unsigned char *block, size_t n) {
  const char *p = write_rows("craft_src.avro", HL_AVRO_NULL, 0);
  static unsigned char buf[1 << 16];
  size_t len = get_file(p, buf, sizeof buf); /* header only: no rows, no block */
  memcpy(buf + len, block, n);
  const char *q = tpath(name);
  mutate_write(q, buf, len + n);
  return q;
}

static size_t put_varint(unsigned char *p, int64_t v) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_avro_put_long(&b, v);
  size_t n = b.len;
  memcpy(p, b.data, n);
  hl_buf_fini(&b);
  return n;
}

TEST(huge_counts_and_lengths) {
  unsigned char blk[256];
  size_t n;
  /* 2^62 records in 3 bytes */
  n = put_varint(blk, (int64_t)1 << 62);
  n += put_varint(blk + n, 3);
  memcpy(blk + n, "\x02\x02\x00", 3);
  n += 3;
  memcpy(blk + n, SYNC, 16);
  n += 16;
  const char *p = craft("huge_count.avro", blk, n);
  for (int proj = 0; proj < 2; proj++) {
    result_t r = read_file(p, proj, 0, UINT64_MAX);
    CHECK_STR(r.sqlstate, "XX001");
    CHECK(strstr(r.message, "fewer bytes than its records need") != NULL);
  }
  /* a block size past the end of the file, and beyond 256 MiB */
  n = put_varint(blk, 1);
  n += put_varint(blk + n, 1000);
  p = craft("huge_size.avro", blk, n);
  result_t r = read_file(p, true, 0, UINT64_MAX);
  CHECK(strstr(r.message, "block runs past the end of the file") != NULL);
  n = put_varint(blk, 1);
  n += put_varint(blk + n, (int64_t)1 << 40);
  p = craft("huge_size2.avro", blk, n);
  r = read_file(p, false, 0, UINT64_MAX);
  CHECK(strstr(r.message, "block larger than 256 MiB") != NULL);
  /* negative count */
  n = put_varint(blk, -1);
  n += put_varint(blk + n, 0);
  memcpy(blk + n, SYNC, 16);
  n += 16;
  r = read_file(craft("neg.avro", blk, n), true, 0, UINT64_MAX);
  CHECK(strstr(r.message, "negative block count or size") != NULL);
  /* one record: k = 1, s = a string of length 2^40, ... */
  unsigned char rec[64];
  size_t m = 0;
  rec[m++] = 2; /* union branch 1 */
  rec[m++] = 2; /* k = 1 */
  rec[m++] = 2; /* s: branch 1 */
  m += put_varint(rec + m, (int64_t)1 << 40);
  n = put_varint(blk, 1);
  n += put_varint(blk + n, (int64_t)m);
  memcpy(blk + n, rec, m);
  n += m;
  memcpy(blk + n, SYNC, 16);
  n += 16;
  r = read_file(craft("huge_string.avro", blk, n), true, 0, UINT64_MAX);
  CHECK_STR(r.sqlstate, "XX001");
  CHECK(strstr(r.message, "length runs past the block") != NULL);
  /* ... s NULL, a: an array claiming 2^50 items */
  m = 0;
  rec[m++] = 2;
  rec[m++] = 2;
  rec[m++] = 0; /* s NULL */
  rec[m++] = 2; /* a: branch 1 */
  m += put_varint(rec + m, (int64_t)1 << 50);
  rec[m++] = 0;
  n = put_varint(blk, 1);
  n += put_varint(blk + n, (int64_t)m);
  memcpy(blk + n, rec, m);
  n += m;
  memcpy(blk + n, SYNC, 16);
  n += 16;
  r = read_file(craft("huge_array.avro", blk, n), true, 0, UINT64_MAX);
  CHECK_STR(r.sqlstate, "XX001");
  CHECK(strstr(r.message, "item count runs past the block") != NULL);
  CHECK(strstr(r.message, "huge_array.avro") != NULL);
  /* trailing bytes after the last record */
  m = 0;
  rec[m++] = 2;
  rec[m++] = 2;
  rec[m++] = 0;
  rec[m++] = 0;
  rec[m++] = 0;
  rec[m++] = 7; /* garbage */
  n = put_varint(blk, 1);
  n += put_varint(blk + n, (int64_t)m);
  memcpy(blk + n, rec, m);
  n += m;
  memcpy(blk + n, SYNC, 16);
  n += 16;
  r = read_file(craft("trailing.avro", blk, n), true, 0, UINT64_MAX);
  CHECK(strstr(r.message, "bytes after its last record") != NULL);
}

TEST(not_avro) {
  const char *p = tpath("text.avro");
  mutate_write(p, (const unsigned char *)"hello world, not avro", 21);
  result_t r = read_file(p, true, 0, UINT64_MAX);
  CHECK_STR(r.sqlstate, "XX001");
  CHECK(strstr(r.message, "not an Avro object container file") != NULL);
}

int main(void) {
  const char *base = getenv("HIVELITE_TEST_TMP");
  snprintf(T.dir, sizeof T.dir, "%s/test_avro_%d", base ? base : "/tmp", (int)getpid());
  mkdir(base ? base : "/tmp", 0755);
  mkdir(T.dir, 0755);
  T.fs = hl_stor_local_create();
  T.arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  const char *types[N_COLS] = {"bigint", "string", "array<int>", "double"};
  for (int i = 0; i < N_COLS; i++) {
    hl_type_t *t = NULL;
    if (hl_type_parse_str(T.arena, types[i], &t, &err) != HL_OK) return 1;
    TYPES[i] = t;
  }
  RUN(round_trip_codecs);
  RUN(splits);
  RUN(shares);
  RUN(truncations);
  RUN(flipped_bytes);
  RUN(wrong_sync);
  RUN(huge_counts_and_lengths);
  RUN(not_avro);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", T.dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", T.dir);
  T.fs->ops->destroy(T.fs);
  hl_arena_destroy(T.arena);
  return test_report();
}
