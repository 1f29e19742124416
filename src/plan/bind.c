/*
 * bind.c -- the SELECT binder: names to columns, types, implicit casts,
 * aggregates, ORDER BY, and the split of WHERE into partition predicates
 * and a residual filter (see plan.h).
 *
 * Type rules follow Hive: integers widen, integers meet decimals as
 * decimals, anything meets FLOAT/DOUBLE as a floating type, strings meet
 * numbers as DOUBLE and dates/timestamps as those types; `/` of integers is
 * DOUBLE; decimal results use Hive's precision/scale rules capped at 38.
 */
#include "plan/plan.h"

#include "util/mem.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct binder {
  hl_session_t *s;
  hl_arena_t *arena;
  hl_error_t *err;
  hl_table_t *table;   /* NULL without FROM */
  const char *alias;   /* table alias or table name */
  /* aggregation context (NULL when binding outside a select list) */
  bool agg_allowed;
  hl_plan_t *plan;
  int agg_cap;
  int group_cap;
} binder_t;

static hl_expr_t *bind_expr(binder_t *b, const hl_ast_expr_t *a);

static hl_expr_t *new_expr(binder_t *b, hl_expr_kind_t kind, const hl_type_t *type, long pos) {
  hl_expr_t *e = hl_arena_zalloc(b->arena, sizeof(*e));
  if (!e) {
    hl_err_nomem(b->err);
    return NULL;
  }
  e->kind = kind;
  e->type = type;
  e->pos = pos;
  return e;
}

static bool set_args(binder_t *b, hl_expr_t *e, int n) {
  e->n_args = n;
  e->args = hl_arena_zalloc(b->arena, sizeof(hl_expr_t *) * (size_t)(n ? n : 1));
  if (!e->args) hl_err_nomem(b->err);
  return e->args != NULL;
}

static const char *type_name(binder_t *b, const hl_type_t *t) {
  char *s = hl_type_to_string(b->arena, t);
  return s ? s : "?";
}

/* ---------------------------------------------------------------- types */

static int int_digits(hl_type_id_t id) {
  switch (id) {
  case HL_T_TINYINT: return 3;
  case HL_T_SMALLINT: return 5;
  case HL_T_INT: return 10;
  default: return 19;
  }
}

static const hl_type_t *as_decimal(binder_t *b, const hl_type_t *t) {
  if (t->id == HL_T_DECIMAL) return t;
  return hl_type_decimal(b->arena, int_digits(t->id), 0);
}

/* Hive's rule for decimal results wider than 38 digits: keep the integer
 * digits and cut the scale, but not below 6. */
static const hl_type_t *decimal_result(binder_t *b, int precision, int scale) {
  if (precision > 38) {
    int int_dig = precision - scale;
    int min_scale = scale < 6 ? scale : 6;
    scale = 38 - int_dig > min_scale ? 38 - int_dig : min_scale;
    precision = 38;
  }
  if (scale > precision) scale = precision;
  return hl_type_decimal(b->arena, precision, scale);
}

/* The common type of A and B for comparison and union, or NULL (error set)
 * when they do not meet. */
static const hl_type_t *common_type(binder_t *b, const hl_type_t *x, const hl_type_t *y,
                                    long pos) {
  if (x->id == HL_T_NULL) return y;
  if (y->id == HL_T_NULL) return x;
  if (hl_type_equal(x, y)) return x;
  if (hl_type_is_string(x) && hl_type_is_string(y)) return hl_type_prim(HL_T_STRING);
  if (hl_type_is_numeric(x) && hl_type_is_numeric(y)) {
    if (hl_type_is_integer(x) && hl_type_is_integer(y)) return x->id > y->id ? x : y;
    if (x->id == HL_T_DOUBLE || y->id == HL_T_DOUBLE) return hl_type_prim(HL_T_DOUBLE);
    if (x->id == HL_T_FLOAT || y->id == HL_T_FLOAT) {
      if (x->id == HL_T_DECIMAL || y->id == HL_T_DECIMAL) return hl_type_prim(HL_T_DOUBLE);
      return hl_type_prim(HL_T_FLOAT);
    }
    const hl_type_t *dx = as_decimal(b, x), *dy = as_decimal(b, y);
    if (!dx || !dy) return NULL;
    int scale = dx->scale > dy->scale ? dx->scale : dy->scale;
    int ix = dx->precision - dx->scale, iy = dy->precision - dy->scale;
    int prec = (ix > iy ? ix : iy) + scale;
    if (prec > 38) prec = 38;
    return hl_type_decimal(b->arena, prec, scale > prec ? prec : scale);
  }
  if ((hl_type_is_string(x) && hl_type_is_numeric(y)) ||
      (hl_type_is_numeric(x) && hl_type_is_string(y)))
    return hl_type_prim(HL_T_DOUBLE);
  if ((hl_type_is_string(x) && y->id == HL_T_DATE) || (x->id == HL_T_DATE && hl_type_is_string(y)))
    return hl_type_prim(HL_T_DATE);
  if ((hl_type_is_string(x) && y->id == HL_T_TIMESTAMP) ||
      (x->id == HL_T_TIMESTAMP && hl_type_is_string(y)) ||
      (x->id == HL_T_DATE && y->id == HL_T_TIMESTAMP) ||
      (x->id == HL_T_TIMESTAMP && y->id == HL_T_DATE))
    return hl_type_prim(HL_T_TIMESTAMP);
  if ((hl_type_is_string(x) && y->id == HL_T_BINARY) || (x->id == HL_T_BINARY && hl_type_is_string(y)))
    return hl_type_prim(HL_T_BINARY);
  hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH), "types %s and %s cannot be compared",
                type_name(b, x), type_name(b, y));
  return NULL;
}

static hl_expr_t *cast_to(binder_t *b, hl_expr_t *e, const hl_type_t *t) {
  if (!e) return NULL;
  if (hl_type_equal(e->type, t)) return e;
  if (e->kind == HL_EX_CONST) {
    /* fold casts of constants so partition pruning and EXPLAIN see values */
    hl_expr_t *c = new_expr(b, HL_EX_CONST, t, e->pos);
    if (!c) return NULL;
    if (hl_value_cast(e->type, &e->value, t, &c->value, b->arena, b->err) != HL_OK) return NULL;
    return c;
  }
  hl_expr_t *c = new_expr(b, HL_EX_CAST, t, e->pos);
  if (!c || !set_args(b, c, 1)) return NULL;
  c->args[0] = e;
  return c;
}

/* ------------------------------------------------------------- literals */

