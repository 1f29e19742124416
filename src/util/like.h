/*
 * like.h -- Hive's name patterns, as SHOW TABLES/DATABASES LIKE and the
 * metastore's get_tables/get_databases take them: '*' (and '%') any
 * sequence, '|' separates alternatives (blanks around them trimmed),
 * case-insensitive.
 */
#ifndef HL_UTIL_LIKE_H
#define HL_UTIL_LIKE_H

#include <stdbool.h>

bool hl_like_match(const char *pattern, const char *name);

#endif
