/*
 * test_ds_quantiles.c -- unit tests for DataSketches' classic quantiles
 * sketch of doubles (src/util/ds_quantiles.c) against datasketches-java
 * 3.1.0 itself: tests/data/ds_quantiles_peer.java, run with Java's static
 * generator seeded HL_DS_QUANTILES_SEED (DoublesSketch.setRandom), printed
 * the compact bytes, quantiles, CDF, PMF and toString expected here --
 * with compactions, downsampling unions and the union's case analysis, so
 * hivelite's sketches are Java's bit for bit whenever Java's draws are
 * the same.  Also: every truncated prefix is refused, round trips, the
 * updatable form, and the error cases.
 */
#include "test.h"

#include "util/ds_quantiles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *bytes, *q, *cdf, *pmf, *even;
} expect_t;

static const expect_t X_small = {
    "0203081A800000000A00000000000000000000000000000000000000000022400000000000000000000000000000F0"
    "3F00000000000000400000000000000840000000000000104000000000000014400000000000001840000000000000"
    "1C4000000000000020400000000000002240",
    "0.0,1.0,2.0,5.0,7.0,9.0,9.0", "1.0,1.0,1.0,1.0", "1.0,0.0,0.0,0.0", "0.0,2.0,5.0,7.0,9.0"};
static const expect_t X_k4 = {
    "0203081A0400000064000000000000000000000000000000000000000000594000000000000031400000000000003B"
    "400000000000004B400000000000C056400000000000002C4000000000008044400000000000005140000000000000"
    "56400000000000002840000000000080434000000000008050400000000000805540",
    "0.0,12.0,27.0,54.0,86.0,86.0,100.0", "0.0,0.5,0.99,1.0", "0.0,0.5,0.49,0.01",
    "0.0,27.0,54.0,86.0,100.0"};
static const expect_t X_k8 = {
    "0203081A08000000E80300000000000000000000000000000000000000208F4000000000000000000000000000804C"
    "400000000000805C4000000000006065400000000000806C400000000000D071400000000000988B40000000000060"
    "8D40000000000080554000000000000069400000000000F07840000000000008804000000000009883400000000000"
    "2887400000000000B88A400000000000488E400000000000804D400000000000A06C40000000000070754000000000"
    "00907C400000000000D8814000000000006885400000000000F888400000000000908C400000000000004E40000000"
    "0000C065400000000000007240000000000040794000000000003080400000000000C083400000000000E889400000"
    "000000788D4000000000000028400000000000C0624000000000008070400000000000A077400000000000C07E4000"
    "00000000F0824000000000008086400000000000D88B400000000000A0644000000000007071400000000000407A40"
    "0000000000B0804000000000004084400000000000D087400000000000608B400000000000F08E40",
    "0.0,165.0,279.0,534.0,762.0,891.0,996.0", "0.001,0.033,0.062,1.0", "0.001,0.032,0.029,0.938",
    "0.0,279.0,534.0,762.0,996.0"};
static const expect_t X_unionBA = {
    "0203081A08000000790100000000000000000000000000000000000000406A40000000000080404000000000000046"
    "4000000000000047400000000000804C400000000000804D40000000000080514000000000000052400000000000C0"
    "544000000000004055400000000000001C4000000000000024400000000000003F4000000000008050400000000000"
    "40584000000000000060400000000000E063400000000000C067400000000000003140000000000000454000000000"
    "004052400000000000005A400000000000206040000000000020634000000000004066400000000000606940000000"
    "00000000400000000000002A400000000000003540000000000000404000000000008045400000000000004B400000"
    "000000C0504000000000000054400000000000003440000000000080464000000000008051400000000000C0574000"
    "00000000C05E40000000000040634000000000008066400000000000C06940",
    "0.0,20.0,45.0,85.0,154.0,190.0,210.0",
    "0.026525198938992044,0.3209549071618037,0.5013262599469496,1.0",
    "0.026525198938992044,0.29442970822281167,0.18037135278514588,0.4986737400530504",
    "0.0,45.0,85.0,154.0,210.0"};
static const expect_t X_unionAB = {
    "0203081A08000000790100000000000000000000000000000000000000406A40000000000000524000000000004058"
    "400000000000C0594000000000000060400000000000C060400000000000E063400000000000A064400000000000C0"
    "6740000000000080684000000000000022400000000000003440000000000080404000000000000046400000000000"
    "804C400000000000805040000000000000524000000000004055400000000000003140000000000000454000000000"
    "004052400000000000005A400000000000206040000000000020634000000000004066400000000000606940000000"
    "00000000400000000000002A400000000000003540000000000000404000000000008045400000000000004B400000"
    "000000C0504000000000000054400000000000001C4000000000000040400000000000004D400000000000C0544000"
    "00000000C05B400000000000C0614000000000000065400000000000206840",
    "0.0,7.0,32.0,83.0,142.0,190.0,210.0",
    "0.11140583554376658,0.3183023872679045,0.5862068965517241,1.0",
    "0.11140583554376658,0.20689655172413793,0.26790450928381965,0.41379310344827586",
    "0.0,32.0,83.0,142.0,210.0"};
