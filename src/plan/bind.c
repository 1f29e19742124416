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

#include "hivelite.h"

#include "plan/decorrelate.h"
#include "plan/pin.h"
#include "plan/projection.h"
#include "plan/ptf.h"

#include "vector/func_doc.h"
#include "vector/func_int.h"
#include "session/catalogs.h"
#include "session/loc_allow.h"
#include "session/params.h"
#include "sql/parser.h"
#include "storage/stor.h"
#include "util/ds_hll.h"
#include "util/ds_kll.h"
#include "util/ds_theta.h"
#include "util/hive_bloom.h"
#include "util/murmur3.h"
#include "util/interval.h"
#include "util/mem.h"
#include "util/tz.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One leaf of the FROM clause as names see it. */
typedef struct scope_entry {
  const char *alias;      /* qualifier: the alias, else the table/CTE name */
  const char *table_name; /* the real table name (also a valid qualifier) */
  const char *db_name;    /* for messages */
  int offset;             /* first column in the block's layout */
  int n_cols;
  const char *const *names;
  const hl_type_t *const *types;
  hl_rel_t *rel;       /* the leaf relation */
  bool hidden;         /* right side of a SEMI/ANTI join, after its ON */
  bool null_supplying; /* may be NULL-extended by an outer join */
  char **using_cols;   /* USING columns that resolve to the left side */
  int n_using;
} scope_entry_t;

typedef struct binder {
  hl_session_t *s;
  hl_arena_t *arena;
  hl_error_t *err;
  struct binder *parent;    /* enclosing query (CTEs, correlation errors) */
  const hl_ast_cte_t *ctes; /* WITH entries visible in this query */
  int n_ctes;
  scope_entry_t *entries; /* FROM leaves, in layout order */
  int n_entries, cap_entries;
  int n_cols;        /* columns of the block's layout */
  hl_table_t *table; /* the table when FROM is exactly one table */
  /* aggregation context (NULL when binding outside a select list) */
  bool agg_allowed;
  bool win_allowed; /* window functions: select list and ORDER BY only */
  int win_cap;
  hl_plan_t *plan;
  int agg_cap;
  int group_cap;
  int depth;           /* bind_expr recursion depth, counted from the statement's
                          outermost query (a subquery inside an expression
                          continues its parent's count) */
  int level;           /* query blocks from the outermost one, this one included */
  int views;           /* views being expanded around this block */
  struct binder *root; /* the outermost query's binder (statement-wide counts) */
  int n_expansions;    /* root only: view and WITH query references bound */
  bool wide_error;     /* root only: the error is about the whole statement (a
                          limit), so views do not prefix their names to it */
} binder_t;

/* Bound trees are walked recursively (binding, evaluation, EXPLAIN), so
 * their depth is bounded.  AND/OR chains are flattened into one n-ary node
 * and do not count; other left-deep chains (a + b + c ...) do.  The count
 * runs on through scalar subqueries, so nesting them cannot multiply it. */
#define MAX_EXPR_DEPTH 1000

/* Query blocks nest (subqueries, views, WITH references, the operands of a
 * set operation) through recursive binding, operator assembly, execution
 * and EXPLAIN; a chain of UNION [ALL] is one n-ary block, but INTERSECT and
 * EXCEPT chains nest one level per operand.  500 levels stay far inside
 * an 8 MB stack in every build (docs/sql.md, "Limits"). */
#define MAX_QUERY_DEPTH 500

/* View and WITH query references bound in one statement.  Each reference
 * binds its query again, so definitions that refer to each other twice
 * double per level; this stops such a statement quickly with a clear error
 * (the memory limit would too, later). */
#define MAX_EXPANSIONS 10000

/* Columns of one query block's output (select list after * expansion, plus
 * hidden ORDER BY columns).  Every column costs a vector per operator and
 * batch, so a bound keeps a runaway select list from taking gigabytes
 * before the memory limit can fail it. */
#define MAX_COLUMNS 10000

static hl_expr_t *bind_expr(binder_t *b, const hl_ast_expr_t *a);
static const hl_type_t *union_type(binder_t *b, const hl_type_t *x, const hl_type_t *y, long pos);
static bool column_visible(const binder_t *b, const char *name);
static hl_expr_t *bind_struct_column_field(binder_t *b, const hl_ast_expr_t *a);

/* Hive's default null order: hive.default.nulls.last (true since Hive 4)
 * makes NULL the largest value -- last ascending, first descending;
 * false gives Hive 3's order (NULL the smallest). */
static bool default_nulls_first(const binder_t *b, bool descending) {
  const char *v = hl_session_get(b->s, "hive.default.nulls.last");
  bool nulls_last = !v || strcasecmp(v, "false") != 0;
  return nulls_last ? descending : !descending;
}
static hl_status_t bind_query(hl_session_t *s, binder_t *parent, const hl_ast_select_t *sel,
                              hl_arena_t *arena, hl_plan_t **out, hl_error_t *err);

/* Starts binder B for query SEL below PARENT (NULL: the statement's
 * outermost query): the depth counts go on from the parent. */
static hl_status_t binder_init(binder_t *b, hl_session_t *s, binder_t *parent,
                               const hl_ast_select_t *sel, hl_arena_t *arena, hl_error_t *err) {
  memset(b, 0, sizeof *b);
  b->s = s;
  b->arena = arena;
  b->err = err;
  b->parent = parent;
  b->ctes = sel->ctes;
  b->n_ctes = sel->n_ctes;
  b->root = parent ? parent->root : b;
  b->level = parent ? parent->level + 1 : 1;
  b->depth = parent ? parent->depth : 0;
  b->views = parent ? parent->views : 0;
  if (b->level > MAX_QUERY_DEPTH) {
    b->root->wide_error = true;
    return hl_err_set_at(err, sel->pos, HL_ERROR, HL_SS(STATEMENT_TOO_COMPLEX),
                         "query is nested too deeply (more than %d levels of subqueries, views, "
                         "WITH queries and set operations)",
                         MAX_QUERY_DEPTH);
  }
  return HL_OK;
}

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

/* ORDER BY / SORT BY keys, as window orders: complex values are not
 * ordered here yet (the sort compares them equal), so refuse them rather
 * than return rows unsorted. */
static hl_status_t check_orderable(binder_t *b, const hl_type_t *t, long pos) {
  if (!hl_type_is_complex(t)) return HL_OK;
  return hl_err_set_at(b->err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                       "ordering by %s values is not supported", type_name(b, t));
}

/* ---------------------------------------------------------------- types */

static int int_digits(hl_type_id_t id) {
  switch (id) {
  case HL_T_TINYINT:
    return 3;
  case HL_T_SMALLINT:
    return 5;
  case HL_T_INT:
    return 10;
  default:
    return 19;
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
static const hl_type_t *common_type(binder_t *b, const hl_type_t *x, const hl_type_t *y, long pos) {
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
  if ((hl_type_is_string(x) && y->id == HL_T_BINARY) ||
      (x->id == HL_T_BINARY && hl_type_is_string(y)))
    return hl_type_prim(HL_T_BINARY);
  hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                "types %s and %s cannot be compared", type_name(b, x), type_name(b, y));
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
  case HL_LIT_NULL:
    e->value.is_null = true;
    return e;
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
      if (*s == '.')
        after = true;
      else if (isdigit((unsigned char)*s)) {
        digits++;
        if (after) scale++;
      }
    }
    if (digits > 38)
      t = hl_type_prim(HL_T_DOUBLE);
    else
      t = hl_type_decimal(b->arena, digits < scale ? scale : (digits ? digits : 1), scale);
    break;
  }
  case HL_LIT_DOUBLE:
    t = hl_type_prim(HL_T_DOUBLE);
    break;
  case HL_LIT_STRING:
    e->type = hl_type_prim(HL_T_STRING);
    e->value.u.s.ptr = a->text;
    e->value.u.s.len = (uint32_t)a->text_len;
    return e;
  case HL_LIT_DATE:
    t = hl_type_prim(HL_T_DATE);
    break;
  case HL_LIT_TIMESTAMP:
    t = hl_type_prim(HL_T_TIMESTAMP);
    break;
  case HL_LIT_TYPED_INT:
    if (strcmp(a->lit_suffix, "Y") == 0)
      t = hl_type_prim(HL_T_TINYINT);
    else if (strcmp(a->lit_suffix, "S") == 0)
      t = hl_type_prim(HL_T_SMALLINT);
    else if (strcmp(a->lit_suffix, "L") == 0)
      t = hl_type_prim(HL_T_BIGINT);
    else if (strcmp(a->lit_suffix, "D") == 0)
      t = hl_type_prim(HL_T_DOUBLE);
    else {
      int digits = 0, scale = 0;
      bool after = false;
      for (const char *s = a->text; *s; s++) {
        if (*s == '.')
          after = true;
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
                  verr.code == HL_NOMEM                             ? "53200"
                  : (t->id == HL_T_DATE || t->id == HL_T_TIMESTAMP) ? HL_SS(INVALID_DATETIME_FORMAT)
                                                                    : verr.sqlstate,
                  "invalid %s literal \"%s\"", hl_type_id_name(t->id), a->text);
    hl_err_clear(&verr);
    return NULL;
  }
  return e;
}

/* -------------------------------------------------------------- columns */

static bool qualifier_matches(const scope_entry_t *en, const char *q) {
  return strcasecmp(q, en->alias) == 0 || (en->table_name && strcasecmp(q, en->table_name) == 0);
}

static int entry_column(const scope_entry_t *en, const char *name) {
  for (int c = 0; c < en->n_cols; c++)
    if (strcasecmp(en->names[c], name) == 0) return c;
  return -1;
}

static bool using_hides(const scope_entry_t *en, const char *name) {
  for (int k = 0; k < en->n_using; k++)
    if (strcasecmp(en->using_cols[k], name) == 0) return true;
  return false;
}

/* True when NAME resolves in an enclosing query (for a clear message about
 * correlated subqueries, which are not supported yet). */
static bool resolves_outside(const binder_t *b, const hl_ast_expr_t *a) {
  for (const binder_t *o = b->parent; o; o = o->parent)
    for (int i = 0; i < o->n_entries; i++) {
      const scope_entry_t *en = &o->entries[i];
      if (a->qualifier && !qualifier_matches(en, a->qualifier)) continue;
      if (entry_column(en, a->name) >= 0) return true;
    }
  return false;
}

static hl_expr_t *bind_grouping(binder_t *b, const hl_ast_expr_t *a, const char *name);
static bool expr_equal(const hl_expr_t *x, const hl_expr_t *y);

static hl_expr_t *bind_column(binder_t *b, const hl_ast_expr_t *a) {
  int found = -1, found_col = -1;
  bool qualifier_seen = false;
  for (int i = 0; i < b->n_entries; i++) {
    const scope_entry_t *en = &b->entries[i];
    if (en->hidden) continue;
    if (a->qualifier) {
      if (!qualifier_matches(en, a->qualifier)) continue;
      qualifier_seen = true;
    } else if (using_hides(en, a->name)) {
      continue;
    }
    int c = entry_column(en, a->name);
    if (c < 0) continue;
    if (found >= 0)
      return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(AMBIGUOUS_COLUMN),
                           "column reference \"%s\" is ambiguous", a->name),
             NULL;
    found = i;
    found_col = c;
  }
  if (found < 0) {
    /* Hive's virtual column of GROUPING SETS / ROLLUP / CUBE */
    if (!a->qualifier && strcmp(a->name, "grouping__id") == 0)
      return bind_grouping(b, a, "grouping__id");
    if (a->qualifier && !qualifier_seen && column_visible(b, a->qualifier))
      return bind_struct_column_field(b, a);
    if (resolves_outside(b, a))
      return hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "correlated subqueries are not supported yet (column \"%s\")", a->name),
             NULL;
    if (a->qualifier && !qualifier_seen)
      return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_TABLE),
                           "missing FROM-clause entry for table \"%s\"", a->qualifier),
             NULL;
    if (b->n_entries == 1 && b->entries[0].table_name && b->entries[0].db_name)
      return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "column \"%s\" does not exist in table \"%s.%s\"", a->name,
                           b->entries[0].db_name, b->entries[0].table_name),
             NULL;
    return hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                         "column \"%s\" does not exist", a->name),
           NULL;
  }
  const scope_entry_t *en = &b->entries[found];
  hl_expr_t *e = new_expr(b, HL_EX_COLUMN, en->types[found_col], a->pos);
  if (!e) return NULL;
  e->col = en->offset + found_col;
  e->col_name = en->names[found_col];
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

/* ----------------------------------------------------------- parameters */

/* Parameter A (`?`, `$n`) as the constant of its bound value (session/params.h),
 * so that it plans like the literal it stands for: folded casts, partition
 * pruning, reader predicates.  WANT is the type its context needs (the
 * other side of a comparison, ...; NULL: none): noted for
 * hl_bind_parameter_type, and a bound text or NULL takes that type the way
 * a string literal or NULL would be cast to it; any other bound value keeps
 * its own type and the context's usual coercion applies. */
static hl_expr_t *bind_param(binder_t *b, const hl_ast_expr_t *a, const hl_type_t *want) {
  hl_params_t *ps = b->s->params;
  if (!ps || a->param < 1 || a->param > ps->n) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_PARAMETER), "there is no parameter $%d",
                  a->param);
    return NULL;
  }
  if (want && (want->id == HL_T_NULL || hl_type_is_complex(want))) want = NULL;
  hl_params_note_type(ps, a->param, want);
  const hl_param_t *p = &ps->items[a->param - 1];
  hl_expr_t *e = new_expr(b, HL_EX_CONST, hl_type_prim(HL_T_NULL), a->pos);
  if (!e) return NULL;
  if (!p->type) {
    if (!ps->describe) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(PARAMETER_NOT_BOUND),
                    "parameter $%d is not bound", a->param);
      return NULL;
    }
    e->value.is_null = true;
    if (want) e->type = want;
    return e;
  }
  e->type = p->type;
  e->value = p->value;
  if (p->type->id == HL_T_NULL) {
    if (want) e->type = want;
    return e;
  }
  if (want && hl_type_is_integer(p->type) && hl_type_is_integer(want) && want->id < p->type->id) {
    /* a bound BIGINT that fits an INT key is that key's literal: pinned
     * partition listings see `key = value` */
    static const int64_t max[] = {
        [HL_T_TINYINT] = INT8_MAX, [HL_T_SMALLINT] = INT16_MAX, [HL_T_INT] = INT32_MAX};
    int64_t v = p->value.u.i;
    if (v <= max[want->id] && v >= -max[want->id] - 1) return cast_to(b, e, want);
    return e;
  }
  if (hl_type_phys(p->type) == HL_P_STR) {
    /* the plan outlives a rebinding of the statement: its own copy */
    char *copy = hl_arena_alloc(b->arena, p->value.u.s.len + 1);
    if (!copy) return hl_err_nomem(b->err), NULL;
    if (p->value.u.s.len) memcpy(copy, p->value.u.s.ptr, p->value.u.s.len);
    copy[p->value.u.s.len] = '\0';
    e->value.u.s.ptr = copy;
    if (p->type->id == HL_T_STRING && want && !hl_type_is_string(want)) return cast_to(b, e, want);
  }
  return e;
}

/* A, bound where a value of type WANT is needed: a parameter takes the
 * type (bind_param), anything else binds as usual. */
static hl_expr_t *bind_in_context(binder_t *b, const hl_ast_expr_t *a, const hl_type_t *want) {
  if (a->kind == HL_AST_PARAM) return bind_param(b, a, want);
  return bind_expr(b, a);
}

/* The operands of a binary operator; a parameter on one side is in the
 * context of the other side's type. */
static bool bind_operands(binder_t *b, const hl_ast_expr_t *l, const hl_ast_expr_t *r,
                          hl_expr_t **x, hl_expr_t **y) {
  if (l->kind == HL_AST_PARAM && r->kind != HL_AST_PARAM) {
    *y = bind_expr(b, r);
    *x = *y ? bind_param(b, l, (*y)->type) : NULL;
  } else {
    *x = bind_expr(b, l);
    *y = *x ? bind_in_context(b, r, (*x)->type) : NULL;
  }
  return *x && *y;
}

/* LIMIT / OFFSET of SEL into PLAN: counts, or parameters (BIGINT) whose
 * values are the counts.  A NULL count is no limit (PostgreSQL's LIMIT
 * NULL); a negative one is 2201W. */
static hl_status_t bind_limit(binder_t *b, const hl_ast_select_t *sel, hl_plan_t *plan) {
  int64_t v[2] = {sel->limit, sel->offset};
  int params[2] = {sel->limit_param, sel->offset_param};
  bool unlimited = false;
  for (int k = 0; k < 2; k++) {
    if (!params[k]) continue;
    hl_ast_expr_t pa = {.kind = HL_AST_PARAM, .pos = sel->pos, .param = params[k]};
    hl_expr_t *e = bind_param(b, &pa, hl_type_prim(HL_T_BIGINT));
    if (e && !hl_type_equal(e->type, hl_type_prim(HL_T_BIGINT))) {
      if (!hl_type_is_integer(e->type) && !hl_type_is_string(e->type) && e->type->id != HL_T_NULL) {
        hl_err_set_at(b->err, sel->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "argument of %s must be an integer, not %s", k ? "OFFSET" : "LIMIT",
                      type_name(b, e->type));
        return HL_ERROR;
      }
      e = cast_to(b, e, hl_type_prim(HL_T_BIGINT));
    }
    if (!e) return b->err->code;
    if (e->value.is_null) {
      v[k] = 0;
      if (k == 0) unlimited = true;
    } else {
      v[k] = e->value.u.i;
    }
  }
  if (v[0] < 0 || v[1] < 0)
    return hl_err_set_at(b->err, sel->pos, HL_ERROR, HL_SS(INVALID_ROW_COUNT_IN_LIMIT_CLAUSE),
                         "LIMIT must not be negative");
  plan->has_limit = !unlimited || v[1] > 0;
  plan->limit = unlimited ? INT64_MAX : v[0];
  plan->offset = v[1];
  return HL_OK;
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

/* E, a function call over constants, evaluated now into a constant (so
 * that INTERVAL literals are values for EXPLAIN and their errors are the
 * statement's, before any row, as Hive's compile-time folding). */
static hl_expr_t *fold_const(binder_t *b, hl_expr_t *e) {
  hl_value_t args[3];
  if (e->n_args > 3) return e;
  for (int k = 0; k < e->n_args; k++) {
    if (e->args[k]->kind != HL_EX_CONST) return e;
    args[k] = e->args[k]->value;
  }
  hl_expr_t *c = new_expr(b, HL_EX_CONST, e->type, e->pos);
  if (!c) return NULL;
  memset(&c->value, 0, sizeof c->value);
  if (e->fn->impl(e, args, &c->value, b->arena, b->err) != HL_OK) return NULL;
  return c;
}

/* x + y, x - y over intervals, or of two dates or timestamps (Hive's
 * GenericUDFOPDTIPlus / GenericUDFOPDTIMinus; the rules and result types are
 * vector/func_interval.c's hl_interval_op). */
static hl_expr_t *make_interval_arith(binder_t *b, hl_expr_op_t op, hl_expr_t *x, hl_expr_t *y,
                                      const hl_interval_op_t *iv, long pos) {
  if (!iv->fn) {
    hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "no operator %s for %s and %s (Hive adds and subtracts intervals only, with "
                  "dates, timestamps and intervals of their own kind)",
                  op == HL_XOP_ADD   ? "+"
                  : op == HL_XOP_SUB ? "-"
                  : op == HL_XOP_MUL ? "*"
                  : op == HL_XOP_DIV ? "/"
                  : op == HL_XOP_MOD ? "%"
                                     : "DIV",
                  type_name(b, x->type), type_name(b, y->type));
    return NULL;
  }
  hl_expr_t *e = new_expr(b, HL_EX_FUNC, iv->result, pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->fn = iv->fn;
  e->args[iv->swap ? 1 : 0] = cast_to(b, x, iv->x);
  e->args[iv->swap ? 0 : 1] = cast_to(b, y, iv->y);
  return e->args[0] && e->args[1] ? e : NULL;
}

static hl_expr_t *make_arith(binder_t *b, hl_expr_op_t op, hl_expr_t *x, hl_expr_t *y, long pos) {
  if (!x || !y) return NULL;
  hl_interval_op_t iv;
  if (hl_interval_op(op, x->type, y->type, &iv)) return make_interval_arith(b, op, x, y, &iv, pos);
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
    case HL_XOP_MUL:
      rt = decimal_result(b, p1 + p2 + 1, s1 + s2);
      break;
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

/* x & y, x | y, x ^ y, ~x (y NULL): Hive's UDFOPBit* have tinyint,
 * smallint, int and bigint overloads only, and no implicit conversion
 * reaches an integer from a string, a fraction or a boolean, so the operands
 * must be integers or NULL; both are cast to their common type, the
 * result's (TINYINT when both are NULL: the narrowest overload wins). */
static hl_expr_t *make_bitwise(binder_t *b, const hl_func_def_t *fn, hl_expr_t *x, hl_expr_t *y,
                               long pos) {
  if (!x || (fn != &hl_func_bitnot && !y)) return NULL;
  hl_expr_t *ops[2] = {x, y};
  int n = fn == &hl_func_bitnot ? 1 : 2;
  const hl_type_t *t = hl_type_prim(HL_T_NULL);
  for (int k = 0; k < n; k++) {
    const hl_type_t *ot = ops[k]->type;
    if (ot->id == HL_T_NULL) continue;
    if (!hl_type_is_integer(ot)) {
      hl_err_set_at(b->err, ops[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "operand of %s must be TINYINT, SMALLINT, INT or BIGINT, not %s", fn->name,
                    type_name(b, ot));
      return NULL;
    }
    if (!(t = common_type(b, t, ot, pos))) return NULL;
  }
  if (t->id == HL_T_NULL) t = hl_type_prim(HL_T_TINYINT);
  hl_expr_t *e = new_expr(b, HL_EX_FUNC, t, pos);
  if (!e || !set_args(b, e, n)) return NULL;
  e->fn = fn;
  for (int k = 0; k < n; k++)
    if (!(e->args[k] = cast_to(b, ops[k], t))) return NULL;
  return e;
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

/* A chain x1 AND x2 AND ... (the parser nests it to the left) as one n-ary
 * node, walked without recursion so that long chains cannot exhaust the
 * stack. */
static hl_expr_t *bind_logic_chain(binder_t *b, const hl_ast_expr_t *a) {
  hl_ast_op_t op = a->op;
  int n = 1;
  const hl_ast_expr_t *l = a;
  while (l->kind == HL_AST_BINARY && l->op == op) {
    n++;
    l = l->args[0];
  }
  hl_expr_t *e =
      new_expr(b, op == HL_OP_AND ? HL_EX_AND : HL_EX_OR, hl_type_prim(HL_T_BOOLEAN), a->pos);
  if (!e || !set_args(b, e, n)) return NULL;
  /* operands right to left: args[k] is the right side of the k-th node */
  l = a;
  for (int k = n - 1; k >= 0; k--) {
    const hl_ast_expr_t *operand = k > 0 ? l->args[1] : l;
    if (!(e->args[k] = to_bool(b, bind_expr(b, operand)))) return NULL;
    if (k > 0) l = l->args[0];
  }
  return e;
}

static hl_expr_t *bind_binary(binder_t *b, const hl_ast_expr_t *a) {
  if (a->op == HL_OP_AND || a->op == HL_OP_OR) return bind_logic_chain(b, a);
  hl_expr_t *x, *y;
  if (a->op == HL_OP_CONCAT) {
    x = bind_in_context(b, a->args[0], hl_type_prim(HL_T_STRING));
    y = x ? bind_in_context(b, a->args[1], hl_type_prim(HL_T_STRING)) : NULL;
  } else if (!bind_operands(b, a->args[0], a->args[1], &x, &y)) {
    return NULL;
  }
  if (!y) return NULL;
  switch (a->op) {
  case HL_OP_AND:
    return make_logic(b, HL_EX_AND, x, y, a->pos);
  case HL_OP_OR:
    return make_logic(b, HL_EX_OR, x, y, a->pos);
  case HL_OP_EQ:
    return make_cmp(b, HL_XOP_EQ, x, y, a->pos);
  case HL_OP_NE:
    return make_cmp(b, HL_XOP_NE, x, y, a->pos);
  case HL_OP_LT:
    return make_cmp(b, HL_XOP_LT, x, y, a->pos);
  case HL_OP_LE:
    return make_cmp(b, HL_XOP_LE, x, y, a->pos);
  case HL_OP_GT:
    return make_cmp(b, HL_XOP_GT, x, y, a->pos);
  case HL_OP_GE:
    return make_cmp(b, HL_XOP_GE, x, y, a->pos);
  case HL_OP_EQ_NS:
    return make_cmp(b, HL_XOP_EQ_NS, x, y, a->pos);
  case HL_OP_DISTINCT_FROM: {
    hl_expr_t *eq = make_cmp(b, HL_XOP_EQ_NS, x, y, a->pos);
    /* IS DISTINCT FROM = NOT <=>; IS NOT DISTINCT FROM = <=> */
    return a->negated ? eq : make_not(b, eq, a->pos);
  }
  case HL_OP_ADD:
    return make_arith(b, HL_XOP_ADD, x, y, a->pos);
  case HL_OP_SUB:
    return make_arith(b, HL_XOP_SUB, x, y, a->pos);
  case HL_OP_MUL:
    return make_arith(b, HL_XOP_MUL, x, y, a->pos);
  case HL_OP_DIV:
    return make_arith(b, HL_XOP_DIV, x, y, a->pos);
  case HL_OP_IDIV:
    return make_arith(b, HL_XOP_IDIV, x, y, a->pos);
  case HL_OP_MOD:
    return make_arith(b, HL_XOP_MOD, x, y, a->pos);
  case HL_OP_CONCAT: {
    hl_expr_t *e = new_expr(b, HL_EX_FUNC, hl_type_prim(HL_T_STRING), a->pos);
    if (!e || !set_args(b, e, 2)) return NULL;
    e->fn = hl_func_lookup("concat");
    e->args[0] = cast_to(b, x, hl_type_prim(HL_T_STRING));
    e->args[1] = cast_to(b, y, hl_type_prim(HL_T_STRING));
    return e->args[0] && e->args[1] ? e : NULL;
  }
  case HL_OP_BITAND:
    return make_bitwise(b, &hl_func_bitand, x, y, a->pos);
  case HL_OP_BITOR:
    return make_bitwise(b, &hl_func_bitor, x, y, a->pos);
  case HL_OP_BITXOR:
    return make_bitwise(b, &hl_func_bitxor, x, y, a->pos);
  default:
    hl_err_set_at(b->err, a->pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown binary operator %d",
                  (int)a->op);
    return NULL;
  }
}

static hl_expr_t *bind_unary(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *x = bind_expr(b, a->args[0]);
  if (!x) return NULL;
  switch (a->op) {
  case HL_OP_NOT:
    return make_not(b, x, a->pos);
  case HL_OP_PLUS:
    return x;
  case HL_OP_NEG: {
    if (hl_type_is_interval(x->type)) { /* range-checked: -INT32_MIN months does not fit */
      hl_expr_t *e = new_expr(b, HL_EX_FUNC, x->type, a->pos);
      if (!e || !set_args(b, e, 1)) return NULL;
      e->fn = &hl_func_iv_neg;
      e->args[0] = x;
      return x->kind == HL_EX_CONST ? fold_const(b, e) : e;
    }
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
        if (hl_type_phys(t) == HL_P_I64)
          c->value.u.i = (int64_t)(0 - (uint64_t)c->value.u.i);
        else if (hl_type_phys(t) == HL_P_F64)
          c->value.u.d = -c->value.u.d;
        else
          c->value.u.dec = -c->value.u.dec;
      }
      return c;
    }
    hl_expr_t *e = new_expr(b, HL_EX_NEG, t, a->pos);
    if (!e || !set_args(b, e, 1)) return NULL;
    e->args[0] = x;
    return e;
  }
  case HL_OP_BITNOT:
    return make_bitwise(b, &hl_func_bitnot, x, NULL, a->pos);
  default:
    hl_err_set_at(b->err, a->pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown unary operator %d",
                  (int)a->op);
    return NULL;
  }
}

/* An uncorrelated subquery: bound now, run by exec/query.c before the
 * query that uses it (its value becomes a constant or an IN set). */
static hl_expr_t *bind_subquery(binder_t *b, const hl_ast_expr_t *a) {
  hl_plan_t *sub;
  if (bind_query(b->s, b, a->subquery, b->arena, &sub, b->err) != HL_OK) return NULL;
  hl_expr_t *e = new_expr(b, HL_EX_SUBQUERY, hl_type_prim(HL_T_BOOLEAN), a->pos);
  if (!e) return NULL;
  e->subquery = sub;
  e->negated = a->negated;
  if (a->kind == HL_AST_EXISTS) {
    e->sub_kind = HL_SUB_EXISTS;
    return e;
  }
  if (sub->n_visible != 1) {
    hl_err_set_at(b->err, a->subquery->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                  "subquery must return only one column");
    return NULL;
  }
  const hl_type_t *t = sub->out_exprs[0]->type;
  if (a->kind == HL_AST_SUBQUERY) {
    e->sub_kind = HL_SUB_SCALAR;
    e->type = t;
    return e;
  }
  /* x IN (subquery): compare in the common type of x and the column */
  e->sub_kind = HL_SUB_IN;
  hl_expr_t *x = bind_expr(b, a->args[0]);
  if (!x) return NULL;
  const hl_type_t *ct = common_type(b, x->type, t, a->pos);
  if (!ct || !set_args(b, e, 1)) return NULL;
  if (!(e->args[0] = cast_to(b, x, ct))) return NULL;
  if (!(sub->out_exprs[0] = cast_to(b, sub->out_exprs[0], ct))) return NULL;
  return e;
}

static hl_expr_t *bind_in(binder_t *b, const hl_ast_expr_t *a) {
  if (a->subquery) return bind_subquery(b, a);
  hl_expr_t *e = new_expr(b, HL_EX_IN, hl_type_prim(HL_T_BOOLEAN), a->pos);
  if (!e || !set_args(b, e, a->n_args)) return NULL;
  e->negated = a->negated;
  const hl_type_t *t = hl_type_prim(HL_T_NULL);
  for (int k = 0; k < a->n_args; k++) {
    /* the list's parameters take the probe's type */
    e->args[k] = k ? bind_in_context(b, a->args[k], e->args[0]->type) : bind_expr(b, a->args[k]);
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
  hl_expr_t *p = x ? bind_in_context(b, a->args[1], hl_type_prim(HL_T_STRING)) : NULL;
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
    if (hl_regex_compile(re, pat->ptr, pat->len, true, b->arena, a->args[1]->pos, b->err) != HL_OK)
      return NULL;
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
  if (a->has_else && !(e->args[e->n_args - 1] = cast_to(b, e->args[e->n_args - 1], t))) return NULL;
  return e;
}

/* ------------------------------------------------------------ functions */

static const struct {
  const char *name;
  hl_agg_kind_t kind;
} stat_aggs[] = {
    {"var_pop", HL_AGG_VAR_POP},
    {"variance", HL_AGG_VAR_POP},
    {"var_samp", HL_AGG_VAR_SAMP},
    {"stddev", HL_AGG_STDDEV_POP},
    {"std", HL_AGG_STDDEV_POP},
    {"stddev_pop", HL_AGG_STDDEV_POP},
    {"stddev_samp", HL_AGG_STDDEV_SAMP},
    {"collect_list", HL_AGG_COLLECT_LIST},
    {"collect_set", HL_AGG_COLLECT_SET},
    {"percentile", HL_AGG_PERCENTILE},
    {"percentile_approx", HL_AGG_PERCENTILE},
    {"approx_count_distinct", HL_AGG_APPROX_DISTINCT},
    {"compute_bit_vector_hll", HL_AGG_BITVECTOR_HLL},
    {"compute_bit_vector_fm", HL_AGG_BITVECTOR_FM},
    {"percentile_cont", HL_AGG_PERCENTILE_CONT},
    {"percentile_disc", HL_AGG_PERCENTILE_DISC},
    {"corr", HL_AGG_CORR},
    {"covar_pop", HL_AGG_COVAR_POP},
    {"covar_samp", HL_AGG_COVAR_SAMP},
    {"regr_sxx", HL_AGG_REGR_SXX},
    {"regr_syy", HL_AGG_REGR_SYY},
    {"regr_sxy", HL_AGG_REGR_SXY},
    {"regr_slope", HL_AGG_REGR_SLOPE},
    {"regr_intercept", HL_AGG_REGR_INTERCEPT},
    {"regr_r2", HL_AGG_REGR_R2},
    /* count and avg of one argument over the rows where the other is not
     * NULL (see hl_agg_t.arg2) */
    {"regr_count", HL_AGG_COUNT},
    {"regr_avgx", HL_AGG_AVG},
    {"regr_avgy", HL_AGG_AVG},
};

static int stat_agg(const char *name) {
  for (size_t i = 0; i < sizeof stat_aggs / sizeof stat_aggs[0]; i++)
    if (strcmp(stat_aggs[i].name, name) == 0) return (int)i;
  return -1;
}

static bool is_aggregate_name(const char *name) {
  return strcmp(name, "count") == 0 || strcmp(name, "grouping") == 0 || strcmp(name, "sum") == 0 ||
         strcmp(name, "$sum0") == 0 || strcmp(name, "histogram_numeric") == 0 ||
         strcmp(name, "ngrams") == 0 || strcmp(name, "context_ngrams") == 0 ||
         strcmp(name, "compute_stats") == 0 || strcmp(name, "bloom_filter") == 0 ||
         strcmp(name, "approx_distinct") == 0 || strcmp(name, "ds_hll_sketch") == 0 ||
         strcmp(name, "ds_quantile_doubles_sketch") == 0 ||
         strcmp(name, "ds_quantile_doubles_union") == 0 || strcmp(name, "ds_hll_union") == 0 ||
         strcmp(name, "ds_kll_sketch") == 0 || strcmp(name, "ds_kll_union") == 0 ||
         strcmp(name, "ds_theta_sketch") == 0 || strcmp(name, "ds_theta_union") == 0 ||
         strcmp(name, "ds_theta_intersect") == 0 || strcmp(name, "min") == 0 ||
         strcmp(name, "max") == 0 || strcmp(name, "avg") == 0 || stat_agg(name) >= 0;
}

static hl_expr_t *arg_error(binder_t *b, const hl_ast_expr_t *a, int k, const char *what);

/* One percentile: a numeric constant in [0, 1]. */
static bool percentile_const(binder_t *b, const hl_ast_expr_t *pa, double *out) {
  hl_expr_t *p = bind_expr(b, pa);
  if (!p) return false;
  if (p->kind != HL_EX_CONST || p->value.is_null || !hl_type_is_numeric(p->type)) {
    hl_err_set_at(b->err, pa->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "a percentile must be a numeric constant");
    return false;
  }
  hl_value_t d;
  if (hl_value_cast(p->type, &p->value, hl_type_prim(HL_T_DOUBLE), &d, b->arena, b->err) != HL_OK)
    return false;
  if (d.is_null || d.u.d < 0 || d.u.d > 1) {
    hl_err_set_at(b->err, pa->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "the percentile must be between 0 and 1");
    return false;
  }
  *out = d.u.d;
  return true;
}

/* percentile(x, p) and percentile(x, array(p, ...)): the second form
 * answers ARRAY<DOUBLE>, one element per percentile, as Hive's does. */
static bool bind_percentiles(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  const hl_ast_expr_t *pa = a->args[1];
  if (pa->kind != HL_AST_FUNC || strcmp(pa->name, "array") != 0 || pa->window)
    return percentile_const(b, pa, &agg->param);
  if (pa->n_args == 0) {
    hl_err_set_at(b->err, pa->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "the array of percentiles must not be empty");
    return false;
  }
  double *ps = hl_arena_alloc(b->arena, sizeof(double) * (size_t)pa->n_args);
  if (!ps) return hl_err_nomem(b->err), false;
  for (int i = 0; i < pa->n_args; i++)
    if (!percentile_const(b, pa->args[i], &ps[i])) return false;
  hl_type_t *arr = hl_arena_zalloc(b->arena, sizeof(*arr));
  hl_type_t **kids = arr ? hl_arena_alloc(b->arena, sizeof(hl_type_t *)) : NULL;
  if (!kids) return hl_err_nomem(b->err), false;
  arr->id = HL_T_ARRAY;
  arr->n_children = 1;
  arr->children = kids;
  kids[0] = (hl_type_t *)hl_type_prim(HL_T_DOUBLE);
  agg->type = arr;
  agg->params = ps;
  agg->n_params = pa->n_args;
  return true;
}

/* percentile_cont / percentile_disc (x, p [, direction]) (WITHIN GROUP is
 * rewritten into this by the parser): integers are kept as BIGINT and the
 * other numbers read as DOUBLE, as Hive's two evaluators do; the result is
 * DOUBLE, or ARRAY<DOUBLE> for an array of percentiles; direction is 0
 * for descending (Hive's DESCENDING_CODE), anything else ascending. */
static bool bind_ordered_percentile(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  const hl_type_t *t = agg->arg->type;
  if (t->id != HL_T_NULL && !hl_type_is_numeric(t)) {
    arg_error(b, a, 0, "numeric");
    return false;
  }
  const hl_type_t *to =
      hl_type_prim(t->id == HL_T_NULL || hl_type_is_integer(t) ? HL_T_BIGINT : HL_T_DOUBLE);
  if (!(agg->arg = cast_to(b, agg->arg, to))) return false;
  agg->type = hl_type_prim(HL_T_DOUBLE);
  b->agg_allowed = false;
  bool ok = bind_percentiles(b, a, agg);
  hl_expr_t *dir = ok && a->n_args == 3 ? bind_expr(b, a->args[2]) : NULL;
  b->agg_allowed = true;
  if (!ok || (a->n_args == 3 && !dir)) return false;
  if (dir) {
    if (dir->kind != HL_EX_CONST || dir->value.is_null || !hl_type_is_integer(dir->type)) {
      arg_error(b, a, 2, "an integer constant");
      return false;
    }
    agg->desc = dir->value.u.i == 0;
  }
  return true;
}

static bool stats_aggs_pair(hl_agg_kind_t k) {
  return k >= HL_AGG_CORR;
}

/* The first N arguments of aggregate A, which has no DISTINCT form
 * (0A000), into OUT, bound with no aggregate allowed inside them. */
static bool bind_plain_agg_args(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg, int n,
                                hl_expr_t **out) {
  if (a->distinct) {
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "DISTINCT with %s is not supported yet", a->name);
    return false;
  }
  agg->distinct = false;
  b->agg_allowed = false;
  bool ok = true;
  for (int k = 0; k < n && ok; k++)
    ok = (out[k] = bind_expr(b, a->args[k])) != NULL;
  b->agg_allowed = true;
  return ok;
}

/* corr, covar_*, regr_*: two numeric arguments, read as doubles, except
 * that regr_avgx and regr_avgy average their argument as avg does (a
 * DECIMAL average stays DECIMAL, as in Hive). */
static bool bind_pair_aggregate(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  agg->kind = stat_aggs[stat_agg(a->name)].kind;
  if (a->n_args != 2) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "function %s takes exactly two arguments", a->name);
    return false;
  }
  hl_expr_t *xy[2];
  if (!bind_plain_agg_args(b, a, agg, 2, xy)) return false;
  hl_expr_t *x = xy[0], *y = xy[1];
  for (int k = 0; k < 2; k++) {
    const hl_type_t *t = (k ? y : x)->type;
    if (!hl_type_is_numeric(t) && t->id != HL_T_NULL) {
      arg_error(b, a, k, "numeric");
      return false;
    }
  }
  /* regr_avgx(y, x) is the average of x over the pairs */
  bool swap = strcmp(a->name, "regr_avgx") == 0;
  agg->arg = swap ? y : x;
  agg->arg2 = swap ? x : y;
  if (agg->kind == HL_AGG_COUNT) {
    agg->type = hl_type_prim(HL_T_BIGINT);
    return true;
  }
  const hl_type_t *dbl = hl_type_prim(HL_T_DOUBLE);
  if (agg->kind == HL_AGG_AVG && agg->arg->type->id == HL_T_DECIMAL) {
    const hl_type_t *nt = agg->arg->type;
    agg->type = decimal_result(b, nt->precision + 4 > 38 ? 38 : nt->precision + 4,
                               nt->scale + 4 > 38 ? 38 : nt->scale + 4);
    return agg->type != NULL;
  }
  agg->type = dbl;
  if (!(agg->arg = cast_to(b, agg->arg, dbl))) return false;
  return agg->kind == HL_AGG_AVG || (agg->arg2 = cast_to(b, agg->arg2, dbl)) != NULL;
}

