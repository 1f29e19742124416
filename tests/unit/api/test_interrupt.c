/*
 * test_interrupt.c -- the public API's side channels: hl_interrupt called
 * from another thread cancels the running statement (57014) and a
 * cancelled INSERT leaves no partition, row or file behind; the warning
 * handler receives MSCK's skipped directories; the progress handler is
 * called during a long INSERT.
 */
#include "test.h"

#include "hivelite.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/* Runs every statement of SQL; returns the first failing status (HL_DONE
 * when all succeeded).  *FIRST (may be NULL) gets the first column of the
 * last row of the last statement. */
static hl_status_t run(hl_db_t *db, const char *sql, char *first, size_t n) {
  hl_status_t rc = HL_DONE;
  while (sql && *sql) {
    hl_stmt_t *st = NULL;
    const char *tail = NULL;
    if (hl_prepare(db, sql, &st, &tail) != HL_OK) return hl_errcode(db);
    if (!st) break;
    while ((rc = hl_step(st)) == HL_ROW)
      if (first) snprintf(first, n, "%s", hl_column_text(st, 0, NULL));
    hl_finalize(st);
    if (rc != HL_DONE) return rc;
    sql = tail;
  }
  return rc;
}

typedef struct canceller {
  hl_db_t *db;
  int delay_ms;
} canceller_t;

static void *cancel_later(void *arg) {
  canceller_t *c = arg;
  struct timespec ts = {c->delay_ms / 1000, (long)(c->delay_ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  hl_interrupt(c->db);
  return NULL;
}

/* Runs SQL (one statement that would take minutes) and cancels it from
 * another thread after DELAY_MS; returns the statement's status. */
static hl_status_t run_cancelled(hl_db_t *db, const char *sql, int delay_ms) {
  canceller_t c = {db, delay_ms};
  pthread_t th;
  if (pthread_create(&th, NULL, cancel_later, &c) != 0) return HL_INTERNAL;
  hl_status_t rc = run(db, sql, NULL, 0);
  pthread_join(th, NULL);
  return rc;
}

/* Number of entries in DIR, hidden ones (staging, trash) included (0 when
 * it does not exist). */
static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  closedir(d);
  return n;
}

static char wh[512];

/* A table of 1,000 rows: its triple cross join is 10^9 rows. */
static const char setup_sql[] = "CREATE TABLE n (x INT);"
                                "INSERT INTO n SELECT pos FROM (SELECT 1) d"
                                " LATERAL VIEW posexplode(split(space(999), ' ')) t AS pos, v;";

TEST(interrupt_query) {
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(wh, NULL, &db), HL_OK);
  CHECK_INT(run(db, setup_sql, NULL, 0), HL_DONE);
  CHECK_INT(run_cancelled(db, "SELECT count(*) FROM n a CROSS JOIN n b CROSS JOIN n c;", 300),
            HL_INTERRUPT);
  CHECK_INT(hl_errcode(db), HL_INTERRUPT);
  CHECK_STR(hl_sqlstate(db), "57014");
  CHECK_STR(hl_errmsg(db), "canceling statement due to user request");
  /* the request ended with that statement: the next one runs */
  char v[64] = "";
  CHECK_INT(run(db, "SELECT count(*) FROM n;", v, sizeof v), HL_DONE);
  CHECK_STR(v, "1000");
  /* a request while nothing runs does not cancel the next statement */
  hl_interrupt(db);
  CHECK_INT(run(db, "SELECT max(x) FROM n;", v, sizeof v), HL_DONE);
  CHECK_STR(v, "999");
  /* a request between hl_prepare and the first hl_step is for the statement */
  hl_stmt_t *st = NULL;
  CHECK_INT(hl_prepare(db, "SELECT count(*) FROM n;", &st, NULL), HL_OK);
  hl_interrupt(db);
  CHECK_INT(hl_step(st), HL_INTERRUPT);
  CHECK_STR(hl_sqlstate(db), "57014");
  hl_finalize(st);
  hl_close(db);
}

typedef struct progress {
  int scans, bad_scan; /* "scan" reports, those with done > total */
  int calls;           /* "insert" reports */
  uint64_t last_done;
  char phase[16], unit[16];
} progress_t;

static void on_progress(void *ctx, const char *phase, uint64_t done, uint64_t total,
                        const char *unit) {
  progress_t *p = ctx;
  if (strcmp(phase, "scan") == 0) { /* files opened of those listed */
    p->scans++;
    if (total == 0 || done > total) p->bad_scan++;
    return;
  }
  if (strcmp(phase, "insert") != 0) return;
  p->calls++;
  p->last_done = done;
  snprintf(p->phase, sizeof p->phase, "%s", phase);
  snprintf(p->unit, sizeof p->unit, "%s", unit);
}

