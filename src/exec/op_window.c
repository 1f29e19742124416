/*
 * op_window.c -- window functions: row_number, rank, dense_rank,
 * percent_rank, cume_dist, ntile, lag, lead, first_value, last_value, and
 * count/sum/$sum0/avg/min/max/histogram_numeric/ngrams/context_ngrams OVER
 * (PARTITION BY ... ORDER BY ... frame), and the paths of a matchpath
 * table function (plan/ptf.c, vector/matchpath.c).
 *
 * The operator reads its whole input, keeping of every row the input
 * columns the query reads above it and the values of every window
 * expression (partition keys, order keys, arguments), evaluated batch by
 * batch with the vectorized evaluator.  A row is an array of slots: an
 * expression that is a plain input column shares that column's slot, and
 * input columns nobody reads are not kept (they come out NULL), so a window
 * over a wide table holds only what it needs.  For
 * each window it sorts row numbers by (partition keys, order keys), walks
 * the partitions, and computes one result per row: ranks from peer groups
 * (rows equal on the order keys), lag/lead by position, aggregates over
 * the frame -- count/sum/avg from prefix sums in O(1) per row, min/max
 * incrementally when the frame starts at UNBOUNDED PRECEDING and by a scan
 * of the frame otherwise; histogram_numeric / ngrams / context_ngrams by
 * aggregating the frame's values in order (op_agg.c's hl_agg_est_*, as
 * Hive evaluates an aggregate that does not stream): once per distinct
 * frame, a running frame adding only its new rows.  Rows come out in input order with the window
 * results appended.
 */
#include "exec/op_agg_int.h"
#include "exec/ops.h"

#include "util/sort.h"
#include "vector/matchpath.h"
#include "util/mem.h"

#include <math.h>
#include <string.h>

typedef struct win_exprs {
  int first; /* first stored expression column of this window */
  int n_part, n_order;
  int arg_col;   /* stored column of the argument, or -1 */
  int deflt_col; /* stored column of the lag/lead default, or -1 */
} win_exprs_t;

typedef struct window {
  hl_op_t op;
  hl_op_t *child;
  const hl_plan_t *plan;
  int n_in;   /* input columns */
  int n_expr; /* window expressions */
  const hl_type_t **expr_types;
  win_exprs_t *we;
  int *in_slot;   /* per input column: its slot in a row, -1 when not kept */
  int *expr_slot; /* per window expression: its slot */
  bool *eval;     /* per window expression: evaluated (not an input column) */
  int n_slots;
  hl_arena_t *arena;    /* rows */
  hl_value_t **rows;    /* n_slots values each */
  hl_value_t **results; /* per window, per row */
  size_t n_rows, cap_rows;
  size_t emitted;
  bool computed;
  hl_batch_t *out;
  const hl_type_t **out_types;
  hl_budget_t *budget;
  uint64_t charged;
} window_t;

/* ------------------------------------------------------------ reading */

static hl_expr_t *expr_at(const hl_window_t *w, int k) {
  if (k < w->n_partition) return w->partition[k];
  k -= w->n_partition;
  if (k < w->n_order) return w->order[k];
  k -= w->n_order;
  if (k == 0 && w->arg) return w->arg;
  return w->deflt;
}

/* Expressions of window W: partition keys, order keys, argument, default. */
static int n_exprs_of(const hl_window_t *w) {
  return w->n_partition + w->n_order + (w->arg ? 1 : 0) + (w->deflt ? 1 : 0);
}

