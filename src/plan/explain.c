/*
 * explain.c -- EXPLAIN text of a bound SELECT plan.
 *
 * One line per operator, children indented below their parent, in the
 * order the data flows upward (the scan is the deepest line).  Each scan
 * says how many partitions the catalog selected out of how many, the
 * predicates that did the selecting, the residual filter and the columns
 * decoded.
 */
#include "plan/incr.h"
#include "plan/plan.h"
#include "plan/table.h"

#include <stdio.h>
#include <string.h>

typedef struct lines {
  hl_session_t *s; /* for the totals of pinned listings */
  hl_arena_t *arena;
  bool actual; /* EXPLAIN ANALYZE: print what each scan did */
  /* the scan that reads partitions in ORDER BY order, and how */
  const hl_plan_scan_t *ordered_scan;
  const char *ordered_note;
  char **items;
  int n, cap;
  bool oom;
} lines_t;

static void add_line(lines_t *l, int depth, const char *text) {
  if (l->oom) return;
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 16;
    char **n = hl_arena_realloc(l->arena, l->items, sizeof(char *) * (size_t)l->cap,
                                sizeof(char *) * (size_t)cap);
    if (!n) {
      l->oom = true;
      return;
    }
    l->items = n;
    l->cap = cap;
  }
  char *s = hl_arena_sprintf(l->arena, "%*s%s", depth * 2, "", text);
  if (!s) {
    l->oom = true;
    return;
  }
  l->items[l->n++] = s;
}

static void add_expr_list(lines_t *l, int depth, const char *label, hl_expr_t *const *exprs, int n,
                          char *const *names) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, label);
  for (int i = 0; i < n; i++) {
    if (i) hl_buf_puts(&b, ", ");
    hl_expr_print(&b, exprs[i]);
    if (names && !(exprs[i]->kind == HL_EX_COLUMN && exprs[i]->col_name &&
                   strcmp(exprs[i]->col_name, names[i]) == 0))
      hl_buf_printf(&b, " AS %s", names[i]);
  }
  if (b.oom)
    l->oom = true;
  else
    add_line(l, depth, hl_buf_cstr(&b));
  hl_buf_fini(&b);
}

/* "n/N": the partitions a scan reads of the table's.  A pinned listing
 * left N to EXPLAIN (bind.c): counted here, "?" if that fails. */
static const char *parts_shown(lines_t *l, const hl_plan_scan_t *scan) {
  size_t total = scan->n_parts_total;
  if (total == HL_PLAN_TOTAL_UNKNOWN) {
    hl_error_t e;
    hl_err_init(&e);
    if (hl_cat_partition_count(hl_table_catalog(l->s, scan->table), scan->table->cat->id, &total,
                               &e) != HL_OK)
      total = HL_PLAN_TOTAL_UNKNOWN;
    hl_err_clear(&e);
  }
  char *text = total == HL_PLAN_TOTAL_UNKNOWN
                   ? hl_arena_sprintf(l->arena, "%zu/?", scan->n_parts)
                   : hl_arena_sprintf(l->arena, "%zu/%zu", scan->n_parts, total);
  if (!text) l->oom = true;
  return text ? text : "";
}

static void explain_rel(lines_t *l, const hl_rel_t *r, const hl_expr_t *single_filter, int depth);

/* "partition order: newest first by dt as text dates (yyyy-MM-dd), hr,
 * until the LIMIT is settled" (plan/newest.c). */
static void newest_note(lines_t *l, const hl_plan_scan_t *scan, int depth) {
  const hl_table_t *t = scan->table;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "partition order: newest first by ");
  for (int k = 0; k < t->n_part; k++) {
    if (k) hl_buf_puts(&b, ", ");
    hl_buf_puts(&b, t->names[t->n_data + k]);
    if (k == 0 && scan->newest_kind == HL_INCR_BATCH) hl_buf_puts(&b, " as batch numbers");
    if (k == 0 && scan->newest_kind == HL_INCR_DATE) {
      hl_buf_puts(&b, " as text dates");
      if (scan->newest_fmt != HL_TDATE_NONE)
        hl_buf_printf(&b, " (%s)", hl_tdate_format_name(scan->newest_fmt));
    }
  }
  hl_buf_puts(&b, ", until the LIMIT is settled");
  if (b.oom)
    l->oom = true;
  else
    add_line(l, depth, hl_buf_cstr(&b));
  hl_buf_fini(&b);
}

