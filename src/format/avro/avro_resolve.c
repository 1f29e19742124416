/*
 * avro_resolve.c -- a file's writer schema resolved against the table's
 * reader schema (Avro specification, "Schema Resolution"), compiled into a
 * tree of decode steps, and the decoder that runs it over a block.
 *
 * Each step reads one value as the writer wrote it and stores it as the
 * Hive type the reader wants:
 *   - promotions: int to long, float, double; long to float, double;
 *     float to double; string and bytes to each other;
 *   - records by field name (the reader's aliases too; exact first, then
 *     ignoring case, since Hive's column names are lower case); writer
 *     fields the reader lacks are skipped, reader fields the writer lacks
 *     take their default, and one without a default is an error, nullable
 *     or not, as in Avro's resolving decoder, which Hive uses (the schema
 *     derived from the table's columns gives every field a null default);
 *     a column the reader schema lacks reads NULL;
 *   - enums by symbol: a writer symbol the reader lacks takes the reader's
 *     default symbol, else the row is an error; an enum read as a string
 *     (a table whose columns say STRING) is its symbol;
 *   - a writer union by the branch each value names: every branch is
 *     resolved up front, one that matches nothing fails only when a value
 *     uses it; a reader union of null and T reads T (or null);
 *   - into a UNIONTYPE column, the tag of the reader union's branch (other
 *     than null) the writer value resolves to, as Hive's AvroDeserializer
 *     tags the datum by the table's schema (compile_tag);
 *   - logical types: decimal from bytes or fixed (rescaled to the reader's
 *     scale, NULL when it does not fit), date, timestamp-millis and
 *     -micros (to Hive's microseconds, no time zone applied), char and
 *     varchar cut (and padded) to their length.
 * Names of records, enums and fixed types are not compared (Hive does not
 * either).  Anything else is 42804 naming the file and the field.
 *
 * Invariant: the decoder checks every length and count against the bytes
 * left in the block before using or allocating for it; nesting is bounded
 * by the schemas' (HL_AVRO_MAX_DEPTH).
 */
#include "format/avro/avro_int.h"

#include "util/mem.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum rd {
  RD_NULL,
  RD_BOOL,
  RD_VARINT, /* int, long */
  RD_FLOAT,
  RD_DOUBLE,
  RD_BYTES, /* bytes, string */
  RD_FIXED,
  RD_ENUM,
  RD_RECORD,
  RD_ARRAY,
  RD_MAP,
  RD_UNION,
  RD_TAG,     /* a value read as alternative TAG of a UNIONTYPE (kids[0]) */
  RD_SKIP,    /* a writer value nobody reads */
  RD_DEFAULT, /* no bytes: the reader's default */
  RD_NOMATCH  /* a union branch the reader cannot read */
} rd_t;

typedef enum cv {
  CV_NONE,
  CV_I64,       /* integers, DATE days */
  CV_F64,       /* from an integer */
  CV_FLOAT,     /* float kept as float (rounded) */
  CV_DOUBLE,    /* float or double as double */
  CV_TS_MILLIS, /* long millis -> micros */
  CV_TS_MICROS,
  CV_STR,     /* STRING, BINARY */
  CV_VARCHAR, /* cut to length characters */
  CV_CHAR,    /* cut and padded */
  CV_DECIMAL  /* two's complement big-endian, writer scale wscale */
} cv_t;

typedef struct av_step av_step_t;
struct av_step {
  rd_t rd;
  cv_t cv;
  const hl_type_t *type; /* the Hive type produced */
  const av_node_t *w;    /* writer node (skips) */
  int size;              /* fixed size */
  int wscale;            /* decimal: writer scale */
  int tag;               /* RD_TAG: the UNIONTYPE alternative */
  const char **symbols;  /* enum: per writer index the reader's symbol, NULL: error */
  int n_symbols;
  av_step_t **kids; /* record: per writer field; union: per branch; array/map: [0] */
  int n_kids;
  int *target;          /* record: output slot of each writer field, -1 skipped */
  int n_out;            /* record: output slots */
  hl_value_t *defaults; /* record: per output slot (NULL value when none) */
  uint64_t min_item;    /* array/map: fewest bytes of an item */
  const char *field;    /* for messages */
};

struct av_prog {
  av_step_t *top; /* the record step; target = column index */
  int n_cols;
  const hl_type_t *const *types;
  int *missing; /* projected columns no writer field fills: their defaults */
  int n_missing;
};

typedef struct rctx {
  hl_arena_t *arena;
  const char *file;
  hl_error_t *err;
} rctx_t;

static hl_status_t mismatch(rctx_t *c, const char *field, const av_node_t *w, const hl_type_t *t) {
  static const char *const kinds[] = {"null",   "boolean", "int",    "long",   "float",
                                      "double", "bytes",   "string", "record", "enum",
                                      "array",  "map",     "union",  "fixed"};
  return hl_err_set(c->err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                    "cannot read \"%s\": field \"%s\" is Avro %s in the file, which cannot be read "
                    "as %s",
                    c->file, field ? field : "?", kinds[w->kind], hl_type_id_name(t->id));
}

static av_step_t *new_step(rctx_t *c, rd_t rd, const av_node_t *w, const hl_type_t *t) {
  av_step_t *s = hl_arena_zalloc(c->arena, sizeof *s);
  if (!s) return hl_err_nomem(c->err), NULL;
  s->rd = rd;
  s->w = w;
  s->type = t;
  return s;
}

/* ------------------------------------------------------------ defaults */

