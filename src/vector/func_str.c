/*
 * func_str.c -- string, hash and conditional functions of the scalar
 * library (see func_int.h for signatures).  Hive semantics: positions are
 * 1-based characters (UTF-8), a NULL argument gives NULL unless noted.
 */
#include "vector/func_int.h"

#include "util/bucket.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <string.h>

char *hl_fn_alloc_str(hl_value_t *out, hl_arena_t *arena, size_t len) {
  char *p = hl_arena_alloc(arena, len ? len : 1);
  if (!p) return NULL;
  out->is_null = false;
  out->u.s.ptr = p;
  out->u.s.len = (uint32_t)len;
  return p;
}

static bool any_null(const hl_expr_t *call, const hl_value_t *a) {
  for (int i = 0; i < call->n_args; i++)
    if (a[i].is_null) return true;
  return false;
}

#define NULL_IF_ANY_NULL()                                                                         \
  do {                                                                                             \
    if (any_null(call, a)) {                                                                       \
      out->is_null = true;                                                                         \
      return HL_OK;                                                                                \
    }                                                                                              \
  } while (0)

static uint32_t utf8_next(hl_str_t s, uint32_t i) {
  i++;
  while (i < s.len && ((unsigned char)s.ptr[i] & 0xC0) == 0x80)
    i++;
  return i;
}

static int64_t utf8_chars(hl_str_t s) {
  int64_t n = 0;
  for (uint32_t i = 0; i < s.len; i++)
    if (((unsigned char)s.ptr[i] & 0xC0) != 0x80) n++;
  return n;
}

/* Byte offset of character index CH (0-based). */
static uint32_t utf8_at(hl_str_t s, int64_t ch) {
  uint32_t i = 0;
  while (i < s.len && ch > 0) {
    i = utf8_next(s, i);
    ch--;
  }
  return i;
}

/* Character index of byte offset OFF. */
static int64_t utf8_index(hl_str_t s, uint32_t off) {
  int64_t n = 0;
  for (uint32_t i = 0; i < off && i < s.len; i++)
    if (((unsigned char)s.ptr[i] & 0xC0) != 0x80) n++;
  return n;
}

static const char *find_bytes(const char *h, size_t hn, const char *n, size_t nn) {
  if (nn == 0) return h;
  if (hn < nn) return NULL;
  /* memchr skips to each candidate first byte, far faster than a byte loop */
  for (const char *e = h + hn - nn + 1; (h = memchr(h, n[0], (size_t)(e - h))); h++)
    if (memcmp(h, n, nn) == 0) return h;
  return NULL;
}

/* Whether regex PAT matches only itself: no character that Java's (or
 * POSIX's) syntax treats specially, so a byte search finds what the
 * regex would (split's usual ',' or '\t'; Java's String.split has the
 * same shortcut). */
static bool regex_is_literal(hl_str_t pat) {
  if (pat.len == 0) return false;
  for (uint32_t i = 0; i < pat.len; i++)
    if (strchr("\\^$.|?*+()[]{}", pat.ptr[i])) return false; /* NUL too: strchr finds it */
  return true;
}

/* concat_ws(sep, s|array<string>, ...): NULL pieces and NULL elements of
 * arrays are skipped. */
static void concat_piece(hl_buf_t *b, const hl_value_t *sep, const hl_value_t *v, bool *first) {
  if (v->is_null) return;
  if (!*first) hl_buf_append(b, sep->u.s.ptr, sep->u.s.len);
  *first = false;
  hl_buf_append(b, v->u.s.ptr, v->u.s.len);
}

HL_FN(hl_fn_concat_ws) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  hl_buf_t b;
  hl_buf_init(&b);
  bool first = true;
  for (int i = 1; i < call->n_args; i++) {
    if (call->args[i]->type->id != HL_T_ARRAY) {
      concat_piece(&b, &a[0], &a[i], &first);
    } else if (!a[i].is_null) {
      for (uint32_t k = 0; k < a[i].u.list.n; k++)
        concat_piece(&b, &a[0], &a[i].u.list.items[k], &first);
    }
  }
  char *p = b.oom ? NULL : hl_fn_alloc_str(out, arena, b.len);
  if (p && b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return p ? HL_OK : hl_err_nomem(err);
}

