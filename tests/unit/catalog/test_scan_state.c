/*
 * test_scan_state.c -- unit tests of the profile states and checkpoints of
 * the embedded metastore (schema v8, src/catalog/cat_scan_state.c): round
 * trips, replacement per partition, the rows following the embedded
 * catalog's tables (drop, rename, partition drop and rename, database and
 * catalog drop), compare-and-set of checkpoints across two handles on one
 * file, persistence, the upgrade of a v7 file, and the cost of 3,000
 * partitions of 10 columns (printed).
 */
#include "catalog/catalog.h"

#include "test.h"

#include <ftw.h>
#include <sqlite3.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct fx {
  char dir[512];
  char path[600]; /* DIR/metastore.db */
  hl_cat_t *cat;
  hl_arena_t *arena;
  hl_error_t err;
} fx_t;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static int fx_setup(fx_t *f) {
  memset(f, 0, sizeof *f);
  if (test_tmpdir(f->dir, sizeof f->dir, "scanstate") != 0) return -1;
  snprintf(f->path, sizeof f->path, "%s/metastore.db", f->dir);
  hl_err_init(&f->err);
  f->arena = hl_arena_create(0);
  return hl_cat_open(f->path, &f->cat, &f->err) == HL_OK ? 0 : -1;
}

static void fx_teardown(fx_t *f) {
  hl_cat_close(f->cat);
  hl_arena_destroy(f->arena);
  hl_err_clear(&f->err);
  nftw(f->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#define CHECK_OK(f, expr)                                                                          \
  do {                                                                                             \
    hl_status_t st_ = (expr);                                                                      \
    CHECK_INT(st_, HL_OK);                                                                         \
    if (st_ != HL_OK) fprintf(stderr, "  error: %s\n", (f)->err.message);                          \
    hl_err_clear(&(f)->err);                                                                       \
  } while (0)

#define CHECK_ERR(f, expr, want_code, want_state, want_msg)                                        \
  do {                                                                                             \
    CHECK_INT((expr), (want_code));                                                                \
    CHECK_STR((f)->err.sqlstate, (want_state));                                                    \
    CHECK_STR((f)->err.message, (want_msg));                                                       \
    hl_err_clear(&(f)->err);                                                                       \
  } while (0)

static long long sql_int(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  long long v = -999;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  else
    fprintf(stderr, "sql_int(%s): %s\n", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

static int sql_exec(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK) fprintf(stderr, "sql_exec(%s): %s\n", sql, sqlite3_errmsg(db));
  sqlite3_close(db);
  return rc;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static hl_cat_prof_state_t st(const char *part, const char *col, const char *fp, const char *bytes,
                              int64_t rows) {
  hl_cat_prof_state_t s = {.part = part,
                           .column = col,
                           .col_type = "bigint",
                           .fingerprint = fp,
                           .state = bytes,
                           .state_len = strlen(bytes),
                           .rows = rows};
  return s;
}

/* The states of the table as "part|col|fp|bytes|rows;" in one string. */
static const char *prof_text(fx_t *f, const char *catalog, const char *db, const char *table) {
  static char buf[4096];
  hl_cat_prof_state_t *s = NULL;
  size_t n = 0;
  buf[0] = '\0';
  if (hl_cat_prof_list(f->cat, catalog, db, table, f->arena, &s, &n, &f->err) != HL_OK) {
    snprintf(buf, sizeof buf, "error: %s", f->err.message);
    hl_err_clear(&f->err);
    return buf;
  }
  size_t len = 0;
  for (size_t i = 0; i < n && len < sizeof buf; i++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s|%s|%s|%.*s|%lld;", s[i].part,
                            s[i].column, s[i].fingerprint, (int)s[i].state_len,
                            (const char *)s[i].state, (long long)s[i].rows);
  return buf;
}

/* The checkpoints of the catalog as "db.t/name=value@version;". */
static const char *cp_text(fx_t *f, const char *catalog) {
  static char buf[4096];
  hl_cat_checkpoint_t *c = NULL;
  size_t n = 0;
  buf[0] = '\0';
  if (hl_cat_checkpoint_list(f->cat, catalog, NULL, NULL, f->arena, &c, &n, &f->err) != HL_OK) {
    snprintf(buf, sizeof buf, "error: %s", f->err.message);
    hl_err_clear(&f->err);
    return buf;
  }
  size_t len = 0;
  for (size_t i = 0; i < n && len < sizeof buf; i++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s.%s/%s=%s@%lld;", c[i].db, c[i].table,
                            c[i].name, c[i].value ? c[i].value : "NULL", (long long)c[i].version);
  return buf;
}

/* ------------------------------------------------------------------------ */

TEST(prof_roundtrip) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  hl_cat_prof_state_t a[] = {st("ds=2", "B", "f2", "xb", 5), st("ds=2", "a", "f2", "xa", 5),
                             st("ds=1", "a", "f1", "ya", 3)};
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "Sales", "T", a, 3, &f.err));
  /* names lower-cased, ordered by partition then column */
  CHECK_STR(prof_text(&f, "INTERNAL", "sales", "t"),
            "ds=1|a|f1|ya|3;ds=2|a|f2|xa|5;ds=2|b|f2|xb|5;");
  hl_cat_prof_state_t *got = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_prof_list(f.cat, "internal", "sales", "t", f.arena, &got, &n, &f.err));
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_STR(got[0].col_type, "bigint");
    CHECK(got[0].updated >= (int64_t)time(NULL) - 5 && got[0].updated <= (int64_t)time(NULL));
  }
  /* one partition's states: ordered by column; none for another name */
  CHECK_OK(&f, hl_cat_prof_get(f.cat, "internal", "SALES", "t", "ds=2", f.arena, &got, &n, &f.err));
  CHECK_INT(n, 2);
  if (n == 2) {
    CHECK_STR(got[0].column, "a");
    CHECK_STR(got[1].column, "b");
    CHECK_STR(got[1].fingerprint, "f2");
    CHECK_INT(got[1].rows, 5);
  }
  CHECK_OK(&f, hl_cat_prof_get(f.cat, "internal", "sales", "t", "DS=2", f.arena, &got, &n, &f.err));
  CHECK_INT(n, 0); /* partition names are kept as given */
  CHECK_OK(&f, hl_cat_prof_get(f.cat, "internal", "sales", "u", "ds=2", f.arena, &got, &n, &f.err));
  CHECK_INT(n, 0);
  /* a put replaces every column of the partitions it names, nothing else;
   * a binary state with NUL bytes and an empty one survive */
  hl_cat_prof_state_t b[] = {st("ds=2", "a", "f2b", "", 7)};
  static const unsigned char bin[] = {0, 1, 0, 255};
  hl_cat_prof_state_t c = st("", "x", "fu", "", 9);
  c.state = bin;
  c.state_len = sizeof bin;
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", b, 1, &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "ds=1|a|f1|ya|3;ds=2|a|f2b||7;");
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "u", &c, 1, &f.err));
  CHECK_OK(&f, hl_cat_prof_list(f.cat, "internal", "sales", "u", f.arena, &got, &n, &f.err));
  CHECK_INT(n, 1);
  if (n == 1) {
    CHECK_STR(got[0].part, "");
    CHECK_INT(got[0].state_len, 4);
    CHECK(memcmp(got[0].state, bin, 4) == 0);
  }
  /* a duplicate column of one partition: refused, nothing changed */
  hl_cat_prof_state_t d[] = {st("ds=1", "a", "f9", "z", 1), st("ds=1", "A", "f9", "z", 1)};
  CHECK_ERR(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", d, 2, &f.err), HL_CONSTRAINT,
            "42710", "two profile states of column \"A\" of partition \"ds=1\"");
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "ds=1|a|f1|ya|3;ds=2|a|f2b||7;");
  /* another catalog's table of the same name is another table */
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "hive", "sales", "t", d, 1, &f.err));
  CHECK_STR(prof_text(&f, "hive", "sales", "t"), "ds=1|a|f9|z|1;");
  CHECK_OK(&f, hl_cat_prof_drop(f.cat, "internal", "sales", "t", "ds=1", &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "ds=2|a|f2b||7;");
  CHECK_OK(&f, hl_cat_prof_drop(f.cat, "internal", "sales", "t", NULL, &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "");
  CHECK_STR(prof_text(&f, "hive", "sales", "t"), "ds=1|a|f9|z|1;");
  /* a caller's error is refused before anything is written */
  hl_cat_prof_state_t bad = st("ds=1", "a", "f", "z", 1);
  bad.fingerprint = NULL;
  CHECK_ERR(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", &bad, 1, &f.err), HL_MISUSE,
            "22023", "a profile state lacks its partition, column, type, fingerprint or bytes");
  fx_teardown(&f);
}

TEST(checkpoints) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  hl_cat_checkpoint_t cp;
  CHECK_ERR(&f,
            hl_cat_checkpoint_get(f.cat, "internal", "sales", "t", "daily", f.arena, &cp, &f.err),
            HL_NOTFOUND, "42704", "checkpoint \"daily\" of table \"sales.t\" does not exist");
  CHECK_ERR(&f, hl_cat_checkpoint_drop(f.cat, "hive", "Sales", "t", "daily", &f.err), HL_NOTFOUND,
            "42704", "checkpoint \"daily\" of table \"hive.sales.t\" does not exist");
  hl_cat_checkpoint_t w = {.catalog = "internal",
                           .db = "SALES",
                           .table = "t",
                           .name = "daily",
                           .field = "DS",
                           .kind = "date",
                           .value = "20240102"};
  const char *parts[] = {"ds=20240101", "ds=20240102"}, *fps[] = {"a1", "b1"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &w, 0, parts, fps, 2, &f.err));
  CHECK_OK(&f,
           hl_cat_checkpoint_get(f.cat, "internal", "sales", "T", "daily", f.arena, &cp, &f.err));
  CHECK_STR(cp.catalog, "internal");
  CHECK_STR(cp.db, "sales");
  CHECK_STR(cp.table, "t");
  CHECK_STR(cp.name, "daily");
  CHECK_STR(cp.field, "ds");
  CHECK_STR(cp.kind, "date");
  CHECK_STR(cp.value, "20240102");
  CHECK_INT(cp.version, 1);
  CHECK(cp.updated >= (int64_t)time(NULL) - 5);
  /* names are case-sensitive: "Daily" is another checkpoint */
  CHECK_INT(hl_cat_checkpoint_get(f.cat, "internal", "sales", "t", "Daily", f.arena, &cp, &f.err),
            HL_NOTFOUND);
  hl_err_clear(&f.err);
  /* creating it again is a conflict, as is advancing from a wrong version */
  CHECK_ERR(&f, hl_cat_checkpoint_put(f.cat, &w, 0, NULL, NULL, 0, &f.err), HL_CONSTRAINT, "40001",
            "checkpoint \"daily\" of table \"sales.t\" was created by another scan meanwhile "
            "(version 1, expected 0): run the scan again");
  /* advance: the scanned partitions are upserted, older ones kept */
  w.value = "20240103";
  const char *parts2[] = {"ds=20240102", "ds=20240103"}, *fps2[] = {"b2", "c1"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &w, 1, parts2, fps2, 2, &f.err));
  char **sp = NULL, **sf = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_checkpoint_scanned(f.cat, &w, f.arena, &sp, &sf, &n, &f.err));
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_STR(sp[0], "ds=20240101");
    CHECK_STR(sf[0], "a1");
    CHECK_STR(sp[1], "ds=20240102");
    CHECK_STR(sf[1], "b2");
    CHECK_STR(sp[2], "ds=20240103");
    CHECK_STR(sf[2], "c1");
  }
  /* a value checkpoint with no value yet, on another table and catalog */
  hl_cat_checkpoint_t v = {.catalog = "hive",
                           .db = "sales",
                           .table = "u",
                           .name = "daily",
                           .field = "ts",
                           .kind = "value"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &v, 0, NULL, NULL, 0, &f.err));
  hl_cat_checkpoint_t h = w;
  h.name = "hourly";
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &h, 0, NULL, NULL, 0, &f.err));
  CHECK_STR(cp_text(&f, NULL),
            "sales.u/daily=NULL@1;sales.t/daily=20240103@2;sales.t/hourly=20240103@1;");
  CHECK_STR(cp_text(&f, "internal"), "sales.t/daily=20240103@2;sales.t/hourly=20240103@1;");
  hl_cat_checkpoint_t *list = NULL;
  CHECK_OK(&f, hl_cat_checkpoint_list(f.cat, NULL, "sales", "u", f.arena, &list, &n, &f.err));
  CHECK_INT(n, 1);
  /* wrong kinds and versions are the caller's errors */
  hl_cat_checkpoint_t bad = w;
  bad.kind = "month";
  CHECK_ERR(&f, hl_cat_checkpoint_put(f.cat, &bad, 2, NULL, NULL, 0, &f.err), HL_MISUSE, "22023",
            "a checkpoint's kind is date, batch or value");
  /* drop: its scanned partitions go too; the other name stays */
  CHECK_OK(&f, hl_cat_checkpoint_drop(f.cat, "internal", "sales", "t", "daily", &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM checkpoint_parts"), 0);
  CHECK_STR(cp_text(&f, "internal"), "sales.t/hourly=20240103@1;");
  CHECK_ERR(&f, hl_cat_checkpoint_put(f.cat, &w, 2, NULL, NULL, 0, &f.err), HL_CONSTRAINT, "40001",
            "checkpoint \"daily\" of table \"sales.t\" was dropped by another statement meanwhile "
            "(expected version 2)");
  CHECK_ERR(&f, hl_cat_checkpoint_scanned(f.cat, &w, f.arena, &sp, &sf, &n, &f.err), HL_NOTFOUND,
            "42704", "checkpoint \"daily\" of table \"sales.t\" does not exist");
  fx_teardown(&f);
}

/* Two handles on one file: both read version 1; the first advances it,
 * the second's advance from the stale version fails and changes nothing. */
TEST(checkpoint_cas) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  hl_cat_t *other = NULL;
  CHECK_OK(&f, hl_cat_open(f.path, &other, &f.err));
  if (!other) {
    fx_teardown(&f);
    return;
  }
  hl_cat_checkpoint_t w = {.catalog = "internal",
                           .db = "sales",
                           .table = "t",
                           .name = "daily",
                           .field = "ds",
                           .kind = "batch",
                           .value = "9"};
  const char *p1[] = {"b=9"}, *f1[] = {"x"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &w, 0, p1, f1, 1, &f.err));
  hl_cat_checkpoint_t seen1, seen2;
  CHECK_OK(
      &f, hl_cat_checkpoint_get(f.cat, "internal", "sales", "t", "daily", f.arena, &seen1, &f.err));
  CHECK_OK(
      &f, hl_cat_checkpoint_get(other, "internal", "sales", "t", "daily", f.arena, &seen2, &f.err));
  CHECK_INT(seen1.version, 1);
  CHECK_INT(seen2.version, 1);
  hl_cat_checkpoint_t a = w, b = w;
  a.value = "10";
  b.value = "11";
  const char *pa[] = {"b=10"}, *pb[] = {"b=11"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &a, seen1.version, pa, f1, 1, &f.err));
  CHECK_ERR(&f, hl_cat_checkpoint_put(other, &b, seen2.version, pb, f1, 1, &f.err), HL_CONSTRAINT,
            "40001",
            "checkpoint \"daily\" of table \"sales.t\" was advanced by another scan meanwhile "
            "(version 2, expected 1): run the scan again");
  hl_cat_checkpoint_t now;
  CHECK_OK(&f,
           hl_cat_checkpoint_get(other, "internal", "sales", "t", "daily", f.arena, &now, &f.err));
  CHECK_STR(now.value, "10");
  CHECK_INT(now.version, 2);
  char **sp = NULL, **sf = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_checkpoint_scanned(other, &w, f.arena, &sp, &sf, &n, &f.err));
  CHECK_INT(n, 2); /* b=9 and b=10; not the failed scan's b=11 */
  if (n == 2) {
    CHECK_STR(sp[0], "b=10");
    CHECK_STR(sp[1], "b=9");
  }
  /* the second scan, having read the new version, advances it */
  CHECK_OK(&f, hl_cat_checkpoint_put(other, &b, now.version, pb, f1, 1, &f.err));
  CHECK_STR(cp_text(&f, "internal"), "sales.t/daily=11@3;");
  hl_cat_close(other);
  fx_teardown(&f);
}

