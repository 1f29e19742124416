/*
 * geo_wkb.c -- OGC well-known binary of the geometries of geo.h, as the
 * ESRI Geometry API 2.2 writes and reads it (OperatorExportToWkb,
 * OperatorImportFromWkb) for Hive's st_asbinary and st_geomfromwkb.
 *
 * Writing: little-endian (ESRI uses the native order), ISO type codes
 * (1..6, +1000 Z, +2000 M, +3000 ZM); a POINT, LINESTRING or POLYGON as a
 * single record, the multi types as a header and records; polygon rings
 * closed and written from their start backwards (OGC's order), grouped
 * into polygons at each exterior ring as the WKT writer does; an empty
 * point as NaN coordinates.
 *
 * Reading: either byte order (the first byte; inner records are read in
 * it, as ESRI does); a polygon ring's closing vertex dropped when it
 * repeats the start (rings of 3 or more), a one-vertex ring or path
 * doubled, empty parts skipped; each polygon's first ring made clockwise
 * and the others counter-clockwise (reversed keeping their start).
 * Anything else, or bytes after the geometry, is 22023.
 */
#include "util/geo.h"

#include <math.h>
#include <string.h>

/* ---- writing ---- */

static void put_u8(hl_buf_t *b, uint8_t v) {
  hl_buf_append(b, &v, 1);
}

static uint32_t wkb_type(const hl_geo_t *g, int base) {
  return (uint32_t)base + (g->has_z && g->has_m ? 3000u : g->has_z ? 1000u : g->has_m ? 2000u : 0u);
}

static void header(hl_buf_t *b, const hl_geo_t *g, int base) {
  put_u8(b, 1);
  hl_geo_put_u32le(b, wkb_type(g, base));
}

static void put_vertex(hl_buf_t *b, const hl_geo_t *g, uint32_t i) {
  hl_geo_put_f64le(b, g->xy[2 * i]);
  hl_geo_put_f64le(b, g->xy[2 * i + 1]);
  if (g->z) hl_geo_put_f64le(b, g->z[i]);
  if (g->m) hl_geo_put_f64le(b, g->m[i]);
}

static void point_record(hl_buf_t *b, const hl_geo_t *g, uint32_t i, bool empty) {
  header(b, g, HL_GEO_POINT);
  if (empty) {
    for (int k = 0; k < 2 + g->has_z + g->has_m; k++)
      hl_geo_put_f64le(b, NAN);
    return;
  }
  put_vertex(b, g, i);
}

static void line_record(hl_buf_t *b, const hl_geo_t *g, uint32_t p) {
  header(b, g, HL_GEO_LINESTRING);
  hl_geo_put_u32le(b, g->parts[p + 1] - g->parts[p]);
  for (uint32_t i = g->parts[p]; i < g->parts[p + 1]; i++)
    put_vertex(b, g, i);
}

static void polygon_record(hl_buf_t *b, const hl_geo_t *g, uint32_t from, uint32_t to) {
  header(b, g, HL_GEO_POLYGON);
  hl_geo_put_u32le(b, to - from);
  for (uint32_t r = from; r < to; r++) {
    uint32_t s = g->parts[r], e = g->parts[r + 1];
    hl_geo_put_u32le(b, e - s + 1);
    put_vertex(b, g, s);
    for (uint32_t i = e; i-- > s;)
      put_vertex(b, g, i);
  }
}

