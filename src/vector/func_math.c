/*
 * func_math.c -- numeric functions of the scalar library.
 *
 * Hive rounds HALF_UP on the decimal text of a double (BigDecimal.valueOf),
 * so round(1.005, 2) is 1.01, not the binary 1.00; bround is HALF_EVEN.
 * Out-of-domain inputs (sqrt(-1), ln(0), log base 1) give NULL, as Hive.
 */
#include "vector/func_int.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NULL_ARG(i)                                                                                \
  do {                                                                                             \
    if (a[i].is_null) {                                                                            \
      out->is_null = true;                                                                         \
      return HL_OK;                                                                                \
    }                                                                                              \
  } while (0)

static __int128 pow10_i(int n) {
  __int128 v = 1;
  for (int i = 0; i < n; i++)
    v *= 10;
  return v;
}

/* Rounds an unscaled decimal V of scale S to D digits (D may be negative),
 * keeping scale S; HALF_UP or HALF_EVEN. */
static __int128 round_unscaled(__int128 v, int s, int d, bool half_even) {
  int drop = s - d;
  if (drop <= 0) return v;
  if (drop > 38) return 0;
  __int128 unit = pow10_i(drop), q = v / unit, r = v % unit;
  __int128 ar = r < 0 ? -r : r;
  bool up = ar * 2 > unit || (ar * 2 == unit && (!half_even || (q % 2 != 0)));
  if (up) q += v < 0 ? -1 : 1;
  return q * unit;
}

/* Rounds a double on its shortest decimal text, as Java's BigDecimal.valueOf. */
static double round_double(double x, int d, bool half_even) {
  if (!isfinite(x)) return x;
  char tmp[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
    if (strtod(tmp, NULL) == x) break;
  }
  /* mantissa digits and exponent */
  char digits[24];
  int nd = 0;
  const char *p = tmp;
  bool neg = *p == '-';
  if (neg) p++;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') digits[nd++] = *p;
  int exp10 = atoi(p + 1);
  /* value = 0.d1d2..dn * 10^(exp10+1); keep digits up to position d after
   * the point: index (exp10 + 1 + d) */
  int keep = exp10 + 1 + d;
  if (keep >= nd) return x;
  if (keep < 0) return neg ? -0.0 : 0.0;
  __int128 v = 0;
  for (int i = 0; i < keep; i++)
    v = v * 10 + (digits[i] - '0');
  int next = digits[keep] - '0';
  bool rest_nonzero = false;
  for (int i = keep + 1; i < nd; i++)
    if (digits[i] != '0') rest_nonzero = true;
  bool up = next > 5 || (next == 5 && (rest_nonzero || !half_even || (v % 2 != 0)));
  if (up) v++;
  char out[64];
  snprintf(out, sizeof out, "%s%lldE%d", neg ? "-" : "", (long long)v, exp10 + 1 - keep);
  return strtod(out, NULL);
}

static hl_status_t round_impl(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                              bool half_even) {
  NULL_ARG(0);
  int d = 0;
  if (call->n_args > 1) {
    NULL_ARG(1);
    d = a[1].u.i > 38 ? 38 : a[1].u.i < -38 ? -38 : (int)a[1].u.i;
  }
  const hl_type_t *in = call->args[0]->type;
  *out = a[0];
  switch (hl_type_phys(in)) {
  case HL_P_F64:
    out->u.d = round_double(a[0].u.d, d, half_even);
    break;
  case HL_P_I64:
    if (d < 0) out->u.i = (int64_t)round_unscaled(a[0].u.i, 0, d, half_even);
    break;
  case HL_P_I128: {
    __int128 r = round_unscaled(a[0].u.dec, in->scale, d, half_even);
    /* to the result's scale (<= the input's) */
    int drop = in->scale - call->type->scale;
    out->u.dec = drop > 0 ? r / pow10_i(drop) : r;
    break;
  }
  default:
    break;
  }
  return HL_OK;
}

HL_FN(hl_fn_round) {
  return round_impl(call, a, out, false);
}

HL_FN(hl_fn_bround) {
  return round_impl(call, a, out, true);
}

