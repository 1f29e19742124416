/*
 * cmd_exchange.c -- ALTER TABLE dest EXCHANGE PARTITION (spec) WITH TABLE src.
 *
 * Hive's semantics: the partitions of SRC matching SPEC (a full or partial
 * spec: every partition whose named keys have these values) move to DEST,
 * which must have the same columns and partition keys and none of those
 * partitions.  The data moves with them: each partition directory is
 * renamed from SRC's default path to DEST's, and the catalog rows move,
 * in one catalog transaction; a failure renames the directories back.
 * Partitions with a location of their own, and external tables, are
 * refused (their data is not ours to move).
 */
#include "command/cmd_int.h"
#include "session/loc_allow.h"
#include "txn/txn.h"

#include <string.h>
#include <strings.h>

/* Same names and types in the same order (Hive: "the tables have different schemas"). */
static bool same_columns(const hl_cat_column_t *a, int na, const hl_cat_column_t *b, int nb) {
  if (na != nb) return false;
  for (int i = 0; i < na; i++)
    if (strcasecmp(a[i].name, b[i].name) != 0 || strcasecmp(a[i].type, b[i].type) != 0)
      return false;
  return true;
}

/* The catalog step of EXCHANGE PARTITION, inside the write's commit. */
typedef struct exchange {
  hl_session_t *s;
  hl_cat_partition_t **moved; /* the source table's rows */
  hl_cat_partition_t *np;     /* the same partitions in the destination */
  size_t n;
} exchange_t;

static hl_status_t exchange_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  exchange_t *x = arg;
  hl_status_t rc = HL_OK;
  for (size_t i = 0; rc == HL_OK && i < x->n; i++) {
    rc = hl_cat_partition_drop(x->s->cat, x->moved[i]->id, err);
    if (rc == HL_OK) rc = hl_cat_partition_add(x->s->cat, &x->np[i], err);
  }
  return rc;
}

hl_status_t hl_cmd_exchange_partition(hl_session_t *s, const hl_ast_alter_table_t *alt,
                                      hl_table_t *dest, hl_arena_t *arena, hl_error_t *err) {
  long pos = alt->name.pos;
  hl_table_t *src;
  hl_status_t rc = hl_table_load(s, &alt->new_name, arena, &src, err);
  if (rc != HL_OK) return rc;
  if (src->cat->id == dest->cat->id)
    return hl_err_set_at(err, alt->new_name.pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "cannot exchange partitions of table \"%s.%s\" with itself",
                         HL_TNAME(dest));
  if (dest->n_part == 0 || src->n_part == 0)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table",
                         dest->n_part == 0 ? dest->cat->db_name : src->cat->db_name,
                         dest->n_part == 0 ? dest->cat->name : src->cat->name);
  if (!same_columns(dest->cat->cols, dest->cat->n_cols, src->cat->cols, src->cat->n_cols) ||
      !same_columns(dest->cat->part_keys, dest->cat->n_part_keys, src->cat->part_keys,
                    src->cat->n_part_keys))
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                         "tables \"%s.%s\" and \"%s.%s\" have different schemas: their "
                         "partitions cannot be exchanged",
                         HL_TNAME(dest), HL_TNAME(src));
  if (dest->cat->external || src->cat->external)
    return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "EXCHANGE PARTITION with external table \"%s.%s\" is not supported",
                         dest->cat->external ? dest->cat->db_name : src->cat->db_name,
                         dest->cat->external ? dest->cat->name : src->cat->name);
  const hl_ast_part_spec_t *spec = &alt->part_specs[0];
  for (int i = 0; i < spec->n; i++)
    if (!spec->items[i].value)
      return hl_err_set_at(err, spec->items[i].pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "partition key \"%s\" needs a value", spec->items[i].key);

  /* the partitions to move (the spec's keys are the same in both tables) */
  hl_cmd_part_filter_t fs, fd;
  hl_cat_partition_t *sp, *dp;
  size_t n_sp, n_dp;
  if ((rc = hl_cmd_part_filter_compile(s, src, spec, arena, &fs, err)) != HL_OK ||
      (rc = hl_cmd_part_filter_compile(s, dest, spec, arena, &fd, err)) != HL_OK ||
      (rc = hl_cat_partition_list(s->cat, src->cat->id, arena, &sp, &n_sp, err)) != HL_OK ||
      (rc = hl_cat_partition_list(s->cat, dest->cat->id, arena, &dp, &n_dp, err)) != HL_OK)
    return rc;
  for (size_t j = 0; j < n_dp; j++)
    if (hl_cmd_part_filter_match(dest, &fd, &dp[j], arena))
      return hl_err_set_at(err, spec->pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                           "partition \"%s\" already exists in table \"%s.%s\"", dp[j].name,
                           HL_TNAME(dest));
  const char *dflt = hl_cmd_default_part_name(s, src);
  const char *dest_dflt = hl_cmd_default_part_name(s, dest);
  hl_cat_partition_t **moved = hl_arena_zalloc(arena, sizeof(*moved) * (n_sp + 1));
  hl_cat_partition_t *np = hl_arena_zalloc(arena, sizeof(*np) * (n_sp + 1));
  if (!moved || !np) return hl_err_nomem(err);
  size_t n = 0;
  for (size_t j = 0; j < n_sp; j++) {
    hl_cat_partition_t *p = &sp[j];
    if (!hl_cmd_part_filter_match(src, &fs, p, arena)) continue;
    char *def = hl_table_part_path(src, p->values, dflt, arena);
    if (!def) return hl_err_nomem(err);
    if (strcmp(def, p->location) != 0)
      return hl_err_set_at(err, spec->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "partition \"%s\" of table \"%s.%s\" has its own location \"%s\": "
                           "exchanging it is not supported",
                           p->name, HL_TNAME(src), p->location);
    np[n] = *p;
    np[n].id = 0;
    np[n].table_id = dest->cat->id;
    np[n].location = hl_table_part_path(dest, p->values, dest_dflt, arena);
    np[n].name = hl_table_part_name(dest, p->values, dest_dflt, arena);
    if (!np[n].location || !np[n].name) return hl_err_nomem(err);
    rc = hl_loc_allow_check_table(s, np[n].location, HL_TNAME(dest), np[n].name, err);
    if (rc != HL_OK) return rc;
    moved[n++] = p;
  }
  if (n == 0)
    return hl_err_set_at(err, spec->pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                         "no partition of table \"%s.%s\" matches the partition spec",
                         HL_TNAME(src));

  /* One write (txn.h): both tables locked, the directories moved, the
   * catalog rows moved in the commit; a crash in between is undone by
   * recovery. */
  hl_txn_t *txn;
  rc = hl_cmd_txn_begin(s, "exchange", NULL, arena, &txn, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, HL_TNAME(src), arena, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, HL_TNAME(dest), arena, err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    rc = hl_cmd_check_target(s, moved[i]->location, "move", err);
    if (rc == HL_OK) rc = hl_cmd_check_target(s, np[i].location, "move a partition to", err);
    if (rc == HL_OK) rc = hl_txn_move_add(txn, moved[i]->location, np[i].location, err);
  }
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    hl_err_position(err, pos);
    return rc;
  }
  exchange_t x = {s, moved, np, n};
  rc = hl_txn_commit(txn, exchange_apply, &x, err);
  if (rc != HL_OK) {
    hl_err_position(err, pos);
    return rc;
  }
  for (size_t i = 0; i < n; i++)
    hl_cmd_prune_empty_parents(s, src->cat->location, moved[i]->location, arena);
  return HL_OK;
}
