/*
 * pq_rle.c -- the RLE/bit-packing hybrid (levels, dictionary indices, RLE
 * booleans), the deprecated BIT_PACKED levels, and dictionary gathers.
 *
 * Spec: apache/parquet-format Encodings.md, "Run Length Encoding /
 * Bit-Packing Hybrid" and "Bit-packed (Deprecated)".  The decoder is a
 * streaming state (hl_pq_rle_dec_t) because the reader takes a page's values
 * in batches: a run may span batches.
 *
 *   init -> [get_* n]* ; each get: serve the current RLE run / bit-packed
 *   group, read the next run header (next_run) when both are exhausted.
 *
 * Speed: groups of 8 bit-packed values are unpacked by unpack8(), inlined
 * with a constant width per switch case so each width gets straight-line
 * shifts and masks over unaligned 64-bit loads.  The direct path needs 8
 * readable bytes past the group (an unaligned load may run ahead), so the
 * last groups of a buffer go through a zero-padded copy.
 */
#include "format/parquet/pq_encoding_int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------------ unpacking */

static inline __attribute__((always_inline)) void unpack8(const uint8_t *in, uint32_t *out, int w) {
  uint64_t mask = ((uint64_t)1 << w) - 1;
  for (int i = 0; i < 8; i++) {
    int bit = i * w;
    out[i] = (uint32_t)((pq_load_u64(in + (bit >> 3)) >> (bit & 7)) & mask);
  }
}

/* Unpacks N_GROUPS groups of 8 values of width W (1..32) from IN to OUT.
 * Requires N_GROUPS * W + 8 readable bytes at IN. */
static void unpack_groups(const uint8_t *in, uint32_t *out, size_t n_groups, int w) {
  switch (w) {
#define CASE(W)                                                                                    \
  case W:                                                                                          \
    for (size_t g = 0; g < n_groups; g++)                                                          \
      unpack8(in + g * W, out + g * 8, W);                                                         \
    break;
    // clang-format off
    CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
    CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
    CASE(17) CASE(18) CASE(19) CASE(20) CASE(21) CASE(22) CASE(23) CASE(24)
    CASE(25) CASE(26) CASE(27) CASE(28) CASE(29) CASE(30) CASE(31) CASE(32)
#undef CASE
  default:
    break;
    // clang-format on
  }
}

/* ------------------------------------------------------------------ decoder */

static hl_status_t bad_value(const hl_pq_rle_dec_t *dec, uint32_t v, hl_error_t *err) {
  if (dec->dict)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "dictionary index %u is out of range for a dictionary of %llu values", v,
                      (unsigned long long)dec->limit);
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s value %u exceeds the maximum %llu",
                    dec->what, v, (unsigned long long)(dec->limit - 1));
}

/* Checks VALUES[0, N) against the limit. */
static hl_status_t check_values(const hl_pq_rle_dec_t *dec, const uint32_t *values, size_t n,
                                hl_error_t *err) {
  uint32_t max = 0;
  for (size_t i = 0; i < n; i++)
    max = values[i] > max ? values[i] : max;
  if (n > 0 && max >= dec->limit) return bad_value(dec, max, err);
  return HL_OK;
}

hl_status_t hl_pq_rle_init(hl_pq_rle_dec_t *dec, const uint8_t *data, size_t len, int bit_width,
                           uint32_t max_value, uint64_t n_values, const char *what,
                           hl_error_t *err) {
  memset(dec, 0, sizeof *dec);
  if (bit_width < 0 || bit_width > 32)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "RLE bit width %d is outside 0..32",
                      bit_width);
  dec->pos = data;
  dec->end = data + len;
  dec->bit_width = bit_width;
  dec->limit = (uint64_t)max_value + 1;
  dec->check = dec->limit < ((uint64_t)1 << bit_width);
  dec->left = n_values;
  dec->group_pos = 8;
  dec->what = what ? what : "RLE data";
  return HL_OK;
}

