/*
 * ops.h -- the query operators (one file each: op_scan.c, op_basic.c
 * (one-row source, filter, project, limit), op_agg.c, op_sort.c).
 *
 * Every operator implements hl_op_t (result.h): next() returns a batch the
 * operator owns until the following call, or NULL at the end.  Operators
 * take ownership of their child: closing the root closes the tree.  Per-
 * call scratch memory lives in an arena the operator resets on each next().
 * Constructors return NULL with ERR set on failure (and close the child).
 */
#ifndef HL_OPS_H
#define HL_OPS_H

#include "vector/expr.h"
#include "exec/result.h"
#include "format/chunk_meta.h"
#include "exec/snapshot.h"
#include "exec/spill.h"
#include "session/session.h"
#include "plan/plan.h"

/* Counters a scan keeps for EXPLAIN ANALYZE and tests. */
typedef struct hl_scan_stats {
  size_t partitions_read;
  size_t files_read;
  uint64_t rows_read;
} hl_scan_stats_t;

/* A scan of SCAN's partitions as SNAP sees them (snapshot.h): the table's
 * reader lock and directory listings are SNAP's, shared with the other
 * scans of the statement.  SNAP NULL: the scan has a snapshot of its own,
 * ended when it closes. */
hl_op_t *hl_op_scan_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                           hl_arena_t *arena, hl_error_t *err);
const hl_scan_stats_t *hl_op_scan_stats(const hl_op_t *scan);
/* How many threads SCAN can keep busy, at most MAX: its units of work
 * (files; a file large enough to be split counts as MAX) as SNAP lists
 * them, so that the statement starts no thread for a scan of one small
 * partition.  Lists no more than a few directories (the listings are
 * SNAP's, which the scan reads next) and none on an object store, nor
 * one the location allowlist refuses (those answer MAX; the scan reports
 * the refusal when it gets there).  *OUT in [0, MAX].  Errors of the
 * table's snapshot (hl_snap_table: 55P03, 40001, HL_NOMEM) and of a
 * malformed hivelite.scan.split.size. */
hl_status_t hl_op_scan_busy_threads(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                                    size_t max, size_t *out, hl_error_t *err);
/* Makes SCAN read only the files whose ordinal (over all its partitions,
 * in listing order) is WORKER modulo N_WORKERS (set before the first next). */
void hl_op_scan_set_worker(hl_op_t *scan, int worker, int n_workers);
/* Makes SCAN number its units of work as a scan of several workers does
 * (a large Parquet or Avro file split into row groups or pieces, each a
 * unit) also with one worker: the parallel aggregation merges per unit,
 * and its answer must not depend on the number of threads. */
void hl_op_scan_set_units(hl_op_t *scan);
/* Tells SCAN that other scans of its session run at the same time on other
 * threads (PROFILE's workers, each with a scan of its own): it then keeps
 * off the session's Parquet footer cache, which is for one thread at a
 * time, as the workers of one parallel scan do (set before the first
 * next). */
void hl_op_scan_set_concurrent(hl_op_t *scan);
/* Column answers from file statistics (format/chunk_meta.h), for PROFILE:
 * as each Parquet or ORC file opens, every data column c with WANT[c] (1:
 * the NULL counts will do, 2: the values too; borrowed, n_data entries)
 * that the file's statistics answer in every row group or stripe is
 * handed to FN(CTX, c, chunks, n) and then not decoded: it reads NULL in
 * that file's batches, and hl_op_scan_meta_cols says which.  Only for a
 * scan that reads whole files in the table's own types: no pushed
 * predicates or filter, no sample, one thread; otherwise nothing is
 * answered.  Set before the first next. */
typedef hl_status_t (*hl_scan_meta_fn)(void *ctx, int col, const hl_chunk_meta_t *chunks, size_t n,
                                       hl_error_t *err);
void hl_op_scan_set_meta(hl_op_t *scan, const uint8_t *want, hl_scan_meta_fn fn, void *ctx);
/* The data columns answered from statistics for the file of the last batch
 * ([n_data]), NULL when none. */
