/*
 * hms_filter.c -- the metastore's partition filter language
 * (hms_filter.h): a lexer, a recursive-descent parser with a depth cap
 * into a small tree in the caller's arena, binding to the partition keys,
 * and three-valued evaluation with the keys' types.
 *
 * BETWEEN and IN become ANDs and ORs of comparisons while parsing, as
 * Hive's parser builds them, so the evaluator knows only AND, OR, NOT,
 * comparisons and LIKE.  AND and OR are n-ary (a chain "a OR b OR ..." or
 * an IN list is one node), so the tree is no deeper than the nesting the
 * parser caps, and evaluation recurses no deeper either.
 */
#include "hms_server/hms_filter.h"

#include "util/type.h"
#include "util/value.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ the tree */

typedef enum { N_AND, N_OR, N_NOT, N_CMP, N_LIKE } node_kind_t;
typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_LIKE } op_t;

typedef struct node {
  node_kind_t kind;
  op_t op;            /* N_CMP */
  int key;            /* N_CMP, N_LIKE: index of the partition key */
  const char *lit;    /* N_CMP, N_LIKE: the literal's text */
  hl_value_t val;     /* N_CMP: the literal as a value of the key's type */
  struct node **kids; /* N_AND, N_OR: the operands; N_NOT: one */
  size_t n_kids;
} node_t;

/* How a key's values are compared. */
typedef struct key_info {
  const hl_type_t *type; /* the type values are read as */
  bool bytes;            /* strings: compared bytewise, not converted */
} key_info_t;

struct hl_hms_filter {
  node_t *root;
  key_info_t *keys;
  int n_keys;
};

/* ------------------------------------------------------------ the lexer */

typedef enum {
  T_END,
  T_IDENT,
  T_STRING,
  T_NUMBER,
  T_DATE,
  T_LPAREN,
  T_RPAREN,
  T_COMMA,
  T_OP, /* tok.op */
  T_AND,
  T_OR,
  T_NOT,
  T_BETWEEN,
  T_IN
} tok_kind_t;

typedef struct tok {
  tok_kind_t kind;
  op_t op;
  const char *text; /* T_IDENT, T_STRING (unescaped), T_NUMBER, T_DATE: NUL-terminated */
  size_t pos;       /* byte offset in the filter, for messages */
} tok_t;

typedef struct parser {
  const char *s;
  size_t len, p;
  tok_t tok; /* the current token */
  int depth;
  const hl_cat_column_t *keys;
  int n_keys;
  key_info_t *info;
  hl_arena_t *arena;
  hl_error_t *err;
} parser_t;

static hl_status_t syntax(parser_t *ps, const char *what) {
  if (ps->tok.kind == T_END)
    return hl_err_set(ps->err, HL_ERROR, HL_SS(SYNTAX_ERROR),
                      "partition filter: %s at the end of the filter", what);
  size_t n = ps->p - ps->tok.pos;
  if (n > 40) n = 40;
  return hl_err_set(ps->err, HL_ERROR, HL_SS(SYNTAX_ERROR),
                    "partition filter: %s at character %zu (\"%.*s\")", what, ps->tok.pos + 1,
                    (int)n, ps->s + ps->tok.pos);
}

static bool is_word(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

static bool digits_at(const char *s, size_t len, size_t p, size_t n) {
  if (p + n > len) return false;
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)s[p + i])) return false;
  return true;
}

/* yyyy-mm-dd at P, not followed by a word character. */
static bool date_at(const char *s, size_t len, size_t p) {
  return digits_at(s, len, p, 4) && p + 10 <= len && s[p + 4] == '-' &&
         digits_at(s, len, p + 5, 2) && s[p + 7] == '-' && digits_at(s, len, p + 8, 2) &&
         (p + 10 == len || !is_word(s[p + 10]));
}

