/*
 * test_hms_ddl.c -- the write-method structs of src/hms/hms_ddl.h: each
 * struct with every field set round trips byte-exactly (encode, decode,
 * encode again), decoded values are the ones written, a missing required
 * field is 08P01 naming the struct, a DropPartitionsRequest by expression
 * is counted but not decoded, the statistics structs (every kind of
 * ColumnStatisticsData) keep their values, and a truncated message fails
 * cleanly.
 */
#include "hms/hms_ddl.h"
#include "test.h"

#include <string.h>

typedef hl_status_t (*rd_fn)(hl_hms_dec_t *, void *);
typedef void (*wr_fn)(hl_buf_t *, const void *);

/* Encodes V with WR, decodes into OUT with RD (whole input consumed),
 * encodes OUT again and compares the bytes. */
static void round_trip(const void *v, void *out, wr_fn wr, rd_fn rd, hl_arena_t *arena) {
  hl_buf_t a, b;
  hl_error_t err;
  hl_hms_dec_t d;
  hl_buf_init(&a);
  hl_buf_init(&b);
  hl_err_init(&err);
  wr(&a, v);
  CHECK_INT(hl_tw_check(&a, &err), HL_OK);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(rd(&d, out), HL_OK);
  CHECK_INT(hl_tr_offset(&d.r), a.len);
  wr(&b, out);
  CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  hl_buf_fini(&a);
  hl_buf_fini(&b);
  hl_err_clear(&err);
}

#define RT(type, v, out, arena)                                                                    \
  round_trip(&(v), &(out), (wr_fn)hl_hms_write_##type, (rd_fn)hl_hms_read_##type, arena)

static hl_hms_kv_t kvs[] = {{"k", "v"}, {"e", ""}};
static char *vals[] = {"2024-01-01", "7"};
static char *names[] = {"ds=2024-01-01/h=7", "ds=x/h=1"};

TEST(partition_requests) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_env_context_t env = {{2, kvs}}, genv;
  RT(env_context, env, genv, arena);
  CHECK_STR(genv.properties.items[1].key, "e");

  hl_hms_partition_t parts[2] = {0};
  parts[0].values = (hl_hms_strlist_t){2, vals};
  parts[0].db_name = "db";
  parts[0].table_name = "t";
  parts[1].values = (hl_hms_strlist_t){1, vals};
  parts[1].parameters = (hl_hms_strmap_t){1, kvs};
  hl_hms_add_partitions_request_t add = {"db", "t", 2, parts, 1, 1, 0, "hive"}, gadd;
  RT(add_partitions_request, add, gadd, arena);
  CHECK_STR(gadd.parts[0].values.items[1], "7");
  CHECK_INT(gadd.if_not_exists, 1);
  CHECK_INT(gadd.has_need_result, 1);
  CHECK_INT(gadd.need_result, 0);
  CHECK_STR(gadd.cat_name, "hive");

  hl_hms_add_partitions_result_t ares = {1, 2, parts, 1, 1}, gares;
  RT(add_partitions_result, ares, gares, arena);
  CHECK_INT(gares.n_parts, 2);
  CHECK_STR(gares.parts[1].parameters.items[0].value, "v");
  hl_hms_add_partitions_result_t empty = {0}, gempty;
  RT(add_partitions_result, empty, gempty, arena);
  CHECK_INT(gempty.has_partitions, 0);

  hl_hms_drop_partitions_request_t drop = {0}, gdrop;
  drop.db_name = "db";
  drop.tbl_name = "t";
  drop.has_names = 1;
  drop.names = (hl_hms_strlist_t){2, names};
  drop.has_delete_data = drop.delete_data = 1;
  drop.has_if_exists = 1;
  drop.has_ignore_protection = drop.ignore_protection = 1;
  drop.has_need_result = drop.need_result = 1;
  drop.cat_name = "hive";
  RT(drop_partitions_request, drop, gdrop, arena);
  CHECK_STR(gdrop.names.items[1], "ds=x/h=1");
  CHECK_INT(gdrop.if_exists, 0);
  CHECK_INT(gdrop.has_if_exists, 1);
  CHECK_INT(gdrop.delete_data, 1);

  hl_hms_drop_partitions_result_t dres = {1, 1, parts}, gdres;
  RT(drop_partitions_result, dres, gdres, arena);
  CHECK_STR(gdres.parts[0].db_name, "db");
  hl_arena_destroy(arena);
}

