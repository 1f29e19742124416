// clang-format off
/*
 * fuzz_spill.c -- libFuzzer target for the spill block decoder,
 * hl_spill_block_header / hl_spill_block_decode (src/exec/spill_block.c).
 *
 * Build (as `make fuzz` and the fuzz.spill CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_spill.c src/exec/spill_block.c src/exec/op_agg_{own,hist,ngrams,sketch,cstats,bloom,ds_theta}.c src/vector/vector.c src/util/[a-z]*.c -lm -lpthread -o fuzz_spill
 *
 * The first input byte picks the batch's column types, the rest is a block
 * (header and payload) as a spill file holds it; with the second byte odd
 * the header's payload length is set to the bytes given, so that the
 * column checks behind it are what is fuzzed.  A rejection must be
 * HL_CORRUPT (or HL_NOMEM); an accepted block must encode again to bytes
 * that decode and encode to the same bytes.
 *
 * The last set is the value column of a parallel aggregation's state rows
 * for the aggregates whose states are structures of their own
 * (src/exec/op_agg_own.c): each accepted row's BINARY is read as the
 * state the INT names (histogram_numeric, ngrams, a HyperLogLog, an
 * FMSketch, compute_stats of three kinds, with their parameters); a
 * rejection must be HL_CORRUPT (or HL_NOMEM), an accepted state must be
 * written back to the very bytes it was read from (a ds_theta_* state,
 * kind 7: to bytes that read back and write the same again).
 */
// clang-format on
#include "exec/op_agg_int.h"
#include "exec/spill.h"

#include "util/mem.h"
#include "util/murmur3.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const sets[][4] = {
    {"bigint", "string", NULL},
    {"decimal(38,4)", "boolean", "double", NULL},
    {"array<int>", "map<string,bigint>", NULL},
    {"struct<a:int,b:array<string>>", "char(3)", "date", NULL},
    {"uniontype<int,string>", "array<uniontype<bigint,struct<a:int>>>", NULL},
    {"binary", "int", NULL}, /* aggregation states of their own: states() */
};

/* A ds_theta_* state (op_agg_ds_theta.c; U picks the aggregate and k):
 * what an accepted state writes is a fixed point -- read again it writes
 * the same bytes (the first read may take any form Java reads). */
static void ds_theta_state(uint32_t u, const uint8_t *data, uint32_t len, hl_arena_t *arena) {
  static const hl_agg_kind_t kinds[] = {HL_AGG_DS_THETA_SKETCH, HL_AGG_DS_THETA_UNION,
                                        HL_AGG_DS_THETA_INTERSECT};
  hl_agg_t ag;
  memset(&ag, 0, sizeof ag);
  ag.kind = kinds[u % 3];
  ag.ip[0] = 16 << (u / 3 % 4);
  ag.param = 1.0;
  ag.lparam = HL_DS_SEED;
  agg_rd_t r = {data, len};
  agg_state_t st;
  memset(&st, 0, sizeof st);
  hl_status_t rc = hl_agg_ds_theta_load(&r, &ag, arena, &st);
  if (rc != HL_OK && rc != HL_CORRUPT && rc != HL_NOMEM) abort();
  if (rc != HL_OK) return;
  hl_buf_t one, two;
  hl_buf_init(&one);
  hl_buf_init(&two);
  hl_agg_ds_theta_save(&ag, &st, &one);
  agg_rd_t r2 = {(const uint8_t *)one.data, one.len};
  agg_state_t st2;
  memset(&st2, 0, sizeof st2);
  if (!one.oom) {
    rc = hl_agg_ds_theta_load(&r2, &ag, arena, &st2);
    if (rc == HL_CORRUPT) abort();
    if (rc == HL_OK) {
      hl_agg_ds_theta_save(&ag, &st2, &two);
      if (!two.oom && (two.len != one.len || memcmp(one.data, two.data, one.len) != 0)) abort();
    }
  }
  hl_buf_fini(&one);
  hl_buf_fini(&two);
}

/* Reads DATA[0..len) as the state kind SEL picks; an accepted state must
 * write back to the same bytes. */
