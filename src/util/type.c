/*
 * type.c -- Hive types: the text grammar, canonical spelling, properties
 * (see type.h).
 *
 * Grammar (case-insensitive, blanks between tokens):
 *   type   := prim [ '(' int [ ',' int ] ')' ]
 *           | ARRAY '<' type '>' | MAP '<' type ',' type '>'
 *           | STRUCT '<' field { ',' field } '>'
 *           | UNIONTYPE '<' type { ',' type } '>'
 *   field  := name ':' type [ COMMENT 'text' ]
 */
#include "util/type.h"

#include "util/strbuf.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define PRIM(id_)                                                                                  \
  { .id = id_, .precision = 0, .scale = 0, .length = 0 }

static const hl_type_t prim_types[] = {
    PRIM(HL_T_NULL),
    PRIM(HL_T_BOOLEAN),
    PRIM(HL_T_TINYINT),
    PRIM(HL_T_SMALLINT),
    PRIM(HL_T_INT),
    PRIM(HL_T_BIGINT),
    PRIM(HL_T_FLOAT),
    PRIM(HL_T_DOUBLE),
    {.id = HL_T_DECIMAL, .precision = 10, .scale = 0},
    PRIM(HL_T_STRING),
    {.id = HL_T_VARCHAR, .length = 65535},
    {.id = HL_T_CHAR, .length = 255},
    PRIM(HL_T_DATE),
    PRIM(HL_T_TIMESTAMP),
    PRIM(HL_T_BINARY),
    PRIM(HL_T_ARRAY), /* placeholders: complex types are built, never prim */
    PRIM(HL_T_MAP),
    PRIM(HL_T_STRUCT),
    PRIM(HL_T_UNION),
    PRIM(HL_T_INTERVAL_YM),
    PRIM(HL_T_INTERVAL_DT),
};

const hl_type_t *hl_type_prim(hl_type_id_t id) {
  if ((size_t)id < sizeof prim_types / sizeof prim_types[0]) return &prim_types[id];
  return &prim_types[HL_T_NULL];
}

hl_type_t *hl_type_decimal(hl_arena_t *arena, int precision, int scale) {
  hl_type_t *t = hl_arena_zalloc(arena, sizeof(*t));
  if (!t) return NULL;
  t->id = HL_T_DECIMAL;
  t->precision = precision;
  t->scale = scale;
  return t;
}

hl_type_t *hl_type_varchar(hl_arena_t *arena, hl_type_id_t id, int length) {
  hl_type_t *t = hl_arena_zalloc(arena, sizeof(*t));
  if (!t) return NULL;
  t->id = id;
  t->length = length;
  return t;
}

hl_type_t *hl_type_copy(hl_arena_t *arena, const hl_type_t *src) {
  hl_type_t *t = hl_arena_alloc(arena, sizeof(*t));
  if (!t) return NULL;
  *t = *src;
  if (src->n_children) {
    t->children = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)src->n_children);
    if (!t->children) return NULL;
    for (int i = 0; i < src->n_children; i++) {
      t->children[i] = hl_type_copy(arena, src->children[i]);
      if (!t->children[i]) return NULL;
    }
    if (src->field_names) {
      t->field_names = hl_arena_alloc(arena, sizeof(char *) * (size_t)src->n_children);
      if (!t->field_names) return NULL;
      for (int i = 0; i < src->n_children; i++) {
        t->field_names[i] = hl_arena_strdup(arena, src->field_names[i]);
        if (!t->field_names[i]) return NULL;
      }
    }
  }
  return t;
}

/* ------------------------------------------------------------- parsing */

typedef struct type_parser {
  hl_arena_t *arena;
  const char *text;
  size_t len;
  size_t pos;
  hl_error_t *err;
} type_parser_t;

static void skip_blanks(type_parser_t *p) {
  while (p->pos < p->len && isspace((unsigned char)p->text[p->pos]))
    p->pos++;
}

static hl_status_t syntax_error(type_parser_t *p, const char *what) {
  size_t at = p->pos;
  if (at >= p->len)
    return hl_err_set_at(p->err, (long)at, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "%s in type at end of input", what);
  size_t n = 1;
  while (at + n < p->len && isalnum((unsigned char)p->text[at + n]) &&
         isalnum((unsigned char)p->text[at]))
    n++;
  return hl_err_set_at(p->err, (long)at, HL_ERROR, HL_SS(SYNTAX_ERROR),
                       "%s in type at or near \"%.*s\"", what, (int)n, p->text + at);
}

