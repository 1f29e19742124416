/*
 * func_interval.c -- arithmetic on Hive's interval types and the functions
 * over them (Hive's GenericUDFOPDTIPlus / GenericUDFOPDTIMinus over
 * DateTimeMath, GenericUDFInternalInterval, GenericUDFTumbledWindow).
 *
 * No function name reaches the operators: plan/bind.c asks hl_interval_op
 * which definition computes x + y or x - y when an operand is an interval
 * (or both are dates or timestamps), and binds it with the operand types it
 * names.  Values: INTERVAL_YEAR_MONTH is months in u.i (Hive's int),
 * INTERVAL_DAY_TIME microseconds (util/interval.h).
 *
 * Semantics, from Hive's DateTimeMath: months are added to a date or a
 * timestamp as java.util.Calendar.add(MONTH) in UTC does -- the day of the
 * month kept, clamped to the target month's last day, the time of day kept
 * (unlike add_months, a month's last day does not stay the last day); a
 * day-time interval moves a date (at midnight) or timestamp by its length
 * and gives a TIMESTAMP; a date or timestamp minus another is the
 * INTERVAL_DAY_TIME between them.  Hive wraps on overflow; hivelite raises
 * 22008 for a date or timestamp outside years 1..9999 and 22003 for an
 * interval out of its range.  Calendar is Julian before 1582-10-15; these
 * are proleptic Gregorian like the rest of hivelite's dates (docs/sql.md).
 */
#include "vector/func_int.h"

#include "util/interval.h"

#define US_PER_DAY 86400000000LL

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static int64_t min_day(void) {
  return hl_days_from_civil(1, 1, 1);
}
static int64_t max_day(void) {
  return hl_days_from_civil(9999, 12, 31);
}

static hl_status_t dt_overflow(const hl_expr_t *call, hl_error_t *err) {
  return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(DATETIME_FIELD_OVERFLOW),
                       "%s result out of range (years 1 to 9999)",
                       call->type->id == HL_T_DATE ? "date" : "timestamp");
}

static hl_status_t iv_overflow(const hl_expr_t *call, hl_error_t *err) {
  return hl_err_set_at(
      err, call->pos, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE), "%s out of range",
      call->type->id == HL_T_INTERVAL_YM ? "interval_year_month" : "interval_day_time");
}

/* A timestamp result (micros) or its error. */
static hl_status_t put_ts(const hl_expr_t *call, int64_t us, hl_value_t *out, hl_error_t *err) {
  int64_t day = floor_div(us, US_PER_DAY);
  if (day < min_day() || day > max_day()) return dt_overflow(call, err);
  out->u.i = us;
  return HL_OK;
}

/* Micros of a DATE (midnight) or TIMESTAMP argument. */
static int64_t micros_arg(const hl_expr_t *call, const hl_value_t *a, int i) {
  return hl_fn_micros(call->args[i]->type, &a[i]);
}

/* datetime +/- months: Calendar.add(MONTH) in UTC.  SIGN is +1 or -1. */
static hl_status_t add_months(const hl_expr_t *call, const hl_value_t *a, int sign, hl_value_t *out,
                              hl_error_t *err) {
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  bool is_date = call->args[0]->type->id == HL_T_DATE;
  int64_t days = is_date ? a[0].u.i : floor_div(a[0].u.i, US_PER_DAY);
  int64_t tod = is_date ? 0 : a[0].u.i - days * US_PER_DAY;
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  /* months fit int32 and y is 1..9999: no overflow */
  int64_t total = y * 12 + (m - 1) + sign * a[1].u.i;
  int64_t ny = floor_div(total, 12);
  unsigned nm = (unsigned)(total - ny * 12) + 1;
  if (ny < 1 || ny > 9999) return dt_overflow(call, err);
  int dim = hl_days_in_month(ny, nm);
  int64_t nd = hl_days_from_civil(ny, nm, (int)d > dim ? (unsigned)dim : d);
  out->u.i = is_date ? nd : nd * US_PER_DAY + tod;
  return HL_OK;
}

static HL_FN(fn_dt_plus_ym) {
  return add_months(call, a, 1, out, err);
}
static HL_FN(fn_dt_minus_ym) {
  return add_months(call, a, -1, out, err);
}

/* datetime +/- day-time interval: a TIMESTAMP */
static hl_status_t add_micros(const hl_expr_t *call, const hl_value_t *a, int sign, hl_value_t *out,
                              hl_error_t *err) {
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  int64_t r;
  bool over = sign > 0 ? __builtin_add_overflow(micros_arg(call, a, 0), a[1].u.i, &r)
                       : __builtin_sub_overflow(micros_arg(call, a, 0), a[1].u.i, &r);
  if (over) return dt_overflow(call, err);
  return put_ts(call, r, out, err);
}

static HL_FN(fn_dt_plus_dt) {
  return add_micros(call, a, 1, out, err);
}
static HL_FN(fn_dt_minus_dt) {
  return add_micros(call, a, -1, out, err);
}

/* datetime - datetime: the INTERVAL_DAY_TIME between them (within years
 * 1..9999 the difference cannot overflow) */
