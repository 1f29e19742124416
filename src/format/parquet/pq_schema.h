/*
 * pq_schema.h -- the Parquet schema tree and its mapping to Hive types.
 *
 * FileMetaData.schema is a depth-first list of SchemaElements; this file
 * rebuilds the tree, computes each node's maximum definition and repetition
 * levels, numbers the leaves (leaf i is column chunk i of every row group),
 * and gives every node the Hive type (util/type.h) of the value it stands
 * for.  The reader matches table columns to top-level fields by lower-case
 * name and assembles values from the leaves under a field; the writer turns
 * Hive column types into SchemaElements with hl_pq_schema_from_hive and
 * builds the tree of that list to get its levels.
 *
 * Type mapping (the node's type; conv says how leaf values convert):
 *   BOOLEAN                      -> BOOLEAN
 *   INT32                        -> INT; INT(8|16|32, signed) -> TINYINT |
 *                                   SMALLINT | INT; INT(8|16, unsigned) ->
 *                                   SMALLINT | INT; INT(32, unsigned) -> BIGINT;
 *                                   DATE -> DATE; DECIMAL -> DECIMAL(p,s);
 *                                   TIME(MILLIS) -> STRING
 *   INT64                        -> BIGINT; INT(64, unsigned) -> DECIMAL(20,0);
 *                                   TIMESTAMP(any unit) -> TIMESTAMP; DECIMAL;
 *                                   TIME(MICROS|NANOS) -> STRING
 *   INT96                        -> TIMESTAMP (Impala/Spark legacy)
 *   FLOAT, DOUBLE                -> FLOAT, DOUBLE
 *   BYTE_ARRAY                   -> STRING if STRING/UTF8, ENUM or JSON;
 *                                   DECIMAL if annotated; else BINARY
 *   FIXED_LEN_BYTE_ARRAY         -> DECIMAL if annotated; UUID -> STRING
 *                                   (8-4-4-4-12 lower-case hex); FLOAT16 ->
 *                                   FLOAT; STRING/UTF8 -> STRING; else BINARY
 *   group LIST (any legacy form) -> ARRAY;  group MAP / MAP_KEY_VALUE -> MAP;
 *   other group -> STRUCT;  a repeated field outside LIST/MAP -> ARRAY of it.
 * TIME becomes STRING "HH:MM:SS[.ffffff]" (Hive has no TIME type; this is
 * how DuckDB prints TIME; nanoseconds are truncated to microseconds).
 * TIMESTAMP with isAdjustedToUTC=true reads the UTC wall clock (as Hive
 * and Spark with a UTC session do).  The LogicalType wins over the
 * ConvertedType; an annotation that does not fit the physical type, or a
 * LogicalType this code does not know, is ignored (physical mapping).  A
 * MAP without a value field maps to MAP<key, STRING> whose values are all
 * NULL (node->value is NULL).  Struct field names and top-level names are
 * lower-cased, as Hive does.
 *
 * Legacy lists (LogicalTypes.md "Backward-compatibility rules"): inside a
 * LIST group, the repeated child is itself the element when it is
 * primitive, a group of several fields, or a one-field group named "array"
 * or "<list name>_tuple"; otherwise its only child is the element.
 *
 * Ownership: everything lives in the arena passed to the builder; the tree
 * points into (borrows) the SchemaElements it was built from.
 */
#ifndef HL_PQ_SCHEMA_H
#define HL_PQ_SCHEMA_H

#include "format/parquet/pq_meta.h"
#include "util/type.h"

#define HL_PQ_SCHEMA_MAX_DEPTH 100 /* nesting levels below the root */

typedef enum hl_pq_node_kind {
  HL_PQ_NODE_PRIMITIVE, /* a leaf: one column chunk */
  HL_PQ_NODE_STRUCT,    /* children are the fields (also the root) */
  HL_PQ_NODE_LIST,      /* ARRAY: repeated, element */
  HL_PQ_NODE_MAP        /* MAP: repeated, key, value */
} hl_pq_node_kind_t;

/* How a leaf's physical values become values of its node's Hive type
 * (exec/vector.h layouts: I64 for integers, DATE days, TIMESTAMP micros). */