/* Reads a word [A-Za-z_][A-Za-z0-9_]* at the cursor; returns its length. */
static size_t peek_word(type_parser_t *p) {
  size_t n = 0;
  while (p->pos + n < p->len &&
         (isalnum((unsigned char)p->text[p->pos + n]) || p->text[p->pos + n] == '_'))
    n++;
  return n;
}

static int expect_char(type_parser_t *p, char c) {
  skip_blanks(p);
  if (p->pos < p->len && p->text[p->pos] == c) {
    p->pos++;
    return 1;
  }
  return 0;
}

static hl_status_t read_int(type_parser_t *p, int *out) {
  skip_blanks(p);
  size_t start = p->pos;
  long v = 0;
  while (p->pos < p->len && isdigit((unsigned char)p->text[p->pos])) {
    v = v * 10 + (p->text[p->pos] - '0');
    if (v > 1000000) v = 1000000; /* clamp; range checked by the caller */
    p->pos++;
  }
  if (p->pos == start) return syntax_error(p, "expected a number");
  *out = (int)v;
  return HL_OK;
}

static hl_status_t parse_type(type_parser_t *p, hl_type_t **out, int depth);

static int word_is(const char *w, size_t n, const char *kw) {
  return strlen(kw) == n && strncasecmp(w, kw, n) == 0;
}

static hl_status_t parse_struct_fields(type_parser_t *p, hl_type_t *t, int depth) {
  int cap = 4;
  t->children = hl_arena_alloc(p->arena, sizeof(hl_type_t *) * (size_t)cap);
  t->field_names = hl_arena_alloc(p->arena, sizeof(char *) * (size_t)cap);
  if (!t->children || !t->field_names) return hl_err_nomem(p->err);
  for (;;) {
    skip_blanks(p);
    const char *name;
    size_t name_len;
    if (p->pos < p->len && p->text[p->pos] == '`') {
      size_t start = ++p->pos;
      while (p->pos < p->len && p->text[p->pos] != '`')
        p->pos++;
      if (p->pos >= p->len) return syntax_error(p, "unterminated quoted field name");
      name = p->text + start;
      name_len = p->pos - start;
      p->pos++;
    } else {
      name_len = peek_word(p);
      if (name_len == 0) return syntax_error(p, "expected a field name");
      name = p->text + p->pos;
      p->pos += name_len;
    }
    if (!expect_char(p, ':')) return syntax_error(p, "expected \":\"");
    if (t->n_children == cap) {
      int ncap = cap * 2;
      hl_type_t **c = hl_arena_realloc(p->arena, t->children, sizeof(hl_type_t *) * (size_t)cap,
                                       sizeof(hl_type_t *) * (size_t)ncap);
      char **f = c ? hl_arena_realloc(p->arena, t->field_names, sizeof(char *) * (size_t)cap,
                                      sizeof(char *) * (size_t)ncap)
                   : NULL;
      if (!f) return hl_err_nomem(p->err);
      t->children = c;
      t->field_names = f;
      cap = ncap;
    }
    char *fname = hl_arena_strndup(p->arena, name, name_len);
    if (!fname) return hl_err_nomem(p->err);
    for (char *c = fname; *c; c++)
      *c = (char)tolower((unsigned char)*c);
    for (int i = 0; i < t->n_children; i++)
      if (strcmp(t->field_names[i], fname) == 0)
        return hl_err_set_at(p->err, (long)(name - p->text), HL_ERROR,
                             HL_SS(INVALID_COLUMN_DEFINITION),
                             "duplicate field \"%s\" in struct type", fname);
    hl_status_t rc = parse_type(p, &t->children[t->n_children], depth + 1);
    if (rc != HL_OK) return rc;
    t->field_names[t->n_children++] = fname;
    skip_blanks(p);
    /* Hive allows a COMMENT on struct fields; it is not kept */
    size_t w = peek_word(p);
    if (word_is(p->text + p->pos, w, "comment")) {
      return hl_err_set_at(p->err, (long)p->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "comments on struct fields are not supported");
    }
    if (expect_char(p, ',')) continue;
    if (expect_char(p, '>')) return HL_OK;
    return syntax_error(p, "expected \",\" or \">\"");
  }
}

/* The alternatives of a UNIONTYPE after its '<'.  Hive keeps a union's tag
 * in a signed byte (StandardUnion, LazyBinary, ORC's tag stream as Java
 * reads it), so a union has at most 128 alternatives. */