static hl_expr_t *bind_literal(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *e = new_expr(b, HL_EX_CONST, hl_type_prim(HL_T_NULL), a->pos);
  if (!e) return NULL;
  hl_error_t verr;
  hl_err_init(&verr);
  const hl_type_t *t = NULL;
  switch (a->lit_type) {
  case HL_LIT_NULL: e->value.is_null = true; return e;
  case HL_LIT_BOOL:
    e->type = hl_type_prim(HL_T_BOOLEAN);
    e->value.u.b = a->text[0] == 't' || a->text[0] == 'T';
    return e;
  case HL_LIT_INTEGER: {
    errno = 0;
    char *end;
    long long v = strtoll(a->text, &end, 10);
    if (errno == 0 && *end == '\0') {
      e->type = hl_type_prim(v >= INT32_MIN && v <= INT32_MAX ? HL_T_INT : HL_T_BIGINT);
      e->value.u.i = v;
      return e;
    }
    t = hl_type_decimal(b->arena, 38, 0);
    break;
  }
  case HL_LIT_DECIMAL: {
    /* Hive types 1.50 as decimal(3,2) */
    const char *s = a->text;
    int digits = 0, scale = 0;
    bool after = false;
    for (; *s; s++) {
      if (*s == '.') after = true;
      else if (isdigit((unsigned char)*s)) {
        digits++;
        if (after) scale++;
      }
    }
    if (digits > 38) t = hl_type_prim(HL_T_DOUBLE);
    else t = hl_type_decimal(b->arena, digits < scale ? scale : (digits ? digits : 1), scale);
    break;
  }
  case HL_LIT_DOUBLE: t = hl_type_prim(HL_T_DOUBLE); break;
  case HL_LIT_STRING:
    e->type = hl_type_prim(HL_T_STRING);
    e->value.u.s.ptr = a->text;
    e->value.u.s.len = (uint32_t)a->text_len;
    return e;
  case HL_LIT_DATE: t = hl_type_prim(HL_T_DATE); break;
  case HL_LIT_TIMESTAMP: t = hl_type_prim(HL_T_TIMESTAMP); break;
  case HL_LIT_TYPED_INT:
    if (strcmp(a->lit_suffix, "Y") == 0) t = hl_type_prim(HL_T_TINYINT);
    else if (strcmp(a->lit_suffix, "S") == 0) t = hl_type_prim(HL_T_SMALLINT);
    else if (strcmp(a->lit_suffix, "L") == 0) t = hl_type_prim(HL_T_BIGINT);
    else if (strcmp(a->lit_suffix, "D") == 0) t = hl_type_prim(HL_T_DOUBLE);
    else {
      int digits = 0, scale = 0;
      bool after = false;
      for (const char *s = a->text; *s; s++) {
        if (*s == '.') after = true;
        else if (isdigit((unsigned char)*s)) {
          digits++;
          if (after) scale++;
        }
      }
      t = hl_type_decimal(b->arena, digits > 38 ? 38 : (digits ? digits : 1), scale);
    }
    break;
  }
  if (!t) {
    hl_err_nomem(b->err);
    return NULL;
  }
  e->type = t;
  if (hl_value_from_text(b->arena, t, a->text, a->text_len, &e->value, &verr) != HL_OK) {
    hl_err_set_at(b->err, a->pos, HL_ERROR,
                  verr.code == HL_NOMEM ? "53200"
                  : (t->id == HL_T_DATE || t->id == HL_T_TIMESTAMP) ? HL_SS(INVALID_DATETIME_FORMAT)
                                                                    : verr.sqlstate,
                  "invalid %s literal \"%s\"", hl_type_id_name(t->id), a->text);
    hl_err_clear(&verr);
    return NULL;
  }
  return e;
}

/* -------------------------------------------------------------- columns */

static hl_expr_t *bind_column(binder_t *b, const hl_ast_expr_t *a) {
  if (!b->table)
    return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                         "column \"%s\" does not exist", a->name),
           NULL;
  if (a->qualifier && strcasecmp(a->qualifier, b->alias) != 0 &&
      strcasecmp(a->qualifier, b->table->cat->name) != 0)
    return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_TABLE),
                         "missing FROM-clause entry for table \"%s\"", a->qualifier),
           NULL;
  int idx = hl_table_column_index(b->table, a->name);
  if (idx < 0)
    return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                         "column \"%s\" does not exist in table \"%s.%s\"", a->name,
                         b->table->cat->db_name, b->table->cat->name),
           NULL;
  hl_expr_t *e = new_expr(b, HL_EX_COLUMN, b->table->types[idx], a->pos);
  if (!e) return NULL;
  e->col = idx;
  e->col_name = b->table->names[idx];
  return e;
}

/* ------------------------------------------------------------ operators */

static hl_expr_t *to_bool(binder_t *b, hl_expr_t *e) {
  if (!e) return NULL;
  if (e->type->id == HL_T_BOOLEAN || e->type->id == HL_T_NULL)
    return cast_to(b, e, hl_type_prim(HL_T_BOOLEAN));
  hl_err_set_at(b->err, e->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                "argument of a logical operator must be BOOLEAN, not %s", type_name(b, e->type));
  return NULL;
}

static hl_expr_t *make_cmp(binder_t *b, hl_expr_op_t op, hl_expr_t *x, hl_expr_t *y, long pos) {
  if (!x || !y) return NULL;
  if (hl_type_is_complex(x->type) || hl_type_is_complex(y->type)) {
    hl_err_set_at(b->err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "comparison of %s values is not supported", type_name(b, x->type));
    return NULL;
  }
  const hl_type_t *t = common_type(b, x->type, y->type, pos);
  if (!t) return NULL;
  hl_expr_t *e = new_expr(b, HL_EX_CMP, hl_type_prim(HL_T_BOOLEAN), pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->op = op;
  e->args[0] = cast_to(b, x, t);
  e->args[1] = cast_to(b, y, t);
  return e->args[0] && e->args[1] ? e : NULL;
}

static const hl_type_t *numeric_operand(binder_t *b, const hl_type_t *t, long pos) {
  if (hl_type_is_numeric(t)) return t;
  if (hl_type_is_string(t) || t->id == HL_T_NULL) return hl_type_prim(HL_T_DOUBLE);
  hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                "arithmetic on %s values is not supported", type_name(b, t));
  return NULL;
}

