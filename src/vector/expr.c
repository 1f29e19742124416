/*
 * expr.c -- vectorized evaluation of bound expressions (see expr.h).
 *
 * Every kernel walks the live rows of the input batch (its selection
 * vector, if any) and writes results at the same physical row positions,
 * so a filter's selection stays valid for everything computed after it.
 * Hive semantics: integer arithmetic wraps at the width of the result type
 * (Java), division by zero and failed conversions give NULL, comparisons
 * with NULL give NULL, AND/OR are three-valued.
 */
#include "vector/func_int.h"

#include "util/hashmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define FOR_LIVE(b, r)                                                                             \
  for (uint32_t i_ = 0, n_ = hl_batch_live(b), r = 0; i_ < n_ && ((r = hl_batch_row(b, i_)), 1);   \
       i_++)

static hl_status_t nomem(hl_error_t *err) {
  return hl_err_nomem(err);
}

static hl_status_t set_null(hl_vec_t *v, hl_arena_t *arena, uint32_t row, hl_error_t *err) {
  return hl_vec_set_null(v, arena, row) == HL_OK ? HL_OK : nomem(err);
}

/* ------------------------------------------------------------- helpers */

/* Wraps V to the width of integer type ID, as Java arithmetic does. */
static int64_t wrap_int(hl_type_id_t id, int64_t v) {
  switch (id) {
  case HL_T_TINYINT:
    return (int8_t)(uint8_t)(uint64_t)v;
  case HL_T_SMALLINT:
    return (int16_t)(uint16_t)(uint64_t)v;
  case HL_T_INT:
    return (int32_t)(uint32_t)(uint64_t)v;
  default:
    return v;
  }
}

static const uint64_t POW10_64[20] = {1ULL,
                                      10ULL,
                                      100ULL,
                                      1000ULL,
                                      10000ULL,
                                      100000ULL,
                                      1000000ULL,
                                      10000000ULL,
                                      100000000ULL,
                                      1000000000ULL,
                                      10000000000ULL,
                                      100000000000ULL,
                                      1000000000000ULL,
                                      10000000000000ULL,
                                      100000000000000ULL,
                                      1000000000000000ULL,
                                      10000000000000000ULL,
                                      100000000000000000ULL,
                                      1000000000000000000ULL,
                                      10000000000000000000ULL};

/* 10^N for N <= 38 (1 for N <= 0) */
static __int128 pow10_128(int n) {
  if (n <= 0) return 1;
  return n <= 19 ? (__int128)POW10_64[n] : (__int128)POW10_64[19] * (__int128)POW10_64[n - 19];
}

/* Rescales unscaled decimal V from scale FROM to scale TO, rounding half
 * away from zero when digits are dropped. */
static __int128 rescale(__int128 v, int from, int to) {
  if (to >= from) return v * pow10_128(to - from);
  __int128 div = pow10_128(from - to);
  __int128 q = v / div, r = v % div;
  if (r < 0) r = -r;
  if (r * 2 >= div) q += v < 0 ? -1 : 1;
  return q;
}

static bool dec_fits(__int128 v, int precision) {
  __int128 lim = pow10_128(precision);
  return v < lim && v > -lim;
}

/* V at scale FROM as a DECIMAL(PRECISION, TO) in *OUT (rescale); false
 * (NULL) when it does not fit, also when scaling up would pass 128 bits.
 * Shared by hl_value_cast and cast_batch. */
static inline bool dec_cast(__int128 v, int from, int to, int precision, __int128 *out) {
  __int128 r;
  if (to > from) {
    if (__builtin_mul_overflow(v, pow10_128(to - from), &r)) return false;
  } else {
    r = rescale(v, from, to);
  }
  if (!dec_fits(r, precision)) return false;
  *out = r;
  return true;
}

/* 256-bit two's-complement integers for the decimal operations whose
 * intermediate values do not fit 128 bits (x * 10^k before a rescale, the
 * full product of two 38-digit values).  Only the slow path uses them: the
 * common case runs in __int128 with overflow checks. */
typedef struct u256 {
  uint64_t w[4]; /* little-endian words */
} u256_t;

static u256_t u256_from_i128(__int128 v) {
  u256_t r;
  unsigned __int128 u = (unsigned __int128)v;
  uint64_t ext = v < 0 ? UINT64_MAX : 0;
  r.w[0] = (uint64_t)u;
  r.w[1] = (uint64_t)(u >> 64);
  r.w[2] = r.w[3] = ext;
  return r;
}

static bool u256_is_neg(u256_t a) {
  return (a.w[3] >> 63) != 0;
}

static u256_t u256_add(u256_t a, u256_t b) {
  u256_t r;
  unsigned __int128 carry = 0;
  for (int i = 0; i < 4; i++) {
    unsigned __int128 t = (unsigned __int128)a.w[i] + b.w[i] + carry;
    r.w[i] = (uint64_t)t;
    carry = t >> 64;
  }
  return r;
}

static u256_t u256_neg(u256_t a) {
  u256_t one = {{1, 0, 0, 0}};
  for (int i = 0; i < 4; i++)
    a.w[i] = ~a.w[i];
  return u256_add(a, one);
}

/* A * M modulo 2^256; *overflow set when the unsigned product does not fit. */
static u256_t u256_mul_u64(u256_t a, uint64_t m, bool *overflow) {
  u256_t r;
  unsigned __int128 carry = 0;
  for (int i = 0; i < 4; i++) {
    unsigned __int128 t = (unsigned __int128)a.w[i] * m + carry;
    r.w[i] = (uint64_t)t;
    carry = t >> 64;
  }
  if (carry) *overflow = true;
  return r;
}

static int u256_cmp(u256_t a, u256_t b) {
  for (int i = 3; i >= 0; i--)
    if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
  return 0;
}

static u256_t u256_sub(u256_t a, u256_t b) {
  return u256_add(a, u256_neg(b));
}

/* Unsigned A / B (B != 0) by shift and subtract; *rem gets A % B. */
static u256_t u256_divmod(u256_t a, u256_t b, u256_t *rem) {
  u256_t q = {{0, 0, 0, 0}}, r = {{0, 0, 0, 0}};
  if (!a.w[2] && !a.w[3] && !b.w[2] && !b.w[3]) { /* the common case: 128 bits */
    unsigned __int128 ua = ((unsigned __int128)a.w[1] << 64) | a.w[0];
    unsigned __int128 ub = ((unsigned __int128)b.w[1] << 64) | b.w[0];
    unsigned __int128 uq = ua / ub, ur = ua % ub;
    q.w[0] = (uint64_t)uq;
    q.w[1] = (uint64_t)(uq >> 64);
    r.w[0] = (uint64_t)ur;
    r.w[1] = (uint64_t)(ur >> 64);
    *rem = r;
    return q;
  }
  for (int bit = 255; bit >= 0; bit--) {
    /* r = r << 1 | bit of a */
    for (int i = 3; i > 0; i--)
      r.w[i] = (r.w[i] << 1) | (r.w[i - 1] >> 63);
    r.w[0] = (r.w[0] << 1) | ((a.w[bit / 64] >> (bit % 64)) & 1);
    if (u256_cmp(r, b) >= 0) {
      r = u256_sub(r, b);
      q.w[bit / 64] |= (uint64_t)1 << (bit % 64);
    }
  }
  *rem = r;
  return q;
}

static u256_t u256_pow10(int n, bool *overflow) {
  u256_t r = {{1, 0, 0, 0}};
  for (int i = 0; i < n; i++)
    r = u256_mul_u64(r, 10, overflow);
  return r;
}

/* Signed A divided by 10^N, rounding half away from zero, into *out when
 * the result has at most PRECISION digits.  Returns false otherwise. */
static bool u256_round_to_dec(u256_t a, int n, int precision, __int128 *out) {
  bool neg = u256_is_neg(a), of = false;
  if (neg) a = u256_neg(a);
  if (n > 0) {
    u256_t div = u256_pow10(n, &of), rem;
    if (of) return false;
    a = u256_divmod(a, div, &rem);
    rem = u256_add(rem, rem);
    if (u256_cmp(rem, div) >= 0) a = u256_add(a, u256_from_i128(1));
  }
  if (a.w[3] || a.w[2] || (a.w[1] >> 63)) return false;
  __int128 v = (__int128)(((unsigned __int128)a.w[1] << 64) | a.w[0]);
  __int128 lim = 1;
  for (int i = 0; i < precision; i++)
    lim *= 10;
  if (v >= lim) return false;
  *out = neg ? -v : v;
  return true;
}

/* Signed X * 10^N (N >= 0) in 256 bits; *overflow when it does not fit. */
static u256_t u256_scale_up(__int128 x, int n, bool *overflow) {
  bool neg = x < 0;
  u256_t a = u256_from_i128(neg ? -x : x);
  for (int i = 0; i < n; i++)
    a = u256_mul_u64(a, 10, overflow);
  if (u256_is_neg(a)) *overflow = true;
  return neg ? u256_neg(a) : a;
}

/* V / 10^N (0 <= N <= 38) rounded half away from zero. */
static __int128 round_div_pow10(__int128 v, int n) {
  if (n == 0) return v;
  __int128 d = pow10_128(n), q = v / d, r = v % d;
  unsigned __int128 ur = (unsigned __int128)(r < 0 ? -r : r);
  if (ur * 2 >= (unsigned __int128)d) q += v < 0 ? -1 : 1;
  return q;
}

static bool fits_i64(__int128 v) {
  return v == (__int128)(int64_t)v;
}