static HL_FN(fn_dt_diff) {
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  if (__builtin_sub_overflow(micros_arg(call, a, 0), micros_arg(call, a, 1), &out->u.i) ||
      out->u.i == INT64_MIN)
    return iv_overflow(call, err);
  return HL_OK;
}

/* interval +/- interval of one kind */
static hl_status_t iv_add(const hl_expr_t *call, const hl_value_t *a, int sign, hl_value_t *out,
                          hl_error_t *err) {
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  int64_t r;
  bool over = sign > 0 ? __builtin_add_overflow(a[0].u.i, a[1].u.i, &r)
                       : __builtin_sub_overflow(a[0].u.i, a[1].u.i, &r);
  /* day-time: +-INT64_MAX (INT64_MIN has no text that reads back) */
  if (over || r == INT64_MIN ||
      (call->type->id == HL_T_INTERVAL_YM && (r > HL_INTERVAL_YM_MAX || r < HL_INTERVAL_YM_MIN)))
    return iv_overflow(call, err);
  out->u.i = r;
  return HL_OK;
}

static HL_FN(fn_iv_plus) {
  return iv_add(call, a, 1, out, err);
}
static HL_FN(fn_iv_minus) {
  return iv_add(call, a, -1, out, err);
}

static HL_FN(fn_iv_neg) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  int64_t r;
  if (__builtin_sub_overflow((int64_t)0, a[0].u.i, &r) ||
      (call->type->id == HL_T_INTERVAL_YM && r > HL_INTERVAL_YM_MAX))
    return iv_overflow(call, err);
  out->u.i = r;
  return HL_OK;
}

/* The names are the operators, for EXPLAIN (expr_print.c prints them infix). */
const hl_func_def_t hl_func_dt_plus_ym = {"+", 2, 2, fn_dt_plus_ym, NULL};
const hl_func_def_t hl_func_dt_minus_ym = {"-", 2, 2, fn_dt_minus_ym, NULL};
const hl_func_def_t hl_func_dt_plus_dt = {"+", 2, 2, fn_dt_plus_dt, NULL};
const hl_func_def_t hl_func_dt_minus_dt = {"-", 2, 2, fn_dt_minus_dt, NULL};
const hl_func_def_t hl_func_dt_diff = {"-", 2, 2, fn_dt_diff, NULL};
const hl_func_def_t hl_func_iv_plus = {"+", 2, 2, fn_iv_plus, NULL};
const hl_func_def_t hl_func_iv_minus = {"-", 2, 2, fn_iv_minus, NULL};
const hl_func_def_t hl_func_iv_neg = {"-", 1, 1, fn_iv_neg, NULL};

bool hl_func_is_interval_op(const hl_func_def_t *fn) {
  return fn == &hl_func_dt_plus_ym || fn == &hl_func_dt_minus_ym || fn == &hl_func_dt_plus_dt ||
         fn == &hl_func_dt_minus_dt || fn == &hl_func_dt_diff || fn == &hl_func_iv_plus ||
         fn == &hl_func_iv_minus || fn == &hl_func_iv_neg;
}

static bool is_dt(const hl_type_t *t) {
  return t->id == HL_T_DATE || t->id == HL_T_TIMESTAMP;
}

bool hl_interval_op(hl_expr_op_t op, const hl_type_t *x, const hl_type_t *y, hl_interval_op_t *r) {
  bool xi = hl_type_is_interval(x), yi = hl_type_is_interval(y);
  if (!xi && !yi && !(op == HL_XOP_SUB && is_dt(x) && is_dt(y))) return false;
  r->fn = NULL;
  r->swap = false;
  r->x = x;
  r->y = y;
  if (op != HL_XOP_ADD && op != HL_XOP_SUB) return true; /* Hive: no *, /, div, % */
  /* a NULL literal takes the other side's type */
  if (x->id == HL_T_NULL) r->x = x = y;
  if (y->id == HL_T_NULL) r->y = y = x;
  xi = hl_type_is_interval(x);
  yi = hl_type_is_interval(y);
  if (xi && yi) {
    if (x->id != y->id) return true;
    r->fn = op == HL_XOP_ADD ? &hl_func_iv_plus : &hl_func_iv_minus;
    r->result = x;
    return true;
  }
  if (!xi && !yi) { /* date/timestamp - date/timestamp */
    r->fn = &hl_func_dt_diff;
    r->result = hl_type_prim(HL_T_INTERVAL_DT);
    return true;
  }
  const hl_type_t *iv = xi ? x : y, *dt = xi ? y : x;
  if (!is_dt(dt) || (xi && op == HL_XOP_SUB)) return true; /* interval - date: none */
  r->swap = xi; /* the functions take (datetime, interval) */
  if (iv->id == HL_T_INTERVAL_YM) {
    r->fn = op == HL_XOP_ADD ? &hl_func_dt_plus_ym : &hl_func_dt_minus_ym;
    r->result = dt;
  } else {
    r->fn = op == HL_XOP_ADD ? &hl_func_dt_plus_dt : &hl_func_dt_minus_dt;
    r->result = hl_type_prim(HL_T_TIMESTAMP);
  }
  return true;
}

