/*
 * cmd_profile_incr.c -- PROFILE ... INCREMENTAL [AS 'name'] [WITH LATE]:
 * which rows are new since a named checkpoint, and the checkpoint left
 * behind.
 *
 * The table's incremental field (plan/incr.h, kept in its properties)
 * decides how:
 *  - a text-date or batch field (the first partition column, STRING):
 *    only the partitions after the checkpoint's partition are read,
 *    compared as dates to the unit of their format or as numbers, chosen
 *    from the partition values the catalog holds -- no older partition is
 *    listed or opened, however many new ones there are.  Values that are
 *    not dates (not whole numbers) are left out with a warning; a FULL
 *    scan reads them.  The newest partition selected becomes the
 *    checkpoint, also when a LIMIT stopped the reading before it (the rule
 *    of Hive Native's incremental scans: the partitions between stay
 *    unread; a FULL scan or a new checkpoint reads them).
 *  - any other field (a timestamp, date or number, or a partition column
 *    of such a type): the rows with field > checkpoint are read (the
 *    planner prunes and pushes the predicate), and the highest value among
 *    the rows read becomes the checkpoint.
 * Late rows: the checkpoint records, for every partition it passed (read,
 * or left unread by a LIMIT), what the catalog knew of its files
 * (numFiles, totalSize).  A partition passed before whose record has
 * changed since -- an INSERT, a LOAD, an ANALYZE that found new files --
 * or a partition the checkpoint never passed with a value at or before
 * it (added later), holds rows the checkpoint never saw: reported as
 * late_rows_in_scanned_partitions (up to five named) and read, whole, with
 * WITH LATE.  Late files the metastore does not know of are found by the
 * next statement that lists the partition (ANALYZE ... NOSCAN), not here:
 * old partitions are never listed.
 *
 * The checkpoint is advanced by compare-and-set on its version
 * (catalog.h), so two concurrent scans of one name cannot both advance it:
 * the second fails with 40001 and may run again.
 */
#include "command/cmd_profile.h"

#include "util/partorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(int kind) {
  switch (kind) {
  case HL_INCR_DATE:
    return "date";
  case HL_INCR_BATCH:
    return "batch";
  case HL_INCR_VALUE:
    return "value";
  default:
    return "none";
  }
}

static const char *cp_name(const hl_prof_run_t *r) {
  return r->stmt->profile_checkpoint ? r->stmt->profile_checkpoint : "default";
}

/* SQL text of a string literal holding S. */
static void sql_string(hl_buf_t *b, const char *s) {
  hl_buf_putc(b, '\'');
  for (const char *p = s; *p; p++) {
    if (*p == '\'' || *p == '\\') hl_buf_putc(b, '\\');
    hl_buf_putc(b, *p);
  }
  hl_buf_putc(b, '\'');
}

