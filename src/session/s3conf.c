/*
 * s3conf.c -- where the S3 backend's settings come from (s3conf.h).
 *
 * For each bucket, each setting is looked up as Hadoop's S3A connector
 * does, so that the names people already have in core-site.xml and in
 * Spark and Trino configurations work: the per-bucket form
 * `fs.s3a.bucket.<bucket>.<option>` first, then `fs.s3a.<option>` (both
 * from SET, the warehouse's .hivelite/config, in that order), then the
 * AWS environment variables, then the profile of the AWS shared
 * credentials file.  Before all of them come the properties of the table
 * being read or written (TBLPROPERTIES) and of its catalog (CREATE CATALOG
 * PROPERTIES), for paths at or below the table's location: a "scope"
 * registered when the statement resolves the table (hl_session_s3_scope).
 * Catalog properties may also use Doris's names (s3.endpoint,
 * s3.access_key, s3.secret_key, s3.session_token, s3.region,
 * use_path_style).  No credentials at all, or the credentials provider
 * `org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider`, means
 * anonymous requests (public buckets).
 */
#include "session/s3conf.h"

#include "util/mem.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One location's S3 settings: the fs.s3a.* properties of a table and its
 * catalog. */
typedef struct scope {
  char *location; /* heap */
  hl_kv_t *kvs;   /* heap keys and values */
  int n;
  struct scope *next;
} scope_t;

struct hl_s3_scopes {
  pthread_mutex_t mu; /* the statement's threads read while it registers */
  scope_t *list;
};

static void scope_free(scope_t *sc) {
  for (int i = 0; i < sc->n; i++) {
    hl_free(sc->kvs[i].key);
    hl_free(sc->kvs[i].value);
  }
  hl_free(sc->kvs);
  hl_free(sc->location);
  hl_free(sc);
}

void hl_session_s3_scopes_free(hl_session_t *s) {
  if (!s->s3_scopes) return;
  while (s->s3_scopes->list) {
    scope_t *sc = s->s3_scopes->list;
    s->s3_scopes->list = sc->next;
    scope_free(sc);
  }
  pthread_mutex_destroy(&s->s3_scopes->mu);
  hl_free(s->s3_scopes);
  s->s3_scopes = NULL;
}

