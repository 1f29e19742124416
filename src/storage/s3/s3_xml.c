/*
 * s3_xml.c -- the XML bodies of the S3 REST API (contract: s3_xml.h).
 *
 * Replies are parsed with expat into a small path matcher: every element's
 * position is kept as a '/'-joined path of local names from the root
 * ("ListBucketResult/Contents/Key"), and each reply type maps the few
 * paths it knows to struct fields, so a <Key> inside <Owner> or anywhere
 * else never becomes an object key.  Elements in the S3 namespace
 * (http://s3.amazonaws.com/doc/2006-03-01/) or in none match, and so do
 * those in http://doc.s3.amazonaws.com/2006-03-01/, which the s3rver test
 * server (npm, 3.7) puts on its ListBucketResult; an element in any other
 * namespace never does.  Unknown elements are ignored.
 *
 * The server is not trusted, so:
 *   - a DOCTYPE stops the parse ("DOCTYPE not allowed"): without one there
 *     are no entity declarations, hence no entity expansion; external
 *     entities and parameter entities are disabled as well;
 *   - the text of any one element is collected into a fixed buffer of
 *     HL_S3_XML_MAX_VALUE bytes, and a longer text is an error, never cut;
 *   - a reply holds at most HL_S3_XML_MAX_ENTRIES entries (objects, common
 *     prefixes, uploads or failed keys together);
 *   - a field given twice (two <Key> in one <Contents>) is an error, so
 *     the arena holds at most one copy of each value the body carries;
 *   - an <EncodingType> (url) is refused: we never ask for encoded keys,
 *     so keys are taken as text, and encoded ones would name other objects;
 *   - numbers are checked digit by digit (a <Size> above INT64_MAX is out
 *     of range: S3 objects are at most 5 TiB, and callers use the size as
 *     a signed file offset);
 *   - results live in the caller's arena; expat's own working memory is
 *     malloc'ed by expat and freed by XML_ParserFree on every path.
 * Every error is 08P01 naming the reply and what was wrong; a body longer
 * than HL_S3_XML_MAX_BODY is 54000.
 *
 * Leading whitespace is skipped before parsing: S3 keeps a slow
 * CompleteMultipartUpload alive by sending spaces before the document,
 * and an XML declaration is only legal at the very start.
 *
 * hl_s3_xml_parse_error answers *IS_ERROR = false (HL_OK) for an empty
 * body, a body that is not XML before its first element (an HTML or text
 * page from a proxy), or a document whose root is not <Error>: the
 * caller then reports the HTTP status alone.  A DOCTYPE is still refused.
 *
 * Builders escape & < > " ' as entities and every control character
 * (below 0x20, \t \n \r included) as a numeric reference (&#xD;): S3
 * documents numeric references for \r and \n, which XML's line-end
 * normalisation would otherwise change.  XML 1.0 cannot carry the other
 * C0 controls at all, not even as references; they are still written as
 * references (never dropped or replaced, which would name another key),
 * so such a request is refused by the server rather than acting on a
 * different object.  Such keys cannot come from a listing anyway: a
 * listing holding one is not well-formed and fails to parse here.
 */
#include "storage/s3/s3_xml.h"

#include <expat.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define S3_NS     "http://s3.amazonaws.com/doc/2006-03-01/"
#define S3RVER_NS "http://doc.s3.amazonaws.com/2006-03-01/" /* s3rver's misspelling */
#define NS_SEP    '\x01' /* cannot occur in XML 1.0 text, so never in a URI */
#define PATH_CAP  160    /* bytes of a path; deeper elements match nothing */
#define NAME_SHOW 64     /* bytes of an element name quoted in a message */

typedef struct px px_t;
/* START runs when an element opens, END when it closes, with REL its path
 * below the root ("" for the root itself) and, for END, its text.  Both
 * return 0, or -1 after px_fail. */
typedef int (*px_start_fn)(px_t *px, const char *rel);
typedef int (*px_end_fn)(px_t *px, const char *rel, const char *text, size_t len, bool leaf);

