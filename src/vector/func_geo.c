/*
 * func_geo.c -- Hive 4's ESRI spatial functions (org.apache.hadoop.hive.ql
 * .udf.esri.ST_*) over the ST_Geometry value of util/geo.h: the
 * constructors (st_point, st_pointz, st_linestring, st_polygon,
 * st_multipoint, st_geomfromtext, st_geomfromshape), the outputs
 * (st_astext, st_asshape, st_geometrytype, st_srid, st_setsrid), WKB
 * (st_asbinary, st_geomfromwkb and the typed st_*fromwkb) and the
 * accessors (st_x ... st_m, st_minx ... st_maxm, st_numpoints, st_isempty,
 * st_is3d, st_ismeasured).
 *
 * As Hive: a NULL or empty-binary geometry gives NULL; text that does not
 * parse, or of another type than the constructor builds, gives NULL (the
 * UDFs catch and log); a wrong type for an accessor (st_x of a line)
 * gives NULL.  Bytes that are no ST_Geometry fail the query (Hive throws
 * while reading them): 22023.
 */
#include "util/geo.h"
#include "util/value.h"
#include "vector/func_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

hl_status_t hl_fn_geo_arg(const hl_value_t *a, int k, hl_arena_t *arena, hl_geo_value_t *v,
                          hl_error_t *err) {
  if (a[k].is_null) {
    memset(v, 0, sizeof *v);
    v->is_null = true;
    return HL_OK;
  }
  return hl_geo_value_decode((const uint8_t *)a[k].u.s.ptr, a[k].u.s.len, arena, v, err);
}

hl_status_t hl_fn_geo_out(hl_value_t *out, hl_arena_t *arena, const hl_geo_t *g, int32_t srid,
                          uint8_t type, hl_error_t *err) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_geo_value_encode(g, srid, type, &b);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

static void set_null(hl_value_t *out) {
  out->is_null = true;
}

/* argument K as a double (Hive's DoubleWritable conversion); false for NULL */
static bool num_arg(const hl_expr_t *call, const hl_value_t *a, int k, double *d) {
  const hl_type_t *t = call->args[k]->type;
  if (a[k].is_null) return false;
  if (hl_type_is_integer(t)) {
    *d = (double)a[k].u.i;
  } else if (t->id == HL_T_FLOAT || t->id == HL_T_DOUBLE) {
    *d = a[k].u.d;
  } else if (t->id == HL_T_DECIMAL) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_format_decimal(&b, a[k].u.dec, t->scale);
    *d = strtod(hl_buf_cstr(&b), NULL);
    hl_buf_fini(&b);
  } else {
    return false;
  }
  return true;
}

static hl_status_t check_args(const hl_expr_t *call, int from, bool text_ok, const char *fn,
                              hl_error_t *err) {
  for (int k = from; k < call->n_args; k++) {
    const hl_type_t *t = call->args[k]->type;
    if (hl_type_is_numeric(t) || t->id == HL_T_NULL || (text_ok && hl_type_is_string(t))) continue;
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH), "%s: argument %d must be a number%s",
                      fn, k + 1, text_ok ? " or well-known text" : "");
  }
  return HL_OK;
}

/* the WKT constructors: the text as a geometry when it is of OGC type
 * WANT (0: any), SRID 0; else NULL */
static hl_status_t from_text(const hl_value_t *v, uint8_t want, int32_t srid, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  hl_geo_t g;
  uint8_t type = 0;
  hl_error_t perr;
  hl_err_init(&perr);
  hl_status_t rc = hl_geo_wkt_read(v->u.s.ptr, v->u.s.len, arena, &g, &type, &perr);
  if (rc == HL_NOMEM || rc == HL_UNSUPPORTED) {
    hl_err_set(err, rc, perr.sqlstate, "%s", perr.message);
    hl_err_clear(&perr);
    return rc;
  }
  hl_err_clear(&perr);
  if (rc != HL_OK || (want && type != want)) {
    set_null(out);
    return HL_OK;
  }
  return hl_fn_geo_out(out, arena, &g, srid, type, err);
}

static bool is_text_call(const hl_expr_t *call) {
  return call->n_args == 1 && hl_type_is_string(call->args[0]->type);
}

