/*
 * ds_hll.c -- the DataSketches HLL sketch: coupons, the LIST / SET / HLL
 * modes, the HLL_4 / HLL_6 / HLL_8 behaviour, the estimators and the
 * union (ds_hll.h says how it maps onto Java's classes).  Bytes in and
 * out are in ds_hll_ser.c.
 *
 * Floating point follows Java's order of operations exactly (each KxQ
 * step rounded on its own, HIP added before KxQ moves), since the
 * estimates are compared digit for digit with Hive's.
 */
#include "util/ds_hll.h"

#include <math.h>
#include <string.h>

#include "util/ds_hll_int.h"
#include "util/murmur3.h"

enum { LG_INIT_LIST = 3, LG_INIT_SET = 5, KEY_MASK_26 = (1 << 26) - 1 };
#define COUPON_RSE (0.409 / (1 << 13))

int hl_ds_hll_type_of(const char *s, size_t len) {
  static const char *const names[] = {"HLL_4", "HLL_6", "HLL_8"};
  for (int i = 0; i < 3; i++)
    if (len == 5 && memcmp(s, names[i], 5) == 0) return i;
  return -1;
}

const char *hl_ds_hll_type_name(int type) {
  return type == HL_DS_HLL_4 ? "HLL_4" : type == HL_DS_HLL_6 ? "HLL_6" : "HLL_8";
}

void hl_ds_hll_init(hl_ds_hll_t *sk, hl_arena_t *arena, int lgk, int type) {
  memset(sk, 0, sizeof *sk);
  sk->arena = arena;
  sk->lgk = (uint8_t)lgk;
  sk->type = (uint8_t)type;
  sk->mode = HL_DS_HLL_LIST;
  sk->lg_arr = LG_INIT_LIST;
}

uint32_t hl_ds_hll_coupon(const uint64_t h[2]) {
  int lz = h[1] == 0 ? 64 : __builtin_clzll(h[1]);
  uint32_t value = (uint32_t)(lz > 62 ? 62 : lz) + 1;
  return (value << 26) | (uint32_t)(h[0] & KEY_MASK_26);
}

bool hl_ds_hll_is_empty(const hl_ds_hll_t *sk) {
  return sk->mode != HL_DS_HLL_MODE_HLL && sk->count == 0;
}

static double inv_pow2(uint32_t v) {
  return ldexp(1.0, -(int)v);
}

/* ---- coupon modes ---- */

/* AbstractCoupons.find: the slot of COUPON in the table of 2^LG entries,
 * or ~(first empty slot); -1 - 2^LG... never: a table is never full. */
static int64_t coupon_find(const uint32_t *arr, int lg, uint32_t coupon) {
  uint32_t mask = (1u << lg) - 1, probe = coupon & mask, start = probe;
  do {
    if (arr[probe] == 0) return ~(int64_t)probe;
    if (arr[probe] == coupon) return probe;
    uint32_t stride = ((coupon & KEY_MASK_26) >> lg) | 1;
    probe = (probe + stride) & mask;
  } while (probe != start);
  return INT64_MIN; /* unreachable: tables are kept under 3/4 full */
}

static hl_status_t hll_from_coupons(hl_ds_hll_t *sk);

static hl_status_t set_from_list(hl_ds_hll_t *sk) {
  uint32_t *old = sk->coupons, n = sk->count;
  uint32_t *t = hl_arena_zalloc(sk->arena, sizeof *t << LG_INIT_SET);
  if (!t) return HL_NOMEM;
  sk->mode = HL_DS_HLL_SET;
  sk->lg_arr = LG_INIT_SET;
  sk->cap = 1u << LG_INIT_SET;
  sk->coupons = t;
  sk->count = 0;
  for (uint32_t i = 0; i < n; i++) {
    int64_t at = coupon_find(t, LG_INIT_SET, old[i]);
    if (at < 0 && at != INT64_MIN) {
      t[~at] = old[i];
      sk->count++;
    }
  }
  return HL_OK;
}

static hl_status_t set_grow(hl_ds_hll_t *sk) {
  int lg = sk->lg_arr + 1;
  uint32_t *t = hl_arena_zalloc(sk->arena, (size_t)sizeof *t << lg);
  if (!t) return HL_NOMEM;
  for (uint32_t i = 0; i < sk->cap; i++) {
    uint32_t c = sk->coupons[i];
    if (!c) continue;
    int64_t at = coupon_find(t, lg, c);
    if (at < 0 && at != INT64_MIN) t[~at] = c;
  }
  sk->coupons = t;
  sk->lg_arr = (uint8_t)lg;
  sk->cap = 1u << lg;
  return HL_OK;
}