struct px {
  XML_Parser parser;
  hl_arena_t *arena;
  hl_error_t *err;
  const char *what;         /* reply name for messages: "ListObjectsV2" */
  const char *const *roots; /* accepted root element names, NULL-terminated */
  bool other_root_ok;       /* another root ends the parse without error */
  int root;                 /* index into roots; -1 before the root, -2 other */
  bool failed;              /* err is set, the parser stopped */
  char path[PATH_CAP];      /* "Root/Child/..." of the current element */
  size_t path_len;
  size_t root_len;   /* strlen of the root's name in path */
  unsigned skip;     /* open elements not in path (too deep or foreign) */
  char *text;        /* HL_S3_XML_MAX_VALUE bytes, in the arena */
  size_t text_len;   /* bytes of text since the last tag */
  bool leaf;         /* no child opened since the current element opened */
  size_t n_entries;  /* entries started so far, all kinds */
  px_start_fn start; /* NULL: none */
  px_end_fn end;
  void *st; /* the reply type's state */
};

static int px_fail(px_t *px, hl_status_t code, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int px_fail(px_t *px, hl_status_t code, const char *sqlstate, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (code == HL_NOMEM)
    hl_err_nomem(px->err);
  else
    hl_err_set(px->err, code, sqlstate, "S3 %s reply: %s", px->what, msg);
  px->failed = true;
  if (px->parser) XML_StopParser(px->parser, XML_FALSE);
  return -1;
}

#define BAD(px, ...) px_fail((px), HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION), __VA_ARGS__)

static int px_nomem(px_t *px) {
  return px_fail(px, HL_NOMEM, NULL, "out of memory");
}

/* The local name of a namespaced NAME, or NULL when its namespace is
 * neither S3's nor none. */
static const char *local_name(const char *name) {
  const char *sep = strrchr(name, NS_SEP);
  if (!sep) return name;
  size_t ns_len = (size_t)(sep - name);
  if (ns_len == sizeof S3_NS - 1 && memcmp(name, S3_NS, ns_len) == 0) return sep + 1;
  if (ns_len == sizeof S3RVER_NS - 1 && memcmp(name, S3RVER_NS, ns_len) == 0) return sep + 1;
  return NULL;
}

/* The name of the element whose text is being collected, for messages. */
static const char *current_name(const px_t *px) {
  if (px->skip) return "an unknown element";
  const char *slash = strrchr(px->path, '/');
  return slash ? slash + 1 : px->path;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts) {
  px_t *px = ud;
  (void)atts;
  if (px->failed) return;
  px->text_len = 0;
  px->leaf = true;
  const char *local = local_name(name);
  if (px->root == -1) { /* the root element */
    for (int i = 0; px->roots[i]; i++)
      if (local && strcmp(local, px->roots[i]) == 0) px->root = i;
    if (px->root == -1) {
      if (px->other_root_ok) {
        px->root = -2;
        XML_StopParser(px->parser, XML_FALSE);
        return;
      }
      const char *sep = strrchr(name, NS_SEP); /* the separator is no text for a message */
      BAD(px, "unexpected root element <%.*s>%s (expected <%s>)", NAME_SHOW, sep ? sep + 1 : name,
          local ? "" : " of another namespace", px->roots[0]);
      return;
    }
    px->root_len = strlen(local);
    memcpy(px->path, local, px->root_len + 1); /* root names are ours: short */
    px->path_len = px->root_len;
    if (px->start) px->start(px, "");
    return;
  }
  size_t n = local ? strlen(local) : 0;
  if (px->skip || !local || px->path_len + 1 + n >= PATH_CAP) {
    px->skip++;
    return;
  }
  px->path[px->path_len] = '/';
  memcpy(px->path + px->path_len + 1, local, n + 1);
  px->path_len += 1 + n;
  if (px->start) px->start(px, px->path + px->root_len + 1);
}

static void XMLCALL on_end(void *ud, const XML_Char *name) {
  px_t *px = ud;
  (void)name;
  if (px->failed) return;
  bool leaf = px->leaf;
  size_t len = px->text_len;
  px->leaf = false;
  px->text_len = 0;
  if (px->skip) {
    px->skip--;
    return;
  }
  const char *rel = px->path_len > px->root_len ? px->path + px->root_len + 1 : "";
  px->text[len] = '\0';
  if (px->end(px, rel, px->text, len, leaf) < 0) return;
  char *slash = strrchr(px->path, '/');
  if (slash) {
    *slash = '\0';
    px->path_len = (size_t)(slash - px->path);
  }
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len) {
  px_t *px = ud;
  if (px->failed || len <= 0) return;
  if ((size_t)len > HL_S3_XML_MAX_VALUE - px->text_len) {
    BAD(px, "the text of <%.*s> is longer than %d bytes", NAME_SHOW, current_name(px),
        HL_S3_XML_MAX_VALUE);
    return;
  }
  memcpy(px->text + px->text_len, s, (size_t)len);
  px->text_len += (size_t)len;
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                               const XML_Char *pubid, int has_internal_subset) {
  px_t *px = ud;
  (void)name, (void)sysid, (void)pubid, (void)has_internal_subset;
  if (!px->failed) BAD(px, "DOCTYPE not allowed");
}

static void XMLCALL on_entity_decl(void *ud, const XML_Char *name, int is_param,
                                   const XML_Char *value, int value_len, const XML_Char *base,
                                   const XML_Char *sysid, const XML_Char *pubid,
                                   const XML_Char *notation) {
  px_t *px = ud;
  (void)name, (void)is_param, (void)value, (void)value_len, (void)base, (void)sysid, (void)pubid;
  (void)notation;
  if (!px->failed) BAD(px, "entity declarations not allowed");
}

static int XMLCALL on_external_entity(XML_Parser p, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *sysid, const XML_Char *pubid) {
  (void)p, (void)context, (void)base, (void)sysid, (void)pubid;
  return XML_STATUS_ERROR; /* never load anything */
}

typedef enum { RUN_OK, RUN_FAIL, RUN_NOT_XML } run_t;

/* Parses BODY with PX set up by the caller.  RUN_NOT_XML (err untouched)
 * only with other_root_ok, when expat failed before the root element. */
static run_t px_run(px_t *px, const char *body, size_t len) {
  if (len > HL_S3_XML_MAX_BODY) {
    px_fail(px, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED), "body of %zu bytes is longer than %u", len,
            HL_S3_XML_MAX_BODY);
    return RUN_FAIL;
  }
  while (len && (*body == ' ' || *body == '\t' || *body == '\n' || *body == '\r'))
    body++, len--;
  if (len == 0) {
    if (px->other_root_ok) return RUN_NOT_XML;
    BAD(px, "empty body");
    return RUN_FAIL;
  }
  px->text = hl_arena_alloc(px->arena, HL_S3_XML_MAX_VALUE + 1);
  if (!px->text) {
    px_nomem(px);
    return RUN_FAIL;
  }
  px->root = -1;
  px->parser = XML_ParserCreateNS(NULL, NS_SEP);
  if (!px->parser) {
    px_nomem(px);
    return RUN_FAIL;
  }
  XML_SetUserData(px->parser, px);
  XML_SetElementHandler(px->parser, on_start, on_end);
  XML_SetCharacterDataHandler(px->parser, on_text);
  XML_SetStartDoctypeDeclHandler(px->parser, on_doctype);
  XML_SetEntityDeclHandler(px->parser, on_entity_decl);
  XML_SetExternalEntityRefHandler(px->parser, on_external_entity);
  XML_SetParamEntityParsing(px->parser, XML_PARAM_ENTITY_PARSING_NEVER);
  enum XML_Status st = XML_Parse(px->parser, body, (int)len, XML_TRUE);
  run_t rc = RUN_OK;
  if (px->failed) {
    rc = RUN_FAIL;
  } else if (px->root == -2) {
    rc = RUN_NOT_XML; /* another root, allowed: stopped on purpose */
  } else if (st != XML_STATUS_OK) {
    enum XML_Error code = XML_GetErrorCode(px->parser);
    unsigned long line = (unsigned long)XML_GetCurrentLineNumber(px->parser);
    unsigned long col = (unsigned long)XML_GetCurrentColumnNumber(px->parser) + 1;
    bool cut = code == XML_ERROR_NO_ELEMENTS || code == XML_ERROR_UNCLOSED_TOKEN ||
               code == XML_ERROR_PARTIAL_CHAR || code == XML_ERROR_UNCLOSED_CDATA_SECTION;
    if (px->root == -1 && px->other_root_ok) {
      rc = RUN_NOT_XML;
    } else {
      if (px->root >= 0 && cut)
        BAD(px, "truncated document (%s at line %lu, column %lu)", XML_ErrorString(code), line,
            col);
      else
        BAD(px, "not well-formed XML (%s at line %lu, column %lu)", XML_ErrorString(code), line,
            col);
      rc = RUN_FAIL;
    }
  }
  XML_ParserFree(px->parser);
  px->parser = NULL;
  return rc;
}

