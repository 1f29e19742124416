/*
 * orc_wstats.c -- the ORC writer's column statistics (orc_wstats.h):
 * count, hasNull and per-kind minimum/maximum/sum, merged from row group
 * to stripe to file, and packed as ORC ColumnStatistics.
 *
 * As ORC's Java writer: an integer sum that overflows is left out, so is a
 * decimal sum beyond 38 digits; strings longer than 1 KiB (or holding NUL
 * bytes, which protoc-c strings cannot carry) leave min/max out; a NaN
 * leaves the double statistics out; timestamps are milliseconds in the UTC
 * fields only.
 */
#include "format/orc/orc_wstats.h"

#include <math.h>
#include <string.h>

void hl_orc_stat_fini(hl_orc_stat_t *s) {
  hl_buf_fini(&s->smin);
  hl_buf_fini(&s->smax);
}

void hl_orc_stat_clear(hl_orc_stat_t *s) {
  hl_buf_t a = s->smin, b = s->smax;
  hl_buf_reset(&a);
  hl_buf_reset(&b);
  memset(s, 0, sizeof *s);
  s->smin = a;
  s->smax = b;
}

static const __int128 DEC_LIMIT = (__int128)10000000000000000000ULL * 10000000000000000000ULL;

void hl_orc_stat_int(hl_orc_stat_t *s, int64_t v) {
  if (!s->any || v < s->imin) s->imin = v;
  if (!s->any || v > s->imax) s->imax = v;
  s->any = true;
  if (!s->isum_bad && __builtin_add_overflow(s->isum, v, &s->isum)) s->isum_bad = true;
}

void hl_orc_stat_double(hl_orc_stat_t *s, double v) {
  s->dsum += v;
  if (isnan(v)) {
    s->nan = true;
    return;
  }
  if (!s->any || v < s->dmin) s->dmin = v;
  if (!s->any || v > s->dmax) s->dmax = v;
  s->any = true;
}

void hl_orc_stat_decimal(hl_orc_stat_t *s, __int128 v) {
  if (!s->any || v < s->qmin) s->qmin = v;
  if (!s->any || v > s->qmax) s->qmax = v;
  s->any = true;
  if (!s->qsum_bad) {
    s->qsum += v; /* |v| < 10^38 and |qsum| < 10^38: no overflow */
    if (s->qsum >= DEC_LIMIT || s->qsum <= -DEC_LIMIT) s->qsum_bad = true;
  }
}

int hl_orc_cmp_bytes(const char *a, size_t la, const char *b, size_t lb) {
  int c = memcmp(a, b, la < lb ? la : lb);
  return c ? c : (la > lb) - (la < lb);
}

static void set_buf(hl_buf_t *b, const char *p, size_t n) {
  hl_buf_reset(b);
  hl_buf_append(b, p, n);
  hl_buf_cstr(b);
}

void hl_orc_stat_string(hl_orc_stat_t *s, const char *p, size_t n) {
  s->bytes += n;
  if (s->s_bad) return;
  if (n > HL_ORC_STRING_STAT_MAX || memchr(p, 0, n)) {
    s->s_bad = true;
    return;
  }
  if (!s->any || hl_orc_cmp_bytes(p, n, s->smin.data, s->smin.len) < 0) set_buf(&s->smin, p, n);
  if (!s->any || hl_orc_cmp_bytes(p, n, s->smax.data, s->smax.len) > 0) set_buf(&s->smax, p, n);
  s->any = true;
}

/* Folds stripe statistics P into file statistics F. */
void hl_orc_stat_merge(int kind, hl_orc_stat_t *f, const hl_orc_stat_t *p) {
  f->has_null |= p->has_null;
  f->n_values += p->n_values;
  f->n_true += p->n_true;
  f->bytes += p->bytes;
  f->nan |= p->nan;
  f->dsum += p->dsum;
  f->s_bad |= p->s_bad;
  if (!p->any) return;
  switch (kind) {
  case HL_ORC_FLOAT:
  case HL_ORC_DOUBLE:
    if (!f->any || p->dmin < f->dmin) f->dmin = p->dmin;
    if (!f->any || p->dmax > f->dmax) f->dmax = p->dmax;
    break;
  case HL_ORC_DECIMAL:
    if (!f->any || p->qmin < f->qmin) f->qmin = p->qmin;
    if (!f->any || p->qmax > f->qmax) f->qmax = p->qmax;
    f->qsum_bad |= p->qsum_bad;
    if (!f->qsum_bad) {
      f->qsum += p->qsum;
      if (f->qsum >= DEC_LIMIT || f->qsum <= -DEC_LIMIT) f->qsum_bad = true;
    }
    break;
  case HL_ORC_STRING:
  case HL_ORC_VARCHAR:
  case HL_ORC_CHAR:
    if (f->s_bad) break;
    if (!f->any || hl_orc_cmp_bytes(p->smin.data, p->smin.len, f->smin.data, f->smin.len) < 0)
      set_buf(&f->smin, p->smin.data, p->smin.len);
    if (!f->any || hl_orc_cmp_bytes(p->smax.data, p->smax.len, f->smax.data, f->smax.len) > 0)
      set_buf(&f->smax, p->smax.data, p->smax.len);
    break;
  default:
    if (!f->any || p->imin < f->imin) f->imin = p->imin;
    if (!f->any || p->imax > f->imax) f->imax = p->imax;
    f->isum_bad |= p->isum_bad;
    if (!f->isum_bad && __builtin_add_overflow(f->isum, p->isum, &f->isum)) f->isum_bad = true;
    break;
  }
  f->any = true;
}

