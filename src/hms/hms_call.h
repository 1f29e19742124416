/*
 * hms_call.h -- the message layer of the Hive Metastore service for three
 * representative methods: the call (message header with the method name,
 * CALL type and sequence id, then the argument struct) and the reply (a
 * REPLY message with the result struct: field 0 the return value, fields
 * 1.. the declared exceptions; or an EXCEPTION message holding a
 * TApplicationException).
 *
 *   list<string> get_all_databases() throws (1: MetaException o1)
 *   Table get_table(1: string dbname, 2: string tbl_name)
 *       throws (1: MetaException o1, 2: NoSuchObjectException o2)
 *   list<string> get_partition_names(1: string db_name, 2: string tbl_name,
 *       3: i16 max_parts = -1)
 *       throws (1: NoSuchObjectException o1, 2: MetaException o2)   [Hive 4]
 *       throws (1: MetaException o2)                                [Hive 2.3]
 *
 * get_table exists only in the Hive 2.3 IDL (Hive 4 has get_table_req); the
 * exception ids of get_partition_names differ between the two (README.md),
 * so a reply's exception is reported by field id, not by class.
 */
#ifndef HL_HMS_HMS_CALL_H
#define HL_HMS_HMS_CALL_H

#include "hms/hms.h"

/* A message header as decoded (the name copied into the arena). */
typedef struct hl_hms_message {
  char *name;
  hl_tmsg_type_t type;
  int32_t seqid;
} hl_hms_message_t;

/* What a reply said besides its return value. */
typedef struct hl_hms_reply {
  int app_error; /* 1: an EXCEPTION message; APP holds it */
  hl_hms_app_exception_t app;
  int16_t exc_id;         /* the declared exception field set; 0: none */
  hl_hms_exception_t exc; /* its message */
} hl_hms_reply_t;

hl_status_t hl_hms_read_message(hl_hms_dec_t *d, hl_hms_message_t *out);

/* ---- calls: the client writes them, the server reads the arguments
 * after hl_hms_read_message */
void hl_hms_write_get_all_databases_call(hl_buf_t *buf, int32_t seqid);
hl_status_t hl_hms_read_get_all_databases_args(hl_hms_dec_t *d);
void hl_hms_write_get_table_call(hl_buf_t *buf, int32_t seqid, const char *dbname,
                                 const char *tbl_name);
/* Absent names stay NULL. */
hl_status_t hl_hms_read_get_table_args(hl_hms_dec_t *d, char **dbname, char **tbl_name);
void hl_hms_write_get_partition_names_call(hl_buf_t *buf, int32_t seqid, const char *db_name,
                                           const char *tbl_name, int16_t max_parts);
/* *MAX_PARTS is -1 (the IDL's default) when absent. */
hl_status_t hl_hms_read_get_partition_names_args(hl_hms_dec_t *d, char **db_name, char **tbl_name,
                                                 int16_t *max_parts);

/* ---- replies: the server writes the return value (EXC_ID 0) or the
 * declared exception EXC_ID with EXC; the client reads them, checking the
 * method name and SEQID.  A reply with neither a value nor a declared
 * exception is an error (the runtimes' MISSING_RESULT). */
void hl_hms_write_get_all_databases_reply(hl_buf_t *buf, int32_t seqid,
                                          const hl_hms_strlist_t *success, int16_t exc_id,
                                          const hl_hms_exception_t *exc);
hl_status_t hl_hms_read_get_all_databases_reply(hl_hms_dec_t *d, int32_t seqid,
                                                hl_hms_strlist_t *success, hl_hms_reply_t *rep);
void hl_hms_write_get_table_reply(hl_buf_t *buf, int32_t seqid, const hl_hms_table_t *success,
                                  int16_t exc_id, const hl_hms_exception_t *exc);
hl_status_t hl_hms_read_get_table_reply(hl_hms_dec_t *d, int32_t seqid, hl_hms_table_t *success,
                                        hl_hms_reply_t *rep);
void hl_hms_write_get_partition_names_reply(hl_buf_t *buf, int32_t seqid,
                                            const hl_hms_strlist_t *success, int16_t exc_id,
                                            const hl_hms_exception_t *exc);
hl_status_t hl_hms_read_get_partition_names_reply(hl_hms_dec_t *d, int32_t seqid,
                                                  hl_hms_strlist_t *success, hl_hms_reply_t *rep);

/* Any method's reply: field 0 of SUCCESS_TYPE read by READ_SUCCESS into
 * SUCCESS (SUCCESS_TYPE HL_TT_STOP: a void method, whose reply may hold
 * nothing), the declared exceptions in fields 1..N_EXC. */
hl_status_t hl_hms_read_reply(hl_hms_dec_t *d, const char *method, int32_t seqid,
                              hl_ttype_t success_type,
                              hl_status_t (*read_success)(hl_hms_dec_t *d, void *out),
                              void *success, int16_t n_exc, hl_hms_reply_t *rep);

/* GetTableRequest (Hive 2.3 and 4: get_table_req's argument 1): 1 dbName
 * and 2 tblName required, 4 catName optional; the other fields (3
 * capabilities, 6 validWriteIdList, 7 getColumnStats, 8-11) are skipped. */
typedef struct hl_hms_get_table_request {
  char *db_name;  /* 1 required */
  char *tbl_name; /* 2 required */
  char *cat_name; /* 4 optional */
} hl_hms_get_table_request_t;

/* GetTableResult { 1: required Table table, 2: optional bool
 * isStatsCompliant } */
typedef struct hl_hms_get_table_result {
  hl_hms_table_t *table;
  int has_is_stats_compliant, is_stats_compliant;
} hl_hms_get_table_result_t;

/* Reads get_table_req's arguments { 1: GetTableRequest req }; a missing
 * request or a request without dbName or tblName is 08P01. */
hl_status_t hl_hms_read_get_table_req_args(hl_hms_dec_t *d, hl_hms_get_table_request_t *out);
void hl_hms_write_get_table_result(hl_buf_t *buf, const hl_hms_get_table_result_t *v);

/* An EXCEPTION message for METHOD (e.g. TAPP_UNKNOWN_METHOD for a method
 * the server does not have). */
void hl_hms_write_app_exception_reply(hl_buf_t *buf, const char *method, int32_t seqid,
                                      int32_t type, const char *message);

#endif
