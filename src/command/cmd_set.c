/*
 * cmd_set.c -- SET and RESET: session configuration variables.
 *
 * SET k=v remembers any key (Hive accepts unknown keys too); SET k prints
 * `k=v` or `k is undefined`; a bare SET lists every assigned key and every
 * built-in default (session.c) as sorted `key=value` rows in column `set`;
 * RESET forgets every assignment.  Values the executor reads (partition
 * default name, MSCK validation mode, default file format) are checked
 * where they are used, so SET itself never fails on a value.
 */
#include "command/cmd_int.h"

#include <stdlib.h>
#include <string.h>

/* Orders "key=value" lines by key (so "a.b" comes before "a.b.c"). */
static int cmp_setting(const void *a, const void *b) {
  const char *x = *(char *const *)a, *y = *(char *const *)b;
  size_t kx = strcspn(x, "="), ky = strcspn(y, "=");
  size_t n = kx < ky ? kx : ky;
  int c = memcmp(x, y, n);
  if (c != 0) return c;
  return kx < ky ? -1 : kx > ky ? 1 : 0;
}

hl_status_t hl_cmd_set(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                       hl_result_t *result, hl_error_t *err) {
  if (stmt->set_key && stmt->set_value) {
    if (!*stmt->set_key)
      return hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(SYNTAX_ERROR), "SET needs a key");
    if (hl_session_set(s, stmt->set_key, stmt->set_value) != HL_OK) return hl_err_nomem(err);
    return HL_OK;
  }
  char **lines;
  size_t n = 0;
  if (stmt->set_key) {
    const char *v = hl_session_get(s, stmt->set_key);
    lines = hl_arena_alloc(arena, sizeof(char *));
    if (!lines) return hl_err_nomem(err);
    if (v && hl_kv_is_secret(stmt->set_key)) v = HL_KV_MASK;
    lines[0] = v ? hl_arena_sprintf(arena, "%s=%s", stmt->set_key, v)
                 : hl_arena_sprintf(arena, "%s is undefined", stmt->set_key);
    if (!lines[0]) return hl_err_nomem(err);
    n = 1;
  } else {
    size_t n_defaults = 0;
    while (hl_session_defaults[n_defaults * 2])
      n_defaults++;
    lines = hl_arena_alloc(
        arena, sizeof(char *) * ((size_t)s->n_settings + (size_t)s->n_config + n_defaults + 1));
    if (!lines) return hl_err_nomem(err);
    for (int i = 0; i < s->n_settings; i++) {
      const char *k = s->settings[i].key;
      lines[n] = hl_arena_sprintf(arena, "%s=%s", k,
                                  hl_kv_is_secret(k) ? HL_KV_MASK : s->settings[i].value);
      if (!lines[n++]) return hl_err_nomem(err);
    }
    for (size_t i = 0; i < n_defaults; i++) {
      const char *key = hl_session_defaults[i * 2];
      bool assigned = false;
      for (int j = 0; j < s->n_settings; j++)
        if (strcmp(s->settings[j].key, key) == 0) assigned = true;
      if (assigned) continue;
      lines[n] = hl_arena_sprintf(arena, "%s=%s", key, hl_session_get(s, key)); /* or config */
      if (!lines[n++]) return hl_err_nomem(err);
    }
    /* warehouse configuration keys that are neither SET nor built in */
    for (int i = 0; i < s->n_config; i++) {
      const char *key = s->config[i].key;
      bool shown = false;
      for (int j = 0; j < s->n_settings && !shown; j++)
        shown = strcmp(s->settings[j].key, key) == 0;
      for (size_t j = 0; j < n_defaults && !shown; j++)
        shown = strcmp(hl_session_defaults[j * 2], key) == 0;
      for (int j = 0; j < i && !shown; j++)
        shown = strcmp(s->config[j].key, key) == 0;
      if (shown) continue;
      lines[n] = hl_arena_sprintf(arena, "%s=%s", key,
                                  hl_kv_is_secret(key) ? HL_KV_MASK : hl_session_get(s, key));
      if (!lines[n++]) return hl_err_nomem(err);
    }
    qsort(lines, n, sizeof(char *), cmp_setting);
  }
  return hl_cmd_lines_result(arena, "set", lines, n, result, err);
}

hl_status_t hl_cmd_reset(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                         hl_result_t *result, hl_error_t *err) {
  hl_session_reset_settings(s);
  return HL_OK;
}
