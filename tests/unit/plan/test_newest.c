/*
 * test_newest.c -- unit tests for newest-first partition order
 * (src/plan/newest.c) and the incremental field's resolver
 * (src/plan/incr.c): INT keys by value, text dates across years and
 * formats, batch numbers (9 before 10 as numbers), junk and the default
 * partition last, ties stable, later keys breaking ties; every error of
 * hl_incr_field_get and what hl_incr_props_check lets through.
 */
#include "test.h"

#include "plan/incr.h"
#include "plan/plan.h"

#include <string.h>

/* A table with data column v (TYPE_V) and keys K1 (STRING) and hr INT. */
typedef struct fixture {
  hl_arena_t *arena;
  hl_cat_table_t cat;
  hl_cat_column_t cols[2];
  hl_cat_column_t keys[2];
  hl_kv_t params[2];
  hl_table_t *t;
} fixture_t;

static void fixture_init(fixture_t *f, const char *key1_type, int n_keys, const char *field,
                         const char *kind) {
  memset(f, 0, sizeof *f);
  f->arena = hl_arena_create(0);
  f->cols[0] = (hl_cat_column_t){.name = "v", .type = "int"};
  f->cols[1] = (hl_cat_column_t){.name = "s", .type = "string"};
  f->keys[0] = (hl_cat_column_t){.name = "dt", .type = (char *)key1_type};
  f->keys[1] = (hl_cat_column_t){.name = "hr", .type = "int"};
  f->cat.db_name = "default";
  f->cat.name = "t";
  f->cat.cols = f->cols;
  f->cat.n_cols = 2;
  f->cat.part_keys = f->keys;
  f->cat.n_part_keys = n_keys;
  int n = 0;
  if (field) f->params[n++] = (hl_kv_t){.key = HL_INCR_FIELD_KEY, .value = (char *)field};
  if (kind) f->params[n++] = (hl_kv_t){.key = HL_INCR_KIND_KEY, .value = (char *)kind};
  f->cat.params = f->params;
  f->cat.n_params = n;
  hl_error_t err;
  hl_err_init(&err);
  CHECK(hl_table_from_catalog(&f->cat, f->arena, &f->t, &err) == HL_OK);
  hl_err_clear(&err);
}

/* Partitions from "a|b" strings ("-" for the default partition). */
static hl_cat_partition_t *parts_of(fixture_t *f, const char *const *spec, size_t n) {
  hl_cat_partition_t *p = hl_arena_zalloc(f->arena, sizeof *p * n);
  for (size_t i = 0; i < n; i++) {
    p[i].id = (int64_t)i;
    p[i].n_values = f->t->n_part;
    p[i].values = hl_arena_zalloc(f->arena, sizeof(char *) * 2);
    const char *bar = strchr(spec[i], '|');
    size_t l0 = bar ? (size_t)(bar - spec[i]) : strlen(spec[i]);
    char *v0 = hl_arena_strndup(f->arena, spec[i], l0);
    p[i].values[0] = strcmp(v0, "-") == 0 ? NULL : v0;
    if (bar) p[i].values[1] = strcmp(bar + 1, "-") == 0 ? NULL : hl_arena_strdup(f->arena, bar + 1);
  }
  return p;
}

/* Sorts SPEC newest first and returns the ids joined by spaces. */
static const char *order_of(fixture_t *f, const char *const *spec, size_t n) {
  hl_cat_partition_t *p = parts_of(f, spec, n);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *scratch = hl_arena_create(0);
  CHECK(hl_plan_sort_newest(f->t, p, n, scratch, &err) == HL_OK);
  hl_arena_destroy(scratch);
  hl_err_clear(&err);
  static char out[256];
  out[0] = 0;
  for (size_t i = 0; i < n; i++)
    snprintf(out + strlen(out), sizeof out - strlen(out), "%s%lld", i ? " " : "",
             (long long)p[i].id);
  return out;
}

TEST(int_keys_by_value) {
  fixture_t f;
  fixture_init(&f, "int", 1, NULL, NULL);
  /* catalog (name) order: hr=1, hr=10, hr=23, hr=9, default */
  const char *s[] = {"1", "10", "23", "9", "-"};
  CHECK_STR(order_of(&f, s, 5), "2 1 3 0 4");
  hl_arena_destroy(f.arena);
}

