/*
 * pq_writer.c -- vectors to Parquet row groups, pages and footer
 * (hl_parquet_writer_* and hl_parquet_write_options_init of parquet.h).
 *
 * Layout written (README "File format" of apache/parquet-format):
 *
 *   "PAR1"
 *   row group 0: column chunk 0: [dictionary page] data page ... ; chunk 1 ...
 *   row group 1 ...
 *   ColumnIndex of every chunk (row group order), then every OffsetIndex
 *   FileMetaData (Thrift compact), its 4-byte little-endian length, "PAR1"
 *
 * Flow: hl_parquet_writer_write shreds each live row into every leaf column
 * (Dremel repetition/definition levels, shred()) and appends the value to
 * the leaf's pending page, either as a dictionary index or PLAIN bytes.  A
 * pending page is encoded and compressed (flush_page) once its estimated
 * size reaches page_bytes or it holds PAGE_ROW_LIMIT rows; pages always end
 * on a row boundary so the OffsetIndex's first_row_index is exact.  Encoded
 * pages of a row group stay in memory per column (as in every Parquet
 * writer) until the row group's estimated encoded size reaches
 * row_group_bytes; flush_row_group then writes each chunk (its dictionary
 * page first) and keeps what the footer needs of it as the bytes the
 * footer will hold: the ColumnChunk up to its page-index fields, the
 * RowGroup's fields after its columns, the ColumnIndex and OffsetIndex
 * (pq_meta.h, "FileMetaData in pieces").  So a flushed row group costs
 * its encoded metadata (tens of bytes a chunk, a few a page), not the
 * structures, and write_footer concatenates the pieces, adding only the
 * page-index locations, into the bytes hl_pq_file_meta_encode would give.
 *
 * Pages are data page v1 (widest reader support), levels RLE, values
 * RLE_DICTIONARY with a PLAIN dictionary page, or PLAIN once the chunk's
 * dictionary would pass dictionary_bytes: then the pending page is
 * re-encoded PLAIN and the rest of the chunk is PLAIN, while pages already
 * written keep referring to the dictionary (parquet-mr's fallback).
 *
 * Statistics (min_value/max_value in the column's type-defined order,
 * null_count) are kept per page (ColumnIndex, PageIndex.md) and per chunk
 * (ColumnMetaData.statistics); page headers carry none, as PageIndex.md
 * recommends when a ColumnIndex is written.  Orders: signed for INT32/INT64
 * (all Hive integers, DATE, TIMESTAMP and DECIMAL on INT32/INT64), decimal
 * value for FIXED_LEN_BYTE_ARRAY decimals, unsigned bytes for strings and
 * binary, false < true, IEEE order without NaN for FLOAT/DOUBLE (a zero
 * minimum is written -0.0 and a zero maximum +0.0, as the spec asks).
 * INT96 has no defined order: no min/max and no ColumnIndex.  Chunk
 * bounds longer than STATS_MAX_BYTES are left out; ColumnIndex bounds of
 * strings are truncated to INDEX_TRUNCATE bytes (the maximum rounded up).
 *
 * Spec: apache/parquet-format parquet.thrift, Encodings.md, LogicalTypes.md,
 * PageIndex.md.  Errors: storage errors as the backend reports them; a value
 * that does not fit its column (a decimal beyond its precision, a NULL map
 * key) is HL_ERROR 22003/22004 naming the column; after any error the writer
 * only accepts hl_parquet_writer_abort (or close, which then fails).
 */
#include "format/parquet/parquet.h"
#include "format/parquet/pq_codec.h"
#include "format/parquet/pq_encoding.h"
#include "format/parquet/pq_meta.h"
#include "format/parquet/pq_schema.h"
#include "hivelite.h"
#include "util/mem.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#define PAGE_ROW_LIMIT  20000 /* rows per page, for page-index granularity (parquet-mr's) */
#define INDEX_TRUNCATE  64    /* ColumnIndex string bound length */
#define STATS_MAX_BYTES 4096  /* longer chunk bounds are not written */
#define CREATED_BY      "hivelite version " HIVELITE_VERSION " (build hivelite)"

/* ====================================================================
 * Options
 * ==================================================================== */

static bool parse_positive(const char *s, uint64_t *out) {
  uint64_t v = 0;
  if (!*s) return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
      return false;
  }
  *out = v;
  return v > 0;
}

static bool parse_bool(const char *s, bool *out) {
  if (strcasecmp(s, "true") == 0)
    *out = true;
  else if (strcasecmp(s, "false") == 0)
    *out = false;
  else
    return false;
  return true;
}

static hl_status_t size_prop(const hl_kv_t *params, int n_params, const char *key, uint64_t *out,
                             hl_error_t *err) {
  const char *s = hl_kv_get(params, n_params, key);
  if (!s) return HL_OK;
  if (!parse_positive(s, out))
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value for \"%s\": \"%s\" is not a positive integer", key, s);
  return HL_OK;
}

hl_status_t hl_parquet_write_options_init(hl_parquet_write_options_t *opts, const hl_kv_t *params,
                                          int n_params, hl_error_t *err) {
  memset(opts, 0, sizeof(*opts));
  opts->codec = HL_PQ_SNAPPY;
  opts->row_group_bytes = (uint64_t)128 << 20;
  opts->page_bytes = (uint64_t)1 << 20;
  opts->dictionary_bytes = (uint64_t)1 << 20;
  opts->int96_timestamps = false;
  if (!params || n_params <= 0) return HL_OK;

  const char *codec = hl_kv_get(params, n_params, "parquet.compression");
  if (codec) {
    static const struct {
      const char *name;
      hl_parquet_codec_t codec;
    } names[] = {{"UNCOMPRESSED", HL_PQ_UNCOMPRESSED},
                 {"NONE", HL_PQ_UNCOMPRESSED},
                 {"SNAPPY", HL_PQ_SNAPPY},
                 {"GZIP", HL_PQ_GZIP},
                 {"ZSTD", HL_PQ_ZSTD},
                 {"LZ4_RAW", HL_PQ_LZ4_RAW},
                 {"LZ4", HL_PQ_LZ4},
                 {"BROTLI", HL_PQ_BROTLI}};
    size_t i;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
      if (strcasecmp(codec, names[i].name) == 0) break;
    if (i == sizeof(names) / sizeof(names[0])) {
      if (strcasecmp(codec, "LZO") == 0)
        return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                          "parquet.compression \"LZO\" is not supported");
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "unknown parquet.compression \"%s\"", codec);
    }
    opts->codec = names[i].codec;
  }
  hl_status_t st = size_prop(params, n_params, "parquet.block.size", &opts->row_group_bytes, err);
  if (st == HL_OK) st = size_prop(params, n_params, "parquet.page.size", &opts->page_bytes, err);
  if (st == HL_OK)
    st = size_prop(params, n_params, "parquet.dictionary.page.size", &opts->dictionary_bytes, err);
  if (st != HL_OK) return st;

  static const char *const bool_keys[] = {"parquet.enable.dictionary", "parquet.timestamp.int96"};
  for (int k = 0; k < 2; k++) {
    const char *s = hl_kv_get(params, n_params, bool_keys[k]);
    bool b;
    if (!s) continue;
    if (!parse_bool(s, &b))
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "invalid value for \"%s\": \"%s\" is not true or false", bool_keys[k], s);
    if (k == 0 && !b) opts->dictionary_bytes = 0;
    if (k == 1) opts->int96_timestamps = b;
  }
  return HL_OK;
}

/* ====================================================================
 * Per-column state
 * ==================================================================== */

/* How a leaf's Hive values become Parquet physical values. */
typedef enum vkind {
  K_BOOL,
  K_INT32, /* TINYINT, SMALLINT, INT, DATE */
  K_INT64, /* BIGINT, TIMESTAMP micros */
  K_INT96, /* TIMESTAMP as Julian day + nanoseconds */
  K_FLOAT,
  K_DOUBLE,
  K_DEC32,   /* DECIMAL p <= 9 */
  K_DEC64,   /* DECIMAL p <= 18 */
  K_DECFLBA, /* DECIMAL p > 18: big-endian two's complement */
  K_BYTES    /* STRING, VARCHAR, CHAR, BINARY */
} vkind_t;

/* Running minimum and maximum of the non-null (non-NaN) values seen; the
 * member used depends on the column's vkind. */
typedef struct stat {
  bool has;
  int64_t imin, imax;  /* BOOL, INT32, INT64, DEC32, DEC64 */
  double dmin, dmax;   /* FLOAT, DOUBLE */
  __int128 qmin, qmax; /* DECFLBA */
  hl_buf_t smin, smax; /* BYTES */
} stat_t;

typedef struct pageinfo { /* one written data page, for the page index */
  int64_t rel_offset;     /* from the start of the chunk's data pages */
  int32_t size;           /* header + compressed body */
  int64_t first_row;      /* within the row group */
  int64_t null_count;
  bool null_page;          /* every level slot is null */
  bool has_bounds;         /* min/max below are set */
  size_t min_off, max_off; /* in the column's bounds buffer */
  size_t min_len, max_len;
} pageinfo_t;

