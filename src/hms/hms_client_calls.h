/*
 * hms_client_calls.h -- the calls a Hive Metastore client sends beyond the
 * three of hms_call.h, and readers of their replies.  Field ids and types
 * are those of the Hive 4 IDL (../shared/fixtures/hms/hive4), which agree
 * with Hive 2.3's for every method here:
 *
 *   Database get_database(1: string name)           throws (1 NoSuchObject, 2 Meta)
 *   list<string> get_all_tables(1: string db_name)  throws (1 Meta)
 *   GetTableResult get_table_req(1: GetTableRequest req) throws (1 Meta, 2 NoSuchObject)
 *   list<Partition> get_partitions_by_names(1: string db_name, 2: string tbl_name,
 *       3: list<string> names)                      throws (1 Meta, 2 NoSuchObject, 3
 * InvalidObject) Partition get_partition(1: string db_name, 2: string tbl_name, 3: list<string>
 * part_vals)                  throws (1 Meta, 2 NoSuchObject) list<string>
 * get_partition_names_ps(1: string db_name, 2: string tbl_name, 3: list<string> part_vals, 4: i16
 * max_parts = -1) throws (1 Meta, 2 NoSuchObject) void create_database(1: Database database) throws
 * (1 AlreadyExists, 2 InvalidObject, 3 Meta) void drop_database(1: string name, 2: bool deleteData,
 * 3: bool cascade) throws (1 NoSuchObject, 2 InvalidOperation, 3 Meta) void create_table(1: Table
 * tbl)                 throws (1 AlreadyExists, 2 InvalidObject, 3 Meta, 4 NoSuchObject) void
 * alter_table(1: string dbname, 2: string tbl_name, 3: Table new_tbl) throws (1 InvalidOperation, 2
 * Meta) void drop_table(1: string dbname, 2: string name, 3: bool deleteData) throws (1
 * NoSuchObject, 2 Meta) i32 add_partitions(1: list<Partition> new_parts) throws (1 InvalidObject, 2
 * AlreadyExists, 3 Meta) void alter_partition(1: string db_name, 2: string tbl_name, 3: Partition
 * new_part) throws (1 InvalidOperation, 2 Meta) bool drop_partition(1: string db_name, 2: string
 * tbl_name, 3: list<string> part_vals, 4: bool deleteData)                         throws (1
 * NoSuchObject, 2 Meta)
 *
 * Replies are read with hl_hms_read_reply (hms_call.h) and the value
 * readers below; which exception class a field id means is per method, so
 * hl_hms_client_exc_kind names it.
 */
#ifndef HL_HMS_HMS_CLIENT_CALLS_H
#define HL_HMS_HMS_CLIENT_CALLS_H

#include "hms/hms_call.h"
#include "hms/hms_ddl.h"

#include <stdbool.h>

/* The exception classes of the methods above. */
typedef enum hl_hms_exc_kind {
  HL_HMS_EXC_NONE = 0,
  HL_HMS_EXC_META,           /* MetaException */
  HL_HMS_EXC_NO_SUCH_OBJECT, /* NoSuchObjectException */
  HL_HMS_EXC_ALREADY_EXISTS, /* AlreadyExistsException */
  HL_HMS_EXC_INVALID_OBJECT, /* InvalidObjectException */
  HL_HMS_EXC_INVALID_OPERATION,
  HL_HMS_EXC_INVALID_INPUT /* InvalidInputException */
} hl_hms_exc_kind_t;

/* The class of METHOD's declared exception field EXC_ID (Hive 4's IDL;
 * get_partition_names' field 1 is NoSuchObject there, Meta in 2.3),
 * HL_HMS_EXC_NONE when the method has no such field. */
hl_hms_exc_kind_t hl_hms_client_exc_kind(const char *method, int16_t exc_id);
/* The number of declared exception fields of METHOD (0 when unknown). */
int16_t hl_hms_client_n_exc(const char *method);

/* ---- calls (a message header, the arguments, STOP) */

/* Any method whose arguments are (1: string, 2: string), or (1: string)
 * when B is NULL, or none when A is NULL too: get_all_databases,
 * get_database, get_all_tables, get_table, get_partition_names. */
void hl_hms_write_strings_call(hl_buf_t *buf, const char *method, int32_t seqid, const char *a,
                               const char *b);
/* The same with a third string argument C (get_num_partitions_by_filter). */
void hl_hms_write_strings3_call(hl_buf_t *buf, const char *method, int32_t seqid, const char *a,
                                const char *b, const char *c);
void hl_hms_write_get_table_req_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl);
void hl_hms_write_get_partitions_by_names_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                               const char *tbl, char *const *names, uint32_t n);
void hl_hms_write_get_partition_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                     const hl_hms_strlist_t *vals);
/* VALS: one per key, "" for any value. */
void hl_hms_write_get_partition_names_ps_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                              const char *tbl, const hl_hms_strlist_t *vals,
                                              int16_t max_parts);
