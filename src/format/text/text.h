/*
 * text.h -- Hive text tables: LazySimpleSerDe (delimited), OpenCSVSerde and
 * JsonSerDe, plain or compressed by file extension (.gz, .zst, .deflate,
 * .bz2, .snappy, .lz4: Hadoop's codecs and their default extensions).
 *
 * A reader decodes one file into batches whose first n_cols columns are the
 * table's data columns in declared order (the scan operator appends the
 * partition columns).  Hive's rules: missing trailing fields are NULL, extra
 * fields are ignored, a field that does not convert to its column type is
 * NULL, the table's null string (default \N) is NULL.  A writer encodes
 * batches as LazySimpleSerDe text.
 */
#ifndef HL_TEXT_H
#define HL_TEXT_H

#include "vector/vector.h"
#include "storage/stor.h"
#include "util/kv.h"

typedef enum hl_text_kind {
  HL_TEXT_LAZY,  /* org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe */
  HL_TEXT_CSV,   /* org.apache.hadoop.hive.serde2.OpenCSVSerde */
  HL_TEXT_JSON,  /* org.apache.hive.hcatalog.data.JsonSerDe, org.apache.hadoop.hive.serde2.JsonSerDe
                  */
  HL_TEXT_REGEX, /* org.apache.hadoop.hive.serde2.RegexSerDe: read only */
  HL_TEXT_LAZYBIN /* org.apache.hadoop.hive.serde2.lazybinary.LazyBinarySerDe: binary rows,
                     in SequenceFile values only (format/lazybin) */
} hl_text_kind_t;

typedef struct hl_text_format {
  hl_text_kind_t kind;
  /* LazySimpleSerDe: separators by nesting level: [0] fields (field.delim,
   * default \001), [1] collection items (colelction.delim / collection.delim,
   * default \002), [2] map keys (mapkey.delim, default \003), deeper levels
   * \004..\010 as Hive uses them. */
  char separators[8];
  bool has_escape; /* escape.delim set */
  char escape;
  char line_delim;   /* '\n' (line.delim) */
  char *null_string; /* serialization.null.format, default "\\N" */
  /* OpenCSVSerde */
  char csv_separator;    /* separatorChar, default ',' */
  char csv_quote;        /* quoteChar, default '"' */
  char csv_escape;       /* escapeChar, default '\\' */
  int skip_header_lines; /* TBLPROPERTIES skip.header.line.count */
  /* MultiDelimitSerDe (kind LAZY): field.delim as a string of one or more
   * bytes, NULL for LazySimpleSerDe; separators[0] is its first byte */
  char *multi_delim;
  size_t multi_len;
  /* RegexSerDe */
  char *input_regex; /* input.regex (required) */
  bool regex_icase;  /* input.regex.case.insensitive=true */
} hl_text_format_t;

/* Builds the format from the table's serde class and its SERDEPROPERTIES
 * and TBLPROPERTIES.  Strings are allocated in ARENA.  An unknown serde
 * class is HL_UNSUPPORTED 0A000. */
hl_status_t hl_text_format_init(hl_text_format_t *fmt, hl_arena_t *arena, const char *serde_lib,
                                const hl_kv_t *serde_params, int n_serde_params,
                                const hl_kv_t *tbl_params, int n_tbl_params, hl_error_t *err);

/* HL_OK when FMT's serde can write rows; RegexSerDe cannot (Hive's
 * serialize throws), which is HL_UNSUPPORTED 0A000 naming the serde. */
hl_status_t hl_text_format_writable(const hl_text_format_t *fmt, hl_error_t *err);

typedef struct hl_text_reader hl_text_reader_t;

/* Opens PATH.  TYPES/NAMES (borrowed, valid until close) describe the n_cols
 * data columns; PROJECTED[i] false means column i need not be decoded (its
 * vector is left all-NULL); PROJECTED NULL decodes all.  Caller closes. */
hl_status_t hl_text_reader_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                int n_cols, const hl_type_t *const *types, const char *const *names,
                                const bool *projected, hl_text_reader_t **out, hl_error_t *err);