static hl_status_t read_input(window_t *wo, hl_error_t *err) {
  const hl_plan_t *plan = wo->plan;
  hl_arena_t *scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(wo->out->arena));
  hl_vec_t *vecs = hl_arena_alloc(wo->arena, sizeof(hl_vec_t) * (size_t)(wo->n_expr + 1));
  if (!scratch || !vecs) {
    hl_arena_destroy(scratch);
    return hl_err_nomem(err);
  }
  hl_status_t rc = HL_OK;
  for (;;) {
    hl_arena_reset(scratch);
    hl_batch_t *b;
    if ((rc = wo->child->next(wo->child, &b, err)) != HL_OK || !b) break;
    for (int k = 0; k < plan->n_windows && rc == HL_OK; k++) {
      const hl_window_t *w = &plan->windows[k];
      int n = n_exprs_of(w);
      for (int j = 0; j < n && rc == HL_OK; j++)
        if (wo->eval[wo->we[k].first + j])
          rc = hl_expr_eval(expr_at(w, j), b, &vecs[wo->we[k].first + j], scratch, err);
    }
    if (rc == HL_OK)
      rc = hl_budget_track(wo->budget, &wo->charged,
                           hl_arena_used(wo->arena) + wo->cap_rows * sizeof(hl_value_t *),
                           "the window functions", err);
    if (rc != HL_OK) break;
    uint32_t live = hl_batch_live(b);
    for (uint32_t i = 0; i < live && rc == HL_OK; i++) {
      uint32_t r = hl_batch_row(b, i);
      if (wo->n_rows == wo->cap_rows) {
        size_t cap = wo->cap_rows ? wo->cap_rows * 2 : 1024;
        hl_value_t **nr = hl_realloc(wo->rows, sizeof(hl_value_t *) * cap);
        if (!nr) {
          rc = hl_err_nomem(err);
          break;
        }
        wo->rows = nr;
        wo->cap_rows = cap;
      }
      hl_value_t *row = hl_arena_alloc(wo->arena, sizeof(hl_value_t) * (size_t)wo->n_slots);
      if (!row) {
        rc = hl_err_nomem(err);
        break;
      }
      for (int c = 0; c < wo->n_in && rc == HL_OK; c++) {
        if (wo->in_slot[c] < 0) continue;
        hl_value_t v;
        hl_vec_get_value(&b->cols[c], r, &v);
        rc = hl_value_copy_deep(wo->arena, b->cols[c].type, &v, &row[wo->in_slot[c]]);
      }
      for (int c = 0; c < wo->n_expr && rc == HL_OK; c++) {
        if (!wo->eval[c]) continue;
        hl_value_t v;
        hl_vec_get_value(&vecs[c], r, &v);
        rc = hl_value_copy_deep(wo->arena, wo->expr_types[c], &v, &row[wo->expr_slot[c]]);
      }
      if (rc != HL_OK) {
        if (rc == HL_NOMEM) hl_err_nomem(err);
        break;
      }
      wo->rows[wo->n_rows++] = row;
    }
  }
  hl_arena_destroy(scratch);
  return rc;
}

/* ------------------------------------------------------------ sorting */

typedef struct sort_ctx {
  window_t *wo;
  const hl_window_t *w;
  const win_exprs_t *we;
  const uint64_t *pfx; /* per row: sort prefix of the first order key (NULL: none) */
} sort_ctx_t;

/* Partition keys only (for partition boundaries). */
static int cmp_partition(const sort_ctx_t *c, size_t x, size_t y) {
  const hl_value_t *a = c->wo->rows[x], *b = c->wo->rows[y];
  const int *slot = c->wo->expr_slot + c->we->first;
  for (int k = 0; k < c->we->n_part; k++) {
    int r = hl_value_sort_compare(c->wo->expr_types[c->we->first + k], &a[slot[k]], &b[slot[k]],
                                  false, true);
    if (r) return r;
  }
  return 0;
}

static int cmp_order(const sort_ctx_t *c, size_t x, size_t y) {
  int base = c->we->first + c->we->n_part;
  const hl_value_t *a = c->wo->rows[x], *b = c->wo->rows[y];
  const int *slot = c->wo->expr_slot + base;
  for (int k = 0; k < c->we->n_order; k++) {
    int r = hl_value_sort_compare(c->wo->expr_types[base + k], &a[slot[k]], &b[slot[k]],
                                  c->w->order_desc[k], c->w->order_nulls_first[k]);
    if (r) return r;
  }
  return 0;
}

/* Order keys, the prefixes first: most comparisons end in the compact
 * prefix array without touching the rows. */
static int cmp_order_pfx(const sort_ctx_t *c, size_t x, size_t y) {
  if (c->pfx && c->pfx[x] != c->pfx[y]) return c->pfx[x] < c->pfx[y] ? -1 : 1;
  return cmp_order(c, x, y);
}

