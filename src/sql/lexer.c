/*
 * lexer.c -- cuts HiveQL text into tokens (see lexer.h).
 *
 * Modelled on SQLite's tokenize.c: one table maps each ASCII byte to a
 * character class and a switch on the class reads one token.  Tokens are
 * byte spans; values (identifiers, unescaped strings) are decoded on demand
 * by hl_sql_ident_value and hl_sql_string_value.  Escapes follow Hive's
 * BaseSemanticAnalyzer.unescapeSQLString so that a literal means the same
 * bytes here as in Hive.  With lx->standard (hivelite.sql.string_literals
 * = standard, which the PostgreSQL server sets for its sessions) literals
 * are read the way PostgreSQL clients quote them: 'it''s' with backslash
 * an ordinary byte, and E'...' with C-style escapes.
 * Invariant: every read is bounded by lx->len; the text need not be
 * NUL-terminated.
 */
#include "sql/lexer.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
  CC_ILL, /* no token starts with this byte */
  CC_SPC, /* blank */
  CC_ALP, /* letter or _: a word */
  CC_DIG, /* digit: a number */
  CC_QUO, /* ' or ": a string */
  CC_BQU, /* `: a quoted identifier */
  CC_MIN, /* -: minus or -- comment */
  CC_SLA, /* /: slash or / * comment */
  CC_LT,  /* < <= <> <=> */
  CC_GT,  /* > >= */
  CC_EQ,  /* = == */
  CC_BNG, /* ! != */
  CC_PIP, /* | || */
  CC_DOT, /* . or .5 */
  CC_ONE, /* a one-byte operator */
  CC_PRM, /* ? or $n: a statement parameter */
  CC_HI   /* a byte >= 0x80 (UTF-8 outside quotes) */
};

static const unsigned char char_class[128] = {
    CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, /* 00 */
    CC_ILL, CC_SPC, CC_SPC, CC_SPC, CC_SPC, CC_SPC, CC_ILL, CC_ILL, /* 08 */
    CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, /* 10 */
    CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, CC_ILL, /* 18 */
    CC_SPC, CC_BNG, CC_QUO, CC_ILL, CC_PRM, CC_ONE, CC_ONE, CC_QUO, /* 20 */
    CC_ONE, CC_ONE, CC_ONE, CC_ONE, CC_ONE, CC_MIN, CC_DOT, CC_SLA, /* 28 */
    CC_DIG, CC_DIG, CC_DIG, CC_DIG, CC_DIG, CC_DIG, CC_DIG, CC_DIG, /* 30 */
    CC_DIG, CC_DIG, CC_ONE, CC_ONE, CC_LT,  CC_EQ,  CC_GT,  CC_PRM, /* 38 */
    CC_ILL, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, /* 40 */
    CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, /* 48 */
    CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, /* 50 */
    CC_ALP, CC_ALP, CC_ALP, CC_ONE, CC_ILL, CC_ONE, CC_ONE, CC_ALP, /* 58 */
    CC_BQU, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, /* 60 */
    CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, /* 68 */
    CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, CC_ALP, /* 70 */
    CC_ALP, CC_ALP, CC_ALP, CC_ILL, CC_PIP, CC_ILL, CC_ONE, CC_ILL, /* 78 */
};

static int class_of(unsigned char c) {
  return c >= 0x80 ? CC_HI : char_class[c];
}

static int is_word_char(unsigned char c) {
  int cc = class_of(c);
  return cc == CC_ALP || cc == CC_DIG;
}

static int is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

/* Words our grammar cannot accept as identifiers, because they start or
 * continue a clause right where an alias or a column could stand (Hive
 * reserves more; everything else stays usable as a column name).  Sorted
 * for bsearch. */
static const char *const reserved_words[] = {
    "ALL",      "AND",        "AS",    "BETWEEN", "CASE", "CAST",        "CLUSTER", "CROSS",
    "DISTINCT", "DISTRIBUTE", "DIV",   "ELSE",    "END",  "EXCEPT",      "EXISTS",  "FALSE",
    "FROM",     "FULL",       "GROUP", "HAVING",  "IN",   "INNER",       "INSERT",  "INTERSECT",
    "INTERVAL", "IS",         "JOIN",  "LATERAL", "LEFT", "LIKE",        "LIMIT",   "MINUS",
    "NATURAL",  "NOT",        "NULL",  "ON",      "OR",   "ORDER",       "OUTER",   "OVER",
    "REGEXP",   "RIGHT",      "RLIKE", "SELECT",  "SORT", "TABLESAMPLE", "THEN",    "TRUE",
    "UNION",    "WHEN",       "WHERE", "WINDOW",  "WITH",
};