/* The common case of the exact operations below: operands of at most 18
 * digits (every DECIMAL(p <= 18) column) need no 256-bit intermediate.
 * Each returns -1 when the operands are outside its range (then the
 * general path runs), else 1 with *OUT set or 0 when the result does not
 * fit PRECISION digits. */
static int dec_add_fast(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                        __int128 *out) {
  int s = sx > sy ? sx : sy;
  if (!fits_i64(x) || !fits_i64(y) || s - sx > 18 || s - sy > 18) return -1;
  /* |x|, |y| < 2^63, scaled by at most 10^18: the sum stays below 2^125 */
  __int128 sum = x * pow10_128(s - sx) + y * pow10_128(s - sy), v;
  if (so >= s) {
    if (__builtin_mul_overflow(sum, pow10_128(so - s), &v)) return -1;
  } else {
    v = round_div_pow10(sum, s - so);
  }
  if (!dec_fits(v, precision)) return 0;
  *out = v;
  return 1;
}

static int dec_mul_fast(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                        __int128 *out) {
  int shift = sx + sy - so;
  if (!fits_i64(x) || !fits_i64(y) || shift < 0 || shift > 38) return -1;
  __int128 v = round_div_pow10(x * y, shift); /* |x * y| < 2^126 */
  if (!dec_fits(v, precision)) return 0;
  *out = v;
  return 1;
}

static int dec_div_fast(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                        __int128 *out) {
  int shift = so - sx + sy;
  if (!fits_i64(x) || shift < 0 || shift > 19 || y == 0) return -1;
  __int128 num = x * pow10_128(shift); /* < 2^63 * 10^19 < 2^127 */
  __int128 q = num / y, r = num % y;
  unsigned __int128 ur = (unsigned __int128)(r < 0 ? -r : r);
  unsigned __int128 uy = (unsigned __int128)(y < 0 ? -y : y);
  if (ur * 2 >= uy) q += (num < 0) != (y < 0) ? -1 : 1;
  if (!dec_fits(q, precision)) return 0;
  *out = q;
  return 1;
}

/* Exact decimal operations on unscaled values X (scale SX) and Y (scale
 * SY) giving an unscaled result of scale SO and at most PRECISION digits,
 * rounded half away from zero.  Return false when the result is not
 * representable (Hive: NULL). */
static bool dec_add_exact(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                          __int128 *out) {
  int fast = dec_add_fast(x, sx, y, sy, so, precision, out);
  if (fast >= 0) return fast;
  int s = sx > sy ? sx : sy;
  bool of = false;
  u256_t a = u256_scale_up(x, s - sx, &of), b = u256_scale_up(y, s - sy, &of);
  if (of) return false;
  u256_t sum = u256_add(a, b); /* |a|,|b| < 2^255 / 2: cannot overflow */
  if (so >= s) {
    u256_t scaled = sum;
    bool neg = u256_is_neg(sum);
    if (neg) scaled = u256_neg(scaled);
    for (int i = s; i < so; i++)
      scaled = u256_mul_u64(scaled, 10, &of);
    if (of) return false;
    return u256_round_to_dec(neg ? u256_neg(scaled) : scaled, 0, precision, out);
  }
  return u256_round_to_dec(sum, s - so, precision, out);
}

static bool dec_mul_exact(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                          __int128 *out) {
  int fast = dec_mul_fast(x, sx, y, sy, so, precision, out);
  if (fast >= 0) return fast;
  bool neg = (x < 0) != (y < 0);
  unsigned __int128 ux = (unsigned __int128)(x < 0 ? -x : x);
  unsigned __int128 uy = (unsigned __int128)(y < 0 ? -y : y);
  /* schoolbook product of two 128-bit magnitudes in 64-bit limbs */
  uint64_t xa[2] = {(uint64_t)ux, (uint64_t)(ux >> 64)},
           ya[2] = {(uint64_t)uy, (uint64_t)(uy >> 64)};
  u256_t p = {{0, 0, 0, 0}};
  for (int i = 0; i < 2; i++) {
    unsigned __int128 carry = 0;
    for (int j = 0; j < 2; j++) {
      unsigned __int128 t = (unsigned __int128)xa[i] * ya[j] + p.w[i + j] + carry;
      p.w[i + j] = (uint64_t)t;
      carry = t >> 64;
    }
    p.w[i + 2] += (uint64_t)carry;
  }
  /* |x|,|y| < 10^38, so the product is < 10^76 < 2^255 */
  int shift = sx + sy - so;
  if (shift < 0) {
    bool of = false;
    for (int i = 0; i < -shift; i++)
      p = u256_mul_u64(p, 10, &of);
    if (of || u256_is_neg(p)) return false;
    shift = 0;
  }
  return u256_round_to_dec(neg ? u256_neg(p) : p, shift, precision, out);
}

static bool dec_div_exact(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                          __int128 *out) {
  int fast = dec_div_fast(x, sx, y, sy, so, precision, out);
  if (fast >= 0) return fast;
  /* x/10^sx / (y/10^sy) at scale so = x * 10^(so - sx + sy) / y */
  int shift = so - sx + sy;
  bool neg = (x < 0) != (y < 0), of = false;
  u256_t num = u256_from_i128(x < 0 ? -x : x), den = u256_from_i128(y < 0 ? -y : y), rem;
  if (shift >= 0) {
    for (int i = 0; i < shift; i++)
      num = u256_mul_u64(num, 10, &of);
  } else {
    for (int i = 0; i < -shift; i++)
      den = u256_mul_u64(den, 10, &of);
  }
  /* past 2^255 the quotient cannot have 38 digits */
  if (of || u256_is_neg(num) || u256_is_neg(den)) return false;
  u256_t q = u256_divmod(num, den, &rem);
  rem = u256_add(rem, rem);
  if (u256_cmp(rem, den) >= 0) q = u256_add(q, u256_from_i128(1));
  return u256_round_to_dec(neg ? u256_neg(q) : q, 0, precision, out);
}

static bool dec_mod_exact(__int128 x, int sx, __int128 y, int sy, int so, int precision,
                          __int128 *out) {
  /* the remainder has the sign of the dividend (Java) */
  int s = sx > sy ? sx : sy;
  bool of = false;
  u256_t a = u256_scale_up(x < 0 ? -x : x, s - sx, &of);
  u256_t b = u256_scale_up(y < 0 ? -y : y, s - sy, &of), rem;
  if (of) return false;
  (void)u256_divmod(a, b, &rem);
  if (x < 0) rem = u256_neg(rem);
  if (so >= s) {
    bool neg = u256_is_neg(rem);
    if (neg) rem = u256_neg(rem);
    for (int i = s; i < so; i++)
      rem = u256_mul_u64(rem, 10, &of);
    if (of) return false;
    return u256_round_to_dec(neg ? u256_neg(rem) : rem, 0, precision, out);
  }
  return u256_round_to_dec(rem, s - so, precision, out);
}

/* Unscaled decimal V at SCALE as a DOUBLE (T == HL_T_DOUBLE) or FLOAT,
 * correctly rounded, as Java's BigDecimal.doubleValue/floatValue that
 * Hive's casts use.  One IEEE division rounds the exact quotient once when
 * both operands are exact in the target type (|V| <= 2^53 and scale <= 22
 * for double, 2^24 and 10 for float), the common case, which the vector
 * kernel (cast_batch) runs with DIV = 10^scale hoisted out of its loop;
 * any other value goes through its digits and strtod/strtof, which glibc
 * rounds correctly (dividing a rounded V would round twice and be one ulp
 * off for about a third of 38-digit values).  Both paths use this one
 * function, so a row gives the same bits either way. */
static double dec_to_real_slow(hl_type_id_t t, __int128 v, int scale) {
  char text[64];
  unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  char digits[40];
  int n = 0;
  do {
    digits[n++] = (char)('0' + (int)(m % 10));
    m /= 10;
  } while (m != 0);
  int k = 0;
  if (v < 0) text[k++] = '-';
  while (n > 0)
    text[k++] = digits[--n];
  snprintf(text + k, sizeof text - (size_t)k, "e-%d", scale);
  return t == HL_T_FLOAT ? (double)strtof(text, NULL) : strtod(text, NULL);
}

static inline double dec_to_real(hl_type_id_t t, __int128 v, int scale, double div) {
  if (t == HL_T_FLOAT) {
    if (v <= ((__int128)1 << 24) && v >= -((__int128)1 << 24) && scale <= 10)
      return (double)((float)(int64_t)v / (float)div);
  } else if (v <= ((__int128)1 << 53) && v >= -((__int128)1 << 53) && scale <= 22) {
    return (double)(int64_t)v / div;
  }
  return dec_to_real_slow(t, v, scale);
}

/* Unscaled decimal V over DIV = 10^scale, truncated and wrapped to the
 * width of integer type T in *OUT; false (NULL) when the quotient does not
 * fit 64 bits.  Shared by hl_value_cast and cast_batch. */
static inline bool dec_to_int(hl_type_id_t t, __int128 v, __int128 div, int64_t *out) {
  __int128 q = v / div;
  if (q > INT64_MAX || q < INT64_MIN) return false;
  *out = wrap_int(t, (int64_t)q);
  return true;
}

/* ----------------------------------------------------------- deep copy */

