/*
 * func_likeany.c -- likeany(x, p1, ...) and likeall(x, p1, ...) (Hive's
 * GenericUDFLikeAny / GenericUDFLikeAll), which x LIKE ANY (p1, ...) and
 * x LIKE ALL (...) parse into (sql/parser.c).
 *
 * Each pattern is matched as LIKE matches (hl_expr_like_match, expr.c).
 * Hive returns NULL when x or any pattern is NULL -- even when another
 * pattern already decides the answer -- so the NULL test comes first.
 * plan/bind.c admits only string and NULL arguments, as Hive does.
 */
#include "vector/func_int.h"

static hl_status_t like_some(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             bool all) {
  for (int k = 0; k < call->n_args; k++)
    if (a[k].is_null) {
      out->is_null = true;
      return HL_OK;
    }
  bool res = all;
  for (int k = 1; k < call->n_args && res == all; k++)
    res = hl_expr_like_match(a[0].u.s.ptr, a[0].u.s.len, a[k].u.s.ptr, a[k].u.s.len);
  out->u.b = res;
  return HL_OK;
}

HL_FN(hl_fn_likeany) {
  return like_some(call, a, out, false);
}

HL_FN(hl_fn_likeall) {
  return like_some(call, a, out, true);
}
