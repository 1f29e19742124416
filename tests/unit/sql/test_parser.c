/*
 * test_parser.c -- unit tests for the HiveQL lexer and parser (src/sql).
 *
 * Each statement form is parsed and its syntax tree checked field by field;
 * expressions are printed in a compact prefix form (expr_str) so precedence
 * is checked by comparing strings.  Error cases check the status, SQLSTATE,
 * exact message and byte position.  A robustness test feeds thousands of
 * mutated statements and checks that every error points inside the text.
 */
#include "sql/lexer.h"
#include "sql/parser.h"
#include "util/mem.h"
#include "util/strbuf.h"
#include "util/type.h"

#include "test.h"

#include <stdint.h>

/* ------------------------------------------------------------ helpers */

static hl_arena_t *arena; /* one per test run; reset between tests */

static hl_ast_stmt_t *parse_sql(const char *sql, size_t *consumed) {
  hl_error_t err;
  hl_err_init(&err);
  size_t used = 0;
  hl_ast_stmt_t *st = NULL;
  hl_status_t rc = hl_sql_parse(arena, sql, strlen(sql), &st, &used, &err);
  if (rc != HL_OK) {
    fprintf(stderr, "unexpected error for <%s>: %s at %ld\n", sql, err.message, err.position);
    test_failures++;
    st = NULL;
  }
  if (consumed) *consumed = used;
  hl_err_clear(&err);
  return st;
}

#define PARSE(var, sql)                                                                            \
  hl_ast_stmt_t *var = parse_sql((sql), NULL);                                                     \
  CHECK(var != NULL);                                                                              \
  if (!var) return

static void check_error_at(int line, const char *sql, hl_status_t code, const char *sqlstate,
                           const char *message, long position) {
  hl_error_t err;
  hl_err_init(&err);
  size_t used = 0;
  hl_ast_stmt_t *st = NULL;
  hl_status_t rc = hl_sql_parse(arena, sql, strlen(sql), &st, &used, &err);
  test_checks++;
  if (rc != code || strcmp(err.sqlstate, sqlstate) != 0 || !err.message ||
      strcmp(err.message, message) != 0 || err.position != position || st != NULL) {
    test_failures++;
    fprintf(stderr,
            "test_parser.c:%d: <%s>\n  got rc=%d %s \"%s\" at %ld\n  expected rc=%d %s \"%s\" at "
            "%ld\n",
            line, sql, rc, err.sqlstate, err.message ? err.message : "(null)", err.position, code,
            sqlstate, message, position);
  }
  hl_err_clear(&err);
}

#define CHECK_ERROR(sql, msg, pos) check_error_at(__LINE__, (sql), HL_ERROR, "42601", (msg), (pos))
#define CHECK_UNSUPPORTED(sql, msg, pos)                                                           \
  check_error_at(__LINE__, (sql), HL_UNSUPPORTED, "0A000", (msg), (pos))

static const char *op_name(hl_ast_op_t op) {
  switch (op) {
  case HL_OP_AND:
    return "AND";
  case HL_OP_OR:
    return "OR";
  case HL_OP_NOT:
    return "NOT";
  case HL_OP_EQ:
    return "=";
  case HL_OP_NE:
    return "<>";
  case HL_OP_LT:
    return "<";
  case HL_OP_LE:
    return "<=";
  case HL_OP_GT:
    return ">";
  case HL_OP_GE:
    return ">=";
  case HL_OP_EQ_NS:
    return "<=>";
  case HL_OP_ADD:
    return "+";
  case HL_OP_SUB:
    return "-";
  case HL_OP_MUL:
    return "*";
  case HL_OP_DIV:
    return "/";
  case HL_OP_IDIV:
    return "DIV";
  case HL_OP_MOD:
    return "%";
  case HL_OP_NEG:
    return "NEG";
  case HL_OP_PLUS:
    return "POS";
  case HL_OP_BITAND:
    return "&";
  case HL_OP_BITOR:
    return "|";
  case HL_OP_BITXOR:
    return "^";
  case HL_OP_BITNOT:
    return "~";
  case HL_OP_CONCAT:
    return "||";
  case HL_OP_LIKE:
    return "LIKE";
  case HL_OP_RLIKE:
    return "RLIKE";
  case HL_OP_DISTINCT_FROM:
    return "DISTINCT_FROM";
  default:
    return "?";
  }
}

static void print_expr(hl_buf_t *b, const hl_ast_expr_t *e);

static void print_args(hl_buf_t *b, const hl_ast_expr_t *e, int from) {
  for (int i = from; i < e->n_args; i++) {
    hl_buf_putc(b, ' ');
    print_expr(b, e->args[i]);
  }
}

/* Compact prefix form: (op a b), f(a, b), 'str', 5, t.c */
static void print_expr(hl_buf_t *b, const hl_ast_expr_t *e) {
  switch (e->kind) {
  case HL_AST_LITERAL:
    switch (e->lit_type) {
    case HL_LIT_STRING:
      hl_buf_printf(b, "'%s'", e->text);
      break;
    case HL_LIT_DATE:
      hl_buf_printf(b, "DATE'%s'", e->text);
      break;
    case HL_LIT_TIMESTAMP:
      hl_buf_printf(b, "TIMESTAMP'%s'", e->text);
      break;
    case HL_LIT_DECIMAL:
      hl_buf_printf(b, "%sdec", e->text);
      break;
    case HL_LIT_DOUBLE:
      hl_buf_printf(b, "%sdbl", e->text);
      break;
    default:
      hl_buf_printf(b, "%s%s", e->text, e->lit_suffix);
      break;
    }
    break;
  case HL_AST_COLUMN:
    if (e->qualifier) hl_buf_printf(b, "%s.", e->qualifier);
    hl_buf_puts(b, e->name);
    break;
  case HL_AST_STAR:
    if (e->qualifier) hl_buf_printf(b, "%s.", e->qualifier);
    hl_buf_putc(b, '*');
    break;
  case HL_AST_UNARY:
  case HL_AST_BINARY:
    hl_buf_printf(b, "(%s%s", e->negated ? "NOT_" : "", op_name(e->op));
    print_args(b, e, 0);
    hl_buf_putc(b, ')');
    break;
  case HL_AST_IS_NULL:
    hl_buf_puts(b, e->negated ? "(IS_NOT_NULL" : "(IS_NULL");
    print_args(b, e, 0);
    hl_buf_putc(b, ')');
    break;
  case HL_AST_IN:
    hl_buf_puts(b, e->negated ? "(NOT_IN" : "(IN");
    print_args(b, e, 0);
    if (e->subquery) hl_buf_puts(b, " (query)");
    hl_buf_putc(b, ')');
    break;
  case HL_AST_SUBQUERY:
    hl_buf_puts(b, "(query)");
    break;
  case HL_AST_INDEX:
    print_expr(b, e->args[0]);
    hl_buf_putc(b, '[');
    print_expr(b, e->args[1]);
    hl_buf_putc(b, ']');
    break;
  case HL_AST_FIELD:
    hl_buf_puts(b, "(. ");
    print_expr(b, e->args[0]);
    hl_buf_printf(b, " %s)", e->name);
    break;
  case HL_AST_EXISTS:
    hl_buf_puts(b, e->negated ? "(NOT_EXISTS (query))" : "(EXISTS (query))");
    break;
  case HL_AST_PARAM:
    hl_buf_printf(b, "$%d", e->param);
    break;
  case HL_AST_BETWEEN:
    hl_buf_puts(b, e->negated ? "(NOT_BETWEEN" : "(BETWEEN");
    print_args(b, e, 0);
    hl_buf_putc(b, ')');
    break;
  case HL_AST_LIKE:
    hl_buf_printf(b, "(%s%s", e->negated ? "NOT_" : "", op_name(e->op));
    print_args(b, e, 0);
    hl_buf_putc(b, ')');
    break;
  case HL_AST_FUNC:
    hl_buf_printf(b, "%s(%s", e->name, e->distinct ? "DISTINCT " : "");
    for (int i = 0; i < e->n_args; i++) {
      if (i) hl_buf_puts(b, ", ");
      print_expr(b, e->args[i]);
    }
    hl_buf_putc(b, ')');
    break;
  case HL_AST_CAST: {
    hl_arena_t *a = hl_arena_create(0);
    char *t = hl_type_to_string(a, e->cast_type);
    hl_buf_puts(b, "(CAST ");
    print_expr(b, e->args[0]);
    hl_buf_printf(b, " %s", t ? t : "?");
    if (e->n_args == 2) { /* FORMAT 'template' */
      hl_buf_puts(b, " FORMAT ");
      print_expr(b, e->args[1]);
    }
    hl_buf_putc(b, ')');
    hl_arena_destroy(a);
    break;
  }
  case HL_AST_CASE: {
    int i = 0;
    hl_buf_puts(b, "(CASE");
    if (e->has_operand) {
      hl_buf_putc(b, ' ');
      print_expr(b, e->args[i++]);
    }
    int end = e->n_args - (e->has_else ? 1 : 0);
    for (; i < end; i += 2) {
      hl_buf_puts(b, " WHEN ");
      print_expr(b, e->args[i]);
      hl_buf_puts(b, " THEN ");
      print_expr(b, e->args[i + 1]);
    }
    if (e->has_else) {
      hl_buf_puts(b, " ELSE ");
      print_expr(b, e->args[e->n_args - 1]);
    }
    hl_buf_putc(b, ')');
    break;
  }
  }
}

/* The first select item of "SELECT <text>" in prefix form (arena copy). */
static const char *expr_str(const char *text) {
  char sql[1024];
  snprintf(sql, sizeof sql, "SELECT %s", text);
  hl_ast_stmt_t *st = parse_sql(sql, NULL);
  if (!st) return "(error)";
  hl_buf_t b;
  hl_buf_init(&b);
  print_expr(&b, st->select->items[0].expr);
  char *out = hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return out;
}

static const char *type_str(const hl_type_t *t) {
  return t ? hl_type_to_string(arena, t) : "(null)";
}

/* -------------------------------------------------------------- lexer */

static int lex_all(const char *sql, hl_sql_token_t *toks, int max) {
  hl_sql_lexer_t lx;
  hl_error_t err;
  hl_err_init(&err);
  hl_sql_lexer_init(&lx, sql, strlen(sql));
  int n = 0;
  while (n < max) {
    if (hl_sql_lex(&lx, &toks[n], &err) != HL_OK) {
      hl_err_clear(&err);
      return -1;
    }
    if (toks[n++].kind == HL_TK_EOF) break;
  }
  return n;
}