/* Tables of the embedded catalog take their rows along when they are
 * dropped or renamed, whoever does it. */
TEST(follow_tables) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  hl_cat_db_t db = {.name = "sales", .location = "/wh/sales.db"};
  hl_cat_db_t db2 = {.name = "arch", .location = "/wh/arch.db"};
  CHECK_OK(&f, hl_cat_db_create(f.cat, &db, &f.err));
  CHECK_OK(&f, hl_cat_db_create(f.cat, &db2, &f.err));
  hl_cat_column_t cols[] = {{"id", "bigint", NULL}};
  hl_cat_column_t keys[] = {{"ds", "string", NULL}};
  hl_cat_table_t t = {.db_name = "sales",
                      .name = "t",
                      .location = "/wh/sales.db/t",
                      .cols = cols,
                      .n_cols = 1,
                      .part_keys = keys,
                      .n_part_keys = 1,
                      .num_buckets = -1};
  CHECK_OK(&f, hl_cat_table_create(f.cat, &t, &f.err));
  hl_cat_table_t *got = NULL;
  CHECK_OK(&f, hl_cat_table_get(f.cat, "sales", "t", f.arena, &got, &f.err));
  if (!got) {
    fx_teardown(&f);
    return;
  }
  char *v1[] = {"1"}, *v2[] = {"2"};
  hl_cat_partition_t p1 = {.table_id = got->id,
                           .values = v1,
                           .n_values = 1,
                           .name = "ds=1",
                           .location = "/wh/sales.db/t/ds=1"};
  hl_cat_partition_t p2 = {.table_id = got->id,
                           .values = v2,
                           .n_values = 1,
                           .name = "ds=2",
                           .location = "/wh/sales.db/t/ds=2"};
  CHECK_OK(&f, hl_cat_partition_add(f.cat, &p1, &f.err));
  CHECK_OK(&f, hl_cat_partition_add(f.cat, &p2, &f.err));
  hl_cat_prof_state_t s[] = {st("ds=1", "id", "f1", "s1", 1), st("ds=2", "id", "f2", "s2", 2)};
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", s, 2, &f.err));
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "hive", "sales", "t", s, 2, &f.err));
  hl_cat_checkpoint_t w = {.catalog = "internal",
                           .db = "sales",
                           .table = "t",
                           .name = "daily",
                           .field = "ds",
                           .kind = "batch",
                           .value = "2"};
  const char *sp[] = {"ds=1", "ds=2"}, *sf[] = {"f1", "f2"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &w, 0, sp, sf, 2, &f.err));
  hl_cat_checkpoint_t wh = w;
  wh.catalog = "hive";
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &wh, 0, NULL, NULL, 0, &f.err));
  /* a dropped partition loses its profile states; the checkpoint keeps
   * what it scanned */
  hl_cat_partition_t *pp = NULL;
  CHECK_OK(&f, hl_cat_partition_get(f.cat, got->id, v1, 1, f.arena, &pp, &f.err));
  if (pp) CHECK_OK(&f, hl_cat_partition_drop(f.cat, pp->id, &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "ds=2|id|f2|s2|2;");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM checkpoint_parts"), 2);
  /* a renamed partition loses them too (its key values changed) */
  CHECK_OK(&f, hl_cat_partition_get(f.cat, got->id, v2, 1, f.arena, &pp, &f.err));
  if (pp) {
    char *v3[] = {"3"};
    pp->values = v3;
    pp->name = "ds=3";
    CHECK_OK(&f, hl_cat_partition_update(f.cat, pp, &f.err));
  }
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "");
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", s + 1, 1, &f.err));
  /* stale rows under the new name go; the table's rows move to it */
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "arch", "t2", s, 1, &f.err));
  hl_cat_table_t r = *got;
  r.db_name = "arch";
  r.name = "t2";
  CHECK_OK(&f, hl_cat_table_update(f.cat, &r, &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "");
  CHECK_STR(prof_text(&f, "internal", "arch", "t2"), "ds=2|id|f2|s2|2;");
  CHECK_STR(cp_text(&f, "internal"), "arch.t2/daily=2@1;");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM checkpoint_parts"), 2);
  /* an update that renames nothing moves nothing */
  CHECK_OK(&f, hl_cat_table_update(f.cat, &r, &f.err));
  CHECK_STR(prof_text(&f, "internal", "arch", "t2"), "ds=2|id|f2|s2|2;");
  /* dropping the table takes them along, and the other catalog's stay */
  CHECK_OK(&f, hl_cat_table_drop(f.cat, got->id, &f.err));
  CHECK_STR(prof_text(&f, "internal", "arch", "t2"), "");
  CHECK_STR(cp_text(&f, "internal"), "");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM checkpoint_parts"), 0);
  CHECK_STR(prof_text(&f, "hive", "sales", "t"), "ds=1|id|f1|s1|1;ds=2|id|f2|s2|2;");
  /* a dropped database takes its tables' rows (tables created again) */
  CHECK_OK(&f, hl_cat_table_create(f.cat, &t, &f.err));
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", s, 2, &f.err));
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &w, 0, NULL, NULL, 0, &f.err));
  CHECK_OK(&f, hl_cat_db_drop(f.cat, "sales", true, &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "");
  CHECK_STR(cp_text(&f, "internal"), "");
  /* the statements' calls for other catalogs: move, then forget */
  CHECK_OK(&f, hl_cat_scan_state_move(f.cat, "hive", "sales", "t", "sales", "u", &f.err));
  CHECK_STR(prof_text(&f, "hive", "sales", "t"), "");
  CHECK_STR(prof_text(&f, "hive", "sales", "u"), "ds=1|id|f1|s1|1;ds=2|id|f2|s2|2;");
  CHECK_STR(cp_text(&f, "hive"), "sales.u/daily=2@1;");
  CHECK_OK(&f, hl_cat_scan_state_forget(f.cat, "hive", "sales", "u", &f.err));
  CHECK_STR(prof_text(&f, "hive", "sales", "u"), "");
  CHECK_STR(cp_text(&f, "hive"), "");
  /* a named catalog's rows follow ALTER CATALOG RENAME and DROP CATALOG */
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "prod", "sales", "t", s, 1, &f.err));
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat,
                                     &(hl_cat_checkpoint_t){.catalog = "prod",
                                                            .db = "sales",
                                                            .table = "t",
                                                            .name = "n",
                                                            .field = "ds",
                                                            .kind = "date"},
                                     0, NULL, NULL, 0, &f.err));
  hl_kv_t props[] = {{"hive.metastore.uris", "thrift://h:9083"}};
  hl_cat_catalog_t c = {.name = "prod", .type = "hms", .props = props, .n_props = 1};
  CHECK_OK(&f, hl_cat_catalog_create(f.cat, &c, &f.err));
  c.name = "prod2";
  CHECK_OK(&f, hl_cat_catalog_update(f.cat, "prod", &c, &f.err));
  CHECK_STR(prof_text(&f, "prod", "sales", "t"), "");
  CHECK_STR(prof_text(&f, "prod2", "sales", "t"), "ds=1|id|f1|s1|1;");
  CHECK_STR(cp_text(&f, "prod2"), "sales.t/n=NULL@1;");
  CHECK_OK(&f, hl_cat_catalog_drop(f.cat, "prod2", &f.err));
  CHECK_STR(prof_text(&f, "prod2", "sales", "t"), "");
  CHECK_STR(cp_text(&f, NULL), "");
  fx_teardown(&f);
}

