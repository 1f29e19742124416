/*
 * func.c -- the scalar function library (row at a time).
 *
 * Each function receives its argument values for one row and writes one
 * result.  Return types are decided by the binder (plan/bind.c,
 * bind_function), which also casts arguments to the types listed there, so
 * implementations can rely on argument layouts.  The first pass holds the
 * conditional and string basics; the analytic engine issue extends it.
 */
#include "vector/func_int.h"
#include "vector/func_doc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static hl_status_t fn_if(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                         hl_arena_t *arena, hl_error_t *err) {
  bool cond = !a[0].is_null && a[0].u.b;
  *out = cond ? a[1] : a[2];
  return HL_OK;
}

static hl_status_t fn_coalesce(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                               hl_arena_t *arena, hl_error_t *err) {
  for (int i = 0; i < call->n_args; i++)
    if (!a[i].is_null) {
      *out = a[i];
      return HL_OK;
    }
  out->is_null = true;
  return HL_OK;
}

static hl_status_t fn_nullif(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  if (!a[0].is_null && !a[1].is_null && hl_value_compare(call->args[0]->type, &a[0], &a[1]) == 0)
    out->is_null = true;
  else
    *out = a[0];
  return HL_OK;
}

static hl_status_t fn_concat(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  size_t total = 0;
  for (int i = 0; i < call->n_args; i++) {
    if (a[i].is_null) {
      out->is_null = true;
      return HL_OK;
    }
    total += a[i].u.s.len;
  }
  char *p = hl_arena_alloc(arena, total ? total : 1);
  if (!p) return hl_err_nomem(err);
  size_t off = 0;
  for (int i = 0; i < call->n_args; i++) {
    if (a[i].u.s.len) memcpy(p + off, a[i].u.s.ptr, a[i].u.s.len);
    off += a[i].u.s.len;
  }
  out->u.s.ptr = p;
  out->u.s.len = (uint32_t)total;
  return HL_OK;
}

static hl_status_t case_map(const hl_value_t *a, hl_value_t *out, hl_arena_t *arena,
                            hl_error_t *err, int upper) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  char *p = hl_arena_alloc(arena, a[0].u.s.len ? a[0].u.s.len : 1);
  if (!p) return hl_err_nomem(err);
  for (uint32_t i = 0; i < a[0].u.s.len; i++) {
    /* ASCII only, by arithmetic: toupper/tolower are a call per byte */
    unsigned char c = (unsigned char)a[0].u.s.ptr[i];
    unsigned char lo = upper ? 'a' : 'A';
    p[i] = (char)((unsigned char)(c - lo) < 26 ? c ^ 0x20 : c);
  }
  out->u.s.ptr = p;
  out->u.s.len = a[0].u.s.len;
  return HL_OK;
}

static hl_status_t fn_upper(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  return case_map(a, out, arena, err, 1);
}

static hl_status_t fn_lower(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  return case_map(a, out, arena, err, 0);
}

/* Character (not byte) counts for UTF-8 text, as Hive counts. */
static int64_t utf8_len(hl_str_t s) {
  int64_t n = 0;
  for (uint32_t i = 0; i < s.len; i++)
    if (((unsigned char)s.ptr[i] & 0xC0) != 0x80) n++;
  return n;
}

static uint32_t utf8_offset(hl_str_t s, int64_t chars) {
  uint32_t i = 0;
  while (i < s.len && chars > 0) {
    i++;
    while (i < s.len && ((unsigned char)s.ptr[i] & 0xC0) == 0x80)
      i++;
    chars--;
  }
  return i;
}

static hl_status_t fn_length(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  /* GenericUDFLength: characters of text, bytes of a BINARY */
  if (a[0].is_null)
    out->is_null = true;
  else if (call->args[0]->type->id == HL_T_BINARY)
    out->u.i = a[0].u.s.len;
  else
    out->u.i = utf8_len(a[0].u.s);
  return HL_OK;
}

