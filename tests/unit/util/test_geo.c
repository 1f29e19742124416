/*
 * test_geo.c -- unit tests for the ST_Geometry codec (src/util/geo.c,
 * geo_wkt.c): WKT -> geometry -> ESRI shape -> geometry gives the same
 * shape bytes and the same WKT for every type, dimension and EMPTY; every
 * truncated prefix of a shape is rejected with 22023 (and of a value: a
 * NULL under 4 shape bytes, as Hive, else 22023); ESRI's ring order and
 * Java's %.17g number text; WKB round trips and truncated WKB rejected.
 */
#include "test.h"

#include "util/geo.h"

#include <math.h>
#include <string.h>

static const char *const samples[] = {
    "POINT (1 2)",
    "POINT Z (1 2 3)",
    "POINT M (1 2 3)",
    "POINT ZM (1 2 3 4)",
    "POINT EMPTY",
    "MULTIPOINT ((1 2), (3 4))",
    "MULTIPOINT Z ((1 2 3), (3 4 5))",
    "LINESTRING (10 10, 20 20, 30 40)",
    "LINESTRING ZM (1 2 3 4, 5 6 7 8)",
    "MULTILINESTRING ((2 4, 10 10), (20 20, 7 8))",
    "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 8 8, 8 2, 2 2))",
    "POLYGON Z ((0 0 1, 4 0 2, 0 4 3, 0 0 1))",
    "MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)), ((2 2, 3 2, 2 3, 2 2)))",
    "MULTIPOLYGON M (((0 0 5, 1 0 6, 0 1 7, 0 0 5)), ((2 2 1, 3 2 1, 2 3 1, 2 2 1)))",
    "MULTIPOINT EMPTY",
    "MULTIPOLYGON EMPTY",
    "LINESTRING Z EMPTY",
};

/* what each sample reads back as, when not itself */
static const char *expected_wkt(const char *s) {
  if (strcmp(s, "MULTIPOINT EMPTY") == 0) return "POINT EMPTY";
  if (strcmp(s, "LINESTRING Z EMPTY") == 0) return "MULTILINESTRING Z EMPTY";
  return s;
}

static void wkt_of(const hl_geo_t *g, char *out, size_t cap) {
  hl_buf_t b;
  hl_buf_init(&b);
  CHECK(hl_geo_wkt_write(g, &b));
  snprintf(out, cap, "%s", hl_buf_cstr(&b));
  hl_buf_fini(&b);
}

TEST(round_trips) {
  hl_error_t err;
  hl_err_init(&err);
  for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
    hl_arena_t *a = hl_arena_create(4096);
    hl_geo_t g, back;
    uint8_t type = 0;
    CHECK(hl_geo_wkt_read(samples[i], strlen(samples[i]), a, &g, &type, &err) == HL_OK);
    char text[512];
    wkt_of(&g, text, sizeof text);
    CHECK_STR(text, expected_wkt(samples[i]));
    hl_buf_t shape, again;
    hl_buf_init(&shape);
    hl_buf_init(&again);
    hl_geo_shape_encode(&g, &shape);
    bool is_null = true;
    CHECK(hl_geo_shape_decode((const uint8_t *)shape.data, shape.len, a, &back, &is_null, &err) ==
          HL_OK);
    CHECK(!is_null);
    hl_geo_shape_encode(&back, &again);
    CHECK(again.len == shape.len && memcmp(again.data, shape.data, shape.len) == 0);
    wkt_of(&back, text, sizeof text);
    CHECK_STR(text, expected_wkt(samples[i]));
    /* every shorter prefix of the shape is malformed */
    for (size_t n = 0; n < shape.len; n++) {
      hl_err_clear(&err);
      CHECK(hl_geo_shape_decode((const uint8_t *)shape.data, n, a, &back, &is_null, &err) ==
            HL_ERROR);
      CHECK_STR(err.sqlstate, "22023");
    }
    hl_err_clear(&err);
    /* WKB: read back to the same WKT; every shorter prefix is malformed */
    hl_buf_t wkb;
    hl_buf_init(&wkb);
    CHECK(hl_geo_wkb_write(&g, &wkb));
    uint8_t wtype = 0;
    CHECK(hl_geo_wkb_read((const uint8_t *)wkb.data, wkb.len, a, &back, &wtype, &err) == HL_OK);
    wkt_of(&back, text, sizeof text);
    CHECK_STR(text, expected_wkt(samples[i]));
    for (size_t n = 0; n < wkb.len; n++) {
      hl_err_clear(&err);
      CHECK(hl_geo_wkb_read((const uint8_t *)wkb.data, n, a, &back, &wtype, &err) == HL_ERROR);
      CHECK_STR(err.sqlstate, "22023");
    }
    hl_err_clear(&err);
    hl_buf_fini(&wkb);
    /* the value: SRID and type, then the shape */
    hl_buf_t val;
    hl_buf_init(&val);
    hl_geo_value_encode(&g, 4326, type, &val);
    hl_geo_value_t v;
    CHECK(hl_geo_value_decode((const uint8_t *)val.data, val.len, a, &v, &err) == HL_OK);
    CHECK(!v.is_null && v.srid == 4326 && v.ogc_type == type);
    for (size_t n = 0; n < val.len; n++) {
      hl_err_clear(&err);
      hl_status_t rc = hl_geo_value_decode((const uint8_t *)val.data, n, a, &v, &err);
      if (n == 0 || (n >= 5 && n < 9))
        CHECK(rc == HL_OK && v.is_null);
      else
        CHECK(rc == HL_ERROR && strcmp(err.sqlstate, "22023") == 0);
    }
    hl_err_clear(&err);
    hl_buf_fini(&val);
    hl_buf_fini(&shape);
    hl_buf_fini(&again);
    hl_arena_destroy(a);
  }
}

