/*
 * hll.c -- HyperLogLog (see hll.h).
 *
 * Algorithm: P. Flajolet, E. Fusy, O. Gandouet, F. Meunier, "HyperLogLog:
 * the analysis of a near-optimal cardinality estimation algorithm", AofA
 * 2007.  The first P bits of a 64-bit hash pick a register; the register
 * keeps the largest rank (position of the first 1 bit, from 1) seen in the
 * remaining 64-P bits.  The estimate is alpha_m * m^2 / sum(2^-reg); below
 * 2.5 m with empty registers left it switches to linear counting
 * m * ln(m / zeros), as the paper prescribes.  With a 64-bit hash the
 * paper's large-range correction is unnecessary (Heule, Nunkesser, Hall,
 * "HyperLogLog in Practice", EDBT 2013, section 5.2).
 */
#include "util/hll.h"

#include <math.h>
#include <string.h>

void hl_hll_init(hl_hll_t *h) {
  memset(h->reg, 0, sizeof h->reg);
}

uint64_t hl_hll_hash(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t x = 0xcbf29ce484222325ULL; /* FNV-1a 64 offset basis */
  for (size_t i = 0; i < len; i++) {
    x ^= p[i];
    x *= 0x100000001b3ULL; /* FNV prime */
  }
  /* SplitMix64 finaliser: FNV alone leaves the high bits (the register
   * index) poorly mixed for short keys. */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

void hl_hll_add_hash(hl_hll_t *h, uint64_t hash) {
  uint32_t idx = (uint32_t)(hash >> (64 - HL_HLL_P));
  uint64_t rest = hash << HL_HLL_P; /* the remaining 64-P bits, left-aligned */
  uint8_t rank = rest ? (uint8_t)(__builtin_clzll(rest) + 1) : (uint8_t)(64 - HL_HLL_P + 1);
  if (rank > h->reg[idx]) h->reg[idx] = rank;
}

void hl_hll_add(hl_hll_t *h, const void *data, size_t len) {
  hl_hll_add_hash(h, hl_hll_hash(data, len));
}

void hl_hll_merge(hl_hll_t *dst, const hl_hll_t *src) {
  for (uint32_t i = 0; i < HL_HLL_REGISTERS; i++)
    if (src->reg[i] > dst->reg[i]) dst->reg[i] = src->reg[i];
}

uint64_t hl_hll_estimate(const hl_hll_t *h) {
  const double m = (double)HL_HLL_REGISTERS;
  double sum = 0;
  uint32_t zeros = 0;
  for (uint32_t i = 0; i < HL_HLL_REGISTERS; i++) {
    sum += ldexp(1.0, -(int)h->reg[i]);
    if (h->reg[i] == 0) zeros++;
  }
  if (zeros == HL_HLL_REGISTERS) return 0;
  double alpha = 0.7213 / (1.0 + 1.079 / m);
  double est = alpha * m * m / sum;
  if (est <= 2.5 * m && zeros > 0) est = m * log(m / (double)zeros);
  return (uint64_t)llround(est);
}
