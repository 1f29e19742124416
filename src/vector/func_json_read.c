/*
 * func_json_read.c -- json_read(json, type), as Hive's GenericUDFJsonRead:
 * the text parsed by Jackson and read by HiveJsonReader into the type.
 *
 * The document is checked once by func_json.c's scanner (text after the
 * root value is ignored, as Jackson's readTree), then walked into values.
 * HiveJsonReader's rules: JSON null is NULL for any type; an array must
 * meet an ARRAY, an object a STRUCT or a MAP, and neither a primitive
 * (STRING included: Hive would need json.stringify.complex.fields); a
 * member that is no field of the struct fails (fields match ignoring
 * case; a missing one is NULL; a repeated one keeps the last); map keys
 * convert from their text, a repeated key keeps its first place and takes
 * the last value.  Primitives convert as Jackson's JsonNode.asInt / asLong
 * / asDouble / asBoolean / asText do: numbers truncate and saturate like
 * Java's casts (a long wraps into an int), text parses as a number (then
 * as a double, truncated) or is 0, booleans are 1 / 0, a BOOLEAN is true
 * for a non-zero integer or the text "true"; DATE and TIMESTAMP parse the
 * text (failing as Hive does), DECIMAL is NULL when the text is none,
 * VARCHAR/CHAR cut and pad, BINARY is the base64 a string holds (Jackson's
 * MIME variant: padding required, blanks between quartets) and NULL for a
 * value that is no string.  A raw control character in a string is not
 * JSON, as Jackson's default parser says.  Typed by plan/bind.c; fuzzed in
 * fuzz.funcs.
 */
#include "vector/func_int.h"

#include "util/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct jr {
  const char *end;
  hl_arena_t *arena;
  const hl_expr_t *call;
  hl_error_t *err;
  hl_buf_t text; /* scratch: a string's contents or a number's text */
} jr_t;

/* A JSON scalar as Jackson holds it. */
typedef enum { N_TEXT, N_INT, N_DOUBLE, N_BOOL } node_kind_t;
typedef struct node {
  node_kind_t kind;
  uint64_t bits; /* N_INT: the value mod 2^64 (BigInteger's low bits) */
  bool big;      /* N_INT beyond a long: a BigIntegerNode */
  bool nonzero;  /* N_INT: any digit is not 0 */
  double d;      /* N_DOUBLE; N_INT beyond a long: its double */
  bool b;        /* N_BOOL */
  const char *s; /* N_TEXT (and every kind: asText) */
  size_t n;
} node_t;

static hl_status_t fail(jr_t *r, const char *sqlstate, const char *what) {
  return hl_err_set(r->err, HL_ERROR, sqlstate, "Error parsing json: %s", what);
}

/* Java's (int) and (long) of a double: truncation, NaN 0, saturation. */
static int64_t d2l(double d, int64_t lo, int64_t hi) {
  if (isnan(d)) return 0;
  if (d <= (double)lo) return lo;
  if (d >= (double)hi) return hi;
  return (int64_t)d;
}

/* Java's String.trim: characters up to U+0020 off both ends. */
static void jtrim(const char **s, size_t *n) {
  while (*n && (unsigned char)(*s)[0] <= ' ')
    (*s)++, (*n)--;
  while (*n && (unsigned char)(*s)[*n - 1] <= ' ')
    (*n)--;
}

/* Double.parseDouble of S[0..n); false when Java throws. */
static bool java_double(jr_t *r, const char *s, size_t n, double *out) {
  hl_value_t v;
  hl_error_t e;
  hl_err_init(&e);
  bool ok = hl_value_from_text(r->arena, hl_type_prim(HL_T_DOUBLE), s, n, &v, &e) == HL_OK;
  hl_err_clear(&e);
  if (ok) *out = v.u.d;
  return ok;
}

/* Jackson's NumberInput.parseAsLong / parseAsInt (BITS 64 or 32): digits
 * as an integer (0 on overflow), anything else through Double.parseDouble
 * truncated, 0 when that fails. */
