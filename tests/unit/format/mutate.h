/*
 * mutate.h -- damaged variants of good files for the readers' robustness
 * tests (test_pq_reader.c, test_orc_reader.c): truncations and flipped or
 * replaced bytes, half of them in the last 512 bytes where the footers
 * live.  Deterministic (xorshift), so a failure reproduces.
 */
#ifndef HL_TEST_MUTATE_H
#define HL_TEST_MUTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mutate_state = 0x9e3779b97f4a7c15u;
static inline uint64_t mutate_rnd(void) {
  mutate_state ^= mutate_state << 13;
  mutate_state ^= mutate_state >> 7;
  mutate_state ^= mutate_state << 17;
  return mutate_state;
}

/* Variant V of ORIG[0..len) (len > 0) into BUF: V < 40 truncates, other
 * variants change 1 to 4 bytes.  Returns the variant's length. */
static inline size_t mutate(const unsigned char *orig, size_t len, unsigned char *buf, int v) {
  memcpy(buf, orig, len);
  if (v < 40) return (size_t)(mutate_rnd() % len);
  int flips = 1 + (int)(mutate_rnd() % 4);
  for (int k = 0; k < flips; k++) {
    size_t pos = (mutate_rnd() & 1) ? len - 1 - (size_t)(mutate_rnd() % (len < 512 ? len : 512))
                                    : (size_t)(mutate_rnd() % len);
    buf[pos] ^= (unsigned char)(1u << (mutate_rnd() % 8));
    if (mutate_rnd() % 4 == 0) buf[pos] = (unsigned char)mutate_rnd();
  }
  return len;
}

/* Writes BUF[0..n) to PATH.  False on failure. */
static inline bool mutate_write(const char *path, const unsigned char *buf, size_t n) {
  FILE *o = fopen(path, "wb");
  if (!o) return false;
  bool ok = fwrite(buf, 1, n, o) == n;
  return fclose(o) == 0 && ok;
}

typedef struct mutate_counts {
  int seeds;    /* seed files read */
  int variants; /* variants tried */
  int errors;   /* READ returned non-zero */
  int unnamed;  /* READ returned < 0: an error that does not name the file */
} mutate_counts_t;

/* Writes 200 variants of each of the N_SEEDS files SEEDS[i] (their first
 * 64 KiB) to PATH in turn and calls READ(PATH, NAME) on each, where NAME
 * is PATH's base name; READ returns 0 (read), 1 (clean error) or -1 (an
 * error not naming the file).  PATH and its directory DIR are removed at
 * the end. */
static inline mutate_counts_t mutate_run(const char *const *seeds, int n_seeds, const char *dir,
                                         const char *path,
                                         int (*read)(const char *, const char *)) {
  static unsigned char orig[1 << 16], buf[1 << 16];
  mutate_counts_t c = {0, 0, 0, 0};
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  for (int s = 0; s < n_seeds; s++) {
    FILE *f = fopen(seeds[s], "rb");
    if (!f) continue;
    size_t len = fread(orig, 1, sizeof orig, f);
    fclose(f);
    if (len == 0) continue;
    c.seeds++;
    for (int v = 0; v < 200; v++) {
      size_t n = mutate(orig, len, buf, v);
      if (!mutate_write(path, buf, n)) break;
      int rc = read(path, name);
      c.variants++;
      c.errors += rc != 0;
      c.unnamed += rc < 0;
    }
  }
  remove(path);
  remove(dir);
  return c;
}

#endif
