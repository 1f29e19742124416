/*
 * op_sort.c -- ORDER BY: materializes its input and sorts it.
 *
 * Rows are copied into the operator's arena as value arrays (strings
 * copied), sorted stably on the key columns (Hive's null order per key;
 * the first key through sort prefixes), and replayed in batches.  Top-N
 * (ORDER BY ... LIMIT) keeps only the rows that can still make the cut.
 *
 * External sort: with a spill space (hl_op_sort_set_spill) and no top-N,
 * once the rows held pass hl_spill_share the sort sorts them, writes them
 * as a run (spill.h) and starts over; at the end it writes the last run
 * and merges the runs k at a time (k from what one run's reader costs, so
 * the merge fits the share too), passes of merges until k runs are left,
 * the last merge feeding the output.  Runs are cut from the input in
 * order and a tie goes to the earlier run, so the order of equal rows is
 * the in-memory sort's: arrival order.
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
  size_t top_n;           /* ORDER BY ... LIMIT: keep only the first top_n rows (0: all) */
  hl_spill_t *spill;      /* where sorted runs may go (NULL: nowhere) */
  hl_spill_file_t **runs; /* sorted runs, in input order (heap array) */
  size_t n_runs, cap_runs;
  struct merge *merge;    /* the last merge, feeding the output (NULL: none) */
  hl_mem_account_t *acct; /* the statement's, for the merge's batches */
} sort_t;

/* One run being merged: its current batch and row, and that row's keys. */
typedef struct merge_src {
  hl_spill_file_t *file; /* owned by the sort's runs or by the merge */
  hl_batch_t *batch;
  uint32_t row;
  hl_value_t *key; /* n_keys values of the current row (point into batch) */
} merge_src_t;

typedef struct merge {
  merge_src_t *src;
  size_t n_src;
  size_t *heap; /* source indexes, smallest row first */
  size_t n_heap;
} merge_t;

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

/* Puts rows [FROM, FROM + N) of s->rows into s->out (N <= HL_BATCH_CAP). */
static hl_status_t rows_to_batch(sort_t *s, size_t from, size_t n, hl_error_t *err) {
  if (hl_batch_reset(s->out) != HL_OK) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < s->n_cols; c++)
      if (hl_vec_put_value(&s->out->cols[c], s->out->arena, (uint32_t)i, &s->rows[from + i][c]) !=
          HL_OK)
        return hl_err_nomem(err);
  s->out->n_rows = (uint32_t)n;
  return HL_OK;
}

/* ------------------------------------------------------------------ runs */

/* Sorts the rows held, writes them as the next run and forgets them. */
static hl_status_t write_run(sort_t *s, hl_error_t *err) {
  hl_status_t rc = sort_rows(s, err);
  if (rc != HL_OK) return rc;
  if (s->n_runs == s->cap_runs) {
    size_t cap = s->cap_runs ? s->cap_runs * 2 : 16;
    hl_spill_file_t **nr = hl_realloc(s->runs, sizeof(*nr) * cap);
    if (!nr) return hl_err_nomem(err);
    s->runs = nr;
    s->cap_runs = cap;
  }
  hl_spill_file_t *f;
  if ((rc = hl_spill_file_create(s->spill, &f, err)) != HL_OK) return rc;
  s->runs[s->n_runs++] = f;
  for (size_t from = 0; from < s->n_rows && rc == HL_OK; from += HL_BATCH_CAP) {
    size_t n = s->n_rows - from < HL_BATCH_CAP ? s->n_rows - from : HL_BATCH_CAP;
    rc = rows_to_batch(s, from, n, err);
    if (rc == HL_OK) rc = hl_spill_write(f, s->out, NULL, 0, err);
  }
  if (rc == HL_OK) rc = hl_spill_rewind(f, err); /* flushed: no write buffer kept per run */
  if (rc != HL_OK) return rc;
  hl_arena_reset(s->arena);
  s->n_rows = 0;
  hl_budget_release(s->budget, s->charged);
  s->charged = 0;
  return HL_OK;
}

/* How many runs one merge reads at once: a run's reader holds a read
 * buffer, a batch's arrays and a block, and all of them fit the share. */
static size_t fan_in(const sort_t *s) {
  uint64_t per_run = (256u << 10) + (uint64_t)s->n_cols * HL_BATCH_CAP * 32;
  uint64_t k = hl_spill_share(s->spill) / per_run;
  return k < 2 ? 2 : k > 256 ? 256 : (size_t)k;
}

static void merge_destroy(merge_t *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n_src; i++) {
    hl_spill_file_close(m->src[i].file);
    hl_batch_destroy(m->src[i].batch);
    hl_free(m->src[i].key);
  }
  hl_free(m->src);
  hl_free(m->heap);
  hl_free(m);
}

