/*
 * ptf.c -- Hive's partitioned table functions in FROM, written as the
 * queries that give their results (see ptf.h).
 *
 * noop, noopwithmap, noopstreaming and noopwithmapstreaming (Hive's
 * Noop*Resolver) pass every partition through unchanged: their output is
 * the input's columns, partitioned by the PARTITION BY keys and sorted
 * within a partition by the ORDER BY keys, so
 *   SELECT * FROM source ORDER BY partition keys, order keys
 * is what they return (the map-side and streaming variants differ in
 * Hive only in where the rows flow).  A chain noop(ON noopwithmap(ON t ...))
 * is a chain of these queries.
 *
 * matchpath (MatchPath.java) becomes
 *   SELECT <result list> FROM (
 *     SELECT *, matchpath(array(<symbol exprs>), named_struct(<input cols>))
 *              OVER (PARTITION BY .. ORDER BY ..) AS tpath
 *     FROM (<the noop query>) __ptf_in) __ptf_mp
 *   WHERE tpath IS NOT NULL
 * where the window function is an internal one (hl_ast_expr_t.mp_pattern
 * set, which the parser never does) that the window operator computes by
 * running the pattern at every row of a partition (vector/matchpath.c):
 * the path's rows as an array of structs with the input's column names, or
 * NULL where the pattern does not match.  The result list is Hive's: a
 * select list as a string, over the input columns and tpath, a column
 * without alias named after the column or matchpath_col_<i>.
 *
 * windowingtablefunction is refused: it is the carrier Hive's translator
 * puts under a select list's window functions (WindowingTableFunction
 * evaluates the WindowTableFunctionDef built from OVER clauses); a call in
 * FROM has no window definitions to carry, so the window functions with
 * OVER are the way to use it.
 */
#include "plan/ptf.h"

#include "sql/parser.h"
#include "vector/matchpath.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const noops[] = {"noop", "noopwithmap", "noopstreaming", "noopwithmapstreaming"};

hl_status_t hl_ptf_check(const hl_ast_from_t *f, hl_ptf_kind_t *kind, hl_error_t *err) {
  const char *name = f->ptf_name;
  for (size_t i = 0; i < sizeof noops / sizeof noops[0]; i++)
    if (strcmp(name, noops[i]) == 0) {
      if (f->n_ptf_args > 0)
        return hl_err_set_at(err, f->ptf_args[0]->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                             "table function %s takes no arguments", name);
      *kind = HL_PTF_NOOP;
      return HL_OK;
    }
  if (strcmp(name, "matchpath") == 0) {
    *kind = HL_PTF_MATCHPATH;
    return HL_OK;
  }
  if (strcmp(name, "windowingtablefunction") == 0)
    return hl_err_set_at(err, f->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "windowingtablefunction is Hive's internal carrier of a select "
                         "list's window functions and cannot be called in FROM; use the "
                         "window functions with OVER (...)");
  return hl_err_set_at(err, f->pos, HL_ERROR, HL_SS(UNDEFINED_FUNCTION),
                       "table function %s does not exist", name);
}

static void *zalloc(hl_arena_t *a, size_t n) {
  return hl_arena_zalloc(a, n);
}

static hl_ast_expr_t *new_expr(hl_arena_t *a, hl_ast_expr_kind_t kind, long pos) {
  hl_ast_expr_t *e = zalloc(a, sizeof *e);
  if (e) {
    e->kind = kind;
    e->pos = pos;
    e->name_pos = pos;
  }
  return e;
}

static hl_ast_expr_t *column(hl_arena_t *a, const char *name, long pos) {
  hl_ast_expr_t *e = new_expr(a, HL_AST_COLUMN, pos);
  if (e && !(e->name = hl_arena_strdup(a, name))) return NULL;
  return e;
}

static hl_ast_expr_t *string_lit(hl_arena_t *a, const char *s, long pos) {
  hl_ast_expr_t *e = new_expr(a, HL_AST_LITERAL, pos);
  if (!e || !(e->text = hl_arena_strdup(a, s))) return NULL;
  e->lit_type = HL_LIT_STRING;
  e->text_len = strlen(s);
  return e;
}

static hl_ast_expr_t *call(hl_arena_t *a, const char *name, hl_ast_expr_t **args, int n, long pos) {
  hl_ast_expr_t *e = new_expr(a, HL_AST_FUNC, pos);
  if (!e || !(e->name = hl_arena_strdup(a, name))) return NULL;
  e->args = args;
  e->n_args = n;
  return e;
}

static hl_ast_from_t *subquery_item(hl_arena_t *a, hl_ast_select_t *q, const char *alias,
                                    long pos) {
  hl_ast_from_t *f = zalloc(a, sizeof *f);
  if (!f || !(f->alias = hl_arena_strdup(a, alias))) return NULL;
  f->kind = HL_FROM_SUBQUERY;
  f->subquery = q;
  f->pos = pos;
  return f;
}

