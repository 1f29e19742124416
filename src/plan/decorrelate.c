/*
 * decorrelate.c -- correlated subqueries rewritten as semi and anti joins
 * (see decorrelate.h).
 */
#include "plan/decorrelate.h"

#include "plan/table.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct leaf {
  const char *alias;      /* qualifier */
  const char *table_name; /* also a valid qualifier */
  hl_table_t *table;
} leaf_t;

typedef struct inner {
  leaf_t leaves[16];
  int n;
} inner_t;

typedef struct ctx {
  hl_session_t *s;
  hl_arena_t *arena;
  hl_error_t *err;
  int n_sub; /* subqueries rewritten so far (names _hl_sqN) */
} ctx_t;

/* Collects the tables of an inner FROM clause; false when it holds
 * something whose columns are not known here (a subquery, a CTE, too many
 * tables, a table that does not load). */
static bool collect_leaves(ctx_t *c, const hl_ast_from_t *f, inner_t *in) {
  if (f->kind == HL_FROM_JOIN)
    return collect_leaves(c, f->left, in) && collect_leaves(c, f->right, in);
  if (f->kind != HL_FROM_TABLE || in->n == 16) return false;
  hl_error_t e;
  hl_err_init(&e);
  hl_table_t *t;
  hl_status_t rc = hl_table_load(c->s, &f->table, c->arena, &t, &e);
  hl_err_clear(&e);
  if (rc != HL_OK) return false;
  in->leaves[in->n].alias = f->alias ? f->alias : t->cat->name;
  in->leaves[in->n].table_name = t->cat->name;
  in->leaves[in->n].table = t;
  in->n++;
  return true;
}

static bool is_inner_ref(const inner_t *in, const hl_ast_expr_t *e) {
  for (int i = 0; i < in->n; i++) {
    const leaf_t *l = &in->leaves[i];
    if (e->qualifier) {
      if (strcasecmp(e->qualifier, l->alias) == 0 || strcasecmp(e->qualifier, l->table_name) == 0)
        return true;
    } else if (hl_table_column_index(l->table, e->name) >= 0) {
      return true;
    }
  }
  return false;
}

/* The walks below run on the syntax tree before the binder bounds its
 * depth.  Left-deep chains (a AND b AND ..., a + b + ...) can be as long as
 * the statement, so they loop down the first operand and recurse only into
 * the others (nested only as deep as the parser allows). */

static bool is_and(const hl_ast_expr_t *e) {
  return e->kind == HL_AST_BINARY && e->op == HL_OP_AND;
}

/* Counts inner and outer column references of E; nested subqueries make
 * it unusable (*bad). */
static void classify(const inner_t *in, const hl_ast_expr_t *e, int *n_inner, int *n_outer,
                     bool *bad) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->subquery || e->window || e->kind == HL_AST_STAR) *bad = true;
    if (e->kind == HL_AST_COLUMN) {
      if (is_inner_ref(in, e))
        (*n_inner)++;
      else
        (*n_outer)++;
    }
    for (int k = 1; k < e->n_args; k++)
      classify(in, e->args[k], n_inner, n_outer, bad);
  }
}

static int count_and(const hl_ast_expr_t *e) {
  int n = 1;
  for (; is_and(e); e = e->args[0])
    n += count_and(e->args[1]);
  return n;
}

/* Puts the count_and(E) conjuncts of E, in order, at OUT[END - count ..
 * END). */
static void split_and(hl_ast_expr_t *e, hl_ast_expr_t **out, int end) {
  for (; is_and(e); e = e->args[0]) {
    split_and(e->args[1], out, end);
    end -= count_and(e->args[1]);
  }
  out[end - 1] = e;
}

static hl_ast_expr_t *and_node(ctx_t *c, hl_ast_expr_t *x, hl_ast_expr_t *y) {
  if (!x) return y;
  if (!y) return x;
  hl_ast_expr_t *e = hl_arena_zalloc(c->arena, sizeof(*e));
  hl_ast_expr_t **args = e ? hl_arena_alloc(c->arena, sizeof(*args) * 2) : NULL;
  if (!args) return NULL;
  e->kind = HL_AST_BINARY;
  e->op = HL_OP_AND;
  e->pos = x->pos;
  e->args = args;
  e->n_args = 2;
  args[0] = x;
  args[1] = y;
  return e;
}

typedef struct exposed {
  hl_ast_expr_t **refs; /* inner column references exposed by the subquery */
  char **names;         /* their output names _hl_cN */
  int n, cap;
} exposed_t;

static hl_ast_expr_t *rewrite(ctx_t *c, const inner_t *in, const hl_ast_expr_t *e, const char *sq,
                              exposed_t *x);

/* Copies node E with ARG0 (already rewritten) as its first operand and the
 * others rewritten, replacing an inner column reference by SQ._hl_cN and
 * recording it in X (equal references share one output). */
