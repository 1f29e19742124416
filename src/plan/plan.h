/*
 * plan.h -- the bound plan of a SELECT.
 *
 * The binder (bind.c) resolves names against the catalog, types every
 * expression, splits the WHERE clause into partition predicates (evaluated
 * against the catalog's typed partition values at plan time: pruning) and
 * a residual filter, and records which columns the scan must decode.  The
 * plan is immutable; exec/query.c builds operators from it and explain.c
 * prints it.
 *
 * Column layouts: the scan produces the table's data columns followed by
 * its partition keys ("scan layout").  An aggregation produces its group
 * expressions followed by its aggregates ("aggregate layout").  Output
 * expressions are over the aggregate layout when the query aggregates,
 * else over the scan layout.
 */
#ifndef HL_PLAN_H
#define HL_PLAN_H

#include "vector/expr.h"
#include "format/parquet/parquet.h"
#include "session/session.h"
#include "plan/table.h"
#include "sql/ast.h"
#include "util/partorder.h"

typedef enum hl_agg_kind {
  HL_AGG_COUNT_STAR,
  HL_AGG_COUNT,
  HL_AGG_SUM,
  HL_AGG_MIN,
  HL_AGG_MAX,
  HL_AGG_AVG,
  HL_AGG_VAR_POP,
  HL_AGG_VAR_SAMP,
  HL_AGG_STDDEV_POP,
  HL_AGG_STDDEV_SAMP,
  HL_AGG_COLLECT_LIST,
  HL_AGG_COLLECT_SET,
  HL_AGG_PERCENTILE,      /* percentile / percentile_approx(x, p): param = p */
  HL_AGG_APPROX_DISTINCT, /* approx_count_distinct(x) */
  HL_AGG_BITVECTOR_HLL,   /* compute_bit_vector_hll(x): Hive's HyperLogLog bytes */
  HL_AGG_BITVECTOR_FM,    /* compute_bit_vector_fm(x, n): Hive's FMSketch bytes, param = n */
  /* compute_stats(x, 'hll'|'fm' [, n]) (exec/op_agg_cstats.c): Hive's
   * column statistics struct; ip[0] = 1 for 'fm' (param = n), arg2 the
   * value the sketch adds when it is not arg itself (DECIMAL as DOUBLE) */
  HL_AGG_COMPUTE_STATS,
  /* Hive 4's percentile_cont / percentile_disc (x, p [, direction]):
   * param / params as HL_AGG_PERCENTILE, desc for the descending order */
  HL_AGG_PERCENTILE_CONT,
  HL_AGG_PERCENTILE_DISC,
  /* histogram_numeric(x, nb): Ben-Haim and Tom-Tov's streaming histogram
   * (exec/op_agg_hist.c); ip[0] = nb */
  HL_AGG_HISTOGRAM,
  /* ngrams(seqs, n, k [, pf]) and context_ngrams(seqs, context, k [, pf])
   * (exec/op_agg_ngrams.c): ip = n, k, pf (0: not given); context in ctx */
  HL_AGG_NGRAMS,
  HL_AGG_CONTEXT_NGRAMS,
  /* grouping(c, ...) and GROUPING__ID (every GROUP BY column): bit j of
   * the n-column result, from the top, is 1 when group_idx[j] is not in
   * the row's grouping set */
  HL_AGG_GROUPING,
  /* bloom_filter(x, expectedEntries) (exec/op_agg_bloom.c): Hive's
   * BloomKFilter bytes; ip[0] = k, ip[1] = the number of longs */
  HL_AGG_BLOOM_FILTER,
  /* Hive 4's approx_distinct(x) (exec/op_agg_approx.c): the count of
   * Hive's HyperLogLog with p = 12 */
  HL_AGG_HIVE_APPROX_DISTINCT,
  /* ds_kll_sketch(x [, k]) / ds_kll_union(sketch [, k]) (exec/op_agg_ds_kll.c):
   * the KLL floats sketch's bytes; ip[0] = k */
  HL_AGG_DS_KLL_SKETCH,
  HL_AGG_DS_KLL_UNION,
  /* Hive 4's ds_theta_sketch(x [, k [, p [, seed]]]), ds_theta_union(sketch
   * [, k [, seed]]), ds_theta_intersect(sketch [, seed])
   * (exec/op_agg_ds_theta.c): the DataSketches Theta sketch bytes; ip[0] =
   * k, param = p, lparam = seed (the constants, checked at the first value
   * as Hive does) */
  HL_AGG_DS_THETA_SKETCH,
  HL_AGG_DS_THETA_UNION,
  HL_AGG_DS_THETA_INTERSECT,
  /* Hive 4's ds_hll_sketch(x [, lgK [, type]]) and ds_hll_union(sketch
   * [, lgK [, type]]) (exec/op_agg_ds_hll.c): DataSketches HLL bytes;
   * ip[0] = lgK, ip[1] = the target type (util/ds_hll.h) */
  HL_AGG_DS_HLL_SKETCH,
  HL_AGG_DS_HLL_UNION,
  /* ds_quantile_doubles_sketch(x [, k]) and ds_quantile_doubles_union(
   * sketch [, k]) (exec/op_agg_ds_quantiles.c): DataSketches' DoublesUnion;
   * ip[0] = k (0: the default 128), ip[1] = 1 for the union */
  HL_AGG_DS_QUANTILES,
  /* the two-argument statistics over the pairs where neither is NULL:
   * arg is Hive's first argument, arg2 its second */
  HL_AGG_CORR,
  HL_AGG_COVAR_POP,
  HL_AGG_COVAR_SAMP,
  HL_AGG_REGR_SXX,
  HL_AGG_REGR_SYY,
  HL_AGG_REGR_SXY,
  HL_AGG_REGR_SLOPE,
  HL_AGG_REGR_INTERCEPT,
  HL_AGG_REGR_R2
} hl_agg_kind_t;

