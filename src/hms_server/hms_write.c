/*
 * hms_write.c -- the Hive Metastore's write methods served from hivelite's
 * catalog: databases (create, alter, drop), tables (create, alter, drop;
 * the Hive 4 _req forms) and partitions (add, append, alter, rename, drop).
 *
 * Every call is one catalog transaction (hl_cat_begin ... commit, rolled
 * back on any error), so a failed call changes nothing.  Directories a
 * call creates (a database's, a managed table's, a new partition's) are
 * made before the commit and removed again when it fails.  Data is
 * removed only by a drop with deleteData, of what the object owns (a
 * managed table's directory and its partitions' outside it, a managed
 * table's partition directory inside the table, a database's default
 * directory once empty), through a txn/ write like hivelite's own DROP:
 * the files go to a trash directory, the catalog commits, then the trash
 * goes; hivelite's readers of the table wait while the files move.
 * External tables never lose data.  A directory that holds the location
 * of another object, the warehouse root, or the metastore, is never
 * removed (the call fails).
 *
 * Exceptions go in the field id the method's IDL declares (the same in
 * the Hive 2.3 and Hive 4 IDLs for every method served here).
 */
#include "hms_server/hms_write.h"

#include "hms/hms_map.h"
#include "hms/hms_map_from.h"
#include "txn/txn.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ replies */

void hl_hms_wreply_begin(hl_hms_wcall_t *c) {
  hl_tw_message(c->out, c->method, HL_TMSG_REPLY, c->seqid);
}

void hl_hms_wreply_void(hl_hms_wcall_t *c) {
  hl_hms_wreply_begin(c);
  hl_tw_stop(c->out);
}

void hl_hms_wreply_exception(hl_hms_wcall_t *c, int16_t exc_id, const char *message) {
  hl_hms_exception_t e = {(char *)(message ? message : "metastore error")};
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_STRUCT, exc_id);
  hl_hms_write_exception(c->out, &e);
  hl_tw_stop(c->out);
}

static void reply_bool(hl_hms_wcall_t *c, int v) {
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_BOOL, 0);
  hl_tw_bool(c->out, v);
  hl_tw_stop(c->out);
}

static void reply_i32(hl_hms_wcall_t *c, int32_t v) {
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_I32, 0);
  hl_tw_i32(c->out, v);
  hl_tw_stop(c->out);
}

/* ---------------------------------------------------------- arguments */

/* What each argument field id of a method holds: a string of kinds, one
 * per id from 1: 's' string, 'b' bool, 'D' Database, 'T' Table, 'P'
 * Partition, 'E' EnvironmentContext (read, unused), 'L' list<string>, 'Q'
 * list<Partition>, 'A' AddPartitionsRequest, 'X' DropPartitionsRequest,
 * 'R' CreateTableRequest, 'a' AlterTableRequest, 'p' AlterPartitionsRequest,
 * 'r' RenamePartitionRequest, 'd' DropTableRequest (read_req), '-'
 * nothing. */
#define MAX_ARGS 6

typedef struct wargs {
  char *s[MAX_ARGS + 1];
  int b[MAX_ARGS + 1];
  hl_hms_database_t *db;
  hl_hms_table_t *tbl;
  hl_hms_partition_t *part;
  hl_hms_strlist_t vals;
  hl_hms_partition_t *parts;
  uint32_t n_parts;
  hl_hms_add_partitions_request_t *add;
  hl_hms_drop_partitions_request_t *drop;
  char *cat;          /* a request's catName */
  int ignore_unknown; /* DropDatabaseRequest.ignoreUnknownDb */
} wargs_t;

static hl_status_t alloc(hl_hms_dec_t *d, size_t n, void **out) {
  if (!(*out = hl_arena_zalloc(d->arena, n))) return hl_err_nomem(d->r.err);
  return HL_OK;
}

/* The Hive 4 request structs, of which only these fields are used (the
 * rest are skipped):
 *   'R' CreateTableRequest     1 table
 *   'a' AlterTableRequest      1 catName, 2 dbName, 3 tableName, 4 table
 *   'p' AlterPartitionsRequest 1 catName, 2 dbName, 3 tableName, 4 partitions
 *   'r' RenamePartitionRequest 1 catName, 2 dbName, 3 tableName, 4 partVals,
 *                              5 newPart
 *   'd' DropTableRequest       1 catalogName, 2 dbName, 3 tableName,
 *                              4 deleteData
 *   'x' DropDatabaseRequest    1 name, 2 catalogName, 3 ignoreUnknownDb,
 *                              4 deleteData, 5 cascade
 * (CreateDatabaseRequest has Database's field ids and types: 'D'.)
 * dbName and tableName land in s[1], s[2] (as the older methods' first
 * arguments), deleteData in b[3]; for 'x' the name in s[1], deleteData
 * and cascade in b[2], b[3] (drop_database's), ignoreUnknownDb in
 * ignore_unknown. */
static hl_status_t read_req(hl_hms_dec_t *d, wargs_t *a, char kind) {
  hl_ttype_t t;
  int16_t id;
  unsigned seen = 0, need;
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    int used = 1;
    if (kind == 'x' && (id == 1 || id == 2) && t == HL_TT_STRING)
      rc = hl_hms_read_string(d, id == 1 ? &a->s[1] : &a->cat);
    else if (kind == 'x' && id >= 3 && id <= 5 && t == HL_TT_BOOL)
      rc = hl_tr_bool(&d->r, id == 3 ? &a->ignore_unknown : &a->b[id - 2]);
    else if (kind == 'x')
      used = 0;
    else if (kind == 'R' && id == 1 && t == HL_TT_STRUCT)
      rc = alloc(d, sizeof *a->tbl, (void **)&a->tbl) ? d->r.err->code
                                                      : hl_hms_read_table(d, a->tbl);
    else if (kind != 'R' && id == 1 && t == HL_TT_STRING)
      rc = hl_hms_read_string(d, &a->cat);
    else if (kind != 'R' && (id == 2 || id == 3) && t == HL_TT_STRING)
      rc = hl_hms_read_string(d, &a->s[id - 1]);
    else if (kind == 'a' && id == 4 && t == HL_TT_STRUCT)
      rc = alloc(d, sizeof *a->tbl, (void **)&a->tbl) ? d->r.err->code
                                                      : hl_hms_read_table(d, a->tbl);
    else if (kind == 'p' && id == 4 && t == HL_TT_LIST)
      rc = hl_hms_read_partition_list(d, &a->parts, &a->n_parts);
    else if (kind == 'r' && id == 4 && t == HL_TT_LIST)
      rc = hl_hms_read_strlist(d, &a->vals);
    else if (kind == 'r' && id == 5 && t == HL_TT_STRUCT)
      rc = alloc(d, sizeof *a->part, (void **)&a->part) ? d->r.err->code
                                                        : hl_hms_read_partition(d, a->part);
    else if (kind == 'd' && id == 4 && t == HL_TT_BOOL)
      rc = hl_tr_bool(&d->r, &a->b[3]);
    else
      used = 0;
    if (!used)
      rc = hl_tr_skip(&d->r, t);
    else if (id < 16)
      seen |= 1u << id;
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  need = kind == 'R' ? 0x2 : kind == 'd' ? 0xc : kind == 'r' ? 0x3c : kind == 'x' ? 0x3a : 0x1c;
  if (!rc && (seen & need) != need)
    rc = hl_tr_fail(&d->r, "%s lacks a required field",
                    kind == 'R'   ? "CreateTableRequest"
                    : kind == 'a' ? "AlterTableRequest"
                    : kind == 'p' ? "AlterPartitionsRequest"
                    : kind == 'r' ? "RenamePartitionRequest"
                    : kind == 'x' ? "DropDatabaseRequest"
                                  : "DropTableRequest");
  return rc;
}

