/*
 * ds_kll.c -- the KLL floats sketch of datasketches-java 3.1.0 (ds_kll.h):
 * levels and their capacities, compaction on update and on merge, the
 * 3.1.0 queries, the byte form and toString.
 *
 * The steps follow Java's in order and with its tie rules, because the
 * bytes depend on them: level 0 is sorted with Arrays.sort's order (-0.0
 * before 0.0), two sorted runs merge taking the second run's item on a
 * tie, and the odd item of an odd level stays behind unsorted.  Working
 * buffers of a merge and a query are malloc'd and freed before return;
 * what the sketch keeps is in its arena (a buffer outgrown stays there
 * until the arena goes: a sketch grows by a level at most ~log2(n / k)
 * times).
 */
#include "util/ds_kll.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/value.h"

#define KLL_M          8
#define KLL_FAMILY     15
#define KLL_MAX_LEVELS 61 /* KllHelper.levelCapacity's bound */
#define FLAG_EMPTY     1
#define FLAG_SORTED    2
#define FLAG_SINGLE    4

/* ---- capacities (KllHelper.levelCapacity) */

static const uint64_t pow3[31] = {1ull,
                                  3ull,
                                  9ull,
                                  27ull,
                                  81ull,
                                  243ull,
                                  729ull,
                                  2187ull,
                                  6561ull,
                                  19683ull,
                                  59049ull,
                                  177147ull,
                                  531441ull,
                                  1594323ull,
                                  4782969ull,
                                  14348907ull,
                                  43046721ull,
                                  129140163ull,
                                  387420489ull,
                                  1162261467ull,
                                  3486784401ull,
                                  10460353203ull,
                                  31381059609ull,
                                  94143178827ull,
                                  282429536481ull,
                                  847288609443ull,
                                  2541865828329ull,
                                  7625597484987ull,
                                  22876792454961ull,
                                  68630377364883ull,
                                  205891132094649ull};

/* round(k * (2/3)^depth) in integers: 2k 2^depth / 3^depth, plus 1, halved */
static uint64_t cap_step(uint64_t k, int depth) {
  return (((k << 1) << depth) / pow3[depth] + 1) >> 1;
}

static uint64_t cap_depth(uint32_t k, int depth) {
  if (depth <= 30) return cap_step(k, depth);
  int half = depth / 2; /* folded so that 2k 2^depth stays within 64 bits */
  return cap_step(cap_step(k, half), depth - half);
}

static uint32_t level_cap(uint32_t k, uint32_t num_levels, uint32_t h) {
  uint64_t c = cap_depth(k, (int)(num_levels - h - 1));
  return c < KLL_M ? KLL_M : (uint32_t)c;
}

static uint32_t total_cap(uint32_t k, uint32_t num_levels) {
  uint64_t t = 0;
  for (uint32_t h = 0; h < num_levels; h++)
    t += level_cap(k, num_levels, h);
  return (uint32_t)t;
}

/* ---- the coin (SplitMix64; ds_kll.h says why not Java's) */

static uint32_t coin(hl_ds_kll_t *s) {
  uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 63);
}

/* ---- sorting and merging runs, with Java's order and tie rules */

/* Arrays.sort(float[]): -0.0 before 0.0 (there is no NaN in a sketch) */
static int cmp_float(const void *pa, const void *pb) {
  float a = *(const float *)pa, b = *(const float *)pb;
  if (a < b) return -1;
  if (a > b) return 1;
  return (int)(signbit(b) != 0) - (int)(signbit(a) != 0);
}

static void sort_floats(float *v, uint32_t n) {
  if (n > 1) qsort(v, n, sizeof *v, cmp_float);
}

/* KllHelper.mergeSortedArrays: A and B into C, B's item on a tie; C may
 * overlap the inputs the way compaction lays them out. */
static void merge_runs(const float *a, uint32_t na, const float *b, uint32_t nb, float *c) {
  uint32_t i = 0, j = 0;
  for (uint32_t o = 0; o < na + nb; o++) {
    if (i == na)
      c[o] = b[j++];
    else if (j == nb)
      c[o] = a[i++];
    else if (a[i] < b[j])
      c[o] = a[i++];
    else
      c[o] = b[j++];
  }
}

