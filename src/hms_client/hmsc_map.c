/*
 * hmsc_map.c -- Hive Metastore structs to catalog records (hmsc_int.h);
 * the other direction is src/hms/hms_map.c, shared with the server.
 */
#include "hms_client/hmsc_int.h"

#include "util/partpath.h"

#include <ctype.h>
#include <string.h>

char *hmsc_location(const char *uri, hl_arena_t *arena) {
  if (!uri || !*uri) return NULL;
  if (strncmp(uri, "file:", 5) == 0) {
    const char *p = uri + 5;
    if (strncmp(p, "///", 3) == 0)
      p += 2; /* file:///p */
    else if (strncmp(p, "//", 2) == 0)
      return hl_arena_strdup(arena, uri); /* a host */
    if (*p == '/') return hl_arena_strdup(arena, p);
  }
  return hl_arena_strdup(arena, uri);
}

static char *lower(const char *s, hl_arena_t *arena) {
  if (!s) return NULL;
  char *d = hl_arena_strdup(arena, s);
  if (d)
    for (char *p = d; *p; p++)
      *p = (char)tolower((unsigned char)*p);
  return d;
}

static int map_kvs(const hl_hms_strmap_t *m, hl_kv_t **out, int *n, hl_arena_t *arena) {
  *n = (int)m->n;
  *out = NULL;
  if (!m->n) return 0;
  if (!(*out = hl_arena_zalloc(arena, sizeof **out * m->n))) return -1;
  for (uint32_t i = 0; i < m->n; i++) {
    (*out)[i].key = m->items[i].key;
    (*out)[i].value = m->items[i].value;
  }
  return 0;
}

static int map_cols(const hl_hms_field_schema_t *f, uint32_t n, hl_cat_column_t **out, int *n_out,
                    hl_arena_t *arena) {
  *n_out = (int)n;
  *out = NULL;
  if (!n) return 0;
  if (!(*out = hl_arena_zalloc(arena, sizeof **out * n))) return -1;
  for (uint32_t i = 0; i < n; i++) {
    (*out)[i].name = lower(f[i].name ? f[i].name : "", arena);
    (*out)[i].type = lower(f[i].type ? f[i].type : "string", arena);
    (*out)[i].comment = f[i].comment;
    if (!(*out)[i].name || !(*out)[i].type) return -1;
  }
  return 0;
}

/* The storage fields of SD into S (pointers into the decoded reply). */
static int map_sd(const hl_hms_sd_t *sd, hl_cat_sd_t *s, hl_arena_t *arena) {
  memset(s, 0, sizeof *s);
  s->num_buckets = -1;
  if (!sd) return 0;
  s->input_format = sd->input_format;
  s->output_format = sd->output_format;
  if (sd->serde_info) {
    s->serde_lib = sd->serde_info->serialization_lib;
    if (map_kvs(&sd->serde_info->parameters, &s->serde_params, &s->n_serde_params, arena))
      return -1;
  }
  if (map_cols(sd->cols, sd->n_cols, &s->cols, &s->n_cols, arena)) return -1;
  s->num_buckets = sd->num_buckets > 0 ? sd->num_buckets : -1;
  if (sd->bucket_cols.n) {
    s->n_bucket_cols = (int)sd->bucket_cols.n;
    if (!(s->bucket_cols = hl_arena_zalloc(arena, sizeof(char *) * sd->bucket_cols.n))) return -1;
    for (uint32_t i = 0; i < sd->bucket_cols.n; i++)
      if (!(s->bucket_cols[i] = lower(sd->bucket_cols.items[i], arena))) return -1;
  }
  if (sd->n_sort_cols) {
    s->n_sort_cols = (int)sd->n_sort_cols;
    if (!(s->sort_cols = hl_arena_zalloc(arena, sizeof *s->sort_cols * sd->n_sort_cols))) return -1;
    for (uint32_t i = 0; i < sd->n_sort_cols; i++) {
      s->sort_cols[i].name = lower(sd->sort_cols[i].col ? sd->sort_cols[i].col : "", arena);
      s->sort_cols[i].ascending = sd->sort_cols[i].order != 0;
    }
  }
  return 0;
}

hl_cat_db_t *hmsc_db_from(const hl_hms_database_t *d, hl_arena_t *arena) {
  hl_cat_db_t *c = hl_arena_zalloc(arena, sizeof *c);
  if (!c || !(c->name = lower(d->name ? d->name : "", arena))) return NULL;
  c->comment = d->description && *d->description ? d->description : NULL;
  c->location = hmsc_location(d->location_uri, arena);
  c->owner = d->owner_name;
  if (map_kvs(&d->parameters, &c->params, &c->n_params, arena)) return NULL;
  return c;
}

