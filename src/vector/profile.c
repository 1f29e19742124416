/*
 * profile.c -- one column's mergeable profile state (see profile.h).
 *
 * A state is in one of two modes.  EXACT: a hash table of every distinct
 * non-NULL value with its count (at most HL_PROF_EXACT_MAX; strings at most
 * HL_PROF_EXACT_BYTES of bytes); distinct, the most frequent values and the
 * quantiles are read from it exactly.  SKETCH: once a value would not fit,
 * the table is poured into a HyperLogLog (util/hll.h's registers at 2^12
 * rather than ANALYZE's 2^14, estimated
 * with Ertl's improved raw estimator, which has no bias over the whole
 * range, unlike the switch from linear counting), a Misra-Gries summary
 * and, for ordered types, a quantile sketch -- each table entry with its
 * count as weight, which is exactly what adding its rows one by one would
 * have left -- and the table is dropped.  Merges work the same way, so a
 * merge of exact states stays exact while the union fits.
 *
 * Everything else (count, nulls, min, max, sums, signs, lengths) is kept
 * in every mode.  Integer and decimal sums are exact in 192 bits; the
 * standard deviation is Chan's parallel form of Welford's update, per batch
 * (one pass for the batch's mean, one for its squares, then combined).
 *
 * Values are turned into 64- or 128-bit keys (lo, hi) once, outside the
 * per-row loops, by a switch on the column's kind: integers, DATE and
 * TIMESTAMP as int64, doubles as their bits (one NaN, -0.0 as 0), decimals
 * as the two halves of the unscaled int128, strings as their bytes (CHAR
 * without trailing blanks) in a pool.  Dictionary views of strings are
 * counted per dictionary entry first, so a batch costs one update per
 * distinct entry, not per row.
 *
 * Quantile sketch: levels h = 0, 1, ... hold items of weight 2^h, level 0
 * unsorted, the others sorted.  A level over its capacity is compacted:
 * sorted, every second item (starting at 0 or 1, a coin from a hash of the
 * level and its compaction count: deterministic, but not in step with
 * periodic data) moves up one level, an odd item out stays.  Capacities are
 * KLL's: the top level KLL_K, each one below 2/3 of the one above, at least
 * KLL_MINCAP, except level 0, which keeps KLL_L0 (1024) in memory so that
 * the sketch is exact up to 1024 values and sorts in chunks worth the
 * setup; the encoder compacts a copy until level 0 too is within KLL's
 * capacity, so a stored sketch holds at most about 3 KLL_K items.  A
 * compaction of a level moves its whole contents, so the error it adds to
 * any rank is at most one weight unit, of random sign.  Items are the
 * values as order-preserving uint64 keys: int64 with the sign bit flipped,
 * doubles by their IEEE bits (sign-folded).
 *
 * Encoding (version 2, little-endian): "HLPF", version, kind, type id,
 * precision, scale, flags, the total length (u32), the fields of the kind
 * (counts as varints), the mode's data, and an FNV-1a-32 checksum of
 * everything before it.  Sizes are what the catalog pays per partition and
 * column, so the data is coded for size: table keys in value order as
 * Rice-coded gaps (strings front-coded), counts Rice-coded; the
 * HyperLogLog's registers rANS-coded with their own histogram as the
 * model (about 2.7 bits a register instead of 6); the quantile sketch's
 * sorted levels as Rice-coded gaps; the summary pruned to HL_PROF_TOP_K
 * counters.  Version 1 states are rejected (XX001): PROFILE then reads
 * their partitions again.  The decoder checks every count and length
 * against the input left before it allocates, and the invariants the code
 * relies on: counts of the table sum to the non-NULL count, keys strictly
 * increasing and canonical, sketch weights summing to the count, levels
 * sorted and within the stored capacities, registers in range and matching
 * their histogram, padding bits zero.
 */
#include "vector/profile.h"

#include "util/mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KLL_K      128         /* the top level's capacity */
#define KLL_C      (2.0 / 3.0) /* each level below holds this much of the one above */
#define KLL_L0     1024
#define KLL_MINCAP 8
#define KLL_MAXL   64
#define KLL_LEVEL_LIMIT                                                                            \
  (2 * KLL_L0 + 8)                      /* no level ever holds more (decoder's bound)              \
                                         */
#define MG_CAP      (4 * HL_PROF_TOP_K) /* pruned to HL_PROF_TOP_K when full */
#define HLL_P       12                  /* 2^12 registers: 1.04 / 64 relative error */
#define HLL_M       (1u << HLL_P)
#define HLL_Q       (64 - HLL_P) /* rank bits: register values 0..HLL_Q+1 */
#define FMT_VERSION 2
#define CHUNK       HL_BATCH_CAP

enum kind { K_COMPLEX, K_BOOL, K_INT, K_F64, K_DEC, K_STR };

/* One value with its count in a table.  Strings: lo = offset in the pool,
 * hi = length. */
typedef struct ent {
  uint64_t h; /* hash of the key */
  uint64_t lo, hi;
  int64_t count;
} ent_t;

typedef struct ctab {
  ent_t *ents;
  uint32_t n, cap; /* entries, capacity */
  uint32_t *slots; /* open addressing: 0 empty, else entry index + 1 */
  uint32_t mask;   /* slots - 1 */
  char *pool;      /* string bytes */
  size_t pool_len, pool_cap, pool_max;
} ctab_t;

/* HyperLogLog registers (util/hll.h's layout at a precision of its own:
 * ANALYZE keeps 2^14). */
typedef struct hll {
  uint8_t reg[HLL_M]; /* max rank seen per bucket, 0 = empty */
} hll_t;

/* A growable sort / merge buffer. */
typedef struct scr {
  uint64_t *p;
  uint32_t cap;
} scr_t;

typedef struct kll {
  uint64_t n;    /* total weight */
  int H;         /* levels in use (>= 1) */
  int base;      /* the intake level: rows are pair-sampled up to it (below) */
  uint64_t samp; /* pair-sampling coins drawn so far */
  uint64_t *items[KLL_MAXL];
  uint32_t size[KLL_MAXL], alloc[KLL_MAXL];
  uint32_t ncomp[KLL_MAXL]; /* compactions so far (the coin's seed) */
} kll_t;

struct hl_prof_col {
  const hl_type_t *type;
  int kind;
  bool numeric;  /* mean, stddev, signs */
  bool ordered;  /* quantiles */
  bool is_char;  /* strip trailing blanks */
  bool is_bin;   /* lengths in bytes */
  bool dec_wide; /* DECIMAL > 18 digits: quantile keys are doubles */
  int64_t count, nulls;
  bool has_minmax;
  int64_t imin, imax; /* K_INT; K_BOOL as 0/1 */
  double dmin, dmax;
  __int128 xmin, xmax;
  char *smin, *smax; /* K_STR, heap */
  uint32_t smin_len, smax_len, smin_cap, smax_cap;
  unsigned __int128 sum_lo; /* exact sum (K_INT numeric, K_DEC), 192 bits */
  int64_t sum_hi;
  int64_t nmean; /* values in mean/m2 */
  double mean, m2;
  int64_t zeros, negatives, nans, infs;
  int64_t min_len, max_len, empties;
  uint64_t total_len;
  bool exact;
  ctab_t set; /* EXACT */
  hll_t *hll; /* SKETCH */
  ctab_t mg;
  kll_t kll;
  /* scratch */
  uint64_t *keys;             /* CHUNK ordered keys, then CHUNK int128 gathered decimals */
  scr_t scr;                  /* sort / merge buffer */
  uint32_t *dcount, *touched; /* per dictionary entry */
  uint32_t dcount_cap;
};

/* ------------------------------------------------------------------------
 * Hashing
 * ------------------------------------------------------------------------ */

static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

static inline uint64_t hash_fixed(uint64_t lo, uint64_t hi) {
  return mix64(lo ^ 0x9e3779b97f4a7c15ULL ^ (hi ? mix64(hi) : 0));
}

static uint64_t hash_bytes(const char *p, uint32_t len) {
  uint64_t h = 0x243f6a8885a308d3ULL ^ ((uint64_t)len * 0x9e3779b97f4a7c15ULL);
  while (len >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ (w * 0x9e3779b97f4a7c15ULL));
    h = ((h << 29) | (h >> 35)) * 0xbf58476d1ce4e5b9ULL;
    p += 8;
    len -= 8;
  }
  if (len) {
    uint64_t w = 0;
    memcpy(&w, p, len);
    h = (h ^ (w * 0x9e3779b97f4a7c15ULL));
    h = ((h << 29) | (h >> 35)) * 0xbf58476d1ce4e5b9ULL;
  }
  return mix64(h);
}

/* The first HLL_P bits of the hash pick a register, which keeps the
 * largest rank (position of the first 1 bit, from 1) of the other bits. */
static inline void hll_add(hll_t *h, uint64_t hash) {
  uint32_t idx = (uint32_t)(hash >> (64 - HLL_P));
  uint64_t rest = hash << HLL_P;
  uint8_t rank = rest ? (uint8_t)(__builtin_clzll(rest) + 1) : (uint8_t)(HLL_Q + 1);
  if (rank > h->reg[idx]) h->reg[idx] = rank;
}

static void hll_merge(hll_t *dst, const hll_t *src) {
  for (uint32_t i = 0; i < HLL_M; i++)
    if (src->reg[i] > dst->reg[i]) dst->reg[i] = src->reg[i];
}

/* ------------------------------------------------------------------------
 * Keys
 * ------------------------------------------------------------------------ */