static bool has_subquery(const hl_expr_t *e);

/* Argument K of A as a parameter of histogram_numeric, ngrams or
 * context_ngrams, evaluated here once into *OUT: Hive reads it from the
 * first row and fails when it changes, so one that reads columns is not
 * done yet (0A000).  The bound expression (its type), NULL on error. */
static hl_expr_t *agg_param(binder_t *b, const hl_ast_expr_t *a, int k, hl_value_t *out) {
  b->agg_allowed = false;
  hl_expr_t *e = bind_expr(b, a->args[k]);
  b->agg_allowed = true;
  if (!e) return NULL;
  if (!hl_expr_cols_within(e, 0, 0) || has_subquery(e) || hl_expr_is_stateful(e)) {
    hl_err_set_at(b->err, a->args[k]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "argument %d of %s must be a constant (one per row is not supported yet)", k + 1,
                  a->name);
    return NULL;
  }
  hl_batch_t *one = hl_batch_create(0, NULL);
  if (!one) return hl_err_nomem(b->err), NULL;
  one->n_rows = 1;
  hl_vec_t v;
  hl_value_t val;
  hl_status_t rc = hl_expr_eval(e, one, &v, one->arena, b->err);
  if (rc == HL_OK) {
    hl_vec_get_value(&v, 0, &val);
    if (hl_value_copy_deep(b->arena, e->type, &val, out) != HL_OK) rc = hl_err_nomem(b->err);
  }
  hl_batch_destroy(one);
  return rc == HL_OK ? e : NULL;
}

/* An integer parameter (INT only for histogram_numeric's nb, as Hive; else
 * any integer or a TIMESTAMP, its seconds) as Java's (int) of it; a NULL
 * one makes Hive skip every row (params_null). */
static bool agg_int_param(binder_t *b, const hl_ast_expr_t *a, int k, bool int_only, hl_agg_t *agg,
                          int32_t *out) {
  hl_value_t v;
  hl_expr_t *e = agg_param(b, a, k, &v);
  if (!e) return false;
  hl_type_id_t id = e->type->id;
  if (int_only ? id != HL_T_INT : !hl_type_is_integer(e->type) && id != HL_T_TIMESTAMP) {
    arg_error(b, a, k, int_only ? "an INT" : "an integer");
    return false;
  }
  *out = 0;
  if (v.is_null) {
    agg->params_null = true;
    return true;
  }
  int64_t x = v.u.i;
  if (id == HL_T_TIMESTAMP) x = x / 1000000 - (x % 1000000 < 0); /* floor to seconds */
  *out = (int32_t)(uint32_t)(uint64_t)x;
  return true;
}

/* ARRAY<T> in the binder's arena. */
static hl_type_t *array_of(binder_t *b, const hl_type_t *t) {
  hl_type_t *arr = hl_arena_zalloc(b->arena, sizeof *arr);
  hl_type_t **kids = hl_arena_alloc(b->arena, sizeof(hl_type_t *));
  if (!arr || !kids) return hl_err_nomem(b->err), NULL;
  kids[0] = (hl_type_t *)t;
  *arr = (hl_type_t){.id = HL_T_ARRAY, .n_children = 1, .children = kids};
  return arr;
}

/* STRUCT<NAMES[i]: TYPES[i]> (N fields) in the binder's arena. */
static const hl_type_t *struct_of(binder_t *b, int n, const char *const *names,
                                  const hl_type_t *const *types) {
  hl_type_t *st = hl_arena_zalloc(b->arena, sizeof *st);
  hl_type_t **kids = hl_arena_alloc(b->arena, (size_t)n * sizeof(hl_type_t *));
  char **fn = hl_arena_alloc(b->arena, (size_t)n * sizeof(char *));
  if (!st || !kids || !fn) return hl_err_nomem(b->err), NULL;
  for (int i = 0; i < n; i++) {
    kids[i] = (hl_type_t *)types[i];
    fn[i] = (char *)names[i];
  }
  *st = (hl_type_t){.id = HL_T_STRUCT, .n_children = n, .children = kids, .field_names = fn};
  return st;
}

/* ARRAY<STRUCT<N0: T0, N1: T1>> in the binder's arena. */
static const hl_type_t *array_of_pairs(binder_t *b, const char *n0, const hl_type_t *t0,
                                       const char *n1, const hl_type_t *t1) {
  if (!t0) return hl_err_nomem(b->err), NULL;
  const char *const names[] = {n0, n1};
  const hl_type_t *const types[] = {t0, t1};
  const hl_type_t *st = struct_of(b, 2, names, types);
  return st ? array_of(b, st) : NULL;
}

static bool is_strings(const hl_type_t *t) {
  return t->id == HL_T_ARRAY && t->children[0]->id == HL_T_STRING;
}

/* histogram_numeric(x, nb): x a number or a timestamp, read as DOUBLE, nb
 * an INT; ARRAY<STRUCT<x, y: DOUBLE>>.  ngrams(seqs, n, k [, pf]) and
 * context_ngrams(seqs, context, k [, pf]): seqs an ARRAY<STRING> or
 * ARRAY<ARRAY<STRING>>, context an ARRAY<STRING>, the others integers;
 * ARRAY<STRUCT<ngram: ARRAY<STRING>, estfrequency: DOUBLE>>.  Hive's
 * type checks (GenericUDAFHistogramNumeric, GenericUDAFnGrams,
 * GenericUDAFContextNGrams); the checks of values come with the first row
 * (exec/op_agg_hist.c, op_agg_ngrams.c). */
static bool bind_estimator(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  bool hist = a->name[0] == 'h', ctx = a->name[0] == 'c';
  agg->kind = hist ? HL_AGG_HISTOGRAM : ctx ? HL_AGG_CONTEXT_NGRAMS : HL_AGG_NGRAMS;
  if (hist ? a->n_args != 2 : a->n_args < 3 || a->n_args > 4) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  hist ? "function %s takes exactly two arguments"
                       : "function %s takes three or four arguments",
                  a->name);
    return false;
  }
  if (!bind_plain_agg_args(b, a, agg, 1, &agg->arg)) return false;
  const hl_type_t *t = agg->arg->type, *dbl = hl_type_prim(HL_T_DOUBLE);
  if (hist) {
    if (!hl_type_is_numeric(t) && t->id != HL_T_TIMESTAMP) {
      arg_error(b, a, 0, "a number or a timestamp");
      return false;
    }
    if (!(agg->arg = cast_to(b, agg->arg, dbl))) return false;
    agg->type = array_of_pairs(b, "x", dbl, "y", dbl);
    return agg->type && agg_int_param(b, a, 1, true, agg, &agg->ip[0]);
  }
  if (!is_strings(t) && !(t->id == HL_T_ARRAY && is_strings(t->children[0]))) {
    arg_error(b, a, 0, "an ARRAY<STRING> or an ARRAY<ARRAY<STRING>>");
    return false;
  }
  if (ctx) {
    hl_expr_t *ce = agg_param(b, a, 1, &agg->ctx);
    if (!ce) return false;
    if (!is_strings(ce->type)) {
      arg_error(b, a, 1, "an ARRAY<STRING>");
      return false;
    }
    if (agg->ctx.is_null) agg->params_null = true;
  } else if (!agg_int_param(b, a, 1, false, agg, &agg->ip[0])) {
    return false;
  }
  if (!agg_int_param(b, a, 2, false, agg, &agg->ip[1])) return false;
  agg->ip[2] = 1; /* Hive's placeholder when pf is not given (raised to 1000 / k) */
  if (a->n_args == 4 && !agg_int_param(b, a, 3, false, agg, &agg->ip[2])) return false;
  agg->type =
      array_of_pairs(b, "ngram", array_of(b, hl_type_prim(HL_T_STRING)), "estfrequency", dbl);
  return agg->type != NULL;
}

static hl_expr_t *add_aggregate(binder_t *b, const hl_agg_t *aggp, long pos, const char *name);

/* compute_bit_vector_fm(x, n) and compute_stats(x, 'fm', n): n (argument
 * K), a constant number of bit vectors up to 1024 (NULL: none, as Hive's
 * numeric evaluators take it).  Strings and DECIMAL are not hashed yet:
 * Hive's FMSketch adds String.hashCode() (Hive 4's string evaluator fails
 * before it, reading n without its inspector) and HiveDecimal.hashCode(). */
static bool bind_nvectors(binder_t *b, const hl_ast_expr_t *a, int k, hl_agg_t *agg);

static bool bind_fm_vectors(binder_t *b, const hl_ast_expr_t *a, int k, hl_agg_t *agg) {
  hl_type_id_t id = agg->arg->type->id;
  if (id == HL_T_STRING || id == HL_T_VARCHAR || id == HL_T_CHAR || id == HL_T_DECIMAL) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "%s of %s values is not supported yet", a->name,
                  id == HL_T_DECIMAL ? "DECIMAL" : "string");
    return false;
  }
  return bind_nvectors(b, a, k, agg);
}

/* Argument K of compute_bit_vector_fm / compute_stats: the number of bit
 * vectors into agg->param (0 when there is no argument K). */
static bool bind_nvectors(binder_t *b, const hl_ast_expr_t *a, int k, hl_agg_t *agg) {
  if (k >= a->n_args) return true; /* compute_stats(x, 'fm'): no vectors */
  b->agg_allowed = false;
  hl_expr_t *n = bind_expr(b, a->args[k]);
  b->agg_allowed = true;
  if (!n) return false;
  if (n->kind != HL_EX_CONST || (!n->value.is_null && !hl_type_is_integer(n->type))) {
    hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "%s: the number of bit vectors must be an integer constant", a->name);
    return false;
  }
  int64_t v = n->value.is_null ? 0 : n->value.u.i;
  if (v < 0 || v > 1024) {
    hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "The maximum allowed value for number of bit vectors  is 1024, but was passed "
                  "%lld bit vectors",
                  (long long)v);
    return false;
  }
  agg->param = (double)v;
  return true;
}

/* compute_bit_vector_hll's argument by Hive's column statistics type
 * (ColumnStatsType): integers, FLOAT/DOUBLE, DECIMAL (as a double:
 * HiveDecimal.doubleValue()), DATE, TIMESTAMP and strings; BOOLEAN, BINARY, NULL and complex
 * types are refused as Hive refuses them. */
static bool bind_bitvector_arg(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  const hl_type_t *t = agg->arg->type;
  agg->type = hl_type_prim(HL_T_BINARY);
  if (hl_type_is_complex(t)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "%s: only primitive type arguments are accepted but %s is passed", a->name,
                  type_name(b, t));
    return false;
  }
  switch (t->id) {
  case HL_T_DECIMAL:
    return (agg->arg = cast_to(b, agg->arg, hl_type_prim(HL_T_DOUBLE))) != NULL;
  case HL_T_CHAR: /* hashed without its trailing blanks (op_agg_sketch.c) */
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
  case HL_T_STRING:
  case HL_T_VARCHAR:
    return true;
  default:
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "%s: type argument %s not valid", a->name,
                  t->id == HL_T_NULL ? "void" : type_name(b, t));
    return false;
  }
}

/* compute_stats(x, 'hll'|'fm' [, n]) as Hive 4's GenericUDAFComputeStats:
 * its evaluator by x's type, with the struct that evaluator returns.  The
 * second argument names the distinct-value sketch (case-insensitive, as
 * NumDistinctValueEstimatorFactory reads it); Hive reads it at the first
 * row and fails with "Can not recognize", here it must be a constant and
 * is checked when bound.  The BOOLEAN and BINARY evaluators keep no
 * sketch and never read it, nor n. */
static bool bind_compute_stats(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  agg->kind = HL_AGG_COMPUTE_STATS;
  if (a->n_args < 2 || a->n_args > 3) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "Exactly 2 (col + hll) or 3 (col + fm + #bitvectors) arguments are expected.");
    return false;
  }
  hl_expr_t *args[2];
  if (!bind_plain_agg_args(b, a, agg, 2, args)) return false;
  agg->arg = args[0];
  hl_expr_t *fn = args[1];
  const hl_type_t *t = agg->arg->type, *big = hl_type_prim(HL_T_BIGINT);
  const hl_type_t *str = hl_type_prim(HL_T_STRING), *dbl = hl_type_prim(HL_T_DOUBLE);
  const hl_type_t *bin = hl_type_prim(HL_T_BINARY);
  if (hl_type_is_complex(t)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "Only primitive type arguments are accepted but %s is passed.", type_name(b, t));
    return false;
  }
  if (fn->kind != HL_EX_CONST || fn->value.is_null ||
      (fn->type->id != HL_T_STRING && fn->type->id != HL_T_VARCHAR && fn->type->id != HL_T_CHAR)) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "compute_stats: a second argument other than a constant string ('hll' or 'fm') "
                  "is not supported yet");
    return false;
  }
  if (t->id == HL_T_BOOLEAN) {
    static const char *const names[] = {"columntype", "counttrues", "countfalses", "countnulls"};
    const hl_type_t *types[] = {str, big, big, big};
    return (agg->type = struct_of(b, 4, names, types)) != NULL;
  }
  if (t->id == HL_T_BINARY) {
    static const char *const names[] = {"columntype", "maxlength", "avglength", "countnulls"};
    const hl_type_t *types[] = {str, big, dbl, big};
    return (agg->type = struct_of(b, 4, names, types)) != NULL;
  }
  const hl_type_t *mm; /* min and max; NULL: a string evaluator */
  switch (t->id) {
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
    mm = big;
    break;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    mm = dbl;
    break;
  case HL_T_DECIMAL:
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
    mm = t;
    break;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    mm = NULL;
    break;
  default:
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "Only integer/long/timestamp/date/float/double/string/binary/boolean/decimal "
                  "type argument is accepted but %s is passed.",
                  t->id == HL_T_NULL ? "void" : type_name(b, t));
    return false;
  }
  hl_str_t f = fn->value.u.s;
  bool fm = f.len == 2 && strncasecmp(f.ptr, "fm", 2) == 0;
  if (!fm && !(f.len == 3 && strncasecmp(f.ptr, "hll", 3) == 0)) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "Can not recognize %.*s", (int)f.len, f.ptr);
    return false;
  }
  agg->ip[0] = fm;
  /* Hive checks n against 1024 whichever sketch it makes */
  if (!(fm ? bind_fm_vectors(b, a, 2, agg) : bind_nvectors(b, a, 2, agg))) return false;
  if (t->id == HL_T_DECIMAL && !(agg->arg2 = cast_to(b, agg->arg, dbl))) return false;
  if (mm) {
    static const char *const names[] = {"columntype",        "min",         "max", "countnulls",
                                        "numdistinctvalues", "ndvbitvector"};
    const hl_type_t *types[] = {str, mm, mm, big, big, bin};
    return (agg->type = struct_of(b, 6, names, types)) != NULL;
  }
  static const char *const names[] = {"columntype", "maxlength",         "avglength",
                                      "countnulls", "numdistinctvalues", "ndvbitvector"};
  const hl_type_t *types[] = {str, big, dbl, big, big, bin};
  return (agg->type = struct_of(b, 6, names, types)) != NULL;
}

/* bloom_filter(x, expectedEntries): Hive's planner makes this aggregate
 * for its semijoin reductions and sizes it by a hint (here the constant
 * expectedEntries) capped at hive.tez.max.bloom.filter.entries; without a
 * hint it uses the plan's row count or NDV statistics (with
 * hive.tez.min.bloom.filter.entries and hive.tez.bloom.filter.factor),
 * which hivelite does not reproduce: the one-argument form is 0A000.
 * The filter's shape goes in ip[0] (k) and ip[1] (longs). */
static bool bind_bloom_filter(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  if (a->n_args == 1) {
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "bloom_filter without expectedEntries is not supported yet (Hive sizes that "
                  "filter from its plan's statistics): give bloom_filter(x, expectedEntries)");
    return false;
  }
  if (a->n_args != 2) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "function bloom_filter does not take %d arguments", a->n_args);
    return false;
  }
  hl_expr_t *args[2];
  if (!bind_plain_agg_args(b, a, agg, 2, args)) return false;
  agg->arg = args[0];
  hl_expr_t *n = args[1];
  const hl_type_t *t = agg->arg->type;
  if (hl_type_is_complex(t)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "bloom_filter: the 1st argument must be a primitive type, not %s",
                  type_name(b, t));
    return false;
  }
  if (t->id == HL_T_DECIMAL) { /* as in_bloom_filter: HiveDecimalWritable.toBytes */
    hl_err_set_at(b->err, a->args[0]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "bloom_filter of a DECIMAL value is not supported yet");
    return false;
  }
  if (n->kind != HL_EX_CONST || n->value.is_null || !hl_type_is_integer(n->type) ||
      n->value.u.i <= 0) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "bloom_filter: expectedEntries must be a positive integer constant");
    return false;
  }
  uint64_t max = 0;
  if (hl_session_get_u64(b->s, "hive.tez.max.bloom.filter.entries", 100000000, &max, b->err) !=
      HL_OK)
    return false;
  int64_t entries = n->value.u.i;
  if (max < (uint64_t)entries) entries = (int64_t)max;
  int k = 0;
  uint32_t longs = 0;
  if (hl_hbloom_shape(entries, &k, &longs, b->err) != HL_OK) return false;
  agg->kind = HL_AGG_BLOOM_FILTER;
  agg->ip[0] = k;
  agg->ip[1] = (int32_t)longs;
  agg->type = hl_type_prim(HL_T_BINARY);
  return true;
}

/* Hive 4's approx_distinct(x) (exec/op_agg_approx.c): primitives and
 * structs in Hive; BOOLEAN, BINARY and structs are added by their Java
 * serialization, which hivelite does not reproduce (0A000); DECIMAL is
 * added by its double.  DISTINCT changes nothing in a HyperLogLog. */
static bool bind_hive_approx_distinct(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  if (a->n_args != 1) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "approx_distinct: Function only takes 1 parameter");
    return false;
  }
  b->agg_allowed = false;
  agg->arg = bind_expr(b, a->args[0]);
  b->agg_allowed = true;
  if (!agg->arg) return false;
  const hl_type_t *t = agg->arg->type;
  agg->kind = HL_AGG_HIVE_APPROX_DISTINCT;
  agg->distinct = false;
  agg->type = hl_type_prim(HL_T_BIGINT);
  if (t->id == HL_T_STRUCT || t->id == HL_T_BOOLEAN || t->id == HL_T_BINARY) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "approx_distinct of %s values is not supported yet (Hive hashes their Java "
                  "serialization)",
                  type_name(b, t));
    return false;
  }
  if (hl_type_is_complex(t)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "approx_distinct: Only primitive/struct rows are accepted but %s was passed.",
                  type_name(b, t));
    return false;
  }
  if (t->id == HL_T_DECIMAL) /* HyperLogLog.addToEstimator(HiveDecimal): doubleValue() */
    return (agg->arg = cast_to(b, agg->arg, hl_type_prim(HL_T_DOUBLE))) != NULL;
  return true;
}

/* A type as Hive's ObjectInspector names it in datasketches-hive's
 * argument checks: the primitive category, else the category. */
static const char *hive_category(const hl_type_t *t) {
  static const char *const names[] = {[HL_T_NULL] = "VOID",
                                      [HL_T_BOOLEAN] = "BOOLEAN",
                                      [HL_T_TINYINT] = "BYTE",
                                      [HL_T_SMALLINT] = "SHORT",
                                      [HL_T_INT] = "INT",
                                      [HL_T_BIGINT] = "LONG",
                                      [HL_T_FLOAT] = "FLOAT",
                                      [HL_T_DOUBLE] = "DOUBLE",
                                      [HL_T_DECIMAL] = "DECIMAL",
                                      [HL_T_STRING] = "STRING",
                                      [HL_T_VARCHAR] = "VARCHAR",
                                      [HL_T_CHAR] = "CHAR",
                                      [HL_T_DATE] = "DATE",
                                      [HL_T_TIMESTAMP] = "TIMESTAMP",
                                      [HL_T_BINARY] = "BINARY",
                                      [HL_T_ARRAY] = "LIST",
                                      [HL_T_MAP] = "MAP",
                                      [HL_T_STRUCT] = "STRUCT",
                                      [HL_T_UNION] = "UNION",
                                      [HL_T_INTERVAL_YM] = "INTERVAL_YEAR_MONTH",
                                      [HL_T_INTERVAL_DT] = "INTERVAL_DAY_TIME"};
  return (size_t)t->id < sizeof names / sizeof names[0] && names[t->id] ? names[t->id] : "?";
}

/* datasketches-hive's ObjectInspectorValidator: argument K of A (bound as
 * E) must be of primitive type WANT exactly (no implicit cast). */
static bool ds_arg_is(binder_t *b, const hl_ast_expr_t *a, int k, const hl_expr_t *e,
                      hl_type_id_t want, const char *want_name) {
  const hl_type_t *t = e->type;
  if (t->id == want) return true;
  if (hl_type_is_complex(t))
    hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "%s: Primitive argument expected, but %s was recieved", a->name,
                  hive_category(t));
  else
    hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "%s: %s value expected as the argument %d but %s was received", a->name,
                  want_name, k + 1, hive_category(t));
  return false;
}

/* ds_kll_sketch(FLOAT x [, INT k]) and ds_kll_union(BINARY sketch
 * [, INT k]) (exec/op_agg_ds_kll.c): Hive reads k from the first row
 * with a value; hivelite takes it as a constant (0A000 otherwise). */
