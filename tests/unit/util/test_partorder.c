/*
 * test_partorder.c -- unit tests for text dates and batch numbers
 * (src/util/partorder.c): every format with its exact epoch, calendar
 * checks (leap years, month ends, hours), the year range, formats that
 * are not time-ordered refused, batch numbers at 16/17 digits and at
 * 2^53, blanks and signs refused, and recognition of a column (more than
 * half, majority format, ties, NULL entries).
 */
#include "test.h"

#include "util/partorder.h"

#include <string.h>

static bool parse(const char *s, int64_t *e, hl_tdate_fmt_t *f) {
  return hl_tdate_parse(s, strlen(s), e, f);
}

TEST(tdate_every_format) {
  static const struct {
    const char *text;
    hl_tdate_fmt_t fmt;
    int64_t epoch;
  } cases[] = {
      {"20240131", HL_TDATE_YMD, 1706659200},
      {"2024-01-31", HL_TDATE_Y_M_D, 1706659200},
      {"2024013107", HL_TDATE_YMDH, 1706684400},
      {"202401310705", HL_TDATE_YMDHM, 1706684700},
      {"20240131070509", HL_TDATE_YMDHMS, 1706684709},
      {"2024-01-31-07", HL_TDATE_Y_M_D_H, 1706684400},
      {"2024-01-31 07:05", HL_TDATE_Y_M_D_HM, 1706684700},
      {"2024-01-31 07:05:09", HL_TDATE_Y_M_D_HMS, 1706684709},
      {"19700101", HL_TDATE_YMD, 0},
      {"1900-01-01", HL_TDATE_Y_M_D, -2208988800},
      {"2200-12-31 23:59:59", HL_TDATE_Y_M_D_HMS, 7289654399},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int64_t e = -1;
    hl_tdate_fmt_t f = HL_TDATE_NONE;
    CHECK(parse(cases[i].text, &e, &f));
    CHECK_INT(f, cases[i].fmt);
    CHECK_INT(e, cases[i].epoch);
  }
  /* outputs are optional */
  CHECK(hl_tdate_parse("20240131", 8, NULL, NULL));
  /* a length cut short is its own format, or none */
  CHECK(!hl_tdate_parse("2024013107", 9, NULL, NULL));
  int64_t e = 0;
  hl_tdate_fmt_t f = HL_TDATE_NONE;
  CHECK(hl_tdate_parse("2024-01-31 07:05:09", 16, &e, &f));
  CHECK_INT(f, HL_TDATE_Y_M_D_HM);
}

TEST(tdate_calendar) {
  CHECK(parse("20240229", NULL, NULL));  /* leap year */
  CHECK(!parse("20230229", NULL, NULL)); /* not one */
  CHECK(parse("20000229", NULL, NULL));  /* divisible by 400 */
  CHECK(!parse("19000229", NULL, NULL)); /* by 100, not 400 */
  CHECK(!parse("21000229", NULL, NULL));
  CHECK(parse("2024-04-30", NULL, NULL));
  CHECK(!parse("2024-04-31", NULL, NULL));
  CHECK(!parse("2024-00-10", NULL, NULL));
  CHECK(!parse("2024-13-10", NULL, NULL));
  CHECK(!parse("2024-01-00", NULL, NULL));
  CHECK(!parse("2024-01-32", NULL, NULL));
  CHECK(parse("2024-01-31-23", NULL, NULL));
  CHECK(!parse("2024-01-31-24", NULL, NULL));
  CHECK(!parse("2024-01-31 07:60", NULL, NULL));
  CHECK(!parse("2024-01-31 07:05:60", NULL, NULL));
  CHECK(!parse("20240131070560", NULL, NULL));
  /* years 1900 to 2200 */
  CHECK(parse("19000101", NULL, NULL));
  CHECK(!parse("18991231", NULL, NULL));
  CHECK(parse("22001231", NULL, NULL));
  CHECK(!parse("22010101", NULL, NULL));
  CHECK(!parse("2201-01-01 00:00:00", NULL, NULL));
}

TEST(tdate_refused_forms) {
  const char *bad[] = {
      "31-01-2024",       "01/31/2024",       "202401",     "2024",      " 20240131",
      "20240131 ",        "+20240131",        "2024/01/31", "2024-1-31", "2024-01-31T07",
      "2024-01-31 07",    "2024-01-31-07:05", "2024013a",   "",          "2024-01-31 7:05:09",
      "2024-01-31  07:05"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int64_t e = 42;
    hl_tdate_fmt_t f = HL_TDATE_Y_M_D;
    CHECK(!parse(bad[i], &e, &f));
    CHECK_INT(e, 42); /* untouched */
    CHECK_INT(f, HL_TDATE_Y_M_D);
  }
  CHECK(!hl_tdate_parse(NULL, 0, NULL, NULL));
  /* an embedded NUL is not a digit */
  CHECK(!hl_tdate_parse("2024\0"
                        "131",
                        8, NULL, NULL));
}