static hl_status_t read_wargs(hl_hms_dec_t *d, const char *spec, wargs_t *a) {
  hl_ttype_t t;
  int16_t id;
  memset(a, 0, sizeof *a);
  size_t n = strlen(spec);
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    char k = id >= 1 && (size_t)id <= n ? spec[id - 1] : '-';
    if (k == 's' && t == HL_TT_STRING)
      rc = hl_hms_read_string(d, &a->s[id]);
    else if (k == 'b' && t == HL_TT_BOOL)
      rc = hl_tr_bool(&d->r, &a->b[id]);
    else if (k == 'L' && t == HL_TT_LIST)
      rc = hl_hms_read_strlist(d, &a->vals);
    else if (k == 'Q' && t == HL_TT_LIST)
      rc = hl_hms_read_partition_list(d, &a->parts, &a->n_parts);
    else if (t != HL_TT_STRUCT || strchr("DTPEAXRaprdx", k) == NULL)
      rc = hl_tr_skip(&d->r, t);
    else if (k == 'D')
      rc = alloc(d, sizeof *a->db, (void **)&a->db) ? d->r.err->code
                                                    : hl_hms_read_database(d, a->db);
    else if (k == 'T')
      rc = alloc(d, sizeof *a->tbl, (void **)&a->tbl) ? d->r.err->code
                                                      : hl_hms_read_table(d, a->tbl);
    else if (k == 'P')
      rc = alloc(d, sizeof *a->part, (void **)&a->part) ? d->r.err->code
                                                        : hl_hms_read_partition(d, a->part);
    else if (k == 'A')
      rc = alloc(d, sizeof *a->add, (void **)&a->add)
               ? d->r.err->code
               : hl_hms_read_add_partitions_request(d, a->add);
    else if (k == 'X')
      rc = alloc(d, sizeof *a->drop, (void **)&a->drop)
               ? d->r.err->code
               : hl_hms_read_drop_partitions_request(d, a->drop);
    else if (strchr("Raprdx", k))
      rc = read_req(d, a, k);
    else { /* 'E' */
      hl_hms_env_context_t env;
      rc = hl_hms_read_env_context(d, &env);
    }
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  return rc;
}

/* ------------------------------------------------------------ helpers */

/* The outcome of a step: HL_OK, or the exception to answer (EXC_ID and
 * its message in E); OOM and protocol trouble go to the caller's ERR. */
typedef hl_hms_outcome_t outcome_t;

hl_status_t hl_hms_wfail(hl_hms_outcome_t *o, int16_t id) {
  o->exc_id = id;
  return HL_ERROR;
}

#define fail hl_hms_wfail

static hl_status_t failf(outcome_t *o, int16_t id, const char *state, const char *msg,
                         const char *a1, const char *a2) {
  hl_err_clear(&o->e);
  hl_err_set(&o->e, HL_ERROR, state, msg, a1 ? a1 : "", a2 ? a2 : "");
  return fail(o, id);
}

/* "@hive#db" to "db" (Hive 3+ clients prefix the catalog); another
 * catalog is refused (hivelite has only Hive's default one). */
static const char *db_name(hl_hms_wcall_t *c, const char *raw, outcome_t *o, int16_t id) {
  (void)c;
  if (!raw) {
    failf(o, id, HL_SS(INVALID_SCHEMA_NAME), "no database name given%s%s", NULL, NULL);
    return NULL;
  }
  if (raw[0] != '@') return raw;
  const char *hash = strchr(raw, '#');
  if (!hash) return raw;
  size_t n = (size_t)(hash - raw - 1);
  if (n != strlen(HL_HMS_CATALOG) || strncmp(raw + 1, HL_HMS_CATALOG, n) != 0 || !hash[1]) {
    failf(o, id, HL_SS(INVALID_SCHEMA_NAME), "catalog of \"%s\" does not exist%s", raw, NULL);
    return NULL;
  }
  return hash + 1;
}

/* The warehouse: the location of the default database. */
static hl_status_t warehouse(hl_hms_wcall_t *c, char **out, hl_error_t *err) {
  hl_cat_db_t *db;
  hl_status_t rc = hl_cat_db_get(c->cat, "default", c->arena, &db, err);
  if (rc == HL_OK) *out = db->location;
  return rc;
}

static int path_under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1 && dir[0] == '/') return path[0] == '/';
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* May PATH be removed as an object's own data?  Not the warehouse root or
 * a parent of it, not the metastore directory or anything in it. */
static int removable(const char *path, const char *wh) {
  if (!path || path[0] != '/' || strcmp(path, "/") == 0 || path_under(wh, path)) return 0;
  if (!path_under(path, wh)) return 1;
  const char *rest = path + (strcmp(wh, "/") == 0 ? 0 : strlen(wh)); /* "/..." */
  return !(strncmp(rest, "/.hivelite", 10) == 0 && (rest[10] == '\0' || rest[10] == '/'));
}

/* Creates directory PATH and its missing parents; *CREATED is the
 * top-most one created (NULL: it existed), for undo_mkdirs. */
static hl_status_t mkdirs_tracked(hl_hms_wcall_t *c, const char *path, char **created,
                                  hl_error_t *err) {
  hl_stor_t *fs = c->env->fs;
  hl_stor_stat_t st;
  hl_error_t e;
  *created = NULL;
  if (hl_uri_object_root(path)) return HL_OK; /* an object store has no directories */
  char *top = NULL;
  for (char *p = hl_arena_strdup(c->arena, path); p && p[1];) {
    hl_err_init(&e);
    hl_status_t rc = fs->ops->stat(fs, p, &st, &e);
    hl_err_clear(&e);
    if (rc == HL_OK && st.exists) break;
    top = p;
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) break;
    p = hl_arena_strndup(c->arena, p, (size_t)(slash - p));
  }
  if (!top) return HL_OK;
  hl_status_t rc = fs->ops->mkdirs(fs, path, err);
  if (rc == HL_OK) *created = top;
  return rc;
}

/* Removes what mkdirs_tracked created for PATH: PATH and its parents up
 * to CREATED, while they are empty. */
static void undo_mkdirs(hl_hms_wcall_t *c, const char *path, const char *created) {
  if (!created) return;
  hl_stor_t *fs = c->env->fs;
  hl_error_t e;
  for (char *p = hl_arena_strdup(c->arena, path); p && path_under(p, created);) {
    hl_err_init(&e);
    hl_status_t rc = fs->ops->rmdir(fs, p, &e);
    hl_err_clear(&e);
    if (rc != HL_OK || strcmp(p, created) == 0) break;
    char *slash = strrchr(p, '/');
    p = slash && slash != p ? hl_arena_strndup(c->arena, p, (size_t)(slash - p)) : NULL;
  }
}

/* Runs STEP inside one catalog transaction, creating directories
 * DIRS[0..N) (NULL entries skipped) before the commit and removing them
 * again when anything fails. */
typedef hl_status_t (*cat_step_fn)(hl_hms_wcall_t *c, void *arg, hl_error_t *err);

static hl_status_t in_txn(hl_hms_wcall_t *c, cat_step_fn step, void *arg, char *const *dirs,
                          size_t n, hl_error_t *err) {
  char **created = hl_arena_zalloc(c->arena, sizeof(char *) * (n ? n : 1));
  if (!created) return hl_err_nomem(err);
  hl_status_t rc = hl_cat_begin(c->cat, err);
  if (rc) return rc;
  rc = step(c, arg, err);
  for (size_t i = 0; rc == HL_OK && i < n; i++)
    if (dirs[i]) rc = mkdirs_tracked(c, dirs[i], &created[i], err);
  if (rc == HL_OK) rc = hl_cat_commit(c->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(c->cat);
    for (size_t i = n; i-- > 0;)
      if (dirs[i]) undo_mkdirs(c, dirs[i], created[i]);
  }
  return rc;
}

/* The catalog error in E as the reply: HL_NOTFOUND to NOSUCH, HL_CONSTRAINT
 * to EXISTS, HL_ERROR/HL_MISUSE to INVALID, the rest (I/O, a read-only
 * metastore) to META; an id of 0 falls back to META. */
static hl_status_t classify(outcome_t *o, hl_status_t rc, int16_t nosuch, int16_t exists,
                            int16_t invalid, int16_t meta) {
  int16_t id = meta;
  if (rc == HL_NOTFOUND && nosuch) id = nosuch;
  if (rc == HL_CONSTRAINT && exists) id = exists;
  if ((rc == HL_ERROR || rc == HL_MISUSE) && invalid) id = invalid;
  return fail(o, id);
}

/* ---------------------------------------------------------- databases */

static hl_status_t db_create_step(hl_hms_wcall_t *c, void *arg, hl_error_t *err) {
  return hl_cat_db_create(c->cat, arg, err);
}

