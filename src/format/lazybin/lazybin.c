/*
 * lazybin.c -- Hive's LazyBinary encoding: rows of LazyBinarySerDe (the
 * SequenceFile reader and writer use them) and the timestamp and decimal
 * codecs rcfile.c's LazyBinaryColumnarSerDe cells share.  lazybin.h
 * describes the format.
 *
 * The decoder checks every length against the bytes left before it reads
 * or allocates anything, and nesting against HL_LAZYBIN_MAX_DEPTH, so a
 * damaged row is an error, never a crash or an allocation beyond a
 * multiple of its own size.
 */
#include "format/lazybin/lazybin.h"

#include "format/seqfile/seq_io.h"

#include <string.h>

/* ---------------------------------------------------------------- scalars */

int64_t hl_lazybin_be_int(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v = v << 8 | p[i];
  if (n < 8 && (p[0] & 0x80)) v |= ~(uint64_t)0 << (8 * n); /* sign-extend */
  return (int64_t)v;
}

void hl_lazybin_put_be(hl_buf_t *b, uint64_t v, int n) {
  unsigned char t[8];
  for (int i = 0; i < n; i++)
    t[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
  hl_buf_append(b, t, (size_t)n);
}

/* Reverses the 9 decimal digits of NANOS (TimestampWritable's form). */
static int64_t reverse_nanos(int64_t nanos) {
  int64_t d = 0;
  for (int i = 0; i < 9; i++) {
    d = d * 10 + nanos % 10;
    nanos /= 10;
  }
  return d;
}

/* Inverse of reverse_nanos for a value with its trailing zeros dropped. */
static int64_t unreverse_nanos(int64_t d) {
  if (d <= 0) return 0;
  int64_t v = 0;
  int digits = 0;
  while (d) {
    v = v * 10 + d % 10;
    d /= 10;
    digits++;
  }
  while (digits++ < 9)
    v *= 10;
  return v;
}

void hl_lazybin_put_timestamp(hl_buf_t *b, int64_t micros) {
  int64_t seconds = micros / 1000000, rem = micros % 1000000;
  if (rem < 0) {
    rem += 1000000;
    seconds--;
  }
  int64_t decimal = rem ? reverse_nanos(rem * 1000) : 0;
  bool second_vint = seconds < 0 || seconds > INT32_MAX;
  uint32_t first = (uint32_t)(uint64_t)seconds & 0x7FFFFFFFu;
  if (decimal || second_vint) first |= 0x80000000u;
  hl_lazybin_put_be(b, first, 4);
  if (decimal || second_vint) hl_seqio_put_vlong(b, second_vint ? -decimal - 1 : decimal);
  if (second_vint) hl_seqio_put_vlong(b, seconds >> 31);
}

bool hl_lazybin_get_timestamp(const unsigned char *p, size_t n, size_t *used, int64_t *micros) {
  if (n < 4) return false;
  uint32_t first = (uint32_t)hl_lazybin_be_int(p, 4);
  int64_t seconds = first & 0x7FFFFFFFu, nanos = 0;
  size_t k = 4;
  if (first & 0x80000000u) {
    int64_t d, hi = 0;
    size_t a = hl_seqio_vlong_decode(p + k, n - k, &d);
    if (!a) return false;
    k += a;
    bool second_vint = d < 0;
    if (second_vint) d = -d - 1;
    if (d > 999999999) return false;
    nanos = unreverse_nanos(d);
    if (second_vint) {
      size_t c = hl_seqio_vlong_decode(p + k, n - k, &hi);
      if (!c) return false;
      k += c;
      if (hi > ((int64_t)1 << 31) || hi < -((int64_t)1 << 31)) return false;
      seconds = (int64_t)((uint64_t)seconds | (uint64_t)hi << 31);
    }
  }
  int64_t us;
  if (__builtin_mul_overflow(seconds, 1000000, &us) ||
      __builtin_add_overflow(us, nanos / 1000, micros))
    return false;
  *used = k;
  return true;
}

void hl_lazybin_put_decimal(hl_buf_t *b, __int128 v, int scale) {
  while (scale > 0 && v % 10 == 0) { /* HiveDecimal keeps no trailing zeros */
    v /= 10;
    scale--;
  }
  int n = 1;
  while (n < 16) {
    __int128 lim = (__int128)1 << (8 * n - 1);
    if (v >= -lim && v < lim) break;
    n++;
  }
  hl_seqio_put_vlong(b, scale);
  hl_seqio_put_vlong(b, n);
  unsigned char t[16];
  unsigned __int128 u = (unsigned __int128)v;
  for (int i = 0; i < n; i++)
    t[i] = (unsigned char)(u >> (8 * (n - 1 - i)));
  hl_buf_append(b, t, (size_t)n);
}

hl_status_t hl_lazybin_get_decimal(hl_arena_t *arena, const hl_type_t *type, const unsigned char *p,
                                   size_t n, size_t *used, bool *ok, hl_value_t *out,
                                   hl_error_t *err) {
  *ok = false;
  int64_t scale, len;
  size_t a = hl_seqio_vlong_decode(p, n, &scale);
  size_t b = a ? hl_seqio_vlong_decode(p + a, n - a, &len) : 0;
  if (!b || scale < 0 || scale > 38 || len < 1 || len > 16 || (size_t)len > n - a - b) return HL_OK;
  *ok = true;
  *used = a + b + (size_t)len;
  const unsigned char *d = p + a + b;
  unsigned __int128 u = (d[0] & 0x80) ? ~(unsigned __int128)0 : 0;
  for (int64_t k = 0; k < len; k++)
    u = u << 8 | d[k];
  __int128 v = (__int128)u;
  /* through text, so the column's precision and scale apply Hive's way */
  char digits[48], text[64];
  unsigned __int128 mag = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  int nd = 0;
  do {
    digits[nd++] = (char)('0' + (int)(mag % 10));
    mag /= 10;
  } while (mag);
  size_t t = 0;
  if (v < 0) text[t++] = '-';
  int int_digits = nd - (int)scale;
  if (int_digits <= 0) {
    text[t++] = '0';
    text[t++] = '.';
    for (int z = 0; z < -int_digits; z++)
      text[t++] = '0';
  }
  for (int k = nd - 1; k >= 0; k--) {
    text[t++] = digits[k];
    if (k == (int)scale && k > 0 && int_digits > 0) text[t++] = '.';
  }
  hl_error_t conv;
  hl_err_init(&conv);
  hl_status_t st = hl_value_from_text(arena, type, text, t, out, &conv);
  hl_err_clear(&conv);
  if (st == HL_NOMEM) return hl_err_nomem(err);
  if (st != HL_OK) {
    memset(out, 0, sizeof *out);
    out->is_null = true; /* does not fit the column */
  }
  return HL_OK;
}

/* ------------------------------------------------------------- encoding */

hl_status_t hl_lazybin_check_types(int n_cols, const hl_type_t *const *types,
                                   const char *const *names, hl_error_t *err) {
  for (int c = 0; c < n_cols; c++) {
    const hl_type_t *t = types[c];
    if (t->id == HL_T_NULL)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "LazyBinarySerDe: column \"%s\" has a type it cannot hold",
                        names ? names[c] : "?");
    if (t->n_children > 0 &&
        hl_lazybin_check_types(t->n_children, (const hl_type_t *const *)t->children, NULL, err) !=
            HL_OK)
      return err->code;
  }
  return HL_OK;
}

