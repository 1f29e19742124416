/*
 * test_pq_meta.c -- unit tests for the Parquet metadata layer
 * (src/format/parquet/pq_thrift.c, pq_meta.c, pq_schema.c, pq_codec.c).
 *
 * Thrift edge cases on hand-built bytes; encode -> decode round trips of
 * FileMetaData, PageHeader and the page index; schema trees for legacy and
 * malformed layouts and the Hive <-> Parquet type mapping; every codec; and
 * the public fixtures: every footer of ../shared/fixtures/parquet decodes,
 * every page header of every column chunk decodes and every page body
 * decompresses to its announced size (and CRCs match except in the files
 * built with corrupt checksums), while the files of parquet-bad/ either
 * decode or fail cleanly.  Fixture tests skip when HIVELITE_FIXTURES is
 * unset.
 */
#include "format/parquet/pq_codec.h"
#include "format/parquet/pq_meta.h"
#include "format/parquet/pq_schema.h"
#include "format/parquet/pq_thrift.h"
#include "test.h"
#include "util/mem.h"

#include <dirent.h>
#include <stdint.h>
#include <unistd.h>

static hl_error_t err;

static void reset_err(void) {
  hl_err_clear(&err);
}

/* ====================================================================== */
/* Thrift                                                                 */
/* ====================================================================== */

TEST(thrift_skip_every_type) {
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_pq_thrift_writer_t w;
  hl_pq_thrift_writer_init(&w, &buf);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_i32(&w, 1, -123456);
  /* Unknown fields of every type, to be skipped. */
  hl_pq_thrift_write_field_bool(&w, 2, true);
  hl_pq_thrift_write_field_bool(&w, 3, false);
  hl_pq_thrift_write_field(&w, 4, HL_PQ_T_BYTE);
  hl_pq_thrift_write_byte(&w, -5);
  hl_pq_thrift_write_field(&w, 5, HL_PQ_T_I16);
  hl_pq_thrift_write_i16(&w, -300);
  hl_pq_thrift_write_field_i64(&w, 6, INT64_MIN);
  hl_pq_thrift_write_field(&w, 7, HL_PQ_T_DOUBLE);
  hl_pq_thrift_write_double(&w, 2.5);
  hl_pq_thrift_write_field_binary(&w, 8, "hello", 5);
  hl_pq_thrift_write_field(&w, 9, HL_PQ_T_LIST); /* long-form list size */
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_I32, 20);
  for (int i = 0; i < 20; i++)
    hl_pq_thrift_write_i32(&w, i * 1000);
  hl_pq_thrift_write_field(&w, 10, HL_PQ_T_SET);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_BINARY, 2);
  hl_pq_thrift_write_binary(&w, "a", 1);
  hl_pq_thrift_write_binary(&w, "bc", 2);
  hl_pq_thrift_write_field(&w, 11, HL_PQ_T_MAP);
  hl_pq_thrift_write_map_begin(&w, HL_PQ_T_I32, HL_PQ_T_STRUCT, 2);
  for (int i = 0; i < 2; i++) {
    hl_pq_thrift_write_i32(&w, i);
    hl_pq_thrift_write_struct_begin(&w);
    hl_pq_thrift_write_field_bool(&w, 1, i == 0);
    hl_pq_thrift_write_struct_end(&w);
  }
  hl_pq_thrift_write_field(&w, 12, HL_PQ_T_MAP); /* empty map */
  hl_pq_thrift_write_map_begin(&w, HL_PQ_T_I32, HL_PQ_T_I32, 0);
  hl_pq_thrift_write_field_struct_begin(&w, 13); /* nested struct with a list of structs */
  hl_pq_thrift_write_field(&w, 1, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_STRUCT, 1);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field(&w, 1, HL_PQ_T_LIST); /* list of bools */
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_TRUE, 3);
  for (int i = 0; i < 3; i++)
    hl_pq_thrift_write_elem_bool(&w, i & 1);
  hl_pq_thrift_write_struct_end(&w);
  hl_pq_thrift_write_struct_end(&w);
  hl_pq_thrift_write_field(&w, 14, HL_PQ_T_UUID);
  hl_buf_append(&buf, "0123456789abcdef", 16);
  hl_pq_thrift_write_field_i64(&w, 300, 77); /* long-form field header (delta > 15) */
  hl_pq_thrift_write_field_i32(&w, 2, 9);    /* negative delta: long form too */
  hl_pq_thrift_write_struct_end(&w);
  CHECK(!buf.oom);

  hl_pq_thrift_reader_t r;
  hl_pq_thrift_reader_init(&r, buf.data, buf.len, &err);
  int16_t last;
  hl_pq_ttype_t t;
  int16_t id;
  int32_t v1 = 0, v2 = 0;
  int64_t v300 = 0;
  int n_skipped = 0;
  CHECK_INT(hl_pq_thrift_struct_begin(&r, &last), HL_OK);
  for (;;) {
    CHECK_INT(hl_pq_thrift_field(&r, &last, &t, &id), HL_OK);
    if (t == HL_PQ_T_STOP) break;
    if (id == 1) {
      CHECK_INT(hl_pq_thrift_read_i32(&r, &v1), HL_OK);
    } else if (id == 300) {
      CHECK_INT(t, HL_PQ_T_I64);
      CHECK_INT(hl_pq_thrift_read_i64(&r, &v300), HL_OK);
    } else if (id == 2 && t == HL_PQ_T_I32) {
      CHECK_INT(hl_pq_thrift_read_i32(&r, &v2), HL_OK);
    } else {
      CHECK_INT(hl_pq_thrift_skip(&r, t), HL_OK);
      n_skipped++;
    }
  }
  hl_pq_thrift_struct_end(&r);
  CHECK_INT(v1, -123456);
  CHECK_INT(v300, 77);
  CHECK_INT(v2, 9);
  CHECK_INT(n_skipped, 13);
  CHECK_INT(hl_pq_thrift_remaining(&r), 0);
  CHECK_INT(r.depth, 0);
  CHECK_INT(err.code, HL_OK);
  hl_buf_fini(&buf);
}

TEST(thrift_varints) {
  hl_pq_thrift_reader_t r;
  int32_t v32;
  int64_t v64;
  /* Truncated varint. */
  hl_pq_thrift_reader_init(&r, "\x80\x80", 2, &err);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_CORRUPT);
  CHECK(r.truncated);
  CHECK_STR(err.sqlstate, "XX001");
  CHECK(strstr(err.message, "varint") != NULL);
  reset_err();
  /* Too long for 32 bits (value 2^32). */
  hl_pq_thrift_reader_init(&r, "\x80\x80\x80\x80\x10", 5, &err);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_CORRUPT);
  CHECK(!r.truncated);
  reset_err();
  /* Largest 32-bit zigzag value: 0xFFFFFFFF = INT32_MIN. */
  hl_pq_thrift_reader_init(&r, "\xff\xff\xff\xff\x0f", 5, &err);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_OK);
  CHECK_INT(v32, INT32_MIN);
  /* Eleven-byte varint for 64 bits is refused. */
  hl_pq_thrift_reader_init(&r, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, &err);
  CHECK_INT(hl_pq_thrift_read_i64(&r, &v64), HL_OK);
  CHECK_INT(v64, INT64_MIN);
  hl_pq_thrift_reader_init(&r, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x03", 10, &err);
  CHECK_INT(hl_pq_thrift_read_i64(&r, &v64), HL_CORRUPT);
  reset_err();
  /* Zigzag small values. */
  hl_pq_thrift_reader_init(&r, "\x01\x02\x03", 3, &err);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_OK);
  CHECK_INT(v32, -1);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_OK);
  CHECK_INT(v32, 1);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_OK);
  CHECK_INT(v32, -2);
  CHECK_INT(hl_pq_thrift_read_i32(&r, &v32), HL_CORRUPT); /* end of input */
  reset_err();
  /* Field id overflow through deltas. */
  int16_t last = INT16_MAX - 2;
  hl_pq_ttype_t t;
  int16_t id;
  hl_pq_thrift_reader_init(&r, "\xf5", 1, &err);
  CHECK_INT(hl_pq_thrift_field(&r, &last, &t, &id), HL_CORRUPT);
  reset_err();
  /* Unknown type nibble. */
  last = 0;
  hl_pq_thrift_reader_init(&r, "\x1e", 1, &err);
  CHECK_INT(hl_pq_thrift_field(&r, &last, &t, &id), HL_CORRUPT);
  reset_err();
}

TEST(thrift_bounds) {
  hl_pq_thrift_reader_t r;
  hl_pq_ttype_t et, kt, vt;
  uint32_t n;
  /* A list claiming 2^31-1 elements over 3 bytes is refused up front. */
  hl_pq_thrift_reader_init(&r, "\xf5\xff\xff\xff\xff\x07\x01\x02\x03", 9, &err);
  CHECK_INT(hl_pq_thrift_list_begin(&r, &et, &n), HL_CORRUPT);
  reset_err();
  /* Short form: 3 i32 elements but only 2 bytes. */
  hl_pq_thrift_reader_init(&r, "\x35\x02\x04", 3, &err);
  CHECK_INT(hl_pq_thrift_list_begin(&r, &et, &n), HL_CORRUPT);
  reset_err();
  hl_pq_thrift_reader_init(&r, "\x35\x02\x04\x06", 4, &err);
  CHECK_INT(hl_pq_thrift_list_begin(&r, &et, &n), HL_OK);
  CHECK_INT(n, 3);
  CHECK_INT(et, HL_PQ_T_I32);
  /* Long form with a size below 15 is malformed. */
  hl_pq_thrift_reader_init(&r, "\xf5\x03\x00\x00\x00", 5, &err);
  CHECK_INT(hl_pq_thrift_list_begin(&r, &et, &n), HL_CORRUPT);
  reset_err();
  /* Map of 1000 pairs in 4 bytes. */
  hl_pq_thrift_reader_init(&r, "\xe8\x07\x55\x00", 4, &err);
  CHECK_INT(hl_pq_thrift_map_begin(&r, &kt, &vt, &n), HL_CORRUPT);
  reset_err();
  /* Binary longer than the buffer. */
  const uint8_t *p;
  size_t len;
  hl_pq_thrift_reader_init(&r,
                           "\x05"
                           "abc",
                           4, &err);
  CHECK_INT(hl_pq_thrift_read_binary(&r, &p, &len), HL_CORRUPT);
  CHECK(r.truncated);
  reset_err();
  hl_pq_thrift_reader_init(&r,
                           "\x03"
                           "abc",
                           4, &err);
  CHECK_INT(hl_pq_thrift_read_binary(&r, &p, &len), HL_OK);
  CHECK_INT(len, 3);
  CHECK(memcmp(p, "abc", 3) == 0);
  /* Nesting: 200 nested structs stop at the depth limit while skipping. */
  uint8_t deep[402];
  for (int i = 0; i < 200; i++)
    deep[i] = 0x1c; /* field 1 (delta 1), type struct */
  memset(deep + 200, 0, 202);
  hl_pq_thrift_reader_init(&r, deep, sizeof deep, &err);
  CHECK_INT(hl_pq_thrift_skip(&r, HL_PQ_T_STRUCT), HL_CORRUPT);
  CHECK(strstr(err.message, "nested too deeply") != NULL);
  reset_err();
  /* Nested lists also count. */
  uint8_t lists[300];
  for (int i = 0; i < 299; i++)
    lists[i] = 0x19; /* list of 1 list */
  lists[299] = 0x00;
  hl_pq_thrift_reader_init(&r, lists, sizeof lists, &err);
  CHECK_INT(hl_pq_thrift_skip(&r, HL_PQ_T_LIST), HL_CORRUPT);
  reset_err();
}

