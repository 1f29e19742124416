/*
 * hive_fm.c -- Hive's FMSketch (hive_fm.h).
 *
 * Java's arithmetic is followed: the coefficients are ints, a * v + b is
 * a wrapping long product, % keeps the dividend's sign, and the vector
 * count of the bytes is read with in.read() = -1 past the end.
 */
#include "util/hive_fm.h"
#include "util/java_bits.h"

#include <math.h>
#include <string.h>

#include "util/hive_hll.h"

#define BIT_VECTOR_SIZE 31
#define PHI             0.77351

/* java.util.Random: the 48-bit linear congruential generator */
typedef struct jrand {
  uint64_t seed;
} jrand_t;

void hl_java_random_init(uint64_t *state, int64_t seed) {
  *state = ((uint64_t)seed ^ 0x5DEECE66Dull) & ((1ull << 48) - 1);
}

int32_t hl_java_random_next_int(uint64_t *state) {
  *state = (*state * 0x5DEECE66Dull + 0xBull) & ((1ull << 48) - 1);
  return (int32_t)(uint32_t)(*state >> 16);
}

static void jrand_init(jrand_t *r, int64_t seed) {
  hl_java_random_init(&r->seed, seed);
}

static int32_t jrand_next_int(jrand_t *r) {
  return hl_java_random_next_int(&r->seed);
}

static int32_t odd_draw(jrand_t *r) {
  int32_t v;
  do
    v = jrand_next_int(r);
  while (v % 2 == 0);
  if (v < 0) v = (int32_t)((uint32_t)v + (1u << (BIT_VECTOR_SIZE - 1)));
  return v;
}

hl_status_t hl_hfm_init(hl_hfm_t *f, int n, hl_arena_t *arena, hl_error_t *err) {
  memset(f, 0, sizeof *f);
  f->n = n;
  if (n <= 0) return HL_OK;
  f->a = hl_arena_alloc(arena, sizeof(int32_t) * (size_t)n);
  f->b = hl_arena_alloc(arena, sizeof(int32_t) * (size_t)n);
  f->bits = hl_arena_zalloc(arena, sizeof(uint32_t) * (size_t)n);
  if (!f->a || !f->b || !f->bits) return hl_err_nomem(err);
  jrand_t ra, rb;
  jrand_init(&ra, 99397);
  jrand_init(&rb, 9876413);
  for (int i = 0; i < n; i++) {
    f->a[i] = odd_draw(&ra);
    f->b[i] = odd_draw(&rb);
  }
  return HL_OK;
}

void hl_hfm_add_long(hl_hfm_t *f, int64_t v) {
  const int64_t mod = (1ll << BIT_VECTOR_SIZE) - 1;
  for (int i = 0; i < f->n; i++) {
    int64_t t = (int64_t)((uint64_t)(int64_t)f->a[i] * (uint64_t)v + (uint64_t)(int64_t)f->b[i]);
    t %= mod; /* C and Java: the sign of the dividend */
    int32_t h = (int32_t)t;
    if (h < 0) h = (int32_t)(h + mod);
    int idx = 0;
    while (idx < BIT_VECTOR_SIZE && h % 2 == 0) {
      h >>= 1;
      idx++;
    }
    f->bits[i] |= 1u << idx;
  }
}

void hl_hfm_add_double(hl_hfm_t *f, double d) {
  int64_t bits = hl_java_double_bits(d);
  /* Double.hashCode: (int) (bits ^ (bits >>> 32)), widened back to long */
  hl_hfm_add_long(f, (int32_t)(uint32_t)((uint64_t)bits ^ ((uint64_t)bits >> 32)));
}

void hl_hfm_merge(hl_hfm_t *d, const hl_hfm_t *s) {
  for (int i = 0; i < d->n && i < s->n; i++)
    d->bits[i] |= s->bits[i];
}

static int lowest_clear(uint32_t bits) {
  return bits == UINT32_MAX ? 32 : __builtin_ctz(~bits);
}

static int64_t estimate_of(int64_t sum, int n) {
  if (n <= 0) return 0; /* Java: 0 / 0.0 is NaN, and (long) NaN is 0 */
  double avg = (double)sum / (n * 1.0) - log(PHI) / log(2.0);
  return hl_java_d2l(pow(2.0, avg));
}

int64_t hl_hfm_estimate(const hl_hfm_t *f) {
  int64_t sum = 0;
  for (int i = 0; i < f->n; i++)
    sum += lowest_clear(f->bits[i]);
  return estimate_of(sum, f->n);
}

hl_status_t hl_hfm_serialize(const hl_hfm_t *f, hl_buf_t *out, hl_error_t *err) {
  uint8_t head[4] = {'F', 'M', (uint8_t)f->n, (uint8_t)((unsigned)f->n >> 8)};
  hl_buf_append(out, head, 4);
  for (int i = 0; i < f->n; i++) {
    uint32_t v = f->bits[i] & ((1u << BIT_VECTOR_SIZE) - 1);
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    hl_buf_append(out, le, 4);
  }
  if (out->oom) return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_hfm_estimate_bytes(const uint8_t *data, size_t len, int64_t *out, hl_error_t *err) {
  if (len < 2 || data[0] != 'F' || data[1] != 'M')
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "the bit vector is not a valid FMSketch: no FM magic");
  size_t pos = 2;
#define RD() (pos < len ? data[pos++] : 0xffu)
  unsigned lo = RD(), hi = RD();
  int n = (int)(lo | (hi << 8));
  int64_t sum = 0;
  for (int i = 0; i < n; i++) {
    uint32_t v = 0;
    for (int j = 0; j < 4; j++)
      v |= (uint32_t)RD() << (8 * j);
    sum += lowest_clear(v);
  }
#undef RD
  *out = estimate_of(sum, n);
  return HL_OK;
}
