/*
 * orc_column.c -- decoders for each ORC column type, per stripe.
 *
 * Every column may have a PRESENT stream (boolean RLE, 1 = value present);
 * the other streams hold values for present slots only, and the children
 * of a STRUCT/LIST/MAP hold slots only for its present values.  A read of
 * N slots therefore decodes the present bits, decodes K dense values, and
 * spreads them over the N cells backwards in place.
 *
 * Value encodings (spec "Column Encodings"): BOOLEAN boolean RLE; BYTE byte
 * RLE; SHORT/INT/LONG/DATE signed integer RLE (v1 for DIRECT, v2 for
 * DIRECT_V2); FLOAT/DOUBLE little-endian IEEE; STRING/VARCHAR/CHAR/BINARY
 * DIRECT (LENGTH + bytes) or DICTIONARY (ids in DATA, LENGTH and
 * DICTIONARY_DATA hold the dictionary); DECIMAL unbounded zigzag varints +
 * scales in SECONDARY; TIMESTAMP seconds since 2015-01-01 + nanos with the
 * trailing-zero count in the low 3 bits; LIST/MAP lengths in LENGTH.
 */
#include "format/orc/orc_column.h"

#include <string.h>

/* Most slots one read may produce (list elements per batch). */
#define MAX_SLOTS ((size_t)1 << 22)
/* 2015-01-01 00:00:00 UTC in seconds since the epoch. */
#define ORC_EPOCH 1420070400

static bool is_bytes_kind(Orcpb__Type__Kind k) {
  return k == ORCPB__TYPE__KIND__STRING || k == ORCPB__TYPE__KIND__VARCHAR ||
         k == ORCPB__TYPE__KIND__CHAR || k == ORCPB__TYPE__KIND__BINARY;
}

static hl_status_t load_dict(hl_orc_col_t *c, uint32_t size, hl_arena_t *arena, hl_error_t *err) {
  uint8_t *blob;
  size_t blob_len;
  hl_status_t st = hl_orc_stream_all(&c->dict_s, (uint64_t)1 << 31, &blob, &blob_len);
  if (st != HL_OK) return st;
  /* entries are distinct, so at most one of them is empty */
  if ((uint64_t)size > (uint64_t)blob_len + 1)
    return hl_orc_corrupt(err, "dictionary of column %u: %u entries in %zu bytes", c->id, size,
                          blob_len);
  c->dict_n = 0;
  c->dict_vals = NULL;
  size_t cap = 0;
  uint64_t off = 0;
  int64_t lens[512];
  while (c->dict_n < size) {
    size_t take = size - c->dict_n < 512 ? (size_t)(size - c->dict_n) : 512;
    if ((st = hl_orc_int_rle_next(&c->lens, lens, take)) != HL_OK) return st;
    if (c->dict_n + take > cap) {
      size_t ncap = cap ? cap * 2 : 1024;
      while (ncap < c->dict_n + take)
        ncap *= 2;
      hl_str_t *nv =
          hl_arena_realloc(arena, c->dict_vals, cap * sizeof(hl_str_t), ncap * sizeof(hl_str_t));
      if (!nv) return hl_err_nomem(err);
      c->dict_vals = nv;
      cap = ncap;
    }
    for (size_t i = 0; i < take; i++) {
      uint64_t len = (uint64_t)lens[i];
      if (len > blob_len - off || len > UINT32_MAX)
        return hl_orc_corrupt(err, "dictionary of column %u: entry lengths exceed its data", c->id);
      c->dict_vals[c->dict_n + i].ptr = (const char *)blob + off;
      c->dict_vals[c->dict_n + i].len = (uint32_t)len;
      off += len;
    }
    c->dict_n += take;
  }
  return HL_OK;
}

