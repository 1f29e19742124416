/*
 * ast.h -- the HiveQL syntax tree.
 *
 * The parser (parser.c) builds these nodes in the statement arena, so a
 * syntax error frees everything at once.  Every node carries `pos`, the byte
 * offset of its first token in the statement text, for error messages.
 * Identifiers are stored lower-case unless noted (Hive identifiers are
 * case-insensitive); string literals are stored unescaped.
 */
#ifndef HL_AST_H
#define HL_AST_H

#include "util/arena.h"
#include "util/type.h"

#include <stdbool.h>
#include <stdint.h>

/* ---------------------------------------------------------------- names */

typedef struct hl_ast_qname {
  char *catalog; /* catalog.db.name; NULL when not given */
  char *db;      /* NULL when unqualified */
  char *name;
  long pos;
} hl_ast_qname_t;

typedef struct hl_ast_kv { /* ('key'='value') property */
  char *key;
  char *value;
  long pos;
} hl_ast_kv_t;

typedef struct hl_ast_kvlist {
  hl_ast_kv_t *items;
  int n;
} hl_ast_kvlist_t;

/* ---------------------------------------------------------- expressions */

typedef enum hl_ast_expr_kind {
  HL_AST_LITERAL,  /* lit_type + text */
  HL_AST_COLUMN,   /* [qualifier.]name */
  HL_AST_STAR,     /* [qualifier.]* in a select list or count(*) */
  HL_AST_UNARY,    /* op + args[0] */
  HL_AST_BINARY,   /* op + args[0], args[1] */
  HL_AST_IS_NULL,  /* args[0] IS [NOT] NULL (negated) */
  HL_AST_IN,       /* args[0] [NOT] IN (args[1..n)) */
  HL_AST_BETWEEN,  /* args[0] [NOT] BETWEEN args[1] AND args[2] */
  HL_AST_LIKE,     /* args[0] [NOT] LIKE|RLIKE|REGEXP args[1]; op says which */
  HL_AST_FUNC,     /* name(args) [distinct]; count(*) has one HL_AST_STAR arg */
  HL_AST_CAST,     /* CAST(args[0] AS cast_type [FORMAT args[1], a string literal]) */
  HL_AST_CASE,     /* CASE [args[0]=operand if has_operand] WHEN.. THEN.. [ELSE] END:
                      args = [operand] (when, then)* [else]; has_else */
  HL_AST_SUBQUERY, /* (SELECT ...) as a scalar value: subquery */
  HL_AST_EXISTS,   /* [NOT] EXISTS (SELECT ...): subquery, negated */
  HL_AST_INDEX,    /* args[0][args[1]]: array element or map value */
  HL_AST_FIELD,    /* args[0].name: struct field (pos: the field name) */
  HL_AST_PARAM     /* ? or $n: statement parameter number `param` (1-based) */
} hl_ast_expr_kind_t;

typedef enum hl_ast_op {
  HL_OP_NONE = 0,
  HL_OP_AND,
  HL_OP_OR,
  HL_OP_NOT,
  HL_OP_EQ, /* = and == */
  HL_OP_NE, /* <> and != */
  HL_OP_LT,
  HL_OP_LE,
  HL_OP_GT,
  HL_OP_GE,
  HL_OP_EQ_NS, /* <=> null-safe equality */
  HL_OP_ADD,
  HL_OP_SUB,
  HL_OP_MUL,
  HL_OP_DIV,    /* / */
  HL_OP_IDIV,   /* DIV */
  HL_OP_MOD,    /* % */
  HL_OP_NEG,    /* unary - */
  HL_OP_PLUS,   /* unary + */
  HL_OP_BITAND, /* & */
  HL_OP_BITOR,  /* | */
  HL_OP_BITXOR, /* ^ */
  HL_OP_BITNOT, /* ~ */
  HL_OP_CONCAT, /* || */
  HL_OP_LIKE,
  HL_OP_RLIKE,        /* RLIKE and REGEXP */
  HL_OP_DISTINCT_FROM /* IS [NOT] DISTINCT FROM: negated = IS NOT */
} hl_ast_op_t;

