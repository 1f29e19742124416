/*
 * test_catalog.c -- unit tests of the SQLite metastore (src/catalog).
 *
 * Each test opens a fresh metastore file in its own temporary directory
 * (under $HIVELITE_TEST_TMP when CTest sets it).  Some tests reach into the
 * file with the SQLite API directly, to check the stored form (WAL mode,
 * schema version, cascades) or to damage it on purpose.
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"
#include "test.h"
#include "util/mem.h"
#include "util/partorder.h"

#include <dirent.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------
 * Fixtures
 * ------------------------------------------------------------------------ */

typedef struct fx {
  char dir[512];  /* temporary directory */
  char path[600]; /* DIR/meta/metastore.db (meta/ does not exist at first) */
  hl_cat_t *cat;
  hl_arena_t *arena;
  hl_error_t err;
} fx_t;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static void fx_setup(fx_t *f) {
  memset(f, 0, sizeof *f);
  const char *base = getenv("HIVELITE_TEST_TMP");
  if (!base || !*base) base = "/tmp";
  mkdir(base, 0777);
  snprintf(f->dir, sizeof f->dir, "%s/catalogXXXXXX", base);
  if (!mkdtemp(f->dir)) {
    perror("mkdtemp");
    exit(1);
  }
  snprintf(f->path, sizeof f->path, "%s/meta/metastore.db", f->dir);
  hl_err_init(&f->err);
  f->arena = hl_arena_create(0);
}

static hl_status_t fx_open(fx_t *f) {
  return hl_cat_open(f->path, &f->cat, &f->err);
}

static void fx_teardown(fx_t *f) {
  hl_cat_close(f->cat);
  f->cat = NULL;
  hl_arena_destroy(f->arena);
  hl_err_clear(&f->err);
  nftw(f->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Checks the error record, then clears it for the next step. */
#define CHECK_ERR(f, status, want_code, want_state, want_msg)                                      \
  do {                                                                                             \
    CHECK_INT((status), (want_code));                                                              \
    CHECK_INT((f)->err.code, (want_code));                                                         \
    CHECK_STR((f)->err.sqlstate, (want_state));                                                    \
    CHECK_STR((f)->err.message, (want_msg));                                                       \
    hl_err_clear(&(f)->err);                                                                       \
  } while (0)

#define CHECK_OK(f, expr)                                                                          \
  do {                                                                                             \
    hl_status_t st_ = (expr);                                                                      \
    CHECK_INT(st_, HL_OK);                                                                         \
    if (st_ != HL_OK) fprintf(stderr, "  error: %s\n", (f)->err.message);                          \
    hl_err_clear(&(f)->err);                                                                       \
  } while (0)

/* One integer from SQL run on the file through a separate connection. */
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
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK) fprintf(stderr, "sql_exec(%s): %s\n", sql, sqlite3_errmsg(db));
  sqlite3_close(db);
  return rc;
}

static hl_status_t add_db(fx_t *f, const char *name) {
  char location[700];
  snprintf(location, sizeof location, "/wh/%s.db", name);
  hl_cat_db_t db = {.name = (char *)name, .location = location};
  return hl_cat_db_create(f->cat, &db, &f->err);
}

/* A partitioned table db.name (ds string, hr int) with two columns. */
static hl_status_t add_table(fx_t *f, const char *db, const char *name, int n_keys) {
  hl_cat_column_t cols[] = {{"id", "bigint", NULL}, {"msg", "string", "the message"}};
  hl_cat_column_t keys[] = {{"ds", "string", NULL}, {"hr", "int", NULL}};
  char location[700];
  snprintf(location, sizeof location, "/wh/%s.db/%s", db, name);
  hl_cat_table_t t = {.db_name = (char *)db,
                      .name = (char *)name,
                      .location = location,
                      .input_format = "org.apache.hadoop.mapred.TextInputFormat",
                      .cols = cols,
                      .n_cols = 2,
                      .part_keys = keys,
                      .n_part_keys = n_keys,
                      .num_buckets = -1,
                      .create_time = 1700000000};
  return hl_cat_table_create(f->cat, &t, &f->err);
}

static int64_t table_id(fx_t *f, const char *db, const char *name) {
  hl_cat_table_t *t = NULL;
  if (hl_cat_table_get(f->cat, db, name, f->arena, &t, &f->err) != HL_OK) {
    fprintf(stderr, "table_id: %s\n", f->err.message);
    hl_err_clear(&f->err);
    return -1;
  }
  return t->id;
}

static hl_status_t add_part(fx_t *f, int64_t tbl, const char *ds, const char *hr) {
  char name[256], location[300];
  snprintf(name, sizeof name, "ds=%s/hr=%s", ds ? ds : "__HIVE_DEFAULT_PARTITION__",
           hr ? hr : "__HIVE_DEFAULT_PARTITION__");
  snprintf(location, sizeof location, "/wh/p/%s", name);
  char *values[] = {(char *)ds, (char *)hr};
  hl_cat_partition_t p = {
      .table_id = tbl, .values = values, .n_values = 2, .name = name, .location = location};
  return hl_cat_partition_add(f->cat, &p, &f->err);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ------------------------------------------------------------------------
 * Opening, schema, files
 * ------------------------------------------------------------------------ */

TEST(open_creates_schema) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK(f.cat != NULL);
  CHECK_INT(hl_cat_schema_version(f.cat), hl_cat_schema_latest());
  CHECK(hl_cat_schema_latest() >= 2); /* v2: write intents and locks */
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), hl_cat_schema_latest());
  CHECK_INT(sql_int(f.path, "PRAGMA application_id"), HL_CAT_APPLICATION_ID);
  CHECK_INT(sql_int(f.path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);
  /* "default" is the caller's job, so a new metastore has no database. */
  char **names = NULL;
  size_t n = 99;
  CHECK_OK(&f, hl_cat_db_list(f.cat, f.arena, &names, &n, &f.err));
  CHECK_INT(n, 0);
  /* Reopening a current metastore changes nothing. */
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_OK(&f, fx_open(&f));
  CHECK_INT(hl_cat_schema_version(f.cat), hl_cat_schema_latest());

  CHECK(!hl_cat_readonly(f.cat));
  /* The new file was built next to its place and linked in complete:
   * nothing else is left in its directory. */
  hl_cat_close(f.cat);
  f.cat = NULL;
  char meta[700];
  snprintf(meta, sizeof meta, "%s/meta", f.dir);
  DIR *d = opendir(meta);
  int n_entries = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    n_entries++;
    CHECK_STR(e->d_name, "metastore.db");
  }
  if (d) closedir(d);
  CHECK_INT(n_entries, 1);

  /* An existing empty file (a truncated metastore, or one made by touch)
   * is refused rather than started over as an empty warehouse. */
  char path[700];
  snprintf(path, sizeof path, "%s/empty.db", f.dir);
  fclose(fopen(path, "wb"));
  hl_cat_t *cat = NULL;
  hl_status_t st = hl_cat_open(path, &cat, &f.err);
  char want[900];
  snprintf(want, sizeof want,
           "metastore \"%s\" is empty: it was truncated or is not a hivelite metastore; restore "
           "it from a backup, or remove it to start an empty warehouse",
           path);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", want);
  CHECK(cat == NULL);
  struct stat sb;
  CHECK(stat(path, &sb) == 0 && sb.st_size == 0); /* untouched */
  /* The same for an empty SQLite database (a header, no tables). */
  CHECK_INT(sql_exec(path, "PRAGMA journal_mode = WAL; PRAGMA page_size = 4096; VACUUM"),
            SQLITE_OK);
  st = hl_cat_open(path, &cat, &f.err);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", want);
  /* Removing the file starts an empty warehouse there. */
  CHECK(unlink(path) == 0);
  CHECK_OK(&f, hl_cat_open(path, &cat, &f.err));
  if (cat) CHECK_INT(hl_cat_schema_version(cat), hl_cat_schema_latest());
  hl_cat_close(cat);
  CHECK_INT(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'partitions'"), 1);
  fx_teardown(&f);
}

TEST(open_errors) {
  fx_t f;
  fx_setup(&f);
  hl_cat_t *cat = (hl_cat_t *)&f; /* must be reset to NULL on failure */
  char path[700];

  /* Only the parent is created, not a whole missing chain. */
  snprintf(path, sizeof path, "%s/a/b/metastore.db", f.dir);
  hl_status_t st = hl_cat_open(path, &cat, &f.err);
  char want[800];
  snprintf(want, sizeof want, "could not create directory \"%s/a/b\": No such file or directory",
           f.dir);
  CHECK_ERR(&f, st, HL_IOERR, "58030", want);
  CHECK(cat == NULL);

  /* A file that is not SQLite. */
  snprintf(path, sizeof path, "%s/garbage.db", f.dir);
  FILE *fp = fopen(path, "wb");
  for (int i = 0; i < 512; i++)
    fputs("this is not a database file ", fp);
  fclose(fp);
  st = hl_cat_open(path, &cat, &f.err);
  snprintf(want, sizeof want, "metastore \"%s\" is not a SQLite database", path);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", want);
  CHECK(cat == NULL);

  /* Another application's SQLite database is left alone. */
  snprintf(path, sizeof path, "%s/other.db", f.dir);
  CHECK_INT(sql_exec(path, "CREATE TABLE t (x); INSERT INTO t VALUES (1)"), SQLITE_OK);
  st = hl_cat_open(path, &cat, &f.err);
  snprintf(want, sizeof want, "file \"%s\" is a SQLite database but not a hivelite metastore",
           path);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", want);
  CHECK_INT(sql_int(path, "SELECT count(*) FROM sqlite_master"), 1);

  /* A schema version from the future. */
  CHECK_OK(&f, fx_open(&f));
  hl_cat_close(f.cat);
  f.cat = NULL;
  int future = hl_cat_schema_latest() + 1;
  char pragma[64];
  snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", future);
  CHECK_INT(sql_exec(f.path, pragma), SQLITE_OK);
  st = hl_cat_open(f.path, &cat, &f.err);
  snprintf(want, sizeof want,
           "metastore \"%s\" has schema version %d, newer than this hivelite supports (%d)", f.path,
           future, future - 1);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", want);
  CHECK(cat == NULL);
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), future); /* untouched */

  st = hl_cat_open("", &cat, &f.err);
  CHECK_ERR(&f, st, HL_MISUSE, "22023", "metastore path is empty");
  fx_teardown(&f);
}

/* ------------------------------------------------------------------------
 * Databases
 * ------------------------------------------------------------------------ */

