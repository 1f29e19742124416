/*
 * cmd_partition.c -- ALTER TABLE ... ADD / DROP / RENAME PARTITION,
 * ALTER TABLE ... PARTITION (...) SET LOCATION, and SHOW PARTITIONS.
 *
 * Specs are checked against the partition keys (any key order; values
 * typed and normalised by cmd_util.c) before anything changes.  Every
 * statement is one catalog transaction; directories are created or moved
 * inside it and put back if the commit fails; managed data of dropped
 * partitions is removed only after the commit.  External data is never
 * touched.
 */
#include "exec/cmd_int.h"

#include <string.h>
#include <time.h>

/* Looks up the partition with VALUES; *out NULL when there is none. */
static hl_status_t part_find(hl_session_t *s, hl_table_t *t, char **values, hl_arena_t *arena,
                             hl_cat_partition_t **out, hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  *out = NULL;
  hl_status_t rc = hl_cat_partition_get(s->cat, t->cat->id, values, t->n_part, arena, out, &e);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(&e);
    *out = NULL;
    return HL_OK;
  }
  if (rc != HL_OK) hl_err_move(err, &e);
  return rc;
}

static bool same_values(char **a, char **b, int n) {
  for (int i = 0; i < n; i++) {
    if (!a[i] || !b[i]) {
      if (a[i] != b[i]) return false;
    } else if (strcmp(a[i], b[i]) != 0) {
      return false;
    }
  }
  return true;
}

/* --------------------------------------------------------------- ADD */

static hl_status_t add_partitions(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                  hl_arena_t *arena, hl_error_t *err) {
  const char *dflt = hl_cmd_default_part_name(s);
  int n = alt->n_part_specs;
  hl_cat_partition_t *parts = hl_arena_zalloc(arena, sizeof(*parts) * (size_t)(n + 1));
  char **created = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(n + 1));
  if (!parts || !created) return hl_err_nomem(err);
  int n_new = 0;
  hl_status_t rc = HL_OK;
  for (int i = 0; i < n; i++) {
    const hl_ast_part_spec_t *spec = &alt->part_specs[i];
    char **values;
    rc = hl_cmd_part_spec_full(s, t, spec, arena, &values, err);
    if (rc != HL_OK) return rc;
    char *name = hl_table_part_name(t, values, dflt, arena);
    if (!name) return hl_err_nomem(err);
    hl_cat_partition_t *existing;
    rc = part_find(s, t, values, arena, &existing, err);
    if (rc != HL_OK) return rc;
    bool dup = existing != NULL;
    for (int j = 0; j < n_new && !dup; j++)
      dup = same_values(parts[j].values, values, t->n_part);
    if (dup) {
      if (alt->if_not_exists) continue;
      return hl_err_set_at(err, spec->pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                           "partition \"%s\" already exists in table \"%s.%s\"", name, HL_TNAME(t));
    }
    hl_cat_partition_t *p = &parts[n_new++];
    p->table_id = t->cat->id;
    p->values = values;
    p->n_values = t->n_part;
    p->name = name;
    p->create_time = (int64_t)time(NULL);
    const char *loc = alt->part_locations ? alt->part_locations[i] : NULL;
    if (loc) {
      rc = hl_cmd_resolve_location(loc, t->cat->location, spec->pos, arena, &p->location, err);
      if (rc != HL_OK) return rc;
    } else {
      p->location = hl_table_part_path(t, values, dflt, arena);
      if (!p->location) return hl_err_nomem(err);
    }
  }
  if (n_new == 0) return HL_OK;
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  for (int i = 0; rc == HL_OK && i < n_new; i++) {
    rc = hl_cat_partition_add(s->cat, &parts[i], err);
    if (rc == HL_OK) rc = hl_cmd_mkdirs_tracked(s, parts[i].location, arena, &created[i], err);
  }
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    for (int i = n_new - 1; i >= 0; i--)
      hl_cmd_undo_mkdirs(s, created[i]);
  }
  return rc;
}

/* -------------------------------------------------------------- DROP */

/* Removes a dropped managed partition's directory, then its parents up to
 * (not including) the table directory while they are empty. */
