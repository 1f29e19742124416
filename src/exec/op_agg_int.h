/*
 * op_agg_int.h -- the aggregation table shared by op_agg.c (one table:
 * grouping, the aggregates' states and their merge) and op_agg_par.c (the
 * parallel aggregation: tables per unit of work, merged in unit order into
 * partitions of the result).  op_window.c uses hl_agg_est_*, the
 * estimators (histogram_numeric, ngrams) over a window frame.
 *
 * An agg_t is one hash table of groups with their states.  The operator is
 * one (its groups are the result); a parallel aggregation has more: one per
 * unit of work being aggregated or waiting to be merged, and one per
 * partition of the result (op_agg_par.c).  A table is used by one thread at
 * a time.
 */
#ifndef HL_OP_AGG_INT_H
#define HL_OP_AGG_INT_H

#include "exec/ops.h"
#include "util/hashmap.h"
#include "util/hll.h"
#include "util/imap.h"
#include "util/strbuf.h"

/* One aggregate's state in one group.  The kinds' fields overlap (a
 * state is one kind for its life): with 64 bytes a group of a wide GROUP
 * BY costs a third of what separate fields did. */
typedef struct agg_state {
  int64_t count;
  bool has;          /* min/max/sum saw a value */
  int64_t dec_carry; /* decimal sum = dec_carry * DEC_CHUNK + sum.dec (exact) */
  union {
    struct { /* sum, avg, variance */
      union {
        int64_t i;
        double d;
        __int128 dec;
      } sum;
      double m2; /* variance: sum of squared deviations (Welford); mean in sum.d */
    };
    struct { /* corr, covar_*, regr_*: means, and n times the variances
              * and the covariance (Welford's updates for pairs) */
      double mx, my, vx, vy, cxy;
    } pair;
    hl_value_t best; /* min/max (strings copied into the operator arena) */
    struct {         /* collect_list/collect_set/percentile values; in a
                      * unit's table also the values of a DISTINCT aggregate */
      hl_value_t *items;
      uint32_t n_items, cap_items;
    };
    /* approx_count_distinct: the distinct 64-bit hashes (open addressing,
     * 0 = empty, count in `count`) until there are SKETCH_EXACT of them,
     * then a HyperLogLog sketch (util/hll.h) */
    struct {
      uint64_t *hashes;
      uint32_t cap_hashes;
      hl_hll_t *hll;
    };
    /* histogram_numeric (op_agg_hist.c), ngrams and context_ngrams
     * (op_agg_ngrams.c): their state in the table's arena, NULL before
     * the first value */
    void *fam;
    /* compute_bit_vector_hll (op_agg_sketch.c): Hive's sketch, NULL
     * before the group's first row; approx_distinct (op_agg_approx.c):
     * the same with p = 12, NULL before the first non-NULL value */
    struct hl_hhll *hive_hll;
    /* compute_bit_vector_fm: Hive's FMSketch, NULL before the first row */
    struct hl_hfm *hive_fm;
    /* compute_stats (op_agg_cstats.c): NULL before the first row */
    struct agg_cstats *cstats;
    /* bloom_filter (op_agg_bloom.c): the serialized BloomKFilter, its
     * bits set in place; NULL before the first non-NULL value */
    uint8_t *bloom;
    /* ds_kll_sketch / ds_kll_union (op_agg_ds_kll.c): NULL before the
     * first non-NULL value */
    struct hl_ds_kll *kll;
    /* ds_theta_* (op_agg_ds_theta.c): the union or intersection, NULL
     * before the first non-NULL value */
    struct agg_ds_theta *ds_theta;
    /* ds_hll_sketch / ds_hll_union (op_agg_ds_hll.c): NULL before the
     * first non-NULL value */
    struct agg_dshll *dshll;
    /* ds_quantile_doubles_* (op_agg_ds_quantiles.c): the union's sketch,
     * NULL before the first non-NULL value */
    struct hl_ds_quantiles *dsq;
  };
} agg_state_t;

typedef struct hl_agg_par hl_agg_par_t;
typedef struct agg_spill agg_spill_t;
typedef struct agg_state_layout agg_state_layout_t;