typedef struct word_key {
  const char *s;
  size_t len;
} word_key_t;

static int cmp_word(const void *key, const void *elem) {
  const word_key_t *k = key;
  const char *w = *(const char *const *)elem;
  size_t wl = strlen(w);
  size_t n = k->len < wl ? k->len : wl;
  int c = strncasecmp(k->s, w, n);
  if (c != 0) return c;
  return k->len < wl ? -1 : k->len > wl ? 1 : 0;
}

bool hl_sql_is_reserved(const char *word, size_t len) {
  if (len > 16) return false;
  word_key_t k = {word, len};
  return bsearch(&k, reserved_words, sizeof reserved_words / sizeof reserved_words[0],
                 sizeof reserved_words[0], cmp_word) != NULL;
}

bool hl_sql_tok_is(const char *src, const hl_sql_token_t *tok, const char *kw) {
  return tok->kind == HL_TK_WORD && strlen(kw) == tok->len &&
         strncasecmp(src + tok->pos, kw, tok->len) == 0;
}

void hl_sql_lexer_init(hl_sql_lexer_t *lx, const char *src, size_t len) {
  lx->src = src;
  lx->len = len;
  lx->off = 0;
  lx->standard = false;
}

/* The end of a string whose body starts at S[i] and is closed by Q (the
 * byte after the closing quote), or N when unterminated.  BACKSLASH: a
 * backslash escapes the next byte; DOUBLED: QQ stands for one Q. */
