/*
 * orc_rle.c -- ORC run-length encodings: byte RLE, boolean RLE, integer
 * RLE version 1 and version 2 (SHORT_REPEAT, DIRECT, PATCHED_BASE, DELTA),
 * and base-128 varints.
 *
 * Each decoder expands one run into a small buffer and hands values out of
 * it; a run never holds more than 512 values (v2) or 130 (v1, bytes), so
 * nothing is allocated.  Arithmetic on decoded values wraps (done in
 * uint64_t) as the Java reader's longs do.  Spec: ORCv1 "Run Length
 * Encoding".
 */
#include "format/orc/orc_int.h"

#include <string.h>

hl_status_t hl_orc_varint(hl_orc_stream_t *s, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b;
    if (!hl_orc_byte(s, &b)) return s->err->code;
    if (shift == 63 && (b & 0x7e)) break;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return HL_OK;
    }
  }
  return hl_orc_corrupt(s->err, "bad varint in %s", s->name);
}

static int64_t unzigzag(uint64_t v) {
  return (int64_t)((v >> 1) ^ (~(v & 1) + 1));
}

/* ------------------------------------------------------------ bytes */

void hl_orc_byte_rle_init(hl_orc_byte_rle_t *d, hl_orc_stream_t *s) {
  memset(d, 0, sizeof *d);
  d->s = s;
}

static hl_status_t byte_run(hl_orc_byte_rle_t *d) {
  uint8_t c;
  if (!hl_orc_byte(d->s, &c)) return d->s->err->code;
  d->pos = 0;
  if (c < 128) {
    d->repeat = true;
    d->n = c + 3;
    if (!hl_orc_byte(d->s, &d->run[0])) return d->s->err->code;
    return HL_OK;
  }
  d->repeat = false;
  d->n = 256 - c;
  return hl_orc_read_bytes(d->s, d->run, (size_t)d->n);
}

hl_status_t hl_orc_byte_rle_next(hl_orc_byte_rle_t *d, uint8_t *out, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (d->pos >= d->n) {
      hl_status_t st = byte_run(d);
      if (st != HL_OK) return st;
    }
    size_t take = (size_t)(d->n - d->pos);
    if (take > n - i) take = n - i;
    if (d->repeat)
      memset(out + i, d->run[0], take);
    else
      memcpy(out + i, d->run + d->pos, take);
    d->pos += (int)take;
    i += take;
  }
  return HL_OK;
}

/* --------------------------------------------------------- booleans */

void hl_orc_bool_rle_init(hl_orc_bool_rle_t *d, hl_orc_stream_t *s) {
  memset(d, 0, sizeof *d);
  hl_orc_byte_rle_init(&d->bytes, s);
}

hl_status_t hl_orc_bool_rle_next(hl_orc_bool_rle_t *d, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (d->bits_left == 0) {
      hl_status_t st = hl_orc_byte_rle_next(&d->bytes, &d->cur, 1);
      if (st != HL_OK) return st;
      d->bits_left = 8;
    }
    d->bits_left--;
    out[i] = (d->cur >> d->bits_left) & 1;
  }
  return HL_OK;
}

/* --------------------------------------------------------- integers */

void hl_orc_int_rle_init(hl_orc_int_rle_t *d, hl_orc_stream_t *s, bool v2, bool is_signed) {
  d->s = s;
  d->v2 = v2;
  d->is_signed = is_signed;
  d->n = d->pos = 0;
}

static hl_status_t read_int(hl_orc_int_rle_t *d, int64_t *out) {
  uint64_t u;
  hl_status_t st = hl_orc_varint(d->s, &u);
  if (st != HL_OK) return st;
  *out = d->is_signed ? unzigzag(u) : (int64_t)u;
  return HL_OK;
}

static hl_status_t v1_run(hl_orc_int_rle_t *d) {
  uint8_t c;
  if (!hl_orc_byte(d->s, &c)) return d->s->err->code;
  d->pos = 0;
  if (c < 128) {
    uint8_t delta_byte;
    int64_t base;
    if (!hl_orc_byte(d->s, &delta_byte)) return d->s->err->code;
    hl_status_t st = read_int(d, &base);
    if (st != HL_OK) return st;
    int64_t delta = (int8_t)delta_byte;
    d->n = c + 3;
    for (int i = 0; i < d->n; i++)
      d->vals[i] = (int64_t)((uint64_t)base + (uint64_t)delta * (uint64_t)i);
    return HL_OK;
  }
  d->n = 256 - c;
  for (int i = 0; i < d->n; i++) {
    hl_status_t st = read_int(d, &d->vals[i]);
    if (st != HL_OK) return st;
  }
  return HL_OK;
}

/* Bit widths of the 5-bit width codes (FixedBitSizes). */
static int decode_width(int code) {
  static const int w[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                            17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64};
  return w[code & 31];
}

/* The smallest of those widths >= BITS (patch entries use it). */
static int closest_width(int bits) {
  for (int code = 0; code < 32; code++)
    if (decode_width(code) >= bits) return decode_width(code);
  return 64;
}

/* Reads N values of WIDTH bits, big-endian bit order, into OUT as
 * unsigned; the run ends on a byte boundary. */
