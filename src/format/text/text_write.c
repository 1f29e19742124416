/*
 * text_write.c -- the text-table writer: batches to LazySimpleSerDe,
 * OpenCSVSerde or JsonSerDe text, compressed by the file's extension.
 *
 * Rows are encoded into a heap buffer that is handed to the sink
 * (text_io.c) whenever it passes FLUSH_BYTES, so memory stays bounded
 * whatever the file size.  The encodings are the ones text_read.c reads
 * back, and the ones Hive writes:
 *   LazySimpleSerDe  separators by nesting level, the null string for NULL,
 *                    with an escape char: separators, the escape char, CR
 *                    and LF inside strings are escaped (CR/LF as escape + r/n,
 *                    Hive's serialization.escape.crlf form, which Hive
 *                    reads back either way); BINARY as base64
 *   OpenCSVSerde     every value quoted, quote and escape chars escaped
 *                    (opencsv's CSVWriter); NULL as an empty unquoted field
 *   JsonSerDe        one object per line, NULL as null, numbers bare,
 *                    dates/timestamps/binary (base64) as strings
 */
#include "format/text/text_int.h"

#include "format/lazybin/lazybin.h"

#include "util/mem.h"

#include <math.h>
#include <string.h>

#define FLUSH_BYTES (256 * 1024)
#define N_LEVELS    8

struct hl_text_writer {
  hl_text_format_t fmt; /* copy; fmt.null_string points to null_string */
  char *null_string;    /* heap copy */
  char *path;           /* heap copy */
  hl_text_sink_t *sink;
  int n_cols;
  const hl_type_t *const *types; /* borrowed */
  const char *const *names;      /* borrowed */
  bool needs_escape[256];        /* LazySimpleSerDe: bytes written as escape + byte */
  hl_buf_t out;                  /* encoded rows not yet handed to the sink */
  hl_buf_t tmp;                  /* one value's text (CSV) */
  uint64_t raw_bytes;
  bool failed;         /* a write failed: close only cleans up */
  hl_value_t *lb_vals; /* LazyBinarySerDe: one row's values, n_cols */
};

/* ---------------------------------------------------------------------- */
/* LazySimpleSerDe                                                          */
/* ---------------------------------------------------------------------- */

static void put_escaped(hl_text_writer_t *w, const char *p, size_t n) {
  if (!w->fmt.has_escape) {
    hl_buf_append(&w->out, p, n);
    return;
  }
  size_t run = 0; /* start of the pending unescaped run */
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (!w->needs_escape[c]) continue;
    hl_buf_append(&w->out, p + run, i - run);
    hl_buf_putc(&w->out, w->fmt.escape);
    hl_buf_putc(&w->out, c == '\n' ? 'n' : c == '\r' ? 'r' : (char)c);
    run = i + 1;
  }
  hl_buf_append(&w->out, p + run, n - run);
}