TEST(lexer_tokens) {
  hl_sql_token_t t[32];
  const char *sql = "a<=>b <> c != d == e || f <= g >= h /* x */ -- y\n ; .5 1.e2 `q``x`";
  int n = lex_all(sql, t, 32);
  hl_sql_tk_t want[] = {HL_TK_WORD, HL_TK_EQ_NS,   HL_TK_WORD,   HL_TK_NE,     HL_TK_WORD,
                        HL_TK_NE,   HL_TK_WORD,    HL_TK_EQ,     HL_TK_WORD,   HL_TK_CONCAT,
                        HL_TK_WORD, HL_TK_LE,      HL_TK_WORD,   HL_TK_GE,     HL_TK_WORD,
                        HL_TK_SEMI, HL_TK_DECIMAL, HL_TK_DOUBLE, HL_TK_QIDENT, HL_TK_EOF};
  CHECK_INT(n, (int)(sizeof want / sizeof want[0]));
  for (int i = 0; i < n && i < (int)(sizeof want / sizeof want[0]); i++)
    CHECK_INT(t[i].kind, want[i]);
  CHECK_INT(t[1].pos, 1);
  CHECK_INT(t[1].len, 3);
  CHECK_INT(t[15].pos, 50);                /* the ';' after the comments */
  CHECK_INT(t[19].pos, (long)strlen(sql)); /* EOF at the end */
  char *id = hl_sql_ident_value(arena, sql, &t[18]);
  CHECK_STR(id, "q`x");

  n = lex_all("10Y 10s 10L 1.5BD 2d 1e3 1E+3bd 12abc 1.5L", t, 32);
  CHECK_INT(n, 10);
  CHECK_INT(t[0].kind, HL_TK_TYPED_NUM);
  CHECK_STR(t[0].suffix, "Y");
  CHECK_STR(t[1].suffix, "S");
  CHECK_STR(t[2].suffix, "L");
  CHECK_INT(t[3].kind, HL_TK_TYPED_NUM);
  CHECK_STR(t[3].suffix, "BD");
  CHECK_INT(t[3].num_len, 3);
  CHECK_INT(t[4].kind, HL_TK_DOUBLE);
  CHECK_INT(t[5].kind, HL_TK_DOUBLE);
  CHECK_INT(t[6].kind, HL_TK_TYPED_NUM);
  CHECK_INT(t[6].num_len, 4);
  CHECK_INT(t[7].kind, HL_TK_ILLEGAL); /* 12abc */
  CHECK_INT(t[7].len, 5);
  CHECK_INT(t[8].kind, HL_TK_ILLEGAL); /* L is no decimal suffix */

  CHECK(hl_sql_is_reserved("from", 4));
  CHECK(hl_sql_is_reserved("SeLeCt", 6));
  CHECK(!hl_sql_is_reserved("date", 4));
  CHECK(!hl_sql_is_reserved("key", 3));
}

TEST(string_escapes) {
  PARSE(st, "SELECT 'a\\nb\\tc\\\\d\\'e\\\"f\\Zg\\001h\\u00e9\\u20AC\\qx', \"dq'x\", 'p\\%\\_'");
  hl_ast_expr_t *e = st->select->items[0].expr;
  CHECK_INT(e->lit_type, HL_LIT_STRING);
  CHECK_INT(e->text_len, 22);
  CHECK(memcmp(e->text, "a\nb\tc\\d'e\"f\032g\001h\xc3\xa9\xe2\x82\xacqx", 22) == 0);
  CHECK_STR(st->select->items[1].expr->text, "dq'x");
  CHECK_STR(st->select->items[2].expr->text, "p\\%\\_");

  PARSE(st2, "SELECT 'it''s' 'x', '\\0z', '\\ud83d\\ude00', '\\ud83dq'");
  CHECK_STR(st2->select->items[0].expr->text, "itsx"); /* Hive concatenates adjacent literals */
  CHECK_INT(st2->select->items[0].pos, 7);
  hl_ast_expr_t *nul = st2->select->items[1].expr;
  CHECK_INT(nul->text_len, 2);
  CHECK(nul->text[0] == '\0' && nul->text[1] == 'z');
  CHECK_STR(st2->select->items[2].expr->text, "\xf0\x9f\x98\x80");
  CHECK_STR(st2->select->items[3].expr->text, "\xef\xbf\xbdq");
  PARSE(st3, "SELECT '\\101\\277'");
  CHECK_STR(st3->select->items[0].expr->text, "A277"); /* \2 is no octal escape in Hive */
}

/* hivelite.sql.string_literals=standard: the statement parsed with
 * standard strings; NULL on a parse error (ERR set). */
static hl_ast_stmt_t *parse_standard(const char *sql, hl_error_t *err) {
  size_t used = 0;
  hl_ast_stmt_t *st = NULL;
  if (hl_sql_parse_strings(arena, sql, strlen(sql), HL_SQL_STRINGS_STANDARD, &st, &used, err) !=
      HL_OK)
    return NULL;
  return st;
}

TEST(standard_strings) {
  hl_sql_token_t t[8];
  hl_sql_lexer_t lx;
  hl_error_t err;
  hl_err_init(&err);
  const char *toks = "'a''b' E'c\\'' e \"d\"\"\"";
  hl_sql_lexer_init(&lx, toks, strlen(toks));
  lx.standard = true;
  int n = 0;
  while (n < 8 && hl_sql_lex(&lx, &t[n], &err) == HL_OK && t[n++].kind != HL_TK_EOF) {
  }
  CHECK_INT(n, 5);
  CHECK_INT(t[0].kind, HL_TK_STRING);
  CHECK_INT(t[0].len, 6);
  CHECK_INT(t[0].str_style, HL_STR_STANDARD);
  CHECK_INT(t[1].kind, HL_TK_STRING);
  CHECK_INT(t[1].len, 6);
  CHECK_INT(t[1].str_style, HL_STR_ESCAPE);
  CHECK_INT(t[2].kind, HL_TK_WORD); /* E alone is a name */
  CHECK_INT(t[3].kind, HL_TK_STRING);
  CHECK_INT(t[3].len, 5);
  char out[16];
  CHECK_INT(hl_sql_string_value(toks, &t[0], out), 3);
  CHECK(memcmp(out, "a'b", 3) == 0);
  CHECK_INT(hl_sql_string_value(toks, &t[1], out), 2);
  CHECK(memcmp(out, "c'", 2) == 0);
  CHECK_INT(hl_sql_string_value(toks, &t[3], out), 2);
  CHECK(memcmp(out, "d\"", 2) == 0);

  hl_ast_stmt_t *st = parse_standard("SELECT 'it''s', 'a\\b', 'c\\\\', 'x\\', "
                                     "E'x\\ny\\\\z\\'w''v\\t', "
                                     "e'\\101\\x41\\x4a2\\u00e9\\U0001F600\\q\\7\\b\\f\\r', "
                                     "'a' 'b''', ''''",
                                     &err);
  CHECK(st != NULL);
  if (!st) return;
  CHECK_INT(st->select->n_items, 8);
  CHECK_STR(st->select->items[0].expr->text, "it's");
  CHECK_STR(st->select->items[1].expr->text, "a\\b"); /* a backslash is a byte */
  CHECK_STR(st->select->items[2].expr->text, "c\\\\");
  CHECK_STR(st->select->items[3].expr->text, "x\\"); /* and cannot escape the quote */
  CHECK_STR(st->select->items[4].expr->text, "x\ny\\z'w'v\t");
  CHECK_STR(st->select->items[5].expr->text,
            "AAJ2\xc3\xa9\xf0\x9f\x98\x80q\007\b\f\r"); /* octal, hex, \u, \U, any other */
  CHECK_STR(st->select->items[6].expr->text, "ab'");
  CHECK_STR(st->select->items[7].expr->text, "'");
  /* an E that is not followed by a quote is an identifier */
  st = parse_standard("SELECT e, E FROM t", &err);
  CHECK(st != NULL && st->select->n_items == 2);
  /* unterminated: the backslash in E'' escapes the closing quote */
  size_t used = 0;
  CHECK_INT(
      hl_sql_parse_strings(arena, "SELECT E'ab\\'", 13, HL_SQL_STRINGS_STANDARD, &st, &used, &err),
      HL_ERROR);
  CHECK_STR(err.sqlstate, "42601");
  CHECK_STR(err.message, "unterminated quoted string");
  CHECK_INT(err.position, 7);
  hl_err_clear(&err);
  CHECK_INT(
      hl_sql_parse_strings(arena, "SELECT 'ab''", 12, HL_SQL_STRINGS_STANDARD, &st, &used, &err),
      HL_ERROR);
  CHECK_STR(err.message, "unterminated quoted string");
  hl_err_clear(&err);
  /* the same texts in Hive's mode keep Hive's meaning */
  PARSE(h, "SELECT 'a\\\\b', 'x\\'y'");
  CHECK_STR(h->select->items[0].expr->text, "a\\b");
  CHECK_STR(h->select->items[1].expr->text, "x'y");
}

/* -------------------------------------------------------- expressions */

