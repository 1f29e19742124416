/*
 * pq_delta.c -- DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and
 * DELTA_BYTE_ARRAY decoders (streaming) and encoders.
 *
 * Spec: apache/parquet-format Encodings.md, "Delta Encoding", "Delta-length
 * byte array", "Delta Strings".  Layout of DELTA_BINARY_PACKED:
 *
 *   header: <block size> <miniblocks per block> <total count> <zigzag first>
 *   block:  <zigzag min delta> <one bit-width byte per miniblock> <miniblocks>
 *
 * All arithmetic is done in uint64_t so that overflow wraps, as the spec
 * requires; INT32 results are the low 32 bits, which is the same modulo 2^32.
 * Leniency: any block size whose miniblocks hold a multiple of 8 values is
 * accepted (the spec's examples use 8; real writers use 128 / 4 x 32), the
 * unused miniblocks of the last block may carry any width, and a last
 * miniblock cut short of its padding is accepted when the real values are
 * all there.
 */
#include "format/parquet/pq_encoding_int.h"

#include "util/mem.h"

#define DBP "DELTA_BINARY_PACKED"

/* ------------------------------------------------------------------ unpacking */

/* 8 values of width W (0..64), LSB first.  Reads up to W + 9 bytes at IN. */
static inline __attribute__((always_inline)) void unpack8_64(const uint8_t *in, uint64_t *out,
                                                             int w) {
  if (w == 0) {
    for (int i = 0; i < 8; i++)
      out[i] = 0;
    return;
  }
  uint64_t mask = w == 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
  for (int i = 0; i < 8; i++) {
    int bit = i * w, shift = bit & 7;
    uint64_t v = pq_load_u64(in + (bit >> 3)) >> shift;
    if (shift + w > 64) v |= (uint64_t)in[(bit >> 3) + 8] << (64 - shift);
    out[i] = v & mask;
  }
}

/* N_GROUPS groups; requires N_GROUPS * W + 9 readable bytes at IN. */
static void unpack_groups64(const uint8_t *in, uint64_t *out, size_t n_groups, int w) {
  switch (w) {
#define CASE(W)                                                                                    \
  case W:                                                                                          \
    for (size_t g = 0; g < n_groups; g++)                                                          \
      unpack8_64(in + g * W, out + g * 8, W);                                                      \
    break;
    // clang-format off
    CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
    CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
    CASE(16) CASE(17) CASE(18) CASE(19) CASE(20) CASE(21) CASE(22) CASE(23)
    CASE(24) CASE(25) CASE(26) CASE(27) CASE(28) CASE(29) CASE(30) CASE(31)
    CASE(32) CASE(33) CASE(34) CASE(35) CASE(36) CASE(37) CASE(38) CASE(39)
    CASE(40) CASE(41) CASE(42) CASE(43) CASE(44) CASE(45) CASE(46) CASE(47)
    CASE(48) CASE(49) CASE(50) CASE(51) CASE(52) CASE(53) CASE(54) CASE(55)
    CASE(56) CASE(57) CASE(58) CASE(59) CASE(60) CASE(61) CASE(62) CASE(63)
    CASE(64)
#undef CASE
  default:
    break;
    // clang-format on
  }
}

/* ------------------------------------------------------------------ DELTA_BINARY_PACKED */

static hl_status_t truncated(const char *what, hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), DBP " %s truncated", what);
}

