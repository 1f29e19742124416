/*
 * catalog_int.h -- private declarations shared by the SQLite metastore files.
 *
 * cat_sqlite.c implements catalog.h on SQLite; cat_schema.c owns the schema
 * (its versions and the migration steps between them).  Nothing outside
 * src/catalog includes this header.
 */
#ifndef HL_CATALOG_INT_H
#define HL_CATALOG_INT_H

#include "catalog/catalog.h"
#include "util/arena.h"
#include "util/error.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PRAGMA application_id of a hivelite metastore ("HLMS"), so that another
 * application's SQLite file is told apart from ours. */
#define HL_CAT_APPLICATION_ID 0x484C4D53

/* The newest schema version this code knows (the last migration step). */
int hl_cat_schema_latest(void);

/* Flags of hl_cat_schema_prepare. */
#define HL_CAT_SCHEMA_FRESH    1u /* DB was created by this open: empty is fine */
#define HL_CAT_SCHEMA_READONLY 2u /* DB is read-only: check, never migrate */

/* Checks that the freshly opened connection DB (file PATH, for messages)
 * holds a hivelite metastore (or, with HL_CAT_SCHEMA_FRESH, nothing),
 * switches it to WAL mode, registers the SQL function hl_is_tdate (1 when
 * its argument is a text date, util/partorder.h) that the migrations and
 * the writes of n_tdates use, and migrates it to the latest schema.  *VERSION
 * (OUT) is the version after migration.  Returns HL_CORRUPT (XX001) for a
 * file that is not SQLite, not a hivelite metastore, of a newer schema
 * version, or empty when not fresh (a truncated metastore must not turn
 * into an empty warehouse); 25006 when a read-only file needs migrating;
 * HL_IOERR/HL_CORRUPT for SQLite failures.  A failed migration leaves the
 * file unchanged. */
hl_status_t hl_cat_schema_prepare(sqlite3 *db, const char *path, unsigned flags, int *version,
                                  hl_error_t *err);

/* Turns the SQLite result code RC (the last error on DB, whose message is
 * used; DB may be NULL) into an hl_error_t and returns its status. */
hl_status_t hl_cat_sqlite_error(sqlite3 *db, int rc, hl_error_t *err);

typedef struct hl_cat hl_cat_t;
/* For the other files of the SQLite backend (cat_intent.c): the
 * connection, and the unit of work every public call runs in (a SAVEPOINT
 * inside the caller's transaction, else its own transaction; see
 * cat_sqlite.c). */
sqlite3 *hl_cat_sqlite_db(hl_cat_t *cat);
hl_status_t hl_cat_op_begin(hl_cat_t *cat, int write, hl_error_t *err);
hl_status_t hl_cat_op_end(hl_cat_t *cat, hl_status_t status, hl_error_t *err);

/* A statement of SQL (a string with static storage: the cache keys on its
 * address) prepared once per connection and finalized at close; callers
 * reset it and clear its bindings when done.  At most HL_CAT_OTHER_STMTS
 * texts. */
#define HL_CAT_OTHER_STMTS 32
hl_status_t hl_cat_cached_stmt(hl_cat_t *cat, const char *sql, sqlite3_stmt **out, hl_error_t *err);

/* Per-partition storage descriptors (cat_part_sd.c), called by
 * cat_sqlite.c inside its unit of work. */
typedef struct hl_cat_partition hl_cat_partition_t;
typedef struct hl_cat_sd hl_cat_sd_t;
typedef struct hl_cat_table hl_cat_table_t;
/* Sets PARTS[0..n)->sd (partitions of table TBL_ID; PART_ID: the one
 * partition read, 0 for all) in ARENA. */
hl_status_t hl_cat_part_sd_read(hl_cat_t *cat, int64_t tbl_id, int64_t part_id,
                                hl_cat_partition_t *parts, size_t n, hl_arena_t *arena,
                                hl_error_t *err);
