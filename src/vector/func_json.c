/*
 * func_json.c -- get_json_object(json, path), as Hive's UDFJson.
 *
 * The document is validated once (an invalid one, or one whose root is not
 * an object or an array, gives NULL; text after the root value is
 * ignored, as Jackson's ObjectMapper does), then the path is walked over
 * the text itself: no tree is built.  Path: '$', then steps ".key" (a key
 * is letters, digits, '_', '-', ':' and blanks, as Hive's pattern) and
 * "[n]" / "[*]".  Hive's list rules: a key step on an array maps over its
 * object elements and flattens array results; "[*]" flattens one level.
 * Result: a string value unescaped, other scalars as text (numbers as
 * Jackson prints them: integers as written, others as Java's
 * Double.toString), objects and arrays as compact JSON; JSON null, a
 * missing key or a bad path is NULL.  Depth is capped at 512.
 */
#include "vector/func_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512

typedef struct jlist jlist_t;

/* A value: a span of the document, or a list built by a step. */
typedef struct jv {
  const char *p; /* first byte of the value (no leading blanks) */
  jlist_t *list; /* not NULL: a synthetic list, p unused */
} jv_t;

struct jlist {
  jv_t *v;
  size_t n, cap;
};

typedef struct jctx {
  const char *end;
  hl_arena_t *arena;
  bool oom;
} jctx_t;

static const char *ws(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p;
}

static const char *skip_string(const char *p, const char *e) {
  for (p++; p < e; p++) {
    if (*p == '"') return p + 1;
    if (*p == '\\') {
      if (++p >= e) return NULL;
      if (*p == 'u') {
        for (int k = 1; k <= 4; k++)
          if (p + k >= e || !strchr("0123456789abcdefABCDEF", p[k]) || !p[k]) return NULL;
        p += 4;
      } else if (!strchr("\"\\/bfnrt", *p) || !*p) {
        return NULL;
      }
    } /* raw control characters are allowed (Hive enables them) */
  }
  return NULL;
}

static const char *skip_number(const char *p, const char *e, bool *is_int) {
  const char *s = p;
  *is_int = true;
  if (p < e && *p == '-') p++;
  if (p >= e) return NULL;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (p < e && *p >= '0' && *p <= '9')
      p++;
  else
    return NULL;
  if (p < e && *p == '.') {
    *is_int = false;
    if (++p >= e || *p < '0' || *p > '9') return NULL;
    while (p < e && *p >= '0' && *p <= '9')
      p++;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    *is_int = false;
    p++;
    if (p < e && (*p == '+' || *p == '-')) p++;
    if (p >= e || *p < '0' || *p > '9') return NULL;
    while (p < e && *p >= '0' && *p <= '9')
      p++;
  }
  return p > s ? p : NULL;
}

/* The end of the value at P (after blanks), NULL when it is malformed. */
static const char *skip_value(const char *p, const char *e, int depth) {
  p = ws(p, e);
  if (p >= e || depth > MAX_DEPTH) return NULL;
  bool is_int;
  switch (*p) {
  case '"':
    return skip_string(p, e);
  case '{':
  case '[': {
    char close = *p == '{' ? '}' : ']';
    bool obj = *p == '{';
    p = ws(p + 1, e);
    if (p < e && *p == close) return p + 1;
    for (;;) {
      if (obj) {
        p = ws(p, e);
        if (p >= e || *p != '"' || !(p = skip_string(p, e))) return NULL;
        p = ws(p, e);
        if (p >= e || *p != ':') return NULL;
        p++;
      }
      if (!(p = skip_value(p, e, depth + 1))) return NULL;
      p = ws(p, e);
      if (p >= e) return NULL;
      if (*p == close) return p + 1;
      if (*p != ',') return NULL;
      p++;
    }
  }
  case 't':
    return e - p >= 4 && memcmp(p, "true", 4) == 0 ? p + 4 : NULL;
  case 'f':
    return e - p >= 5 && memcmp(p, "false", 5) == 0 ? p + 5 : NULL;
  case 'n':
    return e - p >= 4 && memcmp(p, "null", 4) == 0 ? p + 4 : NULL;
  default:
    return skip_number(p, e, &is_int);
  }
}