hl_status_t hl_orc_col_start(hl_orc_col_t *c, Orcpb__StripeFooter *sf, const hl_tz_t *tz,
                             hl_arena_t *arena, hl_error_t *err) {
  if (c->id >= sf->n_columns)
    return hl_orc_corrupt(err, "the stripe footer has no encoding for column %u", c->id);
  const Orcpb__ColumnEncoding *enc = sf->columns[c->id];
  int kind = enc->kind;
  if (kind < 0 || kind > ORCPB__COLUMN_ENCODING__KIND__DICTIONARY_V2)
    return hl_orc_corrupt(err, "column %u has unknown encoding %d", c->id, kind);
  bool v2 = kind == ORCPB__COLUMN_ENCODING__KIND__DIRECT_V2 ||
            kind == ORCPB__COLUMN_ENCODING__KIND__DICTIONARY_V2;
  c->dict = kind == ORCPB__COLUMN_ENCODING__KIND__DICTIONARY ||
            kind == ORCPB__COLUMN_ENCODING__KIND__DICTIONARY_V2;
  if (c->dict && !(is_bytes_kind(c->kind) && c->kind != ORCPB__TYPE__KIND__BINARY))
    return hl_orc_corrupt(err, "column %u has a dictionary encoding for a non-string type", c->id);
  c->has_present = c->present_s.src != NULL;
  hl_orc_bool_rle_init(&c->present, &c->present_s);
  bool signed_data = !(c->dict || is_bytes_kind(c->kind));
  hl_orc_int_rle_init(&c->ints, &c->data_s, v2, signed_data);
  hl_orc_int_rle_init(&c->lens, &c->length_s, v2, false);
  hl_orc_int_rle_init(&c->second, &c->secondary_s, v2,
                      c->kind != ORCPB__TYPE__KIND__TIMESTAMP &&
                          c->kind != ORCPB__TYPE__KIND__TIMESTAMP_INSTANT);
  hl_orc_byte_rle_init(&c->bytes, &c->data_s);
  hl_orc_bool_rle_init(&c->bools, &c->data_s);
  /* TIMESTAMP_INSTANT counts from 2015-01-01 UTC and shows UTC */
  c->tz = c->kind == ORCPB__TYPE__KIND__TIMESTAMP ? tz : NULL;
  c->tz_base = ORC_EPOCH - hl_tz_offset(c->tz, ORC_EPOCH);
  if (c->dict) {
    hl_status_t st = load_dict(c, enc->dictionary_size, arena, err);
    if (st != HL_OK) return st;
  }
  for (int k = 0; k < c->n_kids; k++) {
    if (!c->kids[k]) continue;
    hl_status_t st = hl_orc_col_start(c->kids[k], sf, tz, arena, err);
    if (st != HL_OK) return st;
  }
  return HL_OK;
}

/* ---------------------------------------------------------- helpers */

static uint32_t utf8_prefix(const char *s, uint32_t len, uint32_t chars) {
  uint32_t i = 0, n = 0;
  while (i < len) {
    if (((unsigned char)s[i] & 0xc0) != 0x80) {
      if (n == chars) return i;
      n++;
    }
    i++;
  }
  return len;
}