static hl_status_t coupon_update(hl_ds_hll_t *sk, uint32_t coupon) {
  if (sk->mode == HL_DS_HLL_LIST) {
    if (!sk->coupons) {
      if (!(sk->coupons = hl_arena_zalloc(sk->arena, sizeof(uint32_t) << LG_INIT_LIST)))
        return HL_NOMEM;
      sk->cap = 1u << LG_INIT_LIST;
    }
    for (uint32_t i = 0; i < sk->cap; i++) {
      if (sk->coupons[i] == coupon) return HL_OK;
      if (sk->coupons[i] == 0) {
        sk->coupons[i] = coupon;
        if (++sk->count < sk->cap) return HL_OK;
        return sk->lgk < 8 ? hll_from_coupons(sk) : set_from_list(sk);
      }
    }
    return HL_OK; /* unreachable: a full list has moved on */
  }
  int64_t at = coupon_find(sk->coupons, sk->lg_arr, coupon);
  if (at >= 0 || at == INT64_MIN) return HL_OK;
  sk->coupons[~at] = coupon;
  sk->count++;
  if (4 * (uint64_t)sk->count > 3 * (uint64_t)sk->cap) {
    if (sk->lg_arr == sk->lgk - 3) return hll_from_coupons(sk);
    return set_grow(sk);
  }
  return HL_OK;
}

/* CubicInterpolation: Lagrange through four points. */
static double cubic(const double x[4], const double y[4], double t) {
  double l0 = (t - x[1]) * (t - x[2]) * (t - x[3]);
  double l1 = (t - x[0]) * (t - x[2]) * (t - x[3]);
  double l2 = (t - x[0]) * (t - x[1]) * (t - x[3]);
  double l3 = (t - x[0]) * (t - x[1]) * (t - x[2]);
  double d0 = (x[0] - x[1]) * (x[0] - x[2]) * (x[0] - x[3]);
  double d1 = (x[1] - x[0]) * (x[1] - x[2]) * (x[1] - x[3]);
  double d2 = (x[2] - x[0]) * (x[2] - x[1]) * (x[2] - x[3]);
  double d3 = (x[3] - x[0]) * (x[3] - x[1]) * (x[3] - x[2]);
  return (y[0] * l0) / d0 + (y[1] * l1) / d1 + (y[2] * l2) / d2 + (y[3] * l3) / d3;
}

/* The left index of the interval of XS holding T (xs[0] <= t < xs[n-1]),
 * by Java's recursive bisection (same answer as any bisection). */
static int straddle(const double *xs, int n, double t) {
  int left = 0, right = n - 1;
  while (left + 1 != right) {
    int mid = left + (right - left) / 2;
    if (xs[mid] <= t)
      left = mid;
    else
      right = mid;
  }
  return left;
}

/* The four points to interpolate from for T: offset into the table. */
static int cubic_offset(const double *xs, int n, double t) {
  int off = straddle(xs, n, t);
  if (off == 0) return 0;
  if (off == n - 2) return off - 2;
  return off - 1;
}

static double coupon_estimate_raw(uint32_t count) {
  const double *xs = hl_ds_hll_coupon_x, *ys = hl_ds_hll_coupon_y;
  double t = count;
  if (t == xs[39]) return ys[39];
  int off = cubic_offset(xs, 40, t);
  return cubic(xs + off, ys + off, t);
}

static double coupon_estimate(uint32_t count) {
  double e = coupon_estimate_raw(count);
  return e > count ? e : count;
}

/* ---- HLL mode ---- */

static void hip_kxq(hl_ds_hll_t *sk, uint32_t oldv, uint32_t newv) {
  double kxq0 = sk->kxq0, kxq1 = sk->kxq1;
  sk->hip += (double)(1u << sk->lgk) / (kxq0 + kxq1);
  if (oldv < 32)
    sk->kxq0 = kxq0 -= inv_pow2(oldv);
  else
    sk->kxq1 = kxq1 -= inv_pow2(oldv);
  if (newv < 32)
    sk->kxq0 = kxq0 + inv_pow2(newv);
  else
    sk->kxq1 = kxq1 + inv_pow2(newv);
}