TEST(string_dates_mixed_years) {
  fixture_t f;
  fixture_init(&f, "string", 2, NULL, NULL);
  const char *s[] = {"2023-12-31|1",  "2024-01-01|9", "2024-01-01|23", "test|5",
                     "2024-01-01|10", "-|1",          "1999-06-30|1"};
  /* 2024-01-01 hr 23, 10, 9, then 2023-12-31, 1999-06-30; junk and the
   * default partition last, in their order */
  CHECK_STR(order_of(&f, s, 7), "2 4 1 0 6 3 5");
  hl_tdate_fmt_t fmt;
  hl_cat_partition_t *p = parts_of(&f, s, 7);
  CHECK_INT(hl_plan_newest_mode(f.t, p, 7, f.arena, &fmt), HL_INCR_DATE);
  CHECK_INT(fmt, HL_TDATE_Y_M_D);
  hl_arena_destroy(f.arena);
}

TEST(string_dates_other_formats_by_time) {
  fixture_t f;
  fixture_init(&f, "string", 1, NULL, NULL);
  /* yyyyMMddHH values compared as times, one yyyy-MM-dd among them */
  const char *s[] = {"2024010100", "2024010123", "2023123123", "2024-01-01", "2024010109"};
  /* 2024-01-01 00:00 ties with 2024010100: stable, catalog order */
  CHECK_STR(order_of(&f, s, 5), "1 4 0 3 2");
  hl_arena_destroy(f.arena);
}

TEST(string_not_dates_as_text) {
  fixture_t f;
  fixture_init(&f, "string", 1, NULL, NULL);
  /* half are dates: not recognised, so text order (default last) */
  const char *s[] = {"20240101", "b", "20240102", "a", "-"};
  CHECK_STR(order_of(&f, s, 5), "1 3 2 0 4");
  /* batch numbers without the property: text order */
  const char *b[] = {"10", "9", "11"};
  CHECK_STR(order_of(&f, b, 3), "1 2 0");
  hl_arena_destroy(f.arena);
}

TEST(batch_numbers_by_property) {
  fixture_t f;
  fixture_init(&f, "string", 1, "dt", "batch");
  const char *s[] = {"10", "11", "9", "test", "-", "9007199254740993", "0099"};
  /* 99 > 11 > 10 > 9; junk, default and an out-of-range number last */
  CHECK_STR(order_of(&f, s, 7), "6 1 0 2 3 4 5");
  hl_tdate_fmt_t fmt;
  hl_cat_partition_t *p = parts_of(&f, s, 7);
  CHECK_INT(hl_plan_newest_mode(f.t, p, 7, f.arena, &fmt), HL_INCR_BATCH);
  hl_arena_destroy(f.arena);
}

TEST(dates_by_property) {
  fixture_t f;
  fixture_init(&f, "string", 1, "DT", "date");
  /* only two of five are dates, but the property says so */
  const char *s[] = {"x", "20240101", "y", "20240301", "z"};
  CHECK_STR(order_of(&f, s, 5), "3 1 0 2 4");
  hl_tdate_fmt_t fmt;
  hl_cat_partition_t *p = parts_of(&f, s, 5);
  CHECK_INT(hl_plan_newest_mode(f.t, p, 5, f.arena, &fmt), HL_INCR_DATE);
  CHECK_INT(fmt, HL_TDATE_NONE);
  hl_arena_destroy(f.arena);
}

TEST(small_inputs) {
  fixture_t f;
  fixture_init(&f, "int", 1, NULL, NULL);
  const char *s[] = {"5"};
  CHECK_STR(order_of(&f, s, 1), "0");
  hl_error_t err;
  hl_err_init(&err);
  CHECK(hl_plan_sort_newest(f.t, NULL, 0, f.arena, &err) == HL_OK);
  hl_arena_destroy(f.arena);
}

/* hl_incr_field_get's SQLSTATE ("" when it succeeds) */
static const char *field_state(const char *key1_type, int n_keys, const char *field,
                               const char *kind, hl_incr_field_t *out, bool lenient) {
  fixture_t f;
  fixture_init(&f, key1_type, n_keys, field, kind);
  hl_error_t err;
  hl_err_init(&err);
  hl_status_t rc = lenient ? hl_incr_props_check(f.t, f.cat.params, f.cat.n_params, &err)
                           : hl_incr_field_get(f.t, out, &err);
  static char state[8];
  snprintf(state, sizeof state, "%s", rc == HL_OK ? "" : err.sqlstate);
  hl_err_clear(&err);
  hl_arena_destroy(f.arena);
  return state;
}