static void px_init(px_t *px, const char *what, const char *const *roots, hl_arena_t *arena,
                    hl_error_t *err) {
  memset(px, 0, sizeof *px);
  px->what = what;
  px->roots = roots;
  px->arena = arena;
  px->err = err;
  px->root = -1;
}

/* ---- values ---- */

/* A copy of the text of a leaf element named NAME into *DST. */
static int take_text(px_t *px, char **dst, const char *name, const char *text, size_t len,
                     bool leaf) {
  if (!leaf) return BAD(px, "<%s> holds elements", name);
  /* a second copy would only cost arena space: S3 never sends one */
  if (*dst) return BAD(px, "more than one <%s>", name);
  char *s = hl_arena_strndup(px->arena, text, len);
  if (!s) return px_nomem(px);
  *dst = s;
  return 0;
}

static int take_bool(px_t *px, bool *dst, const char *name, const char *text, size_t len,
                     bool leaf) {
  if (!leaf) return BAD(px, "<%s> holds elements", name);
  if (len == 4 && memcmp(text, "true", 4) == 0)
    *dst = true;
  else if (len == 5 && memcmp(text, "false", 5) == 0)
    *dst = false;
  else
    return BAD(px, "<%s> is neither true nor false", name);
  return 0;
}

static int take_size(px_t *px, uint64_t *dst, const char *text, size_t len, bool leaf) {
  if (!leaf) return BAD(px, "<Size> holds elements");
  if (len > 0 && text[0] == '-') return BAD(px, "<Size> is negative");
  if (len == 0) return BAD(px, "<Size> is not a number");
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] < '0' || text[i] > '9') return BAD(px, "<Size> is not a number");
    unsigned d = (unsigned)(text[i] - '0');
    if (v > ((uint64_t)INT64_MAX - d) / 10) return BAD(px, "<Size> is out of range");
    v = v * 10 + d;
  }
  *dst = v;
  return 0;
}

