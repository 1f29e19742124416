/*
 * query.c -- runs SELECT and EXPLAIN: binds the statement into a plan
 * (plan/bind.c) and assembles the operator pipeline
 *
 *   scan -> filter -> aggregate(+having) -> project -> sort -> limit
 *
 * whose root the api layer pulls batches from.
 */
#include "exec/query.h"
#include "storage/s3/stor_s3.h"
#include "exec/ops.h"
#include "plan/plan.h"
#include "util/hashmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* EXPLAIN ANALYZE's last line on object stores: the requests the query
 * made, by kind ("S3 requests: 1 LIST, 2 GET"), when it made any. */
static hl_status_t add_s3_line(const hl_s3_stats_t *a, const hl_s3_stats_t *b, hl_arena_t *arena,
                               char ***lines, int *n, hl_error_t *err) {
  static const char *const names[HL_S3_N_KINDS] = {
      [HL_S3_HEAD] = "HEAD",
      [HL_S3_GET] = "GET",
      [HL_S3_LIST] = "LIST",
      [HL_S3_PUT] = "PUT",
      [HL_S3_MPU_CREATE] = "CreateMultipartUpload",
      [HL_S3_MPU_PART] = "UploadPart",
      [HL_S3_MPU_COMPLETE] = "CompleteMultipartUpload",
      [HL_S3_MPU_ABORT] = "AbortMultipartUpload",
      [HL_S3_MPU_LIST] = "ListMultipartUploads",
      [HL_S3_DELETE] = "DELETE",
  };
  hl_buf_t m;
  hl_buf_init(&m);
  for (int k = 0; k < HL_S3_N_KINDS; k++) {
    uint64_t d = b->requests[k] - a->requests[k];
    if (d)
      hl_buf_printf(&m, "%s%llu %s", m.len ? ", " : "S3 requests: ", (unsigned long long)d,
                    names[k]);
  }
  if (m.len && b->retries > a->retries)
    hl_buf_printf(&m, " (%llu retried)", (unsigned long long)(b->retries - a->retries));
  hl_status_t rc = HL_OK;
  if (m.len) {
    char **g = hl_arena_alloc(arena, sizeof(char *) * (size_t)(*n + 1));
    char *line = hl_arena_strdup(arena, hl_buf_cstr(&m));
    if (!g || !line || m.oom) {
      rc = hl_err_nomem(err);
    } else {
      memcpy(g, *lines, sizeof(char *) * (size_t)*n);
      g[(*n)++] = line;
      *lines = g;
    }
  }
  hl_buf_fini(&m);
  return rc;
}

hl_status_t hl_exec_query(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err) {
  const hl_ast_stmt_t *q = stmt->kind == HL_STMT_EXPLAIN ? stmt->inner : stmt;
  if (!q || q->kind != HL_STMT_SELECT)
    return hl_err_set_at(err, stmt->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "EXPLAIN is only supported for SELECT");
  hl_plan_t *plan;
  hl_status_t rc = hl_plan_select(s, q->select, arena, &plan, err);
  if (rc != HL_OK) return rc;

  if (stmt->kind == HL_STMT_EXPLAIN) {
    char **lines;
    int n;
    if (stmt->explain_analyze) {
      /* run the query to the end, then describe what it did */
      struct timespec t0, t1;
      hl_s3_stats_t s3_before, s3_after;
      if (s->s3) hl_stor_s3_stats(s->s3, &s3_before);
      clock_gettime(CLOCK_MONOTONIC, &t0);
      hl_result_t run;
      memset(&run, 0, sizeof run);
      rc = hl_exec_plan(s, plan, arena, &run, err);
      if (rc != HL_OK) return rc;
      uint64_t rows = 0;
      for (;;) {
        hl_batch_t *b;
        if ((rc = run.root->next(run.root, &b, err)) != HL_OK || !b) break;
        rows += hl_batch_live(b);
      }
      run.root->close(run.root); /* publishes the scans' counters */
      if (rc != HL_OK) return rc;
      clock_gettime(CLOCK_MONOTONIC, &t1);
      double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
      rc = hl_plan_explain_analyze(s, plan, rows, ms, arena, &lines, &n, err);
      if (rc == HL_OK && s->s3) {
        hl_stor_s3_stats(s->s3, &s3_after);
        rc = add_s3_line(&s3_before, &s3_after, arena, &lines, &n, err);
      }
    } else {
      rc = hl_plan_explain(s, plan, arena, &lines, &n, err);
    }
    if (rc != HL_OK) return rc;
    const char *name = "Explain";
    hl_rowset_t *rs = hl_rowset_create_text(arena, 1, &name);
    if (!rs) return hl_err_nomem(err);
    for (int i = 0; i < n && rc == HL_OK; i++) {
      const char *text = lines[i];
      rc = hl_rowset_add_text(rs, &text, err);
    }
    if (rc != HL_OK) return rc;
    return hl_rowset_result(rs, result, err);
  }

  return hl_exec_plan(s, plan, arena, result, err);
}

