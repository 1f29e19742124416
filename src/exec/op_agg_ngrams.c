/*
 * op_agg_ngrams.c -- ngrams(seqs, n, k [, pf]) and context_ngrams(seqs,
 * context, k [, pf]): Hive's NGramEstimator, as op_agg.c's hooks call it
 * (add a row's sequences, merge a unit's state, the result).
 *
 * The argument is ARRAY<STRING> (one sequence of words) or
 * ARRAY<ARRAY<STRING>> (several, as sentences() gives).  ngrams counts
 * every run of n consecutive words; context_ngrams counts, at every place
 * where the context's words match, the words under the context's NULLs
 * (its blanks).  A state is a table of n-grams and their counts (doubles,
 * as Hive's).  Memory is bounded as Hive bounds it: pf (at least 1000 / k)
 * times k n-grams are kept, the table being cut back to that when it holds
 * twice as many; merging a unit's state adds the counts and cuts back to
 * pf * k at once; the result is the k most frequent, most frequent first.
 *
 * Which n-grams a cut keeps among equal counts depends in Hive on the
 * iteration order of a Java HashMap; here the order is total and
 * documented: by count descending, then word by word ascending (byte order
 * of the UTF-8 words, which is Java's String order except between
 * characters beyond U+FFFF and U+E000..U+FFFF), the order in which Hive
 * lists its result.  So the kept set is the first entries of the result's
 * order, at every thread count (op_agg_par.c merges units in unit order).
 *
 * Hive's context_ngrams merges only the first partial state it is given
 * (GenericUDAFContextNGrams.merge counts a partial only while its context
 * is unset), so its answer depends on how the input is split; here every
 * unit's state is merged, as ngrams does.
 *
 * A NULL word that would be part of an n-gram, or a NULL sequence inside
 * the outer array, is an error (22004): Hive fails on them with a
 * NullPointerException.  A NULL outer array is skipped, as Hive skips it.
 *
 * Keys are the words, each as a 4-byte length and its bytes, copied into
 * the aggregation's arena (the n-grams a cut drops keep their bytes there
 * until the statement ends: bounded by the input, charged to its budget).
 */
#include "exec/op_agg_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
  const char *key;
  uint32_t len;
  uint64_t hash;
  double freq;
} entry_t;

typedef struct ngrams {
  int64_t keep; /* pf * k: the n-grams kept between cuts */
  uint32_t n;   /* words per n-gram */
  entry_t *e;   /* the n-grams, in no particular order */
  uint32_t n_e, cap_e;
  uint32_t *slots; /* open addressing: entry index + 1, 0 = empty */
  uint32_t n_slots;
} ngrams_t;

static const char *fname(const hl_agg_t *ag) {
  return ag->kind == HL_AGG_NGRAMS ? "ngrams" : "context_ngrams";
}

/* The blanks of the context: the n of context_ngrams. */
static uint32_t ctx_blanks(const hl_agg_t *ag) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < ag->ctx.u.list.n; i++)
    n += ag->ctx.u.list.items[i].is_null;
  return n;
}

