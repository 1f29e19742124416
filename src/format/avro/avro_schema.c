/*
 * avro_schema.c -- Avro schemas: JSON text to schema nodes (jansson),
 * nodes to Hive types (Hive's SchemaToTypeInfo), Hive columns to a schema
 * (Hive's TypeInfoToSchema) and back to JSON, and how a table finds its
 * schema (avro.schema.literal, avro.schema.url, its columns).
 *
 * Invariant: a parsed schema is a finite tree of nodes (named types may be
 * referenced more than once, but never from inside themselves: recursive
 * schemas are refused, since no Hive type can hold them), nested at most
 * HL_AVRO_MAX_DEPTH deep; everything lives in the caller's arena.
 */
#include "format/avro/avro_int.h"

#include "util/mem.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* --------------------------------------------------------------- parsing */

typedef struct named {
  const char *full;
  av_node_t *node;
} named_t;

typedef struct pctx {
  hl_arena_t *arena;
  const char *what;
  hl_error_t *err;
  named_t *names;
  int n_names, cap_names;
} pctx_t;

static hl_status_t bad(pctx_t *c, const char *why, const char *detail) {
  return hl_err_set(c->err, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                    "invalid Avro schema%s%s: %s%s%s", c->what ? " in " : "",
                    c->what ? c->what : "", why, detail ? " " : "", detail ? detail : "");
}

static const struct {
  const char *name;
  av_kind_t kind;
} primitives[] = {{"null", AV_NULL},   {"boolean", AV_BOOLEAN}, {"int", AV_INT},
                  {"long", AV_LONG},   {"float", AV_FLOAT},     {"double", AV_DOUBLE},
                  {"bytes", AV_BYTES}, {"string", AV_STRING}};

static int primitive_kind(const char *s) {
  for (size_t i = 0; i < sizeof primitives / sizeof primitives[0]; i++)
    if (strcmp(primitives[i].name, s) == 0) return (int)primitives[i].kind;
  return -1;
}

static char *full_name(pctx_t *c, const char *name, const char *ns) {
  if (strchr(name, '.') || !ns || !*ns) return hl_arena_strdup(c->arena, name);
  return hl_arena_sprintf(c->arena, "%s.%s", ns, name);
}

static av_node_t *lookup(pctx_t *c, const char *name, const char *ns) {
  char *full = full_name(c, name, ns);
  for (int i = 0; full && i < c->n_names; i++)
    if (strcmp(c->names[i].full, full) == 0) return c->names[i].node;
  for (int i = 0; i < c->n_names; i++) /* an unqualified name of the null namespace */
    if (strcmp(c->names[i].full, name) == 0) return c->names[i].node;
  return NULL;
}

static hl_status_t define(pctx_t *c, const char *full, av_node_t *n) {
  for (int i = 0; i < c->n_names; i++)
    if (strcmp(c->names[i].full, full) == 0) return bad(c, "type defined twice:", full);
  if (c->n_names == c->cap_names) {
    int cap = c->cap_names ? c->cap_names * 2 : 8;
    named_t *nn = hl_arena_realloc(c->arena, c->names, sizeof(named_t) * (size_t)c->cap_names,
                                   sizeof(named_t) * (size_t)cap);
    if (!nn) return hl_err_nomem(c->err);
    c->names = nn;
    c->cap_names = cap;
  }
  c->names[c->n_names].full = full;
  c->names[c->n_names++].node = n;
  n->name = full;
  return HL_OK;
}

static hl_status_t parse_node(pctx_t *c, json_t *j, const char *ns, int depth, av_node_t **out);

static hl_status_t strings_of(pctx_t *c, json_t *arr, const char ***out, int *n) {
  *out = NULL;
  *n = 0;
  if (!arr) return HL_OK;
  if (!json_is_array(arr)) return bad(c, "aliases and symbols must be arrays of strings", NULL);
  size_t k = json_array_size(arr);
  const char **v = hl_arena_alloc(c->arena, sizeof(char *) * (k + 1));
  if (!v) return hl_err_nomem(c->err);
  for (size_t i = 0; i < k; i++) {
    json_t *s = json_array_get(arr, i);
    if (!json_is_string(s)) return bad(c, "aliases and symbols must be arrays of strings", NULL);
    if (!(v[i] = hl_arena_strdup(c->arena, json_string_value(s)))) return hl_err_nomem(c->err);
  }
  *out = v;
  *n = (int)k;
  return HL_OK;
}

