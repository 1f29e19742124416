/*
 * op_agg_hist.c -- histogram_numeric(x, nb): Hive's NumericHistogram, the
 * streaming histogram of Ben-Haim and Tom-Tov ("A streaming parallel
 * decision tree algorithm", JMLR 11, 2010), as op_agg.c's hooks call it
 * (add a value, merge a unit's state, the result).
 *
 * A state is at most nb bins (x = centre, y = count) sorted by x.  A value
 * equal to a bin's centre counts in it, else it becomes a new bin; past nb
 * bins the two closest neighbours merge into their weighted mean, until nb
 * are left.  Equally close pairs are chosen as Hive chooses them: with a
 * java.util.Random seeded 31183, one per state, whose draws only ties
 * consume -- reproduced here (the same LCG and nextDouble) so that the
 * bins are Hive's bit for bit.  Merging a unit's state is Hive's merge of
 * a partial histogram: the target (empty: a copy of the other) gets the
 * union of both bin lists, sorted stably by Double.compare, trimmed back
 * to nb with the target's generator.  op_agg_par.c merges units in unit
 * order at every thread count, so the answer does not depend on it.
 *
 * The floating-point steps are written in Hive's order (x *= y / d;
 * x += x1 / d * y1), and the build is C11 without contraction, so no fused
 * multiply-add changes a bit.
 */
#include "exec/op_agg_int.h"

#include <math.h>
#include <string.h>

typedef struct bin {
  double x, y;
} bin_t;

typedef struct hist {
  uint64_t seed; /* java.util.Random's 48-bit state */
  uint32_t nb;   /* the bins allowed */
  uint32_t n;    /* the bins in use */
  uint32_t cap;  /* bins allocated (grown as needed: nb may be huge) */
  bin_t *bins;
} hist_t;

#define RAND_MULT 0x5DEECE66DULL
#define RAND_MASK ((1ULL << 48) - 1)

/* new Random(31183): the seed scrambled as Java's constructor does */
static uint64_t rand_init(void) {
  return (31183ULL ^ RAND_MULT) & RAND_MASK;
}

static uint32_t rand_next(uint64_t *seed, int bits) {
  *seed = (*seed * RAND_MULT + 0xBULL) & RAND_MASK;
  return (uint32_t)(*seed >> (48 - bits));
}

/* Random.nextDouble: 53 random bits over 2^53 */
static double rand_double(uint64_t *seed) {
  uint64_t hi = rand_next(seed, 26), lo = rand_next(seed, 27);
  return (double)((hi << 27) + lo) * 0x1.0p-53;
}

/* Java's Double.compare: -0.0 before 0.0, NaN after everything (equal to
 * itself). */
static int double_compare(double a, double b) {
  if (a < b) return -1;
  if (a > b) return 1;
  uint64_t x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  if (isnan(a)) x = 0x7ff8000000000000ULL; /* every NaN as Java's canonical one */
  if (isnan(b)) y = 0x7ff8000000000000ULL;
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  return sx == sy ? 0 : sx < sy ? -1 : 1;
}

/* Room for N bins in H (in A's arena).  HL_NOMEM. */
static hl_status_t reserve(agg_t *a, hist_t *h, uint32_t n, hl_error_t *err) {
  if (n <= h->cap) return HL_OK;
  uint32_t cap = h->cap ? h->cap : 8;
  while (cap < n)
    cap = cap > UINT32_MAX / 2 ? n : cap * 2;
  bin_t *nb = hl_arena_realloc(a->arena, h->bins, sizeof(bin_t) * h->cap, sizeof(bin_t) * cap);
  if (!nb) return hl_err_nomem(err);
  h->bins = nb;
  h->cap = cap;
  return HL_OK;
}

/* Merges the closest neighbours until nb bins are left (Hive's trim). */
static void trim(hist_t *h) {
  while (h->n > h->nb) {
    bin_t *b = h->bins;
    double smallest = b[1].x - b[0].x;
    uint32_t loc = 0, count = 1;
    for (uint32_t i = 1; i + 1 < h->n; i++) {
      double diff = b[i + 1].x - b[i].x;
      if (diff < smallest) {
        smallest = diff;
        loc = i;
        count = 1;
      } else if (diff == smallest) {
        /* Java: prng.nextDouble() <= 1.0 / ++count, drawn only on a tie */
        double r = rand_double(&h->seed);
        if (r <= 1.0 / (double)++count) loc = i;
      }
    }
    double d = b[loc].y + b[loc + 1].y;
    b[loc].x *= b[loc].y / d;
    b[loc].x += b[loc + 1].x / d * b[loc + 1].y;
    b[loc].y = d;
    memmove(&b[loc + 1], &b[loc + 2], sizeof(bin_t) * (h->n - loc - 2));
    h->n--;
  }
}

static hist_t *hist_new(agg_t *a, uint32_t nb) {
  hist_t *h = hl_arena_zalloc(a->arena, sizeof *h);
  if (!h) return NULL;
  h->seed = rand_init();
  h->nb = nb;
  return h;
}

