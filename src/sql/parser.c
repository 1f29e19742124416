/*
 * parser.c -- recursive-descent parser for the HiveQL we support (parser.h).
 *
 * One function per grammar rule; each returns hl_status_t and leaves the
 * parser on the first token it did not use.  Nodes go to the statement
 * arena, so an error simply returns: the caller frees the arena.  The first
 * error wins (error.h); every syntax error carries the byte offset of the
 * offending token.  Clause order follows Hive's HiveParser.g.
 *
 * Keywords other than the reserved ones (lexer.c) are matched by spelling
 * where the grammar expects them, so `key`, `date`, `location`, `comment`
 * ... stay usable as column names.  Valid HiveQL that hivelite does not
 * implement (INSERT, joins, subqueries, ...) is refused with HL_UNSUPPORTED
 * (0A000) at its first token rather than reported as a syntax error.
 *
 * Sections: infrastructure, literals and names, expressions, SELECT, DDL
 * helpers, statements, entry points.
 */
#include "sql/parser.h"

#include "sql/lexer.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Deepest nesting of expressions (and EXPLAINs) before we give up, so that
 * "((((...": cannot exhaust the stack. */
#define MAX_DEPTH 200
/* Most items in one list; bounds allocation for hostile input. */
#define MAX_LIST 1000000

typedef struct parser {
  hl_arena_t *arena;
  const char *src;
  size_t len;
  hl_sql_lexer_t lx;  /* positioned just after tok */
  hl_sql_token_t tok; /* the current token */
  long prev_end;      /* offset just past the previous token */
  hl_error_t *err;
  int depth;
  int n_params;    /* highest parameter number so far */
  char param_kind; /* '?' or '$' once a parameter was read, else 0 */
} parser_t;

#define TRY(x)                                                                                     \
  do {                                                                                             \
    hl_status_t rc_ = (x);                                                                         \
    if (rc_ != HL_OK) return rc_;                                                                  \
  } while (0)

/* ====================================================== infrastructure */

static hl_status_t advance(parser_t *p) {
  p->prev_end = p->tok.pos + (long)p->tok.len;
  return hl_sql_lex(&p->lx, &p->tok, p->err);
}

/* The K-th token after the current one (K >= 1); HL_TK_ILLEGAL if the text
 * there does not lex (the real error surfaces when the parser gets there). */
static hl_sql_token_t peek(parser_t *p, int k) {
  hl_sql_lexer_t lx = p->lx;
  hl_sql_token_t t;
  hl_error_t e;
  hl_err_init(&e);
  memset(&t, 0, sizeof t);
  for (int i = 0; i < k; i++) {
    if (hl_sql_lex(&lx, &t, &e) != HL_OK) {
      hl_err_clear(&e);
      t.kind = HL_TK_ILLEGAL;
      break;
    }
  }
  return t;
}

static bool at(parser_t *p, hl_sql_tk_t kind) {
  return p->tok.kind == kind;
}

static bool at_kw(parser_t *p, const char *kw) {
  return hl_sql_tok_is(p->src, &p->tok, kw);
}

static bool tok_is_kw(parser_t *p, const hl_sql_token_t *t, const char *kw) {
  return hl_sql_tok_is(p->src, t, kw);
}

/* An identifier may stand here: a non-reserved word or a backquoted name. */
static bool tok_is_ident(const hl_sql_token_t *t) {
  return (t->kind == HL_TK_WORD && !t->reserved) || t->kind == HL_TK_QIDENT;
}

static hl_status_t nomem(parser_t *p) {
  return hl_err_nomem(p->err);
}

static hl_status_t syntax_error_at(parser_t *p, const hl_sql_token_t *t) {
  if (t->kind == HL_TK_EOF)
    return hl_err_set_at(p->err, t->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "syntax error at end of input");
  return hl_err_set_at(p->err, t->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                       "syntax error at or near \"%.*s\"", (int)t->len, p->src + t->pos);
}

static hl_status_t syntax_error(parser_t *p) {
  return syntax_error_at(p, &p->tok);
}

/* `expected WHAT but found "tok"` at the current token. */
static hl_status_t expected(parser_t *p, const char *what) {
  if (at(p, HL_TK_EOF))
    return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "expected %s but found end of input", what);
  return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                       "expected %s but found \"%.*s\"", what, (int)p->tok.len,
                       p->src + p->tok.pos);
}

static hl_status_t expect(parser_t *p, hl_sql_tk_t kind, const char *what) {
  if (!at(p, kind)) return expected(p, what);
  return advance(p);
}

static hl_status_t expect_kw(parser_t *p, const char *kw) {
  if (!at_kw(p, kw)) return syntax_error(p);
  return advance(p);
}

/* "WHAT is not supported yet" (0A000) at POS. */
static hl_status_t unsupported(parser_t *p, long pos, const char *what) {
  return hl_err_set_at(p->err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                       "%s is not supported yet", what);
}

/* Words that continue the name of a statement kind after its leading
 * keyword: "CREATE MATERIALIZED VIEW", "SHOW CURRENT ROLES", "LOCK TABLE",
 * "ALTER TABLE NOT SKEWED", so the message names what the user wrote.
 * Space-separated, with a space at both ends. */
static const char statement_name_words[] =
    " VIEW VIEWS MACRO FUNCTION FUNCTIONS QUERY PLAN PLANS ROLES GRANT SKEWED TABLE "
    "DATABASE SCHEMA TRANSACTION TRANSACTIONS INDEX DUMP LOAD STATUS LOCATION JAR "
    "JARS FILE FILES ARCHIVE ARCHIVES CONSTRAINT OWNER DBPROPERTIES MANAGEDLOCATION "
    "TBLPROPERTIES POOL MAPPING TRIGGER REPLACE CONNECTOR CONNECTORS COMPACTIONS "
    "ROLE AUTOCOMMIT BRANCH TAG ";

/* Same, naming PREFIX followed by the current word in upper case and up to
 * two following words of statement_name_words. */
static hl_status_t unsupported_word(parser_t *p, long pos, const char *prefix) {
  char buf[96];
  size_t k = 0;
  if (prefix) {
    size_t pl = strlen(prefix);
    if (pl > 40) pl = 40;
    memcpy(buf, prefix, pl);
    k = pl;
    buf[k++] = ' ';
  }
  for (size_t i = 0; i < p->tok.len && k < sizeof buf - 1; i++)
    buf[k++] = (char)toupper((unsigned char)p->src[p->tok.pos + (long)i]);
  for (int w = 1; w < 3; w++) {
    hl_sql_token_t t = peek(p, w);
    char word[24]; /* " WORD " */
    size_t n = 0;
    if (t.kind != HL_TK_WORD || t.len > sizeof word - 3) break;
    word[n++] = ' ';
    for (size_t i = 0; i < t.len; i++)
      word[n++] = (char)toupper((unsigned char)p->src[t.pos + (long)i]);
    word[n++] = ' ';
    word[n] = '\0';
    if (!strstr(statement_name_words, word)) break;
    for (size_t i = 0; i + 1 < n && k < sizeof buf - 1; i++) /* " WORD" */
      buf[k++] = word[i];
  }
  buf[k] = '\0';
  return unsupported(p, pos, buf);
}

static bool word_in(parser_t *p, const hl_sql_token_t *t, const char *const *words) {
  for (; *words; words++)
    if (tok_is_kw(p, t, *words)) return true;
  return false;
}

static void *zalloc(parser_t *p, size_t nbytes) {
  return hl_arena_zalloc(p->arena, nbytes);
}

/* Makes room for one more element in an arena array of *CAP elements. */
static hl_status_t grow(parser_t *p, void **arr, int n, int *cap, size_t elem) {
  if (n < *cap) return HL_OK;
  if (n >= MAX_LIST)
    return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                         "too many items in a list");
  int ncap = *cap ? *cap * 2 : 4;
  void *na = hl_arena_realloc(p->arena, *arr, (size_t)*cap * elem, (size_t)ncap * elem);
  if (!na) return nomem(p);
  *arr = na;
  *cap = ncap;
  return HL_OK;
}

#define PUSH(p, arr, n, cap, val)                                                                  \
  do {                                                                                             \
    TRY(grow((p), (void **)&(arr), (n), &(cap), sizeof *(arr)));                                   \
    (arr)[(n)++] = (val);                                                                          \
  } while (0)

static hl_status_t enter(parser_t *p) {
  if (++p->depth > MAX_DEPTH)
    return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(STATEMENT_TOO_COMPLEX),
                         "statement is nested too deeply");
  return HL_OK;
}

/* ================================================= literals and names */

static hl_status_t parse_ident(parser_t *p, char **out, long *pos) {
  if (!tok_is_ident(&p->tok)) return syntax_error(p);
  if (pos) *pos = p->tok.pos;
  *out = hl_sql_ident_value(p->arena, p->src, &p->tok);
  if (!*out) return nomem(p);
  return advance(p);
}

/* [[catalog.]db.]name */
static hl_status_t parse_qname(parser_t *p, hl_ast_qname_t *q) {
  q->catalog = q->db = NULL;
  TRY(parse_ident(p, &q->name, &q->pos));
  if (at(p, HL_TK_DOT)) {
    TRY(advance(p));
    q->db = q->name;
    TRY(parse_ident(p, &q->name, NULL));
  }
  if (at(p, HL_TK_DOT)) {
    TRY(advance(p));
    q->catalog = q->db;
    q->db = q->name;
    TRY(parse_ident(p, &q->name, NULL));
  }
  return HL_OK;
}

/* [catalog.]db: USE, SHOW TABLES FROM, REFRESH DATABASE (Doris). */
static hl_status_t parse_catalog_db(parser_t *p, hl_ast_stmt_t *st) {
  long pos = 0;
  TRY(parse_ident(p, &st->db_name, &pos));
  st->db_pos = pos;
  if (!at(p, HL_TK_DOT)) return HL_OK;
  TRY(advance(p));
  st->catalog_name = st->db_name;
  st->catalog_pos = pos;
  return parse_ident(p, &st->db_name, &st->db_pos);
}

/* One or more adjacent string literals, unescaped and concatenated. */
static hl_status_t parse_string_len(parser_t *p, char **out, size_t *out_len) {
  if (!at(p, HL_TK_STRING)) return expected(p, "string literal");
  char *buf = NULL;
  size_t used = 0, cap = 0;
  while (at(p, HL_TK_STRING)) {
    size_t need = used + p->tok.len + 1;
    if (need > cap) {
      /* geometric growth: many adjacent literals must not cost quadratic space */
      size_t ncap = cap * 2 > need ? cap * 2 : need;
      char *nb = hl_arena_realloc(p->arena, buf, cap, ncap);
      if (!nb) return nomem(p);
      buf = nb;
      cap = ncap;
    }
    used += hl_sql_string_value(p->src, &p->tok, buf + used);
    TRY(advance(p));
  }
  buf[used] = '\0';
  *out = buf;
  if (out_len) *out_len = used;
  return HL_OK;
}

static hl_status_t parse_string(parser_t *p, char **out) {
  return parse_string_len(p, out, NULL);
}

static hl_ast_expr_t *new_expr(parser_t *p, hl_ast_expr_kind_t kind, long pos) {
  hl_ast_expr_t *e = zalloc(p, sizeof *e);
  if (!e) return NULL;
  e->kind = kind;
  e->pos = pos;
  return e;
}

static hl_status_t make_literal(parser_t *p, hl_ast_lit_type_t type, const char *text, long pos,
                                hl_ast_expr_t **out) {
  hl_ast_expr_t *e = new_expr(p, HL_AST_LITERAL, pos);
  if (!e || !(e->text = hl_arena_strdup(p->arena, text))) return nomem(p);
  e->lit_type = type;
  e->text_len = strlen(text);
  *out = e;
  return HL_OK;
}

static bool at_number(parser_t *p) {
  hl_sql_tk_t k = p->tok.kind;
  return k == HL_TK_INTEGER || k == HL_TK_DECIMAL || k == HL_TK_DOUBLE || k == HL_TK_TYPED_NUM;
}

/* The current number token as a literal; NEG prefixes a minus sign (Hive
 * folds -5 into the constant, which keeps -9223372036854775808 a BIGINT). */
static hl_status_t parse_number(parser_t *p, bool neg, long pos, hl_ast_expr_t **out) {
  hl_ast_expr_t *e = new_expr(p, HL_AST_LITERAL, pos);
  if (!e) return nomem(p);
  size_t n = p->tok.num_len;
  e->text = hl_arena_alloc(p->arena, n + 2);
  if (!e->text) return nomem(p);
  size_t k = 0;
  if (neg) e->text[k++] = '-';
  memcpy(e->text + k, p->src + p->tok.pos, n);
  e->text[k + n] = '\0';
  e->text_len = k + n;
  switch (p->tok.kind) {
  case HL_TK_INTEGER:
    e->lit_type = HL_LIT_INTEGER;
    break;
  case HL_TK_DECIMAL:
    e->lit_type = HL_LIT_DECIMAL;
    break;
  case HL_TK_DOUBLE:
    e->lit_type = HL_LIT_DOUBLE;
    break;
  default:
    e->lit_type = HL_LIT_TYPED_INT;
    memcpy(e->lit_suffix, p->tok.suffix, sizeof e->lit_suffix);
    break;
  }
  *out = e;
  return advance(p);
}

static hl_status_t parse_string_literal(parser_t *p, hl_ast_lit_type_t type, long pos,
                                        hl_ast_expr_t **out) {
  hl_ast_expr_t *e = new_expr(p, HL_AST_LITERAL, pos);
  if (!e) return nomem(p);
  e->lit_type = type;
  TRY(parse_string_len(p, &e->text, &e->text_len));
  *out = e;
  return HL_OK;
}

/* A non-negative integer for LIMIT, OFFSET or BUCKETS. */
static hl_status_t parse_count(parser_t *p, const char *what, int64_t max, int64_t *out) {
  if (!at(p, HL_TK_INTEGER)) return syntax_error(p);
  int64_t v = 0;
  for (size_t i = 0; i < p->tok.len; i++) {
    int d = p->src[p->tok.pos + (long)i] - '0';
    if (v > (max - d) / 10)
      return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
                           "%s value \"%.*s\" is out of range", what, (int)p->tok.len,
                           p->src + p->tok.pos);
    v = v * 10 + d;
  }
  *out = v;
  return advance(p);
}

/* Hands the text at the current token to hl_type_parse (util/type.c, the
 * grammar the catalog shares) and resumes lexing where the type ends. */
static hl_status_t parse_type(parser_t *p, hl_type_t **out) {
  long start = p->tok.pos;
  size_t used = 0;
  hl_error_t terr;
  hl_err_init(&terr);
  hl_status_t rc =
      hl_type_parse(p->arena, p->src + start, p->len - (size_t)start, &used, out, &terr);
  if (rc != HL_OK) {
    terr.position = terr.position >= 0 ? terr.position + start : start;
    hl_err_move(p->err, &terr);
    return rc;
  }
  if (used == 0 || used > p->len - (size_t)start) return syntax_error(p);
  p->lx.off = (size_t)start + used;
  p->prev_end = start + (long)used;
  return hl_sql_lex(&p->lx, &p->tok, p->err);
}

/* ('k'='v', ...) */
static hl_status_t parse_kvlist(parser_t *p, hl_ast_kvlist_t *kv) {
  int cap = 0;
  kv->items = NULL;
  kv->n = 0;
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    hl_ast_kv_t item;
    item.pos = p->tok.pos;
    TRY(parse_string(p, &item.key));
    TRY(expect(p, HL_TK_EQ, "\"=\""));
    TRY(parse_string(p, &item.value));
    PUSH(p, kv->items, kv->n, cap, item);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return expect(p, HL_TK_RPAREN, "\")\"");
}

/* ===================================================== expressions */

static hl_status_t parse_expr(parser_t *p, hl_ast_expr_t **out);
static hl_status_t parse_bitor(parser_t *p, hl_ast_expr_t **out);

static hl_status_t make_binary(parser_t *p, hl_ast_op_t op, hl_ast_expr_t *l, hl_ast_expr_t *r,
                               hl_ast_expr_t **out) {
  hl_ast_expr_t *e = new_expr(p, HL_AST_BINARY, l->pos);
  if (!e || !(e->args = hl_arena_alloc(p->arena, 2 * sizeof *e->args))) return nomem(p);
  e->op = op;
  e->args[0] = l;
  e->args[1] = r;
  e->n_args = 2;
  *out = e;
  return HL_OK;
}