static void state(int32_t sel, const uint8_t *data, uint32_t len) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return;
  agg_rd_t r = {data, len};
  agg_state_t st;
  memset(&st, 0, sizeof st);
  /* the kind in the low 3 bits, its parameters above: a sketch's vectors;
   * compute_stats's type, sketch and vectors */
  uint32_t u = (uint32_t)sel >> 3;
  bool fm = (u / 3) & 1;
  int n = (int)(u % 9), cn = (int)(u / 6 % 9);
  hl_type_id_t cs[] = {HL_T_BIGINT, HL_T_DECIMAL, HL_T_BOOLEAN};
  hl_type_t ct = {.id = cs[u % 3], .precision = 10, .scale = 2};
  hl_status_t rc;
  if (((uint32_t)sel & 7) == 7) {
    ds_theta_state(u, data, len, arena);
    hl_arena_destroy(arena);
    return;
  }
  switch ((uint32_t)sel & 7) {
  case 0:
    rc = hl_agg_hist_load(&r, 2 + u % 64, arena, &st);
    break;
  case 1:
    rc = hl_agg_ngrams_load(&r, 1 + u % 4, 1000 * (1 + (u >> 2) % 2), arena, &st);
    break;
  case 2:
  case 3:
    rc = hl_agg_sketch_load(&r, sel & 1, n, arena, &st);
    break;
  default:
    rc = hl_agg_cstats_load(&r, &ct, fm, cn, arena, &st);
    break;
  }
  if (rc != HL_OK && rc != HL_CORRUPT && rc != HL_NOMEM) abort();
  if (rc == HL_OK && r.left == 0) {
    hl_buf_t out;
    hl_buf_init(&out);
    switch ((uint32_t)sel & 7) {
    case 0:
      hl_agg_hist_save(&st, &out);
      break;
    case 1:
      hl_agg_ngrams_save(&st, &out);
      break;
    case 2:
    case 3:
      hl_agg_sketch_save(sel & 1, &st, &out);
      break;
    default:
      hl_agg_cstats_save(&ct, fm, &st, &out);
      break;
    }
    if (!out.oom && (out.len != len || (len && memcmp(out.data, data, len) != 0))) abort();
    hl_buf_fini(&out);
  }
  hl_arena_destroy(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 + HL_SPILL_HEADER_BYTES) return 0;
  const char *const *set = sets[data[0] % (sizeof sets / sizeof sets[0])];
  bool fix_len = data[1] & 1;
  data += 2;
  size -= 2;
  hl_arena_t *types = hl_arena_create(0);
  const hl_type_t *tv[4];
  int n = 0;
  hl_error_t err;
  hl_err_init(&err);
  for (; set[n]; n++) {
    hl_type_t *t;
    if (hl_type_parse_str(types, set[n], &t, &err) != HL_OK) abort();
    tv[n] = t;
  }
  uint8_t head[HL_SPILL_HEADER_BYTES];
  memcpy(head, data, sizeof head);
  uint64_t given = size - sizeof head;
  if (fix_len) memcpy(head + 16, &given, sizeof given);
  uint32_t n_rows, n_cols;
  uint64_t payload;
  hl_batch_t *b = hl_batch_create(n, tv), *again = hl_batch_create(n, tv);
  if (b && again && hl_spill_block_header(head, &n_rows, &n_cols, &payload) &&
      n_cols == (uint32_t)n && payload <= given) {
    uint8_t *copy = hl_arena_alloc(b->arena, payload ? payload : 1);
    if (copy) {
      memcpy(copy, data + sizeof head, payload);
      hl_status_t rc = hl_spill_block_decode(copy, payload, n_rows, b);
      if (rc != HL_OK && rc != HL_CORRUPT && rc != HL_NOMEM) abort();
      for (uint32_t r = 0;
           rc == HL_OK && n == 2 && b->cols[0].type->id == HL_T_BINARY && r < b->n_rows; r++) {
        hl_value_t v, sel;
        hl_vec_get_value(&b->cols[0], r, &v);
        hl_vec_get_value(&b->cols[1], r, &sel);
        if (!v.is_null && !sel.is_null)
          state((int32_t)sel.u.i, (const uint8_t *)v.u.s.ptr, v.u.s.len);
      }
      if (rc == HL_OK) {
        /* what was accepted round-trips */
        hl_buf_t buf;
        hl_buf_init(&buf);
        uint32_t rows[HL_BATCH_CAP];
        for (uint32_t r = 0; r < b->n_rows; r++)
          rows[r] = r;
        if (hl_spill_block_encode(&buf, b, rows, b->n_rows) == HL_OK) {
          uint32_t n2, c2;
          uint64_t p2;
          if (!hl_spill_block_header((const uint8_t *)buf.data, &n2, &c2, &p2) ||
              p2 != buf.len - HL_SPILL_HEADER_BYTES)
            abort();
          if (hl_spill_block_decode((const uint8_t *)buf.data + HL_SPILL_HEADER_BYTES, p2, n2,
                                    again) != HL_OK)
            abort();
          /* the same bytes again (values compared by their encoding: the
           * text forms of out-of-range dates are not the decoder's concern) */
          hl_buf_t buf2;
          hl_buf_init(&buf2);
          if (hl_spill_block_encode(&buf2, again, rows, again->n_rows) == HL_OK &&
              (buf2.len != buf.len || memcmp(buf2.data, buf.data, buf.len) != 0))
            abort();
          hl_buf_fini(&buf2);
        }
        hl_buf_fini(&buf);
      }
    }
  }
  hl_batch_destroy(b);
  hl_batch_destroy(again);
  hl_arena_destroy(types);
  return 0;
}