TEST(lock_structs) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_hms_lock_component_t comps[2] = {
      {HL_HMS_LOCK_SHARED_READ, HL_HMS_LEVEL_TABLE, "db", "t", NULL, 1, 6, 1, 0, 1, 1},
      {HL_HMS_LOCK_EXCLUSIVE, HL_HMS_LEVEL_PARTITION, "db", "t", "p=1", 0, 0, 0, 0, 0, 0}};
  hl_hms_lock_request_t req = {2, comps, 1, 42, "alice", "host1", "agent"}, greq;
  RT(lock_request, req, greq, arena);
  CHECK_INT(greq.components[0].operation_type, 6);
  CHECK_INT(greq.components[0].is_dynamic_partition_write, 1);
  CHECK_STR(greq.components[1].partitionname, "p=1");
  CHECK_INT(greq.txnid, 42);
  CHECK_STR(greq.agent_info, "agent");

  hl_hms_lock_response_t resp = {7, HL_HMS_LOCK_WAITING, "why"}, gresp;
  RT(lock_response, resp, gresp, arena);
  CHECK_INT(gresp.lockid, 7);
  CHECK_INT(gresp.state, HL_HMS_LOCK_WAITING);
  hl_hms_check_lock_request_t chk = {9, 1, 3, 1, 500}, gchk;
  RT(check_lock_request, chk, gchk, arena);
  CHECK_INT(gchk.elapsed_ms, 500);
  hl_hms_unlock_request_t un = {INT64_MAX}, gun;
  RT(unlock_request, un, gun, arena);
  CHECK_INT(gun.lockid, INT64_MAX);
  hl_hms_heartbeat_request_t hb = {1, 5, 0, 0}, ghb;
  RT(heartbeat_request, hb, ghb, arena);
  CHECK_INT(ghb.has_txnid, 0);
  CHECK_INT(ghb.lockid, 5);
  hl_hms_show_locks_request_t sl = {"db", "t", "p=1", 1, 1, 1, 3}, gsl;
  RT(show_locks_request, sl, gsl, arena);
  CHECK_STR(gsl.partname, "p=1");
  hl_hms_show_locks_element_t el[2] = {
      {1, "db", "t", NULL, 1, 3, 0, 0, 1700000000000, 1, 1700000000001, "u", "h", 1, 4, "ag"},
      {2, "db", NULL, NULL, 2, 1, 1, 8, 5, 0, 0, "u2", "h2", 0, 0, NULL}};
  hl_hms_show_locks_response_t sr = {2, el}, gsr;
  RT(show_locks_response, sr, gsr, arena);
  CHECK_INT(gsr.n_locks, 2);
  CHECK_INT(gsr.locks[0].acquiredat, 1700000000001);
  CHECK_STR(gsr.locks[1].hostname, "h2");
  CHECK_INT(gsr.locks[1].txnid, 8);
  hl_arena_destroy(arena);
}

TEST(stats_structs) {
  hl_arena_t *arena = hl_arena_create(0);
  static uint8_t lo[] = {0xfb, 0x1e}, hi[] = {0x01, 0x86, 0x9f}, bv[] = {1, 2, 3};
  hl_hms_stats_obj_t objs[4] = {0};
  objs[0].col_name = "b";
  objs[0].col_type = "boolean";
  objs[0].data = (hl_hms_stats_data_t){.kind = HL_HMS_STATS_BOOLEAN,
                                       .num_trues = 3,
                                       .num_falses = 2,
                                       .num_nulls = 1,
                                       .has_bit_vectors = 1,
                                       .bit_vectors = bv,
                                       .n_bit_vectors = 3};
  objs[1].col_name = "dc";
  objs[1].col_type = "decimal(10,2)";
  objs[1].data = (hl_hms_stats_data_t){.kind = HL_HMS_STATS_DECIMAL,
                                       .has_low = 1,
                                       .has_high = 1,
                                       .low_dec = {lo, 2, 2},
                                       .high_dec = {hi, 3, 2},
                                       .num_dvs = 7};
  objs[2].col_name = "dt";
  objs[2].col_type = "date";
  objs[2].data = (hl_hms_stats_data_t){
      .kind = HL_HMS_STATS_DATE, .has_high = 1, .high_i = 19724, .num_nulls = 4, .num_dvs = 2};
  objs[3].col_name = "s";
  objs[3].col_type = "string";
  objs[3].data = (hl_hms_stats_data_t){.kind = HL_HMS_STATS_STRING,
                                       .max_col_len = 9,
                                       .avg_col_len = 4.5,
                                       .num_nulls = 1,
                                       .num_dvs = 5};
  hl_hms_col_stats_t cs = {{0, "db", "t", "p=1", 1, 1700000000, "hive"}, 4, objs, 1, 1, "hive"};
  hl_hms_set_stats_request_t q = {1, &cs, 1, 0, 1, -1, NULL, "hive"}, gq;
  RT(set_stats_request, q, gq, arena);
  CHECK_STR(gq.col_stats[0].desc.part_name, "p=1");
  CHECK_INT(gq.col_stats[0].objs[0].data.n_bit_vectors, 3);
  CHECK_INT(gq.col_stats[0].objs[1].data.high_dec.len, 3);
  CHECK_INT(gq.col_stats[0].objs[1].data.high_dec.unscaled[2], 0x9f);
  CHECK_INT(gq.col_stats[0].objs[2].data.has_low, 0);
  CHECK_INT(gq.col_stats[0].objs[2].data.high_i, 19724);
  CHECK(gq.col_stats[0].objs[3].data.avg_col_len == 4.5);
  char *cols[] = {"b", "s"}, *parts[] = {"p=1"};
  hl_hms_stats_request_t tr = {"db", "t", {2, cols}, {0, NULL}, "hive", "hive"}, gtr;
  hl_buf_t a;
  hl_error_t err;
  hl_hms_dec_t d;
  hl_buf_init(&a);
  hl_err_init(&err);
  hl_hms_write_stats_request(&a, 0, &tr);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_stats_request(&d, 0, &gtr), HL_OK);
  CHECK_STR(gtr.col_names.items[1], "s");
  CHECK_STR(gtr.cat_name, "hive");
  /* a TableStatsRequest is not a PartitionsStatsRequest (no partNames) */
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_stats_request(&d, 1, &gtr), HL_CORRUPT);
  hl_err_clear(&err);
  hl_buf_reset(&a);
  tr.part_names = (hl_hms_strlist_t){1, parts};
  hl_hms_write_stats_request(&a, 1, &tr);
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_stats_request(&d, 1, &gtr), HL_OK);
  CHECK_STR(gtr.part_names.items[0], "p=1");
  CHECK_STR(gtr.engine, "hive");
  hl_buf_fini(&a);
  hl_hms_part_stats_t ps[1] = {{"p=1", 2, objs}};
  hl_hms_partitions_stats_result_t pr = {1, ps, 0, 0}, gpr;
  RT(partitions_stats_result, pr, gpr, arena);
  CHECK_STR(gpr.parts[0].objs[1].col_name, "dc");
  hl_hms_table_stats_result_t ts = {4, objs, 1, 0}, gts;
  RT(table_stats_result, ts, gts, arena);
  CHECK_INT(gts.n_objs, 4);
  hl_hms_aggr_stats_t ag = {2, objs, 5, 0, 0}, gag;
  RT(aggr_stats, ag, gag, arena);
  CHECK_INT(gag.parts_found, 5);
  hl_hms_set_stats_response_t sr = {1}, gsr;
  RT(set_stats_response, sr, gsr, arena);
  CHECK_INT(gsr.result, 1);
  hl_arena_destroy(arena);
}