typedef struct colw {
  const hl_pq_leaf_t *leaf;
  const hl_type_t *htype; /* the Hive type of the leaf's values */
  vkind_t kind;
  hl_pq_type_t ptype;
  size_t width;   /* bytes of a fixed-width value; 0 for BYTES and BOOL */
  __int128 bound; /* decimals: 10^precision (values must be below it) */
  int16_t max_def, max_rep;
  int def_bw, rep_bw;

  /* The pending page: levels, then either dictionary indices (dict_on) or
   * PLAIN bytes (BOOL: one byte per value, bit-packed at flush). */
  int16_t *defs, *reps;
  size_t n_levels, cap_levels;
  uint32_t *idx;
  size_t n_idx, cap_idx;
  hl_buf_t plain;
  int64_t page_rows, page_nulls;
  stat_t page_stat;

  /* The chunk's dictionary: PLAIN-encoded entries, with the offset of each
   * entry for BYTES (fixed widths are at index * width). */
  bool dict_on;         /* new values still go to the dictionary */
  bool dict_used;       /* a written page refers to it */
  uint64_t *dict_slots; /* open addressing: hash high 32 bits | id + 1; 0 empty */
  size_t dict_cap;      /* power of two, at most half full */
  hl_buf_t dict_plain;
  uint32_t *dict_offs;
  size_t cap_offs;
  uint32_t dict_n;

  /* The chunk: its encoded data pages and what the footer needs. */
  hl_buf_t pages;
  pageinfo_t *pinfo;
  size_t n_pages, cap_pages;
  hl_buf_t bounds; /* the ColumnIndex bounds of the chunk's pages */
  int n_dict_pages, n_plain_pages;
  stat_t chunk_stat;
  stat_t prev_bounds; /* last non-null page's bounds, for boundary_order */
  bool asc, desc;     /* pages so far in ascending / descending order */
  bool index_ok;      /* every non-null page has bounds: ColumnIndex possible */
  int64_t chunk_values, chunk_rows, chunk_nulls;
  int64_t unc_bytes; /* data page headers + uncompressed bodies */
} colw_t;

/* A flushed column chunk as the footer needs it: lengths of its pieces in
 * the writer's byte buffers (meta, ci, oi), which hold the pieces of every
 * chunk in file order, so offsets are running sums. */
typedef struct chunkrec {
  uint32_t head_len; /* ColumnChunk fields 1..3 (hl_pq_column_chunk_encode_head) */
  uint32_t ci_len;   /* its ColumnIndex; 0: none (an encoding is never empty) */
  uint32_t oi_len;   /* its OffsetIndex */
} chunkrec_t;

struct hl_parquet_writer {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  hl_arena_t *arena; /* schema and path: nothing that grows with the rows */
  char *path;
  hl_parquet_write_options_t opts;
  int n_cols;
  hl_pq_schema_elem_t *elems;
  int n_elems;
  hl_pq_schema_t *schema;
  int n_leaves;
  colw_t *cols;
  uint64_t pos;    /* bytes written to the file */
  int64_t rg_rows; /* rows in the row group being built */
  int64_t total_rows;
  /* Flushed row groups, kept as their footer bytes (memory per row group
   * is these bytes, not the structures they encode): META holds, per row
   * group, every chunk's ColumnChunk head then the RowGroup tail
   * (pq_meta.h, "FileMetaData in pieces"); CI and OI the page index
   * entries, written as they are before the footer. */
  hl_buf_t meta, ci, oi;
  chunkrec_t *chunks; /* n_rgs * n_leaves */
  uint32_t *rg_tails; /* length of each row group's tail in META */
  int n_rgs, cap_rgs;
  hl_buf_t body, comp, hdr; /* scratch for page encoding */
  hl_buf_t stats;           /* scratch: a chunk's statistics bounds */
  bool failed;
};

/* ====================================================================
 * Statistics
 * ==================================================================== */

static void stat_reset(stat_t *s) {
  s->has = false;
  hl_buf_reset(&s->smin);
  hl_buf_reset(&s->smax);
}

static void stat_fini(stat_t *s) {
  hl_buf_fini(&s->smin);
  hl_buf_fini(&s->smax);
}

static int cmp_bytes(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
  size_t n = la < lb ? la : lb;
  int c = n ? memcmp(a, b, n) : 0;
  if (c) return c < 0 ? -1 : 1;
  return la < lb ? -1 : la > lb;
}

static void set_buf(hl_buf_t *buf, const uint8_t *p, size_t n) {
  hl_buf_reset(buf);
  hl_buf_append(buf, p, n);
}

static void stat_add_i(stat_t *s, int64_t v) {
  if (!s->has) {
    s->imin = s->imax = v;
    s->has = true;
  } else if (v < s->imin) {
    s->imin = v;
  } else if (v > s->imax) {
    s->imax = v;
  }
}

static void stat_add_d(stat_t *s, double v) {
  if (isnan(v)) return; /* NaN has no place in min/max (parquet.thrift ColumnOrder) */
  if (!s->has) {
    s->dmin = s->dmax = v;
    s->has = true;
  } else if (v < s->dmin) {
    s->dmin = v;
  } else if (v > s->dmax) {
    s->dmax = v;
  }
}

static void stat_add_q(stat_t *s, __int128 v) {
  if (!s->has) {
    s->qmin = s->qmax = v;
    s->has = true;
  } else if (v < s->qmin) {
    s->qmin = v;
  } else if (v > s->qmax) {
    s->qmax = v;
  }
}

/* Returns -1 when a buffer ran out of memory. */
static int stat_add_s(stat_t *s, const uint8_t *p, size_t n) {
  if (!s->has) {
    set_buf(&s->smin, p, n);
    set_buf(&s->smax, p, n);
    s->has = true;
  } else if (cmp_bytes(p, n, (const uint8_t *)s->smin.data, s->smin.len) < 0) {
    set_buf(&s->smin, p, n);
  } else if (cmp_bytes(p, n, (const uint8_t *)s->smax.data, s->smax.len) > 0) {
    set_buf(&s->smax, p, n);
  }
  return s->smin.oom || s->smax.oom ? -1 : 0;
}

/* Folds page statistics P into chunk statistics C. */
static int stat_merge(vkind_t kind, stat_t *c, const stat_t *p) {
  if (!p->has) return 0;
  switch (kind) {
  case K_FLOAT:
  case K_DOUBLE:
    stat_add_d(c, p->dmin), stat_add_d(c, p->dmax);
    return 0;
  case K_DECFLBA:
    stat_add_q(c, p->qmin), stat_add_q(c, p->qmax);
    return 0;
  case K_BYTES:
    if (stat_add_s(c, (const uint8_t *)p->smin.data, p->smin.len)) return -1;
    return stat_add_s(c, (const uint8_t *)p->smax.data, p->smax.len);
  case K_INT96:
    return 0;
  default:
    stat_add_i(c, p->imin), stat_add_i(c, p->imax);
    return 0;
  }
}

/* Compares page bounds A and B: the sign of (A.min - B.min) in *dmin and of
 * (A.max - B.max) in *dmax. */
static void stat_cmp(vkind_t kind, const stat_t *a, const stat_t *b, int *dmin, int *dmax) {
  switch (kind) {
  case K_FLOAT:
  case K_DOUBLE:
    *dmin = (a->dmin > b->dmin) - (a->dmin < b->dmin);
    *dmax = (a->dmax > b->dmax) - (a->dmax < b->dmax);
    break;
  case K_DECFLBA:
    *dmin = (a->qmin > b->qmin) - (a->qmin < b->qmin);
    *dmax = (a->qmax > b->qmax) - (a->qmax < b->qmax);
    break;
  case K_BYTES:
    *dmin = cmp_bytes((const uint8_t *)a->smin.data, a->smin.len, (const uint8_t *)b->smin.data,
                      b->smin.len);
    *dmax = cmp_bytes((const uint8_t *)a->smax.data, a->smax.len, (const uint8_t *)b->smax.data,
                      b->smax.len);
    break;
  default:
    *dmin = (a->imin > b->imin) - (a->imin < b->imin);
    *dmax = (a->imax > b->imax) - (a->imax < b->imax);
    break;
  }
}

static int stat_copy(stat_t *dst, const stat_t *src) {
  dst->has = src->has;
  dst->imin = src->imin, dst->imax = src->imax;
  dst->dmin = src->dmin, dst->dmax = src->dmax;
  dst->qmin = src->qmin, dst->qmax = src->qmax;
  set_buf(&dst->smin, (const uint8_t *)src->smin.data, src->smin.len);
  set_buf(&dst->smax, (const uint8_t *)src->smax.data, src->smax.len);
  return dst->smin.oom || dst->smax.oom ? -1 : 0;
}

/* Encodes the minimum (IS_MAX false) or maximum of S as a Parquet bound
 * (PLAIN bytes without length prefix; FLBA decimals big-endian), appended
 * to OUT at *OUT_OFF (an offset: OUT may move as it grows).
 * TRUNCATE limits strings to INDEX_TRUNCATE bytes (a maximum is rounded up
 * so it stays an upper bound).  Returns 1 on success, 0 when no bound can
 * be written (INT96, too long, a maximum of 0xff bytes that cannot be
 * rounded up), -1 on OOM. */