hl_status_t hl_regex_compile(regex_t *re, const char *pat, size_t len, bool nosub,
                             hl_arena_t *arena, long pos, hl_error_t *err) {
  return hl_regex_compile_flags(re, pat, len, nosub ? REG_NOSUB : 0, arena, pos, err);
}

hl_status_t hl_regex_compile_flags(regex_t *re, const char *pat, size_t len, int cflags,
                                   hl_arena_t *arena, long pos, hl_error_t *err) {
  /* POSIX ERE has no \d: rewrite it (inside and outside brackets) */
  char *z = hl_arena_alloc(arena, len * 6 + 1);
  if (!z) return hl_err_nomem(err);
  size_t o = 0;
  bool in_bracket = false;
  int run = 0; /* quantifiers in a row so far ('}' of a {n,m} counts) */
  long repeat_total = 0;
  for (size_t i = 0; i < len; i++) {
    char c = pat[i];
    /* Java reads X*? and X++ as lazy and possessive forms of one
     * quantifier and refuses a third; POSIX would stack them, and stacked
     * quantifiers (and huge {n,m} counts) make regcomp's automaton blow
     * up, so the second one is dropped, a third refused, and the
     * repetition counts of a pattern are capped. */
    bool quant = !in_bracket && (c == '*' || c == '+' || c == '?');
    if (quant && run >= 2)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_REGULAR_EXPRESSION),
                           "invalid regular expression \"%.*s\": dangling quantifier", (int)len,
                           pat);
    if (quant && run == 1) {
      run = 2;
      continue;
    }
    if (!in_bracket && c == '{') {
      long v = 0;
      for (size_t k = i + 1; k < len && pat[k] != '}'; k++)
        if (pat[k] >= '0' && pat[k] <= '9') {
          v = v * 10 + (pat[k] - '0');
          if (v > 1000) break;
        } else {
          repeat_total += v;
          v = 0;
        }
      repeat_total += v;
      if (repeat_total > 1000)
        return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_REGULAR_EXPRESSION),
                             "invalid regular expression \"%.*s\": repetition counts above 1000",
                             (int)len, pat);
    }
    run = quant || (!in_bracket && c == '}') ? 1 : 0;
    if (c == '\\' && i + 1 < len && (pat[i + 1] == 'd' || pat[i + 1] == 'D')) {
      bool neg = pat[i + 1] == 'D';
      const char *rep = in_bracket ? (neg ? "" : "0-9") : (neg ? "[^0-9]" : "[0-9]");
      size_t rl = strlen(rep);
      memcpy(z + o, rep, rl);
      o += rl;
      i++;
      continue;
    }
    if (c == '\\' && i + 1 < len) {
      z[o++] = c;
      z[o++] = pat[++i];
      continue;
    }
    if (c == '[')
      in_bracket = true;
    else if (c == ']')
      in_bracket = false;
    z[o++] = c;
  }
  z[o] = '\0';
  int rc = regcomp(re, z, REG_EXTENDED | cflags);
  if (rc != 0) {
    char msg[256];
    regerror(rc, re, msg, sizeof msg);
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_REGULAR_EXPRESSION),
                         "invalid regular expression \"%.*s\": %s", (int)len, pat, msg);
  }
  return HL_OK;
}

/* The compiled pattern of argument PAT: precompiled by the binder when it
 * is a constant, else compiled into TMP (caller frees when *own). */
static hl_status_t pattern(const hl_expr_t *call, const hl_value_t *pat, regex_t *tmp,
                           const regex_t **re, bool *own, hl_arena_t *arena, hl_error_t *err) {
  if (call->regex) {
    *re = call->regex;
    *own = false;
    return HL_OK;
  }
  hl_status_t rc = hl_regex_compile(tmp, pat->u.s.ptr, pat->u.s.len, false, arena, call->pos, err);
  if (rc != HL_OK) return rc;
  *re = tmp;
  *own = true;
  return HL_OK;
}

