/*
 * hms_codec_tool.c -- the C side of tests/hms/codec_interop.py: converts
 * between the binary protocol (through src/hms/) and a canonical JSON form
 * (IDL field names; absent fields omitted; map<string, string> an object;
 * SkewedInfo's map<list<string>, string> a list of [values, location]).
 *
 *   hms_codec_tool decode KIND                       < bytes  > json
 *   hms_codec_tool encode KIND                       < json   > bytes
 *     (KIND: table, partition, database, and of hms_ddl.h lock_request,
 *      show_locks_response, add_partitions_request)
 *   hms_codec_tool call-decode                       < call   > {"name", "type", "seqid", args...}
 *   hms_codec_tool reply METHOD SEQID                < json   > reply bytes
 *     (json: {"success": value} | {"exc_id": n, "message": m} |
 *      {"app_type": n, "message": m})
 *   hms_codec_tool call METHOD SEQID                 < json args > call bytes
 *   hms_codec_tool reply-decode METHOD SEQID         < reply  > json
 *
 * Exit 0, or 1 with the error's SQLSTATE and message on stderr.
 */
#include "hms/hms_call.h"
#include "hms/hms_ddl.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a field table per struct drives both conversions */
typedef enum {
  F_STR,
  F_I32,
  F_I64,
  F_BOOL,
  F_BYTE,
  F_LIST,
  F_MAP,
  F_PTR,
  F_ARRAY,
  F_SKV,
  F_SKL
} fk_t;
typedef struct desc desc_t;
typedef struct fdesc {
  const char *name;
  fk_t kind;
  size_t off;
  long has_off;      /* offset of the has_* flag, -1: none */
  size_t cnt_off;    /* F_ARRAY, F_SKV, F_SKL: the uint32 count */
  const desc_t *sub; /* F_PTR, F_ARRAY */
} fdesc_t;
struct desc {
  size_t size;
  const fdesc_t *f;
};

#define O(T, m) offsetof(T, m)
#define N       -1
extern const desc_t D_FS, D_SERDE, D_ORDER, D_SKEW, D_SD, D_DB, D_TABLE, D_PART;
static const fdesc_t f_fs[] = {{"name", F_STR, O(hl_hms_field_schema_t, name), N, 0, 0},
                               {"type", F_STR, O(hl_hms_field_schema_t, type), N, 0, 0},
                               {"comment", F_STR, O(hl_hms_field_schema_t, comment), N, 0, 0},
                               {0}};
#define SE hl_hms_serde_info_t
static const fdesc_t f_serde[] = {
    {"name", F_STR, O(SE, name), N, 0, 0},
    {"serializationLib", F_STR, O(SE, serialization_lib), N, 0, 0},
    {"parameters", F_MAP, O(SE, parameters), N, 0, 0},
    {"description", F_STR, O(SE, description), N, 0, 0},
    {"serializerClass", F_STR, O(SE, serializer_class), N, 0, 0},
    {"deserializerClass", F_STR, O(SE, deserializer_class), N, 0, 0},
    {"serdeType", F_I32, O(SE, serde_type), O(SE, has_serde_type), 0, 0},
    {0}};
static const fdesc_t f_order[] = {{"col", F_STR, O(hl_hms_order_t, col), N, 0, 0},
                                  {"order", F_I32, O(hl_hms_order_t, order), N, 0, 0},
                                  {0}};
#define SK hl_hms_skewed_info_t
static const fdesc_t f_skew[] = {
    {"skewedColNames", F_LIST, O(SK, col_names), N, 0, 0},
    {"skewedColValues", F_SKV, O(SK, col_values), N, O(SK, n_col_values), 0},
    {"skewedColValueLocationMaps", F_SKL, O(SK, locations), N, O(SK, n_locations), 0},
    {0}};