TEST(databases) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  hl_kv_t params[] = {{"creator", "alice"}, {"team", "data"}, {"creator", "bob"}};
  hl_cat_db_t sales = {.name = "Sales",
                       .comment = "sales data",
                       .location = "/wh/sales.db",
                       .owner = "alice",
                       .params = params,
                       .n_params = 3};
  CHECK_OK(&f, hl_cat_db_create(f.cat, &sales, &f.err));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_db(&f, "archive"));

  hl_cat_db_t *db = NULL;
  CHECK_OK(&f, hl_cat_db_get(f.cat, "SALES", f.arena, &db, &f.err));
  if (db) {
    CHECK(db->id > 0);
    CHECK_STR(db->name, "sales");
    CHECK_STR(db->comment, "sales data");
    CHECK_STR(db->location, "/wh/sales.db");
    CHECK_STR(db->owner, "alice");
    CHECK_INT(db->n_params, 3);
    CHECK_STR(db->params[0].key, "creator");
    CHECK_STR(db->params[0].value, "alice");
    CHECK_STR(db->params[2].value, "bob");
    CHECK_STR(hl_kv_get(db->params, db->n_params, "creator"), "bob");
  }
  CHECK_OK(&f, hl_cat_db_get(f.cat, "archive", f.arena, &db, &f.err));
  if (db) {
    CHECK(db->comment == NULL);
    CHECK(db->owner == NULL);
    CHECK_INT(db->n_params, 0);
    CHECK(db->params == NULL);
  }

  char **names = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_db_list(f.cat, f.arena, &names, &n, &f.err));
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_STR(names[0], "archive");
    CHECK_STR(names[1], "default");
    CHECK_STR(names[2], "sales");
  }

  /* Errors. */
  hl_status_t st = add_db(&f, "SALES");
  CHECK_ERR(&f, st, HL_CONSTRAINT, "42P04", "database \"sales\" already exists");
  st = hl_cat_db_get(f.cat, "Nope", f.arena, &db, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"nope\" does not exist");
  CHECK(db == NULL);
  st = hl_cat_db_drop(f.cat, "nope", false, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"nope\" does not exist");
  st = hl_cat_db_drop(f.cat, "DEFAULT", true, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "42000", "cannot drop the default database");
  hl_cat_db_t no_loc = {.name = "x", .location = ""};
  st = hl_cat_db_create(f.cat, &no_loc, &f.err);
  CHECK_ERR(&f, st, HL_MISUSE, "22023", "database \"x\" has no location");
  hl_kv_t bad[] = {{"k", NULL}};
  hl_cat_db_t bad_params = {.name = "x", .location = "/x", .params = bad, .n_params = 1};
  st = hl_cat_db_create(f.cat, &bad_params, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "22004", "database property \"k\" has a NULL value");

  /* Drop an empty database. */
  CHECK_OK(&f, hl_cat_db_drop(f.cat, "Archive", false, &f.err));
  CHECK_OK(&f, hl_cat_db_list(f.cat, f.arena, &names, &n, &f.err));
  CHECK_INT(n, 2);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM db_params"), 3);
  CHECK_OK(&f, hl_cat_db_drop(f.cat, "sales", false, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM db_params"), 0);
  fx_teardown(&f);
}

/* ------------------------------------------------------------------------
 * Tables
 * ------------------------------------------------------------------------ */

TEST(table_roundtrip) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  hl_cat_column_t cols[] = {{"OrderId", "BIGINT", "order number"},
                            {"amount", "decimal(10,2)", NULL},
                            {"tags", "map<string,array<int>>", "free-form"}};
  hl_cat_column_t keys[] = {{"Country", "string", "ISO code"}, {"ds", "date", NULL}};
  hl_kv_t params[] = {{"comment", "all orders"}, {"transactional", "false"}};
  hl_kv_t serde[] = {{"field.delim", ","}, {"serialization.format", ","}};
  char *buckets[] = {"OrderId"};
  hl_cat_sort_col_t sorts[] = {{"amount", false}, {"OrderId", true}};
  hl_cat_table_t t = {.db_name = "Sales",
                      .name = "Orders",
                      .external = true,
                      .location = "file:///data/orders",
                      .input_format = "org.apache.hadoop.mapred.TextInputFormat",
                      .output_format = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
                      .serde_lib = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
                      .serde_params = serde,
                      .n_serde_params = 2,
                      .params = params,
                      .n_params = 2,
                      .owner = "bob",
                      .create_time = 1712345678,
                      .cols = cols,
                      .n_cols = 3,
                      .part_keys = keys,
                      .n_part_keys = 2,
                      .num_buckets = 8,
                      .bucket_cols = buckets,
                      .n_bucket_cols = 1,
                      .sort_cols = sorts,
                      .n_sort_cols = 2};
  CHECK_OK(&f, hl_cat_table_create(f.cat, &t, &f.err));

  hl_cat_table_t *g = NULL;
  CHECK_OK(&f, hl_cat_table_get(f.cat, "SALES", "orders", f.arena, &g, &f.err));
  if (g) {
    CHECK(g->id > 0);
    CHECK_STR(g->db_name, "sales");
    CHECK_STR(g->name, "orders");
    CHECK(g->external);
    CHECK_STR(g->location, "file:///data/orders");
    CHECK_STR(g->input_format, "org.apache.hadoop.mapred.TextInputFormat");
    CHECK_STR(g->output_format, "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
    CHECK_STR(g->serde_lib, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    CHECK_INT(g->n_serde_params, 2);
    CHECK_STR(g->serde_params[0].key, "field.delim");
    CHECK_STR(g->serde_params[1].key, "serialization.format");
    CHECK_STR(g->serde_params[1].value, ",");
    CHECK_INT(g->n_params, 2);
    CHECK_STR(hl_kv_get(g->params, g->n_params, "comment"), "all orders");
    CHECK_STR(g->params[1].key, "transactional");
    CHECK_STR(g->owner, "bob");
    CHECK_INT(g->create_time, 1712345678);
    CHECK_INT(g->n_cols, 3);
    CHECK_STR(g->cols[0].name, "orderid");
    CHECK_STR(g->cols[0].type, "bigint");
    CHECK_STR(g->cols[0].comment, "order number");
    CHECK_STR(g->cols[1].name, "amount");
    CHECK_STR(g->cols[1].type, "decimal(10,2)");
    CHECK(g->cols[1].comment == NULL);
    CHECK_STR(g->cols[2].type, "map<string,array<int>>");
    CHECK_INT(g->n_part_keys, 2);
    CHECK_STR(g->part_keys[0].name, "country");
    CHECK_STR(g->part_keys[0].comment, "ISO code");
    CHECK_STR(g->part_keys[1].name, "ds");
    CHECK_STR(g->part_keys[1].type, "date");
    CHECK_INT(g->num_buckets, 8);
    CHECK_INT(g->n_bucket_cols, 1);
    CHECK_STR(g->bucket_cols[0], "orderid");
    CHECK_INT(g->n_sort_cols, 2);
    CHECK_STR(g->sort_cols[0].name, "amount");
    CHECK(!g->sort_cols[0].ascending);
    CHECK_STR(g->sort_cols[1].name, "orderid");
    CHECK(g->sort_cols[1].ascending);
  }

  /* A minimal managed table: NULLs and empty lists round-trip too. */
  hl_cat_column_t one[] = {{"x", "int", NULL}};
  hl_cat_table_t m = {.db_name = "sales",
                      .name = "Aaa",
                      .location = "/wh/sales.db/aaa",
                      .cols = one,
                      .n_cols = 1,
                      .num_buckets = -1};
  time_t before = time(NULL);
  CHECK_OK(&f, hl_cat_table_create(f.cat, &m, &f.err));
  CHECK_OK(&f, hl_cat_table_get(f.cat, "sales", "aaa", f.arena, &g, &f.err));
  if (g) {
    CHECK(!g->external);
    CHECK(g->input_format == NULL && g->output_format == NULL && g->serde_lib == NULL);
    CHECK(g->owner == NULL);
    CHECK(g->create_time >= before && g->create_time <= time(NULL));
    CHECK_INT(g->n_params + g->n_serde_params + g->n_part_keys, 0);
    CHECK_INT(g->num_buckets, -1);
    CHECK_INT(g->n_bucket_cols + g->n_sort_cols, 0);
    CHECK(g->params == NULL && g->part_keys == NULL && g->sort_cols == NULL);
  }
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls WHERE type = 'MANAGED_TABLE'"), 1);

  char **names = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_table_list(f.cat, "sales", f.arena, &names, &n, &f.err));
  CHECK_INT(n, 2);
  if (n == 2) {
    CHECK_STR(names[0], "aaa");
    CHECK_STR(names[1], "orders");
  }
  fx_teardown(&f);
}

TEST(table_errors) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  hl_status_t st = add_table(&f, "SALES", "T", 2);
  CHECK_ERR(&f, st, HL_CONSTRAINT, "42P07", "table \"sales.t\" already exists");
  st = add_table(&f, "nodb", "t", 2);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"nodb\" does not exist");
  hl_cat_table_t *g = NULL;
  st = hl_cat_table_get(f.cat, "sales", "Nope", f.arena, &g, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table \"sales.nope\" does not exist");
  st = hl_cat_table_get(f.cat, "nodb", "t", f.arena, &g, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"nodb\" does not exist");
  CHECK(g == NULL);
  char **names = NULL;
  size_t n = 0;
  st = hl_cat_table_list(f.cat, "nodb", f.arena, &names, &n, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"nodb\" does not exist");
  st = hl_cat_table_drop(f.cat, 4242, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 4242 does not exist");

  /* A name used twice (columns and keys share one namespace). */
  hl_cat_column_t cols[] = {{"a", "int", NULL}, {"DS", "int", NULL}};
  hl_cat_column_t keys[] = {{"ds", "string", NULL}};
  hl_cat_table_t t = {.db_name = "sales",
                      .name = "dup",
                      .location = "/x",
                      .cols = cols,
                      .n_cols = 2,
                      .part_keys = keys,
                      .n_part_keys = 1,
                      .num_buckets = -1};
  st = hl_cat_table_create(f.cat, &t, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "42701", "column \"ds\" specified more than once");
  t.n_part_keys = 0;
  t.location = NULL;
  st = hl_cat_table_create(f.cat, &t, &f.err);
  CHECK_ERR(&f, st, HL_MISUSE, "22023", "table \"sales.dup\" has no location");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls"), 1);

  /* Drop by id removes the table and its partitions. */
  int64_t id = table_id(&f, "sales", "t");
  CHECK_OK(&f, add_part(&f, id, "2024-01-01", "1"));
  CHECK_OK(&f, hl_cat_table_drop(f.cat, id, &f.err));
  st = hl_cat_table_get(f.cat, "sales", "t", f.arena, &g, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table \"sales.t\" does not exist");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM partitions"), 0);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_values"), 0);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbl_columns"), 0);
  fx_teardown(&f);
}

