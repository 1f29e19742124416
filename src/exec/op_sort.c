/*
 * op_sort.c -- ORDER BY: materializes its input and sorts it.
 *
 * Rows are copied into the operator's arena as value arrays (strings
 * copied), sorted stably on the key columns (Hive's null order per key;
 * the first key through sort prefixes), and replayed in batches.  Spilling and top-N belong to
 * the analytic engine issue; this keeps results exact and simple.
 */
#include "exec/ops.h"

#include "util/mem.h"
#include "util/sort.h"

#include <string.h>

typedef struct sort {
  hl_op_t op;
  hl_op_t *child;
  int n_cols;
  const hl_type_t *const *types;
  const int *keys;
  const bool *desc;
  const bool *nulls_first;
  int n_keys;
  hl_arena_t *arena;
  hl_value_t **rows;
  size_t n_rows, cap_rows;
  size_t emitted;
  bool consumed;
  hl_batch_t *out;
  hl_budget_t *budget;
  uint64_t charged;
  size_t top_n;      /* ORDER BY ... LIMIT: keep only the first top_n rows (0: all) */
  hl_spill_t *spill; /* where sorted runs may go (NULL: nowhere) */
} sort_t;

static int compare_rows(const sort_t *s, const hl_value_t *x, const hl_value_t *y) {
  for (int k = 0; k < s->n_keys; k++) {
    int c = s->keys[k];
    int r = hl_value_sort_compare(s->types[c], &x[c], &y[c], s->desc[k], s->nulls_first[k]);
    if (r) return r;
  }
  return 0;
}

typedef struct sort_ctx {
  const sort_t *s;
  const uint64_t *pfx; /* per row: the first key's sort prefix (NULL: none) */
} sort_ctx_t;

static int cmp_indexes(const void *ctx, size_t x, size_t y) {
  const sort_ctx_t *c = ctx;
  if (c->pfx && c->pfx[x] != c->pfx[y]) return c->pfx[x] < c->pfx[y] ? -1 : 1;
  return compare_rows(c->s, c->s->rows[x], c->s->rows[y]);
}

/* Sorts s->rows stably by the keys: row numbers sorted (util/sort.c) with
 * the first key's 64-bit prefixes (hl_value_sort_prefix) compared first
 * from a compact array -- most comparisons never touch the rows -- then
 * the rows put in that order. */
static hl_status_t sort_rows(sort_t *s, hl_error_t *err) {
  size_t n = s->n_rows;
  if (n < 2 || s->n_keys == 0) return HL_OK;
  int c0 = s->keys[0];
  bool with_pfx = hl_value_has_sort_prefix(s->types[c0]);
  size_t *idx = hl_malloc(sizeof(size_t) * n), *tmp = hl_malloc(sizeof(size_t) * n);
  uint64_t *pfx = with_pfx ? hl_malloc(sizeof(uint64_t) * n) : NULL;
  hl_value_t **sorted = hl_malloc(sizeof(hl_value_t *) * n);
  hl_status_t rc = HL_OK;
  if (!idx || !tmp || (with_pfx && !pfx) || !sorted) {
    rc = hl_err_nomem(err);
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    idx[i] = i;
    if (pfx)
      pfx[i] = hl_value_sort_prefix(s->types[c0], &s->rows[i][c0], s->desc[0], s->nulls_first[0]);
  }
  sort_ctx_t ctx = {s, pfx};
  hl_sort_indexes(idx, tmp, n, cmp_indexes, &ctx);
  for (size_t i = 0; i < n; i++)
    sorted[i] = s->rows[idx[i]];
  memcpy(s->rows, sorted, sizeof(hl_value_t *) * n);
done:
  hl_free(idx);
  hl_free(tmp);
  hl_free(pfx);
  hl_free(sorted);
  return rc;
}

/* Top-N: sorts the rows held, keeps the first top_n, and moves them into
 * a fresh arena so the memory of the dropped rows is returned.  Called
 * when 2 * top_n rows are held, so the work stays O(n log top_n). */
static hl_status_t prune(sort_t *s, hl_error_t *err) {
  hl_status_t rc = sort_rows(s, err);
  if (rc != HL_OK) return rc;
  hl_arena_t *fresh = hl_arena_create(0);
  if (!fresh) return hl_err_nomem(err);
  for (size_t i = 0; i < s->top_n; i++) {
    hl_value_t *row = hl_arena_alloc(fresh, sizeof(hl_value_t) * (size_t)s->n_cols);
    if (!row) {
      hl_arena_destroy(fresh);
      return hl_err_nomem(err);
    }
    for (int c = 0; c < s->n_cols; c++)
      if (hl_value_copy_deep(fresh, s->types[c], &s->rows[i][c], &row[c]) != HL_OK) {
        hl_arena_destroy(fresh);
        return hl_err_nomem(err);
      }
    s->rows[i] = row;
  }
  hl_arena_destroy(s->arena);
  s->arena = fresh;
  s->n_rows = s->top_n;
  return HL_OK;
}

