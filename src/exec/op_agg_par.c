/*
 * op_agg_par.c -- the parallel aggregation: every thread runs its own
 * pipeline (a scan of its share of the table, maybe a join probe and a
 * filter) and aggregates it; the partial tables are merged so that the
 * answer is a function of the data, never of the thread schedule.
 *
 * Units.  The unit of work is the scan's: a file, or a row group (Avro: a
 * piece) of a file large enough to be shared (op_scan.c numbers them in
 * one sequence, the unit ordinals).  A worker reads its units in ordinal
 * order.  When every aggregate merges exactly (hl_agg_merge_exact: counts,
 * integer and decimal sums, min/max of non-floating values) a worker
 * aggregates all its units into one table; otherwise it aggregates each
 * unit into a table of its own (rows in row order), and the unit tables are
 * merged into the result in unit order.  The scan makes the same units
 * with one thread (hl_op_scan_set_units) as with many, and a single thread
 * runs this same code, so a DOUBLE sum is ((u0 + u1) + u2) ... of its
 * units' sums at every thread count, bit for bit; collect_list, DISTINCT
 * and percentile take their units' values in unit order, which is the
 * order of one thread's read.
 *
 * Order.  A unit table waits in its worker's queue until no worker can
 * still produce an earlier unit: each worker publishes a bound (the
 * ordinal of the unit it holds, else how far its scan got, through
 * hl_op_scan_on_file), and the smallest queued unit moves to the ready
 * list once every other worker's bound is past it.  A worker has at most
 * AHEAD tables queued or ready and one in hand: a worker that runs ahead
 * waits (merging meanwhile), so the tables not yet merged are bounded by
 * threads x (AHEAD + 1).  There is no deadlock: when every worker waits,
 * the smallest queued unit is behind every bound, so it is ready.
 *
 * Partitions.  The result is N_PARTS tables, a group's partition chosen by
 * the hash of its values; a submitted unit table lists its groups by
 * partition, and any thread merges any partition not being merged by
 * another, taking the ready units in order, so a high-cardinality GROUP BY
 * merges on every thread (one thread, or no GROUP BY: one partition).  A
 * unit table merged by every partition is emptied at once by the thread
 * that merged it last, and goes back to its worker.  At the end the
 * partitions' groups are gathered in the order of their first rows (unit
 * ordinal, row), the order one thread meets them in.  Each worker has one
 * scratch arena, lent to its tables and used by its merges.
 *
 * Spilling (op_agg_spill.c): a partition whose table passes its share of
 * the memory limit freezes; the units' states of groups it does not hold
 * go, in its merge order, to the operator's spill files (or its own when a
 * DISTINCT aggregate keeps merged states from being written), which the
 * operator merges after the groups in memory.  A worker whose merges are
 * exact hands its one table over whenever it passes a share of its own.
 */
#include "exec/op_agg_int.h"

#include "util/mem.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { AHEAD = 2 }; /* unit tables a worker may have waiting for their merge */

typedef struct unit {
  agg_t *t;        /* the unit's table */
  size_t ordinal;  /* its unit (exact merges: the worker's first) */
  uint32_t *order; /* its groups by partition (N_PARTS > 1), in t's arena */
  size_t *start;   /* [n_parts + 1]: partition q is order[start[q] .. start[q + 1]) */
  int pending;     /* partitions still to merge it */
  bool in_use;     /* taken, queued or ready (under the mutex) */
  bool dirty;      /* to be reset before its next use */
} unit_t;