hl_status_t hl_exec_select(hl_session_t *s, const hl_ast_select_t *select, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err) {
  hl_plan_t *plan;
  hl_status_t rc = hl_plan_select(s, select, arena, &plan, err);
  if (rc != HL_OK) return rc;
  return hl_exec_plan(s, plan, arena, result, err);
}

/* ------------------------------------------------------- subqueries */

static void destroy_map(void *m) {
  hl_map_destroy(m);
}

/* Runs the uncorrelated subquery of E and turns E into a constant (scalar,
 * EXISTS) or an IN set. */
static hl_status_t materialize(hl_session_t *s, hl_expr_t *e, hl_arena_t *arena, hl_error_t *err) {
  hl_result_t r;
  memset(&r, 0, sizeof r);
  hl_status_t rc = hl_exec_plan(s, e->subquery, arena, &r, err);
  if (rc != HL_OK) return rc;
  const hl_type_t *t = r.n_cols > 0 ? r.types[0] : hl_type_prim(HL_T_NULL);
  hl_map_t *set = NULL;
  hl_buf_t key;
  hl_buf_init(&key);
  bool any = false, has_null = false;
  uint64_t charged = 0; /* the IN set's bytes, held until the statement ends */
  hl_value_t first;
  memset(&first, 0, sizeof first);
  first.is_null = true;
  if (e->sub_kind == HL_SUB_IN) {
    if (!(set = hl_map_create()) || hl_arena_on_reset(arena, destroy_map, set) != 0) {
      hl_map_destroy(set);
      r.root->close(r.root);
      return hl_err_nomem(err);
    }
  }
  for (;;) {
    hl_batch_t *b;
    if ((rc = r.root->next(r.root, &b, err)) != HL_OK || !b) break;
    uint32_t live = hl_batch_live(b);
    if (live == 0) continue;
    if (e->sub_kind == HL_SUB_EXISTS) {
      any = true;
      break;
    }
    if (e->sub_kind == HL_SUB_SCALAR) {
      if (any || live > 1) {
        rc = hl_err_set_at(err, e->pos, HL_ERROR, HL_SS(CARDINALITY_VIOLATION),
                           "more than one row returned by a subquery used as an expression");
        break;
      }
      any = true;
      hl_vec_get_value(&b->cols[0], hl_batch_row(b, 0), &first);
      if (!first.is_null && hl_type_phys(t) == HL_P_STR) {
        char *p = hl_arena_alloc(arena, first.u.s.len ? first.u.s.len : 1);
        if (!p) {
          rc = hl_err_nomem(err);
          break;
        }
        memcpy(p, first.u.s.ptr, first.u.s.len);
        first.u.s.ptr = p;
      } else if (!first.is_null && hl_type_phys(t) == HL_P_VALUE) {
        /* complex values point into the batch: a scalar subquery of a
         * complex type would dangle */
        rc = hl_err_set_at(err, e->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "a scalar subquery of a complex type is not supported yet");
        break;
      }
      continue;
    }
    for (uint32_t i = 0; i < live; i++) {
      hl_value_t v;
      hl_vec_get_value(&b->cols[0], hl_batch_row(b, i), &v);
      if (v.is_null) {
        has_null = true;
        continue;
      }
      hl_buf_reset(&key);
      hl_value_key_append(&key, t, &v);
      uint64_t ignored;
      bool ins;
      if (key.oom || hl_map_upsert(set, key.data, key.len, 0, &ignored, &ins) < 0) {
        rc = hl_err_nomem(err);
        break;
      }
    }
    if (rc == HL_OK && set)
      rc = hl_budget_track(&s->budget, &charged, hl_map_bytes(set), "the IN subquery", err);
    if (rc != HL_OK) break;
  }
  hl_buf_fini(&key);
  r.root->close(r.root);
  if (rc != HL_OK) return rc;
  switch (e->sub_kind) {
  case HL_SUB_SCALAR:
    e->kind = HL_EX_CONST;
    e->value = first;
    break;
  case HL_SUB_EXISTS:
    e->kind = HL_EX_CONST;
    e->type = hl_type_prim(HL_T_BOOLEAN);
    memset(&e->value, 0, sizeof e->value);
    e->value.u.b = any != e->negated;
    break;
  case HL_SUB_IN:
    e->kind = HL_EX_IN_SET;
    e->in_set = set;
    e->in_has_null = has_null;
    break;
  }
  return HL_OK;
}