static int int_prop(json_t *o, const char *key, int dflt) {
  json_t *v = json_object_get(o, key);
  if (json_is_integer(v)) {
    json_int_t x = json_integer_value(v);
    return x < -1000000 || x > 1000000 ? -1 : (int)x;
  }
  return dflt;
}

/* logicalType on a primitive or fixed: kept only when valid for its base,
 * as the specification says (an invalid one is ignored). */
static void apply_logical(json_t *o, av_node_t *n) {
  const char *lt = json_string_value(json_object_get(o, "logicalType"));
  if (!lt) return;
  if (strcmp(lt, "decimal") == 0 && (n->kind == AV_BYTES || n->kind == AV_FIXED)) {
    int p = int_prop(o, "precision", 0), s = int_prop(o, "scale", 0);
    if (p <= 0 || s < 0 || s > p) return;
    if (n->kind == AV_FIXED && n->size < 32) { /* digits a fixed of this size can hold */
      double maxd = 0;
      for (int i = 0; i < 8 * n->size - 1; i++)
        maxd = maxd * 2 + 1;
      int digits = 0;
      for (double x = maxd; x >= 10; x /= 10)
        digits++;
      if (p > digits) return;
    }
    n->logical = AVL_DECIMAL;
    n->precision = p;
    n->scale = s;
  } else if (strcmp(lt, "date") == 0 && n->kind == AV_INT) {
    n->logical = AVL_DATE;
  } else if (strcmp(lt, "timestamp-millis") == 0 && n->kind == AV_LONG) {
    n->logical = AVL_TS_MILLIS;
  } else if (strcmp(lt, "timestamp-micros") == 0 && n->kind == AV_LONG) {
    n->logical = AVL_TS_MICROS;
  } else if ((strcmp(lt, "char") == 0 || strcmp(lt, "varchar") == 0) && n->kind == AV_STRING) {
    int len = int_prop(o, "maxLength", 0);
    if (len <= 0 || len > 65535 || (lt[0] == 'c' && len > 255)) return;
    n->logical = lt[0] == 'c' ? AVL_CHAR : AVL_VARCHAR;
    n->max_length = len;
  }
}

static hl_status_t parse_record(pctx_t *c, json_t *o, const char *ns, int depth, av_node_t *n) {
  json_t *fields = json_object_get(o, "fields");
  if (!json_is_array(fields)) return bad(c, "a record needs an array of fields", n->name);
  size_t k = json_array_size(fields);
  n->fields = hl_arena_zalloc(c->arena, sizeof(av_field_t) * (k + 1));
  if (!n->fields) return hl_err_nomem(c->err);
  for (size_t i = 0; i < k; i++) {
    json_t *f = json_array_get(fields, i);
    const char *fname = json_string_value(json_object_get(f, "name"));
    json_t *ft = json_object_get(f, "type");
    if (!json_is_object(f) || !fname || !ft)
      return bad(c, "a field needs a name and a type", n->name);
    for (size_t j = 0; j < i; j++)
      if (strcmp(n->fields[j].name, fname) == 0) return bad(c, "field defined twice:", fname);
    av_field_t *af = &n->fields[i];
    if (!(af->name = hl_arena_strdup(c->arena, fname))) return hl_err_nomem(c->err);
    hl_status_t rc = parse_node(c, ft, ns, depth + 1, &af->type);
    if (rc == HL_OK)
      rc = strings_of(c, json_object_get(f, "aliases"), &af->aliases, &af->n_aliases);
    if (rc != HL_OK) return rc;
    json_t *d = json_object_get(f, "default");
    if (d) {
      char *txt = json_dumps(d, JSON_ENCODE_ANY | JSON_COMPACT);
      if (!txt) return hl_err_nomem(c->err);
      af->default_json = hl_arena_strdup(c->arena, txt);
      free(txt); /* jansson's allocator */
      if (!af->default_json) return hl_err_nomem(c->err);
    }
  }
  n->n = (int)k;
  return HL_OK;
}