/* updateSlotWithKxQ of the sketch's type. */
static void slot_update(hl_ds_hll_t *sk, uint32_t slot, uint32_t v) {
  uint32_t old = sk->regs[slot];
  if (v <= old) return;
  hip_kxq(sk, old, v);
  sk->regs[slot] = (uint8_t)v;
  if (sk->type != HL_DS_HLL_4) {
    if (old == 0) sk->num_at_cur_min--; /* numAtCurMin counts zeros */
    return;
  }
  /* Hll4Update: curMin is the true minimum, moved up when its last slot
   * leaves it */
  if (old != sk->cur_min) return;
  sk->num_at_cur_min--;
  uint32_t k = 1u << sk->lgk;
  while (sk->num_at_cur_min == 0) {
    sk->cur_min++;
    for (uint32_t i = 0; i < k; i++)
      sk->num_at_cur_min += sk->regs[i] == sk->cur_min;
  }
}

static hl_status_t hll_new(hl_ds_hll_t *sk, int lgk, int type) {
  uint32_t k = 1u << lgk;
  uint8_t *regs = hl_arena_zalloc(sk->arena, k);
  if (!regs) return HL_NOMEM;
  sk->lgk = (uint8_t)lgk;
  sk->type = (uint8_t)type;
  sk->mode = HL_DS_HLL_MODE_HLL;
  sk->regs = regs;
  sk->ooo = sk->rebuild = false;
  sk->hip = 0;
  sk->kxq0 = k;
  sk->kxq1 = 0;
  sk->cur_min = 0;
  sk->num_at_cur_min = k;
  return HL_OK;
}

/* promoteHeapListOrSetToHll: the coupons in array order, then HIP set to
 * the coupon estimate. */
static hl_status_t hll_from_coupons(hl_ds_hll_t *sk) {
  uint32_t *c = sk->coupons, cap = sk->cap, count = sk->count;
  if (hll_new(sk, sk->lgk, sk->type) != HL_OK) return HL_NOMEM;
  uint32_t mask = (1u << sk->lgk) - 1;
  for (uint32_t i = 0; i < cap; i++)
    if (c[i]) slot_update(sk, c[i] & mask, c[i] >> 26);
  sk->hip = coupon_estimate(count);
  sk->ooo = false;
  sk->coupons = NULL;
  sk->count = sk->cap = 0;
  sk->lg_arr = 0;
  return HL_OK;
}

hl_status_t hl_ds_hll_update(hl_ds_hll_t *sk, uint32_t coupon) {
  if (coupon == 0) return HL_OK;
  if (sk->mode == HL_DS_HLL_MODE_HLL) {
    slot_update(sk, coupon & ((1u << sk->lgk) - 1), coupon >> 26);
    return HL_OK;
  }
  return coupon_update(sk, coupon);
}

/* ---- estimators ---- */

static double raw_estimate(int lgk, double kxq) {
  double k = (double)(1u << lgk), cf;
  if (lgk == 4)
    cf = 0.673;
  else if (lgk == 5)
    cf = 0.697;
  else if (lgk == 6)
    cf = 0.709;
  else
    cf = 0.7213 / (1.0 + (1.079 / k));
  return (cf * k * k) / kxq;
}

/* HarmonicNumbers: exact below 25, else the asymptotic series. */
static double harmonic(uint64_t n) {
  static const double exact[25] = {0.0,
                                   1.0,
                                   1.5,
                                   11.0 / 6.0,
                                   25.0 / 12.0,
                                   137.0 / 60.0,
                                   49.0 / 20.0,
                                   363.0 / 140.0,
                                   761.0 / 280.0,
                                   7129.0 / 2520.0,
                                   7381.0 / 2520.0,
                                   83711.0 / 27720.0,
                                   86021.0 / 27720.0,
                                   1145993.0 / 360360.0,
                                   1171733.0 / 360360.0,
                                   1195757.0 / 360360.0,
                                   2436559.0 / 720720.0,
                                   42142223.0 / 12252240.0,
                                   14274301.0 / 4084080.0,
                                   275295799.0 / 77597520.0,
                                   55835135.0 / 15519504.0,
                                   18858053.0 / 5173168.0,
                                   19093197.0 / 5173168.0,
                                   444316699.0 / 118982864.0,
                                   1347822955.0 / 356948592.0};
  if (n < 25) return exact[n];
  double x = (double)n, inv_sq = 1.0 / (x * x);
  double sum = log(x) + 0.577215664901532860606512090082 + (1.0 / (2.0 * x));
  double pow = inv_sq;
  sum -= pow * (1.0 / 12.0);
  pow *= inv_sq;
  sum += pow * (1.0 / 120.0);
  pow *= inv_sq;
  sum -= pow * (1.0 / 252.0);
  pow *= inv_sq;
  sum += pow * (1.0 / 240.0);
  return sum;
}