/* Fills columns [0, n_cols) of BATCH (already reset by the caller, with at
 * least n_cols columns of the given types) with up to HL_BATCH_CAP rows and
 * sets batch->n_rows; n_rows == 0 means end of file.  Malformed compressed
 * data or an unreadable file is an error naming the file (HL_CORRUPT /
 * HL_IOERR). */
hl_status_t hl_text_reader_next(hl_text_reader_t *r, hl_batch_t *batch, hl_error_t *err);
void hl_text_reader_close(hl_text_reader_t *r); /* NULL is a no-op */

typedef struct hl_text_writer hl_text_writer_t;

/* The file-name extension (*EXT: ".gz", ".zst", ".deflate", ".bz2",
 * ".snappy", ".lz4", or "" for none) that makes the text writer compress
 * with codec NAME: a short name (gzip, zstd, deflate, bzip2, snappy, lz4;
 * plain / none / uncompressed for none) or a Hadoop codec class
 * (org.apache.hadoop.io.compress.GzipCodec, ZStandardCodec, DefaultCodec,
 * DeflateCodec, BZip2Codec, SnappyCodec, Lz4Codec), case-insensitive.
 * False (and *EXT "") for any other name. */
bool hl_text_codec_ext(const char *name, const char **ext);

/* Creates PATH (exclusive) and writes LazySimpleSerDe (or JSON) text; a
 * codec's extension (hl_text_codec_ext) compresses.  Caller closes (close flushes, syncs
 * and reports the final error). */
hl_status_t hl_text_writer_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                int n_cols, const hl_type_t *const *types, const char *const *names,
                                hl_text_writer_t **out, hl_error_t *err);
/* Writes the live rows of columns [0, n_cols) of BATCH. */
hl_status_t hl_text_writer_write(hl_text_writer_t *w, const hl_batch_t *batch, hl_error_t *err);
hl_status_t hl_text_writer_close(hl_text_writer_t *w, hl_error_t *err); /* NULL: HL_OK */
/* Bytes written so far (uncompressed), for statistics. */
uint64_t hl_text_writer_raw_bytes(const hl_text_writer_t *w);
/* Bytes of memory W holds (rows not yet appended, the compressor), so
 * that a caller keeping many writers open can bound them. */
uint64_t hl_text_writer_mem(const hl_text_writer_t *w);
/* Hands the rows buffered so far to the file (through the compressor) and
 * frees the buffer; W stays open.  Errors as hl_text_writer_write. */
hl_status_t hl_text_writer_flush(hl_text_writer_t *w, hl_error_t *err);

/* ---- values a LazySimpleSerDe file cannot hold ---------------------------
 * Without an escape character (ESCAPED BY) LazySimpleSerDe writes a string
 * as it is, so a line feed or carriage return in it ends the row early in a
 * text file, and a separator splits its field, item or map entry: the file
 * does not read back as written (Hive writes it all the same).  With an
 * escape character strings are escaped, but other values (numbers, dates,
 * timestamps, BINARY's base64) never are, which matters only for separators
 * such as '.', '-', ':' or ' '.  A guard tells, value by value, whether a
 * row can be written; a writer that trusts its caller writes what it is
 * given. */

/* How the rows of LazySimpleSerDe text are held apart. */
typedef enum hl_text_rows {
  HL_TEXT_ROWS_LINES,   /* text files: a row ends at a line feed (Hadoop: or CR) */
  HL_TEXT_ROWS_RECORDS, /* SequenceFile: one record per row */
  HL_TEXT_ROWS_CELLS    /* RCFile (ColumnarSerDe): one cell per column value */
} hl_text_rows_t;

typedef struct hl_text_guard {
  bool active;        /* some value may not be writable */
  bool escaped;       /* strings are escaped: only other values are checked */
  bool check_scalars; /* a byte that breaks a row can occur in a formatted non-string value */
  bool lines;         /* HL_TEXT_ROWS_LINES */
  bool binary_raw;    /* BINARY is written as its bytes (MultiDelimitSerDe), not base64 */
  char escape;        /* when escaped */
  uint8_t level[256]; /* a byte breaks a leaf at nesting level L (1: a column) when level[b] < L */
} hl_text_guard_t;