static hl_status_t json_value(rctx_t *c, json_t *j, const av_node_t *r, const hl_type_t *t,
                              hl_value_t *out);

/* A default as JSON, for reader node R of Hive type T.  A default that does
 * not fit the type reads NULL (the writer of the schema was wrong). */
static hl_status_t default_value(rctx_t *c, const char *json, const av_node_t *r,
                                 const hl_type_t *t, hl_value_t *out) {
  memset(out, 0, sizeof *out);
  out->is_null = true;
  if (!json) return HL_OK;
  json_error_t je;
  json_t *j = json_loads(json, JSON_DECODE_ANY, &je);
  if (!j) return HL_OK;
  hl_status_t rc = json_value(c, j, r, t, out);
  json_decref(j);
  return rc;
}

static hl_status_t json_value(rctx_t *c, json_t *j, const av_node_t *r, const hl_type_t *t,
                              hl_value_t *out) {
  memset(out, 0, sizeof *out);
  out->is_null = true;
  if (json_is_null(j)) return HL_OK;
  /* a union's default is of its first branch */
  if (r->kind == AV_UNION) r = r->branches[0];
  if (r->kind == AV_NULL) return HL_OK;
  hl_phys_t ph = hl_type_phys(t);
  switch (t->id) {
  case HL_T_BOOLEAN:
    if (!json_is_boolean(j)) return HL_OK;
    out->u.b = json_is_true(j);
    break;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
  case HL_T_DATE:
    if (!json_is_integer(j)) return HL_OK;
    out->u.i = json_integer_value(j);
    break;
  case HL_T_TIMESTAMP:
    if (!json_is_integer(j)) return HL_OK;
    out->u.i = json_integer_value(j) * (r->logical == AVL_TS_MICROS ? 1 : 1000);
    break;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    if (!json_is_number(j)) return HL_OK;
    out->u.d = json_number_value(j);
    if (t->id == HL_T_FLOAT) out->u.d = (float)out->u.d;
    break;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY: {
    if (!json_is_string(j)) return HL_OK;
    const char *s = json_string_value(j);
    size_t n = json_string_length(j);
    char *copy;
    size_t len = n;
    if (t->id == HL_T_BINARY || r->kind == AV_BYTES || r->kind == AV_FIXED) {
      /* bytes defaults are strings of code points 0-255, one byte each */
      copy = hl_arena_alloc(c->arena, n + 1);
      if (!copy) return hl_err_nomem(c->err);
      len = 0;
      for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b >= 0xc0 && i + 1 < n) {
          copy[len++] = (char)(((b & 0x03) << 6) | ((unsigned char)s[++i] & 0x3f));
        } else {
          copy[len++] = (char)b;
        }
      }
    } else if (!(copy = hl_arena_strndup(c->arena, s, n))) {
      return hl_err_nomem(c->err);
    }
    out->u.s.ptr = copy;
    out->u.s.len = (uint32_t)len;
    if (t->id == HL_T_CHAR &&
        hl_char_fit(c->arena, (uint32_t)t->length, copy, (uint32_t)len, &out->u.s) < 0)
      return hl_err_nomem(c->err);
    break;
  }
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT: {
    bool is_map = t->id == HL_T_MAP, is_struct = t->id == HL_T_STRUCT;
    if (is_struct ? !json_is_object(j) || r->kind != AV_RECORD
        : is_map  ? !json_is_object(j) || r->kind != AV_MAP
                  : !json_is_array(j) || r->kind != AV_ARRAY)
      return HL_OK;
    size_t n = is_struct ? (size_t)t->n_children
               : is_map  ? json_object_size(j)
                         : json_array_size(j);
    hl_value_t *items =
        hl_arena_zalloc(c->arena, sizeof(hl_value_t) * (is_map ? 2 * n + 1 : n + 1));
    if (!items) return hl_err_nomem(c->err);
    if (is_struct) {
      for (int i = 0; i < t->n_children && i < r->n; i++) {
        json_t *fj = json_object_get(j, r->fields[i].name);
        hl_status_t rc = fj ? json_value(c, fj, r->fields[i].type, t->children[i], &items[i])
                            : default_value(c, r->fields[i].default_json, r->fields[i].type,
                                            t->children[i], &items[i]);
        if (rc != HL_OK) return rc;
      }
    } else if (is_map) {
      const char *key;
      json_t *vj;
      size_t k = 0;
      json_object_foreach(j, key, vj) {
        char *kc = hl_arena_strdup(c->arena, key);
        if (!kc) return hl_err_nomem(c->err);
        items[2 * k].u.s.ptr = kc;
        items[2 * k].u.s.len = (uint32_t)strlen(kc);
        hl_status_t rc = json_value(c, vj, r->items, t->children[1], &items[2 * k + 1]);
        if (rc != HL_OK) return rc;
        k++;
      }
    } else {
      for (size_t k = 0; k < n; k++) {
        hl_status_t rc = json_value(c, json_array_get(j, k), r->items, t->children[0], &items[k]);
        if (rc != HL_OK) return rc;
      }
    }
    out->u.list.n = (uint32_t)n;
    out->u.list.items = items;
    break;
  }
  case HL_T_UNION: {
    /* the default is of the first branch, here not null: alternative 0 */
    hl_value_t *item = hl_arena_zalloc(c->arena, sizeof *item);
    if (!item) return hl_err_nomem(c->err);
    hl_status_t rc = json_value(c, j, r, t->children[0], item);
    if (rc != HL_OK) return rc;
    out->u.list.n = 1;
    out->u.list.tag = 0;
    out->u.list.items = item;
    break;
  }
  default:
    (void)ph;
    return HL_OK; /* DECIMAL defaults (bytes) are not read: NULL */
  }
  out->is_null = false;
  return HL_OK;
}