/* A FileMetaData whose schema list claims a billion elements: refused
 * before anything that size is allocated. */
TEST(meta_huge_counts) {
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_pq_thrift_writer_t w;
  hl_pq_thrift_writer_init(&w, &buf);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_i32(&w, 1, 1);
  hl_pq_thrift_write_field(&w, 2, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_STRUCT, 1000000000u);
  hl_buf_append(&buf, "\x00\x00\x00\x00", 4);
  hl_arena_t *a = hl_arena_create(0);
  hl_pq_file_meta_t *m;
  CHECK_INT(hl_pq_file_meta_decode(a, buf.data, buf.len, &m, &err), HL_CORRUPT);
  CHECK(hl_arena_used(a) < 4096);
  reset_err();
  /* Truncating a valid encoding at every length fails cleanly. */
  hl_arena_destroy(a);
  hl_buf_fini(&buf);
}

/* ====================================================================== */
/* Round trips                                                            */
/* ====================================================================== */

static hl_pq_meta_bytes_t bytes_of(const char *s) {
  hl_pq_meta_bytes_t b = {(const uint8_t *)s, strlen(s)};
  return b;
}

static bool bytes_eq(hl_pq_meta_bytes_t b, const char *s) {
  return b.len == strlen(s) && memcmp(b.ptr, s, b.len) == 0;
}

TEST(file_meta_round_trip) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *types[3];
  hl_type_parse_str(a, "int", (hl_type_t **)&types[0], &err);
  hl_type_parse_str(a, "array<string>", (hl_type_t **)&types[1], &err);
  hl_type_parse_str(a, "decimal(30,4)", (hl_type_t **)&types[2], &err);
  const char *names[] = {"id", "tags", "amount"};
  hl_pq_file_meta_t m;
  memset(&m, 0, sizeof m);
  m.version = 1;
  CHECK_INT(hl_pq_schema_from_hive(a, 3, types, names, false, &m.schema, &m.n_schema, &err), HL_OK);
  CHECK_INT(m.n_schema, 6);
  m.num_rows = 1234567890123LL;
  hl_pq_stats_t stats = {.has_min_value = true,
                         .has_max_value = true,
                         .min_value = bytes_of("aa"),
                         .max_value = bytes_of("zz"),
                         .has_null_count = true,
                         .null_count = 3,
                         .has_is_max_value_exact = true,
                         .is_max_value_exact = false};
  hl_pq_encoding_t encs[] = {HL_PQ_ENC_PLAIN, HL_PQ_ENC_RLE, HL_PQ_ENC_RLE_DICTIONARY};
  char *path[] = {"tags", "list", "element"};
  hl_pq_kv_t ckv[] = {{"k", "v", 1}, {"nokey", NULL, 0}};
  hl_pq_page_enc_stats_t es[] = {{HL_PQ_PAGE_DICTIONARY, HL_PQ_ENC_PLAIN, 1},
                                 {HL_PQ_PAGE_DATA, HL_PQ_ENC_RLE_DICTIONARY, 7}};
  hl_pq_column_meta_t cm = {.type = HL_PQ_BYTE_ARRAY,
                            .n_encodings = 3,
                            .encodings = encs,
                            .n_path = 3,
                            .path_in_schema = path,
                            .codec = HL_PQ_ZSTD,
                            .num_values = 99,
                            .total_uncompressed_size = 5000,
                            .total_compressed_size = 3000,
                            .n_kv = 2,
                            .key_value_metadata = ckv,
                            .data_page_offset = 4000000000LL,
                            .has_dictionary_page_offset = true,
                            .dictionary_page_offset = 4,
                            .statistics = &stats,
                            .n_encoding_stats = 2,
                            .encoding_stats = es,
                            .has_bloom_filter_offset = true,
                            .bloom_filter_offset = 77,
                            .has_bloom_filter_length = true,
                            .bloom_filter_length = 12};
  hl_pq_column_chunk_t cc[3] = {{.file_offset = 0, .meta_data = &cm},
                                {.file_offset = 5,
                                 .meta_data = &cm,
                                 .has_offset_index_offset = true,
                                 .offset_index_offset = 100,
                                 .has_offset_index_length = true,
                                 .offset_index_length = 20,
                                 .has_column_index_offset = true,
                                 .column_index_offset = 120,
                                 .has_column_index_length = true,
                                 .column_index_length = 30},
                                {.file_path = "other.parquet", .meta_data = NULL}};
  hl_pq_sorting_column_t sc = {1, true, false};
  hl_pq_row_group_t rg = {.n_columns = 3,
                          .columns = cc,
                          .total_byte_size = 10,
                          .num_rows = 11,
                          .n_sorting_columns = 1,
                          .sorting_columns = &sc,
                          .has_file_offset = true,
                          .file_offset = 4,
                          .has_ordinal = true,
                          .ordinal = -2};
  m.n_row_groups = 1;
  m.row_groups = &rg;
  hl_pq_kv_t kv = {"writer.model", "hivelite", 8};
  m.n_kv = 1;
  m.key_value_metadata = &kv;
  m.created_by = "hivelite version 0.1";
  hl_pq_column_order_t orders[] = {HL_PQ_ORDER_TYPE_DEFINED, HL_PQ_ORDER_IEEE_754_TOTAL,
                                   HL_PQ_ORDER_TYPE_DEFINED};
  m.n_column_orders = 3;
  m.column_orders = orders;

  hl_buf_t enc, enc2;
  hl_buf_init(&enc);
  hl_buf_init(&enc2);
  CHECK_INT(hl_pq_file_meta_encode(&m, &enc, &err), HL_OK);
  hl_pq_file_meta_t *d = NULL;
  CHECK_INT(hl_pq_file_meta_decode(a, enc.data, enc.len, &d, &err), HL_OK);
  if (d) {
    CHECK_INT(d->version, 1);
    CHECK_INT(d->num_rows, 1234567890123LL);
    CHECK_INT(d->n_schema, 6);
    CHECK_STR(d->schema[0].name, "hive_schema");
    CHECK_INT(d->schema[0].num_children, 3);
    CHECK_STR(d->schema[2].name, "tags");
    CHECK_INT(d->schema[2].logical.kind, HL_PQ_LT_LIST);
    CHECK_INT(d->schema[2].converted_type, HL_PQ_CONV_LIST);
    CHECK_STR(d->schema[3].name, "list");
    CHECK_INT(d->schema[3].repetition, HL_PQ_REPEATED);
    CHECK_STR(d->schema[4].name, "element");
    CHECK_INT(d->schema[4].logical.kind, HL_PQ_LT_STRING);
    CHECK_INT(d->schema[5].type, HL_PQ_FIXED_LEN_BYTE_ARRAY);
    CHECK_INT(d->schema[5].type_length, 13);
    CHECK_INT(d->schema[5].logical.precision, 30);
    CHECK_INT(d->schema[5].logical.scale, 4);
    CHECK_INT(d->schema[5].precision, 30);
    CHECK_INT(d->n_row_groups, 1);
    hl_pq_row_group_t *g = &d->row_groups[0];
    CHECK_INT(g->n_columns, 3);
    CHECK_INT(g->ordinal, -2);
    CHECK_INT(g->sorting_columns[0].column_idx, 1);
    CHECK(g->sorting_columns[0].descending && !g->sorting_columns[0].nulls_first);
    hl_pq_column_meta_t *c = g->columns[0].meta_data;
    CHECK_INT(c->codec, HL_PQ_ZSTD);
    CHECK_INT(c->n_encodings, 3);
    CHECK_INT(c->encodings[2], HL_PQ_ENC_RLE_DICTIONARY);
    CHECK_STR(c->path_in_schema[2], "element");
    CHECK_INT(c->data_page_offset, 4000000000LL);
    CHECK_INT(c->dictionary_page_offset, 4);
    CHECK(!c->has_index_page_offset);
    CHECK_STR(c->key_value_metadata[0].value, "v");
    CHECK(c->key_value_metadata[1].value == NULL);
    CHECK(bytes_eq(c->statistics->min_value, "aa") && bytes_eq(c->statistics->max_value, "zz"));
    CHECK_INT(c->statistics->null_count, 3);
    CHECK(!c->statistics->has_min && !c->statistics->has_distinct_count);
    CHECK(c->statistics->has_is_max_value_exact && !c->statistics->is_max_value_exact);
    CHECK_INT(c->encoding_stats[1].count, 7);
    CHECK_INT(c->bloom_filter_length, 12);
    CHECK_INT(g->columns[1].column_index_length, 30);
    CHECK_INT(g->columns[1].offset_index_offset, 100);
    CHECK(!g->columns[0].has_column_index_offset);
    CHECK_STR(g->columns[2].file_path, "other.parquet");
    CHECK(g->columns[2].meta_data == NULL);
    CHECK_STR(d->created_by, "hivelite version 0.1");
    CHECK_STR(d->key_value_metadata[0].value, "hivelite");
    CHECK_INT(d->column_orders[1], HL_PQ_ORDER_IEEE_754_TOTAL);
    /* Re-encoding the decoded structure gives the same bytes. */
    CHECK_INT(hl_pq_file_meta_encode(d, &enc2, &err), HL_OK);
    CHECK(enc.len == enc2.len && memcmp(enc.data, enc2.data, enc.len) == 0);
  }
  /* Every proper prefix fails cleanly. */
  int prefix_failures = 0;
  for (size_t cut = 0; cut < enc.len; cut++) {
    hl_pq_file_meta_t *x;
    if (hl_pq_file_meta_decode(a, enc.data, cut, &x, &err) == HL_CORRUPT) prefix_failures++;
    reset_err();
  }
  CHECK_INT(prefix_failures, (long long)enc.len);
  hl_buf_fini(&enc);
  hl_buf_fini(&enc2);
  hl_arena_destroy(a);
}

