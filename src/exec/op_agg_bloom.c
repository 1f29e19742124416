/*
 * op_agg_bloom.c -- the aggregate bloom_filter(x, expectedEntries): Hive's
 * BloomKFilter of a group's values, as the bytes Hive's
 * GenericUDAFBloomFilter writes (util/hive_bloom.h: k, the number of
 * longs, the longs big-endian) and in_bloom_filter reads.
 *
 * The filter's shape (k and the number of longs) comes from
 * expectedEntries alone, fixed by the binder, so every group and every
 * partial state has the same one.  The state is the serialized bytes
 * themselves, bits set in place (hl_hbloom_add), made at the group's
 * first non-NULL value; NULLs are skipped (Hive's iterate), and a group
 * that saw no value gives the empty filter of that shape (Hive's fresh
 * buffer, serialized), never NULL.  A merge ORs the bits (BloomKFilter.
 * merge), which does not depend on the order: the parallel result is the
 * single-threaded one byte for byte.
 *
 * Spilled (op_agg_own.c), a state is its filter's bytes, checked against
 * the shape when read back.
 */
#include <string.h>

#include "exec/op_agg_int.h"
#include "util/hive_bloom.h"

static size_t bloom_len(const hl_agg_t *ag) {
  return 5 + (size_t)(uint32_t)ag->ip[1] * 8;
}

/* The empty filter of AG's shape, in ARENA. */
static uint8_t *bloom_new(const hl_agg_t *ag, hl_arena_t *arena) {
  size_t n = bloom_len(ag);
  uint8_t *b = hl_arena_zalloc(arena, n);
  if (!b) return NULL;
  uint32_t longs = (uint32_t)ag->ip[1];
  b[0] = (uint8_t)ag->ip[0];
  b[1] = (uint8_t)(longs >> 24);
  b[2] = (uint8_t)(longs >> 16);
  b[3] = (uint8_t)(longs >> 8);
  b[4] = (uint8_t)longs;
  return b;
}

hl_status_t hl_agg_bloom_update(agg_t *a, const hl_agg_t *ag, agg_state_t *st, const hl_vec_t *arg,
                                uint32_t r, hl_error_t *err) {
  if (hl_vec_is_null(arg, r)) return HL_OK;
  if (!st->bloom && !(st->bloom = bloom_new(ag, a->arena))) return hl_err_nomem(err);
  hl_value_t v;
  hl_vec_get_value(arg, r, &v);
  hl_hbloom_add(st->bloom, bloom_len(ag), hl_hbloom_hash(arg->type, &v));
  return HL_OK;
}

hl_status_t hl_agg_bloom_merge(agg_t *a, const hl_agg_t *ag, agg_state_t *d, const agg_state_t *s,
                               hl_error_t *err) {
  if (!s->bloom) return HL_OK;
  size_t n = bloom_len(ag);
  if (!d->bloom) {
    if (!(d->bloom = hl_arena_alloc(a->arena, n))) return hl_err_nomem(err);
    memcpy(d->bloom, s->bloom, n);
    return HL_OK;
  }
  for (size_t i = 5; i < n; i++)
    d->bloom[i] |= s->bloom[i];
  return HL_OK;
}

hl_status_t hl_agg_bloom_final(const hl_agg_t *ag, const agg_state_t *st, hl_value_t *out,
                               hl_arena_t *arena) {
  memset(out, 0, sizeof *out);
  const uint8_t *b = st->bloom;
  if (!b && !(b = bloom_new(ag, arena))) return HL_NOMEM;
  out->u.s.ptr = (const char *)b;
  out->u.s.len = (uint32_t)bloom_len(ag);
  return HL_OK;
}

void hl_agg_bloom_save(const hl_agg_t *ag, const agg_state_t *st, hl_buf_t *out) {
  hl_buf_append(out, st->bloom, bloom_len(ag));
}

hl_status_t hl_agg_bloom_load(agg_rd_t *r, const hl_agg_t *ag, hl_arena_t *arena, agg_state_t *st) {
  size_t n = bloom_len(ag);
  const uint8_t *b = hl_agg_rd_take(r, n);
  uint8_t *head = bloom_new(ag, arena); /* the shape's k and number of longs */
  if (!head) return HL_NOMEM;
  if (!b || memcmp(b, head, 5) != 0) return HL_CORRUPT;
  memcpy(head, b, n);
  st->bloom = head;
  return HL_OK;
}