/* --------------------------------------------------------------- compile */

static hl_status_t compile(rctx_t *c, const av_node_t *w, const av_node_t *r, const hl_type_t *t,
                           const char *field, av_step_t **out);

/* The skip of writer node W. */
static av_step_t *skip_step(rctx_t *c, const av_node_t *w) {
  return new_step(c, RD_SKIP, w, NULL);
}

static int find_field(const av_node_t *rec, const char *name, bool fold) {
  for (int i = 0; i < rec->n; i++)
    if (fold ? strcasecmp(rec->fields[i].name, name) == 0 : strcmp(rec->fields[i].name, name) == 0)
      return i;
  return -1;
}

/* The writer field of W that reader field NAME (with ALIASES) reads. */
static int writer_field(const av_node_t *w, const char *name, const char **aliases, int n_aliases) {
  int k = find_field(w, name, false);
  for (int a = 0; k < 0 && a < n_aliases; a++)
    k = find_field(w, aliases[a], false);
  if (k < 0) k = find_field(w, name, true);
  for (int a = 0; k < 0 && a < n_aliases; a++)
    k = find_field(w, aliases[a], true);
  return k;
}

/* A record step: writer record W into N_OUT output slots, slot i being
 * reader field R_FIELD[i] (NULL: none; then NAMES[i] matches writer
 * fields) of Hive type TYPES[i]; SKIP_OUT[i] true for slots nobody reads. */
static hl_status_t compile_record(rctx_t *c, const av_node_t *w, int n_out,
                                  const av_field_t *const *r_field, const char *const *names,
                                  const hl_type_t *const *types, const bool *skip_out,
                                  av_step_t **out) {
  av_step_t *s = new_step(c, RD_RECORD, w, NULL);
  if (!s) return HL_NOMEM;
  s->n_kids = w->n;
  s->n_out = n_out;
  s->kids = hl_arena_zalloc(c->arena, sizeof(av_step_t *) * (size_t)(w->n + 1));
  s->target = hl_arena_alloc(c->arena, sizeof(int) * (size_t)(w->n + 1));
  s->defaults = hl_arena_zalloc(c->arena, sizeof(hl_value_t) * (size_t)(n_out + 1));
  if (!s->kids || !s->target || !s->defaults) return hl_err_nomem(c->err);
  for (int k = 0; k < w->n; k++)
    s->target[k] = -1;
  for (int i = 0; i < n_out; i++) {
    const av_field_t *rf = r_field[i];
    int k = rf ? writer_field(w, rf->name, rf->aliases, rf->n_aliases)
               : writer_field(w, names[i], NULL, 0);
    if (k >= 0 && s->target[k] >= 0) k = -1; /* two reader fields for one writer field */
    hl_status_t rc = HL_OK;
    if (k < 0) {
      /* as Avro's resolving decoder, under Hive too: a reader field the
       * writer lacks needs a default, nullable or not (the schema Hive
       * derives from the columns gives every field "default": null) */
      if (rf && !rf->default_json)
        return hl_err_set(c->err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                          "cannot read \"%s\": field \"%s\" of the table's schema is not in the "
                          "file's schema and has no default",
                          c->file, rf->name);
      s->defaults[i].is_null = true;
      if (rf && !(skip_out && skip_out[i]))
        rc = default_value(c, rf->default_json, rf->type, types[i], &s->defaults[i]);
      if (rc != HL_OK) return rc;
      continue;
    }
    s->defaults[i].is_null = true;
    s->target[k] = i;
    if (skip_out && skip_out[i]) {
      s->target[k] = -1;
      continue;
    }
    rc = compile(c, w->fields[k].type, rf ? rf->type : NULL, types[i], names[i], &s->kids[k]);
    if (rc != HL_OK) return rc;
  }
  for (int k = 0; k < w->n; k++)
    if (s->target[k] < 0 && !(s->kids[k] = skip_step(c, w->fields[k].type))) return HL_NOMEM;
  *out = s;
  return HL_OK;
}

static bool is_named(const av_node_t *n) {
  return n->kind == AV_RECORD || n->kind == AV_ENUM || n->kind == AV_FIXED;
}

/* Writer node W (not a union) read into UNIONTYPE T through reader node R
 * (its null branches dropped: a union of T's alternatives, or one node for
 * a one-alternative T, or NULL when the reader has no node).  As Hive's
 * AvroDeserializer, the tag is the index among the reader's branches other
 * than null, whatever index the writer gave; the branch is the first that
 * reads W as the specification picks it: of W's kind (and name, for named
 * types) first, then of its kind, then one W promotes to. */
