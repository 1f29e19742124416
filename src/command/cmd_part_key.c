/*
 * cmd_part_key.c -- DDL on a table's partition keys as a whole:
 *
 *   ALTER TABLE t SET DEFAULT PARTITION TO 'name'   (a hivelite extension)
 *   ALTER TABLE t PARTITION COLUMN (key new_type)   (Hive)
 *
 * SET DEFAULT PARTITION TO gives the table its own name for the default
 * partition, kept in the table property hivelite.default.partition.name
 * (which then wins over hive.exec.default.partition.name): existing
 * default partitions are renamed -- a managed partition at its default path
 * has its directory moved -- and later NULL keys go to the new name.  Hive
 * has no such statement (its q-file default_partition_name.q uses it, but
 * Hive's grammar does not).  The moves and the catalog change are one write
 * transaction (txn.h), as RENAME PARTITION's are.
 *
 * PARTITION COLUMN changes a key's type in the metadata only, as Hive does;
 * every existing value must convert to the new type (Hive checks the same;
 * the default partition is skipped, HIVE-27682) and, because hivelite keeps
 * one canonical text per value, keep its text: an INT key made from
 * STRING '01' would name the partition "1" and is refused.
 */
#include "command/cmd_int.h"

#include "txn/txn.h"
#include "util/partpath.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------ SET DEFAULT PARTITION */

/* The catalog step, inside the write's commit: the renamed partitions and
 * the table's property. */
typedef struct default_apply {
  hl_session_t *s;
  const hl_cat_table_t *table;
  const hl_cat_partition_t *parts;
  size_t n;
} default_apply_t;

static hl_status_t default_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  (void)txn;
  default_apply_t *d = arg;
  hl_status_t rc = hl_cat_table_update(d->s->cat, d->table, err);
  for (size_t i = 0; rc == HL_OK && i < d->n; i++)
    rc = hl_cat_partition_update(d->s->cat, &d->parts[i], err);
  return rc;
}

static bool has_default_key(const hl_cat_partition_t *p) {
  for (int k = 0; k < p->n_values; k++)
    if (!p->values[k]) return true;
  return false;
}

static hl_status_t set_default_partition(hl_session_t *s, const hl_ast_alter_table_t *alt,
                                         hl_table_t *t, hl_arena_t *arena, hl_error_t *err) {
  const char *name = alt->default_part;
  long pos = alt->name.pos;
  size_t len = strlen(name);
  /* a directory name that must be escaped would not read back as itself */
  if (len == 0 || hl_partpath_needs_escape(name, len))
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "invalid default partition name \"%s\": it must be non-empty and hold "
                         "no character that partition paths escape",
                         name);
  const char *old = hl_cmd_default_part_name(s, t);
  /* the table lock first: a default partition added after the listing
   * would keep the old name */
  hl_txn_t *txn;
  hl_status_t rc = hl_cmd_txn_begin(s, "rename", NULL, arena, &txn, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, HL_TNAME(t), arena, err);
  hl_cat_partition_t *parts = NULL;
  size_t n = 0;
  if (rc == HL_OK) rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n, err);
  /* a real value equal to the name would become the default partition */
  for (size_t i = 0; rc == HL_OK && i < n; i++)
    for (int k = 0; rc == HL_OK && k < parts[i].n_values; k++)
      if (parts[i].values[k] && strcmp(parts[i].values[k], name) == 0)
        rc = hl_err_set_at(err, pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                           "partition \"%s\" of table \"%s.%s\" has the value \"%s\": it cannot "
                           "be the default partition name",
                           parts[i].name, HL_TNAME(t), name);
  hl_cat_table_t nt = *t->cat;
  if (rc == HL_OK)
    rc = hl_cmd_kv_put(&nt.params, &nt.n_params, HL_CMD_DEFAULT_PART_PROP, name, arena, err);
  hl_cat_partition_t *renamed = hl_arena_zalloc(arena, sizeof(*renamed) * (n + 1));
  const char **moved_from = hl_arena_zalloc(arena, sizeof(char *) * (n + 1));
  if (rc == HL_OK && (!renamed || !moved_from)) rc = hl_err_nomem(err);
  size_t n_renamed = 0;
  /* the name the partitions already have: only the property is recorded */
  if (strcmp(old, name) == 0) n = 0;
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const hl_cat_partition_t *p = &parts[i];
    if (!has_default_key(p)) continue;
    hl_cat_partition_t *np = &renamed[n_renamed++];
    *np = *p;
    np->name = hl_table_part_name(t, p->values, name, arena);
    if (!np->name) {
      rc = hl_err_nomem(err);
      break;
    }
    char *to;
    rc = hl_cmd_part_move_target(s, t, p, p->values, old, name, pos, arena, &to, err);
    if (rc != HL_OK || !to) continue;
    np->location = to;
    rc = hl_txn_move_add(txn, p->location, np->location, err);
    moved_from[n_renamed - 1] = p->location;
  }
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    return rc;
  }
  default_apply_t d = {s, &nt, renamed, n_renamed};
  rc = hl_txn_commit(txn, default_apply, &d, err);
  for (size_t i = 0; rc == HL_OK && i < n_renamed; i++)
    if (moved_from[i]) hl_cmd_prune_empty_parents(s, t->cat->location, moved_from[i], arena);
  return rc;
}

