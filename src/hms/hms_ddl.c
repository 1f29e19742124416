/*
 * hms_ddl.c -- binary-protocol codecs of the write-method structs in
 * hms_ddl.h (EnvironmentContext, partition add/drop requests and results,
 * the lock structs), on the shared decoder helpers of hms_int.h.
 */
#include "hms/hms_ddl.h"
#include "hms/hms_int.h"

/* The end of a decoder with required fields: OK is 1 when all were seen. */
static hl_status_t required(hl_hms_dec_t *d, hl_status_t rc, int ok, const char *what) {
  if (rc || ok) return rc;
  return hl_tr_fail(&d->r, "%s lacks a required field", what);
}

static hl_status_t read_partition_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_partition(d, p);
}

hl_status_t hl_hms_read_partition_list(hl_hms_dec_t *d, hl_hms_partition_t **parts, uint32_t *n) {
  return hl_hms_read_struct_list(d, sizeof(hl_hms_partition_t), read_partition_v, (void **)parts,
                                 n);
}

hl_status_t hl_hms_read_env_context(hl_hms_dec_t *d, hl_hms_env_context_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_MAP, hl_hms_read_strmap(d, &out->properties))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_add_partitions_request(hl_hms_dec_t *d,
                                               hl_hms_add_partitions_request_t *out) {
  int s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, HAS(s1, hl_hms_read_string(d, &out->db_name)))
  FIELD(2, HL_TT_STRING, HAS(s2, hl_hms_read_string(d, &out->tbl_name)))
  FIELD(3, HL_TT_LIST, HAS(s3, hl_hms_read_partition_list(d, &out->parts, &out->n_parts)))
  FIELD(4, HL_TT_BOOL, HAS(s4, hl_tr_bool(R, &out->if_not_exists)))
  FIELD(5, HL_TT_BOOL, HAS(out->has_need_result, hl_tr_bool(R, &out->need_result)))
  FIELD(6, HL_TT_STRING, hl_hms_read_string(d, &out->cat_name))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s3 && s4, "AddPartitionsRequest");
}

hl_status_t hl_hms_read_add_partitions_result(hl_hms_dec_t *d,
                                              hl_hms_add_partitions_result_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST,
        HAS(out->has_partitions, hl_hms_read_partition_list(d, &out->parts, &out->n_parts)))
  FIELD(2, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELDS_END(d)
  return rc_;
}

/* union RequestPartsSpec: names decoded, exprs only counted. */
static hl_status_t read_parts_spec(hl_hms_dec_t *d, hl_hms_drop_partitions_request_t *o) {
  hl_ttype_t t;
  int16_t id;
  hl_status_t rc = hl_tr_enter(R);
  if (rc) return rc;
  while (!(rc = hl_tr_field(R, &t, &id)) && t != HL_TT_STOP) {
    if (id == 1 && t == HL_TT_LIST) {
      o->has_names = 1;
      rc = hl_hms_read_strlist(d, &o->names);
    } else if (id == 2 && t == HL_TT_LIST) {
      hl_ttype_t elem;
      const uint8_t *at = d->r.p;
      rc = hl_tr_list(R, &elem, &o->n_exprs);
      if (!rc) {
        d->r.p = at; /* skip the whole list from its header */
        rc = hl_tr_skip(R, HL_TT_LIST);
      }
    } else {
      rc = hl_tr_skip(R, t);
    }
    if (rc) break;
  }
  hl_tr_leave(R);
  return rc;
}

hl_status_t hl_hms_read_drop_partitions_request(hl_hms_dec_t *d,
                                                hl_hms_drop_partitions_request_t *out) {
  int s1 = 0, s2 = 0, s3 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, HAS(s1, hl_hms_read_string(d, &out->db_name)))
  FIELD(2, HL_TT_STRING, HAS(s2, hl_hms_read_string(d, &out->tbl_name)))
  FIELD(3, HL_TT_STRUCT, HAS(s3, read_parts_spec(d, out)))
  FIELD(4, HL_TT_BOOL, HAS(out->has_delete_data, hl_tr_bool(R, &out->delete_data)))
  FIELD(5, HL_TT_BOOL, HAS(out->has_if_exists, hl_tr_bool(R, &out->if_exists)))
  FIELD(6, HL_TT_BOOL, HAS(out->has_ignore_protection, hl_tr_bool(R, &out->ignore_protection)))
  FIELD(8, HL_TT_BOOL, HAS(out->has_need_result, hl_tr_bool(R, &out->need_result)))
  FIELD(9, HL_TT_STRING, hl_hms_read_string(d, &out->cat_name))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s3, "DropPartitionsRequest");
}

