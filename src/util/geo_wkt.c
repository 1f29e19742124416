/*
 * geo_wkt.c -- OGC well-known text of the geometries of geo.h, read and
 * written as the ESRI Geometry API does (OperatorImportFromWkt,
 * OperatorExportToWkt), which is what Hive 4's st_geomfromtext,
 * st_astext and the WKT forms of the constructors use.
 *
 * Writing: "POINT (1 2)", "MULTIPOINT ((1 2), (3 4))", "POLYGON ((...))",
 * a dimension tag "Z ", "M " or "ZM " after the name, "EMPTY"; numbers as
 * Java's %.17g with trailing fraction zeros removed.  ESRI keeps exterior
 * rings clockwise and writes each ring from its start point backwards, so
 * a counter-clockwise ring read from text is written as it was read.
 *
 * Reading: keywords in any case, a dimension from the tag or, without
 * one, from the first coordinate's count (3: Z, 4: ZM); a ring's closing
 * point dropped when it repeats the start; a one-point path doubled; all
 * rings reversed (start kept) when the first is not clockwise.  Anything
 * else (text after the geometry, a missing number) is 22023.
 */
#include "util/geo.h"
#include "util/value.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- writing ---- */

void hl_geo_put_number(hl_buf_t *out, double v) {
  if (isnan(v)) {
    hl_buf_puts(out, "NAN");
    return;
  }
  if (isinf(v)) {
    hl_buf_puts(out, v < 0 ? "-Infinity" : "Infinity");
    return;
  }
  if (v == 0) {
    hl_buf_puts(out, signbit(v) ? "-0" : "0");
    return;
  }
  /* Java's %.17g starts from the shortest digits (FloatingDecimal), so it
   * never shows the binary noise C's %.17g does */
  char digits[24];
  int nd = 0, e = 0;
  if (hl_double_digits(v, false, digits, &nd, &e)) hl_buf_putc(out, '-');
  double mag = fabs(v);
  if (mag >= 1e-4 && mag < 1e17) {
    if (e < 0) {
      hl_buf_puts(out, "0.");
      for (int i = -1; i > e; i--)
        hl_buf_putc(out, '0');
      hl_buf_append(out, digits, (size_t)nd);
    } else {
      for (int i = 0; i <= e; i++)
        hl_buf_putc(out, i < nd ? digits[i] : '0');
      if (nd > e + 1) {
        hl_buf_putc(out, '.');
        hl_buf_append(out, digits + e + 1, (size_t)(nd - e - 1));
      }
    }
    return;
  }
  /* scientific: 16 fraction digits kept (ESRI strips zeros only without
   * an exponent), the exponent of at least two digits */
  hl_buf_putc(out, digits[0]);
  hl_buf_putc(out, '.');
  for (int i = 1; i <= 16; i++)
    hl_buf_putc(out, i < nd ? digits[i] : '0');
  hl_buf_printf(out, "e%c%02d", e < 0 ? '-' : '+', abs(e));
}

static void put_dims(hl_buf_t *out, const hl_geo_t *g) {
  if (g->has_z && g->has_m)
    hl_buf_puts(out, "ZM ");
  else if (g->has_z)
    hl_buf_puts(out, "Z ");
  else if (g->has_m)
    hl_buf_puts(out, "M ");
}

static void put_vertex(hl_buf_t *out, const hl_geo_t *g, uint32_t i) {
  hl_geo_put_number(out, g->xy[2 * i]);
  hl_buf_putc(out, ' ');
  hl_geo_put_number(out, g->xy[2 * i + 1]);
  if (g->z) {
    hl_buf_putc(out, ' ');
    hl_geo_put_number(out, g->z[i]);
  }
  if (g->m) {
    hl_buf_putc(out, ' ');
    hl_geo_put_number(out, g->m[i]);
  }
}

/* a path forwards, or a ring from its start backwards and closed */
static void put_path(hl_buf_t *out, const hl_geo_t *g, uint32_t part, bool ring) {
  uint32_t s = g->parts[part], e = g->parts[part + 1];
  hl_buf_putc(out, '(');
  if (ring) {
    put_vertex(out, g, s);
    for (uint32_t i = e - 1; i > s; i--) {
      hl_buf_puts(out, ", ");
      put_vertex(out, g, i);
    }
    hl_buf_puts(out, ", ");
    put_vertex(out, g, s);
  } else {
    for (uint32_t i = s; i < e; i++) {
      if (i > s) hl_buf_puts(out, ", ");
      put_vertex(out, g, i);
    }
  }
  hl_buf_putc(out, ')');
}