typedef enum hl_pq_conv {
  HL_PQ_CV_BOOLEAN,       /* BOOLEAN */
  HL_PQ_CV_INT32,         /* INT32 sign-extended (TINYINT..INT, unsigned 8/16) */
  HL_PQ_CV_UINT32,        /* INT32 zero-extended -> BIGINT */
  HL_PQ_CV_INT64,         /* INT64 -> BIGINT */
  HL_PQ_CV_UINT64,        /* INT64 zero-extended -> DECIMAL(20,0) */
  HL_PQ_CV_DATE,          /* INT32 days since 1970-01-01 */
  HL_PQ_CV_TIME_MILLIS,   /* INT32 ms since midnight -> STRING (hl_pq_format_time) */
  HL_PQ_CV_TIME_MICROS,   /* INT64 us since midnight -> STRING */
  HL_PQ_CV_TIME_NANOS,    /* INT64 ns since midnight -> STRING */
  HL_PQ_CV_TS_MILLIS,     /* INT64 ms since the epoch -> TIMESTAMP (x1000) */
  HL_PQ_CV_TS_MICROS,     /* INT64 us since the epoch */
  HL_PQ_CV_TS_NANOS,      /* INT64 ns since the epoch (floor-divided by 1000) */
  HL_PQ_CV_TS_INT96,      /* INT96: LE int64 ns of day, LE int32 Julian day */
  HL_PQ_CV_FLOAT,         /* FLOAT */
  HL_PQ_CV_DOUBLE,        /* DOUBLE */
  HL_PQ_CV_FLOAT16,       /* FLBA(2) IEEE half, little-endian -> FLOAT */
  HL_PQ_CV_DECIMAL_INT32, /* INT32 unscaled */
  HL_PQ_CV_DECIMAL_INT64, /* INT64 unscaled */
  HL_PQ_CV_DECIMAL_BYTES, /* BYTE_ARRAY / FLBA big-endian two's complement */
  HL_PQ_CV_STRING,        /* BYTE_ARRAY / FLBA bytes as STRING */
  HL_PQ_CV_BINARY,        /* BYTE_ARRAY / FLBA bytes as BINARY */
  HL_PQ_CV_UUID           /* FLBA(16) -> STRING (hl_pq_format_uuid) */
} hl_pq_conv_t;

typedef struct hl_pq_node hl_pq_node_t;
struct hl_pq_node {
  const hl_pq_schema_elem_t *elem; /* borrowed from the element list */
  int elem_index;                  /* index in that list */
  char *name;                      /* lower-cased elem->name */
  hl_pq_node_t *parent;            /* NULL for the root */
  int n_children;
  hl_pq_node_t **children; /* the file's children, in order */
  int16_t max_def;         /* definition level at which this node is present */
  int16_t max_rep;         /* repetition level of the innermost repeated node
                              at or above this one */
  hl_pq_node_kind_t kind;
  hl_type_t *type; /* Hive type of this node's value */
  /* LIST: REPEATED is the repeated node (its levels say "one more element");
   * ELEMENT holds the element value.  When the repeated node is itself the
   * element (legacy lists, unannotated repeated fields) ELEMENT is a copy of
   * it with the element's kind and type, same elem, levels and leaves.
   * MAP: REPEATED is the key/value group, KEY and VALUE its fields (VALUE
   * NULL when the file has none).  Levels: the list/map is non-NULL when a
   * leaf's def >= repeated->max_def - 1 and has an entry when def >=
   * repeated->max_def (this also holds when REPEATED is the node itself:
   * such a list is never NULL).  Structure-only nodes (a REPEATED group that
   * is not the element) have type NULL. */
  hl_pq_node_t *repeated, *element, *key, *value;
  int leaf_index;           /* PRIMITIVE: its column index; -1 otherwise */
  int first_leaf, n_leaves; /* leaves under this node */
  hl_pq_conv_t conv;        /* PRIMITIVE */
  const char *unsupported;  /* static reason this value cannot be read, or NULL
                              (DECIMAL precision above 38, unknown physical type or
                              repetition, empty group, complex MAP key); set on the
                              node and every enclosing one */
};

