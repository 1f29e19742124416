/*
 * budget.c -- statement memory limit (see budget.h).
 */
#include "session/budget.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

int hl_budget_parse_size(const char *text, uint64_t *bytes) {
  char *end;
  while (isspace((unsigned char)*text))
    text++;
  if (*text == '\'' || *text == '"') text++;
  double v = strtod(text, &end);
  if (end == text || !(v >= 0)) return -1;
  while (isspace((unsigned char)*end))
    end++;
  uint64_t mult = 1;
  const struct {
    const char *unit;
    uint64_t mult;
  } units[] = {{"KB", 1ULL << 10}, {"K", 1ULL << 10},
               {"MB", 1ULL << 20}, {"M", 1ULL << 20},
               {"GB", 1ULL << 30}, {"G", 1ULL << 30},
               {"TB", 1ULL << 40}, {"T", 1ULL << 40},
               {"B", 1},           {"", 1}};
  size_t i = 0;
  for (; i < sizeof units / sizeof units[0]; i++) {
    size_t n = 0;
    while (units[i].unit[n])
      n++;
    if (strncasecmp(end, units[i].unit, n) == 0) {
      const char *rest = end + n;
      while (isspace((unsigned char)*rest) || *rest == '\'' || *rest == '"')
        rest++;
      if (*rest == '\0') {
        mult = units[i].mult;
        break;
      }
    }
  }
  if (i == sizeof units / sizeof units[0]) return -1;
  double total = v * (double)mult;
  if (total < 1 || total > 1.8e19) return -1;
  *bytes = (uint64_t)total;
  return 0;
}

uint64_t hl_budget_default_limit(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 4ULL << 30;
  return (uint64_t)pages * (uint64_t)page / 10 * 8;
}

static void sub_saturating(_Atomic uint64_t *v, uint64_t bytes) {
  uint64_t old = atomic_load(v);
  while (!atomic_compare_exchange_weak(v, &old, old > bytes ? old - bytes : 0)) {
  }
}

static int account_charge(hl_mem_account_t *acct, size_t bytes) {
  hl_budget_t *b = (hl_budget_t *)acct; /* the account is the first member */
  uint64_t now = atomic_fetch_add(&b->used, bytes) + bytes;
  if (now <= b->limit) return 0;
  sub_saturating(&b->used, bytes);
  bool was = false;
  if (atomic_compare_exchange_strong(&b->exceeded, &was, true) &&
      atomic_load(&b->kept) >= b->limit / 2)
    atomic_store(&b->refused_what, atomic_load(&b->kept_what));
  return -1;
}

static void account_release(hl_mem_account_t *acct, size_t bytes) {
  if (bytes) sub_saturating(&((hl_budget_t *)acct)->used, bytes);
}

hl_mem_account_t *hl_budget_account(hl_budget_t *b) {
  return b ? &b->account : NULL;
}

hl_status_t hl_budget_start(hl_budget_t *b, const char *setting, hl_error_t *err) {
  b->account.charge = account_charge;
  b->account.release = account_release;
  atomic_store(&b->used, 0);
  atomic_store(&b->exceeded, false);
  atomic_store(&b->kept, 0);
  atomic_store(&b->kept_what, NULL);
  atomic_store(&b->refused_what, NULL);
  atomic_store(&b->deadline_ns, 0);
  b->limit = hl_budget_default_limit();
  if (setting && hl_budget_parse_size(setting, &b->limit) != 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid hivelite.memory_limit \"%s\": expected a size such as 2GB", setting);
  return HL_OK;
}

hl_status_t hl_budget_cancelled(hl_error_t *err) {
  return hl_err_set(err, HL_INTERRUPT, HL_SS(QUERY_CANCELED),
                    "canceling statement due to user request");
}

static int64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void hl_budget_set_deadline(hl_budget_t *b, int64_t millis) {
  int64_t at = 0;
  if (millis > 0) {
    /* beyond ~292 years is no deadline at all */
    at = millis < INT64_MAX / 2000000 ? monotonic_ns() + millis * 1000000 : 0;
  }
  atomic_store_explicit(&b->deadline_ns, at, memory_order_relaxed);
}

hl_status_t hl_budget_check_slow(hl_budget_t *b, int reason, hl_error_t *err) {
  if (!reason) {
    int64_t at = atomic_load_explicit(&b->deadline_ns, memory_order_relaxed);
    if (!at || monotonic_ns() < at) return HL_OK;
    /* every thread of the statement stops for the same reason; a user's
     * cancel that came first keeps its own */
    int none = HL_CANCEL_NONE;
    atomic_compare_exchange_strong(&b->cancel, &none, HL_CANCEL_TIMEOUT);
    reason = atomic_load(&b->cancel);
  }
  if (reason == HL_CANCEL_TIMEOUT)
    return hl_err_set(err, HL_INTERRUPT, HL_SS(QUERY_CANCELED),
                      "canceling statement due to statement timeout");
  return hl_budget_cancelled(err);
}

#define MEMORY_HINT "Raise the limit, for example SET hivelite.memory_limit='8GB'."

hl_status_t hl_budget_charge(hl_budget_t *b, uint64_t bytes, const char *what, hl_error_t *err) {
  if (!b || bytes == 0) return HL_OK;
  atomic_fetch_add(&b->kept, bytes);
  atomic_store(&b->kept_what, what);
  uint64_t now = atomic_fetch_add(&b->used, bytes) + bytes;
  if (now <= b->limit) return HL_OK;
  hl_err_set(err, HL_ERROR, HL_SS(OUT_OF_MEMORY),
             "%s needs more memory than hivelite.memory_limit allows (%llu MB)", what,
             (unsigned long long)(b->limit >> 20));
  hl_err_hint(err, NULL, MEMORY_HINT);
  return err->code;
}

void hl_budget_release(hl_budget_t *b, uint64_t bytes) {
  if (!b || bytes == 0) return;
  sub_saturating(&b->kept, bytes);
  sub_saturating(&b->used, bytes);
}

void hl_budget_explain_nomem(hl_budget_t *b, hl_error_t *err) {
  if (!b || err->code != HL_NOMEM || !atomic_load(&b->exceeded)) return;
  long pos = err->position;
  const char *what = atomic_load(&b->refused_what);
  if (!what) what = "the statement";
  hl_err_clear(err);
  hl_err_set(err, HL_ERROR, HL_SS(OUT_OF_MEMORY),
             "%s needs more memory than hivelite.memory_limit allows (%llu MB)", what,
             (unsigned long long)(b->limit >> 20));
  hl_err_hint(err, NULL, MEMORY_HINT);
  err->position = pos;
}
