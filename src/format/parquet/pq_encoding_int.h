/*
 * pq_encoding_int.h -- helpers shared by the encoding files (pq_encoding.c,
 * pq_rle.c, pq_delta.c): little-endian loads, ULEB128 and zigzag.
 *
 * Private to src/format/parquet/; everything here is static inline.
 */
#ifndef HL_PQ_ENCODING_INT_H
#define HL_PQ_ENCODING_INT_H

#include "format/parquet/pq_encoding.h"

#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the Parquet encodings assume a little-endian host"
#endif

static inline uint32_t pq_load_u32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static inline uint64_t pq_load_u64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Reads an unsigned LEB128 of at most 10 bytes (64 bits) at *POS, before
 * END.  Returns 0 and advances *POS, or -1 when truncated or too long. */
static inline int pq_read_uleb(const uint8_t **pos, const uint8_t *end, uint64_t *out) {
  const uint8_t *p = *pos;
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (p >= end) return -1;
    uint8_t b = *p++;
    if (shift == 63 && (b & 0x7e)) return -1; /* bits past 64 */
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *pos = p;
      *out = v;
      return 0;
    }
  }
  return -1;
}

static inline void pq_put_uleb(hl_buf_t *buf, uint64_t v) {
  uint8_t tmp[10];
  size_t n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
  } while (v);
  hl_buf_append(buf, tmp, n);
}

static inline uint64_t pq_zigzag_decode(uint64_t v) {
  return (v >> 1) ^ (0 - (v & 1));
}

static inline uint64_t pq_zigzag_encode(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* Appends the low BIT_WIDTH bits of each of the 8 VALUES, LSB first
 * (the hybrid's and DELTA_BINARY_PACKED's packing order): BIT_WIDTH bytes. */
static inline void pq_pack8(hl_buf_t *buf, const uint64_t *values, int bit_width) {
  uint8_t out[64] = {0};
  for (int i = 0; i < 8; i++) {
    uint64_t v = bit_width == 64 ? values[i] : values[i] & (((uint64_t)1 << bit_width) - 1);
    int pos = i * bit_width, rem = bit_width;
    while (rem > 0) {
      int off = pos & 7, take = 8 - off < rem ? 8 - off : rem;
      out[pos >> 3] |= (uint8_t)((v & ((1u << take) - 1)) << off);
      v >>= take;
      pos += take;
      rem -= take;
    }
  }
  hl_buf_append(buf, out, (size_t)bit_width);
}

static inline hl_status_t pq_buf_status(const hl_buf_t *buf, hl_error_t *err) {
  return buf->oom ? hl_err_nomem(err) : HL_OK;
}

#endif
