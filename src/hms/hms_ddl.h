/*
 * hms_ddl.h -- the Hive Metastore structs of the write methods (DDL,
 * partition writes, locks) with their binary-protocol encoders and
 * decoders: EnvironmentContext, AddPartitionsRequest/Result,
 * DropPartitionsRequest/Result, LockComponent, LockRequest, LockResponse,
 * CheckLockRequest, UnlockRequest, HeartbeatRequest, ShowLocksRequest,
 * ShowLocksResponseElement, ShowLocksResponse.
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
enum { HL_HMS_LOCK_SHARED_READ = 1, HL_HMS_LOCK_SHARED_WRITE = 2, HL_HMS_LOCK_EXCLUSIVE = 3,
       HL_HMS_LOCK_EXCL_WRITE = 4 };
enum { HL_HMS_LEVEL_DB = 1, HL_HMS_LEVEL_TABLE = 2, HL_HMS_LEVEL_PARTITION = 3 };
enum { HL_HMS_LOCK_ACQUIRED = 1, HL_HMS_LOCK_WAITING = 2, HL_HMS_LOCK_ABORT = 3,
       HL_HMS_LOCK_NOT_ACQUIRED = 4 };

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
void hl_hms_write_drop_partitions_request(hl_buf_t *buf,
                                          const hl_hms_drop_partitions_request_t *v);
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

#endif