hl_status_t hl_hms_read_drop_partitions_result(hl_hms_dec_t *d,
                                               hl_hms_drop_partitions_result_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST,
        HAS(out->has_partitions, hl_hms_read_partition_list(d, &out->parts, &out->n_parts)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_lock_component(hl_hms_dec_t *d, hl_hms_lock_component_t *out) {
  int s1 = 0, s2 = 0, s3 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I32, HAS(s1, hl_tr_i32(R, &out->type)))
  FIELD(2, HL_TT_I32, HAS(s2, hl_tr_i32(R, &out->level)))
  FIELD(3, HL_TT_STRING, HAS(s3, hl_hms_read_string(d, &out->dbname)))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->tablename))
  FIELD(5, HL_TT_STRING, hl_hms_read_string(d, &out->partitionname))
  FIELD(6, HL_TT_I32, HAS(out->has_operation_type, hl_tr_i32(R, &out->operation_type)))
  FIELD(7, HL_TT_BOOL, HAS(out->has_is_transactional, hl_tr_bool(R, &out->is_transactional)))
  FIELD(8, HL_TT_BOOL,
        HAS(out->has_is_dynamic_partition_write, hl_tr_bool(R, &out->is_dynamic_partition_write)))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s3, "LockComponent");
}

static hl_status_t read_lock_component_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_lock_component(d, p);
}

hl_status_t hl_hms_read_lock_request(hl_hms_dec_t *d, hl_hms_lock_request_t *out) {
  int s1 = 0, s3 = 0, s4 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST,
        HAS(s1, hl_hms_read_struct_list(d, sizeof(hl_hms_lock_component_t), read_lock_component_v,
                                        (void **)&out->components, &out->n_components)))
  FIELD(2, HL_TT_I64, HAS(out->has_txnid, hl_tr_i64(R, &out->txnid)))
  FIELD(3, HL_TT_STRING, HAS(s3, hl_hms_read_string(d, &out->user)))
  FIELD(4, HL_TT_STRING, HAS(s4, hl_hms_read_string(d, &out->hostname)))
  FIELD(5, HL_TT_STRING, hl_hms_read_string(d, &out->agent_info))
  FIELDS_END(d)
  return required(d, rc_, s1 && s3 && s4, "LockRequest");
}

hl_status_t hl_hms_read_lock_response(hl_hms_dec_t *d, hl_hms_lock_response_t *out) {
  int s1 = 0, s2 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I64, HAS(s1, hl_tr_i64(R, &out->lockid)))
  FIELD(2, HL_TT_I32, HAS(s2, hl_tr_i32(R, &out->state)))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->error_message))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2, "LockResponse");
}

hl_status_t hl_hms_read_check_lock_request(hl_hms_dec_t *d, hl_hms_check_lock_request_t *out) {
  int s1 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I64, HAS(s1, hl_tr_i64(R, &out->lockid)))
  FIELD(2, HL_TT_I64, HAS(out->has_txnid, hl_tr_i64(R, &out->txnid)))
  FIELD(3, HL_TT_I64, HAS(out->has_elapsed_ms, hl_tr_i64(R, &out->elapsed_ms)))
  FIELDS_END(d)
  return required(d, rc_, s1, "CheckLockRequest");
}

hl_status_t hl_hms_read_unlock_request(hl_hms_dec_t *d, hl_hms_unlock_request_t *out) {
  int s1 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I64, HAS(s1, hl_tr_i64(R, &out->lockid)))
  FIELDS_END(d)
  return required(d, rc_, s1, "UnlockRequest");
}

hl_status_t hl_hms_read_heartbeat_request(hl_hms_dec_t *d, hl_hms_heartbeat_request_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I64, HAS(out->has_lockid, hl_tr_i64(R, &out->lockid)))
  FIELD(2, HL_TT_I64, HAS(out->has_txnid, hl_tr_i64(R, &out->txnid)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_show_locks_request(hl_hms_dec_t *d, hl_hms_show_locks_request_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->dbname))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->tablename))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->partname))
  FIELD(4, HL_TT_BOOL, HAS(out->has_is_extended, hl_tr_bool(R, &out->is_extended)))
  FIELD(5, HL_TT_I64, HAS(out->has_txnid, hl_tr_i64(R, &out->txnid)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_show_locks_element(hl_hms_dec_t *d, hl_hms_show_locks_element_t *out) {
  int s1 = 0, s2 = 0, s5 = 0, s6 = 0, s8 = 0, s10 = 0, s11 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I64, HAS(s1, hl_tr_i64(R, &out->lockid)))
  FIELD(2, HL_TT_STRING, HAS(s2, hl_hms_read_string(d, &out->dbname)))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->tablename))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->partname))
  FIELD(5, HL_TT_I32, HAS(s5, hl_tr_i32(R, &out->state)))
  FIELD(6, HL_TT_I32, HAS(s6, hl_tr_i32(R, &out->type)))
  FIELD(7, HL_TT_I64, HAS(out->has_txnid, hl_tr_i64(R, &out->txnid)))
  FIELD(8, HL_TT_I64, HAS(s8, hl_tr_i64(R, &out->lastheartbeat)))
  FIELD(9, HL_TT_I64, HAS(out->has_acquiredat, hl_tr_i64(R, &out->acquiredat)))
  FIELD(10, HL_TT_STRING, HAS(s10, hl_hms_read_string(d, &out->user)))
  FIELD(11, HL_TT_STRING, HAS(s11, hl_hms_read_string(d, &out->hostname)))
  FIELD(12, HL_TT_I32, HAS(out->has_heartbeat_count, hl_tr_i32(R, &out->heartbeat_count)))
  FIELD(13, HL_TT_STRING, hl_hms_read_string(d, &out->agent_info))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s5 && s6 && s8 && s10 && s11, "ShowLocksResponseElement");
}

