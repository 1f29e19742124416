/*
 * op_join.c -- hash join for every join type of HiveQL: INNER, LEFT,
 * RIGHT, FULL, CROSS, LEFT SEMI and LEFT ANTI.
 *
 * One child is the build side: it is read completely into row arrays and
 * a hash table on its key values (chains of row numbers).  The other child
 * is probed batch by batch.  For each probe row the candidate build rows
 * (its hash chain, or every row for a join without keys) become output
 * pairs, written in chunks of up to HL_BATCH_CAP; the residual condition
 * (ON conjuncts that are not key equalities) filters each chunk, and the
 * pairs that pass mark their probe and build rows as matched.  When a probe
 * batch is done, LEFT/RIGHT joins emit its unmatched rows NULL-extended,
 * SEMI emits its matched rows and ANTI its unmatched rows; after the last
 * probe batch a FULL join emits the unmatched build rows.  Rows whose key
 * holds a NULL never match (SQL equality).
 *
 * The output layout is always left columns then right columns (for SEMI
 * and ANTI the right columns are NULL).  RIGHT joins build on the left
 * side, the others on the right.
 */
#include "exec/ops.h"

#include "util/hashmap.h"
#include "util/mem.h"

#include <string.h>

typedef enum phase { PH_PAIRS, PH_UNMATCHED, PH_BUILD_UNMATCHED, PH_DONE } phase_t;

typedef struct join {
  hl_op_t op;
  const hl_rel_t *rel;
  hl_op_t *probe, *build;
  bool probe_is_left;
  hl_expr_t **probe_keys, **build_keys;
  int n_keys;
  int n_left, n_right;
  /* build side */
  bool built;
  hl_arena_t *build_arena;
  hl_value_t **rows; /* n_build rows of n_build_cols values */
  size_t n_build, cap_build;
  int n_build_cols;
  hl_map_t *map;  /* key -> first row + 1 */
  uint32_t *next; /* chain: next row + 1, 0 ends */
  uint8_t *build_matched;
  /* probe state */
  hl_batch_t *pb;  /* current probe batch (owned by the probe child) */
  hl_vec_t *pkeys; /* key vectors of the current probe batch */
  hl_arena_t *probe_scratch;
  uint32_t pi;     /* live index of the current probe row */
  uint64_t cursor; /* next candidate build row + 1 (0: start the row) */
  bool row_started;
  uint8_t matched[HL_BATCH_CAP];
  uint32_t unmatched_i;
  size_t build_unmatched_i;
  phase_t phase;
  /* output */
  hl_batch_t *out;
  uint32_t *pair_probe; /* per output row: probe row (physical) or UINT32_MAX */
  uint32_t *pair_build; /* per output row: build row or UINT32_MAX */
  hl_buf_t key;
  hl_budget_t *budget;
  uint64_t charged;
} join_t;

static bool builds_left(const hl_rel_t *rel) {
  /* RIGHT joins keep unmatched right rows: probe with the right side;
   * INNER joins build on the side the planner found smaller */
  return rel->join_type == HL_JOIN_RIGHT || (rel->join_type == HL_JOIN_INNER && rel->build_left);
}

/* Serializes the key of row R of key vectors KV; false when a key is NULL. */
static bool make_key(join_t *j, const hl_vec_t *kv, uint32_t r) {
  hl_buf_reset(&j->key);
  for (int k = 0; k < j->n_keys; k++) {
    hl_value_t v;
    hl_vec_get_value(&kv[k], r, &v);
    if (v.is_null) return false;
    hl_value_key_append(&j->key, kv[k].type, &v);
  }
  return true;
}