typedef enum hl_ast_lit_type {
  HL_LIT_NULL,
  HL_LIT_BOOL,      /* text "true"/"false" */
  HL_LIT_INTEGER,   /* digits (fits or not: the binder types it) */
  HL_LIT_DECIMAL,   /* digits with a point: 1.5 (Hive types it DECIMAL) */
  HL_LIT_DOUBLE,    /* with exponent: 1e3, or suffix D */
  HL_LIT_STRING,    /* unescaped text, adjacent literals concatenated */
  HL_LIT_DATE,      /* DATE 'yyyy-mm-dd' (text is the string) */
  HL_LIT_TIMESTAMP, /* TIMESTAMP '...' */
  HL_LIT_TYPED_INT  /* integer with suffix: Y (tinyint) S (smallint) L (bigint)
                       BD (decimal); suffix in lit_suffix */
} hl_ast_lit_type_t;

typedef struct hl_ast_expr {
  hl_ast_expr_kind_t kind;
  long pos;
  hl_ast_op_t op;
  bool negated; /* NOT IN, NOT BETWEEN, NOT LIKE, IS NOT NULL */
  /* literal */
  hl_ast_lit_type_t lit_type;
  char *text;         /* literal text; NUL-terminated */
  size_t text_len;    /* bytes (strings may hold NUL) */
  char lit_suffix[3]; /* "Y","S","L","BD" or "" */
  /* column / star / function */
  char *qualifier; /* table alias or NULL */
  long name_pos;   /* HL_AST_COLUMN with a qualifier: where name starts */
  char *name;      /* column or function name (lower-case) */
  bool distinct;   /* func(DISTINCT ...) */
  /* cast */
  hl_type_t *cast_type;
  /* case */
  bool has_operand;
  bool has_else;
  /* children */
  struct hl_ast_expr **args;
  int n_args;
  /* HL_AST_SUBQUERY, HL_AST_EXISTS, and HL_AST_IN with a subquery (then
   * args holds only the probe expression) */
  struct hl_ast_select *subquery;
  /* HL_AST_FUNC with OVER (...): a window function */
  struct hl_ast_window *window;
  int param; /* HL_AST_PARAM: its number, 1-based */
  /* HL_AST_FUNC "matchpath" OVER (...) that plan/ptf.c writes for a
   * matchpath table function: its compiled pattern (vector/matchpath.h).
   * The parser never sets it, so no query can call this window function
   * by name. */
  const struct hl_mp_pattern *mp_pattern;
} hl_ast_expr_t;

/* Frame bound of a window: UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW,
 * n FOLLOWING, UNBOUNDED FOLLOWING. */
typedef enum hl_ast_frame_kind {
  HL_FRAME_UNBOUNDED_PRECEDING,
  HL_FRAME_PRECEDING,
  HL_FRAME_CURRENT_ROW,
  HL_FRAME_FOLLOWING,
  HL_FRAME_UNBOUNDED_FOLLOWING
} hl_ast_frame_kind_t;

typedef struct hl_ast_window {
  hl_ast_expr_t **partition_by;
  int n_partition_by;
  struct hl_ast_order_item *order_by;
  int n_order_by;
  bool has_frame;  /* ROWS/RANGE given */
  bool frame_rows; /* ROWS (else RANGE) */
  hl_ast_frame_kind_t start_kind, end_kind;
  int64_t start_offset, end_offset; /* for n PRECEDING / n FOLLOWING */
  long pos;
} hl_ast_window_t;

/* ----------------------------------------------------------------- select */

typedef struct hl_ast_select_item {
  hl_ast_expr_t *expr; /* HL_AST_STAR for * and t.* */
  char *alias;         /* NULL when none */
  long pos;
} hl_ast_select_item_t;

typedef struct hl_ast_order_item {
  hl_ast_expr_t *expr;
  bool descending;
  int nulls; /* 0 default, 1 NULLS FIRST, 2 NULLS LAST */
} hl_ast_order_item_t;

typedef struct hl_ast_table_ref {
  hl_ast_qname_t table;
  char *alias; /* NULL when none */
  long pos;
} hl_ast_table_ref_t;

typedef enum hl_ast_join_type {
  HL_JOIN_INNER,
  HL_JOIN_LEFT,
  HL_JOIN_RIGHT,
  HL_JOIN_FULL,
  HL_JOIN_CROSS,
  HL_JOIN_LEFT_SEMI,
  HL_JOIN_LEFT_ANTI
} hl_ast_join_type_t;

