/*
 * test_arrow.c -- the Arrow C Data Interface of include/hivelite.h:
 * hl_stmt_arrow_schema's format strings, names and flags for every type,
 * and hl_stmt_arrow_next's buffers checked byte for byte (validity
 * bitmaps, offsets, values, nested children) with NULLs at every level;
 * empty results, several batches, rows shared with hl_step, errors, and
 * the release rules (children moved out and released before or after
 * their parent, arrays used after hl_finalize and hl_close).  Run under
 * ASan (build-asan) for leaks.
 */
#include "test.h"

#include "hivelite.h"
#include "util/mem.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static hl_db_t *open_db(const char *name) {
  char dir[512];
  if (test_tmpdir(dir, sizeof dir, name) != 0) return NULL;
  hl_db_t *db = NULL;
  if (hl_open(dir, NULL, &db) != HL_OK) {
    fprintf(stderr, "  open: %s\n", db ? hl_errmsg(db) : "out of memory");
    hl_close(db);
    return NULL;
  }
  return db;
}

static hl_stmt_t *prepare(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = NULL;
  if (hl_prepare(db, sql, &st, NULL) != HL_OK || !st) {
    fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
    hl_finalize(st);
    return NULL;
  }
  return st;
}

static int exec_sql(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = prepare(db, sql);
  if (!st) return -1;
  hl_status_t rc;
  while ((rc = hl_step(st)) == HL_ROW)
    ;
  if (rc != HL_DONE) fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
  hl_finalize(st);
  return rc == HL_DONE ? 0 : -1;
}

static void check_field(const struct ArrowSchema *s, const char *format, const char *name,
                        int64_t flags, int64_t n_children) {
  CHECK_STR(s->format, format);
  CHECK_STR(s->name, name);
  CHECK_INT(s->flags, flags);
  CHECK_INT(s->n_children, n_children);
  CHECK(s->metadata == NULL);
  CHECK(s->dictionary == NULL);
  CHECK(s->release != NULL);
}

#define TYPES_SQL                                                                                  \
  "SELECT NULL AS n, true AS b, 1Y AS t, 2S AS sm, 3 AS i, 4L AS l, CAST(1.5 AS FLOAT) AS f, "     \
  "2.5D AS d, CAST(1 AS DECIMAL(12,3)) AS dec, 's' AS str, CAST('v' AS VARCHAR(10)) AS vc, "       \
  "CAST('c' AS CHAR(5)) AS ch, DATE '2024-01-02' AS dt, TIMESTAMP '2024-01-02 03:04:05' AS ts, "   \
  "CAST('b' AS BINARY) AS bin, array(1) AS arr, map('k', array(1)) AS m, "                         \
  "named_struct('a', 1, 'b', named_struct('c', 'x')) AS st"

static void check_types_schema(const struct ArrowSchema *s) {
  const int64_t N = ARROW_FLAG_NULLABLE;
  check_field(s, "+s", "", 0, 18);
  if (s->n_children != 18) return;
  struct ArrowSchema **c = s->children;
  check_field(c[0], "n", "n", N, 0);
  check_field(c[1], "b", "b", N, 0);
  check_field(c[2], "c", "t", N, 0);
  check_field(c[3], "s", "sm", N, 0);
  check_field(c[4], "i", "i", N, 0);
  check_field(c[5], "l", "l", N, 0);
  check_field(c[6], "f", "f", N, 0);
  check_field(c[7], "g", "d", N, 0);
  check_field(c[8], "d:12,3", "dec", N, 0);
  check_field(c[9], "u", "str", N, 0);
  check_field(c[10], "u", "vc", N, 0);
  check_field(c[11], "u", "ch", N, 0);
  check_field(c[12], "tdD", "dt", N, 0);
  check_field(c[13], "tsu:", "ts", N, 0);
  check_field(c[14], "z", "bin", N, 0);
  check_field(c[15], "+l", "arr", N, 1);
  check_field(c[15]->children[0], "i", "item", N, 0);
  /* map<string,array<int>>: entries and key not nullable */
  check_field(c[16], "+m", "m", N, 1);
  const struct ArrowSchema *e = c[16]->children[0];
  check_field(e, "+s", "entries", 0, 2);
  check_field(e->children[0], "u", "key", 0, 0);
  check_field(e->children[1], "+l", "value", N, 1);
  check_field(e->children[1]->children[0], "i", "item", N, 0);
  check_field(c[17], "+s", "st", N, 2);
  check_field(c[17]->children[0], "i", "a", N, 0);
  check_field(c[17]->children[1], "+s", "b", N, 1);
  check_field(c[17]->children[1]->children[0], "u", "c", N, 0);
}

