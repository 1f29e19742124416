/*
 * text_regex.c -- Hive's RegexSerDe (org.apache.hadoop.hive.serde2.RegexSerDe)
 * for the text reader: the table's input.regex compiled once per file, a
 * line matched against it, and Java's valueOf conversions of the groups.
 *
 * text_read.c asks for a line's match and stores each group into its
 * column.  The rules are Hive 4's RegexSerDe: the whole line must match
 * (Matcher.matches), otherwise the row is all NULL; the pattern must have
 * exactly one group per column, else every line fails; a group that did
 * not take part is NULL; primitive columns of every type but BINARY.
 * Java's syntax is brought to POSIX ERE first (rewrite: (?:...) groups,
 * escapes inside [...]), then through the regexp functions' compiler
 * (vector/func_int.h: \d rewritten, stacked quantifiers and huge
 * repetition counts refused), so a table's pattern cannot blow up either.
 * POSIX matching is leftmost-longest where Java's is leftmost-first: a
 * pattern whose groups can split a line several ways may split it
 * differently (the whole-line test is the same).
 */
#include "format/text/text_int.h"

#include "util/mem.h"
#include "vector/func_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct hl_text_regex {
  regex_t re;
  bool live;     /* regcomp succeeded */
  int n_cols;    /* columns the groups fill */
  size_t n_java; /* Java's group count: POSIX's minus the (?:...) ones */
  size_t *group; /* Java group k (1-based) -> POSIX group; n_java + 1 */
  regmatch_t *m; /* every POSIX group, re_nsub + 1 */
  bool checked;  /* group count compared with the columns */
};

/* A Java bracket expression PAT[i..] ('[' at I) as a POSIX one appended
 * to Z at *O; returns the index of its closing ']'.  Java escapes inside
 * brackets (\] \[ \\ \- \^, \t \n, \d \s \w) mean what they say, which
 * POSIX brackets have no escapes for: the members are collected and laid
 * out by POSIX's rules (']' first, '^' not first, '-' last). */
static hl_status_t bracket(const char *pat, size_t len, size_t i, char *z, size_t *o, size_t *end,
                           hl_error_t *err) {
  size_t j = i + 1;
  bool neg = j < len && pat[j] == '^';
  if (neg) j++;
  bool rb = false, caret = false, dash = false, bslash = false;
  char body[1024];
  size_t b = 0;
  for (bool first = true; j < len && (first || pat[j] != ']'); first = false) {
    char c = pat[j++];
    if (c == '\\' && j < len) {
      char e = pat[j++];
      const char *cls = e == 'd' ? "0-9" : e == 's' ? "[:space:]" : e == 'w' ? "[:alnum:]_" : NULL;
      if (cls) {
        size_t n = strlen(cls);
        if (b + n >= sizeof body) goto too_long;
        memcpy(body + b, cls, n);
        b += n;
        continue;
      }
      if (e == 'D' || e == 'S' || e == 'W' || e == 'p' || e == 'P')
        return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                          "input.regex \"%s\": \\%c inside [...] is not supported", pat, e);
      c = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e;
    } else if (c == '-' && j < len && pat[j] != ']' && b > 0) { /* a range lo-hi */
      char hi = pat[j++];
      if (hi == '\\' && j < len) hi = pat[j++];
      if (b + 2 >= sizeof body) goto too_long;
      body[b++] = '-';
      body[b++] = hi;
      continue;
    }
    if (c == ']')
      rb = true;
    else if (c == '^')
      caret = true;
    else if (c == '-')
      dash = true;
    else if (c == '\\')
      bslash = true;
    else {
      if (b + 1 >= sizeof body) goto too_long;
      body[b++] = c;
    }
  }
  if (j >= len)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_REGULAR_EXPRESSION),
                      "invalid regular expression \"%s\": unclosed character class", pat);
  if (!neg && !rb && !dash && !bslash && b == 0 && caret) { /* just '^' */
    z[(*o)++] = '\\';
    z[(*o)++] = '^';
  } else {
    z[(*o)++] = '[';
    if (neg) z[(*o)++] = '^';
    if (rb) z[(*o)++] = ']';
    memcpy(z + *o, body, b);
    *o += b;
    if (caret) z[(*o)++] = '^';
    if (bslash) z[(*o)++] = '\\';
    if (dash) z[(*o)++] = '-';
    z[(*o)++] = ']';
  }
  *end = j;
  return HL_OK;