hl_status_t hl_value_copy_deep(hl_arena_t *arena, const hl_type_t *type, const hl_value_t *v,
                               hl_value_t *out) {
  *out = *v;
  if (v->is_null) return HL_OK;
  switch (type->id) {
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION: {
    size_t n = hl_value_n_items(type, v);
    if (n == 0 || !v->u.list.items) return HL_OK;
    hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * n);
    if (!items) return HL_NOMEM;
    for (size_t i = 0; i < n; i++) {
      const hl_type_t *ct = hl_value_item_type(type, v, i);
      if (hl_value_copy_deep(arena, ct, &v->u.list.items[i], &items[i]) != HL_OK) return HL_NOMEM;
    }
    out->u.list.items = items;
    return HL_OK;
  }
  default:
    if (hl_type_phys(type) == HL_P_STR) {
      char *p = hl_arena_alloc(arena, v->u.s.len ? v->u.s.len : 1);
      if (!p) return HL_NOMEM;
      if (v->u.s.len) memcpy(p, v->u.s.ptr, v->u.s.len);
      out->u.s.ptr = p;
    }
    return HL_OK;
  }
}

/* ---------------------------------------------------------------- cast */

static hl_status_t to_text(const hl_type_t *from, const hl_value_t *in, const hl_type_t *to,
                           hl_value_t *out, hl_arena_t *arena, hl_error_t *err) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, from, in);
  if (b.oom) {
    hl_buf_fini(&b);
    return nomem(err);
  }
  hl_error_t e2;
  hl_err_init(&e2);
  /* VARCHAR/CHAR truncation and padding are done by the text conversion */
  hl_status_t rc = hl_value_from_text(arena, to, hl_buf_cstr(&b), b.len, out, &e2);
  hl_buf_fini(&b);
  if (rc == HL_NOMEM) return nomem(err);
  hl_err_clear(&e2);
  if (rc != HL_OK) out->is_null = true;
  return HL_OK;
}

/* A complex value to another complex type of the same kind, element by
 * element (struct fields by position, as Hive converts them): array(1, 2)
 * into an ARRAY<STRING> column is ["1","2"].  Kinds that differ, or
 * structs of other widths, give NULL (the binder refuses what it can see). */
static hl_status_t cast_complex(const hl_type_t *from, const hl_value_t *in, const hl_type_t *to,
                                hl_value_t *out, hl_arena_t *arena, hl_error_t *err) {
  /* a union's tag means nothing in a union of another width or in another
   * kind: an error rather than a NULL that would hide the value */
  if ((from->id == HL_T_UNION || to->id == HL_T_UNION) &&
      (from->id != to->id || from->n_children != to->n_children)) {
    char *f = hl_type_to_string(arena, from), *t = hl_type_to_string(arena, to);
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH), "cannot convert %s to %s",
                      f ? f : "?", t ? t : "?");
  }
  if (from->id != to->id ||
      ((to->id == HL_T_STRUCT || to->id == HL_T_UNION) && from->n_children != to->n_children)) {
    out->is_null = true;
    return HL_OK;
  }
  size_t n = hl_value_n_items(to, in);
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (n ? n : 1));
  if (!items) return nomem(err);
  for (size_t i = 0; i < n; i++) {
    hl_status_t rc = hl_value_cast(hl_value_item_type(from, in, i), &in->u.list.items[i],
                                   hl_value_item_type(to, in, i), &items[i], arena, err);
    if (rc != HL_OK) return rc;
  }
  out->u.list.n = in->u.list.n;
  out->u.list.tag = in->u.list.tag;
  out->u.list.items = items;
  return HL_OK;
}