static hl_ast_expr_t *rewrite_node(ctx_t *c, const inner_t *in, const hl_ast_expr_t *e,
                                   hl_ast_expr_t *arg0, const char *sq, exposed_t *x) {
  hl_ast_expr_t *n = hl_arena_alloc(c->arena, sizeof(*n));
  if (!n) return NULL;
  *n = *e;
  if (e->kind == HL_AST_COLUMN && is_inner_ref(in, e)) {
    int k = 0;
    for (; k < x->n; k++)
      if (strcasecmp(x->refs[k]->name, e->name) == 0 &&
          ((!x->refs[k]->qualifier && !e->qualifier) ||
           (x->refs[k]->qualifier && e->qualifier &&
            strcasecmp(x->refs[k]->qualifier, e->qualifier) == 0)))
        break;
    if (k == x->n) {
      if (x->n == x->cap) {
        int cap = x->cap ? x->cap * 2 : 4;
        hl_ast_expr_t **r = hl_arena_realloc(c->arena, x->refs, sizeof(*r) * (size_t)x->cap,
                                             sizeof(*r) * (size_t)cap);
        char **nm = r ? hl_arena_realloc(c->arena, x->names, sizeof(*nm) * (size_t)x->cap,
                                         sizeof(*nm) * (size_t)cap)
                      : NULL;
        if (!nm) return NULL;
        x->refs = r;
        x->names = nm;
        x->cap = cap;
      }
      x->refs[x->n] = (hl_ast_expr_t *)e;
      if (!(x->names[x->n] = hl_arena_sprintf(c->arena, "_hl_c%d", x->n + 1))) return NULL;
      x->n++;
    }
    n->qualifier = (char *)sq;
    n->name = x->names[k];
    return n;
  }
  if (e->n_args) {
    n->args = hl_arena_alloc(c->arena, sizeof(*n->args) * (size_t)e->n_args);
    if (!n->args) return NULL;
    n->args[0] = arg0;
    for (int k = 1; k < e->n_args; k++)
      if (!(n->args[k] = rewrite(c, in, e->args[k], sq, x))) return NULL;
  }
  return n;
}

/* Copies E as rewrite_node does, in the order of a depth-first walk (first
 * operands first), looping up a left-deep chain instead of recursing. */
static hl_ast_expr_t *rewrite(ctx_t *c, const inner_t *in, const hl_ast_expr_t *e, const char *sq,
                              exposed_t *x) {
  int n = 0;
  for (const hl_ast_expr_t *q = e; q->n_args && q->args[0]; q = q->args[0])
    n++;
  const hl_ast_expr_t **spine = hl_arena_alloc(c->arena, sizeof(*spine) * (size_t)(n + 1));
  if (!spine) return NULL;
  spine[0] = e;
  for (int k = 1; k <= n; k++)
    spine[k] = spine[k - 1]->args[0];
  hl_ast_expr_t *done = NULL; /* the rewritten first operand of the node above */
  for (int k = n; k >= 0; k--)
    if (!(done = rewrite_node(c, in, spine[k], done, sq, x))) return NULL;
  return done;
}

/* Tries to turn conjunct E of the outer WHERE into a semi/anti join added
 * to *FROM.  Returns 1 when rewritten, 0 when left alone, -1 on OOM. */