static hl_status_t compile_tag(rctx_t *c, const av_node_t *w, const av_node_t *r,
                               const hl_type_t *t, const char *field, av_step_t **out) {
  if (w->kind == AV_NULL) {
    av_step_t *s = new_step(c, RD_NULL, w, t);
    if (!s) return HL_NOMEM;
    *out = s;
    return HL_OK;
  }
  const av_node_t *rb[HL_UNION_MAX_TAGS];
  int n_rb = 0;
  if (r && r->kind == AV_UNION) {
    for (int i = 0; i < r->n; i++)
      if (r->branches[i]->kind != AV_NULL) {
        if (n_rb == HL_UNION_MAX_TAGS) return mismatch(c, field, w, t);
        rb[n_rb++] = r->branches[i];
      }
  } else if (r) {
    rb[n_rb++] = r;
  }
  if (r && n_rb != t->n_children) return mismatch(c, field, w, t);
  for (int pass = 0; pass < 3; pass++) {
    for (int k = 0; k < t->n_children; k++) {
      const av_node_t *b = r ? rb[k] : NULL;
      if (pass < 2 && (!b || b->kind != w->kind)) continue; /* no reader node: pass 2 */
      if (pass == 0 && is_named(w) && w->name && b->name && strcmp(w->name, b->name) != 0) continue;
      hl_error_t e;
      hl_err_init(&e);
      rctx_t sub = {c->arena, c->file, &e};
      av_step_t *kid = NULL;
      hl_status_t rc = compile(&sub, w, b, t->children[k], field, &kid);
      hl_err_clear(&e);
      if (rc == HL_NOMEM) return hl_err_nomem(c->err);
      if (rc != HL_OK) continue;
      av_step_t *s = new_step(c, RD_TAG, w, t);
      if (!s || !(s->kids = hl_arena_zalloc(c->arena, sizeof(av_step_t *))))
        return hl_err_nomem(c->err);
      s->kids[0] = kid;
      s->n_kids = 1;
      s->tag = k;
      s->field = field;
      *out = s;
      return HL_OK;
    }
  }
  return mismatch(c, field, w, t);
}

static bool is_int_type(const hl_type_t *t) {
  return hl_type_is_integer(t);
}

/* Writer node W (not a union) read as reader node R (nullable union
 * stripped; NULL when the reader has no node, e.g. a column the schema
 * lacks) of Hive type T. */
static hl_status_t compile(rctx_t *c, const av_node_t *w, const av_node_t *r, const hl_type_t *t,
                           const char *field, av_step_t **out) {
  *out = NULL;
  if (r) {
    bool nullable;
    r = hl_avro_strip_null(r, &nullable);
  }
  if (w->kind == AV_UNION) {
    av_step_t *s = new_step(c, RD_UNION, w, t);
    if (!s || !(s->kids = hl_arena_zalloc(c->arena, sizeof(av_step_t *) * (size_t)w->n)))
      return hl_err_nomem(c->err);
    s->n_kids = w->n;
    int matched = 0;
    for (int b = 0; b < w->n; b++) {
      hl_error_t e;
      hl_err_init(&e);
      rctx_t sub = {c->arena, c->file, &e};
      hl_status_t rc = compile(&sub, w->branches[b], r, t, field, &s->kids[b]);
      if (rc == HL_NOMEM) {
        hl_err_clear(&e);
        return hl_err_nomem(c->err);
      }
      if (rc != HL_OK) {
        hl_err_clear(&e);
        if (!(s->kids[b] = new_step(c, RD_NOMATCH, w->branches[b], t))) return HL_NOMEM;
        s->kids[b]->field = field;
      } else {
        matched++;
      }
    }
    if (matched == 0) { /* no branch can be read: the schema does not resolve */
      for (int b = 0; b < w->n; b++)
        if (w->branches[b]->kind != AV_NULL) return mismatch(c, field, w->branches[b], t);
    }
    *out = s;
    return HL_OK;
  }
  if (t->id == HL_T_UNION) return compile_tag(c, w, r, t, field, out);
  av_step_t *s = NULL;
  switch (w->kind) {
  case AV_NULL:
    s = new_step(c, RD_NULL, w, t);
    break;
  case AV_BOOLEAN:
    if (t->id != HL_T_BOOLEAN) return mismatch(c, field, w, t);
    s = new_step(c, RD_BOOL, w, t);
    break;
  case AV_INT:
  case AV_LONG: {
    cv_t cv;
    if (is_int_type(t) && (w->kind == AV_INT || t->id == HL_T_BIGINT))
      cv = CV_I64;
    else if (t->id == HL_T_FLOAT || t->id == HL_T_DOUBLE)
      cv = CV_F64;
    else if (t->id == HL_T_DATE && w->kind == AV_INT)
      cv = CV_I64;
    else if (t->id == HL_T_TIMESTAMP && w->kind == AV_LONG)
      cv = w->logical == AVL_TS_MICROS ? CV_TS_MICROS : CV_TS_MILLIS;
    else
      return mismatch(c, field, w, t);
    if ((w->logical == AVL_DATE) != (t->id == HL_T_DATE) && w->logical == AVL_DATE)
      return mismatch(c, field, w, t);
    s = new_step(c, RD_VARINT, w, t);
    if (s) s->cv = cv;
    break;
  }
  case AV_FLOAT:
  case AV_DOUBLE:
    if (!(t->id == HL_T_DOUBLE || (t->id == HL_T_FLOAT && w->kind == AV_FLOAT)))
      return mismatch(c, field, w, t);
    s = new_step(c, w->kind == AV_FLOAT ? RD_FLOAT : RD_DOUBLE, w, t);
    if (s) s->cv = t->id == HL_T_FLOAT ? CV_FLOAT : CV_DOUBLE;
    break;
  case AV_STRING:
  case AV_BYTES:
  case AV_FIXED: {
    cv_t cv;
    if (t->id == HL_T_DECIMAL) {
      if (w->kind == AV_STRING || w->logical != AVL_DECIMAL) return mismatch(c, field, w, t);
      cv = CV_DECIMAL;
    } else if (t->id == HL_T_STRING || t->id == HL_T_BINARY) {
      if (w->kind == AV_FIXED && t->id != HL_T_BINARY) return mismatch(c, field, w, t);
      cv = CV_STR;
    } else if (t->id == HL_T_VARCHAR || t->id == HL_T_CHAR) {
      if (w->kind == AV_FIXED) return mismatch(c, field, w, t);
      cv = t->id == HL_T_VARCHAR ? CV_VARCHAR : CV_CHAR;
    } else {
      return mismatch(c, field, w, t);
    }
    s = new_step(c, w->kind == AV_FIXED ? RD_FIXED : RD_BYTES, w, t);
    if (s) {
      s->cv = cv;
      s->size = w->size;
      s->wscale = w->scale;
    }
    break;
  }
  case AV_ENUM: {
    if (!hl_type_is_string(t)) return mismatch(c, field, w, t);
    s = new_step(c, RD_ENUM, w, t);
    if (!s) return HL_NOMEM;
    s->cv = t->id == HL_T_VARCHAR ? CV_VARCHAR : t->id == HL_T_CHAR ? CV_CHAR : CV_STR;
    s->n_symbols = w->n;
    if (!(s->symbols = hl_arena_zalloc(c->arena, sizeof(char *) * (size_t)(w->n + 1))))
      return hl_err_nomem(c->err);
    for (int i = 0; i < w->n; i++) {
      if (!r || r->kind != AV_ENUM) { /* read as a string: the symbol itself */
        s->symbols[i] = w->symbols[i];
        continue;
      }
      for (int k = 0; k < r->n && !s->symbols[i]; k++)
        if (strcmp(r->symbols[k], w->symbols[i]) == 0) s->symbols[i] = r->symbols[k];
      if (!s->symbols[i]) s->symbols[i] = r->enum_default; /* NULL: an error when read */
    }
    break;
  }
  case AV_ARRAY:
  case AV_MAP: {
    if (t->id != (w->kind == AV_ARRAY ? HL_T_ARRAY : HL_T_MAP)) return mismatch(c, field, w, t);
    if (r && r->kind != w->kind) r = NULL;
    s = new_step(c, w->kind == AV_ARRAY ? RD_ARRAY : RD_MAP, w, t);
    if (!s || !(s->kids = hl_arena_zalloc(c->arena, sizeof(av_step_t *))))
      return hl_err_nomem(c->err);
    s->n_kids = 1;
    s->min_item = hl_avro_min_bytes(w->items) + (w->kind == AV_MAP ? 1 : 0);
    hl_status_t rc = compile(c, w->items, r ? r->items : NULL, t->children[t->n_children - 1],
                             field, &s->kids[0]);
    if (rc != HL_OK) return rc;
    break;
  }
  case AV_RECORD: {
    if (t->id != HL_T_STRUCT) return mismatch(c, field, w, t);
    if (r && r->kind != AV_RECORD) r = NULL;
    int n = t->n_children;
    const av_field_t **rf = hl_arena_zalloc(c->arena, sizeof(av_field_t *) * (size_t)(n + 1));
    if (!rf) return hl_err_nomem(c->err);
    for (int i = 0; r && i < n; i++) {
      int k = find_field(r, t->field_names[i], false);
      if (k < 0) k = find_field(r, t->field_names[i], true);
      rf[i] = k >= 0 ? &r->fields[k] : NULL;
    }
    hl_status_t rc = compile_record(c, w, n, rf, (const char *const *)t->field_names,
                                    (const hl_type_t *const *)t->children, NULL, &s);
    if (rc != HL_OK) return rc;
    s->type = t;
    break;
  }
  case AV_UNION:
    break; /* handled above */
  }
  if (!s) return hl_err_nomem(c->err);
  s->field = field;
  *out = s;
  return HL_OK;
}