static void put_polygon(hl_buf_t *out, const hl_geo_t *g, uint32_t from, uint32_t to) {
  hl_buf_putc(out, '(');
  for (uint32_t r = from; r < to; r++) {
    if (r > from) hl_buf_puts(out, ", ");
    put_path(out, g, r, true);
  }
  hl_buf_putc(out, ')');
}

bool hl_geo_wkt_write(const hl_geo_t *g, hl_buf_t *out) {
  static const char *const names[] = {
      "", "POINT ", "LINESTRING ", "POLYGON ", "MULTIPOINT ", "MULTILINESTRING ", "MULTIPOLYGON "};
  int cls = hl_geo_ogc_class(g);
  hl_buf_puts(out, names[cls]);
  put_dims(out, g);
  if (g->n_points == 0) {
    hl_buf_puts(out, "EMPTY");
    return true;
  }
  switch (cls) {
  case HL_GEO_POINT:
    hl_buf_putc(out, '(');
    put_vertex(out, g, 0);
    hl_buf_putc(out, ')');
    return true;
  case HL_GEO_MULTIPOINT:
    hl_buf_putc(out, '(');
    for (uint32_t i = 0; i < g->n_points; i++) {
      hl_buf_puts(out, i ? ", (" : "(");
      put_vertex(out, g, i);
      hl_buf_putc(out, ')');
    }
    hl_buf_putc(out, ')');
    return true;
  case HL_GEO_LINESTRING:
    put_path(out, g, 0, false);
    return true;
  case HL_GEO_MULTILINESTRING:
    hl_buf_putc(out, '(');
    for (uint32_t p = 0; p < g->n_parts; p++) {
      if (p) hl_buf_puts(out, ", ");
      put_path(out, g, p, false);
    }
    hl_buf_putc(out, ')');
    return true;
  case HL_GEO_POLYGON:
    put_polygon(out, g, 0, g->n_parts);
    return true;
  default: {
    /* ESRI's multiPolygonText_: a polygon starts at each exterior ring,
     * the first at ring 0 whatever it is; no exterior ring is an error */
    uint32_t count = 0;
    for (uint32_t r = 0; r < g->n_parts; r++)
      count += hl_geo_ring_area(g, r) > 0;
    if (count == 0) return false;
    hl_buf_putc(out, '(');
    uint32_t start = 0, end = 1;
    for (uint32_t k = 0; k < count; k++) {
      if (k) {
        start = end;
        end++;
        if (start >= g->n_parts) return false;
        hl_buf_puts(out, ", ");
      }
      while (end < g->n_parts && !(hl_geo_ring_area(g, end) > 0))
        end++;
      put_polygon(out, g, start, end);
    }
    hl_buf_putc(out, ')');
    return true;
  }
  }
}

/* ---- reading ---- */

typedef struct rd {
  const char *s0, *p, *e;
  bool z, m, dims_known;
  hl_buf_t xy, zs, ms, parts; /* doubles and uint32 part starts, on the heap */
  uint32_t n;                 /* vertices so far */
  hl_error_t *err;
} rd_t;

static void ws(rd_t *r) {
  while (r->p < r->e && isspace((unsigned char)*r->p))
    r->p++;
}

static bool peek(rd_t *r, char c) {
  ws(r);
  return r->p < r->e && *r->p == c;
}

static bool eat(rd_t *r, char c) {
  if (!peek(r, c)) return false;
  r->p++;
  return true;
}

/* the next word (letters), any case, when it is W */
static bool word(rd_t *r, const char *w) {
  ws(r);
  size_t n = strlen(w), k = 0;
  while (r->p + k < r->e && isalpha((unsigned char)r->p[k]))
    k++;
  if (k != n || strncasecmp(r->p, w, n) != 0) return false;
  r->p += n;
  return true;
}

static bool number(rd_t *r, double *out) {
  ws(r);
  const char *s = r->p;
  size_t k = 0;
  while (s + k < r->e &&
         (isalnum((unsigned char)s[k]) || s[k] == '.' || s[k] == '-' || s[k] == '+'))
    k++;
  char tmp[128];
  if (k == 0 || k >= sizeof tmp) return false;
  memcpy(tmp, s, k);
  tmp[k] = 0;
  if (strcasecmp(tmp, "nan") == 0) {
    *out = NAN;
  } else {
    /* digits, a point and an exponent only: strtod's hex, inf and nan
     * spellings are not numbers in WKT */
    for (size_t i = 0; i < k; i++)
      if (!isdigit((unsigned char)tmp[i]) && !strchr(".eE+-", tmp[i])) return false;
    char *end = NULL;
    *out = strtod(tmp, &end);
    if (end != tmp + k) return false;
  }
  r->p += k;
  return true;
}

