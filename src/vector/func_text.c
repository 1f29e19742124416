/*
 * func_text.c -- the string functions Hive added after the basics of
 * func_str.c: substring_index, find_in_set, elt, field, translate,
 * levenshtein, soundex, chr, octet/character length, quote, str_to_map,
 * parse_url, and the data masking functions (mask, mask_first_n,
 * mask_last_n, mask_show_first_n, mask_show_last_n, mask_hash).
 *
 * Characters are UTF-8 code points, as Java's String counts them for the
 * BMP.  A NULL argument gives NULL unless a function's comment says
 * otherwise.  Signatures are in func.c.
 */
#include "vector/func_int.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#define NULL_ARG(i)                                                                                \
  do {                                                                                             \
    if (a[i].is_null) {                                                                            \
      out->is_null = true;                                                                         \
      return HL_OK;                                                                                \
    }                                                                                              \
  } while (0)

static hl_status_t put(hl_value_t *out, hl_arena_t *arena, hl_error_t *err, const char *s,
                       size_t n) {
  char *p = hl_fn_alloc_str(out, arena, n);
  if (!p) return hl_err_nomem(err);
  if (n) memcpy(p, s, n);
  return HL_OK;
}

/* Decodes the code point at S[*I] (malformed bytes read as themselves). */
static uint32_t utf8_decode(const char *s, size_t n, size_t *i) {
  unsigned char c = (unsigned char)s[*i];
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (*i + (size_t)extra >= n) extra = 0;
  uint32_t cp = extra ? c & (0x3F >> extra) : c;
  for (int k = 1; k <= extra; k++)
    cp = cp << 6 | ((unsigned char)s[*i + (size_t)k] & 0x3F);
  *i += (size_t)extra + 1;
  return cp;
}

static size_t utf8_encode(uint32_t cp, char *o) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | cp >> 6);
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | cp >> 12);
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | cp >> 18);
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Code points of S in ARENA; *N their count.  NULL on OOM. */
static uint32_t *code_points(hl_str_t s, hl_arena_t *arena, size_t *n) {
  uint32_t *cp = hl_arena_alloc(arena, sizeof(uint32_t) * (s.len ? s.len : 1));
  if (!cp) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < s.len;)
    cp[k++] = utf8_decode(s.ptr, s.len, &i);
  *n = k;
  return cp;
}

/* substring_index(s, delim, count): the text before the count-th delim
 * (from the right for a negative count); the whole string when there are
 * fewer; '' for count 0 or an empty delim. */
HL_FN(hl_fn_substring_index) {
  NULL_ARG(0);
  NULL_ARG(1);
  NULL_ARG(2);
  hl_str_t s = a[0].u.s, d = a[1].u.s;
  int64_t count = a[2].u.i;
  if (count == 0 || d.len == 0 || s.len == 0) return put(out, arena, err, "", 0);
  if (count > 0) {
    size_t i = 0;
    while (i + d.len <= s.len) {
      if (memcmp(s.ptr + i, d.ptr, d.len) == 0) {
        if (--count == 0) return put(out, arena, err, s.ptr, i);
        i += d.len;
      } else {
        i++;
      }
    }
  } else {
    int64_t i = (int64_t)s.len - (int64_t)d.len;
    while (i >= 0) {
      if (memcmp(s.ptr + i, d.ptr, d.len) == 0) {
        if (++count == 0) return put(out, arena, err, s.ptr + i + d.len, s.len - (size_t)i - d.len);
        i -= (int64_t)d.len;
      } else {
        i--;
      }
    }
  }
  *out = a[0];
  return HL_OK;
}

/* find_in_set(s, list): the 1-based position of s among the comma-separated
 * items of list; 0 when absent or when s holds a comma. */
HL_FN(hl_fn_find_in_set) {
  NULL_ARG(0);
  NULL_ARG(1);
  hl_str_t s = a[0].u.s, l = a[1].u.s;
  out->u.i = 0;
  if (memchr(s.ptr, ',', s.len)) return HL_OK;
  int64_t pos = 1;
  size_t start = 0;
  for (size_t i = 0; i <= l.len; i++) {
    if (i == l.len || l.ptr[i] == ',') {
      if (i - start == s.len && memcmp(l.ptr + start, s.ptr, s.len) == 0) {
        out->u.i = pos;
        return HL_OK;
      }
      pos++;
      start = i + 1;
    }
  }
  return HL_OK;
}