/* 10^0 .. 10^38 */
static const __int128 pow10_128[39] = {
    (__int128)1LL,
    (__int128)10LL,
    (__int128)100LL,
    (__int128)1000LL,
    (__int128)10000LL,
    (__int128)100000LL,
    (__int128)1000000LL,
    (__int128)10000000LL,
    (__int128)100000000LL,
    (__int128)1000000000LL,
    (__int128)10000000000LL,
    (__int128)100000000000LL,
    (__int128)1000000000000LL,
    (__int128)10000000000000LL,
    (__int128)100000000000000LL,
    (__int128)1000000000000000LL,
    (__int128)10000000000000000LL,
    (__int128)100000000000000000LL,
    (__int128)1000000000000000000LL,
    (__int128)1000000000000000000LL * 10LL,
    (__int128)1000000000000000000LL * 100LL,
    (__int128)1000000000000000000LL * 1000LL,
    (__int128)1000000000000000000LL * 10000LL,
    (__int128)1000000000000000000LL * 100000LL,
    (__int128)1000000000000000000LL * 1000000LL,
    (__int128)1000000000000000000LL * 10000000LL,
    (__int128)1000000000000000000LL * 100000000LL,
    (__int128)1000000000000000000LL * 1000000000LL,
    (__int128)1000000000000000000LL * 10000000000LL,
    (__int128)1000000000000000000LL * 100000000000LL,
    (__int128)1000000000000000000LL * 1000000000000LL,
    (__int128)1000000000000000000LL * 10000000000000LL,
    (__int128)1000000000000000000LL * 100000000000000LL,
    (__int128)1000000000000000000LL * 1000000000000000LL,
    (__int128)1000000000000000000LL * 10000000000000000LL,
    (__int128)1000000000000000000LL * 100000000000000000LL,
    (__int128)1000000000000000000LL * 1000000000000000000LL,
    (__int128)1000000000000000000LL * 1000000000000000000LL * 10LL,
    (__int128)1000000000000000000LL * 1000000000000000000LL * 100LL};

/* Rescales V from scale FROM to the type's scale, rounding half away from
 * zero.  False when it does not fit the precision (Hive reads NULL). */
static bool rescale(__int128 v, int64_t from, const hl_type_t *t, __int128 *out) {
  const __int128 *p10 = pow10_128;
  int64_t to = t->scale;
  if (from < to) {
    if (to - from > 38) {
      if (v != 0) return false;
    } else {
      __int128 f = p10[to - from];
      __int128 lim = p10[38] / f;
      if (v >= lim || v <= -lim) return false;
      v *= f;
    }
  } else if (from > to) {
    if (from - to > 38) {
      v = 0;
    } else {
      __int128 f = p10[from - to];
      __int128 q = v / f, rem = v % f;
      if (rem < 0) rem = -rem;
      if (rem >= f - rem) q += v < 0 ? -1 : 1; /* half away from zero */
      v = q;
    }
  }
  int prec = t->precision > 0 && t->precision <= 38 ? t->precision : 38;
  if (v >= p10[prec] || v <= -p10[prec]) return false;
  *out = v;
  return true;
}

static hl_status_t varint128(hl_orc_stream_t *s, __int128 *out) {
  unsigned __int128 v = 0;
  for (int shift = 0; shift < 128; shift += 7) {
    uint8_t b;
    if (!hl_orc_byte(s, &b)) return s->err->code;
    if (shift == 126 && (b & 0x7c)) break;
    v |= (unsigned __int128)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = (__int128)((v >> 1) ^ (~(v & 1) + 1));
      return HL_OK;
    }
  }
  return hl_orc_corrupt(s->err, "bad decimal varint in column");
}

static hl_status_t read_ints(hl_orc_int_rle_t *d, size_t k, hl_arena_t *arena, int64_t **out,
                             hl_error_t *err) {
  *out = hl_arena_alloc(arena, sizeof(int64_t) * (k ? k : 1));
  if (!*out) return hl_err_nomem(err);
  return hl_orc_int_rle_next(d, *out, k);
}

