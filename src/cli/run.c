/*
 * run.c -- running a script of statements and reporting errors, shared by
 * the -c/-f/stdin path (main.c) and the interactive shell (shell.c).
 *
 * A script is walked with hl_prepare's tail: each call parses the first
 * statement of the remaining text, so the API reports error positions
 * relative to that remainder; run_script keeps the line and column where
 * the remainder starts and shifts the positions so that they are relative
 * to the whole script, as the user wrote it.  Columns count characters
 * (UTF-8 continuation bytes do not advance them).
 */
#include "cli.h"

#include <string.h>

void hl_cli_print_error(hl_cli_t *cli, const char *sqlstate, const char *message, int line,
                        int column) {
  fflush(cli->out);
  fprintf(cli->err, "ERROR %s: %s", sqlstate && *sqlstate ? sqlstate : "XX000",
          message && *message ? message : "unknown error");
  if (line > 0) fprintf(cli->err, " (line %d, column %d)", line, column);
  fputc('\n', cli->err);
  fflush(cli->err);
}

/* Advances the 1-based (*line, *column) over the bytes [FROM, TO). */
static void advance_position(const char *from, const char *to, int *line, int *column) {
  for (const char *p = from; p < to; p++) {
    if (*p == '\n') {
      (*line)++;
      *column = 1;
    } else if (((unsigned char)*p & 0xC0) != 0x80) {
      (*column)++;
    }
  }
}

/* Prints the handle's current error; BASE_LINE/BASE_COLUMN are where the
 * text given to hl_prepare starts within the script. */
static void report_db_error(hl_cli_t *cli, int base_line, int base_column) {
  int line = hl_error_line(cli->db);
  int column = hl_error_column(cli->db);
  if (line > 0) {
    if (line == 1) column += base_column - 1;
    line += base_line - 1;
  }
  hl_cli_print_error(cli, hl_sqlstate(cli->db), hl_errmsg(cli->db), line, column);
}

int hl_cli_run_script(hl_cli_t *cli, const char *script, int stop_on_error) {
  const char *rest = script;
  int line = 1, column = 1; /* position of REST in SCRIPT */
  int result = HL_CLI_OK;
  while (*rest) {
    /* Ctrl-C in the shell ends the whole line of statements */
    if (cli->interrupted && *cli->interrupted) break;
    hl_stmt_t *stmt = NULL;
    const char *tail = NULL;
    hl_status_t rc = hl_prepare(cli->db, rest, &stmt, &tail);
    if (rc != HL_OK) {
      report_db_error(cli, line, column);
      hl_finalize(stmt);
      return HL_CLI_SQLERR; /* the statement's end is unknown: stop */
    }
    if (!stmt) break; /* only blanks and comments remain */
    /* hl_prepare forgets earlier cancel requests: one that came while it
     * ran is only in the shell's flag */
    if (cli->interrupted && *cli->interrupted) {
      hl_finalize(stmt);
      break;
    }
    hl_cli_progress_live(cli, 1);
    rc = hl_step(stmt);
    hl_cli_progress_live(cli, 0);
    if (rc == HL_ROW || rc == HL_DONE) rc = hl_cli_print_result(cli, stmt, rc);
    /* further results (PROFILE's summary) follow in the same format */
    while (rc == HL_DONE && hl_next_result(stmt) == HL_OK) {
      rc = hl_step(stmt);
      if (rc == HL_ROW || rc == HL_DONE) rc = hl_cli_print_result(cli, stmt, rc);
    }
    /* each statement's result leaves when it is done: a script's reader
     * (a pipe, a log) sees the results as they come, not at the end */
    fflush(cli->out);
    if (rc == HL_NOMEM && hl_errcode(cli->db) != HL_NOMEM) {
      /* The CLI's own buffers ran out, not the library. */
      hl_cli_print_error(cli, "53200", "out of memory", 0, 0);
      result = HL_CLI_SQLERR;
    } else if (rc != HL_DONE) {
      report_db_error(cli, line, column);
      result = HL_CLI_SQLERR;
    }
    hl_finalize(stmt);
    if (result != HL_CLI_OK && (stop_on_error || rc == HL_INTERRUPT)) break;
    /* A tail that does not advance would loop forever: treat it as the end. */
    if (!tail || tail <= rest) break;
    advance_position(rest, tail, &line, &column);
    rest = tail;
  }
  return result;
}

/* Lexical states of the completeness scanner. */
enum { SCAN_CODE, SCAN_SQUOTE, SCAN_DQUOTE, SCAN_BACKTICK, SCAN_LINE_COMMENT, SCAN_BLOCK_COMMENT };

int hl_cli_stmt_complete(const char *text) {
  int state = SCAN_CODE;
  int last_significant = 0; /* last character outside quotes and comments */
  for (const char *p = text; *p; p++) {
    char c = *p;
    switch (state) {
    case SCAN_CODE:
      if (c == '\'') {
        state = SCAN_SQUOTE;
      } else if (c == '"') {
        state = SCAN_DQUOTE;
      } else if (c == '`') {
        state = SCAN_BACKTICK;
      } else if (c == '-' && p[1] == '-') {
        state = SCAN_LINE_COMMENT;
        p++;
        continue;
      } else if (c == '/' && p[1] == '*') {
        state = SCAN_BLOCK_COMMENT;
        p++;
        continue;
      }
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v')
        last_significant = (unsigned char)c;
      break;
    case SCAN_SQUOTE:
    case SCAN_DQUOTE:
      /* HiveQL string literals use backslash escapes. */
      if (c == '\\' && p[1]) {
        p++;
      } else if (c == (state == SCAN_SQUOTE ? '\'' : '"')) {
        state = SCAN_CODE;
      }
      break;
    case SCAN_BACKTICK:
      if (c == '`') state = SCAN_CODE; /* `` inside is two toggles: fine */
      break;
    case SCAN_LINE_COMMENT:
      if (c == '\n') state = SCAN_CODE;
      break;
    case SCAN_BLOCK_COMMENT:
      if (c == '*' && p[1] == '/') {
        state = SCAN_CODE;
        p++;
      }
      break;
    }
  }
  if (state != SCAN_CODE && state != SCAN_LINE_COMMENT) return 0;
  return last_significant == ';';
}
