/*
 * hms_unmap.h -- the reverse of hms_map.h: Hive Metastore structs sent by
 * clients (create_database, create_table, add_partition, alter_*) as
 * hivelite catalog records, checked as hivelite's own DDL checks them.
 *
 * Every failure is HL_ERROR with a SQLSTATE and a message the server
 * returns in the method's InvalidObjectException (or MetaException):
 * 42602 a bad name, 42611 / 42601 a bad column type, 42701 a duplicate
 * column, 42P16 a bad table definition (type, buckets), 22P02 / 22003 a
 * partition value that is not of its key's type, 0A000 a location that is
 * not a local path (hivelite stores only local paths so far).
 */
#ifndef HL_HMS_UNMAP_H
#define HL_HMS_UNMAP_H

#include "catalog/catalog.h"
#include "hms/hms.h"

/* "file:/p", "file:///p", "file://localhost/p" and "/p" to the normalised
 * local path "/p" (duplicate and trailing slashes dropped; "." and ".."
 * components refused).  NULL or "" is *OUT NULL (no location given). */
hl_status_t hl_hms_unmap_location(const char *uri, hl_arena_t *arena, char **out, hl_error_t *err);

/* A database or table name as hivelite's DDL accepts it (the name becomes
 * a directory name): non-empty, no '/', '.', or control characters.
 * KIND names the object in the message. */
hl_status_t hl_hms_check_name(const char *kind, const char *name, hl_error_t *err);

/* Database D as a catalog record (name lower-cased; location NULL when
 * the client gave none). */
hl_status_t hl_hms_unmap_database(const hl_hms_database_t *d, hl_arena_t *arena, hl_cat_db_t *out,
                                  hl_error_t *err);

/* Table T as a catalog record: tableType (MANAGED_TABLE, EXTERNAL_TABLE,
 * VIRTUAL_VIEW; parameter EXTERNAL=TRUE also makes a table external and
 * is not stored), columns and partition keys with their types checked and
 * in Hive's canonical spelling, storage descriptor, buckets, sort
 * columns, parameters.  location NULL when the client gave none. */
hl_status_t hl_hms_unmap_table(const hl_hms_table_t *t, hl_arena_t *arena, hl_cat_table_t *out,
                               hl_error_t *err);

/* A descriptor S as a catalog descriptor (columns checked); *LOCATION
 * (may be NULL) gets its location. */
hl_status_t hl_hms_unmap_sd(const hl_hms_sd_t *s, hl_arena_t *arena, hl_cat_sd_t *out,
                            char **location, hl_error_t *err);

/* The values of a partition of TABLE in hivelite's form: N must be the
 * number of keys, each value is checked against its key's type and
 * written as Hive writes it (an empty value or __HIVE_DEFAULT_PARTITION__
 * is the default partition, NULL); *NAME the escaped path name. */
hl_status_t hl_hms_unmap_part_values(const hl_cat_table_t *table, char *const *values, uint32_t n,
                                     hl_arena_t *arena, char ***out, char **name, hl_error_t *err);

/* Partition name "k1=v1/k2=v2" (escaped) of TABLE to its raw values. */
hl_status_t hl_hms_unmap_part_name(const hl_cat_table_t *table, const char *name, hl_arena_t *arena,
                                   char ***values, hl_error_t *err);

/* Partition P of TABLE as a catalog record (values checked; location
 * given, or TABLE's location + "/" + its name; its own descriptor when it
 * sends one).  table_id set, id 0. */
hl_status_t hl_hms_unmap_partition(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                   hl_arena_t *arena, hl_cat_partition_t *out, hl_error_t *err);

#endif
