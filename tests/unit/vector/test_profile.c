/*
 * test_profile.c -- unit tests for the column profile state
 * (src/vector/profile.c): exact results on small inputs of every type;
 * merges of random splits equal to one state (exact metrics exactly, the
 * HyperLogLog bit for bit); the distinct estimate within 3x its stated
 * error over 50 seeds; the quantile rank error within its stated bound
 * over many seeds, random and sorted input, with merges; the Misra-Gries
 * counts as lower bounds within their error; dictionary views equal to
 * plain strings; encode -> decode -> encode byte-equal; every truncation
 * and random byte flips rejected (and, behind a fixed checksum, decoded or
 * rejected cleanly); encoded sizes within their bounds (a sketch state of
 * 8,000 distinct BIGINTs at most 3 KiB).  HL_PROF_BENCH=1 prints
 * throughput.
 */
#include "test.h"

#include "util/mem.h"
#include "vector/profile.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

static uint64_t rng_state;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static hl_type_t *ty(hl_arena_t *a, const char *text) {
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  if (hl_type_parse_str(a, text, &t, &e) != HL_OK) t = NULL;
  hl_err_clear(&e);
  CHECK(t != NULL);
  return t;
}

/* A column of test data: values by physical layout, nulls, optional
 * dictionary indexes into WORDS for strings. */
typedef struct col {
  const hl_type_t *t;
  int n;
  int64_t *i;
  double *d;
  __int128 *x;
  hl_str_t *s;
  uint32_t *widx; /* strings from a dictionary */
  const hl_str_t *words;
  uint32_t n_words;
  uint8_t *null;
} col_t;

static col_t col_new(const hl_type_t *t, int n) {
  col_t c;
  memset(&c, 0, sizeof c);
  c.t = t;
  c.n = n;
  c.i = calloc((size_t)n + 1, sizeof *c.i);
  c.d = calloc((size_t)n + 1, sizeof *c.d);
  c.x = calloc((size_t)n + 1, sizeof *c.x);
  c.s = calloc((size_t)n + 1, sizeof *c.s);
  c.null = calloc((size_t)n + 1, 1);
  return c;
}

static void col_free(col_t *c) {
  free(c->i);
  free(c->d);
  free(c->x);
  free(c->s);
  free(c->widx);
  free(c->null);
}

/* Adds rows [from, to) of C in vectors of at most 1024 rows.  MODE bit 0:
 * through a selection vector with junk rows between; bit 1: strings as a
 * dictionary view (needs widx). */
static void feed(hl_prof_col_t *st, const col_t *c, int from, int to, unsigned mode) {
  static uint64_t raw[HL_BATCH_CAP];
  static __int128 dec[HL_BATCH_CAP];
  static hl_str_t str[HL_BATCH_CAP];
  static uint64_t validity[HL_BATCH_CAP / 64];
  static uint32_t sel[HL_BATCH_CAP], didx[HL_BATCH_CAP];
  hl_phys_t p = hl_type_phys(c->t);
  while (from < to) {
    int k = to - from < 1024 ? to - from : 1024;
    bool use_sel = mode & 1;
    memset(validity, 0xff, sizeof validity);
    bool any_null = false;
    uint32_t rows = use_sel ? 2 * (uint32_t)k : (uint32_t)k;
    for (uint32_t r = 0; r < rows; r++) {
      int src = use_sel ? (r & 1 ? -1 : from + (int)r / 2) : from + (int)r;
      bool is_null = src < 0 ? (rnd() & 1) : c->null[src];
      if (is_null) {
        validity[r >> 6] &= ~((uint64_t)1 << (r & 63));
        any_null = true;
      }
      int s = src < 0 ? from : src; /* junk rows: some value */
      uint64_t junk = src < 0 ? rnd() : 0;
      switch (p) {
      case HL_P_BOOL:
        ((uint8_t *)raw)[r] = src < 0 ? junk & 1 : (uint8_t)c->i[s];
        break;
      case HL_P_I64:
        raw[r] = src < 0 ? junk : (uint64_t)c->i[s];
        break;
      case HL_P_F64:
        memcpy(&raw[r], src < 0 ? &c->d[0] : &c->d[s], 8);
        break;
      case HL_P_I128:
        dec[r] = src < 0 ? (__int128)junk : c->x[s];
        break;
      case HL_P_STR:
        str[r] = src < 0 ? (hl_str_t){"junk", 4} : c->s[s];
        didx[r] = c->widx ? (src < 0 ? 0 : c->widx[s]) : 0;
        break;
      default:
        break;
      }
      if (use_sel && !(r & 1)) sel[r / 2] = r;
    }
    hl_vec_t v;
    memset(&v, 0, sizeof v);
    v.type = c->t;
    v.validity = any_null ? validity : NULL;
    v.data = p == HL_P_I128 ? (void *)dec : p == HL_P_STR ? (void *)str : (void *)raw;
    if ((mode & 2) && c->widx) {
      v.dict = c->words;
      v.dict_idx = didx;
      v.dict_n = c->n_words;
    }
    hl_error_t err;
    hl_err_init(&err);
    CHECK_INT(hl_prof_col_add(st, &v, use_sel ? sel : NULL, (uint32_t)k, &err), HL_OK);
    hl_err_clear(&err);
    from += k;
  }
}

static hl_prof_col_t *state_of(const col_t *c, unsigned mode) {
  hl_error_t err;
  hl_err_init(&err);
  hl_prof_col_t *st = hl_prof_col_new(c->t, &err);
  CHECK(st != NULL);
  feed(st, c, 0, c->n, mode);
  return st;
}

static void result_of(const hl_prof_col_t *st, hl_arena_t *a, hl_prof_result_t *r) {
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_prof_col_result(st, a, r, &err), HL_OK);
}

/* Encodes ST into a fresh buffer (caller finis). */
static hl_buf_t enc(const hl_prof_col_t *st) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_error_t err;
  hl_err_init(&err);
  CHECK_INT(hl_prof_col_encode(st, &b, &err), HL_OK);
  return b;
}

static char *fmt(hl_arena_t *a, const hl_type_t *t, const hl_value_t *v) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, t, v);
  char *s = hl_arena_strdup(a, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return s;
}