#define SD hl_hms_sd_t
static const fdesc_t f_sd[] = {
    {"cols", F_ARRAY, O(SD, cols), N, O(SD, n_cols), &D_FS},
    {"location", F_STR, O(SD, location), N, 0, 0},
    {"inputFormat", F_STR, O(SD, input_format), N, 0, 0},
    {"outputFormat", F_STR, O(SD, output_format), N, 0, 0},
    {"compressed", F_BOOL, O(SD, compressed), N, 0, 0},
    {"numBuckets", F_I32, O(SD, num_buckets), N, 0, 0},
    {"serdeInfo", F_PTR, O(SD, serde_info), N, 0, &D_SERDE},
    {"bucketCols", F_LIST, O(SD, bucket_cols), N, 0, 0},
    {"sortCols", F_ARRAY, O(SD, sort_cols), N, O(SD, n_sort_cols), &D_ORDER},
    {"parameters", F_MAP, O(SD, parameters), N, 0, 0},
    {"skewedInfo", F_PTR, O(SD, skewed_info), N, 0, &D_SKEW},
    {"storedAsSubDirectories", F_BOOL, O(SD, stored_as_sub_directories),
     O(SD, has_stored_as_sub_directories), 0, 0},
    {0}};
#define DB hl_hms_database_t
static const fdesc_t f_db[] = {
    {"name", F_STR, O(DB, name), N, 0, 0},
    {"description", F_STR, O(DB, description), N, 0, 0},
    {"locationUri", F_STR, O(DB, location_uri), N, 0, 0},
    {"parameters", F_MAP, O(DB, parameters), N, 0, 0},
    {"ownerName", F_STR, O(DB, owner_name), N, 0, 0},
    {"ownerType", F_I32, O(DB, owner_type), O(DB, has_owner_type), 0, 0},
    {"catalogName", F_STR, O(DB, catalog_name), N, 0, 0},
    {"createTime", F_I32, O(DB, create_time), O(DB, has_create_time), 0, 0},
    {"managedLocationUri", F_STR, O(DB, managed_location_uri), N, 0, 0},
    {"type", F_I32, O(DB, type), O(DB, has_type), 0, 0},
    {"connector_name", F_STR, O(DB, connector_name), N, 0, 0},
    {"remote_dbname", F_STR, O(DB, remote_dbname), N, 0, 0},
    {0}};
#define TB hl_hms_table_t
static const fdesc_t f_table[] = {
    {"tableName", F_STR, O(TB, table_name), N, 0, 0},
    {"dbName", F_STR, O(TB, db_name), N, 0, 0},
    {"owner", F_STR, O(TB, owner), N, 0, 0},
    {"createTime", F_I32, O(TB, create_time), N, 0, 0},
    {"lastAccessTime", F_I32, O(TB, last_access_time), N, 0, 0},
    {"retention", F_I32, O(TB, retention), N, 0, 0},
    {"sd", F_PTR, O(TB, sd), N, 0, &D_SD},
    {"partitionKeys", F_ARRAY, O(TB, partition_keys), N, O(TB, n_partition_keys), &D_FS},
    {"parameters", F_MAP, O(TB, parameters), N, 0, 0},
    {"viewOriginalText", F_STR, O(TB, view_original_text), N, 0, 0},
    {"viewExpandedText", F_STR, O(TB, view_expanded_text), N, 0, 0},
    {"tableType", F_STR, O(TB, table_type), N, 0, 0},
    {"temporary", F_BOOL, O(TB, temporary), O(TB, has_temporary), 0, 0},
    {"rewriteEnabled", F_BOOL, O(TB, rewrite_enabled), O(TB, has_rewrite_enabled), 0, 0},
    {"catName", F_STR, O(TB, cat_name), N, 0, 0},
    {"ownerType", F_I32, O(TB, owner_type), O(TB, has_owner_type), 0, 0},
    {"writeId", F_I64, O(TB, write_id), O(TB, has_write_id), 0, 0},
    {"isStatsCompliant", F_BOOL, O(TB, is_stats_compliant), O(TB, has_is_stats_compliant), 0, 0},
    {"accessType", F_BYTE, O(TB, access_type), O(TB, has_access_type), 0, 0},
    {"requiredReadCapabilities", F_LIST, O(TB, required_read_capabilities),
     O(TB, has_required_read_capabilities), 0, 0},
    {"requiredWriteCapabilities", F_LIST, O(TB, required_write_capabilities),
     O(TB, has_required_write_capabilities), 0, 0},
    {"id", F_I64, O(TB, id), O(TB, has_id), 0, 0},
    {"txnId", F_I64, O(TB, txn_id), O(TB, has_txn_id), 0, 0},
    {0}};
