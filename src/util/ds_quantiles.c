/*
 * ds_quantiles.c -- the classic quantiles sketch of doubles (see
 * ds_quantiles.h): update with carry propagation, the merges of
 * DoublesMergeImpl (same k, and downsampling to a smaller k), the
 * union's case analysis, the queries, the compact form and toString.
 *
 * Memory: a sketch's buffer lives in its arena; growing it (more levels)
 * takes a new buffer and leaves the old one to the arena, so a sketch
 * costs at most twice its final size.  The scratch space of the merges
 * (3k doubles) is taken once per sketch.
 */
#include "util/ds_quantiles.h"

#include "util/hive_fm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MIN_K = 2, MAX_K = 1 << 15, SER_VER = 3, FAMILY = 8 };
enum { F_READ_ONLY = 2, F_EMPTY = 4, F_COMPACT = 8, F_ORDERED = 16 };

bool hl_ds_quantiles_valid_k(int64_t k) {
  return k >= MIN_K && k <= MAX_K && (k & (k - 1)) == 0;
}

static double *level(const hl_ds_quantiles_t *q, int lvl) {
  return q->buf + 2 * (size_t)q->k + (size_t)lvl * q->k;
}

hl_ds_quantiles_t *hl_ds_quantiles_new(hl_arena_t *arena, uint32_t k) {
  hl_ds_quantiles_t *q = hl_arena_zalloc(arena, sizeof *q);
  if (!q) return NULL;
  q->k = k;
  q->min = q->max = NAN;
  q->arena = arena;
  hl_java_random_init(&q->rng, HL_DS_QUANTILES_SEED);
  if (!(q->buf = hl_arena_alloc(arena, 2 * (size_t)k * sizeof(double)))) return NULL;
  return q;
}

/* Room for level LVL. */
static hl_status_t need_level(hl_ds_quantiles_t *q, int lvl) {
  if ((uint32_t)lvl < q->n_lvls) return HL_OK;
  uint32_t n = (uint32_t)lvl + 1;
  if (n < 2 * q->n_lvls) n = 2 * q->n_lvls;
  if (n > 64) n = 64;
  double *b = hl_arena_alloc(q->arena, (2 + (size_t)n) * q->k * sizeof(double));
  if (!b) return HL_NOMEM;
  memcpy(b, q->buf, (2 + (size_t)q->n_lvls) * q->k * sizeof(double));
  q->buf = b;
  q->n_lvls = n;
  return HL_OK;
}

static bool next_bool(hl_ds_quantiles_t *q) {
  return ((uint32_t)hl_java_random_next_int(&q->rng) >> 31) != 0;
}

/* nextInt(BOUND) for a power of two BOUND */
static uint32_t next_int_pow2(hl_ds_quantiles_t *q, uint32_t bound) {
  uint32_t r31 = (uint32_t)hl_java_random_next_int(&q->rng) >> 1;
  return (uint32_t)(((uint64_t)bound * r31) >> 31);
}

/* Every other value of IN[0..2k) from a random offset into OUT[0..k). */
static void zip(hl_ds_quantiles_t *q, const double *in, double *out) {
  uint32_t off = next_bool(q) ? 1 : 0;
  for (uint32_t i = 0; i < q->k; i++)
    out[i] = in[off + 2 * i];
}

/* The sorted A[0..k) and B[0..k) merged into DST[0..2k) (B first on ties
 * only when strictly smaller, as Java). */
static void merge_k(const double *a, const double *b, uint32_t k, double *dst) {
  uint32_t i = 0, j = 0, d = 0;
  while (i < k && j < k)
    dst[d++] = b[j] < a[i] ? b[j++] : a[i++];
  while (i < k)
    dst[d++] = a[i++];
  while (j < k)
    dst[d++] = b[j++];
}

static int lowest_zero_bit(uint64_t bits, int start) {
  int pos = start;
  while (pos < 64 && ((bits >> pos) & 1))
    pos++;
  return pos;
}