/* randomlyHalveUp: every other item of v[0..len) to the top half */
static void halve_up(hl_ds_kll_t *s, float *v, uint32_t len) {
  uint32_t half = len / 2;
  int64_t j = (int64_t)len - 1 - coin(s);
  for (int64_t i = (int64_t)len - 1; i >= (int64_t)half; i--, j -= 2)
    v[i] = v[j];
}

/* randomlyHalveDown: every other item to the bottom half */
static void halve_down(hl_ds_kll_t *s, float *v, uint32_t len) {
  uint32_t half = len / 2, j = coin(s);
  for (uint32_t i = 0; i < half; i++, j += 2)
    v[i] = v[j];
}

/* ---- the sketch */

static hl_status_t levels_room(hl_ds_kll_t *s, uint32_t need) {
  if (s->cap_levels >= need) return HL_OK;
  uint32_t cap = need + 4;
  uint32_t *l = hl_arena_alloc(s->arena, cap * sizeof *l);
  if (!l) return HL_NOMEM;
  memcpy(l, s->levels, (s->num_levels + 1) * sizeof *l);
  s->levels = l;
  s->cap_levels = cap;
  return HL_OK;
}

hl_status_t hl_ds_kll_check_k(int64_t k, hl_error_t *err) {
  if (k < HL_DS_KLL_MIN_K || k > HL_DS_KLL_MAX_K)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "K must be >= %d and <= %d: %lld", HL_DS_KLL_MIN_K, HL_DS_KLL_MAX_K,
                      (long long)k);
  return HL_OK;
}

/* S with K and NUM_LEVELS, its buffer of their capacity, no item yet. */
static hl_status_t kll_shape(hl_ds_kll_t *s, hl_arena_t *arena, uint32_t k, uint32_t num_levels) {
  memset(s, 0, sizeof *s);
  s->arena = arena;
  s->k = s->min_k = k;
  s->num_levels = num_levels;
  s->min = s->max = NAN;
  s->rng = HL_DS_KLL_SEED;
  s->cap_levels = num_levels + 3;
  uint32_t cap = total_cap(k, num_levels);
  s->levels = hl_arena_alloc(arena, s->cap_levels * sizeof *s->levels);
  s->items = hl_arena_alloc(arena, (size_t)cap * sizeof *s->items);
  if (!s->levels || !s->items) return HL_NOMEM;
  for (uint32_t i = 0; i <= num_levels; i++)
    s->levels[i] = cap;
  return HL_OK;
}

hl_status_t hl_ds_kll_init(hl_ds_kll_t *s, hl_arena_t *arena, uint32_t k) {
  return kll_shape(s, arena, k, 1);
}

bool hl_ds_kll_empty(const hl_ds_kll_t *s) {
  return s->n == 0;
}

static uint32_t level_size(const hl_ds_kll_t *s, uint32_t h) {
  return h < s->num_levels ? s->levels[h + 1] - s->levels[h] : 0;
}

static uint32_t retained(const hl_ds_kll_t *s) {
  return s->levels[s->num_levels] - s->levels[0];
}

/* addEmptyTopLevelToCompletelyFullSketch: a new bottom capacity below
 * the full buffer, everything shifted up by it. */
static hl_status_t add_top_level(hl_ds_kll_t *s) {
  uint32_t cur = s->levels[s->num_levels];
  uint32_t delta = level_cap(s->k, s->num_levels + 1, 0);
  if (levels_room(s, s->num_levels + 3) != HL_OK) return HL_NOMEM;
  float *items = hl_arena_alloc(s->arena, (size_t)(cur + delta) * sizeof *items);
  if (!items) return HL_NOMEM;
  memcpy(items + s->levels[0] + delta, s->items + s->levels[0],
         (size_t)(cur - s->levels[0]) * sizeof *items);
  s->items = items;
  for (uint32_t i = 0; i <= s->num_levels; i++)
    s->levels[i] += delta;
  s->num_levels++;
  s->levels[s->num_levels] = cur + delta;
  return HL_OK;
}

/* compressWhileUpdating: the buffer is full (levels[0] = 0); compact the
 * lowest level at its capacity into the one above. */