static hl_status_t read_strings(hl_orc_col_t *c, size_t k, hl_arena_t *arena, hl_value_t *out,
                                hl_error_t *err) {
  int64_t *v;
  hl_status_t st;
  if (c->dict) {
    if ((st = read_ints(&c->ints, k, arena, &v, err)) != HL_OK) return st;
    for (size_t i = 0; i < k; i++) {
      if ((uint64_t)v[i] >= c->dict_n)
        return hl_orc_corrupt(err, "column %u: dictionary id %llu out of range", c->id,
                              (unsigned long long)v[i]);
      out[i].u.s = c->dict_vals[v[i]];
    }
  } else {
    if ((st = read_ints(&c->lens, k, arena, &v, err)) != HL_OK) return st;
    uint64_t total = 0;
    for (size_t i = 0; i < k; i++) {
      if ((uint64_t)v[i] > UINT32_MAX || __builtin_add_overflow(total, (uint64_t)v[i], &total))
        return hl_orc_corrupt(err, "column %u: bad string length", c->id);
    }
    if (total > hl_orc_stream_bound(&c->data_s))
      return hl_orc_corrupt(err, "column %u: string lengths exceed its data", c->id);
    /* grown as the bytes arrive: a claimed length allocates nothing */
    uint8_t *buf = NULL;
    size_t cap = 0, got = 0;
    while (got < total) {
      size_t want = total - got < ((size_t)1 << 20) ? (size_t)(total - got) : (size_t)1 << 20;
      if (got + want > cap) {
        size_t ncap = cap ? cap * 2 : want;
        if (ncap < got + want) ncap = got + want;
        if (ncap > total) ncap = (size_t)total;
        uint8_t *nb = hl_arena_realloc(arena, buf, cap, ncap);
        if (!nb) return hl_err_nomem(err);
        buf = nb;
        cap = ncap;
      }
      if ((st = hl_orc_read_bytes(&c->data_s, buf + got, want)) != HL_OK) return st;
      got += want;
    }
    if (!buf) buf = (uint8_t *)"";
    size_t off = 0;
    for (size_t i = 0; i < k; i++) {
      out[i].u.s.ptr = (const char *)buf + off;
      out[i].u.s.len = (uint32_t)v[i];
      off += (size_t)v[i];
    }
  }
  if (c->pad_chars) {
    for (size_t i = 0; i < k; i++)
      if (hl_char_fit(arena, c->trunc_chars, out[i].u.s.ptr, out[i].u.s.len, &out[i].u.s) < 0)
        return hl_err_nomem(err);
  } else if (c->trunc_chars) {
    for (size_t i = 0; i < k; i++)
      out[i].u.s.len = utf8_prefix(out[i].u.s.ptr, out[i].u.s.len, c->trunc_chars);
  }
  return HL_OK;
}

static hl_status_t read_nested(hl_orc_col_t *c, size_t k, hl_arena_t *arena, hl_value_t *out,
                               hl_error_t *err);
static hl_status_t read_union(hl_orc_col_t *c, size_t k, hl_arena_t *arena, hl_value_t *out,
                              hl_error_t *err);

