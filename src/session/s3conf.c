/*
 * s3conf.c -- where the S3 backend's settings come from (s3conf.h).
 *
 * For each bucket, each setting is looked up as Hadoop's S3A connector
 * does, so that the names people already have in core-site.xml and in
 * Spark and Trino configurations work: the per-bucket form
 * `fs.s3a.bucket.<bucket>.<option>` first, then `fs.s3a.<option>` (both
 * from SET, the warehouse's .hivelite/config, in that order), then the
 * AWS environment variables, then the profile of the AWS shared
 * credentials file.  No credentials at all, or the credentials provider
 * `org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider`, means
 * anonymous requests (public buckets).
 */
#include "session/s3conf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* fs.s3a.bucket.<bucket>.<opt>, else fs.s3a.<opt>, else NULL. */
static const char *opt(const hl_session_t *s, const char *bucket, const char *name,
                       hl_arena_t *arena) {
  char *key = hl_arena_sprintf(arena, "fs.s3a.bucket.%s.%s", bucket, name);
  const char *v = key ? hl_session_get(s, key) : NULL;
  if (!v || !*v) {
    key = hl_arena_sprintf(arena, "fs.s3a.%s", name);
    v = key ? hl_session_get(s, key) : NULL;
  }
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

hl_status_t hl_session_s3_config(void *arg, const char *bucket, hl_arena_t *arena,
                                 hl_s3_config_t *out, hl_error_t *err) {
  const hl_session_t *s = arg;
  memset(out, 0, sizeof *out);
  out->endpoint = opt(s, bucket, "endpoint", arena);
  if (!out->endpoint) out->endpoint = env("AWS_ENDPOINT_URL_S3");
  if (!out->endpoint) out->endpoint = env("AWS_ENDPOINT_URL");
  out->region = opt(s, bucket, "endpoint.region", arena);
  if (!out->region) out->region = env("AWS_REGION");
  if (!out->region) out->region = env("AWS_DEFAULT_REGION");
  out->path_style = truthy(opt(s, bucket, "path.style.access", arena));
  const char *provider = opt(s, bucket, "aws.credentials.provider", arena);
  bool anonymous = provider && strstr(provider, "AnonymousAWSCredentialsProvider");
  const char *attempts = opt(s, bucket, "attempts.maximum", arena);
  if (attempts) {
    char *end;
    long n = strtol(attempts, &end, 10);
    if (*end || n < 1 || n > 100)
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "invalid value \"%s\" for fs.s3a.attempts.maximum (expected 1 to 100)",
                        attempts);
    out->max_attempts = (int)n;
  }
  hl_status_t rc = hl_session_parse_millis("fs.s3a.retry.interval", opt(s, bucket, "retry.interval", arena),
                          &out->retry_base_ms, err);
  if (rc == HL_OK)
    rc = hl_session_parse_millis("fs.s3a.connection.establish.timeout",
                opt(s, bucket, "connection.establish.timeout", arena), &out->connect_timeout_ms,
                err);
  if (rc == HL_OK)
    rc = hl_session_parse_millis("fs.s3a.connection.request.timeout",
                opt(s, bucket, "connection.request.timeout", arena), &out->request_timeout_ms, err);
  if (rc != HL_OK || anonymous) return rc;
  out->access_key = opt(s, bucket, "access.key", arena);
  out->secret_key = opt(s, bucket, "secret.key", arena);
  out->session_token = opt(s, bucket, "session.token", arena);
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
