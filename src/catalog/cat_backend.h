/*
 * cat_backend.h -- what a catalog backend implements.
 *
 * catalog.h is one interface over several metastores: the embedded SQLite
 * one (cat_sqlite.c) and the Hive Metastore client (src/hms_client/).  A
 * handle is a backend's own struct whose first member is an hl_cat_t, the
 * pointer to the backend's operations; catalog.h's functions dispatch
 * through it (cat_dispatch.c).  An operation a backend leaves NULL answers
 * 0A000.  Intents, write locks and the schema version always live in the
 * embedded catalog, which `local` names, so that a write through a remote
 * metastore keeps its intent where recovery finds it.
 *
 * Only backends include this header.
 */
#ifndef HL_CAT_BACKEND_H
#define HL_CAT_BACKEND_H

#include "catalog/catalog.h"

typedef struct hl_cat_ops {
  const char *name; /* "sqlite", "hms": for messages */
  bool (*readonly)(const hl_cat_t *cat);
  void (*close)(hl_cat_t *cat);
  hl_status_t (*begin)(hl_cat_t *cat, hl_error_t *err);
  hl_status_t (*commit)(hl_cat_t *cat, hl_error_t *err);
  void (*rollback)(hl_cat_t *cat);
  hl_status_t (*db_create)(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err);
  hl_status_t (*db_get)(hl_cat_t *cat, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                        hl_error_t *err);
  hl_status_t (*db_list)(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                         hl_error_t *err);
  hl_status_t (*db_drop)(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err);
  hl_status_t (*db_update)(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err);
  hl_status_t (*table_create)(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err);
  hl_status_t (*table_get)(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                           hl_cat_table_t **out, hl_error_t *err);
  hl_status_t (*table_list)(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                            size_t *n, hl_error_t *err);
  hl_status_t (*table_update)(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err);
  hl_status_t (*table_drop)(hl_cat_t *cat, int64_t table_id, hl_error_t *err);
  hl_status_t (*partition_add)(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err);
  hl_status_t (*partition_add_many)(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                    hl_error_t *err);
  hl_status_t (*partition_get)(hl_cat_t *cat, int64_t table_id, char *const *values, int n_values,
                               hl_arena_t *arena, hl_cat_partition_t **out, hl_error_t *err);
  hl_status_t (*partition_list)(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena,
                                hl_cat_partition_t **out, size_t *n, hl_error_t *err);
  hl_status_t (*partition_count)(hl_cat_t *cat, int64_t table_id, size_t *n, hl_error_t *err);
  hl_status_t (*partition_update)(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err);
  hl_status_t (*partition_set_columns_all)(hl_cat_t *cat, int64_t table_id,
                                           const hl_cat_column_t *cols, int n, hl_error_t *err);
  hl_status_t (*partition_drop)(hl_cat_t *cat, int64_t partition_id, hl_error_t *err);
  /* See hl_cat_partition_tdates; NULL: cat_dispatch.c counts them in a
   * partition_scan. */
  hl_status_t (*partition_tdates)(hl_cat_t *cat, int64_t table_id, size_t *n, size_t *n_tdates,
                                  hl_error_t *err);
  hl_status_t (*locations_within)(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                  hl_cat_location_user_t **out, size_t *n, hl_error_t *err);
  hl_status_t (*locations_at)(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                              hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                              hl_error_t *err);
  hl_status_t (*col_stats_put)(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                               const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err);
  hl_status_t (*col_stats_get)(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                               const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                               hl_error_t *err);
  hl_status_t (*col_stats_list_parts)(hl_cat_t *cat, int64_t table_id, const char *col,
                                      hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                      hl_error_t *err);
  hl_status_t (*col_stats_delete)(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                  const char *col, bool *deleted, hl_error_t *err);
  /* partition_names, partition_get_many: see hl_cat_partition_names. */
  hl_status_t (*partition_names)(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                                 hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                 hl_error_t *err);
  hl_status_t (*partition_get_many)(hl_cat_t *cat, int64_t table_id, const hl_cat_partition_t *keys,
                                    size_t n_keys, hl_arena_t *arena, hl_cat_partition_t **out,
                                    size_t *n, hl_error_t *err);
  /* See hl_cat_partition_scan; NULL: cat_dispatch.c answers from
   * partition_names. */
  hl_status_t (*partition_scan)(hl_cat_t *cat, int64_t table_id, const hl_cat_part_filter_t *filter,
                                hl_cat_part_fn fn, void *ctx, hl_error_t *err);
  /* Drops cached metadata of table DB.TABLE (TABLE NULL: of every table of
   * DB; DB NULL: everything).  NULL for backends without a cache. */
  hl_status_t (*refresh)(hl_cat_t *cat, const char *db, const char *table, hl_error_t *err);
  /* The embedded SQLite catalog that holds intents, write locks and the
   * schema version; NULL: CAT is one. */
  hl_cat_t *(*local)(hl_cat_t *cat);
  /* False for a backend whose write calls take effect at once and on
   * their own (a remote metastore): begin/commit do not make them one
   * unit, and every write call is journaled (cat_journal.c) while a
   * journal hook is set.  NULL: transactional. */
  bool (*transactional)(const hl_cat_t *cat);
  /* What reopens this catalog in another process (a remote metastore's
   * URIs), recorded in the intents of writes through it; NULL: nothing. */
  const char *(*address)(const hl_cat_t *cat);
  /* The database and table names of table TABLE_ID (in ARENA); the undo
   * journal names tables, since ids are per connection. */
  hl_status_t (*table_name)(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena, char **db,
                            char **name, hl_error_t *err);
  /* The table of partition PARTITION_ID (*table_id, OUT): the journal of a
   * partition drop reads the partition's before-image through it.  NULL:
   * partition drops are journaled as calls that cannot be undone. */
  hl_status_t (*partition_table)(hl_cat_t *cat, int64_t partition_id, int64_t *table_id,
                                 hl_error_t *err);
} hl_cat_ops_t;

struct hl_cat {
  const hl_cat_ops_t *ops;
  hl_cat_journal_fn journal; /* hl_cat_journal_set; NULL: none */
  void *journal_arg;
};

#endif
