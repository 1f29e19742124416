/*
 * pq_schema.c -- Parquet schema tree, levels and Hive types (see
 * pq_schema.h for the mapping rules), the writer's Hive -> Parquet schema,
 * and hl_parquet_file_schema from parquet.h.
 *
 * Building runs in two passes over the flat, depth-first SchemaElement
 * list: build_node() rebuilds the tree (validating num_children against the
 * elements left, so a lying count cannot allocate more than the list) and
 * computes levels and leaf numbers; type_value() then classifies each node
 * as primitive / struct / list / map following LogicalTypes.md, including
 * its backward-compatibility rules for old list and map layouts.
 *
 * Spec: apache/parquet-format LogicalTypes.md, parquet.thrift.
 */
#include "format/parquet/pq_schema.h"

#include "util/mem.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ====================================================================== */
/* Tree building                                                          */
/* ====================================================================== */

typedef struct builder {
  hl_arena_t *arena;
  const hl_pq_schema_elem_t *elems;
  int n_elems;
  int pos; /* next element */
  int n_leaves;
  hl_pq_leaf_t *leaves;
  hl_error_t *err;
} builder_t;

static hl_status_t corrupt(builder_t *b, const char *fmt, const char *arg) {
  return hl_err_set(b->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "corrupt Parquet schema: %s%s%s%s",
                    fmt, arg ? " \"" : "", arg ? arg : "", arg ? "\"" : "");
}

static char *lower_dup(hl_arena_t *arena, const char *s) {
  char *d = hl_arena_strdup(arena, s ? s : "");
  if (d) {
    for (char *p = d; *p; p++)
      *p = (char)tolower((unsigned char)*p);
  }
  return d;
}

static hl_status_t build_node(builder_t *b, hl_pq_node_t *parent, int depth, hl_pq_node_t **out) {
  if (b->pos >= b->n_elems) return corrupt(b, "a group has more children than the list", NULL);
  int idx = b->pos++;
  const hl_pq_schema_elem_t *e = &b->elems[idx];
  hl_pq_node_t *node = hl_arena_zalloc(b->arena, sizeof *node);
  if (!node) return hl_err_nomem(b->err);
  node->elem = e;
  node->elem_index = idx;
  node->parent = parent;
  node->leaf_index = -1;
  if (!(node->name = lower_dup(b->arena, e->name))) return hl_err_nomem(b->err);
  if (parent) {
    hl_pq_repetition_t rep = e->has_repetition ? e->repetition : HL_PQ_REQUIRED;
    if (rep != HL_PQ_REQUIRED && rep != HL_PQ_OPTIONAL && rep != HL_PQ_REPEATED) {
      node->unsupported = "unknown repetition type";
      rep = HL_PQ_REQUIRED;
    }
    node->max_def = (int16_t)(parent->max_def + (rep != HL_PQ_REQUIRED));
    node->max_rep = (int16_t)(parent->max_rep + (rep == HL_PQ_REPEATED));
  }
  bool group = !parent || !e->has_type || (e->has_num_children && e->num_children > 0);
  if (!group) {
    if (e->type == HL_PQ_FIXED_LEN_BYTE_ARRAY && (!e->has_type_length || e->type_length <= 0)) {
      return corrupt(b, "FIXED_LEN_BYTE_ARRAY without a positive type_length for", e->name);
    }
    node->kind = HL_PQ_NODE_PRIMITIVE;
    node->leaf_index = node->first_leaf = b->n_leaves++;
    node->n_leaves = 1;
    *out = node;
    return HL_OK;
  }
  if (parent && !e->has_num_children) {
    return corrupt(b, "element has neither a type nor children:", e->name);
  }
  if (depth >= HL_PQ_SCHEMA_MAX_DEPTH) return corrupt(b, "nested too deeply at", e->name);
  int n = e->has_num_children ? e->num_children : 0;
  if (n < 0 || n > b->n_elems - b->pos) {
    return corrupt(b, "num_children exceeds the elements left for", e->name);
  }
  node->kind = HL_PQ_NODE_STRUCT;
  node->n_children = n;
  node->first_leaf = b->n_leaves;
  if (n > 0) {
    node->children = hl_arena_zalloc(b->arena, sizeof *node->children * (size_t)n);
    if (!node->children) return hl_err_nomem(b->err);
  }
  for (int i = 0; i < n; i++) {
    hl_status_t st = build_node(b, node, depth + 1, &node->children[i]);
    if (st != HL_OK) return st;
  }
  node->n_leaves = b->n_leaves - node->first_leaf;
  *out = node;
  return HL_OK;
}