/* Stores SD as partition PART_ID's (rows only when it differs from the
 * table's); SD NULL removes the partition's own descriptor. */
hl_status_t hl_cat_part_sd_write(hl_cat_t *cat, int64_t tbl_id, int64_t part_id,
                                 const hl_cat_sd_t *sd, hl_error_t *err);
/* Before TABLE's stored descriptor is replaced by TABLE's: when they
 * differ (*CHANGED), every partition without its own descriptor gets the
 * old one. */
hl_status_t hl_cat_part_sd_detach(hl_cat_t *cat, const hl_cat_table_t *table, bool *changed,
                                  hl_error_t *err);
/* After the table's descriptor changed: the partitions whose own
 * descriptor now equals it lose their rows (they have the table's). */
hl_status_t hl_cat_part_sd_prune(hl_cat_t *cat, int64_t tbl_id, hl_error_t *err);

/* The SQLite backend's implementation of each catalog.h call (cat_sqlite.c
 * and the other files here); cat_dispatch.c reaches them through the
 * operations table in cat_sqlite.c, or directly for intents and locks. */
bool hl_cat_sq_readonly(const hl_cat_t *cat);
void hl_cat_sq_close(hl_cat_t *cat);
hl_status_t hl_cat_sq_begin(hl_cat_t *cat, hl_error_t *err);
hl_status_t hl_cat_sq_commit(hl_cat_t *cat, hl_error_t *err);
void hl_cat_sq_rollback(hl_cat_t *cat);
hl_status_t hl_cat_sq_db_create(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err);
hl_status_t hl_cat_sq_db_get(hl_cat_t *cat, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                             hl_error_t *err);
hl_status_t hl_cat_sq_db_list(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                              hl_error_t *err);
hl_status_t hl_cat_sq_db_drop(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err);
hl_status_t hl_cat_sq_db_update(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err);
hl_status_t hl_cat_sq_table_create(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err);
hl_status_t hl_cat_sq_table_get(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                                hl_cat_table_t **out, hl_error_t *err);
hl_status_t hl_cat_sq_table_list(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                                 size_t *n, hl_error_t *err);
hl_status_t hl_cat_sq_table_update(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err);
hl_status_t hl_cat_sq_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err);
hl_status_t hl_cat_sq_partition_add(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err);
hl_status_t hl_cat_sq_partition_add_many(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                         hl_error_t *err);
hl_status_t hl_cat_sq_partition_get(hl_cat_t *cat, int64_t table_id, char *const *values,
                                    int n_values, hl_arena_t *arena, hl_cat_partition_t **out,
                                    hl_error_t *err);
hl_status_t hl_cat_sq_partition_list(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena,
                                     hl_cat_partition_t **out, size_t *n, hl_error_t *err);
hl_status_t hl_cat_sq_partition_count(hl_cat_t *cat, int64_t table_id, size_t *n, hl_error_t *err);
hl_status_t hl_cat_sq_partition_tdates(hl_cat_t *cat, int64_t table_id, size_t *n, size_t *n_tdates,
                                       hl_error_t *err);
hl_status_t hl_cat_sq_partition_update(hl_cat_t *cat, const hl_cat_partition_t *part,
                                       hl_error_t *err);
hl_status_t hl_cat_sq_partition_set_columns_all(hl_cat_t *cat, int64_t table_id,
                                                const hl_cat_column_t *cols, int n,
                                                hl_error_t *err);
hl_status_t hl_cat_sq_partition_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err);
hl_status_t hl_cat_sq_locations_within(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                       hl_cat_location_user_t **out, size_t *n, hl_error_t *err);
hl_status_t hl_cat_sq_locations_at(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                                   hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                                   hl_error_t *err);
hl_status_t hl_cat_sq_col_stats_put(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                    const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err);
hl_status_t hl_cat_sq_col_stats_get(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                    const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                                    hl_error_t *err);
hl_status_t hl_cat_sq_col_stats_list_parts(hl_cat_t *cat, int64_t table_id, const char *col,
                                           hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                           hl_error_t *err);