static int encode_bound(hl_buf_t *out, const colw_t *c, const stat_t *s, bool is_max, bool truncate,
                        size_t *out_off, size_t *out_len) {
  uint8_t tmp[16];
  const uint8_t *src = tmp;
  size_t n = 0;
  switch (c->kind) {
  case K_BOOL:
    tmp[0] = (uint8_t)(is_max ? s->imax : s->imin), n = 1;
    break;
  case K_INT32:
  case K_DEC32: {
    int32_t v = (int32_t)(is_max ? s->imax : s->imin);
    memcpy(tmp, &v, 4), n = 4;
    break;
  }
  case K_INT64:
  case K_DEC64: {
    int64_t v = is_max ? s->imax : s->imin;
    memcpy(tmp, &v, 8), n = 8;
    break;
  }
  case K_FLOAT: {
    float v = (float)(is_max ? s->dmax : s->dmin);
    if (v == 0.0f) v = is_max ? 0.0f : -0.0f;
    memcpy(tmp, &v, 4), n = 4;
    break;
  }
  case K_DOUBLE: {
    double v = is_max ? s->dmax : s->dmin;
    if (v == 0.0) v = is_max ? 0.0 : -0.0;
    memcpy(tmp, &v, 8), n = 8;
    break;
  }
  case K_DECFLBA: {
    __int128 v = is_max ? s->qmax : s->qmin;
    n = c->width;
    for (size_t i = 0; i < n; i++)
      tmp[n - 1 - i] = (uint8_t)(v >> (8 * i));
    break;
  }
  case K_BYTES: {
    const hl_buf_t *b = is_max ? &s->smax : &s->smin;
    src = (const uint8_t *)b->data;
    n = b->len;
    if (!truncate && n > STATS_MAX_BYTES) return 0;
    if (truncate && n > INDEX_TRUNCATE) {
      if (!is_max) {
        n = INDEX_TRUNCATE;
        break;
      }
      /* Shortest upper bound: the prefix with its last byte below 0xff
       * incremented. */
      size_t k = INDEX_TRUNCATE;
      while (k > 0 && src[k - 1] == 0xff)
        k--;
      if (k == 0) return 0;
      *out_off = out->len;
      hl_buf_append(out, src, k);
      if (out->oom) return -1;
      ((uint8_t *)out->data)[out->len - 1]++;
      *out_len = k;
      return 1;
    }
    break;
  }
  case K_INT96:
    return 0;
  }
  *out_off = out->len;
  hl_buf_append(out, src, n);
  if (out->oom) return -1;
  *out_len = n;
  return 1;
}

/* ====================================================================
 * Column setup and teardown
 * ==================================================================== */

static void colw_fini(colw_t *c) {
  hl_free(c->defs);
  hl_free(c->reps);
  hl_free(c->idx);
  hl_buf_fini(&c->plain);
  stat_fini(&c->page_stat);
  hl_free(c->dict_slots);
  hl_buf_fini(&c->dict_plain);
  hl_free(c->dict_offs);
  hl_buf_fini(&c->pages);
  hl_free(c->pinfo);
  hl_buf_fini(&c->bounds);
  stat_fini(&c->chunk_stat);
  stat_fini(&c->prev_bounds);
}

/* Clears the chunk state for the next row group (keeps buffers). */
static hl_status_t colw_start_chunk(hl_parquet_writer_t *w, colw_t *c, hl_error_t *err) {
  c->dict_on = w->opts.dictionary_bytes > 0 && c->kind != K_BOOL;
  if (c->dict_slots) memset(c->dict_slots, 0, c->dict_cap * sizeof(uint64_t));
  c->dict_used = false;
  hl_buf_reset(&c->dict_plain);
  c->dict_n = 0;
  hl_buf_reset(&c->pages);
  hl_buf_reset(&c->bounds);
  c->n_pages = 0;
  c->n_dict_pages = c->n_plain_pages = 0;
  stat_reset(&c->chunk_stat);
  stat_reset(&c->prev_bounds);
  c->asc = c->desc = true;
  c->index_ok = c->kind != K_INT96;
  c->chunk_values = c->chunk_rows = c->chunk_nulls = 0;
  c->unc_bytes = 0;
  return HL_OK;
}

static __int128 pow10_128(int p) {
  __int128 v = 1;
  while (p-- > 0)
    v *= 10;
  return v;
}

/* Records the Hive type of every leaf under NODE, walking TYPE alongside. */
static void bind_types(colw_t *cols, int n_leaves, const hl_pq_node_t *node, const hl_type_t *t) {
  if (!node || !t) return;
  switch (node->kind) {
  case HL_PQ_NODE_PRIMITIVE:
    if (node->leaf_index >= 0 && node->leaf_index < n_leaves) cols[node->leaf_index].htype = t;
    break;
  case HL_PQ_NODE_STRUCT:
    if (t->id != HL_T_STRUCT) return;
    for (int i = 0; i < node->n_children && i < t->n_children; i++)
      bind_types(cols, n_leaves, node->children[i], t->children[i]);
    break;
  case HL_PQ_NODE_LIST:
    if (t->id == HL_T_ARRAY && t->n_children == 1)
      bind_types(cols, n_leaves, node->element, t->children[0]);
    break;
  case HL_PQ_NODE_MAP:
    if (t->id == HL_T_MAP && t->n_children == 2) {
      bind_types(cols, n_leaves, node->key, t->children[0]);
      bind_types(cols, n_leaves, node->value, t->children[1]);
    }
    break;
  }
}

static hl_status_t colw_init(hl_parquet_writer_t *w, colw_t *c, const hl_pq_leaf_t *leaf,
                             hl_error_t *err) {
  const hl_pq_schema_elem_t *e = leaf->node->elem;
  const hl_type_t *t = c->htype;
  c->leaf = leaf;
  c->ptype = e->type;
  c->max_def = leaf->max_def;
  c->max_rep = leaf->max_rep;
  c->def_bw = hl_pq_bit_width((uint64_t)leaf->max_def);
  c->rep_bw = hl_pq_bit_width((uint64_t)leaf->max_rep);
  hl_buf_init(&c->plain);
  hl_buf_init(&c->dict_plain);
  hl_buf_init(&c->pages);
  hl_buf_init(&c->page_stat.smin), hl_buf_init(&c->page_stat.smax);
  hl_buf_init(&c->chunk_stat.smin), hl_buf_init(&c->chunk_stat.smax);
  hl_buf_init(&c->prev_bounds.smin), hl_buf_init(&c->prev_bounds.smax);
  bool dec = t && t->id == HL_T_DECIMAL;
  switch (e->type) {
  case HL_PQ_BOOLEAN:
    c->kind = K_BOOL;
    break;
  case HL_PQ_INT32:
    c->kind = dec ? K_DEC32 : K_INT32, c->width = 4;
    break;
  case HL_PQ_INT64:
    c->kind = dec ? K_DEC64 : K_INT64, c->width = 8;
    break;
  case HL_PQ_INT96:
    c->kind = K_INT96, c->width = 12;
    break;
  case HL_PQ_FLOAT:
    c->kind = K_FLOAT, c->width = 4;
    break;
  case HL_PQ_DOUBLE:
    c->kind = K_DOUBLE, c->width = 8;
    break;
  case HL_PQ_BYTE_ARRAY:
    c->kind = K_BYTES;
    break;
  case HL_PQ_FIXED_LEN_BYTE_ARRAY:
    if (!dec || e->type_length < 1 || e->type_length > 16) goto bad;
    c->kind = K_DECFLBA, c->width = (size_t)e->type_length;
    break;
  default:
    goto bad;
  }
  if (!t) goto bad;
  if (dec) c->bound = pow10_128(t->precision);
  return colw_start_chunk(w, c, err);
bad:
  return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                    "parquet schema for column \"%s\" does not match its Hive type",
                    leaf->path_str);
}

/* ====================================================================
 * Appending levels and values to the pending page
 * ==================================================================== */

static int push_level(colw_t *c, int16_t rep, int16_t def) {
  if (c->n_levels == c->cap_levels) {
    size_t cap = c->cap_levels ? c->cap_levels * 2 : 64;
    int16_t *d = hl_realloc(c->defs, cap * sizeof(int16_t));
    if (!d) return -1;
    c->defs = d;
    if (c->max_rep > 0) {
      int16_t *r = hl_realloc(c->reps, cap * sizeof(int16_t));
      if (!r) return -1;
      c->reps = r;
    }
    c->cap_levels = cap;
  }
  c->defs[c->n_levels] = def;
  if (c->max_rep > 0) c->reps[c->n_levels] = rep;
  c->n_levels++;
  if (rep == 0) c->page_rows++;
  return 0;
}

static int push_index(colw_t *c, uint32_t id) {
  if (c->n_idx == c->cap_idx) {
    size_t cap = c->cap_idx ? c->cap_idx * 2 : 64;
    uint32_t *p = hl_realloc(c->idx, cap * sizeof(uint32_t));
    if (!p) return -1;
    c->idx = p;
    c->cap_idx = cap;
  }
  c->idx[c->n_idx++] = id;
  return 0;
}

