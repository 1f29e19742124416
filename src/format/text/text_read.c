/*
 * text_read.c -- the text-table reader: records out of a byte stream, then
 * fields out of records, converted to column vectors.
 *
 *   hl_text_src (text_io.c) --plain bytes--> line buffer --records-->
 *     lazy_row  (LazySimpleSerDe: separators by nesting level, escapes)
 *     csv_row   (OpenCSVSerde: quotes, escapes; records may span lines)
 *     json_row  (JsonSerDe: one object per line, via jansson)
 *   --> batch vectors (strings and complex trees in the batch arena)
 *
 * The line buffer holds at least one whole record; it starts at 1 MiB and
 * doubles up to MAX_RECORD, beyond which a record is an error rather than
 * an unbounded allocation.  Records are consumed in place: a record that a
 * projected column keeps pointers into (strings, complex values) is copied
 * once into the batch arena; everything else is converted straight from the
 * buffer, so a scan does no per-field heap allocation.
 *
 * Hive's rules (LazySimpleSerDe): missing fields are NULL, extra fields are
 * ignored, the null string is NULL for every type, an empty field is NULL
 * except for STRING (empty string), BINARY (empty) and collections (empty),
 * a field that does not convert is NULL.  Scalar conversion is Hive's cast
 * from string (hl_value_from_text) except BOOLEAN (only true/false, any
 * case, as LazyBoolean) and BINARY (base64, see hl_text_b64_decode).
 */
#include "format/text/text_int.h"

#include "format/lazybin/lazybin.h"

#include "util/mem.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_RECORD       ((size_t)64 << 20) /* longest record (line) accepted */
#define INITIAL_BUF      ((size_t)1 << 20)  /* first line-buffer size */
#define BATCH_SOFT_BYTES ((size_t)32 << 20) /* end a batch early past this */
#define N_LEVELS         8                  /* LazySimpleSerDe separators */

struct hl_text_reader {
  hl_text_format_t fmt; /* copy; fmt.null_string points to null_string */
  char *null_string;    /* heap copy */
  size_t null_len;
  char *path; /* heap copy, for messages */
  hl_text_src_t *src;
  int n_cols;
  const hl_type_t *const *types; /* borrowed */
  const char *const *names;      /* borrowed */
  bool *projected;               /* heap, n_cols */
  int last_projected;            /* highest projected column, -1 if none */
  bool copy_records;             /* a projected column keeps pointers into records */
  bool *seen;                    /* JSON: column got a value in this row */
  char *buf;                     /* line buffer [start, end) unconsumed */
  size_t cap, start, end;
  size_t scan;      /* bytes after start known to hold no '\n' */
  bool src_done;    /* the source has no more bytes */
  uint64_t line_no; /* physical lines consumed */
  bool header_done;
  char *scratch; /* CSV unquoting when the result need not live on */
  size_t scratch_cap;
  hl_buf_t text;          /* JSON number/boolean text */
  hl_arena_t *arena;      /* the batch arena during next() */
  hl_error_t conv;        /* conversion errors, which only mean NULL */
  hl_text_regex_t *regex; /* RegexSerDe: the compiled input.regex */
  hl_value_t *lb_vals;    /* LazyBinarySerDe: one decoded row, n_cols */
};

/* ---------------------------------------------------------------------- */
/* Records                                                                  */
/* ---------------------------------------------------------------------- */

static hl_status_t too_long(hl_text_reader_t *r, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                    "cannot read \"%s\": line %llu is longer than %zu MiB", r->path,
                    (unsigned long long)r->line_no + 1, MAX_RECORD >> 20);
}

/* Moves the unconsumed bytes to the front, grows the buffer when they fill
 * it, and reads more.  Sets src_done at the end of the data. */
static hl_status_t fill(hl_text_reader_t *r, hl_error_t *err) {
  size_t live = r->end - r->start;
  if (r->start > 0) {
    memmove(r->buf, r->buf + r->start, live);
    r->start = 0;
    r->end = live;
  }
  if (r->end == r->cap) {
    if (r->cap >= MAX_RECORD) return too_long(r, err);
    size_t cap = r->cap * 2;
    if (cap > MAX_RECORD) cap = MAX_RECORD;
    char *p = hl_realloc(r->buf, cap);
    if (!p) return hl_err_nomem(err);
    r->buf = p;
    r->cap = cap;
  }
  size_t want = r->cap - r->end, got = 0;
  hl_status_t st = hl_text_src_read(r->src, r->buf + r->end, want, &got, err);
  if (st != HL_OK) return st;
  r->end += got;
  if (got < want) r->src_done = true;
  return HL_OK;
}

/* The next physical line without its terminator ('\n', '\r\n'); the last
 * line may lack one, and a final empty line is no line.  *line is valid
 * until the next call.  *got false at end of data. */
static hl_status_t next_line(hl_text_reader_t *r, const char **line, size_t *len, bool *got,
                             hl_error_t *err) {
  for (;;) {
    char *base = r->buf + r->start;
    size_t avail = r->end - r->start, n;
    char *nl = r->scan < avail ? memchr(base + r->scan, '\n', avail - r->scan) : NULL;
    if (nl) {
      n = (size_t)(nl - base);
      r->start += n + 1;
    } else if (r->src_done) {
      if (avail == 0) {
        *got = false;
        return HL_OK;
      }
      n = avail;
      r->start = r->end;
    } else {
      r->scan = avail;
      hl_status_t st = fill(r, err);
      if (st != HL_OK) return st;
      continue;
    }
    r->scan = 0;
    if (n > 0 && base[n - 1] == '\r') n--;
    r->line_no++;
    *line = base;
    *len = n;
    *got = true;
    return HL_OK;
  }
}

/* Finds the end of the CSV record at P[0..n): the index of the '\n' that
 * ends it outside quotes, N when the data ends there (EOF set), or -1 when
 * more data is needed.  *open_quote reports an unterminated quote at EOF.
 * Must treat quotes and escapes exactly as csv_row does. */
