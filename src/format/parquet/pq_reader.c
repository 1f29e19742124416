/*
 * pq_reader.c -- the Parquet reader of parquet.h: footer cache, schema
 * resolution against the table, row-group and page skipping, column chunk
 * I/O, and record assembly of nested values.
 *
 * Flow of hl_parquet_reader_next:
 *
 *   start_row_group: statistics vs pushed predicates (skip) -> page index
 *     row ranges -> byte ranges of the projected chunks, coalesced (gap <
 *     1 MiB, group <= 64 MiB) into one read each -> a pq_col_t per leaf
 *   per batch (<= HL_BATCH_CAP rows, never past a row group or a selected
 *     row range): flat columns decode straight into their vector
 *     (pq_col_read_flat); nested columns collect level entries per leaf
 *     (pq_col_read_entries) and assemble() rebuilds hl_value_t trees
 *
 * Page skipping (ColumnIndex/OffsetIndex): the predicate columns' page
 * indexes give, per row group, the row ranges that may match; ranges are
 * intersected over the predicates, and EVERY projected column then skips
 * the same rows (pq_col_skip_rows: whole pages of flat columns are dropped
 * undecoded, others are decoded and dropped), so columns stay aligned on
 * rows and the batch holds only rows of selected ranges.
 *
 * Spec: parquet.thrift, PageIndex.md, README.md (nested encoding),
 * LogicalTypes.md.  Every failure names the file ("cannot read \"PATH\":
 * ..."); offsets and sizes from the file are validated against its size.
 */
#include "format/parquet/pq_codec.h"
#include "format/parquet/pq_column.h"
#include "format/parquet/pq_meta.h"
#include "format/parquet/pq_schema.h"
#include "util/mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define COALESCE_GAP ((uint64_t)1 << 20)  /* merge chunk reads closer than this */
#define COALESCE_MAX ((uint64_t)64 << 20) /* largest merged read */

/* ================================================================= cache */

typedef struct pq_footer pq_footer_t;
struct pq_footer {
  hl_arena_t *arena; /* owns everything below */
  hl_pq_file_meta_t *meta;
  hl_pq_schema_t *schema;
  char *path;
  uint64_t size;
  int64_t mtime_ns;
  int refs;      /* readers using it */
  bool in_cache; /* linked in the cache's LRU list */
  pq_footer_t *prev, *next;
};

struct hl_parquet_cache {
  size_t max_entries;
  size_t n;
  pq_footer_t *head, *tail; /* most recently used first */
};

static void footer_free(pq_footer_t *f) {
  if (!f) return;
  hl_arena_destroy(f->arena);
}

static void footer_release(pq_footer_t *f) {
  if (!f) return;
  if (--f->refs <= 0 && !f->in_cache) footer_free(f);
}

static void lru_unlink(hl_parquet_cache_t *c, pq_footer_t *f) {
  if (f->prev)
    f->prev->next = f->next;
  else
    c->head = f->next;
  if (f->next)
    f->next->prev = f->prev;
  else
    c->tail = f->prev;
  f->prev = f->next = NULL;
  c->n--;
}

static void lru_push(hl_parquet_cache_t *c, pq_footer_t *f) {
  f->prev = NULL;
  f->next = c->head;
  if (c->head) c->head->prev = f;
  c->head = f;
  if (!c->tail) c->tail = f;
  c->n++;
}

hl_parquet_cache_t *hl_parquet_cache_create(size_t max_entries) {
  hl_parquet_cache_t *c = hl_calloc(1, sizeof(*c));
  if (c) c->max_entries = max_entries ? max_entries : 1;
  return c;
}

void hl_parquet_cache_destroy(hl_parquet_cache_t *c) {
  if (!c) return;
  pq_footer_t *f = c->head;
  while (f) {
    pq_footer_t *next = f->next;
    f->in_cache = false;
    if (f->refs <= 0) footer_free(f);
    f = next;
  }
  hl_free(c);
}

static pq_footer_t *cache_get(hl_parquet_cache_t *c, const char *path, const hl_stor_stat_t *st) {
  for (pq_footer_t *f = c->head; f; f = f->next) {
    if (strcmp(f->path, path) != 0) continue;
    if (f->size != st->size || f->mtime_ns != st->mtime_ns) { /* stale */
      lru_unlink(c, f);
      f->in_cache = false;
      if (f->refs <= 0) footer_free(f);
      return NULL;
    }
    lru_unlink(c, f);
    lru_push(c, f);
    return f;
  }
  return NULL;
}

static void cache_put(hl_parquet_cache_t *c, pq_footer_t *f) {
  while (c->n >= c->max_entries && c->tail) {
    pq_footer_t *old = c->tail;
    lru_unlink(c, old);
    old->in_cache = false;
    if (old->refs <= 0) footer_free(old);
  }
  f->in_cache = true;
  lru_push(c, f);
}

/* Loads (or finds) the footer of the open file F. */
static hl_status_t footer_get(hl_stor_t *fs, hl_stor_file_t *f, const char *path,
                              hl_parquet_cache_t *cache, pq_footer_t **out, hl_error_t *err) {
  hl_stor_stat_t st;
  hl_status_t s;
  memset(&st, 0, sizeof st);
  if (cache) {
    if ((s = fs->ops->stat(fs, path, &st, err)) != HL_OK) return s;
    pq_footer_t *hit = cache_get(cache, path, &st);
    if (hit && hit->size == fs->ops->file_size(f)) {
      hit->refs++;
      *out = hit;
      return HL_OK;
    }
  }
  hl_arena_t *arena = hl_arena_create(0);
  pq_footer_t *ft = arena ? hl_arena_zalloc(arena, sizeof(*ft)) : NULL;
  if (!ft) {
    hl_arena_destroy(arena);
    return hl_err_nomem(err);
  }
  ft->arena = arena;
  ft->path = hl_arena_strdup(arena, path);
  if (!ft->path) {
    footer_free(ft);
    return hl_err_nomem(err);
  }
  s = hl_pq_footer_read(f, arena, &ft->meta, &ft->size, err);
  if (s == HL_OK)
    s = hl_pq_schema_build(arena, ft->meta->schema, ft->meta->n_schema, &ft->schema, err);
  if (s != HL_OK) {
    footer_free(ft);
    return s;
  }
  ft->mtime_ns = st.mtime_ns;
  ft->refs = 1;
  if (cache && st.exists && st.size == ft->size) cache_put(cache, ft);
  *out = ft;
  return HL_OK;
}