static hl_status_t materialize_all(hl_session_t *s, hl_expr_t *e, hl_arena_t *arena,
                                   hl_error_t *err) {
  if (!e) return HL_OK;
  for (int k = 0; k < e->n_args; k++) {
    hl_status_t rc = materialize_all(s, e->args[k], arena, err);
    if (rc != HL_OK) return rc;
  }
  return e->kind == HL_EX_SUBQUERY ? materialize(s, e, arena, err) : HL_OK;
}

static hl_status_t materialize_rel(hl_session_t *s, const hl_rel_t *r, hl_arena_t *arena,
                                   hl_error_t *err) {
  if (!r) return HL_OK;
  hl_status_t rc = HL_OK;
  if (r->kind == HL_REL_SCAN) return materialize_all(s, r->scan->filter, arena, err);
  if (r->kind == HL_REL_JOIN) {
    for (int k = 0; k < r->n_keys && rc == HL_OK; k++) {
      rc = materialize_all(s, r->left_keys[k], arena, err);
      if (rc == HL_OK) rc = materialize_all(s, r->right_keys[k], arena, err);
    }
    if (rc == HL_OK) rc = materialize_all(s, r->residual, arena, err);
    if (rc == HL_OK) rc = materialize_rel(s, r->left, arena, err);
    if (rc == HL_OK) rc = materialize_rel(s, r->right, arena, err);
  }
  if (r->kind == HL_REL_LATERAL) {
    rc = materialize_all(s, r->gen_arg, arena, err);
    if (rc == HL_OK) rc = materialize_rel(s, r->left, arena, err);
  }
  return rc; /* QUERY and SETOP operands materialize in their own hl_exec_plan */
}

/* Subqueries of a plan run once, before the plan's operators are built. */
static hl_status_t materialize_plan(hl_session_t *s, const hl_plan_t *plan, hl_arena_t *arena,
                                    hl_error_t *err) {
  hl_status_t rc = materialize_rel(s, plan->from, arena, err);
  if (rc == HL_OK) rc = materialize_all(s, plan->filter, arena, err);
  for (int g = 0; g < plan->n_group && rc == HL_OK; g++)
    rc = materialize_all(s, plan->group_exprs[g], arena, err);
  for (int k = 0; k < plan->n_aggs && rc == HL_OK; k++)
    if ((rc = materialize_all(s, plan->aggs[k].arg, arena, err)) == HL_OK)
      rc = materialize_all(s, plan->aggs[k].arg2, arena, err);
  if (rc == HL_OK) rc = materialize_all(s, plan->having, arena, err);
  for (int i = 0; i < plan->n_out && rc == HL_OK; i++)
    rc = materialize_all(s, plan->out_exprs[i], arena, err);
  return rc;
}

/* ----------------------------------------------------------- operators */

/* Setting KEY as a thread count 1..64, DFLT when unset; 0 on a malformed
 * value (error set). */
static int thread_setting(hl_session_t *s, const char *key, long dflt, hl_error_t *err) {
  const char *v = hl_session_get(s, key);
  long n = dflt;
  if (v) {
    char *end;
    errno = 0;
    n = strtol(v, &end, 10);
    if (end == v || *end || errno || n < 1 || n > 64) {
      hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                 "invalid %s \"%s\": expected a whole number from 1 to 64", key, v);
      return 0;
    }
  }
  return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* Scan threads: SET hivelite.threads=N (1..64), default the machine's
 * cores; 0 on a malformed value (error set). */
static int scan_threads(hl_session_t *s, hl_error_t *err) {
  return thread_setting(s, "hivelite.threads", sysconf(_SC_NPROCESSORS_ONLN), err);
}