hl_status_t hl_value_cast(const hl_type_t *from, const hl_value_t *in, const hl_type_t *to,
                          hl_value_t *out, hl_arena_t *arena, hl_error_t *err) {
  memset(out, 0, sizeof(*out));
  if (in->is_null || from->id == HL_T_NULL) {
    out->is_null = true;
    return HL_OK;
  }
  if (hl_type_equal(from, to)) {
    *out = *in;
    return HL_OK;
  }
  if (hl_type_is_complex(from) && hl_type_is_complex(to))
    return cast_complex(from, in, to, out, arena, err);
  hl_type_id_t f = from->id, t = to->id;
  /* anything to a string type: its text form */
  if (hl_type_is_string(to)) {
    if (f == HL_T_CHAR && t != HL_T_CHAR) {
      /* Hive (PrimitiveObjectInspectorUtils.getString): a CHAR converted
       * to STRING or VARCHAR loses its trailing spaces */
      hl_value_t s = *in;
      while (s.u.s.len > 0 && s.u.s.ptr[s.u.s.len - 1] == ' ')
        s.u.s.len--;
      if (t == HL_T_STRING) {
        *out = s;
        return HL_OK;
      }
      return to_text(hl_type_prim(HL_T_STRING), &s, to, out, arena, err);
    }
    if (f == HL_T_BINARY) {
      out->u.s = in->u.s;
      return HL_OK;
    }
    return to_text(from, in, to, out, arena, err);
  }
  if (t == HL_T_BINARY) {
    if (hl_type_is_string(from)) {
      out->u.s = in->u.s;
      return HL_OK;
    }
    out->is_null = true;
    return HL_OK;
  }
  /* from a string: Hive's text conversion; failure is NULL */
  if (hl_type_is_string(from)) {
    if (hl_type_is_complex(to)) {
      out->is_null = true;
      return HL_OK;
    }
    hl_error_t e2;
    hl_err_init(&e2);
    hl_status_t rc = hl_value_from_text(arena, to, in->u.s.ptr, in->u.s.len, out, &e2);
    if (rc == HL_NOMEM) return nomem(err);
    hl_err_clear(&e2);
    if (rc != HL_OK) {
      /* Hive: CAST('1.5' AS INT) is 1 -- integers accept a fraction */
      if (hl_type_is_integer(to)) {
        hl_value_t d;
        hl_err_init(&e2);
        rc =
            hl_value_from_text(arena, hl_type_prim(HL_T_DOUBLE), in->u.s.ptr, in->u.s.len, &d, &e2);
        hl_err_clear(&e2);
        if (rc == HL_OK) return hl_value_cast(hl_type_prim(HL_T_DOUBLE), &d, to, out, arena, err);
      }
      /* Hive 4 (PrimitiveObjectInspectorUtils.getDate): text that is not
       * a date is read as a timestamp, and its day taken:
       * CAST('2020-01-02 10:00:00' AS DATE) is 2020-01-02 */
      if (to->id == HL_T_DATE) {
        hl_value_t ts;
        hl_err_init(&e2);
        rc = hl_value_from_text(arena, hl_type_prim(HL_T_TIMESTAMP), in->u.s.ptr, in->u.s.len, &ts,
                                &e2);
        hl_err_clear(&e2);
        if (rc == HL_OK)
          return hl_value_cast(hl_type_prim(HL_T_TIMESTAMP), &ts, to, out, arena, err);
      }
      memset(out, 0, sizeof(*out));
      out->is_null = true;
    }
    return HL_OK;
  }
  /* an interval converts to and from strings only (the binder refuses the
   * rest, as Hive's casts do) */
  if (hl_type_is_complex(from) || hl_type_is_complex(to) || hl_type_is_interval(from) ||
      hl_type_is_interval(to)) {
    out->is_null = true;
    return HL_OK;
  }
  /* bytes are no number, truth value or time (the numeric cases below
   * would read the string's pointer as one) */
  if (f == HL_T_BINARY) {
    out->is_null = true;
    return HL_OK;
  }
  /* numeric, boolean, date, timestamp among themselves */
  switch (t) {
  case HL_T_BOOLEAN:
    switch (hl_type_phys(from)) {
    case HL_P_I64:
      out->u.b = in->u.i != 0;
      break;
    case HL_P_F64:
      out->u.b = in->u.d != 0;
      break;
    case HL_P_I128:
      out->u.b = in->u.dec != 0;
      break;
    default:
      out->is_null = true;
    }
    if (f == HL_T_DATE) out->is_null = true;
    return HL_OK;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
    if (f == HL_T_BOOLEAN)
      out->u.i = in->u.b;
    else if (f == HL_T_TIMESTAMP) {
      int64_t secs = in->u.i / 1000000;
      if (in->u.i % 1000000 < 0) secs--;
      out->u.i = wrap_int(t, secs);
    } else if (f == HL_T_DATE)
      out->is_null = true;
    else if (hl_type_is_integer(from))
      out->u.i = wrap_int(t, in->u.i);
    else if (f == HL_T_DECIMAL)
      out->is_null = !dec_to_int(t, in->u.dec, pow10_128(from->scale), &out->u.i);
    else {
      double d = in->u.d;
      if (isnan(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)
        out->is_null = true;
      else
        out->u.i = wrap_int(t, (int64_t)d);
    }
    return HL_OK;
  case HL_T_FLOAT:
  case HL_T_DOUBLE: {
    double d;
    if (f == HL_T_BOOLEAN)
      d = in->u.b;
    else if (f == HL_T_TIMESTAMP)
      d = (double)in->u.i / 1e6;
    else if (f == HL_T_DATE) {
      out->is_null = true;
      return HL_OK;
    } else if (hl_type_is_integer(from))
      d = (double)in->u.i;
    else if (f == HL_T_DECIMAL) {
      out->u.d = dec_to_real(t, in->u.dec, from->scale, (double)pow10_128(from->scale));
      return HL_OK;
    } else
      d = in->u.d;
    out->u.d = t == HL_T_FLOAT ? (double)(float)d : d;
    return HL_OK;
  }
  case HL_T_DECIMAL: {
    __int128 v;
    if (f == HL_T_BOOLEAN)
      v = rescale(in->u.b, 0, to->scale);
    else if (hl_type_is_integer(from) || f == HL_T_DECIMAL) {
      __int128 x = f == HL_T_DECIMAL ? in->u.dec : in->u.i;
      out->is_null =
          !dec_cast(x, f == HL_T_DECIMAL ? from->scale : 0, to->scale, to->precision, &out->u.dec);
      return HL_OK;
    } else if (f == HL_T_FLOAT || f == HL_T_DOUBLE) {
      if (!isfinite(in->u.d)) {
        out->is_null = true;
        return HL_OK;
      }
      char buf[64];
      snprintf(buf, sizeof buf, "%.17g", in->u.d);
      if (f == HL_T_FLOAT) snprintf(buf, sizeof buf, "%.9g", in->u.d);
      if (hl_parse_decimal(buf, strlen(buf), to->precision, to->scale, &v) != 0) {
        out->is_null = true;
        return HL_OK;
      }
    } else {
      out->is_null = true;
      return HL_OK;
    }
    if (!dec_fits(v, to->precision))
      out->is_null = true;
    else
      out->u.dec = v;
    return HL_OK;
  }
  case HL_T_DATE:
    if (f == HL_T_TIMESTAMP) {
      int64_t days = in->u.i / 86400000000LL;
      if (in->u.i % 86400000000LL < 0) days--;
      out->u.i = days;
    } else
      out->is_null = true;
    return HL_OK;
  case HL_T_TIMESTAMP:
    if (f == HL_T_DATE)
      out->u.i = (int64_t)((uint64_t)in->u.i * 86400000000ULL); /* wraps as Java's */
    else if (hl_type_is_integer(from))
      out->u.i = (int64_t)((uint64_t)in->u.i * 1000000ULL);
    else if (f == HL_T_FLOAT || f == HL_T_DOUBLE) {
      if (!isfinite(in->u.d) || fabs(in->u.d) > 9e12)
        out->is_null = true;
      else
        out->u.i = (int64_t)llround(in->u.d * 1e6);
    } else if (f == HL_T_DECIMAL) {
      out->u.i = (int64_t)rescale(in->u.dec, from->scale, 6);
    } else
      out->is_null = true;
    return HL_OK;
  default:
    out->is_null = true;
    return HL_OK;
  }
}

/* --------------------------------------------------------- comparisons */

static int cmp_str(hl_str_t a, hl_str_t b) {
  uint32_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  if (c) return c;
  return a.len < b.len ? -1 : a.len > b.len;
}

static bool cmp_result(hl_expr_op_t op, int c) {
  switch (op) {
  case HL_XOP_EQ:
  case HL_XOP_EQ_NS:
    return c == 0;
  case HL_XOP_NE:
    return c != 0;
  case HL_XOP_LT:
    return c < 0;
  case HL_XOP_LE:
    return c <= 0;
  case HL_XOP_GT:
    return c > 0;
  case HL_XOP_GE:
    return c >= 0;
  default:
    return false;
  }
}

/* Orders row RA of A against row RB of B (same type, both non-NULL). */
static int cmp_rows(const hl_vec_t *a, uint32_t ra, const hl_vec_t *b, uint32_t rb) {
  switch (hl_type_phys(a->type)) {
  case HL_P_BOOL:
    return (int)HL_VEC_BOOL(a)[ra] - (int)HL_VEC_BOOL(b)[rb];
  case HL_P_I64: {
    int64_t x = HL_VEC_I64(a)[ra], y = HL_VEC_I64(b)[rb];
    return x < y ? -1 : x > y;
  }
  case HL_P_F64: {
    double x = HL_VEC_F64(a)[ra], y = HL_VEC_F64(b)[rb];
    if (isnan(x) || isnan(y)) return (isnan(x) != 0) - (isnan(y) != 0);
    return x < y ? -1 : x > y;
  }
  case HL_P_I128: {
    __int128 x = HL_VEC_I128(a)[ra], y = HL_VEC_I128(b)[rb];
    return x < y ? -1 : x > y;
  }
  case HL_P_STR: {
    if (a->type->id == HL_T_CHAR) {
      hl_value_t x, y;
      hl_vec_get_value(a, ra, &x);
      hl_vec_get_value(b, rb, &y);
      return hl_value_compare(a->type, &x, &y);
    }
    return cmp_str(HL_VEC_STR(a)[ra], HL_VEC_STR(b)[rb]);
  }
  case HL_P_VALUE:
    return 0;
  }
  return 0;
}

/* Dictionary views (vector.h): a predicate of one string column and
 * constants is worked out once per dictionary entry, then each row takes
 * its entry's answer.  dict_entries: the per-entry answer array (in
 * ARENA), or NULL when A has no view or more entries than the batch has
 * live rows (then row by row is cheaper). */
static uint8_t *dict_entries(const hl_vec_t *a, const hl_batch_t *in, hl_arena_t *arena) {
  uint32_t live = hl_batch_live(in);
  if (!a->dict || live == 0 || a->dict_n > live) return NULL;
  return hl_arena_alloc(arena, a->dict_n ? a->dict_n : 1);
}

/* The entries of A's dictionary as a vector of A's type (entry k at k). */
static hl_vec_t dict_as_vector(const hl_vec_t *a) {
  hl_vec_t dv;
  memset(&dv, 0, sizeof dv);
  dv.type = a->type;
  dv.data = (void *)(uintptr_t)a->dict;
  return dv;
}

/* OUT's live rows from the entries' answers ENT (NULL rows of A: NULL). */
static hl_status_t map_entries(const hl_vec_t *a, const uint8_t *ent, const hl_batch_t *in,
                               hl_vec_t *out, hl_arena_t *arena, hl_error_t *err) {
  uint8_t *res = HL_VEC_BOOL(out);
  FOR_LIVE(in, r) {
    if (hl_vec_is_null(a, r)) {
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
      continue;
    }
    res[r] = ent[a->dict_idx[r]];
  }
  return HL_OK;
}

/* RES[r] = X[r] OP Y[r] over IN's live rows and return HL_OK, for the six
 * comparison operators (EQ_NS as EQ: the callers have no NULLs); any other
 * OP falls through.  One loop per operator, for every physical type. */
#define CMP_LOOPS(op, in, res, x, y)                                                               \
  switch (op) {                                                                                    \
  case HL_XOP_EQ:                                                                                  \
  case HL_XOP_EQ_NS:                                                                               \
    FOR_LIVE(in, r) res[r] = x[r] == y[r];                                                         \
    return HL_OK;                                                                                  \
  case HL_XOP_NE:                                                                                  \
    FOR_LIVE(in, r) res[r] = x[r] != y[r];                                                         \
    return HL_OK;                                                                                  \
  case HL_XOP_LT:                                                                                  \
    FOR_LIVE(in, r) res[r] = x[r] < y[r];                                                          \
    return HL_OK;                                                                                  \
  case HL_XOP_LE:                                                                                  \
    FOR_LIVE(in, r) res[r] = x[r] <= y[r];                                                         \
    return HL_OK;                                                                                  \
  case HL_XOP_GT:                                                                                  \
    FOR_LIVE(in, r) res[r] = x[r] > y[r];                                                          \
    return HL_OK;                                                                                  \
  case HL_XOP_GE:                                                                                  \
    FOR_LIVE(in, r) res[r] = x[r] >= y[r];                                                         \
    return HL_OK;                                                                                  \
  default:                                                                                         \
    break;                                                                                         \
  }

static hl_status_t eval_cmp(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a, b;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc == HL_OK) rc = hl_expr_eval(e->args[1], in, &b, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  uint8_t *res = HL_VEC_BOOL(out);
  hl_phys_t phys = hl_type_phys(a.type);
  bool no_nulls = !a.validity && !b.validity;
  uint8_t *ent;
  if (e->op != HL_XOP_EQ_NS && e->args[1]->kind == HL_EX_CONST && !b.validity &&
      (ent = dict_entries(&a, in, arena))) {
    /* a dictionary view against a constant: each entry compared once */
    hl_vec_t dv = dict_as_vector(&a);
    uint32_t r0 = hl_batch_row(in, 0);
    for (uint32_t k = 0; k < a.dict_n; k++)
      ent[k] = (uint8_t)cmp_result(e->op, cmp_rows(&dv, k, &b, r0));
    return map_entries(&a, ent, in, out, arena, err);
  }
  /* fast paths for the common shapes: no NULLs, numbers, doubles without
   * NaN (cmp_rows orders NaN above every number; a plain compare does not) */
  if (no_nulls && phys == HL_P_I64) {
    const int64_t *x = HL_VEC_I64(&a), *y = HL_VEC_I64(&b);
    CMP_LOOPS(e->op, in, res, x, y);
  } else if (no_nulls && phys == HL_P_I128) {
    const __int128 *x = HL_VEC_I128(&a), *y = HL_VEC_I128(&b);
    CMP_LOOPS(e->op, in, res, x, y);
  } else if (no_nulls && phys == HL_P_F64) {
    const double *x = HL_VEC_F64(&a), *y = HL_VEC_F64(&b);
    bool nan = false;
    FOR_LIVE(in, r) nan |= isnan(x[r]) | isnan(y[r]);
    if (!nan) CMP_LOOPS(e->op, in, res, x, y);
  }
  FOR_LIVE(in, r) {
    bool an = hl_vec_is_null(&a, r), bn = hl_vec_is_null(&b, r);
    if (e->op == HL_XOP_EQ_NS) {
      res[r] = (an || bn) ? (an && bn) : cmp_rows(&a, r, &b, r) == 0;
      continue;
    }
    if (an || bn) {
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
      continue;
    }
    res[r] = cmp_result(e->op, cmp_rows(&a, r, &b, r));
  }
  return HL_OK;
}

/* ---------------------------------------------------------- arithmetic */

/* Decimal + - * whose result scale needs no rounding: + and - at the
 * operands' larger scale, * at the sum of their scales (Hive's result scale
 * whenever precision is not capped).  Then a row whose operands fit 64 bits
 * is one multiply-add in 128 bits (|x * 10^18| < 2^123) and a bound check,
 * with the per-batch constants hoisted out of the loop; other rows take the
 * exact path. */
static bool dec_arith_simple(hl_expr_op_t op, int sa, int sb, int so) {
  int s = sa > sb ? sa : sb;
  if (op == HL_XOP_MUL) return sa + sb == so;
  return so == s && s - sa <= 18 && s - sb <= 18;
}

/* The 64-bit pass of dec_arith_batch: every live row computed as if both
 * operands fit 64 bits, without a branch on the row; true when some row
 * did not (an operand wider than 64 bits or a result past PREC digits),
 * which the caller then redoes.  Inlined once per operator, so MUL is a
 * constant in each copy of the loop. */
static inline __attribute__((always_inline)) bool
dec_arith_pass64(bool mul, const hl_batch_t *in, const __int128 *x, const __int128 *y, int64_t ma,
                 int64_t mb, __int128 lim, __int128 *o) {
  bool redo = false;
  FOR_LIVE(in, r) {
    int64_t xv = (int64_t)x[r], yv = (int64_t)y[r];
    __int128 v = mul ? (__int128)xv * yv : (__int128)xv * ma + (__int128)yv * mb;
    o[r] = v;
    redo |= (x[r] != xv) | (y[r] != yv) | (v >= lim) | (v <= -lim);
  }
  return redo;
}

static hl_status_t dec_arith_batch(hl_expr_op_t op, const hl_batch_t *in, const __int128 *x, int sa,
                                   const __int128 *y, int sb, int so, int prec, hl_vec_t *out,
                                   hl_arena_t *arena, hl_error_t *err) {
  __int128 *o = HL_VEC_I128(out);
  __int128 lim = pow10_128(prec);
  int s = sa > sb ? sa : sb;
  int64_t ma = (int64_t)POW10_64[s - sa], mb = (int64_t)POW10_64[s - sb];
  if (op == HL_XOP_SUB) mb = -mb;
  bool redo = op == HL_XOP_MUL ? dec_arith_pass64(true, in, x, y, ma, mb, lim, o)
                               : dec_arith_pass64(false, in, x, y, ma, mb, lim, o);
  if (!redo) return HL_OK;
  /* some row is outside the 64-bit pass: those rows take the exact path */
  FOR_LIVE(in, r) {
    bool ok;
    if (fits_i64(x[r]) && fits_i64(y[r])) {
      ok = o[r] < lim && o[r] > -lim;
    } else {
      ok = op == HL_XOP_MUL
               ? dec_mul_exact(x[r], sa, y[r], sb, so, prec, &o[r])
               : dec_add_exact(x[r], sa, op == HL_XOP_SUB ? -y[r] : y[r], sb, so, prec, &o[r]);
    }
    if (!ok) {
      o[r] = 0;
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
    }
  }
  return HL_OK;
}

static hl_status_t eval_arith(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                              hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a, b;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc == HL_OK) rc = hl_expr_eval(e->args[1], in, &b, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  hl_type_id_t t = e->type->id;
  hl_phys_t phys = hl_type_phys(e->type);
  if (phys == HL_P_I128 && !a.validity && !b.validity &&
      (e->op == HL_XOP_ADD || e->op == HL_XOP_SUB || e->op == HL_XOP_MUL)) {
    /* the decimal arithmetic of every aggregate query: one operator per
     * loop, the 128-bit fast path inlined, 256 bits only when needed */
    int sa = a.type->scale, sb = b.type->scale, so = e->type->scale, prec = e->type->precision;
    const __int128 *x = HL_VEC_I128(&a), *y = HL_VEC_I128(&b);
    __int128 *o = HL_VEC_I128(out);
    if (dec_arith_simple(e->op, sa, sb, so))
      return dec_arith_batch(e->op, in, x, sa, y, sb, so, prec, out, arena, err);
    FOR_LIVE(in, r) {
      bool ok = e->op == HL_XOP_MUL ? dec_mul_exact(x[r], sa, y[r], sb, so, prec, &o[r])
                                    : dec_add_exact(x[r], sa, e->op == HL_XOP_SUB ? -y[r] : y[r],
                                                    sb, so, prec, &o[r]);
      if (!ok) {
        o[r] = 0;
        if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
      }
    }
    return HL_OK;
  }
  FOR_LIVE(in, r) {
    if (hl_vec_is_null(&a, r) || hl_vec_is_null(&b, r)) {
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
      continue;
    }
    bool null = false;
    if (phys == HL_P_I64) {
      /* integer operands, integer result (IDIV gives BIGINT) */
      uint64_t x = (uint64_t)HL_VEC_I64(&a)[r], y = (uint64_t)HL_VEC_I64(&b)[r];
      int64_t sx = (int64_t)x, sy = (int64_t)y, v = 0;
      switch (e->op) {
      case HL_XOP_ADD:
        v = (int64_t)(x + y);
        break;
      case HL_XOP_SUB:
        v = (int64_t)(x - y);
        break;
      case HL_XOP_MUL:
        v = (int64_t)(x * y);
        break;
      case HL_XOP_IDIV:
      case HL_XOP_MOD:
        if (sy == 0)
          null = true;
        else if (sy == -1)
          v = e->op == HL_XOP_MOD ? 0 : (int64_t)(0 - x);
        else
          v = e->op == HL_XOP_MOD ? sx % sy : sx / sy;
        break;
      default:
        null = true;
      }
      HL_VEC_I64(out)[r] = wrap_int(t, v);
    } else if (phys == HL_P_F64) {
      double x = HL_VEC_F64(&a)[r], y = HL_VEC_F64(&b)[r], v = 0;
      switch (e->op) {
      case HL_XOP_ADD:
        v = x + y;
        break;
      case HL_XOP_SUB:
        v = x - y;
        break;
      case HL_XOP_MUL:
        v = x * y;
        break;
      case HL_XOP_DIV:
        if (y == 0)
          null = true;
        else
          v = x / y;
        break;
      case HL_XOP_MOD:
        if (y == 0)
          null = true;
        else
          v = fmod(x, y);
        break;
      default:
        null = true;
      }
      HL_VEC_F64(out)[r] = t == HL_T_FLOAT ? (double)(float)v : v;
    } else if (phys == HL_P_I128) {
      int sa = a.type->scale, sb = b.type->scale, so = e->type->scale;
      int prec = e->type->precision;
      __int128 x = HL_VEC_I128(&a)[r], y = HL_VEC_I128(&b)[r], v = 0;
      bool ok;
      switch (e->op) {
      case HL_XOP_ADD:
        ok = dec_add_exact(x, sa, y, sb, so, prec, &v);
        break;
      case HL_XOP_SUB:
        ok = dec_add_exact(x, sa, -y, sb, so, prec, &v);
        break;
      case HL_XOP_MUL:
        ok = dec_mul_exact(x, sa, y, sb, so, prec, &v);
        break;
      case HL_XOP_DIV:
        ok = y != 0 && dec_div_exact(x, sa, y, sb, so, prec, &v);
        break;
      case HL_XOP_MOD:
        ok = y != 0 && dec_mod_exact(x, sa, y, sb, so, prec, &v);
        break;
      default:
        ok = false;
      }
      null = !ok;
      if (!null && !dec_fits(v, e->type->precision)) null = true;
      HL_VEC_I128(out)[r] = v;
    } else {
      null = true;
    }
    if (null && set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
  }
  return HL_OK;
}

/* --------------------------------------------------------------- logic */

static hl_status_t eval_andor(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                              hl_arena_t *arena, hl_error_t *err) {
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  bool is_and = e->kind == HL_EX_AND;
  uint8_t *res = HL_VEC_BOOL(out);
  /* state per row: 0 false, 1 true, 2 null */
  uint8_t *state = hl_arena_alloc(arena, HL_BATCH_CAP);
  if (!state) return nomem(err);
  FOR_LIVE(in, r) state[r] = is_and ? 1 : 0;
  /* operands are folded into STATE one at a time, so their vectors live in
   * a scratch arena reset between them: a long chain needs no more memory
   * than one operand */
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return nomem(err);
  for (int k = 0; k < e->n_args; k++) {
    hl_vec_t a;
    hl_arena_reset(tmp);
    hl_status_t rc = hl_expr_eval(e->args[k], in, &a, tmp, err);
    if (rc != HL_OK) {
      hl_arena_destroy(tmp);
      return rc;
    }
    FOR_LIVE(in, r) {
      uint8_t s = hl_vec_is_null(&a, r) ? 2 : HL_VEC_BOOL(&a)[r];
      if (is_and) {
        if (s == 0 || state[r] == 0)
          state[r] = 0;
        else if (s == 2)
          state[r] = 2;
      } else {
        if (s == 1 || state[r] == 1)
          state[r] = 1;
        else if (s == 2)
          state[r] = 2;
      }
    }
  }
  hl_arena_destroy(tmp);
  FOR_LIVE(in, r) {
    if (state[r] == 2) {
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
    } else
      res[r] = state[r];
  }
  return HL_OK;
}

static hl_status_t eval_not(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  out->validity = a.validity; /* same nulls */
  FOR_LIVE(in, r) HL_VEC_BOOL(out)[r] = !HL_VEC_BOOL(&a)[r];
  return HL_OK;
}

static hl_status_t eval_is_null(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                                hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  FOR_LIVE(in, r) HL_VEC_BOOL(out)[r] = hl_vec_is_null(&a, r) != e->negated;
  return HL_OK;
}

static hl_status_t eval_in(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                           hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  uint8_t *state = hl_arena_alloc(arena, HL_BATCH_CAP); /* 0 no, 1 yes, 2 null seen */
  if (!state) return nomem(err);
  FOR_LIVE(in, r) state[r] = hl_vec_is_null(&a, r) ? 3 : 0; /* 3: probe is NULL */
  bool consts = true;
  for (int k = 1; k < e->n_args; k++)
    consts = consts && e->args[k]->kind == HL_EX_CONST;
  /* a dictionary view against a list of constants: each entry checked
   * once, the rows take their entry's state */
  uint8_t *ent = consts ? dict_entries(&a, in, arena) : NULL;
  hl_vec_t dv = ent ? dict_as_vector(&a) : a;
  uint32_t r0 = hl_batch_live(in) ? hl_batch_row(in, 0) : 0;
  if (ent) memset(ent, 0, a.dict_n);
  /* list items are folded one at a time (see eval_andor) */
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return nomem(err);
  for (int k = 1; k < e->n_args; k++) {
    hl_vec_t b;
    hl_arena_reset(tmp);
    rc = hl_expr_eval(e->args[k], in, &b, tmp, err);
    if (rc != HL_OK) {
      hl_arena_destroy(tmp);
      return rc;
    }
    for (uint32_t j = 0; ent && j < a.dict_n; j++) {
      if (ent[j] == 1) continue;
      if (hl_vec_is_null(&b, r0))
        ent[j] = 2;
      else if (cmp_rows(&dv, j, &b, r0) == 0)
        ent[j] = 1;
    }
    if (ent) continue;
    FOR_LIVE(in, r) {
      if (state[r] == 1 || state[r] == 3) continue;
      if (hl_vec_is_null(&b, r))
        state[r] = 2;
      else if (cmp_rows(&a, r, &b, r) == 0)
        state[r] = 1;
    }
  }
  hl_arena_destroy(tmp);
  if (ent) FOR_LIVE(in, r) if (state[r] != 3) state[r] = ent[a.dict_idx[r]];
  FOR_LIVE(in, r) {
    if (state[r] >= 2) {
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
    } else {
      HL_VEC_BOOL(out)[r] = (state[r] == 1) != e->negated;
    }
  }
  return HL_OK;
}

/* LIKE with % and _ (one UTF-8 character) and backslash escapes. */
static bool like_match(const char *s, size_t sn, const char *p, size_t pn) {
  size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
  while (si < sn) {
    if (pi < pn && p[pi] == '\\' && pi + 1 < pn) {
      if (s[si] == p[pi + 1]) {
        si++;
        pi += 2;
        continue;
      }
    } else if (pi < pn && p[pi] == '_') {
      si++;
      while (si < sn && ((unsigned char)s[si] & 0xC0) == 0x80)
        si++;
      pi++;
      continue;
    } else if (pi < pn && p[pi] == '%') {
      star_p = pi++;
      star_s = si;
      continue;
    } else if (pi < pn && p[pi] == s[si]) {
      si++;
      pi++;
      continue;
    }
    if (star_p == (size_t)-1) return false;
    pi = star_p + 1;
    si = ++star_s;
  }
  while (pi < pn && p[pi] == '%')
    pi++;
  return pi == pn;
}

bool hl_expr_like_match(const char *s, size_t sn, const char *p, size_t pn) {
  return like_match(s, sn, p, pn);
}

/* Leftmost occurrence of needle N (NN >= 2 bytes) in H, or NULL.  With
 * SSE2, 16 positions at a time are tested for the needle's first and last
 * byte and only those candidates compared in full (the usual SIMD substring
 * search); the positions left (fewer than 16, or a haystack too short for
 * a 16-byte load) take the same test one at a time.  glibc's memmem is
 * slower on the short haystacks of a column (a comment, a name). */
static const char *find_piece(const char *h, size_t hn, const char *n, size_t nn) {
  if (nn < 2 || hn < nn) return nn == 0 ? h : nn <= hn ? memchr(h, n[0], hn) : NULL;
  size_t i = 0;
#ifdef __SSE2__
  const __m128i first = _mm_set1_epi8(n[0]), last = _mm_set1_epi8(n[nn - 1]);
  for (; i + nn + 15 <= hn; i += 16) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(h + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(h + i + nn - 1));
    unsigned mask = (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last)));
    while (mask) {
      unsigned bit = (unsigned)__builtin_ctz(mask);
      if (memcmp(h + i + bit + 1, n + 1, nn - 2) == 0) return h + i + bit;
      mask &= mask - 1;
    }
  }