hl_status_t hl_pq_rle_init_prefixed(hl_pq_rle_dec_t *dec, const uint8_t *data, size_t len,
                                    int bit_width, uint32_t max_value, uint64_t n_values,
                                    const char *what, size_t *consumed, hl_error_t *err) {
  const char *name = what ? what : "RLE data";
  memset(dec, 0, sizeof *dec);
  if (len < 4)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "%s: length prefix truncated (%zu bytes)", name, len);
  uint32_t n = pq_load_u32(data);
  if (n > len - 4)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "%s: length %u exceeds the %zu bytes available", name, n, len - 4);
  if (consumed) *consumed = 4 + (size_t)n;
  return hl_pq_rle_init(dec, data + 4, n, bit_width, max_value, n_values, what, err);
}

hl_status_t hl_pq_dict_init(hl_pq_rle_dec_t *dec, const uint8_t *data, size_t len,
                            uint32_t dict_size, uint64_t n_values, hl_error_t *err) {
  memset(dec, 0, sizeof *dec);
  if (len < 1) {
    if (n_values == 0) return hl_pq_rle_init(dec, data, 0, 0, 0, 0, "dictionary indices", err);
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "dictionary indices: bit width byte missing");
  }
  if (data[0] > 32)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "dictionary indices: bit width %u exceeds 32", data[0]);
  hl_status_t rc =
      hl_pq_rle_init(dec, data + 1, len - 1, data[0], 0, n_values, "dictionary indices", err);
  if (rc != HL_OK) return rc;
  dec->limit = dict_size;
  dec->check = dec->limit < ((uint64_t)1 << dec->bit_width);
  dec->dict = true;
  return HL_OK;
}

/* Reads the next run header; called when the current run is exhausted. */
static hl_status_t next_run(hl_pq_rle_dec_t *dec, hl_error_t *err) {
  if (dec->left == 0)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "%s: more values requested than the page holds", dec->what);
  if (dec->pos >= dec->end)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s end with %llu values missing",
                      dec->what, (unsigned long long)dec->left);
  uint64_t header;
  if (pq_read_uleb(&dec->pos, dec->end, &header) != 0)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s: run header truncated",
                      dec->what);
  int w = dec->bit_width;
  if (header & 1) {
    uint64_t groups = header >> 1;
    /* A run may extend past the page's values: the last group is padded,
     * and some writers (DuckDB) size the final run in whole blocks of
     * groups.  Values past dec->left are padding and ignored; their bytes
     * are skipped when present, never read beyond the input. */
    uint64_t real = groups > dec->left / 8 ? dec->left : groups * 8;
    uint64_t avail = (uint64_t)(dec->end - dec->pos);
    /* w <= 32, so groups * w cannot overflow below 2^58 groups */
    uint64_t nbytes = groups >> 58 ? UINT64_MAX : groups * (uint64_t)w;
    if (nbytes > avail) {
      /* Tolerate a short final group as long as the real values are there. */
      if ((real * (uint64_t)w + 7) / 8 > avail)
        return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                          "%s: bit-packed run truncated (%llu bytes needed, %llu available)",
                          dec->what, (unsigned long long)nbytes, (unsigned long long)avail);
      nbytes = avail;
    }
    dec->bp_data = dec->pos;
    dec->bp_end = dec->pos + nbytes;
    dec->bp_left = real;
    dec->group_pos = 8;
    dec->pos += nbytes;
    dec->left -= real;
  } else {
    uint64_t count = header >> 1;
    if (count > dec->left)
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "%s: run of %llu values exceeds the %llu values left", dec->what,
                        (unsigned long long)count, (unsigned long long)dec->left);
    size_t vbytes = ((size_t)w + 7) / 8;
    if ((size_t)(dec->end - dec->pos) < vbytes)
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s: run value truncated",
                        dec->what);
    uint32_t v = 0;
    for (size_t i = 0; i < vbytes; i++)
      v |= (uint32_t)dec->pos[i] << (8 * i);
    dec->pos += vbytes;
    if (count > 0 && v >= dec->limit) return bad_value(dec, v, err);
    if (count > 0x7fffffff) /* spec: run lengths are below 2^31 */
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "%s: run of %llu values is too long", dec->what, (unsigned long long)count);
    dec->rle_value = v;
    dec->rle_left = (uint32_t)count;
    dec->left -= count;
  }
  return HL_OK;
}

/* Unpacks the next group of the bit-packed run into dec->group through a
 * zero-padded copy (safe at the end of the buffer). */
