/*
 * fuzz_hblock.c -- libFuzzer target for the text codecs' decoders
 * (src/format/text/text_io.c, src/format/hcodec/hcodec_block.c): arbitrary bytes are written
 * to a temporary file named .snappy, .lz4 (Hadoop's block framing), .bz2
 * or .deflate and read through hl_text_src_* in reads of a size the input
 * picks.  Any crash, sanitizer report, leak, hang or allocation beyond
 * libFuzzer's -rss_limit_mb (a declared length believed) is a bug; errors
 * are fine.  The first byte picks the codec and the read size, the rest is
 * the file.
 *
 * Registered in CMake (fuzz.hblock, 15 s under make check) and run by
 * `make fuzz`; seeds in tests/fuzz/corpus/hblock.  By hand, from the
 * repository root:
 *
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *     -Iinclude -Isrc tests/fuzz/fuzz_hblock.c src/format/text/text_io.c \
 *     src/format/hcodec/hcodec_block.c src/storage/stor_local.c src/storage/stor_util.c \
 *     src/util/[a-z]*.c $(pkg-config --cflags --libs zlib libzstd snappy liblz4) -lbz2 \
 *     -lm -lpthread -o fuzz_hblock
 */
#include "format/text/text_int.h"

#include "fuzz_file.h"

static size_t read_size; /* set per input before fuzz_with_file runs */
static const char *suffix;

static void read_all(hl_stor_t *fs, const char *path, bool variant) {
  (void)variant;
  char named[300];
  snprintf(named, sizeof named, "%s%s", path, suffix);
  if (rename(path, named) != 0) return;
  hl_error_t err;
  hl_err_init(&err);
  hl_text_src_t *src = NULL;
  static char buf[1 << 16];
  if (hl_text_src_open(fs, named, &src, &err) == HL_OK) {
    size_t got = 0, total = 0, reads = 0;
    /* every source ends: the plain bytes are bounded by what the codecs
     * can expand the input to (a 100-byte bzip2 file can hold megabytes),
     * so the guards only bound the time: a million reads cover every
     * boundary case of a small read size without reading 1-byte steps of
     * a bomb for the whole timeout */
    while (hl_text_src_read(src, buf, read_size, &got, &err) == HL_OK && got > 0 &&
           total < ((size_t)1 << 30) && reads++ < ((size_t)1 << 20))
      total += got;
  }
  hl_text_src_close(src);
  hl_err_clear(&err);
  rename(named, path); /* fuzz_with_file removes PATH */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const suffixes[] = {".snappy", ".lz4", ".bz2", ".deflate"};
  static const size_t sizes[] = {1, 7, 4096, sizeof(char[1 << 16])};
  if (size < 1) return 0;
  suffix = suffixes[data[0] & 3];
  read_size = sizes[(data[0] >> 2) & 3];
  fuzz_with_file(data + 1, size - 1, "fuzz_hblock_", read_all);
  return 0;
}
