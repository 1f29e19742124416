/*
 * avro_writer.c -- writing batches as an Avro object container file, as
 * Hive's AvroContainerOutputFormat does: the table's schema in the header
 * (avro.schema), the codec (avro.codec), a random sync marker, and blocks
 * of about 64 KB of encoded records (Avro's default sync interval).
 *
 * Values are encoded by the schema node each column's field has: a union
 * takes its null branch for NULL and otherwise the first branch that can
 * hold the column's type, a UNIONTYPE value the branch its tag names among
 * those other than null (Hive's AvroSerializer); DECIMAL as the big-endian two's complement of
 * the value at the schema's scale (bytes: fewest bytes; fixed: sign-
 * extended to its size); DATE as days; TIMESTAMP as milliseconds or
 * microseconds by the logical type; an enum from its symbol.
 */
#include "format/avro/avro_int.h"

#include "format/seqfile/seq_io.h"
#include "util/mem.h"

#include <string.h>
#include <strings.h>

#define SYNC_INTERVAL 64000 /* DataFileConstants.DEFAULT_SYNC_INTERVAL */

struct hl_avro_writer {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  char *path;
  const hl_avro_schema_t *schema;
  hl_avro_codec_t codec;
  int level;
  uint8_t sync[16];
  int n_cols;
  const hl_type_t *const *types;
  int *field_col; /* per top-level schema field: the column, -1 none */
  const char **col_names;
  hl_buf_t rec;  /* encoded records of the open block */
  hl_buf_t comp; /* the block compressed */
  hl_buf_t out;  /* bytes for the file */
  int64_t n_rec; /* records in rec */
  uint64_t raw_bytes, file_bytes;
  bool failed;
};

/* ---------------------------------------------------------- compatibility */

/* True when node N (not a union) can hold values of Hive type T. */
static bool holds(const av_node_t *n, const hl_type_t *t) {
  switch (n->kind) {
  case AV_NULL:
    return false;
  case AV_BOOLEAN:
    return t->id == HL_T_BOOLEAN;
  case AV_INT:
    return n->logical == AVL_DATE ? t->id == HL_T_DATE
                                  : t->id == HL_T_TINYINT || t->id == HL_T_SMALLINT ||
                                        t->id == HL_T_INT || t->id == HL_T_DATE;
  case AV_LONG:
    return n->logical == AVL_TS_MILLIS || n->logical == AVL_TS_MICROS
               ? t->id == HL_T_TIMESTAMP
               : hl_type_is_integer(t) || t->id == HL_T_TIMESTAMP;
  case AV_FLOAT:
  case AV_DOUBLE:
    return t->id == HL_T_FLOAT || t->id == HL_T_DOUBLE ||
           (n->kind == AV_DOUBLE && hl_type_is_integer(t));
  case AV_STRING:
    return hl_type_is_string(t) || t->id == HL_T_BINARY;
  case AV_BYTES:
  case AV_FIXED:
    if (n->logical == AVL_DECIMAL) return t->id == HL_T_DECIMAL;
    return t->id == HL_T_BINARY || (n->kind == AV_BYTES && hl_type_is_string(t));
  case AV_ENUM:
    return hl_type_is_string(t);
  case AV_ARRAY:
    return t->id == HL_T_ARRAY;
  case AV_MAP:
    return t->id == HL_T_MAP && hl_type_is_string(t->children[0]);
  case AV_RECORD:
    return t->id == HL_T_STRUCT;
  case AV_UNION:
    return false;
  }
  return false;
}

/* The branch of union U for a value of T (NULL: IS_NULL), -1 none. */
static int pick_branch(const av_node_t *u, const hl_type_t *t, bool is_null) {
  for (int b = 0; b < u->n; b++)
    if (is_null ? u->branches[b]->kind == AV_NULL : holds(u->branches[b], t)) return b;
  return -1;
}

static int find_struct_field(const hl_type_t *t, const char *name) {
  for (int i = 0; i < t->n_children; i++)
    if (strcasecmp(t->field_names[i], name) == 0) return i;
  return -1;
}

static bool nullable(const av_node_t *n) {
  return n->kind == AV_NULL || (n->kind == AV_UNION && pick_branch(n, NULL, true) >= 0);
}

