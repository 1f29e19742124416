/*
 * func_tz.c -- from_utc_timestamp(ts, zone) and to_utc_timestamp(ts, zone),
 * Hive's GenericUDFFromUtcTimestamp / GenericUDFToUtcTimestamp: TS read as
 * a wall-clock time in UTC shown in ZONE, or read in ZONE shown in UTC.
 *
 * Zones come from util/tz.c, which resolves names as Java does (unknown
 * names are UTC).  A constant zone is loaded once by the binder
 * (plan/bind.c sets call->tz_const and call->tz); any other is loaded per
 * row into the evaluation arena.  A wall-clock time that falls in a gap or
 * an overlap of ZONE takes Java's ZonedDateTime.of reading
 * (hl_tz_local_to_utc).
 */
#include "vector/func_int.h"

#include "util/tz.h"

#include <stdint.h>
#include <string.h>

#define US_PER_SEC 1000000LL

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static hl_status_t convert(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                           hl_arena_t *arena, hl_error_t *err, bool to_utc) {
  if (a[0].is_null || a[1].is_null) return out->is_null = true, HL_OK;
  const hl_tz_t *tz = call->tz;
  if (!call->tz_const) {
    /* the name as a C string: tz.c takes NUL-terminated names */
    char *name = hl_arena_strndup(arena, a[1].u.s.ptr, a[1].u.s.len);
    if (!name) return hl_err_nomem(err);
    hl_status_t rc = hl_tz_load(name, arena, &tz, err);
    if (rc != HL_OK) return rc;
  }
  int64_t us = hl_fn_micros(call->args[0]->type, &a[0]);
  int64_t sec = floor_div(us, US_PER_SEC), frac = us % US_PER_SEC;
  if (frac < 0) frac += US_PER_SEC;
  /* offsets are below a day, so only instants within a day of the ends
   * of the 64-bit range can overflow; those are refused */
  if (sec < INT64_MIN / US_PER_SEC + 86400 || sec > INT64_MAX / US_PER_SEC - 86400)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(DATETIME_FIELD_OVERFLOW),
                         "timestamp out of range");
  int64_t shifted = to_utc ? hl_tz_local_to_utc(tz, sec) : sec + hl_tz_offset(tz, sec);
  out->is_null = false;
  out->u.i = shifted * US_PER_SEC + frac;
  return HL_OK;
}

HL_FN(hl_fn_from_utc_timestamp) {
  return convert(call, a, out, arena, err, false);
}

HL_FN(hl_fn_to_utc_timestamp) {
  return convert(call, a, out, arena, err, true);
}