/* A text searched repeatedly (split, regexp_replace), linear overall.
 * REG_STARTEND makes regexec search [off, len) without measuring the rest
 * of the string, but a caller may still measure the string it is handed on
 * every call (the sanitizers' regexec interceptor does), which made N
 * pieces cost O(N * len).  So the text sits between two NULs and searches
 * after the first are handed the leading NUL (an empty string) with the
 * window as offsets from it; the character before the window still sets
 * the context (no ^ there, \b as over the whole text). */
typedef struct subject {
  char *buf; /* NUL, the text, NUL */
  size_t len;
} subject_t;

static bool subject_init(subject_t *s, hl_arena_t *arena, const char *p, size_t len) {
  s->len = len;
  if (!(s->buf = hl_arena_alloc(arena, len + 2))) return false;
  s->buf[0] = '\0';
  if (len) memcpy(s->buf + 1, p, len);
  s->buf[len + 1] = '\0';
  return true;
}

/* The text (NUL-terminated). */
static char *subject_text(const subject_t *s) {
  return s->buf + 1;
}

/* The first match of RE in [OFF, len) of S, NM groups in M with offsets
 * from the text's start; false when there is none. */
static bool subject_search(const regex_t *re, const subject_t *s, size_t off, regmatch_t *m,
                           size_t nm) {
  if (off == 0) {
    m[0].rm_so = 0;
    m[0].rm_eo = (regoff_t)s->len;
    return regexec(re, subject_text(s), nm, m, REG_STARTEND) == 0;
  }
  m[0].rm_so = (regoff_t)off + 1;
  m[0].rm_eo = (regoff_t)s->len + 1;
  if (regexec(re, s->buf, nm, m, REG_STARTEND | REG_NOTBOL) != 0) return false;
  for (size_t g = 0; g < nm; g++)
    if (m[g].rm_so >= 0) {
      m[g].rm_so--;
      m[g].rm_eo--;
    }
  return true;
}

HL_FN(hl_fn_split) {
  NULL_IF_ANY_NULL();
  hl_str_t sep = a[1].u.s;
  bool literal = regex_is_literal(sep);
  regex_t tmp;
  const regex_t *re = NULL;
  bool own = false;
  if (!literal) {
    hl_status_t rc = pattern(call, &a[1], &tmp, &re, &own, arena, err);
    if (rc != HL_OK) return rc;
  }
  subject_t subj;
  bool ok = subject_init(&subj, arena, a[0].u.s.ptr, a[0].u.s.len);
  char *z = subject_text(&subj);
  uint32_t cap = 8, n = 0;
  hl_value_t *items = hl_arena_alloc(arena, sizeof(hl_value_t) * cap);
  if (!ok || !items) {
    if (own) regfree(&tmp);
    return hl_err_nomem(err);
  }
  size_t off = 0, len = a[0].u.s.len;
  for (;;) {
    size_t so = 0, eo = 0;
    bool found = false;
    if (literal) {
      const char *f = find_bytes(z + off, len - off, sep.ptr, sep.len);
      if ((found = f != NULL)) {
        so = (size_t)(f - z);
        eo = so + sep.len;
      }
    } else {
      regmatch_t m;
      found = off <= len && subject_search(re, &subj, off, &m, 1) && m.rm_eo > m.rm_so;
      so = (size_t)m.rm_so;
      eo = (size_t)m.rm_eo;
    }
    size_t end = found ? so : len;
    if (n == cap) {
      hl_value_t *ni =
          hl_arena_realloc(arena, items, sizeof(hl_value_t) * cap, sizeof(hl_value_t) * cap * 2);
      if (!ni) {
        if (own) regfree(&tmp);
        return hl_err_nomem(err);
      }
      items = ni;
      cap *= 2;
    }
    memset(&items[n], 0, sizeof items[n]);
    items[n].u.s.ptr = z + off;
    items[n].u.s.len = (uint32_t)(end - off);
    n++;
    if (!found) break;
    off = eo;
  }
  if (own) regfree(&tmp);
  out->is_null = false;
  out->u.list.n = n;
  out->u.list.items = items;
  return HL_OK;
}