typedef enum hl_ast_from_kind {
  HL_FROM_TABLE,    /* table [alias] */
  HL_FROM_SUBQUERY, /* (query) alias */
  HL_FROM_JOIN,     /* left JOIN right ON ... | USING (...) */
  HL_FROM_LATERAL,  /* left LATERAL VIEW [OUTER] lateral_func alias [AS cols] */
  HL_FROM_PTF       /* ptf_name(ON left [PARTITION BY ..] [ORDER BY ..] args) alias */
} hl_ast_from_kind_t;

/* The FROM clause as a tree: a comma list is a chain of CROSS joins. */
typedef struct hl_ast_from {
  hl_ast_from_kind_t kind;
  long pos;
  hl_ast_qname_t table;           /* TABLE */
  struct hl_ast_select *subquery; /* SUBQUERY */
  char *alias;                    /* TABLE, SUBQUERY; NULL when none */
  hl_ast_join_type_t join_type;   /* JOIN */
  struct hl_ast_from *left, *right;
  hl_ast_expr_t *on; /* NULL when none */
  char **using_cols;
  int n_using;
  /* TABLE: TABLESAMPLE (n ROWS) when has_sample (the first n rows of each
   * file); a zeroed node has no sample */
  bool has_sample;
  int64_t sample_rows;
  /* LATERAL: the generator call (explode, posexplode), OUTER, the table
   * alias in `alias` and the column aliases (n_lateral_cols 0: defaults) */
  hl_ast_expr_t *lateral_func;
  bool lateral_outer;
  char **lateral_cols;
  int n_lateral_cols;
  /* TABLE: Spark's direct file query parquet.`path`: the path as written
   * (case kept); table is then {db "parquet", name = the path}.  NULL for
   * a table name. */
  char *file_path;
  /* PTF: Hive's partitioned table function; the source (a table, a
   * subquery or another PTF, with its own alias) is `left`; DISTRIBUTE BY
   * is PARTITION BY and SORT BY is ORDER BY (CLUSTER BY x: both); the
   * arguments in order (Hive ignores their names arg1, arg2, ...) */
  char *ptf_name;
  hl_ast_expr_t **ptf_partition;
  int n_ptf_partition;
  struct hl_ast_order_item *ptf_order;
  int n_ptf_order;
  hl_ast_expr_t **ptf_args;
  int n_ptf_args;
} hl_ast_from_t;

typedef struct hl_ast_cte { /* WITH name AS (query) */
  char *name;
  struct hl_ast_select *query;
  long pos;
} hl_ast_cte_t;

typedef enum hl_ast_setop {
  HL_SETOP_NONE = 0,
  HL_SETOP_UNION_ALL,
  HL_SETOP_UNION, /* UNION [DISTINCT] */
  HL_SETOP_INTERSECT,
  HL_SETOP_EXCEPT /* EXCEPT and MINUS */
} hl_ast_setop_t;

typedef struct hl_ast_select {
  /* a set operation node: setop != NONE, set_left/set_right are the
   * operands and only order_by/limit/offset/ctes of this node are used */
  hl_ast_setop_t setop;
  struct hl_ast_select *set_left, *set_right;
  hl_ast_cte_t *ctes; /* WITH clause of this query, or NULL */
  int n_ctes;
  hl_ast_from_t *from_item; /* the FROM clause tree; NULL without FROM */
  bool distinct;
  hl_ast_select_item_t *items;
  int n_items;
  hl_ast_table_ref_t *from; /* the single table when FROM is one plain table
                               (from_item says the same), else NULL */
  hl_ast_expr_t *where;     /* NULL when none */
  hl_ast_expr_t **group_by;
  int n_group_by;
  /* GROUPING SETS / ROLLUP / CUBE: each set is a bitmask over group_by
   * (bit i = group_by[i] is grouped); NULL for a plain GROUP BY */
  uint64_t *grouping_sets;
  int n_grouping_sets;
  hl_ast_expr_t *having;
  hl_ast_order_item_t *order_by;
  int n_order_by;
  bool has_limit;
  int64_t limit;
  int64_t offset;   /* 0 when none */
  int limit_param;  /* LIMIT ?: the parameter number giving limit (0: none) */
  int offset_param; /* OFFSET ? / LIMIT ?, n: the one giving offset (0: none) */
  long pos;
} hl_ast_select_t;

