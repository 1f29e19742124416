/*
 * hms_map.c -- catalog records to Hive Metastore structs (hms_map.h).
 */
#include "hms/hms_map.h"

#include "util/partpath.h"

#include <string.h>

char *hl_hms_map_location(const char *loc, hl_arena_t *arena) {
  if (!loc) return NULL;
  if (loc[0] != '/') return hl_arena_strdup(arena, loc); /* already a URI */
  return hl_arena_sprintf(arena, "file:%s", loc);
}

static int map_kvs(const hl_kv_t *kv, int n, hl_hms_strmap_t *out, hl_arena_t *arena) {
  out->n = (uint32_t)n;
  out->items = NULL;
  if (n == 0) return 0;
  if (!(out->items = hl_arena_zalloc(arena, sizeof *out->items * (size_t)n))) return -1;
  for (int i = 0; i < n; i++) {
    out->items[i].key = kv[i].key;
    out->items[i].value = kv[i].value ? kv[i].value : "";
  }
  return 0;
}

static hl_hms_field_schema_t *map_cols(const hl_cat_column_t *c, int n, hl_arena_t *arena) {
  if (n == 0) return NULL;
  hl_hms_field_schema_t *f = hl_arena_zalloc(arena, sizeof *f * (size_t)n);
  if (!f) return NULL;
  for (int i = 0; i < n; i++) {
    f[i].name = c[i].name;
    f[i].type = c[i].type;
    f[i].comment = c[i].comment;
  }
  return f;
}

/* A descriptor as Hive fills one: skewedInfo empty and
 * storedAsSubDirectories false are always set by Hive's metastore. */
static hl_hms_sd_t *map_sd(const hl_cat_sd_t *s, const char *location, hl_arena_t *arena) {
  hl_hms_sd_t *sd = hl_arena_zalloc(arena, sizeof *sd);
  hl_hms_serde_info_t *serde = hl_arena_zalloc(arena, sizeof *serde);
  hl_hms_skewed_info_t *skew = hl_arena_zalloc(arena, sizeof *skew);
  if (!sd || !serde || !skew) return NULL;
  sd->n_cols = (uint32_t)s->n_cols;
  if (s->n_cols && !(sd->cols = map_cols(s->cols, s->n_cols, arena))) return NULL;
  sd->location = hl_hms_map_location(location, arena);
  if (location && !sd->location) return NULL;
  sd->input_format = s->input_format;
  sd->output_format = s->output_format;
  sd->num_buckets = s->num_buckets;
  serde->serialization_lib = s->serde_lib;
  if (map_kvs(s->serde_params, s->n_serde_params, &serde->parameters, arena)) return NULL;
  sd->serde_info = serde;
  sd->bucket_cols.n = (uint32_t)s->n_bucket_cols;
  sd->bucket_cols.items = s->bucket_cols;
  if (s->n_sort_cols) {
    sd->n_sort_cols = (uint32_t)s->n_sort_cols;
    if (!(sd->sort_cols = hl_arena_zalloc(arena, sizeof *sd->sort_cols * (size_t)s->n_sort_cols)))
      return NULL;
    for (int i = 0; i < s->n_sort_cols; i++) {
      sd->sort_cols[i].col = s->sort_cols[i].name;
      sd->sort_cols[i].order = s->sort_cols[i].ascending ? 1 : 0;
    }
  }
  sd->skewed_info = skew;
  sd->has_stored_as_sub_directories = 1;
  return sd;
}

hl_hms_database_t *hl_hms_map_database(const hl_cat_db_t *db, hl_arena_t *arena) {
  hl_hms_database_t *d = hl_arena_zalloc(arena, sizeof *d);
  if (!d) return NULL;
  d->name = db->name;
  d->description = db->comment;
  if (!(d->location_uri = hl_hms_map_location(db->location, arena)) && db->location) return NULL;
  if (map_kvs(db->params, db->n_params, &d->parameters, arena)) return NULL;
  if (db->owner) {
    d->owner_name = db->owner;
    d->has_owner_type = 1;
    d->owner_type = 1; /* USER */
  }
  d->catalog_name = HL_HMS_CATALOG;
  return d;
}

hl_hms_table_t *hl_hms_map_table(const hl_cat_table_t *t, hl_arena_t *arena) {
  hl_hms_table_t *h = hl_arena_zalloc(arena, sizeof *h);
  if (!h) return NULL;
  hl_cat_sd_t s = hl_cat_table_sd(t);
  h->table_name = t->name;
  h->db_name = t->db_name;
  h->owner = t->owner;
  h->create_time = (int32_t)t->create_time;
  if (!(h->sd = map_sd(&s, t->view ? NULL : t->location, arena))) return NULL;
  h->n_partition_keys = (uint32_t)t->n_part_keys;
  if (t->n_part_keys && !(h->partition_keys = map_cols(t->part_keys, t->n_part_keys, arena)))
    return NULL;
  if (map_kvs(t->params, t->n_params, &h->parameters, arena)) return NULL;
  if (t->external && !hl_kv_get(t->params, t->n_params, "EXTERNAL")) {
    /* Hive keeps EXTERNAL=TRUE among an external table's parameters, and
     * clients (Hive's own among them) test it rather than tableType */
    hl_hms_kv_t *kv = hl_arena_alloc(arena, sizeof *kv * (h->parameters.n + 1));
    if (!kv) return NULL;
    if (h->parameters.n) memcpy(kv, h->parameters.items, sizeof *kv * h->parameters.n);
    kv[h->parameters.n].key = "EXTERNAL";
    kv[h->parameters.n].value = "TRUE";
    h->parameters.items = kv;
    h->parameters.n++;
  }
  h->view_original_text = t->view_original_text;
  h->view_expanded_text = t->view_expanded_text;
  h->table_type = t->view ? "VIRTUAL_VIEW" : t->external ? "EXTERNAL_TABLE" : "MANAGED_TABLE";
  h->has_temporary = 1; /* Hive's metastore sets both */
  h->has_rewrite_enabled = 1;
  h->cat_name = HL_HMS_CATALOG;
  if (t->owner) {
    h->has_owner_type = 1;
    h->owner_type = 1; /* USER */
  }
  h->has_id = 1;
  h->id = t->id;
  return h;
}

hl_hms_partition_t *hl_hms_map_partition(const hl_cat_table_t *t, const hl_cat_partition_t *p,
                                         hl_arena_t *arena) {
  hl_hms_partition_t *h = hl_arena_zalloc(arena, sizeof *h);
  if (!h) return NULL;
  h->values.n = (uint32_t)p->n_values;
  if (p->n_values && !(h->values.items = hl_arena_zalloc(arena, sizeof(char *) * p->n_values)))
    return NULL;
  for (int i = 0; i < p->n_values; i++)
    h->values.items[i] = p->values[i] ? p->values[i] : HL_DEFAULT_PARTITION_NAME;
  h->db_name = t->db_name;
  h->table_name = t->name;
  h->create_time = (int32_t)p->create_time;
  hl_cat_sd_t own = hl_cat_table_sd(t);
  if (!(h->sd = map_sd(p->sd ? p->sd : &own, p->location, arena))) return NULL;
  if (map_kvs(p->params, p->n_params, &h->parameters, arena)) return NULL;
  h->cat_name = HL_HMS_CATALOG;
  return h;
}
