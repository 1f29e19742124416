/*
 * orc_reader.c -- the ORC reader: schema binding, stripes, batches.
 *
 * open:  tail (orc_tail.c) -> bind each projected table column to a file
 *        field (by name ignoring case; by position for Hive's _colN names)
 *        building an hl_orc_col_t tree of only the columns needed.
 * next:  for a new stripe, read and unpack its footer, place the needed
 *        streams (PRESENT, DATA, LENGTH, SECONDARY, DICTIONARY_DATA of the
 *        bound columns; index streams are never read), read their byte
 *        ranges coalesced, start the decoders; then decode up to
 *        HL_BATCH_CAP rows per call into the batch.
 * Memory: the tail and bindings in the reader arena; a stripe's bytes,
 * footer and dictionaries in the stripe arena (reset per stripe, so a
 * batch stays valid until the next call); values in the batch arena.
 */
#include "format/orc/orc.h"

#include "format/orc/orc_column.h"
#include "format/orc/orc_int.h"
#include "util/mem.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Stream byte ranges closer than this are read in one request. */
#define COALESCE_GAP (1024 * 1024)

struct hl_orc_reader {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  const char *path;
  hl_arena_t *arena;        /* tail, bindings */
  hl_arena_t *stripe_arena; /* one stripe's bytes, footer, dictionaries */
  hl_orc_tail_t tail;
  bool empty; /* 0-byte file */
  int n_cols;
  hl_orc_col_t **cols;  /* per table column; NULL: reads NULL */
  hl_orc_col_t **by_id; /* per file column id; NULL: not read */
  size_t next_stripe;   /* index of the next stripe to start */
  bool in_stripe;
  uint64_t stripe_rows, stripe_row;
  uint64_t stripes_read;
  bool any_bound;    /* some column is read (else rows are only counted) */
  char *tz_name;     /* writer zone of the last stripe (reader arena) */
  const hl_tz_t *tz; /* its offsets, NULL for UTC */
  bool failed;
  const hl_type_t *const *types; /* table types (borrowed) */
  const hl_scan_pred_t *preds;   /* pushed predicates (borrowed) */
  int n_preds;
};

static hl_status_t name_err(const hl_orc_reader_t *r, hl_status_t st, hl_error_t *err) {
  if (st == HL_OK || st == HL_NOMEM || !err->message) return st;
  if (strncmp(err->message, "cannot read \"", 13) != 0)
    hl_err_prefix(err, "cannot read \"%s\"", r->path);
  return st;
}

/* ------------------------------------------------------------ binding */

static bool int_kind(hl_type_id_t id) {
  return id == HL_T_TINYINT || id == HL_T_SMALLINT || id == HL_T_INT || id == HL_T_BIGINT;
}

static bool bytes_kind(hl_type_id_t id) {
  return id == HL_T_STRING || id == HL_T_VARCHAR || id == HL_T_CHAR || id == HL_T_BINARY;
}

/* Whether file type FT may be read as table type TT. */
static bool compatible(const hl_type_t *ft, const hl_type_t *tt, bool typeless_decimal) {
  if (ft->id == tt->id) {
    if (ft->id == HL_T_UNION) return ft->n_children == tt->n_children; /* tags by position */
    if (ft->id == HL_T_DECIMAL && !typeless_decimal)
      return ft->scale == tt->scale && tt->precision >= ft->precision;
    return true;
  }
  if (int_kind(ft->id) && int_kind(tt->id)) return tt->id >= ft->id; /* enum order = width */
  if (ft->id == HL_T_FLOAT && tt->id == HL_T_DOUBLE) return true;
  return bytes_kind(ft->id) && bytes_kind(tt->id);
}

/* The table column name that failed (for messages). */
typedef struct bind_ctx {
  hl_orc_reader_t *r;
  hl_error_t *err;
  const char *column;
} bind_ctx_t;

static int find_field(const Orcpb__Type *st, const char *name) {
  for (size_t k = 0; k < st->n_field_names; k++)
    if (strcasecmp(st->field_names[k], name) == 0) return (int)k;
  return -1;
}