static void put_plain(colw_t *c, hl_buf_t *buf, const uint8_t *p, size_t n) {
  if (c->kind == K_BYTES) {
    uint32_t len = (uint32_t)n;
    hl_buf_append(buf, &len, 4);
  }
  hl_buf_append(buf, p, n);
}

/* Dictionary entry ID as PLAIN bytes (with the length prefix for BYTES). */
static void dict_entry(const colw_t *c, uint32_t id, const uint8_t **p, size_t *n) {
  if (c->kind == K_BYTES) {
    uint32_t off = c->dict_offs[id], len;
    memcpy(&len, c->dict_plain.data + off, 4);
    *p = (const uint8_t *)c->dict_plain.data + off;
    *n = 4 + (size_t)len;
  } else {
    *p = (const uint8_t *)c->dict_plain.data + (size_t)id * c->width;
    *n = c->width;
  }
}

/* Stops dictionary encoding for the rest of the chunk: the pending page's
 * indices become PLAIN values. */
static void dict_fallback(colw_t *c) {
  for (size_t i = 0; i < c->n_idx; i++) {
    const uint8_t *p;
    size_t n;
    dict_entry(c, c->idx[i], &p, &n);
    hl_buf_append(&c->plain, p, n);
  }
  c->n_idx = 0;
  c->dict_on = false;
}

/* The dictionary's hash table maps value bytes to entry ids without a
 * second copy of the keys: a slot holds the upper half of the hash and
 * id + 1, and the bytes are compared against the entry in dict_plain. */
