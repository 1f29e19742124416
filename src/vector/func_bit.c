/*
 * func_bit.c -- the bitwise operators &, |, ^ and ~ (Hive's UDFOPBitAnd,
 * UDFOPBitOr, UDFOPBitXor, UDFOPBitNot).
 *
 * No function name reaches them: plan/bind.c binds the operators to these
 * definitions (as it binds a[i] to hl_func_subscript), with both operands
 * cast to their common integer type, which is also the result's type, as
 * Hive's method resolution picks the narrowest of its tinyint, smallint,
 * int and bigint overloads that takes both.  Every integer type is held
 * in u.i, and &, |, ^ and ~ of values in a type's range stay in it, so no
 * narrowing is needed.
 */
#include "vector/func_int.h"

static hl_status_t fn_bitand(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  if (a[0].is_null || a[1].is_null)
    out->is_null = true;
  else
    out->u.i = a[0].u.i & a[1].u.i;
  return HL_OK;
}

static hl_status_t fn_bitor(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  if (a[0].is_null || a[1].is_null)
    out->is_null = true;
  else
    out->u.i = a[0].u.i | a[1].u.i;
  return HL_OK;
}

static hl_status_t fn_bitxor(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  if (a[0].is_null || a[1].is_null)
    out->is_null = true;
  else
    out->u.i = a[0].u.i ^ a[1].u.i;
  return HL_OK;
}

static hl_status_t fn_bitnot(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  if (a[0].is_null)
    out->is_null = true;
  else
    out->u.i = ~a[0].u.i;
  return HL_OK;
}

const hl_func_def_t hl_func_bitand = {"&", 2, 2, fn_bitand, NULL};
const hl_func_def_t hl_func_bitor = {"|", 2, 2, fn_bitor, NULL};
const hl_func_def_t hl_func_bitxor = {"^", 2, 2, fn_bitxor, NULL};
const hl_func_def_t hl_func_bitnot = {"~", 1, 1, fn_bitnot, NULL};
