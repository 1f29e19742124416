/*
 * op_setop.c -- UNION ALL, UNION, INTERSECT and EXCEPT.
 *
 * The operands' operators are built one at a time, when the operation
 * reaches them, and closed when they are used up, so an operation over
 * thousands of operands holds one operand's operators (their batches,
 * scans and threads) at a time.  UNION ALL passes its operands' batches
 * through one after the other.  The distinct forms key every row by all its
 * columns (hl_value_key_append): UNION keeps the first occurrence of each
 * key over all its operands; INTERSECT and EXCEPT first read the right
 * operand into a key set, then keep the left rows whose key is (or is not)
 * in it, once each.  Batches pass through with a narrowed selection;
 * nothing is copied.
 */
#include "exec/ops.h"

#include "util/hashmap.h"

typedef struct setop {
  hl_op_t op;
  hl_ast_setop_t kind;
  int n_cols;
  hl_op_term_fn build; /* makes operand K's operators */
  void *build_ctx;
  int n_terms;
  int next_term; /* the operand to build when CUR is used up */
  hl_op_t *cur;  /* the operand being read, or NULL */
  bool done;
  bool right_read; /* INTERSECT/EXCEPT: right operand consumed into `right_keys` */
  hl_map_t *seen;
  hl_map_t *right_keys;
  hl_arena_t *scratch;
  hl_buf_t key;
  hl_budget_t *budget;
  uint64_t charged; /* bytes of the two key sets charged to the budget */
} setop_t;

/* Charges the key sets' growth: a UNION or EXCEPT over many distinct rows
 * fails with 53200 like any other operator that keeps rows. */
static hl_status_t charge(setop_t *o, hl_error_t *err) {
  return hl_budget_track(o->budget, &o->charged,
                         hl_map_bytes(o->seen) + hl_map_bytes(o->right_keys), "the set operation",
                         err);
}

static hl_status_t row_key(setop_t *o, const hl_batch_t *b, uint32_t r, hl_error_t *err) {
  hl_buf_reset(&o->key);
  for (int c = 0; c < o->n_cols; c++) {
    hl_value_t v;
    hl_vec_get_value(&b->cols[c], r, &v);
    hl_value_key_append(&o->key, b->cols[c].type, &v);
  }
  return o->key.oom ? hl_err_nomem(err) : HL_OK;
}

static void close_cur(setop_t *o) {
  if (o->cur) o->cur->close(o->cur);
  o->cur = NULL;
}

static hl_status_t read_right(setop_t *o, hl_error_t *err) {
  if (!(o->cur = o->build(o->build_ctx, 1, err))) return err->code;
  hl_status_t rc;
  for (;;) {
    hl_batch_t *b;
    rc = o->cur->next(o->cur, &b, err);
    if (rc != HL_OK || !b) break;
    for (uint32_t i = 0; i < hl_batch_live(b) && rc == HL_OK; i++) {
      if ((rc = row_key(o, b, hl_batch_row(b, i), err)) != HL_OK) break;
      uint64_t v;
      bool ins;
      if (hl_map_upsert(o->right_keys, o->key.data ? o->key.data : "", o->key.len, 0, &v, &ins) < 0)
        rc = hl_err_nomem(err);
    }
    if (rc == HL_OK) rc = charge(o, err);
    if (rc != HL_OK) break;
  }
  close_cur(o);
  return rc;
}

/* The next batch of the operands in order (INTERSECT/EXCEPT: of the left
 * one), NULL after the last. */
static hl_status_t next_input(setop_t *o, hl_batch_t **out, hl_error_t *err) {
  *out = NULL;
  int last = o->kind == HL_SETOP_INTERSECT || o->kind == HL_SETOP_EXCEPT ? 1 : o->n_terms;
  while (!o->done) {
    if (!o->cur) {
      if (o->next_term >= last) {
        o->done = true;
        break;
      }
      if (!(o->cur = o->build(o->build_ctx, o->next_term++, err))) return err->code;
    }
    hl_status_t rc = o->cur->next(o->cur, out, err);
    if (rc != HL_OK) return rc;
    if (*out) return HL_OK;
    close_cur(o); /* used up: its batches, scans and threads go now */
  }
  return HL_OK;
}

static hl_status_t setop_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  setop_t *o = (setop_t *)op;
  *out = NULL;
  hl_status_t rc;
  if ((o->kind == HL_SETOP_INTERSECT || o->kind == HL_SETOP_EXCEPT) && !o->right_read) {
    o->right_read = true;
    if ((rc = read_right(o, err)) != HL_OK) return rc;
  }
  for (;;) {
    hl_arena_reset(o->scratch);
    hl_batch_t *b = NULL;
    if ((rc = next_input(o, &b, err)) != HL_OK || !b) return rc;
    if (o->kind == HL_SETOP_UNION_ALL) {
      *out = b;
      return HL_OK;
    }
    uint32_t live = hl_batch_live(b), n = 0;
    uint32_t *sel = hl_arena_alloc(o->scratch, sizeof(uint32_t) * (live ? live : 1));
    if (!sel) return hl_err_nomem(err);
    for (uint32_t i = 0; i < live; i++) {
      uint32_t r = hl_batch_row(b, i);
      if ((rc = row_key(o, b, r, err)) != HL_OK) return rc;
      const char *k = o->key.data ? o->key.data : "";
      if (o->kind != HL_SETOP_UNION) {
        uint64_t v;
        bool in_right = hl_map_get(o->right_keys, k, o->key.len, &v);
        if (in_right != (o->kind == HL_SETOP_INTERSECT)) continue;
      }
      uint64_t v;
      bool ins;
      if (hl_map_upsert(o->seen, k, o->key.len, 0, &v, &ins) < 0) return hl_err_nomem(err);
      if (ins) sel[n++] = r;
    }
    if ((rc = charge(o, err)) != HL_OK) return rc;
    if (n == 0) continue;
    b->sel = sel;
    b->n_sel = n;
    *out = b;
    return HL_OK;
  }
}

static void setop_close(hl_op_t *op) {
  setop_t *o = (setop_t *)op;
  close_cur(o);
  o->done = true;
  hl_map_destroy(o->seen);
  hl_map_destroy(o->right_keys);
  o->seen = o->right_keys = NULL;
  hl_budget_release(o->budget, o->charged);
  o->charged = 0;
  hl_arena_destroy(o->scratch);
  o->scratch = NULL;
  hl_buf_fini(&o->key);
}

hl_op_t *hl_op_setop_create(int n_terms, hl_op_term_fn build, void *build_ctx, hl_ast_setop_t kind,
                            int n_cols, hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err) {
  if ((kind == HL_SETOP_INTERSECT || kind == HL_SETOP_EXCEPT) && n_terms != 2) {
    hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "INTERSECT and EXCEPT take two operands");
    return NULL;
  }
  setop_t *o = hl_arena_zalloc(arena, sizeof(*o));
  if (!o) return hl_err_nomem(err), NULL;
  o->op.next = setop_next;
  o->op.close = setop_close;
  o->kind = kind;
  o->n_cols = n_cols;
  o->build = build;
  o->build_ctx = build_ctx;
  o->n_terms = n_terms;
  o->budget = budget;
  hl_buf_init(&o->key);
  o->scratch = hl_arena_create_charged(16 * 1024, hl_arena_account(arena));
  o->seen = hl_map_create();
  o->right_keys = hl_map_create();
  if (!o->scratch || !o->seen || !o->right_keys) {
    setop_close(&o->op);
    return hl_err_nomem(err), NULL;
  }
  return &o->op;
}