TEST(schema_every_type) {
  hl_db_t *db = open_db("arrow_schema");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = prepare(db, TYPES_SQL);
  if (st) {
    /* before the query runs (described), then after its first step */
    struct ArrowSchema s;
    CHECK_INT(hl_stmt_arrow_schema(st, &s), HL_OK);
    check_types_schema(&s);
    s.release(&s);
    CHECK(s.release == NULL);
    CHECK_INT(hl_step(st), HL_ROW);
    CHECK_INT(hl_stmt_arrow_schema(st, &s), HL_OK);
    check_types_schema(&s);
    /* a child moved out outlives its parent */
    struct ArrowSchema moved = *s.children[16];
    s.children[16]->release = NULL;
    s.release(&s);
    check_field(&moved, "+m", "m", ARROW_FLAG_NULLABLE, 1);
    check_field(moved.children[0]->children[0], "u", "key", 0, 0);
    moved.release(&moved);
    CHECK(moved.release == NULL);
    CHECK_INT(hl_stmt_arrow_schema(st, NULL), HL_MISUSE);
  }
  hl_finalize(st);
  /* a statement that has not described columns: a struct of none */
  st = prepare(db, "CREATE DATABASE arrow_db");
  if (st) {
    struct ArrowSchema s;
    CHECK_INT(hl_stmt_arrow_schema(st, &s), HL_OK);
    check_field(&s, "+s", "", 0, 0);
    s.release(&s);
  }
  hl_finalize(st);
  hl_close(db);
}

/* buffer I of A as bytes */
static const uint8_t *buf(const struct ArrowArray *a, int i) {
  return (const uint8_t *)a->buffers[i];
}

static void check_array(const struct ArrowArray *a, int64_t length, int64_t null_count,
                        int64_t n_buffers, int64_t n_children) {
  CHECK_INT(a->length, length);
  CHECK_INT(a->null_count, null_count);
  CHECK_INT(a->offset, 0);
  CHECK_INT(a->n_buffers, n_buffers);
  CHECK_INT(a->n_children, n_children);
  CHECK(a->dictionary == NULL);
  CHECK(a->release != NULL);
  for (int64_t i = 1; i < n_buffers; i++)
    CHECK(a->buffers[i] != NULL); /* only the bitmap may be NULL */
}

static void check_validity(const struct ArrowArray *a, unsigned bits) {
  if (a->null_count == 0) {
    CHECK(a->buffers[0] == NULL);
    return;
  }
  CHECK(a->buffers[0] != NULL);
  if (!a->buffers[0]) return;
  unsigned mask = a->length >= 8 ? 0xff : (1u << a->length) - 1;
  CHECK_INT(buf(a, 0)[0] & mask, bits);
}

static void check_offsets(const struct ArrowArray *a, const int32_t *want, int n) {
  const int32_t *o = a->buffers[1];
  for (int i = 0; o && i < n; i++)
    CHECK_INT(o[i], want[i]);
}

/* the rows of VALUES_SQL: every type, a row of NULLs, and edge values;
 * the WHERE drops a fourth row, so the batch carries a selection */
