/*
 * spill_block.c -- one block of a spill file: rows of a column batch
 * encoded compactly and decoded with every length checked (spill.h gives
 * the layout).
 *
 * Invariant: the decoder reads nothing outside the payload it is given and
 * allocates at most a constant times its length (every item of a complex
 * value costs at least one byte), so a damaged block is HL_CORRUPT, never
 * a wild read or an unbounded allocation (fuzzed: tests/fuzz/fuzz_spill.c).
 */
#include "exec/spill.h"

#include <string.h>

#define BLOCK_MAGIC 0x42534c48u /* "HLSB" */

static void put_u8(hl_buf_t *b, uint8_t v) {
  hl_buf_append(b, &v, 1);
}

static void put_u32(hl_buf_t *b, uint32_t v) {
  hl_buf_append(b, &v, sizeof v);
}

/* One value of TYPE, nested: a presence byte, then the leaf or the items. */
static void put_value(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v) {
  if (!v || v->is_null) {
    put_u8(b, 0);
    return;
  }
  put_u8(b, 1);
  switch (hl_type_phys(type)) {
  case HL_P_BOOL:
    put_u8(b, v->u.b ? 1 : 0);
    return;
  case HL_P_I64:
    hl_buf_append(b, &v->u.i, sizeof v->u.i);
    return;
  case HL_P_F64:
    hl_buf_append(b, &v->u.d, sizeof v->u.d);
    return;
  case HL_P_I128:
    hl_buf_append(b, &v->u.dec, sizeof v->u.dec);
    return;
  case HL_P_STR:
    put_u32(b, v->u.s.len);
    hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return;
  case HL_P_VALUE:
    break;
  }
  uint32_t n = v->u.list.n;
  size_t items = hl_value_n_items(type, v);
  put_u32(b, n);
  if (type->id == HL_T_UNION) put_u8(b, (uint8_t)v->u.list.tag);
  for (size_t i = 0; i < items; i++)
    put_value(b, hl_value_item_type(type, v, i), &v->u.list.items[i]);
}

static bool row_is_null(const hl_vec_t *v, uint32_t r) {
  if (hl_vec_is_null(v, r)) return true;
  if (hl_type_phys(v->type) != HL_P_VALUE) return false;
  const hl_value_t *p = HL_VEC_VALUE(v)[r];
  return !p || p->is_null;
}

static void put_column(hl_buf_t *b, const hl_vec_t *v, const uint32_t *rows, uint32_t n) {
  hl_phys_t phys = hl_type_phys(v->type);
  uint8_t null[HL_BATCH_CAP]; /* per written row, once: the loops below read it thrice */
  uint32_t n_null = 0;
  for (uint32_t i = 0; i < n; i++)
    n_null += (null[i] = row_is_null(v, rows[i]));
  /* 0: no NULL; 1: a bitmap follows; 2: all NULL, nothing follows (the
   * columns nobody reads above an operator: most of a wide probe side) */
  put_u8(b, n_null == n ? 2 : n_null ? 1 : 0);
  if (n_null == n) return;
  if (n_null) {
    uint8_t byte = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (!null[i]) byte |= (uint8_t)(1u << (i & 7));
      if ((i & 7) == 7 || i + 1 == n) {
        put_u8(b, byte);
        byte = 0;
      }
    }
  }
  switch (phys) {
  case HL_P_BOOL:
  case HL_P_I64:
  case HL_P_F64:
  case HL_P_I128: {
    size_t w = phys == HL_P_BOOL ? 1 : phys == HL_P_I128 ? 16 : 8;
    if (hl_buf_reserve(b, w * n) != 0) return;
    char *d = b->data + b->len;
    for (uint32_t i = 0; i < n; i++) /* NULL rows as zeros: deterministic bytes */
      if (null[i])
        memset(d + w * i, 0, w);
      else
        memcpy(d + w * i, (const char *)v->data + w * rows[i], w);
    b->len += w * n;
    b->data[b->len] = '\0'; /* hl_buf's invariant */
    return;
  }
  case HL_P_STR: {
    const hl_str_t *s = HL_VEC_STR(v);
    size_t bytes = 0;
    for (uint32_t i = 0; i < n; i++)
      bytes += null[i] ? 0 : s[rows[i]].len;
    if (hl_buf_reserve(b, 4 * (size_t)n + bytes) != 0) return;
    char *d = b->data + b->len;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t len = null[i] ? 0 : s[rows[i]].len;
      memcpy(d + 4 * (size_t)i, &len, 4);
    }
    d += 4 * (size_t)n;
    for (uint32_t i = 0; i < n; i++)
      if (!null[i] && s[rows[i]].len) {
        memcpy(d, s[rows[i]].ptr, s[rows[i]].len);
        d += s[rows[i]].len;
      }
    b->len += 4 * (size_t)n + bytes;
    b->data[b->len] = '\0';
    return;
  }
  case HL_P_VALUE:
    for (uint32_t i = 0; i < n; i++)
      put_value(b, v->type, null[i] ? NULL : HL_VEC_VALUE(v)[rows[i]]);
    return;
  }
}

