/*
 * parser.h -- HiveQL text to syntax tree (ast.h).
 *
 * A hand-written lexer (lexer.c) and recursive-descent parser (parser.c).
 * Keywords are case-insensitive; identifiers may be `backquoted`; comments
 * are -- to end of line and / * ... * /.  Errors carry the byte offset of the
 * offending token so the caller can print a line and column.
 */
#ifndef HL_PARSER_H
#define HL_PARSER_H

#include "sql/ast.h"
#include "util/error.h"

#include <stddef.h>

/* Parses the first statement of SQL[0..len).  Leading blanks and comments
 * are skipped; *out is NULL when nothing but blanks/comments remain.
 * *consumed is the number of bytes used, including the terminating ';' if
 * present (a missing final ';' at the end of the text is accepted).  Nodes
 * are allocated in ARENA.  Syntax errors: HL_ERROR, SQLSTATE 42601, message
 * like `syntax error at or near "FROM"` or `expected ")" but found "x"`,
 * err->position = byte offset of the offending token. */
hl_status_t hl_sql_parse(hl_arena_t *arena, const char *sql, size_t len, hl_ast_stmt_t **out,
                         size_t *consumed, hl_error_t *err);

/* How string literals are read (hivelite.sql.string_literals). */
typedef enum hl_sql_strings {
  HL_SQL_STRINGS_HIVE = 0, /* Hive's: backslash escapes (the default) */
  HL_SQL_STRINGS_STANDARD  /* PostgreSQL's with standard_conforming_strings=on:
                              'it''s', backslash ordinary, E'\n' escapes */
} hl_sql_strings_t;

/* hl_sql_parse with string literals read as STRINGS says. */
hl_status_t hl_sql_parse_strings(hl_arena_t *arena, const char *sql, size_t len,
                                 hl_sql_strings_t strings, hl_ast_stmt_t **out, size_t *consumed,
                                 hl_error_t *err);

/* 1-based line and column of byte offset POS in SQL (columns count bytes). */
void hl_sql_line_col(const char *sql, long pos, int *line, int *col);

#endif
