/*
 * cmd_show_func.c -- SHOW FUNCTIONS [[LIKE] 'pattern'] and DESCRIBE
 * FUNCTION [EXTENDED] name, printed from the function registry
 * (vector/func_doc.h) in Hive's shape: one row per line of text in a
 * column tab_name.  DESCRIBE prints the usage line; EXTENDED adds the
 * synonyms (the other names Hive implements with the same class), the
 * examples, "Function class:" and "Function type:BUILTIN".
 */
#include "command/cmd_int.h"

#include "vector/func_doc.h"

#include <string.h>
#include <strings.h>

hl_status_t hl_cmd_show_functions(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                  hl_result_t *result, hl_error_t *err) {
  size_t n;
  const hl_func_doc_t *docs = hl_func_docs(&n);
  char **names = hl_arena_alloc(arena, sizeof(char *) * (n ? n : 1));
  if (!names) return hl_err_nomem(err);
  size_t kept = 0;
  const char *pat = stmt->like_pattern;
  for (size_t i = 0; i < n; i++)
    if (!pat || hl_like_match_sql(pat, docs[i].name)) names[kept++] = (char *)docs[i].name;
  return hl_cmd_lines_result(arena, "tab_name", names, kept, result, err);
}

/* Appends TEXT with every _FUNC_ replaced by NAME. */
static void put_named(hl_buf_t *b, const char *text, const char *name) {
  for (const char *p = text; *p;) {
    const char *f = strstr(p, "_FUNC_");
    if (!f) {
      hl_buf_puts(b, p);
      return;
    }
    hl_buf_append(b, p, (size_t)(f - p));
    hl_buf_puts(b, name);
    p = f + 6;
  }
}

hl_status_t hl_cmd_describe_function(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                     hl_result_t *result, hl_error_t *err) {
  const char *name = stmt->like_pattern;
  const hl_func_doc_t *d = hl_func_doc_lookup(name);
  hl_buf_t b;
  hl_buf_init(&b);
  if (!d) {
    hl_buf_printf(&b, "Function '%s' does not exist.", name);
  } else {
    put_named(&b, d->usage, name);
    if (stmt->describe_mode == 1) {
      size_t n;
      const hl_func_doc_t *docs = hl_func_docs(&n);
      bool first = true;
      for (size_t i = 0; d->hive_class && i < n; i++) {
        if (&docs[i] == d || !docs[i].hive_class || strcmp(docs[i].hive_class, d->hive_class))
          continue;
        hl_buf_puts(&b, first ? "\nSynonyms: " : ", ");
        hl_buf_puts(&b, docs[i].name);
        first = false;
      }
      if (d->examples) {
        hl_buf_puts(&b, "\nExample:");
        for (const char *p = d->examples; *p;) {
          const char *nl = strchr(p, '\n');
          size_t len = nl ? (size_t)(nl - p) : strlen(p);
          hl_buf_puts(&b, "\n  ");
          hl_buf_t line;
          hl_buf_init(&line);
          hl_buf_append(&line, p, len);
          put_named(&b, hl_buf_cstr(&line), name);
          if (line.oom) b.oom = 1;
          hl_buf_fini(&line);
          p += len + (nl != NULL);
        }
      }
      if (d->hive_class) hl_buf_printf(&b, "\nFunction class:%s", d->hive_class);
      hl_buf_puts(&b, "\nFunction type:BUILTIN");
    }
  }
  if (b.oom) {
    hl_buf_fini(&b);
    return hl_err_nomem(err);
  }
  /* one row per line */
  char *text = hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  if (!text) return hl_err_nomem(err);
  size_t n_lines = 1;
  for (char *p = text; *p; p++)
    n_lines += *p == '\n';
  char **lines = hl_arena_alloc(arena, sizeof(char *) * n_lines);
  if (!lines) return hl_err_nomem(err);
  size_t k = 0;
  lines[k++] = text;
  for (char *p = text; *p; p++)
    if (*p == '\n') {
      *p = 0;
      lines[k++] = p + 1;
    }
  return hl_cmd_lines_result(arena, "tab_name", lines, k, result, err);
}