/* Arguments of f( ... ): the current token follows "(". */
static hl_status_t parse_call(parser_t *p, hl_ast_expr_t *fn) {
  int cap = 0;
  if (at(p, HL_TK_STAR)) {
    hl_ast_expr_t *star = new_expr(p, HL_AST_STAR, p->tok.pos);
    if (!star) return nomem(p);
    PUSH(p, fn->args, fn->n_args, cap, star);
    TRY(advance(p));
    return expect(p, HL_TK_RPAREN, "\")\"");
  }
  if (at(p, HL_TK_RPAREN)) return advance(p);
  if (at_kw(p, "DISTINCT")) {
    fn->distinct = true;
    TRY(advance(p));
  } else if (at_kw(p, "ALL")) {
    TRY(advance(p));
  }
  for (;;) {
    hl_ast_expr_t *arg;
    TRY(parse_expr(p, &arg));
    PUSH(p, fn->args, fn->n_args, cap, arg);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return expect(p, HL_TK_RPAREN, "\")\"");
}

/* CASE [operand] WHEN e THEN e ... [ELSE e] END; current token is CASE. */
static hl_status_t parse_case(parser_t *p, hl_ast_expr_t **out) {
  hl_ast_expr_t *e = new_expr(p, HL_AST_CASE, p->tok.pos);
  if (!e) return nomem(p);
  int cap = 0;
  hl_ast_expr_t *x;
  TRY(advance(p));
  if (!at_kw(p, "WHEN")) {
    TRY(parse_expr(p, &x));
    PUSH(p, e->args, e->n_args, cap, x);
    e->has_operand = true;
  }
  if (!at_kw(p, "WHEN")) return syntax_error(p);
  while (at_kw(p, "WHEN")) {
    TRY(advance(p));
    TRY(parse_expr(p, &x));
    PUSH(p, e->args, e->n_args, cap, x);
    TRY(expect_kw(p, "THEN"));
    TRY(parse_expr(p, &x));
    PUSH(p, e->args, e->n_args, cap, x);
  }
  if (at_kw(p, "ELSE")) {
    TRY(advance(p));
    TRY(parse_expr(p, &x));
    PUSH(p, e->args, e->n_args, cap, x);
    e->has_else = true;
  }
  TRY(expect_kw(p, "END"));
  *out = e;
  return HL_OK;
}

/* CAST(e AS type [FORMAT 'template']); current token is CAST.  The
 * template (SQL:2016 datetime, Hive's cast_format) is a string literal, as
 * in Hive's grammar; it becomes args[1]. */
static hl_status_t parse_cast(parser_t *p, hl_ast_expr_t **out) {
  hl_ast_expr_t *e = new_expr(p, HL_AST_CAST, p->tok.pos);
  if (!e || !(e->args = hl_arena_alloc(p->arena, 2 * sizeof *e->args))) return nomem(p);
  TRY(advance(p));
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  TRY(parse_expr(p, &e->args[0]));
  e->n_args = 1;
  TRY(expect_kw(p, "AS"));
  TRY(parse_type(p, &e->cast_type));
  if (at_kw(p, "FORMAT")) {
    TRY(advance(p));
    if (!at(p, HL_TK_STRING)) return expected(p, "a format template string literal");
    TRY(parse_string_literal(p, HL_LIT_STRING, p->tok.pos, &e->args[1]));
    e->n_args = 2;
  }
  TRY(expect(p, HL_TK_RPAREN, "\")\""));
  *out = e;
  return HL_OK;
}

static hl_status_t parse_order_items(parser_t *p, struct hl_ast_order_item **items, int *n);

/* One frame bound. */
static hl_status_t parse_frame_bound(parser_t *p, hl_ast_frame_kind_t *kind, int64_t *offset) {
  if (at_kw(p, "UNBOUNDED")) {
    TRY(advance(p));
    if (at_kw(p, "PRECEDING"))
      *kind = HL_FRAME_UNBOUNDED_PRECEDING;
    else if (at_kw(p, "FOLLOWING"))
      *kind = HL_FRAME_UNBOUNDED_FOLLOWING;
    else
      return syntax_error(p);
    return advance(p);
  }
  if (at_kw(p, "CURRENT")) {
    TRY(advance(p));
    *kind = HL_FRAME_CURRENT_ROW;
    return expect_kw(p, "ROW");
  }
  TRY(parse_count(p, "frame offset", INT64_MAX, offset));
  if (at_kw(p, "PRECEDING"))
    *kind = HL_FRAME_PRECEDING;
  else if (at_kw(p, "FOLLOWING"))
    *kind = HL_FRAME_FOLLOWING;
  else
    return syntax_error(p);
  return advance(p);
}

/* OVER ( [PARTITION BY e, ...] [ORDER BY ...] [ROWS|RANGE frame] ) */
static hl_status_t parse_over(parser_t *p, hl_ast_expr_t *fn) {
  hl_ast_window_t *w = zalloc(p, sizeof *w);
  if (!w) return nomem(p);
  w->pos = p->tok.pos;
  TRY(advance(p));
  if (!at(p, HL_TK_LPAREN)) return unsupported(p, p->tok.pos, "a named window");
  TRY(advance(p));
  if (at_kw(p, "PARTITION")) {
    int cap = 0;
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    for (;;) {
      hl_ast_expr_t *e;
      TRY(parse_expr(p, &e));
      PUSH(p, w->partition_by, w->n_partition_by, cap, e);
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
  }
  if (at_kw(p, "ORDER") || at_kw(p, "SORT")) {
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_order_items(p, &w->order_by, &w->n_order_by));
  }
  if (at_kw(p, "ROWS") || at_kw(p, "RANGE")) {
    w->has_frame = true;
    w->frame_rows = at_kw(p, "ROWS");
    TRY(advance(p));
    if (at_kw(p, "BETWEEN")) {
      TRY(advance(p));
      TRY(parse_frame_bound(p, &w->start_kind, &w->start_offset));
      TRY(expect_kw(p, "AND"));
      TRY(parse_frame_bound(p, &w->end_kind, &w->end_offset));
    } else {
      TRY(parse_frame_bound(p, &w->start_kind, &w->start_offset));
      w->end_kind = HL_FRAME_CURRENT_ROW;
    }
  }
  TRY(expect(p, HL_TK_RPAREN, "\")\""));
  fn->window = w;
  return HL_OK;
}

/* WITHIN GROUP (ORDER BY x [ASC|DESC] [NULLS FIRST|LAST]) after FN(p), the
 * current token WITHIN: Hive 4 takes it for its ordered aggregates and
 * hands them (x, p, direction) with 1 ascending and 0 descending, the
 * function-call form's optional third argument; NULLS FIRST/LAST changes
 * nothing (the aggregates skip NULLs). */
static hl_status_t parse_within_group(parser_t *p, hl_ast_expr_t *fn) {
  long pos = p->tok.pos;
  TRY(advance(p)); /* WITHIN */
  TRY(advance(p)); /* GROUP */
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  TRY(expect_kw(p, "ORDER"));
  TRY(expect_kw(p, "BY"));
  hl_ast_order_item_t *items = NULL;
  int n = 0;
  TRY(parse_order_items(p, &items, &n));
  TRY(expect(p, HL_TK_RPAREN, "\")\""));
  if (strcmp(fn->name, "percentile_cont") != 0 && strcmp(fn->name, "percentile_disc") != 0)
    return unsupported(p, pos, "WITHIN GROUP with this function");
  if (n != 1 || fn->n_args != 1 || fn->distinct)
    return hl_err_set_at(p->err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "WITHIN GROUP takes one percentile argument and one ORDER BY expression");
  /* the constant is at the ORDER BY: a bad one is reported there */
  hl_ast_expr_t *dir = new_expr(p, HL_AST_LITERAL, items[0].expr->pos);
  hl_ast_expr_t **args = hl_arena_alloc(p->arena, sizeof *args * 3);
  if (!dir || !args) return nomem(p);
  dir->lit_type = HL_LIT_INTEGER;
  dir->text = hl_arena_strdup(p->arena, items[0].descending ? "0" : "1");
  if (!dir->text) return nomem(p);
  dir->text_len = 1;
  args[0] = items[0].expr;
  args[1] = fn->args[0];
  args[2] = dir;
  fn->args = args;
  fn->n_args = 3;
  return HL_OK;
}

/* A name in an expression: column, t.column or a function call. */
static hl_status_t parse_name_expr(parser_t *p, hl_ast_expr_t **out) {
  long pos = p->tok.pos;
  bool quoted = at(p, HL_TK_QIDENT);
  char *name = NULL;
  TRY(parse_ident(p, &name, NULL));
  if (at(p, HL_TK_LPAREN)) {
    hl_ast_expr_t *fn = new_expr(p, HL_AST_FUNC, pos);
    if (!fn) return nomem(p);
    fn->name = name;
    TRY(advance(p));
    TRY(parse_call(p, fn));
    if (at_kw(p, "WITHIN")) {
      hl_sql_token_t g = peek(p, 1);
      if (tok_is_kw(p, &g, "GROUP") && peek(p, 2).kind == HL_TK_LPAREN)
        TRY(parse_within_group(p, fn));
    }
    if (at_kw(p, "OVER")) TRY(parse_over(p, fn));
    *out = fn;
    return HL_OK;
  }
  if (at(p, HL_TK_DOT)) {
    TRY(advance(p));
    hl_ast_expr_t *col = new_expr(p, HL_AST_COLUMN, pos);
    if (!col) return nomem(p);
    col->qualifier = name;
    TRY(parse_ident(p, &col->name, &col->name_pos));
    if (at(p, HL_TK_LPAREN)) return unsupported(p, pos, "a qualified function name");
    *out = col;
    return HL_OK;
  }
  /* current_date and current_timestamp are niladic functions in Hive */
  if (!quoted && (strcmp(name, "current_date") == 0 || strcmp(name, "current_timestamp") == 0)) {
    hl_ast_expr_t *fn = new_expr(p, HL_AST_FUNC, pos);
    if (!fn) return nomem(p);
    fn->name = name;
    *out = fn;
    return HL_OK;
  }
  hl_ast_expr_t *col = new_expr(p, HL_AST_COLUMN, pos);
  if (!col) return nomem(p);
  col->name = name;
  *out = col;
  return HL_OK;
}

static hl_status_t parse_query_expr(parser_t *p, hl_ast_select_t **out);
static bool at_query_paren(parser_t *p);

/* Most parameters of one statement: PostgreSQL's wire protocol counts them
 * in 16 bits. */
#define MAX_PARAMS 65535

/* The parameter at the current token (? or $n) as its number in *NUM:
 * `?` are numbered left to right, `$n` is n; one statement uses one kind. */
static hl_status_t parse_param(parser_t *p, int *num) {
  long pos = p->tok.pos;
  char kind = p->src[pos];
  if (p->param_kind && p->param_kind != kind)
    return hl_err_set_at(p->err, pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "a statement cannot use both ? and $n parameters");
  p->param_kind = kind;
  long n = 0;
  if (kind == '?') {
    n = p->n_params + 1;
  } else {
    for (size_t i = 1; i < p->tok.len && n <= MAX_PARAMS; i++)
      n = n * 10 + (p->src[pos + (long)i] - '0');
  }
  if (n < 1 || n > MAX_PARAMS)
    return hl_err_set_at(p->err, pos, HL_ERROR, HL_SS(UNDEFINED_PARAMETER),
                         "there is no parameter %.*s", (int)p->tok.len, p->src + pos);
  if (n > p->n_params) p->n_params = (int)n;
  *num = (int)n;
  return advance(p);
}

static hl_status_t parse_atom(parser_t *p, hl_ast_expr_t **out);

/* The unit word at the current token (YEAR, YEARS, ... SECONDS: Hive's
 * lexer takes the plural for each), its singular in lower case, or NULL. */
static const char *interval_unit_word(parser_t *p) {
  static const char *const units[] = {"year", "month", "day", "hour", "minute", "second"};
  if (p->tok.kind != HL_TK_WORD) return NULL;
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
    size_t n = strlen(units[u]);
    if ((p->tok.len == n ||
         (p->tok.len == n + 1 && toupper((unsigned char)p->src[p->tok.pos + (long)n]) == 'S')) &&
        strncasecmp(p->src + p->tok.pos, units[u], n) == 0)
      return units[u];
  }
  return NULL;
}

/* INTERVAL 'text' unit | INTERVAL number unit | INTERVAL (expr) unit, unit
 * one of YEAR TO MONTH, DAY TO SECOND, YEAR, MONTH, DAY, HOUR, MINUTE,
 * SECOND (plurals too), as Hive's grammar; all three become Hive's
 * internal_interval('unit', value), which the binder types and folds when
 * the value is a constant. */
static hl_status_t parse_interval_unit(parser_t *p, long pos, hl_ast_expr_t *value,
                                       hl_ast_expr_t **out);

static hl_status_t parse_interval(parser_t *p, long pos, hl_ast_expr_t **out) {
  TRY(advance(p));
  hl_ast_expr_t *value;
  if (at(p, HL_TK_STRING))
    TRY(parse_string_literal(p, HL_LIT_STRING, p->tok.pos, &value));
  else if (at(p, HL_TK_LPAREN) || at_number(p))
    TRY(parse_atom(p, &value));
  else
    return syntax_error(p);
  return parse_interval_unit(p, pos, value, out);
}

/* The unit after an interval's VALUE, and the internal_interval call. */
static hl_status_t parse_interval_unit(parser_t *p, long pos, hl_ast_expr_t *value,
                                       hl_ast_expr_t **out) {
  const char *u1 = interval_unit_word(p);
  if (!u1) return syntax_error(p);
  long unit_pos = p->tok.pos;
  TRY(advance(p));
  char unit[24];
  snprintf(unit, sizeof unit, "%s", u1);
  if (at_kw(p, "TO") && (strcmp(u1, "year") == 0 || strcmp(u1, "day") == 0)) {
    TRY(advance(p));
    const char *u2 = interval_unit_word(p);
    if (!u2 || strcmp(u2, u1[0] == 'y' ? "month" : "second") != 0) return syntax_error(p);
    TRY(advance(p));
    snprintf(unit, sizeof unit, "%s to %s", u1, u2);
  }
  hl_ast_expr_t *e = new_expr(p, HL_AST_FUNC, pos);
  if (!e || !(e->name = hl_arena_strdup(p->arena, "internal_interval")) ||
      !(e->args = hl_arena_alloc(p->arena, 2 * sizeof *e->args)))
    return nomem(p);
  e->n_args = 2;
  TRY(make_literal(p, HL_LIT_STRING, unit, unit_pos, &e->args[0]));
  e->args[1] = value;
  *out = e;
  return HL_OK;
}

static hl_status_t parse_atom(parser_t *p, hl_ast_expr_t **out) {
  long pos = p->tok.pos;
  switch (p->tok.kind) {
  case HL_TK_INTEGER:
  case HL_TK_DECIMAL:
  case HL_TK_DOUBLE:
  case HL_TK_TYPED_NUM:
    return parse_number(p, false, pos, out);
  case HL_TK_STRING:
    return parse_string_literal(p, HL_LIT_STRING, pos, out);
  case HL_TK_LPAREN:
    if (at_query_paren(p)) {
      hl_ast_expr_t *e = new_expr(p, HL_AST_SUBQUERY, pos);
      if (!e) return nomem(p);
      TRY(advance(p));
      TRY(parse_query_expr(p, &e->subquery));
      *out = e;
      return expect(p, HL_TK_RPAREN, "\")\"");
    }
    TRY(advance(p));
    TRY(parse_expr(p, out));
    return expect(p, HL_TK_RPAREN, "\")\"");
  case HL_TK_QIDENT:
    return parse_name_expr(p, out);
  case HL_TK_PARAM: {
    hl_ast_expr_t *e = new_expr(p, HL_AST_PARAM, pos);
    if (!e) return nomem(p);
    *out = e;
    return parse_param(p, &e->param);
  }
  case HL_TK_WORD:
    break;
  default:
    return syntax_error(p);
  }
  if (at_kw(p, "TRUE") || at_kw(p, "FALSE")) {
    TRY(make_literal(p, HL_LIT_BOOL, at_kw(p, "TRUE") ? "true" : "false", pos, out));
    return advance(p);
  }
  if (at_kw(p, "NULL")) {
    TRY(make_literal(p, HL_LIT_NULL, "null", pos, out));
    return advance(p);
  }
  if (at_kw(p, "CASE")) return parse_case(p, out);
  if (at_kw(p, "CAST")) return parse_cast(p, out);
  if (at_kw(p, "EXISTS")) {
    hl_ast_expr_t *e = new_expr(p, HL_AST_EXISTS, pos);
    if (!e) return nomem(p);
    TRY(advance(p));
    if (!at_query_paren(p)) return syntax_error(p);
    TRY(advance(p));
    TRY(parse_query_expr(p, &e->subquery));
    *out = e;
    return expect(p, HL_TK_RPAREN, "\")\"");
  }
  if (at_kw(p, "INTERVAL")) return parse_interval(p, pos, out);
  if ((at_kw(p, "DATE") || at_kw(p, "TIMESTAMP")) && peek(p, 1).kind == HL_TK_STRING) {
    hl_ast_lit_type_t t = at_kw(p, "DATE") ? HL_LIT_DATE : HL_LIT_TIMESTAMP;
    TRY(advance(p));
    return parse_string_literal(p, t, pos, out);
  }
  return parse_name_expr(p, out);
}

/* An atom; a number, a string or a parenthesized expression followed by a
 * unit word is an interval, as Hive's grammar reads `2 DAYS`, `'2' DAYS`
 * and `(expr) DAY` without the INTERVAL keyword (interval_alt.q). */
static hl_status_t parse_primary(parser_t *p, hl_ast_expr_t **out) {
  long pos = p->tok.pos;
  bool may = at_number(p) || at(p, HL_TK_STRING) || at(p, HL_TK_LPAREN);
  TRY(parse_atom(p, out));
  if (!may || (*out)->kind == HL_AST_SUBQUERY || !interval_unit_word(p)) return HL_OK;
  return parse_interval_unit(p, pos, *out, out);
}

/* primary { [index] | .field }: subscripts of arrays and maps, struct
 * fields.  `a.b` alone was read as a column reference by parse_name_expr
 * (the binder decides whether `a` is a table or a struct column); every
 * further `.f` is a field of what precedes it. */
static hl_status_t parse_postfix(parser_t *p, hl_ast_expr_t **out) {
  TRY(parse_primary(p, out));
  int depth = 0;
  for (;;) {
    hl_ast_expr_t *e;
    if (at(p, HL_TK_LBRACKET)) {
      if (!(e = new_expr(p, HL_AST_INDEX, p->tok.pos)) ||
          !(e->args = hl_arena_alloc(p->arena, 2 * sizeof *e->args)))
        return nomem(p);
      TRY(enter(p));
      depth++;
      TRY(advance(p));
      e->n_args = 2;
      e->args[0] = *out;
      TRY(parse_expr(p, &e->args[1]));
      TRY(expect(p, HL_TK_RBRACKET, "\"]\""));
    } else if (at(p, HL_TK_DOT)) {
      TRY(advance(p));
      if (!(e = new_expr(p, HL_AST_FIELD, p->tok.pos)) ||
          !(e->args = hl_arena_alloc(p->arena, sizeof *e->args)))
        return nomem(p);
      TRY(enter(p));
      depth++;
      e->n_args = 1;
      e->args[0] = *out;
      TRY(parse_ident(p, &e->name, NULL));
    } else {
      break;
    }
    *out = e;
  }
  p->depth -= depth;
  return HL_OK;
}

static hl_status_t parse_unary(parser_t *p, hl_ast_expr_t **out) {
  hl_ast_op_t op;
  switch (p->tok.kind) {
  case HL_TK_MINUS:
    op = HL_OP_NEG;
    break;
  case HL_TK_PLUS:
    op = HL_OP_PLUS;
    break;
  case HL_TK_TILDE:
    op = HL_OP_BITNOT;
    break;
  default:
    return parse_postfix(p, out);
  }
  long pos = p->tok.pos;
  TRY(enter(p));
  TRY(advance(p));
  if (op == HL_OP_NEG && at_number(p)) {
    TRY(parse_number(p, true, pos, out));
    if (interval_unit_word(p)) TRY(parse_interval_unit(p, pos, *out, out)); /* -2 DAYS */
  } else {
    hl_ast_expr_t *e = new_expr(p, HL_AST_UNARY, pos);
    if (!e || !(e->args = hl_arena_alloc(p->arena, sizeof *e->args))) return nomem(p);
    e->op = op;
    e->n_args = 1;
    TRY(parse_unary(p, &e->args[0]));
    *out = e;
  }
  p->depth--;
  return HL_OK;
}

/* One left-associative binary level: operand parser NEXT, operator KIND. */
static hl_status_t parse_level(parser_t *p, hl_ast_expr_t **out,
                               hl_status_t (*next)(parser_t *, hl_ast_expr_t **), hl_sql_tk_t kind,
                               hl_ast_op_t op) {
  TRY(next(p, out));
  while (at(p, kind)) {
    hl_ast_expr_t *r;
    TRY(advance(p));
    TRY(next(p, &r));
    TRY(make_binary(p, op, *out, r, out));
  }
  return HL_OK;
}

/* Hive binds ^ tighter than * (HiveParser's precedenceBitwiseXorExpression
 * sits between the unary operators and precedenceStarExpression). */
static hl_status_t parse_bitxor(parser_t *p, hl_ast_expr_t **out) {
  return parse_level(p, out, parse_unary, HL_TK_CARET, HL_OP_BITXOR);
}

static hl_status_t parse_mul(parser_t *p, hl_ast_expr_t **out) {
  TRY(parse_bitxor(p, out));
  for (;;) {
    hl_ast_op_t op;
    if (at(p, HL_TK_STAR))
      op = HL_OP_MUL;
    else if (at(p, HL_TK_SLASH))
      op = HL_OP_DIV;
    else if (at(p, HL_TK_PERCENT))
      op = HL_OP_MOD;
    else if (at_kw(p, "DIV"))
      op = HL_OP_IDIV;
    else
      return HL_OK;
    hl_ast_expr_t *r;
    TRY(advance(p));
    TRY(parse_bitxor(p, &r));
    TRY(make_binary(p, op, *out, r, out));
  }
}

