// clang-format off
/*
 * fuzz_spill.c -- libFuzzer target for the spill block decoder,
 * hl_spill_block_header / hl_spill_block_decode (src/exec/spill_block.c).
 *
 * Build (as `make fuzz` and the fuzz.spill CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_spill.c src/exec/spill_block.c src/vector/vector.c src/util/[a-z]*.c -lm -lpthread -o fuzz_spill
 *
 * The first input byte picks the batch's column types, the rest is a block
 * (header and payload) as a spill file holds it; with the second byte odd
 * the header's payload length is set to the bytes given, so that the
 * column checks behind it are what is fuzzed.  A rejection must be
 * HL_CORRUPT (or HL_NOMEM); an accepted block must encode again to bytes
 * that decode and encode to the same bytes.
 */
// clang-format on
#include "exec/spill.h"

#include "util/mem.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const sets[][4] = {
    {"bigint", "string", NULL},
    {"decimal(38,4)", "boolean", "double", NULL},
    {"array<int>", "map<string,bigint>", NULL},
    {"struct<a:int,b:array<string>>", "char(3)", "date", NULL},
    {"uniontype<int,string>", "array<uniontype<bigint,struct<a:int>>>", NULL},
};

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
