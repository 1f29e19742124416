/*
 * matchpath.c -- compiling and matching the pattern of Hive's matchpath
 * (see matchpath.h).
 *
 * hl_mp_match replays Hive's SymbolFunction classes (Symbol, Star, Plus,
 * Chain) step for step over a cursor that behaves as PTFPartitionIterator:
 * `next` is the index of the row after the current one, resetting to a row
 * makes it current, and resetting past the end leaves the cursor where it
 * was and ends the input, after which only '*' steps may follow.  The
 * index each step reports (the first row it did not take) follows Hive's
 * arithmetic exactly, because that is what fixes the path length Hive
 * returns at the end of a partition.
 */
#include "vector/matchpath.h"

#include <string.h>
#include <strings.h>

static hl_status_t bad_pattern(hl_error_t *err, const char *pattern, size_t len, const char *sym,
                               size_t sym_len, const char *why) {
  return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                    "matchpath pattern '%.*s': %s \"%.*s\"", (int)(len > 200 ? 200 : len), pattern,
                    why, (int)(sym_len > 100 ? 100 : sym_len), sym);
}

hl_status_t hl_mp_compile(const char *pattern, size_t len, const char *const *names, int n_names,
                          hl_arena_t *arena, hl_mp_pattern_t **out, hl_error_t *err) {
  /* Java's split("\\.") drops trailing empty pieces: the pattern ends at
   * its last non-dot byte; only an empty pattern keeps one empty piece */
  size_t end = len;
  while (end > 0 && pattern[end - 1] == '.')
    end--;
  if (end == 0 && len > 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "matchpath pattern '%.*s' has no symbols", (int)(len > 200 ? 200 : len),
                      pattern);
  size_t n_steps = 1;
  for (size_t i = 0; i < end; i++)
    n_steps += pattern[i] == '.';
  hl_mp_pattern_t *p = hl_arena_alloc(arena, sizeof *p);
  hl_mp_step_t *steps = hl_arena_alloc(arena, sizeof(hl_mp_step_t) * n_steps);
  if (!p || !steps) return hl_err_nomem(err);
  int k = 0;
  for (size_t s = 0; s <= end; k++) {
    size_t e = s;
    while (e < end && pattern[e] != '.')
      e++;
    const char *sym = pattern + s;
    size_t sl = e - s;
    hl_mp_kind_t kind = HL_MP_ONE;
    if (sl > 0 && (sym[sl - 1] == '*' || sym[sl - 1] == '+')) {
      kind = sym[sl - 1] == '*' ? HL_MP_STAR : HL_MP_PLUS;
      sl--;
    }
    int found = -1;
    for (int i = 0; i < n_names; i++)
      if (strlen(names[i]) == sl && strncasecmp(names[i], sym, sl) == 0) found = i;
    if (found < 0) return bad_pattern(err, pattern, len, sym, sl, "unknown symbol");
    steps[k].symbol = found;
    steps[k].kind = kind;
    s = e + 1;
  }
  p->steps = steps;
  p->n_steps = k;
  *out = p;
  return HL_OK;
}

typedef struct cursor {
  size_t n, next; /* rows; PTFPartitionIterator's index: the row after the current */
  hl_mp_symbol_fn sym;
  void *ctx;
} cursor_t;

/* One step at row ROW (the cursor's current): whether it matches and, in
 * *first_not_taken, Hive's SymbolFunctionResult.nextRow. */
static bool step_match(cursor_t *c, const hl_mp_step_t *st, size_t row, size_t *first_not_taken) {
  bool m = c->sym(c->ctx, st->symbol, row);
  switch (st->kind) {
  case HL_MP_ONE:
    *first_not_taken = c->next;
    return m;
  case HL_MP_STAR:
    while (m && c->next < c->n)
      m = c->sym(c->ctx, st->symbol, c->next++);
    *first_not_taken = c->next < c->n ? c->next - 1 : c->next;
    return true;
  case HL_MP_PLUS:
    if (!m) {
      *first_not_taken = c->next - 1;
      return false;
    }
    while (m && c->next < c->n)
      m = c->sym(c->ctx, st->symbol, c->next++);
    *first_not_taken = c->next - 1;
    return true;
  }
  return false;
}

bool hl_mp_match(const hl_mp_pattern_t *pat, size_t n, size_t start, hl_mp_symbol_fn sym, void *ctx,
                 size_t *path_len) {
  cursor_t c = {n, start + 1, sym, ctx};
  size_t row = start, stop = start;
  bool have_row = true;
  for (int k = 0; k < pat->n_steps; k++) {
    const hl_mp_step_t *st = &pat->steps[k];
    if (!have_row) {
      if (st->kind != HL_MP_STAR) return false;
      continue;
    }
    if (!step_match(&c, st, row, &stop)) return false;
    if (stop >= n) {
      have_row = false; /* resetToIndex past the end: no row, cursor kept */
    } else {
      row = stop;
      c.next = stop + 1;
    }
  }
  /* getPath: the first row always, then up to stop - start rows in all */
  size_t len = stop > start ? stop - start : 1;
  *path_len = len < n - start ? len : n - start;
  return true;
}