typedef struct agg {
  hl_op_t op;
  hl_op_t *child;
  const hl_plan_t *plan;
  hl_arena_t *arena;   /* group values and min/max strings */
  hl_arena_t *scratch; /* per input batch; the operator's own, else lent (op_agg_par.c) */
  bool own_scratch;
  hl_map_t *groups;
  /* GROUP BY one integer expression (no grouping sets): group numbers
   * found in an open-addressing table of keys instead of `groups` */
  bool int_key;
  /* GROUP BY only strings (no grouping sets): a key whose values pack into
   * 8 bytes (each a length byte -- 0 for NULL, else length + 1 -- then its
   * bytes) is looked up as that integer in `ikeys`; longer keys use
   * `groups`.  Whether a key packs depends only on its values, so each group
   * lives in exactly one of the two tables. */
  bool str_keys;
  hl_imap_t ikeys;        /* key -> group number + 1 */
  int64_t null_id;        /* group number of the NULL key, -1 before it is seen */
  hl_map_t **distinct;    /* per aggregate with DISTINCT */
  hl_value_t *group_vals; /* n_groups * n_group */
  agg_state_t *states;    /* n_groups * n_aggs */
  size_t n_groups, cap_groups;
  bool consumed;
  size_t emitted;
  hl_batch_t *out; /* the operator's output batch (NULL in the tables of op_agg_par.c) */
  const hl_type_t **out_types;
  hl_budget_t *budget;
  uint64_t charged;
  hl_buf_t key;
  /* A unit's table (op_agg_par.c): a DISTINCT aggregate keeps the unit's
   * distinct values (items) instead of its result, so that the merge
   * feeds them to the result's aggregate in their order */
  bool unit_items;
  /* Every group remembers where its first row was (unit ordinal << 40 |
   * row in unit): the merged groups are put back in that order, which is
   * the order a single-threaded run finds them in. */
  bool track_pos;
  uint64_t *first_pos; /* per group */
  uint64_t pos_base;   /* position of the current batch's row 0 (set by the caller) */
  uint64_t cur_pos;    /* position of the row being grouped */
  int cur_set;         /* the grouping set of the row being grouped (grouping()) */
  /* Grouping sets that spilled (op_agg_spill.c): a row of a replayed file
   * carries the set it was written for in column SET_COL (set_tagged) and
   * feeds only that set's group; SET_SKIP (in scratch, per live row times
   * set, NULL: none) marks the (row, set) pairs of this batch written to a
   * spill file instead of aggregated. */
  bool set_tagged;
  int set_col;
  const uint8_t *set_skip;
  /* A table decoded from state rows (hl_agg_state_decode): per group, 1
   * when its state is the group's whole state so far (an evicted or
   * flushed group, op_agg_spill.c), which the merge into a table without
   * the group restores exactly -- histogram_numeric's generator included --
   * where a unit's partial state starts a fresh one.  NULL: none is. */
  const uint8_t *whole;
  hl_agg_par_t *par; /* the operator of a parallel aggregation: its driver */
  agg_spill_t *sp;   /* where its rows may spill (op_agg_spill.c); NULL: nowhere */
  const char *what;  /* names the aggregation in the 53200 of its budget */
} agg_t;

/* Vectors one table evaluates a batch into (hl_agg_bufs_init). */
typedef struct agg_bufs {
  hl_vec_t *gvecs, *avecs, *avecs2;
  hl_value_t *vals;
} agg_bufs_t;

/* A new table for PLAN; OUTPUT: the operator, with its output batch and a
 * scratch arena (other tables have none until one is lent: a->scratch,
 * for hl_agg_consume_batch).  Charges
 * BUDGET for what it keeps; structs in ARENA, the rest freed by
 * hl_agg_table_free.  NULL on OOM (ERR set). */
agg_t *hl_agg_table_new(const hl_plan_t *plan, hl_budget_t *budget, bool output, hl_arena_t *arena,
                        hl_error_t *err);
