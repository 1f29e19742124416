/*
 * pq_meta.c -- decode and encode the Parquet metadata structures of
 * parquet.thrift (FileMetaData, PageHeader, ColumnIndex, OffsetIndex and
 * everything they contain) over pq_thrift.c, and read a file's footer.
 *
 * Decoders walk a struct's fields, dispatch on the field id, check the
 * wire type, and skip ids they do not know (newer writers).  A bit set of
 * the ids seen checks the required fields at the end of each struct.
 * Strings and binaries are copied into the caller's arena, so the input
 * buffer can go; arrays are allocated only after the Thrift reader has
 * bounded their counts by the bytes remaining.
 *
 * Spec: apache/parquet-format src/main/thrift/parquet.thrift, PageIndex.md.
 */
#include "format/parquet/pq_meta.h"

#include "format/parquet/pq_thrift.h"
#include "util/mem.h"

#include <string.h>

/* ====================================================================== */
/* Decoding helpers                                                       */
/* ====================================================================== */

typedef struct dec {
  hl_pq_thrift_reader_t r;
  hl_arena_t *arena; /* NULL: statistics are skipped (page headers) */
  hl_error_t *err;
} dec_t;

static hl_status_t nomem(dec_t *d) {
  return hl_err_nomem(d->err);
}

static hl_status_t bad(dec_t *d, const char *strct, const char *field, const char *why) {
  return hl_err_set(d->err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "corrupt Parquet metadata: %s.%s %s",
                    strct, field, why);
}

static hl_status_t missing(dec_t *d, const char *strct, const char *field) {
  return bad(d, strct, field, "is missing");
}

static hl_status_t expect(dec_t *d, hl_pq_ttype_t t, hl_pq_ttype_t want, const char *strct,
                          const char *field) {
  if (t == want || ((t == HL_PQ_T_TRUE || t == HL_PQ_T_FALSE) &&
                    (want == HL_PQ_T_TRUE || want == HL_PQ_T_FALSE))) {
    return HL_OK;
  }
  if ((t == HL_PQ_T_SET && want == HL_PQ_T_LIST)) return HL_OK;
  /* Like Thrift's generated readers, a known id with an unexpected wire type
   * is skipped (some writers reused ids); HL_DONE tells the struct loop. */
  (void)d;
  (void)strct;
  (void)field;
  return HL_DONE;
}

static hl_status_t f_i32(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f, int32_t *out) {
  hl_status_t st = expect(d, t, HL_PQ_T_I32, s, f);
  return st != HL_OK ? st : hl_pq_thrift_read_i32(&d->r, out);
}

static hl_status_t f_i64(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f, int64_t *out) {
  hl_status_t st = expect(d, t, HL_PQ_T_I64, s, f);
  return st != HL_OK ? st : hl_pq_thrift_read_i64(&d->r, out);
}

/* A non-negative i32 / i64. */
static hl_status_t f_n32(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f, int32_t *out) {
  hl_status_t st = f_i32(d, t, s, f, out);
  if (st == HL_OK && *out < 0) return bad(d, s, f, "is negative");
  return st;
}

static hl_status_t f_n64(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f, int64_t *out) {
  hl_status_t st = f_i64(d, t, s, f, out);
  if (st == HL_OK && *out < 0) return bad(d, s, f, "is negative");
  return st;
}

static hl_status_t f_bool(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f, bool *out) {
  hl_status_t st = expect(d, t, HL_PQ_T_TRUE, s, f);
  if (st == HL_OK) *out = hl_pq_thrift_read_field_bool(t);
  return st;
}

/* Enum fields are i32 on the wire; the value is kept as read. */
#define F_ENUM(d, t, s, f, out)                                                                    \
  do {                                                                                             \
    int32_t v_;                                                                                    \
    st = f_i32(d, t, s, f, &v_);                                                                   \
    if (st == HL_OK) *(out) = v_;                                                                  \
  } while (0)

/* Binary field copied into the arena (a NUL is appended so strings can
 * be used as C strings). */
static hl_status_t f_bin(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f,
                         hl_pq_meta_bytes_t *out) {
  hl_status_t st = expect(d, t, HL_PQ_T_BINARY, s, f);
  const uint8_t *p;
  size_t len;
  if (st == HL_OK) st = hl_pq_thrift_read_binary(&d->r, &p, &len);
  if (st != HL_OK) return st;
  out->len = len;
  out->ptr = NULL;
  if (!d->arena) return HL_OK;
  char *copy = hl_arena_strndup(d->arena, (const char *)p, len);
  if (!copy) return nomem(d);
  out->ptr = (const uint8_t *)copy;
  return HL_OK;
}

static hl_status_t f_str(dec_t *d, hl_pq_ttype_t t, const char *s, const char *f, char **out) {
  hl_pq_meta_bytes_t b;
  hl_status_t st = f_bin(d, t, s, f, &b);
  if (st == HL_OK) *out = (char *)b.ptr;
  return st;
}

/* List header of a list field: checks the field's wire type and the
 * element type (when the list is not empty) and allocates N elements of
 * ELEM_SIZE (zeroed) into *ARRAY; N is bounded by the input size. */
static hl_status_t f_list(dec_t *d, hl_pq_ttype_t t, hl_pq_ttype_t elem, const char *s,
                          const char *f, size_t elem_size, void **array, int *n) {
  hl_status_t st = expect(d, t, HL_PQ_T_LIST, s, f);
  hl_pq_ttype_t et;
  uint32_t count;
  if (st == HL_OK) st = hl_pq_thrift_list_begin(&d->r, &et, &count);
  if (st != HL_OK) return st;
  if (count > 0 && et != elem) return bad(d, s, f, "has elements of the wrong type");
  *n = (int)count;
  *array = NULL;
  if (count == 0 || !elem_size) return HL_OK;
  size_t nbytes;
  if (__builtin_mul_overflow((size_t)count, elem_size, &nbytes)) return nomem(d);
  *array = hl_arena_zalloc(d->arena, nbytes);
  return *array ? HL_OK : nomem(d);
}

/* Struct loop scaffolding: SEEN collects ids 0..63 for required checks. */
#define STRUCT_BEGIN(d)                                                                            \
  int16_t last_id_;                                                                                \
  hl_pq_ttype_t t;                                                                                 \
  int16_t id;                                                                                      \
  uint64_t seen = 0;                                                                               \
  hl_status_t st = hl_pq_thrift_struct_begin(&(d)->r, &last_id_);                                  \
  if (st != HL_OK) return st;                                                                      \
  for (;;) {                                                                                       \
    st = hl_pq_thrift_field(&(d)->r, &last_id_, &t, &id);                                          \
    if (st != HL_OK) return st;                                                                    \
    if (t == HL_PQ_T_STOP) break;                                                                  \
    if (id > 0 && id < 64) seen |= (uint64_t)1 << id;                                              \
    switch (id) {

#define STRUCT_END(d)                                                                              \
  default:                                                                                         \
    st = hl_pq_thrift_skip(&(d)->r, t);                                                            \
    break;                                                                                         \
    }                                                                                              \
    STRUCT_NEXT(d)                                                                                 \
    }                                                                                              \
    (void)seen; /* structs without required fields never test it */                                \
    hl_pq_thrift_struct_end(&(d)->r);

/* After one field: a wire-type mismatch (HL_DONE) skips the value and
 * forgets the id; any other failure ends the decode. */
#define STRUCT_NEXT(d)                                                                             \
  if (st == HL_DONE) {                                                                             \
    if (id > 0 && id < 64) seen &= ~((uint64_t)1 << id);                                           \
    st = hl_pq_thrift_skip(&(d)->r, t);                                                            \
  }                                                                                                \
  if (st != HL_OK) return st;

#define HAS(n) ((seen >> (n)) & 1)
#define REQUIRE(d, n, s, f)                                                                        \
  do {                                                                                             \
    if (!HAS(n)) return missing(d, s, f);                                                          \
  } while (0)

/* ====================================================================== */
/* Decoders                                                               */
/* ====================================================================== */

