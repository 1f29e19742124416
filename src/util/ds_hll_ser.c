/*
 * ds_hll_ser.c -- the DataSketches HLL sketch's bytes: Java's compact
 * serialization (what Hive's ds_hll_* functions return and read), the
 * checked reader of untrusted sketch bytes (fuzzed: tests/fuzz/
 * fuzz_ds_hll.c), toString, and the spill form of aggregate states.
 *
 * Layout (PreambleUtil): byte 0 preamble ints (LIST 2, SET 3, HLL 10),
 * 1 serial version 1, 2 family 7, 3 lgK, 4 lgArr (coupon table, or the
 * HLL_4 aux table), 5 flags (4 empty, 8 compact, 16 out of order, 32
 * rebuild KxQ), 6 LIST count or HLL curMin, 7 mode | type << 2; then a
 * LIST's coupons; a SET's count and coupons; an HLL's HIP, KxQ0, KxQ1
 * (doubles), numAtCurMin and aux count (ints), the slots and the aux
 * pairs.  All little-endian.
 */
#include "util/ds_hll.h"

#include <string.h>

#include "util/value.h"

enum { FLAG_EMPTY = 4, FLAG_COMPACT = 8, FLAG_OOO = 16, FLAG_REBUILD = 32, AUX_TOKEN = 15 };

/* LG_AUX_ARR_INTS: the aux table's first size per lgK. */
static const uint8_t lg_aux_init[22] = {0, 2, 2, 2, 2, 2, 2, 3,  3,  3,  4,
                                        4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13};

static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_f64(uint8_t *p, double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static double get_f64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[i] << (8 * i);
  double d;
  memcpy(&d, &v, 8);
  return d;
}

static uint32_t hll_arr_bytes(int lgk, int type) {
  uint32_t k = 1u << lgk;
  return type == HL_DS_HLL_4 ? k / 2 : type == HL_DS_HLL_6 ? (k * 3) / 4 + 1 : k;
}

/* HeapAuxHashMap.find: by slot number. */
static int64_t aux_find(const uint32_t *t, int lg, int lgk, uint32_t slot) {
  uint32_t mask = (1u << lg) - 1, kmask = (1u << lgk) - 1, probe = slot & mask, start = probe;
  do {
    if (t[probe] == 0) return ~(int64_t)probe;
    if ((t[probe] & kmask) == slot) return probe;
    probe = (probe + ((slot >> lg) | 1)) & mask;
  } while (probe != start);
  return INT64_MIN;
}

/* The aux table a conversion to HLL_4 builds: exceptions added in slot
 * order, grown (re-inserted in table order) past three quarters.  Heap
 * scratch of at most 2^(lgK+1) ints; NULL when out of memory. */
static uint32_t *aux_build(const hl_ds_hll_t *sk, int *lg_out, uint32_t *count_out) {
  int lg = lg_aux_init[sk->lgk];
  uint32_t count = 0, k = 1u << sk->lgk;
  uint32_t *t = hl_arena_zalloc(sk->arena, sizeof *t << lg);
  if (!t) return NULL;
  for (uint32_t i = 0; i < k; i++) {
    uint32_t v = sk->regs[i];
    if (v < sk->cur_min + AUX_TOKEN) continue;
    int64_t at = aux_find(t, lg, sk->lgk, i);
    if (at >= 0 || at == INT64_MIN) continue;
    t[~at] = v << 26 | i;
    if (4 * (uint64_t)++count > 3 * ((uint64_t)1 << lg)) {
      uint32_t *n = hl_arena_zalloc(sk->arena, sizeof *n << (lg + 1));
      if (!n) return NULL;
      for (uint32_t j = 0; j < 1u << lg; j++) {
        if (!t[j]) continue;
        int64_t a2 = aux_find(n, lg + 1, sk->lgk, t[j] & (k - 1));
        if (a2 < 0 && a2 != INT64_MIN) n[~a2] = t[j];
      }
      t = n;
      lg++;
    }
  }
  *lg_out = lg;
  *count_out = count;
  return t;
}