static int try_conjunct(ctx_t *c, hl_ast_expr_t *e, hl_ast_from_t **from) {
  bool negated = false;
  const hl_ast_expr_t *node = e;
  if (node->kind == HL_AST_UNARY && node->op == HL_OP_NOT && node->args[0]->kind == HL_AST_EXISTS) {
    negated = true;
    node = node->args[0];
  }
  bool is_in = node->kind == HL_AST_IN && node->subquery;
  if (node->kind != HL_AST_EXISTS && !is_in) return 0;
  if (node->kind == HL_AST_EXISTS && node->negated) negated = !negated;
  if (is_in && node->negated) return 0; /* NOT IN's NULL rules do not fit an anti join */
  const hl_ast_select_t *q = node->subquery;
  if (q->setop != HL_SETOP_NONE || q->n_ctes || !q->from_item || q->n_group_by || q->having ||
      q->has_limit || q->n_order_by || q->distinct || !q->where)
    return 0;
  if (is_in && (q->n_items != 1 || q->items[0].expr->kind == HL_AST_STAR)) return 0;
  inner_t in;
  in.n = 0;
  if (!collect_leaves(c, q->from_item, &in)) return 0;
  /* the IN column must be inner, and aggregates would change the meaning */
  if (is_in) {
    int ni = 0, no = 0;
    bool bad = false;
    classify(&in, q->items[0].expr, &ni, &no, &bad);
    if (bad || no || q->items[0].expr->kind == HL_AST_FUNC) return 0;
  }
  int m = count_and(q->where);
  hl_ast_expr_t **conj = hl_arena_alloc(c->arena, sizeof(*conj) * (size_t)m);
  if (!conj) return -1;
  split_and(q->where, conj, m);
  hl_ast_expr_t *local = NULL, *corr_src = NULL;
  for (int k = 0; k < m; k++) {
    int ni = 0, no = 0;
    bool bad = false;
    classify(&in, conj[k], &ni, &no, &bad);
    if (bad) return 0;
    if (no == 0) {
      if (!(local = and_node(c, local, conj[k]))) return -1;
    } else {
      if (!(corr_src = and_node(c, corr_src, conj[k]))) return -1;
    }
  }
  if (!corr_src) return 0; /* not correlated: the binder runs it once */
  char *sq = hl_arena_sprintf(c->arena, "_hl_sq%d", ++c->n_sub);
  if (!sq) return -1;
  exposed_t x = {0};
  hl_ast_expr_t *on = rewrite(c, &in, corr_src, sq, &x);
  if (!on) return -1;
  /* x IN (SELECT y ...): also x = _hl_sqN._hl_in */
  hl_ast_expr_t *in_col = NULL;
  if (is_in) {
    hl_ast_expr_t *col = hl_arena_zalloc(c->arena, sizeof(*col));
    in_col = hl_arena_zalloc(c->arena, sizeof(*in_col));
    hl_ast_expr_t **args = in_col ? hl_arena_alloc(c->arena, sizeof(*args) * 2) : NULL;
    if (!col || !args) return -1;
    col->kind = HL_AST_COLUMN;
    col->qualifier = sq;
    col->name = "_hl_in";
    col->pos = node->pos;
    in_col->kind = HL_AST_BINARY;
    in_col->op = HL_OP_EQ;
    in_col->pos = node->pos;
    in_col->args = args;
    in_col->n_args = 2;
    args[0] = node->args[0];
    args[1] = col;
    if (!(on = and_node(c, on, in_col))) return -1;
  }
  /* SELECT <exposed inner columns> [, in column AS _hl_in] FROM ... WHERE local */
  hl_ast_select_t *q2 = hl_arena_zalloc(c->arena, sizeof(*q2));
  int n_items = x.n + (is_in ? 1 : 0);
  hl_ast_select_item_t *items =
      q2 ? hl_arena_zalloc(c->arena, sizeof(*items) * (size_t)(n_items ? n_items : 1)) : NULL;
  hl_ast_from_t *sub = items ? hl_arena_zalloc(c->arena, sizeof(*sub)) : NULL;
  hl_ast_from_t *j = sub ? hl_arena_zalloc(c->arena, sizeof(*j)) : NULL;
  if (!j) return -1;
  for (int k = 0; k < x.n; k++) {
    items[k].expr = x.refs[k];
    items[k].alias = x.names[k];
    items[k].pos = x.refs[k]->pos;
  }
  if (is_in) {
    items[x.n].expr = q->items[0].expr;
    items[x.n].alias = "_hl_in";
    items[x.n].pos = q->items[0].pos;
  }
  q2->items = items;
  q2->n_items = n_items;
  q2->from_item = q->from_item;
  q2->from = q->from;
  q2->where = local;
  q2->pos = q->pos;
  sub->kind = HL_FROM_SUBQUERY;
  sub->subquery = q2;
  sub->alias = sq;
  sub->pos = q->pos;
  j->kind = HL_FROM_JOIN;
  j->join_type = negated ? HL_JOIN_LEFT_ANTI : HL_JOIN_LEFT_SEMI;
  j->left = *from;
  j->right = sub;
  j->on = on;
  j->pos = e->pos;
  *from = j;
  return 1;
}

hl_status_t hl_plan_decorrelate(hl_session_t *s, const hl_ast_select_t *sel, hl_arena_t *arena,
                                const hl_ast_select_t **out, hl_error_t *err) {
  *out = sel;
  if (sel->setop != HL_SETOP_NONE || !sel->where || !sel->from_item) return HL_OK;
  ctx_t c = {.s = s, .arena = arena, .err = err};
  int m = count_and(sel->where);
  hl_ast_expr_t **conj = hl_arena_alloc(arena, sizeof(*conj) * (size_t)m);
  if (!conj) return hl_err_nomem(err);
  split_and(sel->where, conj, m);
  hl_ast_from_t *from = sel->from_item;
  hl_ast_expr_t *rest = NULL;
  bool changed = false;
  for (int k = 0; k < m; k++) {
    int r = try_conjunct(&c, conj[k], &from);
    if (r < 0) return hl_err_nomem(err);
    if (r > 0) {
      changed = true;
      continue;
    }
    if (!(rest = and_node(&c, rest, conj[k]))) return hl_err_nomem(err);
  }
  if (!changed) return HL_OK;
  hl_ast_select_t *copy = hl_arena_alloc(arena, sizeof(*copy));
  if (!copy) return hl_err_nomem(err);
  *copy = *sel;
  copy->from_item = from;
  copy->from = NULL; /* no longer a single plain table */
  copy->where = rest;
  *out = copy;
  return HL_OK;
}
