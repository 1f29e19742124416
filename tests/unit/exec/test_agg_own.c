/*
 * test_agg_own.c -- the states that are structures of their own as bytes
 * (src/exec/op_agg_own.c): what is read back merges exactly as the state
 * it was written from (a histogram's tie draws, a HyperLogLog's Hive
 * bytes after a merge), and every cut or damaged byte string is XX001.
 */
#include "test.h"

#include "exec/op_agg_int.h"
#include "util/hive_hll.h"

/* Whether bytes B[0..n) load as AG's state (ERR's SQLSTATE otherwise). */
static hl_status_t load(const hl_agg_t *ag, const hl_buf_t *b, size_t n, hl_arena_t *arena,
                        agg_state_t *st, char *state) {
  hl_error_t err;
  hl_err_init(&err);
  memset(st, 0, sizeof *st);
  hl_status_t rc = hl_agg_own_load(ag, (const uint8_t *)b->data, n, arena, st, &err);
  strcpy(state, rc == HL_OK ? "" : err.sqlstate);
  hl_err_clear(&err);
  return rc;
}

/* Every proper prefix of B is damaged: XX001, nothing else. */
static void every_cut_is_corrupt(const hl_agg_t *ag, const hl_buf_t *b, hl_arena_t *arena) {
  agg_state_t st;
  char state[6];
  int bad = 0;
  for (size_t n = 0; n < b->len; n++)
    if (load(ag, b, n, arena, &st, state) != HL_CORRUPT || strcmp(state, "XX001") != 0) bad++;
  CHECK(bad == 0);
}

TEST(histogram_ties_after_a_reload) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  agg_t a;
  memset(&a, 0, sizeof a);
  a.arena = arena;
  hl_agg_t ag;
  memset(&ag, 0, sizeof ag);
  ag.kind = HL_AGG_HISTOGRAM;
  ag.ip[0] = 3;
  /* two units' states of evenly spaced values: merging them trims with
   * ties, drawn from the target's java.util.Random */
  agg_state_t u1, u2;
  memset(&u1, 0, sizeof u1);
  memset(&u2, 0, sizeof u2);
  for (int i = 0; i < 9; i++) {
    CHECK(hl_agg_hist_add(&a, &ag, &u1, (double)(2 * i), &err) == HL_OK);
    CHECK(hl_agg_hist_add(&a, &ag, &u2, (double)(2 * i + 1), &err) == HL_OK);
  }
  hl_buf_t b1, b2;
  hl_buf_init(&b1);
  hl_buf_init(&b2);
  hl_agg_own_save(&ag, &u1, &b1);
  hl_agg_own_save(&ag, &u2, &b2);
  agg_state_t r1, r2;
  char state[6];
  CHECK(load(&ag, &b1, b1.len, arena, &r1, state) == HL_OK);
  CHECK(load(&ag, &b2, b2.len, arena, &r2, state) == HL_OK);
  /* the same merges, in the same order, of the originals and the copies */
  agg_state_t m, n;
  memset(&m, 0, sizeof m);
  memset(&n, 0, sizeof n);
  for (int k = 0; k < 3; k++) {
    CHECK(hl_agg_hist_merge(&a, &m, k == 1 ? &u2 : &u1, &err) == HL_OK);
    CHECK(hl_agg_hist_merge(&a, &n, k == 1 ? &r2 : &r1, &err) == HL_OK);
  }
  hl_buf_t bm, bn;
  hl_buf_init(&bm);
  hl_buf_init(&bn);
  hl_agg_own_save(&ag, &m, &bm);
  hl_agg_own_save(&ag, &n, &bn);
  CHECK(bm.len == bn.len && memcmp(bm.data, bn.data, bm.len) == 0);
  every_cut_is_corrupt(&ag, &b1, arena);
  /* another nb than the aggregate's; bytes after the state */
  ag.ip[0] = 4;
  CHECK(load(&ag, &b1, b1.len, arena, &r1, state) == HL_CORRUPT);
  ag.ip[0] = 3;
  hl_buf_putc(&b1, 0);
  CHECK(load(&ag, &b1, b1.len, arena, &r1, state) == HL_CORRUPT);
  CHECK_STR(state, "XX001");
  hl_buf_fini(&b1);
  hl_buf_fini(&b2);
  hl_buf_fini(&bm);
  hl_buf_fini(&bn);
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

/* Hive's bytes of sketch ST (a compute_bit_vector_hll state) into OUT. */
static void hive_bytes(const agg_state_t *st, hl_buf_t *out) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_reset(out);
  CHECK(hl_hhll_serialize(st->hive_hll, out, &err) == HL_OK);
  hl_err_clear(&err);
}

