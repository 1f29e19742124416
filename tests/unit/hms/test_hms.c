/*
 * test_hms.c -- the Hive Metastore structs and calls (src/hms/): a Table,
 * Partition and Database with every field of the subset round trip
 * byte-exactly, unknown fields (privileges, creationMetadata, a made-up
 * id) are skipped, wrong element types, truncation and an allocation
 * budget give 08P01, and the three calls with their replies and a
 * TApplicationException go through the message layer.
 */
#include "hms/hms_call.h"
#include "test.h"

static char *S(char *s) {
  return s;
}

static hl_hms_field_schema_t cols[] = {{"id", "bigint", "the key"}, {"name", "string", NULL}};
static char *bucket_items[] = {"id"};
static hl_hms_order_t sorts[] = {{"id", 1}};
static hl_hms_kv_t kvs[] = {{"k1", "v1"}, {"k2", ""}};
static char *skew_names[] = {"name"};
static char *skew_vals[] = {"a", "b"};
static hl_hms_strlist_t skew_lists[] = {{2, skew_vals}};
static hl_hms_skewed_location_t skew_locs[] = {{{2, skew_vals}, "/w/t/name=a"}};
static hl_hms_skewed_info_t skew = {{1, skew_names}, 1, skew_lists, 1, skew_locs};
static hl_hms_serde_info_t serde = {"t", "org.apache.SerDe", {2, kvs}, "desc", "ser", "deser", 1,
                                    1};
static hl_hms_sd_t sd = {2,
                         cols,
                         "file:/w/t",
                         "in.Format",
                         "out.Format",
                         1,
                         4,
                         &serde,
                         {1, bucket_items},
                         1,
                         sorts,
                         {1, kvs},
                         &skew,
                         1,
                         1};
static char *caps[] = {"HIVEFULLACIDREAD", "X"};
static char *part_keys_vals[] = {"2024-01-01", "7"};

static hl_hms_table_t make_table(void) {
  hl_hms_table_t t = {0};
  t.table_name = S("t");
  t.db_name = S("default");
  t.owner = S("alice");
  t.create_time = 1700000000;
  t.last_access_time = -1;
  t.retention = 3;
  t.sd = &sd;
  t.n_partition_keys = 1;
  t.partition_keys = cols + 1;
  t.parameters = (hl_hms_strmap_t){2, kvs};
  t.view_original_text = S("");
  t.view_expanded_text = S("select 1");
  t.table_type = S("MANAGED_TABLE");
  t.has_temporary = 1;
  t.has_rewrite_enabled = 1, t.rewrite_enabled = 1;
  t.cat_name = S("hive");
  t.has_owner_type = 1, t.owner_type = 2;
  t.has_write_id = 1, t.write_id = -1;
  t.has_is_stats_compliant = 1;
  t.has_access_type = 1, t.access_type = 8;
  t.has_required_read_capabilities = 1, t.required_read_capabilities = (hl_hms_strlist_t){2, caps};
  t.has_required_write_capabilities = 1;
  t.has_id = 1, t.id = INT64_MIN;
  t.has_txn_id = 1, t.txn_id = 99;
  return t;
}

TEST(table_round_trip) {
  hl_hms_table_t t = make_table();
  hl_buf_t a, b;
  hl_error_t err;
  hl_buf_init(&a);
  hl_buf_init(&b);
  hl_err_init(&err);
  hl_hms_write_table(&a, &t);
  CHECK_INT(hl_tw_check(&a, &err), HL_OK);
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_dec_t d;
  hl_hms_table_t got;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_table(&d, &got), HL_OK);
  CHECK_INT(hl_tr_offset(&d.r), a.len);
  CHECK_STR(got.table_name, "t");
  CHECK_STR(got.sd->cols[0].comment, "the key");
  CHECK(got.sd->cols[1].comment == NULL);
  CHECK_STR(got.sd->serde_info->deserializer_class, "deser");
  CHECK_STR(got.sd->skewed_info->locations[0].location, "/w/t/name=a");
  CHECK_STR(got.sd->skewed_info->col_values[0].items[1], "b");
  CHECK_INT(got.sd->num_buckets, 4);
  CHECK_INT(got.id, INT64_MIN);
  CHECK_INT(got.access_type, 8);
  CHECK_INT(got.has_required_write_capabilities, 1);
  CHECK_INT(got.required_write_capabilities.n, 0);
  CHECK_STR(got.required_read_capabilities.items[0], "HIVEFULLACIDREAD");
  hl_hms_write_table(&b, &got);
  CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  /* absent optional fields stay absent */
  hl_hms_table_t bare = {0};
  bare.table_name = S("x");
  hl_buf_reset(&a);
  hl_hms_write_table(&a, &bare);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_table(&d, &got), HL_OK);
  CHECK(!got.sd && !got.owner && !got.has_write_id && !got.has_temporary && !got.cat_name);
  CHECK_INT(err.code, HL_OK);
  hl_arena_destroy(arena);
  hl_buf_fini(&a);
  hl_buf_fini(&b);
}