static hl_status_t unpack(hl_orc_stream_t *s, int width, int n, uint64_t *out) {
  uint8_t cur = 0;
  int left = 0;
  for (int i = 0; i < n; i++) {
    uint64_t v = 0;
    int need = width;
    while (need > 0) {
      if (left == 0) {
        if (!hl_orc_byte(s, &cur)) return s->err->code;
        left = 8;
      }
      int take = need < left ? need : left;
      v = (v << take) | ((uint64_t)(cur >> (left - take)) & ((1u << take) - 1));
      left -= take;
      need -= take;
    }
    out[i] = v;
  }
  return HL_OK;
}

static hl_status_t v2_run(hl_orc_int_rle_t *d) {
  hl_orc_stream_t *s = d->s;
  uint8_t b0, b1;
  if (!hl_orc_byte(s, &b0)) return s->err->code;
  int kind = b0 >> 6;
  d->pos = 0;
  uint64_t u[512];
  hl_status_t st;
  if (kind == 0) { /* SHORT_REPEAT */
    int nbytes = ((b0 >> 3) & 7) + 1;
    uint64_t v = 0;
    for (int i = 0; i < nbytes; i++) {
      uint8_t b;
      if (!hl_orc_byte(s, &b)) return s->err->code;
      v = v << 8 | b;
    }
    int64_t x = d->is_signed ? unzigzag(v) : (int64_t)v;
    d->n = (b0 & 7) + 3;
    for (int i = 0; i < d->n; i++)
      d->vals[i] = x;
    return HL_OK;
  }
  if (!hl_orc_byte(s, &b1)) return s->err->code;
  int len = (((int)b0 & 1) << 8 | b1) + 1;
  int code = (b0 >> 1) & 31;
  if (kind == 1) { /* DIRECT */
    if ((st = unpack(s, decode_width(code), len, u)) != HL_OK) return st;
    for (int i = 0; i < len; i++)
      d->vals[i] = d->is_signed ? unzigzag(u[i]) : (int64_t)u[i];
    d->n = len;
    return HL_OK;
  }
  if (kind == 3) { /* DELTA */
    int64_t base, delta;
    if ((st = read_int(d, &base)) != HL_OK) return st;
    uint64_t zz;
    if ((st = hl_orc_varint(s, &zz)) != HL_OK) return st;
    delta = unzigzag(zz);
    d->vals[0] = base;
    if (code == 0) { /* fixed delta */
      for (int i = 1; i < len; i++)
        d->vals[i] = (int64_t)((uint64_t)d->vals[i - 1] + (uint64_t)delta);
    } else {
      if (len < 2) return hl_orc_corrupt(s->err, "bad delta run in %s", s->name);
      d->vals[1] = (int64_t)((uint64_t)base + (uint64_t)delta);
      if ((st = unpack(s, decode_width(code), len - 2, u)) != HL_OK) return st;
      for (int i = 2; i < len; i++)
        d->vals[i] = delta < 0 ? (int64_t)((uint64_t)d->vals[i - 1] - u[i - 2])
                               : (int64_t)((uint64_t)d->vals[i - 1] + u[i - 2]);
    }
    d->n = len;
    return HL_OK;
  }
  /* PATCHED_BASE */
  uint8_t b2, b3;
  if (!hl_orc_byte(s, &b2) || !hl_orc_byte(s, &b3)) return s->err->code;
  int width = decode_width(code);
  int base_bytes = (b2 >> 5) + 1;
  int patch_width = decode_width(b2 & 31);
  int gap_width = (b3 >> 5) + 1;
  int n_patches = b3 & 31;
  uint64_t ubase = 0;
  for (int i = 0; i < base_bytes; i++) {
    uint8_t b;
    if (!hl_orc_byte(s, &b)) return s->err->code;
    ubase = ubase << 8 | b;
  }
  /* sign-magnitude: the top bit of the base's bytes is its sign */
  uint64_t sign_bit = (uint64_t)1 << (base_bytes * 8 - 1);
  int64_t base = (ubase & sign_bit) ? -(int64_t)(ubase & ~sign_bit) : (int64_t)ubase;
  if ((st = unpack(s, width, len, u)) != HL_OK) return st;
  if (patch_width + gap_width > 64 || width + patch_width > 64)
    return hl_orc_corrupt(s->err, "bad patched run in %s", s->name);
  uint64_t patches[32];
  if ((st = unpack(s, closest_width(patch_width + gap_width), n_patches, patches)) != HL_OK)
    return st;
  uint64_t patch_mask = patch_width == 64 ? ~(uint64_t)0 : (((uint64_t)1 << patch_width) - 1);
  int64_t at = 0;
  for (int p = 0; p < n_patches; p++) {
    uint64_t gap = patch_width == 64 ? 0 : patches[p] >> patch_width;
    uint64_t patch = patches[p] & patch_mask;
    at += (int64_t)gap;
    if (gap == 255 && patch == 0) continue; /* a gap longer than 255 */
    if (at >= len) return hl_orc_corrupt(s->err, "bad patch position in %s", s->name);
    u[at] |= patch << width;
  }
  for (int i = 0; i < len; i++)
    d->vals[i] = (int64_t)((uint64_t)base + u[i]);
  d->n = len;
  return HL_OK;
}

hl_status_t hl_orc_int_rle_next(hl_orc_int_rle_t *d, int64_t *out, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (d->pos >= d->n) {
      hl_status_t st = d->v2 ? v2_run(d) : v1_run(d);
      if (st != HL_OK) return st;
    }
    size_t take = (size_t)(d->n - d->pos);
    if (take > n - i) take = n - i;
    memcpy(out + i, d->vals + d->pos, take * sizeof(int64_t));
    d->pos += (int)take;
    i += take;
  }
  return HL_OK;
}
