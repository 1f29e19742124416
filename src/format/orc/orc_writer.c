/*
 * orc_writer.c -- the ORC writer (hl_orc_writer_* of orc.h).
 *
 * One column writer (ocol_t) per ORC column id, in pre-order: id 0 is the
 * root STRUCT whose fields are the table's columns.  Rows are shredded
 * into the writers' per-stripe arrays (values, lengths, present flags);
 * when the buffered values pass the stripe size, every stream is encoded
 * at once (so RLE runs and the dictionary decision see the whole stripe),
 * compressed in chunks and appended with the stripe footer.  Close writes
 * the Metadata (stripe statistics), the Footer and the PostScript.
 *
 *   file:    "ORC" | stripe* | Metadata | Footer | PostScript | len(PS)
 *   stripe:  ROW_INDEX streams | data streams (column order; PRESENT only
 *            when the column has NULLs in the stripe) | StripeFooter
 *
 * Row index (every orc.row.index.stride rows, default 10000): at the start
 * of each row group every column records how far its arrays are filled
 * (rgmark_t); when the stripe is encoded, the encoders turn those value
 * indices into (byte offset of the run, values to skip) and the chunk
 * layout into (chunk start, offset in chunk), the positions ORC readers
 * seek to, in the order ORC's Java writer records them (PRESENT first,
 * only when written).  Each row group's statistics go in its entry; the
 * stripe's are the merge of its row groups'.
 *
 * Children of a STRUCT, LIST or MAP get entries only for non-NULL parents
 * (LIST/MAP: one per element), as ORC readers expect.
 *
 * Encodings: integers, dates, lengths and timestamps DIRECT_V2 (RLE v2);
 * TINYINT byte RLE; BOOLEAN and PRESENT boolean RLE; FLOAT/DOUBLE IEEE
 * little-endian; strings DICTIONARY_V2 when distinct / non-NULL values <=
 * the dictionary threshold (0.8, as ORC's Java writer) else DIRECT_V2;
 * DECIMAL zigzag varints plus a signed RLE v2 SECONDARY stream of scales.
 *
 * TIMESTAMP: hivelite timestamps are wall-clock values without a zone.
 * They are written as if that wall clock were UTC, with writerTimezone
 * "UTC", which is what Hive 3 does (its ORC writer and reader use UTC for
 * TIMESTAMP), so Hive reads back the same wall-clock value.  Seconds are
 * counted from 2015-01-01 00:00:00; as ORC's own writers do, a negative
 * second with >= 1 ms of nanoseconds is stored one higher (readers
 * subtract it back).  So no stored value reads back as a time from
 * 1969-12-31 23:59:59.001 to 23:59:59.999999 in any ORC reader (ORC's
 * writers write them, and they read back one second late): such a value
 * is refused (22008) rather than written wrong.
 *
 * No bloom filters are written.  Footer.writer is left unset: the
 * registered writer ids name other implementations, and an unregistered one makes some readers
 * treat the file as from a "future" writer.  writerVersion is 6 (ORC-135: timestamp statistics in
 * UTC), so readers apply no bug workarounds for old writers.
 */
#include "format/orc/orc.h"
#include "format/orc/orc_enc.h"
#include "format/orc/orc_wstats.h"
#include "util/hashmap.h"
#include "util/mem.h"

#include "orc.pb-c.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DICT_CHECK_ROWS 10000 /* values after which a hopeless dictionary is dropped */
#define WRITER_VERSION  6

/* ====================================================================
 * Growable arrays
 * ==================================================================== */

typedef struct i64vec {
  int64_t *v;
  size_t n, cap;
} i64vec_t;

typedef struct u8vec {
  uint8_t *v;
  size_t n, cap;
} u8vec_t;

static int i64_push(i64vec_t *a, int64_t x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 256;
    int64_t *p = hl_realloc(a->v, cap * sizeof *p);
    if (!p) return -1;
    a->v = p;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return 0;
}

static int u8_push(u8vec_t *a, uint8_t x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 1024;
    uint8_t *p = hl_realloc(a->v, cap);
    if (!p) return -1;
    a->v = p;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return 0;
}

/* ====================================================================
 * Column writers
 * ==================================================================== */

/* Where a row group starts in a column's per-stripe arrays. */
typedef struct rgmark {
  uint64_t present, ints, nanos, bools, data, ids;
} rgmark_t;

typedef struct ocol {
  int id;   /* ORC column id (pre-order) */
  int kind; /* hl_orc_kind_t */
  const hl_type_t *type;
  int n_children;
  int *children;                  /* ids of the children */
  u8vec_t present;                /* one flag per slot in this stripe */
  bool stripe_nulls;              /* a NULL in this stripe: write PRESENT */
  i64vec_t ints;                  /* integers, days, seconds, lengths, scales */
  i64vec_t nanos;                 /* TIMESTAMP: encoded nanoseconds */
  u8vec_t bools;                  /* BOOLEAN values */
  hl_buf_t data;                  /* FLOAT/DOUBLE, string/binary bytes, decimal varints */
  hl_map_t *dict;                 /* strings: bytes -> entry, NULL once abandoned */
  bool direct;                    /* strings: orc.column.encoding.direct, never a dictionary */
  i64vec_t ids;                   /* strings: entry of each value */
  i64vec_t entries;               /* strings: offset in data of each entry's first copy */
  i64vec_t entry_lens;            /* strings: length of each entry */
  hl_orc_stat_t rg, stripe, file; /* statistics: row group, stripe, file */
  rgmark_t *marks;                /* row index: where each row group of the stripe starts */
  size_t n_marks, cap_marks;
  hl_buf_t rg_stats;     /* row index: each row group's packed ColumnStats */
  i64vec_t rg_stat_lens; /* ... and their lengths */
} ocol_t;

struct hl_orc_writer {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  char *path;
  hl_orc_write_options_t opts;
  int n_cols; /* ORC columns (root included) */
  ocol_t *cols;
  uint64_t offset;      /* bytes written to the file */
  uint64_t rows;        /* rows written (all stripes) */
  uint64_t stripe_rows; /* rows in the current stripe */
  uint64_t group_rows;  /* rows in the current row group */
  uint64_t buffered;    /* estimate of the current stripe's bytes */
  hl_buf_t out;         /* the stripe being assembled */
  hl_buf_t tmp;         /* one encoded stream */
  hl_buf_t meta;        /* Metadata: the StripeStatistics entries so far */
  /* The Footer's stripes field (3) so far: each StripeInformation packed
   * with its field header, so what a stripe leaves behind is its encoding
   * (~20 bytes), not a message struct. */
  hl_buf_t stripe_info;
  size_t n_stripes;
  Orcpb__Type *types; /* n_cols, pre-order */
  uint32_t *subtypes; /* storage for types[].subtypes */
  bool failed;        /* a write failed: close only releases */
};