/* Checks the parameters as Hive does on its first row, then the state. */
static hl_status_t ng_init(agg_t *a, const hl_agg_t *ag, agg_state_t *st, hl_error_t *err) {
  const char *f = fname(ag);
  bool ctx = ag->kind == HL_AGG_CONTEXT_NGRAMS;
  if (!ctx && ag->ip[0] < 1)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s needs 'n' to be at least 1, but you supplied %d", f, (int)ag->ip[0]);
  if (ag->ip[1] < 1)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s needs 'k' to be at least 1, but you supplied %d", f, (int)ag->ip[1]);
  if (ag->ip[2] < 1)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s needs 'pf' to be at least 1, but you supplied %d", f, (int)ag->ip[2]);
  if (ctx && ag->ctx.u.list.n == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s needs a context array with at least one element", f);
  if (ctx && ctx_blanks(ag) == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s: the context array needs to contain at least one 'null' value to "
                      "indicate what should be counted",
                      f);
  ngrams_t *g = hl_arena_zalloc(a->arena, sizeof *g);
  if (!g) return hl_err_nomem(err);
  hl_agg_ngrams_shape(ag, &g->n, &g->keep);
  st->fam = g;
  return HL_OK;
}

bool hl_agg_ngrams_shape(const hl_agg_t *ag, uint32_t *n, int64_t *keep) {
  bool ctx = ag->kind == HL_AGG_CONTEXT_NGRAMS;
  if ((!ctx && ag->ip[0] < 1) || ag->ip[1] < 1 || ag->ip[2] < 1) return false;
  if (ctx && ctx_blanks(ag) == 0) return false;
  int64_t k = ag->ip[1], pf = ag->ip[2];
  if (k * pf < 1000) pf = 1000 / k; /* Hive's minimum precision */
  *keep = k * pf;
  *n = ctx ? ctx_blanks(ag) : (uint32_t)ag->ip[0];
  return true;
}

/* Puts entry I into the slot table (which has a free slot). */
static void slot_put(ngrams_t *g, uint32_t i) {
  uint32_t mask = g->n_slots - 1;
  for (uint32_t s = (uint32_t)g->e[i].hash & mask;; s = (s + 1) & mask)
    if (!g->slots[s]) {
      g->slots[s] = i + 1;
      return;
    }
}

/* Adds FREQ to the n-gram KEY[0..len) (copied when new). */
static hl_status_t ng_count(agg_t *a, ngrams_t *g, const char *key, uint32_t len, double freq,
                            hl_error_t *err) {
  uint64_t h = hl_hash_bytes(key, len);
  if (g->n_slots) {
    uint32_t mask = g->n_slots - 1;
    for (uint32_t s = (uint32_t)h & mask; g->slots[s]; s = (s + 1) & mask) {
      entry_t *e = &g->e[g->slots[s] - 1];
      if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) {
        e->freq += freq;
        return HL_OK;
      }
    }
  }
  if (g->n_e == g->cap_e) {
    if (g->cap_e >= UINT32_MAX / 4)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "an n-gram estimate has too many n-grams");
    uint32_t cap = g->cap_e ? g->cap_e * 2 : 64;
    entry_t *ne =
        hl_arena_realloc(a->arena, g->e, sizeof(entry_t) * g->cap_e, sizeof(entry_t) * cap);
    if (!ne) return hl_err_nomem(err);
    g->e = ne;
    g->cap_e = cap;
  }
  if ((uint64_t)(g->n_e + 1) * 2 > g->n_slots) { /* at most half full */
    uint32_t ns = g->n_slots ? g->n_slots * 2 : 128;
    uint32_t *sl = hl_arena_zalloc(a->arena, sizeof(uint32_t) * ns);
    if (!sl) return hl_err_nomem(err);
    g->slots = sl;
    g->n_slots = ns;
    for (uint32_t i = 0; i < g->n_e; i++)
      slot_put(g, i);
  }
  char *copy = hl_arena_alloc(a->arena, len ? len : 1);
  if (!copy) return hl_err_nomem(err);
  memcpy(copy, key, len);
  g->e[g->n_e] = (entry_t){.key = copy, .len = len, .hash = h, .freq = freq};
  slot_put(g, g->n_e++);
  return HL_OK;
}

/* The words of a key, one after the other. */
static bool next_word(const char **p, const char *end, const char **w, uint32_t *wl) {
  if (*p >= end) return false;
  memcpy(wl, *p, sizeof *wl);
  *w = *p + sizeof *wl;
  *p = *w + *wl;
  return true;
}