static hl_status_t fill_leaves(builder_t *b, hl_pq_node_t *node, int field) {
  if (node->kind == HL_PQ_NODE_PRIMITIVE && node->leaf_index >= 0) {
    hl_pq_leaf_t *leaf = &b->leaves[node->leaf_index];
    int depth = 0;
    for (hl_pq_node_t *p = node; p->parent; p = p->parent)
      depth++;
    leaf->node = node;
    leaf->max_def = node->max_def;
    leaf->max_rep = node->max_rep;
    leaf->field = field;
    leaf->n_path = depth;
    leaf->path = hl_arena_zalloc(b->arena, sizeof *leaf->path * (size_t)depth);
    if (!leaf->path) return hl_err_nomem(b->err);
    size_t total = 0;
    int i = depth;
    for (hl_pq_node_t *p = node; p->parent; p = p->parent) {
      leaf->path[--i] = p->elem->name ? p->elem->name : (char *)"";
      total += strlen(leaf->path[i]) + 1;
    }
    leaf->path_str = hl_arena_alloc(b->arena, total + 1);
    if (!leaf->path_str) return hl_err_nomem(b->err);
    char *w = leaf->path_str;
    for (i = 0; i < depth; i++) {
      size_t len = strlen(leaf->path[i]);
      if (i) *w++ = '.';
      memcpy(w, leaf->path[i], len);
      w += len;
    }
    *w = '\0';
    return HL_OK;
  }
  for (int i = 0; i < node->n_children; i++) {
    hl_status_t st = fill_leaves(b, node->children[i], field < 0 ? i : field);
    if (st != HL_OK) return st;
  }
  return HL_OK;
}

/* ====================================================================== */
/* Typing                                                                 */
/* ====================================================================== */

static hl_type_t *new_type(hl_arena_t *arena, hl_type_id_t id, int n_children) {
  hl_type_t *t = hl_arena_zalloc(arena, sizeof *t);
  if (!t) return NULL;
  t->id = id;
  if (n_children > 0) {
    t->n_children = n_children;
    t->children = hl_arena_zalloc(arena, sizeof *t->children * (size_t)n_children);
    if (!t->children) return NULL;
  }
  return t;
}

/* The annotation in effect: the LogicalType when the file has one we know,
 * else the ConvertedType translated to the same kinds. */
typedef struct annot {
  hl_pq_logical_kind_t kind;
  int32_t scale, precision; /* DECIMAL */
  bool has_precision;
  hl_pq_time_unit_t unit; /* TIME, TIMESTAMP */
  int bit_width;          /* INTEGER */
  bool is_signed;
  bool map_key_value; /* ConvertedType MAP_KEY_VALUE */
} annot_t;

static annot_t annotation(const hl_pq_schema_elem_t *e) {
  annot_t a = {0};
  const hl_pq_logical_t *lt = &e->logical;
  if (lt->kind != HL_PQ_LT_NONE && lt->kind != HL_PQ_LT_OTHER) {
    a.kind = lt->kind;
    a.scale = lt->scale;
    a.precision = lt->precision;
    a.has_precision = true;
    a.unit = lt->unit;
    a.bit_width = lt->bit_width;
    a.is_signed = lt->is_signed;
    return a;
  }
  if (!e->has_converted_type) return a;
  switch (e->converted_type) {
  case HL_PQ_CONV_UTF8:
    a.kind = HL_PQ_LT_STRING;
    break;
  case HL_PQ_CONV_MAP:
    a.kind = HL_PQ_LT_MAP;
    break;
  case HL_PQ_CONV_MAP_KEY_VALUE:
    a.kind = HL_PQ_LT_MAP;
    a.map_key_value = true;
    break;
  case HL_PQ_CONV_LIST:
    a.kind = HL_PQ_LT_LIST;
    break;
  case HL_PQ_CONV_ENUM:
    a.kind = HL_PQ_LT_ENUM;
    break;
  case HL_PQ_CONV_DECIMAL:
    a.kind = HL_PQ_LT_DECIMAL;
    a.scale = e->has_scale ? e->scale : 0;
    a.precision = e->precision;
    a.has_precision = e->has_precision;
    break;
  case HL_PQ_CONV_DATE:
    a.kind = HL_PQ_LT_DATE;
    break;
  case HL_PQ_CONV_TIME_MILLIS:
    a.kind = HL_PQ_LT_TIME;
    a.unit = HL_PQ_UNIT_MILLIS;
    break;
  case HL_PQ_CONV_TIME_MICROS:
    a.kind = HL_PQ_LT_TIME;
    a.unit = HL_PQ_UNIT_MICROS;
    break;
  case HL_PQ_CONV_TIMESTAMP_MILLIS:
    a.kind = HL_PQ_LT_TIMESTAMP;
    a.unit = HL_PQ_UNIT_MILLIS;
    break;
  case HL_PQ_CONV_TIMESTAMP_MICROS:
    a.kind = HL_PQ_LT_TIMESTAMP;
    a.unit = HL_PQ_UNIT_MICROS;
    break;
  case HL_PQ_CONV_UINT_8:
  case HL_PQ_CONV_UINT_16:
  case HL_PQ_CONV_UINT_32:
  case HL_PQ_CONV_UINT_64:
  case HL_PQ_CONV_INT_8:
  case HL_PQ_CONV_INT_16:
  case HL_PQ_CONV_INT_32:
  case HL_PQ_CONV_INT_64: {
    static const int widths[] = {8, 16, 32, 64};
    int k = (int)e->converted_type - HL_PQ_CONV_UINT_8;
    a.kind = HL_PQ_LT_INTEGER;
    a.is_signed = k >= 4;
    a.bit_width = widths[k % 4];
    break;
  }
  case HL_PQ_CONV_JSON:
    a.kind = HL_PQ_LT_JSON;
    break;
  case HL_PQ_CONV_BSON:
    a.kind = HL_PQ_LT_BSON;
    break;
  case HL_PQ_CONV_INTERVAL: /* no Hive type: read as BINARY */
  default:
    break;
  }
  return a;
}