/* The file's top-level fields: the root struct's, or the root itself as
 * "_col0" when a (non-Hive) writer made a non-struct root. */
static bool root_is_struct(const Orcpb__Type *root) {
  return root->kind == ORCPB__TYPE__KIND__STRUCT;
}
static int root_n_fields(const Orcpb__Type *root) {
  return root_is_struct(root) ? (int)root->n_subtypes : 1;
}
static uint32_t root_field_id(const Orcpb__Type *root, int k) {
  return root_is_struct(root) ? root->subtypes[k] : 0;
}
static const char *root_field_name(const Orcpb__Type *root, int k) {
  return root_is_struct(root) ? root->field_names[k] : "_col0";
}

static hl_status_t bind(bind_ctx_t *b, uint32_t id, const hl_type_t *tt, hl_orc_col_t **out) {
  hl_orc_reader_t *r = b->r;
  const Orcpb__Type *ty = r->tail.footer->types[id];
  hl_type_t *ft;
  hl_status_t st = hl_orc_hive_type(&r->tail, id, r->arena, &ft, b->err);
  if (st == HL_UNSUPPORTED) {
    char *msg = hl_arena_strdup(r->arena, b->err->message);
    hl_err_clear(b->err);
    return hl_err_set(b->err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": column \"%s\": %s", r->path, b->column,
                      msg ? msg : "unsupported type");
  }
  if (st != HL_OK) return st;
  bool typeless = ty->kind == ORCPB__TYPE__KIND__DECIMAL && ty->precision == 0;
  if (!compatible(ft, tt, typeless)) {
    char *fs = hl_type_to_string(r->arena, ft), *ts = hl_type_to_string(r->arena, tt);
    return hl_err_set(b->err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "cannot read \"%s\": column \"%s\" has type %s in the file, which cannot be "
                      "read as %s",
                      r->path, b->column, fs ? fs : "?", ts ? ts : "?");
  }
  hl_orc_col_t *c = hl_arena_zalloc(r->arena, sizeof *c);
  if (!c) return hl_err_nomem(b->err);
  c->id = id;
  c->kind = ty->kind;
  c->type = tt;
  /* ORC 2.0 pre-release files (PostScript version 1.9999) keep decimals of
   * precision <= 18 as plain integers */
  c->decimal64 = ty->kind == ORCPB__TYPE__KIND__DECIMAL && r->tail.version[0] == 1 &&
                 r->tail.version[1] == 9999 && ty->precision > 0 && ty->precision <= 18;
  c->file_scale = (int)ty->scale;
  if ((tt->id == HL_T_VARCHAR || tt->id == HL_T_CHAR) && tt->length > 0)
    c->trunc_chars = (uint32_t)tt->length;
  /* ORC's writers pad CHAR; a STRING or VARCHAR file column read as CHAR
   * is padded here, as Hive does */
  c->pad_chars = tt->id == HL_T_CHAR && tt->length > 0;
  r->by_id[id] = c;
  if (ty->kind == ORCPB__TYPE__KIND__STRUCT) {
    c->n_kids = tt->n_children;
    c->kids = hl_arena_zalloc(r->arena, sizeof(hl_orc_col_t *) * (size_t)(c->n_kids + 1));
    if (!c->kids) return hl_err_nomem(b->err);
    for (int f = 0; f < tt->n_children; f++) {
      int k = find_field(ty, tt->field_names[f]);
      if (k < 0) continue; /* not in the file: NULL */
      if ((st = bind(b, ty->subtypes[k], tt->children[f], &c->kids[f])) != HL_OK) return st;
    }
  } else if (ty->kind == ORCPB__TYPE__KIND__LIST || ty->kind == ORCPB__TYPE__KIND__MAP ||
             ty->kind == ORCPB__TYPE__KIND__UNION) {
    /* a union reads every variant: any row may take any tag */
    c->n_kids = (int)ty->n_subtypes;
    c->kids = hl_arena_zalloc(r->arena, sizeof(hl_orc_col_t *) * (size_t)(c->n_kids + 1));
    if (!c->kids) return hl_err_nomem(b->err);
    for (int k = 0; k < c->n_kids; k++)
      if ((st = bind(b, ty->subtypes[k], tt->children[k], &c->kids[k])) != HL_OK) return st;
  }
  *out = c;
  return HL_OK;
}