#endif
  for (; i + nn <= hn; i++)
    if (h[i] == n[0] && h[i + nn - 1] == n[nn - 1] && memcmp(h + i + 1, n + 1, nn - 2) == 0)
      return h + i;
  return NULL;
}

/* A LIKE pattern whose only wildcard is % (no _, no escapes), split once
 * per pattern: the literal pieces between the %s must appear in order, the
 * first at the start unless the pattern starts with %, the last at the end
 * unless it ends with %.  Taking each middle piece at its leftmost place is
 * exact. */
typedef struct like_plan {
  const char *p; /* the pattern it was made for */
  size_t pn;
  bool simple;       /* only % wildcards */
  bool no_pct;       /* no wildcard at all: equality */
  size_t head, tail; /* literal prefix and suffix lengths */
  const char *mid;   /* between the first and the last %: pieces split by % */
  size_t mid_len;
} like_plan_t;

static void like_plan(like_plan_t *lp, const char *p, size_t pn) {
  memset(lp, 0, sizeof *lp);
  lp->p = p;
  lp->pn = pn;
  if (pn == 0 || memchr(p, '_', pn) || memchr(p, '\\', pn)) return;
  lp->simple = true;
  const char *pct = memchr(p, '%', pn);
  if (!pct) {
    lp->no_pct = true;
    return;
  }
  const char *last = memrchr(p, '%', pn);
  lp->head = (size_t)(pct - p);
  lp->tail = (size_t)(p + pn - last - 1);
  lp->mid = pct + 1;
  lp->mid_len = last > pct ? (size_t)(last - pct - 1) : 0;
}

