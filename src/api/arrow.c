/*
 * arrow.c -- results as the Arrow C Data Interface: hl_stmt_arrow_schema
 * and hl_stmt_arrow_next of include/hivelite.h.
 *
 * The rows come straight from the engine's column vectors (vector.h): a
 * builder per Arrow array (one per column, and under it one per nested
 * list, map entry and struct field) copies the live rows of each batch
 * into growable buffers -- fixed-width values in typed loops, complex
 * values (hl_value_t trees) by recursion -- and the finished buffers are
 * handed to the exported ArrowArray tree, which owns them from then on.
 * Copying is what lets an array outlive the batch, the statement and the
 * handle: engine batches are reset by their operator at the next pull.
 *
 * Ownership follows the specification's rules for moving children: every
 * exported node (array or schema) has its own private block holding its
 * buffers and the structs of its children; its release callback releases
 * the children still present (release not NULL) and frees its own block.
 * A consumer that moved a child out (copied the struct, NULLed the
 * original's release) releases that child alone, before or after the
 * parent.  All memory is the heap's (util/mem.h): none of it belongs to
 * the statement or counts against its memory budget, since the caller
 * keeps it after the statement is gone.
 */
#include "api_int.h"

#include "util/mem.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* the engine's phys layout (util/type.h) is the host's; the C data
 * interface is host-endian too, so the decimal's bytes are stored as the
 * host holds them (little-endian wherever hivelite builds today) */

#define DEFAULT_BATCH_ROWS 65536
#define MAX_BATCH_ROWS     (1u << 30)

/* ---------------------------------------------------------- builders */

typedef enum ab_kind {
  AK_NULL,
  AK_BOOL,
  AK_I8,
  AK_I16,
  AK_I32, /* INT, DATE */
  AK_I64, /* BIGINT, TIMESTAMP */
  AK_F32,
  AK_F64,
  AK_DEC,   /* 16 bytes */
  AK_BYTES, /* STRING, VARCHAR, CHAR, BINARY: offsets + bytes */
  AK_LIST,
  AK_MAP, /* a list of AK_STRUCT entries (key, value) */
  AK_STRUCT
} ab_kind_t;

/* One Arrow array under construction. */
typedef struct ab {
  ab_kind_t kind;
  int64_t length, null_count;
  bool has_valid; /* the bitmap is materialized (a NULL was seen) */
  hl_buf_t valid; /* bitmap: bit i = row i present */
  hl_buf_t offs;  /* int32 offsets, length + 1 of them */
  hl_buf_t data;  /* values (AK_BOOL: bits), or the bytes of AK_BYTES */
  int n_children;
  struct ab *children;
} ab_t;

static ab_kind_t kind_of(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_BOOLEAN:
    return AK_BOOL;
  case HL_T_TINYINT:
    return AK_I8;
  case HL_T_SMALLINT:
    return AK_I16;
  case HL_T_INT:
  case HL_T_DATE:
    return AK_I32;
  case HL_T_BIGINT:
  case HL_T_TIMESTAMP:
    return AK_I64;
  case HL_T_FLOAT:
    return AK_F32;
  case HL_T_DOUBLE:
    return AK_F64;
  case HL_T_DECIMAL:
    return AK_DEC;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY:
    return AK_BYTES;
  case HL_T_ARRAY:
    return AK_LIST;
  case HL_T_MAP:
    return AK_MAP;
  case HL_T_STRUCT:
    return AK_STRUCT;
  case HL_T_UNION: /* refused before any builder (refused_types) */
  case HL_T_INTERVAL_YM:
  case HL_T_INTERVAL_DT:
  case HL_T_NULL:
    break;
  }
  return AK_NULL;
}

/* UNIONTYPE columns are not exported yet (Arrow's dense union is the
 * match), nor interval columns (Arrow's interval types hold other units):
 * refused by name rather than sent as something else. */