hl_status_t hl_pq_delta_init(hl_pq_delta_dec_t *dec, const uint8_t *data, size_t len, bool is_int64,
                             uint64_t n_values, hl_error_t *err) {
  memset(dec, 0, sizeof *dec);
  const uint8_t *p = data, *end = data + len;
  uint64_t block_size, n_minis, total, first;
  if (pq_read_uleb(&p, end, &block_size) != 0 || pq_read_uleb(&p, end, &n_minis) != 0 ||
      pq_read_uleb(&p, end, &total) != 0 || pq_read_uleb(&p, end, &first) != 0)
    return truncated("header", err);
  if (block_size == 0 || block_size > ((uint64_t)1 << 31) || n_minis == 0 ||
      block_size % n_minis != 0 || (block_size / n_minis) % 8 != 0)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      DBP " block size %llu with %llu miniblocks is invalid",
                      (unsigned long long)block_size, (unsigned long long)n_minis);
  if (total > n_values)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      DBP " data holds %llu values, more than the %llu expected",
                      (unsigned long long)total, (unsigned long long)n_values);
  dec->pos = p;
  dec->end = end;
  dec->block_size = block_size;
  dec->n_minis = n_minis;
  dec->mini_size = block_size / n_minis;
  dec->total = total;
  dec->left = total;
  dec->last = pq_zigzag_decode(first);
  dec->mini_idx = n_minis; /* no block read yet */
  dec->group_pos = 8;
  dec->max_width = is_int64 ? 64 : 32;
  dec->first_pending = total > 0;
  return HL_OK;
}

uint64_t hl_pq_delta_total(const hl_pq_delta_dec_t *dec) {
  return dec->total;
}

/* Bytes of miniblock data at POS (AVAIL bytes there) for a miniblock of
 * width W of which NEEDED values are used: the full padded size, or less
 * when the data ends early but still covers the needed values. */
static hl_status_t mini_bytes(const hl_pq_delta_dec_t *dec, int w, uint64_t needed, size_t avail,
                              size_t *nbytes, hl_error_t *err) {
  if (w > dec->max_width)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      DBP " miniblock bit width %d exceeds %d", w, dec->max_width);
  uint64_t full = dec->mini_size * (uint64_t)w / 8;
  if (full <= avail) {
    *nbytes = (size_t)full;
    return HL_OK;
  }
  if ((needed * (uint64_t)w + 7) / 8 > avail) return truncated("miniblock", err);
  *nbytes = avail;
  return HL_OK;
}

/* Reads a block header: min delta and the miniblock widths. */
static hl_status_t read_block(hl_pq_delta_dec_t *dec, hl_error_t *err) {
  uint64_t min_delta;
  if (pq_read_uleb(&dec->pos, dec->end, &min_delta) != 0) return truncated("block header", err);
  if ((uint64_t)(dec->end - dec->pos) < dec->n_minis) return truncated("block header", err);
  dec->min_delta = pq_zigzag_decode(min_delta);
  dec->bit_widths = dec->pos;
  dec->pos += dec->n_minis;
  dec->mini_idx = 0;
  return HL_OK;
}

/* Starts the next miniblock (reading a block header first if needed). */
static hl_status_t next_mini(hl_pq_delta_dec_t *dec, hl_error_t *err) {
  if (dec->mini_idx >= dec->n_minis) {
    hl_status_t rc = read_block(dec, err);
    if (rc != HL_OK) return rc;
  }
  int w = dec->bit_widths[dec->mini_idx];
  size_t nbytes = 0;
  uint64_t needed = dec->left < dec->mini_size ? dec->left : dec->mini_size;
  hl_status_t rc = mini_bytes(dec, w, needed, (size_t)(dec->end - dec->pos), &nbytes, err);
  if (rc != HL_OK) return rc;
  dec->cur_width = w;
  dec->mini_data = dec->pos;
  dec->mini_end = dec->pos + nbytes;
  dec->pos += nbytes;
  dec->mini_left = dec->mini_size;
  dec->mini_idx++;
  dec->group_pos = 8;
  return HL_OK;
}

/* Unpacks the next group of the miniblock into dec->group, through a
 * zero-padded copy (the direct path may read past the data). */
static void load_group(hl_pq_delta_dec_t *dec) {
  uint8_t tmp[64 + 16] = {0};
  int w = dec->cur_width;
  size_t avail = (size_t)(dec->mini_end - dec->mini_data);
  size_t take = avail < (size_t)w ? avail : (size_t)w;
  memcpy(tmp, dec->mini_data, take);
  unpack_groups64(tmp, dec->group, 1, w);
  dec->mini_data += take;
  dec->group_pos = 0;
}

