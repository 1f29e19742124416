/*
 * cmd_partition.c -- ALTER TABLE ... ADD / DROP / RENAME PARTITION,
 * ALTER TABLE ... PARTITION (...) SET LOCATION, and SHOW PARTITIONS
 * [PARTITION (...)] [WHERE ...] [ORDER BY ...] [LIMIT n].
 *
 * Specs are checked against the partition keys (any key order; values
 * typed and normalised by cmd_util.c) before anything changes.  Every
 * statement is one catalog transaction; directories are created or moved
 * inside it and put back if the commit fails; managed data of dropped
 * partitions is removed only after the commit.  External data is never
 * touched.
 */
#include "command/cmd_int.h"
#include "util/partpath.h"
#include "session/loc_allow.h"
#include "txn/txn.h"

#include "plan/pin.h"
#include "plan/plan.h"
#include "plan/projection.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/* A partition's location must not be another partition's of the same
 * table, nor lie inside one: a write to either would change the other's
 * files (55000).  SELF (0: none) is the partition being moved; NEWS[0..N)
 * are partitions being added by the same statement. */
static hl_status_t check_partition_location(hl_session_t *s, const hl_table_t *t, const char *name,
                                            const char *loc, int64_t self,
                                            const hl_cat_partition_t *news, int n_news, long pos,
                                            hl_arena_t *arena, hl_error_t *err) {
  /* LOC and each of its parents, probed exactly (index lookups) */
  size_t depth = 1;
  for (const char *c = loc; *c; c++)
    depth += *c == '/';
  const char **paths = hl_arena_alloc(arena, sizeof(char *) * depth);
  if (!paths) return hl_err_nomem(err);
  size_t n_paths = 0;
  for (char *p = hl_arena_strdup(arena, loc); p && *p && n_paths < depth;) {
    paths[n_paths++] = p;
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) break;
    p = hl_arena_strndup(arena, p, (size_t)(slash - p));
  }
  hl_cat_location_user_t *users;
  size_t n;
  hl_status_t rc = hl_cat_locations_at(s->cat, paths, n_paths, arena, &users, &n, err);
  const char *other = NULL, *at = NULL;
  for (size_t i = 0; rc == HL_OK && !other && i < n; i++)
    if (users[i].table_id == t->cat->id && users[i].partition_id && users[i].partition_id != self) {
      other = users[i].partition;
      at = users[i].location;
    }
  for (int i = 0; rc == HL_OK && !other && i < n_news; i++)
    if (news[i].location && hl_cmd_path_under(loc, news[i].location)) {
      other = news[i].name;
      at = news[i].location;
    }
  if (rc != HL_OK || !other) return rc;
  return hl_err_set_at(err, pos, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                       strcmp(at, loc) == 0
                           ? "location \"%s\" of partition \"%s\" is already the location of "
                             "partition \"%s\" of table \"%s.%s\""
                           : "location \"%s\" of partition \"%s\" lies inside the location of "
                             "partition \"%s\" of table \"%s.%s\"",
                       loc, name, other, HL_TNAME(t));
}

static hl_status_t add_partitions(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                  hl_arena_t *arena, hl_error_t *err) {
  const char *dflt = hl_cmd_default_part_name(s, t);
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
    rc = hl_loc_allow_check_table(s, p->location, HL_TNAME(t), name, err);
    if (rc != HL_OK) return hl_err_position(err, spec->pos), rc;
    rc = check_partition_location(s, t, name, p->location, 0, parts, n_new - 1, spec->pos, arena,
                                  err);
    if (rc != HL_OK) return rc;
  }
  if (n_new == 0) return HL_OK;
  size_t max_parts, n_have;
  rc = hl_cmd_max_partitions(s, &max_parts, err);
  if (rc == HL_OK) rc = hl_cat_partition_count(s->cat, t->cat->id, &n_have, err);
  if (rc != HL_OK) return rc;
  if (n_have + (size_t)n_new > max_parts)
    return hl_err_position(err, alt->part_specs[0].pos),
           hl_cmd_too_many_partitions(t, max_parts, err);
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  rc = hl_cat_partition_add_many(s->cat, parts, (size_t)n_new, err);
  /* text dates in the first key: the table's incremental field */
  if (rc == HL_OK) rc = hl_cmd_incr_auto(s, t, arena, err);
  for (int i = 0; rc == HL_OK && i < n_new; i++)
    rc = hl_cmd_mkdirs_tracked(s, parts[i].location, arena, &created[i], err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    for (int i = n_new - 1; i >= 0; i--)
      hl_cmd_undo_mkdirs(s, created[i]);
  }
  return rc;
}