/* create_database throws (1 AlreadyExists, 2 InvalidObject, 3 Meta) */
static hl_status_t do_create_database(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                      hl_error_t *err) {
  hl_cat_db_t db;
  char *wh;
  if (!a->db) return failf(o, 2, HL_SS(INVALID_PARAMETER_VALUE), "no database given%s%s", 0, 0);
  hl_status_t rc = hl_hms_unmap_database(a->db, HL_HMS_UNMAP_CHECK, c->arena, &db, &o->e);
  if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 2);
  if (!db.location) {
    if ((rc = warehouse(c, &wh, &o->e))) return fail(o, 3);
    if (!(db.location = hl_arena_sprintf(c->arena, "%s/%s.db", wh, db.name)))
      return hl_err_nomem(err);
  }
  rc = in_txn(c, db_create_step, &db, &db.location, 1, &o->e);
  return rc ? classify(o, rc, 0, 1, 2, 3) : HL_OK;
}

static hl_status_t db_update_step(hl_hms_wcall_t *c, void *arg, hl_error_t *err) {
  return hl_cat_db_update(c->cat, arg, err);
}

/* alter_database(1 dbname, 2 db) throws (1 Meta, 2 NoSuchObject): the
 * comment, owner, parameters and location change (a new location moves
 * no data, as in Hive). */
static hl_status_t do_alter_database(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                     hl_error_t *err) {
  const char *name = db_name(c, a->s[1], o, 2);
  hl_cat_db_t *old, nd;
  if (!name) return HL_ERROR;
  hl_status_t rc = hl_cat_db_get(c->cat, name, c->arena, &old, &o->e);
  if (rc) return classify(o, rc, 2, 0, 0, 1);
  if (!a->db) return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE), "no database given%s%s", 0, 0);
  hl_hms_database_t copy = *a->db;
  copy.name = old->name; /* Hive cannot rename a database either */
  if ((rc = hl_hms_unmap_database(&copy, HL_HMS_UNMAP_CHECK, c->arena, &nd, &o->e)))
    return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
  if (!nd.location) nd.location = old->location;
  rc = in_txn(c, db_update_step, &nd, NULL, 0, &o->e);
  return rc ? classify(o, rc, 2, 0, 0, 1) : HL_OK;
}

/* ------------------------------------------------------------- drops */

/* One drop through a txn/ write (hivelite's DROP protocol): the write
 * locks of TABLES, their directories to remove, then APPLY's catalog
 * change in the commit. */
typedef struct drop_plan {
  hl_hms_wcall_t *c;
  const char *db;          /* drop_database: the database */
  int cascade;             /* drop_database's cascade */
  hl_cat_table_t **tables; /* tables whose write lock is taken */
  size_t n_tables;
  int64_t drop_table;         /* drop_table: the table id */
  hl_cat_partition_t **parts; /* drop_partition*: the partitions */
  size_t n_parts;
} drop_plan_t;

static hl_status_t drop_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  drop_plan_t *p = arg;
  (void)txn;
  if (p->db) return hl_cat_db_drop(p->c->cat, p->db, p->cascade, err);
  if (p->drop_table) return hl_cat_table_drop(p->c->cat, p->drop_table, err);
  hl_status_t rc = HL_OK;
  for (size_t i = 0; rc == HL_OK && i < p->n_parts; i++)
    rc = hl_cat_partition_drop(p->c->cat, p->parts[i]->id, err);
  return rc;
}

/* Refuses (MetaException text in E) removing DIR as the data of table T
 * when another database, table or partition lies at or under it, or when
 * it is the warehouse root or the metastore; *OK is 0 when DIR is not
 * removable at all (then nothing is removed, the metadata still goes, as
 * hivelite's DROP does). */
static hl_status_t check_drop_dir(hl_hms_wcall_t *c, const char *dir, const hl_cat_table_t *t,
                                  const char *db, int whole_table, const char *wh, int *ok,
                                  hl_error_t *e) {
  *ok = removable(dir, wh);
  if (!*ok) return HL_OK;
  hl_cat_location_user_t *u;
  size_t n;
  hl_status_t rc = hl_cat_locations_within(c->cat, dir, c->arena, &u, &n, e);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    int mine = db ? strcmp(u[i].db, db) == 0
                  : u[i].table_id == t->id &&
                        (whole_table || u[i].partition_id == 0 || strcmp(u[i].location, dir) == 0);
    if (!mine)
      return hl_err_set(e, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                        "cannot remove \"%s\": it holds the location \"%s\" of %s%s%s%s%s", dir,
                        u[i].location, u[i].table ? "table " : "database ", u[i].db,
                        u[i].table ? "." : "", u[i].table ? u[i].table : "",
                        u[i].partition ? " (a partition)" : "");
  }
  return rc;
}

/* Adds the removal of managed table T's data (its directory, and its
 * partitions' directories outside it) to TXN; STOP as
 * hl_txn_target_add_drop's. */
static hl_status_t add_table_data(hl_hms_wcall_t *c, hl_txn_t *txn, const hl_cat_table_t *t,
                                  const char *db, const char *wh, const char *stop, hl_error_t *e) {
  hl_txn_target_t *tgt;
  int ok;
  hl_status_t rc = check_drop_dir(c, t->location, t, db, 1, wh, &ok, e);
  if (rc == HL_OK && ok) rc = hl_txn_target_add_drop(txn, t->location, stop, &tgt, e);
  if (rc != HL_OK || t->n_part_keys == 0) return rc;
  hl_cat_partition_t *parts;
  size_t n;
  rc = hl_cat_partition_list(c->cat, t->id, c->arena, &parts, &n, e);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    if (path_under(parts[i].location, t->location)) continue;
    rc = check_drop_dir(c, parts[i].location, t, db, 1, wh, &ok, e);
    if (rc == HL_OK && ok) rc = hl_txn_target_add_drop(txn, parts[i].location, NULL, &tgt, e);
  }
  return rc;
}

static hl_status_t txn_start(hl_hms_wcall_t *c, const char *wh, hl_txn_t **txn, hl_error_t *e) {
  hl_status_t rc = hl_txn_begin(c->cat, c->env->fs, "drop", NULL, c->arena, txn, e);
  if (rc) return rc;
  char *dir = hl_txn_lock_dir(c->arena, wh);
  rc = dir ? hl_txn_set_lock_dir(*txn, dir, e) : hl_err_nomem(e);
  if (rc) hl_txn_abort(*txn);
  return rc;
}

static hl_status_t lock_table(hl_txn_t *txn, const hl_cat_table_t *t, hl_arena_t *arena,
                              hl_error_t *e) {
  char *name = hl_arena_sprintf(arena, "%s.%s", t->db_name, t->name);
  return name ? hl_txn_lock_add(txn, name, e) : hl_err_nomem(e);
}

/* drop_database(1 name, 2 deleteData, 3 cascade) throws (1 NoSuchObject,
 * 2 InvalidOperation, 3 Meta) */
static hl_status_t do_drop_database(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                    hl_error_t *err) {
  const char *name = db_name(c, a->s[1], o, 1);
  hl_cat_db_t *db;
  char *wh, **names;
  size_t n;
  if (!name) return HL_ERROR;
  hl_status_t rc = hl_cat_db_get(c->cat, name, c->arena, &db, &o->e);
  if (rc) return classify(o, rc, 1, 0, 0, 3);
  if (strcmp(db->name, "default") == 0)
    return failf(o, 2, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                 "cannot drop the default database%s%s", 0, 0);
  if ((rc = warehouse(c, &wh, &o->e)) ||
      (rc = hl_cat_table_list(c->cat, db->name, c->arena, &names, &n, &o->e)))
    return fail(o, 3);
  if (n && !a->b[3])
    return failf(o, 2, HL_SS(DEPENDENT_OBJECTS_STILL_EXIST),
                 "database \"%s\" is not empty: it holds tables (cascade is false)%s", db->name, 0);
  hl_cat_table_t **tables = hl_arena_zalloc(c->arena, sizeof *tables * (n ? n : 1));
  if (!tables) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    if ((rc = hl_cat_table_get(c->cat, db->name, names[i], c->arena, &tables[i], &o->e)))
      return fail(o, 3);
  char *def = hl_arena_sprintf(c->arena, "%s/%s.db", wh, db->name);
  if (!def) return hl_err_nomem(err);
  int own_dir = a->b[2] && strcmp(def, db->location) == 0 && removable(def, wh);
  const char *stop = NULL;
  if (own_dir && !(stop = hl_arena_strdup(c->arena, wh))) return hl_err_nomem(err);
  hl_txn_t *txn;
  if ((rc = txn_start(c, wh, &txn, &o->e))) return fail(o, 3);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    rc = lock_table(txn, tables[i], c->arena, &o->e);
    if (rc == HL_OK && a->b[2] && !tables[i]->external && !tables[i]->view)
      rc = add_table_data(c, txn, tables[i], db->name, wh,
                          own_dir && path_under(tables[i]->location, def) ? stop : NULL, &o->e);
  }
  if (rc) {
    hl_txn_abort(txn);
    return fail(o, 3);
  }
  drop_plan_t p = {c, db->name, 1, tables, n, 0, NULL, 0};
  if ((rc = hl_txn_commit(txn, drop_apply, &p, &o->e))) return fail(o, 3);
  if (own_dir) { /* the default directory goes once empty */
    hl_error_t e;
    hl_err_init(&e);
    c->env->fs->ops->rmdir(c->env->fs, def, &e);
    hl_err_clear(&e);
  }
  return HL_OK;
}

