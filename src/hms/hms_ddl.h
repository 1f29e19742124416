/*
 * hms_ddl.h -- the Hive Metastore structs of the write methods (DDL,
 * partition writes, locks) with their binary-protocol encoders and
 * decoders: EnvironmentContext, AddPartitionsRequest/Result,
 * DropPartitionsRequest/Result, LockComponent, LockRequest, LockResponse,
 * CheckLockRequest, UnlockRequest, HeartbeatRequest, ShowLocksRequest,
 * ShowLocksResponseElement, ShowLocksResponse; the column statistics
 * structs (ColumnStatistics and its parts, SetPartitionsStatsRequest /
 * Response, TableStatsRequest / Result, PartitionsStatsRequest / Result,
 * AggrStats).
 *
 * Field ids and types are those of the Hive 4 IDL; the Hive 2.3 IDL has
 * the same ids for every field both have (README.md lists what 2.3 lacks).
 * Presence and allocation follow hms.h: absent strings and structs are
 * NULL, optional scalars have has_* flags, decoded values live in the
 * decoder's arena under its budget.  Unlike the structs of hms.h these
 * have required fields: a decoder fails with 08P01 naming the struct and
 * the field when one is missing (as the Java runtime's validate() does);
 * encoders write required fields always.
 */
#ifndef HL_HMS_HMS_DDL_H
#define HL_HMS_HMS_DDL_H

#include "hms/hms.h"

/* EnvironmentContext { 1: map<string, string> properties } */
typedef struct hl_hms_env_context {
  hl_hms_strmap_t properties;
} hl_hms_env_context_t;

/* AddPartitionsRequest: 1 dbName, 2 tblName, 3 parts, 4 ifNotExists
 * required; 5 needResult (default true), 6 catName optional; 7-10
 * (validWriteIdList, skipColumnSchemaForPartition, partitionColSchema,
 * environmentContext; Hive 4 only) are skipped. */
typedef struct hl_hms_add_partitions_request {
  char *db_name;
  char *tbl_name;
  uint32_t n_parts;
  hl_hms_partition_t *parts;
  int if_not_exists;
  int has_need_result, need_result;
  char *cat_name;
} hl_hms_add_partitions_request_t;

/* AddPartitionsResult { 1: optional list<Partition> partitions,
 * 2: optional bool isStatsCompliant } (3 partitionColSchema skipped) */
typedef struct hl_hms_add_partitions_result {
  int has_partitions;
  uint32_t n_parts;
  hl_hms_partition_t *parts;
  int has_is_stats_compliant, is_stats_compliant;
} hl_hms_add_partitions_result_t;

/* DropPartitionsRequest: 1 dbName, 2 tblName, 3 parts (union
 * RequestPartsSpec { 1: list<string> names, 2: list<DropPartitionsExpr>
 * exprs }) required; 4 deleteData, 5 ifExists (default true), 6
 * ignoreProtection, 8 needResult (default true), 9 catName optional; 7
 * environmentContext and 10 are skipped.  Expressions are serialized Java
 * objects hivelite cannot evaluate: the decoder only counts them. */
typedef struct hl_hms_drop_partitions_request {
  char *db_name;
  char *tbl_name;
  int has_names;
  hl_hms_strlist_t names;
  uint32_t n_exprs; /* set when the union holds exprs (not decoded) */
  int has_delete_data, delete_data;
  int has_if_exists, if_exists;
  int has_ignore_protection, ignore_protection;
  int has_need_result, need_result;
  char *cat_name;
} hl_hms_drop_partitions_request_t;

/* DropPartitionsResult { 1: optional list<Partition> partitions } */
typedef struct hl_hms_drop_partitions_result {
  int has_partitions;
  uint32_t n_parts;
  hl_hms_partition_t *parts;
} hl_hms_drop_partitions_result_t;