TEST(page_header_round_trip) {
  hl_arena_t *a = hl_arena_create(0);
  hl_pq_stats_t stats = {.has_min_value = true,
                         .min_value = {(const uint8_t *)"\x01\x00\x00\x00", 4}};
  hl_pq_page_header_t h[3];
  memset(h, 0, sizeof h);
  h[0].type = HL_PQ_PAGE_DATA;
  h[0].uncompressed_page_size = 1000;
  h[0].compressed_page_size = 400;
  h[0].has_crc = true;
  h[0].crc = (int32_t)0xCBF43926u;
  h[0].has_data_page_header = true;
  h[0].data_page_header = (hl_pq_data_page_header_t){250, HL_PQ_ENC_RLE_DICTIONARY, HL_PQ_ENC_RLE,
                                                     HL_PQ_ENC_RLE, &stats};
  h[1].type = HL_PQ_PAGE_DICTIONARY;
  h[1].uncompressed_page_size = 80;
  h[1].compressed_page_size = 80;
  h[1].has_dictionary_page_header = true;
  h[1].dictionary_page_header = (hl_pq_dict_page_header_t){20, HL_PQ_ENC_PLAIN, true, true};
  h[2].type = HL_PQ_PAGE_DATA_V2;
  h[2].uncompressed_page_size = 0;
  h[2].compressed_page_size = 0;
  h[2].has_data_page_header_v2 = true;
  h[2].data_page_header_v2 =
      (hl_pq_data_page_header_v2_t){10, 10, 10, HL_PQ_ENC_PLAIN, 2, 0, false, NULL};
  hl_buf_t buf;
  hl_buf_init(&buf);
  size_t ends[3];
  for (int i = 0; i < 3; i++) {
    CHECK_INT(hl_pq_page_header_encode(&h[i], &buf, &err), HL_OK);
    ends[i] = buf.len;
  }
  hl_buf_append(&buf, "page bytes", 10);
  /* Decode the three back to back. */
  size_t off = 0;
  hl_pq_page_header_t d;
  size_t used;
  bool more;
  CHECK_INT(hl_pq_page_header_decode(a, buf.data, buf.len, &d, &used, &more, &err), HL_OK);
  CHECK_INT(used, ends[0]);
  CHECK_INT(d.type, HL_PQ_PAGE_DATA);
  CHECK_INT(d.compressed_page_size, 400);
  CHECK((uint32_t)d.crc == 0xCBF43926u && d.has_crc);
  CHECK_INT(d.data_page_header.num_values, 250);
  CHECK_INT(d.data_page_header.encoding, HL_PQ_ENC_RLE_DICTIONARY);
  CHECK(d.data_page_header.statistics && d.data_page_header.statistics->min_value.len == 4);
  /* Without an arena the statistics are skipped. */
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data, buf.len, &d, &used, &more, &err), HL_OK);
  CHECK(d.data_page_header.statistics == NULL);
  CHECK_INT(used, ends[0]);
  off = used;
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data + off, buf.len - off, &d, &used, &more, &err),
            HL_OK);
  CHECK_INT(off + used, ends[1]);
  CHECK_INT(d.type, HL_PQ_PAGE_DICTIONARY);
  CHECK_INT(d.dictionary_page_header.num_values, 20);
  CHECK(d.dictionary_page_header.has_is_sorted && d.dictionary_page_header.is_sorted);
  off += used;
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data + off, buf.len - off, &d, &used, &more, &err),
            HL_OK);
  CHECK_INT(off + used, ends[2]);
  CHECK_INT(d.type, HL_PQ_PAGE_DATA_V2);
  CHECK_INT(d.data_page_header_v2.num_nulls, 10);
  CHECK_INT(d.data_page_header_v2.definition_levels_byte_length, 2);
  CHECK(!d.data_page_header_v2.is_compressed);
  /* A prefix asks for more bytes. */
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data, ends[0] - 3, &d, &used, &more, &err),
            HL_CORRUPT);
  CHECK(more);
  reset_err();
  /* A data page without its data_page_header is corrupt, not "more". */
  hl_pq_page_header_t bad = {.type = HL_PQ_PAGE_DATA, .uncompressed_page_size = 1};
  hl_buf_reset(&buf);
  hl_pq_page_header_encode(&bad, &buf, &err);
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data, buf.len, &d, &used, &more, &err), HL_CORRUPT);
  CHECK(!more);
  CHECK(strstr(err.message, "data_page_header is missing") != NULL);
  reset_err();
  /* Negative sizes are corrupt. */
  bad = (hl_pq_page_header_t){.type = HL_PQ_PAGE_INDEX, .compressed_page_size = -5};
  hl_buf_reset(&buf);
  hl_pq_page_header_encode(&bad, &buf, &err);
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data, buf.len, &d, &used, &more, &err), HL_CORRUPT);
  CHECK(strstr(err.message, "compressed_page_size is negative") != NULL);
  reset_err();
  hl_buf_fini(&buf);
  hl_arena_destroy(a);
}

TEST(page_index_round_trip) {
  hl_arena_t *a = hl_arena_create(0);
  bool nulls[3] = {false, true, false};
  hl_pq_meta_bytes_t mins[3] = {bytes_of("a"), bytes_of(""), bytes_of("m")};
  hl_pq_meta_bytes_t maxs[3] = {bytes_of("f"), bytes_of(""), bytes_of("z")};
  int64_t counts[3] = {0, 5, 1};
  hl_pq_column_index_t ci = {3, nulls, mins, maxs, HL_PQ_ASCENDING, true, counts};
  hl_pq_page_location_t locs[2] = {{4, 100, 0}, {104, 90, 500}};
  hl_pq_offset_index_t oi = {2, locs};
  hl_buf_t b1, b2;
  hl_buf_init(&b1);
  hl_buf_init(&b2);
  CHECK_INT(hl_pq_column_index_encode(&ci, &b1, &err), HL_OK);
  CHECK_INT(hl_pq_offset_index_encode(&oi, &b2, &err), HL_OK);
  hl_pq_column_index_t *dc = NULL;
  hl_pq_offset_index_t *doi = NULL;
  CHECK_INT(hl_pq_column_index_decode(a, b1.data, b1.len, &dc, &err), HL_OK);
  CHECK_INT(hl_pq_offset_index_decode(a, b2.data, b2.len, &doi, &err), HL_OK);
  if (dc && doi) {
    CHECK_INT(dc->n_pages, 3);
    CHECK(!dc->null_pages[0] && dc->null_pages[1] && !dc->null_pages[2]);
    CHECK(bytes_eq(dc->min_values[2], "m") && bytes_eq(dc->max_values[0], "f"));
    CHECK_INT(dc->min_values[1].len, 0);
    CHECK_INT(dc->boundary_order, HL_PQ_ASCENDING);
    CHECK(dc->has_null_counts);
    CHECK_INT(dc->null_counts[1], 5);
    CHECK_INT(doi->n_pages, 2);
    CHECK_INT(doi->page_locations[1].offset, 104);
    CHECK_INT(doi->page_locations[1].compressed_page_size, 90);
    CHECK_INT(doi->page_locations[1].first_row_index, 500);
  }
  /* Lists of different lengths are corrupt. */
  ci.n_pages = 3;
  hl_buf_reset(&b1);
  hl_pq_column_index_t bad = ci;
  bad.has_null_counts = false;
  hl_pq_column_index_encode(&bad, &b1, &err);
  /* Patch: re-encode with null_pages of 2 by hand. */
  hl_buf_t b3;
  hl_buf_init(&b3);
  hl_pq_thrift_writer_t w;
  hl_pq_thrift_writer_init(&w, &b3);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field(&w, 1, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_TRUE, 2);
  hl_pq_thrift_write_elem_bool(&w, true);
  hl_pq_thrift_write_elem_bool(&w, false);
  for (int16_t id = 2; id <= 3; id++) {
    hl_pq_thrift_write_field(&w, id, HL_PQ_T_LIST);
    hl_pq_thrift_write_list_begin(&w, HL_PQ_T_BINARY, 1);
    hl_pq_thrift_write_binary(&w, "x", 1);
  }
  hl_pq_thrift_write_field_i32(&w, 4, 0);
  hl_pq_thrift_write_struct_end(&w);
  CHECK_INT(hl_pq_column_index_decode(a, b3.data, b3.len, &dc, &err), HL_CORRUPT);
  reset_err();
  hl_buf_fini(&b1);
  hl_buf_fini(&b2);
  hl_buf_fini(&b3);
  hl_arena_destroy(a);
}

/* Known ids with an unexpected wire type are skipped (Thrift-generated
 * readers do the same); a required one then counts as missing. */
TEST(meta_wrong_wire_type) {
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_pq_thrift_writer_t w;
  hl_pq_thrift_writer_init(&w, &buf);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_i32(&w, 1, HL_PQ_PAGE_INDEX);
  hl_pq_thrift_write_field_i32(&w, 2, 7);
  hl_pq_thrift_write_field_i32(&w, 3, 7);
  hl_pq_thrift_write_field_binary(&w, 4, "crc?", 4); /* crc as binary: skipped */
  hl_pq_thrift_write_field_i64(&w, 99, 1);           /* unknown id */
  hl_pq_thrift_write_struct_end(&w);
  hl_pq_page_header_t d;
  size_t used = 0;
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data, buf.len, &d, &used, NULL, &err), HL_OK);
  CHECK_INT(used, buf.len);
  CHECK(!d.has_crc);
  CHECK_INT(d.uncompressed_page_size, 7);
  hl_buf_reset(&buf);
  hl_pq_thrift_writer_init(&w, &buf);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_i32(&w, 1, HL_PQ_PAGE_INDEX);
  hl_pq_thrift_write_field_binary(&w, 2, "x", 1);
  hl_pq_thrift_write_field_i32(&w, 3, 7);
  hl_pq_thrift_write_struct_end(&w);
  CHECK_INT(hl_pq_page_header_decode(NULL, buf.data, buf.len, &d, &used, NULL, &err), HL_CORRUPT);
  CHECK_STR(err.message, "corrupt Parquet metadata: PageHeader.uncompressed_page_size is missing");
  reset_err();
  /* Fuzzer regression: a KeyValue value of the wrong wire type is skipped
   * (left absent), and the structure re-encodes. */
  static const uint8_t kv_bad[] = {0x15, 0x02, 0x19, 0x1c, 0x48, 0x01, 's',  0x15,
                                   0x00, 0x00, 0x16, 0x00, 0x19, 0x0c, 0x19, 0x1c,
                                   0x18, 0x01, 'k',  0x15, 0x0a, 0x00, 0x00};
  hl_arena_t *a = hl_arena_create(0);
  hl_pq_file_meta_t *m = NULL;
  CHECK_INT(hl_pq_file_meta_decode(a, kv_bad, sizeof kv_bad, &m, &err), HL_OK);
  if (m) {
    CHECK_INT(m->n_kv, 1);
    CHECK_STR(m->key_value_metadata[0].key, "k");
    CHECK(m->key_value_metadata[0].value == NULL);
    CHECK_INT(m->key_value_metadata[0].value_len, 0);
    hl_buf_reset(&buf);
    CHECK_INT(hl_pq_file_meta_encode(m, &buf, &err), HL_OK);
  }
  hl_arena_destroy(a);
  hl_buf_fini(&buf);
}