static bool list_add(jctx_t *c, jlist_t *l, jv_t v) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 8;
    jv_t *w = hl_arena_alloc(c->arena, sizeof(jv_t) * cap);
    if (!w) return !(c->oom = true);
    if (l->n) memcpy(w, l->v, sizeof(jv_t) * l->n);
    l->v = w;
    l->cap = cap;
  }
  l->v[l->n++] = v;
  return true;
}

static jlist_t *list_new(jctx_t *c) {
  jlist_t *l = hl_arena_zalloc(c->arena, sizeof *l);
  if (!l) c->oom = true;
  return l;
}

static bool is_array(const jv_t *v) {
  return v->list || *v->p == '[';
}

/* The elements of an array value (a synthetic list or a document array). */
static jlist_t *elements(jctx_t *c, const jv_t *v) {
  if (v->list) return v->list;
  jlist_t *l = list_new(c);
  if (!l) return NULL;
  const char *p = ws(v->p + 1, c->end);
  if (*p == ']') return l;
  for (;;) {
    jv_t x = {ws(p, c->end), NULL};
    if (!list_add(c, l, x)) return NULL;
    p = ws(skip_value(p, c->end, 0), c->end);
    if (*p == ']') return l;
    p++; /* ',' (validated) */
  }
}

/* Compares the JSON string at Q (quoted, escapes possible) with KEY. */
static bool key_equals(const char *q, const char *qe, const char *key, size_t kn) {
  size_t k = 0;
  for (const char *p = q + 1; p < qe - 1; p++) {
    char ch = *p;
    if (ch == '\\') {
      p++;
      switch (*p) {
      case 'n':
        ch = '\n';
        break;
      case 't':
        ch = '\t';
        break;
      case 'r':
        ch = '\r';
        break;
      case 'b':
        ch = '\b';
        break;
      case 'f':
        ch = '\f';
        break;
      case 'u':
        return false; /* keys are restricted to plain characters */
      default:
        ch = *p;
      }
    }
    if (k >= kn || key[k] != ch) return false;
    k++;
  }
  return k == kn;
}

/* The member KEY of the object at P (the last one of that name, as a map
 * built from the document keeps), NULL when absent. */
static const char *member(jctx_t *c, const char *p, const char *key, size_t kn) {
  const char *found = NULL;
  p = ws(p + 1, c->end);
  if (*p == '}') return NULL;
  for (;;) {
    const char *q = ws(p, c->end), *qe = skip_string(q, c->end);
    const char *v = ws(ws(qe, c->end) + 1, c->end);
    if (key_equals(q, qe, key, kn)) found = v;
    p = ws(skip_value(v, c->end, 0), c->end);
    if (*p == '}') return found;
    p++;
  }
}

static bool is_null_value(const jv_t *v) {
  return !v->list && *v->p == 'n';
}

/* A key step, as Hive's extract_json_withkey. */
static bool step_key(jctx_t *c, jv_t *v, const char *key, size_t kn) {
  if (v->list || *v->p == '[') {
    jlist_t *el = elements(c, v), *r = el ? list_new(c) : NULL;
    if (!r) return false;
    for (size_t i = 0; i < el->n; i++) {
      if (el->v[i].list || *el->v[i].p != '{') continue;
      const char *m = member(c, el->v[i].p, key, kn);
      if (!m || *m == 'n') continue;
      jv_t x = {m, NULL};
      if (*m == '[') {
        jlist_t *sub = elements(c, &x);
        if (!sub) return false;
        for (size_t j = 0; j < sub->n; j++)
          if (!list_add(c, r, sub->v[j])) return false;
      } else if (!list_add(c, r, x)) {
        return false;
      }
    }
    if (r->n == 0) return false;
    v->list = r;
    return true;
  }
  if (*v->p != '{') return false;
  const char *m = member(c, v->p, key, kn);
  if (!m) return false;
  v->p = m;
  return !is_null_value(v);
}

/* An index step: [n] or, with STAR, [*]. */
static bool step_index(jctx_t *c, jv_t *v, bool star, int64_t idx) {
  if (!is_array(v)) return false;
  jlist_t *el = elements(c, v);
  if (!el) return false;
  if (!star) {
    if (idx < 0 || (size_t)idx >= el->n) return false;
    *v = el->v[idx];
    return !is_null_value(v);
  }
  jlist_t *r = list_new(c);
  if (!r) return false;
  for (size_t i = 0; i < el->n; i++) {
    if (is_array(&el->v[i])) {
      jlist_t *sub = elements(c, &el->v[i]);
      if (!sub) return false;
      for (size_t j = 0; j < sub->n; j++)
        if (!list_add(c, r, sub->v[j])) return false;
    } else if (!list_add(c, r, el->v[i])) {
      return false;
    }
  }
  v->list = r;
  v->p = NULL;
  return true;
}

