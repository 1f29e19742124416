/*
 * hms_call.c -- calls and replies of get_all_databases, get_table and
 * get_partition_names (see hms_call.h).
 */
#include "hms/hms_call.h"

#include <string.h>

hl_status_t hl_hms_read_message(hl_hms_dec_t *d, hl_hms_message_t *out) {
  const uint8_t *name;
  size_t len;
  hl_status_t rc = hl_tr_message(&d->r, &name, &len, &out->type, &out->seqid);
  if (rc) return rc;
  /* the name is re-read as a string to copy it (and reject a NUL in it) */
  hl_treader_t saved = d->r;
  d->r.p = name - 4;
  rc = hl_hms_read_string(d, &out->name);
  saved.depth = d->r.depth;
  d->r = saved;
  return rc;
}

/* Reads an argument or result struct: FIELD(d, id, type, ctx) handles a
 * field it knows (returns 1 when it did, storing its status in *rc). */
typedef int (*field_fn)(hl_hms_dec_t *d, int16_t id, hl_ttype_t type, void *ctx, hl_status_t *rc);

static hl_status_t read_struct(hl_hms_dec_t *d, field_fn field, void *ctx) {
  hl_ttype_t t;
  int16_t id;
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    if (!field || !field(d, id, t, ctx, &rc)) rc = hl_tr_skip(&d->r, t);
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  return rc;
}

static void write_call_header(hl_buf_t *buf, const char *method, int32_t seqid) {
  hl_tw_message(buf, method, HL_TMSG_CALL, seqid);
}

/* ---- arguments */

typedef struct names_args {
  char **db, **tbl;
  int16_t *max_parts;
} names_args_t;

static int names_field(hl_hms_dec_t *d, int16_t id, hl_ttype_t t, void *ctx, hl_status_t *rc) {
  names_args_t *a = ctx;
  if (id == 1 && t == HL_TT_STRING)
    *rc = hl_hms_read_string(d, a->db);
  else if (id == 2 && t == HL_TT_STRING)
    *rc = hl_hms_read_string(d, a->tbl);
  else if (id == 3 && t == HL_TT_I16 && a->max_parts)
    *rc = hl_tr_i16(&d->r, a->max_parts);
  else
    return 0;
  return 1;
}

void hl_hms_write_get_all_databases_call(hl_buf_t *buf, int32_t seqid) {
  write_call_header(buf, "get_all_databases", seqid);
  hl_tw_stop(buf);
}

hl_status_t hl_hms_read_get_all_databases_args(hl_hms_dec_t *d) {
  return read_struct(d, NULL, NULL);
}

static void write_names(hl_buf_t *buf, const char *db, const char *tbl) {
  hl_tw_field(buf, HL_TT_STRING, 1);
  hl_tw_string(buf, db);
  hl_tw_field(buf, HL_TT_STRING, 2);
  hl_tw_string(buf, tbl);
}

void hl_hms_write_get_table_call(hl_buf_t *buf, int32_t seqid, const char *dbname,
                                 const char *tbl_name) {
  write_call_header(buf, "get_table", seqid);
  write_names(buf, dbname, tbl_name);
  hl_tw_stop(buf);
}

hl_status_t hl_hms_read_get_table_args(hl_hms_dec_t *d, char **dbname, char **tbl_name) {
  names_args_t a = {dbname, tbl_name, NULL};
  *dbname = *tbl_name = NULL;
  return read_struct(d, names_field, &a);
}

void hl_hms_write_get_partition_names_call(hl_buf_t *buf, int32_t seqid, const char *db_name,
                                           const char *tbl_name, int16_t max_parts) {
  write_call_header(buf, "get_partition_names", seqid);
  write_names(buf, db_name, tbl_name);
  hl_tw_field(buf, HL_TT_I16, 3);
  hl_tw_i16(buf, max_parts);
  hl_tw_stop(buf);
}

hl_status_t hl_hms_read_get_partition_names_args(hl_hms_dec_t *d, char **db_name, char **tbl_name,
                                                 int16_t *max_parts) {
  names_args_t a = {db_name, tbl_name, max_parts};
  *db_name = *tbl_name = NULL;
  *max_parts = -1;
  return read_struct(d, names_field, &a);
}

/* ---- replies */