hl_status_t hl_spill_block_encode(hl_buf_t *buf, const hl_batch_t *b, const uint32_t *rows,
                                  uint32_t n) {
  size_t start = buf->len;
  uint32_t head[4] = {BLOCK_MAGIC, n, (uint32_t)b->n_cols, 0};
  uint64_t payload = 0;
  hl_buf_append(buf, head, sizeof head);
  hl_buf_append(buf, &payload, sizeof payload);
  for (int c = 0; c < b->n_cols; c++)
    put_column(buf, &b->cols[c], rows, n);
  if (buf->oom) return HL_NOMEM;
  payload = buf->len - start - HL_SPILL_HEADER_BYTES;
  memcpy(buf->data + start + sizeof head, &payload, sizeof payload);
  return HL_OK;
}

bool hl_spill_block_header(const uint8_t *head, uint32_t *n_rows, uint32_t *n_cols,
                           uint64_t *payload) {
  uint32_t h[4];
  memcpy(h, head, sizeof h);
  memcpy(payload, head + sizeof h, sizeof *payload);
  *n_rows = h[1];
  *n_cols = h[2];
  return h[0] == BLOCK_MAGIC && h[1] > 0 && h[1] <= HL_BATCH_CAP && h[3] == 0;
}

typedef struct cursor {
  const uint8_t *p, *end;
} cursor_t;

static const uint8_t *take(cursor_t *c, uint64_t n) {
  if ((uint64_t)(c->end - c->p) < n) return NULL;
  const uint8_t *p = c->p;
  c->p += n;
  return p;
}

static bool take_u32(cursor_t *c, uint32_t *v) {
  const uint8_t *p = take(c, 4);
  if (p) memcpy(v, p, 4);
  return p != NULL;
}

/* The inverse of put_value: HL_OK, HL_CORRUPT on a malformed encoding,
 * HL_NOMEM.  Strings point into the block, which lives in ARENA. */