static hl_status_t nomem(hl_orc_writer_t *w, hl_error_t *err) {
  w->failed = true;
  return hl_err_nomem(err);
}

/* Builds the column writers and ORC types of TYPE at id *next (pre-order). */
static hl_status_t build_cols(hl_orc_writer_t *w, const hl_type_t *type, const char *const *names,
                              int n_fields, const hl_type_t *const *fields, int *next,
                              uint32_t **sub_next, hl_error_t *err) {
  int id = (*next)++;
  ocol_t *c = &w->cols[id];
  Orcpb__Type *t = &w->types[id];
  orcpb__type__init(t);
  c->id = id;
  c->type = type;
  int kind = type ? hl_orc_kind_of(type) : HL_ORC_STRUCT;
  if (kind < 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "cannot write a column of type void to an ORC file");
  c->kind = kind;
  t->has_kind = true;
  t->kind = (Orcpb__Type__Kind)kind;
  if (kind == HL_ORC_VARCHAR || kind == HL_ORC_CHAR) {
    t->has_maximum_length = true;
    t->maximum_length = (uint32_t)type->length;
  } else if (kind == HL_ORC_DECIMAL) {
    t->has_precision = t->has_scale = true;
    t->precision = (uint32_t)type->precision;
    t->scale = (uint32_t)type->scale;
  }
  if (kind == HL_ORC_STRING || kind == HL_ORC_VARCHAR || kind == HL_ORC_CHAR) {
    c->dict = hl_map_create();
    if (!c->dict) return hl_err_nomem(err);
  }
  int n = type ? type->n_children : n_fields;
  if (n == 0) return HL_OK;
  c->n_children = n;
  c->children = hl_calloc((size_t)n, sizeof *c->children);
  if (!c->children) return hl_err_nomem(err);
  t->n_subtypes = (size_t)n;
  t->subtypes = *sub_next;
  *sub_next += n;
  if (kind == HL_ORC_STRUCT) {
    t->n_field_names = (size_t)n;
    t->field_names = type ? type->field_names : (char **)names;
  }
  for (int i = 0; i < n; i++) {
    c->children[i] = *next;
    t->subtypes[i] = (uint32_t)*next;
    hl_status_t st =
        build_cols(w, type ? type->children[i] : fields[i], NULL, 0, NULL, next, sub_next, err);
    if (st != HL_OK) return st;
  }
  return HL_OK;
}

static void col_reset(ocol_t *c) {
  c->present.n = 0;
  c->stripe_nulls = false;
  c->ints.n = c->nanos.n = c->ids.n = c->entries.n = c->entry_lens.n = 0;
  c->bools.n = 0;
  hl_buf_reset(&c->data);
  hl_orc_stat_clear(&c->stripe);
  hl_orc_stat_clear(&c->rg);
  c->n_marks = 0;
  hl_buf_reset(&c->rg_stats);
  c->rg_stat_lens.n = 0;
  if ((c->kind == HL_ORC_STRING || c->kind == HL_ORC_VARCHAR || c->kind == HL_ORC_CHAR) &&
      !c->direct) {
    /* a fresh dictionary per stripe (without memory for one, the stripe is
     * written DIRECT_V2) */
    hl_map_destroy(c->dict);
    c->dict = hl_map_create();
  }
}

static void col_fini(ocol_t *c) {
  hl_free(c->children);
  hl_free(c->present.v);
  hl_free(c->ints.v);
  hl_free(c->nanos.v);
  hl_free(c->bools.v);
  hl_free(c->ids.v);
  hl_free(c->entries.v);
  hl_free(c->entry_lens.v);
  hl_buf_fini(&c->data);
  hl_map_destroy(c->dict);
  hl_orc_stat_fini(&c->stripe);
  hl_orc_stat_fini(&c->rg);
  hl_free(c->marks);
  hl_buf_fini(&c->rg_stats);
  hl_free(c->rg_stat_lens.v);
  hl_orc_stat_fini(&c->file);
}

/* ====================================================================
 * Shredding values
 * ==================================================================== */

static hl_status_t put_string(hl_orc_writer_t *w, ocol_t *c, const char *p, size_t n,
                              hl_error_t *err) {
  size_t off = c->data.len;
  hl_buf_append(&c->data, p, n);
  if (c->data.oom || i64_push(&c->ints, (int64_t)n) != 0) return nomem(w, err);
  w->buffered += n + 4;
  if (c->kind == HL_ORC_BINARY) {
    c->rg.bytes += n;
    return HL_OK;
  }
  hl_orc_stat_string(&c->rg, p, n);
  if (!c->dict) return HL_OK;
  uint64_t id;
  bool inserted;
  if (hl_map_upsert(c->dict, p, n, c->entries.n, &id, &inserted) != 0) return nomem(w, err);
  if (inserted &&
      (i64_push(&c->entries, (int64_t)off) != 0 || i64_push(&c->entry_lens, (int64_t)n) != 0))
    return nomem(w, err);
  if (i64_push(&c->ids, (int64_t)id) != 0) return nomem(w, err);
  if (inserted) w->buffered += n + 16;
  /* a dictionary that cannot pay off is dropped early, as ORC's Java
   * writer decides after its first row group */
  if (c->ids.n == DICT_CHECK_ROWS &&
      (double)c->entries.n > w->opts.dict_threshold * (double)c->ids.n) {
    hl_map_destroy(c->dict);
    c->dict = NULL;
  }
  return HL_OK;
}

static hl_status_t put_value(hl_orc_writer_t *w, ocol_t *c, const hl_value_t *v, hl_error_t *err);

static hl_status_t put_child(hl_orc_writer_t *w, ocol_t *c, int i, const hl_value_t *v,
                             hl_error_t *err) {
  static const hl_value_t null_value = {.is_null = true};
  return put_value(w, &w->cols[c->children[i]], v ? v : &null_value, err);
}