/* Appends the code point CP as UTF-8. */
static void put_utf8(hl_buf_t *b, uint32_t cp) {
  char o[4];
  size_t n;
  if (cp < 0x80) {
    o[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    o[0] = (char)(0xC0 | cp >> 6);
    o[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    o[0] = (char)(0xE0 | cp >> 12);
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  hl_buf_append(b, o, n);
}

static uint32_t hex4(const char *p) {
  return (uint32_t)strtoul((char[5]){p[0], p[1], p[2], p[3], 0}, NULL, 16);
}

/* Appends the contents of the JSON string at P, unescaped. */
static void unescape(hl_buf_t *b, const char *p, const char *e) {
  const char *end = skip_string(p, e) - 1;
  for (p++; p < end; p++) {
    if (*p != '\\') {
      hl_buf_putc(b, *p);
      continue;
    }
    p++;
    switch (*p) {
    case 'n':
      hl_buf_putc(b, '\n');
      break;
    case 't':
      hl_buf_putc(b, '\t');
      break;
    case 'r':
      hl_buf_putc(b, '\r');
      break;
    case 'b':
      hl_buf_putc(b, '\b');
      break;
    case 'f':
      hl_buf_putc(b, '\f');
      break;
    case 'u': {
      uint32_t cp = hex4(p + 1);
      p += 4;
      if (cp >= 0xD800 && cp < 0xDC00 && end - p > 6 && p[1] == '\\' && p[2] == 'u') {
        uint32_t lo = hex4(p + 3);
        if (lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        }
      }
      put_utf8(b, cp);
      break;
    }
    default:
      hl_buf_putc(b, *p);
    }
  }
}

/* Appends a number as Jackson prints what it parsed; one that overflows a
 * double is Infinity, quoted inside an object or array (Jackson's
 * QUOTE_NON_NUMERIC_NUMBERS), bare at the top (Java's toString). */
static void number_text(hl_buf_t *b, const char *p, const char *e, bool nested) {
  bool is_int;
  const char *q = skip_number(p, e, &is_int);
  if (is_int) {
    if (q - p == 2 && p[0] == '-' && p[1] == '0')
      hl_buf_putc(b, '0');
    else
      hl_buf_append(b, p, (size_t)(q - p));
    return;
  }
  char tmp[512];
  size_t n = (size_t)(q - p) < sizeof tmp - 1 ? (size_t)(q - p) : sizeof tmp - 1;
  memcpy(tmp, p, n);
  tmp[n] = 0;
  double d = strtod(tmp, NULL);
  if (nested && !isfinite(d)) hl_buf_putc(b, '"');
  hl_format_double(b, d, false);
  if (nested && !isfinite(d)) hl_buf_putc(b, '"');
}

static void write_string(hl_buf_t *b, const char *p, const char *e) {
  hl_buf_t raw;
  hl_buf_init(&raw);
  unescape(&raw, p, e);
  hl_buf_putc(b, '"');
  for (size_t i = 0; i < raw.len; i++) {
    unsigned char ch = (unsigned char)raw.data[i];
    if (ch == '"' || ch == '\\') {
      hl_buf_putc(b, '\\');
      hl_buf_putc(b, (char)ch);
    } else if (ch == '\n') {
      hl_buf_append(b, "\\n", 2);
    } else if (ch == '\t') {
      hl_buf_append(b, "\\t", 2);
    } else if (ch == '\r') {
      hl_buf_append(b, "\\r", 2);
    } else if (ch == '\b') {
      hl_buf_append(b, "\\b", 2);
    } else if (ch == '\f') {
      hl_buf_append(b, "\\f", 2);
    } else if (ch < 0x20) {
      hl_buf_printf(b, "\\u%04X", ch);
    } else {
      hl_buf_putc(b, (char)ch);
    }
  }
  if (raw.oom) b->oom = true;
  hl_buf_fini(&raw);
  hl_buf_putc(b, '"');
}

/* Compact JSON of the value (Jackson's writeValueAsString); NESTED: inside
 * an object or array. */
static void write_value(jctx_t *c, hl_buf_t *b, const jv_t *v, bool nested) {
  if (v->list) {
    hl_buf_putc(b, '[');
    for (size_t i = 0; i < v->list->n; i++) {
      if (i) hl_buf_putc(b, ',');
      write_value(c, b, &v->list->v[i], true);
    }
    hl_buf_putc(b, ']');
    return;
  }
  const char *p = v->p, *e = c->end;
  switch (*p) {
  case '"':
    write_string(b, p, e);
    return;
  case '{':
  case '[': {
    char close = *p == '{' ? '}' : ']';
    bool obj = *p == '{';
    hl_buf_putc(b, *p);
    p = ws(p + 1, e);
    bool first = true;
    while (*p != close) {
      if (!first) hl_buf_putc(b, ',');
      first = false;
      if (obj) {
        write_string(b, p, e);
        hl_buf_putc(b, ':');
        p = ws(ws(skip_string(p, e), e) + 1, e);
      }
      jv_t x = {p, NULL};
      write_value(c, b, &x, true);
      p = ws(skip_value(p, e, 0), e);
      if (*p == ',') p = ws(p + 1, e);
    }
    hl_buf_putc(b, close);
    return;
  }
  case 't':
    hl_buf_append(b, "true", 4);
    return;
  case 'f':
    hl_buf_append(b, "false", 5);
    return;
  case 'n':
    hl_buf_append(b, "null", 4);
    return;
  default:
    number_text(b, p, e, nested);
  }
}

static bool key_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '_' || ch == '-' || ch == ':' || ch == ' ' || ch == '\t';
}

/* Walks PATH from V; false when the result is NULL. */
static bool walk(jctx_t *c, jv_t *v, const char *path, size_t n) {
  if (n == 0 || path[0] != '$' || path[n - 1] == '.') return false;
  size_t i = 1;
  while (i < n) {
    if (path[i] == '.') {
      size_t k0 = ++i;
      while (i < n && key_char(path[i]))
        i++;
      if (i == k0 || (i < n && path[i] != '.' && path[i] != '[')) return false;
      if (!step_key(c, v, path + k0, i - k0)) return false;
    } else if (path[i] == '[') {
      i++;
      bool star = i < n && path[i] == '*';
      int64_t idx = 0;
      if (star) {
        i++;
      } else {
        size_t d0 = i;
        while (i < n && path[i] >= '0' && path[i] <= '9' && idx < INT32_MAX)
          idx = idx * 10 + (path[i++] - '0');
        if (i == d0) return false;
      }
      if (i >= n || path[i] != ']') return false;
      i++;
      if (!step_index(c, v, star, idx)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/* For json_read (func_json_read.c): the same scanner, over well-formed
 * values (func_int.h). */
const char *hl_json_ws(const char *p, const char *e) {
  return ws(p, e);
}

const char *hl_json_skip_value(const char *p, const char *e) {
  return skip_value(p, e, 0);
}

void hl_json_unescape(hl_buf_t *b, const char *p, const char *e) {
  unescape(b, p, e);
}

void hl_json_number_text(hl_buf_t *b, const char *p, const char *e) {
  number_text(b, p, e, false);
}

hl_status_t hl_json_extract(const char *json, size_t jn, const char *path, size_t pn,
                            hl_arena_t *arena, hl_buf_t *out, bool *found) {
  jctx_t c = {json + jn, arena, false};
  *found = false;
  const char *root = ws(json, c.end);
  if (root >= c.end || (*root != '{' && *root != '[') || !skip_value(root, c.end, 0)) return HL_OK;
  jv_t v = {root, NULL};
  if (!walk(&c, &v, path, pn)) return c.oom ? HL_NOMEM : HL_OK;
  *found = true;
  if (!v.list && *v.p == '"')
    unescape(out, v.p, c.end);
  else
    write_value(&c, out, &v, false);
  return out->oom ? HL_NOMEM : HL_OK;
}

HL_FN(hl_fn_get_json_object) {
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  bool found;
  hl_status_t rc =
      hl_json_extract(a[0].u.s.ptr, a[0].u.s.len, a[1].u.s.ptr, a[1].u.s.len, arena, &b, &found);
  char *p = NULL;
  if (rc == HL_OK && found && (p = hl_fn_alloc_str(out, arena, b.len)) && b.len)
    memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  if (rc != HL_OK || (found && !p)) return hl_err_nomem(err);
  if (!found) out->is_null = true;
  return HL_OK;
}