/* Frees what the table holds (its child included) and releases its charge. */
void hl_agg_table_free(agg_t *a);
/* Empties the table for reuse (its charge released).  HL_NOMEM. */
hl_status_t hl_agg_table_reset(agg_t *a, hl_error_t *err);
/* BUFS for batches of PLAN's aggregation, in ARENA. */
hl_status_t hl_agg_bufs_init(const hl_plan_t *plan, hl_arena_t *arena, agg_bufs_t *bufs,
                             hl_error_t *err);
/* Aggregates the live rows of B into A's groups (a->pos_base set when
 * positions are tracked); charges the budget. */
hl_status_t hl_agg_consume_batch(agg_t *a, const hl_batch_t *b, agg_bufs_t *bufs, hl_error_t *err);
/* A hash of group G's values: the same values give the same hash in every
 * table (the partition of a group). */
uint64_t hl_agg_group_hash(agg_t *a, size_t g);
/* Merges the groups GROUPS[0..n) of unit table P (NULL: all), in that
 * order, into D: each state as if D's aggregate had read P's rows after
 * its own.  P is unchanged; D copies what it keeps; SCRATCH (reset here)
 * holds the group values as vectors. */
hl_status_t hl_agg_merge(agg_t *d, const agg_t *p, const uint32_t *groups, size_t n,
                         hl_arena_t *scratch, hl_error_t *err);
/* Whether PLAN's aggregates merge exactly, in any order (count, integer
 * and decimal sums, min/max of integers, decimals and strings): then a
 * thread may aggregate all its units into one table. */
bool hl_agg_merge_exact(const hl_plan_t *plan);

/* Whether row R's group (values in GVECS) is one of A's.  Not for
 * grouping sets. */
bool hl_agg_group_known(agg_t *a, const hl_vec_t *gvecs, uint32_t r);

/* Whether the group of row R in grouping set SET is one of A's; *HASH:
 * a hash of its key (the set's number included), the same in every table;
 * VALS: room for its n_group values.  A key without memory counts as
 * known (it stays in memory, where the budget says so). */
bool hl_agg_set_group_known(agg_t *a, const hl_vec_t *gvecs, uint32_t r, int set, hl_value_t *vals,
                            uint64_t *hash);

/* ---- spilling (op_agg_spill.c) */
/* Once A's table (HELD bytes) may pass its share of the memory limit, the
 * rows of *B (group values in GVECS) whose group is not in memory are
 * written to spill files, and *B becomes VIEW: the other rows (with
 * grouping sets *B stays and a->set_skip marks the (row, set) pairs
 * written, each tagged with its set); or *CUT > 0:
 * the first *CUT rows fit before the freeze (hl_agg_spill_cut).  HL_NOMEM, 53100,
 * 58030. */
hl_status_t hl_agg_spill_split(agg_t *a, const hl_batch_t **b, hl_batch_t *view,
                               const hl_vec_t *gvecs, uint64_t held, uint32_t *cut,
                               hl_error_t *err);
/* When hl_agg_spill_split set *CUT: aggregates the first CUT live rows of
 * B, freezes the table, then the rest. */
hl_status_t hl_agg_spill_cut(agg_t *a, const hl_batch_t *b, uint32_t cut, agg_bufs_t *bufs,
                             hl_error_t *err);
/* A's input has ended: its spill files wait for their turn. */
hl_status_t hl_agg_spill_end(agg_t *a, hl_error_t *err);
/* Whether spilled partitions wait (after hl_agg_spill_end): their groups
 * are not in A's table yet. */
bool hl_agg_spill_waiting(const agg_t *a);
/* A's groups are all out: A becomes the aggregation of the next spilled
 * partition (*MORE), or there is none left (!*MORE). */
hl_status_t hl_agg_spill_next(agg_t *a, bool *more, hl_error_t *err);
void hl_agg_spill_free(agg_spill_t *sp);
/* Of N rows (or merged groups) to come, how many fit before A's table
 * passes its share: N when all do (or it may not spill deeper), 0 when
 * frozen. */
uint32_t hl_agg_spill_freeze_at(agg_t *a, uint32_t n, uint64_t held);
/* Freezes A's table (unless at its deepest level): new groups spill. */
void hl_agg_spill_freeze(agg_t *a);
/* Whether A merges state rows whose states grow without new groups
 * (collect_list, percentile, the structures, a string's min/max, ...) and
 * can evict them: hl_agg_merge then watches its bytes at every group. */