static hl_status_t load_group(hl_pq_rle_dec_t *dec, hl_error_t *err) {
  int w = dec->bit_width;
  size_t need = dec->bp_left < 8 ? (size_t)dec->bp_left : 8;
  if (w == 0) {
    memset(dec->group, 0, sizeof dec->group);
  } else {
    uint8_t tmp[32 + 8] = {0};
    size_t avail = (size_t)(dec->bp_end - dec->bp_data),
           take = avail < (size_t)w ? avail : (size_t)w;
    if (take * 8 < need * (size_t)w) /* next_run checked this; defensive */
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s: bit-packed run truncated",
                        dec->what);
    memcpy(tmp, dec->bp_data, take);
    unpack_groups(tmp, dec->group, 1, w);
    dec->bp_data += take;
  }
  dec->group_pos = 0;
  if (dec->check) return check_values(dec, dec->group, need, err);
  return HL_OK;
}

/* Output kinds of rle_get. */
enum { OUT_U32, OUT_I16, OUT_U8 };

static inline void store(void *out, size_t at, int kind, const uint32_t *src, size_t n) {
  switch (kind) {
  case OUT_U32:
    memcpy((uint32_t *)out + at, src, n * sizeof(uint32_t));
    break;
  case OUT_I16:
    for (size_t i = 0; i < n; i++)
      ((int16_t *)out)[at + i] = (int16_t)src[i];
    break;
  default:
    for (size_t i = 0; i < n; i++)
      ((uint8_t *)out)[at + i] = (uint8_t)src[i];
    break;
  }
}

static inline void fill(void *out, size_t at, int kind, uint32_t v, size_t n) {
  switch (kind) {
  case OUT_U32: {
    uint32_t *o = (uint32_t *)out + at;
    for (size_t i = 0; i < n; i++)
      o[i] = v;
    break;
  }
  case OUT_I16: {
    int16_t *o = (int16_t *)out + at;
    for (size_t i = 0; i < n; i++)
      o[i] = (int16_t)v;
    break;
  }
  default:
    memset((uint8_t *)out + at, (int)v, n);
    break;
  }
}

static hl_status_t rle_get(hl_pq_rle_dec_t *dec, size_t n, void *out, int kind, hl_error_t *err) {
  size_t done = 0;
  int w = dec->bit_width;
  while (done < n) {
    size_t want = n - done;
    if (dec->rle_left > 0) {
      size_t k = dec->rle_left < want ? dec->rle_left : want;
      fill(out, done, kind, dec->rle_value, k);
      dec->rle_left -= (uint32_t)k;
      done += k;
      continue;
    }
    if (dec->bp_left > 0) {
      if (dec->group_pos < 8) {
        size_t k = 8 - (size_t)dec->group_pos;
        if (k > dec->bp_left) k = (size_t)dec->bp_left;
        if (k > want) k = want;
        store(out, done, kind, dec->group + dec->group_pos, k);
        dec->group_pos += (int)k;
        dec->bp_left -= k;
        done += k;
        continue;
      }
      /* At a group boundary: whole groups straight to the output. */
      size_t groups = (size_t)(dec->bp_left < want ? dec->bp_left : want) / 8;
      if (groups > 0 && w == 0) {
        if (dec->check) return bad_value(dec, 0, err);
        fill(out, done, kind, 0, groups * 8);
        dec->bp_left -= groups * 8;
        done += groups * 8;
        continue;
      }
      size_t avail = (size_t)(dec->bp_end - dec->bp_data);
      size_t safe = w > 0 && avail >= 8 ? (avail - 8) / (size_t)w : 0;
      if (groups > safe) groups = safe;
      if (groups > 0) {
        if (kind == OUT_U32) {
          uint32_t *o = (uint32_t *)out + done;
          unpack_groups(dec->bp_data, o, groups, w);
          if (dec->check) {
            hl_status_t rc = check_values(dec, o, groups * 8, err);
            if (rc != HL_OK) return rc;
          }
        } else if (kind == OUT_I16 && w == 1 && !dec->check) {
          /* levels of width 1 (a flat nullable column): a byte is a group;
           * its bits spread to 8 bytes of 0/1 with one multiply, then widen */
          int16_t *o = (int16_t *)out + done;
          for (size_t g = 0; g < groups; g++) {
            uint64_t b = dec->bp_data[g] * UINT64_C(0x0101010101010101);
            b = (((b & UINT64_C(0x8040201008040201)) + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) &
                UINT64_C(0x0101010101010101);
#ifdef __SSE2__
            __m128i v = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)b), _mm_setzero_si128());
            _mm_storeu_si128((__m128i *)(void *)(o + 8 * g), v);
#else
            for (int i = 0; i < 8; i++)
              o[8 * g + (size_t)i] = (int16_t)(b >> (8 * i) & 1);
#endif
          }
        } else {
          uint32_t tmp[256];
          if (groups > 32) groups = 32;
          unpack_groups(dec->bp_data, tmp, groups, w);
          if (dec->check) {
            hl_status_t rc = check_values(dec, tmp, groups * 8, err);
            if (rc != HL_OK) return rc;
          }
          store(out, done, kind, tmp, groups * 8);
        }
        dec->bp_data += groups * (size_t)w;
        dec->bp_left -= groups * 8;
        done += groups * 8;
        continue;
      }
      hl_status_t rc = load_group(dec, err);
      if (rc != HL_OK) return rc;
      continue;
    }
    hl_status_t rc = next_run(dec, err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

hl_status_t hl_pq_rle_get_u32(hl_pq_rle_dec_t *dec, size_t n, uint32_t *out, hl_error_t *err) {
  return rle_get(dec, n, out, OUT_U32, err);
}

hl_status_t hl_pq_rle_take_run(hl_pq_rle_dec_t *dec, uint32_t value, size_t max, size_t *took,
                               hl_error_t *err) {
  *took = 0;
  if (dec->rle_left == 0 && dec->bp_left == 0 && dec->left > 0) {
    hl_status_t rc = next_run(dec, err);
    if (rc != HL_OK) return rc;
  }
  if (dec->rle_left == 0 || dec->rle_value != value) return HL_OK;
  size_t k = dec->rle_left < max ? dec->rle_left : max;
  dec->rle_left -= (uint32_t)k;
  *took = k;
  return HL_OK;
}

hl_status_t hl_pq_rle_get_levels(hl_pq_rle_dec_t *dec, size_t n, int16_t *out, hl_error_t *err) {
  if (dec->limit > 32768)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "%s: maximum level %llu does not fit 16 bits", dec->what,
                      (unsigned long long)(dec->limit - 1));
  return rle_get(dec, n, out, OUT_I16, err);
}

