/*
 * hms_stats_map.c -- column statistics between the catalog's records
 * (catalog.h, hl_cat_col_stats_t: min/max as text in the column's type)
 * and the metastore's ColumnStatisticsObj (hms_ddl.h), for both sides:
 * the server (src/hms_server/hms_stats.c) answers clients with it, the
 * client backend (src/hms_client/hmsc_cat.c) writes and reads an
 * attached metastore's statistics with it, so both spell them alike.
 *
 * The Thrift kinds map by the column's type: boolean, the integers
 * (LONG), float/double (DOUBLE), decimal (Decimal: unscaled big-endian
 * bytes and scale), date (days), timestamp (Hive 4's TIMESTAMP kind,
 * seconds), string/varchar/char (STRING), binary (BINARY).  bitVectors
 * are not mapped: Hive's serialized sketches are not hivelite's
 * HyperLogLog registers.  Counts the record does not have (-1) are sent
 * as 0 (every field of the Thrift structs is required); on the way back
 * the fields a kind does not have are -1 again.
 */
#include "hms/hms_stats_map.h"

#include "util/strbuf.h"
#include "util/value.h"

#include <string.h>

/* The Thrift kind of columns of TYPE; 0 for types without statistics. */
int hl_hms_stats_kind(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_BOOLEAN:
    return HL_HMS_STATS_BOOLEAN;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT:
    return HL_HMS_STATS_LONG;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    return HL_HMS_STATS_DOUBLE;
  case HL_T_DECIMAL:
    return HL_HMS_STATS_DECIMAL;
  case HL_T_DATE:
    return HL_HMS_STATS_DATE;
  case HL_T_TIMESTAMP:
    return HL_HMS_STATS_TIMESTAMP;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    return HL_HMS_STATS_STRING;
  case HL_T_BINARY:
    return HL_HMS_STATS_BINARY;
  default:
    return 0;
  }
}

/* ---- catalog record to Thrift */

static int64_t nz(int64_t v) {
  return v < 0 ? 0 : v;
}

/* The unscaled value V as Java BigInteger bytes (big-endian, minimal two's
 * complement). */
static void dec_bytes(__int128 v, hl_arena_t *arena, hl_hms_decimal_t *out, int scale) {
  uint8_t b[16];
  for (int i = 15; i >= 0; i--) {
    b[i] = (uint8_t)(v & 0xff);
    v >>= 8; /* arithmetic: sign-fills */
  }
  int start = 0;
  while (start < 15 &&
         ((b[start] == 0 && !(b[start + 1] & 0x80)) || (b[start] == 0xff && (b[start + 1] & 0x80))))
    start++;
  out->len = (uint32_t)(16 - start);
  out->unscaled = hl_arena_alloc(arena, out->len);
  if (out->unscaled) memcpy(out->unscaled, b + start, out->len);
  out->scale = (int16_t)scale;
}

/* Parses catalog text S of TYPE; 0 when absent or not a value. */
static int parse(hl_arena_t *arena, const hl_type_t *type, const char *s, hl_value_t *v) {
  if (!s) return 0;
  hl_error_t e;
  hl_err_init(&e);
  int ok = hl_value_from_text(arena, type, s, strlen(s), v, &e) == HL_OK && !v->is_null;
  hl_err_clear(&e);
  return ok;
}

hl_status_t hl_hms_stats_to_obj(hl_arena_t *arena, const char *col_type,
                                const hl_cat_col_stats_t *s, hl_hms_stats_obj_t *o,
                                hl_error_t *err) {
  memset(o, 0, sizeof *o);
  o->col_name = s->col_name;
  o->col_type = (char *)(col_type ? col_type : s->col_type);
  hl_type_t *type;
  if (hl_type_parse_str(arena, o->col_type, &type, err) != HL_OK) return err->code;
  hl_hms_stats_data_t *d = &o->data;
  d->kind = hl_hms_stats_kind(type);
  d->num_nulls = nz(s->num_nulls);
  d->num_dvs = nz(s->num_distinct);
  d->num_trues = nz(s->num_trues);
  d->num_falses = nz(s->num_falses);
  d->max_col_len = nz(s->max_col_len);
  d->avg_col_len = s->avg_col_len < 0 ? 0 : s->avg_col_len;
  hl_value_t lo, hi;
  d->has_low = parse(arena, type, s->low_value, &lo);
  d->has_high = parse(arena, type, s->high_value, &hi);
  switch (d->kind) {
  case HL_HMS_STATS_LONG:
  case HL_HMS_STATS_DATE:
    d->low_i = lo.u.i;
    d->high_i = hi.u.i;
    break;
  case HL_HMS_STATS_TIMESTAMP: /* micros to Hive's seconds */
    d->low_i = lo.u.i / 1000000 - (lo.u.i % 1000000 < 0);
    d->high_i = hi.u.i / 1000000 - (hi.u.i % 1000000 < 0);
    break;
  case HL_HMS_STATS_DOUBLE:
    d->low_d = lo.u.d;
    d->high_d = hi.u.d;
    break;
  case HL_HMS_STATS_DECIMAL:
    if (d->has_low) dec_bytes(lo.u.dec, arena, &d->low_dec, type->scale);
    if (d->has_high) dec_bytes(hi.u.dec, arena, &d->high_dec, type->scale);
    if ((d->has_low && !d->low_dec.unscaled) || (d->has_high && !d->high_dec.unscaled))
      return hl_err_nomem(err);
    break;
  case 0:
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "column \"%s\" of type %s has no column statistics in Hive", o->col_name,
                      o->col_type);
  default:
    break;
  }
  return HL_OK;
}

