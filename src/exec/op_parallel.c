/*
 * op_parallel.c -- a table scan read by several threads.
 *
 * Files are the unit of work: worker w runs its own scan (and the pushed
 * filter) over the files whose ordinal is w modulo the number of workers,
 * so decoding and filtering run in parallel.  The ordinals are over one
 * file list: every worker's scan reads the statement's snapshot
 * (snapshot.h), so each file is one worker's, exactly once.  Each worker copies its
 * batches (live rows only) into a ring of QUEUE batches it hands over, so
 * it reads ahead while the consumer works instead of waiting for every
 * batch to be released.  A string column with a dictionary view (Parquet
 * dictionary pages) stays one: the handed batch owns a dictionary of the
 * entries its rows use, each entry's bytes copied once, and its rows
 * point into it (copy_dict), so the operators above still work once per
 * entry and repeated strings are not copied per row.  The consumer takes batches in file order --
 * file 0 from worker 0, file 1 from worker 1, ... -- which makes the output exactly the
 * single-threaded scan's, order included.  A worker also tells which file it has reached, so that
 * the consumer passes over files that gave no batch without waiting for the worker's next batch
 * (else a selective filter makes the workers take turns: one waits with a full ring while the
 * consumer waits for the other's next batch).
 *
 * Under a LIMIT (hl_op_parallel_scan_set_limit) reading ahead would open
 * files the result does not need, so a worker lists a partition or opens a
 * file only when it is needed for certain: the consumer is waiting for it
 * (every file before it gave fewer rows than the LIMIT), or accurate
 * partition statistics bound the rows before it below the LIMIT (then the
 * workers still read in parallel).
 */
#include "vector/expr.h"
#include "exec/ops.h"
#include "util/mem.h"

#include <pthread.h>
#include <string.h>

#define QUEUE 4

typedef struct pscan pscan_t;

/* A worker's scratch for copy_dict: per entry of the source dictionary,
 * its number in the copy, valid where stamp[e] == gen (no clearing per
 * batch). */
typedef struct dict_map {
  uint32_t *stamp, *to;
  uint32_t *used; /* the source entries in copy order */
  size_t cap;
  uint32_t gen;
} dict_map_t;

typedef struct worker {
  pscan_t *ps;
  pthread_t thread;
  bool started;
  hl_op_t *scan;  /* the worker's scan (with the pushed filter) */
  hl_error_t err; /* the worker's error, handed to the consumer */
  hl_status_t rc;
  /* ring of handed-over batches: ring[(head + i) % QUEUE], i < count */
  hl_batch_t *ring[QUEUE];
  size_t files[QUEUE]; /* their file ordinals */
  int head, count;
  pthread_cond_t space; /* signalled when the consumer frees a slot */
  bool cond_ready;
  bool done;
  size_t progress; /* every file before this ordinal is done (hl_op_scan_on_file) */
  dict_map_t dm;
} worker_t;

struct pscan {
  hl_op_t op;
  int n;
  worker_t *w;
  pthread_mutex_t mu;
  pthread_cond_t cv; /* signalled when a worker hands over or finishes */
  bool stop;
  bool started;
  size_t want;           /* file ordinal the consumer needs next */
  uint64_t limit;        /* rows the consumer takes at most; 0: all */
  pthread_cond_t wanted; /* broadcast when want moves or the scan stops */
  worker_t *held;        /* worker whose batch the consumer holds */
  hl_snap_t *own_snap;   /* the workers' snapshot when none was given */
};

/* Copies the live rows LIVE of string vector SV (a dictionary view, in
 * SRC) into DV with a dictionary of its own in ARENA: the entries the
 * valid rows use, in first-use order, bytes copied once each.  False: no
 * valid row (the caller copies plainly), or no memory (*OOM). */