static void lazy_value(hl_text_writer_t *w, const hl_type_t *type, const hl_value_t *v, int level) {
  if (v->is_null) {
    hl_buf_puts(&w->out, w->null_string);
    return;
  }
  char sep = level < N_LEVELS ? w->fmt.separators[level] : '\001';
  switch (type->id) {
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    put_escaped(w, v->u.s.ptr, v->u.s.len);
    return;
  case HL_T_BINARY: /* MultiDelimitSerDe writes the bytes (Hive's serializeNoEncode) */
    if (w->fmt.multi_delim)
      hl_buf_append(&w->out, v->u.s.ptr, v->u.s.len);
    else
      hl_text_b64_encode(&w->out, (const unsigned char *)v->u.s.ptr, v->u.s.len);
    return;
  case HL_T_ARRAY:
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(&w->out, sep);
      lazy_value(w, type->children[0], &v->u.list.items[i], level + 1);
    }
    return;
  case HL_T_MAP: {
    char kv_sep = level + 1 < N_LEVELS ? w->fmt.separators[level + 1] : '\001';
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(&w->out, sep);
      lazy_value(w, type->children[0], &v->u.list.items[2 * i], level + 2);
      hl_buf_putc(&w->out, kv_sep);
      lazy_value(w, type->children[1], &v->u.list.items[2 * i + 1], level + 2);
    }
    return;
  }
  case HL_T_STRUCT:
    for (int i = 0; i < type->n_children; i++) {
      if (i) hl_buf_putc(&w->out, sep);
      static const hl_value_t missing = {.is_null = true};
      const hl_value_t *f = (uint32_t)i < v->u.list.n ? &v->u.list.items[i] : &missing;
      lazy_value(w, type->children[i], f, level + 1);
    }
    return;
  case HL_T_UNION: /* LazySimpleSerDe: the tag, the separator, the value one level down */
    hl_buf_printf(&w->out, "%u", (unsigned)v->u.list.tag);
    hl_buf_putc(&w->out, sep);
    if (v->u.list.n && (int)v->u.list.tag < type->n_children)
      lazy_value(w, type->children[v->u.list.tag], &v->u.list.items[0], level + 1);
    else
      hl_buf_puts(&w->out, w->null_string);
    return;
  default:
    hl_value_format(&w->out, type, v);
    return;
  }
}

/* ---------------------------------------------------------------------- */
/* OpenCSVSerde                                                             */
/* ---------------------------------------------------------------------- */

static void csv_value(hl_text_writer_t *w, const hl_type_t *type, const hl_value_t *v) {
  if (v->is_null) return;
  const char *p;
  size_t n;
  hl_buf_reset(&w->tmp);
  if (hl_type_is_string(type)) {
    p = v->u.s.ptr;
    n = v->u.s.len;
  } else {
    if (type->id == HL_T_BINARY)
      hl_text_b64_encode(&w->tmp, (const unsigned char *)v->u.s.ptr, v->u.s.len);
    else
      hl_value_format(&w->tmp, type, v);
    p = w->tmp.len ? w->tmp.data : "";
    n = w->tmp.len;
  }
  char quote = w->fmt.csv_quote, esc = w->fmt.csv_escape;
  hl_buf_putc(&w->out, quote);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] != quote && p[i] != esc) continue;
    hl_buf_append(&w->out, p + run, i - run);
    hl_buf_putc(&w->out, esc);
    run = i; /* the char itself follows */
  }
  hl_buf_append(&w->out, p + run, n - run);
  hl_buf_putc(&w->out, quote);
  if (w->tmp.oom) w->out.oom = 1;
}