static long csv_record_end(const hl_text_format_t *fmt, const char *p, size_t n, bool eof,
                           bool *open_quote, size_t *newlines) {
  bool in_quotes = false, esc_on = fmt->csv_escape != fmt->csv_quote;
  size_t lines = 0;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (esc_on && c == fmt->csv_escape) {
      if (i + 1 >= n) {
        if (!eof) return -1;
        continue;
      }
      if (p[i + 1] == fmt->csv_quote || p[i + 1] == fmt->csv_escape) i++;
    } else if (c == fmt->csv_quote) {
      in_quotes = !in_quotes;
    } else if (c == '\n') {
      if (!in_quotes) {
        *newlines = lines;
        return (long)i;
      }
      lines++;
    }
  }
  if (!eof) return -1;
  *newlines = lines;
  *open_quote = in_quotes;
  return (long)n;
}

static hl_status_t next_csv_record(hl_text_reader_t *r, const char **rec, size_t *len, bool *got,
                                   hl_error_t *err) {
  for (;;) {
    char *base = r->buf + r->start;
    size_t avail = r->end - r->start, newlines = 0;
    bool open_quote = false;
    long e = csv_record_end(&r->fmt, base, avail, r->src_done, &open_quote, &newlines);
    if (e < 0) {
      hl_status_t st = fill(r, err);
      if (st != HL_OK) return st;
      continue;
    }
    size_t n = (size_t)e;
    if (n == avail) {
      if (avail == 0) {
        *got = false;
        return HL_OK;
      }
      if (open_quote)
        return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                          "cannot read \"%s\": unterminated quoted field in line %llu", r->path,
                          (unsigned long long)r->line_no + 1);
      r->start = r->end;
    } else {
      r->start += n + 1;
    }
    if (n > 0 && base[n - 1] == '\r') n--;
    r->line_no += 1 + newlines;
    *rec = base;
    *len = n;
    *got = true;
    return HL_OK;
  }
}

/* ---------------------------------------------------------------------- */
/* Scalars                                                                  */
/* ---------------------------------------------------------------------- */

static bool is_null_text(const hl_text_reader_t *r, const char *p, size_t n) {
  return n == r->null_len && memcmp(p, r->null_string, n) == 0;
}

/* Copies P[0..n) into the batch arena dropping LazySimpleSerDe escapes
 * (escape + 'n' / 'r' is a newline / carriage return, escape + c is c). */
static char *unescape(hl_text_reader_t *r, const char *p, size_t n, size_t *out_len) {
  char *o = hl_arena_alloc(r->arena, n ? n : 1);
  if (!o) return NULL;
  size_t k = 0;
  char esc = r->fmt.escape;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == esc && i + 1 < n) {
      i++;
      o[k++] = p[i] == 'n' ? '\n' : p[i] == 'r' ? '\r' : p[i];
    } else {
      o[k++] = p[i];
    }
  }
  *out_len = k;
  return o;
}

/* Converts text P[0..n) to scalar TYPE.  STABLE: P lives in the batch
 * arena, so a STRING may point at it.  A text that does not convert is
 * NULL; only running out of memory fails. */
static hl_status_t scalar(hl_text_reader_t *r, const hl_type_t *type, const char *p, size_t n,
                          bool stable, hl_value_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  switch (type->id) {
  case HL_T_STRING:
    if (!stable && n) {
      char *c = hl_arena_alloc(r->arena, n);
      if (!c) return hl_err_nomem(err);
      memcpy(c, p, n);
      p = c;
    }
    out->u.s.ptr = n ? p : "";
    out->u.s.len = (uint32_t)n;
    return HL_OK;
  case HL_T_BINARY: {
    unsigned char *b = hl_arena_alloc(r->arena, n ? n : 1);
    if (!b) return hl_err_nomem(err);
    out->u.s.len = (uint32_t)hl_text_b64_decode(p, n, b);
    out->u.s.ptr = (const char *)b;
    return HL_OK;
  }
  case HL_T_BOOLEAN:
    if (n == 4 && strncasecmp(p, "true", 4) == 0)
      out->u.b = true;
    else if (n == 5 && strncasecmp(p, "false", 5) == 0)
      out->u.b = false;
    else
      out->is_null = true;
    return HL_OK;
  case HL_T_NULL:
  case HL_T_ARRAY:
  case HL_T_MAP:
  case HL_T_STRUCT:
    out->is_null = true;
    return HL_OK;
  default:
    break;
  }
  if (n == 0 && !hl_type_is_string(type)) {
    out->is_null = true;
    return HL_OK;
  }
  hl_status_t st = hl_value_from_text(r->arena, type, p, n, out, &r->conv);
  if (st == HL_OK) return HL_OK;
  hl_err_clear(&r->conv);
  if (st == HL_NOMEM) return hl_err_nomem(err);
  memset(out, 0, sizeof *out);
  out->is_null = true;
  return HL_OK;
}

/* Stores scalar or complex value V at ROW of VEC; complex values are kept
 * by pointer (V must live in the batch arena). */
