/*
 * test_ds_kll.c -- the KLL floats sketch (src/util/ds_kll.c) against
 * datasketches-java 3.1.0, the version Hive 4's ds_kll_* functions use.
 *
 * Expected values come from that library's KllFloatsSketch run on the
 * same streams (a 64-bit LCG of floats), with one change: its static
 * java.util.Random replaced by a per-sketch generator giving the same
 * SplitMix64 coin as ds_kll.c.  Without that change Java's own bytes are
 * these below the first compaction (n <= k: the exact cases) and vary from
 * run to run above it; with it every compaction, merge and query matched
 * byte for byte (FNV-1a of the bytes below, and the exact bytes of the small
 * forms).  toString texts are Java's.
 */
#include "test.h"

#include <math.h>

#include "util/ds_kll.h"
#include "util/value.h"

static uint64_t lcg;

static float next_item(void) {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((lcg >> 40) % 100000) / 7.0f;
}

static uint64_t fnv(const hl_buf_t *b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < b->len; i++) {
    h ^= (uint8_t)b->data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static void hex(const hl_buf_t *b, char *out) {
  for (size_t i = 0; i < b->len; i++)
    sprintf(out + 2 * i, "%02x", (uint8_t)b->data[i]);
  out[2 * b->len] = 0;
}

/* S's bytes read back into H (checked) */
static void reread(const hl_ds_kll_t *s, hl_arena_t *a, hl_ds_kll_t *h) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_kll_serialize(s, &b);
  hl_error_t err;
  hl_err_init(&err);
  CHECK(hl_ds_kll_deserialize((const uint8_t *)b.data, b.len, a, h, &err) == HL_OK);
  hl_err_clear(&err);
  hl_buf_fini(&b);
}

static void fill(hl_ds_kll_t *s, hl_arena_t *a, uint32_t k, uint64_t seed, int n) {
  lcg = seed;
  CHECK(hl_ds_kll_init(s, a, k) == HL_OK);
  for (int i = 0; i < n; i++)
    CHECK(hl_ds_kll_update(s, next_item()) == HL_OK);
}

/* "q0 q.1 ... q1 r=rank(5000) rank(median)" as the Java peer printed it */
static void answers(hl_ds_kll_t *s, hl_arena_t *a, const char *want) {
  hl_ds_kll_t h;
  reread(s, a, &h);
  static const double fr[] = {0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999, 1};
  float q[8];
  hl_error_t err;
  hl_err_init(&err);
  CHECK(hl_ds_kll_quantiles(&h, fr, 8, q, &err) == HL_OK);
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < 8; i++) {
    hl_format_double(&b, q[i], true);
    hl_buf_putc(&b, ' ');
  }
  hl_buf_puts(&b, "r=");
  hl_format_double(&b, hl_ds_kll_rank(&h, 5000.f), false);
  hl_buf_putc(&b, ' ');
  hl_format_double(&b, hl_ds_kll_rank(&h, q[3]), false);
  CHECK_STR(hl_buf_cstr(&b), want);
  hl_buf_fini(&b);
}

TEST(exact_forms) {
  hl_arena_t *a = hl_arena_create(0);
  static const struct {
    int n;
    const char *hex;
  } v[] = {
      {0, "02010f01c8000800"},
      {1, "02020f04c800080000406d45"},
      {2, "05010f00c80008000200000000000000c8000100c6000000b76d03450068f8450068f845b76d0345"},
      {3,
       "05010f00c80008000300000000000000c8000100c50000002509654525f95546db8ed24525f9554625096545"},
  };
  char text[256];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    hl_ds_kll_t s;
    fill(&s, a, 200, 12345 + (uint64_t)v[i].n, v[i].n);
    hl_buf_t b;
    hl_buf_init(&b);
    hl_ds_kll_serialize(&s, &b);
    hex(&b, text);
    CHECK_STR(text, v[i].hex);
    hl_buf_fini(&b);
  }
  hl_ds_kll_t s;
  fill(&s, a, 200, 12345 + 3, 3);
  answers(&s, a,
          "3664.5715 3664.5715 3664.5715 6737.857 13694.286 13694.286 13694.286 13694.286 "
          "r=0.3333333333333333 0.3333333333333333");
  fill(&s, a, 200, 12345 + 10, 10);
  answers(&s, a,
          "191.85715 6036.4287 6532.5713 7418.4287 8287.714 13605.571 13605.571 13605.571 "
          "r=0.1 0.5");
  hl_arena_destroy(a);
}