static int cmp_rows(const void *ctx, size_t x, size_t y) {
  int r = cmp_partition(ctx, x, y);
  return r ? r : cmp_order_pfx(ctx, x, y);
}

static int cmp_in_partition(const void *ctx, size_t x, size_t y) {
  return cmp_order_pfx(ctx, x, y);
}

/* ----------------------------------------------------------- computing */

static hl_value_t null_value(void) {
  hl_value_t v;
  memset(&v, 0, sizeof v);
  v.is_null = true;
  return v;
}

/* Frame [*fs, *fe] (inclusive, positions within the partition of N rows)
 * of position I, whose peer group is [ps, pe]; *fs > *fe means empty. */
static void frame_of(const hl_window_t *w, int64_t i, int64_t n, int64_t ps, int64_t pe,
                     int64_t *fs, int64_t *fe) {
  switch (w->start_kind) {
  case HL_FRAME_UNBOUNDED_PRECEDING:
    *fs = 0;
    break;
  case HL_FRAME_PRECEDING:
    *fs = i - w->start_offset;
    break;
  case HL_FRAME_CURRENT_ROW:
    *fs = w->frame_rows ? i : ps;
    break;
  case HL_FRAME_FOLLOWING:
    *fs = i + w->start_offset;
    break;
  default:
    *fs = n;
    break;
  }
  switch (w->end_kind) {
  case HL_FRAME_UNBOUNDED_FOLLOWING:
    *fe = n - 1;
    break;
  case HL_FRAME_FOLLOWING:
    *fe = i + w->end_offset;
    break;
  case HL_FRAME_CURRENT_ROW:
    *fe = w->frame_rows ? i : pe;
    break;
  case HL_FRAME_PRECEDING:
    *fe = i - w->end_offset;
    break;
  default:
    *fe = -1;
    break;
  }
  if (*fs < 0) *fs = 0;
  if (*fe > n - 1) *fe = n - 1;
}

/* matchpath (plan/ptf.c): at every row of the partition, in order, Hive's
 * pattern match over the symbols' values (the ARRAY<BOOLEAN> argument; a
 * NULL symbol is no match, where Hive's unboxing fails); the result is the
 * path's rows (the STRUCT values of the default slot, shared, not copied),
 * NULL without a match.  Paths of overlapping matches share no storage
 * but their items, so a partition where every row starts a long path costs
 * its sum of lengths: the budget is charged as they are made. */
/* What the operator holds: rows, results, paths (as read_input counts). */
static size_t window_bytes(const window_t *wo) {
  return hl_arena_used(wo->arena) + wo->cap_rows * sizeof(hl_value_t *);
}

typedef struct mp_ctx {
  const window_t *wo;
  const size_t *idx;
  int col;
} mp_ctx_t;

static bool mp_symbol(void *ctx, int symbol, size_t row) {
  const mp_ctx_t *c = ctx;
  const hl_value_t *v = &c->wo->rows[c->idx[row]][c->col];
  if (v->is_null || (uint32_t)symbol >= v->u.list.n) return false;
  const hl_value_t *e = &v->u.list.items[symbol];
  return !e->is_null && e->u.b;
}

static hl_status_t matchpath_partition(window_t *wo, int k, const size_t *idx, int64_t n,
                                       int arg_col, int def_col, hl_error_t *err) {
  const hl_window_t *w = &wo->plan->windows[k];
  hl_value_t *res = wo->results[k];
  mp_ctx_t c = {wo, idx, arg_col};
  for (int64_t i = 0; i < n; i++) {
    hl_value_t *out = &res[idx[i]];
    *out = null_value();
    size_t len;
    if (!hl_mp_match(w->mp, (size_t)n, (size_t)i, mp_symbol, &c, &len)) continue;
    if (len > UINT32_MAX)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "a matchpath path of %zu rows is too long", len);
    hl_value_t *items = hl_arena_alloc(wo->arena, sizeof(hl_value_t) * len);
    if (!items) return hl_err_nomem(err);
    for (size_t j = 0; j < len; j++)
      items[j] = wo->rows[idx[(size_t)i + j]][def_col];
    out->is_null = false;
    out->u.list.n = (uint32_t)len;
    out->u.list.items = items;
    if ((i & 255) == 0) {
      hl_status_t rc =
          hl_budget_track(wo->budget, &wo->charged, window_bytes(wo), "the matchpath paths", err);
      if (rc == HL_OK) rc = hl_budget_check_cancel(wo->budget, err);
      if (rc != HL_OK) return rc;
    }
  }
  return hl_budget_track(wo->budget, &wo->charged, window_bytes(wo), "the matchpath paths", err);
}