static hl_status_t store(hl_text_reader_t *r, hl_vec_t *vec, uint32_t row, hl_value_t *v,
                         hl_error_t *err) {
  if (v->is_null) {
    if (hl_vec_set_null(vec, r->arena, row) != HL_OK) return hl_err_nomem(err);
    return HL_OK;
  }
  switch (hl_type_phys(vec->type)) {
  case HL_P_BOOL:
    HL_VEC_BOOL(vec)[row] = v->u.b ? 1 : 0;
    break;
  case HL_P_I64:
    HL_VEC_I64(vec)[row] = v->u.i;
    break;
  case HL_P_F64:
    HL_VEC_F64(vec)[row] = v->u.d;
    break;
  case HL_P_I128:
    HL_VEC_I128(vec)[row] = v->u.dec;
    break;
  case HL_P_STR:
    HL_VEC_STR(vec)[row] = v->u.s;
    break;
  case HL_P_VALUE:
    HL_VEC_VALUE(vec)[row] = v;
    break;
  }
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* LazySimpleSerDe                                                          */
/* ---------------------------------------------------------------------- */

/* End of the field that starts at POS in P[0..n): the next SEP that is not
 * escaped, or N. */
static size_t field_end(const hl_text_reader_t *r, const char *p, size_t n, size_t pos, char sep) {
  if (!r->fmt.has_escape) {
    const char *s = pos < n ? memchr(p + pos, sep, n - pos) : NULL;
    return s ? (size_t)(s - p) : n;
  }
  char esc = r->fmt.escape;
  while (pos < n) {
    if (p[pos] == sep) return pos;
    pos += (p[pos] == esc && pos + 1 < n) ? 2 : 1;
  }
  return n;
}

static size_t count_fields(const hl_text_reader_t *r, const char *p, size_t n, char sep) {
  size_t count = 1;
  for (size_t pos = field_end(r, p, n, 0, sep); pos < n; pos = field_end(r, p, n, pos + 1, sep))
    count++;
  return count;
}

typedef struct key_sort {
  const hl_type_t *type;
  const hl_value_t *items; /* map items: key, value, key, value ... */
} key_sort_t;

static int cmp_keys(const void *a, const void *b, void *arg) {
  const key_sort_t *ks = arg;
  uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
  int c = hl_value_compare(ks->type, &ks->items[2 * i], &ks->items[2 * j]);
  return c ? c : (i > j) - (i < j); /* equal keys: first entry first */
}

/* Drops later entries whose key repeats an earlier one (Hive's LazyMap
 * keeps the first).  Keys are non-NULL primitives. */
static hl_status_t dedupe_keys(hl_text_reader_t *r, const hl_type_t *key_type, hl_value_t *items,
                               uint32_t *count, hl_error_t *err) {
  uint32_t n = *count;
  if (n < 2) return HL_OK;
  bool *dup = hl_arena_zalloc(r->arena, n);
  if (!dup) return hl_err_nomem(err);
  bool any = false;
  if (n <= 32) {
    for (uint32_t i = 1; i < n; i++)
      for (uint32_t j = 0; j < i && !dup[i]; j++)
        if (!dup[j] && hl_value_compare(key_type, &items[2 * i], &items[2 * j]) == 0)
          dup[i] = any = true;
  } else {
    uint32_t *order = hl_arena_alloc(r->arena, sizeof *order * n);
    if (!order) return hl_err_nomem(err);
    for (uint32_t i = 0; i < n; i++)
      order[i] = i;
    key_sort_t ks = {key_type, items};
    qsort_r(order, n, sizeof *order, cmp_keys, &ks);
    for (uint32_t i = 1; i < n; i++) {
      uint32_t first = order[i - 1], cur = order[i];
      if (hl_value_compare(key_type, &items[2 * first], &items[2 * cur]) == 0) {
        dup[cur] = any = true; /* runs are in entry order: CUR is not the first */
      }
    }
  }
  if (!any) return HL_OK;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (dup[i]) continue;
    items[2 * k] = items[2 * i];
    items[2 * k + 1] = items[2 * i + 1];
    k++;
  }
  *count = k;
  return HL_OK;
}

static hl_status_t lazy_value(hl_text_reader_t *r, const hl_type_t *type, int level, const char *p,
                              size_t n, hl_value_t *out, hl_error_t *err);

/* LazyUnion's layout: the tag in decimal, separators[level], then the
 * value (to the end of the field, its own separators one level down).  A
 * tag that is not a number naming an alternative makes the union NULL
 * (Hive's reader fails on it; NULL is the rule for bad text here). */
static hl_status_t lazy_union(hl_text_reader_t *r, const hl_type_t *type, int level, const char *p,
                              size_t n, hl_value_t *out, hl_error_t *err) {
  size_t e = field_end(r, p, n, 0, r->fmt.separators[level]);
  int tag = 0;
  size_t i = 0;
  if (i < e && p[i] == '+') i++;
  if (i == e) tag = -1;
  for (; i < e && tag >= 0; i++)
    tag = p[i] >= '0' && p[i] <= '9' && tag < HL_UNION_MAX_TAGS ? tag * 10 + (p[i] - '0') : -1;
  if (tag < 0 || tag >= type->n_children || e == n) {
    out->is_null = true;
    return HL_OK;
  }
  hl_value_t *item = hl_arena_alloc(r->arena, sizeof *item);
  if (!item) return hl_err_nomem(err);
  hl_status_t st = lazy_value(r, type->children[tag], level + 1, p + e + 1, n - e - 1, item, err);
  if (st != HL_OK) return st;
  out->u.list.n = 1;
  out->u.list.tag = (uint32_t)tag;
  out->u.list.items = item;
  return HL_OK;
}

/* Decodes the field P[0..n) (in the batch arena) as TYPE whose separators
 * start at LEVEL (Hive: an array's items use separators[level], its
 * elements level + 1; a map's entries level, keys level + 1, keys and
 * values level + 2; a struct's fields level, their values level + 1). */
