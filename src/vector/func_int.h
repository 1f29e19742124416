/*
 * func_int.h -- private to the scalar function library (func*.c).
 *
 * Functions are described by a signature string that the binder
 * (plan/bind.c) reads: the result code, then one code per argument (the
 * last one repeats for variadic functions).  Codes:
 *   s STRING   i INT   l BIGINT   d DOUBLE   b BOOLEAN   D DATE
 *   T TIMESTAMP   A ARRAY<STRING>   * any type, left as is
 *   c the common type of every `c` argument (as a result: that type)
 *   n a number (strings become DOUBLE); as a result: the first argument's type
 *   t a point in time: DATE and TIMESTAMP kept, strings cast to TIMESTAMP
 *   B BINARY (strings cast to it)   M (result only) MAP<STRING,STRING>
 *   w an INT, or a BIGINT when the argument is one; as a result: the type
 *     of the first argument so converted
 *   S a string, or ARRAY<STRING> kept as is (concat_ws)
 *   I an integer kept as is (TINYINT..BIGINT), anything else cast to
 *     STRING; as a result: the first argument's type so converted (mask)
 *   f FLOAT, h SMALLINT: results only (xpath_float, xpath_short)
 *   F FLOAT (integers widened, no DOUBLE: Java's float parameters)
 *   E ARRAY<DOUBLE>, G ARRAY<FLOAT>: results only (the ds_kll_* arrays)
 *   Y (result only) ARRAY<ARRAY<STRING>> (sentences)
 *   R (result only) ARRAY<DOUBLE> (ds_hll_estimate_bounds)
 */
#ifndef HL_FUNC_INT_H
#define HL_FUNC_INT_H

#include "vector/expr.h"

#include <openssl/evp.h>
#include <stdatomic.h>

#define HL_FN(name)                                                                                \
  hl_status_t name(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out, hl_arena_t *arena, \
                   hl_error_t *err)

/* Returns a string value of LEN bytes allocated in ARENA (out->u.s). */
char *hl_fn_alloc_str(hl_value_t *out, hl_arena_t *arena, size_t len);
/* Compiles a Hive (Java) regular expression as POSIX extended, after
 * rewriting \d and \D which POSIX lacks.  NOSUB: no capture groups. */
hl_status_t hl_regex_compile(regex_t *re, const char *pat, size_t len, bool nosub,
                             hl_arena_t *arena, long pos, hl_error_t *err);
/* The same with regcomp flags CFLAGS added to REG_EXTENDED (REG_ICASE,
 * REG_NOSUB; RegexSerDe's input.regex.case.insensitive). */
hl_status_t hl_regex_compile_flags(regex_t *re, const char *pat, size_t len, int cflags,
                                   hl_arena_t *arena, long pos, hl_error_t *err);
/* Days/micros of a `t` argument value of TYPE. */
int64_t hl_fn_micros(const hl_type_t *type, const hl_value_t *v);

/* func_ds_theta.c */
HL_FN(hl_fn_ds_theta_estimate);
HL_FN(hl_fn_ds_theta_union_f);
HL_FN(hl_fn_ds_theta_intersect_f);
HL_FN(hl_fn_ds_theta_exclude);

/* func_str.c */
HL_FN(hl_fn_concat_ws);
HL_FN(hl_fn_split);
HL_FN(hl_fn_instr);
HL_FN(hl_fn_locate);
HL_FN(hl_fn_replace);
HL_FN(hl_fn_regexp_extract);
HL_FN(hl_fn_regexp_replace);
HL_FN(hl_fn_reverse);
HL_FN(hl_fn_initcap);
HL_FN(hl_fn_lpad);
HL_FN(hl_fn_rpad);
HL_FN(hl_fn_repeat);
HL_FN(hl_fn_space);
HL_FN(hl_fn_ascii);
HL_FN(hl_fn_md5);
HL_FN(hl_fn_typeof);
HL_FN(hl_fn_sha2);
HL_FN(hl_fn_hash);
HL_FN(hl_fn_murmur_hash);
/* murmur_hash of TYPE is Hive's (not DECIMAL, TIMESTAMP inside) */
bool hl_fn_murmur_supported(const hl_type_t *type);
HL_FN(hl_fn_nvl2);
HL_FN(hl_fn_greatest);
HL_FN(hl_fn_least);