typedef struct result_ctx {
  hl_ttype_t success_type;
  hl_status_t (*read_success)(hl_hms_dec_t *d, void *out);
  void *success;
  int16_t n_exc; /* declared exceptions: fields 1..n_exc */
  int have_success;
  hl_hms_reply_t *rep;
} result_ctx_t;

static int result_field(hl_hms_dec_t *d, int16_t id, hl_ttype_t t, void *ctx, hl_status_t *rc) {
  result_ctx_t *c = ctx;
  if (id == 0 && t == c->success_type) {
    *rc = c->read_success(d, c->success);
    c->have_success = 1;
  } else if (id >= 1 && id <= c->n_exc && t == HL_TT_STRUCT) {
    *rc = hl_hms_read_exception(d, &c->rep->exc);
    c->rep->exc_id = id;
  } else {
    return 0;
  }
  return 1;
}

static hl_status_t read_reply(hl_hms_dec_t *d, const char *method, int32_t seqid, result_ctx_t *c) {
  hl_hms_message_t m;
  hl_hms_reply_t *rep = c->rep;
  memset(rep, 0, sizeof *rep);
  hl_status_t rc = hl_hms_read_message(d, &m);
  if (rc) return rc;
  if (strcmp(m.name, method) != 0)
    return hl_tr_fail(&d->r, "reply to \"%s\" where \"%s\" was called", m.name, method);
  if (m.seqid != seqid)
    return hl_tr_fail(&d->r, "reply with sequence id %d where %d was sent", (int)m.seqid,
                      (int)seqid);
  if (m.type == HL_TMSG_EXCEPTION) {
    rep->app_error = 1;
    return hl_hms_read_app_exception(d, &rep->app);
  }
  if (m.type != HL_TMSG_REPLY)
    return hl_tr_fail(&d->r, "message of type %d where a reply was expected", (int)m.type);
  if ((rc = read_struct(d, result_field, c))) return rc;
  if (c->success_type != HL_TT_STOP && !c->have_success && !rep->exc_id)
    return hl_tr_fail(&d->r, "\"%s\" reply has neither a result nor an exception", method);
  return HL_OK;
}

static hl_status_t read_strlist_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_strlist(d, out);
}
static hl_status_t read_table_v(hl_hms_dec_t *d, void *out) {
  return hl_hms_read_table(d, out);
}

static void write_reply_exc(hl_buf_t *buf, int16_t exc_id, const hl_hms_exception_t *exc) {
  hl_tw_field(buf, HL_TT_STRUCT, exc_id);
  hl_hms_write_exception(buf, exc);
}

static void write_strlist_reply(hl_buf_t *buf, const char *method, int32_t seqid,
                                const hl_hms_strlist_t *success, int16_t exc_id,
                                const hl_hms_exception_t *exc) {
  hl_tw_message(buf, method, HL_TMSG_REPLY, seqid);
  if (exc_id) {
    write_reply_exc(buf, exc_id, exc);
  } else {
    hl_tw_field(buf, HL_TT_LIST, 0);
    hl_hms_write_strlist(buf, success);
  }
  hl_tw_stop(buf);
}

void hl_hms_write_get_all_databases_reply(hl_buf_t *buf, int32_t seqid,
                                          const hl_hms_strlist_t *success, int16_t exc_id,
                                          const hl_hms_exception_t *exc) {
  write_strlist_reply(buf, "get_all_databases", seqid, success, exc_id, exc);
}

hl_status_t hl_hms_read_get_all_databases_reply(hl_hms_dec_t *d, int32_t seqid,
                                                hl_hms_strlist_t *success, hl_hms_reply_t *rep) {
  result_ctx_t c = {HL_TT_LIST, read_strlist_v, success, 1, 0, rep};
  memset(success, 0, sizeof *success);
  return read_reply(d, "get_all_databases", seqid, &c);
}

void hl_hms_write_get_table_reply(hl_buf_t *buf, int32_t seqid, const hl_hms_table_t *success,
                                  int16_t exc_id, const hl_hms_exception_t *exc) {
  hl_tw_message(buf, "get_table", HL_TMSG_REPLY, seqid);
  if (exc_id) {
    write_reply_exc(buf, exc_id, exc);
  } else {
    hl_tw_field(buf, HL_TT_STRUCT, 0);
    hl_hms_write_table(buf, success);
  }
  hl_tw_stop(buf);
}

