/*
 * pq_meta.h -- Parquet metadata structures (parquet.thrift) and their
 * Thrift compact decoding and encoding.
 *
 * The reader (pq_reader.c) decodes the footer with hl_pq_footer_read, each
 * page header with hl_pq_page_header_decode and the page index with
 * hl_pq_column_index_decode / hl_pq_offset_index_decode; the writer
 * (pq_writer.c) fills the same structures and encodes them.  Field names
 * follow parquet.thrift; an optional field the code must tell apart from a
 * default has a has_<field> flag (or is a NULL pointer).  Enum fields hold
 * the value from the file unchanged, so a value newer than this code (an
 * encoding, a codec) is preserved for the consumer to reject.
 *
 * Ownership: decoded structures, their arrays and strings live in the arena
 * the caller passes (strings are copied, NUL-terminated, so the input
 * buffer may be freed after decoding).  Fields the code does not use
 * (SizeStatistics, geospatial statistics, bloom filter hashes, page-index
 * histograms) are skipped, as are unknown fields of any type.
 *
 * Errors: malformed input is HL_CORRUPT / XX001 with a message saying what
 * was wrong but not which file (the caller prefixes the file name);
 * encryption is HL_UNSUPPORTED / 0A000; OOM is HL_NOMEM.
 *
 * Spec: apache/parquet-format src/main/thrift/parquet.thrift, PageIndex.md.
 */
#ifndef HL_PQ_META_H
#define HL_PQ_META_H

#include "format/parquet/parquet.h"
#include "storage/stor.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------- enums */

typedef enum hl_pq_type { /* Type: physical types */
                          HL_PQ_BOOLEAN = 0,
                          HL_PQ_INT32 = 1,
                          HL_PQ_INT64 = 2,
                          HL_PQ_INT96 = 3,
                          HL_PQ_FLOAT = 4,
                          HL_PQ_DOUBLE = 5,
                          HL_PQ_BYTE_ARRAY = 6,
                          HL_PQ_FIXED_LEN_BYTE_ARRAY = 7
} hl_pq_type_t;

typedef enum hl_pq_converted { /* ConvertedType (legacy annotations) */
                               HL_PQ_CONV_UTF8 = 0,
                               HL_PQ_CONV_MAP = 1,
                               HL_PQ_CONV_MAP_KEY_VALUE = 2,
                               HL_PQ_CONV_LIST = 3,
                               HL_PQ_CONV_ENUM = 4,
                               HL_PQ_CONV_DECIMAL = 5,
                               HL_PQ_CONV_DATE = 6,
                               HL_PQ_CONV_TIME_MILLIS = 7,
                               HL_PQ_CONV_TIME_MICROS = 8,
                               HL_PQ_CONV_TIMESTAMP_MILLIS = 9,
                               HL_PQ_CONV_TIMESTAMP_MICROS = 10,
                               HL_PQ_CONV_UINT_8 = 11,
                               HL_PQ_CONV_UINT_16 = 12,
                               HL_PQ_CONV_UINT_32 = 13,
                               HL_PQ_CONV_UINT_64 = 14,
                               HL_PQ_CONV_INT_8 = 15,
                               HL_PQ_CONV_INT_16 = 16,
                               HL_PQ_CONV_INT_32 = 17,
                               HL_PQ_CONV_INT_64 = 18,
                               HL_PQ_CONV_JSON = 19,
                               HL_PQ_CONV_BSON = 20,
                               HL_PQ_CONV_INTERVAL = 21
} hl_pq_converted_t;

typedef enum hl_pq_repetition { /* FieldRepetitionType */
                                HL_PQ_REQUIRED = 0,
                                HL_PQ_OPTIONAL = 1,
                                HL_PQ_REPEATED = 2
} hl_pq_repetition_t;

typedef enum hl_pq_encoding { /* Encoding */
                              HL_PQ_ENC_PLAIN = 0,
                              HL_PQ_ENC_PLAIN_DICTIONARY = 2,
                              HL_PQ_ENC_RLE = 3,
                              HL_PQ_ENC_BIT_PACKED = 4,
                              HL_PQ_ENC_DELTA_BINARY_PACKED = 5,
                              HL_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
                              HL_PQ_ENC_DELTA_BYTE_ARRAY = 7,
                              HL_PQ_ENC_RLE_DICTIONARY = 8,
                              HL_PQ_ENC_BYTE_STREAM_SPLIT = 9
} hl_pq_encoding_t;

