/*
 * orc_encode.c -- ORC's integer and byte encodings (orc_enc.h): varints,
 * byte RLE, boolean RLE and integer RLE v2, plus the decoders the unit
 * tests use to check round trips.
 *
 * RLE v2 run choice, over a whole stream at once: a run of >= 3 equal
 * values becomes SHORT_REPEAT (3..10 values) or a DELTA run with delta 0
 * (11..512); the values between such runs are cut into groups of at most
 * 512 and each group is written as DELTA when it is monotonic and that is
 * smaller, else DIRECT.  PATCHED_BASE is never written (readers do not
 * need it; it only saves space on outliers).
 *
 * Spec: ORC v1 "Run Length Encoding".
 */
#include "format/orc/orc_enc.h"
#include "util/mem.h"

#include <string.h>

#define RLE2_MAX 512 /* values in one run */

/* ------------------------------------------------------------ varints */

void hl_orc_put_uvarint(hl_buf_t *buf, uint64_t v) {
  uint8_t tmp[10];
  size_t n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    tmp[n++] = v ? (uint8_t)(b | 0x80) : b;
  } while (v);
  hl_buf_append(buf, tmp, n);
}

static uint64_t zigzag(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t u) {
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

void hl_orc_put_svarint(hl_buf_t *buf, int64_t v) {
  hl_orc_put_uvarint(buf, zigzag(v));
}

void hl_orc_put_varint128(hl_buf_t *buf, __int128 v) {
  unsigned __int128 u = ((unsigned __int128)v << 1) ^ (unsigned __int128)(v >> 127);
  uint8_t tmp[20];
  size_t n = 0;
  do {
    uint8_t b = (uint8_t)(u & 0x7f);
    u >>= 7;
    tmp[n++] = u ? (uint8_t)(b | 0x80) : b;
  } while (u);
  hl_buf_append(buf, tmp, n);
}

int64_t hl_orc_encode_nanos(int64_t nanos) {
  if (nanos == 0) return 0;
  if (nanos % 100 != 0) return nanos << 3;
  nanos /= 100;
  int zeros = 1; /* the tag is the number of zeros removed, minus one */
  while (nanos % 10 == 0 && zeros < 7) {
    nanos /= 10;
    zeros++;
  }
  return nanos << 3 | zeros;
}

/* ------------------------------------------------------------ row-index marks */

/* A run of K values starting at value VS was written at byte OFF: the
 * marks that fall in it point there. */
static void mark_run(hl_orc_marks_t *m, size_t *mi, uint64_t vs, uint64_t k, uint64_t off) {
  if (!m) return;
  while (*mi < m->n && m->at[*mi] < vs + k) {
    m->offset[*mi] = off;
    m->skip[*mi] = m->at[*mi] - vs;
    (*mi)++;
  }
}

/* Marks at or past the end of the stream point at its end. */
static void mark_end(hl_orc_marks_t *m, size_t *mi, uint64_t off) {
  for (; m && *mi < m->n; (*mi)++) {
    m->offset[*mi] = off;
    m->skip[*mi] = 0;
  }
}

/* ------------------------------------------------------------ byte RLE */

static void put_literals(hl_buf_t *buf, size_t base, const uint8_t *p, size_t n, uint64_t vs,
                         hl_orc_marks_t *m, size_t *mi) {
  while (n > 0) {
    size_t k = n > 128 ? 128 : n;
    mark_run(m, mi, vs, k, buf->len - base);
    vs += k;
    uint8_t h = (uint8_t)(256 - k); /* -k as a byte */
    hl_buf_append(buf, &h, 1);
    hl_buf_append(buf, p, k);
    p += k;
    n -= k;
  }
}

void hl_orc_put_byte_rle(hl_buf_t *buf, const uint8_t *bytes, size_t n, hl_orc_marks_t *marks) {
  size_t lit = 0, i = 0, base = buf->len, mi = 0;
  while (i < n) {
    size_t r = 1;
    while (i + r < n && r < 130 && bytes[i + r] == bytes[i])
      r++;
    if (r >= 3) {
      put_literals(buf, base, bytes + lit, i - lit, lit, marks, &mi);
      mark_run(marks, &mi, i, r, buf->len - base);
      uint8_t run[2] = {(uint8_t)(r - 3), bytes[i]};
      hl_buf_append(buf, run, 2);
      i += r;
      lit = i;
    } else {
      i += r;
    }
  }
  put_literals(buf, base, bytes + lit, n - lit, lit, marks, &mi);
  mark_end(marks, &mi, buf->len - base);
}

void hl_orc_put_bool_rle(hl_buf_t *buf, const uint8_t *flags, size_t n, hl_orc_marks_t *marks) {
  size_t nbytes = (n + 7) / 8;
  uint8_t stack[512];
  uint8_t *packed = nbytes <= sizeof stack ? stack : hl_malloc(nbytes);
  if (!packed) {
    buf->oom = 1;
    return;
  }
  memset(packed, 0, nbytes);
  for (size_t i = 0; i < n; i++)
    if (flags[i]) packed[i >> 3] |= (uint8_t)(0x80 >> (i & 7));
  /* a mark is the byte holding the flag, then the bit within it */
  uint64_t stack_at[64];
  uint64_t *at = NULL;
  hl_orc_marks_t bm = {0};
  if (marks && marks->n) {
    at = marks->n <= 64 ? stack_at : hl_malloc(marks->n * sizeof *at);
    if (!at) {
      buf->oom = 1;
      if (packed != stack) hl_free(packed);
      return;
    }
    for (size_t i = 0; i < marks->n; i++) {
      at[i] = marks->at[i] >> 3;
      marks->bits[i] = marks->at[i] & 7;
    }
    bm = (hl_orc_marks_t){at, marks->n, marks->offset, marks->skip, NULL};
  }
  hl_orc_put_byte_rle(buf, packed, nbytes, at ? &bm : NULL);
  if (at != stack_at) hl_free(at);
  if (packed != stack) hl_free(packed);
}

/* ------------------------------------------------------------ RLE v2 */

/* Bits needed for U, at least 1. */
static int bits_of(uint64_t u) {
  return u ? 64 - __builtin_clzll(u) : 1;
}

/* The smallest width DIRECT and DELTA can encode that holds BITS. */
static int fixed_width(int bits) {
  static const int big[] = {26, 28, 30, 32, 40, 48, 56, 64};
  if (bits <= 24) return bits;
  for (int i = 0; i < 8; i++)
    if (bits <= big[i]) return big[i];
  return 64;
}

/* The 5-bit code of a width returned by fixed_width. */
static int width_code(int w) {
  if (w <= 24) return w - 1;
  switch (w) {
  case 26:
    return 24;
  case 28:
    return 25;
  case 30:
    return 26;
  case 32:
    return 27;
  case 40:
    return 28;
  case 48:
    return 29;
  case 56:
    return 30;
  default:
    return 31;
  }
}

static int code_width(int code) {
  static const int big[] = {26, 28, 30, 32, 40, 48, 56, 64};
  return code <= 23 ? code + 1 : big[code - 24];
}

/* Appends N values of W bits each, most significant bit first, padding
 * the last byte with zeros. */
static void put_bits(hl_buf_t *buf, const uint64_t *vals, size_t n, int w) {
  uint64_t acc = 0; /* pending bits, right-aligned */
  int n_acc = 0;
  uint8_t out[64];
  size_t n_out = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t v = vals[i];
    int left = w;
    while (left > 0) {
      int take = left < 8 - n_acc ? left : 8 - n_acc;
      uint64_t part = (v >> (left - take)) & ((1u << take) - 1);
      acc = (acc << take) | part;
      n_acc += take;
      left -= take;
      if (n_acc == 8) {
        out[n_out++] = (uint8_t)acc;
        acc = 0;
        n_acc = 0;
        if (n_out == sizeof out) {
          hl_buf_append(buf, out, n_out);
          n_out = 0;
        }
      }
    }
  }
  if (n_acc > 0) out[n_out++] = (uint8_t)(acc << (8 - n_acc));
  hl_buf_append(buf, out, n_out);
}