hl_status_t hl_fn_digest_hex(const EVP_MD *md, const hl_value_t *in, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err);
HL_FN(hl_fn_sha1);

/* func_ds_quantiles.c */
HL_FN(hl_fn_dsq_n);
HL_FN(hl_fn_dsq_k);
HL_FN(hl_fn_dsq_stringify);
HL_FN(hl_fn_dsq_quantile);
HL_FN(hl_fn_dsq_quantiles);
HL_FN(hl_fn_dsq_cdf);
HL_FN(hl_fn_dsq_pmf);

/* func_text.c */
HL_FN(hl_fn_substring_index);
HL_FN(hl_fn_find_in_set);
HL_FN(hl_fn_elt);
HL_FN(hl_fn_field);
HL_FN(hl_fn_translate);
HL_FN(hl_fn_levenshtein);
HL_FN(hl_fn_soundex);
HL_FN(hl_fn_chr);
HL_FN(hl_fn_octet_length);
HL_FN(hl_fn_char_length);
HL_FN(hl_fn_quote);
HL_FN(hl_fn_str_to_map);
HL_FN(hl_fn_parse_url);
HL_FN(hl_fn_mask);
HL_FN(hl_fn_mask_first_n);
HL_FN(hl_fn_mask_last_n);
HL_FN(hl_fn_mask_show_first_n);
HL_FN(hl_fn_mask_show_last_n);
HL_FN(hl_fn_mask_hash);

/* func_json.c: the value at PATH of the JSON text, appended to OUT
 * (*FOUND false: NULL).  HL_OK or HL_NOMEM.  Exposed for the fuzz target. */
hl_status_t hl_json_extract(const char *json, size_t jn, const char *path, size_t pn,
                            hl_arena_t *arena, hl_buf_t *out, bool *found);
HL_FN(hl_fn_get_json_object);
/* The scanner of func_json.c, for json_read: blanks skipped; the end of the
 * JSON value at P (NULL when it is not one; nesting up to 512 levels); the
 * contents of the string at P unescaped, appended to B; the number at P as
 * Jackson prints it (integers as written, others as Java's
 * Double.toString). */
const char *hl_json_ws(const char *p, const char *e);
const char *hl_json_skip_value(const char *p, const char *e);
void hl_json_unescape(hl_buf_t *b, const char *p, const char *e);
void hl_json_number_text(hl_buf_t *b, const char *p, const char *e);
/* func_json_read.c: json_read(json, type), typed by plan/bind.c as the type */
HL_FN(hl_fn_json_read);
/* A Hive type string with the blanks it allows in struct field names
 * backquoted for util/type.c (in ARENA; NULL on OOM). */
char *hl_json_read_type_text(hl_arena_t *arena, const char *text, size_t len);

/* func_format.c: Java's Formatter over A[1..] of CALL (for printf and its
 * fuzz target). */
hl_status_t hl_printf_format(const hl_expr_t *call, const hl_value_t *a, const char *f, size_t fl,
                             hl_buf_t *b, hl_error_t *err);
HL_FN(hl_fn_printf);
/* func_printf_time.c: appends Java's %t<CONV> of MILLIS (since 1970, at
 * UTC) to OUT; false for a letter that is no date-time conversion. */
bool hl_printf_datetime(char conv, int64_t millis, hl_buf_t *out);
HL_FN(hl_fn_format_number);

/* func_misc.c */
HL_FN(hl_fn_crc32);
HL_FN(hl_fn_base64);
HL_FN(hl_fn_unbase64);
HL_FN(hl_fn_aes_encrypt);
HL_FN(hl_fn_aes_decrypt);
HL_FN(hl_fn_isnull);
HL_FN(hl_fn_isnotnull);
HL_FN(hl_fn_istrue);
HL_FN(hl_fn_isfalse);
HL_FN(hl_fn_isnottrue);
HL_FN(hl_fn_isnotfalse);
HL_FN(hl_fn_assert_true);
HL_FN(hl_fn_uuid);

