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

/* ------------------------------------------------------ trigonometry etc. */

HL_FN(hl_fn_sin) {
  return unary_double(a, out, sin, false, false);
}

HL_FN(hl_fn_cos) {
  return unary_double(a, out, cos, false, false);
}

HL_FN(hl_fn_tan) {
  return unary_double(a, out, tan, false, false);
}

HL_FN(hl_fn_atan) {
  return unary_double(a, out, atan, false, false);
}

/* glibc's cbrt may be one ulp off (cbrt(27) = 3.0000000000000004); a
 * Newton step gives Java's exact cubes back */
static double cube_root(double x) {
  double r = cbrt(x);
  if (r == 0 || !isfinite(r)) return r;
  double n = r - (r * r * r - x) / (3 * r * r);
  return fabs(n * n * n - x) < fabs(r * r * r - x) ? n : r;
}

HL_FN(hl_fn_sinh) {
  return unary_double(a, out, sinh, false, false);
}

HL_FN(hl_fn_cosh) {
  return unary_double(a, out, cosh, false, false);
}

HL_FN(hl_fn_tanh) {
  return unary_double(a, out, tanh, false, false);
}

HL_FN(hl_fn_cbrt) {
  return unary_double(a, out, cube_root, false, false);
}

/* asin/acos outside [-1, 1] are NaN in Java, which Hive returns as NULL */
static hl_status_t unit_domain(const hl_value_t *a, hl_value_t *out, double (*f)(double)) {
  NULL_ARG(0);
  double x = a[0].u.d;
  if (!(x >= -1 && x <= 1))
    out->is_null = true;
  else
    out->u.d = f(x);
  return HL_OK;
}

HL_FN(hl_fn_asin) {
  return unit_domain(a, out, asin);
}

HL_FN(hl_fn_acos) {
  return unit_domain(a, out, acos);
}

static double to_degrees(double x) {
  return x * (180.0 / M_PI);
}

static double to_radians(double x) {
  return x / 180.0 * M_PI;
}

HL_FN(hl_fn_degrees) {
  return unary_double(a, out, to_degrees, false, false);
}

HL_FN(hl_fn_radians) {
  return unary_double(a, out, to_radians, false, false);
}

HL_FN(hl_fn_pi) {
  out->u.d = M_PI;
  return HL_OK;
}

HL_FN(hl_fn_e) {
  out->u.d = M_E;
  return HL_OK;
}

/* positive(x) is x; negative(x) is -x of x's own type (integers wrap) */
HL_FN(hl_fn_positive) {
  *out = a[0];
  return HL_OK;
}

HL_FN(hl_fn_negative) {
  *out = a[0];
  if (a[0].is_null) return HL_OK;
  switch (hl_type_phys(call->type)) {
  case HL_P_I64: {
    uint64_t v = 0 - (uint64_t)a[0].u.i;
    switch (call->type->id) { /* wrap within the type, as Java does */
    case HL_T_TINYINT:
      out->u.i = (int8_t)v;
      break;
    case HL_T_SMALLINT:
      out->u.i = (int16_t)v;
      break;
    case HL_T_INT:
      out->u.i = (int32_t)v;
      break;
    default:
      out->u.i = (int64_t)v;
    }
    break;
  }
  case HL_P_F64:
    out->u.d = -a[0].u.d;
    break;
  case HL_P_I128:
    out->u.dec = -a[0].u.dec;
    break;
  default:
    break;
  }
  return HL_OK;
}

/* factorial(0..20) as BIGINT; outside that range NULL (Hive). */
HL_FN(hl_fn_factorial) {
  NULL_ARG(0);
  int64_t n = a[0].u.i;
  if (n < 0 || n > 20) {
    out->is_null = true;
    return HL_OK;
  }
  int64_t f = 1;
  for (int64_t k = 2; k <= n; k++)
    f *= k;
  out->u.i = f;
  return HL_OK;
}

/* Unsigned digits of V in BASE (2..36, upper case) into BUF, from the end;
 * returns the first digit's index. */
static int unsigned_digits(uint64_t v, unsigned base, char buf[65]) {
  int i = 64;
  buf[64] = 0;
  do {
    unsigned d = (unsigned)(v % base);
    buf[--i] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
    v /= base;
  } while (v);
  return i;
}

static hl_status_t put_text(hl_value_t *out, hl_arena_t *arena, hl_error_t *err, const char *s,
                            size_t n) {
  char *p = hl_fn_alloc_str(out, arena, n);
  if (!p) return hl_err_nomem(err);
  if (n) memcpy(p, s, n);
  return HL_OK;
}

/* bin(BIGINT): Java's Long.toBinaryString, two's complement for negatives */
HL_FN(hl_fn_bin) {
  NULL_ARG(0);
  char buf[65];
  int i = unsigned_digits((uint64_t)a[0].u.i, 2, buf);
  return put_text(out, arena, err, buf + i, (size_t)(64 - i));
}

/* hex(BIGINT) is the two's complement in upper-case hex; hex(STRING or
 * BINARY) two hex digits per byte; other types go through their text. */