static bool like_pieces(const like_plan_t *lp, const char *s, size_t sn) {
  const char *p = lp->p;
  if (lp->no_pct) return sn == lp->pn && (sn == 0 || memcmp(s, p, sn) == 0);
  size_t head = lp->head, tail = lp->tail;
  if (head + tail > sn) return false;
  if (head && memcmp(s, p, head) != 0) return false;
  if (tail && memcmp(s + sn - tail, p + lp->pn - tail, tail) != 0) return false;
  const char *at = s + head, *end = s + sn - tail;
  const char *q = lp->mid, *qe = lp->mid + lp->mid_len;
  while (q < qe) {
    const char *next = memchr(q, '%', (size_t)(qe - q));
    if (!next) next = qe;
    size_t len = (size_t)(next - q);
    if (len == 1) {
      const char *hit = memchr(at, q[0], (size_t)(end - at));
      if (!hit) return false;
      at = hit + 1;
    } else if (len) {
      const char *hit = find_piece(at, (size_t)(end - at), q, len);
      if (!hit) return false;
      at = hit + len;
    }
    q = next + 1;
  }
  return true;
}

static hl_status_t compile_regex(regex_t *re, const char *pat, size_t n, hl_arena_t *arena,
                                 long pos, hl_error_t *err) {
  return hl_regex_compile(re, pat, n, true, arena, pos, err);
}

static hl_status_t eval_like(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a, p;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc == HL_OK) rc = hl_expr_eval(e->args[1], in, &p, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  like_plan_t lp;
  like_plan(&lp, NULL, 0);
  uint8_t *ent;
  if (!e->rlike && e->args[1]->kind == HL_EX_CONST && !p.validity &&
      (ent = dict_entries(&a, in, arena))) {
    /* a dictionary view against a constant pattern: each entry matched once */
    hl_str_t pat = HL_VEC_STR(&p)[hl_batch_row(in, 0)];
    like_plan(&lp, pat.ptr, pat.len);
    for (uint32_t k = 0; k < a.dict_n; k++) {
      hl_str_t s = a.dict[k];
      bool m = lp.simple && s.len ? like_pieces(&lp, s.ptr, s.len)
                                  : like_match(s.ptr, s.len, pat.ptr, pat.len);
      ent[k] = m != e->negated;
    }
    return map_entries(&a, ent, in, out, arena, err);
  }
  FOR_LIVE(in, r) {
    if (hl_vec_is_null(&a, r) || hl_vec_is_null(&p, r)) {
      if (set_null(out, arena, r, err) != HL_OK) return HL_NOMEM;
      continue;
    }
    hl_str_t s = HL_VEC_STR(&a)[r], pat = HL_VEC_STR(&p)[r];
    bool m;
    if (!e->rlike) {
      if (pat.ptr != lp.p || pat.len != lp.pn) like_plan(&lp, pat.ptr, pat.len);
      m = lp.simple && s.len ? like_pieces(&lp, s.ptr, s.len)
                             : like_match(s.ptr, s.len, pat.ptr, pat.len);
    } else {
      char *z = hl_arena_strndup(arena, s.ptr, s.len);
      if (!z) return nomem(err);
      if (e->regex) {
        m = regexec(e->regex, z, 0, NULL, 0) == 0;
      } else {
        regex_t re;
        rc = compile_regex(&re, pat.ptr, pat.len, arena, e->pos, err);
        if (rc != HL_OK) return rc;
        m = regexec(&re, z, 0, NULL, 0) == 0;
        regfree(&re);
      }
    }
    HL_VEC_BOOL(out)[r] = m != e->negated;
  }
  return HL_OK;
}