hl_status_t hl_pq_rle_get_bool(hl_pq_rle_dec_t *dec, size_t n, uint8_t *out, hl_error_t *err) {
  if (dec->limit > 2)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "%s: boolean decoder with maximum %llu", dec->what,
                      (unsigned long long)(dec->limit - 1));
  return rle_get(dec, n, out, OUT_U8, err);
}

/* ------------------------------------------------------------------ dictionary */

hl_status_t hl_pq_dict_get(hl_pq_rle_dec_t *dec, const void *dict, size_t elem_size, size_t n,
                           void *out, hl_error_t *err) {
  uint32_t idx[1024];
  size_t done = 0;
  while (done < n) {
    /* A long RLE run repeats one entry: no need to materialise indices. */
    if (dec->rle_left > 0 && dec->bp_left == 0) {
      size_t k = dec->rle_left < n - done ? dec->rle_left : n - done;
      const uint8_t *src = (const uint8_t *)dict + (size_t)dec->rle_value * elem_size;
      uint8_t *dst = (uint8_t *)out + done * elem_size;
      if (elem_size == 4) {
        uint32_t v = pq_load_u32(src);
        for (size_t i = 0; i < k; i++)
          memcpy(dst + 4 * i, &v, 4);
      } else {
        for (size_t i = 0; i < k; i++)
          memcpy(dst + i * elem_size, src, elem_size);
      }
      dec->rle_left -= (uint32_t)k;
      done += k;
      continue;
    }
    size_t k = n - done < 1024 ? n - done : 1024;
    if (dec->rle_left > 0 && k > dec->rle_left) k = dec->rle_left;
    hl_status_t rc = rle_get(dec, k, idx, OUT_U32, err);
    if (rc != HL_OK) return rc;
    uint8_t *dst = (uint8_t *)out + done * elem_size;
    switch (elem_size) {
    case 4: {
      const uint32_t *d = dict;
      uint32_t *o = (uint32_t *)(void *)dst;
      for (size_t i = 0; i < k; i++)
        o[i] = d[idx[i]];
      break;
    }
    case 8: {
      const uint64_t *d = dict;
      uint64_t *o = (uint64_t *)(void *)dst;
      for (size_t i = 0; i < k; i++)
        o[i] = d[idx[i]];
      break;
    }
    case sizeof(hl_pq_bytes_t): {
      const hl_pq_bytes_t *d = dict;
      hl_pq_bytes_t *o = (hl_pq_bytes_t *)(void *)dst;
      for (size_t i = 0; i < k; i++)
        o[i] = d[idx[i]];
      break;
    }
    default:
      for (size_t i = 0; i < k; i++)
        memcpy(dst + i * elem_size, (const uint8_t *)dict + (size_t)idx[i] * elem_size, elem_size);
      break;
    }
    done += k;
  }
  return HL_OK;
}