/* ------------------------------------------------------- the functions */

/* internal_interval(unit, value): Hive's INTERVAL (value) unit.  The unit
 * is the binder's constant string (hl_interval_unit_lookup); a value that
 * is not of the unit's form is an error, as Hive's UDFArgumentTypeException. */
HL_FN(hl_fn_internal_interval) {
  (void)arena;
  if (a[0].is_null || a[1].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_interval_unit_t unit;
  if (!hl_interval_unit_lookup(a[0].u.s.ptr, a[0].u.s.len, &unit))
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "unknown interval unit \"%.*s\"",
                         (int)(a[0].u.s.len > 40 ? 40 : a[0].u.s.len), a[0].u.s.ptr);
  int rc = hl_interval_parse_unit(unit, a[1].u.s.ptr, a[1].u.s.len, &out->u.i);
  if (rc == HL_IV_RANGE)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(DATETIME_FIELD_OVERFLOW),
                         "interval value \"%.*s\" out of range for INTERVAL %s",
                         (int)(a[1].u.s.len > 100 ? 100 : a[1].u.s.len), a[1].u.s.ptr,
                         hl_interval_unit_name(unit));
  if (rc != HL_IV_OK)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_DATETIME_FORMAT),
                         "invalid interval value \"%.*s\" for INTERVAL %s",
                         (int)(a[1].u.s.len > 100 ? 100 : a[1].u.s.len), a[1].u.s.ptr,
                         hl_interval_unit_name(unit));
  return HL_OK;
}

/* tumbling_window(ts, interval[, origin]): ts moved back to the start of
 * its window.  Hive works in milliseconds and takes the window length as
 * totalSeconds * 1000 + nanos / 1000 (so a fraction of a second counts in
 * microseconds: its formula, kept); windows start at origin (default
 * 1970-01-01 00:00:00) plus whole lengths; the result has millisecond
 * precision (Timestamp.ofEpochMilli). */
HL_FN(hl_fn_tumbling_window) {
  (void)arena;
  for (int k = 0; k < call->n_args; k++)
    if (a[k].is_null) {
      out->is_null = true;
      return HL_OK;
    }
  int64_t secs = a[1].u.i / 1000000, frac_us = a[1].u.i % 1000000;
  int64_t len = secs * 1000 + frac_us; /* |secs| < 2^63 / 10^6: no overflow */
  if (len <= 0)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "tumbling_window's interval must be positive");
  int64_t ts_ms = floor_div(micros_arg(call, a, 0), 1000);
  int64_t origin_ms = call->n_args > 2 ? floor_div(micros_arg(call, a, 2), 1000) : 0;
  int64_t offset = ts_ms % len - origin_ms % len;
  if (offset < 0) offset += len;
  int64_t us;
  if (__builtin_mul_overflow(ts_ms - offset, (int64_t)1000, &us)) return dt_overflow(call, err);
  return put_ts(call, us, out, err);
}

/* year(), month() of an INTERVAL_YEAR_MONTH and day(), hour(), minute(),
 * second() of an INTERVAL_DAY_TIME: Hive's UDFYear ... UDFSecond overloads
 * for intervals (getYears, getMonths, getDays ...: truncated toward zero,
 * so a negative interval's fields are negative). */
static int64_t iv_field(const hl_expr_t *call, int64_t v) {
  const char *n = call->fn->name;
  if (n[0] == 'y') return v / 12;
  if (n[0] == 'm' && n[1] == 'o') return v % 12;
  int64_t secs = v / 1000000;
  if (n[0] == 'd') return secs / 86400;
  if (n[0] == 'h') return secs / 3600 % 24;
  if (n[0] == 'm') return secs / 60 % 60;
  return secs % 60;
}

static HL_FN(fn_iv_field) {
  (void)arena;
  (void)err;
  if (a[0].is_null)
    out->is_null = true;
  else
    out->u.i = iv_field(call, a[0].u.i);
  return HL_OK;
}

static const hl_func_def_t iv_fields[] = {
    {"year", 1, 1, fn_iv_field, NULL},   {"month", 1, 1, fn_iv_field, NULL},
    {"day", 1, 1, fn_iv_field, NULL},    {"hour", 1, 1, fn_iv_field, NULL},
    {"minute", 1, 1, fn_iv_field, NULL}, {"second", 1, 1, fn_iv_field, NULL},
};

const hl_func_def_t *hl_interval_field_fn(const hl_func_def_t *fn, const hl_type_t *arg) {
  int k = fn->impl == hl_fn_year     ? 0
          : fn->impl == hl_fn_month  ? 1
          : fn->impl == hl_fn_day    ? 2
          : fn->impl == hl_fn_hour   ? 3
          : fn->impl == hl_fn_minute ? 4
          : fn->impl == hl_fn_second ? 5
                                     : -1;
  if (k < 0 || arg->id != (k < 2 ? HL_T_INTERVAL_YM : HL_T_INTERVAL_DT)) return NULL;
  return &iv_fields[k];
}
