/*
 * op_agg_spill.c -- hash aggregation past its share of the memory limit:
 * hybrid hash aggregation over spill files (spill.h).
 *
 * While the table is below hl_spill_share() every row is aggregated in
 * memory.  When it reaches the share the table is frozen: from then on a
 * row whose group is already in memory is still aggregated there, and a
 * row of any other group is written, unchanged (the child's columns), to
 * one of HL_GRACE_PARTS spill files chosen by a hash of its group values.
 * A group absent at the freeze had no row before it, so every group's
 * rows are aggregated in exactly one place, in their arrival order: its
 * states are updated by the same operations in the same order as in
 * memory, and every aggregate -- DOUBLE sums bit for bit, collect_list's
 * order, DISTINCT, percentiles -- gives the in-memory answer.
 *
 * Once the groups in memory are out, the table is emptied and becomes the
 * aggregation of one spilled partition (its rows read back in order),
 * which may freeze and cut its new groups again with another hash seed,
 * one level deeper, up to AGG_SPILL_LEVELS; beyond, the partition stays in
 * memory (a 53200 saying so if it does not fit).  Partitions go depth
 * first (a stack), so few files wait; the output order (memory first,
 * then partition 0, 1, ... each recursively) depends only on the input.
 *
 * Grouping sets (one thread): a row feeds one group per set, some of them
 * in memory and some not, so what spills is a (row, set) pair: the row,
 * with the set's number in a column after the child's, goes to the file
 * of that set's group's hash (the key op_agg.c groups by: the set, then
 * the values with the columns the set does not group NULL), and its
 * replay aggregates it into that set's group only.  Each group still gets
 * all its rows in one place in arrival order; the () set's group (the
 * grand total) is a group like the others, and no empty one is made when
 * it spilled.
 *
 * The parallel aggregation (op_agg_par.c) merges units' partial tables
 * into partitions of the result in unit order; there the rows are gone, so
 * a frozen partition writes the unit's *state* of each group it does not
 * hold, as a state row (op_agg_state.c: only the bytes its aggregates
 * use), to the operator's spill files, in its merge order (a group lives
 * in one partition, so the partitions' interleaving does not matter).
 * This first cut of state rows is AGG_WIDE (256) files, not
 * HL_GRACE_PARTS, so that a replayed file usually fits and its states are
 * not cut and written a second time; its files buffer less each.  Replaying a file merges the
 * states in that order into an empty table -- the very merges, in the very order, that the
 * partition would have made in memory -- and may freeze and cut again.  Once any partition spilled,
 * the groups in memory follow as their merged states (merging one into an empty table copies it),
 * so each file holds every group of its hash whatever the threads did, and a replayed file's groups
 * come out in the order a cut at every deeper level would give: the same output at every thread
 * count.  A DISTINCT aggregate's merged state cannot be written (its value set is the table's), so
 * with one the partitions keep their groups in memory and write files of their own.  A worker whose
 * merges are exact (one table for all its units) hands its table over to the merge whenever it
 * passes a share of its own.
 *
 * Eviction (state rows only): a frozen table whose groups' states still
 * grow (collect_list, percentile, the structures: hl_agg_spill_grows) is
 * watched at every merged group; past its share it writes every group as
 * its whole state (a state row flagged so, op_agg_state.c) to the file of
 * the group's hash and empties itself, still frozen: the group is no
 * longer known, so its later states follow its state row into that file,
 * and the replay restores the state (histogram_numeric's generator too)
 * then merges the rest -- the very merges, in the very order, of memory.
 * A replay's lone group is not evicted (it would meet itself one level
 * deeper); neither are a DISTINCT aggregate's groups (as above) nor one
 * thread's, whose files hold input rows: their 53200 says so.
 *
 * The replay evaluates the group and argument expressions again, which is
 * why a stateful expression (rand(), row_sequence()) does not spill; nor
 * does an ungrouped aggregation (one group).  Spill files belong
 * to the statement's hl_spill_t: closed here on every path, their
 * directory removed with the statement.
 */
#include "exec/op_agg_int.h"

#include "util/hashmap.h"
#include "util/mem.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* AGG_WIDE: the fan-out of the first cut of state rows (a parallel
 * aggregation), HL_GRACE_PARTS of the deeper ones and of input rows (one
 * thread).  The first cut is wide so that its files fit in memory when
 * replayed, one level for inputs up to AGG_WIDE times the share instead
 * of 16 times (20M distinct keys under 256MB: each replayed file cut and
 * written a second time with 16): a file's write buffer only fills to
 * spill.c's 256 KiB once its share of the states does, and a file is
 * only made for a partition that gets a row. */
