/*
 * test_murmur3.c -- MurmurHash3 x64_128 (src/util/murmur3.c) against
 * Guava's Hashing.murmur3_128 (Debian libguava-java, run once to get these
 * values): prefixes of one sentence cover every tail length class and
 * more than one block, with seed 0 and DataSketches' 9001; and the long
 * and double conversions of DataSketches' update(long) / update(double).
 */
#include "test.h"

#include "util/murmur3.h"

static const char text[] = "The quick brown fox jumps over the lazy dog";

TEST(vectors) {
  static const struct {
    size_t len;
    uint64_t seed, h1, h2;
  } v[] = {
      {0, 0u, 0x0000000000000000ull, 0x0000000000000000ull},
      {1, 0u, 0x8c03777e9184689aull, 0x3ab5d6b4ba293e79ull},
      {5, 0u, 0x6f7aac75205270feull, 0x76f5ebd390dac61full},
      {8, 0u, 0x644baae4ad5b71cdull, 0x8eeef997e2881cdfull},
      {15, 0u, 0x48137cb864e39216ull, 0xfd7baf64397ad64bull},
      {16, 0u, 0x9d1244f4af9b32c4ull, 0x3d153c8b2c2a3aa6ull},
      {17, 0u, 0x91f96376e757e9aeull, 0x9b44e58dae83eb0cull},
      {31, 0u, 0x9b28b5ddd9c4c509ull, 0x0d3c1cb80fe2f964ull},
      {43, 0u, 0xe34bbc7bbc071b6cull, 0x7a433ca9c49a9347ull},
      {0, 9001u, 0x1e70a32266491bb9ull, 0x609736b252406b94ull},
      {1, 9001u, 0x6b150a01e827a305ull, 0x1d5bbf63a3b1ebfbull},
      {5, 9001u, 0x86734d1fda76ba0dull, 0x641ff7006be3890eull},
      {8, 9001u, 0x50e23750675a41a1ull, 0x4f78d247b232d330ull},
      {15, 9001u, 0x0ba11222f21a9ef9ull, 0x4b85821e57cf5cdeull},
      {16, 9001u, 0x7a0815dd125c8462ull, 0x0d98d46327d56a40ull},
      {17, 9001u, 0x42afb95d877c90d6ull, 0x141655b5e2b787d4ull},
      {31, 9001u, 0x8add36066c5c414cull, 0xd7c9821acea7a6a5ull},
      {43, 9001u, 0x2f67dcdbc56dbf23ull, 0x8a0a2fafd6b2155cull},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint64_t h[2];
    hl_murmur3_128(text, v[i].len, v[i].seed, h);
    CHECK(h[0] == v[i].h1);
    CHECK(h[1] == v[i].h2);
  }
}

TEST(items) {
  uint64_t h[2];
  hl_ds_hash_long(1, HL_DS_SEED, h);
  CHECK(h[0] == 0x0b430d7b96fbf22bull && h[1] == 0xe8ea0960d4246765ull);
  hl_ds_hash_long(-7, HL_DS_SEED, h);
  CHECK(h[0] == 0x4b43a143a5956bf1ull && h[1] == 0xb76a83ddc467622full);
  hl_ds_hash_double(1.5, HL_DS_SEED, h);
  CHECK(h[0] == 0x1ef2c71c6c2a8222ull && h[1] == 0x0fa301e478658a34ull);
  /* -0.0 hashes as 0.0, and every NaN as the canonical one */
  uint64_t z[2], nz[2], n1[2], n2[2];
  hl_ds_hash_double(0.0, HL_DS_SEED, z);
  hl_ds_hash_double(-0.0, HL_DS_SEED, nz);
  CHECK(z[0] == nz[0] && z[1] == nz[1]);
  double qnan = __builtin_nan(""), other = __builtin_nan("0x5");
  hl_ds_hash_double(qnan, HL_DS_SEED, n1);
  hl_ds_hash_double(-other, HL_DS_SEED, n2);
  CHECK(n1[0] == n2[0] && n1[1] == n2[1]);
  hl_ds_hash_long(0x7ff8000000000000ll, HL_DS_SEED, n2);
  CHECK(n1[0] == n2[0] && n1[1] == n2[1]);
}

int main(void) {
  RUN(vectors);
  RUN(items);
  return test_report();
}