bool hl_agg_spill_grows(const agg_t *a);
/* Whether A's table is frozen (an empty one: its groups were evicted). */
bool hl_agg_spill_frozen(const agg_t *a);
/* The parallel aggregation's tables (op_agg_par.c): A (a partition of the
 * result, or the operator, which replays: DEST NULL) spills states past
 * SHARE bytes into DEST's spill files (thread-safe).  HL_NOMEM. */
hl_status_t hl_agg_spill_states_init(agg_t *a, hl_spill_t *spill, uint64_t share, agg_t *dest,
                                     hl_error_t *err);
/* Whether A (a DEST) has spill files. */
bool hl_agg_spill_any(const agg_t *a);
/* Whether a merged table of PLAN can be written as state rows (no
 * DISTINCT). */
bool hl_agg_spill_flushable(const hl_plan_t *plan);
/* Whether A (frozen, merging state rows, HELD bytes) has grown past its
 * share since it froze -- its groups' states grow (collect_list,
 * percentile, ...) though no new group comes in -- and should evict its
 * groups: hl_agg_spill_flush writes each as its state row to the file of
 * its hash, and the later states of the group follow it there (the group
 * is no longer known), so the replay makes the very merges, in the very
 * order, that A would have.  Not with one group (it would only meet
 * itself again deeper: it stays, the budget says if it does not fit). */
bool hl_agg_spill_evict_due(const agg_t *a, uint64_t held);
/* Writes all of T's groups to its DEST's files and empties T.  HL_NOMEM,
 * 53100, 58030. */
hl_status_t hl_agg_spill_flush(agg_t *t, hl_error_t *err);
/* In hl_agg_merge into a frozen D: the states of P's groups GS[0..n),
 * which D does not hold, go to D's spill files. */
hl_status_t hl_agg_spill_states(agg_t *d, const agg_t *p, const uint32_t *gs, uint32_t n,
                                hl_error_t *err);
/* FROM's spill files (a table whose merges are over) wait in TO's stack. */
hl_status_t hl_agg_spill_hand_over(agg_t *from, agg_t *to, hl_error_t *err);

/* ---- state rows (op_agg_state.c) */
agg_state_layout_t *hl_agg_state_layout(const hl_plan_t *plan, hl_error_t *err);
void hl_agg_state_layout_free(agg_state_layout_t *l);
int hl_agg_state_cols(const agg_state_layout_t *l);
const hl_type_t *const *hl_agg_state_types(const agg_state_layout_t *l);
/* Appends to OUT (columns of L; reset here when it has no row; room for
 * N more) the groups GS[0..n) of P with their states: strings copied,
 * complex values borrowed from P.  WHOLE: each is its group's whole state
 * so far (agg_t.whole).  HL_NOMEM. */
hl_status_t hl_agg_state_encode(const agg_t *p, const agg_state_layout_t *l, const uint32_t *gs,
                                uint32_t n, bool whole, hl_batch_t *out, hl_error_t *err);
/* T (zeroed by the caller) becomes a read-only table of IN's state rows
 * (columns of L; arrays in ARENA, values borrowed from IN), a source for
 * hl_agg_merge.  XX001 when a row is damaged; HL_NOMEM. */
hl_status_t hl_agg_state_decode(const hl_plan_t *plan, const agg_state_layout_t *l,
                                const hl_batch_t *in, hl_arena_t *arena, agg_t *t, hl_error_t *err);

/* ---- states of their own as bytes (op_agg_own.c), for state rows:
 * histogram_numeric, ngrams, context_ngrams, Hive's bit vectors and
 * compute_stats keep a structure of their own, written as a BINARY value
 * (little-endian integers, raw doubles: the same process reads it back)
 * and read into a copy of that structure, which hl_agg_merge then merges
 * exactly as the unit's state in memory.  A reader checks every length,
 * count and invariant the merge relies on: damaged bytes are HL_CORRUPT,
 * never a crash. */