static hl_status_t put_value(hl_orc_writer_t *w, ocol_t *c, const hl_value_t *v, hl_error_t *err) {
  if (u8_push(&c->present, !v->is_null) != 0) return nomem(w, err);
  w->buffered += 1;
  if (v->is_null) {
    c->stripe_nulls = true;
    c->rg.has_null = true;
    return HL_OK;
  }
  c->rg.n_values++;
  hl_status_t st = HL_OK;
  int rc = 0;
  switch (c->kind) {
  case HL_ORC_BOOLEAN:
    rc = u8_push(&c->bools, v->u.b ? 1 : 0);
    c->rg.n_true += v->u.b ? 1 : 0;
    break;
  case HL_ORC_BYTE:
  case HL_ORC_SHORT:
  case HL_ORC_INT:
  case HL_ORC_LONG:
  case HL_ORC_DATE:
    rc = i64_push(&c->ints, v->u.i);
    hl_orc_stat_int(&c->rg, v->u.i);
    w->buffered += 8;
    break;
  case HL_ORC_FLOAT: {
    float f = (float)v->u.d;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint8_t le[4] = {(uint8_t)bits, (uint8_t)(bits >> 8), (uint8_t)(bits >> 16),
                     (uint8_t)(bits >> 24)};
    hl_buf_append(&c->data, le, 4);
    hl_orc_stat_double(&c->rg, (double)f);
    w->buffered += 4;
    break;
  }
  case HL_ORC_DOUBLE: {
    uint64_t bits;
    memcpy(&bits, &v->u.d, 8);
    uint8_t le[8];
    for (int i = 0; i < 8; i++)
      le[i] = (uint8_t)(bits >> (8 * i));
    hl_buf_append(&c->data, le, 8);
    hl_orc_stat_double(&c->rg, v->u.d);
    w->buffered += 8;
    break;
  }
  case HL_ORC_STRING:
  case HL_ORC_VARCHAR:
  case HL_ORC_CHAR:
  case HL_ORC_BINARY:
    return put_string(w, c, v->u.s.ptr, v->u.s.len, err);
  case HL_ORC_DECIMAL:
    hl_orc_put_varint128(&c->data, v->u.dec);
    rc = i64_push(&c->ints, c->type->scale);
    hl_orc_stat_decimal(&c->rg, v->u.dec);
    w->buffered += 12;
    break;
  case HL_ORC_TIMESTAMP: {
    int64_t micros = v->u.i;
    if (!hl_orc_timestamp_ok(micros)) {
      hl_buf_t b;
      hl_buf_init(&b);
      hl_format_timestamp(&b, micros);
      w->failed = true;
      st = hl_err_set(err, HL_ERROR, HL_SS(DATETIME_FIELD_OVERFLOW),
                      "cannot write \"%s\": ORC cannot store TIMESTAMP '%s' (a time from "
                      "1969-12-31 23:59:59.001 to 23:59:59.999999 reads back one second late in "
                      "every ORC reader)",
                      w->path, b.oom ? "?" : hl_buf_cstr(&b));
      hl_buf_fini(&b);
      return st;
    }
    int64_t secs = micros / 1000000, frac = micros % 1000000;
    if (frac < 0) {
      frac += 1000000;
      secs--;
    }
    int64_t nanos = frac * 1000;
    if (secs < 0 && nanos > 999999) secs++; /* readers take one back */
    rc = i64_push(&c->ints, secs - HL_ORC_TS_BASE);
    if (rc == 0) rc = i64_push(&c->nanos, hl_orc_encode_nanos(nanos));
    hl_orc_stat_int(&c->rg, micros);
    w->buffered += 16;
    break;
  }
  case HL_ORC_LIST:
    rc = i64_push(&c->ints, v->u.list.n);
    for (uint32_t i = 0; rc == 0 && st == HL_OK && i < v->u.list.n; i++)
      st = put_child(w, c, 0, &v->u.list.items[i], err);
    break;
  case HL_ORC_MAP:
    rc = i64_push(&c->ints, v->u.list.n);
    for (uint32_t i = 0; rc == 0 && st == HL_OK && i < v->u.list.n; i++) {
      st = put_child(w, c, 0, &v->u.list.items[2 * i], err);
      if (st == HL_OK) st = put_child(w, c, 1, &v->u.list.items[2 * i + 1], err);
    }
    break;
  case HL_ORC_STRUCT:
    for (int i = 0; st == HL_OK && i < c->n_children; i++)
      st = put_child(w, c, i, i < (int)v->u.list.n ? &v->u.list.items[i] : NULL, err);
    break;
  case HL_ORC_UNION: /* the tag; only the tag's variant gets a slot */
    if ((int)v->u.list.tag >= c->n_children || !v->u.list.n) {
      w->failed = true;
      return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                        "cannot write \"%s\": union value with tag %u of %d variants", w->path,
                        (unsigned)v->u.list.tag, c->n_children);
    }
    rc = i64_push(&c->ints, v->u.list.tag);
    w->buffered += 1;
    if (rc == 0) st = put_child(w, c, (int)v->u.list.tag, &v->u.list.items[0], err);
    break;
  default:
    break;
  }
  if (st != HL_OK) return st;
  if (rc != 0 || c->data.oom) return nomem(w, err);
  return HL_OK;
}

/* ====================================================================
 * Statistics messages
 * ==================================================================== */

/* Packs the statistics of every column (stripe's or file's) into an
 * array of pointers in ARENA. */
static Orcpb__ColumnStats **all_stats(hl_orc_writer_t *w, hl_arena_t *arena, bool file) {
  Orcpb__ColumnStats **v = hl_arena_alloc(arena, (size_t)w->n_cols * sizeof *v);
  Orcpb__ColumnStats *cs = hl_arena_alloc(arena, (size_t)w->n_cols * sizeof *cs);
  if (!v || !cs) return NULL;
  for (int i = 0; i < w->n_cols; i++) {
    v[i] = &cs[i];
    if (hl_orc_stats_message(arena, w->cols[i].kind, w->cols[i].type,
                             file ? &w->cols[i].file : &w->cols[i].stripe, &cs[i]) != 0)
      return NULL;
  }
  return v;
}

/* ====================================================================
 * Stripes
 * ==================================================================== */

typedef struct streams {
  Orcpb__Stream *v;
  size_t n, cap;
} streams_t;

/* Row-index positions of one column in the stripe being written. */
typedef struct posinfo {
  size_t n;      /* row groups (0: no row index) */
  i64vec_t *pos; /* per row group: the positions so far */
  uint64_t *at;  /* scratch, n entries each: value index of each group's start */
  uint64_t *offset, *skip, *bits;
  hl_orc_marks_t marks; /* the encoder's view of the above */
} posinfo_t;

typedef enum posmode {
  POS_NONE, /* no positions (dictionary data) */
  POS_RAW,  /* byte offset only: IEEE values, string and decimal bytes */
  POS_RLE,  /* byte offset of the run, values to skip in it */
  POS_BOOL  /* byte RLE position, then the bit */
} posmode_t;

/* The encoder marks for field FIELD of the column's row-group marks; NULL
 * when there is no row index. */
#define MARKS(pi, c, field) (marks_for((pi), (c), offsetof(rgmark_t, field)))

static hl_orc_marks_t *marks_for(posinfo_t *pi, const ocol_t *c, size_t field_off) {
  if (!pi->n) return NULL;
  for (size_t g = 0; g < pi->n; g++)
    memcpy(&pi->at[g], (const char *)&c->marks[g] + field_off, sizeof(uint64_t));
  pi->marks = (hl_orc_marks_t){pi->at, pi->n, pi->offset, pi->skip, pi->bits};
  return &pi->marks;
}

/* Compresses w->tmp into the stripe as stream KIND of column COL and
 * appends the row groups' positions in it (MODE) to PI. */
