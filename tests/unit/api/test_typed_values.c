/*
 * test_typed_values.c -- the typed side of the result API: hl_column_info
 * for every kind, and the typed getters (hl_column_int64, _double, _bool,
 * _decimal, _date, _timestamp, _blob) on boundary values, NULLs and the
 * conversions the header promises.
 */
#include "test.h"

#include "hivelite.h"

#include <math.h>
#include <stdio.h>

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

/* Prepares and steps SQL to its first row. */
static hl_stmt_t *first_row(hl_db_t *db, const char *sql) {
  hl_stmt_t *st = NULL;
  if (hl_prepare(db, sql, &st, NULL) != HL_OK || hl_step(st) != HL_ROW) {
    fprintf(stderr, "  %s: %s\n", sql, hl_errmsg(db));
    hl_finalize(st);
    return NULL;
  }
  return st;
}

static void check_info(hl_stmt_t *st, int col, hl_kind_t kind, int precision, int scale,
                       int length) {
  hl_column_info_t ci = {HL_KIND_STRUCT, -1, -1, -1};
  CHECK_INT(hl_column_info(st, col, &ci), HL_OK);
  CHECK_INT(ci.kind, kind);
  CHECK_INT(ci.precision, precision);
  CHECK_INT(ci.scale, scale);
  CHECK_INT(ci.length, length);
}

