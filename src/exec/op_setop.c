/*
 * op_setop.c -- UNION ALL, UNION, INTERSECT and EXCEPT.
 *
 * UNION ALL passes its children's batches through one after the other.
 * The distinct forms key every row by all its columns
 * (hl_value_key_append): UNION keeps the first occurrence of each key over
 * both inputs; INTERSECT and EXCEPT first read the right input into a key
 * set, then keep the left rows whose key is (or is not) in it, once each.
 * Batches pass through with a narrowed selection; nothing is copied.
 */
#include "exec/ops.h"

#include "util/hashmap.h"

typedef struct setop {
  hl_op_t op;
  hl_op_t *left, *right;
  hl_ast_setop_t kind;
  int n_cols;
  bool left_done;
  bool right_read; /* INTERSECT/EXCEPT: right side consumed into `right_keys` */
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

static hl_status_t read_right(setop_t *o, hl_error_t *err) {
  for (;;) {
    hl_batch_t *b;
    hl_status_t rc = o->right->next(o->right, &b, err);
    if (rc != HL_OK || !b) return rc;
    for (uint32_t i = 0; i < hl_batch_live(b); i++) {
      if ((rc = row_key(o, b, hl_batch_row(b, i), err)) != HL_OK) return rc;
      uint64_t v;
      bool ins;
      if (hl_map_upsert(o->right_keys, o->key.data ? o->key.data : "", o->key.len, 0, &v, &ins) < 0)
        return hl_err_nomem(err);
    }
    if ((rc = charge(o, err)) != HL_OK) return rc;
  }
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
    if (!o->left_done) {
      if ((rc = o->left->next(o->left, &b, err)) != HL_OK) return rc;
      if (!b) o->left_done = true;
    }
    if (!b) {
      if (o->kind == HL_SETOP_INTERSECT || o->kind == HL_SETOP_EXCEPT || !o->right) return HL_OK;
      if ((rc = o->right->next(o->right, &b, err)) != HL_OK) return rc;
      if (!b) return HL_OK;
    }
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
  if (o->left) o->left->close(o->left);
  if (o->right) o->right->close(o->right);
  o->left = o->right = NULL;
  hl_map_destroy(o->seen);
  hl_map_destroy(o->right_keys);
  o->seen = o->right_keys = NULL;
  hl_budget_release(o->budget, o->charged);
  o->charged = 0;
  hl_arena_destroy(o->scratch);
  o->scratch = NULL;
  hl_buf_fini(&o->key);
}

hl_op_t *hl_op_setop_create(hl_op_t *left, hl_op_t *right, hl_ast_setop_t kind, int n_cols,
                            hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err) {
  setop_t *o = hl_arena_zalloc(arena, sizeof(*o));
  if (!o) {
    left->close(left);
    if (right) right->close(right);
    return hl_err_nomem(err), NULL;
  }
  o->op.next = setop_next;
  o->op.close = setop_close;
  o->left = left;
  o->right = right;
  o->kind = kind;
  o->n_cols = n_cols;
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