/* ------------------------------------------------ specs in the catalog */

/* The catalog filter (a superset) of spec F: STRING keys compared with
 * a value become pins and byte-order bounds of the value index, INT and
 * DATE keys given with = pins with their other spellings' ranges, so a
 * spec naming a partition reads that partition, not the table.  The
 * spec is still matched exactly against what the catalog returns. */
static hl_status_t spec_cat_filter(const hl_table_t *t, const hl_cmd_part_filter_t *f,
                                   hl_arena_t *arena, hl_cat_part_filter_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  const char **eq = NULL, **lo = NULL, **hi = NULL;
  const hl_cat_vrange_t **alt = NULL;
  int *n_alt = NULL;
  for (int i = 0; i < f->n; i++) {
    int k = f->key_idx[i];
    const hl_value_t *v = &f->values[i];
    hl_ast_op_t op = f->ops[i];
    const hl_type_t *kt = t->types[t->n_data + k];
    /* an INT or DATE key given with = : its canonical text and the ranges
     * of its other spellings (plan/pin.h), as the planner's pins */
    if (!v->is_null && op == HL_OP_EQ && kt->id != HL_T_STRING) {
      char *canon;
      hl_cat_vrange_t *ranges;
      int n_ranges;
      if (!hl_plan_pin_typed(arena, kt, kt, v, &canon, &ranges, &n_ranges))
        return hl_err_nomem(err);
      if (!canon) continue;
      if (!eq && !(eq = hl_arena_zalloc(arena, sizeof *eq * (size_t)t->n_part)))
        return hl_err_nomem(err);
      if (!alt && (!(alt = hl_arena_zalloc(arena, sizeof *alt * (size_t)t->n_part)) ||
                   !(n_alt = hl_arena_zalloc(arena, sizeof *n_alt * (size_t)t->n_part))))
        return hl_err_nomem(err);
      if (!eq[k]) {
        eq[k] = canon;
        alt[k] = ranges;
        n_alt[k] = n_ranges;
      }
      continue;
    }
    if (v->is_null || kt->id != HL_T_STRING || v->u.s.len == 0 ||
        memchr(v->u.s.ptr, 0, v->u.s.len) || op == HL_OP_NE)
      continue;
    const char ***side = op == HL_OP_EQ ? &eq : op == HL_OP_GT || op == HL_OP_GE ? &lo : &hi;
    if (!*side && !(*side = hl_arena_zalloc(arena, sizeof **side * (size_t)t->n_part)))
      return hl_err_nomem(err);
    /* two items on one key and side: the exact match decides, keep one */
    if (!(*side)[k] && !((*side)[k] = hl_arena_strndup(arena, v->u.s.ptr, v->u.s.len)))
      return hl_err_nomem(err);
  }
  out->eq = eq;
  out->lo = lo;
  out->hi = hi;
  out->alt = alt;
  out->n_alt = n_alt;
  return HL_OK;
}

/* Partitions matching a spec, streamed from the catalog: copies of their
 * name, values, id and location. */
typedef struct spec_match {
  const hl_table_t *t;
  const hl_cmd_part_filter_t *f;
  hl_arena_t *arena;   /* the copies */
  hl_arena_t *scratch; /* the match's typed values, reset per partition */
  hl_cat_partition_t *parts;
  size_t n, cap;
  size_t limit; /* stop after this many (SIZE_MAX: all) */
} spec_match_t;

static hl_status_t spec_take(void *ctx, const hl_cat_partition_t *part, hl_error_t *err) {
  spec_match_t *m = ctx;
  hl_arena_reset(m->scratch);
  if (m->f && !hl_cmd_part_filter_match(m->t, m->f, part, m->scratch)) return HL_OK;
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 16;
    hl_cat_partition_t *grown =
        hl_arena_realloc(m->arena, m->parts, sizeof *m->parts * m->cap, sizeof *m->parts * cap);
    if (!grown) return hl_err_nomem(err);
    m->parts = grown;
    m->cap = cap;
  }
  hl_status_t rc = hl_cat_partition_copy_key(m->arena, part, &m->parts[m->n], err);
  if (rc != HL_OK) return rc;
  return ++m->n >= m->limit ? HL_DONE : HL_OK;
}

