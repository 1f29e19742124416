/*
 * lexer.h -- HiveQL tokens (private to src/sql).
 *
 * The lexer cuts statement text into tokens that carry their byte span in
 * the source; it decodes nothing.  The parser asks for the value of a token
 * when it needs one (hl_sql_ident_value, hl_sql_string_value), so that the
 * lexer never allocates and a token can be re-read by position (the parser
 * re-positions the lexer after handing a type's text to hl_type_parse).
 * Words are not classified into keywords here beyond the `reserved` flag:
 * the parser matches non-reserved keywords by spelling, so that Hive's many
 * keywords stay usable as column names.
 */
#ifndef HL_SQL_LEXER_H
#define HL_SQL_LEXER_H

#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum hl_sql_tk {
  HL_TK_EOF = 0,   /* end of the text */
  HL_TK_ILLEGAL,   /* a byte sequence that is no token (parser reports it) */
  HL_TK_WORD,      /* identifier or keyword: [A-Za-z_][A-Za-z0-9_]* */
  HL_TK_QIDENT,    /* `back quoted` identifier */
  HL_TK_STRING,    /* 'x' or "x" (escapes: hl_sql_string_value), E'x' in standard mode */
  HL_TK_INTEGER,   /* 123 */
  HL_TK_DECIMAL,   /* 1.5, .5, 1. */
  HL_TK_DOUBLE,    /* 1e3, 1.5e-3, or any number with suffix D */
  HL_TK_TYPED_NUM, /* number with suffix Y S L (integers) or BD */
  HL_TK_SEMI,      /* ; */
  HL_TK_LPAREN,    /* ( */
  HL_TK_RPAREN,    /* ) */
  HL_TK_COMMA,     /* , */
  HL_TK_DOT,       /* . */
  HL_TK_COLON,     /* : */
  HL_TK_LBRACKET,  /* [ */
  HL_TK_RBRACKET,  /* ] */
  HL_TK_EQ,        /* = or == */
  HL_TK_NE,        /* <> or != */
  HL_TK_LT,        /* < */
  HL_TK_LE,        /* <= */
  HL_TK_GT,        /* > */
  HL_TK_GE,        /* >= */
  HL_TK_EQ_NS,     /* <=> */
  HL_TK_PLUS,      /* + */
  HL_TK_MINUS,     /* - */
  HL_TK_STAR,      /* * */
  HL_TK_SLASH,     /* / */
  HL_TK_PERCENT,   /* % */
  HL_TK_AMP,       /* & */
  HL_TK_PIPE,      /* | */
  HL_TK_CARET,     /* ^ */
  HL_TK_TILDE,     /* ~ */
  HL_TK_CONCAT,    /* || */
  HL_TK_BANG,      /* ! (Hive's synonym for NOT) */
  HL_TK_PARAM      /* ? or $1, $2, ...: a statement parameter (hivelite.h hl_bind_*) */
} hl_sql_tk_t;

typedef struct hl_sql_token {
  hl_sql_tk_t kind;
  long pos;                /* byte offset of the first byte in the source */
  size_t len;              /* bytes of source text, quotes and suffix included */
  size_t num_len;          /* numbers: bytes before the suffix */
  bool reserved;           /* HL_TK_WORD that cannot be used as an identifier */
  char suffix[3];          /* numbers: "Y" "S" "L" "BD" "D" or "" (upper-case) */
  unsigned char str_style; /* HL_TK_STRING: HL_STR_* (how its body is unescaped) */
} hl_sql_token_t;

/* How a string token's body is read (hl_sql_string_value). */
enum {
  HL_STR_HIVE = 0, /* Hive: backslash escapes, the quote cannot appear doubled */
  HL_STR_STANDARD, /* SQL standard: a doubled quote is one, backslash is ordinary */
  HL_STR_ESCAPE    /* E'...': a doubled quote is one, C-style backslash escapes */
};

typedef struct hl_sql_lexer {
  const char *src; /* borrowed; the statement text */
  size_t len;      /* bytes in src */
  size_t off;      /* where the next token starts (before blanks) */
  bool standard;   /* hivelite.sql.string_literals=standard: strings as PostgreSQL's
                      with standard_conforming_strings=on, and E'...' */
} hl_sql_lexer_t;

/* A lexer of Hive's string literals (set lx->standard after for standard). */
void hl_sql_lexer_init(hl_sql_lexer_t *lx, const char *src, size_t len);

/* Skips blanks and comments and reads the next token into *TOK (EOF at the
 * end, with pos = len).  Returns HL_ERROR (42601) for an unterminated string,
 * quoted identifier or comment, with err->position at its opening byte. */
hl_status_t hl_sql_lex(hl_sql_lexer_t *lx, hl_sql_token_t *tok, hl_error_t *err);

/* True when the word SRC[0..len) is one of the keywords reserved by our
 * grammar (FROM, SELECT, AND, ...); comparison is case-insensitive. */
bool hl_sql_is_reserved(const char *word, size_t len);

/* True when TOK is an unquoted word spelled KW (case-insensitive; KW is
 * upper-case). */
bool hl_sql_tok_is(const char *src, const hl_sql_token_t *tok, const char *kw);

/* The identifier of a HL_TK_WORD or HL_TK_QIDENT token, lower-cased (ASCII),
 * backquotes removed and `` unescaped.  Owned by ARENA; NULL on OOM. */
char *hl_sql_ident_value(hl_arena_t *arena, const char *src, const hl_sql_token_t *tok);

/* Unescapes the body of a HL_TK_STRING token into OUT, which must hold
 * tok->len bytes.  Returns the number of bytes written (no NUL added).
 * HL_STR_HIVE: Hive's unescapeSQLString (\n \t \r \b \0 \Z \' \" \\,
 * \[01]oo octal bytes, \uXXXX as UTF-8, \% and \_ kept with their
 * backslash, any other \c as c).  HL_STR_STANDARD: the body as written, a
 * doubled quote as one.  HL_STR_ESCAPE: PostgreSQL's E'' escapes (\b \f
 * \n \r \t, \o \oo \ooo octal, \xh \xhh hex, \uXXXX and \UXXXXXXXX as UTF-8,
 * any other \c as c) and a doubled quote as one. */
size_t hl_sql_string_value(const char *src, const hl_sql_token_t *tok, char *out);

#endif