static bool bind_ds_kll(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  bool uni = strcmp(a->name, "ds_kll_union") == 0;
  if (a->n_args != 1 && a->n_args != 2) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "%s: One or two arguments expected", a->name);
    return false;
  }
  if (a->distinct) {
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "DISTINCT with %s is not supported yet", a->name);
    return false;
  }
  b->agg_allowed = false;
  agg->arg = bind_expr(b, a->args[0]);
  hl_expr_t *k = agg->arg && a->n_args == 2 ? bind_expr(b, a->args[1]) : NULL;
  b->agg_allowed = true;
  if (!agg->arg || (a->n_args == 2 && !k)) return false;
  if (!ds_arg_is(b, a, 0, agg->arg, uni ? HL_T_BINARY : HL_T_FLOAT, uni ? "BINARY" : "FLOAT"))
    return false;
  agg->ip[0] = HL_DS_KLL_DEFAULT_K;
  if (k) {
    if (!ds_arg_is(b, a, 1, k, HL_T_INT, "INT")) return false;
    if (k->kind != HL_EX_CONST || k->value.is_null) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "%s with a k that is not a constant is not supported yet", a->name);
      return false;
    }
    agg->ip[0] = (int32_t)k->value.u.i;
  }
  agg->kind = uni ? HL_AGG_DS_KLL_UNION : HL_AGG_DS_KLL_SKETCH;
  agg->type = hl_type_prim(HL_T_BINARY);
  return true;
}

/* Argument K (0-based) of a ds_theta aggregate, a constant of the class
 * Hive's ObjectInspectorValidator asks for (FLOAT: floating point, else
 * integral), into *I or *D. */
static bool ds_theta_param(binder_t *b, const hl_ast_expr_t *a, int k, hl_expr_t *e, bool fp,
                           int64_t *i, double *d) {
  const hl_type_t *t = e->type;
  bool ok = fp ? (t->id == HL_T_FLOAT || t->id == HL_T_DOUBLE || t->id == HL_T_DECIMAL)
               : hl_type_is_integer(t);
  if (!ok) {
    hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "Only %s type parameters are expected but %s was passed as parameter %d",
                  fp ? "floating point" : "integral", hive_category(t), k + 1);
    return false;
  }
  if (e->kind != HL_EX_CONST) {
    hl_err_set_at(b->err, a->args[k]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "%s: a parameter that is not a constant is not supported yet", a->name);
    return false;
  }
  if (e->value.is_null) {
    hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "%s: parameter %d must not be NULL", a->name, k + 1);
    return false;
  }
  if (!fp) {
    *i = e->value.u.i;
    return true;
  }
  hl_value_t v;
  if (hl_value_cast(t, &e->value, hl_type_prim(HL_T_DOUBLE), &v, b->arena, b->err) != HL_OK)
    return false;
  *d = v.u.d;
  return true;
}

/* Hive 4's ds_theta_sketch / ds_theta_union / ds_theta_intersect
 * (datasketches-hive's theta DataToSketchUDAF, UnionSketchUDAF,
 * IntersectSketchUDAF; exec/op_agg_ds_theta.c).  The item's type is
 * checked when its first value comes, as UnionState.update does; k, p and
 * the seed when the state is made (util/ds_theta.c).  DISTINCT changes
 * nothing in a set sketch. */
static bool bind_ds_theta(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  bool sk = strcmp(a->name, "ds_theta_sketch") == 0;
  bool un = strcmp(a->name, "ds_theta_union") == 0;
  int max = sk ? 4 : un ? 3 : 2;
  agg->kind = sk ? HL_AGG_DS_THETA_SKETCH : un ? HL_AGG_DS_THETA_UNION : HL_AGG_DS_THETA_INTERSECT;
  agg->type = hl_type_prim(HL_T_BINARY);
  agg->distinct = false;
  agg->ip[0] = HL_DS_THETA_DEFAULT_K;
  agg->param = 1.0;
  agg->lparam = HL_DS_SEED;
  if (a->n_args < 1 || a->n_args > max) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  a->n_args < 1 ? "Please specify at least 1 argument"
                                : "Please specify no more than %d arguments",
                  max);
    return false;
  }
  hl_expr_t *args[4];
  b->agg_allowed = false;
  bool ok = true;
  for (int k = 0; k < a->n_args && ok; k++)
    ok = (args[k] = bind_expr(b, a->args[k])) != NULL;
  b->agg_allowed = true;
  if (!ok) return false;
  agg->arg = args[0];
  const hl_type_t *t = args[0]->type;
  if (hl_type_is_complex(t)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "Primitive parameter expected, but %s was recieved as parameter 1",
                  hive_category(t));
    return false;
  }
  if (!sk && t->id != HL_T_BINARY && t->id != HL_T_NULL) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "BINARY value expected as parameter 1 but %s was received", hive_category(t));
    return false;
  }
  int64_t i = 0;
  double d = 0;
  for (int k = 1; k < a->n_args; k++) {
    /* sketch: k, p, seed; union: k, seed; intersect: seed */
    bool is_seed = (sk && k == 3) || (un && k == 2) || (!sk && !un);
    bool is_p = sk && k == 2;
    if (!ds_theta_param(b, a, k, args[k], is_p, &i, &d)) return false;
    if (is_seed) {
      agg->lparam = i;
    } else if (is_p) {
      agg->param = d;
    } else { /* Java's int: a larger constant wraps, as getInt narrows */
      agg->ip[0] = (int32_t)(uint32_t)(uint64_t)i;
    }
  }
  return true;
}

/* ds_hll_sketch(x [, lgK [, type]]) / ds_hll_union(sketch [, lgK [, type]])
 * (exec/op_agg_ds_hll.c), as datasketches-hive's resolvers check them:
 * lgK an integer constant 4..21 (default 12), type a string constant
 * HLL_4, HLL_6 or HLL_8 (default HLL_4).  Hive checks the values (and
 * rejects a SMALLINT, BOOLEAN, DECIMAL, DATE or TIMESTAMP item) at the
 * first row; here at bind time. */
static bool bind_ds_hll(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  bool uni = strcmp(a->name, "ds_hll_union") == 0;
  if (a->n_args < 1 || a->n_args > 3) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  a->n_args < 1 ? "Please specify at least 1 argument"
                                : "Please specify no more than 3 arguments");
    return false;
  }
  hl_expr_t *args[3];
  if (!bind_plain_agg_args(b, a, agg, a->n_args, args)) return false;
  const hl_type_t *t = args[0]->type;
  hl_type_id_t id = t->id;
  bool ok = uni ? id == HL_T_BINARY || id == HL_T_NULL
                : id == HL_T_TINYINT || id == HL_T_INT || id == HL_T_BIGINT || id == HL_T_FLOAT ||
                      id == HL_T_DOUBLE || hl_type_is_string(t) || id == HL_T_BINARY ||
                      id == HL_T_NULL;
  if (!ok) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  uni ? "%s: the 1st argument must be a binary sketch, not %s"
                      : "%s: Unrecognized input data type %s, please use data of the following "
                        "types: byte, double, float, int, long, char, varchar, string or binary",
                  a->name, type_name(b, t));
    return false;
  }
  agg->arg = args[0];
  agg->ip[0] = HL_DS_HLL_DEFAULT_LGK;
  agg->ip[1] = HL_DS_HLL_4;
  if (a->n_args > 1) {
    hl_expr_t *k = args[1];
    if (k->kind != HL_EX_CONST || !hl_type_is_integer(k->type) || k->value.is_null) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "%s: The second argument must be a constant integer (lgK)", a->name);
      return false;
    }
    if (k->value.u.i < HL_DS_HLL_MIN_LGK || k->value.u.i > HL_DS_HLL_MAX_LGK) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "Log K must be between 4 and 21, inclusive: %lld", (long long)k->value.u.i);
      return false;
    }
    agg->ip[0] = (int32_t)k->value.u.i;
  }
  if (a->n_args > 2) {
    hl_expr_t *ty = args[2];
    if (ty->kind != HL_EX_CONST || !hl_type_is_string(ty->type) || ty->value.is_null) {
      hl_err_set_at(b->err, a->args[2]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "%s: The third argument must be a constant string (HLL_4, HLL_6 or HLL_8)",
                    a->name);
      return false;
    }
    const hl_str_t *s = &ty->value.u.s;
    if ((agg->ip[1] = hl_ds_hll_type_of(s->ptr, s->len)) < 0) {
      hl_err_set_at(b->err, a->args[2]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "No enum constant org.apache.datasketches.hll.TgtHllType.%.*s",
                    (int)(s->len > 64 ? 64 : s->len), s->ptr);
      return false;
    }
  }
  agg->kind = uni ? HL_AGG_DS_HLL_UNION : HL_AGG_DS_HLL_SKETCH;
  agg->type = hl_type_prim(HL_T_BINARY);
  return true;
}

/* ds_quantile_doubles_sketch(x [, k]) / ds_quantile_doubles_union(sketch
 * [, k]) (exec/op_agg_ds_quantiles.c): datasketches-hive checks the
 * argument categories exactly (no implicit cast, ds_arg_is): DOUBLE
 * (BINARY for the union), then INT; an untyped NULL passes.  Java reads k
 * from the first row; hivelite takes a constant. */
static bool bind_ds_quantiles(binder_t *b, const hl_ast_expr_t *a, hl_agg_t *agg) {
  bool un = strcmp(a->name, "ds_quantile_doubles_union") == 0;
  if (a->n_args != 1 && a->n_args != 2) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "One or two arguments expected");
    return false;
  }
  if (a->distinct) { /* Hive sketches the distinct values */
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "DISTINCT with %s is not supported yet", a->name);
    return false;
  }
  b->agg_allowed = false;
  agg->arg = bind_expr(b, a->args[0]);
  hl_expr_t *k = agg->arg && a->n_args == 2 ? bind_expr(b, a->args[1]) : NULL;
  b->agg_allowed = true;
  if (!agg->arg || (a->n_args == 2 && !k)) return false;
  hl_type_id_t want = un ? HL_T_BINARY : HL_T_DOUBLE;
  if (agg->arg->type->id != HL_T_NULL &&
      !ds_arg_is(b, a, 0, agg->arg, want, un ? "BINARY" : "DOUBLE"))
    return false;
  if (k && k->type->id != HL_T_NULL && !ds_arg_is(b, a, 1, k, HL_T_INT, "INT")) return false;
  if (agg->arg->type->id == HL_T_NULL && !(agg->arg = cast_to(b, agg->arg, hl_type_prim(want))))
    return false;
  if (k && (k->kind != HL_EX_CONST)) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "%s with a k that is not a constant is not supported yet", a->name);
    return false;
  }
  agg->kind = HL_AGG_DS_QUANTILES;
  agg->ip[0] = k && !k->value.is_null ? (int32_t)k->value.u.i : 0;
  agg->ip[1] = un;
  agg->type = hl_type_prim(HL_T_BINARY);
  return true;
}

static hl_expr_t *bind_aggregate(binder_t *b, const hl_ast_expr_t *a) {
  if (strcmp(a->name, "grouping") == 0) return bind_grouping(b, a, "grouping");
  if (!b->agg_allowed) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(GROUPING_ERROR),
                  "aggregate functions are not allowed here");
    return NULL;
  }
  hl_agg_t agg;
  memset(&agg, 0, sizeof agg);
  agg.distinct = a->distinct;
  agg.name = a->name;
  if (strcmp(a->name, "count") == 0 && a->n_args == 1 && a->args[0]->kind == HL_AST_STAR) {
    agg.kind = HL_AGG_COUNT_STAR;
    agg.type = hl_type_prim(HL_T_BIGINT);
  } else if (strcmp(a->name, "compute_stats") == 0) {
    if (!bind_compute_stats(b, a, &agg)) return NULL;
  } else if (strcmp(a->name, "bloom_filter") == 0) {
    if (!bind_bloom_filter(b, a, &agg)) return NULL;
  } else if (strcmp(a->name, "approx_distinct") == 0) {
    if (!bind_hive_approx_distinct(b, a, &agg)) return NULL;
  } else if (strcmp(a->name, "ds_hll_sketch") == 0 || strcmp(a->name, "ds_hll_union") == 0) {
    if (!bind_ds_hll(b, a, &agg)) return NULL;
  } else if (strncmp(a->name, "ds_quantile_doubles_", 20) == 0) {
    if (!bind_ds_quantiles(b, a, &agg)) return NULL;
  } else if (strcmp(a->name, "ds_kll_sketch") == 0 || strcmp(a->name, "ds_kll_union") == 0) {
    if (!bind_ds_kll(b, a, &agg)) return NULL;
  } else if (strncmp(a->name, "ds_theta_", 9) == 0) {
    if (!bind_ds_theta(b, a, &agg)) return NULL;
  } else if (strcmp(a->name, "histogram_numeric") == 0 || strcmp(a->name, "ngrams") == 0 ||
             strcmp(a->name, "context_ngrams") == 0) {
    if (!bind_estimator(b, a, &agg)) return NULL;
  } else if (stat_agg(a->name) >= 0 && (stats_aggs_pair(stat_aggs[stat_agg(a->name)].kind) ||
                                        strncmp(a->name, "regr_", 5) == 0)) {
    if (!bind_pair_aggregate(b, a, &agg)) return NULL;
  } else if (stat_agg(a->name) >= 0) {
    agg.kind = stat_aggs[stat_agg(a->name)].kind;
    bool pct = agg.kind == HL_AGG_PERCENTILE || agg.kind == HL_AGG_PERCENTILE_CONT ||
               agg.kind == HL_AGG_PERCENTILE_DISC;
    bool fm = agg.kind == HL_AGG_BITVECTOR_FM;
    if (a->n_args < (pct || fm ? 2 : 1) || a->n_args > (pct ? 3 : fm ? 2 : 1)) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                    "function %s does not take %d arguments", a->name, a->n_args);
      return NULL;
    }
    if (a->distinct && agg.kind != HL_AGG_APPROX_DISTINCT) {
      hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "DISTINCT with %s is not supported yet", a->name);
      return NULL;
    }
    agg.distinct = false;
    b->agg_allowed = false;
    agg.arg = bind_expr(b, a->args[0]);
    b->agg_allowed = true;
    if (!agg.arg) return NULL;
    const hl_type_t *t = agg.arg->type;
    switch (agg.kind) {
    case HL_AGG_COLLECT_LIST:
    case HL_AGG_COLLECT_SET: {
      hl_type_t *arr = hl_arena_zalloc(b->arena, sizeof(*arr));
      hl_type_t **kids = arr ? hl_arena_alloc(b->arena, sizeof(hl_type_t *)) : NULL;
      if (!kids) return hl_err_nomem(b->err), NULL;
      arr->id = HL_T_ARRAY;
      arr->n_children = 1;
      arr->children = kids;
      kids[0] = (hl_type_t *)(t->id == HL_T_NULL ? hl_type_prim(HL_T_STRING) : t);
      agg.type = arr;
      break;
    }
    case HL_AGG_APPROX_DISTINCT:
      agg.type = hl_type_prim(HL_T_BIGINT);
      break;
    case HL_AGG_BITVECTOR_HLL:
      if (!bind_bitvector_arg(b, a, &agg)) return NULL;
      break;
    case HL_AGG_BITVECTOR_FM:
      if (!bind_fm_vectors(b, a, 1, &agg) || !bind_bitvector_arg(b, a, &agg)) return NULL;
      break;
    case HL_AGG_PERCENTILE_CONT:
    case HL_AGG_PERCENTILE_DISC:
      if (!bind_ordered_percentile(b, a, &agg)) return NULL;
      break;
    default: {
      /* numeric statistics work on doubles */
      const hl_type_t *nt = numeric_operand(b, t, a->args[0]->pos);
      if (!nt || !(agg.arg = cast_to(b, agg.arg, hl_type_prim(HL_T_DOUBLE)))) return NULL;
      agg.type = hl_type_prim(HL_T_DOUBLE);
      if (agg.kind == HL_AGG_PERCENTILE) {
        b->agg_allowed = false; /* percentile(x, sum(y)) is not a constant */
        bool ok = bind_percentiles(b, a, &agg);
        b->agg_allowed = true;
        if (!ok) return NULL;
      }
      break;
    }
    }
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
      /* $sum0: Calcite's SUM over no values 0 (Hive's GenericUDAFSumEmptyIsZero) */
      agg.kind = a->name[0] == 'a' ? HL_AGG_AVG : HL_AGG_SUM;
      agg.empty_zero = a->name[0] == '$';
      const hl_type_t *nt = numeric_operand(b, t, a->args[0]->pos);
      if (!nt) return NULL;
      if (nt->id == HL_T_DECIMAL) {
        agg.arg = cast_to(b, agg.arg, nt);
        agg.type =
            agg.kind == HL_AGG_SUM
                ? decimal_result(b, nt->precision + 10 > 38 ? 38 : nt->precision + 10, nt->scale)
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
  return add_aggregate(b, &agg, a->pos, a->name);
}

/* Appends AGG to the plan's aggregates: the reference to its result. */
static hl_expr_t *add_aggregate(binder_t *b, const hl_agg_t *aggp, long pos, const char *name) {
  hl_plan_t *plan = b->plan;
  hl_agg_t agg = *aggp;
  if (plan->n_aggs == b->agg_cap) {
    int cap = b->agg_cap ? b->agg_cap * 2 : 4;
    hl_agg_t *n = hl_arena_realloc(b->arena, plan->aggs, sizeof(hl_agg_t) * (size_t)b->agg_cap,
                                   sizeof(hl_agg_t) * (size_t)cap);
    if (!n) return hl_err_nomem(b->err), NULL;
    plan->aggs = n;
    b->agg_cap = cap;
  }
  plan->aggs[plan->n_aggs] = agg;
  hl_expr_t *ref = new_expr(b, HL_EX_COLUMN, agg.type, pos);
  if (!ref) return NULL;
  ref->col = plan->n_group + plan->n_aggs++;
  ref->out_ref = true;
  ref->col_name =
      hl_arena_sprintf(b->arena, "%s(%s)", name, agg.kind == HL_AGG_COUNT_STAR ? "*" : "...");
  return ref;
}

/* grouping(c, ...) over the GROUP BY expressions C names (NULL: all of
 * them, which is GROUPING__ID), as Hive's GenericUDFGrouping: BIGINT,
 * the first argument the highest bit.  Each argument must be a GROUP BY
 * expression (42803). */
static hl_expr_t *bind_grouping(binder_t *b, const hl_ast_expr_t *a, const char *name) {
  hl_plan_t *plan = b->plan;
  if (plan->n_group == 0 || !b->agg_allowed) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(GROUPING_ERROR), "%s needs a GROUP BY clause",
                  name);
    return NULL;
  }
  hl_agg_t agg;
  memset(&agg, 0, sizeof agg);
  agg.kind = HL_AGG_GROUPING;
  agg.name = name;
  agg.type = hl_type_prim(HL_T_BIGINT);
  int n = a->kind == HL_AST_FUNC ? a->n_args : plan->n_group;
  if (n == 0 || a->distinct) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "grouping takes one or more GROUP BY expressions");
    return NULL;
  }
  int *idx = hl_arena_alloc(b->arena, sizeof(int) * (size_t)n);
  if (!idx) return hl_err_nomem(b->err), NULL;
  for (int j = 0; j < n; j++) {
    idx[j] = a->kind == HL_AST_FUNC ? -1 : j;
    if (idx[j] >= 0) continue;
    b->agg_allowed = false;
    hl_expr_t *e = bind_expr(b, a->args[j]);
    b->agg_allowed = true;
    if (!e) return NULL;
    for (int g = 0; g < plan->n_group && idx[j] < 0; g++)
      if (expr_equal(e, plan->group_exprs[g])) idx[j] = g;
    if (idx[j] < 0) {
      hl_err_set_at(b->err, a->args[j]->pos, HL_ERROR, HL_SS(GROUPING_ERROR),
                    "the arguments of grouping must be GROUP BY expressions");
      return NULL;
    }
  }
  agg.group_idx = idx;
  agg.n_group_idx = n;
  return add_aggregate(b, &agg, a->pos, name);
}

static hl_expr_t *arg_error(binder_t *b, const hl_ast_expr_t *a, int k, const char *what) {
  hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                "argument %d of %s must be %s", k + 1, a->name, what);
  return NULL;
}

static void free_regex_cb(void *p) {
  regfree((regex_t *)p);
}

/* The groups of the operating-system user (the one current_user() names):
 * Hive's default authenticator asks Hadoop's group mapping, which on Unix
 * lists the primary group, then the others, each once.  Into E's state, an
 * ARRAY<STRING> value that hl_fn_current_groups returns on every row. */
static hl_expr_t *bind_current_groups(binder_t *b, hl_expr_t *e) {
  hl_value_t *list = hl_arena_zalloc(b->arena, sizeof *list);
  if (!list) return hl_err_nomem(b->err), NULL;
  struct passwd pw, *res = NULL;
  char buf[1024];
  if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &res) != 0 || !res) {
    /* no passwd entry: no user name to ask about, and no groups */
    e->state = list;
    return e;
  }
  int n = 64;
  gid_t *gids = NULL;
  for (int tries = 0; tries < 8; tries++) {
    int want = n;
    if (!(gids = hl_arena_alloc(b->arena, sizeof(gid_t) * (size_t)want)))
      return hl_err_nomem(b->err), NULL;
    if (getgrouplist(res->pw_name, res->pw_gid, gids, &n) >= 0) break;
    if (n <= want) n = want * 2; /* glibc reports the count it needs */
    gids = NULL;
  }
  if (!gids) n = 0;
  hl_value_t *items = hl_arena_zalloc(b->arena, sizeof(hl_value_t) * (size_t)(n + 1));
  if (!items) return hl_err_nomem(b->err), NULL;
  uint32_t count = 0;
  for (int k = -1; k < n; k++) {
    gid_t g = k < 0 ? res->pw_gid : gids[k];
    if (k >= 0 && g == res->pw_gid) continue;
    struct group gr, *gres = NULL;
    char gbuf[4096];
    char num[24];
    const char *name = num;
    if (getgrgid_r(g, &gr, gbuf, sizeof gbuf, &gres) == 0 && gres)
      name = gres->gr_name;
    else
      snprintf(num, sizeof num, "%u", (unsigned)g);
    bool seen = false;
    for (uint32_t j = 0; j < count && !seen; j++)
      seen = strcmp(items[j].u.s.ptr, name) == 0;
    if (seen) continue;
    char *copy = hl_arena_strdup(b->arena, name);
    if (!copy) return hl_err_nomem(b->err), NULL;
    items[count].u.s.ptr = copy;
    items[count].u.s.len = (uint32_t)strlen(copy);
    count++;
  }
  list->u.list.n = count;
  list->u.list.items = items;
  e->state = list;
  return e;
}

static hl_expr_t *kind_error(binder_t *b, const hl_ast_expr_t *a, int k, const char *what,
                             const hl_type_t *t);

/* format_number(x, d | 'pattern') (Hive's GenericUDFFormatNumber): x a
 * number (or NULL), d an integer or a DecimalFormat pattern string; a
 * constant pattern is parsed here, once. */
static hl_expr_t *bind_format_number(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const hl_type_t *xt = e->args[0]->type, *pt = e->args[1]->type;
  if (!hl_type_is_numeric(xt) && xt->id != HL_T_NULL) return kind_error(b, a, 0, "a number", xt);
  if (xt->id == HL_T_NULL && !(e->args[0] = cast_to(b, e->args[0], hl_type_prim(HL_T_DOUBLE))))
    return NULL;
  if (hl_type_is_string(pt)) {
    if (!(e->args[1] = cast_to(b, e->args[1], hl_type_prim(HL_T_STRING)))) return NULL;
    const hl_expr_t *c = e->args[1];
    if (c->kind == HL_EX_CONST && !c->value.is_null) {
      hl_decfmt_t *f = hl_arena_zalloc(b->arena, sizeof *f);
      if (!f) return hl_err_nomem(b->err), NULL;
      if (hl_decfmt_parse(c->value.u.s.ptr, c->value.u.s.len, b->arena, a->args[1]->pos, f,
                          b->err) != HL_OK)
        return NULL;
      e->state = f;
    }
  } else if (hl_type_is_integer(pt) || pt->id == HL_T_NULL) {
    if (!(e->args[1] = cast_to(b, e->args[1], hl_type_prim(HL_T_BIGINT)))) return NULL;
  } else {
    return kind_error(b, a, 1, "an integer or a format pattern", pt);
  }
  e->type = hl_type_prim(HL_T_STRING);
  return e;
}

/* CAST(x AS type FORMAT 'template') (Hive's GenericUDFCastFormat): a
 * string (STRING, VARCHAR, CHAR; CHAR's pad dropped) parsed as a DATE or
 * TIMESTAMP, or a DATE or TIMESTAMP formatted as a STRING, VARCHAR(n) or
 * CHAR(n); a NULL literal goes either way.  The template, a string
 * literal, is compiled here once (func_sqldt.c), for parsing when the
 * target is a datetime. */
static hl_expr_t *bind_cast_format(binder_t *b, const hl_ast_expr_t *a) {
  const hl_type_t *to = a->cast_type;
  hl_expr_t *x = bind_expr(b, a->args[0]);
  if (!x) return NULL;
  bool to_dt = to->id == HL_T_DATE || to->id == HL_T_TIMESTAMP;
  if (!to_dt && !hl_type_is_string(to)) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "CAST ... FORMAT converts only to DATE, TIMESTAMP, STRING, VARCHAR or CHAR, "
                  "not %s",
                  type_name(b, to));
    return NULL;
  }
  const hl_type_t *xt = x->type;
  bool from_dt = xt->id == HL_T_DATE || xt->id == HL_T_TIMESTAMP;
  if (xt->id != HL_T_NULL && !(to_dt ? hl_type_is_string(xt) : from_dt)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "CAST ... FORMAT converts only datetime values to string types and string "
                  "values to datetime types, not %s to %s",
                  type_name(b, xt), type_name(b, to));
    return NULL;
  }
  /* a CHAR stays one: func_sqldt.c drops its pad, as Hive's getStrippedValue */
  if (xt->id == HL_T_NULL) x = cast_to(b, x, hl_type_prim(to_dt ? HL_T_STRING : HL_T_TIMESTAMP));
  hl_expr_t *pat = x ? bind_expr(b, a->args[1]) : NULL;
  if (!pat) return NULL;
  hl_sqldt_t *f = NULL;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (hl_sqldt_compile(pat->value.u.s.ptr, pat->value.u.s.len, to_dt, (int64_t)ts.tv_sec / 86400,
                       b->arena, a->args[1]->pos, &f, b->err) != HL_OK)
    return NULL;
  hl_expr_t *e = new_expr(b, HL_EX_FUNC, to_dt ? to : hl_type_prim(HL_T_STRING), a->pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->fn = &hl_func_cast_format;
  e->args[0] = x;
  e->args[1] = pat;
  e->state = f;
  /* VARCHAR(n) / CHAR(n): the formatted string truncated or padded */
  return to_dt || to->id == HL_T_STRING ? e : cast_to(b, e, to);
}

/* Largest file in_file reads: its lines are held for the statement. */
#define MAX_IN_FILE ((uint64_t)16 << 20)

/* in_file(str, filename) (Hive's GenericUDFInFile): both STRING (Hive
 * takes nothing that is not a Java String: no VARCHAR, CHAR or NULL
 * literal), the name a constant.  The file (an absolute path or a file:
 * URL, or any location the storage router reads) is checked against the
 * location allowlist and read here, once, into the call's state. */
static hl_expr_t *bind_in_file(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  for (int k = 0; k < 2; k++)
    if (e->args[k]->type->id != HL_T_STRING)
      return kind_error(b, a, k, "a STRING", e->args[k]->type);
  e->type = hl_type_prim(HL_T_BOOLEAN);
  const hl_expr_t *name = e->args[1];
  if (name->kind != HL_EX_CONST) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "the second argument of in_file must be a constant string");
    return NULL;
  }
  if (name->value.is_null) return e; /* every row NULL, no file read */
  const char *url = hl_arena_strndup(b->arena, name->value.u.s.ptr, name->value.u.s.len);
  if (!url) return hl_err_nomem(b->err), NULL;
  const char *path = strncmp(url, "file://", 7) == 0 ? url + 7
                     : strncmp(url, "file:", 5) == 0 ? url + 5
                                                     : url;
  if (path[0] != '/' && !strstr(path, "://")) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "the file of in_file \"%s\" must be an absolute path", url);
    return NULL;
  }
  if (hl_loc_allow_check(b->s, path, "the file of in_file", b->err) != HL_OK) return NULL;
  hl_stor_t *fs = b->s->fs;
  hl_stor_file_t *f = NULL;
  if (fs->ops->open_read(fs, path, &f, b->err) != HL_OK) return NULL;
  uint64_t size = fs->ops->file_size(f);
  char *buf = NULL;
  size_t got = 0;
  hl_status_t rc = HL_OK;
  if (size > MAX_IN_FILE)
    rc = hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                       "the file of in_file \"%s\" is larger than 16 MiB", url);
  else if (!(buf = hl_arena_alloc(b->arena, (size_t)size + 1)))
    rc = hl_err_nomem(b->err);
  else
    rc = fs->ops->read_at(f, 0, buf, (size_t)size, &got, b->err);
  hl_error_t cerr;
  hl_err_init(&cerr);
  fs->ops->close(f, &cerr);
  hl_err_clear(&cerr);
  if (rc != HL_OK) return NULL;
  hl_line_set_t *set = hl_arena_zalloc(b->arena, sizeof *set);
  if (!set) return hl_err_nomem(b->err), NULL;
  if (hl_line_set_build(b->arena, buf, got, set, b->err) != HL_OK) return NULL;
  e->state = set;
  return e;
}

/* The text of a session-valued function (current_user, current_database,
 * current_schema, logged_in_user, version), in the binder's arena. */
/* the compiler of this build, for buildversion() */
#if defined(__clang__)
#define HL_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define HL_COMPILER "gcc " __VERSION__
#else
#define HL_COMPILER "a C11 compiler"
#endif

static const char *session_value(binder_t *b, const char *name) {
  const char *v;
  char user[256];
  if (strcmp(name, "version") == 0) {
    v = HIVELITE_VERSION;
  } else if (strcmp(name, "buildversion") == 0) {
    /* Hive's "<version> from <revision> by <user> source checksum <sum>"
     * names its build; hivelite's build knows its version and compiler */
    v = HIVELITE_VERSION " built by " HL_COMPILER;
  } else if (strcmp(name, "current_database") == 0 || strcmp(name, "current_schema") == 0) {
    v = b->s->current_db ? b->s->current_db : "default";
  } else if (strcmp(name, "current_catalog") == 0) {
    v = hl_catalogs_current(b->s);
  } else {
    /* the operating-system user: hivelite has no authenticated one */
    struct passwd pw, *res = NULL;
    char buf[1024];
    const char *env = getenv("USER");
    if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &res) == 0 && res)
      snprintf(user, sizeof user, "%s", res->pw_name);
    else
      snprintf(user, sizeof user, "%s", env ? env : "");
    v = user;
  }
  char *copy = hl_arena_strdup(b->arena, v);
  if (!copy) hl_err_nomem(b->err);
  return copy;
}