static const expect_t X_unionCA = {
    "0203081A080000007500000000000000000000000000000000000000000056400000000000804D4000000000008051"
    "4000000000000052400000000000C05440000000000040554000000000000014400000000000002040000000000000"
    "264000000000000031400000000000003F40000000000000464000000000000047400000000000804C400000000000"
    "00084000000000000022400000000000002E4000000000000035400000000000003B40000000000080404000000000"
    "00804340000000000080464000000000000000400000000000002A4000000000000035400000000000004040000000"
    "00008045400000000000004B400000000000C050400000000000005440",
    "0.0,3.0,13.0,32.0,54.0,70.0,88.0", "0.17094017094017094,0.7350427350427351,1.0,1.0",
    "0.17094017094017094,0.5641025641025641,0.26495726495726496,0.0", "0.0,13.0,32.0,54.0,88.0"};
static const char *const K4_STR = "\n"
                                  "### Quantiles DirectCompactDoublesSketch SUMMARY: \n"
                                  "   Empty                        : false\n"
                                  "   Direct, Capacity bytes       : true, 128\n"
                                  "   Estimation Mode              : true\n"
                                  "   K                            : 4\n"
                                  "   N                            : 100\n"
                                  "   Levels (Needed, Total, Valid): 4, 4, 2\n"
                                  "   Level Bit Pattern            : 1100\n"
                                  "   BaseBufferCount              : 4\n"
                                  "   Combined Buffer Capacity     : 12\n"
                                  "   Retained Items               : 12\n"
                                  "   Compact Storage Bytes        : 128\n"
                                  "   Updatable Storage Bytes      : 224\n"
                                  "   Normalized Rank Error        : 40.925%\n"
                                  "   Normalized Rank Error (PMF)  : 48.607%\n"
                                  "   Min Value                    : 0.000000e+00\n"
                                  "   Max Value                    : 1.000000e+02\n"
                                  "### END SKETCH SUMMARY\n"
                                  "";
static const char *const EMPTY_STR = "\n"
                                     "### Quantiles DirectCompactDoublesSketch SUMMARY: \n"
                                     "   Empty                        : true\n"
                                     "   Direct, Capacity bytes       : true, 8\n"
                                     "   Estimation Mode              : false\n"
                                     "   K                            : 128\n"
                                     "   N                            : 0\n"
                                     "   Levels (Needed, Total, Valid): 0, 0, 0\n"
                                     "   Level Bit Pattern            : 0\n"
                                     "   BaseBufferCount              : 0\n"
                                     "   Combined Buffer Capacity     : -3\n"
                                     "   Retained Items               : 0\n"
                                     "   Compact Storage Bytes        : 8\n"
                                     "   Updatable Storage Bytes      : 8\n"
                                     "   Normalized Rank Error        : 1.406%\n"
                                     "   Normalized Rank Error (PMF)  : 1.711%\n"
                                     "   Min Value                    :          NaN\n"
                                     "   Max Value                    :          NaN\n"
                                     "### END SKETCH SUMMARY\n"
                                     "";

/* the peer's streams: value i of n is (i * mul) % mod */
static hl_ds_quantiles_t *make(hl_arena_t *a, uint32_t k, int n, int64_t mul, int64_t mod) {
  hl_ds_quantiles_t *q = hl_ds_quantiles_new(a, k);
  for (int64_t i = 0; i < n; i++)
    CHECK(hl_ds_quantiles_update(q, (double)((i * mul) % mod)) == HL_OK);
  return q;
}

static char *hex(const hl_buf_t *b) {
  char *s = malloc(b->len * 2 + 1);
  for (size_t i = 0; i < b->len; i++)
    sprintf(s + 2 * i, "%02X", (unsigned char)b->data[i]);
  s[b->len * 2] = 0;
  return s;
}

/* the comma-separated doubles LIST (Java's Double.toString, which strtod
 * reads back exactly) against V[0..n) */
static void check_list(const char *list, const double *v, size_t n) {
  const char *p = list;
  for (size_t i = 0; i < n; i++) {
    char *end;
    double want = strtod(p, &end);
    if (want != v[i]) fprintf(stderr, "  item %zu: %.17g, want %.17g (%s)\n", i, v[i], want, list);
    CHECK(want == v[i]);
    p = *end == ',' ? end + 1 : end;
  }
  CHECK(*p == 0);
}

