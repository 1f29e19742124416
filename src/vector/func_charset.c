/*
 * func_charset.c -- encode(str, charset) and decode(bin, charset) (Hive's
 * GenericUDFEncode / GenericUDFDecode) over glibc's iconv, so every
 * character set iconv knows works, under its Java name.
 *
 * Java names go to iconv as they are (glibc knows UTF-8, ISO-8859-1,
 * US-ASCII, windows-1252, Shift_JIS, EUC-JP, GBK, GB18030, Big5, KOI8-R,
 * IBM037, ... and the usual aliases, in any case), except where Java's
 * meaning differs: UTF-16 encodes big-endian after a FE FF mark and
 * decodes by the mark (big-endian without one), UTF-32 is big-endian
 * without a mark and decodes by one; windows-31j and x-windows-949/950 are
 * CP932/CP949/CP950; any other x- name is tried without its prefix.  A name
 * that is not a legal Java charset name (letters, digits and - + : _ .,
 * starting with a letter or a digit) is refused before iconv sees it, so
 * no iconv option ("//TRANSLIT") can be passed.  The mapping tables are
 * glibc's, which differ from Java's on a few code points of some East
 * Asian sets.
 *
 * Errors as Hive's: with a constant character set Hive's coder REPORTs, so
 * a character the set lacks (encode) or bytes that do not decode fail the
 * statement (22P05); with a character set that varies by row Java's
 * Charset.encode / decode replace them -- by the set's '?' (encode; U+FFFD
 * for the Unicode sets) and by U+FFFD (decode, one per malformed UTF-8
 * sequence as Java counts them, one per byte for other sets).  Text that
 * is not UTF-8 is encoded as Java would the U+FFFD that Hadoop's
 * Text.toString made of it.  An unknown set is 22023 (Hive:
 * UnsupportedCharsetException); a NULL one fails too (22004), as Hive
 * cannot look it up.
 */
#include "vector/func_int.h"

#include <errno.h>
#include <iconv.h>
#include <string.h>
#include <strings.h>

#define NAME_MAX_LEN 64

/* How the Java set is reached through iconv. */
typedef struct charset {
  char iconv[NAME_MAX_LEN + 8]; /* the iconv name */
  int mark;                     /* 0 none; 2 UTF-16, 4 UTF-32: Java's byte-order mark rules */
  bool unicode;                 /* a UTF: unmappable is replaced by U+FFFD, not '?' */
  bool utf8;                    /* decode: malformed sequences counted as Java's UTF-8 */
} charset_t;

static bool legal_java_name(const char *s, size_t n) {
  if (n == 0 || n > NAME_MAX_LEN) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || !strchr("-+:_.", c))) return false;
  }
  return true;
}

static bool iconv_knows(const char *name) {
  iconv_t cd = iconv_open("UTF-8", name);
  if (cd == (iconv_t)-1) return false;
  iconv_close(cd);
  return true;
}

/* The Java set NAME[0..n) as iconv reaches it, in *CS; 22023 when it is
 * not a legal name or iconv does not know it. */
static hl_status_t resolve(const char *name, size_t n, charset_t *cs, long pos, hl_error_t *err) {
  memset(cs, 0, sizeof *cs);
  if (!legal_java_name(name, n))
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "illegal character set name \"%.*s\"", (int)(n > 80 ? 80 : n), name);
  memcpy(cs->iconv, name, n);
  cs->iconv[n] = '\0';
  static const char *const renames[][2] = {
      {"windows-31j", "CP932"}, {"x-windows-949", "CP949"}, {"x-windows-950", "CP950"}};
  for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++)
    if (strcasecmp(cs->iconv, renames[i][0]) == 0) strcpy(cs->iconv, renames[i][1]);
  if (strcasecmp(cs->iconv, "UTF-16") == 0 || strcasecmp(cs->iconv, "UTF_16") == 0) {
    strcpy(cs->iconv, "UTF-16BE");
    cs->mark = 2;
  } else if (strcasecmp(cs->iconv, "UTF-32") == 0 || strcasecmp(cs->iconv, "UTF_32") == 0) {
    strcpy(cs->iconv, "UTF-32BE");
    cs->mark = 4;
  }
  if (!iconv_knows(cs->iconv) && strncasecmp(cs->iconv, "x-", 2) == 0)
    memmove(cs->iconv, cs->iconv + 2, strlen(cs->iconv + 2) + 1);
  if (!iconv_knows(cs->iconv))
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "unsupported character set \"%.*s\"", (int)n, name);
  cs->unicode = strncasecmp(cs->iconv, "UTF", 3) == 0 || strncasecmp(cs->iconv, "UCS", 3) == 0;
  cs->utf8 = strcasecmp(cs->iconv, "UTF-8") == 0 || strcasecmp(cs->iconv, "UTF8") == 0;
  return HL_OK;
}

hl_status_t hl_fn_charset_check(const char *name, size_t len, long pos, hl_error_t *err) {
  charset_t cs;
  return resolve(name, len, &cs, pos, err);
}