hl_status_t hl_avro_resolve(const av_node_t *w, const av_node_t *r, int n_cols,
                            const hl_type_t *const *types, const char *const *names,
                            const bool *projected, const char *file, hl_arena_t *arena,
                            av_prog_t **out, hl_error_t *err) {
  rctx_t c = {arena, file, err};
  if (w->kind != AV_RECORD)
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "cannot read \"%s\": the file's schema is not a record", file);
  const av_field_t **rf = hl_arena_zalloc(arena, sizeof(av_field_t *) * (size_t)(n_cols + 1));
  bool *skip = hl_arena_zalloc(arena, sizeof(bool) * (size_t)(n_cols + 1));
  av_prog_t *p = hl_arena_zalloc(arena, sizeof *p);
  if (!rf || !skip || !p) return hl_err_nomem(err);
  for (int i = 0; i < n_cols; i++) {
    skip[i] = projected && !projected[i];
    if (r && r->kind == AV_RECORD) {
      int k = find_field(r, names[i], false);
      if (k < 0) k = find_field(r, names[i], true);
      rf[i] = k >= 0 ? &r->fields[k] : NULL;
    }
  }
  hl_status_t rc = compile_record(&c, w, n_cols, rf, names, types, skip, &p->top);
  if (rc != HL_OK) return rc;
  p->n_cols = n_cols;
  p->types = types;
  if (!(p->missing = hl_arena_alloc(arena, sizeof(int) * (size_t)(n_cols + 1))))
    return hl_err_nomem(err);
  for (int col = 0; col < n_cols; col++) {
    if (skip[col]) continue;
    bool from_file = false;
    for (int k = 0; k < p->top->n_kids && !from_file; k++)
      from_file = p->top->target[k] == col;
    if (!from_file) p->missing[p->n_missing++] = col;
  }
  *out = p;
  return HL_OK;
}

/* ---------------------------------------------------------------- decode */

