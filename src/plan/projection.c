/*
 * projection.c -- Athena-compatible partition projection (see projection.h).
 *
 * Every projected column is an index space 0..count-1 with a function from
 * index to value text (enum: the list; integer: lo + i*interval, zero-padded
 * to `digits`; date: start + i*interval units, formatted) and, for pins, the
 * inverse from text to index.  Nothing is materialised beyond what survives
 * the predicates: a pin on one day of a ten-year daily range evaluates one
 * candidate.  Dates are computed in UTC, bounds truncated to the format's
 * precision (as Trino does).  Supported format letters: yyyy, MM, dd, HH,
 * mm, ss; other characters are literals ('...' quotes letters).
 */
#include "plan/projection.h"

#include "vector/vector.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { P_ENUM, P_INTEGER, P_DATE, P_INJECTED };
enum { U_SECONDS, U_MINUTES, U_HOURS, U_DAYS, U_WEEKS, U_MONTHS, U_YEARS };

typedef struct pcol {
  int kind;
  char **values; /* enum; injected: the pinned values */
  size_t n_values;
  int64_t lo, step; /* integer: lo + i*step; date: start seconds, interval */
  int digits;
  const char *format;
  int unit;
  size_t count; /* size of the index space */
} pcol_t;

static hl_status_t bad_prop(const hl_table_t *t, const char *key, const char *why,
                            hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                    "partition projection of table \"%s.%s\": property \"%s\" %s", t->cat->db_name,
                    t->cat->name, key, why);
}

bool hl_plan_projection_enabled(const hl_table_t *t) {
  const char *v = hl_kv_get(t->cat->params, t->cat->n_params, "projection.enabled");
  return v && strcasecmp(v, "true") == 0;
}

static bool parse_i64(const char *s, int64_t *out) {
  while (isspace((unsigned char)*s))
    s++;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || errno) return false;
  while (isspace((unsigned char)*end))
    end++;
  if (*end) return false;
  *out = (int64_t)v;
  return true;
}

/* ------------------------------------------------------------- dates */

static int64_t unit_seconds(int unit) {
  static const int64_t secs[] = {1, 60, 3600, 86400, 604800, 0, 0};
  return secs[unit];
}

static int unit_parse(const char *s, size_t len) {
  static const char *const names[] = {"SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"};
  if (len && (s[len - 1] == 'S' || s[len - 1] == 's')) len--;
  for (int u = 0; u < 7; u++)
    if (strlen(names[u]) == len && strncasecmp(names[u], s, len) == 0) return u;
  return -1;
}

/* Adds N months to T (seconds), clamping the day to the month's length. */
static int64_t add_months(int64_t t, int64_t n) {
  int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
  int64_t rem = t - days * 86400;
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  int64_t total = y * 12 + (int64_t)(m - 1) + n;
  int64_t ny = total >= 0 ? total / 12 : -((-total + 11) / 12);
  unsigned nm = (unsigned)(total - ny * 12) + 1;
  static const unsigned mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  unsigned lim = mdays[nm - 1];
  if (nm == 2 && ((ny % 4 == 0 && ny % 100 != 0) || ny % 400 == 0)) lim = 29;
  if (d > lim) d = lim;
  return hl_days_from_civil(ny, nm, d) * 86400 + rem;
}

static int64_t date_step(const pcol_t *c, int64_t start, int64_t i) {
  if (c->unit == U_MONTHS) return add_months(start, i * c->step);
  if (c->unit == U_YEARS) return add_months(start, i * c->step * 12);
  return start + i * c->step * unit_seconds(c->unit);
}

