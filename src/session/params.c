/*
 * params.c -- the running statement's parameter types (see params.h).
 */
#include "session/params.h"

void hl_params_note_type(hl_params_t *ps, int num, const hl_type_t *t) {
  if (!ps || num < 1 || num > ps->n || !t) return;
  if (t->id == HL_T_NULL || hl_type_is_complex(t)) return;
  hl_param_t *p = &ps->items[num - 1];
  if (!p->want) p->want = hl_type_copy(ps->arena, t);
}