static hl_status_t parse_object(pctx_t *c, json_t *o, const char *ns, int depth, av_node_t **out) {
  json_t *tj = json_object_get(o, "type");
  if (!tj) return bad(c, "an object without \"type\"", NULL);
  if (!json_is_string(tj)) return parse_node(c, tj, ns, depth + 1, out); /* {"type": {...}} */
  const char *t = json_string_value(tj);
  int pk = primitive_kind(t);
  av_node_t *n;
  if (pk >= 0) {
    if (!(n = hl_arena_zalloc(c->arena, sizeof *n))) return hl_err_nomem(c->err);
    n->kind = (av_kind_t)pk;
    apply_logical(o, n);
    *out = n;
    return HL_OK;
  }
  bool record = strcmp(t, "record") == 0 || strcmp(t, "error") == 0;
  bool named = record || strcmp(t, "enum") == 0 || strcmp(t, "fixed") == 0;
  if (!named && strcmp(t, "array") != 0 && strcmp(t, "map") != 0) {
    av_node_t *ref = lookup(c, t, ns);
    if (!ref) return bad(c, "unknown type", t);
    *out = ref;
    return HL_OK;
  }
  if (!(n = hl_arena_zalloc(c->arena, sizeof *n))) return hl_err_nomem(c->err);
  *out = n;
  if (!named) {
    n->kind = t[0] == 'a' ? AV_ARRAY : AV_MAP;
    json_t *sub = json_object_get(o, n->kind == AV_ARRAY ? "items" : "values");
    if (!sub)
      return bad(c, n->kind == AV_ARRAY ? "an array needs items" : "a map needs values", NULL);
    return parse_node(c, sub, ns, depth + 1, &n->items);
  }
  const char *name = json_string_value(json_object_get(o, "name"));
  if (!name || !*name) return bad(c, "a named type needs a name", NULL);
  const char *own_ns = json_string_value(json_object_get(o, "namespace"));
  const char *use_ns = strchr(name, '.') ? NULL : own_ns ? own_ns : ns;
  char *full = full_name(c, name, use_ns);
  if (!full) return hl_err_nomem(c->err);
  /* a dotted name gives its own namespace to what it encloses */
  char *inner_ns = use_ns ? (char *)use_ns : NULL;
  const char *dot = strrchr(full, '.');
  if (dot && !(inner_ns = hl_arena_strndup(c->arena, full, (size_t)(dot - full))))
    return hl_err_nomem(c->err);
  hl_status_t rc =
      define(c, full, n); /* before the fields: a self-reference resolves (refused later) */
  if (rc == HL_OK) rc = strings_of(c, json_object_get(o, "aliases"), &n->aliases, &n->n_aliases);
  if (rc != HL_OK) return rc;
  if (record) {
    n->kind = AV_RECORD;
    return parse_record(c, o, inner_ns, depth, n);
  }
  if (t[0] == 'e') {
    n->kind = AV_ENUM;
    rc = strings_of(c, json_object_get(o, "symbols"), &n->symbols, &n->n);
    if (rc != HL_OK) return rc;
    if (!json_object_get(o, "symbols")) return bad(c, "an enum needs symbols", full);
    const char *d = json_string_value(json_object_get(o, "default"));
    if (d && !(n->enum_default = hl_arena_strdup(c->arena, d))) return hl_err_nomem(c->err);
    return HL_OK;
  }
  n->kind = AV_FIXED;
  json_t *sz = json_object_get(o, "size");
  if (!json_is_integer(sz) || json_integer_value(sz) < 0 || json_integer_value(sz) > (1 << 20))
    return bad(c, "a fixed needs a size", full);
  n->size = (int)json_integer_value(sz);
  apply_logical(o, n);
  return HL_OK;
}

static hl_status_t parse_node(pctx_t *c, json_t *j, const char *ns, int depth, av_node_t **out) {
  if (depth > HL_AVRO_MAX_DEPTH) return bad(c, "nested too deeply", NULL);
  if (json_is_string(j)) {
    const char *s = json_string_value(j);
    int pk = primitive_kind(s);
    if (pk >= 0) {
      av_node_t *n = hl_arena_zalloc(c->arena, sizeof *n);
      if (!n) return hl_err_nomem(c->err);
      n->kind = (av_kind_t)pk;
      *out = n;
      return HL_OK;
    }
    av_node_t *ref = lookup(c, s, ns);
    if (!ref) return bad(c, "unknown type", s);
    *out = ref;
    return HL_OK;
  }
  if (json_is_object(j)) return parse_object(c, j, ns, depth, out);
  if (json_is_array(j)) {
    size_t k = json_array_size(j);
    av_node_t *n = hl_arena_zalloc(c->arena, sizeof *n);
    if (!n || !(n->branches = hl_arena_zalloc(c->arena, sizeof(av_node_t *) * (k + 1))))
      return hl_err_nomem(c->err);
    n->kind = AV_UNION;
    n->n = (int)k;
    if (k == 0) return bad(c, "an empty union", NULL);
    for (size_t i = 0; i < k; i++) {
      hl_status_t rc = parse_node(c, json_array_get(j, i), ns, depth + 1, &n->branches[i]);
      if (rc != HL_OK) return rc;
      if (n->branches[i]->kind == AV_UNION) return bad(c, "a union inside a union", NULL);
    }
    *out = n;
    return HL_OK;
  }
  return bad(c, "a type must be a string, an object or an array", NULL);
}

