/*
 * hms_stats_map.h -- column statistics records (catalog.h) as the
 * metastore's ColumnStatisticsObj and back; shared by the metastore server
 * and the client backend (hms_stats_map.c says how they map).
 */
#ifndef HL_HMS_STATS_MAP_H
#define HL_HMS_STATS_MAP_H

#include "catalog/catalog.h"
#include "hms/hms_ddl.h"
#include "util/type.h"

/* The ColumnStatisticsData kind (HL_HMS_STATS_*) of columns of type T; 0
 * for types Hive keeps no statistics of. */
int hl_hms_stats_kind(const hl_type_t *t);

/* S as an object O (in ARENA) for a column of type COL_TYPE (NULL: the
 * type S was analyzed with).  A type without Hive statistics is 42804. */
hl_status_t hl_hms_stats_to_obj(hl_arena_t *arena, const char *col_type,
                                const hl_cat_col_stats_t *s, hl_hms_stats_obj_t *o,
                                hl_error_t *err);

/* O, the statistics of column COL_NAME of type COL_TYPE, as a record S (in
 * ARENA) analyzed at ANALYZED; a kind that is not the type's is 42804, a
 * decimal that does not fit 22023. */
hl_status_t hl_hms_stats_from_obj(hl_arena_t *arena, const char *col_name, const char *col_type,
                                  const hl_hms_stats_obj_t *o, int64_t analyzed,
                                  hl_cat_col_stats_t *s, hl_error_t *e);

#endif