static hl_status_t dec_stats(dec_t *d, hl_pq_stats_t *s) {
  static const char *S = "Statistics";
  STRUCT_BEGIN(d)
case 1:
  st = f_bin(d, t, S, "max", &s->max);
  s->has_max = st == HL_OK;
  break;
case 2:
  st = f_bin(d, t, S, "min", &s->min);
  s->has_min = st == HL_OK;
  break;
case 3:
  st = f_i64(d, t, S, "null_count", &s->null_count);
  s->has_null_count = st == HL_OK;
  break;
case 4:
  st = f_i64(d, t, S, "distinct_count", &s->distinct_count);
  s->has_distinct_count = st == HL_OK;
  break;
case 5:
  st = f_bin(d, t, S, "max_value", &s->max_value);
  s->has_max_value = st == HL_OK;
  break;
case 6:
  st = f_bin(d, t, S, "min_value", &s->min_value);
  s->has_min_value = st == HL_OK;
  break;
case 7:
  st = f_bool(d, t, S, "is_max_value_exact", &s->is_max_value_exact);
  s->has_is_max_value_exact = st == HL_OK;
  break;
case 8:
  st = f_bool(d, t, S, "is_min_value_exact", &s->is_min_value_exact);
  s->has_is_min_value_exact = st == HL_OK;
  break;
case 9:
  st = f_i64(d, t, S, "nan_count", &s->nan_count);
  s->has_nan_count = st == HL_OK;
  break;
  STRUCT_END(d)
  return HL_OK;
}

/* Optional Statistics field: decoded into the arena, or skipped without
 * one. */
static hl_status_t f_stats(dec_t *d, hl_pq_ttype_t t, const char *s, hl_pq_stats_t **out) {
  hl_status_t st = expect(d, t, HL_PQ_T_STRUCT, s, "statistics");
  if (st != HL_OK) return st;
  if (!d->arena) return hl_pq_thrift_skip(&d->r, t);
  *out = hl_arena_zalloc(d->arena, sizeof **out);
  if (!*out) return nomem(d);
  return dec_stats(d, *out);
}

static hl_status_t dec_kv(dec_t *d, hl_pq_kv_t *kv) {
  static const char *S = "KeyValue";
  hl_pq_meta_bytes_t v;
  STRUCT_BEGIN(d)
case 1:
  st = f_str(d, t, S, "key", &kv->key);
  break;
case 2:
  st = f_bin(d, t, S, "value", &v);
  if (st == HL_OK) {
    kv->value = (char *)v.ptr; /* "" when empty: f_bin always copies */
    kv->value_len = v.len;
  }
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "key");
  return HL_OK;
}

static hl_status_t f_kv_list(dec_t *d, hl_pq_ttype_t t, const char *s, hl_pq_kv_t **out, int *n) {
  hl_status_t st =
      f_list(d, t, HL_PQ_T_STRUCT, s, "key_value_metadata", sizeof **out, (void **)out, n);
  for (int i = 0; st == HL_OK && i < *n; i++)
    st = dec_kv(d, &(*out)[i]);
  return st;
}

/* Empty member structs of unions (StringType, MilliSeconds, ...) may still
 * carry fields from newer writers: skip them all. */
static hl_status_t dec_empty(dec_t *d) {
  STRUCT_BEGIN(d)
case 0: /* no field is known; the default skips */
  st = hl_pq_thrift_skip(&d->r, t);
  break;
  STRUCT_END(d)
  (void)seen;
  return HL_OK;
}

static hl_status_t dec_time_unit(dec_t *d, hl_pq_time_unit_t *unit) {
  STRUCT_BEGIN(d)
case 1:
case 2:
case 3:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, "TimeUnit", "unit")) == HL_OK) st = dec_empty(d);
  if (st == HL_OK) *unit = (hl_pq_time_unit_t)id;
  break;
  STRUCT_END(d)
  (void)seen;
  return HL_OK;
}

/* TimestampType and TimeType share their layout. */
static hl_status_t dec_time_type(dec_t *d, const char *S, hl_pq_logical_t *lt) {
  STRUCT_BEGIN(d)
case 1:
  st = f_bool(d, t, S, "isAdjustedToUTC", &lt->is_adjusted_to_utc);
  break;
case 2:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "unit")) == HL_OK) st = dec_time_unit(d, &lt->unit);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "isAdjustedToUTC");
  REQUIRE(d, 2, S, "unit");
  if (lt->unit == HL_PQ_UNIT_NONE) return bad(d, S, "unit", "is not a known time unit");
  return HL_OK;
}

static hl_status_t dec_decimal_type(dec_t *d, hl_pq_logical_t *lt) {
  static const char *S = "DecimalType";
  STRUCT_BEGIN(d)
case 1:
  st = f_i32(d, t, S, "scale", &lt->scale);
  break;
case 2:
  st = f_i32(d, t, S, "precision", &lt->precision);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "scale");
  REQUIRE(d, 2, S, "precision");
  return HL_OK;
}

static hl_status_t dec_int_type(dec_t *d, hl_pq_logical_t *lt) {
  static const char *S = "IntType";
  STRUCT_BEGIN(d)
case 1:
  if ((st = expect(d, t, HL_PQ_T_BYTE, S, "bitWidth")) == HL_OK) {
    st = hl_pq_thrift_read_byte(&d->r, &lt->bit_width);
  }
  break;
case 2:
  st = f_bool(d, t, S, "isSigned", &lt->is_signed);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "bitWidth");
  REQUIRE(d, 2, S, "isSigned");
  return HL_OK;
}

static hl_status_t dec_logical(dec_t *d, hl_pq_logical_t *lt) {
  static const char *S = "LogicalType";
  memset(lt, 0, sizeof *lt);
  STRUCT_BEGIN(d)
case 1:
case 2:
case 3:
case 4:
case 6:
case 11:
case 12:
case 13:
case 14:
case 15:
case 16:
case 17:
case 18:
case 19:
  /* Members without parameters this code uses (VARIANT's version and
   * GEOMETRY's CRS are skipped with the struct). */
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "member")) == HL_OK) st = dec_empty(d);
  if (st == HL_OK) lt->kind = (hl_pq_logical_kind_t)id;
  break;
case 5:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "DECIMAL")) == HL_OK) st = dec_decimal_type(d, lt);
  if (st == HL_OK) lt->kind = HL_PQ_LT_DECIMAL;
  break;
case 7:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "TIME")) == HL_OK) {
    st = dec_time_type(d, "TimeType", lt);
  }
  if (st == HL_OK) lt->kind = HL_PQ_LT_TIME;
  break;
case 8:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "TIMESTAMP")) == HL_OK) {
    st = dec_time_type(d, "TimestampType", lt);
  }
  if (st == HL_OK) lt->kind = HL_PQ_LT_TIMESTAMP;
  break;
case 10:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "INTEGER")) == HL_OK) st = dec_int_type(d, lt);
  if (st == HL_OK) lt->kind = HL_PQ_LT_INTEGER;
  break;
default:
  /* A member newer than this code: remember that the column has a type
   * we do not understand (the schema falls back to the physical type). */
  st = hl_pq_thrift_skip(&d->r, t);
  lt->kind = HL_PQ_LT_OTHER;
  break;
}
STRUCT_NEXT(d)
}
hl_pq_thrift_struct_end(&d->r);
(void)seen;
return HL_OK;
}

static hl_status_t dec_schema_elem(dec_t *d, hl_pq_schema_elem_t *e) {
  static const char *S = "SchemaElement";
  STRUCT_BEGIN(d)
case 1:
  F_ENUM(d, t, S, "type", &e->type);
  e->has_type = st == HL_OK;
  break;
case 2:
  st = f_i32(d, t, S, "type_length", &e->type_length);
  e->has_type_length = st == HL_OK;
  break;
case 3:
  F_ENUM(d, t, S, "repetition_type", &e->repetition);
  e->has_repetition = st == HL_OK;
  break;
case 4:
  st = f_str(d, t, S, "name", &e->name);
  break;
case 5:
  st = f_n32(d, t, S, "num_children", &e->num_children);
  e->has_num_children = st == HL_OK;
  break;
case 6:
  F_ENUM(d, t, S, "converted_type", &e->converted_type);
  e->has_converted_type = st == HL_OK;
  break;
case 7:
  st = f_i32(d, t, S, "scale", &e->scale);
  e->has_scale = st == HL_OK;
  break;
case 8:
  st = f_i32(d, t, S, "precision", &e->precision);
  e->has_precision = st == HL_OK;
  break;
case 9:
  st = f_i32(d, t, S, "field_id", &e->field_id);
  e->has_field_id = st == HL_OK;
  break;
case 10:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "logicalType")) == HL_OK) {
    st = dec_logical(d, &e->logical);
  }
  break;
  STRUCT_END(d)
  REQUIRE(d, 4, S, "name");
  return HL_OK;
}