TEST(column_chunk_range) {
  hl_pq_column_meta_t c = {.data_page_offset = 200,
                           .has_dictionary_page_offset = true,
                           .dictionary_page_offset = 4,
                           .total_compressed_size = 300};
  hl_pq_file_meta_t m = {.created_by = "parquet-mr version 1.12.0 (build abc)"};
  uint64_t start, len;
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 1000, &start, &len, &err), HL_OK);
  CHECK_INT(start, 4);
  CHECK_INT(len, 300);
  c.dictionary_page_offset = 0; /* some writers write 0: ignored */
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 1000, &start, &len, &err), HL_OK);
  CHECK_INT(start, 200);
  /* Old parquet-mr (PARQUET-816): padded by up to 100 bytes in the file. */
  m.created_by = "parquet-mr version 1.2.8";
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 1000, &start, &len, &err), HL_OK);
  CHECK_INT(len, 400);
  m.created_by = "parquet-mr";
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 550, &start, &len, &err), HL_OK);
  CHECK_INT(len, 350);
  m.created_by = "parquet-mr version 1.2.9";
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 1000, &start, &len, &err), HL_OK);
  CHECK_INT(len, 300);
  m.created_by = NULL;
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 499, &start, &len, &err), HL_CORRUPT);
  reset_err();
  c.data_page_offset = INT64_MAX - 10;
  CHECK_INT(hl_pq_column_chunk_range(&m, &c, 1000, &start, &len, &err), HL_CORRUPT);
  reset_err();
}

/* ====================================================================== */
/* Schema                                                                 */
/* ====================================================================== */

static hl_pq_schema_elem_t grp(const char *name, int rep, int n) {
  hl_pq_schema_elem_t e = {.name = (char *)name, .has_num_children = true, .num_children = n};
  if (rep >= 0) {
    e.has_repetition = true;
    e.repetition = rep;
  }
  return e;
}

static hl_pq_schema_elem_t leaf(const char *name, int rep, hl_pq_type_t type) {
  hl_pq_schema_elem_t e = {.name = (char *)name, .has_type = true, .type = type};
  e.has_repetition = true;
  e.repetition = rep;
  return e;
}

static hl_pq_schema_elem_t conv(hl_pq_schema_elem_t e, hl_pq_converted_t c) {
  e.has_converted_type = true;
  e.converted_type = c;
  return e;
}

static const char *field_type(hl_arena_t *a, const hl_pq_schema_t *s, int i) {
  const hl_type_t *t = NULL;
  hl_pq_schema_field(s, i, &t, NULL, NULL);
  return t ? hl_type_to_string(a, t) : "(none)";
}

TEST(schema_legacy_lists_and_maps) {
  hl_arena_t *a = hl_arena_create(0);
  enum { R = HL_PQ_REQUIRED, O = HL_PQ_OPTIONAL, P = HL_PQ_REPEATED };
  hl_pq_schema_elem_t e[] = {
      grp("schema", -1, 8),
      /* 0: rule 1, repeated primitive */
      conv(grp("L1", O, 1), HL_PQ_CONV_LIST),
      leaf("element", P, HL_PQ_INT32),
      /* 1: rule 2, repeated group of two fields */
      conv(grp("L2", O, 1), HL_PQ_CONV_LIST),
      grp("element", P, 2),
      conv(leaf("str", R, HL_PQ_BYTE_ARRAY), HL_PQ_CONV_UTF8),
      leaf("num", R, HL_PQ_INT32),
      /* 2: rule 3, one-field group named array */
      conv(grp("L3", O, 1), HL_PQ_CONV_LIST),
      grp("array", P, 1),
      conv(leaf("str", R, HL_PQ_BYTE_ARRAY), HL_PQ_CONV_UTF8),
      /* 3: rule 3, <name>_tuple */
      conv(grp("L4", O, 1), HL_PQ_CONV_LIST),
      grp("L4_tuple", P, 1),
      leaf("n", R, HL_PQ_INT64),
      /* 4: rule 4, standard 3-level, optional elements */
      conv(grp("L5", R, 1), HL_PQ_CONV_LIST),
      grp("list", P, 1),
      leaf("element", O, HL_PQ_DOUBLE),
      /* 5: MAP_KEY_VALUE outside MAP acts as MAP; odd names */
      conv(grp("M1", O, 1), HL_PQ_CONV_MAP_KEY_VALUE),
      grp("map", P, 2),
      conv(leaf("key", R, HL_PQ_BYTE_ARRAY), HL_PQ_CONV_UTF8),
      leaf("value", O, HL_PQ_INT32),
      /* 6: unannotated repeated group in a struct */
      grp("S", O, 1),
      grp("phone", P, 1),
      leaf("number", R, HL_PQ_INT64),
      /* 7: top-level repeated primitive */
      leaf("Tags", P, HL_PQ_INT32),
  };
  int n = (int)(sizeof e / sizeof e[0]);
  hl_pq_schema_t *s = NULL;
  CHECK_INT(hl_pq_schema_build(a, e, n, &s, &err), HL_OK);
  if (!s) goto done;
  CHECK_INT(s->n_fields, 8);
  CHECK_INT(s->n_leaves, 10);
  CHECK_STR(field_type(a, s, 0), "array<int>");
  CHECK_STR(field_type(a, s, 1), "array<struct<str:string,num:int>>");
  CHECK_STR(field_type(a, s, 2), "array<struct<str:string>>");
  CHECK_STR(field_type(a, s, 3), "array<struct<n:bigint>>");
  CHECK_STR(field_type(a, s, 4), "array<double>");
  CHECK_STR(field_type(a, s, 5), "map<string,int>");
  CHECK_STR(field_type(a, s, 6), "struct<phone:array<struct<number:bigint>>>");
  CHECK_STR(field_type(a, s, 7), "array<int>");
  /* Levels. */
  CHECK_INT(s->leaves[0].max_def, 2);
  CHECK_INT(s->leaves[0].max_rep, 1);
  CHECK_STR(s->leaves[0].path_str, "L1.element");
  CHECK_INT(s->leaves[5].max_def, 2); /* L5 required, list repeated, element optional */
  CHECK_INT(s->leaves[5].max_rep, 1);
  CHECK_INT(s->leaves[9].max_def, 1);
  CHECK_INT(s->leaves[9].max_rep, 1);
  CHECK_INT(s->leaves[9].field, 7);
  CHECK_INT(s->leaves[8].field, 6);
  CHECK_INT(s->leaves[8].max_def, 2); /* S optional, phone repeated, number required */
  /* Node roles. */
  const hl_pq_node_t *l1 = s->fields[0];
  CHECK_INT(l1->kind, HL_PQ_NODE_LIST);
  CHECK(l1->repeated == l1->children[0]);
  CHECK(l1->element != l1->repeated && l1->element->kind == HL_PQ_NODE_PRIMITIVE);
  CHECK(s->leaves[0].node == l1->element);
  CHECK_INT(l1->element->conv, HL_PQ_CV_INT32);
  const hl_pq_node_t *l5 = s->fields[4];
  CHECK(l5->element == l5->repeated->children[0]);
  CHECK_INT(l5->element->max_def, 2);
  const hl_pq_node_t *m1 = s->fields[5];
  CHECK_INT(m1->kind, HL_PQ_NODE_MAP);
  CHECK_STR(m1->key->name, "key");
  CHECK_STR(m1->value->name, "value");
  const hl_pq_node_t *tags = s->fields[7];
  CHECK_INT(tags->kind, HL_PQ_NODE_LIST);
  CHECK(tags->repeated == tags);
  CHECK_STR(tags->name, "tags");
  CHECK_INT(hl_pq_schema_find_field(s, "TAGS"), 7);
  CHECK_INT(hl_pq_schema_find_field(s, "l5"), 4);
  CHECK_INT(hl_pq_schema_find_field(s, "nope"), -1);
  int first = -1, count = -1;
  hl_pq_schema_field(s, 1, NULL, &first, &count);
  CHECK_INT(first, 1);
  CHECK_INT(count, 2);
done:
  hl_arena_destroy(a);
}

TEST(schema_malformed) {
  hl_arena_t *a = hl_arena_create(0);
  hl_pq_schema_t *s;
  enum { R = HL_PQ_REQUIRED, O = HL_PQ_OPTIONAL };
  /* num_children larger than the list. */
  hl_pq_schema_elem_t e1[] = {grp("schema", -1, 3), leaf("a", R, HL_PQ_INT32)};
  CHECK_INT(hl_pq_schema_build(a, e1, 2, &s, &err), HL_CORRUPT);
  CHECK(strstr(err.message, "num_children") != NULL);
  reset_err();
  /* Elements left over. */
  hl_pq_schema_elem_t e2[] = {grp("schema", -1, 1), leaf("a", R, HL_PQ_INT32),
                              leaf("b", R, HL_PQ_INT32)};
  CHECK_INT(hl_pq_schema_build(a, e2, 3, &s, &err), HL_CORRUPT);
  reset_err();
  /* Negative num_children. */
  hl_pq_schema_elem_t e3[] = {grp("schema", -1, 1), grp("g", O, -1)};
  CHECK_INT(hl_pq_schema_build(a, e3, 2, &s, &err), HL_CORRUPT);
  reset_err();
  /* FIXED_LEN_BYTE_ARRAY without a length. */
  hl_pq_schema_elem_t e4[] = {grp("schema", -1, 1), leaf("f", O, HL_PQ_FIXED_LEN_BYTE_ARRAY)};
  CHECK_INT(hl_pq_schema_build(a, e4, 2, &s, &err), HL_CORRUPT);
  reset_err();
  /* A leaf without a type and without children. */
  hl_pq_schema_elem_t e5[] = {grp("schema", -1, 1), {.name = "x", .has_repetition = true}};
  CHECK_INT(hl_pq_schema_build(a, e5, 2, &s, &err), HL_CORRUPT);
  reset_err();
  /* Nesting deeper than the limit. */
  int depth = HL_PQ_SCHEMA_MAX_DEPTH + 5;
  hl_pq_schema_elem_t *deep = hl_arena_zalloc(a, sizeof *deep * (size_t)(depth + 1));
  deep[0] = grp("schema", -1, 1);
  for (int i = 1; i < depth; i++)
    deep[i] = grp("g", O, 1);
  deep[depth] = leaf("x", O, HL_PQ_INT32);
  CHECK_INT(hl_pq_schema_build(a, deep, depth + 1, &s, &err), HL_CORRUPT);
  CHECK(strstr(err.message, "nested too deeply") != NULL);
  reset_err();
  /* Empty schema and a primitive root. */
  CHECK_INT(hl_pq_schema_build(a, e1, 0, &s, &err), HL_CORRUPT);
  reset_err();
  hl_pq_schema_elem_t e6[] = {leaf("root", R, HL_PQ_INT32)};
  CHECK_INT(hl_pq_schema_build(a, e6, 1, &s, &err), HL_CORRUPT);
  reset_err();
  /* Unreadable but well-formed: DECIMAL(40) is flagged. */
  hl_pq_schema_elem_t e7[] = {grp("schema", -1, 1),
                              conv(leaf("d", O, HL_PQ_BYTE_ARRAY), HL_PQ_CONV_DECIMAL)};
  e7[1].has_precision = true;
  e7[1].precision = 40;
  CHECK_INT(hl_pq_schema_build(a, e7, 2, &s, &err), HL_OK);
  CHECK_STR(s->fields[0]->unsupported, "DECIMAL precision above 38");
  hl_arena_destroy(a);
}