/* The finest unit the format shows (U_YEARS if only the year). */
static int format_precision(const char *f) {
  int p = U_YEARS;
  bool quoted = false;
  for (; *f; f++) {
    if (*f == '\'') quoted = !quoted;
    if (quoted) continue;
    int u = *f == 's'   ? U_SECONDS
            : *f == 'm' ? U_MINUTES
            : *f == 'H' ? U_HOURS
            : *f == 'd' ? U_DAYS
            : *f == 'M' ? U_MONTHS
                        : U_YEARS;
    if (u < p) p = u;
  }
  return p;
}

static int64_t truncate_to(int64_t t, int prec) {
  if (prec <= U_DAYS) {
    int64_t s = prec == U_DAYS ? 86400 : unit_seconds(prec);
    return t - ((t % s) + s) % s;
  }
  int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  return hl_days_from_civil(y, prec == U_YEARS ? 1 : m, 1) * 86400;
}

/* Formats T with pattern F into B.  Returns false for an unsupported
 * pattern letter. */
static bool date_format(hl_buf_t *b, const char *f, int64_t t) {
  int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
  int64_t sec = t - days * 86400;
  int64_t y;
  unsigned m, d;
  hl_civil_from_days(days, &y, &m, &d);
  while (*f) {
    if (*f == '\'') {
      const char *e = strchr(f + 1, '\'');
      if (!e) return false;
      hl_buf_append(b, f + 1, (size_t)(e - f - 1));
      f = e + 1;
      continue;
    }
    size_t run = 1;
    while (f[run] == f[0])
      run++;
    if (f[0] == 'y' && run == 4)
      hl_buf_printf(b, "%04lld", (long long)y);
    else if (f[0] == 'M' && run == 2)
      hl_buf_printf(b, "%02u", m);
    else if (f[0] == 'd' && run == 2)
      hl_buf_printf(b, "%02u", d);
    else if (f[0] == 'H' && run == 2)
      hl_buf_printf(b, "%02d", (int)(sec / 3600));
    else if (f[0] == 'm' && run == 2)
      hl_buf_printf(b, "%02d", (int)(sec / 60 % 60));
    else if (f[0] == 's' && run == 2)
      hl_buf_printf(b, "%02d", (int)(sec % 60));
    else if (isalpha((unsigned char)f[0]))
      return false;
    else
      hl_buf_append(b, f, run);
    f += run;
  }
  return true;
}

/* Parses TEXT with pattern F (exact width fields) into *t. */
static bool date_parse(const char *f, const char *text, int64_t *t) {
  int64_t y = 1970;
  int m = 1, d = 1, hh = 0, mi = 0, ss = 0;
  const char *s = text;
  while (*f) {
    if (*f == '\'') {
      const char *e = strchr(f + 1, '\'');
      if (!e || strncmp(s, f + 1, (size_t)(e - f - 1)) != 0) return false;
      s += e - f - 1;
      f = e + 1;
      continue;
    }
    size_t run = 1;
    while (f[run] == f[0])
      run++;
    if (isalpha((unsigned char)f[0])) {
      int v = 0;
      for (size_t i = 0; i < run; i++, s++) {
        if (!isdigit((unsigned char)*s)) return false;
        v = v * 10 + (*s - '0');
      }
      switch (f[0]) {
      case 'y':
        y = v;
        break;
      case 'M':
        m = v;
        break;
      case 'd':
        d = v;
        break;
      case 'H':
        hh = v;
        break;
      case 'm':
        mi = v;
        break;
      case 's':
        ss = v;
        break;
      default:
        return false;
      }
    } else {
      if (strncmp(s, f, run) != 0) return false;
      s += run;
    }
    f += run;
  }
  if (*s || m < 1 || m > 12 || d < 1 || d > 31 || hh > 23 || mi > 59 || ss > 59) return false;
  *t = hl_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 + hh * 3600 + mi * 60 + ss;
  /* reject 2024-02-31 and the like: it must format back to itself */
  return true;
}