HL_FN(hl_fn_instr) {
  NULL_IF_ANY_NULL();
  const char *f = find_bytes(a[0].u.s.ptr, a[0].u.s.len, a[1].u.s.ptr, a[1].u.s.len);
  out->u.i = f ? utf8_index(a[0].u.s, (uint32_t)(f - a[0].u.s.ptr)) + 1 : 0;
  return HL_OK;
}

/* locate(substr, str[, pos]) */
HL_FN(hl_fn_locate) {
  NULL_IF_ANY_NULL();
  int64_t pos = call->n_args > 2 ? a[2].u.i : 1;
  if (pos < 1) {
    out->u.i = 0;
    return HL_OK;
  }
  hl_str_t s = a[1].u.s;
  uint32_t start = utf8_at(s, pos - 1);
  const char *f = find_bytes(s.ptr + start, s.len - start, a[0].u.s.ptr, a[0].u.s.len);
  out->u.i = f ? utf8_index(s, (uint32_t)(f - s.ptr)) + 1 : 0;
  return HL_OK;
}

HL_FN(hl_fn_replace) {
  NULL_IF_ANY_NULL();
  hl_str_t s = a[0].u.s, from = a[1].u.s, to = a[2].u.s;
  if (from.len == 0) {
    *out = a[0];
    return HL_OK;
  }
  size_t count = 0;
  for (const char *p = s.ptr, *e = s.ptr + s.len;
       (p = find_bytes(p, (size_t)(e - p), from.ptr, from.len)); p += from.len)
    count++;
  size_t len = s.len + count * to.len - count * from.len;
  char *o = hl_fn_alloc_str(out, arena, len);
  if (!o) return hl_err_nomem(err);
  const char *p = s.ptr, *e = s.ptr + s.len;
  size_t w = 0;
  for (;;) {
    const char *f = find_bytes(p, (size_t)(e - p), from.ptr, from.len);
    size_t chunk = f ? (size_t)(f - p) : (size_t)(e - p);
    memcpy(o + w, p, chunk);
    w += chunk;
    if (!f) break;
    memcpy(o + w, to.ptr, to.len);
    w += to.len;
    p = f + from.len;
  }
  return HL_OK;
}

HL_FN(hl_fn_regexp_extract) {
  NULL_IF_ANY_NULL();
  int64_t idx = call->n_args > 2 ? a[2].u.i : 1;
  regex_t tmp;
  const regex_t *re;
  bool own;
  hl_status_t rc = pattern(call, &a[1], &tmp, &re, &own, arena, err);
  if (rc != HL_OK) return rc;
  char *z = hl_arena_strndup(arena, a[0].u.s.ptr, a[0].u.s.len);
  regmatch_t m[10];
  if (!z)
    rc = hl_err_nomem(err);
  else if (idx < 0 || idx > 9 || (size_t)idx > re->re_nsub)
    rc = hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                       "regexp_extract group %lld does not exist in the pattern", (long long)idx);
  /* only the groups up to IDX: glibc does less work for fewer */
  else if (regexec(re, z, (size_t)idx + 1, m, 0) != 0 || m[idx].rm_so < 0) {
    /* Hive returns the empty string when nothing matches */
    out->is_null = false;
    out->u.s.ptr = z;
    out->u.s.len = 0;
  } else {
    out->is_null = false;
    out->u.s.ptr = z + m[idx].rm_so;
    out->u.s.len = (uint32_t)(m[idx].rm_eo - m[idx].rm_so);
  }
  if (own) regfree(&tmp);
  return rc;
}

