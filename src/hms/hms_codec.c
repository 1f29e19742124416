/*
 * hms_codec.c -- binary-protocol encoders and decoders of the Hive
 * Metastore structs in hms.h (field ids and types from the Hive 4 IDL).
 */
#include "hms/hms.h"
#include "hms/hms_int.h"

#include <string.h>

void hl_hms_dec_init(hl_hms_dec_t *d, const void *data, size_t len, hl_arena_t *arena,
                     hl_error_t *err) {
  hl_tr_init(&d->r, data, len, err);
  d->arena = arena;
  d->budget = len * 32 + 65536;
  d->used = 0;
}

/* Zeroed arena memory for N bytes, charged to the decoder's budget. */
static hl_status_t dalloc(hl_hms_dec_t *d, size_t n, void **out) {
  if (n > d->budget - d->used)
    return hl_tr_fail(&d->r, "decoded message would take more than %zu bytes", d->budget);
  *out = hl_arena_zalloc(d->arena, n ? n : 1);
  if (!*out) return hl_err_nomem(d->r.err);
  d->used += n;
  return HL_OK;
}

hl_status_t hl_hms_read_string(hl_hms_dec_t *d, char **out) {
  const uint8_t *p;
  size_t n;
  void *s;
  hl_status_t rc = hl_tr_binary(&d->r, &p, &n);
  if (rc) return rc;
  if (memchr(p, 0, n)) return hl_tr_fail(&d->r, "string holds a NUL byte");
  if ((rc = dalloc(d, n + 1, &s))) return rc;
  memcpy(s, p, n);
  *out = s;
  return HL_OK;
}

/* A container header whose element type must be WANT (an empty one may
 * say any type, as some writers do). */
static hl_status_t list_header(hl_hms_dec_t *d, hl_ttype_t want, uint32_t *n) {
  hl_ttype_t elem;
  hl_status_t rc = hl_tr_list(&d->r, &elem, n);
  if (rc) return rc;
  if (*n && elem != want)
    return hl_tr_fail(&d->r, "list of %s where %s was expected", hl_ttype_name(elem),
                      hl_ttype_name(want));
  return HL_OK;
}

static hl_status_t map_header(hl_hms_dec_t *d, hl_ttype_t kwant, hl_ttype_t vwant, uint32_t *n) {
  hl_ttype_t k, v;
  hl_status_t rc = hl_tr_map(&d->r, &k, &v, n);
  if (rc) return rc;
  if (*n && (k != kwant || v != vwant))
    return hl_tr_fail(&d->r, "map<%s, %s> where map<%s, %s> was expected", hl_ttype_name(k),
                      hl_ttype_name(v), hl_ttype_name(kwant), hl_ttype_name(vwant));
  return HL_OK;
}

hl_status_t hl_hms_read_strlist(hl_hms_dec_t *d, hl_hms_strlist_t *out) {
  void *items;
  hl_status_t rc = list_header(d, HL_TT_STRING, &out->n);
  if (!rc) rc = dalloc(d, (size_t)out->n * sizeof(char *), &items);
  if (rc) return rc;
  out->items = items;
  for (uint32_t i = 0; i < out->n && !rc; i++)
    rc = hl_hms_read_string(d, &out->items[i]);
  return rc;
}

static hl_status_t read_strmap(hl_hms_dec_t *d, hl_hms_strmap_t *out) {
  void *items;
  hl_status_t rc = map_header(d, HL_TT_STRING, HL_TT_STRING, &out->n);
  if (!rc) rc = dalloc(d, (size_t)out->n * sizeof(hl_hms_kv_t), &items);
  if (rc) return rc;
  out->items = items;
  for (uint32_t i = 0; i < out->n && !rc; i++) {
    rc = hl_hms_read_string(d, &out->items[i].key);
    if (!rc) rc = hl_hms_read_string(d, &out->items[i].value);
  }
  return rc;
}