static void put_value(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v);
static void put_complex(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v);

/* A struct's groups: a null byte, then the present fields of the group. */
static void put_struct(hl_buf_t *b, int n, const hl_type_t *const *types, const hl_value_t *vals) {
  for (int g = 0; g < n; g += 8) {
    unsigned char nulls = 0;
    for (int i = g; i < n && i < g + 8; i++)
      if (!vals[i].is_null) nulls |= (unsigned char)(1u << (i - g));
    hl_buf_putc(b, (char)nulls);
    for (int i = g; i < n && i < g + 8; i++)
      if (!vals[i].is_null) put_value(b, types[i], &vals[i]);
  }
}

static void put_string(hl_buf_t *b, const char *p, size_t n) {
  hl_seqio_put_vlong(b, (int64_t)n);
  hl_buf_append(b, p, n);
}

static void put_value(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v) {
  switch (type->id) {
  case HL_T_BOOLEAN:
    hl_buf_putc(b, v->u.b ? 1 : 0);
    return;
  case HL_T_TINYINT:
    hl_buf_putc(b, (char)(int8_t)v->u.i);
    return;
  case HL_T_SMALLINT:
    hl_lazybin_put_be(b, (uint64_t)v->u.i, 2);
    return;
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
    hl_seqio_put_vlong(b, v->u.i);
    return;
  case HL_T_FLOAT: {
    float f = (float)v->u.d;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    hl_lazybin_put_be(b, bits, 4);
    return;
  }
  case HL_T_DOUBLE: {
    uint64_t bits;
    memcpy(&bits, &v->u.d, 8);
    hl_lazybin_put_be(b, bits, 8);
    return;
  }
  case HL_T_CHAR: { /* HiveCharWritable's stripped value */
    size_t n = v->u.s.len;
    while (n && v->u.s.ptr[n - 1] == ' ')
      n--;
    put_string(b, v->u.s.ptr, n);
    return;
  }
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_BINARY:
    put_string(b, v->u.s.ptr, v->u.s.len);
    return;
  case HL_T_TIMESTAMP:
    hl_lazybin_put_timestamp(b, v->u.i);
    return;
  case HL_T_DECIMAL:
    hl_lazybin_put_decimal(b, v->u.dec, type->scale);
    return;
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION:
    break;
  default:
    return;
  }
  size_t size_at = b->len;
  hl_lazybin_put_be(b, 0, 4); /* the byte size, filled in below */
  size_t start = b->len;
  put_complex(b, type, v);
  if (b->oom || b->len < start) return;
  size_t size = b->len - start;
  for (int i = 0; i < 4; i++)
    b->data[size_at + (size_t)i] = (char)(size >> (8 * (3 - i)));
}

