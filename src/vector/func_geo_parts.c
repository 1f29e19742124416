/*
 * func_geo_parts.c -- the spatial functions that take a geometry apart or
 * measure it without a geometry engine: st_area and st_length (ESRI's
 * calculateArea2D / calculateLength2D: signed ring areas summed, a
 * polygon's length its perimeter), st_dimension, st_coorddim,
 * st_numgeometries, st_geometryn, st_pointn, st_startpoint, st_endpoint,
 * st_isclosed, st_exteriorring, st_interiorringn, st_numinteriorring,
 * st_envelope and st_envintersects.
 *
 * Which types each takes follows Hive's UDF (the OGC type byte or the
 * ESRI kind, as the UDF switches on one or the other); another type gives
 * NULL.  Parts keep the input's SRID.  A ring comes out as a closed
 * LINESTRING in OGC order (ESRI's OGCLinearRing: the ring as st_astext
 * writes it).
 */
#include "util/geo.h"
#include "vector/func_int.h"

#include <math.h>
#include <string.h>

static hl_status_t null_out(hl_value_t *out) {
  out->is_null = true;
  return HL_OK;
}

/* G's vertex I as a point (with G's attributes) */
static hl_status_t vertex(const hl_geo_t *g, uint32_t i, hl_arena_t *arena, hl_geo_t *pt,
                          hl_error_t *err) {
  if (hl_geo_init(pt, arena, HL_GEO_K_POINT, g->has_z, g->has_m, 1, 0, err) != HL_OK)
    return err->code;
  pt->xy[0] = g->xy[2 * i];
  pt->xy[1] = g->xy[2 * i + 1];
  if (g->z) pt->z[0] = g->z[i];
  if (g->m) pt->m[0] = g->m[i];
  return HL_OK;
}

/* copies vertex I of G to vertex J of D */
static void copy_vertex(hl_geo_t *d, uint32_t j, const hl_geo_t *g, uint32_t i) {
  d->xy[2 * j] = g->xy[2 * i];
  d->xy[2 * j + 1] = g->xy[2 * i + 1];
  if (d->z) d->z[j] = g->z[i];
  if (d->m) d->m[j] = g->m[i];
}

/* parts [FROM, TO) of G as a geometry of G's kind */
static hl_status_t sub_parts(const hl_geo_t *g, uint32_t from, uint32_t to, hl_arena_t *arena,
                             hl_geo_t *d, hl_error_t *err) {
  uint32_t s = g->parts[from], e = g->parts[to];
  if (hl_geo_init(d, arena, g->kind, g->has_z, g->has_m, e - s, to - from, err) != HL_OK)
    return err->code;
  for (uint32_t i = s; i < e; i++)
    copy_vertex(d, i - s, g, i);
  for (uint32_t p = from; p <= to; p++)
    d->parts[p - from] = g->parts[p] - s;
  return HL_OK;
}

/* ring R of polygon G as a closed linestring in OGC order */
static hl_status_t ring_line(const hl_geo_t *g, uint32_t r, hl_arena_t *arena, hl_geo_t *d,
                             hl_error_t *err) {
  uint32_t s = g->parts[r], e = g->parts[r + 1], n = e - s;
  if (hl_geo_init(d, arena, HL_GEO_K_POLYLINE, g->has_z, g->has_m, n + 1, 1, err) != HL_OK)
    return err->code;
  copy_vertex(d, 0, g, s);
  for (uint32_t k = 1; k < n; k++)
    copy_vertex(d, k, g, e - k);
  copy_vertex(d, n, g, s);
  d->parts[1] = n + 1;
  return HL_OK;
}

static uint32_t exterior_count(const hl_geo_t *g) {
  uint32_t n = 0;
  for (uint32_t r = 0; r < g->n_parts; r++)
    n += hl_geo_ring_area(g, r) > 0;
  return n;
}

