/*
 * table.c -- catalog tables resolved for planning and commands (see
 * table.h).
 */
#include "plan/table.h"

#include "session/s3conf.h"

#include "session/catalogs.h"
#include "util/partpath.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

char *hl_table_db_name(hl_session_t *s, const char *db, hl_arena_t *arena) {
  char *out = hl_arena_strdup(arena, db ? db : s->current_db);
  if (out)
    for (char *c = out; *c; c++)
      *c = (char)tolower((unsigned char)*c);
  return out;
}

hl_status_t hl_table_from_catalog(hl_cat_table_t *cat, hl_arena_t *arena, hl_table_t **out,
                                  hl_error_t *err) {
  hl_table_t *t = hl_arena_zalloc(arena, sizeof(*t));
  if (!t) return hl_err_nomem(err);
  t->cat = cat;
  t->n_data = cat->n_cols;
  t->n_part = cat->n_part_keys;
  t->n_all = t->n_data + t->n_part;
  size_t n = (size_t)(t->n_all ? t->n_all : 1);
  t->names = hl_arena_alloc(arena, sizeof(char *) * n);
  t->types = hl_arena_alloc(arena, sizeof(hl_type_t *) * n);
  if (!t->names || !t->types) return hl_err_nomem(err);
  for (int i = 0; i < t->n_all; i++) {
    const hl_cat_column_t *c = i < t->n_data ? &cat->cols[i] : &cat->part_keys[i - t->n_data];
    hl_type_t *type;
    hl_error_t terr;
    hl_err_init(&terr);
    if (hl_type_parse_str(arena, c->type, &type, &terr) != HL_OK || hl_type_has_interval(type)) {
      if (!terr.message) /* an interval: no format reads one */
        hl_err_set(&terr, HL_ERROR, HL_SS(DATA_CORRUPTED), "interval types are not table types");
      hl_status_t rc =
          hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                     "column \"%s\" of table \"%s.%s\" has an invalid type \"%s\": %s", c->name,
                     cat->db_name, cat->name, c->type, terr.message ? terr.message : "");
      hl_err_clear(&terr);
      return rc;
    }
    t->names[i] = c->name;
    t->types[i] = type;
  }
  *out = t;
  return HL_OK;
}

hl_status_t hl_table_load(hl_session_t *s, const hl_ast_qname_t *qname, hl_arena_t *arena,
                          hl_table_t **out, hl_error_t *err) {
  hl_status_t rc = hl_table_load_or_view(s, qname, arena, out, err);
  if (rc == HL_OK && (*out)->cat->view)
    return hl_err_set_at(err, qname->pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                         "\"%s.%s\" is a view, not a table", (*out)->cat->db_name,
                         (*out)->cat->name);
  return rc;
}

hl_status_t hl_table_load_or_view(hl_session_t *s, const hl_ast_qname_t *qname, hl_arena_t *arena,
                                  hl_table_t **out, hl_error_t *err) {
  char *db = hl_table_db_name(s, qname->db, arena);
  if (!db) return hl_err_nomem(err);
  /* Unqualified names are the current catalog's, even while a command
   * runs against the catalog of its target (command/cmd_dispatch.c). */
  hl_cat_t *catalog;
  hl_status_t rc = hl_catalogs_get(s, qname->catalog, qname->pos, &catalog, err);
  hl_cat_table_t *cat;
  if (rc == HL_OK) rc = hl_cat_table_get(catalog, db, qname->name, arena, &cat, err);
  if (rc != HL_OK) {
    hl_err_position(err, qname->pos);
    return rc;
  }
  rc = hl_table_from_catalog(cat, arena, out, err);
  if (rc == HL_OK) (*out)->catalog = catalog;
  if (rc == HL_OK) rc = hl_table_s3_scope(s, catalog, cat, arena, err);
  return rc;
}

hl_status_t hl_table_s3_scope(hl_session_t *s, hl_cat_t *catalog, const hl_cat_table_t *t,
                              hl_arena_t *arena, hl_error_t *err) {
  if (!t->location || !hl_uri_object_root(t->location)) return HL_OK;
  /* an attached catalog's own properties (CREATE CATALOG ... PROPERTIES) */
  hl_cat_catalog_t *def = NULL;
  const char *name =
      catalog && catalog != hl_catalogs_internal(s) ? hl_catalogs_name_of(s, catalog) : NULL;
  if (name && !hl_catalogs_is_internal(name)) {
    hl_error_t e;
    hl_err_init(&e);
    if (hl_cat_catalog_get(hl_catalogs_internal(s), name, arena, &def, &e) != HL_OK) def = NULL;
    hl_err_clear(&e); /* -m's catalog is not stored: it has no properties */
  }
  return hl_session_s3_scope(s, t->location, def ? def->props : NULL, def ? def->n_props : 0,
                             t->params, t->n_params, err);
}

hl_cat_t *hl_table_catalog(const hl_session_t *s, const hl_table_t *t) {
  return t->catalog ? t->catalog : s->cat;
}

int hl_table_column_index(const hl_table_t *t, const char *name) {
  for (int i = 0; i < t->n_all; i++)
    if (strcasecmp(t->names[i], name) == 0) return i;
  return -1;
}

hl_status_t hl_table_part_value(const hl_table_t *t, int key_idx, const char *text,
                                hl_arena_t *arena, hl_value_t *out, hl_error_t *err) {
  const hl_type_t *type = t->types[t->n_data + key_idx];
  if (!text) {
    memset(out, 0, sizeof(*out));
    out->is_null = true;
    return HL_OK;
  }
  hl_error_t verr;
  hl_err_init(&verr);
  hl_status_t rc = hl_value_from_text(arena, type, text, strlen(text), out, &verr);
  if (rc == HL_OK) return HL_OK;
  if (rc == HL_NOMEM) {
    hl_err_clear(&verr);
    return hl_err_nomem(err);
  }
  char *type_name = hl_type_to_string(arena, type);
  rc = hl_err_set(err, HL_ERROR, verr.sqlstate,
                  "invalid value \"%s\" for partition column \"%s\" of type %s", text,
                  t->names[t->n_data + key_idx], type_name ? type_name : "?");
  hl_err_clear(&verr);
  return rc;
}

char *hl_table_part_name(const hl_table_t *t, char *const *values, const char *default_name,
                         hl_arena_t *arena) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_partpath_name(&b, t->n_part, (const char *const *)t->names + t->n_data,
                   (const char *const *)values, default_name);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

char *hl_table_part_path(const hl_table_t *t, char *const *values, const char *default_name,
                         hl_arena_t *arena) {
  char *name = hl_table_part_name(t, values, default_name, arena);
  if (!name) return NULL;
  return hl_arena_sprintf(arena, "%s/%s", t->cat->location, name);
}

const char *hl_table_format_name(const hl_cat_table_t *t) {
  const char *in = t->input_format ? t->input_format : "";
  const char *serde = t->serde_lib ? t->serde_lib : "";
  if (strstr(in, "TextInputFormat")) {
    if (strstr(serde, "JsonSerDe")) return "json";
    if (strstr(serde, "OpenCSVSerde")) return "csv";
    return "text";
  }
  if (strstr(in, "Parquet")) return "parquet";
  if (strstr(in, "SequenceFile")) return "sequencefile";
  if (strstr(in, "RCFile")) return "rcfile";
  if (strstr(in, "OrcInputFormat")) return "orc";
  if (strstr(in, "AvroContainerInputFormat")) return "avro";
  return NULL;
}