typedef struct dctx {
  const uint8_t *p;
  size_t end;
  size_t pos;
  hl_arena_t *arena;
  const char *why;
  hl_error_t *err;
} dctx_t;

static hl_status_t fail(dctx_t *d, const char *why) {
  d->why = why;
  return HL_CORRUPT;
}

static hl_status_t get_long(dctx_t *d, int64_t *v) {
  return hl_avro_get_long(d->p, d->end, &d->pos, v) ? HL_OK : fail(d, "bad or truncated integer");
}

static hl_status_t get_len(dctx_t *d, size_t *n) {
  int64_t v;
  if (get_long(d, &v) != HL_OK) return HL_CORRUPT;
  if (v < 0 || (uint64_t)v > d->end - d->pos) return fail(d, "length runs past the block");
  *n = (size_t)v;
  return HL_OK;
}

static hl_status_t skip_value(dctx_t *d, const av_node_t *w) {
  int64_t v;
  size_t n;
  switch (w->kind) {
  case AV_NULL:
    return HL_OK;
  case AV_BOOLEAN:
    if (d->pos >= d->end) return fail(d, "truncated value");
    d->pos++;
    return HL_OK;
  case AV_INT:
  case AV_LONG:
  case AV_ENUM:
    return get_long(d, &v);
  case AV_FLOAT:
  case AV_DOUBLE:
  case AV_FIXED: {
    size_t k = w->kind == AV_FLOAT ? 4 : w->kind == AV_DOUBLE ? 8 : (size_t)w->size;
    if (d->end - d->pos < k) return fail(d, "truncated value");
    d->pos += k;
    return HL_OK;
  }
  case AV_BYTES:
  case AV_STRING:
    if (get_len(d, &n) != HL_OK) return HL_CORRUPT;
    d->pos += n;
    return HL_OK;
  case AV_RECORD:
    for (int i = 0; i < w->n; i++)
      if (skip_value(d, w->fields[i].type) != HL_OK) return HL_CORRUPT;
    return HL_OK;
  case AV_UNION:
    if (get_long(d, &v) != HL_OK) return HL_CORRUPT;
    if (v < 0 || v >= w->n) return fail(d, "union branch out of range");
    return skip_value(d, w->branches[v]);
  case AV_ARRAY:
  case AV_MAP: {
    uint64_t min = hl_avro_min_bytes(w->items) + (w->kind == AV_MAP ? 1 : 0);
    for (;;) {
      int64_t count;
      if (get_long(d, &count) != HL_OK) return HL_CORRUPT;
      if (count == 0) return HL_OK;
      if (count < 0) {
        if (count == INT64_MIN) return fail(d, "bad item count");
        count = -count;
        if (get_len(d, &n) != HL_OK) return HL_CORRUPT;
        d->pos += n; /* the block's byte size lets it be skipped whole */
        continue;
      }
      if (min > 0 && (uint64_t)count > (d->end - d->pos) / min)
        return fail(d, "item count runs past the block");
      if (min == 0 && count > (1 << 24)) return fail(d, "item count too large");
      for (int64_t i = 0; i < count; i++) {
        if (w->kind == AV_MAP && get_len(d, &n) != HL_OK) return HL_CORRUPT;
        if (w->kind == AV_MAP) d->pos += n;
        if (skip_value(d, w->items) != HL_OK) return HL_CORRUPT;
      }
    }
  }
  }
  return HL_OK;
}

/* Two's complement big-endian P[0..n) as an __int128; false when it does
 * not fit. */
static bool be_int128(const uint8_t *p, size_t n, __int128 *out) {
  if (n == 0) {
    *out = 0;
    return true;
  }
  bool neg = p[0] & 0x80;
  size_t i = 0;
  while (n - i > 16) { /* leading sign bytes */
    if (p[i] != (neg ? 0xff : 0x00)) return false;
    i++;
  }
  unsigned __int128 v = neg ? ~(unsigned __int128)0 : 0;
  for (; i < n; i++)
    v = v << 8 | p[i];
  *out = (__int128)v;
  return true;
}

static const __int128 POW10_38 = (__int128)10000000000000000000ULL * 10000000000000000000ULL;

static bool rescale(__int128 *v, int from, int to, int precision) {
  __int128 x = *v;
  while (from < to) {
    if (x > POW10_38 || x < -POW10_38) return false;
    x *= 10;
    from++;
  }
  while (from > to) { /* Hive rounds half up when the scale shrinks */
    __int128 q = x / 10, r = x % 10;
    if (r >= 5) q++;
    if (r <= -5) q--;
    x = q;
    from--;
  }
  __int128 lim = 1;
  for (int i = 0; i < precision; i++)
    lim *= 10;
  if (x >= lim || x <= -lim) return false;
  *v = x;
  return true;
}

static hl_status_t decode(dctx_t *d, const av_step_t *s, hl_value_t *out);