static double bitmap_estimate(int lgk, uint32_t cur_min, uint32_t num_at_cur_min) {
  uint32_t k = 1u << lgk;
  uint32_t unhit = cur_min == 0 ? num_at_cur_min : 0;
  if (unhit == 0) return k * log(k / 0.5);
  uint32_t hit = k - unhit;
  return k * (harmonic(k) - harmonic(k - hit));
}

double hl_ds_hll_composite_estimate(const hl_ds_hll_t *sk) {
  if (sk->mode != HL_DS_HLL_MODE_HLL) return coupon_estimate(sk->count);
  int lgk = sk->lgk;
  double raw = raw_estimate(lgk, sk->kxq0 + sk->kxq1);
  const hl_ds_hll_xtab_t *t = &hl_ds_hll_xtabs[lgk - HL_DS_HLL_MIN_LGK];
  int last = t->n - 1;
  if (raw < t->x[0]) return 0;
  if (raw > t->x[last]) {
    double final_y = t->y_stride * last;
    return raw * (final_y / t->x[last]);
  }
  double adj;
  if (raw == t->x[last]) {
    adj = t->y_stride * last;
  } else {
    int off = cubic_offset(t->x, t->n, raw);
    double ys[4];
    for (int i = 0; i < 4; i++)
      ys[i] = t->y_stride * (off + i);
    adj = cubic(t->x + off, ys, raw);
  }
  if (adj > (double)(3u << lgk)) return adj;
  double lin = bitmap_estimate(lgk, sk->cur_min, sk->num_at_cur_min);
  double avg = (adj + lin) / 2.0;
  double cross = lgk == 4 ? 0.718 : lgk == 5 ? 0.672 : 0.64;
  return avg > cross * (double)(1u << lgk) ? adj : lin;
}

double hl_ds_hll_estimate(const hl_ds_hll_t *sk) {
  if (sk->mode != HL_DS_HLL_MODE_HLL) return coupon_estimate(sk->count);
  return sk->ooo ? hl_ds_hll_composite_estimate(sk) : sk->hip;
}

static double rel_err(bool upper, bool ooo, int lgk, int nsd) {
  if (lgk > 12) {
    double f = ooo ? sqrt((3.0 * log(2.0)) - 1.0) : sqrt(log(2.0));
    return (nsd * f) / sqrt((double)(1u << lgk));
  }
  int i = (lgk - 4) * 3 + (nsd - 1);
  const double *t = ooo ? (upper ? hl_ds_hll_nonhip_ub : hl_ds_hll_nonhip_lb)
                        : (upper ? hl_ds_hll_hip_ub : hl_ds_hll_hip_lb);
  return fabs(t[i]);
}

double hl_ds_hll_lower_bound(const hl_ds_hll_t *sk, int nsd) {
  if (sk->mode != HL_DS_HLL_MODE_HLL) {
    double e = coupon_estimate_raw(sk->count) / (1.0 + (nsd * COUPON_RSE));
    return e > sk->count ? e : sk->count;
  }
  double k = (double)(1u << sk->lgk);
  double nonzeros = sk->cur_min == 0 ? k - sk->num_at_cur_min : k;
  double e = hl_ds_hll_estimate(sk) / (1.0 + rel_err(false, sk->ooo, sk->lgk, nsd));
  return e > nonzeros ? e : nonzeros;
}

double hl_ds_hll_upper_bound(const hl_ds_hll_t *sk, int nsd) {
  if (sk->mode != HL_DS_HLL_MODE_HLL) {
    double e = coupon_estimate_raw(sk->count) / (1.0 - (nsd * COUPON_RSE));
    return e > sk->count ? e : sk->count;
  }
  return hl_ds_hll_estimate(sk) / (1.0 - rel_err(true, sk->ooo, sk->lgk, nsd));
}

/* ---- conversions and the union ---- */

