/*
 * rowset.c -- rows built in memory by commands (SHOW, DESCRIBE, MSCK, SET)
 * and replayed as batches through the operator interface (see result.h).
 *
 * Rows are arrays of hl_value_t in the statement arena; strings are copied
 * there too, so a rowset outlives the catalog records it was built from.
 * The operator hands out one heap batch of up to HL_BATCH_CAP rows at a
 * time; close (or, failing that, the arena's reset) frees it.
 */
#include "exec/result.h"

#include <string.h>

struct hl_rowset {
  hl_arena_t *arena;
  int n_cols;
  char **names;
  const hl_type_t **types;
  hl_value_t **rows; /* n_rows arrays of n_cols values */
  size_t n_rows;
  size_t cap_rows;
};

typedef struct rowset_op {
  hl_op_t base;
  hl_rowset_t *rs;
  size_t next_row;
  hl_batch_t *batch;
} rowset_op_t;

hl_rowset_t *hl_rowset_create(hl_arena_t *arena, int n_cols, const char *const *names,
                              const hl_type_t *const *types) {
  hl_rowset_t *rs = hl_arena_zalloc(arena, sizeof(*rs));
  if (!rs) return NULL;
  size_t n = (size_t)(n_cols > 0 ? n_cols : 1);
  rs->arena = arena;
  rs->n_cols = n_cols;
  rs->names = hl_arena_alloc(arena, sizeof(char *) * n);
  rs->types = hl_arena_alloc(arena, sizeof(hl_type_t *) * n);
  if (!rs->names || !rs->types) return NULL;
  for (int i = 0; i < n_cols; i++) {
    rs->names[i] = hl_arena_strdup(arena, names[i]);
    rs->types[i] = hl_type_copy(arena, types[i]);
    if (!rs->names[i] || !rs->types[i]) return NULL;
  }
  return rs;
}

hl_rowset_t *hl_rowset_create_text(hl_arena_t *arena, int n_cols, const char *const *names) {
  const hl_type_t *types[64];
  if (n_cols < 0 || n_cols > 64) return NULL;
  for (int i = 0; i < n_cols; i++)
    types[i] = hl_type_prim(HL_T_STRING);
  return hl_rowset_create(arena, n_cols, names, types);
}

size_t hl_rowset_count(const hl_rowset_t *rs) {
  return rs->n_rows;
}

/* Copies string payloads of V into the rowset arena (complex values are
 * immutable trees that already live in a statement-lifetime arena). */
static hl_status_t copy_value(hl_rowset_t *rs, int col, const hl_value_t *v, hl_value_t *dst) {
  *dst = *v;
  if (v->is_null || hl_type_phys(rs->types[col]) != HL_P_STR) return HL_OK;
  char *p = hl_arena_alloc(rs->arena, v->u.s.len ? v->u.s.len : 1);
  if (!p) return HL_NOMEM;
  if (v->u.s.len) memcpy(p, v->u.s.ptr, v->u.s.len);
  dst->u.s.ptr = p;
  return HL_OK;
}

hl_status_t hl_rowset_add(hl_rowset_t *rs, const hl_value_t *values, hl_error_t *err) {
  if (rs->n_rows == rs->cap_rows) {
    size_t cap = rs->cap_rows ? rs->cap_rows * 2 : 16;
    hl_value_t **grown =
        hl_arena_realloc(rs->arena, rs->rows, sizeof(*grown) * rs->cap_rows, sizeof(*grown) * cap);
    if (!grown) return hl_err_nomem(err);
    rs->rows = grown;
    rs->cap_rows = cap;
  }
  size_t n = (size_t)(rs->n_cols > 0 ? rs->n_cols : 1);
  hl_value_t *row = hl_arena_zalloc(rs->arena, sizeof(*row) * n);
  if (!row) return hl_err_nomem(err);
  for (int i = 0; i < rs->n_cols; i++)
    if (copy_value(rs, i, &values[i], &row[i]) != HL_OK) return hl_err_nomem(err);
  rs->rows[rs->n_rows++] = row;
  return HL_OK;
}

hl_status_t hl_rowset_add_text(hl_rowset_t *rs, const char *const *texts, hl_error_t *err) {
  hl_value_t vals[64];
  if (rs->n_cols > 64)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "text rowset too wide");
  for (int i = 0; i < rs->n_cols; i++) {
    memset(&vals[i], 0, sizeof(vals[i]));
    if (!texts[i]) {
      vals[i].is_null = true;
    } else {
      vals[i].u.s.ptr = texts[i];
      vals[i].u.s.len = (uint32_t)strlen(texts[i]);
    }
  }
  return hl_rowset_add(rs, vals, err);
}

static hl_status_t rowset_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  rowset_op_t *r = (rowset_op_t *)op;
  hl_rowset_t *rs = r->rs;
  *out = NULL;
  if (r->next_row >= rs->n_rows) return HL_OK;
  if (!r->batch) {
    r->batch = hl_batch_create_charged(rs->n_cols, rs->types, hl_arena_account(rs->arena));
    if (!r->batch) return hl_err_nomem(err);
  } else if (hl_batch_reset(r->batch) != HL_OK) {
    return hl_err_nomem(err);
  }
  hl_batch_t *b = r->batch;
  uint32_t n = 0;
  while (n < HL_BATCH_CAP && r->next_row < rs->n_rows) {
    const hl_value_t *row = rs->rows[r->next_row];
    for (int c = 0; c < rs->n_cols; c++)
      if (hl_vec_put_value(&b->cols[c], b->arena, n, &row[c]) != HL_OK) return hl_err_nomem(err);
    n++;
    r->next_row++;
  }
  b->n_rows = n;
  *out = b;
  return HL_OK;
}

static void rowset_close(hl_op_t *op) {
  rowset_op_t *r = (rowset_op_t *)op;
  hl_batch_destroy(r->batch);
  r->batch = NULL;
}

/* Arena reset hook: frees the batch if the consumer never closed the op. */
static void rowset_cleanup(void *arg) {
  rowset_close(arg);
}

hl_status_t hl_rowset_result(hl_rowset_t *rs, hl_result_t *result, hl_error_t *err) {
  rowset_op_t *r = hl_arena_zalloc(rs->arena, sizeof(*r));
  if (!r) return hl_err_nomem(err);
  r->base.next = rowset_next;
  r->base.close = rowset_close;
  r->rs = rs;
  if (hl_arena_on_reset(rs->arena, rowset_cleanup, r) != 0) return hl_err_nomem(err);
  result->n_cols = rs->n_cols;
  result->names = rs->names;
  result->types = rs->types;
  result->root = &r->base;
  return HL_OK;
}
