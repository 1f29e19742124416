/*
 * ds_theta.c -- the DataSketches Theta sketch (ds_theta.h): the
 * QuickSelect gadget of a union, the union's theta rule and result, the
 * intersection and A-not-B rules, the estimate, and the serialized form
 * read and written as datasketches-java does.
 *
 * The gadget follows HeapQuickSelectSketch's sizes so that its rebuilds
 * (which fix theta) come at the same counts as Java's: a table starts at
 * 2^((lgNom + 1 - 5) % 3 + 5) slots, grows by 8 (at most to 2k) past half
 * full and, at 2k, is rebuilt past 15/16 full to the k smallest hashes,
 * theta becoming the (k+1)-th.  Where a hash lands in the table does not
 * matter (results are sorted), so the probe is Java's but nothing depends
 * on it.
 */
#include "util/ds_theta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/murmur3.h"

enum { FAM_ALPHA = 1, FAM_QS = 2, FAM_COMPACT = 3 };
enum {
  F_READ_ONLY = 2,
  F_EMPTY = 4,
  F_COMPACT = 8,
  F_ORDERED = 16,
  F_SINGLE = 32,
};

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "not a valid Theta sketch: %s",
                    what);
}

static uint64_t rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

hl_status_t hl_ds_theta_seed_hash(int64_t seed, uint16_t *out, hl_error_t *err) {
  uint64_t h[2];
  hl_ds_hash_long(seed, 0, h);
  *out = (uint16_t)(h[0] & 0xffff);
  if (*out == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "The given seed: %lld produced a seedHash of zero. You must choose a "
                      "different seed.",
                      (long long)seed);
  return HL_OK;
}

static hl_status_t seed_check(uint16_t got, uint16_t want, hl_error_t *err) {
  if (got == want) return HL_OK;
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "Incompatible Seed Hashes. %x, %x", got, want);
}

/* ---- the QuickSelect gadget */

static uint32_t qs_threshold(int lg_nom, int lg_arr) {
  /* RESIZE_THRESHOLD 0.5 below the full size, REBUILD_THRESHOLD 15/16 at it */
  uint32_t n = 1u << lg_arr;
  return lg_arr <= lg_nom ? n / 2 : n / 16 * 15;
}

/* getThetaLong(): 1.0 while nothing was hashed */
static uint64_t qs_theta(const hl_ds_theta_qs_t *g) {
  return g->empty ? HL_DS_THETA_MAX : g->theta;
}

/* Inserts H (not 0) unless it is there; true when inserted. */
static bool table_put(uint64_t *t, int lg, uint64_t h) {
  uint32_t mask = (1u << lg) - 1;
  uint32_t stride = 2 * (uint32_t)((h >> lg) & 127) + 1;
  uint32_t i = (uint32_t)(h & mask);
  for (;;) { /* never full: counts stay below the thresholds */
    if (t[i] == 0) {
      t[i] = h;
      return true;
    }
    if (t[i] == h) return false;
    i = (i + stride) & mask;
  }
}

static hl_status_t qs_resize(hl_ds_theta_qs_t *g, hl_arena_t *arena, hl_error_t *err) {
  int delta = g->lg_nom + 1 - g->lg_arr;
  int lg = g->lg_arr + (delta < 3 ? (delta < 1 ? 1 : delta) : 3);
  uint64_t *t = hl_arena_zalloc(arena, sizeof(uint64_t) << lg);
  if (!t) return hl_err_nomem(err);
  for (uint32_t i = 0; i < 1u << g->lg_arr; i++)
    if (g->table[i]) table_put(t, lg, g->table[i]);
  g->table = t;
  g->lg_arr = (uint8_t)lg;
  g->threshold = qs_threshold(g->lg_nom, lg);
  return HL_OK;
}

/* theta becomes the (k+1)-th smallest hash; the k below it stay */
static hl_status_t qs_rebuild(hl_ds_theta_qs_t *g, hl_error_t *err) {
  uint32_t n = 1u << g->lg_arr, k = 1u << g->lg_nom, c = 0;
  uint64_t *tmp = hl_malloc(sizeof(uint64_t) * g->count);
  if (!tmp) return hl_err_nomem(err);
  for (uint32_t i = 0; i < n; i++)
    if (g->table[i]) tmp[c++] = g->table[i];
  qsort(tmp, c, sizeof *tmp, cmp_u64);
  g->theta = tmp[k];
  memset(g->table, 0, sizeof(uint64_t) * n);
  for (uint32_t i = 0; i < k; i++)
    table_put(g->table, g->lg_arr, tmp[i]);
  g->count = k;
  hl_free(tmp);
  return HL_OK;
}