/* The partitions of T matching F (NULL: all), in name order, at most
 * LIMIT of them, into ARENA (*OUT, *N). */
static hl_status_t spec_partitions(hl_session_t *s, const hl_table_t *t,
                                   const hl_cmd_part_filter_t *f, size_t limit, hl_arena_t *arena,
                                   hl_cat_partition_t **out, size_t *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  if (limit == 0) return HL_OK;
  hl_cat_part_filter_t cf = {0};
  hl_status_t rc = f ? spec_cat_filter(t, f, arena, &cf, err) : HL_OK;
  if (rc != HL_OK) return rc;
  spec_match_t m = {.t = t, .f = f, .arena = arena, .limit = limit};
  if (!(m.scratch = hl_arena_create(0))) return hl_err_nomem(err);
  rc = hl_cat_partition_scan(s->cat, t->cat->id, &cf, spec_take, &m, err);
  hl_arena_destroy(m.scratch);
  if (rc != HL_OK) return rc;
  *out = m.parts;
  *n = m.n;
  return HL_OK;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(((const hl_cat_partition_t *)a)->name, ((const hl_cat_partition_t *)b)->name);
}

static int cmp_id(const void *a, const void *b) {
  int64_t x = ((const hl_cat_partition_t *)a)->id, y = ((const hl_cat_partition_t *)b)->id;
  return x < y ? -1 : x > y;
}

/* -------------------------------------------------------------- DROP */

/* *KEPT: the name of a partition of T at or under LOC that is not among
 * DOOMED[0..N_DOOMED) (sorted by id), or NULL.  The embedded catalog
 * answers by its location index; a remote metastore cannot, so its
 * partitions are listed once (*ALL, *N_ALL keep the listing). */
static hl_status_t kept_partition_under(hl_session_t *s, const hl_table_t *t, const char *loc,
                                        const hl_cat_partition_t *doomed, size_t n_doomed,
                                        hl_arena_t *arena, hl_cat_partition_t **all, size_t *n_all,
                                        const char **kept, hl_error_t *err) {
  *kept = NULL;
  hl_status_t rc = HL_OK;
  if (hl_cat_local(s->cat) == s->cat) {
    hl_cat_location_user_t *users;
    size_t n_users;
    rc = hl_cat_locations_within(s->cat, loc, arena, &users, &n_users, err);
    for (size_t u = 0; rc == HL_OK && !*kept && u < n_users; u++) {
      hl_cat_partition_t key = {.id = users[u].partition_id};
      if (users[u].table_id == t->cat->id && users[u].partition_id &&
          !bsearch(&key, doomed, n_doomed, sizeof *doomed, cmp_id))
        *kept = users[u].partition;
    }
    return rc;
  }
  if (!*all) rc = hl_cat_partition_list(s->cat, t->cat->id, arena, all, n_all, err);
  for (size_t k = 0; rc == HL_OK && !*kept && k < *n_all; k++)
    if (hl_cmd_path_under((*all)[k].location, loc) &&
        !bsearch(&(*all)[k], doomed, n_doomed, sizeof *doomed, cmp_id))
      *kept = (*all)[k].name;
  return rc;
}

/* The catalog step of DROP PARTITION, inside the write's commit. */
typedef struct part_drop {
  hl_session_t *s;
  hl_cat_partition_t *parts;
  size_t n;
  const bool *doomed;
} part_drop_t;