static hl_expr_t *make_arith(binder_t *b, hl_expr_op_t op, hl_expr_t *x, hl_expr_t *y, long pos) {
  if (!x || !y) return NULL;
  const hl_type_t *tx = numeric_operand(b, x->type, x->pos);
  const hl_type_t *ty = tx ? numeric_operand(b, y->type, y->pos) : NULL;
  if (!ty) return NULL;
  const hl_type_t *rt, *ax, *ay;
  bool dec = (tx->id == HL_T_DECIMAL || ty->id == HL_T_DECIMAL) && tx->id != HL_T_DOUBLE &&
             ty->id != HL_T_DOUBLE && tx->id != HL_T_FLOAT && ty->id != HL_T_FLOAT;
  if (op == HL_XOP_IDIV) {
    rt = ax = ay = hl_type_prim(HL_T_BIGINT);
  } else if (dec) {
    const hl_type_t *dx = as_decimal(b, tx), *dy = as_decimal(b, ty);
    if (!dx || !dy) return hl_err_nomem(b->err), NULL;
    int p1 = dx->precision, s1 = dx->scale, p2 = dy->precision, s2 = dy->scale;
    int i1 = p1 - s1, i2 = p2 - s2;
    switch (op) {
    case HL_XOP_ADD:
    case HL_XOP_SUB: {
      int s = s1 > s2 ? s1 : s2;
      rt = decimal_result(b, (i1 > i2 ? i1 : i2) + s + 1, s);
      break;
    }
    case HL_XOP_MUL: rt = decimal_result(b, p1 + p2 + 1, s1 + s2); break;
    case HL_XOP_DIV: {
      int s = s1 + p2 + 1 > 6 ? s1 + p2 + 1 : 6;
      rt = decimal_result(b, i1 + s2 + s, s);
      break;
    }
    default: {
      int s = s1 > s2 ? s1 : s2;
      rt = decimal_result(b, (i1 < i2 ? i1 : i2) + s, s);
      break;
    }
    }
    ax = dx;
    ay = dy;
  } else if (op == HL_XOP_DIV) {
    rt = ax = ay = hl_type_prim(HL_T_DOUBLE);
  } else {
    rt = common_type(b, tx, ty, pos);
    if (!rt) return NULL;
    ax = ay = rt;
  }
  if (!rt) return hl_err_nomem(b->err), NULL;
  hl_expr_t *e = new_expr(b, HL_EX_ARITH, rt, pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->op = op;
  e->args[0] = cast_to(b, x, ax);
  e->args[1] = cast_to(b, y, ay);
  return e->args[0] && e->args[1] ? e : NULL;
}

static hl_expr_t *make_logic(binder_t *b, hl_expr_kind_t kind, hl_expr_t *x, hl_expr_t *y,
                             long pos) {
  x = to_bool(b, x);
  y = x ? to_bool(b, y) : NULL;
  if (!y) return NULL;
  hl_expr_t *e = new_expr(b, kind, hl_type_prim(HL_T_BOOLEAN), pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->args[0] = x;
  e->args[1] = y;
  return e;
}

static hl_expr_t *make_not(binder_t *b, hl_expr_t *x, long pos) {
  x = to_bool(b, x);
  if (!x) return NULL;
  hl_expr_t *e = new_expr(b, HL_EX_NOT, hl_type_prim(HL_T_BOOLEAN), pos);
  if (!e || !set_args(b, e, 1)) return NULL;
  e->args[0] = x;
  return e;
}

static hl_expr_t *bind_binary(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *x = bind_expr(b, a->args[0]);
  hl_expr_t *y = x ? bind_expr(b, a->args[1]) : NULL;
  if (!y) return NULL;
  switch (a->op) {
  case HL_OP_AND: return make_logic(b, HL_EX_AND, x, y, a->pos);
  case HL_OP_OR: return make_logic(b, HL_EX_OR, x, y, a->pos);
  case HL_OP_EQ: return make_cmp(b, HL_XOP_EQ, x, y, a->pos);
  case HL_OP_NE: return make_cmp(b, HL_XOP_NE, x, y, a->pos);
  case HL_OP_LT: return make_cmp(b, HL_XOP_LT, x, y, a->pos);
  case HL_OP_LE: return make_cmp(b, HL_XOP_LE, x, y, a->pos);
  case HL_OP_GT: return make_cmp(b, HL_XOP_GT, x, y, a->pos);
  case HL_OP_GE: return make_cmp(b, HL_XOP_GE, x, y, a->pos);
  case HL_OP_EQ_NS: return make_cmp(b, HL_XOP_EQ_NS, x, y, a->pos);
  case HL_OP_DISTINCT_FROM: {
    hl_expr_t *eq = make_cmp(b, HL_XOP_EQ_NS, x, y, a->pos);
    /* IS DISTINCT FROM = NOT <=>; IS NOT DISTINCT FROM = <=> */
    return a->negated ? eq : make_not(b, eq, a->pos);
  }
  case HL_OP_ADD: return make_arith(b, HL_XOP_ADD, x, y, a->pos);
  case HL_OP_SUB: return make_arith(b, HL_XOP_SUB, x, y, a->pos);
  case HL_OP_MUL: return make_arith(b, HL_XOP_MUL, x, y, a->pos);
  case HL_OP_DIV: return make_arith(b, HL_XOP_DIV, x, y, a->pos);
  case HL_OP_IDIV: return make_arith(b, HL_XOP_IDIV, x, y, a->pos);
  case HL_OP_MOD: return make_arith(b, HL_XOP_MOD, x, y, a->pos);
  case HL_OP_CONCAT: {
    hl_expr_t *e = new_expr(b, HL_EX_FUNC, hl_type_prim(HL_T_STRING), a->pos);
    if (!e || !set_args(b, e, 2)) return NULL;
    e->fn = hl_func_lookup("concat");
    e->args[0] = cast_to(b, x, hl_type_prim(HL_T_STRING));
    e->args[1] = cast_to(b, y, hl_type_prim(HL_T_STRING));
    return e->args[0] && e->args[1] ? e : NULL;
  }
  default:
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "bitwise operators are not supported yet");
    return NULL;
  }
}

static hl_expr_t *bind_unary(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *x = bind_expr(b, a->args[0]);
  if (!x) return NULL;
  switch (a->op) {
  case HL_OP_NOT: return make_not(b, x, a->pos);
  case HL_OP_PLUS: return x;
  case HL_OP_NEG: {
    const hl_type_t *t = numeric_operand(b, x->type, x->pos);
    if (!t) return NULL;
    x = cast_to(b, x, t);
    if (!x) return NULL;
    if (x->kind == HL_EX_CONST) {
      /* fold: -5 stays a literal for pruning and printing */
      hl_expr_t *c = new_expr(b, HL_EX_CONST, t, a->pos);
      if (!c) return NULL;
      c->value = x->value;
      if (!c->value.is_null) {
        if (hl_type_phys(t) == HL_P_I64) c->value.u.i = (int64_t)(0 - (uint64_t)c->value.u.i);
        else if (hl_type_phys(t) == HL_P_F64) c->value.u.d = -c->value.u.d;
        else c->value.u.dec = -c->value.u.dec;
      }
      return c;
    }
    hl_expr_t *e = new_expr(b, HL_EX_NEG, t, a->pos);
    if (!e || !set_args(b, e, 1)) return NULL;
    e->args[0] = x;
    return e;
  }
  default:
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "bitwise operators are not supported yet");
    return NULL;
  }
}