typedef struct agg_rd {
  const uint8_t *p;
  size_t left;
} agg_rd_t;
/* The next N bytes of R, NULL (R emptied) when fewer are left. */
const uint8_t *hl_agg_rd_take(agg_rd_t *r, size_t n);
bool hl_agg_rd_u32(agg_rd_t *r, uint32_t *v);
bool hl_agg_rd_i64(agg_rd_t *r, int64_t *v);
bool hl_agg_rd_f64(agg_rd_t *r, double *v);
/* Whether aggregate AG's state is a structure of its own. */
bool hl_agg_own_state(const hl_agg_t *ag);
/* ST's structure (not NULL) appended to OUT (out->oom on failure). */
void hl_agg_own_save(const hl_agg_t *ag, const agg_state_t *st, hl_buf_t *out);
/* Row ROW of the BINARY vector VEC: ST's structure (not NULL), copied into
 * ARENA.  HL_NOMEM. */
hl_status_t hl_agg_own_put(const hl_agg_t *ag, const agg_state_t *st, hl_vec_t *vec,
                           hl_arena_t *arena, uint32_t row);
/* ST's structure from DATA[0..len), all of it, in ARENA.  HL_CORRUPT
 * (XX001 set), HL_NOMEM. */
hl_status_t hl_agg_own_load(const hl_agg_t *ag, const uint8_t *data, size_t len, hl_arena_t *arena,
                            agg_state_t *st, hl_error_t *err);
/* The kinds' writers and readers (in their files, their structures
 * private there); a reader returns HL_CORRUPT or HL_NOMEM without a
 * message.  The readers take what the aggregate fixes (nb; n and the
 * n-grams kept; which sketch and its vectors). */
void hl_agg_hist_save(const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_hist_load(agg_rd_t *r, uint32_t nb, hl_arena_t *arena, agg_state_t *st);
void hl_agg_ngrams_save(const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_ngrams_load(agg_rd_t *r, uint32_t n, int64_t keep, hl_arena_t *arena,
                               agg_state_t *st);
/* The words per n-gram and the n-grams kept of AG, false when its
 * parameters make no state (its first row fails). */
bool hl_agg_ngrams_shape(const hl_agg_t *ag, uint32_t *n, int64_t *keep);
void hl_agg_sketch_save(bool fm, const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_sketch_load(agg_rd_t *r, bool fm, int n, hl_arena_t *arena, agg_state_t *st);
/* A HyperLogLog of P register bits (the bit vector's 10, approx_distinct's
 * HL_AGG_APPROX_P), as hl_agg_sketch_save wrote it. */
hl_status_t hl_agg_hll_load(agg_rd_t *r, int p, hl_arena_t *arena, agg_state_t *st);
/* bloom_filter's filter bytes, checked against AG's shape. */
void hl_agg_bloom_save(const hl_agg_t *ag, const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_bloom_load(agg_rd_t *r, const hl_agg_t *ag, hl_arena_t *arena, agg_state_t *st);
/* T: the argument's type; FM, N: the sketch (when T keeps one). */
void hl_agg_cstats_save(const hl_type_t *t, bool fm, const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_cstats_load(agg_rd_t *r, const hl_type_t *t, bool fm, int n, hl_arena_t *arena,
                               agg_state_t *st);

/* percentile_cont / percentile_disc of the state's kept values
 * (op_agg_pct.c): sorts them in place; an array of percentiles in ARENA.
 * HL_NOMEM. */
hl_status_t hl_agg_pct_final(const hl_agg_t *ag, agg_state_t *st, hl_value_t *out,
                             hl_arena_t *arena);

/* histogram_numeric (op_agg_hist.c): adds V; merges S (of another table)
 * into D of A; the ARRAY<STRUCT<x, y>> result in ARENA (HL_NOMEM). */
hl_status_t hl_agg_hist_add(agg_t *a, const hl_agg_t *ag, agg_state_t *st, double v,
                            hl_error_t *err);
hl_status_t hl_agg_hist_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err);
/* D, just merged from S into a table without it, takes S's generator too:
 * S was a group's whole state (agg_t.whole). */
void hl_agg_hist_restore(agg_state_t *d, const agg_state_t *s);
hl_status_t hl_agg_hist_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena);

/* ngrams / context_ngrams (op_agg_ngrams.c): adds the sequences of the
 * array V; merges S into D of A; the result (the first k, sorted; the
 * state unchanged) in ARENA (HL_NOMEM). */
hl_status_t hl_agg_ngrams_add(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_value_t *v,
                              hl_error_t *err);
hl_status_t hl_agg_ngrams_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                                hl_error_t *err);
hl_status_t hl_agg_ngrams_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena);

/* histogram_numeric / ngrams / context_ngrams over a window frame
 * (op_window.c): a state of one group that reads values in order (NULLs
 * skipped), the frame's result at any point -- so a frame that grows
 * (UNBOUNDED PRECEDING) adds only its new rows.  The state lives in
 * SCRATCH, whose owner resets it (hl_agg_est_init again) for a new frame;
 * results are copied into ARENA. */
typedef struct hl_agg_est {
  agg_t t; /* only its arena and key buffer are used */
  agg_state_t st;
} hl_agg_est_t;
void hl_agg_est_init(hl_agg_est_t *e, hl_arena_t *scratch);
hl_status_t hl_agg_est_add(hl_agg_est_t *e, const hl_agg_t *ag, const hl_value_t *v,
                           hl_error_t *err);
/* TMP: the result's working memory, the caller's to reset after. */
hl_status_t hl_agg_est_result(hl_agg_est_t *e, const hl_agg_t *ag, hl_arena_t *tmp,
                              hl_arena_t *arena, hl_value_t *out, hl_error_t *err);
void hl_agg_est_fini(hl_agg_est_t *e);

/* compute_bit_vector_hll (op_agg_sketch.c): row R of ARG into the state
 * (the sketch made at the first row, NULL or not); S merged into D after
 * D's own rows; the result, in ARENA.  HL_NOMEM. */
hl_status_t hl_agg_sketch_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                 uint32_t r, hl_error_t *err);
hl_status_t hl_agg_sketch_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                                hl_error_t *err);
hl_status_t hl_agg_sketch_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena);
/* The same for a sketch named by FM (else HyperLogLog) and N (FM's
 * vectors), for compute_stats; hl_agg_sketch_ndv: its estimate, 0 before
 * the first row. */