hl_status_t hl_cat_sq_col_stats_delete(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                       const char *col, bool *deleted, hl_error_t *err);
int hl_cat_sq_schema_version(hl_cat_t *cat);
hl_status_t hl_cat_sq_intent_add(hl_cat_t *cat, const hl_cat_intent_t *intent, int64_t *id,
                                 hl_error_t *err);
hl_status_t hl_cat_sq_intent_update(hl_cat_t *cat, int64_t id, const char *state, const char *plan,
                                    hl_error_t *err);
hl_status_t hl_cat_sq_intent_list(hl_cat_t *cat, hl_arena_t *arena, hl_cat_intent_t **out,
                                  size_t *n, hl_error_t *err);
hl_status_t hl_cat_sq_intent_get(hl_cat_t *cat, int64_t id, hl_arena_t *arena, hl_cat_intent_t *out,
                                 bool *found, hl_error_t *err);
hl_status_t hl_cat_sq_intent_claim(hl_cat_t *cat, const hl_cat_owner_t *dead,
                                   const hl_cat_owner_t *me, hl_arena_t *arena, int64_t **ids,
                                   size_t *n_ids, char ***locks, size_t *n_locks, hl_error_t *err);
hl_status_t hl_cat_sq_intent_delete(hl_cat_t *cat, int64_t id, hl_error_t *err);
hl_status_t hl_cat_sq_lock_try(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                               const hl_cat_owner_t *stale, bool *acquired, hl_cat_owner_t *holder,
                               hl_arena_t *arena, hl_error_t *err);
hl_status_t hl_cat_sq_lock_release(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                                   hl_error_t *err);
hl_status_t hl_cat_sq_partition_scan(hl_cat_t *cat, int64_t table_id,
                                     const hl_cat_part_filter_t *filter, hl_cat_part_fn fn,
                                     void *ctx, hl_error_t *err);
hl_status_t hl_cat_sq_partition_names(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                                      hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                      hl_error_t *err);
hl_status_t hl_cat_sq_partition_get_many(hl_cat_t *cat, int64_t table_id,
                                         const hl_cat_partition_t *keys, size_t n_keys,
                                         hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                         hl_error_t *err);

/* The undo journal (cat_journal.c), called by cat_dispatch.c before each
 * write call of a non-transactional backend while a hook is set
 * (hl_cat_journaling): each builds the call's undo record, reading the
 * before-image from the backend, and hands it to the hook. */
bool hl_cat_journaling(const hl_cat_t *cat);
hl_status_t hl_cat_journal_table_create(hl_cat_t *cat, const hl_cat_table_t *t, hl_error_t *err);
hl_status_t hl_cat_journal_table_update(hl_cat_t *cat, const hl_cat_table_t *t, hl_error_t *err);
hl_status_t hl_cat_journal_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err);
hl_status_t hl_cat_journal_part_add(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                    hl_error_t *err);
hl_status_t hl_cat_journal_part_update(hl_cat_t *cat, const hl_cat_partition_t *p, hl_error_t *err);
/* A call no record can undo (WHAT names it). */
hl_status_t hl_cat_journal_irreversible(hl_cat_t *cat, const char *what, hl_error_t *err);
hl_status_t hl_cat_sq_intent_hand_over(hl_cat_t *cat, int64_t id, const hl_cat_owner_t *me,
                                       const hl_cat_owner_t *to, char *const *locks, size_t n_locks,
                                       hl_error_t *err);
hl_status_t hl_cat_journal_part_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err);
hl_status_t hl_cat_sq_partition_table(hl_cat_t *cat, int64_t partition_id, int64_t *table_id,
                                      hl_error_t *err);
/* The SQLite backend's table_name operation. */
hl_status_t hl_cat_sq_table_name(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena, char **db,
                                 char **name, hl_error_t *err);

#endif