TEST(schema_primitive_mapping) {
  hl_arena_t *a = hl_arena_create(0);
  enum { O = HL_PQ_OPTIONAL };
  hl_pq_schema_elem_t e[] = {
      grp("schema", -1, 12),
      conv(leaf("u8", O, HL_PQ_INT32), HL_PQ_CONV_UINT_8),
      conv(leaf("u16", O, HL_PQ_INT32), HL_PQ_CONV_UINT_16),
      conv(leaf("u32", O, HL_PQ_INT32), HL_PQ_CONV_UINT_32),
      conv(leaf("u64", O, HL_PQ_INT64), HL_PQ_CONV_UINT_64),
      conv(leaf("i16", O, HL_PQ_INT32), HL_PQ_CONV_INT_16),
      conv(leaf("tm", O, HL_PQ_INT32), HL_PQ_CONV_TIME_MILLIS),
      leaf("tsn", O, HL_PQ_INT64),
      leaf("uuid", O, HL_PQ_FIXED_LEN_BYTE_ARRAY),
      leaf("half", O, HL_PQ_FIXED_LEN_BYTE_ARRAY),
      conv(leaf("js", O, HL_PQ_BYTE_ARRAY), HL_PQ_CONV_JSON),
      leaf("i96", O, HL_PQ_INT96),
      conv(leaf("dec", O, HL_PQ_FIXED_LEN_BYTE_ARRAY), HL_PQ_CONV_DECIMAL),
  };
  e[7].logical = (hl_pq_logical_t){.kind = HL_PQ_LT_TIMESTAMP, .unit = HL_PQ_UNIT_NANOS};
  e[8].has_type_length = true;
  e[8].type_length = 16;
  e[8].logical.kind = HL_PQ_LT_UUID;
  e[9].has_type_length = true;
  e[9].type_length = 2;
  e[9].logical.kind = HL_PQ_LT_FLOAT16;
  e[12].has_type_length = true;
  e[12].type_length = 9;
  e[12].has_precision = e[12].has_scale = true;
  e[12].precision = 20;
  e[12].scale = 5;
  hl_pq_schema_t *s = NULL;
  CHECK_INT(hl_pq_schema_build(a, e, 13, &s, &err), HL_OK);
  if (!s) goto done;
  const char *want[] = {"smallint", "int",    "bigint",    "decimal(20,0)",
                        "smallint", "string", "timestamp", "string",
                        "float",    "string", "timestamp", "decimal(20,5)"};
  hl_pq_conv_t convs[] = {HL_PQ_CV_INT32,    HL_PQ_CV_INT32,    HL_PQ_CV_UINT32,
                          HL_PQ_CV_UINT64,   HL_PQ_CV_INT32,    HL_PQ_CV_TIME_MILLIS,
                          HL_PQ_CV_TS_NANOS, HL_PQ_CV_UUID,     HL_PQ_CV_FLOAT16,
                          HL_PQ_CV_STRING,   HL_PQ_CV_TS_INT96, HL_PQ_CV_DECIMAL_BYTES};
  for (int i = 0; i < 12; i++) {
    CHECK_STR(field_type(a, s, i), want[i]);
    CHECK_INT(s->leaves[i].node->conv, convs[i]);
  }
done:
  hl_arena_destroy(a);
}

