/*
 * hms_client_calls.c -- calls of the metastore client and readers of their
 * reply values (hms_client_calls.h).
 */
#include "hms/hms_client_calls.h"

#include <string.h>

/* ---- exception classes per method */

#define M  HL_HMS_EXC_META
#define NS HL_HMS_EXC_NO_SUCH_OBJECT
#define AE HL_HMS_EXC_ALREADY_EXISTS
#define IO HL_HMS_EXC_INVALID_OBJECT
#define IP HL_HMS_EXC_INVALID_OPERATION
#define II HL_HMS_EXC_INVALID_INPUT

static const struct {
  const char *method;
  hl_hms_exc_kind_t exc[4]; /* fields 1..4 */
} EXCEPTIONS[] = {
    {"get_all_databases", {M}},
    {"get_database", {NS, M}},
    {"get_all_tables", {M}},
    {"get_table", {M, NS}},
    {"get_table_req", {M, NS}},
    {"get_partition_names", {NS, M}},
    {"get_partition_names_ps", {M, NS}},
    {"get_partitions_by_names", {M, NS, IO}},
    {"get_partition", {M, NS}},
    {"get_num_partitions_by_filter", {M, NS}},
    {"create_database", {AE, IO, M}},
    {"drop_database", {NS, IP, M}},
    {"create_table", {AE, IO, M, NS}},
    {"alter_table", {IP, M}},
    {"drop_table", {NS, M}},
    {"add_partitions", {IO, AE, M}},
    {"alter_partition", {IP, M}},
    {"drop_partition", {NS, M}},
    {"update_table_column_statistics", {NS, IO, M, II}},
    {"update_partition_column_statistics", {NS, IO, M, II}},
    {"get_table_column_statistics", {NS, M, II, IO}},
    {"get_partition_column_statistics", {NS, M, II, IO}},
    {"get_partitions_statistics_req", {NS, M}},
    {"delete_table_column_statistics", {NS, M, IO, II}},
    {"delete_partition_column_statistics", {NS, M, IO, II}},
};

hl_hms_exc_kind_t hl_hms_client_exc_kind(const char *method, int16_t exc_id) {
  for (size_t i = 0; i < sizeof EXCEPTIONS / sizeof EXCEPTIONS[0]; i++)
    if (strcmp(EXCEPTIONS[i].method, method) == 0)
      return exc_id >= 1 && exc_id <= 4 ? EXCEPTIONS[i].exc[exc_id - 1] : HL_HMS_EXC_NONE;
  return HL_HMS_EXC_NONE;
}

int16_t hl_hms_client_n_exc(const char *method) {
  for (size_t i = 0; i < sizeof EXCEPTIONS / sizeof EXCEPTIONS[0]; i++)
    if (strcmp(EXCEPTIONS[i].method, method) == 0) {
      int16_t n = 0;
      while (n < 4 && EXCEPTIONS[i].exc[n] != HL_HMS_EXC_NONE)
        n++;
      return n;
    }
  return 0;
}

/* ---- calls */

static void str_field(hl_buf_t *buf, int16_t id, const char *s) {
  hl_tw_field(buf, HL_TT_STRING, id);
  hl_tw_string(buf, s);
}

static void bool_field(hl_buf_t *buf, int16_t id, bool v) {
  hl_tw_field(buf, HL_TT_BOOL, id);
  hl_tw_bool(buf, v);
}

static void strlist_field(hl_buf_t *buf, int16_t id, const hl_hms_strlist_t *v) {
  hl_tw_field(buf, HL_TT_LIST, id);
  hl_hms_write_strlist(buf, v);
}

void hl_hms_write_strings_call(hl_buf_t *buf, const char *method, int32_t seqid, const char *a,
                               const char *b) {
  hl_hms_write_strings3_call(buf, method, seqid, a, b, NULL);
}

