/*
 * test_ds_hll.c -- the DataSketches HLL sketch (src/util/ds_hll.c,
 * ds_hll_ser.c).  Expected values: Hive's sketches_hll.q.out (10 and 15
 * distinct ints), and datasketches-cpp (binary compatible with Java; run
 * once on the same items to get these estimates, bounds and bytes).  cpp
 * sets the compact flag (byte 5, bit 8) on HLL_6 / HLL_8 sketches, which
 * Java's toCompactByteArray does not (HllArray: "indistinguishable for
 * HLL6 and HLL8"), so those are compared with that bit set.
 */
#include "test.h"

#include "util/ds_hll.h"
#include "util/murmur3.h"

static void fill(hl_ds_hll_t *s, long a, long b) {
  for (long i = a; i < b; i++) {
    uint64_t h[2];
    hl_ds_hash_long(i, HL_DS_SEED, h);
    CHECK(hl_ds_hll_update(s, hl_ds_hll_coupon(h)) == HL_OK);
  }
}

static void ser(const hl_ds_hll_t *s, hl_buf_t *b) {
  hl_buf_init(b);
  hl_ds_hll_serialize(s, b);
  CHECK(!b->oom);
}

static void hexof(const hl_buf_t *b, char *out) {
  for (size_t i = 0; i < b->len; i++)
    sprintf(out + 2 * i, "%02x", (uint8_t)b->data[i]);
}

static uint64_t fnv(const hl_buf_t *b, bool set_compact) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < b->len; i++) {
    uint8_t x = (uint8_t)b->data[i];
    if (i == 5 && set_compact) x |= 8;
    h = (h ^ x) * 0x100000001b3ull;
  }
  return h;
}

/* Hive's ds_hll_sketch result: a union of the sketch, getResult(type). */
static void via_union(hl_arena_t *ar, const hl_ds_hll_t *s, int lgk, int type, hl_ds_hll_t *out) {
  hl_ds_hll_t g;
  hl_ds_hll_union_init(&g, ar, lgk);
  CHECK(hl_ds_hll_union_update(&g, lgk, s) == HL_OK);
  CHECK(hl_ds_hll_union_result(&g, type, out) == HL_OK);
}

TEST(hive_qout) {
  hl_arena_t *ar = hl_arena_create(0);
  hl_ds_hll_t a, b, r, g;
  hl_ds_hll_init(&a, ar, 12, HL_DS_HLL_4);
  hl_ds_hll_init(&b, ar, 12, HL_DS_HLL_4);
  fill(&a, 1, 11);
  fill(&b, 6, 16);
  via_union(ar, &a, 12, HL_DS_HLL_4, &r);
  CHECK(hl_ds_hll_estimate(&r) == 10.000000223517425);
  CHECK(hl_ds_hll_upper_bound(&r, 1) == 10.000499516034767);
  CHECK(hl_ds_hll_lower_bound(&r, 3) == 10);
  hl_ds_hll_union_init(&g, ar, 12);
  CHECK(hl_ds_hll_union_update(&g, 12, &a) == HL_OK);
  CHECK(hl_ds_hll_union_update(&g, 12, &b) == HL_OK);
  CHECK(hl_ds_hll_union_result(&g, HL_DS_HLL_4, &r) == HL_OK);
  CHECK(hl_ds_hll_estimate(&r) == 15.000000521540663);
  CHECK(hl_ds_hll_upper_bound(&r, 2) == 15.001498473902926);
  hl_buf_t buf;
  char hex[512];
  ser(&r, &buf);
  hexof(&buf, hex);
  CHECK_STR(hex,
            "0301070c050800010f00000081bc5d067c74b907862ff90ddb522d042bf2fb06ae3c8811b05b4612d2"
            "16730734a2610e75816607f671f206464ab7047b65e608fc2d420ac1e91705");
  hl_buf_fini(&buf);
  hl_arena_destroy(ar);
}