too_long:
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "input.regex \"%s\": a character class longer than 1000 is not supported", pat);
}

/* Java's pattern as POSIX: bracket expressions by bracket(), and the
 * non-capturing groups "(?:" as plain groups, so *GROUP (in ARENA) maps
 * Java's group numbers to POSIX's.  Other escapes are copied for
 * hl_regex_compile_flags (\d, and \x as x). */
static hl_status_t rewrite(const char *pat, hl_arena_t *arena, char **out, size_t **group,
                           size_t *n_java, hl_error_t *err) {
  size_t len = strlen(pat);
  /* a bracket grows at most by its classes: 10 bytes per 2 */
  char *z = hl_arena_alloc(arena, len * 6 + 8);
  size_t *map = hl_arena_alloc(arena, (len + 1) * sizeof *map);
  if (!z || !map) return hl_err_nomem(err);
  size_t o = 0, posix = 0, java = 0;
  map[0] = 0;
  for (size_t i = 0; i < len; i++) {
    char c = pat[i];
    if (c == '\\' && i + 1 < len) {
      z[o++] = c;
      z[o++] = pat[++i];
    } else if (c == '[') {
      hl_status_t st = bracket(pat, len, i, z, &o, &i, err);
      if (st != HL_OK) return st;
    } else if (c == '(') {
      posix++;
      z[o++] = c;
      if (i + 2 < len && pat[i + 1] == '?' && pat[i + 2] == ':')
        i += 2;
      else
        map[++java] = posix;
    } else {
      z[o++] = c;
    }
  }
  z[o] = '\0';
  *out = z;
  *group = map;
  *n_java = java;
  return HL_OK;
}

hl_status_t hl_text_regex_open(const hl_text_format_t *fmt, int n_cols,
                               const hl_type_t *const *types, const char *const *names,
                               hl_text_regex_t **out, hl_error_t *err) {
  *out = NULL;
  for (int col = 0; col < n_cols; col++) {
    hl_type_id_t id = types[col]->id;
    if (hl_type_is_complex(types[col]) || id == HL_T_BINARY)
      return hl_err_set(err, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                        "RegexSerDe does not allow column \"%s\" of type %s (only primitive "
                        "types other than BINARY)",
                        names ? names[col] : "?", hl_type_id_name(id));
  }
  hl_text_regex_t *rx = hl_calloc(1, sizeof *rx);
  hl_arena_t *tmp = hl_arena_create(0);
  char *pat = NULL;
  size_t *map = NULL;
  hl_status_t st = !rx || !tmp ? hl_err_nomem(err) : HL_OK;
  if (st == HL_OK) st = rewrite(fmt->input_regex, tmp, &pat, &map, &rx->n_java, err);
  if (st == HL_OK)
    st = hl_regex_compile_flags(&rx->re, pat, strlen(pat), fmt->regex_icase ? REG_ICASE : 0, tmp,
                                -1, err); /* no position: the pattern is no statement text */
  if (st == HL_OK) {
    rx->live = true;
    rx->n_cols = n_cols;
    rx->m = hl_calloc(rx->re.re_nsub + 1, sizeof *rx->m);
    rx->group = hl_calloc(rx->n_java + 1, sizeof *rx->group);
    if (!rx->m || !rx->group) st = hl_err_nomem(err);
  }
  if (st == HL_OK) memcpy(rx->group, map, (rx->n_java + 1) * sizeof *map);
  hl_arena_destroy(tmp);
  if (st != HL_OK) {
    hl_text_regex_close(rx);
    return st;
  }
  *out = rx;
  return HL_OK;
}

void hl_text_regex_close(hl_text_regex_t *rx) {
  if (!rx) return;
  if (rx->live) regfree(&rx->re);
  hl_free(rx->m);
  hl_free(rx->group);
  hl_free(rx);
}

