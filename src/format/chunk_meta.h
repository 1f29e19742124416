/*
 * chunk_meta.h -- what a file's own statistics say exactly of one column
 * in one unit of the file (a Parquet row group, an ORC stripe), so that a
 * caller that needs no row positions (PROFILE) can take the column's
 * metrics without decoding it.
 *
 * A reader answers a column only where its statistics leave no doubt: the
 * null count is recorded and consistent with the row count, and either
 * every row is NULL or the minimum equals the maximum (then every non-NULL
 * value is that value: a true lower bound equal to a true upper bound),
 * from statistics the reader already trusts to skip data (the same
 * writer-version and column-order rules), never for FLOAT/DOUBLE without a
 * NaN count (statistics leave NaN out).  Readers: hl_parquet_reader_meta,
 * hl_orc_reader_meta.
 */
#ifndef HL_CHUNK_META_H
#define HL_CHUNK_META_H

#include "util/value.h"

#include <stdint.h>

typedef struct hl_chunk_meta {
  int64_t values;   /* non-NULL rows: each holds VALUE (unset when 0 or not asked) */
  int64_t nulls;    /* NULL rows */
  hl_value_t value; /* of the column's table type; strings valid until the reader closes */
} hl_chunk_meta_t;

#endif
