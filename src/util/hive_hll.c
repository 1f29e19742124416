/*
 * hive_hll.c -- Hive's HyperLogLog: Murmur3 hash64, the sparse and dense
 * registers, the estimate and the serialized bytes (hive_hll.h).
 *
 * Java's types are followed where they change results: registers are
 * signed bytes, the sparse encoding is 32-bit int arithmetic (Hive's
 * encodeHash folds a run length of 65 into 1 when the hash has no bit
 * above p), alpha * m^2 is a float, and the varints are written from
 * sign-extended ints.
 */
#include "util/hive_hll.h"
#include "util/java_bits.h"

#include "util/hashmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/hive_hll_int.h"

/* ------------------------------------------------------------ Murmur3 */

#define M3_C1   0x87c37b91114253d5ull
#define M3_C2   0x4cf5ad432745937full
#define M3_N1   0x52dce729ull
#define M3_SEED 104729ull

static uint64_t rotl64(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

static uint64_t mix_k(uint64_t k) {
  k *= M3_C1;
  k = rotl64(k, 31);
  return k * M3_C2;
}

uint64_t hl_murmur3_64(const uint8_t *data, size_t len) {
  uint64_t h = M3_SEED;
  size_t nblocks = len >> 3;
  for (size_t i = 0; i < nblocks; i++) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; b--)
      k = (k << 8) | data[i * 8 + (size_t)b];
    h ^= mix_k(k);
    h = rotl64(h, 27) * 5 + M3_N1;
  }
  size_t tail = nblocks << 3;
  if (len > tail) {
    uint64_t k = 0;
    for (size_t b = len - tail; b-- > 0;)
      k = (k << 8) | data[tail + b];
    h ^= mix_k(k);
  }
  /* Java xors the int length into the long: sign extension is moot for
   * lengths below 2^31 */
  h ^= (uint64_t)len;
  return hl_hash_mix64(h);
}

uint64_t hl_murmur3_64_long(int64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
  return hl_murmur3_64(b, 8);
}

/* ------------------------------------------------------------ Java arithmetic */