/* The Avro branch of node N that holds alternative TAG of a UNIONTYPE: as
 * Hive's AvroSerializer, the tag indexes N's branches other than null (a
 * node that is not a union holds a one-alternative UNIONTYPE); -1 none. */
static int tag_branch(const av_node_t *n, uint32_t tag) {
  if (n->kind != AV_UNION) return tag == 0 && n->kind != AV_NULL ? 0 : -1;
  for (int b = 0; b < n->n; b++)
    if (n->branches[b]->kind != AV_NULL && tag-- == 0) return b;
  return -1;
}

static bool check(const av_node_t *n, const hl_type_t *t, int depth);

/* UNIONTYPE T against node N: one branch other than null per alternative. */
static bool check_union(const av_node_t *n, const hl_type_t *t, int depth) {
  int others = 0;
  for (int b = 0; n->kind == AV_UNION && b < n->n; b++)
    others += n->branches[b]->kind != AV_NULL;
  if (n->kind != AV_UNION) others = n->kind != AV_NULL;
  if (others != t->n_children) return false;
  for (int k = 0; k < t->n_children; k++) {
    int b = tag_branch(n, (uint32_t)k);
    if (!check(n->kind == AV_UNION ? n->branches[b] : n, t->children[k], depth + 1)) return false;
  }
  return true;
}

/* Deep check of node N against T at open: false names the problem. */
static bool check(const av_node_t *n, const hl_type_t *t, int depth) {
  if (depth > HL_AVRO_MAX_DEPTH) return false;
  if (t->id == HL_T_UNION) return check_union(n, t, depth);
  if (n->kind == AV_UNION) {
    for (int b = 0; b < n->n; b++)
      if (n->branches[b]->kind != AV_NULL && holds(n->branches[b], t))
        return check(n->branches[b], t, depth + 1);
    return false;
  }
  if (!holds(n, t)) return false;
  if (n->kind == AV_ARRAY) return check(n->items, t->children[0], depth + 1);
  if (n->kind == AV_MAP) return check(n->items, t->children[1], depth + 1);
  if (n->kind == AV_RECORD) {
    for (int i = 0; i < n->n; i++) {
      int k = find_struct_field(t, n->fields[i].name);
      if (k < 0 ? !nullable(n->fields[i].type)
                : !check(n->fields[i].type, t->children[k], depth + 1))
        return false;
    }
  }
  return true;
}

/* --------------------------------------------------------------- encoding */

static hl_status_t bad_value(const char *col, const char *why, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(DATA_EXCEPTION), "cannot write column \"%s\" as Avro: %s",
                    col, why);
}

/* VAL (unscaled, SCALE) rescaled to TO and put as big-endian two's
 * complement: WIDTH bytes (fixed), or the fewest (WIDTH 0). */
static hl_status_t put_decimal(hl_buf_t *b, __int128 v, int scale, int to, int width,
                               const char *col, hl_error_t *err) {
  while (scale < to) {
    v *= 10;
    scale++;
  }
  while (scale > to) {
    __int128 q = v / 10, r = v % 10;
    v = q + (r >= 5) - (r <= -5);
    scale--;
  }
  uint8_t tmp[16];
  unsigned __int128 u = (unsigned __int128)v;
  for (int i = 15; i >= 0; i--) {
    tmp[i] = (uint8_t)u;
    u >>= 8;
  }
  int start = 0;
  bool neg = v < 0;
  while (start < 15 && tmp[start] == (neg ? 0xff : 0) && ((tmp[start + 1] & 0x80) != 0) == neg)
    start++;
  int n = 16 - start;
  if (width == 0) {
    hl_avro_put_long(b, n);
    hl_buf_append(b, tmp + start, (size_t)n);
    return HL_OK;
  }
  if (n > width) return bad_value(col, "the decimal does not fit the fixed size", err);
  for (int i = n; i < width; i++)
    hl_buf_putc(b, (char)(neg ? 0xff : 0));
  hl_buf_append(b, tmp + start, (size_t)n);
  return HL_OK;
}

static hl_status_t encode(hl_buf_t *b, const av_node_t *n, const hl_type_t *t, const hl_value_t *v,
                          const char *col, hl_error_t *err);

/* A UNIONTYPE value: Avro's index of the branch its tag names, then the
 * value; a NULL union, or one whose value is NULL, is the null branch (as
 * Hive's AvroSerializer writes a null there, so it reads back NULL). */
