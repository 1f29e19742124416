/*
 * incr.c -- a table's incremental field from its properties (see incr.h).
 *
 * One resolver serves the scan (strict: every rule) and the DDL checks
 * (lenient on the one rule a later statement can still satisfy or that
 * only matters to an incremental scan), so that what SET accepts and what
 * a scan refuses can never drift apart.
 */
#include "plan/incr.h"

#include <string.h>
#include <strings.h>

static bool value_type(const hl_type_t *ty) {
  switch (ty->id) {
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
  case HL_T_DECIMAL:
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
    return true;
  default:
    return false;
  }
}

/* The kind named by TEXT (case-insensitive), HL_INCR_NONE if none. */
static int kind_of(const char *text) {
  if (strcasecmp(text, "date") == 0) return HL_INCR_DATE;
  if (strcasecmp(text, "batch") == 0) return HL_INCR_BATCH;
  if (strcasecmp(text, "value") == 0) return HL_INCR_VALUE;
  return HL_INCR_NONE;
}

static hl_status_t resolve(const hl_table_t *t, const hl_kv_t *params, int n, bool strict,
                           hl_incr_field_t *out, hl_error_t *err) {
  out->col = -1;
  out->kind = HL_INCR_NONE;
  out->is_part = false;
  out->part_idx = -1;
  const char *db = t->cat->db_name, *name = t->cat->name;
  const char *field = hl_kv_get(params, n, HL_INCR_FIELD_KEY);
  const char *kind_text = hl_kv_get(params, n, HL_INCR_KIND_KEY);
  if (!field) {
    if (!kind_text) return HL_OK;
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "table \"%s.%s\" has %s but no %s", db, name, HL_INCR_KIND_KEY,
                      HL_INCR_FIELD_KEY);
  }
  int col = hl_table_column_index(t, field);
  if (col < 0)
    return hl_err_set(err, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                      "%s \"%s\" is not a column of table \"%s.%s\"", HL_INCR_FIELD_KEY, field, db,
                      name);
  int kind = kind_text ? kind_of(kind_text) : HL_INCR_VALUE;
  if (kind == HL_INCR_NONE)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid %s \"%s\" for table \"%s.%s\": expected date, batch or value",
                      HL_INCR_KIND_KEY, kind_text, db, name);
  const hl_type_t *ty = t->types[col];
  const char *cname = t->names[col];
  bool is_part = col >= t->n_data;
  if (kind == HL_INCR_DATE || kind == HL_INCR_BATCH) {
    const char *what = kind == HL_INCR_DATE ? "date" : "batch";
    if (ty->id != HL_T_STRING) {
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "incremental field \"%s\" of table \"%s.%s\" is %s: kind %s needs a "
                        "STRING partition column",
                        cname, db, name, hl_type_id_name(ty->id), what);
    }
    if (strict && col != t->n_data) {
      if (t->n_part == 0)
        return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                          "incremental field \"%s\" of table \"%s.%s\" has kind %s, which needs "
                          "the table's first partition column, and the table is not partitioned",
                          cname, db, name, what);
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "incremental field \"%s\" of table \"%s.%s\" has kind %s, which needs the "
                        "table's first partition column \"%s\"",
                        cname, db, name, what, t->names[t->n_data]);
    }
  } else if (!is_part && !value_type(ty)) {
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "incremental field \"%s\" of table \"%s.%s\" is %s: kind value needs a "
                      "timestamp, date or numeric data column, or a partition column",
                      cname, db, name, hl_type_id_name(ty->id));
  }
  out->col = col;
  out->kind = kind;
  out->is_part = is_part;
  out->part_idx = is_part ? col - t->n_data : -1;
  return HL_OK;
}

hl_status_t hl_incr_field_get(const hl_table_t *t, hl_incr_field_t *out, hl_error_t *err) {
  return resolve(t, t->cat->params, t->cat->n_params, true, out, err);
}

hl_status_t hl_incr_props_check(const hl_table_t *t, const hl_kv_t *params, int n,
                                hl_error_t *err) {
  hl_incr_field_t f;
  return resolve(t, params, n, false, &f, err);
}

int hl_incr_first_key_kind(const hl_table_t *t) {
  if (t->n_part == 0 || t->types[t->n_data]->id != HL_T_STRING) return HL_INCR_NONE;
  const char *field = hl_kv_get(t->cat->params, t->cat->n_params, HL_INCR_FIELD_KEY);
  const char *kind = hl_kv_get(t->cat->params, t->cat->n_params, HL_INCR_KIND_KEY);
  if (!field || !kind || strcasecmp(field, t->names[t->n_data]) != 0) return HL_INCR_NONE;
  int k = kind_of(kind);
  return k == HL_INCR_DATE || k == HL_INCR_BATCH ? k : HL_INCR_NONE;
}

bool hl_incr_auto_field(const hl_table_t *t, size_t n, size_t n_tdates) {
  if (t->n_part == 0 || t->types[t->n_data]->id != HL_T_STRING) return false;
  if (hl_kv_get(t->cat->params, t->cat->n_params, HL_INCR_FIELD_KEY) ||
      hl_kv_get(t->cat->params, t->cat->n_params, HL_INCR_KIND_KEY))
    return false; /* never replaces one set (nor completes a half-set one) */
  return hl_tdate_majority(n_tdates, n);
}