void hl_ds_hll_serialize(const hl_ds_hll_t *sk, hl_buf_t *out) {
  uint8_t h[40];
  memset(h, 0, sizeof h);
  h[1] = 1;
  h[2] = 7;
  h[3] = sk->lgk;
  h[7] = (uint8_t)(sk->mode | sk->type << 2);
  if (sk->mode != HL_DS_HLL_MODE_HLL) {
    bool list = sk->mode == HL_DS_HLL_LIST;
    h[0] = list ? 2 : 3;
    h[4] = sk->lg_arr;
    h[5] = (uint8_t)((sk->count == 0 ? FLAG_EMPTY : 0) | FLAG_COMPACT);
    if (list)
      h[6] = (uint8_t)sk->count;
    else
      put_u32(h + 8, sk->count);
    hl_buf_append(out, h, list ? 8 : 12);
    for (uint32_t i = 0; i < sk->cap; i++) {
      if (!sk->coupons[i]) continue;
      uint8_t c[4];
      put_u32(c, sk->coupons[i]);
      hl_buf_append(out, c, 4);
    }
    return;
  }
  uint32_t k = 1u << sk->lgk, aux_count = 0;
  int aux_lg = 0;
  uint32_t *aux = NULL;
  if (sk->type == HL_DS_HLL_4) {
    aux = aux_build(sk, &aux_lg, &aux_count);
    if (!aux) {
      out->oom = 1;
      return;
    }
  }
  h[0] = 10;
  h[4] = (uint8_t)(aux_count ? aux_lg : 0);
  h[5] = (uint8_t)((sk->type == HL_DS_HLL_4 ? FLAG_COMPACT : 0) | (sk->ooo ? FLAG_OOO : 0) |
                   (sk->rebuild ? FLAG_REBUILD : 0));
  h[6] = (uint8_t)sk->cur_min;
  put_f64(h + 8, sk->hip);
  put_f64(h + 16, sk->kxq0);
  put_f64(h + 24, sk->kxq1);
  put_u32(h + 32, sk->num_at_cur_min);
  put_u32(h + 36, aux_count);
  hl_buf_append(out, h, 40);
  uint32_t nb = hll_arr_bytes(sk->lgk, sk->type);
  if (hl_buf_reserve(out, nb) != 0) return;
  uint8_t *a = (uint8_t *)out->data + out->len;
  memset(a, 0, nb);
  for (uint32_t i = 0; i < k; i++) {
    uint32_t v = sk->regs[i];
    if (sk->type == HL_DS_HLL_4) {
      uint32_t nib = v < sk->cur_min ? 0 : v - sk->cur_min;
      if (nib > AUX_TOKEN) nib = AUX_TOKEN;
      a[i >> 1] |= (uint8_t)(nib << ((i & 1) * 4));
    } else if (sk->type == HL_DS_HLL_6) {
      uint32_t bit = i * 6, at = bit >> 3, sh = bit & 7;
      uint32_t two = (uint32_t)a[at] | (uint32_t)a[at + 1] << 8;
      two |= (v & 0x3f) << sh;
      a[at] = (uint8_t)two;
      a[at + 1] = (uint8_t)(two >> 8);
    } else {
      a[i] = (uint8_t)v;
    }
  }
  out->len += nb;
  out->data[out->len] = 0;
  for (uint32_t i = 0; aux && i < 1u << aux_lg; i++) {
    if (!aux[i]) continue;
    uint8_t c[4];
    put_u32(c, aux[i]);
    hl_buf_append(out, c, 4);
  }
}

/* ---- the reader ---- */

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "the binary is not a valid DataSketches HLL sketch: %s", what);
}

/* Coupons from P (N of them, or a table of N with empties when TABLE):
 * each non-zero one checked (value 1..63, no duplicate), kept in order. */
static hl_status_t read_coupons(const uint8_t *p, uint32_t n, bool table, hl_ds_hll_t *sk,
                                hl_error_t *err) {
  uint32_t lg = 1;
  while ((1u << lg) < 2 * n + 2)
    lg++;
  uint32_t *seen = hl_arena_zalloc(sk->arena, sizeof *seen << lg);
  uint32_t *c = hl_arena_alloc(sk->arena, sizeof *c * (n ? n : 1));
  if (!seen || !c) return hl_err_nomem(err);
  uint32_t got = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = get_u32(p + 4 * (size_t)i);
    if (v == 0) {
      if (table) continue;
      return bad(err, "an empty coupon");
    }
    if ((v >> 26) == 0) return bad(err, "a coupon of value 0");
    uint32_t mask = (1u << lg) - 1, at = (v * 0x9e3779b1u) >> (32 - lg);
    while (seen[at & mask] && seen[at & mask] != v)
      at++;
    if (seen[at & mask] == v) return bad(err, "a coupon twice");
    seen[at & mask] = v;
    c[got++] = v;
  }
  sk->coupons = c;
  sk->cap = got;
  sk->wrapped = true;
  return HL_OK;
}