static hl_status_t emit(hl_orc_writer_t *w, streams_t *ss, int kind, int col, posinfo_t *pi,
                        posmode_t mode, hl_error_t *err) {
  if (w->tmp.oom) return nomem(w, err);
  size_t before = w->out.len;
  size_t block = w->opts.compress_size;
  uint64_t *starts = NULL;
  if (pi && pi->n && mode != POS_NONE) {
    starts = hl_malloc((w->tmp.len / (block ? block : 1) + 2) * sizeof *starts);
    if (!starts) return nomem(w, err);
  }
  hl_status_t st = hl_orc_compress(w->opts.codec, block, (uint8_t *)w->tmp.data, w->tmp.len,
                                   &w->out, starts, err);
  hl_buf_reset(&w->tmp);
  if (st != HL_OK) {
    hl_free(starts);
    w->failed = true;
    return st;
  }
  for (size_t g = 0; starts && g < pi->n; g++) {
    uint64_t p[2];
    uint64_t off = mode == POS_RAW ? pi->at[g] : pi->offset[g];
    int k = hl_orc_chunk_position(w->opts.codec, block, starts, off, p);
    int rc = 0;
    for (int i = 0; i < k; i++)
      rc |= i64_push(&pi->pos[g], (int64_t)p[i]);
    if (mode == POS_RLE || mode == POS_BOOL) rc |= i64_push(&pi->pos[g], (int64_t)pi->skip[g]);
    if (mode == POS_BOOL) rc |= i64_push(&pi->pos[g], (int64_t)pi->bits[g]);
    if (rc) {
      hl_free(starts);
      return nomem(w, err);
    }
  }
  hl_free(starts);
  if (ss->n == ss->cap) {
    size_t cap = ss->cap ? ss->cap * 2 : 16;
    Orcpb__Stream *p = hl_realloc(ss->v, cap * sizeof *p);
    if (!p) return nomem(w, err);
    ss->v = p;
    ss->cap = cap;
  }
  Orcpb__Stream *s = &ss->v[ss->n++];
  orcpb__stream__init(s);
  s->has_kind = s->has_column = s->has_length = true;
  s->kind = (Orcpb__Stream__Kind)kind;
  s->column = (uint32_t)col;
  s->length = w->out.len - before;
  return HL_OK;
}

/* Writes a string column's DATA/LENGTH/DICTIONARY_DATA streams; sets the
 * encoding. */
static hl_status_t emit_strings(hl_orc_writer_t *w, ocol_t *c, streams_t *ss, posinfo_t *pi,
                                Orcpb__ColumnEncoding *enc, hl_error_t *err);

/* Writes column C's streams (and its positions into PI); sets ENC. */
static hl_status_t emit_column(hl_orc_writer_t *w, ocol_t *c, streams_t *ss, posinfo_t *pi,
                               Orcpb__ColumnEncoding *enc, hl_error_t *err) {
  hl_status_t st = HL_OK;
  orcpb__column_encoding__init(enc);
  enc->has_kind = true;
  enc->kind = ORCPB__COLUMN_ENCODING__KIND__DIRECT_V2;
  if (c->stripe_nulls) {
    hl_orc_put_bool_rle(&w->tmp, c->present.v, c->present.n, MARKS(pi, c, present));
    st = emit(w, ss, ORCPB__STREAM__KIND__PRESENT, c->id, pi, POS_BOOL, err);
    if (st != HL_OK) return st;
  }
  switch (c->kind) {
  case HL_ORC_STRUCT:
  case HL_ORC_UNION:
  case HL_ORC_BOOLEAN:
  case HL_ORC_BYTE:
  case HL_ORC_FLOAT:
  case HL_ORC_DOUBLE:
    enc->kind = ORCPB__COLUMN_ENCODING__KIND__DIRECT;
    break;
  default:
    break;
  }
  switch (c->kind) {
  case HL_ORC_BOOLEAN:
    hl_orc_put_bool_rle(&w->tmp, c->bools.v, c->bools.n, MARKS(pi, c, bools));
    return emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_BOOL, err);
  case HL_ORC_BYTE:
  case HL_ORC_UNION: { /* a union's tags are a byte stream too */
    uint8_t *b = hl_malloc(c->ints.n ? c->ints.n : 1);
    if (!b) return nomem(w, err);
    for (size_t i = 0; i < c->ints.n; i++)
      b[i] = (uint8_t)c->ints.v[i];
    hl_orc_put_byte_rle(&w->tmp, b, c->ints.n, MARKS(pi, c, ints));
    hl_free(b);
    return emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RLE, err);
  }
  case HL_ORC_SHORT:
  case HL_ORC_INT:
  case HL_ORC_LONG:
  case HL_ORC_DATE:
    hl_orc_put_rle2(&w->tmp, c->ints.v, c->ints.n, true, MARKS(pi, c, ints));
    return emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RLE, err);
  case HL_ORC_FLOAT:
  case HL_ORC_DOUBLE:
    MARKS(pi, c, data);
    hl_buf_append(&w->tmp, c->data.data, c->data.len);
    return emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RAW, err);
  case HL_ORC_STRING:
  case HL_ORC_VARCHAR:
  case HL_ORC_CHAR:
    return emit_strings(w, c, ss, pi, enc, err);
  case HL_ORC_BINARY:
  case HL_ORC_DECIMAL:
    MARKS(pi, c, data);
    hl_buf_append(&w->tmp, c->data.data, c->data.len);
    st = emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RAW, err);
    if (st != HL_OK) return st;
    /* BINARY lengths; DECIMAL scales, signed as ORC's readers read them */
    hl_orc_put_rle2(&w->tmp, c->ints.v, c->ints.n, c->kind == HL_ORC_DECIMAL, MARKS(pi, c, ints));
    return emit(w, ss,
                c->kind == HL_ORC_DECIMAL ? ORCPB__STREAM__KIND__SECONDARY
                                          : ORCPB__STREAM__KIND__LENGTH,
                c->id, pi, POS_RLE, err);
  case HL_ORC_TIMESTAMP:
    hl_orc_put_rle2(&w->tmp, c->ints.v, c->ints.n, true, MARKS(pi, c, ints));
    st = emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RLE, err);
    if (st != HL_OK) return st;
    hl_orc_put_rle2(&w->tmp, c->nanos.v, c->nanos.n, false, MARKS(pi, c, nanos));
    return emit(w, ss, ORCPB__STREAM__KIND__SECONDARY, c->id, pi, POS_RLE, err);
  case HL_ORC_LIST:
  case HL_ORC_MAP:
    hl_orc_put_rle2(&w->tmp, c->ints.v, c->ints.n, false, MARKS(pi, c, ints));
    return emit(w, ss, ORCPB__STREAM__KIND__LENGTH, c->id, pi, POS_RLE, err);
  default:
    return HL_OK;
  }
}

typedef struct dentry {
  const char *p;
  uint32_t len;
  uint32_t id;
} dentry_t;