/* Hive wrote _col0, _col1, ... before it kept real names in ORC files. */
static bool positional_names(const Orcpb__Type *root) {
  int n = root_n_fields(root);
  if (n == 0) return false;
  for (int k = 0; k < n; k++) {
    char want[32];
    snprintf(want, sizeof want, "_col%d", k);
    if (strcmp(root_field_name(root, k), want) != 0) return false;
  }
  return true;
}

/* Hive ACID (transactional) files wrap the rows in an event struct:
 * operation, originalTransaction, bucket, rowId, currentTransaction, row. */
static bool acid_layout(const Orcpb__Type *root) {
  static const char *const fields[] = {"operation", "originalTransaction", "bucket",
                                       "rowId",     "currentTransaction",  "row"};
  if (!root_is_struct(root) || root->n_field_names != 6) return false;
  for (size_t k = 0; k < 6; k++)
    if (strcmp(root->field_names[k], fields[k]) != 0) return false;
  return true;
}

static hl_status_t bind_all(hl_orc_reader_t *r, const hl_type_t *const *types,
                            const char *const *names, const bool *projected, hl_error_t *err) {
  const Orcpb__Type *root = r->tail.footer->types[0];
  if (acid_layout(root) && r->n_cols > 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": Hive ACID (transactional) ORC files are not supported",
                      r->path);
  bool by_pos = positional_names(root);
  for (int i = 0; i < r->n_cols; i++) {
    if (projected && !projected[i]) continue;
    int k = -1;
    if (by_pos)
      k = i < root_n_fields(root) ? i : -1;
    else if (root_is_struct(root))
      k = find_field(root, names[i]);
    else if (strcasecmp(names[i], "_col0") == 0)
      k = 0;
    if (k < 0) continue;
    bind_ctx_t b = {r, err, names[i]};
    hl_status_t st = bind(&b, root_field_id(root, k), types[i], &r->cols[i]);
    if (st != HL_OK) return st;
    r->any_bound = true;
  }
  return HL_OK;
}

/* ------------------------------------------------------------ stripes */

typedef struct want_stream {
  uint64_t off, len;
  hl_orc_stream_t *s;
} want_stream_t;

/* The streams a bound column reads, in Stream.Kind order. */
static const struct {
  int kind;
  const char *name;
} stream_kinds[] = {{ORCPB__STREAM__KIND__PRESENT, "PRESENT"},
                    {ORCPB__STREAM__KIND__DATA, "DATA"},
                    {ORCPB__STREAM__KIND__LENGTH, "LENGTH"},
                    {ORCPB__STREAM__KIND__DICTIONARY_DATA, "DICTIONARY_DATA"},
                    {ORCPB__STREAM__KIND__SECONDARY, "SECONDARY"}};

static hl_orc_stream_t *stream_slot(hl_orc_col_t *c, int kind) {
  switch (kind) {
  case ORCPB__STREAM__KIND__PRESENT:
    return &c->present_s;
  case ORCPB__STREAM__KIND__DATA:
    return &c->data_s;
  case ORCPB__STREAM__KIND__LENGTH:
    return &c->length_s;
  case ORCPB__STREAM__KIND__SECONDARY:
    return &c->secondary_s;
  case ORCPB__STREAM__KIND__DICTIONARY_DATA:
    return &c->dict_s;
  default:
    return NULL;
  }
}

/* Marks every stream of the bound columns absent and names it for
 * messages ("DATA stream of column 3"). */
