/*
 * op_catalog.c -- min / max / count(DISTINCT) of partition keys from the
 * catalog.
 *
 * `SELECT max(dt), min(dt), count(DISTINCT dt) FROM t [WHERE <partition
 * keys only>]` (plan->catalog_answer, decided in plan/bind.c) is answered
 * from the selected partitions' key values instead of their rows.  A real
 * scan sees a partition's key only through its rows, so a partition counts
 * only when it holds a row: accurate statistics (numRows) say so, and a
 * partition whose statistics are missing or not accurate is probed -- a
 * scan of that partition alone, reading no column, stopped at its first
 * row.  Probes go best-first for min and max (the first partition with a
 * row settles the answer), and over every unknown partition only for
 * count(DISTINCT).  This is Hive's hive.optimize.metadataonly without its
 * pitfall of counting empty partitions.  The default partition's key is
 * NULL: ignored by min, max and count(DISTINCT).  The output is the
 * aggregate layout (one row, the aggregates), as hl_op_agg_create's.
 */
#include "exec/ops.h"

#include "util/mem.h"
#include "util/sort.h"

#include <string.h>

typedef enum { PART_UNKNOWN, PART_EMPTY, PART_ROWS } part_state_t;

typedef struct catalog {
  hl_op_t op;
  hl_session_t *s;
  hl_snap_t *snap;
  const hl_plan_t *plan;
  const hl_plan_scan_t *scan;
  hl_arena_t *arena;
  hl_batch_t *batch;
  part_state_t *state; /* per selected partition */
  bool *no_cols;       /* the probes' needed columns: none */
  bool done;
} catalog_t;

/* Whether partition I holds a row: its statistics, else a probe. */
static hl_status_t has_rows(catalog_t *c, size_t i, bool *out, hl_error_t *err) {
  if (c->state[i] == PART_UNKNOWN) {
    hl_plan_scan_t *one = hl_arena_alloc(c->arena, sizeof *one);
    if (!one) return hl_err_nomem(err);
    *one = *c->scan;
    one->parts = &c->scan->parts[i];
    one->n_parts = 1;
    one->needed = c->no_cols;
    hl_op_t *sc = hl_op_scan_create(c->s, c->snap, one, c->arena, err);
    if (!sc) return err->code;
    hl_status_t rc;
    hl_batch_t *b;
    bool rows = false;
    while ((rc = sc->next(sc, &b, err)) == HL_OK && b && !rows)
      rows = hl_batch_live(b) > 0;
    sc->close(sc);
    if (rc != HL_OK) return rc;
    c->state[i] = rows ? PART_ROWS : PART_EMPTY;
  }
  *out = c->state[i] == PART_ROWS;
  return HL_OK;
}

typedef struct key_order {
  const hl_type_t *type;
  const hl_value_t *keys;
} key_order_t;

static int key_cmp(const void *ctx, size_t a, size_t b) {
  const key_order_t *o = ctx;
  return hl_value_compare(o->type, &o->keys[a], &o->keys[b]);
}