/* Whether every map key inside T is primitive (HiveJsonReader reads keys
 * only into primitives). */
static bool primitive_keys(const hl_type_t *t) {
  if (t->id == HL_T_MAP && hl_type_is_complex(t->children[0])) return false;
  for (int k = 0; k < t->n_children; k++)
    if (!primitive_keys(t->children[k])) return false;
  return true;
}

/* json_read(json, 'type'): the text of any primitive, typed by the
 * constant type string, parsed here once (Hive: at initialize). */
static hl_expr_t *bind_json_read(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  if (hl_type_is_complex(e->args[0]->type)) return arg_error(b, a, 0, "a primitive value");
  if (!(e->args[0] = cast_to(b, e->args[0], hl_type_prim(HL_T_STRING)))) return NULL;
  const hl_expr_t *t = e->args[1];
  if (t->kind != HL_EX_CONST || !hl_type_is_string(t->type) || t->value.is_null)
    return arg_error(b, a, 1, "a constant string");
  if (memchr(t->value.u.s.ptr, 0, t->value.u.s.len)) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "json_read: Error parsing typestring: a NUL character");
    return NULL;
  }
  char *text = hl_json_read_type_text(b->arena, t->value.u.s.ptr, t->value.u.s.len);
  if (!text) return hl_err_nomem(b->err), NULL;
  hl_type_t *type = NULL;
  hl_error_t perr;
  hl_err_init(&perr);
  if (hl_type_parse_str(b->arena, text, &type, &perr) != HL_OK) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "json_read: Error parsing typestring: %s", perr.message);
    hl_err_clear(&perr);
    return NULL;
  }
  if (!primitive_keys(type)) {
    hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "json_read: Map key must be a primitive type");
    return NULL;
  }
  e->type = type;
  return e;
}

/* Types a call from its function's signature string (exec/func_int.h). */
static hl_expr_t *bind_by_signature(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const char *sig = e->fn->sig, *codes = sig + 1;
  int n_codes = (int)strlen(codes);
  const hl_type_t *common = hl_type_prim(HL_T_NULL);
  for (int k = 0; k < e->n_args; k++)
    if (codes[k < n_codes ? k : n_codes - 1] == 'c' &&
        !(common = common_type(b, common, e->args[k]->type, a->args[k]->pos)))
      return NULL;
  for (int k = 0; k < e->n_args; k++) {
    char code = codes[k < n_codes ? k : n_codes - 1];
    hl_expr_t *x = e->args[k];
    const hl_type_t *t = x->type, *to = NULL;
    bool is_null = t->id == HL_T_NULL;
    switch (code) {
    case 's':
      if (hl_type_is_complex(t)) return arg_error(b, a, k, "a primitive value");
      to = hl_type_prim(HL_T_STRING);
      break;
    case 'i':
    case 'l':
      if (!hl_type_is_numeric(t) && !hl_type_is_string(t) && !is_null)
        return arg_error(b, a, k, "a number");
      to = hl_type_prim(code == 'i' ? HL_T_INT : HL_T_BIGINT);
      break;
    case 'd':
      if (!hl_type_is_numeric(t) && !hl_type_is_string(t) && !is_null)
        return arg_error(b, a, k, "a number");
      to = hl_type_prim(HL_T_DOUBLE);
      break;
    case 'n':
      if (!(to = numeric_operand(b, t, a->args[k]->pos))) return NULL;
      break;
    case 'F': /* a Java float parameter: Hive widens integers, never narrows a DOUBLE */
      if (!hl_type_is_integer(t) && t->id != HL_T_FLOAT && !is_null)
        return arg_error(b, a, k, "a FLOAT or an integer (CAST a DOUBLE AS FLOAT)");
      to = hl_type_prim(HL_T_FLOAT);
      break;
    case 'b':
      if (!(e->args[k] = to_bool(b, x))) return NULL;
      continue;
    case 'D':
    case 'T':
    case 't':
      if (t->id == HL_T_DATE || t->id == HL_T_TIMESTAMP) {
        to = code == 'D' ? hl_type_prim(HL_T_DATE) : code == 'T' ? hl_type_prim(HL_T_TIMESTAMP) : t;
      } else if (hl_type_is_string(t) || is_null) {
        to = hl_type_prim(code == 'D' ? HL_T_DATE : HL_T_TIMESTAMP);
      } else {
        return arg_error(b, a, k, "a date, a timestamp or a string");
      }
      break;
    case 'c':
      to = common;
      break;
    case 'B':
      if (hl_type_is_complex(t)) return arg_error(b, a, k, "a string or a binary value");
      to = hl_type_prim(HL_T_BINARY);
      break;
    case 'w':
      if (!hl_type_is_integer(t) && !is_null) return arg_error(b, a, k, "an integer");
      to = hl_type_prim(t->id == HL_T_BIGINT ? HL_T_BIGINT : HL_T_INT);
      break;
    case 'S':
      if (t->id == HL_T_ARRAY) {
        if (!hl_type_is_string(t->children[0]) && t->children[0]->id != HL_T_NULL)
          return arg_error(b, a, k, "a string or an array of strings");
        continue;
      }
      if (hl_type_is_complex(t)) return arg_error(b, a, k, "a string or an array of strings");
      to = hl_type_prim(HL_T_STRING);
      break;
    case 'I':
      if (hl_type_is_integer(t)) continue;
      if (hl_type_is_complex(t)) return arg_error(b, a, k, "a primitive value");
      to = hl_type_prim(HL_T_STRING);
      break;
    default:
      continue; /* '*': as is */
    }
    if (!(e->args[k] = cast_to(b, x, to))) return NULL;
  }
  switch (sig[0]) {
  case 's':
    e->type = hl_type_prim(HL_T_STRING);
    break;
  case 'i':
    e->type = hl_type_prim(HL_T_INT);
    break;
  case 'l':
    e->type = hl_type_prim(HL_T_BIGINT);
    break;
  case 'd':
    e->type = hl_type_prim(HL_T_DOUBLE);
    break;
  case 'f':
    e->type = hl_type_prim(HL_T_FLOAT);
    break;
  case 'h':
    e->type = hl_type_prim(HL_T_SMALLINT);
    break;
  case 'b':
    e->type = hl_type_prim(HL_T_BOOLEAN);
    break;
  case 'D':
    e->type = hl_type_prim(HL_T_DATE);
    break;
  case 'T':
    e->type = hl_type_prim(HL_T_TIMESTAMP);
    break;
  case 'c':
    e->type = common->id == HL_T_NULL ? hl_type_prim(HL_T_STRING) : common;
    break;
  case 'n':
  case 'w':
  case 'I':
    e->type = e->n_args ? e->args[0]->type : hl_type_prim(HL_T_DOUBLE);
    break;
  case 'B':
    e->type = hl_type_prim(HL_T_BINARY);
    break;
  case 'M': {
    hl_type_t *map = hl_arena_zalloc(b->arena, sizeof(*map));
    hl_type_t **kids = map ? hl_arena_alloc(b->arena, 2 * sizeof(hl_type_t *)) : NULL;
    if (!kids) return hl_err_nomem(b->err), NULL;
    map->id = HL_T_MAP;
    map->n_children = 2;
    map->children = kids;
    kids[0] = kids[1] = (hl_type_t *)hl_type_prim(HL_T_STRING);
    e->type = map;
    break;
  }
  case 'A':
  case 'Y':
  case 'E':
  case 'G': {
    /* ARRAY<STRING>; 'Y': an array of those; 'E' ARRAY<DOUBLE>, 'G' ARRAY<FLOAT> */
    const hl_type_t *elem = hl_type_prim(sig[0] == 'E'   ? HL_T_DOUBLE
                                         : sig[0] == 'G' ? HL_T_FLOAT
                                                         : HL_T_STRING);
    for (int depth = sig[0] == 'Y' ? 2 : 1; depth > 0; depth--) {
      hl_type_t *arr = hl_arena_zalloc(b->arena, sizeof(*arr));
      hl_type_t **kids = arr ? hl_arena_alloc(b->arena, sizeof(hl_type_t *)) : NULL;
      if (!kids) return hl_err_nomem(b->err), NULL;
      arr->id = HL_T_ARRAY;
      arr->n_children = 1;
      arr->children = kids;
      kids[0] = (hl_type_t *)elem;
      elem = arr;
    }
    e->type = elem;
    break;
  }
  }
  const char *n = e->fn->name;
  /* the statement's clock: one value for the whole statement */
  if (strcmp(n, "current_date") == 0 || strcmp(n, "current_timestamp") == 0 ||
      (strcmp(n, "unix_timestamp") == 0 && e->n_args == 0)) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t micros = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    hl_expr_t *c = new_expr(b, HL_EX_CONST, e->type, e->pos);
    if (!c) return NULL;
    if (n[8] == 'd')
      c->value.u.i = micros / 86400000000LL;
    else if (n[0] == 'u')
      c->value.u.i = (int64_t)ts.tv_sec;
    else
      c->value.u.i = micros;
    return c;
  }
  if (strcmp(n, "current_groups") == 0) return bind_current_groups(b, e);
  if ((e->fn->impl == hl_fn_encode || e->fn->impl == hl_fn_decode) &&
      e->args[1]->kind == HL_EX_CONST) {
    /* Hive looks a constant character set up when it compiles the call */
    const hl_value_t *cv = &e->args[1]->value;
    if (cv->is_null) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                    "the character set of %s is NULL", n);
      return NULL;
    }
    if (hl_fn_charset_check(cv->u.s.ptr, cv->u.s.len, a->args[1]->pos, b->err) != HL_OK)
      return NULL;
  }
  if (strcmp(n, "restrict_information_schema") == 0) {
    /* Hive restricts the information schema only under an authorizer with
     * a policy provider (Ranger); hivelite has none */
    hl_expr_t *c = new_expr(b, HL_EX_CONST, e->type, e->pos);
    if (c) c->value.u.b = false;
    return c;
  }
  if (strcmp(n, "current_authorizer") == 0) {
    /* Hive's answer when no authorizer with a policy provider (Ranger) is
     * configured, and hivelite has none */
    hl_expr_t *c = new_expr(b, HL_EX_CONST, e->type, e->pos);
    if (c) c->value.is_null = true;
    return c;
  }
  if (strcmp(n, "current_user") == 0 || strcmp(n, "current_database") == 0 ||
      strcmp(n, "current_schema") == 0 || strcmp(n, "logged_in_user") == 0 ||
      strcmp(n, "version") == 0 || strcmp(n, "current_catalog") == 0 ||
      strcmp(n, "buildversion") == 0) {
    /* session values: one constant for the statement */
    const char *text = session_value(b, n);
    if (!text) return NULL;
    hl_expr_t *c = new_expr(b, HL_EX_CONST, e->type, e->pos);
    if (!c) return NULL;
    c->value.u.s.ptr = text;
    c->value.u.s.len = (uint32_t)strlen(text);
    return c;
  }
  if (strcmp(n, "add_months") == 0 && e->n_args == 3) e->type = hl_type_prim(HL_T_STRING);
  if (strcmp(n, "murmur_hash") == 0)
    for (int k = 0; k < e->n_args; k++)
      if (!hl_fn_murmur_supported(e->args[k]->type)) {
        hl_err_set_at(b->err, a->args[k]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "murmur_hash of %s is not supported yet", type_name(b, e->args[k]->type));
        return NULL;
      }
  if (strcmp(n, "unix_timestamp") == 0 || strcmp(n, "to_unix_timestamp") == 0) {
    const hl_type_t *t = e->args[0]->type;
    if (!hl_type_is_string(t) && t->id != HL_T_DATE && t->id != HL_T_TIMESTAMP &&
        t->id != HL_T_NULL)
      return arg_error(b, a, 0, "a date, a timestamp or a string");
  }
  /* constant regular expressions compile once */
  if ((strcmp(n, "regexp_extract") == 0 || strcmp(n, "regexp_replace") == 0 ||
       strcmp(n, "split") == 0) &&
      e->args[1]->kind == HL_EX_CONST && !e->args[1]->value.is_null) {
    regex_t *re = hl_arena_alloc(b->arena, sizeof(regex_t));
    if (!re) return hl_err_nomem(b->err), NULL;
    const hl_str_t *pat = &e->args[1]->value.u.s;
    if (hl_regex_compile(re, pat->ptr, pat->len, false, b->arena, a->args[1]->pos, b->err) != HL_OK)
      return NULL;
    if (hl_arena_on_reset(b->arena, free_regex_cb, re) != 0) {
      regfree(re);
      return hl_err_nomem(b->err), NULL;
    }
    e->regex = re;
  }
  /* from/to_utc_timestamp: a constant zone is read once */
  if ((e->fn->impl == hl_fn_from_utc_timestamp || e->fn->impl == hl_fn_to_utc_timestamp) &&
      e->args[1]->kind == HL_EX_CONST && !e->args[1]->value.is_null) {
    const hl_str_t *z = &e->args[1]->value.u.s;
    char *name = hl_arena_strndup(b->arena, z->ptr, z->len);
    if (!name) return hl_err_nomem(b->err), NULL;
    if (hl_tz_load(name, b->arena, &e->tz, b->err) != HL_OK) return NULL;
    e->tz_const = true;
  }
  return e;
}

/* round/bround(x[, d]) keep x's type (a DECIMAL's scale becomes d);
 * floor/ceil give BIGINT, or DECIMAL(p-s+1, 0) for a DECIMAL. */
static hl_expr_t *bind_rounding(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const hl_type_t *t = numeric_operand(b, e->args[0]->type, a->args[0]->pos);
  if (!t || !(e->args[0] = cast_to(b, e->args[0], t))) return NULL;
  bool rounding = e->fn->name[0] == 'r' || e->fn->name[0] == 'b';
  if (!rounding) {
    if (t->id == HL_T_DECIMAL) {
      int p = t->precision - t->scale + 1;
      e->type = hl_type_decimal(b->arena, p > 38 ? 38 : p < 1 ? 1 : p, 0);
      if (!e->type) return hl_err_nomem(b->err), NULL;
    } else {
      e->type = hl_type_prim(HL_T_BIGINT);
      if (hl_type_is_integer(t) && !(e->args[0] = cast_to(b, e->args[0], e->type))) return NULL;
    }
    return e;
  }
  int d = 0;
  if (e->n_args > 1) {
    hl_expr_t *x = e->args[1];
    if (x->kind != HL_EX_CONST || !hl_type_is_integer(x->type) || x->value.is_null)
      return arg_error(b, a, 1, "an integer constant");
    d = x->value.u.i > 38 ? 38 : x->value.u.i < -38 ? -38 : (int)x->value.u.i;
    if (!(e->args[1] = cast_to(b, x, hl_type_prim(HL_T_BIGINT)))) return NULL;
  }
  if (t->id == HL_T_DECIMAL) {
    int scale = d < 0 ? 0 : d < t->scale ? d : t->scale;
    int p = t->precision - t->scale + scale + 1;
    e->type = hl_type_decimal(b->arena, p > 38 ? 38 : p, scale);
    if (!e->type) return hl_err_nomem(b->err), NULL;
  } else {
    e->type = t;
  }
  return e;
}

/* Window results are referenced as out_ref columns WIN_MARK + k until the
 * window operator's input width is known (fix_window_refs). */
#define WIN_MARK (1 << 24)

static hl_expr_t *bind_window(binder_t *b, const hl_ast_expr_t *a) {
  const hl_ast_window_t *w = a->window;
  if (!b->win_allowed) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(GROUPING_ERROR),
                  "window functions are not allowed here");
    return NULL;
  }
  hl_window_t win;
  memset(&win, 0, sizeof win);
  win.name = a->name;
  static const struct {
    const char *name;
    hl_win_kind_t kind;
    int min_args, max_args;
  } fns[] = {
      {"row_number", HL_WIN_ROW_NUMBER, 0, 0},
      {"rank", HL_WIN_RANK, 0, 0},
      {"dense_rank", HL_WIN_DENSE_RANK, 0, 0},
      {"percent_rank", HL_WIN_PERCENT_RANK, 0, 0},
      {"cume_dist", HL_WIN_CUME_DIST, 0, 0},
      {"ntile", HL_WIN_NTILE, 1, 1},
      {"lag", HL_WIN_LAG, 1, 3},
      {"lead", HL_WIN_LEAD, 1, 3},
      {"first_value", HL_WIN_FIRST_VALUE, 1, 2},
      {"last_value", HL_WIN_LAST_VALUE, 1, 2},
  };
  int found = -1;
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (strcmp(fns[i].name, a->name) == 0) found = (int)i;
  bool is_agg = found < 0 && is_aggregate_name(a->name);
  hl_expr_t *result = NULL;
  if (a->mp_pattern) { /* plan/ptf.c's matchpath(array(symbols), row) */
    b->win_allowed = false;
    win.kind = HL_WIN_MATCHPATH;
    win.mp = a->mp_pattern;
    if (!(win.arg = bind_expr(b, a->args[0])) || !(win.deflt = bind_expr(b, a->args[1]))) goto done;
    if (win.arg->type->children[0]->id != HL_T_BOOLEAN) {
      hl_err_set_at(b->err, a->args[0]->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "a matchpath symbol's expression must be BOOLEAN, not %s",
                    type_name(b, win.arg->type->children[0]));
      goto done;
    }
    if (!(win.type = array_of(b, win.deflt->type))) goto done;
    goto window_spec;
  }
  if (found < 0 && !is_agg) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "window function %s does not exist", a->name);
    return NULL;
  }
  if (a->distinct) {
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "DISTINCT in a window function is not supported yet");
    return NULL;
  }
  /* arguments, partitions and order keys are ordinary expressions; they
   * may use aggregates of the query (rank() OVER (ORDER BY sum(x))) */
  b->win_allowed = false;
  if (is_agg) {
    win.kind = HL_WIN_AGG;
    /* bind like a plain aggregate, then take its definition back out */
    int n_before = b->plan->n_aggs;
    bool saved_agg = b->agg_allowed;
    b->agg_allowed = true;
    hl_expr_t *ref = bind_aggregate(b, a);
    b->agg_allowed = saved_agg;
    if (!ref) goto done;
    hl_agg_t *ag = &b->plan->aggs[n_before];
    bool est = ag->kind == HL_AGG_HISTOGRAM || ag->kind == HL_AGG_NGRAMS ||
               ag->kind == HL_AGG_CONTEXT_NGRAMS;
    if ((ag->kind > HL_AGG_AVG && !est) || ag->arg2) {
      hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "%s as a window function is not supported yet", a->name);
      b->plan->n_aggs = n_before;
      goto done;
    }
    win.agg = ag->kind;
    win.empty_zero = ag->empty_zero;
    if (est) { /* the parameters outlive the slot, which the next aggregate reuses */
      hl_agg_t *copy = hl_arena_alloc(b->arena, sizeof *copy);
      if (!copy) {
        hl_err_nomem(b->err);
        b->plan->n_aggs = n_before;
        goto done;
      }
      *copy = *ag;
      win.est = copy;
    }
    win.arg = ag->arg;
    win.type = ag->type;
    b->plan->n_aggs = n_before; /* not a query aggregate */
  } else {
    win.kind = fns[found].kind;
    if (a->n_args < fns[found].min_args || a->n_args > fns[found].max_args) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                    "function %s does not take %d arguments", a->name, a->n_args);
      goto done;
    }
    switch (win.kind) {
    case HL_WIN_ROW_NUMBER:
    case HL_WIN_RANK:
    case HL_WIN_DENSE_RANK:
      win.type = hl_type_prim(HL_T_INT);
      break;
    case HL_WIN_PERCENT_RANK:
    case HL_WIN_CUME_DIST:
      win.type = hl_type_prim(HL_T_DOUBLE);
      break;
    case HL_WIN_NTILE: {
      hl_expr_t *n = bind_expr(b, a->args[0]);
      if (!n) goto done;
      if (n->kind != HL_EX_CONST || !hl_type_is_integer(n->type) || n->value.is_null ||
          n->value.u.i < 1) {
        arg_error(b, a, 0, "a positive integer constant");
        goto done;
      }
      win.offset = n->value.u.i;
      win.type = hl_type_prim(HL_T_INT);
      break;
    }
    default: {
      if (!(win.arg = bind_expr(b, a->args[0]))) goto done;
      win.type = win.arg->type;
      win.offset = 1;
      if ((win.kind == HL_WIN_LAG || win.kind == HL_WIN_LEAD) && a->n_args > 1) {
        hl_expr_t *n = bind_expr(b, a->args[1]);
        if (!n) goto done;
        if (n->kind != HL_EX_CONST || !hl_type_is_integer(n->type) || n->value.is_null ||
            n->value.u.i < 0) {
          arg_error(b, a, 1, "a non-negative integer constant");
          goto done;
        }
        win.offset = n->value.u.i;
        if (a->n_args > 2) {
          hl_expr_t *d = bind_expr(b, a->args[2]);
          if (!d) goto done;
          const hl_type_t *t = common_type(b, win.type, d->type, a->args[2]->pos);
          if (!t) goto done;
          win.type = t;
          if (!(win.arg = cast_to(b, win.arg, t)) || !(win.deflt = cast_to(b, d, t))) goto done;
        }
      } else if (a->n_args > 1) {
        hl_err_set_at(b->err, a->args[1]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "the IGNORE NULLS argument of %s is not supported yet", a->name);
        goto done;
      }
      if (win.type->id == HL_T_NULL) win.type = hl_type_prim(HL_T_STRING);
      break;
    }
    }
  }
window_spec:
  if (w->n_partition_by) {
    win.partition = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)w->n_partition_by);
    if (!win.partition) {
      hl_err_nomem(b->err);
      goto done;
    }
    for (int k = 0; k < w->n_partition_by; k++)
      if (!(win.partition[win.n_partition++] = bind_expr(b, w->partition_by[k]))) goto done;
  }
  if (w->n_order_by) {
    win.order = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)w->n_order_by);
    win.order_desc = hl_arena_alloc(b->arena, sizeof(bool) * (size_t)w->n_order_by);
    win.order_nulls_first = hl_arena_alloc(b->arena, sizeof(bool) * (size_t)w->n_order_by);
    if (!win.order || !win.order_desc || !win.order_nulls_first) {
      hl_err_nomem(b->err);
      goto done;
    }
    for (int k = 0; k < w->n_order_by; k++) {
      const hl_ast_order_item_t *o = &w->order_by[k];
      if (!(win.order[k] = bind_expr(b, o->expr))) goto done;
      if (hl_type_is_complex(win.order[k]->type)) {
        hl_err_set_at(b->err, o->expr->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "ordering by %s values is not supported", type_name(b, win.order[k]->type));
        goto done;
      }
      win.order_desc[k] = o->descending;
      win.order_nulls_first[k] =
          o->nulls == 0 ? default_nulls_first(b, o->descending) : o->nulls == 1;
      win.n_order++;
    }
  }
  /* the frame: ORDER BY without a frame is RANGE UNBOUNDED PRECEDING ..
   * CURRENT ROW; no ORDER BY is the whole partition */
  if (w->has_frame) {
    win.frame_rows = w->frame_rows;
    win.start_kind = w->start_kind;
    win.end_kind = w->end_kind;
    win.start_offset = w->start_offset;
    win.end_offset = w->end_offset;
    if (win.start_kind == HL_FRAME_UNBOUNDED_FOLLOWING ||
        win.end_kind == HL_FRAME_UNBOUNDED_PRECEDING || win.start_kind > win.end_kind) {
      hl_err_set_at(b->err, w->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                    "the window frame ends before it starts");
      goto done;
    }
    if (!win.frame_rows &&
        (win.start_kind == HL_FRAME_PRECEDING || win.start_kind == HL_FRAME_FOLLOWING ||
         win.end_kind == HL_FRAME_PRECEDING || win.end_kind == HL_FRAME_FOLLOWING)) {
      hl_err_set_at(b->err, w->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "RANGE frames with offsets are not supported yet; use ROWS");
      goto done;
    }
  } else if (win.n_order) {
    win.frame_rows = false;
    win.start_kind = HL_FRAME_UNBOUNDED_PRECEDING;
    win.end_kind = HL_FRAME_CURRENT_ROW;
  } else {
    win.frame_rows = true;
    win.start_kind = HL_FRAME_UNBOUNDED_PRECEDING;
    win.end_kind = HL_FRAME_UNBOUNDED_FOLLOWING;
  }
  if (b->plan->n_windows == b->win_cap) {
    int cap = b->win_cap ? b->win_cap * 2 : 4;
    hl_window_t *nw =
        hl_arena_realloc(b->arena, b->plan->windows, sizeof(hl_window_t) * (size_t)b->win_cap,
                         sizeof(hl_window_t) * (size_t)cap);
    if (!nw) {
      hl_err_nomem(b->err);
      goto done;
    }
    b->plan->windows = nw;
    b->win_cap = cap;
  }
  b->plan->windows[b->plan->n_windows] = win;
  result = new_expr(b, HL_EX_COLUMN, win.type, a->pos);
  if (result) {
    result->col = WIN_MARK + b->plan->n_windows++;
    result->out_ref = true;
    result->col_name = a->name;
  }
done:
  b->win_allowed = true;
  return result;
}

/* array(v, ...) is ARRAY<common type of the v>; map(k, v, ...) is
 * MAP<common key type, common value type> with primitive keys.  Casts the
 * arguments of call E to those types. */
static bool bind_collection(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  bool is_map = strcmp(a->name, "map") == 0;
  int step = is_map ? 2 : 1;
  if (is_map && e->n_args % 2 != 0) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "map() needs an even number of arguments (key, value, ...)");
    return false;
  }
  hl_type_t *t = hl_arena_zalloc(b->arena, sizeof(*t));
  struct hl_type **children = hl_arena_zalloc(b->arena, sizeof(struct hl_type *) * 2);
  if (!t || !children) return hl_err_nomem(b->err), false;
  t->id = is_map ? HL_T_MAP : HL_T_ARRAY;
  t->n_children = step;
  t->children = children;
  for (int part = 0; part < step; part++) {
    const hl_type_t *ct = hl_type_prim(HL_T_NULL);
    for (int k = part; k < e->n_args; k += step)
      if (!(ct = union_type(b, ct, e->args[k]->type, a->args[k]->pos))) return false;
    /* array() and array(NULL): Hive types the elements STRING */
    if (ct->id == HL_T_NULL) ct = hl_type_prim(HL_T_STRING);
    if (is_map && part == 0 && hl_type_is_complex(ct)) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "map keys must have a primitive type");
      return false;
    }
    for (int k = part; k < e->n_args; k += step)
      if (!(e->args[k] = cast_to(b, e->args[k], ct))) return false;
    children[part] = (struct hl_type *)ct;
  }
  e->type = t;
  return true;
}

/* ------------------------------------------------------ complex values */

/* Hive's rule for one type out of several values (array() and map()
 * elements, UNION columns): a string meets any other primitive as STRING;
 * otherwise the common type. */
static const hl_type_t *union_type(binder_t *b, const hl_type_t *x, const hl_type_t *y, long pos) {
  if (hl_type_equal(x, y)) return x; /* CHAR(3) with CHAR(3) stays CHAR(3), as in Hive */
  if ((hl_type_is_string(x) && !hl_type_is_complex(y) && y->id != HL_T_NULL) ||
      (hl_type_is_string(y) && !hl_type_is_complex(x) && x->id != HL_T_NULL))
    return hl_type_prim(HL_T_STRING);
  return common_type(b, x, y, pos);
}

static hl_type_t *array_type(binder_t *b, const hl_type_t *elem) {
  hl_type_t *arr = hl_arena_zalloc(b->arena, sizeof(*arr));
  hl_type_t **kids = arr ? hl_arena_alloc(b->arena, sizeof(hl_type_t *)) : NULL;
  if (!kids) return hl_err_nomem(b->err), NULL;
  arr->id = HL_T_ARRAY;
  arr->n_children = 1;
  arr->children = kids;
  kids[0] = (hl_type_t *)elem;
  return arr;
}

static hl_type_t *map_type(binder_t *b, const hl_type_t *key, const hl_type_t *value) {
  hl_type_t *m = hl_arena_zalloc(b->arena, sizeof(*m));
  hl_type_t **kids = m ? hl_arena_alloc(b->arena, 2 * sizeof(hl_type_t *)) : NULL;
  if (!kids) return hl_err_nomem(b->err), NULL;
  m->id = HL_T_MAP;
  m->n_children = 2;
  m->children = kids;
  kids[0] = (hl_type_t *)key;
  kids[1] = (hl_type_t *)value;
  return m;
}

/* True when T is or holds a MAP. */
static bool has_map(const hl_type_t *t) {
  if (t->id == HL_T_MAP) return true;
  for (int k = 0; k < t->n_children; k++)
    if (has_map(t->children[k])) return true;
  return false;
}

static hl_expr_t *kind_error(binder_t *b, const hl_ast_expr_t *a, int k, const char *what,
                             const hl_type_t *t) {
  hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                "argument %d of %s must be %s, not %s", k + 1, a->name, what, type_name(b, t));
  return NULL;
}

/* struct(v, ...): fields col1, col2, ...; named_struct('n1', v1, ...):
 * names constant strings, lower-cased as Hive's struct inspectors do. */
static hl_expr_t *bind_struct_call(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  bool named = e->fn->name[0] == 'n';
  if (named && e->n_args % 2 != 0) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "named_struct() needs an even number of arguments (name, value, ...)");
    return NULL;
  }
  int n = named ? e->n_args / 2 : e->n_args;
  hl_type_t *t = hl_arena_zalloc(b->arena, sizeof(*t));
  hl_type_t **kids = hl_arena_zalloc(b->arena, sizeof(hl_type_t *) * (size_t)n);
  char **names = hl_arena_zalloc(b->arena, sizeof(char *) * (size_t)n);
  if (!t || !kids || !names) return hl_err_nomem(b->err), NULL;
  t->id = HL_T_STRUCT;
  t->n_children = n;
  t->children = kids;
  t->field_names = names;
  for (int k = 0; k < n; k++) {
    int v = named ? 2 * k + 1 : k;
    if (named) {
      const hl_expr_t *x = e->args[2 * k];
      if (x->kind != HL_EX_CONST || !hl_type_is_string(x->type) || x->value.is_null ||
          x->value.u.s.len == 0)
        return arg_error(b, a, 2 * k, "a constant field name");
      names[k] = hl_arena_strndup(b->arena, x->value.u.s.ptr, x->value.u.s.len);
      if (!names[k]) return hl_err_nomem(b->err), NULL;
      for (char *c = names[k]; *c; c++)
        *c = (char)tolower((unsigned char)*c);
      for (int j = 0; j < k; j++)
        if (strcmp(names[j], names[k]) == 0) {
          hl_err_set_at(b->err, a->args[2 * k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                        "duplicate field name \"%s\" in named_struct", names[k]);
          return NULL;
        }
    } else if (!(names[k] = hl_arena_sprintf(b->arena, "col%d", k + 1))) {
      return hl_err_nomem(b->err), NULL;
    }
    /* an untyped NULL field is a STRING, like array(NULL)'s elements */
    const hl_type_t *vt = e->args[v]->type;
    if (vt->id == HL_T_NULL &&
        !(e->args[v] = cast_to(b, e->args[v], vt = hl_type_prim(HL_T_STRING))))
      return NULL;
    kids[k] = (hl_type_t *)vt;
  }
  e->type = t;
  return e;
}