TEST(schema_from_hive) {
  hl_arena_t *a = hl_arena_create(0);
  const char *texts[] = {"boolean",
                         "tinyint",
                         "smallint",
                         "int",
                         "bigint",
                         "float",
                         "double",
                         "decimal(9,2)",
                         "decimal(18,3)",
                         "decimal(19,0)",
                         "decimal(38,10)",
                         "string",
                         "varchar(10)",
                         "char(3)",
                         "binary",
                         "date",
                         "timestamp",
                         "array<int>",
                         "map<string,array<bigint>>",
                         "struct<a:int,b:struct<c:string>>"};
  enum { N = 20 };
  const hl_type_t *types[N];
  const char *names[N];
  for (int i = 0; i < N; i++) {
    hl_type_t *t = NULL;
    CHECK_INT(hl_type_parse_str(a, texts[i], &t, &err), HL_OK);
    types[i] = t;
    names[i] = hl_arena_sprintf(a, "c%d", i);
  }
  hl_pq_schema_elem_t *elems;
  int n_elems;
  CHECK_INT(hl_pq_schema_from_hive(a, N, types, names, false, &elems, &n_elems, &err), HL_OK);
  CHECK_INT(n_elems, 1 + 17 + 3 + 6 + 4);
  hl_pq_schema_t *s = NULL;
  CHECK_INT(hl_pq_schema_build(a, elems, n_elems, &s, &err), HL_OK);
  if (!s) goto done;
  CHECK_INT(s->n_fields, N);
  for (int i = 0; i < N; i++) {
    const char *want = texts[i];
    if (i == 12 || i == 13) want = "string"; /* VARCHAR/CHAR read back as STRING */
    CHECK_STR(field_type(a, s, i), want);
    CHECK_STR(s->fields[i]->name, names[i]);
  }
  /* Physical choices. */
  CHECK_INT(s->fields[7]->elem->type, HL_PQ_INT32);
  CHECK_INT(s->fields[8]->elem->type, HL_PQ_INT64);
  CHECK_INT(s->fields[9]->elem->type, HL_PQ_FIXED_LEN_BYTE_ARRAY);
  CHECK_INT(s->fields[9]->elem->type_length, 9);
  CHECK_INT(s->fields[10]->elem->type_length, 16);
  CHECK_INT(s->fields[16]->elem->type, HL_PQ_INT64);
  CHECK_INT(s->fields[16]->elem->logical.unit, HL_PQ_UNIT_MICROS);
  CHECK(!s->fields[16]->elem->logical.is_adjusted_to_utc);
  CHECK(!s->fields[16]->elem->has_converted_type);
  CHECK_INT(s->fields[1]->elem->logical.bit_width, 8);
  /* array<int>: optional list, repeated "list", optional "element". */
  const hl_pq_node_t *arr = s->fields[17];
  CHECK_STR(arr->repeated->name, "list");
  CHECK_STR(arr->element->name, "element");
  CHECK_INT(arr->element->max_def, 3);
  CHECK_INT(arr->element->max_rep, 1);
  const hl_pq_node_t *map = s->fields[18];
  CHECK_STR(map->repeated->name, "key_value");
  CHECK_INT(map->key->elem->repetition, HL_PQ_REQUIRED);
  CHECK_INT(map->key->max_def, 2);
  /* key_value.value.list.element: 2 + optional value + repeated + optional */
  CHECK_INT(s->leaves[s->fields[18]->first_leaf + 1].max_def, 5);
  CHECK_INT(s->leaves[s->fields[18]->first_leaf + 1].max_rep, 2);
  CHECK_STR(s->leaves[s->fields[18]->first_leaf + 1].path_str, "c18.key_value.value.list.element");
  /* INT96 option. */
  CHECK_INT(hl_pq_schema_from_hive(a, 1, &types[16], &names[16], true, &elems, &n_elems, &err),
            HL_OK);
  CHECK_INT(elems[1].type, HL_PQ_INT96);
  /* The void type cannot be written. */
  const hl_type_t *vt = hl_type_prim(HL_T_NULL);
  const char *vn = "v";
  CHECK_INT(hl_pq_schema_from_hive(a, 1, &vt, &vn, false, &elems, &n_elems, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  reset_err();
done:
  hl_arena_destroy(a);
}

TEST(format_helpers) {
  char buf[40];
  const uint8_t u[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                         0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00};
  hl_pq_format_uuid(u, buf);
  CHECK_STR(buf, "123e4567-e89b-12d3-a456-426614174000");
  CHECK_INT(hl_pq_format_time(0, HL_PQ_UNIT_MILLIS, buf), 8);
  CHECK_STR(buf, "00:00:00");
  hl_pq_format_time(45296789, HL_PQ_UNIT_MILLIS, buf);
  CHECK_STR(buf, "12:34:56.789");
  hl_pq_format_time(86399999999LL, HL_PQ_UNIT_MICROS, buf);
  CHECK_STR(buf, "23:59:59.999999");
  hl_pq_format_time(3723000500001LL, HL_PQ_UNIT_NANOS, buf);
  CHECK_STR(buf, "01:02:03.0005");
}

/* ====================================================================== */
/* Codecs                                                                 */
/* ====================================================================== */

static void fill_sample(uint8_t *p, size_t n) {
  uint32_t x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    p[i] = (uint8_t)((i % 97 < 60) ? 'a' + (i % 7) : (x >> 16)); /* compressible + noise */
  }
}

TEST(codec_round_trips) {
  static const hl_parquet_codec_t codecs[] = {HL_PQ_UNCOMPRESSED, HL_PQ_SNAPPY, HL_PQ_GZIP,
                                              HL_PQ_BROTLI,       HL_PQ_LZ4,    HL_PQ_ZSTD,
                                              HL_PQ_LZ4_RAW};
  size_t sizes[] = {0, 1, 1000, 200000};
  uint8_t *src = hl_malloc(200000), *dst = hl_malloc(200001);
  fill_sample(src, 200000);
  for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
    for (size_t k = 0; k < 4; k++) {
      size_t n = sizes[k];
      hl_buf_t out;
      hl_buf_init(&out);
      hl_buf_append(&out, "prefix", 6); /* compress appends */
      CHECK_INT(hl_pq_compress(codecs[c], 0, src, n, &out, &err), HL_OK);
      const uint8_t *comp = (const uint8_t *)out.data + 6;
      size_t clen = out.len - 6;
      if (n == 200000 && codecs[c] != HL_PQ_UNCOMPRESSED) CHECK(clen < n);
      memset(dst, 0xAA, 200001);
      CHECK_INT(hl_pq_decompress(codecs[c], comp, clen, dst, n, &err), HL_OK);
      CHECK(n == 0 || memcmp(dst, src, n) == 0);
      CHECK_INT(dst[n], 0xAA); /* nothing written past the end */
      if (n > 0) {
        /* Announced size one too small or too large. */
        CHECK_INT(hl_pq_decompress(codecs[c], comp, clen, dst, n - 1, &err), HL_CORRUPT);
        CHECK_STR(err.sqlstate, "XX001");
        reset_err();
        CHECK_INT(hl_pq_decompress(codecs[c], comp, clen, dst, n + 1, &err), HL_CORRUPT);
        reset_err();
        /* Truncated input. */
        if (clen > 1) {
          CHECK_INT(hl_pq_decompress(codecs[c], comp, clen / 2, dst, n, &err), HL_CORRUPT);
          reset_err();
        }
      }
      hl_buf_fini(&out);
    }
    /* Garbage never crashes. */
    uint8_t junk[64];
    for (int i = 0; i < 64; i++)
      junk[i] = (uint8_t)(i * 37 + 11);
    hl_status_t st = hl_pq_decompress(codecs[c], junk, sizeof junk, dst, 1000, &err);
    CHECK(st == HL_CORRUPT);
    reset_err();
  }
  /* LZO and unknown codecs. */
  CHECK_INT(hl_pq_decompress(HL_PQ_LZO, src, 10, dst, 10, &err), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  CHECK_STR(err.message, "Parquet compression codec \"LZO\" is not supported");
  reset_err();
  hl_buf_t out;
  hl_buf_init(&out);
  CHECK_INT(hl_pq_compress((hl_parquet_codec_t)42, 0, src, 10, &out, &err), HL_UNSUPPORTED);
  reset_err();
  CHECK(!hl_pq_codec_supported(HL_PQ_LZO));
  CHECK(hl_pq_codec_supported(HL_PQ_LZ4_RAW));
  CHECK_STR(hl_pq_codec_name(HL_PQ_LZ4_RAW), "LZ4_RAW");
  CHECK_STR(hl_pq_codec_name((hl_parquet_codec_t)42), "?");

  /* GZIP: two members concatenated. */
  hl_buf_reset(&out);
  CHECK_INT(hl_pq_compress(HL_PQ_GZIP, 1, src, 700, &out, &err), HL_OK);
  CHECK_INT(hl_pq_compress(HL_PQ_GZIP, 9, src + 700, 300, &out, &err), HL_OK);
  CHECK_INT(hl_pq_decompress(HL_PQ_GZIP, (uint8_t *)out.data, out.len, dst, 1000, &err), HL_OK);
  CHECK(memcmp(dst, src, 1000) == 0);
  /* LZ4 (Hadoop): two frames; and a raw block under the LZ4 codec. */
  hl_buf_reset(&out);
  CHECK_INT(hl_pq_compress(HL_PQ_LZ4, 0, src, 600, &out, &err), HL_OK);
  CHECK_INT(hl_pq_compress(HL_PQ_LZ4, 0, src + 600, 400, &out, &err), HL_OK);
  CHECK_INT(hl_pq_decompress(HL_PQ_LZ4, (uint8_t *)out.data, out.len, dst, 1000, &err), HL_OK);
  CHECK(memcmp(dst, src, 1000) == 0);
  /* LZ4 (Hadoop) of nothing is no frame; an empty page also reads from a
   * frame of an empty block (older hivelite, Arrow) and from Hadoop's
   * BlockCompressorStream form (the length 0 and no chunk) */
  hl_buf_reset(&out);
  CHECK_INT(hl_pq_compress(HL_PQ_LZ4, 0, src, 0, &out, &err), HL_OK);
  CHECK_INT(out.len, 0);
  static const uint8_t empty_frame[9] = {0, 0, 0, 0, 0, 0, 0, 1, 0}, hadoop_empty[4] = {0};
  CHECK_INT(hl_pq_decompress(HL_PQ_LZ4, empty_frame, 9, dst, 0, &err), HL_OK);
  CHECK_INT(hl_pq_decompress(HL_PQ_LZ4, hadoop_empty, 4, dst, 0, &err), HL_OK);
  CHECK_INT(hl_pq_decompress(HL_PQ_LZ4, hadoop_empty, 3, dst, 0, &err), HL_CORRUPT);
  reset_err();
  hl_buf_reset(&out);
  CHECK_INT(hl_pq_compress(HL_PQ_LZ4_RAW, 0, src, 1000, &out, &err), HL_OK);
  memset(dst, 0, 1000);
  CHECK_INT(hl_pq_decompress(HL_PQ_LZ4, (uint8_t *)out.data, out.len, dst, 1000, &err), HL_OK);
  CHECK(memcmp(dst, src, 1000) == 0);
  hl_buf_fini(&out);
  /* CRC-32 check value. */
  CHECK((uint32_t)hl_pq_crc32("123456789", 9) == 0xCBF43926u);
  CHECK(hl_pq_crc32_update(hl_pq_crc32("1234", 4), "56789", 5) == 0xCBF43926u);
  hl_free(src);
  hl_free(dst);
}

/* ====================================================================== */
/* Footer on synthetic files                                               */
/* ====================================================================== */

static const char *tmp_dir(void) {
  static char dir[512];
  if (dir[0]) return dir;
  if (test_tmpdir(dir, sizeof dir, "pq_meta") != 0) snprintf(dir, sizeof dir, "/tmp");
  return dir;
}

static hl_status_t footer_of_bytes(const void *data, size_t len, hl_status_t *open_st) {
  hl_stor_t *fs = hl_stor_local_create();
  hl_arena_t *a = hl_arena_create(0);
  static int seq;
  char *path = hl_arena_sprintf(a, "%s/f%d.parquet", tmp_dir(), seq++);
  hl_stor_file_t *f;
  hl_status_t st = fs->ops->create(fs, path, &f, &err);
  if (st == HL_OK) {
    fs->ops->append(f, data, len, &err);
    fs->ops->close(f, &err);
  }
  *open_st = fs->ops->open_read(fs, path, &f, &err);
  if (*open_st == HL_OK) {
    hl_pq_file_meta_t *m;
    uint64_t size = 0;
    st = hl_pq_footer_read(f, a, &m, &size, &err);
    if (st == HL_OK) CHECK_INT(size, len);
    hl_error_t e2;
    hl_err_init(&e2);
    fs->ops->close(f, &e2);
  }
  fs->ops->remove(fs, path, &err);
  hl_arena_destroy(a);
  fs->ops->destroy(fs);
  return st;
}

/* Builds PAR1 + (meta) + len + MAGIC. */
static void make_file(hl_buf_t *b, const hl_buf_t *meta, const char *magic, uint32_t len) {
  hl_buf_reset(b);
  hl_buf_append(b, "PAR1", 4);
  hl_buf_append(b, meta->data, meta->len);
  uint8_t l[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
  hl_buf_append(b, l, 4);
  hl_buf_append(b, magic, 4);
}

TEST(footer_synthetic) {
  hl_status_t ost;
  hl_buf_t meta, file;
  hl_buf_init(&meta);
  hl_buf_init(&file);
  hl_pq_schema_elem_t root = {.name = "schema", .has_num_children = true, .num_children = 0};
  hl_pq_file_meta_t m = {.version = 1, .n_schema = 1, .schema = &root, .num_rows = 0};
  CHECK_INT(hl_pq_file_meta_encode(&m, &meta, &err), HL_OK);
  make_file(&file, &meta, "PAR1", (uint32_t)meta.len);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_OK);
  CHECK_INT(ost, HL_OK);
  /* Too small. */
  CHECK_INT(footer_of_bytes("PAR1PAR1", 8, &ost), HL_CORRUPT);
  CHECK(strstr(err.message, "too small") != NULL);
  reset_err();
  /* Bad magic. */
  make_file(&file, &meta, "PARX", (uint32_t)meta.len);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_CORRUPT);
  CHECK(strstr(err.message, "PAR1") != NULL);
  reset_err();
  /* Encrypted footer. */
  make_file(&file, &meta, "PARE", (uint32_t)meta.len);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_UNSUPPORTED);
  CHECK_STR(err.sqlstate, "0A000");
  CHECK_STR(err.message, "encrypted Parquet files are not supported");
  reset_err();
  /* Footer length beyond the file. */
  make_file(&file, &meta, "PAR1", (uint32_t)meta.len + 5);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_CORRUPT);
  CHECK(strstr(err.message, "exceeds the file size") != NULL);
  reset_err();
  make_file(&file, &meta, "PAR1", 0xFFFFFFFFu);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_CORRUPT);
  reset_err();
  /* Footer length shorter than the metadata: decode runs out. */
  make_file(&file, &meta, "PAR1", (uint32_t)meta.len - 2);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_CORRUPT);
  reset_err();
  /* Plaintext-footer encryption (FileMetaData.encryption_algorithm). */
  hl_buf_reset(&meta);
  hl_pq_thrift_writer_t w;
  hl_pq_thrift_writer_init(&w, &meta);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_i32(&w, 1, 1);
  hl_pq_thrift_write_field(&w, 2, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_STRUCT, 1);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_binary(&w, 4, "schema", 6);
  hl_pq_thrift_write_struct_end(&w);
  hl_pq_thrift_write_field_i64(&w, 3, 0);
  hl_pq_thrift_write_field(&w, 4, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_STRUCT, 0);
  hl_pq_thrift_write_field_struct_begin(&w, 8);
  hl_pq_thrift_write_field_struct_begin(&w, 1);
  hl_pq_thrift_write_struct_end(&w);
  hl_pq_thrift_write_struct_end(&w);
  hl_pq_thrift_write_struct_end(&w);
  make_file(&file, &meta, "PAR1", (uint32_t)meta.len);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_UNSUPPORTED);
  reset_err();
  /* A footer bigger than the 64 KiB tail read (many key/values). */
  hl_buf_reset(&meta);
  hl_pq_kv_t *kv = hl_calloc(3000, sizeof *kv);
  for (int i = 0; i < 3000; i++) {
    kv[i].key = "some.reasonably.long.key.name";
    kv[i].value = "and a value to make it longer";
    kv[i].value_len = strlen(kv[i].value);
  }
  m.n_kv = 3000;
  m.key_value_metadata = kv;
  CHECK_INT(hl_pq_file_meta_encode(&m, &meta, &err), HL_OK);
  CHECK(meta.len > 65536);
  make_file(&file, &meta, "PAR1", (uint32_t)meta.len);
  CHECK_INT(footer_of_bytes(file.data, file.len, &ost), HL_OK);
  hl_free(kv);
  hl_buf_fini(&meta);
  hl_buf_fini(&file);
}