static hl_status_t compute_partition(window_t *wo, int k, const size_t *idx, int64_t n,
                                     const sort_ctx_t *c, hl_error_t *err) {
  const hl_window_t *w = &wo->plan->windows[k];
  hl_value_t *res = wo->results[k];
  int arg_col = wo->we[k].arg_col >= 0 ? wo->expr_slot[wo->we[k].arg_col] : -1;
  int def_col = wo->we[k].deflt_col >= 0 ? wo->expr_slot[wo->we[k].deflt_col] : -1;
  /* peer groups */
  int64_t *peer_start = hl_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  int64_t *peer_end = hl_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  int64_t *cnt = NULL;
  double *dsum = NULL;
  __int128 *xsum = NULL;
  /* histogram_numeric / ngrams: a frame's state, and a result's memory */
  hl_arena_t *est_scratch = NULL, *est_tmp = NULL;
  hl_agg_est_t est;
  hl_agg_est_init(&est, NULL);
  hl_status_t rc = HL_OK;
  if (!peer_start || !peer_end) {
    rc = hl_err_nomem(err);
    goto done;
  }
  for (int64_t i = 0; i < n; i++) {
    if (i > 0 && (wo->we[k].n_order == 0 || cmp_order_pfx(c, idx[i - 1], idx[i]) == 0))
      peer_start[i] = peer_start[i - 1];
    else
      peer_start[i] = i;
  }
  for (int64_t i = n - 1; i >= 0; i--)
    peer_end[i] = (i < n - 1 && peer_start[i + 1] == peer_start[i]) ? peer_end[i + 1] : i;

  if (w->kind == HL_WIN_MATCHPATH) {
    rc = matchpath_partition(wo, k, idx, n, arg_col, def_col, err);
    goto done;
  }
  const hl_type_t *at = w->arg ? w->arg->type : NULL;
  if (w->kind == HL_WIN_AGG && (w->agg == HL_AGG_COUNT_STAR || w->agg == HL_AGG_COUNT ||
                                w->agg == HL_AGG_SUM || w->agg == HL_AGG_AVG)) {
    /* prefix sums: cnt[i] values (non-null) among the first i rows */
    cnt = hl_calloc((size_t)n + 1, sizeof(int64_t));
    dsum = hl_calloc((size_t)n + 1, sizeof(double));
    xsum = hl_calloc((size_t)n + 1, sizeof(__int128));
    if (!cnt || !dsum || !xsum) {
      rc = hl_err_nomem(err);
      goto done;
    }
    for (int64_t i = 0; i < n; i++) {
      const hl_value_t *v = arg_col >= 0 ? &wo->rows[idx[i]][arg_col] : NULL;
      bool present = w->agg == HL_AGG_COUNT_STAR || (v && !v->is_null);
      cnt[i + 1] = cnt[i] + present;
      dsum[i + 1] = dsum[i];
      xsum[i + 1] = xsum[i];
      if (present && v && at) {
        switch (hl_type_phys(at)) {
        case HL_P_I64:
          xsum[i + 1] += v->u.i;
          break;
        case HL_P_F64:
          dsum[i + 1] += v->u.d;
          break;
        case HL_P_I128:
          xsum[i + 1] += v->u.dec;
          break;
        default:
          break;
        }
      }
    }
  }
  /* histogram_numeric / ngrams over frames: the last frame and its result */
  int64_t est_fs = 0, est_fe = -1;
  bool est_valid = false;
  hl_value_t est_last = null_value();
  if (w->est &&
      (!(est_scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(wo->out->arena))) ||
       !(est_tmp = hl_arena_create_charged(64 * 1024, hl_arena_account(wo->out->arena))))) {
    rc = hl_err_nomem(err);
    goto done;
  }
  hl_value_t run;
  bool run_has = false;
  int64_t run_end = -1;
  const hl_value_t none = null_value();
  for (int64_t i = 0; i < n; i++) {
    size_t row = idx[i];
    hl_value_t *out = &res[row];
    *out = none;
    switch (w->kind) {
    case HL_WIN_MATCHPATH: /* matchpath_partition's */
      break;
    case HL_WIN_ROW_NUMBER:
      out->is_null = false;
      out->u.i = i + 1;
      break;
    case HL_WIN_RANK:
      out->is_null = false;
      out->u.i = peer_start[i] + 1;
      break;
    case HL_WIN_DENSE_RANK: {
      int64_t rank = 1;
      if (i > 0) rank = res[idx[i - 1]].u.i + (peer_start[i] == i ? 1 : 0);
      out->is_null = false;
      out->u.i = rank;
      break;
    }
    case HL_WIN_PERCENT_RANK:
      out->is_null = false;
      out->u.d = n > 1 ? (double)peer_start[i] / (double)(n - 1) : 0.0;
      break;
    case HL_WIN_CUME_DIST:
      out->is_null = false;
      out->u.d = (double)(peer_end[i] + 1) / (double)n;
      break;
    case HL_WIN_NTILE: {
      /* the first n % buckets buckets get one extra row */
      int64_t buckets = w->offset, size = n / buckets, extra = n % buckets;
      int64_t big = extra * (size + 1);
      out->is_null = false;
      out->u.i = i < big ? i / (size + 1) + 1 : extra + (size ? (i - big) / size : 0) + 1;
      break;
    }
    case HL_WIN_LAG:
    case HL_WIN_LEAD: {
      int64_t j = w->kind == HL_WIN_LAG ? i - w->offset : i + w->offset;
      if (j >= 0 && j < n)
        *out = wo->rows[idx[j]][arg_col];
      else if (def_col >= 0)
        *out = wo->rows[row][def_col];
      break;
    }
    case HL_WIN_FIRST_VALUE:
    case HL_WIN_LAST_VALUE: {
      int64_t fs, fe;
      frame_of(w, i, n, peer_start[i], peer_end[i], &fs, &fe);
      if (fs <= fe) *out = wo->rows[idx[w->kind == HL_WIN_FIRST_VALUE ? fs : fe]][arg_col];
      break;
    }
    case HL_WIN_AGG: {
      int64_t fs, fe;
      frame_of(w, i, n, peer_start[i], peer_end[i], &fs, &fe);
      if (w->est) {
        /* the aggregate over the frame's values in order, as Hive evaluates
         * one that does not stream: a frame equal to the previous row's
         * reuses its result, one that only grows at its end (a running
         * frame) adds its new rows to the state, any other starts afresh */
        if (fe < fs) fs = fe + 1; /* every empty frame alike */
        if (!est_valid || fs != est_fs || fe != est_fe) {
          if ((rc = hl_budget_check_cancel(wo->budget, err)) != HL_OK) goto done;
          int64_t from = fs;
          if (est_valid && fs == est_fs && fe > est_fe) {
            from = est_fe + 1;
          } else {
            hl_arena_reset(est_scratch);
            hl_agg_est_fini(&est);
            hl_agg_est_init(&est, est_scratch);
          }
          for (int64_t j = from; j <= fe && rc == HL_OK; j++)
            rc = hl_agg_est_add(&est, w->est, &wo->rows[idx[j]][arg_col], err);
          if (rc == HL_OK) rc = hl_agg_est_result(&est, w->est, est_tmp, wo->arena, &est_last, err);
          hl_arena_reset(est_tmp);
          if (rc == HL_OK)
            rc = hl_budget_track(wo->budget, &wo->charged,
                                 hl_arena_used(wo->arena) + hl_arena_used(est_scratch) +
                                     wo->cap_rows * sizeof(hl_value_t *),
                                 "the window functions", err);
          if (rc != HL_OK) goto done;
          est_valid = true;
          est_fs = fs;
          est_fe = fe;
        }
        *out = est_last;
        break;
      }
      if (w->agg == HL_AGG_MIN || w->agg == HL_AGG_MAX) {
        int sign = w->agg == HL_AGG_MIN ? -1 : 1;
        if (w->start_kind == HL_FRAME_UNBOUNDED_PRECEDING) {
          /* frame ends never move backwards: extend a running extreme */
          for (int64_t j = run_end + 1; j <= fe; j++) {
            const hl_value_t *v = &wo->rows[idx[j]][arg_col];
            if (v->is_null) continue;
            if (!run_has || hl_value_compare(at, v, &run) * sign > 0) run = *v;
            run_has = true;
          }
          if (fe > run_end) run_end = fe;
          if (run_has) *out = run;
        } else {
          bool has = false;
          hl_value_t best = null_value();
          for (int64_t j = fs; j <= fe; j++) {
            const hl_value_t *v = &wo->rows[idx[j]][arg_col];
            if (v->is_null) continue;
            if (!has || hl_value_compare(at, v, &best) * sign > 0) best = *v;
            has = true;
          }
          if (has) *out = best;
        }
        break;
      }
      int64_t count = fs <= fe ? cnt[fe + 1] - cnt[fs] : 0;
      if (w->agg == HL_AGG_COUNT_STAR || w->agg == HL_AGG_COUNT) {
        out->is_null = false;
        out->u.i = count;
        break;
      }
      if (count == 0) {
        if (w->empty_zero) { /* $sum0: 0 of the result type (the union's widest member) */
          out->is_null = false;
          out->u.dec = 0;
        }
        break;
      }
      out->is_null = false;
      hl_phys_t p = hl_type_phys(at);
      double ds = dsum[fe + 1] - dsum[fs];
      __int128 xs = xsum[fe + 1] - xsum[fs];
      if (w->agg == HL_AGG_SUM) {
        if (p == HL_P_F64)
          out->u.d = ds;
        else if (p == HL_P_I64)
          out->u.i = (int64_t)xs;
        else
          out->u.dec = xs;
      } else if (w->type->id == HL_T_DECIMAL) {
        int from = at->scale, to = w->type->scale;
        __int128 num = xs;
        for (int s = from; s < to; s++)
          num *= 10;
        __int128 q = num / count, r = num % count;
        if (r < 0) r = -r;
        if (r * 2 >= count) q += num < 0 ? -1 : 1;
        out->u.dec = q;
      } else {
        out->u.d = (p == HL_P_F64 ? ds : (double)xs) / (double)count;
      }
      break;
    }
    }
  }