#define VALUES_SQL                                                                                 \
  "SELECT * FROM ("                                                                                \
  "SELECT 1 AS k, true AS b, -128Y AS t, 32767S AS sm, -2147483648 AS i, "                         \
  "9223372036854775807L AS l, CAST(1.5 AS FLOAT) AS f, -0.25D AS d, "                              \
  "CAST(-12345678901234567890.125 AS DECIMAL(38,3)) AS dec, 'ab' AS str, "                         \
  "CAST('c' AS CHAR(3)) AS ch, DATE '1969-12-31' AS dt, "                                          \
  "TIMESTAMP '1970-01-01 00:00:01.000002' AS ts, CAST('xyz' AS BINARY) AS bin, "                   \
  "array(1, NULL, 3) AS arr, map('a', 1, 'b', NULL) AS m, "                                        \
  "named_struct('a', 1, 'b', 'x') AS st, NULL AS n "                                               \
  "UNION ALL SELECT 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "         \
  "NULL, NULL, CAST(NULL AS array<int>), CAST(NULL AS map<string,int>), "                          \
  "CAST(NULL AS struct<a:int,b:string>), NULL "                                                    \
  "UNION ALL SELECT 9, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "         \
  "NULL, NULL, NULL, NULL, NULL, NULL "                                                            \
  "UNION ALL SELECT 3, false, 127Y, -32768S, 2147483647, -1L, CAST(-3 AS FLOAT), 1e300D, "         \
  "CAST(2.5 AS DECIMAL(38,3)), '', CAST('abcd' AS CHAR(3)), DATE '1970-01-02', "                   \
  "TIMESTAMP '1969-12-31 23:59:59', CAST('' AS BINARY), CAST(array() AS array<int>), "             \
  "CAST(map() AS map<string,int>), named_struct('a', CAST(NULL AS INT), 'b', 'y'), NULL"           \
  ") u WHERE k <> 9"