static uint64_t hash_key(const uint8_t *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;
  for (; n >= 8; p += 8, n -= 8) {
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  if (n) {
    w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

static bool entry_equals(const colw_t *c, uint32_t id, const uint8_t *p, size_t n) {
  if (c->width == 8 && c->kind != K_BYTES) { /* the common fixed width, without a memcmp call */
    uint64_t a, b;
    memcpy(&a, c->dict_plain.data + (size_t)id * 8, 8);
    memcpy(&b, p, 8);
    return a == b;
  }
  const uint8_t *e;
  size_t len;
  dict_entry(c, id, &e, &len);
  if (c->kind == K_BYTES) e += 4, len -= 4;
  return len == n && (n == 0 || memcmp(e, p, n) == 0);
}

/* Slot for key P[0..n) with hash H: the one holding it, or the empty slot
 * where it belongs. */
static uint64_t *dict_find(const colw_t *c, uint64_t h, const uint8_t *p, size_t n) {
  size_t mask = c->dict_cap - 1, i = (size_t)h & mask;
  uint64_t tag = h & 0xffffffff00000000ULL;
  for (;; i = (i + 1) & mask) {
    uint64_t *slot = &c->dict_slots[i];
    if (!*slot) return slot;
    if ((*slot & 0xffffffff00000000ULL) == tag &&
        entry_equals(c, (uint32_t)(*slot & 0xffffffffu) - 1, p, n))
      return slot;
  }
}

/* Doubles the table (or creates it); -1 on OOM. */
static int dict_grow(colw_t *c) {
  size_t cap = c->dict_cap ? c->dict_cap * 2 : 64;
  uint64_t *slots = hl_calloc(cap, sizeof(uint64_t));
  if (!slots) return -1;
  uint64_t *old = c->dict_slots;
  c->dict_slots = slots;
  c->dict_cap = cap;
  for (uint32_t id = 0; id < c->dict_n; id++) {
    const uint8_t *e;
    size_t len;
    dict_entry(c, id, &e, &len);
    if (c->kind == K_BYTES) e += 4, len -= 4;
    uint64_t h = hash_key(e, len);
    *dict_find(c, h, e, len) = (h & 0xffffffff00000000ULL) | (id + 1);
  }
  hl_free(old);
  return 0;
}

/* Appends value bytes P[0..n) (PLAIN form without length prefix). */
static hl_status_t put_bytes(hl_parquet_writer_t *w, colw_t *c, const uint8_t *p, size_t n,
                             hl_error_t *err) {
  static const uint8_t empty[1] = {0};
  if (!p) p = empty;
  if (c->dict_on) {
    if ((size_t)c->dict_n + 1 > c->dict_cap / 2 && dict_grow(c)) return hl_err_nomem(err);
    uint64_t h = hash_key(p, n);
    uint64_t *slot = dict_find(c, h, p, n);
    if (*slot) {
      if (push_index(c, (uint32_t)(*slot & 0xffffffffu) - 1)) return hl_err_nomem(err);
      return HL_OK;
    }
    size_t entry = n + (c->kind == K_BYTES ? 4 : 0);
    if (c->dict_plain.len + entry <= w->opts.dictionary_bytes && c->dict_n < UINT32_MAX - 1 &&
        c->dict_plain.len + entry <= UINT32_MAX) {
      uint32_t id = c->dict_n;
      if (c->kind == K_BYTES) {
        if (c->dict_n == c->cap_offs) {
          size_t cap = c->cap_offs ? c->cap_offs * 2 : 64;
          uint32_t *o = hl_realloc(c->dict_offs, cap * sizeof(uint32_t));
          if (!o) return hl_err_nomem(err);
          c->dict_offs = o;
          c->cap_offs = cap;
        }
        c->dict_offs[id] = (uint32_t)c->dict_plain.len;
      }
      put_plain(c, &c->dict_plain, p, n);
      if (c->dict_plain.oom) return hl_err_nomem(err);
      *slot = (h & 0xffffffff00000000ULL) | ((uint64_t)id + 1);
      c->dict_n++;
      if (push_index(c, id)) return hl_err_nomem(err);
      return HL_OK;
    }
    dict_fallback(c);
  }
  put_plain(c, &c->plain, p, n);
  return c->plain.oom ? hl_err_nomem(err) : HL_OK;
}

static hl_status_t out_of_range(const colw_t *c, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
                    "value out of range for parquet column \"%s\"", c->leaf->path_str);
}

/* Appends one non-NULL value V (of the leaf's Hive type) at levels REP/DEF. */
static hl_status_t put_value(hl_parquet_writer_t *w, colw_t *c, int16_t rep, int16_t def,
                             const hl_value_t *v, hl_error_t *err) {
  uint8_t tmp[16];
  const uint8_t *p = tmp;
  size_t n = c->width;
  if (push_level(c, rep, def)) return hl_err_nomem(err);
  switch (c->kind) {
  case K_BOOL: {
    uint8_t b = v->u.b ? 1 : 0;
    stat_add_i(&c->page_stat, b);
    hl_buf_putc(&c->plain, (char)b);
    return c->plain.oom ? hl_err_nomem(err) : HL_OK;
  }
  case K_INT32: {
    if (v->u.i < INT32_MIN || v->u.i > INT32_MAX) return out_of_range(c, err);
    int32_t x = (int32_t)v->u.i;
    memcpy(tmp, &x, 4);
    stat_add_i(&c->page_stat, x);
    break;
  }
  case K_INT64:
    memcpy(tmp, &v->u.i, 8);
    stat_add_i(&c->page_stat, v->u.i);
    break;
  case K_INT96:
    hl_pq_int96_from_micros(v->u.i, tmp);
    break;
  case K_FLOAT: {
    float f = (float)v->u.d;
    memcpy(tmp, &f, 4);
    stat_add_d(&c->page_stat, f);
    break;
  }
  case K_DOUBLE:
    memcpy(tmp, &v->u.d, 8);
    stat_add_d(&c->page_stat, v->u.d);
    break;
  case K_DEC32:
  case K_DEC64:
  case K_DECFLBA: {
    __int128 q = v->u.dec;
    if (q >= c->bound || q <= -c->bound) return out_of_range(c, err);
    if (c->kind == K_DEC32) {
      int32_t x = (int32_t)q;
      memcpy(tmp, &x, 4);
      stat_add_i(&c->page_stat, x);
    } else if (c->kind == K_DEC64) {
      int64_t x = (int64_t)q;
      memcpy(tmp, &x, 8);
      stat_add_i(&c->page_stat, x);
    } else {
      for (size_t i = 0; i < n; i++)
        tmp[n - 1 - i] = (uint8_t)(q >> (8 * i));
      stat_add_q(&c->page_stat, q);
    }
    break;
  }
  case K_BYTES:
    p = (const uint8_t *)v->u.s.ptr;
    n = v->u.s.len;
    /* Hive's Parquet writer stores CHAR without its padding. */
    if (c->htype->id == HL_T_CHAR)
      while (n > 0 && p[n - 1] == ' ')
        n--;
    if (stat_add_s(&c->page_stat, p, n)) return hl_err_nomem(err);
    break;
  }
  return put_bytes(w, c, p, n, err);
}

static hl_status_t put_null(colw_t *c, int16_t rep, int16_t def, hl_error_t *err) {
  if (push_level(c, rep, def)) return hl_err_nomem(err);
  c->page_nulls++;
  return HL_OK;
}

/* ====================================================================
 * Shredding values into levels (Dremel): a NULL at an optional node is
 * recorded in every leaf below it at the node's parent's level; an empty
 * list or map at the list's own level; element I > 0 of a repeated node
 * starts at that node's repetition level.
 * ==================================================================== */

static hl_status_t null_below(hl_parquet_writer_t *w, const hl_pq_node_t *node, int16_t rep,
                              int16_t def, hl_error_t *err) {
  for (int i = node->first_leaf; i < node->first_leaf + node->n_leaves; i++) {
    hl_status_t st = put_null(&w->cols[i], rep, def, err);
    if (st != HL_OK) return st;
  }
  return HL_OK;
}

static hl_status_t shred(hl_parquet_writer_t *w, const hl_pq_node_t *node, const hl_value_t *v,
                         int16_t rep, hl_error_t *err) {
  if (!v || v->is_null) {
    if (node->elem->repetition == HL_PQ_REQUIRED)
      return hl_err_set(err, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                        "parquet column \"%s\" cannot hold NULL (a NULL map key?)",
                        w->cols[node->first_leaf].leaf->path_str);
    return null_below(w, node, rep, (int16_t)(node->max_def - 1), err);
  }
  hl_status_t st = HL_OK;
  switch (node->kind) {
  case HL_PQ_NODE_PRIMITIVE:
    return put_value(w, &w->cols[node->leaf_index], rep, node->max_def, v, err);
  case HL_PQ_NODE_STRUCT:
    if (v->u.list.n != (uint32_t)node->n_children)
      return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                        "struct value with %u fields for parquet field \"%s\" of %d fields",
                        v->u.list.n, node->name, node->n_children);
    for (int i = 0; i < node->n_children && st == HL_OK; i++)
      st = shred(w, node->children[i], &v->u.list.items[i], rep, err);
    return st;
  case HL_PQ_NODE_LIST:
    if (v->u.list.n == 0) return null_below(w, node, rep, node->max_def, err);
    for (uint32_t i = 0; i < v->u.list.n && st == HL_OK; i++)
      st = shred(w, node->element, &v->u.list.items[i], i ? node->repeated->max_rep : rep, err);
    return st;
  case HL_PQ_NODE_MAP:
    if (v->u.list.n == 0) return null_below(w, node, rep, node->max_def, err);
    for (uint32_t i = 0; i < v->u.list.n && st == HL_OK; i++) {
      int16_t r = i ? node->repeated->max_rep : rep;
      st = shred(w, node->key, &v->u.list.items[2 * i], r, err);
      if (st == HL_OK) st = shred(w, node->value, &v->u.list.items[2 * i + 1], r, err);
    }
    return st;
  }
  return HL_OK;
}

/* ====================================================================
 * Pages
 * ==================================================================== */

static size_t page_estimate(const colw_t *c) {
  size_t n = 0;
  if (c->max_def > 0) n += (c->n_levels * (size_t)c->def_bw + 7) / 8;
  if (c->max_rep > 0) n += (c->n_levels * (size_t)c->rep_bw + 7) / 8;
  if (c->dict_on)
    n += (c->n_idx * (size_t)hl_pq_bit_width(c->dict_n) + 7) / 8 + 1;
  else
    n += c->kind == K_BOOL ? (c->plain.len + 7) / 8 : c->plain.len;
  return n;
}

/* Compresses BODY per the options; PAYLOAD and PLEN are what goes to the file. */
static hl_status_t compress_body(hl_parquet_writer_t *w, const hl_buf_t *body,
                                 const uint8_t **payload, size_t *plen, hl_error_t *err) {
  if (w->opts.codec == HL_PQ_UNCOMPRESSED) {
    *payload = (const uint8_t *)body->data;
    *plen = body->len;
    return HL_OK;
  }
  hl_buf_reset(&w->comp);
  hl_status_t st = hl_pq_compress(w->opts.codec, w->opts.compression_level,
                                  (const uint8_t *)body->data, body->len, &w->comp, err);
  if (st != HL_OK) return st;
  if (w->comp.len > INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "parquet page larger than 2 GiB");
  *payload = (const uint8_t *)w->comp.data;
  *plen = w->comp.len;
  return HL_OK;
}

static int grow_pinfo(colw_t *c) {
  if (c->n_pages < c->cap_pages) return 0;
  size_t cap = c->cap_pages ? c->cap_pages * 2 : 16;
  pageinfo_t *p = hl_realloc(c->pinfo, cap * sizeof(*p));
  if (!p) return -1;
  c->pinfo = p;
  c->cap_pages = cap;
  return 0;
}

/* Encodes the pending page of C into its chunk buffer. */
static hl_status_t flush_page(hl_parquet_writer_t *w, colw_t *c, hl_error_t *err) {
  if (c->n_levels == 0) return HL_OK;
  if (c->n_levels > INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "too many values in one row for parquet column \"%s\"", c->leaf->path_str);
  hl_buf_t *body = &w->body;
  hl_status_t st = HL_OK;
  hl_buf_reset(body);
  if (c->max_rep > 0)
    st = hl_pq_rle_encode_levels(body, c->reps, c->n_levels, c->rep_bw, true, err);
  if (st == HL_OK && c->max_def > 0)
    st = hl_pq_rle_encode_levels(body, c->defs, c->n_levels, c->def_bw, true, err);
  if (st != HL_OK) return st;
  hl_pq_encoding_t enc = HL_PQ_ENC_PLAIN;
  if (c->dict_on) {
    enc = HL_PQ_ENC_RLE_DICTIONARY;
    st = hl_pq_dict_encode(body, c->idx, c->n_idx, hl_pq_bit_width(c->dict_n ? c->dict_n - 1 : 0),
                           err);
    c->dict_used = true;
  } else if (c->kind == K_BOOL) {
    st = hl_pq_plain_encode_bool(body, (const uint8_t *)c->plain.data, c->plain.len, err);
  } else {
    hl_buf_append(body, c->plain.data, c->plain.len);
  }
  if (st != HL_OK) return st;
  if (body->oom) return hl_err_nomem(err);
  if (body->len > INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "parquet page larger than 2 GiB in column \"%s\"", c->leaf->path_str);

  const uint8_t *payload = NULL;
  size_t plen = 0;
  if ((st = compress_body(w, body, &payload, &plen, err)) != HL_OK) return st;
  hl_pq_page_header_t ph;
  memset(&ph, 0, sizeof(ph));
  ph.type = HL_PQ_PAGE_DATA;
  ph.uncompressed_page_size = (int32_t)body->len;
  ph.compressed_page_size = (int32_t)plen;
  ph.has_data_page_header = true;
  ph.data_page_header.num_values = (int32_t)c->n_levels;
  ph.data_page_header.encoding = enc;
  ph.data_page_header.definition_level_encoding = HL_PQ_ENC_RLE;
  ph.data_page_header.repetition_level_encoding = HL_PQ_ENC_RLE;
  hl_buf_reset(&w->hdr);
  if ((st = hl_pq_page_header_encode(&ph, &w->hdr, err)) != HL_OK) return st;
  if (grow_pinfo(c)) return hl_err_nomem(err);

  pageinfo_t *pi = &c->pinfo[c->n_pages];
  memset(pi, 0, sizeof(*pi));
  pi->rel_offset = (int64_t)c->pages.len;
  pi->size = (int32_t)(w->hdr.len + plen);
  pi->first_row = c->chunk_rows;
  pi->null_count = c->page_nulls;
  pi->null_page = (size_t)c->page_nulls == c->n_levels;
  hl_buf_append(&c->pages, w->hdr.data, w->hdr.len);
  hl_buf_append(&c->pages, payload, plen);
  if (c->pages.oom) return hl_err_nomem(err);

  if (!pi->null_page) {
    int a = c->page_stat.has ? encode_bound(&c->bounds, c, &c->page_stat, false, true, &pi->min_off,
                                            &pi->min_len)
                             : 0;
    int b = a == 1
                ? encode_bound(&c->bounds, c, &c->page_stat, true, true, &pi->max_off, &pi->max_len)
                : 0;
    if (a < 0 || b < 0) return hl_err_nomem(err);
    pi->has_bounds = a == 1 && b == 1;
    if (!pi->has_bounds) c->index_ok = false;
    if (c->page_stat.has) {
      if (c->prev_bounds.has) {
        int dmin, dmax;
        stat_cmp(c->kind, &c->page_stat, &c->prev_bounds, &dmin, &dmax);
        if (dmin < 0 || dmax < 0) c->asc = false;
        if (dmin > 0 || dmax > 0) c->desc = false;
      }
      if (stat_copy(&c->prev_bounds, &c->page_stat)) return hl_err_nomem(err);
      if (stat_merge(c->kind, &c->chunk_stat, &c->page_stat)) return hl_err_nomem(err);
    }
  }
  c->n_pages++;
  if (enc == HL_PQ_ENC_PLAIN)
    c->n_plain_pages++;
  else
    c->n_dict_pages++;
  c->unc_bytes += (int64_t)(w->hdr.len + body->len);
  c->chunk_values += (int64_t)c->n_levels;
  c->chunk_rows += c->page_rows;
  c->chunk_nulls += c->page_nulls;
  c->n_levels = 0;
  c->n_idx = 0;
  hl_buf_reset(&c->plain);
  c->page_rows = c->page_nulls = 0;
  stat_reset(&c->page_stat);
  return HL_OK;
}

/* ====================================================================
 * Row groups
 * ==================================================================== */

static hl_status_t out_write(hl_parquet_writer_t *w, const void *p, size_t n, hl_error_t *err) {
  if (n == 0) return HL_OK;
  hl_status_t st = w->fs->ops->append(w->file, p, n, err);
  if (st == HL_OK) w->pos += n;
  return st;
}

static uint64_t row_group_estimate(const hl_parquet_writer_t *w) {
  uint64_t n = 0;
  for (int i = 0; i < w->n_leaves; i++) {
    const colw_t *c = &w->cols[i];
    n += c->pages.len + page_estimate(c);
    if (c->dict_on || c->dict_used) n += c->dict_plain.len;
  }
  return n;
}

/* Fills S with the statistics of the finished chunk C; the bounds point
 * into w->stats (valid until the next chunk).  -1 on OOM. */
static int chunk_statistics(hl_parquet_writer_t *w, const colw_t *c, hl_pq_stats_t *s) {
  memset(s, 0, sizeof(*s));
  s->has_null_count = true;
  s->null_count = c->chunk_nulls;
  if (!c->chunk_stat.has) return 0;
  size_t on, ox, ln, lx;
  hl_buf_reset(&w->stats);
  int a = encode_bound(&w->stats, c, &c->chunk_stat, false, false, &on, &ln);
  int b = a == 1 ? encode_bound(&w->stats, c, &c->chunk_stat, true, false, &ox, &lx) : 0;
  if (a < 0 || b < 0) return -1;
  if (a != 1 || b != 1) return 0;
  const uint8_t *base = (const uint8_t *)w->stats.data;
  s->has_min_value = s->has_max_value = true;
  s->min_value.ptr = base + on, s->min_value.len = ln;
  s->max_value.ptr = base + ox, s->max_value.len = lx;
  /* The deprecated min/max use signed order; write them only where that
   * is the column's order, for readers that know nothing newer. */
  if (c->kind != K_BYTES && c->kind != K_DECFLBA) {
    s->has_min = s->has_max = true;
    s->min = s->min_value;
    s->max = s->max_value;
  }
  return 0;
}

/* Appends the page index of the chunk C just written (its data pages from
 * DATA_START) to w->ci and w->oi, their lengths to REC. */
static hl_status_t chunk_page_index(hl_parquet_writer_t *w, const colw_t *c, int64_t data_start,
                                    chunkrec_t *rec, hl_error_t *err) {
  size_t n = c->n_pages;
  /* One temporary block for both structures' arrays. */
  size_t loc_bytes = (n ? n : 1) * sizeof(hl_pq_page_location_t);
  size_t ci_bytes = n * (sizeof(bool) + 2 * sizeof(hl_pq_meta_bytes_t) + sizeof(int64_t));
  uint8_t *block = hl_calloc(1, loc_bytes + ci_bytes);
  if (!block) return hl_err_nomem(err);
  hl_pq_offset_index_t oi;
  memset(&oi, 0, sizeof(oi));
  oi.n_pages = (int)n;
  oi.page_locations = (hl_pq_page_location_t *)block;
  for (size_t i = 0; i < n; i++) {
    oi.page_locations[i].offset = data_start + c->pinfo[i].rel_offset;
    oi.page_locations[i].compressed_page_size = c->pinfo[i].size;
    oi.page_locations[i].first_row_index = c->pinfo[i].first_row;
  }
  hl_status_t st = HL_OK;
  size_t ci_before = w->ci.len, oi_before = w->oi.len;
  if (c->index_ok && n > 0) {
    hl_pq_column_index_t ci;
    memset(&ci, 0, sizeof(ci));
    ci.n_pages = (int)n;
    /* hl_pq_meta_bytes_t and int64_t first: the block stays aligned */
    ci.min_values = (hl_pq_meta_bytes_t *)(block + loc_bytes);
    ci.max_values = ci.min_values + n;
    ci.null_counts = (int64_t *)(ci.max_values + n);
    ci.null_pages = (bool *)(ci.null_counts + n);
    ci.has_null_counts = true;
    const uint8_t *bounds = (const uint8_t *)c->bounds.data;
    for (size_t i = 0; i < n; i++) {
      ci.null_pages[i] = c->pinfo[i].null_page;
      ci.null_counts[i] = c->pinfo[i].null_count;
      if (c->pinfo[i].has_bounds) {
        ci.min_values[i].ptr = bounds + c->pinfo[i].min_off;
        ci.min_values[i].len = c->pinfo[i].min_len;
        ci.max_values[i].ptr = bounds + c->pinfo[i].max_off;
        ci.max_values[i].len = c->pinfo[i].max_len;
      }
    }
    ci.boundary_order = c->asc ? HL_PQ_ASCENDING : c->desc ? HL_PQ_DESCENDING : HL_PQ_UNORDERED;
    st = hl_pq_column_index_encode(&ci, &w->ci, err);
  }
  if (st == HL_OK) st = hl_pq_offset_index_encode(&oi, &w->oi, err);
  hl_free(block);
  if (st != HL_OK) return st;
  if (w->ci.len - ci_before > INT32_MAX || w->oi.len - oi_before > INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "parquet page index larger than 2 GiB");
  rec->ci_len = (uint32_t)(w->ci.len - ci_before);
  rec->oi_len = (uint32_t)(w->oi.len - oi_before);
  return HL_OK;
}

/* Writes chunk C's pages, appends its ColumnChunk head to w->meta and its
 * page index to w->ci/w->oi, and fills REC. */
static hl_status_t write_chunk(hl_parquet_writer_t *w, colw_t *c, chunkrec_t *rec,
                               int64_t *unc_total, hl_error_t *err) {
  hl_status_t st;
  int64_t chunk_start = (int64_t)w->pos;
  int64_t unc = c->unc_bytes, comp = (int64_t)c->pages.len;
  if (c->dict_used) {
    const uint8_t *payload = NULL;
    size_t plen = 0;
    if (c->dict_plain.len > INT32_MAX)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "parquet dictionary larger than 2 GiB");
    if ((st = compress_body(w, &c->dict_plain, &payload, &plen, err)) != HL_OK) return st;
    hl_pq_page_header_t ph;
    memset(&ph, 0, sizeof(ph));
    ph.type = HL_PQ_PAGE_DICTIONARY;
    ph.uncompressed_page_size = (int32_t)c->dict_plain.len;
    ph.compressed_page_size = (int32_t)plen;
    ph.has_dictionary_page_header = true;
    ph.dictionary_page_header.num_values = (int32_t)c->dict_n;
    ph.dictionary_page_header.encoding = HL_PQ_ENC_PLAIN;
    hl_buf_reset(&w->hdr);
    if ((st = hl_pq_page_header_encode(&ph, &w->hdr, err)) != HL_OK) return st;
    if ((st = out_write(w, w->hdr.data, w->hdr.len, err)) != HL_OK ||
        (st = out_write(w, payload, plen, err)) != HL_OK)
      return st;
    unc += (int64_t)(w->hdr.len + c->dict_plain.len);
    comp += (int64_t)(w->hdr.len + plen);
  }
  int64_t data_start = (int64_t)w->pos;
  if ((st = out_write(w, c->pages.data, c->pages.len, err)) != HL_OK) return st;

  hl_pq_column_meta_t m;
  hl_pq_encoding_t encs[4];
  hl_pq_page_enc_stats_t es[3];
  hl_pq_stats_t stats;
  memset(&m, 0, sizeof(m));
  int n_enc = 0, n_es = 0;
  if (c->dict_used) {
    encs[n_enc++] = HL_PQ_ENC_PLAIN; /* the dictionary page */
    encs[n_enc++] = HL_PQ_ENC_RLE_DICTIONARY;
    es[n_es++] = (hl_pq_page_enc_stats_t){HL_PQ_PAGE_DICTIONARY, HL_PQ_ENC_PLAIN, 1};
    es[n_es++] =
        (hl_pq_page_enc_stats_t){HL_PQ_PAGE_DATA, HL_PQ_ENC_RLE_DICTIONARY, c->n_dict_pages};
  }
  if (c->n_plain_pages > 0) {
    if (!c->dict_used) encs[n_enc++] = HL_PQ_ENC_PLAIN;
    es[n_es++] = (hl_pq_page_enc_stats_t){HL_PQ_PAGE_DATA, HL_PQ_ENC_PLAIN, c->n_plain_pages};
  }
  if (c->max_def > 0 || c->max_rep > 0) encs[n_enc++] = HL_PQ_ENC_RLE;
  m.type = c->ptype;
  m.n_encodings = n_enc;
  m.encodings = encs;
  m.n_path = c->leaf->n_path;
  m.path_in_schema = c->leaf->path;
  m.codec = w->opts.codec;
  m.num_values = c->chunk_values;
  m.total_uncompressed_size = unc;
  m.total_compressed_size = comp;
  m.data_page_offset = data_start;
  if (c->dict_used) {
    m.has_dictionary_page_offset = true;
    m.dictionary_page_offset = chunk_start;
  }
  if (chunk_statistics(w, c, &stats)) return hl_err_nomem(err);
  m.statistics = &stats;
  m.n_encoding_stats = n_es;
  m.encoding_stats = es;
  hl_pq_column_chunk_t cc;
  memset(&cc, 0, sizeof(cc));
  cc.file_offset = chunk_start;
  cc.meta_data = &m;
  *unc_total += unc;

  size_t before = w->meta.len;
  if ((st = hl_pq_column_chunk_encode_head(&cc, &w->meta, err)) != HL_OK) return st;
  if (w->meta.len - before > INT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "parquet column chunk metadata larger than 2 GiB");
  rec->head_len = (uint32_t)(w->meta.len - before);
  return chunk_page_index(w, c, data_start, rec, err);
}