static hl_status_t lazy_value(hl_text_reader_t *r, const hl_type_t *type, int level, const char *p,
                              size_t n, hl_value_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  if (is_null_text(r, p, n)) {
    out->is_null = true;
    return HL_OK;
  }
  if (!hl_type_is_complex(type)) {
    if (r->fmt.has_escape && hl_type_is_string(type) && memchr(p, r->fmt.escape, n)) {
      size_t len = 0;
      p = unescape(r, p, n, &len);
      if (!p) return hl_err_nomem(err);
      n = len;
    }
    return scalar(r, type, p, n, true, out, err);
  }
  if (level + (type->id == HL_T_MAP) >= N_LEVELS) { /* rejected at open; defensive */
    out->is_null = true;
    return HL_OK;
  }
  char sep = r->fmt.separators[level];
  if (type->id == HL_T_UNION) return lazy_union(r, type, level, p, n, out, err);
  if (type->id == HL_T_STRUCT) {
    uint32_t n_fields = (uint32_t)type->n_children;
    hl_value_t *items = hl_arena_zalloc(r->arena, sizeof *items * (n_fields ? n_fields : 1));
    if (!items) return hl_err_nomem(err);
    size_t pos = 0;
    bool more = true;
    for (uint32_t i = 0; i < n_fields; i++) {
      if (!more) {
        items[i].is_null = true;
        continue;
      }
      size_t e = field_end(r, p, n, pos, sep);
      hl_status_t st =
          lazy_value(r, type->children[i], level + 1, p + pos, e - pos, &items[i], err);
      if (st != HL_OK) return st;
      more = e < n;
      pos = e + 1;
    }
    out->u.list.n = n_fields;
    out->u.list.items = items;
    return HL_OK;
  }
  if (n == 0) return HL_OK; /* empty array / map */
  size_t count = count_fields(r, p, n, sep);
  bool is_map = type->id == HL_T_MAP;
  size_t per = is_map ? 2 : 1;
  hl_value_t *items = hl_arena_alloc(r->arena, sizeof *items * per * count);
  if (!items) return hl_err_nomem(err);
  size_t pos = 0, k = 0;
  for (size_t i = 0; i < count; i++) {
    size_t e = field_end(r, p, n, pos, sep);
    const char *f = p + pos;
    size_t fn = e - pos;
    hl_status_t st;
    if (is_map) {
      size_t ke = field_end(r, f, fn, 0, r->fmt.separators[level + 1]);
      st = lazy_value(r, type->children[0], level + 2, f, ke, &items[k], err);
      if (st == HL_OK && !items[k].is_null) { /* Hive drops entries whose key is NULL */
        if (ke < fn)
          st = lazy_value(r, type->children[1], level + 2, f + ke + 1, fn - ke - 1, &items[k + 1],
                          err);
        else
          items[k + 1] = (hl_value_t){.is_null = true};
        k += 2;
      }
    } else {
      st = lazy_value(r, type->children[0], level + 1, f, fn, &items[k++], err);
    }
    if (st != HL_OK) return st;
    pos = e + 1;
  }
  out->u.list.n = (uint32_t)(k / per);
  out->u.list.items = items;
  if (is_map) return dedupe_keys(r, type->children[0], items, &out->u.list.n, err);
  return HL_OK;
}

static hl_status_t lazy_column(hl_text_reader_t *r, hl_batch_t *batch, int col, uint32_t row,
                               const char *p, size_t n, hl_error_t *err) {
  const hl_type_t *type = r->types[col];
  if (hl_type_is_complex(type)) {
    hl_value_t *v = hl_arena_alloc(r->arena, sizeof *v);
    if (!v) return hl_err_nomem(err);
    hl_status_t st = lazy_value(r, type, 1, p, n, v, err);
    if (st != HL_OK) return st;
    return store(r, &batch->cols[col], row, v, err);
  }
  hl_value_t v;
  hl_status_t st = lazy_value(r, type, 1, p, n, &v, err);
  if (st != HL_OK) return st;
  return store(r, &batch->cols[col], row, &v, err);
}

static hl_status_t set_null(hl_text_reader_t *r, hl_batch_t *batch, int col, uint32_t row,
                            hl_error_t *err) {
  if (hl_vec_set_null(&batch->cols[col], r->arena, row) != HL_OK) return hl_err_nomem(err);
  return HL_OK;
}

/* Copies a record into the batch arena when projected columns will point
 * into it. */
static hl_status_t stabilize(hl_text_reader_t *r, const char **p, size_t n, hl_error_t *err) {
  if (!r->copy_records || n == 0) return HL_OK;
  char *c = hl_arena_alloc(r->arena, n);
  if (!c) return hl_err_nomem(err);
  memcpy(c, *p, n);
  *p = c;
  return HL_OK;
}

static hl_status_t lazy_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row, const char *p,
                            size_t n, hl_error_t *err) {
  hl_status_t st = stabilize(r, &p, n, err);
  if (st != HL_OK) return st;
  char sep = r->fmt.separators[0];
  const char *multi = r->fmt.multi_delim; /* MultiDelimitSerDe: escapes do not hide it */
  size_t step = multi ? r->fmt.multi_len : 1;
  size_t pos = 0;
  bool more = true;
  for (int col = 0; col <= r->last_projected; col++) {
    if (!more) {
      if (r->projected[col] && (st = set_null(r, batch, col, row, err)) != HL_OK) return st;
      continue;
    }
    size_t e = n;
    if (multi) {
      const char *d = pos < n ? memmem(p + pos, n - pos, multi, step) : NULL;
      if (d) e = (size_t)(d - p);
    } else {
      e = field_end(r, p, n, pos, sep);
    }
    if (r->projected[col] && (st = lazy_column(r, batch, col, row, p + pos, e - pos, err)) != HL_OK)
      return st;
    more = e < n;
    pos = e + step;
  }
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* LazyBinarySerDe                                                          */
/* ---------------------------------------------------------------------- */

/* A SequenceFile value holding a LazyBinarySerDe row (format/lazybin);
 * damaged bytes are XX001, as Hive's deserializer throws. */
static hl_status_t lazybin_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row, const char *p,
                               size_t n, hl_error_t *err) {
  bool ok = false;
  const char *why = NULL;
  hl_status_t st = hl_lazybin_decode_row((const unsigned char *)p, n, r->n_cols, r->types,
                                         r->projected, r->lb_vals, r->arena, &ok, &why, err);
  if (st != HL_OK) return st;
  if (!ok)
    return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                      "cannot read \"%s\": corrupt LazyBinarySerDe row (%s)", r->path, why);
  for (int col = 0; col <= r->last_projected; col++) {
    if (!r->projected[col]) continue;
    hl_value_t *v = &r->lb_vals[col];
    if (hl_type_is_complex(r->types[col]) && !v->is_null) { /* kept by pointer */
      hl_value_t *c = hl_arena_alloc(r->arena, sizeof *c);
      if (!c) return hl_err_nomem(err);
      *c = *v;
      v = c;
    }
    if ((st = store(r, &batch->cols[col], row, v, err)) != HL_OK) return st;
  }
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* RegexSerDe                                                               */
/* ---------------------------------------------------------------------- */

/* A line as Hive 4's RegexSerDe reads it (text_regex.c): no full match is
 * a row of NULLs; else each group converts as Java's valueOf of its
 * column type would (integers, floats, BOOLEAN) or as Hive's cast from
 * text (DECIMAL, DATE, TIMESTAMP, CHAR, VARCHAR, STRING as is); a group
 * that does not convert, or took no part, is NULL.  No null string. */