typedef enum hl_pq_page_type { /* PageType */
                               HL_PQ_PAGE_DATA = 0,
                               HL_PQ_PAGE_INDEX = 1,
                               HL_PQ_PAGE_DICTIONARY = 2,
                               HL_PQ_PAGE_DATA_V2 = 3
} hl_pq_page_type_t;

typedef enum hl_pq_boundary_order { /* BoundaryOrder */
                                    HL_PQ_UNORDERED = 0,
                                    HL_PQ_ASCENDING = 1,
                                    HL_PQ_DESCENDING = 2
} hl_pq_boundary_order_t;

/* LogicalType union member ids (0 = no logical type in the file). */
typedef enum hl_pq_logical_kind {
  HL_PQ_LT_NONE = 0,
  HL_PQ_LT_STRING = 1,
  HL_PQ_LT_MAP = 2,
  HL_PQ_LT_LIST = 3,
  HL_PQ_LT_ENUM = 4,
  HL_PQ_LT_DECIMAL = 5,
  HL_PQ_LT_DATE = 6,
  HL_PQ_LT_TIME = 7,
  HL_PQ_LT_TIMESTAMP = 8,
  HL_PQ_LT_INTEGER = 10,
  HL_PQ_LT_UNKNOWN = 11, /* NullType: only nulls */
  HL_PQ_LT_JSON = 12,
  HL_PQ_LT_BSON = 13,
  HL_PQ_LT_UUID = 14,
  HL_PQ_LT_FLOAT16 = 15,
  HL_PQ_LT_VARIANT = 16,
  HL_PQ_LT_GEOMETRY = 17,
  HL_PQ_LT_GEOGRAPHY = 18,
  HL_PQ_LT_VECTOR = 19,
  HL_PQ_LT_OTHER = 1000 /* a union member this code does not know */
} hl_pq_logical_kind_t;

typedef enum hl_pq_time_unit { /* TimeUnit union member ids */
                               HL_PQ_UNIT_NONE = 0,
                               HL_PQ_UNIT_MILLIS = 1,
                               HL_PQ_UNIT_MICROS = 2,
                               HL_PQ_UNIT_NANOS = 3
} hl_pq_time_unit_t;

typedef enum hl_pq_column_order {                          /* ColumnOrder union member ids */
                                  HL_PQ_ORDER_UNKNOWN = 0, /* a member this code does not know */
                                  HL_PQ_ORDER_TYPE_DEFINED = 1,
                                  HL_PQ_ORDER_IEEE_754_TOTAL = 2,
                                  HL_PQ_ORDER_INT96_TIMESTAMP = 3
} hl_pq_column_order_t;

/* ------------------------------------------------------------- structures */

typedef struct hl_pq_meta_bytes { /* a binary value (statistics bounds) */
  const uint8_t *ptr;             /* in the arena; NULL when len is 0 */
  size_t len;
} hl_pq_meta_bytes_t;

typedef struct hl_pq_kv { /* KeyValue */
  char *key;
  char *value; /* NULL when absent */
  size_t value_len;
} hl_pq_kv_t;

typedef struct hl_pq_logical { /* LogicalType */
  hl_pq_logical_kind_t kind;
  int32_t scale, precision; /* DECIMAL */
  hl_pq_time_unit_t unit;   /* TIME, TIMESTAMP */
  bool is_adjusted_to_utc;  /* TIME, TIMESTAMP */
  int8_t bit_width;         /* INTEGER: 8, 16, 32, 64 */
  bool is_signed;           /* INTEGER */
} hl_pq_logical_t;

typedef struct hl_pq_schema_elem { /* SchemaElement */
  char *name;                      /* required */
  bool has_type;                   /* false for groups */
  hl_pq_type_t type;
  bool has_type_length;
  int32_t type_length; /* FIXED_LEN_BYTE_ARRAY byte width */
  bool has_repetition; /* false for the root */
  hl_pq_repetition_t repetition;
  bool has_num_children;
  int32_t num_children;
  bool has_converted_type;
  hl_pq_converted_t converted_type;
  bool has_scale;
  int32_t scale;
  bool has_precision;
  int32_t precision;
  bool has_field_id;
  int32_t field_id;
  hl_pq_logical_t logical; /* kind HL_PQ_LT_NONE when absent */
} hl_pq_schema_elem_t;