/* A range bound: a date in the format or NOW[(+|-)N UNIT]. */
static bool date_bound(const pcol_t *c, const char *text, int64_t now, int64_t *out) {
  while (isspace((unsigned char)*text))
    text++;
  size_t len = strlen(text);
  while (len && isspace((unsigned char)text[len - 1]))
    len--;
  if (len >= 3 && strncasecmp(text, "NOW", 3) == 0) {
    int64_t t = now;
    const char *p = text + 3, *end = text + len;
    if (p < end) {
      int sign = *p == '+' ? 1 : *p == '-' ? -1 : 0;
      if (!sign) return false;
      p++;
      int64_t n = 0;
      if (p >= end || !isdigit((unsigned char)*p)) return false;
      while (p < end && isdigit((unsigned char)*p)) {
        if (n > 100000000) return false;
        n = n * 10 + (*p++ - '0');
      }
      int u = unit_parse(p, (size_t)(end - p));
      if (u < 0) return false;
      t = u == U_MONTHS  ? add_months(t, sign * n)
          : u == U_YEARS ? add_months(t, sign * n * 12)
                         : t + sign * n * unit_seconds(u);
    }
    *out = truncate_to(t, format_precision(c->format));
    return true;
  }
  char copy[64];
  if (len >= sizeof copy) return false;
  memcpy(copy, text, len);
  copy[len] = '\0';
  return date_parse(c->format, copy, out);
}

/* ----------------------------------------------------- column spaces */

static const char *prop(const hl_table_t *t, hl_arena_t *arena, const char *col, const char *suffix,
                        char **key) {
  *key = hl_arena_sprintf(arena, "projection.%s.%s", col, suffix);
  return *key ? hl_kv_get(t->cat->params, t->cat->n_params, *key) : NULL;
}

static hl_status_t split_list(hl_arena_t *arena, const char *s, char ***out, size_t *n,
                              hl_error_t *err) {
  size_t cap = 1;
  for (const char *p = s; *p; p++)
    cap += *p == ',';
  char **v = hl_arena_alloc(arena, sizeof(char *) * cap);
  if (!v) return hl_err_nomem(err);
  size_t k = 0;
  for (const char *p = s;;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    if (!(v[k++] = hl_arena_strndup(arena, p, len))) return hl_err_nomem(err);
    if (!c) break;
    p = c + 1;
  }
  *out = v;
  *n = k;
  return HL_OK;
}