static hl_status_t regex_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row, const char *p,
                             size_t n, hl_error_t *err) {
  hl_status_t st = stabilize(r, &p, n, err);
  if (st != HL_OK) return st;
  bool matched = false;
  if ((st = hl_text_regex_match(r->regex, p, n, &matched, err)) != HL_OK) return st;
  for (int col = 0; col <= r->last_projected; col++) {
    if (!r->projected[col]) continue;
    size_t off = 0, len = 0;
    bool present = matched && hl_text_regex_group(r->regex, col, &off, &len);
    if (!matched || (!present && r->types[col]->id != HL_T_BOOLEAN)) {
      if ((st = set_null(r, batch, col, row, err)) != HL_OK) return st;
      continue;
    }
    hl_value_t v;
    if (!hl_text_regex_java_value(r->types[col], p + off, len, present, &v) &&
        (st = scalar(r, r->types[col], p + off, len, true, &v, err)) != HL_OK)
      return st;
    if ((st = store(r, &batch->cols[col], row, &v, err)) != HL_OK) return st;
  }
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* OpenCSVSerde                                                             */
/* ---------------------------------------------------------------------- */

static hl_status_t csv_field(hl_text_reader_t *r, hl_batch_t *batch, int col, uint32_t row,
                             const char *p, size_t n, hl_error_t *err) {
  if (col >= r->n_cols || !r->projected[col]) return HL_OK;
  hl_value_t v;
  hl_status_t st = scalar(r, r->types[col], p, n, true, &v, err);
  if (st != HL_OK) return st;
  return store(r, &batch->cols[col], row, &v, err);
}

/* Splits a record (see csv_record_end for the same rules): a quote
 * toggles quoting, two quotes inside quotes are one quote, the separator
 * outside quotes ends a field, the escape makes a following quote or escape
 * literal and is dropped otherwise (opencsv's CSVParser). */
static hl_status_t csv_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row, const char *p,
                           size_t n, hl_error_t *err) {
  char *out;
  if (r->copy_records) {
    out = hl_arena_alloc(r->arena, n ? n : 1);
    if (!out) return hl_err_nomem(err);
  } else {
    if (n > r->scratch_cap || !r->scratch) {
      size_t cap = n > 64 ? n : 64;
      char *s = hl_realloc(r->scratch, cap);
      if (!s) return hl_err_nomem(err);
      r->scratch = s;
      r->scratch_cap = cap;
    }
    out = r->scratch;
  }
  const hl_text_format_t *f = &r->fmt;
  bool in_quotes = false, esc_on = f->csv_escape != f->csv_quote;
  size_t o = 0, field_start = 0;
  int col = 0;
  hl_status_t st;
  for (size_t i = 0; i < n && col <= r->last_projected; i++) {
    char c = p[i];
    if (esc_on && c == f->csv_escape) {
      if (i + 1 < n && (p[i + 1] == f->csv_quote || p[i + 1] == f->csv_escape)) out[o++] = p[++i];
    } else if (c == f->csv_quote) {
      if (in_quotes && i + 1 < n && p[i + 1] == f->csv_quote)
        out[o++] = p[++i];
      else
        in_quotes = !in_quotes;
    } else if (c == f->csv_separator && !in_quotes) {
      if ((st = csv_field(r, batch, col, row, out + field_start, o - field_start, err)) != HL_OK)
        return st;
      col++;
      field_start = o;
    } else {
      out[o++] = c;
    }
  }
  if (col <= r->last_projected) {
    if ((st = csv_field(r, batch, col, row, out + field_start, o - field_start, err)) != HL_OK)
      return st;
    col++;
  }
  for (; col <= r->last_projected; col++)
    if (r->projected[col] && (st = set_null(r, batch, col, row, err)) != HL_OK) return st;
  return HL_OK;
}

/* ---------------------------------------------------------------------- */
/* JsonSerDe                                                                */
/* ---------------------------------------------------------------------- */

static hl_status_t json_value(hl_text_reader_t *r, const hl_type_t *type, json_t *j, json_t *q,
                              hl_value_t *out, hl_error_t *err);

/* The member of object J whose key equals NAME ignoring case, or NULL;
 * *KEY is its key. */
static json_t *json_member(json_t *j, const char *name, const char **key_out) {
  json_t *v = json_object_get(j, name); /* the usual case: exact */
  *key_out = name;
  if (v) return v;
  const char *key;
  json_t *value;
  json_object_foreach(j, key, value) {
    if (strcasecmp(key, name) == 0) {
      *key_out = key;
      return value;
    }
  }
  return NULL;
}

/* Leaf types that take a JSON number from its text: jansson keeps a
 * number only as an int64 or a double, which rounds DECIMAL(38) and
 * DECIMAL(18) values, turns 1.50 into "1.5" in a string column, and
 * rounds twice on the way to FLOAT. */
static bool wants_number_text(const hl_type_t *type) {
  return type->id == HL_T_DECIMAL || type->id == HL_T_FLOAT || hl_type_is_string(type);
}

/* Whether reading J (parsed normally) as TYPE needs the text of a real
 * number somewhere in it (integers are exact as int64). */
static bool needs_number_text(const hl_type_t *type, json_t *j) {
  switch (type->id) {
  case HL_T_ARRAY: {
    if (!json_is_array(j)) return false;
    size_t n = json_array_size(j);
    for (size_t i = 0; i < n; i++)
      if (needs_number_text(type->children[0], json_array_get(j, i))) return true;
    return false;
  }
  case HL_T_MAP: {
    if (!json_is_object(j)) return false;
    const char *key;
    json_t *value;
    json_object_foreach(j, key, value) {
      if (needs_number_text(type->children[1], value)) return true;
    }
    return false;
  }
  case HL_T_STRUCT: {
    if (!json_is_object(j)) return false;
    const char *key;
    for (int i = 0; i < type->n_children; i++)
      if (needs_number_text(type->children[i], json_member(j, type->field_names[i], &key)))
        return true;
    return false;
  }
  default:
    return json_is_real(j) && wants_number_text(type);
  }
}