TEST(interrupt_insert_rolls_back) {
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(wh, NULL, &db), HL_OK);
  CHECK_INT(run(db,
                "CREATE TABLE p (x INT) PARTITIONED BY (k INT);"
                "INSERT INTO p PARTITION (k=7) VALUES (1);",
                NULL, 0),
            HL_DONE);
  /* rows were being written (staged) when the cancel came */
  progress_t pr = {0};
  hl_set_progress_handler(db, on_progress, &pr);
  CHECK_INT(run(db, "SET hivelite.progress.delay_ms=1;", NULL, 0), HL_DONE);
  CHECK_INT(run_cancelled(db,
                          "INSERT INTO p PARTITION (k) SELECT a.x, a.x % 3"
                          " FROM n a CROSS JOIN n b CROSS JOIN n c;",
                          1000),
            HL_INTERRUPT);
  CHECK_STR(hl_sqlstate(db), "57014");
  CHECK(pr.last_done > 0);
  hl_set_progress_handler(db, NULL, NULL);
  char v[64] = "";
  CHECK_INT(run(db, "SELECT count(*) FROM p;", v, sizeof v), HL_DONE);
  CHECK_STR(v, "1");
  CHECK_INT(run(db, "SHOW PARTITIONS p;", v, sizeof v), HL_DONE);
  CHECK_STR(v, "k=7");
  /* only the partition that was there: no new directory, no staged file */
  char dir[700];
  snprintf(dir, sizeof dir, "%s/p", wh);
  CHECK_INT(count_entries(dir), 1);
  snprintf(dir, sizeof dir, "%s/p/k=7", wh);
  CHECK_INT(count_entries(dir), 1);
  /* the same with an overwrite of the whole table */
  CHECK_INT(
      run_cancelled(
          db, "INSERT OVERWRITE TABLE n SELECT a.x FROM n a CROSS JOIN n b CROSS JOIN n c;", 500),
      HL_INTERRUPT);
  CHECK_INT(run(db, "SELECT count(*) FROM n;", v, sizeof v), HL_DONE);
  CHECK_STR(v, "1000");
  snprintf(dir, sizeof dir, "%s/n", wh);
  CHECK_INT(count_entries(dir), 1);
  hl_close(db);
}

typedef struct seen {
  int n;
  char last[512];
  char sqlstate[6];
} seen_t;

static void on_warning(void *ctx, const char *sqlstate, const char *message) {
  seen_t *s = ctx;
  s->n++;
  snprintf(s->last, sizeof s->last, "%s", message);
  snprintf(s->sqlstate, sizeof s->sqlstate, "%s", sqlstate);
}

TEST(warnings) {
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(wh, NULL, &db), HL_OK);
  char dir[700];
  snprintf(dir, sizeof dir, "%s/w", wh);
  CHECK_INT(run(db, "CREATE TABLE w (x INT) PARTITIONED BY (k INT);", NULL, 0), HL_DONE);
  snprintf(dir, sizeof dir, "%s/w/junk", wh);
  CHECK_INT(mkdir(dir, 0777), 0);
  seen_t s = {0};
  hl_set_warning_handler(db, on_warning, &s);
  CHECK_INT(run(db, "MSCK TABLE w;", NULL, 0), HL_DONE);
  CHECK_INT(s.n, 1);
  CHECK_STR(s.last, "Skipped junk: not a key=value directory name");
  CHECK_STR(s.sqlstate, "01000");
  hl_set_warning_handler(db, NULL, NULL);
  CHECK_INT(run(db, "MSCK TABLE w;", NULL, 0), HL_DONE);
  CHECK_INT(s.n, 1);
  hl_close(db);
}

TEST(progress) {
  hl_db_t *db = NULL;
  CHECK_INT(hl_open(wh, NULL, &db), HL_OK);
  progress_t p = {0};
  hl_set_progress_handler(db, on_progress, &p);
  CHECK_INT(run(db,
                "SET hivelite.progress.delay_ms=1; CREATE TABLE big (x INT);"
                /* 10 million rows: long enough for the throttled report
                 * (one per 100 ms) to come after the scan's, however fast
                 * the write (a million finished within one interval) */
                "INSERT INTO big SELECT a.x FROM n a CROSS JOIN n b"
                " CROSS JOIN (SELECT x FROM n WHERE x < 10) c;",
                NULL, 0),
            HL_DONE);
  CHECK(p.calls >= 1);
  CHECK(p.last_done > 0 && p.last_done <= 10000000);
  CHECK_STR(p.unit, "rows");
  /* a scan of ten million rows reports per batch */
  char v[64] = "";
  CHECK_INT(run(db, "SELECT count(*) FROM big WHERE x >= 0;", v, sizeof v), HL_DONE);
  CHECK_STR(v, "10000000");
  CHECK(p.scans >= 1);
  CHECK_INT(p.bad_scan, 0);
  /* a bad delay is the statement's error */
  CHECK_INT(run(db, "SET hivelite.progress.delay_ms=soon; SELECT 1;", NULL, 0), HL_ERROR);
  CHECK_STR(hl_sqlstate(db), "22023");
  hl_close(db);
}

int main(void) {
  if (test_tmpdir(wh, sizeof wh, "api_interrupt") != 0) return 1;
  RUN(interrupt_query);
  RUN(interrupt_insert_rolls_back);
  RUN(warnings);
  RUN(progress);
  return test_report();
}