/* 1 when N reaches itself (marks: 0 new, 1 on the path, 2 done). */
static int has_cycle(av_node_t *n) {
  if (n->mark == 1) return 1;
  if (n->mark == 2) return 0;
  n->mark = 1;
  int r = 0;
  if (n->kind == AV_RECORD)
    for (int i = 0; !r && i < n->n; i++)
      r = has_cycle(n->fields[i].type);
  else if (n->kind == AV_UNION)
    for (int i = 0; !r && i < n->n; i++)
      r = has_cycle(n->branches[i]);
  else if (n->kind == AV_ARRAY || n->kind == AV_MAP)
    r = has_cycle(n->items);
  n->mark = 2;
  return r;
}

hl_status_t hl_avro_schema_parse(hl_arena_t *arena, const char *text, size_t len, const char *what,
                                 hl_avro_schema_t **out, hl_error_t *err) {
  *out = NULL;
  pctx_t c = {.arena = arena, .what = what, .err = err};
  json_error_t je;
  json_t *j = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
  if (!j) return bad(&c, "not valid JSON:", je.text);
  av_node_t *root = NULL;
  hl_status_t rc = parse_node(&c, j, NULL, 0, &root);
  json_decref(j);
  if (rc != HL_OK) return rc;
  if (has_cycle(root)) {
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "recursive Avro schemas are not supported%s%s", what ? " (" : "",
                      what ? what : "");
  }
  hl_avro_schema_t *s = hl_arena_zalloc(arena, sizeof *s);
  if (!s || !(s->json = hl_arena_strndup(arena, text, len))) return hl_err_nomem(err);
  s->root = root;
  *out = s;
  return HL_OK;
}

/* ------------------------------------------------------------- Hive types */

const av_node_t *hl_avro_strip_null(const av_node_t *n, bool *nullable) {
  *nullable = n->kind == AV_NULL;
  if (n->kind != AV_UNION) return n;
  const av_node_t *other = NULL;
  int n_other = 0;
  for (int i = 0; i < n->n; i++) {
    if (n->branches[i]->kind == AV_NULL)
      *nullable = true;
    else {
      other = n->branches[i];
      n_other++;
    }
  }
  return n_other == 1 ? other : n;
}

static hl_status_t unmappable(const char *what, hl_error_t *err) {
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "Avro %s cannot be mapped to a Hive type", what);
}

