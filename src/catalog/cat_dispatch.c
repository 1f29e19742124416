/*
 * cat_dispatch.c -- catalog.h's functions, dispatched to the backend.
 *
 * Every call goes through the handle's operations (cat_backend.h); intents,
 * write locks and the schema version go to the embedded SQLite catalog
 * (hl_cat_local), whatever backend the handle is.  While a journal hook
 * is set on a non-transactional backend, each write call is first
 * journaled (cat_journal.c) and made only when that succeeded.
 */
#include "catalog/cat_backend.h"
#include "catalog/catalog_int.h"
#include "util/partorder.h"

#include <string.h>

static hl_status_t unsupported(hl_cat_t *cat, const char *what, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(FEATURE_NOT_SUPPORTED),
                    "the %s metastore does not support %s", cat->ops->name, what);
}

hl_cat_t *hl_cat_local(hl_cat_t *cat) {
  return cat->ops->local ? cat->ops->local(cat) : cat;
}

const char *hl_cat_backend_name(const hl_cat_t *cat) {
  return cat->ops->name;
}

hl_status_t hl_cat_partition_names(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                                   hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                   hl_error_t *err) {
  if (!cat->ops->partition_names) return unsupported(cat, "partition names", err);
  return cat->ops->partition_names(cat, table_id, eq, arena, out, n, err);
}

hl_status_t hl_cat_partition_copy_key(hl_arena_t *arena, const hl_cat_partition_t *src,
                                      hl_cat_partition_t *dst, hl_error_t *err) {
  hl_cat_partition_t p = {.id = src->id,
                          .table_id = src->table_id,
                          .n_values = src->n_values,
                          .create_time = src->create_time};
  p.name = src->name ? hl_arena_strdup(arena, src->name) : NULL;
  p.location = src->location ? hl_arena_strdup(arena, src->location) : NULL;
  p.values = hl_arena_alloc(arena, sizeof(char *) * (size_t)(src->n_values + 1));
  if ((src->name && !p.name) || (src->location && !p.location) || !p.values)
    return hl_err_nomem(err);
  for (int k = 0; k < src->n_values; k++) {
    p.values[k] = src->values[k] ? hl_arena_strdup(arena, src->values[k]) : NULL;
    if (src->values[k] && !p.values[k]) return hl_err_nomem(err);
  }
  *dst = p;
  return HL_OK;
}

/* Whether V is FILTER's pinned value of key K or inside one of its
 * alternative ranges (true where K is not pinned). */
static bool matches_eq(const hl_cat_part_filter_t *f, int k, const char *v) {
  if (!f->eq[k]) return true;
  if (!v) return false;
  if (strcmp(v, f->eq[k]) == 0) return true;
  for (int a = 0; f->alt[k] && a < f->n_alt[k]; a++)
    if (strcmp(v, f->alt[k][a].lo) >= 0 && strcmp(v, f->alt[k][a].hi) < 0) return true;
  return false;
}

/* Whether a value passes FILTER's bounds for key K (the backend's
 * EQ answered the rest). */
static bool in_bounds(const hl_cat_part_filter_t *f, int k, const char *v) {
  if ((f->lo && f->lo[k]) || (f->hi && f->hi[k])) {
    if (!v) return false;
    if (f->lo && f->lo[k] && strcmp(v, f->lo[k]) < 0) return false;
    if (f->hi && f->hi[k] && strcmp(v, f->hi[k]) > 0) return false;
  }
  return true;
}

hl_status_t hl_cat_partition_scan(hl_cat_t *cat, int64_t table_id,
                                  const hl_cat_part_filter_t *filter, hl_cat_part_fn fn, void *ctx,
                                  hl_error_t *err) {
  if (cat->ops->partition_scan)
    return cat->ops->partition_scan(cat, table_id, filter, fn, ctx, err);
  /* a remote metastore lists names in one reply anyway: no worse than
   * before, and the caller's memory still only holds what it keeps */
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  hl_cat_partition_t *parts;
  size_t n;
  /* a value with alternative spellings is not asked for: matched here */
  const char *const *eq = filter ? filter->eq : NULL;
  bool widened = eq && filter->alt && filter->n_alt;
  hl_status_t rc =
      hl_cat_partition_names(cat, table_id, widened ? NULL : eq, arena, &parts, &n, err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    bool keep = true;
    for (int k = 0; filter && keep && k < parts[i].n_values; k++)
      keep = in_bounds(filter, k, parts[i].values[k]) &&
             (!widened || matches_eq(filter, k, parts[i].values[k]));
    if (keep) rc = fn(ctx, &parts[i], err);
  }
  hl_arena_destroy(arena);
  return rc == HL_DONE ? HL_OK : rc;
}

