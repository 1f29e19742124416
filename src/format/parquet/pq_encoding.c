/*
 * pq_encoding.c -- PLAIN and BYTE_STREAM_SPLIT decoders and encoders, INT96
 * timestamp conversion.
 *
 * The other encodings live in pq_rle.c (RLE/bit-packing hybrid, BIT_PACKED,
 * dictionary) and pq_delta.c (DELTA_*); all are declared in pq_encoding.h.
 * Spec: apache/parquet-format Encodings.md ("Plain", "Byte Stream Split").
 * Every decoder checks the bytes it needs against the input length with
 * overflow-checked arithmetic before reading.
 */
#include "format/parquet/pq_encoding_int.h"

/* Julian day number of 1970-01-01 (the Unix epoch). */
#define JULIAN_EPOCH_DAY 2440588
#define MICROS_PER_DAY   INT64_C(86400000000)

/* ------------------------------------------------------------------ PLAIN decoders */

hl_status_t hl_pq_plain_decode_bool(const uint8_t *data, size_t len, size_t first, size_t n,
                                    uint8_t *out, hl_error_t *err) {
  size_t bits;
  if (__builtin_add_overflow(first, n, &bits) || bits / 8 + (bits % 8 != 0) > len)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "PLAIN BOOLEAN data truncated: %zu values do not fit %zu bytes", first + n,
                      len);
  size_t i = 0, bit = first;
  /* Leading values up to a byte boundary, then whole bytes. */
  for (; i < n && (bit & 7); i++, bit++)
    out[i] = (data[bit >> 3] >> (bit & 7)) & 1;
  for (; i + 8 <= n; i += 8, bit += 8) {
    uint8_t b = data[bit >> 3];
    for (int j = 0; j < 8; j++)
      out[i + j] = (b >> j) & 1;
  }
  for (; i < n; i++, bit++)
    out[i] = (data[bit >> 3] >> (bit & 7)) & 1;
  return HL_OK;
}

hl_status_t hl_pq_plain_decode_fixed(const uint8_t *data, size_t len, size_t n, size_t width,
                                     void *out, size_t *consumed, hl_error_t *err) {
  size_t need;
  if (__builtin_mul_overflow(n, width, &need) || need > len)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "PLAIN data truncated: %zu values of %zu bytes do not fit %zu bytes", n,
                      width, len);
  if (need) memcpy(out, data, need);
  if (consumed) *consumed = need;
  return HL_OK;
}

hl_status_t hl_pq_plain_decode_bytes(const uint8_t *data, size_t len, size_t n, hl_pq_bytes_t *out,
                                     size_t *consumed, hl_error_t *err) {
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) {
    if (len - pos < 4)
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "PLAIN BYTE_ARRAY length of value %zu truncated", i);
    uint32_t vlen = pq_load_u32(data + pos);
    pos += 4;
    if (vlen > len - pos)
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "PLAIN BYTE_ARRAY value %zu of %u bytes exceeds the %zu bytes left", i,
                        vlen, len - pos);
    out[i].ptr = data + pos;
    out[i].len = vlen;
    pos += vlen;
  }
  if (consumed) *consumed = pos;
  return HL_OK;
}

hl_status_t hl_pq_plain_decode_flba(const uint8_t *data, size_t len, size_t n, uint32_t width,
                                    hl_pq_bytes_t *out, size_t *consumed, hl_error_t *err) {
  if (width == 0)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "FIXED_LEN_BYTE_ARRAY type length is 0");
  size_t need;
  if (__builtin_mul_overflow(n, (size_t)width, &need) || need > len)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "PLAIN data truncated: %zu values of %u bytes do not fit %zu bytes", n, width,
                      len);
  for (size_t i = 0; i < n; i++) {
    out[i].ptr = data + i * width;
    out[i].len = width;
  }
  if (consumed) *consumed = need;
  return HL_OK;
}

/* ------------------------------------------------------------------ INT96 */

bool hl_pq_int96_to_micros(const uint8_t *src, int64_t *out) {
  int64_t nanos = (int64_t)pq_load_u64(src);
  int64_t days = (int64_t)pq_load_u32(src + 8) - JULIAN_EPOCH_DAY;
  int64_t us = nanos / 1000 - (nanos % 1000 < 0); /* floor */
  int64_t day_us;
  if (__builtin_mul_overflow(days, MICROS_PER_DAY, &day_us) ||
      __builtin_add_overflow(day_us, us, out))
    return false;
  return true;
}

