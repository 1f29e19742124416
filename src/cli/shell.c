/*
 * shell.c -- the interactive shell of the hivelite command (stdin is a
 * terminal and no -c/-f was given), on libedit's readline interface.
 *
 * Lines accumulate until the text ends with a ';' outside quotes and
 * comments (hl_cli_stmt_complete); then the whole text runs as a script and
 * goes into the history (~/.hivelite_history, last HISTORY_LINES entries).
 * The prompt is "hivelite> ", and "        > " (aligned under it) while a
 * statement continues.  Dot commands (.help, .quit, .exit) are recognised
 * at the start of a statement.  An error is printed and the shell carries
 * on; EOF (Ctrl-D) leaves, running a pending unterminated statement first.
 *
 * Each statement is appended to the history file as it is entered, so a
 * shell that is killed keeps it; a clean exit rewrites the file with the
 * last HISTORY_LINES entries.
 *
 * Ctrl-C: at the prompt it discards the line and any pending lines of a
 * statement and shows a fresh prompt; while a statement runs it cancels
 * it (hl_interrupt: the statement fails with 57014 and the prompt comes
 * back); a second Ctrl-C before the cancelled statement has stopped
 * leaves the shell as SIGINT's default action does.  libedit's own signal
 * handling is off (rl_catch_signals = 0) and the shell reads the
 * terminal itself (rl_getc_function), so that a Ctrl-C at the prompt
 * interrupts the read instead of being retried or killing the process.
 */
#include "cli.h"

#include <editline/readline.h>
#include <histedit.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HISTORY_LINES 1000
/* A statement being typed may not grow past this (bounded allocation). */
#define MAX_STATEMENT_BYTES ((size_t)64 << 20)

/* What the SIGINT handler sees.  A signal handler reaches nothing but
 * static objects, so these two are the shell's only ones: a Ctrl-C since
 * the shell last looked, and the handle of the running statement (NULL
 * at the prompt). */
static volatile sig_atomic_t sigint_seen;
static hl_db_t *_Atomic sigint_db;

static void on_sigint(int sig) {
  hl_db_t *db = atomic_load(&sigint_db);
  if (db && sigint_seen) { /* a second Ctrl-C while cancelling: leave */
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  sigint_seen = 1;
  if (!db) return;
  hl_interrupt(db); /* async-signal-safe: one atomic store */
  /* end the terminal's "^C" echo line before the error comes */
  ssize_t rc = write(STDERR_FILENO, "\n", 1);
  (void)rc;
}

/* libedit's character reader: a read interrupted by Ctrl-C ends the line
 * (readline returns, and the shell sees sigint_seen) instead of being
 * retried. */
static int shell_getc(FILE *in) {
  int fd = in ? fileno(in) : STDIN_FILENO;
  for (;;) {
    if (sigint_seen) return EOF;
    unsigned char c;
    ssize_t n = read(fd, &c, 1);
    if (n == 1) return c;
    if (n == 0 || errno != EINTR) return EOF;
  }
}

static const char prompt_first[] = "hivelite> ";
static const char prompt_more[] = "        > ";

typedef struct text_buf {
  char *data;
  size_t len;
  size_t cap;
} text_buf_t;

/* Appends S and a newline; -1 when memory or the size limit runs out. */
static int buf_append_line(text_buf_t *b, const char *s) {
  size_t n = strlen(s);
  if (n > MAX_STATEMENT_BYTES || b->len > MAX_STATEMENT_BYTES - n) return -1;
  if (b->len + n + 2 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 2)
      cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) return -1;
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len++] = '\n';
  b->data[b->len] = '\0';
  return 0;
}

static int is_blank(const char *s) {
  for (; *s; s++)
    if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') return 0;
  return 1;
}

/* A dot command; returns 1 when the shell should exit. */
static int dot_command(hl_cli_t *cli, const char *line) {
  while (*line == ' ' || *line == '\t')
    line++;
  size_t n = strcspn(line, " \t\r\n");
  if ((n == 5 && strncmp(line, ".quit", 5) == 0) || (n == 5 && strncmp(line, ".exit", 5) == 0))
    return 1;
  if (n == 5 && strncmp(line, ".help", 5) == 0) {
    fputs("Enter HiveQL statements terminated by ';' (they may span several lines).\n"
          ".help          show this text\n"
          ".quit, .exit   leave the shell (or press Ctrl-D)\n",
          cli->out);
    fflush(cli->out);
    return 0;
  }
  fflush(cli->out);
  fprintf(cli->err, "unknown command \"%.*s\"; enter .help for help\n", (int)n, line);
  return 0;
}