typedef struct hl_agg {
  hl_agg_kind_t kind;
  bool distinct;
  hl_expr_t *arg; /* over the scan layout; NULL for count(*) */
  /* the second argument of the pair statistics; also of regr_count,
   * regr_avgx and regr_avgy, bound as count/avg of one argument that skip
   * the rows where arg2 is NULL */
  hl_expr_t *arg2;
  const hl_type_t *type; /* result type */
  const char *name;      /* for EXPLAIN */
  double param;          /* HL_AGG_PERCENTILE: the percentile in [0, 1] */
  /* HL_AGG_PERCENTILE with an array of percentiles (the result an
   * ARRAY<DOUBLE>): params[n_params] */
  const double *params;
  int n_params;
  bool desc;       /* HL_AGG_PERCENTILE_CONT/DISC: WITHIN GROUP (ORDER BY x DESC) */
  bool empty_zero; /* HL_AGG_SUM as Hive's $sum0: 0 instead of NULL over no values */
  /* HL_AGG_HISTOGRAM / HL_AGG_NGRAMS / HL_AGG_CONTEXT_NGRAMS: the constant
   * parameters, checked when the first value comes as Hive does (an empty
   * input has no error); params_null: one is NULL, so Hive skips every row */
  int32_t ip[3];
  int64_t lparam; /* the ds_* aggregates: the hash seed */
  bool params_null;
  hl_value_t ctx; /* HL_AGG_CONTEXT_NGRAMS: the ARRAY<STRING> context (NULL = blank) */
  /* HL_AGG_GROUPING: the GROUP BY expressions it reports, in its order */
  const int *group_idx;
  int n_group_idx;
} hl_agg_t;

typedef enum hl_win_kind {
  HL_WIN_ROW_NUMBER,
  HL_WIN_RANK,
  HL_WIN_DENSE_RANK,
  HL_WIN_PERCENT_RANK,
  HL_WIN_CUME_DIST,
  HL_WIN_NTILE,
  HL_WIN_LAG,
  HL_WIN_LEAD,
  HL_WIN_FIRST_VALUE,
  HL_WIN_LAST_VALUE,
  HL_WIN_AGG,      /* an aggregate OVER (...): agg */
  HL_WIN_MATCHPATH /* a matchpath table function's path (plan/ptf.c): arg is
                      the ARRAY<BOOLEAN> of the symbols, deflt the row as a
                      STRUCT; the result the path's rows, NULL without a match */
} hl_win_kind_t;

