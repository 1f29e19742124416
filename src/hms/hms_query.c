/*
 * hms_query.c -- the flat field reader and the result encoders of
 * hms_query.h.
 */
#include "hms/hms_int.h"
#include "hms/hms_query.h"

#include <string.h>

static hl_status_t read_int(hl_treader_t *r, hl_ttype_t t, int64_t *out) {
  hl_status_t rc;
  switch (t) {
  case HL_TT_BOOL: {
    int b = 0;
    rc = hl_tr_bool(r, &b);
    *out = b;
    return rc;
  }
  case HL_TT_BYTE: {
    int8_t v = 0;
    rc = hl_tr_byte(r, &v);
    *out = v;
    return rc;
  }
  case HL_TT_I16: {
    int16_t v = 0;
    rc = hl_tr_i16(r, &v);
    *out = v;
    return rc;
  }
  case HL_TT_I32: {
    int32_t v = 0;
    rc = hl_tr_i32(r, &v);
    *out = v;
    return rc;
  }
  default:
    return hl_tr_i64(r, out);
  }
}

/* One level: NESTED_ID's struct is read with nested_id 0, so a hostile
 * message cannot nest these deeper than two. */
hl_status_t hl_hms_read_fields(hl_hms_dec_t *d, int nested_id, hl_hms_fields_t *out) {
  hl_ttype_t t;
  int16_t id;
  memset(out, 0, sizeof *out);
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    int keep = id >= 1 && id <= HL_HMS_FIELDS_MAX;
    if (keep && t == HL_TT_LIST) { /* a list of anything but strings is skipped */
      hl_treader_t peek = d->r;
      hl_ttype_t elem;
      uint32_t n;
      if ((rc = hl_tr_list(&peek, &elem, &n))) break;
      if (n && elem != HL_TT_STRING) keep = 0;
    }
    if (keep && t == HL_TT_STRING) {
      rc = hl_hms_read_string(d, &out->s[id]);
    } else if (keep && (t == HL_TT_BOOL || t == HL_TT_BYTE || t == HL_TT_I16 || t == HL_TT_I32 ||
                        t == HL_TT_I64)) {
      rc = read_int(&d->r, t, &out->i[id]);
    } else if (keep && t == HL_TT_LIST) {
      rc = hl_hms_read_strlist(d, &out->l[id]);
    } else if (keep && t == HL_TT_STRUCT && id == nested_id && !out->sub) {
      hl_hms_fields_t *sub;
      if (d->budget - d->used < sizeof *sub)
        return hl_tr_fail(&d->r, "decoded message would take more than %zu bytes", d->budget);
      if (!(sub = hl_arena_alloc(d->arena, sizeof *sub))) {
        rc = hl_err_nomem(d->r.err);
        break;
      }
      d->used += sizeof *sub;
      rc = hl_hms_read_fields(d, 0, sub);
      out->sub = sub;
    } else {
      keep = 0;
      rc = hl_tr_skip(&d->r, t);
    }
    if (rc) break;
    if (keep) out->has |= 1u << id;
  }
  hl_tr_leave(&d->r);
  return rc;
}

void hl_hms_write_table_meta(hl_buf_t *b, const hl_hms_table_meta_t *v) {
  hl_tw_field(b, HL_TT_STRING, 1);
  hl_tw_string(b, v->db_name);
  hl_tw_field(b, HL_TT_STRING, 2);
  hl_tw_string(b, v->table_name);
  hl_tw_field(b, HL_TT_STRING, 3);
  hl_tw_string(b, v->table_type);
  hl_hms_w_str(b, 4, v->comments);
  hl_hms_w_str(b, 5, v->cat_name);
  hl_hms_w_str(b, 6, v->owner_name);
  if (v->has_owner_type) {
    hl_tw_field(b, HL_TT_I32, 7);
    hl_tw_i32(b, v->owner_type);
  }
  hl_tw_stop(b);
}

void hl_hms_write_field_list(hl_buf_t *b, const hl_hms_field_schema_t *cols, uint32_t n) {
  hl_tw_list(b, HL_TT_STRUCT, n);
  for (uint32_t i = 0; i < n; i++)
    hl_hms_write_field_schema(b, &cols[i]);
}

void hl_hms_write_fields_response(hl_buf_t *b, const hl_hms_field_schema_t *cols, uint32_t n) {
  hl_tw_field(b, HL_TT_LIST, 1);
  hl_hms_write_field_list(b, cols, n);
  hl_tw_stop(b);
}
