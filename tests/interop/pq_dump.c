/*
 * pq_dump.c -- test tool: prints every row of a Parquet file as JSON lines,
 * read through hl_parquet_file_schema and the hivelite Parquet reader, for
 * the DuckDB comparison in pq_interop.mjs.
 *
 *   pq_dump FILE
 *
 * Line 1: {"names":[...],"types":[...]} (Hive type names).  Then one JSON
 * array per row.  Cells: null; STRING/VARCHAR/CHAR/BINARY as "x:<hex of the
 * bytes>" (so binary and text compare byte for byte); other scalars as the
 * text of hl_value_format; ARRAY as an array, MAP as an array of [key,
 * value] pairs, STRUCT as an object.  On error: "ERROR <sqlstate>: <message>"
 * on stderr and exit status 1.
 */
#include "format/parquet/parquet.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_str(hl_buf_t *out, const char *s, size_t len) {
  hl_buf_putc(out, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      hl_buf_putc(out, '\\');
      hl_buf_putc(out, (char)c);
    } else if (c < 0x20) {
      hl_buf_printf(out, "\\u%04x", c);
    } else {
      hl_buf_putc(out, (char)c);
    }
  }
  hl_buf_putc(out, '"');
}

static void cell(hl_buf_t *out, const hl_type_t *t, const hl_value_t *v) {
  if (!v || v->is_null) {
    hl_buf_puts(out, "null");
    return;
  }
  switch (t->id) {
  case HL_T_STRING:
  case HL_T_VARCHAR:
  case HL_T_CHAR:
  case HL_T_BINARY:
    hl_buf_puts(out, "\"x:");
    for (uint32_t i = 0; i < v->u.s.len; i++)
      hl_buf_printf(out, "%02x", (unsigned char)v->u.s.ptr[i]);
    hl_buf_putc(out, '"');
    return;
  case HL_T_ARRAY:
    hl_buf_putc(out, '[');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(out, ',');
      cell(out, t->children[0], &v->u.list.items[i]);
    }
    hl_buf_putc(out, ']');
    return;
  case HL_T_MAP:
    hl_buf_putc(out, '[');
    for (uint32_t i = 0; i < v->u.list.n; i++) {
      if (i) hl_buf_putc(out, ',');
      hl_buf_putc(out, '[');
      cell(out, t->children[0], &v->u.list.items[2 * i]);
      hl_buf_putc(out, ',');
      cell(out, t->children[1], &v->u.list.items[2 * i + 1]);
      hl_buf_putc(out, ']');
    }
    hl_buf_putc(out, ']');
    return;
  case HL_T_STRUCT:
    hl_buf_putc(out, '{');
    for (uint32_t i = 0; i < v->u.list.n && i < (uint32_t)t->n_children; i++) {
      if (i) hl_buf_putc(out, ',');
      json_str(out, t->field_names[i], strlen(t->field_names[i]));
      hl_buf_putc(out, ':');
      cell(out, t->children[i], &v->u.list.items[i]);
    }
    hl_buf_putc(out, '}');
    return;
  default: {
    hl_buf_t tmp;
    hl_buf_init(&tmp);
    hl_value_format(&tmp, t, v);
    json_str(out, tmp.data ? tmp.data : "", tmp.len);
    hl_buf_fini(&tmp);
    return;
  }
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pq_dump FILE\n");
    return 2;
  }
  const char *path = argv[1];
  int rc = 1;
  hl_error_t err;
  hl_err_init(&err);
  hl_stor_t *fs = hl_stor_local_create();
  hl_arena_t *arena = hl_arena_create(0);
  hl_parquet_reader_t *r = NULL;
  hl_batch_t *batch = NULL;
  hl_buf_t out;
  hl_buf_init(&out);
  int n_cols = 0;
  char **names = NULL;
  hl_type_t **types = NULL;
  if (!fs || !arena) {
    fprintf(stderr, "out of memory\n");
    goto done;
  }
  if (hl_parquet_file_schema(fs, path, arena, &n_cols, &names, &types, &err) != HL_OK) goto fail;
  hl_buf_puts(&out, "{\"names\":[");
  for (int i = 0; i < n_cols; i++) {
    if (i) hl_buf_putc(&out, ',');
    json_str(&out, names[i], strlen(names[i]));
  }
  hl_buf_puts(&out, "],\"types\":[");
  for (int i = 0; i < n_cols; i++) {
    if (i) hl_buf_putc(&out, ',');
    char *t = hl_type_to_string(arena, types[i]);
    json_str(&out, t ? t : "?", t ? strlen(t) : 1);
  }
  hl_buf_puts(&out, "]}\n");
  fwrite(out.data, 1, out.len, stdout);
  if (hl_parquet_reader_open(fs, path, n_cols, (const hl_type_t *const *)types,
                             (const char *const *)names, NULL, NULL, 0, NULL, &r, &err) != HL_OK)
    goto fail;
  batch = hl_batch_create(n_cols, (const hl_type_t *const *)types);
  if (!batch) {
    fprintf(stderr, "out of memory\n");
    goto done;
  }
  for (;;) {
    if (hl_batch_reset(batch) != HL_OK) {
      fprintf(stderr, "out of memory\n");
      goto done;
    }
    if (hl_parquet_reader_next(r, batch, &err) != HL_OK) goto fail;
    if (batch->n_rows == 0) break;
    for (uint32_t row = 0; row < batch->n_rows; row++) {
      hl_buf_reset(&out);
      hl_buf_putc(&out, '[');
      for (int c = 0; c < n_cols; c++) {
        hl_value_t v;
        if (c) hl_buf_putc(&out, ',');
        hl_vec_get_value(&batch->cols[c], row, &v);
        cell(&out, types[c], &v);
      }
      hl_buf_puts(&out, "]\n");
      fwrite(out.data, 1, out.len, stdout);
    }
  }
  rc = 0;
  goto done;
fail:
  fprintf(stderr, "ERROR %s: %s\n", err.sqlstate, err.message ? err.message : "?");
done:
  hl_buf_fini(&out);
  hl_batch_destroy(batch);
  hl_parquet_reader_close(r);
  hl_arena_destroy(arena);
  if (fs) fs->ops->destroy(fs);
  hl_err_clear(&err);
  return rc;
}