static bool copy_dict(dict_map_t *dm, hl_vec_t *dv, const hl_vec_t *sv, const hl_batch_t *src,
                      uint32_t live, hl_arena_t *arena, bool *oom) {
  if (sv->dict_n > dm->cap) {
    size_t cap = dm->cap ? dm->cap : 1024;
    while (cap < sv->dict_n)
      cap *= 2;
    hl_free(dm->stamp);
    hl_free(dm->to);
    hl_free(dm->used);
    dm->stamp = hl_calloc(cap, sizeof(uint32_t));
    dm->to = hl_malloc(sizeof(uint32_t) * cap);
    dm->used = hl_malloc(sizeof(uint32_t) * (cap < HL_BATCH_CAP ? cap : HL_BATCH_CAP));
    dm->cap = dm->stamp && dm->to && dm->used ? cap : 0;
    dm->gen = 0;
    if (!dm->cap) return *oom = true, false;
  }
  if (++dm->gen == 0) { /* wrapped: every stamp is stale again */
    memset(dm->stamp, 0, sizeof(uint32_t) * dm->cap);
    dm->gen = 1;
  }
  uint32_t *idx = hl_arena_alloc(arena, sizeof(uint32_t) * (live ? live : 1));
  if (!idx) return *oom = true, false;
  uint32_t n = 0;
  size_t bytes = 0;
  for (uint32_t i = 0; i < live; i++) {
    uint32_t r = hl_batch_row(src, i);
    if (hl_vec_is_null(sv, r)) continue;
    uint32_t e = sv->dict_idx[r];
    if (dm->stamp[e] != dm->gen) {
      dm->stamp[e] = dm->gen;
      dm->to[e] = n;
      dm->used[n++] = e;
      bytes += sv->dict[e].len;
    }
    idx[i] = dm->to[e];
  }
  if (n == 0) return false;
  hl_str_t *ent = hl_arena_alloc(arena, sizeof(hl_str_t) * n);
  char *p = hl_arena_alloc(arena, bytes ? bytes : 1);
  if (!ent || !p) return *oom = true, false;
  for (uint32_t k = 0; k < n; k++) {
    hl_str_t x = sv->dict[dm->used[k]];
    if (x.len) memcpy(p, x.ptr, x.len);
    ent[k] = (hl_str_t){x.len ? p : "", x.len};
    p += x.len;
  }
  hl_str_t *out = HL_VEC_STR(dv);
  for (uint32_t i = 0; i < live; i++) {
    if (hl_vec_is_null(dv, i)) { /* a NULL row holds entry 0, an empty string */
      idx[i] = 0;
      out[i] = (hl_str_t){"", 0};
    } else {
      out[i] = ent[idx[i]];
    }
  }
  dv->dict = ent;
  dv->dict_idx = idx;
  dv->dict_n = n;
  return true;
}

/* Copies the live rows of SRC into DST (a batch of the same columns):
 * DST owns everything it points to, so SRC's operators may move on. */
static hl_status_t copy_batch(hl_batch_t *dst, const hl_batch_t *src, dict_map_t *dm) {
  if (hl_batch_reset(dst) != HL_OK) return HL_NOMEM;
  uint32_t live = hl_batch_live(src);
  for (int c = 0; c < src->n_cols; c++) {
    const hl_vec_t *sv = &src->cols[c];
    hl_vec_t *dv = &dst->cols[c];
    if (sv->validity) {
      if (!(dv->validity = hl_arena_alloc(dst->arena, HL_BATCH_CAP / 8))) return HL_NOMEM;
      if (!src->sel) {
        memcpy(dv->validity, sv->validity, HL_BATCH_CAP / 8);
      } else {
        memset(dv->validity, 0xff, HL_BATCH_CAP / 8);
        for (uint32_t i = 0; i < live; i++)
          if (hl_vec_is_null(sv, hl_batch_row(src, i)))
            dv->validity[i >> 6] &= ~((uint64_t)1 << (i & 63));
      }
      /* a column the query does not read is all NULL: no data to copy */
      bool any = false;
      for (uint32_t k = 0; k < (live + 63) / 64 && !any; k++)
        any = (dv->validity[k] &
               (k == live / 64 ? ((uint64_t)1 << (live & 63)) - 1 : ~(uint64_t)0)) != 0;
      if (!any) continue;
    }
    switch (hl_type_phys(sv->type)) {
#define COPY(T)                                                                                    \
  for (uint32_t i = 0; i < live; i++)                                                              \
    ((T *)dv->data)[i] = ((const T *)sv->data)[hl_batch_row(src, i)];                              \
  break
    case HL_P_BOOL:
      COPY(uint8_t);
    case HL_P_I64:
      COPY(int64_t);
    case HL_P_F64:
      COPY(double);
    case HL_P_I128:
      COPY(__int128);
#undef COPY
    case HL_P_STR: {
      bool oom = false;
      if (sv->dict && sv->dict_idx && copy_dict(dm, dv, sv, src, live, dst->arena, &oom)) break;
      if (oom) return HL_NOMEM;
      size_t total = 0;
      for (uint32_t i = 0; i < live; i++)
        total += HL_VEC_STR(sv)[hl_batch_row(src, i)].len;
      char *p = hl_arena_alloc(dst->arena, total ? total : 1);
      if (!p) return HL_NOMEM;
      for (uint32_t i = 0; i < live; i++) {
        hl_str_t x = HL_VEC_STR(sv)[hl_batch_row(src, i)];
        if (x.len) memcpy(p, x.ptr, x.len);
        HL_VEC_STR(dv)[i].ptr = p;
        HL_VEC_STR(dv)[i].len = x.len;
        p += x.len;
      }
      break;
    }
    case HL_P_VALUE:
      for (uint32_t i = 0; i < live; i++) {
        const hl_value_t *x = HL_VEC_VALUE(sv)[hl_batch_row(src, i)];
        hl_value_t *y = NULL;
        if (x) {
          if (!(y = hl_arena_alloc(dst->arena, sizeof *y)) ||
              hl_value_copy_deep(dst->arena, sv->type, x, y) != HL_OK)
            return HL_NOMEM;
        }
        HL_VEC_VALUE(dv)[i] = y;
      }
      break;
    }
  }
  dst->n_rows = live;
  return HL_OK;
}

