/*
 * avro.h -- Hive AVRO tables: Avro object container files read and written
 * as Hive's AvroSerDe does.
 *
 * A table's schema (the reader schema) is Hive's: the serde or table
 * property avro.schema.literal, else avro.schema.url (a local file; a
 * remote URL is 0A000), else one derived from the table's columns, every
 * column a union of null and its type (Hive's TypeInfoToSchema).  Each
 * file's own schema (the writer schema, in its header) is resolved against
 * it by the Avro specification's rules (avro_resolve.c).
 *
 * Types map as Hive's AvroSerDe maps them: boolean, int, long, float,
 * double, string, bytes -> BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, STRING,
 * BINARY; enum -> STRING, fixed -> BINARY; record, array, map -> STRUCT,
 * ARRAY, MAP<STRING,...>; a union of null and one type -> that type
 * (nullable), a union of several other branches -> UNIONTYPE of them in
 * order (null anywhere only making it nullable: the tags index the other
 * branches), a union of only null 0A000; logical types decimal (bytes or fixed),
 * date, timestamp-millis, timestamp-micros, char and varchar (maxLength).
 *
 * Spec: https://avro.apache.org/docs/1.11.1/specification/ (Object
 * Container Files, Schema Resolution, Logical Types).
 */
#ifndef HL_AVRO_H
#define HL_AVRO_H

#include "storage/stor.h"
#include "util/kv.h"
#include "vector/vector.h"

#include <stdbool.h>
#include <stdint.h>

/* A parsed schema (schema nodes in the arena it was parsed in). */
typedef struct hl_avro_schema hl_avro_schema_t;

/* Block codecs ("avro.codec" of a file). */
typedef enum hl_avro_codec {
  HL_AVRO_NULL,
  HL_AVRO_DEFLATE,
  HL_AVRO_SNAPPY,
  HL_AVRO_ZSTD,
  HL_AVRO_XZ,
  HL_AVRO_BZIP2
} hl_avro_codec_t;

/* The codec named NAME as avro.output.codec names it ("null", "deflate",
 * "snappy", "zstandard" or "zstd", "xz", "bzip2"; case-insensitive).
 * Another name is 22023. */
hl_status_t hl_avro_codec_from_name(const char *name, hl_avro_codec_t *out, hl_error_t *err);
const char *hl_avro_codec_name(hl_avro_codec_t codec); /* the name files carry */

/* Parses the schema JSON TEXT[0..len) into ARENA.  Malformed JSON, an
 * invalid schema or a recursive one is 42P16 (what says where the text
 * came from, for the message). */
hl_status_t hl_avro_schema_parse(hl_arena_t *arena, const char *text, size_t len, const char *what,
                                 hl_avro_schema_t **out, hl_error_t *err);

/* The table's reader schema, as Hive finds it: avro.schema.literal of the
 * TBL parameters, else of the SERDE parameters (Hive lays the table's over
 * the serde's), else avro.schema.url (in the same order) (a local path or
 * file: URL read through FS; another scheme is 0A000), else derived from
 * the columns (N_COLS, TYPES, NAMES; record name RECORD_NAME or
 * "baseRecord").  *out is NULL-free on HL_OK.  Strings in ARENA. */
hl_status_t hl_avro_table_schema(hl_stor_t *fs, hl_arena_t *arena, const hl_kv_t *serde_params,
                                 int n_serde_params, const hl_kv_t *tbl_params, int n_tbl_params,
                                 int n_cols, const hl_type_t *const *types,
                                 const char *const *names, hl_avro_schema_t **out, hl_error_t *err);
/* *PATH: the local schema file hl_avro_table_schema would read
 * (avro.schema.url when no avro.schema.literal wins over it, as an absolute
 * path normalized in ARENA), else NULL.  Callers check it against the location allowlist
 * (session/loc_allow.h, a stage above format/) before every read of the
 * schema: at CREATE/ALTER, at each scan and at each write, so that an
 * allowlist narrowed later also holds for tables created before. */
hl_status_t hl_avro_schema_file(hl_arena_t *arena, const hl_kv_t *serde_params, int n_serde_params,
                                const hl_kv_t *tbl_params, int n_tbl_params, const char **path,
                                hl_error_t *err);
/* True when the parameters name a schema (literal or URL): the table's
 * columns then come from it. */
bool hl_avro_has_schema_param(const hl_kv_t *serde_params, int n_serde_params,
                              const hl_kv_t *tbl_params, int n_tbl_params);

/* The columns of a record schema as Hive maps them (*n, names, types in
 * ARENA).  A top-level schema that is not a record, or a type Hive cannot
 * map (a union of only null, a standalone null), is 0A000. */
hl_status_t hl_avro_schema_columns(const hl_avro_schema_t *schema, hl_arena_t *arena, int *n,
                                   char ***names, hl_type_t ***types, hl_error_t *err);

/* The schema as JSON (canonical enough for a file header), in ARENA. */
char *hl_avro_schema_json(const hl_avro_schema_t *schema, hl_arena_t *arena);

