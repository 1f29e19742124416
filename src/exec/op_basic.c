/*
 * op_basic.c -- the small operators: one-row source, filter, project,
 * limit (see ops.h).
 */
#include "exec/ops.h"

/* ------------------------------------------------------------ one row */

typedef struct one_row {
  hl_op_t op;
  hl_batch_t *batch;
  bool done;
} one_row_t;

static hl_status_t one_row_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  one_row_t *o = (one_row_t *)op;
  if (o->done) {
    *out = NULL;
    return HL_OK;
  }
  o->done = true;
  o->batch->n_rows = 1;
  *out = o->batch;
  return HL_OK;
}

static void one_row_close(hl_op_t *op) {
  one_row_t *o = (one_row_t *)op;
  hl_batch_destroy(o->batch);
  o->batch = NULL;
}

hl_op_t *hl_op_one_row_create(hl_arena_t *arena, hl_error_t *err) {
  one_row_t *o = hl_arena_zalloc(arena, sizeof(*o));
  if (!o || !(o->batch = hl_batch_create_charged(0, NULL, hl_arena_account(arena)))) {
    hl_err_nomem(err);
    return NULL;
  }
  o->op.next = one_row_next;
  o->op.close = one_row_close;
  return &o->op;
}

/* ------------------------------------------------------------- filter */

typedef struct filter {
  hl_op_t op;
  hl_op_t *child;
  const hl_expr_t *pred;
  hl_arena_t *scratch;
} filter_t;

static hl_status_t filter_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  filter_t *f = (filter_t *)op;
  for (;;) {
    hl_arena_reset(f->scratch);
    hl_batch_t *b;
    hl_status_t rc = f->child->next(f->child, &b, err);
    if (rc != HL_OK) return rc;
    if (!b) {
      *out = NULL;
      return HL_OK;
    }
    rc = hl_expr_filter(f->pred, b, f->scratch, err);
    if (rc != HL_OK) return rc;
    if (hl_batch_live(b) > 0) {
      *out = b;
      return HL_OK;
    }
  }
}

static void filter_close(hl_op_t *op) {
  filter_t *f = (filter_t *)op;
  if (f->child) f->child->close(f->child);
  hl_arena_destroy(f->scratch);
  f->child = NULL;
  f->scratch = NULL;
}

hl_op_t *hl_op_filter_create(hl_op_t *child, const hl_expr_t *pred, hl_arena_t *arena,
                             hl_error_t *err) {
  filter_t *f = hl_arena_zalloc(arena, sizeof(*f));
  hl_arena_t *scratch = f ? hl_arena_create_charged(64 * 1024, hl_arena_account(arena)) : NULL;
  if (!scratch) {
    child->close(child);
    hl_err_nomem(err);
    return NULL;
  }
  f->op.next = filter_next;
  f->op.close = filter_close;
  f->child = child;
  f->pred = pred;
  f->scratch = scratch;
  return &f->op;
}

/* ------------------------------------------------------------ project */

typedef struct project {
  hl_op_t op;
  hl_op_t *child;
  hl_expr_t *const *exprs;
  int n;
  hl_arena_t *scratch;
  hl_batch_t out;
} project_t;

static hl_status_t project_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  project_t *p = (project_t *)op;
  hl_arena_reset(p->scratch);
  hl_batch_t *b;
  hl_status_t rc = p->child->next(p->child, &b, err);
  if (rc != HL_OK) return rc;
  if (!b) {
    *out = NULL;
    return HL_OK;
  }
  for (int i = 0; i < p->n; i++) {
    rc = hl_expr_eval(p->exprs[i], b, &p->out.cols[i], p->scratch, err);
    if (rc != HL_OK) return rc;
  }
  p->out.n_rows = b->n_rows;
  p->out.sel = b->sel;
  p->out.n_sel = b->n_sel;
  *out = &p->out;
  return HL_OK;
}

static void project_close(hl_op_t *op) {
  project_t *p = (project_t *)op;
  if (p->child) p->child->close(p->child);
  hl_arena_destroy(p->scratch);
  p->child = NULL;
  p->scratch = NULL;
}

hl_op_t *hl_op_project_create(hl_op_t *child, hl_expr_t *const *exprs, int n, hl_arena_t *arena,
                              hl_error_t *err) {
  project_t *p = hl_arena_zalloc(arena, sizeof(*p));
  hl_vec_t *cols = p ? hl_arena_zalloc(arena, sizeof(hl_vec_t) * (size_t)(n ? n : 1)) : NULL;
  hl_arena_t *scratch = cols ? hl_arena_create_charged(64 * 1024, hl_arena_account(arena)) : NULL;
  if (!scratch) {
    child->close(child);
    hl_err_nomem(err);
    return NULL;
  }
  p->op.next = project_next;
  p->op.close = project_close;
  p->child = child;
  p->exprs = exprs;
  p->n = n;
  p->scratch = scratch;
  p->out.n_cols = n;
  p->out.cols = cols;
  p->out.arena = scratch;
  for (int i = 0; i < n; i++)
    cols[i].type = exprs[i]->type;
  return &p->op;
}

/* -------------------------------------------------------------- limit */

typedef struct limit {
  hl_op_t op;
  hl_op_t *child;
  int64_t limit, offset;
  int64_t skipped, returned;
  hl_arena_t *scratch;
} limit_t;

static hl_status_t limit_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  limit_t *l = (limit_t *)op;
  *out = NULL;
  while (l->returned < l->limit) {
    hl_arena_reset(l->scratch);
    hl_batch_t *b;
    hl_status_t rc = l->child->next(l->child, &b, err);
    if (rc != HL_OK || !b) return rc;
    uint32_t live = hl_batch_live(b), first = 0;
    if (l->skipped < l->offset) {
      int64_t skip = l->offset - l->skipped;
      if (skip >= live) {
        l->skipped += live;
        continue;
      }
      first = (uint32_t)skip;
      l->skipped += skip;
    }
    int64_t room = l->limit - l->returned;
    uint32_t take = live - first;
    if ((int64_t)take > room) take = (uint32_t)room;
    if (first > 0 || take < live) {
      uint32_t *sel = hl_arena_alloc(l->scratch, sizeof(uint32_t) * (take ? take : 1));
      if (!sel) return hl_err_nomem(err);
      for (uint32_t i = 0; i < take; i++)
        sel[i] = hl_batch_row(b, first + i);
      b->sel = sel;
      b->n_sel = take;
    }
    l->returned += take;
    if (take == 0) continue;
    *out = b;
    return HL_OK;
  }
  return HL_OK;
}

static void limit_close(hl_op_t *op) {
  limit_t *l = (limit_t *)op;
  if (l->child) l->child->close(l->child);
  hl_arena_destroy(l->scratch);
  l->child = NULL;
  l->scratch = NULL;
}

hl_op_t *hl_op_limit_create(hl_op_t *child, int64_t limit, int64_t offset, hl_arena_t *arena,
                            hl_error_t *err) {
  limit_t *l = hl_arena_zalloc(arena, sizeof(*l));
  hl_arena_t *scratch = l ? hl_arena_create_charged(16 * 1024, hl_arena_account(arena)) : NULL;
  if (!scratch) {
    child->close(child);
    hl_err_nomem(err);
    return NULL;
  }
  l->op.next = limit_next;
  l->op.close = limit_close;
  l->child = child;
  l->limit = limit;
  l->offset = offset;
  l->scratch = scratch;
  return &l->op;
}
