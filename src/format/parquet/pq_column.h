/*
 * pq_column.h -- private: the reader of one column chunk (one leaf of the
 * schema in one row group), shared by pq_reader.c and pq_column.c.
 *
 * A column reader walks the pages of its chunk one at a time (memory: the
 * current page, its dictionary and a lookahead of PQ_LOOKAHEAD levels) and
 * hands out "entries": one (definition level, repetition level) pair per
 * level slot, with a converted value when the definition level is the
 * leaf's maximum.  pq_reader.c asks for a number of rows: a flat column
 * writes them straight into a vector (pq_col_read_flat), a column under a
 * repeated or nested field appends entries to arrays that the record
 * assembler walks (pq_col_read_entries).
 *
 * Bytes come from the file through a window: either a slice of a buffer
 * that pq_reader.c filled with one coalesced read for several chunks, or a
 * private buffer refilled in 1 MiB steps.  Every offset and size from the
 * file is checked against the chunk's byte range before use.
 */
#ifndef HL_PQ_COLUMN_H
#define HL_PQ_COLUMN_H

#include "vector/vector.h"
#include "format/parquet/parquet.h"
#include "storage/stor.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/value.h"

#include <stdbool.h>
#include <stdint.h>

#define PQ_LOOKAHEAD      1024              /* levels decoded ahead of use */
#define PQ_MAX_PAGE_BYTES (256u << 20)      /* larger pages are refused (54000) */
#define PQ_WINDOW_BYTES   ((size_t)1 << 20) /* private window refill size */

typedef struct pq_col pq_col_t;

/* What pq_reader.c tells a column reader about its leaf. */
typedef struct pq_col_spec {
  const char *path;     /* file path, for messages (borrowed) */
  const char *col_name; /* leaf path "a.b.c", for messages (borrowed) */
  hl_stor_file_t *file; /* borrowed */
  int phys;             /* hl_pq_type_t */
  int32_t type_length;  /* FIXED_LEN_BYTE_ARRAY width */
  int conv;             /* hl_pq_conv_t */
  int16_t max_def, max_rep;
  bool discard;         /* levels only: values are decoded but not kept */
  uint32_t trunc_chars; /* VARCHAR/CHAR target: keep at most this many chars (0: all) */
  bool pad_chars;       /* CHAR target: pad to trunc_chars with spaces, as Hive reads CHAR */
  int codec;            /* hl_parquet_codec_t */
  uint64_t chunk_start; /* first byte (dictionary page or first data page) */
  uint64_t chunk_end;   /* one past the last byte */
  uint64_t file_size;   /* a page may run past chunk_end (old parquet-mr
                           under-reported chunk sizes) but not past this */
  int64_t num_values;   /* ColumnMetaData.num_values (entries in the chunk) */
} pq_col_spec_t;

/* Entries collected for the record assembler (nested columns). */
typedef struct pq_entries {
  int16_t *def;    /* [n] */
  int16_t *rep;    /* [n] */
  hl_value_t *val; /* [n]: set where def == max_def (unless discard) */
  size_t n, cap;
  size_t cur; /* assembler cursor */
} pq_entries_t;

/* Creates a reader for the chunk SPEC describes.  WINDOW (may be NULL) is a
 * buffer already holding file bytes [WIN_START, WIN_START + WIN_LEN), which
 * must stay valid until pq_col_destroy.  Caller destroys. */
hl_status_t pq_col_create(const pq_col_spec_t *spec, const uint8_t *window, uint64_t win_start,
                          size_t win_len, pq_col_t **out, hl_error_t *err);
void pq_col_destroy(pq_col_t *col);

/* Reads N_ROWS rows of a column with max_rep == 0 into rows [ROW0,
 * ROW0 + N_ROWS) of VEC (of the target type), strings copied into ARENA.
 * Fewer rows in the chunk than asked is HL_CORRUPT. */
hl_status_t pq_col_read_flat(pq_col_t *col, uint32_t n_rows, hl_vec_t *vec, uint32_t row0,
                             hl_arena_t *arena, hl_error_t *err);

/* Appends the entries of the next N_ROWS rows to col's entry arrays
 * (pq_col_entries), values converted into ARENA.  Fewer rows than asked is
 * HL_CORRUPT. */
hl_status_t pq_col_read_entries(pq_col_t *col, uint32_t n_rows, hl_arena_t *arena, hl_error_t *err);
pq_entries_t *pq_col_entries(pq_col_t *col);

/* Skips N_ROWS rows (values decoded and dropped). */
hl_status_t pq_col_skip_rows(pq_col_t *col, uint64_t n_rows, hl_error_t *err);

/* Data pages passed over without decoding since creation. */
uint64_t pq_col_pages_skipped(const pq_col_t *col);

/* Bytes of the first CHARS UTF-8 characters of S[0..len). */
uint32_t pq_utf8_prefix(const char *s, uint32_t len, uint32_t chars);

/* Converts one statistics bound (PLAIN bytes of a value of the leaf's
 * physical type, as Statistics and ColumnIndex store them) with CONV into
 * OUT (strings borrowed from BYTES).  False when the bytes are not a
 * valid value. */
bool pq_stat_value(int phys, int32_t type_length, int conv, const uint8_t *bytes, size_t len,
                   hl_value_t *out);

#endif