/* elt(n, s1, s2, ...): the n-th string; NULL when n is out of range. */
HL_FN(hl_fn_elt) {
  NULL_ARG(0);
  int64_t n = a[0].u.i;
  if (n < 1 || n >= call->n_args) {
    out->is_null = true;
    return HL_OK;
  }
  *out = a[n];
  return HL_OK;
}

/* field(v, v1, v2, ...): the 1-based index of the first vi equal to v; 0
 * when there is none or v is NULL (not NULL: Hive). */
HL_FN(hl_fn_field) {
  out->u.i = 0;
  if (a[0].is_null) return HL_OK;
  for (int i = 1; i < call->n_args; i++)
    if (!a[i].is_null && hl_value_compare(call->args[0]->type, &a[0], &a[i]) == 0) {
      out->u.i = i;
      return HL_OK;
    }
  return HL_OK;
}

/* translate(s, from, to): each character of s found in from is replaced by
 * the character at the same position of to, or removed when to is
 * shorter; the first occurrence in from counts. */
HL_FN(hl_fn_translate) {
  NULL_ARG(0);
  NULL_ARG(1);
  NULL_ARG(2);
  size_t nf, nt;
  uint32_t *from = code_points(a[1].u.s, arena, &nf), *to = code_points(a[2].u.s, arena, &nt);
  char *o = from && to ? hl_arena_alloc(arena, (size_t)a[0].u.s.len * 4 + 1) : NULL;
  if (!o) return hl_err_nomem(err);
  size_t k = 0;
  hl_str_t s = a[0].u.s;
  for (size_t i = 0; i < s.len;) {
    uint32_t c = utf8_decode(s.ptr, s.len, &i);
    size_t j = 0;
    while (j < nf && from[j] != c)
      j++;
    if (j == nf)
      k += utf8_encode(c, o + k);
    else if (j < nt)
      k += utf8_encode(to[j], o + k);
  }
  out->is_null = false;
  out->u.s.ptr = o;
  out->u.s.len = (uint32_t)k;
  return HL_OK;
}

/* levenshtein(a, b): the edit distance in characters (two-row table). */
HL_FN(hl_fn_levenshtein) {
  NULL_ARG(0);
  NULL_ARG(1);
  size_t n, m;
  uint32_t *x = code_points(a[0].u.s, arena, &n), *y = code_points(a[1].u.s, arena, &m);
  int64_t *row = x && y ? hl_arena_alloc(arena, sizeof(int64_t) * (m + 1)) : NULL;
  if (!row) return hl_err_nomem(err);
  for (size_t j = 0; j <= m; j++)
    row[j] = (int64_t)j;
  for (size_t i = 1; i <= n; i++) {
    int64_t diag = row[0];
    row[0] = (int64_t)i;
    for (size_t j = 1; j <= m; j++) {
      int64_t up = row[j];
      int64_t best = diag + (x[i - 1] != y[j - 1]);
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (up + 1 < best) best = up + 1;
      row[j] = best;
      diag = up;
    }
  }
  out->u.i = row[m];
  return HL_OK;
}

/* soundex(s): American Soundex of the letters of s (others skipped):
 * the first letter, then up to three digit codes; H and W do not separate
 * two letters of one code, vowels do.  '' when s has no letter. */
HL_FN(hl_fn_soundex) {
  NULL_ARG(0);
  static const char codes[] = "01230120022455012623010202"; /* A..Z */
  char o[4] = {'0', '0', '0', '0'};
  int k = 0;
  char last = 0;
  hl_str_t s = a[0].u.s;
  for (uint32_t i = 0; i < s.len && k < 4; i++) {
    char c = s.ptr[i];
    if (c >= 'a' && c <= 'z') c = (char)(c - 32);
    if (c < 'A' || c > 'Z') continue;
    char code = codes[c - 'A'];
    if (k == 0) {
      o[k++] = c;
      last = code;
      continue;
    }
    if (c == 'H' || c == 'W') continue;
    if (code != '0' && code != last) o[k++] = code;
    last = code;
  }
  return put(out, arena, err, o, k ? 4 : 0);
}

/* chr(n): the character of code point n mod 256 ('' for negative n). */
HL_FN(hl_fn_chr) {
  NULL_ARG(0);
  int64_t n = (int64_t)a[0].u.d;
  if (a[0].u.d < 0) return put(out, arena, err, "", 0);
  char o[4];
  size_t k = utf8_encode((uint32_t)(n % 256), o);
  return put(out, arena, err, o, k);
}