enum { AGG_SPILL_LEVELS = 4, AGG_WIDE = 256 };

typedef struct pending {
  hl_spill_file_t *f;
  int level;
} pending_t;

struct agg_spill {
  hl_spill_t *spill;
  uint64_t share;             /* freeze past this many bytes */
  agg_state_layout_t *layout; /* state rows (parallel), NULL: input rows */
  bool own_layout;
  hl_batch_t *out; /* state rows to write (staged: hl_agg_spill_states) */
  bool stage;
  hl_arena_t *rd; /* decoded state rows */
  /* the partitions of a parallel aggregation write into the operator's
   * files (DEST; else itself), one thread at a time (DEST's MU) */
  agg_spill_t *dest;
  pthread_mutex_t mu;
  bool has_mu;
  int level;            /* of the table being filled: 0 the input, L a partition cut L times */
  bool frozen;          /* new groups go to files[] */
  uint64_t freeze_held; /* the table's bytes when it froze */
  hl_spill_file_t *files[AGG_WIDE];
  /* a batch's rows to write and their partitions (n_cand of them), then
   * by partition: rows[start[p] .. start[p + 1]) (bucket()) */
  uint32_t *cand, *rows; /* [HL_BATCH_CAP] */
  uint16_t *cand_part;   /* [HL_BATCH_CAP] */
  uint32_t *start;       /* [AGG_WIDE + 1] */
  uint32_t n_cand;
  int n_cols; /* the child's columns (known at the first spilled row) */
  const hl_type_t **types;
  pending_t *stack; /* partitions waiting, the next last */
  size_t n_stack, cap_stack;
  hl_batch_t *in;    /* rows read back */
  uint32_t *cut_sel; /* [2][HL_BATCH_CAP]: the two parts of a batch cut at the freeze */
  hl_buf_t key;
};

/* The number of partitions of a cut to LEVEL. */
static int fanout(const agg_spill_t *sp, int level) {
  return sp->layout && level <= 1 ? AGG_WIDE : HL_GRACE_PARTS;
}

/* A new file of a cut to LEVEL: the files of a wide cut buffer as much
 * together as the HL_GRACE_PARTS of a narrow one. */
static hl_status_t part_file(const agg_spill_t *sp, int level, hl_spill_file_t **f,
                             hl_error_t *err) {
  hl_status_t rc = hl_spill_file_create(sp->spill, f, err);
  if (rc == HL_OK && fanout(sp, level) > HL_GRACE_PARTS)
    hl_spill_file_set_chunk(*f, (256u << 10) / (uint32_t)(fanout(sp, level) / HL_GRACE_PARTS));
  return rc;
}

/* The partition at LEVEL of a group whose key bytes hash to H. */
static int level_part(const agg_spill_t *sp, uint64_t h, int level) {
  return (int)(hl_hash_mix64(h ^ (0x9e3779b97f4a7c15ull * (uint64_t)level)) %
               (uint64_t)fanout(sp, level));
}

/* Why PLAN's aggregation cannot spill, NULL when it can. */
static const char *no_spill_reason(const hl_plan_t *plan) {
  if (plan->n_group == 0) return "the aggregation (one group, which cannot spill)";
  for (int g = 0; g < plan->n_group; g++)
    if (hl_expr_is_stateful(plan->group_exprs[g]))
      return "the aggregation (a stateful expression such as rand() does not spill)";
  for (int k = 0; k < plan->n_aggs; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    if ((ag->arg && hl_expr_is_stateful(ag->arg)) || (ag->arg2 && hl_expr_is_stateful(ag->arg2)))
      return "the aggregation (a stateful expression such as rand() does not spill)";
  }
  return NULL;
}

hl_status_t hl_op_agg_set_spill(hl_op_t *op, hl_spill_t *spill, hl_error_t *err) {
  agg_t *a = (agg_t *)op;
  if (!spill || a->sp) return HL_OK;
  const char *why = no_spill_reason(a->plan);
  if (why) {
    a->what = why;
    if (a->par) hl_agg_par_set_what(a->par, why);
    return HL_OK;
  }
  if (a->par) return hl_agg_par_set_spill(a->par, a, spill, err);
  agg_spill_t *sp = hl_calloc(1, sizeof(*sp));
  if (!sp) return hl_err_nomem(err);
  sp->spill = spill;
  sp->share = hl_spill_share(spill);
  hl_buf_init(&sp->key);
  a->sp = sp;
  return HL_OK;
}

