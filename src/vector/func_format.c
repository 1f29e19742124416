/*
 * func_format.c -- printf(format, args...).
 *
 * printf follows Java's Formatter, which Hive calls: specifiers
 * %[index$][flags][width][.precision]conv with the flags - # + space 0 , (
 * and the conversions b B h H s S c C d o x X e E f g G % n ("<" reuses
 * the previous argument).  Doubles print from their shortest decimal
 * digits rounded HALF_UP, as Java does (printf('%.2f', 1.005) is 1.01);
 * %x and %o of a negative integer print its two's complement at its
 * type's width.  A conversion that does not fit its argument, a missing
 * argument or a malformed specifier fails the statement (22023), as Java
 * throws.  Date-time conversions (%t, %T) are func_printf_time.c's.
 * format_number is in func_decfmt.c.
 */
#include "vector/func_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal number: DIG[0..nd) with DIG[0] at 10^exp10 (nd = 0: zero). */
typedef struct decnum {
  char dig[48];
  int nd, exp10;
  bool neg;
} decnum_t;

static void dec_from_double(double d, decnum_t *n) {
  memset(n, 0, sizeof *n);
  if (d == 0) {
    n->neg = signbit(d);
    return;
  }
  n->neg = hl_double_digits(d, false, n->dig, &n->nd, &n->exp10);
}

static void dec_from_uint(unsigned __int128 v, bool neg, int scale, decnum_t *n) {
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

/* The digit of N at 10^POS. */
static int digit_at(const decnum_t *n, int pos) {
  int i = n->exp10 - pos;
  return i >= 0 && i < n->nd ? n->dig[i] - '0' : 0;
}

/* Rounds N to the digit at 10^LAST (HALF_UP, or HALF_EVEN); OUT gets the
 * digits from 10^max(top, 0) down to 10^LAST, *TOP the first one's power. */
static void dec_round(const decnum_t *n, int last, bool half_even, hl_buf_t *out, int *top) {
  int hi = n->nd && n->exp10 > 0 ? n->exp10 : 0;
  if (hi < last) hi = last;
  char d[800];
  int len = 0;
  for (int p = hi; p >= last && len < (int)sizeof d - 1; p--)
    d[len++] = (char)('0' + digit_at(n, p));
  int first = digit_at(n, last - 1);
  bool rest = false;
  for (int i = 0; i < n->nd; i++)
    if (n->exp10 - i < last - 1 && n->dig[i] != '0') rest = true;
  bool up = half_even ? first > 5 || (first == 5 && (rest || (len && (d[len - 1] - '0') % 2)))
                      : first >= 5;
  int carry = up;
  for (int i = len - 1; i >= 0 && carry; i--) {
    if (d[i] == '9') {
      d[i] = '0';
    } else {
      d[i]++;
      carry = 0;
    }
  }
  if (carry) {
    hl_buf_putc(out, '1');
    hi++;
  }
  hl_buf_append(out, d, (size_t)len);
  *top = hi;
}

/* Fixed notation of N with PREC decimals into OUT (no sign), grouped by
 * thousands when GROUP. */
static void fixed_text(const decnum_t *n, int prec, bool half_even, bool group, hl_buf_t *out) {
  hl_buf_t d;
  hl_buf_init(&d);
  int top;
  dec_round(n, -prec, half_even, &d, &top);
  int int_digits = top + 1;
  for (int i = 0; i < int_digits && (size_t)i < d.len; i++) {
    if (group && i > 0 && (int_digits - i) % 3 == 0) hl_buf_putc(out, ',');
    hl_buf_putc(out, d.data[i]);
  }
  if (prec > 0) {
    hl_buf_putc(out, '.');
    hl_buf_append(out, d.data + int_digits, (size_t)prec);
  }
  if (d.oom) out->oom = 1;
  hl_buf_fini(&d);
}

/* N rounded HALF_UP to SIG significant digits (SIG < 400) into M; returns
 * the power of ten of M[0] (a carry can raise it by one). */
static int sig_round(const decnum_t *n, int sig, char *m) {
  for (int i = 0; i < sig; i++)
    m[i] = i < n->nd ? n->dig[i] : '0';
  int e = n->nd ? n->exp10 : 0;
  if (n->nd > sig && n->dig[sig] >= '5') {
    int i = sig - 1;
    while (i >= 0 && m[i] == '9')
      m[i--] = '0';
    if (i >= 0) {
      m[i]++;
    } else {
      m[0] = '1';
      e++;
    }
  }
  return e;
}

/* Scientific notation with PREC decimals: d.ddde+XX (Java: at least two
 * exponent digits). */
static void sci_text(const decnum_t *n, int prec, bool upper, hl_buf_t *out) {
  char m[400];
  int e = sig_round(n, prec + 1, m);
  hl_buf_putc(out, m[0]);
  if (prec > 0) {
    hl_buf_putc(out, '.');
    hl_buf_append(out, m + 1, (size_t)prec);
  }
  hl_buf_printf(out, "%c%c%02d", upper ? 'E' : 'e', e < 0 ? '-' : '+', abs(e));
}

typedef struct spec {
  bool left, alt, plus, space, zero, group, paren;
  int width, prec;
} spec_t;

static hl_status_t bad_spec(const hl_expr_t *call, hl_error_t *err, const char *what, char conv) {
  return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                       "printf: %s for %%%c", what, conv);
}