/* enum LockType, LockLevel, LockState */
enum {
  HL_HMS_LOCK_SHARED_READ = 1,
  HL_HMS_LOCK_SHARED_WRITE = 2,
  HL_HMS_LOCK_EXCLUSIVE = 3,
  HL_HMS_LOCK_EXCL_WRITE = 4
};
enum { HL_HMS_LEVEL_DB = 1, HL_HMS_LEVEL_TABLE = 2, HL_HMS_LEVEL_PARTITION = 3 };
enum {
  HL_HMS_LOCK_ACQUIRED = 1,
  HL_HMS_LOCK_WAITING = 2,
  HL_HMS_LOCK_ABORT = 3,
  HL_HMS_LOCK_NOT_ACQUIRED = 4
};

/* LockComponent: 1 type, 2 level, 3 dbname required; 4 tablename, 5
 * partitionname, 6 operationType (default UNSET 5), 7 isTransactional, 8
 * isDynamicPartitionWrite optional. */
typedef struct hl_hms_lock_component {
  int32_t type;
  int32_t level;
  char *dbname;
  char *tablename;
  char *partitionname;
  int has_operation_type;
  int32_t operation_type;
  int has_is_transactional, is_transactional;
  int has_is_dynamic_partition_write, is_dynamic_partition_write;
} hl_hms_lock_component_t;

/* LockRequest: 1 component, 3 user, 4 hostname required; 2 txnid, 5
 * agentInfo optional; 6-8 (Hive 4 only) skipped. */
typedef struct hl_hms_lock_request {
  uint32_t n_components;
  hl_hms_lock_component_t *components;
  int has_txnid;
  int64_t txnid;
  char *user;
  char *hostname;
  char *agent_info;
} hl_hms_lock_request_t;

/* LockResponse { 1: required i64 lockid, 2: required LockState state,
 * 3: optional string errorMessage (Hive 4) } */
typedef struct hl_hms_lock_response {
  int64_t lockid;
  int32_t state;
  char *error_message;
} hl_hms_lock_response_t;

/* CheckLockRequest { 1: required i64 lockid, 2: optional i64 txnid,
 * 3: optional i64 elapsed_ms } */
typedef struct hl_hms_check_lock_request {
  int64_t lockid;
  int has_txnid;
  int64_t txnid;
  int has_elapsed_ms;
  int64_t elapsed_ms;
} hl_hms_check_lock_request_t;

/* UnlockRequest { 1: required i64 lockid } */
typedef struct hl_hms_unlock_request {
  int64_t lockid;
} hl_hms_unlock_request_t;

/* HeartbeatRequest { 1: optional i64 lockid, 2: optional i64 txnid } */
typedef struct hl_hms_heartbeat_request {
  int has_lockid;
  int64_t lockid;
  int has_txnid;
  int64_t txnid;
} hl_hms_heartbeat_request_t;

/* ShowLocksRequest: all optional: 1 dbname, 2 tablename, 3 partname, 4
 * isExtended, 5 txnid. */
typedef struct hl_hms_show_locks_request {
  char *dbname;
  char *tablename;
  char *partname;
  int has_is_extended, is_extended;
  int has_txnid;
  int64_t txnid;
} hl_hms_show_locks_request_t;

/* ShowLocksResponseElement: 1 lockid, 2 dbname, 5 state, 6 type, 8
 * lastheartbeat, 10 user, 11 hostname required; 3 tablename, 4 partname,
 * 7 txnid, 9 acquiredat, 12 heartbeatCount, 13 agentInfo optional; 14-16
 * (Hive 4 only) are skipped. */
typedef struct hl_hms_show_locks_element {
  int64_t lockid;
  char *dbname;
  char *tablename;
  char *partname;
  int32_t state;
  int32_t type;
  int has_txnid;
  int64_t txnid;
  int64_t lastheartbeat;
  int has_acquiredat;
  int64_t acquiredat;
  char *user;
  char *hostname;
  int has_heartbeat_count;
  int32_t heartbeat_count;
  char *agent_info;
} hl_hms_show_locks_element_t;

/* ShowLocksResponse { 1: list<ShowLocksResponseElement> locks } */
typedef struct hl_hms_show_locks_response {
  uint32_t n_locks;
  hl_hms_show_locks_element_t *locks;
} hl_hms_show_locks_response_t;

