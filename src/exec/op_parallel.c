/*
 * op_parallel.c -- a table scan read by several threads.
 *
 * Files are the unit of work: worker w runs its own scan (and the pushed
 * filter) over the files whose ordinal is w modulo the number of workers,
 * so decoding and filtering run in parallel.  Each worker hands over one
 * batch at a time and waits until the consumer is done with it (the
 * batch belongs to the worker's operators).  The consumer takes batches in
 * file order -- file 0 from worker 0, file 1 from worker 1, ... -- which
 * makes the output exactly the single-threaded scan's, order included.
 */
#include "exec/ops.h"

#include <pthread.h>
#include <string.h>

typedef struct pscan pscan_t;

typedef struct worker {
  pscan_t *ps;
  pthread_t thread;
  bool started;
  hl_op_t *scan;  /* the worker's scan */
  hl_op_t *top;   /* scan, or filter over it */
  hl_error_t err; /* the worker's error, handed to the consumer */
  hl_status_t rc;
  hl_batch_t *batch; /* handed-over batch */
  size_t file;       /* its file ordinal */
  bool has_batch;
  bool done;
} worker_t;

struct pscan {
  hl_op_t op;
  int n;
  worker_t *w;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool stop;
  bool started;
  size_t want;    /* file ordinal the consumer needs next */
  worker_t *held; /* worker whose batch the consumer holds */
};

static void *worker_main(void *arg) {
  worker_t *w = arg;
  pscan_t *ps = w->ps;
  pthread_mutex_lock(&ps->mu);
  while (!ps->stop) {
    pthread_mutex_unlock(&ps->mu);
    hl_batch_t *b = NULL;
    hl_status_t rc = w->top->next(w->top, &b, &w->err);
    pthread_mutex_lock(&ps->mu);
    if (rc != HL_OK || !b) {
      w->rc = rc;
      w->done = true;
      pthread_cond_broadcast(&ps->cv);
      break;
    }
    w->batch = b;
    w->file = hl_op_scan_current_file(w->scan);
    w->has_batch = true;
    pthread_cond_broadcast(&ps->cv);
    while (w->has_batch && !ps->stop)
      pthread_cond_wait(&ps->cv, &ps->mu);
  }
  pthread_mutex_unlock(&ps->mu);
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
    ps->held->has_batch = false;
    ps->held = NULL;
    pthread_cond_broadcast(&ps->cv);
  }
  hl_status_t rc = HL_OK;
  for (;;) {
    bool all_done = true;
    for (int i = 0; i < ps->n; i++)
      if (!ps->w[i].done || ps->w[i].has_batch) all_done = false;
    if (all_done) {
      for (int i = 0; i < ps->n && rc == HL_OK; i++)
        if (ps->w[i].rc != HL_OK) {
          rc = ps->w[i].rc;
          hl_err_move(err, &ps->w[i].err);
        }
      break;
    }
    worker_t *w = &ps->w[ps->want % (size_t)ps->n];
    while (!w->has_batch && !w->done)
      pthread_cond_wait(&ps->cv, &ps->mu);
    if (w->has_batch && w->file == ps->want) {
      ps->held = w;
      *out = w->batch;
      break;
    }
    if (!w->has_batch && w->rc != HL_OK) {
      rc = w->rc;
      hl_err_move(err, &w->err);
      w->rc = HL_OK;
      break;
    }
    /* this worker has moved past the wanted file (or finished): the file
     * was empty, not this worker's, or done */
    ps->want++;
  }
  pthread_mutex_unlock(&ps->mu);
  return rc;
}

static void pscan_close(hl_op_t *op) {
  pscan_t *ps = (pscan_t *)op;
  if (!ps->w) return;
  pthread_mutex_lock(&ps->mu);
  ps->stop = true;
  pthread_cond_broadcast(&ps->cv);
  pthread_mutex_unlock(&ps->mu);
  for (int i = 0; i < ps->n; i++) {
    worker_t *w = &ps->w[i];
    if (w->started) pthread_join(w->thread, NULL);
    if (w->top) w->top->close(w->top);
    hl_err_clear(&w->err);
  }
  ps->w = NULL;
  pthread_cond_destroy(&ps->cv);
  pthread_mutex_destroy(&ps->mu);
}

hl_op_t *hl_op_parallel_scan_create(hl_session_t *s, const hl_plan_scan_t *scan,
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
  ps->w = w;
  for (int i = 0; i < n_workers; i++) {
    w[i].ps = ps;
    hl_err_init(&w[i].err);
    w[i].scan = hl_op_scan_create(s, scan, arena, err);
    if (!w[i].scan) {
      pscan_close(&ps->op);
      return NULL;
    }
    hl_op_scan_set_worker(w[i].scan, i, n_workers);
    w[i].top = w[i].scan;
    if (filter && !(w[i].top = hl_op_filter_create(w[i].scan, filter, arena, err))) {
      w[i].scan = NULL; /* closed by the failed constructor */
      pscan_close(&ps->op);
      return NULL;
    }
  }
  return &ps->op;
}