static hl_status_t set_prim(builder_t *b, hl_pq_node_t *node, hl_type_id_t id, hl_pq_conv_t conv) {
  node->conv = conv;
  node->type = new_type(b->arena, id, 0);
  return node->type ? HL_OK : hl_err_nomem(b->err);
}

static hl_status_t set_decimal(builder_t *b, hl_pq_node_t *node, const annot_t *a,
                               hl_pq_conv_t conv) {
  node->conv = conv;
  if (!a->has_precision || a->precision < 1 || a->scale < 0 || a->scale > a->precision) {
    node->unsupported = "DECIMAL with an invalid precision or scale";
  } else if (a->precision > 38) {
    node->unsupported = "DECIMAL precision above 38";
  }
  if (node->unsupported) return set_prim(b, node, HL_T_BINARY, HL_PQ_CV_BINARY);
  node->type = hl_type_decimal(b->arena, a->precision, a->scale);
  return node->type ? HL_OK : hl_err_nomem(b->err);
}

static hl_status_t type_primitive(builder_t *b, hl_pq_node_t *node) {
  const hl_pq_schema_elem_t *e = node->elem;
  annot_t a = annotation(e);
  node->kind = HL_PQ_NODE_PRIMITIVE;
  b->leaves[node->leaf_index].node = node; /* the node that carries the value */
  switch (e->type) {
  case HL_PQ_BOOLEAN:
    return set_prim(b, node, HL_T_BOOLEAN, HL_PQ_CV_BOOLEAN);
  case HL_PQ_INT32:
    if (a.kind == HL_PQ_LT_DECIMAL) return set_decimal(b, node, &a, HL_PQ_CV_DECIMAL_INT32);
    if (a.kind == HL_PQ_LT_DATE) return set_prim(b, node, HL_T_DATE, HL_PQ_CV_DATE);
    if (a.kind == HL_PQ_LT_TIME && a.unit == HL_PQ_UNIT_MILLIS) {
      return set_prim(b, node, HL_T_STRING, HL_PQ_CV_TIME_MILLIS);
    }
    if (a.kind == HL_PQ_LT_INTEGER) {
      if (a.bit_width == 8) {
        return set_prim(b, node, a.is_signed ? HL_T_TINYINT : HL_T_SMALLINT, HL_PQ_CV_INT32);
      }
      if (a.bit_width == 16) {
        return set_prim(b, node, a.is_signed ? HL_T_SMALLINT : HL_T_INT, HL_PQ_CV_INT32);
      }
      if (a.bit_width == 32 && !a.is_signed) {
        return set_prim(b, node, HL_T_BIGINT, HL_PQ_CV_UINT32);
      }
    }
    return set_prim(b, node, HL_T_INT, HL_PQ_CV_INT32);
  case HL_PQ_INT64:
    if (a.kind == HL_PQ_LT_DECIMAL) return set_decimal(b, node, &a, HL_PQ_CV_DECIMAL_INT64);
    if (a.kind == HL_PQ_LT_TIMESTAMP) {
      hl_pq_conv_t c = a.unit == HL_PQ_UNIT_MILLIS  ? HL_PQ_CV_TS_MILLIS
                       : a.unit == HL_PQ_UNIT_NANOS ? HL_PQ_CV_TS_NANOS
                                                    : HL_PQ_CV_TS_MICROS;
      return set_prim(b, node, HL_T_TIMESTAMP, c);
    }
    if (a.kind == HL_PQ_LT_TIME && a.unit == HL_PQ_UNIT_MICROS) {
      return set_prim(b, node, HL_T_STRING, HL_PQ_CV_TIME_MICROS);
    }
    if (a.kind == HL_PQ_LT_TIME && a.unit == HL_PQ_UNIT_NANOS) {
      return set_prim(b, node, HL_T_STRING, HL_PQ_CV_TIME_NANOS);
    }
    if (a.kind == HL_PQ_LT_INTEGER && a.bit_width == 64 && !a.is_signed) {
      node->conv = HL_PQ_CV_UINT64;
      node->type = hl_type_decimal(b->arena, 20, 0);
      return node->type ? HL_OK : hl_err_nomem(b->err);
    }
    return set_prim(b, node, HL_T_BIGINT, HL_PQ_CV_INT64);
  case HL_PQ_INT96:
    return set_prim(b, node, HL_T_TIMESTAMP, HL_PQ_CV_TS_INT96);
  case HL_PQ_FLOAT:
    return set_prim(b, node, HL_T_FLOAT, HL_PQ_CV_FLOAT);
  case HL_PQ_DOUBLE:
    return set_prim(b, node, HL_T_DOUBLE, HL_PQ_CV_DOUBLE);
  case HL_PQ_BYTE_ARRAY:
  case HL_PQ_FIXED_LEN_BYTE_ARRAY:
    if (a.kind == HL_PQ_LT_DECIMAL) return set_decimal(b, node, &a, HL_PQ_CV_DECIMAL_BYTES);
    if (a.kind == HL_PQ_LT_STRING || a.kind == HL_PQ_LT_ENUM || a.kind == HL_PQ_LT_JSON) {
      return set_prim(b, node, HL_T_STRING, HL_PQ_CV_STRING);
    }
    if (e->type == HL_PQ_FIXED_LEN_BYTE_ARRAY && a.kind == HL_PQ_LT_UUID && e->type_length == 16) {
      return set_prim(b, node, HL_T_STRING, HL_PQ_CV_UUID);
    }
    if (e->type == HL_PQ_FIXED_LEN_BYTE_ARRAY && a.kind == HL_PQ_LT_FLOAT16 &&
        e->type_length == 2) {
      return set_prim(b, node, HL_T_FLOAT, HL_PQ_CV_FLOAT16);
    }
    return set_prim(b, node, HL_T_BINARY, HL_PQ_CV_BINARY);
  }
  node->unsupported = "unknown physical type";
  return set_prim(b, node, HL_T_BINARY, HL_PQ_CV_BINARY);
}