static hl_status_t parse_add(parser_t *p, hl_ast_expr_t **out) {
  TRY(parse_mul(p, out));
  while (at(p, HL_TK_PLUS) || at(p, HL_TK_MINUS)) {
    hl_ast_op_t op = at(p, HL_TK_PLUS) ? HL_OP_ADD : HL_OP_SUB;
    hl_ast_expr_t *r;
    TRY(advance(p));
    TRY(parse_mul(p, &r));
    TRY(make_binary(p, op, *out, r, out));
  }
  return HL_OK;
}

static hl_status_t parse_concat(parser_t *p, hl_ast_expr_t **out) {
  return parse_level(p, out, parse_add, HL_TK_CONCAT, HL_OP_CONCAT);
}
static hl_status_t parse_bitand(parser_t *p, hl_ast_expr_t **out) {
  return parse_level(p, out, parse_concat, HL_TK_AMP, HL_OP_BITAND);
}
static hl_status_t parse_bitor(parser_t *p, hl_ast_expr_t **out) {
  return parse_level(p, out, parse_bitand, HL_TK_PIPE, HL_OP_BITOR);
}

static hl_ast_op_t comparison_op(hl_sql_tk_t k) {
  switch (k) {
  case HL_TK_EQ:
    return HL_OP_EQ;
  case HL_TK_NE:
    return HL_OP_NE;
  case HL_TK_LT:
    return HL_OP_LT;
  case HL_TK_LE:
    return HL_OP_LE;
  case HL_TK_GT:
    return HL_OP_GT;
  case HL_TK_GE:
    return HL_OP_GE;
  case HL_TK_EQ_NS:
    return HL_OP_EQ_NS;
  default:
    return HL_OP_NONE;
  }
}

static bool is_like_word(parser_t *p, const hl_sql_token_t *t) {
  return tok_is_kw(p, t, "LIKE") || tok_is_kw(p, t, "RLIKE") || tok_is_kw(p, t, "REGEXP");
}

/* L [NOT] LIKE ANY|ALL (p1, ...), the current token ANY or ALL: Hive's
 * grammar makes it the call likeany(L, p1, ...) / likeall(...), under NOT
 * when negated. */
static hl_status_t parse_like_any(parser_t *p, hl_ast_expr_t *l, bool negated,
                                  hl_ast_expr_t **out) {
  hl_ast_expr_t *fn = new_expr(p, HL_AST_FUNC, l->pos);
  if (!fn) return nomem(p);
  if (!(fn->name = hl_arena_strndup(p->arena, at_kw(p, "ANY") ? "likeany" : "likeall", 7)))
    return nomem(p);
  int cap = 0;
  PUSH(p, fn->args, fn->n_args, cap, l);
  TRY(advance(p));
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    hl_ast_expr_t *x;
    TRY(parse_expr(p, &x));
    PUSH(p, fn->args, fn->n_args, cap, x);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  TRY(expect(p, HL_TK_RPAREN, "\")\""));
  if (!negated) {
    *out = fn;
    return HL_OK;
  }
  hl_ast_expr_t *e = new_expr(p, HL_AST_UNARY, l->pos);
  if (!e || !(e->args = hl_arena_alloc(p->arena, sizeof *e->args))) return nomem(p);
  e->op = HL_OP_NOT;
  e->n_args = 1;
  e->args[0] = fn;
  *out = e;
  return HL_OK;
}

/* [NOT] IN (...) / BETWEEN / LIKE after operand L; current token is the
 * keyword (NOT already consumed). */
static hl_status_t parse_predicate(parser_t *p, hl_ast_expr_t *l, bool negated,
                                   hl_ast_expr_t **out) {
  hl_ast_expr_t *e;
  int cap = 0;
  if (at_kw(p, "IN")) {
    if (!(e = new_expr(p, HL_AST_IN, l->pos))) return nomem(p);
    PUSH(p, e->args, e->n_args, cap, l);
    TRY(advance(p));
    if (at_query_paren(p)) {
      TRY(advance(p));
      TRY(parse_query_expr(p, &e->subquery));
      TRY(expect(p, HL_TK_RPAREN, "\")\""));
      e->negated = negated;
      *out = e;
      return HL_OK;
    }
    TRY(expect(p, HL_TK_LPAREN, "\"(\""));
    for (;;) {
      hl_ast_expr_t *x;
      TRY(parse_expr(p, &x));
      PUSH(p, e->args, e->n_args, cap, x);
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
  } else if (at_kw(p, "BETWEEN")) {
    if (!(e = new_expr(p, HL_AST_BETWEEN, l->pos)) ||
        !(e->args = hl_arena_alloc(p->arena, 3 * sizeof *e->args)))
      return nomem(p);
    e->args[0] = l;
    e->n_args = 3;
    TRY(advance(p));
    TRY(parse_bitor(p, &e->args[1]));
    TRY(expect_kw(p, "AND"));
    TRY(parse_bitor(p, &e->args[2]));
  } else {
    bool like = at_kw(p, "LIKE");
    TRY(advance(p));
    if ((at_kw(p, "ANY") || at_kw(p, "ALL")) && peek(p, 1).kind == HL_TK_LPAREN) {
      if (!like) return syntax_error(p); /* Hive's grammar has LIKE ANY|ALL only */
      return parse_like_any(p, l, negated, out);
    }
    if (!(e = new_expr(p, HL_AST_LIKE, l->pos)) ||
        !(e->args = hl_arena_alloc(p->arena, 2 * sizeof *e->args)))
      return nomem(p);
    e->op = like ? HL_OP_LIKE : HL_OP_RLIKE;
    e->args[0] = l;
    e->n_args = 2;
    TRY(parse_bitor(p, &e->args[1]));
  }
  e->negated = negated;
  *out = e;
  return HL_OK;
}

static hl_status_t parse_comparison(parser_t *p, hl_ast_expr_t **out) {
  TRY(parse_bitor(p, out));
  for (;;) {
    hl_ast_op_t op = comparison_op(p->tok.kind);
    if (op != HL_OP_NONE) {
      hl_ast_expr_t *r;
      TRY(advance(p));
      TRY(parse_bitor(p, &r));
      TRY(make_binary(p, op, *out, r, out));
    } else if (at_kw(p, "IS")) {
      bool negated = false;
      TRY(advance(p));
      if (at_kw(p, "NOT")) {
        negated = true;
        TRY(advance(p));
      }
      if (at_kw(p, "NULL")) {
        hl_ast_expr_t *e = new_expr(p, HL_AST_IS_NULL, (*out)->pos);
        if (!e || !(e->args = hl_arena_alloc(p->arena, sizeof *e->args))) return nomem(p);
        e->args[0] = *out;
        e->n_args = 1;
        e->negated = negated;
        *out = e;
        TRY(advance(p));
      } else if (at_kw(p, "DISTINCT")) {
        hl_ast_expr_t *r;
        TRY(advance(p));
        TRY(expect_kw(p, "FROM"));
        TRY(parse_bitor(p, &r));
        TRY(make_binary(p, HL_OP_DISTINCT_FROM, *out, r, out));
        (*out)->negated = negated;
      } else {
        return syntax_error(p);
      }
    } else if (at_kw(p, "IN") || at_kw(p, "BETWEEN") || is_like_word(p, &p->tok)) {
      TRY(parse_predicate(p, *out, false, out));
    } else if (at_kw(p, "NOT")) {
      hl_sql_token_t nx = peek(p, 1);
      if (!tok_is_kw(p, &nx, "IN") && !tok_is_kw(p, &nx, "BETWEEN") && !is_like_word(p, &nx))
        return HL_OK;
      TRY(advance(p));
      TRY(parse_predicate(p, *out, true, out));
    } else {
      return HL_OK;
    }
  }
}

static hl_status_t parse_not(parser_t *p, hl_ast_expr_t **out) {
  if (!at_kw(p, "NOT") && !at(p, HL_TK_BANG)) return parse_comparison(p, out);
  hl_ast_expr_t *e = new_expr(p, HL_AST_UNARY, p->tok.pos);
  if (!e || !(e->args = hl_arena_alloc(p->arena, sizeof *e->args))) return nomem(p);
  e->op = HL_OP_NOT;
  e->n_args = 1;
  TRY(enter(p));
  TRY(advance(p));
  TRY(parse_not(p, &e->args[0]));
  p->depth--;
  *out = e;
  return HL_OK;
}

static hl_status_t parse_and(parser_t *p, hl_ast_expr_t **out) {
  TRY(parse_not(p, out));
  while (at_kw(p, "AND")) {
    hl_ast_expr_t *r;
    TRY(advance(p));
    TRY(parse_not(p, &r));
    TRY(make_binary(p, HL_OP_AND, *out, r, out));
  }
  return HL_OK;
}

static hl_status_t parse_expr(parser_t *p, hl_ast_expr_t **out) {
  TRY(enter(p));
  TRY(parse_and(p, out));
  while (at_kw(p, "OR")) {
    hl_ast_expr_t *r;
    TRY(advance(p));
    TRY(parse_and(p, &r));
    TRY(make_binary(p, HL_OP_OR, *out, r, out));
  }
  p->depth--;
  return HL_OK;
}

/* ============================================================ SELECT */

static hl_status_t parse_select_item(parser_t *p, hl_ast_select_item_t *item) {
  item->pos = p->tok.pos;
  item->alias = NULL;
  if (at(p, HL_TK_STAR)) {
    if (!(item->expr = new_expr(p, HL_AST_STAR, p->tok.pos))) return nomem(p);
    return advance(p);
  }
  if (tok_is_ident(&p->tok) && peek(p, 1).kind == HL_TK_DOT && peek(p, 2).kind == HL_TK_STAR) {
    if (!(item->expr = new_expr(p, HL_AST_STAR, p->tok.pos))) return nomem(p);
    TRY(parse_ident(p, &item->expr->qualifier, NULL));
    TRY(advance(p));   /* . */
    return advance(p); /* * */
  }
  TRY(parse_expr(p, &item->expr));
  if (at_kw(p, "AS")) {
    TRY(advance(p));
    if (at(p, HL_TK_LPAREN)) return unsupported(p, p->tok.pos, "a multi-column alias");
    return parse_ident(p, &item->alias, NULL);
  }
  if (tok_is_ident(&p->tok)) return parse_ident(p, &item->alias, NULL);
  return HL_OK;
}

static const char *const setop_words[] = {"UNION", "INTERSECT", "EXCEPT", "MINUS", NULL};

static hl_status_t parse_query_expr(parser_t *p, hl_ast_select_t **out);
static hl_status_t parse_from(parser_t *p, hl_ast_from_t **out);

/* True at "(" that opens a query: ( SELECT | ( WITH | ( ( ... */
static bool at_query_paren(parser_t *p) {
  if (!at(p, HL_TK_LPAREN)) return false;
  hl_sql_token_t nx = peek(p, 1);
  return tok_is_kw(p, &nx, "SELECT") || tok_is_kw(p, &nx, "WITH");
}

/* [AS] alias after a table or subquery; words that continue the FROM
 * clause are not aliases. */
static hl_status_t parse_from_alias(parser_t *p, char **alias) {
  if (at_kw(p, "AS")) {
    TRY(advance(p));
    return parse_ident(p, alias, NULL);
  }
  if (tok_is_ident(&p->tok) && !at_kw(p, "USING") && !at_kw(p, "SEMI") && !at_kw(p, "ANTI"))
    return parse_ident(p, alias, NULL);
  return HL_OK;
}

/* TABLESAMPLE (n ROWS) after a table name; the bucket, percent and
 * byte-length forms are refused. */
static hl_status_t parse_tablesample(parser_t *p, hl_ast_from_t *f) {
  long pos = p->tok.pos;
  TRY(advance(p));
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  if (at_kw(p, "BUCKET")) return unsupported(p, pos, "TABLESAMPLE (BUCKET x OUT OF y)");
  if (!at(p, HL_TK_INTEGER)) {
    if (at_number(p)) return unsupported(p, pos, "TABLESAMPLE (n PERCENT)");
    if (p->tok.len > 0 && isdigit((unsigned char)p->src[p->tok.pos])) /* 100M: a byte length */
      return unsupported(p, pos, "TABLESAMPLE (byte length)");
    return syntax_error(p);
  }
  TRY(parse_count(p, "TABLESAMPLE", INT64_MAX, &f->sample_rows));
  if (at_kw(p, "PERCENT")) return unsupported(p, pos, "TABLESAMPLE (n PERCENT)");
  if (!at_kw(p, "ROWS")) {
    if (tok_is_ident(&p->tok)) return unsupported(p, pos, "TABLESAMPLE (byte length)");
    return syntax_error(p);
  }
  TRY(advance(p));
  f->has_sample = true;
  return expect(p, HL_TK_RPAREN, "\")\"");
}

/* LATERAL VIEW [OUTER] func(args) alias [AS col, ...]: wraps *F. */
static hl_status_t parse_lateral_view(parser_t *p, hl_ast_from_t **f) {
  hl_ast_from_t *l = zalloc(p, sizeof *l);
  if (!l) return nomem(p);
  l->kind = HL_FROM_LATERAL;
  l->pos = p->tok.pos;
  l->left = *f;
  TRY(advance(p));
  TRY(expect_kw(p, "VIEW"));
  if (at_kw(p, "OUTER")) {
    l->lateral_outer = true;
    TRY(advance(p));
  }
  long fpos = p->tok.pos;
  TRY(parse_expr(p, &l->lateral_func));
  if (l->lateral_func->kind != HL_AST_FUNC || l->lateral_func->window)
    return hl_err_set_at(p->err, fpos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "LATERAL VIEW needs a table-generating function call");
  TRY(parse_ident(p, &l->alias, NULL));
  if (at_kw(p, "AS")) {
    int cap = 0;
    TRY(advance(p));
    for (;;) {
      char *col;
      TRY(parse_ident(p, &col, NULL));
      PUSH(p, l->lateral_cols, l->n_lateral_cols, cap, col);
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
  }
  *f = l;
  return HL_OK;
}

/* table [alias] | (query) [alias] | (from) */
/* parquet.`path`: Spark's direct file query (only Parquet is read). */
static bool at_direct_file(parser_t *p) {
  if (!at_kw(p, "PARQUET")) return false;
  hl_sql_token_t dot = peek(p, 1), path = peek(p, 2);
  return dot.kind == HL_TK_DOT && path.kind == HL_TK_QIDENT;
}

/* The backquoted path keeps its case (identifiers are lower-cased). */
static hl_status_t parse_direct_file(parser_t *p, hl_ast_from_t *f) {
  f->table.pos = p->tok.pos;
  f->table.db = "parquet";
  TRY(advance(p));
  TRY(advance(p));
  const char *s = p->src + p->tok.pos + 1;
  size_t n = p->tok.len >= 2 ? p->tok.len - 2 : 0;
  char *out = hl_arena_alloc(p->arena, n + 1);
  if (!out) return nomem(p);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    out[k++] = s[i];
    if (s[i] == '`' && i + 1 < n && s[i + 1] == '`') i++; /* `` is one ` */
  }
  out[k] = '\0';
  f->file_path = out;
  f->table.name = out;
  return advance(p);
}

/* After a name: "(ON" starts Hive's partitioned table function call. */
static bool at_ptf_call(parser_t *p) {
  hl_sql_token_t on = peek(p, 1);
  return at(p, HL_TK_LPAREN) && tok_is_kw(p, &on, "ON");
}

/* A word that ends a PTF's source rather than naming it: the partitioning
 * clauses, and an argument name (arg1(...)). */
static bool at_ptf_source_end(parser_t *p) {
  static const char *const kws[] = {"PARTITION", "DISTRIBUTE", "CLUSTER", "ORDER", "SORT"};
  for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
    if (at_kw(p, kws[i])) return true;
  return peek(p, 1).kind == HL_TK_LPAREN;
}

static hl_status_t parse_ptf(parser_t *p, hl_ast_from_t *f);
static hl_status_t parse_expr_list(parser_t *p, hl_ast_expr_t ***list, int *n);

/* The source of a PTF after ON: (query) alias, another PTF call, or a
 * table [alias]. */
static hl_status_t parse_ptf_source(parser_t *p, hl_ast_from_t **out) {
  hl_ast_from_t *s = zalloc(p, sizeof *s);
  if (!s) return nomem(p);
  s->pos = p->tok.pos;
  if (at_query_paren(p)) {
    s->kind = HL_FROM_SUBQUERY;
    TRY(advance(p));
    TRY(parse_query_expr(p, &s->subquery));
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
  } else {
    s->kind = HL_FROM_TABLE;
    TRY(parse_qname(p, &s->table));
    if (at_ptf_call(p)) {
      TRY(parse_ptf(p, s));
      *out = s;
      return HL_OK;
    }
  }
  if (at_kw(p, "AS") || (tok_is_ident(&p->tok) && !at_ptf_source_end(p)))
    TRY(parse_from_alias(p, &s->alias));
  *out = s;
  return HL_OK;
}

/* Hive's partitioned table function in FROM, the current token the "("
 * after its name (in F->table): name(ON source [PARTITION BY e, ... [ORDER
 * BY ...] | ORDER BY ... | DISTRIBUTE BY e, ... [SORT BY ...] | SORT BY ...
 * | CLUSTER BY e, ...] [arg(expr) {, arg(expr)}]) [alias].  Which
 * functions exist and what their arguments mean is the binder's
 * (plan/ptf.c). */
static hl_status_t parse_ptf(parser_t *p, hl_ast_from_t *f) {
  if (f->table.db || f->table.catalog)
    return hl_err_set_at(p->err, f->table.pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "a partitioned table function's name takes no database");
  f->kind = HL_FROM_PTF;
  f->ptf_name = f->table.name;
  TRY(enter(p));
  TRY(advance(p)); /* ( */
  TRY(advance(p)); /* ON */
  TRY(parse_ptf_source(p, &f->left));
  if (at_kw(p, "PARTITION") || at_kw(p, "DISTRIBUTE") || at_kw(p, "CLUSTER")) {
    bool cluster = at_kw(p, "CLUSTER");
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_expr_list(p, &f->ptf_partition, &f->n_ptf_partition));
    if (cluster) {
      f->ptf_order = zalloc(p, sizeof(hl_ast_order_item_t) * (size_t)f->n_ptf_partition);
      if (!f->ptf_order) return nomem(p);
      for (int i = 0; i < f->n_ptf_partition; i++)
        f->ptf_order[i].expr = f->ptf_partition[i];
      f->n_ptf_order = f->n_ptf_partition;
    }
  }
  if (f->n_ptf_order == 0 && (at_kw(p, "ORDER") || at_kw(p, "SORT"))) {
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_order_items(p, &f->ptf_order, &f->n_ptf_order));
  }
  int cap = 0;
  while (!at(p, HL_TK_RPAREN)) {
    if (f->n_ptf_args > 0) TRY(expect(p, HL_TK_COMMA, "\",\" or \")\""));
    char *ignored_name;
    TRY(parse_ident(p, &ignored_name, NULL));
    TRY(expect(p, HL_TK_LPAREN, "\"(\""));
    hl_ast_expr_t *e;
    TRY(parse_expr(p, &e));
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
    PUSH(p, f->ptf_args, f->n_ptf_args, cap, e);
  }
  TRY(advance(p)); /* ) */
  p->depth--;
  if (at_kw(p, "AS") || (tok_is_ident(&p->tok) && !at_ptf_source_end(p)))
    return parse_from_alias(p, &f->alias);
  return HL_OK;
}

