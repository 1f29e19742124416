/*
 * parquet.h -- Apache Parquet files: reader, writer and schema inspection.
 *
 * Written from the Apache Parquet format specification (apache/parquet-format:
 * parquet.thrift, Encodings.md, Compression.md, PageIndex.md, LogicalTypes.md).
 * Module layout (see src/format/parquet/README.md):
 *   pq_thrift.c    Thrift compact protocol reader/writer primitives
 *   pq_meta.c      FileMetaData / PageHeader / ColumnIndex structures
 *   pq_schema.c    schema tree <-> Hive types
 *   pq_codec.c     compression codecs (Debian libraries)
 *   pq_encoding.c  PLAIN, RLE/bit-packed, dictionary, DELTA_*, BYTE_STREAM_SPLIT
 *   pq_reader.c    row groups and pages to vectors (this header's reader)
 *   pq_writer.c    vectors to row groups and pages
 *
 * Like the text reader (format/text/text.h), a reader fills the first
 * n_cols columns of a batch with the table's data columns in declared
 * order; the scan appends partition columns.  Columns are matched to the
 * file's top-level fields by name, case-insensitively; a table column the
 * file lacks reads as NULL; INT->BIGINT and FLOAT->DOUBLE widen; any other
 * mismatch is an error naming the file and column.  Untrusted input: every
 * offset and length from the file is validated; a malformed file is
 * HL_CORRUPT (XX001) naming the file, never a crash.
 */
#ifndef HL_PARQUET_H
#define HL_PARQUET_H

#include "vector/vector.h"
#include "format/chunk_meta.h"
#include "format/scan_pred.h"
#include "storage/stor.h"
#include "util/kv.h"

/* Cache of parsed footers keyed on (path, size, mtime), owned by the
 * caller (one per open warehouse handle), safe for one thread at a time. */
typedef struct hl_parquet_cache hl_parquet_cache_t;
hl_parquet_cache_t *hl_parquet_cache_create(size_t max_entries);
void hl_parquet_cache_destroy(hl_parquet_cache_t *cache);

typedef struct hl_parquet_scan_stats {
  size_t row_groups_total;
  size_t row_groups_read; /* not skipped by statistics */
  size_t pages_skipped;   /* by the column index */
} hl_parquet_scan_stats_t;

typedef struct hl_parquet_reader hl_parquet_reader_t;

/* Opens PATH.  TYPES/NAMES (borrowed until close) are the table's n_cols
 * data columns; PROJECTED[i] false means column i is not read (left NULL);
 * PREDS (borrowed, may be NULL) are pushed predicates.  CACHE may be NULL.
 * Caller closes. */
hl_status_t hl_parquet_reader_open(hl_stor_t *fs, const char *path, int n_cols,
                                   const hl_type_t *const *types, const char *const *names,
                                   const bool *projected, const hl_scan_pred_t *preds, int n_preds,
                                   hl_parquet_cache_t *cache, hl_parquet_reader_t **out,
                                   hl_error_t *err);
/* Same contract as hl_text_reader_next: fills columns [0, n_cols) of BATCH
 * (reset by the caller), sets n_rows; 0 rows = end of file. */
hl_status_t hl_parquet_reader_next(hl_parquet_reader_t *r, hl_batch_t *batch, hl_error_t *err);
/* Row groups in the file (its footer's count). */
int hl_parquet_reader_row_groups(const hl_parquet_reader_t *r);
/* Threads sharing one file: this reader reads row group i only when
 * (BASE + i) % N == W (set before the first next); its row-group counts
 * are then its share's. */
void hl_parquet_reader_share(hl_parquet_reader_t *r, size_t base, int n, int w);
/* Index of the row group the last batch came from. */
int hl_parquet_reader_current_row_group(const hl_parquet_reader_t *r);
/* Late materialization: columns with LATE[i] set (borrowed until close;
 * NULL: none) are not filled by hl_parquet_reader_next but by the
 * hl_parquet_reader_finish that must follow it, once the caller has
 * filtered the batch on the other columns: KEEP false (no row passed)
 * skips them -- lazily, so that a run of dropped batches passes whole pages
 * without decompressing them.  Only flat columns are read late. */
void hl_parquet_reader_set_late(hl_parquet_reader_t *r, const bool *late);
hl_status_t hl_parquet_reader_finish(hl_parquet_reader_t *r, hl_batch_t *batch, bool keep,
                                     hl_error_t *err);
/* Footer answers (format/chunk_meta.h) for data column COL in every row
 * group: OUT[0..hl_parquet_reader_row_groups) when true.  VALUES false:
 * only the NULL counts are asked for.  Before the first next. */
bool hl_parquet_reader_meta(const hl_parquet_reader_t *r, int col, bool values,
                            hl_chunk_meta_t *out);
/* Column COL is not read: it reads NULL (its answer came from the footer).
 * Before the first next. */
void hl_parquet_reader_skip(hl_parquet_reader_t *r, int col);
const hl_parquet_scan_stats_t *hl_parquet_reader_stats(const hl_parquet_reader_t *r);
void hl_parquet_reader_close(hl_parquet_reader_t *r); /* NULL is a no-op */

/* The file's top-level columns as Hive names and types (for SELECT FROM
 * parquet.`path` and CREATE TABLE LIKE PARQUET).  In ARENA. */
hl_status_t hl_parquet_file_schema(hl_stor_t *fs, const char *path, hl_arena_t *arena, int *n_cols,
                                   char ***names, hl_type_t ***types, hl_error_t *err);

