/*
 * func_union.c -- UNIONTYPE functions: create_union(tag, v0, v1, ...) and
 * extract_union(u [, tag]) (Hive's GenericUDFUnion, GenericUDFExtractUnion).
 *
 * A union value is the tag and the one value of that alternative
 * (util/value.h: u.list.tag, n = 1, items[0]).  The binder (plan/bind.c,
 * bind_union_call) types the calls: create_union's type is the union of its
 * value arguments' types; extract_union(u) turns every union inside u's
 * type into a struct tag_0, tag_1, ... (hl_union_exploded_type), and
 * extract_union(u, k) is alternative k's type.
 */
#include "vector/func_int.h"

#include <string.h>

/* Hive takes the tag as a byte ((byte) of an int): 256 is tag 0, 128 is
 * -128, which no union has. */
HL_FN(hl_fn_create_union) {
  int n_alt = call->n_args - 1;
  if (a[0].is_null)
    return hl_err_set_at(err, call->args[0]->pos, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                         "create_union: the tag is NULL");
  int tag = (int8_t)(uint8_t)(uint64_t)a[0].u.i;
  if (tag < 0 || tag >= n_alt)
    return hl_err_set_at(err, call->args[0]->pos, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
                         "create_union: tag %lld is not one of the %d alternatives (0 to %d)",
                         (long long)a[0].u.i, n_alt, n_alt - 1);
  hl_value_t *item = hl_arena_alloc(arena, sizeof *item);
  if (!item) return hl_err_nomem(err);
  if (hl_value_copy_deep(arena, call->args[tag + 1]->type, &a[tag + 1], item) != HL_OK)
    return hl_err_nomem(err);
  out->is_null = false;
  out->u.list.n = 1;
  out->u.list.tag = (uint32_t)tag;
  out->u.list.items = item;
  return HL_OK;
}

hl_type_t *hl_union_exploded_type(hl_arena_t *arena, const hl_type_t *t, bool *found) {
  if (!hl_type_is_complex(t)) return (hl_type_t *)t;
  hl_type_t *x = hl_arena_alloc(arena, sizeof *x);
  hl_type_t **kids = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)t->n_children);
  if (!x || !kids) return NULL;
  *x = *t;
  x->children = kids;
  for (int i = 0; i < t->n_children; i++)
    if (!(kids[i] = hl_union_exploded_type(arena, t->children[i], found))) return NULL;
  if (t->id == HL_T_UNION) {
    *found = true;
    x->id = HL_T_STRUCT;
    if (!(x->field_names = hl_arena_alloc(arena, sizeof(char *) * (size_t)t->n_children)))
      return NULL;
    for (int i = 0; i < t->n_children; i++)
      if (!(x->field_names[i] = hl_arena_sprintf(arena, "tag_%d", i))) return NULL;
  }
  return x;
}

/* V of TYPE with every union made a struct of its alternatives, NULL but
 * the tag's.  As in Hive, a NULL union or struct becomes a struct of NULL
 * fields (Hive's inspectors read a NULL's tag as -1 and its fields as
 * NULL); a NULL array or map stays NULL. */
static hl_status_t explode(hl_arena_t *arena, const hl_type_t *type, const hl_value_t *v,
                           hl_value_t *out) {
  memset(out, 0, sizeof *out);
  if (!hl_type_is_complex(type)) {
    *out = *v;
    return HL_OK;
  }
  bool fields = type->id == HL_T_UNION || type->id == HL_T_STRUCT;
  if (v->is_null && !fields) {
    out->is_null = true;
    return HL_OK;
  }
  size_t n = fields ? (size_t)type->n_children : hl_value_n_items(type, v);
  hl_value_t *items = hl_arena_alloc(arena, sizeof *items * (n ? n : 1));
  if (!items) return HL_NOMEM;
  for (size_t i = 0; i < n; i++) {
    static const hl_value_t null = {.is_null = true};
    const hl_value_t *src = &null;
    if (v->is_null)
      ;
    else if (type->id == HL_T_UNION)
      src = i == v->u.list.tag && v->u.list.n ? &v->u.list.items[0] : &null;
    else if (type->id != HL_T_STRUCT || i < v->u.list.n)
      src = &v->u.list.items[i];
    const hl_type_t *ct =
        type->id == HL_T_UNION ? type->children[i] : hl_value_item_type(type, v, i);
    if (explode(arena, ct, src, &items[i]) != HL_OK) return HL_NOMEM;
  }
  out->u.list.n = type->id == HL_T_MAP ? v->u.list.n : (uint32_t)n;
  out->u.list.items = items;
  return HL_OK;
}

HL_FN(hl_fn_extract_union) {
  const hl_type_t *ut = call->args[0]->type;
  if (call->n_args == 2) { /* extract_union(u, k): alternative k or NULL */
    uint32_t k = (uint32_t)a[1].u.i;
    if (a[0].is_null || a[0].u.list.tag != k || !a[0].u.list.n) {
      out->is_null = true;
      return HL_OK;
    }
    const hl_value_t *x = &a[0].u.list.items[0];
    if (!hl_type_is_complex(call->type)) {
      *out = *x; /* strings are copied by the result vector */
      return HL_OK;
    }
    return hl_value_copy_deep(arena, call->type, x, out) == HL_OK ? HL_OK : hl_err_nomem(err);
  }
  hl_value_t tmp;
  if (explode(arena, ut, &a[0], &tmp) != HL_OK) return hl_err_nomem(err);
  /* the exploded tree shares strings with the input batch: copy it whole */
  return hl_value_copy_deep(arena, call->type, &tmp, out) == HL_OK ? HL_OK : hl_err_nomem(err);
}