#define PA hl_hms_partition_t
static const fdesc_t f_part[] = {
    {"values", F_LIST, O(PA, values), N, 0, 0},
    {"dbName", F_STR, O(PA, db_name), N, 0, 0},
    {"tableName", F_STR, O(PA, table_name), N, 0, 0},
    {"createTime", F_I32, O(PA, create_time), N, 0, 0},
    {"lastAccessTime", F_I32, O(PA, last_access_time), N, 0, 0},
    {"sd", F_PTR, O(PA, sd), N, 0, &D_SD},
    {"parameters", F_MAP, O(PA, parameters), N, 0, 0},
    {"catName", F_STR, O(PA, cat_name), N, 0, 0},
    {"writeId", F_I64, O(PA, write_id), O(PA, has_write_id), 0, 0},
    {"isStatsCompliant", F_BOOL, O(PA, is_stats_compliant), O(PA, has_is_stats_compliant), 0, 0},
    {0}};
const desc_t D_FS = {sizeof(hl_hms_field_schema_t), f_fs};
const desc_t D_SERDE = {sizeof(SE), f_serde};
const desc_t D_ORDER = {sizeof(hl_hms_order_t), f_order};
const desc_t D_SKEW = {sizeof(SK), f_skew};
const desc_t D_SD = {sizeof(SD), f_sd};
const desc_t D_DB = {sizeof(DB), f_db};
const desc_t D_TABLE = {sizeof(TB), f_table};
const desc_t D_PART = {sizeof(PA), f_part};
/* the write-method structs of hms_ddl.h (a sample: locks, add requests) */
extern const desc_t D_LCOMP, D_LSHOW_EL;
#define LC hl_hms_lock_component_t
static const fdesc_t f_lcomp[] = {
    {"type", F_I32, O(LC, type), N, 0, 0},
    {"level", F_I32, O(LC, level), N, 0, 0},
    {"dbname", F_STR, O(LC, dbname), N, 0, 0},
    {"tablename", F_STR, O(LC, tablename), N, 0, 0},
    {"partitionname", F_STR, O(LC, partitionname), N, 0, 0},
    {"operationType", F_I32, O(LC, operation_type), O(LC, has_operation_type), 0, 0},
    {"isTransactional", F_BOOL, O(LC, is_transactional), O(LC, has_is_transactional), 0, 0},
    {"isDynamicPartitionWrite", F_BOOL, O(LC, is_dynamic_partition_write),
     O(LC, has_is_dynamic_partition_write), 0, 0},
    {0}};
#define LR hl_hms_lock_request_t
static const fdesc_t f_lreq[] = {
    {"component", F_ARRAY, O(LR, components), N, O(LR, n_components), &D_LCOMP},
    {"txnid", F_I64, O(LR, txnid), O(LR, has_txnid), 0, 0},
    {"user", F_STR, O(LR, user), N, 0, 0},
    {"hostname", F_STR, O(LR, hostname), N, 0, 0},
    {"agentInfo", F_STR, O(LR, agent_info), N, 0, 0},
    {0}};
#define SLE hl_hms_show_locks_element_t
static const fdesc_t f_lshow_el[] = {
    {"lockid", F_I64, O(SLE, lockid), N, 0, 0},
    {"dbname", F_STR, O(SLE, dbname), N, 0, 0},
    {"tablename", F_STR, O(SLE, tablename), N, 0, 0},
    {"partname", F_STR, O(SLE, partname), N, 0, 0},
    {"state", F_I32, O(SLE, state), N, 0, 0},
    {"type", F_I32, O(SLE, type), N, 0, 0},
    {"txnid", F_I64, O(SLE, txnid), O(SLE, has_txnid), 0, 0},
    {"lastheartbeat", F_I64, O(SLE, lastheartbeat), N, 0, 0},
    {"acquiredat", F_I64, O(SLE, acquiredat), O(SLE, has_acquiredat), 0, 0},
    {"user", F_STR, O(SLE, user), N, 0, 0},
    {"hostname", F_STR, O(SLE, hostname), N, 0, 0},
    {"heartbeatCount", F_I32, O(SLE, heartbeat_count), O(SLE, has_heartbeat_count), 0, 0},
    {"agentInfo", F_STR, O(SLE, agent_info), N, 0, 0},
    {0}};
static const fdesc_t f_lshow[] = {{"locks", F_ARRAY, O(hl_hms_show_locks_response_t, locks), N,
                                   O(hl_hms_show_locks_response_t, n_locks), &D_LSHOW_EL},
                                  {0}};