typedef struct pworker {
  hl_agg_par_t *pa;
  hl_op_t *child; /* the worker's pipeline (owned) */
  hl_op_t *scan;  /* the scan at its bottom */
  pthread_t thread;
  bool started;
  unit_t pool[AHEAD + 1];
  unit_t *cur; /* the table being filled (the worker's alone) */
  /* under the mutex: */
  unit_t *queue[AHEAD + 1]; /* submitted, in unit order */
  int q_head, q_n;
  size_t progress; /* no unit below this is still to come from this worker */
  size_t holding;  /* cur's unit while cur holds rows, else SIZE_MAX */
  bool done;
  /* the worker's own: */
  hl_status_t rc;
  hl_error_t err;
  hl_arena_t *arena;   /* bufs */
  hl_arena_t *scratch; /* per batch, lent to the worker's tables; for its merges */
  agg_bufs_t bufs;
  unit_t **freed;     /* merge_some's scratch: units it frees (ready_cap) */
  size_t pos_unit;    /* unit of the last batch */
  uint64_t unit_rows; /* rows of the unit before the current batch */
} pworker_t;

struct hl_agg_par {
  const hl_plan_t *plan;
  bool ordered; /* units merged in unit order (not hl_agg_merge_exact) */
  int n;
  pworker_t *w;
  int n_parts;
  agg_t **parts;   /* the result's partitions */
  bool *part_busy; /* a thread is merging into it */
  size_t *merged;  /* ready units merged into it (sequence numbers) */
  unit_t **ready;  /* ring: unit of sequence s at s % ready_cap */
  size_t ready_cap, ready_tail;
  pthread_mutex_t mu;
  pthread_cond_t cv; /* a unit queued, merged or freed; a bound moved; a failure */
  int waiting;       /* threads in pthread_cond_wait */
  atomic_bool failed;
  hl_status_t rc; /* the first failure */
  hl_error_t err;
  hl_status_t (*prepare)(hl_op_t *, hl_error_t *);
  hl_op_t *prepare_op;
  bool sync_ready;
  uint64_t unit_share; /* spilling: bytes a worker's exact table may hold (0: no limit) */
};

static void wake(hl_agg_par_t *pa) {
  if (pa->waiting) pthread_cond_broadcast(&pa->cv);
}

static void wait_cv(hl_agg_par_t *pa) {
  pa->waiting++;
  pthread_cond_wait(&pa->cv, &pa->mu);
  pa->waiting--;
}

/* Records the first failure (mutex held); every thread stops. */
static void fail(hl_agg_par_t *pa, hl_status_t rc, hl_error_t *err) {
  if (!atomic_load(&pa->failed)) {
    pa->rc = rc;
    hl_err_move(&pa->err, err);
  }
  hl_err_clear(err);
  atomic_store(&pa->failed, true);
  wake(pa);
}

/* No unit below this is still to come from worker W (mutex held). */
static size_t bound(const pworker_t *w) {
  return w->done ? SIZE_MAX : w->holding != SIZE_MAX ? w->holding : w->progress;
}

/* Moves the queued units whose turn it is to the ready list (mutex held). */
static void promote(hl_agg_par_t *pa) {
  for (;;) {
    int best = -1;
    size_t m = SIZE_MAX;
    for (int y = 0; y < pa->n; y++) {
      pworker_t *w = &pa->w[y];
      if (w->q_n && (best < 0 || w->queue[w->q_head]->ordinal < m)) {
        best = y;
        m = w->queue[w->q_head]->ordinal;
      }
    }
    if (best < 0) return;
    if (pa->ordered)
      for (int y = 0; y < pa->n; y++)
        if (y != best && !pa->w[y].q_n && bound(&pa->w[y]) <= m) return;
    pworker_t *w = &pa->w[best];
    unit_t *u = w->queue[w->q_head];
    w->q_head = (w->q_head + 1) % (AHEAD + 1);
    w->q_n--;
    u->pending = pa->n_parts;
    pa->ready[pa->ready_tail % pa->ready_cap] = u;
    pa->ready_tail++;
  }
}

/* The first table of the result over one partition takes the unit's
 * table itself instead of merging it (the same states: merging into an
 * empty table copies them), unless DISTINCT values are kept as items. */