static uint64_t enc(int64_t v, bool is_signed) {
  return is_signed ? zigzag(v) : (uint64_t)v;
}

static void short_repeat(hl_buf_t *buf, int64_t v, size_t count, bool is_signed) {
  uint64_t u = enc(v, is_signed);
  int nbytes = (bits_of(u) + 7) / 8;
  uint8_t out[9];
  out[0] = (uint8_t)(((nbytes - 1) << 3) | (int)(count - 3));
  for (int i = 0; i < nbytes; i++)
    out[1 + i] = (uint8_t)(u >> (8 * (nbytes - 1 - i)));
  hl_buf_append(buf, out, (size_t)nbytes + 1);
}

static void run_header(hl_buf_t *buf, int kind, int code, size_t n) {
  uint8_t h[2] = {(uint8_t)((kind << 6) | (code << 1) | (int)((n - 1) >> 8)),
                  (uint8_t)((n - 1) & 0xff)};
  hl_buf_append(buf, h, 2);
}

static void put_base(hl_buf_t *buf, int64_t v, bool is_signed) {
  if (is_signed)
    hl_orc_put_svarint(buf, v);
  else
    hl_orc_put_uvarint(buf, (uint64_t)v);
}

static size_t uvarint_len(uint64_t u) {
  return (size_t)(bits_of(u) + 6) / 7;
}