static inline uint64_t dbl_key(double d) { /* canonical bits: one NaN, no -0 */
  if (d != d) return 0x7ff8000000000000ULL;
  if (d == 0) return 0;
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

static inline double key_dbl(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* Order-preserving uint64 of an int64 / a non-NaN double. */
static inline uint64_t ord_i64(int64_t v) {
  return (uint64_t)v ^ 0x8000000000000000ULL;
}
static inline int64_t unord_i64(uint64_t u) {
  return (int64_t)(u ^ 0x8000000000000000ULL);
}
static inline uint64_t ord_dbl(double d) {
  uint64_t u = dbl_key(d);
  return (u & 0x8000000000000000ULL) ? ~u : u | 0x8000000000000000ULL;
}
static inline double unord_dbl(uint64_t u) {
  return key_dbl((u & 0x8000000000000000ULL) ? u & ~0x8000000000000000ULL : ~u);
}

static inline __int128 dec_of(uint64_t lo, uint64_t hi) {
  return (__int128)(((unsigned __int128)hi << 64) | lo);
}

/* ------------------------------------------------------------------------
 * Count tables
 * ------------------------------------------------------------------------ */

static int ctab_init(ctab_t *t, uint32_t cap, size_t pool_max) {
  memset(t, 0, sizeof *t);
  uint32_t slots = 1;
  while (slots < 2 * cap)
    slots <<= 1;
  t->ents = hl_malloc(sizeof *t->ents * cap);
  t->slots = hl_calloc(slots, sizeof *t->slots);
  if (!t->ents || !t->slots) {
    hl_free(t->ents);
    hl_free(t->slots);
    memset(t, 0, sizeof *t);
    return -1;
  }
  t->cap = cap;
  t->mask = slots - 1;
  t->pool_max = pool_max;
  return 0;
}

static void ctab_fini(ctab_t *t) {
  hl_free(t->ents);
  hl_free(t->slots);
  hl_free(t->pool);
  memset(t, 0, sizeof *t);
}

static inline const char *ent_str(const ctab_t *t, const ent_t *e) {
  return t->pool ? t->pool + e->lo : ""; /* no pool yet: only empty strings */
}

/* Finds the entry of a key; returns its index or -1, and the free slot
 * where it would go in *slot. */
static inline int64_t ctab_find(const ctab_t *t, bool str, uint64_t h, uint64_t lo, uint64_t hi,
                                const char *s, uint32_t *slot) {
  uint32_t i = (uint32_t)h & t->mask;
  for (;;) {
    uint32_t e = t->slots[i];
    if (!e) {
      *slot = i;
      return -1;
    }
    const ent_t *x = &t->ents[e - 1];
    if (x->h == h) {
      if (str ? (x->hi == hi && (hi == 0 || memcmp(ent_str(t, x), s, hi) == 0))
              : (x->lo == lo && x->hi == hi))
        return e - 1;
    }
    i = (i + 1) & t->mask;
  }
}

/* Adds W to the key's count.  0 done, 1 the table is full (or its pool
 * is): nothing changed, -1 out of memory. */
static int ctab_add(ctab_t *t, bool str, uint64_t h, uint64_t lo, uint64_t hi, const char *s,
                    int64_t w) {
  uint32_t slot;
  int64_t e = ctab_find(t, str, h, lo, hi, s, &slot);
  if (e >= 0) {
    t->ents[e].count += w;
    return 0;
  }
  if (t->n == t->cap) return 1;
  if (str) {
    if (t->pool_len + hi > t->pool_max) return 1;
    if (t->pool_len + hi > t->pool_cap) {
      size_t nc = t->pool_cap ? t->pool_cap : 1024;
      while (nc < t->pool_len + hi)
        nc *= 2;
      if (nc > t->pool_max) nc = t->pool_max;
      char *np = hl_realloc(t->pool, nc ? nc : 1);
      if (!np) return -1;
      t->pool = np;
      t->pool_cap = nc;
    }
    if (hi) memcpy(t->pool + t->pool_len, s, hi);
    lo = t->pool_len;
    t->pool_len += hi;
  }
  ent_t *x = &t->ents[t->n];
  x->h = h;
  x->lo = lo;
  x->hi = hi;
  x->count = w;
  t->slots[slot] = ++t->n;
  return 0;
}

/* Rebuilds the slots (after entries were dropped). */
static void ctab_reindex(ctab_t *t) {
  memset(t->slots, 0, sizeof *t->slots * (t->mask + 1));
  for (uint32_t k = 0; k < t->n; k++) {
    uint32_t i = (uint32_t)t->ents[k].h & t->mask;
    while (t->slots[i])
      i = (i + 1) & t->mask;
    t->slots[i] = k + 1;
  }
}

/* The K-th largest (0-based) of A[0..n), K < n; A is reordered
 * (Hoare's selection). */
static int64_t kth_largest(int64_t *a, uint32_t n, uint32_t k) {
  uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    int64_t pivot = a[lo + (hi - lo) / 2];
    uint32_t i = lo, j = hi;
    while (i <= j) {
      while (a[i] > pivot)
        i++;
      while (a[j] < pivot)
        j--;
      if (i <= j) {
        int64_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        if (j == 0) break;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return a[k];
  }
  return a[k];
}

/* Misra-Gries prune (Agarwal et al., "Mergeable summaries", 2012):
 * subtracts the (k+1)-th largest count from every counter and drops those
 * left at zero or below, so at most k remain.  Independent of entry order. */
static void mg_prune(ctab_t *t) {
  if (t->n <= HL_PROF_TOP_K) return;
  int64_t counts[MG_CAP];
  for (uint32_t k = 0; k < t->n; k++)
    counts[k] = t->ents[k].count;
  int64_t cut = kth_largest(counts, t->n, HL_PROF_TOP_K);
  uint32_t out = 0;
  size_t pool = 0;
  for (uint32_t k = 0; k < t->n; k++) {
    ent_t e = t->ents[k];
    if (e.count <= cut) continue;
    e.count -= cut;
    if (t->pool_max) { /* strings: compact the pool in place (offsets only grow) */
      memmove(t->pool + pool, t->pool + e.lo, e.hi);
      e.lo = pool;
      pool += e.hi;
    }
    t->ents[out++] = e;
  }
  t->n = out;
  if (t->pool_max) t->pool_len = pool;
  ctab_reindex(t);
}

/* Adds to the summary, pruning when full.  0 or -1 (out of memory). */
static int mg_add(ctab_t *t, bool str, uint64_t h, uint64_t lo, uint64_t hi, const char *s,
                  int64_t w) {
  if (str && hi > HL_PROF_TOP_MAX_LEN) return 0;
  int rc = ctab_add(t, str, h, lo, hi, s, w);
  if (rc == 1) {
    mg_prune(t);
    rc = ctab_add(t, str, h, lo, hi, s, w);
  }
  return rc < 0 ? -1 : 0; /* after a prune there is room: at most k of 2k used */
}

/* ------------------------------------------------------------------------
 * Sorting uint64 keys: LSD radix by bytes, skipping bytes that are the
 * same in every key (small integers sort in two or three passes).
 * ------------------------------------------------------------------------ */

static void sort_u64(uint64_t *a, uint32_t n, uint64_t *tmp) {
  if (n < 64) {
    for (uint32_t i = 1; i < n; i++) {
      uint64_t x = a[i];
      uint32_t j = i;
      while (j && a[j - 1] > x) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return;
  }
  uint64_t all_or = 0, all_and = ~(uint64_t)0;
  for (uint32_t i = 0; i < n; i++) {
    all_or |= a[i];
    all_and &= a[i];
  }
  uint64_t diff = all_or ^ all_and;
  uint64_t *src = a, *dst = tmp;
  for (int shift = 0; shift < 64; shift += 8) {
    if (!((diff >> shift) & 0xff)) continue;
    uint32_t cnt[256] = {0};
    for (uint32_t i = 0; i < n; i++)
      cnt[(src[i] >> shift) & 0xff]++;
    uint32_t sum = 0;
    for (int b = 0; b < 256; b++) {
      uint32_t c = cnt[b];
      cnt[b] = sum;
      sum += c;
    }
    for (uint32_t i = 0; i < n; i++)
      dst[cnt[(src[i] >> shift) & 0xff]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, sizeof *a * n);
}

/* ------------------------------------------------------------------------
 * Quantile sketch
 * ------------------------------------------------------------------------ */

/* The capacity of level H.  In memory the intake levels (0, and BASE
 * once rows are pair-sampled) keep KLL_L0 items, so that rows are sorted
 * in chunks worth the setup; a STORED state (hl_prof_col_encode) holds
 * every level to KLL's capacity, which is what bounds its size. */
static uint32_t kll_cap(const kll_t *k, int h, bool stored) {
  if (!stored && (h == 0 || h == k->base)) return KLL_L0;
  double c = KLL_K;
  for (int i = h; i < k->H - 1; i++)
    c = c * KLL_C;
  uint32_t u = (uint32_t)c;
  return u < KLL_MINCAP ? KLL_MINCAP : u;
}

static int kll_reserve(kll_t *k, int h, uint32_t need) {
  if (need <= k->alloc[h]) return 0;
  uint32_t na = k->alloc[h] ? k->alloc[h] : 16;
  while (na < need)
    na *= 2;
  uint64_t *p = hl_realloc(k->items[h], sizeof *p * na);
  if (!p) return -1;
  k->items[h] = p;
  k->alloc[h] = na;
  return 0;
}

static void kll_fini(kll_t *k) {
  for (int h = 0; h < KLL_MAXL; h++)
    hl_free(k->items[h]);
  memset(k, 0, sizeof *k);
}

static int tmp_reserve(scr_t *s, uint32_t need) {
  if (need <= s->cap) return 0;
  uint32_t na = s->cap ? s->cap : 2048;
  while (na < need)
    na *= 2;
  uint64_t *p = hl_realloc(s->p, sizeof *p * na);
  if (!p) return -1;
  s->p = p;
  s->cap = na;
  return 0;
}

/* Merges sorted SRC[0..n) into sorted level H. */
static int kll_merge_sorted(kll_t *k, scr_t *t, int h, const uint64_t *src, uint32_t n) {
  uint32_t m = k->size[h];
  if (kll_reserve(k, h, m + n) || tmp_reserve(t, m + n)) return -1;
  uint64_t *a = k->items[h], *out = t->p;
  uint32_t i = 0, j = 0, o = 0;
  while (i < m && j < n)
    out[o++] = a[i] <= src[j] ? a[i++] : src[j++];
  while (i < m)
    out[o++] = a[i++];
  while (j < n)
    out[o++] = src[j++];
  memcpy(a, out, sizeof *a * o);
  k->size[h] = o;
  return 0;
}

/* Compacts level H into H + 1 (which must exist). */
static int kll_compact(kll_t *k, scr_t *t, int h) {
  uint32_t s = k->size[h];
  uint64_t *a = k->items[h];
  if (h == 0 || h == k->base) { /* the unsorted levels */
    if (tmp_reserve(t, s)) return -1;
    sort_u64(a, s, t->p);
  }
  uint32_t pairs = s / 2;
  uint32_t off = (uint32_t)(mix64(((uint64_t)h << 32) ^ k->ncomp[h] ^ 0x5bd1e995ULL) & 1);
  k->ncomp[h]++;
  /* the odd item out (the largest) stays; the chosen half goes up */
  uint32_t o = 0;
  for (uint32_t i = 0; i < pairs; i++)
    a[o++] = a[2 * i + off];
  uint64_t left = s & 1 ? a[s - 1] : 0;
  /* a[0..pairs) is sorted: merge it into the level above */
  if (kll_merge_sorted(k, t, h + 1, a, pairs)) return -1;
  k->size[h] = 0;
  if (s & 1) a[k->size[h]++] = left;
  return 0;
}

/* One pass up the levels, compacting each one over its capacity. */
static int kll_compress(kll_t *k, scr_t *t, bool stored) {
  for (int h = 0; h < k->H; h++) {
    if (k->size[h] <= kll_cap(k, h, stored)) continue;
    if (h + 1 == k->H) {
      if (k->H == KLL_MAXL) return -1; /* 2^63 rows: unreachable */
      k->H++;
    }
    if (kll_compact(k, t, h)) return -1;
  }
  return 0;
}

/* Inserts KEY into sorted level H. */
static int kll_put_sorted(kll_t *k, int h, uint64_t key) {
  if (kll_reserve(k, h, k->size[h] + 1)) return -1;
  uint64_t *a = k->items[h];
  uint32_t i = k->size[h]++;
  while (i && a[i - 1] > key) {
    a[i] = a[i - 1];
    i--;
  }
  a[i] = key;
  return 0;
}

/* Adds KEYS[0..n) of weight 1 (KEYS is scratch).  Past 2^21 rows, rows
 * are first pair-sampled up to the intake level BASE: each round keeps one
 * of every two adjacent keys (a coin) at twice the weight, an odd key out
 * stays at its level.  Weights stay exact; the error a round adds to a
 * rank has standard deviation about sqrt(n 2^h) / 2, so with 2^base <=
 * n / 2^20 sampling adds at most about 0.05 % of n, and the sorting
 * compactors see 2^base times fewer keys. */
static int kll_add(hl_prof_col_t *c, uint64_t *keys, uint32_t n) {
  kll_t *k = &c->kll;
  k->n += n;
  uint32_t m = n;
  for (int h = 0; h < k->base; h++) {
    if (m & 1) {
      m--;
      if (h == 0) {
        if (kll_reserve(k, 0, k->size[0] + 1)) return -1;
        k->items[0][k->size[0]++] = keys[m];
      } else if (kll_put_sorted(k, h, keys[m])) {
        return -1;
      }
    }
    uint64_t bits = 0;
    for (uint32_t i = 0; i < m / 2; i++) {
      if (!(i & 63)) bits = mix64(k->samp++ ^ 0xa0761d6478bd642fULL);
      keys[i] = keys[2 * i + (bits & 1)];
      bits >>= 1;
    }
    m /= 2;
  }
  int b = k->base;
  while (m) {
    uint32_t room = KLL_L0 + 1 - k->size[b];
    uint32_t take = m < room ? m : room;
    if (kll_reserve(k, b, k->size[b] + take)) return -1;
    memcpy(k->items[b] + k->size[b], keys, sizeof *keys * take);
    k->size[b] += take;
    keys += take;
    m -= take;
    if (k->size[b] > KLL_L0 && kll_compress(k, &c->scr, false)) return -1;
  }
  if (kll_compress(k, &c->scr, false)) return -1;
  while (b + 2 < KLL_MAXL && (k->n >> (21 + b)) != 0) { /* 2^(b+1) <= n / 2^20 */
    if (b > 0) { /* the old intake level is a sorted level from now on */
      if (tmp_reserve(&c->scr, k->size[b])) return -1;
      sort_u64(k->items[b], k->size[b], c->scr.p);
    }
    k->base = ++b;
    if (k->H < b + 1) k->H = b + 1;
  }
  return 0;
}

/* Adds one key of weight W: one item at each level of a bit of W.  The
 * levels above 0 are left unsorted: the caller calls kll_settle. */
static int kll_add_weighted(hl_prof_col_t *c, uint64_t key, int64_t w) {
  kll_t *k = &c->kll;
  for (int h = 0; w; h++, w >>= 1) {
    if (!(w & 1)) continue;
    if (h >= k->H) k->H = h + 1;
    if (kll_reserve(k, h, k->size[h] + 1)) return -1;
    k->items[h][k->size[h]++] = key;
    k->n += (uint64_t)1 << h;
  }
  return 0;
}

/* Compresses until every level is within its capacity (the levels above
 * 0 and BASE sorted). */
static int kll_fit(kll_t *k, scr_t *t, bool stored) {
  for (int round = 0; round < KLL_MAXL * 2; round++) {
    bool over = false;
    for (int h = 0; h < k->H; h++)
      over = over || k->size[h] > kll_cap(k, h, stored);
    if (!over) break;
    if (kll_compress(k, t, stored)) return -1;
  }
  return 0;
}

/* Sorts the levels above 0 and compresses (after weighted adds and
 * merges, which append). */
static int kll_settle(hl_prof_col_t *c) {
  kll_t *k = &c->kll;
  for (int h = 1; h < k->H; h++) {
    if (tmp_reserve(&c->scr, k->size[h])) return -1;
    sort_u64(k->items[h], k->size[h], c->scr.p);
  }
  return kll_fit(k, &c->scr, false);
}

static int kll_merge(hl_prof_col_t *c, const kll_t *s) {
  kll_t *k = &c->kll;
  if (s->H > k->H) k->H = s->H;
  if (s->base > k->base) k->base = s->base;
  for (int h = 0; h < s->H; h++) {
    k->ncomp[h] += s->ncomp[h];
    if (!s->size[h]) continue;
    if (kll_reserve(k, h, k->size[h] + s->size[h])) return -1;
    memcpy(k->items[h] + k->size[h], s->items[h], sizeof(uint64_t) * s->size[h]);
    k->size[h] += s->size[h];
  }
  k->n += s->n;
  k->samp += s->samp;
  return kll_settle(c); /* sorts the levels, then compacts */
}

/* DST = a copy of SRC (DST empty).  -1: out of memory (DST then holds
 * what it took: kll_fini it). */
static int kll_copy(kll_t *dst, const kll_t *src) {
  *dst = *src;
  for (int h = 0; h < KLL_MAXL; h++) {
    dst->items[h] = NULL;
    dst->alloc[h] = 0;
  }
  for (int h = 0; h < src->H; h++) {
    if (!src->size[h]) continue;
    if (kll_reserve(dst, h, src->size[h])) return -1;
    memcpy(dst->items[h], src->items[h], sizeof(uint64_t) * src->size[h]);
  }
  return 0;
}

typedef struct wkey {
  uint64_t key;
  uint64_t w;
} wkey_t;

static int cmp_wkey(const void *a, const void *b) {
  uint64_t x = ((const wkey_t *)a)->key, y = ((const wkey_t *)b)->key;
  return x < y ? -1 : x > y;
}

/* The keys at sorted positions floor(q * (N - 1)) of the weighted items
 * A[0..n) (sorted here), for Q in QS[0..3). */
static void weighted_quantiles(wkey_t *a, size_t n, uint64_t out[3]) {
  static const double qs[3] = {0.25, 0.5, 0.75};
  qsort(a, n, sizeof *a, cmp_wkey);
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += a[i].w;
  for (int q = 0; q < 3; q++) {
    uint64_t target = (uint64_t)floor(qs[q] * (double)(total - 1));
    uint64_t cum = 0;
    out[q] = n ? a[n - 1].key : 0;
    for (size_t i = 0; i < n; i++) {
      cum += a[i].w;
      if (cum > target) {
        out[q] = a[i].key;
        break;
      }
    }
  }
}

/* ------------------------------------------------------------------------
 * State
 * ------------------------------------------------------------------------ */

static int kind_of(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_BOOLEAN:
    return K_BOOL;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
    return K_INT;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    return K_F64;
  case HL_T_DECIMAL:
    return K_DEC;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY:
    return K_STR;
  default:
    return K_COMPLEX;
  }
}

static bool has_table(const hl_prof_col_t *c) {
  return c->kind != K_COMPLEX;
}

static int set_init(hl_prof_col_t *c) {
  return ctab_init(&c->set, HL_PROF_EXACT_MAX, c->kind == K_STR ? HL_PROF_EXACT_BYTES : 0);
}

hl_prof_col_t *hl_prof_col_new(const hl_type_t *type, hl_error_t *err) {
  hl_prof_col_t *c = hl_calloc(1, sizeof *c);
  if (!c) {
    hl_err_nomem(err);
    return NULL;
  }
  c->type = type;
  c->kind = kind_of(type);
  c->numeric = hl_type_is_numeric(type);
  c->ordered = c->kind == K_INT || c->kind == K_F64 || c->kind == K_DEC;
  c->is_char = type->id == HL_T_CHAR;
  c->is_bin = type->id == HL_T_BINARY;
  c->dec_wide = c->kind == K_DEC && type->precision > 18;
  c->exact = true;
  c->kll.H = 1;
  if (has_table(c)) {
    c->keys = hl_malloc(sizeof *c->keys * CHUNK * 3); /* keys, then int128 values */
    if (!c->keys || set_init(c)) {
      hl_prof_col_free(c);
      hl_err_nomem(err);
      return NULL;
    }
  }
  return c;
}

void hl_prof_col_free(hl_prof_col_t *c) {
  if (!c) return;
  ctab_fini(&c->set);
  ctab_fini(&c->mg);
  hl_free(c->hll);
  kll_fini(&c->kll);
  hl_free(c->smin);
  hl_free(c->smax);
  hl_free(c->keys);
  hl_free(c->scr.p);
  hl_free(c->dcount);
  hl_free(c->touched);
  hl_free(c);
}

/* The ordered quantile key of a table key. */
static uint64_t qkey(const hl_prof_col_t *c, uint64_t lo, uint64_t hi) {
  switch (c->kind) {
  case K_INT:
    return ord_i64((int64_t)lo);
  case K_F64:
    return ord_dbl(key_dbl(lo));
  case K_DEC:
    return c->dec_wide ? ord_dbl((double)dec_of(lo, hi)) : ord_i64((int64_t)lo);
  default:
    return 0;
  }
}

/* Adds one value (as a table key) of weight W to the sketches. */
static int sketch_add_key(hl_prof_col_t *c, uint64_t h, uint64_t lo, uint64_t hi, const char *s,
                          int64_t w) {
  hll_add(c->hll, h);
  return mg_add(&c->mg, c->kind == K_STR, h, lo, hi, s, w);
}

/* EXACT -> SKETCH: every table entry with its count as weight. */
static int to_sketch(hl_prof_col_t *c) {
  c->hll = hl_malloc(sizeof *c->hll);
  if (!c->hll) return -1;
  memset(c->hll, 0, sizeof *c->hll);
  if (ctab_init(&c->mg, MG_CAP, c->kind == K_STR ? MG_CAP * HL_PROF_TOP_MAX_LEN : 0)) return -1;
  const ctab_t *t = &c->set;
  for (uint32_t i = 0; i < t->n; i++) {
    const ent_t *e = &t->ents[i];
    if (sketch_add_key(c, e->h, e->lo, e->hi, c->kind == K_STR ? ent_str(t, e) : NULL, e->count))
      return -1;
    bool nan = c->kind == K_F64 && e->lo == 0x7ff8000000000000ULL;
    if (c->ordered && !nan && kll_add_weighted(c, qkey(c, e->lo, e->hi), e->count)) return -1;
  }
  if (c->ordered && kll_settle(c)) return -1;
  ctab_fini(&c->set);
  c->exact = false;
  return 0;
}

/* Adds one value of weight W to the distinct/frequency structures.  0 or
 * -1 (out of memory). */
static int value_add(hl_prof_col_t *c, uint64_t h, uint64_t lo, uint64_t hi, const char *s,
                     int64_t w) {
  if (c->exact) {
    int rc = ctab_add(&c->set, c->kind == K_STR, h, lo, hi, s, w);
    if (rc <= 0) return rc;
    if (to_sketch(c)) return -1;
    /* the value that did not fit: the quantile sketch too (the caller's
     * next values go there directly) */
    bool nan = c->kind == K_F64 && lo == 0x7ff8000000000000ULL;
    if (c->ordered && !nan && (kll_add_weighted(c, qkey(c, lo, hi), w) || kll_settle(c))) return -1;
  }
  return sketch_add_key(c, h, lo, hi, s, w);
}

static void chan(hl_prof_col_t *c, int64_t nb, double mb, double m2b) {
  if (!nb) return;
  if (!c->nmean) {
    c->nmean = nb;
    c->mean = mb;
    c->m2 = m2b;
    return;
  }
  double na = (double)c->nmean, n = na + (double)nb;
  double delta = mb - c->mean;
  c->mean += delta * (double)nb / n;
  c->m2 += m2b + delta * delta * na * (double)nb / n;
  c->nmean += nb;
}

static void sum_add(hl_prof_col_t *c, __int128 v) {
  unsigned __int128 old = c->sum_lo;
  c->sum_lo += (unsigned __int128)v;
  c->sum_hi = (int64_t)((uint64_t)c->sum_hi + (c->sum_lo < old) - (v < 0 ? 1u : 0u));
}

static double sum_double(const hl_prof_col_t *c) {
  /* the 192-bit two's complement value hi * 2^128 + lo, converted by its
   * magnitude: for a negative sum hi is -1 and lo near 2^128, and
   * -2^128 + (double)lo cancels to 0 (or a multiple of 2^76) */
  unsigned __int128 lo = c->sum_lo;
  uint64_t hi = (uint64_t)c->sum_hi;
  bool neg = c->sum_hi < 0;
  if (neg) { /* two's complement negation of the 192 bits */
    lo = ~lo + 1;
    hi = ~hi + (lo == 0);
  }
  double m = (double)hi * 0x1p128 + (double)lo;
  return neg ? -m : m;
}

/* ---- per kind: V's live non-NULL values gathered into c->keys ---- */

/* Integers (K_INT) of one chunk. */
static int add_ints(hl_prof_col_t *c, const int64_t *x, uint32_t m) {
  if (!m) return 0;
  int64_t lo = x[0], hi = x[0];
  __int128 s = 0;
  int64_t zeros = 0, neg = 0;
  for (uint32_t i = 0; i < m; i++) {
    int64_t v = x[i];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    s += v;
    zeros += v == 0;
    neg += v < 0;
  }
  if (!c->has_minmax || lo < c->imin) c->imin = lo;
  if (!c->has_minmax || hi > c->imax) c->imax = hi;
  c->has_minmax = true;
  if (c->numeric) {
    double mb = (double)s / (double)m, m2b = 0;
    for (uint32_t i = 0; i < m; i++) {
      double d = (double)x[i] - mb;
      m2b += d * d;
    }
    chan(c, m, mb, m2b);
    sum_add(c, s);
    c->zeros += zeros;
    c->negatives += neg;
  }
  if (c->exact) {
    uint32_t i = 0;
    while (i < m && c->exact) { /* runs of one value are one update */
      int64_t v = x[i];
      uint32_t j = i + 1;
      while (j < m && x[j] == v)
        j++;
      if (value_add(c, hash_fixed((uint64_t)v, 0), (uint64_t)v, 0, NULL, j - i)) return -1;
      i = j;
    }
    if (c->exact) return 0;
    /* switched in this chunk: the values so far are in the sketches */
    x += i;
    m -= i;
  }
  for (uint32_t i = 0; i < m; i++) {
    uint64_t v = (uint64_t)x[i];
    uint64_t h = hash_fixed(v, 0);
    hll_add(c->hll, h);
    if (mg_add(&c->mg, false, h, v, 0, NULL, 1)) return -1;
    c->keys[i] = ord_i64((int64_t)v);
  }
  return kll_add(c, c->keys, m);
}

static int add_doubles(hl_prof_col_t *c, const double *x, uint32_t m) {
  if (!m) return 0;
  double lo = INFINITY, hi = -INFINITY, s = 0;
  int64_t nf = 0, zeros = 0, neg = 0, nans = 0, infs = 0;
  for (uint32_t i = 0; i < m; i++) {
    double v = x[i];
    if (v != v) {
      nans++;
      continue;
    }
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    zeros += v == 0;
    neg += v < 0;
    if (isinf(v)) {
      infs++;
      continue;
    }
    s += v;
    nf++;
  }
  if (nans < (int64_t)m) {
    if (!c->has_minmax || lo < c->dmin) c->dmin = lo;
    if (!c->has_minmax || hi > c->dmax) c->dmax = hi;
    if (c->dmin == 0) c->dmin = 0.0; /* -0.0 is 0 */
    if (c->dmax == 0) c->dmax = 0.0;
    c->has_minmax = true;
  }
  if (nf) {
    double mb = s / (double)nf, m2b = 0;
    for (uint32_t i = 0; i < m; i++) {
      double d = x[i] - mb;
      if (isfinite(x[i])) m2b += d * d;
    }
    chan(c, nf, mb, m2b);
  }
  c->zeros += zeros;
  c->negatives += neg;
  c->nans += nans;
  c->infs += infs;
  uint32_t i = 0;
  if (c->exact) {
    while (i < m && c->exact) {
      uint64_t k = dbl_key(x[i]);
      uint32_t j = i + 1;
      while (j < m && dbl_key(x[j]) == k)
        j++;
      if (value_add(c, hash_fixed(k, 0), k, 0, NULL, j - i)) return -1;
      i = j;
    }
    if (c->exact) return 0;
  }
  uint32_t nk = 0;
  for (; i < m; i++) {
    uint64_t k = dbl_key(x[i]);
    uint64_t h = hash_fixed(k, 0);
    hll_add(c->hll, h);
    if (mg_add(&c->mg, false, h, k, 0, NULL, 1)) return -1;
    if (x[i] == x[i]) c->keys[nk++] = ord_dbl(x[i]);
  }
  return kll_add(c, c->keys, nk);
}

static int add_decimals(hl_prof_col_t *c, const __int128 *x, uint32_t m) {
  if (!m) return 0;
  __int128 lo = x[0], hi = x[0];
  double s = 0;
  for (uint32_t i = 0; i < m; i++) {
    __int128 v = x[i];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    sum_add(c, v);
    s += (double)v;
    c->zeros += v == 0;
    c->negatives += v < 0;
  }
  if (!c->has_minmax || lo < c->xmin) c->xmin = lo;
  if (!c->has_minmax || hi > c->xmax) c->xmax = hi;
  c->has_minmax = true;
  double mb = s / (double)m, m2b = 0;
  for (uint32_t i = 0; i < m; i++) {
    double d = (double)x[i] - mb;
    m2b += d * d;
  }
  chan(c, m, mb, m2b);
  uint32_t i = 0;
  if (c->exact) {
    while (i < m && c->exact) {
      __int128 v = x[i];
      uint32_t j = i + 1;
      while (j < m && x[j] == v)
        j++;
      uint64_t l = (uint64_t)v, u = (uint64_t)((unsigned __int128)v >> 64);
      if (value_add(c, hash_fixed(l, u), l, u, NULL, j - i)) return -1;
      i = j;
    }
    if (c->exact) return 0;
  }
  uint32_t nk = 0;
  for (; i < m; i++) {
    uint64_t l = (uint64_t)x[i], u = (uint64_t)((unsigned __int128)x[i] >> 64);
    uint64_t h = hash_fixed(l, u);
    hll_add(c->hll, h);
    if (mg_add(&c->mg, false, h, l, u, NULL, 1)) return -1;
    c->keys[nk++] = qkey(c, l, u);
  }
  return kll_add(c, c->keys, nk);
}

static uint32_t utf8_chars(const char *p, uint32_t n) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    k += ((unsigned char)p[i] & 0xc0) != 0x80;
  return k;
}

static int keep_str(char **dst, uint32_t *dlen, uint32_t *dcap, const char *s, uint32_t len) {
  if (len > *dcap || !*dst) {
    uint32_t nc = len > 16 ? len : 16;
    char *p = hl_realloc(*dst, nc);
    if (!p) return -1;
    *dst = p;
    *dcap = nc;
  }
  if (len) memcpy(*dst, s, len);
  *dlen = len;
  return 0;
}

static int cmp_bytes(const char *a, uint32_t la, const char *b, uint32_t lb) {
  uint32_t n = la < lb ? la : lb;
  int r = n ? memcmp(a, b, n) : 0;
  if (r) return r < 0 ? -1 : 1;
  return la < lb ? -1 : la > lb;
}

/* One string value of weight W (CHAR already without trailing blanks). */
static int str_add(hl_prof_col_t *c, const char *s, uint32_t len, int64_t w) {
  int64_t l = c->is_bin ? (int64_t)len : (int64_t)utf8_chars(s, len);
  if (!c->has_minmax || l < c->min_len) c->min_len = l;
  if (!c->has_minmax || l > c->max_len) c->max_len = l;
  c->total_len += (uint64_t)l * (uint64_t)w;
  if (!len) c->empties += w;
  if (!c->has_minmax || cmp_bytes(s, len, c->smin, c->smin_len) < 0)
    if (keep_str(&c->smin, &c->smin_len, &c->smin_cap, s, len)) return -1;
  if (!c->has_minmax || cmp_bytes(s, len, c->smax, c->smax_len) > 0)
    if (keep_str(&c->smax, &c->smax_len, &c->smax_cap, s, len)) return -1;
  c->has_minmax = true;
  return value_add(c, hash_bytes(s, len), 0, len, s, w);
}

static inline uint32_t char_len(const hl_prof_col_t *c, const char *s, uint32_t len) {
  if (c->is_char)
    while (len && s[len - 1] == ' ')
      len--;
  return len;
}

static int add_strings(hl_prof_col_t *c, const hl_vec_t *v, const uint32_t *sel, uint32_t n) {
  const hl_str_t *d = HL_VEC_STR(v);
  if (v->dict && v->dict_idx && v->dict_n <= (1u << 22)) {
    if (v->dict_n > c->dcount_cap) {
      uint32_t nc = v->dict_n < 1024 ? 1024 : v->dict_n;
      uint32_t *dc = hl_calloc(nc, sizeof *dc), *tc = hl_malloc(sizeof *tc * nc);
      if (!dc || !tc) {
        hl_free(dc);
        hl_free(tc);
        return -1;
      }
      hl_free(c->dcount);
      hl_free(c->touched);
      c->dcount = dc;
      c->touched = tc;
      c->dcount_cap = nc;
    }
    uint32_t nt = 0;
    const uint32_t *idx = v->dict_idx;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t r = sel ? sel[i] : i;
      if (hl_vec_is_null(v, r)) continue;
      uint32_t k = idx[r];
      if (k >= v->dict_n) { /* not for a valid row (vector.h); the plain string then */
        const hl_str_t *s = &d[r];
        if (str_add(c, s->ptr, char_len(c, s->ptr, s->len), 1)) return -1;
        continue;
      }
      if (!c->dcount[k]++) c->touched[nt++] = k;
    }
    int rc = 0;
    for (uint32_t t = 0; t < nt; t++) {
      uint32_t k = c->touched[t];
      if (!rc) {
        const hl_str_t *s = &v->dict[k];
        rc = str_add(c, s->ptr, char_len(c, s->ptr, s->len), c->dcount[k]);
      }
      c->dcount[k] = 0;
    }
    return rc;
  }
  const char *prev = NULL;
  uint32_t prev_len = 0;
  int64_t w = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : i;
    if (hl_vec_is_null(v, r)) continue;
    const hl_str_t *s = &d[r];
    if (w && s->ptr == prev && s->len == prev_len) { /* constant columns share one copy */
      w++;
      continue;
    }
    if (w && str_add(c, prev, char_len(c, prev, prev_len), w)) return -1;
    prev = s->ptr;
    prev_len = s->len;
    w = 1;
  }
  if (w && str_add(c, prev, char_len(c, prev, prev_len), w)) return -1;
  return 0;
}

static int add_bools(hl_prof_col_t *c, const hl_vec_t *v, const uint32_t *sel, uint32_t n) {
  const uint8_t *d = HL_VEC_BOOL(v);
  int64_t t = 0, f = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : i;
    if (hl_vec_is_null(v, r)) continue;
    if (d[r])
      t++;
    else
      f++;
  }
  if (f && value_add(c, hash_fixed(0, 0), 0, 0, NULL, f)) return -1;
  if (t && value_add(c, hash_fixed(1, 0), 1, 0, NULL, t)) return -1;
  if (t || f) {
    int64_t lo = f ? 0 : 1, hi = t ? 1 : 0;
    if (!c->has_minmax || lo < c->imin) c->imin = lo;
    if (!c->has_minmax || hi > c->imax) c->imax = hi;
    c->has_minmax = true;
  }
  return 0;
}