static hl_status_t part_drop_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  part_drop_t *d = arg;
  hl_status_t rc = HL_OK;
  for (size_t j = 0; rc == HL_OK && j < d->n; j++)
    if (d->doomed[j]) rc = hl_cat_partition_drop(d->s->cat, d->parts[j].id, err);
  return rc;
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
  /* Only the partitions the specs match are read (through the value
   * index where they name STRING values): dropping one of a million
   * partitions does not list the others. */
  hl_cat_partition_t *parts = NULL;
  size_t n_parts = 0, cap_parts = 0;
  hl_status_t rc = HL_OK;
  for (int i = 0; i < alt->n_part_specs; i++) {
    hl_cmd_part_filter_t f;
    rc = hl_cmd_part_filter_compile(s, t, &alt->part_specs[i], arena, &f, err);
    hl_cat_partition_t *matched;
    size_t n_matched;
    if (rc == HL_OK) rc = spec_partitions(s, t, &f, SIZE_MAX, arena, &matched, &n_matched, err);
    if (rc != HL_OK) return rc;
    if (n_matched == 0 && !alt->if_exists &&
        !hl_cmd_setting_true(s, "hive.exec.drop.ignorenonexistent"))
      return hl_err_set_at(err, alt->part_specs[i].pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                           "no partition of table \"%s.%s\" matches the partition spec",
                           HL_TNAME(t));
    if (n_parts + n_matched > cap_parts) {
      size_t cap = n_parts + n_matched;
      hl_cat_partition_t *grown =
          hl_arena_realloc(arena, parts, sizeof *parts * cap_parts, sizeof *parts * cap);
      if (!grown) return hl_err_nomem(err);
      parts = grown;
      cap_parts = cap;
    }
    if (n_matched) memcpy(parts + n_parts, matched, sizeof *parts * n_matched);
    n_parts += n_matched;
  }
  /* specs that overlap match a partition twice: drop it once (by name:
   * a listing of names need not carry ids) */
  if (n_parts > 1) qsort(parts, n_parts, sizeof *parts, cmp_name);
  size_t n_unique = 0;
  for (size_t j = 0; j < n_parts; j++)
    if (n_unique == 0 || strcmp(parts[n_unique - 1].name, parts[j].name) != 0)
      parts[n_unique++] = parts[j];
  /* the whole records (locations, ids) of those only */
  rc = hl_cat_partition_get_many(s->cat, t->cat->id, parts, n_unique, arena, &parts, &n_parts, err);
  if (rc != HL_OK) return rc;
  if (n_parts > 1) qsort(parts, n_parts, sizeof *parts, cmp_id);
  bool *doomed = hl_arena_alloc(arena, n_parts + 1);
  if (!doomed) return hl_err_nomem(err);
  memset(doomed, 1, n_parts + 1);
  /* One write (txn.h): the table's lock, each dropped managed partition's
   * directory to the trash, the catalog change, then the trash and the
   * emptied directories go; a crash anywhere is repaired by recovery. */
  hl_txn_t *txn;
  rc = hl_cmd_txn_begin(s, "drop", NULL, arena, &txn, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, HL_TNAME(t), arena, err);
  const char *table_loc = t->cat->location;
  hl_cat_partition_t *all = NULL; /* every partition, for a remote metastore */
  size_t n_all = 0;
  for (size_t j = 0; rc == HL_OK && !t->cat->external && j < n_parts; j++) {
    const char *loc = parts[j].location;
    /* never the table itself, the warehouse, or another partition's data */
    if (hl_cmd_path_under(table_loc, loc) || !hl_cmd_path_removable(s, loc)) continue;
    const char *kept = NULL;
    rc = kept_partition_under(s, t, loc, parts, n_parts, arena, &all, &n_all, &kept, err);
    if (rc != HL_OK) break;
    if (kept) {
      rc = hl_err_set_at(err, pos, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                         "cannot drop partition \"%s\" of table \"%s.%s\": its location \"%s\" "
                         "holds partition \"%s\", which is not dropped",
                         parts[j].name, HL_TNAME(t), loc, kept);
      break;
    }
    char *what =
        hl_arena_sprintf(arena, "partition \"%s\" of table \"%s.%s\"", parts[j].name, HL_TNAME(t));
    rc = what ? hl_cmd_check_write_location(s, loc, t->cat, parts[j].id, true, "drop", what, arena,
                                            err)
              : hl_err_nomem(err);
    hl_txn_target_t *tgt;
    if (rc == HL_OK)
      rc = hl_txn_target_add_drop(txn, loc, hl_cmd_path_under(loc, table_loc) ? table_loc : NULL,
                                  &tgt, err);
  }
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    return rc;
  }
  part_drop_t d = {s, parts, n_parts, doomed};
  rc = hl_txn_commit(txn, part_drop_apply, &d, err);
  if (rc != HL_OK && strcmp(err->sqlstate, HL_SS(IO_ERROR)) == 0)
    hl_err_prefix(err, "the data could not be removed, so nothing was dropped");
  return rc;
}

/* ------------------------------------------------- RENAME / LOCATION */