/* ================================================================= binding */

/* A file node bound to a table type (type NULL: read and discard). */
typedef struct pq_bind pq_bind_t;
struct pq_bind {
  const hl_pq_node_t *node;
  const hl_type_t *type;
  int n_kids;
  pq_bind_t *kids; /* STRUCT: per file child; LIST: element; MAP: key, value */
  int *kid_field;  /* STRUCT: table field index of each file child, or -1 */
  int n_fields;    /* STRUCT: table fields */
};

typedef struct pq_colbind {
  int field; /* top-level field, -1: column reads as NULL */
  const hl_pq_node_t *node;
  bool flat;            /* a primitive top-level field */
  pq_bind_t bind;       /* nested */
  uint32_t trunc_chars; /* flat VARCHAR/CHAR */
} pq_colbind_t;

typedef struct pq_range {
  int64_t start, end; /* rows [start, end) of the row group */
} pq_range_t;

struct hl_parquet_reader {
  hl_stor_t *fs;
  char *path;
  hl_stor_file_t *file;
  uint64_t file_size;
  pq_footer_t *ft;
  hl_arena_t *arena;    /* bindings */
  hl_arena_t *rg_arena; /* per row group: row ranges, page index; reset per group */
  int n_cols;
  pq_colbind_t *cb;
  bool *leaf_used;       /* [n_leaves] */
  uint8_t *leaf_discard; /* [n_leaves] */
  uint32_t *leaf_trunc;  /* [n_leaves] */
  bool *leaf_pad;        /* [n_leaves] CHAR: padded to leaf_trunc */
  const hl_scan_pred_t *preds;
  int n_preds;
  /* current row group */
  int rg; /* next row group to consider */
  bool in_rg;
  int64_t rg_row; /* rows of the current group consumed (read or skipped) */
  int64_t rg_rows;
  pq_range_t *ranges; /* selected row ranges of the group */
  int n_ranges, range_idx;
  pq_col_t **cols; /* [n_leaves], NULL when not read */
  uint8_t **bufs;  /* coalesced read buffers of the group */
  int n_bufs;
  /* assembly */
  hl_value_t *stack;
  size_t stack_n, stack_cap;
  hl_parquet_scan_stats_t stats;
  bool failed;
  /* late materialization (hl_parquet_reader_set_late): columns read by
   * hl_parquet_reader_finish after the caller's filter, and per leaf the
   * rows of dropped batches not yet skipped -- skipped together at the
   * next read, so that runs of dropped batches drop whole pages unread */
  bool *late; /* [n_cols], NULL: none */
  /* hl_parquet_reader_share: read row group i only when
   * (share_base + i) % share_n == share_w */
  size_t share_base;
  int share_n, share_w;
  int cur_rg;         /* index of the row group being read */
  uint64_t *pending;  /* [n_leaves] */
  uint32_t late_rows; /* rows of the batch awaiting finish */
  bool late_due;
};

/* Column I is read late (after the caller's filter). */
static bool is_late(const hl_parquet_reader_t *r, int i) {
  return r->late && r->late[i] && r->cb[i].flat && r->cb[i].field >= 0;
}

static hl_status_t name_err(hl_parquet_reader_t *r, hl_status_t st, hl_error_t *err) {
  if (st != HL_OK && st != HL_NOMEM && err->message &&
      strncmp(err->message, "cannot read \"", 13) != 0)
    hl_err_prefix(err, "cannot read \"%s\"", r->path);
  return st;
}

static int int_rank(hl_type_id_t id) {
  switch (id) {
  case HL_T_TINYINT:
    return 1;
  case HL_T_SMALLINT:
    return 2;
  case HL_T_INT:
    return 3;
  case HL_T_BIGINT:
    return 4;
  default:
    return 0;
  }
}

static bool is_bytes_type(hl_type_id_t id) {
  return id == HL_T_STRING || id == HL_T_VARCHAR || id == HL_T_CHAR || id == HL_T_BINARY;
}

/* Binds file node N (of Hive type FT) to table type TT.  False when the
 * types are incompatible. */
static bool bind_node(hl_arena_t *a, const hl_pq_node_t *n, const hl_type_t *tt, pq_bind_t *b,
                      bool *nomem) {
  const hl_type_t *ft = n->type;
  memset(b, 0, sizeof(*b));
  b->node = n;
  b->type = tt;
  if (tt) {
    if (ft->id != tt->id) {
      bool ok = (int_rank(ft->id) && int_rank(tt->id) && int_rank(tt->id) >= int_rank(ft->id)) ||
                (ft->id == HL_T_FLOAT && tt->id == HL_T_DOUBLE) ||
                (is_bytes_type(ft->id) && is_bytes_type(tt->id) && n->kind == HL_PQ_NODE_PRIMITIVE);
      if (!ok) return false;
    } else if (ft->id == HL_T_DECIMAL) {
      if (ft->scale != tt->scale || tt->precision < ft->precision) return false;
    }
  }
  switch (n->kind) {
  case HL_PQ_NODE_PRIMITIVE:
    return true;
  case HL_PQ_NODE_STRUCT: {
    b->n_kids = n->n_children;
    b->kids = hl_arena_zalloc(a, sizeof(pq_bind_t) * (size_t)(n->n_children ? n->n_children : 1));
    b->kid_field = hl_arena_alloc(a, sizeof(int) * (size_t)(n->n_children ? n->n_children : 1));
    if (!b->kids || !b->kid_field) return !(*nomem = true);
    b->n_fields = tt ? tt->n_children : 0;
    for (int k = 0; k < n->n_children; k++) {
      int j = -1;
      for (int t = 0; tt && t < tt->n_children; t++) {
        if (strcasecmp(tt->field_names[t], n->children[k]->name) == 0) {
          j = t;
          break;
        }
      }
      /* a table field matched by two file fields takes the first */
      for (int k2 = 0; j >= 0 && k2 < k; k2++)
        if (b->kid_field[k2] == j) j = -1;
      b->kid_field[k] = j;
      if (!bind_node(a, n->children[k], j >= 0 ? tt->children[j] : NULL, &b->kids[k], nomem))
        return false;
    }
    return true;
  }
  case HL_PQ_NODE_LIST:
    b->n_kids = 1;
    b->kids = hl_arena_zalloc(a, sizeof(pq_bind_t));
    if (!b->kids) return !(*nomem = true);
    return bind_node(a, n->element, tt ? tt->children[0] : NULL, &b->kids[0], nomem);
  case HL_PQ_NODE_MAP:
    b->n_kids = 2;
    b->kids = hl_arena_zalloc(a, 2 * sizeof(pq_bind_t));
    if (!b->kids) return !(*nomem = true);
    if (!bind_node(a, n->key, tt ? tt->children[0] : NULL, &b->kids[0], nomem)) return false;
    if (n->value && !bind_node(a, n->value, tt ? tt->children[1] : NULL, &b->kids[1], nomem))
      return false;
    return true;
  }
  return false;
}