/* Whether FROM converts to TO as far as unions go: a union only to a union
 * of as many alternatives, at every depth (vector/expr.c refuses the rest
 * when it meets a value; here the CAST gets its position). */
static bool union_castable(const hl_type_t *from, const hl_type_t *to) {
  if (from->id == HL_T_NULL) return true;
  if (from->id == HL_T_UNION || to->id == HL_T_UNION) {
    if (from->id != to->id || from->n_children != to->n_children) return false;
  } else if (from->id != to->id || from->n_children != to->n_children) {
    return true; /* other kinds: the cast's own rules */
  }
  for (int i = 0; i < from->n_children; i++)
    if (!union_castable(from->children[i], to->children[i])) return false;
  return true;
}

/* create_union(tag, v0, v1, ...): UNIONTYPE<type of v0, ...>, the tag an
 * INT (Hive reads it with an int inspector; smaller integers widen);
 * extract_union(u): u's type with every union a struct tag_0, tag_1, ...;
 * extract_union(u, k): alternative k's type, k an INT constant naming one
 * (GenericUDFExtractUnion's checks and messages). */
static hl_expr_t *bind_union_call(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const hl_type_t *t0 = e->args[0]->type;
  if (e->fn->impl == hl_fn_create_union) {
    if (t0->id != HL_T_NULL && t0->id != HL_T_INT && t0->id != HL_T_SMALLINT &&
        t0->id != HL_T_TINYINT)
      return kind_error(b, a, 0, "an INT tag", t0);
    if (e->n_args - 1 > HL_UNION_MAX_TAGS) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "create_union takes at most %d values", HL_UNION_MAX_TAGS);
      return NULL;
    }
    if (!(e->args[0] = cast_to(b, e->args[0], hl_type_prim(HL_T_INT)))) return NULL;
    hl_type_t *t = hl_arena_zalloc(b->arena, sizeof(*t));
    hl_type_t **kids = hl_arena_zalloc(b->arena, sizeof(hl_type_t *) * (size_t)(e->n_args - 1));
    if (!t || !kids) return hl_err_nomem(b->err), NULL;
    t->id = HL_T_UNION;
    t->n_children = e->n_args - 1;
    t->children = kids;
    for (int k = 1; k < e->n_args; k++) {
      /* an untyped NULL alternative is a STRING, as in struct() */
      const hl_type_t *vt = e->args[k]->type;
      if (vt->id == HL_T_NULL &&
          !(e->args[k] = cast_to(b, e->args[k], vt = hl_type_prim(HL_T_STRING))))
        return NULL;
      kids[k - 1] = (hl_type_t *)vt;
    }
    e->type = t;
    return e;
  }
  if (e->n_args == 2 && t0->id == HL_T_UNION && e->args[1]->kind == HL_EX_CONST &&
      e->args[1]->type->id == HL_T_INT && !e->args[1]->value.is_null) {
    int64_t k = e->args[1]->value.u.i;
    if (k < 0 || k >= t0->n_children) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "int constant must be a valid union tag for %s. Expected 0-%d got: %lld",
                    type_name(b, t0), t0->n_children - 1, (long long)k);
      return NULL;
    }
    e->type = t0->children[k];
    return e;
  }
  if (e->n_args == 1) {
    bool found = false;
    hl_type_t *t = hl_union_exploded_type(b->arena, t0, &found);
    if (!t) return hl_err_nomem(b->err), NULL;
    if (!found) {
      hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "No unions found in %s", type_name(b, t0));
      return NULL;
    }
    e->type = t;
    return e;
  }
  hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                "Unsupported arguments. Expected a type containing a union or a union and an int "
                "constant, got: [%s, %s]",
                type_name(b, t0), type_name(b, e->args[1]->type));
  return NULL;
}

/* Argument 2 of array_contains / array_position / array_remove (a, v),
 * cast to the type it compares with A's elements (of type ET) in: their
 * common type when both are numbers or both strings; other pairs of
 * different types (complex ones included) are refused, as Hive requires v
 * to have the element type. */
static bool bind_elem_value(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a,
                            const hl_type_t *et) {
  const hl_type_t *vt = e->args[1]->type, *c = et;
  if (et->id == HL_T_NULL) c = vt->id == HL_T_NULL ? hl_type_prim(HL_T_STRING) : vt;
  if (vt->id != HL_T_NULL && et->id != HL_T_NULL && !hl_type_equal(vt, et)) {
    if (hl_type_is_numeric(vt) && hl_type_is_numeric(et)) {
      if (!(c = common_type(b, et, vt, a->args[1]->pos))) return false;
    } else if (hl_type_is_string(vt) && hl_type_is_string(et)) {
      c = hl_type_prim(HL_T_STRING);
    } else {
      return kind_error(b, a, 1, type_name(b, et), vt), false;
    }
  }
  return (e->args[1] = cast_to(b, e->args[1], c)) != NULL;
}

/* size, array_contains, sort_array, map_keys, map_values, struct,
 * named_struct: argument kinds are checked here, at the argument. */
static hl_expr_t *bind_complex_call(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const char *n = e->fn->name;
  if (strcmp(n, "struct") == 0 || strcmp(n, "named_struct") == 0) return bind_struct_call(b, e, a);
  const hl_type_t *t = e->args[0]->type;
  if (strcmp(n, "size") == 0) {
    /* size(NULL) is -1 like a NULL collection (Hive accepts void) */
    if (t->id != HL_T_ARRAY && t->id != HL_T_MAP && t->id != HL_T_NULL)
      return kind_error(b, a, 0, "an array or a map", t);
    e->type = hl_type_prim(HL_T_INT);
    return e;
  }
  bool is_map_fn = n[0] == 'm';
  if (t->id == HL_T_NULL) {
    /* an untyped NULL: a NULL ARRAY<STRING> or MAP<STRING,STRING> */
    const hl_type_t *str = hl_type_prim(HL_T_STRING), *et = str;
    /* array_contains(NULL, v): an array of v's type */
    if (e->n_args == 2 && !hl_type_is_complex(e->args[1]->type) &&
        e->args[1]->type->id != HL_T_NULL)
      et = e->args[1]->type;
    hl_type_t *ct = is_map_fn ? map_type(b, str, str) : array_type(b, et);
    if (!ct || !(e->args[0] = cast_to(b, e->args[0], ct))) return NULL;
    t = ct;
  }
  if (is_map_fn) {
    if (t->id != HL_T_MAP) return kind_error(b, a, 0, "a map", t);
    e->type = array_type(b, t->children[strcmp(n, "map_keys") == 0 ? 0 : 1]);
    return e->type ? e : NULL;
  }
  if (t->id != HL_T_ARRAY) return kind_error(b, a, 0, "an array", t);
  const hl_type_t *et = t->children[0];
  if (has_map(et)) {
    /* Hive cannot order maps either */
    hl_err_set_at(b->err, a->args[0]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "%s over arrays of %s values is not supported", n, type_name(b, et));
    return NULL;
  }
  if (strcmp(n, "sort_array") == 0) {
    e->type = t;
    return e;
  }
  if (!bind_elem_value(b, e, a, et)) return NULL;
  e->type = hl_type_prim(HL_T_BOOLEAN);
  return e;
}

/* sort_array_by(array<struct>, 'f1', ..., ['ASC'|'DESC']): the names
 * constant strings naming fields (any case); the result has the array's
 * type.  Names from columns would need a per-row lookup Hive does but
 * hivelite does not yet (0A000). */
static hl_expr_t *bind_sort_array_by(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const hl_type_t *t = e->args[0]->type;
  if (t->id != HL_T_ARRAY || t->children[0]->id != HL_T_STRUCT)
    return kind_error(b, a, 0, "an array of structs", t);
  const hl_type_t *st = t->children[0];
  for (int k = 1; k < e->n_args; k++) {
    if (!(e->args[k] = cast_to(b, e->args[k], hl_type_prim(HL_T_STRING)))) return NULL;
    if (e->args[k]->kind != HL_EX_CONST || e->args[k]->value.is_null) {
      hl_err_set_at(b->err, a->args[k]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "sort_array_by with a field name that is not a constant is not supported yet");
      return NULL;
    }
    const hl_str_t *name = &e->args[k]->value.u.s;
    if (k > 1 && k == e->n_args - 1 && hl_fn_sort_direction(name)) continue;
    if (hl_fn_struct_field(st, name) < 0) {
      hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                    "the struct %s has no field \"%.*s\"", type_name(b, st), (int)name->len,
                    name->ptr);
      return NULL;
    }
  }
  e->type = t;
  return e;
}

/* Hive 4's array_* functions (vector/func_array.c): argument 1 an array
 * (an untyped NULL one of STRING), then per function. */
static hl_expr_t *bind_array_call(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  const char *n = e->fn->name + 6; /* after "array_" */
  const hl_type_t *str = hl_type_prim(HL_T_STRING);
  hl_type_t *sa = array_type(b, str);
  if (!sa) return NULL;
  bool two = strcmp(n, "union") == 0 || strcmp(n, "intersect") == 0 || strcmp(n, "except") == 0;
  /* array_position(NULL, v) / array_remove(NULL, v): an array of v's type */
  if (e->n_args == 2 && !two && e->args[0]->type->id == HL_T_NULL &&
      !hl_type_is_complex(e->args[1]->type) && e->args[1]->type->id != HL_T_NULL &&
      !(sa = array_type(b, e->args[1]->type)))
    return NULL;
  for (int k = 0; k < (two ? 2 : 1); k++) {
    if (e->args[k]->type->id == HL_T_NULL && !(e->args[k] = cast_to(b, e->args[k], sa)))
      return NULL;
    if (e->args[k]->type->id != HL_T_ARRAY)
      return kind_error(b, a, k, "an array", e->args[k]->type);
  }
  const hl_type_t *t = e->args[0]->type, *et = t->children[0];
  if (has_map(et)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "%s over arrays of %s values is not supported", e->fn->name, type_name(b, et));
    return NULL;
  }
  e->type = t;
  if (strcmp(n, "min") == 0 || strcmp(n, "max") == 0) {
    e->type = et->id == HL_T_NULL ? str : et;
  } else if (strcmp(n, "join") == 0) {
    if (hl_type_is_complex(et)) return kind_error(b, a, 0, "an array of primitive values", t);
    for (int k = 1; k < e->n_args; k++)
      if (!(e->args[k] = cast_to(b, e->args[k], str))) return NULL;
    e->type = str;
  } else if (strcmp(n, "position") == 0 || strcmp(n, "remove") == 0) {
    if (!bind_elem_value(b, e, a, et)) return NULL;
    if (n[0] == 'p') e->type = hl_type_prim(HL_T_INT);
  } else if (strcmp(n, "slice") == 0) {
    for (int k = 1; k < 3; k++) {
      if (!hl_type_is_integer(e->args[k]->type) && e->args[k]->type->id != HL_T_NULL)
        return kind_error(b, a, k, "an integer", e->args[k]->type);
      if (!(e->args[k] = cast_to(b, e->args[k], hl_type_prim(HL_T_BIGINT)))) return NULL;
    }
  } else if (two) {
    /* both arrays in one element type: equal, or both numbers (the
     * common one) or both strings, as array_contains takes its value */
    const hl_type_t *et2 = e->args[1]->type->children[0], *c = et;
    if (!hl_type_equal(et, et2)) {
      if (et->id == HL_T_NULL)
        c = et2;
      else if (et2->id == HL_T_NULL)
        c = et;
      else if (hl_type_is_numeric(et) && hl_type_is_numeric(et2))
        c = common_type(b, et, et2, a->args[1]->pos);
      else if (hl_type_is_string(et) && hl_type_is_string(et2))
        c = str;
      else
        return kind_error(b, a, 1, type_name(b, t), e->args[1]->type);
      hl_type_t *ct = c ? array_type(b, c) : NULL;
      if (!ct || !(e->args[0] = cast_to(b, e->args[0], ct)) ||
          !(e->args[1] = cast_to(b, e->args[1], ct)))
        return NULL;
      e->type = ct;
    }
  }
  return e;
}

/* X.name on a bound struct X; POS is the field name's. */
static hl_expr_t *bind_field(binder_t *b, hl_expr_t *x, const char *name, long pos) {
  if (!x) return NULL;
  const hl_type_t *t = x->type;
  /* an array of structs: the array of the field (Hive) */
  bool elems = t->id == HL_T_ARRAY && t->children[0]->id == HL_T_STRUCT;
  if (elems) t = t->children[0];
  if (t->id != HL_T_STRUCT) {
    hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "field \"%s\" cannot be read from a value of type %s (not a struct)", name,
                  type_name(b, t));
    return NULL;
  }
  int k = 0;
  while (k < t->n_children && strcasecmp(t->field_names[k], name) != 0)
    k++;
  if (k == t->n_children) {
    hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                  "field \"%s\" does not exist in %s", name, type_name(b, t));
    return NULL;
  }
  hl_expr_t *idx = new_expr(b, HL_EX_CONST, hl_type_prim(HL_T_INT), pos);
  const hl_type_t *rt = elems ? array_type(b, t->children[k]) : t->children[k];
  hl_expr_t *e = idx && rt ? new_expr(b, HL_EX_FUNC, rt, pos) : NULL;
  if (!e || !set_args(b, e, 2)) return NULL;
  idx->value.u.i = k;
  e->fn = elems ? &hl_func_elems_field : &hl_func_field;
  e->args[0] = x;
  e->args[1] = idx;
  return e;
}

/* x[i] (arrays, from 0) and m[k] (maps). */
static hl_expr_t *bind_subscript(binder_t *b, const hl_ast_expr_t *a) {
  hl_expr_t *x = bind_expr(b, a->args[0]);
  hl_expr_t *i = x ? bind_expr(b, a->args[1]) : NULL;
  if (!i) return NULL;
  const hl_type_t *t = x->type, *it = i->type, *to;
  if (t->id == HL_T_ARRAY) {
    if (!hl_type_is_integer(it) && it->id != HL_T_NULL) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "an array index must be an integer, not %s", type_name(b, it));
      return NULL;
    }
    to = hl_type_prim(HL_T_BIGINT);
  } else if (t->id == HL_T_MAP) {
    /* the key converts implicitly: numbers among themselves, anything to a
     * string key, strings to date and timestamp keys */
    const hl_type_t *kt = t->children[0];
    bool ok = it->id == HL_T_NULL || hl_type_equal(it, kt) ||
              (hl_type_is_numeric(it) && hl_type_is_numeric(kt)) ||
              (hl_type_is_string(kt) && !hl_type_is_complex(it)) ||
              (hl_type_is_string(it) && (kt->id == HL_T_DATE || kt->id == HL_T_TIMESTAMP)) ||
              (it->id == HL_T_DATE && kt->id == HL_T_TIMESTAMP);
    if (!ok) {
      hl_err_set_at(b->err, a->args[1]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "a key of %s cannot be looked up with a value of type %s", type_name(b, t),
                    type_name(b, it));
      return NULL;
    }
    to = kt;
  } else {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "[] needs an array or a map, not %s", type_name(b, t));
    return NULL;
  }
  hl_expr_t *e =
      new_expr(b, HL_EX_FUNC, t->id == HL_T_ARRAY ? t->children[0] : t->children[1], a->pos);
  if (!e || !set_args(b, e, 2)) return NULL;
  e->fn = &hl_func_subscript;
  e->args[0] = x;
  return (e->args[1] = cast_to(b, i, to)) ? e : NULL;
}

/* True when NAME is a column of a visible FROM entry: `q.f` with no entry
 * called q then reads q as a struct column (Hive tries the table first). */
static bool column_visible(const binder_t *b, const char *name) {
  for (int i = 0; i < b->n_entries; i++) {
    const scope_entry_t *en = &b->entries[i];
    if (!en->hidden && entry_column(en, name) >= 0) return true;
  }
  return false;
}

static hl_expr_t *bind_struct_column_field(binder_t *b, const hl_ast_expr_t *a) {
  hl_ast_expr_t col = *a;
  col.qualifier = NULL;
  col.name = a->qualifier;
  return bind_field(b, bind_column(b, &col), a->name, a->name_pos);
}

/* internal_interval(unit, value): what INTERVAL ... unit parses to (Hive's
 * GenericUDFInternalInterval).  Hive's first argument is a number of its
 * generated parser; hivelite's is the unit's name, a constant string
 * ('day', 'year to month').  The value must be a string or an integer or
 * decimal (not FLOAT or DOUBLE, as Hive), read as text; a constant value
 * is folded here. */
static hl_expr_t *bind_internal_interval(binder_t *b, hl_expr_t *e, const hl_ast_expr_t *a) {
  hl_expr_t *u = e->args[0], *v = e->args[1];
  hl_interval_unit_t unit;
  if (u->kind != HL_EX_CONST || !hl_type_is_string(u->type) || u->value.is_null) {
    if (hl_type_is_integer(u->type))
      hl_err_set_at(b->err, a->args[0]->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "internal_interval with a Hive parser token number is not supported; write "
                    "INTERVAL (value) unit, or internal_interval('unit', value)");
    else
      hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "the first argument of internal_interval must be a constant unit name");
    return NULL;
  }
  if (!hl_interval_unit_lookup(u->value.u.s.ptr, u->value.u.s.len, &unit)) {
    hl_err_set_at(b->err, a->args[0]->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "unknown interval unit \"%.*s\"",
                  (int)(u->value.u.s.len > 40 ? 40 : u->value.u.s.len), u->value.u.s.ptr);
    return NULL;
  }
  const hl_type_t *vt = v->type;
  if (!hl_type_is_string(vt) && !hl_type_is_integer(vt) && vt->id != HL_T_DECIMAL &&
      vt->id != HL_T_NULL)
    return kind_error(b, a, 1, "a string, an integer or a decimal", vt);
  if (!(e->args[1] = cast_to(b, v, hl_type_prim(HL_T_STRING)))) return NULL;
  e->type = hl_type_prim(hl_interval_unit_is_ym(unit) ? HL_T_INTERVAL_YM : HL_T_INTERVAL_DT);
  return fold_const(b, e);
}

static hl_expr_t *bind_function(binder_t *b, const hl_ast_expr_t *a) {
  if (a->window) return bind_window(b, a);
  if (is_aggregate_name(a->name)) return bind_aggregate(b, a);

  if (strcmp(a->name, "typeof") == 0) {
    /* typeof(x): the name of x's type, a constant string as in Hive */
    if (a->n_args != 1 || a->args[0]->kind == HL_AST_STAR) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                    "function typeof takes exactly one argument");
      return NULL;
    }
    hl_expr_t *x = bind_expr(b, a->args[0]);
    if (!x) return NULL;
    const char *tn = x->type->id == HL_T_NULL ? "void" : type_name(b, x->type);
    hl_expr_t *e = tn ? new_expr(b, HL_EX_CONST, hl_type_prim(HL_T_STRING), a->pos) : NULL;
    if (!e) return NULL;
    e->value.u.s.ptr = tn;
    e->value.u.s.len = strlen(tn);
    return e;
  }
  bool is_mod = strcmp(a->name, "mod") == 0;
  if (is_mod || strcmp(a->name, "is_not_distinct_from") == 0) {
    if (a->n_args != 2) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                    "function %s does not take %d arguments", a->name, a->n_args);
      return NULL;
    }
    /* mod(a, b) is a % b, is_not_distinct_from(a, b) is a <=> b (Hive
     * registers each pair with one class: GenericUDFOPMod, GenericUDFOPEqualNS) */
    hl_ast_expr_t op = *a;
    op.kind = HL_AST_BINARY;
    op.op = is_mod ? HL_OP_MOD : HL_OP_EQ_NS;
    return bind_binary(b, &op);
  }
  if (strcmp(a->name, "cast_format") == 0) {
    /* what Hive rewrites CAST ... FORMAT to: its first argument is a number
     * of Hive's generated parser, which no user query can rely on */
    hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "cast_format(...) called by name is not supported (its first argument is a "
                  "Hive parser token number); write CAST(x AS type FORMAT 'template')");
    return NULL;
  }
  if (strcmp(a->name, "index") == 0) {
    /* index(a, n) is a[n]: Hive binds [] to the same GenericUDFIndex */
    if (a->n_args != 2) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                    "function index does not take %d arguments", a->n_args);
      return NULL;
    }
    return bind_subscript(b, a);
  }
  const hl_func_def_t *fn = hl_func_lookup(a->name);
  if (!fn) {
    const hl_func_doc_t *d = hl_func_doc_lookup(a->name);
    if (d && d->kind == HL_FK_TABLE)
      hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "%s in the select list is supported only as its only item, without "
                    "GROUP BY (or use LATERAL VIEW %s)",
                    a->name, a->name);
    else if (d && d->kind == HL_FK_PTF)
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                    "%s is a partitioned table function: call it in FROM as %s(ON ...)", a->name,
                    a->name);
    else if (hl_func_hive_not_yet(a->name))
      hl_err_set_at(b->err, a->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "function %s is not supported yet", a->name);
    else
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
  if (fn->impl == hl_fn_deserialize)
    for (int k = 0; k < e->n_args; k++) /* Hive's check: the STRING group only */
      if (!hl_type_is_string(e->args[k]->type)) return arg_error(b, a, k, "a string");
  if (e->n_args == 1 && hl_interval_field_fn(fn, e->args[0]->type)) { /* year(interval) ... */
    e->fn = hl_interval_field_fn(fn, e->args[0]->type);
    e->type = hl_type_prim(HL_T_INT);
    return e;
  }
  if (fn->sig) return bind_by_signature(b, e, a);
  if (fn->impl == hl_fn_internal_interval) return bind_internal_interval(b, e, a);
  if (fn->impl == hl_fn_tumbling_window) {
    /* GenericUDFTumbledWindow: a date or timestamp, an INTERVAL_DAY_TIME,
     * an optional date or timestamp origin; a TIMESTAMP */
    for (int k = 0; k < e->n_args; k++) {
      const hl_type_t *t = e->args[k]->type;
      if (k == 1 ? t->id != HL_T_INTERVAL_DT : t->id != HL_T_DATE && t->id != HL_T_TIMESTAMP)
        return kind_error(b, a, k, k == 1 ? "an interval_day_time" : "a date or a timestamp", t);
    }
    e->type = hl_type_prim(HL_T_TIMESTAMP);
    return e;
  }
  if (fn->impl == hl_fn_json_read) return bind_json_read(b, e, a);
  if (fn->impl == hl_fn_legacy_calendar) {
    /* Hive's check: a DATE or a TIMESTAMP, typed as it is (not a string) */
    const hl_type_t *t = e->args[0]->type;
    if (t->id != HL_T_DATE && t->id != HL_T_TIMESTAMP)
      return arg_error(b, a, 0, "a date or a timestamp");
    e->type = t;
    return e;
  }
  if (fn->impl == hl_fn_in_file) return bind_in_file(b, e, a);
  if (fn->impl == hl_fn_format_number) return bind_format_number(b, e, a);
  if (fn->impl == hl_fn_likeany || fn->impl == hl_fn_likeall) {
    /* Hive's checkArgGroups: the STRING group or NULL, nothing converted */
    for (int k = 0; k < e->n_args; k++) {
      const hl_type_t *t = e->args[k]->type;
      if (!hl_type_is_string(t) && t->id != HL_T_NULL) return kind_error(b, a, k, "a string", t);
      if (!(e->args[k] = cast_to(b, e->args[k], str))) return NULL;
    }
    e->type = hl_type_prim(HL_T_BOOLEAN);
    return e;
  }
  if (strcmp(n, "rand") == 0) {
    /* rand([seed]): the seed must be a constant; without one, the clock */
    hl_rand_state_t *st = hl_arena_zalloc(b->arena, sizeof(*st));
    if (!st) return hl_err_nomem(b->err), NULL;
    if (e->n_args == 1) {
      hl_expr_t *x = e->args[0];
      if (x->kind != HL_EX_CONST || !hl_type_is_integer(x->type) || x->value.is_null)
        return arg_error(b, a, 0, "an integer constant");
      st->seed = (uint64_t)x->value.u.i;
    } else {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      st->seed = (uint64_t)ts.tv_sec * 1000000007ULL + (uint64_t)ts.tv_nsec;
    }
    e->n_args = 0;
    e->state = st;
    e->type = hl_type_prim(HL_T_DOUBLE);
    return e;
  }
  if (strcmp(n, "round") == 0 || strcmp(n, "bround") == 0 || strcmp(n, "floor") == 0 ||
      strcmp(n, "ceil") == 0 || strcmp(n, "ceiling") == 0)
    return bind_rounding(b, e, a);
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
    if (e->args[0]->type->id != HL_T_BINARY && !(e->args[0] = cast_to(b, e->args[0], str)))
      return NULL;
  } else if (strcmp(n, "substr") == 0 || strcmp(n, "substring") == 0 || strcmp(n, "mid") == 0) {
    if (!(e->args[0] = cast_to(b, e->args[0], str))) return NULL;
    for (int k = 1; k < e->n_args; k++) {
      if (!hl_type_is_integer(e->args[k]->type) && e->args[k]->type->id != HL_T_NULL) {
        hl_err_set_at(b->err, a->args[k]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "argument %d of %s must be an integer", k + 1, n);
        return NULL;
      }
      if (!(e->args[k] = cast_to(b, e->args[k], hl_type_prim(HL_T_BIGINT)))) return NULL;
    }
  } else if (strcmp(n, "array") == 0 || strcmp(n, "map") == 0) {
    if (!bind_collection(b, e, a)) return NULL;
  } else if (fn->impl == hl_fn_size || fn->impl == hl_fn_array_contains ||
             fn->impl == hl_fn_sort_array || fn->impl == hl_fn_map_keys ||
             fn->impl == hl_fn_map_values || fn->impl == hl_fn_struct) {
    return bind_complex_call(b, e, a);
  } else if (fn->impl == hl_fn_create_union || fn->impl == hl_fn_extract_union) {
    return bind_union_call(b, e, a);
  } else if (strncmp(n, "array_", 6) == 0) {
    return bind_array_call(b, e, a);
  } else if (strcmp(n, "sort_array_by") == 0) {
    return bind_sort_array_by(b, e, a);
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

static hl_expr_t *bind_expr_node(binder_t *b, const hl_ast_expr_t *a);

static hl_expr_t *bind_expr(binder_t *b, const hl_ast_expr_t *a) {
  if (b->depth >= MAX_EXPR_DEPTH) {
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(STATEMENT_TOO_COMPLEX),
                  "expression is nested too deeply");
    return NULL;
  }
  b->depth++;
  hl_expr_t *e = bind_expr_node(b, a);
  b->depth--;
  return e;
}

static hl_expr_t *bind_expr_node(binder_t *b, const hl_ast_expr_t *a) {
  switch (a->kind) {
  case HL_AST_LITERAL:
    return bind_literal(b, a);
  case HL_AST_COLUMN:
    return bind_column(b, a);
  case HL_AST_STAR:
    hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(SYNTAX_ERROR), "\"*\" is not allowed here");
    return NULL;
  case HL_AST_UNARY:
    return bind_unary(b, a);
  case HL_AST_BINARY:
    return bind_binary(b, a);
  case HL_AST_IS_NULL: {
    hl_expr_t *x = bind_expr(b, a->args[0]);
    hl_expr_t *e = x ? new_expr(b, HL_EX_IS_NULL, hl_type_prim(HL_T_BOOLEAN), a->pos) : NULL;
    if (!e || !set_args(b, e, 1)) return NULL;
    e->args[0] = x;
    e->negated = a->negated;
    return e;
  }
  case HL_AST_IN:
    return bind_in(b, a);
  case HL_AST_BETWEEN: {
    hl_expr_t *x = bind_expr(b, a->args[0]);
    hl_expr_t *lo = x ? bind_in_context(b, a->args[1], x->type) : NULL;
    hl_expr_t *hi = lo ? bind_in_context(b, a->args[2], x->type) : NULL;
    if (!hi) return NULL;
    hl_expr_t *e = make_logic(b, HL_EX_AND, make_cmp(b, HL_XOP_GE, x, lo, a->pos),
                              make_cmp(b, HL_XOP_LE, x, hi, a->pos), a->pos);
    return a->negated ? make_not(b, e, a->pos) : e;
  }
  case HL_AST_LIKE:
    return bind_like(b, a);
  case HL_AST_FUNC:
    return bind_function(b, a);
  case HL_AST_CAST: {
    if (a->n_args == 2) return bind_cast_format(b, a);
    hl_expr_t *x = bind_expr(b, a->args[0]);
    if (!x) return NULL;
    /* an interval converts to and from strings only, as in Hive */
    bool iv_ok = !(hl_type_is_interval(a->cast_type) || hl_type_is_interval(x->type)) ||
                 hl_type_equal(a->cast_type, x->type) || x->type->id == HL_T_NULL ||
                 (hl_type_is_interval(a->cast_type) ? hl_type_is_string(x->type)
                                                    : hl_type_is_string(a->cast_type));
    if ((hl_type_is_complex(a->cast_type) != hl_type_is_complex(x->type) &&
         x->type->id != HL_T_NULL) ||
        !union_castable(x->type, a->cast_type) || !iv_ok) {
      hl_err_set_at(b->err, a->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH), "cannot cast %s to %s",
                    type_name(b, x->type), type_name(b, a->cast_type));
      return NULL;
    }
    hl_expr_t *e = new_expr(b, HL_EX_CAST, a->cast_type, a->pos);
    if (!e || !set_args(b, e, 1)) return NULL;
    e->args[0] = x;
    if (x->kind == HL_EX_CONST) return cast_to(b, x, a->cast_type);
    return e;
  }
  case HL_AST_CASE:
    return bind_case(b, a);
  case HL_AST_SUBQUERY:
  case HL_AST_EXISTS:
    return bind_subquery(b, a);
  case HL_AST_INDEX:
    return bind_subscript(b, a);
  case HL_AST_FIELD:
    return bind_field(b, bind_expr(b, a->args[0]), a->name, a->pos);
  case HL_AST_PARAM:
    return bind_param(b, a, NULL);
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
  default:
    break;
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
  for (int k = 0; k < e->n_args; k++)
    clear_out_ref(e->args[k]);
}

/* ------------------------------------------------------ WHERE splitting */

static int count_conjuncts(const hl_expr_t *e) {
  if (e->kind == HL_EX_AND) {
    int n = 0;
    for (int k = 0; k < e->n_args; k++)
      n += count_conjuncts(e->args[k]);
    return n;
  }
  return 1;
}

static void collect_conjuncts(hl_expr_t *e, hl_expr_t **out, int *n) {
  if (e->kind == HL_EX_AND) {
    for (int k = 0; k < e->n_args; k++)
      collect_conjuncts(e->args[k], out, n);
    return;
  }
  out[(*n)++] = e;
}