/* Count descending, then the words in order (Hive's result order). */
static int entry_cmp(const void *x, const void *y) {
  const entry_t *a = x, *b = y;
  if (a->freq != b->freq) return a->freq > b->freq ? -1 : 1;
  const char *p = a->key, *pe = a->key + a->len, *q = b->key, *qe = b->key + b->len, *w, *v;
  uint32_t wl, vl;
  while (true) {
    bool ha = next_word(&p, pe, &w, &wl), hb = next_word(&q, qe, &v, &vl);
    if (!ha || !hb) return ha - hb;
    int c = memcmp(w, v, wl < vl ? wl : vl);
    if (c) return c;
    if (wl != vl) return wl < vl ? -1 : 1;
  }
}

static void swap_entries(entry_t *x, entry_t *y) {
  entry_t t = *x;
  *x = *y;
  *y = t;
}

/* Moves the first KEEP (< N) entries of the result order to e[0..keep), in
 * no particular order: Hoare's selection (median-of-three pivots), which
 * is linear where a sort is not -- a cut in the middle of a stream needs
 * the set, not its order.  The keys are distinct, so the order is total
 * and the set is the one a sort would keep.  Past a depth bound (an
 * unlucky run of pivots) the range is sorted instead. */
static void select_first(entry_t *e, uint32_t n, uint32_t keep) {
  uint32_t lo = 0, hi = n;
  int depth = 8;
  for (uint32_t m = n; m > 1; m >>= 1)
    depth += 2;
  while (hi - lo > 16 && depth-- > 0) {
    uint32_t mid = lo + (hi - lo) / 2, last = hi - 1;
    if (entry_cmp(&e[mid], &e[lo]) < 0) swap_entries(&e[mid], &e[lo]);
    if (entry_cmp(&e[last], &e[lo]) < 0) swap_entries(&e[last], &e[lo]);
    if (entry_cmp(&e[last], &e[mid]) < 0) swap_entries(&e[last], &e[mid]);
    swap_entries(&e[mid], &e[last]); /* the median as pivot, at the end */
    uint32_t store = lo;
    for (uint32_t i = lo; i < last; i++)
      if (entry_cmp(&e[i], &e[last]) < 0) swap_entries(&e[i], &e[store++]);
    swap_entries(&e[store], &e[last]);
    /* e[lo..store) before the pivot e[store], e[store+1..hi) after it */
    if (keep == store || keep == store + 1) return;
    if (keep < store)
      hi = store;
    else
      lo = store + 1;
  }
  qsort(e + lo, hi - lo, sizeof(entry_t), entry_cmp);
}

/* Keeps the first KEEP entries of the result order (in any order): a cut
 * of the estimate.  Entries move, so the slot table is rebuilt. */
static void ng_cut(ngrams_t *g, int64_t keep) {
  if ((int64_t)g->n_e <= keep) return;
  select_first(g->e, g->n_e, (uint32_t)keep);
  g->n_e = (uint32_t)keep;
  memset(g->slots, 0, sizeof(uint32_t) * g->n_slots);
  for (uint32_t i = 0; i < g->n_e; i++)
    slot_put(g, i);
}

static hl_status_t null_word(const hl_agg_t *ag, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                    "%s: a NULL word where an n-gram takes one (Hive fails on it)", fname(ag));
}

/* Counts the n-grams of one sequence SEQ[0..len): Hive's processNgrams,
 * from the last position to the first. */