static hl_status_t encode_union(hl_buf_t *b, const av_node_t *n, const hl_type_t *t,
                                const hl_value_t *v, const char *col, hl_error_t *err) {
  const hl_value_t *item = v->is_null || v->u.list.n == 0 ? NULL : &v->u.list.items[0];
  if (!item || item->is_null) {
    int br = n->kind == AV_UNION ? pick_branch(n, NULL, true) : -1;
    if (br < 0) return bad_value(col, "NULL into a field that is not nullable", err);
    hl_avro_put_long(b, br);
    return HL_OK;
  }
  uint32_t tag = v->u.list.tag;
  int br = tag < (uint32_t)t->n_children ? tag_branch(n, tag) : -1;
  if (br < 0) return bad_value(col, "no branch of the union holds the value's tag", err);
  if (n->kind != AV_UNION) return encode(b, n, t->children[tag], item, col, err);
  hl_avro_put_long(b, br);
  return encode(b, n->branches[br], t->children[tag], item, col, err);
}

static hl_status_t encode(hl_buf_t *b, const av_node_t *n, const hl_type_t *t, const hl_value_t *v,
                          const char *col, hl_error_t *err) {
  if (t->id == HL_T_UNION) return encode_union(b, n, t, v, col, err);
  if (n->kind == AV_UNION) {
    int br = pick_branch(n, t, v->is_null);
    if (br < 0)
      return bad_value(col,
                       v->is_null ? "NULL into a field that is not nullable"
                                  : "no branch of the union holds the value",
                       err);
    hl_avro_put_long(b, br);
    n = n->branches[br];
  }
  if (v->is_null) {
    if (n->kind == AV_NULL) return HL_OK;
    return bad_value(col, "NULL into a field that is not nullable", err);
  }
  switch (n->kind) {
  case AV_NULL:
    return bad_value(col, "a value into a null field", err);
  case AV_BOOLEAN:
    hl_buf_putc(b, v->u.b ? 1 : 0);
    return HL_OK;
  case AV_INT:
    hl_avro_put_long(b, (int32_t)v->u.i);
    return HL_OK;
  case AV_LONG: {
    int64_t x = v->u.i;
    if (t->id == HL_T_TIMESTAMP && n->logical != AVL_TS_MICROS) /* millis, floored */
      x = x >= 0 ? x / 1000 : -((-x + 999) / 1000);
    hl_avro_put_long(b, x);
    return HL_OK;
  }
  case AV_FLOAT: {
    float f = (float)(hl_type_phys(t) == HL_P_F64 ? v->u.d : (double)v->u.i);
    hl_buf_append(b, &f, 4);
    return HL_OK;
  }
  case AV_DOUBLE: {
    double d = hl_type_phys(t) == HL_P_F64 ? v->u.d : (double)v->u.i;
    hl_buf_append(b, &d, 8);
    return HL_OK;
  }
  case AV_STRING:
  case AV_BYTES:
    if (n->logical == AVL_DECIMAL && t->id == HL_T_DECIMAL)
      return put_decimal(b, v->u.dec, t->scale, n->scale, 0, col, err);
    hl_avro_put_long(b, v->u.s.len);
    hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return HL_OK;
  case AV_FIXED:
    if (n->logical == AVL_DECIMAL && t->id == HL_T_DECIMAL)
      return put_decimal(b, v->u.dec, t->scale, n->scale, n->size, col, err);
    if (v->u.s.len != (uint32_t)n->size)
      return bad_value(col, "binary value of another size than the fixed type", err);
    hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return HL_OK;
  case AV_ENUM: {
    uint32_t len = v->u.s.len;
    if (t->id == HL_T_CHAR) /* CHAR's padding is not part of a symbol */
      while (len > 0 && v->u.s.ptr[len - 1] == ' ')
        len--;
    for (int i = 0; i < n->n; i++)
      if (strlen(n->symbols[i]) == len && memcmp(n->symbols[i], v->u.s.ptr, len) == 0) {
        hl_avro_put_long(b, i);
        return HL_OK;
      }
    return bad_value(col, "the string is not a symbol of the enum", err);
  }
  case AV_ARRAY:
  case AV_MAP: {
    bool is_map = n->kind == AV_MAP;
    uint32_t cnt = v->u.list.n;
    if (cnt > 0) hl_avro_put_long(b, cnt);
    for (uint32_t i = 0; i < cnt; i++) {
      const hl_value_t *it = &v->u.list.items[is_map ? 2 * i : i];
      if (is_map) {
        if (it->is_null) return bad_value(col, "a map key is NULL", err);
        hl_avro_put_long(b, it->u.s.len);
        hl_buf_append(b, it->u.s.ptr, it->u.s.len);
        it++;
      }
      hl_status_t rc = encode(b, n->items, t->children[is_map ? 1 : 0], it, col, err);
      if (rc != HL_OK) return rc;
    }
    hl_avro_put_long(b, 0);
    return HL_OK;
  }
  case AV_RECORD:
    for (int i = 0; i < n->n; i++) {
      int k = find_struct_field(t, n->fields[i].name);
      static const hl_value_t null_value = {.is_null = true};
      hl_status_t rc =
          k < 0 ? encode(b, n->fields[i].type, t, &null_value, col, err)
                : encode(b, n->fields[i].type, t->children[k], &v->u.list.items[k], col, err);
      if (rc != HL_OK) return rc;
    }
    return HL_OK;
  case AV_UNION:
    break;
  }
  return bad_value(col, "a union inside a union", err);
}