/* Decoders (HL_OK, HL_CORRUPT 08P01, HL_NOMEM) and encoders (sticky
 * errors in BUF), as in hms.h. */
hl_status_t hl_hms_read_env_context(hl_hms_dec_t *d, hl_hms_env_context_t *out);
hl_status_t hl_hms_read_add_partitions_request(hl_hms_dec_t *d,
                                               hl_hms_add_partitions_request_t *out);
hl_status_t hl_hms_read_add_partitions_result(hl_hms_dec_t *d, hl_hms_add_partitions_result_t *out);
hl_status_t hl_hms_read_drop_partitions_request(hl_hms_dec_t *d,
                                                hl_hms_drop_partitions_request_t *out);
hl_status_t hl_hms_read_drop_partitions_result(hl_hms_dec_t *d,
                                               hl_hms_drop_partitions_result_t *out);
hl_status_t hl_hms_read_lock_component(hl_hms_dec_t *d, hl_hms_lock_component_t *out);
hl_status_t hl_hms_read_lock_request(hl_hms_dec_t *d, hl_hms_lock_request_t *out);
hl_status_t hl_hms_read_lock_response(hl_hms_dec_t *d, hl_hms_lock_response_t *out);
hl_status_t hl_hms_read_check_lock_request(hl_hms_dec_t *d, hl_hms_check_lock_request_t *out);
hl_status_t hl_hms_read_unlock_request(hl_hms_dec_t *d, hl_hms_unlock_request_t *out);
hl_status_t hl_hms_read_heartbeat_request(hl_hms_dec_t *d, hl_hms_heartbeat_request_t *out);
hl_status_t hl_hms_read_show_locks_request(hl_hms_dec_t *d, hl_hms_show_locks_request_t *out);
hl_status_t hl_hms_read_show_locks_element(hl_hms_dec_t *d, hl_hms_show_locks_element_t *out);
hl_status_t hl_hms_read_show_locks_response(hl_hms_dec_t *d, hl_hms_show_locks_response_t *out);
/* list<Partition> (a method argument or result). */
hl_status_t hl_hms_read_partition_list(hl_hms_dec_t *d, hl_hms_partition_t **parts, uint32_t *n);

void hl_hms_write_env_context(hl_buf_t *buf, const hl_hms_env_context_t *v);
void hl_hms_write_add_partitions_request(hl_buf_t *buf, const hl_hms_add_partitions_request_t *v);
void hl_hms_write_add_partitions_result(hl_buf_t *buf, const hl_hms_add_partitions_result_t *v);
void hl_hms_write_drop_partitions_request(hl_buf_t *buf, const hl_hms_drop_partitions_request_t *v);
void hl_hms_write_drop_partitions_result(hl_buf_t *buf, const hl_hms_drop_partitions_result_t *v);
void hl_hms_write_lock_component(hl_buf_t *buf, const hl_hms_lock_component_t *v);
void hl_hms_write_lock_request(hl_buf_t *buf, const hl_hms_lock_request_t *v);
void hl_hms_write_lock_response(hl_buf_t *buf, const hl_hms_lock_response_t *v);
void hl_hms_write_check_lock_request(hl_buf_t *buf, const hl_hms_check_lock_request_t *v);
void hl_hms_write_unlock_request(hl_buf_t *buf, const hl_hms_unlock_request_t *v);
void hl_hms_write_heartbeat_request(hl_buf_t *buf, const hl_hms_heartbeat_request_t *v);
void hl_hms_write_show_locks_request(hl_buf_t *buf, const hl_hms_show_locks_request_t *v);
void hl_hms_write_show_locks_element(hl_buf_t *buf, const hl_hms_show_locks_element_t *v);
void hl_hms_write_show_locks_response(hl_buf_t *buf, const hl_hms_show_locks_response_t *v);
/* list<Partition> without a field header. */
void hl_hms_write_partition_list(hl_buf_t *buf, const hl_hms_partition_t *parts, uint32_t n);

/* ---- column statistics */

/* Decimal { 3: required i16 scale, 1: required binary unscaled } (the
 * unscaled value big-endian two's complement, as Java's BigInteger). */