#define APR hl_hms_add_partitions_request_t
static const fdesc_t f_apr[] = {
    {"dbName", F_STR, O(APR, db_name), N, 0, 0},
    {"tblName", F_STR, O(APR, tbl_name), N, 0, 0},
    {"parts", F_ARRAY, O(APR, parts), N, O(APR, n_parts), &D_PART},
    {"ifNotExists", F_BOOL, O(APR, if_not_exists), N, 0, 0},
    {"needResult", F_BOOL, O(APR, need_result), O(APR, has_need_result), 0, 0},
    {"catName", F_STR, O(APR, cat_name), N, 0, 0},
    {0}};
const desc_t D_LCOMP = {sizeof(LC), f_lcomp};
const desc_t D_LREQ = {sizeof(LR), f_lreq};
const desc_t D_LSHOW_EL = {sizeof(SLE), f_lshow_el};
const desc_t D_LSHOW = {sizeof(hl_hms_show_locks_response_t), f_lshow};
const desc_t D_APR = {sizeof(APR), f_apr};

#define AT(p, off, T) ((T *)((char *)(p) + (off)))

static json_t *strlist_json(const hl_hms_strlist_t *l) {
  json_t *a = json_array();
  for (uint32_t i = 0; i < l->n; i++)
    json_array_append_new(a, json_string(l->items[i]));
  return a;
}

static json_t *to_json(const desc_t *d, const void *v) {
  json_t *o = json_object();
  for (const fdesc_t *f = d->f; f->name; f++) {
    if (f->has_off >= 0 && !*AT(v, f->has_off, int)) continue;
    json_t *x = NULL;
    switch (f->kind) {
    case F_STR: {
      char *s = *AT(v, f->off, char *);
      if (s) x = json_string(s);
      break;
    }
    case F_I32:
      x = json_integer(*AT(v, f->off, int32_t));
      break;
    case F_I64:
      x = json_integer(*AT(v, f->off, int64_t));
      break;
    case F_BYTE:
      x = json_integer(*AT(v, f->off, int8_t));
      break;
    case F_BOOL:
      x = json_boolean(*AT(v, f->off, int));
      break;
    case F_LIST:
      x = strlist_json(AT(v, f->off, hl_hms_strlist_t));
      break;
    case F_MAP: {
      hl_hms_strmap_t *m = AT(v, f->off, hl_hms_strmap_t);
      x = json_object();
      for (uint32_t i = 0; i < m->n; i++)
        json_object_set_new(x, m->items[i].key, json_string(m->items[i].value));
      break;
    }
    case F_PTR: {
      void *p = *AT(v, f->off, void *);
      if (p) x = to_json(f->sub, p);
      break;
    }
    case F_ARRAY: {
      char *items = *AT(v, f->off, char *);
      x = json_array();
      for (uint32_t i = 0; i < *AT(v, f->cnt_off, uint32_t); i++)
        json_array_append_new(x, to_json(f->sub, items + i * f->sub->size));
      break;
    }
    case F_SKV: {
      hl_hms_strlist_t *l = *AT(v, f->off, hl_hms_strlist_t *);
      x = json_array();
      for (uint32_t i = 0; i < *AT(v, f->cnt_off, uint32_t); i++)
        json_array_append_new(x, strlist_json(&l[i]));
      break;
    }
    case F_SKL: {
      hl_hms_skewed_location_t *l = *AT(v, f->off, hl_hms_skewed_location_t *);
      x = json_array();
      for (uint32_t i = 0; i < *AT(v, f->cnt_off, uint32_t); i++)
        json_array_append_new(x, json_pack("[os]", strlist_json(&l[i].values), l[i].location));
      break;
    }
    }
    if (x) json_object_set_new(o, f->name, x);
  }
  return o;
}

/* What the tool builds from JSON lives in the arena main destroys. */
static void *xalloc(hl_arena_t *a, size_t n) {
  void *p = hl_arena_zalloc(a, n ? n : 1);
  if (!p) exit(3);
  return p;
}

static char *jstr(hl_arena_t *a, json_t *j) {
  char *s = hl_arena_strdup(a, json_string_value(j) ? json_string_value(j) : "");
  if (!s) exit(3);
  return s;
}

static void strlist_from(hl_arena_t *ar, json_t *a, hl_hms_strlist_t *l) {
  l->n = (uint32_t)json_array_size(a);
  l->items = xalloc(ar, l->n * sizeof(char *));
  for (uint32_t i = 0; i < l->n; i++)
    l->items[i] = jstr(ar, json_array_get(a, i));
}