/* ------------------------------------------------------------- tables */

/* Is LOC already the location of another table or of a partition
 * (hivelite keeps one object per directory)?  The InvalidObject text in E. */
static hl_status_t check_table_location(hl_hms_wcall_t *c, const char *loc, int64_t self,
                                        hl_error_t *e) {
  hl_cat_location_user_t *u;
  size_t n;
  const char *paths[1] = {loc};
  hl_status_t rc = hl_cat_locations_at(c->cat, paths, 1, c->arena, &u, &n, e);
  for (size_t i = 0; rc == HL_OK && i < n; i++)
    if (u[i].table_id && u[i].table_id != self)
      return hl_err_set(e, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                        "location \"%s\" is already the location of %s %s.%s", loc,
                        u[i].partition ? "a partition of table" : "table", u[i].db, u[i].table);
  return rc;
}

static hl_status_t table_create_step(hl_hms_wcall_t *c, void *arg, hl_error_t *err) {
  return hl_cat_table_create(c->cat, arg, err);
}

/* create_table* throws (1 AlreadyExists, 2 InvalidObject, 3 Meta,
 * 4 NoSuchObject) */
static hl_status_t do_create_table(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                   hl_error_t *err) {
  hl_cat_table_t t;
  hl_cat_db_t *db;
  if (!a->tbl) return failf(o, 2, HL_SS(INVALID_PARAMETER_VALUE), "no table given%s%s", 0, 0);
  hl_hms_table_t copy = *a->tbl;
  if (!(copy.db_name = (char *)db_name(c, a->tbl->db_name, o, 4))) return HL_ERROR;
  hl_status_t rc = hl_hms_unmap_table(&copy, HL_HMS_UNMAP_CHECK, c->arena, &t, &o->e);
  if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 2);
  if ((rc = hl_cat_db_get(c->cat, t.db_name, c->arena, &db, &o->e)))
    return classify(o, rc, 4, 0, 0, 3);
  hl_cat_table_t *old;
  rc = hl_cat_table_get(c->cat, t.db_name, t.name, c->arena, &old, &o->e);
  if (rc == HL_OK)
    return failf(o, 1, HL_SS(DUPLICATE_TABLE), "table \"%s.%s\" already exists", t.db_name, t.name);
  if (rc != HL_NOTFOUND) return fail(o, 3);
  hl_err_clear(&o->e);
  if (!t.view && !t.location &&
      !(t.location = hl_arena_sprintf(c->arena, "%s/%s", db->location, t.name)))
    return hl_err_nomem(err);
  if (!t.view && (rc = check_table_location(c, t.location, 0, &o->e)))
    return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 2);
  rc = in_txn(c, table_create_step, &t, t.view ? NULL : &t.location, t.view ? 0 : 1, &o->e);
  return rc ? classify(o, rc, 4, 1, 2, 3) : HL_OK;
}

/* drop_table*(1 dbname, 2 name, 3 deleteData) throws (1 NoSuchObject,
 * 2 Meta) */
static hl_status_t do_drop_table(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                 hl_error_t *err) {
  const char *db = db_name(c, a->s[1], o, 1);
  hl_cat_table_t *t;
  char *wh;
  (void)err;
  if (!db) return HL_ERROR;
  if (!a->s[2]) return failf(o, 1, HL_SS(UNDEFINED_TABLE), "no table name given%s%s", 0, 0);
  hl_status_t rc = hl_cat_table_get(c->cat, db, a->s[2], c->arena, &t, &o->e);
  if (rc) return classify(o, rc, 1, 0, 0, 2);
  if ((rc = warehouse(c, &wh, &o->e))) return fail(o, 2);
  hl_txn_t *txn;
  if ((rc = txn_start(c, wh, &txn, &o->e))) return fail(o, 2);
  rc = lock_table(txn, t, c->arena, &o->e);
  if (rc == HL_OK && a->b[3] && !t->external && !t->view)
    rc = add_table_data(c, txn, t, NULL, wh, NULL, &o->e);
  if (rc) {
    hl_txn_abort(txn);
    return fail(o, 2);
  }
  drop_plan_t p = {c, NULL, 0, &t, 1, t->id, NULL, 0};
  return hl_txn_commit(txn, drop_apply, &p, &o->e) ? fail(o, 2) : HL_OK;
}

typedef struct alter_arg {
  hl_cat_table_t *nt;
  int cascade;
  hl_cat_partition_t *parts; /* partitions whose location moved with the table */
  size_t n_parts;
} alter_arg_t;

static hl_status_t alter_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  hl_hms_wcall_t *c = ((void **)arg)[0];
  alter_arg_t *x = ((void **)arg)[1];
  (void)txn;
  hl_status_t rc = hl_cat_table_update(c->cat, x->nt, err);
  if (rc == HL_OK && x->cascade && x->nt->n_part_keys)
    rc = hl_cat_partition_set_columns_all(c->cat, x->nt->id, x->nt->cols, x->nt->n_cols, err);
  for (size_t i = 0; rc == HL_OK && i < x->n_parts; i++)
    rc = hl_cat_partition_update(c->cat, &x->parts[i], err);
  return rc;
}

static int same_keys(const hl_cat_table_t *a, const hl_cat_table_t *b) {
  if (a->n_part_keys != b->n_part_keys) return 0;
  for (int i = 0; i < a->n_part_keys; i++)
    if (strcmp(a->part_keys[i].name, b->part_keys[i].name) != 0 ||
        strcmp(a->part_keys[i].type, b->part_keys[i].type) != 0)
      return 0;
  return 1;
}

/* alter_table*(1 dbname, 2 tbl_name, 3 new_tbl[, 4 cascade]) throws
 * (1 InvalidOperation, 2 Meta).  A rename of a managed table at its
 * default location moves its directory to the new default one (as
 * hivelite's and Hive's RENAME do), its partitions under it with it;
 * everything else is metadata. */