hl_status_t hl_prof_col_add(hl_prof_col_t *c, const hl_vec_t *v, const uint32_t *sel, uint32_t n,
                            hl_error_t *err) {
  uint32_t nulls = 0;
  if (v->validity) {
    for (uint32_t i = 0; i < n; i++)
      nulls += hl_vec_is_null(v, sel ? sel[i] : i);
  }
  c->count += n;
  c->nulls += nulls;
  if (nulls == n) return HL_OK;
  int rc = 0;
  switch (c->kind) {
  case K_COMPLEX:
    return HL_OK;
  case K_BOOL:
    rc = add_bools(c, v, sel, n);
    break;
  case K_STR:
    rc = add_strings(c, v, sel, n);
    break;
  case K_INT:
  case K_F64:
  case K_DEC:
    for (uint32_t at = 0; at < n && !rc; at += CHUNK) {
      uint32_t len = n - at < CHUNK ? n - at : CHUNK;
      const uint32_t *s = sel ? sel + at : NULL;
      if (c->kind == K_DEC) {
        const __int128 *x = HL_VEC_I128(v);
        /* gathered behind the CHUNK keys add_decimals writes */
        __int128 *g = (__int128 *)(void *)(c->keys + CHUNK);
        uint32_t m = 0;
        for (uint32_t i = 0; i < len; i++) {
          uint32_t r = s ? s[i] : at + i;
          if (!hl_vec_is_null(v, r)) g[m++] = x[r];
        }
        rc = add_decimals(c, g, m);
        continue;
      }
      /* int64 and double share a layout: direct when all live and valid */
      const uint64_t *x = (const uint64_t *)v->data;
      const uint64_t *vals;
      uint64_t gath[CHUNK];
      if (!s && !v->validity) {
        vals = x + at;
      } else {
        uint32_t m = 0;
        for (uint32_t i = 0; i < len; i++) {
          uint32_t r = s ? s[i] : at + i;
          if (!hl_vec_is_null(v, r)) gath[m++] = x[r];
        }
        len = m;
        vals = gath;
      }
      rc = c->kind == K_INT ? add_ints(c, (const int64_t *)vals, len)
                            : add_doubles(c, (const double *)vals, len);
    }
    break;
  }
  if (rc) return hl_err_nomem(err);
  return HL_OK;
}

