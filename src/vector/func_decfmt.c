/*
 * func_decfmt.c -- format_number(x, d) and format_number(x, 'pattern')
 * (Hive's GenericUDFFormatNumber), both through one subset of Java's
 * DecimalFormat: Hive formats d decimals as the pattern
 * "#,###,###,###,###,###,##0" followed by "." and d zeros.
 *
 * The pattern subset (java.text.DecimalFormat's applyPattern):
 *   prefix number suffix [; negative-prefix number negative-suffix]
 * number: '#' and '0' integer digits with ',' grouping (the group size is
 * the count of digits after the last ','), then optionally '.' and '0'
 * (shown) and '#' (shown when not zero) fraction digits; a prefix or suffix
 * is any other characters, 'quoted' text ('' a quote), '%' (the value times
 * 100) or U+2030 per mille (times 1000).  The negative subpattern lends
 * only its prefix and suffix; without one a negative number is '-' and the
 * positive form.  Exponents ('E') and the currency sign (U+00A4) are
 * refused (0A000), a malformed pattern is 22023 (Java throws
 * IllegalArgumentException).
 *
 * Values round HALF_EVEN as DecimalFormat does: integers and decimals on
 * their exact digits; a double prints from its shortest digits (as
 * Double.toString: 1.7976931348623157E308 with 308 decimals is 17976931348623157
 * and zeros) and decides a tie on its exact binary value (JDK 8's rule, so
 * 0.15 to one decimal is 0.1); a FLOAT is the double of its value.  A
 * negative number keeps its sign when it rounds to zero ("-0.00"), as Java.
 * NaN and infinities are NULL.  Fuzzed (tests/fuzz/fuzz_funcs.c).
 */
#include "vector/func_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Digits as DecimalFormat sees them: DIG[0..nd) with DIG[0] at 10^exp10. */
typedef struct digits {
  char dig[48];
  int nd, exp10;
  bool neg;
} digits_t;

static int digit_at(const char *dig, int nd, int exp10, int pos) {
  int i = exp10 - pos;
  return i >= 0 && i < nd ? dig[i] - '0' : 0;
}

static void digits_from_uint(unsigned __int128 v, bool neg, int scale, digits_t *n) {
  memset(n, 0, sizeof *n);
  n->neg = neg;
  char tmp[48];
  int k = 0;
  while (v) {
    tmp[k++] = (char)('0' + (int)(v % 10));
    v /= 10;
  }
  for (int i = 0; i < k; i++)
    n->dig[i] = tmp[k - 1 - i];
  n->nd = k;
  n->exp10 = k - 1 - scale;
  while (n->nd > 0 && n->dig[n->nd - 1] == '0')
    n->nd--;
}

/* Whether N, cut after its digit at 10^LAST, rounds up (HALF_EVEN).  For
 * a double D (IS_DOUBLE) a tie is decided on D's exact value: its shortest
 * digits and its exact ones keep the same digits above the cut whenever
 * anything below the cut is not zero, so only the side of the half differs. */
static bool rounds_up(const digits_t *n, int last, bool is_double, double d) {
  bool below = false;
  for (int i = 0; i < n->nd; i++)
    if (n->exp10 - i < last && n->dig[i] != '0') below = true;
  if (!below) return false;
  int first = digit_at(n->dig, n->nd, n->exp10, last - 1);
  bool rest = false;
  for (int i = 0; i < n->nd; i++)
    if (n->exp10 - i < last - 1 && n->dig[i] != '0') rest = true;
  if (is_double && first == 5 && !rest) {
    /* the exact binary value: glibc prints every digit asked for */
    char ex[1200];
    snprintf(ex, sizeof ex, "%.1100e", fabs(d));
    char edig[1110];
    int end = 0;
    for (const char *p = ex; *p && *p != 'e'; p++)
      if (*p >= '0' && *p <= '9') edig[end++] = *p;
    int e10 = atoi(strchr(ex, 'e') + 1);
    int efirst = digit_at(edig, end, e10, last - 1);
    bool erest = false;
    for (int i = 0; i < end; i++)
      if (e10 - i < last - 1 && edig[i] != '0') erest = true;
    if (efirst != 5) return efirst > 5;
    if (erest) return true;
  } else if (first != 5) {
    return first > 5;
  } else if (rest) {
    return true;
  }
  return digit_at(n->dig, n->nd, n->exp10, last) % 2 == 1; /* a tie: to even */
}