hl_status_t hl_avro_hive_type(const av_node_t *n, hl_arena_t *arena, hl_type_t **out,
                              hl_error_t *err) {
  bool nullable;
  n = hl_avro_strip_null(n, &nullable);
  const hl_type_t *prim = NULL;
  switch (n->kind) {
  case AV_NULL:
    return unmappable("type null (outside a union)", err);
  case AV_UNION: {
    /* Hive's SchemaToTypeInfo: the branches other than null, in order,
     * become a UNIONTYPE (null in the union only makes it nullable, so
     * ["null","int","string"] is UNIONTYPE<INT,STRING>, tags 0 and 1) */
    int k = 0;
    for (int i = 0; i < n->n; i++)
      k += n->branches[i]->kind != AV_NULL;
    if (k == 0) return unmappable("union of only null", err);
    if (k > HL_UNION_MAX_TAGS)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "an Avro union of %d branches other than null is more than a UNIONTYPE's "
                        "%d alternatives",
                        k, HL_UNION_MAX_TAGS);
    hl_type_t *t = hl_arena_zalloc(arena, sizeof *t);
    if (!t || !(t->children = hl_arena_zalloc(arena, sizeof(hl_type_t *) * (size_t)k)))
      return hl_err_nomem(err);
    t->id = HL_T_UNION;
    t->n_children = k;
    for (int i = 0, j = 0; i < n->n; i++) {
      if (n->branches[i]->kind == AV_NULL) continue;
      hl_status_t rc = hl_avro_hive_type(n->branches[i], arena, &t->children[j++], err);
      if (rc != HL_OK) return rc;
    }
    *out = t;
    return HL_OK;
  }
  case AV_BOOLEAN:
    prim = hl_type_prim(HL_T_BOOLEAN);
    break;
  case AV_INT:
    prim = hl_type_prim(n->logical == AVL_DATE ? HL_T_DATE : HL_T_INT);
    break;
  case AV_LONG:
    prim = hl_type_prim(n->logical == AVL_TS_MILLIS || n->logical == AVL_TS_MICROS ? HL_T_TIMESTAMP
                                                                                   : HL_T_BIGINT);
    break;
  case AV_FLOAT:
    prim = hl_type_prim(HL_T_FLOAT);
    break;
  case AV_DOUBLE:
    prim = hl_type_prim(HL_T_DOUBLE);
    break;
  case AV_ENUM:
    prim = hl_type_prim(HL_T_STRING);
    break;
  case AV_STRING:
    if (n->logical == AVL_CHAR || n->logical == AVL_VARCHAR) {
      *out =
          hl_type_varchar(arena, n->logical == AVL_CHAR ? HL_T_CHAR : HL_T_VARCHAR, n->max_length);
      return *out ? HL_OK : hl_err_nomem(err);
    }
    prim = hl_type_prim(HL_T_STRING);
    break;
  case AV_BYTES:
  case AV_FIXED:
    if (n->logical == AVL_DECIMAL) {
      if (n->precision > 38)
        return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                          "Avro decimal precision %d is beyond Hive's 38", n->precision);
      *out = hl_type_decimal(arena, n->precision, n->scale);
      return *out ? HL_OK : hl_err_nomem(err);
    }
    prim = hl_type_prim(HL_T_BINARY);
    break;
  case AV_ARRAY:
  case AV_MAP: {
    hl_type_t *t = hl_arena_zalloc(arena, sizeof *t);
    int k = n->kind == AV_ARRAY ? 1 : 2;
    if (!t || !(t->children = hl_arena_zalloc(arena, sizeof(hl_type_t *) * 2)))
      return hl_err_nomem(err);
    t->id = n->kind == AV_ARRAY ? HL_T_ARRAY : HL_T_MAP;
    t->n_children = k;
    if (k == 2) t->children[0] = (hl_type_t *)hl_type_prim(HL_T_STRING);
    hl_status_t rc = hl_avro_hive_type(n->items, arena, &t->children[k - 1], err);
    if (rc != HL_OK) return rc;
    *out = t;
    return HL_OK;
  }
  case AV_RECORD: {
    if (n->n == 0) return unmappable("record without fields", err);
    hl_type_t *t = hl_arena_zalloc(arena, sizeof *t);
    if (!t || !(t->children = hl_arena_zalloc(arena, sizeof(hl_type_t *) * (size_t)n->n)) ||
        !(t->field_names = hl_arena_zalloc(arena, sizeof(char *) * (size_t)n->n)))
      return hl_err_nomem(err);
    t->id = HL_T_STRUCT;
    t->n_children = n->n;
    for (int i = 0; i < n->n; i++) {
      t->field_names[i] = (char *)n->fields[i].name;
      hl_status_t rc = hl_avro_hive_type(n->fields[i].type, arena, &t->children[i], err);
      if (rc != HL_OK) return rc;
    }
    *out = t;
    return HL_OK;
  }
  }
  *out = (hl_type_t *)prim;
  return HL_OK;
}

hl_status_t hl_avro_schema_columns(const hl_avro_schema_t *schema, hl_arena_t *arena, int *n,
                                   char ***names, hl_type_t ***types, hl_error_t *err) {
  const av_node_t *r = schema->root;
  if (r->kind != AV_RECORD)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "an Avro table's schema must be a record");
  hl_type_t *st;
  hl_status_t rc = hl_avro_hive_type(r, arena, &st, err);
  if (rc != HL_OK) return rc;
  *n = st->n_children;
  *names = st->field_names;
  *types = st->children;
  return HL_OK;
}