/* ------------------------------------------------------------------ file */

static void writer_free(hl_avro_writer_t *w) {
  hl_buf_fini(&w->rec);
  hl_buf_fini(&w->comp);
  hl_buf_fini(&w->out);
  hl_free(w->field_col);
  hl_free(w->path);
  hl_free(w);
}

static hl_status_t append_out(hl_avro_writer_t *w, hl_error_t *err) {
  if (w->out.oom) {
    w->failed = true;
    return hl_err_nomem(err);
  }
  if (w->out.len == 0) return HL_OK;
  hl_status_t st = w->fs->ops->append(w->file, w->out.data, w->out.len, err);
  if (st != HL_OK) {
    w->failed = true;
    return st;
  }
  w->file_bytes += w->out.len;
  hl_buf_reset(&w->out);
  return HL_OK;
}

static void put_bytes(hl_buf_t *b, const char *s, size_t n) {
  hl_avro_put_long(b, (int64_t)n);
  hl_buf_append(b, s, n);
}

hl_status_t hl_avro_writer_open(hl_stor_t *fs, const char *path, const hl_avro_schema_t *schema,
                                hl_avro_codec_t codec, int level, const uint8_t *sync, int n_cols,
                                const hl_type_t *const *types, const char *const *names,
                                hl_avro_writer_t **out, hl_error_t *err) {
  *out = NULL;
  const av_node_t *root = schema->root;
  if (root->kind != AV_RECORD)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "an Avro table's schema must be a record");
  hl_avro_writer_t *w = hl_calloc(1, sizeof *w);
  if (!w) return hl_err_nomem(err);
  hl_buf_init(&w->rec);
  hl_buf_init(&w->comp);
  hl_buf_init(&w->out);
  w->fs = fs;
  w->schema = schema;
  w->codec = codec;
  w->level = level;
  w->n_cols = n_cols;
  w->types = types;
  w->col_names = (const char **)names;
  w->path = hl_strdup(path);
  w->field_col = hl_malloc(sizeof(int) * (size_t)(root->n + 1));
  if (!w->path || !w->field_col) {
    writer_free(w);
    return hl_err_nomem(err);
  }
  hl_status_t st = HL_OK;
  for (int i = 0; st == HL_OK && i < root->n; i++) {
    const av_field_t *f = &root->fields[i];
    w->field_col[i] = -1;
    for (int c = 0; c < n_cols && w->field_col[i] < 0; c++)
      if (strcasecmp(names[c], f->name) == 0) w->field_col[i] = c;
    int c = w->field_col[i];
    if (c < 0 && !nullable(f->type))
      st = hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "the Avro schema's field \"%s\" has no column and is not nullable", f->name);
    else if (c >= 0 && !check(f->type, types[c], 0))
      st = hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "column \"%s\" of type %s cannot be written as the Avro schema's field "
                      "\"%s\"",
                      names[c], hl_type_id_name(types[c]->id), f->name);
  }
  if (st != HL_OK) {
    writer_free(w);
    return st;
  }
  if (sync)
    memcpy(w->sync, sync, 16);
  else
    hl_seqio_random_sync(w->sync);
  hl_buf_append(&w->out, "Obj\x01", 4);
  hl_avro_put_long(&w->out, 2);
  put_bytes(&w->out, "avro.schema", 11);
  put_bytes(&w->out, schema->json, strlen(schema->json));
  put_bytes(&w->out, "avro.codec", 10);
  const char *cn = hl_avro_codec_name(codec);
  put_bytes(&w->out, cn, strlen(cn));
  hl_avro_put_long(&w->out, 0);
  hl_buf_append(&w->out, w->sync, 16);
  if (w->out.oom) {
    writer_free(w);
    return hl_err_nomem(err);
  }
  if ((st = fs->ops->create(fs, w->path, &w->file, err)) != HL_OK) {
    writer_free(w);
    return st;
  }
  *out = w;
  return HL_OK;
}