/* SUM += V * W exactly (W < 2^56, so |V * W| < 2^183 fits the 192 bits):
 * the magnitude's two 64-bit halves times W, carried. */
static void sum_add_times(hl_prof_col_t *c, __int128 v, int64_t w) {
  bool neg = v < 0;
  unsigned __int128 a = neg ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
  unsigned __int128 lo = (unsigned __int128)(uint64_t)a * (uint64_t)w;
  unsigned __int128 mid = (unsigned __int128)(uint64_t)(a >> 64) * (uint64_t)w + (lo >> 64);
  unsigned __int128 p_lo = (lo & UINT64_MAX) | (mid << 64);
  uint64_t p_hi = (uint64_t)(mid >> 64);
  if (neg) { /* two's complement negation of the 192-bit product */
    p_lo = ~p_lo + 1;
    p_hi = ~p_hi + (p_lo == 0);
  }
  unsigned __int128 old = c->sum_lo;
  c->sum_lo += p_lo;
  c->sum_hi = (int64_t)((uint64_t)c->sum_hi + p_hi + (c->sum_lo < old));
}

hl_status_t hl_prof_col_add_repeat(hl_prof_col_t *c, const hl_value_t *v, int64_t n_values,
                                   int64_t n_nulls, hl_error_t *err) {
  if (n_values < 0 || n_nulls < 0 || n_values > HL_PROF_MAX_ROWS - n_nulls ||
      n_values + n_nulls > HL_PROF_MAX_ROWS - c->count)
    return hl_err_set(err, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
                      "a column profile cannot count more than 2^56 rows");
  c->count += n_values + n_nulls;
  c->nulls += n_nulls;
  if (!n_values || c->kind == K_COMPLEX) return HL_OK;
  int64_t w = n_values;
  bool was_exact = c->exact;
  int rc = 0;
  uint64_t lo = 0, hi = 0;
  bool ordered = false; /* a key for the quantile sketch */
  switch (c->kind) {
  case K_BOOL: {
    int64_t b = v->u.b ? 1 : 0;
    if (!c->has_minmax || b < c->imin) c->imin = b;
    if (!c->has_minmax || b > c->imax) c->imax = b;
    c->has_minmax = true;
    rc = value_add(c, hash_fixed((uint64_t)b, 0), (uint64_t)b, 0, NULL, w);
    break;
  }
  case K_INT: {
    int64_t x = v->u.i;
    if (!c->has_minmax || x < c->imin) c->imin = x;
    if (!c->has_minmax || x > c->imax) c->imax = x;
    c->has_minmax = true;
    if (c->numeric) {
      chan(c, w, (double)x, 0);
      sum_add_times(c, x, w);
      c->zeros += x == 0 ? w : 0;
      c->negatives += x < 0 ? w : 0;
    }
    lo = (uint64_t)x;
    ordered = true;
    rc = value_add(c, hash_fixed(lo, 0), lo, 0, NULL, w);
    break;
  }
  case K_F64: {
    double x = v->u.d;
    uint64_t k = dbl_key(x);
    if (x != x) {
      c->nans += w;
    } else {
      if (!c->has_minmax || x < c->dmin) c->dmin = x;
      if (!c->has_minmax || x > c->dmax) c->dmax = x;
      if (c->dmin == 0) c->dmin = 0.0; /* -0.0 is 0 */
      if (c->dmax == 0) c->dmax = 0.0;
      c->has_minmax = true;
      c->zeros += x == 0 ? w : 0;
      c->negatives += x < 0 ? w : 0;
      if (isinf(x))
        c->infs += w;
      else
        chan(c, w, x, 0);
      ordered = true;
    }
    lo = k;
    rc = value_add(c, hash_fixed(k, 0), k, 0, NULL, w);
    break;
  }
  case K_DEC: {
    __int128 x = v->u.dec;
    if (!c->has_minmax || x < c->xmin) c->xmin = x;
    if (!c->has_minmax || x > c->xmax) c->xmax = x;
    c->has_minmax = true;
    sum_add_times(c, x, w);
    chan(c, w, (double)x, 0);
    c->zeros += x == 0 ? w : 0;
    c->negatives += x < 0 ? w : 0;
    lo = (uint64_t)x;
    hi = (uint64_t)((unsigned __int128)x >> 64);
    ordered = true;
    rc = value_add(c, hash_fixed(lo, hi), lo, hi, NULL, w);
    break;
  }
  case K_STR:
    rc = str_add(c, v->u.s.ptr, char_len(c, v->u.s.ptr, v->u.s.len), w);
    break;
  }
  /* value_add feeds the quantile sketch only while switching to it */
  if (!rc && !was_exact && ordered && c->ordered)
    rc = kll_add_weighted(c, qkey(c, lo, hi), w) || kll_settle(c) ? -1 : 0;
  return rc ? hl_err_nomem(err) : HL_OK;
}