static hl_expr_t *bind_in(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *e = new_expr(b, HL_EX_IN, hl_type_prim(HL_T_BOOLEAN), a->pos);
  if (!e || !set_args(b, e, a->n_args)) return NULL;
  e->negated = a->negated;
  const hl_type_t *t = hl_type_prim(HL_T_NULL);
  for (int k = 0; k < a->n_args; k++) {
    e->args[k] = bind_expr(b, a->args[k]);
    if (!e->args[k]) return NULL;
    t = common_type(b, t, e->args[k]->type, a->args[k]->pos);
    if (!t) return NULL;
  }
  for (int k = 0; k < a->n_args; k++)
    if (!(e->args[k] = cast_to(b, e->args[k], t))) return NULL;
  return e;
}

static void free_regex(void *p) {
  regfree((regex_t *)p);
}

static hl_expr_t *bind_like(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *x = bind_expr(b, a->args[0]);
  hl_expr_t *p = x ? bind_expr(b, a->args[1]) : NULL;
  if (!p) return NULL;
  hl_expr_t *e = new_expr(b, HL_EX_LIKE, hl_type_prim(HL_T_BOOLEAN), a->pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->negated = a->negated;
  e->rlike = a->op == HL_OP_RLIKE;
  e->args[0] = cast_to(b, x, hl_type_prim(HL_T_STRING));
  e->args[1] = cast_to(b, p, hl_type_prim(HL_T_STRING));
  if (!e->args[0] || !e->args[1]) return NULL;
  if (e->rlike && e->args[1]->kind == HL_EX_CONST && !e->args[1]->value.is_null) {
    regex_t *re = hl_arena_alloc(b->arena, sizeof(regex_t));
    if (!re) return hl_err_nomem(b->err), NULL;
    const hl_str_t *pat = &e->args[1]->value.u.s;
    char *z = hl_arena_strndup(b->arena, pat->ptr, pat->len);
    if (!z) return hl_err_nomem(b->err), NULL;
    int rc = regcomp(re, z, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
      char msg[256];
      regerror(rc, re, msg, sizeof msg);
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_REGULAR_EXPRESSION),
                    "invalid regular expression \"%s\": %s", z, msg);
      return NULL;
    }
    if (hl_arena_on_reset(b->arena, free_regex, re) != 0) {
      regfree(re);
      return hl_err_nomem(b->err), NULL;
    }
    e->regex = re;
  }
  return e;
}

static hl_expr_t *bind_case(binder_t *b, const hl_ast_expr_t *a) {
  int first = a->has_operand ? 1 : 0;
  int n_when = (a->n_args - first - (a->has_else ? 1 : 0)) / 2;
  hl_expr_t *operand = a->has_operand ? bind_expr(b, a->args[0]) : NULL;
  if (a->has_operand && !operand) return NULL;
  hl_expr_t *e = new_expr(b, HL_EX_CASE, hl_type_prim(HL_T_NULL), a->pos);
  if (!e || !set_args(b, e, n_when * 2 + (a->has_else ? 1 : 0))) return NULL;
  e->has_else = a->has_else;
  const hl_type_t *t = hl_type_prim(HL_T_NULL);
  for (int k = 0; k < n_when; k++) {
    hl_expr_t *w = bind_expr(b, a->args[first + 2 * k]);
    if (!w) return NULL;
    w = operand ? make_cmp(b, HL_XOP_EQ, operand, w, a->args[first + 2 * k]->pos) : to_bool(b, w);
    hl_expr_t *v = w ? bind_expr(b, a->args[first + 2 * k + 1]) : NULL;
    if (!v) return NULL;
    e->args[2 * k] = w;
    e->args[2 * k + 1] = v;
    if (!(t = common_type(b, t, v->type, v->pos))) return NULL;
  }
  if (a->has_else) {
    hl_expr_t *v = bind_expr(b, a->args[a->n_args - 1]);
    if (!v) return NULL;
    e->args[e->n_args - 1] = v;
    if (!(t = common_type(b, t, v->type, v->pos))) return NULL;
  }
  e->type = t;
  for (int k = 0; k < n_when; k++)
    if (!(e->args[2 * k + 1] = cast_to(b, e->args[2 * k + 1], t))) return NULL;
  if (a->has_else && !(e->args[e->n_args - 1] = cast_to(b, e->args[e->n_args - 1], t)))
    return NULL;
  return e;
}

/* ------------------------------------------------------------ functions */

static bool is_aggregate_name(const char *name) {
  return strcmp(name, "count") == 0 || strcmp(name, "sum") == 0 || strcmp(name, "min") == 0 ||
         strcmp(name, "max") == 0 || strcmp(name, "avg") == 0;
}

static hl_expr_t *bind_aggregate(binder_t *b, const hl_ast_expr_t *a) {
  if (!b->agg_allowed) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(GROUPING_ERROR),
                  "aggregate functions are not allowed here");
    return NULL;
  }
  hl_plan_t *plan = b->plan;
  hl_agg_t agg;
  memset(&agg, 0, sizeof agg);
  agg.distinct = a->distinct;
  agg.name = a->name;
  if (strcmp(a->name, "count") == 0 && a->n_args == 1 && a->args[0]->kind == HL_AST_STAR) {
    agg.kind = HL_AGG_COUNT_STAR;
    agg.type = hl_type_prim(HL_T_BIGINT);
  } else {
    if (a->n_args != 1) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                    "function %s takes exactly one argument", a->name);
      return NULL;
    }
    /* aggregates may not nest */
    b->agg_allowed = false;
    agg.arg = bind_expr(b, a->args[0]);
    b->agg_allowed = true;
    if (!agg.arg) return NULL;
    const hl_type_t *t = agg.arg->type;
    if (strcmp(a->name, "count") == 0) {
      agg.kind = HL_AGG_COUNT;
      agg.type = hl_type_prim(HL_T_BIGINT);
    } else if (strcmp(a->name, "min") == 0 || strcmp(a->name, "max") == 0) {
      agg.kind = a->name[1] == 'i' ? HL_AGG_MIN : HL_AGG_MAX;
      if (hl_type_is_complex(t)) {
        hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "%s of %s values is not supported", a->name, type_name(b, t));
        return NULL;
      }
      agg.type = t->id == HL_T_NULL ? hl_type_prim(HL_T_STRING) : t;
    } else {
      agg.kind = a->name[0] == 's' ? HL_AGG_SUM : HL_AGG_AVG;
      const hl_type_t *nt = numeric_operand(b, t, a->args[0]->pos);
      if (!nt) return NULL;
      if (nt->id == HL_T_DECIMAL) {
        agg.arg = cast_to(b, agg.arg, nt);
        agg.type = agg.kind == HL_AGG_SUM
                       ? decimal_result(b, nt->precision + 10 > 38 ? 38 : nt->precision + 10,
                                        nt->scale)
                       : decimal_result(b, nt->precision + 4 > 38 ? 38 : nt->precision + 4,
                                        nt->scale + 4 > 38 ? 38 : nt->scale + 4);
      } else if (hl_type_is_integer(nt) && agg.kind == HL_AGG_SUM) {
        agg.arg = cast_to(b, agg.arg, hl_type_prim(HL_T_BIGINT));
        agg.type = hl_type_prim(HL_T_BIGINT);
      } else {
        agg.arg = cast_to(b, agg.arg, hl_type_prim(HL_T_DOUBLE));
        agg.type = hl_type_prim(HL_T_DOUBLE);
      }
      if (!agg.arg || !agg.type) return NULL;
    }
  }
  if (plan->n_aggs == b->agg_cap) {
    int cap = b->agg_cap ? b->agg_cap * 2 : 4;
    hl_agg_t *n = hl_arena_realloc(b->arena, plan->aggs, sizeof(hl_agg_t) * (size_t)b->agg_cap,
                                   sizeof(hl_agg_t) * (size_t)cap);
    if (!n) return hl_err_nomem(b->err), NULL;
    plan->aggs = n;
    b->agg_cap = cap;
  }
  plan->aggs[plan->n_aggs] = agg;
  hl_expr_t *ref = new_expr(b, HL_EX_COLUMN, agg.type, a->pos);
  if (!ref) return NULL;
  ref->col = plan->n_group + plan->n_aggs++;
  ref->out_ref = true;
  ref->col_name = hl_arena_sprintf(b->arena, "%s(%s)", a->name,
                                   agg.kind == HL_AGG_COUNT_STAR ? "*" : "...");
  return ref;
}