TEST(partition_and_database) {
  hl_hms_partition_t p = {{2, part_keys_vals}, "db", "t", 5, 6, &sd, {2, kvs}, "hive", 1, 12, 1, 1};
  hl_hms_database_t db = {"db", "a db", "file:/w/db", {1, kvs}, "bob", 1,      1,       "hive",
                          1,    77,     "file:/m",    1,        2,     "conn", "remote"};
  hl_buf_t a, b;
  hl_error_t err;
  hl_buf_init(&a);
  hl_buf_init(&b);
  hl_err_init(&err);
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_dec_t d;
  hl_hms_write_partition(&a, &p);
  hl_hms_partition_t gp;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_partition(&d, &gp), HL_OK);
  CHECK_STR(gp.values.items[0], "2024-01-01");
  CHECK_INT(gp.write_id, 12);
  hl_hms_write_partition(&b, &gp);
  CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  hl_buf_reset(&a);
  hl_buf_reset(&b);
  hl_hms_write_database(&a, &db);
  hl_hms_database_t gd;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_database(&d, &gd), HL_OK);
  CHECK_STR(gd.remote_dbname, "remote");
  CHECK_INT(gd.type, 2);
  hl_hms_write_database(&b, &gd);
  CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  CHECK_INT(err.code, HL_OK);
  hl_arena_destroy(arena);
  hl_buf_fini(&a);
  hl_buf_fini(&b);
}

/* A Table with fields we do not decode (13 privileges, 16
 * creationMetadata, a made-up 200) and a known field with the wrong wire
 * type: all skipped, the rest read. */
TEST(unknown_fields_skipped) {
  hl_buf_t a;
  hl_error_t err;
  hl_buf_init(&a);
  hl_err_init(&err);
  hl_tw_field(&a, HL_TT_STRUCT, 13); /* PrincipalPrivilegeSet { 1: map<string, list<...>> } */
  hl_tw_field(&a, HL_TT_MAP, 1);
  hl_tw_map(&a, HL_TT_STRING, HL_TT_LIST, 1);
  hl_tw_string(&a, "alice");
  hl_tw_list(&a, HL_TT_STRUCT, 1);
  hl_tw_field(&a, HL_TT_STRING, 1);
  hl_tw_string(&a, "SELECT");
  hl_tw_stop(&a);
  hl_tw_stop(&a);
  hl_tw_field(&a, HL_TT_STRING, 1);
  hl_tw_string(&a, "t");
  hl_tw_field(&a, HL_TT_I64, 4); /* createTime is an i32: skipped */
  hl_tw_i64(&a, 5);
  hl_tw_field(&a, HL_TT_SET, 200);
  hl_tw_list(&a, HL_TT_DOUBLE, 2);
  hl_tw_double(&a, 1);
  hl_tw_double(&a, 2);
  hl_tw_field(&a, HL_TT_I32, 6);
  hl_tw_i32(&a, 9);
  hl_tw_stop(&a);
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_dec_t d;
  hl_hms_table_t got;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_table(&d, &got), HL_OK);
  CHECK_STR(got.table_name, "t");
  CHECK_INT(got.create_time, 0);
  CHECK_INT(got.retention, 9);
  CHECK_INT(hl_tr_offset(&d.r), a.len);
  hl_arena_destroy(arena);
  hl_buf_fini(&a);
}