static void from_json(hl_arena_t *ar, const desc_t *d, json_t *o, void *v) {
  for (const fdesc_t *f = d->f; f->name; f++) {
    json_t *x = json_object_get(o, f->name);
    if (!x || json_is_null(x)) continue;
    if (f->has_off >= 0) *AT(v, f->has_off, int) = 1;
    switch (f->kind) {
    case F_STR:
      *AT(v, f->off, char *) = jstr(ar, x);
      break;
    case F_I32:
      *AT(v, f->off, int32_t) = (int32_t)json_integer_value(x);
      break;
    case F_I64:
      *AT(v, f->off, int64_t) = (int64_t)json_integer_value(x);
      break;
    case F_BYTE:
      *AT(v, f->off, int8_t) = (int8_t)json_integer_value(x);
      break;
    case F_BOOL:
      *AT(v, f->off, int) = json_is_true(x);
      break;
    case F_LIST:
      strlist_from(ar, x, AT(v, f->off, hl_hms_strlist_t));
      break;
    case F_MAP: {
      hl_hms_strmap_t *m = AT(v, f->off, hl_hms_strmap_t);
      const char *k;
      json_t *val;
      m->items = xalloc(ar, json_object_size(x) * sizeof(hl_hms_kv_t));
      json_object_foreach(x, k, val) {
        m->items[m->n].key = hl_arena_strdup(ar, k);
        if (!m->items[m->n].key) exit(3);
        m->items[m->n++].value = jstr(ar, val);
      }
      break;
    }
    case F_PTR: {
      void *p = xalloc(ar, f->sub->size);
      from_json(ar, f->sub, x, p);
      *AT(v, f->off, void *) = p;
      break;
    }
    case F_ARRAY: {
      uint32_t n = (uint32_t)json_array_size(x);
      char *items = xalloc(ar, n * f->sub->size);
      for (uint32_t i = 0; i < n; i++)
        from_json(ar, f->sub, json_array_get(x, i), items + i * f->sub->size);
      *AT(v, f->off, char *) = items;
      *AT(v, f->cnt_off, uint32_t) = n;
      break;
    }
    case F_SKV: {
      uint32_t n = (uint32_t)json_array_size(x);
      hl_hms_strlist_t *l = xalloc(ar, n * sizeof *l);
      for (uint32_t i = 0; i < n; i++)
        strlist_from(ar, json_array_get(x, i), &l[i]);
      *AT(v, f->off, hl_hms_strlist_t *) = l;
      *AT(v, f->cnt_off, uint32_t) = n;
      break;
    }
    case F_SKL: {
      uint32_t n = (uint32_t)json_array_size(x);
      hl_hms_skewed_location_t *l = xalloc(ar, n * sizeof *l);
      for (uint32_t i = 0; i < n; i++) {
        json_t *pair = json_array_get(x, i);
        strlist_from(ar, json_array_get(pair, 0), &l[i].values);
        l[i].location = jstr(ar, json_array_get(pair, 1));
      }
      *AT(v, f->off, hl_hms_skewed_location_t *) = l;
      *AT(v, f->cnt_off, uint32_t) = n;
      break;
    }
    }
  }
}

/* ---- I/O helpers */

static void read_stdin(hl_buf_t *b) {
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
    hl_buf_append(b, chunk, n);
}

/* The document is kept in *HOLD, which main releases. */
static json_t *read_json(json_t **hold) {
  json_error_t je;
  *hold = json_loadf(stdin, 0, &je);
  if (!*hold) {
    fprintf(stderr, "bad json: %s\n", je.text);
    exit(2);
  }
  return *hold;
}

static void print_json(json_t *j) {
  char *s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
  puts(s);
  free(s);
  json_decref(j);
}

static int fail(hl_error_t *err) {
  fprintf(stderr, "%s %s\n", err->sqlstate, err->message ? err->message : "");
  return 1;
}

static int write_out(hl_buf_t *b) {
  hl_error_t err;
  hl_err_init(&err);
  if (hl_tw_check(b, &err)) return fail(&err);
  fwrite(b->data, 1, b->len, stdout);
  return 0;
}