/* --------------------------------------------------------------- DDL bits */

typedef struct hl_ast_column_def {
  char *name;
  hl_type_t *type;
  char *comment; /* NULL when none */
  long pos;
} hl_ast_column_def_t;

/* One item of a PARTITION (...) spec: key op value.  For ADD/LOAD/SHOW the
 * op is HL_OP_EQ.  DROP PARTITION accepts comparisons.  value is a literal
 * expression (HL_AST_LITERAL, possibly a negative number), or NULL for a
 * dynamic key (PARTITION (dt)). */
typedef struct hl_ast_part_item {
  char *key;
  hl_ast_op_t op;
  hl_ast_expr_t *value;
  long pos;
} hl_ast_part_item_t;

typedef struct hl_ast_part_spec {
  hl_ast_part_item_t *items;
  int n;
  long pos;
} hl_ast_part_spec_t;

typedef struct hl_ast_row_format {
  bool present;
  bool is_serde; /* ROW FORMAT SERDE 'class' */
  char *serde_class;
  hl_ast_kvlist_t serde_props; /* WITH SERDEPROPERTIES */
  /* ROW FORMAT DELIMITED: NULL when not given (strings as written, e.g.
   * "\001" already unescaped to the byte, or "," ) */
  char *fields_terminated;
  char *escaped_by;
  char *collection_terminated;
  char *map_keys_terminated;
  char *lines_terminated;
  char *null_defined_as;
} hl_ast_row_format_t;

typedef struct hl_ast_create_table {
  bool external;
  bool temporary; /* refused by the executor */
  bool if_not_exists;
  hl_ast_qname_t name;
  hl_ast_column_def_t *cols;
  int n_cols;
  char *comment;
  hl_ast_column_def_t *part_cols;
  int n_part_cols;
  char **bucket_cols;    /* CLUSTERED BY */
  long *bucket_cols_pos; /* offset of each bucket column's token */
  int n_bucket_cols;
  hl_ast_order_item_t *sort_cols; /* SORTED BY (expr is a COLUMN) */
  int n_sort_cols;
  int num_buckets; /* -1 when not clustered */
  hl_ast_row_format_t row_format;
  char *stored_as;    /* TEXTFILE, PARQUET, ... upper-case; NULL */
  char *input_format; /* STORED AS INPUTFORMAT '..' OUTPUTFORMAT '..' */
  char *output_format;
  char *stored_by; /* STORED BY 'handler' (refused) */
  char *location;
  hl_ast_kvlist_t tblprops;
  hl_ast_qname_t *like;            /* CREATE TABLE t LIKE src */
  char *like_parquet;              /* CREATE TABLE t LIKE PARQUET 'path' (Impala); NULL */
  struct hl_ast_stmt *as_select;   /* CTAS (refused until writes exist) */
  hl_ast_kvlist_t stored_by_props; /* STORED BY '..' WITH SERDEPROPERTIES */
  /* Doris form: ENGINE=hive PARTITION BY LIST (names) (): without a column
   * list the partition columns are the query's columns of these names */
  char **part_names;
  int n_part_names;
  /* Doris's PROPERTIES ('compression'='...'): the executor maps it to the
   * property of the table's format (parquet.compression, orc.compress,
   * text.compression) or refuses it; NULL when not given */
  char *compression;
  long compression_pos;
} hl_ast_create_table_t;