static hl_status_t parse_union_alternatives(type_parser_t *p, hl_type_t *t, int depth) {
  int cap = 4;
  t->children = hl_arena_alloc(p->arena, sizeof(hl_type_t *) * (size_t)cap);
  if (!t->children) return hl_err_nomem(p->err);
  for (;;) {
    if (t->n_children == HL_UNION_MAX_TAGS)
      return hl_err_set_at(p->err, (long)p->pos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                           "a uniontype has at most %d alternatives", HL_UNION_MAX_TAGS);
    if (t->n_children == cap) {
      hl_type_t **c = hl_arena_realloc(p->arena, t->children, sizeof(hl_type_t *) * (size_t)cap,
                                       sizeof(hl_type_t *) * (size_t)cap * 2);
      if (!c) return hl_err_nomem(p->err);
      t->children = c;
      cap *= 2;
    }
    hl_status_t rc = parse_type(p, &t->children[t->n_children], depth + 1);
    if (rc != HL_OK) return rc;
    t->n_children++;
    if (expect_char(p, ',')) continue;
    if (expect_char(p, '>')) return HL_OK;
    return syntax_error(p, "expected \",\" or \">\"");
  }
}

/* Hive's SQL spellings of the interval types: INTERVAL YEAR TO MONTH and
 * INTERVAL DAY TO SECOND (the names interval_year_month and
 * interval_day_time are in the table of names). */
static hl_status_t parse_interval_type(type_parser_t *p, hl_type_t *t, hl_type_t **out) {
  static const char *const words[2][3] = {{"year", "to", "month"}, {"day", "to", "second"}};
  size_t start = p->pos;
  p->pos += peek_word(p);
  for (int k = 0; k < 2; k++) {
    size_t save = p->pos;
    int i = 0;
    for (; i < 3; i++) {
      skip_blanks(p);
      size_t n = peek_word(p);
      if (!word_is(p->text + p->pos, n, words[k][i])) break;
      p->pos += n;
    }
    if (i == 3) {
      t->id = k == 0 ? HL_T_INTERVAL_YM : HL_T_INTERVAL_DT;
      *out = t;
      return HL_OK;
    }
    p->pos = save;
  }
  p->pos = start;
  return syntax_error(p, "expected INTERVAL YEAR TO MONTH or INTERVAL DAY TO SECOND");
}

