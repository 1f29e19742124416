/*
 * op_agg_ds_theta.c -- Hive 4's Theta sketch aggregates (datasketches-hive
 * theta DataToSketchUDAF, UnionSketchUDAF, IntersectSketchUDAF):
 * ds_theta_sketch(x [, k [, p [, seed]]]), ds_theta_union(sketch [, k [,
 * seed]]) and ds_theta_intersect(sketch [, seed]), on util/ds_theta.h.
 *
 * As in Hive, a group's state is made at its first non-NULL value (a
 * group without one gives NULL): a Union of nominal entries k, sampling
 * probability p and the seed for the first two (items go through the
 * union's gadget, sketches through union(Memory), which ignores fewer
 * than 16 bytes), an Intersection for the third (each sketch read as
 * Sketch.wrap reads it).  UnionState.update hashes TINYINT, INT and BIGINT
 * as longs, FLOAT and DOUBLE as doubles, strings (CHAR padded) and BINARY
 * by their bytes, the empty ones skipped; any other type fails at its first
 * value with Hive's message.
 *
 * Partial states merge as Hive's reducer merges them: the source's result
 * (the compact sketch terminatePartial writes) into the destination's
 * union (made with p = 1, as UnionEvaluator.merge makes it) or
 * intersection, in unit order.  A union's result is the k smallest hashes
 * below the least theta whatever the partitioning, so every thread count
 * gives the single-threaded bytes.  Spilled (op_agg_own.c), a state is that
 * compact result; read back it is a state whose result is those bytes.
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/ds_theta.h"
#include "util/mem.h"
#include "util/murmur3.h"

struct agg_ds_theta {
  hl_ds_theta_union_t u; /* ds_theta_sketch, ds_theta_union */
  hl_ds_theta_inter_t x; /* ds_theta_intersect */
};

static bool is_inter(const hl_agg_t *ag) {
  return ag->kind == HL_AGG_DS_THETA_INTERSECT;
}

/* A new state of AG's parameters (P for a union's sampling). */
static hl_status_t make(const hl_agg_t *ag, float p, hl_arena_t *arena, struct agg_ds_theta **out,
                        hl_error_t *err) {
  struct agg_ds_theta *t = hl_arena_zalloc(arena, sizeof *t);
  if (!t) return hl_err_nomem(err);
  hl_status_t rc = is_inter(ag)
                       ? hl_ds_theta_inter_init(&t->x, ag->lparam, err)
                       : hl_ds_theta_union_init(&t->u, ag->ip[0], p, ag->lparam, arena, err);
  if (rc != HL_OK) return rc;
  *out = t;
  return HL_OK;
}

static const char *writable_of(const hl_type_t *t) {
  switch (t->id) {
  case HL_T_SMALLINT:
    return "ShortWritable SHORT";
  case HL_T_BOOLEAN:
    return "BooleanWritable BOOLEAN";
  case HL_T_DECIMAL:
    return "HiveDecimalWritable DECIMAL";
  case HL_T_DATE:
    return "DateWritableV2 DATE";
  case HL_T_TIMESTAMP:
    return "TimestampWritableV2 TIMESTAMP";
  default:
    return "Object UNKNOWN";
  }
}

/* UnionState.update(value): the item's hash, false when it is skipped
 * (an empty string or binary). */
static hl_status_t item_hash(const hl_type_t *t, const hl_value_t *v, uint64_t seed, bool *skip,
                             uint64_t *hash, hl_error_t *err) {
  uint64_t h[2] = {0, 0};
  *skip = false;
  switch (t->id) {
  case HL_T_TINYINT:
  case HL_T_INT:
  case HL_T_BIGINT:
    hl_ds_hash_long(v->u.i, seed, h);
    break;
  case HL_T_FLOAT:
    hl_ds_hash_double((double)(float)v->u.d, seed, h);
    break;
  case HL_T_DOUBLE:
    hl_ds_hash_double(v->u.d, seed, h);
    break;
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY:
    if (v->u.s.len == 0) {
      *skip = true;
      return HL_OK;
    }
    hl_murmur3_128(v->u.s.ptr, v->u.s.len, seed, h);
    break;
  default: {
    const char *w = writable_of(t), *sp = strchr(w, ' ');
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "Unrecongnized input data type %.*s category %s, please use data of the "
                      "following types: byte, double, float, int, long, char, varchar or string.",
                      (int)(sp - w), w, sp + 1);
  }
  }
  *hash = h[0] >> 1;
  return HL_OK;
}