/* substr(s, pos[, len]): 1-based, negative pos counts from the end, Hive. */
static hl_status_t fn_substr(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  for (int i = 0; i < call->n_args; i++)
    if (a[i].is_null) {
      out->is_null = true;
      return HL_OK;
    }
  hl_str_t s = a[0].u.s;
  int64_t n = utf8_len(s), pos = a[1].u.i;
  int64_t len = call->n_args > 2 ? a[2].u.i : INT64_MAX;
  out->u.s.ptr = s.ptr;
  out->u.s.len = 0;
  if (len <= 0 || pos > n || pos < -n) return HL_OK;
  int64_t start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
  int64_t end = len > n - start ? n : start + len;
  uint32_t b0 = utf8_offset(s, start), b1 = utf8_offset(s, end);
  out->u.s.ptr = s.ptr + b0;
  out->u.s.len = b1 - b0;
  return HL_OK;
}

static hl_status_t trim_impl(const hl_value_t *a, hl_value_t *out, int left, int right) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  const char *p = a[0].u.s.ptr;
  uint32_t n = a[0].u.s.len;
  while (left && n && *p == ' ') {
    p++;
    n--;
  }
  while (right && n && p[n - 1] == ' ')
    n--;
  out->u.s.ptr = p;
  out->u.s.len = n;
  return HL_OK;
}

static hl_status_t fn_trim(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                           hl_arena_t *arena, hl_error_t *err) {
  return trim_impl(a, out, 1, 1);
}

static hl_status_t fn_ltrim(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  return trim_impl(a, out, 1, 0);
}

static hl_status_t fn_rtrim(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  return trim_impl(a, out, 0, 1);
}

static hl_status_t fn_abs(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                          hl_arena_t *arena, hl_error_t *err) {
  *out = a[0];
  if (a[0].is_null) return HL_OK;
  switch (hl_type_phys(call->type)) {
  case HL_P_I64:
    out->u.i = a[0].u.i < 0 ? (int64_t)(0 - (uint64_t)a[0].u.i) : a[0].u.i;
    break;
  case HL_P_F64:
    out->u.d = fabs(a[0].u.d);
    break;
  case HL_P_I128:
    out->u.dec = a[0].u.dec < 0 ? -a[0].u.dec : a[0].u.dec;
    break;
  default:
    break;
  }
  return HL_OK;
}

/* array(v, ...): the arguments (cast to one element type by the binder),
 * deep-copied so the value outlives the input batch. */
static hl_status_t fn_array(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  int n = call->n_args;
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(n ? n : 1));
  if (!items) return hl_err_nomem(err);
  for (int k = 0; k < n; k++)
    if (hl_value_copy_deep(arena, call->args[k]->type, &a[k], &items[k]) != HL_OK)
      return hl_err_nomem(err);
  out->is_null = false;
  out->u.list.n = (uint32_t)n;
  out->u.list.items = items;
  return HL_OK;
}

/* map(k1, v1, k2, v2, ...): entries in argument order; a repeated key keeps
 * its first position and takes the last value (Hive's LinkedHashMap).  A
 * NULL key is kept, as Hive does. */
static hl_status_t fn_map(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                          hl_arena_t *arena, hl_error_t *err) {
  int n = call->n_args / 2;
  const hl_type_t *kt = call->type->children[0], *vt = call->type->children[1];
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * (size_t)(2 * n + 1));
  if (!items) return hl_err_nomem(err);
  uint32_t m = 0;
  for (int k = 0; k < n; k++) {
    const hl_value_t *key = &a[2 * k], *val = &a[2 * k + 1];
    uint32_t at = m;
    for (uint32_t j = 0; j < m; j++) {
      const hl_value_t *o = &items[2 * j];
      if (o->is_null ? key->is_null : !key->is_null && hl_value_compare(kt, o, key) == 0) {
        at = j;
        break;
      }
    }
    if (at == m && hl_value_copy_deep(arena, kt, key, &items[2 * m++]) != HL_OK)
      return hl_err_nomem(err);
    if (hl_value_copy_deep(arena, vt, val, &items[2 * at + 1]) != HL_OK) return hl_err_nomem(err);
  }
  out->is_null = false;
  out->u.list.n = m;
  out->u.list.items = items;
  return HL_OK;
}