/* Decodes K dense (present) values of C into OUT[0..k). */
static hl_status_t read_dense(hl_orc_col_t *c, size_t k, hl_arena_t *arena, hl_value_t *out,
                              hl_error_t *err) {
  hl_status_t st = HL_OK;
  int64_t *v;
  switch (c->kind) {
  case ORCPB__TYPE__KIND__BOOLEAN: {
    uint8_t *b = hl_arena_alloc(arena, k ? k : 1);
    if (!b) return hl_err_nomem(err);
    if ((st = hl_orc_bool_rle_next(&c->bools, b, k)) != HL_OK) return st;
    for (size_t i = 0; i < k; i++)
      out[i].u.b = b[i];
    return HL_OK;
  }
  case ORCPB__TYPE__KIND__BYTE: {
    uint8_t *b = hl_arena_alloc(arena, k ? k : 1);
    if (!b) return hl_err_nomem(err);
    if ((st = hl_orc_byte_rle_next(&c->bytes, b, k)) != HL_OK) return st;
    for (size_t i = 0; i < k; i++)
      out[i].u.i = (int8_t)b[i];
    return HL_OK;
  }
  case ORCPB__TYPE__KIND__SHORT:
  case ORCPB__TYPE__KIND__INT:
  case ORCPB__TYPE__KIND__LONG:
  case ORCPB__TYPE__KIND__DATE: {
    if ((st = read_ints(&c->ints, k, arena, &v, err)) != HL_OK) return st;
    /* values outside the declared width are corrupt, not silently wrapped */
    int64_t lo = c->kind == ORCPB__TYPE__KIND__SHORT  ? INT16_MIN
                 : c->kind == ORCPB__TYPE__KIND__LONG ? INT64_MIN
                                                      : INT32_MIN;
    int64_t hi = c->kind == ORCPB__TYPE__KIND__SHORT  ? INT16_MAX
                 : c->kind == ORCPB__TYPE__KIND__LONG ? INT64_MAX
                                                      : INT32_MAX;
    for (size_t i = 0; i < k; i++) {
      if (v[i] < lo || v[i] > hi)
        return hl_orc_corrupt(err, "column %u: value %lld out of range", c->id, (long long)v[i]);
      out[i].u.i = v[i];
    }
    return HL_OK;
  }
  case ORCPB__TYPE__KIND__FLOAT:
  case ORCPB__TYPE__KIND__DOUBLE: {
    size_t w = c->kind == ORCPB__TYPE__KIND__FLOAT ? 4 : 8;
    uint64_t need;
    if (__builtin_mul_overflow((uint64_t)k, (uint64_t)w, &need) ||
        need > hl_orc_stream_bound(&c->data_s))
      return hl_orc_corrupt(err, "column %u: DATA ends early", c->id);
    uint8_t *b = hl_arena_alloc(arena, (size_t)need + 1);
    if (!b) return hl_err_nomem(err);
    if ((st = hl_orc_read_bytes(&c->data_s, b, (size_t)need)) != HL_OK) return st;
    for (size_t i = 0; i < k; i++) {
      const uint8_t *p = b + i * w;
      if (w == 4) {
        uint32_t u =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &u, 4);
        out[i].u.d = f;
      } else {
        uint64_t u = 0;
        for (int j = 7; j >= 0; j--)
          u = u << 8 | p[j];
        memcpy(&out[i].u.d, &u, 8);
      }
    }
    return HL_OK;
  }
  case ORCPB__TYPE__KIND__STRING:
  case ORCPB__TYPE__KIND__VARCHAR:
  case ORCPB__TYPE__KIND__CHAR:
  case ORCPB__TYPE__KIND__BINARY:
    return read_strings(c, k, arena, out, err);
  case ORCPB__TYPE__KIND__TIMESTAMP:
  case ORCPB__TYPE__KIND__TIMESTAMP_INSTANT: {
    int64_t *nanos;
    if ((st = read_ints(&c->ints, k, arena, &v, err)) != HL_OK) return st;
    if ((st = read_ints(&c->second, k, arena, &nanos, err)) != HL_OK) return st;
    for (size_t i = 0; i < k; i++) {
      uint64_t nz = (uint64_t)nanos[i];
      int zeros = (int)(nz & 7);
      uint64_t ns = nz >> 3;
      if (zeros) /* the low 3 bits count the dropped zeros, less one */
        for (int z = 0; z <= zeros; z++)
          ns *= 10;
      if (ns > 999999999) return hl_orc_corrupt(err, "column %u: bad timestamp nanoseconds", c->id);
      int64_t secs = v[i];
      /* keeps micros within int64: about +-292000 years */
      if (secs < -9000000000000LL || secs > 9000000000000LL)
        return hl_orc_corrupt(err, "column %u: timestamp out of range", c->id);
      secs += c->tz_base;
      /* writers truncated negative milliseconds toward zero */
      if (secs < 0 && ns > 999999) secs -= 1;
      secs += hl_tz_offset(c->tz, secs); /* the writer's wall clock */
      out[i].u.i = secs * 1000000 + (int64_t)(ns / 1000);
    }
    return HL_OK;
  }
  case ORCPB__TYPE__KIND__DECIMAL: {
    int64_t *scales;
    if (c->decimal64) {
      if ((st = read_ints(&c->ints, k, arena, &v, err)) != HL_OK) return st;
      for (size_t i = 0; i < k; i++)
        if (!rescale(v[i], c->file_scale, c->type, &out[i].u.dec)) out[i].is_null = true;
      return HL_OK;
    }
    __int128 *raw = hl_arena_alloc(arena, sizeof(__int128) * (k ? k : 1));
    if (!raw) return hl_err_nomem(err);
    for (size_t i = 0; i < k; i++)
      if ((st = varint128(&c->data_s, &raw[i])) != HL_OK) return st;
    if ((st = read_ints(&c->second, k, arena, &scales, err)) != HL_OK) return st;
    for (size_t i = 0; i < k; i++) {
      if (!rescale(raw[i], scales[i], c->type, &out[i].u.dec)) out[i].is_null = true;
    }
    return HL_OK;
  }
  case ORCPB__TYPE__KIND__LIST:
  case ORCPB__TYPE__KIND__MAP:
  case ORCPB__TYPE__KIND__STRUCT:
    return read_nested(c, k, arena, out, err);
  case ORCPB__TYPE__KIND__UNION:
    return read_union(c, k, arena, out, err);
  default:
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "column %u: ORC type kind %d is not supported", c->id, (int)c->kind);
  }
}

