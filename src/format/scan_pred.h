/*
 * scan_pred.h -- predicates a scan pushes into the file readers.
 *
 * The binder turns conjuncts "column op constant" of a WHERE clause into
 * hl_scan_pred_t; the Parquet reader (row groups, pages) and the ORC
 * reader (stripes) use them to skip data whose statistics rule every row
 * out.  Implementation: scan_pred.c.
 */
#ifndef HL_SCAN_PRED_H
#define HL_SCAN_PRED_H

#include "util/type.h"
#include "util/value.h"

#include <stdbool.h>
#include <stdint.h>

/* A pushed-down predicate "column op constant" (conjunctive), used to skip
 * Parquet row groups (min/max/null-count statistics) and pages (column
 * index) and ORC stripes (stripe statistics).
 * Rows are NOT filtered by the reader: the filter operator still runs. */
typedef enum hl_pred_op {
  HL_PRED_EQ,
  HL_PRED_NE,
  HL_PRED_LT,
  HL_PRED_LE,
  HL_PRED_GT,
  HL_PRED_GE,
  HL_PRED_IS_NULL,
  HL_PRED_IS_NOT_NULL
} hl_pred_op_t;

typedef struct hl_scan_pred {
  int col; /* data column index (0..n_cols) */
  hl_pred_op_t op;
  hl_value_t value; /* of the column's table type; unused for IS [NOT] NULL */
} hl_scan_pred_t;

/* True when no row of a unit (row group, page, ORC stripe) whose values of
 * type T lie in [MN, MX] -- NULL_COUNT NULLs among N_VALUES rows, -1 when
 * unknown -- can satisfy P.  HAS_BOUNDS false: only the null counts are
 * known.  FLOAT_COL: a FLOAT/DOUBLE column, which may hold NaN when
 * MAY_HAVE_NAN.  Used by the Parquet and ORC readers. */
bool hl_scan_pred_excludes(const hl_scan_pred_t *p, const hl_type_t *t, bool has_bounds,
                           const hl_value_t *mn, const hl_value_t *mx, int64_t null_count,
                           int64_t n_values, bool float_col, bool may_have_nan);

#endif
