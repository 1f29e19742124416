/*
 * geo.c -- the geometry model and the ESRI shape codec of geo.h, written
 * from the layout ESRI's OperatorExportToESRIShape writes (little-endian):
 *
 *   point:      type, x, y [, z] [, m]
 *   multipoint: type, xmin ymin xmax ymax, count, xy[count]
 *               [, zmin zmax z[count]] [, mmin mmax m[count]]
 *   polyline / polygon: type, bbox, parts, points, start[parts], xy[points]
 *               [, zmin zmax z[points]] [, mmin mmax m[points]]
 *
 * with ESRI's type codes (point 1, Z 9, M 21, ZM 11; multipoint 8/20/28/18;
 * polyline 3/10/23/13; polygon 5/19/25/15).  A NaN coordinate is written
 * as ArcView's NaN (-DBL_MAX) and anything below -1e38 reads back as NaN.
 * Polygon rings are written with their start point repeated; ESRI writes
 * that repeated Z or M without the ArcView translation, and so do we.
 */
#include "util/geo.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* shape type codes */
enum {
  SH_NULL = 0,
  SH_POINT = 1,
  SH_POINT_Z = 9,
  SH_POINT_M = 21,
  SH_POINT_ZM = 11,
  SH_MPOINT = 8,
  SH_MPOINT_Z = 20,
  SH_MPOINT_M = 28,
  SH_MPOINT_ZM = 18,
  SH_LINE = 3,
  SH_LINE_Z = 10,
  SH_LINE_M = 23,
  SH_LINE_ZM = 13,
  SH_POLY = 5,
  SH_POLY_Z = 19,
  SH_POLY_M = 25,
  SH_POLY_ZM = 15
};

hl_status_t hl_geo_init(hl_geo_t *g, hl_arena_t *arena, hl_geo_kind_t kind, bool has_z, bool has_m,
                        uint32_t n_points, uint32_t n_parts, hl_error_t *err) {
  memset(g, 0, sizeof *g);
  g->kind = kind;
  g->has_z = has_z;
  g->has_m = has_m;
  g->n_points = n_points;
  g->n_parts = n_parts;
  if (n_points > HL_GEO_MAX_POINTS || n_parts > HL_GEO_MAX_POINTS)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "a geometry of more than %u vertices", HL_GEO_MAX_POINTS);
  size_t np = n_points ? n_points : 1;
  g->xy = hl_arena_zalloc(arena, 2 * np * sizeof(double));
  g->parts = hl_arena_zalloc(arena, ((size_t)n_parts + 1) * sizeof(uint32_t));
  if (has_z) g->z = hl_arena_zalloc(arena, np * sizeof(double));
  if (has_m) g->m = hl_arena_zalloc(arena, np * sizeof(double));
  if (!g->xy || !g->parts || (has_z && !g->z) || (has_m && !g->m)) return hl_err_nomem(err);
  return HL_OK;
}

double hl_geo_ring_area(const hl_geo_t *g, uint32_t part) {
  uint32_t s = g->parts[part], e = g->parts[part + 1];
  if (e - s < 3) return 0;
  /* shoelace around the first vertex (counter-clockwise positive), negated
   * for ESRI's clockwise-positive convention */
  double x0 = g->xy[2 * s], y0 = g->xy[2 * s + 1], sum = 0;
  for (uint32_t i = s + 1; i + 1 < e; i++) {
    double ax = g->xy[2 * i] - x0, ay = g->xy[2 * i + 1] - y0;
    double bx = g->xy[2 * i + 2] - x0, by = g->xy[2 * i + 3] - y0;
    sum += ax * by - bx * ay;
  }
  return -sum / 2;
}

int hl_geo_ogc_class(const hl_geo_t *g) {
  switch (g->kind) {
  case HL_GEO_K_POINT:
    return HL_GEO_POINT;
  case HL_GEO_K_MULTIPOINT:
    return g->n_points <= 1 ? HL_GEO_POINT : HL_GEO_MULTIPOINT;
  case HL_GEO_K_POLYLINE:
    return g->n_parts == 1 ? HL_GEO_LINESTRING : HL_GEO_MULTILINESTRING;
  case HL_GEO_K_POLYGON: {
    uint32_t ext = 0;
    for (uint32_t r = 0; r < g->n_parts; r++)
      ext += hl_geo_ring_area(g, r) > 0;
    return ext == 1 ? HL_GEO_POLYGON : HL_GEO_MULTIPOLYGON;
  }
  }
  return HL_GEO_UNKNOWN;
}

/* ---- little-endian writing ---- */