static hl_status_t do_alter_table(hl_hms_wcall_t *c, const char *raw_db, const char *name,
                                  int cascade, const hl_hms_table_t *nt_h, outcome_t *o,
                                  hl_error_t *err) {
  const char *db = db_name(c, raw_db, o, 1);
  hl_cat_table_t *t, nt;
  hl_cat_db_t *ndb;
  char *wh;
  if (!db) return HL_ERROR;
  if (!name || !nt_h)
    return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE), "no table given%s%s", 0, 0);
  hl_status_t rc = hl_cat_table_get(c->cat, db, name, c->arena, &t, &o->e);
  if (rc) return classify(o, rc, 1, 0, 0, 2);
  hl_hms_table_t copy = *nt_h;
  if (!copy.db_name) copy.db_name = t->db_name;
  if (!(copy.db_name = (char *)db_name(c, copy.db_name, o, 1))) return HL_ERROR;
  if ((rc = hl_hms_unmap_table(&copy, HL_HMS_UNMAP_CHECK, c->arena, &nt, &o->e)))
    return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
  if (nt.view != t->view)
    return failf(o, 1, HL_SS(WRONG_OBJECT_TYPE),
                 "cannot change \"%s.%s\" between a view and a table", t->db_name, t->name);
  if (!same_keys(t, &nt))
    return failf(o, 1, HL_SS(FEATURE_NOT_SUPPORTED),
                 "the partition columns of \"%s.%s\" cannot change", t->db_name, t->name);
  nt.id = t->id;
  nt.create_time = t->create_time;
  if (!nt.view && !nt.location) nt.location = t->location;
  alter_arg_t x = {&nt, cascade, NULL, 0};
  int renamed = strcmp(nt.db_name, t->db_name) != 0 || strcmp(nt.name, t->name) != 0;
  if ((rc = hl_cat_db_get(c->cat, nt.db_name, c->arena, &ndb, &o->e)))
    return classify(o, rc, 1, 0, 0, 2);
  hl_cat_db_t *odb;
  if ((rc = hl_cat_db_get(c->cat, t->db_name, c->arena, &odb, &o->e))) return fail(o, 2);
  char *old_def = hl_arena_sprintf(c->arena, "%s/%s", odb->location, t->name);
  char *new_def = hl_arena_sprintf(c->arena, "%s/%s", ndb->location, nt.name);
  if (!old_def || !new_def) return hl_err_nomem(err);
  int move = renamed && !t->external && !t->view && strcmp(t->location, old_def) == 0 &&
             strcmp(nt.location, t->location) == 0;
  if ((rc = warehouse(c, &wh, &o->e))) return fail(o, 2);
  hl_txn_t *txn;
  if ((rc = txn_start(c, wh, &txn, &o->e))) return fail(o, 2);
  rc = lock_table(txn, t, c->arena, &o->e);
  if (rc == HL_OK && renamed) rc = lock_table(txn, &nt, c->arena, &o->e);
  if (rc == HL_OK && move) {
    nt.location = new_def;
    if (!removable(t->location, wh))
      rc = hl_err_set(&o->e, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                      "the directory of \"%s.%s\" cannot move", t->db_name, t->name);
    if (rc == HL_OK) rc = check_table_location(c, new_def, t->id, &o->e);
    if (rc == HL_OK) rc = hl_txn_move_add(txn, t->location, new_def, &o->e);
    hl_cat_partition_t *parts = NULL;
    size_t n = 0;
    if (rc == HL_OK && t->n_part_keys)
      rc = hl_cat_partition_list(c->cat, t->id, c->arena, &parts, &n, &o->e);
    x.parts = parts;
    for (size_t i = 0; rc == HL_OK && i < n; i++) {
      if (!path_under(parts[i].location, t->location)) continue;
      char *nl =
          hl_arena_sprintf(c->arena, "%s%s", new_def, parts[i].location + strlen(t->location));
      if (!nl) rc = hl_err_nomem(&o->e);
      parts[i].location = nl;
      parts[i].sd = NULL; /* keeps its descriptor */
      x.parts[x.n_parts++] = parts[i];
    }
  } else if (rc == HL_OK && !nt.view && strcmp(nt.location, t->location) != 0) {
    rc = check_table_location(c, nt.location, t->id, &o->e);
  }
  if (rc) {
    hl_txn_abort(txn);
    return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, rc == HL_ERROR ? 1 : 2);
  }
  void *arg[2] = {c, &x};
  rc = hl_txn_commit(txn, alter_apply, arg, &o->e);
  return rc ? classify(o, rc, 1, 1, 1, 2) : HL_OK;
}

/* --------------------------------------------------------- partitions */

hl_cat_table_t *hl_hms_wtable(hl_hms_wcall_t *c, const char *raw_db, const char *tbl,
                              int16_t nosuch, int16_t meta, hl_hms_outcome_t *o) {
  const char *db = db_name(c, raw_db, o, nosuch);
  hl_cat_table_t *t;
  if (!db) return NULL;
  if (!tbl) {
    failf(o, nosuch, HL_SS(UNDEFINED_TABLE), "no table name given%s%s", 0, 0);
    return NULL;
  }
  hl_status_t rc = hl_cat_table_get(c->cat, db, tbl, c->arena, &t, &o->e);
  if (rc) {
    classify(o, rc, nosuch, 0, 0, meta);
    return NULL;
  }
  return t;
}

/* The table of a partition call, with the exception ids for a missing
 * table (NOSUCH) and other trouble (META). */
static hl_cat_table_t *part_table(hl_hms_wcall_t *c, const char *raw_db, const char *tbl,
                                  int16_t nosuch, int16_t meta, outcome_t *o) {
  hl_cat_table_t *t = hl_hms_wtable(c, raw_db, tbl, nosuch, meta, o);
  if (!t) return NULL;
  if (t->n_part_keys == 0) {
    failf(o, nosuch, HL_SS(WRONG_OBJECT_TYPE), "table \"%s.%s\" is not partitioned", t->db_name,
          t->name);
    return NULL;
  }
  return t;
}

/* hivelite's rule for partition locations (cmd_partition.c): not the
 * location of another partition of the same table nor inside one, and
 * not inside one of NEWS[0..n) being added with it. */
static hl_status_t check_part_location(hl_hms_wcall_t *c, const hl_cat_table_t *t,
                                       const hl_cat_partition_t *p, int64_t self,
                                       const hl_cat_partition_t *news, size_t n_news,
                                       hl_error_t *e) {
  size_t depth = 1;
  for (const char *q = p->location; *q; q++)
    depth += *q == '/';
  const char **paths = hl_arena_alloc(c->arena, sizeof(char *) * depth);
  if (!paths) return hl_err_nomem(e);
  size_t np = 0;
  for (char *q = hl_arena_strdup(c->arena, p->location); q && *q && np < depth;) {
    paths[np++] = q;
    char *slash = strrchr(q, '/');
    if (!slash || slash == q) break;
    q = hl_arena_strndup(c->arena, q, (size_t)(slash - q));
  }
  hl_cat_location_user_t *u;
  size_t n;
  hl_status_t rc = hl_cat_locations_at(c->cat, paths, np, c->arena, &u, &n, e);
  const char *other = NULL, *at = NULL;
  for (size_t i = 0; rc == HL_OK && !other && i < n; i++)
    if (u[i].table_id == t->id && u[i].partition_id && u[i].partition_id != self) {
      other = u[i].partition;
      at = u[i].location;
    }
  for (size_t i = 0; rc == HL_OK && !other && i < n_news; i++)
    if (path_under(p->location, news[i].location)) {
      other = news[i].name;
      at = news[i].location;
    }
  if (rc != HL_OK || !other) return rc;
  return hl_err_set(e, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                    strcmp(at, p->location) == 0
                        ? "location \"%s\" of partition \"%s\" is already the location of "
                          "partition \"%s\" of table \"%s.%s\""
                        : "location \"%s\" of partition \"%s\" lies inside the location of "
                          "partition \"%s\" of table \"%s.%s\"",
                    p->location, p->name, other, t->db_name, t->name);
}

typedef struct add_arg {
  hl_cat_partition_t *parts;
  size_t n;
} add_arg_t;

static hl_status_t add_step(hl_hms_wcall_t *c, void *arg, hl_error_t *err) {
  add_arg_t *x = arg;
  return x->n ? hl_cat_partition_add_many(c->cat, x->parts, x->n, err) : HL_OK;
}

static int same_values(char *const *a, char *const *b, int n) {
  for (int i = 0; i < n; i++)
    if (!a[i] || !b[i] ? a[i] != b[i] : strcmp(a[i], b[i]) != 0) return 0;
  return 1;
}

/* Adds partitions HP[0..n) (catalog values from the client) or, with
 * VALS, the one partition of those values at its default location, to
 * table RAW_DB.TBL (NULL: each partition's own dbName/tableName, which
 * must all name one table): all or none.  Duplicates are
 * AlreadyExistsException (2) unless IF_NOT_EXISTS (then skipped);
 * invalid values, locations and a missing table are InvalidObject (1);
 * the rest Meta (3) -- the ids of add_partition*, append_partition* and
 * add_partitions_req alike.  *OUT / *N_OUT: the partitions added, as
 * read back. */