/* The result as one line of text, for exact comparisons. */
static char *describe(hl_arena_t *a, const hl_type_t *t, const hl_prof_result_t *r,
                      bool with_stats) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_printf(&b, "count=%lld nulls=%lld distinct=%lld%s", (long long)r->count,
                (long long)r->nulls, (long long)r->distinct, r->distinct_exact ? "" : "~");
  if (r->has_minmax) hl_buf_printf(&b, " min=%s max=%s", fmt(a, t, &r->min), fmt(a, t, &r->max));
  if (r->has_mean && with_stats) hl_buf_printf(&b, " mean=%.6g", r->mean);
  if (r->has_stddev && with_stats) hl_buf_printf(&b, " std=%.6g", r->stddev);
  if (r->has_quantiles)
    hl_buf_printf(&b, " q=%s,%s,%s", fmt(a, t, &r->q25), fmt(a, t, &r->q50), fmt(a, t, &r->q75));
  if (r->has_signs)
    hl_buf_printf(&b, " zeros=%lld neg=%lld", (long long)r->zeros, (long long)r->negatives);
  if (r->nans || r->infinities)
    hl_buf_printf(&b, " nans=%lld infs=%lld", (long long)r->nans, (long long)r->infinities);
  if (r->has_lengths)
    hl_buf_printf(&b, " len=%lld..%lld mean_len=%.4g empties=%lld", (long long)r->min_len,
                  (long long)r->max_len, r->mean_len, (long long)r->empties);
  hl_buf_printf(&b, " top%s=", r->top_exact ? "" : "~");
  for (int i = 0; i < r->n_top; i++)
    hl_buf_printf(&b, "%s%s:%lld", i ? "," : "", fmt(a, t, &r->top[i]), (long long)r->top_count[i]);
  char *s = hl_arena_strdup(a, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return s;
}

/* Profiles C (also through a selection vector and split in two and
 * merged, and decoded from its encoding: all must agree) and checks the
 * text. */
static void check_profile(const col_t *c, const char *expected) {
  hl_arena_t *a = hl_arena_create(0);
  hl_prof_col_t *st = state_of(c, 0), *st2 = state_of(c, 1);
  hl_error_t err;
  hl_err_init(&err);
  hl_prof_col_t *l = hl_prof_col_new(c->t, &err), *r = hl_prof_col_new(c->t, &err);
  feed(l, c, 0, c->n / 2, 0);
  feed(r, c, c->n / 2, c->n, 1);
  CHECK_INT(hl_prof_col_merge(l, r, &err), HL_OK);
  hl_buf_t b = enc(st);
  hl_prof_col_t *dec = hl_prof_col_decode(c->t, b.data, b.len, &err);
  CHECK(dec != NULL);
  hl_prof_result_t res;
  const hl_prof_col_t *all[4] = {st, st2, l, dec};
  for (int i = 0; i < 4; i++) {
    if (!all[i]) continue;
    result_of(all[i], a, &res);
    char *got = describe(a, c->t, &res, true);
    if (strcmp(got, expected) != 0) fprintf(stderr, "variant %d:\n", i);
    CHECK_STR(got, expected);
  }
  hl_buf_fini(&b);
  hl_prof_col_free(st);
  hl_prof_col_free(st2);
  hl_prof_col_free(l);
  hl_prof_col_free(r);
  hl_prof_col_free(dec);
  hl_arena_destroy(a);
}

TEST(small_every_type) {
  hl_arena_t *a = hl_arena_create(0);
  /* integers: values 3 1 NULL 2 2 -5 0 */
  const int64_t iv[7] = {3, 1, 0, 2, 2, -5, 0};
  const char *ints[] = {"tinyint", "smallint", "int", "bigint"};
  for (int k = 0; k < 4; k++) {
    col_t c = col_new(ty(a, ints[k]), 7);
    for (int i = 0; i < 7; i++)
      c.i[i] = iv[i];
    c.null[2] = 1;
    check_profile(&c, "count=7 nulls=1 distinct=5 min=-5 max=3 mean=0.5 std=2.88097 "
                      "q=0,1,2 zeros=1 neg=1 top=2:2,-5:1,0:1,1:1,3:1");
    col_free(&c);
  }
  { /* boolean */
    col_t c = col_new(ty(a, "boolean"), 5);
    const int64_t bv[5] = {1, 0, 1, 1, 0};
    for (int i = 0; i < 5; i++)
      c.i[i] = bv[i];
    c.null[4] = 1;
    check_profile(&c, "count=5 nulls=1 distinct=2 min=false max=true top=true:3,false:1");
    col_free(&c);
  }
  { /* double: NaN, infinity, -0.0 */
    col_t c = col_new(ty(a, "double"), 8);
    const double dv[8] = {1.5, NAN, -0.0, 0.0, INFINITY, -2.5, 1.5, 0};
    for (int i = 0; i < 8; i++)
      c.d[i] = dv[i];
    c.null[7] = 1;
    /* mean and std of the finite values 1.5 -0 0 -2.5 1.5 */
    check_profile(&c, "count=8 nulls=1 distinct=5 min=-2.5 max=Infinity mean=0.1 std=1.63554 "
                      "q=0.0,0.0,1.5 zeros=2 neg=1 nans=1 infs=1 "
                      "top=0.0:2,1.5:2,-2.5:1,Infinity:1,NaN:1");
    col_free(&c);
  }
  { /* float */
    col_t c = col_new(ty(a, "float"), 3);
    c.d[0] = (double)0.1f;
    c.d[1] = (double)0.1f;
    c.d[2] = -1;
    check_profile(&c, "count=3 nulls=0 distinct=2 min=-1.0 max=0.1 mean=-0.266667 std=0.635085 "
                      "q=-1.0,0.1,0.1 zeros=0 neg=1 top=0.1:2,-1.0:1");
    col_free(&c);
  }
  { /* decimal(10,2) */
    col_t c = col_new(ty(a, "decimal(10,2)"), 4);
    const __int128 xv[4] = {150, -25, 150, 0};
    for (int i = 0; i < 4; i++)
      c.x[i] = xv[i];
    check_profile(&c, "count=4 nulls=0 distinct=3 min=-0.25 max=1.50 mean=0.6875 std=0.943729 "
                      "q=-0.25,0.00,1.50 zeros=1 neg=1 top=1.50:2,-0.25:1,0.00:1");
    col_free(&c);
  }
  { /* decimal(38,0) beyond int64 */
    col_t c = col_new(ty(a, "decimal(38,0)"), 3);
    __int128 big = (__int128)1 << 100;
    c.x[0] = big;
    c.x[1] = -big;
    c.x[2] = big;
    check_profile(&c, "count=3 nulls=0 distinct=2 min=-1267650600228229401496703205376 "
                      "max=1267650600228229401496703205376 mean=4.2255e+29 std=1.46376e+30 "
                      "q=-1267650600228229401496703205376,1267650600228229401496703205376,"
                      "1267650600228229401496703205376 zeros=0 neg=1 "
                      "top=1267650600228229401496703205376:2,-1267650600228229401496703205376:1");
    col_free(&c);
  }
  { /* negative sums: the 192-bit sum converted by its magnitude (it
       once cancelled to a mean of 0) */
    col_t c = col_new(ty(a, "bigint"), 4);
    const int64_t nv[4] = {-286, INT64_MIN, INT64_MIN, 7};
    for (int i = 0; i < 4; i++)
      c.i[i] = nv[i];
    check_profile(&c, "count=4 nulls=0 distinct=3 min=-9223372036854775808 max=7 "
                      "mean=-4.61169e+18 std=5.32512e+18 q=-9223372036854775808,"
                      "-9223372036854775808,-286 zeros=0 neg=3 "
                      "top=-9223372036854775808:2,-286:1,7:1");
    col_free(&c);
    col_t d = col_new(ty(a, "int"), 1);
    d.i[0] = -286;
    check_profile(&d, "count=1 nulls=0 distinct=1 min=-286 max=-286 mean=-286 q=-286,-286,-286 "
                      "zeros=0 neg=1 top=-286:1");
    col_free(&d);
    col_t x = col_new(ty(a, "decimal(12,2)"), 2);
    x.x[0] = -150;
    x.x[1] = 25;
    check_profile(&x, "count=2 nulls=0 distinct=2 min=-1.50 max=0.25 mean=-0.625 std=1.23744 "
                      "q=-1.50,-1.50,-1.50 zeros=0 neg=1 top=-1.50:1,0.25:1");
    col_free(&x);
  }
  { /* strings: lengths in characters, empties, bytewise order */
    const char *names[] = {"string", "varchar(10)", "char(6)", "binary"};
    for (int k = 0; k < 4; k++) {
      col_t c = col_new(ty(a, names[k]), 6);
      const char *sv[6] = {"b", "", "\xc3\xa9t\xc3\xa9", "b", "ab", "zz"};
      for (int i = 0; i < 6; i++)
        c.s[i] = (hl_str_t){sv[i], (uint32_t)strlen(sv[i])};
      if (k == 2) /* CHAR: padded values compare and count without blanks */
        c.s[0] = (hl_str_t){"b     ", 6};
      c.null[5] = 1;
      const char *exp =
          k == 3 ? "count=6 nulls=1 distinct=4 min= max=\xc3\xa9t\xc3\xa9 len=0..5 mean_len=1.8 "
                   "empties=1 top=b:2,:1,ab:1,\xc3\xa9t\xc3\xa9:1"
                 : "count=6 nulls=1 distinct=4 min= max=\xc3\xa9t\xc3\xa9 len=0..3 mean_len=1.4 "
                   "empties=1 top=b:2,:1,ab:1,\xc3\xa9t\xc3\xa9:1";
      check_profile(&c, exp);
      col_free(&c);
    }
  }
  { /* date and timestamp: no mean, quantiles of the type */
    col_t c = col_new(ty(a, "date"), 4);
    c.i[0] = 0;
    c.i[1] = 19000;
    c.i[2] = 19000;
    c.i[3] = -1;
    check_profile(&c, "count=4 nulls=0 distinct=3 min=1969-12-31 max=2022-01-08 "
                      "q=1969-12-31,1970-01-01,2022-01-08 top=2022-01-08:2,1969-12-31:1,"
                      "1970-01-01:1");
    col_free(&c);
    c = col_new(ty(a, "timestamp"), 2);
    c.i[0] = 1500000;
    c.i[1] = 0;
    check_profile(&c, "count=2 nulls=0 distinct=2 min=1970-01-01 00:00:00 "
                      "max=1970-01-01 00:00:01.5 q=1970-01-01 00:00:00,1970-01-01 00:00:00,"
                      "1970-01-01 00:00:00 top=1970-01-01 00:00:00:1,1970-01-01 00:00:01.5:1");
    col_free(&c);
  }
  { /* complex: count and nulls */
    col_t c = col_new(ty(a, "array<int>"), 3);
    c.null[1] = 1;
    check_profile(&c, "count=3 nulls=1 distinct=0 top=");
    col_free(&c);
  }
  { /* all NULL, and empty */
    col_t c = col_new(ty(a, "bigint"), 3);
    memset(c.null, 1, 3);
    check_profile(&c, "count=3 nulls=3 distinct=0 zeros=0 neg=0 top=");
    col_free(&c);
    c = col_new(ty(a, "double"), 2);
    c.d[0] = c.d[1] = NAN;
    check_profile(&c, "count=2 nulls=0 distinct=1 zeros=0 neg=0 nans=2 infs=0 top=NaN:2");
    col_free(&c);
  }
  hl_arena_destroy(a);
}