TEST(hyperloglog_keeps_its_arrival_order) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_agg_t ag;
  memset(&ag, 0, sizeof ag);
  ag.kind = HL_AGG_BITVECTOR_HLL;
  for (int dense = 0; dense < 2; dense++) {
    hl_hhll_t h, into, into2;
    hl_hhll_init(&h, arena, HL_HHLL_DEFAULT_P);
    for (int i = 0; i < (dense ? 600 : 60); i++)
      CHECK(hl_hhll_add_long(&h, (int64_t)(59 - i) * 7919, &err) == HL_OK);
    CHECK(h.dense == (dense == 1));
    agg_state_t st, back;
    memset(&st, 0, sizeof st);
    st.hive_hll = &h;
    hl_buf_t b, x, y;
    hl_buf_init(&b);
    hl_buf_init(&x);
    hl_buf_init(&y);
    hl_agg_own_save(&ag, &st, &b);
    char state[6];
    CHECK(load(&ag, &b, b.len, arena, &back, state) == HL_OK);
    /* merged after the same first key, the copy gives Hive's bytes of the
     * original (the order the sparse keys first came in kept) */
    hl_hhll_init(&into, arena, HL_HHLL_DEFAULT_P);
    hl_hhll_init(&into2, arena, HL_HHLL_DEFAULT_P);
    CHECK(hl_hhll_add_long(&into, 5, &err) == HL_OK);
    CHECK(hl_hhll_add_long(&into2, 5, &err) == HL_OK);
    CHECK(hl_hhll_merge(&into, &h, &err) == HL_OK);
    CHECK(hl_hhll_merge(&into2, back.hive_hll, &err) == HL_OK);
    agg_state_t s1 = {.hive_hll = &into}, s2 = {.hive_hll = &into2};
    hive_bytes(&s1, &x);
    hive_bytes(&s2, &y);
    CHECK(x.len == y.len && memcmp(x.data, y.data, x.len) == 0);
    every_cut_is_corrupt(&ag, &b, arena);
    if (!dense) {
      /* two entries swapped (after 12 bytes: p, dense, bit packing, the
       * largest register, the count, the next arrival; 9 bytes an entry):
       * the keys no longer ascend */
      char tmp[9];
      memcpy(tmp, b.data + 12, 9);
      memcpy(b.data + 12, b.data + 21, 9);
      memcpy(b.data + 21, tmp, 9);
      CHECK(load(&ag, &b, b.len, arena, &back, state) == HL_CORRUPT);
    } else {
      b.data[12] = (char)200; /* a register no add makes */
      CHECK(load(&ag, &b, b.len, arena, &back, state) == HL_CORRUPT);
    }
    hl_buf_fini(&b);
    hl_buf_fini(&x);
    hl_buf_fini(&y);
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

TEST(ngrams_keys_are_checked) {
  hl_arena_t *arena = hl_arena_create(0);
  hl_agg_t ag;
  memset(&ag, 0, sizeof ag);
  ag.kind = HL_AGG_NGRAMS;
  ag.ip[0] = 2; /* n */
  ag.ip[1] = 1; /* k: pf * k at least 1000 */
  ag.ip[2] = 1;
  hl_buf_t b;
  hl_buf_init(&b);
  int64_t keep = 1000;
  uint32_t n = 2, n_e = 1, len = 4 + 2 + 4 + 1, wl;
  double freq = 2.0;
  hl_buf_append(&b, &keep, sizeof keep);
  hl_buf_append(&b, &n, sizeof n);
  hl_buf_append(&b, &n_e, sizeof n_e);
  hl_buf_append(&b, &freq, sizeof freq);
  hl_buf_append(&b, &len, sizeof len);
  wl = 2;
  hl_buf_append(&b, &wl, sizeof wl);
  hl_buf_append(&b, "ab", 2);
  wl = 1;
  hl_buf_append(&b, &wl, sizeof wl);
  hl_buf_append(&b, "c", 1);
  agg_state_t st;
  char state[6];
  CHECK(load(&ag, &b, b.len, arena, &st, state) == HL_OK);
  hl_buf_t again;
  hl_buf_init(&again);
  hl_agg_own_save(&ag, &st, &again);
  CHECK(again.len == b.len && memcmp(again.data, b.data, b.len) == 0);
  every_cut_is_corrupt(&ag, &b, arena);
  /* a word longer than its key; one n-gram of another n */
  b.data[b.len - 5] = 9;
  CHECK(load(&ag, &b, b.len, arena, &st, state) == HL_CORRUPT);
  ag.ip[0] = 3;
  CHECK(load(&ag, &again, again.len, arena, &st, state) == HL_CORRUPT);
  CHECK_STR(state, "XX001");
  hl_buf_fini(&b);
  hl_buf_fini(&again);
  hl_arena_destroy(arena);
}

int main(void) {
  RUN(histogram_ties_after_a_reload);
  RUN(hyperloglog_keeps_its_arrival_order);
  RUN(ngrams_keys_are_checked);
  return test_report();
}
