/*
 * main.c -- the hivelite command: argument parsing, opening the warehouse
 * and running the -c / -f / stdin scripts (see DESIGN.md "The CLI").
 *
 *   hivelite [-w WAREHOUSE] [-m METASTORE] [-c SQL]... [-f FILE]...
 *            [--format table|csv|tsv|json|arrow] [--no-header] [-h|--help] [--version]
 *   hivelite metastore [-w WAREHOUSE] [-m METASTORE] [--listen HOST:PORT]
 *            [--idle-timeout SECONDS]
 *   hivelite profile [-w WAREHOUSE] [-m METASTORE] [db.]table [--where EXPR]
 *            [--limit N] [--incremental NAME [--with-late]] [--format FMT]
 *   hivelite serve ... / hivelite passwd FILE USER   (serve.c)
 *
 * `profile` is PROFILE TABLE written as a command: it builds the statement
 * and prints its two results (the column profiles, then the summary) like
 * any statement's.
 *
 * -c and -f run in the order given; each may hold several statements, walked
 * with hl_prepare's tail.  Without them, stdin is an interactive shell on a
 * terminal (shell.c) and a script otherwise.  Exit status: 0 success, 1 an
 * SQL error (the first one stops a script), 2 bad usage.  Every -f file is
 * read before anything runs, so an unreadable file is a usage error that
 * changes nothing.
 */
#include "cli.h"

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Scripts larger than this are refused rather than read without bound. */
#define MAX_SCRIPT_BYTES ((size_t)1 << 30)

typedef struct script {
  const char *text; /* -c argument (borrowed) or file contents (owned) */
  char *owned;      /* non-NULL when text was read from a file */
} script_t;

typedef struct options {
  const char *warehouse;
  const char *metastore;
  hl_cli_format_t format;
  int header;
  script_t *scripts; /* in command-line order */
  size_t n_scripts;
} options_t;

static const char usage_line[] =
    "usage: hivelite [-w WAREHOUSE] [-m METASTORE] [-c SQL]... [-f FILE]\n"
    "                [--format table|csv|tsv|json|arrow] [--no-header] [-h|--help] [--version]\n"
    "       hivelite metastore [-w WAREHOUSE] [-m METASTORE] [--listen HOST:PORT]\n"
    "                [--idle-timeout SECONDS]\n"
    "       hivelite profile [-w WAREHOUSE] [-m METASTORE] [db.]table [--where EXPR]\n"
    "                [--limit N] [--incremental NAME [--with-late]] [--format FMT]\n"
    "       hivelite serve -w WAREHOUSE --auth FILE|trust [--listen HOST:PORT] ...\n"
    "       hivelite passwd FILE USER\n";

static void print_help(void) {
  fputs(usage_line, stdout);
  fputs("\n"
        "Runs HiveQL against a Hive warehouse.\n"
        "\n"
        "  -w, --warehouse DIR   warehouse directory (default $HIVELITE_WAREHOUSE,\n"
        "                        else ./warehouse; created if missing)\n"
        "  -m, --metastore FILE  metastore database (default inside the warehouse), or\n"
        "                        thrift://HOST:PORT[,...] to attach a Hive Metastore\n"
        "  -c, --command SQL     run SQL (may repeat; several statements separated by ';')\n"
        "  -f, --file FILE       run the statements in FILE ('-' for stdin)\n"
        "      --format FMT      result format: table (default), csv, tsv, json, or\n"
        "                        arrow (an Arrow IPC stream per result)\n"
        "      --no-header       do not print column names\n"
        "  -h, --help            show this help and exit\n"
        "      --version         show the version and exit\n"
        "\n"
        "-c and -f run in the order given and stop at the first error.  Without\n"
        "them, statements are read from stdin: an interactive shell on a terminal.\n"
        "Exit status: 0 success, 1 SQL error, 2 bad usage.\n"
        "\n"
        "hivelite metastore serves the warehouse's catalog to Hive Metastore\n"
        "clients (Thrift) on --listen HOST:PORT (default 127.0.0.1:9083; port 0\n"
        "picks a free one) until SIGTERM or SIGINT; --idle-timeout closes a silent\n"
        "connection (default 600 seconds).\n"
        "\n"
        "hivelite profile runs PROFILE TABLE on the table: one row per column,\n"
        "then a summary (rows and partitions read, warnings, the checkpoint).\n",
        stdout);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hivelite: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fputs(usage_line, stderr);
  return HL_CLI_USAGE;
}