/* list<struct>: ELEM_SIZE bytes per element, each read by READ. */
static hl_status_t read_struct_list(hl_hms_dec_t *d, size_t elem_size,
                                    hl_status_t (*read)(hl_hms_dec_t *, void *), void **items,
                                    uint32_t *n) {
  hl_status_t rc = list_header(d, HL_TT_STRUCT, n);
  if (!rc) rc = dalloc(d, (size_t)*n * elem_size, items);
  for (uint32_t i = 0; i < *n && !rc; i++)
    rc = read((d), (char *)*items + i * elem_size);
  return rc;
}

hl_status_t hl_hms_read_field_schema(hl_hms_dec_t *d, hl_hms_field_schema_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->name))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->type))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->comment))
  FIELDS_END(d)
  return rc_;
}

static hl_status_t read_field_schema_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_field_schema(d, p);
}

hl_status_t hl_hms_read_serde_info(hl_hms_dec_t *d, hl_hms_serde_info_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->name))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->serialization_lib))
  FIELD(3, HL_TT_MAP, read_strmap(d, &out->parameters))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->description))
  FIELD(5, HL_TT_STRING, hl_hms_read_string(d, &out->serializer_class))
  FIELD(6, HL_TT_STRING, hl_hms_read_string(d, &out->deserializer_class))
  FIELD(7, HL_TT_I32, HAS(out->has_serde_type, hl_tr_i32(R, &out->serde_type)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_order(hl_hms_dec_t *d, hl_hms_order_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->col))
  FIELD(2, HL_TT_I32, hl_tr_i32(R, &out->order))
  FIELDS_END(d)
  return rc_;
}

static hl_status_t read_order_v(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_order(d, p);
}

static hl_status_t read_skewed_values(hl_hms_dec_t *d, hl_hms_skewed_info_t *out) {
  void *items;
  hl_status_t rc = list_header(d, HL_TT_LIST, &out->n_col_values);
  if (!rc) rc = dalloc(d, (size_t)out->n_col_values * sizeof(hl_hms_strlist_t), &items);
  if (rc) return rc;
  out->col_values = items;
  for (uint32_t i = 0; i < out->n_col_values && !rc; i++)
    rc = hl_hms_read_strlist(d, &out->col_values[i]);
  return rc;
}

static hl_status_t read_skewed_locations(hl_hms_dec_t *d, hl_hms_skewed_info_t *out) {
  void *items;
  hl_status_t rc = map_header(d, HL_TT_LIST, HL_TT_STRING, &out->n_locations);
  if (!rc) rc = dalloc(d, (size_t)out->n_locations * sizeof(hl_hms_skewed_location_t), &items);
  if (rc) return rc;
  out->locations = items;
  for (uint32_t i = 0; i < out->n_locations && !rc; i++) {
    rc = hl_hms_read_strlist(d, &out->locations[i].values);
    if (!rc) rc = hl_hms_read_string(d, &out->locations[i].location);
  }
  return rc;
}