/* ---- random data ---- */

static const char *const word_list[] = {"alpha", "beta",   "gamma", "delta", "epsilon",
                                        "zeta",  "eta",    "theta", "iota",  "kappa",
                                        "",      "lambda", "mu",    "nu",    "xi"};

/* N rows of TYPE: DISTINCT values at most (0: all different), some NULLs. */
static col_t random_col(const hl_type_t *t, int n, int64_t distinct, char *pool) {
  col_t c = col_new(t, n);
  for (int i = 0; i < n; i++) {
    uint64_t r = rnd();
    c.null[i] = r % 17 == 0;
    int64_t v = distinct ? (int64_t)(rnd() % (uint64_t)distinct) : (int64_t)(rnd() >> 1);
    if (distinct && (rnd() & 3) == 0) v = 0; /* a heavy value */
    if (rnd() & 1) v = -v;
    c.i[i] = v;
    c.d[i] = (double)v / 8.0;
    c.x[i] = (__int128)v * 1000000007;
    if (pool) { /* strings: "w<v>" */
      char *s = pool + (size_t)i * 24;
      int len = snprintf(s, 24, "w%lld", (long long)v);
      c.s[i] = (hl_str_t){s, (uint32_t)len};
    }
  }
  return c;
}

/* Every exact metric of a result (the ones a merge must keep exactly). */
static char *exact_part(hl_arena_t *a, const hl_type_t *t, const hl_prof_result_t *r) {
  hl_prof_result_t x = *r;
  if (!x.distinct_exact) { /* sketch quantiles and summary may differ; HLL does not */
    x.has_quantiles = false;
    x.n_top = 0;
  }
  bool is_int = hl_type_is_integer(t) || t->id == HL_T_DECIMAL;
  x.has_stddev = false;
  if (!is_int) x.has_mean = false;
  return describe(a, t, &x, true);
}