void hl_hms_write_create_database_call(hl_buf_t *buf, int32_t seqid, const hl_hms_database_t *db);
void hl_hms_write_drop_database_call(hl_buf_t *buf, int32_t seqid, const char *name,
                                     bool delete_data, bool cascade);
void hl_hms_write_create_table_call(hl_buf_t *buf, int32_t seqid, const hl_hms_table_t *t);
void hl_hms_write_alter_table_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                   const hl_hms_table_t *t);
void hl_hms_write_drop_table_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                  bool delete_data);
void hl_hms_write_add_partitions_call(hl_buf_t *buf, int32_t seqid, const hl_hms_partition_t *parts,
                                      uint32_t n);
void hl_hms_write_alter_partition_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                       const char *tbl, const hl_hms_partition_t *p);
void hl_hms_write_drop_partition_call(hl_buf_t *buf, int32_t seqid, const char *db, const char *tbl,
                                      const hl_hms_strlist_t *vals, bool delete_data);

/* Column statistics (Hive 2.3 and 4):
 *   bool update_table_column_statistics(1: ColumnStatistics stats_obj) and
 *   bool update_partition_column_statistics(1: ColumnStatistics stats_obj)
 *       throws (1 NoSuchObject, 2 InvalidObject, 3 Meta, 4 InvalidInput)
 *   ColumnStatistics get_table_column_statistics(1 db, 2 tbl, 3 col),
 *   ColumnStatistics get_partition_column_statistics(1 db, 2 tbl, 3 part, 4 col)
 *       throws (1 NoSuchObject, 2 Meta, 3 InvalidInput, 4 InvalidObject)
 *   PartitionsStatsResult get_partitions_statistics_req(1: PartitionsStatsRequest)
 *       throws (1 NoSuchObject, 2 Meta)
 *   bool delete_table_column_statistics(1 db, 2 tbl, 3 col[, 4 engine]),
 *   bool delete_partition_column_statistics(1 db, 2 tbl, 3 part, 4 col[, 5 engine])
 *       throws (1 NoSuchObject, 2 Meta, 3 InvalidObject, 4 InvalidInput)
 * The update's method follows CS->desc.is_tbl_level. */
void hl_hms_write_update_col_stats_call(hl_buf_t *buf, int32_t seqid, const hl_hms_col_stats_t *cs);
/* METHOD(db, tbl[, part], col[, engine]): the get_ and delete_ forms; PART
 * NULL for the table forms, COL NULL (delete: every column) leaves its
 * field out, ENGINE adds Hive 4's engine "hive" after it. */
void hl_hms_write_col_stats_call(hl_buf_t *buf, const char *method, int32_t seqid, const char *db,
                                 const char *tbl, const char *part, const char *col, bool engine);
void hl_hms_write_partitions_stats_call(hl_buf_t *buf, int32_t seqid, const char *db,
                                        const char *tbl, const hl_hms_strlist_t *cols,
                                        const hl_hms_strlist_t *parts);

/* list<Partition>, as hl_hms_read_partition_list_v gives it. */
typedef struct hl_hms_partition_list {
  uint32_t n;
  hl_hms_partition_t *items;
} hl_hms_partition_list_t;

/* ---- reply values, for hl_hms_read_reply (OUT's type in brackets) */
hl_status_t hl_hms_read_strlist_v(hl_hms_dec_t *d, void *out);        /* hl_hms_strlist_t */
hl_status_t hl_hms_read_database_v(hl_hms_dec_t *d, void *out);       /* hl_hms_database_t */
hl_status_t hl_hms_read_table_v(hl_hms_dec_t *d, void *out);          /* hl_hms_table_t */
hl_status_t hl_hms_read_table_result_v(hl_hms_dec_t *d, void *out);   /* hl_hms_table_t: the
                                                                         GetTableResult's table */
hl_status_t hl_hms_read_partition_v(hl_hms_dec_t *d, void *out);      /* hl_hms_partition_t */
hl_status_t hl_hms_read_partition_list_v(hl_hms_dec_t *d, void *out); /* hl_hms_partition_list_t */
hl_status_t hl_hms_read_i32_v(hl_hms_dec_t *d, void *out);            /* int32_t */
hl_status_t hl_hms_read_bool_v(hl_hms_dec_t *d, void *out);           /* int */
hl_status_t hl_hms_read_col_stats_v(hl_hms_dec_t *d, void *out);      /* hl_hms_col_stats_t */
hl_status_t hl_hms_read_partitions_stats_result_v(hl_hms_dec_t *d,
                                                  void *out); /* hl_hms_partitions_stats_result_t */

#endif