static hl_status_t type_value(builder_t *b, hl_pq_node_t *node, bool as_element);

/* A copy of REP standing for the element value of a list whose repeated
 * node is itself the element (same element, levels and leaves). */
static hl_status_t synth_element(builder_t *b, hl_pq_node_t *rep, hl_pq_node_t **out) {
  hl_pq_node_t *copy = hl_arena_alloc(b->arena, sizeof *copy);
  if (!copy) return hl_err_nomem(b->err);
  *copy = *rep;
  copy->kind = rep->leaf_index >= 0 ? HL_PQ_NODE_PRIMITIVE : HL_PQ_NODE_STRUCT;
  copy->type = NULL;
  copy->repeated = copy->element = copy->key = copy->value = NULL;
  *out = copy;
  return type_value(b, copy, true);
}

static hl_status_t make_list(builder_t *b, hl_pq_node_t *node, hl_pq_node_t *rep,
                             hl_pq_node_t *element) {
  node->kind = HL_PQ_NODE_LIST;
  node->repeated = rep;
  node->element = element;
  node->type = new_type(b->arena, HL_T_ARRAY, 1);
  if (!node->type) return hl_err_nomem(b->err);
  node->type->children[0] = element->type;
  if (element->unsupported && !node->unsupported) node->unsupported = element->unsupported;
  return HL_OK;
}

static bool is_repeated(const hl_pq_node_t *n) {
  return n->elem->has_repetition && n->elem->repetition == HL_PQ_REPEATED;
}

/* LIST-annotated group NODE with one repeated child REP. */
static hl_status_t type_list(builder_t *b, hl_pq_node_t *node, hl_pq_node_t *rep) {
  hl_pq_node_t *element = NULL;
  hl_status_t st;
  bool rep_is_element = rep->kind == HL_PQ_NODE_PRIMITIVE || rep->n_children != 1;
  if (!rep_is_element) {
    /* Rule 3: a one-field group named "array" or "<list>_tuple". */
    const char *rn = rep->elem->name ? rep->elem->name : "";
    const char *ln = node->elem->name ? node->elem->name : "";
    size_t ll = strlen(ln);
    rep_is_element =
        strcmp(rn, "array") == 0 || (strncmp(rn, ln, ll) == 0 && strcmp(rn + ll, "_tuple") == 0);
  }
  if (rep_is_element) {
    st = synth_element(b, rep, &element);
  } else {
    element = rep->children[0];
    st = type_value(b, element, false);
  }
  if (st != HL_OK) return st;
  rep->kind = HL_PQ_NODE_STRUCT; /* structure only: type stays NULL */
  return make_list(b, node, rep, element);
}

/* MAP-annotated group NODE whose only child KV is a repeated group of one
 * or two fields. */