static hl_status_t add_parts(hl_hms_wcall_t *c, const char *raw_db, const char *tbl,
                             const hl_hms_partition_t *hp, uint32_t n, int if_not_exists,
                             outcome_t *o, hl_hms_partition_t **out, uint32_t *n_out,
                             hl_error_t *err) {
  if (n == 0) {
    *out = NULL;
    *n_out = 0;
    return HL_OK;
  }
  if (!raw_db) raw_db = hp[0].db_name;
  if (!tbl) tbl = hp[0].table_name;
  hl_cat_table_t *t = part_table(c, raw_db, tbl, 1, 3, o);
  if (!t) return HL_ERROR;
  hl_cat_partition_t *parts = hl_arena_zalloc(c->arena, sizeof *parts * n);
  char **dirs = hl_arena_zalloc(c->arena, sizeof(char *) * n);
  if (!parts || !dirs) return hl_err_nomem(err);
  size_t k = 0;
  hl_status_t rc;
  for (uint32_t i = 0; i < n; i++) {
    const hl_hms_partition_t *p = &hp[i];
    if ((p->db_name || p->table_name) &&
        (!p->table_name || strcasecmp(p->table_name, t->name) != 0))
      return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE),
                   "partition of table \"%s\" given in a call for table \"%s\"",
                   p->table_name ? p->table_name : "", t->name);
    hl_cat_partition_t *cp = &parts[k];
    if ((rc = hl_hms_unmap_partition(t, p, HL_HMS_UNMAP_CHECK, c->arena, cp, &o->e)))
      return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
    hl_cat_partition_t *old;
    rc = hl_cat_partition_get(c->cat, t->id, cp->values, cp->n_values, c->arena, &old, &o->e);
    int dup = rc == HL_OK;
    if (rc != HL_OK && rc != HL_NOTFOUND) return fail(o, 3);
    hl_err_clear(&o->e);
    for (size_t j = 0; j < k && !dup; j++)
      dup = same_values(parts[j].values, cp->values, cp->n_values);
    if (dup) {
      if (if_not_exists) continue;
      return failf(o, 2, HL_SS(DUPLICATE_OBJECT), "partition \"%s\" already exists in table %s",
                   cp->name, t->name);
    }
    if ((rc = check_part_location(c, t, cp, 0, parts, k, &o->e)))
      return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
    dirs[k++] = cp->location;
  }
  add_arg_t x = {parts, k};
  if ((rc = in_txn(c, add_step, &x, dirs, k, &o->e))) return classify(o, rc, 1, 2, 1, 3);
  *out = hl_arena_zalloc(c->arena, sizeof **out * (k ? k : 1));
  if (!*out) return hl_err_nomem(err);
  *n_out = (uint32_t)k;
  for (size_t i = 0; i < k; i++) {
    hl_cat_partition_t *np;
    if ((rc = hl_cat_partition_get(c->cat, t->id, parts[i].values, parts[i].n_values, c->arena, &np,
                                   &o->e)))
      return fail(o, 3);
    hl_hms_partition_t *h = hl_hms_map_partition(t, np, c->arena);
    if (!h) return hl_err_nomem(err);
    (*out)[i] = *h;
  }
  return HL_OK;
}

static void reply_partition(hl_hms_wcall_t *c, const hl_hms_partition_t *p) {
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_partition(c->out, p);
  hl_tw_stop(c->out);
}

/* append_partition(_by_name)(1 db, 2 tbl, 3 values | name): the
 * partition at its default location, directory created. */
static hl_status_t do_append(hl_hms_wcall_t *c, const wargs_t *a, int by_name, outcome_t *o,
                             hl_error_t *err) {
  hl_hms_partition_t p;
  memset(&p, 0, sizeof p);
  if (by_name) {
    hl_cat_table_t *t = part_table(c, a->s[1], a->s[2], 1, 3, o);
    char **vals;
    if (!t) return HL_ERROR;
    hl_status_t rc = hl_hms_unmap_part_name(t, a->s[3], c->arena, &vals, &o->e);
    if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
    p.values.n = (uint32_t)t->n_part_keys;
    p.values.items = vals;
  } else {
    p.values = a->vals;
  }
  hl_hms_partition_t *added;
  uint32_t n;
  hl_status_t rc = add_parts(c, a->s[1], a->s[2], &p, 1, 0, o, &added, &n, err);
  if (rc) return rc;
  reply_partition(c, &added[0]);
  return HL_OK;
}

/* The catalog partition of table T named by VALS (client values); NULL
 * with the exception in O (NOSUCH when missing, INVALID for bad values). */
static hl_cat_partition_t *find_part(hl_hms_wcall_t *c, const hl_cat_table_t *t, char *const *vals,
                                     uint32_t n, int16_t nosuch, int16_t invalid, int16_t meta,
                                     outcome_t *o) {
  char **v, *name;
  hl_cat_partition_t *p;
  hl_status_t rc = hl_hms_unmap_part_values(t, vals, n, c->arena, &v, &name, &o->e);
  if (rc) {
    fail(o, invalid);
    return NULL;
  }
  rc = hl_cat_partition_get(c->cat, t->id, v, t->n_part_keys, c->arena, &p, &o->e);
  if (rc) {
    classify(o, rc, nosuch, 0, 0, meta);
    return NULL;
  }
  return p;
}

/* Drops partitions PARTS[0..n) of T; with DELETE_DATA, of a managed
 * table, each partition directory inside the table directory goes (empty
 * parents up to the table directory with it). */
static hl_status_t drop_parts(hl_hms_wcall_t *c, hl_cat_table_t *t, hl_cat_partition_t **parts,
                              size_t n, int delete_data, outcome_t *o, int16_t meta) {
  char *wh;
  hl_txn_t *txn;
  hl_status_t rc = warehouse(c, &wh, &o->e);
  if (rc || (rc = txn_start(c, wh, &txn, &o->e))) return fail(o, meta);
  rc = lock_table(txn, t, c->arena, &o->e);
  for (size_t i = 0; rc == HL_OK && delete_data && !t->external && i < n; i++) {
    int ok;
    hl_txn_target_t *tgt;
    if (!path_under(parts[i]->location, t->location) ||
        strcmp(parts[i]->location, t->location) == 0)
      continue;
    rc = check_drop_dir(c, parts[i]->location, t, NULL, 0, wh, &ok, &o->e);
    if (rc == HL_OK && ok)
      rc = hl_txn_target_add_drop(txn, parts[i]->location, t->location, &tgt, &o->e);
  }
  if (rc) {
    hl_txn_abort(txn);
    return fail(o, meta);
  }
  drop_plan_t p = {c, NULL, 0, &t, 1, 0, parts, n};
  return hl_txn_commit(txn, drop_apply, &p, &o->e) ? fail(o, meta) : HL_OK;
}

/* drop_partition(_by_name)*(1 db, 2 tbl, 3 values | name, 4 deleteData)
 * returns bool, throws (1 NoSuchObject, 2 Meta) */
static hl_status_t do_drop_partition(hl_hms_wcall_t *c, const wargs_t *a, int by_name, outcome_t *o,
                                     hl_error_t *err) {
  hl_cat_table_t *t = part_table(c, a->s[1], a->s[2], 1, 2, o);
  if (!t) return HL_ERROR;
  hl_hms_strlist_t vals = a->vals;
  if (by_name) {
    hl_status_t rc = hl_hms_unmap_part_name(t, a->s[3], c->arena, &vals.items, &o->e);
    if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
    vals.n = (uint32_t)t->n_part_keys;
  }
  hl_cat_partition_t *p = find_part(c, t, vals.items, vals.n, 1, 1, 2, o);
  if (!p) return HL_ERROR;
  hl_status_t rc = drop_parts(c, t, &p, 1, a->b[4], o, 2);
  if (rc) return rc;
  reply_bool(c, 1);
  return HL_OK;
}

/* drop_partitions_req(1 DropPartitionsRequest) returns
 * DropPartitionsResult, throws (1 NoSuchObject, 2 Meta) */
static hl_status_t do_drop_partitions_req(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                          hl_error_t *err) {
  const hl_hms_drop_partitions_request_t *q = a->drop;
  if (!q) return failf(o, 2, HL_SS(INVALID_PARAMETER_VALUE), "no request given%s%s", 0, 0);
  if (q->cat_name && strcmp(q->cat_name, HL_HMS_CATALOG) != 0)
    return failf(o, 1, HL_SS(INVALID_SCHEMA_NAME), "catalog %s does not exist%s", q->cat_name, 0);
  if (!q->has_names)
    return failf(o, 2, HL_SS(FEATURE_NOT_SUPPORTED),
                 "drop_partitions_req by expression is not supported by hivelite (it cannot read "
                 "serialized Hive expressions); give partition names%s%s",
                 0, 0);
  hl_cat_table_t *t = part_table(c, q->db_name, q->tbl_name, 1, 2, o);
  if (!t) return HL_ERROR;
  hl_cat_partition_t **parts = hl_arena_zalloc(c->arena, sizeof *parts * (q->names.n + 1));
  hl_hms_partition_t *res = hl_arena_zalloc(c->arena, sizeof *res * (q->names.n + 1));
  if (!parts || !res) return hl_err_nomem(err);
  size_t k = 0;
  int if_exists = q->has_if_exists ? q->if_exists : 1;
  for (uint32_t i = 0; i < q->names.n; i++) {
    char **vals;
    hl_status_t rc = hl_hms_unmap_part_name(t, q->names.items[i], c->arena, &vals, &o->e);
    if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 2);
    hl_cat_partition_t *p = find_part(c, t, vals, (uint32_t)t->n_part_keys, 1, 2, 2, o);
    if (!p) {
      if (o->exc_id != 1 || !if_exists) return HL_ERROR;
      hl_err_clear(&o->e);
      o->exc_id = 0;
      continue;
    }
    int dup = 0;
    for (size_t j = 0; j < k && !dup; j++)
      dup = parts[j]->id == p->id;
    if (dup) continue;
    hl_hms_partition_t *h = hl_hms_map_partition(t, p, c->arena);
    if (!h) return hl_err_nomem(err);
    res[k] = *h;
    parts[k++] = p;
  }
  hl_status_t rc = k ? drop_parts(c, t, parts, k, q->has_delete_data && q->delete_data, o, 2) : 0;
  if (rc) return rc;
  hl_hms_drop_partitions_result_t r = {0};
  if (!q->has_need_result || q->need_result) {
    r.has_partitions = 1;
    r.parts = res;
    r.n_parts = (uint32_t)k;
  }
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_drop_partitions_result(c->out, &r);
  hl_tw_stop(c->out);
  return HL_OK;
}