/* ------------------------------------------------------------ patterns */

/* Appends the affix characters of PAT[i..) up to the number part (or the
 * end, or ';' when STOP_SEMI) into AFFIX, quotes removed; *MULT set by %
 * and per mille.  Returns the index it stopped at, -1 with ERR set. */
static long parse_affix(const char *pat, size_t n, size_t i, bool number_follows, hl_buf_t *affix,
                        int *mult, bool *seen_number, long pos, hl_error_t *err) {
  bool quoted = false;
  while (i < n) {
    char c = pat[i];
    if (quoted) {
      if (c == '\'') {
        if (i + 1 < n && pat[i + 1] == '\'') {
          hl_buf_putc(affix, '\'');
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      hl_buf_putc(affix, c);
      i++;
      continue;
    }
    if (number_follows && (c == '#' || c == '0' || c == ',' || c == '.')) {
      *seen_number = true;
      return (long)i;
    }
    if (c == ';') return (long)i;
    if (c == '\'') {
      if (i + 1 < n && pat[i + 1] == '\'') {
        hl_buf_putc(affix, '\'');
        i += 2;
      } else {
        quoted = true;
        i++;
      }
      continue;
    }
    if (c == '%') {
      *mult = 100;
    } else if ((unsigned char)c == 0xE2 && i + 2 < n && (unsigned char)pat[i + 1] == 0x80 &&
               (unsigned char)pat[i + 2] == 0xB0) {
      *mult = 1000; /* U+2030 */
    } else if ((unsigned char)c == 0xC2 && i + 1 < n && (unsigned char)pat[i + 1] == 0xA4) {
      hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "format_number with a currency sign in the pattern is not supported yet");
      return -1;
    }
    hl_buf_putc(affix, c);
    i++;
  }
  if (quoted) {
    hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                  "malformed format_number pattern: an unterminated quote");
    return -1;
  }
  return (long)i;
}

static char *affix_copy(hl_arena_t *arena, hl_buf_t *b, size_t *len) {
  *len = b->len;
  char *p = hl_arena_alloc(arena, b->len + 1);
  if (p && b->len) memcpy(p, b->data, b->len);
  return p;
}