hl_status_t hl_prof_incr_begin(hl_prof_run_t *r, hl_error_t *err) {
  hl_table_t *t = r->t;
  hl_status_t rc = hl_incr_field_get(t, &r->field, err);
  if (rc != HL_OK) {
    if (err->position < 0) err->position = r->stmt->table.pos;
    return rc;
  }
  if (r->field.kind == HL_INCR_NONE)
    return hl_err_set_at(err, r->stmt->table.pos, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                         "table \"%s.%s\" has no incremental field: set it with ALTER TABLE ... "
                         "SET TBLPROPERTIES ('hivelite.incremental.field'='<column>')",
                         HL_TNAME(t));
  const char *field = t->names[r->field.col];
  rc = hl_cat_checkpoint_get(r->cat, r->catalog, t->cat->db_name, t->cat->name, cp_name(r),
                             r->arena, &r->cp, err);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(err);
    r->have_cp = false;
    rc = HL_OK;
  } else if (rc == HL_OK) {
    r->have_cp = true;
    if (strcmp(r->cp.field, field) != 0 || strcmp(r->cp.kind, kind_name(r->field.kind)) != 0)
      return hl_err_set_at(
          err, r->stmt->profile_checkpoint ? r->stmt->profile_checkpoint_pos : r->stmt->table.pos,
          HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
          "checkpoint '%s' of table \"%s.%s\" was made on field \"%s\" (%s), "
          "but the table's incremental field is now \"%s\" (%s): drop it "
          "(DROP CHECKPOINT '%s' FOR %s.%s) or use another name",
          cp_name(r), HL_TNAME(t), r->cp.field, r->cp.kind, field, kind_name(r->field.kind),
          cp_name(r), HL_TNAME(t));
  }
  if (rc != HL_OK) return rc;
  if (r->field.kind != HL_INCR_VALUE || !r->have_cp || !r->cp.value) return HL_OK;
  /* field > CAST('<checkpoint>' AS <type>) */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_prof_quote_ident(&b, field);
  hl_buf_puts(&b, " > CAST(");
  sql_string(&b, r->cp.value);
  char *type = hl_type_to_string(r->arena, t->types[r->field.col]);
  if (!type) {
    hl_buf_fini(&b);
    return hl_err_nomem(err);
  }
  hl_buf_printf(&b, " AS %s)", type);
  r->value_filter = b.oom ? NULL : hl_arena_strndup(r->arena, b.data, b.len);
  hl_buf_fini(&b);
  return r->value_filter ? HL_OK : hl_err_nomem(err);
}

char *hl_prof_catalog_fp(const hl_cat_partition_t *p, hl_arena_t *arena) {
  const char *files = hl_kv_get(p->params, p->n_params, "numFiles");
  const char *size = hl_kv_get(p->params, p->n_params, "totalSize");
  return hl_arena_sprintf(arena, "numFiles=%s;totalSize=%s", files ? files : "", size ? size : "");
}

/* The position of a partition value on the field's axis: seconds since the
 * epoch (dates, to the unit of their format) or the batch number. */
static bool axis_key(const hl_prof_run_t *r, const char *v, int64_t *key) {
  if (!v) return false;
  if (r->field.kind == HL_INCR_BATCH) return hl_batch_parse(v, strlen(v), key);
  hl_tdate_fmt_t fmt;
  return hl_tdate_parse(v, strlen(v), key, &fmt);
}

/* Appends ", 'v'" (the first five of a list) for a warning. */
static void list_value(hl_buf_t *b, int *n, const char *v) {
  if (++*n > 5) return;
  hl_buf_puts(b, *n > 1 ? ", '" : "'");
  hl_buf_puts(b, v);
  hl_buf_putc(b, '\'');
}