TEST(table_update) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_db(&f, "archive"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  CHECK_OK(&f, add_table(&f, "sales", "other", 2));
  CHECK_OK(&f, add_table(&f, "archive", "taken", 0));
  hl_cat_table_t *g = NULL;
  CHECK_OK(&f, hl_cat_table_get(f.cat, "sales", "t", f.arena, &g, &f.err));
  if (!g) {
    fx_teardown(&f);
    return;
  }
  int64_t id = g->id;
  CHECK_OK(&f, add_part(&f, id, "2024-01-01", "0"));

  /* Rename across databases and replace fields and lists. */
  hl_cat_table_t u = *g;
  hl_cat_column_t cols[] = {{"id", "bigint", "changed"}, {"extra", "String", NULL}};
  hl_cat_column_t keys[] = {{"DS", "string", "day"}, {"hr", "int", NULL}};
  hl_kv_t params[] = {{"comment", "renamed"}};
  u.db_name = "ARCHIVE";
  u.name = "T2";
  u.external = true;
  u.location = "/elsewhere";
  u.cols = cols;
  u.n_cols = 2;
  u.part_keys = keys;
  u.params = params;
  u.n_params = 1;
  u.owner = "carol";
  CHECK_OK(&f, hl_cat_table_update(f.cat, &u, &f.err));
  hl_status_t st = hl_cat_table_get(f.cat, "sales", "t", f.arena, &g, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table \"sales.t\" does not exist");
  CHECK_OK(&f, hl_cat_table_get(f.cat, "archive", "t2", f.arena, &g, &f.err));
  if (g) {
    CHECK_INT(g->id, id);
    CHECK_STR(g->db_name, "archive");
    CHECK(g->external);
    CHECK_STR(g->location, "/elsewhere");
    CHECK_STR(g->owner, "carol");
    CHECK_INT(g->n_cols, 2);
    CHECK_STR(g->cols[0].comment, "changed");
    CHECK_STR(g->cols[1].name, "extra");
    CHECK_STR(g->cols[1].type, "string");
    CHECK_STR(g->part_keys[0].comment, "day");
    CHECK_INT(g->n_params, 1);
    CHECK_STR(g->params[0].value, "renamed");
    CHECK_INT(g->create_time, 1700000000);
  }
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_count(f.cat, id, &n, &f.err));
  CHECK_INT(n, 1); /* partitions follow the table id */

  /* Errors. */
  u.name = "taken";
  st = hl_cat_table_update(f.cat, &u, &f.err);
  CHECK_ERR(&f, st, HL_CONSTRAINT, "42P07", "table \"archive.taken\" already exists");
  u.db_name = "nodb";
  st = hl_cat_table_update(f.cat, &u, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"nodb\" does not exist");
  u.db_name = "archive";
  u.name = "t2";
  u.n_part_keys = 1;
  st = hl_cat_table_update(f.cat, &u, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "0A000", "partition keys of table \"archive.t2\" cannot be changed");
  u.n_part_keys = 2;
  keys[1].name = "minute";
  st = hl_cat_table_update(f.cat, &u, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "0A000", "partition keys of table \"archive.t2\" cannot be changed");
  keys[1].name = "hr";
  u.id = 999;
  st = hl_cat_table_update(f.cat, &u, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 999 does not exist");
  /* Updating a table under its own name is not a clash. */
  u.id = id;
  CHECK_OK(&f, hl_cat_table_update(f.cat, &u, &f.err));
  fx_teardown(&f);
}

TEST(db_drop_cascade) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_db(&f, "keep"));
  CHECK_OK(&f, add_table(&f, "sales", "a", 2));
  CHECK_OK(&f, add_table(&f, "sales", "b", 0));
  CHECK_OK(&f, add_table(&f, "keep", "c", 2));
  int64_t a = table_id(&f, "sales", "a"), c = table_id(&f, "keep", "c");
  CHECK_OK(&f, add_part(&f, a, "x", "1"));
  CHECK_OK(&f, add_part(&f, a, "y", NULL));
  CHECK_OK(&f, add_part(&f, c, "z", "2"));
  hl_status_t st = hl_cat_db_drop(f.cat, "Sales", false, &f.err);
  CHECK_ERR(&f, st, HL_CONSTRAINT, "2BP01", "database \"sales\" is not empty");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls"), 3);
  CHECK_OK(&f, hl_cat_db_drop(f.cat, "sales", true, &f.err));
  hl_cat_db_t *db = NULL;
  st = hl_cat_db_get(f.cat, "sales", f.arena, &db, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "3F000", "database \"sales\" does not exist");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls"), 1);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM partitions"), 1);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_values"), 2);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbl_columns"), 2);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_keys"), 2);
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_count(f.cat, c, &n, &f.err));
  CHECK_INT(n, 1);
  fx_teardown(&f);
}

/* ------------------------------------------------------------------------
 * Partitions
 * ------------------------------------------------------------------------ */

/* hl_cat_partition_scan's callback in the tests: the names seen (static
 * storage: the partitions are borrowed), stopping after LIMIT. */
typedef struct scan_names {
  char names[8][96];
  size_t n, limit;
} scan_names_t;

static hl_status_t scan_name(void *ctx, const hl_cat_partition_t *p, hl_error_t *err) {
  (void)err;
  scan_names_t *sn = ctx;
  if (sn->n < 8) snprintf(sn->names[sn->n], sizeof sn->names[0], "%s", p->name);
  return ++sn->n >= sn->limit ? HL_DONE : HL_OK;
}

