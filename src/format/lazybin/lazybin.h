/*
 * lazybin.h -- Hive's LazyBinary encoding (LazyBinarySerDe rows,
 * LazyBinaryColumnarSerDe cells): values to bytes and back.
 *
 * A LazyBinarySerDe row (the value of a SequenceFile record) is a struct:
 * per group of 8 fields a null byte (bit i set: field i is present), then
 * the group's present fields.  Scalars: BOOLEAN and TINYINT one byte,
 * SMALLINT 2 bytes big-endian, INT, BIGINT and DATE (days) Hadoop vlongs,
 * FLOAT/DOUBLE IEEE big-endian, STRING/VARCHAR/CHAR (CHAR without its
 * padding) and BINARY a vint length and the bytes, TIMESTAMP
 * TimestampWritable's bytes, DECIMAL a vint scale, vint length and the
 * unscaled big-endian two's complement bytes.  Nested ARRAY, MAP and
 * STRUCT values start with their byte size (4 bytes big-endian), then an
 * element count (ARRAY, MAP: vint) and null bits (ARRAY: one per element,
 * MAP: two per entry, key then value; all before the values), or the
 * struct's groups.  Spec: Hive's LazyBinarySerDe and LazyBinaryUtils.
 *
 * LazyBinaryColumnarSerDe cells (rcfile/) use the same scalars, without
 * the length of strings and binaries (the cell has one); rcfile.c takes
 * the timestamp and decimal codecs from here.
 */
#ifndef HL_LAZYBIN_H
#define HL_LAZYBIN_H

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/type.h"
#include "util/value.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The N-byte (N <= 8) big-endian two's complement integer at P,
 * sign-extended; and its writer (the low N bytes of V).  LazyBinary's
 * SMALLINT, FLOAT and DOUBLE, and sizes; RCFile's binary cells too. */
int64_t hl_lazybin_be_int(const unsigned char *p, int n);
void hl_lazybin_put_be(hl_buf_t *b, uint64_t v, int n);

/* Nesting deeper than this is refused (a row is decoded recursively). */
#define HL_LAZYBIN_MAX_DEPTH 64

/* HL_OK when every column type can be written and read (no UNIONTYPE or
 * other type LazyBinary has no form for here; 0A000 naming the column). */
hl_status_t hl_lazybin_check_types(int n_cols, const hl_type_t *const *types,
                                   const char *const *names, hl_error_t *err);

/* Appends the row VALS[0..n_cols) (of TYPES) to B. */
void hl_lazybin_encode_row(hl_buf_t *b, int n_cols, const hl_type_t *const *types,
                           const hl_value_t *vals);

/* Decodes the row P[0..n) into OUT[0..n_cols) (values and strings in
 * ARENA).  Columns past the end of the row are NULL, as Hive reads rows
 * written with fewer columns; PROJECTED (NULL: all) false leaves a column
 * NULL without converting it.  Malformed bytes (a length past the row, a
 * bad vint, nesting past HL_LAZYBIN_MAX_DEPTH) give false with *WHY set;
 * only running out of memory is an error (HL_NOMEM in ERR). */
hl_status_t hl_lazybin_decode_row(const unsigned char *p, size_t n, int n_cols,
                                  const hl_type_t *const *types, const bool *projected,
                                  hl_value_t *out, hl_arena_t *arena, bool *ok, const char **why,
                                  hl_error_t *err);

/* A LazyBinaryColumnarSerDe cell of an ARRAY, MAP, STRUCT or UNIONTYPE column: the
 * value as in a row but without its 4-byte size (Hive serializes cells
 * with skipLengthPrefix); a NULL value writes nothing. */
void hl_lazybin_encode_cell(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v);
/* Decodes such a cell P[0..n) (n > 0) into *OUT; as hl_lazybin_decode_row
 * for *OK, *WHY and errors. */
hl_status_t hl_lazybin_decode_cell(const unsigned char *p, size_t n, const hl_type_t *type,
                                   hl_value_t *out, hl_arena_t *arena, bool *ok, const char **why,
                                   hl_error_t *err);

/* TimestampWritable's bytes of MICROS appended to B. */
void hl_lazybin_put_timestamp(hl_buf_t *b, int64_t micros);
/* Decodes a TimestampWritable at P[0..n): *USED bytes, *MICROS; false when
 * malformed. */
bool hl_lazybin_get_timestamp(const unsigned char *p, size_t n, size_t *used, int64_t *micros);
/* HiveDecimalWritable's bytes (trailing zeros dropped, as HiveDecimal
 * keeps none) of the unscaled V at SCALE appended to B. */
void hl_lazybin_put_decimal(hl_buf_t *b, __int128 v, int scale);
/* Decodes a decimal at P[0..n) into *OUT of TYPE (rescaled to its scale
 * and checked against its precision Hive's way: NULL when it does not
 * fit); *USED bytes.  False when malformed; HL_NOMEM only in ERR. */
hl_status_t hl_lazybin_get_decimal(hl_arena_t *arena, const hl_type_t *type, const unsigned char *p,
                                   size_t n, size_t *used, bool *ok, hl_value_t *out,
                                   hl_error_t *err);

#endif
