/*
 * op_lateral.c -- LATERAL VIEW [OUTER] explode / posexplode / inline / replicate_rows (which
 * stack, json_tuple and parse_url_tuple are bound to, see bind_lateral).
 *
 * For every live row of the child the collection expression (rel->gen_arg,
 * over the child's layout) is evaluated once per input batch; the row is
 * emitted once per array element or map entry, its columns followed by the
 * generated ones ([position,] element | key, value | the fields of a struct
 * element, NULLs for a NULL element).  replicate_rows (rel->gen_repeat):
 * gen_arg is one struct (n, v1, ...) and the row is emitted n times with
 * its fields; a NULL n fails the statement, as it does in Hive
 * (GenericUDTFReplicateRows unboxes it).  With OUTER a NULL or
 * empty collection yields the row once with NULL generated columns, else
 * no row (Hive).
 *
 * One input row may produce more rows than a batch holds, so the operator
 * remembers where it stopped (row and element).  An output batch holds rows
 * of one input batch only: values of complex type point into the input
 * batch and the evaluated collections, which stay valid until the child's
 * next call, which happens only after the output batch was consumed.
 *
 * The operator polls the statement's cancel flag and deadline before each
 * output batch: one input row may yield billions of rows that an
 * aggregation above consumes without returning to the api, so no other
 * poll would run (hl_interrupt, statement_timeout).
 */
#include "exec/ops.h"

#include <string.h>

typedef struct lateral {
  hl_op_t op;
  hl_op_t *child;
  const hl_rel_t *rel;
  hl_budget_t *budget; /* the statement's cancel flag and deadline */
  int n_left;          /* child columns */
  hl_batch_t *out;     /* rel->n_cols columns */
  hl_arena_t *coll;    /* the evaluated collections of the current input */
  hl_vec_t arg;        /* rel->gen_arg over the current input batch */
  hl_batch_t *in;      /* current input batch, NULL when one must be pulled */
  uint32_t in_i;       /* next live row of IN */
  uint64_t item;       /* next element of that row's collection (or copy) */
  hl_value_t *gen;     /* the generated values of one output row */
} lateral_t;

/* Appends input row ROW with generated values GEN[0..n_gen) (NULL: all
 * NULL) as the next output row. */
static hl_status_t emit(lateral_t *l, uint32_t row, const hl_value_t *gen, hl_error_t *err) {
  hl_batch_t *o = l->out;
  uint32_t r = o->n_rows;
  int n_gen = l->rel->n_cols - l->n_left;
  for (int c = 0; c < l->n_left; c++) {
    hl_value_t v;
    hl_vec_get_value(&l->in->cols[c], row, &v);
    if (hl_vec_put_value(&o->cols[c], o->arena, r, &v) != HL_OK) return hl_err_nomem(err);
  }
  for (int k = 0; k < n_gen; k++) {
    hl_value_t null_v;
    memset(&null_v, 0, sizeof null_v);
    null_v.is_null = true;
    if (hl_vec_put_value(&o->cols[l->n_left + k], o->arena, r, gen ? &gen[k] : &null_v) != HL_OK)
      return hl_err_nomem(err);
  }
  o->n_rows++;
  return HL_OK;
}

static hl_status_t lateral_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  lateral_t *l = (lateral_t *)op;
  const hl_rel_t *rel = l->rel;
  bool is_map = rel->gen_arg->type->id == HL_T_MAP;
  *out = NULL;
  hl_status_t crc = hl_budget_check_cancel(l->budget, err);
  if (crc != HL_OK) return crc;
  if (hl_batch_reset(l->out) != HL_OK) return hl_err_nomem(err);
  for (;;) {
    if (!l->in || l->in_i >= hl_batch_live(l->in)) {
      if (l->out->n_rows > 0) break; /* keep one input batch per output batch */
      hl_arena_reset(l->coll);
      l->in = NULL;
      hl_batch_t *b;
      hl_status_t rc = l->child->next(l->child, &b, err);
      if (rc != HL_OK) return rc;
      if (!b) return HL_OK; /* end */
      rc = hl_expr_eval(rel->gen_arg, b, &l->arg, l->coll, err);
      if (rc != HL_OK) return rc;
      l->in = b;
      l->in_i = 0;
      l->item = 0;
      continue;
    }
    if (l->out->n_rows >= HL_BATCH_CAP) break;
    uint32_t row = hl_batch_row(l->in, l->in_i);
    hl_value_t c;
    hl_vec_get_value(&l->arg, row, &c);
    uint64_t n = c.is_null ? 0 : c.u.list.n;
    if (rel->gen_repeat) {
      if (c.u.list.items[0].is_null)
        return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                          "the row count of replicate_rows is NULL");
      n = c.u.list.items[0].u.i > 0 ? (uint64_t)c.u.list.items[0].u.i : 0;
    }
    if (n == 0) {
      hl_status_t rc = rel->gen_outer ? emit(l, row, NULL, err) : HL_OK;
      if (rc != HL_OK) return rc;
      l->in_i++;
      continue;
    }
    while (l->item < n && l->out->n_rows < HL_BATCH_CAP) {
      hl_value_t *gen = l->gen;
      int g = 0, n_gen = rel->n_cols - l->n_left;
      memset(gen, 0, sizeof(hl_value_t) * (size_t)n_gen);
      if (rel->gen_pos) gen[g++].u.i = (int64_t)l->item;
      if (rel->gen_repeat) {
        for (int k = 0; k < n_gen; k++)
          gen[k] = c.u.list.items[k];
      } else if (rel->gen_inline) {
        const hl_value_t *e = &c.u.list.items[l->item];
        for (int k = 0; k < n_gen; k++)
          if (e->is_null || (uint32_t)k >= e->u.list.n)
            gen[k].is_null = true;
          else
            gen[k] = e->u.list.items[k];
      } else if (is_map) {
        gen[g++] = c.u.list.items[2 * l->item];
        gen[g++] = c.u.list.items[2 * l->item + 1];
      } else {
        gen[g++] = c.u.list.items[l->item];
      }
      hl_status_t rc = emit(l, row, gen, err);
      if (rc != HL_OK) return rc;
      l->item++;
    }
    if (l->item >= n) {
      l->in_i++;
      l->item = 0;
    }
  }
  *out = l->out;
  return HL_OK;
}

static void lateral_close(hl_op_t *op) {
  lateral_t *l = (lateral_t *)op;
  if (l->child) l->child->close(l->child);
  l->child = NULL;
  hl_batch_destroy(l->out);
  l->out = NULL;
  hl_arena_destroy(l->coll);
  l->coll = NULL;
}

hl_op_t *hl_op_lateral_create(hl_op_t *child, const hl_rel_t *rel, hl_budget_t *budget,
                              hl_arena_t *arena, hl_error_t *err) {
  lateral_t *l = hl_arena_zalloc(arena, sizeof(*l));
  if (!l) {
    child->close(child);
    hl_err_nomem(err);
    return NULL;
  }
  l->op.next = lateral_next;
  l->op.close = lateral_close;
  l->child = child;
  l->rel = rel;
  l->budget = budget;
  l->n_left = rel->left->n_cols;
  l->out = hl_batch_create_charged(rel->n_cols, rel->types, hl_arena_account(arena));
  l->coll = hl_arena_create_charged(64 * 1024, hl_arena_account(arena));
  l->gen = hl_arena_zalloc(arena, sizeof(hl_value_t) * (size_t)(rel->n_cols - l->n_left + 1));
  if (!l->out || !l->coll || !l->gen) {
    lateral_close(&l->op);
    hl_err_nomem(err);
    return NULL;
  }
  return &l->op;
}