/* Marks the leaves under B as read; DISCARD when no table value uses them. */
static void mark_leaves(hl_parquet_reader_t *r, const pq_bind_t *b, bool discard) {
  const hl_pq_node_t *n = b->node;
  if (n->kind == HL_PQ_NODE_PRIMITIVE) {
    int li = n->leaf_index;
    r->leaf_used[li] = true;
    r->leaf_discard[li] = discard || !b->type;
    if (b->type && (b->type->id == HL_T_VARCHAR || b->type->id == HL_T_CHAR) && b->type->length > 0)
      r->leaf_trunc[li] = (uint32_t)b->type->length;
    /* Hive's Parquet writer drops CHAR padding; Hive pads again on read */
    r->leaf_pad[li] = b->type && b->type->id == HL_T_CHAR && b->type->length > 0;
    return;
  }
  for (int k = 0; k < b->n_kids; k++) {
    if (!b->kids[k].node) continue;
    mark_leaves(r, &b->kids[k], discard || !b->type);
  }
}

static const char *unsupported_in(const hl_pq_node_t *n) {
  if (n->unsupported) return n->unsupported;
  for (int k = 0; k < n->n_children; k++) {
    const char *u = unsupported_in(n->children[k]);
    if (u) return u;
  }
  return NULL;
}

/* ================================================================= statistics */

static bool is_float_conv(int conv) {
  return conv == HL_PQ_CV_FLOAT || conv == HL_PQ_CV_DOUBLE || conv == HL_PQ_CV_FLOAT16;
}

/* Whether the deprecated min/max (signed, byte-wise order) are valid for
 * a conversion: only for types whose order is signed numeric. */
static bool legacy_ok(int conv) {
  switch (conv) {
  case HL_PQ_CV_BOOLEAN:
  case HL_PQ_CV_INT32:
  case HL_PQ_CV_INT64:
  case HL_PQ_CV_DATE:
  case HL_PQ_CV_TS_MILLIS:
  case HL_PQ_CV_TS_MICROS:
  case HL_PQ_CV_TS_NANOS:
  case HL_PQ_CV_FLOAT:
  case HL_PQ_CV_DOUBLE:
  case HL_PQ_CV_DECIMAL_INT32:
  case HL_PQ_CV_DECIMAL_INT64:
    return true;
  default:
    return false;
  }
}

/* Bounds of leaf LI from BYTES, per the column order rules, for the values
 * as read: none for a CHAR column (read padded, compared ignoring trailing
 * blanks, while the file orders its values byte-wise with or without the
 * padding); a VARCHAR's minimum cut as its values are (a cut keeps the
 * order, so the cut minimum bounds the cut values). */
static bool decode_bounds(const hl_parquet_reader_t *r, int li, const hl_pq_meta_bytes_t *bmin,
                          const hl_pq_meta_bytes_t *bmax, hl_value_t *mn, hl_value_t *mx) {
  if (r->leaf_pad[li]) return false;
  const hl_pq_leaf_t *leaf = &r->ft->schema->leaves[li];
  const hl_pq_schema_elem_t *e = leaf->node->elem;
  int conv = leaf->node->conv;
  if (!pq_stat_value(e->type, e->type_length, conv, bmin->ptr, bmin->len, mn)) return false;
  if (!pq_stat_value(e->type, e->type_length, conv, bmax->ptr, bmax->len, mx)) return false;
  if (r->leaf_trunc[li] && (conv == HL_PQ_CV_STRING || conv == HL_PQ_CV_BINARY))
    mn->u.s.len = pq_utf8_prefix(mn->u.s.ptr, mn->u.s.len, r->leaf_trunc[li]);
  if (is_float_conv(conv)) {
    if (isnan(mn->u.d) || isnan(mx->u.d)) return false;
    if (mn->u.d == 0) mn->u.d = -0.0; /* +0 min may hide -0 and vice versa */
    if (mx->u.d == 0) mx->u.d = 0.0;
  }
  return true;
}

/* Which bounds of a column chunk's Statistics may be used. */
static bool chunk_bounds(const hl_parquet_reader_t *r, int li, const hl_pq_stats_t *s,
                         hl_value_t *mn, hl_value_t *mx) {
  const hl_pq_file_meta_t *m = r->ft->meta;
  int conv = r->ft->schema->leaves[li].node->conv;
  bool typed = m->n_column_orders > li &&
               (m->column_orders[li] == HL_PQ_ORDER_TYPE_DEFINED ||
                (m->column_orders[li] == HL_PQ_ORDER_IEEE_754_TOTAL && is_float_conv(conv)));
  if (typed && s->has_min_value && s->has_max_value &&
      decode_bounds(r, li, &s->min_value, &s->max_value, mn, mx))
    return true;
  if (legacy_ok(conv) && s->has_min && s->has_max && decode_bounds(r, li, &s->min, &s->max, mn, mx))
    return true;
  return false;
}

static bool rg_excluded(hl_parquet_reader_t *r, const hl_pq_row_group_t *rg) {
  for (int i = 0; i < r->n_preds; i++) {
    const hl_scan_pred_t *p = &r->preds[i];
    if (p->col < 0 || p->col >= r->n_cols) continue;
    const pq_colbind_t *cb = &r->cb[p->col];
    if (cb->field < 0 || !cb->flat) continue;
    int li = cb->node->leaf_index;
    if (li < 0 || li >= rg->n_columns) continue;
    const hl_pq_column_meta_t *cm = rg->columns[li].meta_data;
    if (!cm || !cm->statistics) continue;
    const hl_pq_stats_t *s = cm->statistics;
    hl_value_t mn, mx;
    bool has = chunk_bounds(r, li, s, &mn, &mx);
    int conv = cb->node->conv;
    bool may_nan = !(s->has_nan_count && s->nan_count == 0);
    if (hl_scan_pred_excludes(p, r->cb[p->col].node->type, has, &mn, &mx,
                              s->has_null_count ? s->null_count : -1, cm->num_values,
                              is_float_conv(conv), may_nan))
      return true;
  }
  return false;
}

