/*
 * hms_filter.h -- the Hive Metastore's partition filter language
 * (get_partitions_by_filter, get_num_partitions_by_filter), parsed from
 * untrusted text and evaluated with the partition keys' types.
 *
 * The grammar is Hive's (the metastore's Filter.g), keywords in any case:
 *
 *   filter  := or
 *   or      := and (OR and)*
 *   and     := unary (AND unary)*
 *   unary   := NOT unary | '(' or ')' | pred
 *   pred    := key op lit | lit op key            op: = != <> < <= > >= LIKE
 *            | key [NOT] BETWEEN lit AND lit
 *            | key [NOT] IN '(' lit (',' lit)* ')'  (also "(key) IN ...", Hive's form)
 *   lit     := 'string' | "string" (backslash escapes the next character)
 *            | [-]digits[.digits] | yyyy-mm-dd | DATE 'yyyy-mm-dd'
 *   key     := (letter|digit)(letter|digit|_)*
 *
 * NOT before any expression is an addition to Filter.g (which has NOT only
 * in NOT BETWEEN and NOT IN).  Nesting (parentheses, NOT) is capped at
 * HL_HMS_FILTER_MAX_DEPTH; a filter is at most HL_HMS_FILTER_MAX_LEN bytes,
 * a LIKE pattern HL_HMS_FILTER_MAX_LIKE.
 *
 * Evaluation: a literal is converted to its key's type once (a literal that
 * is not a value of that type is an error), each partition value is read
 * as that type, and the two are compared as values of it: integers as
 * numbers (hr > 9 holds for hr=10), DATE as dates, DECIMAL exactly,
 * FLOAT/DOUBLE as doubles, BOOLEAN, TIMESTAMP, and STRING/VARCHAR/CHAR
 * bytewise.  LIKE matches the value's whole text: '%' or '.*' any
 * sequence, '_' or '.' one character (Hive hands its pattern to JDOQL's
 * matches(), a regular expression in which ".*" and "." are what clients
 * write; '%' and '_' are SQL's, which users write too).  The
 * default partition's value (and a value not readable as its key's type)
 * is unknown: no comparison on it holds, and NOT of unknown is unknown
 * (SQL's three-valued logic), so it never matches unless an OR's other side
 * does.
 */
#ifndef HL_HMS_FILTER_H
#define HL_HMS_FILTER_H

#include "catalog/catalog.h"
#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>

#define HL_HMS_FILTER_MAX_DEPTH 64
#define HL_HMS_FILTER_MAX_LEN   (1u << 20)
#define HL_HMS_FILTER_MAX_NAMES 64   /* hl_hms_filter_names */
#define HL_HMS_FILTER_MAX_LIKE  4096 /* bytes of one LIKE pattern */

typedef struct hl_hms_filter hl_hms_filter_t;

/* Parses TEXT into *OUT (in ARENA) and binds it to the partition keys
 * KEYS[0..n_keys) (names compared case-insensitively, types parsed from
 * their Hive type text).  Errors (HL_ERROR with 42601 for syntax, 22P02 for
 * a literal of the wrong type, 42703 for a name that is not a partition
 * key, 54000 for nesting or length over the caps) carry a message for the
 * client's MetaException; HL_NOMEM. */
hl_status_t hl_hms_filter_parse(const char *text, const hl_cat_column_t *keys, int n_keys,
                                hl_arena_t *arena, hl_hms_filter_t **out, hl_error_t *err);

/* The distinct names (identifiers other than keywords) TEXT uses, in
 * order of appearance, in ARENA: for a caller that builds KEYS from them
 * (get_table_names_by_filter's table fields).  A character the lexer
 * refuses is the same error as in hl_hms_filter_parse; more than
 * HL_HMS_FILTER_MAX_NAMES names is 54000. */
hl_status_t hl_hms_filter_names(const char *text, hl_arena_t *arena, char ***names, size_t *n,
                                hl_error_t *err);

/* Whether the partition with VALUES[0..n_keys) (NULL: the default
 * partition) matches F.  SCRATCH takes the values read (each key's value
 * once, a few bytes); the caller resets it.  Out of memory there is no
 * match. */
bool hl_hms_filter_match(const hl_hms_filter_t *f, char *const *values, hl_arena_t *scratch);

#endif