static hl_status_t parse_type(type_parser_t *p, hl_type_t **out, int depth) {
  if (depth > 64) return syntax_error(p, "type nested too deeply");
  skip_blanks(p);
  size_t start = p->pos;
  size_t n = peek_word(p);
  if (n == 0) return syntax_error(p, "expected a type name");
  const char *w = p->text + p->pos;
  hl_type_t *t = hl_arena_zalloc(p->arena, sizeof(*t));
  if (!t) return hl_err_nomem(p->err);
  static const struct {
    const char *name;
    hl_type_id_t id;
  } names[] = {
      {"boolean", HL_T_BOOLEAN},
      {"tinyint", HL_T_TINYINT},
      {"smallint", HL_T_SMALLINT},
      {"int", HL_T_INT},
      {"integer", HL_T_INT},
      {"bigint", HL_T_BIGINT},
      {"float", HL_T_FLOAT},
      {"real", HL_T_FLOAT},
      {"double", HL_T_DOUBLE},
      {"decimal", HL_T_DECIMAL},
      {"dec", HL_T_DECIMAL},
      {"numeric", HL_T_DECIMAL},
      {"string", HL_T_STRING},
      {"varchar", HL_T_VARCHAR},
      {"char", HL_T_CHAR},
      {"date", HL_T_DATE},
      {"timestamp", HL_T_TIMESTAMP},
      {"binary", HL_T_BINARY},
      {"array", HL_T_ARRAY},
      {"map", HL_T_MAP},
      {"struct", HL_T_STRUCT},
      {"void", HL_T_NULL},
      {"uniontype", HL_T_UNION},
      {"interval_year_month", HL_T_INTERVAL_YM},
      {"interval_day_time", HL_T_INTERVAL_DT},
  };
  int found = -1;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (word_is(w, n, names[i].name)) found = (int)i;
  if (found < 0) {
    if (word_is(w, n, "interval")) return parse_interval_type(p, t, out);
    return hl_err_set_at(p->err, (long)start, HL_ERROR, HL_SS(UNDEFINED_OBJECT),
                         "unknown type \"%.*s\"", (int)n, w);
  }
  t->id = names[found].id;
  p->pos += n;
  switch (t->id) {
  case HL_T_DOUBLE: {
    /* DOUBLE PRECISION */
    size_t save = p->pos;
    skip_blanks(p);
    size_t n2 = peek_word(p);
    if (word_is(p->text + p->pos, n2, "precision"))
      p->pos += n2;
    else
      p->pos = save;
    break;
  }
  case HL_T_TIMESTAMP: {
    size_t save = p->pos;
    skip_blanks(p);
    size_t n2 = peek_word(p);
    if (word_is(p->text + p->pos, n2, "with"))
      return hl_err_set_at(p->err, (long)p->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "TIMESTAMP WITH LOCAL TIME ZONE is not supported");
    p->pos = save;
    break;
  }
  case HL_T_DECIMAL: {
    t->precision = 10;
    t->scale = 0;
    size_t save = p->pos;
    if (expect_char(p, '(')) {
      size_t ppos = p->pos;
      hl_status_t rc = read_int(p, &t->precision);
      if (rc != HL_OK) return rc;
      if (expect_char(p, ',')) {
        rc = read_int(p, &t->scale);
        if (rc != HL_OK) return rc;
      }
      if (!expect_char(p, ')')) return syntax_error(p, "expected \")\"");
      if (t->precision < 1 || t->precision > 38)
        return hl_err_set_at(p->err, (long)ppos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                             "decimal precision %d is out of range [1, 38]", t->precision);
      if (t->scale > t->precision)
        return hl_err_set_at(p->err, (long)ppos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                             "decimal scale %d is greater than precision %d", t->scale,
                             t->precision);
    } else {
      p->pos = save;
    }
    break;
  }
  case HL_T_VARCHAR:
  case HL_T_CHAR: {
    if (!expect_char(p, '('))
      return syntax_error(p, t->id == HL_T_CHAR ? "CHAR needs a length" : "VARCHAR needs a length");
    size_t lpos = p->pos;
    hl_status_t rc = read_int(p, &t->length);
    if (rc != HL_OK) return rc;
    if (!expect_char(p, ')')) return syntax_error(p, "expected \")\"");
    int max = t->id == HL_T_CHAR ? 255 : 65535;
    if (t->length < 1 || t->length > max)
      return hl_err_set_at(p->err, (long)lpos, HL_ERROR, HL_SS(INVALID_COLUMN_DEFINITION),
                           "%s length %d is out of range [1, %d]",
                           t->id == HL_T_CHAR ? "char" : "varchar", t->length, max);
    break;
  }
  case HL_T_ARRAY:
  case HL_T_MAP: {
    if (!expect_char(p, '<')) return syntax_error(p, "expected \"<\"");
    t->n_children = t->id == HL_T_ARRAY ? 1 : 2;
    t->children = hl_arena_zalloc(p->arena, sizeof(hl_type_t *) * (size_t)t->n_children);
    if (!t->children) return hl_err_nomem(p->err);
    hl_status_t rc = parse_type(p, &t->children[0], depth + 1);
    if (rc != HL_OK) return rc;
    if (t->id == HL_T_MAP) {
      if (!expect_char(p, ',')) return syntax_error(p, "expected \",\"");
      rc = parse_type(p, &t->children[1], depth + 1);
      if (rc != HL_OK) return rc;
    }
    if (!expect_char(p, '>')) return syntax_error(p, "expected \">\"");
    break;
  }
  case HL_T_STRUCT: {
    if (!expect_char(p, '<')) return syntax_error(p, "expected \"<\"");
    hl_status_t rc = parse_struct_fields(p, t, depth);
    if (rc != HL_OK) return rc;
    break;
  }
  case HL_T_UNION: {
    if (!expect_char(p, '<')) return syntax_error(p, "expected \"<\"");
    hl_status_t rc = parse_union_alternatives(p, t, depth);
    if (rc != HL_OK) return rc;
    break;
  }
  default:
    break;
  }
  *out = t;
  return HL_OK;
}

hl_status_t hl_type_parse(hl_arena_t *arena, const char *text, size_t len, size_t *consumed,
                          hl_type_t **out, hl_error_t *err) {
  type_parser_t p = {.arena = arena, .text = text, .len = len, .pos = 0, .err = err};
  hl_status_t rc = parse_type(&p, out, 0);
  if (rc == HL_OK && consumed) *consumed = p.pos;
  return rc;
}

hl_status_t hl_type_parse_str(hl_arena_t *arena, const char *text, hl_type_t **out,
                              hl_error_t *err) {
  size_t len = strlen(text), used = 0;
  hl_status_t rc = hl_type_parse(arena, text, len, &used, out, err);
  if (rc != HL_OK) return rc;
  while (used < len && isspace((unsigned char)text[used]))
    used++;
  if (used != len)
    return hl_err_set_at(err, (long)used, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "unexpected text after type: \"%s\"", text + used);
  return HL_OK;
}

/* ------------------------------------------------------------ printing */