done:
  hl_free(peer_start);
  hl_free(peer_end);
  hl_free(cnt);
  hl_free(dsum);
  hl_free(xsum);
  hl_agg_est_fini(&est);
  hl_arena_destroy(est_scratch);
  hl_arena_destroy(est_tmp);
  return rc;
}

/* Whether the rows come grouped by window C's partition keys: the keys
 * never rise and fall both (a scan in partition order gives this). */
static bool input_grouped(const sort_ctx_t *c, size_t n) {
  int dir = 0;
  for (size_t i = 1; i < n; i++) {
    int r = cmp_partition(c, i - 1, i);
    if (!r) continue;
    r = r < 0 ? -1 : 1;
    if (dir && r != dir) return false;
    dir = r;
  }
  return true;
}

/* Sorts the rows of each partition of every window (by partition and order
 * keys) and computes the partitions.  Input already grouped by the
 * partition keys is sorted one group at a time, the keys not compared. */
static hl_status_t compute(window_t *wo, hl_error_t *err) {
  size_t n = wo->n_rows;
  size_t *idx = hl_malloc(sizeof(size_t) * (n ? n : 1));
  size_t *tmp = hl_malloc(sizeof(size_t) * (n ? n : 1));
  uint64_t *pfx = hl_malloc(sizeof(uint64_t) * (n ? n : 1));
  hl_status_t rc = HL_OK;
  if (!idx || !tmp || !pfx) rc = hl_err_nomem(err);
  for (int k = 0; k < wo->plan->n_windows && rc == HL_OK; k++) {
    const hl_window_t *w = &wo->plan->windows[k];
    sort_ctx_t c = {wo, w, &wo->we[k], NULL};
    int o0 = wo->we[k].first + wo->we[k].n_part; /* the first order key */
    if (wo->we[k].n_order > 0 && hl_value_has_sort_prefix(wo->expr_types[o0])) {
      for (size_t i = 0; i < n; i++)
        pfx[i] = hl_value_sort_prefix(wo->expr_types[o0], &wo->rows[i][wo->expr_slot[o0]],
                                      w->order_desc[0], w->order_nulls_first[0]);
      c.pfx = pfx;
    }
    for (size_t i = 0; i < n; i++)
      idx[i] = i;
    bool grouped = input_grouped(&c, n);
    if (!grouped) hl_sort_indexes(idx, tmp, n, cmp_rows, &c);
    for (size_t start = 0; start < n && rc == HL_OK;) {
      size_t end = start + 1;
      while (end < n && cmp_partition(&c, idx[end - 1], idx[end]) == 0)
        end++;
      if (grouped) hl_sort_indexes(idx + start, tmp, end - start, cmp_in_partition, &c);
      rc = compute_partition(wo, k, idx + start, (int64_t)(end - start), &c, err);
      start = end;
    }
  }
  hl_free(idx);
  hl_free(tmp);
  hl_free(pfx);
  return rc;
}