hl_status_t hl_prof_incr_select(hl_prof_run_t *r, hl_cat_partition_t *parts, size_t *n,
                                hl_cat_partition_t **late, size_t *n_late, hl_error_t *err) {
  hl_table_t *t = r->t;
  const char *field = t->names[r->field.col];
  *late = NULL;
  *n_late = 0;
  int64_t cp_key = 0;
  if (r->have_cp && r->cp.value && !axis_key(r, r->cp.value, &cp_key))
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "checkpoint '%s' of table \"%s.%s\" holds \"%s\", which is not a %s",
                      cp_name(r), HL_TNAME(t), r->cp.value,
                      r->field.kind == HL_INCR_BATCH ? "batch number" : "date");
  bool have_key = r->have_cp && r->cp.value;
  /* what the checkpoint read before, by partition name */
  hl_map_t *seen = NULL;
  char **sp = NULL, **sfp = NULL;
  size_t n_seen = 0;
  hl_status_t rc = HL_OK;
  if (r->have_cp) {
    rc = hl_cat_checkpoint_scanned(r->cat, &r->cp, r->arena, &sp, &sfp, &n_seen, err);
    if (rc != HL_OK) return rc;
    if (!(seen = hl_map_create())) return hl_err_nomem(err);
    for (size_t i = 0; i < n_seen; i++)
      if (hl_map_set(seen, sp[i], strlen(sp[i]), (uint64_t)i) < 0) {
        hl_map_destroy(seen);
        return hl_err_nomem(err);
      }
  }
  hl_buf_t junk, lates;
  hl_buf_init(&junk);
  hl_buf_init(&lates);
  int n_junk = 0, n_lates = 0;
  hl_cat_partition_t *late_parts = hl_arena_alloc(r->arena, sizeof *late_parts * (*n + 1));
  if (!late_parts) rc = hl_err_nomem(err);
  size_t kept = 0, newest = SIZE_MAX;
  int64_t newest_key = 0;
  for (size_t i = 0; rc == HL_OK && i < *n; i++) {
    hl_cat_partition_t *p = &parts[i];
    const char *v = p->values && p->n_values > 0 ? p->values[0] : NULL;
    int64_t key;
    if (!axis_key(r, v, &key)) {
      list_value(&junk, &n_junk, v ? v : "__HIVE_DEFAULT_PARTITION__");
      continue;
    }
    if (!have_key || key > cp_key) {
      if (newest == SIZE_MAX || key > newest_key) {
        newest = kept;
        newest_key = key;
      }
      parts[kept++] = *p;
      continue;
    }
    /* at or before the checkpoint: late rows? */
    uint64_t at;
    bool was_read = seen && hl_map_get(seen, p->name, strlen(p->name), &at);
    bool is_late = false;
    if (was_read) {
      char *fp = hl_prof_catalog_fp(p, r->arena);
      if (!fp) {
        rc = hl_err_nomem(err);
        break;
      }
      is_late = strcmp(fp, sfp[at]) != 0;
    } else { /* created after the checkpoint, with a value before it */
      is_late = r->have_cp;
    }
    if (!is_late) continue;
    list_value(&lates, &n_lates, p->name);
    if (r->stmt->profile_with_late) late_parts[(*n_late)++] = *p;
  }
  if (seen) hl_map_destroy(seen);
  if (rc == HL_OK && n_junk > 0)
    rc = hl_prof_warn(r,
                      r->field.kind == HL_INCR_BATCH ? "non_numeric_partitions_skipped"
                                                     : "non_date_partitions_skipped",
                      "partitions of column \"%s\" whose values are not %s were left out (%d): "
                      "%.*s%s",
                      field, r->field.kind == HL_INCR_BATCH ? "batch numbers" : "dates", n_junk,
                      (int)junk.len, junk.data ? junk.data : "", n_junk > 5 ? ", ..." : "");
  if (rc == HL_OK && n_lates > 0)
    rc = hl_prof_warn(r, "late_rows_in_scanned_partitions",
                      "%d partition%s at or before checkpoint '%s' received rows after it was "
                      "scanned%s: %.*s%s",
                      n_lates, n_lates > 1 ? "s" : "", cp_name(r),
                      r->stmt->profile_with_late ? " (read again: WITH LATE)"
                                                 : " (not read; WITH LATE reads them)",
                      (int)lates.len, lates.data ? lates.data : "", n_lates > 5 ? ", ..." : "");
  if (rc == HL_OK && (junk.oom || lates.oom)) rc = hl_err_nomem(err);
  hl_buf_fini(&junk);
  hl_buf_fini(&lates);
  if (rc != HL_OK) return rc;
  *n = kept;
  *late = late_parts;
  if (newest != SIZE_MAX) {
    r->cp_new = hl_arena_strdup(r->arena, parts[newest].values[0]);
    if (!r->cp_new) return hl_err_nomem(err);
  }
  return HL_OK;
}

