/*
 * cmd_view.c -- CREATE VIEW, ALTER VIEW (AS query, RENAME TO, SET / UNSET
 * TBLPROPERTIES) and DROP VIEW.
 *
 * A view is a catalog record (hl_cat_table_t.view, Hive's VIRTUAL_VIEW)
 * holding the query as written (view_original_text) and the same query
 * with every table name qualified by its database (view_expanded_text, as
 * Hive's expanded text), so the view means the same whatever the current
 * database is when it is used.  Its columns are the query's output columns
 * (names from the optional column list), typed when the view is created.
 * The binder (plan/bind.c: view_rel) parses the expanded text and binds it
 * like a subquery in FROM.  Commands that touch table storage load tables
 * with hl_table_load, which refuses views (plan/table.h).
 */
#include "command/cmd_int.h"
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* --------------------------------------------------- expanded text */

/* A table reference to qualify: where its name starts in the query text. */
typedef struct expand {
  hl_arena_t *arena;
  const char *db; /* the database unqualified names resolve to */
  long base;      /* offset of the query text in the statement */
  long *offsets;  /* insertion points, relative to the query text */
  int n, cap;
  const char **ctes; /* WITH names in scope (innermost last) */
  int n_ctes, cap_ctes;
  bool oom;
} expand_t;

static void push_offset(expand_t *x, long off) {
  if (x->n == x->cap) {
    int cap = x->cap ? x->cap * 2 : 8;
    long *n = hl_arena_realloc(x->arena, x->offsets, sizeof(long) * (size_t)x->cap,
                               sizeof(long) * (size_t)cap);
    if (!n) {
      x->oom = true;
      return;
    }
    x->offsets = n;
    x->cap = cap;
  }
  x->offsets[x->n++] = off;
}

static bool push_cte(expand_t *x, const char *name) {
  if (x->n_ctes == x->cap_ctes) {
    int cap = x->cap_ctes ? x->cap_ctes * 2 : 8;
    const char **n = hl_arena_realloc(x->arena, x->ctes, sizeof(char *) * (size_t)x->cap_ctes,
                                      sizeof(char *) * (size_t)cap);
    if (!n) return !(x->oom = true);
    x->ctes = n;
    x->cap_ctes = cap;
  }
  x->ctes[x->n_ctes++] = name;
  return true;
}

static bool is_cte(const expand_t *x, const char *name) {
  for (int i = x->n_ctes - 1; i >= 0; i--)
    if (strcasecmp(x->ctes[i], name) == 0) return true;
  return false;
}

static void walk_select(expand_t *x, const hl_ast_select_t *s);

/* Loops down the first operand, so that a left-deep chain (a OR b OR ...,
 * which the binder flattens and does not count as nesting) takes one frame
 * (the offsets are sorted afterwards, so the order does not matter). */
static void walk_expr(expand_t *x, const hl_ast_expr_t *e) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->subquery) walk_select(x, e->subquery);
    for (int k = 1; k < e->n_args; k++)
      walk_expr(x, e->args[k]);
    if (e->window) {
      for (int k = 0; k < e->window->n_partition_by; k++)
        walk_expr(x, e->window->partition_by[k]);
      for (int k = 0; k < e->window->n_order_by; k++)
        walk_expr(x, e->window->order_by[k].expr);
    }
  }
}

static void walk_from(expand_t *x, const hl_ast_from_t *f) {
  if (!f) return;
  switch (f->kind) {
  case HL_FROM_TABLE:
    if (!f->table.db && !is_cte(x, f->table.name)) push_offset(x, f->table.pos - x->base);
    break;
  case HL_FROM_SUBQUERY:
    walk_select(x, f->subquery);
    break;
  case HL_FROM_JOIN:
    walk_from(x, f->left);
    walk_from(x, f->right);
    walk_expr(x, f->on);
    break;
  case HL_FROM_LATERAL:
    walk_from(x, f->left);
    walk_expr(x, f->lateral_func);
    break;
  case HL_FROM_PTF: /* the function's name is no table: only its source */
    walk_from(x, f->left);
    for (int k = 0; k < f->n_ptf_partition; k++)
      walk_expr(x, f->ptf_partition[k]);
    for (int k = 0; k < f->n_ptf_order; k++)
      walk_expr(x, f->ptf_order[k].expr);
    for (int k = 0; k < f->n_ptf_args; k++)
      walk_expr(x, f->ptf_args[k]);
    break;
  }
}