/* An ARRAY, MAP, STRUCT or UNIONTYPE without its byte size: the count and null bits,
 * or the struct's groups, then the values. */
static void put_complex(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v) {
  uint32_t n = v->u.list.n;
  if (type->id == HL_T_UNION) { /* LazyBinaryUnion: the tag byte, then the value (none if NULL) */
    hl_buf_putc(b, (char)(uint8_t)v->u.list.tag);
    if (n && (int)v->u.list.tag < type->n_children && !v->u.list.items[0].is_null)
      put_value(b, type->children[v->u.list.tag], &v->u.list.items[0]);
    return;
  }
  if (type->id == HL_T_STRUCT) {
    put_struct(b, (int)(n < (uint32_t)type->n_children ? n : (uint32_t)type->n_children),
               (const hl_type_t *const *)type->children, v->u.list.items);
  } else {
    bool map = type->id == HL_T_MAP;
    hl_seqio_put_vlong(b, n);
    uint32_t items = map ? 2 * n : n;
    for (uint32_t g = 0; g < items; g += 8) { /* every null byte first */
      unsigned char nulls = 0;
      for (uint32_t i = g; i < items && i < g + 8; i++)
        if (!v->u.list.items[i].is_null) nulls |= (unsigned char)(1u << (i - g));
      hl_buf_putc(b, (char)nulls);
    }
    for (uint32_t i = 0; i < items; i++)
      if (!v->u.list.items[i].is_null)
        put_value(b, type->children[map ? i % 2 : 0], &v->u.list.items[i]);
  }
}

void hl_lazybin_encode_cell(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v) {
  if (!v->is_null) put_complex(b, type, v);
}

void hl_lazybin_encode_row(hl_buf_t *b, int n_cols, const hl_type_t *const *types,
                           const hl_value_t *vals) {
  put_struct(b, n_cols, types, vals);
}

/* ------------------------------------------------------------- decoding */

typedef struct dec {
  hl_arena_t *arena;
  hl_error_t *err;
  const char *why; /* set when the bytes are malformed */
} dec_t;

#define BAD(d, msg) ((d)->why = (msg), false)

static bool get_value(dec_t *d, const hl_type_t *type, const unsigned char *p, size_t n,
                      size_t *used, hl_value_t *out, int depth);
static bool get_complex(dec_t *d, const hl_type_t *type, const unsigned char *q, size_t m,
                        hl_value_t *out, int depth);