typedef enum hl_ast_alter_kind {
  HL_ALTER_RENAME,             /* new_name */
  HL_ALTER_ADD_COLUMNS,        /* cols; cascade.  ADD/REPLACE/CHANGE and the SET forms of
                                  the storage take part_specs[0] for one partition */
  HL_ALTER_REPLACE_COLUMNS,    /* cols */
  HL_ALTER_CHANGE_COLUMN,      /* old_col, cols[0] = new def, first / after_col */
  HL_ALTER_SET_TBLPROPS,       /* props */
  HL_ALTER_UNSET_TBLPROPS,     /* keys, if_exists */
  HL_ALTER_SET_LOCATION,       /* location; with part_specs[0] for a partition */
  HL_ALTER_SET_SERDEPROPS,     /* props; serde_class for SET SERDE */
  HL_ALTER_SET_SERDE,          /* serde_class + props */
  HL_ALTER_SET_FILEFORMAT,     /* stored_as */
  HL_ALTER_ADD_PARTITIONS,     /* part_specs + part_locations, if_not_exists */
  HL_ALTER_DROP_PARTITIONS,    /* part_specs, if_exists, purge */
  HL_ALTER_SET_DEFAULT_PART,   /* default_part: SET DEFAULT PARTITION TO 'name' */
  HL_ALTER_PART_KEY_TYPE,      /* cols[0]: PARTITION COLUMN (key new_type) */
  HL_ALTER_RENAME_PARTITION,   /* part_specs[0] -> part_specs[1] */
  HL_ALTER_EXCHANGE_PARTITION, /* part_specs[0] (may be partial) moves from table
                                  new_name (WITH TABLE) into this table */
  HL_ALTER_CLUSTERED_BY,       /* bucket_cols, sort_cols, num_buckets */
  HL_ALTER_TOUCH               /* part_specs (none: the table) */
} hl_ast_alter_kind_t;

typedef struct hl_ast_alter_table {
  hl_ast_alter_kind_t kind;
  hl_ast_qname_t name;
  hl_ast_qname_t new_name;
  hl_ast_column_def_t *cols;
  int n_cols;
  char *old_col;
  long old_col_pos;
  bool first;
  char *after_col;
  long after_col_pos;
  hl_ast_kvlist_t props;
  char **keys;
  int n_keys;
  bool if_exists;
  bool if_not_exists;
  bool purge;
  char *location;
  char *serde_class;
  char *stored_as;
  hl_ast_part_spec_t *part_specs;
  char **part_locations; /* per spec, NULL when none */
  int n_part_specs;
  char *default_part;    /* HL_ALTER_SET_DEFAULT_PART */
  bool cascade;          /* column changes: CASCADE (RESTRICT is the default) */
  char **bucket_cols;    /* CLUSTERED BY */
  long *bucket_cols_pos; /* offset of each bucket column's token */
  int n_bucket_cols;
  hl_ast_order_item_t *sort_cols; /* SORTED BY (expr is a COLUMN) */
  int n_sort_cols;
  int num_buckets;
} hl_ast_alter_table_t;

/* ------------------------------------------------------------- statements */