hl_status_t hl_cmd_part_get_existing(hl_session_t *s, hl_table_t *t, const hl_ast_part_spec_t *spec,
                                     hl_arena_t *arena, hl_cat_partition_t **out, hl_error_t *err) {
  char **values;
  hl_status_t rc = hl_cmd_part_spec_full(s, t, spec, arena, &values, err);
  if (rc == HL_OK) rc = part_find(s, t, values, arena, out, err);
  if (rc != HL_OK) return rc;
  if (!*out) {
    char *name = hl_table_part_name(t, values, hl_cmd_default_part_name(s, t), arena);
    return hl_err_set_at(err, spec->pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                         "partition \"%s\" does not exist in table \"%s.%s\"", name ? name : "?",
                         HL_TNAME(t));
  }
  return HL_OK;
}

/* The catalog step of RENAME PARTITION, inside the write's commit. */
typedef struct part_update {
  hl_session_t *s;
  const hl_cat_partition_t *part;
} part_update_t;

static hl_status_t part_update_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  part_update_t *u = arg;
  return hl_cat_partition_update(u->s->cat, u->part, err);
}

static hl_status_t rename_partition(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                    hl_arena_t *arena, hl_error_t *err) {
  const char *dflt = hl_cmd_default_part_name(s, t);
  hl_cat_partition_t *old;
  hl_status_t rc = hl_cmd_part_get_existing(s, t, &alt->part_specs[0], arena, &old, err);
  if (rc != HL_OK) return rc;
  char **values;
  rc = hl_cmd_part_spec_full(s, t, &alt->part_specs[1], arena, &values, err);
  if (rc != HL_OK) return rc;
  char *name = hl_table_part_name(t, values, dflt, arena);
  if (!name) return hl_err_nomem(err);
  hl_cat_partition_t *clash;
  rc = part_find(s, t, values, arena, &clash, err);
  if (rc != HL_OK) return rc;
  if (clash)
    return hl_err_set_at(err, alt->part_specs[1].pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                         "partition \"%s\" already exists in table \"%s.%s\"", name, HL_TNAME(t));
  hl_cat_partition_t np = *old;
  np.values = values;
  np.name = name;
  char *to;
  rc = hl_cmd_part_move_target(s, t, old, values, dflt, dflt, alt->part_specs[1].pos, arena, &to,
                               err);
  if (rc != HL_OK) return rc;
  bool move = to != NULL;
  if (move) np.location = to;
  /* One write (txn.h): the table locked, the directory renamed, the
   * catalog updated; a crash in between is rolled back by recovery. */
  hl_txn_t *txn;
  rc = hl_cmd_txn_begin(s, "rename", NULL, arena, &txn, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, HL_TNAME(t), arena, err);
  if (rc == HL_OK && move) rc = hl_txn_move_add(txn, old->location, np.location, err);
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    return rc;
  }
  part_update_t u = {s, &np};
  rc = hl_txn_commit(txn, part_update_apply, &u, err);
  if (rc == HL_OK && move) hl_cmd_prune_empty_parents(s, t->cat->location, old->location, arena);
  return rc;
}

static hl_status_t set_partition_location(hl_session_t *s, const hl_ast_alter_table_t *alt,
                                          hl_table_t *t, hl_arena_t *arena, hl_error_t *err) {
  hl_cat_partition_t *p;
  hl_status_t rc = hl_cmd_part_get_existing(s, t, &alt->part_specs[0], arena, &p, err);
  if (rc != HL_OK) return rc;
  hl_cat_partition_t np = *p;
  rc = hl_cmd_resolve_location(alt->location, t->cat->location, alt->part_specs[0].pos, arena,
                               &np.location, err);
  if (rc == HL_OK) rc = hl_loc_allow_check_table(s, np.location, HL_TNAME(t), np.name, err);
  if (rc != HL_OK) return hl_err_position(err, alt->part_specs[0].pos), rc;
  rc = check_partition_location(s, t, np.name, np.location, p->id, NULL, 0, alt->part_specs[0].pos,
                                arena, err);
  if (rc != HL_OK) return rc;
  /* the statistics described the old directory's files: no longer known
   * to be accurate (Hive clears the flag too), so no plan answers from them */
  if (strcmp(np.location, p->location) != 0 &&
      hl_kv_get(p->params, p->n_params, "COLUMN_STATS_ACCURATE")) {
    if (!(np.params = hl_arena_alloc(arena, sizeof(hl_kv_t) * (size_t)p->n_params)))
      return hl_err_nomem(err);
    np.n_params = 0;
    for (int i = 0; i < p->n_params; i++)
      if (strcmp(p->params[i].key, "COLUMN_STATS_ACCURATE") != 0)
        np.params[np.n_params++] = p->params[i];
  }
  hl_cat_partition_t *one = &np;
  return hl_cmd_cat_update(s, NULL, &one, 1, err);
}