/* ------------------------------------------------------------ operator */

static hl_status_t window_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  window_t *wo = (window_t *)op;
  *out = NULL;
  if (!wo->computed) {
    wo->computed = true;
    hl_status_t rc = read_input(wo, err);
    if (rc != HL_OK) return rc;
    wo->results =
        hl_arena_zalloc(wo->arena, sizeof(hl_value_t *) * (size_t)(wo->plan->n_windows + 1));
    if (!wo->results) return hl_err_nomem(err);
    for (int k = 0; k < wo->plan->n_windows; k++)
      if (!(wo->results[k] =
                hl_arena_alloc(wo->arena, sizeof(hl_value_t) * (wo->n_rows ? wo->n_rows : 1))))
        return hl_err_nomem(err);
    if ((rc = compute(wo, err)) != HL_OK) return rc;
  }
  if (wo->emitted >= wo->n_rows) return HL_OK;
  if (hl_batch_reset(wo->out) != HL_OK) return hl_err_nomem(err);
  size_t n = wo->n_rows - wo->emitted;
  if (n > HL_BATCH_CAP) n = HL_BATCH_CAP;
  /* made once: a struct built per value stalls on its own byte store */
  const hl_value_t none = null_value();
  for (size_t i = 0; i < n; i++) {
    size_t r = wo->emitted + i;
    for (int c = 0; c < wo->n_in; c++) {
      const hl_value_t *v = wo->in_slot[c] >= 0 ? &wo->rows[r][wo->in_slot[c]] : &none;
      if (hl_vec_put_value(&wo->out->cols[c], wo->out->arena, (uint32_t)i, v) != HL_OK)
        return hl_err_nomem(err);
    }
    for (int k = 0; k < wo->plan->n_windows; k++)
      if (hl_vec_put_value(&wo->out->cols[wo->n_in + k], wo->out->arena, (uint32_t)i,
                           &wo->results[k][r]) != HL_OK)
        return hl_err_nomem(err);
  }
  wo->out->n_rows = (uint32_t)n;
  wo->emitted += n;
  *out = wo->out;
  return HL_OK;
}

