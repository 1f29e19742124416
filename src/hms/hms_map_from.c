/*
 * hms_map_from.c -- Hive Metastore structs to catalog records (hms_map_from.h),
 * for the server (HL_HMS_UNMAP_CHECK) and the client (0).  Checked, types
 * go through util/type.h's parser, partition values through util/value.h's
 * text conversion, names through the rule of hivelite's DDL, so a table
 * made through the metastore is one hivelite's SQL could have made;
 * unchecked, what a metastore holds is kept as it is.
 */
#include "hms/hms_map_from.h"

#include "util/partpath.h"
#include "util/uri.h"
#include "util/strbuf.h"
#include "util/type.h"
#include "util/value.h"

#include <string.h>
#include <strings.h>
#include <time.h>

#define BAD(err, state, ...) hl_err_set((err), HL_ERROR, HL_SS(state), __VA_ARGS__)
#define CHECK(flags)         (((flags)&HL_HMS_UNMAP_CHECK) != 0)

static char *lower(hl_arena_t *arena, const char *s) {
  char *d = s ? hl_arena_strdup(arena, s) : NULL;
  for (char *p = d; p && *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  return d;
}

hl_status_t hl_hms_check_name(const char *kind, const char *name, hl_error_t *err) {
  if (!name || !*name) return BAD(err, INVALID_NAME, "%s name is empty", kind);
  for (const char *p = name; *p; p++)
    if (*p == '/' || *p == '.' || (unsigned char)*p < 0x20 || *p == 0x7f)
      return BAD(err, INVALID_NAME, "%s name \"%s\" holds '%c' (not allowed in a %s name)", kind,
                 name, (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, kind);
  return HL_OK;
}

/* A location as a metastore keeps it: "file:/p", "file:///p" become "/p";
 * other URIs (hdfs://, s3://, file://host/) stay as given. */
static char *keep_location(const char *uri, hl_arena_t *arena) {
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

hl_status_t hl_hms_unmap_location(const char *uri, unsigned flags, hl_arena_t *arena, char **out,
                                  hl_error_t *err) {
  *out = NULL;
  if (!uri || !*uri) return HL_OK;
  if (!CHECK(flags)) return (*out = keep_location(uri, arena)) ? HL_OK : hl_err_nomem(err);
  const char *p = uri;
  /* an object store's URI: its root ("s3a://bucket") as written, the rest
   * normalised below like a path */
  size_t root = hl_uri_object_root(uri);
  if (root) p = uri + root;
  if (root && *p == '\0') return (*out = hl_arena_strdup(arena, uri)) ? HL_OK : hl_err_nomem(err);
  if (root) {
  } else if (strncasecmp(p, "file:", 5) == 0) {
    p += 5;
    if (strncmp(p, "//", 2) == 0) { /* file://authority/path */
      p += 2;
      if (strncasecmp(p, "localhost", 9) == 0) p += 9;
      if (*p != '/')
        return BAD(err, FEATURE_NOT_SUPPORTED,
                   "location \"%s\": a file: URI must name a local path", uri);
    }
  } else if (*p != '/') {
    return BAD(err, FEATURE_NOT_SUPPORTED,
               "location \"%s\": hivelite stores only local paths (file: URIs or absolute "
               "paths) and S3 locations (s3://, s3a://, s3n://) so far",
               uri);
  }
  if (*p != '/') return BAD(err, FEATURE_NOT_SUPPORTED, "location \"%s\" is not absolute", uri);
  hl_buf_t b;
  hl_buf_init(&b);
  while (*p) {
    while (*p == '/')
      p++;
    if (!*p) break;
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
      hl_buf_fini(&b);
      return BAD(err, INVALID_PARAMETER_VALUE, "location \"%s\" holds a \".\" or \"..\" component",
                 uri);
    }
    hl_buf_append(&b, "/", 1);
    hl_buf_append(&b, p, n);
    p += n;
  }
  if (b.len == 0 && !root) hl_buf_append(&b, "/", 1);
  *out = b.oom  ? NULL
         : root ? hl_arena_sprintf(arena, "%.*s%s", (int)root, uri, hl_buf_cstr(&b))
                : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return *out ? HL_OK : hl_err_nomem(err);
}

/* Map M as parameters; checked, the key SKIP is left out and a key sent
 * twice is stored once. */
static hl_status_t unmap_kvs(const hl_hms_strmap_t *m, const char *skip, unsigned flags,
                             hl_arena_t *arena, hl_kv_t **out, int *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  if (!m->n) return HL_OK;
  if (!(*out = hl_arena_zalloc(arena, sizeof **out * m->n))) return hl_err_nomem(err);
  if (!CHECK(flags)) { /* as the metastore holds them */
    for (uint32_t i = 0; i < m->n; i++) {
      (*out)[i].key = m->items[i].key;
      (*out)[i].value = m->items[i].value;
    }
    *n = (int)m->n;
    return HL_OK;
  }
  for (uint32_t i = 0; i < m->n; i++) {
    if (skip && strcmp(m->items[i].key, skip) == 0) continue;
    int j = 0; /* a key sent twice: the last one wins, as in a Java map */
    while (j < *n && strcmp((*out)[j].key, m->items[i].key) != 0)
      j++;
    (*out)[j].key = m->items[i].key;
    (*out)[j].value = m->items[i].value;
    if (j == *n) (*n)++;
  }
  return HL_OK;
}

/* Columns F[0..n), names lower-cased.  Checked: names given and unique
 * (also against PRIOR[0..n_prior)), types parsed and written canonically;
 * unchecked: types lower-cased ("string" when missing). */
static hl_status_t unmap_cols(const hl_hms_field_schema_t *f, uint32_t n,
                              const hl_cat_column_t *prior, int n_prior, int part_keys,
                              unsigned flags, hl_arena_t *arena, hl_cat_column_t **out,
                              hl_error_t *err) {
  *out = NULL;
  if (!n) return HL_OK;
  hl_cat_column_t *c = hl_arena_zalloc(arena, sizeof *c * n);
  if (!c) return hl_err_nomem(err);
  for (uint32_t i = 0; i < n; i++) {
    c[i].comment = f[i].comment;
    if (!CHECK(flags)) {
      c[i].name = lower(arena, f[i].name ? f[i].name : "");
      c[i].type = lower(arena, f[i].type ? f[i].type : "string");
      if (!c[i].name || !c[i].type) return hl_err_nomem(err);
      continue;
    }
    if (!f[i].name || !*f[i].name) return BAD(err, INVALID_NAME, "column %u has no name", i + 1);
    if (!f[i].type || !*f[i].type)
      return BAD(err, INVALID_COLUMN_DEFINITION, "column \"%s\" has no type", f[i].name);
    if (!(c[i].name = lower(arena, f[i].name))) return hl_err_nomem(err);
    for (uint32_t j = 0; j < i; j++)
      if (strcmp(c[j].name, c[i].name) == 0)
        return BAD(err, DUPLICATE_COLUMN, "column \"%s\" is given more than once", c[i].name);
    for (int j = 0; j < n_prior; j++)
      if (strcmp(prior[j].name, c[i].name) == 0)
        return BAD(err, DUPLICATE_COLUMN, "partition column \"%s\" is also a data column",
                   c[i].name);
    hl_type_t *t;
    hl_error_t te;
    hl_err_init(&te);
    if (hl_type_parse_str(arena, f[i].type, &t, &te) != HL_OK) {
      hl_status_t rc =
          te.code == HL_NOMEM
              ? hl_err_nomem(err)
              : hl_err_set(err, HL_ERROR, te.sqlstate, "column \"%s\": type \"%s\": %s", c[i].name,
                           f[i].type, te.message ? te.message : "invalid");
      hl_err_clear(&te);
      return rc;
    }
    if (t->id == HL_T_NULL || (part_keys && hl_type_is_complex(t)))
      return BAD(err, INVALID_COLUMN_DEFINITION, "%s \"%s\" cannot be of type %s",
                 part_keys ? "partition column" : "column", c[i].name, f[i].type);
    if (!(c[i].type = hl_type_to_string(arena, t))) return hl_err_nomem(err);
  }
  *out = c;
  return HL_OK;
}

hl_status_t hl_hms_unmap_sd(const hl_hms_sd_t *s, unsigned flags, hl_arena_t *arena,
                            hl_cat_sd_t *out, char **location, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  out->num_buckets = -1;
  if (location) *location = NULL;
  if (!s) return HL_OK;
  hl_status_t rc = unmap_cols(s->cols, s->n_cols, NULL, 0, 0, flags, arena, &out->cols, err);
  if (rc) return rc;
  out->n_cols = (int)s->n_cols;
  if (location && (rc = hl_hms_unmap_location(s->location, flags, arena, location, err))) return rc;
  out->input_format = s->input_format;
  out->output_format = s->output_format;
  if (s->serde_info) {
    out->serde_lib = s->serde_info->serialization_lib;
    rc = unmap_kvs(&s->serde_info->parameters, NULL, flags, arena, &out->serde_params,
                   &out->n_serde_params, err);
    if (rc) return rc;
  }
  out->num_buckets = s->num_buckets > 0 ? s->num_buckets : -1;
  if (s->bucket_cols.n) {
    if (CHECK(flags) && out->num_buckets < 0)
      return BAD(err, INVALID_TABLE_DEFINITION, "bucket columns are given without a bucket count");
    if (!(out->bucket_cols = hl_arena_zalloc(arena, sizeof(char *) * s->bucket_cols.n)))
      return hl_err_nomem(err);
    for (uint32_t i = 0; i < s->bucket_cols.n; i++) {
      int found = 0;
      if (!(out->bucket_cols[i] = lower(arena, s->bucket_cols.items[i]))) return hl_err_nomem(err);
      for (int j = 0; j < out->n_cols && !found; j++)
        found = strcmp(out->cols[j].name, out->bucket_cols[i]) == 0;
      if (!found && CHECK(flags))
        return BAD(err, INVALID_TABLE_DEFINITION, "bucket column \"%s\" is not a column",
                   out->bucket_cols[i]);
    }
    out->n_bucket_cols = (int)s->bucket_cols.n;
  }
  if (s->n_sort_cols) {
    if (!(out->sort_cols = hl_arena_zalloc(arena, sizeof *out->sort_cols * s->n_sort_cols)))
      return hl_err_nomem(err);
    for (uint32_t i = 0; i < s->n_sort_cols; i++) {
      int found = 0;
      if (!(out->sort_cols[i].name = lower(arena, s->sort_cols[i].col ? s->sort_cols[i].col : "")))
        return hl_err_nomem(err);
      for (int j = 0; j < out->n_cols && !found; j++)
        found = strcmp(out->cols[j].name, out->sort_cols[i].name) == 0;
      if (!found && CHECK(flags))
        return BAD(err, INVALID_TABLE_DEFINITION, "sort column \"%s\" is not a column",
                   out->sort_cols[i].name);
      out->sort_cols[i].ascending = s->sort_cols[i].order != 0;
    }
    out->n_sort_cols = (int)s->n_sort_cols;
  }
  return HL_OK;
}

hl_status_t hl_hms_unmap_database(const hl_hms_database_t *d, unsigned flags, hl_arena_t *arena,
                                  hl_cat_db_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  hl_status_t rc = CHECK(flags) ? hl_hms_check_name("database", d->name, err) : HL_OK;
  if (rc) return rc;
  if (!(out->name = lower(arena, d->name ? d->name : ""))) return hl_err_nomem(err);
  out->comment = d->description && *d->description ? d->description : NULL;
  out->owner = d->owner_name;
  if ((rc = hl_hms_unmap_location(d->location_uri, flags, arena, &out->location, err))) return rc;
  return unmap_kvs(&d->parameters, NULL, flags, arena, &out->params, &out->n_params, err);
}

hl_status_t hl_hms_unmap_table(const hl_hms_table_t *t, unsigned flags, hl_arena_t *arena,
                               hl_cat_table_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  bool check = CHECK(flags);
  hl_status_t rc = check ? hl_hms_check_name("table", t->table_name, err) : HL_OK;
  if (!rc && check) rc = hl_hms_check_name("database", t->db_name, err);
  if (rc) return rc;
  out->name = lower(arena, t->table_name ? t->table_name : "");
  out->db_name = lower(arena, t->db_name ? t->db_name : "");
  if (!out->name || !out->db_name) return hl_err_nomem(err);
  const char *type = t->table_type ? t->table_type : "MANAGED_TABLE";
  const char *ext =
      hl_kv_get((const hl_kv_t *)t->parameters.items, (int)t->parameters.n, "EXTERNAL");
  if (strcmp(type, "VIRTUAL_VIEW") == 0 || (!check && strcmp(type, "MATERIALIZED_VIEW") == 0)) {
    out->view = true;
  } else if (strcmp(type, "EXTERNAL_TABLE") == 0) {
    out->external = true;
  } else if (check && strcmp(type, "MANAGED_TABLE") != 0) {
    return BAD(err, INVALID_TABLE_DEFINITION,
               "table type \"%s\" is not one hivelite has (MANAGED_TABLE, EXTERNAL_TABLE, "
               "VIRTUAL_VIEW)",
               type);
  }
  if (ext && strcasecmp(ext, "TRUE") == 0 && !out->view) out->external = true;
  hl_cat_sd_t sd;
  if ((rc = hl_hms_unmap_sd(t->sd, flags, arena, &sd, out->view ? NULL : &out->location, err)))
    return rc;
  *out = hl_cat_table_with_sd(out, &sd);
  if (check && out->view && t->n_partition_keys)
    return BAD(err, INVALID_TABLE_DEFINITION, "a view has no partition columns");
  rc = unmap_cols(t->partition_keys, t->n_partition_keys, out->cols, out->n_cols, 1, flags, arena,
                  &out->part_keys, err);
  if (rc) return rc;
  out->n_part_keys = (int)t->n_partition_keys;
  /* hivelite keeps external-ness in the record; a metastore's EXTERNAL
   * parameter is its own and stays */
  rc = unmap_kvs(&t->parameters, "EXTERNAL", flags, arena, &out->params, &out->n_params, err);
  if (rc) return rc;
  out->owner = t->owner;
  out->create_time = t->create_time > 0 || !check ? t->create_time : (int64_t)time(NULL);
  if (out->view) {
    if (check && (!t->view_original_text || !t->view_expanded_text))
      return BAD(err, INVALID_TABLE_DEFINITION, "a view needs its original and expanded text");
    out->view_original_text = t->view_original_text;
    out->view_expanded_text = t->view_expanded_text;
  }
  return HL_OK;
}

hl_status_t hl_hms_unmap_part_values(const hl_cat_table_t *table, char *const *values, uint32_t n,
                                     hl_arena_t *arena, char ***out, char **name, hl_error_t *err) {
  if (table->n_part_keys == 0)
    return BAD(err, INVALID_PARAMETER_VALUE, "table \"%s.%s\" is not partitioned", table->db_name,
               table->name);
  if (n != (uint32_t)table->n_part_keys)
    return BAD(err, INVALID_PARAMETER_VALUE,
               "table \"%s.%s\" has %d partition columns, %u values were given", table->db_name,
               table->name, table->n_part_keys, n);
  char **v = hl_arena_zalloc(arena, sizeof(char *) * (n + 1));
  if (!v) return hl_err_nomem(err);
  for (uint32_t i = 0; i < n; i++) {
    const char *text = values[i];
    if (!text || !*text || strcmp(text, HL_DEFAULT_PARTITION_NAME) == 0) continue;
    hl_type_t *type;
    hl_value_t val;
    hl_error_t ve;
    hl_err_init(&ve);
    hl_status_t rc = hl_type_parse_str(arena, table->part_keys[i].type, &type, &ve);
    if (rc == HL_OK) rc = hl_value_from_text(arena, type, text, strlen(text), &val, &ve);
    if (rc != HL_OK) {
      rc = rc == HL_NOMEM
               ? hl_err_nomem(err)
               : hl_err_set(err, HL_ERROR, ve.sqlstate,
                            "invalid value \"%s\" for partition column \"%s\" of type %s", text,
                            table->part_keys[i].name, table->part_keys[i].type);
      hl_err_clear(&ve);
      return rc;
    }
    hl_buf_t b;
    hl_buf_init(&b);
    hl_value_format(&b, type, &val);
    v[i] = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    if (!v[i]) return hl_err_nomem(err);
  }
  if (!(*name = hl_hms_part_name(table, v, arena))) return hl_err_nomem(err);
  *out = v;
  return HL_OK;
}

hl_status_t hl_hms_unmap_part_name(const hl_cat_table_t *table, const char *name, hl_arena_t *arena,
                                   char ***values, hl_error_t *err) {
  int n = table->n_part_keys;
  char **v = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(n ? n : 1));
  if (!v) return hl_err_nomem(err);
  const char *p = name ? name : "";
  for (int i = 0; i < n; i++) {
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    const char *eq = memchr(p, '=', len);
    if (!eq || (size_t)(eq - p) != strlen(table->part_keys[i].name) ||
        strncasecmp(p, table->part_keys[i].name, (size_t)(eq - p)) != 0 || (i + 1 < n && !e) ||
        (i + 1 == n && e))
      return BAD(err, INVALID_PARAMETER_VALUE,
                 "partition name \"%s\" does not name the partition columns of \"%s.%s\"", name,
                 table->db_name, table->name);
    hl_buf_t b;
    hl_buf_init(&b);
    hl_partpath_unescape(&b, eq + 1, len - (size_t)(eq + 1 - p));
    v[i] = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    if (!v[i]) return hl_err_nomem(err);
    p = e ? e + 1 : p + len;
  }
  *values = v;
  return HL_OK;
}

char *hl_hms_part_name(const hl_cat_table_t *table, char *const *values, hl_arena_t *arena) {
  const char *keys[table->n_part_keys > 0 ? table->n_part_keys : 1];
  for (int k = 0; k < table->n_part_keys; k++)
    keys[k] = table->part_keys[k].name;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_partpath_name(&b, table->n_part_keys, keys, (const char *const *)values,
                   HL_DEFAULT_PARTITION_NAME);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* A metastore's values as it holds them: only the default partition's
 * name is NULL. */
static hl_status_t keep_part_values(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                    hl_arena_t *arena, hl_cat_partition_t *out, hl_error_t *err) {
  if ((int)p->values.n != table->n_part_keys)
    return BAD(err, INVALID_PARAMETER_VALUE, "a partition of \"%s.%s\" without %d values",
               table->db_name, table->name, table->n_part_keys);
  if (!(out->values = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(table->n_part_keys + 1))))
    return hl_err_nomem(err);
  for (int k = 0; k < table->n_part_keys; k++) {
    const char *v = p->values.items[k];
    out->values[k] = !v || strcmp(v, HL_DEFAULT_PARTITION_NAME) == 0 ? NULL : (char *)v;
  }
  return (out->name = hl_hms_part_name(table, out->values, arena)) ? HL_OK : hl_err_nomem(err);
}

hl_status_t hl_hms_unmap_partition(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                   unsigned flags, hl_arena_t *arena, hl_cat_partition_t *out,
                                   hl_error_t *err) {
  memset(out, 0, sizeof *out);
  bool check = CHECK(flags);
  out->table_id = table->id;
  hl_status_t rc = check ? hl_hms_unmap_part_values(table, p->values.items, p->values.n, arena,
                                                    &out->values, &out->name, err)
                         : keep_part_values(table, p, arena, out, err);
  if (rc) return rc;
  out->n_values = table->n_part_keys;
  char *loc = NULL;
  hl_cat_sd_t *sd = hl_arena_zalloc(arena, sizeof *sd);
  if (!sd) return hl_err_nomem(err);
  if (p->sd) {
    if ((rc = hl_hms_unmap_sd(p->sd, flags, arena, sd, &loc, err))) return rc;
    /* a descriptor without columns is a client's placeholder: the
     * partition takes its table's, as Hive copies it */
    if (sd->n_cols || !check) out->sd = sd;
  } else if (!check) {
    *sd = hl_cat_table_sd(table); /* the reader finds every partition's own */
    out->sd = sd;
  }
  out->location = loc;
  if (!loc && check &&
      !(out->location = hl_arena_sprintf(arena, "%s/%s", table->location, out->name)))
    return hl_err_nomem(err);
  out->create_time = p->create_time > 0 || !check ? p->create_time : (int64_t)time(NULL);
  return unmap_kvs(&p->parameters, NULL, flags, arena, &out->params, &out->n_params, err);
}