const bool *hl_op_scan_meta_cols(const hl_op_t *scan);
/* Ordinal of the file the last batch came from. */
size_t hl_op_scan_current_file(const hl_op_t *scan);
/* Calls FN(CTX, ordinal) as SCAN moves to each file (its own or another
 * worker's): every file before ORDINAL is done, its batches returned. */
void hl_op_scan_on_file(hl_op_t *scan, void (*fn)(void *ctx, size_t ordinal), void *ctx);
/* Calls FN(CTX, ordinal, bound) before SCAN lists a partition or opens one
 * of its own files (ORDINAL: the first file the step may read); BOUND is an
 * upper bound, from accurate partition statistics, on the rows of all
 * files before ORDINAL (UINT64_MAX when unknown).  FN may wait; when it
 * returns false the scan ends there (a LIMIT is met). */
void hl_op_scan_set_gate(hl_op_t *scan, bool (*fn)(void *ctx, size_t ordinal, uint64_t bound),
                         void *ctx);
/* Makes SCAN return only the rows PRED (borrowed) keeps, as a filter over it
 * would; for Parquet the columns PRED does not read are decoded only for
 * batches with rows left (late materialization).  Set before the first
 * next.  HL_OK or HL_NOMEM. */
hl_status_t hl_op_scan_set_filter(hl_op_t *scan, const hl_expr_t *pred, hl_error_t *err);
/* A scan read by N_WORKERS threads, each running scan -> FILTER (may be
 * NULL) over its share of the files; batches come out in file order, so
 * the result is the same as a single-threaded scan's (op_parallel.c).  The
 * workers read one file list: SNAP's, or (SNAP NULL) the operator's own
 * snapshot's. */
hl_op_t *hl_op_parallel_scan_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                                    const hl_expr_t *filter, int n_workers, hl_arena_t *arena,
                                    hl_error_t *err);
/* The consumer of parallel scan OP stops after ROWS rows (a LIMIT right
 * above it): no worker lists a partition or opens a file unless it is
 * certain that the rows before it are fewer than ROWS, so the scan opens
 * exactly the files a single-threaded scan would.  Set before the first
 * next. */
void hl_op_parallel_scan_set_limit(hl_op_t *op, uint64_t rows);
/* One row, no columns: the source of SELECT without FROM. */
hl_op_t *hl_op_one_row_create(hl_arena_t *arena, hl_error_t *err);
hl_op_t *hl_op_filter_create(hl_op_t *child, const hl_expr_t *pred, hl_arena_t *arena,
                             hl_error_t *err);
hl_op_t *hl_op_project_create(hl_op_t *child, hl_expr_t *const *exprs, int n, hl_arena_t *arena,
                              hl_error_t *err);
hl_op_t *hl_op_limit_create(hl_op_t *child, int64_t limit, int64_t offset, hl_arena_t *arena,
                            hl_error_t *err);
hl_op_t *hl_op_agg_create(hl_op_t *child, const hl_plan_t *plan, hl_budget_t *budget,
                          hl_arena_t *arena, hl_error_t *err);
/* Lets the aggregation AGG (of hl_op_agg_create) spill to SPILL (borrowed,
 * outlives it; NULL: no spilling) once its groups pass hl_spill_share:
 * the rows of groups not yet in memory go to spill files cut by key hash,
 * aggregated partition by partition after the groups in memory
 * (op_agg_spill.c; with grouping sets a row per set, tagged with it); the
 * same answers, bit for bit.  A GROUP BY with a stateful expression does
 * not spill (a 53200 saying so).  Set before the first next.  HL_NOMEM. */
hl_status_t hl_op_agg_set_spill(hl_op_t *agg, hl_spill_t *spill, hl_error_t *err);
/* GROUP BY / aggregates by N threads (N >= 1; op_agg_par.c): each
 * aggregates its pipeline's rows (a scan of its share of the table's units
 * of work, maybe joined with a shared hash table) and the partial results
 * merge in unit order, so that every aggregate -- DOUBLE sums included --
 * gives the same answer, bit for bit, at every thread count, groups in the
 * order of their first rows.  Only for plans hl_agg_parallel_ok accepts: no
 * grouping sets, no stateful expressions (rand(), row_sequence()). */