hl_status_t hl_agg_sketch_add(agg_t *a, bool fm, int n, agg_state_t *st, const hl_vec_t *arg,
                              uint32_t r, hl_error_t *err);
hl_status_t hl_agg_sketch_join(agg_t *a, bool fm, int n, agg_state_t *d, const agg_state_t *s,
                               hl_error_t *err);
hl_status_t hl_agg_sketch_bytes(bool fm, const agg_state_t *st, hl_value_t *out, hl_arena_t *arena);
int64_t hl_agg_sketch_ndv(bool fm, const agg_state_t *st);

/* compute_stats (op_agg_cstats.c): row R (ARG the value, SK what the
 * sketch adds) into the state, made at the group's first row; S merged
 * into D after D's own rows; the struct, in ARENA.  HL_NOMEM. */
hl_status_t hl_agg_cstats_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                 const hl_vec_t *sk, uint32_t r, hl_error_t *err);
hl_status_t hl_agg_cstats_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                                hl_error_t *err);
hl_status_t hl_agg_cstats_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena);

/* bloom_filter (op_agg_bloom.c): row R of ARG into the state (the filter
 * made at the first non-NULL value); S's bits ORed into D; the bytes, in
 * ARENA (an empty filter when no value came).  HL_NOMEM. */
hl_status_t hl_agg_bloom_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                uint32_t r, hl_error_t *err);
hl_status_t hl_agg_bloom_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                               hl_error_t *err);
hl_status_t hl_agg_bloom_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                               hl_arena_t *arena);

/* ds_kll_sketch / ds_kll_union (op_agg_ds_kll.c): row R of ARG into the
 * state (a value, or a sketch's bytes merged: 22023 when they are not
 * one); S merged into D after D's own (a copy when D has none); the bytes,
 * NULL when no value came; as state-row bytes and back.  HL_NOMEM. */
