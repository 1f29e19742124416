/*
 * vector.c -- batch and vector allocation, null bitmaps, value access
 * (see vector.h).
 *
 * The batch header and its column array are heap objects; everything a
 * refill produces (data arrays, bitmaps, strings) lives in the batch arena,
 * so hl_batch_reset frees a whole batch's contents in one step.
 */
#include "vector/vector.h"

#include "util/mem.h"

#include <string.h>

#define VALIDITY_WORDS (HL_BATCH_CAP / 64)

static size_t phys_size(hl_phys_t p) {
  switch (p) {
  case HL_P_BOOL:
    return sizeof(uint8_t);
  case HL_P_I64:
    return sizeof(int64_t);
  case HL_P_F64:
    return sizeof(double);
  case HL_P_I128:
    return sizeof(__int128);
  case HL_P_STR:
    return sizeof(hl_str_t);
  case HL_P_VALUE:
    return sizeof(hl_value_t *);
  }
  return sizeof(int64_t);
}

hl_status_t hl_vec_alloc(hl_vec_t *v, const hl_type_t *type, hl_arena_t *arena) {
  v->type = type;
  v->validity = NULL;
  v->dict = NULL;
  v->dict_idx = NULL;
  v->dict_n = 0;
  v->data = hl_arena_zalloc(arena, phys_size(hl_type_phys(type)) * HL_BATCH_CAP);
  return v->data ? HL_OK : HL_NOMEM;
}

hl_batch_t *hl_batch_create(int n_cols, const hl_type_t *const *types) {
  return hl_batch_create_charged(n_cols, types, NULL);
}

hl_batch_t *hl_batch_create_charged(int n_cols, const hl_type_t *const *types,
                                    hl_mem_account_t *acct) {
  size_t n_alloc = (size_t)(n_cols > 0 ? n_cols : 1);
  hl_batch_t *batch = hl_calloc(1, sizeof(*batch));
  hl_vec_t *vecs = hl_calloc(n_alloc, sizeof(hl_vec_t));
  hl_arena_t *arena = hl_arena_create_charged(64 * 1024, acct);
  if (!batch || !vecs || !arena) {
    hl_free(batch);
    hl_free(vecs);
    hl_arena_destroy(arena);
    return NULL;
  }
  batch->n_cols = n_cols;
  batch->cols = vecs;
  batch->arena = arena;
  for (int i = 0; i < n_cols; i++)
    vecs[i].type = types[i];
  if (hl_batch_reset(batch) != HL_OK) {
    hl_batch_destroy(batch);
    return NULL;
  }
  return batch;
}

void hl_batch_destroy(hl_batch_t *batch) {
  if (!batch) return;
  hl_arena_destroy(batch->arena);
  hl_free(batch->cols);
  hl_free(batch->unused);
  hl_free(batch->zeros);
  hl_free(batch);
}

hl_status_t hl_batch_reset(hl_batch_t *batch) {
  hl_arena_reset(batch->arena);
  batch->n_rows = 0;
  batch->sel = NULL;
  batch->n_sel = 0;
  /* drop every pointer into the old arena first, so that a failure below
   * leaves no column pointing at freed memory */
  for (int i = 0; i < batch->n_cols; i++) {
    batch->cols[i].data = NULL;
    batch->cols[i].validity = NULL;
    batch->cols[i].dict = NULL;
    batch->cols[i].dict_idx = NULL;
  }
  for (int i = 0; i < batch->n_cols; i++) {
    if (batch->unused && batch->unused[i]) {
      batch->cols[i].data = batch->zeros;
      if (!(batch->cols[i].validity = hl_arena_zalloc(batch->arena, HL_BATCH_CAP / 8)))
        return HL_NOMEM;
      continue;
    }
    if (hl_vec_alloc(&batch->cols[i], batch->cols[i].type, batch->arena) != HL_OK) return HL_NOMEM;
  }
  return HL_OK;
}

hl_status_t hl_batch_set_unused(hl_batch_t *batch, int c) {
  if (!batch->unused && !(batch->unused = hl_calloc((size_t)batch->n_cols, sizeof(bool))))
    return HL_NOMEM;
  /* wide enough for every physical type's HL_BATCH_CAP entries */
  if (!batch->zeros && !(batch->zeros = hl_calloc(HL_BATCH_CAP, sizeof(hl_value_t))))
    return HL_NOMEM;
  batch->unused[c] = true;
  return HL_OK;
}

hl_status_t hl_vec_set_all_null(hl_vec_t *v, hl_arena_t *arena) {
  v->validity = hl_arena_zalloc(arena, HL_BATCH_CAP / 8);
  return v->validity ? HL_OK : HL_NOMEM;
}

