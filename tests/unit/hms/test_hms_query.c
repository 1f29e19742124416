/*
 * test_hms_query.c -- the flat field reader and the encoders of
 * src/hms/hms_query.c: an argument struct with a nested request keeps its
 * strings, string lists and integers by id (bool, byte, i16, i32, i64),
 * skips structs other than the nested one, lists of other elements, maps,
 * ids over the maximum; truncation and a wrong element inside a list are
 * 08P01; TableMeta and the field list encode as the IDL says.
 */
#include "hms/hms_query.h"
#include "test.h"

/* A GetPartitionsByNamesRequest-like argument struct, then odd fields. */
static void write_args(hl_buf_t *b) {
  char *names[] = {"a=1", "a=2"};
  hl_hms_strlist_t l = {2, names};
  hl_tw_field(b, HL_TT_STRUCT, 1); /* the request */
  hl_tw_field(b, HL_TT_STRING, 1);
  hl_tw_string(b, "db");
  hl_tw_field(b, HL_TT_STRING, 2);
  hl_tw_string(b, "t");
  hl_tw_field(b, HL_TT_LIST, 3);
  hl_hms_write_strlist(b, &l);
  hl_tw_field(b, HL_TT_BOOL, 4);
  hl_tw_bool(b, 1);
  hl_tw_field(b, HL_TT_I64, 10);
  hl_tw_i64(b, -7);
  hl_tw_field(b, HL_TT_LIST, 5); /* list<i32>: skipped */
  hl_tw_list(b, HL_TT_I32, 1);
  hl_tw_i32(b, 3);
  hl_tw_field(b, HL_TT_STRUCT, 6); /* a struct not asked for: skipped */
  hl_tw_stop(b);
  hl_tw_field(b, HL_TT_STRING, 40); /* over HL_HMS_FIELDS_MAX: skipped */
  hl_tw_string(b, "x");
  hl_tw_stop(b);
  hl_tw_field(b, HL_TT_I16, 2);
  hl_tw_i16(b, 12);
  hl_tw_field(b, HL_TT_BYTE, 3);
  hl_tw_byte(b, -2);
  hl_tw_field(b, HL_TT_I32, 4);
  hl_tw_i32(b, 70000);
  hl_tw_field(b, HL_TT_MAP, 5);
  hl_tw_map(b, HL_TT_STRING, HL_TT_STRING, 0);
  hl_tw_stop(b);
}

TEST(fields_by_id) {
  hl_buf_t b;
  hl_error_t err;
  hl_hms_dec_t d;
  hl_hms_fields_t f;
  hl_arena_t *a = hl_arena_create(0);
  hl_buf_init(&b);
  hl_err_init(&err);
  write_args(&b);
  CHECK_INT(hl_tw_check(&b, &err), HL_OK);
  hl_hms_dec_init(&d, b.data, b.len, a, &err);
  CHECK_INT(hl_hms_read_fields(&d, 1, &f), HL_OK);
  CHECK_INT(hl_tr_offset(&d.r), b.len);
  CHECK_INT(f.has, (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4));
  CHECK_INT(f.i[2], 12);
  CHECK_INT(f.i[3], -2);
  CHECK_INT(f.i[4], 70000);
  CHECK(f.sub != NULL);
  if (f.sub) {
    CHECK_INT(f.sub->has, (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 10));
    CHECK_STR(f.sub->s[1], "db");
    CHECK_STR(f.sub->s[2], "t");
    CHECK_INT(f.sub->l[3].n, 2);
    CHECK_STR(f.sub->l[3].items[1], "a=2");
    CHECK_INT(f.sub->i[4], 1);
    CHECK_INT(f.sub->i[10], -7);
    CHECK_INT(f.sub->l[5].n, 0);
    CHECK(!hl_hms_fields_has(f.sub, 5));
    CHECK(!hl_hms_fields_has(f.sub, 6));
  }
  /* without NESTED_ID the request is skipped like any struct */
  hl_hms_dec_init(&d, b.data, b.len, a, &err);
  CHECK_INT(hl_hms_read_fields(&d, 0, &f), HL_OK);
  CHECK(f.sub == NULL);
  CHECK(!hl_hms_fields_has(&f, 1));
  /* every truncation fails as a protocol violation */
  int bad = 0;
  for (size_t n = 0; n < b.len; n++) {
    hl_error_t e;
    hl_err_init(&e);
    hl_hms_dec_init(&d, b.data, n, a, &e);
    if (hl_hms_read_fields(&d, 1, &f) != HL_CORRUPT || strcmp(e.sqlstate, "08P01") != 0) bad++;
    hl_err_clear(&e);
  }
  CHECK_INT(bad, 0);
  hl_err_clear(&err);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(wrong_element_in_string_list) {
  /* a string holding a NUL inside a list<string> fails (lists of other
   * elements are skipped: fields_by_id) */
  static const uint8_t msg[] = {0x0f, 0x00, 0x03, 0x0b, 0x00, 0x00, 0x00, 0x01,
                                0x00, 0x00, 0x00, 0x02, 'a',  0x00, 0x00};
  hl_error_t err;
  hl_hms_dec_t d;
  hl_hms_fields_t f;
  hl_arena_t *a = hl_arena_create(0);
  hl_err_init(&err);
  hl_hms_dec_init(&d, msg, sizeof msg, a, &err);
  CHECK_INT(hl_hms_read_fields(&d, 0, &f), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  hl_err_clear(&err);
  hl_arena_destroy(a);
}

TEST(encoders) {
  hl_buf_t b;
  hl_error_t err;
  hl_buf_init(&b);
  hl_err_init(&err);
  hl_hms_table_meta_t m = {"db", "t", "MANAGED_TABLE", "c", NULL, "o", 1, 1};
  hl_hms_write_table_meta(&b, &m);
  static const uint8_t want[] = {
      0x0b, 0,    1,   0,   0,   0,    2, 'd', 'b', 0x0b, 0,   2,   0,   0,    0,   1,
      't',  0x0b, 0,   3,   0,   0,    0, 13,  'M', 'A',  'N', 'A', 'G', 'E',  'D', '_',
      'T',  'A',  'B', 'L', 'E', 0x0b, 0, 4,   0,   0,    0,   1,   'c', 0x0b, 0,   6,
      0,    0,    0,   1,   'o', 0x08, 0, 7,   0,   0,    0,   1,   0x00};
  CHECK_INT(b.len, sizeof want);
  CHECK(b.len == sizeof want && memcmp(b.data, want, sizeof want) == 0);
  hl_buf_reset(&b);
  hl_hms_field_schema_t cols[] = {{"x", "int", NULL}};
  hl_hms_write_fields_response(&b, cols, 1);
  static const uint8_t want2[] = {0x0f, 0,    1, 0x0c, 0, 0, 0, 1, 0x0b, 0,   1,   0,    0,   0, 1,
                                  'x',  0x0b, 0, 2,    0, 0, 0, 3, 'i',  'n', 't', 0x00, 0x00};
  CHECK_INT(b.len, sizeof want2);
  CHECK(b.len == sizeof want2 && memcmp(b.data, want2, sizeof want2) == 0);
  hl_err_clear(&err);
  hl_buf_fini(&b);
}

int main(void) {
  RUN(fields_by_id);
  RUN(wrong_element_in_string_list);
  RUN(encoders);
  return test_report();
}