static hl_status_t read_nested(hl_orc_col_t *c, size_t k, hl_arena_t *arena, hl_value_t *out,
                               hl_error_t *err) {
  hl_status_t st;
  if (c->kind == ORCPB__TYPE__KIND__STRUCT) {
    int nf = c->n_kids;
    if ((uint64_t)k * (uint64_t)nf > 4 * MAX_SLOTS)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "column %u: more than %zu struct fields in one batch", c->id,
                        4 * MAX_SLOTS);
    hl_value_t *items = hl_arena_zalloc(arena, sizeof(hl_value_t) * (k * (size_t)nf + 1));
    hl_value_t *kid = hl_arena_zalloc(arena, sizeof(hl_value_t) * (k + 1));
    if (!items || !kid) return hl_err_nomem(err);
    for (int f = 0; f < nf; f++) {
      if (c->kids[f]) {
        memset(kid, 0, sizeof(hl_value_t) * k);
        if ((st = hl_orc_col_read(c->kids[f], k, arena, kid, err)) != HL_OK) return st;
      }
      for (size_t i = 0; i < k; i++) {
        if (c->kids[f])
          items[i * (size_t)nf + (size_t)f] = kid[i];
        else
          items[i * (size_t)nf + (size_t)f].is_null = true;
      }
    }
    for (size_t i = 0; i < k; i++) {
      out[i].u.list.n = (uint32_t)nf;
      out[i].u.list.items = items + i * (size_t)nf;
    }
    return HL_OK;
  }
  int64_t *lens;
  if ((st = read_ints(&c->lens, k, arena, &lens, err)) != HL_OK) return st;
  uint64_t total = 0;
  for (size_t i = 0; i < k; i++) {
    if ((uint64_t)lens[i] > UINT32_MAX ||
        __builtin_add_overflow(total, (uint64_t)lens[i], &total) || total > MAX_SLOTS)
      return total > MAX_SLOTS
                 ? hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                              "column %u: more than %zu list or map elements in one batch", c->id,
                              MAX_SLOTS)
                 : hl_orc_corrupt(err, "column %u: bad list or map length", c->id);
  }
  size_t n = (size_t)total;
  if (c->kind == ORCPB__TYPE__KIND__LIST) {
    hl_value_t *el = hl_arena_zalloc(arena, sizeof(hl_value_t) * (n + 1));
    if (!el) return hl_err_nomem(err);
    if ((st = hl_orc_col_read(c->kids[0], n, arena, el, err)) != HL_OK) return st;
    size_t off = 0;
    for (size_t i = 0; i < k; i++) {
      out[i].u.list.n = (uint32_t)lens[i];
      out[i].u.list.items = el + off;
      off += (size_t)lens[i];
    }
    return HL_OK;
  }
  hl_value_t *keys = hl_arena_zalloc(arena, sizeof(hl_value_t) * (n + 1));
  hl_value_t *vals = hl_arena_zalloc(arena, sizeof(hl_value_t) * (n + 1));
  hl_value_t *pairs = hl_arena_alloc(arena, sizeof(hl_value_t) * (2 * n + 1));
  if (!keys || !vals || !pairs) return hl_err_nomem(err);
  if ((st = hl_orc_col_read(c->kids[0], n, arena, keys, err)) != HL_OK) return st;
  if ((st = hl_orc_col_read(c->kids[1], n, arena, vals, err)) != HL_OK) return st;
  for (size_t j = 0; j < n; j++) {
    pairs[2 * j] = keys[j];
    pairs[2 * j + 1] = vals[j];
  }
  size_t off = 0;
  for (size_t i = 0; i < k; i++) {
    out[i].u.list.n = (uint32_t)lens[i];
    out[i].u.list.items = pairs + 2 * off;
    off += (size_t)lens[i];
  }
  return HL_OK;
}