static hl_expr_t *bind_function(binder_t *b, const hl_ast_expr_t *a) {
  if (is_aggregate_name(a->name)) return bind_aggregate(b, a);
  const hl_func_def_t *fn = hl_func_lookup(a->name);
  if (!fn) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "function %s does not exist", a->name);
    return NULL;
  }
  if (a->n_args < fn->min_args || (fn->max_args >= 0 && a->n_args > fn->max_args)) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "function %s does not take %d arguments", a->name, a->n_args);
    return NULL;
  }
  if (a->distinct) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                  "DISTINCT is only allowed in aggregate functions");
    return NULL;
  }
  hl_expr_t *e = new_expr(b, HL_EX_FUNC, hl_type_prim(HL_T_STRING), a->pos);
  if (!e || !set_args(b, e, a->n_args)) return NULL;
  e->fn = fn;
  for (int k = 0; k < a->n_args; k++) {
    if (a->args[k]->kind == HL_AST_STAR) {
      hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                    "\"*\" is not allowed as an argument of %s", a->name);
      return NULL;
    }
    if (!(e->args[k] = bind_expr(b, a->args[k]))) return NULL;
  }
  const char *n = fn->name;
  const hl_type_t *str = hl_type_prim(HL_T_STRING);
  if (strcmp(n, "if") == 0) {
    if (!(e->args[0] = to_bool(b, e->args[0]))) return NULL;
    const hl_type_t *t = common_type(b, e->args[1]->type, e->args[2]->type, a->pos);
    if (!t) return NULL;
    e->type = t;
    for (int k = 1; k < 3; k++)
      if (!(e->args[k] = cast_to(b, e->args[k], t))) return NULL;
  } else if (strcmp(n, "coalesce") == 0 || strcmp(n, "nvl") == 0 || strcmp(n, "nullif") == 0) {
    const hl_type_t *t = hl_type_prim(HL_T_NULL);
    for (int k = 0; k < e->n_args; k++)
      if (!(t = common_type(b, t, e->args[k]->type, a->args[k]->pos))) return NULL;
    e->type = t;
    for (int k = 0; k < e->n_args; k++)
      if (!(e->args[k] = cast_to(b, e->args[k], t))) return NULL;
  } else if (strcmp(n, "length") == 0) {
    e->type = hl_type_prim(HL_T_INT);
    if (!(e->args[0] = cast_to(b, e->args[0], str))) return NULL;
  } else if (strcmp(n, "substr") == 0 || strcmp(n, "substring") == 0) {
    if (!(e->args[0] = cast_to(b, e->args[0], str))) return NULL;
    for (int k = 1; k < e->n_args; k++) {
      if (!hl_type_is_integer(e->args[k]->type) && e->args[k]->type->id != HL_T_NULL) {
        hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "argument %d of %s must be an integer", k + 1, n);
        return NULL;
      }
      if (!(e->args[k] = cast_to(b, e->args[k], hl_type_prim(HL_T_BIGINT)))) return NULL;
    }
  } else if (strcmp(n, "abs") == 0) {
    const hl_type_t *t = numeric_operand(b, e->args[0]->type, a->args[0]->pos);
    if (!t || !(e->args[0] = cast_to(b, e->args[0], t))) return NULL;
    e->type = t;
  } else {
    /* string -> string functions: concat, upper, lower, trims */
    for (int k = 0; k < e->n_args; k++)
      if (!(e->args[k] = cast_to(b, e->args[k], str))) return NULL;
  }
  return e;
}

/* ------------------------------------------------------------ dispatch */

static hl_expr_t *bind_expr(binder_t *b, const hl_ast_expr_t *a) {
  switch (a->kind) {
  case HL_AST_LITERAL: return bind_literal(b, a);
  case HL_AST_COLUMN: return bind_column(b, a);
  case HL_AST_STAR:
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(SYNTAX_ERROR), "\"*\" is not allowed here");
    return NULL;
  case HL_AST_UNARY: return bind_unary(b, a);
  case HL_AST_BINARY: return bind_binary(b, a);
  case HL_AST_IS_NULL: {
    hl_expr_t *x = bind_expr(b, a->args[0]);
    hl_expr_t *e = x ? new_expr(b, HL_EX_IS_NULL, hl_type_prim(HL_T_BOOLEAN), a->pos) : NULL;
    if (!e || !set_args(b, e, 1)) return NULL;
    e->args[0] = x;
    e->negated = a->negated;
    return e;
  }
  case HL_AST_IN: return bind_in(b, a);
  case HL_AST_BETWEEN: {
    hl_expr_t *x = bind_expr(b, a->args[0]);
    hl_expr_t *lo = x ? bind_expr(b, a->args[1]) : NULL;
    hl_expr_t *hi = lo ? bind_expr(b, a->args[2]) : NULL;
    if (!hi) return NULL;
    hl_expr_t *e = make_logic(b, HL_EX_AND, make_cmp(b, HL_XOP_GE, x, lo, a->pos),
                              make_cmp(b, HL_XOP_LE, x, hi, a->pos), a->pos);
    return a->negated ? make_not(b, e, a->pos) : e;
  }
  case HL_AST_LIKE: return bind_like(b, a);
  case HL_AST_FUNC: return bind_function(b, a);
  case HL_AST_CAST: {
    hl_expr_t *x = bind_expr(b, a->args[0]);
    if (!x) return NULL;
    if (hl_type_is_complex(a->cast_type) != hl_type_is_complex(x->type) &&
        x->type->id != HL_T_NULL) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "cannot cast %s to %s", type_name(b, x->type), type_name(b, a->cast_type));
      return NULL;
    }
    hl_expr_t *e = new_expr(b, HL_EX_CAST, a->cast_type, a->pos);
    if (!e || !set_args(b, e, 1)) return NULL;
    e->args[0] = x;
    if (x->kind == HL_EX_CONST) return cast_to(b, x, a->cast_type);
    return e;
  }
  case HL_AST_CASE: return bind_case(b, a);
  }
  hl_err_set_at(b->err, a->pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown expression");
  return NULL;
}