static hl_status_t dec_page_enc_stats(dec_t *d, hl_pq_page_enc_stats_t *p) {
  static const char *S = "PageEncodingStats";
  STRUCT_BEGIN(d)
case 1:
  F_ENUM(d, t, S, "page_type", &p->page_type);
  break;
case 2:
  F_ENUM(d, t, S, "encoding", &p->encoding);
  break;
case 3:
  st = f_n32(d, t, S, "count", &p->count);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "page_type");
  REQUIRE(d, 2, S, "encoding");
  REQUIRE(d, 3, S, "count");
  return HL_OK;
}

static hl_status_t dec_column_meta(dec_t *d, hl_pq_column_meta_t *m) {
  static const char *S = "ColumnMetaData";
  STRUCT_BEGIN(d)
case 1:
  F_ENUM(d, t, S, "type", &m->type);
  break;
case 2:
  st = f_list(d, t, HL_PQ_T_I32, S, "encodings", sizeof *m->encodings, (void **)&m->encodings,
              &m->n_encodings);
  for (int i = 0; st == HL_OK && i < m->n_encodings; i++) {
    int32_t v;
    st = hl_pq_thrift_read_i32(&d->r, &v);
    m->encodings[i] = v;
  }
  break;
case 3:
  st = f_list(d, t, HL_PQ_T_BINARY, S, "path_in_schema", sizeof *m->path_in_schema,
              (void **)&m->path_in_schema, &m->n_path);
  for (int i = 0; st == HL_OK && i < m->n_path; i++) {
    hl_pq_meta_bytes_t b = {0};
    st = f_bin(d, HL_PQ_T_BINARY, S, "path_in_schema", &b);
    m->path_in_schema[i] = (char *)b.ptr;
  }
  break;
case 4:
  F_ENUM(d, t, S, "codec", &m->codec);
  break;
case 5:
  st = f_n64(d, t, S, "num_values", &m->num_values);
  break;
case 6:
  st = f_n64(d, t, S, "total_uncompressed_size", &m->total_uncompressed_size);
  break;
case 7:
  st = f_n64(d, t, S, "total_compressed_size", &m->total_compressed_size);
  break;
case 8:
  st = f_kv_list(d, t, S, &m->key_value_metadata, &m->n_kv);
  break;
case 9:
  st = f_n64(d, t, S, "data_page_offset", &m->data_page_offset);
  break;
case 10:
  st = f_n64(d, t, S, "index_page_offset", &m->index_page_offset);
  m->has_index_page_offset = st == HL_OK;
  break;
case 11:
  st = f_n64(d, t, S, "dictionary_page_offset", &m->dictionary_page_offset);
  m->has_dictionary_page_offset = st == HL_OK;
  break;
case 12:
  st = f_stats(d, t, S, &m->statistics);
  break;
case 13:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "encoding_stats", sizeof *m->encoding_stats,
              (void **)&m->encoding_stats, &m->n_encoding_stats);
  for (int i = 0; st == HL_OK && i < m->n_encoding_stats; i++) {
    st = dec_page_enc_stats(d, &m->encoding_stats[i]);
  }
  break;
case 14:
  st = f_n64(d, t, S, "bloom_filter_offset", &m->bloom_filter_offset);
  m->has_bloom_filter_offset = st == HL_OK;
  break;
case 15:
  st = f_n32(d, t, S, "bloom_filter_length", &m->bloom_filter_length);
  m->has_bloom_filter_length = st == HL_OK;
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "type");
  REQUIRE(d, 2, S, "encodings");
  REQUIRE(d, 3, S, "path_in_schema");
  REQUIRE(d, 4, S, "codec");
  REQUIRE(d, 5, S, "num_values");
  REQUIRE(d, 6, S, "total_uncompressed_size");
  REQUIRE(d, 7, S, "total_compressed_size");
  REQUIRE(d, 9, S, "data_page_offset");
  return HL_OK;
}

static hl_status_t dec_column_chunk(dec_t *d, hl_pq_column_chunk_t *c) {
  static const char *S = "ColumnChunk";
  STRUCT_BEGIN(d)
case 1:
  st = f_str(d, t, S, "file_path", &c->file_path);
  break;
case 2:
  st = f_i64(d, t, S, "file_offset", &c->file_offset);
  break;
case 3:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "meta_data")) != HL_OK) break;
  if (!(c->meta_data = hl_arena_zalloc(d->arena, sizeof *c->meta_data))) {
    st = nomem(d);
    break;
  }
  st = dec_column_meta(d, c->meta_data);
  break;
case 4:
  st = f_n64(d, t, S, "offset_index_offset", &c->offset_index_offset);
  c->has_offset_index_offset = st == HL_OK;
  break;
case 5:
  st = f_n32(d, t, S, "offset_index_length", &c->offset_index_length);
  c->has_offset_index_length = st == HL_OK;
  break;
case 6:
  st = f_n64(d, t, S, "column_index_offset", &c->column_index_offset);
  c->has_column_index_offset = st == HL_OK;
  break;
case 7:
  st = f_n32(d, t, S, "column_index_length", &c->column_index_length);
  c->has_column_index_length = st == HL_OK;
  break;
case 8:
case 9:
  c->encrypted = true;
  st = hl_pq_thrift_skip(&d->r, t);
  break;
  STRUCT_END(d)
  /* file_offset is required by the IDL but deprecated and unused; tolerate
   * writers that leave it out. */
  (void)seen;
  return HL_OK;
}

static hl_status_t dec_sorting_column(dec_t *d, hl_pq_sorting_column_t *c) {
  static const char *S = "SortingColumn";
  STRUCT_BEGIN(d)
case 1:
  st = f_n32(d, t, S, "column_idx", &c->column_idx);
  break;
case 2:
  st = f_bool(d, t, S, "descending", &c->descending);
  break;
case 3:
  st = f_bool(d, t, S, "nulls_first", &c->nulls_first);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "column_idx");
  REQUIRE(d, 2, S, "descending");
  REQUIRE(d, 3, S, "nulls_first");
  return HL_OK;
}

static hl_status_t dec_row_group(dec_t *d, hl_pq_row_group_t *g) {
  static const char *S = "RowGroup";
  STRUCT_BEGIN(d)
case 1:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "columns", sizeof *g->columns, (void **)&g->columns,
              &g->n_columns);
  for (int i = 0; st == HL_OK && i < g->n_columns; i++) {
    st = dec_column_chunk(d, &g->columns[i]);
  }
  break;
case 2:
  st = f_n64(d, t, S, "total_byte_size", &g->total_byte_size);
  break;
case 3:
  st = f_n64(d, t, S, "num_rows", &g->num_rows);
  break;
case 4:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "sorting_columns", sizeof *g->sorting_columns,
              (void **)&g->sorting_columns, &g->n_sorting_columns);
  for (int i = 0; st == HL_OK && i < g->n_sorting_columns; i++) {
    st = dec_sorting_column(d, &g->sorting_columns[i]);
  }
  break;
case 5:
  st = f_n64(d, t, S, "file_offset", &g->file_offset);
  g->has_file_offset = st == HL_OK;
  break;
case 6:
  st = f_n64(d, t, S, "total_compressed_size", &g->total_compressed_size);
  g->has_total_compressed_size = st == HL_OK;
  break;