TEST(partitions) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  CHECK_OK(&f, add_table(&f, "sales", "flat", 0));
  int64_t tbl = table_id(&f, "sales", "t"), flat = table_id(&f, "sales", "flat");

  char *v1[] = {"2024-01-02", "7"};
  hl_kv_t params[] = {{"numFiles", "3"}, {"totalSize", "1024"}};
  hl_cat_partition_t p = {.table_id = tbl,
                          .values = v1,
                          .n_values = 2,
                          .name = "ds=2024-01-02/hr=7",
                          .location = "/custom/place",
                          .params = params,
                          .n_params = 2,
                          .create_time = 1711111111};
  CHECK_OK(&f, hl_cat_partition_add(f.cat, &p, &f.err));
  CHECK_OK(&f, add_part(&f, tbl, "2024-01-02", NULL)); /* hr default partition */
  CHECK_OK(&f, add_part(&f, tbl, NULL, NULL));
  CHECK_OK(&f, add_part(&f, tbl, "", "1"));  /* empty string is not NULL */
  CHECK_OK(&f, add_part(&f, tbl, "B", "1")); /* 'B' < 'a' in byte order */
  CHECK_OK(&f, add_part(&f, tbl, "a", "1"));

  /* Exact lookup, NULL matching NULL only. */
  hl_cat_partition_t *g = NULL;
  CHECK_OK(&f, hl_cat_partition_get(f.cat, tbl, v1, 2, f.arena, &g, &f.err));
  if (g) {
    CHECK(g->id > 0);
    CHECK_INT(g->table_id, tbl);
    CHECK_INT(g->n_values, 2);
    CHECK_STR(g->values[0], "2024-01-02");
    CHECK_STR(g->values[1], "7");
    CHECK_STR(g->name, "ds=2024-01-02/hr=7");
    CHECK_STR(g->location, "/custom/place");
    CHECK_INT(g->create_time, 1711111111);
    CHECK_INT(g->n_params, 2);
    CHECK_STR(g->params[1].key, "totalSize");
    CHECK_STR(g->params[1].value, "1024");
  }
  char *vnull[] = {"2024-01-02", NULL};
  CHECK_OK(&f, hl_cat_partition_get(f.cat, tbl, vnull, 2, f.arena, &g, &f.err));
  if (g) {
    CHECK_STR(g->values[0], "2024-01-02");
    CHECK(g->values[1] == NULL);
    CHECK_STR(g->name, "ds=2024-01-02/hr=__HIVE_DEFAULT_PARTITION__");
    CHECK_INT(g->n_params, 0);
  }
  char *vboth[] = {NULL, NULL};
  CHECK_OK(&f, hl_cat_partition_get(f.cat, tbl, vboth, 2, f.arena, &g, &f.err));
  if (g) CHECK(g->values[0] == NULL && g->values[1] == NULL);
  char *vempty[] = {"", "1"};
  CHECK_OK(&f, hl_cat_partition_get(f.cat, tbl, vempty, 2, f.arena, &g, &f.err));
  if (g) CHECK_STR(g->values[0], "");
  char *vmiss[] = {NULL, "1"};
  hl_status_t st = hl_cat_partition_get(f.cat, tbl, vmiss, 2, f.arena, &g, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42704",
            "partition (NULL, '1') of table \"sales.t\" does not exist");
  CHECK(g == NULL);

  /* Listing in byte order of names, values and params attached. */
  hl_cat_partition_t *list = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_list(f.cat, tbl, f.arena, &list, &n, &f.err));
  CHECK_INT(n, 6);
  const char *want[] = {"ds=/hr=1",
                        "ds=2024-01-02/hr=7",
                        "ds=2024-01-02/hr=__HIVE_DEFAULT_PARTITION__",
                        "ds=B/hr=1",
                        "ds=__HIVE_DEFAULT_PARTITION__/hr=__HIVE_DEFAULT_PARTITION__",
                        "ds=a/hr=1"};
  for (size_t i = 0; i < n && i < 6; i++) {
    CHECK_STR(list[i].name, want[i]);
    CHECK_INT(list[i].n_values, 2);
    CHECK_INT(list[i].table_id, tbl);
    CHECK_INT(list[i].n_params, i == 1 ? 2 : 0);
  }
  if (n == 6) {
    CHECK_STR(list[0].values[0], "");
    CHECK_STR(list[1].params[0].key, "numFiles");
    CHECK_STR(list[1].params[1].value, "1024");
    CHECK_STR(list[3].values[0], "B");
    CHECK(list[4].values[0] == NULL && list[4].values[1] == NULL);
  }
  CHECK_OK(&f, hl_cat_partition_count(f.cat, tbl, &n, &f.err));
  CHECK_INT(n, 6);

  /* Names for pruning.  Without a pinned value SQLite lists whole records
   * (sd set), which get_many takes as they are; with one, the value index
   * gives names and values only, and get_many reads the records, in the
   * order asked, leaving out one that is gone. */
  hl_cat_partition_t *names = NULL, *got = NULL;
  size_t n_names = 0, n_got = 0;
  CHECK_OK(&f, hl_cat_partition_names(f.cat, tbl, NULL, f.arena, &names, &n_names, &f.err));
  CHECK_INT(n_names, 6);
  for (size_t i = 0; i < n_names && i < 6; i++) {
    CHECK_STR(names[i].name, want[i]);
    CHECK_INT(names[i].id, list[i].id);
    CHECK(names[i].sd != NULL);
  }
  const char *eq_none[] = {NULL, NULL};
  CHECK_OK(&f, hl_cat_partition_names(f.cat, tbl, eq_none, f.arena, &names, &n_names, &f.err));
  CHECK_INT(n_names, 6);
  CHECK_OK(&f,
           hl_cat_partition_get_many(f.cat, tbl, names, n_names, f.arena, &got, &n_got, &f.err));
  CHECK_INT(n_got, 6);
  CHECK(n_got == 6 && got[1].n_params == 2);
  const char *eq_ds[] = {"2024-01-02", NULL};
  CHECK_OK(&f, hl_cat_partition_names(f.cat, tbl, eq_ds, f.arena, &names, &n_names, &f.err));
  CHECK_INT(n_names, 2);
  if (n_names == 2) {
    CHECK_STR(names[0].name, "ds=2024-01-02/hr=7");
    CHECK_STR(names[1].name, "ds=2024-01-02/hr=__HIVE_DEFAULT_PARTITION__");
    CHECK(names[1].values[1] == NULL);
    CHECK(names[0].sd == NULL && names[0].n_params == 0);
  }
  const char *eq_both[] = {"a", "1"}, *eq_miss[] = {"a", "2"};
  CHECK_OK(&f, hl_cat_partition_names(f.cat, tbl, eq_both, f.arena, &names, &n_names, &f.err));
  CHECK(n_names == 1 && strcmp(names[0].name, "ds=a/hr=1") == 0);
  CHECK_OK(&f, hl_cat_partition_names(f.cat, tbl, eq_miss, f.arena, &names, &n_names, &f.err));
  CHECK_INT(n_names, 0);
  CHECK_OK(&f, hl_cat_partition_names(f.cat, tbl, eq_ds, f.arena, &names, &n_names, &f.err));
  if (n_names == 2) {
    char *vgone[] = {"gone", "1"};
    hl_cat_partition_t keys[3] = {
        names[1], {.values = vgone, .n_values = 2, .name = "ds=gone/hr=1"}, names[0]};
    CHECK_OK(&f, hl_cat_partition_get_many(f.cat, tbl, keys, 3, f.arena, &got, &n_got, &f.err));
    CHECK_INT(n_got, 2);
    if (n_got == 2) {
      CHECK_STR(got[0].name, "ds=2024-01-02/hr=__HIVE_DEFAULT_PARTITION__");
      CHECK_STR(got[1].name, "ds=2024-01-02/hr=7");
      CHECK_STR(got[1].location, "/custom/place");
      CHECK_INT(got[1].n_params, 2);
      CHECK(got[0].sd != NULL && got[1].sd != NULL);
    }
  }
  st = hl_cat_partition_names(f.cat, 777, eq_ds, f.arena, &names, &n_names, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 777 does not exist");

  /* Streaming: name order, pins and inclusive byte-order bounds from the
   * value index (the default partition is outside every bound), and a
   * callback that stops ends the read with HL_OK. */
  scan_names_t sn = {.limit = 100};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, NULL, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 6);
  for (size_t i = 0; i < sn.n && i < 6; i++)
    CHECK_STR(sn.names[i], want[i]);
  const char *lo_b[] = {"B", NULL}, *hi_b[] = {"a", NULL}, *hi_2[] = {NULL, "1"};
  hl_cat_part_filter_t range = {.lo = lo_b, .hi = hi_b};
  sn = (scan_names_t){.limit = 100};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, &range, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 2);
  if (sn.n == 2) {
    CHECK_STR(sn.names[0], "ds=B/hr=1");
    CHECK_STR(sn.names[1], "ds=a/hr=1");
  }
  hl_cat_part_filter_t both = {.eq = eq_ds, .hi = hi_2};
  sn = (scan_names_t){.limit = 100};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, &both, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 0); /* hr=7 > '1' and the default hr is outside the bound */
  hl_cat_part_filter_t lo_only = {.lo = lo_b};
  sn = (scan_names_t){.limit = 2};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, &lo_only, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 2);
  st = hl_cat_partition_scan(f.cat, 777, &range, scan_name, &sn, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 777 does not exist");
  /* A pinned value widened by alternative ranges: the driving key as one
   * probe per range (hr '1', or in ['7', '8')), and a probed key (ds
   * pinned too); an empty range adds nothing. */
  const char *eq_hr[] = {NULL, "1"}, *eq_ds_hr[] = {"2024-01-02", "1"};
  const hl_cat_vrange_t hr_alt[] = {{"7", "8"}, {"x", "y"}};
  const hl_cat_vrange_t *alts[] = {NULL, hr_alt};
  const int n_alts[] = {0, 2};
  hl_cat_part_filter_t widened = {.eq = eq_hr, .alt = alts, .n_alt = n_alts};
  sn = (scan_names_t){.limit = 100};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, &widened, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 4);
  if (sn.n == 4) {
    CHECK_STR(sn.names[0], "ds=/hr=1");
    CHECK_STR(sn.names[1], "ds=2024-01-02/hr=7");
    CHECK_STR(sn.names[2], "ds=B/hr=1");
    CHECK_STR(sn.names[3], "ds=a/hr=1");
  }
  widened.eq = eq_ds_hr;
  sn = (scan_names_t){.limit = 100};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, &widened, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 1);
  if (sn.n == 1) CHECK_STR(sn.names[0], "ds=2024-01-02/hr=7");
  widened.lo = hi_2; /* with a bound on the widened key: hr >= '1' */
  widened.eq = eq_hr;
  sn = (scan_names_t){.limit = 100};
  CHECK_OK(&f, hl_cat_partition_scan(f.cat, tbl, &widened, scan_name, &sn, &f.err));
  CHECK_INT(sn.n, 4);

  /* Errors on add. */
  st = add_part(&f, tbl, "2024-01-02", "7");
  CHECK_ERR(&f, st, HL_CONSTRAINT, "42710",
            "partition \"ds=2024-01-02/hr=7\" of table \"sales.t\" already exists");
  char *vother[] = {"other", "1"};
  hl_cat_partition_t same_name = {
      .table_id = tbl, .values = vother, .n_values = 2, .name = "ds=a/hr=1", .location = "/x"};
  st = hl_cat_partition_add(f.cat, &same_name, &f.err);
  CHECK_ERR(&f, st, HL_CONSTRAINT, "42710",
            "partition \"ds=a/hr=1\" of table \"sales.t\" already exists");
  same_name.n_values = 1;
  same_name.name = "ds=other";
  st = hl_cat_partition_add(f.cat, &same_name, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "22023",
            "partition \"ds=other\" has 1 values but table \"sales.t\" has 2 partition keys");
  same_name.table_id = flat;
  st = hl_cat_partition_add(f.cat, &same_name, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "42809", "table \"sales.flat\" is not partitioned");
  same_name.table_id = 777;
  st = hl_cat_partition_add(f.cat, &same_name, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 777 does not exist");
  st = hl_cat_partition_list(f.cat, 777, f.arena, &list, &n, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 777 does not exist");
  st = hl_cat_partition_count(f.cat, 777, &n, &f.err);
  CHECK_ERR(&f, st, HL_NOTFOUND, "42P01", "table with id 777 does not exist");
  st = hl_cat_partition_get(f.cat, tbl, v1, 1, f.arena, &g, &f.err);
  CHECK_ERR(&f, st, HL_ERROR, "22023",
            "1 partition values given but table \"sales.t\" has 2 partition keys");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM partitions"), 6);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_values"), 12);

  /* Update replaces values, name, location and params, keeps the id. */
  CHECK_OK(&f, hl_cat_partition_get(f.cat, tbl, v1, 2, f.arena, &g, &f.err));
  if (g) {
    int64_t pid = g->id;
    char *v2[] = {"2024-02-01", NULL};
    hl_kv_t p2[] = {{"numRows", "10"}};
    hl_cat_partition_t u = *g;
    u.values = v2;
    u.name = "ds=2024-02-01/hr=__HIVE_DEFAULT_PARTITION__";
    u.location = "/moved";
    u.params = p2;
    u.n_params = 1;
    CHECK_OK(&f, hl_cat_partition_update(f.cat, &u, &f.err));
    st = hl_cat_partition_get(f.cat, tbl, v1, 2, f.arena, &g, &f.err);
    CHECK_ERR(&f, st, HL_NOTFOUND, "42704",
              "partition ('2024-01-02', '7') of table \"sales.t\" does not exist");
    CHECK_OK(&f, hl_cat_partition_get(f.cat, tbl, v2, 2, f.arena, &g, &f.err));
    if (g) {
      CHECK_INT(g->id, pid);
      CHECK_STR(g->location, "/moved");
      CHECK_INT(g->create_time, 1711111111);
      CHECK_INT(g->n_params, 1);
      CHECK_STR(g->params[0].key, "numRows");
    }
    CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_values WHERE value = '2024-02-01'"), 1);
    CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_params"), 1);

    /* Update errors: a clash, a move, a missing partition. */
    u.values = vempty;
    st = hl_cat_partition_update(f.cat, &u, &f.err);
    CHECK_ERR(&f, st, HL_CONSTRAINT, "42710",
              "partition \"ds=2024-02-01/hr=__HIVE_DEFAULT_PARTITION__\" of table \"sales.t\" "
              "already exists");
    u.values = v2;
    u.table_id = flat;
    st = hl_cat_partition_update(f.cat, &u, &f.err);
    CHECK_ERR(&f, st, HL_ERROR, "0A000", "moving a partition to another table is not supported");
    u.id = 12345;
    st = hl_cat_partition_update(f.cat, &u, &f.err);
    CHECK_ERR(&f, st, HL_NOTFOUND, "42704", "partition with id 12345 does not exist");

    /* Drop. */
    CHECK_OK(&f, hl_cat_partition_drop(f.cat, pid, &f.err));
    st = hl_cat_partition_drop(f.cat, pid, &f.err);
    char msg[100];
    snprintf(msg, sizeof msg, "partition with id %lld does not exist", (long long)pid);
    CHECK_ERR(&f, st, HL_NOTFOUND, "42704", msg);
    CHECK_OK(&f, hl_cat_partition_count(f.cat, tbl, &n, &f.err));
    CHECK_INT(n, 5);
    CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_params"), 0);
    CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_values"), 10);
  }

  /* An empty list is fine. */
  CHECK_OK(&f, add_table(&f, "sales", "empty", 1));
  CHECK_OK(
      &f, hl_cat_partition_list(f.cat, table_id(&f, "sales", "empty"), f.arena, &list, &n, &f.err));
  CHECK_INT(n, 0);
  fx_teardown(&f);
}

/* ------------------------------------------------------------------------
 * Transactions, atomicity, persistence
 * ------------------------------------------------------------------------ */

TEST(transactions) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));

  /* Rollback leaves nothing. */
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  hl_status_t st = hl_cat_begin(f.cat, &f.err);
  CHECK_ERR(&f, st, HL_MISUSE, "25000", "a metastore transaction is already in progress");
  CHECK_OK(&f, add_db(&f, "tmp"));
  CHECK_OK(&f, add_table(&f, "tmp", "t", 2));
  int64_t id = table_id(&f, "tmp", "t");
  CHECK_OK(&f, add_part(&f, id, "a", "1"));
  /* A failure inside the transaction undoes only that call. */
  st = add_part(&f, id, "a", "1");
  CHECK_INT(st, HL_CONSTRAINT);
  hl_err_clear(&f.err);
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_count(f.cat, id, &n, &f.err));
  CHECK_INT(n, 1);
  hl_cat_rollback(f.cat);
  hl_cat_rollback(f.cat); /* no-op outside a transaction */
  char **names = NULL;
  CHECK_OK(&f, hl_cat_db_list(f.cat, f.arena, &names, &n, &f.err));
  CHECK_INT(n, 1);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls"), 0);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM partitions"), 0);
  st = hl_cat_commit(f.cat, &f.err);
  CHECK_ERR(&f, st, HL_MISUSE, "25000", "no metastore transaction is in progress");

  /* Commit keeps everything. */
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, add_table(&f, "default", "kept", 2));
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls"), 1);

  /* A failure half-way through one call leaves nothing of that call,
   * outside or inside a transaction: a trigger makes the third column's
   * insert fail after the table row and the first two columns went in. */
  CHECK_INT(sql_exec(f.path, "CREATE TRIGGER boom BEFORE INSERT ON tbl_columns "
                             "WHEN NEW.name = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END"),
            SQLITE_OK);
  hl_cat_column_t cols[] = {{"a", "int", NULL}, {"b", "int", NULL}, {"boom", "int", NULL}};
  hl_kv_t params[] = {{"k", "v"}};
  hl_cat_table_t t = {.db_name = "default",
                      .name = "half",
                      .location = "/wh/half",
                      .params = params,
                      .n_params = 1,
                      .cols = cols,
                      .n_cols = 3,
                      .num_buckets = -1};
  st = hl_cat_table_create(f.cat, &t, &f.err);
  CHECK_ERR(&f, st, HL_CONSTRAINT, "23000", "metastore constraint failed: boom");
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbls"), 1);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbl_params"), 0);

  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, add_table(&f, "default", "before", 0));
  st = hl_cat_table_create(f.cat, &t, &f.err);
  CHECK_ERR(&f, st, HL_CONSTRAINT, "23000", "metastore constraint failed: boom");
  CHECK_OK(&f, add_table(&f, "default", "after", 0));
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  CHECK_OK(&f, hl_cat_table_list(f.cat, "default", f.arena, &names, &n, &f.err));
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_STR(names[0], "after");
    CHECK_STR(names[1], "before");
    CHECK_STR(names[2], "kept");
  }
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbl_columns"), 6);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM tbl_columns WHERE name IN ('a', 'b', 'boom')"),
            0);
  fx_teardown(&f);
}