/* ------------------------------------------------------ PARTITION COLUMN */

static hl_status_t partition_column(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                    hl_arena_t *arena, hl_error_t *err) {
  const hl_ast_column_def_t *def = &alt->cols[0];
  int k = -1;
  for (int i = 0; i < t->n_part; i++)
    if (strcasecmp(t->cat->part_keys[i].name, def->name) == 0) k = i;
  if (k < 0)
    return hl_err_set_at(err, def->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                         "column \"%s\" is not a partition column of table \"%s.%s\"", def->name,
                         HL_TNAME(t));
  if (hl_type_is_complex(def->type))
    return hl_err_set_at(err, def->pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "partition column \"%s\" must have a primitive type", def->name);
  hl_cat_table_t nc = *t->cat;
  hl_cat_column_t *keys = hl_arena_alloc(arena, sizeof(*keys) * (size_t)nc.n_part_keys);
  if (!keys) return hl_err_nomem(err);
  memcpy(keys, nc.part_keys, sizeof(*keys) * (size_t)nc.n_part_keys);
  keys[k].type = hl_type_to_string(arena, def->type);
  keys[k].comment = def->comment ? hl_arena_strdup(arena, def->comment) : NULL;
  if (!keys[k].type || (def->comment && !keys[k].comment)) return hl_err_nomem(err);
  nc.part_keys = keys;
  hl_table_t *nt;
  hl_status_t rc = hl_table_from_catalog(&nc, arena, &nt, err);
  if (rc != HL_OK) return rc;
  hl_cat_partition_t *parts;
  size_t n;
  rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n, err);
  if (rc != HL_OK) return rc;
  for (size_t i = 0; i < n; i++) {
    const char *v = parts[i].values[k];
    if (!v) continue; /* the default partition converts to anything */
    char *canon;
    rc = hl_cmd_part_value_canon(s, nt, k, v, arena, &canon, err);
    if (rc != HL_OK) {
      hl_err_clear(err);
      return hl_err_set_at(err, def->pos, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                           "partition \"%s\" of table \"%s.%s\": value \"%s\" does not convert "
                           "to %s",
                           parts[i].name, HL_TNAME(t), v, keys[k].type);
    }
    if (!canon || strcmp(canon, v) != 0)
      return hl_err_set_at(err, def->pos, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                           "partition \"%s\" of table \"%s.%s\": value \"%s\" would read as "
                           "\"%s\" in type %s; rename the partition first",
                           parts[i].name, HL_TNAME(t), v, canon ? canon : "NULL", keys[k].type);
  }
  return hl_cmd_cat_update(s, &nc, NULL, 0, err);
}

hl_status_t hl_cmd_alter_part_keys(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                   hl_arena_t *arena, hl_error_t *err) {
  return alt->kind == HL_ALTER_SET_DEFAULT_PART ? set_default_partition(s, alt, t, arena, err)
                                                : partition_column(s, alt, t, arena, err);
}