hl_cat_table_t *hmsc_table_from(const hl_hms_table_t *t, int64_t id, hl_arena_t *arena) {
  hl_cat_table_t *c = hl_arena_zalloc(arena, sizeof *c);
  if (!c) return NULL;
  c->id = id;
  if (!(c->db_name = lower(t->db_name ? t->db_name : "", arena)) ||
      !(c->name = lower(t->table_name ? t->table_name : "", arena)))
    return NULL;
  if (map_kvs(&t->parameters, &c->params, &c->n_params, arena)) return NULL;
  const char *type = t->table_type ? t->table_type : "";
  const char *ext = hl_kv_get(c->params, c->n_params, "EXTERNAL");
  c->view = strcmp(type, "VIRTUAL_VIEW") == 0 || strcmp(type, "MATERIALIZED_VIEW") == 0;
  c->external =
      !c->view && (strcmp(type, "EXTERNAL_TABLE") == 0 || (ext && strcasecmp(ext, "TRUE") == 0));
  c->owner = t->owner;
  c->create_time = t->create_time;
  hl_cat_sd_t s;
  if (map_sd(t->sd, &s, arena)) return NULL;
  c->location = c->view || !t->sd ? NULL : hmsc_location(t->sd->location, arena);
  c->input_format = s.input_format;
  c->output_format = s.output_format;
  c->serde_lib = s.serde_lib;
  c->serde_params = s.serde_params;
  c->n_serde_params = s.n_serde_params;
  c->cols = s.cols;
  c->n_cols = s.n_cols;
  c->num_buckets = s.num_buckets;
  c->bucket_cols = s.bucket_cols;
  c->n_bucket_cols = s.n_bucket_cols;
  c->sort_cols = s.sort_cols;
  c->n_sort_cols = s.n_sort_cols;
  if (map_cols(t->partition_keys, t->n_partition_keys, &c->part_keys, &c->n_part_keys, arena))
    return NULL;
  c->view_original_text = c->view ? t->view_original_text : NULL;
  c->view_expanded_text = c->view ? t->view_expanded_text : NULL;
  return c;
}

char *hmsc_partition_name(const hl_cat_table_t *table, char *const *values, hl_arena_t *arena) {
  const char *keys[table->n_part_keys > 0 ? table->n_part_keys : 1];
  for (int k = 0; k < table->n_part_keys; k++)
    keys[k] = table->part_keys[k].name;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_partpath_name(&b, table->n_part_keys, keys, (const char *const *)values,
                   HL_DEFAULT_PARTITION_NAME);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, b.data ? b.data : "", b.len);
  hl_buf_fini(&b);
  return out;
}

hl_cat_partition_t *hmsc_partition_from(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                        int64_t id, hl_arena_t *arena) {
  if ((int)p->values.n != table->n_part_keys) return NULL;
  hl_cat_partition_t *c = hl_arena_zalloc(arena, sizeof *c);
  hl_cat_sd_t *sd = hl_arena_zalloc(arena, sizeof *sd);
  if (!c || !sd) return NULL;
  c->id = id;
  c->table_id = table->id;
  c->n_values = table->n_part_keys;
  if (!(c->values = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(c->n_values + 1))))
    return NULL;
  for (int k = 0; k < c->n_values; k++) {
    const char *v = p->values.items[k];
    c->values[k] = !v || strcmp(v, HL_DEFAULT_PARTITION_NAME) == 0 ? NULL : (char *)v;
  }
  if (!(c->name = hmsc_partition_name(table, c->values, arena))) return NULL;
  c->location = p->sd ? hmsc_location(p->sd->location, arena) : NULL;
  if (map_kvs(&p->parameters, &c->params, &c->n_params, arena)) return NULL;
  c->create_time = p->create_time;
  if (p->sd) {
    if (map_sd(p->sd, sd, arena)) return NULL;
  } else {
    *sd = hl_cat_table_sd(table);
  }
  c->sd = sd;
  return c;
}

int hmsc_parse_name(const char *name, int n, char **values, hl_arena_t *arena) {
  const char *p = name;
  hl_buf_t b;
  hl_buf_init(&b);
  int k = 0, rc = 0;
  while (k < n) {
    const char *eq = strchr(p, '=');
    if (!eq) break;
    const char *end = strchr(eq + 1, '/');
    size_t len = end ? (size_t)(end - eq - 1) : strlen(eq + 1);
    if (len == strlen(HL_DEFAULT_PARTITION_NAME) &&
        strncmp(eq + 1, HL_DEFAULT_PARTITION_NAME, len) == 0) {
      values[k] = NULL;
    } else {
      hl_buf_reset(&b);
      hl_partpath_unescape(&b, eq + 1, len);
      if (b.oom || !(values[k] = hl_arena_strndup(arena, b.data ? b.data : "", b.len))) {
        rc = -1;
        break;
      }
    }
    k++;
    if (!end) break;
    p = end + 1;
    if (k == n) rc = -1; /* more keys than the table has */
  }
  hl_buf_fini(&b);
  if (rc || k != n) return -1;
  return 0;
}