static hl_status_t col_init(const hl_table_t *t, int k, int64_t now, size_t cap, hl_arena_t *arena,
                            pcol_t *c, hl_error_t *err) {
  const char *col = t->cat->part_keys[k].name;
  char *key;
  const char *type = prop(t, arena, col, "type", &key);
  if (!key) return hl_err_nomem(err);
  if (!type) return bad_prop(t, key, "is missing", err);
  while (isspace((unsigned char)*type))
    type++;
  size_t tl = strlen(type);
  while (tl && isspace((unsigned char)type[tl - 1]))
    tl--;
  memset(c, 0, sizeof(*c));
  if (tl == 4 && strncasecmp(type, "enum", 4) == 0) {
    c->kind = P_ENUM;
    const char *v = prop(t, arena, col, "values", &key);
    if (!key) return hl_err_nomem(err);
    if (!v) return bad_prop(t, key, "is missing", err);
    hl_status_t rc = split_list(arena, v, &c->values, &c->n_values, err);
    if (rc != HL_OK) return rc;
    c->count = c->n_values;
    return HL_OK;
  }
  if (tl == 8 && strncasecmp(type, "injected", 8) == 0) {
    c->kind = P_INJECTED;
    return HL_OK;
  }
  bool is_int = tl == 7 && strncasecmp(type, "integer", 7) == 0;
  bool is_date = tl == 4 && strncasecmp(type, "date", 4) == 0;
  if (!is_int && !is_date) return bad_prop(t, key, "must be enum, integer, date or injected", err);
  c->kind = is_int ? P_INTEGER : P_DATE;
  c->step = 1;
  const char *iv = prop(t, arena, col, "interval", &key);
  if (!key) return hl_err_nomem(err);
  if (iv && (!parse_i64(iv, &c->step) || c->step <= 0 || c->step > 1000000000))
    return bad_prop(t, key, "must be a positive integer", err);
  char *range_key;
  const char *range = prop(t, arena, col, "range", &range_key);
  if (!range_key) return hl_err_nomem(err);
  if (!range) return bad_prop(t, range_key, "is missing", err);
  const char *comma = strchr(range, ',');
  if (!comma || strchr(comma + 1, ','))
    return bad_prop(t, range_key, "must be two bounds separated by a comma", err);
  char *lo_text = hl_arena_strndup(arena, range, (size_t)(comma - range));
  if (!lo_text) return hl_err_nomem(err);
  int64_t lo, hi;
  if (is_int) {
    const char *dg = prop(t, arena, col, "digits", &key);
    if (!key) return hl_err_nomem(err);
    int64_t digits = 0;
    if (dg && (!parse_i64(dg, &digits) || digits < 1 || digits > 19))
      return bad_prop(t, key, "must be an integer from 1 to 19", err);
    c->digits = (int)digits;
    if (!parse_i64(lo_text, &lo) || !parse_i64(comma + 1, &hi) || lo > hi)
      return bad_prop(t, range_key, "must be two integers min,max with min <= max", err);
    c->lo = lo;
    c->count = (size_t)(((unsigned __int128)((__int128)hi - lo)) / (uint64_t)c->step) + 1;
  } else {
    c->format = prop(t, arena, col, "format", &key);
    if (!key) return hl_err_nomem(err);
    if (!c->format) return bad_prop(t, key, "is missing", err);
    hl_buf_t probe;
    hl_buf_init(&probe);
    bool fmt_ok = date_format(&probe, c->format, 0);
    hl_buf_fini(&probe);
    if (!fmt_ok)
      return bad_prop(t, key, "uses a pattern letter other than yyyy MM dd HH mm ss", err);
    const char *unit = prop(t, arena, col, "interval.unit", &key);
    if (!key) return hl_err_nomem(err);
    int prec = format_precision(c->format);
    if (unit) {
      c->unit = unit_parse(unit, strlen(unit));
      if (c->unit < 0) return bad_prop(t, key, "is not a known unit", err);
    } else if (prec == U_DAYS || prec == U_MONTHS || prec == U_YEARS) {
      c->unit = prec;
    } else {
      return bad_prop(t, key, "is required for a format finer than a day", err);
    }
    if (!date_bound(c, lo_text, now, &lo) || !date_bound(c, comma + 1, now, &hi) || lo > hi)
      return bad_prop(t, range_key,
                      "must be start,end in the format (or NOW[+-N UNIT]) with start <= end", err);
    c->lo = lo;
    if (c->unit == U_MONTHS || c->unit == U_YEARS) {
      /* months between, then step back while past the end */
      int64_t months = 0, y1, y2;
      unsigned m1, m2, d;
      hl_civil_from_days(lo / 86400, &y1, &m1, &d);
      hl_civil_from_days(hi / 86400, &y2, &m2, &d);
      months = (y2 - y1) * 12 + (int64_t)m2 - (int64_t)m1;
      int64_t per = c->step * (c->unit == U_YEARS ? 12 : 1);
      int64_t n = months / per;
      while (n > 0 && date_step(c, lo, n) > hi)
        n--;
      c->count = (size_t)n + 1;
    } else {
      c->count = (size_t)((hi - lo) / (c->step * unit_seconds(c->unit))) + 1;
    }
  }
  if (c->count > cap)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "partition projection of column \"%s\" has %zu values, more than %zu "
                      "(hivelite.max_partitions_per_table)",
                      col, c->count, cap);
  return HL_OK;
}

