/*
 * hms_write.h -- what the write-method files of the server share
 * (hms_write.c: DDL and partitions; hms_stats.c: statistics; hms_lock.c's
 * method handlers): one
 * call's context, the reply helpers, and the dispatchers hl_hms_handle
 * calls before the read methods.
 */
#ifndef HL_HMS_WRITE_H
#define HL_HMS_WRITE_H

#include "hms/hms_ddl.h"
#include "hms_server/hms_lock.h"
#include "hms_server/hms_server.h"
#include "storage/stor.h"

typedef struct hl_hms_wcall {
  hl_cat_t *cat;
  const hl_hms_env_t *env; /* the connection's file system, the shared locks */
  hl_arena_t *arena;
  hl_buf_t *out;
  const char *method;
  int32_t seqid;
} hl_hms_wcall_t;

/* A REPLY message header for the call. */
void hl_hms_wreply_begin(hl_hms_wcall_t *c);
/* The whole reply of a void method. */
void hl_hms_wreply_void(hl_hms_wcall_t *c);
/* The whole reply: declared exception EXC_ID with MESSAGE. */
void hl_hms_wreply_exception(hl_hms_wcall_t *c, int16_t exc_id, const char *message);

/* The outcome of a method's step besides HL_OK: the declared exception
 * EXC_ID to answer, with the message in E (the dispatchers write it). */
typedef struct hl_hms_outcome {
  int16_t exc_id;
  hl_error_t e;
} hl_hms_outcome_t;

/* Sets O's exception id to ID; returns HL_ERROR. */
hl_status_t hl_hms_wfail(hl_hms_outcome_t *o, int16_t id);
/* Table RAW_DB.TBL ("@hive#db" accepted); NULL with O set: NOSUCH when
 * it (or its database) is missing, META on other trouble. */
hl_cat_table_t *hl_hms_wtable(hl_hms_wcall_t *c, const char *raw_db, const char *tbl,
                              int16_t nosuch, int16_t meta, hl_hms_outcome_t *o);

/* When C->method is one of the write methods (hms_write.c) or the lock
 * methods (hms_lock_methods in hms_lock.c), reads its arguments from D,
 * runs it and writes the reply; *HANDLED says whether it was.  An error
 * return means the connection ends (bytes that are not the call, OOM). */
hl_status_t hl_hms_write_dispatch(hl_hms_wcall_t *c, hl_hms_dec_t *d, int *handled,
                                  hl_error_t *err);
hl_status_t hl_hms_lock_dispatch(hl_hms_wcall_t *c, hl_hms_dec_t *d, int *handled, hl_error_t *err);
/* The same for the statistics methods (hms_stats.c). */
hl_status_t hl_hms_stats_dispatch(hl_hms_wcall_t *c, hl_hms_dec_t *d, int *handled,
                                  hl_error_t *err);

#endif