/* ---------------------------------------------------------------------- */
/* JsonSerDe                                                                */
/* ---------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at P[0..n), 0 if invalid. */
static size_t utf8_len(const unsigned char *p, size_t n) {
  unsigned char c = p[0];
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf)
    len = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    len = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    len = 4, cp = c & 0x07;
  else
    return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((p[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (p[i] & 0x3f);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
      (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0;
  return len;
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD, as Java's
 * decoding does before Hive writes JSON. */
static void json_string(hl_buf_t *b, const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  hl_buf_putc(b, '"');
  size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c == '"' || c == '\\') {
      hl_buf_putc(b, '\\');
      hl_buf_putc(b, (char)c);
      i++;
    } else if (c < 0x20) {
      switch (c) {
      case '\n':
        hl_buf_puts(b, "\\n");
        break;
      case '\r':
        hl_buf_puts(b, "\\r");
        break;
      case '\t':
        hl_buf_puts(b, "\\t");
        break;
      case '\b':
        hl_buf_puts(b, "\\b");
        break;
      case '\f':
        hl_buf_puts(b, "\\f");
        break;
      default:
        hl_buf_printf(b, "\\u%04x", c);
        break;
      }
      i++;
    } else {
      size_t len = utf8_len(p + i, n - i);
      if (len == 0) {
        hl_buf_puts(b, "\xef\xbf\xbd");
        i++;
      } else {
        hl_buf_append(b, p + i, len);
        i += len;
      }
    }
  }
  hl_buf_putc(b, '"');
}

static void json_value(hl_text_writer_t *w, const hl_type_t *type, const hl_value_t *v) {
  hl_buf_t *b = &w->out;
  if (v->is_null) {
    hl_buf_puts(b, "null");
    return;
  }
  switch (type->id) {
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    json_string(b, v->u.s.ptr, v->u.s.len);
    return;
  case HL_T_BINARY:
    hl_buf_putc(b, '"');
    hl_text_b64_encode(b, (const unsigned char *)v->u.s.ptr, v->u.s.len);
    hl_buf_putc(b, '"');
    return;
  case HL_T_DATE:
  case HL_T_TIMESTAMP:
    hl_buf_putc(b, '"');
    hl_value_format(b, type, v);
    hl_buf_putc(b, '"');
    return;
  case HL_T_FLOAT:
  case HL_T_DOUBLE:
    if (!isfinite(v->u.d)) { /* JSON has no NaN/Infinity: Hive's text form as a string */
      hl_buf_putc(b, '"');
      hl_value_format(b, type, v);
      hl_buf_putc(b, '"');
      return;
    }
    hl_value_format(b, type, v);
    return;
  case HL_T_ARRAY:
    hl_buf_putc(b, '[');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(b, ',');
      json_value(w, type->children[0], &v->u.list.items[i]);
    }
    hl_buf_putc(b, ']');
    return;
  case HL_T_MAP:
    hl_buf_putc(b, '{');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(b, ',');
      const hl_value_t *key = &v->u.list.items[2 * i];
      if (key->is_null) {
        json_string(b, "null", 4);
      } else if (hl_type_is_string(type->children[0])) {
        json_string(b, key->u.s.ptr, key->u.s.len);
      } else {
        hl_buf_reset(&w->tmp);
        if (type->children[0]->id == HL_T_BINARY)
          hl_text_b64_encode(&w->tmp, (const unsigned char *)key->u.s.ptr, key->u.s.len);
        else
          hl_value_format(&w->tmp, type->children[0], key);
        if (w->tmp.oom) b->oom = 1;
        json_string(b, w->tmp.len ? w->tmp.data : "", w->tmp.len);
      }
      hl_buf_putc(b, ':');
      json_value(w, type->children[1], &v->u.list.items[2 * i + 1]);
    }
    hl_buf_putc(b, '}');
    return;
  case HL_T_STRUCT:
    hl_buf_putc(b, '{');
    for (int i = 0; i < type->n_children; i++) {
      if (i) hl_buf_putc(b, ',');
      const char *name = type->field_names[i];
      json_string(b, name, strlen(name));
      hl_buf_putc(b, ':');
      static const hl_value_t missing = {.is_null = true};
      json_value(w, type->children[i], (uint32_t)i < v->u.list.n ? &v->u.list.items[i] : &missing);
    }
    hl_buf_putc(b, '}');
    return;
  default:
    hl_value_format(b, type, v);
    return;
  }
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                   */
/* ---------------------------------------------------------------------- */

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
  case HL_T_UNION: {
    int m = level;
    for (int i = 0; i < type->n_children; i++) {
      int c = max_level(type->children[i], level + 1);
      if (c > m) m = c;
    }
    return m;
  }
  default:
    return level - 1;
  }
}

static void writer_free(hl_text_writer_t *w) {
  hl_buf_fini(&w->out);
  hl_buf_fini(&w->tmp);
  hl_free(w->lb_vals);
  hl_free(w->null_string);
  hl_free(w->path);
  hl_free(w);
}