HL_FN(hl_fn_st_geomfromtext) {
  if (a[0].is_null) return set_null(out), HL_OK;
  int32_t srid = 0;
  if (call->n_args > 1) {
    if (a[1].is_null) return set_null(out), HL_OK;
    srid = (int32_t)a[1].u.i;
  }
  return from_text(&a[0], 0, srid, out, arena, err);
}

HL_FN(hl_fn_st_point) {
  if (is_text_call(call)) {
    if (a[0].is_null) return set_null(out), HL_OK;
    return from_text(&a[0], HL_GEO_POINT, 0, out, arena, err);
  }
  if (call->n_args < 2)
    return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                      "st_point takes (x, y[, z[, m]]) or well-known text");
  if (check_args(call, 0, false, "st_point", err) != HL_OK) return err->code;
  double v[4];
  bool have[4] = {false, false, false, false};
  for (int k = 0; k < call->n_args; k++)
    have[k] = num_arg(call, a, k, &v[k]);
  /* Hive: NULL x or y is NULL; a NULL z or m is left out */
  if (!have[0] || !have[1]) return set_null(out), HL_OK;
  hl_geo_t g;
  if (hl_geo_init(&g, arena, HL_GEO_K_POINT, have[2], have[3], 1, 0, err) != HL_OK)
    return err->code;
  g.xy[0] = v[0];
  g.xy[1] = v[1];
  if (have[2]) g.z[0] = v[2];
  if (have[3]) g.m[0] = v[3];
  return hl_fn_geo_out(out, arena, &g, 0, HL_GEO_POINT, err);
}

HL_FN(hl_fn_st_pointz) {
  if (check_args(call, 0, false, "st_pointz", err) != HL_OK) return err->code;
  double v[4];
  bool have[4] = {false, false, false, false};
  for (int k = 0; k < call->n_args; k++)
    have[k] = num_arg(call, a, k, &v[k]);
  if (!have[0] || !have[1] || !have[2]) return set_null(out), HL_OK;
  hl_geo_t g;
  if (hl_geo_init(&g, arena, HL_GEO_K_POINT, true, have[3], 1, 0, err) != HL_OK) return err->code;
  g.xy[0] = v[0];
  g.xy[1] = v[1];
  g.z[0] = v[2];
  if (have[3]) g.m[0] = v[3];
  return hl_fn_geo_out(out, arena, &g, 0, HL_GEO_POINT, err);
}

/* the x, y pairs of the arguments into G of KIND (one part for paths);
 * false when one is NULL or their count is odd (Hive's NULL) */
static hl_status_t pairs(const hl_expr_t *call, const hl_value_t *a, hl_geo_kind_t kind,
                         hl_arena_t *arena, hl_geo_t *g, bool *ok, hl_error_t *err) {
  *ok = false;
  int n = call->n_args;
  if (n == 0 || n % 2) return HL_OK;
  uint32_t np = (uint32_t)n / 2;
  if (hl_geo_init(g, arena, kind, false, false, np, kind == HL_GEO_K_MULTIPOINT ? 0 : 1, err) !=
      HL_OK)
    return err->code;
  for (int k = 0; k < n; k++)
    if (!num_arg(call, a, k, &g->xy[k])) return HL_OK;
  g->n_points = np;
  g->parts[g->n_parts] = np;
  *ok = true;
  return HL_OK;
}

HL_FN(hl_fn_st_linestring) {
  if (is_text_call(call)) {
    if (a[0].is_null) return set_null(out), HL_OK;
    return from_text(&a[0], HL_GEO_LINESTRING, 0, out, arena, err);
  }
  if (check_args(call, 0, false, "st_linestring", err) != HL_OK) return err->code;
  hl_geo_t g;
  bool ok;
  if (pairs(call, a, HL_GEO_K_POLYLINE, arena, &g, &ok, err) != HL_OK) return err->code;
  if (!ok) return set_null(out), HL_OK;
  return hl_fn_geo_out(out, arena, &g, 0, (uint8_t)hl_geo_ogc_class(&g), err);
}

HL_FN(hl_fn_st_multipoint) {
  if (is_text_call(call)) {
    if (a[0].is_null) return set_null(out), HL_OK;
    return from_text(&a[0], HL_GEO_MULTIPOINT, 0, out, arena, err);
  }
  if (check_args(call, 0, false, "st_multipoint", err) != HL_OK) return err->code;
  hl_geo_t g;
  bool ok;
  if (pairs(call, a, HL_GEO_K_MULTIPOINT, arena, &g, &ok, err) != HL_OK) return err->code;
  if (!ok) return set_null(out), HL_OK;
  /* Hive serializes the multipoint as built: type MULTIPOINT */
  return hl_fn_geo_out(out, arena, &g, 0, HL_GEO_MULTIPOINT, err);
}

