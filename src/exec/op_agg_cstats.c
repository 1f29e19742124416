/*
 * op_agg_cstats.c -- compute_stats(x, 'hll'|'fm' [, n]), Hive's column
 * statistics of a group as one struct (GenericUDAFComputeStats, Hive 4):
 *
 *   numbers, DECIMAL, DATE, TIMESTAMP: columntype, min, max, countnulls,
 *     numdistinctvalues, ndvbitvector
 *   strings: columntype, maxlength, avglength, countnulls,
 *     numdistinctvalues, ndvbitvector
 *   BOOLEAN: columntype, counttrues, countfalses, countnulls
 *   BINARY: columntype, maxlength, avglength, countnulls
 *
 * The distinct-value sketch is the one of compute_bit_vector_hll / _fm
 * (op_agg_sketch.c: the same values added, the same bytes), made at the
 * group's first row as Hive makes it; with no row numdistinctvalues is 0
 * and ndvbitvector the empty binary.  avglength divides by every row,
 * NULLs included, as Hive's terminate does (0 with no row), and a string's
 * length is Java's String.length(): UTF-16 code units (CHAR without its
 * trailing blanks).  min and max compare as Java's < and > do (a NaN only
 * stays when it came first).  The sketch merges in unit order, so the
 * parallel result is the single-threaded one (op_agg_sketch.c).
 */
#include <string.h>

#include "exec/op_agg_int.h"

typedef struct agg_cstats {
  agg_state_t sk; /* hive_hll / hive_fm (op_agg_sketch.c) */
  bool has;       /* min and max set */
  hl_value_t min, max;
  int64_t nulls, count, sumlen, maxlen, trues, falses;
} agg_cstats_t;

static bool is_fm(const hl_agg_t *ag) {
  return ag->ip[0] != 0;
}

/* BOOLEAN and BINARY keep no sketch */
static bool has_sketch(const hl_type_t *t) {
  return t->id != HL_T_BOOLEAN && t->id != HL_T_BINARY;
}

static bool is_string(const hl_type_t *t) {
  return t->id == HL_T_STRING || t->id == HL_T_VARCHAR || t->id == HL_T_CHAR;
}

/* Java's String.length() of UTF-8 bytes: a code unit per character, two
 * for one beyond U+FFFF (a four-byte sequence). */
static int64_t utf16_len(const char *p, uint32_t n) {
  int64_t len = 0;
  for (uint32_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if ((c & 0xC0) != 0x80) len++;
    if (c >= 0xF0) len++;
  }
  return len;
}

/* <0, 0, >0 as Java compares X and Y of TYPE; doubles as < and > do, so
 * that a NaN compares equal to everything (never replaces, never is
 * replaced). */
static int cmp(const hl_type_t *t, const hl_value_t *x, const hl_value_t *y) {
  switch (t->id) {
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    return x->u.d < y->u.d ? -1 : x->u.d > y->u.d;
  case HL_T_DECIMAL: /* one type, one scale */
    return x->u.dec < y->u.dec ? -1 : x->u.dec > y->u.dec;
  default: /* integers, DATE days, TIMESTAMP micros */
    return x->u.i < y->u.i ? -1 : x->u.i > y->u.i;
  }
}

static void take_min_max(const hl_type_t *t, agg_cstats_t *c, const hl_value_t *lo,
                         const hl_value_t *hi) {
  if (!c->has) {
    c->min = *lo;
    c->max = *hi;
    c->has = true;
    return;
  }
  if (cmp(t, lo, &c->min) < 0) c->min = *lo;
  if (cmp(t, hi, &c->max) > 0) c->max = *hi;
}

static agg_cstats_t *state(agg_t *a, agg_state_t *st, hl_error_t *err) {
  if (!st->cstats) {
    st->cstats = hl_arena_zalloc(a->arena, sizeof(agg_cstats_t));
    if (!st->cstats) hl_err_nomem(err);
  }
  return st->cstats;
}

hl_status_t hl_agg_cstats_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                 const hl_vec_t *sk, uint32_t r, hl_error_t *err) {
  agg_cstats_t *c = state(a, st, err);
  if (!c) return HL_NOMEM;
  const hl_type_t *t = ag->arg->type;
  if (has_sketch(t) &&
      hl_agg_sketch_add(a, is_fm(ag), (int)ag->param, &c->sk, ag->arg2 ? sk : arg, r, err) != HL_OK)
    return HL_NOMEM;
  if (hl_vec_is_null(arg, r)) {
    c->nulls++;
    return HL_OK;
  }
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  if (t->id == HL_T_BOOLEAN) {
    if (v.u.b)
      c->trues++;
    else
      c->falses++;
    return HL_OK;
  }
  if (t->id == HL_T_BINARY || is_string(t)) {
    if (t->id == HL_T_CHAR) /* Hive's getString of a CHAR: without trailing blanks */
      while (v.u.s.len > 0 && v.u.s.ptr[v.u.s.len - 1] == ' ')
        v.u.s.len--;
    int64_t len = t->id == HL_T_BINARY ? (int64_t)v.u.s.len : utf16_len(v.u.s.ptr, v.u.s.len);
    if (len > c->maxlen) c->maxlen = len;
    c->sumlen += len;
    c->count++;
    return HL_OK;
  }
  take_min_max(t, c, &v, &v);
  return HL_OK;
}

hl_status_t hl_agg_cstats_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                                hl_error_t *err) {
  const agg_cstats_t *o = s->cstats;
  if (!o) return HL_OK;
  agg_cstats_t *c = state(a, d, err);
  if (!c) return HL_NOMEM;
  const hl_type_t *t = ag->arg->type;
  if (has_sketch(t) &&
      hl_agg_sketch_join(a, is_fm(ag), (int)ag->param, &c->sk, &o->sk, err) != HL_OK)
    return HL_NOMEM;
  if (o->has) take_min_max(t, c, &o->min, &o->max);
  c->nulls += o->nulls;
  c->count += o->count;
  c->sumlen += o->sumlen;
  if (o->maxlen > c->maxlen) c->maxlen = o->maxlen;
  c->trues += o->trues;
  c->falses += o->falses;
  return HL_OK;
}