static hl_status_t clear_streams(hl_orc_reader_t *r, hl_error_t *err) {
  size_t n = r->tail.footer->n_types;
  for (size_t id = 0; id < n; id++) {
    hl_orc_col_t *c = r->by_id[id];
    if (!c) continue;
    for (size_t j = 0; j < sizeof stream_kinds / sizeof stream_kinds[0]; j++) {
      hl_orc_stream_t *s = stream_slot(c, stream_kinds[j].kind);
      hl_orc_stream_init(s, NULL, 0, r->tail.codec, r->tail.block, r->stripe_arena, err);
      s->name =
          hl_arena_sprintf(r->stripe_arena, "%s stream of column %zu", stream_kinds[j].name, id);
      if (!s->name) return hl_err_nomem(err);
    }
  }
  return HL_OK;
}

static hl_status_t start_stripe(hl_orc_reader_t *r, const Orcpb__StripeInformation *si,
                                hl_error_t *err) {
  hl_arena_reset(r->stripe_arena);
  hl_status_t st;
  uint64_t body = si->index_length + si->data_length; /* no overflow: checked in the tail */
  uint64_t span = body + si->footer_length;
  if (si->number_of_rows > (span << 20))
    return hl_orc_corrupt(err, "stripe claims %llu rows in %llu bytes",
                          (unsigned long long)si->number_of_rows, (unsigned long long)span);
  r->stripe_rows = si->number_of_rows;
  r->stripe_row = 0;
  r->in_stripe = true;
  r->stripes_read++;
  if (!r->any_bound) return HL_OK; /* only rows are counted */
  uint8_t *raw = hl_arena_alloc(r->stripe_arena, (size_t)si->footer_length);
  if (!raw) return hl_err_nomem(err);
  size_t got = 0;
  st = r->fs->ops->read_at(r->file, si->offset + body, raw, (size_t)si->footer_length, &got, err);
  if (st != HL_OK) return st;
  if (got != si->footer_length) return hl_orc_corrupt(err, "file is truncated");
  uint8_t *plain;
  size_t plain_len;
  st = hl_orc_section(&r->tail, raw, (size_t)si->footer_length, r->stripe_arena, &plain, &plain_len,
                      err);
  if (st != HL_OK) return st;
  ProtobufCAllocator pa;
  hl_orc_pb_allocator(&pa, r->stripe_arena);
  Orcpb__StripeFooter *sf = orcpb__stripe_footer__unpack(&pa, plain_len, plain);
  if (!sf) return hl_orc_corrupt(err, "bad stripe footer");
  size_t n_types = r->tail.footer->n_types;
  want_stream_t *want =
      hl_arena_alloc(r->stripe_arena, sizeof(want_stream_t) * (sf->n_streams + 1));
  if (!want) return hl_err_nomem(err);
  size_t n_want = 0;
  uint64_t off = si->offset, end = si->offset + body;
  for (size_t i = 0; i < sf->n_streams; i++) {
    const Orcpb__Stream *s = sf->streams[i];
    if (s->length > end - off) return hl_orc_corrupt(err, "stream %zu lies outside its stripe", i);
    uint64_t at = off;
    off += s->length;
    if (s->column >= n_types || !r->by_id[s->column] || s->length == 0) continue;
    hl_orc_stream_t *slot = stream_slot(r->by_id[s->column], s->kind);
    if (!slot) continue;
    want[n_want++] = (want_stream_t){at, s->length, slot};
  }
  if ((st = clear_streams(r, err)) != HL_OK) return st;
  const char *zone = sf->writer_timezone ? sf->writer_timezone : "";
  if (!r->tz_name || strcmp(r->tz_name, zone) != 0) {
    if (!(r->tz_name = hl_arena_strdup(r->arena, zone))) return hl_err_nomem(err);
    if ((st = hl_tz_load(zone, r->arena, &r->tz, err)) != HL_OK) return st;
  }
  const hl_tz_t *tz = r->tz;
  /* read the wanted ranges, merging near neighbours (streams are in file
   * order, so sorting is not needed; overlapping data is not possible) */
  for (size_t i = 0; i < n_want;) {
    size_t j = i + 1;
    uint64_t lo = want[i].off, hi = want[i].off + want[i].len;
    while (j < n_want && want[j].off >= hi && want[j].off - hi <= COALESCE_GAP) {
      hi = want[j].off + want[j].len;
      j++;
    }
    uint8_t *buf = hl_arena_alloc(r->stripe_arena, (size_t)(hi - lo));
    if (!buf) return hl_err_nomem(err);
    st = r->fs->ops->read_at(r->file, lo, buf, (size_t)(hi - lo), &got, err);
    if (st != HL_OK) return st;
    if (got != hi - lo) return hl_orc_corrupt(err, "file is truncated");
    for (size_t k = i; k < j; k++) {
      const char *name = want[k].s->name;
      hl_orc_stream_init(want[k].s, buf + (want[k].off - lo), (size_t)want[k].len, r->tail.codec,
                         r->tail.block, r->stripe_arena, err);
      want[k].s->name = name;
    }
    i = j;
  }
  for (int i = 0; i < r->n_cols; i++)
    if (r->cols[i] && (st = hl_orc_col_start(r->cols[i], sf, tz, r->stripe_arena, err)) != HL_OK)
      return st;
  return HL_OK;
}