static hl_status_t compress_full(hl_ds_kll_t *s) {
  uint32_t level = 0;
  while (level + 1 < s->num_levels && level_size(s, level) < level_cap(s->k, s->num_levels, level))
    level++;
  if (level == s->num_levels - 1 && add_top_level(s) != HL_OK) return HL_NOMEM;
  uint32_t *L = s->levels;
  uint32_t raw_beg = L[level], raw_lim = L[level + 1];
  uint32_t pop_above = L[level + 2] - raw_lim;
  uint32_t raw_pop = raw_lim - raw_beg, odd = raw_pop & 1;
  uint32_t adj_beg = raw_beg + odd, adj_pop = raw_pop - odd, half = adj_pop / 2;
  if (level == 0) sort_floats(s->items + adj_beg, adj_pop);
  if (pop_above == 0) {
    halve_up(s, s->items + adj_beg, adj_pop);
  } else {
    halve_down(s, s->items + adj_beg, adj_pop);
    merge_runs(s->items + adj_beg, half, s->items + raw_lim, pop_above, s->items + adj_beg + half);
  }
  L[level + 1] -= half;
  if (odd) {
    L[level] = L[level + 1] - 1;
    s->items[L[level]] = s->items[raw_beg];
  } else {
    L[level] = L[level + 1];
  }
  if (level > 0) { /* the levels below move up into the freed room */
    memmove(s->items + L[0] + half, s->items + L[0], (size_t)(raw_beg - L[0]) * sizeof(float));
    for (uint32_t h = 0; h < level; h++)
      L[h] += half;
  }
  return HL_OK;
}

hl_status_t hl_ds_kll_update(hl_ds_kll_t *s, float v) {
  if (isnan(v)) return HL_OK;
  if (s->levels[0] == 0 && compress_full(s) != HL_OK) return HL_NOMEM;
  if (s->n == 0) {
    s->min = s->max = v;
  } else {
    if (v < s->min) s->min = v;
    if (v > s->max) s->max = v;
  }
  s->n++;
  s->sorted0 = false;
  s->items[--s->levels[0]] = v;
  return HL_OK;
}

/* 1 + floor(log2(n)) (KllHelper.ubOnNumLevels), n > 0 */
static uint32_t ub_levels(uint64_t n) {
  return 64 - (uint32_t)__builtin_clzll(n);
}

#define WORK_LEVELS 70 /* more than ub_levels of any 64-bit n, plus 2 */

/* KllHelper.generalCompress over BUF with levels IN (trashed) into OUT
 * (in place); returns the number of levels, *CAP the capacity, *POP
 * the items left. */
static uint32_t general_compress(hl_ds_kll_t *s, uint32_t nl, float *buf, uint32_t *in,
                                 uint32_t *out, uint32_t *cap, uint32_t *pop) {
  uint32_t k = s->k;
  uint32_t count = in[nl] - in[0], target = total_cap(k, nl);
  out[0] = 0;
  for (uint32_t cur = 0;; cur++) {
    if (cur == nl - 1) in[cur + 2] = in[cur + 1]; /* an empty level above the top */
    uint32_t raw_beg = in[cur], raw_lim = in[cur + 1], raw_pop = raw_lim - raw_beg;
    if (count < target || raw_pop < level_cap(k, nl, cur)) {
      memmove(buf + out[cur], buf + raw_beg, (size_t)raw_pop * sizeof *buf);
      out[cur + 1] = out[cur] + raw_pop;
    } else {
      uint32_t pop_above = in[cur + 2] - raw_lim, odd = raw_pop & 1;
      uint32_t adj_beg = raw_beg + odd, adj_pop = raw_pop - odd, half = adj_pop / 2;
      if (odd) buf[out[cur]] = buf[raw_beg];
      out[cur + 1] = out[cur] + odd;
      if (cur == 0 && !s->sorted0) sort_floats(buf + adj_beg, adj_pop);
      if (pop_above == 0) {
        halve_up(s, buf + adj_beg, adj_pop);
      } else {
        halve_down(s, buf + adj_beg, adj_pop);
        merge_runs(buf + adj_beg, half, buf + raw_lim, pop_above, buf + adj_beg + half);
      }
      count -= half;
      in[cur + 1] -= half;
      if (cur == nl - 1 && nl + 3 < WORK_LEVELS) {
        nl++;
        target += level_cap(k, nl, 0);
      }
    }
    if (cur == nl - 1) break;
  }
  *cap = target;
  *pop = count;
  return nl;
}

/* mergeHigherLevels: S's items (O's level 0 already in) and O's upper
 * levels, level by level, compacted in one pass. */