/* DoublesUpdateImpl.inPlacePropagateCarry: the 2k sorted values of
 * SIZE2K (update) or the k of SRC_K (merge) enter at level START. */
static hl_status_t propagate(hl_ds_quantiles_t *q, int start, const double *src_k, double *size2k) {
  int end = lowest_zero_bit(q->bits, start);
  if (end >= 64 || need_level(q, end) != HL_OK) return HL_NOMEM;
  double *tgt = level(q, end);
  if (!src_k)
    zip(q, size2k, tgt);
  else
    memcpy(tgt, src_k, q->k * sizeof(double));
  for (int lvl = start; lvl < end; lvl++) {
    merge_k(level(q, lvl), tgt, q->k, size2k);
    zip(q, size2k, tgt);
  }
  q->bits += (uint64_t)1 << start;
  return HL_OK;
}

/* Arrays.sort(double[]): -0.0 before 0.0, NaN last. */
static int cmp_java_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  if (a < b) return -1;
  if (a > b) return 1;
  bool na = isnan(a), nb = isnan(b);
  if (na && nb) { /* only read sketches hold NaN: a total order keeps sorts repeatable */
    uint64_t ua, ub;
    memcpy(&ua, &a, 8);
    memcpy(&ub, &b, 8);
    return (ua > ub) - (ua < ub);
  }
  if (na || nb) return na - nb;
  return (int)(signbit(b) != 0) - (int)(signbit(a) != 0);
}

hl_status_t hl_ds_quantiles_update(hl_ds_quantiles_t *q, double v) {
  if (isnan(v)) return HL_OK;
  if (q->n == 0) {
    q->min = q->max = v;
  } else {
    if (v > q->max) q->max = v;
    if (v < q->min) q->min = v;
  }
  q->buf[q->bb++] = v;
  q->n++;
  if (q->bb == 2 * q->k) {
    qsort(q->buf, q->bb, sizeof(double), cmp_java_double);
    /* the base buffer is its own scratch, as Java's */
    if (propagate(q, 0, NULL, q->buf) != HL_OK) return HL_NOMEM;
    q->bb = 0;
  }
  return HL_OK;
}

static double *scratch(hl_ds_quantiles_t *q) {
  return hl_arena_alloc(q->arena, 3 * (size_t)q->k * sizeof(double));
}

/* SRC's base buffer, sorted (the order of its compact form), into TGT. */
static hl_status_t stream_base(hl_ds_quantiles_t *tgt, const hl_ds_quantiles_t *src) {
  if (!src->bb) return HL_OK;
  double *tmp = hl_arena_alloc(tgt->arena, src->bb * sizeof(double));
  if (!tmp) return HL_NOMEM;
  memcpy(tmp, src->buf, src->bb * sizeof(double));
  qsort(tmp, src->bb, sizeof(double), cmp_java_double);
  for (uint32_t i = 0; i < src->bb; i++)
    if (hl_ds_quantiles_update(tgt, tmp[i]) != HL_OK) return HL_NOMEM;
  return HL_OK;
}

/* Java keeps NaN as "no value" for min/max: both sides' extremes combined */
static void combine_extremes(hl_ds_quantiles_t *tgt, const hl_ds_quantiles_t *src, bool down) {
  double smax = isnan(src->max) ? -INFINITY : src->max;
  double smin = isnan(src->min) ? INFINITY : src->min;
  double tmax = isnan(tgt->max) ? -INFINITY : tgt->max;
  double tmin = isnan(tgt->min) ? INFINITY : tgt->min;
  if (down) {
    if (smax > tmax) tgt->max = smax;
    if (smin < tmin) tgt->min = smin;
  } else {
    tgt->max = smax > tmax ? smax : tmax;
    tgt->min = smin < tmin ? smin : tmin;
  }
}

