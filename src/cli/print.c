/*
 * print.c -- printing a statement's rows in the CLI's output formats.
 *
 *   table  a box as psql/DuckDB draw it, then "(N rows)":
 *            +----+-------+
 *            | id | name  |
 *            +----+-------+
 *            |  1 | x     |
 *            +----+-------+
 *            (1 row)
 *          numbers right-aligned, text left-aligned, NULL as NULL; control
 *          characters are shown escaped (\n, \t, \r, \xNN) so a value never
 *          breaks the box; widths count UTF-8 characters.
 *   csv    RFC 4180; NULL is an empty field, the empty string is "".
 *   tsv    tab-separated; NULL is NULL; \t \n \r \\ escaped.
 *   json   one object per line; numbers and booleans bare, NULL as null.
 *   arrow  an Arrow IPC stream (arrow_ipc.c).
 *
 * csv, tsv and json stream row by row.  The table needs column widths, so
 * it buffers rows -- at most TABLE_CHUNK_ROWS at a time: a longer result is
 * drawn as several boxes (each with its header) and one footer with the
 * total, so memory stays bounded whatever the result size.  A value wider
 * than TABLE_MAX_PAD_WIDTH characters does not widen its column: it is
 * printed in full and pushes only its own line's border right.  Otherwise
 * one long value (MSCK's 100 KB "Partitions not in metastore" line) would
 * pad every other line of the result to its width, turning a 350 KB report
 * into 380 MB of blanks.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define TABLE_CHUNK_ROWS    10000
#define TABLE_MAX_PAD_WIDTH 1024

/* ------------------------------------------------------------------------
 * Shared helpers
 * ------------------------------------------------------------------------ */

static const char *column_name(hl_stmt_t *stmt, int col) {
  const char *name = hl_column_name(stmt, col);
  return name ? name : "";
}

/* The current row's value of COL; NULL for SQL NULL. */
static const char *cell_text(hl_stmt_t *stmt, int col, size_t *len) {
  *len = 0;
  if (hl_column_is_null(stmt, col)) return NULL;
  const char *text = hl_column_text(stmt, col, len);
  if (!text) {
    *len = 0;
    return "";
  }
  return text;
}

/* ------------------------------------------------------------------------
 * table
 * ------------------------------------------------------------------------ */

typedef struct cell {
  char *text; /* malloc'ed copy; NULL for SQL NULL */
  size_t len;
} cell_t;

static int is_control(unsigned char c) {
  return c < 0x20 || c == 0x7F;
}

/* Display width of a value as print_table_value draws it. */
static size_t table_width(const char *s, size_t len) {
  if (!s) return 4; /* NULL */
  size_t width = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n' || c == '\t' || c == '\r')
      width += 2;
    else if (is_control(c))
      width += 4;
    else if ((c & 0xC0) != 0x80)
      width++;
  }
  return width;
}

static void print_table_value(FILE *out, const char *s, size_t len) {
  if (!s) {
    fputs("NULL", out);
    return;
  }
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n')
      fputs("\\n", out);
    else if (c == '\t')
      fputs("\\t", out);
    else if (c == '\r')
      fputs("\\r", out);
    else if (is_control(c))
      fprintf(out, "\\x%02X", c);
    else
      fputc(c, out);
  }
}

static void print_padding(FILE *out, size_t n) {
  for (size_t i = 0; i < n; i++)
    fputc(' ', out);
}

static void print_border(FILE *out, const size_t *widths, int n_cols) {
  for (int col = 0; col < n_cols; col++) {
    fputc('+', out);
    for (size_t i = 0; i < widths[col] + 2; i++)
      fputc('-', out);
  }
  fputs("+\n", out);
}

typedef struct table {
  int n_cols;
  cell_t *cells;  /* n_rows * n_cols, row-major */
  size_t n_rows;  /* rows buffered in the current chunk */
  size_t *widths; /* per column */
  int *numeric;   /* per column: right-align */
} table_t;

static void table_clear_rows(table_t *t) {
  for (size_t i = 0; i < t->n_rows * (size_t)t->n_cols; i++)
    free(t->cells[i].text);
  t->n_rows = 0;
}