bool hl_geo_wkb_write(const hl_geo_t *g, hl_buf_t *out) {
  int cls = hl_geo_ogc_class(g);
  switch (cls) {
  case HL_GEO_POINT:
    point_record(out, g, 0, g->n_points == 0);
    return true;
  case HL_GEO_MULTIPOINT:
    header(out, g, HL_GEO_MULTIPOINT);
    hl_geo_put_u32le(out, g->n_points);
    for (uint32_t i = 0; i < g->n_points; i++)
      point_record(out, g, i, false);
    return true;
  case HL_GEO_LINESTRING:
    line_record(out, g, 0);
    return true;
  case HL_GEO_MULTILINESTRING:
    header(out, g, HL_GEO_MULTILINESTRING);
    hl_geo_put_u32le(out, g->n_parts);
    for (uint32_t p = 0; p < g->n_parts; p++)
      line_record(out, g, p);
    return true;
  case HL_GEO_POLYGON:
    polygon_record(out, g, 0, g->n_parts);
    return true;
  default: {
    uint32_t count = 0;
    for (uint32_t r = 0; r < g->n_parts; r++)
      count += hl_geo_ring_area(g, r) > 0;
    if (count == 0 && g->n_points > 0) return false; /* ESRI: corrupted geometry */
    header(out, g, HL_GEO_MULTIPOLYGON);
    hl_geo_put_u32le(out, count);
    uint32_t start = 0, end = 1;
    for (uint32_t k = 0; k < count; k++) {
      if (k) {
        start = end;
        end++;
        if (start >= g->n_parts) return false;
      }
      while (end < g->n_parts && !(hl_geo_ring_area(g, end) > 0))
        end++;
      polygon_record(out, g, start, end);
    }
    return true;
  }
  }
}

/* ---- reading ---- */

typedef struct wr {
  const uint8_t *p;
  size_t n, off;
  bool big;
  hl_error_t *err;
} wr_t;

static hl_status_t bad(wr_t *r, const char *what) {
  return hl_err_set(r->err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "invalid well-known binary at byte %zu: %s", r->off, what);
}

static bool get_u32(wr_t *r, uint32_t *v) {
  if (r->n - r->off < 4) return false;
  const uint8_t *q = r->p + r->off;
  *v = r->big ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]
              : (uint32_t)q[3] << 24 | (uint32_t)q[2] << 16 | (uint32_t)q[1] << 8 | q[0];
  r->off += 4;
  return true;
}

static bool get_f64(wr_t *r, double *d) {
  if (r->n - r->off < 8) return false;
  uint64_t u = 0;
  for (int i = 0; i < 8; i++)
    u = u << 8 | r->p[r->off + (r->big ? i : 7 - i)];
  memcpy(d, &u, 8);
  r->off += 8;
  return true;
}

/* a record's byte order and type (inner records: the order byte skipped,
 * as ESRI reads them in the outer order) */
static hl_status_t rec_header(wr_t *r, bool outer, uint32_t *type) {
  if (r->n - r->off < 5) return bad(r, "truncated header");
  if (outer) {
    if (r->p[r->off] > 1) return bad(r, "byte order is neither 0 nor 1");
    r->big = r->p[r->off] == 0;
  }
  r->off++;
  if (!get_u32(r, type)) return bad(r, "truncated header");
  return HL_OK;
}

/* the vertex buffers being filled */
typedef struct acc {
  hl_buf_t xy, zs, ms, parts;
  uint32_t n;
  bool z, m;
} acc_t;

static hl_status_t vertex(wr_t *r, acc_t *a) {
  double v[4] = {0, 0, NAN, NAN};
  int k = 2 + a->z + a->m;
  for (int i = 0; i < k; i++)
    if (!get_f64(r, &v[i])) return bad(r, "truncated coordinates");
  if (a->n >= HL_GEO_MAX_POINTS)
    return hl_err_set(r->err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "a geometry of more than %u vertices", HL_GEO_MAX_POINTS);
  hl_buf_append(&a->xy, v, 2 * sizeof(double));
  double z = a->z ? v[2] : NAN, m = a->m ? v[2 + a->z] : NAN;
  hl_buf_append(&a->zs, &z, sizeof z);
  hl_buf_append(&a->ms, &m, sizeof m);
  a->n++;
  /* the buffers are read back while parsing: stop at the first failure */
  if (a->xy.oom || a->zs.oom || a->ms.oom || a->parts.oom) return hl_err_nomem(r->err);
  return HL_OK;
}

static double *xy_at(acc_t *a, uint32_t i) {
  return (double *)(void *)a->xy.data + 2 * i;
}

static bool same_vertex(acc_t *a, uint32_t i, uint32_t j) {
  const double *p = xy_at(a, i), *q = xy_at(a, j);
  const double *zs = (const double *)(void *)a->zs.data, *ms = (const double *)(void *)a->ms.data;
#define EQ(x, y) ((x) == (y) || (isnan(x) && isnan(y)))
  return EQ(p[0], q[0]) && EQ(p[1], q[1]) && (!a->z || EQ(zs[i], zs[j])) &&
         (!a->m || EQ(ms[i], ms[j]));
#undef EQ
}

