/*
 * serve.c -- `hivelite serve` and `hivelite passwd`: the command-line side
 * of the PostgreSQL server (src/server), which does the work.
 *
 *   hivelite serve [-w DIR] [-m METASTORE] [--listen HOST:PORT]
 *                  --auth FILE|trust [--auth-cleartext]
 *                  [--tls-cert FILE --tls-key FILE] [--max-connections N]
 *                  [--idle-timeout SECONDS] [--memory-limit SIZE]
 *   hivelite passwd FILE USER      (the password on stdin, one line)
 */
#include "cli.h"
#include "server/pg_server.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char serve_usage[] =
    "usage: hivelite serve [-w WAREHOUSE] [-m METASTORE] [--listen HOST:PORT]\n"
    "                      --auth FILE|trust [--auth-cleartext]\n"
    "                      [--tls-cert FILE --tls-key FILE] [--max-connections N]\n"
    "                      [--idle-timeout SECONDS] [--memory-limit SIZE]\n"
    "       hivelite passwd FILE USER   (reads the password from stdin)\n";

static int serve_usage_error(const char *what, const char *arg) {
  fprintf(stderr, "hivelite serve: %s%s%s%s\n%s", what, arg ? " \"" : "", arg ? arg : "",
          arg ? "\"" : "", serve_usage);
  return HL_CLI_USAGE;
}

static long number(const char *s, long lo, long hi) {
  char *end;
  errno = 0;
  long v = s ? strtol(s, &end, 10) : -1;
  if (!s || errno || end == s || *end || v < lo || v > hi) return -1;
  return v;
}

int hl_cli_serve(int argc, char **argv) {
  const char *env_wh = getenv("HIVELITE_WAREHOUSE");
  hl_pg_config_t cfg = {.warehouse = env_wh && *env_wh ? env_wh : "./warehouse",
                        .host = "127.0.0.1",
                        .port = 5433,
                        .max_connections = 64,
                        .idle_timeout_s = 0,
                        .log = stderr};
  char host[256];
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(serve_usage, stdout);
      return HL_CLI_OK;
    } else if (strcmp(a, "--auth-cleartext") == 0) {
      cfg.allow_cleartext = 1;
      continue;
    }
    if (!v) return serve_usage_error("option requires an argument:", a);
    i++;
    if (strcmp(a, "-w") == 0 || strcmp(a, "--warehouse") == 0) {
      cfg.warehouse = v;
    } else if (strcmp(a, "-m") == 0 || strcmp(a, "--metastore") == 0) {
      cfg.metastore = v;
    } else if (strcmp(a, "--listen") == 0) {
      const char *colon = strrchr(v, ':');
      if (!colon || colon == v || (size_t)(colon - v) >= sizeof host ||
          (cfg.port = (int)number(colon + 1, 0, 65535)) < 0)
        return serve_usage_error("--listen requires HOST:PORT, not", v);
      const char *h = v;
      size_t n = (size_t)(colon - v);
      if (h[0] == '[' && n >= 2 && h[n - 1] == ']') { /* [::1]:5433 */
        h++;
        n -= 2;
      }
      memcpy(host, h, n);
      host[n] = '\0';
      cfg.host = host;
    } else if (strcmp(a, "--auth") == 0) {
      if (strcmp(v, "trust") == 0)
        cfg.auth_trust = 1;
      else
        cfg.auth_file = v;
    } else if (strcmp(a, "--tls-cert") == 0) {
      cfg.tls_cert = v;
    } else if (strcmp(a, "--tls-key") == 0) {
      cfg.tls_key = v;
    } else if (strcmp(a, "--max-connections") == 0) {
      if ((cfg.max_connections = (int)number(v, 1, 100000)) < 0)
        return serve_usage_error("--max-connections requires a number from 1, not", v);
    } else if (strcmp(a, "--idle-timeout") == 0) {
      if ((cfg.idle_timeout_s = (int)number(v, 0, 86400 * 365)) < 0)
        return serve_usage_error("--idle-timeout requires a number of seconds, not", v);
    } else if (strcmp(a, "--memory-limit") == 0) {
      cfg.memory_limit = v; /* checked by the server, with the engine's reading of sizes */
    } else {
      return serve_usage_error("unknown argument", a);
    }
  }
  if (!cfg.auth_file && !cfg.auth_trust)
    return serve_usage_error("--auth FILE or --auth trust is required", NULL);
  return hl_pg_serve(&cfg) == 0 ? HL_CLI_OK : HL_CLI_SQLERR;
}

int hl_cli_passwd(int argc, char **argv) {
  if (argc != 4) {
    fputs(serve_usage, stderr);
    return HL_CLI_USAGE;
  }
  char password[1024];
  if (!fgets(password, sizeof password, stdin)) {
    fprintf(stderr, "hivelite passwd: no password on stdin\n");
    return HL_CLI_USAGE;
  }
  password[strcspn(password, "\r\n")] = '\0';
  int rc = hl_pg_passwd(argv[2], argv[3], password, stderr);
  memset(password, 0, sizeof password);
  return rc == 0 ? HL_CLI_OK : HL_CLI_SQLERR;
}
