/*
 * pg_sqltext.h -- the SQL text of catalog queries read without a
 * connection (pg_sqltext.c; fuzzed alone by fuzz.pg_sqltext).  N is
 * always a text pg_cat_normalize made.
 */
#ifndef HL_PG_SQLTEXT_H
#define HL_PG_SQLTEXT_H

#include "pg_wire.h"

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* The big-endian two's complement integer of N (1 to 8) bytes at P. */
int64_t pg_be_int(const unsigned char *p, int n);

/* Lower-cased copy of S with runs of blanks as one space, and catalog
 * relations named without a schema qualified with pg_catalog.; malloc'd,
 * NULL on OOM. */
char *pg_cat_normalize(const char *s);
/* 1 when every word of WORDS ('|'-separated) occurs in S, in order. */
int pg_cat_contains_in_order(const char *s, const char *words);

/* A SELECT without FROM whose items are all session functions: their
 * indexes into version(), current_schema(), current_schema,
 * current_database(), current_catalog, session_user, current_user, user
 * in KINDS and their column names (alias, else the function's name) in
 * NAMES; the item count (at most 8), or -1 when N is not one. */
int pg_cat_session_select(const char *n, int kinds[8], char names[8][64]);

/* The regular expression after KEY ("c.relname operator(pg_catalog.~) "),
 * compiled into RE: 1, or 0 when absent (*BAD set when it does not
 * compile). */
int pg_cat_pattern_after(const char *n, const char *key, regex_t *re, int *bad);
/* The LIKE pattern after KEY, or the literal name after a KEY ending in
 * "=" or "= ", compiled into RE: 1, or 0 when absent (*BAD set when it
 * does not compile). */
int pg_cat_like_after(const char *n, const char *key, regex_t *re, int *bad);
/* A filter on FIELD ("n.nspname"): "FIELD like '...'", "FIELD = '...'" or
 * "FIELD='...'". */
int pg_cat_name_after(const char *n, const char *field, regex_t *re, int *bad);
/* The first number after KEY in N (quoted or not), 0 when none. */
uint32_t pg_cat_oid_after(const char *n, const char *key);
/* The select list's items (top-level commas before " from "), and their
 * names (alias, last identifier, else "?column?") into NAMES (at most MAX,
 * the count returned). */
int pg_cat_select_list_count(const char *n);
int pg_cat_select_list_names(const char *n, char names[][64], int max);

/* The highest placeholder $N of SQL outside quotes (0: none). */
int pg_params_highest(const char *sql);
/* SQL with each $N replaced by Bind's value N as a literal (NULL, a quoted
 * string, a binary integer's number): how catalog queries, which are read
 * as text, take parameters.  Malloc'd; NULL on OOM or, with *UNSUPPORTED
 * set, for a value that cannot be written (another binary type, a NUL
 * byte in a string). */
char *pg_params_inline(const char *sql, const pg_bind_msg_t *m, const uint32_t *types, int n_types,
                       int *unsupported);

#endif