/* Threads for a scan of the table at LOCATION (NULL: unknown): as
 * scan_threads, but a table on an object store gets at least
 * hivelite.s3.scan_threads (default 16) unless hivelite.threads is set --
 * such a scan waits on requests rather than on the CPU, and more of them
 * in flight make it faster. */
static int scan_threads_at(hl_session_t *s, const char *location, hl_error_t *err) {
  int n = scan_threads(s, err);
  if (n == 0 || !location || !hl_uri_object_root(location) || hl_session_get(s, "hivelite.threads"))
    return n;
  int io = thread_setting(s, "hivelite.s3.scan_threads", 16, err);
  return io == 0 ? 0 : io > n ? io : n;
}

int hl_exec_scan_threads(hl_session_t *s, const char *location, hl_error_t *err) {
  return scan_threads_at(s, location, err);
}

/* A scan with its filter; EXTRA is a filter over the same layout to run in
 * the scan's threads too (the block filter of a single-table query). */
hl_status_t hl_exec_scan_filter(const hl_plan_scan_t *scan, const hl_expr_t *extra,
                                hl_arena_t *arena, const hl_expr_t **out, hl_error_t *err) {
  const hl_expr_t *f = scan->filter;
  if (extra && f) {
    hl_expr_t *both = hl_arena_zalloc(arena, sizeof(*both));
    hl_expr_t **args = hl_arena_alloc(arena, sizeof(hl_expr_t *) * 2);
    if (!both || !args) return hl_err_nomem(err);
    both->kind = HL_EX_AND;
    both->type = hl_type_prim(HL_T_BOOLEAN);
    args[0] = (hl_expr_t *)f;
    args[1] = (hl_expr_t *)extra;
    both->args = args;
    both->n_args = 2;
    f = both;
  } else if (extra) {
    f = extra;
  }
  *out = f;
  return HL_OK;
}

/* Threads for SCAN (scan_threads_at, LOCATION NULL: not an object
 * store's scan), but no more than it has units of work: a scan of one
 * small file runs on the statement's thread, starting none.  0 on error
 * (ERR set). */
static int scan_threads_for(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                            const char *location, hl_error_t *err) {
  int n = scan_threads_at(s, location, err);
  size_t busy;
  if (n <= 1) return n;
  if (hl_op_scan_busy_threads(s, snap, scan, (size_t)n, &busy, err) != HL_OK) return 0;
  return busy < 1 ? 1 : (int)busy;
}

/* The scan of build_scan with THREADS threads. */
static hl_op_t *build_scan_n(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                             const hl_expr_t *extra, int threads, hl_arena_t *arena,
                             hl_error_t *err) {
  const hl_expr_t *f = NULL;
  if (hl_exec_scan_filter(scan, extra, arena, &f, err) != HL_OK) return NULL;
  if (threads > 1) return hl_op_parallel_scan_create(s, snap, scan, f, threads, arena, err);
  hl_op_t *op = hl_op_scan_create(s, snap, scan, arena, err);
  if (op && f && hl_op_scan_set_filter(op, f, err) != HL_OK) {
    op->close(op);
    return NULL;
  }
  return op;
}

static hl_op_t *build_scan(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                           const hl_expr_t *extra, hl_arena_t *arena, hl_error_t *err) {
  int threads = scan_threads_for(s, snap, scan, scan->table->cat->location, err);
  return threads ? build_scan_n(s, snap, scan, extra, threads, arena, err) : NULL;
}

/* Marks in a new array of N_COLS (in ARENA) USED's columns (all when USED
 * is NULL) plus those the expressions E[0..n) read. */
static bool *mark_used(const bool *used, int n_cols, hl_expr_t *const *e, int n,
                       hl_arena_t *arena) {
  bool *u = hl_arena_alloc(arena, sizeof(bool) * (size_t)(n_cols + 1));
  if (!u) return NULL;
  for (int c = 0; c < n_cols; c++)
    u[c] = !used || used[c];
  for (int k = 0; k < n; k++)
    if (e[k]) hl_expr_mark_cols(e[k], u, n_cols);
  return u;
}

static hl_op_t *build_rel(hl_session_t *s, const hl_rel_t *r, const bool *used, hl_arena_t *arena,
                          hl_error_t *err);