static hl_status_t read_show_locks_element_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_show_locks_element(d, p);
}

hl_status_t hl_hms_read_show_locks_response(hl_hms_dec_t *d, hl_hms_show_locks_response_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST,
        hl_hms_read_struct_list(d, sizeof(hl_hms_show_locks_element_t), read_show_locks_element_v,
                                (void **)&out->locks, &out->n_locks))
  FIELDS_END(d)
  return rc_;
}

/* ---- encoders */

void hl_hms_write_partition_list(hl_buf_t *b, const hl_hms_partition_t *parts, uint32_t n) {
  hl_tw_list(b, HL_TT_STRUCT, n);
  for (uint32_t i = 0; i < n; i++)
    hl_hms_write_partition(b, &parts[i]);
}

void hl_hms_write_env_context(hl_buf_t *b, const hl_hms_env_context_t *v) {
  hl_hms_write_strmap(b, 1, &v->properties);
  hl_tw_stop(b);
}

void hl_hms_write_add_partitions_request(hl_buf_t *b, const hl_hms_add_partitions_request_t *v) {
  hl_hms_w_str(b, 1, v->db_name ? v->db_name : "");
  hl_hms_w_str(b, 2, v->tbl_name ? v->tbl_name : "");
  hl_tw_field(b, HL_TT_LIST, 3);
  hl_hms_write_partition_list(b, v->parts, v->n_parts);
  hl_hms_w_bool(b, 4, v->if_not_exists);
  if (v->has_need_result) hl_hms_w_bool(b, 5, v->need_result);
  hl_hms_w_str(b, 6, v->cat_name);
  hl_tw_stop(b);
}

void hl_hms_write_add_partitions_result(hl_buf_t *b, const hl_hms_add_partitions_result_t *v) {
  if (v->has_partitions) {
    hl_tw_field(b, HL_TT_LIST, 1);
    hl_hms_write_partition_list(b, v->parts, v->n_parts);
  }
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 2, v->is_stats_compliant);
  hl_tw_stop(b);
}

void hl_hms_write_drop_partitions_request(hl_buf_t *b, const hl_hms_drop_partitions_request_t *v) {
  hl_hms_w_str(b, 1, v->db_name ? v->db_name : "");
  hl_hms_w_str(b, 2, v->tbl_name ? v->tbl_name : "");
  hl_tw_field(b, HL_TT_STRUCT, 3);
  if (v->has_names) { /* exprs are never written: hivelite has none to send */
    hl_tw_field(b, HL_TT_LIST, 1);
    hl_hms_write_strlist(b, &v->names);
  }
  hl_tw_stop(b);
  if (v->has_delete_data) hl_hms_w_bool(b, 4, v->delete_data);
  if (v->has_if_exists) hl_hms_w_bool(b, 5, v->if_exists);
  if (v->has_ignore_protection) hl_hms_w_bool(b, 6, v->ignore_protection);
  if (v->has_need_result) hl_hms_w_bool(b, 8, v->need_result);
  hl_hms_w_str(b, 9, v->cat_name);
  hl_tw_stop(b);
}

void hl_hms_write_drop_partitions_result(hl_buf_t *b, const hl_hms_drop_partitions_result_t *v) {
  if (v->has_partitions) {
    hl_tw_field(b, HL_TT_LIST, 1);
    hl_hms_write_partition_list(b, v->parts, v->n_parts);
  }
  hl_tw_stop(b);
}

void hl_hms_write_lock_component(hl_buf_t *b, const hl_hms_lock_component_t *v) {
  hl_hms_w_i32(b, 1, v->type);
  hl_hms_w_i32(b, 2, v->level);
  hl_hms_w_str(b, 3, v->dbname ? v->dbname : "");
  hl_hms_w_str(b, 4, v->tablename);
  hl_hms_w_str(b, 5, v->partitionname);
  if (v->has_operation_type) hl_hms_w_i32(b, 6, v->operation_type);
  if (v->has_is_transactional) hl_hms_w_bool(b, 7, v->is_transactional);
  if (v->has_is_dynamic_partition_write) hl_hms_w_bool(b, 8, v->is_dynamic_partition_write);
  hl_tw_stop(b);
}

void hl_hms_write_lock_request(hl_buf_t *b, const hl_hms_lock_request_t *v) {
  hl_tw_field(b, HL_TT_LIST, 1);
  hl_tw_list(b, HL_TT_STRUCT, v->n_components);
  for (uint32_t i = 0; i < v->n_components; i++)
    hl_hms_write_lock_component(b, &v->components[i]);
  if (v->has_txnid) hl_hms_w_i64(b, 2, v->txnid);
  hl_hms_w_str(b, 3, v->user ? v->user : "");
  hl_hms_w_str(b, 4, v->hostname ? v->hostname : "");
  hl_hms_w_str(b, 5, v->agent_info);
  hl_tw_stop(b);
}