static int64_t parse_as_integer(jr_t *r, const char *s, size_t n, int bits) {
  jtrim(&s, &n);
  if (!n) return 0;
  size_t i = 0;
  if (s[0] == '+')
    s++, n--;
  else if (s[0] == '-')
    i = 1;
  int64_t lo = bits == 32 ? INT32_MIN : INT64_MIN, hi = bits == 32 ? INT32_MAX : INT64_MAX;
  for (size_t k = i; k < n; k++)
    if (s[k] < '0' || s[k] > '9') {
      double d;
      return java_double(r, s, n, &d) ? d2l(d, lo, hi) : 0;
    }
  if (n == i) return 0; /* "" or "-": Integer.parseInt throws */
  uint64_t mag = 0, lim = s[0] == '-' ? (uint64_t)hi + 1 : (uint64_t)hi;
  for (size_t k = i; k < n; k++) {
    unsigned dg = (unsigned)(s[k] - '0');
    if (mag > (lim - dg) / 10) return 0; /* NumberFormatException: the default */
    mag = mag * 10 + dg;
  }
  return s[0] == '-' ? (int64_t)(0 - mag) : (int64_t)mag;
}

static int64_t as_integer(jr_t *r, const node_t *v, int bits) {
  int64_t lo = bits == 32 ? INT32_MIN : INT64_MIN, hi = bits == 32 ? INT32_MAX : INT64_MAX;
  switch (v->kind) {
  case N_INT: /* intValue / longValue: the low bits */
    return bits == 32 ? (int64_t)(int32_t)(uint32_t)v->bits : (int64_t)v->bits;
  case N_DOUBLE:
    return d2l(v->d, lo, hi);
  case N_BOOL:
    return v->b;
  default:
    return parse_as_integer(r, v->s, v->n, bits);
  }
}

static double as_double(jr_t *r, const node_t *v) {
  switch (v->kind) {
  case N_INT:
    return v->big ? v->d : (double)(int64_t)v->bits;
  case N_DOUBLE:
    return v->d;
  case N_BOOL:
    return v->b ? 1.0 : 0.0;
  default: {
    const char *s = v->s;
    size_t n = v->n;
    double d = 0;
    jtrim(&s, &n);
    return n && java_double(r, s, n, &d) ? d : 0.0;
  }
  }
}

static bool as_boolean(const node_t *v) {
  switch (v->kind) {
  case N_INT:
    return v->nonzero;
  case N_BOOL:
    return v->b;
  case N_TEXT: {
    const char *s = v->s;
    size_t n = v->n;
    jtrim(&s, &n);
    return n == 4 && memcmp(s, "true", 4) == 0;
  }
  default:
    return false; /* a DoubleNode keeps asBoolean's default */
  }
}

/* Jackson's MIME_NO_LINEFEEDS base64 of S[0..n) into a BINARY value:
 * padding required, blanks allowed before each quartet.  1; 0 when Jackson
 * throws; -1 out of memory. */