static void type_print(hl_buf_t *b, const hl_type_t *t) {
  switch (t->id) {
  case HL_T_DECIMAL:
    hl_buf_printf(b, "decimal(%d,%d)", t->precision, t->scale);
    return;
  case HL_T_VARCHAR:
    hl_buf_printf(b, "varchar(%d)", t->length);
    return;
  case HL_T_CHAR:
    hl_buf_printf(b, "char(%d)", t->length);
    return;
  case HL_T_ARRAY:
    hl_buf_puts(b, "array<");
    type_print(b, t->children[0]);
    hl_buf_putc(b, '>');
    return;
  case HL_T_MAP:
    hl_buf_puts(b, "map<");
    type_print(b, t->children[0]);
    hl_buf_putc(b, ',');
    type_print(b, t->children[1]);
    hl_buf_putc(b, '>');
    return;
  case HL_T_STRUCT:
    hl_buf_puts(b, "struct<");
    for (int i = 0; i < t->n_children; i++) {
      if (i) hl_buf_putc(b, ',');
      hl_buf_printf(b, "%s:", t->field_names[i]);
      type_print(b, t->children[i]);
    }
    hl_buf_putc(b, '>');
    return;
  case HL_T_UNION:
    hl_buf_puts(b, "uniontype<");
    for (int i = 0; i < t->n_children; i++) {
      if (i) hl_buf_putc(b, ',');
      type_print(b, t->children[i]);
    }
    hl_buf_putc(b, '>');
    return;
  case HL_T_NULL:
    hl_buf_puts(b, "void");
    return;
  default:
    break;
  }
  const char *name = hl_type_id_name(t->id);
  for (const char *c = name; *c; c++)
    hl_buf_putc(b, (char)tolower((unsigned char)*c));
}

char *hl_type_to_string(hl_arena_t *arena, const hl_type_t *type) {
  hl_buf_t b;
  hl_buf_init(&b);
  type_print(&b, type);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* ---------------------------------------------------------- properties */

bool hl_type_equal(const hl_type_t *a, const hl_type_t *b) {
  if (a->id != b->id) return false;
  switch (a->id) {
  case HL_T_DECIMAL:
    return a->precision == b->precision && a->scale == b->scale;
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    return a->length == b->length;
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
  case HL_T_UNION:
    if (a->n_children != b->n_children) return false;
    for (int i = 0; i < a->n_children; i++) {
      if (!hl_type_equal(a->children[i], b->children[i])) return false;
      if (a->id == HL_T_STRUCT && strcmp(a->field_names[i], b->field_names[i]) != 0) return false;
    }
    return true;
  default:
    return true;
  }
}

bool hl_type_is_integer(const hl_type_t *t) {
  return t->id >= HL_T_TINYINT && t->id <= HL_T_BIGINT;
}

bool hl_type_is_numeric(const hl_type_t *t) {
  return t->id >= HL_T_TINYINT && t->id <= HL_T_DECIMAL;
}

bool hl_type_is_string(const hl_type_t *t) {
  return t->id == HL_T_STRING || t->id == HL_T_VARCHAR || t->id == HL_T_CHAR;
}

bool hl_type_is_complex(const hl_type_t *t) {
  return t->id == HL_T_ARRAY || t->id == HL_T_MAP || t->id == HL_T_STRUCT || t->id == HL_T_UNION;
}

bool hl_type_is_interval(const hl_type_t *t) {
  return t->id == HL_T_INTERVAL_YM || t->id == HL_T_INTERVAL_DT;
}

bool hl_type_has_interval(const hl_type_t *t) {
  return hl_type_contains(t, HL_T_INTERVAL_YM) || hl_type_contains(t, HL_T_INTERVAL_DT);
}

bool hl_type_contains(const hl_type_t *t, hl_type_id_t id) {
  if (t->id == id) return true;
  for (int i = 0; i < t->n_children; i++)
    if (hl_type_contains(t->children[i], id)) return true;
  return false;
}

const char *hl_type_id_name(hl_type_id_t id) {
  static const char *const names[] = {
      "VOID",
      "BOOLEAN",
      "TINYINT",
      "SMALLINT",
      "INT",
      "BIGINT",
      "FLOAT",
      "DOUBLE",
      "DECIMAL",
      "STRING",
      "VARCHAR",
      "CHAR",
      "DATE",
      "TIMESTAMP",
      "BINARY",
      "ARRAY",
      "MAP",
      "STRUCT",
      "UNIONTYPE",
      "INTERVAL_YEAR_MONTH",
      "INTERVAL_DAY_TIME",
  };
  if ((size_t)id < sizeof names / sizeof names[0]) return names[id];
  return "UNKNOWN";
}
