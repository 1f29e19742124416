/*
 * partpath.h -- Hive partition directory names.
 *
 * Hive writes a partition directory as escape(lower(key)) "=" escape(value)
 * per key, joined by "/".  The escaped set is every byte 0x00-0x1F, 0x7F and
 * " # % ' * / : = ? \ { [ ] ^  written as %XX with upper-case hex; non-ASCII
 * bytes are written raw.  A NULL or empty value is written as the default
 * partition name (__HIVE_DEFAULT_PARTITION__ unless the session changes it)
 * and never escaped.  Unescaping decodes any %XX (either case) and leaves a
 * malformed % as is, so names written by other escapers decode too.
 */
#ifndef HL_PARTPATH_H
#define HL_PARTPATH_H

#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

#define HL_DEFAULT_PARTITION_NAME "__HIVE_DEFAULT_PARTITION__"

/* Appends the escaped form of S[0..len). */
void hl_partpath_escape(hl_buf_t *buf, const char *s, size_t len);
/* Appends the unescaped form of S[0..len). */
void hl_partpath_unescape(hl_buf_t *buf, const char *s, size_t len);
/* True when S has a character Hive escapes (so escape(s) != s). */
bool hl_partpath_needs_escape(const char *s, size_t len);
/* True when S is a well-formed escaped name: no character Hive escapes
 * appears raw, except '%' opening a %XX escape (either case). */
bool hl_partpath_is_escaped(const char *s, size_t len);
/* Appends "k1=v1/k2=v2" for N keys; VALUES[i] NULL or "" is written as
 * DEFAULT_NAME.  Keys are lower-cased. */
void hl_partpath_name(hl_buf_t *buf, int n, const char *const *keys, const char *const *values,
                      const char *default_name);

#endif