hl_status_t hl_hms_read_get_table_reply(hl_hms_dec_t *d, int32_t seqid, hl_hms_table_t *success,
                                        hl_hms_reply_t *rep) {
  result_ctx_t c = {HL_TT_STRUCT, read_table_v, success, 2, 0, rep};
  memset(success, 0, sizeof *success);
  return read_reply(d, "get_table", seqid, &c);
}

void hl_hms_write_get_partition_names_reply(hl_buf_t *buf, int32_t seqid,
                                            const hl_hms_strlist_t *success, int16_t exc_id,
                                            const hl_hms_exception_t *exc) {
  write_strlist_reply(buf, "get_partition_names", seqid, success, exc_id, exc);
}

hl_status_t hl_hms_read_get_partition_names_reply(hl_hms_dec_t *d, int32_t seqid,
                                                  hl_hms_strlist_t *success, hl_hms_reply_t *rep) {
  result_ctx_t c = {HL_TT_LIST, read_strlist_v, success, 2, 0, rep};
  memset(success, 0, sizeof *success);
  return read_reply(d, "get_partition_names", seqid, &c);
}

hl_status_t hl_hms_read_reply(hl_hms_dec_t *d, const char *method, int32_t seqid,
                              hl_ttype_t success_type,
                              hl_status_t (*read_success)(hl_hms_dec_t *d, void *out),
                              void *success, int16_t n_exc, hl_hms_reply_t *rep) {
  result_ctx_t c = {success_type, read_success, success, n_exc, 0, rep};
  return read_reply(d, method, seqid, &c);
}

void hl_hms_write_app_exception_reply(hl_buf_t *buf, const char *method, int32_t seqid,
                                      int32_t type, const char *message) {
  hl_hms_app_exception_t e = {(char *)message, 1, type};
  hl_tw_message(buf, method, HL_TMSG_EXCEPTION, seqid);
  hl_hms_write_app_exception(buf, &e);
}

/* ---- get_table_req */

static int table_request_field(hl_hms_dec_t *d, int16_t id, hl_ttype_t t, void *ctx,
                               hl_status_t *rc) {
  hl_hms_get_table_request_t *q = ctx;
  if (id == 1 && t == HL_TT_STRING)
    *rc = hl_hms_read_string(d, &q->db_name);
  else if (id == 2 && t == HL_TT_STRING)
    *rc = hl_hms_read_string(d, &q->tbl_name);
  else if (id == 4 && t == HL_TT_STRING)
    *rc = hl_hms_read_string(d, &q->cat_name);
  else
    return 0;
  return 1;
}

typedef struct table_req_args {
  hl_hms_get_table_request_t *req;
  int have_req;
} table_req_args_t;

static int table_req_args_field(hl_hms_dec_t *d, int16_t id, hl_ttype_t t, void *ctx,
                                hl_status_t *rc) {
  table_req_args_t *a = ctx;
  if (id != 1 || t != HL_TT_STRUCT) return 0;
  *rc = read_struct(d, table_request_field, a->req);
  a->have_req = 1;
  return 1;
}

hl_status_t hl_hms_read_get_table_req_args(hl_hms_dec_t *d, hl_hms_get_table_request_t *out) {
  table_req_args_t a = {out, 0};
  memset(out, 0, sizeof *out);
  hl_status_t rc = read_struct(d, table_req_args_field, &a);
  if (rc) return rc;
  if (!a.have_req) return hl_tr_fail(&d->r, "get_table_req without its request");
  if (!out->db_name || !out->tbl_name)
    return hl_tr_fail(&d->r, "GetTableRequest without its required %s",
                      out->db_name ? "tblName" : "dbName");
  return HL_OK;
}

void hl_hms_write_get_table_result(hl_buf_t *buf, const hl_hms_get_table_result_t *v) {
  hl_tw_field(buf, HL_TT_STRUCT, 1);
  hl_hms_write_table(buf, v->table);
  if (v->has_is_stats_compliant) {
    hl_tw_field(buf, HL_TT_BOOL, 2);
    hl_tw_bool(buf, v->is_stats_compliant);
  }
  hl_tw_stop(buf);
}