static hl_status_t type_map(builder_t *b, hl_pq_node_t *node, hl_pq_node_t *kv) {
  hl_status_t st;
  node->kind = HL_PQ_NODE_MAP;
  node->repeated = kv;
  node->key = kv->children[0];
  node->value = kv->n_children > 1 ? kv->children[1] : NULL;
  if ((st = type_value(b, node->key, false)) != HL_OK) return st;
  if (node->value && (st = type_value(b, node->value, false)) != HL_OK) return st;
  node->type = new_type(b->arena, HL_T_MAP, 2);
  if (!node->type) return hl_err_nomem(b->err);
  node->type->children[0] = node->key->type;
  if (node->value) {
    node->type->children[1] = node->value->type;
  } else {
    node->type->children[1] = new_type(b->arena, HL_T_STRING, 0);
    if (!node->type->children[1]) return hl_err_nomem(b->err);
  }
  if (hl_type_is_complex(node->key->type)) node->unsupported = "MAP key of a complex type";
  if (!node->unsupported) node->unsupported = node->key->unsupported;
  if (!node->unsupported && node->value) node->unsupported = node->value->unsupported;
  return HL_OK;
}

static hl_status_t type_struct(builder_t *b, hl_pq_node_t *node) {
  node->kind = HL_PQ_NODE_STRUCT;
  node->type = new_type(b->arena, HL_T_STRUCT, node->n_children);
  if (!node->type) return hl_err_nomem(b->err);
  if (node->n_children == 0) {
    node->unsupported = "empty group";
    return HL_OK;
  }
  node->type->field_names =
      hl_arena_zalloc(b->arena, sizeof *node->type->field_names * (size_t)node->n_children);
  if (!node->type->field_names) return hl_err_nomem(b->err);
  for (int i = 0; i < node->n_children; i++) {
    hl_pq_node_t *c = node->children[i];
    hl_status_t st = type_value(b, c, false);
    if (st != HL_OK) return st;
    node->type->children[i] = c->type;
    node->type->field_names[i] = c->name;
    if (c->unsupported && !node->unsupported) node->unsupported = c->unsupported;
  }
  return HL_OK;
}

/* Types NODE's value.  AS_ELEMENT: NODE is a synthetic list element, so
 * its own REPEATED repetition was already accounted for by the list. */
static hl_status_t type_value(builder_t *b, hl_pq_node_t *node, bool as_element) {
  if (!as_element && node->parent && is_repeated(node)) {
    /* A repeated field not under LIST/MAP: a required list of it. */
    hl_pq_node_t *element = NULL;
    hl_status_t st = synth_element(b, node, &element);
    if (st != HL_OK) return st;
    return make_list(b, node, node, element);
  }
  if (node->leaf_index >= 0) return type_primitive(b, node);
  annot_t a = annotation(node->elem);
  if (node->parent && node->n_children == 1 && is_repeated(node->children[0])) {
    hl_pq_node_t *child = node->children[0];
    if (a.kind == HL_PQ_LT_LIST) return type_list(b, node, child);
    /* MAP_KEY_VALUE on the key/value group itself is reached here only when
     * that group is not inside a MAP group (then it acts as one). */
    if (a.kind == HL_PQ_LT_MAP && child->leaf_index < 0 &&
        (child->n_children == 1 || child->n_children == 2)) {
      child->kind = HL_PQ_NODE_STRUCT; /* structure only: type stays NULL */
      return type_map(b, node, child);
    }
  }
  return type_struct(b, node);
}

/* ====================================================================== */
/* Public: build, check, lookup                                           */
/* ====================================================================== */

hl_status_t hl_pq_schema_build(hl_arena_t *arena, const hl_pq_schema_elem_t *elems, int n_elems,
                               hl_pq_schema_t **out, hl_error_t *err) {
  builder_t b = {.arena = arena, .elems = elems, .n_elems = n_elems, .err = err};
  if (n_elems < 1) return corrupt(&b, "the schema is empty", NULL);
  if (elems[0].has_type && !(elems[0].has_num_children && elems[0].num_children > 0)) {
    return corrupt(&b, "the root is not a group", NULL);
  }
  hl_pq_schema_t *s = hl_arena_zalloc(arena, sizeof *s);
  if (!s) return hl_err_nomem(err);
  hl_status_t st = build_node(&b, NULL, 0, &s->root);
  if (st != HL_OK) return st;
  if (b.pos != n_elems) return corrupt(&b, "elements left over after the root's children", NULL);
  if (b.n_leaves > 0) {
    b.leaves = hl_arena_zalloc(arena, sizeof *b.leaves * (size_t)b.n_leaves);
    if (!b.leaves) return hl_err_nomem(err);
  }
  if ((st = fill_leaves(&b, s->root, -1)) != HL_OK) return st;
  for (int i = 0; i < s->root->n_children; i++) {
    if ((st = type_value(&b, s->root->children[i], false)) != HL_OK) return st;
  }
  s->root->kind = HL_PQ_NODE_STRUCT;
  s->n_fields = s->root->n_children;
  s->fields = s->root->children;
  s->n_leaves = b.n_leaves;
  s->leaves = b.leaves;
  *out = s;
  return HL_OK;
}