static hl_status_t read_hll(const uint8_t *p, size_t n, hl_ds_hll_t *sk, hl_error_t *err) {
  int lgk = sk->lgk, type = sk->type;
  uint32_t k = 1u << lgk, nb = hll_arr_bytes(lgk, type);
  if (n < 40 + (size_t)nb) return bad(err, "shorter than its slots");
  uint8_t flags = p[5];
  sk->ooo = (flags & FLAG_OOO) != 0;
  sk->rebuild = (flags & FLAG_REBUILD) != 0;
  sk->cur_min = p[6];
  sk->hip = get_f64(p + 8);
  sk->kxq0 = get_f64(p + 16);
  sk->kxq1 = get_f64(p + 24);
  sk->num_at_cur_min = get_u32(p + 32);
  if (sk->num_at_cur_min > k) return bad(err, "numAtCurMin larger than k");
  if (!(sk->regs = hl_arena_alloc(sk->arena, k))) return hl_err_nomem(err);
  const uint8_t *a = p + 40;
  uint32_t tokens = 0;
  for (uint32_t i = 0; i < k; i++) {
    uint32_t v;
    if (type == HL_DS_HLL_4) {
      uint32_t nib = (a[i >> 1] >> ((i & 1) * 4)) & 15;
      if (nib == AUX_TOKEN) tokens++;
      v = nib == AUX_TOKEN ? 0 : nib + sk->cur_min;
      if (v > 63) return bad(err, "a slot value above 63");
    } else if (type == HL_DS_HLL_6) {
      uint32_t bit = i * 6, at = bit >> 3;
      v = (((uint32_t)a[at] | (uint32_t)a[at + 1] << 8) >> (bit & 7)) & 0x3f;
    } else {
      v = a[i] & 0x3f;
    }
    sk->regs[i] = (uint8_t)v;
  }
  if (type != HL_DS_HLL_4) return HL_OK;
  uint32_t aux_count = get_u32(p + 36);
  if (aux_count != tokens) return bad(err, "aux count does not match its exceptions");
  bool compact = (flags & FLAG_COMPACT) != 0;
  uint32_t entries = aux_count;
  if (!compact) {
    if (p[4] > lgk) return bad(err, "aux table larger than k");
    entries = aux_count ? 1u << p[4] : 0;
  }
  if ((n - 40 - nb) / 4 < entries) return bad(err, "shorter than its aux table");
  const uint8_t *x = a + nb;
  uint32_t found = 0;
  for (uint32_t i = 0; i < entries; i++) {
    uint32_t pair = get_u32(x + 4 * (size_t)i);
    if (pair == 0) {
      if (compact) return bad(err, "an empty aux entry");
      continue;
    }
    uint32_t slot = pair & (k - 1), v = pair >> 26;
    uint32_t nib = (a[slot >> 1] >> ((slot & 1) * 4)) & 15;
    if (nib != AUX_TOKEN || sk->regs[slot] != 0) return bad(err, "an aux entry for no exception");
    if (v == 0) return bad(err, "an aux value of 0");
    sk->regs[slot] = (uint8_t)v;
    found++;
  }
  if (found != aux_count) return bad(err, "exceptions without aux entries");
  return HL_OK;
}