typedef enum hl_ast_stmt_kind {
  HL_STMT_SELECT,
  HL_STMT_EXPLAIN, /* explain: the inner statement */
  HL_STMT_CREATE_DATABASE,
  HL_STMT_DROP_DATABASE,
  HL_STMT_USE,
  HL_STMT_SHOW_DATABASES,
  HL_STMT_CREATE_TABLE,
  HL_STMT_DROP_TABLE,
  HL_STMT_ALTER_TABLE,
  HL_STMT_SHOW_TABLES,
  HL_STMT_SHOW_COLUMNS,
  HL_STMT_SHOW_TBLPROPERTIES,
  HL_STMT_SHOW_CREATE_TABLE,
  HL_STMT_SHOW_CREATE_DATABASE, /* db_name */
  HL_STMT_SHOW_PARTITIONS,
  HL_STMT_DESCRIBE,
  HL_STMT_DESCRIBE_DATABASE,
  HL_STMT_MSCK,
  HL_STMT_LOAD_DATA,
  HL_STMT_SET,
  HL_STMT_RESET,
  HL_STMT_INSERT,      /* inserts[0..n_inserts): INSERT, or FROM src INSERT ... INSERT ... */
  HL_STMT_TRUNCATE,    /* table + part_spec */
  HL_STMT_ANALYZE,     /* table + part_spec (items without value: every value), analyze_* */
  HL_STMT_CREATE_VIEW, /* create_view: CREATE VIEW and ALTER VIEW ... AS */
  HL_STMT_DROP_VIEW,   /* table, if_exists */
  HL_STMT_ALTER_VIEW,  /* alter_table (name = the view): RENAME, SET / UNSET TBLPROPERTIES */
  HL_STMT_SHOW_TABLE_EXTENDED, /* SHOW TABLE EXTENDED [IN db_name] LIKE like_pattern
                                  [PARTITION part_spec] */
  HL_STMT_CREATE_CATALOG,      /* catalog_name, if_not_exists, comment, props */
  HL_STMT_DROP_CATALOG,        /* catalog_name, if_exists */
  HL_STMT_SHOW_CATALOGS,       /* [LIKE like_pattern] */
  HL_STMT_SHOW_CHECKPOINTS,    /* SHOW CHECKPOINTS [FOR table] (table.name NULL: none) */
  HL_STMT_DROP_CHECKPOINT,     /* DROP CHECKPOINT [IF EXISTS] 'checkpoint_name' [FOR table] */
  HL_STMT_SHOW_CREATE_CATALOG, /* catalog_name */
  HL_STMT_ALTER_CATALOG,       /* catalog_name, alter_catalog */
  HL_STMT_SWITCH,              /* SWITCH catalog_name */
  HL_STMT_REFRESH,             /* REFRESH CATALOG catalog_name | DATABASE [catalog_name.]db_name
                                  | TABLE table: refresh_what */
  HL_STMT_PROFILE,             /* PROFILE TABLE table [PARTITION part_spec] ...: profile_* */
  HL_STMT_SHOW_FUNCTIONS,      /* SHOW FUNCTIONS [[LIKE] like_pattern] */
  HL_STMT_DESCRIBE_FUNCTION    /* DESCRIBE FUNCTION [EXTENDED] name: like_pattern holds the
                                  name as written, describe_mode 1 for EXTENDED */
} hl_ast_stmt_kind_t;

/* CREATE VIEW [IF NOT EXISTS] v [(col [COMMENT 'c'], ...)] [COMMENT 'c']
 * [TBLPROPERTIES (...)] AS query, and ALTER VIEW v AS query (alter). */
typedef struct hl_ast_create_view {
  bool alter; /* ALTER VIEW ... AS: replace the query of an existing view */
  bool if_not_exists;
  hl_ast_qname_t name;
  hl_ast_column_def_t *cols; /* names and comments only (type NULL); NULL when none */
  int n_cols;
  char *comment;
  hl_ast_kvlist_t tblprops;
  hl_ast_select_t *query;
  char *query_text; /* the query as written (Hive's view_original_text) */
  long query_pos;   /* byte offset of the query in the statement text */
} hl_ast_create_view_t;

/* ALTER CATALOG name SET PROPERTIES (props) | RENAME new | MODIFY COMMENT 'c' */
enum { HL_ALTER_CATALOG_SET_PROPS, HL_ALTER_CATALOG_RENAME, HL_ALTER_CATALOG_COMMENT };
/* REFRESH CATALOG | DATABASE | TABLE */
enum { HL_REFRESH_CATALOG, HL_REFRESH_DATABASE, HL_REFRESH_TABLE };

/* One INSERT INTO/OVERWRITE: the target and where its rows come from. */
typedef struct hl_ast_insert {
  bool overwrite;     /* INSERT OVERWRITE TABLE */
  bool if_not_exists; /* OVERWRITE ... PARTITION (...) IF NOT EXISTS */
  hl_ast_qname_t table;
  hl_ast_part_spec_t *part_spec; /* NULL when none; items without value are dynamic */
  char **columns;                /* (c1, c2) column list; NULL when none */
  long *columns_pos;             /* offset of each name in columns */
  int n_columns;
  hl_ast_select_t *query; /* the rows; NULL for VALUES */
  hl_ast_expr_t **values; /* VALUES: n_rows x n_values_cols expressions, row-major */
  int n_rows;
  int n_values_cols;
  long pos;
} hl_ast_insert_t;