/* ------------------------------------------------------------------------
 * Merge
 * ------------------------------------------------------------------------ */

hl_status_t hl_prof_col_merge(hl_prof_col_t *dst, const hl_prof_col_t *src, hl_error_t *err) {
  if (dst->kind != src->kind || !hl_type_equal(dst->type, src->type))
    return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR),
                      "profile states of different types cannot be merged");
  if (src->count > HL_PROF_MAX_ROWS - dst->count)
    return hl_err_set(err, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
                      "a column profile cannot count more than 2^56 rows");
  dst->count += src->count;
  dst->nulls += src->nulls;
  if (dst->kind == K_COMPLEX) return HL_OK;
  if (src->has_minmax) {
    bool first = !dst->has_minmax;
    switch (dst->kind) {
    case K_BOOL:
    case K_INT:
      if (first || src->imin < dst->imin) dst->imin = src->imin;
      if (first || src->imax > dst->imax) dst->imax = src->imax;
      break;
    case K_F64:
      if (first || src->dmin < dst->dmin) dst->dmin = src->dmin;
      if (first || src->dmax > dst->dmax) dst->dmax = src->dmax;
      break;
    case K_DEC:
      if (first || src->xmin < dst->xmin) dst->xmin = src->xmin;
      if (first || src->xmax > dst->xmax) dst->xmax = src->xmax;
      break;
    case K_STR:
      if (first || cmp_bytes(src->smin, src->smin_len, dst->smin, dst->smin_len) < 0)
        if (keep_str(&dst->smin, &dst->smin_len, &dst->smin_cap, src->smin, src->smin_len))
          return hl_err_nomem(err);
      if (first || cmp_bytes(src->smax, src->smax_len, dst->smax, dst->smax_len) > 0)
        if (keep_str(&dst->smax, &dst->smax_len, &dst->smax_cap, src->smax, src->smax_len))
          return hl_err_nomem(err);
      if (first || src->min_len < dst->min_len) dst->min_len = src->min_len;
      if (first || src->max_len > dst->max_len) dst->max_len = src->max_len;
      break;
    }
    dst->has_minmax = true;
  }
  unsigned __int128 old = dst->sum_lo;
  dst->sum_lo += src->sum_lo;
  /* unsigned: wraps instead of overflowing on states decoded from crafted bytes */
  dst->sum_hi = (int64_t)((uint64_t)dst->sum_hi + (uint64_t)src->sum_hi + (dst->sum_lo < old));
  chan(dst, src->nmean, src->mean, src->m2);
  dst->zeros += src->zeros;
  dst->negatives += src->negatives;
  dst->nans += src->nans;
  dst->infs += src->infs;
  dst->total_len += src->total_len;
  dst->empties += src->empties;
  bool str = dst->kind == K_STR;
  if (src->exact) {
    const ctab_t *t = &src->set;
    for (uint32_t i = 0; i < t->n; i++) {
      const ent_t *e = &t->ents[i];
      const char *s = str ? ent_str(t, e) : NULL;
      if (dst->exact) {
        if (value_add(dst, e->h, e->lo, e->hi, s, e->count)) return hl_err_nomem(err);
        continue;
      }
      if (sketch_add_key(dst, e->h, e->lo, e->hi, s, e->count)) return hl_err_nomem(err);
      bool nan = dst->kind == K_F64 && e->lo == 0x7ff8000000000000ULL;
      if (dst->ordered && !nan && kll_add_weighted(dst, qkey(dst, e->lo, e->hi), e->count))
        return hl_err_nomem(err);
    }
    if (!dst->exact && dst->ordered && kll_settle(dst)) return hl_err_nomem(err);
    return HL_OK;
  }
  if (dst->exact && to_sketch(dst)) return hl_err_nomem(err);
  hll_merge(dst->hll, src->hll);
  const ctab_t *t = &src->mg;
  for (uint32_t i = 0; i < t->n; i++) {
    const ent_t *e = &t->ents[i];
    if (mg_add(&dst->mg, str, e->h, e->lo, e->hi, str ? ent_str(t, e) : NULL, e->count))
      return hl_err_nomem(err);
  }
  if (dst->ordered && kll_merge(dst, &src->kll)) return hl_err_nomem(err);
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * Result
 * ------------------------------------------------------------------------ */

/* Ertl, "New cardinality estimation algorithms for HyperLogLog sketches"
 * (2017), the improved raw estimator: unbiased from 0 to far beyond 2^32
 * with no empirical correction table. */
static double ertl_sigma(double x) {
  if (x == 1.0) return INFINITY;
  double y = 1.0, z = x, zp;
  do {
    x *= x;
    zp = z;
    z += x * y;
    y += y;
  } while (z != zp);
  return z;
}

static double ertl_tau(double x) {
  if (x == 0.0 || x == 1.0) return 0.0;
  double y = 1.0, z = 1.0 - x, zp;
  do {
    x = sqrt(x);
    zp = z;
    y *= 0.5;
    z -= (1.0 - x) * (1.0 - x) * y;
  } while (z != zp);
  return z / 3.0;
}

static int64_t hll_estimate(const hll_t *h) {
  const double m = (double)HLL_M;
  uint32_t hist[HLL_Q + 2] = {0};
  for (uint32_t i = 0; i < HLL_M; i++)
    hist[h->reg[i] <= HLL_Q + 1 ? h->reg[i] : HLL_Q + 1]++;
  if (hist[0] == HLL_M) return 0;
  double z = m * ertl_tau(1.0 - (double)hist[HLL_Q + 1] / m);
  for (int k = HLL_Q; k >= 1; k--)
    z = 0.5 * (z + (double)hist[k]);
  z += m * ertl_sigma((double)hist[0] / m);
  return (int64_t)llround(m * m / (2.0 * log(2.0)) / z);
}

/* A table key as a value of the column's type (strings borrowed). */
static void key_value(const hl_prof_col_t *c, const ctab_t *t, const ent_t *e, hl_value_t *out) {
  memset(out, 0, sizeof *out);
  switch (c->kind) {
  case K_BOOL:
    out->u.b = e->lo != 0;
    break;
  case K_INT:
    out->u.i = (int64_t)e->lo;
    break;
  case K_F64:
    out->u.d = key_dbl(e->lo);
    break;
  case K_DEC:
    out->u.dec = dec_of(e->lo, e->hi);
    break;
  case K_STR:
    out->u.s.ptr = ent_str(t, e);
    out->u.s.len = (uint32_t)e->hi;
    break;
  }
}

/* The value of an ordered quantile key. */
static void qkey_value(const hl_prof_col_t *c, uint64_t k, hl_value_t *out) {
  memset(out, 0, sizeof *out);
  switch (c->kind) {
  case K_INT:
    out->u.i = unord_i64(k);
    break;
  case K_F64:
    out->u.d = unord_dbl(k);
    break;
  case K_DEC:
    if (!c->dec_wide) {
      out->u.dec = unord_i64(k);
    } else { /* nearest unscaled value, kept inside the type's range */
      double d = nearbyint(unord_dbl(k));
      const double lim = 1e38;
      out->u.dec = d >= lim ? c->xmax : d <= -lim ? c->xmin : (__int128)d;
      if (out->u.dec > c->xmax) out->u.dec = c->xmax;
      if (out->u.dec < c->xmin) out->u.dec = c->xmin;
    }
    break;
  }
}

typedef struct top_ref {
  const hl_prof_col_t *c;
  const ctab_t *t;
} top_ref_t;

static int cmp_ent_value(const hl_prof_col_t *c, const ctab_t *t, const ent_t *a, const ent_t *b) {
  switch (c->kind) {
  case K_BOOL:
  case K_INT: {
    int64_t x = (int64_t)a->lo, y = (int64_t)b->lo;
    return x < y ? -1 : x > y;
  }
  case K_F64: {
    double x = key_dbl(a->lo), y = key_dbl(b->lo);
    if (x != x || y != y) return (x != x) - (y != y);
    return x < y ? -1 : x > y;
  }
  case K_DEC: {
    __int128 x = dec_of(a->lo, a->hi), y = dec_of(b->lo, b->hi);
    return x < y ? -1 : x > y;
  }
  case K_STR:
    return cmp_bytes(ent_str(t, a), (uint32_t)a->hi, ent_str(t, b), (uint32_t)b->hi);
  }
  return 0;
}

/* Sorts entry indexes IDX by count desc, then value asc (insertion sort of
 * at most HL_PROF_EXACT_MAX, only for the first five: selection). */
static int pick_top(const hl_prof_col_t *c, const ctab_t *t, uint32_t out[5]) {
  int n = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    const ent_t *e = &t->ents[i];
    int pos = n;
    while (pos > 0) {
      const ent_t *p = &t->ents[out[pos - 1]];
      bool before = e->count > p->count || (e->count == p->count && cmp_ent_value(c, t, e, p) < 0);
      if (!before) break;
      pos--;
    }
    if (pos >= 5) continue;
    int last = n < 5 ? n : 4;
    for (int k = last; k > pos; k--)
      out[k] = out[k - 1];
    out[pos] = i;
    if (n < 5) n++;
  }
  return n;
}

static hl_status_t copy_value(const hl_prof_col_t *c, hl_arena_t *arena, hl_value_t *v,
                              hl_error_t *err) {
  if (c->kind != K_STR || !v->u.s.len) return HL_OK;
  char *p = hl_arena_alloc(arena, v->u.s.len);
  if (!p) return hl_err_nomem(err);
  memcpy(p, v->u.s.ptr, v->u.s.len);
  v->u.s.ptr = p;
  return HL_OK;
}