TEST(expression_precedence) {
  CHECK_STR(expr_str("1 + 2 * 3"), "(+ 1 (* 2 3))");
  CHECK_STR(expr_str("(1 + 2) * 3"), "(* (+ 1 2) 3)");
  CHECK_STR(expr_str("a - b - c"), "(- (- a b) c)");
  CHECK_STR(expr_str("a OR b AND NOT c = d"), "(OR a (AND b (NOT (= c d))))");
  CHECK_STR(expr_str("a | b & c || d + e * f ^ g"), "(| a (& b (|| c (+ d (* e (^ f g))))))");
  CHECK_STR(expr_str("a ^ b * c | d"), "(| (* (^ a b) c) d)");
  CHECK_STR(expr_str("-a ^ b"), "(^ (NEG a) b)");
  CHECK_STR(expr_str("a = b | c"), "(= a (| b c))");
  CHECK_STR(expr_str("a DIV b % c / d"), "(/ (% (DIV a b) c) d)");
  CHECK_STR(expr_str("-a * ~b"), "(* (NEG a) (~ b))");
  CHECK_STR(expr_str("- -5"), "(NEG -5)");
  CHECK_STR(expr_str("-5 + +2"), "(+ -5 (POS 2))");
  CHECK_STR(expr_str("a <=> b == c"), "(= (<=> a b) c)");
  CHECK_STR(expr_str("a != b AND c <> d"), "(AND (<> a b) (<> c d))");
  CHECK_STR(expr_str("a IS NULL OR b IS NOT NULL"), "(OR (IS_NULL a) (IS_NOT_NULL b))");
  CHECK_STR(expr_str("a IS DISTINCT FROM b"), "(DISTINCT_FROM a b)");
  CHECK_STR(expr_str("a IS NOT DISTINCT FROM b + 1"), "(NOT_DISTINCT_FROM a (+ b 1))");
  CHECK_STR(expr_str("a NOT IN (1, 2) AND b IN ('x')"), "(AND (NOT_IN a 1 2) (IN b 'x'))");
  CHECK_STR(expr_str("a BETWEEN 1 AND 2 AND b"), "(AND (BETWEEN a 1 2) b)");
  CHECK_STR(expr_str("a NOT BETWEEN b + 1 AND c"), "(NOT_BETWEEN a (+ b 1) c)");
  CHECK_STR(expr_str("a LIKE 'x%' OR a NOT RLIKE '^y' OR a REGEXP 'z'"),
            "(OR (OR (LIKE a 'x%') (NOT_RLIKE a '^y')) (RLIKE a 'z'))");
  CHECK_STR(expr_str("NOT a LIKE b"), "(NOT (LIKE a b))");
  CHECK_STR(expr_str("! a"), "(NOT a)");
  CHECK_STR(expr_str("t.a + `B`"), "(+ t.a b)");
}

TEST(expression_primaries) {
  CHECK_STR(expr_str("TRUE"), "true");
  CHECK_STR(expr_str("null"), "null");
  CHECK_STR(expr_str("1.5"), "1.5dec");
  CHECK_STR(expr_str(".5"), ".5dec");
  CHECK_STR(expr_str("1e3"), "1e3dbl");
  CHECK_STR(expr_str("2.5D"), "2.5dbl");
  CHECK_STR(expr_str("10L"), "10L");
  CHECK_STR(expr_str("-3Y"), "-3Y");
  CHECK_STR(expr_str("1.25bd"), "1.25BD");
  CHECK_STR(expr_str("DATE '2024-01-02'"), "DATE'2024-01-02'");
  CHECK_STR(expr_str("timestamp '2024-01-02 03:04:05'"), "TIMESTAMP'2024-01-02 03:04:05'");
  CHECK_STR(expr_str("date"), "date");
  CHECK_STR(expr_str("date(x)"), "date(x)");
  CHECK_STR(expr_str("count(*)"), "count(*)");
  CHECK_STR(expr_str("COUNT(DISTINCT a, b)"), "count(DISTINCT a, b)");
  CHECK_STR(expr_str("f()"), "f()");
  CHECK_STR(expr_str("IF(a > 1, 'x', NULL)"), "if((> a 1), 'x', null)");
  CHECK_STR(expr_str("CAST(a AS DECIMAL(10,2))"), "(CAST a decimal(10,2))");
  CHECK_STR(expr_str("CAST(a AS DATE FORMAT 'yyyy-mm-dd')"), "(CAST a date FORMAT 'yyyy-mm-dd')");
  CHECK_STR(expr_str("cast(a as varchar(5) format \"yy\" 'yy')"),
            "(CAST a varchar(5) FORMAT 'yyyy')");
  CHECK_STR(expr_str("cast(a + 1 as map<string,array<int>>) = b"),
            "(= (CAST (+ a 1) map<string,array<int>>) b)");
  CHECK_STR(expr_str("CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END"),
            "(CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3)");
  CHECK_STR(expr_str("CASE x WHEN 1 THEN 'a' END"), "(CASE x WHEN 1 THEN 'a')");
  CHECK_STR(expr_str("current_date"), "current_date()");
  CHECK_STR(expr_str("key + value + user + location + comment + data"),
            "(+ (+ (+ (+ (+ key value) user) location) comment) data)");

  /* postfix subscripts and fields; `a.b` stays a column for the binder */
  CHECK_STR(expr_str("a[0]"), "a[0]");
  CHECK_STR(expr_str("t.s.f"), "(. t.s f)");
  CHECK_STR(expr_str("m['k'][i + 1].x.y"), "(. (. m['k'][(+ i 1)] x) y)");
  CHECK_STR(expr_str("-a[0]"), "(NEG a[0])");
  CHECK_STR(expr_str("f(1).`Fld`"), "(. f(1) fld)");

  PARSE(st, "SELECT CASE x WHEN 1 THEN 2 ELSE 3 END");
  hl_ast_expr_t *c = st->select->items[0].expr;
  CHECK_INT(c->kind, HL_AST_CASE);
  CHECK(c->has_operand);
  CHECK(c->has_else);
  CHECK_INT(c->n_args, 4);
  CHECK_INT(c->pos, 7);
  CHECK_INT(c->args[1]->pos, 19);
}

/* ------------------------------------------------------------- SELECT */

TEST(select_full) {
  PARSE(st, "select DISTINCT a, t.*, b + 1 AS total, c `Alias`, d date, * "
            "from Db.Tbl AS t where a > 1 group by a, b having count(*) > 2 "
            "order by a desc nulls last, b, c asc nulls first limit 10 offset 5");
  CHECK_INT(st->kind, HL_STMT_SELECT);
  hl_ast_select_t *s = st->select;
  CHECK(s->distinct);
  CHECK_INT(s->n_items, 6);
  CHECK_INT(s->items[1].expr->kind, HL_AST_STAR);
  CHECK_STR(s->items[1].expr->qualifier, "t");
  CHECK_STR(s->items[2].alias, "total");
  CHECK_STR(s->items[3].alias, "alias");
  CHECK_STR(s->items[4].alias, "date");
  CHECK_INT(s->items[5].expr->kind, HL_AST_STAR);
  CHECK(s->items[5].expr->qualifier == NULL);
  CHECK(s->items[0].alias == NULL);
  CHECK(s->from != NULL);
  CHECK_STR(s->from->table.db, "db");
  CHECK_STR(s->from->table.name, "tbl");
  CHECK_STR(s->from->alias, "t");
  CHECK_INT(s->from->pos, 66);
  CHECK(s->where != NULL);
  CHECK_INT(s->n_group_by, 2);
  CHECK(s->having != NULL);
  CHECK_INT(s->n_order_by, 3);
  CHECK(s->order_by[0].descending);
  CHECK_INT(s->order_by[0].nulls, 2);
  CHECK(!s->order_by[1].descending);
  CHECK_INT(s->order_by[1].nulls, 0);
  CHECK_INT(s->order_by[2].nulls, 1);
  CHECK(s->has_limit);
  CHECK_INT(s->limit, 10);
  CHECK_INT(s->offset, 5);
  CHECK_INT(st->pos, 0);

  PARSE(st2, "SELECT a FROM t x LIMIT 3, 7");
  CHECK_STR(st2->select->from->alias, "x");
  CHECK_INT(st2->select->limit, 7);
  CHECK_INT(st2->select->offset, 3);

  PARSE(st3, "SELECT 1");
  CHECK(st3->select->from == NULL);
  CHECK(!st3->select->has_limit);
  CHECK_INT(st3->end_pos, 8);

  PARSE(st4, "EXPLAIN SELECT a FROM t");
  CHECK_INT(st4->kind, HL_STMT_EXPLAIN);
  CHECK(st4->inner != NULL && st4->inner->kind == HL_STMT_SELECT);
  CHECK_INT(st4->inner->pos, 8);
  CHECK(st4->select == st4->inner->select);
}

/* ---------------------------------------------------------- databases */

TEST(database_statements) {
  PARSE(c, "CREATE SCHEMA IF NOT EXISTS Sales COMMENT 'the ''sales''' LOCATION '/w/s.db' "
           "WITH DBPROPERTIES ('owner'='me', 'k2'='v2')");
  CHECK_INT(c->kind, HL_STMT_CREATE_DATABASE);
  CHECK(c->if_not_exists);
  CHECK_STR(c->db_name, "sales");
  CHECK_STR(c->comment, "the sales");
  CHECK_STR(c->location, "/w/s.db");
  CHECK_INT(c->props.n, 2);
  CHECK_STR(c->props.items[0].key, "owner");
  CHECK_STR(c->props.items[1].value, "v2");

  PARSE(d, "DROP DATABASE IF EXISTS s CASCADE");
  CHECK_INT(d->kind, HL_STMT_DROP_DATABASE);
  CHECK(d->if_exists);
  CHECK(d->cascade);
  PARSE(d2, "drop schema s restrict");
  CHECK(!d2->cascade);
  CHECK(!d2->if_exists);

  PARSE(u, "USE `Default`");
  CHECK_INT(u->kind, HL_STMT_USE);
  CHECK_STR(u->db_name, "default");

  PARSE(s, "SHOW DATABASES LIKE 'a*'");
  CHECK_INT(s->kind, HL_STMT_SHOW_DATABASES);
  CHECK_STR(s->like_pattern, "a*");
  PARSE(s2, "show schemas");
  CHECK(s2->like_pattern == NULL);

  PARSE(dd, "DESCRIBE DATABASE EXTENDED sales");
  CHECK_INT(dd->kind, HL_STMT_DESCRIBE_DATABASE);
  CHECK_INT(dd->describe_mode, 1);
  CHECK_STR(dd->db_name, "sales");
  PARSE(dd2, "DESC SCHEMA sales");
  CHECK_INT(dd2->kind, HL_STMT_DESCRIBE_DATABASE);
  CHECK_INT(dd2->describe_mode, 0);
}

/* ------------------------------------------------------------- tables */

