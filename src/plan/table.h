/*
 * table.h -- a catalog table resolved for planning and commands.
 *
 * Wraps the catalog record with what every user of a table needs: parsed
 * column and partition-key types, the combined column layout that scans
 * produce (data columns, then partition keys, as Hive shows them), and
 * helpers to type partition values and build partition paths.
 */
#ifndef HL_PLAN_TABLE_H
#define HL_PLAN_TABLE_H

#include "session/session.h"
#include "sql/ast.h"
#include "util/value.h"

typedef struct hl_table {
  hl_cat_table_t *cat; /* the catalog record */
  /* The catalog the table lives in (session/catalogs.h), borrowed from the
   * session; NULL: the statement's s->cat (tables made from a record the
   * command read itself).  Use hl_table_catalog. */
  hl_cat_t *catalog;
  int n_data;              /* data columns: cat->cols */
  int n_part;              /* partition keys: cat->part_keys */
  int n_all;               /* n_data + n_part */
  const char **names;      /* n_all names: data columns then keys */
  const hl_type_t **types; /* n_all parsed types */
} hl_table_t;

/* Resolves database name DB (NULL: the session's current database) to a
 * lower-case name in ARENA. */
char *hl_table_db_name(hl_session_t *s, const char *db, hl_arena_t *arena);

/* The catalog T lives in (T->catalog, else S->cat). */
/* Registers the S3 settings of table T of CATALOG (its fs.s3a.* TBLPROPERTIES
 * and its catalog's properties) for its location (session/s3conf.h); does
 * nothing for a table not on S3. */
hl_status_t hl_table_s3_scope(hl_session_t *s, hl_cat_t *catalog, const hl_cat_table_t *t,
                              hl_arena_t *arena, hl_error_t *err);
hl_cat_t *hl_table_catalog(const hl_session_t *s, const hl_table_t *t);

/* Looks up table QNAME in its catalog (QNAME->catalog, else the session's
 * current one: unknown is 3D000) and
 * parses its types (unqualified names use the current database).  Errors: 3F000 unknown database,
 * 42P01 unknown table (message `table "db.t" does not exist`), 42809 a view (see below), with
 * err->position = QNAME->pos. */
hl_status_t hl_table_load(hl_session_t *s, const hl_ast_qname_t *qname, hl_arena_t *arena,
                          hl_table_t **out, hl_error_t *err);
/* Same, accepting a view too (t->cat->view): for SELECT, DESCRIBE, SHOW
 * COLUMNS/CREATE TABLE/TBLPROPERTIES and DROP/ALTER VIEW.  hl_table_load
 * refuses a view with 42809 (`"db.v" is a view, not a table`), so every
 * command that reads or writes table storage never sees one. */
hl_status_t hl_table_load_or_view(hl_session_t *s, const hl_ast_qname_t *qname, hl_arena_t *arena,
                                  hl_table_t **out, hl_error_t *err);
/* Same from a catalog record already read. */
hl_status_t hl_table_from_catalog(hl_cat_table_t *cat, hl_arena_t *arena, hl_table_t **out,
                                  hl_error_t *err);

/* The reader a table needs: "text", "csv", "json", "parquet",
 * "sequencefile", "rcfile", "orc" or "avro"; NULL when hivelite cannot read
 * its format. */
const char *hl_table_format_name(const hl_cat_table_t *cat);

/* Index of column NAME (case-insensitive) in the combined layout, -1 if
 * none. */
int hl_table_column_index(const hl_table_t *t, const char *name);

/* Types partition value TEXT (NULL = default partition) of key KEY_IDX
 * into *out (NULL value when TEXT is NULL).  A value that does not convert
 * is an error naming key and value: 22P02 `invalid value "abc" for
 * partition column "hr" of type INT`. */
hl_status_t hl_table_part_value(const hl_table_t *t, int key_idx, const char *text,
                                hl_arena_t *arena, hl_value_t *out, hl_error_t *err);

/* The default directory of a partition: <table location>/<k=v/...>.  In
 * ARENA; NULL on OOM.  DEFAULT_NAME is the session's default partition
 * name. */
char *hl_table_part_path(const hl_table_t *t, char *const *values, const char *default_name,
                         hl_arena_t *arena);
/* The escaped partition name "k=v/k2=v2" in ARENA. */
char *hl_table_part_name(const hl_table_t *t, char *const *values, const char *default_name,
                         hl_arena_t *arena);

#endif