hl_status_t hl_agg_ds_theta_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st,
                                   const hl_vec_t *arg, uint32_t r, hl_error_t *err) {
  if (hl_vec_is_null(arg, r)) return HL_OK;
  if (!st->ds_theta && make(ag, (float)ag->param, a->arena, &st->ds_theta, err) != HL_OK)
    return HL_ERROR;
  struct agg_ds_theta *t = st->ds_theta;
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  if (ag->kind == HL_AGG_DS_THETA_SKETCH) {
    bool skip;
    uint64_t h = 0;
    if (item_hash(arg->type, &v, t->u.seed, &skip, &h, err) != HL_OK) return HL_ERROR;
    return skip ? HL_OK : hl_ds_theta_union_update(&t->u, h, a->arena, err);
  }
  const uint8_t *p = (const uint8_t *)v.u.s.ptr;
  hl_ds_theta_view_t view;
  if (ag->kind == HL_AGG_DS_THETA_UNION) {
    if (v.u.s.len < 16) return HL_OK; /* Union.union(Memory): empty or garbage */
    if (hl_ds_theta_read(p, v.u.s.len, ag->lparam, HL_DS_THETA_UNION, &view, err) != HL_OK)
      return err->code;
    return hl_ds_theta_union_view(&t->u, &view, a->arena, err);
  }
  if (hl_ds_theta_read(p, v.u.s.len, ag->lparam, HL_DS_THETA_WRAP, &view, err) != HL_OK)
    return err->code;
  return hl_ds_theta_inter_add(&t->x, &view, a->arena, err);
}

/* ST's result as serialized bytes in a new buffer (*OUT, hl_free). */
static hl_status_t result_bytes(const hl_agg_t *ag, const struct agg_ds_theta *t, uint8_t **out,
                                size_t *len, hl_error_t *err) {
  *out = NULL;
  *len = 0;
  hl_ds_theta_compact_t c;
  uint64_t *buf = NULL;
  if (is_inter(ag)) {
    if (hl_ds_theta_inter_result(&t->x, &c, err) != HL_OK) return HL_ERROR;
  } else {
    if (!(buf = hl_malloc(sizeof(uint64_t) * (t->u.g.count + 1)))) return hl_err_nomem(err);
    hl_ds_theta_union_result(&t->u, buf, &c);
  }
  *len = hl_ds_theta_size(&c);
  *out = hl_malloc(*len);
  if (*out) hl_ds_theta_write(&c, *out);
  hl_free(buf);
  return *out ? HL_OK : hl_err_nomem(err);
}

/* Bytes of a result into T (made from AG if *T is NULL). */
static hl_status_t absorb(const hl_agg_t *ag, struct agg_ds_theta **t, const uint8_t *b, size_t n,
                          hl_arena_t *arena, hl_error_t *err) {
  if (!*t && make(ag, 1.0f, arena, t, err) != HL_OK) return HL_ERROR;
  hl_ds_theta_view_t v;
  bool inter = is_inter(ag);
  if (hl_ds_theta_read(b, n, ag->lparam, inter ? HL_DS_THETA_WRAP : HL_DS_THETA_UNION, &v, err) !=
      HL_OK)
    return err->code;
  return inter ? hl_ds_theta_inter_add(&(*t)->x, &v, arena, err)
               : hl_ds_theta_union_view(&(*t)->u, &v, arena, err);
}

hl_status_t hl_agg_ds_theta_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d,
                                  const agg_state_t *s, hl_error_t *err) {
  if (!s->ds_theta) return HL_OK;
  uint8_t *b = NULL;
  size_t n = 0;
  if (result_bytes(ag, s->ds_theta, &b, &n, err) != HL_OK) return err->code;
  hl_status_t rc = absorb(ag, &d->ds_theta, b, n, a->arena, err);
  hl_free(b);
  return rc;
}

hl_status_t hl_agg_ds_theta_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                                  hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  if (!st->ds_theta) {
    out->is_null = true;
    return HL_OK;
  }
  uint8_t *b = NULL;
  size_t n = 0;
  hl_error_t err;
  hl_err_init(&err);
  /* a state holds a sketch (an intersection's first one): only memory fails */
  hl_status_t rc = result_bytes(ag, st->ds_theta, &b, &n, &err);
  hl_err_clear(&err);
  if (rc != HL_OK) return HL_NOMEM;
  char *p = hl_arena_alloc(arena, n);
  if (p) memcpy(p, b, n);
  hl_free(b);
  if (!p) return HL_NOMEM;
  out->u.s.ptr = p;
  out->u.s.len = (uint32_t)n;
  return HL_OK;
}

void hl_agg_ds_theta_save(const hl_agg_t *ag, const agg_state_t *st, hl_buf_t *out) {
  hl_error_t err;
  hl_err_init(&err);
  uint8_t *b = NULL;
  size_t n = 0;
  if (result_bytes(ag, st->ds_theta, &b, &n, &err) != HL_OK) {
    out->oom = true;
  } else {
    hl_buf_append(out, b, n);
    hl_free(b);
  }
  hl_err_clear(&err);
}

hl_status_t hl_agg_ds_theta_load(agg_rd_t *r, const hl_agg_t *ag, hl_arena_t *arena,
                                 agg_state_t *st) {
  hl_error_t err;
  hl_err_init(&err);
  size_t n = r->left;
  const uint8_t *b = hl_agg_rd_take(r, n);
  struct agg_ds_theta *t = NULL;
  hl_status_t rc = b ? absorb(ag, &t, b, n, arena, &err) : HL_CORRUPT;
  hl_err_clear(&err);
  if (rc == HL_NOMEM) return HL_NOMEM;
  if (rc != HL_OK) return HL_CORRUPT;
  st->ds_theta = t;
  return HL_OK;
}
