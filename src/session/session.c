/*
 * session.c -- SET variables of a session (see session.h).
 *
 * The session keeps what SET assigned in a small heap array (a handful of
 * keys per session, so a linear scan is the right structure) and falls
 * back to the warehouse configuration file (WAREHOUSE/.hivelite/config,
 * read once at open) and then to the built-in defaults below.  Keys are case-sensitive, as Hive's
 * configuration keys are.
 */
#include "session/session.h"
#include "session/s3conf.h"
#include "util/partpath.h"

#include "util/mem.h"

#include <stdlib.h>
#include <string.h>

const char *const hl_session_defaults[] = {
    "hive.default.fileformat",
    "TextFile",
    "hive.exec.drop.ignorenonexistent",
    "true",
    "hive.default.nulls.last",
    "true",
    "hive.exec.default.partition.name",
    "__HIVE_DEFAULT_PARTITION__",
    "hive.exec.dynamic.partition",
    "true",
    "hive.exec.dynamic.partition.mode",
    "nonstrict", /* Hive 4's default */
    "hive.exec.max.created.files",
    "100000",
    "hive.exec.max.dynamic.partitions",
    "1000",
    "hive.msck.path.validation",
    "skip",
    "hivelite.lock.timeout",
    "60",
    "hivelite.max_partitions_per_table",
    "1000000",
    "hivelite.profile.metadata", /* PROFILE takes what file statistics answer */
    "true",
    "hivelite.scan.split.size",
    "67108864",
    "hivelite.spill.directory", /* empty: WAREHOUSE/.hivelite/tmp (exec/spill.h) */
    "",
    "hivelite.storage.allowed_locations",
    "",
    "hivelite.strict.conversion",
    "false",
    "hivelite.text.write.unescaped",
    "false",
    "hivelite.write.file.size",
    "268435456",
    NULL,
};

const char *hl_session_get(const hl_session_t *s, const char *key) {
  for (int i = 0; i < s->n_settings; i++)
    if (strcmp(s->settings[i].key, key) == 0) return s->settings[i].value;
  for (int i = 0; i < s->n_config; i++)
    if (strcmp(s->config[i].key, key) == 0) return s->config[i].value;
  for (int i = 0; hl_session_defaults[i]; i += 2)
    if (strcmp(hl_session_defaults[i], key) == 0) return hl_session_defaults[i + 1];
  return NULL;
}

static void free_config(hl_session_t *s) {
  for (int i = 0; i < s->n_config; i++) {
    hl_free(s->config[i].key);
    hl_free(s->config[i].value);
  }
  hl_free(s->config);
  s->config = NULL;
  s->n_config = 0;
}

static char *strip_dup(const char *b, const char *e) {
  while (b < e && (*b == ' ' || *b == '\t' || *b == '\r'))
    b++;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  char *out = hl_malloc((size_t)(e - b) + 1);
  if (!out) return NULL;
  memcpy(out, b, (size_t)(e - b));
  out[e - b] = '\0';
  return out;
}

hl_status_t hl_session_load_config(hl_session_t *s, hl_error_t *err) {
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  char *path = hl_arena_sprintf(tmp, "%s/.hivelite/config", s->warehouse);
  hl_stor_stat_t st;
  char *data = NULL;
  size_t len = 0;
  if (!path) {
    rc = hl_err_nomem(err);
    goto done;
  }
  rc = s->fs->ops->stat(s->fs, path, &st, err);
  if (rc != HL_OK || !st.exists) goto done;
  rc = hl_stor_read_all(s->fs, path, tmp, (size_t)1 << 20, &data, &len, err);
  if (rc != HL_OK) goto done;
  free_config(s);
  int cap = 0, line_no = 0;
  for (const char *line = data; line < data + len && rc == HL_OK;) {
    const char *nl = memchr(line, '\n', (size_t)(data + len - line));
    const char *end = nl ? nl : data + len;
    line_no++;
    const char *b = line;
    while (b < end && (*b == ' ' || *b == '\t' || *b == '\r'))
      b++;
    line = nl ? nl + 1 : data + len;
    if (b == end || *b == '#') continue;
    const char *eq = memchr(b, '=', (size_t)(end - b));
    if (!eq || eq == b) {
      rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "line %d of \"%s\" is not a key=value setting", line_no, path);
      break;
    }
    if (s->n_config == cap) {
      int ncap = cap ? cap * 2 : 8;
      hl_kv_t *grown = hl_realloc(s->config, sizeof(hl_kv_t) * (size_t)ncap);
      if (!grown) {
        rc = hl_err_nomem(err);
        break;
      }
      s->config = grown;
      cap = ncap;
    }
    char *k = strip_dup(b, eq), *v = strip_dup(eq + 1, end);
    if (!k || !v) {
      hl_free(k);
      hl_free(v);
      rc = hl_err_nomem(err);
      break;
    }
    s->config[s->n_config].key = k;
    s->config[s->n_config].value = v;
    s->n_config++;
  }
  if (rc != HL_OK) free_config(s);
done:
  hl_arena_destroy(tmp);
  return rc;
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
  hl_session_s3_scopes_free(s);
  hl_session_reset_settings(s);
  free_config(s);
  hl_free(s->settings);
  s->settings = NULL;
  s->cap_settings = 0;
  hl_free(s->warehouse);
  s->warehouse = NULL;
  hl_free(s->metastore);
  s->metastore = NULL;
  hl_free(s->current_db);
  s->current_db = NULL;
}

const char *hl_session_default_part_name(const hl_session_t *s) {
  const char *d = hl_session_get(s, "hive.exec.default.partition.name");
  return d && *d ? d : HL_DEFAULT_PARTITION_NAME;
}

hl_status_t hl_session_get_u64(hl_session_t *s, const char *key, uint64_t dflt, uint64_t *out,
                               hl_error_t *err) {
  const char *v = hl_session_get(s, key);
  if (!v || !*v) {
    *out = dflt;
    return HL_OK;
  }
  char *end = NULL;
  unsigned long long n = strtoull(v, &end, 10);
  if (*end || v[0] == '-' || n == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for %s (expected a positive integer)", v, key);
  *out = n;
  return HL_OK;
}

/* A duration setting in milliseconds: a bare number, or with the unit
 * ms, s or m (Hadoop writes "60s", "200ms"). */
hl_status_t hl_session_parse_millis(const char *key, const char *v, int64_t *out, hl_error_t *err) {
  if (!v) return HL_OK;
  char *end;
  double d = strtod(v, &end);
  double unit = 1;
  if (strcmp(end, "s") == 0)
    unit = 1000;
  else if (strcmp(end, "m") == 0)
    unit = 60000;
  else if (*end && strcmp(end, "ms") != 0)
    d = -1;
  if (end == v || !(d >= 0) || d * unit > 86400000.0)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for %s (expected a duration such as 5000, 200ms, 10s)",
                      v, key);
  *out = (int64_t)(d * unit);
  return HL_OK;
}