/* Q as the peer's show() prints it: the compact bytes, then the queries on
 * the sketch read back from them */
static void check_sketch(const hl_ds_quantiles_t *q, const expect_t *x) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_quantiles_serialize(q, &b);
  char *h = hex(&b);
  CHECK_STR(h, x->bytes);
  free(h);
  hl_arena_t *a = hl_arena_create(4096);
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_quantiles_t *w = NULL;
  CHECK(hl_ds_quantiles_deserialize((const uint8_t *)b.data, b.len, a, &w, &err) == HL_OK);
  static const double ranks[] = {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0};
  static const double splits[] = {10, 50, 90};
  static const double even[] = {0.0, 0.25, 0.5, 0.75, 1.0};
  double v[7];
  CHECK(hl_ds_quantiles_quantiles(w, ranks, 7, v, &err) == HL_OK);
  check_list(x->q, v, 7);
  CHECK(hl_ds_quantiles_cdf_pmf(w, splits, 3, true, v, &err) == HL_OK);
  check_list(x->cdf, v, 4);
  CHECK(hl_ds_quantiles_cdf_pmf(w, splits, 3, false, v, &err) == HL_OK);
  check_list(x->pmf, v, 4);
  CHECK(hl_ds_quantiles_quantiles(w, even, 5, v, &err) == HL_OK);
  check_list(x->even, v, 5);
  /* the round trip gives the same bytes */
  hl_buf_t b2;
  hl_buf_init(&b2);
  hl_ds_quantiles_serialize(w, &b2);
  CHECK(b2.len == b.len && memcmp(b2.data, b.data, b.len) == 0);
  hl_buf_fini(&b2);
  hl_arena_destroy(a);
  hl_buf_fini(&b);
}

TEST(sketches_as_java) {
  hl_arena_t *a = hl_arena_create(4096);
  check_sketch(make(a, 128, 10, 1, 1000), &X_small);
  check_sketch(make(a, 4, 100, 37, 101), &X_k4);
  check_sketch(make(a, 8, 1000, 7919, 997), &X_k8);
  hl_arena_destroy(a);
}

/* A and B through their compact bytes, as Hive's union reads them */
static hl_ds_quantiles_t *reread(hl_arena_t *a, const hl_ds_quantiles_t *q) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_quantiles_serialize(q, &b);
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_quantiles_t *w = NULL;
  CHECK(hl_ds_quantiles_deserialize((const uint8_t *)b.data, b.len, a, &w, &err) == HL_OK);
  hl_buf_fini(&b);
  return w;
}

TEST(unions_as_java) {
  hl_arena_t *a = hl_arena_create(4096);
  hl_ds_quantiles_t *A = reread(a, make(a, 8, 77, 13, 89));
  hl_ds_quantiles_t *B = reread(a, make(a, 16, 300, 31, 211));
  hl_ds_quantiles_t *C = reread(a, make(a, 8, 40, 3, 50));
  /* B (k 16, copied) then A (k 8: the union downsamples itself) */
  hl_ds_quantiles_union_t u = {16, NULL};
  CHECK(hl_ds_quantiles_union_update(&u, B, a) == HL_OK);
  CHECK(hl_ds_quantiles_union_update(&u, A, a) == HL_OK);
  check_sketch(u.gadget, &X_unionBA);
  /* A (k 8, copied) then B (downsampled into it) */
  hl_ds_quantiles_union_t u2 = {16, NULL};
  CHECK(hl_ds_quantiles_union_update(&u2, A, a) == HL_OK);
  CHECK(hl_ds_quantiles_union_update(&u2, B, a) == HL_OK);
  check_sketch(u2.gadget, &X_unionAB);
  /* C (exact: streamed into a new k 8 sketch) then A (merged) */
  hl_ds_quantiles_union_t u3 = {8, NULL};
  CHECK(hl_ds_quantiles_union_update(&u3, C, a) == HL_OK);
  CHECK(hl_ds_quantiles_union_update(&u3, A, a) == HL_OK);
  check_sketch(u3.gadget, &X_unionCA);
  hl_arena_destroy(a);
}

TEST(to_string_as_java) {
  hl_arena_t *a = hl_arena_create(4096);
  hl_buf_t b, s;
  hl_buf_init(&b);
  hl_buf_init(&s);
  hl_ds_quantiles_t *q = make(a, 4, 100, 37, 101);
  hl_ds_quantiles_serialize(q, &b);
  hl_ds_quantiles_to_string(q, b.len, &s);
  hl_buf_putc(&s, 0);
  CHECK_STR(s.data, K4_STR);
  hl_buf_reset(&b);
  hl_buf_reset(&s);
  q = hl_ds_quantiles_new(a, 128);
  hl_ds_quantiles_serialize(q, &b);
  CHECK(b.len == 8);
  hl_ds_quantiles_to_string(q, b.len, &s);
  hl_buf_putc(&s, 0);
  CHECK_STR(s.data, EMPTY_STR);
  hl_buf_fini(&b);
  hl_buf_fini(&s);
  hl_arena_destroy(a);
}