static const desc_t *kind_desc(const char *k) {
  if (!strcmp(k, "table")) return &D_TABLE;
  if (!strcmp(k, "partition")) return &D_PART;
  if (!strcmp(k, "database")) return &D_DB;
  if (!strcmp(k, "lock_request")) return &D_LREQ;
  if (!strcmp(k, "show_locks_response")) return &D_LSHOW;
  if (!strcmp(k, "add_partitions_request")) return &D_APR;
  fprintf(stderr, "unknown kind %s\n", k);
  exit(2);
}

static hl_status_t decode_kind(const desc_t *d, hl_hms_dec_t *dec, void *v) {
  if (d == &D_TABLE) return hl_hms_read_table(dec, v);
  if (d == &D_PART) return hl_hms_read_partition(dec, v);
  if (d == &D_LREQ) return hl_hms_read_lock_request(dec, v);
  if (d == &D_LSHOW) return hl_hms_read_show_locks_response(dec, v);
  if (d == &D_APR) return hl_hms_read_add_partitions_request(dec, v);
  return hl_hms_read_database(dec, v);
}

static void encode_kind(const desc_t *d, hl_buf_t *b, const void *v) {
  if (d == &D_TABLE)
    hl_hms_write_table(b, v);
  else if (d == &D_PART)
    hl_hms_write_partition(b, v);
  else if (d == &D_LREQ)
    hl_hms_write_lock_request(b, v);
  else if (d == &D_LSHOW)
    hl_hms_write_show_locks_response(b, v);
  else if (d == &D_APR)
    hl_hms_write_add_partitions_request(b, v);
  else
    hl_hms_write_database(b, v);
}