/* copy / copyAs(HLL_8) of any sketch into OUT (in ARENA). */
static hl_status_t copy_as(const hl_ds_hll_t *src, int type, hl_arena_t *arena, hl_ds_hll_t *out) {
  *out = *src;
  out->arena = arena;
  if (src->mode != HL_DS_HLL_MODE_HLL) {
    out->type = (uint8_t)type;
    if (src->cap) {
      if (!(out->coupons = hl_arena_alloc(arena, sizeof(uint32_t) * src->cap))) return HL_NOMEM;
      memcpy(out->coupons, src->coupons, sizeof(uint32_t) * src->cap);
    }
    return HL_OK;
  }
  uint32_t k = 1u << src->lgk;
  if (!(out->regs = hl_arena_alloc(arena, k))) return HL_NOMEM;
  memcpy(out->regs, src->regs, k);
  if (type == src->type) return HL_OK; /* copy(): every field as it is */
  out->type = (uint8_t)type;
  out->rebuild = false;
  out->kxq0 = k;
  out->kxq1 = 0;
  if (type == HL_DS_HLL_4) {
    /* convertToHll4: curMin the true minimum, KxQ rebuilt in slot order */
    uint32_t cur_min = 64, num = 0;
    for (uint32_t i = 0; i < k; i++) {
      uint32_t v = out->regs[i];
      if (v < cur_min) {
        cur_min = v;
        num = 1;
      } else if (v == cur_min) {
        num++;
      }
    }
    for (uint32_t i = 0; i < k; i++) {
      uint32_t v = out->regs[i];
      if (!v) continue;
      double kxq0 = out->kxq0, kxq1 = out->kxq1;
      out->kxq0 = kxq0 -= 1.0;
      if (v < 32)
        out->kxq0 = kxq0 + inv_pow2(v);
      else
        out->kxq1 = kxq1 + inv_pow2(v);
    }
    out->cur_min = cur_min;
    out->num_at_cur_min = num;
  } else {
    /* convertToHll6 / convertToHll8: curMin 0, numAtCurMin the zeros */
    uint32_t zeros = k;
    for (uint32_t i = 0; i < k; i++) {
      uint32_t v = out->regs[i];
      if (!v) continue;
      zeros--;
      double kxq0 = out->kxq0, kxq1 = out->kxq1;
      out->kxq0 = kxq0 -= 1.0;
      if (v < 32)
        out->kxq0 = kxq0 + inv_pow2(v);
      else
        out->kxq1 = kxq1 + inv_pow2(v);
    }
    out->cur_min = 0;
    out->num_at_cur_min = zeros;
  }
  return HL_OK; /* HIP and the out-of-order flag are kept */
}

/* HllUnion.downsample: the valid slots of SRC as coupons into a new
 * HLL_8 of LGK; HIP and the out-of-order flag kept. */
static hl_status_t downsample(const hl_ds_hll_t *src, int lgk, hl_arena_t *arena,
                              hl_ds_hll_t *out) {
  memset(out, 0, sizeof *out);
  out->arena = arena;
  if (hll_new(out, lgk, HL_DS_HLL_8) != HL_OK) return HL_NOMEM;
  uint32_t k = 1u << src->lgk, mask = (1u << lgk) - 1;
  for (uint32_t i = 0; i < k; i++)
    if (src->regs[i]) slot_update(out, i & mask, src->regs[i]);
  out->hip = src->hip;
  out->ooo = src->ooo;
  out->rebuild = false;
  return HL_OK;
}

/* SRC's coupons (array order, empties skipped) into DST: mergeTo. */
static hl_status_t merge_coupons(const hl_ds_hll_t *src, hl_ds_hll_t *dst) {
  uint32_t n = src->cap;
  for (uint32_t i = 0; i < n; i++)
    if (src->coupons[i] && hl_ds_hll_update(dst, src->coupons[i]) != HL_OK) return HL_NOMEM;
  return HL_OK;
}

void hl_ds_hll_union_init(hl_ds_hll_t *gadget, hl_arena_t *arena, int lg_max_k) {
  hl_ds_hll_init(gadget, arena, lg_max_k, HL_DS_HLL_8);
}

/* putOutOfOrder(true): HIP is no longer meaningful and is zeroed. */
static void set_ooo(hl_ds_hll_t *sk) {
  sk->ooo = true;
  sk->hip = 0;
}