static hl_status_t build(join_t *j, hl_error_t *err) {
  hl_vec_t *kv = hl_arena_alloc(j->build_arena, sizeof(hl_vec_t) * (size_t)(j->n_keys + 1));
  hl_arena_t *scratch = hl_arena_create(64 * 1024);
  if (!kv || !scratch) {
    hl_arena_destroy(scratch);
    return hl_err_nomem(err);
  }
  hl_status_t rc = HL_OK;
  for (;;) {
    hl_arena_reset(scratch);
    hl_batch_t *b;
    rc = j->build->next(j->build, &b, err);
    if (rc != HL_OK || !b) break;
    for (int k = 0; k < j->n_keys && rc == HL_OK; k++)
      rc = hl_expr_eval(j->build_keys[k], b, &kv[k], scratch, err);
    if (rc == HL_OK)
      rc = hl_budget_track(j->budget, &j->charged,
                           hl_arena_used(j->build_arena) +
                               j->cap_build * (sizeof(hl_value_t *) + sizeof(uint32_t)),
                           "the join's build side", err);
    if (rc != HL_OK) break;
    uint32_t live = hl_batch_live(b);
    for (uint32_t i = 0; i < live && rc == HL_OK; i++) {
      uint32_t r = hl_batch_row(b, i);
      if (j->n_build == j->cap_build) {
        size_t cap = j->cap_build ? j->cap_build * 2 : 1024;
        hl_value_t **nr = hl_realloc(j->rows, sizeof(hl_value_t *) * cap);
        uint32_t *nn = nr ? hl_realloc(j->next, sizeof(uint32_t) * cap) : NULL;
        if (nr) j->rows = nr;
        if (!nn) {
          rc = hl_err_nomem(err);
          break;
        }
        j->next = nn;
        j->cap_build = cap;
      }
      if (j->n_build >= UINT32_MAX - 1) {
        rc = hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "the build side of a join has too many rows");
        break;
      }
      hl_value_t *row =
          hl_arena_alloc(j->build_arena, sizeof(hl_value_t) * (size_t)j->n_build_cols);
      if (!row) {
        rc = hl_err_nomem(err);
        break;
      }
      for (int c = 0; c < j->n_build_cols; c++) {
        /* strings and complex values point into the child's batch, which
         * the next pull reuses: keep deep copies */
        hl_value_t v;
        hl_vec_get_value(&b->cols[c], r, &v);
        if (hl_value_copy_deep(j->build_arena, b->cols[c].type, &v, &row[c]) != HL_OK) {
          rc = hl_err_nomem(err);
          break;
        }
      }
      if (rc != HL_OK) break;
      size_t idx = j->n_build++;
      j->rows[idx] = row;
      j->next[idx] = 0;
      if (j->n_keys == 0) continue;
      if (!make_key(j, kv, r)) continue; /* NULL keys never match */
      if (j->key.oom) {
        rc = hl_err_nomem(err);
        break;
      }
      uint64_t head;
      bool inserted;
      if (hl_map_upsert(j->map, j->key.data, j->key.len, idx + 1, &head, &inserted) < 0) {
        rc = hl_err_nomem(err);
        break;
      }
      if (!inserted) {
        /* insert after the head so the chain keeps build order after it */
        j->next[idx] = j->next[head - 1];
        j->next[head - 1] = (uint32_t)(idx + 1);
      }
    }
  }
  hl_arena_destroy(scratch);
  if (rc != HL_OK) return rc;
  j->build_matched = hl_arena_zalloc(j->build_arena, j->n_build ? j->n_build : 1);
  return j->build_matched ? HL_OK : hl_err_nomem(err);
}

/* Writes output row O from probe row PR and build row BR (either may be
 * UINT32_MAX for a NULL side). */
static hl_status_t put_pair(join_t *j, uint32_t o, uint32_t pr, uint32_t br, hl_error_t *err) {
  hl_batch_t *out = j->out;
  int n_probe_cols = j->probe_is_left ? j->n_left : j->n_right;
  int probe_off = j->probe_is_left ? 0 : j->n_left;
  int build_off = j->probe_is_left ? j->n_left : 0;
  for (int c = 0; c < n_probe_cols; c++) {
    hl_value_t v;
    if (pr == UINT32_MAX) {
      memset(&v, 0, sizeof v);
      v.is_null = true;
    } else {
      hl_vec_get_value(&j->pb->cols[c], pr, &v);
    }
    if (hl_vec_put_value(&out->cols[probe_off + c], out->arena, o, &v) != HL_OK)
      return hl_err_nomem(err);
  }
  for (int c = 0; c < j->n_build_cols; c++) {
    hl_value_t v;
    if (br == UINT32_MAX) { /* SEMI/ANTI rows come out this way: right side NULL */
      memset(&v, 0, sizeof v);
      v.is_null = true;
    } else {
      v = j->rows[br][c];
    }
    if (hl_vec_put_value(&out->cols[build_off + c], out->arena, o, &v) != HL_OK)
      return hl_err_nomem(err);
  }
  j->pair_probe[o] = pr;
  j->pair_build[o] = br;
  return HL_OK;
}