hl_status_t hl_ds_hll_deserialize(const uint8_t *p, size_t n, hl_arena_t *arena, hl_ds_hll_t *out,
                                  hl_error_t *err) {
  if (n < 8) return bad(err, "shorter than 8 bytes");
  int pre = p[0], lgk = p[3], mode = p[7] & 3, type = (p[7] >> 2) & 3;
  if (p[1] != 1) return bad(err, "serial version is not 1");
  if (p[2] != 7) return bad(err, "family is not HLL (7)");
  if (lgk < HL_DS_HLL_MIN_LGK || lgk > HL_DS_HLL_MAX_LGK) return bad(err, "lgK out of 4..21");
  if (mode == 3 || type == 3) return bad(err, "unknown mode or type");
  if (pre != (mode == HL_DS_HLL_LIST ? 2 : mode == HL_DS_HLL_SET ? 3 : 10))
    return bad(err, "preamble ints do not match the mode");
  if (n < (size_t)pre * 4) return bad(err, "shorter than its preamble");
  hl_ds_hll_init(out, arena, lgk, type);
  out->mode = (uint8_t)mode;
  bool compact = (p[5] & FLAG_COMPACT) != 0;
  if (mode == HL_DS_HLL_MODE_HLL) {
    out->lg_arr = 0;
    return read_hll(p, n, out, err);
  }
  out->lg_arr = p[4];
  uint32_t count, entries;
  size_t start = mode == HL_DS_HLL_LIST ? 8 : 12;
  if (mode == HL_DS_HLL_LIST) {
    count = p[6];
    if (count > 7) return bad(err, "a LIST of more than 7 coupons");
  } else {
    count = get_u32(p + 8);
    if (lgk < 8) return bad(err, "a SET with lgK below 8");
    if (count > 3u << (lgk - 5)) return bad(err, "a SET larger than its lgK allows");
  }
  if (compact) {
    entries = count;
  } else {
    if (out->lg_arr > (mode == HL_DS_HLL_LIST ? 3 : lgk - 3) || out->lg_arr < 3)
      return bad(err, "coupon table size out of range");
    entries = 1u << out->lg_arr;
  }
  if ((n - start) / 4 < entries) return bad(err, "shorter than its coupons");
  hl_status_t st = read_coupons(p + start, entries, !compact, out, err);
  if (st != HL_OK) return st;
  if (out->cap != count) return bad(err, "coupon count does not match its coupons");
  out->count = count;
  return HL_OK;
}

void hl_ds_hll_to_string(const hl_ds_hll_t *sk, hl_buf_t *out) {
  static const char *const modes[] = {"LIST", "SET", "HLL"};
  hl_buf_printf(out,
                "### HLL SKETCH SUMMARY: \n  Log Config K   : %d\n  Hll Target     : %s\n"
                "  Current Mode   : %s\n  Memory         : true\n  LB             : ",
                sk->lgk, hl_ds_hll_type_name(sk->type), modes[sk->mode]);
  hl_format_double(out, hl_ds_hll_lower_bound(sk, 1), false);
  hl_buf_puts(out, "\n  Estimate       : ");
  hl_format_double(out, hl_ds_hll_estimate(sk), false);
  hl_buf_puts(out, "\n  UB             : ");
  hl_format_double(out, hl_ds_hll_upper_bound(sk, 1), false);
  hl_buf_printf(out, "\n  OutOfOrder Flag: %s\n", sk->ooo ? "true" : "false");
  if (sk->mode != HL_DS_HLL_MODE_HLL) {
    hl_buf_printf(out, "  Coupon Count   : %u\n", sk->count);
    return;
  }
  hl_buf_printf(out,
                "  CurMin         : %u\n  NumAtCurMin    : %u\n  HipAccum       : ", sk->cur_min,
                sk->num_at_cur_min);
  hl_format_double(out, sk->hip, false);
  hl_buf_puts(out, "\n  KxQ0           : ");
  hl_format_double(out, sk->kxq0, false);
  hl_buf_puts(out, "\n  KxQ1           : ");
  hl_format_double(out, sk->kxq1, false);
  hl_buf_printf(out, "\n  Rebuild KxQ Flg: %s\n", sk->rebuild ? "true" : "false");
}

/* ---- spill form: every field as it is ---- */

void hl_ds_hll_save(const hl_ds_hll_t *sk, hl_buf_t *out) {
  uint8_t h[8] = {sk->lgk, sk->type, sk->mode, sk->ooo, sk->rebuild, sk->lg_arr, 0, 0};
  hl_buf_append(out, h, sizeof h);
  uint8_t w[48];
  put_u32(w, sk->count);
  put_u32(w + 4, sk->cap);
  hl_buf_append(out, w, 8);
  for (uint32_t i = 0; i < sk->cap; i++) {
    put_u32(w, sk->coupons[i]);
    hl_buf_append(out, w, 4);
  }
  if (sk->mode != HL_DS_HLL_MODE_HLL) return;
  hl_buf_append(out, sk->regs, (size_t)1 << sk->lgk);
  put_f64(w, sk->hip);
  put_f64(w + 8, sk->kxq0);
  put_f64(w + 16, sk->kxq1);
  put_u32(w + 24, sk->cur_min);
  put_u32(w + 28, sk->num_at_cur_min);
  hl_buf_append(out, w, 32);
}