TEST(hostile) {
  hl_hms_table_t t = make_table();
  hl_buf_t a;
  hl_error_t err;
  hl_buf_init(&a);
  hl_err_init(&err);
  hl_hms_write_table(&a, &t);
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_dec_t d;
  hl_hms_table_t got;
  size_t rejected = 0;
  for (size_t cut = 0; cut < a.len; cut++) {
    hl_hms_dec_init(&d, a.data, cut, arena, &err);
    if (hl_hms_read_table(&d, &got) == HL_CORRUPT && strcmp(err.sqlstate, "08P01") == 0) rejected++;
    hl_err_clear(&err);
    hl_arena_reset(arena);
  }
  CHECK_INT(rejected, a.len);
  /* a list of strings said to hold FieldSchemas */
  static const uint8_t wrong_elem[] = {HL_TT_LIST, 0, 8, HL_TT_STRING, 0, 0, 0, 1, 0, 0, 0, 0, 0};
  hl_hms_dec_init(&d, wrong_elem, sizeof wrong_elem, arena, &err);
  CHECK_INT(hl_hms_read_table(&d, &got), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: list of string where struct was expected at byte 8");
  hl_err_clear(&err);
  static const uint8_t nul[] = {HL_TT_STRING, 0, 1, 0, 0, 0, 2, 'a', 0, 0};
  hl_hms_dec_init(&d, nul, sizeof nul, arena, &err);
  CHECK_INT(hl_hms_read_table(&d, &got), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: string holds a NUL byte at byte 9");
  hl_err_clear(&err);
  /* the allocation budget: 100 columns with a budget of 1000 bytes */
  hl_buf_reset(&a);
  hl_tw_field(&a, HL_TT_LIST, 8);
  hl_tw_list(&a, HL_TT_STRUCT, 100);
  for (int i = 0; i < 100; i++)
    hl_tw_stop(&a);
  hl_tw_stop(&a);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  d.budget = 1000;
  CHECK_INT(hl_hms_read_table(&d, &got), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: decoded message would take more than 1000 bytes at byte 8");
  hl_err_clear(&err);
  CHECK(hl_arena_used(arena) < 2000);
  hl_arena_destroy(arena);
  hl_buf_fini(&a);
}

TEST(calls_and_replies) {
  hl_buf_t a;
  hl_error_t err;
  hl_buf_init(&a);
  hl_err_init(&err);
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_dec_t d;
  hl_hms_message_t m;
  char *db, *tbl;
  int16_t maxp;
  hl_hms_write_get_partition_names_call(&a, 7, "db", "t", 100);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_message(&d, &m), HL_OK);
  CHECK_STR(m.name, "get_partition_names");
  CHECK_INT(m.type, HL_TMSG_CALL);
  CHECK_INT(m.seqid, 7);
  CHECK_INT(hl_hms_read_get_partition_names_args(&d, &db, &tbl, &maxp), HL_OK);
  CHECK_STR(db, "db");
  CHECK_STR(tbl, "t");
  CHECK_INT(maxp, 100);
  CHECK_INT(hl_tr_offset(&d.r), a.len);
  hl_buf_reset(&a);
  hl_hms_write_get_table_call(&a, 8, "db", "t");
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK(!hl_hms_read_message(&d, &m) && !hl_hms_read_get_table_args(&d, &db, &tbl));
  CHECK_STR(tbl, "t");
  hl_buf_reset(&a);
  hl_hms_write_get_all_databases_call(&a, 9);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK(!hl_hms_read_message(&d, &m) && !hl_hms_read_get_all_databases_args(&d));
  CHECK_STR(m.name, "get_all_databases");
  /* replies: a value, a declared exception, an application exception */
  char *names[] = {"default", "sales"};
  hl_hms_strlist_t list = {2, names}, got;
  hl_hms_reply_t rep;
  hl_buf_reset(&a);
  hl_hms_write_get_all_databases_reply(&a, 9, &list, 0, NULL);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_all_databases_reply(&d, 9, &got, &rep), HL_OK);
  CHECK(got.n == 2 && strcmp(got.items[1], "sales") == 0 && !rep.exc_id && !rep.app_error);
  hl_hms_exception_t nso = {"t not found"};
  hl_hms_table_t tg;
  hl_buf_reset(&a);
  hl_hms_write_get_table_reply(&a, 8, NULL, 2, &nso);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_table_reply(&d, 8, &tg, &rep), HL_OK);
  CHECK_INT(rep.exc_id, 2);
  CHECK_STR(rep.exc.message, "t not found");
  hl_hms_table_t t = make_table();
  hl_buf_reset(&a);
  hl_hms_write_get_table_reply(&a, 8, &t, 0, NULL);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_table_reply(&d, 8, &tg, &rep), HL_OK);
  CHECK_STR(tg.sd->location, "file:/w/t");
  /* the wrong seqid, the wrong method */
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_table_reply(&d, 9, &tg, &rep), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: reply with sequence id 8 where 9 was sent at byte 21");
  hl_err_clear(&err);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_partition_names_reply(&d, 8, &got, &rep), HL_CORRUPT);
  CHECK_STR(err.message,
            "thrift: reply to \"get_table\" where \"get_partition_names\" was called at byte 21");
  hl_err_clear(&err);
  /* an empty result struct */
  hl_buf_reset(&a);
  hl_tw_message(&a, "get_partition_names", HL_TMSG_REPLY, 1);
  hl_tw_stop(&a);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_partition_names_reply(&d, 1, &got, &rep), HL_CORRUPT);
  CHECK_STR(
      err.message,
      "thrift: \"get_partition_names\" reply has neither a result nor an exception at byte 32");
  hl_err_clear(&err);
  hl_buf_reset(&a);
  hl_hms_write_app_exception_reply(&a, "get_table", 3, HL_TAPP_UNKNOWN_METHOD,
                                   "Invalid method name: 'get_table'");
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_table_reply(&d, 3, &tg, &rep), HL_OK);
  CHECK_INT(rep.app_error, 1);
  CHECK_INT(rep.app.type, HL_TAPP_UNKNOWN_METHOD);
  CHECK_STR(rep.app.message, "Invalid method name: 'get_table'");
  hl_arena_destroy(arena);
  hl_buf_fini(&a);
}

