/*
 * func_array.c -- Hive 4's array functions: array_min, array_max,
 * array_distinct, array_join, array_position, array_remove, array_slice,
 * array_union, array_intersect, array_except; and sort_array_by.
 *
 * The binder (plan/bind.c, bind_array_call) types every call: the result
 * type, a value argument cast to the type it compares in, and for the two
 * array functions both arrays cast to one element type.  Elements compare
 * as sort_array orders them (hl_fn_cmp_value: NULL equal to NULL and below
 * every value), which is where Java's equals and natural order agree for
 * the types that reach here.  The set functions keep each value's first
 * occurrence, in the order of the input (Java's Stream.distinct), and
 * work in O(n log n) through sorted indexes, never pair by pair, so that
 * an array of a million elements (split of a long string) costs no more
 * than sorting it.  Results are built in the evaluation arena with
 * elements copied deep, as func_complex.c's are.
 */
#include "vector/func_int.h"

#include "util/sort.h"

#include <string.h>
#include <strings.h>

typedef struct actx {
  const hl_type_t *type;
  const hl_value_t *items;
} actx_t;

static int cmp_at(const void *ctx, size_t x, size_t y) {
  const actx_t *c = ctx;
  return hl_fn_cmp_value(c->type, &c->items[x], &c->items[y]);
}

/* The indexes of ITEMS[0..n) sorted stably by value (arena); NULL on OOM. */
static size_t *sorted_indexes(hl_arena_t *arena, const actx_t *c, size_t n) {
  size_t *idx = hl_arena_alloc(arena, sizeof(size_t) * (n ? 2 * n : 1));
  if (!idx) return NULL;
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  hl_sort_indexes(idx, idx + n, n, cmp_at, c);
  return idx;
}