void hl_pq_int96_from_micros(int64_t micros, uint8_t *dst) {
  int64_t days = micros / MICROS_PER_DAY, rem = micros % MICROS_PER_DAY;
  if (rem < 0) {
    rem += MICROS_PER_DAY;
    days--;
  }
  uint64_t nanos = (uint64_t)rem * 1000;
  uint32_t julian = (uint32_t)(days + JULIAN_EPOCH_DAY);
  memcpy(dst, &nanos, 8);
  memcpy(dst + 8, &julian, 4);
}

hl_status_t hl_pq_plain_decode_int96_micros(const uint8_t *data, size_t len, size_t n, int64_t *out,
                                            size_t *consumed, hl_error_t *err) {
  size_t need;
  if (__builtin_mul_overflow(n, (size_t)12, &need) || need > len)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "PLAIN data truncated: %zu values of 12 bytes do not fit %zu bytes", n, len);
  for (size_t i = 0; i < n; i++)
    if (!hl_pq_int96_to_micros(data + 12 * i, &out[i]))
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "INT96 timestamp (Julian day %u) is out of range",
                        pq_load_u32(data + 12 * i + 8));
  if (consumed) *consumed = need;
  return HL_OK;
}

/* ------------------------------------------------------------------ BYTE_STREAM_SPLIT */

hl_status_t hl_pq_bss_decode(const uint8_t *data, size_t len, size_t width, size_t first, size_t n,
                             void *out, hl_error_t *err) {
  if (width == 0)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "BYTE_STREAM_SPLIT width is 0");
  if (len % width != 0)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "BYTE_STREAM_SPLIT data of %zu bytes is not a multiple of %zu", len, width);
  size_t total = len / width, stop;
  if (__builtin_add_overflow(first, n, &stop) || stop > total)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "BYTE_STREAM_SPLIT data holds %zu values, %zu requested", total, stop);
  uint8_t *o = out;
  const uint8_t *src = data + first;
  if (width == 4) {
    const uint8_t *s0 = src, *s1 = src + total, *s2 = src + 2 * total, *s3 = src + 3 * total;
    for (size_t i = 0; i < n; i++) {
      o[4 * i] = s0[i];
      o[4 * i + 1] = s1[i];
      o[4 * i + 2] = s2[i];
      o[4 * i + 3] = s3[i];
    }
  } else if (width == 8) {
    for (size_t i = 0; i < n; i++)
      for (size_t b = 0; b < 8; b++)
        o[8 * i + b] = src[b * total + i];
  } else {
    for (size_t b = 0; b < width; b++) {
      const uint8_t *s = src + b * total;
      for (size_t i = 0; i < n; i++)
        o[i * width + b] = s[i];
    }
  }
  return HL_OK;
}

/* ------------------------------------------------------------------ encoders */

hl_status_t hl_pq_plain_encode_bool(hl_buf_t *buf, const uint8_t *values, size_t n,
                                    hl_error_t *err) {
  for (size_t i = 0; i < n; i += 8) {
    uint8_t b = 0;
    for (size_t j = 0; j < 8 && i + j < n; j++)
      b |= (uint8_t)((values[i + j] != 0) << j);
    hl_buf_append(buf, &b, 1);
  }
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_plain_encode_fixed(hl_buf_t *buf, const void *values, size_t n, size_t width,
                                     hl_error_t *err) {
  size_t nbytes;
  if (__builtin_mul_overflow(n, width, &nbytes))
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "PLAIN encoder size overflow");
  if (nbytes) hl_buf_append(buf, values, nbytes);
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_plain_encode_bytes(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                                     hl_error_t *err) {
  for (size_t i = 0; i < n; i++) {
    uint32_t len = values[i].len;
    hl_buf_append(buf, &len, 4);
    if (len) hl_buf_append(buf, values[i].ptr, len);
  }
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_plain_encode_flba(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                                    uint32_t width, hl_error_t *err) {
  for (size_t i = 0; i < n; i++) {
    if (values[i].len != width)
      return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                        "FIXED_LEN_BYTE_ARRAY value of %u bytes, %u expected", values[i].len,
                        width);
    if (width) hl_buf_append(buf, values[i].ptr, width);
  }
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_bss_encode(hl_buf_t *buf, const void *values, size_t n, size_t width,
                             hl_error_t *err) {
  size_t nbytes;
  if (width == 0 || __builtin_mul_overflow(n, width, &nbytes))
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "BYTE_STREAM_SPLIT width %zu", width);
  if (nbytes == 0) return HL_OK;
  if (hl_buf_reserve(buf, nbytes) != 0) return hl_err_nomem(err);
  uint8_t *dst = (uint8_t *)buf->data + buf->len;
  const uint8_t *src = values;
  for (size_t b = 0; b < width; b++)
    for (size_t i = 0; i < n; i++)
      dst[b * n + i] = src[i * width + b];
  buf->len += nbytes;
  buf->data[buf->len] = 0;
  return HL_OK;
}