case 7:
  if ((st = expect(d, t, HL_PQ_T_I16, S, "ordinal")) == HL_OK) {
    st = hl_pq_thrift_read_i16(&d->r, &g->ordinal);
  }
  g->has_ordinal = st == HL_OK;
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "columns");
  REQUIRE(d, 2, S, "total_byte_size");
  REQUIRE(d, 3, S, "num_rows");
  return HL_OK;
}

static hl_status_t dec_column_order(dec_t *d, hl_pq_column_order_t *o) {
  *o = HL_PQ_ORDER_UNKNOWN;
  STRUCT_BEGIN(d)
case 1:
case 2:
case 3:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, "ColumnOrder", "member")) == HL_OK) st = dec_empty(d);
  if (st == HL_OK) *o = (hl_pq_column_order_t)id;
  break;
  STRUCT_END(d)
  (void)seen;
  return HL_OK;
}

static hl_status_t dec_file_meta(dec_t *d, hl_pq_file_meta_t *m) {
  static const char *S = "FileMetaData";
  STRUCT_BEGIN(d)
case 1:
  st = f_i32(d, t, S, "version", &m->version);
  break;
case 2:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "schema", sizeof *m->schema, (void **)&m->schema,
              &m->n_schema);
  for (int i = 0; st == HL_OK && i < m->n_schema; i++)
    st = dec_schema_elem(d, &m->schema[i]);
  break;
case 3:
  st = f_n64(d, t, S, "num_rows", &m->num_rows);
  break;
case 4:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "row_groups", sizeof *m->row_groups, (void **)&m->row_groups,
              &m->n_row_groups);
  for (int i = 0; st == HL_OK && i < m->n_row_groups; i++) {
    st = dec_row_group(d, &m->row_groups[i]);
  }
  break;
case 5:
  st = f_kv_list(d, t, S, &m->key_value_metadata, &m->n_kv);
  break;
case 6:
  st = f_str(d, t, S, "created_by", &m->created_by);
  break;
case 7:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "column_orders", sizeof *m->column_orders,
              (void **)&m->column_orders, &m->n_column_orders);
  for (int i = 0; st == HL_OK && i < m->n_column_orders; i++) {
    st = dec_column_order(d, &m->column_orders[i]);
  }
  break;
case 8:
  m->encrypted = true;
  st = hl_pq_thrift_skip(&d->r, t);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "version");
  REQUIRE(d, 2, S, "schema");
  REQUIRE(d, 3, S, "num_rows");
  REQUIRE(d, 4, S, "row_groups");
  if (m->n_schema < 1) return bad(d, S, "schema", "is empty");
  return HL_OK;
}

static hl_status_t dec_data_page_header(dec_t *d, hl_pq_data_page_header_t *h) {
  static const char *S = "DataPageHeader";
  STRUCT_BEGIN(d)
case 1:
  st = f_n32(d, t, S, "num_values", &h->num_values);
  break;
case 2:
  F_ENUM(d, t, S, "encoding", &h->encoding);
  break;
case 3:
  F_ENUM(d, t, S, "definition_level_encoding", &h->definition_level_encoding);
  break;
case 4:
  F_ENUM(d, t, S, "repetition_level_encoding", &h->repetition_level_encoding);
  break;
case 5:
  st = f_stats(d, t, S, &h->statistics);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "num_values");
  REQUIRE(d, 2, S, "encoding");
  REQUIRE(d, 3, S, "definition_level_encoding");
  REQUIRE(d, 4, S, "repetition_level_encoding");
  return HL_OK;
}

static hl_status_t dec_dict_page_header(dec_t *d, hl_pq_dict_page_header_t *h) {
  static const char *S = "DictionaryPageHeader";
  STRUCT_BEGIN(d)
case 1:
  st = f_n32(d, t, S, "num_values", &h->num_values);
  break;
case 2:
  F_ENUM(d, t, S, "encoding", &h->encoding);
  break;
case 3:
  st = f_bool(d, t, S, "is_sorted", &h->is_sorted);
  h->has_is_sorted = st == HL_OK;
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "num_values");
  REQUIRE(d, 2, S, "encoding");
  return HL_OK;
}

static hl_status_t dec_data_page_header_v2(dec_t *d, hl_pq_data_page_header_v2_t *h) {
  static const char *S = "DataPageHeaderV2";
  h->is_compressed = true;
  STRUCT_BEGIN(d)
case 1:
  st = f_n32(d, t, S, "num_values", &h->num_values);
  break;
case 2:
  st = f_n32(d, t, S, "num_nulls", &h->num_nulls);
  break;
case 3:
  st = f_n32(d, t, S, "num_rows", &h->num_rows);
  break;
case 4:
  F_ENUM(d, t, S, "encoding", &h->encoding);
  break;
case 5:
  st = f_n32(d, t, S, "definition_levels_byte_length", &h->definition_levels_byte_length);
  break;
case 6:
  st = f_n32(d, t, S, "repetition_levels_byte_length", &h->repetition_levels_byte_length);
  break;
case 7:
  st = f_bool(d, t, S, "is_compressed", &h->is_compressed);
  break;
case 8:
  st = f_stats(d, t, S, &h->statistics);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "num_values");
  REQUIRE(d, 2, S, "num_nulls");
  REQUIRE(d, 3, S, "num_rows");
  REQUIRE(d, 4, S, "encoding");
  REQUIRE(d, 5, S, "definition_levels_byte_length");
  REQUIRE(d, 6, S, "repetition_levels_byte_length");
  if (h->num_nulls > h->num_values) return bad(d, S, "num_nulls", "exceeds num_values");
  return HL_OK;
}

static hl_status_t dec_page_header(dec_t *d, hl_pq_page_header_t *h) {
  static const char *S = "PageHeader";
  STRUCT_BEGIN(d)
case 1:
  F_ENUM(d, t, S, "type", &h->type);
  break;
case 2:
  st = f_n32(d, t, S, "uncompressed_page_size", &h->uncompressed_page_size);
  break;
case 3:
  st = f_n32(d, t, S, "compressed_page_size", &h->compressed_page_size);
  break;
case 4:
  st = f_i32(d, t, S, "crc", &h->crc);
  h->has_crc = st == HL_OK;
  break;
case 5:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "data_page_header")) == HL_OK) {
    st = dec_data_page_header(d, &h->data_page_header);
  }
  h->has_data_page_header = st == HL_OK;
  break;
case 6:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "index_page_header")) == HL_OK) st = dec_empty(d);
  h->has_index_page_header = st == HL_OK;
  break;
case 7:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "dictionary_page_header")) == HL_OK) {
    st = dec_dict_page_header(d, &h->dictionary_page_header);
  }
  h->has_dictionary_page_header = st == HL_OK;
  break;
case 8:
  if ((st = expect(d, t, HL_PQ_T_STRUCT, S, "data_page_header_v2")) == HL_OK) {
    st = dec_data_page_header_v2(d, &h->data_page_header_v2);
  }
  h->has_data_page_header_v2 = st == HL_OK;
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "type");
  REQUIRE(d, 2, S, "uncompressed_page_size");
  REQUIRE(d, 3, S, "compressed_page_size");
  if (h->type == HL_PQ_PAGE_DATA && !h->has_data_page_header) {
    return missing(d, S, "data_page_header");
  }
  if (h->type == HL_PQ_PAGE_DICTIONARY && !h->has_dictionary_page_header) {
    return missing(d, S, "dictionary_page_header");
  }
  if (h->type == HL_PQ_PAGE_DATA_V2 && !h->has_data_page_header_v2) {
    return missing(d, S, "data_page_header_v2");
  }
  return HL_OK;
}

