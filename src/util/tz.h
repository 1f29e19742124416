/*
 * tz.h -- time zones by name from the system tz database (tz.c): UTC
 * offsets at an instant, wall-clock times to UTC.  The ORC reader's
 * writer zones and from_utc_timestamp / to_utc_timestamp use it.
 */
#ifndef HL_UTIL_TZ_H
#define HL_UTIL_TZ_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One end of a daylight-saving period in a POSIX TZ rule. */
typedef struct hl_tz_date {
  char kind; /* 'J': Jn (1..365, no Feb 29); 'n': n (0..365); 'M': Mm.w.d */
  int n, m, w, d;
  int32_t time; /* seconds after local midnight (may be < 0 or > 24 h) */
} hl_tz_date_t;

/* The POSIX TZ string of a TZif footer ("PST8PDT,M3.2.0,M11.1.0"): the
 * offsets after the last listed transition. */
typedef struct hl_tz_rule {
  bool valid;
  int32_t std_off, dst_off; /* UTC offsets in seconds (east positive) */
  bool has_dst;
  hl_tz_date_t start, end;
} hl_tz_rule_t;

typedef struct hl_tz {
  size_t n;           /* transitions */
  int64_t *trans;     /* UTC seconds of each transition, increasing */
  int32_t *off;       /* UTC offset (seconds) from trans[i] on */
  int32_t off_before; /* offset before the first transition */
  hl_tz_rule_t rule;  /* from the last transition on, when valid */
} hl_tz_t;

/* Loads zone NAME (e.g. "America/Los_Angeles", Java's "PST", "GMT+08:00")
 * into ARENA.  *OUT NULL means UTC (also for unknown, unsafe or unreadable
 * names).  Fails only with HL_NOMEM. */
hl_status_t hl_tz_load(const char *name, hl_arena_t *arena, const hl_tz_t **out, hl_error_t *err);
/* The zone's UTC offset in seconds at instant UTC (NULL zone: 0). */
int32_t hl_tz_offset(const hl_tz_t *tz, int64_t utc);
/* Parses a POSIX TZ string (RFC 8536 footer) into RULE.  False when
 * malformed (RULE then not valid). */
bool hl_tz_rule_parse(const char *s, size_t len, hl_tz_rule_t *rule);
/* RULE's UTC offset at instant UTC. */
int32_t hl_tz_rule_offset(const hl_tz_rule_t *rule, int64_t utc);
/* The instant (UTC seconds) at which the zone's wall clock reads LOCAL
 * (seconds since the epoch, as if UTC), as Java's ZonedDateTime.of: in
 * an overlap the earlier offset, in a gap the clock moved forward by the
 * gap.  A NULL zone is UTC. */
int64_t hl_tz_local_to_utc(const hl_tz_t *tz, int64_t local);

#endif
