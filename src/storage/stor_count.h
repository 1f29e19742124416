/*
 * stor_count.h -- a counting decorator over any hl_stor_t, for tests that
 * prove how many file-system calls an operation makes (the write path
 * promises a constant number of calls on existing paths, however many
 * partitions and files a table has).
 */
#ifndef HL_STOR_COUNT_H
#define HL_STOR_COUNT_H

#include "storage/stor.h"

typedef struct hl_stor_counts {
  uint64_t calls;   /* every call that names a path */
  uint64_t matched; /* calls whose path satisfies MATCH */
  /* Counts the call in `matched` when it returns true; NULL: none. */
  bool (*match)(const char *path, void *arg);
  void *match_arg;
} hl_stor_counts_t;

/* Wraps INNER (borrowed: it must outlive the wrapper and is not destroyed
 * with it); COUNTS (borrowed) is updated on every call.  NULL on OOM.
 * Destroy with fs->ops->destroy(fs). */
hl_stor_t *hl_stor_count_create(hl_stor_t *inner, hl_stor_counts_t *counts);

#endif