/* Whether V equals an element of C's items, through their sorted IDX. */
static bool member(const actx_t *c, const size_t *idx, size_t n, const hl_value_t *v) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int r = hl_fn_cmp_value(c->type, &c->items[idx[mid]], v);
    if (r == 0) return true;
    if (r < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

/* An output array of up to N elements. */
typedef struct abuild {
  hl_value_t *items;
  uint32_t n;
} abuild_t;

static bool abuild_init(abuild_t *b, hl_arena_t *arena, size_t n) {
  b->n = 0;
  return (b->items = hl_arena_alloc(arena, sizeof(hl_value_t) * (n ? n : 1))) != NULL;
}

static hl_status_t abuild_push(abuild_t *b, hl_arena_t *arena, const hl_type_t *et,
                               const hl_value_t *v, hl_error_t *err) {
  if (hl_value_copy_deep(arena, et, v, &b->items[b->n]) != HL_OK) return hl_err_nomem(err);
  b->n++;
  return HL_OK;
}

static void abuild_done(abuild_t *b, hl_value_t *out) {
  out->is_null = false;
  out->u.list.n = b->n;
  out->u.list.items = b->items;
}

/* For each of A's elements, whether it is the first of its value (arena
 * array); NULL on OOM. */
static bool *first_of_value(hl_arena_t *arena, const hl_type_t *et, const hl_value_t *a) {
  size_t n = a->u.list.n;
  actx_t c = {et, a->u.list.items};
  size_t *idx = sorted_indexes(arena, &c, n);
  bool *first = hl_arena_alloc(arena, n ? n : 1);
  if (!idx || !first) return NULL;
  /* the sort is stable: the first of each run of equal values is the
   * earliest occurrence */
  for (size_t i = 0; i < n; i++)
    first[idx[i]] = i == 0 || cmp_at(&c, idx[i - 1], idx[i]) != 0;
  return first;
}

/* array_min(a) / array_max(a): NULL elements skipped; NULL for a NULL or
 * empty array and (where Hive fails on an empty stream) an all-NULL one. */
static hl_status_t extreme(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                           hl_arena_t *arena, hl_error_t *err, int sign) {
  out->is_null = true;
  if (a[0].is_null) return HL_OK;
  const hl_type_t *et = call->type;
  const hl_value_t *best = NULL;
  for (uint32_t i = 0; i < a[0].u.list.n; i++) {
    const hl_value_t *x = &a[0].u.list.items[i];
    if (!x->is_null && (!best || sign * hl_fn_cmp_value(et, x, best) > 0)) best = x;
  }
  if (best && hl_value_copy_deep(arena, et, best, out) != HL_OK) return hl_err_nomem(err);
  return HL_OK;
}

HL_FN(hl_fn_array_min) {
  return extreme(call, a, out, arena, err, -1);
}

HL_FN(hl_fn_array_max) {
  return extreme(call, a, out, arena, err, 1);
}

/* array_distinct(a): the first occurrence of each value (one NULL kept). */
HL_FN(hl_fn_array_distinct) {
  if (a[0].is_null) return out->is_null = true, HL_OK;
  const hl_type_t *et = call->type->children[0];
  bool *first = first_of_value(arena, et, &a[0]);
  abuild_t b;
  if (!first || !abuild_init(&b, arena, a[0].u.list.n)) return hl_err_nomem(err);
  for (uint32_t i = 0; i < a[0].u.list.n; i++)
    if (first[i]) {
      hl_status_t rc = abuild_push(&b, arena, et, &a[0].u.list.items[i], err);
      if (rc != HL_OK) return rc;
    }
  abuild_done(&b, out);
  return HL_OK;
}

/* array_join(a, sep[, null_text]): the elements as strings between SEP;
 * NULL elements skipped, or written as NULL_TEXT when it is given and not
 * NULL.  A NULL or empty array is NULL (Hive's length <= 0), as is a NULL
 * separator. */
HL_FN(hl_fn_array_join) {
  out->is_null = true;
  if (a[0].is_null || a[0].u.list.n == 0 || a[1].is_null) return HL_OK;
  bool rep = call->n_args > 2 && !a[2].is_null;
  const hl_type_t *et = call->args[0]->type->children[0], *str = hl_type_prim(HL_T_STRING);
  hl_buf_t b;
  hl_buf_init(&b);
  bool first = true;
  hl_status_t rc = HL_OK;
  for (uint32_t i = 0; rc == HL_OK && i < a[0].u.list.n; i++) {
    const hl_value_t *x = &a[0].u.list.items[i];
    hl_value_t s;
    if (!x->is_null && (rc = hl_value_cast(et, x, str, &s, arena, err)) != HL_OK) break;
    if (x->is_null || s.is_null) {
      if (!rep) continue;
      s = a[2];
    }
    if (!first) hl_buf_append(&b, a[1].u.s.ptr, a[1].u.s.len);
    first = false;
    hl_buf_append(&b, s.u.s.ptr, s.u.s.len);
  }
  if (rc == HL_OK && b.oom) rc = hl_err_nomem(err);
  char *p = rc == HL_OK ? hl_fn_alloc_str(out, arena, b.len) : NULL;
  if (rc == HL_OK && !p) rc = hl_err_nomem(err);
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return rc;
}

/* Whether element X of ET equals V of VT (the type the binder chose for
 * the two: the element type, or a wider number). */
static hl_status_t elem_equals(const hl_type_t *et, const hl_value_t *x, const hl_type_t *vt,
                               const hl_value_t *v, bool *eq, hl_arena_t *arena, hl_error_t *err) {
  *eq = false;
  if (x->is_null) return HL_OK;
  hl_value_t y;
  if (!hl_type_equal(et, vt)) {
    hl_status_t rc = hl_value_cast(et, x, vt, &y, arena, err);
    if (rc != HL_OK) return rc;
    if (y.is_null) return HL_OK;
    x = &y;
  }
  *eq = hl_fn_cmp_value(vt, x, v) == 0;
  return HL_OK;
}

/* array_position(a, v): 1-based index of the first element equal to V, 0
 * when none is; NULL for a NULL array or value. */
HL_FN(hl_fn_array_position) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  const hl_type_t *et = call->args[0]->type->children[0], *vt = call->args[1]->type;
  out->is_null = false;
  out->u.i = 0;
  for (uint32_t i = 0; i < a[0].u.list.n; i++) {
    bool eq;
    hl_status_t rc = elem_equals(et, &a[0].u.list.items[i], vt, &a[1], &eq, arena, err);
    if (rc != HL_OK) return rc;
    if (eq) {
      out->u.i = (int64_t)i + 1;
      break;
    }
  }
  return HL_OK;
}