/* A set operation's left-deep chain (a UNION ALL b UNION ALL c ...) is
 * walked down its left operands in a loop, not one frame per operand; each
 * node's WITH names stay in scope for the operands below it. */
static void walk_select(expand_t *x, const hl_ast_select_t *s) {
  int saved = x->n_ctes;
  for (; s; s = s->set_left) {
    for (int i = 0; i < s->n_ctes; i++) {
      walk_select(x, s->ctes[i].query); /* sees the CTEs before it */
      if (!push_cte(x, s->ctes[i].name)) return;
    }
    walk_select(x, s->set_right);
    walk_from(x, s->from_item);
    for (int i = 0; i < s->n_items; i++)
      walk_expr(x, s->items[i].expr);
    walk_expr(x, s->where);
    for (int i = 0; i < s->n_group_by; i++)
      walk_expr(x, s->group_by[i]);
    walk_expr(x, s->having);
    for (int i = 0; i < s->n_order_by; i++)
      walk_expr(x, s->order_by[i].expr);
  }
  x->n_ctes = saved;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

/* The view's query text with `db`. in front of every unqualified table
 * name that is not a WITH name.  NULL on OOM. */
static char *expanded_text(const hl_ast_create_view_t *cv, const char *db, hl_arena_t *arena) {
  expand_t x = {.arena = arena, .db = db, .base = cv->query_pos};
  walk_select(&x, cv->query);
  if (x.oom) return NULL;
  if (x.n) qsort(x.offsets, (size_t)x.n, sizeof(long), cmp_long);
  hl_buf_t b;
  hl_buf_init(&b);
  size_t len = strlen(cv->query_text), at = 0;
  for (int i = 0; i < x.n; i++) {
    size_t off = (size_t)x.offsets[i];
    if (off > len) continue; /* cannot happen: positions lie in the query */
    hl_buf_append(&b, cv->query_text + at, off - at);
    hl_buf_puts(&b, "`");
    for (const char *c = db; *c; c++) {
      hl_buf_append(&b, c, 1);
      if (*c == '`') hl_buf_append(&b, c, 1); /* a backquote inside is doubled */
    }
    hl_buf_puts(&b, "`.");
    at = off;
  }
  hl_buf_append(&b, cv->query_text + at, len - at);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* ------------------------------------------------------ CREATE VIEW */

/* Columns of the view from its bound query (and the optional list). */
static hl_status_t view_columns(const hl_ast_create_view_t *cv, const hl_plan_t *plan,
                                hl_arena_t *arena, hl_cat_column_t **out, int *n_out,
                                hl_error_t *err) {
  int n = plan->n_visible;
  if (cv->n_cols && cv->n_cols != n)
    return hl_err_set_at(err, cv->cols[0].pos, HL_ERROR,
                         HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "the view's column list has %d name%s but its query returns %d column%s",
                         cv->n_cols, cv->n_cols == 1 ? "" : "s", n, n == 1 ? "" : "s");
  hl_cat_column_t *cols = hl_arena_zalloc(arena, sizeof(*cols) * (size_t)(n + 1));
  if (!cols) return hl_err_nomem(err);
  for (int i = 0; i < n; i++) {
    const char *name = cv->n_cols ? cv->cols[i].name : plan->out_names[i];
    for (int j = 0; j < i; j++)
      if (strcasecmp(cols[j].name, name) == 0)
        return hl_err_set_at(err, cv->n_cols ? cv->cols[i].pos : cv->query_pos, HL_ERROR,
                             HL_SS(DUPLICATE_COLUMN),
                             "column \"%s\" specified more than once in the view", name);
    const hl_type_t *t = plan->out_exprs[i]->type;
    if (t->id == HL_T_NULL) t = hl_type_prim(HL_T_STRING); /* SELECT NULL: Hive's void */
    if (hl_type_has_interval(t)) /* the metastore holds no interval column */
      return hl_err_set_at(err, cv->n_cols ? cv->cols[i].pos : cv->query_pos, HL_ERROR,
                           HL_SS(INVALID_TABLE_DEFINITION),
                           "view column \"%s\" is an interval, which a view cannot hold (cast "
                           "it to STRING)",
                           name);
    cols[i].name = hl_arena_strdup(arena, name);
    cols[i].type = hl_type_to_string(arena, t);
    if (cv->n_cols && cv->cols[i].comment)
      cols[i].comment = hl_arena_strdup(arena, cv->cols[i].comment);
    if (!cols[i].name || !cols[i].type) return hl_err_nomem(err);
    for (char *c = cols[i].name; *c; c++)
      if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  }
  *out = cols;
  *n_out = n;
  return HL_OK;
}

/* After an ALTER VIEW: the new definition must still bind (a view that now
 * refers to itself, directly or through other views, does not). */
static hl_status_t check_binds(hl_session_t *s, const hl_cat_table_t *v, hl_arena_t *arena,
                               hl_error_t *err) {
  hl_ast_select_t sel;
  hl_ast_select_item_t item;
  hl_ast_expr_t star;
  hl_ast_from_t from;
  memset(&sel, 0, sizeof sel);
  memset(&item, 0, sizeof item);
  memset(&star, 0, sizeof star);
  memset(&from, 0, sizeof from);
  star.kind = HL_AST_STAR;
  item.expr = &star;
  from.kind = HL_FROM_TABLE;
  from.table.db = v->db_name;
  from.table.name = v->name;
  sel.items = &item;
  sel.n_items = 1;
  sel.from_item = &from;
  hl_plan_t *plan;
  return hl_plan_select(s, &sel, arena, &plan, err);
}

hl_status_t hl_cmd_create_view(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err) {
  const hl_ast_create_view_t *cv = stmt->create_view;
  char *db = hl_table_db_name(s, cv->name.db, arena);
  if (!db) return hl_err_nomem(err);
  hl_table_t *old = NULL;
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = hl_table_load_or_view(s, &cv->name, arena, &old, &e);
  if (rc == HL_NOTFOUND && strcmp(e.sqlstate, HL_SS(UNDEFINED_TABLE)) == 0 && !cv->alter) {
    hl_err_clear(&e);
    old = NULL;
  } else if (rc != HL_OK) {
    hl_err_move(err, &e);
    return rc;
  }
  if (old && !cv->alter) {
    if (cv->if_not_exists) return HL_OK;
    return hl_err_set_at(err, cv->name.pos, HL_CONSTRAINT, HL_SS(DUPLICATE_TABLE),
                         "table \"%s.%s\" already exists", old->cat->db_name, old->cat->name);
  }
  if (cv->alter && !old->cat->view)
    return hl_err_set_at(err, cv->name.pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                         "\"%s.%s\" is a table, not a view", old->cat->db_name, old->cat->name);
  /* views share the table namespace and its naming rules */
  if (!old && (rc = hl_cmd_check_name("view", cv->name.name, cv->name.pos, arena, err)) != HL_OK)
    return rc;

  /* bind the query: it must be valid now, and gives the columns */
  hl_plan_t *plan;
  if ((rc = hl_plan_select(s, cv->query, arena, &plan, err)) != HL_OK) return rc;
  hl_cat_table_t t;
  if (old) {
    t = *old->cat;
  } else {
    memset(&t, 0, sizeof t);
    t.db_name = db;
    t.name = cv->name.name;
    t.owner = (char *)hl_cmd_owner(s);
    t.create_time = (int64_t)time(NULL);
    t.num_buckets = -1;
    for (int i = 0; i < cv->tblprops.n; i++) {
      rc = hl_cmd_kv_put(&t.params, &t.n_params, cv->tblprops.items[i].key,
                         cv->tblprops.items[i].value, arena, err);
      if (rc != HL_OK) return rc;
    }
    if (cv->comment &&
        (rc = hl_cmd_kv_put(&t.params, &t.n_params, "comment", cv->comment, arena, err)) != HL_OK)
      return rc;
  }
  t.view = true;
  if ((rc = view_columns(cv, plan, arena, &t.cols, &t.n_cols, err)) != HL_OK) return rc;
  t.view_original_text = cv->query_text;
  if (!(t.view_expanded_text = expanded_text(cv, db, arena))) return hl_err_nomem(err);

  if ((rc = hl_cat_begin(s->cat, err)) != HL_OK) return rc;
  rc = old ? hl_cat_table_update(s->cat, &t, err) : hl_cat_table_create(s->cat, &t, err);
  if (rc == HL_OK && old) {
    rc = check_binds(s, &t, arena, err);
    if (rc != HL_OK)
      hl_err_prefix(err, "ALTER VIEW \"%s.%s\" would make it invalid", t.db_name, t.name);
  }
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    err->position = -1;
    hl_err_position(err, cv->name.pos);
  }
  return rc;
}

/* -------------------------------------------------------- DROP VIEW */

hl_status_t hl_cmd_drop_view(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                             hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load_or_view(s, &stmt->table, arena, &t, err);
  if (rc == HL_NOTFOUND && strcmp(err->sqlstate, HL_SS(UNDEFINED_TABLE)) == 0 &&
      (stmt->if_exists || hl_cmd_setting_true(s, "hive.exec.drop.ignorenonexistent"))) {
    hl_err_clear(err);
    return HL_OK;
  }
  if (rc != HL_OK) return rc;
  if (!t->cat->view)
    return hl_err_set_at(err, stmt->table.pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                         "\"%s.%s\" is a table, not a view (use DROP TABLE)", t->cat->db_name,
                         t->cat->name);
  if ((rc = hl_cat_begin(s->cat, err)) != HL_OK) return rc;
  rc = hl_cat_table_drop(s->cat, t->cat->id, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) hl_cat_rollback(s->cat);
  return rc;
}

/* ------------------------------------------------------- ALTER VIEW */

/* ALTER VIEW v RENAME TO w | SET TBLPROPERTIES | UNSET TBLPROPERTIES: the
 * view's catalog record only (a view has no data, so no write
 * transaction).  Views that name v by its old name stop binding, as in
 * Hive; v's own query is unchanged (its expanded text names every table
 * with its database already, so v means the same in another database). */
hl_status_t hl_cmd_alter_view(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                              hl_result_t *result, hl_error_t *err) {
  const hl_ast_alter_table_t *alt = stmt->alter_table;
  hl_table_t *v;
  hl_status_t rc = hl_table_load_or_view(s, &alt->name, arena, &v, err);
  if (rc != HL_OK) return rc;
  if (!v->cat->view)
    return hl_err_set_at(err, alt->name.pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                         "\"%s.%s\" is a table, not a view (use ALTER TABLE)", HL_TNAME(v));
  hl_cat_table_t nt = *v->cat;
  switch (alt->kind) {
  case HL_ALTER_RENAME: {
    rc = hl_cmd_check_name("view", alt->new_name.name, alt->new_name.pos, arena, err);
    if (rc != HL_OK) return rc;
    char *db = hl_arena_strdup(arena, alt->new_name.db ? alt->new_name.db : v->cat->db_name);
    if (!db) return hl_err_nomem(err);
    for (char *c = db; *c; c++)
      if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    hl_cat_db_t *d;
    hl_error_t e;
    hl_err_init(&e);
    if ((rc = hl_cat_db_get(s->cat, db, arena, &d, &e)) != HL_OK) {
      hl_err_move(err, &e);
      return hl_err_position(err, alt->new_name.pos), rc;
    }
    hl_cat_table_t *clash = NULL;
    rc = hl_cat_table_get(s->cat, d->name, alt->new_name.name, arena, &clash, &e);
    /* the view's own name again is no rename (Hive's metastore skips it) */
    if (rc == HL_OK && clash->id == v->cat->id) return HL_OK;
    if (rc == HL_OK)
      return hl_err_set_at(err, alt->new_name.pos, HL_CONSTRAINT, HL_SS(DUPLICATE_TABLE),
                           "table \"%s.%s\" already exists", clash->db_name, clash->name);
    if (rc != HL_NOTFOUND || strcmp(e.sqlstate, HL_SS(UNDEFINED_TABLE)) != 0) {
      hl_err_move(err, &e);
      return rc;
    }
    hl_err_clear(&e);
    rc = HL_OK;
    nt.db_name = d->name;
    nt.name = alt->new_name.name;
    break;
  }
  case HL_ALTER_SET_TBLPROPS:
    for (int i = 0; rc == HL_OK && i < alt->props.n; i++)
      rc = hl_cmd_kv_put(&nt.params, &nt.n_params, alt->props.items[i].key,
                         alt->props.items[i].value, arena, err);
    break;
  case HL_ALTER_UNSET_TBLPROPS:
    rc = hl_cmd_kv_unset(v->cat, "view", alt, stmt->pos, arena, &nt.params, &nt.n_params, err);
    break;
  default:
    return hl_err_set_at(err, stmt->pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                         "unknown ALTER VIEW form");
  }
  if (rc != HL_OK) return rc;
  if ((rc = hl_cat_begin(s->cat, err)) != HL_OK) return rc;
  rc = hl_cat_table_update(s->cat, &nt, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) hl_cat_rollback(s->cat);
  return rc;
}