hl_status_t hl_decfmt_parse(const char *pat, size_t n, hl_arena_t *arena, long pos, hl_decfmt_t *f,
                            hl_error_t *err) {
  memset(f, 0, sizeof *f);
  f->mult = 1;
  if (n == 0) { /* Java: no affixes, no minimum digits, all fraction digits */
    f->max_frac = 340;
    f->pos_prefix = f->pos_suffix = f->neg_suffix = "";
    f->neg_prefix = "-";
    f->neg_prefix_len = 1;
    return HL_OK;
  }
  hl_buf_t pre, suf;
  hl_buf_init(&pre);
  hl_buf_init(&suf);
  hl_status_t rc = HL_OK;
  bool seen = false;
  long i = parse_affix(pat, n, 0, true, &pre, &f->mult, &seen, pos, err);
  int left = 0, zeros = 0, right = 0, group = -1, dpos = -1;
  if (i < 0) goto fail;
  for (; (size_t)i < n; i++) {
    char c = pat[i];
    if (c == '#') {
      if (zeros > 0)
        right++;
      else
        left++;
      if (group >= 0 && dpos < 0) group++;
    } else if (c == '0') {
      if (right > 0) {
        rc = hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "malformed format_number pattern: '0' after '#' in the fraction");
        goto fail;
      }
      zeros++;
      if (group >= 0 && dpos < 0) group++;
    } else if (c == ',') {
      group = 0;
    } else if (c == '.') {
      if (dpos >= 0) {
        rc = hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "malformed format_number pattern: two decimal separators");
        goto fail;
      }
      dpos = left + zeros + right;
    } else if (c == 'E') {
      rc = hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "format_number with an exponent in the pattern is not supported yet");
      goto fail;
    } else {
      break;
    }
  }
  i = parse_affix(pat, n, (size_t)i, false, &suf, &f->mult, &seen, pos, err);
  if (i < 0) goto fail;
  if (zeros == 0 && left > 0 && dpos >= 0) {
    /* "#.#": Java makes the last integer '#' a '0' */
    int k = dpos == 0 ? 1 : dpos;
    right = left - k;
    left = k - 1;
    zeros = 1;
  }
  if ((dpos < 0 && right > 0) || (dpos >= 0 && (dpos < left || dpos > left + zeros)) ||
      group == 0) {
    rc = hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                       "malformed format_number pattern \"%.*s\"", (int)(n > 80 ? 80 : n), pat);
    goto fail;
  }
  int total = left + zeros + right, eff = dpos >= 0 ? dpos : total;
  f->min_int = eff - left;
  f->max_frac = dpos >= 0 ? total - dpos : 0;
  f->min_frac = dpos >= 0 ? left + zeros - dpos : 0;
  f->grouping = group > 0 ? group : 0;
  f->dec_always = dpos == 0 || dpos == total;
  if (!(f->pos_prefix = affix_copy(arena, &pre, &f->pos_prefix_len)) ||
      !(f->pos_suffix = affix_copy(arena, &suf, &f->pos_suffix_len))) {
    rc = hl_err_nomem(err);
    goto fail;
  }
  if ((size_t)i < n && pat[i] == ';') {
    /* the negative subpattern: its prefix and suffix, its number ignored */
    hl_buf_reset(&pre);
    hl_buf_reset(&suf);
    int m = f->mult;
    i = parse_affix(pat, n, (size_t)i + 1, true, &pre, &m, &seen, pos, err);
    if (i < 0) goto fail;
    while ((size_t)i < n && strchr("#0,.", pat[i]))
      i++;
    i = parse_affix(pat, n, (size_t)i, false, &suf, &m, &seen, pos, err);
    if (i < 0) goto fail;
    if ((size_t)i < n) {
      rc = hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "malformed format_number pattern: more than two subpatterns");
      goto fail;
    }
    if (!(f->neg_prefix = affix_copy(arena, &pre, &f->neg_prefix_len)) ||
        !(f->neg_suffix = affix_copy(arena, &suf, &f->neg_suffix_len))) {
      rc = hl_err_nomem(err);
      goto fail;
    }
  } else {
    hl_buf_reset(&pre);
    hl_buf_putc(&pre, '-');
    hl_buf_append(&pre, f->pos_prefix, f->pos_prefix_len);
    if (!(f->neg_prefix = affix_copy(arena, &pre, &f->neg_prefix_len))) {
      rc = hl_err_nomem(err);
      goto fail;
    }
    f->neg_suffix = f->pos_suffix;
    f->neg_suffix_len = f->pos_suffix_len;
  }
  if (pre.oom || suf.oom) rc = hl_err_nomem(err);
fail:
  hl_buf_fini(&pre);
  hl_buf_fini(&suf);
  return rc == HL_OK && i < 0 ? err->code : rc;
}

/* ---------------------------------------------------------- formatting */