/* Draws the buffered chunk as one box and empties the buffer. */
static void table_flush(hl_cli_t *cli, hl_stmt_t *stmt, table_t *t) {
  FILE *out = cli->out;
  if (!cli->header && t->n_rows == 0) return; /* nothing to draw */
  for (int col = 0; col < t->n_cols; col++) {
    t->widths[col] =
        cli->header ? table_width(column_name(stmt, col), strlen(column_name(stmt, col))) : 0;
    for (size_t row = 0; row < t->n_rows; row++) {
      cell_t *c = &t->cells[row * (size_t)t->n_cols + (size_t)col];
      size_t w = table_width(c->text, c->len);
      if (w > t->widths[col] && w <= TABLE_MAX_PAD_WIDTH) t->widths[col] = w;
    }
  }
  print_border(out, t->widths, t->n_cols);
  if (cli->header) {
    for (int col = 0; col < t->n_cols; col++) {
      const char *name = column_name(stmt, col);
      fputs("| ", out);
      print_table_value(out, name, strlen(name));
      print_padding(out, t->widths[col] - table_width(name, strlen(name)));
      fputc(' ', out);
    }
    fputs("|\n", out);
    print_border(out, t->widths, t->n_cols);
  }
  for (size_t row = 0; row < t->n_rows; row++) {
    for (int col = 0; col < t->n_cols; col++) {
      cell_t *c = &t->cells[row * (size_t)t->n_cols + (size_t)col];
      size_t w = table_width(c->text, c->len);
      size_t pad = w < t->widths[col] ? t->widths[col] - w : 0; /* overlong: no pad */
      fputs("| ", out);
      if (t->numeric[col]) print_padding(out, pad);
      print_table_value(out, c->text, c->len);
      if (!t->numeric[col]) print_padding(out, pad);
      fputc(' ', out);
    }
    fputs("|\n", out);
  }
  if (t->n_rows > 0) print_border(out, t->widths, t->n_cols);
  table_clear_rows(t);
}

static hl_status_t print_table(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t rc) {
  table_t t = {0};
  t.n_cols = hl_column_count(stmt);
  t.cells = calloc((size_t)TABLE_CHUNK_ROWS * (size_t)t.n_cols, sizeof *t.cells);
  t.widths = calloc((size_t)t.n_cols, sizeof *t.widths);
  t.numeric = calloc((size_t)t.n_cols, sizeof *t.numeric);
  size_t total = 0;
  if (!t.cells || !t.widths || !t.numeric) {
    rc = HL_NOMEM;
    goto done;
  }
  for (int col = 0; col < t.n_cols; col++)
    t.numeric[col] = hl_column_is_numeric(stmt, col);
  int drew_box = 0;
  for (; rc == HL_ROW; rc = hl_step(stmt)) {
    if (t.n_rows == TABLE_CHUNK_ROWS) {
      table_flush(cli, stmt, &t);
      drew_box = 1;
    }
    cell_t *row = &t.cells[t.n_rows * (size_t)t.n_cols];
    for (int col = 0; col < t.n_cols; col++) {
      size_t len;
      const char *text = cell_text(stmt, col, &len);
      row[col].len = len;
      row[col].text = NULL;
      if (text) {
        row[col].text = malloc(len + 1);
        if (!row[col].text) {
          t.n_rows++; /* so the cells set so far are freed */
          for (int rest = col + 1; rest < t.n_cols; rest++)
            row[rest].text = NULL;
          rc = HL_NOMEM;
          goto done;
        }
        memcpy(row[col].text, text, len);
        row[col].text[len] = '\0';
      }
    }
    t.n_rows++;
    total++;
  }
  if (rc != HL_DONE) goto done; /* error: the partial result is dropped */
  if (t.n_rows > 0 || !drew_box) table_flush(cli, stmt, &t);
  fprintf(cli->out, "(%zu %s)\n", total, total == 1 ? "row" : "rows");
done:
  if (t.cells) table_clear_rows(&t);
  free(t.cells);
  free(t.widths);
  free(t.numeric);
  return rc;
}

/* ------------------------------------------------------------------------
 * csv, tsv
 * ------------------------------------------------------------------------ */

static void print_csv_field(FILE *out, const char *s, size_t len) {
  if (!s) return; /* NULL: empty, unquoted */
  int quote = len == 0 || s[0] == ' ' || s[len - 1] == ' ';
  for (size_t i = 0; i < len && !quote; i++)
    quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
  if (!quote) {
    fwrite(s, 1, len, out);
    return;
  }
  fputc('"', out);
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '"') fputc('"', out);
    fputc(s[i], out);
  }
  fputc('"', out);
}