HL_FN(hl_fn_st_polygon) {
  if (is_text_call(call)) {
    if (a[0].is_null) return set_null(out), HL_OK;
    return from_text(&a[0], HL_GEO_POLYGON, 0, out, arena, err);
  }
  if (check_args(call, 0, false, "st_polygon", err) != HL_OK) return err->code;
  /* Hive writes the pairs as "polygon((x y, ...))", closed, and reads it
   * back as text: the same ring closing and orientation rules */
  if (call->n_args < 6 || call->n_args % 2) return set_null(out), HL_OK;
  hl_buf_t wkt;
  hl_buf_init(&wkt);
  hl_buf_puts(&wkt, "polygon((");
  for (int k = 0; k < call->n_args; k++) {
    double d;
    if (!num_arg(call, a, k, &d)) {
      hl_buf_fini(&wkt);
      return set_null(out), HL_OK;
    }
    if (k) hl_buf_puts(&wkt, k % 2 ? " " : ", ");
    hl_buf_printf(&wkt, "%.17g", d);
  }
  double x0, y0, xe, ye;
  num_arg(call, a, 0, &x0);
  num_arg(call, a, 1, &y0);
  num_arg(call, a, call->n_args - 2, &xe);
  num_arg(call, a, call->n_args - 1, &ye);
  if (xe != x0 || ye != y0) hl_buf_printf(&wkt, ", %.17g %.17g", x0, y0);
  hl_buf_puts(&wkt, "))");
  if (wkt.oom) {
    hl_buf_fini(&wkt);
    return hl_err_nomem(err);
  }
  hl_value_t t = {.u.s = {wkt.data, (uint32_t)wkt.len}};
  hl_status_t rc = from_text(&t, HL_GEO_POLYGON, 0, out, arena, err);
  hl_buf_fini(&wkt);
  return rc;
}

HL_FN(hl_fn_st_geomfromshape) {
  if (a[0].is_null || (call->n_args > 1 && a[1].is_null)) return set_null(out), HL_OK;
  int32_t srid = call->n_args > 1 ? (int32_t)a[1].u.i : 0;
  hl_geo_t g;
  bool is_null = false;
  if (hl_geo_shape_decode((const uint8_t *)a[0].u.s.ptr, a[0].u.s.len, arena, &g, &is_null, err) !=
      HL_OK)
    return err->code;
  if (is_null) return set_null(out), HL_OK;
  /* Hive's getInferredOGCType: a shape's polygon, polyline and multipoint
   * are typed as their multi type */
  static const uint8_t inferred[] = {HL_GEO_POINT, HL_GEO_MULTIPOINT, HL_GEO_MULTILINESTRING,
                                     HL_GEO_MULTIPOLYGON};
  return hl_fn_geo_out(out, arena, &g, srid, inferred[g.kind], err);
}

/* The geometry of argument 0 written by WRITE (WKT or WKB) as the
 * result; NULL for a NULL geometry or one WRITE refuses. */
static hl_status_t geo_write_out(const hl_value_t *a, hl_value_t *out, hl_arena_t *arena,
                                 bool (*write)(const hl_geo_t *, hl_buf_t *), hl_error_t *err) {
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return set_null(out), HL_OK;
  hl_buf_t b;
  hl_buf_init(&b);
  bool ok = write(&v.geo, &b);
  hl_status_t rc = HL_OK;
  if (b.oom) {
    rc = hl_err_nomem(err);
  } else if (!ok) {
    set_null(out);
  } else {
    char *p = hl_fn_alloc_str(out, arena, b.len);
    if (p)
      memcpy(p, b.data, b.len);
    else
      rc = hl_err_nomem(err);
  }
  hl_buf_fini(&b);
  return rc;
}

HL_FN(hl_fn_st_astext) {
  (void)call;
  return geo_write_out(a, out, arena, hl_geo_wkt_write, err);
}

HL_FN(hl_fn_st_asshape) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return set_null(out), HL_OK;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_geo_shape_encode(&v.geo, &b);
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