/* DoublesMergeImpl.downSamplingMergeInto: SRC of a larger k into TGT. */
static hl_status_t merge_down(const hl_ds_quantiles_t *src, hl_ds_quantiles_t *tgt) {
  if (src->n == 0) return HL_OK;
  uint32_t factor = src->k / tgt->k;
  int lg = 0;
  while ((1u << lg) < factor)
    lg++;
  uint64_t n_final = tgt->n + src->n;
  if (stream_base(tgt, src) != HL_OK) return HL_NOMEM;
  double *s = scratch(tgt);
  if (!s) return HL_NOMEM;
  uint64_t sbits = src->bits;
  for (int lvl = 0; sbits; lvl++, sbits >>= 1) {
    if (!(sbits & 1)) continue;
    const double *in = level(src, lvl);
    uint32_t off = next_int_pow2(tgt, factor);
    for (uint32_t c = 0; c < tgt->k; c++)
      s[2 * tgt->k + c] = in[off + (size_t)c * factor];
    if (propagate(tgt, lvl + lg, s + 2 * tgt->k, s) != HL_OK) return HL_NOMEM;
  }
  tgt->n = n_final;
  combine_extremes(tgt, src, true);
  return HL_OK;
}

/* DoublesMergeImpl.mergeInto: SRC (k >= TGT's) into TGT. */
static hl_status_t merge_into(const hl_ds_quantiles_t *src, hl_ds_quantiles_t *tgt) {
  if (src->k != tgt->k) return merge_down(src, tgt);
  uint64_t n_final = tgt->n + src->n;
  if (stream_base(tgt, src) != HL_OK) return HL_NOMEM;
  double *s = NULL;
  uint64_t sbits = src->bits;
  for (int lvl = 0; sbits; lvl++, sbits >>= 1) {
    if (!(sbits & 1)) continue;
    if (!s && !(s = scratch(tgt))) return HL_NOMEM;
    if (propagate(tgt, lvl, level(src, lvl), s) != HL_OK) return HL_NOMEM;
  }
  tgt->n = n_final;
  combine_extremes(tgt, src, false);
  return HL_OK;
}

hl_ds_quantiles_t *hl_ds_quantiles_copy(const hl_ds_quantiles_t *src, hl_arena_t *arena) {
  hl_ds_quantiles_t *q = hl_ds_quantiles_new(arena, src->k);
  if (!q) return NULL;
  int top = 0;
  for (uint64_t b = src->bits; b; b >>= 1)
    top++;
  if (top && need_level(q, top - 1) != HL_OK) return NULL;
  q->n = src->n;
  q->min = src->min;
  q->max = src->max;
  q->bb = src->bb;
  q->bits = src->bits;
  /* the base buffer sorted, as a copy of the compact form has it */
  memcpy(q->buf, src->buf, src->bb * sizeof(double));
  qsort(q->buf, q->bb, sizeof(double), cmp_java_double);
  if (top) memcpy(level(q, 0), level(src, 0), (size_t)top * q->k * sizeof(double));
  return q;
}