static hl_status_t next(parser_t *ps) {
  const char *s = ps->s;
  size_t len = ps->len, p = ps->p;
  while (p < len && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\n'))
    p++;
  tok_t *t = &ps->tok;
  t->pos = p;
  t->text = NULL;
  if (p >= len) {
    t->kind = T_END;
    ps->p = p;
    return HL_OK;
  }
  char c = s[p];
  size_t start = p;
  if (c == '\'' || c == '"') {
    char *out = hl_arena_alloc(ps->arena, len - p + 1), *o = out;
    if (!out) return hl_err_nomem(ps->err);
    for (p++; p < len && s[p] != c; p++) {
      if (s[p] == '\\' && p + 1 < len) p++;
      *o++ = s[p];
    }
    if (p >= len) {
      ps->p = len;
      return syntax(ps, "unterminated string");
    }
    *o = 0;
    t->kind = T_STRING;
    t->text = out;
    ps->p = p + 1;
    return HL_OK;
  }
  if (c == '-' || isdigit((unsigned char)c)) {
    if (date_at(s, len, p)) {
      t->kind = T_DATE;
      p += 10;
    } else {
      size_t q = p + (c == '-');
      size_t d0 = q;
      while (q < len && isdigit((unsigned char)s[q]))
        q++;
      bool all_digits = q > d0 && (q == len || !is_word(s[q]));
      if (q > d0 && q < len && s[q] == '.' && digits_at(s, len, q + 1, 1)) {
        q++;
        while (q < len && isdigit((unsigned char)s[q]))
          q++;
        all_digits = q == len || !is_word(s[q]);
      }
      /* '-' starts only a number ("-0.5E" would make no progress as a word) */
      if (c == '-' && !all_digits) {
        ps->p = p + 1;
        return syntax(ps, "a number was expected after '-'");
      }
      if (all_digits) {
        t->kind = T_NUMBER;
        p = q;
      } else { /* "10abc": an identifier, as Hive's lexer takes the longest match */
        while (p < len && is_word(s[p]))
          p++;
        t->kind = T_IDENT;
      }
    }
    if (!(t->text = hl_arena_strndup(ps->arena, s + start, p - start)))
      return hl_err_nomem(ps->err);
    ps->p = p;
    return HL_OK;
  }
  if (isalpha((unsigned char)c)) {
    while (p < len && is_word(s[p]))
      p++;
    size_t n = p - start;
    static const struct {
      const char *w;
      tok_kind_t k;
    } kw[] = {{"and", T_AND}, {"or", T_OR},           {"not", T_NOT},
              {"in", T_IN},   {"between", T_BETWEEN}, {"like", T_OP}};
    t->kind = T_IDENT;
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
      if (strlen(kw[i].w) == n && strncasecmp(kw[i].w, s + start, n) == 0) t->kind = kw[i].k;
    if (t->kind == T_OP) t->op = OP_LIKE;
    if (!(t->text = hl_arena_strndup(ps->arena, s + start, n))) return hl_err_nomem(ps->err);
    ps->p = p;
    return HL_OK;
  }
  ps->p = p + 1;
  switch (c) {
  case '(':
    t->kind = T_LPAREN;
    return HL_OK;
  case ')':
    t->kind = T_RPAREN;
    return HL_OK;
  case ',':
    t->kind = T_COMMA;
    return HL_OK;
  case '=':
    t->kind = T_OP;
    t->op = OP_EQ;
    return HL_OK;
  case '!':
    if (p + 1 < len && s[p + 1] == '=') {
      ps->p = p + 2;
      t->kind = T_OP;
      t->op = OP_NE;
      return HL_OK;
    }
    break;
  case '<':
  case '>':
    t->kind = T_OP;
    if (p + 1 < len && s[p + 1] == '=') {
      ps->p = p + 2;
      t->op = c == '<' ? OP_LE : OP_GE;
    } else if (c == '<' && p + 1 < len && s[p + 1] == '>') {
      ps->p = p + 2;
      t->op = OP_NE;
    } else {
      t->op = c == '<' ? OP_LT : OP_GT;
    }
    return HL_OK;
  default:
    break;
  }
  t->kind = T_IDENT; /* for the message only */
  return syntax(ps, "unexpected character");
}

/* ------------------------------------------------------------ binding */

static hl_status_t bind_key(parser_t *ps, const char *name, int *out) {
  for (int i = 0; i < ps->n_keys; i++)
    if (strcasecmp(ps->keys[i].name, name) == 0) {
      *out = i;
      return HL_OK;
    }
  return hl_err_set(ps->err, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                    "partition filter: \"%s\" is not a partition key of the table", name);
}

/* Reads TEXT as a value of key KEY's type into *OUT; -1 when it is not one. */
static int read_value(const key_info_t *k, const char *text, hl_arena_t *arena, hl_value_t *out) {
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = hl_value_from_text(arena, k->type, text, strlen(text), out, &e);
  hl_err_clear(&e);
  return rc == HL_OK && !out->is_null ? 0 : -1;
}

static node_t *new_node(parser_t *ps, node_kind_t kind) {
  node_t *n = hl_arena_zalloc(ps->arena, sizeof *n);
  if (!n) hl_err_nomem(ps->err);
  if (n) n->kind = kind;
  return n;
}

static hl_status_t leaf(parser_t *ps, const char *key, op_t op, const char *lit, node_t **out) {
  int k = 0;
  hl_status_t rc = bind_key(ps, key, &k);
  if (rc) return rc;
  /* matching costs pattern length times value length per partition */
  if (op == OP_LIKE && strlen(lit) > HL_HMS_FILTER_MAX_LIKE)
    return hl_err_set(ps->err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "partition filter: LIKE pattern longer than %d bytes",
                      HL_HMS_FILTER_MAX_LIKE);
  node_t *n = new_node(ps, op == OP_LIKE ? N_LIKE : N_CMP);
  if (!n) return HL_NOMEM;
  n->op = op;
  n->key = k;
  n->lit = lit;
  const key_info_t *ki = &ps->info[k];
  if (op != OP_LIKE && !ki->bytes && read_value(ki, lit, ps->arena, &n->val))
    return hl_err_set(ps->err, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                      "partition filter: '%s' is not a value of type %s (partition key \"%s\")",
                      lit, ps->keys[k].type, ps->keys[k].name);
  *out = n;
  return HL_OK;
}

/* A node of KIND over the N nodes KIDS[0..n) (copied). */
static hl_status_t make(parser_t *ps, node_kind_t kind, node_t **kids, size_t n, node_t **out) {
  if (n == 1 && kind != N_NOT) {
    *out = kids[0];
    return HL_OK;
  }
  node_t *node = new_node(ps, kind);
  if (!node || !(node->kids = hl_arena_alloc(ps->arena, sizeof *kids * n)))
    return hl_err_nomem(ps->err);
  memcpy(node->kids, kids, sizeof *kids * n);
  node->n_kids = n;
  *out = node;
  return HL_OK;
}

/* A growing list of operands in the arena (doubling: linear in total). */
typedef struct kids {
  node_t **v;
  size_t n, cap;
} kids_t;

static hl_status_t push(parser_t *ps, kids_t *k, node_t *n) {
  if (k->n == k->cap) {
    size_t cap = k->cap ? k->cap * 2 : 4;
    node_t **v = hl_arena_alloc(ps->arena, sizeof *v * cap);
    if (!v) return hl_err_nomem(ps->err);
    if (k->n) memcpy(v, k->v, sizeof *v * k->n);
    k->v = v;
    k->cap = cap;
  }
  k->v[k->n++] = n;
  return HL_OK;
}

/* ------------------------------------------------------------ the parser */

static hl_status_t parse_or(parser_t *ps, node_t **out);

static bool is_lit(const tok_t *t) {
  return t->kind == T_STRING || t->kind == T_NUMBER || t->kind == T_DATE;
}

/* A literal (the current token) into *TEXT; DATE 'yyyy-mm-dd' too. */
static hl_status_t parse_lit(parser_t *ps, const char **text) {
  hl_status_t rc;
  if (ps->tok.kind == T_IDENT && strcasecmp(ps->tok.text, "date") == 0) {
    if ((rc = next(ps))) return rc;
    if (ps->tok.kind != T_STRING && ps->tok.kind != T_DATE)
      return syntax(ps, "a date literal was expected after DATE");
    int64_t days;
    if (hl_parse_date(ps->tok.text, strlen(ps->tok.text), &days)) return syntax(ps, "not a date");
  } else if (!is_lit(&ps->tok)) {
    return syntax(ps, "a literal was expected");
  }
  *text = ps->tok.text;
  return next(ps);
}

static bool at_date_kw(const parser_t *ps) {
  return ps->tok.kind == T_IDENT && strcasecmp(ps->tok.text, "date") == 0;
}

/* After KEY [NOT] IN: '(' lit, ... ')'. */
static hl_status_t parse_in(parser_t *ps, const char *key, bool negated, node_t **out) {
  hl_status_t rc;
  kids_t k = {0};
  if (ps->tok.kind != T_LPAREN) return syntax(ps, "'(' was expected after IN");
  if ((rc = next(ps))) return rc;
  for (;;) {
    const char *lit;
    node_t *n;
    if ((rc = parse_lit(ps, &lit)) || (rc = leaf(ps, key, negated ? OP_NE : OP_EQ, lit, &n)) ||
        (rc = push(ps, &k, n)))
      return rc;
    if (ps->tok.kind == T_RPAREN) break;
    if (ps->tok.kind != T_COMMA) return syntax(ps, "',' or ')' was expected in the IN list");
    if ((rc = next(ps))) return rc;
  }
  if ((rc = make(ps, negated ? N_AND : N_OR, k.v, k.n, out))) return rc;
  return next(ps);
}

/* A predicate starting with the key name KEY (already consumed). */
static hl_status_t parse_key_pred(parser_t *ps, const char *key, node_t **out) {
  hl_status_t rc;
  bool negated = false;
  if (ps->tok.kind == T_NOT) {
    negated = true;
    if ((rc = next(ps))) return rc;
    if (ps->tok.kind != T_BETWEEN && ps->tok.kind != T_IN &&
        !(ps->tok.kind == T_OP && ps->tok.op == OP_LIKE))
      return syntax(ps, "BETWEEN, IN or LIKE was expected after NOT");
  }
  if (ps->tok.kind == T_IN) {
    if ((rc = next(ps))) return rc;
    return parse_in(ps, key, negated, out);
  }
  if (ps->tok.kind == T_BETWEEN) {
    const char *lo, *hi;
    node_t *ab[2];
    if ((rc = next(ps)) || (rc = parse_lit(ps, &lo))) return rc;
    if (ps->tok.kind != T_AND) return syntax(ps, "AND was expected in BETWEEN");
    if ((rc = next(ps)) || (rc = parse_lit(ps, &hi))) return rc;
    /* as Hive: key >= lo AND key <= hi; NOT: key < lo OR key > hi */
    if ((rc = leaf(ps, key, negated ? OP_LT : OP_GE, lo, &ab[0])) ||
        (rc = leaf(ps, key, negated ? OP_GT : OP_LE, hi, &ab[1])))
      return rc;
    return make(ps, negated ? N_OR : N_AND, ab, 2, out);
  }
  if (ps->tok.kind != T_OP) return syntax(ps, "a comparison operator was expected");
  op_t op = ps->tok.op;
  const char *lit;
  if ((rc = next(ps)) || (rc = parse_lit(ps, &lit)) || (rc = leaf(ps, key, op, lit, out)))
    return rc;
  if (negated) return make(ps, N_NOT, out, 1, out);
  return HL_OK;
}

static hl_status_t parse_unary(parser_t *ps, node_t **out) {
  hl_status_t rc;
  /* each NOT and '(' is one level; the recursion is no deeper than them */
  int nests = ps->tok.kind == T_NOT || ps->tok.kind == T_LPAREN;
  if (nests && ++ps->depth > HL_HMS_FILTER_MAX_DEPTH)
    return hl_err_set(ps->err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "partition filter: nested deeper than %d levels", HL_HMS_FILTER_MAX_DEPTH);
  if (ps->tok.kind == T_NOT) {
    if ((rc = next(ps)) || (rc = parse_unary(ps, out))) return rc;
    rc = make(ps, N_NOT, out, 1, out);
  } else if (ps->tok.kind == T_LPAREN) {
    /* "(key) [NOT] IN (...)" is Hive's IN form; anything else is a group */
    parser_t save = *ps;
    if ((rc = next(ps))) return rc;
    if (ps->tok.kind == T_IDENT && !at_date_kw(ps)) {
      const char *key = ps->tok.text;
      if ((rc = next(ps))) return rc;
      if (ps->tok.kind == T_RPAREN) {
        if ((rc = next(ps))) return rc;
        if (ps->tok.kind == T_IN || ps->tok.kind == T_NOT) {
          rc = parse_key_pred(ps, key, out);
          ps->depth--;
          return rc;
        }
        return syntax(ps, "IN was expected after a parenthesised key");
      }
    }
    *ps = save;
    if ((rc = next(ps)) || (rc = parse_or(ps, out))) return rc;
    if (ps->tok.kind != T_RPAREN) return syntax(ps, "')' was expected");
    rc = next(ps);
  } else if (ps->tok.kind == T_IDENT && !at_date_kw(ps)) {
    const char *key = ps->tok.text;
    if ((rc = next(ps))) return rc;
    rc = parse_key_pred(ps, key, out);
  } else if (is_lit(&ps->tok) || at_date_kw(ps)) {
    /* lit op key: the comparison turned around */
    const char *lit;
    if ((rc = parse_lit(ps, &lit))) return rc;
    if (ps->tok.kind != T_OP || ps->tok.op == OP_LIKE)
      return syntax(ps, "a comparison operator was expected after a literal");
    static const op_t flip[] = {OP_EQ, OP_NE, OP_GT, OP_GE, OP_LT, OP_LE, OP_LIKE};
    op_t op = flip[ps->tok.op];
    if ((rc = next(ps))) return rc;
    if (ps->tok.kind != T_IDENT || at_date_kw(ps))
      return syntax(ps, "a partition key was expected");
    const char *key = ps->tok.text;
    if ((rc = next(ps))) return rc;
    rc = leaf(ps, key, op, lit, out);
  } else {
    rc = syntax(ps, "a partition key, a literal, NOT or '(' was expected");
  }
  if (nests) ps->depth--;
  return rc;
}

/* A chain of OPERAND separated by SEP, one n-ary node of KIND. */
static hl_status_t parse_chain(parser_t *ps, tok_kind_t sep, node_kind_t kind,
                               hl_status_t (*operand)(parser_t *, node_t **), node_t **out) {
  kids_t k = {0};
  for (;;) {
    node_t *n;
    hl_status_t rc = operand(ps, &n);
    if (!rc) rc = push(ps, &k, n);
    if (rc) return rc;
    if (ps->tok.kind != sep) break;
    if ((rc = next(ps))) return rc;
  }
  return make(ps, kind, k.v, k.n, out);
}

static hl_status_t parse_and(parser_t *ps, node_t **out) {
  return parse_chain(ps, T_AND, N_AND, parse_unary, out);
}

static hl_status_t parse_or(parser_t *ps, node_t **out) {
  return parse_chain(ps, T_OR, N_OR, parse_and, out);
}

hl_status_t hl_hms_filter_parse(const char *text, const hl_cat_column_t *keys, int n_keys,
                                hl_arena_t *arena, hl_hms_filter_t **out, hl_error_t *err) {
  size_t len = strlen(text);
  if (len > HL_HMS_FILTER_MAX_LEN)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "partition filter: longer than %u bytes", HL_HMS_FILTER_MAX_LEN);
  hl_hms_filter_t *f = hl_arena_zalloc(arena, sizeof *f);
  key_info_t *info = hl_arena_zalloc(arena, sizeof *info * (size_t)(n_keys ? n_keys : 1));
  if (!f || !info) return hl_err_nomem(err);
  for (int i = 0; i < n_keys; i++) {
    hl_type_t *t = NULL;
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = hl_type_parse_str(arena, keys[i].type, &t, &e);
    hl_err_clear(&e);
    if (rc == HL_NOMEM) return hl_err_nomem(err);
    if (rc || hl_type_is_string(t) || hl_type_is_complex(t) || t->id == HL_T_BINARY) {
      info[i].bytes = true; /* strings, and any type we cannot read: bytewise */
    } else if (t->id == HL_T_DECIMAL) {
      /* both sides exactly, whatever scale the literal has: 1.50 = 1.5 */
      if (!(info[i].type = hl_type_decimal(arena, 38, 18))) return hl_err_nomem(err);
    } else {
      info[i].type = t;
    }
  }
  parser_t ps = {text, len, 0, {0}, 0, keys, n_keys, info, arena, err};
  node_t *root = NULL;
  hl_status_t rc = next(&ps);
  if (!rc && ps.tok.kind == T_END) return syntax(&ps, "the filter is empty");
  if (!rc) rc = parse_or(&ps, &root);
  if (!rc && ps.tok.kind != T_END) rc = syntax(&ps, "AND, OR or the end was expected");
  if (rc) return rc;
  f->root = root;
  f->keys = info;
  f->n_keys = n_keys;
  *out = f;
  return HL_OK;
}