/* One window function.  Its expressions are over the window input layout
 * (the aggregate layout when the query aggregates, else the FROM layout);
 * its result is column n_window_input + its index in the window operator's
 * output. */
typedef struct hl_window {
  hl_win_kind_t kind;
  int agg;         /* hl_agg_kind_t for HL_WIN_AGG */
  bool empty_zero; /* HL_WIN_AGG sum as $sum0: 0 over a frame without values */
  /* HL_WIN_AGG of histogram_numeric, ngrams, context_ngrams: the aggregate
   * (its parameters), computed over each frame by exec/op_agg.c */
  const hl_agg_t *est;
  hl_expr_t *arg;   /* value argument, or NULL */
  hl_expr_t *deflt; /* lag/lead default, cast to the result type, or NULL */
  int64_t offset;   /* lag/lead offset, ntile buckets */
  hl_expr_t **partition;
  int n_partition;
  hl_expr_t **order;
  bool *order_desc;
  bool *order_nulls_first;
  int n_order;
  bool frame_rows;          /* ROWS frame (else RANGE) */
  int start_kind, end_kind; /* hl_ast_frame_kind_t */
  int64_t start_offset, end_offset;
  const hl_type_t *type;          /* result type */
  const char *name;               /* function name, for EXPLAIN */
  const struct hl_mp_pattern *mp; /* HL_WIN_MATCHPATH: the pattern */
} hl_window_t;

/* What a scan did, filled by the scan operators (EXPLAIN ANALYZE). */
/* hl_plan_scan_t.n_parts_total of a pinned listing (the table's total was
 * not needed to plan it). */
#define HL_PLAN_TOTAL_UNKNOWN ((size_t)-1)

typedef struct hl_scan_actual {
  uint64_t partitions;       /* partitions (or the table directory) with files */
  uint64_t files;            /* files opened */
  uint64_t rows;             /* rows decoded */
  uint64_t row_groups_total; /* Parquet row groups in the files opened */
  uint64_t row_groups_read;  /* ... not skipped by statistics */
  uint64_t pages_skipped;    /* Parquet pages skipped by the column index */
  uint64_t blocks;           /* Avro blocks read */
} hl_scan_actual_t;

typedef struct hl_plan_scan {
  hl_scan_actual_t *actual; /* counters for EXPLAIN ANALYZE (statement arena) */
  hl_table_t *table;
  hl_expr_t *filter;      /* conjuncts over this table's columns only
                             (scan layout), applied right after the scan */
  bool *needed;           /* per scan-layout column: decode it */
  hl_expr_t **part_preds; /* conjuncts over partition keys only */
  int n_part_preds;
  hl_cat_partition_t *parts; /* selected partitions (partitioned tables) */
  size_t n_parts;
  size_t n_parts_total; /* HL_PLAN_TOTAL_UNKNOWN when pinned: EXPLAIN counts */
  /* Values the catalog listing was pinned to (bind.c pinned_values; NULL:
   * every partition was listed) and how many partitions it gave: the
   * snapshot lists them again under its lock to check that no write added
   * one meanwhile (no count of the whole table on the way). */
  const char **pin_eq;
  size_t n_pinned;
  bool projected;        /* partitions computed by partition projection */
  hl_scan_pred_t *preds; /* "column op constant" conjuncts for the reader */
  int n_preds;
  const char *format_name; /* "text", "csv", "json" */
  bool sampled;            /* TABLESAMPLE (sample_rows ROWS): only the first
                              sample_rows rows of each file are read */
  int64_t sample_rows;
  /* SELECT FROM parquet.`path`: the files listed at bind time.  The scan
   * reads dataset->units[parts[i].id].files (units[0] when unpartitioned)
   * instead of listing directories; the table and its partitions are
   * synthetic (no catalog id).  NULL for catalog tables. */
  const hl_parquet_dataset_t *dataset;
  /* A LIMIT without ORDER BY (newest.c): parts are sorted newest first and
   * read in that order; newest_kind says how the first key compared
   * (HL_INCR_DATE, HL_INCR_BATCH, else as its type: plan/incr.h) and
   * newest_fmt the text-date format recognised (HL_TDATE_NONE: none). */
  bool newest_first;
  int newest_kind;
  hl_tdate_fmt_t newest_fmt;
} hl_plan_scan_t;

