/*
 * cli.h -- private declarations shared by the files of the hivelite command
 * (src/cli): main.c (arguments, running scripts), print.c (result formats)
 * and shell.c (the interactive shell).
 *
 * The CLI is a thin client: it includes only the public API
 * (include/hivelite.h) and libc/libedit, exactly as an embedding program
 * would.  Because util/mem.h is not visible here, the few allocations the
 * CLI makes use malloc/free directly and every failure is checked.
 */
#ifndef HL_CLI_H
#define HL_CLI_H

#include "hivelite.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>

typedef enum hl_cli_format {
  HL_CLI_FORMAT_TABLE, /* a box with a "(N rows)" footer */
  HL_CLI_FORMAT_CSV,   /* RFC 4180 */
  HL_CLI_FORMAT_TSV,   /* tab-separated with backslash escapes */
  HL_CLI_FORMAT_JSON,  /* one object per line */
  HL_CLI_FORMAT_ARROW  /* an Arrow IPC stream per result (arrow_ipc.c) */
} hl_cli_format_t;

typedef struct hl_cli {
  hl_db_t *db;            /* the open warehouse, borrowed */
  hl_cli_format_t format; /* how results are printed */
  int header;             /* 1: print column names (table, csv, tsv) */
  FILE *out;              /* results */
  FILE *err;              /* error messages, warnings, progress */
  /* the shell's Ctrl-C flag (NULL outside the shell): set, a script stops
   * before its next statement */
  volatile sig_atomic_t *interrupted;
  /* progress lines (notify.c): drawn only while a statement's first
   * hl_step runs (before any result row is printed) */
  atomic_int progress_live;  /* 1: the callback may draw */
  atomic_int progress_drawn; /* 1: a progress line is on the terminal */
} hl_cli_t;

/* Outcome of running statements. */
enum {
  HL_CLI_OK = 0,     /* every statement succeeded */
  HL_CLI_SQLERR = 1, /* a statement failed; the error has been printed */
  HL_CLI_USAGE = 2   /* bad command line (only from main.c) */
};

/* Runs every statement of SCRIPT (NUL-terminated) in order.  Errors are
 * printed as "ERROR <SQLSTATE>: message (line L, column C)" with positions
 * relative to SCRIPT.  With STOP_ON_ERROR the first failing statement ends
 * the run; otherwise the next statement runs (a statement that does not
 * parse still ends the run, as its end cannot be known).  Returns HL_CLI_OK
 * or HL_CLI_SQLERR. */
int hl_cli_run_script(hl_cli_t *cli, const char *script, int stop_on_error);

/* Prints "ERROR <SQLSTATE>: MESSAGE" plus " (line L, column C)" when LINE is
 * not 0, and a newline, on cli->err (flushing cli->out first so the two
 * streams interleave in order on a terminal). */
void hl_cli_print_error(hl_cli_t *cli, const char *sqlstate, const char *message, int line,
                        int column);

/* Prints the result of STMT whose first hl_step returned FIRST (HL_ROW or
 * HL_DONE), stepping through the remaining rows.  Prints nothing when the
 * statement has no columns.  Returns HL_DONE when all rows were printed,
 * the failing hl_step status (error left in the handle) otherwise, or
 * HL_NOMEM when the CLI itself ran out of memory. */
hl_status_t hl_cli_print_result(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t first);

/* Writes the result of STMT (first hl_step returned FIRST) as an Arrow
 * IPC stream on cli->out: schema, record batches, end-of-stream marker.
 * Returns as hl_cli_print_result. */
hl_status_t hl_cli_print_arrow(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t first);

/* Registers the warning handler (every mode: "WARNING: message" lines on
 * cli->err) and, when cli->err is a terminal, the progress handler. */
void hl_cli_notify_init(hl_cli_t *cli);
/* Arms (ON 1) or disarms progress drawing; disarming erases a drawn line. */
void hl_cli_progress_live(hl_cli_t *cli, int on);

/* 1 when TEXT ends with a ';' that is outside quotes and comments (only
 * blanks and comments may follow it), i.e. the shell may run it. */
int hl_cli_stmt_complete(const char *text);

/* `hivelite serve` and `hivelite passwd` (serve.c): exit statuses. */
int hl_cli_serve(int argc, char **argv);
int hl_cli_passwd(int argc, char **argv);

/* The interactive shell on a terminal (libedit).  Returns HL_CLI_OK. */
int hl_cli_shell(hl_cli_t *cli);

#endif