/* hl_op_scan_on_file: the worker reached file ORDINAL. */
static void worker_progress(void *ctx, size_t ordinal) {
  worker_t *w = ctx;
  pthread_mutex_lock(&w->ps->mu);
  w->progress = ordinal;
  pthread_cond_signal(&w->ps->cv);
  pthread_mutex_unlock(&w->ps->mu);
}

/* hl_op_scan_set_gate under a LIMIT: may the worker go on to ORDINAL? */
static bool worker_gate(void *ctx, size_t ordinal, uint64_t bound) {
  worker_t *w = ctx;
  pscan_t *ps = w->ps;
  if (bound < ps->limit) return true;
  pthread_mutex_lock(&ps->mu);
  while (!ps->stop && ps->want < ordinal)
    pthread_cond_wait(&ps->wanted, &ps->mu);
  bool go = !ps->stop;
  pthread_mutex_unlock(&ps->mu);
  return go;
}

/* The consumer needs ordinal want + 1 now (mutex held). */
static void advance(pscan_t *ps) {
  ps->want++;
  if (ps->limit) pthread_cond_broadcast(&ps->wanted);
}

static void *worker_main(void *arg) {
  worker_t *w = arg;
  pscan_t *ps = w->ps;
  for (;;) {
    hl_batch_t *b = NULL;
    hl_status_t rc = w->scan->next(w->scan, &b, &w->err);
    pthread_mutex_lock(&ps->mu);
    while (rc == HL_OK && b && w->count == QUEUE && !ps->stop)
      pthread_cond_wait(&w->space, &ps->mu);
    if (ps->stop) {
      pthread_mutex_unlock(&ps->mu);
      break;
    }
    int slot = (w->head + w->count) % QUEUE;
    pthread_mutex_unlock(&ps->mu);
    /* the free slot is the worker's alone until it is counted */
    if (rc == HL_OK && b) {
      if (!w->ring[slot]) {
        const hl_type_t **types = hl_malloc(sizeof(*types) * (size_t)(b->n_cols + 1));
        if (types) {
          for (int c = 0; c < b->n_cols; c++)
            types[c] = b->cols[c].type;
          w->ring[slot] = hl_batch_create_charged(b->n_cols, types, hl_arena_account(b->arena));
          hl_free(types);
          for (int c = 0; w->ring[slot] && b->unused && c < b->n_cols; c++)
            if (b->unused[c] && hl_batch_set_unused(w->ring[slot], c) != HL_OK) {
              hl_batch_destroy(w->ring[slot]);
              w->ring[slot] = NULL;
            }
        }
      }
      if (!w->ring[slot] || copy_batch(w->ring[slot], b, &w->dm) != HL_OK)
        rc = hl_err_nomem(&w->err);
    }
    pthread_mutex_lock(&ps->mu);
    if (rc != HL_OK || !b) {
      w->rc = rc;
      w->done = true;
      pthread_cond_signal(&ps->cv);
      pthread_mutex_unlock(&ps->mu);
      break;
    }
    w->files[slot] = hl_op_scan_current_file(w->scan);
    w->count++;
    pthread_cond_signal(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
  }
  return NULL;
}

static hl_status_t start(pscan_t *ps, hl_error_t *err) {
  ps->started = true;
  for (int i = 0; i < ps->n; i++) {
    if (pthread_create(&ps->w[i].thread, NULL, worker_main, &ps->w[i]) != 0)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "could not start a scan thread");
    ps->w[i].started = true;
  }
  return HL_OK;
}