/* Required fields, the expression form of a drop, truncation. */
TEST(hostile) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_buf_t a;
  hl_error_t err;
  hl_hms_dec_t d;
  hl_buf_init(&a);
  hl_err_init(&err);
  /* a LockRequest without user and hostname */
  hl_tw_field(&a, HL_TT_LIST, 1);
  hl_tw_list(&a, HL_TT_STRUCT, 0);
  hl_tw_stop(&a);
  hl_hms_lock_request_t lr;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_lock_request(&d, &lr), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK(strstr(err.message, "LockRequest lacks a required field") != NULL);
  hl_err_clear(&err);
  /* an UnlockRequest without its lockid */
  hl_buf_reset(&a);
  hl_tw_stop(&a);
  hl_hms_unlock_request_t ur;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_unlock_request(&d, &ur), HL_CORRUPT);
  hl_err_clear(&err);
  /* a DropPartitionsRequest by expressions */
  hl_buf_reset(&a);
  hl_tw_field(&a, HL_TT_STRING, 1);
  hl_tw_string(&a, "db");
  hl_tw_field(&a, HL_TT_STRING, 2);
  hl_tw_string(&a, "t");
  hl_tw_field(&a, HL_TT_STRUCT, 3);
  hl_tw_field(&a, HL_TT_LIST, 2);
  hl_tw_list(&a, HL_TT_STRUCT, 2);
  for (int i = 0; i < 2; i++) {
    hl_tw_field(&a, HL_TT_STRING, 1);
    hl_tw_binary(&a, "\x01\x02", 2);
    hl_tw_stop(&a);
  }
  hl_tw_stop(&a);
  hl_tw_stop(&a);
  hl_hms_drop_partitions_request_t dr;
  hl_hms_dec_init(&d, a.data, a.len, arena, &err);
  CHECK_INT(hl_hms_read_drop_partitions_request(&d, &dr), HL_OK);
  CHECK_INT(dr.n_exprs, 2);
  CHECK_INT(dr.has_names, 0);
  CHECK_INT(hl_tr_offset(&d.r), a.len);
  /* every truncation of it fails with 08P01, never reads past the end */
  for (size_t n = 0; n < a.len; n++) {
    hl_hms_dec_init(&d, a.data, n, arena, &err);
    CHECK_INT(hl_hms_read_drop_partitions_request(&d, &dr), HL_CORRUPT);
    hl_err_clear(&err);
  }
  hl_buf_fini(&a);
  hl_arena_destroy(arena);
}

int main(void) {
  RUN(partition_requests);
  RUN(lock_structs);
  RUN(stats_structs);
  RUN(hostile);
  return test_report();
}