static bool adopt(hl_agg_par_t *pa, unit_t *u) {
  if (pa->n_parts != 1 || pa->parts[0]->n_groups) return false;
  /* emptied by an eviction: its groups are in spill files, where their
   * later states must follow them */
  if (pa->parts[0]->sp && hl_agg_spill_frozen(pa->parts[0])) return false;
  /* nor histogram_numeric's: a merge's target starts a generator of its
   * own (Hive's), where the unit's has drawn for its ties */
  for (int k = 0; k < pa->plan->n_aggs; k++)
    if (pa->plan->aggs[k].distinct || pa->plan->aggs[k].kind == HL_AGG_HISTOGRAM) return false;
  agg_t *t = pa->parts[0];
  pa->parts[0] = u->t;
  u->t = t;
  /* the scratch stays with the unit's slot: the pointers move, not the memory */
  u->t->scratch = pa->parts[0]->scratch;
  pa->parts[0]->scratch = NULL;
  /* and so do a partition's spilling and budget name (an empty partition
   * holds no spill file yet) */
  agg_spill_t *sp = u->t->sp;
  const char *what = u->t->what;
  u->t->sp = pa->parts[0]->sp;
  u->t->what = pa->parts[0]->what;
  pa->parts[0]->sp = sp;
  pa->parts[0]->what = what;
  pa->parts[0]->unit_items = false;
  u->t->unit_items = true;
  return true;
}

/* Merges the ready units into one partition no other thread is merging
 * (mutex held; released while merging), for worker W.  False: there was
 * none. */
static bool merge_some(hl_agg_par_t *pa, pworker_t *w) {
  promote(pa);
  for (int q = 0; q < pa->n_parts; q++) {
    if (pa->part_busy[q] || pa->merged[q] == pa->ready_tail) continue;
    pa->part_busy[q] = true;
    size_t s0 = pa->merged[q], s1 = pa->ready_tail;
    pthread_mutex_unlock(&pa->mu);
    hl_error_t err;
    hl_err_init(&err);
    hl_status_t rc = HL_OK;
    for (size_t s = s0; s < s1 && rc == HL_OK && !atomic_load(&pa->failed); s++) {
      unit_t *u = pa->ready[s % pa->ready_cap];
      size_t n = u->order ? u->start[q + 1] - u->start[q] : u->t->n_groups;
      if (n && !adopt(pa, u))
        rc = hl_agg_merge(pa->parts[q], u->t, u->order ? u->order + u->start[q] : NULL, n,
                          w->scratch, &err);
    }
    pthread_mutex_lock(&pa->mu);
    if (rc != HL_OK) fail(pa, rc, &err);
    /* the units merged by every partition now: no thread reads them any
     * more, and their owners wait for in_use; their memory goes first */
    size_t n_free = 0;
    for (size_t s = s0; s < s1; s++) {
      unit_t *u = pa->ready[s % pa->ready_cap];
      if (--u->pending == 0) pa->ready[s % pa->ready_cap] = NULL, w->freed[n_free++] = u;
    }
    pa->merged[q] = s1;
    pa->part_busy[q] = false;
    pthread_mutex_unlock(&pa->mu);
    for (size_t i = 0; i < n_free; i++) {
      unit_t *u = w->freed[i];
      u->dirty = hl_agg_table_reset(u->t, &err) != HL_OK; /* else the owner tries again */
      hl_err_clear(&err);
    }
    pthread_mutex_lock(&pa->mu);
    for (size_t i = 0; i < n_free; i++)
      w->freed[i]->in_use = false;
    wake(pa);
    return true;
  }
  return false;
}

/* Lists the groups of W's current table by partition (the worker's
 * thread, before submitting).  HL_NOMEM. */