/* Doris's catalog property names for S3, as S3A's. */
static const char *doris_name(const char *key) {
  static const char *const map[][2] = {
      {"s3.endpoint", "fs.s3a.endpoint"},      {"s3.access_key", "fs.s3a.access.key"},
      {"s3.secret_key", "fs.s3a.secret.key"},  {"s3.session_token", "fs.s3a.session.token"},
      {"s3.region", "fs.s3a.endpoint.region"}, {"use_path_style", "fs.s3a.path.style.access"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(key, map[i][0]) == 0) return map[i][1];
  return strncmp(key, "fs.s3a.", 7) == 0 ? key : NULL;
}

static bool put_kv(scope_t *sc, int *cap, const char *key, const char *value) {
  for (int i = 0; i < sc->n; i++)
    if (strcmp(sc->kvs[i].key, key) == 0) { /* a later source wins */
      char *v = hl_strdup(value);
      if (!v) return false;
      hl_free(sc->kvs[i].value);
      sc->kvs[i].value = v;
      return true;
    }
  if (sc->n == *cap) {
    int ncap = *cap ? *cap * 2 : 4;
    hl_kv_t *g = hl_realloc(sc->kvs, sizeof(hl_kv_t) * (size_t)ncap);
    if (!g) return false;
    sc->kvs = g;
    *cap = ncap;
  }
  char *k = hl_strdup(key), *v = hl_strdup(value);
  if (!k || !v) {
    hl_free(k);
    hl_free(v);
    return false;
  }
  sc->kvs[sc->n].key = k;
  sc->kvs[sc->n++].value = v;
  return true;
}

hl_status_t hl_session_s3_scope(hl_session_t *s, const char *location, const hl_kv_t *catalog,
                                int n_catalog, const hl_kv_t *table, int n_table, hl_error_t *err) {
  if (!location || !hl_uri_object_root(location)) return HL_OK;
  scope_t *sc = hl_calloc(1, sizeof *sc);
  int cap = 0;
  bool ok = sc && (sc->location = hl_strdup(location));
  for (int i = 0; ok && i < n_catalog; i++) {
    const char *k = doris_name(catalog[i].key);
    if (k && catalog[i].value) ok = put_kv(sc, &cap, k, catalog[i].value);
  }
  for (int i = 0; ok && i < n_table; i++)
    if (strncmp(table[i].key, "fs.s3a.", 7) == 0 && table[i].value)
      ok = put_kv(sc, &cap, table[i].key, table[i].value);
  if (!ok) {
    if (sc) scope_free(sc);
    return hl_err_nomem(err);
  }
  if (!s->s3_scopes) {
    if (sc->n == 0) { /* nothing to remember, nothing to replace */
      scope_free(sc);
      return HL_OK;
    }
    if (!(s->s3_scopes = hl_calloc(1, sizeof *s->s3_scopes)) ||
        pthread_mutex_init(&s->s3_scopes->mu, NULL) != 0) {
      hl_free(s->s3_scopes);
      s->s3_scopes = NULL;
      scope_free(sc);
      return hl_err_nomem(err);
    }
  }
  pthread_mutex_lock(&s->s3_scopes->mu);
  scope_t **pp = &s->s3_scopes->list;
  while (*pp && strcmp((*pp)->location, location) != 0)
    pp = &(*pp)->next;
  if (*pp) { /* the table's properties as they are now */
    scope_t *old = *pp;
    *pp = old->next;
    scope_free(old);
  }
  if (sc->n > 0) {
    sc->next = s->s3_scopes->list;
    s->s3_scopes->list = sc;
  } else {
    scope_free(sc);
  }
  pthread_mutex_unlock(&s->s3_scopes->mu);
  return HL_OK;
}

/* KEY from the innermost scope holding PATH, copied into ARENA, or NULL. */
static const char *scope_get(const hl_session_t *s, const char *path, const char *key,
                             hl_arena_t *arena) {
  if (!s->s3_scopes || !path) return NULL;
  const char *v = NULL;
  size_t best = 0;
  pthread_mutex_lock(&s->s3_scopes->mu);
  for (const scope_t *sc = s->s3_scopes->list; sc; sc = sc->next) {
    size_t len = strlen(sc->location);
    if (len <= best || !hl_path_within(path, sc->location)) continue;
    const char *x = hl_kv_get(sc->kvs, sc->n, key);
    if (x) {
      v = x;
      best = len;
    }
  }
  char *copy = v ? hl_arena_strdup(arena, v) : NULL;
  pthread_mutex_unlock(&s->s3_scopes->mu);
  return copy;
}

/* For PATH in BUCKET: fs.s3a.bucket.<bucket>.<opt>, else fs.s3a.<opt>,
 * from the table's scope first, then the session; else NULL. */
static const char *opt(const hl_session_t *s, const char *path, const char *bucket,
                       const char *name, hl_arena_t *arena) {
  char *bkey = hl_arena_sprintf(arena, "fs.s3a.bucket.%s.%s", bucket, name);
  char *key = hl_arena_sprintf(arena, "fs.s3a.%s", name);
  if (!bkey || !key) return NULL;
  const char *v = scope_get(s, path, bkey, arena);
  if (!v || !*v) v = scope_get(s, path, key, arena);
  if (!v || !*v) v = hl_session_get(s, bkey);
  if (!v || !*v) v = hl_session_get(s, key);
  return v && *v ? v : NULL;
}

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

/* Values of KEYS[i] in section SECTION of the ini-style file PATH (the
 * AWS shared credentials and config files), into VALUES[i] (ARENA).
 * A missing file is no values. */
static void ini_read(const char *path, const char *section, const char *const *keys,
                     const char **values, int n, hl_arena_t *arena) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[4096];
  bool in = false;
  int lines = 0;
  while (fgets(line, sizeof line, f) && lines++ < 100000) {
    char *p = line;
    while (isspace((unsigned char)*p))
      p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
      p[--len] = '\0';
    if (*p == '[') {
      char *end = strchr(p, ']');
      if (!end) continue;
      *end = '\0';
      char *name = p + 1;
      while (isspace((unsigned char)*name))
        name++;
      size_t nl = strlen(name);
      while (nl > 0 && isspace((unsigned char)name[nl - 1]))
        name[--nl] = '\0';
      in = strcmp(name, section) == 0;
      continue;
    }
    if (!in || *p == '#' || *p == ';') continue;
    char *eq = strchr(p, '=');
    if (!eq) continue;
    char *v = eq + 1;
    while (eq > p && isspace((unsigned char)eq[-1]))
      eq--;
    *eq = '\0';
    while (isspace((unsigned char)*v))
      v++;
    for (int i = 0; i < n; i++)
      if (!values[i] && strcasecmp(p, keys[i]) == 0) values[i] = hl_arena_strdup(arena, v);
  }
  fclose(f);
}