hl_status_t hl_agg_spill_states_init(agg_t *a, hl_spill_t *spill, uint64_t share, agg_t *dest,
                                     hl_error_t *err) {
  agg_spill_t *sp = hl_calloc(1, sizeof(*sp));
  if (!sp) return hl_err_nomem(err);
  hl_buf_init(&sp->key);
  a->sp = sp;
  sp->spill = spill;
  sp->share = share;
  sp->dest = dest ? dest->sp : sp;
  if (!dest) sp->has_mu = pthread_mutex_init(&sp->mu, NULL) == 0;
  if (!dest && !sp->has_mu) return hl_err_nomem(err);
  sp->own_layout = !dest;
  sp->layout = dest ? dest->sp->layout : hl_agg_state_layout(a->plan, err);
  if (!sp->layout) return err->code;
  sp->n_cols = hl_agg_state_cols(sp->layout);
  return HL_OK; /* the buffers of writing come with the first spill */
}

bool hl_agg_spill_flushable(const hl_plan_t *plan) {
  /* a DISTINCT aggregate's merged state keeps its value set in a map of
   * the table, not in the state: only a unit's state can be written */
  for (int k = 0; k < plan->n_aggs; k++)
    if (plan->aggs[k].distinct && plan->aggs[k].kind != HL_AGG_COUNT_STAR) return false;
  return true;
}

bool hl_agg_spill_any(const agg_t *a) {
  for (int p = 0; p < AGG_WIDE; p++)
    if (a->sp->files[p]) return true;
  return false;
}

static hl_status_t drain(agg_spill_t *sp, hl_error_t *err);

hl_status_t hl_agg_spill_flush(agg_t *t, hl_error_t *err) {
  uint32_t *gs = hl_malloc(sizeof(uint32_t) * HL_BATCH_CAP);
  if (!gs) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  for (size_t g0 = 0; g0 < t->n_groups && rc == HL_OK; g0 += HL_BATCH_CAP) {
    uint32_t n = (uint32_t)(t->n_groups - g0 < HL_BATCH_CAP ? t->n_groups - g0 : HL_BATCH_CAP);
    for (uint32_t i = 0; i < n; i++)
      gs[i] = (uint32_t)(g0 + i);
    rc = hl_agg_spill_states(t, t, gs, n, err);
  }
  hl_free(gs);
  if (rc == HL_OK) rc = drain(t->sp, err);
  /* an eviction comes in the middle of a merge, whose vectors are in the
   * table's scratch: the scratch is kept */
  bool own = t->own_scratch;
  t->own_scratch = false;
  if (rc == HL_OK) rc = hl_agg_table_reset(t, err);
  t->own_scratch = own;
  return rc;
}

/* A group's place in a replayed partition's output, and its index. */
typedef struct first_idx {
  uint32_t parts; /* its partitions at the levels below */
  uint64_t pos;   /* its first row */
  size_t idx;
} first_idx_t;