void hl_hms_write_lock_response(hl_buf_t *b, const hl_hms_lock_response_t *v) {
  hl_hms_w_i64(b, 1, v->lockid);
  hl_hms_w_i32(b, 2, v->state);
  hl_hms_w_str(b, 3, v->error_message);
  hl_tw_stop(b);
}

void hl_hms_write_check_lock_request(hl_buf_t *b, const hl_hms_check_lock_request_t *v) {
  hl_hms_w_i64(b, 1, v->lockid);
  if (v->has_txnid) hl_hms_w_i64(b, 2, v->txnid);
  if (v->has_elapsed_ms) hl_hms_w_i64(b, 3, v->elapsed_ms);
  hl_tw_stop(b);
}

void hl_hms_write_unlock_request(hl_buf_t *b, const hl_hms_unlock_request_t *v) {
  hl_hms_w_i64(b, 1, v->lockid);
  hl_tw_stop(b);
}

void hl_hms_write_heartbeat_request(hl_buf_t *b, const hl_hms_heartbeat_request_t *v) {
  if (v->has_lockid) hl_hms_w_i64(b, 1, v->lockid);
  if (v->has_txnid) hl_hms_w_i64(b, 2, v->txnid);
  hl_tw_stop(b);
}

void hl_hms_write_show_locks_request(hl_buf_t *b, const hl_hms_show_locks_request_t *v) {
  hl_hms_w_str(b, 1, v->dbname);
  hl_hms_w_str(b, 2, v->tablename);
  hl_hms_w_str(b, 3, v->partname);
  if (v->has_is_extended) hl_hms_w_bool(b, 4, v->is_extended);
  if (v->has_txnid) hl_hms_w_i64(b, 5, v->txnid);
  hl_tw_stop(b);
}

void hl_hms_write_show_locks_element(hl_buf_t *b, const hl_hms_show_locks_element_t *v) {
  hl_hms_w_i64(b, 1, v->lockid);
  hl_hms_w_str(b, 2, v->dbname ? v->dbname : "");
  hl_hms_w_str(b, 3, v->tablename);
  hl_hms_w_str(b, 4, v->partname);
  hl_hms_w_i32(b, 5, v->state);
  hl_hms_w_i32(b, 6, v->type);
  if (v->has_txnid) hl_hms_w_i64(b, 7, v->txnid);
  hl_hms_w_i64(b, 8, v->lastheartbeat);
  if (v->has_acquiredat) hl_hms_w_i64(b, 9, v->acquiredat);
  hl_hms_w_str(b, 10, v->user ? v->user : "");
  hl_hms_w_str(b, 11, v->hostname ? v->hostname : "");
  if (v->has_heartbeat_count) hl_hms_w_i32(b, 12, v->heartbeat_count);
  hl_hms_w_str(b, 13, v->agent_info);
  hl_tw_stop(b);
}

void hl_hms_write_show_locks_response(hl_buf_t *b, const hl_hms_show_locks_response_t *v) {
  hl_tw_field(b, HL_TT_LIST, 1);
  hl_tw_list(b, HL_TT_STRUCT, v->n_locks);
  for (uint32_t i = 0; i < v->n_locks; i++)
    hl_hms_write_show_locks_element(b, &v->locks[i]);
  hl_tw_stop(b);
}

/* ---- column statistics */

static hl_status_t read_bytes(hl_hms_dec_t *d, uint8_t **out, uint32_t *n) {
  const uint8_t *p;
  size_t len;
  void *mem;
  hl_status_t rc = hl_tr_binary(&d->r, &p, &len);
  if (!rc) rc = hl_hms_dalloc(d, len, &mem);
  if (rc) return rc;
  if (len) memcpy(mem, p, len);
  *out = mem;
  *n = (uint32_t)len;
  return HL_OK;
}

static hl_status_t read_decimal(hl_hms_dec_t *d, hl_hms_decimal_t *out) {
  int s1 = 0, s3 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, HAS(s1, read_bytes(d, &out->unscaled, &out->len)))
  FIELD(3, HL_TT_I16, HAS(s3, hl_tr_i16(R, &out->scale)))
  FIELDS_END(d)
  return required(d, rc_, s1 && s3, "Decimal");
}

/* Date { 1: i64 daysSinceEpoch } and Timestamp { 1: i64
 * secondsSinceEpoch } */
static hl_status_t read_i64_struct(hl_hms_dec_t *d, int64_t *v, const char *what) {
  int s1 = 0;
  struct {
    int64_t v;
  } o, *out = &o;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_I64, HAS(s1, hl_tr_i64(R, &out->v)))
  FIELDS_END(d)
  *v = o.v;
  return required(d, rc_, s1, what);
}