static hl_status_t partition(hl_agg_par_t *pa, unit_t *u, hl_error_t *err) {
  u->order = NULL;
  u->start = NULL;
  if (pa->n_parts == 1) return HL_OK;
  agg_t *t = u->t;
  size_t n = t->n_groups, np = (size_t)pa->n_parts;
  u->start = hl_arena_zalloc(t->arena, sizeof(size_t) * (np + 1));
  u->order = hl_arena_alloc(t->arena, sizeof(uint32_t) * (n ? n : 1));
  uint32_t *part = hl_arena_alloc(t->scratch, sizeof(uint32_t) * (n ? n : 1));
  size_t *at = hl_arena_alloc(t->scratch, sizeof(size_t) * np);
  if (!u->start || !u->order || !part || !at) return hl_err_nomem(err);
  for (size_t g = 0; g < n; g++) {
    uint64_t h = hl_agg_group_hash(t, g);
    part[g] = (uint32_t)(((h >> 32) * np) >> 32);
    u->start[part[g] + 1]++;
  }
  for (size_t q = 0; q < np; q++)
    u->start[q + 1] += u->start[q];
  memcpy(at, u->start, sizeof(size_t) * np);
  for (size_t g = 0; g < n; g++)
    u->order[at[part[g]]++] = (uint32_t)g;
  return HL_OK;
}

/* Queues W's current table for its merge (the worker's thread). */
static hl_status_t submit(pworker_t *w, hl_error_t *err) {
  hl_agg_par_t *pa = w->pa;
  unit_t *u = w->cur;
  hl_status_t rc = partition(pa, u, err);
  if (rc != HL_OK) return rc;
  u->dirty = true;
  w->cur = NULL;
  pthread_mutex_lock(&pa->mu);
  w->queue[(w->q_head + w->q_n) % (AHEAD + 1)] = u;
  w->q_n++;
  w->holding = SIZE_MAX;
  promote(pa);
  wake(pa);
  pthread_mutex_unlock(&pa->mu);
  return HL_OK;
}

/* A free table of W's for unit ORDINAL, waiting (and merging) while all
 * are queued.  NULL: the aggregation failed. */
static unit_t *take_unit(pworker_t *w, size_t ordinal) {
  hl_agg_par_t *pa = w->pa;
  unit_t *u = NULL;
  pthread_mutex_lock(&pa->mu);
  while (!u && !atomic_load(&pa->failed)) {
    for (int i = 0; i <= AHEAD && !u; i++)
      if (!w->pool[i].in_use) u = &w->pool[i];
    if (u) break;
    if (!merge_some(pa, w)) wait_cv(pa);
  }
  if (u) {
    u->in_use = true;
    w->holding = ordinal;
  }
  pthread_mutex_unlock(&pa->mu);
  if (u && u->dirty) {
    hl_error_t err;
    hl_err_init(&err);
    hl_status_t rc = hl_agg_table_reset(u->t, &err);
    u->dirty = false;
    if (rc != HL_OK) {
      pthread_mutex_lock(&pa->mu);
      u->in_use = false;
      w->holding = SIZE_MAX;
      fail(pa, rc, &err);
      pthread_mutex_unlock(&pa->mu);
      return NULL;
    }
  }
  if (u) u->ordinal = ordinal;
  return u;
}

/* hl_op_scan_on_file: W's scan reached unit ORDINAL.  A unit table whose
 * unit is behind it is complete: it is submitted now rather than at the
 * next batch, which may be far (files of other workers, filtered rows). */
static void on_file(void *ctx, size_t ordinal) {
  pworker_t *w = ctx;
  hl_agg_par_t *pa = w->pa;
  if (pa->ordered && w->cur && w->cur->t->n_groups && ordinal > w->cur->ordinal) {
    hl_error_t err;
    hl_err_init(&err);
    if (submit(w, &err) != HL_OK) hl_err_clear(&err); /* no memory: submitted later */
  }
  pthread_mutex_lock(&pa->mu);
  if (ordinal > w->progress) {
    w->progress = ordinal;
    wake(pa);
  }
  pthread_mutex_unlock(&pa->mu);
}