static void check_values_batch(const struct ArrowArray *a) {
  check_array(a, 3, 0, 1, 18);
  CHECK(a->buffers[0] == NULL);
  if (a->n_children != 18) return;
  struct ArrowArray **c = a->children;
  /* k: int, no NULLs, no bitmap */
  check_array(c[0], 3, 0, 2, 0);
  check_validity(c[0], 0);
  const int32_t *k = c[0]->buffers[1];
  CHECK(k[0] == 1 && k[1] == 2 && k[2] == 3);
  /* b: bits true, (null), false */
  check_array(c[1], 3, 1, 2, 0);
  check_validity(c[1], 0x5);
  CHECK_INT(buf(c[1], 1)[0] & 0x7, 0x1);
  /* t, sm, i, l: the slot of a NULL holds 0 */
  check_array(c[2], 3, 1, 2, 0);
  check_validity(c[2], 0x5);
  const int8_t *t = c[2]->buffers[1];
  CHECK(t[0] == -128 && t[1] == 0 && t[2] == 127);
  const int16_t *sm = c[3]->buffers[1];
  check_array(c[3], 3, 1, 2, 0);
  CHECK(sm[0] == 32767 && sm[1] == 0 && sm[2] == -32768);
  const int32_t *i = c[4]->buffers[1];
  check_array(c[4], 3, 1, 2, 0);
  CHECK(i[0] == INT32_MIN && i[1] == 0 && i[2] == INT32_MAX);
  const int64_t *l = c[5]->buffers[1];
  check_array(c[5], 3, 1, 2, 0);
  CHECK(l[0] == INT64_MAX && l[1] == 0 && l[2] == -1);
  /* f: 4-byte floats; d: doubles */
  const float *f = c[6]->buffers[1];
  check_array(c[6], 3, 1, 2, 0);
  CHECK(f[0] == 1.5f && f[1] == 0 && f[2] == -3.0f);
  const double *d = c[7]->buffers[1];
  check_array(c[7], 3, 1, 2, 0);
  CHECK(d[0] == -0.25 && d[1] == 0 && d[2] == 1e300);
  /* dec: 16 bytes, two's complement, little-endian: -12345678901234567890125 */
  check_array(c[8], 3, 1, 2, 0);
  check_validity(c[8], 0x5);
  const uint8_t *dec = buf(c[8], 1);
  __int128 want = -(__int128)12345678901234567890ULL * 1000 - 125;
  uint8_t le[16];
  for (int b = 0; b < 16; b++)
    le[b] = (uint8_t)((unsigned __int128)want >> (8 * b));
  CHECK(memcmp(dec, le, 16) == 0);
  static const uint8_t zero16[16];
  CHECK(memcmp(dec + 16, zero16, 16) == 0);
  uint8_t two_and_half[16] = {0xc4, 0x09}; /* 2500 */
  CHECK(memcmp(dec + 32, two_and_half, 16) == 0);
  /* str: "ab", NULL, "" */
  check_array(c[9], 3, 1, 3, 0);
  check_validity(c[9], 0x5);
  check_offsets(c[9], (const int32_t[]){0, 2, 2, 2}, 4);
  CHECK(memcmp(buf(c[9], 2), "ab", 2) == 0);
  /* ch: CHAR(3) as stored, padded and cut */
  check_array(c[10], 3, 1, 3, 0);
  check_offsets(c[10], (const int32_t[]){0, 3, 3, 6}, 4);
  CHECK(memcmp(buf(c[10], 2), "c  abc", 6) == 0);
  /* dt: days; ts: microseconds */
  const int32_t *dt = c[11]->buffers[1];
  check_array(c[11], 3, 1, 2, 0);
  CHECK(dt[0] == -1 && dt[1] == 0 && dt[2] == 1);
  const int64_t *ts = c[12]->buffers[1];
  check_array(c[12], 3, 1, 2, 0);
  CHECK(ts[0] == 1000002 && ts[1] == 0 && ts[2] == -1000000);
  /* bin: "xyz", NULL, "" */
  check_array(c[13], 3, 1, 3, 0);
  check_offsets(c[13], (const int32_t[]){0, 3, 3, 3}, 4);
  CHECK(memcmp(buf(c[13], 2), "xyz", 3) == 0);
  /* arr: [1,NULL,3], NULL, [] */
  check_array(c[14], 3, 1, 2, 1);
  check_validity(c[14], 0x5);
  check_offsets(c[14], (const int32_t[]){0, 3, 3, 3}, 4);
  const struct ArrowArray *item = c[14]->children[0];
  check_array(item, 3, 1, 2, 0);
  check_validity(item, 0x5);
  const int32_t *iv = item->buffers[1];
  CHECK(iv[0] == 1 && iv[1] == 0 && iv[2] == 3);
  /* m: {a:1, b:NULL}, NULL, {} */
  check_array(c[15], 3, 1, 2, 1);
  check_validity(c[15], 0x5);
  check_offsets(c[15], (const int32_t[]){0, 2, 2, 2}, 4);
  const struct ArrowArray *e = c[15]->children[0];
  check_array(e, 2, 0, 1, 2);
  check_validity(e, 0);
  check_array(e->children[0], 2, 0, 3, 0);
  check_validity(e->children[0], 0);
  check_offsets(e->children[0], (const int32_t[]){0, 1, 2}, 3);
  CHECK(memcmp(buf(e->children[0], 2), "ab", 2) == 0);
  check_array(e->children[1], 2, 1, 2, 0);
  check_validity(e->children[1], 0x1);
  CHECK_INT(((const int32_t *)e->children[1]->buffers[1])[0], 1);
  /* st: {1,'x'}, NULL, {NULL,'y'}: a NULL struct's fields are NULL too */
  check_array(c[16], 3, 1, 1, 2);
  check_validity(c[16], 0x5);
  const struct ArrowArray *sa = c[16]->children[0], *sb = c[16]->children[1];
  check_array(sa, 3, 2, 2, 0);
  check_validity(sa, 0x1);
  CHECK_INT(((const int32_t *)sa->buffers[1])[0], 1);
  check_array(sb, 3, 1, 3, 0);
  check_validity(sb, 0x5);
  check_offsets(sb, (const int32_t[]){0, 1, 1, 2}, 4);
  CHECK(memcmp(buf(sb, 2), "xy", 2) == 0);
  /* n: the null type, no buffers */
  check_array(c[17], 3, 3, 0, 0);
}