/* Writes BODY (sign already in it or in SIGN) padded to the width. */
static void emit(hl_buf_t *b, const spec_t *sp, const char *sign, const char *body, size_t n,
                 bool numeric) {
  size_t sl = strlen(sign), total = sl + n;
  size_t pad = sp->width > 0 && (size_t)sp->width > total ? (size_t)sp->width - total : 0;
  if (!sp->left && !(numeric && sp->zero))
    for (size_t i = 0; i < pad; i++)
      hl_buf_putc(b, ' ');
  hl_buf_append(b, sign, sl);
  if (!sp->left && numeric && sp->zero)
    for (size_t i = 0; i < pad; i++)
      hl_buf_putc(b, '0');
  hl_buf_append(b, body, n);
  if (sp->left)
    for (size_t i = 0; i < pad; i++)
      hl_buf_putc(b, ' ');
}

static const char *sign_of(const spec_t *sp, bool neg) {
  if (neg) return sp->paren ? "(" : "-";
  return sp->plus ? "+" : sp->space ? " " : "";
}

/* Bits of an integer type, for %x and %o of negative values. */
static int int_bits(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_TINYINT:
    return 8;
  case HL_T_SMALLINT:
    return 16;
  case HL_T_INT:
    return 32;
  default:
    return 64;
  }
}

static void value_text(hl_buf_t *b, const hl_type_t *t, const hl_value_t *v) {
  if (v->is_null)
    hl_buf_puts(b, "null");
  else
    hl_value_format(b, t, v);
}