/* A DELTA run of N (>= 2) values starting at V whose deltas all have the
 * sign of the first (or are all equal); false when the values are not
 * like that or a delta overflows.  *cost gets its size in bytes, *w the
 * width of the packed deltas (0: fixed delta). */
static bool delta_plan(const int64_t *v, size_t n, bool is_signed, size_t *cost, int *w) {
  int64_t first;
  if (__builtin_sub_overflow(v[1], v[0], &first)) return false;
  bool fixed = true;
  uint64_t max_abs = 0;
  for (size_t i = 2; i < n; i++) {
    int64_t d;
    if (__builtin_sub_overflow(v[i], v[i - 1], &d)) return false;
    if (d != first) fixed = false;
    if ((first > 0 && d < 0) || (first < 0 && d > 0) || (first == 0 && d != 0)) {
      if (!fixed) return false;
    }
    uint64_t a = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
    if (a > max_abs) max_abs = a;
  }
  if (fixed) {
    *w = 0;
  } else {
    int b = bits_of(max_abs);
    *w = fixed_width(b < 2 ? 2 : b); /* width code 0 means "fixed", so 1 bit is written as 2 */
  }
  *cost = 2 + uvarint_len(enc(v[0], is_signed)) + uvarint_len(zigzag(first)) +
          (*w ? ((n - 2) * (size_t)*w + 7) / 8 : 0);
  return true;
}

static void delta_run(hl_buf_t *buf, const int64_t *v, size_t n, bool is_signed, int w) {
  run_header(buf, 3, w ? width_code(w) : 0, n);
  put_base(buf, v[0], is_signed);
  hl_orc_put_svarint(buf, v[1] - v[0]);
  if (!w) return;
  uint64_t abs_d[RLE2_MAX];
  for (size_t i = 2; i < n; i++) {
    int64_t d = v[i] - v[i - 1];
    abs_d[i - 2] = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
  }
  put_bits(buf, abs_d, n - 2, w);
}

/* N (1..512) values with no run of 3 equal values worth cutting out. */
static void literal_group(hl_buf_t *buf, const int64_t *v, size_t n, bool is_signed) {
  uint64_t u[RLE2_MAX];
  uint64_t all = 0;
  for (size_t i = 0; i < n; i++) {
    u[i] = enc(v[i], is_signed);
    all |= u[i];
  }
  int w = fixed_width(bits_of(all));
  size_t direct_cost = 2 + (n * (size_t)w + 7) / 8;
  size_t delta_cost;
  int dw;
  if (n >= 2 && (is_signed || v[0] >= 0) && delta_plan(v, n, is_signed, &delta_cost, &dw) &&
      delta_cost < direct_cost) {
    delta_run(buf, v, n, is_signed, dw);
    return;
  }
  run_header(buf, 1, width_code(w), n);
  put_bits(buf, u, n, w);
}

/* Values VALS[from, from + n) as literal groups. */
static void flush_literals(hl_buf_t *buf, size_t base, const int64_t *vals, size_t from, size_t n,
                           bool is_signed, hl_orc_marks_t *m, size_t *mi) {
  while (n > 0) {
    size_t k = n > RLE2_MAX ? RLE2_MAX : n;
    mark_run(m, mi, from, k, buf->len - base);
    literal_group(buf, vals + from, k, is_signed);
    from += k;
    n -= k;
  }
}

void hl_orc_put_rle2(hl_buf_t *buf, const int64_t *vals, size_t n, bool is_signed,
                     hl_orc_marks_t *marks) {
  size_t lit = 0, i = 0, base = buf->len, mi = 0;
  while (i < n) {
    size_t r = 1;
    while (i + r < n && r < RLE2_MAX && vals[i + r] == vals[i])
      r++;
    if (r < 3) {
      i += r;
      continue;
    }
    flush_literals(buf, base, vals, lit, i - lit, is_signed, marks, &mi);
    mark_run(marks, &mi, i, r, buf->len - base);
    if (r <= 10) {
      short_repeat(buf, vals[i], r, is_signed);
    } else {
      run_header(buf, 3, 0, r);
      put_base(buf, vals[i], is_signed);
      hl_orc_put_svarint(buf, 0);
    }
    i += r;
    lit = i;
  }
  flush_literals(buf, base, vals, lit, n - lit, is_signed, marks, &mi);
  mark_end(marks, &mi, buf->len - base);
}

