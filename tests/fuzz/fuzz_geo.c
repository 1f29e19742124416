// clang-format off
/*
 * fuzz_geo.c -- libFuzzer target for the ST_Geometry readers of the st_*
 * functions (src/util/geo.c, geo_wkt.c): the value (SRID, type byte,
 * ESRI shape), the bare shape and the well-known binary from the input's
 * bytes, the well-known text from the same bytes as text.
 *
 * Build (as `make fuzz` and the fuzz.geo CTest entry do):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_geo.c src/util/[a-z]*.c -lm -lpthread -o fuzz_geo
 *
 * A rejection must be 22023 (0A000 for a GEOMETRYCOLLECTION, 54000 for
 * too many vertices).  An accepted shape must encode to bytes that decode
 * and encode to the same bytes from the second pass on (the first may
 * turn a point coordinate below -1e38 into NaN, ArcView's NaN, as ESRI
 * does), and write as WKT or be refused as ESRI refuses.  Accepted WKB
 * and text must give shapes that round-trip, and their WKB or WKT, read
 * and written again, the same bytes or text when every coordinate is
 * finite and every ring has an area (ESRI's reversal of a first ring
 * without one is not stable).
 */
// clang-format on
#include "util/geo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool allowed(const hl_error_t *err) {
  return strcmp(err->sqlstate, "22023") == 0 || strcmp(err->sqlstate, "0A000") == 0 ||
         strcmp(err->sqlstate, "54000") == 0;
}

/* G's shape decodes, and what that encodes to decodes and encodes to the
 * same bytes (one pass may turn a point coordinate below -1e38 into NaN,
 * ArcView's NaN, as ESRI does) */
static void check_shape(const hl_geo_t *g, hl_arena_t *a) {
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t b[3];
  for (int i = 0; i < 3; i++)
    hl_buf_init(&b[i]);
  hl_geo_t cur = *g, back;
  bool is_null = true;
  for (int i = 0; i < 3; i++) {
    hl_geo_shape_encode(&cur, &b[i]);
    if (b[i].oom) goto done;
    if (i == 2) break;
    if (hl_geo_shape_decode((const uint8_t *)b[i].data, b[i].len, a, &back, &is_null, &err) !=
            HL_OK ||
        is_null)
      abort();
    cur = back;
  }
  if (b[1].len != b[2].len || memcmp(b[1].data, b[2].data, b[1].len) != 0) abort();
done:
  for (int i = 0; i < 3; i++)
    hl_buf_fini(&b[i]);
  hl_err_clear(&err);
}

static bool stable(const hl_geo_t *g) {
  for (uint32_t i = 0; i < 2 * g->n_points; i++)
    if (!isfinite(g->xy[i])) return false;
  for (uint32_t i = 0; i < g->n_points; i++)
    if ((g->z && !isfinite(g->z[i])) || (g->m && !isfinite(g->m[i]))) return false;
  if (g->kind == HL_GEO_K_POLYGON)
    for (uint32_t r = 0; r < g->n_parts; r++) {
      double area = hl_geo_ring_area(g, r);
      if (!(area != 0) || !isfinite(area)) return false;
    }
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_arena_t *a = hl_arena_create(4096);
  if (!a) return 0;
  hl_error_t err;
  hl_err_init(&err);
  hl_buf_t text;
  hl_buf_init(&text);

  hl_geo_value_t v;
  if (hl_geo_value_decode(data, size, a, &v, &err) == HL_OK) {
    if (!v.is_null) {
      check_shape(&v.geo, a);
      hl_geo_wkt_write(&v.geo, &text);
    }
  } else if (!allowed(&err)) {
    abort();
  }
  hl_err_clear(&err);

  hl_geo_t g;
  bool is_null = false;
  if (hl_geo_shape_decode(data, size, a, &g, &is_null, &err) == HL_OK) {
    if (!is_null) check_shape(&g, a);
  } else if (!allowed(&err)) {
    abort();
  }
  hl_err_clear(&err);

  uint8_t type = 0;
  if (hl_geo_wkb_read(data, size, a, &g, &type, &err) == HL_OK) {
    if (type < HL_GEO_POINT || type > HL_GEO_MULTIPOLYGON) abort();
    check_shape(&g, a);
    hl_buf_t w1, w2;
    hl_buf_init(&w1);
    hl_buf_init(&w2);
    hl_geo_t g2;
    uint8_t type2 = 0;
    if (stable(&g) && hl_geo_wkb_write(&g, &w1) && !w1.oom) {
      if (hl_geo_wkb_read((const uint8_t *)w1.data, w1.len, a, &g2, &type2, &err) != HL_OK) abort();
      if (!hl_geo_wkb_write(&g2, &w2)) abort();
      if (!w2.oom && (w1.len != w2.len || memcmp(w1.data, w2.data, w1.len) != 0)) abort();
    }
    hl_buf_fini(&w1);
    hl_buf_fini(&w2);
  } else if (!allowed(&err)) {
    abort();
  }
  hl_err_clear(&err);

  if (hl_geo_wkt_read((const char *)data, size, a, &g, &type, &err) == HL_OK) {
    if (type < HL_GEO_POINT || type > HL_GEO_MULTIPOLYGON) abort();
    check_shape(&g, a);
    if (stable(&g)) {
      hl_buf_t t1, t2;
      hl_buf_init(&t1);
      hl_buf_init(&t2);
      hl_geo_t g2;
      uint8_t type2 = 0;
      if (hl_geo_wkt_write(&g, &t1) && !t1.oom) {
        if (hl_geo_wkt_read(t1.data, t1.len, a, &g2, &type2, &err) != HL_OK) abort();
        if (!hl_geo_wkt_write(&g2, &t2)) abort();
        if (!t2.oom && (t1.len != t2.len || memcmp(t1.data, t2.data, t1.len) != 0)) abort();
      }
      hl_buf_fini(&t1);
      hl_buf_fini(&t2);
    }
  } else if (!allowed(&err)) {
    abort();
  }
  hl_err_clear(&err);
  hl_buf_fini(&text);
  hl_arena_destroy(a);
  return 0;
}