static hl_status_t dec_column_index(dec_t *d, hl_pq_column_index_t *c) {
  static const char *S = "ColumnIndex";
  int n_min = -1, n_max = -1, n_nulls = -1, n_counts = -1;
  STRUCT_BEGIN(d)
case 1:
  st = f_list(d, t, HL_PQ_T_TRUE, S, "null_pages", sizeof *c->null_pages, (void **)&c->null_pages,
              &n_nulls);
  for (int i = 0; st == HL_OK && i < n_nulls; i++) {
    st = hl_pq_thrift_read_elem_bool(&d->r, &c->null_pages[i]);
  }
  break;
case 2:
case 3: {
  hl_pq_meta_bytes_t **arr = id == 2 ? &c->min_values : &c->max_values;
  int *n = id == 2 ? &n_min : &n_max;
  const char *f = id == 2 ? "min_values" : "max_values";
  st = f_list(d, t, HL_PQ_T_BINARY, S, f, sizeof **arr, (void **)arr, n);
  for (int i = 0; st == HL_OK && i < *n; i++)
    st = f_bin(d, HL_PQ_T_BINARY, S, f, &(*arr)[i]);
  break;
}
case 4:
  F_ENUM(d, t, S, "boundary_order", &c->boundary_order);
  break;
case 5:
  st = f_list(d, t, HL_PQ_T_I64, S, "null_counts", sizeof *c->null_counts, (void **)&c->null_counts,
              &n_counts);
  for (int i = 0; st == HL_OK && i < n_counts; i++) {
    st = hl_pq_thrift_read_i64(&d->r, &c->null_counts[i]);
  }
  c->has_null_counts = st == HL_OK;
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "null_pages");
  REQUIRE(d, 2, S, "min_values");
  REQUIRE(d, 3, S, "max_values");
  REQUIRE(d, 4, S, "boundary_order");
  if (n_min != n_nulls || n_max != n_nulls || (c->has_null_counts && n_counts != n_nulls)) {
    return bad(d, S, "min_values", "and the other page lists differ in length");
  }
  c->n_pages = n_nulls;
  return HL_OK;
}

static hl_status_t dec_page_location(dec_t *d, hl_pq_page_location_t *p) {
  static const char *S = "PageLocation";
  STRUCT_BEGIN(d)
case 1:
  st = f_n64(d, t, S, "offset", &p->offset);
  break;
case 2:
  st = f_n32(d, t, S, "compressed_page_size", &p->compressed_page_size);
  break;
case 3:
  st = f_n64(d, t, S, "first_row_index", &p->first_row_index);
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "offset");
  REQUIRE(d, 2, S, "compressed_page_size");
  REQUIRE(d, 3, S, "first_row_index");
  return HL_OK;
}

static hl_status_t dec_offset_index(dec_t *d, hl_pq_offset_index_t *o) {
  static const char *S = "OffsetIndex";
  STRUCT_BEGIN(d)
case 1:
  st = f_list(d, t, HL_PQ_T_STRUCT, S, "page_locations", sizeof *o->page_locations,
              (void **)&o->page_locations, &o->n_pages);
  for (int i = 0; st == HL_OK && i < o->n_pages; i++) {
    st = dec_page_location(d, &o->page_locations[i]);
  }
  break;
  STRUCT_END(d)
  REQUIRE(d, 1, S, "page_locations");
  return HL_OK;
}

/* ====================================================================== */
/* Public decoding entry points                                           */
/* ====================================================================== */

hl_status_t hl_pq_file_meta_decode(hl_arena_t *arena, const void *buf, size_t len,
                                   hl_pq_file_meta_t **meta, hl_error_t *err) {
  dec_t d = {.arena = arena, .err = err};
  hl_pq_thrift_reader_init(&d.r, buf, len, err);
  hl_pq_file_meta_t *m = hl_arena_zalloc(arena, sizeof *m);
  if (!m) return hl_err_nomem(err);
  hl_status_t st = dec_file_meta(&d, m);
  if (st != HL_OK) return st;
  *meta = m;
  return HL_OK;
}

hl_status_t hl_pq_page_header_decode(hl_arena_t *arena, const void *buf, size_t len,
                                     hl_pq_page_header_t *out, size_t *consumed, bool *need_more,
                                     hl_error_t *err) {
  dec_t d = {.arena = arena, .err = err};
  hl_pq_thrift_reader_init(&d.r, buf, len, err);
  memset(out, 0, sizeof *out);
  if (need_more) *need_more = false;
  hl_status_t st = dec_page_header(&d, out);
  if (st != HL_OK) {
    if (need_more) *need_more = d.r.truncated;
    return st;
  }
  *consumed = len - hl_pq_thrift_remaining(&d.r);
  return HL_OK;
}

hl_status_t hl_pq_column_index_decode(hl_arena_t *arena, const void *buf, size_t len,
                                      hl_pq_column_index_t **out, hl_error_t *err) {
  dec_t d = {.arena = arena, .err = err};
  hl_pq_thrift_reader_init(&d.r, buf, len, err);
  hl_pq_column_index_t *c = hl_arena_zalloc(arena, sizeof *c);
  if (!c) return hl_err_nomem(err);
  hl_status_t st = dec_column_index(&d, c);
  if (st == HL_OK) *out = c;
  return st;
}

hl_status_t hl_pq_offset_index_decode(hl_arena_t *arena, const void *buf, size_t len,
                                      hl_pq_offset_index_t **out, hl_error_t *err) {
  dec_t d = {.arena = arena, .err = err};
  hl_pq_thrift_reader_init(&d.r, buf, len, err);
  hl_pq_offset_index_t *o = hl_arena_zalloc(arena, sizeof *o);
  if (!o) return hl_err_nomem(err);
  hl_status_t st = dec_offset_index(&d, o);
  if (st == HL_OK) *out = o;
  return st;
}

/* ====================================================================== */
/* Footer                                                                 */
/* ====================================================================== */

#define FOOTER_TAIL_READ 65536 /* one read covers most footers */

static hl_status_t read_exact(hl_stor_file_t *f, uint64_t off, void *buf, size_t len,
                              hl_error_t *err) {
  size_t got = 0;
  hl_status_t st = f->fs->ops->read_at(f, off, buf, len, &got, err);
  if (st != HL_OK) return st;
  if (got != len) {
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "file is shorter than its size says (read %zu of %zu bytes)", got, len);
  }
  return HL_OK;
}

hl_status_t hl_pq_footer_read(hl_stor_file_t *f, hl_arena_t *arena, hl_pq_file_meta_t **meta,
                              uint64_t *file_size, hl_error_t *err) {
  uint64_t size = f->fs->ops->file_size(f);
  if (file_size) *file_size = size;
  if (size < 12) {
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "not a Parquet file: %llu bytes is too small", (unsigned long long)size);
  }
  size_t tail_len = size < FOOTER_TAIL_READ ? (size_t)size : FOOTER_TAIL_READ;
  uint8_t *tail = hl_malloc(tail_len);
  uint8_t *whole = NULL;
  hl_status_t st;
  if (!tail) return hl_err_nomem(err);
  if ((st = read_exact(f, size - tail_len, tail, tail_len, err)) != HL_OK) goto done;
  const uint8_t *magic = tail + tail_len - 4;
  if (memcmp(magic, "PARE", 4) == 0) {
    st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "encrypted Parquet files are not supported");
    goto done;
  }
  if (memcmp(magic, "PAR1", 4) != 0) {
    st = hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "not a Parquet file: no \"PAR1\" magic at the end");
    goto done;
  }
  const uint8_t *lp = tail + tail_len - 8;
  uint32_t footer_len =
      (uint32_t)lp[0] | (uint32_t)lp[1] << 8 | (uint32_t)lp[2] << 16 | (uint32_t)lp[3] << 24;
  if (footer_len > size - 12) {
    st = hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "corrupt Parquet footer: length %u exceeds the file size %llu", footer_len,
                    (unsigned long long)size);
    goto done;
  }
  const uint8_t *footer;
  if ((size_t)footer_len + 8 <= tail_len) {
    footer = tail + tail_len - 8 - footer_len;
  } else {
    /* Bounded by the file's real size (checked above). */
    if (!(whole = hl_malloc(footer_len))) {
      st = hl_err_nomem(err);
      goto done;
    }
    if ((st = read_exact(f, size - 8 - footer_len, whole, footer_len, err)) != HL_OK) goto done;
    footer = whole;
  }
  hl_pq_file_meta_t *m = NULL;
  if ((st = hl_pq_file_meta_decode(arena, footer, footer_len, &m, err)) != HL_OK) goto done;
  if (m->encrypted) {
    st = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "encrypted Parquet files are not supported");
    goto done;
  }
  *meta = m;
