/*
 * notify.c -- what the hivelite command shows on stderr besides errors:
 * the library's warnings, as "WARNING: message" lines (all modes), and
 * a progress line for long statements (stderr a terminal only).
 *
 * The progress line is one line rewritten in place ("\r... ESC[K") and
 * erased when the statement's first hl_step returns, so it never mixes
 * with result rows: a statement that streams its rows (a plain SELECT)
 * shows its rows, not a progress line.  The library throttles the calls
 * (ten a second at most, none in a statement's first half second) and
 * never makes two at once, but they may come from its worker threads, so
 * the flags shared with the main thread are atomics.
 */
#include "cli.h"

#include <inttypes.h>
#include <unistd.h>

static const char erase_line[] = "\r\033[K";

static void on_warning(void *ctx, const char *sqlstate, const char *message) {
  (void)sqlstate;
  hl_cli_t *cli = ctx;
  fflush(cli->out);
  if (atomic_exchange(&cli->progress_drawn, 0)) fputs(erase_line, cli->err);
  fprintf(cli->err, "WARNING: %s\n", message);
  fflush(cli->err);
}

static void on_progress(void *ctx, const char *phase, uint64_t done, uint64_t total,
                        const char *unit) {
  hl_cli_t *cli = ctx;
  if (!atomic_load(&cli->progress_live)) return;
  if (total)
    fprintf(cli->err, "\r%s: %" PRIu64 " of %" PRIu64 " %s\033[K", phase, done, total, unit);
  else
    fprintf(cli->err, "\r%s: %" PRIu64 " %s\033[K", phase, done, unit);
  atomic_store(&cli->progress_drawn, 1);
  /* the statement's first step ended while this line was drawn */
  if (!atomic_load(&cli->progress_live) && atomic_exchange(&cli->progress_drawn, 0))
    fputs(erase_line, cli->err);
  fflush(cli->err);
}

void hl_cli_notify_init(hl_cli_t *cli) {
  hl_set_warning_handler(cli->db, on_warning, cli);
  if (isatty(fileno(cli->err))) hl_set_progress_handler(cli->db, on_progress, cli);
}

void hl_cli_progress_live(hl_cli_t *cli, int on) {
  atomic_store(&cli->progress_live, on);
  if (!on && atomic_exchange(&cli->progress_drawn, 0)) {
    fputs(erase_line, cli->err);
    fflush(cli->err);
  }
}