TEST(merge_of_splits_equals_one_state) {
  hl_arena_t *a = hl_arena_create(0);
  const char *types[] = {"bigint", "double", "decimal(38,3)", "string", "int", "date"};
  char *pool = malloc((size_t)30000 * 24);
  for (int tk = 0; tk < 6; tk++) {
    const hl_type_t *t = ty(a, types[tk]);
    for (int seed = 0; seed < 12; seed++) {
      rng_state = (uint64_t)seed * 7919 + (uint64_t)tk;
      int64_t distinct = seed % 3 == 0 ? 0 : seed % 3 == 1 ? 300 : 3000;
      col_t c = random_col(t, 30000, distinct, tk == 3 ? pool : NULL);
      hl_prof_col_t *one = state_of(&c, 0);
      /* random splits merged in random order and shape */
      int n_parts = 2 + (int)(rnd() % 9);
      int cuts[12];
      cuts[0] = 0;
      for (int p = 1; p < n_parts; p++)
        cuts[p] = (int)(rnd() % (uint64_t)c.n);
      cuts[n_parts] = c.n;
      for (int p = 1; p < n_parts; p++) /* sort the cuts */
        for (int q = p; q > 1 && cuts[q - 1] > cuts[q]; q--) {
          int tmp = cuts[q];
          cuts[q] = cuts[q - 1];
          cuts[q - 1] = tmp;
        }
      hl_prof_col_t *parts[12];
      hl_error_t err;
      hl_err_init(&err);
      for (int p = 0; p < n_parts; p++) {
        parts[p] = hl_prof_col_new(t, &err);
        feed(parts[p], &c, cuts[p], cuts[p + 1], (unsigned)(rnd() & 1));
      }
      /* fold pairwise from random positions (associativity) */
      int live = n_parts;
      while (live > 1) {
        int i = (int)(rnd() % (uint64_t)(live - 1));
        CHECK_INT(hl_prof_col_merge(parts[i], parts[i + 1], &err), HL_OK);
        hl_prof_col_free(parts[i + 1]);
        memmove(&parts[i + 1], &parts[i + 2], sizeof parts[0] * (size_t)(live - i - 2));
        live--;
      }
      hl_prof_result_t r1, r2;
      result_of(one, a, &r1);
      result_of(parts[0], a, &r2);
      CHECK_STR(exact_part(a, t, &r2), exact_part(a, t, &r1));
      if (r1.has_stddev) CHECK(fabs(r1.stddev - r2.stddev) <= 1e-9 * fabs(r1.stddev));
      if (r1.has_mean) CHECK(fabs(r1.mean - r2.mean) <= 1e-9 * (fabs(r1.mean) + 1e-300));
      /* an encoded part round-trips */
      hl_buf_t b = enc(parts[0]);
      hl_prof_col_t *d = hl_prof_col_decode(t, b.data, b.len, &err);
      CHECK(d != NULL);
      if (d) {
        hl_buf_t b2 = enc(d);
        CHECK(b2.len == b.len && memcmp(b.data, b2.data, b.len) == 0);
        hl_buf_fini(&b2);
      }
      hl_prof_col_free(d);
      hl_buf_fini(&b);
      hl_prof_col_free(parts[0]);
      hl_prof_col_free(one);
      col_free(&c);
    }
  }
  free(pool);
  hl_arena_destroy(a);
}

/* Row I of C as a value of its type. */
static hl_value_t value_at(const col_t *c, int i) {
  hl_value_t v;
  memset(&v, 0, sizeof v);
  switch (hl_type_phys(c->t)) {
  case HL_P_BOOL:
    v.u.b = (uint8_t)c->i[i] != 0;
    break;
  case HL_P_I64:
    v.u.i = c->i[i];
    break;
  case HL_P_F64:
    v.u.d = c->d[i];
    break;
  case HL_P_I128:
    v.u.dec = c->x[i];
    break;
  default:
    v.u.s = c->s[i];
    break;
  }
  return v;
}

/* Runs of one value (what file statistics answer) added by
 * hl_prof_col_add_repeat equal the same rows added as vectors. */
TEST(repeat_equals_rows) {
  hl_arena_t *a = hl_arena_create(0);
  const char *types[] = {"bigint", "double", "decimal(38,3)", "string",
                         "int",    "date",   "boolean",       "char(6)"};
  char *pool = malloc((size_t)30000 * 24);
  for (int tk = 0; tk < 8; tk++) {
    const hl_type_t *t = ty(a, types[tk]);
    bool str = tk == 3 || tk == 7;
    for (int seed = 0; seed < 9; seed++) {
      rng_state = (uint64_t)seed * 104729 + (uint64_t)tk;
      int64_t distinct = seed % 3 == 0 ? 0 : seed % 3 == 1 ? 300 : 3000;
      col_t c = random_col(t, 30000, distinct, str ? pool : NULL);
      /* runs [cut[2k], cut[2k+1]) hold row cut[2k]'s value (or NULL) */
      int cuts[8];
      for (int k = 0; k < 8; k++)
        cuts[k] = (int)(rnd() % (uint64_t)c.n);
      for (int p = 1; p < 8; p++)
        for (int q = p; q > 0 && cuts[q - 1] > cuts[q]; q--) {
          int tmp = cuts[q];
          cuts[q] = cuts[q - 1];
          cuts[q - 1] = tmp;
        }
      if (seed == 4) cuts[0] = 0, cuts[1] = c.n; /* one run: the whole column */
      int runs = seed == 4 ? 1 : 4;
      for (int k = 0; k < runs; k++)
        for (int i = cuts[2 * k] + 1; i < cuts[2 * k + 1]; i++) {
          bool null_run = (k == 1);
          c.null[i] = null_run ? 1 : (rnd() % 5 == 0); /* NULLs among the run's rows */
          c.i[i] = c.i[cuts[2 * k]];
          c.d[i] = c.d[cuts[2 * k]];
          c.x[i] = c.x[cuts[2 * k]];
          c.s[i] = c.s[cuts[2 * k]];
        }
      hl_prof_col_t *one = state_of(&c, 0);
      hl_error_t err;
      hl_err_init(&err);
      hl_prof_col_t *rep = hl_prof_col_new(t, &err);
      int at = 0;
      for (int k = 0; k < runs; k++) {
        int from = cuts[2 * k], to = cuts[2 * k + 1];
        if (from > at) feed(rep, &c, at, from, (unsigned)(rnd() & 1));
        if (to > from) feed(rep, &c, from, from + 1, 0); /* the run's first row as it is */
        int64_t vals = 0, nulls = 0;
        for (int i = from + 1; i < to; i++)
          c.null[i] ? nulls++ : vals++;
        hl_value_t v = value_at(&c, from);
        CHECK_INT(hl_prof_col_add_repeat(rep, &v, vals, nulls, &err), HL_OK);
        at = to > from ? to : from;
      }
      if (at < c.n) feed(rep, &c, at, c.n, 0);
      hl_prof_result_t r1, r2;
      result_of(one, a, &r1);
      result_of(rep, a, &r2);
      CHECK_STR(exact_part(a, t, &r2), exact_part(a, t, &r1));
      if (r1.has_stddev) CHECK(fabs(r1.stddev - r2.stddev) <= 1e-9 * fabs(r1.stddev));
      if (r1.has_mean) CHECK(fabs(r1.mean - r2.mean) <= 1e-9 * (fabs(r1.mean) + 1e-300));
      hl_prof_col_free(rep);
      hl_prof_col_free(one);
      col_free(&c);
    }
  }
  /* the row bound holds */
  hl_error_t err;
  hl_err_init(&err);
  hl_prof_col_t *st = hl_prof_col_new(ty(a, "bigint"), &err);
  hl_value_t v = {.u.i = -7};
  CHECK_INT(hl_prof_col_add_repeat(st, &v, HL_PROF_MAX_ROWS - 1, 0, &err), HL_OK);
  CHECK_INT(hl_prof_col_add_repeat(st, &v, 1, 1, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "22003");
  hl_err_clear(&err);
  hl_prof_result_t r;
  result_of(st, a, &r);
  CHECK_STR(describe(a, ty(a, "bigint"), &r, true),
            "count=72057594037927935 nulls=0 distinct=1 min=-7 max=-7 mean=-7 std=0 q=-7,-7,-7 "
            "zeros=0 neg=72057594037927935 top=-7:72057594037927935");
  hl_prof_col_free(st);
  free(pool);
  hl_arena_destroy(a);
}

TEST(dictionary_equals_plain) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *t = ty(a, "string");
  hl_str_t words[15];
  for (int i = 0; i < 15; i++)
    words[i] = (hl_str_t){word_list[i], (uint32_t)strlen(word_list[i])};
  rng_state = 42;
  col_t c = col_new(t, 20000);
  c.widx = calloc(20000, sizeof *c.widx);
  c.words = words;
  c.n_words = 15;
  for (int i = 0; i < c.n; i++) {
    c.widx[i] = (uint32_t)(rnd() % 15);
    c.s[i] = words[c.widx[i]];
    c.null[i] = rnd() % 10 == 0;
  }
  hl_prof_col_t *p = state_of(&c, 0), *d = state_of(&c, 2), *ds = state_of(&c, 3);
  hl_buf_t bp = enc(p), bd = enc(d), bs = enc(ds);
  CHECK(bp.len == bd.len && memcmp(bp.data, bd.data, bp.len) == 0);
  CHECK(bp.len == bs.len && memcmp(bp.data, bs.data, bp.len) == 0);
  hl_buf_fini(&bp);
  hl_buf_fini(&bd);
  hl_buf_fini(&bs);
  hl_prof_col_free(p);
  hl_prof_col_free(d);
  hl_prof_col_free(ds);
  col_free(&c);
  hl_arena_destroy(a);
}