TEST(ring_order) {
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(4096);
  hl_geo_t g;
  uint8_t type;
  /* clockwise as written: ESRI keeps it, and writes it from its start backwards */
  const char *cw = "polygon ((0 0, 0 10, 10 10, 0 0))";
  CHECK(hl_geo_wkt_read(cw, strlen(cw), a, &g, &type, &err) == HL_OK);
  CHECK(hl_geo_ring_area(&g, 0) > 0);
  char text[256];
  wkt_of(&g, text, sizeof text);
  CHECK_STR(text, "POLYGON ((0 0, 10 10, 0 10, 0 0))");
  /* the shape holds the ring clockwise, closed */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_geo_shape_encode(&g, &b);
  CHECK(b.len == 44 + 4 + 4 * 16);
  double y1;
  memcpy(&y1, b.data + 48 + 16 + 8, 8);
  CHECK(y1 == 10);
  hl_buf_fini(&b);
  /* a polygon with only a hole has no OGC polygon: ESRI's export fails */
  g.xy[2] = 10, g.xy[3] = 10, g.xy[4] = 0, g.xy[5] = 10;
  CHECK(hl_geo_ring_area(&g, 0) < 0);
  hl_buf_init(&b);
  CHECK(!hl_geo_wkt_write(&g, &b));
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(numbers) {
  static const struct {
    double v;
    const char *text;
  } cases[] = {
      {0, "0"},
      {-0.0, "-0"},
      {1, "1"},
      {10.02, "10.02"},
      {0.1, "0.1"},
      {-1.5, "-1.5"},
      {1e-4, "0.0001"},
      {1e-5, "1.0000000000000000e-05"},
      {123456.789, "123456.789"},
      {1e16, "10000000000000000"},
      {1e17, "1.0000000000000000e+17"},
      {2.5e-300, "2.5000000000000000e-300"},
      {NAN, "NAN"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_geo_put_number(&b, cases[i].v);
    CHECK_STR(hl_buf_cstr(&b), cases[i].text);
    hl_buf_fini(&b);
  }
}

TEST(bad_text) {
  static const char *const bad[] = {
      "",
      "point",
      "point (1)",
      "point (1 2",
      "point (1 2) x",
      "blob",
      "linestring (1 2, 3)",
      "polygon ((0 0, 1 1)",
      "point z (1 2)",
      "point (0x10 1)",
      "point (inf 1)",
      "multipoint ((1 2), )",
  };
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(4096);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hl_geo_t g;
    uint8_t type;
    CHECK(hl_geo_wkt_read(bad[i], strlen(bad[i]), a, &g, &type, &err) == HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
  hl_geo_t g;
  uint8_t type;
  CHECK(hl_geo_wkt_read("GEOMETRYCOLLECTION EMPTY", 24, a, &g, &type, &err) == HL_UNSUPPORTED);
  hl_err_clear(&err);
  hl_arena_destroy(a);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(round_trips);
  RUN(ring_order);
  RUN(numbers);
  RUN(bad_text);
  return test_report();
}