void hl_geo_put_u32le(hl_buf_t *b, uint32_t u) {
  unsigned char c[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                        (unsigned char)(u >> 24)};
  hl_buf_append(b, c, 4);
}

void hl_geo_put_f64le(hl_buf_t *b, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  unsigned char c[8];
  for (int i = 0; i < 8; i++)
    c[i] = (unsigned char)(u >> (8 * i));
  hl_buf_append(b, c, 8);
}

static double to_av(double d) {
  return isnan(d) ? -DBL_MAX : d;
}
/* ArcView's NaN and any NaN payload read as the one NaN, so that
 * re-encoding is stable */
static double from_av(double d) {
  return d < -1.0e38 || isnan(d) ? NAN : d;
}

/* min and max of V[0..n) skipping NaN (ESRI's Envelope1D merge); NaN when none */
static void range_of(const double *v, uint32_t n, double *lo, double *hi) {
  *lo = *hi = NAN;
  for (uint32_t i = 0; i < n; i++) {
    if (isnan(v[i])) continue;
    if (isnan(*lo) || v[i] < *lo) *lo = v[i];
    if (isnan(*hi) || v[i] > *hi) *hi = v[i];
  }
}

static void put_bbox(hl_buf_t *b, const hl_geo_t *g) {
  double xmin = NAN, ymin = NAN, xmax = NAN, ymax = NAN;
  for (uint32_t i = 0; i < g->n_points; i++) {
    double x = g->xy[2 * i], y = g->xy[2 * i + 1];
    if (i == 0 || x < xmin) xmin = x;
    if (i == 0 || x > xmax) xmax = x;
    if (i == 0 || y < ymin) ymin = y;
    if (i == 0 || y > ymax) ymax = y;
  }
  hl_geo_put_f64le(b, xmin);
  hl_geo_put_f64le(b, ymin);
  hl_geo_put_f64le(b, xmax);
  hl_geo_put_f64le(b, ymax);
}

static int32_t shape_type(const hl_geo_t *g) {
  static const int32_t codes[4][4] = {
      /* none, Z, M, ZM */
      {SH_POINT, SH_POINT_Z, SH_POINT_M, SH_POINT_ZM},
      {SH_MPOINT, SH_MPOINT_Z, SH_MPOINT_M, SH_MPOINT_ZM},
      {SH_LINE, SH_LINE_Z, SH_LINE_M, SH_LINE_ZM},
      {SH_POLY, SH_POLY_Z, SH_POLY_M, SH_POLY_ZM},
  };
  return codes[g->kind][(g->has_z ? 1 : 0) + (g->has_m ? 2 : 0)];
}

/* the Z or M values of a multipath, each polygon ring's start repeated raw */
static void put_attr(hl_buf_t *b, const hl_geo_t *g, const double *v) {
  double lo, hi;
  range_of(v, g->n_points, &lo, &hi);
  hl_geo_put_f64le(b, to_av(lo));
  hl_geo_put_f64le(b, to_av(hi));
  for (uint32_t p = 0; p < g->n_parts; p++) {
    for (uint32_t i = g->parts[p]; i < g->parts[p + 1]; i++)
      hl_geo_put_f64le(b, to_av(v[i]));
    if (g->kind == HL_GEO_K_POLYGON) hl_geo_put_f64le(b, v[g->parts[p]]);
  }
}

void hl_geo_shape_encode(const hl_geo_t *g, hl_buf_t *b) {
  hl_geo_put_u32le(b, shape_type(g));
  if (g->kind == HL_GEO_K_POINT) {
    bool empty = g->n_points == 0;
    hl_geo_put_f64le(b, to_av(empty ? NAN : g->xy[0]));
    hl_geo_put_f64le(b, to_av(empty ? NAN : g->xy[1]));
    if (g->has_z) hl_geo_put_f64le(b, to_av(empty ? NAN : g->z[0]));
    if (g->has_m) hl_geo_put_f64le(b, to_av(empty ? NAN : g->m[0]));
    return;
  }
  put_bbox(b, g);
  if (g->kind == HL_GEO_K_MULTIPOINT) {
    hl_geo_put_u32le(b, (int32_t)g->n_points);
    for (uint32_t i = 0; i < 2 * g->n_points; i++)
      hl_geo_put_f64le(b, g->xy[i]);
    for (int a = 0; a < 2; a++) {
      const double *v = a == 0 ? g->z : g->m;
      if (!v) continue;
      double lo, hi;
      range_of(v, g->n_points, &lo, &hi);
      hl_geo_put_f64le(b, to_av(lo));
      hl_geo_put_f64le(b, to_av(hi));
      for (uint32_t i = 0; i < g->n_points; i++)
        hl_geo_put_f64le(b, to_av(v[i]));
    }
    return;
  }
  bool poly = g->kind == HL_GEO_K_POLYGON;
  hl_geo_put_u32le(b, (int32_t)g->n_parts);
  hl_geo_put_u32le(b, (int32_t)(g->n_points + (poly ? g->n_parts : 0)));
  for (uint32_t p = 0; p < g->n_parts; p++)
    hl_geo_put_u32le(b, (int32_t)(g->parts[p] + (poly ? p : 0)));
  for (uint32_t p = 0; p < g->n_parts; p++) {
    for (uint32_t i = g->parts[p]; i < g->parts[p + 1]; i++) {
      hl_geo_put_f64le(b, g->xy[2 * i]);
      hl_geo_put_f64le(b, g->xy[2 * i + 1]);
    }
    if (poly) {
      hl_geo_put_f64le(b, g->xy[2 * g->parts[p]]);
      hl_geo_put_f64le(b, g->xy[2 * g->parts[p] + 1]);
    }
  }
  if (g->z) put_attr(b, g, g->z);
  if (g->m) put_attr(b, g, g->m);
}