/* array_remove(a, v): A without the elements equal to V (NULL elements
 * stay); an empty array stays empty, a NULL array or value is NULL. */
HL_FN(hl_fn_array_remove) {
  out->is_null = true;
  if (a[0].is_null) return HL_OK;
  const hl_type_t *et = call->type->children[0], *vt = call->args[1]->type;
  if (a[1].is_null && a[0].u.list.n > 0) return HL_OK;
  abuild_t b;
  if (!abuild_init(&b, arena, a[0].u.list.n)) return hl_err_nomem(err);
  for (uint32_t i = 0; i < a[0].u.list.n; i++) {
    bool eq;
    hl_status_t rc = elem_equals(et, &a[0].u.list.items[i], vt, &a[1], &eq, arena, err);
    if (rc == HL_OK && !eq) rc = abuild_push(&b, arena, et, &a[0].u.list.items[i], err);
    if (rc != HL_OK) return rc;
  }
  abuild_done(&b, out);
  return HL_OK;
}

/* array_slice(a, start, length): the LENGTH elements from the 0-based
 * START; empty when they run past the end (Hive).  A negative start or
 * length is an error, where Java's subList throws. */
HL_FN(hl_fn_array_slice) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null || a[2].is_null) return HL_OK;
  int64_t start = a[1].u.i, len = a[2].u.i, n = a[0].u.list.n;
  if (n > 0 && (start < 0 || len < 0))
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "array_slice start (%lld) and length (%lld) must not be negative",
                         (long long)start, (long long)len);
  const hl_type_t *et = call->type->children[0];
  abuild_t b;
  if (!abuild_init(&b, arena, n > 0 && start + len <= n ? (size_t)len : 0))
    return hl_err_nomem(err);
  for (int64_t i = start; n > 0 && start + len <= n && i < start + len; i++) {
    hl_status_t rc = abuild_push(&b, arena, et, &a[0].u.list.items[i], err);
    if (rc != HL_OK) return rc;
  }
  abuild_done(&b, out);
  return HL_OK;
}

/* array_union(a, b): the distinct values of A then B's that A lacks. */
HL_FN(hl_fn_array_union) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  const hl_type_t *et = call->type->children[0];
  size_t na = a[0].u.list.n, nb = a[1].u.list.n;
  hl_value_t both;
  both.is_null = false;
  both.u.list.n = (uint32_t)(na + nb);
  if (na + nb > UINT32_MAX ||
      !(both.u.list.items = hl_arena_alloc(arena, sizeof(hl_value_t) * (na + nb ? na + nb : 1))))
    return hl_err_nomem(err);
  if (na) memcpy(both.u.list.items, a[0].u.list.items, sizeof(hl_value_t) * na);
  if (nb) memcpy(both.u.list.items + na, a[1].u.list.items, sizeof(hl_value_t) * nb);
  bool *first = first_of_value(arena, et, &both);
  abuild_t b;
  if (!first || !abuild_init(&b, arena, na + nb)) return hl_err_nomem(err);
  for (size_t i = 0; i < na + nb; i++)
    if (first[i]) {
      hl_status_t rc = abuild_push(&b, arena, et, &both.u.list.items[i], err);
      if (rc != HL_OK) return rc;
    }
  abuild_done(&b, out);
  return HL_OK;
}

/* array_intersect (KEEP true) / array_except (false): the distinct values
 * of A that B holds / lacks, in A's order. */
static hl_status_t set_filter(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                              hl_arena_t *arena, hl_error_t *err, bool keep) {
  out->is_null = true;
  if (a[0].is_null || a[1].is_null) return HL_OK;
  const hl_type_t *et = call->type->children[0];
  actx_t cb = {et, a[1].u.list.items};
  size_t *idx = sorted_indexes(arena, &cb, a[1].u.list.n);
  bool *first = first_of_value(arena, et, &a[0]);
  abuild_t b;
  if (!idx || !first || !abuild_init(&b, arena, a[0].u.list.n)) return hl_err_nomem(err);
  for (uint32_t i = 0; i < a[0].u.list.n; i++) {
    const hl_value_t *x = &a[0].u.list.items[i];
    if (!first[i] || member(&cb, idx, a[1].u.list.n, x) != keep) continue;
    hl_status_t rc = abuild_push(&b, arena, et, x, err);
    if (rc != HL_OK) return rc;
  }
  abuild_done(&b, out);
  return HL_OK;
}