/* Moves SRC to its next row (reading its next block when needed); false
 * in *MORE when the run is used up. */
static hl_status_t src_advance(const sort_t *s, merge_src_t *src, bool *more, hl_error_t *err) {
  if (++src->row >= src->batch->n_rows) {
    hl_status_t rc = hl_spill_read(src->file, src->batch, err);
    if (rc != HL_OK) return rc;
    src->row = 0;
  }
  *more = src->batch->n_rows > 0;
  if (*more)
    for (int k = 0; k < s->n_keys; k++)
      hl_vec_get_value(&src->batch->cols[s->keys[k]], src->row, &src->key[k]);
  return HL_OK;
}

/* Whether source A's row goes before source B's: by the keys, a tie to
 * the earlier run (stability). */
static bool src_before(const sort_t *s, const merge_t *m, size_t a, size_t b) {
  for (int k = 0; k < s->n_keys; k++) {
    int c = s->keys[k];
    int r = hl_value_sort_compare(s->types[c], &m->src[a].key[k], &m->src[b].key[k], s->desc[k],
                                  s->nulls_first[k]);
    if (r) return r < 0;
  }
  return a < b;
}

static void sift_down(const sort_t *s, merge_t *m, size_t at) {
  for (;;) {
    size_t l = 2 * at + 1, best = at;
    if (l < m->n_heap && src_before(s, m, m->heap[l], m->heap[best])) best = l;
    if (l + 1 < m->n_heap && src_before(s, m, m->heap[l + 1], m->heap[best])) best = l + 1;
    if (best == at) return;
    size_t t = m->heap[at];
    m->heap[at] = m->heap[best];
    m->heap[best] = t;
    at = best;
  }
}

/* A merge of FILES[0..n), which it takes (the slots become NULL), also
 * when it fails. */
static hl_status_t merge_open(sort_t *s, hl_spill_file_t **files, size_t n, merge_t **out,
                              hl_error_t *err) {
  *out = NULL;
  merge_t *m = hl_calloc(1, sizeof(*m));
  if (m && (!(m->src = hl_calloc(n, sizeof(merge_src_t))) ||
            !(m->heap = hl_malloc(sizeof(size_t) * n)))) {
    merge_destroy(m);
    m = NULL;
  }
  if (!m) {
    for (size_t i = 0; i < n; i++) {
      hl_spill_file_close(files[i]);
      files[i] = NULL;
    }
    return hl_err_nomem(err);
  }
  m->n_src = n;
  for (size_t i = 0; i < n; i++) {
    m->src[i].file = files[i];
    files[i] = NULL;
  }
  hl_status_t rc = HL_OK;
  for (size_t i = 0; i < n && rc == HL_OK; i++) {
    merge_src_t *src = &m->src[i];
    src->batch = hl_batch_create_charged(s->n_cols, s->types, s->acct);
    src->key = hl_calloc((size_t)s->n_keys + 1, sizeof(hl_value_t));
    if (!src->batch || !src->key) {
      rc = hl_err_nomem(err);
      break;
    }
    bool more;
    src->row = 0;
    rc = hl_spill_rewind(src->file, err);
    if (rc == HL_OK) rc = src_advance(s, src, &more, err); /* row 0 -> 1: reads the first block */
    if (rc == HL_OK && more) m->heap[m->n_heap++] = i;
  }
  for (size_t i = m->n_heap; rc == HL_OK && i-- > 0;)
    sift_down(s, m, i);
  if (rc != HL_OK) {
    merge_destroy(m);
    return rc;
  }
  *out = m;
  return HL_OK;
}

/* Fills OUT with up to HL_BATCH_CAP next rows of M (0 rows: the end). */
static hl_status_t merge_fill(const sort_t *s, merge_t *m, hl_batch_t *out, hl_error_t *err) {
  if (hl_batch_reset(out) != HL_OK) return hl_err_nomem(err);
  uint32_t n = 0;
  while (n < HL_BATCH_CAP && m->n_heap) {
    merge_src_t *src = &m->src[m->heap[0]];
    for (int c = 0; c < s->n_cols; c++) {
      hl_value_t v, copy;
      hl_vec_get_value(&src->batch->cols[c], src->row, &v);
      /* complex values are trees in the run's batch, which its next block
       * replaces: copy them (put_value copies strings itself) */
      if (!v.is_null && hl_type_phys(s->types[c]) == HL_P_VALUE) {
        if (hl_value_copy_deep(out->arena, s->types[c], &v, &copy) != HL_OK)
          return hl_err_nomem(err);
        v = copy;
      }
      if (hl_vec_put_value(&out->cols[c], out->arena, n, &v) != HL_OK) return hl_err_nomem(err);
    }
    n++;
    bool more;
    hl_status_t rc = src_advance(s, src, &more, err);
    if (rc != HL_OK) return rc;
    if (!more) m->heap[0] = m->heap[--m->n_heap];
    sift_down(s, m, 0);
  }
  out->n_rows = n;
  return HL_OK;
}