typedef struct hl_pq_stats { /* Statistics */
  bool has_max, has_min, has_max_value, has_min_value;
  hl_pq_meta_bytes_t max, min;             /* deprecated signed-order bounds */
  hl_pq_meta_bytes_t max_value, min_value; /* bounds in the column order */
  bool has_null_count;
  int64_t null_count;
  bool has_distinct_count;
  int64_t distinct_count;
  bool has_is_max_value_exact;
  bool is_max_value_exact;
  bool has_is_min_value_exact;
  bool is_min_value_exact;
  bool has_nan_count;
  int64_t nan_count;
} hl_pq_stats_t;

typedef struct hl_pq_page_enc_stats { /* PageEncodingStats */
  hl_pq_page_type_t page_type;
  hl_pq_encoding_t encoding;
  int32_t count;
} hl_pq_page_enc_stats_t;

typedef struct hl_pq_column_meta { /* ColumnMetaData */
  hl_pq_type_t type;
  int n_encodings;
  hl_pq_encoding_t *encodings;
  int n_path;
  char **path_in_schema;
  hl_parquet_codec_t codec;
  int64_t num_values;
  int64_t total_uncompressed_size;
  int64_t total_compressed_size;
  int n_kv;
  hl_pq_kv_t *key_value_metadata;
  int64_t data_page_offset;
  bool has_index_page_offset;
  int64_t index_page_offset;
  bool has_dictionary_page_offset;
  int64_t dictionary_page_offset;
  hl_pq_stats_t *statistics; /* NULL when absent */
  int n_encoding_stats;
  hl_pq_page_enc_stats_t *encoding_stats;
  bool has_bloom_filter_offset;
  int64_t bloom_filter_offset;
  bool has_bloom_filter_length;
  int32_t bloom_filter_length;
} hl_pq_column_meta_t;

typedef struct hl_pq_column_chunk { /* ColumnChunk */
  char *file_path;                  /* NULL when absent (data in this file) */
  int64_t file_offset;              /* deprecated */
  hl_pq_column_meta_t *meta_data;   /* NULL when absent */
  bool has_offset_index_offset;
  int64_t offset_index_offset;
  bool has_offset_index_length;
  int32_t offset_index_length;
  bool has_column_index_offset;
  int64_t column_index_offset;
  bool has_column_index_length;
  int32_t column_index_length;
  bool encrypted; /* crypto_metadata or encrypted_column_metadata present */
} hl_pq_column_chunk_t;

typedef struct hl_pq_sorting_column { /* SortingColumn */
  int32_t column_idx;
  bool descending;
  bool nulls_first;
} hl_pq_sorting_column_t;

typedef struct hl_pq_row_group { /* RowGroup */
  int n_columns;
  hl_pq_column_chunk_t *columns;
  int64_t total_byte_size;
  int64_t num_rows;
  int n_sorting_columns;
  hl_pq_sorting_column_t *sorting_columns;
  bool has_file_offset;
  int64_t file_offset;
  bool has_total_compressed_size;
  int64_t total_compressed_size;
  bool has_ordinal;
  int16_t ordinal;
} hl_pq_row_group_t;

typedef struct hl_pq_file_meta { /* FileMetaData */
  int32_t version;
  int n_schema;
  hl_pq_schema_elem_t *schema; /* depth-first, [0] is the root */
  int64_t num_rows;
  int n_row_groups;
  hl_pq_row_group_t *row_groups;
  int n_kv;
  hl_pq_kv_t *key_value_metadata;
  char *created_by; /* NULL when absent */
  int n_column_orders;
  hl_pq_column_order_t *column_orders; /* one per leaf when present */
  bool encrypted; /* encryption_algorithm present (plaintext-footer encryption) */
} hl_pq_file_meta_t;

typedef struct hl_pq_data_page_header { /* DataPageHeader */
  int32_t num_values;
  hl_pq_encoding_t encoding;
  hl_pq_encoding_t definition_level_encoding;
  hl_pq_encoding_t repetition_level_encoding;
  hl_pq_stats_t *statistics; /* NULL when absent or not decoded */
} hl_pq_data_page_header_t;