/* N decimal digits at S into *V; false if any is not a digit. */
static bool digits(const char *s, int n, int *v) {
  int x = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    x = x * 10 + (s[i] - '0');
  }
  *v = x;
  return true;
}

static bool is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Leap years in [1, Y). */
static int64_t leaps_before(int y) {
  int p = y - 1;
  return p / 4 - p / 100 + p / 400;
}

/* "YYYY-MM-DDTHH:MM:SS[.fff...](Z|+HH:MM|-HH:MM)" into ns since the epoch.
 * Years 1678..2261 keep the result inside int64_t. */
static bool parse_time(const char *s, size_t n, int64_t *out) {
  static const int before_month[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int y, mo, d, h, mi, sec;
  if (n < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
      !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't') || !digits(s + 11, 2, &h) ||
      s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &sec))
    return false;
  if (y < 1678 || y > 2261 || mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 60) return false;
  int mdays = month_days[mo - 1] + (mo == 2 && is_leap(y));
  if (d < 1 || d > mdays) return false;
  size_t i = 19;
  int64_t frac = 0;
  if (i < n && s[i] == '.') {
    i++;
    size_t start = i;
    int64_t scale = 100000000;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
      frac += (s[i] - '0') * scale; /* digits past the 9th add 0 */
      scale /= 10;
    }
    if (i == start) return false;
  }
  int64_t offset = 0; /* seconds east of UTC */
  if (i + 1 == n && (s[i] == 'Z' || s[i] == 'z')) {
    i++;
  } else if (i + 6 == n && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
    int oh, om;
    if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 4, 2, &om) || oh > 23 || om > 59)
      return false;
    offset = (oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    return false;
  }
  int64_t days = (int64_t)(y - 1970) * 365 + leaps_before(y) - leaps_before(1970) +
                 before_month[mo - 1] + (mo > 2 && is_leap(y)) + (d - 1);
  int64_t secs = days * 86400 + h * 3600 + mi * 60 + sec - offset;
  *out = secs * 1000000000 + frac;
  return true;
}