/* One member of ColumnStatisticsData, of kind KIND. */
static hl_status_t read_stats_kind(hl_hms_dec_t *d, int kind, hl_hms_stats_data_t *o) {
  hl_ttype_t t;
  int16_t id;
  unsigned seen = 0;
  int ranged =
      kind != HL_HMS_STATS_BOOLEAN && kind != HL_HMS_STATS_STRING && kind != HL_HMS_STATS_BINARY;
  hl_status_t rc = hl_tr_enter(R);
  if (rc) return rc;
  o->kind = kind;
  while (!(rc = hl_tr_field(R, &t, &id)) && t != HL_TT_STOP) {
    int done = 1;
    if (ranged && (id == 1 || id == 2)) {
      int64_t *iv = id == 1 ? &o->low_i : &o->high_i;
      if (kind == HL_HMS_STATS_LONG && t == HL_TT_I64)
        rc = hl_tr_i64(R, iv);
      else if (kind == HL_HMS_STATS_DOUBLE && t == HL_TT_DOUBLE)
        rc = hl_tr_double(R, id == 1 ? &o->low_d : &o->high_d);
      else if (kind == HL_HMS_STATS_DECIMAL && t == HL_TT_STRUCT)
        rc = read_decimal(d, id == 1 ? &o->low_dec : &o->high_dec);
      else if ((kind == HL_HMS_STATS_DATE || kind == HL_HMS_STATS_TIMESTAMP) && t == HL_TT_STRUCT)
        rc = read_i64_struct(d, iv, kind == HL_HMS_STATS_DATE ? "Date" : "Timestamp");
      else
        done = 0;
      if (done) *(id == 1 ? &o->has_low : &o->has_high) = 1;
    } else if (kind == HL_HMS_STATS_BOOLEAN && id <= 3 && t == HL_TT_I64) {
      rc = hl_tr_i64(R, id == 1 ? &o->num_trues : id == 2 ? &o->num_falses : &o->num_nulls);
    } else if (kind == HL_HMS_STATS_BOOLEAN && id == 4 && t == HL_TT_STRING) {
      o->has_bit_vectors = 1;
      rc = read_bytes(d, &o->bit_vectors, &o->n_bit_vectors);
    } else if ((kind == HL_HMS_STATS_STRING || kind == HL_HMS_STATS_BINARY) && id == 1 &&
               t == HL_TT_I64) {
      rc = hl_tr_i64(R, &o->max_col_len);
    } else if ((kind == HL_HMS_STATS_STRING || kind == HL_HMS_STATS_BINARY) && id == 2 &&
               t == HL_TT_DOUBLE) {
      rc = hl_tr_double(R, &o->avg_col_len);
    } else if (kind != HL_HMS_STATS_BOOLEAN && id == 3 && t == HL_TT_I64) {
      rc = hl_tr_i64(R, &o->num_nulls);
    } else if (kind != HL_HMS_STATS_BOOLEAN && kind != HL_HMS_STATS_BINARY && id == 4 &&
               t == HL_TT_I64) {
      rc = hl_tr_i64(R, &o->num_dvs);
    } else if (((kind == HL_HMS_STATS_BINARY && id == 4) ||
                (kind != HL_HMS_STATS_BINARY && kind != HL_HMS_STATS_BOOLEAN && id == 5)) &&
               t == HL_TT_STRING) {
      o->has_bit_vectors = 1;
      rc = read_bytes(d, &o->bit_vectors, &o->n_bit_vectors);
    } else if (ranged && id == 6 && t == HL_TT_STRING) {
      o->has_histogram = 1;
      rc = read_bytes(d, &o->histogram, &o->n_histogram);
    } else {
      done = 0;
    }
    if (!done)
      rc = hl_tr_skip(R, t);
    else if (id >= 1 && id <= 4)
      seen |= 1u << id;
    if (rc) break;
  }
  hl_tr_leave(R);
  /* required: BOOLEAN 1-3, STRING 1-4, BINARY 1-3, the others 3-4 */
  unsigned need = kind == HL_HMS_STATS_BOOLEAN  ? 0xe
                  : kind == HL_HMS_STATS_STRING ? 0x1e
                  : kind == HL_HMS_STATS_BINARY ? 0xe
                                                : 0x18;
  return required(d, rc, (seen & need) == need, "column statistics data");
}

static hl_status_t read_stats_data(hl_hms_dec_t *d, hl_hms_stats_data_t *o) {
  hl_ttype_t t;
  int16_t id;
  memset(o, 0, sizeof *o);
  hl_status_t rc = hl_tr_enter(R);
  if (rc) return rc;
  while (!(rc = hl_tr_field(R, &t, &id)) && t != HL_TT_STOP) {
    if (id >= 1 && id <= 8 && t == HL_TT_STRUCT && !o->kind)
      rc = read_stats_kind(d, id, o);
    else
      rc = hl_tr_skip(R, t);
    if (rc) break;
  }
  hl_tr_leave(R);
  if (!rc && !o->kind) rc = hl_tr_fail(R, "ColumnStatisticsData holds no statistics");
  return rc;
}