static void print_tsv_field(FILE *out, const char *s, size_t len) {
  if (!s) {
    fputs("NULL", out);
    return;
  }
  for (size_t i = 0; i < len; i++) {
    switch (s[i]) {
    case '\t':
      fputs("\\t", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    default:
      fputc(s[i], out);
    }
  }
}

static hl_status_t print_delimited(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t rc) {
  int csv = cli->format == HL_CLI_FORMAT_CSV;
  char sep = csv ? ',' : '\t';
  void (*field)(FILE *, const char *, size_t) = csv ? print_csv_field : print_tsv_field;
  int n_cols = hl_column_count(stmt);
  if (cli->header) {
    for (int col = 0; col < n_cols; col++) {
      const char *name = column_name(stmt, col);
      if (col > 0) fputc(sep, cli->out);
      /* A header cell is never NULL; "" only for an unnamed column. */
      field(cli->out, name, strlen(name));
    }
    fputc('\n', cli->out);
  }
  for (; rc == HL_ROW; rc = hl_step(stmt)) {
    for (int col = 0; col < n_cols; col++) {
      size_t len;
      const char *text = cell_text(stmt, col, &len);
      if (col > 0) fputc(sep, cli->out);
      field(cli->out, text, len);
    }
    fputc('\n', cli->out);
  }
  return rc;
}

/* ------------------------------------------------------------------------
 * json
 * ------------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at S (LEN bytes left), 0 if invalid. */
static size_t utf8_sequence(const unsigned char *s, size_t len) {
  unsigned char c = s[0];
  size_t n;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (len < n) return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  /* Overlong forms, surrogates and values past U+10FFFF are invalid. */
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

/* A JSON string; invalid UTF-8 bytes become U+FFFD so the output is valid. */
static void print_json_string(FILE *out, const char *s, size_t len) {
  const unsigned char *u = (const unsigned char *)s;
  fputc('"', out);
  for (size_t i = 0; i < len;) {
    unsigned char c = u[i];
    if (c == '"' || c == '\\') {
      fputc('\\', out);
      fputc(c, out);
      i++;
    } else if (c < 0x20) {
      if (c == '\n')
        fputs("\\n", out);
      else if (c == '\t')
        fputs("\\t", out);
      else if (c == '\r')
        fputs("\\r", out);
      else if (c == '\b')
        fputs("\\b", out);
      else if (c == '\f')
        fputs("\\f", out);
      else
        fprintf(out, "\\u%04x", c);
      i++;
    } else {
      size_t n = utf8_sequence(u + i, len - i);
      if (n == 0) {
        fputs("\\ufffd", out);
        i++;
      } else {
        fwrite(u + i, 1, n, out);
        i += n;
      }
    }
  }
  fputc('"', out);
}

/* 1 when S is a JSON number (so NaN and Infinity are not). */
static int is_json_number(const char *s, size_t len) {
  size_t i = 0;
  if (i < len && s[i] == '-') i++;
  if (i == len) return 0;
  if (s[i] == '0') {
    i++;
  } else if (s[i] >= '1' && s[i] <= '9') {
    while (i < len && s[i] >= '0' && s[i] <= '9')
      i++;
  } else {
    return 0;
  }
  if (i < len && s[i] == '.') {
    i++;
    size_t start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
      i++;
    if (i == start) return 0;
  }
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    size_t start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
      i++;
    if (i == start) return 0;
  }
  return i == len;
}

static void print_json_value(FILE *out, const char *s, size_t len, int numeric, int boolean,
                             int json) {
  if (!s) {
    fputs("null", out);
  } else if (json && len > 0) { /* a JSON document from the library: embedded as it is */
    fwrite(s, 1, len, out);
  } else if (numeric && is_json_number(s, len)) {
    fwrite(s, 1, len, out);
  } else if (boolean && ((len == 4 && strncmp(s, "true", 4) == 0) || (len == 1 && s[0] == '1'))) {
    fputs("true", out);
  } else if (boolean && ((len == 5 && strncmp(s, "false", 5) == 0) || (len == 1 && s[0] == '0'))) {
    fputs("false", out);
  } else {
    print_json_string(out, s, len); /* NaN, Infinity, odd spellings */
  }
}

static hl_status_t print_json(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t rc) {
  int n_cols = hl_column_count(stmt);
  for (; rc == HL_ROW; rc = hl_step(stmt)) {
    fputc('{', cli->out);
    for (int col = 0; col < n_cols; col++) {
      size_t len;
      const char *text = cell_text(stmt, col, &len);
      const char *name = column_name(stmt, col);
      if (col > 0) fputc(',', cli->out);
      print_json_string(cli->out, name, strlen(name));
      fputc(':', cli->out);
      print_json_value(cli->out, text, len, hl_column_is_numeric(stmt, col),
                       hl_column_is_boolean(stmt, col), hl_column_is_json(stmt, col));
    }
    fputs("}\n", cli->out);
  }
  return rc;
}

hl_status_t hl_cli_print_result(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t first) {
  hl_status_t rc = first;
  if (hl_column_count(stmt) <= 0) {
    /* No result columns: run to completion silently. */
    while (rc == HL_ROW)
      rc = hl_step(stmt);
    return rc;
  }
  switch (cli->format) {
  case HL_CLI_FORMAT_TABLE:
    return print_table(cli, stmt, rc);
  case HL_CLI_FORMAT_CSV:
  case HL_CLI_FORMAT_TSV:
    return print_delimited(cli, stmt, rc);
  case HL_CLI_FORMAT_JSON:
    return print_json(cli, stmt, rc);
  case HL_CLI_FORMAT_ARROW:
    return hl_cli_print_arrow(cli, stmt, rc);
  }
  return rc;
}