typedef struct upd_arg {
  hl_cat_partition_t *parts;
  size_t n;
} upd_arg_t;

static hl_status_t upd_step(hl_hms_wcall_t *c, void *arg, hl_error_t *err) {
  upd_arg_t *x = arg;
  hl_status_t rc = HL_OK;
  for (size_t i = 0; rc == HL_OK && i < x->n; i++)
    rc = hl_cat_partition_update(c->cat, &x->parts[i], err);
  return rc;
}

/* alter_partition(s)*(1 db, 2 tbl, 3 Partition | list<Partition>) throws
 * (1 InvalidOperation, 2 Meta): each partition (found by its values) gets
 * the location, parameters and descriptor sent, all in one transaction.
 * A new location's directory is created. */
static hl_status_t do_alter_partitions(hl_hms_wcall_t *c, const char *raw_db, const char *tbl,
                                       const hl_hms_partition_t *hp, uint32_t n, outcome_t *o,
                                       hl_error_t *err) {
  hl_cat_table_t *t = part_table(c, raw_db, tbl, 1, 2, o);
  if (!t) return HL_ERROR;
  hl_cat_partition_t *parts = hl_arena_zalloc(c->arena, sizeof *parts * (n + 1));
  char **dirs = hl_arena_zalloc(c->arena, sizeof(char *) * (n + 1));
  if (!parts || !dirs) return hl_err_nomem(err);
  for (uint32_t i = 0; i < n; i++) {
    hl_cat_partition_t *old = find_part(c, t, hp[i].values.items, hp[i].values.n, 1, 1, 2, o);
    if (!old) return HL_ERROR;
    hl_status_t rc =
        hl_hms_unmap_partition(t, &hp[i], HL_HMS_UNMAP_CHECK, c->arena, &parts[i], &o->e);
    if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
    parts[i].id = old->id;
    parts[i].create_time = old->create_time;
    if (!hp[i].sd || !hp[i].sd->location) parts[i].location = old->location;
    if (strcmp(parts[i].location, old->location) != 0) {
      if ((rc = check_part_location(c, t, &parts[i], old->id, NULL, 0, &o->e)))
        return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
      dirs[i] = parts[i].location;
    }
  }
  upd_arg_t x = {parts, n};
  hl_status_t rc = in_txn(c, upd_step, &x, dirs, n, &o->e);
  return rc ? classify(o, rc, 1, 1, 1, 2) : HL_OK;
}

static hl_status_t rename_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  void **a = arg;
  (void)txn;
  return upd_step(a[0], a[1], err);
}

/* rename_partition(1 db, 2 tbl, 3 part_vals, 4 new_part) throws
 * (1 InvalidOperation, 2 Meta): new values for the partition; a
 * partition of a managed table at its default path moves with its name
 * (a txn/ directory move), any other keeps its location. */
static hl_status_t do_rename_partition(hl_hms_wcall_t *c, const wargs_t *a, outcome_t *o,
                                       hl_error_t *err) {
  hl_cat_table_t *t = part_table(c, a->s[1], a->s[2], 1, 2, o);
  if (!t) return HL_ERROR;
  if (!a->part) return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE), "no partition given%s%s", 0, 0);
  hl_cat_partition_t *old = find_part(c, t, a->vals.items, a->vals.n, 1, 1, 2, o);
  if (!old) return HL_ERROR;
  hl_cat_partition_t np = *old, *clash;
  hl_status_t rc = hl_hms_unmap_part_values(t, a->part->values.items, a->part->values.n, c->arena,
                                            &np.values, &np.name, &o->e);
  if (rc) return rc == HL_NOMEM ? hl_err_move(err, &o->e), rc : fail(o, 1);
  rc = hl_cat_partition_get(c->cat, t->id, np.values, np.n_values, c->arena, &clash, &o->e);
  if (rc == HL_OK)
    return failf(o, 1, HL_SS(DUPLICATE_OBJECT), "partition \"%s\" already exists in table %s",
                 np.name, t->name);
  if (rc != HL_NOTFOUND) return fail(o, 2);
  hl_err_clear(&o->e);
  char *def_old = hl_arena_sprintf(c->arena, "%s/%s", t->location, old->name);
  char *def_new = hl_arena_sprintf(c->arena, "%s/%s", t->location, np.name);
  if (!def_old || !def_new) return hl_err_nomem(err);
  np.sd = NULL;
  int move = !t->external && strcmp(old->location, def_old) == 0;
  char *wh;
  hl_txn_t *txn;
  if ((rc = warehouse(c, &wh, &o->e)) || (rc = txn_start(c, wh, &txn, &o->e))) return fail(o, 2);
  rc = lock_table(txn, t, c->arena, &o->e);
  if (rc == HL_OK && move) {
    np.location = def_new;
    hl_stor_stat_t st;
    hl_error_t e;
    hl_err_init(&e);
    if (c->env->fs->ops->stat(c->env->fs, def_new, &st, &e) == HL_OK && st.exists)
      rc = hl_err_set(&o->e, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                      "cannot rename partition: \"%s\" exists already", def_new);
    hl_err_clear(&e);
    if (rc == HL_OK) rc = hl_txn_move_add(txn, old->location, def_new, &o->e);
  }
  if (rc) {
    hl_txn_abort(txn);
    return fail(o, rc == HL_CONSTRAINT ? 1 : 2);
  }
  upd_arg_t x = {&np, 1};
  void *arg[2] = {c, &x};
  rc = hl_txn_commit(txn, rename_apply, arg, &o->e);
  return rc ? classify(o, rc, 1, 1, 1, 2) : HL_OK;
}

/* --------------------------------------------------------- dispatch */

typedef struct wmethod {
  const char *name;
  const char *spec; /* read_wargs's argument kinds */
  int op;
} wmethod_t;

enum {
  W_CREATE_DB,
  W_ALTER_DB,
  W_DROP_DB,
  W_CREATE_TABLE,
  W_CREATE_TABLE_REQ,
  W_ALTER_TABLE,
  W_ALTER_TABLE_CASCADE,
  W_ALTER_TABLE_REQ,
  W_DROP_TABLE,
  W_ADD_PART,
  W_ADD_PARTS,
  W_ADD_PARTS_REQ,
  W_APPEND,
  W_APPEND_BY_NAME,
  W_DROP_PART,
  W_DROP_PART_BY_NAME,
  W_DROP_PARTS_REQ,
  W_ALTER_PART,
  W_ALTER_PARTS,
  W_RENAME_PART,
  W_ALTER_PARTS_REQ,
  W_RENAME_PART_REQ,
  W_DROP_TABLE_REQ,
  W_DROP_DB_REQ
};

