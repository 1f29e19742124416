/*
 * mem.c -- heap allocation wrappers with a fault-injection countdown.
 *
 * The countdown is the only process-wide mutable state in the library and it
 * exists for tests alone (SQLite's test_malloc.c idea); it is atomic so that
 * a multi-threaded caller that never sets it pays one relaxed load.
 */
#include "util/mem.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__) /* defined by <stdlib.h> on glibc */
#include <malloc.h>
#endif

static _Atomic long fail_countdown;

void hl_mem_fail_after(long n) {
  atomic_store(&fail_countdown, n);
}

static int should_fail(void) {
  if (atomic_load_explicit(&fail_countdown, memory_order_relaxed) == 0) return 0;
  return atomic_fetch_sub(&fail_countdown, 1) == 1;
}

void *hl_malloc(size_t nbytes) {
  if (should_fail()) return NULL;
  return malloc(nbytes ? nbytes : 1);
}

void *hl_calloc(size_t count, size_t size) {
  if (should_fail()) return NULL;
  return calloc(count ? count : 1, size ? size : 1);
}

void *hl_realloc(void *ptr, size_t nbytes) {
  if (should_fail()) return NULL;
  return realloc(ptr, nbytes ? nbytes : 1);
}

void hl_free(void *ptr) {
  free(ptr);
}

void hl_mem_release(void) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

char *hl_strndup(const char *s, size_t len) {
  char *out = hl_malloc(len + 1);
  if (!out) return NULL;
  memcpy(out, s, len);
  out[len] = '\0';
  return out;
}

char *hl_strdup(const char *s) {
  return hl_strndup(s, strlen(s));
}
