/*
 * orc_column.h -- one decoder per bound ORC column (orc_column.c).
 *
 * A bound column pairs a file column (type id) with the table type it is
 * read as.  Per stripe it gets its streams and encoding (hl_orc_col_start);
 * then hl_orc_col_read decodes N slots -- one per non-NULL row of its
 * parent -- into hl_value_t cells.  Struct children are only the fields the
 * table asks for (ORC columns have independent streams, so unread fields
 * cost nothing); list and map children are read for every element.
 */
#ifndef HL_ORC_COLUMN_H
#define HL_ORC_COLUMN_H

#include "format/orc/orc_int.h"
#include "util/tz.h"
#include "util/value.h"

typedef struct hl_orc_col hl_orc_col_t;
struct hl_orc_col {
  uint32_t id;            /* file column (type) id */
  Orcpb__Type__Kind kind; /* file kind */
  int file_scale;         /* DECIMAL64: the file type's scale */
  bool decimal64;         /* DECIMAL as RLE v2 unscaled ints (files of ORC 2.0 pre-release) */
  const hl_type_t *type;  /* table type the values are produced in */
  uint32_t trunc_chars;   /* VARCHAR/CHAR: keep at most this many characters */
  bool pad_chars;         /* CHAR: pad to trunc_chars with spaces, as Hive reads CHAR */
  int n_kids;
  hl_orc_col_t **kids; /* STRUCT: one per table field (NULL: not in the file);
                          LIST: element; MAP: key, value */
  /* ---- per stripe */
  hl_orc_stream_t present_s, data_s, length_s, secondary_s, dict_s;
  bool has_present;
  hl_orc_bool_rle_t present;
  hl_orc_int_rle_t ints;   /* DATA as integers (ints, dates, seconds, dict ids) */
  hl_orc_int_rle_t lens;   /* LENGTH */
  hl_orc_int_rle_t second; /* SECONDARY: nanos, decimal scales */
  hl_orc_byte_rle_t bytes; /* DATA of BYTE */
  hl_orc_bool_rle_t bools; /* DATA of BOOLEAN */
  bool dict;               /* DICTIONARY(_V2) strings */
  hl_str_t *dict_vals;     /* in the stripe arena */
  uint64_t dict_n;
  const hl_tz_t *tz; /* TIMESTAMP: the stripe's writer zone (NULL: UTC) */
  int64_t tz_base;   /* 2015-01-01 00:00:00 in that zone, UTC seconds */
};

/* Sets up C (and its children) for a stripe: streams were placed in the
 * *_s members by the reader (src NULL when absent).  ENC is the stripe
 * footer's encoding list.  Loads dictionaries into ARENA.  TZ is the
 * writer's zone (NULL: UTC). */
hl_status_t hl_orc_col_start(hl_orc_col_t *c, Orcpb__StripeFooter *sf, const hl_tz_t *tz,
                             hl_arena_t *arena, hl_error_t *err);
/* Decodes N slots of C into OUT[0..n) (strings and trees in ARENA). */
hl_status_t hl_orc_col_read(hl_orc_col_t *c, size_t n, hl_arena_t *arena, hl_value_t *out,
                            hl_error_t *err);

#endif