/* get_table_req's arguments: the request struct with unknown and skipped
 * fields, then a request without its required tblName */
TEST(get_table_req) {
  hl_buf_t a;
  hl_error_t err;
  hl_buf_init(&a);
  hl_err_init(&err);
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_dec_t d;
  hl_hms_get_table_request_t q;
  hl_tw_field(&a, HL_TT_STRUCT, 1);
  hl_tw_field(&a, HL_TT_STRING, 1);
  hl_tw_string(&a, "db");
  hl_tw_field(&a, HL_TT_STRING, 2);
  hl_tw_string(&a, "t");
  hl_tw_field(&a, HL_TT_BOOL, 7); /* getColumnStats: skipped */
  hl_tw_bool(&a, 1);
  hl_tw_field(&a, HL_TT_STRING, 4);
  hl_tw_string(&a, "hive");
  hl_tw_field(&a, HL_TT_I64, 11); /* id: skipped */
  hl_tw_i64(&a, -1);
  hl_tw_stop(&a);
  hl_tw_stop(&a);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_table_req_args(&d, &q), HL_OK);
  CHECK_STR(q.db_name, "db");
  CHECK_STR(q.tbl_name, "t");
  CHECK_STR(q.cat_name, "hive");
  CHECK_INT(hl_tr_offset(&d.r), a.len);
  hl_buf_reset(&a);
  hl_tw_field(&a, HL_TT_STRUCT, 1);
  hl_tw_field(&a, HL_TT_STRING, 1);
  hl_tw_string(&a, "db");
  hl_tw_stop(&a);
  hl_tw_stop(&a);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_get_table_req_args(&d, &q), HL_CORRUPT);
  CHECK_STR(err.message, "thrift: GetTableRequest without its required tblName at byte 14");
  hl_err_clear(&err);
  /* the result: table in field 1, isStatsCompliant 2 when set */
  hl_hms_table_t t = make_table();
  hl_hms_get_table_result_t r = {&t, 1, 0};
  hl_buf_reset(&a);
  hl_hms_write_get_table_result(&a, &r);
  hl_treader_t rd;
  hl_ttype_t ty;
  int16_t id;
  hl_tr_init(&rd, a.data, a.len, &err);
  CHECK(!hl_tr_field(&rd, &ty, &id) && ty == HL_TT_STRUCT && id == 1);
  CHECK_INT(hl_tr_skip(&rd, ty), HL_OK);
  CHECK(!hl_tr_field(&rd, &ty, &id) && ty == HL_TT_BOOL && id == 2);
  hl_arena_destroy(arena);
  hl_buf_fini(&a);
}

int main(void) {
  RUN(table_round_trip);
  RUN(partition_and_database);
  RUN(unknown_fields_skipped);
  RUN(hostile);
  RUN(calls_and_replies);
  RUN(get_table_req);
  return test_report();
}