static hl_status_t floor_ceil(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                              bool ceiling) {
  NULL_ARG(0);
  const hl_type_t *in = call->args[0]->type;
  switch (hl_type_phys(in)) {
  case HL_P_F64: {
    double r = ceiling ? ceil(a[0].u.d) : floor(a[0].u.d);
    if (!(r >= -9.2233720368547758e18 && r < 9.2233720368547758e18))
      out->is_null = true;
    else
      out->u.i = (int64_t)r;
    break;
  }
  case HL_P_I64:
    out->u.i = a[0].u.i;
    break;
  case HL_P_I128: {
    __int128 unit = pow10_i(in->scale), q = a[0].u.dec / unit, r = a[0].u.dec % unit;
    if (r != 0 && ceiling && a[0].u.dec > 0) q++;
    if (r != 0 && !ceiling && a[0].u.dec < 0) q--;
    out->u.dec = q;
    break;
  }
  default:
    out->is_null = true;
  }
  return HL_OK;
}

HL_FN(hl_fn_floor) {
  return floor_ceil(call, a, out, false);
}

HL_FN(hl_fn_ceil) {
  return floor_ceil(call, a, out, true);
}

static hl_status_t unary_double(const hl_value_t *a, hl_value_t *out, double (*f)(double),
                                bool positive_only, bool nonneg_only) {
  NULL_ARG(0);
  double x = a[0].u.d;
  if ((positive_only && !(x > 0)) || (nonneg_only && x < 0)) {
    out->is_null = true;
    return HL_OK;
  }
  out->u.d = f(x);
  return HL_OK;
}

HL_FN(hl_fn_sqrt) {
  return unary_double(a, out, sqrt, false, true);
}

HL_FN(hl_fn_exp) {
  return unary_double(a, out, exp, false, false);
}

HL_FN(hl_fn_ln) {
  return unary_double(a, out, log, true, false);
}

HL_FN(hl_fn_log10) {
  return unary_double(a, out, log10, true, false);
}

HL_FN(hl_fn_log2) {
  return unary_double(a, out, log2, true, false);
}

/* log(base, x); log(x) is ln(x) */
HL_FN(hl_fn_log) {
  if (call->n_args == 1) return unary_double(a, out, log, true, false);
  NULL_ARG(0);
  NULL_ARG(1);
  double base = a[0].u.d, x = a[1].u.d;
  if (!(base > 0) || base == 1 || !(x > 0))
    out->is_null = true;
  else
    out->u.d = log(x) / log(base);
  return HL_OK;
}

HL_FN(hl_fn_pow) {
  NULL_ARG(0);
  NULL_ARG(1);
  out->u.d = pow(a[0].u.d, a[1].u.d);
  return HL_OK;
}

HL_FN(hl_fn_pmod) {
  NULL_ARG(0);
  NULL_ARG(1);
  switch (hl_type_phys(call->type)) {
  case HL_P_I64: {
    int64_t x = a[0].u.i, y = a[1].u.i;
    if (y == 0) {
      out->is_null = true;
      return HL_OK;
    }
    if (y == -1) {
      out->u.i = 0;
      return HL_OK;
    }
    int64_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    out->u.i = r;
    return HL_OK;
  }
  case HL_P_F64: {
    double x = a[0].u.d, y = a[1].u.d;
    if (y == 0) {
      out->is_null = true;
      return HL_OK;
    }
    double r = fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    out->u.d = r;
    return HL_OK;
  }
  default:
    out->is_null = true;
    return HL_OK;
  }
}

HL_FN(hl_fn_sign) {
  NULL_ARG(0);
  switch (hl_type_phys(call->args[0]->type)) {
  case HL_P_I64:
    out->u.i = (a[0].u.i > 0) - (a[0].u.i < 0);
    break;
  case HL_P_F64:
    out->u.i = (a[0].u.d > 0) - (a[0].u.d < 0);
    break;
  case HL_P_I128:
    out->u.i = (a[0].u.dec > 0) - (a[0].u.dec < 0);
    break;
  default:
    out->is_null = true;
  }
  return HL_OK;
}

/* splitmix64: a fixed, well-mixed sequence from (seed, n). */
static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

HL_FN(hl_fn_rand) {
  hl_rand_state_t *st = call->state;
  uint64_t n = atomic_fetch_add(&st->counter, 1);
  out->u.d = (double)(mix64(st->seed * 0x100000001B3ULL + n) >> 11) / 9007199254740992.0;
  return HL_OK;
}