/* A protobuf-c message of descriptor D, initialized, in ARENA; NULL on OOM. */
static void *new_msg(hl_arena_t *arena, const ProtobufCMessageDescriptor *d) {
  void *m = hl_arena_alloc(arena, d->sizeof_message);
  if (m) protobuf_c_message_init(d, m);
  return m;
}

/* Fills CS from S of a column of KIND; submessages and strings in ARENA.
 * -1 on OOM. */
int hl_orc_stats_message(hl_arena_t *arena, int kind, const hl_type_t *type, const hl_orc_stat_t *s,
                         Orcpb__ColumnStats *cs) {
  orcpb__column_stats__init(cs);
  cs->has_number_of_values = true;
  cs->number_of_values = s->n_values;
  cs->has_has_null = true;
  cs->has_null = s->has_null;
  switch (kind) {
  case HL_ORC_BYTE:
  case HL_ORC_SHORT:
  case HL_ORC_INT:
  case HL_ORC_LONG: {
    Orcpb__IntStats *is = new_msg(arena, &orcpb__int_stats__descriptor);
    if (!is) return -1;
    if (s->any) {
      is->has_minimum = is->has_maximum = true;
      is->minimum = s->imin;
      is->maximum = s->imax;
      is->has_sum = !s->isum_bad;
      is->sum = s->isum;
    } else {
      is->has_sum = true; /* 0 */
    }
    cs->int_stats = is;
    break;
  }
  case HL_ORC_FLOAT:
  case HL_ORC_DOUBLE: {
    if (s->nan) break;
    Orcpb__DoubleStats *ds = new_msg(arena, &orcpb__double_stats__descriptor);
    if (!ds) return -1;
    ds->has_sum = true;
    ds->sum = s->dsum;
    if (s->any) {
      ds->has_minimum = ds->has_maximum = true;
      ds->minimum = s->dmin;
      ds->maximum = s->dmax;
    }
    cs->double_stats = ds;
    break;
  }
  case HL_ORC_STRING:
  case HL_ORC_VARCHAR:
  case HL_ORC_CHAR: {
    Orcpb__StringStats *ss = new_msg(arena, &orcpb__string_stats__descriptor);
    if (!ss) return -1;
    ss->has_sum = true;
    ss->sum = (int64_t)s->bytes;
    if (s->any && !s->s_bad) {
      ss->minimum = hl_arena_strndup(arena, s->smin.len ? s->smin.data : "", s->smin.len);
      ss->maximum = hl_arena_strndup(arena, s->smax.len ? s->smax.data : "", s->smax.len);
      if (!ss->minimum || !ss->maximum) return -1;
    }
    cs->string_stats = ss;
    break;
  }
  case HL_ORC_BOOLEAN: {
    Orcpb__BucketStats *bs = new_msg(arena, &orcpb__bucket_stats__descriptor);
    uint64_t *count = hl_arena_alloc(arena, sizeof *count);
    if (!bs || !count) return -1;
    *count = s->n_true;
    bs->n_count = 1;
    bs->count = count;
    cs->bucket_stats = bs;
    break;
  }
  case HL_ORC_DECIMAL: {
    Orcpb__DecimalStats *qs = new_msg(arena, &orcpb__decimal_stats__descriptor);
    if (!qs) return -1;
    __int128 vals[3] = {s->qmin, s->qmax, s->qsum};
    char **dst[3] = {&qs->minimum, &qs->maximum, &qs->sum};
    for (int i = 0; i < 3; i++) {
      if ((i < 2 && !s->any) || (i == 2 && s->qsum_bad)) continue;
      hl_value_t v = {.is_null = false, .u.dec = s->any ? vals[i] : 0};
      hl_buf_t b;
      hl_buf_init(&b);
      hl_value_format(&b, type, &v);
      *dst[i] = b.oom ? NULL : hl_arena_strndup(arena, b.len ? b.data : "", b.len);
      hl_buf_fini(&b);
      if (!*dst[i]) return -1;
    }
    cs->decimal_stats = qs;
    break;
  }
  case HL_ORC_DATE: {
    Orcpb__DateStats *ds = new_msg(arena, &orcpb__date_stats__descriptor);
    if (!ds) return -1;
    if (s->any) {
      ds->has_minimum = ds->has_maximum = true;
      ds->minimum = (int32_t)s->imin;
      ds->maximum = (int32_t)s->imax;
    }
    cs->date_stats = ds;
    break;
  }
  case HL_ORC_TIMESTAMP: {
    Orcpb__TimestampStats *ts = new_msg(arena, &orcpb__timestamp_stats__descriptor);
    if (!ts) return -1;
    if (s->any) {
      /* milliseconds, floored (readers allow up to 999999 more nanoseconds
       * in the maximum); only the UTC fields, as ORC's Java writer since
       * ORC-135: readers that predate them then skip no stripe instead of
       * shifting the bounds by their own time zone */
      ts->has_minimum_utc = ts->has_maximum_utc = true;
      ts->minimum_utc = s->imin / 1000 - (s->imin % 1000 < 0);
      ts->maximum_utc = s->imax / 1000 - (s->imax % 1000 < 0);
    }
    cs->timestamp_stats = ts;
    break;
  }
  case HL_ORC_BINARY: {
    Orcpb__BinaryStats *bs = new_msg(arena, &orcpb__binary_stats__descriptor);
    if (!bs) return -1;
    bs->has_sum = true;
    bs->sum = (int64_t)s->bytes;
    cs->binary_stats = bs;
    break;
  }
  default:
    break;
  }
  return 0;
}
