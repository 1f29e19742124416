/*
 * fuzz_parquet_meta.c -- libFuzzer target for the Parquet metadata layer
 * (src/format/parquet/pq_thrift.c, pq_meta.c, pq_schema.c, pq_codec.c):
 * arbitrary bytes are decoded as a FileMetaData footer (then its schema
 * tree is built, every row group checked against it, the decoded structure
 * re-encoded and decoded again), as a page header (with and without an
 * arena for statistics), as a ColumnIndex and an OffsetIndex, and as page
 * data for every codec with the announced size taken from the first bytes.
 * Any crash, sanitizer report, leak or hang is a bug; errors are fine.
 *
 * Not part of the CMake build.  Build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -std=c11 \
 *     -Iinclude -Isrc tests/fuzz/fuzz_parquet_meta.c \
 *     src/format/parquet/pq_thrift.c src/format/parquet/pq_meta.c \
 *     src/format/parquet/pq_schema.c src/format/parquet/pq_codec.c \
 *     src/storage/[a-z]*.c src/util/[a-z]*.c \
 *     $(pkg-config --cflags --libs zlib libzstd snappy liblz4 libbrotlidec libbrotlienc) \
 *     -lm -lpthread -o fuzz_parquet_meta
 *   mkdir -p tests/fuzz/corpus/parquet_meta
 *   # seed with real footers: the bytes before the last 8 of each fixture
 *   ./fuzz_parquet_meta tests/fuzz/corpus/parquet_meta
 */
#include "format/parquet/pq_codec.h"
#include "format/parquet/pq_meta.h"
#include "format/parquet/pq_schema.h"
#include "util/mem.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_footer(const uint8_t *data, size_t size) {
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *arena = hl_arena_create(0);
  hl_pq_file_meta_t *meta = NULL;
  if (arena && hl_pq_file_meta_decode(arena, data, size, &meta, &err) == HL_OK) {
    hl_pq_schema_t *schema = NULL;
    if (hl_pq_schema_build(arena, meta->schema, meta->n_schema, &schema, &err) == HL_OK) {
      for (int g = 0; g < meta->n_row_groups; g++) {
        hl_pq_schema_check_row_group(schema, &meta->row_groups[g], &err);
        hl_err_clear(&err);
        for (int c = 0; c < meta->row_groups[g].n_columns; c++) {
          const hl_pq_column_meta_t *cm = meta->row_groups[g].columns[c].meta_data;
          uint64_t start, len;
          if (cm) hl_pq_column_chunk_range(meta, cm, size, &start, &len, &err);
          hl_err_clear(&err);
        }
      }
      for (int i = 0; i < schema->n_fields; i++) {
        char *text = hl_type_to_string(arena, schema->fields[i]->type);
        (void)text;
      }
    }
    hl_err_clear(&err);
    /* Whatever decodes must re-encode and decode to the same bytes. */
    hl_buf_t a, b;
    hl_buf_init(&a);
    hl_buf_init(&b);
    hl_pq_file_meta_t *again = NULL;
    if (hl_pq_file_meta_encode(meta, &a, &err) == HL_OK &&
        hl_pq_file_meta_decode(arena, a.data, a.len, &again, &err) == HL_OK &&
        hl_pq_file_meta_encode(again, &b, &err) == HL_OK) {
      if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) __builtin_trap();
    }
    hl_buf_fini(&a);
    hl_buf_fini(&b);
  }
  hl_err_clear(&err);
  hl_arena_destroy(arena);
}

static void fuzz_small(const uint8_t *data, size_t size) {
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *arena = hl_arena_create(0);
  hl_pq_page_header_t ph;
  size_t used;
  bool more;
  hl_pq_page_header_decode(NULL, data, size, &ph, &used, &more, &err);
  hl_err_clear(&err);
  if (arena) {
    hl_pq_page_header_decode(arena, data, size, &ph, &used, &more, &err);
    hl_err_clear(&err);
    hl_pq_column_index_t *ci;
    hl_pq_offset_index_t *oi;
    hl_pq_column_index_decode(arena, data, size, &ci, &err);
    hl_err_clear(&err);
    hl_pq_offset_index_decode(arena, data, size, &oi, &err);
    hl_err_clear(&err);
  }
  hl_arena_destroy(arena);
}

static void fuzz_codecs(const uint8_t *data, size_t size) {
  if (size < 3) return;
  /* First two bytes: announced output size (bounded to keep runs fast). */
  size_t out_len = ((size_t)data[0] << 8 | data[1]) % 65536;
  hl_parquet_codec_t codec = (hl_parquet_codec_t)(data[2] % 8);
  uint8_t *dst = hl_malloc(out_len ? out_len : 1);
  if (!dst) return;
  hl_error_t err;
  hl_err_init(&err);
  hl_pq_decompress(codec, data + 3, size - 3, dst, out_len, &err);
  hl_err_clear(&err);
  hl_free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_footer(data, size);
  fuzz_small(data, size);
  fuzz_codecs(data, size);
  return 0;
}