static hl_ast_select_item_t *star_item(hl_arena_t *a, long pos) {
  hl_ast_select_item_t *it = zalloc(a, sizeof *it);
  if (!it || !(it->expr = new_expr(a, HL_AST_STAR, pos))) return NULL;
  it->pos = pos;
  return it;
}

hl_status_t hl_ptf_input(hl_arena_t *arena, const hl_ast_from_t *f, hl_ast_select_t **out,
                         hl_error_t *err) {
  hl_ast_select_t *q = zalloc(arena, sizeof *q);
  int n_order = f->n_ptf_partition + f->n_ptf_order;
  hl_ast_order_item_t *order =
      n_order ? zalloc(arena, sizeof(hl_ast_order_item_t) * (size_t)n_order) : NULL;
  if (!q || (n_order && !order) || !(q->items = star_item(arena, f->pos))) return hl_err_nomem(err);
  q->pos = f->pos;
  q->n_items = 1;
  q->from_item = f->left;
  /* partitions in ascending key order, NULL keys first (Hive's 'a' null
   * order of the partition columns), then the order keys as given */
  for (int i = 0; i < f->n_ptf_partition; i++) {
    order[i].expr = f->ptf_partition[i];
    order[i].nulls = 1;
  }
  for (int i = 0; i < f->n_ptf_order; i++)
    order[f->n_ptf_partition + i] = f->ptf_order[i];
  q->order_by = order;
  q->n_order_by = n_order;
  *out = q;
  return HL_OK;
}

static hl_status_t bad_arg(hl_error_t *err, const hl_ast_expr_t *e, const char *what) {
  return hl_err_set_at(err, e->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                       "matchpath takes a pattern, one or more symbol name and boolean "
                       "expression pairs, and the result select list: %s",
                       what);
}

static bool is_string_lit(const hl_ast_expr_t *e) {
  return e->kind == HL_AST_LITERAL && e->lit_type == HL_LIT_STRING;
}

/* The result list string as a select list: Hive prefixes "select" unless
 * it starts with it, and takes only the select clause. */
static hl_status_t parse_result_list(hl_arena_t *arena, const hl_ast_expr_t *arg,
                                     hl_ast_select_t **out, hl_error_t *err) {
  const char *r = arg->text;
  size_t n = arg->text_len;
  while (n > 0 && isspace((unsigned char)*r)) {
    r++;
    n--;
  }
  bool has_select = n >= 6 && strncasecmp(r, "select", 6) == 0;
  size_t len = n + (has_select ? 0 : 7);
  char *text = hl_arena_alloc(arena, len + 1);
  if (!text) return hl_err_nomem(err);
  snprintf(text, len + 1, "%s%.*s", has_select ? "" : "select ", (int)n, r);
  hl_error_t perr;
  hl_err_init(&perr);
  hl_ast_stmt_t *st = NULL;
  size_t used = 0;
  hl_status_t rc = hl_sql_parse(arena, text, len, &st, &used, &perr);
  if (rc != HL_OK) {
    hl_err_set_at(err, arg->pos, rc, perr.sqlstate, "in matchpath's result list '%s': %s", text,
                  perr.message);
    hl_err_clear(&perr);
    return rc;
  }
  const hl_ast_select_t *s = st && st->kind == HL_STMT_SELECT ? st->select : NULL;
  if (!s || used != len || s->setop != HL_SETOP_NONE || s->from_item || s->n_ctes || s->where ||
      s->n_group_by || s->having || s->n_order_by || s->has_limit || s->distinct)
    return bad_arg(err, arg, "the result list must be a select list only");
  for (int i = 0; i < s->n_items; i++)
    if (s->items[i].expr->kind == HL_AST_STAR)
      return bad_arg(err, arg, "* is not allowed in the result list");
  hl_ast_select_t *q = zalloc(arena, sizeof *q);
  if (!q) return hl_err_nomem(err);
  *q = *s;
  /* names as Hive's getColumnName: the alias, a column's name, else
   * matchpath_col_<i> */
  hl_ast_select_item_t *items = zalloc(arena, sizeof(*items) * (size_t)s->n_items);
  if (!items) return hl_err_nomem(err);
  for (int i = 0; i < s->n_items; i++) {
    items[i] = s->items[i];
    if (!items[i].alias && items[i].expr->kind != HL_AST_COLUMN) {
      char name[32];
      snprintf(name, sizeof name, "matchpath_col_%d", i);
      if (!(items[i].alias = hl_arena_strdup(arena, name))) return hl_err_nomem(err);
    }
  }
  q->items = items;
  q->pos = arg->pos;
  *out = q;
  return HL_OK;
}