static hl_status_t pscan_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  pscan_t *ps = (pscan_t *)op;
  *out = NULL;
  if (!ps->started) {
    hl_status_t rc = start(ps, err);
    if (rc != HL_OK) return rc;
  }
  pthread_mutex_lock(&ps->mu);
  if (ps->held) {
    worker_t *h = ps->held;
    h->head = (h->head + 1) % QUEUE;
    h->count--;
    ps->held = NULL;
    pthread_cond_signal(&h->space);
  }
  hl_status_t rc = HL_OK;
  for (;;) {
    bool all_done = true;
    for (int i = 0; i < ps->n; i++)
      if (!ps->w[i].done || ps->w[i].count) all_done = false;
    if (all_done) {
      for (int i = 0; i < ps->n && rc == HL_OK; i++)
        if (ps->w[i].rc != HL_OK) {
          rc = ps->w[i].rc;
          hl_err_move(err, &ps->w[i].err);
        }
      break;
    }
    worker_t *w = &ps->w[ps->want % (size_t)ps->n];
    while (!w->count && !w->done && w->progress <= ps->want)
      pthread_cond_wait(&ps->cv, &ps->mu);
    if (!w->count && !w->done) { /* the worker is past the wanted file, which gave nothing */
      advance(ps);
      continue;
    }
    if (w->count && w->files[w->head] == ps->want) {
      ps->held = w;
      *out = w->ring[w->head];
      break;
    }
    if (!w->count && w->rc != HL_OK) {
      rc = w->rc;
      hl_err_move(err, &w->err);
      w->rc = HL_OK;
      break;
    }
    /* this worker has moved past the wanted file (or finished): the file
     * was empty, not this worker's, or done */
    advance(ps);
  }
  pthread_mutex_unlock(&ps->mu);
  return rc;
}

static void pscan_close(hl_op_t *op) {
  pscan_t *ps = (pscan_t *)op;
  if (!ps->w) return;
  pthread_mutex_lock(&ps->mu);
  ps->stop = true;
  pthread_cond_broadcast(&ps->wanted);
  for (int i = 0; i < ps->n; i++)
    if (ps->w[i].cond_ready) pthread_cond_signal(&ps->w[i].space);
  pthread_mutex_unlock(&ps->mu);
  for (int i = 0; i < ps->n; i++) {
    worker_t *w = &ps->w[i];
    if (w->started) pthread_join(w->thread, NULL);
    if (w->scan) w->scan->close(w->scan);
    for (int k = 0; k < QUEUE; k++)
      hl_batch_destroy(w->ring[k]);
    if (w->cond_ready) pthread_cond_destroy(&w->space);
    hl_err_clear(&w->err);
    hl_free(w->dm.stamp);
    hl_free(w->dm.to);
    hl_free(w->dm.used);
  }
  ps->w = NULL;
  pthread_cond_destroy(&ps->cv);
  pthread_cond_destroy(&ps->wanted);
  pthread_mutex_destroy(&ps->mu);
  hl_snap_end(ps->own_snap);
}

hl_op_t *hl_op_parallel_scan_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *scan,
                                    const hl_expr_t *filter, int n_workers, hl_arena_t *arena,
                                    hl_error_t *err) {
  pscan_t *ps = hl_arena_zalloc(arena, sizeof(*ps));
  worker_t *w = ps ? hl_arena_zalloc(arena, sizeof(worker_t) * (size_t)n_workers) : NULL;
  if (!w) return hl_err_nomem(err), NULL;
  ps->op.next = pscan_next;
  ps->op.close = pscan_close;
  ps->n = n_workers;
  pthread_mutex_init(&ps->mu, NULL);
  pthread_cond_init(&ps->cv, NULL);
  pthread_cond_init(&ps->wanted, NULL);
  ps->w = w;
  if (!snap && !scan->dataset && !(snap = ps->own_snap = hl_snap_create(arena, err))) {
    pscan_close(&ps->op);
    return NULL;
  }
  for (int i = 0; i < n_workers; i++) {
    w[i].ps = ps;
    hl_err_init(&w[i].err);
    pthread_cond_init(&w[i].space, NULL);
    w[i].cond_ready = true;
    w[i].scan = hl_op_scan_create(s, snap, scan, arena, err);
    if (!w[i].scan) {
      pscan_close(&ps->op);
      return NULL;
    }
    hl_op_scan_set_worker(w[i].scan, i, n_workers);
    hl_op_scan_on_file(w[i].scan, worker_progress, &w[i]);
    if (filter && hl_op_scan_set_filter(w[i].scan, filter, err) != HL_OK) {
      pscan_close(&ps->op);
      return NULL;
    }
  }
  return &ps->op;
}

void hl_op_parallel_scan_set_limit(hl_op_t *op, uint64_t rows) {
  pscan_t *ps = (pscan_t *)op;
  ps->limit = rows ? rows : 1; /* LIMIT 0 needs no file, but reads none by itself either */
  for (int i = 0; i < ps->n; i++)
    hl_op_scan_set_gate(ps->w[i].scan, worker_gate, &ps->w[i]);
}