/* Reads W's pipeline into unit tables. */
static hl_status_t worker_read(pworker_t *w) {
  hl_agg_par_t *pa = w->pa;
  hl_status_t rc = HL_OK;
  while (!atomic_load(&pa->failed)) {
    hl_batch_t *b;
    if ((rc = w->child->next(w->child, &b, &w->err)) != HL_OK || !b) break;
    size_t u = hl_op_scan_current_file(w->scan);
    if (u != w->pos_unit) {
      if (pa->ordered && w->cur && w->cur->t->n_groups && (rc = submit(w, &w->err)) != HL_OK) break;
      w->pos_unit = u;
      w->unit_rows = 0;
      pthread_mutex_lock(&pa->mu);
      if (u > w->progress) w->progress = u;
      if (w->cur && pa->ordered) w->holding = w->cur->ordinal = u; /* it holds no rows */
      wake(pa);
      pthread_mutex_unlock(&pa->mu);
    }
    if (!w->cur && !(w->cur = take_unit(w, u))) break;
    agg_t *t = w->cur->t;
    t->pos_base = ((uint64_t)u << 40) + w->unit_rows;
    w->unit_rows += b->n_rows;
    if ((rc = hl_agg_consume_batch(t, b, &w->bufs, &w->err)) != HL_OK) break;
    /* exact merges, one table for all the worker's units: past its share
     * it goes to the merge now, as if its units ended here (any split of
     * exact states merges to the same answer) */
    if (!pa->ordered && pa->unit_share && t->charged >= pa->unit_share) {
      if ((rc = submit(w, &w->err)) != HL_OK) break;
      /* and merged now, so that few such tables wait: the partitions
       * spill, unit tables cannot */
      pthread_mutex_lock(&pa->mu);
      while (!atomic_load(&pa->failed) && merge_some(pa, w)) {
      }
      pthread_mutex_unlock(&pa->mu);
    }
  }
  if (rc == HL_OK && w->cur && w->cur->t->n_groups && !atomic_load(&pa->failed))
    rc = submit(w, &w->err);
  return rc;
}

/* Whether every unit is read and merged (mutex held). */
static bool finished(const hl_agg_par_t *pa) {
  for (int y = 0; y < pa->n; y++)
    if (!pa->w[y].done || pa->w[y].q_n) return false;
  for (int q = 0; q < pa->n_parts; q++)
    if (pa->merged[q] != pa->ready_tail) return false;
  return true;
}

static void *worker_main(void *arg) {
  pworker_t *w = arg;
  hl_agg_par_t *pa = w->pa;
  hl_status_t rc = worker_read(w);
  pthread_mutex_lock(&pa->mu);
  w->done = true;
  w->holding = SIZE_MAX;
  if (rc != HL_OK) fail(pa, rc, &w->err);
  wake(pa);
  /* then help merge until the last unit is in */
  while (!atomic_load(&pa->failed) && !finished(pa))
    if (!merge_some(pa, w)) wait_cv(pa);
  pthread_mutex_unlock(&pa->mu);
  return NULL;
}

/* A group's first row (unit ordinal << 40 | row) and where it is. */
typedef struct pos_idx {
  uint64_t pos;
  size_t idx;
} pos_idx_t;