/* <EncodingType>url: the keys would be percent-encoded.  The client never
 * asks for it, and taking encoded keys as text would name other objects,
 * so a server that sends it anyway is refused. */
static int check_encoding(px_t *px, const char *text, size_t len) {
  if (len == 0) return 0;
  return BAD(px, "keys are encoded (<EncodingType> %s), which was not requested",
             len == 3 && memcmp(text, "url", 3) == 0 ? "url" : "unknown");
}

/* Room for entry N+1 in *ARR of *CAP elements of SIZE bytes. */
static int grow(px_t *px, void **arr, size_t *cap, size_t n, size_t size) {
  if (px->n_entries >= HL_S3_XML_MAX_ENTRIES)
    return BAD(px, "more than %d entries", HL_S3_XML_MAX_ENTRIES);
  px->n_entries++;
  if (n < *cap) return 0;
  size_t ncap = *cap ? *cap * 2 : 16; /* n <= MAX_ENTRIES: no overflow */
  void *p = hl_arena_realloc(px->arena, *arr, *cap * size, ncap * size);
  if (!p) return px_nomem(px);
  *arr = p;
  *cap = ncap;
  return 0;
}

/* ---- <Error> (also inside parse_complete) ---- */

/* END for the children of an <Error> root. */
static int error_end(px_t *px, hl_s3_error_t *e, const char *rel, const char *text, size_t len,
                     bool leaf) {
  if (strcmp(rel, "Code") == 0) return take_text(px, &e->code, "Code", text, len, leaf);
  if (strcmp(rel, "Message") == 0) return take_text(px, &e->message, "Message", text, len, leaf);
  if (strcmp(rel, "RequestId") == 0)
    return take_text(px, &e->request_id, "RequestId", text, len, leaf);
  if (rel[0] == '\0' && !e->code) return BAD(px, "<Error> without <Code>");
  return 0;
}

static int error_doc_end(px_t *px, const char *rel, const char *text, size_t len, bool leaf) {
  return error_end(px, px->st, rel, text, len, leaf);
}

hl_status_t hl_s3_xml_parse_error(const char *body, size_t len, hl_arena_t *arena,
                                  hl_s3_error_t *out, bool *is_error, hl_error_t *err) {
  static const char *const roots[] = {"Error", NULL};
  memset(out, 0, sizeof *out);
  *is_error = false;
  px_t px;
  px_init(&px, "error", roots, arena, err);
  px.other_root_ok = true;
  px.end = error_doc_end;
  px.st = out;
  run_t rc = px_run(&px, body, len);
  if (rc == RUN_FAIL) {
    memset(out, 0, sizeof *out);
    return err->code;
  }
  if (rc == RUN_NOT_XML) {
    memset(out, 0, sizeof *out);
    return HL_OK;
  }
  *is_error = true;
  return HL_OK;
}

/* ---- ListObjectsV2 ---- */

typedef struct list_st {
  hl_s3_list_t *out;
  size_t cap_objects, cap_prefixes;
  bool has_size; /* the open <Contents> had a <Size> */
} list_st_t;