static hl_status_t flush_row_group(hl_parquet_writer_t *w, hl_error_t *err) {
  hl_status_t st;
  if (w->rg_rows == 0) return HL_OK;
  for (int i = 0; i < w->n_leaves; i++)
    if ((st = flush_page(w, &w->cols[i], err)) != HL_OK) return st;
  if (w->n_rgs == w->cap_rgs) {
    int cap = w->cap_rgs ? w->cap_rgs * 2 : 4;
    chunkrec_t *r = hl_realloc(w->chunks, (size_t)cap * (size_t)w->n_leaves * sizeof(*r));
    if (!r) return hl_err_nomem(err);
    w->chunks = r;
    uint32_t *t = hl_realloc(w->rg_tails, (size_t)cap * sizeof(*t));
    if (!t) return hl_err_nomem(err);
    w->rg_tails = t;
    w->cap_rgs = cap;
  }
  chunkrec_t *recs = &w->chunks[(size_t)w->n_rgs * (size_t)w->n_leaves];
  int64_t start = (int64_t)w->pos, unc = 0;
  for (int i = 0; i < w->n_leaves; i++) {
    colw_t *c = &w->cols[i];
    if (c->chunk_rows != w->rg_rows)
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                        "parquet column \"%s\" has %lld rows in a row group of %lld",
                        c->leaf->path_str, (long long)c->chunk_rows, (long long)w->rg_rows);
    if ((st = write_chunk(w, c, &recs[i], &unc, err)) != HL_OK) return st;
    if ((st = colw_start_chunk(w, c, err)) != HL_OK) return st;
  }
  hl_pq_row_group_t rg;
  memset(&rg, 0, sizeof(rg));
  rg.n_columns = w->n_leaves;
  rg.total_byte_size = unc;
  rg.num_rows = w->rg_rows;
  rg.has_file_offset = true;
  rg.file_offset = start;
  rg.has_total_compressed_size = true;
  rg.total_compressed_size = (int64_t)w->pos - start;
  if (w->n_rgs <= INT16_MAX) {
    rg.has_ordinal = true;
    rg.ordinal = (int16_t)w->n_rgs;
  }
  size_t before = w->meta.len;
  if ((st = hl_pq_row_group_encode_tail(&rg, &w->meta, err)) != HL_OK) return st;
  w->rg_tails[w->n_rgs] = (uint32_t)(w->meta.len - before);
  w->n_rgs++;
  w->rg_rows = 0;
  return HL_OK;
}