static bool starts_number(rd_t *r) {
  ws(r);
  if (r->p >= r->e) return false;
  char c = *r->p;
  return isdigit((unsigned char)c) || c == '-' || c == '+' || c == '.' ||
         ((c == 'n' || c == 'N') && r->e - r->p >= 3 && strncasecmp(r->p, "nan", 3) == 0);
}

static void push(hl_buf_t *b, double v) {
  hl_buf_append(b, &v, sizeof v);
}

static hl_status_t invalid(rd_t *r) {
  return hl_err_set(r->err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "invalid well-known text at offset %zu", (size_t)(r->p - r->s0));
}

/* one coordinate; the first fixes the dimension when the tag did not */
static hl_status_t coord(rd_t *r, double v[4]) {
  int want = 2 + r->z + r->m, got = 0;
  v[2] = v[3] = NAN;
  while (got < 4 && starts_number(r)) {
    if (!number(r, &v[got])) return invalid(r);
    got++;
    if (r->dims_known && got == want) break;
  }
  if (!r->dims_known) {
    if (got < 2) return invalid(r);
    r->z = got >= 3;
    r->m = got == 4;
    r->dims_known = true;
  } else if (got != want) {
    return invalid(r);
  }
  if (r->n >= HL_GEO_MAX_POINTS)
    return hl_err_set(r->err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "a geometry of more than %u vertices", HL_GEO_MAX_POINTS);
  return HL_OK;
}

static void add(rd_t *r, const double v[4]) {
  push(&r->xy, v[0]);
  push(&r->xy, v[1]);
  push(&r->zs, r->z ? v[2] : NAN);
  push(&r->ms, r->m ? v[2 + r->z] : NAN);
  r->n++;
}

static void start_part(rd_t *r) {
  hl_buf_append(&r->parts, &r->n, sizeof r->n);
}

static bool same(const rd_t *r, const double a[4], const double b[4]) {
  for (int i = 0; i < 2 + r->z + r->m; i++)
    if (!(a[i] == b[i] || (isnan(a[i]) && isnan(b[i])))) return false;
  return true;
}

/* '(' x y, ... ')' as a path (RING: the closing repeat dropped) or EMPTY */
static hl_status_t path(rd_t *r, bool ring) {
  if (word(r, "EMPTY")) return HL_OK;
  if (!eat(r, '(')) return invalid(r);
  double first[4], v[4];
  uint32_t count = 0;
  start_part(r);
  for (;;) {
    if (coord(r, v) != HL_OK) return r->err->code;
    bool last = peek(r, ')');
    if (!(ring && last && count >= 2 && same(r, first, v))) {
      if (count == 0) memcpy(first, v, sizeof v);
      add(r, v);
      count++;
    }
    if (last) break;
    if (!eat(r, ',')) return invalid(r);
  }
  r->p++; /* ')' */
  if (count == 1) add(r, first);
  return HL_OK;
}

static hl_status_t polygon_body(rd_t *r) {
  if (word(r, "EMPTY")) return HL_OK;
  if (!eat(r, '(')) return invalid(r);
  do {
    if (path(r, true) != HL_OK) return r->err->code;
  } while (eat(r, ','));
  return eat(r, ')') ? HL_OK : invalid(r);
}

static hl_status_t point_item(rd_t *r) {
  if (word(r, "EMPTY")) return HL_OK;
  bool paren = eat(r, '(');
  double v[4];
  if (coord(r, v) != HL_OK) return r->err->code;
  add(r, v);
  return !paren || eat(r, ')') ? HL_OK : invalid(r);
}

/* the tag's dimension word, if any */
static void dims(rd_t *r) {
  if (word(r, "ZM"))
    r->z = r->m = r->dims_known = true;
  else if (word(r, "Z"))
    r->z = r->dims_known = true;
  else if (word(r, "M"))
    r->m = r->dims_known = true;
}