/* func_internal.c: Hive's checks of its rewrites, split_map_privs, deserialize */
/* func_complex.c: index(a, n), the same as a[n] */
HL_FN(hl_fn_index);
HL_FN(hl_fn_sq_count_check);
HL_FN(hl_fn_cardinality_violation);
HL_FN(hl_fn_enforce_constraint);
HL_FN(hl_fn_split_map_privs);
HL_FN(hl_fn_deserialize);

/* func_calendar.c: datetime_legacy_hybrid_calendar (DATE or TIMESTAMP, typed
 * by plan/bind.c as its argument) */
HL_FN(hl_fn_legacy_calendar);

/* func.c: the user's groups, which plan/bind.c puts in call->state */
HL_FN(hl_fn_current_groups);

/* func_infile.c: the lines of a file, sorted, for in_file (plan/bind.c
 * reads the file and puts the set in call->state; none: a NULL name). */
typedef struct hl_line_set {
  hl_str_t *lines; /* pointing into the file's bytes */
  size_t n;
} hl_line_set_t;
/* The lines of TEXT[0..len) into *OUT (in ARENA; TEXT must outlive it).
 * HL_OK or HL_NOMEM. */
hl_status_t hl_line_set_build(hl_arena_t *arena, const char *text, size_t len, hl_line_set_t *out,
                              hl_error_t *err);
HL_FN(hl_fn_in_file);

/* func_charset.c: encode/decode over iconv.  hl_fn_charset_check: HL_OK
 * when NAME[0..len) is a character set they know, else 22023 at POS (the
 * binder checks a constant one, as Hive looks it up when the call is
 * compiled). */
/* Java's decoding of the UTF-8 bytes IN[0..n) as a string value in OUT: as
 * is when valid, else each malformed sequence replaced by U+FFFD (the copy
 * in ARENA).  HL_OK or HL_NOMEM. */
hl_status_t hl_fn_utf8_java(const char *in, size_t n, hl_arena_t *arena, hl_value_t *out,
                            hl_error_t *err);
HL_FN(hl_fn_encode);
HL_FN(hl_fn_decode);
hl_status_t hl_fn_charset_check(const char *name, size_t len, long pos, hl_error_t *err);

/* func_decfmt.c: a java.text.DecimalFormat pattern (the subset
 * format_number takes), parsed once per pattern. */
typedef struct hl_decfmt {
  const char *pos_prefix, *pos_suffix, *neg_prefix, *neg_suffix; /* not NUL-terminated */
  size_t pos_prefix_len, pos_suffix_len, neg_prefix_len, neg_suffix_len;
  int min_int;     /* integer digits shown at least (no maximum) */
  int min_frac;    /* fraction digits shown at least ... */
  int max_frac;    /* ... and at most (rounded HALF_EVEN there) */
  int grouping;    /* integer digits per ',' group; 0: no grouping */
  bool dec_always; /* '.' shown without fraction digits */
  int mult;        /* 1, or 100 ('%'), 1000 (per mille) */
} hl_decfmt_t;
/* Parses PAT[0..n) into *F (affixes in ARENA).  HL_OK; 22023 for a
 * malformed pattern, 0A000 for an exponent or a currency sign (at POS). */
hl_status_t hl_decfmt_parse(const char *pat, size_t n, hl_arena_t *arena, long pos, hl_decfmt_t *f,
                            hl_error_t *err);
/* Appends V (of numeric type T) formatted by F to OUT.  False for NaN, an
 * infinity or a type that is no number (the result is then NULL). */
bool hl_decfmt_format(const hl_decfmt_t *f, const hl_type_t *t, const hl_value_t *v, hl_buf_t *out);
/* F as Hive's format_number(x, D) pattern "#,###,###,###,###,###,##0.000"
 * with D zeros. */
void hl_fn_decfmt_places(hl_decfmt_t *f, int d);