typedef struct hl_ast_stmt {
  hl_ast_stmt_kind_t kind;
  long pos;
  long end_pos; /* offset just past the statement (before ';') */
  int n_params; /* parameters (? or $n) in the statement: their highest number */

  /* SELECT; also EXPLAIN's inner select via `inner` */
  hl_ast_select_t *select;
  struct hl_ast_stmt *inner; /* EXPLAIN */
  bool explain_analyze;      /* EXPLAIN ANALYZE: run it and report what it did */

  /* CREATE DATABASE / DROP DATABASE / USE / DESCRIBE DATABASE */
  char *db_name;
  bool if_exists;
  bool if_not_exists;
  bool cascade;
  char *comment;
  char *location;
  hl_ast_kvlist_t props; /* DBPROPERTIES, SET TBLPROPERTIES ... */

  /* Catalogs: the catalog a statement names (CREATE/DROP/ALTER/SHOW CREATE
   * CATALOG, SWITCH, REFRESH CATALOG), or the catalog part of USE c.db,
   * SHOW DATABASES FROM c, SHOW TABLES FROM c.db, REFRESH DATABASE c.db;
   * NULL when none is given.  catalog_pos: its offset. */
  char *catalog_name;
  long catalog_pos;
  long db_pos;            /* offset of db_name in USE c.db / REFRESH DATABASE c.db */
  int alter_catalog;      /* HL_ALTER_CATALOG_*: what ALTER CATALOG does */
  char *new_catalog_name; /* ALTER CATALOG a RENAME b */
  int refresh_what;       /* HL_REFRESH_*: what REFRESH names */

  /* SHOW ... [IN db] [LIKE 'pattern'] */
  char *like_pattern;

  /* DROP CHECKPOINT 'name' (the table of SHOW CHECKPOINTS FOR t and DROP
   * CHECKPOINT ... FOR t is `table`) */
  char *checkpoint_name;
  long checkpoint_pos;

  /* statements on one table: DROP TABLE, SHOW COLUMNS/TBLPROPERTIES/CREATE/
   * PARTITIONS, DESCRIBE, MSCK, LOAD */
  hl_ast_qname_t table;
  bool purge;                    /* DROP TABLE ... PURGE */
  char *prop_key;                /* SHOW TBLPROPERTIES t ('key') */
  bool show_sorted;              /* SHOW SORTED COLUMNS: names in order, not the table's */
  hl_ast_part_spec_t *part_spec; /* SHOW PARTITIONS / DESCRIBE / LOAD */
  hl_ast_select_t *show_filter;  /* SHOW PARTITIONS ... [WHERE] [ORDER BY] [LIMIT]: only
                                  * where/order_by/limit/offset are set; NULL if none */
  int describe_mode;             /* 0 plain, 1 EXTENDED, 2 FORMATTED */
  char *describe_column;         /* DESCRIBE t col */
  bool msck_repair;              /* MSCK REPAIR vs MSCK */
  int msck_mode;                 /* 0 ADD (default), 1 DROP, 2 SYNC */
  bool load_local;               /* LOAD DATA LOCAL */
  bool load_overwrite;
  char *load_path;

  hl_ast_create_table_t *create_table;
  hl_ast_alter_table_t *alter_table;
  hl_ast_create_view_t *create_view;

  /* SET key=value / SET / RESET: set_key NULL for bare SET */
  char *set_key;   /* as written (case kept) */
  char *set_value; /* raw text after '=', trimmed */

  /* INSERT (several for a multi-insert, which is one transaction) */
  hl_ast_insert_t *inserts;
  int n_inserts;

  /* ANALYZE TABLE t [PARTITION (spec)] COMPUTE STATISTICS
   * [NOSCAN | FOR COLUMNS [c, ...]] */
  bool analyze_noscan;
  bool analyze_for_columns;
  char **analyze_cols;    /* FOR COLUMNS c, ...: NULL (n 0) means every column */
  long *analyze_cols_pos; /* offset of each name in analyze_cols */
  int n_analyze_cols;

  /* PROFILE TABLE t [PARTITION (spec)] [WHERE expr] [LIMIT n]
   * [FULL | INCREMENTAL [AS 'name'] [WITH LATE]] */
  hl_ast_expr_t *profile_where; /* NULL when none */
  bool profile_has_limit;
  int64_t profile_limit;
  bool profile_incremental;
  char *profile_checkpoint; /* INCREMENTAL AS 'name'; NULL: the name "default" */
  long profile_checkpoint_pos;
  bool profile_with_late; /* INCREMENTAL ... WITH LATE */
} hl_ast_stmt_t;

#endif
