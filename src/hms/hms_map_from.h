/*
 * hms_map_from.h -- the reverse of hms_map.h: Hive Metastore structs as
 * hivelite catalog records, one mapping for both sides of the wire.
 *
 * The metastore server (src/hms_server/) reads structs sent by its
 * clients (create_database, create_table, add_partition, alter_*): they
 * are untrusted and become hivelite's own records, so it passes
 * HL_HMS_UNMAP_CHECK and they are checked as hivelite's DDL checks them.
 * The metastore client (src/hms_client/) reads what a real metastore
 * holds (get_table, get_partitions replies) and must take it as it is,
 * so it passes 0.  The flag is the only difference; the field mapping
 * (descriptor, columns, serde, buckets, sort columns, parameters, table
 * types) is the same code.
 *
 * With HL_HMS_UNMAP_CHECK every failure is HL_ERROR with a SQLSTATE and a
 * message the server returns in the method's InvalidObjectException (or
 * MetaException): 42602 a bad name, 42611 / 42601 a bad column type,
 * 42701 a duplicate column, 42P16 a bad table definition (type, buckets),
 * 22P02 / 22003 a partition value that is not of its key's type, 0A000 a
 * location that is not a local path.  Without it the only failures are
 * HL_NOMEM and, for a partition, a value count that is not the table's
 * (22023).
 *
 * Named hms_map_* like hms_map.c because, like it, it needs catalog/: the
 * Thrift fuzzers (CMakeLists.txt, Makefile) build src/hms/hms_[!m]*.c.
 */
#ifndef HL_HMS_MAP_FROM_H
#define HL_HMS_MAP_FROM_H

#include "catalog/catalog.h"
#include "hms/hms.h"

/* Flags of the hl_hms_unmap_* functions. */
enum {
  /* Untrusted input that becomes hivelite's record (the server):
   * - names checked (hl_hms_check_name), column names unique, column types
   *   parsed and written in Hive's canonical spelling (without it: names
   *   and types only lower-cased, a missing type is "string");
   * - locations must be local paths, normalised (without it: "file:"
   *   URIs of a local path become the path, other URIs stay as given);
   * - bucket and sort columns must be columns; table type one of
   *   MANAGED_TABLE, EXTERNAL_TABLE, VIRTUAL_VIEW (without it:
   *   MATERIALIZED_VIEW is a view, any other type a managed table);
   * - a key sent twice in a map: the last wins (without it: kept as sent);
   *   a table's EXTERNAL parameter is not stored (without it: kept);
   * - a create time of 0 becomes now; a partition value is checked
   *   against its key's type and canonicalised, an empty value is the
   *   default partition (without it: values as given, only
   *   __HIVE_DEFAULT_PARTITION__ is NULL); a partition without a location
   *   gets TABLE's location + "/" + its name (without it: NULL); a
   *   partition descriptor without columns is a placeholder and the
   *   partition takes its table's (without it: the partition's descriptor,
   *   or a copy of the table's, is always set). */
  HL_HMS_UNMAP_CHECK = 1,
};

/* A location URI as a catalog location (see HL_HMS_UNMAP_CHECK).  With
 * the flag, "file:/p", "file:///p", "file://localhost/p" and "/p" become
 * the normalised local path "/p" (duplicate and trailing slashes
 * dropped; "." and ".." components refused).  NULL or "" is *OUT NULL. */
hl_status_t hl_hms_unmap_location(const char *uri, unsigned flags, hl_arena_t *arena, char **out,
                                  hl_error_t *err);

/* A database or table name as hivelite's DDL accepts it (the name becomes
 * a directory name): non-empty, no '/', '.', or control characters.
 * KIND names the object in the message. */
hl_status_t hl_hms_check_name(const char *kind, const char *name, hl_error_t *err);

/* Database D as a catalog record (name lower-cased; location NULL when
 * none was given). */
hl_status_t hl_hms_unmap_database(const hl_hms_database_t *d, unsigned flags, hl_arena_t *arena,
                                  hl_cat_db_t *out, hl_error_t *err);

/* Table T as a catalog record: tableType (parameter EXTERNAL=TRUE also
 * makes a table external), columns and partition keys, storage
 * descriptor, buckets, sort columns, parameters, view texts.  location
 * NULL for a view or when none was given; id 0. */
hl_status_t hl_hms_unmap_table(const hl_hms_table_t *t, unsigned flags, hl_arena_t *arena,
                               hl_cat_table_t *out, hl_error_t *err);

/* A descriptor S (may be NULL: no columns, num_buckets -1) as a catalog
 * descriptor; *LOCATION (LOCATION may be NULL) gets its location. */
hl_status_t hl_hms_unmap_sd(const hl_hms_sd_t *s, unsigned flags, hl_arena_t *arena,
                            hl_cat_sd_t *out, char **location, hl_error_t *err);

/* Partition P of TABLE as a catalog record (values, name, location,
 * descriptor, parameters).  table_id set, id 0. */
hl_status_t hl_hms_unmap_partition(const hl_cat_table_t *table, const hl_hms_partition_t *p,
                                   unsigned flags, hl_arena_t *arena, hl_cat_partition_t *out,
                                   hl_error_t *err);

/* The escaped partition name "k1=v1/k2=v2" of VALUES (NULL: the default
 * partition) under TABLE's keys; NULL on OOM. */
char *hl_hms_part_name(const hl_cat_table_t *table, char *const *values, hl_arena_t *arena);

/* The values of a partition of TABLE sent by a client, checked: N must
 * be the number of keys, each value is checked against its key's type
 * and written as Hive writes it (an empty value or
 * __HIVE_DEFAULT_PARTITION__ is the default partition, NULL); *NAME the
 * escaped path name. */
hl_status_t hl_hms_unmap_part_values(const hl_cat_table_t *table, char *const *values, uint32_t n,
                                     hl_arena_t *arena, char ***out, char **name, hl_error_t *err);

/* Partition name "k1=v1/k2=v2" (escaped) sent by a client to its raw
 * values, the keys checked against TABLE's. */
hl_status_t hl_hms_unmap_part_name(const hl_cat_table_t *table, const char *name, hl_arena_t *arena,
                                   char ***values, hl_error_t *err);

#endif