static hl_status_t qs_hash_update(hl_ds_theta_qs_t *g, uint64_t h, hl_arena_t *arena,
                                  hl_error_t *err) {
  if (h >> 63) return bad(err, "Data Corruption: hash was negative");
  g->empty = false;
  if (h == 0 || h >= g->theta) return HL_OK; /* over theta */
  if (!table_put(g->table, g->lg_arr, h)) return HL_OK;
  if (++g->count <= g->threshold) return HL_OK;
  return g->lg_arr <= g->lg_nom ? qs_resize(g, arena, err) : qs_rebuild(g, err);
}

/* ---- union */

hl_status_t hl_ds_theta_union_init(hl_ds_theta_union_t *u, int64_t k, float p, int64_t seed,
                                   hl_arena_t *arena, hl_error_t *err) {
  memset(u, 0, sizeof *u);
  int lg = 0;
  while (lg < 31 && ((int64_t)1 << lg) < k)
    lg++;
  if (lg > 26 || lg < 4)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Nominal Entries must be >= 16 and <= 67108864: %lld", (long long)k);
  if (!(p > 0.0f) || p > 1.0f) {
    /* Float.toString: the shortest digits that read back, at least one decimal */
    char num[48];
    for (int prec = 1; prec <= 9; prec++) {
      snprintf(num, sizeof num, "%.*g", prec, (double)p);
      if ((float)strtod(num, NULL) == p) break;
    }
    if (!strpbrk(num, ".en")) strcat(num, ".0");
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "p must be > 0 and <= 1.0: %s",
                      num);
  }
  if (hl_ds_theta_seed_hash(seed, &u->seed_hash, err) != HL_OK) return HL_ERROR;
  u->seed = (uint64_t)seed;
  hl_ds_theta_qs_t *g = &u->g;
  g->lg_nom = (uint8_t)lg;
  int target = lg + 1;
  g->lg_arr = (uint8_t)(target <= 5 ? 5 : (target - 5) % 3 + 5);
  g->threshold = qs_threshold(lg, g->lg_arr);
  /* (long)(p * 2^63), saturating at Long.MAX_VALUE as Java's cast does */
  double t = (double)p * 9223372036854775808.0;
  g->theta = t >= 9223372036854775807.0 ? HL_DS_THETA_MAX : (uint64_t)t;
  g->empty = true;
  if (!(g->table = hl_arena_zalloc(arena, sizeof(uint64_t) << g->lg_arr))) return hl_err_nomem(err);
  u->union_theta = HL_DS_THETA_MAX;
  u->union_empty = true;
  return HL_OK;
}

hl_status_t hl_ds_theta_union_update(hl_ds_theta_union_t *u, uint64_t hash, hl_arena_t *arena,
                                     hl_error_t *err) {
  return qs_hash_update(&u->g, hash, arena, err);
}

static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

/* The theta rule and the hashes below the union's theta: N entries from
 * ARR or (little-endian) LE, ascending when ORDERED (an early stop). */
static hl_status_t union_entries(hl_ds_theta_union_t *u, uint64_t theta_in, const uint64_t *arr,
                                 const uint8_t *le, uint32_t n, bool ordered, hl_arena_t *arena,
                                 hl_error_t *err) {
  u->union_theta = min64(min64(u->union_theta, theta_in), qs_theta(&u->g));
  u->union_empty = false;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t h = arr ? arr[i] : rd64(le + 8 * (size_t)i);
    if (h >= u->union_theta) {
      if (ordered) break;
      continue;
    }
    if (h == 0) continue;
    if (qs_hash_update(&u->g, h, arena, err) != HL_OK) return HL_ERROR;
  }
  u->union_theta = min64(u->union_theta, qs_theta(&u->g));
  return HL_OK;
}

hl_status_t hl_ds_theta_union_view(hl_ds_theta_union_t *u, const hl_ds_theta_view_t *v,
                                   hl_arena_t *arena, hl_error_t *err) {
  if (v->empty) return HL_OK;
  if (v->pre_longs == 1 && v->count == 1) /* a single item: only its hash */
    return qs_hash_update(&u->g, rd64(v->entries), arena, err);
  return union_entries(u, v->theta, NULL, v->entries, v->n_slots, v->ordered, arena, err);
}