static hl_status_t parse_from_primary(parser_t *p, hl_ast_from_t **out) {
  hl_ast_from_t *f = zalloc(p, sizeof *f);
  if (!f) return nomem(p);
  f->pos = p->tok.pos;
  if (at_query_paren(p)) {
    f->kind = HL_FROM_SUBQUERY;
    TRY(advance(p));
    TRY(parse_query_expr(p, &f->subquery));
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
    TRY(parse_from_alias(p, &f->alias));
  } else if (at(p, HL_TK_LPAREN)) {
    TRY(enter(p));
    TRY(advance(p));
    TRY(parse_from(p, &f));
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
    p->depth--;
  } else {
    f->kind = HL_FROM_TABLE;
    if (at_direct_file(p))
      TRY(parse_direct_file(p, f));
    else
      TRY(parse_qname(p, &f->table));
    if (at_ptf_call(p)) {
      TRY(parse_ptf(p, f));
    } else {
      if (at_kw(p, "TABLESAMPLE")) TRY(parse_tablesample(p, f));
      TRY(parse_from_alias(p, &f->alias));
    }
  }
  while (at_kw(p, "LATERAL"))
    TRY(parse_lateral_view(p, &f));
  *out = f;
  return HL_OK;
}

/* Reads a join operator; *is_join false when the FROM clause ends. */
static hl_status_t parse_join_op(parser_t *p, hl_ast_join_type_t *type, bool *is_join) {
  *is_join = true;
  if (at(p, HL_TK_COMMA)) {
    *type = HL_JOIN_CROSS;
    return advance(p);
  }
  if (at_kw(p, "JOIN")) {
    *type = HL_JOIN_INNER;
    return advance(p);
  }
  if (at_kw(p, "NATURAL")) return unsupported(p, p->tok.pos, "NATURAL JOIN");
  if (at_kw(p, "INNER") || at_kw(p, "CROSS")) {
    *type = at_kw(p, "INNER") ? HL_JOIN_INNER : HL_JOIN_CROSS;
    TRY(advance(p));
    return expect_kw(p, "JOIN");
  }
  if (at_kw(p, "LEFT") || at_kw(p, "RIGHT") || at_kw(p, "FULL")) {
    *type = at_kw(p, "LEFT") ? HL_JOIN_LEFT : at_kw(p, "RIGHT") ? HL_JOIN_RIGHT : HL_JOIN_FULL;
    TRY(advance(p));
    if (*type == HL_JOIN_LEFT && (at_kw(p, "SEMI") || at_kw(p, "ANTI"))) {
      *type = at_kw(p, "SEMI") ? HL_JOIN_LEFT_SEMI : HL_JOIN_LEFT_ANTI;
      TRY(advance(p));
    } else if (at_kw(p, "OUTER")) {
      TRY(advance(p));
    }
    return expect_kw(p, "JOIN");
  }
  *is_join = false;
  return HL_OK;
}

/* from_primary { join_op from_primary [ON expr | USING (cols)] } */
static hl_status_t parse_from(parser_t *p, hl_ast_from_t **out) {
  hl_ast_from_t *left;
  TRY(parse_from_primary(p, &left));
  for (;;) {
    long pos = p->tok.pos;
    hl_ast_join_type_t type = HL_JOIN_INNER;
    bool is_join;
    TRY(parse_join_op(p, &type, &is_join));
    if (!is_join) break;
    hl_ast_from_t *j = zalloc(p, sizeof *j);
    if (!j) return nomem(p);
    j->kind = HL_FROM_JOIN;
    j->pos = pos;
    j->join_type = type;
    j->left = left;
    TRY(parse_from_primary(p, &j->right));
    if (at_kw(p, "ON")) {
      if (type == HL_JOIN_CROSS && at(p, HL_TK_COMMA)) return syntax_error(p);
      TRY(advance(p));
      TRY(parse_expr(p, &j->on));
    } else if (at_kw(p, "USING")) {
      int cap = 0;
      TRY(advance(p));
      TRY(expect(p, HL_TK_LPAREN, "\"(\""));
      for (;;) {
        char *col = NULL;
        TRY(parse_ident(p, &col, NULL));
        PUSH(p, j->using_cols, j->n_using, cap, col);
        if (!at(p, HL_TK_COMMA)) break;
        TRY(advance(p));
      }
      TRY(expect(p, HL_TK_RPAREN, "\")\""));
    }
    left = j;
  }
  *out = left;
  return HL_OK;
}

static hl_status_t parse_expr_list(parser_t *p, hl_ast_expr_t ***list, int *n) {
  int cap = 0;
  for (;;) {
    hl_ast_expr_t *e;
    TRY(parse_expr(p, &e));
    PUSH(p, *list, *n, cap, e);
    if (!at(p, HL_TK_COMMA)) return HL_OK;
    TRY(advance(p));
  }
}

static hl_status_t parse_order_items(parser_t *p, struct hl_ast_order_item **items, int *n) {
  int cap = 0;
  for (;;) {
    hl_ast_order_item_t o = {0};
    TRY(parse_expr(p, &o.expr));
    if (at_kw(p, "ASC")) {
      TRY(advance(p));
    } else if (at_kw(p, "DESC")) {
      o.descending = true;
      TRY(advance(p));
    }
    if (at_kw(p, "NULLS")) {
      TRY(advance(p));
      if (at_kw(p, "FIRST"))
        o.nulls = 1;
      else if (at_kw(p, "LAST"))
        o.nulls = 2;
      else
        return syntax_error(p);
      TRY(advance(p));
    }
    PUSH(p, *items, *n, cap, o);
    if (!at(p, HL_TK_COMMA)) return HL_OK;
    TRY(advance(p));
  }
}

static hl_status_t parse_order_by(parser_t *p, hl_ast_select_t *s) {
  return parse_order_items(p, &s->order_by, &s->n_order_by);
}

/* Structural equality of two expressions as written (for matching the
 * members of grouping sets with the GROUP BY list). */
static bool ast_equal(const hl_ast_expr_t *x, const hl_ast_expr_t *y) {
  if (x->kind != y->kind || x->op != y->op || x->n_args != y->n_args || x->negated != y->negated ||
      x->lit_type != y->lit_type)
    return false;
  if ((x->name || y->name) && (!x->name || !y->name || strcmp(x->name, y->name) != 0)) return false;
  if ((x->qualifier || y->qualifier) &&
      (!x->qualifier || !y->qualifier || strcmp(x->qualifier, y->qualifier) != 0))
    return false;
  if ((x->text || y->text) && (!x->text || !y->text || x->text_len != y->text_len ||
                               memcmp(x->text, y->text, x->text_len) != 0))
    return false;
  for (int k = 0; k < x->n_args; k++)
    if (!ast_equal(x->args[k], y->args[k])) return false;
  return true;
}

/* Index of E in the GROUP BY list, appending it when absent. */
static hl_status_t group_index(parser_t *p, hl_ast_select_t *s, int *cap, hl_ast_expr_t *e,
                               int *idx) {
  for (int i = 0; i < s->n_group_by; i++)
    if (ast_equal(s->group_by[i], e)) {
      *idx = i;
      return HL_OK;
    }
  if (s->n_group_by >= 64) return unsupported(p, e->pos, "more than 64 grouping columns");
  PUSH(p, s->group_by, s->n_group_by, *cap, e);
  *idx = s->n_group_by - 1;
  return HL_OK;
}

static hl_status_t add_set(parser_t *p, hl_ast_select_t *s, int *cap, uint64_t mask) {
  if (s->n_grouping_sets >= 4096) return unsupported(p, p->tok.pos, "more than 4096 grouping sets");
  PUSH(p, s->grouping_sets, s->n_grouping_sets, *cap, mask);
  return HL_OK;
}