/* ============================================================ chunk metadata */

/* Row group RG's answer for column I (chunk_meta.h); false: none. */
static bool rg_meta(const hl_parquet_reader_t *r, const hl_pq_row_group_t *rg, int i, bool values,
                    hl_chunk_meta_t *out) {
  const pq_colbind_t *cb = &r->cb[i];
  memset(out, 0, sizeof *out);
  if (rg->num_rows < 0) return false;
  if (cb->field < 0) { /* the file lacks the column: NULL */
    out->nulls = rg->num_rows;
    return true;
  }
  if (!cb->flat) return false; /* a nested leaf's null count is not the column's */
  int li = cb->node->leaf_index;
  if (li < 0 || li >= rg->n_columns || r->leaf_trunc[li] || r->leaf_pad[li]) return false;
  const hl_pq_column_meta_t *cm = rg->columns[li].meta_data;
  if (!cm || !cm->statistics || cm->num_values != rg->num_rows) return false;
  const hl_pq_stats_t *st = cm->statistics;
  if (!st->has_null_count || st->null_count < 0 || st->null_count > rg->num_rows) return false;
  out->nulls = st->null_count;
  out->values = rg->num_rows - st->null_count;
  if (!out->values || !values) return true;
  hl_value_t mn, mx;
  if (!chunk_bounds(r, li, st, &mn, &mx)) return false;
  if (is_float_conv(cb->node->conv) && !(st->has_nan_count && st->nan_count == 0)) return false;
  if (hl_value_compare(cb->bind.type, &mn, &mx) != 0) return false; /* -0.0 and 0.0 are one value */
  out->value = mn;
  out->value.is_null = false;
  return true;
}

bool hl_parquet_reader_meta(const hl_parquet_reader_t *r, int col, bool values,
                            hl_chunk_meta_t *out) {
  /* a column already skipped (unbound, its node kept) is not asked twice;
   * COL must be projected: an unprojected one would read as all NULL */
  if (col < 0 || col >= r->n_cols || (r->cb[col].field < 0 && r->cb[col].node)) return false;
  const hl_pq_file_meta_t *m = r->ft->meta;
  for (int g = 0; g < m->n_row_groups; g++)
    if (!rg_meta(r, &m->row_groups[g], col, values, &out[g])) return false;
  return true;
}

void hl_parquet_reader_skip(hl_parquet_reader_t *r, int col) {
  pq_colbind_t *cb = &r->cb[col];
  if (cb->field >= 0 && cb->flat) r->leaf_used[cb->node->leaf_index] = false;
  cb->field = -1;
}

/* ================================================================= page index */

static hl_status_t read_span(hl_parquet_reader_t *r, int64_t off, int64_t len, hl_arena_t *a,
                             uint8_t **out, hl_error_t *err) {
  if (off < 0 || len <= 0 || (uint64_t)off > r->file_size ||
      (uint64_t)len > r->file_size - (uint64_t)off)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "page index outside the file");
  uint8_t *buf = hl_arena_alloc(a, (size_t)len);
  if (!buf) return hl_err_nomem(err);
  size_t got = 0;
  hl_status_t st = r->fs->ops->read_at(r->file, (uint64_t)off, buf, (size_t)len, &got, err);
  if (st != HL_OK) return st;
  if (got != (size_t)len)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "file is truncated");
  *out = buf;
  return HL_OK;
}

/* Intersects r->ranges with the pages of leaf LI that may satisfy P. */
static hl_status_t apply_page_index(hl_parquet_reader_t *r, const hl_pq_row_group_t *rg,
                                    const hl_scan_pred_t *p, int li, hl_arena_t *a,
                                    hl_error_t *err) {
  const hl_pq_column_chunk_t *cc = &rg->columns[li];
  if (!cc->has_column_index_offset || !cc->has_column_index_length ||
      !cc->has_offset_index_offset || !cc->has_offset_index_length)
    return HL_OK;
  uint8_t *cib, *oib;
  hl_pq_column_index_t *ci;
  hl_pq_offset_index_t *oi;
  hl_status_t st = read_span(r, cc->column_index_offset, cc->column_index_length, a, &cib, err);
  if (st == HL_OK)
    st = hl_pq_column_index_decode(a, cib, (size_t)cc->column_index_length, &ci, err);
  if (st == HL_OK)
    st = read_span(r, cc->offset_index_offset, cc->offset_index_length, a, &oib, err);
  if (st == HL_OK)
    st = hl_pq_offset_index_decode(a, oib, (size_t)cc->offset_index_length, &oi, err);
  if (st != HL_OK) return st;
  if (ci->n_pages != oi->n_pages || oi->n_pages == 0) return HL_OK; /* unusable: read everything */
  const hl_pq_file_meta_t *m = r->ft->meta;
  int conv = r->ft->schema->leaves[li].node->conv;
  bool typed = m->n_column_orders > li &&
               (m->column_orders[li] == HL_PQ_ORDER_TYPE_DEFINED ||
                (m->column_orders[li] == HL_PQ_ORDER_IEEE_754_TOTAL && is_float_conv(conv)));
  if (!typed) return HL_OK;
  /* keep[] ranges of pages that may match */
  pq_range_t *keep = hl_arena_alloc(a, sizeof(pq_range_t) * (size_t)oi->n_pages);
  if (!keep) return hl_err_nomem(err);
  int n_keep = 0;
  for (int pg = 0; pg < oi->n_pages; pg++) {
    int64_t first = oi->page_locations[pg].first_row_index;
    int64_t end = pg + 1 < oi->n_pages ? oi->page_locations[pg + 1].first_row_index : r->rg_rows;
    if (first < 0 || end < first || end > r->rg_rows || (pg == 0 && first != 0)) return HL_OK;
    hl_value_t mn, mx;
    bool has = !ci->null_pages[pg] &&
               decode_bounds(r, li, &ci->min_values[pg], &ci->max_values[pg], &mn, &mx);
    int64_t nulls = ci->has_null_counts ? ci->null_counts[pg] : -1;
    int64_t rows = end - first;
    if (ci->null_pages[pg]) nulls = rows;
    if (hl_scan_pred_excludes(p, r->cb[p->col].node->type, has, &mn, &mx, nulls, rows,
                              is_float_conv(conv), true))
      continue;
    if (n_keep && keep[n_keep - 1].end == first)
      keep[n_keep - 1].end = end;
    else
      keep[n_keep++] = (pq_range_t){first, end};
  }
  /* intersect */
  pq_range_t *out = hl_arena_alloc(a, sizeof(pq_range_t) * (size_t)(r->n_ranges + n_keep + 1));
  if (!out) return hl_err_nomem(err);
  int n_out = 0, i = 0, j = 0;
  while (i < r->n_ranges && j < n_keep) {
    int64_t s = r->ranges[i].start > keep[j].start ? r->ranges[i].start : keep[j].start;
    int64_t e = r->ranges[i].end < keep[j].end ? r->ranges[i].end : keep[j].end;
    if (s < e) out[n_out++] = (pq_range_t){s, e};
    if (r->ranges[i].end < keep[j].end)
      i++;
    else
      j++;
  }
  r->ranges = out;
  r->n_ranges = n_out;
  return HL_OK;
}