TEST(persistence) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  hl_cat_prof_state_t s = st("", "id", "fp", "state", 4);
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "d", "t", &s, 1, &f.err));
  hl_cat_checkpoint_t w = {.catalog = "internal",
                           .db = "d",
                           .table = "t",
                           .name = "c",
                           .field = "ts",
                           .kind = "value",
                           .value = "2024-01-01 00:00:00"};
  CHECK_OK(&f, hl_cat_checkpoint_put(f.cat, &w, 0, NULL, NULL, 0, &f.err));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_OK(&f, hl_cat_open(f.path, &f.cat, &f.err));
  if (!f.cat) {
    fx_teardown(&f);
    return;
  }
  CHECK_STR(prof_text(&f, "internal", "d", "t"), "|id|fp|state|4;");
  CHECK_STR(cp_text(&f, NULL), "d.t/c=2024-01-01 00:00:00@1;");
  fx_teardown(&f);
}

/* A v7 metastore (v8 is exactly its new tables and triggers, v9 the
 * partition counts and their trigger, v10 a column of those counts) is upgraded at open to the
 * latest version, keeping its tables, and its tables' drops then reach the new rows. */
TEST(migrate_v7) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  hl_cat_db_t db = {.name = "sales", .location = "/wh/sales.db"};
  CHECK_OK(&f, hl_cat_db_create(f.cat, &db, &f.err));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_INT(
      sql_exec(f.path,
               "DROP TRIGGER dbs_drop_scan_state; DROP TRIGGER tbls_drop_scan_state; "
               "DROP TRIGGER tbls_rename_scan_state; DROP TRIGGER partitions_drop_scan_state; "
               "DROP TRIGGER partitions_rename_scan_state; DROP TRIGGER catalogs_drop_scan_state; "
               "DROP TRIGGER catalogs_rename_scan_state; DROP TRIGGER tbls_part_count; "
               "DROP TABLE part_counts; DROP TABLE prof_states; DROP TABLE checkpoint_parts; DROP "
               "TABLE checkpoints; "
               "PRAGMA user_version = 7;"),
      SQLITE_OK);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), 0);
  CHECK_OK(&f, hl_cat_open(f.path, &f.cat, &f.err));
  if (!f.cat) {
    fx_teardown(&f);
    return;
  }
  CHECK_INT(hl_cat_schema_version(f.cat), 10);
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), 10);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), 8);
  hl_cat_db_t *got = NULL;
  CHECK_OK(&f, hl_cat_db_get(f.cat, "sales", f.arena, &got, &f.err));
  hl_cat_prof_state_t s = st("", "id", "fp", "state", 4);
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "t", &s, 1, &f.err));
  CHECK_OK(&f, hl_cat_db_drop(f.cat, "sales", true, &f.err));
  CHECK_STR(prof_text(&f, "internal", "sales", "t"), "");
  fx_teardown(&f);
}