/* ---------------------------------------------------- vectorized casts */

/* Marks row R of OUT NULL.  OUT may share A's bitmap (cast_batch hands a
 * cast's input validity on without copying it); before the first row that
 * turns NULL here OUT gets a copy of its own, so A is never written. */
static hl_status_t cast_null_row(hl_vec_t *out, const hl_vec_t *a, uint32_t r, hl_arena_t *arena,
                                 hl_error_t *err) {
  if (out->validity && out->validity == a->validity) {
    size_t bytes = sizeof(uint64_t) * (HL_BATCH_CAP / 64);
    uint64_t *own = hl_arena_alloc(arena, bytes);
    if (!own) return nomem(err);
    memcpy(own, a->validity, bytes);
    out->validity = own;
  }
  return set_null(out, arena, r, err);
}

/* The casts among numbers, BOOLEAN, DATE and TIMESTAMP (those of the
 * bench queries' hot paths and of an INSERT's conversion to its table's
 * column types) as one loop over the batch: the per-type constants
 * hoisted, the input's validity handed on (a NULL stays NULL, whatever its
 * data holds), a row NULL only where hl_value_cast makes it NULL -- each
 * loop is the same arithmetic as hl_value_cast's, so the results are the
 * same bits.  Returns false, touching nothing, for the casts it does not
 * do (strings, text, complex and intervals; casts whose every row is NULL
 * such as DATE to a number); then hl_vec_cast goes row by row. */
static bool cast_batch(const hl_type_t *to, const hl_batch_t *in, const hl_vec_t *a, hl_vec_t *out,
                       hl_arena_t *arena, hl_error_t *err, hl_status_t *rc) {
  hl_type_id_t f = a->type->id, t = to->id;
  bool from_int = hl_type_is_integer(a->type), to_int = hl_type_is_integer(to);
  bool from_real = f == HL_T_FLOAT || f == HL_T_DOUBLE;
  bool to_real = t == HL_T_FLOAT || t == HL_T_DOUBLE;
  bool from_num = from_int || from_real || f == HL_T_BOOLEAN || f == HL_T_TIMESTAMP;
  if (!((f == HL_T_DECIMAL && (to_int || to_real || t == HL_T_DECIMAL)) ||
        (from_int && t == HL_T_DECIMAL) || (from_num && (to_int || to_real)) ||
        (f == HL_T_TIMESTAMP && t == HL_T_DATE) ||
        ((f == HL_T_DATE || from_int) && t == HL_T_TIMESTAMP)))
    return false;
  *rc = HL_OK;
  out->validity = a->validity;
  if (f == HL_T_BOOLEAN) {
    const uint8_t *x = HL_VEC_BOOL(a);
    if (to_int)
      FOR_LIVE(in, r) HL_VEC_I64(out)[r] = x[r];
    else
      FOR_LIVE(in, r) HL_VEC_F64(out)[r] = x[r];
  } else if (f == HL_T_TIMESTAMP && t == HL_T_DATE) {
    const int64_t *x = HL_VEC_I64(a);
    int64_t *o = HL_VEC_I64(out);
    FOR_LIVE(in, r) o[r] = x[r] / 86400000000LL - (x[r] % 86400000000LL < 0);
  } else if (t == HL_T_TIMESTAMP) {
    /* in unsigned arithmetic: the product wraps as Java's does */
    const int64_t *x = HL_VEC_I64(a);
    int64_t *o = HL_VEC_I64(out);
    uint64_t m = f == HL_T_DATE ? 86400000000ULL : 1000000ULL;
    FOR_LIVE(in, r) o[r] = (int64_t)((uint64_t)x[r] * m);
  } else if (f == HL_T_TIMESTAMP) {
    const int64_t *x = HL_VEC_I64(a);
    if (to_int)
      FOR_LIVE(in, r) HL_VEC_I64(out)[r] = wrap_int(t, x[r] / 1000000 - (x[r] % 1000000 < 0));
    else if (t == HL_T_FLOAT)
      FOR_LIVE(in, r) HL_VEC_F64(out)[r] = (double)(float)((double)x[r] / 1e6);
    else
      FOR_LIVE(in, r) HL_VEC_F64(out)[r] = (double)x[r] / 1e6;
  } else if (from_real) {
    const double *x = HL_VEC_F64(a);
    if (to_real && t == HL_T_FLOAT)
      FOR_LIVE(in, r) HL_VEC_F64(out)[r] = (double)(float)x[r];
    else if (to_real)
      FOR_LIVE(in, r) HL_VEC_F64(out)[r] = x[r];
    else {
      int64_t *o = HL_VEC_I64(out);
      FOR_LIVE(in, r) {
        double d = x[r];
        if (!(isnan(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18))
          o[r] = wrap_int(t, (int64_t)d);
        else if (!hl_vec_is_null(a, r) && (*rc = cast_null_row(out, a, r, arena, err)) != HL_OK)
          return true;
      }
    }
  } else if (from_int && to_int) {
    const int64_t *x = HL_VEC_I64(a);
    int64_t *o = HL_VEC_I64(out);
    FOR_LIVE(in, r) o[r] = wrap_int(t, x[r]);
  } else if (from_int && to_real) {
    const int64_t *x = HL_VEC_I64(a);
    double *o = HL_VEC_F64(out);
    if (t == HL_T_FLOAT)
      FOR_LIVE(in, r) o[r] = (double)(float)(double)x[r];
    else
      FOR_LIVE(in, r) o[r] = (double)x[r];
  } else if (to_real) {
    const __int128 *x = HL_VEC_I128(a);
    double *o = HL_VEC_F64(out);
    double div = (double)pow10_128(a->type->scale);
    int scale = a->type->scale;
    if (t == HL_T_FLOAT)
      FOR_LIVE(in, r) o[r] = dec_to_real(HL_T_FLOAT, x[r], scale, div);
    else
      FOR_LIVE(in, r) o[r] = dec_to_real(HL_T_DOUBLE, x[r], scale, div);
  } else if (to_int) {
    const __int128 *x = HL_VEC_I128(a);
    int64_t *o = HL_VEC_I64(out);
    __int128 div = pow10_128(a->type->scale);
    FOR_LIVE(in, r) {
      if (!dec_to_int(t, x[r], div, &o[r]) && (*rc = cast_null_row(out, a, r, arena, err)) != HL_OK)
        return true;
    }
  } else {
    /* to DECIMAL, from an integer (scale 0) or a decimal */
    const __int128 *xd = from_int ? NULL : HL_VEC_I128(a);
    const int64_t *xi = from_int ? HL_VEC_I64(a) : NULL;
    int sf = from_int ? 0 : a->type->scale, st = to->scale, prec = to->precision;
    __int128 *o = HL_VEC_I128(out);
    FOR_LIVE(in, r) {
      if (!dec_cast(from_int ? (__int128)xi[r] : xd[r], sf, st, prec, &o[r]) &&
          (*rc = cast_null_row(out, a, r, arena, err)) != HL_OK)
        return true;
    }
  }
  return true;
}

hl_status_t hl_vec_cast(const hl_type_t *to, const hl_batch_t *in, const hl_vec_t *a, hl_vec_t *out,
                        hl_arena_t *arena, hl_error_t *err) {
  if (hl_vec_alloc(out, to, arena) != HL_OK) return nomem(err);
  hl_status_t rc;
  if (cast_batch(to, in, a, out, arena, err, &rc)) return rc;
  FOR_LIVE(in, r) {
    hl_value_t v, o;
    hl_vec_get_value(a, r, &v);
    rc = hl_value_cast(a->type, &v, to, &o, arena, err);
    if (rc != HL_OK) return rc;
    if (hl_vec_put_value(out, arena, r, &o) != HL_OK) return nomem(err);
  }
  return HL_OK;
}

/* ------------------------------------------------ row-at-a-time nodes */

static hl_status_t eval_cast(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc != HL_OK) return rc;
  return hl_vec_cast(e->type, in, &a, out, arena, err);
}

static hl_status_t eval_neg(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  out->validity = a.validity;
  switch (hl_type_phys(e->type)) {
  case HL_P_I64:
    FOR_LIVE(in, r)
    HL_VEC_I64(out)[r] = wrap_int(e->type->id, (int64_t)(0 - (uint64_t)HL_VEC_I64(&a)[r]));
    break;
  case HL_P_F64:
    FOR_LIVE(in, r) HL_VEC_F64(out)[r] = -HL_VEC_F64(&a)[r];
    break;
  case HL_P_I128:
    FOR_LIVE(in, r) HL_VEC_I128(out)[r] = -HL_VEC_I128(&a)[r];
    break;
  default:
    break;
  }
  return HL_OK;
}