static int list_start(px_t *px, const char *rel) {
  list_st_t *st = px->st;
  hl_s3_list_t *o = st->out;
  if (strcmp(rel, "Contents") == 0) {
    if (grow(px, (void **)&o->objects, &st->cap_objects, o->n_objects, sizeof *o->objects) < 0)
      return -1;
    memset(&o->objects[o->n_objects++], 0, sizeof *o->objects);
    st->has_size = false;
  } else if (strcmp(rel, "CommonPrefixes") == 0) {
    if (grow(px, (void **)&o->prefixes, &st->cap_prefixes, o->n_prefixes, sizeof *o->prefixes) < 0)
      return -1;
    o->prefixes[o->n_prefixes++] = NULL;
  }
  return 0;
}

static int list_end(px_t *px, const char *rel, const char *text, size_t len, bool leaf) {
  list_st_t *st = px->st;
  hl_s3_list_t *o = st->out;
  hl_s3_object_t *obj = o->n_objects ? &o->objects[o->n_objects - 1] : NULL;
  if (strncmp(rel, "Contents", 8) == 0 && (rel[8] == '/' || rel[8] == '\0')) {
    const char *f = rel[8] ? rel + 9 : "";
    if (strcmp(f, "Key") == 0) return take_text(px, &obj->key, "Key", text, len, leaf);
    if (strcmp(f, "ETag") == 0) return take_text(px, &obj->etag, "ETag", text, len, leaf);
    if (strcmp(f, "Size") == 0) {
      st->has_size = true;
      return take_size(px, &obj->size, text, len, leaf);
    }
    if (strcmp(f, "LastModified") == 0) {
      if (!leaf || !parse_time(text, len, &obj->mtime_ns))
        return BAD(px, "<LastModified> is not an ISO 8601 UTC time");
      return 0;
    }
    if (f[0] == '\0') {
      if (!obj->key) return BAD(px, "<Contents> without <Key>");
      if (!st->has_size) return BAD(px, "<Contents> without <Size>");
    }
    return 0;
  }
  if (strcmp(rel, "CommonPrefixes/Prefix") == 0)
    return take_text(px, &o->prefixes[o->n_prefixes - 1], "Prefix", text, len, leaf);
  if (strcmp(rel, "CommonPrefixes") == 0 && !o->prefixes[o->n_prefixes - 1])
    return BAD(px, "<CommonPrefixes> without <Prefix>");
  if (strcmp(rel, "IsTruncated") == 0)
    return take_bool(px, &o->truncated, "IsTruncated", text, len, leaf);
  if (strcmp(rel, "EncodingType") == 0) return check_encoding(px, text, len);
  if (strcmp(rel, "NextContinuationToken") == 0)
    return take_text(px, &o->next_token, "NextContinuationToken", text, len, leaf);
  return 0;
}

hl_status_t hl_s3_xml_parse_list(const char *body, size_t len, hl_arena_t *arena, hl_s3_list_t *out,
                                 hl_error_t *err) {
  static const char *const roots[] = {"ListBucketResult", NULL};
  memset(out, 0, sizeof *out);
  list_st_t st = {.out = out};
  px_t px;
  px_init(&px, "ListObjectsV2", roots, arena, err);
  px.start = list_start;
  px.end = list_end;
  px.st = &st;
  if (px_run(&px, body, len) != RUN_OK) {
    memset(out, 0, sizeof *out);
    return err->code;
  }
  return HL_OK;
}

/* ---- CreateMultipartUpload ---- */

static int initiate_end(px_t *px, const char *rel, const char *text, size_t len, bool leaf) {
  char **id = px->st;
  if (strcmp(rel, "UploadId") == 0) return take_text(px, id, "UploadId", text, len, leaf);
  if (rel[0] == '\0' && (!*id || !**id)) return BAD(px, "no <UploadId>");
  return 0;
}

hl_status_t hl_s3_xml_parse_initiate(const char *body, size_t len, hl_arena_t *arena,
                                     char **upload_id, hl_error_t *err) {
  static const char *const roots[] = {"InitiateMultipartUploadResult", NULL};
  *upload_id = NULL;
  px_t px;
  px_init(&px, "CreateMultipartUpload", roots, arena, err);
  px.end = initiate_end;
  px.st = upload_id;
  if (px_run(&px, body, len) != RUN_OK) {
    *upload_id = NULL;
    return err->code;
  }
  return HL_OK;
}