done:
  hl_free(whole);
  hl_free(tail);
  return st;
}

/* ====================================================================== */
/* Column chunk range                                                     */
/* ====================================================================== */

/* True when CREATED_BY names parquet-mr older than 1.2.9 (or without a
 * version), whose total_compressed_size misses the dictionary page header. */
static bool parquet_816_writer(const char *created_by) {
  static const char app[] = "parquet-mr";
  if (!created_by || strncmp(created_by, app, sizeof app - 1) != 0) return false;
  const char *v = strstr(created_by, " version ");
  if (!v) return true;
  int ver[3] = {0, 0, 0};
  v += 9;
  for (int i = 0; i < 3; i++) {
    int n = 0;
    while (*v >= '0' && *v <= '9' && n < 100000)
      n = n * 10 + (*v++ - '0');
    ver[i] = n;
    if (*v != '.') break;
    v++;
  }
  if (ver[0] != 1) return ver[0] < 1;
  if (ver[1] != 2) return ver[1] < 2;
  return ver[2] < 9;
}

hl_status_t hl_pq_column_chunk_range(const hl_pq_file_meta_t *meta, const hl_pq_column_meta_t *c,
                                     uint64_t file_size, uint64_t *start, uint64_t *len,
                                     hl_error_t *err) {
  int64_t s = c->data_page_offset;
  if (c->has_dictionary_page_offset && c->dictionary_page_offset > 0 &&
      c->dictionary_page_offset < s) {
    s = c->dictionary_page_offset;
  }
  int64_t n = c->total_compressed_size;
  int64_t end;
  if (s < 0 || n < 0 || __builtin_add_overflow(s, n, &end) || (uint64_t)end > file_size) {
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "corrupt Parquet metadata: column chunk at offset %lld of %lld bytes lies "
                      "outside the file",
                      (long long)s, (long long)n);
  }
  if (parquet_816_writer(meta->created_by)) {
    uint64_t room = file_size - (uint64_t)end;
    n += (int64_t)(room < 100 ? room : 100);
  }
  *start = (uint64_t)s;
  *len = (uint64_t)n;
  return HL_OK;
}

/* ====================================================================== */
/* Encoders                                                               */
/* ====================================================================== */

typedef hl_pq_thrift_writer_t enc_t;

static void enc_bytes_field(enc_t *w, int16_t id, hl_pq_meta_bytes_t b) {
  hl_pq_thrift_write_field_binary(w, id, b.ptr, b.len);
}

static void enc_stats(enc_t *w, int16_t id, const hl_pq_stats_t *s) {
  hl_pq_thrift_write_field_struct_begin(w, id);
  if (s->has_max) enc_bytes_field(w, 1, s->max);
  if (s->has_min) enc_bytes_field(w, 2, s->min);
  if (s->has_null_count) hl_pq_thrift_write_field_i64(w, 3, s->null_count);
  if (s->has_distinct_count) hl_pq_thrift_write_field_i64(w, 4, s->distinct_count);
  if (s->has_max_value) enc_bytes_field(w, 5, s->max_value);
  if (s->has_min_value) enc_bytes_field(w, 6, s->min_value);
  if (s->has_is_max_value_exact) hl_pq_thrift_write_field_bool(w, 7, s->is_max_value_exact);
  if (s->has_is_min_value_exact) hl_pq_thrift_write_field_bool(w, 8, s->is_min_value_exact);
  if (s->has_nan_count) hl_pq_thrift_write_field_i64(w, 9, s->nan_count);
  hl_pq_thrift_write_struct_end(w);
}

static void enc_kv_list(enc_t *w, int16_t id, const hl_pq_kv_t *kv, int n) {
  hl_pq_thrift_write_field(w, id, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)n);
  for (int i = 0; i < n; i++) {
    hl_pq_thrift_write_struct_begin(w);
    hl_pq_thrift_write_field_binary(w, 1, kv[i].key, strlen(kv[i].key));
    if (kv[i].value) hl_pq_thrift_write_field_binary(w, 2, kv[i].value, kv[i].value_len);
    hl_pq_thrift_write_struct_end(w);
  }
}

static void enc_empty_member(enc_t *w, int16_t id) {
  hl_pq_thrift_write_field_struct_begin(w, id);
  hl_pq_thrift_write_struct_end(w);
}

static void enc_logical(enc_t *w, const hl_pq_logical_t *lt) {
  hl_pq_thrift_write_field_struct_begin(w, 10);
  switch (lt->kind) {
  case HL_PQ_LT_DECIMAL:
    hl_pq_thrift_write_field_struct_begin(w, 5);
    hl_pq_thrift_write_field_i32(w, 1, lt->scale);
    hl_pq_thrift_write_field_i32(w, 2, lt->precision);
    hl_pq_thrift_write_struct_end(w);
    break;
  case HL_PQ_LT_TIME:
  case HL_PQ_LT_TIMESTAMP:
    hl_pq_thrift_write_field_struct_begin(w, (int16_t)lt->kind);
    hl_pq_thrift_write_field_bool(w, 1, lt->is_adjusted_to_utc);
    hl_pq_thrift_write_field_struct_begin(w, 2);
    enc_empty_member(w, (int16_t)lt->unit);
    hl_pq_thrift_write_struct_end(w);
    hl_pq_thrift_write_struct_end(w);
    break;
  case HL_PQ_LT_INTEGER:
    hl_pq_thrift_write_field_struct_begin(w, 10);
    hl_pq_thrift_write_field(w, 1, HL_PQ_T_BYTE);
    hl_pq_thrift_write_byte(w, lt->bit_width);
    hl_pq_thrift_write_field_bool(w, 2, lt->is_signed);
    hl_pq_thrift_write_struct_end(w);
    break;
  default:
    enc_empty_member(w, (int16_t)lt->kind);
    break;
  }
  hl_pq_thrift_write_struct_end(w);
}

static void enc_schema_elem(enc_t *w, const hl_pq_schema_elem_t *e) {
  hl_pq_thrift_write_struct_begin(w);
  if (e->has_type) hl_pq_thrift_write_field_i32(w, 1, (int32_t)e->type);
  if (e->has_type_length) hl_pq_thrift_write_field_i32(w, 2, e->type_length);
  if (e->has_repetition) hl_pq_thrift_write_field_i32(w, 3, (int32_t)e->repetition);
  hl_pq_thrift_write_field_binary(w, 4, e->name, e->name ? strlen(e->name) : 0);
  if (e->has_num_children) hl_pq_thrift_write_field_i32(w, 5, e->num_children);
  if (e->has_converted_type) hl_pq_thrift_write_field_i32(w, 6, (int32_t)e->converted_type);
  if (e->has_scale) hl_pq_thrift_write_field_i32(w, 7, e->scale);
  if (e->has_precision) hl_pq_thrift_write_field_i32(w, 8, e->precision);
  if (e->has_field_id) hl_pq_thrift_write_field_i32(w, 9, e->field_id);
  /* An unknown member read from a file cannot be written back. */
  if (e->logical.kind != HL_PQ_LT_NONE && e->logical.kind != HL_PQ_LT_OTHER) {
    enc_logical(w, &e->logical);
  }
  hl_pq_thrift_write_struct_end(w);
}