static int cmp_dentry(const void *a, const void *b) {
  const dentry_t *x = a, *y = b;
  return hl_orc_cmp_bytes(x->p, x->len, y->p, y->len);
}

static hl_status_t emit_strings(hl_orc_writer_t *w, ocol_t *c, streams_t *ss, posinfo_t *pi,
                                Orcpb__ColumnEncoding *enc, hl_error_t *err) {
  size_t n_entries = c->entries.n, n_values = c->ids.n;
  bool use_dict = c->dict && n_values > 0 && n_values == c->ints.n &&
                  (double)n_entries <= w->opts.dict_threshold * (double)n_values;
  hl_status_t st;
  if (!use_dict) {
    MARKS(pi, c, data);
    hl_buf_append(&w->tmp, c->data.data, c->data.len);
    st = emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RAW, err);
    if (st != HL_OK) return st;
    hl_orc_put_rle2(&w->tmp, c->ints.v, c->ints.n, false, MARKS(pi, c, ints));
    return emit(w, ss, ORCPB__STREAM__KIND__LENGTH, c->id, pi, POS_RLE, err);
  }
  /* the dictionary is sorted bytewise; values refer to sorted positions */
  dentry_t *ents = hl_malloc(n_entries * sizeof *ents);
  int64_t *rank = hl_malloc(n_entries * sizeof *rank);
  if (!ents || !rank) {
    hl_free(ents);
    hl_free(rank);
    return nomem(w, err);
  }
  for (size_t i = 0; i < n_entries; i++) {
    ents[i].p = c->data.data + c->entries.v[i];
    ents[i].len = (uint32_t)c->entry_lens.v[i];
    ents[i].id = (uint32_t)i;
  }
  qsort(ents, n_entries, sizeof *ents, cmp_dentry);
  for (size_t k = 0; k < n_entries; k++) {
    rank[ents[k].id] = (int64_t)k;
    c->entry_lens.v[k] = ents[k].len;
  }
  for (size_t i = 0; i < n_values; i++)
    c->ids.v[i] = rank[c->ids.v[i]];
  hl_orc_put_rle2(&w->tmp, c->ids.v, n_values, false, MARKS(pi, c, ids));
  st = emit(w, ss, ORCPB__STREAM__KIND__DATA, c->id, pi, POS_RLE, err);
  if (st == HL_OK) { /* the dictionary has no positions: readers load it whole */
    for (size_t k = 0; k < n_entries; k++)
      hl_buf_append(&w->tmp, ents[k].p, ents[k].len);
    st = emit(w, ss, ORCPB__STREAM__KIND__DICTIONARY_DATA, c->id, pi, POS_NONE, err);
  }
  if (st == HL_OK) {
    hl_orc_put_rle2(&w->tmp, c->entry_lens.v, n_entries, false, NULL);
    st = emit(w, ss, ORCPB__STREAM__KIND__LENGTH, c->id, pi, POS_NONE, err);
  }
  hl_free(ents);
  hl_free(rank);
  enc->kind = ORCPB__COLUMN_ENCODING__KIND__DICTIONARY_V2;
  enc->has_dictionary_size = true;
  enc->dictionary_size = (uint32_t)n_entries;
  return st;
}

static hl_status_t out_append(hl_orc_writer_t *w, const void *p, size_t n, hl_error_t *err) {
  hl_status_t st = w->fs->ops->append(w->file, p, n, err);
  if (st != HL_OK) {
    w->failed = true;
    return st;
  }
  w->offset += n;
  return HL_OK;
}

/* Appends message M packed to BUF. */
static int pack_into(hl_buf_t *buf, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  if (hl_buf_reserve(buf, n + 1) != 0) return -1;
  protobuf_c_message_pack(m, (uint8_t *)buf->data + buf->len);
  buf->len += n;
  return 0;
}

/* Appends a varint-prefixed protobuf field header and length to BUF. */
static void put_len_field(hl_buf_t *buf, int field, uint64_t len) {
  hl_orc_put_uvarint(buf, (uint64_t)field << 3 | 2);
  hl_orc_put_uvarint(buf, len);
}

/* Encodes column C's RowIndex (entries: positions, then the row group's
 * packed statistics) into w->tmp.  The messages are simple enough to
 * write by hand, and the statistics are already packed. */
static void row_index_bytes(hl_orc_writer_t *w, const ocol_t *c, const posinfo_t *pi) {
  hl_buf_t entry, packed;
  hl_buf_init(&entry);
  hl_buf_init(&packed);
  size_t stat_off = 0;
  for (size_t g = 0; g < pi->n; g++) {
    hl_buf_reset(&entry);
    hl_buf_reset(&packed);
    for (size_t i = 0; i < pi->pos[g].n; i++)
      hl_orc_put_uvarint(&packed, (uint64_t)pi->pos[g].v[i]);
    if (packed.len) {
      put_len_field(&entry, 1, packed.len);
      hl_buf_append(&entry, packed.data, packed.len);
    }
    size_t slen = g < c->rg_stat_lens.n ? (size_t)c->rg_stat_lens.v[g] : 0;
    put_len_field(&entry, 2, slen);
    hl_buf_append(&entry, c->rg_stats.data + stat_off, slen);
    stat_off += slen;
    put_len_field(&w->tmp, 1, entry.len);
    hl_buf_append(&w->tmp, entry.data, entry.len);
  }
  if (entry.oom || packed.oom) w->tmp.oom = 1;
  hl_buf_fini(&entry);
  hl_buf_fini(&packed);
}

static void posinfo_fini(posinfo_t *pi) {
  for (size_t g = 0; pi->pos && g < pi->n; g++)
    hl_free(pi->pos[g].v);
  hl_free(pi->pos);
  hl_free(pi->at);
  hl_free(pi->offset);
  hl_free(pi->skip);
  hl_free(pi->bits);
  memset(pi, 0, sizeof *pi);
}

static int posinfo_init(posinfo_t *pi, size_t n) {
  memset(pi, 0, sizeof *pi);
  if (!n) return 0;
  pi->n = n;
  pi->pos = hl_calloc(n, sizeof *pi->pos);
  pi->at = hl_malloc(n * sizeof *pi->at);
  pi->offset = hl_malloc(n * sizeof *pi->offset);
  pi->skip = hl_malloc(n * sizeof *pi->skip);
  pi->bits = hl_malloc(n * sizeof *pi->bits);
  return pi->pos && pi->at && pi->offset && pi->skip && pi->bits ? 0 : -1;
}

static hl_status_t end_row_group(hl_orc_writer_t *w, hl_error_t *err);