TEST(values_every_type) {
  hl_db_t *db = open_db("arrow_values");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = prepare(db, VALUES_SQL);
  struct ArrowArray a = {0};
  if (st) {
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_OK);
    if (a.release) check_values_batch(&a);
    struct ArrowArray end = {.release = (void (*)(struct ArrowArray *))1};
    CHECK_INT(hl_stmt_arrow_next(st, &end), HL_OK);
    CHECK(end.release == NULL);
    CHECK_INT(hl_stmt_arrow_next(st, &end), HL_OK);
    CHECK(end.release == NULL);
    CHECK_INT(hl_step(st), HL_DONE);
  }
  /* the array owns its buffers: still whole without statement and handle */
  hl_finalize(st);
  hl_close(db);
  if (a.release) {
    check_values_batch(&a);
    a.release(&a);
    CHECK(a.release == NULL);
  }
}

/* Rows 1..N of a text table written as FILES files. */
static int make_numbers(hl_db_t *db, const char *name, int files, int rows_per_file) {
  char dir[512];
  if (test_tmpdir(dir, sizeof dir, name) != 0) return -1;
  int v = 1;
  for (int f = 0; f < files; f++) {
    char path[600];
    snprintf(path, sizeof path, "%s/part-%d.txt", dir, f);
    FILE *fp = fopen(path, "w");
    if (!fp) return -1;
    for (int r = 0; r < rows_per_file; r++, v++)
      fprintf(fp, "%d\t%s\n", v, v % 3 == 0 ? "\\N" : "s");
    fclose(fp);
  }
  char sql[1024];
  snprintf(sql, sizeof sql,
           "CREATE EXTERNAL TABLE nums (v INT, s STRING) ROW FORMAT DELIMITED FIELDS "
           "TERMINATED BY '\\t' STORED AS TEXTFILE LOCATION '%s'",
           dir);
  return exec_sql(db, sql);
}