TEST(modes_and_types) {
  hl_arena_t *ar = hl_arena_create(0);
  hl_ds_hll_t s, r;
  hl_buf_t buf;
  char hex[512];
  hl_ds_hll_init(&s, ar, 12, HL_DS_HLL_4); /* SET */
  fill(&s, 0, 10);
  ser(&s, &buf);
  hexof(&buf, hex);
  CHECK_STR(hex,
            "0301070c050800010a00000081bc5d06862ff90dcbd7c204c1e91705d216730734a2610e75816607fc"
            "2d420a7b65e6082bf2fb06");
  hl_buf_fini(&buf);
  /* lgK 7: a full LIST goes to HLL mode at once, HIP from the coupon count */
  hl_ds_hll_init(&s, ar, 7, HL_DS_HLL_4);
  fill(&s, 0, 8);
  CHECK(s.mode == HL_DS_HLL_MODE_HLL);
  CHECK(hl_ds_hll_estimate(&s) == 8.0000001390775086);
  CHECK(hl_ds_hll_composite_estimate(&s) == 8.227687070179627);
  CHECK(hl_ds_hll_upper_bound(&s, 3) == 9.9811289406935941);
  ser(&s, &buf);
  CHECK(buf.len == 104 && fnv(&buf, false) == 0x8fffc802da0146fcull);
  hl_buf_fini(&buf);
  /* lgK 8: the SET's last size holds 24 */
  hl_ds_hll_init(&s, ar, 8, HL_DS_HLL_4);
  fill(&s, 0, 24);
  CHECK(s.mode == HL_DS_HLL_SET);
  fill(&s, 24, 25);
  CHECK(s.mode == HL_DS_HLL_MODE_HLL);
  CHECK(hl_ds_hll_estimate(&s) == 25.000001490116226);
  CHECK(hl_ds_hll_composite_estimate(&s) == 25.149005334736103);
  /* HLL mode, every type: the same estimates, each type's bytes */
  static const struct {
    int type;
    size_t len;
    uint64_t fnv;
  } t[] = {{HL_DS_HLL_4, 2088, 0xac600c5e2bfc9f01ull},
           {HL_DS_HLL_6, 3113, 0x79ec8c77fb865167ull},
           {HL_DS_HLL_8, 4136, 0xd72c7dc9c4976c92ull}};
  for (int i = 0; i < 3; i++) {
    hl_ds_hll_init(&s, ar, 12, t[i].type);
    fill(&s, 0, 5000);
    CHECK(hl_ds_hll_estimate(&s) == 4944.3014159324703);
    CHECK(hl_ds_hll_composite_estimate(&s) == 4985.7523940698766);
    CHECK(hl_ds_hll_lower_bound(&s, 1) == 4881.1575272274031);
    CHECK(hl_ds_hll_upper_bound(&s, 2) == 5074.0598043856244);
    CHECK(hl_ds_hll_lower_bound(&s, 3) == 4756.9369390855009);
    ser(&s, &buf);
    CHECK(buf.len == t[i].len && fnv(&buf, t[i].type != HL_DS_HLL_4) == t[i].fnv);
    hl_buf_fini(&buf);
    /* through a union (what Hive returns): same estimate */
    via_union(ar, &s, 12, t[i].type, &r);
    CHECK(hl_ds_hll_estimate(&r) == 4944.3014159324703);
  }
  /* HLL_4 with an aux exception */
  hl_ds_hll_init(&s, ar, 12, HL_DS_HLL_4);
  fill(&s, 0, 100000);
  ser(&s, &buf);
  CHECK(buf.len == 2092 && fnv(&buf, false) == 0x640f2ca50698b49bull);
  CHECK(buf.data[36] == 1); /* aux count */
  hl_buf_fini(&buf);
  /* lgK 4..21 estimators: lgK 4 HLL_8 far past k */
  hl_ds_hll_init(&s, ar, 4, HL_DS_HLL_8);
  fill(&s, 0, 200000);
  CHECK(hl_ds_hll_estimate(&s) == 227973.66156907682);
  CHECK(hl_ds_hll_composite_estimate(&s) == 195545.80751601196);
  CHECK(hl_ds_hll_upper_bound(&s, 3) == 434678.58267671283);
  hl_arena_destroy(ar);
}