TEST(compaction_and_merge) {
  hl_arena_t *a = hl_arena_create(0);
  static const struct {
    uint32_t k;
    int n;
    size_t len;
    uint64_t fnv;
  } v[] = {
      {200, 199, 828, 0x05c9a88be3e1b615ull},   {200, 200, 832, 0x55a330a171d26de1ull},
      {200, 201, 440, 0x68a77620af776513ull},   {200, 1000, 1336, 0x1c067aa71addb042ull},
      {200, 5000, 1944, 0x4e41a08b5cdde904ull}, {200, 100000, 2392, 0x0b34796a0c16715cull},
      {8, 777, 260, 0x330c84dcd92f2ed3ull},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    hl_ds_kll_t s;
    fill(&s, a, v[i].k, v[i].k == 8 ? 99 : 12345 + (uint64_t)v[i].n, v[i].n);
    hl_buf_t b;
    hl_buf_init(&b);
    hl_ds_kll_serialize(&s, &b);
    CHECK_INT(b.len, v[i].len);
    CHECK(fnv(&b) == v[i].fnv);
    hl_buf_fini(&b);
  }
  hl_ds_kll_t s;
  fill(&s, a, 200, 12345 + 100000, 100000);
  answers(&s, a,
          "0.0 1437.4286 3551.0 7155.143 10726.571 12876.0 14285.143 14285.571 "
          "r=0.34855 0.49848");
  /* A (k 200, 1000 items), B (k 100, 3000), C (k 200, 150) from one stream */
  lcg = 7;
  hl_ds_kll_t A, B, C, ab, h, u;
  CHECK(hl_ds_kll_init(&A, a, 200) == HL_OK && hl_ds_kll_init(&B, a, 100) == HL_OK &&
        hl_ds_kll_init(&C, a, 200) == HL_OK);
  for (int i = 0; i < 1000; i++)
    hl_ds_kll_update(&A, next_item());
  for (int i = 0; i < 3000; i++)
    hl_ds_kll_update(&B, next_item());
  for (int i = 0; i < 150; i++)
    hl_ds_kll_update(&C, next_item());
  reread(&A, a, &ab);
  reread(&B, a, &h);
  CHECK(hl_ds_kll_merge(&ab, &h) == HL_OK);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_kll_serialize(&ab, &b);
  CHECK_INT(b.len, 1948);
  CHECK(fnv(&b) == 0x0efee63f2ee813c3ull);
  answers(&ab, a,
          "3.4285715 1504.7142 3629.2856 7287.4287 10802.429 12835.714 14237.143 14279.571 "
          "r=0.347 0.493");
  CHECK(hl_ds_kll_init(&u, a, 200) == HL_OK);
  reread(&C, a, &h);
  CHECK(hl_ds_kll_merge(&u, &h) == HL_OK);
  reread(&B, a, &h);
  CHECK(hl_ds_kll_merge(&u, &h) == HL_OK);
  reread(&A, a, &h);
  CHECK(hl_ds_kll_merge(&u, &h) == HL_OK);
  hl_buf_reset(&b);
  hl_ds_kll_serialize(&u, &b);
  CHECK_INT(b.len, 1908);
  CHECK(fnv(&b) == 0x6ab89a378138988eull);
  /* a copy carries the generator: it goes on exactly as the original */
  hl_ds_kll_t cp;
  CHECK(hl_ds_kll_copy(&cp, &u, a) == HL_OK);
  for (int i = 0; i < 5000; i++) {
    float f = (float)i;
    hl_ds_kll_update(&u, f);
    hl_ds_kll_update(&cp, f);
  }
  hl_buf_t b2;
  hl_buf_init(&b2);
  hl_buf_reset(&b);
  hl_ds_kll_serialize(&u, &b);
  hl_ds_kll_serialize(&cp, &b2);
  CHECK(b.len == b2.len && memcmp(b.data, b2.data, b.len) == 0);
  hl_buf_fini(&b2);
  /* the CDF at the peer's split points */
  float sp[] = {100.f, 5000.f, 10000.f};
  double cdf[4];
  bool is_null = true;
  hl_error_t err;
  hl_err_init(&err);
  reread(&ab, a, &h);
  CHECK(hl_ds_kll_pmf(&h, sp, 3, true, cdf, &is_null, &err) == HL_OK && !is_null);
  CHECK(cdf[0] == 0.005 && cdf[1] == 0.347 && cdf[2] == 0.6905 && cdf[3] == 1.0);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(to_string) {
  hl_arena_t *a = hl_arena_create(0);
  hl_ds_kll_t s, h;
  CHECK(hl_ds_kll_init(&s, a, 200) == HL_OK);
  for (int i = 1; i <= 4; i++)
    hl_ds_kll_update(&s, (float)i);
  reread(&s, a, &h);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_kll_to_string(&h, &b);
  CHECK_STR(hl_buf_cstr(&b), "\n### KLL sketch summary:\n"
                             "   K                    : 200\n"
                             "   min K                : 200\n"
                             "   M                    : 8\n"
                             "   N                    : 4\n"
                             "   Epsilon              : 1.329%\n"
                             "   Epsison PMF          : 1.652%\n"
                             "   Empty                : false\n"
                             "   Estimation Mode      : false\n"
                             "   Levels               : 1\n"
                             "   Sorted               : false\n"
                             "   Buffer Capacity Items: 200\n"
                             "   Retained Items       : 4\n"
                             "   Storage Bytes        : 48\n"
                             "   Min Value            : 1.0\n"
                             "   Max Value            : 4.0\n"
                             "### End sketch summary\n");
  CHECK(hl_ds_kll_init(&s, a, 100) == HL_OK);
  reread(&s, a, &h);
  hl_buf_reset(&b);
  hl_ds_kll_to_string(&h, &b);
  CHECK_STR(hl_buf_cstr(&b), "\n### KLL sketch summary:\n"
                             "   K                    : 100\n"
                             "   min K                : 100\n"
                             "   M                    : 8\n"
                             "   N                    : 0\n"
                             "   Epsilon              : 2.608%\n"
                             "   Epsison PMF          : 3.176%\n"
                             "   Empty                : true\n"
                             "   Estimation Mode      : false\n"
                             "   Levels               : 1\n"
                             "   Sorted               : false\n"
                             "   Buffer Capacity Items: 100\n"
                             "   Retained Items       : 0\n"
                             "   Storage Bytes        : 8\n"
                             "   Min Value            : NaN\n"
                             "   Max Value            : NaN\n"
                             "### End sketch summary\n");
  /* the merged sketch of the peer (k 200 with k 100 merged: min K 100) */
  lcg = 7;
  hl_ds_kll_t A, B;
  CHECK(hl_ds_kll_init(&A, a, 200) == HL_OK && hl_ds_kll_init(&B, a, 100) == HL_OK);
  for (int i = 0; i < 1000; i++)
    hl_ds_kll_update(&A, next_item());
  for (int i = 0; i < 3000; i++)
    hl_ds_kll_update(&B, next_item());
  CHECK(hl_ds_kll_merge(&A, &B) == HL_OK);
  reread(&A, a, &h);
  hl_buf_reset(&b);
  hl_ds_kll_to_string(&h, &b);
  CHECK(strstr(hl_buf_cstr(&b), "   min K                : 100\n"
                                "   M                    : 8\n"
                                "   N                    : 4000\n"
                                "   Epsilon              : 2.608%\n"
                                "   Epsison PMF          : 3.176%\n"
                                "   Empty                : false\n"
                                "   Estimation Mode      : true\n"
                                "   Levels               : 6\n"
                                "   Sorted               : false\n"
                                "   Buffer Capacity Items: 547\n"
                                "   Retained Items       : 474\n"
                                "   Storage Bytes        : 1948\n"
                                "   Min Value            : 3.4285715\n"
                                "   Max Value            : 14279.571\n") != NULL);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

/* Every prefix of a sketch's bytes, and the damaged copies below, are
 * refused with 22023; the whole bytes read back to the same bytes. */
static void check_bytes(const hl_ds_kll_t *s, hl_arena_t *a) {
  hl_buf_t b, b2;
  hl_buf_init(&b);
  hl_buf_init(&b2);
  hl_ds_kll_serialize(s, &b);
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_kll_t h;
  for (size_t n = 0; n < b.len; n++) {
    CHECK(hl_ds_kll_deserialize((const uint8_t *)b.data, n, a, &h, &err) == HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
  CHECK(hl_ds_kll_deserialize((const uint8_t *)b.data, b.len, a, &h, &err) == HL_OK);
  hl_ds_kll_serialize(&h, &b2);
  CHECK(b.len == b2.len && memcmp(b.data, b2.data, b.len) == 0);
  /* one byte more */
  hl_buf_putc(&b, 0);
  CHECK(hl_ds_kll_deserialize((const uint8_t *)b.data, b.len, a, &h, &err) == HL_ERROR);
  hl_err_clear(&err);
  hl_buf_fini(&b);
  hl_buf_fini(&b2);
}

TEST(bad_bytes) {
  hl_arena_t *a = hl_arena_create(0);
  hl_ds_kll_t s, h;
  for (int n = 0; n <= 3; n++) {
    fill(&s, a, 200, 1, n);
    check_bytes(&s, a);
  }
  fill(&s, a, 20, 1, 300); /* several levels */
  check_bytes(&s, a);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_kll_serialize(&s, &b);
  hl_error_t err;
  hl_err_init(&err);
  static const struct {
    size_t at;
    uint8_t v;
  } bad[] = {{0, 2}, {1, 3}, {2, 16}, {3, 1},   {4, 7},  {5, 1},     {6, 9},
             {8, 0}, {9, 9}, {18, 0}, {18, 40}, {16, 7}, {20, 0xff}, {23, 0x80}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t *c = malloc(b.len);
    memcpy(c, b.data, b.len);
    c[bad[i].at] = bad[i].v;
    if (bad[i].at == 4) c[5] = 0;
    CHECK(hl_ds_kll_deserialize(c, b.len, a, &h, &err) == HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
    free(c);
  }
  /* an upper level out of order, and a NaN item */
  size_t items = b.len - 4 * (s.levels[s.num_levels] - s.levels[1]);
  uint8_t *c = malloc(b.len);
  memcpy(c, b.data, b.len);
  memcpy(c + items, c + b.len - 4, 4);
  CHECK(hl_ds_kll_deserialize(c, b.len, a, &h, &err) == HL_ERROR);
  hl_err_clear(&err);
  memcpy(c, b.data, b.len);
  memcpy(c + b.len - 4, "\x00\x00\xc0\x7f", 4);
  CHECK(hl_ds_kll_deserialize(c, b.len, a, &h, &err) == HL_ERROR);
  hl_err_clear(&err);
  free(c);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(queries) {
  hl_arena_t *a = hl_arena_create(0);
  hl_ds_kll_t s;
  CHECK(hl_ds_kll_init(&s, a, 200) == HL_OK);
  hl_error_t err;
  hl_err_init(&err);
  double fr = 0.5;
  float q = 0;
  bool is_null = false;
  double pmf[3];
  /* empty: NaN quantile and rank, a null PMF */
  CHECK(hl_ds_kll_quantiles(&s, &fr, 1, &q, &err) == HL_OK && isnan(q));
  CHECK(isnan(hl_ds_kll_rank(&s, 1.f)));
  float sp[] = {1.f, 2.f};
  CHECK(hl_ds_kll_pmf(&s, sp, 2, false, pmf, &is_null, &err) == HL_OK && is_null);
  /* 1..10 and NaN (ignored) */
  for (int i = 1; i <= 10; i++)
    hl_ds_kll_update(&s, (float)i);
  hl_ds_kll_update(&s, NAN);
  CHECK_INT(s.n, 10);
  CHECK(hl_ds_kll_rank(&s, 3.f) == 0.2);
  CHECK(hl_ds_kll_pmf(&s, sp, 2, false, pmf, &is_null, &err) == HL_OK && !is_null);
  CHECK(pmf[0] == 0.0 && pmf[1] == 0.1 && pmf[2] == 0.9);
  float bad_sp[] = {2.f, 2.f};
  CHECK(hl_ds_kll_pmf(&s, bad_sp, 2, true, pmf, &is_null, &err) == HL_ERROR);
  CHECK_STR(err.message, "Values must be unique and monotonically increasing");
  hl_err_clear(&err);
  float inf_sp[] = {INFINITY};
  CHECK(hl_ds_kll_pmf(&s, inf_sp, 1, true, pmf, &is_null, &err) == HL_ERROR);
  CHECK_STR(err.message, "Values must be finite");
  hl_err_clear(&err);
  double frs[] = {0.0, 0.5, 1.0, 0.05, 0.999};
  float qs[5];
  CHECK(hl_ds_kll_quantiles(&s, frs, 5, qs, &err) == HL_OK);
  CHECK(qs[0] == 1.f && qs[1] == 6.f && qs[2] == 10.f && qs[3] == 1.f && qs[4] == 10.f);
  fr = 1.5;
  CHECK(hl_ds_kll_quantiles(&s, &fr, 1, &q, &err) == HL_ERROR);
  CHECK_STR(err.message, "Fraction cannot be less than zero or greater than 1.0");
  hl_err_clear(&err);
  CHECK(hl_ds_kll_check_k(7, &err) == HL_ERROR);
  CHECK_STR(err.message, "K must be >= 8 and <= 65535: 7");
  hl_err_clear(&err);
  CHECK(hl_ds_kll_check_k(65535, &err) == HL_OK);
  hl_arena_destroy(a);
}

int main(void) {
  RUN(exact_forms);
  RUN(compaction_and_merge);
  RUN(to_string);
  RUN(bad_bytes);
  RUN(queries);
  return test_report();
}