hl_status_t hl_hms_read_stats_obj(hl_hms_dec_t *d, hl_hms_stats_obj_t *out) {
  int s1 = 0, s2 = 0, s3 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, HAS(s1, hl_hms_read_string(d, &out->col_name)))
  FIELD(2, HL_TT_STRING, HAS(s2, hl_hms_read_string(d, &out->col_type)))
  FIELD(3, HL_TT_STRUCT, HAS(s3, read_stats_data(d, &out->data)))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s3, "ColumnStatisticsObj");
}

static hl_status_t read_stats_obj_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_stats_obj(d, p);
}

static hl_status_t read_stats_objs(hl_hms_dec_t *d, hl_hms_stats_obj_t **objs, uint32_t *n) {
  return hl_hms_read_struct_list(d, sizeof(hl_hms_stats_obj_t), read_stats_obj_v, (void **)objs, n);
}

static hl_status_t read_stats_desc(hl_hms_dec_t *d, hl_hms_stats_desc_t *out) {
  int s1 = 0, s2 = 0, s3 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_BOOL, HAS(s1, hl_tr_bool(R, &out->is_tbl_level)))
  FIELD(2, HL_TT_STRING, HAS(s2, hl_hms_read_string(d, &out->db_name)))
  FIELD(3, HL_TT_STRING, HAS(s3, hl_hms_read_string(d, &out->table_name)))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->part_name))
  FIELD(5, HL_TT_I64, HAS(out->has_last_analyzed, hl_tr_i64(R, &out->last_analyzed)))
  FIELD(6, HL_TT_STRING, hl_hms_read_string(d, &out->cat_name))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s3, "ColumnStatisticsDesc");
}

hl_status_t hl_hms_read_col_stats(hl_hms_dec_t *d, hl_hms_col_stats_t *out) {
  int s1 = 0, s2 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRUCT, HAS(s1, read_stats_desc(d, &out->desc)))
  FIELD(2, HL_TT_LIST, HAS(s2, read_stats_objs(d, &out->objs, &out->n_objs)))
  FIELD(3, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->engine))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2, "ColumnStatistics");
}

static hl_status_t read_col_stats_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_col_stats(d, p);
}

hl_status_t hl_hms_read_set_stats_request(hl_hms_dec_t *d, hl_hms_set_stats_request_t *out) {
  int s1 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST,
        HAS(s1, hl_hms_read_struct_list(d, sizeof(hl_hms_col_stats_t), read_col_stats_v,
                                        (void **)&out->col_stats, &out->n_col_stats)))
  FIELD(2, HL_TT_BOOL, HAS(out->has_need_merge, hl_tr_bool(R, &out->need_merge)))
  FIELD(3, HL_TT_I64, HAS(out->has_write_id, hl_tr_i64(R, &out->write_id)))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->valid_write_id_list))
  FIELD(5, HL_TT_STRING, hl_hms_read_string(d, &out->engine))
  FIELDS_END(d)
  return required(d, rc_, s1, "SetPartitionsStatsRequest");
}

hl_status_t hl_hms_read_set_stats_response(hl_hms_dec_t *d, hl_hms_set_stats_response_t *out) {
  int s1 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_BOOL, HAS(s1, hl_tr_bool(R, &out->result)))
  FIELDS_END(d)
  return required(d, rc_, s1, "SetPartitionsStatsResponse");
}

hl_status_t hl_hms_read_stats_request(hl_hms_dec_t *d, int parts, hl_hms_stats_request_t *out) {
  int s1 = 0, s2 = 0, s3 = 0, s4 = !parts;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, HAS(s1, hl_hms_read_string(d, &out->db_name)))
  FIELD(2, HL_TT_STRING, HAS(s2, hl_hms_read_string(d, &out->tbl_name)))
  FIELD(3, HL_TT_LIST, HAS(s3, hl_hms_read_strlist(d, &out->col_names)))
case 4:
  if (parts && ft_ == HL_TT_LIST) {
    rc_ = HAS(s4, hl_hms_read_strlist(d, &out->part_names));
    goto next_;
  }
  if (!parts && ft_ == HL_TT_STRING) {
    rc_ = hl_hms_read_string(d, &out->cat_name);
    goto next_;
  }
  break;
case 5:
  if (parts && ft_ == HL_TT_STRING) {
    rc_ = hl_hms_read_string(d, &out->cat_name);
    goto next_;
  }
  break;
case 6:
  if (!parts && ft_ == HL_TT_STRING) {
    rc_ = hl_hms_read_string(d, &out->engine);
    goto next_;
  }
  break;
case 7:
  if (parts && ft_ == HL_TT_STRING) {
    rc_ = hl_hms_read_string(d, &out->engine);
    goto next_;
  }
  break;
  FIELDS_END(d)
  return required(d, rc_, s1 && s2 && s3 && s4,
                  parts ? "PartitionsStatsRequest" : "TableStatsRequest");
}

