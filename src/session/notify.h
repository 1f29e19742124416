/*
 * notify.h -- what a running statement tells the embedder besides its
 * rows and its error: warnings (hl_set_warning_handler) and progress
 * (hl_set_progress_handler).
 *
 * Both are optional callbacks the api layer registers on the session.
 * Warnings are delivered at once, on the thread running the statement.
 * Progress reports are throttled here, not by every caller: the first one
 * comes hivelite.progress.delay_ms (500) into the statement (a quick
 * statement shows none),
 * then at most one every 100 ms, and never two at once, so the scans of
 * a parallel scan's worker threads may report without a lock.
 */
#ifndef HL_NOTIFY_H
#define HL_NOTIFY_H

#include "hivelite.h"

#include <stdatomic.h>
#include <stdint.h>

typedef struct hl_notify {
  hl_warning_fn warn; /* NULL: warnings are dropped */
  void *warn_ctx;
  hl_progress_fn progress; /* NULL: no progress */
  void *progress_ctx;
  _Atomic int64_t next_ns; /* monotonic time before which reports are dropped */
  atomic_int busy;         /* 1 while a progress callback runs */
  /* the statement's scans, all threads together (hl_notify_scan_file) */
  _Atomic uint64_t files_done, files_total;
} hl_notify_t;

/* A statement starts: counters reset, no report for DELAY_MS. */
void hl_notify_start(hl_notify_t *n, uint64_t delay_ms);
/* Hands the warning FMT... (01000) to the handler, if any. */
void hl_notify_warn(hl_notify_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reports PHASE at DONE of TOTAL (0: unknown) UNIT, unless throttled. */
void hl_notify_progress(hl_notify_t *n, const char *phase, uint64_t done, uint64_t total,
                        const char *unit);
/* A scan listed LISTED more files (may be 0) and opened OPENED (0 or 1)
 * more: reports "scan" progress over all the statement's scans. */
void hl_notify_scan_files(hl_notify_t *n, uint64_t listed, uint64_t opened);

#endif
