/*
 * test_ds_theta.c -- the DataSketches Theta sketch (src/util/ds_theta.c)
 * against datasketches-java 3.1.0 (run once to get these bytes): the
 * union's result in exact and estimation mode and with sampling, the
 * serialized forms Java writes and the ones it reads (an UpdateSketch
 * image, serial versions 1 and 2), every truncated prefix refused, the
 * intersection's and A not B's theta and empty rules, and exact estimates.
 */
#include "test.h"

#include <string.h>

#include "util/ds_theta.h"
#include "util/murmur3.h"

/* the ordered compact sketch of update(1L), update(2L), update(3L) */
static const char c3_hex[] =
    "02030300001ACC93030000000000803F15F97DCBBD86A105C397FC1281709D1EBA40B3C1DA06695D";
/* k = 16 over 1..100: 16 hashes, theta the 17th */
static const char s16_hex[] =
    "03030300001ACC93100000000000803F6A918B0B0BE72C0F0A22DBB71C875F01FB38798913248F010F5D1190DC88B1"
    "03E8A7BD68FE0B8604E2DACF9FCDEABE04ED0B4D6D52BA060515F97DCBBD86A105F7CE79D2837FC9056AA9CADE240A"
    "ED0563319A572B2DE60740DE2EE1C9DB3D08698BB991B8685708B21E8B1C4525480B614ECD35427F6F0BB26F456017"
    "10360C83B932CCF95B7F0D";
/* UpdateSketch.builder().setNominalEntries(16) of 1, 2, 3: toByteArray() */
static const char qs3_hex[] =
    "C30302040500CC93030000000000803FFFFFFFFFFFFFFF7F0000000000000000000000000000000000000000000000"
    "00C397FC1281709D1E0000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000015F97DCBBD86A1050000000000000000000000000000000000000000000000000000000000000000BA40B3"
    "C1DA06695D00000000000000000000000000000000000000000000000000000000000000000000000000000000";
/* BackwardConversions of c3 to serial versions 1 and 2 */
static const char v1_hex[] = "03010300000002000300000000000000FFFFFFFFFFFFFF7F15F97DCBBD86A105C397F"
                             "C1281709D1EBA40B3C1DA06695D";
static const char v2_hex[] =
    "02020300000ACC93030000000000000015F97DCBBD86A105C397FC1281709D1EBA40B3C1DA06695D";

static size_t unhex(const char *h, uint8_t *out) {
  size_t n = strlen(h) / 2;
  for (size_t i = 0; i < n; i++) {
    unsigned v = 0;
    for (int j = 0; j < 2; j++) {
      char c = h[2 * i + (size_t)j];
      v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'A' + 10);
    }
    out[i] = (uint8_t)v;
  }
  return n;
}

static uint64_t hash_long(int64_t v) {
  uint64_t h[2];
  hl_ds_hash_long(v, HL_DS_SEED, h);
  return h[0] >> 1;
}

/* The union of K, P over FIRST..FIRST+N-1, serialized into OUT. */
static size_t union_of(int64_t k, float p, int64_t first, int64_t n, uint8_t *out, double *est) {
  hl_arena_t *a = hl_arena_create(4096);
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_theta_union_t u;
  CHECK(hl_ds_theta_union_init(&u, k, p, HL_DS_SEED, a, &err) == HL_OK);
  for (int64_t i = 0; i < n; i++)
    CHECK(hl_ds_theta_union_update(&u, hash_long(first + i), a, &err) == HL_OK);
  uint64_t *buf = hl_arena_alloc(a, sizeof(uint64_t) * (u.g.count + 1));
  hl_ds_theta_compact_t c;
  hl_ds_theta_union_result(&u, buf, &c);
  size_t len = hl_ds_theta_size(&c);
  hl_ds_theta_write(&c, out);
  *est = hl_ds_theta_estimate(&c);
  hl_arena_destroy(a);
  return len;
}

TEST(seed_hash) {
  uint16_t sh = 0;
  hl_error_t err;
  hl_err_init(&err);
  CHECK(hl_ds_theta_seed_hash(HL_DS_SEED, &sh, &err) == HL_OK);
  CHECK_INT(sh, 0x93cc);
  CHECK(hl_ds_theta_seed_hash(12345, &sh, &err) == HL_OK);
  CHECK_INT(sh, 0x2997);
}