HL_FN(hl_fn_st_geometrytype) {
  (void)call;
  static const char *const names[] = {"UNKNOWN",        "ST_POINT",      "ST_LINESTRING",
                                      "ST_POLYGON",     "ST_MULTIPOINT", "ST_MULTILINESTRING",
                                      "ST_MULTIPOLYGON"};
  if (a[0].is_null || a[0].u.s.len == 0) return set_null(out), HL_OK;
  if (a[0].u.s.len < 5 || (uint8_t)a[0].u.s.ptr[4] > HL_GEO_MULTIPOLYGON)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid ST_Geometry: no OGC type byte");
  const char *s = names[(uint8_t)a[0].u.s.ptr[4]];
  char *p = hl_fn_alloc_str(out, arena, strlen(s));
  if (!p) return hl_err_nomem(err);
  memcpy(p, s, strlen(s));
  return HL_OK;
}

HL_FN(hl_fn_st_srid) {
  (void)call;
  (void)arena;
  if (a[0].is_null || a[0].u.s.len == 0) return set_null(out), HL_OK;
  if (a[0].u.s.len < 4)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid ST_Geometry: no SRID");
  const uint8_t *p = (const uint8_t *)a[0].u.s.ptr;
  out->u.i = (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
  return HL_OK;
}

HL_FN(hl_fn_st_setsrid) {
  (void)call;
  if (a[0].is_null || a[0].u.s.len == 0) return set_null(out), HL_OK;
  if (a[1].is_null) { /* Hive returns the geometry as it is */
    *out = a[0];
    return HL_OK;
  }
  if (a[0].u.s.len < 4)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid ST_Geometry: no SRID");
  char *p = hl_fn_alloc_str(out, arena, a[0].u.s.len);
  if (!p) return hl_err_nomem(err);
  memcpy(p, a[0].u.s.ptr, a[0].u.s.len);
  uint32_t u = (uint32_t)(int32_t)a[1].u.i;
  p[0] = (char)(u >> 24);
  p[1] = (char)(u >> 16);
  p[2] = (char)(u >> 8);
  p[3] = (char)u;
  return HL_OK;
}

/* st_x, st_y, st_z, st_m: a coordinate of an ST_POINT (by the OGC type
 * byte, as Hive), NULL for other types and a missing Z or M */
static hl_status_t point_coord(const hl_value_t *a, int which, hl_value_t *out, hl_arena_t *arena,
                               hl_error_t *err) {
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null || v.ogc_type != HL_GEO_POINT) return set_null(out), HL_OK;
  const hl_geo_t *g = &v.geo;
  if ((which == 2 && !g->z) || (which == 3 && !g->m)) return set_null(out), HL_OK;
  if (g->n_points == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "a coordinate of an empty point (ESRI's GeometryException)");
  out->u.d = which < 2 ? g->xy[which] : which == 2 ? g->z[0] : g->m[0];
  return HL_OK;
}

HL_FN(hl_fn_st_x) {
  (void)call;
  return point_coord(a, 0, out, arena, err);
}
HL_FN(hl_fn_st_y) {
  (void)call;
  return point_coord(a, 1, out, arena, err);
}
HL_FN(hl_fn_st_z) {
  (void)call;
  return point_coord(a, 2, out, arena, err);
}
HL_FN(hl_fn_st_m) {
  (void)call;
  return point_coord(a, 3, out, arena, err);
}

/* st_minx ... st_maxm: the envelope (NaN when empty); Z and M NULL when
 * the geometry has none */
static hl_status_t bound(const hl_value_t *a, int axis, bool max, hl_value_t *out,
                         hl_arena_t *arena, hl_error_t *err) {
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return set_null(out), HL_OK;
  const hl_geo_t *g = &v.geo;
  const double *vals = axis < 2 ? g->xy + axis : axis == 2 ? g->z : g->m;
  size_t stride = axis < 2 ? 2 : 1;
  if (!vals) return set_null(out), HL_OK;
  double r = NAN;
  for (uint32_t i = 0; i < g->n_points; i++) {
    double x = vals[i * stride];
    if (isnan(x)) continue;
    if (isnan(r) || (max ? x > r : x < r)) r = x;
  }
  out->u.d = r;
  return HL_OK;
}

#define BOUND_FN(name, axis, max)                                                                  \
  HL_FN(name) {                                                                                    \
    (void)call;                                                                                    \
    return bound(a, axis, max, out, arena, err);                                                   \
  }