HL_FN(hl_fn_regexp_replace) {
  NULL_IF_ANY_NULL();
  regex_t tmp;
  const regex_t *re;
  bool own;
  hl_status_t rc = pattern(call, &a[1], &tmp, &re, &own, arena, err);
  if (rc != HL_OK) return rc;
  subject_t subj;
  char *z = subject_init(&subj, arena, a[0].u.s.ptr, a[0].u.s.len) ? subject_text(&subj) : NULL;
  hl_buf_t b;
  hl_buf_init(&b);
  size_t off = 0, len = a[0].u.s.len;
  hl_str_t rep = a[2].u.s;
  while (z && off <= len) {
    regmatch_t m[10];
    if (!subject_search(re, &subj, off, m, 10)) break;
    /* offsets below are from Z + OFF */
    for (int g = 0; g < 10; g++)
      if (m[g].rm_so >= 0) {
        m[g].rm_so -= (regoff_t)off;
        m[g].rm_eo -= (regoff_t)off;
      }
    hl_buf_append(&b, z + off, (size_t)m[0].rm_so);
    /* Java replacement syntax: $n is a group, \x a literal x */
    for (uint32_t i = 0; i < rep.len; i++) {
      char c = rep.ptr[i];
      if (c == '\\' && i + 1 < rep.len) {
        hl_buf_putc(&b, rep.ptr[++i]);
      } else if (c == '$' && i + 1 < rep.len && isdigit((unsigned char)rep.ptr[i + 1])) {
        int g = rep.ptr[++i] - '0';
        if ((size_t)g <= re->re_nsub && m[g].rm_so >= 0)
          hl_buf_append(&b, z + off + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
      } else {
        hl_buf_putc(&b, c);
      }
    }
    if (m[0].rm_eo == m[0].rm_so) {
      /* empty match: copy one character and move on */
      if (off + (size_t)m[0].rm_eo < len) hl_buf_putc(&b, z[off + m[0].rm_eo]);
      off += (size_t)m[0].rm_eo + 1;
    } else {
      off += (size_t)m[0].rm_eo;
    }
  }
  if (z && off < len) hl_buf_append(&b, z + off, len - off);
  if (own) regfree(&tmp);
  if (!z || b.oom) {
    hl_buf_fini(&b);
    return hl_err_nomem(err);
  }
  char *p = hl_fn_alloc_str(out, arena, b.len);
  if (!p) {
    hl_buf_fini(&b);
    return hl_err_nomem(err);
  }
  if (b.len) memcpy(p, b.data, b.len);
  hl_buf_fini(&b);
  return HL_OK;
}

HL_FN(hl_fn_reverse) {
  NULL_IF_ANY_NULL();
  hl_str_t s = a[0].u.s;
  char *p = hl_fn_alloc_str(out, arena, s.len);
  if (!p) return hl_err_nomem(err);
  /* reverse characters, keeping each UTF-8 sequence's byte order */
  uint32_t w = s.len;
  for (uint32_t i = 0; i < s.len;) {
    uint32_t j = utf8_next(s, i);
    w -= j - i;
    memcpy(p + w, s.ptr + i, j - i);
    i = j;
  }
  return HL_OK;
}

HL_FN(hl_fn_initcap) {
  NULL_IF_ANY_NULL();
  hl_str_t s = a[0].u.s;
  char *p = hl_fn_alloc_str(out, arena, s.len);
  if (!p) return hl_err_nomem(err);
  bool start = true;
  for (uint32_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    p[i] = (char)(c < 0x80 ? (start ? toupper(c) : tolower(c)) : c);
    start = c == ' ';
  }
  return HL_OK;
}

static hl_status_t pad(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                       hl_arena_t *arena, hl_error_t *err, bool left) {
  NULL_IF_ANY_NULL();
  hl_str_t s = a[0].u.s, fill = a[2].u.s;
  int64_t want = a[1].u.i, have = utf8_chars(s);
  if (want < 0 || (want > have && fill.len == 0)) {
    out->is_null = true;
    return HL_OK;
  }
  if (want > 100 * 1024 * 1024)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                         "padded length %lld is too large", (long long)want);
  if (want <= have) {
    out->is_null = false;
    out->u.s.ptr = s.ptr;
    out->u.s.len = utf8_at(s, want);
    return HL_OK;
  }
  int64_t n_fill = want - have, fill_chars = utf8_chars(fill);
  /* bytes of n_fill characters cycling through FILL */
  size_t fill_bytes = 0;
  for (int64_t k = 0; k < n_fill; k++) {
    int64_t c = k % fill_chars;
    fill_bytes += utf8_at(fill, c + 1) - utf8_at(fill, c);
  }
  char *p = hl_fn_alloc_str(out, arena, s.len + fill_bytes);
  if (!p) return hl_err_nomem(err);
  size_t w = left ? 0 : s.len;
  if (!left) memcpy(p, s.ptr, s.len);
  for (int64_t k = 0; k < n_fill; k++) {
    int64_t c = k % fill_chars;
    uint32_t b0 = utf8_at(fill, c), b1 = utf8_at(fill, c + 1);
    memcpy(p + w, fill.ptr + b0, b1 - b0);
    w += b1 - b0;
  }
  if (left) memcpy(p + w, s.ptr, s.len);
  return HL_OK;
}