hl_status_t hl_prof_col_result(const hl_prof_col_t *c, hl_arena_t *arena, hl_prof_result_t *out,
                               hl_error_t *err) {
  memset(out, 0, sizeof *out);
  out->count = c->count;
  out->nulls = c->nulls;
  out->min.is_null = out->max.is_null = true;
  out->q25.is_null = out->q50.is_null = out->q75.is_null = true;
  if (c->kind == K_COMPLEX) {
    out->distinct_exact = true;
    out->top_exact = true;
    return HL_OK;
  }
  const ctab_t *t = c->exact ? &c->set : &c->mg;
  if (c->exact) {
    out->distinct = t->n;
    out->distinct_exact = true;
  } else {
    out->distinct = hll_estimate(c->hll);
    /* a sketch holds more than the exact set could (strings: maybe only
     * more bytes) */
    int64_t floor_n = c->kind == K_STR ? 1 : HL_PROF_EXACT_MAX + 1;
    if (out->distinct < floor_n) out->distinct = floor_n;
    int64_t values = c->count - c->nulls;
    if (out->distinct > values) out->distinct = values;
    out->distinct_rel_err = HL_PROF_DISTINCT_REL_ERR;
  }
  if (c->has_minmax) {
    out->has_minmax = true;
    out->min.is_null = out->max.is_null = false;
    switch (c->kind) {
    case K_BOOL:
      out->min.u.b = c->imin != 0;
      out->max.u.b = c->imax != 0;
      break;
    case K_INT:
      out->min.u.i = c->imin;
      out->max.u.i = c->imax;
      break;
    case K_F64:
      out->min.u.d = c->dmin;
      out->max.u.d = c->dmax;
      break;
    case K_DEC:
      out->min.u.dec = c->xmin;
      out->max.u.dec = c->xmax;
      break;
    case K_STR:
      out->min.u.s.ptr = c->smin;
      out->min.u.s.len = c->smin_len;
      out->max.u.s.ptr = c->smax;
      out->max.u.s.len = c->smax_len;
      if (copy_value(c, arena, &out->min, err) || copy_value(c, arena, &out->max, err))
        return err->code;
      break;
    }
  }
  if (c->numeric && c->nmean) {
    out->has_mean = true;
    double scale = c->kind == K_DEC ? pow(10.0, c->type->scale) : 1.0;
    out->mean = (c->kind == K_F64 ? c->mean : sum_double(c) / (double)c->nmean) / scale;
    if (c->nmean > 1) {
      out->has_stddev = true;
      double var = c->m2 > 0 ? c->m2 / (double)(c->nmean - 1) : 0.0;
      out->stddev = sqrt(var) / scale;
    }
  }
  if (c->numeric) {
    out->has_signs = true;
    out->zeros = c->zeros;
    out->negatives = c->negatives;
    out->nans = c->nans;
    out->infinities = c->infs;
  }
  if (c->kind == K_STR) {
    out->has_lengths = c->has_minmax;
    out->min_len = c->min_len;
    out->max_len = c->max_len;
    int64_t values = c->count - c->nulls;
    out->mean_len = values ? (double)c->total_len / (double)values : 0.0;
    out->empties = c->empties;
  }
  if (c->ordered) {
    uint64_t qk[3];
    bool have = false;
    if (c->exact) {
      wkey_t *a = hl_malloc(sizeof *a * (t->n ? t->n : 1));
      if (!a) return hl_err_nomem(err);
      size_t n = 0;
      for (uint32_t i = 0; i < t->n; i++) {
        const ent_t *e = &t->ents[i];
        if (c->kind == K_F64 && e->lo == 0x7ff8000000000000ULL) continue;
        a[n].key = qkey(c, e->lo, e->hi);
        a[n++].w = (uint64_t)e->count;
      }
      if (n) {
        weighted_quantiles(a, n, qk);
        have = true;
      }
      hl_free(a);
    } else {
      const kll_t *k = &c->kll;
      size_t n = 0;
      for (int h = 0; h < k->H; h++)
        n += k->size[h];
      wkey_t *a = hl_malloc(sizeof *a * (n ? n : 1));
      if (!a) return hl_err_nomem(err);
      size_t o = 0;
      for (int h = 0; h < k->H; h++)
        for (uint32_t i = 0; i < k->size[h]; i++) {
          a[o].key = k->items[h][i];
          a[o++].w = (uint64_t)1 << h;
        }
      if (n) {
        weighted_quantiles(a, n, qk);
        have = true;
        out->quantile_rank_err = k->H > 1 ? HL_PROF_QUANTILE_RANK_ERR : 0.0;
      }
      hl_free(a);
    }
    if (have) {
      out->has_quantiles = true;
      qkey_value(c, qk[0], &out->q25);
      qkey_value(c, qk[1], &out->q50);
      qkey_value(c, qk[2], &out->q75);
    }
  }
  uint32_t idx[5];
  out->n_top = pick_top(c, t, idx);
  for (int i = 0; i < out->n_top; i++) {
    key_value(c, t, &t->ents[idx[i]], &out->top[i]);
    if (copy_value(c, arena, &out->top[i], err)) return err->code;
    out->top_count[i] = t->ents[idx[i]].count;
  }
  out->top_exact = c->exact;
  if (!c->exact) {
    int64_t tracked = 0;
    for (uint32_t i = 0; i < t->n; i++)
      tracked += t->ents[i].count;
    out->top_count_err = (c->count - c->nulls - tracked) / (HL_PROF_TOP_K + 1);
  }
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * Encoding
 * ------------------------------------------------------------------------ */

static uint32_t fnv32(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 16777619u;
  }
  return h;
}

static void put_u8(hl_buf_t *b, unsigned v) {
  uint8_t x = (uint8_t)v;
  hl_buf_append(b, &x, 1);
}

static void put_u32(hl_buf_t *b, uint32_t v) {
  uint8_t x[4];
  for (int i = 0; i < 4; i++)
    x[i] = (uint8_t)(v >> (8 * i));
  hl_buf_append(b, x, 4);
}

static void put_u64(hl_buf_t *b, uint64_t v) {
  uint8_t x[8];
  for (int i = 0; i < 8; i++)
    x[i] = (uint8_t)(v >> (8 * i));
  hl_buf_append(b, x, 8);
}

static void put_f64(hl_buf_t *b, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  put_u64(b, u);
}