/* ------------------------------------------------------------------ BIT_PACKED */

bool hl_pq_bitpacked_size(uint64_t n_values, int bit_width, size_t *nbytes) {
  uint64_t bits;
  if (bit_width < 0 || __builtin_mul_overflow(n_values, (uint64_t)bit_width, &bits)) return false;
  uint64_t bytes = bits / 8 + (bits % 8 != 0);
  if (bytes > SIZE_MAX) return false;
  *nbytes = (size_t)bytes;
  return true;
}

hl_status_t hl_pq_bitpacked_decode(const uint8_t *data, size_t len, int bit_width,
                                   uint32_t max_value, size_t first, size_t n, int16_t *out,
                                   hl_error_t *err) {
  if (bit_width < 0 || bit_width > 16)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "BIT_PACKED bit width %d is outside 0..16", bit_width);
  size_t nbytes;
  if (!hl_pq_bitpacked_size((uint64_t)first + n, bit_width, &nbytes) || nbytes > len)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "BIT_PACKED levels truncated (%zu values need more than %zu bytes)",
                      first + n, len);
  uint64_t bit = (uint64_t)first * (uint64_t)bit_width;
  for (size_t i = 0; i < n; i++) {
    /* MSB first: the value's first bit is the high bit of its byte. */
    uint32_t v = 0;
    for (int b = 0; b < bit_width; b++, bit++)
      v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    if (v > max_value)
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "BIT_PACKED level %u exceeds the maximum %u", v, max_value);
    out[i] = (int16_t)v;
  }
  return HL_OK;
}

/* ------------------------------------------------------------------ encoders */

static void put_rle_run(hl_buf_t *buf, uint64_t count, uint32_t value, int w) {
  while (count > 0) {
    uint64_t k = count > 0x7fffffff ? 0x7fffffff : count; /* spec: runs < 2^31 */
    pq_put_uleb(buf, k << 1);
    uint8_t v[4];
    for (int i = 0; i < (w + 7) / 8; i++)
      v[i] = (uint8_t)(value >> (8 * i));
    hl_buf_append(buf, v, (size_t)(w + 7) / 8);
    count -= k;
  }
}

/* The hybrid encoder, per input type.  Runs of 8 or more equal values (and
 * a final run with no literals pending) become RLE runs; everything else
 * goes out as literal groups of 8, so pending literals are always whole
 * groups except at the very end, where the last group is zero padded.
 * Groups are cut at the group boundary, so a run that starts mid-group
 * loses its first values to the literals: simple, and within a few bytes of
 * optimal for levels and dictionary indices. */
#define DEFINE_RLE_ENCODE(NAME, T)                                                                 \
  static void NAME(hl_buf_t *buf, const T *values, size_t n, int w) {                              \
    size_t i = 0, lit_start = 0; /* pending literals: [lit_start, i), a multiple of 8 */           \
    while (i < n) {                                                                                \
      size_t run = 1;                                                                              \
      while (i + run < n && values[i + run] == values[i])                                          \
        run++;                                                                                     \
      if (run >= 8 || (run == n - i && i == lit_start)) {                                          \
        flush_literals_##NAME(buf, values, lit_start, i, w);                                       \
        put_rle_run(buf, run, (uint32_t)values[i], w);                                             \
        i += run;                                                                                  \
        lit_start = i;                                                                             \
        continue;                                                                                  \
      }                                                                                            \
      i = i + 8 < n ? i + 8 : n; /* one more literal group (may end with padding) */               \
      if (i - lit_start >= (size_t)8 << 20) {                                                      \
        flush_literals_##NAME(buf, values, lit_start, i, w);                                       \
        lit_start = i;                                                                             \
      }                                                                                            \
    }                                                                                              \
    flush_literals_##NAME(buf, values, lit_start, i, w);                                           \
  }