HL_FN(hl_fn_octet_length) {
  NULL_ARG(0);
  out->u.i = a[0].u.s.len;
  return HL_OK;
}

HL_FN(hl_fn_char_length) {
  NULL_ARG(0);
  int64_t n = 0;
  for (uint32_t i = 0; i < a[0].u.s.len; i++)
    if (((unsigned char)a[0].u.s.ptr[i] & 0xC0) != 0x80) n++;
  out->u.i = n;
  return HL_OK;
}

/* quote(s): s in single quotes, each quote inside escaped by '\'. */
HL_FN(hl_fn_quote) {
  NULL_ARG(0);
  hl_str_t s = a[0].u.s;
  size_t n = s.len + 2;
  for (uint32_t i = 0; i < s.len; i++)
    n += s.ptr[i] == '\'';
  char *p = hl_fn_alloc_str(out, arena, n);
  if (!p) return hl_err_nomem(err);
  size_t k = 0;
  p[k++] = '\'';
  for (uint32_t i = 0; i < s.len; i++) {
    if (s.ptr[i] == '\'') p[k++] = '\\';
    p[k++] = s.ptr[i];
  }
  p[k++] = '\'';
  return HL_OK;
}

/* ------------------------------------------------------------- str_to_map */

/* Java's String.split(regex): the pieces of S between matches of RE, the
 * trailing empty pieces dropped (a string with no match is one piece).
 * Returns the count; pieces in *OUT (ARENA); -1 on OOM. */
static int64_t java_split(const regex_t *re, hl_str_t s, hl_arena_t *arena, hl_str_t **out) {
  char *z = hl_arena_strndup(arena, s.ptr, s.len);
  size_t cap = 8, n = 0;
  hl_str_t *v = z ? hl_arena_alloc(arena, sizeof(hl_str_t) * cap) : NULL;
  if (!v) return -1;
  size_t start = 0, off = 0;
  while (off <= s.len) {
    regmatch_t m[1];
    m[0].rm_so = 0;
    m[0].rm_eo = (regoff_t)(s.len - off);
    if (regexec(re, z + off, 1, m, off ? REG_NOTBOL | REG_STARTEND : REG_STARTEND) != 0) break;
    size_t so = off + (size_t)m[0].rm_so, eo = off + (size_t)m[0].rm_eo;
    if (eo == so) { /* an empty match splits between characters */
      if (so >= s.len) break;
      eo = so;
      if (so == 0) {
        off = 1;
        continue;
      }
    }
    if (n == cap) {
      hl_str_t *w = hl_arena_alloc(arena, sizeof(hl_str_t) * cap * 2);
      if (!w) return -1;
      memcpy(w, v, sizeof(hl_str_t) * n);
      v = w;
      cap *= 2;
    }
    v[n].ptr = z + start;
    v[n++].len = (uint32_t)(so - start);
    start = eo;
    off = eo > so ? eo : so + 1;
  }
  if (n == cap) {
    hl_str_t *w = hl_arena_alloc(arena, sizeof(hl_str_t) * (cap + 1));
    if (!w) return -1;
    memcpy(w, v, sizeof(hl_str_t) * n);
    v = w;
  }
  v[n].ptr = z + start;
  v[n++].len = (uint32_t)(s.len - start);
  if (n > 1 || s.len > 0)
    while (n > 0 && v[n - 1].len == 0)
      n--;
  if (n == 0 && s.len == 0) n = 1; /* "".split(x) is [""] */
  *out = v;
  return (int64_t)n;
}

static hl_status_t compile_delim(regex_t *re, const hl_value_t *v, const char *dflt,
                                 hl_arena_t *arena, long pos, hl_error_t *err) {
  const char *p = v ? v->u.s.ptr : dflt;
  size_t n = v ? v->u.s.len : strlen(dflt);
  return hl_regex_compile(re, p, n, false, arena, pos, err);
}

/* str_to_map(text[, pair_delim=',', kv_delim=':']): both delimiters are
 * regular expressions, as Java's split; a key without kv_delim maps to
 * NULL; a repeated key keeps its first place and takes the last value. */
