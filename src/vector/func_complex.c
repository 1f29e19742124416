/*
 * func_complex.c -- functions over ARRAY, MAP and STRUCT values, and the
 * element accessors a[i], m[k] and s.f.
 *
 * The binder (plan/bind.c, bind_complex_call) checks and types every call
 * here: argument kinds, the element type an array_contains value is cast
 * to, the field index of s.f.  Results that are complex values are built
 * in the evaluation arena; elements taken out of an input value are copied
 * deep, so that a result never points into the batch it was read from (the
 * same rule fn_array follows).
 */
#include "vector/func_int.h"

#include "util/sort.h"

#include <string.h>

/* size(a | m): elements or entries; -1 for NULL, as Hive's GenericUDFSize. */
HL_FN(hl_fn_size) {
  out->is_null = false;
  out->u.i = a[0].is_null ? -1 : (int64_t)a[0].u.list.n;
  return HL_OK;
}

/* The order of Hive's ObjectInspectorUtils.compare, which sort_array and
 * array_contains use: NULL below every value; arrays element by element,
 * then the shorter first; structs field by field; unions by tag, then
 * value.  Maps are not ordered
 * (the binder refuses them), nor are they in Hive. */
int hl_fn_cmp_value(const hl_type_t *t, const hl_value_t *x, const hl_value_t *y) {
  if (x->is_null || y->is_null) return x->is_null ? (y->is_null ? 0 : -1) : 1;
  if (t->id == HL_T_UNION) { /* the tag first, then the values (Hive 4) */
    if (x->u.list.tag != y->u.list.tag) return x->u.list.tag < y->u.list.tag ? -1 : 1;
    if (!x->u.list.n || !y->u.list.n || (int)x->u.list.tag >= t->n_children)
      return (int)(x->u.list.n != 0) - (int)(y->u.list.n != 0);
    return hl_fn_cmp_value(t->children[x->u.list.tag], &x->u.list.items[0], &y->u.list.items[0]);
  }
  if (t->id != HL_T_ARRAY && t->id != HL_T_STRUCT) return hl_value_compare(t, x, y);
  uint32_t n = x->u.list.n < y->u.list.n ? x->u.list.n : y->u.list.n;
  for (uint32_t i = 0; i < n; i++) {
    const hl_type_t *ct = t->id == HL_T_ARRAY ? t->children[0] : t->children[i];
    int r = hl_fn_cmp_value(ct, &x->u.list.items[i], &y->u.list.items[i]);
    if (r) return r;
  }
  return x->u.list.n < y->u.list.n ? -1 : x->u.list.n > y->u.list.n;
}

/* array_contains(a, v): Hive answers FALSE (never NULL) for a NULL array
 * or a NULL value, and skips NULL elements.  The binder cast v to the type
 * the two compare in (the element type, or a wider number). */
HL_FN(hl_fn_array_contains) {
  out->is_null = false;
  out->u.b = false;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  const hl_type_t *et = call->args[0]->type->children[0], *ct = call->args[1]->type;
  bool same = hl_type_equal(et, ct);
  for (uint32_t i = 0; i < a[0].u.list.n; i++) {
    const hl_value_t *x = &a[0].u.list.items[i];
    hl_value_t y;
    if (x->is_null) continue;
    if (!same) {
      hl_status_t rc = hl_value_cast(et, x, ct, &y, arena, err);
      if (rc != HL_OK) return rc;
      if (y.is_null) continue;
      x = &y;
    }
    if (hl_fn_cmp_value(ct, x, &a[1]) == 0) {
      out->u.b = true;
      break;
    }
  }
  return HL_OK;
}

typedef struct sort_ctx {
  const hl_type_t *type;
  const hl_value_t *items;
} sort_ctx_t;

static int cmp_items(const void *ctx, size_t x, size_t y) {
  const sort_ctx_t *c = ctx;
  return hl_fn_cmp_value(c->type, &c->items[x], &c->items[y]);
}

/* sort_array(a): ascending, NULL elements first (Hive); equal elements keep
 * their order (the sort is stable, which only shows for CHAR). */
HL_FN(hl_fn_sort_array) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const hl_type_t *et = call->type->children[0];
  size_t n = a[0].u.list.n;
  size_t *idx = hl_arena_alloc(arena, sizeof(size_t) * (n ? 2 * n : 1));
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (n ? n : 1));
  if (!idx || !items) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  sort_ctx_t ctx = {et, a[0].u.list.items};
  hl_sort_indexes(idx, idx + n, n, cmp_items, &ctx);
  for (size_t i = 0; i < n; i++)
    if (hl_value_copy_deep(arena, et, &a[0].u.list.items[idx[i]], &items[i]) != HL_OK)
      return hl_err_nomem(err);
  out->is_null = false;
  out->u.list.n = (uint32_t)n;
  out->u.list.items = items;
  return HL_OK;
}