/* Text of value I of column C in ARENA (NULL on OOM). */
static char *col_value(const pcol_t *c, size_t i, hl_arena_t *arena) {
  if (c->kind == P_ENUM || c->kind == P_INJECTED) return c->values[i];
  if (c->kind == P_INTEGER) {
    int64_t v = c->lo + (int64_t)i * c->step;
    return v < 0 ? hl_arena_sprintf(arena, "-%0*lld", c->digits, -(long long)v)
                 : hl_arena_sprintf(arena, "%0*lld", c->digits, (long long)v);
  }
  hl_buf_t b;
  hl_buf_init(&b);
  date_format(&b, c->format, date_step(c, c->lo, (int64_t)i));
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* Index of TEXT in C's space, or false.  Dates are verified by formatting
 * back, so 2024-02-31 or 2024-3-5 match nothing. */
static bool col_index(const pcol_t *c, const char *text, size_t *idx, hl_arena_t *arena) {
  size_t guess;
  if (c->kind == P_ENUM) {
    for (size_t i = 0; i < c->n_values; i++)
      if (strcmp(c->values[i], text) == 0) return *idx = i, true;
    return false;
  }
  if (c->kind == P_INTEGER) {
    int64_t v;
    if (!parse_i64(text, &v) || v < c->lo || (v - c->lo) % c->step) return false;
    /* no format-back check: an INT key's 7 is digits=2's "07" (the
     * conjunct, evaluated on the candidate, decides) */
    *idx = (size_t)((v - c->lo) / c->step);
    return *idx < c->count;
  } else {
    int64_t t;
    if (!date_parse(c->format, text, &t) || t < c->lo) return false;
    if (c->unit == U_MONTHS || c->unit == U_YEARS) {
      int64_t y1, y2;
      unsigned m1, m2, d;
      hl_civil_from_days(c->lo / 86400, &y1, &m1, &d);
      hl_civil_from_days(t / 86400, &y2, &m2, &d);
      int64_t per = c->step * (c->unit == U_YEARS ? 12 : 1);
      int64_t months = (y2 - y1) * 12 + (int64_t)m2 - (int64_t)m1;
      if (months % per) return false;
      guess = (size_t)(months / per);
    } else {
      int64_t step = c->step * unit_seconds(c->unit);
      if ((t - c->lo) % step) return false;
      guess = (size_t)((t - c->lo) / step);
    }
  }
  if (guess >= c->count) return false;
  char *back = col_value(c, guess, arena);
  if (!back || strcmp(back, text) != 0) return false;
  *idx = guess;
  return true;
}

/* ------------------------------------------------------- predicates */

/* True when E references only scan column COL (and constants). */
static bool only_column(const hl_expr_t *e, int col, bool *seen) {
  if (e->kind == HL_EX_COLUMN) {
    if (e->col != col) return false;
    *seen = true;
  }
  for (int k = 0; k < e->n_args; k++)
    if (!only_column(e->args[k], col, seen)) return false;
  return true;
}

/* Constant texts that pin column COL: `col = c` or `col IN (c, ...)`
 * (the column possibly under a cast the binder added).  *n = 0 and false
 * when E is not such a pin. */
static bool pin_values(const hl_expr_t *e, int col, const hl_type_t *key_type, hl_arena_t *arena,
                       char ***out, size_t *n) {
  const hl_expr_t *lhs;
  int first, last;
  if (e->kind == HL_EX_CMP && e->op == HL_XOP_EQ && e->n_args == 2) {
    lhs = e->args[0];
    first = last = 1;
    if (lhs->kind == HL_EX_CONST) {
      lhs = e->args[1];
      first = last = 0;
    }
  } else if (e->kind == HL_EX_IN && !e->negated && e->n_args >= 2) {
    lhs = e->args[0];
    first = 1;
    last = e->n_args - 1;
  } else {
    return false;
  }
  if (lhs->kind != HL_EX_COLUMN || lhs->col != col) return false;
  char **v = hl_arena_alloc(arena, sizeof(char *) * (size_t)(last - first + 1));
  if (!v) return false;
  size_t k = 0;
  for (int i = first; i <= last; i++) {
    const hl_expr_t *a = e->args[i];
    if (a->kind != HL_EX_CONST) return false;
    if (a->value.is_null) continue; /* = NULL matches nothing */
    hl_buf_t b;
    hl_buf_init(&b);
    hl_value_format(&b, a->type ? a->type : key_type, &a->value);
    v[k] = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    if (!v[k++]) return false;
  }
  *out = v;
  *n = k;
  return true;
}

/* Evaluates PREDS over rows of key values (ROWS[r][k] texts) in one batch;
 * marks survivors in KEEP. */
static hl_status_t eval_rows(const hl_table_t *t, hl_batch_t *batch, hl_expr_t *const *preds,
                             int n_preds, char ***rows, size_t n_rows, bool *keep,
                             hl_error_t *err) {
  if (hl_batch_reset(batch) != HL_OK) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  for (size_t r = 0; r < n_rows && rc == HL_OK; r++)
    for (int k = 0; k < t->n_part && rc == HL_OK; k++) {
      hl_value_t v;
      rc = hl_table_part_value(t, k, rows[r][k], batch->arena, &v, err);
      if (rc == HL_OK &&
          hl_vec_put_value(&batch->cols[t->n_data + k], batch->arena, (uint32_t)r, &v) != HL_OK)
        rc = hl_err_nomem(err);
    }
  batch->n_rows = (uint32_t)n_rows;
  for (int p = 0; p < n_preds && rc == HL_OK; p++)
    rc = hl_expr_filter(preds[p], batch, batch->arena, err);
  if (rc != HL_OK) return rc;
  memset(keep, 0, n_rows);
  for (uint32_t i = 0; i < hl_batch_live(batch); i++)
    keep[hl_batch_row(batch, i)] = true;
  return HL_OK;
}

/* --------------------------------------------------------- pruning */

hl_status_t hl_plan_projection_prune(const hl_session_t *s, const hl_table_t *t,
                                     hl_expr_t *const *preds, int n_preds, int64_t now_secs,
                                     hl_arena_t *arena, hl_cat_partition_t **out, size_t *n_out,
                                     size_t *n_total, hl_error_t *err) {
  size_t cap = 1000000;
  const char *cap_text = hl_session_get(s, "hivelite.max_partitions_per_table");
  int64_t cap_v;
  if (cap_text && parse_i64(cap_text, &cap_v) && cap_v > 0) cap = (size_t)cap_v;
  int np = t->n_part;
  pcol_t *cols = hl_arena_zalloc(arena, sizeof(pcol_t) * (size_t)np);
  size_t **cand = hl_arena_zalloc(arena, sizeof(size_t *) * (size_t)np); /* surviving indexes */
  size_t *n_cand = hl_arena_zalloc(arena, sizeof(size_t) * (size_t)np);
  hl_expr_t **col_preds = hl_arena_alloc(arena, sizeof(hl_expr_t *) * (size_t)(n_preds + 1));
  char ***rows = hl_arena_alloc(arena, sizeof(char **) * HL_BATCH_CAP);
  bool *keep = hl_arena_alloc(arena, HL_BATCH_CAP);
  const hl_type_t **types = hl_arena_alloc(arena, sizeof(hl_type_t *) * (size_t)t->n_all);
  if (!cols || !cand || !n_cand || !col_preds || !rows || !keep || !types) return hl_err_nomem(err);
  for (int c = 0; c < t->n_all; c++)
    types[c] = c < t->n_data ? hl_type_prim(HL_T_NULL) : t->types[c];
  for (size_t r = 0; r < HL_BATCH_CAP; r++)
    if (!(rows[r] = hl_arena_zalloc(arena, sizeof(char *) * (size_t)np))) return hl_err_nomem(err);
  hl_batch_t *batch = hl_batch_create(t->n_all, types);
  if (!batch) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  __int128 total = 1;

  for (int k = 0; k < np && rc == HL_OK; k++) {
    pcol_t *c = &cols[k];
    int scan_col = t->n_data + k;
    rc = col_init(t, k, now_secs, cap, arena, c, err);
    if (rc != HL_OK) break;
    /* single-column conjuncts and the narrowest pin among them */
    int n_cp = 0;
    char **pin = NULL;
    size_t n_pin = 0;
    bool pinned = false;
    for (int p = 0; p < n_preds; p++) {
      bool seen = false;
      if (!only_column(preds[p], scan_col, &seen) || !seen) continue;
      col_preds[n_cp++] = preds[p];
      char **v;
      size_t n;
      if (pin_values(preds[p], scan_col, t->types[scan_col], arena, &v, &n) &&
          (!pinned || n < n_pin)) {
        pin = v;
        n_pin = n;
        pinned = true;
      }
    }
    if (c->kind == P_INJECTED) {
      if (!pinned) {
        rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "partition column \"%s\" of table \"%s.%s\" is projected as injected: "
                        "the query must fix it with = or IN",
                        t->cat->part_keys[k].name, t->cat->db_name, t->cat->name);
        break;
      }
      c->values = pin;
      c->n_values = c->count = n_pin;
    }
    total *= c->count ? (__int128)c->count : 1;
    if (c->count == 0) total = 0;
    /* candidate indexes: the pinned ones, else the whole space */
    size_t n_idx = pinned ? n_pin : c->count;
    size_t *idx = hl_arena_alloc(arena, sizeof(size_t) * (n_idx + 1));
    if (!idx) {
      rc = hl_err_nomem(err);
      break;
    }
    size_t m = 0;
    if (c->kind == P_INJECTED) {
      for (size_t i = 0; i < n_pin; i++)
        idx[m++] = i;
    } else if (pinned) {
      for (size_t i = 0; i < n_pin; i++) {
        size_t j;
        bool dup = false;
        if (!col_index(c, pin[i], &j, arena)) continue;
        for (size_t q = 0; q < m && !dup; q++)
          dup = idx[q] == j;
        if (!dup) idx[m++] = j;
      }
    } else {
      for (size_t i = 0; i < n_idx; i++)
        idx[m++] = i;
    }
    /* filter the candidates by this column's conjuncts, batch by batch;
     * other columns are NULL in these rows, which no single-column
     * conjunct reads */
    size_t kept = 0;
    for (size_t start = 0; start < m && rc == HL_OK; start += HL_BATCH_CAP) {
      size_t n = m - start < HL_BATCH_CAP ? m - start : HL_BATCH_CAP;
      hl_arena_t *scratch = hl_arena_create(0);
      if (!scratch) {
        rc = hl_err_nomem(err);
        break;
      }
      for (size_t r = 0; r < n && rc == HL_OK; r++) {
        memset(rows[r], 0, sizeof(char *) * (size_t)np);
        if (!(rows[r][k] = col_value(c, idx[start + r], scratch))) rc = hl_err_nomem(err);
      }
      if (rc == HL_OK) rc = eval_rows(t, batch, col_preds, n_cp, rows, n, keep, err);
      for (size_t r = 0; r < n && rc == HL_OK; r++)
        if (keep[r]) idx[kept++] = idx[start + r];
      hl_arena_destroy(scratch);
    }
    cand[k] = idx;
    n_cand[k] = kept;
  }

  /* the cross product of the survivors, filtered by every conjunct */
  size_t n_keep = 0, cap_keep = 0;
  hl_cat_partition_t *parts = NULL;
  __int128 product = 1;
  for (int k = 0; k < np && rc == HL_OK; k++)
    product *= n_cand[k];
  if (rc == HL_OK && product > (__int128)cap)
    rc = hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                    "partition projection of table \"%s.%s\" selects more than %zu partitions "
                    "(hivelite.max_partitions_per_table); add a predicate on a partition column",
                    t->cat->db_name, t->cat->name, cap);
  size_t *odo = hl_arena_zalloc(arena, sizeof(size_t) * (size_t)np);
  if (rc == HL_OK && !odo) rc = hl_err_nomem(err);
  bool done = rc != HL_OK || product == 0;
  const char *tmpl = hl_kv_get(t->cat->params, t->cat->n_params, "storage.location.template");
  while (!done && rc == HL_OK) {
    size_t n = 0;
    hl_arena_t *scratch = hl_arena_create(0);
    if (!scratch) {
      rc = hl_err_nomem(err);
      break;
    }
    while (n < HL_BATCH_CAP && !done && rc == HL_OK) {
      for (int k = 0; k < np; k++) {
        rows[n][k] = col_value(&cols[k], cand[k][odo[k]], scratch);
        if (!rows[n][k]) rc = hl_err_nomem(err);
      }
      n++;
      int k = np - 1;
      while (k >= 0 && ++odo[k] == n_cand[k])
        odo[k--] = 0;
      done = k < 0;
    }
    if (rc == HL_OK) rc = eval_rows(t, batch, preds, n_preds, rows, n, keep, err);
    for (size_t r = 0; r < n && rc == HL_OK; r++) {
      if (!keep[r]) continue;
      if (n_keep == cap_keep) {
        size_t ncap = cap_keep ? cap_keep * 2 : 16;
        hl_cat_partition_t *grown =
            hl_arena_realloc(arena, parts, sizeof(*parts) * cap_keep, sizeof(*parts) * ncap);
        if (!grown) {
          rc = hl_err_nomem(err);
          break;
        }
        parts = grown;
        cap_keep = ncap;
      }
      hl_cat_partition_t *p = &parts[n_keep++];
      memset(p, 0, sizeof(*p));
      p->table_id = t->cat->id;
      p->n_values = np;
      p->values = hl_arena_alloc(arena, sizeof(char *) * (size_t)np);
      if (!p->values) {
        rc = hl_err_nomem(err);
        break;
      }
      for (int k = 0; k < np && rc == HL_OK; k++)
        if (!(p->values[k] = hl_arena_strdup(arena, rows[r][k]))) rc = hl_err_nomem(err);
      if (rc != HL_OK) break;
      p->name = hl_table_part_name(t, p->values, "__HIVE_DEFAULT_PARTITION__", arena);
      if (tmpl) {
        hl_buf_t b;
        hl_buf_init(&b);
        for (const char *q = tmpl; *q;) {
          const char *e = q[0] == '$' && q[1] == '{' ? strchr(q, '}') : NULL;
          int key = -1;
          for (int k = 0; e && k < np && key < 0; k++)
            if (strlen(t->cat->part_keys[k].name) == (size_t)(e - q - 2) &&
                strncasecmp(q + 2, t->cat->part_keys[k].name, (size_t)(e - q - 2)) == 0)
              key = k;
          if (key >= 0) {
            hl_buf_puts(&b, p->values[key]);
            q = e + 1;
          } else {
            hl_buf_putc(&b, *q++);
          }
        }
        p->location = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
        hl_buf_fini(&b);
      } else {
        p->location = hl_table_part_path(t, p->values, "__HIVE_DEFAULT_PARTITION__", arena);
      }
      if (!p->name || !p->location) rc = hl_err_nomem(err);
    }
    hl_arena_destroy(scratch);
  }
  hl_batch_destroy(batch);
  if (rc != HL_OK) return rc;
  *out = parts;
  *n_out = n_keep;
  *n_total = total > (__int128)SIZE_MAX ? SIZE_MAX : (size_t)total;
  return HL_OK;
}