/* A growing output in ARENA. */
typedef struct out_buf {
  hl_arena_t *arena;
  char *p;
  size_t len, cap;
} out_buf_t;

static bool reserve(out_buf_t *o, size_t more) {
  if (o->cap - o->len >= more) return true;
  size_t cap = o->cap ? o->cap : 64;
  while (cap - o->len < more)
    cap *= 2;
  char *np = hl_arena_realloc(o->arena, o->p, o->cap, cap);
  if (!np) return false;
  o->p = np;
  o->cap = cap;
  return true;
}

static bool put(out_buf_t *o, const void *b, size_t n) {
  if (!reserve(o, n)) return false;
  memcpy(o->p + o->len, b, n);
  o->len += n;
  return true;
}

/* The length of the maximal part of a UTF-8 sequence at S[0..n) that a
 * decoder reports as one malformed input (at least 1): the lead byte and
 * the continuation bytes that could still have completed it (Unicode's
 * "maximal subpart", which Java's decoder follows). */
static size_t utf8_malformed_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
  if (c >= 0xC2 && c <= 0xDF) {
    need = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 1;
  }
  size_t k = 1;
  if (k < n && s[k] >= lo && s[k] <= hi) {
    k++;
    while (k < need && k < n && (s[k] & 0xC0) == 0x80)
      k++;
  }
  return k < need ? k : 1; /* a whole sequence was not malformed: its byte only */
}

/* The length of the well-formed UTF-8 character at S[0..n), 0 when the
 * bytes there are not one. */
static size_t utf8_char_len(const unsigned char *s, size_t n) {
  size_t m = utf8_malformed_len(s, n);
  if (s[0] < 0x80) return 1;
  size_t need = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : 2;
  if (m != 1 || need > n || s[0] < 0xC2 || s[0] > 0xF4) return 0;
  /* utf8_malformed_len is 1 for a whole sequence: check that it is one */
  for (size_t k = 1; k < need; k++)
    if ((s[k] & 0xC0) != 0x80) return 0;
  if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
      (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
    return 0;
  return need;
}

/* Java's new String(bytes, UTF_8) back to UTF-8 bytes (func_int.h): each
 * malformed sequence becomes one U+FFFD; valid text is returned as is. */
hl_status_t hl_fn_utf8_java(const char *in, size_t n, hl_arena_t *arena, hl_value_t *out,
                            hl_error_t *err) {
  const unsigned char *s = (const unsigned char *)in;
  size_t i = 0, len;
  while (i < n && (len = utf8_char_len(s + i, n - i)) != 0)
    i += len;
  out->is_null = false;
  if (i == n) {
    out->u.s.ptr = n ? in : "";
    out->u.s.len = (uint32_t)n;
    return HL_OK;
  }
  out_buf_t o = {arena, NULL, 0, 0};
  if (!put(&o, in, i)) return hl_err_nomem(err);
  while (i < n) {
    if ((len = utf8_char_len(s + i, n - i)) != 0) {
      if (!put(&o, s + i, len)) return hl_err_nomem(err);
      i += len;
    } else {
      if (!put(&o, "\xEF\xBF\xBD", 3)) return hl_err_nomem(err);
      i += utf8_malformed_len(s + i, n - i);
    }
  }
  out->u.s.ptr = o.p;
  out->u.s.len = (uint32_t)o.len;
  return HL_OK;
}

/* Runs CD over IN[0..n) into O, then returns it to its initial state (the
 * closing shift sequence of a stateful set).  What CD cannot convert: with
 * STRICT the statement fails (22P05); else REPL[0..repl_len) stands for
 * it.  ENCODE: the input is UTF-8 text, and bytes that are no UTF-8 are
 * the U+FFFD Java's string holds there; else one malformed sequence (as
 * Java's UTF-8 decoder counts it when UTF8, else one byte) is skipped. */
static hl_status_t convert(iconv_t cd, const char *in, size_t n, out_buf_t *o, bool strict,
                           const char *repl, size_t repl_len, bool encode, bool utf8,
                           const hl_expr_t *call, hl_error_t *err) {
  char *ip = (char *)in;
  size_t left = n;
  while (left > 0) {
    if (!reserve(o, 4 * left + 16)) return hl_err_nomem(err);
    char *op = o->p + o->len;
    size_t room = o->cap - o->len;
    size_t r = iconv(cd, &ip, &left, &op, &room);
    o->len = (size_t)(op - o->p);
    if (r != (size_t)-1) continue;
    if (errno == E2BIG) { /* a set that writes more than 4 bytes a byte: grow */
      if (!reserve(o, o->cap - o->len + 64)) return hl_err_nomem(err);
      continue;
    }
    if (errno != EILSEQ && errno != EINVAL) return hl_err_nomem(err);
    const unsigned char *at = (const unsigned char *)ip;
    size_t skip = 0;
    if (encode && !(skip = utf8_char_len(at, left))) {
      skip = utf8_malformed_len(at, left);
      char fffd[] = "\xEF\xBF\xBD", *fp = fffd;
      size_t fl = 3;
      if (!reserve(o, 16)) return hl_err_nomem(err);
      char *op2 = o->p + o->len;
      size_t room2 = o->cap - o->len;
      if (iconv(cd, &fp, &fl, &op2, &room2) != (size_t)-1) {
        o->len = (size_t)(op2 - o->p);
        ip += skip;
        left -= skip;
        continue;
      }
    } else if (!encode) {
      skip = utf8 ? utf8_malformed_len(at, left) : 1;
    }
    if (strict)
      return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(UNTRANSLATABLE_CHARACTER),
                           encode ? "a character of the string has no encoding in the character "
                                    "set"
                                  : "the bytes do not decode in the character set");
    if (!put(o, repl, repl_len)) return hl_err_nomem(err);
    ip += skip;
    left -= skip;
  }
  /* the closing shift sequence */
  for (;;) {
    if (!reserve(o, 16)) return hl_err_nomem(err);
    char *op = o->p + o->len;
    size_t room = o->cap - o->len;
    size_t r = iconv(cd, NULL, NULL, &op, &room);
    o->len = (size_t)(op - o->p);
    if (r != (size_t)-1) return HL_OK;
    if (errno != E2BIG) return hl_err_nomem(err);
  }
}