hl_status_t hl_ds_theta_union_compact(hl_ds_theta_union_t *u, const hl_ds_theta_compact_t *c,
                                      hl_arena_t *arena, hl_error_t *err) {
  if (c->empty || (c->count == 0 && c->theta == HL_DS_THETA_MAX)) return HL_OK;
  if (seed_check(c->seed_hash, u->seed_hash, err) != HL_OK) return HL_ERROR;
  if (c->count == 1 && c->theta == HL_DS_THETA_MAX) /* SingleItemSketch */
    return qs_hash_update(&u->g, c->hashes[0], arena, err);
  return union_entries(u, c->theta, c->hashes, NULL, c->count, true, arena, err);
}

void hl_ds_theta_union_result(const hl_ds_theta_union_t *u, uint64_t *buf,
                              hl_ds_theta_compact_t *out) {
  const hl_ds_theta_qs_t *g = &u->g;
  uint32_t n = 0, k = 1u << g->lg_nom;
  for (uint32_t i = 0; i < 1u << g->lg_arr; i++)
    if (g->table[i]) buf[n++] = g->table[i];
  qsort(buf, n, sizeof *buf, cmp_u64);
  uint64_t theta = qs_theta(g);
  if (n > k) theta = min64(theta, buf[k]); /* pulled back to k */
  theta = min64(theta, u->union_theta);
  while (n > 0 && buf[n - 1] >= theta)
    n--;
  out->hashes = buf;
  out->count = n;
  out->theta = theta;
  out->seed_hash = u->seed_hash;
  out->empty = (g->empty && u->union_empty) || (n == 0 && theta == HL_DS_THETA_MAX);
}

/* ---- reading */

uint64_t hl_ds_theta_entry(const hl_ds_theta_view_t *v, uint32_t i) {
  return rd64(v->entries + 8 * (size_t)i);
}

double hl_ds_theta_view_estimate(const hl_ds_theta_view_t *v) {
  uint64_t theta = v->empty ? HL_DS_THETA_MAX : v->theta;
  return (double)v->count * (9223372036854775808.0 / (double)theta);
}

/* Checks the N entries at V's ENTRIES: each 0 (hash tables only) or in
 * (0, theta), ascending when ordered; a QuickSelect table's nonzero slots
 * number its count. */
static hl_status_t check_entries(hl_ds_theta_view_t *v, bool alpha, hl_error_t *err) {
  uint64_t prev = 0;
  uint32_t used = 0;
  for (uint32_t i = 0; i < v->n_slots; i++) {
    uint64_t h = hl_ds_theta_entry(v, i);
    if (h == 0 && v->table) continue;
    if (h == 0 || h >> 63) return bad(err, "a hash is out of range");
    if (h >= v->theta && !alpha) return bad(err, "a hash is not below theta");
    if (v->ordered && h <= prev) return bad(err, "the ordered hashes are not ascending");
    prev = h;
    used++;
  }
  if (v->table && !alpha && used != v->count)
    return bad(err, "the hash table does not hold its count");
  return HL_OK;
}

/* Serial versions 1 and 2 (ForwardCompatibility): compact and ordered. */
static hl_status_t read_old(const uint8_t *d, size_t len, uint16_t want, hl_ds_theta_view_t *v,
                            hl_error_t *err) {
  int pre = d[0] & 0x3f, fam = d[2];
  v->seed_hash = want;
  v->theta = HL_DS_THETA_MAX;
  v->ordered = true;
  if (v->ser_ver == 1) {
    if (pre != 3) return bad(err, "PreLongs must be 3 for SerVer 1");
    if (fam < 1 || fam > 3) return bad(err, "Family ID (Sketch Type) must be 1 to 3");
  } else {
    if (fam < 1 || fam > 4) return bad(err, "Family (Sketch Type) must be 1 to 4");
    if (pre < 1 || pre > 3) return bad(err, "PreLongs must be 1,2, or 3");
    if (seed_check((uint16_t)(d[6] | d[7] << 8), want, err) != HL_OK) return HL_ERROR;
  }
  v->pre_longs = (uint8_t)pre;
  if ((size_t)pre * 8 > len) return bad(err, "the preamble is cut short");
  if (pre >= 2) {
    uint32_t c = rd32(d + 8);
    if (c > (len - (size_t)pre * 8) / 8) return bad(err, "the hashes are cut short");
    v->count = c;
  }
  if (pre == 3) v->theta = rd64(d + 16);
  if (v->theta == 0 || v->theta >> 63) return bad(err, "theta is out of range");
  v->entries = d + 8 * pre;
  v->n_slots = v->count;
  v->empty = v->count == 0 && v->theta == HL_DS_THETA_MAX;
  if (v->count == 1 && v->theta == HL_DS_THETA_MAX) v->pre_longs = 1; /* a single item */
  return check_entries(v, false, err);
}