static hl_status_t get_value(cursor_t *c, const hl_type_t *type, hl_arena_t *arena,
                             hl_value_t *out) {
  memset(out, 0, sizeof *out);
  const uint8_t *flag = take(c, 1);
  if (!flag || *flag > 1) return HL_CORRUPT;
  out->is_null = *flag == 0;
  if (out->is_null) return HL_OK;
  const uint8_t *p;
  switch (hl_type_phys(type)) {
  case HL_P_BOOL:
    if (!(p = take(c, 1))) return HL_CORRUPT;
    out->u.b = *p != 0;
    return HL_OK;
  case HL_P_I64:
    if (!(p = take(c, 8))) return HL_CORRUPT;
    memcpy(&out->u.i, p, 8);
    return HL_OK;
  case HL_P_F64:
    if (!(p = take(c, 8))) return HL_CORRUPT;
    memcpy(&out->u.d, p, 8);
    return HL_OK;
  case HL_P_I128:
    if (!(p = take(c, 16))) return HL_CORRUPT;
    memcpy(&out->u.dec, p, 16);
    return HL_OK;
  case HL_P_STR:
    if (!take_u32(c, &out->u.s.len) || !(p = take(c, out->u.s.len))) return HL_CORRUPT;
    out->u.s.ptr = (const char *)p;
    return HL_OK;
  case HL_P_VALUE:
    break;
  }
  uint32_t n;
  if (type->id == HL_T_NULL || !take_u32(c, &n)) return HL_CORRUPT;
  uint64_t items = type->id == HL_T_MAP ? 2 * (uint64_t)n : n;
  /* every item takes at least its presence byte: the count is bounded by
   * the block, so the allocation is too */
  if (items > (uint64_t)(c->end - c->p)) return HL_CORRUPT;
  if (type->id == HL_T_STRUCT && n != (uint32_t)type->n_children) return HL_CORRUPT;
  out->u.list.n = n;
  if (type->id == HL_T_UNION) {
    if (n != 1 || !(p = take(c, 1)) || *p >= (uint32_t)type->n_children) return HL_CORRUPT;
    out->u.list.tag = *p;
  }
  out->u.list.items = items ? hl_arena_alloc(arena, sizeof(hl_value_t) * items) : NULL;
  if (items && !out->u.list.items) return HL_NOMEM;
  for (uint64_t i = 0; i < items; i++) {
    hl_status_t rc =
        get_value(c, hl_value_item_type(type, out, (size_t)i), arena, &out->u.list.items[i]);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

/* Rows [BASE, BASE + N) of V NULL where BITS (bit set: present) says so,
 * all of them when BITS is NULL: the validity words written directly. */
static hl_status_t set_nulls(hl_vec_t *v, hl_arena_t *arena, uint32_t base, uint32_t n,
                             const uint8_t *bits) {
  for (uint32_t i = 0; i < n; i++) {
    if (bits && (bits[i >> 3] & (1u << (i & 7)))) continue;
    uint32_t r = base + i;
    if (!v->validity) { /* the first NULL: an all-valid bitmap */
      if (hl_vec_set_null(v, arena, r) != HL_OK) return HL_NOMEM;
      continue;
    }
    v->validity[r >> 6] &= ~((uint64_t)1 << (r & 63));
  }
  return HL_OK;
}

/* Column V of N rows from C; SKIP: parse only (an unused column of the
 * target batch, whose data must not be written).  HL_CORRUPT or HL_NOMEM
 * (returned bare; the caller words the error). */
static hl_status_t get_column(cursor_t *c, hl_vec_t *v, hl_arena_t *arena, uint32_t base,
                              uint32_t n, bool skip) {
  const uint8_t *flag = take(c, 1), *bits = NULL;
  if (!flag || *flag > 2) return HL_CORRUPT;
  if (*flag == 2) return skip ? HL_OK : set_nulls(v, arena, base, n, NULL);
  if (*flag && !(bits = take(c, (n + 7) / 8))) return HL_CORRUPT;
  hl_phys_t phys = hl_type_phys(v->type);
  switch (phys) {
  case HL_P_BOOL:
  case HL_P_I64:
  case HL_P_F64:
  case HL_P_I128: {
    size_t w = phys == HL_P_BOOL ? 1 : phys == HL_P_I128 ? 16 : 8;
    const uint8_t *p = take(c, (uint64_t)w * n);
    if (!p) return HL_CORRUPT;
    if (!skip) memcpy((char *)v->data + w * base, p, w * n);
    break;
  }
  case HL_P_STR: {
    const uint8_t *lens = take(c, 4 * (uint64_t)n);
    if (!lens) return HL_CORRUPT;
    hl_str_t *s = skip ? NULL : HL_VEC_STR(v) + base;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t len;
      memcpy(&len, lens + 4 * (size_t)i, 4);
      const uint8_t *p = take(c, len);
      if (!p) return HL_CORRUPT;
      if (s) s[i] = (hl_str_t){(const char *)p, len};
    }
    break;
  }
  case HL_P_VALUE:
    for (uint32_t i = 0; i < n; i++) {
      hl_value_t *val = hl_arena_alloc(arena, sizeof(*val));
      if (!val) return HL_NOMEM;
      hl_status_t rc = get_value(c, v->type, arena, val);
      if (rc != HL_OK) return rc;
      if (!skip) HL_VEC_VALUE(v)[base + i] = val->is_null ? NULL : val;
    }
    break;
  }
  return bits && !skip ? set_nulls(v, arena, base, n, bits) : HL_OK;
}

hl_status_t hl_spill_block_decode(const uint8_t *payload, size_t len, uint32_t n_rows,
                                  hl_batch_t *b) {
  uint32_t base = b->n_rows;
  if (n_rows == 0 || n_rows > HL_BATCH_CAP - base) return HL_CORRUPT;
  cursor_t c = {payload, payload + len};
  for (int col = 0; col < b->n_cols; col++) {
    bool skip = b->unused && b->unused[col];
    hl_status_t rc = get_column(&c, &b->cols[col], b->arena, base, n_rows, skip);
    if (rc != HL_OK) return rc;
  }
  if (c.p != c.end) return HL_CORRUPT;
  b->n_rows = base + n_rows;
  return HL_OK;
}