/* A writer of PATH on FS, or (FS NULL) an encoder with no file. */
static hl_status_t writer_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                               int n_cols, const hl_type_t *const *types, const char *const *names,
                               hl_text_writer_t **out, hl_error_t *err) {
  *out = NULL;
  hl_status_t wst = hl_text_format_writable(fmt, err);
  if (wst == HL_OK && fmt->kind == HL_TEXT_LAZYBIN && fs)
    wst = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                     "LazyBinarySerDe rows are written to SEQUENCEFILE tables only, not to the "
                     "text file \"%s\"",
                     path);
  if (wst == HL_OK && fmt->kind == HL_TEXT_LAZYBIN)
    wst = hl_lazybin_check_types(n_cols, types, names, err);
  if (wst != HL_OK) return wst;
  for (int col = 0; col < n_cols; col++) {
    const char *name = names ? names[col] : "?";
    if (fmt->kind == HL_TEXT_CSV && hl_type_is_complex(types[col]))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "OpenCSVSerde does not support column \"%s\" of type %s", name,
                        hl_type_id_name(types[col]->id));
    if (fmt->kind == HL_TEXT_LAZY && max_level(types[col], 1) >= N_LEVELS)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "column \"%s\" nests deeper than the %d levels LazySimpleSerDe supports",
                        name, N_LEVELS - 1);
    if (fmt->kind == HL_TEXT_JSON && hl_type_contains(types[col], HL_T_UNION))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "JsonSerDe: column \"%s\" of a type with a UNIONTYPE is not supported yet",
                        name);
  }
  if (fmt->kind == HL_TEXT_JSON && !names)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "JSON writer needs column names");
  hl_text_writer_t *w = hl_calloc(1, sizeof *w);
  if (!w) return hl_err_nomem(err);
  hl_buf_init(&w->out);
  hl_buf_init(&w->tmp);
  w->fmt = *fmt;
  w->n_cols = n_cols;
  w->types = types;
  w->names = names;
  w->null_string = hl_strdup(fmt->null_string ? fmt->null_string : "\\N");
  w->path = hl_strdup(path);
  if (fmt->kind == HL_TEXT_LAZYBIN)
    w->lb_vals = hl_calloc((size_t)(n_cols ? n_cols : 1), sizeof *w->lb_vals);
  if (!w->null_string || !w->path || hl_buf_reserve(&w->out, FLUSH_BYTES + 4096) < 0 ||
      (fmt->kind == HL_TEXT_LAZYBIN && !w->lb_vals)) {
    writer_free(w);
    return hl_err_nomem(err);
  }
  w->fmt.null_string = w->null_string;
  if (fmt->has_escape) {
    for (int level = 0; level < N_LEVELS; level++)
      w->needs_escape[(unsigned char)fmt->separators[level]] = true;
    w->needs_escape[(unsigned char)fmt->escape] = true;
    w->needs_escape['\n'] = w->needs_escape['\r'] = true;
  }
  hl_status_t st = fs ? hl_text_sink_open(fs, w->path, &w->sink, err) : HL_OK;
  if (st != HL_OK) {
    writer_free(w);
    return st;
  }
  *out = w;
  return HL_OK;
}

hl_status_t hl_text_writer_open(hl_stor_t *fs, const char *path, const hl_text_format_t *fmt,
                                int n_cols, const hl_type_t *const *types, const char *const *names,
                                hl_text_writer_t **out, hl_error_t *err) {
  if (!fs) return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "text writer needs a file");
  return writer_open(fs, path, fmt, n_cols, types, names, out, err);
}

hl_status_t hl_text_encoder_open(const hl_text_format_t *fmt, int n_cols,
                                 const hl_type_t *const *types, const char *const *names,
                                 hl_text_writer_t **out, hl_error_t *err) {
  return writer_open(NULL, "", fmt, n_cols, types, names, out, err);
}