static void remove_partition_dir(hl_session_t *s, hl_table_t *t, const char *loc,
                                 hl_arena_t *arena) {
  const char *table_loc = t->cat->location;
  if (hl_cmd_path_under(table_loc, loc)) return; /* never the table itself */
  hl_cmd_remove_data(s, loc);
  if (!hl_cmd_path_under(loc, table_loc)) return;
  char *dir = hl_arena_strdup(arena, loc);
  if (!dir) return;
  for (;;) {
    char *slash = strrchr(dir, '/');
    if (!slash) return;
    *slash = '\0';
    if (strcmp(dir, table_loc) == 0 || !hl_cmd_path_under(dir, table_loc)) return;
    hl_stor_entry_t *entries;
    size_t n_entries;
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = s->fs->ops->list(s->fs, dir, arena, &entries, &n_entries, &e);
    if (rc == HL_OK && n_entries == 0) rc = s->fs->ops->rmdir(s->fs, dir, &e);
    hl_err_clear(&e);
    if (rc != HL_OK || n_entries != 0) return;
  }
}

static hl_status_t drop_partitions(hl_session_t *s, const hl_ast_alter_table_t *alt, long pos,
                                   hl_table_t *t, hl_arena_t *arena, hl_error_t *err) {
  if (t->n_part == 0)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  if (alt->purge && t->cat->external)
    return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "PURGE is not allowed on external table \"%s.%s\": its data is never "
                         "deleted",
                         HL_TNAME(t));
  hl_cat_partition_t *parts;
  size_t n_parts;
  hl_status_t rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n_parts, err);
  if (rc != HL_OK) return rc;
  bool *doomed = hl_arena_zalloc(arena, n_parts + 1);
  if (!doomed) return hl_err_nomem(err);
  for (int i = 0; i < alt->n_part_specs; i++) {
    hl_cmd_part_filter_t f;
    rc = hl_cmd_part_filter_compile(s, t, &alt->part_specs[i], arena, &f, err);
    if (rc != HL_OK) return rc;
    size_t matched = 0;
    for (size_t j = 0; j < n_parts; j++) {
      if (hl_cmd_part_filter_match(t, &f, &parts[j], arena)) {
        doomed[j] = true;
        matched++;
      }
    }
    if (matched == 0 && !alt->if_exists &&
        !hl_cmd_setting_true(s, "hive.exec.drop.ignorenonexistent"))
      return hl_err_set_at(err, alt->part_specs[i].pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                           "no partition of table \"%s.%s\" matches the partition spec",
                           HL_TNAME(t));
  }
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  for (size_t j = 0; rc == HL_OK && j < n_parts; j++)
    if (doomed[j]) rc = hl_cat_partition_drop(s->cat, parts[j].id, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    return rc;
  }
  if (!t->cat->external)
    for (size_t j = 0; j < n_parts; j++)
      if (doomed[j]) remove_partition_dir(s, t, parts[j].location, arena);
  return HL_OK;
}

/* ------------------------------------------------- RENAME / LOCATION */

static hl_status_t get_existing(hl_session_t *s, hl_table_t *t, const hl_ast_part_spec_t *spec,
                                hl_arena_t *arena, hl_cat_partition_t **out, hl_error_t *err) {
  char **values;
  hl_status_t rc = hl_cmd_part_spec_full(s, t, spec, arena, &values, err);
  if (rc == HL_OK) rc = part_find(s, t, values, arena, out, err);
  if (rc != HL_OK) return rc;
  if (!*out) {
    char *name = hl_table_part_name(t, values, hl_cmd_default_part_name(s), arena);
    return hl_err_set_at(err, spec->pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                         "partition \"%s\" does not exist in table \"%s.%s\"", name ? name : "?",
                         HL_TNAME(t));
  }
  return HL_OK;
}