/* ================================================================= row groups */

static void end_row_group(hl_parquet_reader_t *r) {
  int n_leaves = r->ft->schema->n_leaves;
  for (int i = 0; r->cols && i < n_leaves; i++) {
    if (r->cols[i]) r->stats.pages_skipped += (size_t)pq_col_pages_skipped(r->cols[i]);
    pq_col_destroy(r->cols[i]);
    r->cols[i] = NULL;
  }
  for (int i = 0; i < r->n_bufs; i++)
    hl_free(r->bufs[i]);
  r->n_bufs = 0;
  r->in_rg = false;
  hl_arena_reset(r->rg_arena);
}

typedef struct pq_span {
  int leaf;
  uint64_t start, end;
} pq_span_t;

static int span_cmp(const void *a, const void *b) {
  const pq_span_t *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static hl_status_t corrupt(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "%s", what);
}

/* Opens the chunks of the used leaves in row group G. */
static hl_status_t open_row_group(hl_parquet_reader_t *r, const hl_pq_row_group_t *rg,
                                  hl_arena_t *tmp, hl_error_t *err) {
  const hl_pq_schema_t *sc = r->ft->schema;
  pq_span_t *spans = hl_arena_alloc(tmp, sizeof(pq_span_t) * (size_t)(sc->n_leaves + 1));
  if (!spans) return hl_err_nomem(err);
  int n = 0;
  for (int li = 0; li < sc->n_leaves; li++) {
    if (!r->leaf_used[li]) continue;
    const hl_pq_column_meta_t *cm = rg->columns[li].meta_data;
    if (!cm) return corrupt(err, "column chunk without metadata");
    /* the shared rule: dictionary offset 0 ignored, PARQUET-816 padding */
    uint64_t start, len;
    hl_status_t st = hl_pq_column_chunk_range(r->ft->meta, cm, r->file_size, &start, &len, err);
    if (st != HL_OK) return st;
    spans[n++] = (pq_span_t){li, start, start + len};
  }
  qsort(spans, (size_t)n, sizeof(pq_span_t), span_cmp);
  /* the spans grouped into reads: group g is spans [first[g], first[g+1])
   * read as [gs[g], ge[g]) */
  int *first = hl_arena_alloc(tmp, sizeof(int) * (size_t)(n + 1));
  uint64_t *gs_of = hl_arena_alloc(tmp, sizeof(uint64_t) * 2 * (size_t)(n + 1));
  if (!first || !gs_of) return hl_err_nomem(err);
  uint64_t *glen = gs_of + n + 1;
  int n_groups = 0;
  for (int i = 0; i < n;) {
    uint64_t gs = spans[i].start, ge = spans[i].end;
    int j = i + 1;
    while (j < n && spans[j].start <= ge + COALESCE_GAP &&
           (spans[j].end > ge ? spans[j].end : ge) - gs <= COALESCE_MAX) {
      if (spans[j].end > ge) ge = spans[j].end;
      j++;
    }
    first[n_groups] = i;
    gs_of[n_groups] = gs;
    glen[n_groups++] = ge - gs;
    i = j;
  }
  first[n_groups] = n;
  /* an object store fetches the groups read whole at once, in parallel
   * (stor.h prefetch); the reads below are then served from memory */
  if (r->file->fs->ops->prefetch && n_groups > 1) {
    uint64_t *offs = hl_arena_alloc(tmp, sizeof(uint64_t) * 2 * (size_t)n_groups);
    if (!offs) return hl_err_nomem(err);
    uint64_t *lens = offs + n_groups;
    size_t m = 0;
    for (int g = 0; g < n_groups; g++)
      if (glen[g] <= COALESCE_MAX && glen[g] > 0) {
        offs[m] = gs_of[g];
        lens[m++] = glen[g];
      }
    hl_status_t st = m > 1 ? r->file->fs->ops->prefetch(r->file, offs, lens, m, err) : HL_OK;
    if (st != HL_OK) return st;
  }
  for (int g = 0; g < n_groups; g++) {
    int i = first[g], j = first[g + 1];
    uint64_t gs = gs_of[g], ge = gs_of[g] + glen[g];
    const uint8_t *win = NULL;
    if (ge - gs <= COALESCE_MAX && ge > gs) {
      uint8_t *buf = hl_malloc((size_t)(ge - gs));
      if (!buf) return hl_err_nomem(err);
      r->bufs[r->n_bufs++] = buf;
      size_t got = 0;
      hl_status_t st = r->fs->ops->read_at(r->file, gs, buf, (size_t)(ge - gs), &got, err);
      if (st != HL_OK) return st;
      if (got != ge - gs) return corrupt(err, "file is truncated");
      win = buf;
    }
    for (int k = i; k < j; k++) {
      int li = spans[k].leaf;
      const hl_pq_leaf_t *leaf = &sc->leaves[li];
      const hl_pq_column_meta_t *cm = rg->columns[li].meta_data;
      if (leaf->node->unsupported)
        return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED), "column \"%s\": %s",
                          leaf->path_str, leaf->node->unsupported);
      pq_col_spec_t spec = {
          .path = r->path,
          .col_name = leaf->path_str,
          .file = r->file,
          .phys = leaf->node->elem->type,
          .type_length = leaf->node->elem->type_length,
          .conv = leaf->node->conv,
          .max_def = leaf->max_def,
          .max_rep = leaf->max_rep,
          .discard = r->leaf_discard[li],
          .trunc_chars = r->leaf_trunc[li],
          .pad_chars = r->leaf_pad[li],
          .codec = cm->codec,
          .chunk_start = spans[k].start,
          .chunk_end = spans[k].end,
          .file_size = r->file_size,
          .num_values = cm->num_values,
      };
      hl_status_t st =
          pq_col_create(&spec, win, gs, win ? (size_t)(ge - gs) : 0, &r->cols[li], err);
      if (st != HL_OK) return st;
    }
  }
  return HL_OK;
}