/* ---- estimates ---- */

TEST(distinct_estimate_within_stated_error) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *t = ty(a, "bigint");
  hl_error_t err;
  hl_err_init(&err);
  static int64_t vals[1024];
  const int64_t sizes[] = {1025, 3000, 20000, 40000, 100000, 300000};
  for (int si = 0; si < 6; si++) {
    double worst = 0, sum_sq = 0;
    int seeds = sizes[si] >= 300000 ? 10 : 50;
    for (int seed = 0; seed < seeds; seed++) {
      rng_state = (uint64_t)seed * 104729 + (uint64_t)si;
      hl_prof_col_t *st = hl_prof_col_new(t, &err);
      hl_prof_col_t *half = hl_prof_col_new(t, &err);
      uint64_t base = rnd();
      for (int64_t at = 0; at < sizes[si]; at += 1024) {
        int k = sizes[si] - at < 1024 ? (int)(sizes[si] - at) : 1024;
        for (int i = 0; i < k; i++) /* distinct values, each twice over two states */
          vals[i] = (int64_t)(base + (uint64_t)(at + i) * 0x9e3779b97f4a7c15ULL);
        hl_vec_t v = {.type = t, .data = vals};
        CHECK_INT(hl_prof_col_add(st, &v, NULL, (uint32_t)k, &err), HL_OK);
        CHECK_INT(hl_prof_col_add(half, &v, NULL, (uint32_t)k, &err), HL_OK);
      }
      CHECK_INT(hl_prof_col_merge(st, half, &err), HL_OK);
      hl_prof_result_t r;
      result_of(st, a, &r);
      CHECK(!r.distinct_exact);
      CHECK(r.distinct_rel_err == HL_PROF_DISTINCT_REL_ERR);
      double e = ((double)r.distinct - (double)sizes[si]) / (double)sizes[si];
      sum_sq += e * e;
      if (fabs(e) > worst) worst = fabs(e);
      CHECK(fabs(e) <= 3 * r.distinct_rel_err);
      hl_prof_col_free(st);
      hl_prof_col_free(half);
    }
    printf("  distinct %lld: max rel err %.4f, rms %.4f (stated %.4f)\n", (long long)sizes[si],
           worst, sqrt(sum_sq / seeds), HL_PROF_DISTINCT_REL_ERR);
  }
  hl_arena_destroy(a);
}

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

/* Rank error of value V for quantile Q over sorted S[0..n): the distance
 * from floor(q (n-1)) to the positions V occupies, over n. */