static hl_status_t body(rd_t *r, int type) {
  switch (type) {
  case HL_GEO_POINT:
    if (word(r, "EMPTY")) return HL_OK;
    if (!eat(r, '(')) return invalid(r);
    {
      double v[4];
      if (coord(r, v) != HL_OK) return r->err->code;
      add(r, v);
    }
    return eat(r, ')') ? HL_OK : invalid(r);
  case HL_GEO_MULTIPOINT:
    if (word(r, "EMPTY")) return HL_OK;
    if (!eat(r, '(')) return invalid(r);
    do {
      if (point_item(r) != HL_OK) return r->err->code;
    } while (eat(r, ','));
    return eat(r, ')') ? HL_OK : invalid(r);
  case HL_GEO_LINESTRING:
    return path(r, false);
  case HL_GEO_MULTILINESTRING:
    if (word(r, "EMPTY")) return HL_OK;
    if (!eat(r, '(')) return invalid(r);
    do {
      if (path(r, false) != HL_OK) return r->err->code;
    } while (eat(r, ','));
    return eat(r, ')') ? HL_OK : invalid(r);
  case HL_GEO_POLYGON:
    return polygon_body(r);
  default:
    if (word(r, "EMPTY")) return HL_OK;
    if (!eat(r, '(')) return invalid(r);
    do {
      if (polygon_body(r) != HL_OK) return r->err->code;
    } while (eat(r, ','));
    return eat(r, ')') ? HL_OK : invalid(r);
  }
}

/* the parsed vertices as a geometry of the tag's kind, in ARENA */
static hl_status_t build(rd_t *r, int type, hl_arena_t *arena, hl_geo_t *g) {
  static const hl_geo_kind_t kinds[] = {HL_GEO_K_POINT,   HL_GEO_K_POINT,      HL_GEO_K_POLYLINE,
                                        HL_GEO_K_POLYGON, HL_GEO_K_MULTIPOINT, HL_GEO_K_POLYLINE,
                                        HL_GEO_K_POLYGON};
  hl_geo_kind_t kind = kinds[type];
  uint32_t n_parts = (kind == HL_GEO_K_POLYLINE || kind == HL_GEO_K_POLYGON) && r->n
                         ? (uint32_t)(r->parts.len / sizeof(uint32_t))
                         : 0;
  if (hl_geo_init(g, arena, kind, r->z, r->m, r->n, n_parts, r->err) != HL_OK) return r->err->code;
  if (r->n) memcpy(g->xy, r->xy.data, 2 * (size_t)r->n * sizeof(double));
  if (g->z && r->n) memcpy(g->z, r->zs.data, (size_t)r->n * sizeof(double));
  if (g->m && r->n) memcpy(g->m, r->ms.data, (size_t)r->n * sizeof(double));
  if (n_parts) memcpy(g->parts, r->parts.data, n_parts * sizeof(uint32_t));
  g->parts[n_parts] = r->n;
  if (kind == HL_GEO_K_POLYGON && n_parts && !(hl_geo_ring_area(g, 0) > 0)) {
    /* ESRI: all rings reversed, each keeping its start vertex */
    for (uint32_t p = 0; p < n_parts; p++) {
      for (uint32_t i = g->parts[p] + 1, j = g->parts[p + 1] - 1; i < j; i++, j--) {
        double t;
        for (int c = 0; c < 2; c++)
          t = g->xy[2 * i + c], g->xy[2 * i + c] = g->xy[2 * j + c], g->xy[2 * j + c] = t;
        if (g->z) t = g->z[i], g->z[i] = g->z[j], g->z[j] = t;
        if (g->m) t = g->m[i], g->m[i] = g->m[j], g->m[j] = t;
      }
    }
  }
  return HL_OK;
}

hl_status_t hl_geo_wkt_read(const char *s, size_t n, hl_arena_t *arena, hl_geo_t *g,
                            uint8_t *ogc_type, hl_error_t *err) {
  static const char *const tags[] = {"POINT",      "LINESTRING",      "POLYGON",
                                     "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON"};
  rd_t r = {.s0 = s, .p = s, .e = s + n, .err = err};
  hl_buf_init(&r.xy);
  hl_buf_init(&r.zs);
  hl_buf_init(&r.ms);
  hl_buf_init(&r.parts);
  int type = 0;
  for (int i = 0; i < 6 && !type; i++)
    if (word(&r, tags[i])) type = i + 1;
  hl_status_t rc;
  if (!type) {
    rc = word(&r, "GEOMETRYCOLLECTION")
             ? hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                          "GEOMETRYCOLLECTION geometries are not supported yet")
             : invalid(&r);
  } else {
    dims(&r);
    rc = body(&r, type);
    if (rc == HL_OK) {
      ws(&r);
      if (r.p != r.e) rc = invalid(&r);
    }
    if (rc == HL_OK && (r.xy.oom || r.zs.oom || r.ms.oom || r.parts.oom)) rc = hl_err_nomem(err);
    if (rc == HL_OK) rc = build(&r, type, arena, g);
  }
  hl_buf_fini(&r.xy);
  hl_buf_fini(&r.zs);
  hl_buf_fini(&r.ms);
  hl_buf_fini(&r.parts);
  if (rc == HL_OK) *ogc_type = (uint8_t)type;
  return rc;
}