static hl_status_t decode_bytes(dctx_t *d, const av_step_t *s, hl_value_t *out) {
  size_t n;
  if (s->rd == RD_FIXED) {
    n = (size_t)s->size;
    if (d->end - d->pos < n) return fail(d, "truncated fixed");
  } else if (get_len(d, &n) != HL_OK) {
    return HL_CORRUPT;
  }
  const uint8_t *b = d->p + d->pos;
  d->pos += n;
  if (s->cv == CV_DECIMAL) {
    __int128 v;
    if (!be_int128(b, n, &v) || !rescale(&v, s->wscale, s->type->scale, s->type->precision)) {
      out->is_null = true; /* does not fit the column: NULL, as Hive's casts */
      return HL_OK;
    }
    out->u.dec = v;
    return HL_OK;
  }
  if (n > UINT32_MAX) return fail(d, "string too long");
  /* borrowed from the block: hl_vec_put_value copies into the batch */
  out->u.s.ptr = (const char *)b;
  out->u.s.len = (uint32_t)n;
  if (s->cv == CV_VARCHAR || s->cv == CV_CHAR) {
    /* cut to the length in characters (UTF-8 lead bytes counted) */
    uint32_t chars = 0, i = 0;
    for (; i < out->u.s.len; i++) {
      if (((unsigned char)out->u.s.ptr[i] & 0xc0) != 0x80) {
        if (chars == (uint32_t)s->type->length) break;
        chars++;
      }
    }
    out->u.s.len = i;
    if (s->cv == CV_CHAR &&
        hl_char_fit(d->arena, (uint32_t)s->type->length, out->u.s.ptr, out->u.s.len, &out->u.s) < 0)
      return hl_err_nomem(d->err);
  }
  return HL_OK;
}

static hl_status_t decode_list(dctx_t *d, const av_step_t *s, hl_value_t *out) {
  bool is_map = s->rd == RD_MAP;
  size_t per = is_map ? 2 : 1, cap = 0, n = 0;
  hl_value_t *items = NULL;
  for (;;) {
    int64_t count;
    if (get_long(d, &count) != HL_OK) return HL_CORRUPT;
    if (count == 0) break;
    if (count < 0) {
      size_t bytes;
      if (count == INT64_MIN) return fail(d, "bad item count");
      count = -count;
      if (get_len(d, &bytes) != HL_OK) return HL_CORRUPT;
    }
    if (s->min_item > 0 && (uint64_t)count > (d->end - d->pos) / s->min_item)
      return fail(d, "item count runs past the block");
    if ((uint64_t)count > (1 << 24) || n + (size_t)count > (1 << 24))
      return fail(d, "more than 16 Mi items in one value");
    if (n + (size_t)count > cap) {
      size_t ncap = cap ? cap : 8;
      while (ncap < n + (size_t)count)
        ncap *= 2;
      hl_value_t *ni = hl_arena_realloc(d->arena, items, sizeof(hl_value_t) * per * cap,
                                        sizeof(hl_value_t) * per * ncap);
      if (!ni) return hl_err_nomem(d->err);
      items = ni;
      cap = ncap;
    }
    for (int64_t i = 0; i < count; i++, n++) {
      hl_value_t *it = &items[per * n];
      if (is_map) {
        size_t klen;
        if (get_len(d, &klen) != HL_OK) return HL_CORRUPT;
        it[0].is_null = false;
        /* keys live past the block: copied now */
        char *k = hl_arena_strndup(d->arena, (const char *)d->p + d->pos, klen);
        if (!k) return hl_err_nomem(d->err);
        it[0].u.s.ptr = k;
        it[0].u.s.len = (uint32_t)klen;
        d->pos += klen;
        it++;
      }
      hl_status_t rc = decode(d, s->kids[0], it);
      if (rc != HL_OK) return rc;
    }
  }
  out->u.list.n = (uint32_t)n;
  out->u.list.items = items;
  return HL_OK;
}

/* Nested strings must outlive the block: copies them into the arena. */
static hl_status_t own_string(dctx_t *d, hl_value_t *v) {
  if (v->is_null || v->u.s.len == 0) return HL_OK;
  char *c = hl_arena_strndup(d->arena, v->u.s.ptr, v->u.s.len);
  if (!c) return hl_err_nomem(d->err);
  v->u.s.ptr = c;
  return HL_OK;
}

static hl_status_t decode_record(dctx_t *d, const av_step_t *s, hl_value_t *out) {
  hl_value_t *items = hl_arena_alloc(d->arena, sizeof(hl_value_t) * (size_t)(s->n_out + 1));
  if (!items) return hl_err_nomem(d->err);
  memcpy(items, s->defaults, sizeof(hl_value_t) * (size_t)s->n_out);
  for (int k = 0; k < s->n_kids; k++) {
    hl_status_t rc = s->target[k] >= 0 ? decode(d, s->kids[k], &items[s->target[k]])
                                       : skip_value(d, s->kids[k]->w);
    if (rc != HL_OK) return rc;
  }
  out->u.list.n = (uint32_t)s->n_out;
  out->u.list.items = items;
  return HL_OK;
}

