/*
 * snappy_dec.c -- the Snappy block decompressor (see snappy_dec.h).
 *
 * Format (google/snappy format_description.txt): a varint length, then
 * elements whose tag byte's low two bits give the kind -- 00 a literal
 * (length - 1 in the upper six bits, or in 1-4 following bytes when those
 * bits are 60-63), 01 a copy of 4-11 bytes at an 11-bit offset, 10 and 11
 * copies of 1-64 bytes at a 16- or 32-bit offset.  A copy may overlap its
 * own output (offset < length), repeating a pattern.
 */
#include "util/snappy_dec.h"

#include <string.h>

static bool read_varint32(const uint8_t **ip, const uint8_t *ie, uint32_t *out) {
  uint32_t v = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    if (*ip == ie) return false;
    uint8_t b = *(*ip)++;
    if (shift == 28 && b > 0x0f) return false; /* more than 32 bits */
    v |= (uint32_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

bool hl_snappy_length(const uint8_t *src, size_t n, size_t *len) {
  uint32_t v;
  if (!read_varint32(&src, src + n, &v)) return false;
  *len = v;
  return true;
}

static uint32_t load_le(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++)
    v |= (uint32_t)p[i] << (8 * i);
  return v;
}

bool hl_snappy_uncompress(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len) {
  const uint8_t *ip = src, *ie = src + n;
  uint32_t declared;
  if (!read_varint32(&ip, ie, &declared) || declared != dst_len) return false;
  uint8_t *op = dst, *const oe = dst + dst_len;
  while (ip < ie) {
    uint8_t tag = *ip++;
    size_t len, off;
    if ((tag & 3) == 0) { /* literal */
      len = (size_t)(tag >> 2) + 1;
      if (len > 60) {
        size_t nb = len - 60;
        if ((size_t)(ie - ip) < nb) return false;
        /* 32-bit arithmetic, as libsnappy: 0xffffffff + 1 is a literal of 0 */
        len = (uint32_t)(load_le(ip, nb) + 1);
        ip += nb;
      }
      size_t in_left = (size_t)(ie - ip), out_left = (size_t)(oe - op);
      if (len > in_left || len > out_left) return false;
      if (len <= 16 && in_left >= 16 && out_left >= 16)
        memcpy(op, ip, 16);
      else
        memcpy(op, ip, len);
      op += len;
      ip += len;
      continue;
    }
    switch (tag & 3) {
    case 1:
      if (ip == ie) return false;
      len = 4 + ((tag >> 2) & 7);
      off = ((size_t)(tag >> 5) << 8) | *ip++;
      break;
    case 2:
      if (ie - ip < 2) return false;
      len = 1 + (size_t)(tag >> 2);
      off = load_le(ip, 2);
      ip += 2;
      break;
    default:
      if (ie - ip < 4) return false;
      len = 1 + (size_t)(tag >> 2);
      off = load_le(ip, 4);
      ip += 4;
      break;
    }
    size_t out_left = (size_t)(oe - op);
    if (off == 0 || off > (size_t)(op - dst) || len > out_left) return false;
    const uint8_t *from = op - off;
    size_t rounded = (len + 15) & ~(size_t)15;
    if (off >= 16 && rounded <= out_left) {
      /* each 16-byte move reads bytes already written: no overlap */
      for (size_t i = 0; i < len; i += 16)
        memcpy(op + i, from + i, 16);
    } else if (off >= 8 && ((len + 7) & ~(size_t)7) <= out_left) {
      for (size_t i = 0; i < len; i += 8)
        memcpy(op + i, from + i, 8);
    } else {
      for (size_t i = 0; i < len; i++) /* a repeated pattern of OFF bytes */
        op[i] = from[i];
    }
    op += len;
  }
  return op == oe;
}