HL_FN(hl_fn_lpad) {
  return pad(call, a, out, arena, err, true);
}

HL_FN(hl_fn_rpad) {
  return pad(call, a, out, arena, err, false);
}

HL_FN(hl_fn_repeat) {
  NULL_IF_ANY_NULL();
  int64_t n = a[1].u.i < 0 ? 0 : a[1].u.i;
  if ((uint64_t)n * a[0].u.s.len > 100u * 1024 * 1024)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                         "repeat result is too large");
  char *p = hl_fn_alloc_str(out, arena, (size_t)n * a[0].u.s.len);
  if (!p) return hl_err_nomem(err);
  for (int64_t k = 0; k < n; k++)
    memcpy(p + k * a[0].u.s.len, a[0].u.s.ptr, a[0].u.s.len);
  return HL_OK;
}

HL_FN(hl_fn_space) {
  NULL_IF_ANY_NULL();
  int64_t n = a[0].u.i < 0 ? 0 : a[0].u.i;
  if (n > 100 * 1024 * 1024)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                         "space result is too large");
  char *p = hl_fn_alloc_str(out, arena, (size_t)n);
  if (!p) return hl_err_nomem(err);
  memset(p, ' ', (size_t)n);
  return HL_OK;
}

HL_FN(hl_fn_ascii) {
  NULL_IF_ANY_NULL();
  out->u.i = a[0].u.s.len ? (int64_t)(signed char)a[0].u.s.ptr[0] : 0;
  return HL_OK;
}

hl_status_t hl_fn_digest_hex(const EVP_MD *md, const hl_value_t *in, hl_value_t *out,
                             hl_arena_t *arena, hl_error_t *err) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!EVP_Digest(in->u.s.ptr, in->u.s.len, d, &n, md, NULL))
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "digest failed");
  char *p = hl_fn_alloc_str(out, arena, (size_t)n * 2);
  if (!p) return hl_err_nomem(err);
  static const char hex[] = "0123456789abcdef";
  for (unsigned int i = 0; i < n; i++) {
    p[2 * i] = hex[d[i] >> 4];
    p[2 * i + 1] = hex[d[i] & 15];
  }
  return HL_OK;
}

HL_FN(hl_fn_md5) {
  NULL_IF_ANY_NULL();
  return hl_fn_digest_hex(EVP_md5(), &a[0], out, arena, err);
}

HL_FN(hl_fn_sha1) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  return hl_fn_digest_hex(EVP_sha1(), &a[0], out, arena, err);
}

HL_FN(hl_fn_sha2) {
  NULL_IF_ANY_NULL();
  const EVP_MD *md = NULL;
  switch (a[1].u.i) {
  case 0:
  case 256:
    md = EVP_sha256();
    break;
  case 224:
    md = EVP_sha224();
    break;
  case 384:
    md = EVP_sha384();
    break;
  case 512:
    md = EVP_sha512();
    break;
  default:
    out->is_null = true;
    return HL_OK; /* Hive: unsupported length is NULL */
  }
  return hl_fn_digest_hex(md, &a[0], out, arena, err);
}

/* Hive's hash() is ObjectInspectorUtils.hashCode, murmur_hash() its
 * getBucketHashCode (hashCodeMurmur): the primitive field hashes are those
 * of bucketing versions 1 and 2 (util/bucket.c; a STRING hashes its bytes
 * from 0, unlike Text.hashCode); BINARY, TIMESTAMP and the complex types
 * are added here as Hive spells them.  VERSION 1 or 2. */