static void explain_scan(lines_t *l, const hl_plan_scan_t *scan, const hl_expr_t *pushed,
                         int depth) {
  hl_arena_t *arena = l->arena;
  char tmp[160];
  const hl_table_t *t = scan->table;
  char *line =
      hl_arena_sprintf(arena, "Scan: %s.%s (%s)", t->cat->db_name, t->cat->name, scan->format_name);
  if (!line)
    l->oom = true;
  else
    add_line(l, depth++, line);
  if (t->n_part > 0) {
    snprintf(tmp, sizeof tmp, "partitions: %s%s", parts_shown(l, scan),
             scan->projected ? " (partition projection)" : "");
    add_line(l, depth, tmp);
    if (scan->n_part_preds)
      add_expr_list(l, depth, "partition predicates: ", scan->part_preds, scan->n_part_preds, NULL);
    if (scan == l->ordered_scan && l->ordered_note) add_line(l, depth, l->ordered_note);
    if (scan->newest_first) newest_note(l, scan, depth);
  }
  if (pushed) add_expr_list(l, depth, "pushed predicates: ", (hl_expr_t *const *)&pushed, 1, NULL);
  if (scan->filter)
    add_expr_list(l, depth, "pushed predicates: ", (hl_expr_t *const *)&scan->filter, 1, NULL);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "columns: ");
  int n = 0;
  for (int c = 0; c < t->n_all; c++) {
    if (!scan->needed[c]) continue;
    if (n++) hl_buf_puts(&b, ", ");
    hl_buf_puts(&b, t->names[c]);
  }
  if (n == 0) hl_buf_puts(&b, "(none)");
  if (b.oom)
    l->oom = true;
  else
    add_line(l, depth, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  if (l->actual && scan->actual) {
    const hl_scan_actual_t *a = scan->actual;
    hl_buf_t x;
    hl_buf_init(&x);
    /* newest first: how far back the LIMIT had to go */
    hl_buf_printf(&x, "actual: partitions read %llu", (unsigned long long)a->partitions);
    if (scan->newest_first) hl_buf_printf(&x, " of %zu", scan->n_parts);
    hl_buf_printf(&x, ", files %llu, rows %llu", (unsigned long long)a->files,
                  (unsigned long long)a->rows);
    if (a->row_groups_total)
      hl_buf_printf(
          &x, ", %s %llu/%llu", strcmp(scan->format_name, "orc") == 0 ? "stripes" : "row groups",
          (unsigned long long)a->row_groups_read, (unsigned long long)a->row_groups_total);
    if (a->pages_skipped)
      hl_buf_printf(&x, ", pages skipped %llu", (unsigned long long)a->pages_skipped);
    if (a->blocks) hl_buf_printf(&x, ", blocks %llu", (unsigned long long)a->blocks);
    if (x.oom)
      l->oom = true;
    else
      add_line(l, depth, hl_buf_cstr(&x));
    hl_buf_fini(&x);
  }
}

/* plan->catalog_answer: where the aggregates come from instead of a scan
 * (EXPLAIN ANALYZE: what the probes of partitions without accurate
 * statistics read). */
static void explain_catalog(lines_t *l, const hl_plan_scan_t *scan, int depth) {
  const hl_table_t *t = scan->table;
  char *line = hl_arena_sprintf(l->arena,
                                "Catalog answer: partition keys of %s.%s (partitions: %s; "
                                "a partition counts when statistics or a probe show a row)",
                                t->cat->db_name, t->cat->name, parts_shown(l, scan));
  if (!line) {
    l->oom = true;
    return;
  }
  add_line(l, depth++, line);
  if (scan->n_part_preds)
    add_expr_list(l, depth, "partition predicates: ", scan->part_preds, scan->n_part_preds, NULL);
  if (l->actual && scan->actual) {
    char tmp[160];
    snprintf(tmp, sizeof tmp, "actual: partitions read %llu, files %llu, rows %llu",
             (unsigned long long)scan->actual->partitions, (unsigned long long)scan->actual->files,
             (unsigned long long)scan->actual->rows);
    add_line(l, depth, tmp);
  }
}