/* ====================================================================
 * Public API
 * ==================================================================== */

static void writer_free(hl_parquet_writer_t *w) {
  if (!w) return;
  if (w->cols)
    for (int i = 0; i < w->n_leaves; i++)
      colw_fini(&w->cols[i]);
  hl_free(w->cols);
  hl_free(w->chunks);
  hl_free(w->rg_tails);
  hl_buf_fini(&w->meta);
  hl_buf_fini(&w->ci);
  hl_buf_fini(&w->oi);
  hl_buf_fini(&w->stats);
  hl_buf_fini(&w->body);
  hl_buf_fini(&w->comp);
  hl_buf_fini(&w->hdr);
  hl_arena_destroy(w->arena);
  hl_free(w);
}

hl_status_t hl_parquet_writer_open(hl_stor_t *fs, const char *path, int n_cols,
                                   const hl_type_t *const *types, const char *const *names,
                                   const hl_parquet_write_options_t *opts,
                                   hl_parquet_writer_t **out, hl_error_t *err) {
  *out = NULL;
  if (n_cols < 1)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "a parquet file needs at least one column");
  hl_parquet_writer_t *w = hl_calloc(1, sizeof(*w));
  if (!w) return hl_err_nomem(err);
  hl_status_t st = HL_OK;
  hl_buf_init(&w->body);
  hl_buf_init(&w->comp);
  hl_buf_init(&w->hdr);
  hl_buf_init(&w->stats);
  hl_buf_init(&w->meta);
  hl_buf_init(&w->ci);
  hl_buf_init(&w->oi);
  w->fs = fs;
  w->n_cols = n_cols;
  /* Small blocks: the arena holds only the schema (~6 KB for 15 columns),
   * and a write may keep thousands of files open (16 KB default blocks
   * cost 8 KB more a file). */
  if (!(w->arena = hl_arena_create(1024)) || !(w->path = hl_arena_strdup(w->arena, path))) {
    st = hl_err_nomem(err);
    goto fail;
  }
  if (opts)
    w->opts = *opts;
  else if ((st = hl_parquet_write_options_init(&w->opts, NULL, 0, err)) != HL_OK)
    goto fail;
  if (!hl_pq_codec_supported(w->opts.codec) || w->opts.codec == HL_PQ_LZO) {
    st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "parquet codec %d is not supported for writing", (int)w->opts.codec);
    goto fail;
  }
  if (w->opts.page_bytes == 0) w->opts.page_bytes = 1;
  if (w->opts.row_group_bytes == 0) w->opts.row_group_bytes = 1;

  if ((st = hl_pq_schema_from_hive(w->arena, n_cols, types, names, w->opts.int96_timestamps,
                                   &w->elems, &w->n_elems, err)) != HL_OK ||
      (st = hl_pq_schema_build(w->arena, w->elems, w->n_elems, &w->schema, err)) != HL_OK)
    goto fail;
  for (int f = 0; f < w->schema->n_fields; f++)
    if (w->schema->fields[f]->n_leaves < 1) {
      st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "parquet cannot store column \"%s\" (a struct without fields)",
                      w->schema->fields[f]->name);
      goto fail;
    }
  if (w->schema->n_fields != n_cols) {
    st = hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                    "parquet schema has %d fields for %d columns", w->schema->n_fields, n_cols);
    goto fail;
  }
  w->n_leaves = w->schema->n_leaves;
  if (!(w->cols = hl_calloc((size_t)w->n_leaves, sizeof(colw_t)))) {
    w->n_leaves = 0;
    st = hl_err_nomem(err);
    goto fail;
  }
  for (int f = 0; f < n_cols; f++)
    bind_types(w->cols, w->n_leaves, w->schema->fields[f], types[f]);
  for (int i = 0; i < w->n_leaves; i++)
    if ((st = colw_init(w, &w->cols[i], &w->schema->leaves[i], err)) != HL_OK) goto fail;

  if ((st = fs->ops->create(fs, path, &w->file, err)) != HL_OK) goto fail;
  if ((st = out_write(w, "PAR1", 4, err)) != HL_OK) {
    hl_error_t ignore;
    hl_err_init(&ignore);
    fs->ops->close(w->file, &ignore);
    fs->ops->remove(fs, path, &ignore);
    hl_err_clear(&ignore);
    w->file = NULL;
    goto fail;
  }
  *out = w;
  return HL_OK;
fail:
  writer_free(w);
  return st;
}

/* Rows to take next so the row group ends close to row_group_bytes. */
static uint32_t slice_rows(hl_parquet_writer_t *w, uint32_t left, uint64_t est) {
  uint64_t n;
  if (w->rg_rows == 0 || est == 0) {
    n = 8;
  } else {
    uint64_t per_row = est / (uint64_t)w->rg_rows;
    if (per_row == 0) per_row = 1;
    n = est >= w->opts.row_group_bytes ? 1 : (w->opts.row_group_bytes - est) / per_row;
    if (n == 0) n = 1;
  }
  return n < left ? (uint32_t)n : left;
}

static hl_status_t write_rows(hl_parquet_writer_t *w, const hl_batch_t *batch, uint32_t from,
                              uint32_t to, hl_error_t *err) {
  hl_status_t st;
  for (int f = 0; f < w->n_cols; f++) {
    const hl_pq_node_t *node = w->schema->fields[f];
    const hl_vec_t *vec = &batch->cols[f];
    int first = node->first_leaf, last = node->first_leaf + node->n_leaves;
    for (uint32_t i = from; i < to; i++) {
      uint32_t row = hl_batch_row(batch, i);
      if (node->kind == HL_PQ_NODE_PRIMITIVE) {
        colw_t *c = &w->cols[first];
        if (hl_vec_is_null(vec, row)) {
          st = put_null(c, 0, 0, err);
        } else {
          hl_value_t v;
          hl_vec_get_value(vec, row, &v);
          st = put_value(w, c, 0, c->max_def, &v, err);
        }
      } else {
        const hl_value_t *v = hl_vec_is_null(vec, row) ? NULL : HL_VEC_VALUE(vec)[row];
        st = shred(w, node, v, 0, err);
      }
      if (st != HL_OK) return st;
      for (int l = first; l < last; l++) {
        colw_t *c = &w->cols[l];
        if (c->page_rows >= PAGE_ROW_LIMIT || page_estimate(c) >= w->opts.page_bytes)
          if ((st = flush_page(w, c, err)) != HL_OK) return st;
      }
    }
  }
  return HL_OK;
}