static hl_status_t next_probe_batch(join_t *j, hl_error_t *err) {
  hl_arena_reset(j->probe_scratch);
  hl_status_t rc = j->probe->next(j->probe, &j->pb, err);
  if (rc != HL_OK || !j->pb) return rc;
  for (int k = 0; k < j->n_keys; k++) {
    rc = hl_expr_eval(j->probe_keys[k], j->pb, &j->pkeys[k], j->probe_scratch, err);
    if (rc != HL_OK) return rc;
  }
  j->pi = 0;
  j->cursor = 0;
  j->row_started = false;
  j->unmatched_i = 0;
  memset(j->matched, 0, sizeof j->matched);
  return HL_OK;
}

/* Fills the output batch with candidate pairs of the current probe batch;
 * returns with out->n_rows == 0 when the batch has no more pairs. */
static hl_status_t fill_pairs(join_t *j, hl_error_t *err) {
  uint32_t live = hl_batch_live(j->pb);
  uint32_t o = 0;
  while (j->pi < live && o < HL_BATCH_CAP) {
    uint32_t pr = hl_batch_row(j->pb, j->pi);
    if (!j->row_started) {
      j->row_started = true;
      if (j->n_keys == 0) {
        j->cursor = j->n_build ? 1 : 0;
      } else if (!make_key(j, j->pkeys, pr)) {
        j->cursor = 0;
      } else {
        if (j->key.oom) return hl_err_nomem(err);
        uint64_t head;
        j->cursor = hl_map_get(j->map, j->key.data, j->key.len, &head) ? head : 0;
      }
    }
    if (j->cursor == 0) {
      j->pi++;
      j->row_started = false;
      continue;
    }
    uint32_t br = (uint32_t)(j->cursor - 1);
    hl_status_t rc = put_pair(j, o++, pr, br, err);
    if (rc != HL_OK) return rc;
    if (j->n_keys == 0)
      j->cursor = br + 2 <= j->n_build ? br + 2 : 0;
    else
      j->cursor = j->next[br];
  }
  j->out->n_rows = o;
  return HL_OK;
}

static hl_status_t fill_unmatched(join_t *j, hl_error_t *err) {
  hl_ast_join_type_t t = j->rel->join_type;
  uint32_t live = hl_batch_live(j->pb), o = 0;
  while (j->unmatched_i < live && o < HL_BATCH_CAP) {
    uint32_t i = j->unmatched_i++;
    uint32_t pr = hl_batch_row(j->pb, i);
    bool m = j->matched[pr];
    bool emit = t == HL_JOIN_LEFT_SEMI ? m : !m;
    if (!emit) continue;
    hl_status_t rc = put_pair(j, o++, pr, UINT32_MAX, err);
    if (rc != HL_OK) return rc;
  }
  j->out->n_rows = o;
  return HL_OK;
}

static hl_status_t fill_build_unmatched(join_t *j, hl_error_t *err) {
  uint32_t o = 0;
  while (j->build_unmatched_i < j->n_build && o < HL_BATCH_CAP) {
    size_t br = j->build_unmatched_i++;
    if (j->build_matched[br]) continue;
    hl_status_t rc = put_pair(j, o++, UINT32_MAX, (uint32_t)br, err);
    if (rc != HL_OK) return rc;
  }
  j->out->n_rows = o;
  return HL_OK;
}

static bool emits_pairs(hl_ast_join_type_t t) {
  return t != HL_JOIN_LEFT_SEMI && t != HL_JOIN_LEFT_ANTI;
}

static bool has_unmatched_phase(hl_ast_join_type_t t) {
  return t == HL_JOIN_LEFT || t == HL_JOIN_RIGHT || t == HL_JOIN_FULL || t == HL_JOIN_LEFT_SEMI ||
         t == HL_JOIN_LEFT_ANTI;
}