TEST(persistence) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_table(&f, "default", "t", 2));
  int64_t id = table_id(&f, "default", "t");
  CHECK_OK(&f, add_part(&f, id, "x", NULL));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_OK(&f, fx_open(&f));
  hl_cat_table_t *t = NULL;
  CHECK_OK(&f, hl_cat_table_get(f.cat, "default", "t", f.arena, &t, &f.err));
  if (t) {
    CHECK_INT(t->id, id);
    CHECK_INT(t->n_cols, 2);
    CHECK_STR(t->cols[1].comment, "the message");
  }
  hl_cat_partition_t *list = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &list, &n, &f.err));
  CHECK_INT(n, 1);
  if (n == 1) {
    CHECK_STR(list[0].name, "ds=x/hr=__HIVE_DEFAULT_PARTITION__");
    CHECK(list[0].values[1] == NULL);
  }
  /* Ids are not reused after a drop (caches may still hold old ids). */
  CHECK_OK(&f, hl_cat_table_drop(f.cat, id, &f.err));
  CHECK_OK(&f, add_table(&f, "default", "t", 2));
  CHECK(table_id(&f, "default", "t") > id);
  fx_teardown(&f);
}

/* WAL: a second handle reads the last committed state while the first
 * holds a write transaction, without waiting for it. */
TEST(two_handles) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  hl_cat_t *other = NULL;
  CHECK_OK(&f, hl_cat_open(f.path, &other, &f.err));
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, add_db(&f, "pending"));
  char **names = NULL;
  size_t n = 0;
  double t0 = now_ms();
  if (other) CHECK_OK(&f, hl_cat_db_list(other, f.arena, &names, &n, &f.err));
  CHECK(now_ms() - t0 < 1000); /* not blocked by the busy timeout */
  CHECK_INT(n, 1);
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  if (other) CHECK_OK(&f, hl_cat_db_list(other, f.arena, &names, &n, &f.err));
  CHECK_INT(n, 2);
  hl_cat_close(other);

  /* An in-memory metastore (handy for other modules' tests). */
  hl_cat_t *mem = NULL;
  CHECK_OK(&f, hl_cat_open(":memory:", &mem, &f.err));
  if (mem) {
    CHECK_INT(hl_cat_schema_version(mem), hl_cat_schema_latest());
    hl_cat_db_t db = {.name = "default", .location = "/wh"};
    CHECK_OK(&f, hl_cat_db_create(mem, &db, &f.err));
    CHECK_OK(&f, hl_cat_db_list(mem, f.arena, &names, &n, &f.err));
    CHECK_INT(n, 1);
  }
  hl_cat_close(mem);
  hl_cat_close(NULL);
  fx_teardown(&f);
}

/* ------------------------------------------------------------------------
 * Damage and memory faults
 * ------------------------------------------------------------------------ */

TEST(corrupt_contents) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_table(&f, "default", "t", 2));
  int64_t id = table_id(&f, "default", "t");
  CHECK_OK(&f, add_part(&f, id, "x", "1"));
  CHECK_INT(sql_exec(f.path, "UPDATE partitions SET vals = x'0178'"), SQLITE_OK);
  hl_cat_partition_t *list = NULL;
  size_t n = 0;
  hl_status_t st = hl_cat_partition_list(f.cat, id, f.arena, &list, &n, &f.err);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", "metastore is corrupt: malformed partition values");
  CHECK(list == NULL && n == 0);
  CHECK_INT(sql_exec(f.path, "UPDATE partitions SET vals = x'00020000'"), SQLITE_OK);
  st = hl_cat_partition_list(f.cat, id, f.arena, &list, &n, &f.err);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001", "metastore is corrupt: malformed partition values");
  /* A NULL the schema forbids (written around it with a rebuilt table). */
  CHECK_INT(sql_exec(f.path, "PRAGMA writable_schema = ON; "
                             "UPDATE sqlite_master SET sql = replace(sql, 'location    TEXT NOT "
                             "NULL', 'location    TEXT') WHERE name = 'dbs'; "
                             "PRAGMA writable_schema = OFF;"),
            SQLITE_OK);
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_INT(sql_exec(f.path, "UPDATE dbs SET location = NULL"), SQLITE_OK);
  CHECK_OK(&f, fx_open(&f));
  hl_cat_db_t *db = NULL;
  st = hl_cat_db_get(f.cat, "default", f.arena, &db, &f.err);
  CHECK_ERR(&f, st, HL_CORRUPT, "XX001",
            "metastore is corrupt: unexpected NULL in column \"location\"");
  fx_teardown(&f);
}

/* Overwrites the middle pages of a checkpointed file with junk: every call
 * must fail cleanly or succeed, never crash (ASan watches). */
TEST(corrupt_pages) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_table(&f, "default", "t", 2));
  int64_t id = table_id(&f, "default", "t");
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  char ds[32];
  for (int i = 0; i < 300; i++) {
    snprintf(ds, sizeof ds, "2024-%04d", i);
    CHECK_OK(&f, add_part(&f, id, ds, "1"));
  }
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  hl_cat_close(f.cat);
  f.cat = NULL; /* the last close checkpoints the WAL into the file */
  struct stat sb;
  CHECK(stat(f.path, &sb) == 0 && sb.st_size >= 8 * 4096);
  FILE *fp = fopen(f.path, "r+b");
  unsigned seed = 12345;
  for (long off = 2 * 4096; off + 4096 <= sb.st_size; off += 4096) {
    for (long at = 0; at < 4096; at += 1024) {
      fseek(fp, off + at, SEEK_SET);
      for (int i = 0; i < 64; i++) {
        seed = seed * 1103515245u + 12345u;
        fputc((int)(seed >> 16) & 0xff, fp);
      }
    }
  }
  fclose(fp);
  int failures = 0;
  hl_status_t st = fx_open(&f);
  if (st == HL_OK) {
    hl_cat_table_t *t = NULL;
    hl_cat_partition_t *list = NULL;
    size_t n = 0;
    char **names = NULL;
    hl_status_t results[4];
    results[0] = hl_cat_table_get(f.cat, "default", "t", f.arena, &t, &f.err);
    hl_err_clear(&f.err);
    results[1] = hl_cat_partition_list(f.cat, id, f.arena, &list, &n, &f.err);
    /* The listing reads every partition page, so it must see the damage. */
    CHECK_INT(results[1], HL_CORRUPT);
    CHECK_STR(f.err.sqlstate, "XX001");
    CHECK(strncmp(f.err.message, "metastore is corrupt: ", 22) == 0);
    hl_err_clear(&f.err);
    results[2] = hl_cat_db_list(f.cat, f.arena, &names, &n, &f.err);
    hl_err_clear(&f.err);
    results[3] = add_part(&f, id, "new", "1");
    hl_err_clear(&f.err);
    for (int i = 0; i < 4; i++) {
      CHECK(results[i] == HL_OK || results[i] == HL_CORRUPT || results[i] == HL_NOTFOUND);
      failures += results[i] != HL_OK;
    }
  } else {
    CHECK_INT(st, HL_CORRUPT);
    CHECK_STR(f.err.sqlstate, "XX001");
    failures++;
  }
  CHECK(failures > 0); /* the damage was noticed somewhere */
  fx_teardown(&f);
}

/* Failing each allocation in turn: HL_NOMEM or success, never a crash or
 * a leak (the sanitizer build checks leaks at exit). */
TEST(out_of_memory) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_table(&f, "default", "t", 2));
  int64_t id = table_id(&f, "default", "t");
  CHECK_OK(&f, add_part(&f, id, "x", "1"));
  int saw_nomem = 0, saw_ok = 0;
  for (long nth = 1; nth <= 60; nth++) {
    hl_arena_t *arena = hl_arena_create(256);
    hl_cat_table_t *t = NULL;
    hl_cat_partition_t *list = NULL;
    size_t n = 0;
    hl_mem_fail_after(nth);
    hl_status_t a = hl_cat_table_get(f.cat, "default", "t", arena, &t, &f.err);
    hl_err_clear(&f.err);
    hl_status_t b = hl_cat_partition_list(f.cat, id, arena, &list, &n, &f.err);
    hl_err_clear(&f.err);
    hl_status_t c = add_part(&f, id, "y", "2");
    hl_err_clear(&f.err);
    hl_mem_fail_after(0);
    CHECK(a == HL_OK || a == HL_NOMEM);
    CHECK(b == HL_OK || b == HL_NOMEM);
    CHECK(c == HL_OK || c == HL_NOMEM);
    CHECK((a == HL_OK) == (t != NULL));
    saw_nomem |= a == HL_NOMEM || b == HL_NOMEM || c == HL_NOMEM;
    saw_ok |= a == HL_OK && b == HL_OK && c == HL_OK;
    if (c == HL_OK) {
      char *v[] = {"y", "2"};
      hl_cat_partition_t *p = NULL;
      CHECK_OK(&f, hl_cat_partition_get(f.cat, id, v, 2, f.arena, &p, &f.err));
      if (p) CHECK_OK(&f, hl_cat_partition_drop(f.cat, p->id, &f.err));
    }
    hl_arena_destroy(arena);
  }
  CHECK(saw_nomem);
  CHECK(saw_ok);
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_count(f.cat, id, &n, &f.err));
  CHECK_INT(n, 1);
  fx_teardown(&f);
}

/* ------------------------------------------------------------------------
 * Scale
 * ------------------------------------------------------------------------ */