hl_status_t hl_hms_read_skewed_info(hl_hms_dec_t *d, hl_hms_skewed_info_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST, hl_hms_read_strlist(d, &out->col_names))
  FIELD(2, HL_TT_LIST, read_skewed_values(d, out))
  FIELD(3, HL_TT_MAP, read_skewed_locations(d, out))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_sd(hl_hms_dec_t *d, hl_hms_sd_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST,
        read_struct_list(d, sizeof(hl_hms_field_schema_t), read_field_schema_v, (void **)&out->cols,
                         &out->n_cols))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->location))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->input_format))
  FIELD(4, HL_TT_STRING, hl_hms_read_string(d, &out->output_format))
  FIELD(5, HL_TT_BOOL, hl_tr_bool(R, &out->compressed))
  FIELD(6, HL_TT_I32, hl_tr_i32(R, &out->num_buckets))
  FIELD(7, HL_TT_STRUCT, READ_PTR(d, out->serde_info, hl_hms_read_serde_info))
  FIELD(8, HL_TT_LIST, hl_hms_read_strlist(d, &out->bucket_cols))
  FIELD(9, HL_TT_LIST,
        read_struct_list(d, sizeof(hl_hms_order_t), read_order_v, (void **)&out->sort_cols,
                         &out->n_sort_cols))
  FIELD(10, HL_TT_MAP, read_strmap(d, &out->parameters))
  FIELD(11, HL_TT_STRUCT, READ_PTR(d, out->skewed_info, hl_hms_read_skewed_info))
  FIELD(12, HL_TT_BOOL,
        HAS(out->has_stored_as_sub_directories, hl_tr_bool(R, &out->stored_as_sub_directories)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_database(hl_hms_dec_t *d, hl_hms_database_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->name))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->description))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->location_uri))
  FIELD(4, HL_TT_MAP, read_strmap(d, &out->parameters))
  FIELD(6, HL_TT_STRING, hl_hms_read_string(d, &out->owner_name))
  FIELD(7, HL_TT_I32, HAS(out->has_owner_type, hl_tr_i32(R, &out->owner_type)))
  FIELD(8, HL_TT_STRING, hl_hms_read_string(d, &out->catalog_name))
  FIELD(9, HL_TT_I32, HAS(out->has_create_time, hl_tr_i32(R, &out->create_time)))
  FIELD(10, HL_TT_STRING, hl_hms_read_string(d, &out->managed_location_uri))
  FIELD(11, HL_TT_I32, HAS(out->has_type, hl_tr_i32(R, &out->type)))
  FIELD(12, HL_TT_STRING, hl_hms_read_string(d, &out->connector_name))
  FIELD(13, HL_TT_STRING, hl_hms_read_string(d, &out->remote_dbname))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_table(hl_hms_dec_t *d, hl_hms_table_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->table_name))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->db_name))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->owner))
  FIELD(4, HL_TT_I32, hl_tr_i32(R, &out->create_time))
  FIELD(5, HL_TT_I32, hl_tr_i32(R, &out->last_access_time))
  FIELD(6, HL_TT_I32, hl_tr_i32(R, &out->retention))
  FIELD(7, HL_TT_STRUCT, READ_PTR(d, out->sd, hl_hms_read_sd))
  FIELD(8, HL_TT_LIST,
        read_struct_list(d, sizeof(hl_hms_field_schema_t), read_field_schema_v,
                         (void **)&out->partition_keys, &out->n_partition_keys))
  FIELD(9, HL_TT_MAP, read_strmap(d, &out->parameters))
  FIELD(10, HL_TT_STRING, hl_hms_read_string(d, &out->view_original_text))
  FIELD(11, HL_TT_STRING, hl_hms_read_string(d, &out->view_expanded_text))
  FIELD(12, HL_TT_STRING, hl_hms_read_string(d, &out->table_type))
  FIELD(14, HL_TT_BOOL, HAS(out->has_temporary, hl_tr_bool(R, &out->temporary)))
  FIELD(15, HL_TT_BOOL, HAS(out->has_rewrite_enabled, hl_tr_bool(R, &out->rewrite_enabled)))
  FIELD(17, HL_TT_STRING, hl_hms_read_string(d, &out->cat_name))
  FIELD(18, HL_TT_I32, HAS(out->has_owner_type, hl_tr_i32(R, &out->owner_type)))
  FIELD(19, HL_TT_I64, HAS(out->has_write_id, hl_tr_i64(R, &out->write_id)))
  FIELD(20, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELD(22, HL_TT_BYTE, HAS(out->has_access_type, hl_tr_byte(R, &out->access_type)))
  FIELD(23, HL_TT_LIST,
        HAS(out->has_required_read_capabilities,
            hl_hms_read_strlist(d, &out->required_read_capabilities)))
  FIELD(24, HL_TT_LIST,
        HAS(out->has_required_write_capabilities,
            hl_hms_read_strlist(d, &out->required_write_capabilities)))
  FIELD(25, HL_TT_I64, HAS(out->has_id, hl_tr_i64(R, &out->id)))
  FIELD(28, HL_TT_I64, HAS(out->has_txn_id, hl_tr_i64(R, &out->txn_id)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_partition(hl_hms_dec_t *d, hl_hms_partition_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_LIST, hl_hms_read_strlist(d, &out->values))
  FIELD(2, HL_TT_STRING, hl_hms_read_string(d, &out->db_name))
  FIELD(3, HL_TT_STRING, hl_hms_read_string(d, &out->table_name))
  FIELD(4, HL_TT_I32, hl_tr_i32(R, &out->create_time))
  FIELD(5, HL_TT_I32, hl_tr_i32(R, &out->last_access_time))
  FIELD(6, HL_TT_STRUCT, READ_PTR(d, out->sd, hl_hms_read_sd))
  FIELD(7, HL_TT_MAP, read_strmap(d, &out->parameters))
  FIELD(9, HL_TT_STRING, hl_hms_read_string(d, &out->cat_name))
  FIELD(10, HL_TT_I64, HAS(out->has_write_id, hl_tr_i64(R, &out->write_id)))
  FIELD(11, HL_TT_BOOL, HAS(out->has_is_stats_compliant, hl_tr_bool(R, &out->is_stats_compliant)))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_exception(hl_hms_dec_t *d, hl_hms_exception_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->message))
  FIELDS_END(d)
  return rc_;
}

hl_status_t hl_hms_read_app_exception(hl_hms_dec_t *d, hl_hms_app_exception_t *out) {
  FIELDS_BEGIN(d)
  FIELD(1, HL_TT_STRING, hl_hms_read_string(d, &out->message))
  FIELD(2, HL_TT_I32, HAS(out->has_type, hl_tr_i32(R, &out->type)))
  FIELDS_END(d)
  return rc_;
}

/* ---- encoders */

void hl_hms_write_strlist(hl_buf_t *b, const hl_hms_strlist_t *v) {
  hl_tw_list(b, HL_TT_STRING, v->n);
  for (uint32_t i = 0; i < v->n; i++)
    hl_tw_string(b, v->items[i]);
}

static void w_strmap(hl_buf_t *b, int16_t id, const hl_hms_strmap_t *v) {
  hl_tw_field(b, HL_TT_MAP, id);
  hl_tw_map(b, HL_TT_STRING, HL_TT_STRING, v->n);
  for (uint32_t i = 0; i < v->n; i++) {
    hl_tw_string(b, v->items[i].key);
    hl_tw_string(b, v->items[i].value);
  }
}

static void w_cols(hl_buf_t *b, int16_t id, const hl_hms_field_schema_t *cols, uint32_t n) {
  hl_tw_field(b, HL_TT_LIST, id);
  hl_tw_list(b, HL_TT_STRUCT, n);
  for (uint32_t i = 0; i < n; i++)
    hl_hms_write_field_schema(b, &cols[i]);
}

void hl_hms_write_field_schema(hl_buf_t *b, const hl_hms_field_schema_t *v) {
  hl_hms_w_str(b, 1, v->name);
  hl_hms_w_str(b, 2, v->type);
  hl_hms_w_str(b, 3, v->comment);
  hl_tw_stop(b);
}

void hl_hms_write_serde_info(hl_buf_t *b, const hl_hms_serde_info_t *v) {
  hl_hms_w_str(b, 1, v->name);
  hl_hms_w_str(b, 2, v->serialization_lib);
  w_strmap(b, 3, &v->parameters);
  hl_hms_w_str(b, 4, v->description);
  hl_hms_w_str(b, 5, v->serializer_class);
  hl_hms_w_str(b, 6, v->deserializer_class);
  if (v->has_serde_type) hl_hms_w_i32(b, 7, v->serde_type);
  hl_tw_stop(b);
}

void hl_hms_write_order(hl_buf_t *b, const hl_hms_order_t *v) {
  hl_hms_w_str(b, 1, v->col);
  hl_hms_w_i32(b, 2, v->order);
  hl_tw_stop(b);
}

void hl_hms_write_skewed_info(hl_buf_t *b, const hl_hms_skewed_info_t *v) {
  hl_hms_w_strlist(b, 1, &v->col_names);
  hl_tw_field(b, HL_TT_LIST, 2);
  hl_tw_list(b, HL_TT_LIST, v->n_col_values);
  for (uint32_t i = 0; i < v->n_col_values; i++)
    hl_hms_write_strlist(b, &v->col_values[i]);
  hl_tw_field(b, HL_TT_MAP, 3);
  hl_tw_map(b, HL_TT_LIST, HL_TT_STRING, v->n_locations);
  for (uint32_t i = 0; i < v->n_locations; i++) {
    hl_hms_write_strlist(b, &v->locations[i].values);
    hl_tw_string(b, v->locations[i].location);
  }
  hl_tw_stop(b);
}

void hl_hms_write_sd(hl_buf_t *b, const hl_hms_sd_t *v) {
  w_cols(b, 1, v->cols, v->n_cols);
  hl_hms_w_str(b, 2, v->location);
  hl_hms_w_str(b, 3, v->input_format);
  hl_hms_w_str(b, 4, v->output_format);
  hl_hms_w_bool(b, 5, v->compressed);
  hl_hms_w_i32(b, 6, v->num_buckets);
  if (v->serde_info) {
    hl_tw_field(b, HL_TT_STRUCT, 7);
    hl_hms_write_serde_info(b, v->serde_info);
  }
  hl_hms_w_strlist(b, 8, &v->bucket_cols);
  hl_tw_field(b, HL_TT_LIST, 9);
  hl_tw_list(b, HL_TT_STRUCT, v->n_sort_cols);
  for (uint32_t i = 0; i < v->n_sort_cols; i++)
    hl_hms_write_order(b, &v->sort_cols[i]);
  w_strmap(b, 10, &v->parameters);
  if (v->skewed_info) {
    hl_tw_field(b, HL_TT_STRUCT, 11);
    hl_hms_write_skewed_info(b, v->skewed_info);
  }
  if (v->has_stored_as_sub_directories) hl_hms_w_bool(b, 12, v->stored_as_sub_directories);
  hl_tw_stop(b);
}

void hl_hms_write_database(hl_buf_t *b, const hl_hms_database_t *v) {
  hl_hms_w_str(b, 1, v->name);
  hl_hms_w_str(b, 2, v->description);
  hl_hms_w_str(b, 3, v->location_uri);
  w_strmap(b, 4, &v->parameters);
  hl_hms_w_str(b, 6, v->owner_name);
  if (v->has_owner_type) hl_hms_w_i32(b, 7, v->owner_type);
  hl_hms_w_str(b, 8, v->catalog_name);
  if (v->has_create_time) hl_hms_w_i32(b, 9, v->create_time);
  hl_hms_w_str(b, 10, v->managed_location_uri);
  if (v->has_type) hl_hms_w_i32(b, 11, v->type);
  hl_hms_w_str(b, 12, v->connector_name);
  hl_hms_w_str(b, 13, v->remote_dbname);
  hl_tw_stop(b);
}

void hl_hms_write_table(hl_buf_t *b, const hl_hms_table_t *v) {
  hl_hms_w_str(b, 1, v->table_name);
  hl_hms_w_str(b, 2, v->db_name);
  hl_hms_w_str(b, 3, v->owner);
  hl_hms_w_i32(b, 4, v->create_time);
  hl_hms_w_i32(b, 5, v->last_access_time);
  hl_hms_w_i32(b, 6, v->retention);
  if (v->sd) {
    hl_tw_field(b, HL_TT_STRUCT, 7);
    hl_hms_write_sd(b, v->sd);
  }
  w_cols(b, 8, v->partition_keys, v->n_partition_keys);
  w_strmap(b, 9, &v->parameters);
  hl_hms_w_str(b, 10, v->view_original_text);
  hl_hms_w_str(b, 11, v->view_expanded_text);
  hl_hms_w_str(b, 12, v->table_type);
  if (v->has_temporary) hl_hms_w_bool(b, 14, v->temporary);
  if (v->has_rewrite_enabled) hl_hms_w_bool(b, 15, v->rewrite_enabled);
  hl_hms_w_str(b, 17, v->cat_name);
  if (v->has_owner_type) hl_hms_w_i32(b, 18, v->owner_type);
  if (v->has_write_id) hl_hms_w_i64(b, 19, v->write_id);
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 20, v->is_stats_compliant);
  if (v->has_access_type) {
    hl_tw_field(b, HL_TT_BYTE, 22);
    hl_tw_byte(b, v->access_type);
  }
  if (v->has_required_read_capabilities) hl_hms_w_strlist(b, 23, &v->required_read_capabilities);
  if (v->has_required_write_capabilities) hl_hms_w_strlist(b, 24, &v->required_write_capabilities);
  if (v->has_id) hl_hms_w_i64(b, 25, v->id);
  if (v->has_txn_id) hl_hms_w_i64(b, 28, v->txn_id);
  hl_tw_stop(b);
}