/* the rings [*FROM, *TO) of OGC polygon K of multipolygon G (ESRI's
 * grouping: a polygon starts at each exterior ring, the first at ring 0);
 * false past the end */
static bool polygon_rings(const hl_geo_t *g, uint32_t k, uint32_t *from, uint32_t *to) {
  uint32_t count = exterior_count(g), start = 0, end = 1;
  if (k >= count || g->n_parts == 0) return false;
  for (uint32_t i = 0; i <= k; i++) {
    if (i) {
      start = end;
      end++;
      if (start >= g->n_parts) return false;
    }
    while (end < g->n_parts && !(hl_geo_ring_area(g, end) > 0))
      end++;
  }
  *from = start;
  *to = end;
  return true;
}

HL_FN(hl_fn_st_area) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return null_out(out);
  double area = 0;
  if (v.geo.kind == HL_GEO_K_POLYGON)
    for (uint32_t r = 0; r < v.geo.n_parts; r++)
      area += hl_geo_ring_area(&v.geo, r);
  out->u.d = area;
  return HL_OK;
}

HL_FN(hl_fn_st_length) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return null_out(out);
  const hl_geo_t *g = &v.geo;
  double len = 0;
  if (g->kind == HL_GEO_K_POLYLINE || g->kind == HL_GEO_K_POLYGON)
    for (uint32_t p = 0; p < g->n_parts; p++) {
      uint32_t s = g->parts[p], e = g->parts[p + 1];
      for (uint32_t i = s; i + 1 < e; i++)
        len += hypot(g->xy[2 * i + 2] - g->xy[2 * i], g->xy[2 * i + 3] - g->xy[2 * i + 1]);
      if (g->kind == HL_GEO_K_POLYGON && e - s > 1)
        len += hypot(g->xy[2 * s] - g->xy[2 * (e - 1)], g->xy[2 * s + 1] - g->xy[2 * (e - 1) + 1]);
    }
  out->u.d = len;
  return HL_OK;
}

HL_FN(hl_fn_st_dimension) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return null_out(out);
  out->u.i = v.geo.kind == HL_GEO_K_POLYGON ? 2 : v.geo.kind == HL_GEO_K_POLYLINE ? 1 : 0;
  return HL_OK;
}

HL_FN(hl_fn_st_coorddim) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return null_out(out);
  out->u.i = 2 + v.geo.has_z + v.geo.has_m;
  return HL_OK;
}

/* Hive's ST_NumGeometries: NULL for the single types; for a multi type
 * the count of the OGC object it reads back as, 1 when that is a single
 * one (its ClassCastException) */
HL_FN(hl_fn_st_numgeometries) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null || v.ogc_type < HL_GEO_MULTIPOINT) return null_out(out);
  const hl_geo_t *g = &v.geo;
  int cls = hl_geo_ogc_class(g);
  if (cls < HL_GEO_MULTIPOINT || cls != v.ogc_type) {
    out->u.i = 1;
    return HL_OK;
  }
  out->u.i = cls == HL_GEO_MULTIPOINT        ? g->n_points
             : cls == HL_GEO_MULTILINESTRING ? g->n_parts
                                             : exterior_count(g);
  return HL_OK;
}

/* Hive's ST_GeometryN: the n-th (1-based) point, line or polygon of a
 * multi type; NULL for a single type, an index out of range, or a multi
 * type byte over a geometry that reads back as a single one */