hl_status_t hl_ds_quantiles_union_update(hl_ds_quantiles_union_t *u, const hl_ds_quantiles_t *src,
                                         hl_arena_t *arena) {
  hl_ds_quantiles_t *my = u->gadget;
  if (src->n == 0) { /* no-op, or an empty sketch of maxK */
    if (!my && !(u->gadget = hl_ds_quantiles_new(arena, u->max_k))) return HL_NOMEM;
    return HL_OK;
  }
  bool est = src->n >= 2 * (uint64_t)src->k;
  if (!est) { /* exact: its values streamed in */
    if (!my && !(my = u->gadget = hl_ds_quantiles_new(arena, u->max_k))) return HL_NOMEM;
    return stream_base(my, src);
  }
  if (!my) {
    if (u->max_k < src->k) {
      hl_ds_quantiles_t *q = hl_ds_quantiles_new(arena, u->max_k);
      if (!q || merge_down(src, q) != HL_OK) return HL_NOMEM;
      u->gadget = q;
      return HL_OK;
    }
    return (u->gadget = hl_ds_quantiles_copy(src, arena)) ? HL_OK : HL_NOMEM;
  }
  if (my->k <= src->k) return merge_into(src, my);
  if (my->n == 0) return (u->gadget = hl_ds_quantiles_copy(src, arena)) ? HL_OK : HL_NOMEM;
  /* mine is larger: downsampled to SRC's k first; the union's draws go on
   * in the new sketches (Java draws them all from one generator) */
  hl_ds_quantiles_t *tmp = hl_ds_quantiles_new(arena, src->k);
  hl_ds_quantiles_t *ret = hl_ds_quantiles_new(arena, src->k);
  if (!tmp || !ret) return HL_NOMEM;
  tmp->rng = my->rng;
  if (merge_down(my, tmp) != HL_OK) return HL_NOMEM;
  ret->rng = tmp->rng;
  if (merge_into(tmp, ret) != HL_OK || merge_into(src, ret) != HL_OK) return HL_NOMEM;
  u->gadget = ret;
  return HL_OK;
}

/* ---- the compact form ---- */

static int valid_levels(uint64_t bits) {
  return __builtin_popcountll(bits);
}

static uint64_t retained(uint32_t k, uint64_t n) {
  uint64_t bits = n / (2 * (uint64_t)k);
  return n % (2 * (uint64_t)k) + (uint64_t)valid_levels(bits) * k;
}

static uint64_t compact_bytes(uint32_t k, uint64_t n) {
  return n == 0 ? 8 : (4 + retained(k, n)) * 8;
}

static int hi_bit(uint64_t v) {
  return v ? 63 - __builtin_clzll(v) : -1;
}

/* getUpdatableStorageBytes(k, n) */
static uint64_t updatable_bytes(uint32_t k, uint64_t n) {
  if (n == 0) return 8;
  if (n <= k) {
    uint64_t c = 1;
    while (c < n)
      c *= 2;
    return (4 + (c > 4 ? c : 4)) * 8;
  }
  return (4 + (2 + (uint64_t)(1 + hi_bit(n / (2 * (uint64_t)k)))) * k) * 8;
}

static void put_u64(hl_buf_t *out, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  hl_buf_append(out, b, 8);
}

static void put_f64(hl_buf_t *out, double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  put_u64(out, v);
}

void hl_ds_quantiles_serialize(const hl_ds_quantiles_t *q, hl_buf_t *out) {
  bool empty = q->n == 0;
  uint8_t pre[8] = {empty ? 1 : 2,
                    SER_VER,
                    FAMILY,
                    (uint8_t)((empty ? F_EMPTY : 0) | F_ORDERED | F_COMPACT | F_READ_ONLY),
                    (uint8_t)q->k,
                    (uint8_t)(q->k >> 8),
                    0,
                    0};
  hl_buf_append(out, pre, 8);
  if (empty) return;
  put_u64(out, q->n);
  put_f64(out, q->min);
  put_f64(out, q->max);
  double *bb = NULL;
  if (q->bb) {
    bb = malloc(q->bb * sizeof(double));
    if (!bb) {
      out->oom = true;
      return;
    }
    memcpy(bb, q->buf, q->bb * sizeof(double));
    qsort(bb, q->bb, sizeof(double), cmp_java_double);
    for (uint32_t i = 0; i < q->bb; i++)
      put_f64(out, bb[i]);
    free(bb);
  }
  uint64_t bits = q->bits;
  for (int lvl = 0; bits; lvl++, bits >>= 1)
    if (bits & 1)
      for (uint32_t i = 0; i < q->k; i++)
        put_f64(out, level(q, lvl)[i]);
}

static uint64_t get_u64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static double get_f64(const uint8_t *p) {
  uint64_t v = get_u64(p);
  double d;
  memcpy(&d, &v, 8);
  return d;
}

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "not a DataSketches quantiles sketch: %s", what);
}