hl_status_t hl_parquet_writer_write(hl_parquet_writer_t *w, const hl_batch_t *batch,
                                    hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                      "parquet writer for \"%s\" failed earlier", w->path);
  if (batch->n_cols < w->n_cols)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR),
                      "batch has %d columns, parquet writer needs %d", batch->n_cols, w->n_cols);
  uint32_t live = hl_batch_live(batch), done = 0;
  hl_status_t st = HL_OK;
  uint64_t est = row_group_estimate(w);
  while (done < live) {
    uint32_t n = slice_rows(w, live - done, est);
    if ((st = write_rows(w, batch, done, done + n, err)) != HL_OK) break;
    done += n;
    w->rg_rows += n;
    w->total_rows += n;
    est = row_group_estimate(w);
    if (est >= w->opts.row_group_bytes) {
      if ((st = flush_row_group(w, err)) != HL_OK) break;
      est = 0;
    }
  }
  if (st != HL_OK) {
    w->failed = true;
    hl_err_prefix(err, "cannot write \"%s\"", w->path);
  }
  return st;
}

static hl_status_t write_footer(hl_parquet_writer_t *w, hl_error_t *err) {
  hl_status_t st;
  hl_buf_t *buf = &w->hdr;
  /* Page index: every ColumnIndex, then every OffsetIndex (PageIndex.md),
   * each already in row group and column order. */
  int64_t ci_pos = (int64_t)w->pos;
  if ((st = out_write(w, w->ci.data, w->ci.len, err)) != HL_OK) return st;
  int64_t oi_pos = (int64_t)w->pos;
  if ((st = out_write(w, w->oi.data, w->oi.len, err)) != HL_OK) return st;

  hl_pq_file_meta_t fm;
  memset(&fm, 0, sizeof(fm));
  fm.version = 1;
  fm.n_schema = w->n_elems;
  fm.schema = w->elems;
  fm.num_rows = w->total_rows;
  fm.n_row_groups = w->n_rgs;
  fm.created_by = (char *)CREATED_BY;
  fm.n_column_orders = w->n_leaves;
  fm.column_orders = hl_arena_alloc(w->arena, (size_t)w->n_leaves * sizeof(hl_pq_column_order_t));
  if (!fm.column_orders) return hl_err_nomem(err);
  for (int i = 0; i < w->n_leaves; i++)
    fm.column_orders[i] = HL_PQ_ORDER_TYPE_DEFINED;
  hl_buf_reset(buf);
  if ((st = hl_pq_file_meta_encode_head(&fm, buf, err)) != HL_OK) return st;
  /* Every row group from its bytes (pq_meta.h, "FileMetaData in pieces"):
   * the chunks' heads as flushed, the page-index locations only known now. */
  hl_pq_row_group_t rg;
  memset(&rg, 0, sizeof(rg));
  rg.n_columns = w->n_leaves;
  hl_pq_column_meta_t had_meta; /* the heads wrote meta_data: all the tails need to know */
  hl_pq_column_chunk_t cc;
  memset(&cc, 0, sizeof(cc));
  cc.meta_data = &had_meta;
  cc.has_offset_index_offset = cc.has_offset_index_length = true;
  const char *meta = w->meta.data;
  const chunkrec_t *rec = w->chunks;
  for (int r = 0; r < w->n_rgs; r++) {
    if ((st = hl_pq_row_group_encode_head(&rg, buf, err)) != HL_OK) return st;
    for (int i = 0; i < w->n_leaves; i++, rec++) {
      hl_buf_append(buf, meta, rec->head_len);
      meta += rec->head_len;
      cc.has_column_index_offset = cc.has_column_index_length = rec->ci_len > 0;
      cc.column_index_offset = ci_pos;
      cc.column_index_length = (int32_t)rec->ci_len;
      cc.offset_index_offset = oi_pos;
      cc.offset_index_length = (int32_t)rec->oi_len;
      ci_pos += rec->ci_len;
      oi_pos += rec->oi_len;
      if ((st = hl_pq_column_chunk_encode_tail(&cc, buf, err)) != HL_OK) return st;
    }
    hl_buf_append(buf, meta, w->rg_tails[r]);
    meta += w->rg_tails[r];
  }
  if ((st = hl_pq_file_meta_encode_tail(&fm, buf, err)) != HL_OK) return st;
  if (buf->len > UINT32_MAX)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "parquet footer larger than 4 GiB");
  uint32_t len = (uint32_t)buf->len;
  uint8_t tail[8];
  memcpy(tail, &len, 4);
  memcpy(tail + 4, "PAR1", 4);
  if ((st = out_write(w, buf->data, buf->len, err)) != HL_OK) return st;
  return out_write(w, tail, 8, err);
}

hl_status_t hl_parquet_writer_close(hl_parquet_writer_t *w, uint64_t *rows, uint64_t *bytes,
                                    hl_error_t *err) {
  if (!w) return HL_OK;
  hl_status_t st = HL_OK;
  if (w->failed)
    st = hl_err_set(err, HL_MISUSE, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                    "parquet writer for \"%s\" failed earlier", w->path);
  if (st == HL_OK) st = flush_row_group(w, err);
  if (st == HL_OK) st = write_footer(w, err);
  if (st == HL_OK) st = w->fs->ops->sync(w->file, err);
  hl_error_t cerr;
  hl_err_init(&cerr);
  hl_status_t cst = w->fs->ops->close(w->file, &cerr);
  if (st == HL_OK && cst != HL_OK) {
    hl_err_move(err, &cerr);
    st = cst;
  }
  hl_err_clear(&cerr);
  if (st != HL_OK && !w->failed) hl_err_prefix(err, "cannot write \"%s\"", w->path);
  if (st == HL_OK) {
    if (rows) *rows = (uint64_t)w->total_rows;
    if (bytes) *bytes = w->pos;
  }
  writer_free(w);
  return st;
}

hl_status_t hl_parquet_writer_flush(hl_parquet_writer_t *w, hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                      "parquet writer for \"%s\" failed earlier", w->path);
  hl_status_t st = flush_row_group(w, err);
  if (st != HL_OK) {
    w->failed = true;
    hl_err_prefix(err, "cannot write \"%s\"", w->path);
    return st;
  }
  /* the next row group starts from empty buffers: what the caller wants
   * back is their capacity (every grow path starts from zero) */
  for (int i = 0; i < w->n_leaves; i++) {
    colw_t *c = &w->cols[i];
    hl_free(c->defs);
    hl_free(c->reps);
    hl_free(c->idx);
    c->defs = c->reps = NULL;
    c->idx = NULL;
    c->cap_levels = c->cap_idx = 0;
    hl_buf_fini(&c->plain);
    hl_buf_fini(&c->dict_plain);
    hl_buf_fini(&c->pages);
    hl_free(c->dict_slots);
    c->dict_slots = NULL;
    c->dict_cap = 0;
    hl_free(c->dict_offs);
    c->dict_offs = NULL;
    c->cap_offs = 0;
    hl_free(c->pinfo);
    c->pinfo = NULL;
    c->cap_pages = 0;
    hl_buf_fini(&c->bounds);
  }
  hl_buf_fini(&w->stats);
  hl_buf_fini(&w->body);
  hl_buf_fini(&w->comp);
  hl_buf_fini(&w->hdr);
  return HL_OK;
}

uint64_t hl_parquet_writer_mem(const hl_parquet_writer_t *w) {
  uint64_t n = sizeof *w + w->body.cap + w->comp.cap + w->hdr.cap + hl_arena_reserved(w->arena);
  n += w->stats.cap + hl_parquet_writer_footer_mem(w);
  for (int i = 0; i < w->n_leaves; i++) {
    const colw_t *c = &w->cols[i];
    n += sizeof *c + c->cap_levels * 2 * sizeof(int16_t) + c->cap_idx * sizeof(uint32_t);
    n += c->plain.cap + c->dict_cap * sizeof(uint64_t) + c->dict_plain.cap;
    n += c->cap_offs * sizeof(uint32_t) + c->pages.cap + c->cap_pages * sizeof(pageinfo_t);
    n += c->bounds.cap;
    n += c->page_stat.smin.cap + c->page_stat.smax.cap + c->chunk_stat.smin.cap +
         c->chunk_stat.smax.cap + c->prev_bounds.smin.cap + c->prev_bounds.smax.cap;
  }
  return n;
}

uint64_t hl_parquet_writer_footer_mem(const hl_parquet_writer_t *w) {
  uint64_t n = w->meta.cap + w->ci.cap + w->oi.cap;
  return n + (uint64_t)w->cap_rgs * ((uint64_t)w->n_leaves * sizeof(chunkrec_t) + sizeof(uint32_t));
}

void hl_parquet_writer_abort(hl_parquet_writer_t *w) {
  if (!w) return;
  hl_error_t ignore;
  hl_err_init(&ignore);
  w->fs->ops->close(w->file, &ignore);
  hl_err_clear(&ignore);
  writer_free(w);
}
