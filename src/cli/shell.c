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
 */
#include "cli.h"

#include <editline/readline.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_LINES 1000
/* A statement being typed may not grow past this (bounded allocation). */
#define MAX_STATEMENT_BYTES ((size_t)64 << 20)

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

/* Adds the statement to the history as one line: newlines become spaces,
 * unless a "--" comment would then swallow the rest of the statement. */
static void remember(text_buf_t *b) {
  size_t len = b->len;
  while (len > 0 && (b->data[len - 1] == '\n' || b->data[len - 1] == ' '))
    len--;
  char *entry = malloc(len + 1);
  if (!entry) return; /* history is a convenience: skip it */
  int join = strstr(b->data, "--") == NULL;
  for (size_t i = 0; i < len; i++)
    entry[i] = join && b->data[i] == '\n' ? ' ' : b->data[i];
  entry[len] = '\0';
  add_history(entry);
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
  using_history();
  stifle_history(HISTORY_LINES);
  if (history_path) read_history(history_path); /* a missing file is fine */

  printf("hivelite %s -- enter .help for help\n", HIVELITE_VERSION);
  text_buf_t pending = {0};
  for (;;) {
    char *line = readline(pending.len ? prompt_more : prompt_first);
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
        add_history(line);
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
    remember(&pending);
    hl_cli_run_script(cli, pending.data, 0);
    fflush(cli->out);
    pending.len = 0;
  }
  if (history_path) write_history(history_path);
  free(history_path);
  free(pending.data);
  return HL_CLI_OK;
}
