/*
 * murmur3.c -- MurmurHash3 x64_128 (see murmur3.h).
 */
#include "util/murmur3.h"

#include "util/java_bits.h"

static inline uint64_t rotl64(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

static inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

/* little-endian 64-bit load of N <= 8 bytes (the tail zero-filled) */
static inline uint64_t load_le(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;)
    v = (v << 8) | p[i];
  return v;
}

void hl_murmur3_128(const void *data, size_t len, uint64_t seed, uint64_t out[2]) {
  const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
  const uint8_t *p = data;
  uint64_t h1 = seed, h2 = seed;
  size_t blocks = len / 16;
  for (size_t i = 0; i < blocks; i++, p += 16) {
    uint64_t k1 = load_le(p, 8), k2 = load_le(p + 8, 8);
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  size_t tail = len & 15;
  if (tail > 8) {
    uint64_t k2 = load_le(p + 8, tail - 8);
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  if (tail > 0) {
    uint64_t k1 = load_le(p, tail > 8 ? 8 : tail);
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= (uint64_t)len;
  h2 ^= (uint64_t)len;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  h2 += h1;
  out[0] = h1;
  out[1] = h2;
}

void hl_ds_hash_long(int64_t v, uint64_t seed, uint64_t out[2]) {
  uint8_t b[8];
  uint64_t u = (uint64_t)v;
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(u >> (8 * i));
  hl_murmur3_128(b, sizeof b, seed, out);
}

void hl_ds_hash_double(double d, uint64_t seed, uint64_t out[2]) {
  hl_ds_hash_long(hl_java_double_bits(d == 0.0 ? 0.0 : d), seed, out);
}