/* ---- CompleteMultipartUpload ---- */

typedef struct complete_st {
  char **etag;
  hl_s3_error_t *error;
} complete_st_t;

static int complete_end(px_t *px, const char *rel, const char *text, size_t len, bool leaf) {
  complete_st_t *st = px->st;
  if (px->root == 1) return error_end(px, st->error, rel, text, len, leaf);
  if (strcmp(rel, "ETag") == 0) return take_text(px, st->etag, "ETag", text, len, leaf);
  if (rel[0] == '\0' && !*st->etag) return BAD(px, "no <ETag>");
  return 0;
}

hl_status_t hl_s3_xml_parse_complete(const char *body, size_t len, hl_arena_t *arena, char **etag,
                                     bool *is_error, hl_s3_error_t *error, hl_error_t *err) {
  static const char *const roots[] = {"CompleteMultipartUploadResult", "Error", NULL};
  *etag = NULL;
  *is_error = false;
  memset(error, 0, sizeof *error);
  complete_st_t st = {etag, error};
  px_t px;
  px_init(&px, "CompleteMultipartUpload", roots, arena, err);
  px.end = complete_end;
  px.st = &st;
  if (px_run(&px, body, len) != RUN_OK) {
    *etag = NULL;
    memset(error, 0, sizeof *error);
    return err->code;
  }
  *is_error = px.root == 1;
  return HL_OK;
}

/* ---- ListMultipartUploads ---- */

typedef struct uploads_st {
  hl_s3_uploads_t *out;
  size_t cap;
} uploads_st_t;

static int uploads_start(px_t *px, const char *rel) {
  uploads_st_t *st = px->st;
  hl_s3_uploads_t *o = st->out;
  if (strcmp(rel, "Upload") != 0) return 0;
  if (grow(px, (void **)&o->uploads, &st->cap, o->n_uploads, sizeof *o->uploads) < 0) return -1;
  memset(&o->uploads[o->n_uploads++], 0, sizeof *o->uploads);
  return 0;
}

static int uploads_end(px_t *px, const char *rel, const char *text, size_t len, bool leaf) {
  uploads_st_t *st = px->st;
  hl_s3_uploads_t *o = st->out;
  hl_s3_upload_t *u = o->n_uploads ? &o->uploads[o->n_uploads - 1] : NULL;
  if (strcmp(rel, "Upload/Key") == 0) return take_text(px, &u->key, "Key", text, len, leaf);
  if (strcmp(rel, "Upload/UploadId") == 0)
    return take_text(px, &u->upload_id, "UploadId", text, len, leaf);
  if (strcmp(rel, "Upload") == 0) {
    if (!u->key) return BAD(px, "<Upload> without <Key>");
    if (!u->upload_id) return BAD(px, "<Upload> without <UploadId>");
    return 0;
  }
  if (strcmp(rel, "IsTruncated") == 0)
    return take_bool(px, &o->truncated, "IsTruncated", text, len, leaf);
  if (strcmp(rel, "EncodingType") == 0) return check_encoding(px, text, len);
  if (strcmp(rel, "NextKeyMarker") == 0)
    return take_text(px, &o->next_key_marker, "NextKeyMarker", text, len, leaf);
  if (strcmp(rel, "NextUploadIdMarker") == 0)
    return take_text(px, &o->next_upload_id_marker, "NextUploadIdMarker", text, len, leaf);
  return 0;
}

hl_status_t hl_s3_xml_parse_uploads(const char *body, size_t len, hl_arena_t *arena,
                                    hl_s3_uploads_t *out, hl_error_t *err) {
  static const char *const roots[] = {"ListMultipartUploadsResult", NULL};
  memset(out, 0, sizeof *out);
  uploads_st_t st = {.out = out};
  px_t px;
  px_init(&px, "ListMultipartUploads", roots, arena, err);
  px.start = uploads_start;
  px.end = uploads_end;
  px.st = &st;
  if (px_run(&px, body, len) != RUN_OK) {
    memset(out, 0, sizeof *out);
    return err->code;
  }
  return HL_OK;
}