typedef struct hl_pq_dict_page_header { /* DictionaryPageHeader */
  int32_t num_values;
  hl_pq_encoding_t encoding;
  bool has_is_sorted;
  bool is_sorted;
} hl_pq_dict_page_header_t;

typedef struct hl_pq_data_page_header_v2 { /* DataPageHeaderV2 */
  int32_t num_values;
  int32_t num_nulls;
  int32_t num_rows;
  hl_pq_encoding_t encoding;
  int32_t definition_levels_byte_length;
  int32_t repetition_levels_byte_length;
  bool is_compressed;        /* defaults to true when absent */
  hl_pq_stats_t *statistics; /* NULL when absent or not decoded */
} hl_pq_data_page_header_v2_t;

typedef struct hl_pq_page_header { /* PageHeader */
  hl_pq_page_type_t type;
  int32_t uncompressed_page_size; /* >= 0, checked */
  int32_t compressed_page_size;   /* >= 0, checked */
  bool has_crc;
  int32_t crc; /* CRC-32 of the page bytes after the header (hl_pq_crc32) */
  bool has_data_page_header;
  hl_pq_data_page_header_t data_page_header;
  bool has_index_page_header; /* IndexPageHeader has no fields */
  bool has_dictionary_page_header;
  hl_pq_dict_page_header_t dictionary_page_header;
  bool has_data_page_header_v2;
  hl_pq_data_page_header_v2_t data_page_header_v2;
} hl_pq_page_header_t;

typedef struct hl_pq_column_index { /* ColumnIndex */
  int n_pages;
  bool *null_pages;               /* [n_pages] */
  hl_pq_meta_bytes_t *min_values; /* [n_pages] */
  hl_pq_meta_bytes_t *max_values; /* [n_pages] */
  hl_pq_boundary_order_t boundary_order;
  bool has_null_counts;
  int64_t *null_counts; /* [n_pages] when has_null_counts */
} hl_pq_column_index_t;

typedef struct hl_pq_page_location { /* PageLocation */
  int64_t offset;
  int32_t compressed_page_size; /* including the page header */
  int64_t first_row_index;
} hl_pq_page_location_t;

typedef struct hl_pq_offset_index { /* OffsetIndex */
  int n_pages;
  hl_pq_page_location_t *page_locations;
} hl_pq_offset_index_t;

/* ------------------------------------------------------------- decoding */

/* Decodes a FileMetaData from BUF[0..len) into ARENA (OUT *META).  Checks:
 * required fields present, the schema non-empty, counts and sizes
 * non-negative.  HL_CORRUPT, HL_NOMEM. */
hl_status_t hl_pq_file_meta_decode(hl_arena_t *arena, const void *buf, size_t len,
                                   hl_pq_file_meta_t **meta, hl_error_t *err);

/* Decodes one PageHeader from the start of BUF[0..len) into OUT; *CONSUMED
 * is the header's length in bytes.  Page statistics are decoded into ARENA
 * when it is non-NULL and skipped when it is NULL (then nothing is
 * allocated).  When the header runs past LEN, returns HL_CORRUPT and sets
 * *NEED_MORE (may be NULL) so a caller holding only a prefix can retry with
 * more bytes.  Checks sizes >= 0 and that the header for TYPE is present. */
hl_status_t hl_pq_page_header_decode(hl_arena_t *arena, const void *buf, size_t len,
                                     hl_pq_page_header_t *out, size_t *consumed, bool *need_more,
                                     hl_error_t *err);

/* ColumnIndex / OffsetIndex (page index, PageIndex.md) into ARENA.  The
 * column index's lists must all have the same length. */
hl_status_t hl_pq_column_index_decode(hl_arena_t *arena, const void *buf, size_t len,
                                      hl_pq_column_index_t **out, hl_error_t *err);
hl_status_t hl_pq_offset_index_decode(hl_arena_t *arena, const void *buf, size_t len,
                                      hl_pq_offset_index_t **out, hl_error_t *err);

/* Reads and decodes the footer of the open file F (borrowed): checks the
 * size (>= 12 bytes), the trailing "PAR1" magic (the leading one is not
 * read: it would cost a second round trip on S3), the 4-byte
 * little-endian footer length against the file size, then decodes it into
 * ARENA.  OUT *FILE_SIZE (may be NULL) is the file's size.  An encrypted
 * footer ("PARE") or plaintext-footer encryption is HL_UNSUPPORTED 0A000;
 * malformed is HL_CORRUPT; I/O errors as the storage reports them. */
