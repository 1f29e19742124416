/*
 * geo.h -- Hive's ST_Geometry value (the ESRI spatial functions, st_*):
 * the geometry model, the ESRI shape codec, and the WKT reader and writer
 * of the ESRI Geometry API as Hive 4 uses them, and its WKB (geo_wkb.c).
 *
 * An ST_Geometry is a BINARY: 4 bytes of SRID (big-endian), 1 byte of OGC
 * type (Hive's GeometryUtils.OGCType: 0 unknown, 1 point, 2 linestring,
 * 3 polygon, 4 multipoint, 5 multilinestring, 6 multipolygon), then an
 * ESRI shape buffer (little-endian; type 0 is the null shape).  The shape
 * codec is written here by hand: no Debian library reads ESRI shapes
 * (shapelib reads .shp files, whose records lack ESRI's Z/M type codes and
 * NaN conventions, and GDAL's reader is not exposed for single buffers).
 *
 * The model is ESRI's: a point, a multipoint, a polyline (paths) or a
 * polygon (rings kept without their closing point, exterior rings
 * clockwise, holes counter-clockwise, as in the shape), with optional Z
 * and M per vertex.  The OGC class a geometry reads back as is ESRI's
 * (OGCGeometry.createFromEsriGeometry): a polygon with one exterior ring
 * is a POLYGON, else a MULTIPOLYGON; a polyline of one path a LINESTRING;
 * a multipoint of at most one point a POINT.
 *
 * Every decoder here reads untrusted bytes with checked lengths and
 * rejects with 22023 (fuzzed: tests/fuzz/fuzz_geo.c).
 */
#ifndef HL_GEO_H
#define HL_GEO_H

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hive's OGCType byte */
enum {
  HL_GEO_UNKNOWN = 0,
  HL_GEO_POINT = 1,
  HL_GEO_LINESTRING = 2,
  HL_GEO_POLYGON = 3,
  HL_GEO_MULTIPOINT = 4,
  HL_GEO_MULTILINESTRING = 5,
  HL_GEO_MULTIPOLYGON = 6
};

/* ESRI geometry kinds */
typedef enum {
  HL_GEO_K_POINT,
  HL_GEO_K_MULTIPOINT,
  HL_GEO_K_POLYLINE,
  HL_GEO_K_POLYGON
} hl_geo_kind_t;

/* The most vertices a geometry may have (a bound on what a decoder or a
 * constructor allocates: 16 M vertices, 512 MB of XYZM). */
#define HL_GEO_MAX_POINTS (1u << 24)

typedef struct hl_geo {
  hl_geo_kind_t kind;
  bool has_z, has_m;
  uint32_t n_points; /* a point: 0 (empty) or 1 */
  uint32_t n_parts;  /* paths or rings (0 for points and multipoints) */
  uint32_t *parts;   /* n_parts + 1 vertex offsets */
  double *xy;        /* 2 * n_points */
  double *z, *m;     /* n_points each, NULL without the attribute */
} hl_geo_t;

/* A decoded ST_Geometry value: its SRID, OGC type byte and shape. */
typedef struct hl_geo_value {
  int32_t srid;
  uint8_t ogc_type;
  bool is_null; /* a shape of fewer than 4 bytes or the null shape: Hive's NULL */
  hl_geo_t geo;
} hl_geo_value_t;

/* Allocates room for N_POINTS vertices and N_PARTS parts of KIND in ARENA
 * (coordinates zero, parts[0] = 0).  HL_OK or HL_NOMEM. */
hl_status_t hl_geo_init(hl_geo_t *g, hl_arena_t *arena, hl_geo_kind_t kind, bool has_z, bool has_m,
                        uint32_t n_points, uint32_t n_parts, hl_error_t *err);

/* ESRI's signed area of ring PART (positive: clockwise, an exterior ring). */
double hl_geo_ring_area(const hl_geo_t *g, uint32_t part);
/* The OGC class G reads back as (see the header comment). */
int hl_geo_ogc_class(const hl_geo_t *g);
/* True for an empty geometry. */
static inline bool hl_geo_is_empty(const hl_geo_t *g) {
  return g->n_points == 0;
}

/* The ESRI shape of G appended to OUT (GeometryEngine.geometryToEsriShape:
 * polygon rings and closed paths written with their start point again,
 * NaN Z/M as ArcView's -DBL_MAX). */
void hl_geo_shape_encode(const hl_geo_t *g, hl_buf_t *out);
/* Reads the ESRI shape P[0..n) into *G (arrays in ARENA).  *IS_NULL for
 * the null shape.  22023 for anything malformed. */
hl_status_t hl_geo_shape_decode(const uint8_t *p, size_t n, hl_arena_t *arena, hl_geo_t *g,
                                bool *is_null, hl_error_t *err);

/* The ST_Geometry bytes of G with SRID and OGC type appended to OUT. */
void hl_geo_value_encode(const hl_geo_t *g, int32_t srid, uint8_t ogc_type, hl_buf_t *out);
/* Reads an ST_Geometry value P[0..n) (Hive's GeometryUtils): shorter than
 * 5 bytes or an OGC type byte above 6: 22023 (Hive fails the query); a
 * shape under 4 bytes or the null shape: v->is_null. */
hl_status_t hl_geo_value_decode(const uint8_t *p, size_t n, hl_arena_t *arena, hl_geo_value_t *v,
                                hl_error_t *err);

/* OGC well-known text of G as its OGC class (ESRI's OperatorExportToWkt:
 * Java's %.17g without trailing zeros, "EMPTY", polygon rings written
 * counter-clockwise from their start point).  False when ESRI refuses
 * (a polygon with vertices but no exterior ring): Hive's NULL. */
bool hl_geo_wkt_write(const hl_geo_t *g, hl_buf_t *out);
/* Appends Java's String.format("%.17g", v) with trailing fraction zeros
 * removed (ESRI's StringUtils.appendDouble), NaN as "NAN". */
void hl_geo_put_number(hl_buf_t *out, double v);
/* Parses well-known text S[0..n) (any case; Z, M, ZM and EMPTY) into *G
 * and its OGC type as ESRI's OperatorImportFromWkt does: rings closed,
 * all rings reversed when the first is counter-clockwise in ESRI's sense.
 * 22023 for invalid text; 0A000 for GEOMETRYCOLLECTION. */
hl_status_t hl_geo_wkt_read(const char *s, size_t n, hl_arena_t *arena, hl_geo_t *g,
                            uint8_t *ogc_type, hl_error_t *err);

/* OGC well-known binary of G as its OGC class (ESRI's OperatorExportToWkb,
 * little-endian, ISO Z/M codes) appended to OUT; false when ESRI refuses
 * (a polygon with vertices but no exterior ring). */
bool hl_geo_wkb_write(const hl_geo_t *g, hl_buf_t *out);

/* Little-endian writers shared by the shape (geo.c) and WKB (geo_wkb.c)
 * encoders: an unsigned 32-bit integer, a double's IEEE bits. */
void hl_geo_put_u32le(hl_buf_t *b, uint32_t u);
void hl_geo_put_f64le(hl_buf_t *b, double d);
/* Reads well-known binary P[0..n) (either byte order, ISO Z/M codes) into
 * *G and its OGC type as ESRI's OperatorImportFromWkb does (see
 * geo_wkb.c).  22023 for malformed bytes; 0A000 for a GEOMETRYCOLLECTION. */
hl_status_t hl_geo_wkb_read(const uint8_t *p, size_t n, hl_arena_t *arena, hl_geo_t *g,
                            uint8_t *ogc_type, hl_error_t *err);

#endif
