/*
 * expr_print.c -- readable text of bound expressions, for EXPLAIN.
 */
#include "vector/expr.h"

static const char *op_text(hl_expr_op_t op) {
  static const char *const ops[] = {"=", "<>", "<", "<=", ">",   ">=", "<=>",
                                    "+", "-",  "*", "/",  "DIV", "%"};
  return ops[op];
}

static void print_value(hl_buf_t *buf, const hl_expr_t *e) {
  if (e->value.is_null) {
    hl_buf_puts(buf, "NULL");
    return;
  }
  bool quote = hl_type_is_string(e->type) || e->type->id == HL_T_DATE ||
               e->type->id == HL_T_TIMESTAMP || e->type->id == HL_T_BINARY ||
               hl_type_is_interval(e->type);
  if (e->type->id == HL_T_DATE) hl_buf_puts(buf, "DATE ");
  if (e->type->id == HL_T_TIMESTAMP) hl_buf_puts(buf, "TIMESTAMP ");
  if (hl_type_is_interval(e->type)) hl_buf_puts(buf, "INTERVAL ");
  if (quote) hl_buf_putc(buf, '\'');
  hl_buf_t v;
  hl_buf_init(&v);
  hl_value_format(&v, e->type, &e->value);
  const char *s = hl_buf_cstr(&v);
  for (size_t i = 0; i < v.len; i++) {
    if (quote && s[i] == '\'') hl_buf_putc(buf, '\\');
    hl_buf_putc(buf, s[i]);
  }
  hl_buf_fini(&v);
  if (quote) hl_buf_putc(buf, '\'');
  if (e->type->id == HL_T_INTERVAL_YM) hl_buf_puts(buf, " YEAR TO MONTH");
  if (e->type->id == HL_T_INTERVAL_DT) hl_buf_puts(buf, " DAY TO SECOND");
}