hl_status_t hl_text_regex_match(hl_text_regex_t *rx, const char *p, size_t n, bool *matched,
                                hl_error_t *err) {
  *matched = false;
  if (!rx->checked) { /* Hive checks it per row, so an empty file reads */
    if (rx->n_java != (size_t)rx->n_cols)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "RegexSerDe: the input.regex has %zu group%s but the table %d column%s "
                        "(Hive: number of matching groups doesn't match the number of columns)",
                        rx->n_java, rx->n_java == 1 ? "" : "s", rx->n_cols,
                        rx->n_cols == 1 ? "" : "s");
    rx->checked = true;
  }
  /* REG_STARTEND: the line need not end in NUL and may hold NULs.  POSIX
   * takes the leftmost-longest match, so when the whole line can match,
   * the match found spans it; anything shorter means no full match. */
  rx->m[0].rm_so = 0;
  rx->m[0].rm_eo = (regoff_t)n;
  if (regexec(&rx->re, p ? p : "", rx->re.re_nsub + 1, rx->m, REG_STARTEND) != 0) return HL_OK;
  *matched = rx->m[0].rm_so == 0 && (size_t)rx->m[0].rm_eo == n;
  return HL_OK;
}

bool hl_text_regex_group(const hl_text_regex_t *rx, int col, size_t *off, size_t *len) {
  const regmatch_t *g = &rx->m[rx->group[col + 1]];
  if (g->rm_so < 0) return false;
  *off = (size_t)g->rm_so;
  *len = (size_t)(g->rm_eo - g->rm_so);
  return true;
}

/* Java's Long.parseLong: an optional sign, then ASCII digits only, within
 * [LO, HI]. */
static bool java_integer(const char *p, size_t n, int64_t lo, int64_t hi, int64_t *out) {
  size_t i = 0;
  bool neg = false;
  if (n && (p[0] == '-' || p[0] == '+')) neg = p[i++] == '-';
  if (i == n) return false;
  uint64_t v = 0, limit = neg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi;
  for (; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return false;
    v = v * 10 + (uint64_t)(p[i] - '0');
    if (v > limit) return false;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

/* Java's Double.valueOf: white space (<= ' ') trimmed, "NaN" and
 * "[+-]Infinity" spelled exactly, a decimal or hex number with an optional
 * trailing f/F/d/D; strtod does the number, but none of its own words. */
static bool java_double(const char *p, size_t n, bool single, double *out) {
  while (n && (unsigned char)p[0] <= ' ')
    p++, n--;
  while (n && (unsigned char)p[n - 1] <= ' ')
    n--;
  char buf[128];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, p, n);
  buf[n] = '\0';
  const char *body = buf + (buf[0] == '+' || buf[0] == '-');
  if (strcmp(body, "NaN") == 0) return *out = NAN, true;
  if (strcmp(body, "Infinity") == 0) return *out = buf[0] == '-' ? -INFINITY : INFINITY, true;
  if (!((*body >= '0' && *body <= '9') || *body == '.')) return false; /* no inf / nan words */
  if (strchr("fFdD", buf[n - 1]) && !(body[0] == '0' && (body[1] == 'x' || body[1] == 'X')))
    buf[--n] = '\0';
  char *end = NULL;
  errno = 0;
  double d = single ? (double)strtof(buf, &end) : strtod(buf, &end);
  if (end != buf + n || end == buf) return false;
  *out = d; /* overflow is Infinity in Java too */
  return true;
}

bool hl_text_regex_java_value(const hl_type_t *type, const char *p, size_t n, bool present,
                              hl_value_t *out) {
  memset(out, 0, sizeof *out);
  int64_t v = 0;
  switch (type->id) {
  case HL_T_BOOLEAN: /* Boolean.valueOf: "true" in any case, else false (null too) */
    out->u.b = present && n == 4 && strncasecmp(p, "true", 4) == 0;
    return true;
  case HL_T_TINYINT:
  case HL_T_SMALLINT:
  case HL_T_INT:
  case HL_T_BIGINT: {
    int64_t hi = type->id == HL_T_TINYINT    ? INT8_MAX
                 : type->id == HL_T_SMALLINT ? INT16_MAX
                 : type->id == HL_T_INT      ? INT32_MAX
                                             : INT64_MAX;
    if (present && java_integer(p, n, -hi - 1, hi, &v))
      out->u.i = v;
    else
      out->is_null = true;
    return true;
  }
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    if (!present || !java_double(p, n, type->id == HL_T_FLOAT, &out->u.d)) out->is_null = true;
    return true;
  default:
    return false;
  }
}