/* Adds ENTRY to the history and appends it to the file at once, through a
 * one-entry history of its own: append_history(1, ...) of this libedit
 * (3.1-20221030) writes the last two entries, so every statement would be
 * in the file twice.  Saving to a file opened for appending writes the
 * format's first line only into an empty file, as append_history does.
 * Errors are ignored: the history is a convenience. */
static void remember_line(const char *entry, const char *history_path) {
  add_history(entry);
  if (!history_path) return;
  History *one = history_init();
  if (!one) return;
  HistEvent ev;
  FILE *f = NULL;
  if (history(one, &ev, H_SETSIZE, 1) != -1 && history(one, &ev, H_ENTER, entry) != -1 &&
      (f = fopen(history_path, "a")))
    history(one, &ev, H_SAVE_FP, f);
  if (f) fclose(f);
  history_end(one);
}

/* Adds the statement to the history as one line: newlines become spaces,
 * unless a "--" comment would then swallow the rest of the statement. */
static void remember(text_buf_t *b, const char *history_path) {
  size_t len = b->len;
  while (len > 0 && (b->data[len - 1] == '\n' || b->data[len - 1] == ' '))
    len--;
  char *entry = malloc(len + 1);
  if (!entry) return; /* history is a convenience: skip it */
  int join = strstr(b->data, "--") == NULL;
  for (size_t i = 0; i < len; i++)
    entry[i] = join && b->data[i] == '\n' ? ' ' : b->data[i];
  entry[len] = '\0';
  remember_line(entry, history_path);
  free(entry);
}

int hl_cli_shell(hl_cli_t *cli) {
  char *history_path = NULL;
  const char *home = getenv("HOME");
  if (home && *home) {
    size_t n = strlen(home) + sizeof "/.hivelite_history";
    history_path = malloc(n);
    if (history_path) snprintf(history_path, n, "%s/.hivelite_history", home);
  }
  rl_readline_name = "hivelite";
  rl_catch_signals = 0;
  rl_getc_function = shell_getc;
  using_history();
  stifle_history(HISTORY_LINES);
  if (history_path) read_history(history_path); /* a missing file is fine */

  /* no SA_RESTART: the read at the prompt must see the interruption */
  struct sigaction sa, old_sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_sa);
  cli->interrupted = &sigint_seen;

  printf("hivelite %s -- enter .help for help\n", HIVELITE_VERSION);
  text_buf_t pending = {0};
  for (;;) {
    sigint_seen = 0;
    char *line = readline(pending.len ? prompt_more : prompt_first);
    if (sigint_seen) { /* Ctrl-C at the prompt: drop the line and the pending statement */
      free(line);
      fputc('\n', cli->out);
      fflush(cli->out);
      pending.len = 0;
      continue;
    }
    if (!line) { /* EOF */
      fputc('\n', cli->out);
      if (pending.len && !is_blank(pending.data)) hl_cli_run_script(cli, pending.data, 0);
      break;
    }
    if (pending.len == 0) {
      if (is_blank(line)) {
        free(line);
        continue;
      }
      const char *first = line + strspn(line, " \t");
      if (*first == '.') {
        remember_line(line, history_path);
        int quit = dot_command(cli, first);
        free(line);
        if (quit) break;
        continue;
      }
    }
    int rc = buf_append_line(&pending, line);
    free(line);
    if (rc < 0) {
      hl_cli_print_error(cli, "54000", "statement is too long", 0, 0);
      pending.len = 0;
      continue;
    }
    if (!hl_cli_stmt_complete(pending.data)) continue;
    remember(&pending, history_path);
    atomic_store(&sigint_db, cli->db);
    hl_cli_run_script(cli, pending.data, 0);
    atomic_store(&sigint_db, NULL);
    fflush(cli->out);
    pending.len = 0;
  }
  sigaction(SIGINT, &old_sa, NULL);
  cli->interrupted = NULL;
  if (history_path) write_history(history_path);
  free(history_path);
  free(pending.data);
  return HL_CLI_OK;
}