/* A length-prefixed string at P[0..n). */
static bool get_string(dec_t *d, const hl_type_t *type, const unsigned char *p, size_t n,
                       size_t *used, hl_value_t *out) {
  int64_t len;
  size_t a = hl_seqio_vlong_decode(p, n, &len);
  if (!a || len < 0 || (uint64_t)len > n - a) return BAD(d, "bad string length");
  *used = a + (size_t)len;
  const char *s = (const char *)p + a;
  if (type->id == HL_T_VARCHAR || type->id == HL_T_CHAR) { /* cut / padded as declared */
    hl_error_t conv;
    hl_err_init(&conv);
    hl_status_t st = hl_value_from_text(d->arena, type, s, (size_t)len, out, &conv);
    hl_err_clear(&conv);
    if (st == HL_NOMEM) return hl_err_nomem(d->err), BAD(d, NULL);
    if (st != HL_OK) out->is_null = true;
    return true;
  }
  char *c = hl_arena_alloc(d->arena, len ? (size_t)len : 1);
  if (!c) return hl_err_nomem(d->err), BAD(d, NULL);
  if (len) memcpy(c, s, (size_t)len);
  out->u.s.ptr = c;
  out->u.s.len = (uint32_t)len;
  return true;
}

/* A struct's groups at P[0..n) into OUT[0..n_fields); fields past the end
 * of the bytes are NULL. */
static bool get_struct(dec_t *d, int n_fields, const hl_type_t *const *types, const bool *projected,
                       const unsigned char *p, size_t n, size_t *used, hl_value_t *out, int depth) {
  size_t k = 0;
  for (int i = 0; i < n_fields; i++) {
    memset(&out[i], 0, sizeof out[i]);
    out[i].is_null = true;
  }
  for (int g = 0; g < n_fields && k < n; g += 8) {
    unsigned char nulls = p[k++];
    for (int i = g; i < n_fields && i < g + 8; i++) {
      if (!(nulls & (1u << (i - g)))) continue;
      size_t u = 0;
      hl_value_t v;
      if (!get_value(d, types[i], p + k, n - k, &u, &v, depth + 1)) return false;
      k += u;
      if (!projected || projected[i]) out[i] = v;
    }
  }
  *used = k;
  return true;
}

static bool get_value(dec_t *d, const hl_type_t *type, const unsigned char *p, size_t n,
                      size_t *used, hl_value_t *out, int depth) {
  memset(out, 0, sizeof *out);
  if (depth > HL_LAZYBIN_MAX_DEPTH) return BAD(d, "nested too deep");
  int64_t i;
  size_t a;
  switch (type->id) {
  case HL_T_BOOLEAN:
  case HL_T_TINYINT:
    if (n < 1) return BAD(d, "truncated value");
    if (type->id == HL_T_BOOLEAN)
      out->u.b = p[0] != 0;
    else
      out->u.i = (int8_t)p[0];
    *used = 1;
    return true;
  case HL_T_SMALLINT:
    if (n < 2) return BAD(d, "truncated value");
    out->u.i = hl_lazybin_be_int(p, 2);
    *used = 2;
    return true;
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
    if (!(a = hl_seqio_vlong_decode(p, n, &i))) return BAD(d, "bad vint");
    if (type->id != HL_T_BIGINT && (i < INT32_MIN || i > INT32_MAX)) return BAD(d, "bad vint");
    out->u.i = i;
    *used = a;
    return true;
  case HL_T_FLOAT: {
    if (n < 4) return BAD(d, "truncated value");
    uint32_t bits = (uint32_t)hl_lazybin_be_int(p, 4);
    float f;
    memcpy(&f, &bits, 4);
    out->u.d = f;
    *used = 4;
    return true;
  }
  case HL_T_DOUBLE: {
    if (n < 8) return BAD(d, "truncated value");
    uint64_t bits = (uint64_t)hl_lazybin_be_int(p, 8);
    memcpy(&out->u.d, &bits, 8);
    *used = 8;
    return true;
  }
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY:
    return get_string(d, type, p, n, used, out);
  case HL_T_TIMESTAMP:
    if (!hl_lazybin_get_timestamp(p, n, used, &out->u.i)) return BAD(d, "bad timestamp");
    return true;
  case HL_T_DECIMAL: {
    bool ok;
    if (hl_lazybin_get_decimal(d->arena, type, p, n, used, &ok, out, d->err) != HL_OK)
      return BAD(d, NULL);
    return ok ? true : BAD(d, "bad decimal");
  }
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION:
    break;
  default:
    return BAD(d, "unsupported type");
  }
  if (n < 4) return BAD(d, "truncated value");
  int64_t size = hl_lazybin_be_int(p, 4);
  if (size < 0 || (uint64_t)size > n - 4) return BAD(d, "nested value longer than its row");
  *used = 4 + (size_t)size;
  return get_complex(d, type, p + 4, (size_t)size, out, depth);
}