int64_t hl_java_d2l(double x) {
  if (isnan(x)) return 0;
  if (x >= 9223372036854775807.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

int64_t hl_java_round(double x) {
  if (isnan(x)) return 0;
  return hl_java_d2l(floor(x + 0.5));
}

/* ------------------------------------------------------------ registers */

#define P_PRIME 25
#define Q_PRIME 6

static uint32_t m_of(const hl_hhll_t *h) {
  return 1u << h->p;
}

/* encodingSwitchThreshold: more sparse entries than this make it dense */
static uint32_t switch_threshold(const hl_hhll_t *h) {
  return h->bitpack ? ((m_of(h) * 6) / 8) / 5 : m_of(h) / 3;
}

void hl_hhll_init(hl_hhll_t *h, hl_arena_t *arena, int p) {
  memset(h, 0, sizeof *h);
  h->arena = arena;
  h->p = (uint8_t)p;
  h->bitpack = true;
}

/* HLLDenseRegister.set: keeps the larger (signed) value. */
static void dense_set(hl_hhll_t *h, uint32_t idx, int8_t v) {
  if (idx >= m_of(h) || v <= (int8_t)h->reg[idx]) return;
  if (v > h->max_reg) h->max_reg = (uint8_t)v;
  h->reg[idx] = (uint8_t)v;
}

static hl_status_t to_dense(hl_hhll_t *h, hl_error_t *err) {
  h->reg = hl_arena_zalloc(h->arena, m_of(h));
  if (!h->reg) return hl_err_nomem(err);
  h->max_reg = h->bitpack ? 0 : 0xff;
  h->dense = true;
  for (uint32_t i = 0; i < h->n; i++)
    dense_set(h, h->keys[i] & (m_of(h) - 1), (int8_t)h->vals[i]);
  h->n = h->cap = 0;
  h->keys = NULL; /* arena memory, released with it */
  h->vals = NULL;
  return HL_OK;
}

/* HLLSparseRegister.set: the larger value per key; a new key always. */
static hl_status_t sparse_set(hl_hhll_t *h, uint32_t key, int8_t v, hl_error_t *err) {
  uint32_t lo = 0, hi = h->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (h->keys[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < h->n && h->keys[lo] == key) {
    if (v > (int8_t)h->vals[lo]) h->vals[lo] = (uint8_t)v;
    return HL_OK;
  }
  if (h->n == h->cap) {
    uint32_t cap = h->cap ? h->cap * 2 : 16;
    uint32_t *nk =
        hl_arena_realloc(h->arena, h->keys, sizeof(uint32_t) * h->cap, sizeof(uint32_t) * cap);
    uint8_t *nv = nk ? hl_arena_realloc(h->arena, h->vals, h->cap, cap) : NULL;
    uint32_t *ns =
        nv ? hl_arena_realloc(h->arena, h->seq, sizeof(uint32_t) * h->cap, sizeof(uint32_t) * cap)
           : NULL;
    if (!ns) return hl_err_nomem(err);
    h->keys = nk;
    h->vals = nv;
    h->seq = ns;
    h->cap = cap;
  }
  memmove(h->keys + lo + 1, h->keys + lo, sizeof(uint32_t) * (h->n - lo));
  memmove(h->vals + lo + 1, h->vals + lo, h->n - lo);
  memmove(h->seq + lo + 1, h->seq + lo, sizeof(uint32_t) * (h->n - lo));
  h->keys[lo] = key;
  h->vals[lo] = (uint8_t)v;
  h->seq[lo] = h->next_seq++;
  h->n++;
  return HL_OK;
}

static int ctz64(uint64_t x) {
  return x ? __builtin_ctzll(x) : 64;
}

static int ctz32(uint32_t x) {
  return x ? __builtin_ctz(x) : 32;
}

hl_status_t hl_hhll_add(hl_hhll_t *h, uint64_t hash, hl_error_t *err) {
  int p = h->p;
  if (h->dense) {
    dense_set(h, (uint32_t)(hash & (m_of(h) - 1)), (int8_t)(ctz64(hash >> p) + 1));
    return HL_OK;
  }
  /* encodeHash, in Java's int arithmetic */
  uint32_t pp_mask = (1u << P_PRIME) - 1;
  uint32_t mask = pp_mask ^ ((1u << p) - 1);
  int32_t enc;
  if (((uint32_t)hash & mask) == 0) {
    int32_t ntr = ctz64((uint64_t)((int64_t)hash >> p)) + 1;
    int64_t nh = (int64_t)(hash & pp_mask);
    nh |= (int64_t)(int32_t)((uint32_t)ntr << P_PRIME);
    nh |= (int64_t)(int32_t)0x80000000u;
    enc = (int32_t)(uint32_t)nh;
  } else {
    enc = (int32_t)(uint32_t)(hash & 0x7fffffffu);
  }
  /* mergeTempListToSparseMap */
  uint32_t key = (uint32_t)enc & pp_mask;
  int8_t nr;
  if (enc < 0)
    nr = (int8_t)(((uint32_t)enc >> P_PRIME) & ((1u << Q_PRIME) - 1));
  else
    nr = (int8_t)(ctz32((uint32_t)enc >> p) + 1);
  if (sparse_set(h, key, nr, err) != HL_OK) return HL_NOMEM;
  if (h->n > switch_threshold(h)) return to_dense(h, err);
  return HL_OK;
}

hl_status_t hl_hhll_add_long(hl_hhll_t *h, int64_t v, hl_error_t *err) {
  return hl_hhll_add(h, hl_murmur3_64_long(v), err);
}

hl_status_t hl_hhll_add_double(hl_hhll_t *h, double v, hl_error_t *err) {
  return hl_hhll_add_long(h, hl_java_double_bits(v), err);
}

hl_status_t hl_hhll_add_bytes(hl_hhll_t *h, const void *data, size_t len, hl_error_t *err) {
  return hl_hhll_add(h, hl_murmur3_64(len ? data : (const void *)"", len), err);
}

/* HashMap's bucket of KEY in a table of CAP buckets (Integer.hashCode is
 * the value; HashMap.hash spreads the high half down). */
static uint32_t bucket_of(uint32_t key, uint32_t cap) {
  return (key ^ (key >> 16)) & (cap - 1);
}

/* HashMap's capacity after N distinct puts: 16, doubled while N exceeds
 * three quarters of it. */
static uint32_t map_capacity(uint32_t n) {
  uint64_t cap = 16;
  while ((uint64_t)n > cap * 3 / 4)
    cap *= 2;
  return cap > UINT32_MAX / 2 ? UINT32_MAX / 2 + 1 : (uint32_t)cap;
}

typedef struct ord {
  uint64_t k; /* bucket << 32 | seq: seq is unique, so the order is total */
  uint32_t i;
} ord_t;

static int ord_cmp(const void *a, const void *b) {
  const ord_t *x = a, *y = b;
  return (x->k > y->k) - (x->k < y->k);
}

/* ORDER[0..n): the entries of sparse H (indexes into keys/vals) by first
 * arrival, or (BY_BUCKET) in the iteration order of the Java HashMap
 * holding them.  HL_NOMEM. */
static hl_status_t sparse_order(const hl_hhll_t *h, hl_arena_t *arena, uint32_t **order,
                                bool by_bucket, hl_error_t *err) {
  *order = NULL;
  if (!h->n) return HL_OK;
  uint32_t cap = map_capacity(h->n);
  ord_t *o = hl_arena_alloc(arena, sizeof(ord_t) * h->n);
  uint32_t *out = o ? hl_arena_alloc(arena, sizeof(uint32_t) * h->n) : NULL;
  if (!out) return hl_err_nomem(err);
  for (uint32_t i = 0; i < h->n; i++) {
    o[i].k = ((uint64_t)(by_bucket ? bucket_of(h->keys[i], cap) : 0) << 32) | h->seq[i];
    o[i].i = i;
  }
  qsort(o, h->n, sizeof *o, ord_cmp);
  for (uint32_t i = 0; i < h->n; i++)
    out[i] = o[i].i;
  *order = out;
  return HL_OK;
}

hl_status_t hl_hhll_merge(hl_hhll_t *d, const hl_hhll_t *s, hl_error_t *err) {
  if (d->p != s->p)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "HyperLogLogs of different p (%d and %d) cannot be merged", d->p, s->p);
  if (!d->dense && !s->dense) {
    /* the new keys arrive in S's first-arrival order (what Hive's merge,
     * iterating S's HashMap, gives within every bucket of the result) */
    uint32_t *order;
    if (sparse_order(s, d->arena, &order, false, err) != HL_OK) return HL_NOMEM;
    for (uint32_t i = 0; i < s->n; i++)
      if (sparse_set(d, s->keys[order[i]], (int8_t)s->vals[order[i]], err) != HL_OK)
        return HL_NOMEM;
    if (d->n > switch_threshold(d)) return to_dense(d, err);
    return HL_OK;
  }
  if (!d->dense && to_dense(d, err) != HL_OK) return HL_NOMEM;
  if (s->dense) {
    for (uint32_t i = 0; i < m_of(d); i++)
      dense_set(d, i, (int8_t)s->reg[i]);
    if (s->max_reg > d->max_reg) d->max_reg = s->max_reg;
  } else {
    for (uint32_t i = 0; i < s->n; i++)
      dense_set(d, s->keys[i] & (m_of(d) - 1), (int8_t)s->vals[i]);
  }
  return HL_OK;
}

/* ------------------------------------------------------------ estimate */

/* HLLConstants.thresholdData, p = 4..18, as Hive's HLLConstants.java has
 * it: 15500 for p = 14, where the HLL++ paper's table has 11500 */
static const int64_t thresholds[] = {10,   20,   40,    80,    220,   400,    900,   1800,
                                     3100, 6500, 15500, 20000, 50000, 120000, 350000};

static int64_t linear_count(uint32_t m, int64_t zeros) {
  return hl_java_round((double)m * log((double)m / (double)zeros));
}

hl_status_t hl_hhll_estimate(const hl_hhll_t *h, int64_t *out, hl_error_t *err) {
  int64_t count;
  if (!h->dense) {
    uint32_t mp = 1u << P_PRIME;
    count = linear_count(mp, (int64_t)mp - (int64_t)h->n);
  } else {
    uint32_t m = m_of(h);
    float alpha = 0.7213f / (1 + 1.079f / (float)m);
    alpha = alpha * (float)m * (float)m;
    double sum = 0;
    int64_t zeros = 0;
    for (uint32_t i = 0; i < m; i++) {
      int8_t b = (int8_t)h->reg[i];
      sum += ldexp(1.0, -b);
      if (b == 0) zeros++;
    }
    count = hl_java_d2l((double)alpha * (1.0 / sum));
    int64_t lin = zeros ? linear_count(m, zeros) : 0;
    int64_t threshold = thresholds[h->p - 4];
    bool biased = count <= 5 * (int64_t)m;
    if (biased && zeros && lin < threshold) {
      count = lin; /* linear counting wins: the bias correction is not used */
    } else {
      if (biased) {
        int64_t bias = 0;
        if (!hl_hhll_bias(h->p, count, &bias))
          return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                            "the estimate of a dense HyperLogLog with p = %d is not supported "
                            "yet (only p = 10, the one Hive's column statistics write, and p = "
                            "12, approx_distinct's)",
                            h->p);
        count -= bias;
      }
      int64_t hh = zeros ? lin : count;
      if (hh < threshold) count = hh;
    }
  }
  *out = count > 0 ? count : 1;
  return HL_OK;
}

/* ------------------------------------------------------------ bytes */

static void put_vulong(hl_buf_t *out, uint64_t v) {
  while (v & ~(uint64_t)0x7f) {
    hl_buf_putc(out, (char)(0x80 | (v & 0x7f)));
    v >>= 7;
  }
  hl_buf_putc(out, (char)v);
}

static int bit_width(int v) {
  int n = 0;
  while (v != 0) {
    n++;
    v = (int8_t)((uint32_t)v >> 1);
  }
  return n;
}

hl_status_t hl_hhll_serialize(const hl_hhll_t *h, hl_buf_t *out, hl_error_t *err) {
  int64_t est;
  if (hl_hhll_estimate(h, &est, err) != HL_OK) return err->code;
  hl_buf_append(out, "HLL", 3);
  int fourth = (h->p & 0xff) << 4;
  int width = 0;
  if (h->dense) {
    width = bit_width(h->max_reg);
    if (width > 6) {
      fourth |= 7;
      width = 8;
    } else {
      fourth |= width & 7;
    }
  }
  hl_buf_putc(out, (char)(uint8_t)fourth);
  put_vulong(out, (uint64_t)est);
  if (h->dense) {
    uint32_t m = m_of(h);
    if (width == 8) {
      hl_buf_append(out, h->reg, m);
    } else {
      int left = 8;
      uint32_t cur = 0;
      for (uint32_t i = 0; i < m; i++) {
        uint32_t v = h->reg[i];
        int bits_left = width;
        while (bits_left > left) {
          cur |= v >> (bits_left - left);
          bits_left -= left;
          v &= (1u << bits_left) - 1;
          hl_buf_putc(out, (char)(uint8_t)cur);
          cur = 0;
          left = 8;
        }
        left -= bits_left;
        cur |= v << left;
        if (left == 0) {
          hl_buf_putc(out, (char)(uint8_t)cur);
          cur = 0;
          left = 8;
        }
      }
    }
  } else {
    put_vulong(out, h->n);
    uint32_t *order;
    if (sparse_order(h, h->arena, &order, true, err) != HL_OK) return HL_NOMEM;
    int32_t prev = 0;
    for (uint32_t j = 0; j < h->n; j++) {
      uint32_t i = order[j];
      int32_t cur = (int32_t)((h->keys[i] << Q_PRIME) | h->vals[i]);
      if (prev == 0) {
        prev = cur;
        put_vulong(out, (uint64_t)(int64_t)prev);
      } else {
        put_vulong(out, (uint64_t)(int64_t)(int32_t)((uint32_t)cur - (uint32_t)prev));
        prev = cur;
      }
    }
  }
  if (out->oom) return hl_err_nomem(err);
  return HL_OK;
}

typedef struct reader {
  const uint8_t *p;
  size_t n, pos;
} reader_t;

/* InputStream.read(): the next byte, or -1 past the end */
static int rd(reader_t *r) {
  return r->pos < r->n ? r->p[r->pos++] : -1;
}

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "the bit vector is not a valid HyperLogLog: %s", what);
}

