/*
 * test_hms_filter.c -- the metastore's partition filter language
 * (src/hms_server/hms_filter.c): for each filter, exactly which of a fixed
 * set of partitions match (keys of string, int, date, decimal, double,
 * boolean, timestamp and varchar type, a default partition, a value not
 * readable as its key's type); and the exact message and SQLSTATE of each
 * malformed filter, the depth and length caps included.
 */
#include "hms_server/hms_filter.h"
#include "test.h"

static hl_cat_column_t keys[] = {{"s", "string", NULL},     {"i", "int", NULL},
                                 {"d", "date", NULL},       {"m", "decimal(5,2)", NULL},
                                 {"f", "double", NULL},     {"b", "boolean", NULL},
                                 {"ts", "timestamp", NULL}, {"vc", "varchar(4)", NULL}};
#define NK 8
/* NULL: the default partition */
static char *parts[][NK] = {
    {"a", "9", "2024-01-02", "1.50", "0.5", "true", "2024-01-02 10:00:00", "x"},
    {"b", "10", "2024-01-10", "2.25", "-1e3", "false", "2024-01-02 10:00:01", "yy"},
    {"a", "100", "2023-12-31", "10.00", "3", "true", "2023-01-01 00:00:00", "x_z"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {"c", "zz", "notadate", "x", "y", "maybe", "never", "c"}, /* unreadable values */
};
#define NP 5

/* The indexes of the partitions FILTER matches, "0 2", or "ERR <state>: <message>". */
static const char *run(const char *filter) {
  static char out[512];
  hl_arena_t *a = hl_arena_create(4096), *scratch = hl_arena_create(1024);
  hl_hms_filter_t *f;
  hl_error_t err;
  hl_err_init(&err);
  if (hl_hms_filter_parse(filter, keys, NK, a, &f, &err) != HL_OK) {
    snprintf(out, sizeof out, "ERR %s: %s", err.sqlstate, err.message);
  } else {
    out[0] = 0;
    for (int p = 0; p < NP; p++)
      if (hl_hms_filter_match(f, parts[p], scratch))
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%d", out[0] ? " " : "", p);
  }
  hl_err_clear(&err);
  hl_arena_destroy(scratch);
  hl_arena_destroy(a);
  return out;
}

TEST(integers_compare_as_numbers) {
  CHECK_STR(run("i > 9"), "1 2");
  CHECK_STR(run("9 < i"), "1 2");
  CHECK_STR(run("i >= 10"), "1 2");
  CHECK_STR(run("i < 10"), "0");
  CHECK_STR(run("i <= '10'"), "0 1");
  CHECK_STR(run("i = 0100"), "2");
  CHECK_STR(run("i != 9"), "1 2");
  CHECK_STR(run("i <> 9"), "1 2");
  CHECK_STR(run("-5 < i"), "0 1 2");
}

TEST(strings_bytewise) {
  CHECK_STR(run("s = 'a'"), "0 2");
  CHECK_STR(run("s = \"b\""), "1");
  CHECK_STR(run("s > 'a'"), "1 4");
  CHECK_STR(run("s >= 'A'"), "0 1 2 4");
  CHECK_STR(run("'b' <= s"), "1 4");
  CHECK_STR(run("vc = 'yy'"), "1");
  CHECK_STR(run("s = 'it\\'s'"), "");
  CHECK_STR(run("s = 10"), ""); /* a number compared as text with a string key */
}

TEST(dates_decimals_doubles_booleans_timestamps) {
  CHECK_STR(run("d > 2024-01-01"), "0 1");
  CHECK_STR(run("d = '2024-1-2'"), "0");
  CHECK_STR(run("d < DATE '2024-01-01'"), "2");
  CHECK_STR(run("d between date '2024-01-02' and '2024-01-10'"), "0 1");
  CHECK_STR(run("m = 1.5"), "0");
  CHECK_STR(run("m = '1.500'"), "0");
  CHECK_STR(run("m > 2"), "1 2");
  CHECK_STR(run("m < 10.001"), "0 1 2");
  CHECK_STR(run("f < 0"), "1");
  CHECK_STR(run("f >= 0.5"), "0 2");
  CHECK_STR(run("b = 'true'"), "0 2");
  CHECK_STR(run("b != 'TRUE'"), "1");
  CHECK_STR(run("ts > '2024-01-02 10:00:00'"), "1");
  CHECK_STR(run("ts < '2024-01-01'"), "2");
}

TEST(logic_and_default_partition) {
  CHECK_STR(run("s = 'a' AND i > 50"), "2");
  CHECK_STR(run("s = 'b' OR s = 'a' AND i > 50"), "1 2");
  CHECK_STR(run("(s = 'b' OR s = 'a') AND i > 50"), "2");
  CHECK_STR(run("NOT s = 'a'"), "1 4");
  CHECK_STR(run("not (s = 'a' or s = 'b')"), "4");
  CHECK_STR(run("NOT NOT i = 9"), "0");
  /* unknown (default partition, unreadable value): NOT keeps it unknown,
   * OR with a true side holds */
  CHECK_STR(run("NOT i = 9"), "1 2");
  CHECK_STR(run("i = 9 OR s = 'c'"), "0 4");
  CHECK_STR(run("i > 0 OR NOT i > 0"), "0 1 2");
  CHECK_STR(run("i BETWEEN 9 AND 10"), "0 1");
  CHECK_STR(run("i NOT BETWEEN 9 AND 10"), "2");
  CHECK_STR(run("i IN (9, 100)"), "0 2");
  CHECK_STR(run("(i) IN (9, 100)"), "0 2");
  CHECK_STR(run("(i) NOT IN (9, 100)"), "1");
  CHECK_STR(run("s IN ('a')"), "0 2");
  CHECK_STR(run("((i = 9))"), "0");
}

TEST(like) {
  CHECK_STR(run("vc LIKE 'x%'"), "0 2");
  CHECK_STR(run("vc LIKE 'x.*'"), "0 2");
  CHECK_STR(run("vc LIKE 'x_z'"), "2");
  CHECK_STR(run("vc LIKE 'x.z'"), "2");
  CHECK_STR(run("vc LIKE '%y'"), "1");
  CHECK_STR(run("vc LIKE 'x'"), "0");
  CHECK_STR(run("vc NOT LIKE 'x%'"), "1 4");
  CHECK_STR(run("i LIKE '1%'"), "1 2"); /* LIKE reads the value's text */
}

TEST(errors) {
  CHECK_STR(run(""), "ERR 42601: partition filter: the filter is empty at the end of the filter");
  CHECK_STR(run("i >"), "ERR 42601: partition filter: a literal was expected at the end of the "
                        "filter");
  CHECK_STR(run("i > 9 9"), "ERR 42601: partition filter: AND, OR or the end was expected at "
                            "character 7 (\"9\")");
  CHECK_STR(run("x = 1"), "ERR 42703: partition filter: \"x\" is not a partition key of the "
                          "table");
  CHECK_STR(run("i = 'x'"), "ERR 22P02: partition filter: 'x' is not a value of type int "
                            "(partition key \"i\")");
  /* "1e400" is one identifier, as Hive's lexer takes the longest match */
  CHECK_STR(run("m = 1e400"), "ERR 42601: partition filter: a literal was expected at character "
                              "5 (\"1e400\")");
  CHECK_STR(run("i = -"), "ERR 42601: partition filter: a number was expected after '-' at "
                          "character 5 (\"-\")");
  /* found by fuzz.hms_read: the lexer made no progress on "-0.0E" */
  CHECK_STR(run("i = -0.0E"), "ERR 42601: partition filter: a number was expected after '-' at "
                              "character 5 (\"-\")");
  CHECK_STR(run("i = -1x"), "ERR 42601: partition filter: a number was expected after '-' at "
                            "character 5 (\"-\")");
  CHECK_STR(run("i > -1"), "0 1 2");
  CHECK_STR(run("m > -1.5"), "0 1 2");
  CHECK_STR(run("i = 1 AND (s = 'a'"), "ERR 42601: partition filter: ')' was expected at the "
                                       "end of the filter");
  CHECK_STR(run("(i) = 1"), "ERR 42601: partition filter: IN was expected after a "
                            "parenthesised key at character 5 (\"=\")");
  CHECK_STR(run("1 = 2"), "ERR 42601: partition filter: a partition key was expected at "
                          "character 5 (\"2\")");
  CHECK_STR(run("i LIKE 'a' LIKE"), "ERR 42601: partition filter: AND, OR or the end was "
                                    "expected at character 12 (\"LIKE\")");
  CHECK_STR(run("date '2024-13-01' < d"), "ERR 42601: partition filter: not a date at "
                                          "character 6 (\"'2024-13-01'\")");
  static char big_like[5000];
  strcpy(big_like, "s LIKE '");
  memset(big_like + 8, '%', 4097);
  strcpy(big_like + 8 + 4097, "'");
  CHECK_STR(run(big_like), "ERR 54000: partition filter: LIKE pattern longer than 4096 bytes");
  big_like[8 + 4096] = '\'';
  big_like[8 + 4097] = 0;
  CHECK_STR(run(big_like), "0 1 2 4");
  char deep[400];
  memset(deep, '(', 65);
  strcpy(deep + 65, "i = 1");
  memset(deep + 70, ')', 65);
  deep[135] = 0;
  CHECK_STR(run(deep), "ERR 54000: partition filter: nested deeper than 64 levels");
  deep[1] = 0; /* "(" */
  CHECK_STR(run(deep), "ERR 42601: partition filter: a partition key, a literal, NOT or '(' "
                       "was expected at the end of the filter");
  memset(deep, '(', 64);
  strcpy(deep + 64, "i = 1");
  memset(deep + 69, ')', 64);
  deep[133] = 0;
  CHECK_STR(run(deep), "" /* 64 levels are allowed; i = 1 matches no partition */);
  CHECK_STR(run("NOT NOT NOT NOT i = 9"), "0");
  /* predicates before the nesting do not lend it levels */
  char wide[2000];
  strcpy(wide, "i = 9");
  for (int k = 0; k < 100; k++)
    strcat(wide, " OR i=9");
  strcat(wide, " OR ");
  size_t at = strlen(wide);
  memset(wide + at, '(', 65);
  strcpy(wide + at + 65, "i = 1");
  memset(wide + at + 70, ')', 65);
  wide[at + 135] = 0;
  CHECK_STR(run(wide), "ERR 54000: partition filter: nested deeper than 64 levels");
}

TEST(names) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  char **names;
  size_t n;
  hl_err_init(&err);
  CHECK_INT(hl_hms_filter_names("b = 1 AND (a > date '2024-01-01' OR b LIKE 'x') and c9_ in (1)", a,
                                &names, &n, &err),
            HL_OK);
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_STR(names[0], "b");
    CHECK_STR(names[1], "a");
    CHECK_STR(names[2], "c9_");
  }
  char many[1024] = "";
  for (int k = 0; k < 65; k++)
    snprintf(many + strlen(many), sizeof many - strlen(many), "%sk%d = 1", k ? " OR " : "", k);
  CHECK_INT(hl_hms_filter_names(many, a, &names, &n, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "54000");
  CHECK_STR(err.message, "filter: more than 64 different names");
  hl_err_clear(&err);
  hl_err_init(&err);
  CHECK_INT(hl_hms_filter_names("f-0.0E T9\"", a, &names, &n, &err), HL_ERROR); /* fuzz */
  hl_err_clear(&err);
  hl_err_init(&err);
  CHECK_INT(hl_hms_filter_names("a ~ 1", a, &names, &n, &err), HL_ERROR);
  CHECK_STR(err.message, "partition filter: unexpected character at character 3 (\"~\")");
  hl_err_clear(&err);
  hl_arena_destroy(a);
}

int main(void) {
  RUN(integers_compare_as_numbers);
  RUN(strings_bytewise);
  RUN(dates_decimals_doubles_booleans_timestamps);
  RUN(logic_and_default_partition);
  RUN(like);
  RUN(errors);
  RUN(names);
  return test_report();
}