/* A JSON scalar as text, as Hive reads it into a string column. */
static hl_status_t json_text(hl_text_reader_t *r, json_t *j, const char **p, size_t *n,
                             bool *stable, hl_error_t *err) {
  *stable = false;
  hl_buf_reset(&r->text);
  switch (json_typeof(j)) {
  case JSON_STRING:
    *p = json_string_value(j);
    *n = json_string_length(j);
    return HL_OK;
  case JSON_INTEGER:
    hl_buf_printf(&r->text, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
    break;
  case JSON_REAL:
    hl_format_double(&r->text, json_real_value(j), false);
    break;
  case JSON_TRUE:
    hl_buf_puts(&r->text, "true");
    break;
  case JSON_FALSE:
    hl_buf_puts(&r->text, "false");
    break;
  default: { /* an object or array read as a string: its JSON text */
    char *dump = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!dump) return hl_err_nomem(err);
    hl_buf_puts(&r->text, dump);
    free(dump); /* jansson's allocation */
    break;
  }
  }
  if (r->text.oom) return hl_err_nomem(err);
  *p = r->text.len ? r->text.data : "";
  *n = r->text.len;
  return HL_OK;
}

/* J is the value as jansson parsed it; Q, when not NULL, the same value
 * from the line parsed again with every number as a string (its text). */
static hl_status_t json_value(hl_text_reader_t *r, const hl_type_t *type, json_t *j, json_t *q,
                              hl_value_t *out, hl_error_t *err) {
  memset(out, 0, sizeof *out);
  if (!j || json_is_null(j)) {
    out->is_null = true;
    return HL_OK;
  }
  hl_status_t st;
  switch (type->id) {
  case HL_T_ARRAY: {
    if (!json_is_array(j)) break;
    size_t count = json_array_size(j);
    hl_value_t *items = hl_arena_alloc(r->arena, sizeof *items * (count ? count : 1));
    if (!items) return hl_err_nomem(err);
    for (size_t i = 0; i < count; i++)
      if ((st = json_value(r, type->children[0], json_array_get(j, i), json_array_get(q, i),
                           &items[i], err)) != HL_OK)
        return st;
    out->u.list.n = (uint32_t)count;
    out->u.list.items = items;
    return HL_OK;
  }
  case HL_T_MAP: {
    if (!json_is_object(j)) break;
    size_t count = json_object_size(j), k = 0;
    hl_value_t *items = hl_arena_alloc(r->arena, sizeof *items * 2 * (count ? count : 1));
    if (!items) return hl_err_nomem(err);
    const char *key;
    size_t key_len;
    json_t *value;
    json_object_keylen_foreach(j, key, key_len, value) {
      if ((st = scalar(r, type->children[0], key, key_len, false, &items[k], err)) != HL_OK)
        return st;
      if (items[k].is_null) continue; /* a key that does not convert: entry dropped */
      json_t *qv = q ? json_object_getn(q, key, key_len) : NULL;
      if ((st = json_value(r, type->children[1], value, qv, &items[k + 1], err)) != HL_OK)
        return st;
      k += 2;
    }
    out->u.list.n = (uint32_t)(k / 2);
    out->u.list.items = items;
    return HL_OK;
  }
  case HL_T_STRUCT: {
    if (!json_is_object(j)) break;
    uint32_t n_fields = (uint32_t)type->n_children;
    hl_value_t *items = hl_arena_alloc(r->arena, sizeof *items * (n_fields ? n_fields : 1));
    if (!items) return hl_err_nomem(err);
    for (uint32_t i = 0; i < n_fields; i++) {
      const char *key;
      json_t *member = json_member(j, type->field_names[i], &key);
      json_t *qm = q && member ? json_object_get(q, key) : NULL;
      if ((st = json_value(r, type->children[i], member, qm, &items[i], err)) != HL_OK) return st;
    }
    out->u.list.n = n_fields;
    out->u.list.items = items;
    return HL_OK;
  }
  case HL_T_BOOLEAN:
    if (json_is_boolean(j)) {
      out->u.b = json_is_true(j);
      return HL_OK;
    }
    if (!json_is_string(j)) break;
    return scalar(r, type, json_string_value(j), json_string_length(j), false, out, err);
  default: {
    if (!hl_type_is_string(type) && (json_is_object(j) || json_is_array(j))) break;
    if (type->id == HL_T_BINARY && !json_is_string(j)) break;
    if (q && json_is_number(j) && json_is_string(q) && wants_number_text(type))
      return scalar(r, type, json_string_value(q), json_string_length(q), false, out, err);
    const char *p = "";
    size_t n = 0;
    bool stable = false;
    if ((st = json_text(r, j, &p, &n, &stable, err)) != HL_OK) return st;
    return scalar(r, type, p, n, stable, out, err);
  }
  }
  out->is_null = true; /* the JSON kind does not fit the column type */
  return HL_OK;
}

/* Column of key KEY: case-insensitive, trying the column after the last
 * match first because keys usually come in column order. */
static int json_column(const hl_text_reader_t *r, const char *key, int *hint) {
  if (r->n_cols <= 0) return -1;
  for (int k = 0; k < r->n_cols; k++) {
    int col = (*hint + k) % r->n_cols;
    if (strcasecmp(r->names[col], key) == 0) {
      *hint = (col + 1) % r->n_cols;
      return col;
    }
  }
  return -1;
}

/* Copies the JSON text P[0..n) with every number outside strings put in
 * quotes.  Heap (hl_free); NULL on OOM. */
static char *quote_numbers(const char *p, size_t n, size_t *out_len) {
  char *q = hl_malloc(n * 3 + 1); /* "x" per digit at worst */
  if (!q) return NULL;
  size_t k = 0;
  bool in_string = false;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (in_string) {
      q[k++] = c;
      if (c == '\\' && i + 1 < n)
        q[k++] = p[++i];
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
      q[k++] = c;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      q[k++] = '"';
      while (i < n && ((p[i] && strchr("+-.eE", p[i])) || (p[i] >= '0' && p[i] <= '9')))
        q[k++] = p[i++];
      q[k++] = '"';
      i--;
    } else {
      q[k++] = c;
    }
  }
  *out_len = k;
  return q;
}