hl_status_t hl_pq_schema_check_row_group(const hl_pq_schema_t *s, const hl_pq_row_group_t *rg,
                                         hl_error_t *err) {
  if (rg->n_columns != s->n_leaves) {
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "corrupt Parquet metadata: row group has %d column chunks for %d columns",
                      rg->n_columns, s->n_leaves);
  }
  for (int i = 0; i < s->n_leaves; i++) {
    const hl_pq_column_chunk_t *c = &rg->columns[i];
    const hl_pq_leaf_t *leaf = &s->leaves[i];
    if (c->encrypted) {
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "encrypted Parquet column \"%s\" is not supported", leaf->path_str);
    }
    if (c->file_path) {
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "Parquet column \"%s\" stored in another file is not supported",
                        leaf->path_str);
    }
    const hl_pq_column_meta_t *m = c->meta_data;
    if (!m) {
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "corrupt Parquet metadata: column chunk \"%s\" has no metadata",
                        leaf->path_str);
    }
    if (m->type != leaf->node->elem->type) {
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "corrupt Parquet metadata: column chunk \"%s\" has type %s, the schema %s",
                        leaf->path_str, hl_pq_type_name(m->type),
                        hl_pq_type_name(leaf->node->elem->type));
    }
    bool same = m->n_path == leaf->n_path;
    for (int j = 0; same && j < leaf->n_path; j++) {
      same = m->path_in_schema[j] && strcmp(m->path_in_schema[j], leaf->path[j]) == 0;
    }
    if (!same) {
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "corrupt Parquet metadata: column chunk %d does not belong to column "
                        "\"%s\"",
                        i, leaf->path_str);
    }
  }
  return HL_OK;
}

int hl_pq_schema_find_field(const hl_pq_schema_t *s, const char *name) {
  for (int i = 0; i < s->n_fields; i++) {
    const char *a = s->fields[i]->name, *b = name;
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b))
      a++, b++;
    if (!*a && !*b) return i;
  }
  return -1;
}

const hl_pq_node_t *hl_pq_schema_field(const hl_pq_schema_t *s, int idx, const hl_type_t **type,
                                       int *first_leaf, int *n_leaves) {
  if (idx < 0 || idx >= s->n_fields) return NULL;
  const hl_pq_node_t *n = s->fields[idx];
  if (type) *type = n->type;
  if (first_leaf) *first_leaf = n->first_leaf;
  if (n_leaves) *n_leaves = n->n_leaves;
  return n;
}

/* ====================================================================== */
/* hl_parquet_file_schema                                                  */
/* ====================================================================== */

hl_status_t hl_parquet_file_schema(hl_stor_t *fs, const char *path, hl_arena_t *arena, int *n_cols,
                                   char ***names, hl_type_t ***types, hl_error_t *err) {
  hl_stor_file_t *f = NULL;
  hl_arena_t *tmp = hl_arena_create(0);
  hl_status_t st;
  if (!tmp) return hl_err_nomem(err);
  hl_pq_file_meta_t *meta;
  hl_pq_schema_t *s;
  if ((st = fs->ops->open_read(fs, path, &f, err)) != HL_OK) goto done;
  if ((st = hl_pq_footer_read(f, tmp, &meta, NULL, err)) != HL_OK) goto done;
  if ((st = hl_pq_schema_build(tmp, meta->schema, meta->n_schema, &s, err)) != HL_OK) goto done;
  char **nm = hl_arena_zalloc(arena, sizeof *nm * (size_t)(s->n_fields ? s->n_fields : 1));
  hl_type_t **ty = hl_arena_zalloc(arena, sizeof *ty * (size_t)(s->n_fields ? s->n_fields : 1));
  if (!nm || !ty) {
    st = hl_err_nomem(err);
    goto done;
  }
  for (int i = 0; i < s->n_fields; i++) {
    const hl_pq_node_t *n = s->fields[i];
    if (n->unsupported) {
      st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "column \"%s\" has an unsupported Parquet type: %s", n->name, n->unsupported);
      goto done;
    }
    nm[i] = hl_arena_strdup(arena, n->name);
    ty[i] = hl_type_copy(arena, n->type);
    if (!nm[i] || !ty[i]) {
      st = hl_err_nomem(err);
      goto done;
    }
  }
  *n_cols = s->n_fields;
  *names = nm;
  *types = ty;
done:
  if (st == HL_CORRUPT || st == HL_UNSUPPORTED) hl_err_prefix(err, "cannot read \"%s\"", path);
  if (f) {
    hl_error_t close_err;
    hl_err_init(&close_err);
    fs->ops->close(f, &close_err);
    hl_err_clear(&close_err);
  }
  hl_arena_destroy(tmp);
  return st;
}