TEST(create_table_full) {
  PARSE(st, "CREATE TEMPORARY EXTERNAL TABLE IF NOT EXISTS db.T1 ("
            "  key INT COMMENT 'the key', value STRING, `date` date, "
            "  s STRUCT<a:int,b:array<string>>, m MAP<string,decimal(10,2)>, v VARCHAR(20)) "
            "COMMENT 'tbl' "
            "PARTITIONED BY (dt STRING COMMENT 'day', hr int) "
            "CLUSTERED BY (key, value) SORTED BY (key DESC, value) INTO 8 BUCKETS "
            "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\001' ESCAPED BY '\\\\' "
            "COLLECTION ITEMS TERMINATED BY '\\002' MAP KEYS TERMINATED BY ':' "
            "LINES TERMINATED BY '\\n' NULL DEFINED AS '' "
            "STORED AS textfile LOCATION '/data/t1' TBLPROPERTIES ('a'='1')");
  CHECK_INT(st->kind, HL_STMT_CREATE_TABLE);
  hl_ast_create_table_t *ct = st->create_table;
  CHECK(ct->temporary);
  CHECK(ct->external);
  CHECK(ct->if_not_exists);
  CHECK_STR(ct->name.db, "db");
  CHECK_STR(ct->name.name, "t1");
  CHECK_INT(ct->name.pos, 46);
  CHECK_INT(ct->n_cols, 6);
  CHECK_STR(ct->cols[0].name, "key");
  CHECK_STR(type_str(ct->cols[0].type), "int");
  CHECK_STR(ct->cols[0].comment, "the key");
  CHECK_INT(ct->cols[0].pos, 55);
  CHECK_STR(ct->cols[1].name, "value");
  CHECK(ct->cols[1].comment == NULL);
  CHECK_STR(ct->cols[2].name, "date");
  CHECK_STR(type_str(ct->cols[2].type), "date");
  CHECK_STR(type_str(ct->cols[3].type), "struct<a:int,b:array<string>>");
  CHECK_STR(type_str(ct->cols[4].type), "map<string,decimal(10,2)>");
  CHECK_STR(type_str(ct->cols[5].type), "varchar(20)");
  CHECK_STR(ct->comment, "tbl");
  CHECK_INT(ct->n_part_cols, 2);
  CHECK_STR(ct->part_cols[0].name, "dt");
  CHECK_STR(ct->part_cols[0].comment, "day");
  CHECK_STR(type_str(ct->part_cols[1].type), "int");
  CHECK_INT(ct->n_bucket_cols, 2);
  CHECK_STR(ct->bucket_cols[1], "value");
  CHECK_INT(ct->n_sort_cols, 2);
  CHECK_STR(ct->sort_cols[0].expr->name, "key");
  CHECK(ct->sort_cols[0].descending);
  CHECK(!ct->sort_cols[1].descending);
  CHECK_INT(ct->num_buckets, 8);
  CHECK(ct->row_format.present);
  CHECK(!ct->row_format.is_serde);
  CHECK_STR(ct->row_format.fields_terminated, "\001");
  CHECK_STR(ct->row_format.escaped_by, "\\");
  CHECK_STR(ct->row_format.collection_terminated, "\002");
  CHECK_STR(ct->row_format.map_keys_terminated, ":");
  CHECK_STR(ct->row_format.lines_terminated, "\n");
  CHECK_STR(ct->row_format.null_defined_as, "");
  CHECK_STR(ct->stored_as, "TEXTFILE");
  CHECK_STR(ct->location, "/data/t1");
  CHECK_INT(ct->tblprops.n, 1);
  CHECK_STR(ct->tblprops.items[0].key, "a");
  CHECK(ct->like == NULL);
  CHECK(ct->as_select == NULL);

  PARSE(st2, "create table t (a int) row format serde 'org.x.JsonSerDe' "
             "with serdeproperties ('p'='q') stored as inputformat 'in.F' outputformat 'out.F'");
  ct = st2->create_table;
  CHECK(!ct->external);
  CHECK(ct->name.db == NULL);
  CHECK_INT(ct->num_buckets, -1);
  CHECK(ct->row_format.is_serde);
  CHECK_STR(ct->row_format.serde_class, "org.x.JsonSerDe");
  CHECK_STR(ct->row_format.serde_props.items[0].value, "q");
  CHECK(ct->stored_as == NULL);
  CHECK_STR(ct->input_format, "in.F");
  CHECK_STR(ct->output_format, "out.F");

  PARSE(st3, "CREATE TABLE t STORED BY 'h.Handler' WITH SERDEPROPERTIES ('x'='y') "
             "AS SELECT a, b FROM s WHERE a > 0");
  ct = st3->create_table;
  CHECK_INT(ct->n_cols, 0);
  CHECK_STR(ct->stored_by, "h.Handler");
  CHECK_INT(ct->stored_by_props.n, 1);
  CHECK(ct->as_select != NULL);
  CHECK_INT(ct->as_select->kind, HL_STMT_SELECT);
  CHECK_INT(ct->as_select->select->n_items, 2);

  PARSE(st4, "CREATE EXTERNAL TABLE IF NOT EXISTS t2 LIKE db.src LOCATION '/x' "
             "TBLPROPERTIES ('k'='v')");
  ct = st4->create_table;
  CHECK(ct->external);
  CHECK(ct->like != NULL);
  CHECK_STR(ct->like->db, "db");
  CHECK_STR(ct->like->name, "src");
  CHECK_STR(ct->location, "/x");
  CHECK_INT(ct->tblprops.n, 1);

  PARSE(kw, "CREATE TABLE k (key int, value string, date date, timestamp timestamp, "
            "comment string, location string, data binary, user string, table int)");
  CHECK_INT(kw->create_table->n_cols, 9);
  CHECK_STR(kw->create_table->cols[3].name, "timestamp");
  CHECK_STR(type_str(kw->create_table->cols[3].type), "timestamp");
  CHECK_STR(kw->create_table->cols[8].name, "table");

  PARSE(st5, "CREATE TABLE p (x int) STORED AS Parquet");
  CHECK_STR(st5->create_table->stored_as, "PARQUET");
}

TEST(drop_alter_table) {
  PARSE(d, "DROP TABLE IF EXISTS db.t PURGE");
  CHECK_INT(d->kind, HL_STMT_DROP_TABLE);
  CHECK(d->if_exists);
  CHECK(d->purge);
  CHECK_STR(d->table.db, "db");
  CHECK_STR(d->table.name, "t");

  PARSE(r, "ALTER TABLE t RENAME TO db2.t2");
  hl_ast_alter_table_t *a = r->alter_table;
  CHECK_INT(r->kind, HL_STMT_ALTER_TABLE);
  CHECK_INT(a->kind, HL_ALTER_RENAME);
  CHECK_STR(a->name.name, "t");
  CHECK_STR(a->new_name.db, "db2");
  CHECK_STR(a->new_name.name, "t2");

  PARSE(ac, "ALTER TABLE t ADD COLUMNS (c1 int COMMENT 'x', c2 array<bigint>) CASCADE");
  a = ac->alter_table;
  CHECK_INT(a->kind, HL_ALTER_ADD_COLUMNS);
  CHECK_INT(a->n_cols, 2);
  CHECK_STR(a->cols[0].comment, "x");
  CHECK_STR(type_str(a->cols[1].type), "array<bigint>");

  PARSE(rc, "ALTER TABLE t REPLACE COLUMNS (a string) RESTRICT");
  CHECK_INT(rc->alter_table->kind, HL_ALTER_REPLACE_COLUMNS);
  CHECK_INT(rc->alter_table->n_cols, 1);

  PARSE(ch, "ALTER TABLE t CHANGE COLUMN old new bigint COMMENT 'n' AFTER other CASCADE");
  a = ch->alter_table;
  CHECK_INT(a->kind, HL_ALTER_CHANGE_COLUMN);
  CHECK_STR(a->old_col, "old");
  CHECK_STR(a->cols[0].name, "new");
  CHECK_STR(type_str(a->cols[0].type), "bigint");
  CHECK_STR(a->cols[0].comment, "n");
  CHECK_STR(a->after_col, "other");
  CHECK(!a->first);
  PARSE(ch2, "ALTER TABLE t CHANGE a b int FIRST");
  CHECK(ch2->alter_table->first);
  CHECK_STR(ch2->alter_table->old_col, "a");

  PARSE(sp, "ALTER TABLE t SET TBLPROPERTIES ('a'='b')");
  CHECK_INT(sp->alter_table->kind, HL_ALTER_SET_TBLPROPS);
  CHECK_STR(sp->alter_table->props.items[0].value, "b");
  PARSE(up, "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', 'b')");
  CHECK_INT(up->alter_table->kind, HL_ALTER_UNSET_TBLPROPS);
  CHECK(up->alter_table->if_exists);
  CHECK_INT(up->alter_table->n_keys, 2);
  CHECK_STR(up->alter_table->keys[1], "b");
  PARSE(sl, "ALTER TABLE t SET LOCATION '/new'");
  CHECK_INT(sl->alter_table->kind, HL_ALTER_SET_LOCATION);
  CHECK_STR(sl->alter_table->location, "/new");
  CHECK_INT(sl->alter_table->n_part_specs, 0);
  PARSE(ss, "ALTER TABLE t SET SERDEPROPERTIES ('field.delim'=',')");
  CHECK_INT(ss->alter_table->kind, HL_ALTER_SET_SERDEPROPS);
  CHECK_STR(ss->alter_table->props.items[0].key, "field.delim");
  PARSE(sd, "ALTER TABLE t SET SERDE 'x.Y' WITH SERDEPROPERTIES ('a'='b')");
  CHECK_INT(sd->alter_table->kind, HL_ALTER_SET_SERDE);
  CHECK_STR(sd->alter_table->serde_class, "x.Y");
  CHECK_INT(sd->alter_table->props.n, 1);
  PARSE(ff, "ALTER TABLE t SET FILEFORMAT orc");
  CHECK_INT(ff->alter_table->kind, HL_ALTER_SET_FILEFORMAT);
  CHECK_STR(ff->alter_table->stored_as, "ORC");
}