hl_status_t hl_ptf_matchpath(hl_arena_t *arena, const hl_ast_from_t *f, hl_ast_select_t *input,
                             const char *const *names, int n, hl_ast_select_t **out,
                             hl_error_t *err) {
  int na = f->n_ptf_args;
  if (na < 4)
    return bad_arg(err, na ? f->ptf_args[0] : &(hl_ast_expr_t){.pos = f->pos},
                   "at least 4 arguments are required");
  if ((na - 2) % 2 != 0)
    return bad_arg(err, f->ptf_args[na - 1], "symbol names and expressions come in pairs");
  hl_ast_expr_t *pattern = f->ptf_args[0], *result = f->ptf_args[na - 1];
  if (!is_string_lit(pattern)) return bad_arg(err, pattern, "the pattern must be a string");
  if (!is_string_lit(result)) return bad_arg(err, result, "the result list must be a string");
  int n_sym = (na - 2) / 2;
  const char **sym_names = hl_arena_alloc(arena, sizeof(char *) * (size_t)n_sym);
  hl_ast_expr_t **sym_exprs = hl_arena_alloc(arena, sizeof(hl_ast_expr_t *) * (size_t)n_sym);
  if (!sym_names || !sym_exprs) return hl_err_nomem(err);
  for (int i = 0; i < n_sym; i++) {
    hl_ast_expr_t *name = f->ptf_args[1 + 2 * i];
    if (!is_string_lit(name)) return bad_arg(err, name, "a symbol name must be a string");
    sym_names[i] = name->text;
    sym_exprs[i] = f->ptf_args[2 + 2 * i];
  }
  hl_mp_pattern_t *pat;
  hl_status_t rc =
      hl_mp_compile(pattern->text, pattern->text_len, sym_names, n_sym, arena, &pat, err);
  if (rc != HL_OK) {
    hl_err_position(err, pattern->pos);
    return rc;
  }
  hl_ast_select_t *list = NULL;
  if ((rc = parse_result_list(arena, result, &list, err)) != HL_OK) return rc;

  /* matchpath(array(symbols), named_struct(cols)) OVER (...) AS tpath */
  long pos = f->pos;
  hl_ast_expr_t **fields = hl_arena_alloc(arena, sizeof(hl_ast_expr_t *) * (size_t)(2 * n));
  hl_ast_expr_t **margs = hl_arena_alloc(arena, sizeof(hl_ast_expr_t *) * 2);
  hl_ast_window_t *w = zalloc(arena, sizeof *w);
  if (!fields || !margs || !w) return hl_err_nomem(err);
  for (int i = 0; i < n; i++)
    if (!(fields[2 * i] = string_lit(arena, names[i], pos)) ||
        !(fields[2 * i + 1] = column(arena, names[i], pos)))
      return hl_err_nomem(err);
  if (!(margs[0] = call(arena, "array", sym_exprs, n_sym, pos)) ||
      !(margs[1] = call(arena, "named_struct", fields, 2 * n, pos)))
    return hl_err_nomem(err);
  hl_ast_expr_t *mp = call(arena, "matchpath", margs, 2, pos);
  if (!mp) return hl_err_nomem(err);
  mp->mp_pattern = pat;
  w->partition_by = f->ptf_partition;
  w->n_partition_by = f->n_ptf_partition;
  w->order_by = f->ptf_order;
  w->n_order_by = f->n_ptf_order;
  w->pos = pos;
  mp->window = w;

  hl_ast_select_t *mid = zalloc(arena, sizeof *mid);
  hl_ast_select_item_t *mid_items = zalloc(arena, sizeof(*mid_items) * 2);
  hl_ast_select_item_t *star = star_item(arena, pos);
  if (!mid || !mid_items || !star) return hl_err_nomem(err);
  mid_items[0] = *star;
  mid_items[1].expr = mp;
  mid_items[1].pos = pos;
  if (!(mid_items[1].alias = hl_arena_strdup(arena, "tpath"))) return hl_err_nomem(err);
  mid->items = mid_items;
  mid->n_items = 2;
  mid->pos = pos;
  if (!(mid->from_item = subquery_item(arena, input, "__ptf_in", pos))) return hl_err_nomem(err);

  hl_ast_expr_t *matched = new_expr(arena, HL_AST_IS_NULL, pos);
  hl_ast_expr_t **ma = hl_arena_alloc(arena, sizeof(hl_ast_expr_t *));
  if (!matched || !ma || !(ma[0] = column(arena, "tpath", pos))) return hl_err_nomem(err);
  matched->args = ma;
  matched->n_args = 1;
  matched->negated = true;
  list->where = matched;
  if (!(list->from_item = subquery_item(arena, mid, "__ptf_mp", pos))) return hl_err_nomem(err);
  *out = list;
  return HL_OK;
}