static hl_status_t flush_stripe(hl_orc_writer_t *w, hl_error_t *err) {
  if (w->stripe_rows == 0) return HL_OK;
  hl_status_t st = HL_OK;
  if (w->group_rows > 0) st = end_row_group(w, err); /* the last, partial row group */
  if (st != HL_OK) return st;
  streams_t ss = {0}, idx = {0};
  Orcpb__ColumnEncoding *encs = hl_calloc((size_t)w->n_cols, sizeof *encs);
  Orcpb__ColumnEncoding **encp = hl_calloc((size_t)w->n_cols, sizeof *encp);
  Orcpb__Stream **sp = NULL;
  hl_arena_t *arena = hl_arena_create(16384);
  hl_buf_t index;
  hl_buf_init(&index);
  if (!encs || !encp || !arena) st = nomem(w, err);
  hl_buf_reset(&w->out);
  for (int i = 0; st == HL_OK && i < w->n_cols; i++) {
    ocol_t *c = &w->cols[i];
    posinfo_t pi;
    encp[i] = &encs[i];
    if (posinfo_init(&pi, w->opts.row_index_stride ? c->n_marks : 0) != 0) st = nomem(w, err);
    if (st == HL_OK) st = emit_column(w, c, &ss, &pi, &encs[i], err);
    if (st == HL_OK && pi.n) { /* the column's ROW_INDEX stream, into INDEX */
      hl_buf_t data = w->out;
      w->out = index;
      row_index_bytes(w, c, &pi);
      st = emit(w, &idx, ORCPB__STREAM__KIND__ROW_INDEX, c->id, NULL, POS_NONE, err);
      index = w->out;
      w->out = data;
    }
    posinfo_fini(&pi);
  }
  size_t index_len = index.len, data_len = w->out.len;
  if (st == HL_OK) {
    sp = hl_malloc((idx.n + ss.n + 1) * sizeof *sp);
    if (!sp) st = nomem(w, err);
  }
  if (st == HL_OK) { /* index streams come first in the stripe */
    for (size_t i = 0; i < idx.n; i++)
      sp[i] = &idx.v[i];
    for (size_t i = 0; i < ss.n; i++)
      sp[idx.n + i] = &ss.v[i];
    Orcpb__StripeFooter sf = ORCPB__STRIPE_FOOTER__INIT;
    sf.n_streams = idx.n + ss.n;
    sf.streams = sp;
    sf.n_columns = (size_t)w->n_cols;
    sf.columns = encp;
    sf.writer_timezone = "UTC";
    if (pack_into(&w->tmp, &sf.base) != 0) st = nomem(w, err);
    if (st == HL_OK)
      st = hl_orc_compress(w->opts.codec, w->opts.compress_size, (uint8_t *)w->tmp.data, w->tmp.len,
                           &w->out, NULL, err);
    hl_buf_reset(&w->tmp);
  }
  if (st == HL_OK) {
    Orcpb__StripeInformation si = ORCPB__STRIPE_INFORMATION__INIT;
    si.has_offset = si.has_index_length = si.has_data_length = si.has_footer_length =
        si.has_number_of_rows = true;
    si.offset = w->offset;
    si.index_length = index_len;
    si.data_length = data_len;
    si.footer_length = w->out.len - data_len;
    si.number_of_rows = w->stripe_rows;
    put_len_field(&w->stripe_info, 3, protobuf_c_message_get_packed_size(&si.base));
    if (pack_into(&w->stripe_info, &si.base) != 0 || w->stripe_info.oom) st = nomem(w, err);
    w->n_stripes++;
  }
  if (st == HL_OK) {
    st = out_append(w, index.data, index.len, err);
    if (st == HL_OK) st = out_append(w, w->out.data, w->out.len, err);
  }
  if (st == HL_OK) { /* StripeStatistics as one entry of Metadata's field 1 */
    Orcpb__StripeStatistics sst = ORCPB__STRIPE_STATISTICS__INIT;
    sst.n_col_stats = (size_t)w->n_cols;
    sst.col_stats = all_stats(w, arena, false);
    if (!sst.col_stats)
      st = nomem(w, err);
    else {
      hl_buf_putc(&w->meta, 0x0a);
      hl_orc_put_uvarint(&w->meta, protobuf_c_message_get_packed_size(&sst.base));
      if (pack_into(&w->meta, &sst.base) != 0 || w->meta.oom) st = nomem(w, err);
    }
  }
  if (st == HL_OK) {
    for (int i = 0; i < w->n_cols; i++) {
      hl_orc_stat_merge(w->cols[i].kind, &w->cols[i].file, &w->cols[i].stripe);
      if (w->cols[i].file.smin.oom || w->cols[i].file.smax.oom) st = nomem(w, err);
      col_reset(&w->cols[i]);
    }
    w->stripe_rows = 0;
    w->buffered = 0;
  }
  hl_free(ss.v);
  hl_free(idx.v);
  hl_buf_fini(&index);
  hl_free(sp);
  hl_free(encs);
  hl_free(encp);
  hl_arena_destroy(arena);
  return st;
}

/* ====================================================================
 * Public API
 * ==================================================================== */

static void writer_free(hl_orc_writer_t *w) {
  for (int i = 0; w->cols && i < w->n_cols; i++)
    col_fini(&w->cols[i]);
  hl_free(w->cols);
  hl_free(w->types);
  hl_free(w->subtypes);
  hl_buf_fini(&w->stripe_info);
  hl_buf_fini(&w->out);
  hl_buf_fini(&w->tmp);
  hl_buf_fini(&w->meta);
  hl_free(w->path);
  hl_free(w);
}

/* Marks the top-level columns named in LIST (comma-separated, blanks
 * around names ignored, case-insensitive) as never dictionary-encoded. */
static hl_status_t set_direct(hl_orc_writer_t *w, const char *list, const char *const *names,
                              hl_error_t *err) {
  const ocol_t *root = &w->cols[0];
  for (const char *p = list; *p;) {
    while (*p == ' ' || *p == ',')
      p++;
    const char *end = p;
    while (*end && *end != ',')
      end++;
    size_t len = (size_t)(end - p);
    while (len && p[len - 1] == ' ')
      len--;
    if (len) {
      int i;
      for (i = 0; i < root->n_children; i++)
        if (strncasecmp(names[i], p, len) == 0 && names[i][len] == '\0') break;
      if (i == root->n_children)
        return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                          "orc.column.encoding.direct names no column \"%.*s\"", (int)len, p);
      ocol_t *c = &w->cols[root->children[i]];
      c->direct = true;
      hl_map_destroy(c->dict);
      c->dict = NULL;
    }
    p = end;
  }
  return HL_OK;
}