static int jackson_base64(jr_t *r, const char *s, size_t n, hl_value_t *out) {
  unsigned char *o = hl_arena_alloc(r->arena, n / 4 * 3 + 3);
  if (!o) return -1;
  size_t k = 0, i = 0;
  for (;;) {
    while (i < n && (unsigned char)s[i] <= ' ')
      i++;
    if (i >= n) break;
    if (n - i < 4) return 0;
    int d[4];
    for (int j = 0; j < 4; j++) {
      unsigned char c = (unsigned char)s[i + j];
      d[j] = c >= 'A' && c <= 'Z'   ? c - 'A'
             : c >= 'a' && c <= 'z' ? c - 'a' + 26
             : c >= '0' && c <= '9' ? c - '0' + 52
             : c == '+'             ? 62
             : c == '/'             ? 63
             : c == '='             ? -2
                                    : -1;
    }
    if (d[0] < 0 || d[1] < 0 || d[2] == -1 || d[3] == -1 || (d[2] == -2 && d[3] != -2)) return 0;
    uint32_t acc = (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12;
    o[k++] = (unsigned char)(acc >> 16);
    i += 4;
    if (d[2] == -2 || d[3] == -2) { /* padding ends the data */
      if (d[2] >= 0) o[k++] = (unsigned char)((acc | (uint32_t)d[2] << 6) >> 8);
      while (i < n && (unsigned char)s[i] <= ' ')
        i++;
      if (i < n) return 0;
      break;
    }
    acc |= (uint32_t)d[2] << 6 | (uint32_t)d[3];
    o[k++] = (unsigned char)(acc >> 8);
    o[k++] = (unsigned char)acc;
  }
  out->u.s.ptr = (const char *)o;
  out->u.s.len = (uint32_t)k;
  return 1;
}

/* The scalar at P (a string, number or literal; well-formed) into *V; its
 * text is in r->text, valid until the next scalar. */
static hl_status_t scalar_at(jr_t *r, const char *p, node_t *v) {
  memset(v, 0, sizeof *v);
  hl_buf_reset(&r->text);
  if (*p == '"') {
    v->kind = N_TEXT;
    hl_json_unescape(&r->text, p, r->end);
  } else if (*p == 't' || *p == 'f') {
    v->kind = N_BOOL;
    v->b = *p == 't';
    hl_buf_puts(&r->text, v->b ? "true" : "false");
  } else {
    const char *q = p + (*p == '-');
    while (q < r->end && *q >= '0' && *q <= '9')
      q++;
    bool is_int = q >= r->end || (*q != '.' && *q != 'e' && *q != 'E');
    hl_json_number_text(&r->text, p, r->end);
    if (r->text.oom) return hl_err_nomem(r->err);
    const char *t = r->text.len ? r->text.data : "";
    if (is_int) {
      v->kind = N_INT;
      bool neg = p[0] == '-';
      uint64_t mag = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
      for (const char *c = p + neg; c < q; c++) {
        unsigned dg = (unsigned)(*c - '0');
        if (dg) v->nonzero = true;
        if (mag > (lim - dg) / 10) v->big = true;
        mag = mag * 10 + dg; /* mod 2^64 */
      }
      v->bits = neg ? 0 - mag : mag;
      if (v->big) v->d = strtod(t, NULL);
    } else {
      v->kind = N_DOUBLE;
      v->d = strtod(t, NULL); /* Jackson's double: overflow is Infinity */
    }
  }
  if (r->text.oom) return hl_err_nomem(r->err);
  v->s = r->text.len ? r->text.data : "";
  v->n = r->text.len;
  return HL_OK;
}

/* Node V read as the primitive TYPE (HiveJsonReader.visitLeafNode). */
static hl_status_t leaf(jr_t *r, const node_t *v, const hl_type_t *type, hl_value_t *out) {
  memset(out, 0, sizeof *out);
  switch (type->id) {
  case HL_T_BOOLEAN:
    out->u.b = as_boolean(v);
    return HL_OK;
  case HL_T_TINYINT:
    out->u.i = (int8_t)as_integer(r, v, 32);
    return HL_OK;
  case HL_T_SMALLINT:
    out->u.i = (int16_t)as_integer(r, v, 32);
    return HL_OK;
  case HL_T_INT:
    out->u.i = as_integer(r, v, 32);
    return HL_OK;
  case HL_T_BIGINT:
    out->u.i = as_integer(r, v, 64);
    return HL_OK;
  case HL_T_FLOAT:
    out->u.d = (double)(float)as_double(r, v);
    return HL_OK;
  case HL_T_DOUBLE:
    out->u.d = as_double(r, v);
    return HL_OK;
  case HL_T_BINARY:
    if (v->kind != N_TEXT) {
      out->is_null = true; /* binaryValue() of a node that is no text */
      return HL_OK;
    }
    switch (jackson_base64(r, v->s, v->n, out)) {
    case 1:
      return HL_OK;
    case 0:
      return fail(r, HL_SS(INVALID_TEXT_REPRESENTATION), "a binary value is not base64");
    default:
      return hl_err_nomem(r->err);
    }
  case HL_T_DATE: {
    /* Hive's Date.valueOf: y-m-d (up to 4, 2 and 2 digits) after a trim;
     * what follows is ignored unless it starts with a digit */
    const char *t = v->s;
    size_t n = v->n, k = 0;
    jtrim(&t, &n);
    bool ok = true;
    for (int part = 0; part < 3 && ok; part++) {
      size_t d0 = k;
      while (k < n && k - d0 < (part ? 2u : 4u) && t[k] >= '0' && t[k] <= '9')
        k++;
      ok = k > d0 && (part == 2 || (k < n && t[k++] == '-'));
    }
    if (ok && (k == n || t[k] < '0' || t[k] > '9') && hl_parse_date(t, k, &out->u.i) == 0)
      return HL_OK;
    return hl_err_set(r->err, HL_ERROR, HL_SS(INVALID_DATETIME_FORMAT),
                      "Error parsing json: \"%.64s\" is not a date", v->s);
  }
  default: {
    /* asText, then Hive's reading of the text */
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = hl_value_from_text(r->arena, type, v->s, v->n, out, &e);
    hl_err_clear(&e);
    if (rc == HL_NOMEM) return hl_err_nomem(r->err);
    if (rc == HL_OK) return HL_OK;
    if (type->id == HL_T_DECIMAL) { /* HiveDecimal.create gives null */
      out->is_null = true;
      return HL_OK;
    }
    return hl_err_set(r->err, HL_ERROR, HL_SS(INVALID_DATETIME_FORMAT),
                      "Error parsing json: \"%.64s\" is not a timestamp", v->s);
  }
  }
}

static hl_status_t read_value(jr_t *r, const char **pp, const hl_type_t *type, hl_value_t *out);

/* Grows the value array *ITEMS of capacity *CAP to hold N + 1. */
static bool grow(jr_t *r, hl_value_t **items, size_t *cap, size_t n) {
  if (n < *cap) return true;
  size_t nc = *cap ? *cap * 2 : 8;
  hl_value_t *ni = hl_arena_realloc(r->arena, *items, *cap * sizeof **items, nc * sizeof **items);
  if (!ni) return false;
  *items = ni;
  *cap = nc;
  return true;
}

typedef struct key_order {
  const hl_type_t *type;
  const hl_value_t *items; /* key, value pairs */
} key_order_t;

static int cmp_keys(const void *ctx, size_t a, size_t b) {
  const key_order_t *k = ctx;
  const hl_value_t *x = &k->items[2 * a], *y = &k->items[2 * b];
  if (x->is_null || y->is_null) return (int)y->is_null - (int)x->is_null; /* NULL first */
  return hl_value_compare(k->type, x, y);
}

/* A repeated key keeps its first place and takes the last value, as
 * Java's LinkedHashMap: sorted positions, each run of equal keys folded. */
static hl_status_t fold_keys(jr_t *r, const hl_type_t *kt, hl_value_t *items, size_t n,
                             size_t *out_n) {
  if (n < 2) {
    *out_n = n;
    return HL_OK;
  }
  size_t *idx = hl_arena_alloc(r->arena, 2 * n * sizeof *idx);
  bool *drop = hl_arena_zalloc(r->arena, n);
  if (!idx || !drop) return hl_err_nomem(r->err);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  key_order_t ko = {kt, items};
  hl_sort_indexes(idx, idx + n, n, cmp_keys, &ko);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && items[2 * idx[i]].is_null == items[2 * idx[j]].is_null &&
           (items[2 * idx[i]].is_null || cmp_keys(&ko, idx[i], idx[j]) == 0))
      j++;
    /* stable: idx[i] is the first place, idx[j - 1] the last value */
    items[2 * idx[i] + 1] = items[2 * idx[j - 1] + 1];
    for (size_t k = i + 1; k < j; k++)
      drop[idx[k]] = true;
    i = j;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!drop[i]) {
      items[2 * m] = items[2 * i];
      items[2 * m + 1] = items[2 * i + 1];
      m++;
    }
  *out_n = m;
  return HL_OK;
}