/* ====================================================================== */
/* Fixtures                                                               */
/* ====================================================================== */

typedef struct loaded {
  hl_arena_t *arena;
  hl_pq_file_meta_t *meta;
  hl_pq_schema_t *schema;
  uint8_t *data; /* the whole file */
  size_t size;
} loaded_t;

static hl_status_t load(const char *path, loaded_t *l) {
  memset(l, 0, sizeof *l);
  hl_stor_t *fs = hl_stor_local_create();
  l->arena = hl_arena_create(0);
  hl_stor_file_t *f = NULL;
  uint64_t size = 0;
  hl_status_t st = fs->ops->open_read(fs, path, &f, &err);
  if (st == HL_OK) st = hl_pq_footer_read(f, l->arena, &l->meta, &size, &err);
  if (st == HL_OK) {
    l->data = hl_arena_alloc(l->arena, (size_t)size);
    size_t got = 0;
    st = fs->ops->read_at(f, 0, l->data, (size_t)size, &got, &err);
    l->size = got;
  }
  if (st == HL_OK) {
    st = hl_pq_schema_build(l->arena, l->meta->schema, l->meta->n_schema, &l->schema, &err);
  }
  if (f) {
    hl_error_t e2;
    hl_err_init(&e2);
    fs->ops->close(f, &e2);
  }
  fs->ops->destroy(fs);
  return st;
}

typedef struct page_walk {
  int pages, failures, crc_checked, crc_bad;
  hl_parquet_codec_t codecs_seen[8];
  int n_codecs;
} page_walk_t;

/* Walks every page of every column chunk: header decode, then decompress
 * the body to exactly its announced size; CRCs are compared when present.
 * Returns the first error status (or HL_OK). */
static hl_status_t walk_pages(const loaded_t *l, page_walk_t *pw) {
  hl_status_t first = HL_OK;
  for (int g = 0; g < l->meta->n_row_groups; g++) {
    const hl_pq_row_group_t *rg = &l->meta->row_groups[g];
    hl_status_t st = hl_pq_schema_check_row_group(l->schema, rg, &err);
    if (st != HL_OK) {
      if (first == HL_OK) first = st;
      reset_err();
      continue;
    }
    for (int c = 0; c < rg->n_columns; c++) {
      const hl_pq_column_meta_t *m = rg->columns[c].meta_data;
      bool seen = false;
      for (int k = 0; k < pw->n_codecs; k++)
        seen |= pw->codecs_seen[k] == m->codec;
      if (!seen && pw->n_codecs < 8) pw->codecs_seen[pw->n_codecs++] = m->codec;
      uint64_t ustart, ulen;
      if (hl_pq_column_chunk_range(l->meta, m, l->size, &ustart, &ulen, &err) != HL_OK) {
        if (first == HL_OK) first = HL_CORRUPT;
        reset_err();
        continue;
      }
      int64_t start = (int64_t)ustart, end = (int64_t)(ustart + ulen);
      int64_t values = 0;
      int64_t pos = start;
      while (pos < end && values < m->num_values) {
        hl_pq_page_header_t h;
        size_t used;
        st = hl_pq_page_header_decode(NULL, l->data + pos, (size_t)(end - pos), &h, &used, NULL,
                                      &err);
        if (st == HL_OK && (int64_t)used + h.compressed_page_size > end - pos) {
          st = HL_CORRUPT;
        }
        if (st != HL_OK) {
          if (first == HL_OK) first = st;
          pw->failures++;
          reset_err();
          break;
        }
        pw->pages++;
        const uint8_t *body = l->data + pos + used;
        if (h.has_crc) {
          pw->crc_checked++;
          if (hl_pq_crc32(body, (size_t)h.compressed_page_size) != (uint32_t)h.crc) pw->crc_bad++;
        }
        size_t skip = 0, out_len = (size_t)h.uncompressed_page_size;
        bool compressed = true;
        if (h.type == HL_PQ_PAGE_DATA_V2) {
          const hl_pq_data_page_header_v2_t *v2 = &h.data_page_header_v2;
          skip =
              (size_t)v2->definition_levels_byte_length + (size_t)v2->repetition_levels_byte_length;
          compressed = v2->is_compressed;
          values += v2->num_values;
        } else if (h.type == HL_PQ_PAGE_DATA) {
          values += h.data_page_header.num_values;
        }
        if (skip > (size_t)h.compressed_page_size || skip > out_len) {
          st = HL_CORRUPT;
        } else {
          size_t in_len = (size_t)h.compressed_page_size - skip;
          out_len -= skip;
          uint8_t *dst = hl_malloc(out_len ? out_len : 1);
          /* An empty V2 data section is not a codec stream (parquet-testing
           * datapage_v2_empty_datapage). */
          if (!compressed || (in_len == 0 && out_len == 0)) {
            st = in_len == out_len ? HL_OK : HL_CORRUPT;
          } else {
            st = hl_pq_decompress(m->codec, body + skip, in_len, dst, out_len, &err);
          }
          hl_free(dst);
        }
        if (st != HL_OK) {
          if (first == HL_OK) first = st;
          pw->failures++;
          reset_err();
        }
        pos += (int64_t)used + h.compressed_page_size;
      }
    }
  }
  return first;
}

static bool codec_seen(const page_walk_t *pw, hl_parquet_codec_t c) {
  for (int k = 0; k < pw->n_codecs; k++)
    if (pw->codecs_seen[k] == c) return true;
  return false;
}

static char *fixture(hl_arena_t *a, const char *dir, const char *name) {
  const char *base = test_fixtures_dir();
  return hl_arena_sprintf(a, "%s/%s/%s", base, dir, name);
}

TEST(fixtures_all_footers_and_pages) {
  const char *base = test_fixtures_dir();
  hl_arena_t *a = hl_arena_create(0);
  char *dir = hl_arena_sprintf(a, "%s/parquet", base);
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  int n_files = 0, n_ok = 0, total_pages = 0;
  while (d) {
    struct dirent *de = readdir(d);
    if (!de) break;
    size_t len = strlen(de->d_name);
    if (len < 8 || strcmp(de->d_name + len - 8, ".parquet") != 0) continue;
    n_files++;
    loaded_t l;
    hl_status_t st = load(fixture(a, "parquet", de->d_name), &l);
    if (st != HL_OK) {
      fprintf(stderr, "%s: %s\n", de->d_name, err.message);
      reset_err();
    } else {
      page_walk_t pw = {0};
      st = walk_pages(&l, &pw);
      if (st != HL_OK) fprintf(stderr, "%s: pages failed (%d)\n", de->d_name, pw.failures);
      bool corrupt_crc = strstr(de->d_name, "corrupt-checksum") != NULL;
      if (corrupt_crc) {
        CHECK(pw.crc_bad > 0);
      } else if (pw.crc_bad) {
        fprintf(stderr, "%s: %d bad CRCs\n", de->d_name, pw.crc_bad);
        CHECK(pw.crc_bad == 0);
      }
      CHECK(pw.pages > 0 || l.meta->num_rows == 0);
      total_pages += pw.pages;
      if (st == HL_OK) n_ok++;
    }
    hl_arena_destroy(l.arena);
  }
  if (d) closedir(d);
  CHECK_INT(n_files, 57);
  CHECK_INT(n_ok, 57);
  CHECK(total_pages > 1000);
  hl_arena_destroy(a);
}

