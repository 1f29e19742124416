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
        HAS(out->has_is_dynamic_partition_write,
            hl_tr_bool(R, &out->is_dynamic_partition_write)))
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

static void w_str(hl_buf_t *b, int16_t id, const char *s) {
  if (!s) return;
  hl_tw_field(b, HL_TT_STRING, id);
  hl_tw_string(b, s);
}

static void w_i32(hl_buf_t *b, int16_t id, int32_t v) {
  hl_tw_field(b, HL_TT_I32, id);
  hl_tw_i32(b, v);
}

static void w_i64(hl_buf_t *b, int16_t id, int64_t v) {
  hl_tw_field(b, HL_TT_I64, id);
  hl_tw_i64(b, v);
}

static void w_bool(hl_buf_t *b, int16_t id, int v) {
  hl_tw_field(b, HL_TT_BOOL, id);
  hl_tw_bool(b, v);
}

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
  w_str(b, 1, v->db_name ? v->db_name : "");
  w_str(b, 2, v->tbl_name ? v->tbl_name : "");
  hl_tw_field(b, HL_TT_LIST, 3);
  hl_hms_write_partition_list(b, v->parts, v->n_parts);
  w_bool(b, 4, v->if_not_exists);
  if (v->has_need_result) w_bool(b, 5, v->need_result);
  w_str(b, 6, v->cat_name);
  hl_tw_stop(b);
}

void hl_hms_write_add_partitions_result(hl_buf_t *b, const hl_hms_add_partitions_result_t *v) {
  if (v->has_partitions) {
    hl_tw_field(b, HL_TT_LIST, 1);
    hl_hms_write_partition_list(b, v->parts, v->n_parts);
  }
  if (v->has_is_stats_compliant) w_bool(b, 2, v->is_stats_compliant);
  hl_tw_stop(b);
}

void hl_hms_write_drop_partitions_request(hl_buf_t *b,
                                          const hl_hms_drop_partitions_request_t *v) {
  w_str(b, 1, v->db_name ? v->db_name : "");
  w_str(b, 2, v->tbl_name ? v->tbl_name : "");
  hl_tw_field(b, HL_TT_STRUCT, 3);
  if (v->has_names) { /* exprs are never written: hivelite has none to send */
    hl_tw_field(b, HL_TT_LIST, 1);
    hl_hms_write_strlist(b, &v->names);
  }
  hl_tw_stop(b);
  if (v->has_delete_data) w_bool(b, 4, v->delete_data);
  if (v->has_if_exists) w_bool(b, 5, v->if_exists);
  if (v->has_ignore_protection) w_bool(b, 6, v->ignore_protection);
  if (v->has_need_result) w_bool(b, 8, v->need_result);
  w_str(b, 9, v->cat_name);
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
  w_i32(b, 1, v->type);
  w_i32(b, 2, v->level);
  w_str(b, 3, v->dbname ? v->dbname : "");
  w_str(b, 4, v->tablename);
  w_str(b, 5, v->partitionname);
  if (v->has_operation_type) w_i32(b, 6, v->operation_type);
  if (v->has_is_transactional) w_bool(b, 7, v->is_transactional);
  if (v->has_is_dynamic_partition_write) w_bool(b, 8, v->is_dynamic_partition_write);
  hl_tw_stop(b);
}

void hl_hms_write_lock_request(hl_buf_t *b, const hl_hms_lock_request_t *v) {
  hl_tw_field(b, HL_TT_LIST, 1);
  hl_tw_list(b, HL_TT_STRUCT, v->n_components);
  for (uint32_t i = 0; i < v->n_components; i++)
    hl_hms_write_lock_component(b, &v->components[i]);
  if (v->has_txnid) w_i64(b, 2, v->txnid);
  w_str(b, 3, v->user ? v->user : "");
  w_str(b, 4, v->hostname ? v->hostname : "");
  w_str(b, 5, v->agent_info);
  hl_tw_stop(b);
}

void hl_hms_write_lock_response(hl_buf_t *b, const hl_hms_lock_response_t *v) {
  w_i64(b, 1, v->lockid);
  w_i32(b, 2, v->state);
  w_str(b, 3, v->error_message);
  hl_tw_stop(b);
}

void hl_hms_write_check_lock_request(hl_buf_t *b, const hl_hms_check_lock_request_t *v) {
  w_i64(b, 1, v->lockid);
  if (v->has_txnid) w_i64(b, 2, v->txnid);
  if (v->has_elapsed_ms) w_i64(b, 3, v->elapsed_ms);
  hl_tw_stop(b);
}

void hl_hms_write_unlock_request(hl_buf_t *b, const hl_hms_unlock_request_t *v) {
  w_i64(b, 1, v->lockid);
  hl_tw_stop(b);
}

void hl_hms_write_heartbeat_request(hl_buf_t *b, const hl_hms_heartbeat_request_t *v) {
  if (v->has_lockid) w_i64(b, 1, v->lockid);
  if (v->has_txnid) w_i64(b, 2, v->txnid);
  hl_tw_stop(b);
}

void hl_hms_write_show_locks_request(hl_buf_t *b, const hl_hms_show_locks_request_t *v) {
  w_str(b, 1, v->dbname);
  w_str(b, 2, v->tablename);
  w_str(b, 3, v->partname);
  if (v->has_is_extended) w_bool(b, 4, v->is_extended);
  if (v->has_txnid) w_i64(b, 5, v->txnid);
  hl_tw_stop(b);
}

void hl_hms_write_show_locks_element(hl_buf_t *b, const hl_hms_show_locks_element_t *v) {
  w_i64(b, 1, v->lockid);
  w_str(b, 2, v->dbname ? v->dbname : "");
  w_str(b, 3, v->tablename);
  w_str(b, 4, v->partname);
  w_i32(b, 5, v->state);
  w_i32(b, 6, v->type);
  if (v->has_txnid) w_i64(b, 7, v->txnid);
  w_i64(b, 8, v->lastheartbeat);
  if (v->has_acquiredat) w_i64(b, 9, v->acquiredat);
  w_str(b, 10, v->user ? v->user : "");
  w_str(b, 11, v->hostname ? v->hostname : "");
  if (v->has_heartbeat_count) w_i32(b, 12, v->heartbeat_count);
  w_str(b, 13, v->agent_info);
  hl_tw_stop(b);
}

void hl_hms_write_show_locks_response(hl_buf_t *b, const hl_hms_show_locks_response_t *v) {
  hl_tw_field(b, HL_TT_LIST, 1);
  hl_tw_list(b, HL_TT_STRUCT, v->n_locks);
  for (uint32_t i = 0; i < v->n_locks; i++)
    hl_hms_write_show_locks_element(b, &v->locks[i]);
  hl_tw_stop(b);
}