hl_status_t hl_ds_quantiles_deserialize(const uint8_t *p, size_t len, hl_arena_t *arena,
                                        hl_ds_quantiles_t **out, hl_error_t *err) {
  if (len < 8) return bad(err, "shorter than its preamble");
  int pre = p[0], flags = p[3];
  uint32_t k = (uint32_t)p[4] | (uint32_t)p[5] << 8;
  if (pre < 1 || pre > 2) return bad(err, "PreLongs must be 1 or 2");
  if (p[2] != FAMILY) return bad(err, "wrong family");
  if (p[1] != SER_VER) return bad(err, "unsupported serialization version");
  /* the updatable form (toByteArray(false)): the base buffer has room for
   * 2k values, and every level below the highest has its k slots */
  bool compact = (flags & (F_COMPACT | F_READ_ONLY)) != 0;
  if (!hl_ds_quantiles_valid_k(k)) return bad(err, "K must be a power of 2 from 2 to 32768");
  bool empty = (flags & F_EMPTY) != 0;
  uint64_t n = 0;
  if (!empty) { /* Java reads n whatever the preamble longs say */
    if (len < 16) return bad(err, "shorter than its preamble");
    n = get_u64(p + 8);
    if (n == 0) return bad(err, "N = 0 without the empty flag");
    if (n >> 62) return bad(err, "N out of range");
  }
  if (len < (compact ? compact_bytes(k, n) : updatable_bytes(k, n)))
    return bad(err, "Memory capacity too small");
  hl_ds_quantiles_t *q = hl_ds_quantiles_new(arena, k);
  if (!q) return HL_NOMEM;
  *out = q;
  if (n == 0) return HL_OK;
  q->n = n;
  q->min = get_f64(p + 16);
  q->max = get_f64(p + 24);
  q->bb = (uint32_t)(n % (2 * (uint64_t)k));
  q->bits = n / (2 * (uint64_t)k);
  const uint8_t *d = p + 32;
  for (uint32_t i = 0; i < q->bb; i++, d += 8)
    q->buf[i] = get_f64(d);
  uint64_t bits = q->bits;
  if (!compact) d = p + 32 + 2 * (size_t)k * 8;
  for (int lvl = 0; bits; lvl++, bits >>= 1) {
    if (!(bits & 1)) {
      if (!compact) d += (size_t)k * 8;
      continue;
    }
    if (need_level(q, lvl) != HL_OK) return HL_NOMEM;
    double *l = level(q, lvl);
    for (uint32_t i = 0; i < k; i++, d += 8)
      l[i] = get_f64(d);
  }
  return HL_OK;
}

/* ---- queries ---- */

typedef struct {
  double *v;
  uint64_t *w; /* weights, then the weight before each value */
  size_t n;
} sorted_t;

/* The retained values sorted with their weights (DoublesAuxiliary): the
 * levels (sorted blocks of k) and the sorted base buffer merged. */