/* What a set operation needs to build its operands when it reaches them. */
typedef struct setop_ctx {
  hl_session_t *s;
  const hl_rel_t *rel; /* the SETOP */
  hl_arena_t *arena;
  hl_snap_t *snap;   /* the statement's snapshot (s->snap when the SETOP was built) */
  hl_spill_t *spill; /* and its spill space (s->spill then) */
} setop_ctx_t;

/* Operand K is built while the statement runs, after hl_exec_plan has
 * returned: its scans must still join the statement's snapshot (one lock
 * and one listing per table), so it is made current again meanwhile. */
static hl_op_t *build_term(void *ctx, int k, hl_error_t *err) {
  const setop_ctx_t *c = ctx;
  hl_snap_t *outer = c->s->snap;
  hl_spill_t *outer_spill = c->s->spill;
  c->s->snap = c->snap;
  c->s->spill = c->spill;
  hl_op_t *op = build_rel(c->s, c->rel->terms[k], NULL, c->arena, err);
  c->s->snap = outer;
  c->s->spill = outer_spill;
  return op;
}

/* The operators of relation R.  USED (R->n_cols, NULL: all) marks the
 * columns read above it, so that a join gathers only those (and asks its
 * inputs only for those plus its keys and residual condition). */
static hl_op_t *build_rel(hl_session_t *s, const hl_rel_t *r, const bool *used, hl_arena_t *arena,
                          hl_error_t *err) {
  switch (r->kind) {
  case HL_REL_SCAN:
    return build_scan(s, s->snap, r->scan, NULL, arena, err);
  case HL_REL_QUERY: {
    hl_result_t sub;
    memset(&sub, 0, sizeof sub);
    return hl_exec_plan(s, r->query, arena, &sub, err) == HL_OK ? sub.root : NULL;
  }
  case HL_REL_JOIN: {
    int nl = r->left->n_cols;
    bool *out_used = mark_used(used, r->n_cols, &r->residual, 1, arena);
    bool *lu = out_used ? mark_used(out_used, nl, r->left_keys, r->n_keys, arena) : NULL;
    bool *ru = out_used
                   ? mark_used(out_used + nl, r->right->n_cols, r->right_keys, r->n_keys, arena)
                   : NULL;
    if (!lu || !ru) return hl_err_nomem(err), NULL;
    hl_op_t *l = build_rel(s, r->left, lu, arena, err);
    if (!l) return NULL;
    hl_op_t *rr = build_rel(s, r->right, ru, arena, err);
    if (!rr) {
      l->close(l);
      return NULL;
    }
    hl_op_t *j = hl_op_join_create(l, rr, r, out_used, &s->budget, arena, err);
    if (j) hl_op_join_set_spill(j, s->spill);
    return j;
  }
  case HL_REL_LATERAL: { /* op_lateral.c */
    hl_op_t *l = build_rel(s, r->left, NULL, arena, err);
    return l ? hl_op_lateral_create(l, r, &s->budget, arena, err) : NULL;
  }
  case HL_REL_SETOP: {
    setop_ctx_t *c = hl_arena_alloc(arena, sizeof(*c));
    if (!c) return hl_err_nomem(err), NULL;
    c->s = s;
    c->rel = r;
    c->arena = arena;
    c->snap = s->snap;
    c->spill = s->spill;
    return hl_op_setop_create(r->n_terms, build_term, c, r->setop, r->n_cols, &s->budget, arena,
                              err);
  }
  }
  hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown relation kind");
  return NULL;
}

/* The columns of PLAN's FROM relation the block reads: WHERE, GROUP BY and
 * aggregate arguments, and without aggregation the window expressions and
 * the outputs (which then read the FROM layout).  NULL (all) on OOM. */