hl_status_t hl_cat_partition_get_many(hl_cat_t *cat, int64_t table_id,
                                      const hl_cat_partition_t *keys, size_t n_keys,
                                      hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                      hl_error_t *err) {
  if (!cat->ops->partition_get_many) return unsupported(cat, "partitions by name", err);
  return cat->ops->partition_get_many(cat, table_id, keys, n_keys, arena, out, n, err);
}

hl_status_t hl_cat_refresh(hl_cat_t *cat, const char *db, const char *table, hl_error_t *err) {
  return cat->ops->refresh ? cat->ops->refresh(cat, db, table, err) : HL_OK;
}

bool hl_cat_transactional(const hl_cat_t *cat) {
  return !cat->ops->transactional || cat->ops->transactional(cat);
}

const char *hl_cat_address(const hl_cat_t *cat) {
  const char *a = cat->ops->address ? cat->ops->address(cat) : NULL;
  return a ? a : "";
}

void hl_cat_journal_set(hl_cat_t *cat, hl_cat_journal_fn fn, void *arg) {
  cat->journal = fn;
  cat->journal_arg = fn ? arg : NULL;
}

bool hl_cat_readonly(const hl_cat_t *cat) {
  return cat && cat->ops->readonly(cat);
}

void hl_cat_close(hl_cat_t *cat) {
  if (cat && cat->ops->close) cat->ops->close(cat);
}

hl_status_t hl_cat_begin(hl_cat_t *cat, hl_error_t *err) {
  if (!cat->ops->begin) return unsupported(cat, "begin", err);
  return cat->ops->begin(cat, err);
}

hl_status_t hl_cat_commit(hl_cat_t *cat, hl_error_t *err) {
  if (!cat->ops->commit) return unsupported(cat, "commit", err);
  return cat->ops->commit(cat, err);
}

void hl_cat_rollback(hl_cat_t *cat) {
  if (cat && cat->ops->rollback) cat->ops->rollback(cat);
}