/* Writes VALUES[FROM, TO) as one bit-packed run (padding the last group). */
#define DEFINE_FLUSH(NAME, T)                                                                      \
  static void flush_literals_##NAME(hl_buf_t *buf, const T *values, size_t from, size_t to,        \
                                    int w) {                                                       \
    if (to <= from) return;                                                                        \
    size_t groups = (to - from + 7) / 8;                                                           \
    pq_put_uleb(buf, ((uint64_t)groups << 1) | 1);                                                 \
    for (size_t g = 0; g < groups; g++) {                                                          \
      uint64_t v[8] = {0};                                                                         \
      for (size_t j = 0; j < 8 && from + g * 8 + j < to; j++)                                      \
        v[j] = (uint64_t)values[from + g * 8 + j];                                                 \
      pq_pack8(buf, v, w);                                                                         \
    }                                                                                              \
  }

DEFINE_FLUSH(encode_u32, uint32_t)
DEFINE_FLUSH(encode_i16, int16_t)
DEFINE_FLUSH(encode_u8, uint8_t)
DEFINE_RLE_ENCODE(encode_u32, uint32_t)
DEFINE_RLE_ENCODE(encode_i16, int16_t)
DEFINE_RLE_ENCODE(encode_u8, uint8_t)

static hl_status_t check_width(int w, hl_error_t *err) {
  if (w < 0 || w > 32)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "RLE bit width %d is outside 0..32",
                      w);
  return HL_OK;
}

hl_status_t hl_pq_rle_encode(hl_buf_t *buf, const uint32_t *values, size_t n, int bit_width,
                             hl_error_t *err) {
  if (check_width(bit_width, err) != HL_OK) return err->code;
  uint64_t limit = (uint64_t)1 << bit_width;
  for (size_t i = 0; i < n; i++)
    if (values[i] >= limit)
      return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                        "value %u does not fit RLE bit width %d", values[i], bit_width);
  encode_u32(buf, values, n, bit_width);
  return pq_buf_status(buf, err);
}

/* Writes the 4-byte length prefix placeholder at AT once the data is done. */
static void patch_length(hl_buf_t *buf, size_t at) {
  if (buf->oom) return;
  uint32_t n = (uint32_t)(buf->len - at - 4);
  memcpy(buf->data + at, &n, 4);
}

hl_status_t hl_pq_rle_encode_levels(hl_buf_t *buf, const int16_t *levels, size_t n, int bit_width,
                                    bool prefixed, hl_error_t *err) {
  if (check_width(bit_width, err) != HL_OK) return err->code;
  if (bit_width > 16)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "level bit width %d exceeds 16",
                      bit_width);
  for (size_t i = 0; i < n; i++)
    if (levels[i] < 0 || (uint32_t)levels[i] >= ((uint32_t)1 << bit_width))
      return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "level %d does not fit bit width %d",
                        levels[i], bit_width);
  size_t at = buf->len;
  if (prefixed) hl_buf_append(buf, "\0\0\0\0", 4);
  encode_i16(buf, levels, n, bit_width);
  if (prefixed) patch_length(buf, at);
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_rle_encode_bool(hl_buf_t *buf, const uint8_t *values, size_t n, hl_error_t *err) {
  for (size_t i = 0; i < n; i++)
    if (values[i] > 1)
      return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "boolean value %u is not 0 or 1",
                        values[i]);
  size_t at = buf->len;
  hl_buf_append(buf, "\0\0\0\0", 4);
  encode_u8(buf, values, n, 1);
  patch_length(buf, at);
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_dict_encode(hl_buf_t *buf, const uint32_t *indices, size_t n, int bit_width,
                              hl_error_t *err) {
  if (check_width(bit_width, err) != HL_OK) return err->code;
  uint8_t b = (uint8_t)bit_width;
  hl_buf_append(buf, &b, 1);
  return hl_pq_rle_encode(buf, indices, n, bit_width, err);
}

int hl_pq_bit_width(uint64_t max_value) {
  return max_value == 0 ? 0 : 64 - __builtin_clzll(max_value);
}