void hl_hms_write_strings3_call(hl_buf_t *buf, const char *method, int32_t seqid, const char *a,
                                const char *b, const char *c) {
  hl_tw_message(buf, method, HL_TMSG_CALL, seqid);
  if (a) str_field(buf, 1, a);
  if (a && b) str_field(buf, 2, b);
  if (a && b && c) str_field(buf, 3, c);
  hl_tw_stop(buf);
}

void hl_hms_write_get_table_req_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                     const char *tbl) {
  hl_tw_message(buf, "get_table_req", HL_TMSG_CALL, seqid);
  hl_tw_field(buf, HL_TT_STRUCT, 1); /* GetTableRequest */
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  hl_tw_stop(buf);
  hl_tw_stop(buf);
}

void hl_hms_write_get_partitions_by_names_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                               const char *tbl, char *const *names, uint32_t n) {
  hl_hms_strlist_t l = {n, (char **)names};
  hl_tw_message(buf, "get_partitions_by_names", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  strlist_field(buf, 3, &l);
  hl_tw_stop(buf);
}

void hl_hms_write_get_partition_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                     const hl_hms_strlist_t *vals) {
  hl_tw_message(buf, "get_partition", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  strlist_field(buf, 3, vals);
  hl_tw_stop(buf);
}

void hl_hms_write_get_partition_names_ps_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                              const char *tbl, const hl_hms_strlist_t *vals,
                                              int16_t max_parts) {
  hl_tw_message(buf, "get_partition_names_ps", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  strlist_field(buf, 3, vals);
  hl_tw_field(buf, HL_TT_I16, 4);
  hl_tw_i16(buf, max_parts);
  hl_tw_stop(buf);
}

void hl_hms_write_create_database_call(hl_buf_t *buf, int32_t seqid, const hl_hms_database_t *db) {
  hl_tw_message(buf, "create_database", HL_TMSG_CALL, seqid);
  hl_tw_field(buf, HL_TT_STRUCT, 1);
  hl_hms_write_database(buf, db);
  hl_tw_stop(buf);
}

void hl_hms_write_drop_database_call(hl_buf_t *buf, int32_t seqid, const char *name,
                                     bool delete_data, bool cascade) {
  hl_tw_message(buf, "drop_database", HL_TMSG_CALL, seqid);
  str_field(buf, 1, name);
  bool_field(buf, 2, delete_data);
  bool_field(buf, 3, cascade);
  hl_tw_stop(buf);
}

void hl_hms_write_create_table_call(hl_buf_t *buf, int32_t seqid, const hl_hms_table_t *t) {
  hl_tw_message(buf, "create_table", HL_TMSG_CALL, seqid);
  hl_tw_field(buf, HL_TT_STRUCT, 1);
  hl_hms_write_table(buf, t);
  hl_tw_stop(buf);
}

void hl_hms_write_alter_table_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                   const hl_hms_table_t *t) {
  hl_tw_message(buf, "alter_table", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  hl_tw_field(buf, HL_TT_STRUCT, 3);
  hl_hms_write_table(buf, t);
  hl_tw_stop(buf);
}

void hl_hms_write_drop_table_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                  bool delete_data) {
  hl_tw_message(buf, "drop_table", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  bool_field(buf, 3, delete_data);
  hl_tw_stop(buf);
}

void hl_hms_write_add_partitions_call(hl_buf_t *buf, int32_t seqid, const hl_hms_partition_t *parts,
                                      uint32_t n) {
  hl_tw_message(buf, "add_partitions", HL_TMSG_CALL, seqid);
  hl_tw_field(buf, HL_TT_LIST, 1);
  hl_hms_write_partition_list(buf, parts, n);
  hl_tw_stop(buf);
}

void hl_hms_write_alter_partition_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                       const char *tbl, const hl_hms_partition_t *p) {
  hl_tw_message(buf, "alter_partition", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  hl_tw_field(buf, HL_TT_STRUCT, 3);
  hl_hms_write_partition(buf, p);
  hl_tw_stop(buf);
}

void hl_hms_write_drop_partition_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                      const hl_hms_strlist_t *vals, bool delete_data) {
  hl_tw_message(buf, "drop_partition", HL_TMSG_CALL, seqid);
  str_field(buf, 1, db);
  str_field(buf, 2, tbl);
  strlist_field(buf, 3, vals);
  bool_field(buf, 4, delete_data);
  hl_tw_stop(buf);
}