/* drops the last vertex */
static void drop_last(acc_t *a) {
  a->n--;
  a->xy.len -= 2 * sizeof(double);
  a->zs.len -= sizeof(double);
  a->ms.len -= sizeof(double);
}

/* a path of COUNT vertices (RING: a polygon ring) */
static hl_status_t path(wr_t *r, acc_t *a, uint32_t count, bool ring) {
  if (count == 0) return HL_OK;
  if ((r->n - r->off) / (16 + 8 * ((size_t)a->z + a->m)) < count)
    return bad(r, "truncated coordinates");
  uint32_t s = a->n;
  hl_buf_append(&a->parts, &s, sizeof s);
  for (uint32_t i = 0; i < count; i++)
    if (vertex(r, a) != HL_OK) return r->err->code;
  if (count == 1) {
    /* ESRI doubles a lone vertex (copied out first: the append may move
     * the buffer) */
    double v[4];
    memcpy(v, xy_at(a, s), 2 * sizeof(double));
    v[2] = ((double *)(void *)a->zs.data)[s];
    v[3] = ((double *)(void *)a->ms.data)[s];
    hl_buf_append(&a->xy, v, 2 * sizeof(double));
    hl_buf_append(&a->zs, &v[2], sizeof(double));
    hl_buf_append(&a->ms, &v[3], sizeof(double));
    if (a->xy.oom || a->zs.oom || a->ms.oom) return hl_err_nomem(r->err);
    a->n++;
  } else if (ring && count >= 3 && same_vertex(a, s, a->n - 1)) {
    drop_last(a);
  }
  return HL_OK;
}

static hl_status_t polygon_body(wr_t *r, acc_t *a) {
  uint32_t rings;
  if (!get_u32(r, &rings)) return bad(r, "truncated ring count");
  for (uint32_t k = 0; k < rings; k++) {
    uint32_t count;
    if (!get_u32(r, &count)) return bad(r, "truncated point count");
    if (path(r, a, count, true) != HL_OK) return r->err->code;
  }
  return HL_OK;
}

/* reverses ring P of G keeping its start vertex */
static void reverse_ring(hl_geo_t *g, uint32_t p) {
  for (uint32_t i = g->parts[p] + 1, j = g->parts[p + 1] - 1; i < j; i++, j--) {
    double t;
    for (int c = 0; c < 2; c++)
      t = g->xy[2 * i + c], g->xy[2 * i + c] = g->xy[2 * j + c], g->xy[2 * j + c] = t;
    if (g->z) t = g->z[i], g->z[i] = g->z[j], g->z[j] = t;
    if (g->m) t = g->m[i], g->m[i] = g->m[j], g->m[j] = t;
  }
}

static hl_status_t read_body(wr_t *r, acc_t *a, int base, hl_buf_t *starts) {
  uint32_t count, type;
  switch (base) {
  case HL_GEO_POINT:
    if (vertex(r, a) != HL_OK) return r->err->code;
    if (isnan(xy_at(a, a->n - 1)[0])) drop_last(a); /* NaN coordinates: the empty point */
    return HL_OK;
  case HL_GEO_LINESTRING:
    if (!get_u32(r, &count)) return bad(r, "truncated point count");
    return path(r, a, count, false);
  case HL_GEO_POLYGON: {
    uint32_t first = (uint32_t)(a->parts.len / sizeof(uint32_t));
    hl_buf_append(starts, &first, sizeof first);
    return polygon_body(r, a);
  }
  case HL_GEO_MULTIPOINT:
    if (!get_u32(r, &count)) return bad(r, "truncated count");
    for (uint32_t i = 0; i < count; i++) {
      if (rec_header(r, false, &type) != HL_OK) return r->err->code;
      if (r->n - r->off < 16) return bad(r, "truncated coordinates");
      if (vertex(r, a) != HL_OK) return r->err->code;
    }
    return HL_OK;
  case HL_GEO_MULTILINESTRING:
    if (!get_u32(r, &count)) return bad(r, "truncated count");
    for (uint32_t i = 0; i < count; i++) {
      uint32_t pts;
      if (rec_header(r, false, &type) != HL_OK) return r->err->code;
      if (!get_u32(r, &pts)) return bad(r, "truncated point count");
      if (path(r, a, pts, false) != HL_OK) return r->err->code;
    }
    return HL_OK;
  default:
    if (!get_u32(r, &count)) return bad(r, "truncated count");
    for (uint32_t i = 0; i < count; i++) {
      if (rec_header(r, false, &type) != HL_OK) return r->err->code;
      uint32_t first = (uint32_t)(a->parts.len / sizeof(uint32_t));
      hl_buf_append(starts, &first, sizeof first);
      if (polygon_body(r, a) != HL_OK) return r->err->code;
    }
    return HL_OK;
  }
}