/* The aggregate AGG (min, max or count(DISTINCT) of a partition key). */
static hl_status_t answer(catalog_t *c, const hl_agg_t *agg, hl_value_t *out, hl_error_t *err) {
  const hl_table_t *t = c->scan->table;
  int k = agg->arg->col - t->n_data;
  size_t n = c->scan->n_parts;
  hl_value_t *keys = hl_arena_alloc(c->arena, sizeof(hl_value_t) * (n + 1));
  size_t *idx = hl_arena_alloc(c->arena, sizeof(size_t) * (n + 1));
  size_t *tmp = hl_arena_alloc(c->arena, sizeof(size_t) * (n + 1));
  if (!keys || !idx || !tmp) return hl_err_nomem(err);
  size_t m = 0; /* partitions with a non-NULL key, sorted by it */
  for (size_t i = 0; i < n; i++) {
    hl_status_t rc =
        hl_scan_part_key(c->s, c->scan, &c->scan->parts[i], k, c->arena, &keys[i], err);
    if (rc != HL_OK) return rc;
    if (!keys[i].is_null) idx[m++] = i;
  }
  key_order_t ord = {t->types[agg->arg->col], keys};
  hl_sort_indexes(idx, tmp, m, key_cmp, &ord);
  memset(out, 0, sizeof *out);
  if (agg->kind == HL_AGG_COUNT) {
    int64_t distinct = 0;
    const hl_value_t *last = NULL;
    for (size_t j = 0; j < m; j++) {
      const hl_value_t *v = &keys[idx[j]];
      if (last && hl_value_compare(ord.type, last, v) == 0) continue; /* counted already */
      bool rows;
      hl_status_t rc = has_rows(c, idx[j], &rows, err);
      if (rc != HL_OK) return rc;
      if (!rows) continue;
      distinct++;
      last = v;
    }
    out->u.i = distinct;
    return HL_OK;
  }
  out->is_null = true;
  bool max = agg->kind == HL_AGG_MAX;
  for (size_t j = 0; j < m; j++) {
    size_t i = idx[max ? m - 1 - j : j];
    bool rows;
    hl_status_t rc = has_rows(c, i, &rows, err);
    if (rc != HL_OK) return rc;
    if (rows) {
      *out = keys[i];
      return HL_OK;
    }
  }
  return HL_OK;
}

static hl_status_t catalog_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  catalog_t *c = (catalog_t *)op;
  *out = NULL;
  if (c->done) return HL_OK;
  c->done = true;
  if (hl_batch_reset(c->batch) != HL_OK) return hl_err_nomem(err);
  for (int a = 0; a < c->plan->n_aggs; a++) {
    hl_value_t v;
    hl_status_t rc = answer(c, &c->plan->aggs[a], &v, err);
    if (rc != HL_OK) return rc;
    if (hl_vec_fill(&c->batch->cols[a], c->batch->arena, 1, &v) != HL_OK) return hl_err_nomem(err);
  }
  c->batch->n_rows = 1;
  *out = c->batch;
  return HL_OK;
}

static void catalog_close(hl_op_t *op) {
  catalog_t *c = (catalog_t *)op;
  hl_batch_destroy(c->batch);
  c->batch = NULL;
}

hl_op_t *hl_op_catalog_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_t *plan,
                              hl_arena_t *arena, hl_error_t *err) {
  const hl_plan_scan_t *scan = plan->scan;
  catalog_t *c = hl_arena_zalloc(arena, sizeof(*c));
  const hl_type_t **types =
      c ? hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(plan->n_aggs + 1)) : NULL;
  if (!types) return hl_err_nomem(err), NULL;
  c->state = hl_arena_zalloc(arena, sizeof(part_state_t) * (scan->n_parts + 1));
  c->no_cols = hl_arena_zalloc(arena, sizeof(bool) * (size_t)(scan->table->n_all + 1));
  if (!c->state || !c->no_cols) return hl_err_nomem(err), NULL;
  for (size_t i = 0; i < scan->n_parts; i++) {
    int64_t r = hl_plan_accurate_rows(scan->parts[i].params, scan->parts[i].n_params);
    c->state[i] = r < 0 ? PART_UNKNOWN : r > 0 ? PART_ROWS : PART_EMPTY;
  }
  for (int a = 0; a < plan->n_aggs; a++)
    types[a] = plan->aggs[a].type;
  if (!(c->batch = hl_batch_create_charged(plan->n_aggs, types, hl_arena_account(arena))))
    return hl_err_nomem(err), NULL;
  c->op.next = catalog_next;
  c->op.close = catalog_close;
  c->s = s;
  c->snap = snap;
  c->plan = plan;
  c->scan = scan;
  c->arena = arena;
  return &c->op;
}