hl_status_t hl_agg_kll_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                              uint32_t r, hl_error_t *err);
hl_status_t hl_agg_kll_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err);
hl_status_t hl_agg_kll_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena);
void hl_agg_kll_save(const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_kll_load(agg_rd_t *r, hl_arena_t *arena, agg_state_t *st);
/* ds_theta_sketch / _union / _intersect (op_agg_ds_theta.c): row R of
 * ARG into the state (made at the first non-NULL value); S's result merged
 * into D; the sketch's bytes in ARENA (NULL without a value: HL_NOMEM only);
 * the state as those bytes and back (HL_CORRUPT, HL_NOMEM). */
hl_status_t hl_agg_ds_theta_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st,
                                   const hl_vec_t *arg, uint32_t r, hl_error_t *err);
hl_status_t hl_agg_ds_theta_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d,
                                  const agg_state_t *s, hl_error_t *err);
hl_status_t hl_agg_ds_theta_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                  hl_arena_t *arena);
void hl_agg_ds_theta_save(const hl_agg_t *ag, const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_ds_theta_load(agg_rd_t *r, const hl_agg_t *ag, hl_arena_t *arena,
                                 agg_state_t *st);
/* ds_hll_sketch / ds_hll_union (op_agg_ds_hll.c): row R of ARG into the
 * state (a unit's partial); S's partial into D's union (D becomes the
 * union of partials); the compact bytes of getResult(type), in ARENA
 * (NULL when no value came); the spill form.  HL_NOMEM, or 22023 for a
 * bad sketch. */
hl_status_t hl_agg_dshll_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                uint32_t r, hl_error_t *err);
hl_status_t hl_agg_dshll_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                               hl_error_t *err);
hl_status_t hl_agg_dshll_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                               hl_arena_t *arena);
void hl_agg_dshll_save(const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_dshll_load(agg_rd_t *r, const hl_agg_t *ag, hl_arena_t *arena, agg_state_t *st);
/* ds_quantile_doubles_sketch / _union (op_agg_ds_quantiles.c): row R of
 * ARG into the union; S's sketch into D's (DoublesUnion.update); the
 * compact bytes, in ARENA (NULL when no value came).  HL_NOMEM, 22023. */
hl_status_t hl_agg_dsq_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                              uint32_t r, hl_error_t *err);
hl_status_t hl_agg_dsq_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                             hl_error_t *err);
hl_status_t hl_agg_dsq_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena);
void hl_agg_dsq_save(const agg_state_t *st, hl_buf_t *out);
hl_status_t hl_agg_dsq_load(agg_rd_t *r, hl_arena_t *arena, agg_state_t *st);

/* approx_distinct's register index bits (GenericUDAFApproximateDistinct) */
#define HL_AGG_APPROX_P 12

/* Hive's approx_distinct (op_agg_approx.c): row R of ARG into the state;
 * S merged into D after D's own rows; the count.  HL_NOMEM. */
hl_status_t hl_agg_approx_update(agg_t *a, agg_state_t *st, const hl_vec_t *arg, uint32_t r,
                                 hl_error_t *err);
hl_status_t hl_agg_approx_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err);
hl_status_t hl_agg_approx_final(const agg_state_t *st, hl_value_t *out);

/* grouping(c, ...) / GROUPING__ID of a group (op_agg_grouping.c): the
 * state holds its grouping set + 1 (0: the empty set's group made when no
 * row came). */
int64_t hl_agg_grouping_final(const hl_plan_t *plan, const hl_agg_t *ag, const agg_state_t *st);

/* The parallel driver (op_agg_par.c): runs the pipelines and fills A's
 * groups; frees what it holds. */
hl_status_t hl_agg_par_run(hl_agg_par_t *par, agg_t *a, hl_error_t *err);
void hl_agg_par_free(hl_agg_par_t *par);
/* Lets the parallel aggregation of operator A spill to SPILL (partitions
 * of the result frozen past their share, op_agg_spill.c).  HL_NOMEM. */
hl_status_t hl_agg_par_set_spill(hl_agg_par_t *par, agg_t *a, hl_spill_t *spill, hl_error_t *err);
/* Names every table of PAR WHAT in the 53200 of its budget. */
void hl_agg_par_set_what(hl_agg_par_t *par, const char *what);

#endif