/* 3,000 partitions of 10 columns: one put and one list, timed. */
TEST(three_thousand_partitions) {
  fx_t f;
  if (fx_setup(&f) != 0) {
    CHECK(0);
    return;
  }
  enum { N_PARTS = 3000, N_COLS = 10, N = N_PARTS * N_COLS };
  hl_cat_prof_state_t *s = hl_arena_alloc(f.arena, sizeof *s * N);
  static char state[200]; /* a state of a typical size */
  memset(state, 's', sizeof state);
  for (int p = 0; p < N_PARTS; p++) {
    char *part = hl_arena_sprintf(f.arena, "ds=%08d", 20000000 + p);
    char *fp = hl_arena_sprintf(f.arena, "fp-%d", p);
    for (int c = 0; c < N_COLS; c++) {
      hl_cat_prof_state_t *x = &s[p * N_COLS + c];
      *x = st(part, NULL, fp, "", p);
      x->column = hl_arena_sprintf(f.arena, "c%d", c);
      x->state = state;
      x->state_len = sizeof state;
    }
  }
  double t0 = now_ms();
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "big", s, N, &f.err));
  double t1 = now_ms();
  /* again: every partition's old states are replaced */
  CHECK_OK(&f, hl_cat_prof_put(f.cat, "internal", "sales", "big", s, N, &f.err));
  double t2 = now_ms();
  hl_cat_prof_state_t *got = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_prof_list(f.cat, "internal", "sales", "big", f.arena, &got, &n, &f.err));
  double t3 = now_ms();
  CHECK_INT(n, N);
  if (n == N) {
    CHECK_STR(got[0].part, "ds=20000000");
    CHECK_STR(got[N - 1].part, "ds=20002999");
    CHECK_STR(got[N - 1].column, "c9");
    CHECK_INT(got[N - 1].state_len, sizeof state);
  }
  printf("  3000 partitions x 10 columns: put %.1f ms, put again %.1f ms, list %.1f ms\n", t1 - t0,
         t2 - t1, t3 - t2);
  /* timings are reported, not asserted: a loaded CI machine is no benchmark */
  fx_teardown(&f);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(prof_roundtrip);
  RUN(checkpoints);
  RUN(checkpoint_cas);
  RUN(follow_tables);
  RUN(persistence);
  RUN(migrate_v7);
  RUN(three_thousand_partitions);
  return test_report();
}