hl_status_t hl_hms_read_table_stats_result(hl_hms_dec_t *d, hl_hms_table_stats_result_t *out) {
  int s1 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST, HAS(s1, read_stats_objs(d, &out->objs, &out->n_objs)))
  FIELD(2, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELDS_END(d)
  return required(d, rc_, s1, "TableStatsResult");
}

static hl_status_t read_part_stats_map(hl_hms_dec_t *d, hl_hms_partitions_stats_result_t *o) {
  hl_ttype_t k, v;
  void *items;
  hl_status_t rc = hl_tr_map(R, &k, &v, &o->n_parts);
  if (!rc && o->n_parts && (k != HL_TT_STRING || v != HL_TT_LIST))
    rc = hl_tr_fail(R, "partStats is not a map<string, list>");
  if (!rc) rc = hl_hms_dalloc(d, (size_t)o->n_parts * sizeof(hl_hms_part_stats_t), &items);
  if (rc) return rc;
  o->parts = items;
  for (uint32_t i = 0; i < o->n_parts && !rc; i++) {
    rc = hl_hms_read_string(d, &o->parts[i].part_name);
    if (!rc) rc = read_stats_objs(d, &o->parts[i].objs, &o->parts[i].n_objs);
  }
  return rc;
}

hl_status_t hl_hms_read_partitions_stats_result(hl_hms_dec_t *d,
                                                hl_hms_partitions_stats_result_t *out) {
  int s1 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_MAP, HAS(s1, read_part_stats_map(d, out)))
  FIELD(2, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELDS_END(d)
  return required(d, rc_, s1, "PartitionsStatsResult");
}

hl_status_t hl_hms_read_aggr_stats(hl_hms_dec_t *d, hl_hms_aggr_stats_t *out) {
  int s1 = 0, s2 = 0;
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST, HAS(s1, read_stats_objs(d, &out->objs, &out->n_objs)))
  FIELD(2, HL_TT_I64, HAS(s2, hl_tr_i64(R, &out->parts_found)))
  FIELD(3, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELDS_END(d)
  return required(d, rc_, s1 && s2, "AggrStats");
}

static void w_bytes(hl_buf_t *b, int16_t id, const uint8_t *p, uint32_t n) {
  hl_tw_field(b, HL_TT_STRING, id);
  hl_tw_binary(b, p, n);
}

static void w_decimal(hl_buf_t *b, int16_t id, const hl_hms_decimal_t *v) {
  hl_tw_field(b, HL_TT_STRUCT, id);
  w_bytes(b, 1, v->unscaled, v->len);
  hl_tw_field(b, HL_TT_I16, 3);
  hl_tw_i16(b, v->scale);
  hl_tw_stop(b);
}

static void w_i64_struct(hl_buf_t *b, int16_t id, int64_t v) {
  hl_tw_field(b, HL_TT_STRUCT, id);
  hl_hms_w_i64(b, 1, v);
  hl_tw_stop(b);
}

static void write_stats_data(hl_buf_t *b, const hl_hms_stats_data_t *o) {
  int k = o->kind;
  hl_tw_field(b, HL_TT_STRUCT, (int16_t)k);
  if (k == HL_HMS_STATS_BOOLEAN) {
    hl_hms_w_i64(b, 1, o->num_trues);
    hl_hms_w_i64(b, 2, o->num_falses);
    hl_hms_w_i64(b, 3, o->num_nulls);
    if (o->has_bit_vectors) w_bytes(b, 4, o->bit_vectors, o->n_bit_vectors);
  } else if (k == HL_HMS_STATS_STRING || k == HL_HMS_STATS_BINARY) {
    hl_hms_w_i64(b, 1, o->max_col_len);
    hl_tw_field(b, HL_TT_DOUBLE, 2);
    hl_tw_double(b, o->avg_col_len);
    hl_hms_w_i64(b, 3, o->num_nulls);
    if (k == HL_HMS_STATS_STRING) hl_hms_w_i64(b, 4, o->num_dvs);
    if (o->has_bit_vectors)
      w_bytes(b, k == HL_HMS_STATS_STRING ? 5 : 4, o->bit_vectors, o->n_bit_vectors);
  } else {
    for (int16_t id = 1; id <= 2; id++) {
      if (!(id == 1 ? o->has_low : o->has_high)) continue;
      int64_t iv = id == 1 ? o->low_i : o->high_i;
      if (k == HL_HMS_STATS_LONG) {
        hl_hms_w_i64(b, id, iv);
      } else if (k == HL_HMS_STATS_DOUBLE) {
        hl_tw_field(b, HL_TT_DOUBLE, id);
        hl_tw_double(b, id == 1 ? o->low_d : o->high_d);
      } else if (k == HL_HMS_STATS_DECIMAL) {
        w_decimal(b, id, id == 1 ? &o->low_dec : &o->high_dec);
      } else {
        w_i64_struct(b, id, iv);
      }
    }
    hl_hms_w_i64(b, 3, o->num_nulls);
    hl_hms_w_i64(b, 4, o->num_dvs);
    if (o->has_bit_vectors) w_bytes(b, 5, o->bit_vectors, o->n_bit_vectors);
    if (o->has_histogram) w_bytes(b, 6, o->histogram, o->n_histogram);
  }
  hl_tw_stop(b); /* the member */
}