/* ---------------------------------------------------------------- reader */

typedef struct hl_avro_reader hl_avro_reader_t;

/* Opens PATH: reads the header (magic, metadata, sync marker), parses the
 * writer schema and resolves it against SCHEMA (the table's, borrowed until
 * close) for the columns N_COLS, TYPES, NAMES (matched to SCHEMA's fields by
 * name, ignoring case; a column SCHEMA lacks reads NULL).  PROJECTED NULL:
 * all.  With nothing projected the reader only counts rows from the block
 * headers.  A 0-byte file is empty.  Not an Avro file or malformed: XX001
 * naming the file (and the offset); a writer schema that cannot be resolved
 * against the reader's: 42804; an unknown codec: 0A000.  Caller closes. */
hl_status_t hl_avro_reader_open(hl_stor_t *fs, const char *path, const hl_avro_schema_t *schema,
                                int n_cols, const hl_type_t *const *types, const char *const *names,
                                const bool *projected, hl_avro_reader_t **out, hl_error_t *err);
/* Fills columns [0, n_cols) of BATCH (reset by the caller) with up to
 * HL_BATCH_CAP rows; batch->n_rows == 0 at end of file. */
hl_status_t hl_avro_reader_next(hl_avro_reader_t *r, hl_batch_t *batch, hl_error_t *err);
/* Reads only the blocks that start in the byte range [BEGIN, END) of the
 * file (a split: the reader seeks to the first sync marker at or after
 * BEGIN, as Hadoop's AvroRecordReader does).  Call before the first next. */
hl_status_t hl_avro_reader_set_range(hl_avro_reader_t *r, uint64_t begin, uint64_t end,
                                     hl_error_t *err);
/* Shares the file with the other threads of a parallel scan: it is cut
 * into pieces of PIECE_BYTES (the last one shorter), piece i the byte range
 * [i * PIECE_BYTES, (i + 1) * PIECE_BYTES) read as hl_avro_reader_set_range
 * reads a split, and this reader reads piece i only when (BASE + i) % N ==
 * W.  A batch then holds the rows of one piece
 * (hl_avro_reader_current_piece).  Call before the first next, instead of
 * set_range.  Returns the number of pieces. */
size_t hl_avro_reader_share(hl_avro_reader_t *r, uint64_t piece_bytes, size_t base, int n, int w);
/* The piece the rows of the last batch came from (shared readers). */
size_t hl_avro_reader_current_piece(const hl_avro_reader_t *r);
/* Blocks whose header this reader has read. */
uint64_t hl_avro_reader_blocks(const hl_avro_reader_t *r);
void hl_avro_reader_close(hl_avro_reader_t *r); /* NULL is a no-op */

/* ---------------------------------------------------------------- writer */

typedef struct hl_avro_writer hl_avro_writer_t;

/* Creates PATH (exclusive) and writes the header: SCHEMA (borrowed until
 * close) as avro.schema, CODEC as avro.codec (LEVEL 0: the codec's
 * default), SYNC (16 bytes; NULL draws one).  Columns N_COLS, TYPES, NAMES
 * are matched to SCHEMA's top-level fields by name ignoring case (a field
 * with no column is written as its default, or null).  A column whose
 * type the schema cannot hold is 42804.  Caller closes or aborts. */
hl_status_t hl_avro_writer_open(hl_stor_t *fs, const char *path, const hl_avro_schema_t *schema,
                                hl_avro_codec_t codec, int level, const uint8_t *sync, int n_cols,
                                const hl_type_t *const *types, const char *const *names,
                                hl_avro_writer_t **out, hl_error_t *err);
/* Encodes the live rows of BATCH; a block is written once it holds 64 KiB
 * (avro.mapred.sync.interval's default).  A value the schema cannot hold
 * (NULL -- or a UNIONTYPE whose value is NULL -- into a non-nullable
 * field, a string not among an enum's symbols,
 * binary of the wrong size for a fixed, a decimal that does not fit) is
 * 22000 naming the column. */
hl_status_t hl_avro_writer_write(hl_avro_writer_t *w, const hl_batch_t *batch, hl_error_t *err);
/* Writes the last block, syncs, closes and frees W (also on error). */
hl_status_t hl_avro_writer_close(hl_avro_writer_t *w, hl_error_t *err);
void hl_avro_writer_abort(hl_avro_writer_t *w); /* NULL is a no-op */
/* Encoded (uncompressed) record bytes so far, plus one per row (for the
 * rawDataSize statistic, counted as for text). */
uint64_t hl_avro_writer_raw_bytes(const hl_avro_writer_t *w);
/* Bytes appended to the file so far (for file roll-over). */
uint64_t hl_avro_writer_file_bytes(const hl_avro_writer_t *w);
/* Bytes of memory W holds (the open block, its compressed form, bytes
 * not yet appended). */
uint64_t hl_avro_writer_mem(const hl_avro_writer_t *w);

#endif