static hl_status_t merge_higher(hl_ds_kll_t *s, const hl_ds_kll_t *o) {
  uint32_t prov = s->num_levels > o->num_levels ? s->num_levels : o->num_levels;
  uint32_t in[WORK_LEVELS], out[WORK_LEVELS];
  if (prov + 3 > WORK_LEVELS) return HL_NOMEM; /* not a sketch n can make */
  size_t need = (size_t)retained(s) + (o->levels[o->num_levels] - o->levels[1]);
  float *work = malloc((need ? need : 1) * sizeof *work);
  if (!work) return HL_NOMEM;
  in[0] = 0;
  uint32_t pop0 = level_size(s, 0);
  memcpy(work, s->items + s->levels[0], (size_t)pop0 * sizeof *work);
  in[1] = pop0;
  for (uint32_t h = 1; h < prov; h++) {
    uint32_t sp = level_size(s, h), op = level_size(o, h);
    in[h + 1] = in[h] + sp + op;
    if (sp && !op)
      memcpy(work + in[h], s->items + s->levels[h], (size_t)sp * sizeof *work);
    else if (op && !sp)
      memcpy(work + in[h], o->items + o->levels[h], (size_t)op * sizeof *work);
    else if (sp && op)
      merge_runs(s->items + s->levels[h], sp, o->items + o->levels[h], op, work + in[h]);
  }
  uint32_t cap, pop;
  uint32_t nl = general_compress(s, prov, work, in, out, &cap, &pop);
  float *items = s->items;
  if (cap != s->levels[s->num_levels])
    items = hl_arena_alloc(s->arena, (size_t)cap * sizeof *items);
  if (!items || levels_room(s, nl + 3) != HL_OK) {
    free(work);
    return HL_NOMEM;
  }
  uint32_t bottom = cap - pop;
  memcpy(items + bottom, work + out[0], (size_t)pop * sizeof *items);
  for (uint32_t h = 0; h <= nl; h++)
    s->levels[h] = out[h] - out[0] + bottom;
  s->items = items;
  s->num_levels = nl;
  free(work);
  return HL_OK;
}

hl_status_t hl_ds_kll_merge(hl_ds_kll_t *s, const hl_ds_kll_t *o) {
  if (o->n == 0) return HL_OK;
  uint64_t final_n = s->n + o->n;
  for (uint32_t i = o->levels[0]; i < o->levels[1]; i++)
    if (hl_ds_kll_update(s, o->items[i]) != HL_OK) return HL_NOMEM;
  if (o->num_levels >= 2 && merge_higher(s, o) != HL_OK) return HL_NOMEM;
  if (isnan(s->min) || o->min < s->min) s->min = o->min;
  if (isnan(s->max) || o->max > s->max) s->max = o->max;
  s->n = final_n;
  if (o->num_levels > 1 && o->min_k < s->min_k) s->min_k = o->min_k;
  return HL_OK;
}

hl_status_t hl_ds_kll_copy(hl_ds_kll_t *d, const hl_ds_kll_t *s, hl_arena_t *arena) {
  *d = *s;
  d->arena = arena;
  d->cap_levels = s->num_levels + 3;
  uint32_t cap = s->levels[s->num_levels];
  d->levels = hl_arena_alloc(arena, d->cap_levels * sizeof *d->levels);
  d->items = hl_arena_alloc(arena, (size_t)cap * sizeof *d->items);
  if (!d->levels || !d->items) return HL_NOMEM;
  memcpy(d->levels, s->levels, (s->num_levels + 1) * sizeof *d->levels);
  memcpy(d->items + s->levels[0], s->items + s->levels[0], (size_t)retained(s) * sizeof(float));
  return HL_OK;
}

/* ---- bytes */

static void put_u16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void put_float(uint8_t *p, float f) {
  uint32_t v;
  memcpy(&v, &f, sizeof v);
  put_u32(p, v);
}

static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float get_float(const uint8_t *p) {
  uint32_t v = get_u32(p);
  float f;
  memcpy(&f, &v, sizeof f);
  return f;
}

/* getSerializedSizeBytes */
static size_t ser_size(const hl_ds_kll_t *s) {
  if (s->n == 0) return 8;
  if (s->n == 1) return 12;
  return 20 + (size_t)s->num_levels * 4 + ((size_t)retained(s) + 2) * 4;
}