hl_status_t hl_orc_writer_open(hl_stor_t *fs, const char *path, const hl_orc_write_options_t *opts,
                               int n_cols, const hl_type_t *const *types, const char *const *names,
                               hl_orc_writer_t **out, hl_error_t *err) {
  *out = NULL;
  hl_orc_writer_t *w = hl_calloc(1, sizeof *w);
  if (!w) return hl_err_nomem(err);
  w->fs = fs;
  hl_status_t st = HL_OK;
  if (opts)
    w->opts = *opts;
  else
    st = hl_orc_write_options_init(&w->opts, NULL, 0, err);
  w->n_cols = 1;
  for (int i = 0; i < n_cols; i++)
    w->n_cols += hl_orc_type_count(types[i]);
  w->path = hl_strdup(path);
  w->cols = hl_calloc((size_t)w->n_cols, sizeof *w->cols);
  w->types = hl_calloc((size_t)w->n_cols, sizeof *w->types);
  w->subtypes = hl_calloc((size_t)w->n_cols, sizeof *w->subtypes);
  if (st == HL_OK && (!w->path || !w->cols || !w->types || !w->subtypes)) st = hl_err_nomem(err);
  int next = 0;
  uint32_t *sub_next = w->subtypes;
  if (st == HL_OK) st = build_cols(w, NULL, names, n_cols, types, &next, &sub_next, err);
  if (st == HL_OK && w->opts.direct_columns) st = set_direct(w, w->opts.direct_columns, names, err);
  w->opts.direct_columns = NULL; /* borrowed only until here */
  if (st == HL_OK) st = fs->ops->create(fs, path, &w->file, err);
  if (st == HL_OK) st = out_append(w, "ORC", 3, err);
  if (st != HL_OK) {
    if (w->file)
      hl_orc_writer_abort(w);
    else
      writer_free(w);
    return st;
  }
  *out = w;
  return HL_OK;
}

/* Records where a row group starts in every column (row index). */
static hl_status_t begin_row_group(hl_orc_writer_t *w, hl_error_t *err) {
  for (int i = 0; i < w->n_cols; i++) {
    ocol_t *c = &w->cols[i];
    if (c->n_marks == c->cap_marks) {
      size_t cap = c->cap_marks ? c->cap_marks * 2 : 8;
      rgmark_t *p = hl_realloc(c->marks, cap * sizeof *p);
      if (!p) return nomem(w, err);
      c->marks = p;
      c->cap_marks = cap;
    }
    c->marks[c->n_marks++] =
        (rgmark_t){c->present.n, c->ints.n, c->nanos.n, c->bools.n, c->data.len, c->ids.n};
  }
  return HL_OK;
}

/* Closes the row group: its statistics are packed for the row index (when
 * there is one) and folded into the stripe's. */
static hl_status_t end_row_group(hl_orc_writer_t *w, hl_error_t *err) {
  hl_arena_t *arena = NULL;
  if (w->opts.row_index_stride) {
    arena = hl_arena_create(4096);
    if (!arena) return nomem(w, err);
  }
  hl_status_t st = HL_OK;
  for (int i = 0; i < w->n_cols; i++) {
    ocol_t *c = &w->cols[i];
    if (arena) {
      Orcpb__ColumnStats cs;
      size_t before = c->rg_stats.len;
      if (hl_orc_stats_message(arena, c->kind, c->type, &c->rg, &cs) != 0 ||
          pack_into(&c->rg_stats, &cs.base) != 0 ||
          i64_push(&c->rg_stat_lens, (int64_t)(c->rg_stats.len - before)) != 0)
        st = nomem(w, err);
    }
    hl_orc_stat_merge(c->kind, &c->stripe, &c->rg);
    if (c->stripe.smin.oom || c->stripe.smax.oom) st = nomem(w, err);
    hl_orc_stat_clear(&c->rg);
  }
  hl_arena_destroy(arena);
  w->group_rows = 0;
  return st;
}

hl_status_t hl_orc_writer_write(hl_orc_writer_t *w, const hl_batch_t *batch, hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR),
                      "cannot write \"%s\": an earlier write failed", w->path);
  ocol_t *root = &w->cols[0];
  uint32_t live = hl_batch_live(batch);
  for (uint32_t i = 0; i < live; i++) {
    uint32_t row = hl_batch_row(batch, i);
    uint64_t stride = w->opts.row_index_stride;
    if (stride && w->group_rows == 0) {
      hl_status_t st = begin_row_group(w, err);
      if (st != HL_OK) return st;
    }
    if (u8_push(&root->present, 1) != 0) return nomem(w, err);
    root->rg.n_values++;
    for (int c = 0; c < root->n_children; c++) {
      hl_value_t v;
      hl_vec_get_value(&batch->cols[c], row, &v);
      hl_status_t st = put_value(w, &w->cols[root->children[c]], &v, err);
      if (st != HL_OK) return st;
    }
    w->rows++;
    w->stripe_rows++;
    w->group_rows++;
    if (stride && w->group_rows == stride) {
      hl_status_t st = end_row_group(w, err);
      if (st != HL_OK) return st;
    }
    if (w->buffered >= w->opts.stripe_size) {
      hl_status_t st = flush_stripe(w, err);
      if (st != HL_OK) return st;
    }
  }
  return HL_OK;
}

static hl_status_t write_tail(hl_orc_writer_t *w, hl_error_t *err) {
  hl_status_t st = flush_stripe(w, err);
  if (st != HL_OK) return st;
  hl_arena_t *arena = hl_arena_create(16384);
  Orcpb__Type **tp = hl_malloc((size_t)w->n_cols * sizeof *tp);
  if (!arena || !tp) st = nomem(w, err);
  uint64_t content_len = w->offset;
  hl_buf_reset(&w->out);
  /* Metadata */
  if (st == HL_OK)
    st = hl_orc_compress(w->opts.codec, w->opts.compress_size, (uint8_t *)w->meta.data, w->meta.len,
                         &w->out, NULL, err);
  size_t meta_len = w->out.len;
  /* Footer: protobuf-c packs fields in field-number order, so the fields
   * before stripes (1, 2), the stripes kept packed (3), then the fields
   * after them are the bytes of the whole message packed at once. */
  if (st == HL_OK) {
    for (int i = 0; i < w->n_cols; i++)
      tp[i] = &w->types[i];
    Orcpb__Footer head = ORCPB__FOOTER__INIT;
    head.has_header_length = head.has_content_length = true;
    head.header_length = 3;
    head.content_length = content_len;
    hl_buf_reset(&w->tmp);
    if (pack_into(&w->tmp, &head.base) != 0) st = nomem(w, err);
    hl_buf_append(&w->tmp, w->stripe_info.data, w->stripe_info.len);
    Orcpb__Footer f = ORCPB__FOOTER__INIT;
    f.has_number_of_rows = true;
    f.has_row_index_stride = true;
    f.n_types = (size_t)w->n_cols;
    f.types = tp;
    f.number_of_rows = w->rows;
    f.row_index_stride = w->opts.row_index_stride;
    f.n_statistics = (size_t)w->n_cols;
    f.statistics = all_stats(w, arena, true);
    if (!f.statistics || pack_into(&w->tmp, &f.base) != 0 || w->tmp.oom) st = nomem(w, err);
    if (st == HL_OK)
      st = hl_orc_compress(w->opts.codec, w->opts.compress_size, (uint8_t *)w->tmp.data, w->tmp.len,
                           &w->out, NULL, err);
  }
  size_t footer_len = w->out.len - meta_len;
  /* PostScript, then its length */
  if (st == HL_OK) {
    uint32_t version[2] = {0, 12};
    Orcpb__PostScript ps = ORCPB__POST_SCRIPT__INIT;
    ps.has_footer_length = ps.has_compression = ps.has_compression_block_size = true;
    ps.has_metadata_length = ps.has_writer_version = true;
    ps.footer_length = footer_len;
    ps.compression = (Orcpb__CompressionKind)w->opts.codec;
    ps.compression_block_size = w->opts.compress_size;
    ps.n_version = 2;
    ps.version = version;
    ps.metadata_length = meta_len;
    ps.writer_version = WRITER_VERSION;
    ps.magic = "ORC";
    size_t before = w->out.len;
    if (pack_into(&w->out, &ps.base) != 0) st = nomem(w, err);
    size_t ps_len = w->out.len - before;
    if (st == HL_OK && ps_len > 255)
      st = hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "ORC postscript too long");
    if (st == HL_OK) hl_buf_putc(&w->out, (char)ps_len);
    if (st == HL_OK && w->out.oom) st = nomem(w, err);
  }
  if (st == HL_OK) st = out_append(w, w->out.data, w->out.len, err);
  hl_free(tp);
  hl_arena_destroy(arena);
  return st;
}