TEST(alter_partitions) {
  PARSE(ap, "ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt='2024-01-01', hr=-5) LOCATION '/p1' "
            "PARTITION (dt=DATE '2024-01-02', hr=7, ok=true)");
  hl_ast_alter_table_t *a = ap->alter_table;
  CHECK_INT(a->kind, HL_ALTER_ADD_PARTITIONS);
  CHECK(a->if_not_exists);
  CHECK_INT(a->n_part_specs, 2);
  CHECK_INT(a->part_specs[0].n, 2);
  CHECK_STR(a->part_specs[0].items[0].key, "dt");
  CHECK_INT(a->part_specs[0].items[0].op, HL_OP_EQ);
  CHECK_INT(a->part_specs[0].items[0].value->lit_type, HL_LIT_STRING);
  CHECK_STR(a->part_specs[0].items[0].value->text, "2024-01-01");
  CHECK_INT(a->part_specs[0].items[1].value->lit_type, HL_LIT_INTEGER);
  CHECK_STR(a->part_specs[0].items[1].value->text, "-5");
  CHECK_INT(a->part_specs[0].pos, 42);
  CHECK_INT(a->part_specs[0].items[0].pos, 43);
  CHECK_STR(a->part_locations[0], "/p1");
  CHECK(a->part_locations[1] == NULL);
  CHECK_INT(a->part_specs[1].items[0].value->lit_type, HL_LIT_DATE);
  CHECK_STR(a->part_specs[1].items[0].value->text, "2024-01-02");
  CHECK_INT(a->part_specs[1].items[2].value->lit_type, HL_LIT_BOOL);
  CHECK_STR(a->part_specs[1].items[2].value->text, "true");

  PARSE(dp, "ALTER TABLE t DROP IF EXISTS PARTITION (dt < '2024', hr >= 3), "
            "PARTITION (dt <> 'x', hr != 1, k <= 2, j > 1.5) PURGE");
  a = dp->alter_table;
  CHECK_INT(a->kind, HL_ALTER_DROP_PARTITIONS);
  CHECK(a->if_exists);
  CHECK(a->purge);
  CHECK_INT(a->n_part_specs, 2);
  CHECK_INT(a->part_specs[0].items[0].op, HL_OP_LT);
  CHECK_INT(a->part_specs[0].items[1].op, HL_OP_GE);
  CHECK_INT(a->part_specs[1].items[0].op, HL_OP_NE);
  CHECK_INT(a->part_specs[1].items[1].op, HL_OP_NE);
  CHECK_INT(a->part_specs[1].items[2].op, HL_OP_LE);
  CHECK_INT(a->part_specs[1].items[3].op, HL_OP_GT);
  CHECK_INT(a->part_specs[1].items[3].value->lit_type, HL_LIT_DECIMAL);

  PARSE(rp, "ALTER TABLE t PARTITION (dt='a') RENAME TO PARTITION (dt='b')");
  a = rp->alter_table;
  CHECK_INT(a->kind, HL_ALTER_RENAME_PARTITION);
  CHECK_INT(a->n_part_specs, 2);
  CHECK_STR(a->part_specs[1].items[0].value->text, "b");

  PARSE(pl, "ALTER TABLE t PARTITION (dt='a', hr) SET LOCATION '/l'");
  a = pl->alter_table;
  CHECK_INT(a->kind, HL_ALTER_SET_LOCATION);
  CHECK_INT(a->n_part_specs, 1);
  CHECK(a->part_specs[0].items[1].value == NULL); /* dynamic key */
  CHECK_STR(a->location, "/l");
}

TEST(show_describe_misc) {
  PARSE(st, "SHOW TABLES IN db LIKE 'x*'");
  CHECK_INT(st->kind, HL_STMT_SHOW_TABLES);
  CHECK_STR(st->db_name, "db");
  CHECK_STR(st->like_pattern, "x*");
  PARSE(st2, "SHOW TABLES 'y*'");
  CHECK(st2->db_name == NULL);
  CHECK_STR(st2->like_pattern, "y*");
  PARSE(st3, "show tables from d");
  CHECK_STR(st3->db_name, "d");
  CHECK(st3->like_pattern == NULL);

  PARSE(sc, "SHOW COLUMNS FROM t IN db");
  CHECK_INT(sc->kind, HL_STMT_SHOW_COLUMNS);
  CHECK_STR(sc->table.db, "db");
  CHECK_STR(sc->table.name, "t");
  PARSE(sc2, "SHOW COLUMNS IN db.t");
  CHECK_STR(sc2->table.db, "db");

  PARSE(tp, "SHOW TBLPROPERTIES db.t ('comment')");
  CHECK_INT(tp->kind, HL_STMT_SHOW_TBLPROPERTIES);
  CHECK_STR(tp->prop_key, "comment");
  PARSE(tp2, "SHOW TBLPROPERTIES t");
  CHECK(tp2->prop_key == NULL);

  PARSE(cr, "SHOW CREATE TABLE db.t");
  CHECK_INT(cr->kind, HL_STMT_SHOW_CREATE_TABLE);
  CHECK_STR(cr->table.name, "t");

  PARSE(sp, "SHOW PARTITIONS t PARTITION (dt='x')");
  CHECK_INT(sp->kind, HL_STMT_SHOW_PARTITIONS);
  CHECK(sp->part_spec != NULL);
  CHECK_INT(sp->part_spec->n, 1);
  PARSE(sp2, "SHOW PARTITIONS t");
  CHECK(sp2->part_spec == NULL);

  PARSE(d, "DESCRIBE FORMATTED db.t PARTITION (dt='2024') col1");
  CHECK_INT(d->kind, HL_STMT_DESCRIBE);
  CHECK_INT(d->describe_mode, 2);
  CHECK_STR(d->table.db, "db");
  CHECK(d->part_spec != NULL);
  CHECK_STR(d->describe_column, "col1");
  PARSE(d2, "DESC EXTENDED t");
  CHECK_INT(d2->describe_mode, 1);
  CHECK(d2->describe_column == NULL);
  PARSE(d3, "describe extended"); /* a table named "extended" */
  CHECK_INT(d3->describe_mode, 0);
  CHECK_STR(d3->table.name, "extended");

  PARSE(m, "MSCK REPAIR TABLE db.t SYNC PARTITIONS");
  CHECK_INT(m->kind, HL_STMT_MSCK);
  CHECK(m->msck_repair);
  CHECK_INT(m->msck_mode, 2);
  PARSE(m2, "MSCK TABLE t");
  CHECK(!m2->msck_repair);
  CHECK_INT(m2->msck_mode, 0);
  PARSE(m3, "msck repair table t drop partitions");
  CHECK_INT(m3->msck_mode, 1);

  PARSE(l, "LOAD DATA LOCAL INPATH '/tmp/x.txt' OVERWRITE INTO TABLE db.t PARTITION (dt='a')");
  CHECK_INT(l->kind, HL_STMT_LOAD_DATA);
  CHECK(l->load_local);
  CHECK(l->load_overwrite);
  CHECK_STR(l->load_path, "/tmp/x.txt");
  CHECK_STR(l->table.name, "t");
  CHECK(l->part_spec != NULL);
  PARSE(l2, "load data inpath 'p' into table t");
  CHECK(!l2->load_local);
  CHECK(!l2->load_overwrite);
  CHECK(l2->part_spec == NULL);
}

TEST(set_reset) {
  size_t used;
  const char *sql = "SET hive.exec.dynamic.partition.mode = nonstrict ;SELECT 1";
  hl_ast_stmt_t *st = parse_sql(sql, &used);
  CHECK(st != NULL);
  if (!st) return;
  CHECK_INT(st->kind, HL_STMT_SET);
  CHECK_STR(st->set_key, "hive.exec.dynamic.partition.mode");
  CHECK_STR(st->set_value, "nonstrict");
  CHECK_INT(used, 50);
  CHECK_INT(st->end_pos, 48);

  PARSE(q, "set a.b='x;y' -- note\n");
  CHECK_STR(q->set_key, "a.b");
  CHECK_STR(q->set_value, "'x;y'");
  PARSE(bare, "SET");
  CHECK_INT(bare->kind, HL_STMT_SET);
  CHECK(bare->set_key == NULL);
  CHECK(bare->set_value == NULL);
  PARSE(one, "SET hive.x");
  CHECK_STR(one->set_key, "hive.x");
  CHECK(one->set_value == NULL);
  PARSE(empty, "SET k=");
  CHECK_STR(empty->set_value, "");
  PARSE(r, "RESET");
  CHECK_INT(r->kind, HL_STMT_RESET);
  CHECK(r->set_key == NULL);
  CHECK_ERROR("SET = 1", "syntax error at or near \"=\"", 4);
  CHECK_ERROR("SET a='x", "unterminated quoted string", 6);
}

TEST(multiple_statements) {
  const char *sql = "  -- leading\n;; SELECT 1; /* c; */ SELECT 'a;b' ; \n  ";
  size_t len = strlen(sql), off = 0, used = 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t *st = NULL;
  CHECK_INT(hl_sql_parse(arena, sql, len, &st, &used, &err), HL_OK);
  CHECK(st != NULL && st->kind == HL_STMT_SELECT);
  CHECK_INT(used, 25);
  if (st) CHECK_INT(st->pos, 16);
  off += used;
  CHECK_INT(hl_sql_parse(arena, sql + off, len - off, &st, &used, &err), HL_OK);
  CHECK(st != NULL);
  if (st) CHECK_STR(st->select->items[0].expr->text, "a;b");
  CHECK_INT(off + used, 49);
  off += used;
  CHECK_INT(hl_sql_parse(arena, sql + off, len - off, &st, &used, &err), HL_OK);
  CHECK(st == NULL);
  CHECK_INT(off + used, len);

  CHECK_INT(hl_sql_parse(arena, "", 0, &st, &used, &err), HL_OK);
  CHECK(st == NULL);
  CHECK_INT(used, 0);

  /* an error still reports how far the failed statement reaches */
  const char *bad = "SELECT FROM t; SELECT 2";
  CHECK_INT(hl_sql_parse(arena, bad, strlen(bad), &st, &used, &err), HL_ERROR);
  CHECK_INT(used, 14);
  hl_err_clear(&err);

  /* the text need not be NUL-terminated: only LEN bytes are read */
  char buf[8];
  memcpy(buf, "SELECT 9", 8);
  CHECK_INT(hl_sql_parse(arena, buf, 8, &st, &used, &err), HL_OK);
  CHECK(st != NULL);
  if (st) CHECK_STR(st->select->items[0].expr->text, "9");
}

/* ------------------------------------------------------------- errors */