void hl_ds_kll_serialize(const hl_ds_kll_t *s, hl_buf_t *out) {
  size_t len = ser_size(s);
  if (hl_buf_reserve(out, len) != 0) return;
  uint8_t *p = (uint8_t *)out->data + out->len;
  memset(p, 0, len);
  bool single = s->n == 1;
  p[0] = s->n <= 1 ? 2 : 5;
  p[1] = single ? 2 : 1;
  p[2] = KLL_FAMILY;
  p[3] = (uint8_t)((s->n == 0 ? FLAG_EMPTY : 0) | (s->sorted0 ? FLAG_SORTED : 0) |
                   (single ? FLAG_SINGLE : 0));
  put_u16(p + 4, s->k);
  p[6] = KLL_M;
  size_t off = 8;
  if (s->n > 1) {
    for (int i = 0; i < 8; i++)
      p[8 + i] = (uint8_t)(s->n >> (8 * i));
    put_u16(p + 16, s->min_k);
    p[18] = (uint8_t)s->num_levels;
    off = 20;
    for (uint32_t h = 0; h < s->num_levels; h++, off += 4)
      put_u32(p + off, s->levels[h]);
    put_float(p + off, s->min);
    put_float(p + off + 4, s->max);
    off += 8;
  }
  if (s->n > 0)
    for (uint32_t i = s->levels[0]; i < s->levels[s->num_levels]; i++, off += 4)
      put_float(p + off, s->items[i]);
  out->len += len;
}

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "not a KLL floats sketch: %s",
                    what);
}

static bool sorted_run(const float *v, uint32_t n) {
  for (uint32_t i = 1; i < n; i++)
    if (v[i] < v[i - 1]) return false;
  return true;
}

/* The full form's levels, min, max and items (after the 20-byte head). */
static hl_status_t read_full(const uint8_t *data, size_t len, hl_ds_kll_t *s, uint8_t flags,
                             hl_error_t *err) {
  uint64_t n = 0;
  for (int i = 0; i < 8; i++)
    n |= (uint64_t)data[8 + i] << (8 * i);
  uint32_t min_k = (uint32_t)data[16] | (uint32_t)data[17] << 8;
  uint32_t nl = data[18];
  if (n < 2) return bad(err, "a full sketch of fewer than 2 items");
  if (nl < 1 || nl > KLL_MAX_LEVELS || nl > ub_levels(n))
    return bad(err, "a number of levels its n cannot have");
  if (min_k < HL_DS_KLL_MIN_K || min_k > s->k) return bad(err, "min k out of range");
  if (len < 20 + (size_t)nl * 4 + 8) return bad(err, "the bytes end early");
  hl_arena_t *arena = s->arena;
  uint32_t k = s->k;
  if (kll_shape(s, arena, k, nl) != HL_OK) return HL_NOMEM;
  uint32_t cap = s->levels[nl];
  for (uint32_t h = 0; h < nl; h++) {
    s->levels[h] = get_u32(data + 20 + 4 * h);
    if (s->levels[h] > cap || (h && s->levels[h] < s->levels[h - 1]))
      return bad(err, "level offsets out of order");
  }
  s->levels[nl] = cap;
  size_t off = 20 + (size_t)nl * 4;
  s->min = get_float(data + off);
  s->max = get_float(data + off + 4);
  off += 8;
  uint32_t nret = cap - s->levels[0];
  if (len != off + (size_t)nret * 4) return bad(err, "its length is not its items'");
  for (uint32_t i = 0; i < nret; i++) {
    float f = get_float(data + off + 4 * (size_t)i);
    if (isnan(f)) return bad(err, "a NaN item");
    s->items[s->levels[0] + i] = f;
  }
  if (isnan(s->min) || isnan(s->max) || s->min > s->max) return bad(err, "min and max");
  /* the weights add up to n; the upper levels are sorted, and so is level
   * 0 when the flag says it is; the top level is not empty */
  uint64_t total = 0;
  for (uint32_t h = 0; h < nl; h++) {
    uint32_t sz = level_size(s, h);
    if (h > 0 || (flags & FLAG_SORTED))
      if (!sorted_run(s->items + s->levels[h], sz)) return bad(err, "an unsorted level");
    if (sz > (UINT64_MAX - total) >> h) return bad(err, "its weights overflow");
    total += (uint64_t)sz << h;
  }
  if (total != n) return bad(err, "its weights do not add up to n");
  if (nl > 1 && level_size(s, nl - 1) == 0) return bad(err, "an empty top level");
  for (uint32_t i = s->levels[0]; i < cap; i++)
    if (s->items[i] < s->min || s->items[i] > s->max) return bad(err, "an item outside min, max");
  s->n = n;
  s->min_k = min_k;
  s->sorted0 = (flags & FLAG_SORTED) != 0;
  return HL_OK;
}

