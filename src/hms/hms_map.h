/*
 * hms_map.h -- hivelite's catalog records as the Hive Metastore's Thrift
 * structs, filled as Hive's own metastore shows them (table types, file:
 * locations, the default partition's name, Hive's catalog name "hive").
 */
#ifndef HL_HMS_MAP_H
#define HL_HMS_MAP_H

#include "catalog/catalog.h"
#include "hms/hms.h"

/* The name of Hive's default catalog (Hive 3+ clients send "@hive#db"). */
#define HL_HMS_CATALOG "hive"

/* Everything below is allocated in ARENA; NULL on OOM. */
hl_hms_database_t *hl_hms_map_database(const hl_cat_db_t *db, hl_arena_t *arena);
hl_hms_table_t *hl_hms_map_table(const hl_cat_table_t *t, hl_arena_t *arena);
hl_hms_partition_t *hl_hms_map_partition(const hl_cat_table_t *t, const hl_cat_partition_t *p,
                                         hl_arena_t *arena);
/* A location as a URI Hive clients accept: an absolute path becomes
 * "file:/path" (what Hive writes for local paths), a URI stays. */
char *hl_hms_map_location(const char *loc, hl_arena_t *arena);

#endif