HL_FN(hl_fn_array_intersect) {
  return set_filter(call, a, out, arena, err, true);
}

HL_FN(hl_fn_array_except) {
  return set_filter(call, a, out, arena, err, false);
}

/* ------------------------------------------------------- sort_array_by */

typedef struct by_ctx {
  const hl_type_t *st; /* the element struct type */
  const hl_value_t *items;
  const int *fields; /* field indexes to compare, in order */
  int n_fields;
  int sign; /* 1 ASC, -1 DESC */
} by_ctx_t;

static int cmp_by(const void *ctx, size_t x, size_t y) {
  const by_ctx_t *c = ctx;
  const hl_value_t *a = &c->items[x], *b = &c->items[y];
  for (int k = 0; k < c->n_fields; k++) {
    int f = c->fields[k];
    hl_value_t null_v;
    memset(&null_v, 0, sizeof null_v);
    null_v.is_null = true;
    /* a NULL element has NULL fields (Hive reads its fields as null) */
    const hl_value_t *fa = a->is_null ? &null_v : &a->u.list.items[f];
    const hl_value_t *fb = b->is_null ? &null_v : &b->u.list.items[f];
    int r = hl_fn_cmp_value(c->st->children[f], fa, fb);
    if (r) return r * c->sign;
  }
  return 0;
}

/* sort_array_by(array<struct>, 'f1', ..., ['ASC'|'DESC']): the elements in
 * the order of the named fields (compared as sort_array compares, NULL
 * lowest), stably; a last argument ASC or DESC (any case, blanks trimmed,
 * not the first name) is the direction.  The binder checked that every
 * name is a constant naming a field. */
HL_FN(hl_fn_sort_array_by) {
  if (a[0].is_null) return out->is_null = true, HL_OK;
  const hl_type_t *at = call->args[0]->type, *st = at->children[0];
  int n_names = call->n_args - 1, sign = 1;
  int *fields = hl_arena_alloc(arena, sizeof(int) * (size_t)(n_names ? n_names : 1));
  if (!fields) return hl_err_nomem(err);
  int nf = 0;
  for (int k = 1; k < call->n_args; k++) {
    int dir = hl_fn_sort_direction(&a[k].u.s);
    if (k > 1 && k == call->n_args - 1 && dir) {
      sign = dir;
      continue;
    }
    int f = hl_fn_struct_field(st, &a[k].u.s);
    if (f < 0)
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "sort_array_by: the struct has no field \"%.*s\"", (int)a[k].u.s.len,
                           a[k].u.s.ptr);
    fields[nf++] = f;
  }
  size_t n = a[0].u.list.n;
  size_t *idx = hl_arena_alloc(arena, sizeof(size_t) * (n ? 2 * n : 1));
  abuild_t b;
  if (!idx || !abuild_init(&b, arena, n)) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  by_ctx_t ctx = {st, a[0].u.list.items, fields, nf, sign};
  hl_sort_indexes(idx, idx + n, n, cmp_by, &ctx);
  for (size_t i = 0; i < n; i++) {
    hl_status_t rc = abuild_push(&b, arena, st, &a[0].u.list.items[idx[i]], err);
    if (rc != HL_OK) return rc;
  }
  abuild_done(&b, out);
  return HL_OK;
}

int hl_fn_sort_direction(const hl_str_t *s) {
  uint32_t lo = 0, hi = s->len;
  while (lo < hi && (s->ptr[lo] == ' ' || s->ptr[lo] == '\t'))
    lo++;
  while (hi > lo && (s->ptr[hi - 1] == ' ' || s->ptr[hi - 1] == '\t'))
    hi--;
  if (hi - lo == 3 && strncasecmp(s->ptr + lo, "ASC", 3) == 0) return 1;
  if (hi - lo == 4 && strncasecmp(s->ptr + lo, "DESC", 4) == 0) return -1;
  return 0;
}

int hl_fn_struct_field(const hl_type_t *st, const hl_str_t *name) {
  for (int f = 0; f < st->n_children; f++)
    if (strlen(st->field_names[f]) == name->len &&
        strncasecmp(st->field_names[f], name->ptr, name->len) == 0)
      return f;
  return -1;
}