/* A Parquet data set named by a path, for SELECT FROM parquet.`path`
 * (Spark's direct file query).  PATH is a file or a directory read
 * recursively; hidden entries are skipped as Spark does (names starting
 * with "." or "_" unless a "_" name holds "="; "*._COPYING_").  Directories
 * named k=v are Hive partition directories: their keys (unescaped,
 * lower-cased) become STRING columns after the file columns, and every
 * file must sit under the same keys in the same order.  The file columns
 * come from the first file in path order; other files are matched by name
 * as for tables.  __HIVE_DEFAULT_PARTITION__ is a NULL value. */
typedef struct hl_parquet_dataset_unit {
  char **values; /* n_part_keys unescaped values; NULL for the default partition */
  char *name;    /* "k1=v1/k2=v2" as spelled on disk ("" when unpartitioned) */
  char *dir;     /* absolute directory of the first file's partition */
  char **files;  /* absolute paths, in path order */
  size_t n_files;
} hl_parquet_dataset_unit_t;

typedef struct hl_parquet_dataset {
  char *path;       /* absolute, normalised */
  bool single_file; /* PATH is a file */
  int n_cols;       /* the file columns */
  char **names;
  hl_type_t **types;
  int n_part_keys; /* partition directory keys, STRING */
  char **part_keys;
  hl_parquet_dataset_unit_t *units; /* files grouped by partition values */
  size_t n_units;
} hl_parquet_dataset_t;

/* Lists PATH (relative paths are taken against the working directory; a
 * "file:" prefix is dropped) and reads the first file's schema.  Everything
 * in ARENA.  Errors: 58P01 when PATH does not exist or holds no data file,
 * 22000 when partition directories disagree, 42701 when a partition key is
 * also a file column, 54000 beyond 64 directory levels, storage errors, and
 * hl_parquet_file_schema's errors for the first file. */
hl_status_t hl_parquet_dataset_list(hl_stor_t *fs, const char *path, hl_arena_t *arena,
                                    hl_parquet_dataset_t **out, hl_error_t *err);

typedef enum hl_parquet_codec {
  HL_PQ_UNCOMPRESSED = 0,
  HL_PQ_SNAPPY = 1,
  HL_PQ_GZIP = 2,
  HL_PQ_LZO = 3,
  HL_PQ_BROTLI = 4,
  HL_PQ_LZ4 = 5,
  HL_PQ_ZSTD = 6,
  HL_PQ_LZ4_RAW = 7
} hl_parquet_codec_t;

typedef struct hl_parquet_write_options {
  hl_parquet_codec_t codec;  /* default SNAPPY */
  int compression_level;     /* 0: codec default */
  uint64_t row_group_bytes;  /* parquet.block.size, default 128 MiB */
  uint64_t page_bytes;       /* parquet.page.size, default 1 MiB */
  uint64_t dictionary_bytes; /* dictionary fallback threshold, default 1 MiB */
  bool int96_timestamps;     /* Hive/Impala compatibility; default INT64 micros */
} hl_parquet_write_options_t;

/* Defaults, then table properties parquet.compression (SNAPPY, ZSTD, GZIP,
 * LZ4_RAW, UNCOMPRESSED/NONE), parquet.block.size, parquet.page.size,
 * hive.parquet.timestamp... applied from PARAMS.  Unknown codec: 22023. */
hl_status_t hl_parquet_write_options_init(hl_parquet_write_options_t *opts, const hl_kv_t *params,
                                          int n_params, hl_error_t *err);

typedef struct hl_parquet_writer hl_parquet_writer_t;

/* Creates PATH (exclusive) for N_COLS columns of TYPES named NAMES.
 * Caller closes. */
hl_status_t hl_parquet_writer_open(hl_stor_t *fs, const char *path, int n_cols,
                                   const hl_type_t *const *types, const char *const *names,
                                   const hl_parquet_write_options_t *opts,
                                   hl_parquet_writer_t **out, hl_error_t *err);
/* Writes the live rows of columns [0, n_cols) of BATCH. */
hl_status_t hl_parquet_writer_write(hl_parquet_writer_t *w, const hl_batch_t *batch,
                                    hl_error_t *err);
/* Flushes the last row group, writes the footer, syncs, closes; reports
 * rows and bytes written (either pointer may be NULL).  NULL: HL_OK. */
hl_status_t hl_parquet_writer_close(hl_parquet_writer_t *w, uint64_t *rows, uint64_t *bytes,
                                    hl_error_t *err);
/* Abandons a writer after an error (closes the file; the caller removes it). */
void hl_parquet_writer_abort(hl_parquet_writer_t *w);
/* Bytes of memory W holds (buffers by capacity: the pending pages, the
 * row group's encoded pages, dictionaries, footer structures), so that a
 * caller keeping many writers open can bound them (command/cmd_insert). */
uint64_t hl_parquet_writer_mem(const hl_parquet_writer_t *w);
/* The part of hl_parquet_writer_mem kept for the footer: every flushed row
 * group's metadata and page index as their encoded bytes (tens of bytes
 * per column chunk plus a few per page), which is all that grows with the
 * rows written. */
uint64_t hl_parquet_writer_footer_mem(const hl_parquet_writer_t *w);
/* Writes the row group being built (if any rows) and frees the buffers it
 * used, so that W holds little more than its footer until more rows come.
 * Errors as hl_parquet_writer_write. */
hl_status_t hl_parquet_writer_flush(hl_parquet_writer_t *w, hl_error_t *err);

#endif