/* ====================================================================== */
/* Hive -> Parquet schema (writer)                                         */
/* ====================================================================== */

static int count_elems(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_ARRAY:
    return 2 + count_elems(t->children[0]);
  case HL_T_MAP:
    return 2 + count_elems(t->children[0]) + count_elems(t->children[1]);
  case HL_T_STRUCT: {
    int n = 1;
    for (int i = 0; i < t->n_children; i++)
      n += count_elems(t->children[i]);
    return n;
  }
  default:
    return 1;
  }
}

/* Fewest bytes whose two's complement holds every PRECISION-digit value. */
static int decimal_bytes(int precision) {
  unsigned __int128 max = 1;
  for (int i = 0; i < precision; i++)
    max *= 10;
  max -= 1;
  for (int n = 1; n < 16; n++) {
    if (max <= ((unsigned __int128)1 << (8 * n - 1)) - 1) return n;
  }
  return 16;
}

typedef struct hive_out {
  hl_arena_t *arena;
  hl_pq_schema_elem_t *elems;
  int pos;
  bool int96;
  hl_error_t *err;
} hive_out_t;

static void set_logical(hl_pq_schema_elem_t *e, hl_pq_logical_kind_t kind) {
  e->logical.kind = kind;
}

static void set_conv(hl_pq_schema_elem_t *e, hl_pq_converted_t c) {
  e->has_converted_type = true;
  e->converted_type = c;
}

static void set_phys(hl_pq_schema_elem_t *e, hl_pq_type_t t) {
  e->has_type = true;
  e->type = t;
}

static hl_status_t emit(hive_out_t *o, const hl_type_t *t, const char *name,
                        hl_pq_repetition_t rep) {
  hl_pq_schema_elem_t *e = &o->elems[o->pos++];
  hl_status_t st;
  if (!(e->name = hl_arena_strdup(o->arena, name))) return hl_err_nomem(o->err);
  e->has_repetition = true;
  e->repetition = rep;
  switch (t->id) {
  case HL_T_BOOLEAN:
    set_phys(e, HL_PQ_BOOLEAN);
    break;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
    set_phys(e, HL_PQ_INT32);
    set_logical(e, HL_PQ_LT_INTEGER);
    e->logical.bit_width = t->id == HL_T_TINYINT ? 8 : 16;
    e->logical.is_signed = true;
    set_conv(e, t->id == HL_T_TINYINT ? HL_PQ_CONV_INT_8 : HL_PQ_CONV_INT_16);
    break;
  case HL_T_INT:
    set_phys(e, HL_PQ_INT32);
    break;
  case HL_T_BIGINT:
    set_phys(e, HL_PQ_INT64);
    break;
  case HL_T_FLOAT:
    set_phys(e, HL_PQ_FLOAT);
    break;
  case HL_T_DOUBLE:
    set_phys(e, HL_PQ_DOUBLE);
    break;
  case HL_T_DECIMAL:
    if (t->precision <= 9) {
      set_phys(e, HL_PQ_INT32);
    } else if (t->precision <= 18) {
      set_phys(e, HL_PQ_INT64);
    } else {
      set_phys(e, HL_PQ_FIXED_LEN_BYTE_ARRAY);
      e->has_type_length = true;
      e->type_length = decimal_bytes(t->precision);
    }
    set_logical(e, HL_PQ_LT_DECIMAL);
    e->logical.precision = t->precision;
    e->logical.scale = t->scale;
    set_conv(e, HL_PQ_CONV_DECIMAL);
    e->has_precision = e->has_scale = true;
    e->precision = t->precision;
    e->scale = t->scale;
    break;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    set_phys(e, HL_PQ_BYTE_ARRAY);
    set_logical(e, HL_PQ_LT_STRING);
    set_conv(e, HL_PQ_CONV_UTF8);
    break;
  case HL_T_BINARY:
    set_phys(e, HL_PQ_BYTE_ARRAY);
    break;
  case HL_T_DATE:
    set_phys(e, HL_PQ_INT32);
    set_logical(e, HL_PQ_LT_DATE);
    set_conv(e, HL_PQ_CONV_DATE);
    break;
  case HL_T_TIMESTAMP:
    if (o->int96) {
      set_phys(e, HL_PQ_INT96);
    } else {
      /* No ConvertedType: TIMESTAMP_MICROS means UTC-adjusted instants. */
      set_phys(e, HL_PQ_INT64);
      set_logical(e, HL_PQ_LT_TIMESTAMP);
      e->logical.unit = HL_PQ_UNIT_MICROS;
      e->logical.is_adjusted_to_utc = false;
    }
    break;
  case HL_T_ARRAY: {
    e->has_num_children = true;
    e->num_children = 1;
    set_logical(e, HL_PQ_LT_LIST);
    set_conv(e, HL_PQ_CONV_LIST);
    hl_pq_schema_elem_t *list = &o->elems[o->pos++];
    if (!(list->name = hl_arena_strdup(o->arena, "list"))) return hl_err_nomem(o->err);
    list->has_repetition = true;
    list->repetition = HL_PQ_REPEATED;
    list->has_num_children = true;
    list->num_children = 1;
    return emit(o, t->children[0], "element", HL_PQ_OPTIONAL);
  }
  case HL_T_MAP: {
    e->has_num_children = true;
    e->num_children = 1;
    set_logical(e, HL_PQ_LT_MAP);
    set_conv(e, HL_PQ_CONV_MAP);
    hl_pq_schema_elem_t *kv = &o->elems[o->pos++];
    if (!(kv->name = hl_arena_strdup(o->arena, "key_value"))) return hl_err_nomem(o->err);
    kv->has_repetition = true;
    kv->repetition = HL_PQ_REPEATED;
    kv->has_num_children = true;
    kv->num_children = 2;
    if ((st = emit(o, t->children[0], "key", HL_PQ_REQUIRED)) != HL_OK) return st;
    return emit(o, t->children[1], "value", HL_PQ_OPTIONAL);
  }
  case HL_T_STRUCT:
    e->has_num_children = true;
    e->num_children = t->n_children;
    for (int i = 0; i < t->n_children; i++) {
      st = emit(o, t->children[i], t->field_names[i], HL_PQ_OPTIONAL);
      if (st != HL_OK) return st;
    }
    break;
  case HL_T_UNION: /* Hive's Parquet SerDe has no union type either */
    return hl_err_set(o->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "column \"%s\": Parquet cannot store UNIONTYPE values (Hive's Parquet "
                      "SerDe has no union type)",
                      name);
  case HL_T_NULL:
  default:
    return hl_err_set(o->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "column \"%s\" of type %s cannot be written to Parquet", name,
                      hl_type_id_name(t->id));
  }
  return HL_OK;
}