hl_status_t hl_cat_db_create(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  if (!cat->ops->db_create) return unsupported(cat, "db create", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_irreversible(cat, "database create", err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->db_create(cat, db, err);
}

hl_status_t hl_cat_db_get(hl_cat_t *cat, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                          hl_error_t *err) {
  if (!cat->ops->db_get) return unsupported(cat, "db get", err);
  return cat->ops->db_get(cat, name, arena, out, err);
}

hl_status_t hl_cat_db_list(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                           hl_error_t *err) {
  if (!cat->ops->db_list) return unsupported(cat, "db list", err);
  return cat->ops->db_list(cat, arena, names, n, err);
}

hl_status_t hl_cat_db_update(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  if (!cat->ops->db_update) return unsupported(cat, "db update", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_irreversible(cat, "database update", err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->db_update(cat, db, err);
}

hl_status_t hl_cat_db_drop(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err) {
  if (!cat->ops->db_drop) return unsupported(cat, "db drop", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_irreversible(cat, "database drop", err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->db_drop(cat, name, cascade, err);
}

hl_status_t hl_cat_table_create(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  if (!cat->ops->table_create) return unsupported(cat, "table create", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_table_create(cat, table, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->table_create(cat, table, err);
}

hl_status_t hl_cat_table_get(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                             hl_cat_table_t **out, hl_error_t *err) {
  if (!cat->ops->table_get) return unsupported(cat, "table get", err);
  return cat->ops->table_get(cat, db, name, arena, out, err);
}

hl_status_t hl_cat_table_list(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                              size_t *n, hl_error_t *err) {
  if (!cat->ops->table_list) return unsupported(cat, "table list", err);
  return cat->ops->table_list(cat, db, arena, names, n, err);
}

hl_status_t hl_cat_table_update(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  if (!cat->ops->table_update) return unsupported(cat, "table update", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_table_update(cat, table, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->table_update(cat, table, err);
}

hl_status_t hl_cat_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err) {
  if (!cat->ops->table_drop) return unsupported(cat, "table drop", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_table_drop(cat, table_id, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->table_drop(cat, table_id, err);
}

hl_status_t hl_cat_partition_add(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err) {
  if (!cat->ops->partition_add) return unsupported(cat, "partition add", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_part_add(cat, part, 1, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->partition_add(cat, part, err);
}

hl_status_t hl_cat_partition_add_many(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                      hl_error_t *err) {
  if (!cat->ops->partition_add_many) return unsupported(cat, "partition add many", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_part_add(cat, parts, n, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->partition_add_many(cat, parts, n, err);
}

hl_status_t hl_cat_partition_get(hl_cat_t *cat, int64_t table_id, char *const *values, int n_values,
                                 hl_arena_t *arena, hl_cat_partition_t **out, hl_error_t *err) {
  if (!cat->ops->partition_get) return unsupported(cat, "partition get", err);
  return cat->ops->partition_get(cat, table_id, values, n_values, arena, out, err);
}

hl_status_t hl_cat_partition_list(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena,
                                  hl_cat_partition_t **out, size_t *n, hl_error_t *err) {
  if (!cat->ops->partition_list) return unsupported(cat, "partition list", err);
  return cat->ops->partition_list(cat, table_id, arena, out, n, err);
}

hl_status_t hl_cat_partition_count(hl_cat_t *cat, int64_t table_id, size_t *n, hl_error_t *err) {
  if (!cat->ops->partition_count) return unsupported(cat, "partition count", err);
  return cat->ops->partition_count(cat, table_id, n, err);
}

/* hl_cat_partition_tdates of a backend that keeps no counts */
typedef struct tdates_ctx {
  size_t n, n_tdates;
} tdates_ctx_t;

static hl_status_t tdates_take(void *ctx, const hl_cat_partition_t *p, hl_error_t *err) {
  (void)err;
  tdates_ctx_t *c = ctx;
  const char *v = p->n_values > 0 ? p->values[0] : NULL;
  c->n++;
  c->n_tdates += v && hl_tdate_parse(v, strlen(v), NULL, NULL);
  return HL_OK;
}

hl_status_t hl_cat_partition_tdates(hl_cat_t *cat, int64_t table_id, size_t *n, size_t *n_tdates,
                                    hl_error_t *err) {
  *n = *n_tdates = 0;
  if (cat->ops->partition_tdates)
    return cat->ops->partition_tdates(cat, table_id, n, n_tdates, err);
  tdates_ctx_t c = {0, 0};
  hl_status_t rc = hl_cat_partition_scan(cat, table_id, NULL, tdates_take, &c, err);
  if (rc == HL_OK) {
    *n = c.n;
    *n_tdates = c.n_tdates;
  }
  return rc;
}

hl_status_t hl_cat_partition_update(hl_cat_t *cat, const hl_cat_partition_t *part,
                                    hl_error_t *err) {
  if (!cat->ops->partition_update) return unsupported(cat, "partition update", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_part_update(cat, part, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->partition_update(cat, part, err);
}

hl_status_t hl_cat_partition_set_columns_all(hl_cat_t *cat, int64_t table_id,
                                             const hl_cat_column_t *cols, int n, hl_error_t *err) {
  if (!cat->ops->partition_set_columns_all)
    return unsupported(cat, "partition set columns all", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_irreversible(cat, "change of every partition's columns", err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->partition_set_columns_all(cat, table_id, cols, n, err);
}

hl_status_t hl_cat_partition_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err) {
  if (!cat->ops->partition_drop) return unsupported(cat, "partition drop", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_part_drop(cat, partition_id, err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->partition_drop(cat, partition_id, err);
}

hl_status_t hl_cat_locations_within(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                    hl_cat_location_user_t **out, size_t *n, hl_error_t *err) {
  if (!cat->ops->locations_within) return unsupported(cat, "locations within", err);
  return cat->ops->locations_within(cat, dir, arena, out, n, err);
}

hl_status_t hl_cat_locations_at(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                                hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                                hl_error_t *err) {
  if (!cat->ops->locations_at) return unsupported(cat, "locations at", err);
  return cat->ops->locations_at(cat, paths, n_paths, arena, out, n, err);
}

hl_status_t hl_cat_col_stats_put(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                 const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err) {
  if (!cat->ops->col_stats_put) return unsupported(cat, "col stats put", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_irreversible(cat, "column statistics update", err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->col_stats_put(cat, table_id, partition_id, stats, n, err);
}

hl_status_t hl_cat_col_stats_get(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                 const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                                 hl_error_t *err) {
  if (!cat->ops->col_stats_get) return unsupported(cat, "col stats get", err);
  return cat->ops->col_stats_get(cat, table_id, partition_id, col, arena, out, err);
}

hl_status_t hl_cat_col_stats_list_parts(hl_cat_t *cat, int64_t table_id, const char *col,
                                        hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                        hl_error_t *err) {
  if (!cat->ops->col_stats_list_parts) return unsupported(cat, "col stats list parts", err);
  return cat->ops->col_stats_list_parts(cat, table_id, col, arena, out, n, err);
}

hl_status_t hl_cat_col_stats_delete(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                    const char *col, bool *deleted, hl_error_t *err) {
  *deleted = false;
  if (!cat->ops->col_stats_delete) return unsupported(cat, "col stats delete", err);
  if (hl_cat_journaling(cat)) {
    hl_status_t jrc = hl_cat_journal_irreversible(cat, "column statistics delete", err);
    if (jrc != HL_OK) return jrc;
  }
  return cat->ops->col_stats_delete(cat, table_id, partition_id, col, deleted, err);
}

int hl_cat_schema_version(hl_cat_t *cat) {
  return hl_cat_sq_schema_version(hl_cat_local(cat));
}

hl_status_t hl_cat_intent_add(hl_cat_t *cat, const hl_cat_intent_t *intent, int64_t *id,
                              hl_error_t *err) {
  return hl_cat_sq_intent_add(hl_cat_local(cat), intent, id, err);
}

hl_status_t hl_cat_intent_update(hl_cat_t *cat, int64_t id, const char *state, const char *plan,
                                 hl_error_t *err) {
  return hl_cat_sq_intent_update(hl_cat_local(cat), id, state, plan, err);
}

hl_status_t hl_cat_intent_list(hl_cat_t *cat, hl_arena_t *arena, hl_cat_intent_t **out, size_t *n,
                               hl_error_t *err) {
  return hl_cat_sq_intent_list(hl_cat_local(cat), arena, out, n, err);
}

hl_status_t hl_cat_intent_get(hl_cat_t *cat, int64_t id, hl_arena_t *arena, hl_cat_intent_t *out,
                              bool *found, hl_error_t *err) {
  return hl_cat_sq_intent_get(hl_cat_local(cat), id, arena, out, found, err);
}

hl_status_t hl_cat_intent_claim(hl_cat_t *cat, const hl_cat_owner_t *dead, const hl_cat_owner_t *me,
                                hl_arena_t *arena, int64_t **ids, size_t *n_ids, char ***locks,
                                size_t *n_locks, hl_error_t *err) {
  return hl_cat_sq_intent_claim(hl_cat_local(cat), dead, me, arena, ids, n_ids, locks, n_locks,
                                err);
}

hl_status_t hl_cat_intent_hand_over(hl_cat_t *cat, int64_t id, const hl_cat_owner_t *me,
                                    const hl_cat_owner_t *to, char *const *locks, size_t n_locks,
                                    hl_error_t *err) {
  return hl_cat_sq_intent_hand_over(hl_cat_local(cat), id, me, to, locks, n_locks, err);
}

hl_status_t hl_cat_intent_delete(hl_cat_t *cat, int64_t id, hl_error_t *err) {
  return hl_cat_sq_intent_delete(hl_cat_local(cat), id, err);
}

hl_status_t hl_cat_lock_try(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                            const hl_cat_owner_t *stale, bool *acquired, hl_cat_owner_t *holder,
                            hl_arena_t *arena, hl_error_t *err) {
  return hl_cat_sq_lock_try(hl_cat_local(cat), name, me, stale, acquired, holder, arena, err);
}

hl_status_t hl_cat_lock_release(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                                hl_error_t *err) {
  return hl_cat_sq_lock_release(hl_cat_local(cat), name, me, err);
}