hl_status_t hl_hms_filter_names(const char *text, hl_arena_t *arena, char ***names, size_t *n,
                                hl_error_t *err) {
  size_t len = strlen(text), cap = 0;
  if (len > HL_HMS_FILTER_MAX_LEN)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "partition filter: longer than %u bytes", HL_HMS_FILTER_MAX_LEN);
  parser_t ps = {text, len, 0, {0}, 0, NULL, 0, NULL, arena, err};
  *names = NULL;
  *n = 0;
  for (;;) {
    size_t before = ps.p;
    hl_status_t rc = next(&ps);
    if (rc) return rc;
    if (ps.tok.kind == T_END) return HL_OK;
    if (ps.p == before) /* every token takes a byte; never loop on one */
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "filter: lexer made no progress");
    if (ps.tok.kind != T_IDENT || strcasecmp(ps.tok.text, "date") == 0) continue;
    size_t i = 0;
    while (i < *n && strcmp((*names)[i], ps.tok.text) != 0)
      i++;
    if (i < *n) continue;
    if (*n == HL_HMS_FILTER_MAX_NAMES)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "filter: more than %d different names", HL_HMS_FILTER_MAX_NAMES);
    if (*n == cap) { /* doubling in the arena: linear in total */
      cap = cap ? cap * 2 : 8;
      char **v = hl_arena_alloc(arena, sizeof *v * cap);
      if (!v) return hl_err_nomem(err);
      if (*n) memcpy(v, *names, sizeof *v * *n);
      *names = v;
    }
    (*names)[(*n)++] = (char *)ps.tok.text;
  }
}