HL_FN(hl_fn_hex) {
  NULL_ARG(0);
  const hl_type_t *t = call->args[0]->type;
  if (hl_type_is_integer(t)) {
    char buf[65];
    int i = unsigned_digits((uint64_t)a[0].u.i, 16, buf);
    return put_text(out, arena, err, buf + i, (size_t)(64 - i));
  }
  hl_buf_t text;
  hl_buf_init(&text);
  const char *s;
  size_t n;
  if (hl_type_phys(t) == HL_P_STR) {
    s = a[0].u.s.ptr;
    n = a[0].u.s.len;
  } else {
    hl_value_format(&text, t, &a[0]);
    s = text.data;
    n = text.len;
  }
  char *p = text.oom ? NULL : hl_fn_alloc_str(out, arena, 2 * n);
  static const char digits[] = "0123456789ABCDEF";
  for (size_t i = 0; p && i < n; i++) {
    p[2 * i] = digits[(unsigned char)s[i] >> 4];
    p[2 * i + 1] = digits[(unsigned char)s[i] & 15];
  }
  hl_buf_fini(&text);
  return p ? HL_OK : hl_err_nomem(err);
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* unhex(STRING) -> BINARY; an odd length reads as if a '0' led it; any
 * character that is not a hex digit makes it NULL. */
HL_FN(hl_fn_unhex) {
  NULL_ARG(0);
  const char *s = a[0].u.s.ptr;
  size_t n = a[0].u.s.len, odd = n & 1, m = (n + 1) / 2;
  char *p = hl_fn_alloc_str(out, arena, m);
  if (!p) return hl_err_nomem(err);
  for (size_t i = 0; i < m; i++) {
    int hi = (i == 0 && odd) ? 0 : hex_digit(s[2 * i - odd]);
    int lo = hex_digit(s[2 * i + 1 - odd]);
    if (hi < 0 || lo < 0) {
      out->is_null = true;
      return HL_OK;
    }
    p[i] = (char)(hi << 4 | lo);
  }
  return HL_OK;
}

/* conv(num, from_base, to_base), as Hive's UDFConv: the digits are read up
 * to the first one that is not valid in from_base, as an unsigned 64-bit
 * value (overflow saturates to all ones); a leading '-' negates it; a
 * negative to_base prints the value signed.  Bases outside 2..36 and an
 * empty number give NULL. */
HL_FN(hl_fn_conv) {
  NULL_ARG(0);
  NULL_ARG(1);
  NULL_ARG(2);
  int64_t from = a[1].u.i, to = a[2].u.i;
  const char *s = a[0].u.s.ptr;
  size_t n = a[0].u.s.len;
  if (from < 2 || from > 36 || to == INT64_MIN || llabs(to) < 2 || llabs(to) > 36 || n == 0) {
    out->is_null = true;
    return HL_OK;
  }
  bool negative = s[0] == '-';
  uint64_t v = 0;
  for (size_t i = negative; i < n; i++) {
    int d = hex_digit(s[i]);
    if (d < 0 && ((s[i] >= 'g' && s[i] <= 'z') || (s[i] >= 'G' && s[i] <= 'Z')))
      d = (s[i] | 0x20) - 'a' + 10;
    if (d < 0 || d >= from) break;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)from) {
      v = UINT64_MAX;
      break;
    }
    v = v * (uint64_t)from + (uint64_t)d;
  }
  bool sign = negative;
  if (negative && to > 0) v = (int64_t)v < 0 ? UINT64_MAX : 0 - v;
  if (to < 0 && (int64_t)v < 0) {
    v = 0 - v;
    sign = true;
  }
  sign = sign && to < 0;
  char buf[66];
  int i = unsigned_digits(v, (unsigned)llabs(to), buf + 1) + 1;
  if (sign) buf[--i] = '-';
  return put_text(out, arena, err, buf + i, (size_t)(65 - i));
}

/* width_bucket(x, min, max, n): the bucket 1..n of x among n equal-width
 * buckets over [min, max) (or (max, min] when min > max); 0 below, n + 1
 * above.  n <= 0 or min = max fails the statement, as in Hive. */
HL_FN(hl_fn_width_bucket) {
  for (int i = 0; i < 4; i++)
    NULL_ARG(i);
  double x = a[0].u.d, lo = a[1].u.d, hi = a[2].u.d;
  int64_t n = a[3].u.i;
  if (n <= 0 || n > INT32_MAX - 1)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "width_bucket: the number of buckets must be a positive INT");
  if (lo == hi)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "width_bucket: the lower and upper bounds must differ");
  int64_t b;
  if (lo < hi)
    b = x < lo ? 0 : x >= hi ? n + 1 : (int64_t)floor((x - lo) / (hi - lo) * (double)n) + 1;
  else
    b = x > lo ? 0 : x <= hi ? n + 1 : (int64_t)floor((lo - x) / (lo - hi) * (double)n) + 1;
  out->u.i = b;
  return HL_OK;
}

/* shiftleft/shiftright/shiftrightunsigned(a, b): Java's <<, >>, >>> on an
 * INT (shift taken mod 32) or a BIGINT (mod 64), the type of a. */
static hl_status_t shift(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out, int kind) {
  NULL_ARG(0);
  NULL_ARG(1);
  bool wide = call->type->id == HL_T_BIGINT;
  unsigned s = (unsigned)a[1].u.i & (wide ? 63u : 31u);
  if (wide) {
    uint64_t v = (uint64_t)a[0].u.i;
    out->u.i = kind == 0   ? (int64_t)(v << s)
               : kind == 1 ? (a[0].u.i < 0 ? ~(int64_t)(~v >> s) : (int64_t)(v >> s))
                           : (int64_t)(v >> s);
  } else {
    uint32_t v = (uint32_t)(int32_t)a[0].u.i;
    int32_t sv = (int32_t)v;
    out->u.i = kind == 0   ? (int32_t)(v << s)
               : kind == 1 ? (sv < 0 ? ~(int32_t)(~v >> s) : (int32_t)(v >> s))
                           : (int32_t)(v >> s);
  }
  return HL_OK;
}

HL_FN(hl_fn_shiftleft) {
  return shift(call, a, out, 0);
}

HL_FN(hl_fn_shiftright) {
  return shift(call, a, out, 1);
}

HL_FN(hl_fn_shiftrightunsigned) {
  return shift(call, a, out, 2);
}