TEST(several_batches) {
  hl_db_t *db = open_db("arrow_batches");
  if (!db || make_numbers(db, "arrow_batches_data", 3, 3000) != 0) {
    CHECK(0);
    hl_close(db);
    return;
  }
  /* the default target: every row in one batch */
  hl_stmt_t *st = prepare(db, "SELECT v, s FROM nums ORDER BY v");
  if (st) {
    struct ArrowArray a;
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_OK);
    if (a.release) {
      check_array(&a, 9000, 0, 1, 2);
      const int32_t *v = a.children[0]->buffers[1];
      int ok = 1;
      for (int i = 0; i < 9000; i++)
        ok &= v[i] == i + 1;
      CHECK(ok);
      /* every third s is NULL: bits 1,1,0 repeating */
      CHECK_INT(a.children[1]->null_count, 3000);
      CHECK_INT(buf(a.children[1], 0)[0], 0xdb);
      CHECK_INT(buf(a.children[1], 0)[1], 0xb6);
      check_offsets(a.children[1], (const int32_t[]){0, 1, 2, 2, 3, 4, 4}, 7);
      a.release(&a);
    }
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_OK);
    CHECK(a.release == NULL);
  }
  hl_finalize(st);
  /* batch_rows=1000: batches end after the engine batch that reaches it;
   * a row stepped first comes with the next Arrow batch, hl_step goes on
   * after the last row exported */
  CHECK_INT(exec_sql(db, "SET hivelite.arrow.batch_rows=1000"), 0);
  st = prepare(db, "SELECT v FROM nums ORDER BY v");
  if (st) {
    CHECK_INT(hl_step(st), HL_ROW);
    CHECK_INT(hl_column_int64(st, 0), 1);
    CHECK_INT(hl_step(st), HL_ROW);
    CHECK_INT(hl_column_int64(st, 0), 2);
    int64_t next = 2, batches = 0;
    int ok = 1;
    struct ArrowArray a;
    while (hl_stmt_arrow_next(st, &a) == HL_OK && a.release) {
      batches++;
      /* no current row after an export */
      ok &= hl_column_is_null(st, 0) && hl_column_int64(st, 0) == 0;
      const int32_t *v = a.children[0]->buffers[1];
      ok &= a.length >= 1000 || next + a.length == 9001;
      for (int64_t i = 0; i < a.length; i++)
        ok &= v[i] == next + i;
      next += a.length;
      a.release(&a);
      if (batches == 2) {
        CHECK_INT(hl_step(st), HL_ROW);
        CHECK_INT(hl_column_int64(st, 0), next);
      }
    }
    CHECK(ok);
    CHECK(batches >= 3);
    CHECK_INT(next, 9001);
    CHECK_INT(hl_step(st), HL_DONE);
  }
  hl_finalize(st);
  /* a bad setting */
  CHECK_INT(exec_sql(db, "SET hivelite.arrow.batch_rows=0"), 0);
  st = prepare(db, "SELECT 1");
  if (st) {
    struct ArrowArray a;
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_ERROR);
    CHECK(a.release == NULL);
    CHECK_STR(hl_sqlstate(db), "22023");
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(empty_results) {
  hl_db_t *db = open_db("arrow_empty");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = prepare(db, "SELECT 1 AS x, 'a' AS y LIMIT 0");
  if (st) {
    struct ArrowSchema s;
    CHECK_INT(hl_stmt_arrow_schema(st, &s), HL_OK);
    check_field(&s, "+s", "", 0, 2);
    s.release(&s);
    struct ArrowArray a;
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_OK);
    CHECK(a.release == NULL);
    CHECK_INT(hl_step(st), HL_DONE);
  }
  hl_finalize(st);
  /* a statement with no result runs to its end */
  st = prepare(db, "CREATE DATABASE made_by_arrow");
  if (st) {
    struct ArrowArray a;
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_OK);
    CHECK(a.release == NULL);
  }
  hl_finalize(st);
  st = prepare(db, "SHOW DATABASES LIKE 'made_by_*'");
  if (st) {
    CHECK_INT(hl_step(st), HL_ROW);
    CHECK_STR(hl_column_text(st, 0, NULL), "made_by_arrow");
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(errors) {
  hl_db_t *db = open_db("arrow_errors");
  if (!db) {
    CHECK(0);
    return;
  }
  struct ArrowArray a;
  CHECK_INT(hl_stmt_arrow_next(NULL, &a), HL_MISUSE);
  CHECK(a.release == NULL);
  /* a map with a NULL key has no Arrow form; the statement ends */
  hl_stmt_t *st = prepare(db, "SELECT map(CAST(NULL AS STRING), 1)");
  if (st) {
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_ERROR);
    CHECK(a.release == NULL);
    CHECK_STR(hl_sqlstate(db), "22004");
    CHECK_INT(hl_step(st), HL_DONE);
  }
  hl_finalize(st);
  /* errors of the statement itself, as hl_step reports them */
  st = prepare(db, "SELECT * FROM no_such_table");
  if (st) {
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_NOTFOUND);
    CHECK(a.release == NULL);
    CHECK_STR(hl_sqlstate(db), "42P01");
  }
  hl_finalize(st);
  st = prepare(db, "SELECT 1");
  if (st) {
    hl_interrupt(db);
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_INTERRUPT);
    CHECK_STR(hl_sqlstate(db), "57014");
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(release_order) {
  hl_db_t *db = open_db("arrow_release");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = prepare(db, "SELECT 'abc' AS s, array(named_struct('x', 'deep')) AS a, 7 AS i");
  struct ArrowArray a = {0}, b = {0};
  if (st) {
    CHECK_INT(hl_stmt_arrow_next(st, &a), HL_OK);
    hl_finalize(st);
  }
  st = prepare(db, "SELECT 'abc' AS s, array(named_struct('x', 'deep')) AS a, 7 AS i");
  if (st) {
    CHECK_INT(hl_stmt_arrow_next(st, &b), HL_OK);
    hl_finalize(st);
  }
  hl_close(db);
  if (!a.release || !b.release || a.n_children != 3 || b.n_children != 3) {
    CHECK(0);
    if (a.release) a.release(&a);
    if (b.release) b.release(&b);
    return;
  }
  /* A: the list moved out, the parent released first, then the list */
  struct ArrowArray list = *a.children[1];
  a.children[1]->release = NULL;
  /* a child released before its parent */
  a.children[0]->release(a.children[0]);
  CHECK(a.children[0]->release == NULL);
  a.release(&a);
  CHECK(a.release == NULL);
  check_array(&list, 1, 0, 2, 1);
  const struct ArrowArray *x = list.children[0]->children[0];
  check_offsets(x, (const int32_t[]){0, 4}, 2);
  CHECK(memcmp(buf(x, 2), "deep", 4) == 0);
  /* a grandchild moved out of the moved list, released last */
  struct ArrowArray structs = *list.children[0];
  list.children[0]->release = NULL;
  list.release(&list);
  CHECK_INT(structs.length, 1);
  CHECK(memcmp(buf(structs.children[0], 2), "deep", 4) == 0);
  structs.release(&structs);
  /* B: every child released first, the parent then frees only itself */
  for (int i = 0; i < 3; i++)
    b.children[i]->release(b.children[i]);
  b.release(&b);
  CHECK(b.release == NULL);
}

