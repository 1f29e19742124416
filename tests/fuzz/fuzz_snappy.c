// clang-format off
/*
 * fuzz_snappy.c -- libFuzzer target for the Snappy block decoder
 * (src/util/snappy_dec.c), differential against libsnappy.
 *
 * Build (as `make fuzz` and the fuzz.snappy CTest entry do):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_snappy.c src/util/snappy_dec.c $(pkg-config --cflags --libs snappy) -o fuzz_snappy
 *
 * Every input is decoded by both; they must agree on whether the block is
 * valid and, when it is, on every byte.  The input's first byte also picks
 * a way to turn the rest into a valid block (libsnappy compresses it) so
 * that the decoder's copy paths are reached, not only its error paths.
 */
// clang-format on
#include "util/snappy_dec.h"

#include <snappy-c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_block(const uint8_t *blk, size_t n) {
  size_t len;
  if (!hl_snappy_length(blk, n, &len)) return;
  if (len > (1u << 22)) return; /* bounded, as a page size is */
  uint8_t *ours = malloc(len ? len : 1), *theirs = malloc(len ? len : 1);
  if (!ours || !theirs) abort();
  bool ok = hl_snappy_uncompress(blk, n, ours, len);
  size_t tlen = len;
  bool tok = snappy_validate_compressed_buffer((const char *)blk, n) == SNAPPY_OK &&
             snappy_uncompress((const char *)blk, n, (char *)theirs, &tlen) == SNAPPY_OK &&
             tlen == len;
  if (ok != tok) abort();                                  /* validity disagrees */
  if (ok && len && memcmp(ours, theirs, len) != 0) abort(); /* bytes disagree */
  free(ours);
  free(theirs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_block(data, size);
  if (size > 1 && data[0] < 64) { /* a valid block of the rest */
    size_t cap = snappy_max_compressed_length(size - 1);
    char *comp = malloc(cap);
    if (!comp) abort();
    if (snappy_compress((const char *)data + 1, size - 1, comp, &cap) == SNAPPY_OK)
      check_block((const uint8_t *)comp, cap);
    free(comp);
  }
  return 0;
}
