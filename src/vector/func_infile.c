/*
 * func_infile.c -- in_file(str, filename) (Hive's GenericUDFInFile): TRUE
 * when str is one of the lines of the file.
 *
 * plan/bind.c reads the file once, when the call is bound (after checking
 * it against the location allowlist), and hands its bytes to
 * hl_line_set_build; every row is then a binary search in the sorted
 * lines.  Lines end as Java's BufferedReader.readLine ends them, at \n,
 * \r or \r\n; a last line without an end still counts.
 */
#include "vector/func_int.h"

#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *x, const void *y) {
  const hl_str_t *a = x, *b = y;
  uint32_t n = a->len < b->len ? a->len : b->len;
  int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
  return c ? c : (a->len > b->len) - (a->len < b->len);
}

hl_status_t hl_line_set_build(hl_arena_t *arena, const char *text, size_t len, hl_line_set_t *out,
                              hl_error_t *err) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'))) n++;
  if (len > 0 && text[len - 1] != '\n' && text[len - 1] != '\r') n++;
  out->n = 0;
  out->lines = hl_arena_alloc(arena, sizeof(hl_str_t) * (n ? n : 1));
  if (!out->lines) return hl_err_nomem(err);
  size_t start = 0;
  for (size_t i = 0; i <= len; i++) {
    bool end = i == len || text[i] == '\n' || text[i] == '\r';
    if (!end) continue;
    if (i == len && start == len) break; /* nothing after the last line end */
    out->lines[out->n].ptr = text + start;
    out->lines[out->n].len = (uint32_t)(i - start);
    out->n++;
    if (i < len && text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') i++;
    start = i + 1;
  }
  qsort(out->lines, out->n, sizeof(hl_str_t), cmp_str);
  return HL_OK;
}

HL_FN(hl_fn_in_file) {
  const hl_line_set_t *set = call->state;
  if (a[0].is_null || !set) { /* no set: the file name is NULL */
    out->is_null = true;
    return HL_OK;
  }
  out->u.b = bsearch(&a[0].u.s, set->lines, set->n, sizeof(hl_str_t), cmp_str) != NULL;
  return HL_OK;
}
