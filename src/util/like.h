/*
 * like.h -- Hive's name patterns, as SHOW TABLES/DATABASES LIKE take them:
 * '*' (and '%') any sequence, '|' separates alternatives (blanks around
 * them trimmed), case-insensitive.
 */
#ifndef HL_UTIL_LIKE_H
#define HL_UTIL_LIKE_H

#include <stdbool.h>

bool hl_like_match(const char *pattern, const char *name);
/* The metastore API's form (get_tables, get_databases, get_table_meta,
 * ...): Hive replaces '*' by ".*" and matches a regular expression in
 * which, for names, only '.' (any one character) and ".*" occur, so
 * Trino's ".*" matches every name; NULL or "" matches every name too. */
bool hl_like_match_metastore(const char *pattern, const char *name);
/* SHOW FUNCTIONS LIKE (Hive 4): '|' separates alternatives (only the whole
 * pattern is trimmed), each an SQL LIKE pattern ('%' any sequence, '_' one
 * character, '\' escapes), case-insensitive. */
bool hl_like_match_sql(const char *pattern, const char *name);

#endif