static hl_status_t sorted_view(const hl_ds_quantiles_t *q, sorted_t *s) {
  size_t n = (size_t)retained(q->k, q->n), k = q->k;
  double *v = malloc((n ? n : 1) * 2 * sizeof(double));
  uint64_t *w = malloc((n + 1) * 2 * sizeof(uint64_t));
  if (!v || !w) {
    free(v);
    free(w);
    return HL_NOMEM;
  }
  size_t at = 0;
  uint64_t wt = 1, bits = q->bits;
  for (int lvl = 0; bits; lvl++, bits >>= 1) {
    wt *= 2;
    if (!(bits & 1)) continue;
    memcpy(v + at, level(q, lvl), k * sizeof(double));
    for (size_t i = 0; i < k; i++)
      w[at + i] = wt;
    at += k;
  }
  memcpy(v + at, q->buf, q->bb * sizeof(double));
  qsort(v + at, q->bb, sizeof(double), cmp_java_double);
  for (size_t i = 0; i < q->bb; i++)
    w[at + i] = 1;
  /* blocks of k merged bottom-up: each merge takes the left block on ties,
   * as Java's tandem merge */
  double *tv = v + n;
  uint64_t *tw = w + n + 1;
  for (size_t width = k; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, d = lo;
      while (i < mid && j < hi) {
        bool right = v[j] < v[i];
        tv[d] = right ? v[j] : v[i];
        tw[d++] = right ? w[j++] : w[i++];
      }
      for (; i < mid; i++, d++)
        tv[d] = v[i], tw[d] = w[i];
      for (; j < hi; j++, d++)
        tv[d] = v[j], tw[d] = w[j];
    }
    memcpy(v, tv, n * sizeof(double));
    memcpy(w, tw, n * sizeof(uint64_t));
  }
  uint64_t sub = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = w[i];
    w[i] = sub;
    sub += x;
  }
  w[n] = sub;
  s->v = v;
  s->w = w;
  s->n = n;
  return HL_OK;
}

static double quantile_of(const hl_ds_quantiles_t *q, const sorted_t *s, double r) {
  /* (long) Math.floor(r * n), Java's cast: NaN is 0 */
  double f = floor(r * (double)q->n);
  uint64_t pos = isnan(f) || f < 0 ? 0 : f >= (double)q->n ? q->n : (uint64_t)f;
  if (pos == q->n) pos = q->n - 1;
  size_t lo = 0, hi = s->n; /* w[lo] <= pos < w[hi] */
  while (lo + 1 < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (s->w[m] <= pos)
      lo = m;
    else
      hi = m;
  }
  return s->v[lo];
}

hl_status_t hl_ds_quantiles_quantile(const hl_ds_quantiles_t *q, double rank, double *out,
                                     hl_error_t *err) {
  if (rank < 0.0 || rank > 1.0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Fraction cannot be less than zero or greater than 1.0");
  return hl_ds_quantiles_quantiles(q, &rank, 1, out, err);
}

hl_status_t hl_ds_quantiles_quantiles(const hl_ds_quantiles_t *q, const double *ranks, size_t n,
                                      double *out, hl_error_t *err) {
  sorted_t s = {0};
  hl_status_t rc = HL_OK;
  for (size_t i = 0; i < n && rc == HL_OK; i++) {
    double r = ranks[i];
    if (r == 0.0) {
      out[i] = q->min;
    } else if (r == 1.0) {
      out[i] = q->max;
    } else if (r < 0.0 || r > 1.0) {
      rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Fractional rank must be >= 0 and <= 1.0: %g", r);
    } else {
      if (!s.v && (rc = sorted_view(q, &s)) != HL_OK) break;
      out[i] = quantile_of(q, &s, r);
    }
  }
  free(s.v);
  free(s.w);
  return rc == HL_NOMEM ? hl_err_nomem(err) : rc;
}

/* the bucket of value X: the first split point above it */
static size_t bucket(const double *splits, size_t m, double x) {
  size_t j = 0;
  while (j < m && !(x < splits[j]))
    j++;
  return j;
}

hl_status_t hl_ds_quantiles_cdf_pmf(const hl_ds_quantiles_t *q, const double *splits, size_t m,
                                    bool cdf, double *out, hl_error_t *err) {
  for (size_t j = 0; j + 1 < m; j++)
    if (!(splits[j] < splits[j + 1]))
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "Values must be unique, monotonically increasing and not NaN");
  for (size_t j = 0; j <= m; j++)
    out[j] = 0;
  for (uint32_t i = 0; i < q->bb; i++)
    out[bucket(splits, m, q->buf[i])] += 1;
  uint64_t wt = 1, bits = q->bits;
  for (int lvl = 0; bits; lvl++, bits >>= 1) {
    wt *= 2;
    if (!(bits & 1)) continue;
    const double *l = level(q, lvl);
    for (uint32_t i = 0; i < q->k; i++)
      out[bucket(splits, m, l[i])] += (double)wt;
  }
  double sub = 0, n = (double)q->n;
  for (size_t j = 0; j <= m; j++) {
    if (cdf) {
      sub += out[j];
      out[j] = sub / n;
    } else {
      out[j] /= n;
    }
  }
  return HL_OK;
}