TEST(tdate_units) {
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_YMD), 86400);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_Y_M_D), 86400);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_YMDH), 3600);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_Y_M_D_H), 3600);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_YMDHM), 60);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_Y_M_D_HM), 60);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_YMDHMS), 1);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_Y_M_D_HMS), 1);
  CHECK_INT(hl_tdate_unit_sec(HL_TDATE_NONE), 0);
  CHECK_STR(hl_tdate_format_name(HL_TDATE_YMD), "yyyyMMdd");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_Y_M_D), "yyyy-MM-dd");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_YMDH), "yyyyMMddHH");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_YMDHM), "yyyyMMddHHmm");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_YMDHMS), "yyyyMMddHHmmss");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_Y_M_D_H), "yyyy-MM-dd-HH");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_Y_M_D_HM), "yyyy-MM-dd HH:mm");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_Y_M_D_HMS), "yyyy-MM-dd HH:mm:ss");
  CHECK_STR(hl_tdate_format_name(HL_TDATE_NONE), "none");
  CHECK_STR(hl_tdate_format_name((hl_tdate_fmt_t)99), "none");
  /* 2024-01-31 07:05:09 */
  CHECK_INT(hl_tdate_unit_start(1706684709, HL_TDATE_YMD), 1706659200);
  CHECK_INT(hl_tdate_unit_start(1706684709, HL_TDATE_YMDH), 1706684400);
  CHECK_INT(hl_tdate_unit_start(1706684709, HL_TDATE_Y_M_D_HM), 1706684700);
  CHECK_INT(hl_tdate_unit_start(1706684709, HL_TDATE_YMDHMS), 1706684709);
  CHECK_INT(hl_tdate_unit_start(1706684709, HL_TDATE_NONE), 1706684709);
  /* before 1970 it still rounds down: 1969-12-31 12:00 -> 1969-12-31 */
  CHECK_INT(hl_tdate_unit_start(-43200, HL_TDATE_YMD), -86400);
  CHECK_INT(hl_tdate_unit_start(-86400, HL_TDATE_YMD), -86400);
  CHECK_INT(hl_tdate_unit_start(-1, HL_TDATE_YMDH), -3600);
}

TEST(batch_numbers) {
  int64_t v = -1;
  CHECK(hl_batch_parse("9", 1, &v));
  CHECK_INT(v, 9);
  CHECK(hl_batch_parse("10", 2, &v));
  CHECK_INT(v, 10);
  CHECK(hl_batch_parse("0", 1, &v));
  CHECK_INT(v, 0);
  CHECK(hl_batch_parse("007", 3, &v));
  CHECK_INT(v, 7);
  CHECK(hl_batch_parse("9007199254740992", 16, &v));
  CHECK_INT(v, INT64_C(9007199254740992));
  CHECK(hl_batch_parse("0000000000000001", 16, &v)); /* 16 digits */
  CHECK_INT(v, 1);
  v = 5;
  CHECK(!hl_batch_parse("9007199254740993", 16, &v)); /* 2^53 + 1 */
  CHECK(!hl_batch_parse("9999999999999999", 16, &v));
  CHECK(!hl_batch_parse("00000000000000001", 17, &v)); /* 17 digits, small value */
  CHECK(!hl_batch_parse("", 0, &v));
  CHECK(!hl_batch_parse(" 1", 2, &v));
  CHECK(!hl_batch_parse("1 ", 2, &v));
  CHECK(!hl_batch_parse("+1", 2, &v));
  CHECK(!hl_batch_parse("-1", 2, &v));
  CHECK(!hl_batch_parse("1.0", 3, &v));
  CHECK(!hl_batch_parse("1e3", 3, &v));
  CHECK(!hl_batch_parse("test", 4, &v));
  CHECK(!hl_batch_parse("\xd9\xa1", 2, &v)); /* a non-ASCII digit (Arabic-Indic one) */
  CHECK(!hl_batch_parse(NULL, 0, &v));
  CHECK_INT(v, 5); /* untouched */
  CHECK(hl_batch_parse("12", 2, NULL));
}

TEST(recognise) {
  const char *none[] = {NULL};
  CHECK_INT(hl_tdate_recognise(none, 0), HL_TDATE_NONE);
  CHECK_INT(hl_tdate_recognise(none, 1), HL_TDATE_NONE);
  const char *one[] = {"2024-01-01"};
  CHECK_INT(hl_tdate_recognise(one, 1), HL_TDATE_Y_M_D);
  /* exactly half: not more than half */
  const char *half[] = {"20240101", "20240102", "test", NULL};
  CHECK_INT(hl_tdate_recognise(half, 4), HL_TDATE_NONE);
  /* three of five */
  const char *most[] = {"20240101", "test", "20240102", NULL, "20240103"};
  CHECK_INT(hl_tdate_recognise(most, 5), HL_TDATE_YMD);
  /* mixed formats: the one most dates have */
  const char *mixed[] = {"2024-01-01", "2024010107", "2024010108", "x"};
  CHECK_INT(hl_tdate_recognise(mixed, 4), HL_TDATE_YMDH);
  /* a tie: the first in enum order (yyyy-MM-dd before yyyyMMddHH) */
  const char *tie[] = {"2024010107", "2024-01-01", "2024010108", "2024-01-02"};
  CHECK_INT(hl_tdate_recognise(tie, 4), HL_TDATE_Y_M_D);
  /* batch numbers are not dates (and 8-digit ones that are real dates are) */
  const char *batches[] = {"9", "10", "11"};
  CHECK_INT(hl_tdate_recognise(batches, 3), HL_TDATE_NONE);
  const char *nulls[] = {NULL, NULL, "20240101"};
  CHECK_INT(hl_tdate_recognise(nulls, 3), HL_TDATE_NONE);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(tdate_every_format);
  RUN(tdate_calendar);
  RUN(tdate_refused_forms);
  RUN(tdate_units);
  RUN(batch_numbers);
  RUN(recognise);
  return test_report();
}
