/*
 * projection.h -- Athena-compatible partition projection.
 *
 * A table with TBLPROPERTIES projection.enabled=true has no partition list:
 * its partitions are computed at plan time from projection.<col>.type
 * (enum | integer | date | injected) and the per-type properties (values,
 * range incl. NOW[+-N UNIT], interval, interval.unit, digits, format), with
 * locations from storage.location.template or the Hive default layout.
 * The catalog's registered partitions of such a table are ignored, as
 * Athena does.
 */
#ifndef HL_PROJECTION_H
#define HL_PROJECTION_H

#include "vector/expr.h"
#include "plan/table.h"

/* True when T has projection.enabled = true (case-insensitive). */
bool hl_plan_projection_enabled(const hl_table_t *t);

/* The partitions of projected table T that satisfy every conjunct of PREDS
 * (bound over the scan layout, referencing partition keys only).  Each
 * column is enumerated by index without materialising its range: an
 * equality or IN pin on a column jumps to the pinned values; other
 * single-column conjuncts are evaluated in batches while the column is
 * enumerated; the cross product of the survivors is filtered by all
 * conjuncts.  NOW_SECS is the UTC time used for NOW bounds.  OUT (in ARENA)
 * and *N_OUT; *N_TOTAL is the size of the whole projected space
 * (saturating).  Errors: 42P16 for a missing or malformed projection
 * property (naming it), 22023 for an injected column without a pin,
 * 54000 when the selected set exceeds hivelite.max_partitions_per_table. */
hl_status_t hl_plan_projection_prune(const hl_session_t *s, const hl_table_t *t,
                                     hl_expr_t *const *preds, int n_preds, int64_t now_secs,
                                     hl_arena_t *arena, hl_cat_partition_t **out, size_t *n_out,
                                     size_t *n_total, hl_error_t *err);

#endif