/* --------------------------------------------------------- statistics */

/* Bounds of column C in stripe statistics S as values of the table type;
 * false when unknown or unusable. */
static bool stat_bounds(const hl_orc_reader_t *r, const hl_orc_col_t *c,
                        const Orcpb__ColumnStats *s, hl_value_t *mn, hl_value_t *mx) {
  memset(mn, 0, sizeof *mn);
  memset(mx, 0, sizeof *mx);
  switch (c->kind) {
  case ORCPB__TYPE__KIND__BYTE:
  case ORCPB__TYPE__KIND__SHORT:
  case ORCPB__TYPE__KIND__INT:
  case ORCPB__TYPE__KIND__LONG:
    if (!s->int_stats || !s->int_stats->has_minimum || !s->int_stats->has_maximum) return false;
    mn->u.i = s->int_stats->minimum;
    mx->u.i = s->int_stats->maximum;
    return hl_type_is_integer(c->type);
  case ORCPB__TYPE__KIND__DATE:
    if (!s->date_stats || !s->date_stats->has_minimum || !s->date_stats->has_maximum) return false;
    mn->u.i = s->date_stats->minimum;
    mx->u.i = s->date_stats->maximum;
    return c->type->id == HL_T_DATE;
  case ORCPB__TYPE__KIND__STRING:
    /* writers before HIVE-8732 merged string statistics wrongly; a NUL
     * byte would cut protobuf-c's C string short */
    if (r->tail.writer_version < 2 || c->type->id != HL_T_STRING || !s->string_stats ||
        !s->string_stats->minimum || !s->string_stats->maximum)
      return false;
    mn->u.s.ptr = s->string_stats->minimum;
    mn->u.s.len = (uint32_t)strlen(mn->u.s.ptr);
    mx->u.s.ptr = s->string_stats->maximum;
    mx->u.s.len = (uint32_t)strlen(mx->u.s.ptr);
    return s->string_stats->has_sum && s->string_stats->sum >= 0;
  default:
    return false; /* floats (NaN), decimals, timestamps (zones): not used */
  }
}

/* True when stripe IDX cannot hold a row satisfying every pushed predicate. */
static bool stripe_excluded(const hl_orc_reader_t *r, size_t idx) {
  const Orcpb__Metadata *m = r->tail.metadata;
  if (!m || idx >= m->n_stripe_stats) return false;
  const Orcpb__StripeStatistics *ss = m->stripe_stats[idx];
  uint64_t rows = r->tail.footer->stripes[idx]->number_of_rows;
  for (int i = 0; i < r->n_preds; i++) {
    const hl_scan_pred_t *p = &r->preds[i];
    if (p->col < 0 || p->col >= r->n_cols || !r->cols[p->col]) continue;
    const hl_orc_col_t *c = r->cols[p->col];
    if (c->id >= ss->n_col_stats) continue;
    const Orcpb__ColumnStats *s = ss->col_stats[c->id];
    /* ORC counts the non-NULL values; has_null came later */
    int64_t nulls = -1;
    if (s->has_number_of_values && s->number_of_values <= rows)
      nulls = (int64_t)(rows - s->number_of_values);
    else if (s->has_has_null && !s->has_null)
      nulls = 0;
    hl_value_t mn, mx;
    bool has = stat_bounds(r, c, s, &mn, &mx);
    if (hl_scan_pred_excludes(p, r->types[p->col], has, &mn, &mx, nulls, (int64_t)rows, false,
                              false))
      return true;
  }
  return false;
}