/* map_keys(m) / map_values(m): in the map's own entry order. */
static hl_status_t map_part(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err, int part) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const hl_type_t *et = call->type->children[0];
  uint32_t n = a[0].u.list.n;
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (n ? n : 1));
  if (!items) return hl_err_nomem(err);
  for (uint32_t i = 0; i < n; i++)
    if (hl_value_copy_deep(arena, et, &a[0].u.list.items[2 * i + part], &items[i]) != HL_OK)
      return hl_err_nomem(err);
  out->is_null = false;
  out->u.list.n = n;
  out->u.list.items = items;
  return HL_OK;
}

HL_FN(hl_fn_map_keys) {
  return map_part(call, a, out, arena, err, 0);
}

HL_FN(hl_fn_map_values) {
  return map_part(call, a, out, arena, err, 1);
}

/* struct(v, ...) and named_struct('n', v, ...): the values (for
 * named_struct every second argument; the names are in the call's type). */
HL_FN(hl_fn_struct) {
  bool named = call->fn->name[0] == 'n';
  int n = named ? call->n_args / 2 : call->n_args;
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(n ? n : 1));
  if (!items) return hl_err_nomem(err);
  for (int k = 0; k < n; k++) {
    int arg = named ? 2 * k + 1 : k;
    if (hl_value_copy_deep(arena, call->args[arg]->type, &a[arg], &items[k]) != HL_OK)
      return hl_err_nomem(err);
  }
  out->is_null = false;
  out->u.list.n = (uint32_t)n;
  out->u.list.items = items;
  return HL_OK;
}

/* An element taken out of a complex value: a complex element is copied
 * deep (its tree lives in the input batch); a string is copied by the
 * result vector itself (hl_vec_put_value). */
static hl_status_t element(const hl_expr_t *call, const hl_value_t *x, hl_value_t *out,
                           hl_arena_t *arena, hl_error_t *err) {
  if (!hl_type_is_complex(call->type)) {
    *out = *x;
    return HL_OK;
  }
  return hl_value_copy_deep(arena, call->type, x, out) == HL_OK ? HL_OK : hl_err_nomem(err);
}

/* x[i] / m[k]: args are the collection and the index (BIGINT for an array,
 * the key type for a map).  Arrays count from 0; an index out of range, a
 * missing key or a NULL anywhere is NULL. */
static HL_FN(fn_subscript) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  const hl_type_t *ct = call->args[0]->type;
  const hl_value_t *found = NULL;
  if (ct->id == HL_T_ARRAY) {
    if (a[1].u.i >= 0 && a[1].u.i < (int64_t)a[0].u.list.n) found = &a[0].u.list.items[a[1].u.i];
  } else {
    /* the first entry with the key: files may hold a key twice */
    for (uint32_t i = 0; i < a[0].u.list.n && !found; i++) {
      const hl_value_t *k = &a[0].u.list.items[2 * i];
      if (!k->is_null && hl_value_compare(ct->children[0], k, &a[1]) == 0)
        found = &a[0].u.list.items[2 * i + 1];
    }
  }
  return found ? element(call, found, out, arena, err) : HL_OK;
}

/* s.f: args are the struct and the field's index (an INT constant). */
static HL_FN(fn_field) {
  out->is_null = true;
  if (a[0].is_null) return HL_OK;
  int64_t k = a[1].u.i;
  if (k < 0 || k >= (int64_t)a[0].u.list.n) return HL_OK;
  return element(call, &a[0].u.list.items[k], out, arena, err);
}

/* Not in the name table (no SQL name calls them); expr_print shows them as
 * x[i] and x.f. */
const hl_func_def_t hl_func_subscript = {"[]", 2, 2, fn_subscript, NULL};

/* index(a, n) is a[n]: plan/bind.c binds it to hl_func_subscript; the
 * table's entry (func.c) names this. */
HL_FN(hl_fn_index) {
  return fn_subscript(call, a, out, arena, err);
}
const hl_func_def_t hl_func_field = {".", 2, 2, fn_field, NULL};

/* a.f on an array of structs (Hive's ExprNodeFieldDesc over a list): the
 * array of each element's field, a NULL element giving a NULL item; args
 * as fn_field's. */
static HL_FN(fn_elems_field) {
  out->is_null = true;
  if (a[0].is_null) return HL_OK;
  int64_t k = a[1].u.i;
  uint32_t n = a[0].u.list.n;
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (n ? n : 1));
  if (!items) return hl_err_nomem(err);
  const hl_type_t *ft = call->type->children[0];
  for (uint32_t i = 0; i < n; i++) {
    const hl_value_t *st = &a[0].u.list.items[i];
    memset(&items[i], 0, sizeof items[i]);
    items[i].is_null = true;
    if (st->is_null || k < 0 || k >= (int64_t)st->u.list.n) continue;
    if (!hl_type_is_complex(ft))
      items[i] = st->u.list.items[k];
    else if (hl_value_copy_deep(arena, ft, &st->u.list.items[k], &items[i]) != HL_OK)
      return hl_err_nomem(err);
  }
  out->is_null = false;
  out->u.list.n = n;
  out->u.list.items = items;
  return HL_OK;
}
const hl_func_def_t hl_func_elems_field = {".", 2, 2, fn_elems_field, NULL};