/* ---- decoding ---- */

static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double get_f64(const uint8_t *p) {
  uint64_t u = 0;
  for (int i = 7; i >= 0; i--)
    u = u << 8 | p[i];
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static hl_status_t bad(hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), "invalid ESRI shape: %s", what);
}

/* a ring's last vertex repeats its first: the same bits, so that a NaN
 * start reads back the same however often it is written */
static bool closes(const uint8_t *xy, uint32_t s, uint32_t e) {
  return memcmp(xy + 16 * (size_t)s, xy + 16 * (size_t)(e - 1), 16) == 0;
}

hl_status_t hl_geo_shape_decode(const uint8_t *p, size_t n, hl_arena_t *arena, hl_geo_t *g,
                                bool *is_null, hl_error_t *err) {
  *is_null = false;
  memset(g, 0, sizeof *g);
  if (n < 4) return bad(err, "shorter than its type");
  uint32_t type = get_u32(p);
  hl_geo_kind_t kind;
  bool z = false, m = false;
  switch (type) {
  case SH_NULL:
    *is_null = true;
    return HL_OK;
  case SH_POINT:
  case SH_POINT_Z:
  case SH_POINT_M:
  case SH_POINT_ZM:
    kind = HL_GEO_K_POINT;
    z = type == SH_POINT_Z || type == SH_POINT_ZM;
    m = type == SH_POINT_M || type == SH_POINT_ZM;
    break;
  case SH_MPOINT:
  case SH_MPOINT_Z:
  case SH_MPOINT_M:
  case SH_MPOINT_ZM:
    kind = HL_GEO_K_MULTIPOINT;
    z = type == SH_MPOINT_Z || type == SH_MPOINT_ZM;
    m = type == SH_MPOINT_M || type == SH_MPOINT_ZM;
    break;
  case SH_LINE:
  case SH_LINE_Z:
  case SH_LINE_M:
  case SH_LINE_ZM:
    kind = HL_GEO_K_POLYLINE;
    z = type == SH_LINE_Z || type == SH_LINE_ZM;
    m = type == SH_LINE_M || type == SH_LINE_ZM;
    break;
  case SH_POLY:
  case SH_POLY_Z:
  case SH_POLY_M:
  case SH_POLY_ZM:
    kind = HL_GEO_K_POLYGON;
    z = type == SH_POLY_Z || type == SH_POLY_ZM;
    m = type == SH_POLY_M || type == SH_POLY_ZM;
    break;
  default:
    return bad(err, "unsupported shape type");
  }
  size_t nattr = (size_t)z + (size_t)m;
  if (kind == HL_GEO_K_POINT) {
    if (n < 20 + 8 * nattr) return bad(err, "truncated point");
    double x = from_av(get_f64(p + 4)), y = from_av(get_f64(p + 12));
    bool empty = isnan(x);
    if (hl_geo_init(g, arena, kind, z, m, empty ? 0 : 1, 0, err) != HL_OK) return err->code;
    if (!empty) {
      g->xy[0] = x;
      g->xy[1] = y;
      size_t off = 20;
      if (z) g->z[0] = from_av(get_f64(p + off)), off += 8;
      if (m) g->m[0] = from_av(get_f64(p + off));
    }
    return HL_OK;
  }
  if (kind == HL_GEO_K_MULTIPOINT) {
    if (n < 40) return bad(err, "truncated multipoint");
    uint32_t count = get_u32(p + 36);
    if (count > HL_GEO_MAX_POINTS) return bad(err, "too many points");
    size_t need = 40 + 16 * (size_t)count + nattr * (16 + 8 * (size_t)count);
    if (n < need) return bad(err, "truncated multipoint");
    if (hl_geo_init(g, arena, kind, z, m, count, 0, err) != HL_OK) return err->code;
    size_t off = 40;
    for (uint32_t i = 0; i < 2 * count; i++, off += 8)
      g->xy[i] = get_f64(p + off);
    for (int a = 0; a < 2; a++) {
      double *v = a == 0 ? g->z : g->m;
      if (!v) continue;
      off += 16;
      for (uint32_t i = 0; i < count; i++, off += 8)
        v[i] = from_av(get_f64(p + off));
    }
    return HL_OK;
  }
  if (n < 44) return bad(err, "truncated multipath");
  uint32_t parts = get_u32(p + 36), points = get_u32(p + 40);
  if (parts > HL_GEO_MAX_POINTS || points > HL_GEO_MAX_POINTS) return bad(err, "too many points");
  if ((parts == 0) != (points == 0) || parts > points) return bad(err, "inconsistent part counts");
  size_t need = 44 + 4 * (size_t)parts + 16 * (size_t)points + nattr * (16 + 8 * (size_t)points);
  if (n < need) return bad(err, "truncated multipath");
  const uint8_t *starts = p + 44;
  for (uint32_t i = 0; i < parts; i++) {
    uint32_t s = get_u32(starts + 4 * i);
    uint32_t e = i + 1 < parts ? get_u32(starts + 4 * i + 4) : points;
    if ((i == 0 && s != 0) || s >= e || e > points) return bad(err, "invalid part starts");
  }
  const uint8_t *xy = starts + 4 * (size_t)parts;
  const uint8_t *zs = z ? xy + 16 * (size_t)points + 16 : NULL;
  const uint8_t *ms = m ? xy + 16 * (size_t)points + (z ? 16 + 8 * (size_t)points : 0) + 16 : NULL;
  /* a polygon ring's repeated start point is dropped (ESRI keeps rings open) */
  bool poly = kind == HL_GEO_K_POLYGON;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < parts; i++) {
    uint32_t s = get_u32(starts + 4 * i), e = i + 1 < parts ? get_u32(starts + 4 * i + 4) : points;
    uint32_t len = e - s;
    if (poly && len > 1 && closes(xy, s, e)) len--;
    kept += len;
  }
  if (hl_geo_init(g, arena, kind, z, m, kept, parts, err) != HL_OK) return err->code;
  uint32_t o = 0;
  for (uint32_t i = 0; i < parts; i++) {
    uint32_t s = get_u32(starts + 4 * i), e = i + 1 < parts ? get_u32(starts + 4 * i + 4) : points;
    uint32_t len = e - s;
    if (poly && len > 1 && closes(xy, s, e)) len--;
    g->parts[i] = o;
    for (uint32_t k = 0; k < len; k++, o++) {
      g->xy[2 * o] = get_f64(xy + 16 * (s + k));
      g->xy[2 * o + 1] = get_f64(xy + 16 * (s + k) + 8);
      if (zs) g->z[o] = from_av(get_f64(zs + 8 * (s + k)));
      if (ms) g->m[o] = from_av(get_f64(ms + 8 * (s + k)));
    }
  }
  g->parts[parts] = o;
  return HL_OK;
}

void hl_geo_value_encode(const hl_geo_t *g, int32_t srid, uint8_t ogc_type, hl_buf_t *out) {
  uint32_t u = (uint32_t)srid;
  unsigned char h[5] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16), (unsigned char)(u >> 8),
                        (unsigned char)u, ogc_type};
  hl_buf_append(out, h, 5);
  hl_geo_shape_encode(g, out);
}

hl_status_t hl_geo_value_decode(const uint8_t *p, size_t n, hl_arena_t *arena, hl_geo_value_t *v,
                                hl_error_t *err) {
  memset(v, 0, sizeof *v);
  if (n == 0) {
    v->is_null = true;
    return HL_OK;
  }
  if (n < 5)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid ST_Geometry: %zu bytes, not an SRID and a type", n);
  v->srid = (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
  v->ogc_type = p[4];
  if (v->ogc_type > HL_GEO_MULTIPOLYGON)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid ST_Geometry: OGC type %u", v->ogc_type);
  if (n - 5 < 4) {
    v->is_null = true;
    return HL_OK;
  }
  return hl_geo_shape_decode(p + 5, n - 5, arena, &v->geo, &v->is_null, err);
}
