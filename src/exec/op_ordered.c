/*
 * op_ordered.c -- newest (or oldest) partitions first.
 *
 * For `ORDER BY <partition key> ... LIMIT n` over one table (exec/query.c
 * decides), this operator stands where the table's scan would: it sorts the
 * selected partitions by that key as the ORDER BY does (direction and NULL
 * order), and reads them a group of equal keys at a time -- at least one
 * partition key, and more only while accurate statistics (numRows) show
 * that the rows taken so far cannot fill the LIMIT -- each group with its
 * own scan (parallel when hivelite.threads says so).  Before a group it
 * asks the top-N sort above for its bound: once the sort holds n rows and
 * the group's key ranks after the n-th row's key, no row left can enter
 * the result, and the input ends.  So no partition is opened that the
 * LIMIT does not need (a partition boundary exactly at n included).  A
 * data-quality check of the newest partitions then reads one day, not the
 * table.
 *
 * Every group's scan reads the statement's snapshot (snapshot.h): the
 * first takes the table's shared reader lock, which the snapshot holds
 * until the statement ends, so no write publishes between two groups and
 * every row comes from one committed state (txn.h "Readers").  A finished
 * group's scan is closed at once.
 */
#include "exec/ops.h"

#include "util/mem.h"

#include <stdlib.h>
#include <string.h>

typedef struct ordered {
  hl_op_t op;
  hl_session_t *s;
  hl_snap_t *snap;     /* the groups' scans read this one */
  hl_snap_t *own_snap; /* snap, when the operator was given none */
  const hl_plan_scan_t *plan;
  const hl_expr_t *extra;
  hl_make_scan_fn make_scan;
  hl_arena_t *arena;
  const hl_type_t *type; /* the key's */
  bool desc, nulls_first;
  hl_cat_partition_t *parts; /* sorted */
  hl_value_t *keys;          /* parts' keys */
  size_t n, next;            /* partitions; the first not yet read */
  hl_op_t *sort;             /* the top-N above, NULL: read all */
  hl_op_t *cur;              /* the current group's scan */
} ordered_t;

/* As the ORDER BY ranks the key: <0 when A comes first. */
static int key_cmp(const ordered_t *o, const hl_value_t *a, const hl_value_t *b) {
  if (a->is_null || b->is_null) {
    if (a->is_null && b->is_null) return 0;
    int r = a->is_null ? -1 : 1;
    return o->nulls_first ? r : -r;
  }
  int r = hl_value_compare(o->type, a, b);
  return o->desc ? -r : r;
}

typedef struct sort_item {
  const ordered_t *o;
  hl_cat_partition_t part;
  hl_value_t key;
  size_t idx; /* in the plan */
} sort_item_t;

/* Equal keys keep the plan's order, so rows that tie on every ORDER BY key
 * come out as a plain scan would give them. */
static int item_cmp(const void *x, const void *y) {
  const sort_item_t *a = x, *b = y;
  int r = key_cmp(a->o, &a->key, &b->key);
  return r ? r : (a->idx > b->idx) - (a->idx < b->idx);
}

static hl_status_t ordered_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  ordered_t *o = (ordered_t *)op;
  *out = NULL;
  for (;;) {
    if (o->cur) {
      hl_status_t rc = o->cur->next(o->cur, out, err);
      if (rc != HL_OK || *out) return rc;
      o->cur->close(o->cur);
      o->cur = NULL;
    }
    if (o->next >= o->n) return HL_OK;
    if (o->sort) {
      const hl_value_t *worst;
      hl_status_t rc = hl_op_sort_worst(o->sort, &worst, err);
      if (rc != HL_OK) return rc;
      if (worst && key_cmp(o, &o->keys[o->next], worst) > 0) return HL_OK; /* nothing left ranks */
    }
    /* whole runs of equal keys; another run only while the statistics
     * bound the group's rows below what the sort still lacks (each such
     * partition is needed whatever the others hold) */
    size_t missing = o->sort ? hl_op_sort_missing(o->sort) : SIZE_MAX;
    uint64_t bound = 0;
    size_t end = o->next;
    do {
      size_t run = end;
      while (end < o->n && (end == run || key_cmp(o, &o->keys[end - 1], &o->keys[end]) == 0)) {
        int64_t r = hl_plan_accurate_rows(o->parts[end].params, o->parts[end].n_params);
        bound = r < 0 || bound == UINT64_MAX ? UINT64_MAX : bound + (uint64_t)r;
        end++;
      }
    } while (end < o->n && bound < missing);
    hl_plan_scan_t *chunk = hl_arena_alloc(o->arena, sizeof *chunk);
    if (!chunk) return hl_err_nomem(err);
    *chunk = *o->plan;
    chunk->parts = o->parts + o->next;
    chunk->n_parts = end - o->next;
    o->next = end;
    if (!(o->cur = o->make_scan(o->s, o->snap, chunk, o->extra, o->arena, err))) return err->code;
  }
}

static void ordered_close(hl_op_t *op) {
  ordered_t *o = (ordered_t *)op;
  if (o->cur) o->cur->close(o->cur);
  o->cur = NULL;
  hl_snap_end(o->own_snap);
}

hl_op_t *hl_op_ordered_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *plan,
                              const hl_expr_t *extra, int k, bool desc, bool nulls_first,
                              hl_make_scan_fn make_scan, hl_arena_t *arena, hl_error_t *err) {
  ordered_t *o = hl_arena_zalloc(arena, sizeof(*o));
  if (!o) return hl_err_nomem(err), NULL;
  if (!snap && !(snap = o->own_snap = hl_snap_create(arena, err))) return NULL;
  o->snap = snap;
  o->op.next = ordered_next;
  o->op.close = ordered_close;
  o->s = s;
  o->plan = plan;
  o->extra = extra;
  o->make_scan = make_scan;
  o->arena = arena;
  o->type = plan->table->types[plan->table->n_data + k];
  o->desc = desc;
  o->nulls_first = nulls_first;
  o->n = plan->n_parts;
  sort_item_t *items = hl_malloc(sizeof(sort_item_t) * (o->n ? o->n : 1));
  o->parts = hl_arena_alloc(arena, sizeof(hl_cat_partition_t) * (o->n ? o->n : 1));
  o->keys = hl_arena_alloc(arena, sizeof(hl_value_t) * (o->n ? o->n : 1));
  if (!items || !o->parts || !o->keys) {
    hl_free(items);
    return hl_err_nomem(err), NULL;
  }
  for (size_t i = 0; i < o->n; i++) {
    items[i].o = o;
    items[i].part = plan->parts[i];
    items[i].idx = i;
    if (hl_scan_part_key(s, plan, &plan->parts[i], k, arena, &items[i].key, err) != HL_OK) {
      hl_free(items);
      return NULL;
    }
  }
  qsort(items, o->n, sizeof *items, item_cmp);
  for (size_t i = 0; i < o->n; i++) {
    o->parts[i] = items[i].part;
    o->keys[i] = items[i].key;
  }
  hl_free(items);
  return &o->op;
}

void hl_op_ordered_set_sort(hl_op_t *op, hl_op_t *sort) {
  ((ordered_t *)op)->sort = sort;
}