static int cmp_first(const void *x, const void *y) {
  const first_idx_t *a = x, *b = y;
  if (a->parts != b->parts) return a->parts < b->parts ? -1 : 1;
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Puts the groups of A (a replayed file of state rows) in the order they
 * would come out if A had been cut at every level below (by partition at
 * each deeper level, then first row): whether a replay is cut depends on
 * the order threads wrote its states in, its output order does not --
 * the same at every thread count and in every run. */
static hl_status_t order_by_first(agg_t *a, hl_error_t *err) {
  size_t n = a->n_groups, ng = (size_t)a->plan->n_group, na = (size_t)a->plan->n_aggs;
  if (n < 2) return HL_OK;
  first_idx_t *order = hl_malloc(sizeof(first_idx_t) * n);
  hl_value_t *gv = hl_malloc(sizeof(hl_value_t) * n * ng + 1);
  agg_state_t *st = hl_malloc(sizeof(agg_state_t) * n * na + 1);
  uint64_t *fp = hl_malloc(sizeof(uint64_t) * n);
  if (!order || !gv || !st || !fp) {
    hl_free(order);
    hl_free(gv);
    hl_free(st);
    hl_free(fp);
    return hl_err_nomem(err);
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t parts = 0;
    hl_buf_reset(&a->sp->key);
    for (size_t c = 0; c < ng; c++)
      hl_value_key_append(&a->sp->key, a->plan->group_exprs[c]->type, &a->group_vals[i * ng + c]);
    uint64_t h = hl_hash_bytes(a->sp->key.data ? a->sp->key.data : "", a->sp->key.len);
    for (int l = a->sp->level + 1; l < AGG_SPILL_LEVELS; l++)
      parts = parts * (uint32_t)fanout(a->sp, l) + (uint32_t)level_part(a->sp, h, l);
    order[i] = (first_idx_t){parts, a->first_pos[i], i};
  }
  if (a->sp->key.oom) {
    hl_free(order);
    hl_free(gv);
    hl_free(st);
    hl_free(fp);
    return hl_err_nomem(err);
  }
  qsort(order, n, sizeof *order, cmp_first);
  for (size_t k = 0; k < n; k++) {
    size_t i = order[k].idx;
    memcpy(&gv[k * ng], &a->group_vals[i * ng], sizeof(hl_value_t) * ng);
    memcpy(&st[k * na], &a->states[i * na], sizeof(agg_state_t) * na);
    fp[k] = a->first_pos[i];
  }
  hl_free(order);
  hl_free(a->group_vals);
  hl_free(a->states);
  hl_free(a->first_pos);
  /* the maps still name the old numbers: the table is only read from here */
  a->group_vals = gv;
  a->states = st;
  a->first_pos = fp;
  a->cap_groups = n;
  return HL_OK;
}

void hl_agg_spill_free(agg_spill_t *sp) {
  if (!sp) return;
  for (int p = 0; p < AGG_WIDE; p++)
    hl_spill_file_close(sp->files[p]);
  for (size_t i = 0; i < sp->n_stack; i++)
    hl_spill_file_close(sp->stack[i].f);
  hl_free(sp->stack);
  hl_free(sp->cand);
  hl_free(sp->rows);
  hl_free(sp->cand_part);
  hl_free(sp->start);
  hl_free(sp->cut_sel);
  hl_free(sp->types);
  if (sp->has_mu) pthread_mutex_destroy(&sp->mu);
  if (sp->own_layout) hl_agg_state_layout_free(sp->layout);
  hl_batch_destroy(sp->out);
  hl_arena_destroy(sp->rd);
  hl_batch_destroy(sp->in);
  hl_buf_fini(&sp->key);
  hl_free(sp);
}

/* The partition of row R at level LEVEL: a hash of the same bytes for
 * equal group values (NULL included, so a NULL key is one group in one
 * partition). */
static int part_of(agg_spill_t *sp, int level, const hl_vec_t *gvecs, int ng, uint32_t r) {
  hl_buf_reset(&sp->key);
  for (int g = 0; g < ng; g++) {
    hl_value_t v;
    hl_vec_get_value(&gvecs[g], r, &v);
    hl_value_key_append(&sp->key, gvecs[g].type, &v);
  }
  return level_part(sp, hl_hash_bytes(sp->key.data ? sp->key.data : "", sp->key.len), level);
}

/* The arrays that cut a batch by partition.  HL_NOMEM. */
static hl_status_t cut_arrays(agg_spill_t *sp, hl_error_t *err) {
  if (sp->cand) return HL_OK;
  sp->cand = hl_malloc(sizeof(uint32_t) * HL_BATCH_CAP);
  sp->rows = hl_malloc(sizeof(uint32_t) * HL_BATCH_CAP);
  sp->cand_part = hl_malloc(sizeof(uint16_t) * HL_BATCH_CAP);
  sp->start = hl_malloc(sizeof(uint32_t) * (AGG_WIDE + 1));
  if (sp->cand && sp->rows && sp->cand_part && sp->start) return HL_OK;
  hl_free(sp->cand);
  sp->cand = NULL;
  return hl_err_nomem(err);
}

/* Row R of the batch goes to partition P. */
static void add_cand(agg_spill_t *sp, uint32_t r, int p) {
  sp->cand[sp->n_cand] = r;
  sp->cand_part[sp->n_cand++] = (uint16_t)p;
}

/* The candidates by partition, each partition's in their order (a
 * counting sort): rows[start[p] .. start[p + 1]). */
static void bucket(agg_spill_t *sp) {
  memset(sp->start, 0, sizeof(uint32_t) * (AGG_WIDE + 1));
  for (uint32_t i = 0; i < sp->n_cand; i++)
    sp->start[sp->cand_part[i] + 1]++;
  for (int p = 0; p < AGG_WIDE; p++)
    sp->start[p + 1] += sp->start[p];
  for (uint32_t i = 0; i < sp->n_cand; i++)
    sp->rows[sp->start[sp->cand_part[i]]++] = sp->cand[i];
  /* each start moved to the next one's: shift back */
  for (int p = AGG_WIDE; p > 0; p--)
    sp->start[p] = sp->start[p - 1];
  sp->start[0] = 0;
}

/* Remembers the child's column types (the spilled rows' layout). */
static hl_status_t learn_types(agg_spill_t *sp, const hl_batch_t *b, hl_error_t *err) {
  if (sp->types) return HL_OK;
  sp->types = hl_malloc(sizeof(hl_type_t *) * (size_t)(b->n_cols + 1));
  if (!sp->types) return hl_err_nomem(err);
  if (cut_arrays(sp, err) != HL_OK) return err->code;
  sp->n_cols = b->n_cols;
  for (int c = 0; c < b->n_cols; c++)
    sp->types[c] = b->cols[c].type;
  return HL_OK;
}

uint32_t hl_agg_spill_freeze_at(agg_t *a, uint32_t n, uint64_t held) {
  agg_spill_t *sp = a->sp;
  if (sp->frozen) return 0;
  /* a group costs what groups cost so far, at least its state and value
   * arrays, twice over while the arrays double; as many rows (or merged
   * groups) as may all be new groups within the share stay in memory, the
   * table freezes after them */
  int ng = a->plan->n_group, na = a->plan->n_aggs;
  uint64_t per_group =
      sizeof(agg_state_t) * (uint64_t)(na + 1) + sizeof(hl_value_t) * (uint64_t)(ng + 1) + 32;
  if (a->n_groups && held / a->n_groups > per_group) per_group = held / a->n_groups;
  uint64_t room = held < sp->share ? (sp->share - held) / (2 * per_group) : 0;
  sp->freeze_held = held;
  if (n <= room) return n;
  if (sp->level + 1 >= AGG_SPILL_LEVELS) {
    a->what = "the aggregation (a partition still too large after 4 levels of spilling)";
    return n;
  }
  return (uint32_t)room;
}

void hl_agg_spill_freeze(agg_t *a) {
  if (a->sp->level + 1 >= AGG_SPILL_LEVELS) return;
  a->sp->frozen = true;
  /* groups whose states grow are evicted where their states can be
   * written and followed in their file; not otherwise */
  if (!a->sp->layout)
    a->what = "the aggregation (its groups kept in memory while the others spill: one thread's "
              "groups, of a UNION ALL or grouping sets, are not evicted)";
  else if (!hl_agg_spill_flushable(a->plan))
    a->what = "the aggregation (its groups kept in memory while the others spill: a DISTINCT "
              "aggregate's groups are not evicted)";
  else
    a->what = "the aggregation (its groups kept in memory while the others spill)";
}

/* Appends the candidate rows of B to the files of their partitions. */
static hl_status_t write_parts(agg_spill_t *sp, const hl_batch_t *b, hl_error_t *err) {
  hl_status_t rc = HL_OK;
  bucket(sp);
  for (int p = 0; p < AGG_WIDE && rc == HL_OK; p++) {
    uint32_t n = sp->start[p + 1] - sp->start[p];
    if (!n) continue;
    if (!sp->files[p]) rc = part_file(sp, sp->level + 1, &sp->files[p], err);
    if (rc == HL_OK) rc = hl_spill_write(sp->files[p], b, sp->rows + sp->start[p], n, err);
  }
  return rc;
}

bool hl_agg_spill_grows(const agg_t *a) {
  if (!a->sp->layout || !hl_agg_spill_flushable(a->plan)) return false;
  for (int k = 0; k < a->plan->n_aggs; k++) {
    const hl_agg_t *ag = &a->plan->aggs[k];
    switch (ag->kind) {
    case HL_AGG_COUNT_STAR:
    case HL_AGG_COUNT:
    case HL_AGG_GROUPING:
    case HL_AGG_SUM:
    case HL_AGG_AVG:
    case HL_AGG_VAR_POP:
    case HL_AGG_VAR_SAMP:
    case HL_AGG_STDDEV_POP:
    case HL_AGG_STDDEV_SAMP:
      continue;
    case HL_AGG_MIN:
    case HL_AGG_MAX: /* a string's best copies each better one */
      if (hl_type_phys(ag->arg->type) == HL_P_STR || hl_type_phys(ag->arg->type) == HL_P_VALUE)
        return true;
      continue;
    default:
      if (ag->kind >= HL_AGG_CORR) continue; /* the pair statistics */
      return true;
    }
  }
  return false;
}

bool hl_agg_spill_frozen(const agg_t *a) {
  return a->sp->frozen;
}

bool hl_agg_spill_evict_due(const agg_t *a, uint64_t held) {
  const agg_spill_t *sp = a->sp;
  /* a partition of the parallel merge has a part of the share, its files
   * are replayed with all of it; a replay's lone group would only meet
   * itself again one level deeper */
  bool part = sp->dest != sp;
  return sp->layout && sp->frozen && held > sp->share && held > sp->freeze_held &&
         (a->n_groups > 1 || (part && a->n_groups == 1)) && hl_agg_spill_flushable(a->plan);
}

/* Writes SP's staged state rows to the files of their partitions (DEST's
 * files, locked once: most writes only append to a file's buffer). */
static hl_status_t drain(agg_spill_t *sp, hl_error_t *err) {
  if (!sp->out || !sp->out->n_rows) return HL_OK;
  bucket(sp);
  agg_spill_t *dest = sp->dest;
  hl_status_t rc = HL_OK;
  pthread_mutex_lock(&dest->mu);
  for (int q = 0; q < AGG_WIDE && rc == HL_OK; q++) {
    uint32_t m = sp->start[q + 1] - sp->start[q];
    if (m) rc = hl_spill_write(dest->files[q], sp->out, sp->rows + sp->start[q], m, err);
  }
  pthread_mutex_unlock(&dest->mu);
  sp->out->n_rows = 0;
  sp->n_cand = 0;
  return rc;
}

hl_status_t hl_agg_spill_states(agg_t *d, const agg_t *p, const uint32_t *gs, uint32_t n,
                                hl_error_t *err) {
  agg_spill_t *sp = d->sp;
  if (!sp->out) {
    if (cut_arrays(sp, err) != HL_OK) return err->code;
    if (!(sp->out = hl_batch_create(sp->n_cols, hl_agg_state_types(sp->layout))))
      return hl_err_nomem(err);
    /* the state rows of one call are a few per partition of the wide
     * cut: they are staged in OUT until it is full, so that a file's
     * blocks are larger -- unless a column holds complex values (group
     * keys, kept items), which OUT borrows from P, whose table goes on */
    sp->stage = true;
    for (int c = 0; c < sp->n_cols; c++)
      if (hl_type_phys(hl_agg_state_types(sp->layout)[c]) == HL_P_VALUE) sp->stage = false;
  }
  size_t ng = (size_t)d->plan->n_group;
  agg_spill_t *dest = sp->dest;
  hl_status_t rc = HL_OK;
  for (uint32_t i0 = 0; i0 < n && rc == HL_OK;) {
    uint32_t base = sp->out->n_rows, m = n - i0;
    if (m > HL_BATCH_CAP - base) m = HL_BATCH_CAP - base;
    if (m == 0) {
      rc = drain(sp, err);
      continue;
    }
    /* a table's own groups (hl_agg_spill_flush) are whole states */
    if ((rc = hl_agg_state_encode(p, sp->layout, gs + i0, m, d == p, sp->out, err)) != HL_OK)
      return rc;
    /* the partition from the group's values as the table holds them (the
     * same key bytes as a row's: part_of) */
    for (uint32_t i = 0; i < m; i++) {
      hl_buf_reset(&sp->key);
      for (size_t c = 0; c < ng; c++)
        hl_value_key_append(&sp->key, d->plan->group_exprs[c]->type,
                            &p->group_vals[gs[i0 + i] * ng + c]);
      add_cand(sp, base + i,
               level_part(sp, hl_hash_bytes(sp->key.data ? sp->key.data : "", sp->key.len),
                          sp->level + 1));
    }
    if (sp->key.oom) return hl_err_nomem(err);
    /* every partition with a row has its file now, so that
     * hl_agg_spill_any sees staged rows */
    pthread_mutex_lock(&dest->mu);
    for (uint32_t i = base; i < base + m && rc == HL_OK; i++) {
      int q = sp->cand_part[i];
      if (!dest->files[q]) rc = part_file(sp, sp->level + 1, &dest->files[q], err);
    }
    pthread_mutex_unlock(&dest->mu);
    i0 += m;
    if (rc == HL_OK && (!sp->stage || sp->out->n_rows == HL_BATCH_CAP)) rc = drain(sp, err);
  }
  return rc;
}

/* With grouping sets (A frozen): the (row, set) pairs of B whose group is
 * not in memory go to the spill file of their group's hash, the row
 * tagged with the set in a column after the child's (a replayed row has
 * it already and is only its set's); a->set_skip marks them.  The pairs
 * are written set by set, so a file holds each group's rows in their
 * order. */
static hl_status_t split_sets(agg_t *a, const hl_batch_t *b, const hl_vec_t *gvecs,
                              hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  int n_sets = a->plan->n_grouping_sets, ng = a->plan->n_group;
  uint32_t live = hl_batch_live(b);
  uint8_t *skip = hl_arena_zalloc(a->scratch, (size_t)live * (size_t)n_sets + 1);
  hl_value_t *vals = hl_arena_alloc(a->scratch, sizeof(hl_value_t) * (size_t)(ng + 1));
  if (!skip || !vals) return hl_err_nomem(err);
  hl_batch_t tagged = *b;
  int64_t *tag = NULL;
  if (!a->set_tagged) {
    tagged.n_cols = b->n_cols + 1;
    tagged.cols = hl_arena_alloc(a->scratch, sizeof(hl_vec_t) * (size_t)tagged.n_cols);
    if (!tagged.cols) return hl_err_nomem(err);
    memcpy(tagged.cols, b->cols, sizeof(hl_vec_t) * (size_t)b->n_cols);
    if (hl_vec_alloc(&tagged.cols[b->n_cols], hl_type_prim(HL_T_BIGINT), a->scratch) != HL_OK)
      return hl_err_nomem(err);
    tag = HL_VEC_I64(&tagged.cols[b->n_cols]);
  }
  hl_status_t rc = learn_types(sp, &tagged, err);
  for (int s = 0; s < n_sets && rc == HL_OK; s++) {
    sp->n_cand = 0;
    for (uint32_t i = 0; i < live; i++) {
      uint32_t r = hl_batch_row(b, i);
      if (tag)
        tag[r] = s;
      else if (HL_VEC_I64(&b->cols[a->set_col])[r] != s)
        continue;
      uint64_t h;
      if (hl_agg_set_group_known(a, gvecs, r, s, vals, &h)) continue;
      add_cand(sp, r, level_part(sp, h, sp->level + 1));
      skip[(size_t)i * (size_t)n_sets + (size_t)s] = 1;
    }
    if (a->key.oom) return hl_err_nomem(err);
    rc = write_parts(sp, &tagged, err);
  }
  a->set_skip = skip;
  return rc;
}

hl_status_t hl_agg_spill_split(agg_t *a, const hl_batch_t **bp, hl_batch_t *view,
                               const hl_vec_t *gvecs, uint64_t held, uint32_t *cut,
                               hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  const hl_batch_t *b = *bp;
  *cut = 0;
  if (!sp->frozen) {
    /* an input row of grouping sets may make a group per set */
    uint64_t per_row = a->plan->n_grouping_sets && !a->set_tagged ? a->plan->n_grouping_sets : 1;
    uint32_t live = hl_batch_live(b), n = (uint32_t)(live * per_row);
    uint32_t at = hl_agg_spill_freeze_at(a, n, held);
    if (at == n) return HL_OK;
    if (at / per_row > 0) {
      *cut = (uint32_t)(at / per_row);
      return HL_OK;
    }
    hl_agg_spill_freeze(a);
  }
  if (a->plan->n_grouping_sets) return split_sets(a, b, gvecs, err);
  hl_status_t rc = learn_types(sp, b, err);
  if (rc != HL_OK) return rc;
  uint32_t live = hl_batch_live(b);
  uint32_t *keep = hl_arena_alloc(a->scratch, sizeof(uint32_t) * (live ? live : 1));
  if (!keep) return hl_err_nomem(err);
  uint32_t n_keep = 0;
  int ng = a->plan->n_group;
  sp->n_cand = 0;
  for (uint32_t i = 0; i < live; i++) {
    uint32_t r = hl_batch_row(b, i);
    if (hl_agg_group_known(a, gvecs, r)) {
      keep[n_keep++] = r;
      continue;
    }
    add_cand(sp, r, part_of(sp, sp->level + 1, gvecs, ng, r));
  }
  if (sp->key.oom) return hl_err_nomem(err);
  if ((rc = write_parts(sp, b, err)) != HL_OK) return rc;
  if (n_keep == live) return HL_OK;
  *view = *b;
  view->sel = keep;
  view->n_sel = n_keep;
  *bp = view;
  return HL_OK;
}

hl_status_t hl_agg_spill_cut(agg_t *a, const hl_batch_t *b, uint32_t cut, agg_bufs_t *bufs,
                             hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  uint32_t live = hl_batch_live(b);
  if (!sp->cut_sel && !(sp->cut_sel = hl_malloc(sizeof(uint32_t) * 2 * HL_BATCH_CAP)))
    return hl_err_nomem(err);
  hl_batch_t pre = *b, post = *b;
  pre.sel = sp->cut_sel;
  post.sel = sp->cut_sel + HL_BATCH_CAP;
  pre.n_sel = cut;
  post.n_sel = live - cut;
  for (uint32_t i = 0; i < live; i++)
    sp->cut_sel[i < cut ? i : HL_BATCH_CAP + i - cut] = hl_batch_row(b, i);
  hl_status_t rc = hl_agg_consume_batch(a, &pre, bufs, err);
  if (rc != HL_OK) return rc;
  /* the rest of the batch after the freeze, its groups looked up in a
   * table that has the first part's */
  hl_agg_spill_freeze(a);
  return hl_agg_consume_batch(a, &post, bufs, err);
}

hl_status_t hl_agg_spill_end(agg_t *a, hl_error_t *err) {
  return hl_agg_spill_hand_over(a, a, err);
}

bool hl_agg_spill_waiting(const agg_t *a) {
  return a->sp->n_stack > 0;
}

hl_status_t hl_agg_spill_hand_over(agg_t *from, agg_t *to, hl_error_t *err) {
  agg_spill_t *sp = to->sp, *fs = from->sp;
  if (!fs) return HL_OK;
  hl_status_t rc = drain(fs, err); /* before its files are read */
  if (rc != HL_OK) return rc;
  fs->frozen = false;
  /* pushed last partition first: partition 0 comes out next */
  for (int p = AGG_WIDE - 1; p >= 0; p--) {
    if (!fs->files[p]) continue;
    if (sp->n_stack == sp->cap_stack) {
      size_t cap = sp->cap_stack ? sp->cap_stack * 2 : 32;
      pending_t *ns = hl_realloc(sp->stack, sizeof(pending_t) * cap);
      if (!ns) return hl_err_nomem(err);
      sp->stack = ns;
      sp->cap_stack = cap;
    }
    /* flushed now: a waiting file holds no buffer */
    rc = hl_spill_rewind(fs->files[p], err);
    if (rc != HL_OK) return rc;
    sp->stack[sp->n_stack++] = (pending_t){fs->files[p], fs->level + 1};
    fs->files[p] = NULL;
  }
  return HL_OK;
}

hl_status_t hl_agg_spill_next(agg_t *a, bool *more, hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  *more = false;
  if (sp->n_stack == 0) return HL_OK;
  pending_t next = sp->stack[--sp->n_stack];
  hl_status_t rc = hl_agg_table_reset(a, err);
  const hl_type_t *const *types =
      sp->layout ? hl_agg_state_types(sp->layout) : (const hl_type_t *const *)sp->types;
  if (rc == HL_OK && !sp->in && !(sp->in = hl_batch_create(sp->n_cols, types)))
    rc = hl_err_nomem(err);
  if (rc == HL_OK && sp->layout && !sp->rd && !(sp->rd = hl_arena_create(0)))
    rc = hl_err_nomem(err);
  agg_bufs_t bufs;
  if (rc == HL_OK) rc = hl_agg_bufs_init(a->plan, a->arena, &bufs, err);
  sp->level = next.level;
  /* grouping sets: each row was written for one set, in the last column */
  a->set_tagged = a->plan->n_grouping_sets > 0;
  a->set_col = sp->n_cols - 1;
  a->what = "the aggregation";
  a->consumed = true;
  while (rc == HL_OK) {
    if ((rc = hl_budget_check_cancel(a->budget, err)) != HL_OK) break;
    if ((rc = hl_spill_read(next.f, sp->in, err)) != HL_OK || sp->in->n_rows == 0) break;
    if (!sp->layout) {
      rc = hl_agg_consume_batch(a, sp->in, &bufs, err);
      continue;
    }
    /* a unit's states, merged in the order the partition would have */
    agg_t units;
    memset(&units, 0, sizeof units);
    hl_arena_reset(sp->rd);
    rc = hl_agg_state_decode(a->plan, sp->layout, sp->in, sp->rd, &units, err);
    if (rc == HL_OK) rc = hl_agg_merge(a, &units, NULL, units.n_groups, a->scratch, err);
  }
  hl_spill_file_close(next.f);
  /* a replay that spilled again writes its groups after the others, so
   * that each file deeper holds every group of its hash (the same set
   * whatever the threads did), or emits them in first-row order */
  if (rc == HL_OK && sp->layout && hl_agg_spill_any(a) && hl_agg_spill_flushable(a->plan))
    rc = hl_agg_spill_flush(a, err);
  else if (rc == HL_OK && sp->layout)
    rc = order_by_first(a, err);
  if (rc == HL_OK) rc = hl_agg_spill_end(a, err);
  a->consumed = true; /* a flush empties the table, which is no new input */
  if (rc == HL_OK) *more = true;
  return rc;
}