static const bool *from_used(const hl_plan_t *plan, hl_arena_t *arena) {
  int n = plan->from->n_cols;
  bool *u = hl_arena_zalloc(arena, sizeof(bool) * (size_t)(n + 1));
  if (!u) return NULL;
  if (plan->filter) hl_expr_mark_cols(plan->filter, u, n);
  if (plan->aggregate) {
    for (int g = 0; g < plan->n_group; g++)
      hl_expr_mark_cols(plan->group_exprs[g], u, n);
    for (int k = 0; k < plan->n_aggs; k++) {
      if (plan->aggs[k].arg) hl_expr_mark_cols(plan->aggs[k].arg, u, n);
      if (plan->aggs[k].arg2) hl_expr_mark_cols(plan->aggs[k].arg2, u, n);
    }
    return u;
  }
  for (int k = 0; k < plan->n_windows; k++) {
    const hl_window_t *w = &plan->windows[k];
    if (w->arg) hl_expr_mark_cols(w->arg, u, n);
    if (w->deflt) hl_expr_mark_cols(w->deflt, u, n);
    for (int i = 0; i < w->n_partition; i++)
      hl_expr_mark_cols(w->partition[i], u, n);
    for (int i = 0; i < w->n_order; i++)
      hl_expr_mark_cols(w->order[i], u, n);
  }
  /* with windows the outputs read the window's layout: its first n columns
   * are the FROM columns */
  for (int i = 0; i < plan->n_out; i++)
    hl_expr_mark_cols(plan->out_exprs[i], u, n);
  return u;
}

/* An INNER join whose probe side is a table scan: threads can each probe
 * one shared hash table with a share of the table's files. */
static bool parallel_join(const hl_rel_t *r) {
  if (r->kind != HL_REL_JOIN || r->join_type != HL_JOIN_INNER || r->n_keys == 0) return false;
  const hl_rel_t *probe = hl_join_builds_left(r) ? r->right : r->left;
  return probe->kind == HL_REL_SCAN && (!r->residual || !hl_expr_is_stateful(r->residual));
}

/* The operators of an aggregation run by THREADS threads (hl_agg_parallel_ok
 * holds; one thread too, so that the units of work and their merge are the
 * same at every thread count): per thread a scan of its share of the
 * table's units -- joined, for a join, with the hash table of the first
 * thread's join -- and the block's filter, under one
 * hl_op_agg_parallel_create. */
static hl_op_t *build_parallel_agg(hl_session_t *s, const hl_plan_t *plan, int threads,
                                   hl_op_t **owner_out, hl_arena_t *arena, hl_error_t *err) {
  const hl_rel_t *r = plan->from;
  bool join = r->kind == HL_REL_JOIN;
  bool bl = join && hl_join_builds_left(r);
  const hl_rel_t *probe_rel = !join ? r : bl ? r->right : r->left;
  hl_op_t **children = hl_arena_zalloc(arena, sizeof(hl_op_t *) * (size_t)threads);
  hl_op_t **scans = hl_arena_zalloc(arena, sizeof(hl_op_t *) * (size_t)threads);
  const bool *used = join ? from_used(plan, arena) : NULL;
  bool *out_used = join && used ? mark_used(used, r->n_cols, &r->residual, 1, arena) : NULL;
  if (!children || !scans || (join && !out_used)) return hl_err_nomem(err), NULL;
  /* a single table's block filter runs in its scan; over a join, after it */
  const hl_expr_t *scan_f = NULL;
  if (hl_exec_scan_filter(probe_rel->scan, join ? NULL : plan->filter, arena, &scan_f, err) !=
      HL_OK)
    return NULL;
  hl_op_t *owner = NULL; /* the first thread's join, whose table all probe */
  int made = 0;
  for (; made < threads; made++) {
    hl_op_t *sc = hl_op_scan_create(s, s->snap, probe_rel->scan, arena, err);
    if (!sc) break;
    hl_op_scan_set_worker(sc, made, threads);
    hl_op_scan_set_units(sc);
    if (scan_f && hl_op_scan_set_filter(sc, scan_f, err) != HL_OK) {
      sc->close(sc);
      break;
    }
    hl_op_t *top = sc;
    if (join && made == 0) {
      int nl = r->left->n_cols;
      bool *bu = bl ? mark_used(out_used, nl, r->left_keys, r->n_keys, arena)
                    : mark_used(out_used + nl, r->right->n_cols, r->right_keys, r->n_keys, arena);
      hl_op_t *b = bu ? build_rel(s, bl ? r->left : r->right, bu, arena, err) : NULL;
      if (!bu) hl_err_nomem(err);
      if (!b) {
        sc->close(sc);
        break;
      }
      top = owner =
          hl_op_join_create(bl ? b : sc, bl ? sc : b, r, out_used, &s->budget, arena, err);
    } else if (join) {
      top = hl_op_join_create_sharing(sc, r, out_used, owner, &s->budget, arena, err);
    }
    if (top && join && plan->filter) top = hl_op_filter_create(top, plan->filter, arena, err);
    if (!top) break;
    children[made] = top;
    scans[made] = sc;
  }
  if (made < threads) {
    for (int i = made - 1; i >= 0; i--)
      children[i]->close(children[i]);
    return NULL;
  }
  *owner_out = owner;
  return hl_op_agg_parallel_create(plan, children, scans, threads, join ? hl_op_join_build : NULL,
                                   owner, &s->budget, arena, err);
}