static void put_var(hl_buf_t *b, uint64_t v) {
  uint8_t x[10];
  int n = 0;
  while (v >= 0x80) {
    x[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  x[n++] = (uint8_t)v;
  hl_buf_append(b, x, (size_t)n);
}

static uint64_t zigzag(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static int64_t unzigzag(uint64_t u) {
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static void put_i128(hl_buf_t *b, __int128 v) {
  put_u64(b, (uint64_t)v);
  put_u64(b, (uint64_t)((unsigned __int128)v >> 64));
}

/* Bits into a buffer, least significant first; a flush pads the last
 * byte with zeros. */
typedef struct bw {
  hl_buf_t *b;
  uint64_t acc;
  int n;
} bw_t;

static void bw_put(bw_t *w, uint64_t v, int bits) {
  while (bits > 0) {
    int take = bits < 32 ? bits : 32;
    w->acc |= (v & ((UINT64_C(1) << take) - 1)) << w->n;
    w->n += take;
    v >>= take;
    bits -= take;
    while (w->n >= 8) {
      put_u8(w->b, (unsigned)(w->acc & 0xff));
      w->acc >>= 8;
      w->n -= 8;
    }
  }
}

static void bw_flush(bw_t *w) {
  if (w->n) put_u8(w->b, (unsigned)w->acc);
  w->acc = 0;
  w->n = 0;
}

/* V[0..n) as a Rice code with the parameter k that makes it shortest
 * (the bit count is convex in k): k in 6 bits, then per value V >> k in
 * unary (ones, then a zero) and its k low bits.  For the gaps of sorted
 * values this is within about two bits a value of what any code can do
 * when the gaps are near geometric, and never much worse than the values'
 * bit width. */
static void put_rice(bw_t *w, const uint64_t *v, uint32_t n) {
  int best = 0;
  unsigned __int128 best_bits = 0;
  for (int k = 0; k < 64; k++) {
    unsigned __int128 bits = (unsigned __int128)n * (unsigned)(k + 1);
    for (uint32_t i = 0; i < n; i++)
      bits += v[i] >> k;
    if (k && bits >= best_bits) break;
    best = k;
    best_bits = bits;
  }
  bw_put(w, (uint64_t)best, 6);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t q = v[i] >> best;
    for (; q >= 32; q -= 32)
      bw_put(w, 0xffffffffu, 32);
    bw_put(w, (UINT64_C(1) << q) - 1, (int)q + 1);
    if (best) bw_put(w, v[i], best);
  }
}

/* rANS (Duda's asymmetric numeral systems, the byte-wise form) with the
 * registers' own histogram as the model: HLL_M = 2^HLL_P registers, so the
 * counts are the frequencies at scale 2^HLL_P as they are, and the code
 * is within a few bytes of the registers' empirical entropy (about 2.7
 * bits a register once most are set, against 6 packed).  The state stays
 * in [RANS_L, 2^8 RANS_L). */
#define RANS_L (UINT32_C(1) << 23)

static hl_status_t put_hll(hl_buf_t *b, const hll_t *h, hl_error_t *err) {
  uint32_t freq[HLL_Q + 2] = {0}, cum[HLL_Q + 3];
  for (uint32_t i = 0; i < HLL_M; i++)
    freq[h->reg[i]]++;
  unsigned nsym = 0;
  for (int s = 0; s < HLL_Q + 2; s++)
    nsym += freq[s] != 0;
  put_u8(b, nsym);
  cum[0] = 0;
  for (int s = 0; s < HLL_Q + 2; s++) {
    cum[s + 1] = cum[s] + freq[s];
    if (!freq[s]) continue;
    put_u8(b, (unsigned)s);
    put_var(b, freq[s]);
  }
  if (nsym == 1) return HL_OK; /* every register the same: nothing else to say */
  /* a symbol emits at most two bytes (x < 2^31, emitted down to below 2^19 f) */
  size_t cap = (size_t)HLL_M * 2 + 4;
  uint8_t *out = hl_malloc(cap), *p = out + cap;
  if (!out) return hl_err_nomem(err);
  uint32_t x = RANS_L;
  for (uint32_t i = HLL_M; i-- > 0;) { /* backwards: the decoder reads forwards */
    uint32_t s = h->reg[i], f = freq[s];
    uint32_t x_max = ((RANS_L >> HLL_P) << 8) * f;
    while (x >= x_max) {
      *--p = (uint8_t)x;
      x >>= 8;
    }
    x = ((x / f) << HLL_P) + x % f + cum[s];
  }
  p -= 4;
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(x >> (8 * i));
  size_t len = (size_t)(out + cap - p);
  put_var(b, len);
  hl_buf_append(b, p, len);
  hl_free(out);
  return HL_OK;
}

/* A table's entries in value order, so that a state has one encoding:
 * their number, the keys (integers and doubles as the gaps between their
 * order-preserving keys, Rice-coded; strings front-coded: the length shared
 * with the one before, the rest), then the counts less one, Rice-coded.
 * PRUNE (the Misra-Gries summary): pruned to HL_PROF_TOP_K counters first,
 * which keeps its bounds (mg_prune), so that a stored summary holds at
 * most HL_PROF_TOP_K values. */
static hl_status_t put_table(hl_buf_t *b, const hl_prof_col_t *c, const ctab_t *t, bool prune,
                             hl_error_t *err) {
  uint32_t n = t->n;
  uint32_t *ord = hl_malloc(sizeof *ord * (n ? n : 1));
  uint64_t *v = hl_malloc(sizeof *v * (n ? n : 1));
  if (!ord || !v) {
    hl_free(ord);
    hl_free(v);
    return hl_err_nomem(err);
  }
  int64_t cut = 0;
  if (prune && n > HL_PROF_TOP_K) {
    for (uint32_t i = 0; i < n; i++)
      ((int64_t *)v)[i] = t->ents[i].count;
    cut = kth_largest((int64_t *)v, n, HL_PROF_TOP_K);
  }
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) { /* insertion sort: at most 1024 */
    if (t->ents[i].count <= cut) continue;
    uint32_t j = m++;
    while (j && cmp_ent_value(c, t, &t->ents[ord[j - 1]], &t->ents[i]) > 0) {
      ord[j] = ord[j - 1];
      j--;
    }
    ord[j] = i;
  }
  put_var(b, m);
  bw_t w = {b, 0, 0};
  bool narrow = c->kind != K_DEC;
  if (c->kind == K_DEC) { /* values of 64 bits: coded as integers */
    narrow = true;
    for (uint32_t i = 0; i < m && narrow; i++) {
      const ent_t *e = &t->ents[ord[i]];
      narrow = e->hi == ((int64_t)e->lo < 0 ? UINT64_MAX : 0);
    }
    put_u8(b, narrow);
  }
  if (m) switch (c->kind) {
    case K_BOOL:
      for (uint32_t i = 0; i < m; i++)
        put_u8(b, (unsigned)t->ents[ord[i]].lo);
      break;
    case K_STR: {
      const ent_t *prev = NULL;
      for (uint32_t i = 0; i < m; i++) {
        const ent_t *e = &t->ents[ord[i]];
        uint32_t shared = 0;
        if (prev) {
          const char *x = ent_str(t, prev), *y = ent_str(t, e);
          while (shared < prev->hi && shared < e->hi && x[shared] == y[shared])
            shared++;
        }
        put_var(b, shared);
        put_var(b, e->hi - shared);
        hl_buf_append(b, ent_str(t, e) + shared, e->hi - shared);
        prev = e;
      }
      break;
    }
    default:
      if (!narrow) {
        for (uint32_t i = 0; i < m; i++) {
          put_u64(b, t->ents[ord[i]].lo);
          put_u64(b, t->ents[ord[i]].hi);
        }
        break;
      }
      for (uint32_t i = 0; i < m; i++) {
        uint64_t lo = t->ents[ord[i]].lo;
        v[i] = c->kind == K_F64 ? ord_dbl(key_dbl(lo)) : ord_i64((int64_t)lo);
      }
      put_u64(b, v[0]);
      if (m < 2) break;
      for (uint32_t i = m - 1; i > 0; i--) /* strictly increasing: gaps less one */
        v[i] = v[i] - v[i - 1] - 1;
      put_rice(&w, v + 1, m - 1);
      bw_flush(&w);
      break;
    }
  if (m) {
    for (uint32_t i = 0; i < m; i++)
      v[i] = (uint64_t)(t->ents[ord[i]].count - cut - 1);
    put_rice(&w, v, m);
    bw_flush(&w);
  }
  hl_free(ord);
  hl_free(v);
  return HL_OK;
}

/* The quantile sketch, on a copy held to the stored capacities (kll_cap):
 * levels and base, the weight and coin counts, each level's compaction
 * count and size, the smallest item, then each level's sorted items as
 * gaps from the one before (the first from the smallest), Rice-coded. */
static hl_status_t put_kll(hl_buf_t *b, const hl_prof_col_t *c, hl_error_t *err) {
  kll_t k;
  scr_t t = {NULL, 0};
  uint64_t *d = NULL;
  if (kll_copy(&k, &c->kll) || kll_fit(&k, &t, true)) goto nomem;
  uint32_t most = 0;
  for (int h = 0; h < k.H; h++) {
    most = k.size[h] > most ? k.size[h] : most;
    if ((h == 0 || h == k.base) && k.size[h]) { /* the order of the intake levels means nothing */
      if (tmp_reserve(&t, k.size[h])) goto nomem;
      sort_u64(k.items[h], k.size[h], t.p);
    }
  }
  if (!(d = hl_malloc(sizeof *d * (most ? most : 1)))) goto nomem;
  put_u8(b, (unsigned)k.H);
  put_u8(b, (unsigned)k.base);
  put_var(b, k.n);
  put_var(b, k.samp);
  uint64_t low = UINT64_MAX;
  for (int h = 0; h < k.H; h++) {
    put_var(b, k.ncomp[h]);
    put_var(b, k.size[h]);
    if (k.size[h] && k.items[h][0] < low) low = k.items[h][0];
  }
  if (most) put_u64(b, low);
  bw_t w = {b, 0, 0};
  for (int h = 0; h < k.H; h++) {
    if (!k.size[h]) continue;
    uint64_t prev = low;
    for (uint32_t i = 0; i < k.size[h]; i++) {
      d[i] = k.items[h][i] - prev;
      prev = k.items[h][i];
    }
    put_rice(&w, d, k.size[h]);
  }
  bw_flush(&w);
  kll_fini(&k);
  hl_free(t.p);
  hl_free(d);
  return HL_OK;
nomem:
  kll_fini(&k);
  hl_free(t.p);
  hl_free(d);
  return hl_err_nomem(err);
}

hl_status_t hl_prof_col_encode(const hl_prof_col_t *c, hl_buf_t *b, hl_error_t *err) {
  size_t start = b->len;
  hl_buf_append(b, "HLPF", 4);
  put_u8(b, FMT_VERSION);
  put_u8(b, (unsigned)c->kind);
  put_u8(b, (unsigned)c->type->id);
  put_u8(b, c->kind == K_DEC ? (unsigned)c->type->precision : 0);
  put_u8(b, c->kind == K_DEC ? (unsigned)c->type->scale : 0);
  put_u8(b, (c->has_minmax ? 1u : 0u) | (c->exact ? 2u : 0u));
  put_u32(b, 0); /* total length, filled below */
  put_var(b, (uint64_t)c->count);
  put_var(b, (uint64_t)c->nulls);
  if (c->kind != K_COMPLEX) {
    switch (c->kind) {
    case K_BOOL:
    case K_INT:
      put_var(b, zigzag(c->imin));
      put_var(b, zigzag(c->imax));
      break;
    case K_F64:
      put_f64(b, c->dmin);
      put_f64(b, c->dmax);
      break;
    case K_DEC:
      put_i128(b, c->xmin);
      put_i128(b, c->xmax);
      break;
    case K_STR:
      put_var(b, c->smin_len);
      if (c->smin_len) hl_buf_append(b, c->smin, c->smin_len);
      put_var(b, c->smax_len);
      if (c->smax_len) hl_buf_append(b, c->smax, c->smax_len);
      put_var(b, (uint64_t)c->min_len);
      put_var(b, (uint64_t)c->max_len);
      put_var(b, c->total_len);
      put_var(b, (uint64_t)c->empties);
      break;
    }
    if (c->numeric) {
      put_u64(b, (uint64_t)c->sum_lo);
      put_u64(b, (uint64_t)(c->sum_lo >> 64));
      put_u64(b, (uint64_t)c->sum_hi);
      put_var(b, (uint64_t)c->nmean);
      put_f64(b, c->mean);
      put_f64(b, c->m2);
      put_var(b, (uint64_t)c->zeros);
      put_var(b, (uint64_t)c->negatives);
      put_var(b, (uint64_t)c->nans);
      put_var(b, (uint64_t)c->infs);
    }
    if (c->exact) {
      if (put_table(b, c, &c->set, false, err)) return err->code;
    } else {
      if (put_hll(b, c->hll, err)) return err->code;
      if (put_table(b, c, &c->mg, true, err)) return err->code;
      if (c->ordered && put_kll(b, c, err)) return err->code;
    }
  }
  put_u32(b, 0); /* checksum */
  if (b->oom) return hl_err_nomem(err);
  hl_prof_reseal(b->data + start, b->len - start);
  return HL_OK;
}

void hl_prof_reseal(void *data, size_t len) {
  uint8_t *p = data;
  if (len < 16) return;
  for (int i = 0; i < 4; i++)
    p[10 + i] = (uint8_t)(len >> (8 * i));
  uint32_t h = fnv32(p, len - 4);
  for (int i = 0; i < 4; i++)
    p[len - 4 + i] = (uint8_t)(h >> (8 * i));
}

/* ---- decoding ---- */

typedef struct rd {
  const uint8_t *p, *end;
  bool bad;
} rd_t;

static bool need(rd_t *r, size_t n) {
  if (r->bad || (size_t)(r->end - r->p) < n) {
    r->bad = true;
    return false;
  }
  return true;
}

static uint8_t get_u8(rd_t *r) {
  return need(r, 1) ? *r->p++ : 0;
}

static uint64_t get_u64(rd_t *r) {
  if (!need(r, 8)) return 0;
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)r->p[i] << (8 * i);
  r->p += 8;
  return v;
}

static double get_f64(rd_t *r) {
  uint64_t u = get_u64(r);
  return key_dbl(u);
}

static uint64_t get_var(rd_t *r) {
  uint64_t v = 0;
  for (int s = 0; s < 64; s += 7) {
    uint8_t x = get_u8(r);
    if (r->bad) return 0;
    if (s == 63 && x > 1) break;
    v |= (uint64_t)(x & 0x7f) << s;
    if (!(x & 0x80)) return v;
  }
  r->bad = true;
  return 0;
}

/* A count: a varint of at most HL_PROF_MAX_ROWS. */
static int64_t get_count(rd_t *r) {
  uint64_t v = get_var(r);
  if (v > (uint64_t)HL_PROF_MAX_ROWS) r->bad = true;
  return r->bad ? 0 : (int64_t)v;
}

static __int128 get_i128(rd_t *r) {
  uint64_t lo = get_u64(r), hi = get_u64(r);
  return dec_of(lo, hi);
}

/* Bits, least significant first (bw_t's); the padding of the last byte
 * must be zeros. */
typedef struct br {
  rd_t *r;
  uint32_t acc;
  int n;
} br_t;

static uint64_t br_get(br_t *b, int bits) {
  uint64_t v = 0;
  for (int got = 0; got < bits;) {
    if (!b->n) {
      b->acc = get_u8(b->r);
      b->n = 8;
      if (b->r->bad) return 0;
    }
    int take = bits - got < b->n ? bits - got : b->n;
    v |= (uint64_t)(b->acc & ((1u << take) - 1)) << got;
    b->acc >>= take;
    b->n -= take;
    got += take;
  }
  return v;
}

static bool br_end(br_t *b) {
  bool ok = !b->r->bad && b->acc == 0;
  b->acc = 0;
  b->n = 0;
  return ok;
}

/* put_rice's N values into V. */
static bool get_rice(br_t *b, uint64_t *v, uint32_t n) {
  int k = (int)br_get(b, 6);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t q = 0;
    while (br_get(b, 1)) /* each one is a bit of input: bounded by it */
      q++;
    if (b->r->bad || (k && q >> (64 - k))) return false;
    v[i] = q << k | br_get(b, k);
  }
  return !b->r->bad;
}

static bool get_hll(rd_t *r, hll_t *h) {
  uint32_t freq[HLL_Q + 2] = {0}, cum[HLL_Q + 2], seen[HLL_Q + 2] = {0};
  unsigned nsym = get_u8(r);
  if (r->bad || nsym < 1 || nsym > HLL_Q + 2) return false;
  int last = -1;
  uint64_t total = 0;
  for (unsigned j = 0; j < nsym; j++) {
    int s = get_u8(r);
    uint64_t f = get_var(r);
    if (r->bad || s <= last || s > HLL_Q + 1 || f == 0 || f > HLL_M) return false;
    freq[s] = (uint32_t)f;
    total += f;
    last = s;
  }
  if (total != HLL_M) return false;
  if (nsym == 1) {
    memset(h->reg, last, sizeof h->reg);
    return true;
  }
  uint64_t len = get_var(r);
  if (r->bad || len < 4 || !need(r, len)) return false;
  uint8_t sym[HLL_M];
  uint32_t at = 0;
  for (int s = 0; s < HLL_Q + 2; s++) {
    cum[s] = at;
    for (uint32_t j = 0; j < freq[s]; j++)
      sym[at++] = (uint8_t)s;
  }
  const uint8_t *p = r->p, *end = r->p + len;
  r->p = end;
  uint32_t x = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  p += 4;
  if (x < RANS_L || x >= RANS_L << 8) return false;
  for (uint32_t i = 0; i < HLL_M; i++) {
    uint32_t slot = x & (HLL_M - 1), s = sym[slot];
    h->reg[i] = (uint8_t)s;
    seen[s]++;
    x = freq[s] * (x >> HLL_P) + slot - cum[s]; /* < 2^31 */
    while (x < RANS_L) {
      if (p == end) return false;
      x = x << 8 | *p++;
    }
  }
  if (x != RANS_L || p != end) return false;
  return memcmp(seen, freq, sizeof seen) == 0;
}