static hl_status_t join_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  join_t *j = (join_t *)op;
  hl_ast_join_type_t t = j->rel->join_type;
  *out = NULL;
  hl_status_t rc;
  if (!j->built) {
    j->built = true;
    if ((rc = build(j, err)) != HL_OK) return rc;
    if ((rc = next_probe_batch(j, err)) != HL_OK) return rc;
    j->phase = j->pb ? PH_PAIRS : (t == HL_JOIN_FULL ? PH_BUILD_UNMATCHED : PH_DONE);
  }
  for (;;) {
    if (hl_batch_reset(j->out) != HL_OK) return hl_err_nomem(err);
    switch (j->phase) {
    case PH_PAIRS:
      if ((rc = fill_pairs(j, err)) != HL_OK) return rc;
      if (j->out->n_rows == 0) {
        j->phase = has_unmatched_phase(t) ? PH_UNMATCHED : PH_PAIRS;
        if (j->phase == PH_PAIRS) {
          if ((rc = next_probe_batch(j, err)) != HL_OK) return rc;
          if (!j->pb) j->phase = t == HL_JOIN_FULL ? PH_BUILD_UNMATCHED : PH_DONE;
        }
        continue;
      }
      if (j->rel->residual &&
          (rc = hl_expr_filter(j->rel->residual, j->out, j->out->arena, err)) != HL_OK)
        return rc;
      for (uint32_t i = 0; i < hl_batch_live(j->out); i++) {
        uint32_t o = hl_batch_row(j->out, i);
        j->matched[j->pair_probe[o]] = 1;
        j->build_matched[j->pair_build[o]] = 1;
      }
      if (!emits_pairs(t) || hl_batch_live(j->out) == 0) continue;
      *out = j->out;
      return HL_OK;
    case PH_UNMATCHED:
      if ((rc = fill_unmatched(j, err)) != HL_OK) return rc;
      if (j->out->n_rows == 0) {
        if ((rc = next_probe_batch(j, err)) != HL_OK) return rc;
        j->phase = j->pb ? PH_PAIRS : (t == HL_JOIN_FULL ? PH_BUILD_UNMATCHED : PH_DONE);
        continue;
      }
      *out = j->out;
      return HL_OK;
    case PH_BUILD_UNMATCHED:
      if ((rc = fill_build_unmatched(j, err)) != HL_OK) return rc;
      if (j->out->n_rows == 0) {
        j->phase = PH_DONE;
        continue;
      }
      *out = j->out;
      return HL_OK;
    case PH_DONE:
      return HL_OK;
    }
  }
}

static void join_close(hl_op_t *op) {
  join_t *j = (join_t *)op;
  hl_budget_release(j->budget, j->charged);
  j->charged = 0;
  if (j->probe) j->probe->close(j->probe);
  if (j->build) j->build->close(j->build);
  j->probe = j->build = NULL;
  hl_map_destroy(j->map);
  j->map = NULL;
  hl_free(j->rows);
  hl_free(j->next);
  j->rows = NULL;
  j->next = NULL;
  hl_batch_destroy(j->out);
  j->out = NULL;
  hl_arena_destroy(j->build_arena);
  hl_arena_destroy(j->probe_scratch);
  j->build_arena = j->probe_scratch = NULL;
  hl_buf_fini(&j->key);
}

hl_op_t *hl_op_join_create(hl_op_t *left, hl_op_t *right, const hl_rel_t *rel, hl_budget_t *budget,
                           hl_arena_t *arena, hl_error_t *err) {
  join_t *j = hl_arena_zalloc(arena, sizeof(*j));
  if (!j) {
    left->close(left);
    right->close(right);
    return hl_err_nomem(err), NULL;
  }
  j->op.next = join_next;
  j->op.close = join_close;
  j->budget = budget;
  j->rel = rel;
  j->n_left = rel->left->n_cols;
  j->n_right = rel->right->n_cols;
  j->n_keys = rel->n_keys;
  hl_buf_init(&j->key);
  if (builds_left(rel)) {
    j->build = left;
    j->probe = right;
    j->probe_is_left = false;
    j->build_keys = rel->left_keys;
    j->probe_keys = rel->right_keys;
    j->n_build_cols = j->n_left;
  } else {
    j->build = right;
    j->probe = left;
    j->probe_is_left = true;
    j->build_keys = rel->right_keys;
    j->probe_keys = rel->left_keys;
    j->n_build_cols = j->n_right;
  }
  j->build_arena = hl_arena_create(0);
  j->probe_scratch = hl_arena_create(64 * 1024);
  j->map = hl_map_create();
  j->pkeys = hl_arena_zalloc(arena, sizeof(hl_vec_t) * (size_t)(j->n_keys + 1));
  j->pair_probe = hl_arena_alloc(arena, sizeof(uint32_t) * HL_BATCH_CAP);
  j->pair_build = hl_arena_alloc(arena, sizeof(uint32_t) * HL_BATCH_CAP);
  j->out = hl_batch_create(rel->n_cols, rel->types);
  if (!j->build_arena || !j->probe_scratch || !j->map || !j->pkeys || !j->pair_probe ||
      !j->pair_build || !j->out) {
    join_close(&j->op);
    return hl_err_nomem(err), NULL;
  }
  return &j->op;
}