static hl_status_t flush_block(hl_avro_writer_t *w, hl_error_t *err) {
  if (w->n_rec == 0) return HL_OK;
  if (w->rec.oom) return hl_err_nomem(err);
  const hl_buf_t *data = &w->rec;
  if (w->codec != HL_AVRO_NULL) {
    hl_buf_reset(&w->comp);
    hl_status_t st = hl_avro_compress(w->codec, w->level, (const uint8_t *)w->rec.data, w->rec.len,
                                      &w->comp, err);
    if (st != HL_OK) return st;
    data = &w->comp;
  }
  hl_avro_put_long(&w->out, w->n_rec);
  hl_avro_put_long(&w->out, (int64_t)data->len);
  hl_buf_append(&w->out, data->data, data->len);
  hl_buf_append(&w->out, w->sync, 16);
  hl_buf_reset(&w->rec);
  w->n_rec = 0;
  return append_out(w, err);
}

hl_status_t hl_avro_writer_write(hl_avro_writer_t *w, const hl_batch_t *batch, hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "write after a failed write");
  const av_node_t *root = w->schema->root;
  uint32_t live = hl_batch_live(batch);
  for (uint32_t i = 0; i < live; i++) {
    uint32_t row = hl_batch_row(batch, i);
    size_t before = w->rec.len;
    for (int f = 0; f < root->n; f++) {
      int c = w->field_col[f];
      hl_value_t v = {.is_null = true};
      if (c >= 0) hl_vec_get_value(&batch->cols[c], row, &v);
      hl_status_t st =
          encode(&w->rec, root->fields[f].type, c >= 0 ? w->types[c] : hl_type_prim(HL_T_STRING),
                 &v, c >= 0 ? w->col_names[c] : root->fields[f].name, err);
      if (st != HL_OK) {
        w->rec.len = before; /* the row is not written */
        return st;
      }
    }
    w->n_rec++;
    w->raw_bytes += w->rec.len - before + 1;
    if (w->rec.len >= SYNC_INTERVAL || w->rec.oom) {
      hl_status_t st = flush_block(w, err);
      if (st != HL_OK) {
        w->failed = true;
        return st;
      }
    }
  }
  return HL_OK;
}

hl_status_t hl_avro_writer_close(hl_avro_writer_t *w, hl_error_t *err) {
  if (!w) return HL_OK;
  hl_status_t st = HL_OK;
  if (w->failed)
    st = hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR), "cannot write \"%s\": an earlier write failed",
                    w->path);
  if (st == HL_OK) st = flush_block(w, err);
  if (st == HL_OK) st = append_out(w, err);
  if (st == HL_OK) st = w->fs->ops->sync(w->file, err);
  hl_status_t cst = w->fs->ops->close(w->file, err);
  if (st == HL_OK) st = cst;
  writer_free(w);
  return st;
}

void hl_avro_writer_abort(hl_avro_writer_t *w) {
  if (!w) return;
  hl_error_t e;
  hl_err_init(&e);
  w->fs->ops->close(w->file, &e);
  hl_err_clear(&e);
  writer_free(w);
}

uint64_t hl_avro_writer_raw_bytes(const hl_avro_writer_t *w) {
  return w ? w->raw_bytes : 0;
}

uint64_t hl_avro_writer_mem(const hl_avro_writer_t *w) {
  return sizeof *w + w->rec.cap + w->comp.cap + w->out.cap;
}

uint64_t hl_avro_writer_file_bytes(const hl_avro_writer_t *w) {
  return w ? w->file_bytes + w->out.len + w->rec.len : 0;
}