/* What keeps a value from being written. */
typedef struct hl_text_flaw {
  unsigned char byte;
  int what;    /* separator level 0..7; -1: line end; -2: the escape character; -3: raw
                  BINARY that reads back as base64 */
  bool string; /* in a string: an escape character would write it */
} hl_text_flaw_t;

/* The guard for writing FMT with ROWS; inactive (checks nothing) for
 * OpenCSVSerde and JSON, whose writers quote and escape everything. */
void hl_text_guard_init(hl_text_guard_t *g, const hl_text_format_t *fmt, hl_text_rows_t rows);
/* Whether V (of column type TYPE) reads back as written; when not, the
 * first byte that breaks it is described in *FLAW.  SCRATCH takes the text
 * of non-string values; its out-of-memory flag is the caller's to check. */
bool hl_text_guard_check(const hl_text_guard_t *g, const hl_type_t *type, const hl_value_t *v,
                         hl_buf_t *scratch, hl_text_flaw_t *flaw);
/* Appends what FLAW is, e.g. "a line feed" or "the field delimiter '\001'". */
void hl_text_flaw_describe(hl_buf_t *b, const hl_text_flaw_t *flaw);

/* ---- rows without a file, for container formats -------------------------
 * SequenceFile values and RCFile (ColumnarSerDe) cells hold LazySimpleSerDe
 * text; these reuse the reader's and writer's row code on caller-supplied
 * bytes.  A decoder is an hl_text_reader_t with no file (close it with
 * hl_text_reader_close; hl_text_reader_next must not be called on it); an
 * encoder is an hl_text_writer_t with no file (close it with
 * hl_text_writer_close). */

/* Opens a decoder; arguments as hl_text_reader_open, PATH (copied) only
 * names the file in messages.  Caller closes. */
hl_status_t hl_text_decoder_open(const char *path, const hl_text_format_t *fmt, int n_cols,
                                 const hl_type_t *const *types, const char *const *names,
                                 const bool *projected, hl_text_reader_t **out, hl_error_t *err);
/* Starts filling BATCH (reset by the caller): its arena takes the decoded
 * values and unprojected columns are set all-NULL. */
hl_status_t hl_text_decoder_begin(hl_text_reader_t *r, hl_batch_t *batch, hl_error_t *err);
/* Decodes one record REC[0..len) (no line terminator) into ROW of the
 * batch given to begin.  REC may be transient: what the batch keeps is
 * copied into its arena. */
hl_status_t hl_text_decoder_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row,
                                const char *rec, size_t len, hl_error_t *err);
/* Decodes one LazySimpleSerDe field P[0..n) (ColumnarSerDe cell: the null
 * string is NULL, nesting starts at separator level 1) into column COL,
 * row ROW.  P may be transient. */
hl_status_t hl_text_decoder_field(hl_text_reader_t *r, hl_batch_t *batch, int col, uint32_t row,
                                  const char *p, size_t n, hl_error_t *err);

/* Opens an encoder; arguments as hl_text_writer_open without a file. */
hl_status_t hl_text_encoder_open(const hl_text_format_t *fmt, int n_cols,
                                 const hl_type_t *const *types, const char *const *names,
                                 hl_text_writer_t **out, hl_error_t *err);
/* Encodes physical row ROW of BATCH as one record without its line
 * terminator; *out (borrowed) is valid until the next encoder call. */
hl_status_t hl_text_encoder_row(hl_text_writer_t *w, const hl_batch_t *batch, uint32_t row,
                                const char **out, size_t *len, hl_error_t *err);
/* Encodes the value of column COL at physical row ROW as a LazySimpleSerDe
 * field at level 1 (NULL as the null string), as ColumnarSerDe does. */
hl_status_t hl_text_encoder_field(hl_text_writer_t *w, const hl_batch_t *batch, int col,
                                  uint32_t row, const char **out, size_t *len, hl_error_t *err);

#endif