static void window_close(hl_op_t *op) {
  window_t *wo = (window_t *)op;
  hl_budget_release(wo->budget, wo->charged);
  wo->charged = 0;
  if (wo->child) wo->child->close(wo->child);
  wo->child = NULL;
  hl_free(wo->rows);
  wo->rows = NULL;
  hl_batch_destroy(wo->out);
  wo->out = NULL;
  hl_arena_destroy(wo->arena);
  wo->arena = NULL;
}

/* Slots: the input columns the output expressions read, then each window
 * expression that is not simply an input column (those share its slot). */
static hl_status_t assign_slots(window_t *wo, hl_arena_t *arena) {
  const hl_plan_t *plan = wo->plan;
  bool *used = hl_arena_zalloc(arena, sizeof(bool) * (size_t)(wo->n_in + 1));
  wo->in_slot = hl_arena_alloc(arena, sizeof(int) * (size_t)(wo->n_in + 1));
  wo->expr_slot = hl_arena_alloc(arena, sizeof(int) * (size_t)(wo->n_expr + 1));
  wo->eval = hl_arena_zalloc(arena, sizeof(bool) * (size_t)(wo->n_expr + 1));
  if (!used || !wo->in_slot || !wo->expr_slot || !wo->eval) return HL_NOMEM;
  for (int i = 0; i < plan->n_out; i++)
    hl_expr_mark_cols(plan->out_exprs[i], used, wo->n_in);
  for (int k = 0; k < plan->n_windows; k++) {
    const hl_window_t *w = &plan->windows[k];
    int n = n_exprs_of(w);
    for (int j = 0; j < n; j++) {
      const hl_expr_t *e = expr_at(w, j);
      if (e->kind == HL_EX_COLUMN && e->col < wo->n_in)
        used[e->col] = true;
      else
        wo->eval[wo->we[k].first + j] = true;
    }
  }
  int n_slots = 0;
  for (int c = 0; c < wo->n_in; c++)
    wo->in_slot[c] = used[c] ? n_slots++ : -1;
  for (int k = 0; k < plan->n_windows; k++) {
    const hl_window_t *w = &plan->windows[k];
    int n = n_exprs_of(w);
    for (int j = 0; j < n; j++) {
      int x = wo->we[k].first + j;
      wo->expr_slot[x] = wo->eval[x] ? n_slots++ : wo->in_slot[expr_at(w, j)->col];
    }
  }
  wo->n_slots = n_slots;
  return HL_OK;
}