/* Reads all of F into a NUL-terminated heap string.  Returns 0, or an errno
 * value (EFBIG when over MAX_SCRIPT_BYTES, EILSEQ when it holds a NUL byte,
 * which would silently cut the script short). */
static int read_stream(FILE *f, char **out) {
  size_t len = 0, cap = 0;
  char *buf = NULL;
  int rc = 0;
  for (;;) {
    if (cap - len < 4096) {
      size_t new_cap = cap ? cap * 2 : 65536;
      if (new_cap > MAX_SCRIPT_BYTES + 1) new_cap = MAX_SCRIPT_BYTES + 1;
      if (new_cap - len < 2) {
        rc = EFBIG;
        break;
      }
      char *grown = realloc(buf, new_cap);
      if (!grown) {
        rc = ENOMEM;
        break;
      }
      buf = grown;
      cap = new_cap;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) {
      if (ferror(f)) rc = errno ? errno : EIO;
      break;
    }
  }
  if (rc == 0 && memchr(buf, '\0', len)) rc = EILSEQ;
  if (rc != 0) {
    free(buf);
    return rc;
  }
  buf[len] = '\0';
  *out = buf;
  return 0;
}

static int read_file(const char *path, char **out) {
  if (strcmp(path, "-") == 0) return read_stream(stdin, out);
  FILE *f = fopen(path, "rb");
  if (!f) return errno;
  int rc = read_stream(f, out);
  fclose(f);
  return rc;
}

static const char *read_error_text(int errnum) {
  if (errnum == EFBIG) return "file is too large";
  if (errnum == EILSEQ) return "file contains a NUL byte";
  return strerror(errnum);
}

static void options_fini(options_t *opt) {
  for (size_t i = 0; i < opt->n_scripts; i++)
    free(opt->scripts[i].owned);
  free(opt->scripts);
}

static int add_script(options_t *opt, const char *text, char *owned) {
  script_t *grown = realloc(opt->scripts, (opt->n_scripts + 1) * sizeof *grown);
  if (!grown) {
    free(owned);
    return -1;
  }
  opt->scripts = grown;
  opt->scripts[opt->n_scripts].text = text;
  opt->scripts[opt->n_scripts].owned = owned;
  opt->n_scripts++;
  return 0;
}

/* Matches ARG against option SHORT_NAME ("-w") / LONG_NAME ("--warehouse")
 * that takes a value.  Accepts "-w V", "-wV", "--warehouse V" and
 * "--warehouse=V".  Returns 1 and sets *value (NULL when the value is
 * missing), 0 when ARG is another option. */
static int match_valued(char **argv, int argc, int *i, const char *short_name,
                        const char *long_name, const char **value) {
  const char *arg = argv[*i];
  size_t long_len = long_name ? strlen(long_name) : 0;
  const char *inline_value = NULL;
  if (short_name && strncmp(arg, short_name, 2) == 0 && arg[1] != '-') {
    if (arg[2]) inline_value = arg + 2;
  } else if (long_name && strncmp(arg, long_name, long_len) == 0 &&
             (arg[long_len] == '\0' || arg[long_len] == '=')) {
    if (arg[long_len] == '=') inline_value = arg + long_len + 1;
  } else {
    return 0;
  }
  if (inline_value) {
    *value = inline_value;
  } else if (*i + 1 < argc) {
    *value = argv[++*i];
  } else {
    *value = NULL;
  }
  return 1;
}