BOUND_FN(hl_fn_st_minx, 0, false)
BOUND_FN(hl_fn_st_maxx, 0, true)
BOUND_FN(hl_fn_st_miny, 1, false)
BOUND_FN(hl_fn_st_maxy, 1, true)
BOUND_FN(hl_fn_st_minz, 2, false)
BOUND_FN(hl_fn_st_maxz, 2, true)
BOUND_FN(hl_fn_st_minm, 3, false)
BOUND_FN(hl_fn_st_maxm, 3, true)

HL_FN(hl_fn_st_numpoints) {
  (void)call;
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return set_null(out), HL_OK;
  /* a polygon's rings counted with their closing points, as Hive */
  out->u.i = (int64_t)v.geo.n_points + (v.geo.kind == HL_GEO_K_POLYGON ? v.geo.n_parts : 0);
  return HL_OK;
}

/* st_isempty, st_is3d, st_ismeasured */
static hl_status_t flag(const hl_value_t *a, int which, hl_value_t *out, hl_arena_t *arena,
                        hl_error_t *err) {
  hl_geo_value_t v;
  if (hl_fn_geo_arg(a, 0, arena, &v, err) != HL_OK) return err->code;
  if (v.is_null) return set_null(out), HL_OK;
  out->u.b = which == 0 ? hl_geo_is_empty(&v.geo) : which == 1 ? v.geo.has_z : v.geo.has_m;
  return HL_OK;
}

HL_FN(hl_fn_st_isempty) {
  (void)call;
  return flag(a, 0, out, arena, err);
}
HL_FN(hl_fn_st_is3d) {
  (void)call;
  return flag(a, 1, out, arena, err);
}
HL_FN(hl_fn_st_ismeasured) {
  (void)call;
  return flag(a, 2, out, arena, err);
}

/* st_asbinary: ESRI's WKB of the geometry's OGC class (NULL where ESRI
 * refuses) */
HL_FN(hl_fn_st_asbinary) {
  (void)call;
  return geo_write_out(a, out, arena, hl_geo_wkb_write, err);
}

/* st_geomfromwkb and the typed st_*fromwkb (WANT: the OGC type, 0 any):
 * bytes that do not parse or of another type give NULL, as Hive */
static hl_status_t from_wkb(const hl_expr_t *call, const hl_value_t *a, uint8_t want,
                            hl_value_t *out, hl_arena_t *arena, hl_error_t *err) {
  if (a[0].is_null || (call->n_args > 1 && a[1].is_null)) return set_null(out), HL_OK;
  int32_t srid = call->n_args > 1 ? (int32_t)a[1].u.i : 0;
  hl_geo_t g;
  uint8_t type = 0;
  hl_error_t perr;
  hl_err_init(&perr);
  hl_status_t rc =
      hl_geo_wkb_read((const uint8_t *)a[0].u.s.ptr, a[0].u.s.len, arena, &g, &type, &perr);
  if (rc == HL_NOMEM || rc == HL_UNSUPPORTED) {
    hl_err_set(err, rc, perr.sqlstate, "%s", perr.message);
    hl_err_clear(&perr);
    return rc;
  }
  hl_err_clear(&perr);
  if (rc != HL_OK || (want && type != want)) return set_null(out), HL_OK;
  return hl_fn_geo_out(out, arena, &g, srid, type, err);
}

HL_FN(hl_fn_st_geomfromwkb) {
  return from_wkb(call, a, 0, out, arena, err);
}
HL_FN(hl_fn_st_pointfromwkb) {
  return from_wkb(call, a, HL_GEO_POINT, out, arena, err);
}
HL_FN(hl_fn_st_linefromwkb) {
  return from_wkb(call, a, HL_GEO_LINESTRING, out, arena, err);
}
HL_FN(hl_fn_st_polyfromwkb) {
  return from_wkb(call, a, HL_GEO_POLYGON, out, arena, err);
}
HL_FN(hl_fn_st_mpointfromwkb) {
  return from_wkb(call, a, HL_GEO_MULTIPOINT, out, arena, err);
}
HL_FN(hl_fn_st_mlinefromwkb) {
  return from_wkb(call, a, HL_GEO_MULTILINESTRING, out, arena, err);
}
HL_FN(hl_fn_st_mpolyfromwkb) {
  return from_wkb(call, a, HL_GEO_MULTIPOLYGON, out, arena, err);
}