/* ---------------------------------------------------------- aggregates */

static bool expr_equal(const hl_expr_t *x, const hl_expr_t *y) {
  if (x->kind != y->kind || !hl_type_equal(x->type, y->type) || x->n_args != y->n_args ||
      x->op != y->op || x->negated != y->negated || x->out_ref != y->out_ref)
    return false;
  switch (x->kind) {
  case HL_EX_COLUMN:
    if (x->col != y->col) return false;
    break;
  case HL_EX_CONST:
    if (x->value.is_null != y->value.is_null) return false;
    if (!x->value.is_null && !hl_type_is_complex(x->type) &&
        hl_value_compare(x->type, &x->value, &y->value) != 0)
      return false;
    break;
  case HL_EX_FUNC:
    if (x->fn != y->fn) return false;
    break;
  default: break;
  }
  for (int k = 0; k < x->n_args; k++)
    if (!expr_equal(x->args[k], y->args[k])) return false;
  return true;
}

/* Rewrites E (bound over the scan layout, aggregates already replaced by
 * out_ref columns) to the aggregate layout: subtrees equal to a GROUP BY
 * expression become references to it; other scan columns are errors. */
static hl_expr_t *to_agg_layout(binder_t *b, hl_expr_t *e) {
  if (e->out_ref) return e;
  for (int g = 0; g < b->plan->n_group; g++) {
    if (expr_equal(e, b->plan->group_exprs[g])) {
      hl_expr_t *ref = new_expr(b, HL_EX_COLUMN, e->type, e->pos);
      if (!ref) return NULL;
      ref->col = g;
      ref->out_ref = true;
      ref->col_name = e->kind == HL_EX_COLUMN ? e->col_name : "group";
      return ref;
    }
  }
  if (e->kind == HL_EX_COLUMN) {
    hl_err_set_at(b->err, e->pos, HL_ERROR, HL_SS(GROUPING_ERROR),
                  "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate "
                  "function",
                  e->col_name);
    return NULL;
  }
  hl_expr_t *copy = hl_arena_alloc(b->arena, sizeof(*copy));
  if (!copy) return hl_err_nomem(b->err), NULL;
  *copy = *e;
  if (e->n_args) {
    copy->args = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)e->n_args);
    if (!copy->args) return hl_err_nomem(b->err), NULL;
    for (int k = 0; k < e->n_args; k++)
      if (!(copy->args[k] = to_agg_layout(b, e->args[k]))) return NULL;
  }
  return copy;
}

static void clear_out_ref(hl_expr_t *e) {
  e->out_ref = false;
  for (int k = 0; k < e->n_args; k++) clear_out_ref(e->args[k]);
}

/* ------------------------------------------------------ WHERE splitting */

static int count_conjuncts(const hl_expr_t *e) {
  if (e->kind == HL_EX_AND) {
    int n = 0;
    for (int k = 0; k < e->n_args; k++) n += count_conjuncts(e->args[k]);
    return n;
  }
  return 1;
}

static void collect_conjuncts(hl_expr_t *e, hl_expr_t **out, int *n) {
  if (e->kind == HL_EX_AND) {
    for (int k = 0; k < e->n_args; k++) collect_conjuncts(e->args[k], out, n);
    return;
  }
  out[(*n)++] = e;
}

static bool is_deterministic(const hl_expr_t *e) {
  /* every function here is deterministic; rand() will change that */
  (void)e;
  return true;
}

/* Evaluates the partition predicates over the table's partitions in batches
 * of HL_BATCH_CAP and keeps the matching ones. */
static hl_status_t prune_partitions(binder_t *b, hl_plan_scan_t *scan) {
  hl_table_t *t = scan->table;
  hl_cat_partition_t *all;
  size_t n_all;
  hl_status_t rc = hl_cat_partition_list(b->s->cat, t->cat->id, b->arena, &all, &n_all, b->err);
  if (rc != HL_OK) return rc;
  scan->n_parts_total = n_all;
  if (scan->n_part_preds == 0) {
    scan->parts = all;
    scan->n_parts = n_all;
    return HL_OK;
  }
  hl_cat_partition_t *keep = hl_arena_alloc(b->arena, sizeof(*keep) * (n_all ? n_all : 1));
  const hl_type_t **types = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)t->n_all);
  if (!keep || !types) return hl_err_nomem(b->err);
  for (int c = 0; c < t->n_all; c++)
    types[c] = c < t->n_data ? hl_type_prim(HL_T_NULL) : t->types[c];
  hl_batch_t *batch = hl_batch_create(t->n_all, types);
  if (!batch) return hl_err_nomem(b->err);
  size_t n_keep = 0;
  for (size_t start = 0; start < n_all && rc == HL_OK; start += HL_BATCH_CAP) {
    size_t n = n_all - start < HL_BATCH_CAP ? n_all - start : HL_BATCH_CAP;
    if (hl_batch_reset(batch) != HL_OK) {
      rc = hl_err_nomem(b->err);
      break;
    }
    for (size_t i = 0; i < n && rc == HL_OK; i++) {
      hl_cat_partition_t *p = &all[start + i];
      for (int k = 0; k < t->n_part && rc == HL_OK; k++) {
        hl_value_t v;
        rc = hl_table_part_value(t, k, p->values[k], batch->arena, &v, b->err);
        if (rc == HL_OK && hl_vec_put_value(&batch->cols[t->n_data + k], batch->arena,
                                            (uint32_t)i, &v) != HL_OK)
          rc = hl_err_nomem(b->err);
      }
    }
    batch->n_rows = (uint32_t)n;
    for (int k = 0; k < scan->n_part_preds && rc == HL_OK; k++)
      rc = hl_expr_filter(scan->part_preds[k], batch, batch->arena, b->err);
    if (rc != HL_OK) break;
    for (uint32_t i = 0; i < hl_batch_live(batch); i++) keep[n_keep++] = all[start + hl_batch_row(batch, i)];
  }
  hl_batch_destroy(batch);
  if (rc != HL_OK) return rc;
  scan->parts = keep;
  scan->n_parts = n_keep;
  return HL_OK;
}

