/*
 * incr.h -- a table's incremental field: the column whose values tell new
 * rows from old ones.
 *
 * It is kept in two table properties, so that Hive, SHOW TBLPROPERTIES and
 * DESCRIBE FORMATTED carry it like any other:
 *
 *   hivelite.incremental.field  a column name (case-insensitive)
 *   hivelite.incremental.kind   date | batch | value (absent: value)
 *
 * `date` and `batch` are for the table's first partition column declared
 * STRING, whose values are text dates or batch numbers (util/partorder.h):
 * an incremental scan then reads whole partitions after its checkpoint.
 * `value` is for a data column of a timestamp, date or numeric type, or any
 * partition column: the checkpoint is the highest value read.  ALTER TABLE
 * ... SET TBLPROPERTIES refuses an unknown column, an unknown kind, and
 * `date`/`batch` on a column that is not STRING (hl_incr_props_check); a
 * `date`/`batch` field that is not the first partition column is stored
 * (partition columns cannot be reordered, but the properties can be set
 * before the fact by tools) and refused when a scan resolves it
 * (hl_incr_field_get).  MSCK, ADD PARTITION and CTAS set a text-date
 * first partition column when the table names none
 * (command/cmd_incr.c, with hl_incr_auto_field).
 */
#ifndef HL_PLAN_INCR_H
#define HL_PLAN_INCR_H

#include "plan/table.h"
#include "util/partorder.h"

#define HL_INCR_FIELD_KEY "hivelite.incremental.field"
#define HL_INCR_KIND_KEY  "hivelite.incremental.kind"

enum { HL_INCR_NONE = 0, HL_INCR_DATE, HL_INCR_BATCH, HL_INCR_VALUE };

typedef struct hl_incr_field {
  int col;      /* index in the hl_table_t layout (data columns, then keys); -1: none */
  int kind;     /* HL_INCR_NONE (no field), HL_INCR_DATE, HL_INCR_BATCH, HL_INCR_VALUE */
  bool is_part; /* col is a partition column ... */
  int part_idx; /* ... this one (0 = the first); -1 for a data column */
} hl_incr_field_t;

/* The incremental field of T from its properties: *OUT with kind
 * HL_INCR_NONE and col -1 when the table names none.  Errors (messages
 * name the table and the column): 42703 an unknown column; 22023 an
 * unknown kind, a kind without a field, `date`/`batch` on a column that
 * is not STRING or not the table's first partition column (naming that
 * column too), `value` on a data column that is not of a timestamp, date
 * or numeric type. */
hl_status_t hl_incr_field_get(const hl_table_t *t, hl_incr_field_t *out, hl_error_t *err);

/* The checks of ALTER TABLE ... SET / UNSET TBLPROPERTIES and CREATE
 * TABLE on PARAMS[0..n) (the properties the table will have, over T's
 * columns): those of hl_incr_field_get, except that a `date`/`batch`
 * field may be a partition column other than the first. */
hl_status_t hl_incr_props_check(const hl_table_t *t, const hl_kv_t *params, int n, hl_error_t *err);

/* How T's properties say its first partition column compares, leniently
 * (for ordering, never an error): HL_INCR_DATE or HL_INCR_BATCH when the
 * incremental field is that column (a STRING) with that kind, else
 * HL_INCR_NONE. */
int hl_incr_first_key_kind(const hl_table_t *t);

/* Whether MSCK / ADD PARTITION / CTAS should make T's first partition
 * column its incremental field of kind `date`: T names no incremental
 * field, its first partition column is STRING, and of its N partitions
 * the N_TDATES whose first values are text dates (in any format; the
 * default partition's is not) are more than half (hl_tdate_majority, the
 * rule of hl_tdate_recognise).  The counts are per partition, not per
 * distinct value, and the format does not matter (the field records the
 * kind `date` only), so the metastore keeps just the two counts
 * (catalog.h hl_cat_partition_tdates). */
bool hl_incr_auto_field(const hl_table_t *t, size_t n, size_t n_tdates);

#endif