HL_FN(hl_fn_str_to_map) {
  for (int i = 0; i < call->n_args; i++)
    NULL_ARG(i);
  regex_t r1, r2;
  hl_status_t rc = compile_delim(&r1, call->n_args > 1 ? &a[1] : NULL, ",", arena, call->pos, err);
  if (rc != HL_OK) return rc;
  rc = compile_delim(&r2, call->n_args > 2 ? &a[2] : NULL, ":", arena, call->pos, err);
  if (rc != HL_OK) {
    regfree(&r1);
    return rc;
  }
  hl_str_t *pairs;
  int64_t np = java_split(&r1, a[0].u.s, arena, &pairs);
  hl_value_t *items =
      np >= 0 ? hl_arena_alloc(arena, sizeof(hl_value_t) * 2 * (size_t)(np + 1)) : NULL;
  uint32_t m = 0;
  for (int64_t i = 0; items && i < np; i++) {
    hl_value_t key = {0}, val = {0};
    regmatch_t mt[1];
    mt[0].rm_so = 0;
    mt[0].rm_eo = (regoff_t)pairs[i].len;
    key.u.s = pairs[i];
    val.is_null = true;
    /* split(kv_delim, 2): the first match only */
    if (pairs[i].len && regexec(&r2, pairs[i].ptr, 1, mt, REG_STARTEND) == 0 &&
        mt[0].rm_eo > mt[0].rm_so) {
      key.u.s.len = (uint32_t)mt[0].rm_so;
      val.is_null = false;
      val.u.s.ptr = pairs[i].ptr + mt[0].rm_eo;
      val.u.s.len = pairs[i].len - (uint32_t)mt[0].rm_eo;
    }
    uint32_t at = m;
    for (uint32_t j = 0; j < m; j++)
      if (items[2 * j].u.s.len == key.u.s.len &&
          memcmp(items[2 * j].u.s.ptr, key.u.s.ptr, key.u.s.len) == 0) {
        at = j;
        break;
      }
    if (at == m) items[2 * m++] = key;
    items[2 * at + 1] = val;
  }
  regfree(&r1);
  regfree(&r2);
  if (!items) return hl_err_nomem(err);
  out->is_null = false;
  out->u.list.n = m;
  out->u.list.items = items;
  return HL_OK;
}

/* --------------------------------------------------------------- parse_url */

typedef struct url_parts {
  hl_str_t protocol, authority, userinfo, host, path, query, ref;
  bool has_authority, has_userinfo, has_query, has_ref;
} url_parts_t;

static hl_str_t span(const char *p, size_t n) {
  hl_str_t s = {p, (uint32_t)n};
  return s;
}

/* Splits an absolute URL as java.net.URL does for hierarchical ones:
 * scheme ":" ["//" authority] path ["?" query] ["#" ref].  False when it
 * has no scheme. */
static bool url_split(hl_str_t u, url_parts_t *p) {
  memset(p, 0, sizeof *p);
  const char *s = u.ptr;
  size_t n = u.len, i = 0;
  while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.'))
    i++;
  if (i == 0 || i >= n || s[i] != ':' || !isalpha((unsigned char)s[0])) return false;
  p->protocol = span(s, i);
  i++;
  size_t end = n;
  const char *hash = memchr(s + i, '#', n - i);
  if (hash) {
    end = (size_t)(hash - s);
    p->has_ref = true;
    p->ref = span(hash + 1, n - end - 1);
  }
  const char *q = memchr(s + i, '?', end - i);
  size_t path_end = end;
  if (q) {
    path_end = (size_t)(q - s);
    p->has_query = true;
    p->query = span(q + 1, end - path_end - 1);
  }
  if (path_end - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
    size_t a0 = i + 2, a1 = a0;
    while (a1 < path_end && s[a1] != '/')
      a1++;
    p->has_authority = true;
    p->authority = span(s + a0, a1 - a0);
    const char *at = NULL;
    for (size_t k = a0; k < a1; k++)
      if (s[k] == '@') at = s + k;
    size_t h0 = a0;
    if (at) {
      p->has_userinfo = true;
      p->userinfo = span(s + a0, (size_t)(at - s) - a0);
      h0 = (size_t)(at - s) + 1;
    }
    size_t h1 = a1;
    if (h0 < a1 && s[h0] == '[') { /* IPv6 literal */
      const char *rb = memchr(s + h0, ']', a1 - h0);
      if (rb) h1 = (size_t)(rb - s) + 1;
    } else {
      const char *colon = memchr(s + h0, ':', a1 - h0);
      if (colon) h1 = (size_t)(colon - s);
    }
    p->host = span(s + h0, h1 - h0);
    i = a1;
  }
  p->path = span(s + i, path_end - i);
  return true;
}