/* ------------------------------------------------------------ evaluation */

/* SQL LIKE over the whole of S with '%' / ".*" any sequence and '_' / '.'
 * one byte; iterative with one backtrack point. */
static bool like(const char *p, const char *s) {
  const char *star_p = NULL, *star_s = NULL;
  for (;;) {
    if (*p == '%' || (p[0] == '.' && p[1] == '*')) {
      p += *p == '%' ? 1 : 2;
      star_p = p;
      star_s = s;
      continue;
    }
    if (!*s) {
      while (*p == '%' || (p[0] == '.' && p[1] == '*'))
        p += *p == '%' ? 1 : 2;
      return !*p;
    }
    if (*p && (*p == '_' || *p == '.' || *p == *s)) {
      p++;
      s++;
      continue;
    }
    if (!star_p) return false;
    p = star_p;
    s = ++star_s;
  }
}

/* One partition being matched: its values as text and, read on first use
 * and kept for the other comparisons of the same key (an IN list of many
 * literals reads the value once), as values of the keys' types. */
typedef struct row {
  char *const *values;
  hl_value_t *typed;  /* n_keys */
  signed char *state; /* n_keys: 0 not read yet, 1 read, -1 not a value of the type */
  hl_arena_t *scratch;
} row_t;

/* 1 true, 0 false, -1 unknown. */
static int eval(const hl_hms_filter_t *f, const node_t *n, row_t *row) {
  switch (n->kind) {
  case N_AND:
  case N_OR: {
    /* AND: false wins, else unknown, else true; OR the other way round */
    int decisive = n->kind == N_AND ? 0 : 1, unknown = 0;
    for (size_t i = 0; i < n->n_kids; i++) {
      int v = eval(f, n->kids[i], row);
      if (v == decisive) return decisive;
      if (v < 0) unknown = 1;
    }
    return unknown ? -1 : !decisive;
  }
  case N_NOT: {
    int a = eval(f, n->kids[0], row);
    return a < 0 ? -1 : !a;
  }
  case N_LIKE:
    if (!row->values[n->key]) return -1;
    return like(n->lit, row->values[n->key]);
  case N_CMP:
    break;
  }
  const char *v = row->values[n->key];
  const key_info_t *k = &f->keys[n->key];
  if (!v) return -1;
  int c;
  if (k->bytes) {
    c = strcmp(v, n->lit);
  } else {
    if (row->state[n->key] == 0)
      row->state[n->key] = read_value(k, v, row->scratch, &row->typed[n->key]) ? -1 : 1;
    if (row->state[n->key] < 0) return -1;
    c = hl_value_compare(k->type, &row->typed[n->key], &n->val);
  }
  switch (n->op) {
  case OP_EQ:
    return c == 0;
  case OP_NE:
    return c != 0;
  case OP_LT:
    return c < 0;
  case OP_LE:
    return c <= 0;
  case OP_GT:
    return c > 0;
  case OP_GE:
    return c >= 0;
  default:
    return -1;
  }
}

bool hl_hms_filter_match(const hl_hms_filter_t *f, char *const *values, hl_arena_t *scratch) {
  size_t nk = (size_t)(f->n_keys ? f->n_keys : 1);
  row_t row = {values, hl_arena_alloc(scratch, sizeof *row.typed * nk),
               hl_arena_zalloc(scratch, nk), scratch};
  if (!row.typed || !row.state) return false; /* out of memory: no match */
  return eval(f, f->root, &row) == 1;
}