hl_status_t hl_ds_theta_read(const uint8_t *d, size_t len, int64_t seed, hl_ds_theta_mode_t mode,
                             hl_ds_theta_view_t *v, hl_error_t *err) {
  memset(v, 0, sizeof *v);
  uint16_t want;
  if (hl_ds_theta_seed_hash(seed, &want, err) != HL_OK) return HL_ERROR;
  if (len < 8) return bad(err, "fewer than 8 bytes");
  int pre = d[0] & 0x3f, fam = d[2], flags = d[5];
  v->ser_ver = d[1];
  v->family = (uint8_t)fam;
  if (v->ser_ver == 1 || v->ser_ver == 2) return read_old(d, len, want, v, err);
  if (v->ser_ver == 4)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "Theta sketches of serial version 4 (compressed) are not supported yet");
  if (v->ser_ver != 3) return bad(err, "the serialization version is not recognized");
  if (fam == FAM_ALPHA && mode == HL_DS_THETA_WRAP)
    return bad(err, "Cannot wrap family: ALPHA as a Sketch");
  if (fam < FAM_ALPHA || fam > FAM_COMPACT)
    return bad(err, "Family must be Alpha, QuickSelect, or Compact");
  if (pre < 1 || pre > 3) return bad(err, "the preamble length is not 1, 2 or 3 longs");
  if ((size_t)pre * 8 > len) return bad(err, "the preamble is cut short");
  v->pre_longs = (uint8_t)pre;
  v->seed_hash = (uint16_t)(d[6] | d[7] << 8);
  v->theta = HL_DS_THETA_MAX;
  v->entries = d + 8 * pre;
  bool single = pre == 1 && fam == FAM_COMPACT && ((flags & 0x1f) == 0x1a || (flags & F_SINGLE));
  if (fam != FAM_COMPACT) {
    /* an update sketch's hash table */
    if (pre != 3) return bad(err, "an update sketch must have 3 preamble longs");
    int lg_nom = d[3], lg_arr = d[4];
    if (lg_nom < 4 || lg_nom > 26 || lg_arr < 5 || lg_arr > lg_nom + 1)
      return bad(err, "the hash table's size is out of range");
    if (len < 24 + ((size_t)8 << lg_arr)) return bad(err, "the hash table is cut short");
    if (seed_check(v->seed_hash, want, err) != HL_OK) return HL_ERROR;
    v->table = true;
    v->n_slots = 1u << lg_arr;
    v->count = rd32(d + 8);
    v->theta = rd64(d + 16);
    if (v->count > v->n_slots) return bad(err, "the count is out of range");
    if (v->theta == 0 || v->theta >> 63) return bad(err, "theta is out of range");
    /* Sketch.wrap: an empty update sketch is empty; Union.union(Memory)
     * looks at its count and theta only */
    v->empty = mode == HL_DS_THETA_WRAP ? (flags & F_EMPTY) != 0
                                        : v->count == 0 && v->theta == HL_DS_THETA_MAX;
    return check_entries(v, fam == FAM_ALPHA, err);
  }
  if (single) {
    if (len < 16) return bad(err, "a single item sketch has fewer than 16 bytes");
    /* Union.union(Memory) takes a single item without its seed hash */
    if (mode == HL_DS_THETA_WRAP && seed_check(v->seed_hash, want, err) != HL_OK) return HL_ERROR;
    v->count = v->n_slots = 1;
    v->ordered = true;
    return check_entries(v, false, err);
  }
  if (mode == HL_DS_THETA_WRAP && (flags & F_EMPTY)) {
    v->empty = true;
    v->ordered = true;
    return HL_OK;
  }
  if (mode == HL_DS_THETA_WRAP && (!(flags & F_COMPACT) || !(flags & F_READ_ONLY)))
    return bad(err, "a COMPACT family sketch image must have the compact and read-only flags");
  if (pre >= 2) {
    uint32_t c = rd32(d + 8);
    if (c > (len - (size_t)pre * 8) / 8) return bad(err, "the hashes are cut short");
    v->count = v->n_slots = c;
  }
  if (pre == 3) v->theta = rd64(d + 16);
  if (v->theta == 0 || v->theta >> 63) return bad(err, "theta is out of range");
  if (mode == HL_DS_THETA_WRAP || (v->seed_hash != want && pre > 1))
    if (!(v->count == 0 && v->theta == HL_DS_THETA_MAX) &&
        seed_check(v->seed_hash, want, err) != HL_OK)
      return HL_ERROR;
  v->ordered = (flags & F_ORDERED) != 0;
  v->empty = v->count == 0 && v->theta == HL_DS_THETA_MAX;
  if (mode == HL_DS_THETA_UNION && pre == 1) v->empty = true;
  return check_entries(v, false, err);
}