hl_status_t hl_vec_set_null(hl_vec_t *v, hl_arena_t *arena, uint32_t row) {
  if (!v->validity) {
    v->validity = hl_arena_alloc(arena, sizeof(uint64_t) * VALIDITY_WORDS);
    if (!v->validity) return HL_NOMEM;
    memset(v->validity, 0xff, sizeof(uint64_t) * VALIDITY_WORDS);
  }
  v->validity[row >> 6] &= ~((uint64_t)1 << (row & 63));
  return HL_OK;
}

void hl_vec_set_valid(hl_vec_t *v, uint32_t row) {
  if (v->validity) v->validity[row >> 6] |= (uint64_t)1 << (row & 63);
}

hl_status_t hl_vec_fill(hl_vec_t *v, hl_arena_t *arena, uint32_t n, const hl_value_t *val) {
  if (val->is_null) return hl_vec_set_all_null(v, arena);
  v->validity = NULL;
  switch (hl_type_phys(v->type)) {
  case HL_P_I64:
    for (uint32_t i = 0; i < n; i++)
      HL_VEC_I64(v)[i] = val->u.i;
    return HL_OK;
  case HL_P_F64:
    for (uint32_t i = 0; i < n; i++)
      HL_VEC_F64(v)[i] = val->u.d;
    return HL_OK;
  case HL_P_I128:
    for (uint32_t i = 0; i < n; i++)
      HL_VEC_I128(v)[i] = val->u.dec;
    return HL_OK;
  case HL_P_STR: {
    if (hl_vec_put_value(v, arena, 0, val) != HL_OK) return HL_NOMEM;
    for (uint32_t i = 1; i < n; i++)
      HL_VEC_STR(v)[i] = HL_VEC_STR(v)[0];
    return HL_OK;
  }
  default:
    for (uint32_t i = 0; i < n; i++)
      if (hl_vec_put_value(v, arena, i, val) != HL_OK) return HL_NOMEM;
    return HL_OK;
  }
}

hl_status_t hl_vec_put_value(hl_vec_t *v, hl_arena_t *arena, uint32_t row, const hl_value_t *val) {
  if (val->is_null) return hl_vec_set_null(v, arena, row);
  hl_vec_set_valid(v, row);
  switch (hl_type_phys(v->type)) {
  case HL_P_BOOL:
    HL_VEC_BOOL(v)[row] = val->u.b ? 1 : 0;
    break;
  case HL_P_I64:
    HL_VEC_I64(v)[row] = val->u.i;
    break;
  case HL_P_F64:
    HL_VEC_F64(v)[row] = val->u.d;
    break;
  case HL_P_I128:
    HL_VEC_I128(v)[row] = val->u.dec;
    break;
  case HL_P_STR: {
    char *p = hl_arena_alloc(arena, val->u.s.len ? val->u.s.len : 1);
    if (!p) return HL_NOMEM;
    if (val->u.s.len) memcpy(p, val->u.s.ptr, val->u.s.len);
    HL_VEC_STR(v)[row].ptr = p;
    HL_VEC_STR(v)[row].len = val->u.s.len;
    break;
  }
  case HL_P_VALUE: {
    /* complex values are immutable trees; the caller guarantees they live
     * at least as long as the batch arena (they were built in it or in a
     * longer-lived arena) */
    hl_value_t *copy = hl_arena_alloc(arena, sizeof(*copy));
    if (!copy) return HL_NOMEM;
    *copy = *val;
    HL_VEC_VALUE(v)[row] = copy;
    break;
  }
  }
  return HL_OK;
}

void hl_vec_get_value(const hl_vec_t *v, uint32_t row, hl_value_t *out) {
  memset(out, 0, sizeof(*out));
  if (hl_vec_is_null(v, row)) {
    out->is_null = true;
    return;
  }
  switch (hl_type_phys(v->type)) {
  case HL_P_BOOL:
    out->u.b = HL_VEC_BOOL(v)[row] != 0;
    break;
  case HL_P_I64:
    out->u.i = HL_VEC_I64(v)[row];
    break;
  case HL_P_F64:
    out->u.d = HL_VEC_F64(v)[row];
    break;
  case HL_P_I128:
    out->u.dec = HL_VEC_I128(v)[row];
    break;
  case HL_P_STR:
    out->u.s = HL_VEC_STR(v)[row];
    break;
  case HL_P_VALUE: {
    const hl_value_t *p = HL_VEC_VALUE(v)[row];
    if (p)
      *out = *p;
    else
      out->is_null = true;
    break;
  }
  }
}
