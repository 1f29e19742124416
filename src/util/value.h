/*
 * value.h -- single typed values: literals, partition values, complex cells.
 *
 * A value does not carry its type; the type travels beside it (column type,
 * partition key type).  Strings point into an arena or a buffer that
 * outlives the value.  The text conversions here are Hive's casts from and
 * to STRING, used by partition values, text files and CAST.
 */
#ifndef HL_VALUE_H
#define HL_VALUE_H

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/type.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hl_str {
  const char *ptr;
  uint32_t len;
} hl_str_t;

typedef struct hl_value {
  bool is_null;
  union {
    bool b;
    int64_t i;    /* integers, DATE days, TIMESTAMP micros */
    double d;     /* FLOAT, DOUBLE */
    __int128 dec; /* DECIMAL unscaled */
    hl_str_t s;   /* STRING, VARCHAR, CHAR, BINARY */
    struct {
      uint32_t n;             /* ARRAY: elements; MAP: entries; STRUCT: fields; UNIONTYPE: 1 */
      uint32_t tag;           /* UNIONTYPE: the alternative items[0] is of (< n_children) */
      struct hl_value *items; /* MAP: 2*n items, key then value */
    } list;
  } u;
} hl_value_t;

/* The items of a complex value V of TYPE, and the type of item I: the
 * one place that knows the layouts (array: one element type; map: key and
 * value alternate; struct: one per field; union: the tag's alternative), so
 * that walks over values (copies, casts, spills) treat all kinds alike. */
static inline size_t hl_value_n_items(const hl_type_t *type, const hl_value_t *v) {
  return type->id == HL_T_MAP ? 2 * (size_t)v->u.list.n : (size_t)v->u.list.n;
}
static inline const hl_type_t *hl_value_item_type(const hl_type_t *type, const hl_value_t *v,
                                                  size_t i) {
  switch (type->id) {
  case HL_T_MAP:
    return type->children[i % 2];
  case HL_T_STRUCT:
    return type->children[i];
  case HL_T_UNION:
    return type->children[v->u.list.tag];
  default:
    return type->children[0];
  }
}

/* Hive's cast from STRING: parses TEXT[0..len) as TYPE into *out.
 * Leading/trailing blanks are ignored for numbers, dates, timestamps and
 * booleans, as Hive does.  Returns HL_OK and sets *out; when the text is not
 * a value of the type returns HL_ERROR with SQLSTATE 22P02 (22003 when out of
 * range) in ERR -- callers that follow Hive's "bad cast is NULL" rule turn it
 * into NULL.  Strings are copied into ARENA (VARCHAR truncated to its length,
 * CHAR padded).  Complex types are not parsed here (formats own their
 * syntax). */
hl_status_t hl_value_from_text(hl_arena_t *arena, const hl_type_t *type, const char *text,
                               size_t len, hl_value_t *out, hl_error_t *err);

/* A CHAR(LENGTH) value from S[0..len): cut to LENGTH characters (UTF-8)
 * and padded with spaces to LENGTH, as Hive reads CHAR from every format.
 * *OUT points into S when S already has exactly LENGTH characters, else at
 * a copy in ARENA.  Returns -1 when out of memory (OUT unchanged). */
int hl_char_fit(hl_arena_t *arena, uint32_t length, const char *s, uint32_t len, hl_str_t *out);

/* Appends the text form of V (of TYPE) to BUF: the form Hive prints and
 * casts to STRING: integers in decimal, doubles shortest round-trip ("1.0",
 * "1.0E10" like Java for large/small magnitudes), decimals with exactly
 * `scale` digits, dates YYYY-MM-DD, timestamps YYYY-MM-DD HH:MM:SS[.ffffff
 * with trailing zeros removed], booleans true/false; complex values as Hive's
 * CLI shows them ([1,2], {"k":"v"}, {"field":1}, unions {0:1}).  NULL appends "NULL"
 * (top level) or null (inside a complex value). */
void hl_value_format(hl_buf_t *buf, const hl_type_t *type, const hl_value_t *v);

/* Orders two non-NULL values of TYPE (primitive types): <0, 0, >0.
 * Strings compare bytewise (CHAR ignoring trailing blanks), doubles with
 * NaN greater than everything (Hive/Java order). */
int hl_value_compare(const hl_type_t *type, const hl_value_t *a, const hl_value_t *b);

/* The order of a sort key: hl_value_compare's, reversed when DESC, with
 * NULL first or last whatever the direction (Hive's ORDER BY and window
 * ORDER BY). */
int hl_value_sort_compare(const hl_type_t *type, const hl_value_t *a, const hl_value_t *b,
                          bool desc, bool nulls_first);

/* Sort keys: whether TYPE has an order-preserving 64-bit prefix, and the
 * prefix of V in hl_value_sort_compare's order: prefix(a) < prefix(b)
 * implies a sorts before b, equal prefixes settle nothing.  Sorts compare prefixes in a compact
 * array before touching the rows (DuckDB's normalized keys, the first 8 bytes). */
bool hl_value_has_sort_prefix(const hl_type_t *type);
uint64_t hl_value_sort_prefix(const hl_type_t *type, const hl_value_t *v, bool desc,
                              bool nulls_first);

/* Appends a byte key for V (of TYPE) to BUF such that two values of the
 * type have equal keys exactly when they are the same value for grouping:
 * a null flag, then fixed-width bytes or a length-prefixed string (CHAR
 * without trailing blanks, -0.0 as 0.0, one NaN, complex values by their
 * text form).  Used by GROUP BY, DISTINCT, set operations and IN sets. */
void hl_value_key_append(hl_buf_t *buf, const hl_type_t *type, const hl_value_t *v);

/* Calendar helpers (proleptic Gregorian, as Hive 3+). */
int64_t hl_days_from_civil(int64_t year, unsigned month, unsigned day);
void hl_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day);
/* Days in MONTH (1..12) of YEAR. */
int hl_days_in_month(int64_t year, unsigned month);
/* Parses YYYY-MM-DD (1..4 digit year allowed as Hive does).  Returns 0 ok. */
int hl_parse_date(const char *s, size_t len, int64_t *days);
/* Parses YYYY-MM-DD[( |T)HH:MM[:SS[.fffffffff]]], fractional digits beyond
 * microseconds are truncated.  Returns 0 ok. */
int hl_parse_timestamp(const char *s, size_t len, int64_t *micros);
/* Parses a decimal number into an unscaled value of SCALE digits, rounding
 * half up, failing if it needs more than PRECISION digits.  Returns 0 ok,
 * -1 not a number, -2 out of range. */
int hl_parse_decimal(const char *s, size_t len, int precision, int scale, __int128 *out);
void hl_format_decimal(hl_buf_t *buf, __int128 v, int scale);
void hl_format_double(hl_buf_t *buf, double d, bool is_float);
/* The shortest decimal digits of finite, non-zero D (as a FLOAT when
 * IS_FLOAT) that read back to it, Java's choice: DIGITS[0..*N_DIGITS) with
 * the value D.DDD x 10^*EXP10.  Returns true for a negative D. */
bool hl_double_digits(double d, bool is_float, char digits[24], int *n_digits, int *exp10);
void hl_format_date(hl_buf_t *buf, int64_t days);
void hl_format_timestamp(hl_buf_t *buf, int64_t micros);

#endif