TEST(fixtures_exact_facts) {
  hl_arena_t *a = hl_arena_create(0);
  loaded_t l;
  page_walk_t pw;
  /* alltypes_plain: 8 rows (ids 0..7), Impala 1.3 types: strings are bare
   * BYTE_ARRAY (BINARY), tinyint/smallint plain INT32, timestamps INT96. */
  CHECK_INT(load(fixture(a, "parquet", "alltypes_plain.parquet"), &l), HL_OK);
  if (l.meta) {
    CHECK_INT(l.meta->num_rows, 8);
    CHECK_INT(l.meta->n_row_groups, 1);
    CHECK_INT(l.meta->row_groups[0].num_rows, 8);
    CHECK_STR(l.meta->created_by,
              "impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)");
    CHECK_INT(l.schema->n_fields, 11);
    const char *names[] = {
        "id",        "bool_col",   "tinyint_col",     "smallint_col", "int_col",      "bigint_col",
        "float_col", "double_col", "date_string_col", "string_col",   "timestamp_col"};
    const char *types[] = {"int",   "boolean", "int",    "int",    "int",      "bigint",
                           "float", "double",  "binary", "binary", "timestamp"};
    for (int i = 0; i < 11; i++) {
      CHECK_STR(l.schema->fields[i]->name, names[i]);
      CHECK_STR(field_type(a, l.schema, i), types[i]);
    }
    CHECK_INT(l.schema->leaves[10].node->conv, HL_PQ_CV_TS_INT96);
    memset(&pw, 0, sizeof pw);
    CHECK_INT(walk_pages(&l, &pw), HL_OK);
    CHECK(codec_seen(&pw, HL_PQ_UNCOMPRESSED) && pw.n_codecs == 1);
    CHECK_INT(l.meta->row_groups[0].columns[0].meta_data->num_values, 8);
  }
  hl_arena_destroy(l.arena);
  /* Codecs seen in the codec fixtures. */
  struct {
    const char *file;
    hl_parquet_codec_t codec;
  } codec_files[] = {{"alltypes_plain.snappy.parquet", HL_PQ_SNAPPY},
                     {"concatenated_gzip_members.parquet", HL_PQ_GZIP},
                     {"byte_stream_split.zstd.parquet", HL_PQ_ZSTD},
                     {"large_string_map.brotli.parquet", HL_PQ_BROTLI},
                     {"lz4_raw_compressed.parquet", HL_PQ_LZ4_RAW},
                     {"hadoop_lz4_compressed.parquet", HL_PQ_LZ4},
                     {"non_hadoop_lz4_compressed.parquet", HL_PQ_LZ4}};
  for (size_t i = 0; i < sizeof codec_files / sizeof codec_files[0]; i++) {
    CHECK_INT(load(fixture(a, "parquet", codec_files[i].file), &l), HL_OK);
    if (l.meta) {
      memset(&pw, 0, sizeof pw);
      CHECK_INT(walk_pages(&l, &pw), HL_OK);
      CHECK(pw.n_codecs == 1 && pw.codecs_seen[0] == codec_files[i].codec);
      CHECK(pw.pages >= 1);
    }
    hl_arena_destroy(l.arena);
  }
  /* Both LZ4 framings hold the same 4 rows (c0 bigint, c1 binary, v11 double). */
  CHECK_INT(load(fixture(a, "parquet", "non_hadoop_lz4_compressed.parquet"), &l), HL_OK);
  if (l.meta) {
    CHECK_INT(l.meta->num_rows, 4);
    CHECK_STR(field_type(a, l.schema, 1), "binary");
    CHECK_STR(l.schema->fields[2]->name, "v11");
  }
  hl_arena_destroy(l.arena);
  /* Schemas mapped from other writers. */
  struct {
    const char *file;
    int field;
    const char *name, *type;
  } facts[] = {
      {"alltypes_tiny_pages.parquet", 2, "tinyint_col", "tinyint"},
      {"alltypes_tiny_pages.parquet", 9, "string_col", "string"},
      {"byte_array_decimal.parquet", 0, "value", "decimal(4,2)"},
      {"fixed_length_decimal.parquet", 0, "value", "decimal(25,2)"},
      {"int64_decimal.parquet", 0, "value", "decimal(10,2)"},
      {"float16_nonzeros_and_nans.parquet", 0, "x", "float"},
      {"int96_from_spark.parquet", 0, "a", "timestamp"},
      {"nested_lists.snappy.parquet", 0, "a", "array<array<array<string>>>"},
      {"nested_maps.snappy.parquet", 0, "a", "map<string,map<int,boolean>>"},
      {"old_list_structure.parquet", 0, "a", "array<array<int>>"},
      {"incorrect_map_schema.parquet", 0, "my_map", "map<string,string>"},
      {"map_no_value.parquet", 1, "my_map_no_v", "map<int,string>"},
      {"repeated_primitive_no_list.parquet", 0, "int32_list", "array<int>"},
      {"repeated_primitive_no_list.parquet", 2, "group_of_lists",
       "struct<int32_list_in_group:array<int>,string_list_in_group:array<string>>"},
      {"repeated_no_annotation.parquet", 1, "phonenumbers",
       "struct<phone:array<struct<number:bigint,kind:string>>>"},
      {"nonnullable.impala.parquet", 5, "nested_struct",
       "struct<a:int,b:array<int>,c:struct<d:array<array<struct<e:int,f:string>>>>,"
       "g:map<string,struct<h:struct<i:array<double>>>>>"},
      {"unknown-logical-type.parquet", 1, "column with unknown type", "binary"},
      {"concatenated_gzip_members.parquet", 0, "long_col", "decimal(20,0)"},
      {"datapage_v2.snappy.parquet", 4, "e", "array<int>"},
      {"list_columns.parquet", 1, "utf8_list", "array<string>"},
  };
  for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
    CHECK_INT(load(fixture(a, "parquet", facts[i].file), &l), HL_OK);
    if (l.schema && facts[i].field < l.schema->n_fields) {
      CHECK_STR(l.schema->fields[facts[i].field]->name, facts[i].name);
      CHECK_STR(field_type(a, l.schema, facts[i].field), facts[i].type);
    } else {
      CHECK(!"fixture schema missing");
    }
    hl_arena_destroy(l.arena);
  }
  /* Levels and key/value metadata. */
  CHECK_INT(load(fixture(a, "parquet", "old_list_structure.parquet"), &l), HL_OK);
  if (l.schema) {
    CHECK_INT(l.schema->leaves[0].max_def, 2);
    CHECK_INT(l.schema->leaves[0].max_rep, 2);
    CHECK_STR(l.schema->leaves[0].path_str, "a.array.array");
  }
  hl_arena_destroy(l.arena);
  CHECK_INT(load(fixture(a, "parquet", "column_chunk_key_value_metadata.parquet"), &l), HL_OK);
  if (l.meta) {
    hl_pq_column_meta_t *cm = l.meta->row_groups[0].columns[0].meta_data;
    CHECK_INT(cm->n_kv, 2);
    CHECK_STR(cm->key_value_metadata[0].key, "foo");
    CHECK_STR(cm->key_value_metadata[0].value, "bar");
    CHECK_STR(cm->key_value_metadata[1].key, "thisiskeywithoutvalue");
    CHECK(cm->key_value_metadata[1].value == NULL);
  }
  hl_arena_destroy(l.arena);
  CHECK_INT(load(fixture(a, "parquet", "sort_columns.parquet"), &l), HL_OK);
  if (l.meta) {
    CHECK_INT(l.meta->n_row_groups, 2);
    hl_pq_row_group_t *g = &l.meta->row_groups[0];
    CHECK_INT(g->n_sorting_columns, 2);
    CHECK(g->sorting_columns[0].column_idx == 0 && g->sorting_columns[0].descending &&
          g->sorting_columns[0].nulls_first);
    CHECK(g->sorting_columns[1].column_idx == 1 && !g->sorting_columns[1].descending &&
          !g->sorting_columns[1].nulls_first);
  }
  hl_arena_destroy(l.arena);
  CHECK_INT(load(fixture(a, "parquet", "binary_truncated_min_max.parquet"), &l), HL_OK);
  if (l.meta) {
    hl_pq_stats_t *st = l.meta->row_groups[0].columns[0].meta_data->statistics;
    CHECK(st && st->has_is_max_value_exact && st->has_is_min_value_exact);
  }
  hl_arena_destroy(l.arena);
  /* Page index of alltypes_tiny_pages: column and offset indexes decode and
   * agree on the page count. */
  CHECK_INT(load(fixture(a, "parquet", "alltypes_tiny_pages.parquet"), &l), HL_OK);
  if (l.meta) {
    hl_pq_column_chunk_t *cc = &l.meta->row_groups[0].columns[0];
    CHECK(cc->has_column_index_offset && cc->has_offset_index_offset);
    hl_pq_column_index_t *ci = NULL;
    hl_pq_offset_index_t *oi = NULL;
    CHECK_INT(hl_pq_column_index_decode(l.arena, l.data + cc->column_index_offset,
                                        (size_t)cc->column_index_length, &ci, &err),
              HL_OK);
    CHECK_INT(hl_pq_offset_index_decode(l.arena, l.data + cc->offset_index_offset,
                                        (size_t)cc->offset_index_length, &oi, &err),
              HL_OK);
    if (ci && oi) {
      CHECK(ci->n_pages > 1);
      CHECK_INT(ci->n_pages, oi->n_pages);
      CHECK_INT(oi->page_locations[0].first_row_index, 0);
      CHECK_INT(oi->page_locations[0].offset, cc->meta_data->data_page_offset);
      for (int p = 1; p < oi->n_pages; p++) {
        CHECK(oi->page_locations[p].first_row_index > oi->page_locations[p - 1].first_row_index);
      }
    }
  }
  hl_arena_destroy(l.arena);
  hl_arena_destroy(a);
}

TEST(fixtures_bad_files) {
  const char *base = test_fixtures_dir();
  hl_arena_t *a = hl_arena_create(0);
  char *dir = hl_arena_sprintf(a, "%s/parquet-bad", base);
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  int n_files = 0, n_footer_errors = 0;
  while (d) {
    struct dirent *de = readdir(d);
    if (!de) break;
    size_t len = strlen(de->d_name);
    if (len < 8 || strcmp(de->d_name + len - 8, ".parquet") != 0) continue;
    n_files++;
    loaded_t l;
    hl_status_t st = load(fixture(a, "parquet-bad", de->d_name), &l);
    if (st != HL_OK) {
      n_footer_errors++;
      CHECK(st == HL_CORRUPT || st == HL_UNSUPPORTED);
      CHECK(err.message && err.message[0]);
      reset_err();
    } else {
      page_walk_t pw = {0};
      st = walk_pages(&l, &pw);
      CHECK(st == HL_OK || st == HL_CORRUPT || st == HL_UNSUPPORTED);
      reset_err();
    }
    hl_arena_destroy(l.arena);
  }
  if (d) closedir(d);
  CHECK_INT(n_files, 8);
  CHECK_INT(n_footer_errors, 1); /* ARROW-GH-41317: encodings list of the wrong type */
  hl_arena_destroy(a);
}

TEST(file_schema_api) {
  hl_arena_t *a = hl_arena_create(0);
  hl_stor_t *fs = hl_stor_local_create();
  int n = 0;
  char **names = NULL;
  hl_type_t **types = NULL;
  CHECK_INT(hl_parquet_file_schema(fs, fixture(a, "parquet", "alltypes_tiny_pages.parquet"), a, &n,
                                   &names, &types, &err),
            HL_OK);
  CHECK_INT(n, 13);
  if (n == 13) {
    CHECK_STR(names[12], "month");
    CHECK_STR(hl_type_to_string(a, types[3]), "smallint");
    CHECK_STR(hl_type_to_string(a, types[10]), "timestamp");
  }
  char *bad = fixture(a, "parquet-bad", "PARQUET-1481.parquet");
  CHECK_INT(hl_parquet_file_schema(fs, bad, a, &n, &names, &types, &err), HL_UNSUPPORTED);
  CHECK(strstr(err.message, "PARQUET-1481.parquet\": column \"handle\"") != NULL);
  reset_err();
  char *bad2 = fixture(a, "parquet-bad", "ARROW-GH-41317.parquet");
  CHECK_INT(hl_parquet_file_schema(fs, bad2, a, &n, &names, &types, &err), HL_CORRUPT);
  CHECK(strncmp(err.message, "cannot read \"", 13) == 0);
  reset_err();
  fs->ops->destroy(fs);
  hl_arena_destroy(a);
}

int main(void) {
  hl_err_init(&err);
  RUN(thrift_skip_every_type);
  RUN(thrift_varints);
  RUN(thrift_bounds);
  RUN(meta_huge_counts);
  RUN(file_meta_round_trip);
  RUN(page_header_round_trip);
  RUN(page_index_round_trip);
  RUN(meta_wrong_wire_type);
  RUN(column_chunk_range);
  RUN(schema_legacy_lists_and_maps);
  RUN(schema_malformed);
  RUN(schema_primitive_mapping);
  RUN(schema_from_hive);
  RUN(format_helpers);
  RUN(codec_round_trips);
  RUN(footer_synthetic);
  const char *fx = test_fixtures_dir();
  bool have_fixtures = false;
  if (fx) {
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/parquet/alltypes_plain.parquet", fx);
    have_fixtures = access(probe, R_OK) == 0;
  }
  if (have_fixtures) {
    RUN(fixtures_all_footers_and_pages);
    RUN(fixtures_exact_facts);
    RUN(fixtures_bad_files);
    RUN(file_schema_api);
  } else {
    printf("skip fixtures (HIVELITE_FIXTURES unset or missing)\n");
  }
  const char *dir = tmp_dir();
  if (strcmp(dir, "/tmp") != 0) rmdir(dir);
  hl_err_clear(&err);
  int rc = test_report();
  if (rc == 0 && !have_fixtures) return TEST_SKIP_CODE;
  return rc;
}