static hl_status_t ng_sequence(agg_t *a, const hl_agg_t *ag, ngrams_t *g, const hl_value_t *seq,
                               uint32_t len, hl_error_t *err) {
  bool ctx = ag->kind == HL_AGG_CONTEXT_NGRAMS;
  uint32_t span = ctx ? ag->ctx.u.list.n : g->n;
  const hl_value_t *cw = ag->ctx.u.list.items;
  for (uint32_t i = len - span + 1; len >= span && i-- > 0;) {
    bool match = true;
    for (uint32_t j = 0; ctx && j < span && match; j++)
      if (!cw[j].is_null)
        match = !seq[i + j].is_null && seq[i + j].u.s.len == cw[j].u.s.len &&
                memcmp(seq[i + j].u.s.ptr, cw[j].u.s.ptr, cw[j].u.s.len) == 0;
    if (!match) continue;
    hl_buf_reset(&a->key);
    for (uint32_t j = 0; j < span; j++) {
      if (ctx && !cw[j].is_null) continue;
      if (seq[i + j].is_null) return null_word(ag, err);
      uint32_t wl = seq[i + j].u.s.len;
      hl_buf_append(&a->key, &wl, sizeof wl);
      hl_buf_append(&a->key, seq[i + j].u.s.ptr, wl);
    }
    if (a->key.oom || a->key.len > UINT32_MAX) return hl_err_nomem(err);
    hl_status_t rc = ng_count(a, g, a->key.data, (uint32_t)a->key.len, 1.0, err);
    if (rc != HL_OK) return rc;
    if ((int64_t)g->n_e > 2 * g->keep) ng_cut(g, g->keep);
  }
  return HL_OK;
}

hl_status_t hl_agg_ngrams_add(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_value_t *v,
                              hl_error_t *err) {
  if (ag->params_null) return HL_OK; /* Hive skips rows whose n or k is NULL */
  hl_status_t rc;
  if (!st->fam && (rc = ng_init(a, ag, st, err)) != HL_OK) return rc;
  ngrams_t *g = st->fam;
  const hl_type_t *el = ag->arg->type->children[0];
  if (el->id != HL_T_ARRAY) return ng_sequence(a, ag, g, v->u.list.items, v->u.list.n, err);
  for (uint32_t i = 0; i < v->u.list.n; i++) {
    const hl_value_t *s = &v->u.list.items[i];
    if (s->is_null)
      return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                        "%s: a NULL sequence in the array of sequences (Hive fails on it)",
                        fname(ag));
    if ((rc = ng_sequence(a, ag, g, s->u.list.items, s->u.list.n, err)) != HL_OK) return rc;
  }
  return HL_OK;
}

hl_status_t hl_agg_ngrams_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                                hl_error_t *err) {
  const ngrams_t *o = s->fam;
  if (!o) return HL_OK;
  hl_status_t rc;
  if (!d->fam && (rc = ng_init(a, ag, d, err)) != HL_OK) return rc;
  ngrams_t *g = d->fam;
  for (uint32_t i = 0; i < o->n_e; i++)
    if ((rc = ng_count(a, g, o->e[i].key, o->e[i].len, o->e[i].freq, err)) != HL_OK) return rc;
  ng_cut(g, g->keep); /* Hive's merge cuts back to pf * k every time */
  return HL_OK;
}

hl_status_t hl_agg_ngrams_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena) {
  const ngrams_t *g = st->fam;
  if (!g || g->n_e == 0) { /* Hive: NULL over no n-grams */
    out->is_null = true;
    return HL_OK;
  }
  /* the first k of a copy, sorted: the state stays as it is (a window's
   * running frame adds to it after) */
  entry_t *e = hl_arena_alloc(arena, sizeof(entry_t) * g->n_e);
  if (!e) return HL_NOMEM;
  memcpy(e, g->e, sizeof(entry_t) * g->n_e);
  size_t n = g->n_e;
  if ((int64_t)n > ag->ip[1]) {
    select_first(e, g->n_e, (uint32_t)ag->ip[1]);
    n = (size_t)ag->ip[1];
  }
  qsort(e, n, sizeof(entry_t), entry_cmp);
  hl_value_t *items = hl_arena_zalloc(arena, sizeof(hl_value_t) * n);
  hl_value_t *fields = hl_arena_zalloc(arena, sizeof(hl_value_t) * 2 * n);
  hl_value_t *words = hl_arena_zalloc(arena, sizeof(hl_value_t) * n * g->n);
  if (!items || !fields || !words) return HL_NOMEM;
  for (size_t i = 0; i < n; i++) {
    const char *p = e[i].key, *pe = p + e[i].len, *w;
    uint32_t wl, nw = 0;
    hl_value_t *ws = &words[i * g->n];
    while (nw < g->n && next_word(&p, pe, &w, &wl)) {
      ws[nw].u.s.ptr = w;
      ws[nw].u.s.len = wl;
      nw++;
    }
    fields[2 * i].u.list.n = nw;
    fields[2 * i].u.list.items = ws;
    fields[2 * i + 1].u.d = e[i].freq;
    items[i].u.list.n = 2;
    items[i].u.list.items = &fields[2 * i];
  }
  out->u.list.n = (uint32_t)n;
  out->u.list.items = items;
  return HL_OK;
}