static double rank_err(const int64_t *s, int64_t n, double q, int64_t v) {
  int64_t lo = 0, hi = n; /* first position >= v */
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (s[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  int64_t first = lo;
  hi = n;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (s[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  int64_t last = lo - 1; /* v occupies [first, last]; last < first: v did not occur */
  if (last < first) return 1.0;
  double target = floor(q * (double)(n - 1));
  double d = target < (double)first  ? (double)first - target
             : target > (double)last ? target - (double)last
                                     : 0;
  return d / (double)n;
}

/* ST through its encoding, as PROFILE stores and reads it back. */
static hl_prof_col_t *round_trip(const hl_type_t *t, hl_prof_col_t *st) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t b = enc(st);
  hl_prof_col_t *d = hl_prof_col_decode(t, b.data, b.len, &err);
  CHECK(d != NULL);
  hl_buf_fini(&b);
  hl_prof_col_free(st);
  return d;
}

/* SEEDS runs of N rows in four shapes, split into up to five merged parts
 * (PART_ROWS > 0: into parts of that many rows), each stored (encoded and
 * decoded) before the merge; returns the largest rank error seen. */
static double quantile_runs(int n, int seeds, int seed0, int part_rows) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *t = ty(a, "bigint");
  hl_error_t err;
  hl_err_init(&err);
  int64_t *vals = malloc(sizeof *vals * (size_t)n), *sorted = malloc(sizeof *vals * (size_t)n);
  double worst = 0;
  for (int seed = seed0; seed < seed0 + seeds; seed++) {
    rng_state = (uint64_t)seed * 31337 + 1;
    int shape = seed % 4; /* random, sorted, reversed, few values repeated */
    for (int i = 0; i < n; i++)
      vals[i] = shape == 0   ? (int64_t)(rnd() % 1000000000)
                : shape == 1 ? i
                : shape == 2 ? n - i
                             : (int64_t)(rnd() % 5000) * 3;
    /* several parts merged, as partitions are */
    int n_parts = 1 + seed % 5;
    hl_prof_col_t *parts[5];
    for (int p = 0; p < n_parts; p++)
      parts[p] = hl_prof_col_new(t, &err);
    if (part_rows) { /* many small stored parts merged into one */
      for (int at = 0; at < n; at += part_rows) {
        hl_prof_col_t *st = hl_prof_col_new(t, &err);
        for (int i = at; i < at + part_rows && i < n; i += 1024) {
          int k = at + part_rows - i < 1024 ? at + part_rows - i : 1024;
          k = n - i < k ? n - i : k;
          hl_vec_t v = {.type = t, .data = vals + i};
          CHECK_INT(hl_prof_col_add(st, &v, NULL, (uint32_t)k, &err), HL_OK);
        }
        st = round_trip(t, st);
        CHECK_INT(hl_prof_col_merge(parts[0], st, &err), HL_OK);
        hl_prof_col_free(st);
      }
    } else {
      for (int at = 0; at < n; at += 2048) {
        int k = n - at < 2048 ? n - at : 2048;
        hl_vec_t v = {.type = t, .data = vals + at};
        CHECK_INT(hl_prof_col_add(parts[(at / 2048) * n_parts / (n / 2048 + 1)], &v, NULL,
                                  (uint32_t)k, &err),
                  HL_OK);
      }
    }
    for (int p = 1; p < n_parts; p++) {
      parts[p] = round_trip(t, parts[p]);
      CHECK_INT(hl_prof_col_merge(parts[0], parts[p], &err), HL_OK);
      hl_prof_col_free(parts[p]);
    }
    hl_prof_result_t r;
    result_of(parts[0], a, &r);
    CHECK(r.has_quantiles);
    memcpy(sorted, vals, sizeof *vals * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_i64);
    const double qs[3] = {0.25, 0.5, 0.75};
    const hl_value_t *qv[3] = {&r.q25, &r.q50, &r.q75};
    for (int q = 0; q < 3; q++) {
      double e = rank_err(sorted, n, qs[q], qv[q]->u.i);
      if (e > worst) worst = e;
      CHECK(e <= HL_PROF_QUANTILE_RANK_ERR);
    }
    CHECK(r.quantile_rank_err == HL_PROF_QUANTILE_RANK_ERR);
    /* the state round-trips through its encoding */
    hl_buf_t b = enc(parts[0]);
    hl_prof_col_t *d = hl_prof_col_decode(t, b.data, b.len, &err);
    CHECK(d != NULL);
    if (d) {
      hl_buf_t b2 = enc(d);
      CHECK(b2.len == b.len && memcmp(b.data, b2.data, b.len) == 0);
      hl_buf_fini(&b2);
    }
    hl_prof_col_free(d);
    hl_buf_fini(&b);
    hl_prof_col_free(parts[0]);
  }
  free(vals);
  free(sorted);
  hl_arena_destroy(a);
  return worst;
}

TEST(quantile_rank_error_within_bound) {
  double w0 = quantile_runs(8000, 200, 1000, 0);
  printf("  quantiles, 8k rows x 200: max rank error %.5f (stated %.3f)\n", w0,
         HL_PROF_QUANTILE_RANK_ERR);
  double w1 = quantile_runs(300000, 40, 0, 0);
  printf("  quantiles, 300k rows x 40: max rank error %.5f (stated %.3f)\n", w1,
         HL_PROF_QUANTILE_RANK_ERR);
  /* PROFILE's shape: 8,000-row partitions, stored, merged */
  double w3 = quantile_runs(4000000, 8, 200, 8000);
  printf("  quantiles, 500 stored parts of 8k rows x 8: max rank error %.5f (stated %.3f)\n", w3,
         HL_PROF_QUANTILE_RANK_ERR);
  /* past 2^21 rows the intake is pair-sampled */
  double w2 = quantile_runs(6000000, 4, 100, 0);
  printf("  quantiles, 6M rows x 4: max rank error %.5f (stated %.3f)\n", w2,
         HL_PROF_QUANTILE_RANK_ERR);
}

TEST(frequent_values_lower_bounds) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *t = ty(a, "bigint");
  hl_error_t err;
  hl_err_init(&err);
  rng_state = 99;
  const int n = 200000;
  int64_t *vals = malloc(sizeof *vals * (size_t)n);
  int64_t truth[8] = {0};
  for (int i = 0; i < n; i++) {
    uint64_t r = rnd() % 100;
    /* values 0..7 take 2^-k-ish shares; the rest are all different */
    int64_t v = r < 20 ? 0 : r < 32 ? 1 : r < 40 ? 2 : r < 45 ? 3 : r < 48 ? 4 : 1000 + i;
    vals[i] = v;
    if (v < 8) truth[v]++;
  }
  hl_prof_col_t *st = hl_prof_col_new(t, &err), *s2 = hl_prof_col_new(t, &err);
  for (int at = 0; at < n; at += 2048) {
    hl_vec_t v = {.type = t, .data = vals + at};
    uint32_t k = (uint32_t)(n - at < 2048 ? n - at : 2048);
    CHECK_INT(hl_prof_col_add(at % 3 ? st : s2, &v, NULL, k, &err), HL_OK);
  }
  CHECK_INT(hl_prof_col_merge(st, s2, &err), HL_OK);
  hl_prof_result_t r;
  result_of(st, a, &r);
  CHECK(!r.top_exact);
  CHECK_INT(r.n_top, 5);
  for (int i = 0; i < 5 && i < r.n_top; i++) {
    CHECK_INT(r.top[i].u.i, i);
    CHECK(r.top_count[i] <= truth[i]);
    CHECK(truth[i] <= r.top_count[i] + r.top_count_err);
  }
  CHECK(r.top_count_err <= n / (HL_PROF_TOP_K + 1));
  hl_prof_col_free(st);
  hl_prof_col_free(s2);
  free(vals);
  hl_arena_destroy(a);
}

/* ---- encoding ---- */

/* Every truncation and random flips of the encoding of ST: rejected with
 * XX001, and behind a fixed checksum decoded or rejected cleanly. */
static void torture(const hl_type_t *t, const hl_prof_col_t *st, int flips) {
  hl_buf_t b = enc(st);
  hl_error_t err;
  for (size_t len = 0; len < b.len; len++) {
    uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees overreads */
    memcpy(copy, b.data, len);
    hl_err_init(&err);
    hl_prof_col_t *d = hl_prof_col_decode(t, copy, len, &err);
    CHECK(d == NULL);
    CHECK_STR(err.sqlstate, "XX001");
    CHECK_INT(err.code, HL_CORRUPT);
    hl_err_clear(&err);
    if (len >= 16) { /* resealed truncation: the field checks catch it */
      hl_prof_reseal(copy, len);
      hl_err_init(&err);
      d = hl_prof_col_decode(t, copy, len, &err);
      CHECK(d == NULL);
      CHECK_STR(err.sqlstate, "XX001");
      hl_err_clear(&err);
    }
    free(copy);
  }
  uint8_t *copy = malloc(b.len);
  for (int f = 0; f < flips; f++) {
    memcpy(copy, b.data, b.len);
    int nf = 1 + (int)(rnd() % 3);
    for (int k = 0; k < nf; k++)
      copy[rnd() % b.len] ^= (uint8_t)(1u << (rnd() % 8));
    if (memcmp(copy, b.data, b.len) == 0) continue;
    hl_err_init(&err);
    hl_prof_col_t *d = hl_prof_col_decode(t, copy, b.len, &err);
    CHECK(d == NULL); /* the checksum */
    hl_err_clear(&err);
    hl_prof_col_free(d);
    hl_prof_reseal(copy, b.len);
    hl_err_init(&err);
    d = hl_prof_col_decode(t, copy, b.len, &err);
    if (d) { /* accepted: usable */
      hl_arena_t *a = hl_arena_create(0);
      hl_prof_result_t r;
      CHECK_INT(hl_prof_col_result(d, a, &r, &err), HL_OK);
      hl_prof_col_t *m = hl_prof_col_new(t, &err);
      hl_status_t mrc = hl_prof_col_merge(m, d, &err);
      if (mrc == HL_OK) mrc = hl_prof_col_merge(m, st, &err);
      CHECK(mrc == HL_OK || strcmp(err.sqlstate, "22003") == 0); /* past 2^56 rows */
      hl_err_clear(&err);
      hl_buf_t b2 = enc(m);
      hl_buf_fini(&b2);
      hl_prof_col_free(m);
      hl_arena_destroy(a);
    } else {
      CHECK_STR(err.sqlstate, "XX001");
    }
    hl_err_clear(&err);
    hl_prof_col_free(d);
  }
  free(copy);
  hl_buf_fini(&b);
}

TEST(decode_rejects_damage) {
  hl_arena_t *a = hl_arena_create(0);
  const char *types[] = {"bigint",  "double", "decimal(38,3)", "string",
                         "boolean", "date",   "array<int>"};
  char *pool = malloc((size_t)5000 * 24);
  for (int tk = 0; tk < 7; tk++) {
    const hl_type_t *t = ty(a, types[tk]);
    for (int mode = 0; mode < 2; mode++) { /* exact, sketch */
      rng_state = (uint64_t)tk * 13 + (uint64_t)mode;
      col_t c = random_col(t, 5000, mode ? 0 : 40, tk == 3 ? pool : NULL);
      hl_prof_col_t *st = state_of(&c, 0);
      torture(t, st, 400);
      /* a state of another type is refused */
      hl_buf_t b = enc(st);
      hl_error_t err;
      hl_err_init(&err);
      hl_prof_col_t *d = hl_prof_col_decode(ty(a, tk ? "int" : "string"), b.data, b.len, &err);
      CHECK(d == NULL);
      CHECK_STR(err.sqlstate, "XX001");
      hl_err_clear(&err);
      hl_buf_fini(&b);
      hl_prof_col_free(st);
      col_free(&c);
    }
  }
  free(pool);
  hl_arena_destroy(a);
}

TEST(encoded_sizes) {
  hl_arena_t *a = hl_arena_create(0);
  const char *types[] = {"bigint", "double", "decimal(38,3)", "string"};
  char *pool = malloc((size_t)200000 * 24);
  for (int tk = 0; tk < 4; tk++) {
    const hl_type_t *t = ty(a, types[tk]);
    const int64_t ds[] = {10, 1000, 0};
    for (int k = 0; k < 3; k++) {
      rng_state = 5;
      col_t c = random_col(t, 200000, ds[k], tk == 3 ? pool : NULL);
      hl_prof_col_t *st = state_of(&c, 0);
      hl_buf_t b = enc(st);
      printf("  %s, %s distinct: %zu bytes\n", types[tk],
             ds[k] ? (ds[k] == 10 ? "~20" : "~2000") : "200k", b.len);
      CHECK(b.len < 48 * 1024);
      hl_buf_fini(&b);
      hl_prof_col_free(st);
      col_free(&c);
    }
  }
  free(pool);
  hl_arena_destroy(a);
}

TEST(allocation_failures_are_clean) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *t = ty(a, "string");
  char *pool = malloc((size_t)3000 * 24);
  rng_state = 7;
  col_t c = random_col(t, 3000, 0, pool);
  for (long fail = 1; fail < 400; fail++) {
    hl_error_t err;
    hl_err_init(&err);
    hl_mem_fail_after(fail);
    hl_prof_col_t *st = hl_prof_col_new(t, &err);
    hl_status_t rc = st ? HL_OK : HL_NOMEM;
    for (int at = 0; st && rc == HL_OK && at < c.n; at += 1000) {
      hl_vec_t v = {.type = t, .data = c.s + at};
      rc = hl_prof_col_add(st, &v, NULL, 1000, &err);
    }
    hl_mem_fail_after(0);
    CHECK(rc == HL_OK || rc == HL_NOMEM);
    hl_prof_col_free(st);
    hl_err_clear(&err);
  }
  col_free(&c);
  free(pool);
  hl_arena_destroy(a);
}