static hl_status_t one_spec(const hl_expr_t *call, const hl_value_t *a, int ai, char conv,
                            const spec_t *sp, hl_buf_t *b, hl_error_t *err) {
  const hl_type_t *t = call->args[ai]->type;
  const hl_value_t *v = &a[ai];
  bool upper = isupper((unsigned char)conv) != 0;
  char lc = (char)tolower((unsigned char)conv);
  hl_buf_t body;
  hl_buf_init(&body);
  hl_status_t rc = HL_OK;
  const char *sign = "";
  bool numeric = false;
  switch (lc) {
  case 'b':
    hl_buf_puts(&body, v->is_null ? "false" : t->id == HL_T_BOOLEAN && !v->u.b ? "false" : "true");
    break;
  case 'h':
    if (v->is_null) {
      hl_buf_puts(&body, "null");
    } else {
      hl_buf_t txt;
      hl_buf_init(&txt);
      hl_value_format(&txt, t, v);
      uint32_t h = 0; /* String.hashCode of the text, for strings */
      for (size_t i = 0; i < txt.len; i++)
        h = 31 * h + (unsigned char)txt.data[i];
      hl_buf_printf(&body, "%x", h);
      hl_buf_fini(&txt);
    }
    break;
  case 's':
    value_text(&body, t, v);
    if (sp->prec >= 0 && body.len > (size_t)sp->prec) body.len = (size_t)sp->prec;
    break;
  case 'c':
    if (v->is_null) {
      hl_buf_puts(&body, "null");
    } else if (hl_type_is_integer(t) && v->u.i >= 0 && v->u.i <= 0x10FFFF) {
      uint32_t cp = (uint32_t)v->u.i;
      char o[4];
      size_t n =
          cp < 0x80    ? (o[0] = (char)cp, 1)
          : cp < 0x800 ? (o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F)), 2)
          : cp < 0x10000
              ? (o[0] = (char)(0xE0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
                 o[2] = (char)(0x80 | (cp & 0x3F)), 3)
              : (o[0] = (char)(0xF0 | cp >> 18), o[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
                 o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), o[3] = (char)(0x80 | (cp & 0x3F)), 4);
      hl_buf_append(&body, o, n);
    } else {
      rc = bad_spec(call, err, "the argument is not a character", conv);
    }
    break;
  case 'd':
  case 'o':
  case 'x':
    if (v->is_null) {
      hl_buf_puts(&body, "null");
      break;
    }
    if (!hl_type_is_integer(t)) {
      rc = bad_spec(call, err, "the argument is not an integer", conv);
      break;
    }
    numeric = true;
    if (lc == 'd') {
      decnum_t n;
      uint64_t mag = v->u.i < 0 ? 0 - (uint64_t)v->u.i : (uint64_t)v->u.i;
      dec_from_uint(mag, v->u.i < 0, 0, &n);
      fixed_text(&n, 0, false, sp->group, &body);
      sign = sign_of(sp, v->u.i < 0);
    } else {
      int bits = int_bits(t);
      uint64_t u = (uint64_t)v->u.i;
      if (bits < 64) u &= (1ULL << bits) - 1;
      if (sp->alt) hl_buf_puts(&body, lc == 'x' ? (upper ? "0X" : "0x") : "0");
      hl_buf_printf(&body, lc == 'o' ? "%llo" : upper ? "%llX" : "%llx", (unsigned long long)u);
    }
    break;
  case 'e':
  case 'f':
  case 'g': {
    if (v->is_null) {
      hl_buf_puts(&body, "null");
      break;
    }
    decnum_t n;
    if (t->id == HL_T_DOUBLE || t->id == HL_T_FLOAT) {
      double d = v->u.d;
      if (isnan(d) || isinf(d)) {
        hl_buf_puts(&body, isnan(d) ? "NaN" : "Infinity");
        sign = isnan(d) ? "" : sign_of(sp, d < 0);
        break;
      }
      if (t->id == HL_T_FLOAT) {
        memset(&n, 0, sizeof n);
        if (d != 0) n.neg = hl_double_digits(d, true, n.dig, &n.nd, &n.exp10);
      } else {
        dec_from_double(d, &n);
      }
    } else if (t->id == HL_T_DECIMAL) {
      __int128 x = v->u.dec;
      dec_from_uint(x < 0 ? (unsigned __int128)-x : (unsigned __int128)x, x < 0, t->scale, &n);
    } else {
      rc = bad_spec(call, err, "the argument is not a floating-point number", conv);
      break;
    }
    numeric = true;
    int prec = sp->prec < 0 ? 6 : sp->prec;
    if (lc == 'f') {
      fixed_text(&n, prec, false, sp->group, &body);
    } else if (lc == 'e') {
      sci_text(&n, prec, upper, &body);
    } else {
      if (prec == 0) prec = 1;
      char m[400];
      int e = sig_round(&n, prec, m); /* the exponent after rounding */
      bool plain = !n.nd || (e >= -4 && e < prec);
      if (plain)
        fixed_text(&n, prec - 1 - (n.nd ? e : 0), false, sp->group, &body);
      else
        sci_text(&n, prec - 1, upper, &body);
    }
    sign = sign_of(sp, n.neg);
    break;
  }
  default:
    rc = hl_err_set_at(err, call->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                       "printf: the conversion %%%c is not supported yet", conv);
  }
  if (rc == HL_OK) {
    if (upper && lc != 'x') /* %S %B %H %E %G: upper-case the whole text */
      for (size_t i = 0; i < body.len; i++)
        body.data[i] = (char)toupper((unsigned char)body.data[i]);
    if (body.oom) rc = hl_err_nomem(err);
  }
  if (rc == HL_OK) {
    emit(b, sp, sign, body.data, body.len, numeric);
    if (numeric && sp->paren && strcmp(sign, "(") == 0) hl_buf_putc(b, ')');
  }
  hl_buf_fini(&body);
  return rc;
}

/* %tX / %TX at F[*i] (the X): Java takes flag '-' and a width only, and
 * of Hive's arguments only a BIGINT (a Long: milliseconds since 1970);
 * NULL prints "null".  AI the explicit argument (n$ or '<'), else 0. */
static hl_status_t datetime_spec(const hl_expr_t *call, const hl_value_t *a, const char *f,
                                 size_t fl, size_t *i, char conv, const spec_t *sp, int ai,
                                 int *next, int *last, hl_buf_t *b, hl_error_t *err) {
  if (*i >= fl)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "printf: the conversion %%%c needs a date-time letter", conv);
  char tc = f[(*i)++];
  if (sp->alt || sp->plus || sp->space || sp->zero || sp->group || sp->paren)
    return bad_spec(call, err, "a flag other than '-'", conv);
  if (sp->prec >= 0) return bad_spec(call, err, "a precision", conv);
  if (ai == 0) ai = (*next)++;
  if (ai < 1 || ai >= call->n_args)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "printf: no argument for the specifier %%%c%c", conv, tc);
  *last = ai;
  const hl_type_t *t = call->args[ai]->type;
  hl_buf_t body;
  hl_buf_init(&body);
  if (a[ai].is_null) {
    hl_buf_puts(&body, "null");
  } else if (t->id != HL_T_BIGINT) {
    hl_buf_fini(&body);
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "printf: %%%c%c needs a BIGINT of milliseconds since 1970 (a Java Long), "
                         "not %s",
                         conv, tc, hl_type_id_name(t->id));
  } else if (!hl_printf_datetime(tc, a[ai].u.i, &body)) {
    hl_buf_fini(&body);
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "printf: unknown date-time conversion %%%c%c", conv, tc);
  }
  if (conv == 'T')
    for (size_t k = 0; k < body.len; k++)
      body.data[k] = (char)toupper((unsigned char)body.data[k]);
  hl_status_t rc = body.oom ? hl_err_nomem(err) : HL_OK;
  if (rc == HL_OK) emit(b, sp, "", body.data, body.len, false);
  hl_buf_fini(&body);
  return rc;
}