static char *home_file(hl_arena_t *arena, const char *env_name, const char *rel) {
  const char *p = env(env_name);
  if (p) return hl_arena_strdup(arena, p);
  const char *home = env("HOME");
  return home ? hl_arena_sprintf(arena, "%s/%s", home, rel) : NULL;
}

static bool truthy(const char *v) {
  return v && (strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

hl_status_t hl_session_s3_config(void *arg, const char *path, const char *bucket, hl_arena_t *arena,
                                 hl_s3_config_t *out, hl_error_t *err) {
  const hl_session_t *s = arg;
  memset(out, 0, sizeof *out);
  out->endpoint = opt(s, path, bucket, "endpoint", arena);
  if (!out->endpoint) out->endpoint = env("AWS_ENDPOINT_URL_S3");
  if (!out->endpoint) out->endpoint = env("AWS_ENDPOINT_URL");
  out->region = opt(s, path, bucket, "endpoint.region", arena);
  if (!out->region) out->region = env("AWS_REGION");
  if (!out->region) out->region = env("AWS_DEFAULT_REGION");
  out->path_style = truthy(opt(s, path, bucket, "path.style.access", arena));
  /* hivelite's own option (S3A takes the JVM's trust store): the
   * authorities an https endpoint must chain to, else AWS_CA_BUNDLE (the
   * AWS CLI's), else the system's */
  out->ca_file = opt(s, path, bucket, "ca.bundle", arena);
  if (!out->ca_file) out->ca_file = env("AWS_CA_BUNDLE");
  const char *provider = opt(s, path, bucket, "aws.credentials.provider", arena);
  bool anonymous = provider && strstr(provider, "AnonymousAWSCredentialsProvider");
  const char *attempts = opt(s, path, bucket, "attempts.maximum", arena);
  if (attempts) {
    char *end;
    long n = strtol(attempts, &end, 10);
    if (*end || n < 1 || n > 100)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "invalid value \"%s\" for fs.s3a.attempts.maximum (expected 1 to 100)",
                        attempts);
    out->max_attempts = (int)n;
  }
  hl_status_t rc = hl_session_parse_millis("fs.s3a.retry.interval",
                                           opt(s, path, bucket, "retry.interval", arena),
                                           &out->retry_base_ms, err);
  if (rc == HL_OK)
    rc = hl_session_parse_millis("fs.s3a.connection.establish.timeout",
                                 opt(s, path, bucket, "connection.establish.timeout", arena),
                                 &out->connect_timeout_ms, err);
  if (rc == HL_OK)
    rc = hl_session_parse_millis("fs.s3a.connection.request.timeout",
                                 opt(s, path, bucket, "connection.request.timeout", arena),
                                 &out->request_timeout_ms, err);
  if (rc != HL_OK || anonymous) return rc;
  out->access_key = opt(s, path, bucket, "access.key", arena);
  out->secret_key = opt(s, path, bucket, "secret.key", arena);
  out->session_token = opt(s, path, bucket, "session.token", arena);
  if (!out->access_key) {
    out->access_key = env("AWS_ACCESS_KEY_ID");
    out->secret_key = env("AWS_SECRET_ACCESS_KEY");
    out->session_token = env("AWS_SESSION_TOKEN");
  }
  const char *profile = env("AWS_PROFILE");
  if (!profile) profile = "default";
  if (!out->access_key) {
    static const char *const keys[] = {"aws_access_key_id", "aws_secret_access_key",
                                       "aws_session_token"};
    const char *vals[3] = {NULL, NULL, NULL};
    char *path = home_file(arena, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
    if (path) ini_read(path, profile, keys, vals, 3, arena);
    out->access_key = vals[0];
    out->secret_key = vals[1];
    out->session_token = vals[2];
  }
  if (!out->region || !out->endpoint) { /* the config file's profile */
    static const char *const keys[] = {"region", "endpoint_url"};
    const char *vals[2] = {NULL, NULL};
    char *path = home_file(arena, "AWS_CONFIG_FILE", ".aws/config");
    char *section = strcmp(profile, "default") == 0
                        ? hl_arena_strdup(arena, "default")
                        : hl_arena_sprintf(arena, "profile %s", profile);
    if (path && section) ini_read(path, section, keys, vals, 2, arena);
    if (!out->region) out->region = vals[0];
    if (!out->endpoint) out->endpoint = vals[1];
  }
  if (out->access_key && !out->secret_key)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_AUTHORIZATION_SPECIFICATION),
                      "an S3 access key for bucket \"%s\" is set without its secret key "
                      "(fs.s3a.secret.key)",
                      bucket);
  return HL_OK;
}