static hl_status_t eval_case(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  int n_when = (e->n_args - (e->has_else ? 1 : 0)) / 2;
  uint8_t *done = hl_arena_zalloc(arena, HL_BATCH_CAP);
  if (!done) return nomem(err);
  /* each branch is copied into OUT before the next one is computed, so
   * branch vectors live in a scratch arena reset between branches */
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return nomem(err);
  hl_status_t rc = HL_OK;
  for (int k = 0; k <= n_when && rc == HL_OK; k++) {
    hl_vec_t cond, val;
    hl_arena_reset(tmp);
    if (k < n_when) {
      rc = hl_expr_eval(e->args[2 * k], in, &cond, tmp, err);
      if (rc == HL_OK) rc = hl_expr_eval(e->args[2 * k + 1], in, &val, tmp, err);
      if (rc != HL_OK) break;
    } else if (e->has_else) {
      rc = hl_expr_eval(e->args[e->n_args - 1], in, &val, tmp, err);
      if (rc != HL_OK) break;
    }
    FOR_LIVE(in, r) {
      if (done[r]) continue;
      bool take = k < n_when ? (!hl_vec_is_null(&cond, r) && HL_VEC_BOOL(&cond)[r]) : true;
      if (!take) continue;
      done[r] = 1;
      hl_value_t v;
      if (k < n_when || e->has_else) {
        hl_vec_get_value(&val, r, &v);
        /* a complex value computed into TMP must outlive it */
        if (hl_type_phys(e->type) == HL_P_VALUE &&
            hl_value_copy_deep(arena, e->type, &v, &v) != HL_OK) {
          rc = nomem(err);
          break;
        }
      } else {
        memset(&v, 0, sizeof v);
        v.is_null = true;
      }
      if (hl_vec_put_value(out, arena, r, &v) != HL_OK) {
        rc = nomem(err);
        break;
      }
    }
  }
  hl_arena_destroy(tmp);
  return rc;
}

static hl_status_t eval_func(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t *args = hl_arena_alloc(arena, sizeof(hl_vec_t) * (size_t)(e->n_args ? e->n_args : 1));
  hl_value_t *vals =
      hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(e->n_args ? e->n_args : 1));
  if (!args || !vals) return nomem(err);
  for (int k = 0; k < e->n_args; k++) {
    hl_status_t rc = hl_expr_eval(e->args[k], in, &args[k], arena, err);
    if (rc != HL_OK) return rc;
  }
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  FOR_LIVE(in, r) {
    for (int k = 0; k < e->n_args; k++)
      hl_vec_get_value(&args[k], r, &vals[k]);
    hl_value_t o;
    memset(&o, 0, sizeof o);
    hl_status_t rc = e->fn->impl(e, vals, &o, arena, err);
    if (rc != HL_OK) return rc;
    if (hl_vec_put_value(out, arena, r, &o) != HL_OK) return nomem(err);
  }
  return HL_OK;
}

static hl_status_t eval_const(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                              hl_arena_t *arena, hl_error_t *err) {
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  if (e->value.is_null) {
    FOR_LIVE(in, r) if (hl_vec_set_null(out, arena, r) != HL_OK) return nomem(err);
    return HL_OK;
  }
  switch (hl_type_phys(e->type)) {
  case HL_P_BOOL:
    FOR_LIVE(in, r) HL_VEC_BOOL(out)[r] = e->value.u.b;
    break;
  case HL_P_I64:
    FOR_LIVE(in, r) HL_VEC_I64(out)[r] = e->value.u.i;
    break;
  case HL_P_F64:
    FOR_LIVE(in, r) HL_VEC_F64(out)[r] = e->value.u.d;
    break;
  case HL_P_I128:
    FOR_LIVE(in, r) HL_VEC_I128(out)[r] = e->value.u.dec;
    break;
  case HL_P_STR:
    FOR_LIVE(in, r) HL_VEC_STR(out)[r] = e->value.u.s;
    break;
  case HL_P_VALUE:
    FOR_LIVE(in, r) HL_VEC_VALUE(out)[r] = (hl_value_t *)&e->value;
    break;
  }
  return HL_OK;
}

/* x [NOT] IN (materialized subquery): a hash probe per row. */
static hl_status_t eval_in_set(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out,
                               hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t a;
  hl_status_t rc = hl_expr_eval(e->args[0], in, &a, arena, err);
  if (rc != HL_OK) return rc;
  if (hl_vec_alloc(out, e->type, arena) != HL_OK) return nomem(err);
  /* x IN (empty set) is FALSE even when x is NULL (NOT IN: TRUE) */
  if (hl_map_count(e->in_set) == 0 && !e->in_has_null) {
    FOR_LIVE(in, r) HL_VEC_BOOL(out)[r] = e->negated;
    return HL_OK;
  }
  hl_buf_t key;
  hl_buf_init(&key);
  uint8_t *ent = dict_entries(&a, in, arena);
  if (ent) { /* a dictionary view: each entry looked up once */
    hl_vec_t dv = dict_as_vector(&a);
    for (uint32_t k = 0; k < a.dict_n && !key.oom; k++) {
      hl_value_t v;
      hl_vec_get_value(&dv, k, &v);
      hl_buf_reset(&key);
      hl_value_key_append(&key, a.type, &v);
      uint64_t ignored;
      ent[k] = !key.oom && hl_map_get(e->in_set, key.data, key.len, &ignored);
    }
    FOR_LIVE(in, r) {
      if (key.oom) break;
      bool found = !hl_vec_is_null(&a, r) && ent[a.dict_idx[r]];
      if (hl_vec_is_null(&a, r) || (!found && e->in_has_null)) {
        if (hl_vec_set_null(out, arena, r) != HL_OK) key.oom = 1;
        continue;
      }
      HL_VEC_BOOL(out)[r] = found != e->negated;
    }
    bool oom = key.oom;
    hl_buf_fini(&key);
    return oom ? nomem(err) : HL_OK;
  }
  FOR_LIVE(in, r) {
    hl_value_t v;
    hl_vec_get_value(&a, r, &v);
    int found = 0;
    if (!v.is_null) {
      hl_buf_reset(&key);
      hl_value_key_append(&key, a.type, &v);
      if (key.oom) break;
      uint64_t ignored;
      found = hl_map_get(e->in_set, key.data, key.len, &ignored);
    }
    if (v.is_null || (!found && e->in_has_null)) {
      if (hl_vec_set_null(out, arena, r) != HL_OK) {
        key.oom = 1;
        break;
      }
    } else {
      HL_VEC_BOOL(out)[r] = (found != 0) != e->negated;
    }
  }
  bool oom = key.oom;
  hl_buf_fini(&key);
  return oom ? nomem(err) : HL_OK;
}

hl_status_t hl_expr_eval(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out, hl_arena_t *arena,
                         hl_error_t *err) {
  switch (e->kind) {
  case HL_EX_IN_SET:
    return eval_in_set(e, in, out, arena, err);
  case HL_EX_SUBQUERY:
    return hl_err_set_at(err, e->pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                         "subquery was not evaluated before execution");
  case HL_EX_CONST:
    return eval_const(e, in, out, arena, err);
  case HL_EX_COLUMN:
    *out = in->cols[e->col]; /* zero copy: borrowed from the input batch */
    return HL_OK;
  case HL_EX_CAST:
    return eval_cast(e, in, out, arena, err);
  case HL_EX_CMP:
    return eval_cmp(e, in, out, arena, err);
  case HL_EX_ARITH:
    return eval_arith(e, in, out, arena, err);
  case HL_EX_NEG:
    return eval_neg(e, in, out, arena, err);
  case HL_EX_AND:
  case HL_EX_OR:
    return eval_andor(e, in, out, arena, err);
  case HL_EX_NOT:
    return eval_not(e, in, out, arena, err);
  case HL_EX_IS_NULL:
    return eval_is_null(e, in, out, arena, err);
  case HL_EX_IN:
    return eval_in(e, in, out, arena, err);
  case HL_EX_LIKE:
    return eval_like(e, in, out, arena, err);
  case HL_EX_CASE:
    return eval_case(e, in, out, arena, err);
  case HL_EX_FUNC:
    return eval_func(e, in, out, arena, err);
  }
  return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown expression kind %d",
                    (int)e->kind);
}

hl_status_t hl_expr_filter(const hl_expr_t *e, hl_batch_t *in, hl_arena_t *arena, hl_error_t *err) {
  hl_vec_t v;
  hl_status_t rc = hl_expr_eval(e, in, &v, arena, err);
  if (rc != HL_OK) return rc;
  uint32_t *sel = hl_arena_alloc(arena, sizeof(uint32_t) * HL_BATCH_CAP);
  if (!sel) return nomem(err);
  uint32_t n = 0;
  FOR_LIVE(in, r) {
    if (!hl_vec_is_null(&v, r) && HL_VEC_BOOL(&v)[r]) sel[n++] = r;
  }
  in->sel = sel;
  in->n_sel = n;
  return HL_OK;
}

bool hl_expr_is_stateful(const hl_expr_t *e) {
  if (e->kind == HL_EX_FUNC && e->fn && strcmp(e->fn->name, "rand") == 0) return true;
  for (int k = 0; k < e->n_args; k++)
    if (hl_expr_is_stateful(e->args[k])) return true;
  return false;
}

void hl_expr_mark_cols(const hl_expr_t *e, bool *used, int n) {
  if (e->kind == HL_EX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = true;
  for (int k = 0; k < e->n_args; k++)
    hl_expr_mark_cols(e->args[k], used, n);
}

bool hl_expr_cols_within(const hl_expr_t *e, int lo, int hi) {
  if (e->kind == HL_EX_COLUMN) return e->col >= lo && e->col < hi;
  for (int k = 0; k < e->n_args; k++)
    if (!hl_expr_cols_within(e->args[k], lo, hi)) return false;
  return true;
}