TEST(union_bytes) {
  uint8_t got[4096], want[4096];
  double est = 0;
  size_t n = union_of(4096, 1.0f, 1, 3, got, &est);
  CHECK(n == unhex(c3_hex, want) && memcmp(got, want, n) == 0);
  CHECK(est == 3.0);
  n = union_of(16, 1.0f, 1, 100, got, &est);
  CHECK(n == unhex(s16_hex, want) && memcmp(got, want, n) == 0);
  CHECK(est == 134.95525263300638);
  /* p = 0.01: theta starts at 0.01, none of three hashes below it: 3 longs, no hash */
  static const uint8_t sampled[24] = {3, 3,    3,    0, 0, 0x1a, 0xcc, 0x93, 0,    0,    0,   0, 0,
                                      0, 0x80, 0x3f, 0, 0, 0,    0,    0x14, 0xae, 0x47, 0x01};
  n = union_of(32, 0.01f, 1, 100, got, &est);
  CHECK(n == 24 && memcmp(got, sampled, 24) == 0 && est == 0.0);
  /* nothing: the empty sketch; one item: 16 bytes */
  static const uint8_t empty[8] = {1, 3, 3, 0, 0, 0x1e, 0, 0};
  n = union_of(4096, 1.0f, 1, 0, got, &est);
  CHECK(n == 8 && memcmp(got, empty, 8) == 0 && est == 0.0);
  n = union_of(4096, 1.0f, -7, 1, got, &est);
  CHECK(n == 16 && got[0] == 1 && got[5] == 0x3a && est == 1.0);
}

TEST(parameters) {
  hl_arena_t *a = hl_arena_create(4096);
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_theta_union_t u;
  CHECK(hl_ds_theta_union_init(&u, 8, 1.0f, HL_DS_SEED, a, &err) == HL_ERROR);
  CHECK_STR(err.message, "Nominal Entries must be >= 16 and <= 67108864: 8");
  hl_err_clear(&err);
  CHECK(hl_ds_theta_union_init(&u, 1 << 27, 1.0f, HL_DS_SEED, a, &err) == HL_ERROR);
  hl_err_clear(&err);
  CHECK(hl_ds_theta_union_init(&u, 16, 1.5f, HL_DS_SEED, a, &err) == HL_ERROR);
  CHECK_STR(err.message, "p must be > 0 and <= 1.0: 1.5");
  hl_err_clear(&err);
  CHECK(hl_ds_theta_union_init(&u, 17, 1.0f, HL_DS_SEED, a, &err) == HL_OK);
  CHECK_INT(u.g.lg_nom, 5);
  hl_arena_destroy(a);
}

/* Every form Java writes or reads gives c3 through a union, and every
 * shorter prefix of it is refused in both modes. */
TEST(read_forms) {
  const char *forms[] = {c3_hex, qs3_hex, v1_hex, v2_hex, s16_hex};
  for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
    uint8_t b[4096], out[4096], want[4096];
    size_t n = unhex(forms[f], b);
    hl_error_t err;
    hl_err_init(&err);
    hl_ds_theta_view_t v;
    CHECK(hl_ds_theta_read(b, n, HL_DS_SEED, HL_DS_THETA_WRAP, &v, &err) == HL_OK);
    CHECK(hl_ds_theta_view_estimate(&v) == (f == 4 ? 134.95525263300638 : 3.0));
    for (size_t cut = 0; cut < n; cut++) {
      CHECK(hl_ds_theta_read(b, cut, HL_DS_SEED, HL_DS_THETA_WRAP, &v, &err) != HL_OK);
      hl_err_clear(&err);
      CHECK(hl_ds_theta_read(b, cut, HL_DS_SEED, HL_DS_THETA_UNION, &v, &err) != HL_OK);
      hl_err_clear(&err);
    }
    hl_arena_t *a = hl_arena_create(4096);
    hl_ds_theta_union_t u;
    CHECK(hl_ds_theta_union_init(&u, 4096, 1.0f, HL_DS_SEED, a, &err) == HL_OK);
    CHECK(hl_ds_theta_read(b, n, HL_DS_SEED, HL_DS_THETA_UNION, &v, &err) == HL_OK);
    CHECK(hl_ds_theta_union_view(&u, &v, a, &err) == HL_OK);
    uint64_t *buf = hl_arena_alloc(a, sizeof(uint64_t) * (u.g.count + 1));
    hl_ds_theta_compact_t c;
    hl_ds_theta_union_result(&u, buf, &c);
    hl_ds_theta_write(&c, out);
    size_t wn = unhex(forms[f] == s16_hex ? s16_hex : c3_hex, want);
    CHECK(hl_ds_theta_size(&c) == wn && memcmp(out, want, wn) == 0);
    /* another seed: refused (serial version 1 has no seed hash, and Java reads it as any) */
    CHECK(hl_ds_theta_read(b, n, 12345, HL_DS_THETA_WRAP, &v, &err) == (f == 2 ? HL_OK : HL_ERROR));
    hl_err_clear(&err);
    hl_arena_destroy(a);
  }
}