hl_status_t hl_ds_kll_deserialize(const uint8_t *data, size_t len, hl_arena_t *arena,
                                  hl_ds_kll_t *s, hl_error_t *err) {
  memset(s, 0, sizeof *s);
  if (len < 8) return bad(err, "fewer than 8 bytes");
  uint8_t pre = data[0], ver = data[1], fam = data[2], flags = data[3];
  uint32_t k = (uint32_t)data[4] | (uint32_t)data[5] << 8;
  if (data[6] != KLL_M) return bad(err, "M must be 8");
  bool empty = flags & FLAG_EMPTY, single = flags & FLAG_SINGLE;
  if ((empty || single) ? pre != 2 : pre != 5) return bad(err, "wrong preamble ints");
  if (ver != 1 && ver != 2) return bad(err, "serial version mismatch");
  if (fam != KLL_FAMILY) return bad(err, "family mismatch");
  if (k < HL_DS_KLL_MIN_K) return bad(err, "k below 8");
  if (kll_shape(s, arena, k, 1) != HL_OK) return HL_NOMEM;
  if (empty) return len == 8 ? HL_OK : bad(err, "an empty sketch longer than 8 bytes");
  if (single) {
    if (len != 12) return bad(err, "a single-item sketch not 12 bytes long");
    float f = get_float(data + 8);
    if (isnan(f)) return bad(err, "a NaN item");
    s->items[--s->levels[0]] = f;
    s->n = 1;
    s->min = s->max = f;
    s->sorted0 = (flags & FLAG_SORTED) != 0;
    return HL_OK;
  }
  if (len < 20) return bad(err, "the bytes end early");
  return read_full(data, len, s, flags, err);
}

/* ---- queries */

double hl_ds_kll_rank(const hl_ds_kll_t *s, float v) {
  if (s->n == 0) return NAN;
  uint64_t total = 0;
  for (uint32_t h = 0; h < s->num_levels; h++)
    for (uint32_t i = s->levels[h]; i < s->levels[h + 1]; i++) {
      if (s->items[i] < v)
        total += (uint64_t)1 << h;
      else if (h > 0 || s->sorted0)
        break; /* a sorted level has no smaller item after this */
    }
  return (double)total / (double)s->n;
}

hl_status_t hl_ds_kll_pmf(const hl_ds_kll_t *s, const float *splits, size_t n_splits, bool cdf,
                          double *out, bool *is_null, hl_error_t *err) {
  *is_null = s->n == 0;
  if (*is_null) return HL_OK;
  for (size_t i = 0; i < n_splits; i++) {
    if (!isfinite(splits[i]))
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "Values must be finite");
    if (i + 1 < n_splits && splits[i] >= splits[i + 1])
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "Values must be unique and monotonically increasing");
  }
  for (size_t j = 0; j <= n_splits; j++)
    out[j] = 0;
  for (uint32_t h = 0; h < s->num_levels; h++) {
    double w = (double)((uint64_t)1 << h);
    uint32_t i = s->levels[h], lim = s->levels[h + 1];
    if (h == 0 && !s->sorted0) {
      for (; i < lim; i++) {
        size_t j = 0;
        while (j < n_splits && !(s->items[i] < splits[j]))
          j++;
        out[j] += w;
      }
    } else {
      size_t j = 0;
      while (i < lim && j < n_splits) {
        if (s->items[i] < splits[j]) {
          out[j] += w;
          i++;
        } else {
          j++;
        }
      }
      if (j == n_splits) out[j] += w * (double)(lim - i);
    }
  }
  double sub = 0;
  for (size_t j = 0; j <= n_splits; j++) {
    if (cdf) {
      sub += out[j];
      out[j] = sub / (double)s->n;
    } else {
      out[j] /= (double)s->n;
    }
  }
  return HL_OK;
}