static bool is_deterministic(const hl_expr_t *e) {
  /* rand() is the one non-deterministic function: it may not prune
   * partitions or move below a join */
  if (e->kind == HL_EX_FUNC && strcmp(e->fn->name, "rand") == 0) return false;
  for (int k = 0; k < e->n_args; k++)
    if (!is_deterministic(e->args[k])) return false;
  return true;
}

/* The values that conjuncts `key = constant` pin keys to, into F: EQ[k]
 * (NULL where none), so the catalog lists only those partitions: a pin on
 * a big table is an index lookup, and an attached metastore is asked for
 * get_partition_names_ps.  STRING keys are pinned byte for byte; integer
 * and DATE keys to their canonical text, with ALT[k] naming where other
 * stored spellings of the value would sort (pin.h: hr=05 is 5 too).
 * Nothing is set when no key is pinned. */
static hl_status_t pinned_values(binder_t *b, const hl_table_t *t, hl_expr_t **preds, int n,
                                 hl_cat_part_filter_t *f) {
  const char **eq = NULL;
  const hl_cat_vrange_t **alt = NULL;
  int *n_alt = NULL;
  for (int i = 0; i < n; i++) {
    const hl_expr_t *e = preds[i];
    if (e->kind != HL_EX_CMP || e->op != HL_XOP_EQ || e->n_args != 2) continue;
    const hl_expr_t *c = e->args[0], *v = e->args[1];
    if (c->kind != HL_EX_COLUMN) {
      const hl_expr_t *x = c;
      c = v;
      v = x;
    }
    if (c->kind != HL_EX_COLUMN || c->out_ref || v->kind != HL_EX_CONST || v->value.is_null ||
        c->col < t->n_data || c->col >= t->n_all)
      continue;
    const hl_type_t *kt = t->types[c->col];
    char *text = NULL;
    hl_cat_vrange_t *ranges = NULL;
    int n_ranges = 0;
    if (kt->id == HL_T_STRING) {
      if (v->type->id != HL_T_STRING || v->value.u.s.len == 0 ||
          memchr(v->value.u.s.ptr, 0, v->value.u.s.len))
        continue;
      if (!(text = hl_arena_strndup(b->arena, v->value.u.s.ptr, v->value.u.s.len)))
        return hl_err_nomem(b->err);
    } else if (!hl_plan_pin_typed(b->arena, kt, v->type, &v->value, &text, &ranges, &n_ranges)) {
      return hl_err_nomem(b->err);
    }
    if (!text) continue;
    if (!eq) {
      eq = hl_arena_zalloc(b->arena, sizeof *eq * (size_t)t->n_part);
      alt = hl_arena_zalloc(b->arena, sizeof *alt * (size_t)t->n_part);
      n_alt = hl_arena_zalloc(b->arena, sizeof *n_alt * (size_t)t->n_part);
      if (!eq || !alt || !n_alt) return hl_err_nomem(b->err);
    }
    int k = c->col - t->n_data;
    if (eq[k] && strcmp(eq[k], text) != 0) { /* k = 'a' AND k = 'b': the filter says */
      text = NULL;
      ranges = NULL;
      n_ranges = 0;
    }
    eq[k] = text;
    alt[k] = ranges;
    n_alt[k] = n_ranges;
  }
  if (!eq) return HL_OK;
  f->eq = eq;
  bool any_alt = false;
  for (int k = 0; k < t->n_part; k++)
    any_alt = any_alt || n_alt[k] > 0;
  if (any_alt) {
    f->alt = alt;
    f->n_alt = n_alt;
  }
  return HL_OK;
}

/* Byte-order bounds (*LO / *HI, NULL where none; inclusive, so a strict
 * comparison gives a superset) that comparisons of STRING keys with STRING
 * constants put on them: the catalog's value index then answers a range
 * (`dt BETWEEN '2024-01-01' AND '2024-01-31'`) instead of every partition
 * being read.  The predicates are still evaluated over what it returns. */
static hl_status_t key_bounds(binder_t *b, const hl_table_t *t, hl_expr_t **preds, int n,
                              const char ***lo, const char ***hi) {
  *lo = *hi = NULL;
  for (int i = 0; i < n; i++) {
    const hl_expr_t *e = preds[i];
    if (e->kind != HL_EX_CMP || e->n_args != 2) continue;
    int op = e->op;
    const hl_expr_t *c = e->args[0], *v = e->args[1];
    if (c->kind != HL_EX_COLUMN) { /* 'x' < k is k > 'x' */
      const hl_expr_t *x = c;
      c = v;
      v = x;
      op = op == HL_XOP_LT   ? HL_XOP_GT
           : op == HL_XOP_LE ? HL_XOP_GE
           : op == HL_XOP_GT ? HL_XOP_LT
           : op == HL_XOP_GE ? HL_XOP_LE
                             : op;
    }
    if (op != HL_XOP_LT && op != HL_XOP_LE && op != HL_XOP_GT && op != HL_XOP_GE) continue;
    if (c->kind != HL_EX_COLUMN || c->out_ref || v->kind != HL_EX_CONST || v->value.is_null ||
        c->col < t->n_data || c->col >= t->n_all || t->types[c->col]->id != HL_T_STRING ||
        v->type->id != HL_T_STRING || memchr(v->value.u.s.ptr, 0, v->value.u.s.len))
      continue;
    const char ***side = op == HL_XOP_GT || op == HL_XOP_GE ? lo : hi;
    if (!*side && !(*side = hl_arena_zalloc(b->arena, sizeof **side * (size_t)t->n_part)))
      return hl_err_nomem(b->err);
    char *text = hl_arena_strndup(b->arena, v->value.u.s.ptr, v->value.u.s.len);
    if (!text) return hl_err_nomem(b->err);
    int k = c->col - t->n_data;
    const char *old = (*side)[k];
    /* the tighter of two bounds on one side */
    if (!old || (side == lo ? strcmp(text, old) > 0 : strcmp(text, old) < 0)) (*side)[k] = text;
  }
  return HL_OK;
}

/* Partitions of one scan being pruned: candidates are gathered into a
 * batch of their key values, HL_BATCH_CAP at a time, and only the
 * survivors are kept, so memory follows what is kept, not the table. */
typedef struct pruner {
  binder_t *b;
  hl_plan_scan_t *scan;
  hl_batch_t *batch;
  hl_arena_t *held;            /* copies of the batch's candidates (streamed ones) */
  hl_cat_partition_t *pending; /* the batch's candidates */
  size_t n_pending;
  hl_cat_partition_t *keep; /* survivors, in b->arena */
  size_t n_keep, cap_keep;
  size_t n_seen; /* candidates evaluated */
  const hl_cat_part_filter_t *filter;
  size_t n_exact; /* candidates whose pinned values are the pinned texts */
} pruner_t;

/* Whether PART's values are F's pinned texts byte for byte (what the
 * snapshot's re-listing by those values returns). */
static bool pinned_exactly(const hl_cat_part_filter_t *f, const hl_cat_partition_t *part) {
  for (int k = 0; f->eq && k < part->n_values; k++)
    if (f->eq[k] && (!part->values[k] || strcmp(f->eq[k], part->values[k]) != 0)) return false;
  return true;
}

/* Evaluates the predicates over the pending candidates, keeps the
 * survivors (copied into the binder's arena when COPY) and empties the
 * batch. */
static hl_status_t prune_flush(pruner_t *p, bool copy) {
  binder_t *b = p->b;
  hl_plan_scan_t *scan = p->scan;
  hl_table_t *t = scan->table;
  hl_batch_t *batch = p->batch;
  hl_status_t rc = HL_OK;
  for (size_t i = 0; i < p->n_pending && rc == HL_OK; i++)
    for (int k = 0; k < t->n_part && rc == HL_OK; k++) {
      hl_value_t v;
      rc = hl_table_part_value(t, k, p->pending[i].values[k], batch->arena, &v, b->err);
      if (rc == HL_OK &&
          hl_vec_put_value(&batch->cols[t->n_data + k], batch->arena, (uint32_t)i, &v) != HL_OK)
        rc = hl_err_nomem(b->err);
    }
  batch->n_rows = (uint32_t)p->n_pending;
  for (int k = 0; k < scan->n_part_preds && rc == HL_OK; k++)
    rc = hl_expr_filter(scan->part_preds[k], batch, batch->arena, b->err);
  for (uint32_t i = 0; rc == HL_OK && i < hl_batch_live(batch); i++) {
    if (p->n_keep == p->cap_keep) {
      size_t cap = p->cap_keep ? p->cap_keep * 2 : 16;
      hl_cat_partition_t *grown =
          hl_arena_realloc(b->arena, p->keep, sizeof *p->keep * p->cap_keep, sizeof *p->keep * cap);
      if (!grown) return hl_err_nomem(b->err);
      p->keep = grown;
      p->cap_keep = cap;
    }
    const hl_cat_partition_t *src = &p->pending[hl_batch_row(batch, i)];
    hl_cat_partition_t *dst = &p->keep[p->n_keep++];
    if (!copy)
      *dst = *src;
    else
      rc = hl_cat_partition_copy_key(b->arena, src, dst, b->err);
  }
  if (rc != HL_OK) return rc;
  p->n_seen += p->n_pending;
  p->n_pending = 0;
  if (p->held) hl_arena_reset(p->held);
  return hl_batch_reset(batch) == HL_OK ? HL_OK : hl_err_nomem(b->err);
}

/* hl_cat_part_fn: one candidate from the catalog, copied until its batch
 * is evaluated. */
static hl_status_t prune_take(void *ctx, const hl_cat_partition_t *part, hl_error_t *err) {
  pruner_t *p = ctx;
  /* parameters and descriptors are not read by the pruning: the kept
   * ones are fetched whole */
  hl_status_t rc = hl_cat_partition_copy_key(p->held, part, &p->pending[p->n_pending], err);
  if (rc != HL_OK) return rc;
  if (pinned_exactly(p->filter, part)) p->n_exact++;
  return ++p->n_pending == HL_BATCH_CAP ? prune_flush(p, true) : HL_OK;
}

/* Evaluates the partition predicates over the table's partitions in batches
 * of HL_BATCH_CAP and keeps the matching ones.  From a catalog the
 * candidates are streamed (hl_cat_partition_scan) through the value index
 * where STRING keys are pinned or bounded, and only the kept ones are read
 * whole: a pin on a table of a million partitions reads a few. */
static hl_status_t prune_partitions(binder_t *b, hl_plan_scan_t *scan) {
  hl_table_t *t = scan->table;
  if (hl_plan_projection_enabled(t)) { /* computed, never listed: projection.c */
    scan->projected = true;
    return hl_plan_projection_prune(b->s, t, scan->part_preds, scan->n_part_preds,
                                    (int64_t)time(NULL), b->arena, &scan->parts, &scan->n_parts,
                                    &scan->n_parts_total, b->err);
  }
  hl_cat_t *cat = hl_table_catalog(b->s, t);
  /* Without partition predicates every partition is read: one listing. */
  if (scan->n_part_preds == 0) {
    hl_status_t rc = HL_OK;
    if (!scan->dataset) /* parquet.`path`: bind_parquet_path's */
      rc = hl_cat_partition_list(cat, t->cat->id, b->arena, &scan->parts, &scan->n_parts, b->err);
    scan->n_parts_total = scan->n_parts;
    return rc;
  }
  hl_cat_part_filter_t filter = {0};
  hl_status_t rc = HL_OK;
  if (!scan->dataset) {
    rc = pinned_values(b, t, scan->part_preds, scan->n_part_preds, &filter);
    /* bounds only without a pin: the snapshot re-reads a pinned listing
     * by its values alone and compares the counts */
    if (rc == HL_OK && !filter.eq)
      rc = key_bounds(b, t, scan->part_preds, scan->n_part_preds, (const char ***)&filter.lo,
                      (const char ***)&filter.hi);
    if (rc != HL_OK) return rc;
    /* a range is not all of them: the total, read before the candidates
     * (a partition added in between then fails the snapshot's check
     * rather than slipping past it) */
    if (!filter.eq && (filter.lo || filter.hi))
      rc = hl_cat_partition_count(cat, t->cat->id, &scan->n_parts_total, b->err);
    if (rc != HL_OK) return rc;
  }
  const hl_type_t **types = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)t->n_all);
  if (!types) return hl_err_nomem(b->err);
  for (int c = 0; c < t->n_all; c++)
    types[c] = c < t->n_data ? hl_type_prim(HL_T_NULL) : t->types[c];
  pruner_t p = {.b = b, .scan = scan, .filter = &filter};
  p.batch = hl_batch_create(t->n_all, types);
  if (!p.batch) return hl_err_nomem(b->err);
  if (scan->dataset) { /* the dataset's units, in memory already */
    for (size_t start = 0; start < scan->n_parts && rc == HL_OK; start += HL_BATCH_CAP) {
      p.pending = scan->parts + start;
      p.n_pending = scan->n_parts - start < HL_BATCH_CAP ? scan->n_parts - start : HL_BATCH_CAP;
      rc = prune_flush(&p, false);
    }
    hl_batch_destroy(p.batch);
    if (rc != HL_OK) return rc;
    scan->n_parts_total = scan->n_parts;
    scan->parts = p.keep;
    scan->n_parts = p.n_keep;
    return HL_OK;
  }
  p.held = hl_arena_create(0);
  p.pending = hl_arena_alloc(b->arena, sizeof *p.pending * HL_BATCH_CAP);
  if (!p.held || !p.pending) rc = hl_err_nomem(b->err);
  if (rc == HL_OK) rc = hl_cat_partition_scan(cat, t->cat->id, &filter, prune_take, &p, b->err);
  if (rc == HL_OK && p.n_pending) rc = prune_flush(&p, true);
  hl_batch_destroy(p.batch);
  hl_arena_destroy(p.held);
  if (rc != HL_OK) return rc;
  if (filter.eq) { /* a pinned listing is not all of them (EXPLAIN counts those) */
    scan->n_parts_total = HL_PLAN_TOTAL_UNKNOWN;
    scan->pin_eq = (const char **)filter.eq;
    /* other spellings found through the alternative ranges are not in
     * the snapshot's re-listing by the pinned texts */
    scan->n_pinned = p.n_exact;
  } else if (!filter.lo && !filter.hi) {
    scan->n_parts_total = p.n_seen;
  }
  return hl_cat_partition_get_many(cat, t->cat->id, p.keep, p.n_keep, b->arena, &scan->parts,
                                   &scan->n_parts, b->err);
}

static void mark_needed(const hl_expr_t *e, bool *needed) {
  if (e->kind == HL_EX_COLUMN && !e->out_ref) needed[e->col] = true;
  for (int k = 0; k < e->n_args; k++)
    mark_needed(e->args[k], needed);
}

/* ------------------------------------------- count(*) from statistics */

int64_t hl_plan_accurate_rows(const hl_kv_t *params, int n) {
  const char *acc = hl_kv_get(params, n, "COLUMN_STATS_ACCURATE");
  const char *rows = hl_kv_get(params, n, "numRows");
  if (!acc || !rows || !strstr(acc, "\"BASIC_STATS\":\"true\"")) return -1;
  char *end;
  errno = 0;
  long long v = strtoll(rows, &end, 10);
  if (errno || *end || v < 0) return -1;
  return v;
}

static void replace_with_count(hl_expr_t *e, int64_t rows) {
  if (e->kind == HL_EX_COLUMN) {
    e->kind = HL_EX_CONST;
    memset(&e->value, 0, sizeof e->value);
    e->value.u.i = rows;
    return;
  }
  for (int k = 0; k < e->n_args; k++)
    replace_with_count(e->args[k], rows);
}

/* SELECT count(*) FROM t [WHERE partition predicates] over partitions
 * whose statistics are accurate is answered from the catalog without
 * opening a file (hive.compute.query.using.stats, default true). */
static void try_count_from_stats(binder_t *b, hl_plan_t *plan) {
  plan->stats_rows = -1;
  const char *use = hl_session_get(b->s, "hive.compute.query.using.stats");
  if (use && strcasecmp(use, "true") != 0) return;
  if (!plan->scan || plan->from->kind != HL_REL_SCAN || plan->filter || plan->scan->filter ||
      plan->n_group || plan->n_grouping_sets || plan->n_aggs != 1 ||
      plan->aggs[0].kind != HL_AGG_COUNT_STAR || plan->having || plan->n_windows ||
      plan->scan->projected || plan->scan->sampled || strcmp(plan->scan->format_name, "json") == 0)
    return;
  const hl_plan_scan_t *scan = plan->scan;
  int64_t total = 0;
  if (scan->table->n_part == 0) {
    total = hl_plan_accurate_rows(scan->table->cat->params, scan->table->cat->n_params);
    if (total < 0) return;
  } else {
    for (size_t i = 0; i < scan->n_parts; i++) {
      int64_t r = hl_plan_accurate_rows(scan->parts[i].params, scan->parts[i].n_params);
      if (r < 0) return;
      total += r;
    }
  }
  for (int i = 0; i < plan->n_out; i++)
    replace_with_count(plan->out_exprs[i], total);
  plan->stats_rows = total;
  plan->stats_parts = scan->table->n_part ? scan->n_parts : 0;
  plan->aggregate = false;
  plan->n_aggs = 0;
  plan->from = NULL; /* one row, no files */
}

/* SELECT min(k), max(k), count(DISTINCT k) ... FROM t [WHERE partition
 * predicates], every aggregate over a partition key and nothing else read:
 * the answer comes from the selected partitions' values, counting only
 * those that hold a row (exec/op_catalog.c).  SET
 * hive.optimize.metadataonly=false reads the rows instead. */
static void try_catalog_answer(binder_t *b, hl_plan_t *plan) {
  const char *use = hl_session_get(b->s, "hive.optimize.metadataonly");
  if (use && strcasecmp(use, "false") == 0) return;
  if (!plan->scan || plan->from->kind != HL_REL_SCAN || plan->filter || plan->scan->filter ||
      plan->n_group || plan->n_grouping_sets || plan->n_aggs == 0 || plan->n_windows ||
      plan->scan->sampled || plan->scan->dataset || plan->scan->table->n_part == 0)
    return;
  const hl_table_t *t = plan->scan->table;
  for (int i = 0; i < plan->n_aggs; i++) {
    const hl_agg_t *a = &plan->aggs[i];
    bool kind =
        a->kind == HL_AGG_MIN || a->kind == HL_AGG_MAX || (a->kind == HL_AGG_COUNT && a->distinct);
    if (!kind || !a->arg || a->arg->kind != HL_EX_COLUMN || a->arg->col < t->n_data ||
        a->arg->col >= t->n_all)
      return;
  }
  plan->catalog_answer = true;
}

/* ------------------------------------------------------------ windows */

static void fix_window_refs(hl_expr_t *e, int n_input) {
  if (e->kind == HL_EX_COLUMN && e->col >= WIN_MARK) e->col = n_input + (e->col - WIN_MARK);
  for (int k = 0; k < e->n_args; k++)
    fix_window_refs(e->args[k], n_input);
}

static hl_status_t window_to_agg_layout(binder_t *b, hl_window_t *w) {
  hl_expr_t **slots[2] = {&w->arg, &w->deflt};
  for (int i = 0; i < 2; i++)
    if (*slots[i]) {
      if (!(*slots[i] = to_agg_layout(b, *slots[i]))) return b->err->code;
      clear_out_ref(*slots[i]);
    }
  for (int j = 0; j < w->n_partition; j++) {
    if (!(w->partition[j] = to_agg_layout(b, w->partition[j]))) return b->err->code;
    clear_out_ref(w->partition[j]);
  }
  for (int j = 0; j < w->n_order; j++) {
    if (!(w->order[j] = to_agg_layout(b, w->order[j]))) return b->err->code;
    clear_out_ref(w->order[j]);
  }
  return HL_OK;
}

/* ------------------------------------------------------------- SELECT */

static hl_status_t add_output(binder_t *b, hl_plan_t *plan, int *cap, hl_expr_t *e,
                              const char *name) {
  if (plan->n_out >= MAX_COLUMNS)
    return hl_err_set_at(b->err, e->pos, HL_ERROR, HL_SS(TOO_MANY_COLUMNS),
                         "a query may have at most %d columns", MAX_COLUMNS);
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
  const char *name = hl_table_format_name(t);
  if (name) return name;
  const char *in = t->input_format ? t->input_format : "";
  const char *what = strstr(in, "Orc")        ? "ORC"
                     : strstr(in, "Avro")     ? "AVRO"
                     : strstr(in, "Sequence") ? "SEQUENCEFILE"
                     : strstr(in, "RCFile")   ? "RCFILE"
                                              : in;
  hl_err_set_at(b->err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                "reading %s tables is not supported yet (table \"%s.%s\")", what, t->db_name,
                t->name);
  return NULL;
}

/* ------------------------------------------------------------- FROM */

static hl_status_t add_entry(binder_t *b, const scope_entry_t *en) {
  if (b->n_entries == b->cap_entries) {
    int cap = b->cap_entries ? b->cap_entries * 2 : 4;
    scope_entry_t *n =
        hl_arena_realloc(b->arena, b->entries, sizeof(scope_entry_t) * (size_t)b->cap_entries,
                         sizeof(scope_entry_t) * (size_t)cap);
    if (!n) return hl_err_nomem(b->err);
    b->entries = n;
    b->cap_entries = cap;
  }
  b->entries[b->n_entries++] = *en;
  return HL_OK;
}

static const hl_ast_cte_t *find_cte(const binder_t *b, const hl_ast_qname_t *q) {
  if (q->db) return NULL;
  for (const binder_t *o = b; o; o = o->parent)
    for (int i = o->n_ctes - 1; i >= 0; i--)
      if (strcasecmp(o->ctes[i].name, q->name) == 0) return &o->ctes[i];
  return NULL;
}

static hl_rel_t *new_rel(binder_t *b, hl_rel_kind_t kind) {
  hl_rel_t *r = hl_arena_zalloc(b->arena, sizeof(*r));
  if (!r) hl_err_nomem(b->err);
  if (r) r->kind = kind;
  return r;
}

/* A nested query as a relation (subquery in FROM or a CTE reference). */
static hl_rel_t *query_rel(binder_t *b, const hl_ast_select_t *q, binder_t *parent) {
  hl_plan_t *sub;
  if (bind_query(b->s, parent, q, b->arena, &sub, b->err) != HL_OK) return NULL;
  hl_rel_t *r = new_rel(b, HL_REL_QUERY);
  if (!r) return NULL;
  r->query = sub;
  r->n_cols = sub->n_visible;
  r->names = (const char **)sub->out_names;
  r->types = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)(r->n_cols + 1));
  if (!r->types) return hl_err_nomem(b->err), NULL;
  for (int i = 0; i < r->n_cols; i++)
    r->types[i] = sub->out_exprs[i]->type;
  return r;
}

static hl_rel_t *bind_from(binder_t *b, const hl_ast_from_t *f);

/* Views nested deeper than this are refused: a cycle (v1 -> v2 -> v1) would
 * otherwise recurse without end. */
#define MAX_VIEW_DEPTH 64

/* Counts one more view or WITH query reference of the statement. */
static bool count_expansion(binder_t *b, long pos) {
  if (++b->root->n_expansions <= MAX_EXPANSIONS) return true;
  b->root->wide_error = true;
  hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(STATEMENT_TOO_COMPLEX),
                "the statement refers to views and WITH queries more than %d times (counting "
                "the references inside each view)",
                MAX_EXPANSIONS);
  return false;
}

/* A view as a relation: its stored query (view_expanded_text, whose table
 * names are all qualified, so the enclosing query's CTEs cannot capture
 * them) is parsed and bound like a subquery in FROM; its columns take the
 * view's names and types. */
static hl_rel_t *view_rel(binder_t *b, hl_table_t *t, const hl_ast_from_t *f) {
  const hl_cat_table_t *c = t->cat;
  if (b->views >= MAX_VIEW_DEPTH) {
    hl_err_set_at(b->err, f->pos, HL_ERROR, HL_SS(STATEMENT_TOO_COMPLEX),
                  "view \"%s.%s\" is nested too deeply (does it refer to itself?)", c->db_name,
                  c->name);
    return NULL;
  }
  if (!count_expansion(b, f->pos)) return NULL;
  if (f->has_sample) {
    hl_err_set_at(b->err, f->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "TABLESAMPLE of a view is not supported");
    return NULL;
  }
  const char *text = c->view_expanded_text;
  hl_ast_stmt_t *st;
  size_t consumed;
  hl_rel_t *r = NULL;
  if (hl_sql_parse(b->arena, text, strlen(text), &st, &consumed, b->err) == HL_OK) {
    if (!st || st->kind != HL_STMT_SELECT) {
      hl_err_set(b->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "the stored query is not a SELECT");
    } else {
      b->views++; /* the view's blocks inherit it */
      /* its names are its own catalog's, whichever catalog is current */
      hl_cat_t *outer = t->catalog ? hl_catalogs_resolve_in(b->s, t->catalog) : NULL;
      r = query_rel(b, st->select, b);
      if (t->catalog) hl_catalogs_resolve_in(b->s, outer);
      b->views--;
    }
  }
  if (r && r->n_cols != t->n_all) {
    hl_err_set(b->err, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
               "its query now returns %d columns instead of %d (recreate the view)", r->n_cols,
               t->n_all);
    r = NULL;
  }
  for (int i = 0; r && i < r->n_cols; i++) {
    hl_plan_t *q = r->query;
    if (!hl_type_equal(r->types[i], t->types[i]) &&
        !(q->out_exprs[i] = cast_to(b, q->out_exprs[i], t->types[i])))
      r = NULL;
    else
      r->types[i] = t->types[i];
  }
  if (!r) {
    /* name the innermost view only: its text is where the error is */
    if (b->err->code != HL_NOMEM && !b->root->wide_error && b->err->message &&
        strncmp(b->err->message, "view \"", 6) != 0)
      hl_err_prefix(b->err, "view \"%s.%s\"", c->db_name, c->name);
    b->err->position = f->pos; /* a position inside the view text means nothing here */
    return NULL;
  }
  r->names = t->names;
  return r;
}

/* SELECT FROM parquet.`path`: lists the files (pq_dataset.c) and builds a
 * synthetic external Parquet table over them -- file columns, then one
 * STRING column per partition directory key -- with one synthetic
 * partition per partition directory (id = unit index), so the ordinary
 * scan, pruning and predicate pushdown apply unchanged. */
static hl_rel_t *bind_parquet_path(binder_t *b, const hl_ast_from_t *f, scope_entry_t *en) {
  const char *path = f->file_path;
  if (strncmp(path, "file://", 7) == 0)
    path += 7;
  else if (strncmp(path, "file:", 5) == 0)
    path += 5;
  char *abs = hl_path_normalize(b->arena, path, NULL);
  if (!abs) return hl_err_nomem(b->err), NULL;
  hl_parquet_dataset_t *ds;
  if (hl_loc_allow_check(b->s, abs, "the Parquet path", b->err) != HL_OK ||
      hl_parquet_dataset_list(b->s->fs, f->file_path, b->arena, &ds, b->err) != HL_OK) {
    hl_err_position(b->err, f->pos);
    return NULL;
  }
  /* every file again, resolved: a link in the dataset to a file outside
   * the allowed locations is refused before any of its rows is read */
  for (size_t u = 0; u < ds->n_units; u++)
    for (size_t i = 0; i < ds->units[u].n_files; i++)
      if (hl_loc_allow_check(b->s, ds->units[u].files[i], "the Parquet path", b->err) != HL_OK) {
        hl_err_position(b->err, f->pos);
        return NULL;
      }
  hl_cat_table_t *c = hl_arena_zalloc(b->arena, sizeof(*c));
  int n_all = ds->n_cols + ds->n_part_keys;
  hl_cat_column_t *cols = hl_arena_zalloc(b->arena, sizeof(*cols) * (size_t)(n_all + 1));
  if (!c || !cols) return hl_err_nomem(b->err), NULL;
  c->id = -1;
  c->db_name = "parquet";
  c->name = ds->path;
  c->external = true;
  c->location = ds->path;
  c->input_format = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  c->output_format = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  c->serde_lib = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  c->num_buckets = -1;
  for (int i = 0; i < n_all; i++) {
    bool key = i >= ds->n_cols;
    cols[i].name = key ? ds->part_keys[i - ds->n_cols] : ds->names[i];
    cols[i].type = key ? "string" : hl_type_to_string(b->arena, ds->types[i]);
    if (!cols[i].type) return hl_err_nomem(b->err), NULL;
  }
  c->cols = cols;
  c->n_cols = ds->n_cols;
  c->part_keys = cols + ds->n_cols;
  c->n_part_keys = ds->n_part_keys;
  hl_table_t *t;
  if (hl_table_from_catalog(c, b->arena, &t, b->err) != HL_OK) return NULL;
  hl_rel_t *r = new_rel(b, HL_REL_SCAN);
  hl_plan_scan_t *scan = hl_arena_zalloc(b->arena, sizeof(*scan));
  if (!r || !scan) return hl_err_nomem(b->err), NULL;
  scan->table = t;
  scan->dataset = ds;
  scan->needed = hl_arena_zalloc(b->arena, sizeof(bool) * (size_t)(t->n_all + 1));
  if (!scan->needed) return hl_err_nomem(b->err), NULL;
  scan->format_name = "parquet";
  scan->sampled = f->has_sample;
  scan->sample_rows = f->sample_rows;
  if (ds->n_part_keys > 0) { /* all of them; prune_partitions filters */
    scan->parts = hl_arena_zalloc(b->arena, sizeof(hl_cat_partition_t) * ds->n_units);
    if (!scan->parts) return hl_err_nomem(b->err), NULL;
    for (size_t u = 0; u < ds->n_units; u++) {
      hl_cat_partition_t *p = &scan->parts[u];
      p->id = (int64_t)u;
      p->table_id = -1;
      p->values = ds->units[u].values;
      p->n_values = ds->n_part_keys;
      p->name = ds->units[u].name;
      p->location = ds->units[u].dir;
    }
    scan->n_parts = scan->n_parts_total = ds->n_units;
  }
  r->scan = scan;
  r->n_cols = t->n_all;
  r->names = t->names;
  r->types = t->types;
  en->alias = f->alias ? f->alias : f->file_path;
  en->table_name = f->file_path;
  en->db_name = "parquet";
  return r;
}

/* A partitioned table function in FROM as the query plan/ptf.c writes for
 * it; matchpath's needs the names of its input's columns, bound first. */
static hl_rel_t *ptf_rel(binder_t *b, const hl_ast_from_t *f) {
  hl_ptf_kind_t kind;
  hl_ast_select_t *q;
  if (hl_ptf_check(f, &kind, b->err) != HL_OK || hl_ptf_input(b->arena, f, &q, b->err) != HL_OK)
    return NULL;
  if (kind == HL_PTF_MATCHPATH) {
    hl_rel_t *in = query_rel(b, q, b);
    if (!in || hl_ptf_matchpath(b->arena, f, q, in->names, in->n_cols, &q, b->err) != HL_OK)
      return NULL;
  }
  return query_rel(b, q, b);
}

