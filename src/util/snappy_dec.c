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

/* Copies LEN bytes from OFF bytes back (OFF >= 1, already checked against
 * the output written); WIDE: the output has 64 bytes of room past OP, so
 * moves may be rounded up. */
static inline void copy_back(uint8_t *op, size_t len, size_t off, bool wide) {
  const uint8_t *from = op - off;
  if (off >= 8 && off < 16 && len <= 15) {
    /* a short copy from close behind (a column of similar 8-byte values:
     * one literal byte, then 7 bytes from 8 back, over and over) reads what
     * the last few elements just wrote: exact-size moves let its loads take
     * their bytes straight from the store buffer, where a wide move
     * spanning several earlier stores stalls on store forwarding (1.5x
     * slower on such a column) */
    size_t i = 0;
    if (len & 8) memcpy(op, from, 8), i = 8;
    if (len & 4) memcpy(op + i, from + i, 4), i += 4;
    if (len & 2) memcpy(op + i, from + i, 2), i += 2;
    if (len & 1) op[i] = from[i];
  } else if (wide && off >= 16) { /* each move reads bytes already written */
    for (size_t i = 0; i < len; i += 16)
      memcpy(op + i, from + i, 16);
  } else if (wide && off >= 8) {
    for (size_t i = 0; i < len; i += 8)
      memcpy(op + i, from + i, 8);
  } else {
    for (size_t i = 0; i < len; i++) /* a repeated pattern of OFF bytes */
      op[i] = from[i];
  }
}

bool hl_snappy_uncompress(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len) {
  const uint8_t *ip = src, *ie = src + n;
  uint32_t declared;
  if (!read_varint32(&ip, ie, &declared) || declared != dst_len) return false;
  uint8_t *op = dst, *const oe = dst + dst_len;
  while (ip < ie) {
    /* while every element fits the margins -- 65 input bytes (a tag and a
     * literal of up to 60 rounded to 16s, or a 4-byte offset), 64 output
     * bytes (the longest copy or literal, rounded) -- elements move in
     * whole words without per-element bounds checks */
    while (ie - ip >= 65 && oe - op >= 64) {
      uint8_t tag = *ip;
      size_t len, off;
      if ((tag & 3) == 0) {
        len = (size_t)(tag >> 2) + 1;
        if (len > 60) break;
        memcpy(op, ip + 1, 16);
        for (size_t i = 16; i < len; i += 16)
          memcpy(op + i, ip + 1 + i, 16);
        op += len;
        ip += len + 1;
        continue;
      }
      if ((tag & 3) == 1) {
        len = 4 + ((tag >> 2) & 7);
        off = ((size_t)(tag >> 5) << 8) | ip[1];
        ip += 2;
      } else if ((tag & 3) == 2) {
        len = 1 + (size_t)(tag >> 2);
        off = load_le(ip + 1, 2);
        ip += 3;
      } else {
        len = 1 + (size_t)(tag >> 2);
        off = load_le(ip + 1, 4);
        ip += 5;
      }
      if (off - 1 >= (size_t)(op - dst)) return false; /* 0, or before the output */
      copy_back(op, len, off, true);
      op += len;
    }
    if (ip == ie) break;
    /* one element, every bound checked */
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
      if (len > (size_t)(ie - ip) || len > (size_t)(oe - op)) return false;
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
    if (off - 1 >= (size_t)(op - dst) || len > (size_t)(oe - op)) return false;
    copy_back(op, len, off, (size_t)(oe - op) >= 64);
    op += len;
  }
  return op == oe;
}