TEST(parameters) {
  CHECK_STR(expr_str("? + ? * ?"), "(+ $1 (* $2 $3))");
  CHECK_STR(expr_str("$2 = a AND $1 IN ($2, $10)"), "(AND (= $2 a) (IN $1 $2 $10))");
  hl_ast_stmt_t *st = parse_sql("SELECT a FROM t WHERE dt = ? AND b BETWEEN ? AND ? LIMIT ?", NULL);
  CHECK(st != NULL);
  if (st) {
    CHECK_INT(st->n_params, 4);
    CHECK(st->select->has_limit);
    CHECK_INT(st->select->limit_param, 4);
    CHECK_INT(st->select->offset_param, 0);
  }
  st = parse_sql("SELECT a FROM t LIMIT $2 OFFSET $1", NULL);
  CHECK(st && st->n_params == 2 && st->select->limit_param == 2 && st->select->offset_param == 1);
  st = parse_sql("SELECT a FROM t LIMIT ?, 5", NULL);
  CHECK(st && st->select->offset_param == 1 && st->select->limit_param == 0 &&
        st->select->limit == 5);
  st = parse_sql("INSERT INTO t VALUES ($3, 'x', $1)", NULL);
  CHECK(st && st->n_params == 3);
  st = parse_sql("SELECT 1", NULL);
  CHECK(st && st->n_params == 0);
  CHECK_ERROR("SELECT ? + $1", "a statement cannot use both ? and $n parameters", 11);
  CHECK_ERROR("SELECT $1 + ?", "a statement cannot use both ? and $n parameters", 12);
  check_error_at(__LINE__, "SELECT $0", HL_ERROR, "42P02", "there is no parameter $0", 7);
  check_error_at(__LINE__, "SELECT $65536", HL_ERROR, "42P02", "there is no parameter $65536", 7);
  check_error_at(__LINE__, "SELECT $99999999999999999999", HL_ERROR, "42P02",
                 "there is no parameter $99999999999999999999", 7);
  CHECK_ERROR("SELECT $", "syntax error at or near \"$\"", 7);
  CHECK_ERROR("SELECT $x", "syntax error at or near \"$\"", 7);
}

TEST(syntax_errors) {
  CHECK_ERROR("SELECT 'abc", "unterminated quoted string", 7);
  CHECK_ERROR("SELECT \"a\\\"", "unterminated quoted string", 7);
  CHECK_ERROR("SELECT `abc", "unterminated quoted identifier", 7);
  CHECK_ERROR("SELECT 1 /* x", "unterminated /* comment", 9);
  CHECK_ERROR("SELECT ``", "zero-length quoted identifier", 7);
  CHECK_ERROR("SELECT (1 + 2", "expected \")\" but found end of input", 13);
  CHECK_ERROR("SELECT f(1, 2 FROM t", "expected \")\" but found \"FROM\"", 14);
  CHECK_ERROR("SELECT FROM t", "syntax error at or near \"FROM\"", 7);
  CHECK_ERROR("SELECT a FROM", "syntax error at end of input", 13);
  CHECK_ERROR("SELECT a FROM t WHERE;", "syntax error at or near \";\"", 21);
  CHECK_ERROR("SELECT 1 2", "syntax error at or near \"2\"", 9);
  CHECK_ERROR("SELECT a FROM t garbage more", "syntax error at or near \"more\"", 24);
  CHECK_ERROR("FOO bar", "syntax error at or near \"FOO\"", 0);
  CHECK_ERROR("SELECT 12abc", "syntax error at or near \"12abc\"", 7);
  CHECK_ERROR("SELECT a @ b", "syntax error at or near \"@\"", 9);
  CHECK_ERROR("SELECT \xc3\xa9", "syntax error at or near \"\xc3\xa9\"", 7);
  CHECK_ERROR("SELECT CASE END", "syntax error at or near \"END\"", 12);
  CHECK_ERROR("SELECT a LIMIT -1", "syntax error at or near \"-\"", 15);
  CHECK_ERROR("CREATE TABLE t (a int", "expected \")\" but found end of input", 21);
  CHECK_ERROR("CREATE TABLE t (a int) STORED AS foo", "unknown file format \"FOO\"", 33);
  CHECK_ERROR("CREATE TABLE t (a int) LOCATION '/x' COMMENT 'late'",
              "syntax error at or near \"COMMENT\"", 37);
  CHECK_ERROR("ALTER TABLE t ADD PARTITION (dt < '1')", "syntax error at or near \"<\"", 32);
  CHECK_ERROR("ALTER TABLE t FROB", "syntax error at or near \"FROB\"", 14);
  CHECK_ERROR("SHOW COLUMNS FROM a.t IN b", "table name \"a.t\" conflicts with database \"b\"", 25);
  CHECK_ERROR("DROP TABLE", "syntax error at end of input", 10);
  check_error_at(__LINE__, "CREATE TABLE t (a DECIMAL(50,2))", HL_ERROR, "42611",
                 "decimal precision 50 is out of range [1, 38]", 26);
  check_error_at(__LINE__, "CREATE TABLE t (a foo)", HL_ERROR, "42704", "unknown type \"foo\"", 18);
  check_error_at(__LINE__, "SELECT a FROM t LIMIT 99999999999999999999", HL_ERROR, "22003",
                 "LIMIT value \"99999999999999999999\" is out of range", 22);
  check_error_at(__LINE__, "CREATE TABLE t (a int) CLUSTERED BY (a) INTO 0 BUCKETS", HL_ERROR,
                 "42P16", "number of buckets must be positive", 45);

  CHECK_ERROR("CREATE TABLE t (a int) LOCATION /x", "expected string literal but found \"/\"", 32);
  check_error_at(__LINE__, "SELECT CAST(a AS decimal(40))", HL_ERROR, "42611",
                 "decimal precision 40 is out of range [1, 38]", 25);
  CHECK_ERROR("SELECT a FROM t ORDER a", "syntax error at or near \"a\"", 22);
  CHECK_ERROR("SELECT a NOT b", "syntax error at or near \"NOT\"", 9);

  /* nesting is bounded */
  char deep[2000];
  memset(deep, 0, sizeof deep);
  strcpy(deep, "SELECT ");
  for (int i = 0; i < 600; i++)
    strcat(deep, "(");
  check_error_at(__LINE__, deep, HL_ERROR, "54001", "statement is nested too deeply", 206);
}

TEST(queries) {
  PARSE(j, "SELECT a FROM t JOIN u ON t.a = u.a LEFT OUTER JOIN v USING (a, b), w x "
           "LEFT SEMI JOIN y ON x.k = y.k");
  hl_ast_from_t *f = j->select->from_item;
  CHECK(j->select->from == NULL);
  CHECK_INT(f->kind, HL_FROM_JOIN);
  CHECK_INT(f->join_type, HL_JOIN_LEFT_SEMI);
  CHECK_STR(f->right->table.name, "y");
  CHECK_INT(f->left->join_type, HL_JOIN_CROSS);
  CHECK_STR(f->left->right->alias, "x");
  CHECK_INT(f->left->left->join_type, HL_JOIN_LEFT);
  CHECK_INT(f->left->left->n_using, 2);
  CHECK_STR(f->left->left->using_cols[1], "b");
  CHECK_INT(f->left->left->left->join_type, HL_JOIN_INNER);
  CHECK_INT(f->left->left->left->pos, 16);
  CHECK_STR(f->left->left->left->left->table.name, "t");

  PARSE(sq, "WITH x AS (SELECT 1 a), y AS (SELECT 2) SELECT * FROM (SELECT a FROM x) s "
            "WHERE a IN (SELECT 1) AND EXISTS (SELECT 2) AND a = (SELECT max(a) FROM x)");
  CHECK_INT(sq->select->n_ctes, 2);
  CHECK_STR(sq->select->ctes[1].name, "y");
  CHECK_INT(sq->select->from_item->kind, HL_FROM_SUBQUERY);
  CHECK_STR(sq->select->from_item->alias, "s");
  CHECK_STR(expr_str("a IN (SELECT 1) AND NOT EXISTS (SELECT 2) AND a = (SELECT 3)"),
            "(AND (AND (IN a (query)) (NOT (EXISTS (query)))) (= a (query)))");

  PARSE(u, "SELECT 1 UNION SELECT 2 UNION ALL (SELECT 3 ORDER BY 1 LIMIT 1) EXCEPT SELECT 4 "
           "ORDER BY 1 DESC LIMIT 2");
  hl_ast_select_t *top = u->select;
  CHECK_INT(top->setop, HL_SETOP_EXCEPT);
  CHECK_INT(top->n_order_by, 1);
  CHECK(top->has_limit);
  CHECK_INT(top->set_left->setop, HL_SETOP_UNION_ALL);
  CHECK_INT(top->set_left->set_left->setop, HL_SETOP_UNION);
  CHECK(top->set_left->set_right->has_limit);

  PARSE(sb, "SELECT a FROM t DISTRIBUTE BY a SORT BY b DESC");
  CHECK_INT(sb->select->n_order_by, 1);
  CHECK(sb->select->order_by[0].descending);
  PARSE(cb, "SELECT a FROM t CLUSTER BY a");
  CHECK_INT(cb->select->n_order_by, 1);
  CHECK_UNSUPPORTED("SELECT 1 INTERSECT ALL SELECT 1",
                    "INTERSECT ALL and EXCEPT ALL is not supported yet", 9);
}

/* CREATE/ALTER/DROP VIEW, LATERAL VIEW, TABLESAMPLE, EXCHANGE PARTITION,
 * SHOW TABLE EXTENDED (the statements and FROM forms of cmd_view.c,
 * op_lateral.c, cmd_exchange.c and cmd_show_ext.c). */