#define DEFINE_DELTA_GET(NAME, T)                                                                  \
  hl_status_t NAME(hl_pq_delta_dec_t *dec, size_t n, T *out, hl_error_t *err) {                    \
    if (n > dec->left)                                                                             \
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),                                    \
                        DBP " data ends after %llu more values, %zu requested",                    \
                        (unsigned long long)dec->left, n);                                         \
    size_t done = 0;                                                                               \
    uint64_t last = dec->last;                                                                     \
    if (n > 0 && dec->first_pending) {                                                             \
      out[done++] = (T)last;                                                                       \
      dec->first_pending = false;                                                                  \
    }                                                                                              \
    while (done < n) {                                                                             \
      if (dec->mini_left == 0) {                                                                   \
        dec->last = last;                                                                          \
        dec->left -= done;                                                                         \
        n -= done;                                                                                 \
        out += done;                                                                               \
        done = 0;                                                                                  \
        hl_status_t rc = next_mini(dec, err);                                                      \
        if (rc != HL_OK) return rc;                                                                \
        continue;                                                                                  \
      }                                                                                            \
      uint64_t min_delta = dec->min_delta;                                                         \
      if (dec->group_pos < 8) {                                                                    \
        size_t k = 8 - (size_t)dec->group_pos;                                                     \
        if (k > n - done) k = n - done;                                                            \
        const uint64_t *g = dec->group + dec->group_pos;                                           \
        for (size_t i = 0; i < k; i++) {                                                           \
          last += min_delta + g[i];                                                                \
          out[done + i] = (T)last;                                                                 \
        }                                                                                          \
        dec->group_pos += (int)k;                                                                  \
        dec->mini_left -= k;                                                                       \
        done += k;                                                                                 \
        continue;                                                                                  \
      }                                                                                            \
      int w = dec->cur_width;                                                                      \
      size_t groups = (size_t)(dec->mini_left < n - done ? dec->mini_left : n - done) / 8;         \
      size_t avail = (size_t)(dec->mini_end - dec->mini_data);                                     \
      size_t safe = avail >= 9 ? (w ? (avail - 9) / (size_t)w : groups) : (w ? 0 : groups);        \
      if (groups > safe) groups = safe;                                                            \
      if (groups > 32) groups = 32;                                                                \
      if (groups == 0) {                                                                           \
        load_group(dec);                                                                           \
        continue;                                                                                  \
      }                                                                                            \
      uint64_t tmp[256];                                                                           \
      unpack_groups64(dec->mini_data, tmp, groups, w);                                             \
      for (size_t i = 0; i < groups * 8; i++) {                                                    \
        last += min_delta + tmp[i];                                                                \
        out[done + i] = (T)last;                                                                   \
      }                                                                                            \
      dec->mini_data += groups * (size_t)w;                                                        \
      dec->mini_left -= groups * 8;                                                                \
      done += groups * 8;                                                                          \
    }                                                                                              \
    dec->last = last;                                                                              \
    dec->left -= done;                                                                             \
    return HL_OK;                                                                                  \
  }

DEFINE_DELTA_GET(hl_pq_delta_get_i32, int32_t)
DEFINE_DELTA_GET(hl_pq_delta_get_i64, int64_t)