/* The character set argument A[1] of CALL: NULL fails (22004), as Hive
 * cannot look a NULL name up. */
static hl_status_t charset_arg(const hl_expr_t *call, const hl_value_t *a, charset_t *cs,
                               hl_error_t *err) {
  if (a[1].is_null)
    return hl_err_set_at(err, call->pos, HL_ERROR, HL_SS(NULL_VALUE_NOT_ALLOWED),
                         "the character set of %s is NULL", call->fn->name);
  return resolve(a[1].u.s.ptr, a[1].u.s.len, cs, call->pos, err);
}

HL_FN(hl_fn_encode) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  charset_t cs;
  hl_status_t rc = charset_arg(call, a, &cs, err);
  if (rc != HL_OK) return rc;
  iconv_t cd = iconv_open(cs.iconv, "UTF-8");
  if (cd == (iconv_t)-1) return hl_err_nomem(err);
  bool strict = call->args[1]->kind == HL_EX_CONST;
  out_buf_t o = {arena, NULL, 0, 0};
  char repl[16];
  size_t repl_len = 0;
  /* the set's replacement: U+FFFD for a UTF, else '?' in the set */
  char *rp = cs.unicode ? "\xEF\xBF\xBD" : "?", *rop = repl;
  size_t rl = strlen(rp), rroom = sizeof repl;
  if (iconv(cd, &rp, &rl, &rop, &rroom) != (size_t)-1) repl_len = (size_t)(rop - repl);
  iconv(cd, NULL, NULL, NULL, NULL); /* back to the initial shift state */
  if (cs.mark == 2 && !put(&o, "\xFE\xFF", 2)) rc = hl_err_nomem(err);
  if (rc == HL_OK)
    rc =
        convert(cd, a[0].u.s.ptr, a[0].u.s.len, &o, strict, repl, repl_len, true, false, call, err);
  iconv_close(cd);
  if (rc != HL_OK) return rc;
  out->is_null = false;
  out->u.s.ptr = o.p ? o.p : "";
  out->u.s.len = (uint32_t)o.len;
  return HL_OK;
}

HL_FN(hl_fn_decode) {
  if (a[0].is_null) {
    out->is_null = true;
    return HL_OK;
  }
  charset_t cs;
  hl_status_t rc = charset_arg(call, a, &cs, err);
  if (rc != HL_OK) return rc;
  const unsigned char *s = (const unsigned char *)a[0].u.s.ptr;
  size_t n = a[0].u.s.len, skip = 0;
  /* Java's UTF-16 and UTF-32 decoders read a byte-order mark */
  if (cs.mark == 2 && n >= 2 &&
      ((s[0] == 0xFE && s[1] == 0xFF) || (s[0] == 0xFF && s[1] == 0xFE))) {
    if (s[0] == 0xFF) strcpy(cs.iconv, "UTF-16LE");
    skip = 2;
  } else if (cs.mark == 4 && n >= 4 && !memcmp(s, "\x00\x00\xFE\xFF", 4)) {
    skip = 4;
  } else if (cs.mark == 4 && n >= 4 && !memcmp(s, "\xFF\xFE\x00\x00", 4)) {
    strcpy(cs.iconv, "UTF-32LE");
    skip = 4;
  }
  iconv_t cd = iconv_open("UTF-8", cs.iconv);
  if (cd == (iconv_t)-1) return hl_err_nomem(err);
  out_buf_t o = {arena, NULL, 0, 0};
  rc = convert(cd, (const char *)s + skip, n - skip, &o, call->args[1]->kind == HL_EX_CONST,
               "\xEF\xBF\xBD", 3, false, cs.utf8, call, err);
  iconv_close(cd);
  if (rc != HL_OK) return rc;
  out->is_null = false;
  out->u.s.ptr = o.p ? o.p : "";
  out->u.s.len = (uint32_t)o.len;
  return HL_OK;
}