static void explain_block(lines_t *l, const hl_plan_t *plan, int depth) {
  lines_t *lp = l;
  hl_arena_t *arena = l->arena;
  char tmp[128];
  if (plan->has_limit) {
    if (plan->offset)
      snprintf(tmp, sizeof tmp, "Limit: %lld offset %lld", (long long)plan->limit,
               (long long)plan->offset);
    else
      snprintf(tmp, sizeof tmp, "Limit: %lld", (long long)plan->limit);
    add_line(lp, depth++, tmp);
  }
  if (plan->n_order) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_puts(&b, "Sort: ");
    for (int k = 0; k < plan->n_order; k++) {
      if (k) hl_buf_puts(&b, ", ");
      int c = plan->order_cols[k];
      hl_expr_print(&b, plan->out_exprs[c]);
      hl_buf_puts(&b, plan->order_desc[k] ? " DESC" : " ASC");
      hl_buf_puts(&b, plan->order_nulls_first[k] ? " NULLS FIRST" : " NULLS LAST");
    }
    add_line(lp, depth++, hl_buf_cstr(&b));
    if (b.oom) lp->oom = true;
    hl_buf_fini(&b);
  }
  add_expr_list(lp, depth++, "Project: ", plan->out_exprs, plan->n_visible, plan->out_names);
  if (plan->n_windows) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_puts(&b, "Window:");
    for (int k = 0; k < plan->n_windows; k++) {
      const hl_window_t *w = &plan->windows[k];
      hl_buf_printf(&b, "%s %s(", k ? "," : "", w->name);
      if (w->arg) hl_expr_print(&b, w->arg);
      hl_buf_puts(&b, ") over (");
      for (int j = 0; j < w->n_partition; j++) {
        hl_buf_puts(&b, j ? ", " : "partition by ");
        hl_expr_print(&b, w->partition[j]);
      }
      for (int j = 0; j < w->n_order; j++) {
        hl_buf_puts(&b, j ? ", " : (w->n_partition ? " order by " : "order by "));
        hl_expr_print(&b, w->order[j]);
        if (w->order_desc[j]) hl_buf_puts(&b, " DESC");
      }
      hl_buf_putc(&b, ')');
    }
    if (b.oom)
      lp->oom = true;
    else
      add_line(lp, depth++, hl_buf_cstr(&b));
    hl_buf_fini(&b);
  }
  if (plan->aggregate) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_puts(&b, "Aggregate:");
    if (plan->n_group) {
      hl_buf_puts(&b, " group by ");
      for (int g = 0; g < plan->n_group; g++) {
        if (g) hl_buf_puts(&b, ", ");
        hl_expr_print(&b, plan->group_exprs[g]);
      }
    }
    for (int k = 0; k < plan->n_aggs; k++) {
      hl_buf_puts(&b, k || plan->n_group ? "; " : " ");
      const hl_agg_t *a = &plan->aggs[k];
      hl_buf_printf(&b, "%s(%s", a->name, a->distinct ? "DISTINCT " : "");
      if (a->arg)
        hl_expr_print(&b, a->arg);
      else
        hl_buf_putc(&b, '*');
      if (a->arg2) {
        hl_buf_puts(&b, ", ");
        hl_expr_print(&b, a->arg2);
      }
      hl_buf_putc(&b, ')');
    }
    if (plan->having) {
      hl_buf_puts(&b, " having ");
      hl_expr_print(&b, plan->having);
    }
    if (b.oom)
      lp->oom = true;
    else
      add_line(lp, depth++, hl_buf_cstr(&b));
    hl_buf_fini(&b);
  }
  if (plan->filter) add_expr_list(lp, depth++, "Filter: ", &plan->filter, 1, NULL);
  if (!plan->from && plan->stats_rows >= 0 && plan->scan) {
    const hl_plan_scan_t *sc = plan->scan;
    char *line =
        sc->table->n_part
            ? hl_arena_sprintf(lp->arena,
                               "Values: 1 row: count(*) from catalog statistics of %s.%s "
                               "(partitions: %s, no files read)",
                               sc->table->cat->db_name, sc->table->cat->name, parts_shown(lp, sc))
            : hl_arena_sprintf(lp->arena,
                               "Values: 1 row: count(*) from catalog statistics of %s.%s "
                               "(no files read)",
                               sc->table->cat->db_name, sc->table->cat->name);
    if (!line)
      lp->oom = true;
    else
      add_line(lp, depth, line);
  } else if (!plan->from)
    add_line(lp, depth, "Values: 1 row");
  else if (plan->catalog_answer)
    explain_catalog(lp, plan->scan, depth);
  else {
    int k = hl_plan_ordered_key(plan);
    if (k >= 0) {
      const hl_table_t *t = plan->from->scan->table;
      lp->ordered_scan = plan->from->scan;
      lp->ordered_note =
          hl_arena_sprintf(arena, "partition order: %s %s, until the LIMIT is settled",
                           t->names[t->n_data + k], plan->order_desc[0] ? "DESC" : "ASC");
      if (!lp->ordered_note) lp->oom = true;
    }
    explain_rel(lp, plan->from, plan->from->kind == HL_REL_SCAN ? plan->filter : NULL, depth);
  }
}