TEST(unions) {
  hl_arena_t *ar = hl_arena_create(0);
  hl_ds_hll_t a, b, g, r;
  /* two HLL sketches: out of order, the composite estimate */
  hl_ds_hll_init(&a, ar, 12, HL_DS_HLL_4);
  hl_ds_hll_init(&b, ar, 12, HL_DS_HLL_4);
  fill(&a, 0, 50000);
  fill(&b, 20000, 90000);
  hl_ds_hll_union_init(&g, ar, 12);
  CHECK(hl_ds_hll_union_update(&g, 12, &a) == HL_OK);
  CHECK(hl_ds_hll_union_update(&g, 12, &b) == HL_OK);
  CHECK(hl_ds_hll_union_result(&g, HL_DS_HLL_4, &r) == HL_OK);
  CHECK(r.ooo);
  CHECK(hl_ds_hll_estimate(&r) == 92148.412564589249);
  CHECK(hl_ds_hll_lower_bound(&r, 2) == 89219.71138926415);
  /* a LIST into a union of lgK 12, then an lgK 14 HLL sketch: down-sized */
  hl_ds_hll_init(&a, ar, 12, HL_DS_HLL_4);
  hl_ds_hll_init(&b, ar, 14, HL_DS_HLL_4);
  fill(&a, 0, 5);
  fill(&b, 10, 50000);
  hl_ds_hll_union_init(&g, ar, 12);
  CHECK(hl_ds_hll_union_update(&g, 12, &a) == HL_OK);
  CHECK(hl_ds_hll_union_update(&g, 12, &b) == HL_OK);
  CHECK(hl_ds_hll_union_result(&g, HL_DS_HLL_4, &r) == HL_OK);
  CHECK(r.lgk == 12);
  CHECK(hl_ds_hll_estimate(&r) == 50338.28576454673);
  CHECK(hl_ds_hll_upper_bound(&r, 2) == 51659.365182814778);
  /* an lgK 10 sketch shrinks an lgK 12 gadget in HLL mode */
  hl_ds_hll_init(&a, ar, 12, HL_DS_HLL_8);
  hl_ds_hll_init(&b, ar, 10, HL_DS_HLL_8);
  fill(&a, 0, 50000);
  fill(&b, 20000, 90000);
  hl_ds_hll_union_init(&g, ar, 12);
  CHECK(hl_ds_hll_union_update(&g, 12, &a) == HL_OK);
  CHECK(hl_ds_hll_union_update(&g, 12, &b) == HL_OK);
  CHECK(hl_ds_hll_union_result(&g, HL_DS_HLL_8, &r) == HL_OK);
  CHECK(r.lgk == 10 && r.ooo && r.hip == 0);
  hl_arena_destroy(ar);
}

/* Every sketch read back gives its estimate and bytes; every truncated
 * prefix is refused. */