TEST(views_lateral_sample) {
  PARSE(cv, "CREATE VIEW IF NOT EXISTS d.v (a COMMENT 'x', b) COMMENT 'c' "
            "TBLPROPERTIES ('k'='v') AS SELECT x, y FROM t");
  CHECK_INT(cv->kind, HL_STMT_CREATE_VIEW);
  CHECK(cv->create_view->if_not_exists);
  CHECK(!cv->create_view->alter);
  CHECK_STR(cv->create_view->name.db, "d");
  CHECK_INT(cv->create_view->n_cols, 2);
  CHECK_STR(cv->create_view->cols[0].comment, "x");
  CHECK_STR(cv->create_view->comment, "c");
  CHECK_INT(cv->create_view->tblprops.n, 1);
  CHECK_STR(cv->create_view->query_text, "SELECT x, y FROM t");
  CHECK_INT(cv->create_view->query_pos, 88);
  PARSE(av, "ALTER VIEW v AS (SELECT 1) UNION ALL SELECT 2");
  CHECK_INT(av->kind, HL_STMT_CREATE_VIEW);
  CHECK(av->create_view->alter);
  CHECK_STR(av->create_view->query_text, "(SELECT 1) UNION ALL SELECT 2");
  PARSE(rv, "ALTER VIEW d.v RENAME TO e.w");
  CHECK_INT(rv->kind, HL_STMT_ALTER_VIEW);
  CHECK_INT(rv->alter_table->kind, HL_ALTER_RENAME);
  CHECK_STR(rv->alter_table->name.db, "d");
  CHECK_STR(rv->alter_table->new_name.db, "e");
  CHECK_STR(rv->alter_table->new_name.name, "w");
  PARSE(sv, "ALTER VIEW v SET TBLPROPERTIES ('a'='b', 'c'='d')");
  CHECK_INT(sv->kind, HL_STMT_ALTER_VIEW);
  CHECK_INT(sv->alter_table->kind, HL_ALTER_SET_TBLPROPS);
  CHECK_INT(sv->alter_table->props.n, 2);
  PARSE(uv, "ALTER VIEW v UNSET TBLPROPERTIES IF EXISTS ('a', 'c')");
  CHECK_INT(uv->kind, HL_STMT_ALTER_VIEW);
  CHECK_INT(uv->alter_table->kind, HL_ALTER_UNSET_TBLPROPS);
  CHECK(uv->alter_table->if_exists);
  CHECK_INT(uv->alter_table->n_keys, 2);
  PARSE(sc, "SHOW SORTED COLUMNS IN t LIKE 'a*'");
  CHECK_INT(sc->kind, HL_STMT_SHOW_COLUMNS);
  CHECK(sc->show_sorted);
  CHECK_STR(sc->like_pattern, "a*");
  PARSE(dv, "DROP VIEW IF EXISTS db.v");
  CHECK_INT(dv->kind, HL_STMT_DROP_VIEW);
  CHECK(dv->if_exists);
  CHECK_STR(dv->table.name, "v");

  PARSE(lv, "SELECT * FROM t a LATERAL VIEW OUTER explode(m) x AS k, v "
            "LATERAL VIEW posexplode(arr) y");
  hl_ast_from_t *f = lv->select->from_item;
  CHECK_INT(f->kind, HL_FROM_LATERAL);
  CHECK_STR(f->alias, "y");
  CHECK(!f->lateral_outer);
  CHECK_INT(f->n_lateral_cols, 0);
  CHECK_STR(f->lateral_func->name, "posexplode");
  CHECK_INT(f->left->kind, HL_FROM_LATERAL);
  CHECK(f->left->lateral_outer);
  CHECK_INT(f->left->n_lateral_cols, 2);
  CHECK_STR(f->left->lateral_cols[1], "v");
  CHECK_INT(f->left->left->kind, HL_FROM_TABLE);
  CHECK_STR(f->left->left->alias, "a");
  CHECK(lv->select->from == NULL);
  CHECK_ERROR("SELECT * FROM t LATERAL VIEW explode(a) AS c", "syntax error at or near \"AS\"", 40);

  PARSE(ts, "SELECT * FROM src TABLESAMPLE (10 ROWS) s");
  CHECK(ts->select->from_item->has_sample);
  CHECK_INT(ts->select->from_item->sample_rows, 10);
  CHECK_STR(ts->select->from_item->alias, "s");
  CHECK_UNSUPPORTED("SELECT * FROM t TABLESAMPLE (BUCKET 1 OUT OF 2 ON a)",
                    "TABLESAMPLE (BUCKET x OUT OF y) is not supported yet", 16);
  CHECK_UNSUPPORTED("SELECT * FROM t TABLESAMPLE (5 PERCENT)",
                    "TABLESAMPLE (n PERCENT) is not supported yet", 16);

  PARSE(ex, "ALTER TABLE a.t1 EXCHANGE PARTITION (ds='1') WITH TABLE b.t2");
  CHECK_INT(ex->alter_table->kind, HL_ALTER_EXCHANGE_PARTITION);
  CHECK_INT(ex->alter_table->n_part_specs, 1);
  CHECK_STR(ex->alter_table->part_specs[0].items[0].key, "ds");
  CHECK_STR(ex->alter_table->new_name.db, "b");
  CHECK_STR(ex->alter_table->new_name.name, "t2");

  PARSE(se, "SHOW TABLE EXTENDED IN d LIKE 'x*' PARTITION (ds='1')");
  CHECK_INT(se->kind, HL_STMT_SHOW_TABLE_EXTENDED);
  CHECK_STR(se->db_name, "d");
  CHECK_STR(se->like_pattern, "x*");
  CHECK(se->part_spec != NULL);
  CHECK_ERROR("SHOW TABLE EXTENDED t", "expected \"LIKE\" but found \"t\"", 20);
}

/* Doris's catalog statements and three-part names (cmd_catalog.c runs them). */
TEST(catalog_statements) {
  PARSE(c, "CREATE CATALOG IF NOT EXISTS Hive COMMENT 'c' PROPERTIES ('type'='hms', "
           "'hive.metastore.uris'='thrift://h:1')");
  CHECK_INT(c->kind, HL_STMT_CREATE_CATALOG);
  CHECK(c->if_not_exists);
  CHECK_STR(c->catalog_name, "hive");
  CHECK_INT(c->catalog_pos, 29);
  CHECK_STR(c->comment, "c");
  CHECK_INT(c->props.n, 2);
  CHECK_STR(c->props.items[1].value, "thrift://h:1");
  PARSE(d, "DROP CATALOG IF EXISTS h");
  CHECK_INT(d->kind, HL_STMT_DROP_CATALOG);
  CHECK(d->if_exists);
  PARSE(a, "ALTER CATALOG h RENAME `H2`");
  CHECK_INT(a->kind, HL_STMT_ALTER_CATALOG);
  CHECK_INT(a->alter_catalog, HL_ALTER_CATALOG_RENAME);
  CHECK_STR(a->new_catalog_name, "h2");
  PARSE(a2, "ALTER CATALOG h SET PROPERTIES ('k'='v')");
  CHECK_INT(a2->alter_catalog, HL_ALTER_CATALOG_SET_PROPS);
  CHECK_INT(a2->props.n, 1);
  PARSE(a3, "ALTER CATALOG h MODIFY COMMENT 'x'");
  CHECK_INT(a3->alter_catalog, HL_ALTER_CATALOG_COMMENT);
  CHECK_STR(a3->comment, "x");
  PARSE(sc, "SHOW CATALOGS LIKE 'h%'");
  CHECK_INT(sc->kind, HL_STMT_SHOW_CATALOGS);
  CHECK_STR(sc->like_pattern, "h%");
  PARSE(scc, "SHOW CREATE CATALOG h");
  CHECK_INT(scc->kind, HL_STMT_SHOW_CREATE_CATALOG);
  CHECK_STR(scc->catalog_name, "h");
  PARSE(sw, "SWITCH h");
  CHECK_INT(sw->kind, HL_STMT_SWITCH);
  CHECK_STR(sw->catalog_name, "h");
  PARSE(u, "USE H.Sales");
  CHECK_INT(u->kind, HL_STMT_USE);
  CHECK_STR(u->catalog_name, "h");
  CHECK_STR(u->db_name, "sales");
  CHECK_INT(u->db_pos, 6);
  PARSE(u2, "USE sales");
  CHECK(u2->catalog_name == NULL);
  PARSE(sd, "SHOW DATABASES FROM h");
  CHECK_STR(sd->catalog_name, "h");
  PARSE(st, "SHOW TABLES FROM h.s");
  CHECK_STR(st->catalog_name, "h");
  CHECK_STR(st->db_name, "s");
  PARSE(r1, "REFRESH CATALOG h");
  CHECK_INT(r1->kind, HL_STMT_REFRESH);
  CHECK_INT(r1->refresh_what, HL_REFRESH_CATALOG);
  PARSE(r2, "REFRESH DATABASE h.s");
  CHECK_INT(r2->refresh_what, HL_REFRESH_DATABASE);
  CHECK_STR(r2->catalog_name, "h");
  PARSE(r3, "REFRESH TABLE h.s.t");
  CHECK_INT(r3->refresh_what, HL_REFRESH_TABLE);
  CHECK_STR(r3->table.catalog, "h");
  CHECK_STR(r3->table.db, "s");
  CHECK_STR(r3->table.name, "t");
  PARSE(q, "SELECT x.a FROM Hive.s.t x JOIN s.u ON x.a = u.a");
  const hl_ast_from_t *j = q->select->from_item;
  CHECK(j && j->left && j->right);
  if (j && j->left && j->right) {
    CHECK_STR(j->left->table.catalog, "hive");
    CHECK_STR(j->left->table.db, "s");
    CHECK_STR(j->left->table.name, "t");
    CHECK(j->right->table.catalog == NULL);
    CHECK_STR(j->right->table.db, "s");
  }
  PARSE(i, "INSERT INTO c.d.t SELECT 1");
  CHECK_STR(i->inserts[0].table.catalog, "c");
  CHECK_ERROR("SELECT * FROM a.b.c.d", "syntax error at or near \".\"", 19);
  CHECK_ERROR("SWITCH", "syntax error at end of input", 6);
  CHECK_ERROR("REFRESH VIEW v", "syntax error at or near \"VIEW\"", 8);
  CHECK_UNSUPPORTED("CREATE CATALOG c WITH RESOURCE r",
                    "CREATE CATALOG ... WITH RESOURCE is not supported yet", 17);
  CHECK_UNSUPPORTED("REFRESH TABLE t PROPERTIES ('a'='b')",
                    "REFRESH ... PROPERTIES is not supported yet", 16);
  CHECK_UNSUPPORTED("REFRESH MATERIALIZED VIEW v", "REFRESH MATERIALIZED VIEW is not supported yet",
                    0);
}

TEST(checkpoint_statements) {
  PARSE(a, "SHOW CHECKPOINTS");
  CHECK_INT(a->kind, HL_STMT_SHOW_CHECKPOINTS);
  CHECK(a->table.name == NULL);
  PARSE(b, "show checkpoints for c.d.T");
  CHECK_INT(b->kind, HL_STMT_SHOW_CHECKPOINTS);
  CHECK_STR(b->table.catalog, "c");
  CHECK_STR(b->table.db, "d");
  CHECK_STR(b->table.name, "t");
  PARSE(c, "DROP CHECKPOINT IF EXISTS 'Daily' FOR t");
  CHECK_INT(c->kind, HL_STMT_DROP_CHECKPOINT);
  CHECK(c->if_exists);
  CHECK_STR(c->checkpoint_name, "Daily"); /* case kept */
  CHECK_INT(c->checkpoint_pos, 26);
  CHECK_STR(c->table.name, "t");
  PARSE(d, "DROP CHECKPOINT 'x'");
  CHECK(!d->if_exists);
  CHECK(d->table.name == NULL);
  CHECK_STR(d->checkpoint_name, "x");
  check_error_at(__LINE__, "DROP CHECKPOINT x FOR t", HL_ERROR, "42601",
                 "expected a checkpoint name in quotes but found \"x\"", 16);
  check_error_at(__LINE__, "SHOW CHECKPOINTS FOR", HL_ERROR, "42601",
                 "syntax error at end of input", 20);
}