static void enc_column_meta(enc_t *w, const hl_pq_column_meta_t *m) {
  hl_pq_thrift_write_field_struct_begin(w, 3);
  hl_pq_thrift_write_field_i32(w, 1, (int32_t)m->type);
  hl_pq_thrift_write_field(w, 2, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(w, HL_PQ_T_I32, (uint32_t)m->n_encodings);
  for (int i = 0; i < m->n_encodings; i++)
    hl_pq_thrift_write_i32(w, (int32_t)m->encodings[i]);
  hl_pq_thrift_write_field(w, 3, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(w, HL_PQ_T_BINARY, (uint32_t)m->n_path);
  for (int i = 0; i < m->n_path; i++) {
    hl_pq_thrift_write_binary(w, m->path_in_schema[i], strlen(m->path_in_schema[i]));
  }
  hl_pq_thrift_write_field_i32(w, 4, (int32_t)m->codec);
  hl_pq_thrift_write_field_i64(w, 5, m->num_values);
  hl_pq_thrift_write_field_i64(w, 6, m->total_uncompressed_size);
  hl_pq_thrift_write_field_i64(w, 7, m->total_compressed_size);
  if (m->n_kv > 0) enc_kv_list(w, 8, m->key_value_metadata, m->n_kv);
  hl_pq_thrift_write_field_i64(w, 9, m->data_page_offset);
  if (m->has_index_page_offset) hl_pq_thrift_write_field_i64(w, 10, m->index_page_offset);
  if (m->has_dictionary_page_offset) {
    hl_pq_thrift_write_field_i64(w, 11, m->dictionary_page_offset);
  }
  if (m->statistics) enc_stats(w, 12, m->statistics);
  if (m->n_encoding_stats > 0) {
    hl_pq_thrift_write_field(w, 13, HL_PQ_T_LIST);
    hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)m->n_encoding_stats);
    for (int i = 0; i < m->n_encoding_stats; i++) {
      hl_pq_thrift_write_struct_begin(w);
      hl_pq_thrift_write_field_i32(w, 1, (int32_t)m->encoding_stats[i].page_type);
      hl_pq_thrift_write_field_i32(w, 2, (int32_t)m->encoding_stats[i].encoding);
      hl_pq_thrift_write_field_i32(w, 3, m->encoding_stats[i].count);
      hl_pq_thrift_write_struct_end(w);
    }
  }
  if (m->has_bloom_filter_offset) hl_pq_thrift_write_field_i64(w, 14, m->bloom_filter_offset);
  if (m->has_bloom_filter_length) hl_pq_thrift_write_field_i32(w, 15, m->bloom_filter_length);
  hl_pq_thrift_write_struct_end(w);
}

/* The ColumnChunk and RowGroup encoders come in a head and a tail so that a
 * writer can keep flushed chunks as bytes (hl_pq_*_encode_head/_tail below).
 * A tail reopens its struct with the field-id delta base where the head
 * left it: the last field the head wrote. */
static void enc_column_chunk_head(enc_t *w, const hl_pq_column_chunk_t *c) {
  hl_pq_thrift_write_struct_begin(w);
  if (c->file_path) hl_pq_thrift_write_field_binary(w, 1, c->file_path, strlen(c->file_path));
  hl_pq_thrift_write_field_i64(w, 2, c->file_offset);
  if (c->meta_data) enc_column_meta(w, c->meta_data);
}

static int16_t column_chunk_head_last(const hl_pq_column_chunk_t *c) {
  return c->meta_data ? 3 : 2;
}

static void enc_column_chunk_tail(enc_t *w, const hl_pq_column_chunk_t *c) {
  if (c->has_offset_index_offset) hl_pq_thrift_write_field_i64(w, 4, c->offset_index_offset);
  if (c->has_offset_index_length) hl_pq_thrift_write_field_i32(w, 5, c->offset_index_length);
  if (c->has_column_index_offset) hl_pq_thrift_write_field_i64(w, 6, c->column_index_offset);
  if (c->has_column_index_length) hl_pq_thrift_write_field_i32(w, 7, c->column_index_length);
  hl_pq_thrift_write_struct_end(w);
}

static void enc_row_group_head(enc_t *w, const hl_pq_row_group_t *g) {
  hl_pq_thrift_write_struct_begin(w);
  hl_pq_thrift_write_field(w, 1, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)g->n_columns);
}

static void enc_row_group_tail(enc_t *w, const hl_pq_row_group_t *g) {
  hl_pq_thrift_write_field_i64(w, 2, g->total_byte_size);
  hl_pq_thrift_write_field_i64(w, 3, g->num_rows);
  if (g->n_sorting_columns > 0) {
    hl_pq_thrift_write_field(w, 4, HL_PQ_T_LIST);
    hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)g->n_sorting_columns);
    for (int i = 0; i < g->n_sorting_columns; i++) {
      hl_pq_thrift_write_struct_begin(w);
      hl_pq_thrift_write_field_i32(w, 1, g->sorting_columns[i].column_idx);
      hl_pq_thrift_write_field_bool(w, 2, g->sorting_columns[i].descending);
      hl_pq_thrift_write_field_bool(w, 3, g->sorting_columns[i].nulls_first);
      hl_pq_thrift_write_struct_end(w);
    }
  }
  if (g->has_file_offset) hl_pq_thrift_write_field_i64(w, 5, g->file_offset);
  if (g->has_total_compressed_size) {
    hl_pq_thrift_write_field_i64(w, 6, g->total_compressed_size);
  }
  if (g->has_ordinal) {
    hl_pq_thrift_write_field(w, 7, HL_PQ_T_I16);
    hl_pq_thrift_write_i16(w, g->ordinal);
  }
  hl_pq_thrift_write_struct_end(w);
}

static void enc_row_group(enc_t *w, const hl_pq_row_group_t *g) {
  enc_row_group_head(w, g);
  for (int i = 0; i < g->n_columns; i++) {
    enc_column_chunk_head(w, &g->columns[i]);
    enc_column_chunk_tail(w, &g->columns[i]);
  }
  enc_row_group_tail(w, g);
}

static void enc_file_meta_head(enc_t *w, const hl_pq_file_meta_t *m) {
  hl_pq_thrift_write_struct_begin(w);
  hl_pq_thrift_write_field_i32(w, 1, m->version);
  hl_pq_thrift_write_field(w, 2, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)m->n_schema);
  for (int i = 0; i < m->n_schema; i++)
    enc_schema_elem(w, &m->schema[i]);
  hl_pq_thrift_write_field_i64(w, 3, m->num_rows);
  hl_pq_thrift_write_field(w, 4, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)m->n_row_groups);
}

static void enc_file_meta_tail(enc_t *w, const hl_pq_file_meta_t *m) {
  if (m->n_kv > 0) enc_kv_list(w, 5, m->key_value_metadata, m->n_kv);
  if (m->created_by) hl_pq_thrift_write_field_binary(w, 6, m->created_by, strlen(m->created_by));
  if (m->n_column_orders > 0) {
    hl_pq_thrift_write_field(w, 7, HL_PQ_T_LIST);
    hl_pq_thrift_write_list_begin(w, HL_PQ_T_STRUCT, (uint32_t)m->n_column_orders);
    for (int i = 0; i < m->n_column_orders; i++) {
      hl_pq_thrift_write_struct_begin(w);
      int16_t member = (int16_t)m->column_orders[i];
      enc_empty_member(w, member ? member : HL_PQ_ORDER_TYPE_DEFINED);
      hl_pq_thrift_write_struct_end(w);
    }
  }
  hl_pq_thrift_write_struct_end(w);
}

static hl_status_t enc_finish(hl_buf_t *out, hl_error_t *err) {
  return out->oom ? hl_err_nomem(err) : HL_OK;
}

hl_status_t hl_pq_file_meta_encode(const hl_pq_file_meta_t *m, hl_buf_t *out, hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  enc_file_meta_head(&w, m);
  for (int i = 0; i < m->n_row_groups; i++)
    enc_row_group(&w, &m->row_groups[i]);
  enc_file_meta_tail(&w, m);
  return enc_finish(out, err);
}

/* A tail on its own: one open struct whose last field so far was LAST. */
static void enc_tail_begin(enc_t *w, hl_buf_t *out, int16_t last) {
  hl_pq_thrift_writer_init(w, out);
  hl_pq_thrift_write_struct_begin(w);
  w->last_id[w->depth] = last;
}

hl_status_t hl_pq_file_meta_encode_head(const hl_pq_file_meta_t *m, hl_buf_t *out,
                                        hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  enc_file_meta_head(&w, m);
  return enc_finish(out, err);
}

hl_status_t hl_pq_file_meta_encode_tail(const hl_pq_file_meta_t *m, hl_buf_t *out,
                                        hl_error_t *err) {
  enc_t w;
  enc_tail_begin(&w, out, 4);
  enc_file_meta_tail(&w, m);
  return enc_finish(out, err);
}