/* Encoded size of one state of ROWS rows: DISTINCT values at most (0:
 * all different); WIDE: BIGINT values over all 63 bits, else below 2^32. */
static size_t state_size(const hl_type_t *t, int rows, int64_t distinct, bool wide) {
  hl_error_t err;
  hl_err_init(&err);
  hl_prof_col_t *st = hl_prof_col_new(t, &err);
  static int64_t ints[HL_BATCH_CAP];
  static double dbls[HL_BATCH_CAP];
  static hl_str_t strs[HL_BATCH_CAP];
  static char pool[HL_BATCH_CAP * 24];
  bool is_str = t->id == HL_T_STRING;
  for (int at = 0; at < rows; at += HL_BATCH_CAP) {
    int k = rows - at < HL_BATCH_CAP ? rows - at : HL_BATCH_CAP;
    for (int i = 0; i < k; i++) {
      uint64_t r = rnd();
      int64_t v = distinct ? (int64_t)(r % (uint64_t)distinct) : (int64_t)(r >> (wide ? 1 : 32));
      if (!distinct && !wide) /* all distinct: odd multiples are a bijection mod 2^32 */
        v = (int64_t)(uint32_t)((uint32_t)(at + i) * 2654435761u);
      ints[i] = v;
      dbls[i] = (double)v * 0.01;
      if (is_str)
        strs[i] =
            (hl_str_t){pool + i * 24, (uint32_t)snprintf(pool + i * 24, 24, "c%lld", (long long)v)};
    }
    hl_vec_t v = {.type = t,
                  .data = is_str                 ? (void *)strs
                          : t->id == HL_T_DOUBLE ? (void *)dbls
                                                 : (void *)ints};
    CHECK_INT(hl_prof_col_add(st, &v, NULL, (uint32_t)k, &err), HL_OK);
  }
  hl_buf_t b = enc(st);
  size_t n = b.len;
  hl_buf_fini(&b);
  hl_prof_col_free(st);
  return n;
}

/* The encoded sizes of states by rows, distinct values and type (printed:
 * the table in src/vector/README.md), held to bounds; HL_PROF_BENCH=1
 * adds 1M rows. */
TEST(state_size_table) {
  hl_arena_t *a = hl_arena_create(0);
  const hl_type_t *tb = ty(a, "bigint"), *td = ty(a, "double"), *ts = ty(a, "string");
  const int rows[] = {8000, 100000, 1000000};
  int n_rows = getenv("HL_PROF_BENCH") ? 3 : 2;
  printf("  %8s %9s %12s %12s %8s %8s\n", "rows", "distinct", "bigint<2^32", "bigint<2^63",
         "double", "string");
  for (int ri = 0; ri < n_rows; ri++) {
    const int64_t ds[] = {20, 1000, 5000, 0};
    for (int di = 0; di < 4; di++) {
      rng_state = 11 + (uint64_t)di;
      size_t s1 = state_size(tb, rows[ri], ds[di], false);
      size_t s2 = state_size(tb, rows[ri], ds[di], true);
      size_t s3 = state_size(td, rows[ri], ds[di], false);
      size_t s4 = state_size(ts, rows[ri], ds[di], false);
      char dtext[16];
      snprintf(dtext, sizeof dtext, "%lld", (long long)(ds[di] ? ds[di] : rows[ri]));
      printf("  %8d %9s %12zu %12zu %8zu %8zu\n", rows[ri], dtext, s1, s2, s3, s4);
      if (ds[di] == 1000) { /* exact: what the values take */
        CHECK(s1 <= 2048 && s2 <= 2048 && s3 <= 9 * 1024 && s4 <= 5 * 1024);
      } else if (ds[di] != 20) { /* sketches: bounded whatever the rows */
        CHECK(s1 <= 2560 && s2 <= 3584 && s3 <= 3584 && s4 <= 2048);
        if (rows[ri] == 8000) CHECK(s2 <= 3072); /* an 8k-row partition: <= 3 KiB */
      } else {
        CHECK(s1 <= 160 && s2 <= 160 && s3 <= 320 && s4 <= 160);
      }
    }
  }
  hl_arena_destroy(a);
}