TEST(truncated_and_bad_bytes) {
  hl_arena_t *a = hl_arena_create(4096);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_quantiles_serialize(make(a, 4, 100, 37, 101), &b);
  hl_error_t err;
  hl_ds_quantiles_t *w;
  for (size_t n = 0; n < b.len; n++) { /* every prefix is refused */
    hl_err_init(&err);
    CHECK(hl_ds_quantiles_deserialize((const uint8_t *)b.data, n, a, &w, &err) == HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
  uint8_t *m = malloc(b.len);
  static const struct {
    size_t at;
    uint8_t v;
  } edits[] = {{0, 3}, {1, 2}, {2, 7}, {4, 3}, {4, 0}, {5, 0x80}};
  for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
    memcpy(m, b.data, b.len);
    m[edits[i].at] = edits[i].v;
    hl_err_init(&err);
    CHECK(hl_ds_quantiles_deserialize(m, b.len, a, &w, &err) == HL_ERROR);
    hl_err_clear(&err);
  }
  /* n = 0 without the empty flag */
  memcpy(m, b.data, b.len);
  memset(m + 8, 0, 8);
  hl_err_init(&err);
  CHECK(hl_ds_quantiles_deserialize(m, b.len, a, &w, &err) == HL_ERROR);
  hl_err_clear(&err);
  free(m);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(updatable_form) {
  /* DoublesSketch.toByteArray(false) of 1, 2, 3 at k = 128 (datasketches-
   * hive's tests read this form): 32 bytes of preamble, then the base
   * buffer's room of max(ceilingPowerOf2(3), 4) values */
  uint8_t u[64] = {2, 3, 8, 0, 128, 0, 0, 0, 3};
  double v[] = {1, 3, 1, 2, 3};
  memcpy(u + 16, &v[0], 8);
  memcpy(u + 24, &v[1], 8);
  memcpy(u + 32, &v[2], 24);
  hl_arena_t *a = hl_arena_create(4096);
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_quantiles_t *w = NULL;
  CHECK(hl_ds_quantiles_deserialize(u, sizeof u, a, &w, &err) == HL_OK);
  double r = 0.5, out = 0;
  CHECK(w && hl_ds_quantiles_quantile(w, r, &out, &err) == HL_OK);
  CHECK(out == 2.0); /* GetQuantileFromDoublesSektchUDFTest.normalCase */
  CHECK(hl_ds_quantiles_deserialize(u, 63, a, &w, &err) == HL_ERROR);
  hl_err_clear(&err);
  hl_arena_destroy(a);
}

TEST(query_errors) {
  hl_arena_t *a = hl_arena_create(4096);
  hl_ds_quantiles_t *q = make(a, 128, 4, 1, 10); /* 0, 1, 2, 3 */
  hl_error_t err;
  hl_err_init(&err);
  double out[4];
  CHECK(hl_ds_quantiles_quantile(q, 1.5, out, &err) == HL_ERROR);
  CHECK_STR(err.message, "Fraction cannot be less than zero or greater than 1.0");
  hl_err_clear(&err);
  static const double bad[] = {2, 2};
  CHECK(hl_ds_quantiles_cdf_pmf(q, bad, 2, true, out, &err) == HL_ERROR);
  CHECK_STR(err.message, "Values must be unique, monotonically increasing and not NaN");
  hl_err_clear(&err);
  /* GetCdfFromDoublesSketchUDFTest.normalCase on 1..4 */
  hl_ds_quantiles_t *p = make(a, 128, 4, 1, 10);
  static const double sp[] = {1, 3, 4};
  CHECK(hl_ds_quantiles_cdf_pmf(p, sp, 3, true, out, &err) == HL_OK);
  CHECK(out[0] == 0.25 && out[1] == 0.75 && out[2] == 1.0 && out[3] == 1.0);
  /* NaN is ignored by update */
  CHECK(hl_ds_quantiles_update(p, NAN) == HL_OK);
  CHECK(p->n == 4);
  hl_arena_destroy(a);
}

int main(void) {
  RUN(sketches_as_java);
  RUN(unions_as_java);
  RUN(to_string_as_java);
  RUN(truncated_and_bad_bytes);
  RUN(updatable_form);
  RUN(query_errors);
  return test_report();
}