static int32_t hive_hash(int version, const hl_type_t *t, const hl_value_t *v) {
  if (v->is_null) return 0;
  uint32_t r = 0;
  switch (t->id) {
  case HL_T_BINARY:
    if (version == 2) return hl_bucket_murmur3_32((const uint8_t *)v->u.s.ptr, v->u.s.len);
    /* BytesWritable.hashCode: WritableComparator.hashBytes, from 1 */
    r = 1;
    for (uint32_t i = 0; i < v->u.s.len; i++)
      r = 31 * r + (uint32_t)(int32_t)(signed char)v->u.s.ptr[i];
    return (int32_t)r;
  case HL_T_TIMESTAMP: {
    /* TimestampWritableV2.hashCode: seconds << 30 | nanos, folded */
    int64_t secs = v->u.i >= 0 ? v->u.i / 1000000 : -((-v->u.i + 999999) / 1000000);
    uint64_t x = (uint64_t)secs << 30 | (uint64_t)((v->u.i - secs * 1000000) * 1000);
    return (int32_t)(uint32_t)(x >> 32 ^ x);
  }
  case HL_T_ARRAY:
    for (uint32_t i = 0; i < v->u.list.n; i++)
      r = 31 * r + (uint32_t)hive_hash(version, t->children[0], &v->u.list.items[i]);
    return (int32_t)r;
  case HL_T_MAP:
    /* hashCodeMurmur hashes the values with hashCode (Hive's own mix) */
    for (uint32_t i = 0; i < v->u.list.n; i++)
      r += (uint32_t)hive_hash(version, t->children[0], &v->u.list.items[2 * i]) ^
           (uint32_t)hive_hash(1, t->children[1], &v->u.list.items[2 * i + 1]);
    return (int32_t)r;
  case HL_T_STRUCT:
    for (uint32_t i = 0; i < v->u.list.n; i++)
      r = 31 * r + (uint32_t)hive_hash(version, t->children[i], &v->u.list.items[i]);
    return (int32_t)r;
  case HL_T_UNION: /* ObjectInspectorUtils.hashCode: the value's hash, the tag not mixed in */
    if (!v->u.list.n || (int)v->u.list.tag >= t->n_children) return 0;
    return hive_hash(version, t->children[v->u.list.tag], &v->u.list.items[0]);
  default:
    return hl_bucket_hash_value(version, t, v);
  }
}

/* True when murmur_hash can hash TYPE as Hive does: its version 2 hashes
 * of DECIMAL and TIMESTAMP read Hive's internal byte layouts. */
bool hl_fn_murmur_supported(const hl_type_t *t) {
  if (t->id == HL_T_DECIMAL || t->id == HL_T_TIMESTAMP) return false;
  for (int i = 0; i < t->n_children; i++)
    if (!hl_fn_murmur_supported(t->children[i]) && !(t->id == HL_T_MAP && i == 1)) return false;
  return true;
}

static hl_status_t fold_hash(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out,
                             int version) {
  uint32_t h = 0;
  for (int i = 0; i < call->n_args; i++)
    h = 31 * h + (uint32_t)hive_hash(version, call->args[i]->type, &a[i]);
  out->is_null = false;
  out->u.i = (int32_t)h;
  return HL_OK;
}

HL_FN(hl_fn_hash) {
  return fold_hash(call, a, out, 1);
}

HL_FN(hl_fn_murmur_hash) {
  return fold_hash(call, a, out, 2);
}

HL_FN(hl_fn_nvl2) {
  *out = a[0].is_null ? a[2] : a[1];
  return HL_OK;
}

static hl_status_t extreme(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out, int sign) {
  /* Hive 2+: NULL when any argument is NULL */
  if (any_null(call, a)) {
    out->is_null = true;
    return HL_OK;
  }
  int best = 0;
  for (int i = 1; i < call->n_args; i++)
    if (hl_value_compare(call->type, &a[i], &a[best]) * sign > 0) best = i;
  *out = a[best];
  return HL_OK;
}

HL_FN(hl_fn_greatest) {
  return extreme(call, a, out, 1);
}

HL_FN(hl_fn_least) {
  return extreme(call, a, out, -1);
}