/* Moves to the next row group that statistics do not exclude.  *MORE false
 * at the end of the file. */
static hl_status_t start_row_group(hl_parquet_reader_t *r, bool *more, hl_error_t *err) {
  const hl_pq_file_meta_t *m = r->ft->meta;
  hl_status_t st = HL_OK;
  *more = false;
  while (r->rg < m->n_row_groups) {
    int idx = r->rg;
    const hl_pq_row_group_t *rg = &m->row_groups[r->rg++];
    if (r->share_n > 1 && (r->share_base + (size_t)idx) % (size_t)r->share_n != (size_t)r->share_w)
      continue; /* another thread's */
    if ((st = hl_pq_schema_check_row_group(r->ft->schema, rg, err)) != HL_OK) return st;
    if (rg->num_rows < 0) return corrupt(err, "negative row count in a row group");
    if (rg->num_rows == 0) continue;
    if (rg_excluded(r, rg)) continue;
    r->rg_rows = rg->num_rows;
    r->rg_row = 0;
    r->cur_rg = idx;
    memset(r->pending, 0, sizeof(uint64_t) * (size_t)(r->ft->schema->n_leaves));
    /* row ranges: everything, narrowed by the page index */
    hl_arena_t *a = hl_arena_create(0);
    if (!a) return hl_err_nomem(err);
    /* the ranges live until the next row group */
    r->ranges = hl_arena_alloc(r->rg_arena, sizeof(pq_range_t));
    if (!r->ranges) {
      hl_arena_destroy(a);
      return hl_err_nomem(err);
    }
    r->ranges[0] = (pq_range_t){0, rg->num_rows};
    r->n_ranges = 1;
    r->range_idx = 0;
    for (int i = 0; i < r->n_preds && st == HL_OK; i++) {
      const hl_scan_pred_t *p = &r->preds[i];
      if (p->col < 0 || p->col >= r->n_cols || r->cb[p->col].field < 0 || !r->cb[p->col].flat)
        continue;
      st = apply_page_index(r, rg, p, r->cb[p->col].node->leaf_index, a, err);
    }
    if (st == HL_OK && r->n_ranges > 0) {
      pq_range_t *keep = hl_arena_alloc(r->rg_arena, sizeof(pq_range_t) * (size_t)r->n_ranges);
      if (!keep)
        st = hl_err_nomem(err);
      else {
        memcpy(keep, r->ranges, sizeof(pq_range_t) * (size_t)r->n_ranges);
        r->ranges = keep;
      }
    }
    hl_arena_destroy(a);
    if (st != HL_OK) return st;
    if (r->n_ranges == 0) continue; /* every page excluded */
    r->stats.row_groups_read++;
    st = open_row_group(r, rg, r->rg_arena, err);
    r->in_rg = true;
    if (st != HL_OK) return st;
    *more = true;
    return HL_OK;
  }
  return HL_OK;
}

/* ================================================================= assembly */

static hl_status_t push(hl_parquet_reader_t *r, const hl_value_t *v, hl_error_t *err) {
  if (r->stack_n == r->stack_cap) {
    size_t ncap = r->stack_cap ? r->stack_cap * 2 : 1024;
    hl_value_t *ns = hl_realloc(r->stack, ncap * sizeof(hl_value_t));
    if (!ns) return hl_err_nomem(err);
    r->stack = ns;
    r->stack_cap = ncap;
  }
  r->stack[r->stack_n++] = *v;
  return HL_OK;
}

static hl_status_t desync(hl_error_t *err) {
  return corrupt(err, "nested column levels are inconsistent");
}

/* Consumes one level slot of every leaf under N (the value is absent at or
 * above N). */
static hl_status_t skip_slot(hl_parquet_reader_t *r, const hl_pq_node_t *n, hl_error_t *err) {
  for (int li = n->first_leaf; li < n->first_leaf + n->n_leaves; li++) {
    pq_entries_t *e = pq_col_entries(r->cols[li]);
    if (e->cur >= e->n) return desync(err);
    e->cur++;
  }
  return HL_OK;
}

static hl_status_t peek(hl_parquet_reader_t *r, const hl_pq_node_t *n, int16_t *def, int16_t *rep,
                        hl_error_t *err) {
  if (n->n_leaves <= 0) return desync(err);
  pq_entries_t *e = pq_col_entries(r->cols[n->first_leaf]);
  if (e->cur >= e->n) return desync(err);
  *def = e->def[e->cur];
  if (rep) *rep = e->rep[e->cur];
  return HL_OK;
}

/* Assembles the value of B's node at the leaves' cursors into *OUT (B's
 * type NULL: consumed and dropped). */