uint64_t hl_avro_min_bytes(const av_node_t *n) {
  switch (n->kind) {
  case AV_NULL:
    return 0;
  case AV_FLOAT:
    return 4;
  case AV_DOUBLE:
    return 8;
  case AV_FIXED:
    return (uint64_t)n->size;
  case AV_RECORD: {
    uint64_t s = 0;
    for (int i = 0; i < n->n; i++)
      s += hl_avro_min_bytes(n->fields[i].type);
    return s;
  }
  default:
    return 1; /* a varint, length or count, union index */
  }
}

/* --------------------------------------------------- derived from columns */

typedef struct dctx {
  int n_records;
  hl_error_t *err;
} dctx_t;

static json_t *prim_json(const char *type, const char *logical) {
  if (!logical) return json_string(type);
  return json_pack("{s:s,s:s}", "type", type, "logicalType", logical);
}

static json_t *type_json(dctx_t *c, const hl_type_t *t, bool nullable);

/* The name by which Avro tells union branches apart: a record's full name,
 * else its type ("int" for a date too: Avro allows one branch per unnamed
 * type, logical types included). */
static const char *branch_key(json_t *b) {
  if (json_is_string(b)) return json_string_value(b);
  const char *type = json_string_value(json_object_get(b, "type"));
  return type && strcmp(type, "record") == 0 ? json_string_value(json_object_get(b, "name")) : type;
}

/* A UNIONTYPE as Hive's TypeInfoToSchema writes it: null first (every
 * alternative is nullable, and the union itself), then each alternative in
 * order, so Avro branch k + 1 holds tag k.  Hive would flatten a union
 * directly inside a union and Avro refuses two branches of one unnamed
 * type (UNIONTYPE<INT,DATE> is two ints): both 0A000. */
static json_t *union_json(dctx_t *c, const hl_type_t *t) {
  json_t *arr = json_pack("[s]", "null");
  if (!arr) return NULL;
  for (int i = 0; i < t->n_children; i++) {
    if (t->children[i]->id == HL_T_UNION) {
      hl_err_set(c->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                 "a UNIONTYPE directly inside a UNIONTYPE cannot be stored as Avro");
      json_decref(arr);
      return NULL;
    }
    json_t *b = type_json(c, t->children[i], false);
    if (!b || json_array_append_new(arr, b) != 0) {
      json_decref(arr);
      return NULL;
    }
    const char *key = branch_key(b);
    for (size_t k = 1; k + 1 < json_array_size(arr); k++) {
      const char *other = branch_key(json_array_get(arr, k));
      if (key && other && strcmp(key, other) == 0) {
        hl_err_set(c->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                   "UNIONTYPE alternatives %d and %d are both Avro %s: an Avro union holds one "
                   "branch of each unnamed type, so this union cannot be stored as Avro",
                   (int)k - 1, i, key);
        json_decref(arr);
        return NULL;
      }
    }
  }
  return arr;
}