hl_status_t hl_pq_row_group_encode_head(const hl_pq_row_group_t *g, hl_buf_t *out,
                                        hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  enc_row_group_head(&w, g);
  return enc_finish(out, err);
}

hl_status_t hl_pq_row_group_encode_tail(const hl_pq_row_group_t *g, hl_buf_t *out,
                                        hl_error_t *err) {
  enc_t w;
  enc_tail_begin(&w, out, 1);
  enc_row_group_tail(&w, g);
  return enc_finish(out, err);
}

hl_status_t hl_pq_column_chunk_encode_head(const hl_pq_column_chunk_t *c, hl_buf_t *out,
                                           hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  enc_column_chunk_head(&w, c);
  return enc_finish(out, err);
}

hl_status_t hl_pq_column_chunk_encode_tail(const hl_pq_column_chunk_t *c, hl_buf_t *out,
                                           hl_error_t *err) {
  enc_t w;
  enc_tail_begin(&w, out, column_chunk_head_last(c));
  enc_column_chunk_tail(&w, c);
  return enc_finish(out, err);
}

hl_status_t hl_pq_page_header_encode(const hl_pq_page_header_t *h, hl_buf_t *out, hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field_i32(&w, 1, (int32_t)h->type);
  hl_pq_thrift_write_field_i32(&w, 2, h->uncompressed_page_size);
  hl_pq_thrift_write_field_i32(&w, 3, h->compressed_page_size);
  if (h->has_crc) hl_pq_thrift_write_field_i32(&w, 4, h->crc);
  if (h->has_data_page_header) {
    const hl_pq_data_page_header_t *d = &h->data_page_header;
    hl_pq_thrift_write_field_struct_begin(&w, 5);
    hl_pq_thrift_write_field_i32(&w, 1, d->num_values);
    hl_pq_thrift_write_field_i32(&w, 2, (int32_t)d->encoding);
    hl_pq_thrift_write_field_i32(&w, 3, (int32_t)d->definition_level_encoding);
    hl_pq_thrift_write_field_i32(&w, 4, (int32_t)d->repetition_level_encoding);
    if (d->statistics) enc_stats(&w, 5, d->statistics);
    hl_pq_thrift_write_struct_end(&w);
  }
  if (h->has_index_page_header) enc_empty_member(&w, 6);
  if (h->has_dictionary_page_header) {
    const hl_pq_dict_page_header_t *d = &h->dictionary_page_header;
    hl_pq_thrift_write_field_struct_begin(&w, 7);
    hl_pq_thrift_write_field_i32(&w, 1, d->num_values);
    hl_pq_thrift_write_field_i32(&w, 2, (int32_t)d->encoding);
    if (d->has_is_sorted) hl_pq_thrift_write_field_bool(&w, 3, d->is_sorted);
    hl_pq_thrift_write_struct_end(&w);
  }
  if (h->has_data_page_header_v2) {
    const hl_pq_data_page_header_v2_t *d = &h->data_page_header_v2;
    hl_pq_thrift_write_field_struct_begin(&w, 8);
    hl_pq_thrift_write_field_i32(&w, 1, d->num_values);
    hl_pq_thrift_write_field_i32(&w, 2, d->num_nulls);
    hl_pq_thrift_write_field_i32(&w, 3, d->num_rows);
    hl_pq_thrift_write_field_i32(&w, 4, (int32_t)d->encoding);
    hl_pq_thrift_write_field_i32(&w, 5, d->definition_levels_byte_length);
    hl_pq_thrift_write_field_i32(&w, 6, d->repetition_levels_byte_length);
    hl_pq_thrift_write_field_bool(&w, 7, d->is_compressed);
    if (d->statistics) enc_stats(&w, 8, d->statistics);
    hl_pq_thrift_write_struct_end(&w);
  }
  hl_pq_thrift_write_struct_end(&w);
  return enc_finish(out, err);
}

hl_status_t hl_pq_column_index_encode(const hl_pq_column_index_t *c, hl_buf_t *out,
                                      hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field(&w, 1, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_TRUE, (uint32_t)c->n_pages);
  for (int i = 0; i < c->n_pages; i++)
    hl_pq_thrift_write_elem_bool(&w, c->null_pages[i]);
  for (int16_t id = 2; id <= 3; id++) {
    const hl_pq_meta_bytes_t *v = id == 2 ? c->min_values : c->max_values;
    hl_pq_thrift_write_field(&w, id, HL_PQ_T_LIST);
    hl_pq_thrift_write_list_begin(&w, HL_PQ_T_BINARY, (uint32_t)c->n_pages);
    for (int i = 0; i < c->n_pages; i++)
      hl_pq_thrift_write_binary(&w, v[i].ptr, v[i].len);
  }
  hl_pq_thrift_write_field_i32(&w, 4, (int32_t)c->boundary_order);
  if (c->has_null_counts) {
    hl_pq_thrift_write_field(&w, 5, HL_PQ_T_LIST);
    hl_pq_thrift_write_list_begin(&w, HL_PQ_T_I64, (uint32_t)c->n_pages);
    for (int i = 0; i < c->n_pages; i++)
      hl_pq_thrift_write_i64(&w, c->null_counts[i]);
  }
  hl_pq_thrift_write_struct_end(&w);
  return enc_finish(out, err);
}

hl_status_t hl_pq_offset_index_encode(const hl_pq_offset_index_t *o, hl_buf_t *out,
                                      hl_error_t *err) {
  enc_t w;
  hl_pq_thrift_writer_init(&w, out);
  hl_pq_thrift_write_struct_begin(&w);
  hl_pq_thrift_write_field(&w, 1, HL_PQ_T_LIST);
  hl_pq_thrift_write_list_begin(&w, HL_PQ_T_STRUCT, (uint32_t)o->n_pages);
  for (int i = 0; i < o->n_pages; i++) {
    const hl_pq_page_location_t *p = &o->page_locations[i];
    hl_pq_thrift_write_struct_begin(&w);
    hl_pq_thrift_write_field_i64(&w, 1, p->offset);
    hl_pq_thrift_write_field_i32(&w, 2, p->compressed_page_size);
    hl_pq_thrift_write_field_i64(&w, 3, p->first_row_index);
    hl_pq_thrift_write_struct_end(&w);
  }
  hl_pq_thrift_write_struct_end(&w);
  return enc_finish(out, err);
}

/* ====================================================================== */
/* Names                                                                  */
/* ====================================================================== */

const char *hl_pq_type_name(hl_pq_type_t type) {
  static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  unsigned t = (unsigned)type;
  return t < sizeof names / sizeof names[0] ? names[t] : "?";
}

const char *hl_pq_encoding_name(hl_pq_encoding_t enc) {
  switch (enc) {
  case HL_PQ_ENC_PLAIN:
    return "PLAIN";
  case HL_PQ_ENC_PLAIN_DICTIONARY:
    return "PLAIN_DICTIONARY";
  case HL_PQ_ENC_RLE:
    return "RLE";
  case HL_PQ_ENC_BIT_PACKED:
    return "BIT_PACKED";
  case HL_PQ_ENC_DELTA_BINARY_PACKED:
    return "DELTA_BINARY_PACKED";
  case HL_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
    return "DELTA_LENGTH_BYTE_ARRAY";
  case HL_PQ_ENC_DELTA_BYTE_ARRAY:
    return "DELTA_BYTE_ARRAY";
  case HL_PQ_ENC_RLE_DICTIONARY:
    return "RLE_DICTIONARY";
  case HL_PQ_ENC_BYTE_STREAM_SPLIT:
    return "BYTE_STREAM_SPLIT";
  }
  return "?";
}

const char *hl_pq_page_type_name(hl_pq_page_type_t type) {
  switch (type) {
  case HL_PQ_PAGE_DATA:
    return "DATA_PAGE";
  case HL_PQ_PAGE_INDEX:
    return "INDEX_PAGE";
  case HL_PQ_PAGE_DICTIONARY:
    return "DICTIONARY_PAGE";
  case HL_PQ_PAGE_DATA_V2:
    return "DATA_PAGE_V2";
  }
  return "?";
}
