/*
 * notify.c -- warnings and throttled progress reports of the running
 * statement (notify.h).
 */
#include "session/notify.h"

#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

/* Reports come at most this often. */
#define INTERVAL_NS 100000000LL

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void hl_notify_start(hl_notify_t *n, uint64_t delay_ms) {
  atomic_store(&n->files_done, 0);
  atomic_store(&n->files_total, 0);
  if (delay_ms > 86400000) delay_ms = 86400000; /* a day: no overflow below */
  atomic_store(&n->next_ns, n->progress ? now_ns() + (int64_t)delay_ms * 1000000 : 0);
}

void hl_notify_warn(hl_notify_t *n, const char *fmt, ...) {
  if (!n->warn) return;
  /* a longer warning is cut: it is a message for a person */
  char text[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  n->warn(n->warn_ctx, HL_SS(WARNING), text);
}

void hl_notify_progress(hl_notify_t *n, const char *phase, uint64_t done, uint64_t total,
                        const char *unit) {
  if (!n->progress) return;
  int64_t now = now_ns();
  int64_t next = atomic_load(&n->next_ns);
  if (now < next) return;
  /* one thread wins the slot; the others drop their report */
  if (!atomic_compare_exchange_strong(&n->next_ns, &next, now + INTERVAL_NS)) return;
  if (atomic_exchange(&n->busy, 1)) return;
  n->progress(n->progress_ctx, phase, done, total, unit);
  atomic_store(&n->busy, 0);
}

void hl_notify_scan_files(hl_notify_t *n, uint64_t listed, uint64_t opened) {
  if (!n->progress) return;
  uint64_t total = atomic_fetch_add(&n->files_total, listed) + listed;
  uint64_t done = atomic_fetch_add(&n->files_done, opened) + opened;
  /* another worker has not counted its listing yet: nothing to show */
  if (total == 0) return;
  hl_notify_progress(n, "scan", done, total, "files");
}