/* Every allocation of an export failing in turn: an error (never a crash
 * or a leak: ASan), then at last the whole batch. */
TEST(out_of_memory) {
  hl_db_t *db = open_db("arrow_oom");
  if (!db) {
    CHECK(0);
    return;
  }
  const char *sql = "SELECT 'abc' AS s, array(named_struct('x', 'deep', 'y', 1)) AS a, "
                    "map('k', 2) AS m, CAST(NULL AS STRING) AS z, 2.5D AS d";
  bool done = false;
  int failed = 0;
  for (long n = 1; n < 500 && !done; n++) {
    hl_stmt_t *st = prepare(db, sql);
    if (!st || hl_step(st) != HL_ROW) {
      CHECK(0);
      hl_finalize(st);
      break;
    }
    struct ArrowSchema s;
    struct ArrowArray a;
    hl_mem_fail_after(n);
    hl_status_t rs = hl_stmt_arrow_schema(st, &s);
    hl_status_t ra = hl_stmt_arrow_next(st, &a);
    hl_mem_fail_after(0);
    if (rs == HL_OK) {
      check_field(&s, "+s", "", 0, 5);
      s.release(&s);
    } else {
      CHECK(s.release == NULL);
    }
    if (ra == HL_OK && a.release) {
      check_array(&a, 1, 0, 1, 5);
      if (a.n_children == 5) {
        check_offsets(a.children[0], (const int32_t[]){0, 3}, 2);
        check_array(a.children[3], 1, 1, 3, 0);
        CHECK(((const double *)a.children[4]->buffers[1])[0] == 2.5);
      }
      a.release(&a);
      done = rs == HL_OK;
    } else {
      CHECK(ra != HL_OK);
      CHECK(a.release == NULL);
      failed++;
    }
    hl_finalize(st);
  }
  CHECK(done);
  CHECK(failed > 5);
  hl_close(db);
}

int main(void) {
  RUN(schema_every_type);
  RUN(values_every_type);
  RUN(several_batches);
  RUN(empty_results);
  RUN(errors);
  RUN(release_order);
  RUN(out_of_memory);
  return test_report();
}