/* An ARRAY, MAP, STRUCT or UNIONTYPE of Q[0..m) without its byte size. */
static bool get_complex(dec_t *d, const hl_type_t *type, const unsigned char *q, size_t m,
                        hl_value_t *out, int depth) {
  size_t k = 0, a;
  memset(out, 0, sizeof *out);
  if (type->id == HL_T_UNION) { /* a tag byte; no bytes after it: a NULL value */
    if (m < 1 || q[0] >= type->n_children) return BAD(d, "bad union tag");
    hl_value_t *item = hl_arena_zalloc(d->arena, sizeof *item);
    if (!item) return hl_err_nomem(d->err), BAD(d, NULL);
    item->is_null = m == 1;
    if (m > 1 && !get_value(d, type->children[q[0]], q + 1, m - 1, &a, item, depth + 1))
      return false;
    out->u.list.n = 1;
    out->u.list.tag = q[0];
    out->u.list.items = item;
    return true;
  }
  if (type->id == HL_T_STRUCT) {
    int nf = type->n_children;
    hl_value_t *items = hl_arena_alloc(d->arena, sizeof *items * (size_t)(nf ? nf : 1));
    if (!items) return hl_err_nomem(d->err), BAD(d, NULL);
    if (!get_struct(d, nf, (const hl_type_t *const *)type->children, NULL, q, m, &k, items, depth))
      return false;
    out->u.list.items = items;
    out->u.list.n = (uint32_t)nf;
    return true;
  }
  bool map = type->id == HL_T_MAP;
  int64_t count;
  if (!(a = hl_seqio_vlong_decode(q, m, &count)) || count < 0) return BAD(d, "bad element count");
  k = a;
  uint64_t items_n = map ? 2 * (uint64_t)count : (uint64_t)count;
  uint64_t null_bytes = (items_n + 7) / 8;
  /* every present item takes a byte at least; absent ones only a bit */
  if (null_bytes > m - k || items_n > (uint64_t)8 * (m - k)) return BAD(d, "bad element count");
  const unsigned char *nulls = q + k;
  k += (size_t)null_bytes;
  hl_value_t *items = hl_arena_alloc(d->arena, sizeof *items * (size_t)(items_n ? items_n : 1));
  if (!items) return hl_err_nomem(d->err), BAD(d, NULL);
  for (uint64_t e = 0; e < items_n; e++) {
    memset(&items[e], 0, sizeof items[e]);
    if (!(nulls[e / 8] & (1u << (e % 8)))) {
      items[e].is_null = true;
      continue;
    }
    size_t u = 0;
    if (!get_value(d, type->children[map ? e % 2 : 0], q + k, m - k, &u, &items[e], depth + 1))
      return false;
    k += u;
  }
  out->u.list.items = items;
  out->u.list.n = (uint32_t)count;
  if (map) { /* LazyBinaryMap: a NULL key's entry is dropped */
    uint32_t w = 0;
    for (uint32_t e = 0; e < (uint32_t)count; e++) {
      if (items[2 * e].is_null) continue;
      items[2 * w] = items[2 * e];
      items[2 * w + 1] = items[2 * e + 1];
      w++;
    }
    out->u.list.n = w;
  }
  return true;
}

hl_status_t hl_lazybin_decode_row(const unsigned char *p, size_t n, int n_cols,
                                  const hl_type_t *const *types, const bool *projected,
                                  hl_value_t *out, hl_arena_t *arena, bool *ok, const char **why,
                                  hl_error_t *err) {
  dec_t d = {arena, err, NULL};
  size_t used = 0;
  *ok = get_struct(&d, n_cols, types, projected, p, n, &used, out, 0);
  *why = d.why;
  if (!*ok && !d.why) return err->code != HL_OK ? err->code : hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_lazybin_decode_cell(const unsigned char *p, size_t n, const hl_type_t *type,
                                   hl_value_t *out, hl_arena_t *arena, bool *ok, const char **why,
                                   hl_error_t *err) {
  dec_t d = {arena, err, NULL};
  *ok = get_complex(&d, type, p, n, out, 0);
  *why = d.why;
  if (!*ok && !d.why) return err->code != HL_OK ? err->code : hl_err_nomem(err);
  return HL_OK;
}
