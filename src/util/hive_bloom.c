/*
 * hive_bloom.c -- Hive's BloomKFilter on its serialized bytes
 * (hive_bloom.h).  The int arithmetic is Java's: h1 + h2 and
 * h1 + (i + 1) * h2 wrap, ~ of a negative sum, the block by %, and a
 * negative k (a byte above 0x7f) tests no bit, so every value passes.
 */
#include "util/hive_bloom.h"
#include "util/java_bits.h"

#include <math.h>
#include <string.h>

#include "util/hive_hll.h"

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "the bloom filter is not a valid BloomKFilter: %s", what);
}

/* The byte of bit BIT (0 = least significant) of long W, stored big-endian. */
static size_t bit_byte(size_t w, int bit) {
  return 5 + w * 8 + (size_t)(7 - bit / 8);
}

typedef struct probe {
  int k;
  uint32_t blocks;
  int32_t h1, h2;
} probe_t;

static hl_status_t setup(const uint8_t *data, size_t len, uint64_t hash, probe_t *p,
                         hl_error_t *err) {
  if (len < 5) return bad(err, "it ends inside its header");
  int32_t n = (int32_t)be32(data + 1);
  if (n < 0) return bad(err, "a negative number of longs");
  if ((size_t)n > (len - 5) / 8) return bad(err, "it ends inside its bits");
  if (n % 8 != 0) return bad(err, "the bits are not block aligned");
  if (n == 0) return bad(err, "no block of bits");
  p->k = (int8_t)data[0];
  p->blocks = (uint32_t)n / 8;
  p->h1 = (int32_t)(uint32_t)hash;
  p->h2 = (int32_t)(uint32_t)(hash >> 32);
  return HL_OK;
}

static size_t block_base(const probe_t *p) {
  int32_t first = (int32_t)((uint32_t)p->h1 + (uint32_t)p->h2);
  if (first < 0) first = ~first;
  return (size_t)((uint32_t)first % p->blocks) * 8;
}

static int32_t combined(const probe_t *p, int i) {
  int32_t c = (int32_t)((uint32_t)p->h1 + (uint32_t)(i + 1) * (uint32_t)p->h2);
  return c < 0 ? ~c : c;
}

hl_status_t hl_hbloom_test(const uint8_t *data, size_t len, uint64_t hash, bool *out,
                           hl_error_t *err) {
  probe_t p;
  if (setup(data, len, hash, &p, err) != HL_OK) return HL_ERROR;
  size_t base = block_base(&p);
  *out = true;
  for (int i = 1; i <= p.k; i++) {
    int32_t c = combined(&p, i);
    size_t w = base + (size_t)(c & 7);
    int bit = (int)(((uint32_t)c >> 3) & 63);
    if (!(data[bit_byte(w, bit)] & (1u << (bit % 8)))) {
      *out = false;
      break;
    }
  }
  return HL_OK;
}

void hl_hbloom_add(uint8_t *data, size_t len, uint64_t hash) {
  probe_t p;
  hl_error_t err;
  hl_err_init(&err);
  if (setup(data, len, hash, &p, &err) != HL_OK) {
    hl_err_clear(&err);
    return;
  }
  size_t base = block_base(&p);
  for (int i = 1; i <= p.k; i++) {
    int32_t c = combined(&p, i);
    size_t w = base + (size_t)(c & 7);
    int bit = (int)(((uint32_t)c >> 3) & 63);
    data[bit_byte(w, bit)] |= (uint8_t)(1u << (bit % 8));
  }
}

hl_status_t hl_hbloom_shape(int64_t entries, int *k, uint32_t *n_longs, hl_error_t *err) {
  if (entries <= 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "bloom_filter: expectedEntries should be > 0");
  double ln2 = log(2.0);
  /* DEFAULT_FPP is the float 0.05f, widened to a double for Math.log */
  int64_t bits = hl_java_d2l((double)-entries * log((double)0.05f) / (ln2 * ln2));
  *k = (int)hl_java_round((double)bits / (double)entries * ln2);
  if (*k < 1) *k = 1;
  int64_t longs = (int64_t)ceil((double)bits / 64.0);
  longs += 8 - longs % 8;
  if (longs > INT32_MAX - 7)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "bloom_filter: a filter for %lld entries has more longs than Hive's int "
                      "count allows",
                      (long long)entries);
  *n_longs = (uint32_t)longs;
  return HL_OK;
}

uint64_t hl_hbloom_hash(const hl_type_t *t, const hl_value_t *v) {
  switch (t->id) {
  case HL_T_BOOLEAN:
    return hl_murmur3_64_long(v->u.b ? 1 : 0);
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    return hl_murmur3_64_long(hl_java_double_bits(v->u.d));
  case HL_T_TIMESTAMP:
    return hl_murmur3_64_long(hl_java_epoch_millis(v->u.i));
  case HL_T_CHAR: { /* HiveChar.getStrippedValue() */
    uint32_t n = v->u.s.len;
    while (n > 0 && v->u.s.ptr[n - 1] == ' ')
      n--;
    return hl_murmur3_64((const uint8_t *)(n ? v->u.s.ptr : ""), n);
  }
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_BINARY:
    return hl_murmur3_64((const uint8_t *)(v->u.s.len ? v->u.s.ptr : ""), v->u.s.len);
  default: /* TINYINT .. BIGINT, DATE */
    return hl_murmur3_64_long(v->u.i);
  }
}