/* Reads put_table's entries, at most CAP, into T (initialised): keys
 * strictly increasing (so distinct) and canonical, counts positive; *SUM
 * is their total. */
static bool get_table(rd_t *r, hl_prof_col_t *c, ctab_t *t, uint32_t cap, size_t max_len,
                      int64_t *sum, bool *nomem) {
  uint64_t n = get_var(r);
  *sum = 0;
  if (r->bad || n > cap) return false;
  bool narrow = c->kind != K_DEC;
  if (c->kind == K_DEC) {
    uint8_t f = get_u8(r);
    if (r->bad || f > 1) return false;
    narrow = f;
  }
  if (!n) return true;
  bool str = c->kind == K_STR;
  uint64_t *v = hl_malloc(sizeof *v * n);
  char *sb = str ? hl_malloc(max_len ? max_len : 1) : NULL;
  bool ok = false;
  br_t b = {r, 0, 0};
  if (!v || (str && !sb)) {
    *nomem = true;
    goto out;
  }
  uint64_t prev = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t lo = 0, hi = 0;
    const char *s = NULL;
    switch (c->kind) {
    case K_BOOL:
      lo = get_u8(r);
      if (r->bad || lo > 1 || (i && lo <= prev)) goto out;
      prev = lo;
      break;
    case K_STR: {
      uint64_t shared = get_var(r), rest = get_var(r);
      const ent_t *pe = i ? &t->ents[i - 1] : NULL;
      if (r->bad || shared > (pe ? pe->hi : 0) || rest > max_len - shared || !need(r, rest))
        goto out;
      if (shared) memcpy(sb, ent_str(t, pe), shared);
      if (rest) memcpy(sb + shared, r->p, rest);
      r->p += rest;
      hi = shared + rest;
      s = sb;
      if (pe && cmp_bytes(sb, (uint32_t)hi, ent_str(t, pe), (uint32_t)pe->hi) <= 0) goto out;
      break;
    }
    default:
      if (!narrow) {
        lo = get_u64(r);
        hi = get_u64(r);
        if (r->bad || (i && dec_of(lo, hi) <= dec_of(t->ents[i - 1].lo, t->ents[i - 1].hi)))
          goto out;
        break;
      }
      if (i == 0) {
        v[0] = get_u64(r);
        if (r->bad || (n > 1 && !get_rice(&b, v + 1, (uint32_t)n - 1)) || !br_end(&b)) goto out;
      } else {
        if (v[i] > UINT64_MAX - v[i - 1] - 1 || v[i - 1] == UINT64_MAX) goto out;
        v[i] += v[i - 1] + 1;
      }
      if (c->kind == K_F64) {
        uint64_t u = (v[i] & 0x8000000000000000ULL) ? v[i] & ~0x8000000000000000ULL : ~v[i];
        if (u != dbl_key(key_dbl(u))) goto out;
        lo = u;
      } else {
        lo = (uint64_t)unord_i64(v[i]);
        hi = c->kind == K_DEC && (int64_t)lo < 0 ? UINT64_MAX : 0;
      }
      break;
    }
    uint64_t h = str ? hash_bytes(s, (uint32_t)hi) : hash_fixed(lo, hi);
    int rc = ctab_add(t, str, h, lo, hi, s, 0); /* distinct: in increasing order */
    if (rc < 0) *nomem = true;
    if (rc) goto out;
  }
  if (!get_rice(&b, v, (uint32_t)n) || !br_end(&b)) goto out;
  for (uint64_t i = 0; i < n; i++) {
    if (v[i] >= (uint64_t)INT64_MAX || *sum > INT64_MAX - (int64_t)v[i] - 1) goto out;
    t->ents[i].count = (int64_t)v[i] + 1;
    *sum += t->ents[i].count;
  }
  ok = true;
out:
  hl_free(v);
  hl_free(sb);
  return ok;
}

static bool get_kll(rd_t *r, hl_prof_col_t *c, bool *nomem) {
  kll_t *k = &c->kll;
  unsigned H = get_u8(r);
  unsigned base = get_u8(r);
  uint64_t n = get_var(r);
  k->samp = get_var(r);
  if (r->bad || H < 1 || H > KLL_MAXL || base >= H || base + 2 > KLL_MAXL) return false;
  k->H = (int)H;
  k->base = (int)base;
  uint64_t weight = 0, items = 0;
  for (unsigned h = 0; h < H; h++) {
    uint64_t nc = get_var(r), size = get_var(r);
    /* the stored capacities bound what is allocated */
    if (r->bad || nc > UINT32_MAX || size > kll_cap(k, (int)h, true)) return false;
    k->ncomp[h] = (uint32_t)nc;
    k->size[h] = (uint32_t)size;
    if (size && h >= 63) return false;
    uint64_t w = size << h;
    if (size && (w >> h) != size) return false;
    if (weight > UINT64_MAX - w) return false;
    weight += w;
    items += size;
  }
  k->n = n;
  if (weight != n || n != (uint64_t)(c->count - c->nulls - c->nans)) return false;
  if (!items) return true;
  uint64_t low = get_u64(r), least = UINT64_MAX;
  br_t b = {r, 0, 0};
  for (unsigned h = 0; h < H; h++) {
    uint32_t size = k->size[h];
    if (!size) continue;
    if (kll_reserve(k, (int)h, size)) {
      *nomem = true;
      return false;
    }
    uint64_t *a = k->items[h];
    if (!get_rice(&b, a, size)) return false;
    uint64_t prev = low;
    for (uint32_t i = 0; i < size; i++) { /* sorted, no wrap */
      if (a[i] > UINT64_MAX - prev) return false;
      prev = a[i] += prev;
    }
    least = a[0] < least ? a[0] : least;
  }
  return br_end(&b) && least == low;
}

static hl_prof_col_t *corrupt(hl_prof_col_t *c, hl_error_t *err, const char *what) {
  hl_prof_col_free(c);
  hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "stored column profile is corrupt: %s", what);
  return NULL;
}

hl_prof_col_t *hl_prof_col_decode(const hl_type_t *type, const void *data, size_t len,
                                  hl_error_t *err) {
  const uint8_t *p = data;
  if (len < 18 || memcmp(p, "HLPF", 4) != 0) return corrupt(NULL, err, "bad header");
  if (p[4] != FMT_VERSION) return corrupt(NULL, err, "unknown format version");
  uint32_t total =
      (uint32_t)p[10] | (uint32_t)p[11] << 8 | (uint32_t)p[12] << 16 | (uint32_t)p[13] << 24;
  if (total != len) return corrupt(NULL, err, "wrong length");
  uint32_t sum = (uint32_t)p[len - 4] | (uint32_t)p[len - 3] << 8 | (uint32_t)p[len - 2] << 16 |
                 (uint32_t)p[len - 1] << 24;
  if (sum != fnv32(p, len - 4)) return corrupt(NULL, err, "checksum mismatch");
  hl_prof_col_t *c = hl_prof_col_new(type, err);
  if (!c) return NULL;
  bool is_dec = c->kind == K_DEC;
  if (p[5] != c->kind || p[6] != (unsigned)type->id ||
      p[7] != (is_dec ? (unsigned)type->precision : 0u) ||
      p[8] != (is_dec ? (unsigned)type->scale : 0u))
    return corrupt(c, err, "state of another column type");
  uint8_t flags = p[9];
  if (flags & ~3u) return corrupt(c, err, "unknown flags");
  rd_t r = {p + 14, p + len - 4, false};
  bool nomem = false;
  c->count = get_count(&r);
  c->nulls = get_count(&r);
  if (r.bad || c->nulls > c->count) return corrupt(c, err, "bad counts");
  int64_t values = c->count - c->nulls;
  c->has_minmax = flags & 1;
  c->exact = (flags & 2) != 0;
  if (c->kind == K_COMPLEX) {
    if (c->has_minmax || !c->exact) return corrupt(c, err, "bad flags");
  } else {
    switch (c->kind) {
    case K_BOOL:
    case K_INT:
      c->imin = unzigzag(get_var(&r));
      c->imax = unzigzag(get_var(&r));
      if (c->has_minmax && c->imin > c->imax) return corrupt(c, err, "min above max");
      if (c->kind == K_BOOL && (c->imin < 0 || c->imax > 1)) return corrupt(c, err, "bad boolean");
      break;
    case K_F64:
      c->dmin = get_f64(&r);
      c->dmax = get_f64(&r);
      if (c->has_minmax && !(c->dmin <= c->dmax)) return corrupt(c, err, "min above max");
      break;
    case K_DEC:
      c->xmin = get_i128(&r);
      c->xmax = get_i128(&r);
      if (c->has_minmax && c->xmin > c->xmax) return corrupt(c, err, "min above max");
      break;
    case K_STR: {
      uint64_t l = get_var(&r);
      if (r.bad || l > UINT32_MAX || !need(&r, l)) return corrupt(c, err, "bad min");
      if (keep_str(&c->smin, &c->smin_len, &c->smin_cap, (const char *)r.p, (uint32_t)l))
        goto nomem;
      r.p += l;
      l = get_var(&r);
      if (r.bad || l > UINT32_MAX || !need(&r, l)) return corrupt(c, err, "bad max");
      if (keep_str(&c->smax, &c->smax_len, &c->smax_cap, (const char *)r.p, (uint32_t)l))
        goto nomem;
      r.p += l;
      c->min_len = (int64_t)get_var(&r);
      c->max_len = (int64_t)get_var(&r);
      c->total_len = get_var(&r);
      c->empties = (int64_t)get_var(&r);
      if (r.bad || c->min_len < 0 || c->max_len < c->min_len || c->empties < 0 ||
          c->empties > values)
        return corrupt(c, err, "bad lengths");
      if (c->has_minmax && cmp_bytes(c->smin, c->smin_len, c->smax, c->smax_len) > 0)
        return corrupt(c, err, "min above max");
      break;
    }
    }
    if (c->has_minmax != (values > 0) && c->kind != K_F64)
      return corrupt(c, err, "min/max do not match the count");
    if (c->numeric) {
      uint64_t lo = get_u64(&r), hi = get_u64(&r);
      c->sum_lo = (unsigned __int128)hi << 64 | lo;
      c->sum_hi = (int64_t)get_u64(&r);
      c->nmean = get_count(&r);
      c->mean = get_f64(&r);
      c->m2 = get_f64(&r);
      c->zeros = get_count(&r);
      c->negatives = get_count(&r);
      c->nans = get_count(&r);
      c->infs = get_count(&r);
      if (r.bad || c->nmean > values || c->zeros > values - c->negatives ||
          c->nans > values - c->infs || !isfinite(c->mean) || !(c->m2 >= 0) || isinf(c->m2) ||
          (c->kind != K_F64 && (c->nans || c->infs || c->nmean != values)) ||
          (c->kind == K_F64 && c->nmean != values - c->nans - c->infs))
        return corrupt(c, err, "bad sums");
      if (c->kind == K_F64 && c->has_minmax != (values > c->nans))
        return corrupt(c, err, "min/max do not match the count");
    }
    int64_t tsum = 0;
    if (c->exact) {
      if (!get_table(&r, c, &c->set, HL_PROF_EXACT_MAX, HL_PROF_EXACT_BYTES, &tsum, &nomem)) {
        if (nomem) goto nomem;
        return corrupt(c, err, "bad distinct values");
      }
      if (tsum != values) return corrupt(c, err, "distinct counts do not add up");
    } else {
      ctab_fini(&c->set);
      c->hll = hl_malloc(sizeof *c->hll);
      if (!c->hll || ctab_init(&c->mg, MG_CAP, c->kind == K_STR ? MG_CAP * HL_PROF_TOP_MAX_LEN : 0))
        goto nomem;
      if (!get_hll(&r, c->hll)) return corrupt(c, err, "bad HyperLogLog");
      if (!get_table(&r, c, &c->mg, HL_PROF_TOP_K, HL_PROF_TOP_MAX_LEN, &tsum, &nomem)) {
        if (nomem) goto nomem;
        return corrupt(c, err, "bad frequent values");
      }
      if (tsum > values) return corrupt(c, err, "frequent counts exceed the count");
      if (c->ordered && !get_kll(&r, c, &nomem)) {
        if (nomem) goto nomem;
        return corrupt(c, err, "bad quantile sketch");
      }
    }
  }
  if (r.bad || r.p != r.end) return corrupt(c, err, "trailing or missing bytes");
  return c;
nomem:
  hl_prof_col_free(c);
  hl_err_nomem(err);
  return NULL;
}