hl_status_t hl_orc_writer_close(hl_orc_writer_t *w, hl_error_t *err) {
  if (!w) return HL_OK;
  hl_status_t st = HL_OK;
  if (w->failed)
    st = hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR), "cannot write \"%s\": an earlier write failed",
                    w->path);
  if (st == HL_OK) st = write_tail(w, err);
  if (st == HL_OK) st = w->fs->ops->sync(w->file, err);
  hl_status_t cst = w->fs->ops->close(w->file, err);
  if (st == HL_OK) st = cst;
  writer_free(w);
  return st;
}

void hl_orc_writer_abort(hl_orc_writer_t *w) {
  if (!w) return;
  hl_error_t e;
  hl_err_init(&e);
  if (w->file) w->fs->ops->close(w->file, &e);
  hl_err_clear(&e);
  writer_free(w);
}

uint64_t hl_orc_writer_rows(const hl_orc_writer_t *w) {
  return w ? w->rows : 0;
}

/* JavaDataModel (64-bit JVM) sizes Hive's rawDataSize uses. */
#define JDM_OBJECT     16
#define JDM_ARRAY      24
#define JDM_PRIMITIVE1 4
#define JDM_PRIMITIVE2 8

/* Frees the capacity of A (every push starts from zero). */
static void i64_release(i64vec_t *a) {
  hl_free(a->v);
  memset(a, 0, sizeof *a);
}

static void u8_release(u8vec_t *a) {
  hl_free(a->v);
  memset(a, 0, sizeof *a);
}

hl_status_t hl_orc_writer_flush(hl_orc_writer_t *w, hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR),
                      "cannot write \"%s\": an earlier write failed", w->path);
  hl_status_t st = flush_stripe(w, err);
  if (st != HL_OK) return st;
  for (int i = 0; i < w->n_cols; i++) {
    ocol_t *c = &w->cols[i];
    u8_release(&c->present);
    u8_release(&c->bools);
    i64_release(&c->ints);
    i64_release(&c->nanos);
    i64_release(&c->ids);
    i64_release(&c->entries);
    i64_release(&c->entry_lens);
    i64_release(&c->rg_stat_lens);
    hl_buf_fini(&c->data);
    hl_buf_fini(&c->rg_stats);
    hl_free(c->marks);
    c->marks = NULL;
    c->n_marks = c->cap_marks = 0;
  }
  hl_buf_fini(&w->out);
  hl_buf_fini(&w->tmp);
  return HL_OK;
}

static uint64_t stat_mem(const hl_orc_stat_t *s) {
  return s->smin.cap + s->smax.cap;
}

uint64_t hl_orc_writer_mem(const hl_orc_writer_t *w) {
  uint64_t n = sizeof *w + w->out.cap + w->tmp.cap + w->meta.cap;
  n += w->stripe_info.cap;
  for (int i = 0; i < w->n_cols; i++) {
    const ocol_t *c = &w->cols[i];
    n += sizeof *c + c->present.cap + c->bools.cap + c->data.cap + c->rg_stats.cap;
    n += (c->ints.cap + c->nanos.cap + c->ids.cap + c->entries.cap + c->entry_lens.cap +
          c->rg_stat_lens.cap) *
         sizeof(int64_t);
    n += c->cap_marks * sizeof(rgmark_t) + stat_mem(&c->rg) + stat_mem(&c->stripe) +
         stat_mem(&c->file);
    /* the dictionary's map: about two words of table and an entry per string */
    if (c->dict) n += c->entries.n * 48;
  }
  return n;
}

uint64_t hl_orc_writer_footer_mem(const hl_orc_writer_t *w) {
  return w->meta.cap + w->stripe_info.cap;
}

uint64_t hl_orc_writer_raw_bytes(const hl_orc_writer_t *w) {
  if (!w) return 0;
  uint64_t total = 0;
  for (int i = 0; i < w->n_cols; i++) {
    const ocol_t *c = &w->cols[i];
    uint64_t n = c->file.n_values + c->stripe.n_values + c->rg.n_values;
    uint64_t bytes = c->file.bytes + c->stripe.bytes + c->rg.bytes;
    switch (c->kind) {
    case HL_ORC_BINARY:
      total += bytes;
      break;
    case HL_ORC_STRING:
    case HL_ORC_VARCHAR:
    case HL_ORC_CHAR:
      if (n == 0) n = 1;
      total += n * (JDM_OBJECT + JDM_PRIMITIVE1 * 3 + JDM_ARRAY + (uint64_t)(int32_t)(bytes / n));
      break;
    case HL_ORC_TIMESTAMP:
      total += n * (JDM_OBJECT + JDM_PRIMITIVE2);
      break;
    case HL_ORC_DATE:
      total += n * (JDM_OBJECT + 3 * JDM_PRIMITIVE2);
      break;
    case HL_ORC_DECIMAL:
      total += n * (JDM_OBJECT + 2 * JDM_PRIMITIVE2 + JDM_OBJECT + 4 * JDM_PRIMITIVE2);
      break;
    case HL_ORC_DOUBLE:
    case HL_ORC_LONG:
      total += n * JDM_PRIMITIVE2;
      break;
    case HL_ORC_FLOAT:
    case HL_ORC_INT:
    case HL_ORC_SHORT:
    case HL_ORC_BOOLEAN:
    case HL_ORC_BYTE:
      total += n * JDM_PRIMITIVE1;
      break;
    default:
      break;
    }
  }
  return total;
}