static hl_status_t json_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row, const char *p,
                            size_t n, hl_error_t *err) {
  hl_status_t st = HL_OK;
  size_t blank = 0;
  while (blank < n && (p[blank] == ' ' || p[blank] == '\t' || p[blank] == '\r'))
    blank++;
  json_t *root = NULL, *qroot = NULL;
  bool all_quoted = false; /* root itself has every number as a string */
  if (blank < n) {
    json_error_t jerr;
    root = json_loadb(p, n, JSON_ALLOW_NUL, &jerr);
    if (!root && json_error_code(&jerr) == json_error_numeric_overflow) {
      /* jansson's numbers stop at int64/double: parse again with every
       * number as a string so that DECIMAL(38) and wide values convert
       * exactly from their text */
      size_t qn = 0;
      char *quoted = quote_numbers(p, n, &qn);
      if (!quoted) return hl_err_nomem(err);
      root = json_loadb(quoted, qn, JSON_ALLOW_NUL, &jerr);
      hl_free(quoted);
      all_quoted = true;
    }
    if (!root) {
      if (json_error_code(&jerr) == json_error_out_of_memory) return hl_err_nomem(err);
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "cannot read \"%s\": malformed JSON in line %llu: %s", r->path,
                        (unsigned long long)r->line_no, jerr.text);
    }
    if (!json_is_object(root)) {
      json_decref(root);
      return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                        "cannot read \"%s\": line %llu is not a JSON object", r->path,
                        (unsigned long long)r->line_no);
    }
  }
  memset(r->seen, 0, sizeof *r->seen * (size_t)r->n_cols);
  if (root) {
    const char *key;
    size_t key_len;
    json_t *jv;
    int hint = 0;
    json_object_keylen_foreach(root, key, key_len, jv) {
      int col = json_column(r, key, &hint);
      if (col < 0 || !r->projected[col] || r->seen[col]) continue;
      r->seen[col] = true;
      const hl_type_t *type = r->types[col];
      if (!qroot && !all_quoted && needs_number_text(type, jv)) {
        /* the line again with numbers as strings, for their exact text */
        size_t qn = 0;
        char *quoted = quote_numbers(p, n, &qn);
        if (!quoted) {
          st = hl_err_nomem(err);
          break;
        }
        qroot = json_loadb(quoted, qn, JSON_ALLOW_NUL, NULL);
        hl_free(quoted);
        if (!qroot) { /* it parsed once: only memory can fail */
          st = hl_err_nomem(err);
          break;
        }
      }
      hl_value_t *v = &(hl_value_t){0};
      if (hl_type_is_complex(type) && !(v = hl_arena_alloc(r->arena, sizeof *v))) {
        st = hl_err_nomem(err);
        break;
      }
      json_t *qv = qroot ? json_object_getn(qroot, key, key_len) : NULL;
      if ((st = json_value(r, type, jv, qv, v, err)) != HL_OK) break;
      if ((st = store(r, &batch->cols[col], row, v, err)) != HL_OK) break;
    }
    json_decref(qroot);
    json_decref(root);
  }
  for (int col = 0; st == HL_OK && col < r->n_cols; col++)
    if (r->projected[col] && !r->seen[col]) st = set_null(r, batch, col, row, err);
  return st;
}

/* ---------------------------------------------------------------------- */
/* Reader                                                                   */
/* ---------------------------------------------------------------------- */

/* Highest separator index TYPE needs when it starts at LEVEL. */
static int max_level(const hl_type_t *type, int level) {
  switch (type->id) {
  case HL_T_ARRAY:
    return max_level(type->children[0], level + 1);
  case HL_T_MAP: {
    int k = max_level(type->children[0], level + 2), v = max_level(type->children[1], level + 2);
    int m = k > v ? k : v;
    return m > level + 1 ? m : level + 1;
  }
  case HL_T_STRUCT:
  case HL_T_UNION: { /* a union's tag ends at its level, the value is one down */
    int m = level;
    for (int i = 0; i < type->n_children; i++) {
      int c = max_level(type->children[i], level + 1);
      if (c > m) m = c;
    }
    return m;
  }
  default:
    return level - 1; /* a scalar splits nothing */
  }
}

/* A reader over PATH on FS, or (FS NULL) a decoder with no file. */
static hl_status_t reader_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                               int n_cols, const hl_type_t *const *types, const char *const *names,
                               const bool *projected, hl_text_reader_t **out, hl_error_t *err) {
  *out = NULL;
  for (int col = 0; col < n_cols; col++) {
    const hl_type_t *type = types[col];
    if (fmt->kind == HL_TEXT_CSV && hl_type_is_complex(type))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "OpenCSVSerde does not support column \"%s\" of type %s",
                        names ? names[col] : "?", hl_type_id_name(type->id));
    if (fmt->kind == HL_TEXT_LAZY && max_level(type, 1) >= N_LEVELS)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "column \"%s\" nests deeper than the %d levels LazySimpleSerDe supports",
                        names ? names[col] : "?", N_LEVELS - 1);
    if (fmt->kind == HL_TEXT_JSON && hl_type_contains(type, HL_T_UNION))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "JsonSerDe: column \"%s\" of a type with a UNIONTYPE is not supported yet",
                        names ? names[col] : "?");
  }
  if (fmt->kind == HL_TEXT_LAZYBIN && fs)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "LazyBinarySerDe rows are read from SEQUENCEFILE tables only, not from the "
                      "text file \"%s\"",
                      path);
  if (fmt->kind == HL_TEXT_LAZYBIN) {
    hl_status_t lst = hl_lazybin_check_types(n_cols, types, names, err);
    if (lst != HL_OK) return lst;
  }
  hl_text_regex_t *regex = NULL;
  if (fmt->kind == HL_TEXT_REGEX) {
    hl_status_t rst = hl_text_regex_open(fmt, n_cols, types, names, &regex, err);
    if (rst != HL_OK) return rst;
  }
  if (fmt->kind == HL_TEXT_JSON && !names)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "JSON reader needs column names");
  hl_text_reader_t *r = hl_calloc(1, sizeof *r);
  if (!r) return hl_text_regex_close(regex), hl_err_nomem(err);
  r->regex = regex;
  hl_err_init(&r->conv);
  hl_buf_init(&r->text);
  r->fmt = *fmt;
  r->n_cols = n_cols;
  r->types = types;
  r->names = names;
  r->last_projected = -1;
  const char *null_string = fmt->null_string ? fmt->null_string : "\\N";
  r->null_len = strlen(null_string);
  r->null_string = hl_strdup(null_string);
  r->path = hl_strdup(path);
  r->projected = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof(bool));
  r->seen = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof(bool));
  if (fmt->kind == HL_TEXT_LAZYBIN)
    r->lb_vals = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof *r->lb_vals);
  if (!r->null_string || !r->path || !r->projected || !r->seen ||
      (fmt->kind == HL_TEXT_LAZYBIN && !r->lb_vals)) {
    hl_text_reader_close(r);
    return hl_err_nomem(err);
  }
  r->fmt.null_string = r->null_string;
  r->cap = fs ? INITIAL_BUF : 0;
  r->buf = fs ? hl_malloc(r->cap) : NULL;
  if (fs && !r->buf) {
    hl_text_reader_close(r);
    return hl_err_nomem(err);
  }
  for (int col = 0; col < n_cols; col++) {
    r->projected[col] = !projected || projected[col];
    if (!r->projected[col]) continue;
    r->last_projected = col;
    hl_type_id_t id = types[col]->id;
    if (id == HL_T_STRING || hl_type_is_complex(types[col])) r->copy_records = true;
  }
  hl_status_t st = fs ? hl_text_src_open(fs, r->path, &r->src, err) : HL_OK;
  if (st != HL_OK) {
    hl_text_reader_close(r);
    return st;
  }
  *out = r;
  return HL_OK;
}