hl_status_t hl_pq_schema_from_hive(hl_arena_t *arena, int n_cols, const hl_type_t *const *types,
                                   const char *const *names, bool int96_timestamps,
                                   hl_pq_schema_elem_t **elems, int *n_elems, hl_error_t *err) {
  int n = 1;
  for (int i = 0; i < n_cols; i++)
    n += count_elems(types[i]);
  hive_out_t o = {.arena = arena, .int96 = int96_timestamps, .err = err};
  o.elems = hl_arena_zalloc(arena, sizeof *o.elems * (size_t)n);
  if (!o.elems) return hl_err_nomem(err);
  hl_pq_schema_elem_t *root = &o.elems[o.pos++];
  if (!(root->name = hl_arena_strdup(arena, "hive_schema"))) return hl_err_nomem(err);
  root->has_num_children = true;
  root->num_children = n_cols;
  for (int i = 0; i < n_cols; i++) {
    hl_status_t st = emit(&o, types[i], names[i], HL_PQ_OPTIONAL);
    if (st != HL_OK) return st;
  }
  *elems = o.elems;
  *n_elems = o.pos;
  return HL_OK;
}

/* ====================================================================== */
/* Value formatting helpers                                               */
/* ====================================================================== */

void hl_pq_format_uuid(const uint8_t bytes[16], char out[37]) {
  static const char hex[] = "0123456789abcdef";
  char *w = out;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) *w++ = '-';
    *w++ = hex[bytes[i] >> 4];
    *w++ = hex[bytes[i] & 15];
  }
  *w = '\0';
}

size_t hl_pq_format_time(int64_t value, hl_pq_time_unit_t unit, char out[32]) {
  int64_t us = value;
  if (unit == HL_PQ_UNIT_NANOS) {
    us = value / 1000;
  } else if (unit == HL_PQ_UNIT_MILLIS) {
    /* Out-of-range values saturate rather than overflow. */
    if (value > INT64_MAX / 1000) {
      us = INT64_MAX;
    } else if (value < INT64_MIN / 1000) {
      us = INT64_MIN;
    } else {
      us = value * 1000;
    }
  }
  char *w = out;
  uint64_t mag = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;
  if (us < 0) *w++ = '-';
  uint64_t frac = mag % 1000000, secs = mag / 1000000;
  w += sprintf(w, "%02llu:%02llu:%02llu", (unsigned long long)(secs / 3600),
               (unsigned long long)(secs / 60 % 60), (unsigned long long)(secs % 60));
  if (frac) {
    char digits[8];
    snprintf(digits, sizeof digits, "%06llu", (unsigned long long)frac);
    int len = 6;
    while (digits[len - 1] == '0')
      len--;
    *w++ = '.';
    memcpy(w, digits, (size_t)len);
    w += len;
  }
  *w = '\0';
  return (size_t)(w - out);
}