/* func_sqldt.c: CAST(x AS type FORMAT 'template') (Hive's cast_format),
 * SQL:2016 datetime templates compiled once by the binder into
 * hl_expr_t.state of a call of hl_func_cast_format. */
#define HL_SQLDT_MAX_PATTERN 100  /* Hive's LONGEST_ACCEPTED_PATTERN (exclusive) */
#define HL_SQLDT_MAX_OUTPUT  1024 /* the longest text a template formats */
typedef struct hl_sqldt hl_sqldt_t;
/* Compiles PAT[0..n) for parsing strings (FOR_PARSE) or formatting
 * datetimes into *OUT (in ARENA); TODAY (days since 1970) gives short
 * years their leading digits.  HL_OK, or 22007 at POS for a bad template. */
hl_status_t hl_sqldt_compile(const char *pat, size_t n, bool for_parse, int64_t today,
                             hl_arena_t *arena, long pos, hl_sqldt_t **out, hl_error_t *err);
/* Formats MICROS (since 1970) into O (HL_SQLDT_MAX_OUTPUT bytes); the length. */
size_t hl_sqldt_format(const hl_sqldt_t *f, int64_t micros, char *o);
/* Parses S[0..n) into *MICROS; false when it does not match (NULL). */
bool hl_sqldt_parse(const hl_sqldt_t *f, const char *s, size_t n, int64_t *micros);
HL_FN(hl_fn_cast_format);

/* func_likeany.c (typed by plan/bind.c: strings and NULLs only) */
HL_FN(hl_fn_likeany);
HL_FN(hl_fn_likeall);

/* func_sentences.c (ICU break iterators) */
HL_FN(hl_fn_sentences);

/* func_date.c */
HL_FN(hl_fn_current_date);
HL_FN(hl_fn_current_timestamp);
HL_FN(hl_fn_to_date);
HL_FN(hl_fn_year);
HL_FN(hl_fn_quarter);
HL_FN(hl_fn_month);
HL_FN(hl_fn_day);
HL_FN(hl_fn_hour);
HL_FN(hl_fn_minute);
HL_FN(hl_fn_second);
HL_FN(hl_fn_dayofweek);
HL_FN(hl_fn_weekofyear);
HL_FN(hl_fn_date_add);
/* func_interval.c */
HL_FN(hl_fn_internal_interval);
HL_FN(hl_fn_tumbling_window);
/* The definition computing FN (year, month, day, hour, minute, second) of
 * an interval of type ARG (Hive's overloads for intervals), or NULL. */
const hl_func_def_t *hl_interval_field_fn(const hl_func_def_t *fn, const hl_type_t *arg);
HL_FN(hl_fn_date_sub);
HL_FN(hl_fn_add_months);
HL_FN(hl_fn_datediff);
HL_FN(hl_fn_date_format);
HL_FN(hl_fn_unix_timestamp);
HL_FN(hl_fn_from_unixtime);
HL_FN(hl_fn_trunc);
HL_FN(hl_fn_last_day);
HL_FN(hl_fn_months_between);
HL_FN(hl_fn_next_day);
HL_FN(hl_fn_to_epoch_milli);
HL_FN(hl_fn_floor_year);
HL_FN(hl_fn_floor_quarter);
HL_FN(hl_fn_floor_month);
HL_FN(hl_fn_floor_week);
HL_FN(hl_fn_floor_day);
HL_FN(hl_fn_floor_hour);
HL_FN(hl_fn_floor_minute);
HL_FN(hl_fn_floor_second);

/* rand([seed]): a counter advanced atomically (scan workers may share the
 * expression) and a seed; the n-th value is a hash of (seed, n). */
typedef struct hl_rand_state {
  _Atomic uint64_t counter;
  uint64_t seed;
} hl_rand_state_t;