hl_status_t hl_pq_delta_find_end(const hl_pq_delta_dec_t *dec, const uint8_t **end,
                                 hl_error_t *err) {
  hl_pq_delta_dec_t d = *dec;
  /* Values not yet covered by bytes already passed: the current miniblock's
   * data has been skipped by next_mini, so count from there. */
  uint64_t rem = d.left - (d.first_pending ? 1 : 0);
  rem = rem > d.mini_left ? rem - d.mini_left : 0;
  while (rem > 0) {
    if (d.mini_idx >= d.n_minis) {
      hl_status_t rc = read_block(&d, err);
      if (rc != HL_OK) return rc;
    }
    uint64_t needed = rem < d.mini_size ? rem : d.mini_size;
    size_t nbytes = 0;
    hl_status_t rc =
        mini_bytes(&d, d.bit_widths[d.mini_idx], needed, (size_t)(d.end - d.pos), &nbytes, err);
    if (rc != HL_OK) return rc;
    d.pos += nbytes;
    d.mini_idx++;
    rem -= needed;
  }
  *end = d.pos;
  return HL_OK;
}

#define DEFINE_DELTA_DECODE(NAME, GET, T, IS64)                                                    \
  hl_status_t NAME(const uint8_t *data, size_t len, size_t n, T *out, size_t *consumed,            \
                   hl_error_t *err) {                                                              \
    hl_pq_delta_dec_t dec;                                                                         \
    hl_status_t rc = hl_pq_delta_init(&dec, data, len, IS64, n, err);                              \
    if (rc != HL_OK) return rc;                                                                    \
    if (dec.total != n)                                                                            \
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),                                    \
                        DBP " data holds %llu values, %zu expected",                               \
                        (unsigned long long)dec.total, n);                                         \
    if (consumed) {                                                                                \
      const uint8_t *end;                                                                          \
      rc = hl_pq_delta_find_end(&dec, &end, err);                                                  \
      if (rc != HL_OK) return rc;                                                                  \
      *consumed = (size_t)(end - data);                                                            \
    }                                                                                              \
    return GET(&dec, n, out, err);                                                                 \
  }

DEFINE_DELTA_DECODE(hl_pq_delta_decode_i32, hl_pq_delta_get_i32, int32_t, false)
DEFINE_DELTA_DECODE(hl_pq_delta_decode_i64, hl_pq_delta_get_i64, int64_t, true)

/* ------------------------------------------------------------------ DELTA_LENGTH_BYTE_ARRAY */

hl_status_t hl_pq_dlba_init(hl_pq_dlba_dec_t *dec, const uint8_t *data, size_t len,
                            uint64_t n_values, hl_error_t *err) {
  memset(dec, 0, sizeof *dec);
  hl_status_t rc = hl_pq_delta_init(&dec->lengths, data, len, false, n_values, err);
  if (rc != HL_OK) return rc;
  rc = hl_pq_delta_find_end(&dec->lengths, &dec->data, err);
  if (rc != HL_OK) return rc;
  dec->end = data + len;
  return HL_OK;
}

hl_status_t hl_pq_dlba_get(hl_pq_dlba_dec_t *dec, size_t n, hl_pq_bytes_t *out, hl_error_t *err) {
  int32_t lens[256];
  for (size_t done = 0; done < n;) {
    size_t k = n - done < 256 ? n - done : 256;
    hl_status_t rc = hl_pq_delta_get_i32(&dec->lengths, k, lens, err);
    if (rc != HL_OK) return rc;
    for (size_t i = 0; i < k; i++) {
      if (lens[i] < 0)
        return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                          "DELTA_LENGTH_BYTE_ARRAY length %d is negative", lens[i]);
      size_t left = (size_t)(dec->end - dec->data);
      if ((size_t)lens[i] > left)
        return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                          "DELTA_LENGTH_BYTE_ARRAY value of %d bytes exceeds the %zu bytes left",
                          lens[i], left);
      out[done + i].ptr = dec->data;
      out[done + i].len = (uint32_t)lens[i];
      dec->data += lens[i];
    }
    done += k;
  }
  return HL_OK;
}

/* ------------------------------------------------------------------ DELTA_BYTE_ARRAY */