hl_status_t hl_orc_col_read(hl_orc_col_t *c, size_t n, hl_arena_t *arena, hl_value_t *out,
                            hl_error_t *err) {
  size_t k = n;
  uint8_t *pres = NULL;
  hl_status_t st;
  if (c->has_present) {
    pres = hl_arena_alloc(arena, n ? n : 1);
    if (!pres) return hl_err_nomem(err);
    if ((st = hl_orc_bool_rle_next(&c->present, pres, n)) != HL_OK) return st;
    k = 0;
    for (size_t i = 0; i < n; i++)
      k += pres[i];
  }
  for (size_t i = 0; i < n; i++)
    out[i].is_null = false;
  if ((st = read_dense(c, k, arena, out, err)) != HL_OK) return st;
  if (pres) {
    size_t j = k;
    for (size_t i = n; i-- > 0;) {
      if (pres[i]) {
        out[i] = out[--j];
      } else {
        memset(&out[i], 0, sizeof out[i]);
        out[i].is_null = true;
      }
    }
  }
  return HL_OK;
}

/* UNION: a tag byte per present value in DATA; variant T holds a slot for
 * each value of tag T, in row order (ORC's specification). */
static hl_status_t read_union(hl_orc_col_t *c, size_t k, hl_arena_t *arena, hl_value_t *out,
                              hl_error_t *err) {
  hl_status_t st;
  uint8_t *tags = hl_arena_alloc(arena, k ? k : 1);
  hl_value_t *items = hl_arena_zalloc(arena, sizeof(hl_value_t) * (k + 1));
  if (!tags || !items) return hl_err_nomem(err);
  if ((st = hl_orc_byte_rle_next(&c->bytes, tags, k)) != HL_OK) return st;
  size_t count[HL_UNION_MAX_TAGS] = {0}, at[HL_UNION_MAX_TAGS] = {0};
  for (size_t i = 0; i < k; i++) {
    if (tags[i] >= c->n_kids)
      return hl_orc_corrupt(err, "column %u: union tag %u names no variant (it has %d)", c->id,
                            tags[i], c->n_kids);
    count[tags[i]]++;
  }
  /* each variant's values, read in one go, then dealt out by tag */
  hl_value_t *vals[HL_UNION_MAX_TAGS] = {0};
  for (int t = 0; t < c->n_kids; t++) {
    if (!count[t]) continue;
    if (!(vals[t] = hl_arena_zalloc(arena, sizeof(hl_value_t) * count[t])))
      return hl_err_nomem(err);
    if ((st = hl_orc_col_read(c->kids[t], count[t], arena, vals[t], err)) != HL_OK) return st;
  }
  for (size_t i = 0; i < k; i++) {
    items[i] = vals[tags[i]][at[tags[i]]++];
    out[i].u.list.n = 1;
    out[i].u.list.tag = tags[i];
    out[i].u.list.items = &items[i];
  }
  return HL_OK;
}