/* The schema Hive's TypeInfoToSchema writes for T: null if it fails. */
static json_t *type_json(dctx_t *c, const hl_type_t *t, bool nullable) {
  json_t *j = NULL;
  switch (t->id) {
  case HL_T_BOOLEAN:
    j = json_string("boolean");
    break;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
    j = json_string("int");
    break;
  case HL_T_BIGINT:
    j = json_string("long");
    break;
  case HL_T_FLOAT:
    j = json_string("float");
    break;
  case HL_T_DOUBLE:
    j = json_string("double");
    break;
  case HL_T_STRING:
    j = json_string("string");
    break;
  case HL_T_CHAR:
  case HL_T_VARCHAR:
    j = json_pack("{s:s,s:s,s:i}", "type", "string", "logicalType",
                  t->id == HL_T_CHAR ? "char" : "varchar", "maxLength", t->length);
    break;
  case HL_T_BINARY:
    j = json_string("bytes");
    break;
  case HL_T_DECIMAL:
    j = json_pack("{s:s,s:s,s:i,s:i}", "type", "bytes", "logicalType", "decimal", "precision",
                  t->precision, "scale", t->scale);
    break;
  case HL_T_DATE:
    j = prim_json("int", "date");
    break;
  case HL_T_TIMESTAMP:
    j = prim_json("long", "timestamp-millis");
    break;
  case HL_T_ARRAY:
  case HL_T_MAP: {
    if (t->id == HL_T_MAP && !hl_type_is_string(t->children[0])) {
      hl_err_set(c->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                 "Avro maps have string keys: a MAP with %s keys cannot be stored as Avro",
                 hl_type_id_name(t->children[0]->id));
      return NULL;
    }
    json_t *sub = type_json(c, t->children[t->n_children - 1], true);
    if (!sub) return NULL;
    j = json_pack("{s:s,s:o}", "type", t->id == HL_T_ARRAY ? "array" : "map",
                  t->id == HL_T_ARRAY ? "items" : "values", sub);
    break;
  }
  case HL_T_STRUCT: {
    json_t *fields = json_array();
    if (!fields) return NULL;
    for (int i = 0; i < t->n_children; i++) {
      json_t *ft = type_json(c, t->children[i], true);
      json_t *f =
          ft ? json_pack("{s:s,s:o,s:n}", "name", t->field_names[i], "type", ft, "default") : NULL;
      if (!f || json_array_append_new(fields, f) != 0) {
        json_decref(fields);
        return NULL;
      }
    }
    char name[32];
    snprintf(name, sizeof name, "record_%d", c->n_records++);
    j = json_pack("{s:s,s:s,s:s,s:o}", "type", "record", "name", name, "namespace", "hivelite.avro",
                  "fields", fields);
    break;
  }
  case HL_T_UNION:
    return union_json(c, t);
  default:
    hl_err_set(c->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
               "type %s cannot be stored as Avro", hl_type_id_name(t->id));
    return NULL;
  }
  if (!j || !nullable) return j;
  return json_pack("[s,o]", "null", j);
}

static hl_status_t derive(hl_arena_t *arena, int n_cols, const hl_type_t *const *types,
                          const char *const *names, hl_avro_schema_t **out, hl_error_t *err) {
  dctx_t c = {.err = err};
  json_t *fields = json_array();
  hl_status_t rc = fields ? HL_OK : hl_err_nomem(err);
  for (int i = 0; rc == HL_OK && i < n_cols; i++) {
    json_t *ft = type_json(&c, types[i], true);
    json_t *f = ft ? json_pack("{s:s,s:o,s:n}", "name", names[i], "type", ft, "default") : NULL;
    if (!f || json_array_append_new(fields, f) != 0)
      rc = err->code != HL_OK ? err->code : hl_err_nomem(err);
  }
  json_t *root = rc == HL_OK
                     ? json_pack("{s:s,s:s,s:s,s:o}", "type", "record", "name", "baseRecord",
                                 "namespace", "hivelite.avro", "fields", fields)
                     : (json_decref(fields), NULL);
  if (rc == HL_OK && !root) rc = hl_err_nomem(err);
  char *txt = root ? json_dumps(root, JSON_COMPACT) : NULL;
  json_decref(root);
  if (rc == HL_OK && !txt) rc = hl_err_nomem(err);
  if (rc == HL_OK) rc = hl_avro_schema_parse(arena, txt, strlen(txt), NULL, out, err);
  free(txt);
  return rc;
}

char *hl_avro_schema_json(const hl_avro_schema_t *schema, hl_arena_t *arena) {
  return hl_arena_strdup(arena, schema->json);
}

/* ------------------------------------------------------- a table's schema */

/* KEY of the properties Hive hands the serde: the serde's, overwritten by
 * the table's (MetaStoreUtils.getSchema puts the table parameters last), so
 * an ALTER TABLE SET TBLPROPERTIES takes effect over a SERDEPROPERTIES
 * schema. */
static const char *param(const hl_kv_t *sp, int nsp, const hl_kv_t *tp, int ntp, const char *key) {
  const char *v = hl_kv_get(tp, ntp, key);
  if (!v) v = hl_kv_get(sp, nsp, key);
  /* Hive's placeholder for "no schema here" */
  if (v && (!*v || strcmp(v, "none") == 0)) v = NULL;
  return v;
}

bool hl_avro_has_schema_param(const hl_kv_t *sp, int nsp, const hl_kv_t *tp, int ntp) {
  return param(sp, nsp, tp, ntp, "avro.schema.literal") ||
         param(sp, nsp, tp, ntp, "avro.schema.url");
}

#define MAX_SCHEMA_FILE ((uint64_t)16 << 20)

/* The path of a local schema URL (a plain path or a file: URL), else NULL. */
static const char *url_path(const char *url) {
  if (strncmp(url, "file://", 7) == 0) return url + 7;
  if (strncmp(url, "file:", 5) == 0) return url + 5;
  return strstr(url, "://") ? NULL : url;
}