static hl_status_t get_vulong(reader_t *r, int64_t *out, hl_error_t *err) {
  uint64_t v = 0;
  int shift = 0, b;
  do {
    if ((b = rd(r)) < 0) return bad(err, "it ends inside a number");
    v |= (uint64_t)(b & 0x7f) << (shift & 63); /* Java masks long shifts to 6 bits */
    shift += 7;
  } while (b >= 0x80);
  *out = (int64_t)v;
  return HL_OK;
}

typedef struct entry {
  uint32_t key, seq;
  int8_t val;
} entry_t;

static int entry_cmp(const void *a, const void *b) {
  const entry_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

hl_status_t hl_hhll_deserialize(const uint8_t *data, size_t len, hl_arena_t *arena, hl_hhll_t *h,
                                hl_error_t *err) {
  reader_t r = {data, len, 0};
  for (int i = 0; i < 3; i++)
    if (rd(&r) != "HLL"[i]) return bad(err, "no HLL magic");
  int fourth = rd(&r) & 0xff;
  int p = fourth >> 4, enc = fourth & 7;
  int64_t est;
  if (get_vulong(&r, &est, err) != HL_OK) return err->code;
  if (p < 4 || p > 16) return bad(err, "p must be between 4 and 16");
  hl_hhll_init(h, arena, p);
  if (enc == 0) {
    int64_t n64 = 0; /* set by get_vulong; GCC -O3 cannot tell */
    if (get_vulong(&r, &n64, err) != HL_OK) return err->code;
    int32_t n = (int32_t)n64;
    if (n < 0) return bad(err, "a negative number of entries");
    if ((size_t)n > len - r.pos) return bad(err, "it ends inside the register entries");
    if (n == 0) return HL_OK;
    entry_t *e = hl_arena_alloc(arena, sizeof(entry_t) * (size_t)n);
    if (!e) return hl_err_nomem(err);
    int32_t prev = 0;
    for (int32_t i = 0; i < n; i++) {
      int64_t v = 0; /* likewise */
      if (get_vulong(&r, &v, err) != HL_OK) return err->code;
      int32_t cur = i == 0 ? (int32_t)v : (int32_t)((uint32_t)prev + (uint32_t)v);
      e[i].key = (uint32_t)cur >> Q_PRIME;
      e[i].val = (int8_t)(cur & 0x3f);
      e[i].seq = (uint32_t)i;
      prev = cur;
    }
    /* the map: a key keeps its first place and its largest value */
    qsort(e, (size_t)n, sizeof *e, entry_cmp);
    uint32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
      if (k > 0 && e[k - 1].key == e[i].key) {
        if (e[i].val > e[k - 1].val) e[k - 1].val = e[i].val;
      } else {
        e[k++] = e[i];
      }
    }
    h->keys = hl_arena_alloc(arena, sizeof(uint32_t) * k);
    h->vals = hl_arena_alloc(arena, k);
    h->seq = hl_arena_alloc(arena, sizeof(uint32_t) * k);
    if (!h->keys || !h->vals || !h->seq) return hl_err_nomem(err);
    for (uint32_t i = 0; i < k; i++) {
      h->keys[i] = e[i].key;
      h->vals[i] = (uint8_t)e[i].val;
      h->seq[i] = e[i].seq;
    }
    h->n = h->cap = k;
    h->next_seq = (uint32_t)n;
    return HL_OK;
  }
  int bits = enc == 7 ? 8 : enc;
  h->bitpack = bits != 8;
  h->reg = hl_arena_zalloc(arena, m_of(h));
  if (!h->reg) return hl_err_nomem(err);
  h->dense = true;
  h->max_reg = h->bitpack ? 0 : 0xff;
  uint32_t m = m_of(h);
  if (bits == 8) {
    for (uint32_t i = 0; i < m; i++)
      dense_set(h, i, (int8_t)rd(&r));
    return HL_OK;
  }
  uint32_t mask = (1u << bits) - 1;
  int left = 8;
  uint32_t cur = (uint32_t)(rd(&r) & 0xff);
  for (uint32_t i = 0; i < m; i++) {
    uint32_t v = 0;
    int bits_left = bits;
    while (bits_left > left) {
      v = (v << left) | (cur & ((1u << left) - 1));
      bits_left -= left;
      cur = (uint32_t)(rd(&r) & 0xff);
      left = 8;
    }
    if (bits_left > 0) {
      left -= bits_left;
      v = (v << bits_left) | ((cur >> left) & ((1u << bits_left) - 1));
    }
    dense_set(h, i, (int8_t)(v & mask));
  }
  return HL_OK;
}