static void mark_needed(const hl_expr_t *e, bool *needed) {
  if (e->kind == HL_EX_COLUMN && !e->out_ref) needed[e->col] = true;
  for (int k = 0; k < e->n_args; k++) mark_needed(e->args[k], needed);
}

/* ------------------------------------------------------------- SELECT */

static hl_status_t add_output(binder_t *b, hl_plan_t *plan, int *cap, hl_expr_t *e,
                              const char *name) {
  if (plan->n_out == *cap) {
    int ncap = *cap ? *cap * 2 : 8;
    hl_expr_t **ne = hl_arena_realloc(b->arena, plan->out_exprs, sizeof(hl_expr_t *) * (size_t)*cap,
                                      sizeof(hl_expr_t *) * (size_t)ncap);
    char **nn = ne ? hl_arena_realloc(b->arena, plan->out_names, sizeof(char *) * (size_t)*cap,
                                      sizeof(char *) * (size_t)ncap)
                   : NULL;
    if (!nn) return hl_err_nomem(b->err);
    plan->out_exprs = ne;
    plan->out_names = nn;
    *cap = ncap;
  }
  plan->out_exprs[plan->n_out] = e;
  plan->out_names[plan->n_out] = (char *)name;
  plan->n_out++;
  return HL_OK;
}

static const char *scan_format(binder_t *b, const hl_cat_table_t *t, long pos) {
  const char *in = t->input_format ? t->input_format : "";
  const char *serde = t->serde_lib ? t->serde_lib : "";
  if (strstr(in, "TextInputFormat")) {
    if (strstr(serde, "JsonSerDe")) return "json";
    if (strstr(serde, "OpenCSVSerde")) return "csv";
    return "text";
  }
  const char *what = strstr(in, "Parquet")    ? "PARQUET"
                     : strstr(in, "Orc")      ? "ORC"
                     : strstr(in, "Avro")     ? "AVRO"
                     : strstr(in, "Sequence") ? "SEQUENCEFILE"
                     : strstr(in, "RCFile")   ? "RCFILE"
                                              : in;
  hl_err_set_at(b->err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                "reading %s tables is not supported yet (table \"%s.%s\")", what, t->db_name,
                t->name);
  return NULL;
}