/* HL_PROF_CORPUS=DIR: writes the fuzz target's seeds (tests/fuzz/corpus/
 * prof_state): per type of fuzz_prof_state.c's list, an exact state
 * (seed_TT_0) and, past 1024 values, a sketch (seed_TT_1), each as the
 * type's index byte and the encoding. */
TEST(write_fuzz_corpus) {
  const char *dir = getenv("HL_PROF_CORPUS");
  if (!dir) return;
  static const char *const types[] = {
      "bigint",  "int",    "double",  "float", "decimal(10,2)", "decimal(38,3)", "string",
      "char(4)", "binary", "boolean", "date",  "timestamp",     "array<int>",    "varchar(8)",
  };
  hl_arena_t *a = hl_arena_create(0);
  char *pool = malloc((size_t)3000 * 24);
  for (int tk = 0; tk < 14; tk++) {
    const hl_type_t *t = ty(a, types[tk]);
    for (int mode = 0; mode < 2; mode++) {
      rng_state = (uint64_t)tk * 31 + (uint64_t)mode;
      col_t c = random_col(t, mode ? 3000 : 60, mode ? 0 : 12, pool);
      if (hl_type_is_integer(t) && t->id != HL_T_BIGINT) /* in range of the type */
        for (int i = 0; i < c.n; i++)
          c.i[i] = t->id == HL_T_BOOLEAN ? c.i[i] & 1 : c.i[i] % 100000;
      hl_prof_col_t *st = state_of(&c, 0);
      hl_buf_t b = enc(st);
      hl_prof_result_t r;
      result_of(st, a, &r);
      if (mode == 0 || !r.distinct_exact) {
        char path[512];
        snprintf(path, sizeof path, "%s/seed_%02d_%d", dir, tk, mode);
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f) {
          uint8_t tb = (uint8_t)tk;
          fwrite(&tb, 1, 1, f);
          fwrite(b.data, 1, b.len, f);
          fclose(f);
        }
      }
      hl_buf_fini(&b);
      hl_prof_col_free(st);
      col_free(&c);
    }
  }
  free(pool);
  hl_arena_destroy(a);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* HL_PROF_BENCH=1: rows/s on one core. */
TEST(bench) {
  if (!getenv("HL_PROF_BENCH")) return;
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  const int64_t rows = 20000000;
  static int64_t vals[HL_BATCH_CAP];
  for (int kind = 0; kind < 3; kind++) {
    const hl_type_t *t = ty(a, kind == 2 ? "string" : "bigint");
    hl_prof_col_t *st = hl_prof_col_new(t, &err);
    hl_str_t words[100];
    char wbuf[100][16];
    uint32_t idx[HL_BATCH_CAP];
    for (int i = 0; i < 100; i++)
      words[i] = (hl_str_t){wbuf[i], (uint32_t)snprintf(wbuf[i], 16, "value-%d", i * 7)};
    hl_str_t strs[HL_BATCH_CAP];
    rng_state = 1;
    double t0 = now_s();
    for (int64_t at = 0; at < rows; at += HL_BATCH_CAP) {
      hl_vec_t v = {.type = t};
      if (kind == 2) {
        for (int i = 0; i < HL_BATCH_CAP; i++) {
          idx[i] = (uint32_t)((at + i) * 2654435761u % 100);
          strs[i] = words[idx[i]];
        }
        v.data = strs;
        v.dict = words;
        v.dict_idx = idx;
        v.dict_n = 100;
      } else {
        for (int i = 0; i < HL_BATCH_CAP; i++)
          vals[i] = kind == 0 ? (int64_t)(rnd() >> 20) : (at + i) % 1000;
        v.data = vals;
      }
      CHECK_INT(hl_prof_col_add(st, &v, NULL, HL_BATCH_CAP, &err), HL_OK);
    }
    double dt = now_s() - t0;
    hl_prof_result_t r;
    result_of(st, a, &r);
    printf("  bench %s: %.1f M rows/s (distinct %lld)\n",
           kind == 0   ? "bigint, random (all distinct)"
           : kind == 1 ? "bigint, 1000 values"
                       : "string dictionary, 100 values",
           (double)rows / dt / 1e6, (long long)r.distinct);
    hl_prof_col_free(st);
  }
  /* PROFILE's shape: one state per 8,000-row partition, encoded */
  for (int kind = 0; kind < 2; kind++) {
    const hl_type_t *t = ty(a, kind ? "double" : "bigint");
    rng_state = 2;
    size_t bytes = 0;
    double t0 = now_s();
    for (int64_t at = 0; at < rows; at += 8000) {
      hl_prof_col_t *st = hl_prof_col_new(t, &err);
      for (int part = 0; part < 8000; part += HL_BATCH_CAP) {
        uint32_t k = 8000 - part < HL_BATCH_CAP ? (uint32_t)(8000 - part) : HL_BATCH_CAP;
        for (uint32_t i = 0; i < k; i++) {
          int64_t x = (int64_t)(rnd() >> 1);
          if (kind)
            memcpy(&vals[i], &(double){(double)x * 0.01}, 8);
          else
            vals[i] = x;
        }
        hl_vec_t v = {.type = t, .data = vals};
        CHECK_INT(hl_prof_col_add(st, &v, NULL, k, &err), HL_OK);
      }
      hl_buf_t b = enc(st);
      bytes += b.len;
      hl_buf_fini(&b);
      hl_prof_col_free(st);
    }
    double dt = now_s() - t0;
    printf("  bench %s, 8,000-row states encoded: %.1f M rows/s, %.0f bytes a state\n",
           kind ? "double" : "bigint", (double)rows / dt / 1e6,
           (double)bytes / (double)(rows / 8000));
  }
  hl_arena_destroy(a);
}

int main(void) {
  RUN(small_every_type);
  RUN(merge_of_splits_equals_one_state);
  RUN(repeat_equals_rows);
  RUN(dictionary_equals_plain);
  RUN(distinct_estimate_within_stated_error);
  RUN(quantile_rank_error_within_bound);
  RUN(frequent_values_lower_bounds);
  RUN(decode_rejects_damage);
  RUN(encoded_sizes);
  RUN(state_size_table);
  RUN(allocation_failures_are_clean);
  RUN(write_fuzz_corpus);
  RUN(bench);
  return test_report();
}