static hl_status_t refused_types(int n, const hl_type_t **types, const char **names,
                                 hl_error_t *err) {
  for (int c = 0; c < n; c++) {
    if (hl_type_contains(types[c], HL_T_UNION))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "column \"%s\": UNIONTYPE values are not exported to Arrow yet",
                        names && names[c] ? names[c] : "?");
    /* Arrow's interval types count months / days+millis, not Hive's
     * microseconds: refused rather than sent as something else */
    if (hl_type_has_interval(types[c]))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "column \"%s\": interval values are not exported to Arrow (cast them to "
                        "STRING)",
                        names && names[c] ? names[c] : "?");
  }
  return HL_OK;
}

static size_t kind_width(ab_kind_t k) {
  switch (k) {
  case AK_I8:
    return 1;
  case AK_I16:
    return 2;
  case AK_I32:
  case AK_F32:
    return 4;
  case AK_I64:
  case AK_F64:
    return 8;
  case AK_DEC:
    return 16;
  default:
    return 0;
  }
}

static void ab_fini(ab_t *b) {
  for (int i = 0; i < b->n_children; i++)
    ab_fini(&b->children[i]);
  hl_free(b->children);
  hl_buf_fini(&b->valid);
  hl_buf_fini(&b->offs);
  hl_buf_fini(&b->data);
  memset(b, 0, sizeof *b);
}

static void push_offset(ab_t *b, int64_t off) {
  int32_t o = (int32_t)off;
  hl_buf_append(&b->offs, &o, sizeof o);
}

/* A builder for arrays of type T (NULL: the map's entries, of KEY and
 * VALUE).  -1 when out of memory (B is then safe to ab_fini). */
static int ab_init(ab_t *b, const hl_type_t *t, const hl_type_t *key, const hl_type_t *value) {
  memset(b, 0, sizeof *b);
  hl_buf_init(&b->valid);
  hl_buf_init(&b->offs);
  hl_buf_init(&b->data);
  b->kind = t ? kind_of(t) : AK_STRUCT;
  int n = 0;
  if (!t)
    n = 2;
  else if (b->kind == AK_LIST || b->kind == AK_MAP)
    n = 1;
  else if (b->kind == AK_STRUCT)
    n = t->n_children;
  if (b->kind == AK_BYTES || b->kind == AK_LIST || b->kind == AK_MAP) push_offset(b, 0);
  if (n > 0 && !(b->children = hl_calloc((size_t)n, sizeof(ab_t)))) return -1;
  b->n_children = n;
  for (int i = 0; i < n; i++) {
    int rc;
    if (!t)
      rc = ab_init(&b->children[i], i == 0 ? key : value, NULL, NULL);
    else if (b->kind == AK_MAP)
      rc = ab_init(&b->children[i], NULL, t->children[0], t->children[1]);
    else
      rc = ab_init(&b->children[i], t->children[i], NULL, NULL);
    if (rc != 0) return -1;
  }
  return b->offs.oom ? -1 : 0;
}

/* Sets bit I of BITS to ON, growing it a zero byte at a time. */
static void bit_put(hl_buf_t *bits, int64_t i, bool on) {
  size_t need = (size_t)(i >> 3) + 1;
  while (bits->len < need && !bits->oom)
    hl_buf_putc(bits, 0);
  if (!bits->oom && on) bits->data[i >> 3] |= (char)(1u << (i & 7));
}

/* Records whether the value about to be appended is present. */
static void ab_mark(ab_t *b, bool present) {
  if (present) {
    if (b->has_valid) bit_put(&b->valid, b->length, true);
    return;
  }
  if (!b->has_valid) {
    /* the first NULL: every row so far was present */
    b->has_valid = true;
    for (int64_t i = 0; i < b->length && !b->valid.oom; i += 8) {
      int64_t left = b->length - i;
      hl_buf_putc(&b->valid, (char)(left >= 8 ? 0xff : (1u << left) - 1));
    }
  }
  b->null_count++;
  bit_put(&b->valid, b->length, false);
}