static size_t string_end(const unsigned char *s, size_t n, size_t i, unsigned char q,
                         bool backslash, bool doubled) {
  while (i < n) {
    if (backslash && s[i] == '\\') {
      i += 2; /* the escaped byte cannot close the string */
      continue;
    }
    if (s[i] == q) {
      if (doubled && i + 1 < n && s[i + 1] == q) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return n + 1;
}

/* Skips blanks and comments from lx->off.  An unterminated / * comment is an
 * error at its opening. */
static hl_status_t skip_blanks(hl_sql_lexer_t *lx, hl_error_t *err) {
  const unsigned char *s = (const unsigned char *)lx->src;
  size_t i = lx->off, n = lx->len;
  for (;;) {
    if (i >= n) break;
    if (class_of(s[i]) == CC_SPC) {
      i++;
    } else if (s[i] == '-' && i + 1 < n && s[i + 1] == '-') {
      while (i < n && s[i] != '\n')
        i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t start = i;
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
        i++;
      if (i + 1 >= n) {
        lx->off = n;
        return hl_err_set_at(err, (long)start, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "unterminated /* comment");
      }
      i += 2;
    } else {
      break;
    }
  }
  lx->off = i;
  return HL_OK;
}

/* Reads a number at I (a digit, or '.' followed by a digit).  Returns the
 * end offset and sets the kind/suffix; a run of letters glued to the number
 * that is no valid suffix makes the whole run one illegal token. */
static size_t lex_number(const unsigned char *s, size_t n, size_t i, hl_sql_token_t *tok) {
  size_t start = i;
  bool point = false, exp = false;
  while (i < n && is_digit(s[i]))
    i++;
  if (i < n && s[i] == '.') {
    point = true;
    i++;
    while (i < n && is_digit(s[i]))
      i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (s[j] == '+' || s[j] == '-')) j++;
    if (j < n && is_digit(s[j])) {
      exp = true;
      i = j;
      while (i < n && is_digit(s[i]))
        i++;
    }
  }
  tok->num_len = i - start;
  tok->kind = exp ? HL_TK_DOUBLE : point ? HL_TK_DECIMAL : HL_TK_INTEGER;
  size_t sfx = 0;
  if (i < n) {
    unsigned char c = (unsigned char)(s[i] | 0x20);
    unsigned char c2 = i + 1 < n ? (unsigned char)(s[i + 1] | 0x20) : 0;
    if (c == 'b' && c2 == 'd') {
      sfx = 2;
      memcpy(tok->suffix, "BD", 3);
      tok->kind = HL_TK_TYPED_NUM;
    } else if (c == 'd') {
      sfx = 1;
      memcpy(tok->suffix, "D", 2);
      tok->kind = HL_TK_DOUBLE;
    } else if ((c == 'y' || c == 's' || c == 'l') && !point && !exp) {
      sfx = 1;
      tok->suffix[0] = (char)(c - 0x20);
      tok->suffix[1] = '\0';
      tok->kind = HL_TK_TYPED_NUM;
    }
  }
  i += sfx;
  if (i < n && is_word_char(s[i])) {
    while (i < n && is_word_char(s[i]))
      i++;
    tok->kind = HL_TK_ILLEGAL;
    tok->suffix[0] = '\0';
  }
  return i;
}

hl_status_t hl_sql_lex(hl_sql_lexer_t *lx, hl_sql_token_t *tok, hl_error_t *err) {
  memset(tok, 0, sizeof *tok);
  hl_status_t rc = skip_blanks(lx, err);
  if (rc != HL_OK) {
    tok->kind = HL_TK_EOF;
    tok->pos = (long)lx->len;
    return rc;
  }
  const unsigned char *s = (const unsigned char *)lx->src;
  size_t n = lx->len, i = lx->off;
  tok->pos = (long)i;
  if (i >= n) {
    tok->kind = HL_TK_EOF;
    return HL_OK;
  }
  unsigned char c = s[i];
  unsigned char c1 = i + 1 < n ? s[i + 1] : 0;
  size_t end = i + 1;
  switch (class_of(c)) {
  case CC_ALP:
    if (lx->standard && (c == 'E' || c == 'e') && c1 == '\'') {
      end = string_end(s, n, i + 2, '\'', true, true);
      if (end > n) {
        lx->off = n;
        tok->kind = HL_TK_EOF;
        tok->pos = (long)n;
        return hl_err_set_at(err, (long)i, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "unterminated quoted string");
      }
      tok->kind = HL_TK_STRING;
      tok->str_style = HL_STR_ESCAPE;
      break;
    }
    while (end < n && is_word_char(s[end]))
      end++;
    tok->kind = HL_TK_WORD;
    tok->reserved = hl_sql_is_reserved((const char *)s + i, end - i);
    break;
  case CC_DIG:
    end = lex_number(s, n, i, tok);
    break;
  case CC_DOT:
    if (is_digit(c1)) {
      end = lex_number(s, n, i, tok);
    } else {
      tok->kind = HL_TK_DOT;
    }
    break;
  case CC_QUO:
    end = string_end(s, n, i + 1, c, !lx->standard, lx->standard);
    if (end > n) {
      lx->off = n;
      tok->kind = HL_TK_EOF;
      tok->pos = (long)n;
      return hl_err_set_at(err, (long)i, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "unterminated quoted string");
    }
    tok->kind = HL_TK_STRING;
    tok->str_style = lx->standard ? HL_STR_STANDARD : HL_STR_HIVE;
    break;
  case CC_BQU:
    for (;;) {
      if (end >= n) {
        lx->off = n;
        tok->kind = HL_TK_EOF;
        tok->pos = (long)n;
        return hl_err_set_at(err, (long)i, HL_ERROR, HL_SS(SYNTAX_ERROR),
                             "unterminated quoted identifier");
      }
      if (s[end] == '`') {
        if (end + 1 < n && s[end + 1] == '`') {
          end += 2;
          continue;
        }
        end++;
        break;
      }
      end++;
    }
    if (end - i == 2) {
      lx->off = end;
      tok->kind = HL_TK_EOF;
      tok->pos = (long)n;
      return hl_err_set_at(err, (long)i, HL_ERROR, HL_SS(SYNTAX_ERROR),
                           "zero-length quoted identifier");
    }
    tok->kind = HL_TK_QIDENT;
    break;
  case CC_MIN:
    tok->kind = HL_TK_MINUS; /* "--" was taken as a comment above */
    break;
  case CC_SLA:
    tok->kind = HL_TK_SLASH;
    break;
  case CC_LT:
    if (c1 == '=') {
      end++;
      if (end < n && s[end] == '>') {
        end++;
        tok->kind = HL_TK_EQ_NS;
      } else {
        tok->kind = HL_TK_LE;
      }
    } else if (c1 == '>') {
      end++;
      tok->kind = HL_TK_NE;
    } else {
      tok->kind = HL_TK_LT;
    }
    break;
  case CC_GT:
    if (c1 == '=') end++;
    tok->kind = c1 == '=' ? HL_TK_GE : HL_TK_GT;
    break;
  case CC_EQ:
    if (c1 == '=') end++;
    tok->kind = HL_TK_EQ;
    break;
  case CC_BNG:
    if (c1 == '=') end++;
    tok->kind = c1 == '=' ? HL_TK_NE : HL_TK_BANG;
    break;
  case CC_PIP:
    if (c1 == '|') end++;
    tok->kind = c1 == '|' ? HL_TK_CONCAT : HL_TK_PIPE;
    break;
  case CC_ONE:
    switch (c) {
    case ';':
      tok->kind = HL_TK_SEMI;
      break;
    case '(':
      tok->kind = HL_TK_LPAREN;
      break;
    case ')':
      tok->kind = HL_TK_RPAREN;
      break;
    case ',':
      tok->kind = HL_TK_COMMA;
      break;
    case ':':
      tok->kind = HL_TK_COLON;
      break;
    case '[':
      tok->kind = HL_TK_LBRACKET;
      break;
    case ']':
      tok->kind = HL_TK_RBRACKET;
      break;
    case '+':
      tok->kind = HL_TK_PLUS;
      break;
    case '*':
      tok->kind = HL_TK_STAR;
      break;
    case '%':
      tok->kind = HL_TK_PERCENT;
      break;
    case '&':
      tok->kind = HL_TK_AMP;
      break;
    case '^':
      tok->kind = HL_TK_CARET;
      break;
    default:
      tok->kind = HL_TK_TILDE;
      break;
    }
    break;
  case CC_PRM:
    /* `?`, or `$` and its number (PostgreSQL's spelling); a `$` without
     * digits is no token */
    if (c == '$') {
      while (end < n && is_digit(s[end]))
        end++;
      tok->kind = end > i + 1 ? HL_TK_PARAM : HL_TK_ILLEGAL;
    } else {
      tok->kind = HL_TK_PARAM;
    }
    break;
  case CC_HI:
    /* one UTF-8 sequence, so that the error message shows a whole character */
    while (end < n && end - i < 4 && (s[end] & 0xC0) == 0x80)
      end++;
    tok->kind = HL_TK_ILLEGAL;
    break;
  default:
    tok->kind = HL_TK_ILLEGAL;
    break;
  }
  tok->len = end - i;
  lx->off = end;
  return HL_OK;
}

char *hl_sql_ident_value(hl_arena_t *arena, const char *src, const hl_sql_token_t *tok) {
  const char *s = src + tok->pos;
  size_t n = tok->len;
  char *out;
  size_t k = 0;
  if (tok->kind == HL_TK_QIDENT) {
    out = hl_arena_alloc(arena, n);
    if (!out) return NULL;
    for (size_t i = 1; i + 1 < n; i++) {
      out[k++] = s[i];
      if (s[i] == '`') i++; /* `` stands for one backquote */
    }
  } else {
    out = hl_arena_alloc(arena, n + 1);
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++)
      out[k++] = s[i];
  }
  out[k] = '\0';
  for (size_t i = 0; i < k; i++) {
    if (out[i] >= 'A' && out[i] <= 'Z') out[i] = (char)(out[i] + ('a' - 'A'));
  }
  return out;
}