hl_status_t hl_pq_dba_init(hl_pq_dba_dec_t *dec, const uint8_t *data, size_t len, uint64_t n_values,
                           hl_arena_t *arena, size_t max_bytes, hl_error_t *err) {
  memset(dec, 0, sizeof *dec);
  hl_status_t rc = hl_pq_delta_init(&dec->prefixes, data, len, false, n_values, err);
  if (rc != HL_OK) return rc;
  const uint8_t *suffix_start;
  rc = hl_pq_delta_find_end(&dec->prefixes, &suffix_start, err);
  if (rc != HL_OK) return rc;
  rc = hl_pq_dlba_init(&dec->suffixes, suffix_start, (size_t)(data + len - suffix_start), n_values,
                       err);
  if (rc != HL_OK) return rc;
  if (dec->suffixes.lengths.total != dec->prefixes.total)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "DELTA_BYTE_ARRAY has %llu prefix lengths but %llu suffixes",
                      (unsigned long long)dec->prefixes.total,
                      (unsigned long long)dec->suffixes.lengths.total);
  dec->arena = arena;
  dec->budget = max_bytes ? max_bytes : (size_t)256 << 20;
  dec->max_bytes = dec->budget;
  return HL_OK;
}

hl_status_t hl_pq_dba_get(hl_pq_dba_dec_t *dec, size_t n, hl_pq_bytes_t *out, hl_error_t *err) {
  int32_t prefix[256];
  for (size_t done = 0; done < n;) {
    size_t k = n - done < 256 ? n - done : 256;
    hl_status_t rc = hl_pq_delta_get_i32(&dec->prefixes, k, prefix, err);
    if (rc != HL_OK) return rc;
    rc = hl_pq_dlba_get(&dec->suffixes, k, out + done, err);
    if (rc != HL_OK) return rc;
    for (size_t i = 0; i < k; i++) {
      hl_pq_bytes_t *v = &out[done + i];
      int32_t p = prefix[i];
      if (p < 0 || (uint32_t)p > dec->prev.len)
        return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                          "DELTA_BYTE_ARRAY prefix length %d exceeds the previous value's %u bytes",
                          p, dec->prev.len);
      if (p == 0) {
        /* The suffix is the whole value: it stays in the input buffer. */
      } else if (v->len == 0) {
        v->ptr = dec->prev.ptr; /* a prefix of the previous value: share it */
        v->len = (uint32_t)p;
      } else {
        uint64_t total = (uint64_t)p + v->len;
        if (total > UINT32_MAX || total > dec->budget)
          return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                            "DELTA_BYTE_ARRAY values expand past the limit of %zu bytes",
                            dec->max_bytes);
        uint8_t *buf = hl_arena_alloc(dec->arena, (size_t)total);
        if (!buf) return hl_err_nomem(err);
        memcpy(buf, dec->prev.ptr, (size_t)p);
        memcpy(buf + p, v->ptr, v->len);
        dec->budget -= (size_t)total;
        v->ptr = buf;
        v->len = (uint32_t)total;
      }
      dec->prev = *v;
    }
    done += k;
  }
  return HL_OK;
}

/* ------------------------------------------------------------------ encoders */

/* Block of 128 values in 4 miniblocks of 32: what parquet-java and Arrow
 * write, so our files look like theirs. */
enum { ENC_BLOCK = 128, ENC_MINIS = 4, ENC_MINI = ENC_BLOCK / ENC_MINIS };

static inline int64_t value_at(const void *values, size_t i, bool is64) {
  return is64 ? ((const int64_t *)values)[i] : ((const int32_t *)values)[i];
}