hl_status_t hl_pq_footer_read(hl_stor_file_t *f, hl_arena_t *arena, hl_pq_file_meta_t **meta,
                              uint64_t *file_size, hl_error_t *err);

/* The byte range [*START, *START + *LEN) of column chunk C's pages in a file
 * of FILE_SIZE bytes written per META: it starts at the dictionary page when
 * dictionary_page_offset is set, positive and before data_page_offset (some
 * writers set it to 0), else at data_page_offset, and spans
 * total_compressed_size.  Files from parquet-mr before 1.2.9 left the
 * dictionary page header out of total_compressed_size (PARQUET-816), so for
 * them the range is padded by up to 100 bytes, within the file.  HL_CORRUPT
 * when the range is negative or passes the end of the file. */
hl_status_t hl_pq_column_chunk_range(const hl_pq_file_meta_t *meta, const hl_pq_column_meta_t *c,
                                     uint64_t file_size, uint64_t *start, uint64_t *len,
                                     hl_error_t *err);

/* ------------------------------------------------------------- encoding */

/* Each appends the Thrift compact encoding to OUT.  Only HL_NOMEM fails.
 * Fields flagged absent (has_* false, NULL pointers) are not written. */
hl_status_t hl_pq_file_meta_encode(const hl_pq_file_meta_t *meta, hl_buf_t *out, hl_error_t *err);
hl_status_t hl_pq_page_header_encode(const hl_pq_page_header_t *ph, hl_buf_t *out, hl_error_t *err);
hl_status_t hl_pq_column_index_encode(const hl_pq_column_index_t *ci, hl_buf_t *out,
                                      hl_error_t *err);
hl_status_t hl_pq_offset_index_encode(const hl_pq_offset_index_t *oi, hl_buf_t *out,
                                      hl_error_t *err);

/* FileMetaData in pieces, for a writer that keeps each flushed row group as
 * bytes instead of structures (pq_writer.c: its memory then stays small per
 * row group).  The concatenation
 *
 *   file_meta_encode_head(m)          fields up to the row_groups list header
 *   for each row group g of m:
 *     row_group_encode_head(g)        the columns list header (g->n_columns)
 *     for each chunk c of g:
 *       column_chunk_encode_head(c)   file_path, file_offset, meta_data
 *       column_chunk_encode_tail(c)   the page-index fields 4..7, stop
 *     row_group_encode_tail(g)        the fields after columns, stop
 *   file_meta_encode_tail(m)          the fields after row_groups, stop
 *
 * is byte for byte what hl_pq_file_meta_encode(m) writes (it is made of the
 * same pieces).  The heads ignore what their tails write and the other way
 * round, except that a chunk's tail reads c->file_path and c->meta_data
 * only to know which field its head ended with (a compact-protocol field
 * id is a delta from the one before), so they must be as for the head. */
hl_status_t hl_pq_file_meta_encode_head(const hl_pq_file_meta_t *m, hl_buf_t *out, hl_error_t *err);
hl_status_t hl_pq_file_meta_encode_tail(const hl_pq_file_meta_t *m, hl_buf_t *out, hl_error_t *err);
hl_status_t hl_pq_row_group_encode_head(const hl_pq_row_group_t *g, hl_buf_t *out, hl_error_t *err);
hl_status_t hl_pq_row_group_encode_tail(const hl_pq_row_group_t *g, hl_buf_t *out, hl_error_t *err);
hl_status_t hl_pq_column_chunk_encode_head(const hl_pq_column_chunk_t *c, hl_buf_t *out,
                                           hl_error_t *err);
hl_status_t hl_pq_column_chunk_encode_tail(const hl_pq_column_chunk_t *c, hl_buf_t *out,
                                           hl_error_t *err);

/* ------------------------------------------------------------- names */

/* Upper-case names from parquet.thrift ("INT32", "RLE_DICTIONARY"); "?"
 * for values this code does not know.  Static strings. */
const char *hl_pq_type_name(hl_pq_type_t type);
const char *hl_pq_encoding_name(hl_pq_encoding_t enc);
const char *hl_pq_page_type_name(hl_pq_page_type_t type);

#endif