static int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (unsigned char)(c | 0x20);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* \uXXXX at S[i] (S[i] = '\\', S[i+1] = 'u'): the code unit or -1. */
static long read_u16(const unsigned char *s, size_t n, size_t i) {
  if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u') return -1;
  long v = 0;
  for (size_t j = i + 2; j < i + 6; j++) {
    int h = hex_value(s[j]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

static size_t put_utf8(char *out, unsigned long cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* A \uXXXX code unit CP (a high surrogate: joined with the \uXXXX low
 * one that follows at S[*i], when there is one) as a code point; a lone
 * surrogate has no UTF-8 form and becomes U+FFFD. */
static unsigned long join_surrogate(const unsigned char *s, size_t n, size_t *i, unsigned long cp) {
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    long lo = read_u16(s, n, *i);
    if (lo >= 0xDC00 && lo <= 0xDFFF) {
      *i += 6;
      return 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)lo - 0xDC00);
    }
    return 0xFFFD;
  }
  return cp >= 0xDC00 && cp <= 0xDFFF ? 0xFFFD : cp;
}

/* The body S[0..n) of a standard string closed by Q: QQ is one Q. */
static size_t standard_value(const unsigned char *s, size_t n, unsigned char q, char *out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    out[k++] = (char)s[i];
    if (s[i] == q && i + 1 < n && s[i + 1] == q) i++;
  }
  return k;
}

