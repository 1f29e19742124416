/*
 * budget.h -- the memory limit of a statement.
 *
 * Operators that hold data beyond one batch (aggregation, sort, join build
 * side, windows) charge what they keep to the session's budget; a charge
 * that would pass the limit fails the statement with SQLSTATE 53200 and a
 * message naming the setting, instead of letting the kernel kill the
 * process.  SET hivelite.memory_limit='2GB' (KB, MB, GB, TB, or bytes);
 * the default is 80% of the machine's physical memory.
 *
 * The budget is also an arena account (hl_budget_account): the statement's
 * arena (syntax tree, plan, operators) and the batches and scratch arenas
 * of its operators charge their blocks to it, so binding, planning and
 * per-column costs count too.  A refused block makes the allocation fail
 * (HL_NOMEM) and marks the budget exceeded; the api turns that out-of-memory
 * error into hl_budget_exceeded_error's message.
 *
 * The budget also carries the statement's cancel request (hl_interrupt):
 * a flag any thread or a signal handler may set with one lock-free atomic
 * store.  Scans, joins, writers and MSCK's walk poll it at batch, file and
 * directory boundaries (hl_budget_check_cancel), so a cancelled statement
 * fails within one batch with 57014, the way PostgreSQL reports a cancel.
 * The api clears it when a statement is prepared (hl_budget_clear_cancel),
 * not when it starts: a request made between the two cancels the
 * statement.
 *
 * hivelite.statement_timeout is a deadline on the same path: the api sets
 * it when a statement starts (hl_budget_set_deadline), and the same polls
 * compare the monotonic clock with it; the first to find it passed turns
 * the flag to "timed out" so that every thread of the statement stops with
 * 57014 "canceling statement due to statement timeout".  A read of the
 * clock per poll (a vDSO call, tens of nanoseconds per batch) costs
 * nothing next to a batch, and needs no timer thread or signal.
 */
#ifndef HL_BUDGET_H
#define HL_BUDGET_H

#include "util/arena.h"
#include "util/error.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_budget {
  hl_mem_account_t account;           /* arenas charge through this (hl_budget_account) */
  _Atomic uint64_t used;              /* bytes charged by the running statement */
  uint64_t limit;                     /* bytes */
  _Atomic bool exceeded;              /* an arena block was refused since the start */
  _Atomic uint64_t kept;              /* the part of `used` charged by operators keeping rows */
  _Atomic(const char *) kept_what;    /* the operator that charged last, for messages */
  _Atomic(const char *) refused_what; /* at the first refused block: kept_what when
                                          kept was at least half the limit, else NULL */
  atomic_int cancel;                  /* HL_CANCEL_*: why the statement must stop */
  _Atomic int64_t deadline_ns;        /* CLOCK_MONOTONIC end of the statement; 0: none */
} hl_budget_t;

enum { HL_CANCEL_NONE = 0, HL_CANCEL_USER = 1, HL_CANCEL_TIMEOUT = 2 };

/* A signal handler may set the flag: the store must not take a lock. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic int must be lock-free");

/* Parses "2GB", "512 MB", "1024" (bytes); returns 0 on success. */
int hl_budget_parse_size(const char *text, uint64_t *bytes);
/* The default limit: 80% of physical memory. */
uint64_t hl_budget_default_limit(void);
/* Starts a statement: used = 0, limit from SETTING (NULL: default).
 * A malformed setting is a 22023 error. */
hl_status_t hl_budget_start(hl_budget_t *b, const char *setting, hl_error_t *err);
/* Charges BYTES (may be 0); fails with 53200 when the limit would pass.
 * A NULL budget charges nothing. */
hl_status_t hl_budget_charge(hl_budget_t *b, uint64_t bytes, const char *what, hl_error_t *err);
/* Gives back BYTES (never below zero: a statement finalized after the next
 * one started releases into the new count). */
void hl_budget_release(hl_budget_t *b, uint64_t bytes);
/* The budget as an arena account (valid from hl_budget_start on). */
hl_mem_account_t *hl_budget_account(hl_budget_t *b);
/* When an arena block was refused since the start and ERR holds an
 * out-of-memory error, replaces it with the limit's 53200 message: "X needs
 * more memory than hivelite.memory_limit allows", X the operator that last
 * charged rows when operators keep at least half the limit (the block was
 * refused because of the rows they keep), else "the statement". */
void hl_budget_explain_nomem(hl_budget_t *b, hl_error_t *err);

/* Asks the running statement to stop (async-signal-safe: one atomic store). */
static inline void hl_budget_cancel(hl_budget_t *b) {
  atomic_store_explicit(&b->cancel, 1, memory_order_relaxed);
}
/* Forgets a cancel request (a new statement is prepared). */
static inline void hl_budget_clear_cancel(hl_budget_t *b) {
  atomic_store_explicit(&b->cancel, 0, memory_order_relaxed);
}
/* Sets ERR to 57014 "canceling statement due to user request"; returns
 * HL_INTERRUPT. */
hl_status_t hl_budget_cancelled(hl_error_t *err);
/* The statement must end within MILLIS milliseconds from now (0: no
 * deadline). */
void hl_budget_set_deadline(hl_budget_t *b, int64_t millis);
/* The slow half of hl_budget_check_cancel: the flag is set (REASON) or a
 * deadline is set; the error when the statement must stop, else HL_OK. */
hl_status_t hl_budget_check_slow(hl_budget_t *b, int reason, hl_error_t *err);
/* HL_OK, or the cancel error (57014) when the statement was asked to stop
 * or passed its deadline.  A NULL budget is never cancelled. */
static inline hl_status_t hl_budget_check_cancel(hl_budget_t *b, hl_error_t *err) {
  if (!b) return HL_OK;
  int reason = atomic_load_explicit(&b->cancel, memory_order_relaxed);
  if (!reason && !atomic_load_explicit(&b->deadline_ns, memory_order_relaxed)) return HL_OK;
  return hl_budget_check_slow(b, reason, err);
}

/* Raises an operator's charge *CHARGED to NOW bytes (no-op when NOW is not
 * larger).  The charge is recorded even when it fails, so the operator's
 * close releases exactly what it holds. */
static inline hl_status_t hl_budget_track(hl_budget_t *b, uint64_t *charged, uint64_t now,
                                          const char *what, hl_error_t *err) {
  if (now <= *charged) return HL_OK;
  uint64_t delta = now - *charged;
  *charged = now;
  return hl_budget_charge(b, delta, what, err);
}

#endif