/* KllFloatsQuantileCalculator: the items with their weights, merged into
 * one sorted run level by level (blockyTandemMergeSort), weights turned
 * into the total weight before each item. */
typedef struct kll_calc {
  float *items;
  uint64_t *w; /* n_items + 1 */
  uint32_t n_items;
} kll_calc_t;

static void tandem_merge(const float *si, const uint64_t *sw, float *di, uint64_t *dw,
                         const uint32_t *lv, uint32_t s1, uint32_t n1, uint32_t s2, uint32_t n2) {
  uint32_t a = lv[s1], alim = lv[s1 + n1], b = lv[s2], blim = lv[s2 + n2], o = lv[s1];
  while (a < alim && b < blim) {
    if (si[a] < si[b]) {
      di[o] = si[a];
      dw[o++] = sw[a++];
    } else {
      di[o] = si[b];
      dw[o++] = sw[b++];
    }
  }
  for (; a < alim; a++, o++) {
    di[o] = si[a];
    dw[o] = sw[a];
  }
  for (; b < blim; b++, o++) {
    di[o] = si[b];
    dw[o] = sw[b];
  }
}

static void tandem_sort(float *si, uint64_t *sw, float *di, uint64_t *dw, const uint32_t *lv,
                        uint32_t start, uint32_t nl) {
  if (nl == 1) return;
  uint32_t n1 = nl / 2, n2 = nl - n1;
  tandem_sort(di, dw, si, sw, lv, start, n1);
  tandem_sort(di, dw, si, sw, lv, start + n1, n2);
  tandem_merge(si, sw, di, dw, lv, start, n1, start + n1, n2);
}

static hl_status_t calc_build(hl_ds_kll_t *s, kll_calc_t *c) {
  if (!s->sorted0) { /* sortLevelZero: Java sorts the sketch itself */
    sort_floats(s->items + s->levels[0], level_size(s, 0));
    s->sorted0 = true;
  }
  uint32_t n = retained(s), off = s->levels[0];
  c->n_items = n;
  c->items = malloc((size_t)n * 2 * sizeof *c->items);
  c->w = malloc(((size_t)n * 2 + 1) * sizeof *c->w);
  if (!c->items || !c->w) {
    free(c->items);
    free(c->w);
    return HL_NOMEM;
  }
  memcpy(c->items, s->items + off, (size_t)n * sizeof *c->items);
  uint32_t lv[KLL_MAX_LEVELS + 2], nl = 0;
  for (uint32_t h = 0; h < s->num_levels; h++) {
    uint32_t from = s->levels[h] - off, to = s->levels[h + 1] - off;
    if (from == to) continue; /* empty levels are skipped */
    for (uint32_t i = from; i < to; i++)
      c->w[i] = (uint64_t)1 << h;
    lv[nl] = from;
    lv[++nl] = to;
  }
  c->w[n] = 0;
  if (nl > 1) { /* ping-pong between the run and a copy of it */
    float *ti = c->items + n;
    uint64_t *tw = c->w + n + 1;
    memcpy(ti, c->items, (size_t)n * sizeof *ti);
    memcpy(tw, c->w, (size_t)n * sizeof *tw);
    tandem_sort(ti, tw, c->items, c->w, lv, 0, nl);
  }
  uint64_t sub = 0;
  for (uint32_t i = 0; i <= n; i++) {
    uint64_t next = sub + c->w[i];
    c->w[i] = sub;
    sub = next;
  }
  return HL_OK;
}

/* getQuantile of the calculator: the item whose weights hold position
 * floor(phi n) (QuantilesHelper.posOfPhi, chunkContainingPos) */
static float calc_quantile(const kll_calc_t *c, double phi, uint64_t n) {
  double p = floor(phi * (double)n);
  uint64_t pos = p != p || p <= 0 ? 0 : p >= (double)n ? n - 1 : (uint64_t)p;
  uint32_t l = 0, r = c->n_items;
  while (l + 1 < r) {
    uint32_t m = l + (r - l) / 2;
    if (c->w[m] <= pos)
      l = m;
    else
      r = m;
  }
  return c->items[l];
}