hl_status_t hl_text_reader_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                int n_cols, const hl_type_t *const *types, const char *const *names,
                                const bool *projected, hl_text_reader_t **out, hl_error_t *err) {
  if (!fs) return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "text reader needs a file");
  return reader_open(fs, path, fmt, n_cols, types, names, projected, out, err);
}

hl_status_t hl_text_decoder_open(const char *path, const hl_text_format_t *fmt, int n_cols,
                                 const hl_type_t *const *types, const char *const *names,
                                 const bool *projected, hl_text_reader_t **out, hl_error_t *err) {
  return reader_open(NULL, path, fmt, n_cols, types, names, projected, out, err);
}

/* Sets the batch arena and leaves unprojected columns all NULL. */
static hl_status_t begin_batch(hl_text_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  if (batch->n_cols < r->n_cols)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "batch has too few columns");
  r->arena = batch->arena;
  for (int col = 0; col < r->n_cols; col++) {
    if (r->projected[col]) continue;
    hl_vec_t *vec = &batch->cols[col]; /* not decoded: all NULL */
    vec->validity = hl_arena_zalloc(r->arena, HL_BATCH_CAP / 8);
    if (!vec->validity) return hl_err_nomem(err);
  }
  return HL_OK;
}

hl_status_t hl_text_decoder_begin(hl_text_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  return begin_batch(r, batch, err);
}

hl_status_t hl_text_decoder_row(hl_text_reader_t *r, hl_batch_t *batch, uint32_t row,
                                const char *rec, size_t len, hl_error_t *err) {
  if (r->last_projected < 0) return HL_OK;
  switch (r->fmt.kind) {
  case HL_TEXT_LAZY:
    return lazy_row(r, batch, row, rec, len, err);
  case HL_TEXT_CSV:
    return csv_row(r, batch, row, rec, len, err);
  case HL_TEXT_JSON:
    return json_row(r, batch, row, rec, len, err);
  case HL_TEXT_REGEX:
    return regex_row(r, batch, row, rec, len, err);
  case HL_TEXT_LAZYBIN:
    return lazybin_row(r, batch, row, rec, len, err);
  }
  return HL_OK;
}

hl_status_t hl_text_decoder_field(hl_text_reader_t *r, hl_batch_t *batch, int col, uint32_t row,
                                  const char *p, size_t n, hl_error_t *err) {
  if (col < 0 || col >= r->n_cols || !r->projected[col]) return HL_OK;
  const hl_type_t *type = r->types[col];
  if (n && (hl_type_is_string(type) || hl_type_is_complex(type))) { /* values point into P */
    char *c = hl_arena_alloc(r->arena, n);
    if (!c) return hl_err_nomem(err);
    memcpy(c, p, n);
    p = c;
  }
  return lazy_column(r, batch, col, row, p, n, err);
}

void hl_text_reader_close(hl_text_reader_t *r) {
  if (!r) return;
  hl_text_src_close(r->src);
  hl_text_regex_close(r->regex);
  hl_free(r->lb_vals);
  hl_err_clear(&r->conv);
  hl_buf_fini(&r->text);
  hl_free(r->scratch);
  hl_free(r->buf);
  hl_free(r->seen);
  hl_free(r->projected);
  hl_free(r->path);
  hl_free(r->null_string);
  hl_free(r);
}

hl_status_t hl_text_reader_next(hl_text_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  batch->n_rows = 0;
  if (!r->src) return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "decoder has no file");
  hl_status_t st = begin_batch(r, batch, err);
  if (st != HL_OK) return st;
  const char *rec;
  size_t len;
  bool got;
  while (!r->header_done) { /* Hive skips header lines per file, before the serde */
    if (r->line_no >= (uint64_t)r->fmt.skip_header_lines) {
      r->header_done = true;
      break;
    }
    if ((st = next_line(r, &rec, &len, &got, err)) != HL_OK) return st;
    if (!got) return HL_OK;
  }
  uint32_t row = 0;
  while (row < HL_BATCH_CAP) {
    if (row > 0 && hl_arena_used(r->arena) > BATCH_SOFT_BYTES) break; /* bound batch memory */
    if (r->fmt.kind == HL_TEXT_CSV) /* records may span lines: count(*) too */
      st = next_csv_record(r, &rec, &len, &got, err);
    else
      st = next_line(r, &rec, &len, &got, err);
    if (st != HL_OK) return st;
    if (!got) break;
    if ((st = hl_text_decoder_row(r, batch, row, rec, len, err)) != HL_OK) return st;
    row++;
  }
  batch->n_rows = row;
  return HL_OK;
}