/* Session values (current_user(), version(), ...): the binder replaces
 * the call by a constant, so this never runs on rows. */
static hl_status_t fn_session_value(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                                    hl_arena_t *arena, hl_error_t *err) {
  out->is_null = true;
  return HL_OK;
}

/* current_groups(): the list the binder put in the call's state. */
HL_FN(hl_fn_current_groups) {
  *out = *(const hl_value_t *)call->state;
  return HL_OK;
}

/* Sorted by name (looked up by binary search; strcmp order). */
static const hl_func_def_t functions[] = {
    {"abs", 1, 1, fn_abs, NULL},
    {"acos", 1, 1, hl_fn_acos, "dd"},
    {"add_months", 2, 3, hl_fn_add_months, "Dtis"}, /* with a format: STRING */
    {"aes_decrypt", 2, 2, hl_fn_aes_decrypt, "BBB"},
    {"aes_encrypt", 2, 2, hl_fn_aes_encrypt, "BBB"},
    {"array", 0, -1, fn_array, NULL}, /* typed by the binder: ARRAY<common type> */
    {"array_contains", 2, 2, hl_fn_array_contains, NULL},
    {"array_distinct", 1, 1, hl_fn_array_distinct, NULL},
    {"array_except", 2, 2, hl_fn_array_except, NULL},
    {"array_intersect", 2, 2, hl_fn_array_intersect, NULL},
    {"array_join", 2, 3, hl_fn_array_join, NULL},
    {"array_max", 1, 1, hl_fn_array_max, NULL},
    {"array_min", 1, 1, hl_fn_array_min, NULL},
    {"array_position", 2, 2, hl_fn_array_position, NULL},
    {"array_remove", 2, 2, hl_fn_array_remove, NULL},
    {"array_slice", 3, 3, hl_fn_array_slice, NULL},
    {"array_union", 2, 2, hl_fn_array_union, NULL},
    {"ascii", 1, 1, hl_fn_ascii, "is"},
    {"asin", 1, 1, hl_fn_asin, "dd"},
    {"assert_true", 1, 1, hl_fn_assert_true, "sb"},
    {"atan", 1, 1, hl_fn_atan, "dd"},
    {"base64", 1, 1, hl_fn_base64, "sB"},
    {"bin", 1, 1, hl_fn_bin, "sl"},
    {"bround", 1, 2, hl_fn_bround, NULL},
    {"buildversion", 0, 0, fn_session_value, "s"}, /* folded by the binder */
    {"cardinality_violation", 0, -1, hl_fn_cardinality_violation, "i*"},
    {"cbrt", 1, 1, hl_fn_cbrt, "dd"},
    {"ceil", 1, 1, hl_fn_ceil, NULL},
    {"ceiling", 1, 1, hl_fn_ceil, NULL},
    {"char_length", 1, 1, hl_fn_char_length, "is"},
    {"character_length", 1, 1, hl_fn_char_length, "is"},
    {"chr", 1, 1, hl_fn_chr, "sd"},
    {"coalesce", 1, -1, fn_coalesce, NULL},
    {"concat", 1, -1, fn_concat, NULL},
    {"concat_ws", 2, -1, hl_fn_concat_ws, "sSS"},
    {"conv", 3, 3, hl_fn_conv, "ssii"},
    {"cos", 1, 1, hl_fn_cos, "dd"},
    {"cosh", 1, 1, hl_fn_cosh, "dd"},
    {"crc32", 1, 1, hl_fn_crc32, "lB"},
    {"create_union", 2, -1, hl_fn_create_union, NULL},
    {"current_authorizer", 0, 0, fn_session_value, "s"},
    {"current_catalog", 0, 0, fn_session_value, "s"},
    {"current_database", 0, 0, fn_session_value, "s"}, /* folded by the binder */
    {"current_date", 0, 0, hl_fn_current_date, "D"},
    {"current_groups", 0, 0, hl_fn_current_groups, "A"},
    {"current_schema", 0, 0, fn_session_value, "s"},
    {"current_timestamp", 0, 0, hl_fn_current_timestamp, "T"},
    {"current_user", 0, 0, fn_session_value, "s"},
    {"date_add", 2, 2, hl_fn_date_add, "Dti"},
    {"date_format", 2, 2, hl_fn_date_format, "sts"},
    {"date_sub", 2, 2, hl_fn_date_sub, "Dti"},
    {"datediff", 2, 2, hl_fn_datediff, "itt"},
    {"datetime_legacy_hybrid_calendar", 1, 1, hl_fn_legacy_calendar, NULL}, /* DATE or TIMESTAMP */
    {"day", 1, 1, hl_fn_day, "it"},
    {"dayofmonth", 1, 1, hl_fn_day, "it"},
    {"dayofweek", 1, 1, hl_fn_dayofweek, "it"},
    {"decode", 2, 2, hl_fn_decode, "sBs"},
    {"degrees", 1, 1, hl_fn_degrees, "dd"},
    {"deserialize", 2, 2, hl_fn_deserialize, "sss"},
    {"ds_hll_estimate", 1, 1, hl_fn_ds_hll_estimate, "dB"},
    {"ds_hll_estimate_bounds", 1, 2, hl_fn_ds_hll_estimate_bounds, "EBi"},
    {"ds_hll_stringify", 1, 1, hl_fn_ds_hll_stringify, "sB"},
    {"ds_hll_union_f", 2, 4, hl_fn_ds_hll_union_f, "BBBis"},
    {"ds_kll_cdf", 1, -1, hl_fn_ds_kll_cdf, "EBF"},
    {"ds_kll_n", 1, 1, hl_fn_ds_kll_n, "lB"},
    {"ds_kll_pmf", 1, -1, hl_fn_ds_kll_pmf, "EBF"},
    {"ds_kll_quantile", 2, 2, hl_fn_ds_kll_quantile, "fBd"},
    {"ds_kll_quantiles", 1, -1, hl_fn_ds_kll_quantiles, "GBd"},
    {"ds_kll_rank", 2, 2, hl_fn_ds_kll_rank, "dBF"},
    {"ds_kll_stringify", 1, 1, hl_fn_ds_kll_stringify, "sB"},
    {"ds_quantile_doubles_cdf", 1, -1, hl_fn_dsq_cdf, "EBd"},
    {"ds_quantile_doubles_k", 1, 1, hl_fn_dsq_k, "iB"},
    {"ds_quantile_doubles_n", 1, 1, hl_fn_dsq_n, "lB"},
    {"ds_quantile_doubles_pmf", 1, -1, hl_fn_dsq_pmf, "EBd"},
    {"ds_quantile_doubles_quantile", 2, 2, hl_fn_dsq_quantile, "dBd"},
    {"ds_quantile_doubles_quantiles", 1, -1, hl_fn_dsq_quantiles, "EB*"},
    {"ds_quantile_doubles_stringify", 1, 1, hl_fn_dsq_stringify, "sB"},
    {"ds_theta_estimate", 1, 2, hl_fn_ds_theta_estimate, "dBl"},
    {"ds_theta_exclude", 2, 3, hl_fn_ds_theta_exclude, "BBBl"},
    {"ds_theta_intersect_f", 2, 3, hl_fn_ds_theta_intersect_f, "BBBl"},
    {"ds_theta_union_f", 2, 4, hl_fn_ds_theta_union_f, "BBBil"},
    {"e", 0, 0, hl_fn_e, "d"},
    {"elt", 2, -1, hl_fn_elt, "sis"},
    {"encode", 2, 2, hl_fn_encode, "Bss"},
    {"enforce_constraint", 1, 1, hl_fn_enforce_constraint, "bb"},
    {"exp", 1, 1, hl_fn_exp, "dd"},
    {"extract_union", 1, 2, hl_fn_extract_union, NULL},
    {"factorial", 1, 1, hl_fn_factorial, "li"},
    {"field", 2, -1, hl_fn_field, "ic"},
    {"find_in_set", 2, 2, hl_fn_find_in_set, "iss"},
    {"floor", 1, 1, hl_fn_floor, NULL},
    {"floor_day", 1, 1, hl_fn_floor_day, "TT"},
    {"floor_hour", 1, 1, hl_fn_floor_hour, "TT"},
    {"floor_minute", 1, 1, hl_fn_floor_minute, "TT"},
    {"floor_month", 1, 1, hl_fn_floor_month, "TT"},
    {"floor_quarter", 1, 1, hl_fn_floor_quarter, "TT"},
    {"floor_second", 1, 1, hl_fn_floor_second, "TT"},
    {"floor_week", 1, 1, hl_fn_floor_week, "TT"},
    {"floor_year", 1, 1, hl_fn_floor_year, "TT"},
    {"format_number", 2, 2, hl_fn_format_number, NULL}, /* typed by the binder */
    {"from_unixtime", 1, 2, hl_fn_from_unixtime, "sls"},
    {"from_utc_timestamp", 2, 2, hl_fn_from_utc_timestamp, "Tts"},
    {"get_json_object", 2, 2, hl_fn_get_json_object, "sss"},
    {"greatest", 2, -1, hl_fn_greatest, "cc"},
    {"hash", 1, -1, hl_fn_hash, "i*"},
    {"hex", 1, 1, hl_fn_hex, "s*"},
    {"hour", 1, 1, hl_fn_hour, "it"},
    {"if", 3, 3, fn_if, NULL},
    {"in_bloom_filter", 2, 2, hl_fn_in_bloom_filter, "b**"},
    {"in_file", 2, 2, hl_fn_in_file, NULL},
    {"index", 2, 2, hl_fn_index, NULL}, /* bound by plan/bind.c as a[n] */
    {"initcap", 1, 1, hl_fn_initcap, "ss"},
    {"instr", 2, 2, hl_fn_instr, "iss"},
    {"internal_interval", 2, 2, hl_fn_internal_interval, NULL}, /* typed by the binder */
    {"isfalse", 1, 1, hl_fn_isfalse, "bb"},
    {"isnotfalse", 1, 1, hl_fn_isnotfalse, "bb"},
    {"isnotnull", 1, 1, hl_fn_isnotnull, "b*"},
    {"isnottrue", 1, 1, hl_fn_isnottrue, "bb"},
    {"isnull", 1, 1, hl_fn_isnull, "b*"},
    {"istrue", 1, 1, hl_fn_istrue, "bb"},
    {"json_read", 2, 2, hl_fn_json_read, NULL}, /* typed by the binder: the type given */
    {"last_day", 1, 1, hl_fn_last_day, "st"},
    {"lcase", 1, 1, fn_lower, NULL},
    {"least", 2, -1, hl_fn_least, "cc"},
    {"length", 1, 1, fn_length, NULL},
    {"levenshtein", 2, 2, hl_fn_levenshtein, "iss"},
    {"likeall", 2, -1, hl_fn_likeall, NULL},
    {"likeany", 2, -1, hl_fn_likeany, NULL},
    {"ln", 1, 1, hl_fn_ln, "dd"},
    {"locate", 2, 3, hl_fn_locate, "issi"},
    {"log", 1, 2, hl_fn_log, "ddd"},
    {"log10", 1, 1, hl_fn_log10, "dd"},
    {"log2", 1, 1, hl_fn_log2, "dd"},
    {"logged_in_user", 0, 0, fn_session_value, "s"},
    {"lower", 1, 1, fn_lower, NULL},
    {"lpad", 3, 3, hl_fn_lpad, "ssis"},
    {"ltrim", 1, 1, fn_ltrim, NULL},
    {"map", 0, -1, fn_map, NULL}, /* typed by the binder: MAP<key type, value type> */
    {"map_keys", 1, 1, hl_fn_map_keys, NULL},
    {"map_values", 1, 1, hl_fn_map_values, NULL},
    {"mask", 1, 6, hl_fn_mask, "II*"},
    {"mask_first_n", 1, 7, hl_fn_mask_first_n, "IIi*"},
    {"mask_hash", 1, 1, hl_fn_mask_hash, "s*"},
    {"mask_last_n", 1, 7, hl_fn_mask_last_n, "IIi*"},
    {"mask_show_first_n", 1, 7, hl_fn_mask_show_first_n, "IIi*"},
    {"mask_show_last_n", 1, 7, hl_fn_mask_show_last_n, "IIi*"},
    {"md5", 1, 1, hl_fn_md5, "ss"},
    {"mid", 2, 3, fn_substr, NULL},
    {"minute", 1, 1, hl_fn_minute, "it"},
    {"month", 1, 1, hl_fn_month, "it"},
    {"months_between", 2, 3, hl_fn_months_between, "dttb"},
    {"murmur_hash", 1, -1, hl_fn_murmur_hash, "i*"},
    {"named_struct", 2, -1, hl_fn_struct, NULL},
    {"ndv_compute_bit_vector", 1, 1, hl_fn_ndv_compute_bit_vector, "l*"},
    {"negative", 1, 1, hl_fn_negative, "nn"},
    {"next_day", 2, 2, hl_fn_next_day, "sts"},
    {"nullif", 2, 2, fn_nullif, NULL},
    {"nvl", 2, 2, fn_coalesce, NULL},
    {"nvl2", 3, 3, hl_fn_nvl2, "c*cc"},
    {"octet_length", 1, 1, hl_fn_octet_length, "is"},
    {"parse_url", 2, 3, hl_fn_parse_url, "ssss"},
    {"pi", 0, 0, hl_fn_pi, "d"},
    {"pmod", 2, 2, hl_fn_pmod, "ccc"},
    {"position", 2, 3, hl_fn_locate, "issi"},
    {"positive", 1, 1, hl_fn_positive, "nn"},
    {"pow", 2, 2, hl_fn_pow, "ddd"},
    {"power", 2, 2, hl_fn_pow, "ddd"},
    {"printf", 1, -1, hl_fn_printf, "ss*"},
    {"quarter", 1, 1, hl_fn_quarter, "it"},
    {"quote", 1, 1, hl_fn_quote, "ss"},
    {"radians", 1, 1, hl_fn_radians, "dd"},
    {"rand", 0, 1, hl_fn_rand, NULL},
    {"regexp_extract", 2, 3, hl_fn_regexp_extract, "sssi"},
    {"regexp_replace", 3, 3, hl_fn_regexp_replace, "ssss"},
    {"repeat", 2, 2, hl_fn_repeat, "ssi"},
    {"replace", 3, 3, hl_fn_replace, "ssss"},
    {"restrict_information_schema", 0, 0, fn_session_value, "b"}, /* folded by the binder */
    {"reverse", 1, 1, hl_fn_reverse, "ss"},
    {"round", 1, 2, hl_fn_round, NULL},
    {"rpad", 3, 3, hl_fn_rpad, "ssis"},
    {"rtrim", 1, 1, fn_rtrim, NULL},
    {"second", 1, 1, hl_fn_second, "it"},
    {"sentences", 1, 3, hl_fn_sentences, "Ysss"},
    {"sha", 1, 1, hl_fn_sha1, "ss"},
    {"sha1", 1, 1, hl_fn_sha1, "ss"},
    {"sha2", 2, 2, hl_fn_sha2, "ssi"},
    {"shiftleft", 2, 2, hl_fn_shiftleft, "wwi"},
    {"shiftright", 2, 2, hl_fn_shiftright, "wwi"},
    {"shiftrightunsigned", 2, 2, hl_fn_shiftrightunsigned, "wwi"},
    {"sign", 1, 1, hl_fn_sign, "in"},
    {"sin", 1, 1, hl_fn_sin, "dd"},
    {"sinh", 1, 1, hl_fn_sinh, "dd"},
    {"size", 1, 1, hl_fn_size, NULL},
    {"sort_array", 1, 1, hl_fn_sort_array, NULL},
    {"sort_array_by", 2, -1, hl_fn_sort_array_by, NULL},
    {"soundex", 1, 1, hl_fn_soundex, "ss"},
    {"space", 1, 1, hl_fn_space, "si"},
    {"split", 2, 2, hl_fn_split, "Ass"},
    {"split_map_privs", 1, 1, hl_fn_split_map_privs, "As"},
    {"sq_count_check", 1, 2, hl_fn_sq_count_check, "ll*"},
    {"sqrt", 1, 1, hl_fn_sqrt, "dd"},
    {"st_area", 1, 1, hl_fn_st_area, "dB"},
    {"st_asbinary", 1, 1, hl_fn_st_asbinary, "BB"},
    {"st_asshape", 1, 1, hl_fn_st_asshape, "BB"},
    {"st_astext", 1, 1, hl_fn_st_astext, "sB"},
    {"st_coorddim", 1, 1, hl_fn_st_coorddim, "iB"},
    {"st_dimension", 1, 1, hl_fn_st_dimension, "iB"},
    {"st_endpoint", 1, 1, hl_fn_st_endpoint, "BB"},
    {"st_envelope", 1, 1, hl_fn_st_envelope, "BB"},
    {"st_envintersects", 2, 2, hl_fn_st_envintersects, "bBB"},
    {"st_exteriorring", 1, 1, hl_fn_st_exteriorring, "BB"},
    {"st_geometryn", 2, 2, hl_fn_st_geometryn, "BBi"},
    {"st_geometrytype", 1, 1, hl_fn_st_geometrytype, "sB"},
    {"st_geomfromshape", 1, 2, hl_fn_st_geomfromshape, "BBi"},
    {"st_geomfromtext", 1, 2, hl_fn_st_geomfromtext, "Bsi"},
    {"st_geomfromwkb", 1, 2, hl_fn_st_geomfromwkb, "BBi"},
    {"st_interiorringn", 2, 2, hl_fn_st_interiorringn, "BBi"},
    {"st_is3d", 1, 1, hl_fn_st_is3d, "bB"},
    {"st_isclosed", 1, 1, hl_fn_st_isclosed, "bB"},
    {"st_isempty", 1, 1, hl_fn_st_isempty, "bB"},
    {"st_ismeasured", 1, 1, hl_fn_st_ismeasured, "bB"},
    {"st_length", 1, 1, hl_fn_st_length, "dB"},
    {"st_linefromwkb", 1, 2, hl_fn_st_linefromwkb, "BBi"},
    {"st_linestring", 1, -1, hl_fn_st_linestring, "B*"},
    {"st_m", 1, 1, hl_fn_st_m, "dB"},
    {"st_maxm", 1, 1, hl_fn_st_maxm, "dB"},
    {"st_maxx", 1, 1, hl_fn_st_maxx, "dB"},
    {"st_maxy", 1, 1, hl_fn_st_maxy, "dB"},
    {"st_maxz", 1, 1, hl_fn_st_maxz, "dB"},
    {"st_minm", 1, 1, hl_fn_st_minm, "dB"},
    {"st_minx", 1, 1, hl_fn_st_minx, "dB"},
    {"st_miny", 1, 1, hl_fn_st_miny, "dB"},
    {"st_minz", 1, 1, hl_fn_st_minz, "dB"},
    {"st_mlinefromwkb", 1, 2, hl_fn_st_mlinefromwkb, "BBi"},
    {"st_mpointfromwkb", 1, 2, hl_fn_st_mpointfromwkb, "BBi"},
    {"st_mpolyfromwkb", 1, 2, hl_fn_st_mpolyfromwkb, "BBi"},
    {"st_multipoint", 1, -1, hl_fn_st_multipoint, "B*"},
    {"st_numgeometries", 1, 1, hl_fn_st_numgeometries, "iB"},
    {"st_numinteriorring", 1, 1, hl_fn_st_numinteriorring, "iB"},
    {"st_numpoints", 1, 1, hl_fn_st_numpoints, "iB"},
    {"st_point", 1, 4, hl_fn_st_point, "B*"},
    {"st_pointfromwkb", 1, 2, hl_fn_st_pointfromwkb, "BBi"},
    {"st_pointn", 2, 2, hl_fn_st_pointn, "BBi"},
    {"st_pointz", 3, 4, hl_fn_st_pointz, "B*"},
    {"st_polyfromwkb", 1, 2, hl_fn_st_polyfromwkb, "BBi"},
    {"st_polygon", 1, -1, hl_fn_st_polygon, "B*"},
    {"st_setsrid", 2, 2, hl_fn_st_setsrid, "BBi"},
    {"st_srid", 1, 1, hl_fn_st_srid, "iB"},
    {"st_startpoint", 1, 1, hl_fn_st_startpoint, "BB"},
    {"st_x", 1, 1, hl_fn_st_x, "dB"},
    {"st_y", 1, 1, hl_fn_st_y, "dB"},
    {"st_z", 1, 1, hl_fn_st_z, "dB"},
    {"str_to_map", 1, 3, hl_fn_str_to_map, "Msss"},
    {"struct", 1, -1, hl_fn_struct, NULL},
    {"substr", 2, 3, fn_substr, NULL},
    {"substring", 2, 3, fn_substr, NULL},
    {"substring_index", 3, 3, hl_fn_substring_index, "sssi"},
    {"tan", 1, 1, hl_fn_tan, "dd"},
    {"tanh", 1, 1, hl_fn_tanh, "dd"},
    {"to_date", 1, 1, hl_fn_to_date, "Dt"},
    {"to_epoch_milli", 1, 1, hl_fn_to_epoch_milli, "lT"},
    {"to_unix_timestamp", 1, 2, hl_fn_unix_timestamp, "l*s"},
    {"to_utc_timestamp", 2, 2, hl_fn_to_utc_timestamp, "Tts"},
    {"translate", 3, 3, hl_fn_translate, "ssss"},
    {"trim", 1, 1, fn_trim, NULL},
    {"trunc", 2, 2, hl_fn_trunc, "sts"},
    {"tumbling_window", 2, 3, hl_fn_tumbling_window, NULL}, /* typed by the binder */
    {"typeof", 1, 1, hl_fn_typeof, NULL},
    {"ucase", 1, 1, fn_upper, NULL},
    {"unbase64", 1, 1, hl_fn_unbase64, "Bs"},
    {"unhex", 1, 1, hl_fn_unhex, "Bs"},
    {"unix_timestamp", 0, 2, hl_fn_unix_timestamp, "l*s"},
    {"upper", 1, 1, fn_upper, NULL},
    {"uuid", 0, 0, hl_fn_uuid, "s"},
    {"version", 0, 0, fn_session_value, "s"},
    {"weekofyear", 1, 1, hl_fn_weekofyear, "it"},
    {"width_bucket", 4, 4, hl_fn_width_bucket, "idddi"},
    {"xpath", 2, 2, hl_fn_xpath, "Ass"},
    {"xpath_boolean", 2, 2, hl_fn_xpath_boolean, "bss"},
    {"xpath_double", 2, 2, hl_fn_xpath_number, "dss"},
    {"xpath_float", 2, 2, hl_fn_xpath_number, "fss"},
    {"xpath_int", 2, 2, hl_fn_xpath_number, "iss"},
    {"xpath_long", 2, 2, hl_fn_xpath_number, "lss"},
    {"xpath_number", 2, 2, hl_fn_xpath_number, "dss"},
    {"xpath_short", 2, 2, hl_fn_xpath_number, "hss"},
    {"xpath_string", 2, 2, hl_fn_xpath_string, "sss"},
    {"year", 1, 1, hl_fn_year, "it"},
};

static int cmp_name(const void *key, const void *elem) {
  return strcmp(key, ((const hl_func_def_t *)elem)->name);
}

const hl_func_def_t *hl_func_lookup(const char *name) {
  return bsearch(name, functions, sizeof functions / sizeof functions[0], sizeof functions[0],
                 cmp_name);
}

const char *hl_func_name_at(size_t i) {
  return i < sizeof functions / sizeof functions[0] ? functions[i].name : NULL;
}
