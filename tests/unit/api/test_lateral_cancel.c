/*
 * test_lateral_cancel.c -- a LATERAL VIEW explode that turns one input
 * row into billions of rows, consumed by count(*) without a row reaching
 * the caller, still stops on hivelite.statement_timeout and on
 * hl_interrupt from another thread (op_lateral.c polls the cancel flag
 * between output batches: no scan or join below it polls any more once
 * the single row was read).  The same query at a small size gives the
 * exact count, so the poll costs no rows.
 */
#include "test.h"

#include "hivelite.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs SQL; returns the final status; *COUNT gets the first column of
 * the last row as an integer (when COUNT is not NULL). */
static hl_status_t run(hl_db_t *db, const char *sql, int64_t *count) {
  hl_stmt_t *st = NULL;
  hl_status_t rc = hl_prepare(db, sql, &st, NULL);
  if (rc != HL_OK) return rc;
  while ((rc = hl_step(st)) == HL_ROW)
    if (count) *count = hl_column_int64(st, 0);
  hl_finalize(st);
  return rc;
}

/* One row exploded into (N+1) x (N+1) rows: split(space(N), ' ') has N+1
 * empty strings.  At N = 100000 that is 10^10 rows, minutes on any
 * machine; the only scan is of the one-row subquery, read at once.  The
 * array is a column of that row, so each explode only walks it. */
#define EXPLODE2(N)                                                                                \
  "SELECT count(*) FROM (SELECT split(space(" N "), ' ') AS arr) o "                               \
  "LATERAL VIEW explode(arr) a AS x LATERAL VIEW explode(arr) b AS y"

typedef struct canceller {
  hl_db_t *db;
  int delay_ms;
} canceller_t;

static void *cancel_later(void *arg) {
  canceller_t *c = arg;
  struct timespec ts = {0, (long)c->delay_ms * 1000000L};
  nanosleep(&ts, NULL);
  hl_interrupt(c->db);
  return NULL;
}

TEST(lateral_cancel) {
  char dir[512];
  if (test_tmpdir(dir, sizeof dir, "lateral_cancel") != 0) {
    CHECK(0);
    return;
  }
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(dir, NULL, &db), HL_OK);
  if (!db) return;
  /* the small size: every row counted */
  int64_t n = -1;
  CHECK_INT(run(db, EXPLODE2("999"), &n), HL_DONE);
  CHECK_INT(n, 1000000);
  /* the timeout */
  CHECK_INT(run(db, "SET hivelite.statement_timeout=200ms", NULL), HL_DONE);
  double t0 = now_s();
  CHECK_INT(run(db, EXPLODE2("100000"), NULL), HL_INTERRUPT);
  double took = now_s() - t0;
  CHECK_STR(hl_sqlstate(db), "57014");
  CHECK_STR(hl_errmsg(db), "canceling statement due to statement timeout");
  CHECK(took >= 0.2 && took < 10);
  /* the user's cancel from another thread */
  CHECK_INT(run(db, "SET hivelite.statement_timeout=0", NULL), HL_DONE);
  canceller_t c = {db, 200};
  pthread_t th;
  CHECK_INT(pthread_create(&th, NULL, cancel_later, &c), 0);
  t0 = now_s();
  CHECK_INT(run(db, EXPLODE2("100000"), NULL), HL_INTERRUPT);
  took = now_s() - t0;
  pthread_join(th, NULL);
  CHECK_STR(hl_sqlstate(db), "57014");
  CHECK_STR(hl_errmsg(db), "canceling statement due to user request");
  CHECK(took >= 0.15 && took < 10);
  /* the session works on */
  CHECK_INT(run(db, EXPLODE2("9"), &n), HL_DONE);
  CHECK_INT(n, 100);
  hl_close(db);
}

int main(void) {
  RUN(lateral_cancel);
  return test_report();
}