hl_status_t hl_avro_schema_file(hl_arena_t *arena, const hl_kv_t *sp, int nsp, const hl_kv_t *tp,
                                int ntp, const char **out, hl_error_t *err) {
  *out = NULL;
  if (param(sp, nsp, tp, ntp, "avro.schema.literal")) return HL_OK;
  const char *url = param(sp, nsp, tp, ntp, "avro.schema.url");
  const char *path = url ? url_path(url) : NULL;
  if (!path || path[0] != '/') return HL_OK; /* refused by read_url */
  if (!(*out = hl_path_normalize(arena, path, NULL))) return hl_err_nomem(err);
  return HL_OK;
}

static hl_status_t read_url(hl_stor_t *fs, hl_arena_t *arena, const char *url, char **text,
                            size_t *len, hl_error_t *err) {
  const char *path = url_path(url);
  if (!path)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "avro.schema.url \"%s\" is not a local file: only local schema files are "
                      "read (put the schema in avro.schema.literal)",
                      url);
  if (path[0] != '/')
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "avro.schema.url \"%s\" must be an absolute path", url);
  hl_stor_file_t *f = NULL;
  hl_status_t rc = fs->ops->open_read(fs, path, &f, err);
  if (rc != HL_OK) return hl_err_prefix(err, "avro.schema.url"), rc;
  uint64_t size = fs->ops->file_size(f);
  char *buf = NULL;
  size_t got = 0;
  if (size > MAX_SCHEMA_FILE)
    rc = hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                    "avro.schema.url \"%s\" is larger than 16 MiB", url);
  else if (!(buf = hl_arena_alloc(arena, (size_t)size + 1)))
    rc = hl_err_nomem(err);
  else
    rc = fs->ops->read_at(f, 0, buf, (size_t)size, &got, err);
  hl_error_t e;
  hl_err_init(&e);
  fs->ops->close(f, &e);
  hl_err_clear(&e);
  if (rc != HL_OK) return rc;
  *text = buf;
  *len = got;
  return HL_OK;
}

hl_status_t hl_avro_table_schema(hl_stor_t *fs, hl_arena_t *arena, const hl_kv_t *sp, int nsp,
                                 const hl_kv_t *tp, int ntp, int n_cols,
                                 const hl_type_t *const *types, const char *const *names,
                                 hl_avro_schema_t **out, hl_error_t *err) {
  const char *lit = param(sp, nsp, tp, ntp, "avro.schema.literal");
  if (lit) return hl_avro_schema_parse(arena, lit, strlen(lit), "avro.schema.literal", out, err);
  const char *url = param(sp, nsp, tp, ntp, "avro.schema.url");
  if (url) {
    char *text = NULL;
    size_t len = 0;
    hl_status_t rc = read_url(fs, arena, url, &text, &len, err);
    if (rc != HL_OK) return rc;
    return hl_avro_schema_parse(arena, text, len, "avro.schema.url", out, err);
  }
  return derive(arena, n_cols, types, names, out, err);
}

/* ------------------------------------------------------------------ codecs */

static const char *const codec_names[] = {"null", "deflate", "snappy", "zstandard", "xz", "bzip2"};

hl_status_t hl_avro_codec_from_name(const char *name, hl_avro_codec_t *out, hl_error_t *err) {
  for (int i = 0; i < (int)(sizeof codec_names / sizeof codec_names[0]); i++)
    if (strcasecmp(name, codec_names[i]) == 0) {
      *out = (hl_avro_codec_t)i;
      return HL_OK;
    }
  if (strcasecmp(name, "zstd") == 0) return *out = HL_AVRO_ZSTD, HL_OK;
  if (strcasecmp(name, "lzma") == 0) return *out = HL_AVRO_XZ, HL_OK; /* Avro C's name for xz */
  if (strcasecmp(name, "none") == 0 || strcasecmp(name, "uncompressed") == 0)
    return *out = HL_AVRO_NULL, HL_OK;
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "unknown Avro codec \"%s\" (null, deflate, snappy, zstandard, xz or bzip2)",
                    name);
}

const char *hl_avro_codec_name(hl_avro_codec_t codec) {
  return (unsigned)codec < sizeof codec_names / sizeof codec_names[0] ? codec_names[codec] : "?";
}