static void delta_encode(hl_buf_t *buf, const void *values, size_t n, bool is64) {
  pq_put_uleb(buf, ENC_BLOCK);
  pq_put_uleb(buf, ENC_MINIS);
  pq_put_uleb(buf, n);
  pq_put_uleb(buf, pq_zigzag_encode(n ? value_at(values, 0, is64) : 0));
  int64_t deltas[ENC_BLOCK];
  for (size_t i = 1; i < n;) {
    size_t k = n - i < ENC_BLOCK ? n - i : ENC_BLOCK;
    int64_t min = INT64_MAX;
    for (size_t j = 0; j < k; j++) {
      uint64_t a = (uint64_t)value_at(values, i + j, is64);
      uint64_t b = (uint64_t)value_at(values, i + j - 1, is64);
      /* Wrapping difference in the type's own width, as a signed value. */
      deltas[j] = is64 ? (int64_t)(a - b) : (int64_t)(int32_t)(uint32_t)(a - b);
      if (deltas[j] < min) min = deltas[j];
    }
    pq_put_uleb(buf, pq_zigzag_encode(min));
    uint64_t packed[ENC_BLOCK] = {0};
    int widths[ENC_MINIS] = {0};
    for (size_t j = 0; j < k; j++) {
      packed[j] = (uint64_t)deltas[j] - (uint64_t)min;
      if (!is64) packed[j] &= 0xffffffffu;
      int w = hl_pq_bit_width(packed[j]);
      if (w > widths[j / ENC_MINI]) widths[j / ENC_MINI] = w;
    }
    uint8_t wb[ENC_MINIS];
    for (int m = 0; m < ENC_MINIS; m++)
      wb[m] = (uint8_t)widths[m];
    hl_buf_append(buf, wb, ENC_MINIS);
    for (size_t m = 0; m * ENC_MINI < k; m++)
      for (size_t g = 0; g < ENC_MINI / 8; g++)
        pq_pack8(buf, packed + m * ENC_MINI + g * 8, widths[m]);
    i += k;
  }
}

hl_status_t hl_pq_delta_encode_i32(hl_buf_t *buf, const int32_t *values, size_t n,
                                   hl_error_t *err) {
  delta_encode(buf, values, n, false);
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_delta_encode_i64(hl_buf_t *buf, const int64_t *values, size_t n,
                                   hl_error_t *err) {
  delta_encode(buf, values, n, true);
  return pq_buf_status(buf, err);
}

static hl_status_t check_lengths(const hl_pq_bytes_t *values, size_t n, hl_error_t *err) {
  for (size_t i = 0; i < n; i++)
    if (values[i].len > INT32_MAX)
      return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                        "byte array of %u bytes is too long for Parquet", values[i].len);
  return HL_OK;
}

hl_status_t hl_pq_dlba_encode(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                              hl_error_t *err) {
  if (check_lengths(values, n, err) != HL_OK) return err->code;
  int32_t *lens = hl_malloc(n ? n * sizeof(int32_t) : 1);
  if (!lens) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    lens[i] = (int32_t)values[i].len;
  delta_encode(buf, lens, n, false);
  hl_free(lens);
  for (size_t i = 0; i < n; i++)
    hl_buf_append(buf, values[i].ptr, values[i].len);
  return pq_buf_status(buf, err);
}

hl_status_t hl_pq_dba_encode(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                             hl_error_t *err) {
  if (check_lengths(values, n, err) != HL_OK) return err->code;
  int32_t *lens = hl_malloc(n ? 2 * n * sizeof(int32_t) : 1);
  if (!lens) return hl_err_nomem(err);
  int32_t *prefix = lens, *suffix = lens + n;
  for (size_t i = 0; i < n; i++) {
    uint32_t p = 0;
    if (i > 0) {
      uint32_t max = values[i].len < values[i - 1].len ? values[i].len : values[i - 1].len;
      while (p < max && values[i].ptr[p] == values[i - 1].ptr[p])
        p++;
    }
    prefix[i] = (int32_t)p;
    suffix[i] = (int32_t)(values[i].len - p);
  }
  delta_encode(buf, prefix, n, false);
  delta_encode(buf, suffix, n, false);
  for (size_t i = 0; i < n; i++)
    if (suffix[i] > 0) hl_buf_append(buf, values[i].ptr + prefix[i], (size_t)suffix[i]);
  hl_free(lens);
  return pq_buf_status(buf, err);
}