struct hl_plan;

typedef enum hl_rel_kind {
  HL_REL_SCAN,   /* a table: scan */
  HL_REL_QUERY,  /* a nested query block: subquery in FROM, CTE reference */
  HL_REL_JOIN,   /* left JOIN right */
  HL_REL_SETOP,  /* UNION [ALL] of n terms, INTERSECT/EXCEPT of two (all
                    HL_REL_QUERY) */
  HL_REL_LATERAL /* left LATERAL VIEW explode/posexplode(gen_arg): left's
                    columns, then [position,] element or key, value */
} hl_rel_kind_t;

/* A relation of the FROM clause.  Every relation produces a batch layout of
 * n_cols columns; a join produces its left columns followed by its right
 * columns (for SEMI/ANTI joins the right columns are present but NULL and
 * cannot be referenced outside ON).  The leaves of a FROM tree occupy
 * contiguous column ranges of the block's layout, starting at `offset`. */
typedef struct hl_rel {
  hl_rel_kind_t kind;
  int n_cols;
  const hl_type_t **types;
  const char **names;
  int offset;                   /* first column in the enclosing block's layout */
  hl_plan_scan_t *scan;         /* SCAN */
  struct hl_plan *query;        /* QUERY */
  hl_ast_join_type_t join_type; /* JOIN */
  hl_ast_setop_t setop;         /* SETOP */
  struct hl_rel **terms;        /* SETOP: the operands, in order (a chain of
                                   UNION [ALL] is one n-ary node) */
  int n_terms;                  /* SETOP: 1 (a query wrapped for ORDER BY /
                                   LIMIT) or more */
  struct hl_rel *left, *right;  /* JOIN, LATERAL (left only) */
  hl_expr_t **left_keys;        /* JOIN equality keys, over left's layout */
  hl_expr_t **right_keys;       /* ... and over right's layout */
  int n_keys;
  hl_expr_t *residual; /* JOIN: other ON conditions, over this layout */
  bool build_left;     /* JOIN: hash the left side (smaller by statistics) */
  hl_expr_t *gen_arg;  /* LATERAL: the array or map, over left's layout */
  bool gen_pos;        /* LATERAL: posexplode (an INT position column first) */
  /* LATERAL: gen_arg is an array of structs, each element one row of its
   * fields (inline; stack, json_tuple and parse_url_tuple bind to it) */
  bool gen_inline;
  /* LATERAL: gen_arg is one struct (n BIGINT, v1, ...), each row repeated
   * n times with all its fields as columns (replicate_rows) */
  bool gen_repeat;
  bool gen_outer; /* LATERAL OUTER: an empty or NULL collection gives one
                     row of NULLs instead of none */
} hl_rel_t;