/* ( e, ... ) or e: a grouping set; *mask gets its members. */
static hl_status_t parse_set_items(parser_t *p, hl_ast_select_t *s, int *gcap, uint64_t *mask) {
  *mask = 0;
  bool paren = at(p, HL_TK_LPAREN);
  if (paren) {
    TRY(advance(p));
    if (at(p, HL_TK_RPAREN)) return advance(p); /* () : the grand total */
  }
  for (;;) {
    hl_ast_expr_t *e;
    int idx = 0;
    TRY(parse_expr(p, &e));
    TRY(group_index(p, s, gcap, e, &idx));
    *mask |= (uint64_t)1 << idx;
    if (!paren || !at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return paren ? expect(p, HL_TK_RPAREN, "\")\"") : HL_OK;
}

/* ROLLUP (a, b) -> (a, b), (a), (); CUBE (a, b) -> every subset. */
static hl_status_t add_rollup_cube(parser_t *p, hl_ast_select_t *s, int *scap, int first, int n,
                                   bool cube) {
  if (cube && n > 12) return unsupported(p, p->tok.pos, "CUBE of more than 12 columns");
  if (cube) {
    for (int m = (1 << n) - 1; m >= 0; m--) {
      uint64_t mask = 0;
      for (int i = 0; i < n; i++)
        if (m & (1 << (n - 1 - i))) mask |= (uint64_t)1 << (first + i);
      TRY(add_set(p, s, scap, mask));
    }
  } else {
    for (int k = n; k >= 0; k--) {
      uint64_t mask = 0;
      for (int i = 0; i < k; i++)
        mask |= (uint64_t)1 << (first + i);
      TRY(add_set(p, s, scap, mask));
    }
  }
  return HL_OK;
}

/* GROUP BY list [WITH ROLLUP | WITH CUBE | GROUPING SETS (...)]
 *        | ROLLUP (list) | CUBE (list) | GROUPING SETS (...) */
static hl_status_t parse_group_by(parser_t *p, hl_ast_select_t *s) {
  int gcap = 0, scap = 0;
  hl_sql_token_t nx = peek(p, 1);
  if ((at_kw(p, "ROLLUP") || at_kw(p, "CUBE")) && nx.kind == HL_TK_LPAREN) {
    bool cube = at_kw(p, "CUBE");
    TRY(advance(p));
    TRY(advance(p));
    for (;;) {
      hl_ast_expr_t *e;
      int idx;
      TRY(parse_expr(p, &e));
      TRY(group_index(p, s, &gcap, e, &idx));
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
    return add_rollup_cube(p, s, &scap, 0, s->n_group_by, cube);
  }
  if (!at_kw(p, "GROUPING")) {
    for (;;) {
      hl_ast_expr_t *e;
      int idx;
      TRY(parse_expr(p, &e));
      PUSH(p, s->group_by, s->n_group_by, gcap, e);
      idx = s->n_group_by;
      (void)idx;
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    if (s->n_group_by > 64) return unsupported(p, p->tok.pos, "more than 64 grouping columns");
    if (at_kw(p, "WITH")) {
      TRY(advance(p));
      if (!at_kw(p, "ROLLUP") && !at_kw(p, "CUBE")) return syntax_error(p);
      bool cube = at_kw(p, "CUBE");
      TRY(advance(p));
      return add_rollup_cube(p, s, &scap, 0, s->n_group_by, cube);
    }
    if (!at_kw(p, "GROUPING")) return HL_OK;
  }
  TRY(advance(p));
  TRY(expect_kw(p, "SETS"));
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    uint64_t mask;
    TRY(parse_set_items(p, s, &gcap, &mask));
    TRY(add_set(p, s, &scap, mask));
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return expect(p, HL_TK_RPAREN, "\")\"");
}

/* SELECT ...; current token is SELECT. */
static hl_status_t parse_select(parser_t *p, hl_ast_select_t **out) {
  hl_ast_select_t *s = zalloc(p, sizeof *s);
  if (!s) return nomem(p);
  s->pos = p->tok.pos;
  TRY(advance(p));
  if (at_kw(p, "DISTINCT")) {
    s->distinct = true;
    TRY(advance(p));
  } else if (at_kw(p, "ALL")) {
    TRY(advance(p));
  }
  if (at_kw(p, "TRANSFORM")) return unsupported(p, p->tok.pos, "SELECT TRANSFORM");
  int cap = 0;
  for (;;) {
    hl_ast_select_item_t item;
    TRY(parse_select_item(p, &item));
    PUSH(p, s->items, s->n_items, cap, item);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  if (at_kw(p, "FROM")) {
    TRY(advance(p));
    TRY(parse_from(p, &s->from_item));
    if (s->from_item->kind == HL_FROM_TABLE) { /* the simple single-table form */
      if (!(s->from = zalloc(p, sizeof *s->from))) return nomem(p);
      s->from->table = s->from_item->table;
      s->from->alias = s->from_item->alias;
      s->from->pos = s->from_item->pos;
    }
  }
  if (at_kw(p, "WHERE")) {
    TRY(advance(p));
    TRY(parse_expr(p, &s->where));
  }
  if (at_kw(p, "GROUP")) {
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_group_by(p, s));
  }
  if (at_kw(p, "HAVING")) {
    TRY(advance(p));
    TRY(parse_expr(p, &s->having));
  }
  if (at_kw(p, "WINDOW")) return unsupported(p, p->tok.pos, "WINDOW");
  *out = s;
  return HL_OK;
}

/* ORDER BY / SORT BY / CLUSTER BY / DISTRIBUTE BY and LIMIT of a query. */
/* A LIMIT or OFFSET count, or a parameter giving it at execution (*PARAM
 * its number, *OUT 0; else *PARAM 0). */
static hl_status_t parse_count_or_param(parser_t *p, const char *what, int64_t *out, int *param) {
  *param = 0;
  if (at(p, HL_TK_PARAM)) {
    *out = 0;
    return parse_param(p, param);
  }
  return parse_count(p, what, INT64_MAX, out);
}

static hl_status_t parse_order_limit(parser_t *p, hl_ast_select_t *s) {
  if (at_kw(p, "ORDER") || at_kw(p, "SORT")) {
    /* one process is one reducer: SORT BY orders the whole result */
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_order_by(p, s));
  } else if (at_kw(p, "CLUSTER") || at_kw(p, "DISTRIBUTE")) {
    /* DISTRIBUTE BY only routes rows to reducers, which changes no result
     * here; CLUSTER BY x is DISTRIBUTE BY x SORT BY x */
    bool cluster = at_kw(p, "CLUSTER");
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    if (cluster) {
      TRY(parse_order_by(p, s));
    } else {
      hl_ast_expr_t **ignored = NULL;
      int n_ignored = 0;
      TRY(parse_expr_list(p, &ignored, &n_ignored));
      if (at_kw(p, "SORT")) {
        TRY(advance(p));
        TRY(expect_kw(p, "BY"));
        TRY(parse_order_by(p, s));
      }
    }
  }
  if (at_kw(p, "LIMIT")) {
    int64_t a, b;
    int pa, pb;
    TRY(advance(p));
    TRY(parse_count_or_param(p, "LIMIT", &a, &pa));
    s->has_limit = true;
    s->limit = a;
    s->limit_param = pa;
    if (at(p, HL_TK_COMMA)) { /* LIMIT offset, count */
      TRY(advance(p));
      TRY(parse_count_or_param(p, "LIMIT", &b, &pb));
      s->offset = a;
      s->offset_param = pa;
      s->limit = b;
      s->limit_param = pb;
    } else if (at_kw(p, "OFFSET")) {
      TRY(advance(p));
      TRY(parse_count_or_param(p, "OFFSET", &s->offset, &s->offset_param));
    }
  }
  return HL_OK;
}

/* One operand of a set operation: SELECT ... or ( query ). */
static hl_status_t parse_query_term(parser_t *p, hl_ast_select_t **out) {
  if (at(p, HL_TK_LPAREN)) {
    TRY(advance(p));
    TRY(parse_query_expr(p, out));
    return expect(p, HL_TK_RPAREN, "\")\"");
  }
  if (!at_kw(p, "SELECT")) return syntax_error(p);
  return parse_select(p, out);
}

/* [WITH name AS (query), ...] term { setop term } [ORDER BY ...] [LIMIT ...] */
static hl_status_t parse_query_expr(parser_t *p, hl_ast_select_t **out) {
  TRY(enter(p));
  hl_ast_cte_t *ctes = NULL;
  int n_ctes = 0, cap = 0;
  if (at_kw(p, "WITH")) {
    TRY(advance(p));
    for (;;) {
      hl_ast_cte_t c = {0};
      TRY(parse_ident(p, &c.name, &c.pos));
      TRY(expect_kw(p, "AS"));
      TRY(expect(p, HL_TK_LPAREN, "\"(\""));
      TRY(parse_query_expr(p, &c.query));
      TRY(expect(p, HL_TK_RPAREN, "\")\""));
      PUSH(p, ctes, n_ctes, cap, c);
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    /* Hive's WITH ... INSERT and WITH ... FROM ... INSERT */
    if (at_kw(p, "INSERT") || at_kw(p, "FROM"))
      return unsupported(p, p->tok.pos, at_kw(p, "INSERT") ? "WITH ... INSERT" : "WITH ... FROM");
  }
  hl_ast_select_t *left;
  TRY(parse_query_term(p, &left));
  while (word_in(p, &p->tok, setop_words)) {
    long pos = p->tok.pos;
    hl_ast_setop_t op = at_kw(p, "UNION")       ? HL_SETOP_UNION
                        : at_kw(p, "INTERSECT") ? HL_SETOP_INTERSECT
                                                : HL_SETOP_EXCEPT;
    TRY(advance(p));
    if (at_kw(p, "ALL")) {
      if (op != HL_SETOP_UNION) return unsupported(p, pos, "INTERSECT ALL and EXCEPT ALL");
      op = HL_SETOP_UNION_ALL;
      TRY(advance(p));
    } else if (at_kw(p, "DISTINCT")) {
      TRY(advance(p));
    }
    hl_ast_select_t *right;
    TRY(parse_query_term(p, &right));
    hl_ast_select_t *node = zalloc(p, sizeof *node);
    if (!node) return nomem(p);
    node->setop = op;
    node->set_left = left;
    node->set_right = right;
    node->pos = pos;
    left = node;
  }
  if (at_kw(p, "ORDER") || at_kw(p, "SORT") || at_kw(p, "CLUSTER") || at_kw(p, "DISTRIBUTE") ||
      at_kw(p, "LIMIT")) {
    if (left->n_order_by || left->has_limit) {
      /* (SELECT ... LIMIT 1) ORDER BY x: wrap so both apply in order */
      hl_ast_select_t *node = zalloc(p, sizeof *node);
      if (!node) return nomem(p);
      node->setop = HL_SETOP_UNION_ALL;
      node->set_left = left;
      node->set_right = NULL;
      node->pos = left->pos;
      left = node;
    }
    TRY(parse_order_limit(p, left));
  }
  if (n_ctes) {
    if (left->n_ctes) return unsupported(p, ctes[0].pos, "nested WITH clauses");
    left->ctes = ctes;
    left->n_ctes = n_ctes;
  }
  p->depth--;
  *out = left;
  return HL_OK;
}

static hl_ast_stmt_t *new_stmt(parser_t *p, hl_ast_stmt_kind_t kind, long pos) {
  hl_ast_stmt_t *st = zalloc(p, sizeof *st);
  if (!st) return NULL;
  st->kind = kind;
  st->pos = pos;
  return st;
}

/* A query where one is expected (EXPLAIN, CREATE TABLE AS). */
static hl_status_t parse_query(parser_t *p, hl_ast_stmt_t **out) {
  if (at_kw(p, "FROM") || at_kw(p, "VALUES")) return unsupported_word(p, p->tok.pos, NULL);
  if (!at_kw(p, "SELECT") && !at_kw(p, "WITH") && !at(p, HL_TK_LPAREN)) return syntax_error(p);
  hl_ast_stmt_t *st = new_stmt(p, HL_STMT_SELECT, p->tok.pos);
  if (!st) return nomem(p);
  TRY(parse_query_expr(p, &st->select));
  st->end_pos = p->prev_end;
  *out = st;
  return HL_OK;
}

/* ======================================================== DDL helpers */

/* IF NOT EXISTS / IF EXISTS: sets *flag when present. */
static hl_status_t parse_if_not_exists(parser_t *p, bool *flag) {
  if (!at_kw(p, "IF")) return HL_OK;
  TRY(advance(p));
  TRY(expect_kw(p, "NOT"));
  TRY(expect_kw(p, "EXISTS"));
  *flag = true;
  return HL_OK;
}

static hl_status_t parse_if_exists(parser_t *p, bool *flag) {
  if (!at_kw(p, "IF")) return HL_OK;
  TRY(advance(p));
  TRY(expect_kw(p, "EXISTS"));
  *flag = true;
  return HL_OK;
}

/* col type [COMMENT 'c'] */
static hl_status_t parse_column_def(parser_t *p, hl_ast_column_def_t *c) {
  c->comment = NULL;
  if (at_kw(p, "PRIMARY") || at_kw(p, "FOREIGN") || at_kw(p, "CONSTRAINT")) {
    hl_sql_token_t nx = peek(p, 1), nx2 = peek(p, 2);
    if (tok_is_kw(p, &nx, "KEY") ||
        (at_kw(p, "CONSTRAINT") && tok_is_ident(&nx) && tok_is_ident(&nx2)))
      return unsupported(p, p->tok.pos, "a table constraint");
  }
  TRY(parse_ident(p, &c->name, &c->pos));
  long type_pos = p->tok.pos;
  TRY(parse_type(p, &c->type));
  if (hl_type_has_interval(c->type)) /* Hive: expression types only */
    return hl_err_set_at(p->err, type_pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "column \"%s\": interval types cannot be stored in a table", c->name);
  /* Hive 3's column constraints: valid HiveQL, not implemented */
  static const char *const constraint[] = {"PRIMARY",    "UNIQUE",     "DEFAULT", "CHECK",
                                           "CONSTRAINT", "REFERENCES", NULL};
  hl_sql_token_t nx = peek(p, 1);
  if (word_in(p, &p->tok, constraint) || (at_kw(p, "NOT") && tok_is_kw(p, &nx, "NULL")))
    return unsupported(p, p->tok.pos, "a column constraint");
  if (at_kw(p, "COMMENT")) {
    TRY(advance(p));
    TRY(parse_string(p, &c->comment));
  }
  return HL_OK;
}

/* (col type [COMMENT 'c'], ...) */
static hl_status_t parse_column_defs(parser_t *p, hl_ast_column_def_t **cols, int *n) {
  int cap = 0;
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    hl_ast_column_def_t c;
    TRY(parse_column_def(p, &c));
    PUSH(p, *cols, *n, cap, c);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return expect(p, HL_TK_RPAREN, "\")\"");
}

/* (name, ...) into NAMES; POSV (may be NULL) gets each name's offset, so
 * an executor can point a name error at the token. */
static hl_status_t parse_ident_list_pos(parser_t *p, char ***names, long **posv, int *n) {
  int cap = 0, pcap = 0, pn = 0;
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    char *name = NULL;
    long pos = p->tok.pos;
    TRY(parse_ident(p, &name, NULL));
    PUSH(p, *names, *n, cap, name);
    if (posv) PUSH(p, *posv, pn, pcap, pos);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return expect(p, HL_TK_RPAREN, "\")\"");
}

static hl_status_t parse_ident_list(parser_t *p, char ***names, int *n) {
  return parse_ident_list_pos(p, names, NULL, n);
}

/* A constant in a partition spec: 'x', [-]number, DATE 'x', TIMESTAMP 'x',
 * TRUE, FALSE. */
static hl_status_t parse_part_value(parser_t *p, hl_ast_expr_t **out) {
  long pos = p->tok.pos;
  if (at(p, HL_TK_STRING)) return parse_string_literal(p, HL_LIT_STRING, pos, out);
  if (at(p, HL_TK_MINUS) || at(p, HL_TK_PLUS)) {
    bool neg = at(p, HL_TK_MINUS);
    TRY(advance(p));
    if (!at_number(p)) return syntax_error(p);
    return parse_number(p, neg, pos, out);
  }
  if (at_number(p)) return parse_number(p, false, pos, out);
  if ((at_kw(p, "DATE") || at_kw(p, "TIMESTAMP")) && peek(p, 1).kind == HL_TK_STRING) {
    hl_ast_lit_type_t t = at_kw(p, "DATE") ? HL_LIT_DATE : HL_LIT_TIMESTAMP;
    TRY(advance(p));
    return parse_string_literal(p, t, pos, out);
  }
  if (at_kw(p, "TRUE") || at_kw(p, "FALSE")) {
    TRY(make_literal(p, HL_LIT_BOOL, at_kw(p, "TRUE") ? "true" : "false", pos, out));
    return advance(p);
  }
  return syntax_error(p);
}

/* (key [op value], ...); current token is "(".  ALLOW_CMP admits the
 * comparisons of ALTER TABLE DROP PARTITION besides "=". */
static hl_status_t parse_part_spec(parser_t *p, bool allow_cmp, hl_ast_part_spec_t **out) {
  hl_ast_part_spec_t *spec = zalloc(p, sizeof *spec);
  if (!spec) return nomem(p);
  spec->pos = p->tok.pos;
  int cap = 0;
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    hl_ast_part_item_t item = {0};
    TRY(parse_ident(p, &item.key, &item.pos));
    hl_ast_op_t op = comparison_op(p->tok.kind);
    if (op != HL_OP_NONE) {
      if (op == HL_OP_EQ_NS || (op != HL_OP_EQ && !allow_cmp)) return syntax_error(p);
      item.op = op;
      TRY(advance(p));
      TRY(parse_part_value(p, &item.value));
    } else {
      item.op = HL_OP_EQ; /* dynamic: no value */
    }
    PUSH(p, spec->items, spec->n, cap, item);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  TRY(expect(p, HL_TK_RPAREN, "\")\""));
  *out = spec;
  return HL_OK;
}

/* PARTITION (spec) when present; *out stays NULL otherwise. */
static hl_status_t parse_opt_partition(parser_t *p, hl_ast_part_spec_t **out) {
  *out = NULL;
  if (!at_kw(p, "PARTITION") || peek(p, 1).kind != HL_TK_LPAREN) return HL_OK;
  TRY(advance(p));
  return parse_part_spec(p, false, out);
}

static const char *const file_formats[] = {"TEXTFILE", "PARQUET",      "ORC",    "JSONFILE",
                                           "AVRO",     "SEQUENCEFILE", "RCFILE", NULL};

/* A file format name, stored upper-case. */
static hl_status_t parse_file_format(parser_t *p, char **out) {
  if (!tok_is_ident(&p->tok)) return syntax_error(p);
  char *name = hl_sql_ident_value(p->arena, p->src, &p->tok);
  if (!name) return nomem(p);
  for (char *c = name; *c; c++)
    *c = (char)toupper((unsigned char)*c);
  for (const char *const *f = file_formats; *f; f++) {
    if (strcmp(*f, name) == 0) {
      *out = name;
      return advance(p);
    }
  }
  return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                       "unknown file format \"%s\"", name);
}

/* ROW FORMAT ...; current token is ROW. */
static hl_status_t parse_row_format(parser_t *p, hl_ast_row_format_t *rf) {
  TRY(advance(p));
  TRY(expect_kw(p, "FORMAT"));
  rf->present = true;
  if (at_kw(p, "SERDE")) {
    rf->is_serde = true;
    TRY(advance(p));
    TRY(parse_string(p, &rf->serde_class));
    if (at_kw(p, "WITH")) {
      TRY(advance(p));
      TRY(expect_kw(p, "SERDEPROPERTIES"));
      TRY(parse_kvlist(p, &rf->serde_props));
    }
    return HL_OK;
  }
  TRY(expect_kw(p, "DELIMITED"));
  if (at_kw(p, "FIELDS")) {
    TRY(advance(p));
    TRY(expect_kw(p, "TERMINATED"));
    TRY(expect_kw(p, "BY"));
    TRY(parse_string(p, &rf->fields_terminated));
    if (at_kw(p, "ESCAPED")) {
      TRY(advance(p));
      TRY(expect_kw(p, "BY"));
      TRY(parse_string(p, &rf->escaped_by));
    }
  }
  if (at_kw(p, "COLLECTION")) {
    TRY(advance(p));
    TRY(expect_kw(p, "ITEMS"));
    TRY(expect_kw(p, "TERMINATED"));
    TRY(expect_kw(p, "BY"));
    TRY(parse_string(p, &rf->collection_terminated));
  }
  if (at_kw(p, "MAP")) {
    TRY(advance(p));
    TRY(expect_kw(p, "KEYS"));
    TRY(expect_kw(p, "TERMINATED"));
    TRY(expect_kw(p, "BY"));
    TRY(parse_string(p, &rf->map_keys_terminated));
  }
  if (at_kw(p, "LINES")) {
    TRY(advance(p));
    TRY(expect_kw(p, "TERMINATED"));
    TRY(expect_kw(p, "BY"));
    TRY(parse_string(p, &rf->lines_terminated));
  }
  if (at_kw(p, "NULL")) {
    TRY(advance(p));
    TRY(expect_kw(p, "DEFINED"));
    TRY(expect_kw(p, "AS"));
    TRY(parse_string(p, &rf->null_defined_as));
  }
  return HL_OK;
}

/* LOCATION 'p' when present. */
static hl_status_t parse_opt_location(parser_t *p, char **out) {
  if (!at_kw(p, "LOCATION")) return HL_OK;
  TRY(advance(p));
  return parse_string(p, out);
}

static hl_status_t parse_opt_tblprops(parser_t *p, hl_ast_kvlist_t *kv) {
  if (!at_kw(p, "TBLPROPERTIES")) return HL_OK;
  TRY(advance(p));
  return parse_kvlist(p, kv);
}

/* ========================================================= statements */

/* CREATE (DATABASE|SCHEMA) ...; current token is DATABASE/SCHEMA. */
static hl_status_t parse_create_database(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_CREATE_DATABASE;
  TRY(advance(p));
  TRY(parse_if_not_exists(p, &st->if_not_exists));
  TRY(parse_catalog_db(p, st));
  if (at_kw(p, "COMMENT")) {
    TRY(advance(p));
    TRY(parse_string(p, &st->comment));
  }
  TRY(parse_opt_location(p, &st->location));
  if (at_kw(p, "MANAGEDLOCATION")) return unsupported(p, p->tok.pos, "MANAGEDLOCATION");
  if (at_kw(p, "WITH")) {
    TRY(advance(p));
    TRY(expect_kw(p, "DBPROPERTIES"));
    TRY(parse_kvlist(p, &st->props));
    return HL_OK;
  }
  if (!at_kw(p, "PROPERTIES")) return HL_OK;
  /* Doris's form (its Hive catalog docs): PROPERTIES ('location'='...',
   * ...).  'location' is the LOCATION clause; every other property is a
   * database parameter, as WITH DBPROPERTIES, which is what Doris stores in
   * the metastore. */
  TRY(advance(p));
  TRY(parse_kvlist(p, &st->props));
  int kept = 0;
  for (int i = 0; i < st->props.n; i++) {
    hl_ast_kv_t *kv = &st->props.items[i];
    if (strcasecmp(kv->key, "location") != 0) {
      st->props.items[kept++] = *kv;
      continue;
    }
    if (st->location)
      return hl_err_set_at(p->err, kv->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "the location is given twice (LOCATION and PROPERTIES 'location')");
    st->location = kv->value;
  }
  st->props.n = kept;
  return HL_OK;
}

/* The rest of Doris's form of a Hive table (its Hive catalog docs):
 *   CREATE TABLE t [(cols)] ENGINE=hive [PARTITION BY LIST (p, ...) ()]
 *   [PROPERTIES ('file_format'='parquet', 'compression'='zstd', ...)]
 *   [AS query]
 * current token is ENGINE.  Partition columns named in the list move from
 * the column list (where they must come last) to part_cols; without a
 * column list they are recorded by name for CTAS. */
static hl_status_t parse_doris_table(parser_t *p, hl_ast_create_table_t *ct) {
  TRY(advance(p));
  TRY(expect(p, HL_TK_EQ, "\"=\""));
  long engine_pos = p->tok.pos;
  char *engine;
  TRY(parse_ident(p, &engine, NULL));
  if (strcmp(engine, "hive") != 0) return unsupported(p, engine_pos, "an ENGINE other than hive");
  if (at_kw(p, "PARTITION")) {
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(expect_kw(p, "LIST"));
    long list_pos = p->tok.pos;
    TRY(parse_ident_list(p, &ct->part_names, &ct->n_part_names));
    TRY(expect(p, HL_TK_LPAREN, "\"(\""));
    if (!at(p, HL_TK_RPAREN)) return unsupported(p, p->tok.pos, "partition definitions");
    TRY(advance(p));
    if (ct->n_cols > 0) {
      int n_keys = ct->n_part_names;
      if (n_keys >= ct->n_cols)
        return hl_err_set_at(p->err, list_pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                             "a table needs a column besides its partition columns");
      for (int k = 0; k < n_keys; k++) {
        const hl_ast_column_def_t *c = &ct->cols[ct->n_cols - n_keys + k];
        if (strcmp(c->name, ct->part_names[k]) != 0)
          return hl_err_set_at(p->err, list_pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                               "partition column \"%s\" must be column %d of the column list, "
                               "in PARTITION BY order at the end",
                               ct->part_names[k], ct->n_cols - n_keys + k + 1);
      }
      ct->part_cols = ct->cols + ct->n_cols - n_keys;
      ct->n_part_cols = n_keys;
      ct->n_cols -= n_keys;
      ct->part_names = NULL;
      ct->n_part_names = 0;
    }
  }
  if (at_kw(p, "PROPERTIES")) {
    hl_ast_kvlist_t props = {0};
    TRY(advance(p));
    TRY(parse_kvlist(p, &props));
    int cap = 0;
    for (int i = 0; i < props.n; i++) {
      hl_ast_kv_t *kv = &props.items[i];
      if (strcmp(kv->key, "file_format") == 0) {
        char *f = hl_arena_strdup(p->arena, kv->value);
        if (!f) return nomem(p);
        for (char *c = f; *c; c++)
          *c = (char)toupper((unsigned char)*c);
        if (strcmp(f, "TEXT") == 0) f = "TEXTFILE";
        ct->stored_as = f;
      } else if (strcmp(kv->key, "compression") == 0) {
        ct->compression = kv->value;
        ct->compression_pos = kv->pos;
      } else {
        PUSH(p, ct->tblprops.items, ct->tblprops.n, cap, *kv);
      }
    }
  }
  if (at_kw(p, "AS")) {
    TRY(advance(p));
    TRY(parse_query(p, &ct->as_select));
  }
  if (ct->n_part_names > 0 && !ct->as_select)
    return hl_err_set_at(p->err, p->tok.pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "PARTITION BY LIST without a column list needs AS SELECT");
  return HL_OK;
}

/* CREATE [TEMPORARY] [EXTERNAL] TABLE ...; current token is TABLE. */
/* CLUSTERED BY (cols) [SORTED BY (col [ASC|DESC], ...)] INTO n BUCKETS, from
 * CLUSTERED on (CREATE TABLE and ALTER TABLE). */
static hl_status_t parse_clustered(parser_t *p, char ***cols, long **cols_pos, int *n_cols,
                                   hl_ast_order_item_t **sorts, int *n_sorts, int *num_buckets) {
  TRY(advance(p));
  TRY(expect_kw(p, "BY"));
  TRY(parse_ident_list_pos(p, cols, cols_pos, n_cols));
  if (at_kw(p, "SORTED")) {
    int cap = 0;
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(expect(p, HL_TK_LPAREN, "\"(\""));
    for (;;) {
      hl_ast_order_item_t o = {0};
      if (!(o.expr = new_expr(p, HL_AST_COLUMN, p->tok.pos))) return nomem(p);
      TRY(parse_ident(p, &o.expr->name, NULL));
      if (at_kw(p, "ASC")) {
        TRY(advance(p));
      } else if (at_kw(p, "DESC")) {
        o.descending = true;
        TRY(advance(p));
      }
      PUSH(p, *sorts, *n_sorts, cap, o);
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
  }
  TRY(expect_kw(p, "INTO"));
  long npos = p->tok.pos;
  int64_t nb;
  TRY(parse_count(p, "BUCKETS", INT32_MAX, &nb));
  if (nb == 0)
    return hl_err_set_at(p->err, npos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "number of buckets must be positive");
  *num_buckets = (int)nb;
  TRY(expect_kw(p, "BUCKETS"));
  return HL_OK;
}

static hl_status_t parse_create_table(parser_t *p, hl_ast_stmt_t *st, hl_ast_create_table_t *ct) {
  st->kind = HL_STMT_CREATE_TABLE;
  st->create_table = ct;
  ct->num_buckets = -1;
  TRY(advance(p));
  TRY(parse_if_not_exists(p, &ct->if_not_exists));
  TRY(parse_qname(p, &ct->name));
  if (at_kw(p, "LIKE")) {
    hl_sql_token_t nx = peek(p, 2);
    TRY(advance(p));
    /* Impala: LIKE PARQUET 'file', then the clauses of a column list */
    if (at_kw(p, "PARQUET") && nx.kind == HL_TK_STRING) {
      TRY(advance(p));
      TRY(parse_string(p, &ct->like_parquet));
    } else {
      if (!(ct->like = zalloc(p, sizeof *ct->like))) return nomem(p);
      TRY(parse_qname(p, ct->like));
      TRY(parse_opt_location(p, &ct->location));
      return parse_opt_tblprops(p, &ct->tblprops);
    }
  } else if (at(p, HL_TK_LPAREN)) {
    TRY(parse_column_defs(p, &ct->cols, &ct->n_cols));
  }
  if (at_kw(p, "COMMENT")) {
    TRY(advance(p));
    TRY(parse_string(p, &ct->comment));
  }
  if (at_kw(p, "ENGINE")) return parse_doris_table(p, ct);
  if (at_kw(p, "PARTITIONED")) {
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_column_defs(p, &ct->part_cols, &ct->n_part_cols));
  }
  if (at_kw(p, "CLUSTERED"))
    TRY(parse_clustered(p, &ct->bucket_cols, &ct->bucket_cols_pos, &ct->n_bucket_cols,
                        &ct->sort_cols, &ct->n_sort_cols, &ct->num_buckets));
  if (at_kw(p, "SKEWED")) return unsupported(p, p->tok.pos, "SKEWED BY");
  if (at_kw(p, "ROW")) TRY(parse_row_format(p, &ct->row_format));
  if (at_kw(p, "STORED")) {
    TRY(advance(p));
    if (at_kw(p, "BY")) {
      TRY(advance(p));
      TRY(parse_string(p, &ct->stored_by));
      if (at_kw(p, "WITH")) {
        TRY(advance(p));
        TRY(expect_kw(p, "SERDEPROPERTIES"));
        TRY(parse_kvlist(p, &ct->stored_by_props));
      }
    } else {
      TRY(expect_kw(p, "AS"));
      if (at_kw(p, "INPUTFORMAT")) {
        TRY(advance(p));
        TRY(parse_string(p, &ct->input_format));
        TRY(expect_kw(p, "OUTPUTFORMAT"));
        TRY(parse_string(p, &ct->output_format));
      } else {
        TRY(parse_file_format(p, &ct->stored_as));
      }
    }
  }
  TRY(parse_opt_location(p, &ct->location));
  TRY(parse_opt_tblprops(p, &ct->tblprops));
  if (at_kw(p, "AS")) {
    TRY(advance(p));
    TRY(parse_query(p, &ct->as_select));
  }
  return HL_OK;
}

/* AS query of CREATE/ALTER VIEW: the query and its text as written. */
static hl_status_t parse_view_query(parser_t *p, hl_ast_create_view_t *cv) {
  TRY(expect_kw(p, "AS"));
  cv->query_pos = p->tok.pos;
  hl_ast_stmt_t *q;
  TRY(parse_query(p, &q));
  cv->query = q->select;
  size_t n = (size_t)(p->prev_end - cv->query_pos);
  if (!(cv->query_text = hl_arena_strndup(p->arena, p->src + cv->query_pos, n))) return nomem(p);
  return HL_OK;
}

/* CREATE VIEW [IF NOT EXISTS] v [(col [COMMENT 'c'], ...)] [COMMENT 'c']
 * [TBLPROPERTIES (...)] AS query; current token is VIEW. */
static hl_status_t parse_create_view(parser_t *p, hl_ast_stmt_t *st) {
  hl_ast_create_view_t *cv = zalloc(p, sizeof *cv);
  if (!cv) return nomem(p);
  st->kind = HL_STMT_CREATE_VIEW;
  st->create_view = cv;
  TRY(advance(p));
  TRY(parse_if_not_exists(p, &cv->if_not_exists));
  TRY(parse_qname(p, &cv->name));
  if (at(p, HL_TK_LPAREN)) {
    int cap = 0;
    TRY(advance(p));
    for (;;) {
      hl_ast_column_def_t c = {0};
      TRY(parse_ident(p, &c.name, &c.pos));
      if (at_kw(p, "COMMENT")) {
        TRY(advance(p));
        TRY(parse_string(p, &c.comment));
      }
      PUSH(p, cv->cols, cv->n_cols, cap, c);
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
  }
  if (at_kw(p, "COMMENT")) {
    TRY(advance(p));
    TRY(parse_string(p, &cv->comment));
  }
  if (at_kw(p, "PARTITIONED")) return unsupported(p, p->tok.pos, "a partitioned view");
  TRY(parse_opt_tblprops(p, &cv->tblprops));
  return parse_view_query(p, cv);
}

/* CREATE CATALOG [IF NOT EXISTS] name [COMMENT 'c'] [PROPERTIES (...)]
 * (Doris); the executor checks the properties.  Current token: CATALOG. */
static hl_status_t parse_create_catalog(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_CREATE_CATALOG;
  TRY(advance(p));
  TRY(parse_if_not_exists(p, &st->if_not_exists));
  TRY(parse_ident(p, &st->catalog_name, &st->catalog_pos));
  if (at_kw(p, "WITH")) return unsupported(p, p->tok.pos, "CREATE CATALOG ... WITH RESOURCE");
  if (at_kw(p, "COMMENT")) {
    TRY(advance(p));
    TRY(parse_string(p, &st->comment));
  }
  if (!at_kw(p, "PROPERTIES")) return HL_OK;
  TRY(advance(p));
  return parse_kvlist(p, &st->props);
}

static hl_status_t parse_create(parser_t *p, hl_ast_stmt_t *st) {
  static const char *const other[] = {"VIEW",     "MATERIALIZED",  "FUNCTION", "INDEX",
                                      "ROLE",     "MACRO",         "OR",       "SCHEDULED",
                                      "RESOURCE", "TRANSACTIONAL", "MANAGED",  "DATACONNECTOR",
                                      "REMOTE",   "CONNECTOR",     NULL};
  TRY(advance(p));
  if (at_kw(p, "DATABASE") || at_kw(p, "SCHEMA")) return parse_create_database(p, st);
  if (at_kw(p, "VIEW")) return parse_create_view(p, st);
  if (at_kw(p, "CATALOG")) return parse_create_catalog(p, st);
  hl_ast_create_table_t *ct = zalloc(p, sizeof *ct);
  if (!ct) return nomem(p);
  if (at_kw(p, "TEMPORARY")) {
    ct->temporary = true;
    TRY(advance(p));
    if (word_in(p, &p->tok, other)) return unsupported_word(p, st->pos, "CREATE TEMPORARY");
  }
  if (at_kw(p, "EXTERNAL")) {
    ct->external = true;
    TRY(advance(p));
  }
  if (at_kw(p, "TABLE")) return parse_create_table(p, st, ct);
  if (!ct->temporary && !ct->external && word_in(p, &p->tok, other))
    return unsupported_word(p, st->pos, "CREATE");
  return syntax_error(p);
}

/* The checkpoints of incremental scans (PROFILE ... INCREMENTAL), after
 * SHOW or DROP (the current token is CHECKPOINTS or CHECKPOINT; both are
 * plain words, not reserved):
 *   SHOW CHECKPOINTS [FOR [[c.]db.]t]
 *   DROP CHECKPOINT [IF EXISTS] 'name' [FOR [[c.]db.]t] */
static hl_status_t parse_checkpoint_stmt(parser_t *p, hl_ast_stmt_t *st) {
  bool show = at_kw(p, "CHECKPOINTS");
  st->kind = show ? HL_STMT_SHOW_CHECKPOINTS : HL_STMT_DROP_CHECKPOINT;
  TRY(advance(p));
  if (!show) {
    TRY(parse_if_exists(p, &st->if_exists));
    if (!at(p, HL_TK_STRING)) return expected(p, "a checkpoint name in quotes");
    st->checkpoint_pos = p->tok.pos;
    TRY(parse_string(p, &st->checkpoint_name));
  }
  if (!at_kw(p, "FOR")) return HL_OK;
  TRY(advance(p));
  return parse_qname(p, &st->table);
}

static hl_status_t parse_drop(parser_t *p, hl_ast_stmt_t *st) {
  static const char *const other[] = {"VIEW",     "MATERIALIZED",  "FUNCTION",  "INDEX",
                                      "ROLE",     "MACRO",         "TEMPORARY", "SCHEDULED",
                                      "RESOURCE", "DATACONNECTOR", "CONNECTOR", NULL};
  TRY(advance(p));
  if (at_kw(p, "DATABASE") || at_kw(p, "SCHEMA")) {
    st->kind = HL_STMT_DROP_DATABASE;
    TRY(advance(p));
    TRY(parse_if_exists(p, &st->if_exists));
    TRY(parse_catalog_db(p, st));
    if (at_kw(p, "CASCADE")) {
      st->cascade = true;
      TRY(advance(p));
    } else if (at_kw(p, "RESTRICT")) {
      TRY(advance(p));
    }
    return HL_OK;
  }
  if (at_kw(p, "CHECKPOINT")) return parse_checkpoint_stmt(p, st);
  if (at_kw(p, "CATALOG")) {
    st->kind = HL_STMT_DROP_CATALOG;
    TRY(advance(p));
    TRY(parse_if_exists(p, &st->if_exists));
    return parse_ident(p, &st->catalog_name, &st->catalog_pos);
  }
  if (at_kw(p, "VIEW")) {
    st->kind = HL_STMT_DROP_VIEW;
    TRY(advance(p));
    TRY(parse_if_exists(p, &st->if_exists));
    return parse_qname(p, &st->table);
  }
  if (at_kw(p, "TABLE")) {
    st->kind = HL_STMT_DROP_TABLE;
    TRY(advance(p));
    TRY(parse_if_exists(p, &st->if_exists));
    TRY(parse_qname(p, &st->table));
    if (at_kw(p, "PURGE")) {
      st->purge = true;
      TRY(advance(p));
    }
    return HL_OK;
  }
  if (word_in(p, &p->tok, other)) return unsupported_word(p, st->pos, "DROP");
  return syntax_error(p);
}

/* [CASCADE|RESTRICT] after column changes: CASCADE also changes every
 * partition's columns (cmd_table.c), RESTRICT is the default. */
static hl_status_t parse_cascade(parser_t *p, hl_ast_alter_table_t *a) {
  if (at_kw(p, "CASCADE")) a->cascade = true;
  if (at_kw(p, "CASCADE") || at_kw(p, "RESTRICT")) return advance(p);
  return HL_OK;
}

/* The ALTER TABLE [PARTITION (spec)] forms that change a storage
 * descriptor: ADD|REPLACE COLUMNS, CHANGE [COLUMN], SET SERDE,
 * SET SERDEPROPERTIES, SET FILEFORMAT, CLUSTERED BY.  *MATCHED is false
 * (nothing consumed) at any other word. */
static hl_status_t parse_alter_sd(parser_t *p, hl_ast_alter_table_t *a, bool *matched) {
  *matched = true;
  hl_sql_token_t nx = peek(p, 1);
  if (at_kw(p, "ADD") && tok_is_kw(p, &nx, "COLUMNS")) {
    a->kind = HL_ALTER_ADD_COLUMNS;
    TRY(advance(p));
    TRY(advance(p));
    TRY(parse_column_defs(p, &a->cols, &a->n_cols));
    return parse_cascade(p, a);
  }
  if (at_kw(p, "REPLACE")) {
    a->kind = HL_ALTER_REPLACE_COLUMNS;
    TRY(advance(p));
    TRY(expect_kw(p, "COLUMNS"));
    TRY(parse_column_defs(p, &a->cols, &a->n_cols));
    return parse_cascade(p, a);
  }
  if (at_kw(p, "CHANGE")) {
    a->kind = HL_ALTER_CHANGE_COLUMN;
    TRY(advance(p));
    if (at_kw(p, "COLUMN")) TRY(advance(p)); /* optional, and a keyword when present */
    TRY(parse_ident(p, &a->old_col, &a->old_col_pos));
    if (!(a->cols = zalloc(p, sizeof *a->cols))) return nomem(p);
    TRY(parse_column_def(p, &a->cols[0]));
    a->n_cols = 1;
    if (at_kw(p, "FIRST")) {
      a->first = true;
      TRY(advance(p));
    } else if (at_kw(p, "AFTER")) {
      TRY(advance(p));
      TRY(parse_ident(p, &a->after_col, &a->after_col_pos));
    }
    return parse_cascade(p, a);
  }
  if (at_kw(p, "CLUSTERED")) {
    a->kind = HL_ALTER_CLUSTERED_BY;
    return parse_clustered(p, &a->bucket_cols, &a->bucket_cols_pos, &a->n_bucket_cols,
                           &a->sort_cols, &a->n_sort_cols, &a->num_buckets);
  }
  if (at_kw(p, "SET")) {
    if (tok_is_kw(p, &nx, "SERDEPROPERTIES")) {
      a->kind = HL_ALTER_SET_SERDEPROPS;
      TRY(advance(p));
      TRY(advance(p));
      return parse_kvlist(p, &a->props);
    }
    if (tok_is_kw(p, &nx, "SERDE")) {
      a->kind = HL_ALTER_SET_SERDE;
      TRY(advance(p));
      TRY(advance(p));
      TRY(parse_string(p, &a->serde_class));
      if (at_kw(p, "WITH")) {
        TRY(advance(p));
        TRY(expect_kw(p, "SERDEPROPERTIES"));
        TRY(parse_kvlist(p, &a->props));
      }
      return HL_OK;
    }
    if (tok_is_kw(p, &nx, "FILEFORMAT")) {
      a->kind = HL_ALTER_SET_FILEFORMAT;
      TRY(advance(p));
      TRY(advance(p));
      return parse_file_format(p, &a->stored_as);
    }
  }
  *matched = false;
  return HL_OK;
}

/* ADD [IF NOT EXISTS] PARTITION (spec) [LOCATION 'p'] [PARTITION ...]... */
static hl_status_t parse_add_partitions(parser_t *p, hl_ast_alter_table_t *at_) {
  int cap = 0, cap_loc = 0, n_loc = 0;
  at_->kind = HL_ALTER_ADD_PARTITIONS;
  TRY(parse_if_not_exists(p, &at_->if_not_exists));
  if (!at_kw(p, "PARTITION")) return syntax_error(p);
  while (at_kw(p, "PARTITION")) {
    hl_ast_part_spec_t *spec;
    char *loc = NULL;
    TRY(advance(p));
    TRY(parse_part_spec(p, false, &spec));
    TRY(parse_opt_location(p, &loc));
    TRY(grow(p, (void **)&at_->part_specs, at_->n_part_specs, &cap, sizeof *at_->part_specs));
    at_->part_specs[at_->n_part_specs++] = *spec;
    PUSH(p, at_->part_locations, n_loc, cap_loc, loc);
  }
  return HL_OK;
}

static hl_status_t parse_drop_partitions(parser_t *p, hl_ast_alter_table_t *at_) {
  int cap = 0;
  at_->kind = HL_ALTER_DROP_PARTITIONS;
  TRY(parse_if_exists(p, &at_->if_exists));
  for (;;) {
    hl_ast_part_spec_t *spec;
    TRY(expect_kw(p, "PARTITION"));
    TRY(parse_part_spec(p, true, &spec));
    TRY(grow(p, (void **)&at_->part_specs, at_->n_part_specs, &cap, sizeof *at_->part_specs));
    at_->part_specs[at_->n_part_specs++] = *spec;
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  if (at_kw(p, "PURGE")) {
    at_->purge = true;
    TRY(advance(p));
  }
  return HL_OK;
}

/* ALTER TABLE t PARTITION (spec) (RENAME TO PARTITION (spec) | SET LOCATION 'p'
 * | a descriptor change of parse_alter_sd) */
static hl_status_t parse_alter_partition(parser_t *p, hl_ast_alter_table_t *at_) {
  long pos = p->tok.pos;
  if (!(at_->part_specs = zalloc(p, 2 * sizeof *at_->part_specs))) return nomem(p);
  hl_ast_part_spec_t *spec;
  TRY(advance(p));
  TRY(parse_part_spec(p, false, &spec));
  at_->part_specs[0] = *spec;
  at_->n_part_specs = 1;
  if (at_kw(p, "RENAME")) {
    at_->kind = HL_ALTER_RENAME_PARTITION;
    TRY(advance(p));
    TRY(expect_kw(p, "TO"));
    TRY(expect_kw(p, "PARTITION"));
    TRY(parse_part_spec(p, false, &spec));
    at_->part_specs[1] = *spec;
    at_->n_part_specs = 2;
    return HL_OK;
  }
  if (at_kw(p, "SET")) {
    hl_sql_token_t nx = peek(p, 1);
    if (tok_is_kw(p, &nx, "LOCATION")) {
      at_->kind = HL_ALTER_SET_LOCATION;
      TRY(advance(p));
      TRY(advance(p));
      return parse_string(p, &at_->location);
    }
  }
  bool matched;
  long apos = p->tok.pos;
  TRY(parse_alter_sd(p, at_, &matched));
  if (matched) {
    /* CASCADE spreads a table's column change to its partitions */
    if (at_->cascade) return unsupported(p, apos, "CASCADE with a PARTITION clause");
    return HL_OK;
  }
  static const char *const other[] = {"SET",         "ADD",     "REPLACE", "CHANGE",  "COMPACT",
                                      "CONCATENATE", "UPDATE",  "TOUCH",   "ARCHIVE", "UNARCHIVE",
                                      "ENABLE",      "DISABLE", NULL};
  if (word_in(p, &p->tok, other)) return unsupported(p, pos, "this ALTER TABLE ... PARTITION form");
  return syntax_error(p);
}

/* ALTER CATALOG name SET PROPERTIES (...) | RENAME new | MODIFY COMMENT 'c'
 * (Doris).  Current token: CATALOG. */
static hl_status_t parse_alter_catalog(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_ALTER_CATALOG;
  TRY(advance(p));
  TRY(parse_ident(p, &st->catalog_name, &st->catalog_pos));
  if (at_kw(p, "SET")) {
    st->alter_catalog = HL_ALTER_CATALOG_SET_PROPS;
    TRY(advance(p));
    TRY(expect_kw(p, "PROPERTIES"));
    return parse_kvlist(p, &st->props);
  }
  if (at_kw(p, "RENAME")) {
    st->alter_catalog = HL_ALTER_CATALOG_RENAME;
    TRY(advance(p));
    return parse_ident(p, &st->new_catalog_name, NULL);
  }
  if (at_kw(p, "MODIFY")) {
    st->alter_catalog = HL_ALTER_CATALOG_COMMENT;
    TRY(advance(p));
    TRY(expect_kw(p, "COMMENT"));
    return parse_string(p, &st->comment);
  }
  if (at_kw(p, "UNSET")) return unsupported(p, p->tok.pos, "ALTER CATALOG ... UNSET PROPERTIES");
  return syntax_error(p);
}

/* TBLPROPERTIES [IF EXISTS] ('key', ...) of ALTER TABLE|VIEW ... UNSET. */
static hl_status_t parse_unset_tblprops(parser_t *p, hl_ast_alter_table_t *a) {
  TRY(expect_kw(p, "TBLPROPERTIES"));
  TRY(parse_if_exists(p, &a->if_exists));
  int cap = 0;
  TRY(expect(p, HL_TK_LPAREN, "\"(\""));
  for (;;) {
    char *key;
    TRY(parse_string(p, &key));
    PUSH(p, a->keys, a->n_keys, cap, key);
    if (!at(p, HL_TK_COMMA)) break;
    TRY(advance(p));
  }
  return expect(p, HL_TK_RPAREN, "\")\"");
}

/* ALTER VIEW v RENAME TO w | SET TBLPROPERTIES (...) | UNSET TBLPROPERTIES
 * [IF EXISTS] (...), after the name (ALTER VIEW v AS query is a
 * CREATE VIEW with alter set). */
static hl_status_t parse_alter_view(parser_t *p, hl_ast_stmt_t *st, hl_ast_qname_t name) {
  hl_ast_alter_table_t *a = zalloc(p, sizeof *a);
  if (!a) return nomem(p);
  st->kind = HL_STMT_ALTER_VIEW;
  st->alter_table = a;
  a->name = name;
  if (at_kw(p, "RENAME")) {
    a->kind = HL_ALTER_RENAME;
    TRY(advance(p));
    TRY(expect_kw(p, "TO"));
    return parse_qname(p, &a->new_name);
  }
  if (at_kw(p, "SET")) {
    TRY(advance(p));
    if (at_kw(p, "TBLPROPERTIES")) {
      a->kind = HL_ALTER_SET_TBLPROPS;
      TRY(advance(p));
      return parse_kvlist(p, &a->props);
    }
    if (at_kw(p, "OWNER")) return unsupported_word(p, st->pos, "ALTER VIEW SET");
    return syntax_error(p);
  }
  if (at_kw(p, "UNSET")) {
    a->kind = HL_ALTER_UNSET_TBLPROPS;
    TRY(advance(p));
    return parse_unset_tblprops(p, a);
  }
  /* ADD / DROP PARTITION: Hive's partitioned views, which hivelite lacks */
  static const char *const other_view[] = {"ADD", "DROP", NULL};
  if (word_in(p, &p->tok, other_view)) return unsupported_word(p, st->pos, "ALTER VIEW");
  return syntax_error(p);
}

static hl_status_t parse_alter(parser_t *p, hl_ast_stmt_t *st) {
  TRY(advance(p));
  if (at_kw(p, "CATALOG")) return parse_alter_catalog(p, st);
  if (at_kw(p, "VIEW")) {
    hl_ast_qname_t name;
    TRY(advance(p));
    TRY(parse_qname(p, &name));
    if (!at_kw(p, "AS")) return parse_alter_view(p, st, name);
    hl_ast_create_view_t *cv = zalloc(p, sizeof *cv);
    if (!cv) return nomem(p);
    st->kind = HL_STMT_CREATE_VIEW;
    st->create_view = cv;
    cv->alter = true;
    cv->name = name;
    return parse_view_query(p, cv);
  }
  if (at_kw(p, "DATABASE") || at_kw(p, "SCHEMA")) {
    /* ALTER DATABASE db SET OWNER | DBPROPERTIES | LOCATION | MANAGEDLOCATION */
    const char *prefix = at_kw(p, "DATABASE") ? "ALTER DATABASE SET" : "ALTER SCHEMA SET";
    char *db;
    TRY(advance(p));
    TRY(parse_ident(p, &db, NULL));
    TRY(expect_kw(p, "SET"));
    if (p->tok.kind != HL_TK_WORD) return syntax_error(p);
    return unsupported_word(p, st->pos, prefix);
  }
  if (!at_kw(p, "TABLE")) {
    static const char *const other[] = {"VIEW", "INDEX",   "MATERIALIZED",  "SCHEDULED", "RESOURCE",
                                        "POOL", "MAPPING", "DATACONNECTOR", "CONNECTOR", NULL};
    if (word_in(p, &p->tok, other)) return unsupported_word(p, st->pos, "ALTER");
    return syntax_error(p);
  }
  hl_ast_alter_table_t *a = zalloc(p, sizeof *a);
  if (!a) return nomem(p);
  st->kind = HL_STMT_ALTER_TABLE;
  st->alter_table = a;
  TRY(advance(p));
  TRY(parse_qname(p, &a->name));
  long opos = p->tok.pos;
  bool matched;
  TRY(parse_alter_sd(p, a, &matched));
  if (matched) return HL_OK;
  if (at_kw(p, "TOUCH")) { /* TOUCH [PARTITION (spec)]... */
    int cap = 0;
    a->kind = HL_ALTER_TOUCH;
    TRY(advance(p));
    while (at_kw(p, "PARTITION")) {
      hl_ast_part_spec_t *spec;
      TRY(advance(p));
      TRY(parse_part_spec(p, false, &spec));
      TRY(grow(p, (void **)&a->part_specs, a->n_part_specs, &cap, sizeof *a->part_specs));
      a->part_specs[a->n_part_specs++] = *spec;
    }
    return HL_OK;
  }
  if (at_kw(p, "RENAME")) {
    a->kind = HL_ALTER_RENAME;
    TRY(advance(p));
    TRY(expect_kw(p, "TO"));
    return parse_qname(p, &a->new_name);
  }
  if (at_kw(p, "ADD")) {
    TRY(advance(p));
    if (at_kw(p, "CONSTRAINT")) return unsupported(p, opos, "ALTER TABLE ADD CONSTRAINT");
    return parse_add_partitions(p, a);
  }
  if (at_kw(p, "DROP")) {
    TRY(advance(p));
    if (at_kw(p, "CONSTRAINT") || at_kw(p, "BRANCH") || at_kw(p, "TAG"))
      return unsupported_word(p, opos, "ALTER TABLE DROP");
    return parse_drop_partitions(p, a);
  }
  if (at_kw(p, "PARTITION") && peek(p, 1).kind == HL_TK_LPAREN) return parse_alter_partition(p, a);
  if (at_kw(p, "PARTITION")) { /* PARTITION COLUMN (key new_type) */
    hl_sql_token_t nx = peek(p, 1);
    if (!tok_is_kw(p, &nx, "COLUMN")) return syntax_error(p);
    a->kind = HL_ALTER_PART_KEY_TYPE;
    TRY(advance(p));
    TRY(advance(p));
    TRY(expect(p, HL_TK_LPAREN, "\"(\""));
    if (!(a->cols = zalloc(p, sizeof *a->cols))) return nomem(p);
    TRY(parse_column_def(p, &a->cols[0]));
    a->n_cols = 1;
    return expect(p, HL_TK_RPAREN, "\")\"");
  }
  if (at_kw(p, "EXCHANGE")) { /* EXCHANGE PARTITION (spec) WITH TABLE source */
    hl_ast_part_spec_t *spec;
    a->kind = HL_ALTER_EXCHANGE_PARTITION;
    TRY(advance(p));
    TRY(expect_kw(p, "PARTITION"));
    TRY(parse_part_spec(p, false, &spec));
    a->part_specs = spec;
    a->n_part_specs = 1;
    TRY(expect_kw(p, "WITH"));
    TRY(expect_kw(p, "TABLE"));
    return parse_qname(p, &a->new_name);
  }
  if (at_kw(p, "SET")) {
    TRY(advance(p));
    if (at_kw(p, "TBLPROPERTIES")) {
      a->kind = HL_ALTER_SET_TBLPROPS;
      TRY(advance(p));
      return parse_kvlist(p, &a->props);
    }
    if (at_kw(p, "LOCATION")) {
      a->kind = HL_ALTER_SET_LOCATION;
      TRY(advance(p));
      return parse_string(p, &a->location);
    }
    if (at_kw(p, "DEFAULT")) { /* SET DEFAULT PARTITION TO 'name' */
      a->kind = HL_ALTER_SET_DEFAULT_PART;
      TRY(advance(p));
      TRY(expect_kw(p, "PARTITION"));
      TRY(expect_kw(p, "TO"));
      return parse_string(p, &a->default_part);
    }
    static const char *const other_set[] = {"OWNER", "SKEWED", "PARTITION", NULL};
    if (word_in(p, &p->tok, other_set)) return unsupported_word(p, opos, "ALTER TABLE SET");
    return syntax_error(p);
  }
  if (at_kw(p, "UNSET")) {
    a->kind = HL_ALTER_UNSET_TBLPROPS;
    TRY(advance(p));
    if (at_kw(p, "SERDEPROPERTIES")) return unsupported_word(p, opos, "ALTER TABLE UNSET");
    return parse_unset_tblprops(p, a);
  }
  static const char *const other[] = {"ARCHIVE", "UNARCHIVE", "NOT",         "SKEWED",  "EXCHANGE",
                                      "RECOVER", "COMPACT",   "CONCATENATE", "UPDATE",  "ENABLE",
                                      "DISABLE", "INTO",      "SORTED",      "EXECUTE", "CONVERT",
                                      "CREATE",  NULL};
  if (word_in(p, &p->tok, other)) return unsupported_word(p, opos, "ALTER TABLE");
  return syntax_error(p);
}

/* A SHOW pattern: [LIKE] 'pat' or an identifier (Hive's showStmtIdentifier). */
static hl_status_t parse_show_pattern(parser_t *p, char **out, bool like_optional) {
  bool like = false;
  if (at_kw(p, "LIKE")) {
    like = true;
    TRY(advance(p));
  }
  if (at(p, HL_TK_STRING)) return parse_string(p, out);
  if ((like || like_optional) && tok_is_ident(&p->tok)) return parse_ident(p, out, NULL);
  if (like) return syntax_error(p);
  return HL_OK;
}

/* SHOW PARTITIONS t [PARTITION (...)] [WHERE expr] [ORDER BY ...] [LIMIT n]:
 * the tail is kept in a select node holding only those clauses. */
static hl_status_t parse_show_partitions_tail(parser_t *p, hl_ast_stmt_t *st) {
  if (!at_kw(p, "WHERE") && !at_kw(p, "ORDER") && !at_kw(p, "LIMIT")) return HL_OK;
  hl_ast_select_t *s = zalloc(p, sizeof *s);
  if (!s) return nomem(p);
  s->pos = p->tok.pos;
  if (at_kw(p, "WHERE")) {
    TRY(advance(p));
    TRY(parse_expr(p, &s->where));
  }
  if (at_kw(p, "ORDER")) {
    TRY(advance(p));
    TRY(expect_kw(p, "BY"));
    TRY(parse_order_by(p, s));
  }
  if (at_kw(p, "LIMIT")) {
    TRY(advance(p));
    TRY(parse_count(p, "LIMIT", INT64_MAX, &s->limit));
    s->has_limit = true;
  }
  st->show_filter = s;
  return HL_OK;
}

static hl_status_t parse_show(parser_t *p, hl_ast_stmt_t *st) {
  TRY(advance(p));
  if (at_kw(p, "DATABASES") || at_kw(p, "SCHEMAS")) {
    st->kind = HL_STMT_SHOW_DATABASES;
    TRY(advance(p));
    if (at_kw(p, "IN") || at_kw(p, "FROM")) { /* Doris: SHOW DATABASES FROM catalog */
      TRY(advance(p));
      TRY(parse_ident(p, &st->catalog_name, &st->catalog_pos));
    }
    return parse_show_pattern(p, &st->like_pattern, false);
  }
  if (at_kw(p, "CHECKPOINTS")) return parse_checkpoint_stmt(p, st);
  if (at_kw(p, "CATALOGS")) {
    st->kind = HL_STMT_SHOW_CATALOGS;
    TRY(advance(p));
    return parse_show_pattern(p, &st->like_pattern, false);
  }
  if (at_kw(p, "TABLES")) {
    st->kind = HL_STMT_SHOW_TABLES;
    TRY(advance(p));
    if (at_kw(p, "IN") || at_kw(p, "FROM")) {
      TRY(advance(p));
      TRY(parse_catalog_db(p, st));
    }
    return parse_show_pattern(p, &st->like_pattern, true);
  }
  hl_sql_token_t nx_sorted = peek(p, 1);
  if (at_kw(p, "SORTED") && tok_is_kw(p, &nx_sorted, "COLUMNS")) {
    st->show_sorted = true;
    TRY(advance(p));
  }
  if (at_kw(p, "COLUMNS")) {
    st->kind = HL_STMT_SHOW_COLUMNS;
    TRY(advance(p));
    if (!at_kw(p, "IN") && !at_kw(p, "FROM")) return syntax_error(p);
    TRY(advance(p));
    TRY(parse_qname(p, &st->table));
    if (at_kw(p, "IN") || at_kw(p, "FROM")) {
      char *db;
      long dpos;
      TRY(advance(p));
      TRY(parse_ident(p, &db, &dpos));
      if (st->table.db && strcmp(st->table.db, db) != 0)
        return hl_err_set_at(p->err, dpos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "table name \"%s.%s\" conflicts with database \"%s\"", st->table.db,
                             st->table.name, db);
      st->table.db = db;
    }
    return parse_show_pattern(p, &st->like_pattern, false);
  }
  if (at_kw(p, "TBLPROPERTIES")) {
    st->kind = HL_STMT_SHOW_TBLPROPERTIES;
    TRY(advance(p));
    TRY(parse_qname(p, &st->table));
    if (at(p, HL_TK_LPAREN)) {
      TRY(advance(p));
      TRY(parse_string(p, &st->prop_key));
      TRY(expect(p, HL_TK_RPAREN, "\")\""));
    }
    return HL_OK;
  }
  if (at_kw(p, "CREATE")) {
    hl_sql_token_t nx = peek(p, 1);
    if (tok_is_kw(p, &nx, "DATABASE") || tok_is_kw(p, &nx, "SCHEMA")) {
      st->kind = HL_STMT_SHOW_CREATE_DATABASE;
      TRY(advance(p));
      TRY(advance(p));
      return parse_catalog_db(p, st);
    }
    if (tok_is_kw(p, &nx, "CATALOG")) {
      st->kind = HL_STMT_SHOW_CREATE_CATALOG;
      TRY(advance(p));
      TRY(advance(p));
      return parse_ident(p, &st->catalog_name, &st->catalog_pos);
    }
    if (!tok_is_kw(p, &nx, "TABLE")) {
      TRY(advance(p));
      return syntax_error(p);
    }
    st->kind = HL_STMT_SHOW_CREATE_TABLE;
    TRY(advance(p));
    TRY(advance(p));
    return parse_qname(p, &st->table);
  }
  hl_sql_token_t after = peek(p, 1);
  if (at_kw(p, "TABLE") && tok_is_kw(p, &after, "EXTENDED")) {
    st->kind = HL_STMT_SHOW_TABLE_EXTENDED;
    TRY(advance(p));
    TRY(advance(p));
    if (at_kw(p, "IN") || at_kw(p, "FROM")) {
      TRY(advance(p));
      TRY(parse_catalog_db(p, st));
    }
    if (!at_kw(p, "LIKE")) return expected(p, "\"LIKE\"");
    TRY(parse_show_pattern(p, &st->like_pattern, false));
    return parse_opt_partition(p, &st->part_spec);
  }
  if (at_kw(p, "FUNCTIONS")) {
    st->kind = HL_STMT_SHOW_FUNCTIONS;
    TRY(advance(p));
    return parse_show_pattern(p, &st->like_pattern, true);
  }
  if (at_kw(p, "PARTITIONS")) {
    st->kind = HL_STMT_SHOW_PARTITIONS;
    TRY(advance(p));
    TRY(parse_qname(p, &st->table));
    TRY(parse_opt_partition(p, &st->part_spec));
    return parse_show_partitions_tail(p, st);
  }
  static const char *const other[] = {
      "VIEWS",     "MATERIALIZED",   "GRANT",    "ROLES",        "ROLE",
      "CURRENT",   "PRINCIPALS",     "LOCKS",    "TRANSACTIONS", "COMPACTIONS",
      "CONF",      "INDEX",          "INDEXES",  "TABLE",        "EXTENDED",
      "FORMATTED", "DATACONNECTORS", "RESOURCE", "SCHEDULED",    "CONNECTORS",
      NULL};
  if (word_in(p, &p->tok, other)) return unsupported_word(p, st->pos, "SHOW");
  return syntax_error(p);
}

static bool ends_statement(const hl_sql_token_t *t) {
  return t->kind == HL_TK_EOF || t->kind == HL_TK_SEMI;
}

/* DESCRIBE FUNCTION [EXTENDED] name: the name is an identifier, a string
 * or an operator (+, <=>, ...), kept as written (without quotes). */
static hl_status_t parse_describe_function(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_DESCRIBE_FUNCTION;
  TRY(advance(p));
  hl_sql_token_t nx = peek(p, 1);
  if (at_kw(p, "EXTENDED") && !ends_statement(&nx)) {
    st->describe_mode = 1;
    TRY(advance(p));
  }
  if (at(p, HL_TK_STRING)) return parse_string(p, &st->like_pattern);
  if (tok_is_ident(&p->tok)) return parse_ident(p, &st->like_pattern, NULL);
  long start = p->tok.pos, end = start;
  while (!ends_statement(&p->tok)) {
    end = p->tok.pos + (long)p->tok.len;
    TRY(advance(p));
  }
  if (!(st->like_pattern = hl_arena_strndup(p->arena, p->src + start, (size_t)(end - start))))
    return nomem(p);
  return HL_OK;
}

static hl_status_t parse_describe(parser_t *p, hl_ast_stmt_t *st) {
  TRY(advance(p));
  hl_sql_token_t nx = peek(p, 1);
  if ((at_kw(p, "DATABASE") || at_kw(p, "SCHEMA")) && tok_is_ident(&nx)) {
    st->kind = HL_STMT_DESCRIBE_DATABASE;
    TRY(advance(p));
    hl_sql_token_t nx2 = peek(p, 1);
    if (at_kw(p, "EXTENDED") && tok_is_ident(&nx2)) {
      st->describe_mode = 1;
      TRY(advance(p));
    }
    return parse_catalog_db(p, st);
  }
  if (at_kw(p, "FUNCTION") && !ends_statement(&nx) && nx.kind != HL_TK_DOT)
    return parse_describe_function(p, st);
  st->kind = HL_STMT_DESCRIBE;
  /* EXTENDED/FORMATTED unless it is itself the table name */
  if ((at_kw(p, "EXTENDED") || at_kw(p, "FORMATTED")) && !ends_statement(&nx) &&
      nx.kind != HL_TK_DOT) {
    st->describe_mode = at_kw(p, "EXTENDED") ? 1 : 2;
    TRY(advance(p));
  }
  TRY(parse_qname(p, &st->table));
  TRY(parse_opt_partition(p, &st->part_spec));
  if (tok_is_ident(&p->tok)) TRY(parse_ident(p, &st->describe_column, NULL));
  return HL_OK;
}

static hl_status_t parse_msck(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_MSCK;
  TRY(advance(p));
  if (at_kw(p, "REPAIR")) {
    st->msck_repair = true;
    TRY(advance(p));
  }
  TRY(expect_kw(p, "TABLE"));
  TRY(parse_qname(p, &st->table));
  if (at_kw(p, "ADD") || at_kw(p, "DROP") || at_kw(p, "SYNC")) {
    st->msck_mode = at_kw(p, "ADD") ? 0 : at_kw(p, "DROP") ? 1 : 2;
    TRY(advance(p));
    TRY(expect_kw(p, "PARTITIONS"));
  }
  return HL_OK;
}

static hl_status_t parse_load(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_LOAD_DATA;
  TRY(advance(p));
  TRY(expect_kw(p, "DATA"));
  if (at_kw(p, "LOCAL")) {
    st->load_local = true;
    TRY(advance(p));
  }
  TRY(expect_kw(p, "INPATH"));
  TRY(parse_string(p, &st->load_path));
  if (at_kw(p, "OVERWRITE")) {
    st->load_overwrite = true;
    TRY(advance(p));
  }
  TRY(expect_kw(p, "INTO"));
  TRY(expect_kw(p, "TABLE"));
  TRY(parse_qname(p, &st->table));
  TRY(parse_opt_partition(p, &st->part_spec));
  if (at_kw(p, "INPUTFORMAT")) return unsupported(p, p->tok.pos, "LOAD DATA ... INPUTFORMAT");
  return HL_OK;
}

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Trimmed copy of S[0..n) in the arena; NULL on OOM. */
static char *trimmed(parser_t *p, const char *s, size_t n) {
  while (n > 0 && is_blank(*s))
    s++, n--;
  while (n > 0 && is_blank(s[n - 1]))
    n--;
  return hl_arena_strndup(p->arena, s, n);
}

/* SET [key[=value]] and RESET [key] read raw text, as Hive's CLI does:
 * the key is everything before the first '=', the value everything after
 * it up to ';' (quotes kept; ';' inside quotes and -- comments skipped). */
static hl_status_t parse_set(parser_t *p, hl_ast_stmt_t *st, bool reset) {
  const char *s = p->src;
  size_t n = p->len;
  size_t i = (size_t)p->tok.pos + p->tok.len;
  size_t content_end = i;
  char *buf = hl_arena_alloc(p->arena, n - i + 1);
  if (!buf) return nomem(p);
  size_t k = 0;
  long eq_buf = -1, eq_src = -1;
  while (i < n && s[i] != ';') {
    char c = s[i];
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < n && s[j] != c)
        j += s[j] == '\\' ? 2 : 1;
      if (j >= n)
        return hl_err_set_at(p->err, (long)i, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "unterminated quoted string");
      memcpy(buf + k, s + i, j + 1 - i);
      k += j + 1 - i;
      i = j + 1;
      content_end = i;
      continue;
    }
    if (c == '-' && i + 1 < n && s[i + 1] == '-') {
      while (i < n && s[i] != '\n')
        i++;
      continue;
    }
    if (c == '=' && eq_buf < 0 && !reset) {
      eq_buf = (long)k;
      eq_src = (long)i;
    }
    buf[k++] = c;
    if (!is_blank(c)) content_end = i + 1;
    i++;
  }
  st->kind = reset ? HL_STMT_RESET : HL_STMT_SET;
  size_t key_len = eq_buf >= 0 ? (size_t)eq_buf : k;
  if (!(st->set_key = trimmed(p, buf, key_len))) return nomem(p);
  if (eq_buf >= 0) {
    if (!st->set_key[0])
      return hl_err_set_at(p->err, eq_src, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "syntax error at or near \"=\"");
    if (!(st->set_value = trimmed(p, buf + eq_buf + 1, k - (size_t)eq_buf - 1))) return nomem(p);
  } else if (!st->set_key[0]) {
    st->set_key = NULL;
  }
  st->end_pos = (long)content_end;
  p->lx.off = i;
  p->prev_end = (long)content_end;
  return hl_sql_lex(&p->lx, &p->tok, p->err);
}

static hl_status_t parse_statement(parser_t *p, hl_ast_stmt_t **out);

static hl_status_t parse_explain(parser_t *p, hl_ast_stmt_t *st) {
  static const char *const options[] = {
      "EXTENDED",       "FORMATTED", "DEPENDENCY", "AUTHORIZATION", "LOGICAL", "CBO",
      "VECTORIZATION",  "ANALYZE",   "AST",        "DEBUG",         "DDL",     "LOCKS",
      "REOPTIMIZATION", NULL};
  st->kind = HL_STMT_EXPLAIN;
  TRY(advance(p));
  if (at_kw(p, "ANALYZE") && !ends_statement(&p->tok)) {
    st->explain_analyze = true;
    TRY(advance(p));
  }
  if (word_in(p, &p->tok, options) && !ends_statement(&p->tok))
    return unsupported_word(p, st->pos, "EXPLAIN");
  TRY(enter(p));
  TRY(parse_statement(p, &st->inner));
  p->depth--;
  if (st->inner->kind != HL_STMT_SELECT)
    return hl_err_set_at(p->err, st->inner->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "EXPLAIN is supported only for SELECT");
  st->select = st->inner->select;
  return HL_OK;
}

/* ----------------------------------------------------- writes: INSERT */

/* VALUES (e, ...), (e, ...); current token is VALUES.  Every row must have
 * as many values as the first. */
static hl_status_t parse_values_rows(parser_t *p, hl_ast_insert_t *ins) {
  int cap = 0, n = 0;
  TRY(advance(p));
  for (;;) {
    long row_pos = p->tok.pos;
    TRY(expect(p, HL_TK_LPAREN, "\"(\""));
    int width = 0;
    for (;;) {
      hl_ast_expr_t *e;
      TRY(parse_expr(p, &e));
      PUSH(p, ins->values, n, cap, e);
      width++;
      if (!at(p, HL_TK_COMMA)) break;
      TRY(advance(p));
    }
    TRY(expect(p, HL_TK_RPAREN, "\")\""));
    if (ins->n_rows == 0) ins->n_values_cols = width;
    if (width != ins->n_values_cols)
      return hl_err_set_at(p->err, row_pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "VALUES row %d has %d values, the first row has %d", ins->n_rows + 1,
                           width, ins->n_values_cols);
    ins->n_rows++;
    if (!at(p, HL_TK_COMMA)) return HL_OK;
    TRY(advance(p));
  }
}

/* INSERT INTO [TABLE] t [PARTITION (spec)] [(cols)] | INSERT OVERWRITE
 * TABLE t [PARTITION (spec) [IF NOT EXISTS]] [(cols)]: the head of one
 * insert, up to its rows; current token is INSERT. */
static hl_status_t parse_insert_head(parser_t *p, hl_ast_insert_t *ins) {
  ins->pos = p->tok.pos;
  TRY(advance(p));
  if (at_kw(p, "OVERWRITE")) {
    ins->overwrite = true;
    TRY(advance(p));
    if (at_kw(p, "LOCAL") || at_kw(p, "DIRECTORY"))
      return unsupported(p, p->tok.pos, "INSERT OVERWRITE DIRECTORY");
    TRY(expect_kw(p, "TABLE"));
  } else {
    TRY(expect_kw(p, "INTO"));
    if (at_kw(p, "TABLE")) TRY(advance(p));
  }
  TRY(parse_qname(p, &ins->table));
  if (at_kw(p, "PARTITION") && peek(p, 1).kind == HL_TK_LPAREN) {
    TRY(advance(p));
    TRY(parse_part_spec(p, false, &ins->part_spec));
    if (ins->overwrite && at_kw(p, "IF")) TRY(parse_if_not_exists(p, &ins->if_not_exists));
  }
  if (at(p, HL_TK_LPAREN) && !at_query_paren(p))
    TRY(parse_ident_list_pos(p, &ins->columns, &ins->columns_pos, &ins->n_columns));
  return HL_OK;
}

/* INSERT ... (SELECT ... | VALUES ...) */
static hl_status_t parse_insert_stmt(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_INSERT;
  hl_ast_insert_t *ins = zalloc(p, sizeof *ins);
  if (!ins) return nomem(p);
  st->inserts = ins;
  st->n_inserts = 1;
  TRY(parse_insert_head(p, ins));
  if (at_kw(p, "VALUES")) return parse_values_rows(p, ins);
  if (!at_kw(p, "SELECT") && !at_kw(p, "WITH") && !at(p, HL_TK_LPAREN)) return syntax_error(p);
  return parse_query_expr(p, &ins->query);
}

/* FROM src INSERT ... SELECT ... [INSERT ... SELECT ...]... (one
 * transaction), or FROM src SELECT ...: each SELECT reads FROM's source. */
static hl_status_t parse_from_first(parser_t *p, hl_ast_stmt_t *st) {
  TRY(advance(p));
  hl_ast_from_t *from;
  TRY(parse_from(p, &from));
  int cap = 0;
  for (;;) {
    hl_ast_insert_t ins = {0};
    bool is_insert = at_kw(p, "INSERT");
    if (is_insert) TRY(parse_insert_head(p, &ins));
    if (!at_kw(p, "SELECT")) return syntax_error(p);
    hl_ast_select_t *sel;
    TRY(parse_select(p, &sel));
    if (sel->from_item)
      return hl_err_set_at(p->err, sel->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "a SELECT after FROM ... must not have its own FROM clause");
    TRY(parse_order_limit(p, sel));
    sel->from_item = from;
    if (from->kind == HL_FROM_TABLE) {
      if (!(sel->from = zalloc(p, sizeof *sel->from))) return nomem(p);
      sel->from->table = from->table;
      sel->from->alias = from->alias;
      sel->from->pos = from->pos;
    }
    if (!is_insert) {
      if (st->n_inserts > 0) return syntax_error(p);
      st->kind = HL_STMT_SELECT;
      st->select = sel;
      return HL_OK;
    }
    ins.query = sel;
    PUSH(p, st->inserts, st->n_inserts, cap, ins);
    st->kind = HL_STMT_INSERT;
    if (!at_kw(p, "INSERT")) return HL_OK;
  }
}

/* TRUNCATE [TABLE] t [PARTITION (spec)] */
static hl_status_t parse_truncate(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_TRUNCATE;
  TRY(advance(p));
  if (at_kw(p, "TABLE")) TRY(advance(p));
  TRY(parse_qname(p, &st->table));
  TRY(parse_opt_partition(p, &st->part_spec));
  if (at_kw(p, "COLUMNS")) return unsupported(p, p->tok.pos, "TRUNCATE ... COLUMNS");
  return HL_OK;
}

/* ANALYZE TABLE t [PARTITION (spec)] COMPUTE STATISTICS
 *   [NOSCAN | FOR COLUMNS [c, ...] | FOR COLUMNS (c, ...)] */
static hl_status_t parse_analyze(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_ANALYZE;
  TRY(advance(p));
  TRY(expect_kw(p, "TABLE"));
  TRY(parse_qname(p, &st->table));
  TRY(parse_opt_partition(p, &st->part_spec));
  TRY(expect_kw(p, "COMPUTE"));
  TRY(expect_kw(p, "STATISTICS"));
  if (at_kw(p, "NOSCAN")) {
    st->analyze_noscan = true;
    return advance(p);
  }
  if (at_kw(p, "PARTIALSCAN") || at_kw(p, "CACHE"))
    return unsupported(p, p->tok.pos, "ANALYZE ... PARTIALSCAN or CACHE METADATA");
  if (!at_kw(p, "FOR")) return HL_OK;
  TRY(advance(p));
  TRY(expect_kw(p, "COLUMNS"));
  st->analyze_for_columns = true;
  if (at(p, HL_TK_LPAREN))
    return parse_ident_list_pos(p, &st->analyze_cols, &st->analyze_cols_pos, &st->n_analyze_cols);
  if (!tok_is_ident(&p->tok)) return HL_OK;
  int cap = 0, pcap = 0, pn = 0;
  for (;;) {
    char *name = NULL;
    long pos = p->tok.pos;
    TRY(parse_ident(p, &name, NULL));
    PUSH(p, st->analyze_cols, st->n_analyze_cols, cap, name);
    PUSH(p, st->analyze_cols_pos, pn, pcap, pos);
    if (!at(p, HL_TK_COMMA)) return HL_OK;
    TRY(advance(p));
  }
}

/* PROFILE TABLE t [PARTITION (spec)] [WHERE expr] [LIMIT n]
 *   [FULL | INCREMENTAL [AS 'name'] [WITH LATE]]  (hivelite's own statement) */
static hl_status_t parse_profile(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_PROFILE;
  TRY(advance(p));
  TRY(expect_kw(p, "TABLE"));
  TRY(parse_qname(p, &st->table));
  TRY(parse_opt_partition(p, &st->part_spec));
  if (at_kw(p, "WHERE")) {
    TRY(advance(p));
    TRY(parse_expr(p, &st->profile_where));
  }
  if (at_kw(p, "LIMIT")) {
    TRY(advance(p));
    TRY(parse_count(p, "LIMIT", INT64_MAX, &st->profile_limit));
    st->profile_has_limit = true;
  }
  if (at_kw(p, "FULL")) return advance(p);
  if (!at_kw(p, "INCREMENTAL")) return HL_OK;
  TRY(advance(p));
  st->profile_incremental = true;
  if (at_kw(p, "AS")) {
    TRY(advance(p));
    st->profile_checkpoint_pos = p->tok.pos;
    TRY(parse_string(p, &st->profile_checkpoint));
  }
  if (at_kw(p, "WITH")) {
    TRY(advance(p));
    TRY(expect_kw(p, "LATE"));
    st->profile_with_late = true;
  }
  return HL_OK;
}

/* Statements that are valid HiveQL but not implemented. */
static const char *const unsupported_statements[] = {
    "UPDATE",  "DELETE",      "MERGE", "GRANT",  "REVOKE", "ANALYZE", "EXPORT",
    "IMPORT",  "ABORT",       "KILL",  "LOCK",   "UNLOCK", "COMMIT",  "ROLLBACK",
    "START",   "RELOAD",      "REPL",  "VALUES", "MAP",    "REDUCE",  "PREPARE",
    "EXECUTE", "REPLICATION", "DFS",   "ADD",    "LIST",   "SOURCE",  NULL};

/* SET ROLE name and SET AUTOCOMMIT bool are statements of Hive's grammar
 * (its CLI hands them to the driver, not to the variable setter); SET
 * role=x stays a variable.  Current token is SET. */
static bool is_set_statement(parser_t *p) {
  hl_sql_token_t k = peek(p, 1), v = peek(p, 2);
  if (k.kind != HL_TK_WORD || v.kind != HL_TK_WORD) return false;
  return tok_is_kw(p, &k, "ROLE") || tok_is_kw(p, &k, "AUTOCOMMIT");
}

/* REFRESH CATALOG c | DATABASE [c.]db | TABLE [[c.]db.]t (Doris). */
static hl_status_t parse_refresh(parser_t *p, hl_ast_stmt_t *st) {
  st->kind = HL_STMT_REFRESH;
  TRY(advance(p));
  if (at_kw(p, "CATALOG")) {
    st->refresh_what = HL_REFRESH_CATALOG;
    TRY(advance(p));
    TRY(parse_ident(p, &st->catalog_name, &st->catalog_pos));
  } else if (at_kw(p, "DATABASE") || at_kw(p, "SCHEMA")) {
    st->refresh_what = HL_REFRESH_DATABASE;
    TRY(advance(p));
    TRY(parse_catalog_db(p, st));
  } else if (at_kw(p, "TABLE")) {
    st->refresh_what = HL_REFRESH_TABLE;
    TRY(advance(p));
    TRY(parse_qname(p, &st->table));
  } else if (at_kw(p, "MATERIALIZED") || at_kw(p, "LDAP") || at_kw(p, "DICTIONARY")) {
    return unsupported_word(p, st->pos, "REFRESH");
  } else {
    return syntax_error(p);
  }
  if (at_kw(p, "PROPERTIES")) return unsupported(p, p->tok.pos, "REFRESH ... PROPERTIES");
  return HL_OK;
}

static hl_status_t parse_statement(parser_t *p, hl_ast_stmt_t **out) {
  long pos = p->tok.pos;
  hl_ast_stmt_t *st = new_stmt(p, HL_STMT_SELECT, pos);
  if (!st) return nomem(p);
  *out = st;
  hl_status_t rc;
  if (at_kw(p, "SELECT") || at_kw(p, "WITH") || at(p, HL_TK_LPAREN))
    rc = parse_query_expr(p, &st->select);
  else if (at_kw(p, "EXPLAIN"))
    rc = parse_explain(p, st);
  else if (at_kw(p, "CREATE"))
    rc = parse_create(p, st);
  else if (at_kw(p, "DROP"))
    rc = parse_drop(p, st);
  else if (at_kw(p, "ALTER"))
    rc = parse_alter(p, st);
  else if (at_kw(p, "SHOW"))
    rc = parse_show(p, st);
  else if (at_kw(p, "DESCRIBE") || at_kw(p, "DESC"))
    rc = parse_describe(p, st);
  else if (at_kw(p, "MSCK"))
    rc = parse_msck(p, st);
  else if (at_kw(p, "LOAD"))
    rc = parse_load(p, st);
  else if (at_kw(p, "INSERT"))
    rc = parse_insert_stmt(p, st);
  else if (at_kw(p, "FROM"))
    rc = parse_from_first(p, st);
  else if (at_kw(p, "TRUNCATE"))
    rc = parse_truncate(p, st);
  else if (at_kw(p, "ANALYZE"))
    rc = parse_analyze(p, st);
  else if (at_kw(p, "PROFILE"))
    rc = parse_profile(p, st);
  else if (at_kw(p, "SET") && is_set_statement(p))
    return unsupported_word(p, pos, NULL);
  else if (at_kw(p, "SET"))
    return parse_set(p, st, false);
  else if (at_kw(p, "RESET"))
    return parse_set(p, st, true);
  else if (at_kw(p, "USE")) {
    st->kind = HL_STMT_USE;
    rc = advance(p);
    if (rc == HL_OK) rc = parse_catalog_db(p, st);
  } else if (at_kw(p, "SWITCH")) {
    st->kind = HL_STMT_SWITCH;
    rc = advance(p);
    if (rc == HL_OK) rc = parse_ident(p, &st->catalog_name, &st->catalog_pos);
  } else if (at_kw(p, "REFRESH")) {
    rc = parse_refresh(p, st);
  } else if (word_in(p, &p->tok, unsupported_statements)) {
    return unsupported_word(p, pos, NULL);
  } else {
    return syntax_error(p);
  }
  if (rc != HL_OK) return rc;
  st->end_pos = p->prev_end;
  return HL_OK;
}

/* ======================================================= entry points */

hl_status_t hl_sql_parse(hl_arena_t *arena, const char *sql, size_t len, hl_ast_stmt_t **out,
                         size_t *consumed, hl_error_t *err) {
  return hl_sql_parse_strings(arena, sql, len, HL_SQL_STRINGS_HIVE, out, consumed, err);
}

hl_status_t hl_sql_parse_strings(hl_arena_t *arena, const char *sql, size_t len,
                                 hl_sql_strings_t strings, hl_ast_stmt_t **out, size_t *consumed,
                                 hl_error_t *err) {
  parser_t p;
  memset(&p, 0, sizeof p);
  p.arena = arena;
  p.src = sql;
  p.len = len;
  p.err = err;
  hl_sql_lexer_init(&p.lx, sql, len);
  p.lx.standard = strings == HL_SQL_STRINGS_STANDARD;
  *out = NULL;
  *consumed = 0;

  hl_status_t rc = hl_sql_lex(&p.lx, &p.tok, err);
  while (rc == HL_OK && at(&p, HL_TK_SEMI))
    rc = advance(&p); /* empty statements */
  if (rc == HL_OK && at(&p, HL_TK_EOF)) {
    *consumed = len;
    return HL_OK;
  }
  hl_ast_stmt_t *st = NULL;
  if (rc == HL_OK) rc = parse_statement(&p, &st);
  if (rc == HL_OK) {
    if (at(&p, HL_TK_SEMI)) {
      *consumed = (size_t)p.tok.pos + 1;
    } else if (at(&p, HL_TK_EOF)) {
      *consumed = len;
    } else {
      rc = syntax_error(&p);
    }
  }
  if (rc == HL_OK) {
    st->n_params = p.n_params;
    *out = st;
    return HL_OK;
  }
  /* Skip to the end of the failed statement, so that a caller running a
   * script can go on with the next one. */
  hl_error_t scratch;
  hl_err_init(&scratch);
  while (!ends_statement(&p.tok)) {
    if (hl_sql_lex(&p.lx, &p.tok, &scratch) != HL_OK) break;
  }
  hl_err_clear(&scratch);
  *consumed = at(&p, HL_TK_SEMI) ? (size_t)p.tok.pos + 1 : len;
  if (*consumed > len) *consumed = len;
  return rc;
}

void hl_sql_line_col(const char *sql, long pos, int *line, int *col) {
  int ln = 1, cl = 1;
  for (long i = 0; i < pos && sql[i]; i++) {
    if (sql[i] == '\n') {
      ln++;
      cl = 1;
    } else {
      cl++;
    }
  }
  *line = ln;
  *col = cl;
}