/* The object at *PP as a STRUCT or a MAP TYPE; *PP moves past it. */
static hl_status_t read_object(jr_t *r, const char **pp, const hl_type_t *type, hl_value_t *out) {
  const char *p = *pp + 1;
  bool is_map = type->id == HL_T_MAP;
  size_t n = 0, cap = 0;
  hl_value_t *items = NULL;
  if (!is_map) {
    items = hl_arena_alloc(r->arena, sizeof *items * (size_t)(type->n_children + 1));
    if (!items) return hl_err_nomem(r->err);
    for (int k = 0; k < type->n_children; k++) {
      memset(&items[k], 0, sizeof items[k]);
      items[k].is_null = true;
    }
  }
  p = hl_json_ws(p, r->end);
  while (*p != '}') {
    node_t key;
    hl_status_t rc = scalar_at(r, p, &key);
    if (rc != HL_OK) return rc;
    p = hl_json_ws(hl_json_skip_value(p, r->end), r->end) + 1; /* past the ':' */
    if (is_map) {
      if (!grow(r, &items, &cap, 2 * n + 1)) return hl_err_nomem(r->err);
      if ((rc = leaf(r, &key, type->children[0], &items[2 * n])) != HL_OK) return rc;
      if ((rc = read_value(r, &p, type->children[1], &items[2 * n + 1])) != HL_OK) return rc;
      n++;
    } else {
      int f = -1;
      for (int k = 0; k < type->n_children && f < 0; k++)
        if (strlen(type->field_names[k]) == key.n &&
            strncasecmp(type->field_names[k], key.s, key.n) == 0)
          f = k;
      if (f < 0)
        return hl_err_set(r->err, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                          "Error parsing json: Field found in JSON does not match table "
                          "definition: %.64s",
                          key.s);
      if ((rc = read_value(r, &p, type->children[f], &items[f])) != HL_OK) return rc;
    }
    p = hl_json_ws(p, r->end);
    if (*p == ',') p = hl_json_ws(p + 1, r->end);
  }
  *pp = p + 1;
  memset(out, 0, sizeof *out);
  if (is_map) {
    hl_status_t rc = fold_keys(r, type->children[0], items, n, &n);
    if (rc != HL_OK) return rc;
  } else {
    n = (size_t)type->n_children;
  }
  out->u.list.n = (uint32_t)n;
  if (!items && !(items = hl_arena_alloc(r->arena, sizeof *items))) return hl_err_nomem(r->err);
  out->u.list.items = items;
  return HL_OK;
}