void hl_hms_write_stats_obj(hl_buf_t *b, const hl_hms_stats_obj_t *v) {
  hl_hms_w_str(b, 1, v->col_name ? v->col_name : "");
  hl_hms_w_str(b, 2, v->col_type ? v->col_type : "");
  hl_tw_field(b, HL_TT_STRUCT, 3);
  if (v->data.kind >= 1 && v->data.kind <= 8) write_stats_data(b, &v->data);
  hl_tw_stop(b); /* the union */
  hl_tw_stop(b);
}

static void w_stats_objs(hl_buf_t *b, int16_t id, const hl_hms_stats_obj_t *objs, uint32_t n) {
  hl_tw_field(b, HL_TT_LIST, id);
  hl_tw_list(b, HL_TT_STRUCT, n);
  for (uint32_t i = 0; i < n; i++)
    hl_hms_write_stats_obj(b, &objs[i]);
}

void hl_hms_write_col_stats(hl_buf_t *b, const hl_hms_col_stats_t *v) {
  hl_tw_field(b, HL_TT_STRUCT, 1);
  hl_hms_w_bool(b, 1, v->desc.is_tbl_level);
  hl_hms_w_str(b, 2, v->desc.db_name ? v->desc.db_name : "");
  hl_hms_w_str(b, 3, v->desc.table_name ? v->desc.table_name : "");
  hl_hms_w_str(b, 4, v->desc.part_name);
  if (v->desc.has_last_analyzed) hl_hms_w_i64(b, 5, v->desc.last_analyzed);
  hl_hms_w_str(b, 6, v->desc.cat_name);
  hl_tw_stop(b);
  w_stats_objs(b, 2, v->objs, v->n_objs);
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 3, v->is_stats_compliant);
  hl_hms_w_str(b, 4, v->engine);
  hl_tw_stop(b);
}

void hl_hms_write_set_stats_request(hl_buf_t *b, const hl_hms_set_stats_request_t *v) {
  hl_tw_field(b, HL_TT_LIST, 1);
  hl_tw_list(b, HL_TT_STRUCT, v->n_col_stats);
  for (uint32_t i = 0; i < v->n_col_stats; i++)
    hl_hms_write_col_stats(b, &v->col_stats[i]);
  if (v->has_need_merge) hl_hms_w_bool(b, 2, v->need_merge);
  if (v->has_write_id) hl_hms_w_i64(b, 3, v->write_id);
  hl_hms_w_str(b, 4, v->valid_write_id_list);
  hl_hms_w_str(b, 5, v->engine);
  hl_tw_stop(b);
}

void hl_hms_write_set_stats_response(hl_buf_t *b, const hl_hms_set_stats_response_t *v) {
  hl_hms_w_bool(b, 1, v->result);
  hl_tw_stop(b);
}

void hl_hms_write_stats_request(hl_buf_t *b, int parts, const hl_hms_stats_request_t *v) {
  hl_hms_w_str(b, 1, v->db_name ? v->db_name : "");
  hl_hms_w_str(b, 2, v->tbl_name ? v->tbl_name : "");
  hl_hms_w_strlist(b, 3, &v->col_names);
  if (parts) hl_hms_w_strlist(b, 4, &v->part_names);
  hl_hms_w_str(b, parts ? 5 : 4, v->cat_name);
  hl_hms_w_str(b, parts ? 7 : 6, v->engine);
  hl_tw_stop(b);
}

void hl_hms_write_table_stats_result(hl_buf_t *b, const hl_hms_table_stats_result_t *v) {
  w_stats_objs(b, 1, v->objs, v->n_objs);
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 2, v->is_stats_compliant);
  hl_tw_stop(b);
}

void hl_hms_write_partitions_stats_result(hl_buf_t *b, const hl_hms_partitions_stats_result_t *v) {
  hl_tw_field(b, HL_TT_MAP, 1);
  hl_tw_map(b, HL_TT_STRING, HL_TT_LIST, v->n_parts);
  for (uint32_t i = 0; i < v->n_parts; i++) {
    hl_tw_string(b, v->parts[i].part_name);
    hl_tw_list(b, HL_TT_STRUCT, v->parts[i].n_objs);
    for (uint32_t j = 0; j < v->parts[i].n_objs; j++)
      hl_hms_write_stats_obj(b, &v->parts[i].objs[j]);
  }
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 2, v->is_stats_compliant);
  hl_tw_stop(b);
}

void hl_hms_write_aggr_stats(hl_buf_t *b, const hl_hms_aggr_stats_t *v) {
  w_stats_objs(b, 1, v->objs, v->n_objs);
  hl_hms_w_i64(b, 2, v->parts_found);
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 3, v->is_stats_compliant);
  hl_tw_stop(b);
}