void hl_expr_print(hl_buf_t *buf, const hl_expr_t *e) {
  switch (e->kind) {
  case HL_EX_CONST:
    print_value(buf, e);
    return;
  case HL_EX_COLUMN:
    hl_buf_puts(buf, e->col_name ? e->col_name : "?");
    return;
  case HL_EX_CAST: {
    hl_buf_puts(buf, "CAST(");
    hl_expr_print(buf, e->args[0]);
    hl_buf_puts(buf, " AS ");
    /* type names print in Hive's lower-case spelling */
    const char *name = hl_type_id_name(e->type->id);
    if (e->type->id == HL_T_DECIMAL)
      hl_buf_printf(buf, "DECIMAL(%d,%d)", e->type->precision, e->type->scale);
    else if (e->type->id == HL_T_VARCHAR || e->type->id == HL_T_CHAR)
      hl_buf_printf(buf, "%s(%d)", name, e->type->length);
    else
      hl_buf_puts(buf, name);
    hl_buf_putc(buf, ')');
    return;
  }
  case HL_EX_CMP:
  case HL_EX_ARITH:
    hl_buf_putc(buf, '(');
    hl_expr_print(buf, e->args[0]);
    hl_buf_printf(buf, " %s ", op_text(e->op));
    hl_expr_print(buf, e->args[1]);
    hl_buf_putc(buf, ')');
    return;
  case HL_EX_NEG:
    hl_buf_puts(buf, "-");
    hl_expr_print(buf, e->args[0]);
    return;
  case HL_EX_AND:
  case HL_EX_OR:
    hl_buf_putc(buf, '(');
    for (int k = 0; k < e->n_args; k++) {
      if (k) hl_buf_puts(buf, e->kind == HL_EX_AND ? " AND " : " OR ");
      hl_expr_print(buf, e->args[k]);
    }
    hl_buf_putc(buf, ')');
    return;
  case HL_EX_NOT:
    hl_buf_puts(buf, "NOT ");
    hl_expr_print(buf, e->args[0]);
    return;
  case HL_EX_IS_NULL:
    hl_buf_putc(buf, '(');
    hl_expr_print(buf, e->args[0]);
    hl_buf_puts(buf, e->negated ? " IS NOT NULL)" : " IS NULL)");
    return;
  case HL_EX_IN:
    hl_buf_putc(buf, '(');
    hl_expr_print(buf, e->args[0]);
    hl_buf_puts(buf, e->negated ? " NOT IN (" : " IN (");
    for (int k = 1; k < e->n_args; k++) {
      if (k > 1) hl_buf_puts(buf, ", ");
      hl_expr_print(buf, e->args[k]);
    }
    hl_buf_puts(buf, "))");
    return;
  case HL_EX_LIKE:
    hl_buf_putc(buf, '(');
    hl_expr_print(buf, e->args[0]);
    hl_buf_puts(buf, e->negated ? " NOT" : "");
    hl_buf_puts(buf, e->rlike ? " RLIKE " : " LIKE ");
    hl_expr_print(buf, e->args[1]);
    hl_buf_putc(buf, ')');
    return;
  case HL_EX_CASE: {
    hl_buf_puts(buf, "CASE");
    int n_when = (e->n_args - (e->has_else ? 1 : 0)) / 2;
    for (int k = 0; k < n_when; k++) {
      hl_buf_puts(buf, " WHEN ");
      hl_expr_print(buf, e->args[2 * k]);
      hl_buf_puts(buf, " THEN ");
      hl_expr_print(buf, e->args[2 * k + 1]);
    }
    if (e->has_else) {
      hl_buf_puts(buf, " ELSE ");
      hl_expr_print(buf, e->args[e->n_args - 1]);
    }
    hl_buf_puts(buf, " END");
    return;
  }
  case HL_EX_SUBQUERY:
    hl_buf_puts(buf, e->sub_kind == HL_SUB_EXISTS ? "EXISTS(subquery)" : "(subquery)");
    if (e->sub_kind == HL_SUB_IN) {
      hl_buf_t inner;
      hl_buf_init(&inner);
      hl_expr_print(&inner, e->args[0]);
      hl_buf_printf(buf, " <- %s%s IN", hl_buf_cstr(&inner), e->negated ? " NOT" : "");
      hl_buf_fini(&inner);
    }
    return;
  case HL_EX_IN_SET:
    hl_buf_putc(buf, '(');
    hl_expr_print(buf, e->args[0]);
    hl_buf_printf(buf, "%s IN (subquery))", e->negated ? " NOT" : "");
    return;
  case HL_EX_FUNC:
    if (e->fn == &hl_func_cast_format) { /* typed by its target (DATE, TIMESTAMP or STRING) */
      hl_buf_puts(buf, "CAST(");
      hl_expr_print(buf, e->args[0]);
      hl_buf_printf(buf, " AS %s FORMAT ", hl_type_id_name(e->type->id));
      hl_expr_print(buf, e->args[1]);
      hl_buf_putc(buf, ')');
      return;
    }
    if (e->fn == &hl_func_subscript) {
      hl_expr_print(buf, e->args[0]);
      hl_buf_putc(buf, '[');
      hl_expr_print(buf, e->args[1]);
      hl_buf_putc(buf, ']');
      return;
    }
    if (e->fn == &hl_func_field || e->fn == &hl_func_elems_field) {
      const hl_type_t *st = e->args[0]->type;
      if (e->fn == &hl_func_elems_field) st = st->children[0];
      int64_t k = e->args[1]->value.u.i;
      hl_expr_print(buf, e->args[0]);
      hl_buf_printf(buf, ".%s", k >= 0 && k < st->n_children ? st->field_names[k] : "?");
      return;
    }
    if (e->fn == &hl_func_iv_neg) {
      hl_buf_puts(buf, "(- ");
      hl_expr_print(buf, e->args[0]);
      hl_buf_putc(buf, ')');
      return;
    }
    if (hl_func_is_interval_op(e->fn)) {
      /* the date or timestamp is args[0] (interval + date is bound as
       * date + interval: the sum commutes) */
      hl_buf_putc(buf, '(');
      hl_expr_print(buf, e->args[0]);
      hl_buf_printf(buf, " %s ", e->fn->name);
      hl_expr_print(buf, e->args[1]);
      hl_buf_putc(buf, ')');
      return;
    }
    if (e->fn == &hl_func_bitnot) {
      hl_buf_putc(buf, '~');
      hl_expr_print(buf, e->args[0]);
      return;
    }
    if (e->fn == &hl_func_bitand || e->fn == &hl_func_bitor || e->fn == &hl_func_bitxor) {
      hl_buf_putc(buf, '(');
      hl_expr_print(buf, e->args[0]);
      hl_buf_printf(buf, " %s ", e->fn->name);
      hl_expr_print(buf, e->args[1]);
      hl_buf_putc(buf, ')');
      return;
    }
    hl_buf_printf(buf, "%s(", e->fn->name);
    for (int k = 0; k < e->n_args; k++) {
      if (k) hl_buf_puts(buf, ", ");
      hl_expr_print(buf, e->args[k]);
    }
    hl_buf_putc(buf, ')');
    return;
  }
}