/* Merges the runs k at a time into longer runs until at most k are left,
 * then opens the merge of those for the output.  A merged run takes the
 * place of its inputs, so runs stay in input order. */
static hl_status_t merge_runs(sort_t *s, hl_error_t *err) {
  size_t k = fan_in(s);
  hl_status_t rc = HL_OK;
  while (s->n_runs > k) {
    size_t n_new = 0;
    for (size_t i = 0; i < s->n_runs; i += k) {
      size_t n = s->n_runs - i < k ? s->n_runs - i : k;
      if (n == 1) {
        s->runs[n_new++] = s->runs[i];
        if (n_new - 1 != i) s->runs[i] = NULL;
        continue;
      }
      merge_t *m;
      if ((rc = merge_open(s, s->runs + i, n, &m, err)) != HL_OK) return rc;
      hl_spill_file_t *f;
      if ((rc = hl_spill_file_create(s->spill, &f, err)) != HL_OK) {
        merge_destroy(m);
        return rc;
      }
      s->runs[n_new++] = f; /* a slot already emptied: closed with the sort on error */
      do {
        if ((rc = hl_budget_check_cancel(s->budget, err)) == HL_OK &&
            (rc = merge_fill(s, m, s->out, err)) == HL_OK)
          rc = hl_spill_write(f, s->out, NULL, 0, err);
      } while (rc == HL_OK && s->out->n_rows);
      merge_destroy(m);
      if (rc == HL_OK) rc = hl_spill_rewind(f, err);
      if (rc != HL_OK) return rc;
    }
    for (size_t i = n_new; i < s->n_runs; i++)
      s->runs[i] = NULL;
    s->n_runs = n_new;
  }
  rc = merge_open(s, s->runs, s->n_runs, &s->merge, err);
  s->n_runs = 0;
  return rc;
}

/* ----------------------------------------------------------------- input */

static hl_status_t consume(sort_t *s, hl_error_t *err) {
  bool may_spill = s->spill && !s->top_n && s->n_keys > 0;
  uint64_t share = may_spill ? hl_spill_share(s->spill) : 0;
  for (;;) {
    hl_batch_t *b;
    hl_status_t rc = s->child->next(s->child, &b, err);
    if (rc != HL_OK) return rc;
    if (!b) break;
    uint64_t held = hl_arena_used(s->arena) + s->cap_rows * sizeof(hl_value_t *);
    if (may_spill && held >= share && s->n_rows) {
      if ((rc = write_run(s, err)) != HL_OK) return rc;
      held = hl_arena_used(s->arena) + s->cap_rows * sizeof(hl_value_t *);
    }
    rc = hl_budget_track(s->budget, &s->charged, held, "ORDER BY", err);
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
  if (!s->n_runs) return sort_rows(s, err);
  /* spilled: the rows held are the last run; the merge's readers replace
   * them in memory */
  hl_status_t rc = s->n_rows ? write_run(s, err) : HL_OK;
  hl_free(s->rows);
  s->rows = NULL;
  s->cap_rows = 0;
  return rc == HL_OK ? merge_runs(s, err) : rc;
}

static hl_status_t sort_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  sort_t *s = (sort_t *)op;
  *out = NULL;
  if (!s->consumed) {
    s->consumed = true;
    hl_status_t rc = consume(s, err);
    if (rc != HL_OK) return rc;
  }
  if (s->merge) {
    hl_status_t rc = merge_fill(s, s->merge, s->out, err);
    if (rc != HL_OK) return rc;
    if (s->out->n_rows) *out = s->out;
    return HL_OK;
  }
  if (s->emitted >= s->n_rows) return HL_OK;
  size_t n = s->n_rows - s->emitted;
  if (n > HL_BATCH_CAP) n = HL_BATCH_CAP;
  hl_status_t rc = rows_to_batch(s, s->emitted, n, err);
  if (rc != HL_OK) return rc;
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
  for (size_t i = 0; i < s->n_runs; i++)
    hl_spill_file_close(s->runs[i]);
  hl_free(s->runs);
  s->runs = NULL;
  s->n_runs = 0;
  merge_destroy(s->merge);
  s->merge = NULL;
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
  s->acct = hl_arena_account(arena);
  s->arena = hl_arena_create(0);
  s->out = hl_batch_create_charged(n_cols, types, hl_arena_account(arena));
  if (!s->arena || !s->out) {
    sort_close(&s->op);
    return hl_err_nomem(err), NULL;
  }
  return &s->op;
}