static const char *kind_name(char c) {
  return c == '{' ? "an object" : c == '[' ? "an array" : "a scalar";
}

/* The value at *PP (well-formed) as TYPE; *PP moves past it. */
static hl_status_t read_value(jr_t *r, const char **pp, const hl_type_t *type, hl_value_t *out) {
  const char *p = hl_json_ws(*pp, r->end);
  memset(out, 0, sizeof *out);
  if (*p == 'n') { /* null */
    out->is_null = true;
    *pp = p + 4;
    return HL_OK;
  }
  char c = *p;
  bool container = c == '{' || c == '[';
  if (type->id == HL_T_ARRAY && c == '[') {
    size_t n = 0, cap = 0;
    hl_value_t *items = NULL;
    p = hl_json_ws(p + 1, r->end);
    while (*p != ']') {
      if (!grow(r, &items, &cap, n)) return hl_err_nomem(r->err);
      hl_status_t rc = read_value(r, &p, type->children[0], &items[n++]);
      if (rc != HL_OK) return rc;
      p = hl_json_ws(p, r->end);
      if (*p == ',') p = hl_json_ws(p + 1, r->end);
    }
    *pp = p + 1;
    out->u.list.n = (uint32_t)n;
    out->u.list.items = items;
    return HL_OK;
  }
  if ((type->id == HL_T_STRUCT || type->id == HL_T_MAP) && c == '{') {
    *pp = p;
    return read_object(r, pp, type, out);
  }
  if (hl_type_is_complex(type) || container) {
    if (type->id == HL_T_STRING)
      return fail(r, HL_SS(DATATYPE_MISMATCH),
                  "Complex field found in JSON does not match table definition: string");
    char *tn = hl_type_to_string(r->arena, type);
    if (!tn) return hl_err_nomem(r->err);
    return hl_err_set(r->err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "Error parsing json: %s cannot be read as %s", kind_name(c), tn);
  }
  node_t v;
  hl_status_t rc = scalar_at(r, p, &v);
  if (rc == HL_OK) rc = leaf(r, &v, type, out);
  *pp = hl_json_skip_value(p, r->end);
  return rc;
}

