/*
 * cmd_incr.c -- the incremental field set by the statements that register
 * partitions (MSCK, ALTER TABLE ADD PARTITION, CREATE TABLE AS SELECT).
 *
 * A table partitioned by a STRING column of text dates (dt=2024-01-31) gets
 * that column as its incremental field (plan/incr.h) as soon as it has
 * partitions, so that incremental scans and checkpoints work on it without
 * a manual ALTER.  The change is made in the statement's own catalog
 * transaction, on the table record re-read inside it: the partitions and
 * the property commit together, and a concurrent ALTER of other properties
 * is not overwritten with an older record.  A field already set (by a user,
 * or an earlier statement) is never replaced.  Plain CREATE TABLE has no
 * partitions to recognise, so it sets nothing; the first MSCK or ADD
 * PARTITION does.  The decision reads two counts of the table's row in
 * the metastore (catalog.h hl_cat_partition_tdates), so it costs the same
 * at a million partitions as at one.
 */
#include "command/cmd_int.h"
#include "plan/incr.h"

#include <string.h>
#include <strings.h>

bool hl_cmd_incr_key(const char *key) {
  return strcmp(key, HL_INCR_FIELD_KEY) == 0 || strcmp(key, HL_INCR_KIND_KEY) == 0;
}

/* Cheap test before any listing: a STRING first partition column and no
 * incremental property yet. */
static bool may_apply(const hl_cat_table_t *c) {
  return c->n_part_keys > 0 && c->part_keys[0].type &&
         strcasecmp(c->part_keys[0].type, "string") == 0 &&
         !hl_kv_get(c->params, c->n_params, HL_INCR_FIELD_KEY) &&
         !hl_kv_get(c->params, c->n_params, HL_INCR_KIND_KEY);
}

hl_status_t hl_cmd_incr_auto_fill(hl_session_t *s, hl_cat_table_t *c, hl_arena_t *arena,
                                  bool *changed, hl_error_t *err) {
  *changed = false;
  if (!may_apply(c)) return HL_OK;
  hl_table_t *t;
  hl_status_t rc = hl_table_from_catalog(c, arena, &t, err);
  if (rc != HL_OK) return rc;
  /* two counts the metastore keeps, not a read of every partition */
  size_t n_parts = 0, n_tdates = 0;
  rc = hl_cat_partition_tdates(s->cat, c->id, &n_parts, &n_tdates, err);
  bool found = rc == HL_OK && hl_incr_auto_field(t, n_parts, n_tdates);
  if (rc != HL_OK || !found) return rc;
  rc = hl_cmd_kv_put(&c->params, &c->n_params, HL_INCR_FIELD_KEY, t->names[t->n_data], arena, err);
  if (rc == HL_OK)
    rc = hl_cmd_kv_put(&c->params, &c->n_params, HL_INCR_KIND_KEY, "date", arena, err);
  if (rc == HL_OK) *changed = true;
  return rc;
}

hl_status_t hl_cmd_incr_auto(hl_session_t *s, const hl_table_t *t, hl_arena_t *arena,
                             hl_error_t *err) {
  if (!may_apply(t->cat)) return HL_OK;
  hl_cat_table_t *c;
  hl_status_t rc = hl_cat_table_get(s->cat, t->cat->db_name, t->cat->name, arena, &c, err);
  if (rc != HL_OK) return rc;
  bool changed;
  rc = hl_cmd_incr_auto_fill(s, c, arena, &changed, err);
  if (rc == HL_OK && changed) rc = hl_cat_table_update(s->cat, c, err);
  return rc;
}