/* func_math.c */
HL_FN(hl_fn_rand);
HL_FN(hl_fn_round);
HL_FN(hl_fn_bround);
HL_FN(hl_fn_floor);
HL_FN(hl_fn_ceil);
HL_FN(hl_fn_pow);
HL_FN(hl_fn_sqrt);
HL_FN(hl_fn_exp);
HL_FN(hl_fn_ln);
HL_FN(hl_fn_log);
HL_FN(hl_fn_log10);
HL_FN(hl_fn_log2);
HL_FN(hl_fn_pmod);
HL_FN(hl_fn_sign);
HL_FN(hl_fn_sin);
HL_FN(hl_fn_cos);
HL_FN(hl_fn_tan);
HL_FN(hl_fn_asin);
HL_FN(hl_fn_acos);
HL_FN(hl_fn_atan);
HL_FN(hl_fn_cbrt);
HL_FN(hl_fn_sinh);
HL_FN(hl_fn_cosh);
HL_FN(hl_fn_tanh);
HL_FN(hl_fn_degrees);
HL_FN(hl_fn_radians);
HL_FN(hl_fn_pi);
HL_FN(hl_fn_e);
HL_FN(hl_fn_positive);
HL_FN(hl_fn_negative);
HL_FN(hl_fn_factorial);
HL_FN(hl_fn_bin);
HL_FN(hl_fn_hex);
HL_FN(hl_fn_unhex);
HL_FN(hl_fn_conv);
HL_FN(hl_fn_width_bucket);
HL_FN(hl_fn_shiftleft);
HL_FN(hl_fn_shiftright);
HL_FN(hl_fn_shiftrightunsigned);

/* func_complex.c */
/* Hive's order of values of type T (ObjectInspectorUtils.compare): NULL
 * equal to NULL and below every value; arrays and structs element by
 * element, then the shorter first; unions by tag, then value. */
int hl_fn_cmp_value(const hl_type_t *t, const hl_value_t *x, const hl_value_t *y);
HL_FN(hl_fn_size);
HL_FN(hl_fn_array_contains);
HL_FN(hl_fn_sort_array);
HL_FN(hl_fn_map_keys);
HL_FN(hl_fn_map_values);
HL_FN(hl_fn_struct);

/* func_union.c (typed by plan/bind.c's bind_union_call) */
HL_FN(hl_fn_create_union);
HL_FN(hl_fn_extract_union);
/* T with every UNIONTYPE in it made a STRUCT<tag_0, tag_1, ...> of its
 * alternatives (extract_union's result type); sets *FOUND when T has a
 * union.  T itself when it is primitive; NULL when out of memory. */
hl_type_t *hl_union_exploded_type(hl_arena_t *arena, const hl_type_t *t, bool *found);

/* func_xpath.c */
HL_FN(hl_fn_xpath);
HL_FN(hl_fn_xpath_string);
HL_FN(hl_fn_xpath_boolean);
/* xpath_number, _double, _float, _long, _int, _short: by the call's type */
HL_FN(hl_fn_xpath_number);

/* func_tz.c */
HL_FN(hl_fn_from_utc_timestamp);
HL_FN(hl_fn_to_utc_timestamp);

/* func_array.c (typed by plan/bind.c's bind_array_call) */
HL_FN(hl_fn_array_min);
HL_FN(hl_fn_array_max);
HL_FN(hl_fn_array_distinct);
HL_FN(hl_fn_array_join);
HL_FN(hl_fn_array_position);
HL_FN(hl_fn_array_remove);
HL_FN(hl_fn_array_slice);
HL_FN(hl_fn_array_union);
HL_FN(hl_fn_array_intersect);
HL_FN(hl_fn_array_except);
HL_FN(hl_fn_sort_array_by);
/* sort_array_by's direction argument: 1 ASC, -1 DESC (any case, blanks
 * trimmed), 0 neither. */
int hl_fn_sort_direction(const hl_str_t *s);
/* The index of struct ST's field NAME (any case), -1 when it has none. */
int hl_fn_struct_field(const hl_type_t *st, const hl_str_t *name);