/* Whether a string of the well-formed value P[0..e) holds a raw control
 * character, which Jackson's default parser refuses (get_json_object's
 * enables them; the shared scanner accepts them). */
static bool raw_control(const char *p, const char *e) {
  bool in_string = false;
  for (; p < e; p++) {
    unsigned char c = (unsigned char)*p;
    if (!in_string) {
      in_string = c == '"';
    } else if (c == '\\') {
      p++;
    } else if (c == '"') {
      in_string = false;
    } else if (c < 0x20) {
      return true;
    }
  }
  return false;
}

HL_FN(hl_fn_json_read) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const char *s = a[0].u.s.ptr, *e = s + a[0].u.s.len;
  const char *t = s;
  size_t tn = a[0].u.s.len;
  jtrim(&t, &tn);
  if (!tn) { /* empty or blank text: NULL */
    out->is_null = true;
    return HL_OK;
  }
  const char *root = hl_json_ws(s, e), *root_end = root < e ? hl_json_skip_value(root, e) : NULL;
  if (!root_end || raw_control(root, root_end))
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                         "json_read: the text is not JSON");
  jr_t r = {e, arena, call, err, {0}};
  hl_buf_init(&r.text);
  hl_status_t rc = read_value(&r, &root, call->type, out);
  hl_buf_fini(&r.text);
  if (rc != HL_OK && err->position < 0) err->position = call->pos;
  return rc;
}

/* Hive's type strings (TypeInfoUtils) allow blanks inside a struct's field
 * names ("struct<accepts credit cards:boolean>"), which hivelite's type
 * grammar (util/type.c) reads only backquoted: the text of TEXT[0..len)
 * with each such name backquoted, in ARENA (NULL on OOM). */
char *hl_json_read_type_text(hl_arena_t *arena, const char *text, size_t len) {
  char *o = hl_arena_alloc(arena, 3 * len + 1);
  bool stack[256]; /* per open '<': whether it is a struct's */
  int depth = 0;
  if (!o) return NULL;
  size_t k = 0;
  bool field_start = false;
  for (size_t i = 0; i < len;) {
    char c = text[i];
    if (field_start) {
      field_start = false;
      size_t j = i;
      while (j < len && text[j] != ':' && text[j] != '<' && text[j] != '>' && text[j] != ',' &&
             text[j] != '`')
        j++;
      size_t s = i, e = j;
      while (s < e && (text[s] == ' ' || text[s] == '\t'))
        s++;
      while (e > s && (text[e - 1] == ' ' || text[e - 1] == '\t'))
        e--;
      if (j < len && text[j] == ':' && memchr(text + s, ' ', e - s)) {
        o[k++] = '`';
        memcpy(o + k, text + s, e - s);
        k += e - s;
        o[k++] = '`';
        i = j;
        continue;
      }
    }
    if (c == '<') {
      size_t b = k;
      while (b > 0 && (o[b - 1] == ' ' || o[b - 1] == '\t'))
        b--;
      bool is_struct = b >= 6 && strncasecmp(o + b - 6, "struct", 6) == 0;
      if (depth < (int)(sizeof stack / sizeof stack[0])) stack[depth] = is_struct;
      depth++;
      field_start = is_struct;
    } else if (c == '>') {
      if (depth > 0) depth--;
    } else if (c == ',' && depth > 0 && depth <= (int)(sizeof stack / sizeof stack[0])) {
      field_start = stack[depth - 1];
    }
    o[k++] = c;
    i++;
  }
  o[k] = 0;
  return o;
}