/* The current length of the child, as the next offset of a list or map;
 * 54000 when it no longer fits Arrow's 32-bit offsets. */
static hl_status_t end_offset(ab_t *b, int64_t off, hl_error_t *err) {
  if (off > INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "an Arrow batch holds more than 2^31-1 %s in one column",
                      b->kind == AK_BYTES ? "bytes" : "elements");
  push_offset(b, off);
  return HL_OK;
}

static hl_status_t put_bytes(ab_t *b, const char *p, uint32_t len, hl_error_t *err) {
  if (len) hl_buf_append(&b->data, p, len);
  return end_offset(b, (int64_t)b->data.len, err);
}

/* Appends V (NULL or is_null: a NULL) to B, recursively. */
static hl_status_t ab_put(ab_t *b, const hl_value_t *v, hl_error_t *err) {
  bool null = !v || v->is_null;
  ab_mark(b, !null);
  hl_status_t rc = HL_OK;
  switch (b->kind) {
  case AK_NULL:
    break;
  case AK_BOOL:
    bit_put(&b->data, b->length, !null && v->u.b);
    break;
  case AK_I8: {
    int8_t x = null ? 0 : (int8_t)v->u.i;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_I16: {
    int16_t x = null ? 0 : (int16_t)v->u.i;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_I32: {
    int32_t x = null ? 0 : (int32_t)v->u.i;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_I64: {
    int64_t x = null ? 0 : v->u.i;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_F32: {
    float x = null ? 0 : (float)v->u.d;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_F64: {
    double x = null ? 0 : v->u.d;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_DEC: {
    __int128 x = null ? 0 : v->u.dec;
    hl_buf_append(&b->data, &x, sizeof x);
    break;
  }
  case AK_BYTES:
    rc =
        null ? end_offset(b, (int64_t)b->data.len, err) : put_bytes(b, v->u.s.ptr, v->u.s.len, err);
    break;
  case AK_LIST: {
    ab_t *items = &b->children[0];
    for (uint32_t i = 0; !null && rc == HL_OK && i < v->u.list.n; i++)
      rc = ab_put(items, &v->u.list.items[i], err);
    if (rc == HL_OK) rc = end_offset(b, items->length, err);
    break;
  }
  case AK_MAP: {
    ab_t *entries = &b->children[0];
    for (uint32_t i = 0; !null && rc == HL_OK && i < v->u.list.n; i++) {
      const hl_value_t *key = &v->u.list.items[2 * i];
      if (key->is_null)
        return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                          "a map holds a NULL key, which an Arrow map cannot hold");
      ab_mark(entries, true);
      rc = ab_put(&entries->children[0], key, err);
      if (rc == HL_OK) rc = ab_put(&entries->children[1], &v->u.list.items[2 * i + 1], err);
      entries->length++;
    }
    if (rc == HL_OK) rc = end_offset(b, entries->length, err);
    break;
  }
  case AK_STRUCT:
    /* a NULL struct still has a slot in every field (NULL there too) */
    for (int f = 0; rc == HL_OK && f < b->n_children; f++)
      rc = ab_put(&b->children[f], null || (uint32_t)f >= v->u.list.n ? NULL : &v->u.list.items[f],
                  err);
    break;
  }
  b->length++;
  return rc;
}

/* Appends the live rows [FROM, TO) of BATCH's vector V to B: the plain
 * types in loops over the vector's physical array, complex values through
 * ab_put. */
static hl_status_t ab_put_vec(ab_t *b, const hl_batch_t *batch, const hl_vec_t *v, uint32_t from,
                              uint32_t to, hl_error_t *err) {
  size_t w = kind_width(b->kind);
  hl_phys_t phys = hl_type_phys(v->type);
  if (w && (phys == HL_P_I64 || phys == HL_P_F64 || phys == HL_P_I128)) {
    if (hl_buf_reserve(&b->data, w * (to - from)) != 0) return hl_err_nomem(err);
    for (uint32_t i = from; i < to; i++) {
      uint32_t r = hl_batch_row(batch, i);
      bool null = hl_vec_is_null(v, r);
      ab_mark(b, !null);
      char *dst = b->data.data + b->data.len;
      switch (b->kind) {
      case AK_I8: {
        int8_t x = null ? 0 : (int8_t)HL_VEC_I64(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      case AK_I16: {
        int16_t x = null ? 0 : (int16_t)HL_VEC_I64(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      case AK_I32: {
        int32_t x = null ? 0 : (int32_t)HL_VEC_I64(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      case AK_I64: {
        int64_t x = null ? 0 : HL_VEC_I64(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      case AK_F32: {
        float x = null ? 0 : (float)HL_VEC_F64(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      case AK_F64: {
        double x = null ? 0 : HL_VEC_F64(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      default: {
        __int128 x = null ? 0 : HL_VEC_I128(v)[r];
        memcpy(dst, &x, sizeof x);
        break;
      }
      }
      b->data.len += w;
      b->length++;
    }
    return HL_OK;
  }
  hl_status_t rc = HL_OK;
  if (b->kind == AK_BYTES && phys == HL_P_STR) {
    for (uint32_t i = from; rc == HL_OK && i < to; i++) {
      uint32_t r = hl_batch_row(batch, i);
      bool null = hl_vec_is_null(v, r);
      ab_mark(b, !null);
      const hl_str_t *str = &HL_VEC_STR(v)[r];
      rc = null ? end_offset(b, (int64_t)b->data.len, err) : put_bytes(b, str->ptr, str->len, err);
      b->length++;
    }
    return rc;
  }
  for (uint32_t i = from; rc == HL_OK && i < to; i++) {
    uint32_t r = hl_batch_row(batch, i);
    hl_value_t val;
    if (hl_vec_is_null(v, r))
      val.is_null = true;
    else
      hl_vec_get_value(v, r, &val);
    rc = ab_put(b, &val, err);
  }
  return rc;
}

static bool ab_oom(const ab_t *b) {
  if (b->valid.oom || b->offs.oom || b->data.oom) return true;
  for (int i = 0; i < b->n_children; i++)
    if (ab_oom(&b->children[i])) return true;
  return false;
}

/* Bytes held so far (to end a batch before it grows too big). */
static size_t ab_bytes(const ab_t *b) {
  size_t n = b->valid.len + b->offs.len + b->data.len;
  for (int i = 0; i < b->n_children; i++)
    n += ab_bytes(&b->children[i]);
  return n;
}

/* --------------------------------------------------------- arrays */

typedef struct arr_priv {
  void *owned[3];      /* the buffers (hl_free at release) */
  const void *bufs[3]; /* ArrowArray.buffers */
  struct ArrowArray **child_ptrs;
  struct ArrowArray *child_arrs;
} arr_priv_t;

static void release_array(struct ArrowArray *a) {
  if (!a || !a->release) return;
  arr_priv_t *p = a->private_data;
  for (int64_t i = 0; i < a->n_children; i++)
    if (a->children[i]->release) a->children[i]->release(a->children[i]);
  for (int i = 0; i < 3; i++)
    hl_free(p->owned[i]);
  hl_free(p->child_ptrs);
  hl_free(p->child_arrs);
  hl_free(p);
  a->release = NULL;
  a->private_data = NULL;
}

/* Moves BUF's bytes into P's buffer I; -1 when out of memory. */
static int take_buffer(arr_priv_t *p, int i, hl_buf_t *buf) {
  char *d = hl_buf_detach(buf);
  if (!d) return -1;
  p->owned[i] = d;
  p->bufs[i] = d;
  return 0;
}

/* Exports B into *OUT (its buffers taken from B).  -1 when out of memory,
 * *OUT then released (release NULL). */
static int export_array(ab_t *b, struct ArrowArray *out) {
  memset(out, 0, sizeof *out);
  arr_priv_t *p = hl_calloc(1, sizeof *p);
  if (!p) return -1;
  out->length = b->length;
  out->null_count = b->null_count;
  out->buffers = p->bufs;
  out->private_data = p;
  out->release = release_array;
  int n_bufs = 1, failed = 0;
  /* buffer 0, the bitmap: only when there is a NULL (the type "n" has none) */
  if (b->kind == AK_NULL)
    n_bufs = 0;
  else if (b->has_valid)
    failed |= take_buffer(p, 0, &b->valid);
  switch (b->kind) {
  case AK_NULL:
  case AK_STRUCT:
    break;
  case AK_BYTES:
    failed |= take_buffer(p, 1, &b->offs) | take_buffer(p, 2, &b->data);
    n_bufs = 3;
    break;
  case AK_LIST:
  case AK_MAP:
    failed |= take_buffer(p, 1, &b->offs);
    n_bufs = 2;
    break;
  default:
    failed |= take_buffer(p, 1, &b->data);
    n_bufs = 2;
  }
  out->n_buffers = n_bufs;
  if (!failed && b->n_children > 0) {
    p->child_ptrs = hl_calloc((size_t)b->n_children, sizeof *p->child_ptrs);
    p->child_arrs = hl_calloc((size_t)b->n_children, sizeof *p->child_arrs);
    failed = !p->child_ptrs || !p->child_arrs;
    for (int i = 0; !failed && i < b->n_children; i++) {
      p->child_ptrs[i] = &p->child_arrs[i];
      failed = export_array(&b->children[i], &p->child_arrs[i]) != 0;
      out->n_children = i + 1; /* the children exported so far are released with it */
    }
    out->children = p->child_ptrs;
  }
  if (failed) {
    release_array(out);
    return -1;
  }
  return 0;
}

/* --------------------------------------------------------- schemas */

typedef struct sch_priv {
  char format[32];
  char *name;
  struct ArrowSchema **child_ptrs;
  struct ArrowSchema *child_sch;
} sch_priv_t;

static void release_schema(struct ArrowSchema *s) {
  if (!s || !s->release) return;
  sch_priv_t *p = s->private_data;
  for (int64_t i = 0; i < s->n_children; i++)
    if (s->children[i]->release) s->children[i]->release(s->children[i]);
  hl_free(p->name);
  hl_free(p->child_ptrs);
  hl_free(p->child_sch);
  hl_free(p);
  s->release = NULL;
  s->private_data = NULL;
}

static const char *simple_format(hl_type_id_t id) {
  switch (id) {
  case HL_T_BOOLEAN:
    return "b";
  case HL_T_TINYINT:
    return "c";
  case HL_T_SMALLINT:
    return "s";
  case HL_T_INT:
    return "i";
  case HL_T_BIGINT:
    return "l";
  case HL_T_FLOAT:
    return "f";
  case HL_T_DOUBLE:
    return "g";
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    return "u";
  case HL_T_BINARY:
    return "z";
  case HL_T_DATE:
    return "tdD";
  case HL_T_TIMESTAMP:
    return "tsu:";
  case HL_T_ARRAY:
    return "+l";
  case HL_T_MAP:
    return "+m";
  case HL_T_STRUCT:
    return "+s";
  default:
    return "n";
  }
}

/* Starts *OUT as a schema node FORMAT named NAME with N_CHILDREN child
 * slots (to be filled); NULL when out of memory (*OUT then released). */
static sch_priv_t *new_schema(struct ArrowSchema *out, const char *format, const char *name,
                              int64_t flags, int n_children) {
  memset(out, 0, sizeof *out);
  sch_priv_t *p = hl_calloc(1, sizeof *p);
  if (!p) return NULL;
  out->private_data = p;
  out->release = release_schema;
  out->flags = flags;
  snprintf(p->format, sizeof p->format, "%s", format);
  out->format = p->format;
  p->name = hl_strdup(name);
  out->name = p->name;
  bool failed = !p->name;
  if (!failed && n_children > 0) {
    p->child_ptrs = hl_calloc((size_t)n_children, sizeof *p->child_ptrs);
    p->child_sch = hl_calloc((size_t)n_children, sizeof *p->child_sch);
    failed = !p->child_ptrs || !p->child_sch;
    for (int i = 0; !failed && i < n_children; i++)
      p->child_ptrs[i] = &p->child_sch[i];
    out->children = p->child_ptrs;
    /* unfilled slots have no release: a release now skips them */
    if (!failed) out->n_children = n_children;
  }
  if (failed) {
    release_schema(out);
    return NULL;
  }
  return p;
}

/* Exports the field NAME of type T into *OUT.  -1 when out of memory,
 * *OUT then released. */
static int export_field(struct ArrowSchema *out, const char *name, const hl_type_t *t,
                        int64_t flags) {
  char format[32];
  int n = 0;
  if (t->id == HL_T_DECIMAL)
    snprintf(format, sizeof format, "d:%d,%d", t->precision, t->scale);
  else
    snprintf(format, sizeof format, "%s", simple_format(t->id));
  if (t->id == HL_T_ARRAY || t->id == HL_T_MAP)
    n = 1;
  else if (t->id == HL_T_STRUCT)
    n = t->n_children;
  sch_priv_t *p = new_schema(out, format, name, flags, n);
  if (!p) return -1;
  int rc = 0;
  if (t->id == HL_T_ARRAY) {
    rc = export_field(p->child_ptrs[0], "item", t->children[0], ARROW_FLAG_NULLABLE);
  } else if (t->id == HL_T_MAP) {
    /* entries: a struct that is not nullable, of a key that is not either */
    sch_priv_t *e = new_schema(p->child_ptrs[0], "+s", "entries", 0, 2);
    rc = e ? export_field(e->child_ptrs[0], "key", t->children[0], 0) : -1;
    if (rc == 0) rc = export_field(e->child_ptrs[1], "value", t->children[1], ARROW_FLAG_NULLABLE);
  } else {
    for (int i = 0; rc == 0 && i < n; i++)
      rc = export_field(p->child_ptrs[i], t->field_names[i], t->children[i], ARROW_FLAG_NULLABLE);
  }
  /* a failed child is released already; the parent releases the others */
  if (rc != 0) {
    release_schema(out);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------ the API */

/* The current shape of ST (hl_column_count's), through the public calls so
 * that a query not yet run is described as hl_column_info describes it. */
static int shape(hl_stmt_t *st, const hl_type_t ***types, const char ***names) {
  int n = hl_column_count(st);
  *types = NULL;
  *names = NULL;
  if (n <= 0) return 0;
  if (st->executed) {
    *types = (const hl_type_t **)st->result.types;
    *names = (const char **)st->result.names;
  } else {
    *types = st->desc_types;
    *names = (const char **)st->desc_names;
  }
  return n;
}

hl_status_t hl_stmt_arrow_schema(hl_stmt_t *st, struct ArrowSchema *out) {
  if (!out) return HL_MISUSE;
  out->release = NULL;
  if (!st) return HL_MISUSE;
  hl_api_clear_error(st->db);
  const hl_type_t **types;
  const char **names;
  int n = shape(st, &types, &names);
  hl_error_t uerr;
  hl_err_init(&uerr);
  if (refused_types(n, types, names, &uerr) != HL_OK) return hl_api_take_error(st->db, NULL, &uerr);
  sch_priv_t *p = new_schema(out, "+s", "", 0, n);
  int rc = p ? 0 : -1;
  for (int c = 0; rc == 0 && c < n; c++)
    rc = export_field(p->child_ptrs[c], names[c], types[c], ARROW_FLAG_NULLABLE);
  if (rc != 0) {
    release_schema(out);
    hl_error_t err;
    hl_err_init(&err);
    return hl_api_take_error(st->db, NULL, (hl_err_nomem(&err), &err));
  }
  return HL_OK;
}

/* hivelite.arrow.batch_rows: the rows after which a batch ends. */
static hl_status_t batch_rows(hl_stmt_t *st, uint64_t *out, hl_error_t *err) {
  hl_status_t rc = hl_session_get_u64(&st->db->session, "hivelite.arrow.batch_rows",
                                      DEFAULT_BATCH_ROWS, out, err);
  if (rc == HL_OK && (*out < 1 || *out > MAX_BATCH_ROWS))
    rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "hivelite.arrow.batch_rows must be between 1 and %u", MAX_BATCH_ROWS);
  return rc;
}

/* A batch also ends once its buffers hold this much (a batch of long
 * strings), well before 32-bit offsets could overflow. */
#define MAX_BATCH_BYTES ((size_t)256 << 20)

hl_status_t hl_stmt_arrow_next(hl_stmt_t *st, struct ArrowArray *out) {
  if (!out) return HL_MISUSE;
  out->release = NULL;
  if (!st) return HL_MISUSE;
  hl_db_t *db = st->db;
  hl_api_clear_error(db);
  if (!st->executed) {
    hl_status_t rc = hl_api_execute(st);
    if (rc != HL_OK) return rc;
  }
  hl_error_t err;
  hl_err_init(&err);
  uint64_t target;
  if (batch_rows(st, &target, &err) != HL_OK) return hl_api_take_error(db, NULL, &err);
  int n = st->result.n_cols;
  if (n == 0) {
    /* no columns, no rows: a statement without a result runs to its end */
    hl_status_t rc = HL_OK;
    while (rc == HL_OK && !st->finished)
      rc = hl_api_fetch(st);
    return rc;
  }
  if (st->finished) return HL_OK;
  if (refused_types(n, (const hl_type_t **)st->result.types, (const char **)st->result.names,
                    &err) != HL_OK)
    return hl_api_take_error(db, NULL, &err);
  /* the record batch: a struct of the columns, one builder each */
  ab_t top;
  memset(&top, 0, sizeof top);
  top.kind = AK_STRUCT;
  hl_buf_init(&top.valid);
  hl_buf_init(&top.offs);
  hl_buf_init(&top.data);
  hl_status_t rc = HL_OK;
  if (!(top.children = hl_calloc((size_t)n, sizeof(ab_t)))) rc = hl_err_nomem(&err);
  for (int c = 0; rc == HL_OK && c < n; c++) {
    top.n_children = c + 1;
    if (ab_init(&top.children[c], st->result.types[c], NULL, NULL) != 0) rc = hl_err_nomem(&err);
  }
  if (rc != HL_OK) {
    ab_fini(&top);
    return hl_api_take_error(db, NULL, &err);
  }
  /* whole batches: the rest of the current one, then new ones while the
   * batch is short of its target */
  while (rc == HL_OK) {
    if (!st->batch || st->live_idx >= hl_batch_live(st->batch)) {
      if ((uint64_t)top.length >= target || ab_bytes(&top) >= MAX_BATCH_BYTES) break;
      rc = hl_api_fetch(st); /* records its own error */
      if (rc != HL_OK || !st->batch) break;
      continue;
    }
    hl_batch_t *b = st->batch;
    uint32_t from = st->live_idx, to = hl_batch_live(b);
    for (int c = 0; rc == HL_OK && c < n; c++)
      rc = ab_put_vec(&top.children[c], b, &b->cols[c], from, to, &err);
    if (rc == HL_OK && ab_oom(&top)) rc = hl_err_nomem(&err);
    if (rc != HL_OK) {
      hl_api_abort(st); /* as an error of hl_step ends the statement */
      rc = hl_api_take_error(db, st, &err);
      break;
    }
    top.length += to - from;
    /* consumed: no current row until the next hl_step */
    st->batch = NULL;
    st->live_idx = 0;
  }
  if (rc == HL_OK && top.length > 0 && export_array(&top, out) != 0)
    rc = hl_api_take_error(db, NULL, (hl_err_nomem(&err), &err));
  ab_fini(&top);
  return rc;
}