static const wmethod_t methods[] = {
    {"create_database", "D", W_CREATE_DB},
    {"alter_database", "sD", W_ALTER_DB},
    {"drop_database", "sbb", W_DROP_DB},
    {"create_database_req", "D", W_CREATE_DB},
    {"drop_database_req", "x", W_DROP_DB_REQ},
    {"create_table", "T", W_CREATE_TABLE},
    {"create_table_with_environment_context", "TE", W_CREATE_TABLE},
    {"create_table_req", "R", W_CREATE_TABLE_REQ},
    {"alter_table", "ssT", W_ALTER_TABLE},
    {"alter_table_with_environment_context", "ssTE", W_ALTER_TABLE},
    {"alter_table_with_cascade", "ssTb", W_ALTER_TABLE_CASCADE},
    {"alter_table_req", "a", W_ALTER_TABLE_REQ},
    {"drop_table", "ssb", W_DROP_TABLE},
    {"drop_table_with_environment_context", "ssbE", W_DROP_TABLE},
    {"add_partition", "P", W_ADD_PART},
    {"add_partition_with_environment_context", "PE", W_ADD_PART},
    {"add_partitions", "Q", W_ADD_PARTS},
    {"add_partitions_req", "A", W_ADD_PARTS_REQ},
    {"append_partition", "ssL", W_APPEND},
    {"append_partition_with_environment_context", "ssLE", W_APPEND},
    {"append_partition_by_name", "sss", W_APPEND_BY_NAME},
    {"append_partition_by_name_with_environment_context", "sssE", W_APPEND_BY_NAME},
    {"drop_partition", "ssLb", W_DROP_PART},
    {"drop_partition_with_environment_context", "ssLbE", W_DROP_PART},
    {"drop_partition_by_name", "sssb", W_DROP_PART_BY_NAME},
    {"drop_partition_by_name_with_environment_context", "sssbE", W_DROP_PART_BY_NAME},
    {"drop_partitions_req", "X", W_DROP_PARTS_REQ},
    {"alter_partition", "ssP", W_ALTER_PART},
    {"alter_partition_with_environment_context", "ssPE", W_ALTER_PART},
    {"alter_partitions", "ssQ", W_ALTER_PARTS},
    {"alter_partitions_with_environment_context", "ssQE", W_ALTER_PARTS},
    {"rename_partition", "ssLP", W_RENAME_PART},
    {"alter_partitions_req", "p", W_ALTER_PARTS_REQ},
    {"rename_partition_req", "r", W_RENAME_PART_REQ},
    {"drop_table_req", "d", W_DROP_TABLE_REQ},
};

static hl_status_t run(hl_hms_wcall_t *c, int op, const wargs_t *a, outcome_t *o, hl_error_t *err) {
  hl_hms_partition_t *added;
  uint32_t n;
  hl_status_t rc;
  if (a->cat && strcmp(a->cat, HL_HMS_CATALOG) != 0) /* Meta: 3 for drop_database_req, else 2 */
    return failf(o, op == W_DROP_DB_REQ ? 3 : 2, HL_SS(INVALID_SCHEMA_NAME),
                 "catalog %s does not exist%s", a->cat, 0);
  switch (op) {
  case W_CREATE_DB:
    return do_create_database(c, a, o, err);
  case W_ALTER_DB:
    return do_alter_database(c, a, o, err);
  case W_DROP_DB:
    return do_drop_database(c, a, o, err);
  case W_DROP_DB_REQ: /* drop_database_req throws as drop_database */
    if ((rc = do_drop_database(c, a, o, err)) == HL_ERROR && a->ignore_unknown && o->exc_id == 1) {
      hl_err_clear(&o->e);
      o->exc_id = 0;
      return HL_OK;
    }
    return rc;
  case W_CREATE_TABLE:
  case W_CREATE_TABLE_REQ:
    return do_create_table(c, a, o, err);
  case W_ALTER_TABLE:
  case W_ALTER_TABLE_CASCADE:
    return do_alter_table(c, a->s[1], a->s[2], op == W_ALTER_TABLE_CASCADE && a->b[4], a->tbl, o,
                          err);
  case W_ALTER_TABLE_REQ: /* the request's dbName and tableName are in s[1], s[2] */
    return do_alter_table(c, a->s[1], a->s[2], 0, a->tbl, o, err);
  case W_DROP_TABLE:
  case W_DROP_TABLE_REQ:
    return do_drop_table(c, a, o, err);
  case W_ADD_PART:
    if (!a->part)
      return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE), "no partition given%s%s", 0, 0);
    if ((rc = add_parts(c, NULL, NULL, a->part, 1, 0, o, &added, &n, err))) return rc;
    reply_partition(c, &added[0]);
    return HL_OK;
  case W_ADD_PARTS:
    if ((rc = add_parts(c, NULL, NULL, a->parts, a->n_parts, 0, o, &added, &n, err))) return rc;
    reply_i32(c, (int32_t)n);
    return HL_OK;
  case W_ADD_PARTS_REQ: {
    const hl_hms_add_partitions_request_t *q = a->add;
    if (!q) return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE), "no request given%s%s", 0, 0);
    if (q->cat_name && strcmp(q->cat_name, HL_HMS_CATALOG) != 0)
      return failf(o, 1, HL_SS(INVALID_SCHEMA_NAME), "catalog %s does not exist%s", q->cat_name, 0);
    if ((rc = add_parts(c, q->db_name, q->tbl_name, q->parts, q->n_parts, q->if_not_exists, o,
                        &added, &n, err)))
      return rc;
    hl_hms_add_partitions_result_t r = {0};
    if (!q->has_need_result || q->need_result) {
      r.has_partitions = 1;
      r.parts = added;
      r.n_parts = n;
    }
    hl_hms_wreply_begin(c);
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_hms_write_add_partitions_result(c->out, &r);
    hl_tw_stop(c->out);
    return HL_OK;
  }
  case W_APPEND:
  case W_APPEND_BY_NAME:
    return do_append(c, a, op == W_APPEND_BY_NAME, o, err);
  case W_DROP_PART:
  case W_DROP_PART_BY_NAME:
    return do_drop_partition(c, a, op == W_DROP_PART_BY_NAME, o, err);
  case W_DROP_PARTS_REQ:
    return do_drop_partitions_req(c, a, o, err);
  case W_ALTER_PART:
    if (!a->part)
      return failf(o, 1, HL_SS(INVALID_PARAMETER_VALUE), "no partition given%s%s", 0, 0);
    return do_alter_partitions(c, a->s[1], a->s[2], a->part, 1, o, err);
  case W_ALTER_PARTS:
  case W_ALTER_PARTS_REQ:
    return do_alter_partitions(c, a->s[1], a->s[2], a->parts, a->n_parts, o, err);
  case W_RENAME_PART:
  case W_RENAME_PART_REQ:
    return do_rename_partition(c, a, o, err);
  }
  return HL_OK;
}

/* Methods whose success reply is void (the others write their own). */
static int void_reply(int op) {
  return op == W_CREATE_DB || op == W_ALTER_DB || op == W_DROP_DB || op == W_DROP_DB_REQ ||
         op == W_CREATE_TABLE || op == W_CREATE_TABLE_REQ || op == W_ALTER_TABLE ||
         op == W_ALTER_TABLE_CASCADE || op == W_DROP_TABLE || op == W_ALTER_PART ||
         op == W_ALTER_PARTS || op == W_RENAME_PART || op == W_DROP_TABLE_REQ;
}

hl_status_t hl_hms_write_dispatch(hl_hms_wcall_t *c, hl_hms_dec_t *d, int *handled,
                                  hl_error_t *err) {
  const wmethod_t *m = NULL;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0] && !m; i++)
    if (strcmp(methods[i].name, c->method) == 0) m = &methods[i];
  *handled = m != NULL;
  if (!m) return HL_OK;
  wargs_t a;
  hl_status_t rc = read_wargs(d, m->spec, &a);
  if (rc) return rc;
  outcome_t o = {0};
  hl_err_init(&o.e);
  size_t mark = c->out->len;
  rc = run(c, m->op, &a, &o, err);
  if (rc == HL_OK && void_reply(m->op)) {
    hl_hms_wreply_void(c);
  } else if (rc == HL_OK && (m->op == W_ALTER_TABLE_REQ || m->op == W_ALTER_PARTS_REQ ||
                             m->op == W_RENAME_PART_REQ)) {
    hl_hms_wreply_begin(c); /* Alter{Table,Partitions}Response, RenamePartitionResponse: {} */
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_tw_stop(c->out);
    hl_tw_stop(c->out);
  } else if (rc != HL_OK && o.exc_id) {
    c->out->len = mark; /* nothing of a success reply stays */
    hl_hms_wreply_exception(c, o.exc_id, o.e.message && o.e.message[0] ? o.e.message : NULL);
    rc = HL_OK;
  }
  hl_err_clear(&o.e);
  return rc;
}