static hl_status_t rename_partition(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                    hl_arena_t *arena, hl_error_t *err) {
  const char *dflt = hl_cmd_default_part_name(s);
  hl_cat_partition_t *old;
  hl_status_t rc = get_existing(s, t, &alt->part_specs[0], arena, &old, err);
  if (rc != HL_OK) return rc;
  char **values;
  rc = hl_cmd_part_spec_full(s, t, &alt->part_specs[1], arena, &values, err);
  if (rc != HL_OK) return rc;
  char *name = hl_table_part_name(t, values, dflt, arena);
  char *old_default = hl_table_part_path(t, old->values, dflt, arena);
  if (!name || !old_default) return hl_err_nomem(err);
  hl_cat_partition_t *clash;
  rc = part_find(s, t, values, arena, &clash, err);
  if (rc != HL_OK) return rc;
  if (clash)
    return hl_err_set_at(err, alt->part_specs[1].pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                         "partition \"%s\" already exists in table \"%s.%s\"", name, HL_TNAME(t));
  hl_cat_partition_t np = *old;
  np.values = values;
  np.name = name;
  /* A managed partition at its default path moves with its name. */
  bool move = !t->cat->external && strcmp(old->location, old_default) == 0;
  hl_stor_stat_t st = {0};
  if (move) {
    np.location = hl_table_part_path(t, values, dflt, arena);
    if (!np.location) return hl_err_nomem(err);
    rc = s->fs->ops->stat(s->fs, old->location, &st, err);
    if (rc != HL_OK) return rc;
  }
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  rc = hl_cat_partition_update(s->cat, &np, err);
  bool renamed = false;
  char *created = NULL;
  if (rc == HL_OK && move && st.exists) {
    char *parent = hl_arena_strdup(arena, np.location);
    if (!parent)
      rc = hl_err_nomem(err);
    else {
      *strrchr(parent, '/') = '\0';
      rc = hl_cmd_mkdirs_tracked(s, parent, arena, &created, err);
    }
    if (rc == HL_OK) rc = s->fs->ops->rename(s->fs, old->location, np.location, err);
    renamed = rc == HL_OK;
  }
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    if (renamed) {
      hl_error_t ignored;
      hl_err_init(&ignored);
      s->fs->ops->rename(s->fs, np.location, old->location, &ignored);
      hl_err_clear(&ignored);
    }
    hl_cmd_undo_mkdirs(s, created);
    return rc;
  }
  if (renamed) remove_partition_dir(s, t, old->location, arena); /* empty parents only */
  return HL_OK;
}

static hl_status_t set_partition_location(hl_session_t *s, const hl_ast_alter_table_t *alt,
                                          hl_table_t *t, hl_arena_t *arena, hl_error_t *err) {
  hl_cat_partition_t *p;
  hl_status_t rc = get_existing(s, t, &alt->part_specs[0], arena, &p, err);
  if (rc != HL_OK) return rc;
  hl_cat_partition_t np = *p;
  rc = hl_cmd_resolve_location(alt->location, t->cat->location, alt->part_specs[0].pos, arena,
                               &np.location, err);
  if (rc != HL_OK) return rc;
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  rc = hl_cat_partition_update(s->cat, &np, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) hl_cat_rollback(s->cat);
  return rc;
}

hl_status_t hl_cmd_alter_partitions(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                    hl_arena_t *arena, hl_error_t *err) {
  long pos = alt->name.pos;
  if (t->n_part == 0)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  switch (alt->kind) {
  case HL_ALTER_ADD_PARTITIONS:
    return add_partitions(s, alt, t, arena, err);
  case HL_ALTER_DROP_PARTITIONS:
    return drop_partitions(s, alt, pos, t, arena, err);
  case HL_ALTER_RENAME_PARTITION:
    if (alt->n_part_specs != 2) break;
    return rename_partition(s, alt, t, arena, err);
  case HL_ALTER_SET_LOCATION:
    if (alt->n_part_specs != 1) break;
    return set_partition_location(s, alt, t, arena, err);
  default:
    break;
  }
  return hl_err_set_at(err, pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                       "malformed partition statement");
}

/* ---------------------------------------------------- SHOW PARTITIONS */

hl_status_t hl_cmd_show_partitions(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                   hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  if (t->n_part == 0)
    return hl_err_set_at(err, stmt->table.pos, HL_ERROR,
                         HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  hl_cmd_part_filter_t f = {0};
  if (stmt->part_spec) {
    rc = hl_cmd_part_filter_compile(s, t, stmt->part_spec, arena, &f, err);
    if (rc != HL_OK) return rc;
  }
  hl_cat_partition_t *parts;
  size_t n;
  rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n, err);
  if (rc != HL_OK) return rc;
  char **names = hl_arena_alloc(arena, sizeof(char *) * (n + 1));
  if (!names) return hl_err_nomem(err);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (!stmt->part_spec || hl_cmd_part_filter_match(t, &f, &parts[i], arena))
      names[kept++] = parts[i].name;
  hl_cmd_sort_strings(names, kept);
  return hl_cmd_lines_result(arena, "partition", names, kept, result, err);
}
