/*
 * session.c -- SET variables of a session (see session.h).
 *
 * The session keeps what SET assigned in a small heap array (a handful of
 * keys per session, so a linear scan is the right structure) and falls
 * back to the built-in defaults below.  Keys are case-sensitive, as Hive's
 * configuration keys are.
 */
#include "exec/session.h"

#include "util/mem.h"

#include <string.h>

const char *const hl_session_defaults[] = {
    "hive.default.fileformat",
    "TextFile",
    "hive.exec.drop.ignorenonexistent",
    "true",
    "hive.exec.default.partition.name",
    "__HIVE_DEFAULT_PARTITION__",
    "hive.exec.dynamic.partition",
    "true",
    "hive.exec.dynamic.partition.mode",
    "strict",
    "hive.exec.max.dynamic.partitions",
    "1000",
    "hive.msck.path.validation",
    "skip",
    NULL,
};

const char *hl_session_get(const hl_session_t *s, const char *key) {
  for (int i = 0; i < s->n_settings; i++)
    if (strcmp(s->settings[i].key, key) == 0) return s->settings[i].value;
  for (int i = 0; hl_session_defaults[i]; i += 2)
    if (strcmp(hl_session_defaults[i], key) == 0) return hl_session_defaults[i + 1];
  return NULL;
}

hl_status_t hl_session_set(hl_session_t *s, const char *key, const char *value) {
  char *v = hl_strdup(value ? value : "");
  if (!v) return HL_NOMEM;
  for (int i = 0; i < s->n_settings; i++) {
    if (strcmp(s->settings[i].key, key) == 0) {
      hl_free(s->settings[i].value);
      s->settings[i].value = v;
      return HL_OK;
    }
  }
  if (s->n_settings == s->cap_settings) {
    int cap = s->cap_settings ? s->cap_settings * 2 : 8;
    hl_kv_t *grown = hl_realloc(s->settings, sizeof(hl_kv_t) * (size_t)cap);
    if (!grown) {
      hl_free(v);
      return HL_NOMEM;
    }
    s->settings = grown;
    s->cap_settings = cap;
  }
  char *k = hl_strdup(key);
  if (!k) {
    hl_free(v);
    return HL_NOMEM;
  }
  s->settings[s->n_settings].key = k;
  s->settings[s->n_settings].value = v;
  s->n_settings++;
  return HL_OK;
}

void hl_session_reset_settings(hl_session_t *s) {
  for (int i = 0; i < s->n_settings; i++) {
    hl_free(s->settings[i].key);
    hl_free(s->settings[i].value);
  }
  s->n_settings = 0;
}

void hl_session_fini(hl_session_t *s) {
  if (!s) return;
  hl_session_reset_settings(s);
  hl_free(s->settings);
  s->settings = NULL;
  s->cap_settings = 0;
  hl_free(s->warehouse);
  s->warehouse = NULL;
  hl_free(s->current_db);
  s->current_db = NULL;
}