hl_status_t hl_geo_wkb_read(const uint8_t *p, size_t n, hl_arena_t *arena, hl_geo_t *g,
                            uint8_t *ogc_type, hl_error_t *err) {
  wr_t r = {.p = p, .n = n, .err = err};
  uint32_t type;
  if (rec_header(&r, true, &type) != HL_OK) return err->code;
  uint32_t dim = type / 1000, base = type % 1000;
  if (dim > 3 || base < 1 || base > 6)
    return base == 7 ? hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                                  "GEOMETRYCOLLECTION geometries are not supported yet")
                     : bad(&r, "unknown geometry type");
  acc_t a = {.z = dim == 1 || dim == 3, .m = dim == 2 || dim == 3};
  hl_buf_t starts;
  hl_buf_init(&a.xy);
  hl_buf_init(&a.zs);
  hl_buf_init(&a.ms);
  hl_buf_init(&a.parts);
  hl_buf_init(&starts);
  hl_status_t rc = read_body(&r, &a, (int)base, &starts);
  if (rc == HL_OK && r.off != r.n) rc = bad(&r, "bytes after the geometry");
  if (rc == HL_OK && (a.xy.oom || a.zs.oom || a.ms.oom || a.parts.oom || starts.oom))
    rc = hl_err_nomem(err);
  if (rc == HL_OK) {
    static const hl_geo_kind_t kinds[] = {HL_GEO_K_POINT,   HL_GEO_K_POINT,      HL_GEO_K_POLYLINE,
                                          HL_GEO_K_POLYGON, HL_GEO_K_MULTIPOINT, HL_GEO_K_POLYLINE,
                                          HL_GEO_K_POLYGON};
    hl_geo_kind_t kind = kinds[base];
    uint32_t n_parts = (uint32_t)(a.parts.len / sizeof(uint32_t));
    if (kind == HL_GEO_K_POINT || kind == HL_GEO_K_MULTIPOINT) n_parts = 0;
    rc = hl_geo_init(g, arena, kind, a.z, a.m, a.n, n_parts, err);
    if (rc == HL_OK) {
      if (a.n) memcpy(g->xy, a.xy.data, 2 * (size_t)a.n * sizeof(double));
      if (g->z && a.n) memcpy(g->z, a.zs.data, (size_t)a.n * sizeof(double));
      if (g->m && a.n) memcpy(g->m, a.ms.data, (size_t)a.n * sizeof(double));
      if (n_parts) memcpy(g->parts, a.parts.data, n_parts * sizeof(uint32_t));
      g->parts[n_parts] = a.n;
      if (kind == HL_GEO_K_POLYGON) {
        /* each polygon's first non-empty ring clockwise, the others not */
        const uint32_t *st = (const uint32_t *)(void *)starts.data;
        size_t ns = starts.len / sizeof(uint32_t), k = 0;
        for (uint32_t ring = 0; ring < n_parts; ring++) {
          bool first = false;
          while (k < ns && st[k] <= ring) {
            first = first || st[k] == ring;
            k++;
          }
          bool cw = hl_geo_ring_area(g, ring) > 0;
          if (first != cw) reverse_ring(g, ring);
        }
      }
      *ogc_type = (uint8_t)base;
    }
  }
  hl_buf_fini(&a.xy);
  hl_buf_fini(&a.zs);
  hl_buf_fini(&a.ms);
  hl_buf_fini(&a.parts);
  hl_buf_fini(&starts);
  return rc;
}