hl_status_t hl_cmd_alter_partitions(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                    hl_arena_t *arena, hl_error_t *err) {
  long pos = alt->name.pos;
  if (t->n_part == 0)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  if ((alt->kind == HL_ALTER_ADD_PARTITIONS || alt->kind == HL_ALTER_DROP_PARTITIONS) &&
      hl_plan_projection_enabled(t))
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                         "cannot %s partitions of table \"%s.%s\": it uses partition projection "
                         "(projection.enabled=true), so its partitions are computed, not stored",
                         alt->kind == HL_ALTER_ADD_PARTITIONS ? "add" : "drop", HL_TNAME(t));
  switch (alt->kind) {
  case HL_ALTER_ADD_PARTITIONS:
    return add_partitions(s, alt, t, arena, err);
  case HL_ALTER_DROP_PARTITIONS:
    return drop_partitions(s, alt, pos, t, arena, err);
  case HL_ALTER_RENAME_PARTITION:
    if (alt->n_part_specs != 2) break;
    return rename_partition(s, alt, t, arena, err);
  case HL_ALTER_SET_DEFAULT_PART:
  case HL_ALTER_PART_KEY_TYPE:
    return hl_cmd_alter_part_keys(s, alt, t, arena, err); /* cmd_part_key.c */
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

/* One partition with its typed key values, for ORDER BY. */
typedef struct show_row {
  hl_cat_partition_t *part;
  hl_value_t *vals; /* n_part typed values */
} show_row_t;

typedef struct show_order {
  const hl_table_t *t;
  int n;
  int *key_idx;
  bool *desc;
  bool *nulls_first;
} show_order_t;

static int show_cmp(const show_order_t *o, const show_row_t *a, const show_row_t *b) {
  for (int i = 0; i < o->n; i++) {
    int k = o->key_idx[i];
    const hl_value_t *x = &a->vals[k], *y = &b->vals[k];
    int c;
    if (x->is_null || y->is_null) {
      if (x->is_null && y->is_null) continue;
      c = x->is_null == o->nulls_first[i] ? -1 : 1;
      return c; /* NULL placement does not flip with DESC */
    }
    c = hl_value_compare(o->t->types[o->t->n_data + k], x, y);
    if (c) return o->desc[i] ? -c : c;
  }
  return strcmp(a->part->name, b->part->name); /* total and stable */
}

/* Merge sort (qsort has no context argument in C11). */
static void show_sort(const show_order_t *o, show_row_t *v, show_row_t *tmp, size_t n) {
  if (n < 2) return;
  size_t h = n / 2;
  show_sort(o, v, tmp, h);
  show_sort(o, v + h, tmp, n - h);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = show_cmp(o, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
  while (i < h)
    tmp[k++] = v[i++];
  while (j < n)
    tmp[k++] = v[j++];
  memcpy(v, tmp, sizeof(*v) * n);
}

/* Whether A is a string literal naming the default partition (or empty,
 * which Hive also writes there). */
static bool is_default_literal(hl_session_t *s, const hl_table_t *t, const hl_ast_expr_t *a) {
  return a->kind == HL_AST_LITERAL && a->lit_type == HL_LIT_STRING &&
         (a->text_len == 0 || strcmp(a->text, hl_cmd_default_part_name(s, t)) == 0);
}

/* SHOW PARTITIONS names partitions, as DROP PARTITION's filters do: there
 * `k = '<default name>'` is the default partition and `k <> '<default
 * name>'` the others, whatever k's type (Hive compares partition names).
 * Everywhere else the key of the default partition is NULL, so before the
 * WHERE is planned as a query's WHERE such comparisons become k IS [NOT]
 * NULL.  Only AND / OR / NOT are looked through (other operators see the
 * key as NULL); the rewritten tree is a copy, the statement's is left
 * alone.  DEPTH stays below the parser's nesting limit. */
static hl_ast_expr_t *default_name_rewrite(hl_session_t *s, const hl_table_t *t, hl_ast_expr_t *a,
                                           int depth, hl_arena_t *arena) {
  if (!a || depth > 256) return a;
  if (a->kind == HL_AST_BINARY && (a->op == HL_OP_EQ || a->op == HL_OP_NE)) {
    hl_ast_expr_t *c = a->args[0], *v = a->args[1];
    if (c->kind != HL_AST_COLUMN) {
      c = a->args[1];
      v = a->args[0];
    }
    int k = c->kind == HL_AST_COLUMN ? hl_table_column_index(t, c->name) : -1;
    if (k < t->n_data || !is_default_literal(s, t, v)) return a;
    hl_ast_expr_t *e = hl_arena_zalloc(arena, sizeof(*e));
    hl_ast_expr_t **args = hl_arena_zalloc(arena, sizeof(*args));
    if (!e || !args) return NULL;
    e->kind = HL_AST_IS_NULL;
    e->pos = a->pos;
    e->negated = a->op == HL_OP_NE;
    args[0] = c;
    e->args = args;
    e->n_args = 1;
    return e;
  }
  bool logic = (a->kind == HL_AST_BINARY && (a->op == HL_OP_AND || a->op == HL_OP_OR)) ||
               (a->kind == HL_AST_UNARY && a->op == HL_OP_NOT);
  if (!logic) return a;
  hl_ast_expr_t *e = hl_arena_alloc(arena, sizeof(*e));
  hl_ast_expr_t **args = hl_arena_alloc(arena, sizeof(*args) * (size_t)a->n_args);
  if (!e || !args) return NULL;
  *e = *a;
  for (int i = 0; i < a->n_args; i++)
    if (!(args[i] = default_name_rewrite(s, t, a->args[i], depth + 1, arena))) return NULL;
  e->args = args;
  return e;
}

/* SHOW PARTITIONS with WHERE / ORDER BY / LIMIT: the WHERE clause is planned
 * as the WHERE of a SELECT on the table, so it prunes in the catalog with
 * exactly the predicate shapes queries support; ORDER BY compares typed
 * values (hr=9 before hr=10). */
static hl_status_t show_filtered(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_table_t *t,
                                 const hl_cmd_part_filter_t *spec_filter, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err) {
  const hl_ast_select_t *f = stmt->show_filter;
  show_order_t ord = {.t = t, .n = f->n_order_by};
  ord.key_idx = hl_arena_alloc(arena, sizeof(int) * (size_t)(f->n_order_by + 1));
  ord.desc = hl_arena_alloc(arena, sizeof(bool) * (size_t)(f->n_order_by + 1));
  ord.nulls_first = hl_arena_alloc(arena, sizeof(bool) * (size_t)(f->n_order_by + 1));
  if (!ord.key_idx || !ord.desc || !ord.nulls_first) return hl_err_nomem(err);
  for (int i = 0; i < f->n_order_by; i++) {
    const hl_ast_order_item_t *o = &f->order_by[i];
    int col = o->expr->kind == HL_AST_COLUMN ? hl_table_column_index(t, o->expr->name) : -1;
    if (col < t->n_data)
      return hl_err_set_at(err, o->expr->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "ORDER BY of SHOW PARTITIONS accepts only partition columns of table "
                           "\"%s.%s\"",
                           HL_TNAME(t));
    ord.key_idx[i] = col - t->n_data;
    ord.desc[i] = o->descending;
    /* Hive's default order: hive.default.nulls.last (true since Hive 4)
     * puts NULL last ascending and first descending */
    bool nulls_last = !hl_session_get(s, "hive.default.nulls.last") ||
                      strcasecmp(hl_session_get(s, "hive.default.nulls.last"), "false") != 0;
    ord.nulls_first[i] =
        o->nulls == 0 ? (nulls_last ? o->descending : !o->descending) : o->nulls == 1;
  }

  /* SELECT <first key> FROM t WHERE <where>: only its pruning is used */
  hl_ast_expr_t *col = hl_arena_zalloc(arena, sizeof(*col));
  hl_ast_select_t *sel = hl_arena_zalloc(arena, sizeof(*sel));
  hl_ast_select_item_t *item = hl_arena_zalloc(arena, sizeof(*item));
  hl_ast_table_ref_t *from = hl_arena_zalloc(arena, sizeof(*from));
  hl_ast_from_t *from_item = hl_arena_zalloc(arena, sizeof(*from_item));
  if (!col || !sel || !item || !from || !from_item) return hl_err_nomem(err);
  col->kind = HL_AST_COLUMN;
  col->name = t->cat->part_keys[0].name;
  col->pos = stmt->pos;
  item->expr = col;
  item->pos = stmt->pos;
  from->table = stmt->table;
  from->pos = stmt->table.pos;
  sel->items = item;
  sel->n_items = 1;
  sel->from = from;
  from_item->kind = HL_FROM_TABLE;
  from_item->table = stmt->table;
  from_item->pos = stmt->table.pos;
  sel->from_item = from_item;
  sel->where = f->where ? default_name_rewrite(s, t, f->where, 0, arena) : NULL;
  if (f->where && !sel->where) return hl_err_nomem(err);
  sel->pos = stmt->pos;
  hl_plan_t *plan;
  hl_status_t rc = hl_plan_select(s, sel, arena, &plan, err);
  if (rc != HL_OK) return rc;
  if (plan->filter || !plan->scan)
    return hl_err_set_at(err, f->where ? f->where->pos : stmt->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "WHERE of SHOW PARTITIONS may reference only partition columns of "
                         "table \"%s.%s\"",
                         HL_TNAME(t));
  size_t n = plan->scan->n_parts;
  show_row_t *rows = hl_arena_alloc(arena, sizeof(*rows) * (n + 1));
  show_row_t *tmp = hl_arena_alloc(arena, sizeof(*tmp) * (n + 1));
  if (!rows || !tmp) return hl_err_nomem(err);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    hl_cat_partition_t *p = &plan->scan->parts[i];
    if (stmt->part_spec && !hl_cmd_part_filter_match(t, spec_filter, p, arena)) continue;
    show_row_t *r = &rows[kept++];
    r->part = p;
    r->vals = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)t->n_part);
    if (!r->vals) return hl_err_nomem(err);
    for (int k = 0; k < t->n_part; k++) {
      rc = hl_table_part_value(t, k, p->values[k], arena, &r->vals[k], err);
      if (rc != HL_OK) return rc;
    }
  }
  show_sort(&ord, rows, tmp, kept);
  if (f->has_limit && (uint64_t)f->limit < kept) kept = (size_t)f->limit;
  char **names = hl_arena_alloc(arena, sizeof(char *) * (kept + 1));
  if (!names) return hl_err_nomem(err);
  for (size_t i = 0; i < kept; i++)
    names[i] = rows[i].part->name;
  return hl_cmd_lines_result(arena, "partition", names, kept, result, err);
}

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
  const hl_ast_select_t *sf = stmt->show_filter;
  if (sf && (sf->where || sf->n_order_by)) return show_filtered(s, stmt, t, &f, arena, result, err);
  /* name order is the catalog's: a LIMIT stops its read, and a spec
   * naming STRING values reads only those partitions */
  size_t limit = SIZE_MAX;
  if (sf && sf->has_limit && (uint64_t)sf->limit < SIZE_MAX) limit = (size_t)sf->limit;
  hl_cat_partition_t *parts;
  size_t n;
  rc = spec_partitions(s, t, stmt->part_spec ? &f : NULL, limit, arena, &parts, &n, err);
  if (rc != HL_OK) return rc;
  char **names = hl_arena_alloc(arena, sizeof(char *) * (n + 1));
  if (!names) return hl_err_nomem(err);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    names[kept++] = parts[i].name;
  /* hive.decode.partition.name=true shows values unescaped (ts=14:18 rather
   * than ts=14%3A18), as Hive does */
  const char *decode = hl_session_get(s, "hive.decode.partition.name");
  if (decode && strcasecmp(decode, "true") == 0)
    for (size_t i = 0; i < kept; i++) {
      hl_buf_t b;
      hl_buf_init(&b);
      hl_partpath_unescape(&b, names[i], strlen(names[i]));
      char *d = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
      hl_buf_fini(&b);
      if (!d) return hl_err_nomem(err);
      names[i] = d;
    }
  return hl_cmd_lines_result(arena, "partition", names, kept, result, err);
}