hl_status_t hl_agg_hist_add(agg_t *a, const hl_agg_t *ag, agg_state_t *st, double v,
                            hl_error_t *err) {
  if (ag->params_null) return HL_OK; /* Hive skips rows whose nb is NULL */
  hist_t *h = st->fam;
  if (!h) {
    if (ag->ip[0] < 2)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "histogram_numeric needs nbins to be at least 2, but you supplied %d",
                        (int)ag->ip[0]);
    if (!(h = hist_new(a, (uint32_t)ag->ip[0]))) return hl_err_nomem(err);
    st->fam = h;
  }
  /* Hive's binary search: the bin to insert before, or an equal bin (a NaN
   * compares neither less nor greater, so it stops the search like an
   * equal centre -- and then, being unequal, is inserted there) */
  uint32_t bin = 0;
  for (uint32_t l = 0, r = h->n; l < r;) {
    bin = (l + r) / 2;
    if (h->bins[bin].x > v)
      r = bin;
    else if (h->bins[bin].x < v)
      l = ++bin;
    else
      break;
  }
  if (bin < h->n && h->bins[bin].x == v) {
    h->bins[bin].y++;
    return HL_OK;
  }
  hl_status_t rc = reserve(a, h, h->n + 1, err);
  if (rc != HL_OK) return rc;
  memmove(&h->bins[bin + 1], &h->bins[bin], sizeof(bin_t) * (h->n - bin));
  h->bins[bin].x = v;
  h->bins[bin].y = 1;
  if (++h->n > h->nb) trim(h);
  return HL_OK;
}

hl_status_t hl_agg_hist_merge(agg_t *a, agg_state_t *d, const agg_state_t *s, hl_error_t *err) {
  const hist_t *o = s->fam;
  if (!o || o->n == 0) return HL_OK;
  hist_t *h = d->fam;
  if (!h) {
    /* an empty target takes the other's bins; its generator stays fresh */
    if (!(h = hist_new(a, o->nb))) return hl_err_nomem(err);
    d->fam = h;
    hl_status_t rc = reserve(a, h, o->n, err);
    if (rc != HL_OK) return rc;
    memcpy(h->bins, o->bins, sizeof(bin_t) * o->n);
    h->n = o->n;
    return HL_OK;
  }
  if (h->n > UINT32_MAX - o->n) return hl_err_nomem(err);
  uint32_t n = h->n + o->n;
  hl_status_t rc = reserve(a, h, n, err);
  if (rc != HL_OK) return rc;
  /* a stable merge of two sorted lists, from the back: of equal centres
   * the target's bin comes first, as Collections.sort keeps it */
  uint32_t i = h->n, j = o->n, k = n;
  while (j > 0) {
    if (i > 0 && double_compare(h->bins[i - 1].x, o->bins[j - 1].x) > 0)
      h->bins[--k] = h->bins[--i];
    else
      h->bins[--k] = o->bins[--j];
  }
  h->n = n;
  trim(h);
  return HL_OK;
}

void hl_agg_hist_restore(agg_state_t *d, const agg_state_t *s) {
  hist_t *h = d->fam;
  const hist_t *o = s->fam;
  if (h && o) h->seed = o->seed;
}

hl_status_t hl_agg_hist_final(const agg_state_t *st, hl_value_t *out, hl_arena_t *arena) {
  const hist_t *h = st->fam;
  if (!h || h->n == 0) { /* Hive: NULL over no values */
    out->is_null = true;
    return HL_OK;
  }
  hl_value_t *items = hl_arena_zalloc(arena, sizeof(hl_value_t) * h->n);
  hl_value_t *fields = hl_arena_zalloc(arena, sizeof(hl_value_t) * 2 * (size_t)h->n);
  if (!items || !fields) return HL_NOMEM;
  for (uint32_t i = 0; i < h->n; i++) {
    fields[2 * i].u.d = h->bins[i].x;
    fields[2 * i + 1].u.d = h->bins[i].y;
    items[i].u.list.n = 2;
    items[i].u.list.items = &fields[2 * i];
  }
  out->u.list.n = h->n;
  out->u.list.items = items;
  return HL_OK;
}

/* The bytes of a state (op_agg_own.c): the generator's 48-bit state, nb,
 * the bins in use, then each bin's centre and count (doubles as they are:
 * the bits of a NaN centre included). */
void hl_agg_hist_save(const agg_state_t *st, hl_buf_t *out) {
  const hist_t *h = st->fam;
  hl_buf_append(out, &h->seed, sizeof h->seed);
  hl_buf_append(out, &h->nb, sizeof h->nb);
  hl_buf_append(out, &h->n, sizeof h->n);
  for (uint32_t i = 0; i < h->n; i++) {
    hl_buf_append(out, &h->bins[i].x, sizeof(double));
    hl_buf_append(out, &h->bins[i].y, sizeof(double));
  }
}

hl_status_t hl_agg_hist_load(agg_rd_t *r, uint32_t nb, hl_arena_t *arena, agg_state_t *st) {
  const uint8_t *seed = hl_agg_rd_take(r, sizeof(uint64_t));
  uint32_t snb, n;
  if (!seed || !hl_agg_rd_u32(r, &snb) || !hl_agg_rd_u32(r, &n)) return HL_CORRUPT;
  /* the aggregate's nb, never more bins than it (a trim follows every
   * addition and merge), and the bytes of all of them */
  if (snb != nb || n > nb || r->left / (2 * sizeof(double)) < n) return HL_CORRUPT;
  hist_t *h = hl_arena_zalloc(arena, sizeof *h);
  bin_t *bins = hl_arena_alloc(arena, sizeof(bin_t) * (n ? n : 1));
  if (!h || !bins) return HL_NOMEM;
  memcpy(&h->seed, seed, sizeof h->seed);
  if (h->seed > RAND_MASK) return HL_CORRUPT;
  h->nb = nb;
  h->n = h->cap = n;
  h->bins = bins;
  for (uint32_t i = 0; i < n; i++) {
    hl_agg_rd_f64(r, &bins[i].x);
    hl_agg_rd_f64(r, &bins[i].y);
  }
  st->fam = h;
  return HL_OK;
}