hl_status_t hl_ds_kll_quantiles(hl_ds_kll_t *s, const double *fracs, size_t n, float *out,
                                hl_error_t *err) {
  kll_calc_t c = {NULL, NULL, 0};
  bool built = false;
  hl_status_t rc = HL_OK;
  for (size_t i = 0; i < n && rc == HL_OK; i++) {
    double f = fracs[i];
    if (s->n == 0) {
      out[i] = NAN;
    } else if (f == 0.0) {
      out[i] = s->min;
    } else if (f == 1.0) {
      out[i] = s->max;
    } else if (f < 0.0 || f > 1.0) {
      rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Fraction cannot be less than zero or greater than 1.0");
    } else {
      if (!built) {
        if (calc_build(s, &c) != HL_OK) return hl_err_nomem(err);
        built = true;
      }
      out[i] = calc_quantile(&c, f, s->n);
    }
  }
  free(c.items);
  free(c.w);
  return rc;
}

/* String.format("%.3f%%", x): Java rounds the shortest decimal digits of
 * x half up (FormattedFloatingDecimal), not x's binary value. */
static void put_pct3(hl_buf_t *out, double x) {
  if (x == 0 || !isfinite(x)) {
    hl_buf_puts(out, "0.000%");
    return;
  }
  char d[24];
  int nd, e10;
  hl_double_digits(x, false, d, &nd, &e10);
  /* the value is 0.d[0]d[1]... x 10^(e10 + 1); keep e10 + 4 digits */
  int keep = e10 + 4;
  char dig[40];
  int nk = 0;
  if (keep < 0) keep = -1;
  for (int i = 0; i < keep && nk < 39; i++)
    dig[nk++] = i < nd ? d[i] : '0';
  bool up = keep >= 0 && keep < nd && d[keep] >= '5';
  if (keep == -1) up = false;
  int exp10 = e10; /* of dig[0] */
  if (up) {
    int i = nk - 1;
    while (i >= 0 && dig[i] == '9')
      dig[i--] = '0';
    if (i >= 0) {
      dig[i]++;
    } else {
      memmove(dig + 1, dig, (size_t)nk);
      dig[0] = '1';
      nk++;
      exp10++;
    }
  }
  /* integer part: digits with exponent >= 0 */
  if (exp10 < 0) {
    hl_buf_putc(out, '0');
  } else {
    for (int i = 0; i <= exp10; i++)
      hl_buf_putc(out, i < nk ? dig[i] : '0');
  }
  hl_buf_putc(out, '.');
  for (int p = -1; p >= -3; p--) {
    int i = exp10 - p; /* index of the digit of exponent p */
    hl_buf_putc(out, i >= 0 && i < nk ? dig[i] : '0');
  }
  hl_buf_putc(out, '%');
}

static void put_float_java(hl_buf_t *out, float f) {
  hl_format_double(out, (double)f, true);
}

void hl_ds_kll_to_string(const hl_ds_kll_t *s, hl_buf_t *out) {
  double k = (double)s->min_k;
  hl_buf_puts(out, "\n### KLL sketch summary:\n");
  hl_buf_printf(out, "   K                    : %u\n", s->k);
  hl_buf_printf(out, "   min K                : %u\n", s->min_k);
  hl_buf_printf(out, "   M                    : %d\n", KLL_M);
  hl_buf_printf(out, "   N                    : %llu\n", (unsigned long long)s->n);
  hl_buf_puts(out, "   Epsilon              : ");
  put_pct3(out, 2.296 / pow(k, 0.9723) * 100);
  hl_buf_puts(out, "\n   Epsison PMF          : ");
  put_pct3(out, 2.446 / pow(k, 0.9433) * 100);
  hl_buf_printf(out, "\n   Empty                : %s\n", s->n == 0 ? "true" : "false");
  hl_buf_printf(out, "   Estimation Mode      : %s\n", s->num_levels > 1 ? "true" : "false");
  hl_buf_printf(out, "   Levels               : %u\n", s->num_levels);
  hl_buf_printf(out, "   Sorted               : %s\n", s->sorted0 ? "true" : "false");
  hl_buf_printf(out, "   Buffer Capacity Items: %u\n", s->levels[s->num_levels]);
  hl_buf_printf(out, "   Retained Items       : %u\n", retained(s));
  hl_buf_printf(out, "   Storage Bytes        : %zu\n", ser_size(s));
  hl_buf_puts(out, "   Min Value            : ");
  put_float_java(out, s->min);
  hl_buf_puts(out, "\n   Max Value            : ");
  put_float_java(out, s->max);
  hl_buf_puts(out, "\n### End sketch summary\n");
}