TEST(info_every_kind) {
  hl_db_t *db = open_db("typed_info");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = first_row(
      db, "SELECT NULL, true, 1Y, 2S, 3, 4L, CAST(1.5 AS FLOAT), 2.5D, CAST(1 AS DECIMAL(12,3)), "
          "'s', CAST('v' AS VARCHAR(10)), CAST('c' AS CHAR(5)), DATE '2024-01-02', "
          "TIMESTAMP '2024-01-02 03:04:05', CAST('b' AS BINARY), array(1), map('k', 1), "
          "named_struct('a', 1)");
  if (st) {
    CHECK_INT(hl_column_count(st), 18);
    check_info(st, 0, HL_KIND_VOID, 0, 0, 0);
    check_info(st, 1, HL_KIND_BOOLEAN, 0, 0, 0);
    check_info(st, 2, HL_KIND_TINYINT, 0, 0, 0);
    check_info(st, 3, HL_KIND_SMALLINT, 0, 0, 0);
    check_info(st, 4, HL_KIND_INT, 0, 0, 0);
    check_info(st, 5, HL_KIND_BIGINT, 0, 0, 0);
    check_info(st, 6, HL_KIND_FLOAT, 0, 0, 0);
    check_info(st, 7, HL_KIND_DOUBLE, 0, 0, 0);
    check_info(st, 8, HL_KIND_DECIMAL, 12, 3, 0);
    check_info(st, 9, HL_KIND_STRING, 0, 0, 0);
    check_info(st, 10, HL_KIND_VARCHAR, 0, 0, 10);
    check_info(st, 11, HL_KIND_CHAR, 0, 0, 5);
    check_info(st, 12, HL_KIND_DATE, 0, 0, 0);
    check_info(st, 13, HL_KIND_TIMESTAMP, 0, 0, 0);
    check_info(st, 14, HL_KIND_BINARY, 0, 0, 0);
    check_info(st, 15, HL_KIND_ARRAY, 0, 0, 0);
    check_info(st, 16, HL_KIND_MAP, 0, 0, 0);
    check_info(st, 17, HL_KIND_STRUCT, 0, 0, 0);
    hl_column_info_t ci;
    CHECK_INT(hl_column_info(st, 18, &ci), HL_MISUSE);
    CHECK_INT(hl_column_info(st, -1, &ci), HL_MISUSE);
    /* the NULL column: every getter says 0 */
    CHECK(hl_column_is_null(st, 0));
    CHECK_INT(hl_column_int64(st, 0), 0);
    size_t len = 7;
    CHECK(hl_column_blob(st, 0, &len) == NULL);
    CHECK_INT(len, 0);
    /* complex values have no typed getter but their text */
    CHECK_INT(hl_column_int64(st, 15), 0);
    CHECK(hl_column_blob(st, 16, &len) == NULL);
    CHECK_STR(hl_column_text(st, 17, NULL), "{\"a\":1}");
    CHECK_INT(hl_step(st), HL_DONE);
    /* after the last row: no values */
    CHECK_INT(hl_column_int64(st, 4), 0);
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(integers_and_booleans) {
  hl_db_t *db = open_db("typed_int");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st =
      first_row(db, "SELECT CAST('-9223372036854775808' AS BIGINT), 9223372036854775807L, "
                    "-128Y, 32767S, -2147483648, true, false, CAST(NULL AS BIGINT), "
                    "CAST(NULL AS BOOLEAN), 'text', 0L");
  if (st) {
    CHECK(hl_column_int64(st, 0) == INT64_MIN);
    CHECK(hl_column_int64(st, 1) == INT64_MAX);
    CHECK_INT(hl_column_int64(st, 2), -128);
    CHECK_INT(hl_column_int64(st, 3), 32767);
    CHECK_INT(hl_column_int64(st, 4), -2147483648LL);
    CHECK_INT(hl_column_int64(st, 5), 1);
    CHECK_INT(hl_column_int64(st, 6), 0);
    CHECK_INT(hl_column_bool(st, 5), 1);
    CHECK_INT(hl_column_bool(st, 6), 0);
    CHECK_INT(hl_column_bool(st, 1), 1);
    CHECK_INT(hl_column_bool(st, 10), 0);
    CHECK(hl_column_is_null(st, 7));
    CHECK_INT(hl_column_int64(st, 7), 0);
    CHECK_INT(hl_column_bool(st, 8), 0);
    CHECK(hl_column_is_null(st, 8));
    CHECK_INT(hl_column_int64(st, 9), 0); /* no text conversion */
    CHECK(hl_column_double(st, 1) == 9223372036854775807.0);
    CHECK(hl_column_double(st, 2) == -128.0);
    int64_t hi = 5;
    uint64_t lo = 5;
    int scale = 5;
    hl_column_decimal(st, 0, &hi, &lo, &scale); /* an integer as decimal */
    CHECK_INT(hi, -1);
    CHECK(lo == (uint64_t)INT64_MIN);
    CHECK_INT(scale, 0);
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(floats_and_decimals) {
  hl_db_t *db = open_db("typed_dec");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = first_row(
      db, "SELECT CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0)), "
          "CAST('-99999999999999999999999999999999999999' AS DECIMAL(38,0)), "
          "CAST('-0.0000000001' AS DECIMAL(38,10)), CAST(0.1 AS FLOAT), 1.0E308D, "
          "CAST('-1.25' AS DECIMAL(5,2)), CAST(NULL AS DECIMAL(10,2)), CAST('NaN' AS DOUBLE)");
  if (st) {
    /* 10^38 - 1 = 0x4B3B4CA85A86C47A098A223FFFFFFFFF */
    int64_t hi;
    uint64_t lo;
    int scale;
    hl_column_decimal(st, 0, &hi, &lo, &scale);
    CHECK(hi == 0x4B3B4CA85A86C47ALL);
    CHECK(lo == 0x098A223FFFFFFFFFULL);
    CHECK_INT(scale, 0);
    CHECK_STR(hl_column_text(st, 0, NULL), "99999999999999999999999999999999999999");
    hl_column_decimal(st, 1, &hi, &lo, &scale); /* the two's complement of it */
    CHECK(hi == (int64_t)~0x4B3B4CA85A86C47AULL);
    CHECK(lo == ~0x098A223FFFFFFFFFULL + 1);
    CHECK(hl_column_double(st, 1) == -1e38);
    hl_column_decimal(st, 2, &hi, &lo, &scale);
    CHECK_INT(hi, -1);
    CHECK(lo == UINT64_MAX);
    CHECK_INT(scale, 10);
    CHECK(hl_column_double(st, 2) == -1e-10);
    CHECK(hl_column_double(st, 3) == (double)0.1f); /* a FLOAT widened exactly */
    CHECK(hl_column_double(st, 4) == 1.0e308);
    CHECK(hl_column_double(st, 5) == -1.25);
    CHECK_INT(hl_column_bool(st, 5), 1);
    hl_column_decimal(st, 6, &hi, &lo, &scale);
    CHECK(hi == 0 && lo == 0 && scale == 0);
    CHECK(hl_column_is_null(st, 6));
    CHECK(isnan(hl_column_double(st, 7)));
    CHECK_INT(hl_column_int64(st, 4), 0); /* no double to integer */
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(dates_timestamps_blobs) {
  hl_db_t *db = open_db("typed_time");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = first_row(
      db, "SELECT DATE '1969-12-31', DATE '0001-01-01', DATE '9999-12-31', "
          "TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP '1970-01-01 00:00:00.000001', "
          "TIMESTAMP '2024-02-29 12:34:56.789012', CAST(NULL AS DATE), CAST('a\\0b' AS BINARY), "
          "'', CAST('héllo' AS VARCHAR(3)), CAST('ab' AS CHAR(4)), 'x'");
  if (st) {
    CHECK_INT(hl_column_date(st, 0), -1);
    CHECK_INT(hl_column_int64(st, 0), -1);
    CHECK_INT(hl_column_date(st, 1), -719162);
    CHECK_INT(hl_column_date(st, 2), 2932896);
    CHECK_INT(hl_column_timestamp(st, 0), -86400000000LL); /* a DATE's midnight */
    CHECK_INT(hl_column_timestamp(st, 3), -1);
    CHECK_INT(hl_column_int64(st, 3), -1);
    CHECK_INT(hl_column_date(st, 3), -1); /* the day of a timestamp, before 1970 */
    CHECK_INT(hl_column_timestamp(st, 4), 1);
    CHECK_INT(hl_column_date(st, 4), 0);
    CHECK_INT(hl_column_timestamp(st, 5), 1709210096789012LL);
    CHECK_STR(hl_column_text(st, 5, NULL), "2024-02-29 12:34:56.789012");
    CHECK_INT(hl_column_date(st, 6), 0);
    CHECK(hl_column_is_null(st, 6));
    size_t len = 0;
    const unsigned char *b = hl_column_blob(st, 7, &len);
    CHECK_INT(len, 3);
    CHECK(b && b[0] == 'a' && b[1] == 0 && b[2] == 'b');
    const char *e = hl_column_blob(st, 8, &len); /* empty, not NULL */
    CHECK(e != NULL);
    CHECK_INT(len, 0);
    const char *v = hl_column_blob(st, 9, &len);
    CHECK_INT(len, 4);
    CHECK(v && memcmp(v, "h\xc3\xa9l", 4) == 0);
    const char *c = hl_column_blob(st, 10, &len); /* CHAR padded */
    CHECK_INT(len, 4);
    CHECK(c && memcmp(c, "ab  ", 4) == 0);
    CHECK_INT(hl_column_date(st, 11), 0);
    CHECK_INT(hl_column_timestamp(st, 11), 0);
  }
  hl_finalize(st);
  hl_close(db);
}

TEST(rows_from_a_table) {
  hl_db_t *db = open_db("typed_table");
  if (!db) {
    CHECK(0);
    return;
  }
  hl_stmt_t *st = NULL;
  const char *setup[] = {
      "CREATE TABLE t (i BIGINT, d DECIMAL(38,18), ts TIMESTAMP) STORED AS PARQUET",
      "INSERT INTO t VALUES (-1, -0.000000000000000001, '1900-01-01 00:00:00.5'), "
      "(NULL, NULL, NULL)"};
  for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
    CHECK_INT(hl_prepare(db, setup[i], &st, NULL), HL_OK);
    CHECK_INT(hl_step(st), HL_DONE);
    hl_finalize(st);
    st = NULL;
  }
  st = first_row(db, "SELECT i, d, ts FROM t ORDER BY i NULLS LAST");
  if (st) {
    check_info(st, 1, HL_KIND_DECIMAL, 38, 18, 0);
    CHECK_INT(hl_column_int64(st, 0), -1);
    int64_t hi;
    uint64_t lo;
    int scale;
    hl_column_decimal(st, 1, &hi, &lo, &scale);
    CHECK(hi == -1 && lo == UINT64_MAX && scale == 18);
    CHECK_INT(hl_column_timestamp(st, 2), -2208988800000000LL + 500000);
    CHECK_INT(hl_step(st), HL_ROW);
    CHECK(hl_column_is_null(st, 0) && hl_column_is_null(st, 1) && hl_column_is_null(st, 2));
    CHECK_INT(hl_column_timestamp(st, 2), 0);
    CHECK_INT(hl_step(st), HL_DONE);
  }
  hl_finalize(st);
  hl_close(db);
}

int main(void) {
  RUN(info_every_kind);
  RUN(integers_and_booleans);
  RUN(floats_and_decimals);
  RUN(dates_timestamps_blobs);
  RUN(rows_from_a_table);
  return test_report();
}