/* The operators of PLAN; its scans join s->snap. */
static hl_status_t exec_plan(hl_session_t *s, const hl_plan_t *plan, hl_arena_t *arena,
                             hl_result_t *result, hl_error_t *err) {
  hl_status_t rc = materialize_plan(s, plan, arena, err);
  if (rc != HL_OK) return rc;
  hl_op_t *op;
  bool aggregated = false;
  hl_op_t *ordered = NULL;
  int ordered_key = -1;
  const char *scanned =
      plan->from && plan->from->kind == HL_REL_SCAN ? plan->from->scan->table->cat->location : NULL;
  bool par_agg = plan->aggregate && plan->from && hl_agg_parallel_ok(plan) &&
                 (!plan->filter || !hl_expr_is_stateful(plan->filter));
  /* the scan each thread of a parallel aggregation reads a share of */
  const hl_plan_scan_t *par_scan = NULL;
  if (par_agg && !plan->catalog_answer && plan->from->kind == HL_REL_SCAN)
    par_scan = plan->from->scan;
  else if (par_agg && !plan->catalog_answer && parallel_join(plan->from))
    par_scan = (hl_join_builds_left(plan->from) ? plan->from->right : plan->from->left)->scan;
  int threads = par_scan ? scan_threads_for(s, s->snap, par_scan, scanned, err) : 1;
  if (threads == 0) return err->code;
  /* scan, join probe, filter and aggregation in every thread (also with
   * one: the same units, merged in the same order).  The threads' shared
   * join table cannot spill: when spilling is possible it is built here,
   * and one that passes its share makes the join run alone below, where it
   * spills (the choice depends on the build side's size, not on threads) */
  hl_op_t *par = NULL;
  if (!plan->catalog_answer && par_agg &&
      (plan->from->kind == HL_REL_SCAN || parallel_join(plan->from))) {
    hl_op_t *owner = NULL;
    if (!(par = build_parallel_agg(s, plan, threads, &owner, arena, err))) return err->code;
    if (hl_op_agg_set_spill(par, s->spill, err) != HL_OK) {
      par->close(par);
      return err->code;
    }
    if (owner && s->spill) {
      hl_op_join_set_refuse(owner, hl_spill_share(s->spill));
      if (hl_op_join_build(owner, err) != HL_OK) {
        bool refused = hl_op_join_refused(owner);
        par->close(par);
        par = NULL;
        if (!refused) return err->code;
        hl_err_clear(err);
      }
    }
  }
  if (plan->catalog_answer) {
    /* min / max / count(DISTINCT) of partition keys: no scan */
    op = hl_op_catalog_create(s, s->snap, plan, arena, err);
    if (op && plan->having) op = hl_op_filter_create(op, plan->having, arena, err);
    aggregated = true;
  } else if (par) {
    op = par;
    aggregated = true;
  } else if (plan->from && plan->from->kind == HL_REL_SCAN &&
             (ordered_key = hl_plan_ordered_key(plan)) >= 0) {
    /* ORDER BY <partition key> ... LIMIT: partitions in key order */
    op = ordered = hl_op_ordered_create(s, s->snap, plan->from->scan, plan->filter, ordered_key,
                                        plan->order_desc[0], plan->order_nulls_first[0], build_scan,
                                        arena, err);
  } else if (plan->from && plan->from->kind == HL_REL_SCAN) {
    /* the block filter of a single table runs inside the scan's threads */
    int n = scan_threads_for(s, s->snap, plan->from->scan, scanned, err);
    op = n ? build_scan_n(s, s->snap, plan->from->scan, plan->filter, n, arena, err) : NULL;
    /* scan -> project -> LIMIT: the threads open no file the rows before
     * it already make unneeded (a single thread stops by itself) */
    if (op && plan->has_limit && !plan->aggregate && !plan->n_windows && !plan->n_order && n > 1)
      hl_op_parallel_scan_set_limit(op, (uint64_t)plan->limit + (uint64_t)plan->offset);
  } else {
    op = plan->from ? build_rel(s, plan->from, from_used(plan, arena), arena, err)
                    : hl_op_one_row_create(arena, err);
    if (op && plan->filter) op = hl_op_filter_create(op, plan->filter, arena, err);
  }
  if (op && plan->aggregate && !aggregated) {
    op = hl_op_agg_create(op, plan, &s->budget, arena, err);
    if (op && hl_op_agg_set_spill(op, s->spill, err) != HL_OK) {
      op->close(op);
      return err->code;
    }
  }
  if (op && plan->n_windows) {
    const hl_type_t **in_types =
        hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(plan->n_window_input + 1));
    if (!in_types) {
      op->close(op);
      return hl_err_nomem(err);
    }
    for (int c = 0; c < plan->n_window_input; c++) {
      if (plan->aggregate)
        in_types[c] =
            c < plan->n_group ? plan->group_exprs[c]->type : plan->aggs[c - plan->n_group].type;
      else
        in_types[c] = plan->from->types[c];
    }
    op = hl_op_window_create(op, plan, in_types, &s->budget, arena, err);
  }
  if (op) op = hl_op_project_create(op, plan->out_exprs, plan->n_out, arena, err);
  const hl_type_t **types = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(plan->n_out + 1));
  if (!types) {
    if (op) op->close(op);
    return hl_err_nomem(err);
  }
  for (int i = 0; i < plan->n_out; i++)
    types[i] = plan->out_exprs[i]->type;
  if (op && plan->n_order)
    op = hl_op_sort_create(op, plan->n_out, types, plan->order_cols, plan->order_desc,
                           plan->order_nulls_first, plan->n_order, &s->budget, arena, err);
  if (op && plan->n_order) hl_op_sort_set_spill(op, s->spill);
  if (op && plan->n_order && plan->has_limit && plan->limit <= HL_PLAN_TOP_N_MAX &&
      plan->offset <= HL_PLAN_TOP_N_MAX) {
    hl_op_sort_set_limit(op, (size_t)(plan->limit + plan->offset));
    if (ordered) hl_op_ordered_set_sort(ordered, op);
  }
  if (op && plan->has_limit) op = hl_op_limit_create(op, plan->limit, plan->offset, arena, err);
  if (!op) return err->code;
  result->n_cols = plan->n_visible;
  result->names = plan->out_names;
  result->types = types;
  result->root = op;
  return HL_OK;
}