hl_status_t hl_op_sort_worst(hl_op_t *op, const hl_value_t **worst, hl_error_t *err) {
  sort_t *s = (sort_t *)op;
  *worst = NULL;
  if (!s->top_n || s->n_keys == 0 || s->n_rows < s->top_n) return HL_OK;
  hl_status_t rc = prune(s, err); /* sorted, exactly top_n rows */
  if (rc != HL_OK) return rc;
  *worst = &s->rows[s->top_n - 1][s->keys[0]];
  return HL_OK;
}

size_t hl_op_sort_missing(const hl_op_t *op) {
  const sort_t *s = (const sort_t *)op;
  return s->n_rows < s->top_n ? s->top_n - s->n_rows : 0;
}

void hl_op_sort_set_spill(hl_op_t *op, hl_spill_t *spill) {
  ((sort_t *)op)->spill = spill;
}

void hl_op_sort_set_limit(hl_op_t *op, size_t top_n) {
  ((sort_t *)op)->top_n = top_n;
}

static hl_status_t consume(sort_t *s, hl_error_t *err) {
  for (;;) {
    hl_batch_t *b;
    hl_status_t rc = s->child->next(s->child, &b, err);
    if (rc != HL_OK) return rc;
    if (!b) break;
    rc = hl_budget_track(s->budget, &s->charged,
                         hl_arena_used(s->arena) + s->cap_rows * sizeof(hl_value_t *), "ORDER BY",
                         err);
    if (rc != HL_OK) return rc;
    uint32_t live = hl_batch_live(b);
    for (uint32_t i = 0; i < live; i++) {
      uint32_t r = hl_batch_row(b, i);
      if (s->n_rows == s->cap_rows) {
        size_t cap = s->cap_rows ? s->cap_rows * 2 : 1024;
        hl_value_t **nr = hl_realloc(s->rows, sizeof(hl_value_t *) * cap);
        if (!nr) return hl_err_nomem(err);
        s->rows = nr;
        s->cap_rows = cap;
      }
      hl_value_t *row = hl_arena_alloc(s->arena, sizeof(hl_value_t) * (size_t)s->n_cols);
      if (!row) return hl_err_nomem(err);
      for (int c = 0; c < s->n_cols; c++) {
        /* strings and complex values point into the child's batch, which
         * the child resets on its next call: copy them */
        hl_value_t v;
        hl_vec_get_value(&b->cols[c], r, &v);
        if (hl_value_copy_deep(s->arena, s->types[c], &v, &row[c]) != HL_OK)
          return hl_err_nomem(err);
      }
      s->rows[s->n_rows++] = row;
      if (s->top_n && s->n_rows >= 2 * s->top_n && (rc = prune(s, err)) != HL_OK) return rc;
    }
  }
  return sort_rows(s, err);
}

static hl_status_t sort_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  sort_t *s = (sort_t *)op;
  *out = NULL;
  if (!s->consumed) {
    s->consumed = true;
    hl_status_t rc = consume(s, err);
    if (rc != HL_OK) return rc;
  }
  if (s->emitted >= s->n_rows) return HL_OK;
  if (hl_batch_reset(s->out) != HL_OK) return hl_err_nomem(err);
  size_t n = s->n_rows - s->emitted;
  if (n > HL_BATCH_CAP) n = HL_BATCH_CAP;
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < s->n_cols; c++)
      if (hl_vec_put_value(&s->out->cols[c], s->out->arena, (uint32_t)i,
                           &s->rows[s->emitted + i][c]) != HL_OK)
        return hl_err_nomem(err);
  s->out->n_rows = (uint32_t)n;
  s->emitted += n;
  *out = s->out;
  return HL_OK;
}

static void sort_close(hl_op_t *op) {
  sort_t *s = (sort_t *)op;
  hl_budget_release(s->budget, s->charged);
  s->charged = 0;
  if (s->child) s->child->close(s->child);
  s->child = NULL;
  hl_free(s->rows);
  s->rows = NULL;
  hl_batch_destroy(s->out);
  s->out = NULL;
  hl_arena_destroy(s->arena);
  s->arena = NULL;
}

hl_op_t *hl_op_sort_create(hl_op_t *child, int n_cols, const hl_type_t *const *types,
                           const int *keys, const bool *desc, const bool *nulls_first, int n_keys,
                           hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err) {
  sort_t *s = hl_arena_zalloc(arena, sizeof(*s));
  if (!s) {
    child->close(child);
    return hl_err_nomem(err), NULL;
  }
  s->op.next = sort_next;
  s->op.close = sort_close;
  s->budget = budget;
  s->child = child;
  s->n_cols = n_cols;
  s->types = types;
  s->keys = keys;
  s->desc = desc;
  s->nulls_first = nulls_first;
  s->n_keys = n_keys;
  s->arena = hl_arena_create(0);
  s->out = hl_batch_create_charged(n_cols, types, hl_arena_account(arena));
  if (!s->arena || !s->out) {
    sort_close(&s->op);
    return hl_err_nomem(err), NULL;
  }
  return &s->op;
}