hl_status_t hl_plan_select(hl_session_t *s, const hl_ast_select_t *sel, hl_arena_t *arena,
                           hl_plan_t **out, hl_error_t *err) {
  binder_t bb = {.s = s, .arena = arena, .err = err};
  binder_t *b = &bb;
  hl_plan_t *plan = hl_arena_zalloc(arena, sizeof(*plan));
  if (!plan) return hl_err_nomem(err);
  b->plan = plan;
  hl_status_t rc;

  /* FROM */
  if (sel->from) {
    rc = hl_table_load(s, &sel->from->table, arena, &b->table, err);
    if (rc != HL_OK) return rc;
    b->alias = sel->from->alias ? sel->from->alias : b->table->cat->name;
    plan->scan = hl_arena_zalloc(arena, sizeof(*plan->scan));
    if (!plan->scan) return hl_err_nomem(err);
    plan->scan->table = b->table;
    plan->scan->needed = hl_arena_zalloc(arena, sizeof(bool) * (size_t)(b->table->n_all + 1));
    if (!plan->scan->needed) return hl_err_nomem(err);
    plan->scan->format_name = scan_format(b, b->table->cat, sel->from->pos);
    if (!plan->scan->format_name) return err->code;
  }

  /* WHERE */
  hl_expr_t *where = NULL;
  if (sel->where) {
    where = bind_expr(b, sel->where);
    if (!where) return err->code;
    if (!(where = to_bool(b, where))) return err->code;
  }

  /* GROUP BY (before the select list, so aggregates know their offset) */
  plan->aggregate = sel->n_group_by > 0 || sel->distinct;
  if (sel->n_group_by) {
    plan->group_exprs = hl_arena_alloc(arena, sizeof(hl_expr_t *) * (size_t)sel->n_group_by);
    if (!plan->group_exprs) return hl_err_nomem(err);
    for (int g = 0; g < sel->n_group_by; g++) {
      const hl_ast_expr_t *ga = sel->group_by[g];
      hl_expr_t *ge = NULL;
      if (ga->kind == HL_AST_LITERAL && ga->lit_type == HL_LIT_INTEGER) {
        /* GROUP BY 2: the second select item */
        long ord = strtol(ga->text, NULL, 10);
        if (ord < 1 || ord > sel->n_items || sel->items[ord - 1].expr->kind == HL_AST_STAR)
          return hl_err_set_at(err, ga->pos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                               "GROUP BY position %ld is not in the select list", ord);
        ge = bind_expr(b, sel->items[ord - 1].expr);
      } else {
        ge = bind_expr(b, ga);
      }
      if (!ge) return err->code;
      plan->group_exprs[plan->n_group++] = ge;
    }
  }

  /* select list */
  int out_cap = 0;
  b->agg_allowed = true;
  for (int i = 0; i < sel->n_items; i++) {
    const hl_ast_select_item_t *it = &sel->items[i];
    if (it->expr->kind == HL_AST_STAR) {
      if (!b->table)
        return hl_err_set_at(err, it->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "SELECT * with no tables specified is not valid");
      if (it->expr->qualifier && strcasecmp(it->expr->qualifier, b->alias) != 0 &&
          strcasecmp(it->expr->qualifier, b->table->cat->name) != 0)
        return hl_err_set_at(err, it->pos, HL_ERROR, HL_SS(UNDEFINED_TABLE),
                             "missing FROM-clause entry for table \"%s\"", it->expr->qualifier);
      for (int c = 0; c < b->table->n_all; c++) {
        hl_expr_t *e = new_expr(b, HL_EX_COLUMN, b->table->types[c], it->pos);
        if (!e) return err->code;
        e->col = c;
        e->col_name = b->table->names[c];
        if ((rc = add_output(b, plan, &out_cap, e, b->table->names[c])) != HL_OK) return rc;
      }
      continue;
    }
    hl_expr_t *e = bind_expr(b, it->expr);
    if (!e) return err->code;
    const char *name = it->alias;
    if (!name) {
      if (it->expr->kind == HL_AST_COLUMN) name = it->expr->name;
      else name = hl_arena_sprintf(arena, "_c%d", i); /* Hive's generated names */
      if (!name) return hl_err_nomem(err);
    }
    if ((rc = add_output(b, plan, &out_cap, e, name)) != HL_OK) return rc;
  }
  plan->n_visible = plan->n_out;
  if (plan->n_aggs > 0) plan->aggregate = true;

  /* HAVING */
  if (sel->having) {
    if (!plan->aggregate && plan->n_aggs == 0) plan->aggregate = true;
    hl_expr_t *h = bind_expr(b, sel->having);
    if (!h || !(h = to_bool(b, h))) return err->code;
    plan->having = h;
  }
  b->agg_allowed = false;

  /* DISTINCT: group by every output column */
  if (sel->distinct && sel->n_group_by == 0 && plan->n_aggs == 0) {
    plan->group_exprs = hl_arena_alloc(arena, sizeof(hl_expr_t *) * (size_t)(plan->n_out + 1));
    if (!plan->group_exprs) return hl_err_nomem(err);
    for (int i = 0; i < plan->n_out; i++) plan->group_exprs[plan->n_group++] = plan->out_exprs[i];
  } else if (sel->distinct) {
    return hl_err_set_at(err, sel->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "SELECT DISTINCT with GROUP BY or aggregates is not supported yet");
  }

  /* ORDER BY: output aliases, ordinals, else expressions added as hidden
   * output columns */
  if (sel->n_order_by) {
    plan->order_cols = hl_arena_alloc(arena, sizeof(int) * (size_t)sel->n_order_by);
    plan->order_desc = hl_arena_alloc(arena, sizeof(bool) * (size_t)sel->n_order_by);
    plan->order_nulls_first = hl_arena_alloc(arena, sizeof(bool) * (size_t)sel->n_order_by);
    if (!plan->order_cols || !plan->order_desc || !plan->order_nulls_first)
      return hl_err_nomem(err);
    for (int k = 0; k < sel->n_order_by; k++) {
      const hl_ast_order_item_t *o = &sel->order_by[k];
      int col = -1;
      if (o->expr->kind == HL_AST_COLUMN && !o->expr->qualifier) {
        for (int i = 0; i < plan->n_visible && col < 0; i++)
          if (strcasecmp(plan->out_names[i], o->expr->name) == 0) col = i;
      } else if (o->expr->kind == HL_AST_LITERAL && o->expr->lit_type == HL_LIT_INTEGER) {
        long ord = strtol(o->expr->text, NULL, 10);
        if (ord < 1 || ord > plan->n_visible)
          return hl_err_set_at(err, o->expr->pos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                               "ORDER BY position %ld is not in the select list", ord);
        col = (int)ord - 1;
      }
      if (col < 0) {
        b->agg_allowed = plan->aggregate;
        hl_expr_t *e = bind_expr(b, o->expr);
        b->agg_allowed = false;
        if (!e) return err->code;
        for (int i = 0; i < plan->n_out && col < 0; i++)
          if (expr_equal(plan->out_exprs[i], e)) col = i;
        if (col < 0) {
          if (sel->distinct)
            return hl_err_set_at(err, o->expr->pos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                                 "for SELECT DISTINCT, ORDER BY expressions must appear in the "
                                 "select list");
          col = plan->n_out;
          if ((rc = add_output(b, plan, &out_cap, e, "_sort")) != HL_OK) return rc;
        }
      }
      plan->order_cols[k] = col;
      plan->order_desc[k] = o->descending;
      /* Hive: NULLs sort first ascending and last descending */
      plan->order_nulls_first[k] = o->nulls == 0 ? !o->descending : o->nulls == 1;
    }
    plan->n_order = sel->n_order_by;
  }

  /* rewrite outputs and HAVING to the aggregate layout */
  if (plan->aggregate) {
    for (int i = 0; i < plan->n_out; i++)
      if (!(plan->out_exprs[i] = to_agg_layout(b, plan->out_exprs[i]))) return err->code;
    if (plan->having && !(plan->having = to_agg_layout(b, plan->having))) return err->code;
    for (int i = 0; i < plan->n_out; i++) clear_out_ref(plan->out_exprs[i]);
    if (plan->having) clear_out_ref(plan->having);
  }

  if (sel->has_limit) {
    if (sel->limit < 0 || sel->offset < 0)
      return hl_err_set_at(err, sel->pos, HL_ERROR, HL_SS(INVALID_ROW_COUNT_IN_LIMIT_CLAUSE),
                           "LIMIT must not be negative");
    plan->has_limit = true;
    plan->limit = sel->limit;
    plan->offset = sel->offset;
  }

  /* split WHERE: partition-only conjuncts prune in the catalog */
  if (plan->scan) {
    hl_plan_scan_t *scan = plan->scan;
    hl_table_t *t = b->table;
    if (where) {
      int n = count_conjuncts(where), m = 0;
      hl_expr_t **conj = hl_arena_alloc(arena, sizeof(hl_expr_t *) * (size_t)n);
      scan->part_preds = hl_arena_alloc(arena, sizeof(hl_expr_t *) * (size_t)n);
      hl_expr_t **rest = hl_arena_alloc(arena, sizeof(hl_expr_t *) * (size_t)n);
      if (!conj || !scan->part_preds || !rest) return hl_err_nomem(err);
      collect_conjuncts(where, conj, &m);
      int n_rest = 0;
      for (int k = 0; k < m; k++) {
        if (t->n_part > 0 && hl_expr_cols_within(conj[k], t->n_data, t->n_all) &&
            is_deterministic(conj[k]))
          scan->part_preds[scan->n_part_preds++] = conj[k];
        else rest[n_rest++] = conj[k];
      }
      if (n_rest == 1) plan->filter = rest[0];
      else if (n_rest > 1) {
        hl_expr_t *e = new_expr(b, HL_EX_AND, hl_type_prim(HL_T_BOOLEAN), where->pos);
        if (!e) return err->code;
        e->args = rest;
        e->n_args = n_rest;
        plan->filter = e;
      }
    }
    if (t->n_part > 0) {
      rc = prune_partitions(b, scan);
      if (rc != HL_OK) return rc;
    }
    /* columns the scan must decode */
    if (plan->filter) mark_needed(plan->filter, scan->needed);
    for (int g = 0; g < plan->n_group; g++) mark_needed(plan->group_exprs[g], scan->needed);
    for (int a = 0; a < plan->n_aggs; a++)
      if (plan->aggs[a].arg) mark_needed(plan->aggs[a].arg, scan->needed);
    if (!plan->aggregate)
      for (int i = 0; i < plan->n_out; i++) mark_needed(plan->out_exprs[i], scan->needed);
  } else if (where) {
    plan->filter = where;
  }
  *out = plan;
  return HL_OK;
}