static int part_is(const hl_str_t *s, const char *name) {
  return s->len == strlen(name) && memcmp(s->ptr, name, s->len) == 0;
}

/* parse_url(url, part[, key]): part is HOST, PATH, QUERY, REF, PROTOCOL,
 * AUTHORITY, FILE or USERINFO (upper case, as Hive wants); with a key,
 * QUERY gives the value of key=value in the query.  NULL for a URL without
 * a scheme, an unknown part, or a part the URL lacks. */
HL_FN(hl_fn_parse_url) {
  for (int i = 0; i < call->n_args; i++)
    NULL_ARG(i);
  url_parts_t u;
  hl_str_t part = a[1].u.s;
  out->is_null = true;
  if (!url_split(a[0].u.s, &u)) return HL_OK;
  if (call->n_args > 2) {
    if (!part_is(&part, "QUERY") || !u.has_query) return HL_OK;
    hl_str_t key = a[2].u.s, q = u.query;
    size_t i = 0;
    while (i <= q.len) {
      size_t j = i;
      while (j < q.len && q.ptr[j] != '&')
        j++;
      if (j - i > key.len && memcmp(q.ptr + i, key.ptr, key.len) == 0 && q.ptr[i + key.len] == '=')
        return put(out, arena, err, q.ptr + i + key.len + 1, j - i - key.len - 1);
      i = j + 1;
    }
    return HL_OK;
  }
  if (part_is(&part, "HOST")) {
    if (u.has_authority) return put(out, arena, err, u.host.ptr, u.host.len);
  } else if (part_is(&part, "PATH")) {
    return put(out, arena, err, u.path.ptr, u.path.len);
  } else if (part_is(&part, "QUERY")) {
    if (u.has_query) return put(out, arena, err, u.query.ptr, u.query.len);
  } else if (part_is(&part, "REF")) {
    if (u.has_ref) return put(out, arena, err, u.ref.ptr, u.ref.len);
  } else if (part_is(&part, "PROTOCOL")) {
    return put(out, arena, err, u.protocol.ptr, u.protocol.len);
  } else if (part_is(&part, "AUTHORITY")) {
    if (u.has_authority) return put(out, arena, err, u.authority.ptr, u.authority.len);
  } else if (part_is(&part, "FILE")) {
    size_t n = u.path.len + (u.has_query ? u.query.len + 1 : 0);
    return put(out, arena, err, u.path.ptr, n); /* path and query are adjacent */
  } else if (part_is(&part, "USERINFO")) {
    if (u.has_userinfo) return put(out, arena, err, u.userinfo.ptr, u.userinfo.len);
  }
  return HL_OK;
}

/* ----------------------------------------------------------------- masking */

/* The replacement characters of the mask functions: upper, lower, digit,
 * other (-1: kept) and, for numbers, the digit that replaces digits. */
typedef struct mask_chars {
  int upper, lower, digit, other, number;
} mask_chars_t;

/* A replacement argument: the first character of a string, or a number
 * as a character code (-1 keeps the class unmasked); NULL or empty keeps
 * the default. */
static void mask_arg(const hl_expr_t *call, const hl_value_t *a, int i, int *slot) {
  if (i >= call->n_args || a[i].is_null) return;
  if (hl_type_is_string(call->args[i]->type)) {
    size_t at = 0;
    if (a[i].u.s.len) *slot = (int)utf8_decode(a[i].u.s.ptr, a[i].u.s.len, &at);
  } else if (hl_type_is_integer(call->args[i]->type)) {
    *slot = (int)a[i].u.i;
  }
}

static void mask_init(const hl_expr_t *call, const hl_value_t *a, int first, mask_chars_t *m) {
  m->upper = 'X';
  m->lower = 'x';
  m->digit = 'n';
  m->other = -1;
  m->number = '1';
  mask_arg(call, a, first, &m->upper);
  mask_arg(call, a, first + 1, &m->lower);
  mask_arg(call, a, first + 2, &m->digit);
  mask_arg(call, a, first + 3, &m->other);
  if (first + 4 < call->n_args && !a[first + 4].is_null &&
      hl_type_is_integer(call->args[first + 4]->type) && a[first + 4].u.i >= 0 &&
      a[first + 4].u.i <= 9)
    m->number = '0' + (int)a[first + 4].u.i;
}