/* The invariants updates rely on: a LIST's coupons a prefix without
 * duplicates, a SET's each where its probe finds it, HLL_4's curMin the
 * true minimum, HLL_6 / HLL_8's numAtCurMin at least the zeros. */
bool hl_ds_hll_load(const uint8_t *p, size_t n, size_t *used, hl_arena_t *arena, hl_ds_hll_t *out) {
  if (n < 16) return false;
  int lgk = p[0], type = p[1], mode = p[2];
  if (lgk < HL_DS_HLL_MIN_LGK || lgk > HL_DS_HLL_MAX_LGK || type > 2 || mode > 2 || p[3] > 1 ||
      p[4] > 1 || p[6] || p[7])
    return false;
  hl_ds_hll_init(out, arena, lgk, type);
  out->mode = (uint8_t)mode;
  out->ooo = p[3];
  out->rebuild = p[4];
  out->lg_arr = p[5];
  out->count = get_u32(p + 8);
  out->cap = get_u32(p + 12);
  size_t at = 16;
  if (mode == HL_DS_HLL_LIST) {
    if (out->lg_arr != 3 || (out->cap != 0 && out->cap != 8) || out->count >= 8) return false;
  } else if (mode == HL_DS_HLL_SET) {
    if (lgk < 8 || out->lg_arr < 5 || out->lg_arr > lgk - 3 || out->cap != 1u << out->lg_arr ||
        4 * (uint64_t)out->count > 3 * (uint64_t)out->cap)
      return false;
  } else if (out->cap || out->count) {
    return false;
  }
  if ((n - at) / 4 < out->cap) return false;
  if (out->cap) {
    if (!(out->coupons = hl_arena_alloc(arena, sizeof(uint32_t) * out->cap))) return false;
    uint32_t got = 0;
    for (uint32_t i = 0; i < out->cap; i++) {
      uint32_t c = get_u32(p + at + 4 * (size_t)i);
      out->coupons[i] = c;
      if (!c) continue;
      if ((c >> 26) == 0) return false;
      got++;
      if (mode == HL_DS_HLL_LIST) {
        if (i >= out->count) return false;
        for (uint32_t j = 0; j < i; j++)
          if (out->coupons[j] == c) return false;
      }
    }
    if (got != out->count) return false;
    if (mode == HL_DS_HLL_SET) {
      for (uint32_t i = 0; i < out->cap; i++) {
        uint32_t c = out->coupons[i], mask = out->cap - 1, probe = c & mask, steps = 0;
        if (!c) continue;
        while (out->coupons[probe] != c) { /* the probe from c must reach i before an empty */
          if (out->coupons[probe] == 0 || ++steps > out->cap) return false;
          probe = (probe + (((c & ((1u << 26) - 1)) >> out->lg_arr) | 1)) & mask;
        }
      }
    }
    at += 4 * (size_t)out->cap;
  }
  if (mode == HL_DS_HLL_MODE_HLL) {
    uint32_t k = 1u << lgk;
    if (n - at < (size_t)k + 32) return false;
    if (!(out->regs = hl_arena_alloc(arena, k))) return false;
    memcpy(out->regs, p + at, k);
    at += k;
    out->hip = get_f64(p + at);
    out->kxq0 = get_f64(p + at + 8);
    out->kxq1 = get_f64(p + at + 16);
    out->cur_min = get_u32(p + at + 24);
    out->num_at_cur_min = get_u32(p + at + 28);
    at += 32;
    uint32_t zeros = 0, at_min = 0;
    for (uint32_t i = 0; i < k; i++) {
      if (out->regs[i] > 63) return false;
      zeros += out->regs[i] == 0;
      at_min += out->regs[i] == out->cur_min;
      if (type == HL_DS_HLL_4 && out->regs[i] < out->cur_min) return false;
    }
    if (out->cur_min > 63 || out->num_at_cur_min > k) return false;
    if (type == HL_DS_HLL_4 ? at_min != out->num_at_cur_min || at_min == 0
                            : out->num_at_cur_min < zeros)
      return false;
  }
  *used = at;
  return true;
}