/* The body S[0..n) of an E'' string (PostgreSQL's escapes, lexer.h). */
static size_t escape_value(const unsigned char *s, size_t n, char *out) {
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] == '\'' && i + 1 < n && s[i + 1] == '\'') {
      out[k++] = '\'';
      i += 2;
      continue;
    }
    if (s[i] != '\\' || i + 1 >= n) {
      out[k++] = (char)s[i++];
      continue;
    }
    unsigned char e = s[i + 1];
    if (e >= '0' && e <= '7') { /* up to three octal digits, one byte */
      unsigned v = 0;
      size_t j = i + 1;
      for (; j < n && j < i + 4 && s[j] >= '0' && s[j] <= '7'; j++)
        v = v * 8 + (unsigned)(s[j] - '0');
      out[k++] = (char)(v & 0xFF);
      i = j;
      continue;
    }
    if (e == 'x' && i + 2 < n && hex_value(s[i + 2]) >= 0) { /* one or two hex digits */
      unsigned v = (unsigned)hex_value(s[i + 2]);
      i += 3;
      if (i < n && hex_value(s[i]) >= 0) v = v * 16 + (unsigned)hex_value(s[i++]);
      out[k++] = (char)v;
      continue;
    }
    long u = read_u16(s, n, i);
    if (u >= 0) {
      i += 6;
      k += put_utf8(out + k, join_surrogate(s, n, &i, (unsigned long)u));
      continue;
    }
    if (e == 'U' && i + 10 <= n) {
      unsigned long cp = 0;
      size_t j = i + 2;
      for (; j < i + 10 && hex_value(s[j]) >= 0; j++)
        cp = cp * 16 + (unsigned long)hex_value(s[j]);
      if (j == i + 10) {
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
        k += put_utf8(out + k, cp);
        i += 10;
        continue;
      }
    }
    i += 2;
    switch (e) {
    case 'b':
      out[k++] = '\b';
      break;
    case 'f':
      out[k++] = '\f';
      break;
    case 'n':
      out[k++] = '\n';
      break;
    case 'r':
      out[k++] = '\r';
      break;
    case 't':
      out[k++] = '\t';
      break;
    default:
      out[k++] = (char)e;
      break;
    }
  }
  return k;
}

size_t hl_sql_string_value(const char *src, const hl_sql_token_t *tok, char *out) {
  /* the body, without the quotes (and E); every escape shrinks or keeps the
   * length, so OUT of tok->len bytes suffices (\uXXXX: 6 bytes -> at most 3,
   * a surrogate pair: 12 -> 4, \UXXXXXXXX: 10 -> 4) */
  size_t skip = tok->str_style == HL_STR_ESCAPE ? 2 : 1;
  const unsigned char *s = (const unsigned char *)src + tok->pos + skip;
  size_t n = tok->len >= skip + 1 ? tok->len - skip - 1 : 0;
  if (tok->str_style == HL_STR_STANDARD) return standard_value(s, n, s[-1], out);
  if (tok->str_style == HL_STR_ESCAPE) return escape_value(s, n, out);
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] != '\\' || i + 1 >= n) {
      out[k++] = (char)s[i++];
      continue;
    }
    unsigned char e = s[i + 1];
    /* Hive takes \ooo as a byte only when the first digit is 0 or 1 */
    if (i + 3 < n && e >= '0' && e <= '1' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
        s[i + 3] >= '0' && s[i + 3] <= '7') {
      out[k++] = (char)((e - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 4;
      continue;
    }
    long u = read_u16(s, n, i);
    if (u >= 0) {
      i += 6;
      k += put_utf8(out + k, join_surrogate(s, n, &i, (unsigned long)u));
      continue;
    }
    i += 2;
    switch (e) {
    case '0':
      out[k++] = '\0';
      break;
    case '\'':
      out[k++] = '\'';
      break;
    case '"':
      out[k++] = '"';
      break;
    case 'b':
      out[k++] = '\b';
      break;
    case 'n':
      out[k++] = '\n';
      break;
    case 'r':
      out[k++] = '\r';
      break;
    case 't':
      out[k++] = '\t';
      break;
    case 'Z':
      out[k++] = '\032';
      break;
    case '\\':
      out[k++] = '\\';
      break;
    case '%': /* kept escaped: LIKE patterns need to see the backslash */
      out[k++] = '\\';
      out[k++] = '%';
      break;
    case '_':
      out[k++] = '\\';
      out[k++] = '_';
      break;
    default:
      out[k++] = (char)e;
      break;
    }
  }
  return k;
}