bool hl_agg_parallel_ok(const hl_plan_t *plan);
/* CHILDREN[0..n) are the threads' pipelines (owned from here on, closed
 * with the operator, also on error); SCANS[i] is the table scan at the
 * bottom of CHILDREN[i] (its current unit orders the groups; made with
 * hl_op_scan_set_units, so that the units do not depend on N).  PREPARE
 * (may be NULL) runs once before the threads start, on PREPARE_OP (a
 * shared join's table is built there). */
hl_op_t *hl_op_agg_parallel_create(const hl_plan_t *plan, hl_op_t **children, hl_op_t **scans,
                                   int n, hl_status_t (*prepare)(hl_op_t *, hl_error_t *),
                                   hl_op_t *prepare_op, hl_budget_t *budget, hl_arena_t *arena,
                                   hl_error_t *err);
hl_op_t *hl_op_sort_create(hl_op_t *child, int n_cols, const hl_type_t *const *types,
                           const int *keys, const bool *desc, const bool *nulls_first, int n_keys,
                           hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err);

/* Lets SORT spill sorted runs to SPILL (borrowed, outlives the sort; NULL:
 * no spilling) once its rows pass hl_spill_share; a top-N sort never
 * spills.  Set before the first next. */
void hl_op_sort_set_spill(hl_op_t *sort, hl_spill_t *spill);
/* Makes a sort keep only its first TOP_N rows (ORDER BY ... LIMIT). */
void hl_op_sort_set_limit(hl_op_t *sort, size_t top_n);
/* A top-N sort's bound so far: once it holds top_n rows, *WORST is the
 * first ORDER BY key of the last row that makes the cut (valid until the
 * sort's next input); NULL before.  HL_OK or HL_NOMEM. */
hl_status_t hl_op_sort_worst(hl_op_t *sort, const hl_value_t **worst, hl_error_t *err);
/* Rows a top-N sort still lacks to hold top_n (0 once it does). */
size_t hl_op_sort_missing(const hl_op_t *sort);
/* PLAN->catalog_answer (op_catalog.c): the one row of PLAN's aggregates
 * (min, max, count(DISTINCT) of partition keys) from the key values of the
 * partitions that hold a row, by statistics or by a probe read in SNAP. */
hl_op_t *hl_op_catalog_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_t *plan,
                              hl_arena_t *arena, hl_error_t *err);
/* ORDER BY <partition key K> ... LIMIT over one table (op_ordered.c): reads
 * PLAN's partitions in the order of key K (DESC, NULLS_FIRST as the ORDER
 * BY), whole groups of equal keys at a time, each group with a scan made by
 * MAKE_SCAN (with the block filter EXTRA) in snapshot SNAP (NULL: the
 * operator's own), and stops once the top-N sort set with
 * hl_op_ordered_set_sort holds rows no later partition can beat. */
typedef hl_op_t *(*hl_make_scan_fn)(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                                    const hl_expr_t *extra, hl_arena_t *arena, hl_error_t *err);
hl_op_t *hl_op_ordered_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *plan,
                              const hl_expr_t *extra, int k, bool desc, bool nulls_first,
                              hl_make_scan_fn make_scan, hl_arena_t *arena, hl_error_t *err);
void hl_op_ordered_set_sort(hl_op_t *ordered, hl_op_t *sort);
/* The value a scan gives key K of partition PART (as the partition's rows
 * carry it): typed from its value text; the default partition's key is
 * NULL, whatever its type. */
hl_status_t hl_scan_part_key(hl_session_t *s, const hl_plan_scan_t *plan,
                             const hl_cat_partition_t *part, int k, hl_arena_t *arena,
                             hl_value_t *out, hl_error_t *err);
/* Window functions (op_window.c): IN_TYPES are the n_window_input input
 * column types; output is those columns then one per window function. */
hl_op_t *hl_op_window_create(hl_op_t *child, const hl_plan_t *plan,
                             const hl_type_t *const *in_types, hl_budget_t *budget,
                             hl_arena_t *arena, hl_error_t *err);
/* Joins of every kind (op_join.c): output is left columns then right.
 * USED (rel->n_cols, NULL: all) marks the output columns read above the
 * join; the others come out NULL. */
hl_op_t *hl_op_join_create(hl_op_t *left, hl_op_t *right, const hl_rel_t *rel, const bool *used,
                           hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err);