/* The engine Hive 4 names statistics by; Hive 2.3 servers skip the field
 * (Thrift ignores unknown field ids). */
#define STATS_ENGINE "hive"

void hl_hms_write_update_col_stats_call(hl_buf_t *buf, int32_t seqid,
                                        const hl_hms_col_stats_t *cs) {
  hl_tw_message(buf,
                cs->desc.is_tbl_level ? "update_table_column_statistics"
                                      : "update_partition_column_statistics",
                HL_TMSG_CALL, seqid);
  hl_tw_field(buf, HL_TT_STRUCT, 1);
  hl_hms_write_col_stats(buf, cs);
  hl_tw_stop(buf);
}

void hl_hms_write_col_stats_call(hl_buf_t *buf, const char *method, int32_t seqid, const char *db,
                                 const char *tbl, const char *part, const char *col, bool engine) {
  hl_tw_message(buf, method, HL_TMSG_CALL, seqid);
  int16_t id = 1;
  str_field(buf, id++, db);
  str_field(buf, id++, tbl);
  if (part) str_field(buf, id++, part);
  if (col) str_field(buf, id, col);
  id++;
  if (engine) str_field(buf, id, STATS_ENGINE);
  hl_tw_stop(buf);
}

void hl_hms_write_partitions_stats_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                        const char *tbl, const hl_hms_strlist_t *cols,
                                        const hl_hms_strlist_t *parts) {
  hl_hms_stats_request_t q = {.db_name = (char *)db,
                              .tbl_name = (char *)tbl,
                              .col_names = *cols,
                              .part_names = *parts,
                              .engine = STATS_ENGINE};
  hl_tw_message(buf, "get_partitions_statistics_req", HL_TMSG_CALL, seqid);
  hl_tw_field(buf, HL_TT_STRUCT, 1);
  hl_hms_write_stats_request(buf, 1, &q);
  hl_tw_stop(buf);
}

/* ---- reply values */

hl_status_t hl_hms_read_strlist_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_strlist(d, out);
}
hl_status_t hl_hms_read_database_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_database(d, out);
}
hl_status_t hl_hms_read_table_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_table(d, out);
}
hl_status_t hl_hms_read_partition_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_partition(d, out);
}
hl_status_t hl_hms_read_partition_list_v(hl_hms_dec_t *d, void *out) {
  hl_hms_partition_list_t *l = out;
  return hl_hms_read_partition_list(d, &l->items, &l->n);
}
hl_status_t hl_hms_read_i32_v(hl_hms_dec_t *d, void *out) {
  return hl_tr_i32(&d->r, out);
}
hl_status_t hl_hms_read_bool_v(hl_hms_dec_t *d, void *out) {
  return hl_tr_bool(&d->r, out);
}

/* GetTableResult { 1: required Table table, 2: optional bool ... } */
hl_status_t hl_hms_read_table_result_v(hl_hms_dec_t *d, void *out) {
  hl_ttype_t t;
  int16_t id;
  int have_table = 0;
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    if (id == 1 && t == HL_TT_STRUCT) {
      rc = hl_hms_read_table(d, out);
      have_table = 1;
    } else {
      rc = hl_tr_skip(&d->r, t);
    }
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  if (!rc && !have_table) return hl_tr_fail(&d->r, "GetTableResult without its required table");
  return rc;
}

hl_status_t hl_hms_read_col_stats_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_col_stats(d, out);
}
hl_status_t hl_hms_read_partitions_stats_result_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_partitions_stats_result(d, out);
}
