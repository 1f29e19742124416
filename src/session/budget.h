/*
 * budget.h -- the memory limit of a statement.
 *
 * Operators that hold data beyond one batch (aggregation, sort, join build
 * side, windows) charge what they keep to the session's budget; a charge
 * that would pass the limit fails the statement with SQLSTATE 53200 and a
 * message naming the setting, instead of letting the kernel kill the
 * process.  SET hivelite.memory_limit='2GB' (KB, MB, GB, TB, or bytes);
 * the default is 80% of the machine's physical memory.
 */
#ifndef HL_BUDGET_H
#define HL_BUDGET_H

#include "util/error.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_budget {
  _Atomic uint64_t used; /* bytes charged by the running statement */
  uint64_t limit;        /* bytes */
} hl_budget_t;

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
void hl_budget_release(hl_budget_t *b, uint64_t bytes);

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