static hl_status_t decode(dctx_t *d, const av_step_t *s, hl_value_t *out) {
  out->is_null = false;
  int64_t v;
  switch (s->rd) {
  case RD_NULL:
    out->is_null = true;
    return HL_OK;
  case RD_BOOL:
    if (d->pos >= d->end) return fail(d, "truncated boolean");
    if (d->p[d->pos] > 1) return fail(d, "bad boolean");
    out->u.b = d->p[d->pos++] != 0;
    return HL_OK;
  case RD_VARINT:
    if (get_long(d, &v) != HL_OK) return HL_CORRUPT;
    if (s->w->kind == AV_INT && (v < INT32_MIN || v > INT32_MAX))
      return fail(d, "int out of range");
    switch (s->cv) {
    case CV_F64:
      out->u.d = s->type->id == HL_T_FLOAT ? (double)(float)v : (double)v;
      break;
    case CV_TS_MILLIS:
      if (v > INT64_MAX / 1000 || v < INT64_MIN / 1000) return fail(d, "timestamp out of range");
      out->u.i = v * 1000;
      break;
    default:
      out->u.i = v;
      /* a narrower column (a table declared TINYINT over an Avro int) */
      if ((s->type->id == HL_T_TINYINT && (v < -128 || v > 127)) ||
          (s->type->id == HL_T_SMALLINT && (v < -32768 || v > 32767)))
        out->is_null = true;
    }
    return HL_OK;
  case RD_FLOAT: {
    if (d->end - d->pos < 4) return fail(d, "truncated float");
    float f;
    memcpy(&f, d->p + d->pos, 4); /* little-endian, as the machine */
    d->pos += 4;
    out->u.d = f;
    return HL_OK;
  }
  case RD_DOUBLE:
    if (d->end - d->pos < 8) return fail(d, "truncated double");
    memcpy(&out->u.d, d->p + d->pos, 8);
    d->pos += 8;
    return HL_OK;
  case RD_BYTES:
  case RD_FIXED: {
    hl_status_t rc = decode_bytes(d, s, out);
    return rc;
  }
  case RD_ENUM:
    if (get_long(d, &v) != HL_OK) return HL_CORRUPT;
    if (v < 0 || v >= s->n_symbols) return fail(d, "enum index out of range");
    if (!s->symbols[v])
      return hl_err_set(d->err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                        "enum symbol \"%s\" of field \"%s\" is not in the table's schema, which "
                        "has no default symbol",
                        s->w->symbols[v], s->field ? s->field : "?");
    out->u.s.ptr = s->symbols[v];
    out->u.s.len = (uint32_t)strlen(s->symbols[v]);
    if (s->cv == CV_VARCHAR || s->cv == CV_CHAR) {
      uint32_t len =
          out->u.s.len < (uint32_t)s->type->length ? out->u.s.len : (uint32_t)s->type->length;
      out->u.s.len = len;
      if (s->cv == CV_CHAR &&
          hl_char_fit(d->arena, (uint32_t)s->type->length, out->u.s.ptr, len, &out->u.s) < 0)
        return hl_err_nomem(d->err);
    }
    return HL_OK;
  case RD_ARRAY:
  case RD_MAP:
    return decode_list(d, s, out);
  case RD_RECORD:
    return decode_record(d, s, out);
  case RD_UNION:
    if (get_long(d, &v) != HL_OK) return HL_CORRUPT;
    if (v < 0 || v >= s->n_kids) return fail(d, "union branch out of range");
    return decode(d, s->kids[v], out);
  case RD_TAG: {
    hl_value_t *item = hl_arena_zalloc(d->arena, sizeof *item);
    if (!item) return hl_err_nomem(d->err);
    hl_status_t rc = decode(d, s->kids[0], item);
    if (rc != HL_OK) return rc;
    out->u.list.n = 1;
    out->u.list.tag = (uint32_t)s->tag;
    out->u.list.items = item;
    return HL_OK;
  }
  case RD_NOMATCH:
    return hl_err_set(d->err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "a value of field \"%s\" is of a union branch (Avro kind %d) that cannot be "
                      "read as %s",
                      s->field ? s->field : "?", (int)s->w->kind, hl_type_id_name(s->type->id));
  case RD_SKIP:
    out->is_null = true;
    return skip_value(d, s->w);
  case RD_DEFAULT:
    out->is_null = true;
    return HL_OK;
  }
  return HL_OK;
}

/* After decode of a nested value (not a top-level column, whose strings
 * hl_vec_put_value copies), strings must not point into the block. */
static hl_status_t own_strings(dctx_t *d, const hl_type_t *t, hl_value_t *v) {
  if (v->is_null) return HL_OK;
  hl_phys_t ph = hl_type_phys(t);
  if (ph == HL_P_STR) return own_string(d, v);
  if (ph != HL_P_VALUE || !hl_type_is_complex(t)) return HL_OK;
  size_t n = hl_value_n_items(t, v);
  size_t step = t->id == HL_T_MAP ? 2 : 1; /* map keys are copied when decoded */
  for (size_t i = step - 1; i < n; i += step)
    if (own_strings(d, hl_value_item_type(t, v, i), &v->u.list.items[i]) != HL_OK) return HL_NOMEM;
  return HL_OK;
}

hl_status_t hl_avro_decode_row(const av_prog_t *prog, const uint8_t *p, size_t end, size_t *pos,
                               hl_batch_t *batch, uint32_t row, const char **why, hl_error_t *err) {
  dctx_t d = {p, end, *pos, batch->arena, NULL, err};
  const av_step_t *top = prog->top;
  /* columns the file lacks: their defaults (the reader schema's) */
  for (int m = 0; m < prog->n_missing; m++) {
    int c = prog->missing[m];
    if (hl_vec_put_value(&batch->cols[c], batch->arena, row, &top->defaults[c]) != HL_OK)
      return hl_err_nomem(err);
  }
  for (int k = 0; k < top->n_kids; k++) {
    int c = top->target[k];
    if (c < 0) {
      if (skip_value(&d, top->kids[k]->w) != HL_OK) goto corrupt;
      continue;
    }
    hl_value_t v;
    hl_status_t rc = decode(&d, top->kids[k], &v);
    if (rc == HL_CORRUPT && d.why) goto corrupt;
    if (rc == HL_OK && hl_type_is_complex(prog->types[c])) rc = own_strings(&d, prog->types[c], &v);
    if (rc == HL_OK && hl_vec_put_value(&batch->cols[c], batch->arena, row, &v) != HL_OK)
      rc = hl_err_nomem(err);
    if (rc != HL_OK) return rc;
  }
  *pos = d.pos;
  return HL_OK;
corrupt:
  *why = d.why;
  return HL_CORRUPT;
}