/* Appends physical row ROW of BATCH to w->out, without a terminator. */
static void encode_row(hl_text_writer_t *w, const hl_batch_t *batch, uint32_t row) {
  if (w->fmt.kind == HL_TEXT_LAZYBIN) { /* the whole row at once: null bytes per 8 columns */
    for (int col = 0; col < w->n_cols; col++)
      hl_vec_get_value(&batch->cols[col], row, &w->lb_vals[col]);
    hl_lazybin_encode_row(&w->out, w->n_cols, w->types, w->lb_vals);
    return;
  }
  if (w->fmt.kind == HL_TEXT_JSON) hl_buf_putc(&w->out, '{');
  for (int col = 0; col < w->n_cols; col++) {
    hl_value_t v;
    hl_vec_get_value(&batch->cols[col], row, &v);
    switch (w->fmt.kind) {
    case HL_TEXT_LAZY:
      if (col && w->fmt.multi_delim)
        hl_buf_append(&w->out, w->fmt.multi_delim, w->fmt.multi_len);
      else if (col)
        hl_buf_putc(&w->out, w->fmt.separators[0]);
      lazy_value(w, w->types[col], &v, 1);
      break;
    case HL_TEXT_CSV:
      if (col) hl_buf_putc(&w->out, w->fmt.csv_separator);
      csv_value(w, w->types[col], &v);
      break;
    case HL_TEXT_JSON:
      if (col) hl_buf_putc(&w->out, ',');
      json_string(&w->out, w->names[col], strlen(w->names[col]));
      hl_buf_putc(&w->out, ':');
      json_value(w, w->types[col], &v);
      break;
    case HL_TEXT_REGEX:   /* never opened: hl_text_format_writable */
    case HL_TEXT_LAZYBIN: /* above */
      break;
    }
  }
  if (w->fmt.kind == HL_TEXT_JSON) hl_buf_putc(&w->out, '}');
}

/* Hands out w->out as the encoder's result (the buffer is the encoder's
 * scratch: nothing is written anywhere). */
static hl_status_t encoded(hl_text_writer_t *w, const char **out, size_t *len, hl_error_t *err) {
  if (w->out.oom) {
    hl_buf_reset(&w->out);
    w->out.oom = 0;
    return hl_err_nomem(err);
  }
  *out = w->out.len ? w->out.data : "";
  *len = w->out.len;
  w->raw_bytes += w->out.len;
  return HL_OK;
}

hl_status_t hl_text_encoder_row(hl_text_writer_t *w, const hl_batch_t *batch, uint32_t row,
                                const char **out, size_t *len, hl_error_t *err) {
  hl_buf_reset(&w->out);
  encode_row(w, batch, row);
  return encoded(w, out, len, err);
}

hl_status_t hl_text_encoder_field(hl_text_writer_t *w, const hl_batch_t *batch, int col,
                                  uint32_t row, const char **out, size_t *len, hl_error_t *err) {
  hl_buf_reset(&w->out);
  if (col < 0 || col >= w->n_cols)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "no column %d", col);
  hl_value_t v;
  hl_vec_get_value(&batch->cols[col], row, &v);
  lazy_value(w, w->types[col], &v, 1);
  return encoded(w, out, len, err);
}

static hl_status_t flush(hl_text_writer_t *w, hl_error_t *err) {
  if (w->out.oom) {
    w->failed = true;
    return hl_err_nomem(err);
  }
  if (w->out.len == 0) return HL_OK;
  hl_status_t st = hl_text_sink_write(w->sink, w->out.data, w->out.len, err);
  if (st != HL_OK) {
    w->failed = true;
    return st;
  }
  w->raw_bytes += w->out.len;
  hl_buf_reset(&w->out);
  return HL_OK;
}

hl_status_t hl_text_writer_write(hl_text_writer_t *w, const hl_batch_t *batch, hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "write after a failed write");
  if (batch->n_cols < w->n_cols)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "batch has too few columns");
  if (!w->sink) return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "encoder has no file");
  uint32_t live = hl_batch_live(batch);
  for (uint32_t i = 0; i < live; i++) {
    encode_row(w, batch, hl_batch_row(batch, i));
    hl_buf_putc(&w->out, '\n');
    if (w->out.len >= FLUSH_BYTES || w->out.oom) {
      hl_status_t st = flush(w, err);
      if (st != HL_OK) return st;
    }
  }
  return HL_OK;
}