/* A value field: the highest value among the rows read. */
static hl_status_t value_checkpoint(hl_prof_run_t *r, hl_error_t *err) {
  hl_table_t *t = r->t;
  int col = r->field.col;
  if (col < t->n_data) {
    hl_prof_result_t pr;
    hl_status_t rc = hl_prof_col_result(r->total[col], r->arena, &pr, err);
    if (rc != HL_OK || !pr.has_minmax) return rc;
    hl_buf_t b;
    hl_buf_init(&b);
    hl_value_format(&b, t->types[col], &pr.max);
    r->cp_new = b.oom ? NULL : hl_arena_strndup(r->arena, b.data ? b.data : "", b.len);
    hl_buf_fini(&b);
    return r->cp_new ? HL_OK : hl_err_nomem(err);
  }
  /* a partition column: its highest value among the units read */
  int k = col - t->n_data;
  const hl_type_t *type = t->types[col];
  hl_value_t best = {.is_null = true};
  for (size_t i = 0; i < r->n_units; i++) {
    const hl_prof_unit_t *u = &r->units[i];
    if (!u->part || !u->part->values || u->rows == 0) continue;
    hl_value_t v;
    if (hl_value_from_text(r->arena, type, u->part->values[k], strlen(u->part->values[k]), &v,
                           err) != HL_OK) {
      hl_err_clear(err);
      continue;
    }
    if (best.is_null || hl_value_compare(type, &v, &best) > 0) {
      best = v;
      r->cp_new = u->part->values[k];
    }
  }
  return HL_OK;
}

hl_status_t hl_prof_incr_commit(hl_prof_run_t *r, const char **out, hl_error_t *err) {
  hl_table_t *t = r->t;
  hl_status_t rc = HL_OK;
  *out = NULL;
  if (r->field.kind == HL_INCR_VALUE && (rc = value_checkpoint(r, err)) != HL_OK) return rc;
  /* the partitions read, with what the catalog knows of their files now */
  size_t n = 0;
  const char **names = hl_arena_alloc(r->arena, sizeof *names * (r->n_units + 1));
  const char **fps = hl_arena_alloc(r->arena, sizeof *fps * (r->n_units + 1));
  if (!names || !fps) return hl_err_nomem(err);
  for (size_t i = 0; i < r->n_units; i++) {
    const hl_prof_unit_t *u = &r->units[i];
    /* also the new partitions a LIMIT left unread: the checkpoint passes
     * them (Hive Native's rule), so they are not late rows later */
    if (!u->part) continue;
    names[n] = u->part->name;
    if (!(fps[n] = hl_prof_catalog_fp(u->part, r->arena))) return hl_err_nomem(err);
    n++;
  }
  const char *value = r->cp_new ? r->cp_new : r->have_cp ? r->cp.value : NULL;
  if (r->cp_new || n > 0 || !r->have_cp) {
    hl_cat_checkpoint_t cp = {0};
    cp.catalog = r->catalog;
    cp.db = t->cat->db_name;
    cp.table = t->cat->name;
    cp.name = cp_name(r);
    cp.field = t->names[r->field.col];
    cp.kind = kind_name(r->field.kind);
    cp.value = value;
    rc = hl_cat_checkpoint_put(r->cat, &cp, r->have_cp ? r->cp.version : 0, names, fps, n, err);
    if (rc != HL_OK) return rc;
  }
  /* {"name":..,"field":..,"kind":..,"value":..,"previous":..} */
  hl_buf_t b;
  hl_buf_init(&b);
  const char *keys[] = {"name", "field", "kind", "value", "previous"};
  const char *vals[] = {cp_name(r), t->names[r->field.col], kind_name(r->field.kind), value,
                        r->have_cp ? r->cp.value : NULL};
  hl_buf_putc(&b, '{');
  for (int i = 0; i < 5; i++) {
    hl_buf_printf(&b, "%s\"%s\":", i ? "," : "", keys[i]);
    if (vals[i])
      hl_prof_json_string(&b, vals[i]);
    else
      hl_buf_puts(&b, "null");
  }
  hl_buf_putc(&b, '}');
  *out = b.oom ? NULL : hl_arena_strndup(r->arena, b.data, b.len);
  hl_buf_fini(&b);
  return *out ? HL_OK : hl_err_nomem(err);
}
