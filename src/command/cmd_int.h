/*
 * cmd_int.h -- private helpers shared by the command files (cmd_*.c).
 *
 * cmd_dispatch.c routes every non-query statement to one handler per
 * statement kind; the handlers share location resolution, storage-format
 * names, partition-spec typing and matching, and small text utilities,
 * which live in cmd_util.c (storage-format names: format/storage_format.h).
 * Nothing outside src/command/ includes this header.
 *
 * Memory: everything returned here is allocated in the statement arena
 * passed in; nothing needs freeing.
 */
#ifndef HL_CMD_INT_H
#define HL_CMD_INT_H

#include "command/command.h"
#include "format/storage_format.h"
#include "plan/table.h"
#include "util/like.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <stdbool.h>

/* ------------------------------------------------------- handlers */

typedef hl_status_t (*hl_cmd_fn)(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err);

hl_status_t hl_cmd_create_database(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                   hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_drop_database(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_use(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                       hl_result_t *result, hl_error_t *err);
/* The catalog statements (cmd_catalog.c). */
hl_status_t hl_cmd_create_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                  hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_drop_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_alter_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_catalogs(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                 hl_result_t *result, hl_error_t *err);
/* SHOW FUNCTIONS and DESCRIBE FUNCTION (cmd_show_func.c) */
hl_status_t hl_cmd_show_functions(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                  hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_describe_function(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                     hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_create_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt,
                                       hl_arena_t *arena, hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_switch(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err);
/* USE catalog.db */
hl_status_t hl_cmd_use_catalog(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_refresh(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err);
/* SHOW CHECKPOINTS, DROP CHECKPOINT (cmd_checkpoint.c). */
hl_status_t hl_cmd_show_checkpoints(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                    hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_drop_checkpoint(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                   hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_databases(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                  hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_describe_database(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                     hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_create_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_drop_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                              hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_alter_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err);
/* ALTER TABLE ... ADD/DROP/RENAME PARTITION and SET LOCATION of a partition
 * (cmd_partition.c); called by hl_cmd_alter_table with the loaded table. */
/* The partition SPEC (every key given) of T; 42704 naming it when missing. */
hl_status_t hl_cmd_part_get_existing(hl_session_t *s, hl_table_t *t, const hl_ast_part_spec_t *spec,
                                     hl_arena_t *arena, hl_cat_partition_t **out, hl_error_t *err);
hl_status_t hl_cmd_alter_partitions(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                    hl_arena_t *arena, hl_error_t *err);
/* ALTER TABLE SET DEFAULT PARTITION TO and PARTITION COLUMN (cmd_part_key.c),
 * through hl_cmd_alter_partitions. */
hl_status_t hl_cmd_alter_part_keys(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                                   hl_arena_t *arena, hl_error_t *err);
hl_status_t hl_cmd_show_partitions(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                   hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_tables(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_columns(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_tblproperties(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                      hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_create_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                     hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_show_create_database(hl_session_t *s, const hl_ast_stmt_t *stmt,
                                        hl_arena_t *arena, hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_describe(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_msck(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                        hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_set(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                       hl_result_t *result, hl_error_t *err);
/* Writes (cmd_insert.c): INSERT [OVERWRITE] incl. multi-insert, TRUNCATE,
 * and CREATE TABLE ... AS SELECT (called by hl_cmd_create_table). */
hl_status_t hl_cmd_insert(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_truncate(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err);
/* CREATE TABLE ... AS SELECT: TABLE is the definition built from the
 * statement (columns may be empty: they come from the query; partition
 * keys are the query's last columns).  The table is created in the
 * commit of the write, so a failed CTAS leaves no table behind. */
/* LOAD DATA, through the write transaction like every other write. */
hl_status_t hl_cmd_load(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                        hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_ctas(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_cat_table_t *table,
                        hl_arena_t *arena, hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_reset(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                         hl_result_t *result, hl_error_t *err);
/* ANALYZE TABLE ... COMPUTE STATISTICS (cmd_analyze.c). */
hl_status_t hl_cmd_analyze(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err);
/* PROFILE TABLE ... (cmd_profile.c): column profiles, then a summary. */
hl_status_t hl_cmd_profile(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err);
/* DESCRIBE FORMATTED t [PARTITION (spec)] col: the column's statistics in
 * Hive's layout (column_property, value); P is NULL for the table. */
hl_status_t hl_cmd_describe_col_stats(hl_session_t *s, hl_table_t *t, hl_cat_partition_t *p,
                                      const char *col, hl_arena_t *arena, hl_result_t *result,
                                      hl_error_t *err);

/* Views (cmd_view.c): CREATE VIEW and ALTER VIEW ... AS; ALTER VIEW RENAME
 * TO, SET / UNSET TBLPROPERTIES; DROP VIEW. */
hl_status_t hl_cmd_create_view(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_alter_view(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                              hl_result_t *result, hl_error_t *err);
hl_status_t hl_cmd_drop_view(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                             hl_result_t *result, hl_error_t *err);
/* ALTER TABLE DEST EXCHANGE PARTITION (spec) WITH TABLE src (cmd_exchange.c);
 * called by hl_cmd_alter_table with the loaded DEST. */
hl_status_t hl_cmd_exchange_partition(hl_session_t *s, const hl_ast_alter_table_t *alt,
                                      hl_table_t *dest, hl_arena_t *arena, hl_error_t *err);
/* SHOW TABLE EXTENDED [IN db] LIKE 'pat' [PARTITION (spec)] (cmd_show_ext.c). */
hl_status_t hl_cmd_show_table_extended(hl_session_t *s, const hl_ast_stmt_t *stmt,
                                       hl_arena_t *arena, hl_result_t *result, hl_error_t *err);

/* ------------------------------------------------------- locations */

/* Turns a LOCATION clause into the absolute path stored in the catalog:
 * 'file:/x' and 'file:///x' become '/x'; other schemes ('s3://', 'hdfs://')
 * are 0A000 errors; a relative path is resolved against BASE (NULL: the
 * process cwd).  POS is the clause's position for errors. */
hl_status_t hl_cmd_resolve_location(const char *location, const char *base, long pos,
                                    hl_arena_t *arena, char **out, hl_error_t *err);
/* ------------------------------------------------- names and managed paths
 *
 * Managed locations are derived from names: a database's directory is
 * WAREHOUSE/<db>.db, a table's <database dir>/<table>.  So a database or
 * table name must be one plain directory name: hl_cmd_check_name refuses
 * (42602) an empty name and names holding "/", "." (Hive's rule: no dots in
 * table or database names, which also keeps "x.db" and ".hivelite" out of
 * the warehouse root) or control characters.  As a second line of defence,
 * every derived directory is normalised and must lie strictly inside its
 * parent (hl_cmd_child_dir), and every delete, move or overwrite of a
 * table, partition or database directory passes hl_cmd_check_target. */

/* 42602 at POS unless NAME is a valid KIND ("table", "database", "view")
 * name; the message names the name and the reason. */
hl_status_t hl_cmd_check_name(const char *kind, const char *name, long pos, hl_arena_t *arena,
                              hl_error_t *err);
/* PARENT/NAME in *OUT, normalised; a 42602 error naming the KIND name when
 * it would not lie strictly inside PARENT (or PARENT is not normalised). */
hl_status_t hl_cmd_child_dir(const char *parent, const char *name, const char *kind,
                             hl_arena_t *arena, char **out, hl_error_t *err);
/* The default location of database DB in *OUT: the warehouse for
 * "default", else WAREHOUSE/<db>.db (checked by hl_cmd_child_dir). */
hl_status_t hl_cmd_db_default_location(hl_session_t *s, const char *db, hl_arena_t *arena,
                                       char **out, hl_error_t *err);
/* A 42501 error unless PATH may be deleted, moved or overwritten (ACTION:
 * "delete", "move", "overwrite" for the message): PATH must be normalised,
 * must not be the warehouse root or one of its ancestors, must not be the
 * metastore directory WAREHOUSE/.hivelite or lie inside it, and must not be
 * the metastore file or a directory holding it. */
hl_status_t hl_cmd_check_target(hl_session_t *s, const char *path, const char *action,
                                hl_error_t *err);
/* True when PATH is DIR or lies below it (component-wise prefix). */
bool hl_cmd_path_under(const char *path, const char *dir);
/* Removes a managed data directory (best effort: errors are ignored since
 * the metadata is already gone).  Does nothing for "/" and for a path
 * hl_cmd_check_target refuses. */
void hl_cmd_remove_data(hl_session_t *s, const char *path);
/* Creates directory PATH and missing parents; *CREATED (OUT) is the
 * top-most directory this call created (NULL if PATH existed), which
 * hl_cmd_undo_mkdirs removes again when the statement fails.  A file at
 * PATH or above is an error. */
hl_status_t hl_cmd_mkdirs_tracked(hl_session_t *s, const char *path, hl_arena_t *arena,
                                  char **created, hl_error_t *err);
void hl_cmd_undo_mkdirs(hl_session_t *s, const char *created); /* NULL: no-op */
/* The owner recorded for new databases and tables: SET user.name, else
 * $USER, else NULL. */
const char *hl_cmd_owner(hl_session_t *s);
/* hivelite.max_partitions_per_table (default 1,000,000) in *out; a value
 * that is not a positive integer is a 22023 error. */
hl_status_t hl_cmd_max_partitions(hl_session_t *s, size_t *out, hl_error_t *err);
/* The 54000 error for a table that would exceed the cap. */
hl_status_t hl_cmd_too_many_partitions(const hl_table_t *t, size_t max, hl_error_t *err);
/* True when session setting KEY is "true" (case-insensitive). */
bool hl_cmd_setting_true(hl_session_t *s, const char *key);

/* ------------------------------------------------ write transactions */

struct hl_txn;
/* Starts a write transaction (txn/txn.h) of KIND staging under ROOT (NULL:
 * a write that stages no files, as drops and renames), with the session's
 * lock timeout and the warehouse's reader locks. */
hl_status_t hl_cmd_txn_begin(hl_session_t *s, const char *kind, const char *root, hl_arena_t *arena,
                             struct hl_txn **out, hl_error_t *err);
/* Adds the write lock (and publish lock) of table DB.NAME to TXN. */
hl_status_t hl_cmd_txn_lock_table(struct hl_txn *txn, const char *db, const char *name,
                                  hl_arena_t *arena, hl_error_t *err);
/* Drops catalog tables TABLES[0..N) (or, with DB, database DB and every
 * table in it, TABLES being all of them) in one write transaction that
 * removes their managed data (cmd_table.c).  DB_DIR (or NULL): the
 * database directory the write removes too when it is left empty. */
hl_status_t hl_cmd_drop_tables(hl_session_t *s, hl_cat_table_t **tables, int n, const char *db,
                               const char *db_dir, hl_arena_t *arena, hl_error_t *err);
/* May a write of table T (its partition PART_ID, 0: the table itself)
 * replace or add files in DIR?  Refused (42501) when DIR, its symbolic
 * links resolved, is outside hivelite.storage.allowed_locations; (55000)
 * when DIR is the warehouse
 * root, one of its parents or the metastore directory, or when DIR is also
 * the location of another table or partition (its files would change).
 * With RECURSIVE (a drop, which removes DIR's subdirectories too) also when
 * another database's, table's or partition's location lies under DIR;
 * then every partition of T counts as T's own when PART_ID is 0 (DROP
 * TABLE), none when it is not (DROP PARTITION checks its own table).  VERB
 * ("overwrite", "drop") and WHAT ("partition \"k=v\" of table ...") make
 * the message. */
hl_status_t hl_cmd_check_write_location(hl_session_t *s, const char *dir, const hl_cat_table_t *t,
                                        int64_t part_id, bool recursive, const char *verb,
                                        const char *what, hl_arena_t *arena, hl_error_t *err);
/* After directory DIR moved away or went: its parents are removed while
 * they are empty and strictly below TABLE_LOC (rmdir fails on a non-empty
 * one, which ends the walk). */
void hl_cmd_prune_empty_parents(hl_session_t *s, const char *table_loc, const char *dir,
                                hl_arena_t *arena);
/* One catalog transaction: table record T (NULL: none) and partition
 * records PARTS[0..N) updated, committed, or rolled back on any error. */
hl_status_t hl_cmd_cat_update(hl_session_t *s, const hl_cat_table_t *t,
                              hl_cat_partition_t *const *parts, size_t n, hl_error_t *err);
/* Where partition P of T goes when it is renamed to VALUES (default
 * partition name DFLT_NEW; P's name uses DFLT_OLD): a managed partition at
 * its default path moves with its name, so *TO is the new default path
 * (checked as a move target, and refused with 42710 when it exists, as
 * Hive refuses); any other partition stays where it is (*TO NULL). */
hl_status_t hl_cmd_part_move_target(hl_session_t *s, const hl_table_t *t,
                                    const hl_cat_partition_t *p, char *const *values,
                                    const char *dflt_old, const char *dflt_new, long pos,
                                    hl_arena_t *arena, char **to, hl_error_t *err);
/* True when PATH may be removed or moved as a table's or partition's own
 * data: an absolute path that is neither the warehouse root nor one of its
 * ancestors, nor the metastore directory or anything in it. */
bool hl_cmd_path_removable(hl_session_t *s, const char *path);

/* ------------------------------------------------ partition specs */

/* Text of a partition-spec literal (handles a negated number); NULL with
 * *is_null for a NULL literal.  Returns NULL and sets ERR when the item is
 * not a literal (dynamic key). */
hl_status_t hl_cmd_part_item_text(const hl_ast_part_item_t *item, hl_arena_t *arena, char **out,
                                  hl_error_t *err);
/* The table property naming T's default partition (ALTER TABLE SET DEFAULT
 * PARTITION TO), a hivelite extension. */
#define HL_CMD_DEFAULT_PART_PROP "hivelite.default.partition.name"
/* The directory name of T's default partition: the table's own
 * (HL_CMD_DEFAULT_PART_PROP), else hive.exec.default.partition.name. */
const char *hl_cmd_default_part_name(hl_session_t *s, const hl_table_t *t);
/* Checks that the text value TEXT (NULL = default partition) types for key
 * KEY_IDX and returns its canonical stored form (Hive normalises "01" to "1"
 * for an INT key) in *out; a value equal to the default partition name
 * becomes NULL. */
hl_status_t hl_cmd_part_value_canon(hl_session_t *s, const hl_table_t *t, int key_idx,
                                    const char *text, hl_arena_t *arena, char **out,
                                    hl_error_t *err);
/* A full static spec (every key once, any order, '=' only) to the values in
 * key order (canonical; NULL = default partition).  Errors: unknown key
 * 42703, missing/repeated key 42000, bad value 22P02. */
hl_status_t hl_cmd_part_spec_full(hl_session_t *s, const hl_table_t *t,
                                  const hl_ast_part_spec_t *spec, hl_arena_t *arena, char ***values,
                                  hl_error_t *err);

/* A compiled partial/comparison spec (DROP PARTITION, SHOW PARTITIONS). */
typedef struct hl_cmd_part_filter {
  int n;
  int *key_idx;
  hl_ast_op_t *ops;
  hl_value_t *values; /* typed; is_null for the default partition name */
} hl_cmd_part_filter_t;

hl_status_t hl_cmd_part_filter_compile(hl_session_t *s, const hl_table_t *t,
                                       const hl_ast_part_spec_t *spec, hl_arena_t *arena,
                                       hl_cmd_part_filter_t *out, hl_error_t *err);
/* True when partition P satisfies every item of F (a stored value that does
 * not type for its key never matches a comparison other than <>/!=). */
bool hl_cmd_part_filter_match(const hl_table_t *t, const hl_cmd_part_filter_t *f,
                              const hl_cat_partition_t *p, hl_arena_t *arena);

/* The filter of a statement's PARTITION (spec) that selects partitions to
 * read (ANALYZE, PROFILE): every key must be a partition column (42703);
 * a key without a value (PARTITION (ds, hr)) takes every value. */
hl_status_t hl_cmd_read_spec_compile(hl_session_t *s, const hl_table_t *t,
                                     const hl_ast_part_spec_t *spec, hl_arena_t *arena,
                                     hl_cmd_part_filter_t *out, hl_error_t *err);

/* "db.t" for messages. */
#define HL_TNAME(t) (t)->cat->db_name, (t)->cat->name

/* ------------------------------------------------------------ text */

/* Sorts N strings in place (byte order). */
void hl_cmd_sort_strings(char **v, size_t n);
/* Key/value pairs sorted by key, for display: a copy in ARENA with the
 * values of secret keys (hl_kv_is_secret) masked, NULL on OOM (N = 0
 * gives a non-NULL pointer). */
hl_kv_t *hl_cmd_sorted_kvs(const hl_kv_t *kvs, int n, hl_arena_t *arena);
/* The file-name extension that makes the text writer compress with codec
 * VALUE (the table property text.compression, Doris's name, or Hive's
 * mapreduce.output.fileoutputformat.compress.codec): the names of
 * hl_text_codec_ext (format/text/text.h).  Any other codec is 0A000: the
 * text reader could not read it back. */
hl_status_t hl_cmd_text_codec_ext(const char *value, const char **ext, hl_error_t *err);
/* Sets KEY=VALUE in the arena array *KVS (replacing an existing key). */
hl_status_t hl_cmd_kv_put(hl_kv_t **kvs, int *n, const char *key, const char *value,
                          hl_arena_t *arena, hl_error_t *err);
/* ALTER TABLE|VIEW ... UNSET TBLPROPERTIES: T's properties without ALT's
 * keys, into *KVS / *N (arena arrays).  A key T lacks is 42704 naming WHAT
 * ("table", "view") at POS, unless IF EXISTS. */
hl_status_t hl_cmd_kv_unset(const hl_cat_table_t *t, const char *what,
                            const hl_ast_alter_table_t *alt, long pos, hl_arena_t *arena,
                            hl_kv_t **kvs, int *n, hl_error_t *err);
/* Builds a single-column STRING rowset named NAME from N lines. */
hl_status_t hl_cmd_lines_result(hl_arena_t *arena, const char *name, char **lines, size_t n,
                                hl_result_t *result, hl_error_t *err);

/* CLUSTERED BY / SORTED BY / INTO n BUCKETS of CT into T (whose data
 * columns are set): checks that the columns are data columns of T.
 * Errors 42P16 (bucket count), 42703 (unknown column), at POS. */
hl_status_t hl_cmd_apply_buckets(const hl_ast_create_table_t *ct, long pos, hl_arena_t *arena,
                                 hl_cat_table_t *t, hl_error_t *err);

/* ------------------------------------------- incremental field (cmd_incr.c) */

/* Inside the open catalog transaction of a statement that added partitions
 * to table T (MSCK, ADD PARTITION): when the table names no incremental
 * field and its partitions' first values -- all of them, as the
 * transaction sees them, counted by the metastore
 * (hl_cat_partition_tdates) -- are text dates (plan/incr.h
 * hl_incr_auto_field), sets hivelite.incremental.field to the first
 * partition column and hivelite.incremental.kind to date, on the table
 * record as it is now.  Never replaces a field already set. */
hl_status_t hl_cmd_incr_auto(hl_session_t *s, const hl_table_t *t, hl_arena_t *arena,
                             hl_error_t *err);
/* The same on the record C that the caller stores itself (CTAS): sets
 * the two properties in C (in ARENA) and *CHANGED when it applies. */
hl_status_t hl_cmd_incr_auto_fill(hl_session_t *s, hl_cat_table_t *c, hl_arena_t *arena,
                                  bool *changed, hl_error_t *err);
/* True when KEY is one of the incremental field's properties. */
bool hl_cmd_incr_key(const char *key);

#endif