TEST(unsupported_statements) {
  CHECK_UNSUPPORTED("UPDATE t SET a = 1", "UPDATE is not supported yet", 0);
  CHECK_UNSUPPORTED("  merge into t", "MERGE is not supported yet", 2);
  CHECK_UNSUPPORTED("INSERT OVERWRITE DIRECTORY '/x' SELECT 1",
                    "INSERT OVERWRITE DIRECTORY is not supported yet", 17);
  CHECK_UNSUPPORTED("CREATE MATERIALIZED VIEW v AS SELECT 1",
                    "CREATE MATERIALIZED VIEW is not supported yet", 0);
  CHECK_UNSUPPORTED("CREATE TEMPORARY FUNCTION f AS 'x'",
                    "CREATE TEMPORARY FUNCTION is not supported yet", 0);
  CHECK_UNSUPPORTED("ALTER VIEW v ADD PARTITION (p='1')", "ALTER VIEW ADD is not supported yet", 0);
  CHECK_UNSUPPORTED("ALTER VIEW v SET OWNER USER u", "ALTER VIEW SET OWNER is not supported yet",
                    0);
  CHECK_UNSUPPORTED("ALTER DATABASE d SET LOCATION 'x'",
                    "ALTER DATABASE SET LOCATION is not supported yet", 0);
  CHECK_UNSUPPORTED("SET ROLE admin", "SET ROLE is not supported yet", 0);
  CHECK_UNSUPPORTED("CREATE TABLE t (a int NOT NULL)", "a column constraint is not supported yet",
                    22);
  CHECK_UNSUPPORTED("SHOW ROLES", "SHOW ROLES is not supported yet", 0);
  CHECK_UNSUPPORTED("SELECT rank() OVER w FROM t", "a named window is not supported yet", 19);
  CHECK_UNSUPPORTED("EXPLAIN EXTENDED SELECT 1", "EXPLAIN EXTENDED is not supported yet", 0);
  CHECK_UNSUPPORTED("EXPLAIN DROP TABLE t", "EXPLAIN is supported only for SELECT", 8);
  CHECK_UNSUPPORTED("ALTER TABLE t ARCHIVE PARTITION (p=1)",
                    "ALTER TABLE ARCHIVE is not supported yet", 14);
  CHECK_UNSUPPORTED("CREATE TABLE t (a int) SKEWED BY (a) ON (1)", "SKEWED BY is not supported yet",
                    23);
}

/* --------------------------------------------------------- robustness */

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

TEST(random_inputs_do_not_crash) {
  static const char *const seeds[] = {
      "SELECT a, b + 1 AS c FROM db.t x WHERE a BETWEEN 1 AND 2 AND b LIKE 'x%' "
      "GROUP BY a HAVING count(*) > 1 ORDER BY a DESC NULLS LAST LIMIT 5 OFFSET 2;",
      "CREATE EXTERNAL TABLE IF NOT EXISTS t (a int COMMENT 'c', m map<string,array<int>>) "
      "PARTITIONED BY (dt string) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\001' "
      "STORED AS PARQUET LOCATION '/x' TBLPROPERTIES ('a'='b')",
      "ALTER TABLE t DROP IF EXISTS PARTITION (dt < '2024', hr >= -3), PARTITION (x='y') PURGE",
      "SELECT CASE WHEN a IS NOT NULL THEN CAST(a AS decimal(10,2)) ELSE -1.5e3 END, "
      "`q``x`, \"s\\u00e9\\001\" 'more' FROM t /* c */ -- d\n",
      "SET hive.exec.dynamic.partition.mode=nonstrict; RESET; SHOW TABLES IN db LIKE 'a*'",
      "LOAD DATA LOCAL INPATH '/p' OVERWRITE INTO TABLE t PARTITION (dt=DATE '2024-01-01')",
      "DESCRIBE FORMATTED db.t PARTITION (dt='x') col; MSCK REPAIR TABLE t SYNC PARTITIONS",
  };
  static const char alphabet[] = "()'\"`;,.=<>!|*-/+%&^~:[] \n\\0123456789aZ_\x80\xff";
  uint64_t state = 0x9E3779B97F4A7C15ull;
  char buf[512];
  int failures_before = test_failures;
  for (int iter = 0; iter < 6000 && test_failures == failures_before; iter++) {
    const char *seed = seeds[iter % (sizeof seeds / sizeof seeds[0])];
    size_t n = strlen(seed);
    if (n > sizeof buf) n = sizeof buf;
    memcpy(buf, seed, n);
    int edits = 1 + (int)(rng_next(&state) % 6);
    for (int e = 0; e < edits && n > 0; e++) {
      size_t at = (size_t)(rng_next(&state) % n);
      switch (rng_next(&state) % 4) {
      case 0: /* replace a byte */
        buf[at] = alphabet[rng_next(&state) % (sizeof alphabet - 1)];
        break;
      case 1: /* truncate */
        n = at;
        break;
      case 2: /* delete a byte */
        memmove(buf + at, buf + at + 1, n - at - 1);
        n--;
        break;
      default: /* random byte anywhere */
        buf[at] = (char)(rng_next(&state) & 0xFF);
        break;
      }
    }
    /* parse every statement of the mutated text, checking positions */
    size_t off = 0;
    for (int guard = 0; guard < 64 && off < n; guard++) {
      hl_error_t err;
      hl_err_init(&err);
      hl_ast_stmt_t *st = NULL;
      size_t used = 0;
      hl_status_t rc = hl_sql_parse(arena, buf + off, n - off, &st, &used, &err);
      test_checks++;
      if (rc != HL_OK && (err.position < 0 || err.position > (long)(n - off) || !err.message)) {
        test_failures++;
        fprintf(stderr, "bad error position %ld (len %zu): %s\n", err.position, n - off,
                err.message ? err.message : "(null)");
      }
      if (rc == HL_OK && st && (st->pos < 0 || st->end_pos > (long)(n - off))) {
        test_failures++;
        fprintf(stderr, "bad statement span %ld..%ld\n", st->pos, st->end_pos);
      }
      if (used > n - off || (used == 0 && rc != HL_OK && n - off > 0)) {
        test_failures++;
        fprintf(stderr, "bad consumed %zu of %zu\n", used, n - off);
      }
      hl_err_clear(&err);
      if (used == 0) break;
      off += used;
    }
    hl_arena_reset(arena);
  }
}

TEST(line_col_and_large_input) {
  int line = 0, col = 0;
  const char *sql = "SELECT a\n  FROM t\nWHERE";
  hl_sql_line_col(sql, 0, &line, &col);
  CHECK_INT(line, 1);
  CHECK_INT(col, 1);
  hl_sql_line_col(sql, 11, &line, &col); /* the F of FROM */
  CHECK_INT(line, 2);
  CHECK_INT(col, 3);
  hl_sql_line_col(sql, 23, &line, &col); /* end of text */
  CHECK_INT(line, 3);
  CHECK_INT(col, 6);

  /* 100,000 adjacent literals: linear time and space */
  size_t n = 100000;
  char *big = malloc(7 + n * 4 + 1);
  CHECK(big != NULL);
  if (!big) return;
  memcpy(big, "SELECT ", 7);
  for (size_t i = 0; i < n; i++)
    memcpy(big + 7 + i * 4, "'a' ", 4);
  big[7 + n * 4] = '\0';
  hl_arena_reset(arena);
  PARSE(st, big);
  CHECK_INT(st->select->items[0].expr->text_len, n);
  CHECK(hl_arena_used(arena) < 4 * n * 4);
  free(big);
}

/* Failing the Nth allocation ends in HL_OK or a clean HL_NOMEM, never a
 * crash (leaks would be reported by the sanitizer build). */
TEST(allocation_failures) {
  const char *sql = "CREATE TABLE db.t (a int COMMENT 'x', m map<string,array<int>>) "
                    "PARTITIONED BY (dt string) STORED AS ORC TBLPROPERTIES ('k'='v'); "
                    "SELECT a, count(DISTINCT b) FROM t WHERE a IN (1, 2, 3) AND b LIKE 'x' "
                    "GROUP BY a ORDER BY a LIMIT 1";
  int saw_nomem = 0, saw_ok = 0;
  for (long n = 1; n < 400; n++) {
    hl_arena_t *a = hl_arena_create(256); /* small blocks: many allocations */
    if (!a) continue;
    hl_error_t err;
    hl_err_init(&err);
    hl_ast_stmt_t *st = NULL;
    size_t used = 0;
    hl_mem_fail_after(n);
    hl_status_t rc = hl_sql_parse(a, sql, strlen(sql), &st, &used, &err);
    if (rc == HL_OK) rc = hl_sql_parse(a, sql + used, strlen(sql) - used, &st, &used, &err);
    hl_mem_fail_after(0);
    CHECK(rc == HL_OK || rc == HL_NOMEM);
    if (rc == HL_NOMEM) {
      saw_nomem++;
      CHECK_STR(err.sqlstate, "53200");
    } else {
      saw_ok++;
    }
    hl_err_clear(&err);
    hl_arena_destroy(a);
  }
  CHECK(saw_nomem > 0);
  CHECK(saw_ok > 0);
}

int main(void) {
  arena = hl_arena_create(0);
  RUN(lexer_tokens);
  RUN(string_escapes);
  RUN(standard_strings);
  RUN(expression_precedence);
  RUN(expression_primaries);
  RUN(select_full);
  RUN(database_statements);
  RUN(create_table_full);
  RUN(drop_alter_table);
  RUN(alter_partitions);
  RUN(show_describe_misc);
  RUN(set_reset);
  RUN(multiple_statements);
  RUN(syntax_errors);
  RUN(queries);
  RUN(views_lateral_sample);
  RUN(catalog_statements);
  RUN(checkpoint_statements);
  RUN(unsupported_statements);
  RUN(line_col_and_large_input);
  RUN(parameters);
  RUN(allocation_failures);
  RUN(random_inputs_do_not_crash);
  hl_arena_destroy(arena);
  return test_report();
}