TEST(ten_thousand_partitions) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_table(&f, "default", "big", 2));
  int64_t id = table_id(&f, "default", "big");
  enum { N = 10000 };
  double t0 = now_ms();
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  int failed = 0;
  for (int i = 0; i < N && !failed; i++) {
    char ds[32], hr[16], name[64], location[96], files[16];
    /* Insert in reverse name order so the listing really sorts. */
    int day = (N - 1 - i) / 24, hour = (N - 1 - i) % 24;
    snprintf(ds, sizeof ds, "d%05d", day);
    snprintf(hr, sizeof hr, "%02d", hour);
    snprintf(name, sizeof name, "ds=%s/hr=%s", ds, hr);
    snprintf(location, sizeof location, "/wh/big/%s", name);
    snprintf(files, sizeof files, "%d", i % 7);
    char *values[] = {ds, hr};
    hl_kv_t params[] = {{"numFiles", files}};
    hl_cat_partition_t p = {.table_id = id,
                            .values = values,
                            .n_values = 2,
                            .name = name,
                            .location = location,
                            .params = params,
                            .n_params = i % 2}; /* every other one has a param */
    if (hl_cat_partition_add(f.cat, &p, &f.err) != HL_OK) {
      fprintf(stderr, "add %d: %s\n", i, f.err.message);
      failed = 1;
    }
  }
  CHECK(!failed);
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  double t1 = now_ms();

  hl_cat_partition_t *list = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &list, &n, &f.err));
  double t2 = now_ms();
  printf("  10000 partitions: add %.1f ms (one transaction), list %.1f ms\n", t1 - t0, t2 - t1);
  CHECK_INT(n, N);
  if (n == N) {
    CHECK_STR(list[0].name, "ds=d00000/hr=00");
    CHECK_STR(list[N - 1].name, "ds=d00416/hr=15");
    int sorted = 1, values_ok = 1, params_ok = 1;
    for (size_t i = 0; i < n; i++) {
      if (i > 0 && strcmp(list[i - 1].name, list[i].name) >= 0) sorted = 0;
      char want[64];
      snprintf(want, sizeof want, "ds=%s/hr=%s", list[i].values[0], list[i].values[1]);
      if (list[i].n_values != 2 || strcmp(want, list[i].name) != 0) values_ok = 0;
      /* Partition at list index i was added as i' = N-1-i. */
      int added = N - 1 - (int)i;
      char files[16];
      snprintf(files, sizeof files, "%d", added % 7);
      if (list[i].n_params != added % 2 ||
          (list[i].n_params == 1 && strcmp(list[i].params[0].value, files) != 0))
        params_ok = 0;
    }
    CHECK(sorted);
    CHECK(values_ok);
    CHECK(params_ok);
  }
  /* Generous bound: a per-partition query would blow past it on a
   * loaded machine only by far; the real figure is printed above. */
  CHECK(t2 - t1 < 2000);
  CHECK_OK(&f, hl_cat_partition_count(f.cat, id, &n, &f.err));
  CHECK_INT(n, N);
  /* Many keys of a pinned listing come from one full listing: every
   * hour of one day, backwards, then 200 whole ones. */
  hl_cat_partition_t *names = NULL, *got = NULL;
  size_t n_names = 0, n_got = 0;
  const char *eq_day[] = {"d00100", NULL};
  CHECK_OK(&f, hl_cat_partition_names(f.cat, id, eq_day, f.arena, &names, &n_names, &f.err));
  CHECK_INT(n_names, 24);
  CHECK(n_names == 24 && names[0].sd == NULL && strcmp(names[23].name, "ds=d00100/hr=23") == 0);
  {
    hl_cat_partition_t keys[100];
    for (int i = 0; i < 100 && n_names == 24; i++)
      keys[i] = names[23 - i % 24];
    CHECK_OK(&f, hl_cat_partition_get_many(f.cat, id, keys, 100, f.arena, &got, &n_got, &f.err));
    CHECK_INT(n_got, 100);
    int same = n_got == 100;
    for (size_t i = 0; same && i < n_got; i++)
      same = strcmp(got[i].name, keys[i].name) == 0 && got[i].sd != NULL &&
             strncmp(got[i].location, "/wh/big/", 8) == 0;
    CHECK(same);
  }
  char *v[] = {"d00200", "13"};
  hl_cat_partition_t *p = NULL;
  CHECK_OK(&f, hl_cat_partition_get(f.cat, id, v, 2, f.arena, &p, &f.err));
  if (p) CHECK_STR(p->location, "/wh/big/ds=d00200/hr=13");
  /* The value index serves per-key lookups without a scan. */
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_values WHERE tbl_id = 1 AND idx = 1 AND "
                            "value = '13'"),
            417);
  fx_teardown(&f);
}

static int cache_size(hl_cat_t *cat) {
  sqlite3_stmt *q = NULL;
  int v = 0;
  if (sqlite3_prepare_v2(hl_cat_sqlite_db(cat), "PRAGMA cache_size", -1, &q, NULL) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW)
    v = sqlite3_column_int(q, 0);
  sqlite3_finalize(q);
  return v;
}

/* A batch of 4,096 partitions raises the page cache for its transaction
 * only: after the commit the connection has its own size again. */
TEST(big_batch_cache) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "default"));
  CHECK_OK(&f, add_table(&f, "default", "big", 2));
  int64_t id = table_id(&f, "default", "big");
  enum { N = 4096 };
  hl_cat_partition_t *parts = hl_arena_zalloc(f.arena, sizeof *parts * N);
  CHECK(parts != NULL);
  for (int i = 0; parts && i < N; i++) {
    char **values = hl_arena_alloc(f.arena, sizeof(char *) * 2);
    values[0] = hl_arena_sprintf(f.arena, "d%d", i / 64);
    values[1] = hl_arena_sprintf(f.arena, "%d", i % 64);
    parts[i] =
        (hl_cat_partition_t){.table_id = id,
                             .values = values,
                             .n_values = 2,
                             .name = hl_arena_sprintf(f.arena, "ds=%s/hr=%s", values[0], values[1]),
                             .location = hl_arena_sprintf(f.arena, "/wh/big/%d", i)};
  }
  int before = cache_size(f.cat);
  CHECK(before != -32768);
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, hl_cat_partition_add_many(f.cat, parts, N, &f.err));
  CHECK_INT(cache_size(f.cat), -32768);
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  CHECK_INT(cache_size(f.cat), before);
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_count(f.cat, id, &n, &f.err));
  CHECK_INT(n, N);
  fx_teardown(&f);
}

/* Schema v6: a partition keeps its own storage descriptor.  It starts as
 * the table's (no rows), a table-level change leaves it alone (it gets a
 * copy of the old descriptor), and a descriptor equal to the table's is
 * stored as no rows again. */
TEST(partition_storage) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  int64_t id = table_id(&f, "sales", "t");
  CHECK_OK(&f, add_part(&f, id, "a", "1"));
  CHECK_OK(&f, add_part(&f, id, "b", "2"));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 0);
  hl_cat_partition_t *parts = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &parts, &n, &f.err));
  CHECK_INT(n, 2);
  if (n != 2) goto out;
  CHECK_STR(parts[0].sd->input_format, "org.apache.hadoop.mapred.TextInputFormat");
  CHECK_INT(parts[0].sd->n_cols, 2);
  CHECK_INT(parts[0].sd->num_buckets, -1);

  /* the table becomes Parquet with a third column: both partitions keep
   * text and two columns */
  hl_cat_table_t *t;
  CHECK_OK(&f, hl_cat_table_get(f.cat, "sales", "t", f.arena, &t, &f.err));
  hl_cat_table_t u = *t;
  hl_cat_column_t cols[] = {
      {"id", "bigint", NULL}, {"msg", "string", "the message"}, {"extra", "int", NULL}};
  u.cols = cols;
  u.n_cols = 3;
  u.input_format = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  CHECK_OK(&f, hl_cat_table_update(f.cat, &u, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 2);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_columns"), 4);
  /* a change of parameters only copies nothing */
  CHECK_OK(&f, hl_cat_table_get(f.cat, "sales", "t", f.arena, &t, &f.err));
  u = *t;
  hl_kv_t params[] = {{"k", "v"}};
  u.params = params;
  u.n_params = 1;
  CHECK_OK(&f, hl_cat_table_update(f.cat, &u, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 2);

  CHECK_OK(&f, add_part(&f, id, "c", "3")); /* a new partition: the table's */
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &parts, &n, &f.err));
  CHECK_INT(n, 3);
  if (n != 3) goto out;
  CHECK_STR(parts[0].sd->input_format, "org.apache.hadoop.mapred.TextInputFormat");
  CHECK_INT(parts[0].sd->n_cols, 2);
  CHECK_STR(parts[0].sd->cols[1].comment, "the message");
  CHECK_STR(parts[1].sd->input_format, "org.apache.hadoop.mapred.TextInputFormat");
  CHECK_STR(parts[2].sd->input_format,
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
  CHECK_INT(parts[2].sd->n_cols, 3);

  /* partition "a" gets serde parameters and buckets of its own */
  hl_cat_partition_t pa = parts[0];
  hl_cat_sd_t sd = *pa.sd;
  hl_kv_t sp[] = {{"field.delim", "|"}};
  char *bcols[] = {"id"};
  hl_cat_sort_col_t scols[] = {{"msg", false}};
  sd.serde_params = sp;
  sd.n_serde_params = 1;
  sd.num_buckets = 4;
  sd.bucket_cols = bcols;
  sd.n_bucket_cols = 1;
  sd.sort_cols = scols;
  sd.n_sort_cols = 1;
  pa.sd = &sd;
  CHECK_OK(&f, hl_cat_partition_update(f.cat, &pa, &f.err));
  char *va[] = {"a", "1"};
  hl_cat_partition_t *g;
  CHECK_OK(&f, hl_cat_partition_get(f.cat, id, va, 2, f.arena, &g, &f.err));
  if (g) {
    CHECK_INT(g->sd->n_serde_params, 1);
    CHECK_STR(g->sd->serde_params[0].value, "|");
    CHECK_INT(g->sd->num_buckets, 4);
    CHECK_INT(g->sd->n_bucket_cols, 1);
    CHECK_STR(g->sd->bucket_cols[0], "id");
    CHECK_INT(g->sd->n_sort_cols, 1);
    CHECK_INT(g->sd->sort_cols[0].ascending, 0);
    CHECK_INT(g->sd->n_cols, 2);
  }
  /* CASCADE: every partition's columns become the table's */
  CHECK_OK(&f, hl_cat_partition_set_columns_all(f.cat, id, cols, 3, &f.err));
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &parts, &n, &f.err));
  for (size_t i = 0; i < n; i++)
    CHECK_INT(parts[i].sd->n_cols, 3);
  /* partition "b" set back to the table's descriptor: no rows again */
  hl_cat_partition_t pb = parts[1];
  hl_cat_sd_t tsd = hl_cat_table_sd(t);
  pb.sd = &tsd;
  CHECK_OK(&f, hl_cat_partition_update(f.cat, &pb, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 1);
  /* the table takes partition "a"'s descriptor: "a" has the table's now
   * (no rows), "b" and "c" keep a copy of the old one */
  CHECK_OK(&f, hl_cat_table_get(f.cat, "sales", "t", f.arena, &t, &f.err));
  CHECK_OK(&f, hl_cat_partition_get(f.cat, id, va, 2, f.arena, &g, &f.err));
  if (!g) goto out;
  u = hl_cat_table_with_sd(t, g->sd);
  CHECK_OK(&f, hl_cat_table_update(f.cat, &u, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 2);
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &parts, &n, &f.err));
  if (n == 3) {
    CHECK_INT(parts[0].sd->num_buckets, 4);
    CHECK_STR(parts[1].sd->input_format,
              "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
    CHECK_INT(parts[1].sd->num_buckets, -1);
  }
  /* dropping a partition drops its descriptor */
  CHECK_OK(&f, hl_cat_partition_drop(f.cat, parts[1].id, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 1);
  CHECK_OK(&f, hl_cat_partition_drop(f.cat, pa.id, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 1);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_serde_params"), 0);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_bucket_cols"), 0);
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_columns"), 3);
out:
  fx_teardown(&f);
}

/* A schema v5 metastore (made by removing what v6 to v9 added, which is exactly
 * the v5 file) is migrated at open: its partitions read with their
 * table's descriptor, as v5 read them, and can then get their own. */
TEST(migrate_v5) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  int64_t id = table_id(&f, "sales", "t");
  CHECK_OK(&f, add_part(&f, id, "a", "1"));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_INT(
      sql_exec(f.path,
               "DROP TRIGGER dbs_drop_scan_state; DROP TRIGGER tbls_drop_scan_state; "
               "DROP TRIGGER tbls_rename_scan_state; DROP TRIGGER partitions_drop_scan_state; "
               "DROP TRIGGER partitions_rename_scan_state; DROP TRIGGER catalogs_drop_scan_state; "
               "DROP TRIGGER tbls_part_count; DROP TABLE part_counts; "
               "DROP TRIGGER catalogs_rename_scan_state; "
               "DROP TABLE prof_states; DROP TABLE checkpoint_parts; DROP TABLE checkpoints; "
               "DROP TABLE catalog_params; DROP TABLE catalogs; "
               "DROP TABLE part_serde_params; DROP TABLE part_columns; "
               "DROP TABLE part_bucket_cols; DROP TABLE part_sort_cols; "
               "DROP TABLE part_sds; PRAGMA user_version = 5;"),
      SQLITE_OK);
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), 5);
  CHECK_OK(&f, fx_open(&f));
  CHECK_INT(hl_cat_schema_version(f.cat), hl_cat_schema_latest());
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), hl_cat_schema_latest());
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 0);
  hl_cat_partition_t *parts = NULL;
  size_t n = 0;
  CHECK_OK(&f, hl_cat_partition_list(f.cat, id, f.arena, &parts, &n, &f.err));
  CHECK_INT(n, 1);
  if (n == 1) {
    CHECK_STR(parts[0].sd->input_format, "org.apache.hadoop.mapred.TextInputFormat");
    CHECK_INT(parts[0].sd->n_cols, 2);
    hl_cat_partition_t p = parts[0];
    hl_cat_sd_t sd = *p.sd;
    sd.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    p.sd = &sd;
    CHECK_OK(&f, hl_cat_partition_update(f.cat, &p, &f.err));
    CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_sds"), 1);
  }
  fx_teardown(&f);
}