hl_op_t *hl_op_window_create(hl_op_t *child, const hl_plan_t *plan,
                             const hl_type_t *const *in_types, hl_budget_t *budget,
                             hl_arena_t *arena, hl_error_t *err) {
  window_t *wo = hl_arena_zalloc(arena, sizeof(*wo));
  if (!wo) {
    child->close(child);
    return hl_err_nomem(err), NULL;
  }
  wo->op.next = window_next;
  wo->op.close = window_close;
  wo->budget = budget;
  wo->child = child;
  wo->plan = plan;
  wo->n_in = plan->n_window_input;
  wo->we = hl_arena_zalloc(arena, sizeof(win_exprs_t) * (size_t)(plan->n_windows + 1));
  int n_expr = 0;
  for (int k = 0; wo->we && k < plan->n_windows; k++) {
    const hl_window_t *w = &plan->windows[k];
    wo->we[k].first = n_expr;
    wo->we[k].n_part = w->n_partition;
    wo->we[k].n_order = w->n_order;
    n_expr += w->n_partition + w->n_order;
    wo->we[k].arg_col = w->arg ? n_expr++ : -1;
    wo->we[k].deflt_col = w->deflt ? n_expr++ : -1;
  }
  wo->n_expr = n_expr;
  wo->expr_types = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(n_expr + 1));
  wo->out_types =
      hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)(wo->n_in + plan->n_windows + 1));
  if (wo->expr_types)
    for (int k = 0; k < plan->n_windows; k++) {
      const hl_window_t *w = &plan->windows[k];
      int n = n_exprs_of(w);
      for (int j = 0; j < n; j++)
        wo->expr_types[wo->we[k].first + j] = expr_at(w, j)->type;
    }
  if (wo->we && assign_slots(wo, arena) != HL_OK) {
    window_close(&wo->op);
    return hl_err_nomem(err), NULL;
  }
  if (wo->out_types) {
    for (int c = 0; c < wo->n_in; c++)
      wo->out_types[c] = in_types[c];
    for (int k = 0; k < plan->n_windows; k++)
      wo->out_types[wo->n_in + k] = plan->windows[k].type;
  }
  wo->arena = hl_arena_create(0);
  wo->out = wo->out_types ? hl_batch_create_charged(wo->n_in + plan->n_windows, wo->out_types,
                                                    hl_arena_account(arena))
                          : NULL;
  if (!wo->we || !wo->expr_types || !wo->arena || !wo->out) {
    window_close(&wo->op);
    return hl_err_nomem(err), NULL;
  }
  return &wo->op;
}