/* ------------------------------------------------------------ decoders (tests) */

long hl_orc_byte_unrle(const uint8_t *p, size_t len, uint8_t *out, size_t cap) {
  size_t pos = 0, n = 0;
  while (pos < len) {
    uint8_t h = p[pos++];
    if (h < 0x80) {
      size_t r = (size_t)h + 3;
      if (pos >= len || n + r > cap) return -1;
      memset(out + n, p[pos++], r);
      n += r;
    } else {
      size_t k = 256 - (size_t)h;
      if (pos + k > len || n + k > cap) return -1;
      memcpy(out + n, p + pos, k);
      pos += k;
      n += k;
    }
  }
  return (long)n;
}

typedef struct rd {
  const uint8_t *p;
  size_t len, pos;
  int bit; /* bits already used of p[pos] */
} rd_t;

static bool rd_uvarint(rd_t *r, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (r->pos >= r->len) return false;
    uint8_t b = r->p[r->pos++];
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

static bool rd_bits(rd_t *r, int w, uint64_t *out) {
  uint64_t v = 0;
  while (w > 0) {
    if (r->pos >= r->len) return false;
    int avail = 8 - r->bit;
    int take = w < avail ? w : avail;
    uint8_t b = (uint8_t)(r->p[r->pos] >> (avail - take)) & (uint8_t)((1u << take) - 1);
    v = (v << take) | b;
    r->bit += take;
    w -= take;
    if (r->bit == 8) {
      r->bit = 0;
      r->pos++;
    }
  }
  *out = v;
  return true;
}

static void rd_align(rd_t *r) {
  if (r->bit) {
    r->bit = 0;
    r->pos++;
  }
}

static int64_t dec(uint64_t u, bool is_signed) {
  return is_signed ? unzigzag(u) : (int64_t)u;
}

long hl_orc_unrle2(const uint8_t *p, size_t len, bool is_signed, int64_t *out, size_t cap) {
  rd_t r = {p, len, 0, 0};
  size_t n = 0;
  while (r.pos < len) {
    uint8_t h = p[r.pos++];
    int kind = h >> 6;
    if (kind == 0) { /* SHORT_REPEAT */
      int nbytes = ((h >> 3) & 7) + 1;
      size_t count = (size_t)(h & 7) + 3;
      uint64_t u = 0;
      if (r.pos + (size_t)nbytes > len || n + count > cap) return -1;
      for (int i = 0; i < nbytes; i++)
        u = (u << 8) | p[r.pos++];
      for (size_t i = 0; i < count; i++)
        out[n++] = dec(u, is_signed);
      continue;
    }
    if (kind == 2 || r.pos >= len) return -1; /* PATCHED_BASE: never written */
    int code = (h >> 1) & 31;
    size_t count = ((size_t)(h & 1) << 8 | p[r.pos++]) + 1;
    if (n + count > cap) return -1;
    if (kind == 1) { /* DIRECT */
      int w = code_width(code);
      for (size_t i = 0; i < count; i++) {
        uint64_t u;
        if (!rd_bits(&r, w, &u)) return -1;
        out[n++] = dec(u, is_signed);
      }
      rd_align(&r);
      continue;
    }
    uint64_t base, d0; /* DELTA */
    if (!rd_uvarint(&r, &base) || !rd_uvarint(&r, &d0)) return -1;
    int64_t v = dec(base, is_signed), first = unzigzag(d0);
    out[n++] = v;
    if (count == 1) continue;
    v = (int64_t)((uint64_t)v + (uint64_t)first);
    out[n++] = v;
    int w = code ? code_width(code) : 0;
    for (size_t i = 2; i < count; i++) {
      uint64_t a = 0;
      if (w && !rd_bits(&r, w, &a)) return -1;
      if (!w) a = (uint64_t)(first < 0 ? -first : first);
      v = (int64_t)(first < 0 ? (uint64_t)v - a : (uint64_t)v + a);
      out[n++] = v;
    }
    rd_align(&r);
  }
  return (long)n;
}