/* A join that probes OWNER's hash table (OWNER a join of the same REL,
 * built with hl_op_join_build before this one's first next, and closed
 * after it) with PROBE's rows: several threads probing one table.  Only
 * for joins that do not record matched build rows (not FULL). */
hl_op_t *hl_op_join_create_sharing(hl_op_t *probe, const hl_rel_t *rel, const bool *used,
                                   hl_op_t *owner, hl_budget_t *budget, hl_arena_t *arena,
                                   hl_error_t *err);
/* Lets JOIN partition its build and probe sides into files of SPILL
 * (borrowed; NULL: no spilling) when its build side passes hl_spill_share
 * (grace hash join).  Not for a join whose table is shared.  Set before
 * the first next. */
void hl_op_join_set_spill(hl_op_t *join, hl_spill_t *spill);
/* The partitions of a grace hash join (op_join_spill.c): rows of a side
 * (0: build, 1: probe) cut by a hash of their keys into HL_GRACE_PARTS
 * spill files of SPILL; LEVEL picks the hash (a partition cut again is
 * cut another way); INT_KEY: one integer key, hashed as the join's table
 * compares it.  Rows whose key holds a NULL are dealt round-robin. */
#define HL_GRACE_PARTS 16
typedef struct hl_grace hl_grace_t;
/* NULL with ERR set on OOM.  Caller destroys (closing the files left). */
hl_grace_t *hl_grace_create(hl_spill_t *spill, int level, bool int_key, hl_error_t *err);
void hl_grace_destroy(hl_grace_t *g);
/* Writes B's live rows to their partitions of SIDE; KV[0..n_keys) are the
 * key vectors of B (by physical row).  HL_NOMEM, 53100, 58030. */
hl_status_t hl_grace_add(hl_grace_t *g, int side, const hl_batch_t *b, const hl_vec_t *kv,
                         int n_keys, hl_error_t *err);
/* Hands over partition P of SIDE (NULL: no rows); the caller closes it. */
hl_spill_file_t *hl_grace_take(hl_grace_t *g, int side, int p);
/* An operator that replays FILE (owned; NULL: no rows) from its start as
 * batches of N_COLS columns of TYPES (borrowed), polling BUDGET's cancel
 * flag. */
hl_op_t *hl_op_spill_scan_create(hl_spill_file_t *file, int n_cols, const hl_type_t *const *types,
                                 hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err);
/* Builds a join's hash table now instead of on its first next. */
hl_status_t hl_op_join_build(hl_op_t *join, hl_error_t *err);
/* A table shared by threads cannot spill: with BYTES set (before the
 * build), a build side that passes them fails with 53200 and
 * hl_op_join_refused turns true, so that the planner can run the join
 * alone, where it spills, instead (query.c). */
void hl_op_join_set_refuse(hl_op_t *join, uint64_t bytes);
bool hl_op_join_refused(const hl_op_t *join);
/* True when REL's join hashes its left side (probes with the right). */
bool hl_join_builds_left(const hl_rel_t *rel);
/* LATERAL VIEW explode/posexplode (op_lateral.c): each row of CHILD (REL's
 * left layout) once per element or entry of REL->gen_arg, with the
 * generated columns appended (REL's layout); polls BUDGET's cancel flag
 * before each output batch. */
hl_op_t *hl_op_lateral_create(hl_op_t *child, const hl_rel_t *rel, hl_budget_t *budget,
                              hl_arena_t *arena, hl_error_t *err);
/* Makes the operators of operand K of a set operation (NULL with ERR set on
 * failure). */
typedef hl_op_t *(*hl_op_term_fn)(void *ctx, int k, hl_error_t *err);
/* UNION [ALL] of N_TERMS operands (1: a lone operand), INTERSECT / EXCEPT
 * of two, over N_COLS columns (op_setop.c).  Each operand's operators are
 * made by BUILD(CTX, k) when the operation reaches it (the right one first
 * for INTERSECT / EXCEPT) and closed when used up. */
hl_op_t *hl_op_setop_create(int n_terms, hl_op_term_fn build, void *build_ctx, hl_ast_setop_t kind,
                            int n_cols, hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err);

#endif