/* ---- DeleteObjects ---- */

typedef struct delete_st {
  hl_s3_delete_error_t *errors;
  size_t n, cap;
} delete_st_t;

static int delete_start(px_t *px, const char *rel) {
  delete_st_t *st = px->st;
  if (strcmp(rel, "Error") != 0) return 0;
  if (grow(px, (void **)&st->errors, &st->cap, st->n, sizeof *st->errors) < 0) return -1;
  memset(&st->errors[st->n++], 0, sizeof *st->errors);
  return 0;
}

static int delete_end(px_t *px, const char *rel, const char *text, size_t len, bool leaf) {
  delete_st_t *st = px->st;
  hl_s3_delete_error_t *e = st->n ? &st->errors[st->n - 1] : NULL;
  if (strcmp(rel, "Error/Key") == 0) return take_text(px, &e->key, "Key", text, len, leaf);
  if (strcmp(rel, "Error/Code") == 0) return take_text(px, &e->code, "Code", text, len, leaf);
  if (strcmp(rel, "Error/Message") == 0)
    return take_text(px, &e->message, "Message", text, len, leaf);
  if (strcmp(rel, "Error") == 0) {
    if (!e->key) return BAD(px, "<Error> without <Key>");
    if (!e->code) return BAD(px, "<Error> without <Code>");
  }
  return 0;
}

hl_status_t hl_s3_xml_parse_delete(const char *body, size_t len, hl_arena_t *arena,
                                   hl_s3_delete_error_t **errors, size_t *n_errors,
                                   hl_error_t *err) {
  static const char *const roots[] = {"DeleteResult", NULL};
  *errors = NULL;
  *n_errors = 0;
  delete_st_t st = {0};
  px_t px;
  px_init(&px, "DeleteObjects", roots, arena, err);
  px.start = delete_start;
  px.end = delete_end;
  px.st = &st;
  if (px_run(&px, body, len) != RUN_OK) return err->code;
  *errors = st.errors;
  *n_errors = st.n;
  return HL_OK;
}

/* ---- request bodies ---- */

static void put_escaped(hl_buf_t *out, const char *s) {
  const char *run = s; /* start of bytes not yet written */
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    const char *ent = NULL;
    switch (c) {
    case '&':
      ent = "&amp;";
      break;
    case '<':
      ent = "&lt;";
      break;
    case '>':
      ent = "&gt;";
      break;
    case '"':
      ent = "&quot;";
      break;
    case '\'':
      ent = "&apos;";
      break;
    default:
      if (c >= 0x20) continue;
    }
    hl_buf_append(out, run, (size_t)(s - run));
    if (ent)
      hl_buf_puts(out, ent);
    else
      hl_buf_printf(out, "&#x%X;", c);
    run = s + 1;
  }
  hl_buf_append(out, run, (size_t)(s - run));
}

void hl_s3_xml_build_complete(hl_buf_t *out, char *const *etags, size_t n_parts) {
  hl_buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<CompleteMultipartUpload xmlns=\"" S3_NS "\">");
  for (size_t i = 0; i < n_parts; i++) {
    hl_buf_printf(out, "<Part><PartNumber>%zu</PartNumber><ETag>", i + 1);
    put_escaped(out, etags[i]);
    hl_buf_puts(out, "</ETag></Part>");
  }
  hl_buf_puts(out, "</CompleteMultipartUpload>");
}

void hl_s3_xml_build_delete(hl_buf_t *out, char *const *keys, size_t n_keys) {
  hl_buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<Delete xmlns=\"" S3_NS "\"><Quiet>true</Quiet>");
  for (size_t i = 0; i < n_keys; i++) {
    hl_buf_puts(out, "<Object><Key>");
    put_escaped(out, keys[i]);
    hl_buf_puts(out, "</Key></Object>");
  }
  hl_buf_puts(out, "</Delete>");
}