static hl_rel_t *bind_from_leaf(binder_t *b, const hl_ast_from_t *f) {
  scope_entry_t en;
  memset(&en, 0, sizeof en);
  hl_rel_t *r;
  if (f->kind == HL_FROM_TABLE && f->file_path) {
    if (!(r = bind_parquet_path(b, f, &en))) return NULL;
  } else if (f->kind == HL_FROM_SUBQUERY) {
    /* a subquery in FROM sees the enclosing query's CTEs but not its
     * columns: bind it with this binder as parent for CTE lookup only */
    if (!(r = query_rel(b, f->subquery, b))) return NULL;
    en.alias = f->alias ? f->alias : "";
  } else if (f->kind == HL_FROM_PTF) {
    if (!(r = ptf_rel(b, f))) return NULL;
    en.alias = f->alias ? f->alias : "";
  } else {
    const hl_ast_cte_t *cte = find_cte(b, &f->table);
    hl_table_t *t;
    if (cte) {
      if (f->has_sample)
        return hl_err_set_at(b->err, f->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                             "TABLESAMPLE of a WITH query is not supported"),
               NULL;
      if (!count_expansion(b, f->pos) || !(r = query_rel(b, cte->query, b))) return NULL;
      en.alias = f->alias ? f->alias : cte->name;
      en.table_name = cte->name;
    } else if (hl_table_load_or_view(b->s, &f->table, b->arena, &t, b->err) != HL_OK) {
      return NULL;
    } else if (t->cat->view) {
      if (!(r = view_rel(b, t, f))) return NULL;
      en.alias = f->alias ? f->alias : t->cat->name;
      en.table_name = t->cat->name;
      en.db_name = t->cat->db_name;
    } else {
      r = new_rel(b, HL_REL_SCAN);
      hl_plan_scan_t *scan = hl_arena_zalloc(b->arena, sizeof(*scan));
      if (!r || !scan) return hl_err_nomem(b->err), NULL;
      scan->table = t;
      scan->actual = hl_arena_zalloc(b->arena, sizeof(hl_scan_actual_t));
      scan->needed = hl_arena_zalloc(b->arena, sizeof(bool) * (size_t)(t->n_all + 1));
      if (!scan->needed) return hl_err_nomem(b->err), NULL;
      scan->format_name = scan_format(b, t->cat, f->pos);
      if (!scan->format_name) return NULL;
      scan->sampled = f->has_sample;
      scan->sample_rows = f->sample_rows;
      r->scan = scan;
      r->n_cols = t->n_all;
      r->names = t->names;
      r->types = t->types;
      en.alias = f->alias ? f->alias : t->cat->name;
      en.table_name = t->cat->name;
      en.db_name = t->cat->db_name;
    }
  }
  r->offset = b->n_cols;
  en.offset = b->n_cols;
  en.n_cols = r->n_cols;
  en.names = r->names;
  en.types = r->types;
  en.rel = r;
  for (int i = 0; i < b->n_entries; i++)
    if (en.alias[0] && strcasecmp(b->entries[i].alias, en.alias) == 0) {
      hl_err_set_at(b->err, f->pos, HL_ERROR, HL_SS(DUPLICATE_OBJECT),
                    "table name \"%s\" specified more than once", en.alias);
      return NULL;
    }
  if (add_entry(b, &en) != HL_OK) return NULL;
  b->n_cols += r->n_cols;
  return r;
}

/* Moves column references of E from the block layout to a layout starting
 * at OFFSET (a copy; E is left alone). */
static hl_expr_t *shift_cols(binder_t *b, const hl_expr_t *e, int offset) {
  hl_expr_t *c = hl_arena_alloc(b->arena, sizeof(*c));
  if (!c) return hl_err_nomem(b->err), NULL;
  *c = *e;
  if (e->kind == HL_EX_COLUMN) c->col -= offset;
  if (e->n_args) {
    c->args = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)e->n_args);
    if (!c->args) return hl_err_nomem(b->err), NULL;
    for (int k = 0; k < e->n_args; k++)
      if (!(c->args[k] = shift_cols(b, e->args[k], offset))) return NULL;
  }
  return c;
}

static hl_expr_t *and_of(binder_t *b, hl_expr_t **items, int n, long pos) {
  if (n == 0) return NULL;
  if (n == 1) return items[0];
  hl_expr_t *e = new_expr(b, HL_EX_AND, hl_type_prim(HL_T_BOOLEAN), pos);
  if (!e) return NULL;
  e->args = items;
  e->n_args = n;
  return e;
}

static int count_conjuncts(const hl_expr_t *e);
static void collect_conjuncts(hl_expr_t *e, hl_expr_t **out, int *n);

/* Marks the entries of columns [lo, hi) as NULL-extendable. */
static void mark_null_supplying(binder_t *b, int lo, int hi) {
  for (int i = 0; i < b->n_entries; i++)
    if (b->entries[i].offset >= lo && b->entries[i].offset < hi)
      b->entries[i].null_supplying = true;
}

/* Bytes a relation reads by the catalog's totalSize statistics, or -1
 * when unknown. */
static int64_t estimated_bytes(const hl_rel_t *r) {
  if (r->kind != HL_REL_SCAN) return -1;
  /* the table's total: partitions are pruned only after the joins bind */
  const hl_table_t *t = r->scan->table;
  const char *v = hl_kv_get(t->cat->params, t->cat->n_params, "totalSize");
  return v ? strtoll(v, NULL, 10) : -1;
}

static hl_rel_t *bind_join(binder_t *b, const hl_ast_from_t *f) {
  hl_rel_t *left = bind_from(b, f->left);
  if (!left) return NULL;
  int first_right_entry = b->n_entries;
  hl_rel_t *right = bind_from(b, f->right);
  if (!right) return NULL;
  hl_rel_t *j = new_rel(b, HL_REL_JOIN);
  if (!j) return NULL;
  j->join_type = f->join_type;
  j->left = left;
  j->right = right;
  j->offset = left->offset;
  j->n_cols = left->n_cols + right->n_cols;
  j->names = hl_arena_alloc(b->arena, sizeof(char *) * (size_t)(j->n_cols + 1));
  j->types = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)(j->n_cols + 1));
  if (!j->names || !j->types) return hl_err_nomem(b->err), NULL;
  for (int c = 0; c < left->n_cols; c++) {
    j->names[c] = left->names[c];
    j->types[c] = left->types[c];
  }
  for (int c = 0; c < right->n_cols; c++) {
    j->names[left->n_cols + c] = right->names[c];
    j->types[left->n_cols + c] = right->types[c];
  }
  /* ON conditions over the join's columns; USING (a) is ON l.a = r.a */
  hl_expr_t *on = NULL;
  if (f->on) {
    if (!(on = bind_expr(b, f->on)) || !(on = to_bool(b, on))) return NULL;
    if (!hl_expr_cols_within(on, j->offset, j->offset + j->n_cols)) {
      hl_err_set_at(b->err, f->on->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                    "the ON condition may only use columns of the joined tables");
      return NULL;
    }
  }
  hl_expr_t **using_eq = NULL;
  if (f->n_using) {
    using_eq = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)(f->n_using + 1));
    if (!using_eq) return hl_err_nomem(b->err), NULL;
    for (int k = 0; k < f->n_using; k++) {
      int lc = -1, rc = -1;
      for (int c = 0; c < left->n_cols; c++)
        if (strcasecmp(left->names[c], f->using_cols[k]) == 0) lc = c;
      for (int c = 0; c < right->n_cols; c++)
        if (strcasecmp(right->names[c], f->using_cols[k]) == 0) rc = c;
      if (lc < 0 || rc < 0) {
        hl_err_set_at(b->err, f->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                      "column \"%s\" specified in USING does not exist in %s side of the join",
                      f->using_cols[k], lc < 0 ? "the left" : "the right");
        return NULL;
      }
      hl_expr_t *x = new_expr(b, HL_EX_COLUMN, left->types[lc], f->pos);
      hl_expr_t *y = new_expr(b, HL_EX_COLUMN, right->types[rc], f->pos);
      if (!x || !y) return NULL;
      x->col = left->offset + lc;
      x->col_name = left->names[lc];
      y->col = right->offset + rc;
      y->col_name = right->names[rc];
      if (!(using_eq[k] = make_cmp(b, HL_XOP_EQ, x, y, f->pos))) return NULL;
    }
    /* the merged column resolves to the left side when unqualified */
    for (int i = first_right_entry; i < b->n_entries; i++) {
      b->entries[i].using_cols = f->using_cols;
      b->entries[i].n_using = f->n_using;
    }
  }
  /* split conditions: l = r equalities become hash keys, the rest stays */
  int n_conj = (on ? count_conjuncts(on) : 0) + f->n_using, m = 0;
  hl_expr_t **conj = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)(n_conj + 1));
  hl_expr_t **rest = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)(n_conj + 1));
  j->left_keys = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)(n_conj + 1));
  j->right_keys = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)(n_conj + 1));
  if (!conj || !rest || !j->left_keys || !j->right_keys) return hl_err_nomem(b->err), NULL;
  if (on) collect_conjuncts(on, conj, &m);
  for (int k = 0; k < f->n_using; k++)
    conj[m++] = using_eq[k];
  int n_rest = 0;
  int lo = left->offset, mid = right->offset, hi = right->offset + right->n_cols;
  for (int k = 0; k < m; k++) {
    hl_expr_t *c = conj[k];
    if (c->kind == HL_EX_CMP && c->op == HL_XOP_EQ) {
      hl_expr_t *x = c->args[0], *y = c->args[1];
      bool x_left = hl_expr_cols_within(x, lo, mid), x_right = hl_expr_cols_within(x, mid, hi);
      bool y_left = hl_expr_cols_within(y, lo, mid), y_right = hl_expr_cols_within(y, mid, hi);
      hl_expr_t *lk = NULL, *rk = NULL;
      if (x_left && !x_right && y_right && !y_left) {
        lk = x;
        rk = y;
      } else if (y_left && !y_right && x_right && !x_left) {
        lk = y;
        rk = x;
      }
      if (lk) {
        if (!(j->left_keys[j->n_keys] = shift_cols(b, lk, lo)) ||
            !(j->right_keys[j->n_keys] = shift_cols(b, rk, mid)))
          return NULL;
        j->n_keys++;
        continue;
      }
    }
    rest[n_rest++] = c;
  }
  if (n_rest) {
    hl_expr_t *r = and_of(b, rest, n_rest, f->pos);
    if (!r || !(j->residual = shift_cols(b, r, lo))) return NULL;
  }
  if (j->join_type == HL_JOIN_CROSS && (j->n_keys || j->residual)) j->join_type = HL_JOIN_INNER;
  /* hash the smaller side of an inner join when statistics tell */
  if (j->join_type == HL_JOIN_INNER) {
    int64_t lb = estimated_bytes(left), rb = estimated_bytes(right);
    j->build_left = lb >= 0 && rb >= 0 && lb < rb;
  }
  switch (j->join_type) {
  case HL_JOIN_LEFT:
    mark_null_supplying(b, mid, hi);
    break;
  case HL_JOIN_RIGHT:
    mark_null_supplying(b, lo, mid);
    break;
  case HL_JOIN_FULL:
    mark_null_supplying(b, lo, hi);
    break;
  case HL_JOIN_LEFT_SEMI:
  case HL_JOIN_LEFT_ANTI:
    /* the right side exists only for ON */
    for (int i = first_right_entry; i < b->n_entries; i++)
      b->entries[i].hidden = true;
    break;
  default:
    break;
  }
  return j;
}

static hl_rel_t *bind_lateral(binder_t *b, const hl_ast_from_t *f);

static hl_rel_t *bind_from(binder_t *b, const hl_ast_from_t *f) {
  if (f->kind == HL_FROM_JOIN) return bind_join(b, f);
  if (f->kind == HL_FROM_LATERAL) return bind_lateral(b, f);
  return bind_from_leaf(b, f);
}

/* The scan entry owning block column COL, or NULL. */
static scope_entry_t *entry_of_col(binder_t *b, int col) {
  for (int i = 0; i < b->n_entries; i++)
    if (col >= b->entries[i].offset && col < b->entries[i].offset + b->entries[i].n_cols)
      return &b->entries[i];
  return NULL;
}

/* Marks the scan columns an expression over the block layout reads. */
static void mark_needed_block(binder_t *b, const hl_expr_t *e) {
  if (e->kind == HL_EX_COLUMN && !e->out_ref) {
    scope_entry_t *en = entry_of_col(b, e->col);
    if (en && en->rel->kind == HL_REL_SCAN) en->rel->scan->needed[e->col - en->offset] = true;
  }
  for (int k = 0; k < e->n_args; k++)
    mark_needed_block(b, e->args[k]);
}

/* Join keys and residuals are over their join's layout (offset j->offset). */
static void mark_needed_rel(binder_t *b, const hl_rel_t *r) {
  if (r->kind == HL_REL_LATERAL) { /* its argument was marked when bound */
    mark_needed_rel(b, r->left);
    return;
  }
  if (r->kind != HL_REL_JOIN) return;
  mark_needed_rel(b, r->left);
  mark_needed_rel(b, r->right);
  for (int k = 0; k < r->n_keys; k++) {
    /* shift back to block columns for marking */
    hl_expr_t *l = shift_cols(b, r->left_keys[k], -r->left->offset);
    hl_expr_t *rr = shift_cols(b, r->right_keys[k], -r->right->offset);
    if (l) mark_needed_block(b, l);
    if (rr) mark_needed_block(b, rr);
  }
  if (r->residual) {
    hl_expr_t *x = shift_cols(b, r->residual, -r->offset);
    if (x) mark_needed_block(b, x);
  }
}

/* LATERAL VIEW [OUTER] explode|posexplode(collection) alias [AS cols]: the
 * left relation's rows, each repeated once per element (array) or entry
 * (map) of the collection, with the generated columns appended.  The
 * argument may use only the left relation's columns. */
static hl_ast_expr_t *ast_new(binder_t *b, hl_ast_expr_kind_t kind, long pos) {
  hl_ast_expr_t *e = hl_arena_zalloc(b->arena, sizeof(*e));
  if (!e) return hl_err_nomem(b->err), NULL;
  e->kind = kind;
  e->pos = pos;
  return e;
}

static hl_ast_expr_t *ast_call(binder_t *b, const char *name, int n_args, long pos) {
  hl_ast_expr_t *e = ast_new(b, HL_AST_FUNC, pos);
  if (!e) return NULL;
  e->name = (char *)name;
  e->n_args = n_args;
  e->args = hl_arena_zalloc(b->arena, sizeof(hl_ast_expr_t *) * (size_t)(n_args + 1));
  return e->args ? e : (hl_err_nomem(b->err), NULL);
}

static hl_ast_expr_t *ast_string(binder_t *b, const char *text, long pos) {
  hl_ast_expr_t *e = ast_new(b, HL_AST_LITERAL, pos);
  if (!e) return NULL;
  e->lit_type = HL_LIT_STRING;
  e->text = (char *)text;
  e->text_len = strlen(text);
  return e;
}

/* The constant text of AST string literal A, or NULL. */
static const char *ast_const_string(const hl_ast_expr_t *a) {
  return a->kind == HL_AST_LITERAL && a->lit_type == HL_LIT_STRING ? a->text : NULL;
}

/* stack(n, v1, ..., vk): n rows of ceil(k / n) columns, the last row padded
 * with NULLs, as array(struct(CAST(v AS column type), ...), ...), each
 * column of the common type of its values. */
static hl_ast_expr_t *stack_rows(binder_t *b, const hl_ast_expr_t *fn) {
  if (fn->n_args < 2) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "stack takes at least two arguments");
    return NULL;
  }
  hl_expr_t *ne = bind_expr(b, fn->args[0]);
  if (!ne) return NULL;
  if (ne->kind != HL_EX_CONST || ne->value.is_null || !hl_type_is_integer(ne->type) ||
      ne->value.u.i < 1 || ne->value.u.i > fn->n_args - 1) {
    hl_err_set_at(b->err, fn->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "the first argument of stack must be a constant integer between 1 and the "
                  "number of values");
    return NULL;
  }
  int n_rows = (int)ne->value.u.i, k = fn->n_args - 1, n_cols = (k + n_rows - 1) / n_rows;
  hl_type_t **ct = hl_arena_zalloc(b->arena, sizeof(hl_type_t *) * (size_t)n_cols);
  if (!ct) return hl_err_nomem(b->err), NULL;
  for (int c = 0; c < n_cols; c++) {
    const hl_type_t *t = hl_type_prim(HL_T_NULL);
    for (int r = 0; r < n_rows && r * n_cols + c < k; r++) {
      const hl_ast_expr_t *va = fn->args[1 + r * n_cols + c];
      hl_expr_t *v = bind_expr(b, va);
      if (!v || !(t = union_type(b, t, v->type, va->pos))) return NULL;
    }
    ct[c] = (hl_type_t *)(t->id == HL_T_NULL ? hl_type_prim(HL_T_STRING) : t);
  }
  hl_ast_expr_t *arr = ast_call(b, "array", n_rows, fn->pos);
  if (!arr) return NULL;
  for (int r = 0; r < n_rows; r++) {
    hl_ast_expr_t *st = ast_call(b, "struct", n_cols, fn->pos);
    if (!(arr->args[r] = st)) return NULL;
    for (int c = 0; c < n_cols; c++) {
      int i = r * n_cols + c;
      hl_ast_expr_t *cast = ast_new(b, HL_AST_CAST, fn->pos);
      if (!cast || !(cast->args = hl_arena_zalloc(b->arena, sizeof(hl_ast_expr_t *))))
        return hl_err_nomem(b->err), NULL;
      cast->n_args = 1;
      cast->cast_type = ct[c];
      if (i < k) {
        cast->args[0] = fn->args[1 + i];
      } else if ((cast->args[0] = ast_new(b, HL_AST_LITERAL, fn->pos))) {
        cast->args[0]->lit_type = HL_LIT_NULL;
      } else {
        return NULL;
      }
      st->args[c] = cast;
    }
  }
  return arr;
}

/* parse_url_tuple's part PA that is not a constant, read on every row:
 * if(PA LIKE 'QUERY:%', parse_url(URL, 'QUERY', substr(PA, 7)),
 * parse_url(URL, PA)).  Hive reads such a part from the first row with a
 * URL and keeps it for the rows after it; on every row is the same answer
 * when the part is the same on all rows, and one that does not depend on
 * the order rows arrive in when it is not. */
static hl_ast_expr_t *url_part_per_row(binder_t *b, hl_ast_expr_t *url, hl_ast_expr_t *pa) {
  long pos = pa->pos;
  hl_ast_expr_t *cond = ast_new(b, HL_AST_LIKE, pos);
  hl_ast_expr_t *key = ast_call(b, "substr", 2, pos);
  hl_ast_expr_t *seven = ast_new(b, HL_AST_LITERAL, pos);
  hl_ast_expr_t *with_key = ast_call(b, "parse_url", 3, pos);
  hl_ast_expr_t *plain = ast_call(b, "parse_url", 2, pos);
  hl_ast_expr_t *choice = ast_call(b, "if", 3, pos);
  if (!cond || !key || !seven || !with_key || !plain || !choice) return NULL;
  if (!(cond->args = hl_arena_zalloc(b->arena, 2 * sizeof *cond->args)))
    return hl_err_nomem(b->err), NULL;
  cond->op = HL_OP_LIKE;
  cond->n_args = 2;
  cond->args[0] = pa;
  if (!(cond->args[1] = ast_string(b, "QUERY:%", pos))) return NULL;
  seven->lit_type = HL_LIT_INTEGER;
  seven->text = "7";
  seven->text_len = 1;
  key->args[0] = pa;
  key->args[1] = seven;
  with_key->args[0] = url;
  if (!(with_key->args[1] = ast_string(b, "QUERY", pos))) return NULL;
  with_key->args[2] = key;
  plain->args[0] = url;
  plain->args[1] = pa;
  choice->args[0] = cond;
  choice->args[1] = with_key;
  choice->args[2] = plain;
  return choice;
}

/* json_tuple(json, k1, ...) and parse_url_tuple(url, p1, ...): one row,
 * array(struct(get_json_object(json, concat('$.', k1)), ...)) and
 * array(struct(parse_url(url, p1), ...)) where a part 'QUERY:key' is
 * parse_url(url, 'QUERY', 'key'). */
static hl_ast_expr_t *tuple_row(binder_t *b, const hl_ast_expr_t *fn, bool url) {
  if (fn->n_args < 2) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "%s takes at least two arguments", fn->name);
    return NULL;
  }
  int n = fn->n_args - 1;
  hl_ast_expr_t *arr = ast_call(b, "array", 1, fn->pos);
  hl_ast_expr_t *st = arr ? ast_call(b, "struct", n, fn->pos) : NULL;
  if (!st) return NULL;
  arr->args[0] = st;
  for (int k = 0; k < n; k++) {
    const hl_ast_expr_t *ka = fn->args[1 + k];
    hl_ast_expr_t *call;
    if (url) {
      const char *part = ast_const_string(ka);
      if (!part) {
        if (!(call = url_part_per_row(b, fn->args[0], (hl_ast_expr_t *)ka))) return NULL;
        st->args[k] = call;
        continue;
      }
      bool query_key = strncmp(part, "QUERY:", 6) == 0;
      if (!(call = ast_call(b, "parse_url", query_key ? 3 : 2, ka->pos))) return NULL;
      call->args[0] = fn->args[0];
      if (query_key) {
        if (!(call->args[1] = ast_string(b, "QUERY", ka->pos)) ||
            !(call->args[2] = ast_string(b, part + 6, ka->pos)))
          return NULL;
      } else {
        call->args[1] = (hl_ast_expr_t *)ka;
      }
    } else {
      hl_ast_expr_t *path = ast_call(b, "concat", 2, ka->pos);
      if (!path || !(path->args[0] = ast_string(b, "$.", ka->pos))) return NULL;
      path->args[1] = (hl_ast_expr_t *)ka;
      if (!(call = ast_call(b, "get_json_object", 2, ka->pos))) return NULL;
      call->args[0] = fn->args[0];
      call->args[1] = path;
    }
    st->args[k] = call;
  }
  return arr;
}

/* The LATERAL relation over LEFT generating N_GEN columns named GNAMES
 * (replaced by the view's column aliases) of types GTYPES from ARG, and
 * its scope entry. */
static hl_rel_t *lateral_rel(binder_t *b, const hl_ast_from_t *f, hl_rel_t *left, hl_expr_t *arg,
                             int n_gen, const char **gnames, const hl_type_t **gtypes, bool pos,
                             bool gen_inline) {
  const hl_ast_expr_t *fn = f->lateral_func;
  if (f->n_lateral_cols) {
    if (f->n_lateral_cols != n_gen) {
      hl_err_set_at(b->err, f->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                    "%s produces %d columns but %d column aliases are given", fn->name, n_gen,
                    f->n_lateral_cols);
      return NULL;
    }
    for (int k = 0; k < n_gen; k++)
      gnames[k] = f->lateral_cols[k];
  }
  mark_needed_block(b, arg);
  hl_rel_t *r = new_rel(b, HL_REL_LATERAL);
  if (!r || !(r->gen_arg = shift_cols(b, arg, left->offset))) return NULL;
  r->left = left;
  r->gen_pos = pos;
  r->gen_inline = gen_inline;
  r->gen_outer = f->lateral_outer;
  r->offset = left->offset;
  r->n_cols = left->n_cols + n_gen;
  r->names = hl_arena_alloc(b->arena, sizeof(char *) * (size_t)r->n_cols);
  r->types = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)r->n_cols);
  if (!r->names || !r->types) return hl_err_nomem(b->err), NULL;
  for (int c = 0; c < r->n_cols; c++) {
    r->names[c] = c < left->n_cols ? left->names[c] : gnames[c - left->n_cols];
    r->types[c] = c < left->n_cols ? left->types[c] : gtypes[c - left->n_cols];
  }
  scope_entry_t en;
  memset(&en, 0, sizeof en);
  en.alias = f->alias;
  en.table_name = f->alias;
  en.offset = left->offset + left->n_cols;
  en.n_cols = n_gen;
  en.names = r->names + left->n_cols;
  en.types = r->types + left->n_cols;
  en.rel = r;
  for (int i = 0; i < b->n_entries; i++)
    if (strcasecmp(b->entries[i].alias, en.alias) == 0) {
      hl_err_set_at(b->err, f->pos, HL_ERROR, HL_SS(DUPLICATE_OBJECT),
                    "table name \"%s\" specified more than once", en.alias);
      return NULL;
    }
  if (add_entry(b, &en) != HL_OK) return NULL;
  b->n_cols += n_gen;
  return r;
}

/* inline(array of structs) and the functions bound to it: one generated
 * column per field, named after the field for inline, else c0, c1, ...
 * (json_tuple, parse_url_tuple) or col0, col1, ... (stack), Hive's names. */
static hl_rel_t *bind_lateral_inline(binder_t *b, const hl_ast_from_t *f, hl_rel_t *left,
                                     hl_expr_t *arg, const char *rewritten) {
  const hl_ast_expr_t *fn = f->lateral_func;
  const hl_type_t *at = arg->type;
  if (at->id != HL_T_ARRAY || at->children[0]->id != HL_T_STRUCT) {
    hl_err_set_at(b->err, fn->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "inline needs an array of structs, not %s", type_name(b, at));
    return NULL;
  }
  if (!hl_expr_cols_within(arg, left->offset, left->offset + left->n_cols)) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                  "the arguments of LATERAL VIEW %s may only use columns of the table it follows",
                  fn->name);
    return NULL;
  }
  const hl_type_t *st = at->children[0];
  int n_gen = st->n_children;
  const char **gnames = hl_arena_alloc(b->arena, sizeof(char *) * (size_t)n_gen);
  const hl_type_t **gtypes = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)n_gen);
  if (!gnames || !gtypes) return hl_err_nomem(b->err), NULL;
  for (int k = 0; k < n_gen; k++) {
    gtypes[k] = st->children[k];
    gnames[k] = !rewritten ? st->field_names[k]
                           : hl_arena_sprintf(b->arena, "%s%d",
                                              strcmp(rewritten, "stack") == 0 ? "col" : "c", k);
    if (!gnames[k]) return hl_err_nomem(b->err), NULL;
  }
  return lateral_rel(b, f, left, arg, n_gen, gnames, gtypes, false, true);
}

/* replicate_rows(n, v1, ...) (Hive's GenericUDTFReplicateRows): each row n
 * times, with every argument as a column (col0 the count, col1, ...); n
 * must be a BIGINT, as Hive takes only a long.  Bound as the struct of the
 * arguments, which op_lateral.c repeats without building the copies. */
static hl_rel_t *bind_lateral_repeat(binder_t *b, const hl_ast_from_t *f, hl_rel_t *left) {
  const hl_ast_expr_t *fn = f->lateral_func;
  if (fn->n_args < 2) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "replicate_rows takes at least two arguments");
    return NULL;
  }
  /* the count's own type: struct() would make a NULL a STRING */
  hl_expr_t *count = bind_expr(b, fn->args[0]);
  if (!count) return NULL;
  const hl_type_t *nt = count->type;
  if (nt->id != HL_T_BIGINT) {
    hl_err_set_at(b->err, fn->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "the first argument of replicate_rows must be a BIGINT, not %s",
                  nt->id == HL_T_NULL ? "void" : type_name(b, nt));
    return NULL;
  }
  hl_ast_expr_t *st = ast_call(b, "struct", fn->n_args, fn->pos);
  if (!st) return NULL;
  for (int k = 0; k < fn->n_args; k++)
    st->args[k] = fn->args[k];
  hl_expr_t *arg = bind_expr(b, st);
  if (!arg) return NULL;
  if (!hl_expr_cols_within(arg, left->offset, left->offset + left->n_cols)) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                  "the arguments of LATERAL VIEW %s may only use columns of the table it follows",
                  fn->name);
    return NULL;
  }
  int n_gen = fn->n_args;
  const char **gnames = hl_arena_alloc(b->arena, sizeof(char *) * (size_t)n_gen);
  const hl_type_t **gtypes = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)n_gen);
  if (!gnames || !gtypes) return hl_err_nomem(b->err), NULL;
  for (int k = 0; k < n_gen; k++) {
    gtypes[k] = arg->type->children[k];
    if (!(gnames[k] = hl_arena_sprintf(b->arena, "col%d", k))) return hl_err_nomem(b->err), NULL;
  }
  hl_rel_t *r = lateral_rel(b, f, left, arg, n_gen, gnames, gtypes, false, false);
  if (r) r->gen_repeat = true;
  return r;
}

/* A failure of the query inside get_sql_schema's text, reported at the
 * argument: the error's own offset is into that text. */
static hl_rel_t *schema_error(binder_t *b, long pos) {
  b->err->position = pos;
  return NULL;
}

/* get_sql_schema('query') (Hive's GenericUDTFGetSQLSchema): a row
 * (col_name, col_type), both BINARY as in Hive, per column of the query's
 * result, which is parsed and planned here without running; a statement
 * other than a query gives no rows.  The query must be a constant: Hive
 * plans it per row, hivelite plans each query once. */
static hl_rel_t *bind_lateral_schema(binder_t *b, const hl_ast_from_t *f, hl_rel_t *left) {
  const hl_ast_expr_t *fn = f->lateral_func;
  if (fn->n_args != 1 || fn->distinct || fn->args[0]->kind == HL_AST_STAR) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "get_sql_schema takes exactly one argument");
    return NULL;
  }
  long pos = fn->args[0]->pos;
  hl_expr_t *x = bind_expr(b, fn->args[0]);
  if (!x) return NULL;
  if (x->type->id != HL_T_STRING) {
    hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "the argument of get_sql_schema must be a string, not %s",
                  x->type->id == HL_T_NULL ? "void" : type_name(b, x->type));
    return NULL;
  }
  if (x->kind != HL_EX_CONST) {
    hl_err_set_at(b->err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "get_sql_schema of a query that is not a constant is not supported yet");
    return NULL;
  }
  if (x->value.is_null) {
    hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                  "the query of get_sql_schema is NULL");
    return NULL;
  }
  const char *text = hl_arena_strndup(b->arena, x->value.u.s.ptr, x->value.u.s.len);
  if (!text) return hl_err_nomem(b->err), NULL;
  size_t len = x->value.u.s.len, used = 0;
  hl_ast_stmt_t *st = NULL;
  if (hl_sql_parse(b->arena, text, len, &st, &used, b->err) != HL_OK) return schema_error(b, pos);
  while (used < len && text[used] && strchr(" \t\r\n;", text[used]))
    used++;
  if (!st || used < len) {
    hl_err_set_at(b->err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                  "get_sql_schema takes exactly one statement");
    return NULL;
  }
  hl_plan_t *q = NULL;
  if (st->kind == HL_STMT_SELECT &&
      bind_query(b->s, NULL, st->select, b->arena, &q, b->err) != HL_OK)
    return schema_error(b, pos);
  int n = q ? q->n_visible : 0;
  /* ARRAY<STRUCT<col_name:BINARY,col_type:BINARY>>, the rows as one constant */
  hl_type_t *row = hl_arena_zalloc(b->arena, sizeof *row);
  hl_type_t *arr = hl_arena_zalloc(b->arena, sizeof *arr);
  hl_type_t **kids = hl_arena_alloc(b->arena, 2 * sizeof *kids);
  hl_type_t **elem = hl_arena_alloc(b->arena, sizeof *elem);
  char **fields = hl_arena_alloc(b->arena, 2 * sizeof *fields);
  hl_value_t *rows = hl_arena_zalloc(b->arena, sizeof *rows * (size_t)(n ? n : 1));
  hl_value_t *cells = hl_arena_zalloc(b->arena, sizeof *cells * (size_t)(2 * n + 1));
  if (!row || !arr || !kids || !elem || !fields || !rows || !cells)
    return hl_err_nomem(b->err), NULL;
  kids[0] = kids[1] = (hl_type_t *)hl_type_prim(HL_T_BINARY);
  fields[0] = "col_name";
  fields[1] = "col_type";
  *row = (hl_type_t){.id = HL_T_STRUCT, .n_children = 2, .children = kids, .field_names = fields};
  elem[0] = row;
  *arr = (hl_type_t){.id = HL_T_ARRAY, .n_children = 1, .children = elem};
  for (int k = 0; k < n; k++) {
    const char *name = q->out_names[k];
    char *type = hl_type_to_string(b->arena, q->out_exprs[k]->type);
    if (!type) return hl_err_nomem(b->err), NULL;
    cells[2 * k].u.s = (hl_str_t){name, (uint32_t)strlen(name)};
    cells[2 * k + 1].u.s = (hl_str_t){type, (uint32_t)strlen(type)};
    rows[k].u.list.n = 2;
    rows[k].u.list.items = &cells[2 * k];
  }
  hl_expr_t *c = new_expr(b, HL_EX_CONST, arr, fn->pos);
  if (!c) return NULL;
  c->value.u.list.n = (uint32_t)n;
  c->value.u.list.items = rows;
  return bind_lateral_inline(b, f, left, c, NULL);
}