hl_status_t hl_text_writer_close(hl_text_writer_t *w, hl_error_t *err) {
  if (!w) return HL_OK;
  if (!w->sink) { /* an encoder */
    writer_free(w);
    return HL_OK;
  }
  hl_status_t st = w->failed ? HL_OK : flush(w, err);
  hl_status_t cst = hl_text_sink_close(w->sink, w->failed || st != HL_OK, err);
  if (st == HL_OK && w->failed)
    st = hl_err_set(err, HL_ERROR, HL_SS(IO_ERROR), "cannot write \"%s\": an earlier write failed",
                    w->path);
  if (st == HL_OK) st = cst;
  writer_free(w);
  return st;
}

hl_status_t hl_text_writer_flush(hl_text_writer_t *w, hl_error_t *err) {
  if (w->failed)
    return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "write after a failed write");
  if (!w->sink) return hl_err_set(err, HL_MISUSE, HL_SS(INTERNAL_ERROR), "encoder has no file");
  hl_status_t st = flush(w, err);
  if (st != HL_OK) return st;
  /* raw_bytes now counts what went out; the buffers start again from empty */
  hl_buf_fini(&w->out);
  hl_buf_fini(&w->tmp);
  return HL_OK;
}

uint64_t hl_text_writer_mem(const hl_text_writer_t *w) {
  return sizeof *w + w->out.cap + w->tmp.cap + (w->sink ? hl_text_sink_mem(w->sink) : 0);
}

uint64_t hl_text_writer_raw_bytes(const hl_text_writer_t *w) {
  if (w && !w->sink) return w->raw_bytes; /* encoder: bytes handed out */
  return w ? w->raw_bytes + w->out.len : 0;
}

/* ---------------------------------------------------------------------- */
/* Values LazySimpleSerDe cannot hold                                       */
/* ---------------------------------------------------------------------- */

#define NEVER 255

void hl_text_guard_init(hl_text_guard_t *g, const hl_text_format_t *fmt, hl_text_rows_t rows) {
  memset(g, 0, sizeof *g);
  memset(g->level, NEVER, sizeof g->level);
  if (fmt->kind != HL_TEXT_LAZY) return;
  g->lines = rows == HL_TEXT_ROWS_LINES;
  g->binary_raw = fmt->multi_delim != NULL;
  g->escape = fmt->escape;
  g->escaped = fmt->has_escape;
  /* a cell holds one column value: the field separator splits nothing */
  for (int k = N_LEVELS - 1; k >= (rows == HL_TEXT_ROWS_CELLS ? 1 : 0); k--)
    g->level[(unsigned char)fmt->separators[k]] = (uint8_t)k;
  if (rows == HL_TEXT_ROWS_LINES) g->level['\n'] = g->level['\r'] = 0;
  /* unescaped in a non-string value, the escape hides the byte after it */
  if (g->escaped) g->level[(unsigned char)fmt->escape] = 0;
  /* bytes of formatted numbers, dates, timestamps, booleans and base64 */
  static const char formatted[] = "0123456789abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ+-.:/= ";
  for (const char *c = formatted; *c; c++)
    if (g->level[(unsigned char)*c] != NEVER) g->check_scalars = true;
  for (int b = 0; b < 256; b++)
    if (g->level[b] != NEVER && (!g->escaped || g->check_scalars || g->binary_raw))
      g->active = true;
}

/* The first byte of P[0..n) that breaks a leaf at LEVEL, or -1. */
static int first_bad(const hl_text_guard_t *g, const char *p, size_t n, int level) {
  for (size_t i = 0; i < n; i++)
    if (g->level[(unsigned char)p[i]] < level) return (unsigned char)p[i];
  return -1;
}