static const char *join_name(hl_ast_join_type_t t) {
  static const char *const names[] = {"INNER", "LEFT OUTER", "RIGHT OUTER", "FULL OUTER",
                                      "CROSS", "LEFT SEMI",  "LEFT ANTI"};
  return names[t];
}

static void explain_rel(lines_t *l, const hl_rel_t *r, const hl_expr_t *single_filter, int depth) {
  switch (r->kind) {
  case HL_REL_SCAN:
    explain_scan(l, r->scan, single_filter, depth);
    return;
  case HL_REL_QUERY:
    add_line(l, depth, "Subquery:");
    explain_block(l, r->query, depth + 1);
    return;
  case HL_REL_LATERAL: {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_printf(&b, "Lateral View%s: %s(", r->gen_outer ? " Outer" : "",
                  r->gen_repeat   ? "replicate_rows"
                  : r->gen_inline ? "inline"
                  : r->gen_pos    ? "posexplode"
                                  : "explode");
    if (r->gen_repeat) /* the arguments, not the struct they are gathered in */
      for (int k = 0; k < r->gen_arg->n_args; k++) {
        if (k) hl_buf_puts(&b, ", ");
        hl_expr_print(&b, r->gen_arg->args[k]);
      }
    else
      hl_expr_print(&b, r->gen_arg);
    hl_buf_putc(&b, ')');
    if (b.oom)
      l->oom = true;
    else
      add_line(l, depth, hl_buf_cstr(&b));
    hl_buf_fini(&b);
    explain_rel(l, r->left, NULL, depth + 1);
    return;
  }
  case HL_REL_SETOP: {
    static const char *const names[] = {"", "Union All:", "Union:", "Intersect:", "Except:"};
    add_line(l, depth, names[r->setop]);
    for (int k = 0; k < r->n_terms; k++) /* a UNION [ALL] chain: one level */
      explain_rel(l, r->terms[k], NULL, depth + 1);
    return;
  }
  case HL_REL_JOIN: {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_printf(&b, "Join: %s%s", join_name(r->join_type),
                  r->join_type == HL_JOIN_INNER && r->build_left ? " (build left)" : "");
    for (int k = 0; k < r->n_keys; k++) {
      hl_buf_puts(&b, k ? " and (" : " on (");
      hl_expr_print(&b, r->left_keys[k]);
      hl_buf_puts(&b, " = ");
      hl_expr_print(&b, r->right_keys[k]);
      hl_buf_putc(&b, ')');
    }
    if (r->residual) {
      hl_buf_puts(&b, r->n_keys ? " and " : " on ");
      hl_expr_print(&b, r->residual);
    }
    if (b.oom)
      l->oom = true;
    else
      add_line(l, depth, hl_buf_cstr(&b));
    hl_buf_fini(&b);
    explain_rel(l, r->left, NULL, depth + 1);
    explain_rel(l, r->right, NULL, depth + 1);
    return;
  }
  }
}

hl_status_t hl_plan_explain(hl_session_t *s, const hl_plan_t *plan, hl_arena_t *arena, char ***out,
                            int *n_out, hl_error_t *err) {
  lines_t l = {.s = s, .arena = arena};
  explain_block(&l, plan, 0);
  if (l.oom) return hl_err_nomem(err);
  *out = l.items;
  *n_out = l.n;
  return HL_OK;
}

hl_status_t hl_plan_explain_analyze(hl_session_t *s, const hl_plan_t *plan, uint64_t rows,
                                    double ms, hl_arena_t *arena, char ***out, int *n_out,
                                    hl_error_t *err) {
  lines_t l = {.s = s, .arena = arena, .actual = true};
  explain_block(&l, plan, 0);
  char *last = hl_arena_sprintf(arena, "Result: %llu row%s in %.1f ms", (unsigned long long)rows,
                                rows == 1 ? "" : "s", ms);
  if (!last)
    l.oom = true;
  else
    add_line(&l, 0, last);
  if (l.oom) return hl_err_nomem(err);
  *out = l.items;
  *n_out = l.n;
  return HL_OK;
}
