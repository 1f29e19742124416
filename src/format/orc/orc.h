/*
 * orc.h -- Apache ORC files: the reader (and, later, the writer).
 *
 * An ORC file is "ORC", then stripes (index streams, data streams, a
 * stripe footer naming every stream and column encoding), then the file
 * tail: Metadata (stripe statistics), Footer (schema as a flattened type
 * tree, stripe list, file statistics), PostScript (compression, lengths),
 * and one final byte holding the PostScript's length.  Everything except
 * the PostScript is split into compression chunks.
 *
 * Spec: https://orc.apache.org/specification/ORCv1/ (apache/orc
 * site/specification/ORCv1.md).  Implementation: orc_tail.c (tail and
 * stripe footers), orc_codec.c (chunks and codecs), orc_rle.c (run-length
 * encodings), orc_column.c (one decoder per type), orc_reader.c (schema
 * binding, stripes, batches).
 */
#ifndef HL_ORC_H
#define HL_ORC_H

#include "exec/vector.h"
#include "format/scan_pred.h"
#include "storage/stor.h"

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------------ reader */

typedef struct hl_orc_reader hl_orc_reader_t;

/* Opens PATH and reads its tail.  The table has N_COLS columns of TYPES
 * named NAMES (all borrowed until close); PROJECTED[i] false (or the whole
 * array NULL = all) leaves column i unread and all NULL.  Columns are
 * matched to the file's top-level fields by name ignoring case, or by
 * position when the file's fields are Hive's _col0, _col1, ...; a column
 * missing from the file reads NULL.  Integer widening and FLOAT -> DOUBLE
 * are allowed; another type mismatch is HL_ERROR 42804 naming file and
 * column.  A projected UNION column is HL_UNSUPPORTED 0A000.  A malformed
 * file is HL_CORRUPT XX001 "cannot read \"PATH\": ...".  A 0-byte file
 * reads as empty.  PREDS (borrowed until close, may be NULL) are pushed
 * predicates: stripes whose statistics show that no row can satisfy them
 * are skipped (rows are not filtered).  Caller closes. */
hl_status_t hl_orc_reader_open(hl_stor_t *fs, const char *path, int n_cols,
                               const hl_type_t *const *types, const char *const *names,
                               const bool *projected, const hl_scan_pred_t *preds, int n_preds,
                               hl_orc_reader_t **out, hl_error_t *err);
/* Fills columns [0, n_cols) of BATCH (reset by the caller) with up to
 * HL_BATCH_CAP rows; batch->n_rows == 0 at end of file.  After an error the
 * reader only reports HL_MISUSE. */
hl_status_t hl_orc_reader_next(hl_orc_reader_t *r, hl_batch_t *batch, hl_error_t *err);
void hl_orc_reader_close(hl_orc_reader_t *r); /* NULL is a no-op */

/* Stripes in the file and stripes actually decoded so far (EXPLAIN
 * ANALYZE).  */
void hl_orc_reader_stripes(const hl_orc_reader_t *r, uint64_t *total, uint64_t *read);

/* The file's top-level fields as Hive types (tests, tools): *N_OUT fields,
 * TYPES and NAMES in ARENA.  A UNION anywhere is HL_UNSUPPORTED 0A000
 * naming the field. */
hl_status_t hl_orc_file_schema(hl_stor_t *fs, const char *path, hl_arena_t *arena, int *n_out,
                               hl_type_t ***types, char ***names, hl_error_t *err);

#endif