TEST(round_trip) {
  hl_arena_t *ar = hl_arena_create(0);
  static const struct {
    int lgk, type;
    long n;
  } c[] = {{12, 0, 0},    {12, 0, 5},      {12, 2, 100},  {8, 1, 24},   {7, 0, 8},
           {12, 0, 5000}, {12, 1, 5000},   {12, 2, 5000}, {12, 0, 1e5}, {5, 0, 300},
           {4, 2, 1000},  {14, 0, 200000}, {21, 1, 10}};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    hl_ds_hll_t s, r, q;
    hl_ds_hll_init(&s, ar, c[i].lgk, c[i].type);
    fill(&s, 0, c[i].n);
    hl_buf_t a, b;
    ser(&s, &a);
    hl_error_t err;
    hl_err_init(&err);
    CHECK(hl_ds_hll_deserialize((const uint8_t *)a.data, a.len, ar, &r, &err) == HL_OK);
    CHECK(hl_ds_hll_estimate(&r) == hl_ds_hll_estimate(&s));
    CHECK(hl_ds_hll_upper_bound(&r, 2) == hl_ds_hll_upper_bound(&s, 2));
    for (size_t n = 0; n < a.len; n++) {
      hl_err_clear(&err);
      CHECK(hl_ds_hll_deserialize((const uint8_t *)a.data, n, ar, &q, &err) == HL_ERROR);
      CHECK_STR(err.sqlstate, "22023");
    }
    hl_err_clear(&err);
    /* the spill form: every field back */
    hl_buf_init(&b);
    hl_ds_hll_save(&s, &b);
    size_t used = 0;
    CHECK(hl_ds_hll_load((const uint8_t *)b.data, b.len, &used, ar, &q));
    CHECK(used == b.len);
    for (size_t n = 0; n < b.len; n += 7)
      CHECK(!hl_ds_hll_load((const uint8_t *)b.data, n, &used, ar, &r));
    fill(&q, c[i].n, c[i].n + 3000);
    fill(&s, c[i].n, c[i].n + 3000);
    CHECK(hl_ds_hll_estimate(&q) == hl_ds_hll_estimate(&s));
    hl_buf_fini(&a);
    hl_buf_fini(&b);
  }
  hl_arena_destroy(ar);
}

TEST(bad_bytes) {
  hl_arena_t *ar = hl_arena_create(0);
  hl_ds_hll_t s;
  hl_error_t err;
  static const uint8_t dup[] = {2, 1, 7, 12, 3, 8, 2, 0, 1, 0, 0, 4, 1, 0, 0, 4};
  static const uint8_t zero_val[] = {2, 1, 7, 12, 3, 8, 1, 0, 5, 0, 0, 0};
  static const uint8_t fam[] = {2, 1, 3, 12, 3, 12, 0, 0};
  static const uint8_t lgk[] = {2, 1, 7, 22, 3, 12, 0, 0};
  static const uint8_t pre[] = {3, 1, 7, 12, 3, 12, 0, 0, 0, 0, 0, 0};
  const struct {
    const uint8_t *p;
    size_t n;
  } bad[] = {{dup, sizeof dup}, {zero_val, sizeof zero_val}, {fam, 8}, {lgk, 8}, {pre, 12}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hl_err_init(&err);
    CHECK(hl_ds_hll_deserialize(bad[i].p, bad[i].n, ar, &s, &err) == HL_ERROR);
    hl_err_clear(&err);
  }
  hl_arena_destroy(ar);
}

TEST(to_string) {
  hl_arena_t *ar = hl_arena_create(0);
  hl_ds_hll_t s;
  hl_ds_hll_init(&s, ar, 12, HL_DS_HLL_4);
  fill(&s, 0, 10);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_ds_hll_to_string(&s, &b);
  CHECK_STR(hl_buf_cstr(&b), "### HLL SKETCH SUMMARY: \n"
                             "  Log Config K   : 12\n"
                             "  Hll Target     : HLL_4\n"
                             "  Current Mode   : SET\n"
                             "  Memory         : true\n"
                             "  LB             : 10.0\n"
                             "  Estimate       : 10.000000223517425\n"
                             "  UB             : 10.000499516034767\n"
                             "  OutOfOrder Flag: false\n"
                             "  Coupon Count   : 10\n");
  hl_buf_fini(&b);
  hl_arena_destroy(ar);
}

int main(void) {
  RUN(hive_qout);
  RUN(modes_and_types);
  RUN(unions);
  RUN(round_trip);
  RUN(bad_bytes);
  RUN(to_string);
  return test_report();
}