/* ------------------------------------------------------ chunk metadata */

/* Stripe IDX's answer for column I (chunk_meta.h); false: none. */
static bool stripe_meta(const hl_orc_reader_t *r, size_t idx, int i, bool values,
                        hl_chunk_meta_t *out) {
  const Orcpb__Metadata *m = r->tail.metadata;
  uint64_t rows = r->tail.footer->stripes[idx]->number_of_rows;
  memset(out, 0, sizeof *out);
  if (rows > INT64_MAX) return false;
  const hl_orc_col_t *c = r->cols[i];
  if (!c) { /* the file lacks the column: NULL */
    out->nulls = (int64_t)rows;
    return true;
  }
  if (!m || m->n_stripe_stats != r->tail.footer->n_stripes) return false;
  const Orcpb__StripeStatistics *ss = m->stripe_stats[idx];
  if (c->id >= ss->n_col_stats) return false;
  const Orcpb__ColumnStats *st = ss->col_stats[c->id];
  /* ORC counts the non-NULL values */
  if (!st->has_number_of_values || st->number_of_values > rows) return false;
  out->values = (int64_t)st->number_of_values;
  out->nulls = (int64_t)(rows - st->number_of_values);
  if (!out->values || !values) return true;
  hl_value_t mn, mx;
  if (c->trunc_chars || c->pad_chars || !stat_bounds(r, c, st, &mn, &mx)) return false;
  if (hl_value_compare(c->type, &mn, &mx) != 0) return false; /* stat_bounds: ints, dates, STRING */
  out->value = mn;
  out->value.is_null = false;
  return true;
}

bool hl_orc_reader_meta(hl_orc_reader_t *r, int col, bool values, hl_chunk_meta_t *out) {
  if (col < 0 || col >= r->n_cols) return false;
  if (r->empty) return true; /* no stripes */
  if (!r->tail.metadata) {   /* read only when predicates were pushed */
    hl_error_t merr;
    hl_err_init(&merr);
    if (hl_orc_metadata_read(r->fs, r->file, r->arena, &r->tail, &merr) != HL_OK)
      r->tail.metadata = NULL;
    hl_err_clear(&merr);
  }
  for (size_t k = 0; k < r->tail.footer->n_stripes; k++)
    if (!stripe_meta(r, k, col, values, &out[k])) return false;
  return true;
}

static void unbind(hl_orc_reader_t *r, const hl_orc_col_t *c) {
  if (!c) return;
  r->by_id[c->id] = NULL;
  for (int k = 0; k < c->n_kids; k++)
    unbind(r, c->kids[k]);
}

void hl_orc_reader_skip(hl_orc_reader_t *r, int col) {
  if (col < 0 || col >= r->n_cols || !r->cols[col]) return;
  unbind(r, r->cols[col]);
  r->cols[col] = NULL;
  r->any_bound = false;
  for (int i = 0; i < r->n_cols; i++)
    r->any_bound = r->any_bound || r->cols[i];
}

size_t hl_orc_reader_n_stripes(const hl_orc_reader_t *r) {
  return r->empty || !r->tail.footer ? 0 : r->tail.footer->n_stripes;
}

/* --------------------------------------------------------------- API */

static hl_status_t open_tail(hl_stor_t *fs, const char *path, hl_orc_reader_t *r, hl_error_t *err) {
  hl_status_t st = fs->ops->open_read(fs, path, &r->file, err);
  if (st != HL_OK) return st;
  uint64_t size = fs->ops->file_size(r->file);
  if (size == 0) { /* Hive's empty bucket files */
    r->empty = true;
    return HL_OK;
  }
  return hl_orc_tail_read(fs, r->file, size, r->arena, &r->tail, err);
}