/* ---- intersection and A not B */

hl_status_t hl_ds_theta_inter_init(hl_ds_theta_inter_t *x, int64_t seed, hl_error_t *err) {
  memset(x, 0, sizeof *x);
  x->count = -1;
  x->theta = HL_DS_THETA_MAX;
  return hl_ds_theta_seed_hash(seed, &x->seed_hash, err);
}

/* V's hashes below THETA, ascending, in a new array (*OUT, hl_free) */
static hl_status_t sorted_below(const hl_ds_theta_view_t *v, uint64_t theta, uint64_t **out,
                                uint32_t *n, hl_error_t *err) {
  uint64_t *a = hl_malloc(sizeof(uint64_t) * (v->n_slots ? v->n_slots : 1));
  if (!a) return hl_err_nomem(err);
  uint32_t c = 0;
  for (uint32_t i = 0; i < v->n_slots; i++) {
    uint64_t h = hl_ds_theta_entry(v, i);
    if (h != 0 && h < theta) a[c++] = h;
  }
  if (!v->ordered) qsort(a, c, sizeof *a, cmp_u64);
  *out = a;
  *n = c;
  return HL_OK;
}

static uint64_t view_theta(const hl_ds_theta_view_t *v) {
  return v->empty ? HL_DS_THETA_MAX : v->theta;
}

hl_status_t hl_ds_theta_inter_add(hl_ds_theta_inter_t *x, const hl_ds_theta_view_t *v,
                                  hl_arena_t *arena, hl_error_t *err) {
  if (x->empty || v->empty) { /* the empty rule */
    x->count = 0;
    x->empty = true;
    x->theta = HL_DS_THETA_MAX;
    return HL_OK;
  }
  if (seed_check(v->seed_hash, x->seed_hash, err) != HL_OK) return HL_ERROR;
  x->theta = min64(x->theta, view_theta(v));
  if (x->count == 0 || v->count == 0) {
    x->count = 0;
    return HL_OK;
  }
  uint64_t *in;
  uint32_t n;
  if (sorted_below(v, x->theta, &in, &n, err) != HL_OK) return HL_NOMEM;
  if (x->count < 0) {
    if (!(x->hashes = hl_arena_alloc(arena, sizeof(uint64_t) * (n ? n : 1)))) {
      hl_free(in);
      return hl_err_nomem(err);
    }
    memcpy(x->hashes, in, sizeof(uint64_t) * n);
    x->count = n;
  } else { /* both ascending: the matches, in place */
    uint32_t i = 0, j = 0, m = 0;
    while (i < (uint32_t)x->count && j < n) {
      if (x->hashes[i] < in[j]) {
        i++;
      } else if (x->hashes[i] > in[j]) {
        j++;
      } else {
        x->hashes[m++] = x->hashes[i];
        i++;
        j++;
      }
    }
    while (m > 0 && x->hashes[m - 1] >= x->theta)
      m--;
    x->count = m;
    if (m == 0 && x->theta == HL_DS_THETA_MAX) x->empty = true;
  }
  hl_free(in);
  return HL_OK;
}

hl_status_t hl_ds_theta_inter_result(const hl_ds_theta_inter_t *x, hl_ds_theta_compact_t *out,
                                     hl_error_t *err) {
  if (x->count < 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Calling getResult() with no intervening intersections would represent "
                      "the infinite set, which is not a legal result.");
  uint32_t n = (uint32_t)x->count;
  while (n > 0 && x->hashes[n - 1] >= x->theta)
    n--;
  out->hashes = x->hashes;
  out->count = n;
  out->theta = x->theta;
  out->seed_hash = x->seed_hash;
  out->empty = x->empty || (n == 0 && x->theta == HL_DS_THETA_MAX);
  return HL_OK;
}