static void set_str(hl_value_t *v, const char *s) {
  v->u.s.ptr = (char *)s;
  v->u.s.len = (uint32_t)strlen(s);
}

static const char *type_word(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_BOOLEAN:
    return "Boolean";
  case HL_T_BINARY:
    return "Binary";
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    return "Double";
  case HL_T_DECIMAL:
    return "Decimal";
  case HL_T_DATE:
    return "Date";
  case HL_T_TIMESTAMP:
    return "Timestamp";
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    return "String";
  default:
    return "Long";
  }
}

hl_status_t hl_agg_cstats_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                hl_arena_t *arena) {
  static const agg_cstats_t none; /* no row: every count 0, no sketch */
  const agg_cstats_t *c = st->cstats ? st->cstats : &none;
  const hl_type_t *t = ag->arg->type;
  uint32_t n = (uint32_t)ag->type->n_children;
  hl_value_t *f = hl_arena_zalloc(arena, sizeof(hl_value_t) * n);
  if (!f) return HL_NOMEM;
  memset(out, 0, sizeof *out);
  out->u.list.n = n;
  out->u.list.items = f;
  set_str(&f[0], type_word(t));
  int64_t rows = c->count + c->nulls;
  double avg = rows ? (double)c->sumlen / (double)rows : 0.0;
  if (t->id == HL_T_BOOLEAN) {
    f[1].u.i = c->trues;
    f[2].u.i = c->falses;
    f[3].u.i = c->nulls;
    return HL_OK;
  }
  if (t->id == HL_T_BINARY) {
    f[1].u.i = c->maxlen;
    f[2].u.d = avg;
    f[3].u.i = c->nulls;
    return HL_OK;
  }
  if (is_string(t)) {
    f[1].u.i = c->maxlen;
    f[2].u.d = avg;
  } else if (c->has) {
    f[1] = c->min;
    f[2] = c->max;
  } else {
    f[1].is_null = f[2].is_null = true;
  }
  f[3].u.i = c->nulls;
  f[4].u.i = hl_agg_sketch_ndv(is_fm(ag), &c->sk);
  return hl_agg_sketch_bytes(is_fm(ag), &c->sk, &f[5], arena);
}

/* The bytes of a state (op_agg_own.c): whether min/max are set, then
 * them (16 bytes of a DECIMAL, else the 8 of an integer or double), the
 * six counts, whether a sketch follows, the sketch (op_agg_sketch.c). */
void hl_agg_cstats_save(const hl_type_t *t, bool fm, const agg_state_t *st, hl_buf_t *out) {
  const agg_cstats_t *c = st->cstats;
  size_t w = t->id == HL_T_DECIMAL ? sizeof c->min.u.dec : sizeof c->min.u.i;
  uint8_t has = c->has, sk = c->sk.fam != NULL; /* hive_hll or hive_fm */
  hl_buf_append(out, &has, 1);
  if (c->has) {
    hl_buf_append(out, &c->min.u, w);
    hl_buf_append(out, &c->max.u, w);
  }
  const int64_t n[6] = {c->nulls, c->count, c->sumlen, c->maxlen, c->trues, c->falses};
  hl_buf_append(out, n, sizeof n);
  hl_buf_append(out, &sk, 1);
  if (sk) hl_agg_sketch_save(fm, &c->sk, out);
}

/* Counts below this add without overflow (a merge adds two). */
#define CSTATS_COUNT_MAX (INT64_C(1) << 62)

hl_status_t hl_agg_cstats_load(agg_rd_t *r, const hl_type_t *t, bool fm, int n, hl_arena_t *arena,
                               agg_state_t *st) {
  size_t w = t->id == HL_T_DECIMAL ? sizeof(__int128) : sizeof(int64_t);
  const uint8_t *has = hl_agg_rd_take(r, 1), *lo = NULL, *hi = NULL, *sk;
  if (!has || *has > 1) return HL_CORRUPT;
  /* only numbers, DECIMAL, DATE and TIMESTAMP keep a min and max */
  if (*has && (is_string(t) || !has_sketch(t))) return HL_CORRUPT;
  if (*has && (!(lo = hl_agg_rd_take(r, w)) || !(hi = hl_agg_rd_take(r, w)))) return HL_CORRUPT;
  int64_t cnt[6];
  for (int i = 0; i < 6; i++)
    if (!hl_agg_rd_i64(r, &cnt[i]) || cnt[i] < 0 || cnt[i] >= CSTATS_COUNT_MAX) return HL_CORRUPT;
  /* a type with a sketch has it from the first row on, the others none */
  if (!(sk = hl_agg_rd_take(r, 1)) || *sk != has_sketch(t)) return HL_CORRUPT;
  agg_cstats_t *c = hl_arena_zalloc(arena, sizeof *c);
  if (!c) return HL_NOMEM;
  if (*has) {
    c->has = true;
    memcpy(&c->min.u, lo, w);
    memcpy(&c->max.u, hi, w);
  }
  c->nulls = cnt[0];
  c->count = cnt[1];
  c->sumlen = cnt[2];
  c->maxlen = cnt[3];
  c->trues = cnt[4];
  c->falses = cnt[5];
  if (*sk) {
    hl_status_t rc = hl_agg_sketch_load(r, fm, n, arena, &c->sk);
    if (rc != HL_OK) return rc;
  }
  st->cstats = c;
  return HL_OK;
}