/* Formats A[1..] with the Java format string F into B; 22023 errors. */
hl_status_t hl_printf_format(const hl_expr_t *call, const hl_value_t *a, const char *f, size_t fl,
                             hl_buf_t *b, hl_error_t *err) {
  int next = 1, last = -1;
  for (size_t i = 0; i < fl;) {
    if (f[i] != '%') {
      hl_buf_putc(b, f[i++]);
      continue;
    }
    size_t j = i + 1;
    int index = 0;
    bool prev = false;
    /* an argument index n$ (digits then '$'), or '<' */
    size_t k = j;
    while (k < fl && isdigit((unsigned char)f[k]))
      k++;
    if (k > j && k < fl && f[k] == '$') {
      long v = 0;
      for (size_t q = j; q < k && v < 100000; q++)
        v = v * 10 + (f[q] - '0');
      index = (int)v;
      j = k + 1;
    } else if (j < fl && f[j] == '<') {
      prev = true;
      j++;
    }
    spec_t sp = {0};
    sp.prec = -1;
    for (; j < fl && strchr("-#+ 0,(", f[j]) && f[j]; j++) {
      switch (f[j]) {
      case '-':
        sp.left = true;
        break;
      case '#':
        sp.alt = true;
        break;
      case '+':
        sp.plus = true;
        break;
      case ' ':
        sp.space = true;
        break;
      case '0':
        sp.zero = true;
        break;
      case ',':
        sp.group = true;
        break;
      case '(':
        sp.paren = true;
        break;
      }
    }
    while (j < fl && isdigit((unsigned char)f[j]) && sp.width < 100000)
      sp.width = sp.width * 10 + (f[j++] - '0');
    if (j < fl && f[j] == '.') {
      j++;
      if (j >= fl || !isdigit((unsigned char)f[j]))
        return bad_spec(call, err, "bad precision", '.');
      sp.prec = 0;
      while (j < fl && isdigit((unsigned char)f[j]) && sp.prec < 100000)
        sp.prec = sp.prec * 10 + (f[j++] - '0');
      if (sp.prec > 340) return bad_spec(call, err, "the precision is too large", '.');
    }
    while (j < fl && isdigit((unsigned char)f[j])) /* an absurd width or precision */
      j++;
    if (j >= fl)
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "printf: the format ends inside a specifier");
    char conv = f[j++];
    i = j;
    if ((sp.left || sp.zero) && sp.width == 0 && conv != '%' && conv != 'n')
      return bad_spec(call, err, "a width is needed with '-' or '0'", conv);
    if (conv == '%') {
      emit(b, &sp, "", "%", 1, false);
      continue;
    }
    if (conv == 'n') {
      hl_buf_putc(b, '\n');
      continue;
    }
    if (conv == 't' || conv == 'T') {
      hl_status_t rc =
          datetime_spec(call, a, f, fl, &i, conv, &sp, prev ? last : index, &next, &last, b, err);
      if (rc != HL_OK) return rc;
      continue;
    }
    if (!strchr("bBhHsScCdoxXeEfgG", conv) || !conv) {
      if (conv == 'a' || conv == 'A')
        return hl_err_set_at(err, call->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                             "printf: the conversion %%%c is not supported yet", conv);
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "printf: unknown conversion '%c'", conv);
    }
    int ai = prev ? last : index > 0 ? index : next++;
    if (ai < 1 || ai >= call->n_args)
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "printf: no argument for the specifier %%%c", conv);
    last = ai;
    hl_status_t rc = one_spec(call, a, ai, conv, &sp, b, err);
    if (rc != HL_OK) return rc;
  }
  return b->oom ? hl_err_nomem(err) : HL_OK;
}

HL_FN(hl_fn_printf) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  hl_status_t rc = hl_printf_format(call, a, a[0].u.s.ptr, a[0].u.s.len, &b, err);
  char *p = rc == HL_OK ? hl_fn_alloc_str(out, arena, b.len) : NULL;
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  if (rc != HL_OK) return rc;
  return p ? HL_OK : hl_err_nomem(err);
}
