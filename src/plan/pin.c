/*
 * pin.c -- the canonical text and the other spellings' ranges of a typed
 * partition key pinned to a constant (pin.h; used by bind.c's pruning).
 *
 * What util/value.c's parser accepts is what a stored value may look like:
 * integers: surrounding white space, a sign, leading zeros, a fractional
 * part that is truncated ("5.9" is 5, ".5" is 0); dates: surrounding white
 * space, a year of 1 to 4 digits, a month and day of 1 or 2.  Each range
 * below covers one way of differing from the canonical text; together
 * they cover every accepted spelling of the value (and more, which the
 * predicates then drop).
 */
#include "plan/pin.h"

#include <stdio.h>
#include <string.h>

/* The smallest text greater than every text that starts with S (S ends in
 * a digit or '-': one byte up). */
static char *after_prefix(hl_arena_t *arena, const char *s) {
  char *out = hl_arena_strdup(arena, s);
  if (out && *out) out[strlen(out) - 1]++;
  return out;
}

typedef struct ranges {
  hl_arena_t *arena;
  hl_cat_vrange_t v[24];
  int n;
  bool oom;
} ranges_t;

static void add(ranges_t *r, const char *lo, const char *hi) {
  if (!lo || !hi) {
    r->oom = true;
    return;
  }
  if (r->n < (int)(sizeof r->v / sizeof r->v[0])) r->v[r->n++] = (hl_cat_vrange_t){lo, hi};
}

/* Texts that start with S and are longer ("5 ", "5.0", "2024-01-05 "). */
static void longer(ranges_t *r, const char *s) {
  add(r, hl_arena_sprintf(r->arena, "%s\x01", s), after_prefix(r->arena, s));
}

/* Texts that start with S (S itself included). */
static void prefixed(ranges_t *r, const char *s) {
  add(r, s, after_prefix(r->arena, s));
}

static void int_ranges(ranges_t *r, const char *canon) {
  add(r, "", "-");      /* leading white space, '+' */
  add(r, "-", "-1");    /* "-0...", "-.5" */
  add(r, "0\x01", "1"); /* leading zeros, "0.5" */
  add(r, ".", "/");     /* ".5" (0) */
  longer(r, canon);     /* trailing white space, a fractional part */
}

static void date_ranges(ranges_t *r, const char *canon) {
  int y, m, d;
  if (sscanf(canon, "%d-%d-%d", &y, &m, &d) != 3) return;
  add(r, "", "0");  /* leading white space */
  longer(r, canon); /* trailing white space */
  char ys[4][8];
  int n_y = 0;
  snprintf(ys[n_y++], sizeof ys[0], "%04d", y);
  for (const char *p = ys[0]; *p == '0' && p[1] && n_y < 4; p++)
    snprintf(ys[n_y++], sizeof ys[0], "%s", p + 1);
  for (int yi = 0; yi < n_y; yi++)
    for (int mp = 0; mp < (m < 10 ? 2 : 1); mp++)
      for (int dp = 0; dp < (d < 10 ? 2 : 1); dp++) {
        if (yi == 0 && mp == 0 && dp == 0) continue; /* the canonical one */
        char *s = hl_arena_sprintf(r->arena, "%s-%0*d-%0*d", ys[yi], mp ? 1 : 2, m, dp ? 1 : 2, d);
        if (!s) {
          r->oom = true;
          return;
        }
        prefixed(r, s);
      }
}

bool hl_plan_pin_typed(hl_arena_t *arena, const hl_type_t *key_type, const hl_type_t *v_type,
                       const hl_value_t *v, char **canon, hl_cat_vrange_t **alt, int *n_alt) {
  *canon = NULL;
  *alt = NULL;
  *n_alt = 0;
  bool is_int = key_type->id >= HL_T_TINYINT && key_type->id <= HL_T_BIGINT &&
                v_type->id >= HL_T_TINYINT && v_type->id <= HL_T_BIGINT;
  bool is_date = key_type->id == HL_T_DATE && v_type->id == HL_T_DATE;
  if ((!is_int && !is_date) || v->is_null) return true;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, key_type, v);
  char *text = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  if (!text) return false;
  ranges_t r = {.arena = arena};
  if (is_int)
    int_ranges(&r, text);
  else
    date_ranges(&r, text);
  if (r.oom) return false;
  hl_cat_vrange_t *out = hl_arena_alloc(arena, sizeof *out * (size_t)(r.n ? r.n : 1));
  if (!out) return false;
  memcpy(out, r.v, sizeof *out * (size_t)r.n);
  *canon = text;
  *alt = out;
  *n_alt = r.n;
  return true;
}