static hl_status_t assemble(hl_parquet_reader_t *r, const pq_bind_t *b, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  const hl_pq_node_t *n = b->node;
  hl_status_t st;
  int16_t def = 0; /* set by peek(); gcc -O2 cannot see that desync() never returns HL_OK */
  out->is_null = true;
  if (n->kind == HL_PQ_NODE_PRIMITIVE) {
    pq_entries_t *e = pq_col_entries(r->cols[n->leaf_index]);
    if (e->cur >= e->n) return desync(err);
    if (e->def[e->cur] >= n->max_def && b->type) *out = e->val[e->cur];
    e->cur++;
    return HL_OK;
  }
  if ((st = peek(r, n, &def, NULL, err)) != HL_OK) return st;
  /* a bare repeated field (no LIST wrapper) is never NULL, only empty */
  int16_t present = n->max_def;
  if (n->elem && n->elem->has_repetition && n->elem->repetition == HL_PQ_REPEATED) present--;
  if (def < present) return skip_slot(r, n, err);
  switch (n->kind) {
  case HL_PQ_NODE_STRUCT: {
    hl_value_t *items = NULL;
    if (b->type) {
      items = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(b->n_fields ? b->n_fields : 1));
      if (!items) return hl_err_nomem(err);
      for (int j = 0; j < b->n_fields; j++)
        items[j].is_null = true;
    }
    for (int k = 0; k < b->n_kids; k++) {
      hl_value_t v;
      if ((st = assemble(r, &b->kids[k], &v, arena, err)) != HL_OK) return st;
      if (items && b->kid_field[k] >= 0) items[b->kid_field[k]] = v;
    }
    if (b->type) {
      out->is_null = false;
      out->u.list.n = (uint32_t)b->n_fields;
      out->u.list.items = items;
    }
    return HL_OK;
  }
  case HL_PQ_NODE_LIST:
  case HL_PQ_NODE_MAP: {
    const hl_pq_node_t *rn = n->repeated;
    size_t base = r->stack_n;
    uint32_t count = 0;
    if (def < rn->max_def) {
      if ((st = skip_slot(r, n, err)) != HL_OK) return st;
    } else {
      for (;;) {
        if (n->kind == HL_PQ_NODE_LIST) {
          hl_value_t v;
          if ((st = assemble(r, &b->kids[0], &v, arena, err)) != HL_OK) return st;
          if (b->type && (st = push(r, &v, err)) != HL_OK) return st;
        } else {
          hl_value_t k, v;
          v.is_null = true;
          if ((st = assemble(r, &b->kids[0], &k, arena, err)) != HL_OK) return st;
          if (n->value && (st = assemble(r, &b->kids[1], &v, arena, err)) != HL_OK) return st;
          if (b->type && ((st = push(r, &k, err)) != HL_OK || (st = push(r, &v, err)) != HL_OK))
            return st;
        }
        count++;
        pq_entries_t *e = pq_col_entries(r->cols[n->first_leaf]);
        if (e->cur >= e->n || e->rep[e->cur] != rn->max_rep) break;
      }
    }
    if (!b->type) return HL_OK;
    size_t n_items = r->stack_n - base;
    hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (n_items ? n_items : 1));
    if (!items) return hl_err_nomem(err);
    if (n_items) memcpy(items, r->stack + base, n_items * sizeof(hl_value_t));
    r->stack_n = base;
    out->is_null = false;
    out->u.list.n = count;
    out->u.list.items = items;
    return HL_OK;
  }
  default:
    return desync(err);
  }
}

static hl_status_t read_nested(hl_parquet_reader_t *r, const pq_colbind_t *cb, uint32_t n_rows,
                               hl_vec_t *vec, hl_arena_t *arena, hl_error_t *err) {
  const hl_pq_node_t *n = cb->node;
  hl_status_t st;
  for (int li = n->first_leaf; li < n->first_leaf + n->n_leaves; li++) {
    pq_entries_t *e = pq_col_entries(r->cols[li]);
    e->n = e->cur = 0;
    if ((st = pq_col_read_entries(r->cols[li], n_rows, arena, err)) != HL_OK) return st;
  }
  hl_value_t **dst = HL_VEC_VALUE(vec);
  for (uint32_t row = 0; row < n_rows; row++) {
    hl_value_t v;
    r->stack_n = 0;
    if ((st = assemble(r, &cb->bind, &v, arena, err)) != HL_OK) return st;
    if (v.is_null) {
      if (hl_vec_set_null(vec, arena, row) != HL_OK) return hl_err_nomem(err);
      dst[row] = NULL;
      continue;
    }
    hl_value_t *p = hl_arena_alloc(arena, sizeof(*p));
    if (!p) return hl_err_nomem(err);
    *p = v;
    dst[row] = p;
  }
  for (int li = n->first_leaf; li < n->first_leaf + n->n_leaves; li++) {
    pq_entries_t *e = pq_col_entries(r->cols[li]);
    if (e->cur != e->n) return desync(err);
  }
  return HL_OK;
}

/* ================================================================= API */

hl_status_t hl_parquet_reader_open(hl_stor_t *fs, const char *path, int n_cols,
                                   const hl_type_t *const *types, const char *const *names,
                                   const bool *projected, const hl_scan_pred_t *preds, int n_preds,
                                   hl_parquet_cache_t *cache, hl_parquet_reader_t **out,
                                   hl_error_t *err) {
  hl_status_t st;
  *out = NULL;
  hl_parquet_reader_t *r = hl_calloc(1, sizeof(*r));
  if (!r) return hl_err_nomem(err);
  r->fs = fs;
  r->arena = hl_arena_create(0);
  r->rg_arena = hl_arena_create(0);
  if (!r->arena || !r->rg_arena || !(r->path = hl_arena_strdup(r->arena, path))) {
    hl_parquet_reader_close(r);
    return hl_err_nomem(err);
  }
  r->n_cols = n_cols;
  r->preds = preds;
  r->n_preds = preds ? n_preds : 0;
  if ((st = fs->ops->open_read(fs, path, &r->file, err)) != HL_OK) goto fail;
  r->file_size = fs->ops->file_size(r->file);
  if ((st = footer_get(fs, r->file, path, cache, &r->ft, err)) != HL_OK) goto fail;
  const hl_pq_schema_t *sc = r->ft->schema;
  size_t nl = (size_t)(sc->n_leaves ? sc->n_leaves : 1);
  r->cb = hl_arena_zalloc(r->arena, sizeof(pq_colbind_t) * (size_t)(n_cols ? n_cols : 1));
  r->leaf_used = hl_arena_zalloc(r->arena, nl * sizeof(bool));
  r->leaf_discard = hl_arena_zalloc(r->arena, nl);
  r->leaf_trunc = hl_arena_zalloc(r->arena, nl * sizeof(uint32_t));
  r->leaf_pad = hl_arena_zalloc(r->arena, nl * sizeof(bool));
  r->pending = hl_arena_zalloc(r->arena, nl * sizeof(uint64_t));
  r->cols = hl_calloc(nl, sizeof(pq_col_t *));
  r->bufs = hl_calloc(nl, sizeof(uint8_t *));
  if (!r->bufs || !r->cb || !r->leaf_used || !r->leaf_discard || !r->leaf_trunc || !r->leaf_pad ||
      !r->cols || !r->pending) {
    st = hl_err_nomem(err);
    goto fail;
  }
  r->stats.row_groups_total = (size_t)r->ft->meta->n_row_groups;
  for (int i = 0; i < n_cols; i++) {
    pq_colbind_t *cb = &r->cb[i];
    cb->field = -1;
    if (projected && !projected[i]) continue;
    int fi = hl_pq_schema_find_field(sc, names[i]);
    if (fi < 0) continue;
    const hl_pq_node_t *node = hl_pq_schema_field(sc, fi, NULL, NULL, NULL);
    bool nomem = false;
    cb->field = fi;
    cb->node = node;
    cb->flat = node->kind == HL_PQ_NODE_PRIMITIVE;
    if (!bind_node(r->arena, node, types[i], &cb->bind, &nomem)) {
      if (nomem) {
        st = hl_err_nomem(err);
        goto fail;
      }
      char *ft = hl_type_to_string(r->arena, node->type);
      char *tt = hl_type_to_string(r->arena, types[i]);
      st = hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "cannot read \"%s\": column \"%s\" has type %s in the file, which cannot be "
                      "read as %s",
                      path, names[i], ft ? ft : "?", tt ? tt : "?");
      goto fail;
    }
    const char *u = unsupported_in(node);
    if (u) {
      st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": column \"%s\": %s", path, names[i], u);
      goto fail;
    }
    mark_leaves(r, &cb->bind, false);
  }
  *out = r;
  return HL_OK;