TEST(set_rules) {
  uint8_t a3[64], b2[64], out[64], e[8] = {1, 3, 3, 0, 0, 0x1e, 0, 0};
  double est;
  size_t na = union_of(4096, 1.0f, 1, 3, a3, &est); /* {1, 2, 3} */
  size_t nb = union_of(4096, 1.0f, 3, 2, b2, &est); /* {3, 4} */
  hl_error_t err;
  hl_err_init(&err);
  hl_ds_theta_view_t va, vb, ve;
  CHECK(hl_ds_theta_read(a3, na, HL_DS_SEED, HL_DS_THETA_WRAP, &va, &err) == HL_OK);
  CHECK(hl_ds_theta_read(b2, nb, HL_DS_SEED, HL_DS_THETA_WRAP, &vb, &err) == HL_OK);
  CHECK(hl_ds_theta_read(e, 8, HL_DS_SEED, HL_DS_THETA_WRAP, &ve, &err) == HL_OK && ve.empty);
  uint64_t buf[8];
  hl_ds_theta_compact_t c;
  CHECK(hl_ds_theta_a_not_b(&va, &vb, 0x93cc, buf, &c, &err) == HL_OK);
  CHECK(c.count == 2 && hl_ds_theta_estimate(&c) == 2.0);
  CHECK(hl_ds_theta_a_not_b(&va, &va, 0x93cc, buf, &c, &err) == HL_OK);
  CHECK(hl_ds_theta_size(&c) == 8); /* nothing left at theta 1: empty */
  CHECK(hl_ds_theta_a_not_b(&ve, &va, 0x93cc, buf, &c, &err) == HL_OK && c.empty);
  hl_arena_t *ar = hl_arena_create(4096);
  hl_ds_theta_inter_t x;
  CHECK(hl_ds_theta_inter_init(&x, HL_DS_SEED, &err) == HL_OK);
  CHECK(hl_ds_theta_inter_result(&x, &c, &err) == HL_ERROR); /* the infinite set */
  hl_err_clear(&err);
  CHECK(hl_ds_theta_inter_add(&x, &va, ar, &err) == HL_OK);
  CHECK(hl_ds_theta_inter_add(&x, &vb, ar, &err) == HL_OK);
  CHECK(hl_ds_theta_inter_result(&x, &c, &err) == HL_OK);
  CHECK(c.count == 1 && c.hashes[0] == hash_long(3) && hl_ds_theta_size(&c) == 16);
  CHECK(hl_ds_theta_inter_add(&x, &ve, ar, &err) == HL_OK); /* the empty rule */
  CHECK(hl_ds_theta_inter_add(&x, &va, ar, &err) == HL_OK);
  CHECK(hl_ds_theta_inter_result(&x, &c, &err) == HL_OK && c.empty);
  hl_ds_theta_write(&c, out);
  CHECK(memcmp(out, e, 8) == 0);
  hl_arena_destroy(ar);
}

int main(void) {
  RUN(seed_hash);
  RUN(union_bytes);
  RUN(parameters);
  RUN(read_forms);
  RUN(set_rules);
  return test_report();
}