HL_FN(hl_fn_st_geometryn) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null || a[1].is_null || v.ogc_type < HL_GEO_MULTIPOINT) return null_out(out);
  const hl_geo_t *g = &v.geo;
  if (hl_geo_ogc_class(g) != v.ogc_type) return null_out(out);
  int64_t idx = a[1].u.i - 1;
  hl_geo_t d;
  if (v.ogc_type == HL_GEO_MULTIPOINT) {
    if (idx < 0 || idx >= g->n_points) return null_out(out);
    if (vertex(g, (uint32_t)idx, arena, &d, err) != HL_OK) return err->code;
    return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_POINT, err);
  }
  if (v.ogc_type == HL_GEO_MULTILINESTRING) {
    if (idx < 0 || idx >= g->n_parts) return null_out(out);
    if (sub_parts(g, (uint32_t)idx, (uint32_t)idx + 1, arena, &d, err) != HL_OK) return err->code;
    return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_LINESTRING, err);
  }
  uint32_t from, to;
  if (idx < 0 || !polygon_rings(g, (uint32_t)idx, &from, &to)) return null_out(out);
  if (sub_parts(g, from, to, arena, &d, err) != HL_OK) return err->code;
  return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_POLYGON, err);
}

/* Hive's ST_PointN: vertex n (1-based, 0 taken as 1) of a polyline or a
 * multipoint, by the ESRI kind; NULL out of range or for other kinds */
HL_FN(hl_fn_st_pointn) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null || a[1].is_null) return null_out(out);
  const hl_geo_t *g = &v.geo;
  if (g->kind != HL_GEO_K_POLYLINE && g->kind != HL_GEO_K_MULTIPOINT) return null_out(out);
  int64_t idx = a[1].u.i == 0 ? 0 : a[1].u.i - 1;
  if (idx < 0 || idx >= g->n_points) return null_out(out);
  hl_geo_t d;
  if (vertex(g, (uint32_t)idx, arena, &d, err) != HL_OK) return err->code;
  return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_POINT, err);
}

/* st_startpoint, st_endpoint: of an ST_LINESTRING only */
static hl_status_t end_point(const hl_value_t *a, bool last, hl_value_t *out, hl_arena_t *arena,
                             hl_error_t *err) {
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null || v.ogc_type != HL_GEO_LINESTRING) return null_out(out);
  const hl_geo_t *g = &v.geo;
  if (g->kind != HL_GEO_K_POLYLINE)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "an ST_LINESTRING whose shape is no polyline");
  if (g->n_points == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "the end point of an empty line (ESRI's IndexOutOfBounds)");
  hl_geo_t d;
  if (vertex(g, last ? g->n_points - 1 : 0, arena, &d, err) != HL_OK) return err->code;
  return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_POINT, err);
}

HL_FN(hl_fn_st_startpoint) {
  (void)call;
  return end_point(a, false, out, arena, err);
}
HL_FN(hl_fn_st_endpoint) {
  (void)call;
  return end_point(a, true, out, arena, err);
}

static bool same_vertex(const hl_geo_t *g, uint32_t i, uint32_t j) {
  return g->xy[2 * i] == g->xy[2 * j] && g->xy[2 * i + 1] == g->xy[2 * j + 1] &&
         (!g->z || g->z[i] == g->z[j]) && (!g->m || g->m[i] == g->m[j]);
}

/* Hive's ST_IsClosed: every path of an ST_LINESTRING or
 * ST_MULTILINESTRING ends where it starts */
HL_FN(hl_fn_st_isclosed) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null || (v.ogc_type != HL_GEO_LINESTRING && v.ogc_type != HL_GEO_MULTILINESTRING))
    return null_out(out);
  const hl_geo_t *g = &v.geo;
  if (g->kind != HL_GEO_K_POLYLINE) return null_out(out);
  bool closed = true;
  for (uint32_t p = 0; closed && p < g->n_parts; p++)
    closed = same_vertex(g, g->parts[p], g->parts[p + 1] - 1);
  out->u.b = closed;
  return HL_OK;
}

/* the polygon of an ST_POLYGON value that reads back as one, else NULL */
static hl_status_t polygon_arg(const hl_value_t *a, hl_arena_t *arena, hl_geo_value_t *v, bool *ok,
                               hl_error_t *err) {
  *ok = false;
  if (hl_fn_geo_arg(a, 0, arena, v, err) != HL_OK) return err->code;
  *ok = !v->is_null && v->ogc_type == HL_GEO_POLYGON && v->geo.kind == HL_GEO_K_POLYGON &&
        hl_geo_ogc_class(&v->geo) == HL_GEO_POLYGON;
  return HL_OK;
}