/* func_ds_kll.c: Hive 4's ds_kll_* scalars on KLL floats sketch bytes */
HL_FN(hl_fn_ds_kll_cdf);
HL_FN(hl_fn_ds_kll_n);
HL_FN(hl_fn_ds_kll_pmf);
HL_FN(hl_fn_ds_kll_quantile);
HL_FN(hl_fn_ds_kll_quantiles);
HL_FN(hl_fn_ds_kll_rank);
HL_FN(hl_fn_ds_kll_stringify);
/* func_ds_hll.c */
HL_FN(hl_fn_ds_hll_estimate);
HL_FN(hl_fn_ds_hll_estimate_bounds);
HL_FN(hl_fn_ds_hll_stringify);
HL_FN(hl_fn_ds_hll_union_f);

/* func_sketch.c */
HL_FN(hl_fn_ndv_compute_bit_vector);
HL_FN(hl_fn_in_bloom_filter);

/* func_geo.c: the ESRI spatial functions (st_*).  hl_fn_geo_arg: the
 * ST_Geometry of argument K (BINARY; NULL and the empty binary: v->is_null;
 * bytes that are none: 22023); hl_fn_geo_out: OUT = the ST_Geometry of G
 * with SRID and OGC type TYPE. */
struct hl_geo;
struct hl_geo_value;
hl_status_t hl_fn_geo_arg(const hl_value_t *a, int k, hl_arena_t *arena, struct hl_geo_value *v,
                          hl_error_t *err);
hl_status_t hl_fn_geo_out(hl_value_t *out, hl_arena_t *arena, const struct hl_geo *g, int32_t srid,
                          uint8_t type, hl_error_t *err);
HL_FN(hl_fn_st_asshape);
HL_FN(hl_fn_st_astext);
HL_FN(hl_fn_st_geometrytype);
HL_FN(hl_fn_st_geomfromshape);
HL_FN(hl_fn_st_geomfromtext);
HL_FN(hl_fn_st_is3d);
HL_FN(hl_fn_st_isempty);
HL_FN(hl_fn_st_ismeasured);
HL_FN(hl_fn_st_linestring);
HL_FN(hl_fn_st_m);
HL_FN(hl_fn_st_maxm);
HL_FN(hl_fn_st_maxx);
HL_FN(hl_fn_st_maxy);
HL_FN(hl_fn_st_maxz);
HL_FN(hl_fn_st_minm);
HL_FN(hl_fn_st_minx);
HL_FN(hl_fn_st_miny);
HL_FN(hl_fn_st_minz);
HL_FN(hl_fn_st_multipoint);
HL_FN(hl_fn_st_numpoints);
HL_FN(hl_fn_st_point);
HL_FN(hl_fn_st_pointz);
HL_FN(hl_fn_st_polygon);
HL_FN(hl_fn_st_setsrid);
HL_FN(hl_fn_st_srid);
HL_FN(hl_fn_st_x);
HL_FN(hl_fn_st_y);
HL_FN(hl_fn_st_z);
/* func_geo.c: WKB */
HL_FN(hl_fn_st_asbinary);
HL_FN(hl_fn_st_geomfromwkb);
HL_FN(hl_fn_st_linefromwkb);
HL_FN(hl_fn_st_mlinefromwkb);
HL_FN(hl_fn_st_mpointfromwkb);
HL_FN(hl_fn_st_mpolyfromwkb);
HL_FN(hl_fn_st_pointfromwkb);
HL_FN(hl_fn_st_polyfromwkb);
/* func_geo_parts.c */
HL_FN(hl_fn_st_envelope);
HL_FN(hl_fn_st_envintersects);
HL_FN(hl_fn_st_area);
HL_FN(hl_fn_st_coorddim);
HL_FN(hl_fn_st_dimension);
HL_FN(hl_fn_st_endpoint);
HL_FN(hl_fn_st_exteriorring);
HL_FN(hl_fn_st_geometryn);
HL_FN(hl_fn_st_interiorringn);
HL_FN(hl_fn_st_isclosed);
HL_FN(hl_fn_st_length);
HL_FN(hl_fn_st_numgeometries);
HL_FN(hl_fn_st_numinteriorring);
HL_FN(hl_fn_st_pointn);
HL_FN(hl_fn_st_startpoint);

#endif