/* ---- Thrift to catalog record */

static char *fmt_buf(hl_arena_t *arena, hl_buf_t *b) {
  char *s = b->oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(b), b->len);
  hl_buf_fini(b);
  return s;
}

/* Hive's Decimal to the catalog's text; NULL (E set) when it does not fit
 * 38 digits. */
static char *dec_text(hl_arena_t *arena, const hl_hms_decimal_t *v, hl_error_t *e) {
  if (v->len == 0 || v->len > 16 || v->scale < 0 || v->scale > 38) {
    hl_err_set(e, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
               "a decimal statistic of %u bytes, scale %d, is not one hivelite can keep", v->len,
               v->scale);
    return NULL;
  }
  __int128 x = (v->unscaled[0] & 0x80) ? -1 : 0;
  for (uint32_t i = 0; i < v->len; i++)
    x = (__int128)(((unsigned __int128)x << 8) | v->unscaled[i]);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_format_decimal(&b, x, v->scale);
  return fmt_buf(arena, &b);
}

static char *bound_text(hl_arena_t *arena, const hl_hms_stats_data_t *d, int high, hl_error_t *e) {
  if (!(high ? d->has_high : d->has_low)) return NULL;
  hl_buf_t b;
  hl_buf_init(&b);
  int64_t i = high ? d->high_i : d->low_i;
  switch (d->kind) {
  case HL_HMS_STATS_LONG:
    hl_buf_printf(&b, "%lld", (long long)i);
    break;
  case HL_HMS_STATS_DOUBLE:
    hl_format_double(&b, high ? d->high_d : d->low_d, false);
    break;
  case HL_HMS_STATS_DATE:
    hl_format_date(&b, i);
    break;
  case HL_HMS_STATS_TIMESTAMP:
    hl_format_timestamp(&b, i * 1000000);
    break;
  case HL_HMS_STATS_DECIMAL:
    hl_buf_fini(&b);
    return dec_text(arena, high ? &d->high_dec : &d->low_dec, e);
  default:
    hl_buf_fini(&b);
    return NULL;
  }
  return fmt_buf(arena, &b);
}

hl_status_t hl_hms_stats_from_obj(hl_arena_t *arena, const char *col_name, const char *col_type,
                                  const hl_hms_stats_obj_t *o, int64_t analyzed,
                                  hl_cat_col_stats_t *s, hl_error_t *e) {
  memset(s, 0, sizeof *s);
  hl_type_t *type;
  hl_status_t rc = hl_type_parse_str(arena, col_type, &type, e);
  if (rc) return rc;
  int kind = hl_hms_stats_kind(type);
  if (o->data.kind != kind)
    return hl_err_set(e, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "statistics of kind %d do not fit column \"%s\" of type %s", o->data.kind,
                      col_name, col_type);
  const hl_hms_stats_data_t *d = &o->data;
  s->col_name = (char *)col_name;
  s->col_type = (char *)col_type;
  s->num_nulls = d->num_nulls;
  s->num_distinct = kind == HL_HMS_STATS_BOOLEAN || kind == HL_HMS_STATS_BINARY ? -1 : d->num_dvs;
  s->avg_col_len = kind == HL_HMS_STATS_STRING || kind == HL_HMS_STATS_BINARY ? d->avg_col_len : -1;
  s->max_col_len = kind == HL_HMS_STATS_STRING || kind == HL_HMS_STATS_BINARY ? d->max_col_len : -1;
  s->num_trues = kind == HL_HMS_STATS_BOOLEAN ? d->num_trues : -1;
  s->num_falses = kind == HL_HMS_STATS_BOOLEAN ? d->num_falses : -1;
  hl_err_init(e);
  s->low_value = bound_text(arena, d, 0, e);
  if (e->code) return e->code;
  s->high_value = bound_text(arena, d, 1, e);
  if (e->code) return e->code;
  if ((d->has_low && !s->low_value) || (d->has_high && !s->high_value)) return hl_err_nomem(e);
  s->last_analyzed = analyzed;
  return HL_OK;
}