typedef struct hl_pq_leaf {
  hl_pq_node_t *node; /* the PRIMITIVE node */
  int16_t max_def, max_rep;
  int n_path;
  char **path;    /* element names from below the root, as in the file */
  char *path_str; /* the same joined with '.' */
  int field;      /* index of its top-level field */
} hl_pq_leaf_t;

typedef struct hl_pq_schema {
  hl_pq_node_t *root; /* STRUCT of the top-level fields */
  int n_fields;
  hl_pq_node_t **fields; /* = root->children */
  int n_leaves;
  hl_pq_leaf_t *leaves; /* in element (= column chunk) order */
} hl_pq_schema_t;

/* Builds the tree of ELEMS[0..n_elems) (borrowed; must outlive the tree)
 * in ARENA.  HL_CORRUPT when num_children does not fit the list, the list
 * has elements left over, the root is a primitive, a leaf lacks a type or
 * a FIXED_LEN_BYTE_ARRAY lacks a positive type_length, or nesting passes
 * HL_PQ_SCHEMA_MAX_DEPTH; HL_NOMEM. */
hl_status_t hl_pq_schema_build(hl_arena_t *arena, const hl_pq_schema_elem_t *elems, int n_elems,
                               hl_pq_schema_t **out, hl_error_t *err);

/* Checks that row group RG has one column chunk per leaf, each with
 * metadata whose physical type and path_in_schema match the leaf, and that
 * the chunk is in this file (no file_path) and not encrypted.  HL_CORRUPT
 * or HL_UNSUPPORTED (0A000). */
hl_status_t hl_pq_schema_check_row_group(const hl_pq_schema_t *s, const hl_pq_row_group_t *rg,
                                         hl_error_t *err);

/* Index of the top-level field named NAME (ASCII case-insensitive; the
 * first one if several match), or -1. */
int hl_pq_schema_find_field(const hl_pq_schema_t *s, const char *name);

/* For top-level field IDX: its Hive type (OUT *TYPE, in the schema's
 * arena) and its leaves [*first_leaf, *first_leaf + *n_leaves).  Any OUT
 * pointer may be NULL.  Returns the field's node. */
const hl_pq_node_t *hl_pq_schema_field(const hl_pq_schema_t *s, int idx, const hl_type_t **type,
                                       int *first_leaf, int *n_leaves);

/* The writer's direction: SchemaElements (root "hive_schema" first) for
 * N_COLS columns of TYPES named NAMES, in ARENA.  Every field is OPTIONAL
 * (Hive columns are nullable); STRING/VARCHAR/CHAR -> BYTE_ARRAY STRING;
 * BINARY -> BYTE_ARRAY; TINYINT/SMALLINT -> INT32 INT(8|16, signed); INT ->
 * INT32; BIGINT -> INT64; DATE -> INT32 DATE; DECIMAL p <= 9 -> INT32, p <=
 * 18 -> INT64, else FIXED_LEN_BYTE_ARRAY of the fewest bytes that hold p
 * digits; TIMESTAMP -> INT64 TIMESTAMP(MICROS, isAdjustedToUTC=false), or
 * INT96 when INT96_TIMESTAMPS; ARRAY -> 3-level LIST (list/element); MAP ->
 * MAP (key_value, required key, optional value); STRUCT -> group.  Decimals
 * and the other annotations also set the ConvertedType (and scale and
 * precision) for old readers.  HL_UNSUPPORTED (0A000) for a type with no
 * Parquet form (the NULL/void type); HL_NOMEM. */
hl_status_t hl_pq_schema_from_hive(hl_arena_t *arena, int n_cols, const hl_type_t *const *types,
                                   const char *const *names, bool int96_timestamps,
                                   hl_pq_schema_elem_t **elems, int *n_elems, hl_error_t *err);

/* Formats a UUID (16 big-endian bytes) as 36 characters + NUL into OUT. */
void hl_pq_format_uuid(const uint8_t bytes[16], char out[37]);
/* Formats a TIME value of UNIT since midnight as "HH:MM:SS" or
 * "HH:MM:SS.ffffff" (fraction only when nonzero, trailing zeros dropped;
 * nanoseconds truncated to microseconds) into OUT; returns the length.
 * Values outside one day (or negative) still format, hours beyond 23. */
size_t hl_pq_format_time(int64_t value, hl_pq_time_unit_t unit, char out[32]);

#endif