static bool guard_value(const hl_text_guard_t *g, const hl_type_t *type, const hl_value_t *v,
                        int level, hl_buf_t *scratch, hl_text_flaw_t *flaw) {
  if (v->is_null) return true;
  int bad = -1;
  bool string = false;
  switch (type->id) {
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
    if (g->escaped) return true; /* put_escaped escapes every byte that matters */
    bad = first_bad(g, v->u.s.ptr, v->u.s.len, level);
    string = true;
    break;
  case HL_T_ARRAY:
    for (uint32_t i = 0; i < v->u.list.n; i++)
      if (!guard_value(g, type->children[0], &v->u.list.items[i], level + 1, scratch, flaw))
        return false;
    return true;
  case HL_T_MAP:
    for (uint32_t i = 0; i < 2 * v->u.list.n; i++)
      if (!guard_value(g, type->children[i % 2], &v->u.list.items[i], level + 2, scratch, flaw))
        return false;
    return true;
  case HL_T_STRUCT:
    for (uint32_t i = 0; i < v->u.list.n && (int)i < type->n_children; i++)
      if (!guard_value(g, type->children[i], &v->u.list.items[i], level + 1, scratch, flaw))
        return false;
    return true;
  case HL_T_UNION:
    return !v->u.list.n || (int)v->u.list.tag >= type->n_children ||
           guard_value(g, type->children[v->u.list.tag], &v->u.list.items[0], level + 1, scratch,
                       flaw);
  case HL_T_BINARY:
    if (g->binary_raw) { /* raw bytes, never escaped */
      bad = first_bad(g, v->u.s.ptr, v->u.s.len, level);
      /* Hive reads BINARY text that looks like base64 as base64 */
      if (bad < 0 && v->u.s.len && hl_text_b64_alphabet(v->u.s.ptr, v->u.s.len)) {
        flaw->what = -3;
        flaw->byte = 0;
        flaw->string = false;
        return false;
      }
      break;
    }
    /* fall through */
  default: /* written as lazy_value writes it */
    if (!g->check_scalars) return true;
    hl_buf_reset(scratch);
    if (type->id == HL_T_BINARY)
      hl_text_b64_encode(scratch, (const unsigned char *)v->u.s.ptr, v->u.s.len);
    else
      hl_value_format(scratch, type, v);
    bad = first_bad(g, scratch->len ? scratch->data : "", scratch->len, level);
    break;
  }
  if (bad < 0) return true;
  flaw->byte = (unsigned char)bad;
  flaw->string = string;
  if (g->lines && (bad == '\n' || bad == '\r'))
    flaw->what = -1;
  else if (g->escaped && bad == (unsigned char)g->escape)
    flaw->what = -2;
  else
    flaw->what = g->level[bad];
  return false;
}

bool hl_text_guard_check(const hl_text_guard_t *g, const hl_type_t *type, const hl_value_t *v,
                         hl_buf_t *scratch, hl_text_flaw_t *flaw) {
  if (!g->active) return true;
  return guard_value(g, type, v, 1, scratch, flaw);
}

void hl_text_flaw_describe(hl_buf_t *b, const hl_text_flaw_t *flaw) {
  static const char *const names[] = {"the field delimiter", "the collection delimiter",
                                      "the map key delimiter"};
  if (flaw->what == -1) {
    hl_buf_puts(b, flaw->byte == '\n' ? "a line feed" : "a carriage return");
    return;
  }
  if (flaw->what == -3) {
    hl_buf_puts(b, "only base64 characters (BINARY written as its bytes reads back decoded)");
    return;
  }
  if (flaw->what == -2)
    hl_buf_puts(b, "the escape character");
  else if (flaw->what < 3)
    hl_buf_puts(b, names[flaw->what]);
  else
    hl_buf_printf(b, "the delimiter of nesting level %d", flaw->what + 1);
  if (flaw->byte >= 0x20 && flaw->byte < 0x7f && flaw->byte != '\'' && flaw->byte != '\\')
    hl_buf_printf(b, " '%c'", (char)flaw->byte);
  else
    hl_buf_printf(b, " '\\%03o'", flaw->byte);
}