fail:
  name_err(r, st, err);
  hl_parquet_reader_close(r);
  return st;
}

hl_status_t hl_parquet_reader_next(hl_parquet_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  hl_status_t st = HL_OK;
  batch->n_rows = 0;
  if (r->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "reader used after an error");
  /* a batch not finished was dropped */
  if (r->late_due && (st = hl_parquet_reader_finish(r, batch, false, err)) != HL_OK) return st;
  for (;;) {
    if (!r->in_rg || r->range_idx >= r->n_ranges) {
      if (r->in_rg) end_row_group(r);
      bool more;
      if ((st = start_row_group(r, &more, err)) != HL_OK) goto fail;
      if (!more) return HL_OK;
    }
    pq_range_t *rg = &r->ranges[r->range_idx];
    if (rg->end <= r->rg_row) {
      r->range_idx++;
      continue;
    }
    if (rg->start < 0 || rg->end > r->rg_rows) {
      st = corrupt(err, "bad page index row ranges");
      goto fail;
    }
    if (r->rg_row < rg->start) { /* rows outside the selected ranges */
      uint64_t skip = (uint64_t)(rg->start - r->rg_row);
      for (int li = 0; li < r->ft->schema->n_leaves; li++)
        if (r->cols[li] &&
            (st = pq_col_skip_rows(r->cols[li], skip + r->pending[li], err)) != HL_OK)
          goto fail;
      memset(r->pending, 0, sizeof(uint64_t) * (size_t)(r->ft->schema->n_leaves));
      r->rg_row = rg->start;
    }
    int64_t left = rg->end - r->rg_row;
    uint32_t want = left < HL_BATCH_CAP ? (uint32_t)left : HL_BATCH_CAP;
    for (int i = 0; i < r->n_cols; i++) {
      const pq_colbind_t *cb = &r->cb[i];
      hl_vec_t *v = &batch->cols[i];
      if (is_late(r, i)) continue; /* hl_parquet_reader_finish */
      if (cb->field < 0)
        st = hl_vec_set_all_null(v, batch->arena) == HL_OK ? HL_OK : hl_err_nomem(err);
      else if (cb->flat)
        st = pq_col_read_flat(r->cols[cb->node->leaf_index], want, v, 0, batch->arena, err);
      else
        st = read_nested(r, cb, want, v, batch->arena, err);
      if (st != HL_OK) goto fail;
    }
    r->rg_row += want;
    batch->n_rows = want;
    r->late_rows = want;
    r->late_due = r->late != NULL;
    return HL_OK;
  }
fail:
  r->failed = true;
  return name_err(r, st, err);
}

int hl_parquet_reader_row_groups(const hl_parquet_reader_t *r) {
  return r->ft->meta->n_row_groups;
}

void hl_parquet_reader_share(hl_parquet_reader_t *r, size_t base, int n, int w) {
  r->share_base = base;
  r->share_n = n;
  r->share_w = w;
  int total = 0; /* this share's row groups, so that the threads' counts add up */
  for (int i = 0; i < r->ft->meta->n_row_groups; i++)
    total += (base + (size_t)i) % (size_t)n == (size_t)w;
  r->stats.row_groups_total = (size_t)total;
}

int hl_parquet_reader_current_row_group(const hl_parquet_reader_t *r) {
  return r->cur_rg;
}

void hl_parquet_reader_set_late(hl_parquet_reader_t *r, const bool *late) {
  r->late = NULL;
  for (int i = 0; late && i < r->n_cols; i++)
    if (late[i] && r->cb[i].flat && r->cb[i].field >= 0) r->late = (bool *)late;
}

hl_status_t hl_parquet_reader_finish(hl_parquet_reader_t *r, hl_batch_t *batch, bool keep,
                                     hl_error_t *err) {
  if (!r->late_due) return HL_OK;
  r->late_due = false;
  hl_status_t st = HL_OK;
  for (int i = 0; i < r->n_cols && st == HL_OK; i++) {
    if (!is_late(r, i)) continue;
    int li = r->cb[i].node->leaf_index;
    if (!keep) {
      r->pending[li] += r->late_rows;
      continue;
    }
    if (r->pending[li]) st = pq_col_skip_rows(r->cols[li], r->pending[li], err);
    r->pending[li] = 0;
    if (st == HL_OK)
      st = pq_col_read_flat(r->cols[li], r->late_rows, &batch->cols[i], 0, batch->arena, err);
  }
  if (st == HL_OK) return HL_OK;
  r->failed = true;
  return name_err(r, st, err);
}

const hl_parquet_scan_stats_t *hl_parquet_reader_stats(const hl_parquet_reader_t *r) {
  return &r->stats;
}

void hl_parquet_reader_close(hl_parquet_reader_t *r) {
  if (!r) return;
  if (r->ft && r->cols) end_row_group(r);
  hl_free(r->cols);
  hl_free(r->bufs);
  hl_free(r->stack);
  if (r->file) {
    hl_error_t e;
    hl_err_init(&e);
    r->fs->ops->close(r->file, &e);
    hl_err_clear(&e);
  }
  if (r->ft) footer_release(r->ft);
  hl_arena_destroy(r->rg_arena);
  hl_arena_destroy(r->arena);
  hl_free(r);
}