TEST(incr_field_get) {
  hl_incr_field_t o;
  CHECK_STR(field_state("string", 2, NULL, NULL, &o, false), "");
  CHECK_INT(o.col, -1);
  CHECK_INT(o.kind, HL_INCR_NONE);
  CHECK_STR(field_state("string", 2, "dt", "date", &o, false), "");
  CHECK_INT(o.col, 2);
  CHECK_INT(o.kind, HL_INCR_DATE);
  CHECK(o.is_part);
  CHECK_INT(o.part_idx, 0);
  CHECK_STR(field_state("string", 2, "dt", "BATCH", &o, false), "");
  CHECK_INT(o.kind, HL_INCR_BATCH);
  /* value: a numeric data column, any partition column; absent kind = value */
  CHECK_STR(field_state("string", 2, "v", "value", &o, false), "");
  CHECK_INT(o.col, 0);
  CHECK(!o.is_part);
  CHECK_INT(o.part_idx, -1);
  CHECK_STR(field_state("string", 2, "hr", NULL, &o, false), "");
  CHECK_INT(o.kind, HL_INCR_VALUE);
  CHECK_INT(o.part_idx, 1);
  CHECK_STR(field_state("string", 2, "dt", "value", &o, false), "");
  /* errors */
  CHECK_STR(field_state("string", 2, "nope", "date", &o, false), "42703");
  CHECK_STR(field_state("string", 2, "dt", "daily", &o, false), "22023");
  CHECK_STR(field_state("string", 2, NULL, "date", &o, false), "22023");
  CHECK_STR(field_state("int", 2, "dt", "batch", &o, false), "22023");   /* not STRING */
  CHECK_STR(field_state("string", 2, "hr", "date", &o, false), "22023"); /* INT */
  CHECK_STR(field_state("string", 2, "s", "date", &o, false), "22023");  /* not a key */
  CHECK_STR(field_state("string", 0, "s", "batch", &o, false), "22023"); /* unpartitioned */
  CHECK_STR(field_state("string", 2, "s", "value", &o, false), "22023"); /* STRING data */
  /* the DDL check stores a date/batch field that is not the first key */
  CHECK_STR(field_state("string", 2, "s", "date", &o, true), "");
  CHECK_STR(field_state("string", 2, "hr", "date", &o, true), "22023");
  CHECK_STR(field_state("string", 2, "nope", NULL, &o, true), "42703");
  CHECK_STR(field_state("string", 2, "dt", "x", &o, true), "22023");
}

TEST(incr_messages) {
  fixture_t f;
  fixture_init(&f, "string", 2, "s", "batch");
  hl_error_t err;
  hl_err_init(&err);
  hl_incr_field_t o;
  CHECK(hl_incr_field_get(f.t, &o, &err) != HL_OK);
  CHECK_STR(err.message, "incremental field \"s\" of table \"default.t\" has kind batch, which "
                         "needs the table's first partition column \"dt\"");
  hl_err_clear(&err);
  hl_arena_destroy(f.arena);
}

/* The rule on the two counts the metastore keeps: more than half of the
 * partitions' first values are text dates (as hl_tdate_recognise says of
 * the values themselves). */
TEST(incr_auto) {
  fixture_t f;
  fixture_init(&f, "string", 1, NULL, NULL);
  CHECK(hl_incr_auto_field(f.t, 3, 2));
  CHECK(!hl_incr_auto_field(f.t, 0, 0));
  CHECK(!hl_incr_auto_field(f.t, 2, 1)); /* half is not more than half */
  CHECK(hl_incr_auto_field(f.t, 1, 1));
  CHECK(!hl_incr_auto_field(f.t, 5, 2));
  CHECK(hl_incr_auto_field(f.t, 5, 3));
  const char *dates[] = {"2024-01-01", "2024-01-02", "junk"}, *half[] = {"20240101", NULL};
  CHECK_INT(hl_tdate_recognise(dates, 3), HL_TDATE_Y_M_D);
  CHECK_INT(hl_tdate_recognise(half, 2), HL_TDATE_NONE);
  CHECK(hl_tdate_majority(2, 3) && !hl_tdate_majority(1, 2) && !hl_tdate_majority(0, 0));
  hl_arena_destroy(f.arena);
  fixture_init(&f, "string", 1, "v", NULL); /* a field set: never replaced */
  CHECK(!hl_incr_auto_field(f.t, 3, 3));
  hl_arena_destroy(f.arena);
  fixture_init(&f, "int", 1, NULL, NULL);
  CHECK(!hl_incr_auto_field(f.t, 1, 1));
  hl_arena_destroy(f.arena);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(int_keys_by_value);
  RUN(string_dates_mixed_years);
  RUN(string_dates_other_formats_by_time);
  RUN(string_not_dates_as_text);
  RUN(batch_numbers_by_property);
  RUN(dates_by_property);
  RUN(small_inputs);
  RUN(incr_field_get);
  RUN(incr_messages);
  RUN(incr_auto);
  return test_report();
}
