/*
 * orc_tz.h -- UTC offsets of an ORC writer's time zone (orc_tz.c).
 */
#ifndef HL_ORC_TZ_H
#define HL_ORC_TZ_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_orc_tz {
  size_t n;           /* transitions */
  int64_t *trans;     /* UTC seconds of each transition, increasing */
  int32_t *off;       /* UTC offset (seconds) from trans[i] on */
  int32_t off_before; /* offset before the first transition */
} hl_orc_tz_t;

/* Loads zone NAME (e.g. "America/Los_Angeles") into ARENA.  *OUT NULL
 * means UTC (also for unknown, unsafe or unreadable names).  Fails only
 * with HL_NOMEM. */
hl_status_t hl_orc_tz_load(const char *name, hl_arena_t *arena, const hl_orc_tz_t **out,
                           hl_error_t *err);
/* The zone's UTC offset in seconds at instant UTC (NULL zone: 0). */
int32_t hl_orc_tz_offset(const hl_orc_tz_t *tz, int64_t utc);

#endif