/* The bytes of a state (op_agg_own.c): the n-grams kept, the words per
 * n-gram, the n-grams, then each one's count (a double) and key (its
 * length, then the words as the key holds them: a 4-byte length and the
 * bytes each).  The hashes and the slot table are made again. */
void hl_agg_ngrams_save(const agg_state_t *st, hl_buf_t *out) {
  const ngrams_t *g = st->fam;
  hl_buf_append(out, &g->keep, sizeof g->keep);
  hl_buf_append(out, &g->n, sizeof g->n);
  hl_buf_append(out, &g->n_e, sizeof g->n_e);
  for (uint32_t i = 0; i < g->n_e; i++) {
    hl_buf_append(out, &g->e[i].freq, sizeof g->e[i].freq);
    hl_buf_append(out, &g->e[i].len, sizeof g->e[i].len);
    hl_buf_append(out, g->e[i].key, g->e[i].len);
  }
}

/* Whether KEY[0..len) is exactly N words (the key's form entry_cmp and
 * the result read). */
static bool key_ok(const uint8_t *key, uint32_t len, uint32_t n) {
  agg_rd_t r = {key, len};
  uint32_t wl;
  for (uint32_t i = 0; i < n; i++)
    if (!hl_agg_rd_u32(&r, &wl) || !hl_agg_rd_take(&r, wl)) return false;
  return r.left == 0;
}

hl_status_t hl_agg_ngrams_load(agg_rd_t *r, uint32_t n, int64_t keep, hl_arena_t *arena,
                               agg_state_t *st) {
  int64_t skeep;
  uint32_t sn, n_e;
  if (!hl_agg_rd_i64(r, &skeep) || !hl_agg_rd_u32(r, &sn) || !hl_agg_rd_u32(r, &n_e))
    return HL_CORRUPT;
  /* the aggregate's shape; at most twice the n-grams kept (a cut follows
   * past that), each at least a count and a length */
  if (skeep != keep || sn != n || (int64_t)n_e > 2 * keep ||
      r->left / (sizeof(double) + sizeof(uint32_t)) < n_e)
    return HL_CORRUPT;
  ngrams_t *g = hl_arena_zalloc(arena, sizeof *g);
  entry_t *e = hl_arena_alloc(arena, sizeof(entry_t) * (n_e ? n_e : 1));
  if (!g || !e) return HL_NOMEM;
  g->keep = keep;
  g->n = n;
  g->e = e;
  g->n_e = g->cap_e = n_e;
  for (uint32_t i = 0; i < n_e; i++) {
    double freq;
    uint32_t len;
    const uint8_t *key;
    if (!hl_agg_rd_f64(r, &freq) || !hl_agg_rd_u32(r, &len) || !(key = hl_agg_rd_take(r, len)))
      return HL_CORRUPT;
    /* counts are sums of ones: a NaN would make the cut's order partial */
    if (!(freq >= 1.0 && freq <= 1e300) || !key_ok(key, len, n)) return HL_CORRUPT;
    /* a merge copies what it keeps: the key may stay in the spilled bytes */
    e[i] = (entry_t){
        .key = (const char *)key, .len = len, .hash = hl_hash_bytes(key, len), .freq = freq};
  }
  st->fam = g; /* no slot table: the first count into it makes one */
  return HL_OK;
}