/* A schema v6 metastore (v7 to v9 are exactly their tables and triggers) is migrated
 * at open: it has no named catalogs, and can then store some, with their
 * properties in order; they go with DROP CATALOG. */
TEST(migrate_v6) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_INT(
      sql_exec(f.path,
               "DROP TRIGGER dbs_drop_scan_state; DROP TRIGGER tbls_drop_scan_state; "
               "DROP TRIGGER tbls_rename_scan_state; DROP TRIGGER partitions_drop_scan_state; "
               "DROP TRIGGER partitions_rename_scan_state; DROP TRIGGER catalogs_drop_scan_state; "
               "DROP TRIGGER tbls_part_count; DROP TABLE part_counts; "
               "DROP TRIGGER catalogs_rename_scan_state; "
               "DROP TABLE prof_states; DROP TABLE checkpoint_parts; DROP TABLE checkpoints; "
               "DROP TABLE catalog_params; DROP TABLE catalogs; "
               "PRAGMA user_version = 6;"),
      SQLITE_OK);
  CHECK_OK(&f, fx_open(&f));
  CHECK_INT(hl_cat_schema_version(f.cat), hl_cat_schema_latest());
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), hl_cat_schema_latest());
  hl_cat_catalog_t *cats = NULL, *got = NULL;
  size_t n = 9;
  CHECK_OK(&f, hl_cat_catalog_list(f.cat, f.arena, &cats, &n, &f.err));
  CHECK_INT(n, 0);
  hl_kv_t props[3] = {{"type", "hms"},
                      {"hive.metastore.uris", "thrift://a:1,thrift://b:2"},
                      {"Hive.Metastore.Sasl.Enabled", "false"}};
  hl_cat_catalog_t c = {.name = "Prod", .type = "hms", .props = props, .n_props = 3};
  CHECK_OK(&f, hl_cat_catalog_create(f.cat, &c, &f.err));
  CHECK_INT(hl_cat_catalog_create(f.cat, &c, &f.err), HL_CONSTRAINT);
  CHECK_STR(f.err.sqlstate, "42710");
  CHECK_STR(f.err.message, "catalog \"prod\" already exists");
  hl_err_clear(&f.err);
  CHECK_OK(&f, hl_cat_catalog_get(f.cat, "PROD", f.arena, &got, &f.err));
  CHECK(got != NULL);
  if (got) {
    CHECK_STR(got->name, "prod");
    CHECK(got->comment == NULL);
    CHECK_INT(got->n_props, 3);
    if (got->n_props == 3) {
      CHECK_STR(got->props[1].value, "thrift://a:1,thrift://b:2");
      CHECK_STR(got->props[2].key, "Hive.Metastore.Sasl.Enabled");
    }
    CHECK(got->create_time > 0 && got->update_time == got->create_time);
  }
  /* rename with fewer properties and a comment */
  hl_cat_catalog_t r = {
      .name = "staging", .type = "hms", .comment = "c", .props = props, .n_props = 2};
  CHECK_OK(&f, hl_cat_catalog_update(f.cat, "prod", &r, &f.err));
  CHECK_INT(hl_cat_catalog_get(f.cat, "prod", f.arena, &got, &f.err), HL_NOTFOUND);
  CHECK_STR(f.err.sqlstate, "3D000");
  CHECK_STR(f.err.message, "catalog \"prod\" does not exist");
  hl_err_clear(&f.err);
  CHECK_OK(&f, hl_cat_catalog_list(f.cat, f.arena, &cats, &n, &f.err));
  CHECK_INT(n, 1);
  if (n == 1) {
    CHECK_STR(cats[0].name, "staging");
    CHECK_STR(cats[0].comment, "c");
    CHECK_INT(cats[0].n_props, 2);
  }
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM catalog_params"), 2);
  CHECK_OK(&f, hl_cat_catalog_drop(f.cat, "Staging", &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM catalog_params"), 0);
  CHECK_INT(hl_cat_catalog_drop(f.cat, "staging", &f.err), HL_NOTFOUND);
  CHECK_STR(f.err.sqlstate, "3D000");
  hl_err_clear(&f.err);
  /* names are capped at 255 bytes, never truncated */
  char long_name[300];
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  hl_cat_catalog_t l = {.name = long_name, .type = "hms", .props = props, .n_props = 2};
  CHECK_INT(hl_cat_catalog_create(f.cat, &l, &f.err), HL_ERROR);
  CHECK_STR(f.err.sqlstate, "42602");
  CHECK_STR(f.err.message, "a catalog name is at most 255 bytes long");
  hl_err_clear(&f.err);
  CHECK_INT(hl_cat_catalog_get(f.cat, long_name, f.arena, &got, &f.err), HL_NOTFOUND);
  hl_err_clear(&f.err);
  long_name[255] = '\0';
  l.name = long_name;
  CHECK_OK(&f, hl_cat_catalog_create(f.cat, &l, &f.err));
  CHECK_OK(&f, hl_cat_catalog_get(f.cat, long_name, f.arena, &got, &f.err));
  fx_teardown(&f);
}

/* The text-date count of table ID (schema v10's n_tdates) is WANT of N,
 * and so is a recount of its partitions' first values. */
#define CHECK_TDATES(f, id, want_n, want)                                                          \
  do {                                                                                             \
    size_t n_ = 999, d_ = 999;                                                                     \
    CHECK_OK((f), hl_cat_partition_tdates((f)->cat, (id), &n_, &d_, &(f)->err));                   \
    CHECK_INT(n_, (want_n));                                                                       \
    CHECK_INT(d_, (want));                                                                         \
    hl_cat_partition_t *all_ = NULL;                                                               \
    size_t m_ = 0, r_ = 0;                                                                         \
    CHECK_OK((f), hl_cat_partition_list((f)->cat, (id), (f)->arena, &all_, &m_, &(f)->err));       \
    for (size_t i_ = 0; i_ < m_; i_++)                                                             \
      r_ += all_[i_].values[0] &&                                                                  \
            hl_tdate_parse(all_[i_].values[0], strlen(all_[i_].values[0]), NULL, NULL);            \
    CHECK_INT(m_, (want_n));                                                                       \
    CHECK_INT(r_, (want));                                                                         \
  } while (0)

/* The kept partition count (schema v9's part_counts) of table ID against
 * count(*) of its rows, read through another connection. */
#define CHECK_COUNT(f, id, want)                                                                   \
  do {                                                                                             \
    size_t n_ = 999;                                                                               \
    CHECK_OK((f), hl_cat_partition_count((f)->cat, (id), &n_, &(f)->err));                         \
    CHECK_INT(n_, (want));                                                                         \
    char q_[160];                                                                                  \
    snprintf(q_, sizeof q_, "SELECT count(*) FROM partitions WHERE tbl_id = %lld",                 \
             (long long)(id));                                                                     \
    CHECK_INT(sql_int((f)->path, q_), (want));                                                     \
  } while (0)

/* hl_cat_partition_count reads the kept count: exact after
 * each add, batch, drop, failed batch, rolled-back and committed
 * transaction, and following a table's and a database's drop. */
TEST(partition_counts) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  CHECK_OK(&f, add_table(&f, "sales", "u", 2));
  int64_t t = table_id(&f, "sales", "t"), u = table_id(&f, "sales", "u");
  CHECK_COUNT(&f, t, 0);
  CHECK_OK(&f, add_part(&f, t, "a", "1"));
  CHECK_OK(&f, add_part(&f, t, "a", NULL));
  CHECK_OK(&f, add_part(&f, u, "a", "1"));
  CHECK_COUNT(&f, t, 2);
  CHECK_COUNT(&f, u, 1);
  /* a duplicate changes nothing */
  CHECK_INT(add_part(&f, t, "a", "1"), HL_CONSTRAINT);
  hl_err_clear(&f.err);
  CHECK_COUNT(&f, t, 2);
  /* a batch; then one with a duplicate inside: all or none */
  char names[8][32], locs[8][48], hrs[8][8];
  char *vals[8][2];
  hl_cat_partition_t batch[8];
  for (int i = 0; i < 8; i++) {
    snprintf(hrs[i], sizeof hrs[i], "%d", 10 + i);
    snprintf(names[i], sizeof names[i], "ds=b/hr=%s", hrs[i]);
    snprintf(locs[i], sizeof locs[i], "/wh/b/%s", names[i]);
    vals[i][0] = "b";
    vals[i][1] = hrs[i];
    batch[i] = (hl_cat_partition_t){
        .table_id = t, .values = vals[i], .n_values = 2, .name = names[i], .location = locs[i]};
  }
  CHECK_OK(&f, hl_cat_partition_add_many(f.cat, batch, 6, &f.err));
  CHECK_COUNT(&f, t, 8);
  batch[7] = batch[0];
  CHECK_INT(hl_cat_partition_add_many(f.cat, batch + 6, 2, &f.err), HL_CONSTRAINT);
  hl_err_clear(&f.err);
  CHECK_COUNT(&f, t, 8);
  /* a transaction rolled back, then one committed */
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, add_part(&f, t, "c", "1"));
  CHECK_OK(&f, add_part(&f, t, "c", "2"));
  hl_cat_rollback(f.cat);
  CHECK_COUNT(&f, t, 8);
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, add_part(&f, t, "c", "1"));
  CHECK_OK(&f, hl_cat_commit(f.cat, &f.err));
  CHECK_COUNT(&f, t, 9);
  /* a rename (an update of the partition's values and name) keeps it */
  char *one[] = {"c", "1"};
  hl_cat_partition_t *p = NULL;
  CHECK_OK(&f, hl_cat_partition_get(f.cat, t, one, 2, f.arena, &p, &f.err));
  if (p) {
    char *two[] = {"c", "9"};
    p->values = two;
    p->name = "ds=c/hr=9";
    CHECK_OK(&f, hl_cat_partition_update(f.cat, p, &f.err));
    CHECK_COUNT(&f, t, 9);
    CHECK_OK(&f, hl_cat_partition_drop(f.cat, p->id, &f.err));
    CHECK_COUNT(&f, t, 8);
    /* dropping it again (it does not exist) changes no count */
    CHECK_INT(hl_cat_partition_drop(f.cat, p->id, &f.err), HL_NOTFOUND);
    hl_err_clear(&f.err);
  }
  CHECK_COUNT(&f, t, 8);
  /* a table's drop takes its row; the other table keeps its own */
  CHECK_OK(&f, hl_cat_table_drop(f.cat, t, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_counts WHERE tbl_id NOT IN "
                            "(SELECT id FROM tbls)"),
            0);
  CHECK_COUNT(&f, u, 1);
  CHECK_ERR(&f, hl_cat_partition_count(f.cat, t, &(size_t){0}, &f.err), HL_NOTFOUND, "42P01",
            "table with id 1 does not exist");
  CHECK_OK(&f, hl_cat_db_drop(f.cat, "sales", true, &f.err));
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_counts"), 0);
  /* a missing row is a damaged metastore, never a count of 0 */
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  t = table_id(&f, "sales", "t");
  CHECK_INT(sql_exec(f.path, "DELETE FROM part_counts"), SQLITE_OK);
  CHECK_ERR(&f, hl_cat_partition_count(f.cat, t, &(size_t){0}, &f.err), HL_CORRUPT, "XX001",
            "metastore has no partition count for table sales.t");
  fx_teardown(&f);
}