/* The class of code point C as Java's Character sees it, for ASCII and
 * Latin-1: 'U' upper-case letter, 'L' lower-case, 'D' digit, 'O' other. */
static char char_class(uint32_t c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7)) return 'U';
  if ((c >= 'a' && c <= 'z') || (c >= 0xDF && c <= 0xFF && c != 0xF7)) return 'L';
  if (c >= '0' && c <= '9') return 'D';
  return 'O';
}

/* The masked form of C (-1: C itself). */
static int mask_one(uint32_t c, const mask_chars_t *m, bool number) {
  if (number) return c >= '0' && c <= '9' ? m->number : -1;
  switch (char_class(c)) {
  case 'U':
    return m->upper;
  case 'L':
    return m->lower;
  case 'D':
    return m->digit;
  default:
    return m->other;
  }
}

/* Masks characters [lo, hi) of A[0] (mode 0: all; 1: the first n; 2: the
 * last n; 3: all but the first n; 4: all but the last n): strings
 * character by character, integers digit by digit with the number digit,
 * keeping the sign. */
static hl_status_t mask_range(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                              hl_arena_t *arena, hl_error_t *err, int first, int64_t n, int mode) {
  NULL_ARG(0);
  mask_chars_t m;
  mask_init(call, a, first, &m);
  bool number = hl_type_is_integer(call->args[0]->type);
  char numbuf[24];
  hl_str_t s = a[0].u.s;
  if (number) {
    uint64_t v = a[0].u.i < 0 ? 0 - (uint64_t)a[0].u.i : (uint64_t)a[0].u.i;
    int k = snprintf(numbuf, sizeof numbuf, "%llu", (unsigned long long)v);
    s.ptr = numbuf;
    s.len = (uint32_t)k;
  }
  size_t len = 0;
  for (uint32_t i = 0; i < s.len; i++)
    len += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
  size_t nn = n < 0 ? 0 : (uint64_t)n > len ? len : (size_t)n;
  size_t lo = mode == 2 ? len - nn : mode == 3 ? nn : 0;
  size_t hi = mode == 1 ? nn : mode == 4 ? len - nn : len;
  char *p = hl_arena_alloc(arena, (size_t)s.len * 4 + 1);
  if (!p) return hl_err_nomem(err);
  size_t k = 0, ch = 0;
  for (size_t i = 0; i < s.len; ch++) {
    size_t start = i;
    uint32_t c = utf8_decode(s.ptr, s.len, &i);
    int r = ch >= lo && ch < hi ? mask_one(c, &m, number) : -1;
    if (r < 0) {
      memcpy(p + k, s.ptr + start, i - start);
      k += i - start;
    } else {
      k += utf8_encode((uint32_t)r, p + k);
    }
  }
  if (number) {
    int64_t v = 0;
    for (size_t i = 0; i < k; i++)
      v = v * 10 + (p[i] - '0');
    out->is_null = false;
    out->u.i = a[0].u.i < 0 ? -v : v;
    return HL_OK;
  }
  out->is_null = false;
  out->u.s.ptr = p;
  out->u.s.len = (uint32_t)k;
  return HL_OK;
}

HL_FN(hl_fn_mask) {
  return mask_range(call, a, out, arena, err, 1, 0, 0);
}

static int64_t mask_count(const hl_expr_t *call, const hl_value_t *a) {
  if (call->n_args < 2 || a[1].is_null) return 4;
  return a[1].u.i;
}

HL_FN(hl_fn_mask_first_n) {
  return mask_range(call, a, out, arena, err, 2, mask_count(call, a), 1);
}

HL_FN(hl_fn_mask_last_n) {
  return mask_range(call, a, out, arena, err, 2, mask_count(call, a), 2);
}

HL_FN(hl_fn_mask_show_first_n) {
  return mask_range(call, a, out, arena, err, 2, mask_count(call, a), 3);
}

HL_FN(hl_fn_mask_show_last_n) {
  return mask_range(call, a, out, arena, err, 2, mask_count(call, a), 4);
}

/* mask_hash(s): the SHA-256 of a string, in hex; NULL for other types. */
HL_FN(hl_fn_mask_hash) {
  if (a[0].is_null || !hl_type_is_string(call->args[0]->type)) {
    out->is_null = true;
    return HL_OK;
  }
  return hl_fn_digest_hex(EVP_sha256(), &a[0], out, arena, err);
}