/* One command; main owns ARENA, IN, OUT, ERR and the JSON input *HOLD. */
static int run(int argc, char **argv, hl_arena_t *arena, hl_buf_t *in_buf, hl_buf_t *out_buf,
               hl_error_t *errp, json_t **hold) {
  if (argc < 2) {
    fprintf(stderr, "usage: see the header of hms_codec_tool.c\n");
    return 2;
  }
  const char *cmd = argv[1];
  hl_hms_dec_t dec;
#define err (*errp)
#define out (*out_buf)
#define in  (*in_buf)
  if (!strcmp(cmd, "decode") && argc == 3) {
    const desc_t *d = kind_desc(argv[2]);
    read_stdin(&in);
    void *v = xalloc(arena, d->size);
    hl_hms_dec_init(&dec, in.data, in.len, arena, &err);
    if (decode_kind(d, &dec, v)) return fail(&err);
    if (hl_tr_offset(&dec.r) != in.len) fprintf(stderr, "trailing bytes\n");
    print_json(to_json(d, v));
    return hl_tr_offset(&dec.r) != in.len;
  }
  if (!strcmp(cmd, "encode") && argc == 3) {
    const desc_t *d = kind_desc(argv[2]);
    void *v = xalloc(arena, d->size);
    from_json(arena, d, read_json(hold), v);
    encode_kind(d, &out, v);
    return write_out(&out);
  }
  if (!strcmp(cmd, "call-decode") && argc == 2) {
    read_stdin(&in);
    hl_hms_message_t m;
    hl_hms_dec_init(&dec, in.data, in.len, arena, &err);
    if (hl_hms_read_message(&dec, &m)) return fail(&err);
    json_t *o = json_pack("{sssisi}", "name", m.name, "type", (int)m.type, "seqid", (int)m.seqid);
    char *db = NULL, *tbl = NULL;
    int16_t maxp = 0;
    hl_status_t rc;
    if (!strcmp(m.name, "get_all_databases")) {
      rc = hl_hms_read_get_all_databases_args(&dec);
    } else if (!strcmp(m.name, "get_table")) {
      rc = hl_hms_read_get_table_args(&dec, &db, &tbl);
    } else if (!strcmp(m.name, "get_partition_names")) {
      rc = hl_hms_read_get_partition_names_args(&dec, &db, &tbl, &maxp);
      json_object_set_new(o, "max_parts", json_integer(maxp));
    } else {
      fprintf(stderr, "unknown method %s\n", m.name);
      json_decref(o);
      return 2;
    }
    if (rc) {
      json_decref(o);
      return fail(&err);
    }
    if (db) json_object_set_new(o, "db", json_string(db));
    if (tbl) json_object_set_new(o, "tbl", json_string(tbl));
    if (hl_tr_offset(&dec.r) != in.len) {
      fprintf(stderr, "trailing bytes\n");
      json_decref(o);
      return 1;
    }
    print_json(o);
    return 0;
  }
  if (!strcmp(cmd, "call") && argc == 4) {
    const char *method = argv[2];
    int32_t seqid = atoi(argv[3]);
    json_t *j = read_json(hold);
    const char *db = json_string_value(json_object_get(j, "db"));
    const char *tbl = json_string_value(json_object_get(j, "tbl"));
    if (!strcmp(method, "get_all_databases"))
      hl_hms_write_get_all_databases_call(&out, seqid);
    else if (!strcmp(method, "get_table"))
      hl_hms_write_get_table_call(&out, seqid, db, tbl);
    else
      hl_hms_write_get_partition_names_call(
          &out, seqid, db, tbl, (int16_t)json_integer_value(json_object_get(j, "max_parts")));
    return write_out(&out);
  }
  if (!strcmp(cmd, "reply") && argc == 4) {
    const char *method = argv[2];
    int32_t seqid = atoi(argv[3]);
    json_t *j = read_json(hold);
    hl_hms_exception_t exc = {jstr(arena, json_object_get(j, "message"))};
    int16_t exc_id = (int16_t)json_integer_value(json_object_get(j, "exc_id"));
    json_t *s = json_object_get(j, "success");
    if (json_object_get(j, "app_type")) {
      hl_hms_write_app_exception_reply(&out, method, seqid,
                                       (int32_t)json_integer_value(json_object_get(j, "app_type")),
                                       exc.message);
    } else if (!strcmp(method, "get_table")) {
      hl_hms_table_t t = {0};
      if (s) from_json(arena, &D_TABLE, s, &t);
      hl_hms_write_get_table_reply(&out, seqid, &t, exc_id, &exc);
    } else {
      hl_hms_strlist_t l = {0};
      if (s) strlist_from(arena, s, &l);
      if (!strcmp(method, "get_all_databases"))
        hl_hms_write_get_all_databases_reply(&out, seqid, &l, exc_id, &exc);
      else
        hl_hms_write_get_partition_names_reply(&out, seqid, &l, exc_id, &exc);
    }
    return write_out(&out);
  }
  if (!strcmp(cmd, "reply-decode") && argc == 4) {
    const char *method = argv[2];
    int32_t seqid = atoi(argv[3]);
    read_stdin(&in);
    hl_hms_reply_t rep;
    json_t *success = NULL;
    hl_status_t rc;
    hl_hms_dec_init(&dec, in.data, in.len, arena, &err);
    if (!strcmp(method, "get_table")) {
      hl_hms_table_t t;
      rc = hl_hms_read_get_table_reply(&dec, seqid, &t, &rep);
      if (!rc && !rep.app_error && !rep.exc_id) success = to_json(&D_TABLE, &t);
    } else {
      hl_hms_strlist_t l;
      rc = !strcmp(method, "get_all_databases")
               ? hl_hms_read_get_all_databases_reply(&dec, seqid, &l, &rep)
               : hl_hms_read_get_partition_names_reply(&dec, seqid, &l, &rep);
      if (!rc && !rep.app_error && !rep.exc_id) success = strlist_json(&l);
    }
    if (rc) return fail(&err); /* SUCCESS is NULL then */
    json_t *o = json_object();
    if (success) json_object_set_new(o, "success", success);
    if (rep.exc_id) {
      json_object_set_new(o, "exc_id", json_integer(rep.exc_id));
      json_object_set_new(o, "message", json_string(rep.exc.message ? rep.exc.message : ""));
    }
    if (rep.app_error) {
      json_object_set_new(o, "app_type", json_integer(rep.app.type));
      json_object_set_new(o, "message", json_string(rep.app.message ? rep.app.message : ""));
    }
    print_json(o);
    return 0;
  }
  fprintf(stderr, "usage: see the header of hms_codec_tool.c\n");
  return 2;
}
#undef err
#undef out
#undef in

int main(int argc, char **argv) {
  hl_error_t err;
  hl_buf_t in, out;
  json_t *hold = NULL;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return 3;
  hl_err_init(&err);
  hl_buf_init(&in);
  hl_buf_init(&out);
  int rc = run(argc, argv, arena, &in, &out, &err, &hold);
  json_decref(hold);
  hl_buf_fini(&in);
  hl_buf_fini(&out);
  hl_err_clear(&err);
  hl_arena_destroy(arena);
  return rc;
}