hl_status_t hl_ds_hll_union_update(hl_ds_hll_t *g, int lg_max_k, const hl_ds_hll_t *src) {
  if (hl_ds_hll_is_empty(src)) return HL_OK;
  if (src->mode != HL_DS_HLL_MODE_HLL) return merge_coupons(src, g); /* wrapped SET: mergeTo too */
  int src_lgk = src->lgk;
  bool g_empty = hl_ds_hll_is_empty(g);
  hl_ds_hll_t t;
  if (g_empty || g->mode != HL_DS_HLL_MODE_HLL) {
    /* copy (or downsample) the source as HLL_8, then the gadget's coupons
     * into it; the source's out-of-order flag stays */
    hl_status_t st = src_lgk > lg_max_k ? downsample(src, lg_max_k, g->arena, &t)
                                        : copy_as(src, HL_DS_HLL_8, g->arena, &t);
    if (st != HL_OK) return st;
    if (!g_empty && merge_coupons(g, &t) != HL_OK) return HL_NOMEM;
    *g = t;
    return HL_OK;
  }
  if (src_lgk < g->lgk) { /* the gadget shrinks to the source's lgK */
    if (downsample(g, src_lgk, g->arena, &t) != HL_OK) return HL_NOMEM;
    *g = t;
  }
  uint32_t k = 1u << src_lgk, mask = (1u << g->lgk) - 1;
  for (uint32_t i = 0; i < k; i++) {
    uint8_t v = src->regs[i];
    if (v > g->regs[i & mask]) g->regs[i & mask] = v;
  }
  g->rebuild = true;
  set_ooo(g);
  return HL_OK;
}

/* checkRebuildCurMinNumKxQ: an HLL_8 gadget's fields from its slots. */
static void rebuild(hl_ds_hll_t *g) {
  if (!g->rebuild || g->mode != HL_DS_HLL_MODE_HLL || g->type != HL_DS_HLL_8) return;
  uint32_t k = 1u << g->lgk, cur_min = 64, num = 0;
  double kxq0 = k, kxq1 = 0;
  for (uint32_t i = 0; i < k; i++) {
    uint32_t v = g->regs[i];
    if (v > 0) {
      if (v < 32)
        kxq0 += inv_pow2(v) - 1.0;
      else
        kxq1 += inv_pow2(v) - 1.0;
    }
    if (v > cur_min) continue;
    if (v < cur_min) {
      cur_min = v;
      num = 1;
    } else {
      num++;
    }
  }
  g->kxq0 = kxq0;
  g->kxq1 = kxq1;
  g->cur_min = cur_min;
  g->num_at_cur_min = num;
  g->rebuild = false;
}

hl_status_t hl_ds_hll_union_result(hl_ds_hll_t *g, int type, hl_ds_hll_t *out) {
  rebuild(g);
  return copy_as(g, type, g->arena, out);
}

hl_status_t hl_ds_hash_chars(const char *utf8, size_t len, hl_arena_t *scratch, uint64_t out[2]) {
  uint8_t *u = hl_arena_alloc(scratch, 2 * len + 2);
  if (!u) return HL_NOMEM;
  const uint8_t *s = (const uint8_t *)utf8;
  size_t n = 0;
  for (size_t i = 0; i < len;) {
    uint32_t c = s[i], need = c < 0x80                ? 0
                              : c >= 0xc2 && c < 0xe0 ? 1
                              : c >= 0xe0 && c < 0xf0 ? 2
                              : c >= 0xf0 && c < 0xf5 ? 3
                                                      : 4;
    uint32_t cp = need == 0 ? c : need == 1 ? c & 0x1f : need == 2 ? c & 0x0f : c & 0x07;
    bool ok = need < 4 && i + need < len + (need == 0);
    for (uint32_t j = 1; ok && j <= need; j++) {
      if ((s[i + j] & 0xc0) != 0x80) ok = false;
      cp = cp << 6 | (s[i + j] & 0x3f);
    }
    /* overlong, surrogate and out-of-range forms are malformed too */
    if (ok && ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
               (cp >= 0xd800 && cp < 0xe000)))
      ok = false;
    if (!ok) {
      cp = 0xfffd;
      need = 0;
    }
    i += need + 1;
    if (cp >= 0x10000) {
      uint32_t v = cp - 0x10000, hi = 0xd800 | v >> 10, lo = 0xdc00 | (v & 0x3ff);
      u[2 * n] = (uint8_t)hi;
      u[2 * n + 1] = (uint8_t)(hi >> 8);
      u[2 * n + 2] = (uint8_t)lo;
      u[2 * n + 3] = (uint8_t)(lo >> 8);
      n += 2;
    } else {
      u[2 * n] = (uint8_t)cp;
      u[2 * n + 1] = (uint8_t)(cp >> 8);
      n++;
    }
  }
  hl_murmur3_128(u, 2 * n, HL_DS_SEED, out);
  return HL_OK;
}