typedef struct hl_hms_decimal {
  uint8_t *unscaled;
  uint32_t len;
  int16_t scale;
} hl_hms_decimal_t;

/* The kinds of union ColumnStatisticsData (its field ids). */
enum {
  HL_HMS_STATS_BOOLEAN = 1,
  HL_HMS_STATS_LONG = 2,
  HL_HMS_STATS_DOUBLE = 3,
  HL_HMS_STATS_STRING = 4,
  HL_HMS_STATS_BINARY = 5,
  HL_HMS_STATS_DECIMAL = 6,
  HL_HMS_STATS_DATE = 7,
  HL_HMS_STATS_TIMESTAMP = 8 /* Hive 4 only */
};

/* One ColumnStatisticsData: KIND says which member the union holds (0:
 * none, a decoder error).  Fields by kind (the structs of the IDL):
 *   BOOLEAN   1 numTrues, 2 numFalses, 3 numNulls, 4 bitVectors
 *   LONG      1 lowValue, 2 highValue (low_i/high_i), 3 numNulls, 4 numDVs,
 *             5 bitVectors, 6 histogram
 *   DOUBLE    the same with low_d/high_d
 *   STRING    1 maxColLen, 2 avgColLen, 3 numNulls, 4 numDVs, 5 bitVectors
 *   BINARY    1 maxColLen, 2 avgColLen, 3 numNulls, 4 bitVectors
 *   DECIMAL   1 lowValue, 2 highValue (low_dec/high_dec: Decimal), 3-6 as LONG
 *   DATE      1, 2 (Date { 1: i64 daysSinceEpoch } in low_i/high_i), 3-6
 *   TIMESTAMP 1, 2 (Timestamp { 1: i64 secondsSinceEpoch }), 3-6
 * low/high are optional (has_low/has_high), bitVectors and histogram too
 * (has_bit_vectors, has_histogram); the rest is required. */
typedef struct hl_hms_stats_data {
  int kind;
  int has_low, has_high;
  int64_t low_i, high_i;
  double low_d, high_d;
  hl_hms_decimal_t low_dec, high_dec;
  int64_t num_trues, num_falses, num_nulls, num_dvs, max_col_len;
  double avg_col_len;
  int has_bit_vectors;
  uint8_t *bit_vectors;
  uint32_t n_bit_vectors;
  int has_histogram;
  uint8_t *histogram;
  uint32_t n_histogram;
} hl_hms_stats_data_t;

/* ColumnStatisticsObj { 1: colName, 2: colType, 3: statsData } all
 * required. */
typedef struct hl_hms_stats_obj {
  char *col_name;
  char *col_type;
  hl_hms_stats_data_t data;
} hl_hms_stats_obj_t;

/* ColumnStatisticsDesc: 1 isTblLevel, 2 dbName, 3 tableName required; 4
 * partName, 5 lastAnalyzed, 6 catName optional. */
typedef struct hl_hms_stats_desc {
  int is_tbl_level;
  char *db_name;
  char *table_name;
  char *part_name;
  int has_last_analyzed;
  int64_t last_analyzed;
  char *cat_name;
} hl_hms_stats_desc_t;

/* ColumnStatistics: 1 statsDesc, 2 statsObj required; 3 isStatsCompliant,
 * 4 engine (Hive 4) optional. */
typedef struct hl_hms_col_stats {
  hl_hms_stats_desc_t desc;
  uint32_t n_objs;
  hl_hms_stats_obj_t *objs;
  int has_is_stats_compliant, is_stats_compliant;
  char *engine;
} hl_hms_col_stats_t;

/* SetPartitionsStatsRequest: 1 colStats required; 2 needMerge, 3 writeId,
 * 4 validWriteIdList, 5 engine optional. */
typedef struct hl_hms_set_stats_request {
  uint32_t n_col_stats;
  hl_hms_col_stats_t *col_stats;
  int has_need_merge, need_merge;
  int has_write_id;
  int64_t write_id;
  char *valid_write_id_list;
  char *engine;
} hl_hms_set_stats_request_t;