/* A schema v8 metastore (v9 is exactly part_counts and its trigger) gets
 * each table's count computed once at open, empty tables 0; the writes
 * then keep them. */
TEST(migrate_v8) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  CHECK_OK(&f, add_table(&f, "sales", "u", 2));
  CHECK_OK(&f, add_table(&f, "sales", "empty", 2));
  int64_t t = table_id(&f, "sales", "t"), u = table_id(&f, "sales", "u"),
          e = table_id(&f, "sales", "empty");
  char hr[8];
  for (int i = 0; i < 5; i++) {
    snprintf(hr, sizeof hr, "%d", i);
    CHECK_OK(&f, add_part(&f, t, "a", hr));
  }
  CHECK_OK(&f, add_part(&f, u, "a", "1"));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_INT(sql_exec(f.path, "DROP TRIGGER tbls_part_count; DROP TABLE part_counts; "
                             "PRAGMA user_version = 8;"),
            SQLITE_OK);
  CHECK_OK(&f, fx_open(&f));
  CHECK_INT(hl_cat_schema_version(f.cat), hl_cat_schema_latest());
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), hl_cat_schema_latest());
  CHECK_INT(sql_int(f.path, "SELECT count(*) FROM part_counts"), 3);
  CHECK_COUNT(&f, t, 5);
  CHECK_COUNT(&f, u, 1);
  CHECK_COUNT(&f, e, 0);
  CHECK_OK(&f, add_part(&f, e, "a", "1"));
  CHECK_OK(&f, add_part(&f, t, "b", "1"));
  CHECK_COUNT(&f, e, 1);
  CHECK_COUNT(&f, t, 6);
  CHECK_TDATES(&f, t, 6, 0); /* v9 and v10 both applied */
  fx_teardown(&f);
}

/* hl_cat_partition_tdates reads the kept count of partitions whose first
 * value is a text date, in any format: exact after each add (the default
 * partition's NULL and strings that only look like dates are not), batch,
 * failed batch, rolled-back transaction, rename each way, drop, and
 * missing or inconsistent rows are XX001. */
TEST(partition_tdates) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  CHECK_OK(&f, add_table(&f, "sales", "u", 2));
  int64_t t = table_id(&f, "sales", "t"), u = table_id(&f, "sales", "u");
  CHECK_TDATES(&f, t, 0, 0);
  CHECK_OK(&f, add_part(&f, t, "2024-01-31", "1"));
  CHECK_OK(&f, add_part(&f, t, "2024-01-31", "2")); /* per partition, not per value */
  CHECK_OK(&f, add_part(&f, t, "20240131", "1"));
  CHECK_OK(&f, add_part(&f, t, "2024-01-31 10:00", "1"));
  CHECK_OK(&f, add_part(&f, t, "2024-02-30", "1")); /* no such day */
  CHECK_OK(&f, add_part(&f, t, "a", "1"));
  CHECK_OK(&f, add_part(&f, t, NULL, "1"));
  CHECK_OK(&f, add_part(&f, u, "x", "2024-01-31")); /* a date in the second key */
  CHECK_TDATES(&f, t, 7, 4);
  CHECK_TDATES(&f, u, 1, 0);
  CHECK_INT(add_part(&f, t, "2024-01-31", "1"), HL_CONSTRAINT);
  hl_err_clear(&f.err);
  CHECK_TDATES(&f, t, 7, 4);
  /* a batch of 3 dates and 2 not; then one with a duplicate: none */
  static const char *firsts[] = {"2023-01-01",    "b",          "2023010112", "c",
                                 "2023-01-01-05", "2023-01-02", "d"};
  char names[7][48], locs[7][64];
  char *vals[7][2];
  hl_cat_partition_t batch[8];
  for (int i = 0; i < 7; i++) {
    snprintf(names[i], sizeof names[i], "ds=%s/hr=1", firsts[i]);
    snprintf(locs[i], sizeof locs[i], "/wh/b/%d", i);
    vals[i][0] = (char *)firsts[i];
    vals[i][1] = "1";
    batch[i] = (hl_cat_partition_t){
        .table_id = t, .values = vals[i], .n_values = 2, .name = names[i], .location = locs[i]};
  }
  CHECK_OK(&f, hl_cat_partition_add_many(f.cat, batch, 5, &f.err));
  CHECK_TDATES(&f, t, 12, 7);
  batch[7] = batch[0];
  CHECK_INT(hl_cat_partition_add_many(f.cat, batch + 5, 3, &f.err), HL_CONSTRAINT);
  hl_err_clear(&f.err);
  CHECK_TDATES(&f, t, 12, 7);
  CHECK_OK(&f, hl_cat_begin(f.cat, &f.err));
  CHECK_OK(&f, add_part(&f, t, "2025-01-01", "1"));
  CHECK_TDATES(&f, t, 13, 8); /* the transaction sees its own */
  hl_cat_rollback(f.cat);
  CHECK_TDATES(&f, t, 12, 7);
  /* renames: a date to a non-date, back, a non-date to a non-date */
  char *one[] = {"2024-01-31", "2"};
  hl_cat_partition_t *p = NULL;
  CHECK_OK(&f, hl_cat_partition_get(f.cat, t, one, 2, f.arena, &p, &f.err));
  if (p) {
    char *other[] = {"e", "2"}, *back[] = {"2024-03-01", "2"}, *same[] = {"2024-03-01", "3"};
    p->values = other;
    p->name = "ds=e/hr=2";
    CHECK_OK(&f, hl_cat_partition_update(f.cat, p, &f.err));
    CHECK_TDATES(&f, t, 12, 6);
    p->values = back;
    p->name = "ds=2024-03-01/hr=2";
    CHECK_OK(&f, hl_cat_partition_update(f.cat, p, &f.err));
    CHECK_TDATES(&f, t, 12, 7);
    p->values = same;
    p->name = "ds=2024-03-01/hr=3";
    CHECK_OK(&f, hl_cat_partition_update(f.cat, p, &f.err));
    CHECK_TDATES(&f, t, 12, 7);
    /* a drop of a date, then of one that does not exist */
    CHECK_OK(&f, hl_cat_partition_drop(f.cat, p->id, &f.err));
    CHECK_TDATES(&f, t, 11, 6);
    CHECK_INT(hl_cat_partition_drop(f.cat, p->id, &f.err), HL_NOTFOUND);
    hl_err_clear(&f.err);
    CHECK_TDATES(&f, t, 11, 6);
  }
  char *notdate[] = {"a", "1"};
  CHECK_OK(&f, hl_cat_partition_get(f.cat, t, notdate, 2, f.arena, &p, &f.err));
  if (p) CHECK_OK(&f, hl_cat_partition_drop(f.cat, p->id, &f.err));
  CHECK_TDATES(&f, t, 10, 6);
  CHECK_TDATES(&f, u, 1, 0);
  /* a value over the count (the CHECK bypassed), then a missing row */
  char q[160];
  snprintf(q, sizeof q,
           "PRAGMA ignore_check_constraints = ON; "
           "UPDATE part_counts SET n_tdates = 11 WHERE tbl_id = %lld",
           (long long)t);
  CHECK_INT(sql_exec(f.path, q), SQLITE_OK);
  CHECK_ERR(&f, hl_cat_partition_tdates(f.cat, t, &(size_t){0}, &(size_t){0}, &f.err), HL_CORRUPT,
            "XX001",
            "metastore has an inconsistent text-date count for table sales.t (11 of 10 "
            "partitions)");
  snprintf(q, sizeof q, "DELETE FROM part_counts WHERE tbl_id = %lld", (long long)t);
  CHECK_INT(sql_exec(f.path, q), SQLITE_OK);
  CHECK_ERR(&f, hl_cat_partition_tdates(f.cat, t, &(size_t){0}, &(size_t){0}, &f.err), HL_CORRUPT,
            "XX001", "metastore has no partition count for table sales.t");
  CHECK_INT(add_part(&f, t, "2024-06-01", "1"), HL_CORRUPT);
  hl_err_clear(&f.err);
  CHECK_TDATES(&f, u, 1, 0);
  fx_teardown(&f);
}

/* A schema v9 metastore (v10 is exactly part_counts.n_tdates) gets each
 * table's text-date count computed once at open; the writes then keep
 * it. */
TEST(migrate_v9) {
  fx_t f;
  fx_setup(&f);
  CHECK_OK(&f, fx_open(&f));
  CHECK_OK(&f, add_db(&f, "sales"));
  CHECK_OK(&f, add_table(&f, "sales", "t", 2));
  CHECK_OK(&f, add_table(&f, "sales", "u", 2));
  CHECK_OK(&f, add_table(&f, "sales", "empty", 2));
  int64_t t = table_id(&f, "sales", "t"), u = table_id(&f, "sales", "u"),
          e = table_id(&f, "sales", "empty");
  char hr[8];
  for (int i = 0; i < 5; i++) {
    snprintf(hr, sizeof hr, "%d", i);
    CHECK_OK(&f, add_part(&f, t, "2024-01-31", hr));
  }
  CHECK_OK(&f, add_part(&f, t, "2024013", "1"));
  CHECK_OK(&f, add_part(&f, t, NULL, "1"));
  CHECK_OK(&f, add_part(&f, u, "a", "20240131"));
  CHECK_OK(&f, add_part(&f, u, "20240131", "1"));
  hl_cat_close(f.cat);
  f.cat = NULL;
  CHECK_INT(sql_exec(f.path, "ALTER TABLE part_counts DROP COLUMN n_tdates; "
                             "PRAGMA user_version = 9;"),
            SQLITE_OK);
  CHECK_OK(&f, fx_open(&f));
  CHECK_INT(hl_cat_schema_version(f.cat), 10);
  CHECK_INT(sql_int(f.path, "PRAGMA user_version"), 10);
  CHECK_INT(sql_int(f.path, "SELECT sum(n_tdates) FROM part_counts"), 6);
  CHECK_TDATES(&f, t, 7, 5);
  CHECK_TDATES(&f, u, 2, 1);
  CHECK_TDATES(&f, e, 0, 0);
  CHECK_OK(&f, add_part(&f, e, "2024-01-31", "1"));
  CHECK_OK(&f, add_part(&f, t, "b", "1"));
  CHECK_TDATES(&f, e, 1, 1);
  CHECK_TDATES(&f, t, 8, 5);
  fx_teardown(&f);
}

int main(void) {
  (void)test_fixtures_dir; /* test.h helper this suite does not need */
  RUN(open_creates_schema);
  RUN(open_errors);
  RUN(databases);
  RUN(table_roundtrip);
  RUN(table_errors);
  RUN(table_update);
  RUN(db_drop_cascade);
  RUN(partitions);
  RUN(transactions);
  RUN(persistence);
  RUN(two_handles);
  RUN(corrupt_contents);
  RUN(corrupt_pages);
  RUN(out_of_memory);
  RUN(ten_thousand_partitions);
  RUN(big_batch_cache);
  RUN(partition_storage);
  RUN(migrate_v5);
  RUN(migrate_v6);
  RUN(partition_counts);
  RUN(migrate_v8);
  RUN(partition_tdates);
  RUN(migrate_v9);
  return test_report();
}