HL_FN(hl_fn_st_exteriorring) {
  (void)call;
  hl_geo_value_t v;
  bool ok;
  if (polygon_arg(a, arena, &v, &ok, err) != HL_OK) return err->code;
  if (!ok) return null_out(out);
  hl_geo_t d;
  if (ring_line(&v.geo, 0, arena, &d, err) != HL_OK) return err->code;
  return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_LINESTRING, err);
}

HL_FN(hl_fn_st_interiorringn) {
  (void)call;
  hl_geo_value_t v;
  bool ok;
  if (polygon_arg(a, arena, &v, &ok, err) != HL_OK) return err->code;
  if (!ok || a[1].is_null || a[1].u.i < 1 || a[1].u.i >= v.geo.n_parts) return null_out(out);
  hl_geo_t d;
  if (ring_line(&v.geo, (uint32_t)a[1].u.i, arena, &d, err) != HL_OK) return err->code;
  return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_LINESTRING, err);
}

HL_FN(hl_fn_st_numinteriorring) {
  (void)call;
  hl_geo_value_t v;
  bool ok;
  if (polygon_arg(a, arena, &v, &ok, err) != HL_OK) return err->code;
  if (!ok) return null_out(out);
  out->u.i = v.geo.n_parts - 1;
  return HL_OK;
}

/* the 2D envelope of G; false when G is empty */
static bool envelope(const hl_geo_t *g, double e[4]) {
  if (g->n_points == 0) return false;
  e[0] = e[2] = g->xy[0];
  e[1] = e[3] = g->xy[1];
  for (uint32_t i = 1; i < g->n_points; i++) {
    double x = g->xy[2 * i], y = g->xy[2 * i + 1];
    if (x < e[0]) e[0] = x;
    if (x > e[2]) e[2] = x;
    if (y < e[1]) e[1] = y;
    if (y > e[3]) e[3] = y;
  }
  return true;
}

/* Hive's ST_Envelope: the envelope as an ST_POLYGON (ESRI's addEnvelope:
 * the ring clockwise from the lower left corner), the input's SRID */
HL_FN(hl_fn_st_envelope) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return null_out(out);
  double e[4];
  bool some = envelope(&v.geo, e);
  hl_geo_t d;
  if (hl_geo_init(&d, arena, HL_GEO_K_POLYGON, false, false, some ? 4 : 0, some ? 1 : 0, err) !=
      HL_OK)
    return err->code;
  if (some) {
    const double ring[8] = {e[0], e[1], e[0], e[3], e[2], e[3], e[2], e[1]};
    memcpy(d.xy, ring, sizeof ring);
    d.parts[1] = 4;
  }
  return hl_fn_geo_out(out, arena, &d, v.srid, HL_GEO_POLYGON, err);
}

/* Hive's ST_EnvIntersects: whether the envelopes meet (touching counts);
 * NULL for different SRIDs; an empty geometry meets nothing */
HL_FN(hl_fn_st_envintersects) {
  (void)call;
  hl_geo_value_t v1, v2;
  if (hl_fn_geo_arg(a, 0, arena, &v1, err) != HL_OK) return err->code;
  if (hl_fn_geo_arg(a, 1, arena, &v2, err) != HL_OK) return err->code;
  if (v1.is_null || v2.is_null || v1.srid != v2.srid) return null_out(out);
  double e1[4], e2[4];
  if (!envelope(&v1.geo, e1) || !envelope(&v2.geo, e2)) {
    out->u.b = false;
    return HL_OK;
  }
  out->u.b = e1[0] <= e2[2] && e2[0] <= e1[2] && e1[1] <= e2[3] && e2[1] <= e1[3];
  return HL_OK;
}