hl_status_t hl_ds_theta_a_not_b(const hl_ds_theta_view_t *a, const hl_ds_theta_view_t *b,
                                uint16_t seed_hash, uint64_t *buf, hl_ds_theta_compact_t *out,
                                hl_error_t *err) {
  uint64_t theta = min64(view_theta(a), view_theta(b));
  memset(out, 0, sizeof *out);
  out->hashes = buf;
  out->seed_hash = seed_hash;
  if (a->empty) { /* A compacted: the empty sketch */
    out->empty = true;
    out->theta = HL_DS_THETA_MAX;
    return HL_OK;
  }
  if (seed_check(a->seed_hash, seed_hash, err) != HL_OK) return HL_ERROR;
  uint64_t *sa, *sb = NULL;
  uint32_t na, nb = 0;
  if (b->empty)
    theta = view_theta(a); /* A compacted */
  else if (seed_check(b->seed_hash, seed_hash, err) != HL_OK)
    return HL_ERROR;
  if (sorted_below(a, theta, &sa, &na, err) != HL_OK) return HL_NOMEM;
  if (!b->empty && sorted_below(b, theta, &sb, &nb, err) != HL_OK) {
    hl_free(sa);
    return HL_NOMEM;
  }
  uint32_t j = 0, m = 0;
  for (uint32_t i = 0; i < na; i++) {
    while (j < nb && sb[j] < sa[i])
      j++;
    if (j < nb && sb[j] == sa[i]) continue;
    buf[m++] = sa[i];
  }
  hl_free(sa);
  hl_free(sb);
  out->count = m;
  out->theta = theta;
  out->empty = m == 0 && theta == HL_DS_THETA_MAX;
  return HL_OK;
}

/* ---- the compact result */

double hl_ds_theta_estimate(const hl_ds_theta_compact_t *c) {
  if (c->empty) return 0.0;
  return (double)c->count * (9223372036854775808.0 / (double)c->theta);
}

static bool is_empty(const hl_ds_theta_compact_t *c) {
  return c->empty || (c->count == 0 && c->theta == HL_DS_THETA_MAX);
}

size_t hl_ds_theta_size(const hl_ds_theta_compact_t *c) {
  if (is_empty(c)) return 8;
  if (c->count == 1 && c->theta == HL_DS_THETA_MAX) return 16;
  return (c->theta < HL_DS_THETA_MAX ? 24 : 16) + 8 * (size_t)c->count;
}

void hl_ds_theta_write(const hl_ds_theta_compact_t *c, uint8_t *o) {
  /* pre0: preamble longs, serial version 3, family COMPACT, lgNom and
   * lgArr 0, flags (read-only, compact, ordered; empty; single item),
   * seed hash (0 in the empty sketch, as Java's constant image) */
  memset(o, 0, 8);
  o[1] = 3;
  o[2] = FAM_COMPACT;
  if (is_empty(c)) {
    o[0] = 1;
    o[5] = F_READ_ONLY | F_EMPTY | F_COMPACT | F_ORDERED;
    return;
  }
  o[6] = (uint8_t)c->seed_hash;
  o[7] = (uint8_t)(c->seed_hash >> 8);
  if (c->count == 1 && c->theta == HL_DS_THETA_MAX) {
    o[0] = 1;
    o[5] = F_READ_ONLY | F_COMPACT | F_ORDERED | F_SINGLE;
    wr64(o + 8, c->hashes[0]);
    return;
  }
  int pre = c->theta < HL_DS_THETA_MAX ? 3 : 2;
  o[0] = (uint8_t)pre;
  o[5] = F_READ_ONLY | F_COMPACT | F_ORDERED;
  uint8_t *p = o + 8;
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(c->count >> (8 * i));
  static const uint8_t one_f[4] = {0x00, 0x00, 0x80, 0x3f}; /* p = 1.0f */
  memcpy(p + 4, one_f, 4);
  if (pre == 3) wr64(o + 16, c->theta);
  for (uint32_t i = 0; i < c->count; i++)
    wr64(o + 8 * pre + 8 * (size_t)i, c->hashes[i]);
}