void hl_hms_write_partition(hl_buf_t *b, const hl_hms_partition_t *v) {
  hl_hms_w_strlist(b, 1, &v->values);
  hl_hms_w_str(b, 2, v->db_name);
  hl_hms_w_str(b, 3, v->table_name);
  hl_hms_w_i32(b, 4, v->create_time);
  hl_hms_w_i32(b, 5, v->last_access_time);
  if (v->sd) {
    hl_tw_field(b, HL_TT_STRUCT, 6);
    hl_hms_write_sd(b, v->sd);
  }
  w_strmap(b, 7, &v->parameters);
  hl_hms_w_str(b, 9, v->cat_name);
  if (v->has_write_id) hl_hms_w_i64(b, 10, v->write_id);
  if (v->has_is_stats_compliant) hl_hms_w_bool(b, 11, v->is_stats_compliant);
  hl_tw_stop(b);
}

void hl_hms_write_exception(hl_buf_t *b, const hl_hms_exception_t *v) {
  hl_hms_w_str(b, 1, v->message);
  hl_tw_stop(b);
}

void hl_hms_write_app_exception(hl_buf_t *b, const hl_hms_app_exception_t *v) {
  hl_hms_w_str(b, 1, v->message);
  if (v->has_type) hl_hms_w_i32(b, 2, v->type);
  hl_tw_stop(b);
}

/* ---- the helpers of hms_int.h, for the other codec files */

hl_status_t hl_hms_dalloc(hl_hms_dec_t *d, size_t n, void **out) {
  return dalloc(d, n, out);
}

hl_status_t hl_hms_list_header(hl_hms_dec_t *d, hl_ttype_t want, uint32_t *n) {
  return list_header(d, want, n);
}

hl_status_t hl_hms_read_strmap(hl_hms_dec_t *d, hl_hms_strmap_t *out) {
  return read_strmap(d, out);
}

hl_status_t hl_hms_read_struct_list(hl_hms_dec_t *d, size_t elem_size,
                                    hl_status_t (*read)(hl_hms_dec_t *, void *), void **items,
                                    uint32_t *n) {
  return read_struct_list(d, elem_size, read, items, n);
}

void hl_hms_write_strmap(hl_buf_t *b, int16_t id, const hl_hms_strmap_t *v) {
  w_strmap(b, id, v);
}