static hl_rel_t *bind_lateral(binder_t *b, const hl_ast_from_t *f) {
  const hl_ast_expr_t *fn = f->lateral_func;
  hl_rel_t *left = bind_from(b, f->left);
  if (!left) return NULL;
  if (strcmp(fn->name, "get_sql_schema") == 0) return bind_lateral_schema(b, f, left);
  if (strcmp(fn->name, "replicate_rows") == 0 && !fn->distinct)
    return bind_lateral_repeat(b, f, left);
  bool pos = strcmp(fn->name, "posexplode") == 0;
  bool is_inline = strcmp(fn->name, "inline") == 0, is_stack = strcmp(fn->name, "stack") == 0,
       is_json = strcmp(fn->name, "json_tuple") == 0,
       is_url = strcmp(fn->name, "parse_url_tuple") == 0;
  bool gen_inline = is_inline || is_stack || is_json || is_url;
  if (!pos && !gen_inline && strcmp(fn->name, "explode") != 0) {
    hl_err_set_at(b->err, fn->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                  "LATERAL VIEW with %s() is not supported yet", fn->name);
    return NULL;
  }
  if (fn->distinct || (fn->n_args > 0 && fn->args[0]->kind == HL_AST_STAR) ||
      (!is_stack && !is_json && !is_url && fn->n_args != 1)) {
    hl_err_set_at(b->err, fn->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                  "%s takes exactly one argument", fn->name);
    return NULL;
  }
  const hl_ast_expr_t *arg_ast = fn->args[0];
  if ((is_stack && !(arg_ast = stack_rows(b, fn))) ||
      ((is_json || is_url) && !(arg_ast = tuple_row(b, fn, is_url))))
    return NULL;
  hl_expr_t *arg = bind_expr(b, arg_ast);
  if (!arg) return NULL;
  if (gen_inline) return bind_lateral_inline(b, f, left, arg, is_inline ? NULL : fn->name);
  if (!hl_expr_cols_within(arg, left->offset, left->offset + left->n_cols)) {
    hl_err_set_at(b->err, fn->args[0]->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                  "the argument of LATERAL VIEW %s may only use columns of the table it follows",
                  fn->name);
    return NULL;
  }
  const hl_type_t *at = arg->type;
  if (at->id != HL_T_ARRAY && !(at->id == HL_T_MAP && !pos)) {
    hl_err_set_at(b->err, fn->args[0]->pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                  "%s needs an array%s argument, not %s", fn->name, pos ? "" : " or a map",
                  type_name(b, at));
    return NULL;
  }
  /* generated columns: [pos,] col | key, value (Hive's default names) */
  int n_gen = (pos ? 1 : 0) + (at->id == HL_T_MAP ? 2 : 1);
  const char **gnames = hl_arena_alloc(b->arena, sizeof(char *) * (size_t)n_gen);
  const hl_type_t **gtypes = hl_arena_alloc(b->arena, sizeof(hl_type_t *) * (size_t)n_gen);
  if (!gnames || !gtypes) return hl_err_nomem(b->err), NULL;
  int g = 0;
  if (pos) {
    gnames[g] = "pos";
    gtypes[g++] = hl_type_prim(HL_T_INT);
  }
  if (at->id == HL_T_MAP) {
    gnames[g] = "key";
    gtypes[g++] = at->children[0];
    gnames[g] = "value";
    gtypes[g++] = at->children[1];
  } else {
    gnames[g] = pos ? "val" : "col";
    gtypes[g++] = at->children[0];
  }
  return lateral_rel(b, f, left, arg, n_gen, gnames, gtypes, pos, false);
}

static bool has_subquery(const hl_expr_t *e) {
  if (e->kind == HL_EX_SUBQUERY) return true;
  for (int k = 0; k < e->n_args; k++)
    if (has_subquery(e->args[k])) return true;
  return false;
}

/* Distributes WHERE conjuncts: those over one table's partition keys prune
 * in the catalog; those over one table's columns filter right after its
 * scan (unless an outer join may NULL-extend that table); the rest stay in
 * the block's filter. */
/* Appends E to the arena array *ARR of *N expressions, whose capacity is
 * the smallest power of two (at least 4) holding them: N appends copy O(N)
 * pointers, not O(N^2) (a WHERE of 10,000 conjuncts took gigabytes). */
static bool append_expr(binder_t *b, hl_expr_t ***arr, int *n, hl_expr_t *e) {
  if (*n == 0 || (*n >= 4 && (*n & (*n - 1)) == 0)) {
    size_t cap = *n ? (size_t)*n * 2 : 4;
    hl_expr_t **g = hl_arena_realloc(b->arena, *arr, sizeof(hl_expr_t *) * (size_t)*n,
                                     sizeof(hl_expr_t *) * cap);
    if (!g) return hl_err_nomem(b->err), false;
    *arr = g;
  }
  (*arr)[(*n)++] = e;
  return true;
}

static hl_status_t push_down(binder_t *b, hl_plan_t *plan, hl_expr_t *where) {
  int n = count_conjuncts(where), m = 0;
  hl_expr_t **conj = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)n);
  hl_expr_t **rest = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)n);
  /* conjuncts for the scan of entry pushed_to[k] of a multi-table block,
   * joined into one AND per scan after the loop (one level, not one per
   * conjunct) */
  hl_expr_t **pushed = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)n);
  int *pushed_to = hl_arena_alloc(b->arena, sizeof(int) * (size_t)n);
  if (!conj || !rest || !pushed || !pushed_to) return hl_err_nomem(b->err);
  collect_conjuncts(where, conj, &m);
  int n_rest = 0, n_pushed = 0;
  for (int k = 0; k < m; k++) {
    hl_expr_t *c = conj[k];
    scope_entry_t *target = NULL;
    for (int i = 0; i < b->n_entries && !target; i++) {
      scope_entry_t *en = &b->entries[i];
      if (en->rel->kind == HL_REL_SCAN && !en->null_supplying &&
          hl_expr_cols_within(c, en->offset, en->offset + en->n_cols))
        target = en;
    }
    if (!target || has_subquery(c) || !is_deterministic(c)) {
      rest[n_rest++] = c;
      continue;
    }
    hl_plan_scan_t *scan = target->rel->scan;
    hl_table_t *t = scan->table;
    hl_expr_t *local = shift_cols(b, c, target->offset);
    if (!local) return b->err->code;
    if (t->n_part > 0 && hl_expr_cols_within(local, t->n_data, t->n_all)) {
      if (!append_expr(b, &scan->part_preds, &scan->n_part_preds, local)) return b->err->code;
    } else if (b->n_entries == 1) {
      /* a single table: the block filter is the scan filter (EXPLAIN shows
       * it as one Filter line) */
      rest[n_rest++] = c;
    } else {
      pushed[n_pushed] = local;
      pushed_to[n_pushed++] = (int)(target - b->entries);
    }
  }
  if (n_pushed) {
    /* entry i's AND is items[start[i] .. start[i + 1]): its scan's filter
     * so far, then its conjuncts in order */
    int ne = b->n_entries;
    int *cnt = hl_arena_zalloc(b->arena, sizeof(int) * (size_t)ne);
    int *start = hl_arena_zalloc(b->arena, sizeof(int) * (size_t)(ne + 1));
    int *fill = hl_arena_alloc(b->arena, sizeof(int) * (size_t)ne);
    hl_expr_t **items = hl_arena_alloc(b->arena, sizeof(hl_expr_t *) * (size_t)(n_pushed + ne));
    if (!cnt || !start || !fill || !items) return hl_err_nomem(b->err);
    for (int k = 0; k < n_pushed; k++)
      cnt[pushed_to[k]]++;
    for (int i = 0; i < ne; i++) { /* only scans are pushed into (cnt[i] > 0) */
      bool has = cnt[i] && b->entries[i].rel->scan->filter;
      start[i + 1] = start[i] + cnt[i] + (has ? 1 : 0);
      fill[i] = start[i];
      if (has) items[fill[i]++] = b->entries[i].rel->scan->filter;
    }
    for (int k = 0; k < n_pushed; k++)
      items[fill[pushed_to[k]]++] = pushed[k];
    for (int i = 0; i < ne; i++) {
      if (!cnt[i]) continue;
      hl_plan_scan_t *scan = b->entries[i].rel->scan;
      if (!(scan->filter = and_of(b, items + start[i], start[i + 1] - start[i], where->pos)))
        return b->err->code;
    }
  }
  plan->filter = and_of(b, rest, n_rest, where->pos);
  return HL_OK;
}

/* Adds "column op constant" conjuncts of E (over the scan layout) to the
 * scan's pushed predicates, which the Parquet reader uses to skip row
 * groups and pages by statistics (the filter still runs on the rows). */
static hl_status_t add_scan_preds(binder_t *b, hl_plan_scan_t *scan, hl_expr_t *e) {
  if (!e) return HL_OK;
  if (e->kind == HL_EX_AND) {
    for (int k = 0; k < e->n_args; k++) {
      hl_status_t rc = add_scan_preds(b, scan, e->args[k]);
      if (rc != HL_OK) return rc;
    }
    return HL_OK;
  }
  const hl_table_t *t = scan->table;
  hl_scan_pred_t pred;
  memset(&pred, 0, sizeof pred);
  if (e->kind == HL_EX_IS_NULL && e->args[0]->kind == HL_EX_COLUMN) {
    pred.col = e->args[0]->col;
    pred.op = e->negated ? HL_PRED_IS_NOT_NULL : HL_PRED_IS_NULL;
  } else if (e->kind == HL_EX_CMP && e->op != HL_XOP_EQ_NS) {
    hl_expr_t *x = e->args[0], *y = e->args[1];
    bool flip = false;
    if (x->kind == HL_EX_CONST && y->kind == HL_EX_COLUMN) {
      hl_expr_t *tmp = x;
      x = y;
      y = tmp;
      flip = true;
    }
    if (x->kind != HL_EX_COLUMN || y->kind != HL_EX_CONST || y->value.is_null) return HL_OK;
    if (!hl_type_equal(x->type, y->type)) return HL_OK;
    static const hl_pred_op_t ops[] = {HL_PRED_EQ, HL_PRED_NE, HL_PRED_LT,
                                       HL_PRED_LE, HL_PRED_GT, HL_PRED_GE};
    static const hl_pred_op_t flipped[] = {HL_PRED_EQ, HL_PRED_NE, HL_PRED_GT,
                                           HL_PRED_GE, HL_PRED_LT, HL_PRED_LE};
    pred.col = x->col;
    pred.op = flip ? flipped[e->op] : ops[e->op];
    pred.value = y->value;
  } else {
    return HL_OK;
  }
  if (pred.col >= t->n_data) return HL_OK; /* partition keys prune in the catalog */
  int n = scan->n_preds;
  if (n == 0 || (n >= 4 && (n & (n - 1)) == 0)) { /* capacity: a power of two, as append_expr */
    size_t cap = n ? (size_t)n * 2 : 4;
    hl_scan_pred_t *np = hl_arena_realloc(b->arena, scan->preds, sizeof(hl_scan_pred_t) * (size_t)n,
                                          sizeof(hl_scan_pred_t) * cap);
    if (!np) return hl_err_nomem(b->err);
    scan->preds = np;
  }
  scan->preds[scan->n_preds++] = pred;
  return HL_OK;
}

static hl_status_t finish_scans(binder_t *b) {
  for (int i = 0; i < b->n_entries; i++) {
    scope_entry_t *en = &b->entries[i];
    if (en->rel->kind != HL_REL_SCAN) continue;
    hl_plan_scan_t *scan = en->rel->scan;
    if (scan->filter) mark_needed(scan->filter, scan->needed);
    hl_status_t prc = add_scan_preds(b, scan, scan->filter);
    /* a single table keeps its filter on the block (same layout) */
    if (prc == HL_OK && b->n_entries == 1) prc = add_scan_preds(b, scan, b->plan->filter);
    if (prc != HL_OK) return prc;
    if (scan->table->n_part > 0) {
      hl_status_t rc = prune_partitions(b, scan);
      if (rc != HL_OK) return rc;
    }
  }
  return HL_OK;
}

/* ------------------------------------------------------- set operations */

/* Whether the set operation node N, left operand of a chain under TOP,
 * joins TOP's n-ary operation: (a UNION ALL b) UNION ALL c is a UNION ALL
 * of a, b and c, and a UNION removes the duplicates of everything below it,
 * so under a UNION the UNION and UNION ALL nodes all join.  A node with its
 * own WITH, ORDER BY or LIMIT (a parenthesized operand) stays one operand. */
static bool joins_chain(const hl_ast_select_t *top, const hl_ast_select_t *n) {
  if (!n->set_right || n->n_ctes || n->n_order_by || n->has_limit) return false;
  if (top->setop == HL_SETOP_UNION_ALL) return n->setop == HL_SETOP_UNION_ALL;
  if (top->setop == HL_SETOP_UNION)
    return n->setop == HL_SETOP_UNION || n->setop == HL_SETOP_UNION_ALL;
  return false;
}

static const char *setop_word(hl_ast_setop_t op) {
  return op == HL_SETOP_INTERSECT ? "INTERSECT" : op == HL_SETOP_EXCEPT ? "EXCEPT" : "UNION";
}

/* The operands of SEL (a set operation) in order, gathered iteratively from
 * its left-deep chain (joins_chain), with the position of the operator
 * before each (POS[0] is SEL's).  A chain of N operands is one block, not N
 * nested ones. */
static hl_status_t setop_operands(binder_t *b, const hl_ast_select_t *sel,
                                  const hl_ast_select_t ***out, long **pos, int *n_out) {
  int n = 1;
  for (const hl_ast_select_t *q = sel; q->set_right && (q == sel || joins_chain(sel, q));
       q = q->set_left)
    n++;
  if (!sel->set_right) n = 1;
  const hl_ast_select_t **ops = hl_arena_alloc(b->arena, sizeof(*ops) * (size_t)n);
  long *ps = hl_arena_alloc(b->arena, sizeof(*ps) * (size_t)n);
  if (!ops || !ps) return hl_err_nomem(b->err);
  const hl_ast_select_t *q = sel;
  for (int k = n - 1; k > 0; k--) {
    ops[k] = q->set_right;
    ps[k] = q->pos;
    q = q->set_left;
  }
  ops[0] = n == 1 ? sel->set_left : q;
  ps[0] = sel->pos;
  *out = ops;
  *pos = ps;
  *n_out = n;
  return HL_OK;
}

static hl_status_t bind_setop(hl_session_t *s, binder_t *parent, const hl_ast_select_t *sel,
                              hl_arena_t *arena, hl_plan_t **out, hl_error_t *err) {
  binder_t bb;
  binder_t *b = &bb;
  hl_status_t rc = binder_init(b, s, parent, sel, arena, err);
  if (rc != HL_OK) return rc;
  hl_plan_t *plan = hl_arena_zalloc(arena, sizeof(*plan));
  if (!plan) return hl_err_nomem(err);
  plan->stats_rows = -1;
  b->plan = plan;
  const hl_ast_select_t **ops = NULL;
  long *pos = NULL;
  int n = 0;
  if ((rc = setop_operands(b, sel, &ops, &pos, &n)) != HL_OK) return rc;
  hl_rel_t **terms = hl_arena_alloc(arena, sizeof(hl_rel_t *) * (size_t)n);
  if (!terms) return hl_err_nomem(err);
  for (int k = 0; k < n; k++) {
    hl_rel_t *r = query_rel(b, ops[k], b);
    if (!r) return err->code;
    terms[k] = r;
    if (k == 0) continue;
    hl_rel_t *l = terms[0];
    if (l->n_cols != r->n_cols)
      return hl_err_set_at(err, pos[k], HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                           "each %s query must have the same number of columns (%d and %d)",
                           setop_word(sel->setop), l->n_cols, r->n_cols);
    /* each column takes the common type of the operands so far and this
     * one, as if the chain nested: earlier operands are cast again only
     * when the type changes */
    for (int c = 0; c < l->n_cols; c++) {
      const hl_type_t *lt = l->types[c], *rt = r->types[c], *t;
      if (!(t = union_type(b, lt, rt, pos[k]))) return err->code;
      /* CHAR/VARCHAR of one length (or with NULL) stay as they are, as
       * Hive's union type; other lengths widen to STRING */
      if ((t->id == HL_T_VARCHAR || t->id == HL_T_CHAR) && !hl_type_equal(lt, rt) &&
          lt->id != HL_T_NULL && rt->id != HL_T_NULL)
        t = hl_type_prim(HL_T_STRING);
      for (int j = hl_type_equal(t, lt) ? k : 0; j <= k; j++) {
        hl_plan_t *q = terms[j]->query;
        if (!(q->out_exprs[c] = cast_to(b, q->out_exprs[c], t))) return err->code;
        terms[j]->types[c] = t;
      }
    }
  }
  hl_rel_t *so = new_rel(b, HL_REL_SETOP);
  if (!so) return err->code;
  so->setop = n > 1 ? sel->setop : HL_SETOP_UNION_ALL;
  so->terms = terms;
  so->n_terms = n;
  so->n_cols = terms[0]->n_cols;
  so->names = terms[0]->names;
  so->types = terms[0]->types;
  plan->from = so;
  /* the output: every column, then ORDER BY / LIMIT of this node */
  int out_cap = 0;
  for (int c = 0; c < so->n_cols; c++) {
    hl_expr_t *e = new_expr(b, HL_EX_COLUMN, so->types[c], sel->pos);
    if (!e) return err->code;
    e->col = c;
    e->col_name = so->names[c];
    if ((rc = add_output(b, plan, &out_cap, e, (char *)so->names[c])) != HL_OK) return rc;
  }
  plan->n_visible = plan->n_out;
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
        if (ord >= 1 && ord <= plan->n_visible) col = (int)ord - 1;
      }
      if (col < 0)
        return hl_err_set_at(err, o->expr->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                             "ORDER BY of a set operation must name an output column");
      plan->order_cols[k] = col;
      if ((rc = check_orderable(b, plan->out_exprs[col]->type, o->expr->pos)) != HL_OK) return rc;
      plan->order_desc[k] = o->descending;
      plan->order_nulls_first[k] =
          o->nulls == 0 ? default_nulls_first(b, o->descending) : o->nulls == 1;
    }
    plan->n_order = sel->n_order_by;
  }
  if (sel->has_limit) {
    hl_status_t rc = bind_limit(b, sel, plan);
    if (rc != HL_OK) return rc;
  }
  *out = plan;
  return HL_OK;
}

/* ------------------------------------------------------------- SELECT */

hl_status_t hl_plan_select(hl_session_t *s, const hl_ast_select_t *sel, hl_arena_t *arena,
                           hl_plan_t **out, hl_error_t *err) {
  return bind_query(s, NULL, sel, arena, out, err);
}

/* Hive's lone table-generating function in the select list, SELECT
 * explode(a) [AS x] FROM t (or without FROM), is t LATERAL VIEW explode(a)
 * _udtf [AS x] selecting _udtf.*: *SEL becomes that query (copied into
 * ARENA).  Other selects are left alone; a UDTF next to other items or
 * with GROUP BY stays the error bind_function gives. */
static hl_status_t rewrite_lone_udtf(hl_arena_t *arena, const hl_ast_select_t **sel,
                                     hl_error_t *err) {
  static const char *const udtfs[] = {"explode",        "posexplode",    "inline",
                                      "stack",          "json_tuple",    "parse_url_tuple",
                                      "replicate_rows", "get_sql_schema"};
  const hl_ast_select_t *q = *sel;
  if (q->n_items != 1 || q->distinct || q->n_group_by || q->having) return HL_OK;
  const hl_ast_expr_t *fn = q->items[0].expr;
  if (fn->kind != HL_AST_FUNC || fn->window || fn->qualifier) return HL_OK;
  bool found = false;
  for (size_t i = 0; i < sizeof udtfs / sizeof udtfs[0]; i++)
    found = found || strcmp(fn->name, udtfs[i]) == 0;
  if (!found) return HL_OK;
  hl_ast_select_t *nq = hl_arena_alloc(arena, sizeof(*nq));
  hl_ast_from_t *lat = hl_arena_zalloc(arena, sizeof(*lat));
  hl_ast_select_item_t *item = hl_arena_zalloc(arena, sizeof(*item));
  hl_ast_expr_t *star = hl_arena_zalloc(arena, sizeof(*star));
  if (!nq || !lat || !item || !star) return hl_err_nomem(err);
  *nq = *q;
  lat->kind = HL_FROM_LATERAL;
  lat->pos = fn->pos;
  lat->lateral_func = (hl_ast_expr_t *)fn;
  lat->alias = "_udtf";
  lat->left = q->from_item;
  if (!lat->left) { /* a one-row relation: (SELECT 1) _udtf_one */
    hl_ast_select_t *one = hl_arena_zalloc(arena, sizeof(*one));
    hl_ast_select_item_t *oi = hl_arena_zalloc(arena, sizeof(*oi));
    hl_ast_expr_t *lit = hl_arena_zalloc(arena, sizeof(*lit));
    hl_ast_from_t *sub = hl_arena_zalloc(arena, sizeof(*sub));
    if (!one || !oi || !lit || !sub) return hl_err_nomem(err);
    lit->kind = HL_AST_LITERAL;
    lit->lit_type = HL_LIT_INTEGER;
    lit->text = "1";
    lit->text_len = 1;
    lit->pos = fn->pos;
    oi->expr = lit;
    oi->pos = fn->pos;
    one->items = oi;
    one->n_items = 1;
    one->pos = fn->pos;
    sub->kind = HL_FROM_SUBQUERY;
    sub->subquery = one;
    sub->alias = "_udtf_one";
    sub->pos = fn->pos;
    lat->left = sub;
  }
  if (q->items[0].alias) {
    lat->lateral_cols = hl_arena_alloc(arena, sizeof(char *));
    if (!lat->lateral_cols) return hl_err_nomem(err);
    lat->lateral_cols[0] = q->items[0].alias;
    lat->n_lateral_cols = 1;
  }
  star->kind = HL_AST_STAR;
  star->qualifier = "_udtf";
  star->pos = fn->pos;
  item->expr = star;
  item->pos = q->items[0].pos;
  nq->items = item;
  nq->from_item = lat;
  nq->from = NULL;
  *sel = nq;
  return HL_OK;
}

static hl_status_t bind_query(hl_session_t *s, binder_t *parent, const hl_ast_select_t *sel,
                              hl_arena_t *arena, hl_plan_t **out, hl_error_t *err) {
  if (sel->setop != HL_SETOP_NONE) return bind_setop(s, parent, sel, arena, out, err);
  hl_status_t rc0 = rewrite_lone_udtf(arena, &sel, err);
  if (rc0 != HL_OK) return rc0;
  binder_t bb;
  binder_t *b = &bb;
  hl_status_t rc = binder_init(b, s, parent, sel, arena, err);
  if (rc != HL_OK) return rc;
  /* correlated EXISTS / IN conjuncts become semi and anti joins first */
  if ((rc = hl_plan_decorrelate(s, sel, arena, &sel, err)) != HL_OK) return rc;
  b->ctes = sel->ctes;
  b->n_ctes = sel->n_ctes;
  hl_plan_t *plan = hl_arena_zalloc(arena, sizeof(*plan));
  if (!plan) return hl_err_nomem(err);
  b->plan = plan;

  /* FROM */
  if (sel->from_item) {
    plan->from = bind_from(b, sel->from_item);
    if (!plan->from) return err->code;
    if (plan->from->kind == HL_REL_SCAN) {
      plan->scan = plan->from->scan;
      b->table = plan->scan->table;
    }
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
  plan->grouping_sets = sel->grouping_sets;
  plan->n_grouping_sets = sel->n_grouping_sets;
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
  b->win_allowed = true;
  for (int i = 0; i < sel->n_items; i++) {
    const hl_ast_select_item_t *it = &sel->items[i];
    if (it->expr->kind == HL_AST_STAR) {
      if (b->n_entries == 0)
        return hl_err_set_at(err, it->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "SELECT * with no tables specified is not valid");
      bool matched = false;
      for (int i = 0; i < b->n_entries; i++) {
        const scope_entry_t *en = &b->entries[i];
        if (en->hidden) continue;
        if (it->expr->qualifier && !qualifier_matches(en, it->expr->qualifier)) continue;
        matched = true;
        for (int c = 0; c < en->n_cols; c++) {
          /* a USING column appears once, from the left side */
          if (!it->expr->qualifier && using_hides(en, en->names[c])) continue;
          hl_expr_t *e = new_expr(b, HL_EX_COLUMN, en->types[c], it->pos);
          if (!e) return err->code;
          e->col = en->offset + c;
          e->col_name = en->names[c];
          if ((rc = add_output(b, plan, &out_cap, e, (char *)en->names[c])) != HL_OK) return rc;
        }
      }
      if (!matched)
        return hl_err_set_at(err, it->pos, HL_ERROR, HL_SS(UNDEFINED_TABLE),
                             "missing FROM-clause entry for table \"%s\"", it->expr->qualifier);
      continue;
    }
    hl_expr_t *e = bind_expr(b, it->expr);
    if (!e) return err->code;
    const char *name = it->alias;
    if (!name) {
      if (it->expr->kind == HL_AST_COLUMN)
        name = it->expr->name;
      else
        name = hl_arena_sprintf(arena, "_c%d", i); /* Hive's generated names */
      if (!name) return hl_err_nomem(err);
    }
    if ((rc = add_output(b, plan, &out_cap, e, name)) != HL_OK) return rc;
  }
  plan->n_visible = plan->n_out;
  if (plan->n_aggs > 0) plan->aggregate = true;

  b->win_allowed = false;
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
    for (int i = 0; i < plan->n_out; i++)
      plan->group_exprs[plan->n_group++] = plan->out_exprs[i];
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
        b->win_allowed = true;
        hl_expr_t *e = bind_expr(b, o->expr);
        b->agg_allowed = false;
        b->win_allowed = false;
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
      if ((rc = check_orderable(b, plan->out_exprs[col]->type, o->expr->pos)) != HL_OK) return rc;
      plan->order_desc[k] = o->descending;
      /* Hive: NULLs sort first ascending and last descending */
      plan->order_nulls_first[k] =
          o->nulls == 0 ? default_nulls_first(b, o->descending) : o->nulls == 1;
    }
    plan->n_order = sel->n_order_by;
  }

  /* window functions read the aggregate layout when the query aggregates */
  plan->n_window_input = plan->aggregate ? plan->n_group + plan->n_aggs : b->n_cols;
  if (plan->aggregate)
    for (int k = 0; k < plan->n_windows; k++)
      if ((rc = window_to_agg_layout(b, &plan->windows[k])) != HL_OK) return rc;
  for (int i = 0; i < plan->n_out; i++)
    fix_window_refs(plan->out_exprs[i], plan->n_window_input);
  /* rewrite outputs and HAVING to the aggregate layout */
  if (plan->aggregate) {
    for (int i = 0; i < plan->n_out; i++)
      if (!(plan->out_exprs[i] = to_agg_layout(b, plan->out_exprs[i]))) return err->code;
    if (plan->having && !(plan->having = to_agg_layout(b, plan->having))) return err->code;
    for (int i = 0; i < plan->n_out; i++)
      clear_out_ref(plan->out_exprs[i]);
    if (plan->having) clear_out_ref(plan->having);
  }

  if (sel->has_limit) {
    hl_status_t rc = bind_limit(b, sel, plan);
    if (rc != HL_OK) return rc;
  }

  /* WHERE conjuncts to the scans, partition pruning, decoded columns */
  if (where) {
    if (plan->from) {
      if ((rc = push_down(b, plan, where)) != HL_OK) return rc;
    } else {
      plan->filter = where;
    }
  }
  if (plan->from) {
    if ((rc = finish_scans(b)) != HL_OK) return rc;
    if (plan->filter) mark_needed_block(b, plan->filter);
    for (int g = 0; g < plan->n_group; g++)
      mark_needed_block(b, plan->group_exprs[g]);
    for (int a = 0; a < plan->n_aggs; a++) {
      if (plan->aggs[a].arg) mark_needed_block(b, plan->aggs[a].arg);
      if (plan->aggs[a].arg2) mark_needed_block(b, plan->aggs[a].arg2);
    }
    if (!plan->aggregate) {
      for (int i = 0; i < plan->n_out; i++)
        mark_needed_block(b, plan->out_exprs[i]);
      for (int k = 0; k < plan->n_windows; k++) {
        hl_window_t *w = &plan->windows[k];
        if (w->arg) mark_needed_block(b, w->arg);
        if (w->deflt) mark_needed_block(b, w->deflt);
        for (int j = 0; j < w->n_partition; j++)
          mark_needed_block(b, w->partition[j]);
        for (int j = 0; j < w->n_order; j++)
          mark_needed_block(b, w->order[j]);
      }
    }
    mark_needed_rel(b, plan->from);
  }
  try_count_from_stats(b, plan);
  if (plan->stats_rows < 0) try_catalog_answer(b, plan);
  /* a LIMIT without ORDER BY reads the newest partitions (newest.c) */
  if ((rc = hl_plan_newest_apply(plan, err)) != HL_OK) return rc;
  *out = plan;
  return HL_OK;
}