typedef struct hl_plan {
  hl_rel_t *from;          /* NULL: SELECT without FROM (one row) */
  hl_plan_scan_t *scan;    /* the scan when FROM is exactly one table, else NULL */
  hl_expr_t *filter;       /* residual WHERE over the scan layout, or NULL */
  bool aggregate;          /* GROUP BY, aggregates or DISTINCT */
  uint64_t *grouping_sets; /* GROUPING SETS/ROLLUP/CUBE: masks over group_exprs */
  int n_grouping_sets;
  hl_expr_t **group_exprs; /* over the scan layout */
  int n_group;
  hl_agg_t *aggs;
  int n_aggs;
  hl_expr_t *having;    /* over the aggregate layout, or NULL */
  int64_t stats_rows;   /* >= 0: count(*) answered from catalog statistics
                           (from is NULL then); -1 otherwise */
  size_t stats_parts;   /* partitions whose statistics answered it */
  bool catalog_answer;  /* the aggregates (min, max, count(DISTINCT) of
                           partition keys, no GROUP BY) come from the
                           scan's partition values (exec/op_catalog.c) */
  hl_window_t *windows; /* window functions, computed after HAVING */
  int n_windows;
  int n_window_input;    /* columns entering the window operator */
  hl_expr_t **out_exprs; /* n_out visible + hidden sort columns */
  char **out_names;
  int n_out;       /* all output expressions */
  int n_visible;   /* the first n_visible are returned */
  int *order_cols; /* ORDER BY: output column indexes */
  bool *order_desc;
  bool *order_nulls_first;
  int n_order;
  bool has_limit;
  int64_t limit;
  int64_t offset;
} hl_plan_t;

/* ORDER BY ... LIMIT n keeps only the first n rows (a top-N sort) up to this
 * LIMIT + OFFSET. */
#define HL_PLAN_TOP_N_MAX 1000000

/* The partition key (index among the table's keys) by whose order a top-N
 * query over one partitioned table reads its partitions, stopping once the
 * LIMIT is settled (exec/op_ordered.c); -1 when the query is not such. */
int hl_plan_ordered_key(const hl_plan_t *plan);

/* Newest partitions first (newest.c).  Sorts PARTS[0..n) of table T in
 * place, newest first: key by key as each key's declared type; a STRING
 * first key as batch numbers or text dates (hl_plan_newest_mode); values
 * that are none of these (junk, the default partition) last; ties in
 * their given order.  Scratch memory from SCRATCH; errors: out of memory. */
hl_status_t hl_plan_sort_newest(const hl_table_t *t, hl_cat_partition_t *parts, size_t n,
                                hl_arena_t *scratch, hl_error_t *err);
/* How hl_plan_sort_newest compares T's first key over PARTS[0..n):
 * HL_INCR_BATCH (the incremental field says so), HL_INCR_DATE (it says
 * so, or the values are recognised as text dates: *FMT their format),
 * else HL_INCR_NONE (as the key's type). */
int hl_plan_newest_mode(const hl_table_t *t, const hl_cat_partition_t *parts, size_t n,
                        hl_arena_t *scratch, hl_tdate_fmt_t *fmt);
/* Whether PLAN's block reads its one partitioned table newest first: a
 * LIMIT, no ORDER BY, aggregate or window, not sampled, not a dataset. */
bool hl_plan_newest_qualifies(const hl_plan_t *plan);
/* At the end of binding a block: when it qualifies, sorts its scan's
 * partitions newest first and marks the scan (newest_first). */
hl_status_t hl_plan_newest_apply(hl_plan_t *plan, hl_error_t *err);

/* numRows of PARAMS (a table's or a partition's) when Hive's
 * COLUMN_STATS_ACCURATE marks the basic statistics accurate; -1 otherwise. */
int64_t hl_plan_accurate_rows(const hl_kv_t *params, int n);

/* Binds SELECT against the catalog and prunes partitions.  Everything in
 * ARENA.  Errors carry source positions. */
hl_status_t hl_plan_select(hl_session_t *s, const hl_ast_select_t *sel, hl_arena_t *arena,
                           hl_plan_t **out, hl_error_t *err);

/* EXPLAIN ANALYZE: the plan's lines with each scan's actual counters
 * (plan->scan->actual, filled by running it) and a last line with the
 * rows returned and the elapsed milliseconds. */
hl_status_t hl_plan_explain_analyze(hl_session_t *s, const hl_plan_t *plan, uint64_t rows,
                                    double ms, hl_arena_t *arena, char ***lines, int *n_lines,
                                    hl_error_t *err);

/* EXPLAIN text, one line per element of *lines (in ARENA). */
hl_status_t hl_plan_explain(hl_session_t *s, const hl_plan_t *plan, hl_arena_t *arena,
                            char ***lines, int *n_lines, hl_error_t *err);

#endif