static int cmp_pos(const void *x, const void *y) {
  const pos_idx_t *a = x, *b = y;
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The partitions' groups become A's, in the order of their first rows
 * (one partition has them in that order already: its units came in unit
 * order, each unit's groups in the order of their first rows). */
static hl_status_t gather(hl_agg_par_t *pa, agg_t *a, hl_error_t *err) {
  const hl_plan_t *plan = pa->plan;
  size_t ng = (size_t)plan->n_group, na = (size_t)plan->n_aggs, total = 0;
  if (pa->n_parts == 1) { /* its arrays move; it stays charged for them */
    agg_t *p = pa->parts[0];
    a->group_vals = p->group_vals;
    a->states = p->states;
    a->first_pos = p->first_pos;
    a->n_groups = p->n_groups;
    a->cap_groups = p->cap_groups;
    p->group_vals = NULL;
    p->states = NULL;
    p->first_pos = NULL;
    p->n_groups = p->cap_groups = 0;
    return HL_OK;
  }
  for (int q = 0; q < pa->n_parts; q++)
    total += pa->parts[q]->n_groups;
  if (total == 0) return HL_OK;
  /* the groups by first row, each named by partition << 40 | index */
  pos_idx_t *order = hl_malloc(sizeof(pos_idx_t) * total);
  if (!order) return hl_err_nomem(err);
  size_t at = 0;
  for (int q = 0; q < pa->n_parts; q++)
    for (size_t i = 0; i < pa->parts[q]->n_groups; i++)
      order[at++] = (pos_idx_t){pa->parts[q]->first_pos[i], (size_t)q << 40 | i};
  qsort(order, total, sizeof *order, cmp_pos); /* positions are distinct */
  a->group_vals = hl_malloc(sizeof(hl_value_t) * total * ng + 1);
  a->states = hl_malloc(sizeof(agg_state_t) * total * na + 1);
  hl_status_t rc = a->group_vals && a->states ? HL_OK : hl_err_nomem(err);
  if (rc == HL_OK)
    rc = hl_budget_track(a->budget, &a->charged,
                         total * (sizeof(hl_value_t) * ng + sizeof(agg_state_t) * na),
                         "the aggregation", err);
  for (size_t k = 0; k < total && rc == HL_OK; k++) {
    const agg_t *p = pa->parts[order[k].idx >> 40];
    size_t i = order[k].idx & (((size_t)1 << 40) - 1);
    memcpy(&a->group_vals[k * ng], &p->group_vals[i * ng], sizeof(hl_value_t) * ng);
    memcpy(&a->states[k * na], &p->states[i * na], sizeof(agg_state_t) * na);
  }
  hl_free(order);
  if (rc != HL_OK) return rc;
  a->n_groups = a->cap_groups = total;
  for (int q = 0; q < pa->n_parts; q++) { /* values and strings stay in its arena until close */
    agg_t *p = pa->parts[q];
    hl_free(p->group_vals);
    hl_free(p->states);
    p->group_vals = NULL;
    p->states = NULL;
    p->n_groups = p->cap_groups = 0;
  }
  return HL_OK;
}

hl_status_t hl_agg_par_run(hl_agg_par_t *pa, agg_t *a, hl_error_t *err) {
  if (pa->prepare) {
    hl_status_t rc = pa->prepare(pa->prepare_op, err);
    if (rc != HL_OK) return rc;
  }
  if (pa->n == 1) {
    worker_main(&pa->w[0]); /* one thread: this one */
  } else {
    for (int i = 0; i < pa->n && !atomic_load(&pa->failed); i++) {
      pa->w[i].started = pthread_create(&pa->w[i].thread, NULL, worker_main, &pa->w[i]) == 0;
      if (!pa->w[i].started) {
        hl_error_t e;
        hl_err_init(&e);
        hl_err_set(&e, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                   "could not start an aggregation thread");
        pthread_mutex_lock(&pa->mu);
        fail(pa, HL_ERROR, &e);
        pthread_mutex_unlock(&pa->mu);
      }
    }
    for (int i = 0; i < pa->n; i++)
      if (pa->w[i].started) pthread_join(pa->w[i].thread, NULL);
  }
  if (atomic_load(&pa->failed)) {
    hl_err_move(err, &pa->err);
    return pa->rc;
  }
  /* partitions that spilled wrote into the operator's files: then the
   * groups in memory go there too (when their states can), so that each
   * file holds every group of its hash whatever the number of threads or
   * their schedule, and the operator replays the files (op_agg_spill.c) */
  if (a->sp && hl_agg_spill_any(a) && hl_agg_spill_flushable(pa->plan))
    for (int q = 0; q < pa->n_parts; q++) {
      hl_status_t rc = hl_agg_spill_flush(pa->parts[q], err);
      if (rc != HL_OK) return rc;
    }
  /* else (DISTINCT) each partition wrote files of its own, in its merge
   * order: they wait in the operator's stack, partition 0's on top */
  for (int q = pa->n_parts - 1; q >= 0 && a->sp; q--) {
    hl_status_t rc = hl_agg_spill_hand_over(pa->parts[q], a, err);
    if (rc != HL_OK) return rc;
  }
  return gather(pa, a, err);
}

void hl_agg_par_set_what(hl_agg_par_t *pa, const char *what) {
  for (int i = 0; i < pa->n; i++)
    for (int k = 0; k <= AHEAD; k++)
      pa->w[i].pool[k].t->what = what;
  for (int q = 0; q < pa->n_parts; q++)
    pa->parts[q]->what = what;
}

hl_status_t hl_agg_par_set_spill(hl_agg_par_t *pa, agg_t *a, hl_spill_t *spill, hl_error_t *err) {
  /* the result's partitions share the share (writing into the operator's
   * files when their merged states can be written too, else their own:
   * a file then holds one partition's states in its merge order); the
   * operator replays the
   * spilled partitions one at a time, with all of it; the unit tables of
   * workers whose merges are exact are handed over at an eighth of a
   * partition's share at most */
  uint64_t share = hl_spill_share(spill);
  hl_status_t rc = hl_agg_spill_states_init(a, spill, share, NULL, err);
  uint64_t part_share = share / (uint64_t)pa->n_parts;
  for (int q = 0; q < pa->n_parts && rc == HL_OK; q++)
    rc = hl_agg_spill_states_init(pa->parts[q], spill, part_share,
                                  hl_agg_spill_flushable(pa->plan) ? a : NULL, err);
  if (rc != HL_OK) return rc;
  if (!pa->ordered) {
    pa->unit_share = share / (8 * (uint64_t)pa->n * (AHEAD + 1));
    if (pa->unit_share < 64 * 1024) pa->unit_share = 64 * 1024;
    for (int i = 0; i < pa->n; i++)
      for (int k = 0; k <= AHEAD; k++)
        pa->w[i].pool[k].t->what = "the aggregation (a thread's groups of one input batch, "
                                   "which do not spill)";
  }
  /* a unit's table in unit order cannot be cut: its states merge as one */
  for (int i = 0; pa->ordered && i < pa->n; i++)
    for (int k = 0; k <= AHEAD; k++)
      pa->w[i].pool[k].t->what =
          "the aggregation (the groups of one unit of work -- a file or row group -- which do not "
          "spill)";
  return HL_OK;
}

void hl_agg_par_free(hl_agg_par_t *pa) {
  if (!pa->sync_ready) return;
  for (int i = 0; i < pa->n; i++) {
    pworker_t *w = &pa->w[i];
    if (w->child) w->child->close(w->child);
    w->child = NULL;
    for (int k = 0; k <= AHEAD; k++)
      hl_agg_table_free(w->pool[k].t);
    hl_arena_destroy(w->arena);
    hl_arena_destroy(w->scratch);
    hl_err_clear(&w->err);
  }
  for (int q = 0; q < pa->n_parts; q++)
    hl_agg_table_free(pa->parts[q]);
  hl_err_clear(&pa->err);
  pthread_cond_destroy(&pa->cv);
  pthread_mutex_destroy(&pa->mu);
  pa->sync_ready = false;
}

/* The parts of PA; false on OOM (ERR set). */
static bool par_init(hl_agg_par_t *pa, const hl_plan_t *plan, hl_op_t **children, hl_op_t **scans,
                     int n, hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err) {
  pa->plan = plan;
  pa->ordered = !hl_agg_merge_exact(plan);
  pa->n = n;
  pa->n_parts = plan->n_group == 0 || n == 1 ? 1 : 4 * n;
  pa->ready_cap = (size_t)n * (AHEAD + 1) + 1;
  pa->w = hl_arena_zalloc(arena, sizeof(pworker_t) * (size_t)n);
  pa->parts = hl_arena_zalloc(arena, sizeof(agg_t *) * (size_t)pa->n_parts);
  pa->part_busy = hl_arena_zalloc(arena, sizeof(bool) * (size_t)pa->n_parts);
  pa->merged = hl_arena_zalloc(arena, sizeof(size_t) * (size_t)pa->n_parts);
  pa->ready = hl_arena_zalloc(arena, sizeof(unit_t *) * pa->ready_cap);
  if (!pa->w || !pa->parts || !pa->part_busy || !pa->merged || !pa->ready) {
    for (int i = 0; i < n; i++)
      children[i]->close(children[i]);
    return hl_err_nomem(err), false;
  }
  for (int i = 0; i < n; i++) { /* the workers own their pipelines from here on */
    pa->w[i].child = children[i];
    hl_err_init(&pa->w[i].err);
  }
  bool ok = true;
  for (int i = 0; i < n; i++) {
    pworker_t *w = &pa->w[i];
    w->pa = pa;
    w->scan = scans[i];
    w->holding = SIZE_MAX;
    w->pos_unit = SIZE_MAX;
    hl_op_scan_on_file(w->scan, on_file, w);
    w->arena = hl_arena_create(0);
    w->scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(arena));
    w->freed = w->arena ? hl_arena_alloc(w->arena, sizeof(unit_t *) * pa->ready_cap) : NULL;
    ok = ok && w->freed && w->scratch && hl_agg_bufs_init(plan, w->arena, &w->bufs, err) == HL_OK;
    for (int k = 0; ok && k <= AHEAD; k++) {
      agg_t *t = w->pool[k].t = hl_agg_table_new(plan, budget, false, arena, err);
      ok = t != NULL;
      if (t) {
        t->track_pos = t->unit_items = true;
        t->scratch = w->scratch;
      }
    }
  }
  for (int q = 0; ok && q < pa->n_parts; q++) {
    agg_t *t = pa->parts[q] = hl_agg_table_new(plan, budget, false, arena, err);
    ok = t != NULL;
    if (t) t->track_pos = true;
  }
  if (!ok && !err->code) hl_err_nomem(err);
  return ok;
}

hl_op_t *hl_op_agg_parallel_create(const hl_plan_t *plan, hl_op_t **children, hl_op_t **scans,
                                   int n, hl_status_t (*prepare)(hl_op_t *, hl_error_t *),
                                   hl_op_t *prepare_op, hl_budget_t *budget, hl_arena_t *arena,
                                   hl_error_t *err) {
  agg_t *a = hl_agg_table_new(plan, budget, true, arena, err);
  hl_agg_par_t *pa = a ? hl_arena_zalloc(arena, sizeof(*pa)) : NULL;
  if (!pa) {
    if (a) hl_err_nomem(err);
    hl_agg_table_free(a);
    for (int i = 0; i < n; i++)
      children[i]->close(children[i]);
    return NULL;
  }
  pthread_mutex_init(&pa->mu, NULL);
  pthread_cond_init(&pa->cv, NULL);
  hl_err_init(&pa->err);
  atomic_init(&pa->failed, false);
  pa->sync_ready = true;
  pa->prepare = prepare;
  pa->prepare_op = prepare_op;
  a->par = pa;
  a->track_pos = true;
  bool ok = par_init(pa, plan, children, scans, n, budget, arena, err);
  if (!ok) {
    if (!pa->w) pa->n = 0; /* the children are closed */
    hl_agg_table_free(a);
    return NULL;
  }
  return &a->op;
}
