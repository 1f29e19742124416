/*
 * type.h -- Hive data types.
 *
 * One description of a type serves the parser (DDL), the catalog (types are
 * stored as Hive's lower-case text, e.g. "decimal(10,2)",
 * "map<string,array<int>>"), the vectors (physical layout) and the formats.
 * hl_type_parse reads the text form, so the SQL parser and the catalog share
 * one grammar for types.
 */
#ifndef HL_TYPE_H
#define HL_TYPE_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum hl_type_id {
  HL_T_NULL = 0, /* type of an untyped NULL literal ("void") */
  HL_T_BOOLEAN,
  HL_T_TINYINT,
  HL_T_SMALLINT,
  HL_T_INT,
  HL_T_BIGINT,
  HL_T_FLOAT,
  HL_T_DOUBLE,
  HL_T_DECIMAL,
  HL_T_STRING,
  HL_T_VARCHAR,
  HL_T_CHAR,
  HL_T_DATE,
  HL_T_TIMESTAMP,
  HL_T_BINARY,
  HL_T_ARRAY,
  HL_T_MAP,
  HL_T_STRUCT,
  HL_T_UNION, /* UNIONTYPE<t0, t1, ...>: one value of one of the alternatives */
  /* Hive's interval types: expression types only (Hive refuses them as
   * table columns, and so does hivelite: no format reads or writes them) */
  HL_T_INTERVAL_YM, /* interval_year_month: total months */
  HL_T_INTERVAL_DT  /* interval_day_time: total microseconds */
} hl_type_id_t;

/* Most alternatives of a UNIONTYPE: Hive's tag is a signed byte. */
#define HL_UNION_MAX_TAGS 128

/* How values of a type are laid out in a vector (exec/vector.h). */
typedef enum hl_phys {
  HL_P_BOOL, /* uint8_t 0/1 */
  HL_P_I64,  /* int64_t: TINYINT..BIGINT; DATE = days since 1970-01-01;
                TIMESTAMP = microseconds since 1970-01-01 00:00:00 (no zone);
                INTERVAL_YEAR_MONTH = months; INTERVAL_DAY_TIME = microseconds */
  HL_P_F64,  /* double: FLOAT (rounded to float on entry) and DOUBLE */
  HL_P_I128, /* __int128 unscaled DECIMAL value */
  HL_P_STR,  /* hl_str_t: STRING, VARCHAR, CHAR, BINARY */
  HL_P_VALUE /* hl_value_t *: ARRAY, MAP, STRUCT, UNIONTYPE (and NULL type) */
} hl_phys_t;

typedef struct hl_type {
  hl_type_id_t id;
  int precision;             /* DECIMAL: 1..38 (default 10) */
  int scale;                 /* DECIMAL: 0..precision (default 0) */
  int length;                /* VARCHAR 1..65535, CHAR 1..255 */
  int n_children;            /* ARRAY 1, MAP 2 (key, value), STRUCT n, UNIONTYPE n */
  struct hl_type **children; /* element / key,value / fields / alternatives */
  char **field_names;        /* STRUCT field names, as written */
} hl_type_t;

/* Statically allocated primitive types (no precision/length). */
const hl_type_t *hl_type_prim(hl_type_id_t id);
/* A DECIMAL(p,s) / VARCHAR(n) / CHAR(n) in ARENA.  NULL on OOM. */
hl_type_t *hl_type_decimal(hl_arena_t *arena, int precision, int scale);
hl_type_t *hl_type_varchar(hl_arena_t *arena, hl_type_id_t id, int length);
/* Deep copy into ARENA.  NULL on OOM. */
hl_type_t *hl_type_copy(hl_arena_t *arena, const hl_type_t *type);

/* Parses a type from TEXT[0..len).  Parses the longest prefix that is a type
 * and sets *consumed to its length (trailing blanks are not consumed);
 * names are case-insensitive ("INTEGER" = "INT", "DEC"/"NUMERIC" = DECIMAL).
 * On error sets ERR (SQLSTATE 42601 or 42611) with err->position = the byte
 * offset of the problem within TEXT. */
hl_status_t hl_type_parse(hl_arena_t *arena, const char *text, size_t len, size_t *consumed,
                          hl_type_t **out, hl_error_t *err);
/* Parses a whole string (nothing may follow the type). */
hl_status_t hl_type_parse_str(hl_arena_t *arena, const char *text, hl_type_t **out,
                              hl_error_t *err);

/* Hive's canonical lower-case spelling.  NULL on OOM. */
char *hl_type_to_string(hl_arena_t *arena, const hl_type_t *type);

/* Inline: called per value in the hottest loops. */
static inline hl_phys_t hl_type_phys(const hl_type_t *type) {
  static const unsigned char phys[] = {
      [HL_T_NULL] = HL_P_VALUE,   [HL_T_BOOLEAN] = HL_P_BOOL,    [HL_T_TINYINT] = HL_P_I64,
      [HL_T_SMALLINT] = HL_P_I64, [HL_T_INT] = HL_P_I64,         [HL_T_BIGINT] = HL_P_I64,
      [HL_T_FLOAT] = HL_P_F64,    [HL_T_DOUBLE] = HL_P_F64,      [HL_T_DECIMAL] = HL_P_I128,
      [HL_T_STRING] = HL_P_STR,   [HL_T_VARCHAR] = HL_P_STR,     [HL_T_CHAR] = HL_P_STR,
      [HL_T_DATE] = HL_P_I64,     [HL_T_TIMESTAMP] = HL_P_I64,   [HL_T_BINARY] = HL_P_STR,
      [HL_T_ARRAY] = HL_P_VALUE,  [HL_T_MAP] = HL_P_VALUE,       [HL_T_STRUCT] = HL_P_VALUE,
      [HL_T_UNION] = HL_P_VALUE,  [HL_T_INTERVAL_YM] = HL_P_I64, [HL_T_INTERVAL_DT] = HL_P_I64,
  };
  return (unsigned)type->id < sizeof phys ? (hl_phys_t)phys[type->id] : HL_P_VALUE;
}
bool hl_type_equal(const hl_type_t *a, const hl_type_t *b);
bool hl_type_is_integer(const hl_type_t *type);  /* TINYINT..BIGINT */
bool hl_type_is_numeric(const hl_type_t *type);  /* integers, FLOAT, DOUBLE, DECIMAL */
bool hl_type_is_string(const hl_type_t *type);   /* STRING, VARCHAR, CHAR */
bool hl_type_is_complex(const hl_type_t *type);  /* ARRAY, MAP, STRUCT, UNIONTYPE */
bool hl_type_is_interval(const hl_type_t *type); /* INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME */
/* Whether TYPE is or holds an interval type at any depth: such a type
 * cannot be a table column, nor reach a format's reader or writer. */
bool hl_type_has_interval(const hl_type_t *type);
/* Whether TYPE is of kind ID or has a part of that kind at any depth
 * (formats that cannot hold a UNIONTYPE look for one anywhere). */
bool hl_type_contains(const hl_type_t *type, hl_type_id_t id);
/* Name of the type id in upper case ("BIGINT"). */
const char *hl_type_id_name(hl_type_id_t id);

#endif