hl_status_t hl_orc_reader_open(hl_stor_t *fs, const char *path, int n_cols,
                               const hl_type_t *const *types, const char *const *names,
                               const bool *projected, const hl_scan_pred_t *preds, int n_preds,
                               hl_orc_reader_t **out, hl_error_t *err) {
  *out = NULL;
  hl_orc_reader_t *r = hl_calloc(1, sizeof *r);
  if (!r) return hl_err_nomem(err);
  r->fs = fs;
  r->types = types;
  r->preds = preds;
  r->n_preds = preds ? n_preds : 0;
  r->n_cols = n_cols;
  r->arena = hl_arena_create(0);
  r->stripe_arena = hl_arena_create(0);
  r->path = r->arena ? hl_arena_strdup(r->arena, path) : NULL;
  hl_status_t st = HL_OK;
  if (!r->stripe_arena || !r->path) {
    st = hl_err_nomem(err);
    goto fail;
  }
  r->cols = hl_arena_zalloc(r->arena, sizeof(hl_orc_col_t *) * (size_t)(n_cols + 1));
  if (!r->cols) {
    st = hl_err_nomem(err);
    goto fail;
  }
  if ((st = open_tail(fs, path, r, err)) != HL_OK || r->empty) goto done;
  r->by_id = hl_arena_zalloc(r->arena, sizeof(hl_orc_col_t *) * r->tail.footer->n_types);
  if (!r->by_id) {
    st = hl_err_nomem(err);
    goto fail;
  }
  st = bind_all(r, types, names, projected, err);
  if (st == HL_OK && r->n_preds > 0) {
    /* statistics only help: a damaged Metadata section is not an error
     * here (the stripes themselves are checked when read) */
    hl_error_t merr;
    hl_err_init(&merr);
    if (hl_orc_metadata_read(fs, r->file, r->arena, &r->tail, &merr) != HL_OK)
      r->tail.metadata = NULL;
    if (merr.code == HL_NOMEM) st = hl_err_nomem(err);
    hl_err_clear(&merr);
  }
done:
  if (st == HL_OK) {
    *out = r;
    return HL_OK;
  }
fail:
  name_err(r, st, err);
  hl_orc_reader_close(r);
  return st;
}

static hl_status_t put_vec(hl_vec_t *v, hl_arena_t *arena, const hl_value_t *vals, uint32_t n,
                           hl_error_t *err) {
  hl_phys_t ph = hl_type_phys(v->type);
  for (uint32_t row = 0; row < n; row++) {
    const hl_value_t *x = &vals[row];
    if (x->is_null) {
      if (hl_vec_set_null(v, arena, row) != HL_OK) return hl_err_nomem(err);
      if (ph == HL_P_VALUE) HL_VEC_VALUE(v)[row] = (hl_value_t *)x;
      continue;
    }
    switch (ph) {
    case HL_P_BOOL:
      HL_VEC_BOOL(v)[row] = x->u.b;
      break;
    case HL_P_I64:
      HL_VEC_I64(v)[row] = x->u.i;
      break;
    case HL_P_F64:
      HL_VEC_F64(v)[row] = x->u.d;
      break;
    case HL_P_I128:
      HL_VEC_I128(v)[row] = x->u.dec;
      break;
    case HL_P_STR:
      HL_VEC_STR(v)[row] = x->u.s;
      break;
    case HL_P_VALUE:
      HL_VEC_VALUE(v)[row] = (hl_value_t *)x;
      break;
    }
  }
  return HL_OK;
}