bool hl_decfmt_format(const hl_decfmt_t *f, const hl_type_t *t, const hl_value_t *v,
                      hl_buf_t *out) {
  digits_t n;
  bool is_double = t->id == HL_T_DOUBLE || t->id == HL_T_FLOAT;
  double d = 0;
  if (is_double) {
    d = t->id == HL_T_FLOAT ? (double)(float)v->u.d : v->u.d;
    if (isnan(d) || isinf(d)) return false;
    d *= f->mult; /* Java multiplies the double */
    if (isinf(d)) return false;
    memset(&n, 0, sizeof n);
    if (d == 0)
      n.neg = signbit(d);
    else
      n.neg = hl_double_digits(d, false, n.dig, &n.nd, &n.exp10);
  } else if (t->id == HL_T_DECIMAL) {
    __int128 x = v->u.dec;
    digits_from_uint(x < 0 ? (unsigned __int128)-x : (unsigned __int128)x, x < 0, t->scale, &n);
    if (n.nd) n.exp10 += f->mult == 100 ? 2 : f->mult == 1000 ? 3 : 0;
  } else if (hl_type_is_integer(t)) {
    int64_t x = v->u.i;
    digits_from_uint(x < 0 ? 0 - (uint64_t)x : (uint64_t)x, x < 0, 0, &n);
    if (n.nd) n.exp10 += f->mult == 100 ? 2 : f->mult == 1000 ? 3 : 0;
  } else {
    return false;
  }
  /* Java's DecimalFormat keeps at most 340 fraction digits of a double or
   * an integer (its superclass's fields), all of a BigDecimal */
  int cap = t->id == HL_T_DECIMAL ? INT32_MAX : 340;
  int max_frac = f->max_frac > cap ? cap : f->max_frac;
  int min_frac = f->min_frac > cap ? cap : f->min_frac;
  int last = -max_frac;
  bool up = rounds_up(&n, last, is_double, d);
  /* the kept digits, from 10^top down to 10^last, plus the carry */
  int top = n.nd && n.exp10 > 0 ? n.exp10 : 0;
  size_t width = (size_t)(top - last + 2);
  hl_buf_t dg;
  hl_buf_init(&dg);
  hl_buf_putc(&dg, '0'); /* room for a carry */
  for (int p = top; p >= last; p--)
    hl_buf_putc(&dg, (char)('0' + digit_at(n.dig, n.nd, n.exp10, p)));
  if (dg.oom) {
    hl_buf_fini(&dg);
    return false;
  }
  char *z = dg.data;
  for (size_t k = width - 1; up && k > 0; k--) {
    if (z[k] == '9') {
      z[k] = '0';
    } else {
      z[k]++;
      up = false;
    }
  }
  if (up) z[0] = '1';
  /* z[0..width): z[0] at 10^(top+1), z[k] at 10^(top+1-k) */
  int int_len = top + 2; /* z[0 .. int_len) are integer digits */
  int lead = 0;
  while (lead < int_len && z[lead] == '0')
    lead++;
  int int_digits = int_len - lead;
  int frac_len = (int)width - int_len;
  while (frac_len > min_frac && z[int_len + frac_len - 1] == '0')
    frac_len--;
  if (n.neg)
    hl_buf_append(out, f->neg_prefix, f->neg_prefix_len);
  else
    hl_buf_append(out, f->pos_prefix, f->pos_prefix_len);
  int shown = int_digits > f->min_int ? int_digits : f->min_int;
  if (shown == 0 && frac_len == 0) shown = 1; /* Java prints a zero rather than nothing */
  for (int k = shown - 1; k >= 0; k--) {
    int idx = int_len - 1 - k;
    hl_buf_putc(out, idx >= 0 ? z[idx] : '0');
    if (f->grouping && k > 0 && k % f->grouping == 0) hl_buf_putc(out, ',');
  }
  if (frac_len > 0 || f->dec_always) hl_buf_putc(out, '.');
  hl_buf_append(out, z + int_len, (size_t)frac_len);
  if (n.neg)
    hl_buf_append(out, f->neg_suffix, f->neg_suffix_len);
  else
    hl_buf_append(out, f->pos_suffix, f->pos_suffix_len);
  hl_buf_fini(&dg);
  return true;
}

/* ------------------------------------------------------ format_number */

/* The most decimal places of a DECIMAL: Java prints them all, hivelite
 * stops the output at this size. */
#define MAX_DECIMAL_PLACES 100000

/* format_number(x, d): Hive's pattern "#,###,###,###,###,###,##0" with d
 * zeros after a '.'; format_number(x, 'pattern'): the pattern, parsed once
 * by plan/bind.c when it is a constant (call->state). */
HL_FN(hl_fn_format_number) {
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const hl_type_t *xt = call->args[0]->type, *pt = call->args[1]->type;
  hl_decfmt_t local;
  const hl_decfmt_t *f = call->state;
  if (!f && hl_type_is_string(pt)) {
    hl_status_t rc = hl_decfmt_parse(a[1].u.s.ptr, a[1].u.s.len, arena, call->pos, &local, err);
    if (rc != HL_OK) return rc;
    f = &local;
  } else if (!f) {
    int64_t d = a[1].u.i;
    if (d < 0)
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "format_number: the number of decimal places must not be negative, "
                           "not %lld",
                           (long long)d);
    if (d > MAX_DECIMAL_PLACES && xt->id == HL_T_DECIMAL)
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                           "format_number: more than %d decimal places", MAX_DECIMAL_PLACES);
    hl_fn_decfmt_places(&local, d > MAX_DECIMAL_PLACES ? MAX_DECIMAL_PLACES : (int)d);
    f = &local;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  if (!hl_decfmt_format(f, xt, &a[0], &b)) {
    hl_buf_fini(&b);
    out->is_null = true;
    return HL_OK;
  }
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

void hl_fn_decfmt_places(hl_decfmt_t *f, int d) {
  memset(f, 0, sizeof *f);
  f->pos_prefix = f->pos_suffix = f->neg_suffix = "";
  f->neg_prefix = "-";
  f->neg_prefix_len = 1;
  f->min_int = 1;
  f->min_frac = f->max_frac = d;
  f->grouping = 3;
  f->mult = 1;
}