/* Sorts and joins past their share of the memory limit spill to the
 * spill space of the outermost query (or of a write's SELECT); it goes
 * with ARENA (the statement's).  Sets s->spill when it was NULL and says
 * so in *MADE. */
static hl_status_t ensure_spill(hl_session_t *s, hl_arena_t *arena, bool *made, hl_error_t *err) {
  *made = false;
  if (s->spill) return HL_OK;
  const char *root;
  if (hl_spill_root(s, arena, &root, err) != HL_OK) return err->code;
  if (!(s->spill = hl_spill_create(root, s->budget.limit, arena, err))) return err->code;
  *made = true;
  return HL_OK;
}

hl_status_t hl_exec_plan(hl_session_t *s, const hl_plan_t *plan, hl_arena_t *arena,
                         hl_result_t *result, hl_error_t *err) {
  bool made;
  if (ensure_spill(s, arena, &made, err) != HL_OK) return err->code;
  /* a subquery, a FROM subquery, a SELECT of a write: the statement's */
  if (s->snap) {
    hl_status_t rc = exec_plan(s, plan, arena, result, err);
    if (made) s->spill = NULL;
    return rc;
  }
  /* the outermost query: every scan below reads its snapshot (subqueries
   * run while the operators are built included), held until the root
   * closes */
  hl_snap_t *snap = hl_snap_create(arena, err);
  if (!snap) {
    if (made) s->spill = NULL;
    return err->code;
  }
  s->snap = snap;
  hl_status_t rc = exec_plan(s, plan, arena, result, err);
  s->snap = NULL;
  if (made) s->spill = NULL;
  if (rc != HL_OK) {
    hl_snap_end(snap);
    return rc;
  }
  if (!(result->root = hl_op_snapshot_create(result->root, snap, arena, err))) return err->code;
  return HL_OK;
}