hl_status_t hl_orc_reader_next(hl_orc_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  hl_status_t st = HL_OK;
  batch->n_rows = 0;
  if (r->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "reader used after an error");
  if (r->empty) return HL_OK;
  const Orcpb__Footer *ft = r->tail.footer;
  while (!r->in_stripe || r->stripe_row >= r->stripe_rows) {
    r->in_stripe = false;
    if (r->next_stripe >= ft->n_stripes) return HL_OK;
    size_t idx = r->next_stripe++;
    if (stripe_excluded(r, idx)) continue;
    if ((st = start_stripe(r, ft->stripes[idx], err)) != HL_OK) goto fail;
  }
  uint64_t left = r->stripe_rows - r->stripe_row;
  uint32_t want = left < HL_BATCH_CAP ? (uint32_t)left : HL_BATCH_CAP;
  hl_value_t *vals = hl_arena_alloc(batch->arena, sizeof(hl_value_t) * HL_BATCH_CAP);
  if (!vals) {
    st = hl_err_nomem(err);
    goto fail;
  }
  for (int i = 0; i < r->n_cols; i++) {
    hl_vec_t *v = &batch->cols[i];
    if (!r->cols[i]) {
      st = hl_vec_set_all_null(v, batch->arena) == HL_OK ? HL_OK : hl_err_nomem(err);
    } else {
      hl_value_t *cell = vals;
      /* complex cells must outlive this loop: give them their own array */
      if (hl_type_phys(v->type) == HL_P_VALUE &&
          !(cell = hl_arena_alloc(batch->arena, sizeof(hl_value_t) * want))) {
        st = hl_err_nomem(err);
        goto fail;
      }
      st = hl_orc_col_read(r->cols[i], want, batch->arena, cell, err);
      if (st == HL_OK) st = put_vec(v, batch->arena, cell, want, err);
    }
    if (st != HL_OK) goto fail;
  }
  r->stripe_row += want;
  batch->n_rows = want;
  return HL_OK;
fail:
  r->failed = true;
  return name_err(r, st, err);
}

void hl_orc_reader_stripes(const hl_orc_reader_t *r, uint64_t *total, uint64_t *read) {
  *total = r->empty || !r->tail.footer ? 0 : r->tail.footer->n_stripes;
  *read = r->stripes_read;
}

void hl_orc_reader_close(hl_orc_reader_t *r) {
  if (!r) return;
  if (r->file) {
    hl_error_t e;
    hl_err_init(&e);
    r->fs->ops->close(r->file, &e);
    hl_err_clear(&e);
  }
  hl_arena_destroy(r->stripe_arena);
  hl_arena_destroy(r->arena);
  hl_free(r);
}

hl_status_t hl_orc_file_schema(hl_stor_t *fs, const char *path, hl_arena_t *arena, int *n_out,
                               hl_type_t ***types, char ***names, hl_error_t *err) {
  *n_out = 0;
  *types = NULL;
  *names = NULL;
  hl_orc_reader_t *r;
  hl_status_t st = hl_orc_reader_open(fs, path, 0, NULL, NULL, NULL, NULL, 0, &r, err);
  if (st != HL_OK) return st;
  if (r->empty) goto done;
  const Orcpb__Type *root = r->tail.footer->types[0];
  int n = root_n_fields(root);
  *types = hl_arena_zalloc(arena, sizeof(hl_type_t *) * (size_t)(n + 1));
  *names = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(n + 1));
  if (!*types || !*names) {
    st = hl_err_nomem(err);
    goto done;
  }
  for (int k = 0; k < n; k++) {
    (*names)[k] = hl_arena_strdup(arena, root_field_name(root, k));
    if (!(*names)[k]) {
      st = hl_err_nomem(err);
      goto done;
    }
    st = hl_orc_hive_type(&r->tail, root_field_id(root, k), arena, &(*types)[k], err);
    if (st == HL_UNSUPPORTED) {
      char *msg = hl_arena_strdup(arena, err->message);
      hl_err_clear(err);
      st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot read \"%s\": column \"%s\": %s", path, root_field_name(root, k),
                      msg ? msg : "unsupported type");
    }
    if (st != HL_OK) goto done;
  }
  *n_out = n;
done:
  name_err(r, st, err);
  hl_orc_reader_close(r);
  return st;
}
