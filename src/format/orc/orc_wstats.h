/*
 * orc_wstats.h -- column statistics of the ORC writer (private to
 * orc_writer.c and orc_wstats.c): what a row group, a stripe or the file
 * has seen of a column, and its ColumnStatistics message.
 */
#ifndef HL_ORC_WSTATS_H
#define HL_ORC_WSTATS_H

#include "format/orc/orc.h"
#include "util/arena.h"
#include "util/strbuf.h"

#include "orc.pb-c.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HL_ORC_STRING_STAT_MAX                                                                     \
  1024 /* longer string min/max are not written (ORC truncates them)                               \
        */

typedef struct hl_orc_stat {
  uint64_t n_values; /* non-NULL values */
  bool has_null;
  bool any;           /* min/max below are set */
  int64_t imin, imax; /* integers, DATE days, TIMESTAMP micros */
  int64_t isum;
  bool isum_bad; /* the integer sum overflowed */
  double dmin, dmax, dsum;
  bool nan; /* a NaN was seen: no double statistics */
  __int128 qmin, qmax, qsum;
  bool qsum_bad;       /* the decimal sum passed 38 digits */
  hl_buf_t smin, smax; /* strings (copies) */
  bool s_bad;          /* a string too long or holding NUL: no min/max */
  uint64_t bytes;      /* strings and binary: total length */
  uint64_t n_true;     /* BOOLEAN */
} hl_orc_stat_t;

void hl_orc_stat_fini(hl_orc_stat_t *s);
/* Empties S, keeping its string buffers' memory. */
void hl_orc_stat_clear(hl_orc_stat_t *s);
void hl_orc_stat_int(hl_orc_stat_t *s, int64_t v); /* integers, DATE days, TIMESTAMP micros */
void hl_orc_stat_double(hl_orc_stat_t *s, double v);
void hl_orc_stat_decimal(hl_orc_stat_t *s, __int128 v);
void hl_orc_stat_string(hl_orc_stat_t *s, const char *p, size_t n);
/* Folds P into F (row group into stripe, stripe into file) for a column of
 * ORC KIND.  String copies may fail: check F's buffers' oom flags. */
void hl_orc_stat_merge(int kind, hl_orc_stat_t *f, const hl_orc_stat_t *p);
/* Byte order of ORC string statistics and dictionaries. */
int hl_orc_cmp_bytes(const char *a, size_t la, const char *b, size_t lb);

/* Fills CS from S of a column of ORC KIND and Hive TYPE; submessages and
 * strings in ARENA.  -1 on OOM. */
int hl_orc_stats_message(hl_arena_t *arena, int kind, const hl_type_t *type, const hl_orc_stat_t *s,
                         Orcpb__ColumnStats *cs);

#endif