/* SetPartitionsStatsResponse { 1: required bool result } (Hive 4) */
typedef struct hl_hms_set_stats_response {
  int result;
} hl_hms_set_stats_response_t;

/* TableStatsRequest: 1 dbName, 2 tblName, 3 colNames required; 4 catName,
 * 6 engine optional (5 validWriteIdList, 7 id skipped).
 * PartitionsStatsRequest: the same plus 4 partNames (required), with
 * catName at 5 and engine at 7. */
typedef struct hl_hms_stats_request {
  char *db_name;
  char *tbl_name;
  hl_hms_strlist_t col_names;
  hl_hms_strlist_t part_names; /* PartitionsStatsRequest only */
  char *cat_name;
  char *engine;
} hl_hms_stats_request_t;

/* TableStatsResult { 1: required list<ColumnStatisticsObj> tableStats,
 * 2: optional bool isStatsCompliant } */
typedef struct hl_hms_table_stats_result {
  uint32_t n_objs;
  hl_hms_stats_obj_t *objs;
  int has_is_stats_compliant, is_stats_compliant;
} hl_hms_table_stats_result_t;

/* PartitionsStatsResult { 1: required map<string, list<ColumnStatisticsObj>>
 * partStats, 2: optional bool isStatsCompliant } */
typedef struct hl_hms_part_stats {
  char *part_name;
  uint32_t n_objs;
  hl_hms_stats_obj_t *objs;
} hl_hms_part_stats_t;

typedef struct hl_hms_partitions_stats_result {
  uint32_t n_parts;
  hl_hms_part_stats_t *parts;
  int has_is_stats_compliant, is_stats_compliant;
} hl_hms_partitions_stats_result_t;

/* AggrStats { 1: required list<ColumnStatisticsObj> colStats, 2: required
 * i64 partsFound, 3: optional bool isStatsCompliant } */
typedef struct hl_hms_aggr_stats {
  uint32_t n_objs;
  hl_hms_stats_obj_t *objs;
  int64_t parts_found;
  int has_is_stats_compliant, is_stats_compliant;
} hl_hms_aggr_stats_t;

hl_status_t hl_hms_read_stats_obj(hl_hms_dec_t *d, hl_hms_stats_obj_t *out);
hl_status_t hl_hms_read_col_stats(hl_hms_dec_t *d, hl_hms_col_stats_t *out);
hl_status_t hl_hms_read_set_stats_request(hl_hms_dec_t *d, hl_hms_set_stats_request_t *out);
hl_status_t hl_hms_read_set_stats_response(hl_hms_dec_t *d, hl_hms_set_stats_response_t *out);
/* PARTS: a PartitionsStatsRequest (else a TableStatsRequest). */
hl_status_t hl_hms_read_stats_request(hl_hms_dec_t *d, int parts, hl_hms_stats_request_t *out);
hl_status_t hl_hms_read_table_stats_result(hl_hms_dec_t *d, hl_hms_table_stats_result_t *out);
hl_status_t hl_hms_read_partitions_stats_result(hl_hms_dec_t *d,
                                                hl_hms_partitions_stats_result_t *out);
hl_status_t hl_hms_read_aggr_stats(hl_hms_dec_t *d, hl_hms_aggr_stats_t *out);

void hl_hms_write_stats_obj(hl_buf_t *buf, const hl_hms_stats_obj_t *v);
void hl_hms_write_col_stats(hl_buf_t *buf, const hl_hms_col_stats_t *v);
void hl_hms_write_set_stats_request(hl_buf_t *buf, const hl_hms_set_stats_request_t *v);
void hl_hms_write_set_stats_response(hl_buf_t *buf, const hl_hms_set_stats_response_t *v);
void hl_hms_write_stats_request(hl_buf_t *buf, int parts, const hl_hms_stats_request_t *v);
void hl_hms_write_table_stats_result(hl_buf_t *buf, const hl_hms_table_stats_result_t *v);
void hl_hms_write_partitions_stats_result(hl_buf_t *buf, const hl_hms_partitions_stats_result_t *v);
void hl_hms_write_aggr_stats(hl_buf_t *buf, const hl_hms_aggr_stats_t *v);

#endif