/* ---- toString ---- */

/* String.format("%,d") */
static void put_grouped(hl_buf_t *out, int64_t v) {
  char d[24];
  int n = snprintf(d, sizeof d, "%lld", (long long)(v < 0 ? -v : v));
  if (v < 0) hl_buf_putc(out, '-');
  for (int i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0) hl_buf_putc(out, ',');
    hl_buf_putc(out, d[i]);
  }
}

/* String.format("%12.6e"): C's for finite values; Java's words otherwise */
static void put_e(hl_buf_t *out, double d) {
  if (isnan(d))
    hl_buf_printf(out, "%12s", "NaN");
  else if (isinf(d))
    hl_buf_printf(out, "%12s", d < 0 ? "-Infinity" : "Infinity");
  else
    hl_buf_printf(out, "%12.6e", d);
}

void hl_ds_quantiles_to_string(const hl_ds_quantiles_t *q, size_t cap, hl_buf_t *out) {
  uint32_t k = q->k;
  uint64_t n = q->n, bits = q->bits;
  int needed = 1 + hi_bit(n / (2 * (uint64_t)k));
  uint64_t updatable = updatable_bytes(k, n);
  double eps_pmf = 1.854 / pow(k, 0.9657), eps = 1.576 / pow(k, 0.9726);
  hl_buf_puts(out, "\n### Quantiles DirectCompactDoublesSketch SUMMARY: \n");
  hl_buf_printf(out, "   Empty                        : %s\n", n == 0 ? "true" : "false");
  hl_buf_printf(out, "   Direct, Capacity bytes       : true, %zu\n", cap);
  hl_buf_printf(out, "   Estimation Mode              : %s\n",
                n >= 2 * (uint64_t)k ? "true" : "false");
  hl_buf_puts(out, "   K                            : ");
  put_grouped(out, k);
  hl_buf_puts(out, "\n   N                            : ");
  put_grouped(out, (int64_t)n);
  hl_buf_printf(out, "\n   Levels (Needed, Total, Valid): %d, %d, %d\n", needed, hi_bit(bits) + 1,
                valid_levels(bits));
  hl_buf_puts(out, "   Level Bit Pattern            : ");
  if (!bits) hl_buf_putc(out, '0');
  for (int i = hi_bit(bits); i >= 0; i--)
    hl_buf_putc(out, (char)('0' + ((bits >> i) & 1)));
  hl_buf_puts(out, "\n   BaseBufferCount              : ");
  put_grouped(out, q->bb);
  hl_buf_puts(out, "\n   Combined Buffer Capacity     : ");
  put_grouped(out, ((int64_t)cap - 32) / 8); /* Java's int division */
  hl_buf_puts(out, "\n   Retained Items               : ");
  put_grouped(out, (int64_t)retained(k, n));
  hl_buf_puts(out, "\n   Compact Storage Bytes        : ");
  put_grouped(out, (int64_t)compact_bytes(k, n));
  hl_buf_puts(out, "\n   Updatable Storage Bytes      : ");
  put_grouped(out, (int64_t)updatable);
  hl_buf_printf(out, "\n   Normalized Rank Error        : %.3f%%\n", eps * 100.0);
  hl_buf_printf(out, "   Normalized Rank Error (PMF)  : %.3f%%\n", eps_pmf * 100.0);
  hl_buf_puts(out, "   Min Value                    : ");
  put_e(out, q->min);
  hl_buf_puts(out, "\n   Max Value                    : ");
  put_e(out, q->max);
  hl_buf_puts(out, "\n### END SKETCH SUMMARY\n");
}