/* --format's VALUE into *OUT; -1 when it names no format. */
static int parse_format(const char *value, hl_cli_format_t *out) {
  static const struct {
    const char *name;
    hl_cli_format_t format;
  } formats[] = {{"table", HL_CLI_FORMAT_TABLE},
                 {"csv", HL_CLI_FORMAT_CSV},
                 {"tsv", HL_CLI_FORMAT_TSV},
                 {"json", HL_CLI_FORMAT_JSON},
                 {"arrow", HL_CLI_FORMAT_ARROW}};
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
    if (strcmp(value, formats[i].name) == 0) {
      *out = formats[i].format;
      return 0;
    }
  return -1;
}

static int parse_args(int argc, char **argv, options_t *opt, int *exit_now) {
  *exit_now = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *value = NULL;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      print_help();
      *exit_now = 1;
      return HL_CLI_OK;
    }
    if (strcmp(arg, "--version") == 0) {
      printf("hivelite %s\n", HIVELITE_VERSION);
      *exit_now = 1;
      return HL_CLI_OK;
    }
    if (strcmp(arg, "--no-header") == 0) {
      opt->header = 0;
    } else if (match_valued(argv, argc, &i, "-w", "--warehouse", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      opt->warehouse = value;
    } else if (match_valued(argv, argc, &i, "-m", "--metastore", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      opt->metastore = value;
    } else if (match_valued(argv, argc, &i, "-c", "--command", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      if (add_script(opt, value, NULL) < 0) return usage_error("%s", "out of memory");
    } else if (match_valued(argv, argc, &i, "-f", "--file", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      char *text = NULL;
      int rc = read_file(value, &text);
      if (rc != 0) {
        fprintf(stderr, "hivelite: could not read file \"%s\": %s\n", value, read_error_text(rc));
        fputs(usage_line, stderr);
        return HL_CLI_USAGE;
      }
      if (add_script(opt, text, text) < 0) return usage_error("%s", "out of memory");
    } else if (match_valued(argv, argc, &i, NULL, "--format", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      if (parse_format(value, &opt->format) != 0)
        return usage_error("unknown format \"%s\" (expected table, csv, tsv, json or arrow)",
                           value);
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return usage_error("unknown option \"%s\"", arg);
    } else {
      return usage_error("unexpected argument \"%s\"", arg);
    }
  }
  return HL_CLI_OK;
}

static void print_listening(void *ctx, const char *host, int port) {
  (void)ctx;
  printf("listening on %s:%d\n", host, port);
  fflush(stdout);
}

/* A decimal in [LO, HI], or -1. */
static long parse_number(const char *s, long lo, long hi) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  return v;
}

/* hivelite metastore ...: serves the warehouse's catalog as a Hive
 * Metastore until SIGTERM or SIGINT (hl_metastore_serve). */
static int run_metastore(int argc, char **argv) {
  const char *env_wh = getenv("HIVELITE_WAREHOUSE");
  const char *warehouse = env_wh && *env_wh ? env_wh : "./warehouse", *metastore = NULL;
  char host[64] = "127.0.0.1";
  long port = 9083, idle = 600;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i], *value = NULL;
    if (match_valued(argv, argc, &i, "-w", "--warehouse", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      warehouse = value;
    } else if (match_valued(argv, argc, &i, "-m", "--metastore", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      metastore = value;
    } else if (match_valued(argv, argc, &i, NULL, "--listen", &value)) {
      const char *colon = value ? strrchr(value, ':') : NULL;
      if (!colon || colon == value || (size_t)(colon - value) >= sizeof host ||
          (port = parse_number(colon + 1, 0, 65535)) < 0)
        return usage_error("option \"%s\" requires HOST:PORT", arg);
      memcpy(host, value, (size_t)(colon - value));
      host[colon - value] = '\0';
    } else if (match_valued(argv, argc, &i, NULL, "--idle-timeout", &value)) {
      if (!value || (idle = parse_number(value, 0, 86400 * 365)) < 0)
        return usage_error("option \"%s\" requires a number of seconds", arg);
    } else {
      return usage_error("unknown metastore argument \"%s\"", arg);
    }
  }
  hl_db_t *db = NULL;
  int status = HL_CLI_OK;
  if (hl_open(warehouse, metastore, &db) != HL_OK ||
      hl_metastore_serve(db, host, (int)port, (int)idle, print_listening, NULL) != HL_OK) {
    fprintf(stderr, "ERROR %s: %s\n", db ? hl_sqlstate(db) : "53200",
            db ? hl_errmsg(db) : "out of memory");
    status = HL_CLI_SQLERR;
  }
  hl_close(db);
  return status;
}

/* Appends TEXT to the malloc'ed string *S (NULL: empty); -1 on OOM. */
static int append(char **s, size_t *len, const char *text, size_t n) {
  char *grown = realloc(*s, *len + n + 1);
  if (!grown) return -1;
  memcpy(grown + *len, text, n);
  *len += n;
  grown[*len] = '\0';
  *s = grown;
  return 0;
}

/* Appends NAME (db.table) with each part in backquotes. */
static int append_table(char **s, size_t *len, const char *name) {
  int rc = append(s, len, "`", 1);
  for (const char *p = name; *p && rc == 0; p++) {
    if (*p == '.')
      rc = append(s, len, "`.`", 3);
    else if (*p == '`')
      rc = append(s, len, "``", 2);
    else
      rc = append(s, len, p, 1);
  }
  return rc == 0 ? append(s, len, "`", 1) : rc;
}

/* hivelite profile ...: PROFILE TABLE built from the arguments. */
static int run_profile(int argc, char **argv) {
  const char *env_wh = getenv("HIVELITE_WAREHOUSE");
  const char *warehouse = env_wh && *env_wh ? env_wh : "./warehouse", *metastore = NULL;
  const char *table = NULL, *where = NULL, *name = NULL;
  long limit = -1;
  int with_late = 0;
  hl_cli_format_t format = HL_CLI_FORMAT_TABLE;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i], *value = NULL;
    if (match_valued(argv, argc, &i, "-w", "--warehouse", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      warehouse = value;
    } else if (match_valued(argv, argc, &i, "-m", "--metastore", &value)) {
      if (!value) return usage_error("option \"%s\" requires an argument", arg);
      metastore = value;
    } else if (match_valued(argv, argc, &i, NULL, "--where", &value)) {
      if (!value) return usage_error("option \"%s\" requires an expression", arg);
      where = value;
    } else if (match_valued(argv, argc, &i, NULL, "--limit", &value)) {
      if (!value || (limit = parse_number(value, 0, 2147483647L)) < 0)
        return usage_error("option \"%s\" requires a number of rows", arg);
    } else if (match_valued(argv, argc, &i, NULL, "--incremental", &value)) {
      if (!value || !*value) return usage_error("option \"%s\" requires a checkpoint name", arg);
      name = value;
    } else if (strcmp(arg, "--with-late") == 0) {
      with_late = 1;
    } else if (match_valued(argv, argc, &i, NULL, "--format", &value)) {
      if (!value || parse_format(value, &format) != 0)
        return usage_error("option \"%s\" requires table, csv, tsv, json or arrow", arg);
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return usage_error("unknown profile argument \"%s\"", arg);
    } else if (table) {
      return usage_error("unexpected argument \"%s\"", arg);
    } else {
      table = arg;
    }
  }
  if (!table) return usage_error("%s", "hivelite profile needs a table");
  if (with_late && !name) return usage_error("%s", "--with-late needs --incremental NAME");
  char *sql = NULL;
  size_t len = 0;
  char num[32];
  int rc = append(&sql, &len, "PROFILE TABLE ", 14);
  if (rc == 0) rc = append_table(&sql, &len, table);
  if (rc == 0 && where) rc = append(&sql, &len, " WHERE ", 7);
  if (rc == 0 && where) rc = append(&sql, &len, where, strlen(where));
  if (rc == 0 && limit >= 0) {
    snprintf(num, sizeof num, " LIMIT %ld", limit);
    rc = append(&sql, &len, num, strlen(num));
  }
  if (rc == 0 && name) rc = append(&sql, &len, " INCREMENTAL AS '", 17);
  for (const char *p = name; rc == 0 && p && *p; p++) { /* a HiveQL string literal */
    if (*p == '\'' || *p == '\\') rc = append(&sql, &len, "\\", 1);
    if (rc == 0) rc = append(&sql, &len, p, 1);
  }
  if (rc == 0 && name) rc = append(&sql, &len, "'", 1);
  if (rc == 0 && with_late) rc = append(&sql, &len, " WITH LATE", 10);
  if (rc != 0) {
    free(sql);
    return usage_error("%s", "out of memory");
  }
  hl_cli_t cli = {.format = format, .header = 1, .out = stdout, .err = stderr};
  int status = HL_CLI_SQLERR;
  if (hl_open(warehouse, metastore, &cli.db) != HL_OK) {
    hl_cli_print_error(&cli, cli.db ? hl_sqlstate(cli.db) : "53200",
                       cli.db ? hl_errmsg(cli.db) : "out of memory", 0, 0);
  } else {
    hl_cli_notify_init(&cli);
    status = hl_cli_run_script(&cli, sql, 1);
  }
  hl_close(cli.db);
  free(sql);
  return status;
}

int main(int argc, char **argv) {
  /* Scans allocate and free megabyte-sized page and chunk buffers per row
   * group; with glibc's defaults each one is a fresh mmap whose pages fault
   * in again (a third of a Parquet scan's time).  Keep them in the heap and
   * do not trim it eagerly.  The process's choice, so it lives here and not
   * in the library. */
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024 * 1024);
  if (argc > 1 && strcmp(argv[1], "metastore") == 0) return run_metastore(argc, argv);
  if (argc > 1 && strcmp(argv[1], "profile") == 0) return run_profile(argc, argv);
  if (argc > 1 && strcmp(argv[1], "serve") == 0) return hl_cli_serve(argc, argv);
  if (argc > 1 && strcmp(argv[1], "passwd") == 0) return hl_cli_passwd(argc, argv);
  options_t opt = {0};
  opt.format = HL_CLI_FORMAT_TABLE;
  opt.header = 1;
  const char *env_wh = getenv("HIVELITE_WAREHOUSE");
  opt.warehouse = env_wh && *env_wh ? env_wh : "./warehouse";

  int exit_now = 0;
  int status = parse_args(argc, argv, &opt, &exit_now);
  if (status != HL_CLI_OK || exit_now) {
    options_fini(&opt);
    return status;
  }

  /* Without -c/-f a non-terminal stdin is a script: read it before opening,
   * so that a read failure is a usage error like an unreadable -f file. */
  int interactive = 0;
  if (opt.n_scripts == 0) {
    if (isatty(STDIN_FILENO)) {
      interactive = 1;
    } else {
      char *text = NULL;
      int rc = read_stream(stdin, &text);
      if (rc != 0) {
        fprintf(stderr, "hivelite: could not read standard input: %s\n", read_error_text(rc));
        options_fini(&opt);
        return HL_CLI_USAGE;
      }
      if (add_script(&opt, text, text) < 0) {
        options_fini(&opt);
        return usage_error("%s", "out of memory");
      }
    }
  }

  hl_cli_t cli = {.format = opt.format, .header = opt.header, .out = stdout, .err = stderr};
  hl_status_t orc = hl_open(opt.warehouse, opt.metastore, &cli.db);
  if (orc != HL_OK) {
    if (cli.db)
      hl_cli_print_error(&cli, hl_sqlstate(cli.db), hl_errmsg(cli.db), 0, 0);
    else
      hl_cli_print_error(&cli, "53200", "out of memory", 0, 0);
    hl_close(cli.db);
    options_fini(&opt);
    return HL_CLI_SQLERR;
  }

  hl_cli_notify_init(&cli);
  if (interactive) {
    status = hl_cli_shell(&cli);
  } else {
    for (size_t i = 0; i < opt.n_scripts && status == HL_CLI_OK; i++)
      status = hl_cli_run_script(&cli, opt.scripts[i].text, 1);
  }
  hl_close(cli.db);
  options_fini(&opt);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "ERROR 58030: could not write to standard output: %s\n", strerror(errno));
    return HL_CLI_SQLERR;
  }
  return status;
}
