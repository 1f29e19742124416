/*
 * cat_journal.c -- the undo journal of metastores without transactions.
 *
 * A remote metastore (the Hive Metastore over Thrift) applies every write
 * call at once and on its own: hl_cat_begin/commit cannot make several of
 * them one unit.  So that a write through one can still be undone after a
 * failure or a crash (src/txn/txn.h, "Remote metastores"), cat_dispatch.c
 * calls the journal hook (hl_cat_journal_set) before each write call of
 * such a backend with an undo record made here: what the call will do and
 * the before-image it destroys, read from the backend first.  The hook
 * makes the record durable (txn: in the write's local intent) and only
 * then is the call made.  hl_cat_undo reverses one record.
 *
 * Records are text: tokens separated by tabs, each escaped (\t \n \\; a
 * NULL string is the token \N), first the kind:
 *
 *   table_create  db name location create_time
 *   table_update  db name <table>          the names after the call, the
 *                                          before-image (a RENAME: old names)
 *   part_add      db table n_keys n {values... location}
 *   part_update   db table <partition>     before-image of the partition
 *   part_drop     db table <partition>     before-image of the partition
 *   table_drop    db name
 *   irreversible  what
 *
 * Objects are named by database and table name, never by id: recovery may
 * run in another process, whose connection to the metastore numbers
 * tables differently.
 *
 * Undo is idempotent and checks the remote state first, because the
 * record is written before the call: a crash or a dropped connection can
 * leave a call applied or not, and the record cannot say which.  An added
 * partition or a created table is removed only while it is the one this
 * write made (same location), so an
 * object someone else made after a failed call is never dropped (a
 * location is compared without its scheme and authority, which a
 * metastore may add); an update is reversed by writing the before-image back (a no-op when the
 * call never took effect); a dropped partition is added back from its
 * before-image when it is missing.  A table drop cannot be undone (the
 * partitions are gone): its undo succeeds only when the table is still
 * there; and "irreversible" records (database calls, column statistics,
 * CASCADE of columns, a partition drop through a backend without the
 * partition_table operation) never undo: the write is then reported and left
 * for recovery instead of guessed at.  (The writes of cmd_insert.c make
 * only reversible calls.)
 */
#include "catalog/cat_backend.h"
#include "catalog/catalog_int.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ writing */

static void put_s(hl_buf_t *b, const char *s) {
  if (b->len) hl_buf_putc(b, '\t');
  if (!s) {
    hl_buf_puts(b, "\\N");
    return;
  }
  for (; *s; s++) {
    if (*s == '\t')
      hl_buf_puts(b, "\\t");
    else if (*s == '\n')
      hl_buf_puts(b, "\\n");
    else if (*s == '\\')
      hl_buf_puts(b, "\\\\");
    else
      hl_buf_putc(b, *s);
  }
}

static void put_i(hl_buf_t *b, int64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%" PRId64, v);
  put_s(b, num);
}

static void put_kv(hl_buf_t *b, const hl_kv_t *kvs, int n) {
  put_i(b, n);
  for (int i = 0; i < n; i++) {
    put_s(b, kvs[i].key);
    put_s(b, kvs[i].value);
  }
}

static void put_cols(hl_buf_t *b, const hl_cat_column_t *cols, int n) {
  put_i(b, n);
  for (int i = 0; i < n; i++) {
    put_s(b, cols[i].name);
    put_s(b, cols[i].type);
    put_s(b, cols[i].comment);
  }
}

static void put_strs(hl_buf_t *b, char *const *strs, int n) {
  put_i(b, n);
  for (int i = 0; i < n; i++)
    put_s(b, strs[i]);
}

static void put_sorts(hl_buf_t *b, const hl_cat_sort_col_t *cols, int n) {
  put_i(b, n);
  for (int i = 0; i < n; i++) {
    put_s(b, cols[i].name);
    put_i(b, cols[i].ascending);
  }
}

static void put_sd(hl_buf_t *b, const hl_cat_sd_t *sd) {
  put_i(b, sd != NULL);
  if (!sd) return;
  put_s(b, sd->input_format);
  put_s(b, sd->output_format);
  put_s(b, sd->serde_lib);
  put_kv(b, sd->serde_params, sd->n_serde_params);
  put_cols(b, sd->cols, sd->n_cols);
  put_i(b, sd->num_buckets);
  put_strs(b, sd->bucket_cols, sd->n_bucket_cols);
  put_sorts(b, sd->sort_cols, sd->n_sort_cols);
}

static void put_table(hl_buf_t *b, const hl_cat_table_t *t) {
  put_s(b, t->db_name);
  put_s(b, t->name);
  put_i(b, t->external);
  put_s(b, t->location);
  put_kv(b, t->params, t->n_params);
  put_s(b, t->owner);
  put_i(b, t->create_time);
  put_cols(b, t->part_keys, t->n_part_keys);
  hl_cat_sd_t sd = hl_cat_table_sd(t);
  put_sd(b, &sd);
  put_i(b, t->view);
  put_s(b, t->view_original_text);
  put_s(b, t->view_expanded_text);
}

static void put_part(hl_buf_t *b, const hl_cat_partition_t *p) {
  put_strs(b, p->values, p->n_values);
  put_s(b, p->name);
  put_s(b, p->location);
  put_kv(b, p->params, p->n_params);
  put_i(b, p->create_time);
  put_sd(b, p->sd);
}

/* ------------------------------------------------------------ reading */

typedef struct reader {
  char **tok;
  size_t n, i;
  hl_arena_t *arena;
  bool bad;
} reader_t;

/* Splits TEXT into tokens (unescaped copies in ARENA). */
static bool reader_init(reader_t *r, const char *text, hl_arena_t *arena) {
  memset(r, 0, sizeof *r);
  r->arena = arena;
  size_t cap = 1;
  for (const char *c = text; *c; c++)
    cap += *c == '\t';
  char *copy = hl_arena_strdup(arena, text);
  r->tok = hl_arena_alloc(arena, sizeof(char *) * cap);
  if (!copy || !r->tok) return false;
  /* raw tabs separate tokens (tabs inside values are escaped) */
  for (char *tok = copy;;) {
    char *tab = strchr(tok, '\t');
    if (tab) *tab = '\0';
    if (strcmp(tok, "\\N") == 0) {
      r->tok[r->n++] = NULL;
    } else {
      char *w = tok;
      for (char *c = tok; *c; c++) {
        if (*c == '\\' && c[1]) {
          c++;
          *w++ = *c == 't' ? '\t' : *c == 'n' ? '\n' : *c;
        } else {
          *w++ = *c;
        }
      }
      *w = '\0';
      r->tok[r->n++] = tok;
    }
    if (!tab) break;
    tok = tab + 1;
  }
  return true;
}

static char *get_s(reader_t *r) {
  if (r->i >= r->n) {
    r->bad = true;
    return NULL;
  }
  return r->tok[r->i++];
}

static int64_t get_i(reader_t *r) {
  char *s = get_s(r);
  if (!s) {
    r->bad = true;
    return 0;
  }
  char *end;
  long long v = strtoll(s, &end, 10);
  if (*end || !*s) r->bad = true;
  return (int64_t)v;
}

/* A count of N items of SIZE bytes: bounded by the tokens left. */
static void *get_array(reader_t *r, int *n, size_t size, size_t toks_each) {
  int64_t v = get_i(r);
  if (v < 0 || (size_t)v * toks_each > r->n - r->i) {
    r->bad = true;
    *n = 0;
    return NULL;
  }
  *n = (int)v;
  void *a = hl_arena_zalloc(r->arena, size * (size_t)(v ? v : 1));
  if (!a) r->bad = true;
  return a;
}

static hl_kv_t *get_kv(reader_t *r, int *n) {
  hl_kv_t *kvs = get_array(r, n, sizeof *kvs, 2);
  for (int i = 0; kvs && i < *n; i++) {
    kvs[i].key = get_s(r);
    kvs[i].value = get_s(r);
  }
  return kvs;
}

static hl_cat_column_t *get_cols(reader_t *r, int *n) {
  hl_cat_column_t *cols = get_array(r, n, sizeof *cols, 3);
  for (int i = 0; cols && i < *n; i++) {
    cols[i].name = get_s(r);
    cols[i].type = get_s(r);
    cols[i].comment = get_s(r);
  }
  return cols;
}

static char **get_strs(reader_t *r, int *n) {
  char **strs = get_array(r, n, sizeof *strs, 1);
  for (int i = 0; strs && i < *n; i++)
    strs[i] = get_s(r);
  return strs;
}

static hl_cat_sort_col_t *get_sorts(reader_t *r, int *n) {
  hl_cat_sort_col_t *cols = get_array(r, n, sizeof *cols, 2);
  for (int i = 0; cols && i < *n; i++) {
    cols[i].name = get_s(r);
    cols[i].ascending = get_i(r) != 0;
  }
  return cols;
}

static hl_cat_sd_t *get_sd(reader_t *r) {
  if (get_i(r) == 0) return NULL;
  hl_cat_sd_t *sd = hl_arena_zalloc(r->arena, sizeof *sd);
  if (!sd) {
    r->bad = true;
    return NULL;
  }
  sd->input_format = get_s(r);
  sd->output_format = get_s(r);
  sd->serde_lib = get_s(r);
  sd->serde_params = get_kv(r, &sd->n_serde_params);
  sd->cols = get_cols(r, &sd->n_cols);
  sd->num_buckets = (int)get_i(r);
  sd->bucket_cols = get_strs(r, &sd->n_bucket_cols);
  sd->sort_cols = get_sorts(r, &sd->n_sort_cols);
  return sd;
}

static void get_table(reader_t *r, hl_cat_table_t *t) {
  memset(t, 0, sizeof *t);
  t->db_name = get_s(r);
  t->name = get_s(r);
  t->external = get_i(r) != 0;
  t->location = get_s(r);
  t->params = get_kv(r, &t->n_params);
  t->owner = get_s(r);
  t->create_time = get_i(r);
  t->part_keys = get_cols(r, &t->n_part_keys);
  hl_cat_sd_t *sd = get_sd(r);
  if (sd) {
    t->input_format = sd->input_format;
    t->output_format = sd->output_format;
    t->serde_lib = sd->serde_lib;
    t->serde_params = sd->serde_params;
    t->n_serde_params = sd->n_serde_params;
    t->cols = sd->cols;
    t->n_cols = sd->n_cols;
    t->num_buckets = sd->num_buckets;
    t->bucket_cols = sd->bucket_cols;
    t->n_bucket_cols = sd->n_bucket_cols;
    t->sort_cols = sd->sort_cols;
    t->n_sort_cols = sd->n_sort_cols;
  }
  t->view = get_i(r) != 0;
  t->view_original_text = get_s(r);
  t->view_expanded_text = get_s(r);
}

static void get_part(reader_t *r, hl_cat_partition_t *p) {
  memset(p, 0, sizeof *p);
  p->values = get_strs(r, &p->n_values);
  p->name = get_s(r);
  p->location = get_s(r);
  p->params = get_kv(r, &p->n_params);
  p->create_time = get_i(r);
  p->sd = get_sd(r);
}

/* ------------------------------------------------------------ journaling */

bool hl_cat_journaling(const hl_cat_t *cat) {
  return cat->journal && !hl_cat_transactional(cat);
}

/* Hands the record in B to the journal hook. */
static hl_status_t emit(hl_cat_t *cat, hl_buf_t *b, hl_error_t *err) {
  hl_status_t rc = b->oom ? hl_err_nomem(err) : cat->journal(cat->journal_arg, hl_buf_cstr(b), err);
  hl_buf_fini(b);
  return rc;
}

static hl_status_t table_names(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena, char **db,
                               char **name, hl_error_t *err) {
  if (!cat->ops->table_name)
    return hl_err_set(err, HL_ERROR, HL_SS(FEATURE_NOT_SUPPORTED),
                      "the %s metastore cannot name a table by id, so its writes cannot be "
                      "journaled",
                      cat->ops->name);
  return cat->ops->table_name(cat, table_id, arena, db, name, err);
}

hl_status_t hl_cat_journal_table_create(hl_cat_t *cat, const hl_cat_table_t *t, hl_error_t *err) {
  hl_buf_t b;
  hl_buf_init(&b);
  put_s(&b, "table_create");
  put_s(&b, t->db_name);
  put_s(&b, t->name);
  put_s(&b, t->location);
  put_i(&b, t->create_time);
  return emit(cat, &b, err);
}

hl_status_t hl_cat_journal_table_update(hl_cat_t *cat, const hl_cat_table_t *t, hl_error_t *err) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  /* by id where the backend can name it: a RENAME changes the names */
  char *db = t->db_name, *name = t->name;
  hl_status_t rc = cat->ops->table_name && t->id > 0
                       ? cat->ops->table_name(cat, t->id, arena, &db, &name, err)
                       : HL_OK;
  hl_cat_table_t *before;
  if (rc == HL_OK) rc = cat->ops->table_get(cat, db, name, arena, &before, err);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    put_s(&b, "table_update");
    put_s(&b, t->db_name);
    put_s(&b, t->name);
    put_table(&b, before);
    rc = emit(cat, &b, err);
  }
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_cat_journal_part_add(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                    hl_error_t *err) {
  if (n == 0) return HL_OK;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  char *db, *name;
  hl_status_t rc = table_names(cat, parts[0].table_id, arena, &db, &name, err);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    put_s(&b, "part_add");
    put_s(&b, db);
    put_s(&b, name);
    put_i(&b, parts[0].n_values);
    put_i(&b, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
      for (int v = 0; v < parts[0].n_values; v++)
        put_s(&b, v < parts[i].n_values ? parts[i].values[v] : NULL);
      put_s(&b, parts[i].location);
    }
    rc = emit(cat, &b, err);
  }
  hl_arena_destroy(arena);
  return rc;
}

/* part_update: the partition's before-image, found by its values. */
hl_status_t hl_cat_journal_part_update(hl_cat_t *cat, const hl_cat_partition_t *p,
                                       hl_error_t *err) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  char *db, *name;
  hl_cat_partition_t *before = NULL;
  hl_status_t rc = table_names(cat, p->table_id, arena, &db, &name, err);
  if (rc == HL_OK)
    rc = cat->ops->partition_get(cat, p->table_id, p->values, p->n_values, arena, &before, err);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    put_s(&b, "part_update");
    put_s(&b, db);
    put_s(&b, name);
    put_part(&b, before);
    rc = emit(cat, &b, err);
  }
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_cat_journal_part_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err) {
  if (!cat->ops->partition_table) return hl_cat_journal_irreversible(cat, "partition drop", err);
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  int64_t table_id = 0;
  char *db, *name;
  hl_cat_partition_t *all, *before = NULL;
  size_t n = 0;
  hl_status_t rc = cat->ops->partition_table(cat, partition_id, &table_id, err);
  if (rc == HL_OK) rc = table_names(cat, table_id, arena, &db, &name, err);
  if (rc == HL_OK) rc = cat->ops->partition_list(cat, table_id, arena, &all, &n, err);
  for (size_t i = 0; rc == HL_OK && i < n && !before; i++)
    if (all[i].id == partition_id) before = &all[i];
  if (rc == HL_OK && !before)
    rc = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                    "partition with id %lld does not exist", (long long)partition_id);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    put_s(&b, "part_drop");
    put_s(&b, db);
    put_s(&b, name);
    put_part(&b, before);
    rc = emit(cat, &b, err);
  }
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_cat_journal_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  char *db, *name;
  hl_status_t rc = table_names(cat, table_id, arena, &db, &name, err);
  if (rc == HL_OK) {
    hl_buf_t b;
    hl_buf_init(&b);
    put_s(&b, "table_drop");
    put_s(&b, db);
    put_s(&b, name);
    rc = emit(cat, &b, err);
  }
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_cat_journal_irreversible(hl_cat_t *cat, const char *what, hl_error_t *err) {
  hl_buf_t b;
  hl_buf_init(&b);
  put_s(&b, "irreversible");
  put_s(&b, what);
  return emit(cat, &b, err);
}

/* ------------------------------------------------------------ undo */

static bool same(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* PATH without a leading "scheme:" and "//authority" (a metastore may
 * give back "/w/t" as "file:/w/t" or "hdfs://nn:8020/w/t"). */
static const char *path_part(const char *path) {
  const char *c = path;
  while ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
         *c == '+' || *c == '-' || *c == '.')
    c++;
  if (c == path || *c != ':') return path;
  c++;
  if (c[0] == '/' && c[1] == '/') {
    const char *slash = strchr(c + 2, '/');
    return slash ? slash : "";
  }
  return c;
}

/* The same location, as a metastore may spell it. */
static bool same_location(const char *a, const char *b) {
  return same(a, b) || (a && b && strcmp(path_part(a), path_part(b)) == 0);
}

static hl_status_t cannot_undo(const char *what, const char *db, const char *name,
                               hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                    "cannot undo the %s of \"%s.%s\" in the remote metastore", what, db ? db : "?",
                    name ? name : "?");
}

/* The table DB.NAME as it is now; *t NULL when it does not exist. */
static hl_status_t table_now(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                             hl_cat_table_t **t, hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = cat->ops->table_get(cat, db, name, arena, t, &e);
  if (rc == HL_NOTFOUND) {
    *t = NULL;
    hl_err_clear(&e);
    return HL_OK;
  }
  if (rc != HL_OK) hl_err_move(err, &e);
  return rc;
}

static hl_status_t part_now(hl_cat_t *cat, int64_t table_id, char *const *values, int n,
                            hl_arena_t *arena, hl_cat_partition_t **p, hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = cat->ops->partition_get(cat, table_id, values, n, arena, p, &e);
  if (rc == HL_NOTFOUND) {
    *p = NULL;
    hl_err_clear(&e);
    return HL_OK;
  }
  if (rc != HL_OK) hl_err_move(err, &e);
  return rc;
}

static hl_status_t undo_record(hl_cat_t *cat, reader_t *r, hl_error_t *err) {
  char *kind = get_s(r);
  if (!kind) goto bad;
  if (strcmp(kind, "irreversible") == 0) {
    char *what = get_s(r);
    return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                      "cannot undo a %s in the remote metastore", what ? what : "call");
  }
  char *db = get_s(r), *name = get_s(r);
  if (r->bad || !db || !name) goto bad;
  hl_cat_table_t *t;
  hl_status_t rc = table_now(cat, db, name, r->arena, &t, err);
  if (rc != HL_OK) return rc;
  if (strcmp(kind, "table_create") == 0) {
    char *location = get_s(r);
    get_i(r); /* create time: a metastore may set its own */
    if (r->bad) goto bad;
    /* only the table this write created (where it put it) */
    if (!t || !same_location(t->location, location)) return HL_OK;
    return cat->ops->table_drop(cat, t->id, err);
  }
  if (strcmp(kind, "table_drop") == 0) return t ? HL_OK : cannot_undo("drop", db, name, err);
  if (strcmp(kind, "table_update") == 0) {
    hl_cat_table_t before;
    get_table(r, &before);
    if (r->bad) goto bad;
    /* under its new name, or its old one when a rename did not happen */
    if (!t && before.db_name && before.name)
      rc = table_now(cat, before.db_name, before.name, r->arena, &t, err);
    if (rc != HL_OK) return rc;
    if (!t) return cannot_undo("update", db, name, err);
    before.id = t->id;
    return cat->ops->table_update(cat, &before, err);
  }
  if (strcmp(kind, "part_add") == 0) {
    int64_t n_keys = get_i(r), n = get_i(r);
    if (r->bad || n_keys < 0 || n < 0 || (size_t)n_keys > r->n || (size_t)n > r->n ||
        (size_t)((n_keys + 1) * n) > r->n - r->i)
      goto bad;
    char **values = hl_arena_alloc(r->arena, sizeof(char *) * (size_t)(n_keys ? n_keys : 1));
    if (!values) return hl_err_nomem(err);
    for (int64_t i = 0; i < n; i++) {
      for (int64_t v = 0; v < n_keys; v++)
        values[v] = get_s(r);
      char *location = get_s(r);
      if (!t) continue; /* the table is gone, and its partitions with it */
      hl_cat_partition_t *p;
      rc = part_now(cat, t->id, values, (int)n_keys, r->arena, &p, err);
      if (rc == HL_OK && p && same_location(p->location, location))
        rc = cat->ops->partition_drop(cat, p->id, err);
      if (rc != HL_OK) return rc;
    }
    return HL_OK;
  }
  if (strcmp(kind, "part_update") == 0) {
    hl_cat_partition_t before;
    get_part(r, &before);
    if (r->bad) goto bad;
    hl_cat_partition_t *p = NULL;
    rc = t ? part_now(cat, t->id, before.values, before.n_values, r->arena, &p, err) : HL_OK;
    if (rc != HL_OK) return rc;
    if (!p) return cannot_undo("partition update", db, name, err);
    before.table_id = t->id;
    before.id = p->id;
    return cat->ops->partition_update(cat, &before, err);
  }
  if (strcmp(kind, "part_drop") == 0) {
    hl_cat_partition_t before;
    get_part(r, &before);
    if (r->bad) goto bad;
    if (!t) return cannot_undo("partition drop", db, name, err);
    hl_cat_partition_t *p;
    rc = part_now(cat, t->id, before.values, before.n_values, r->arena, &p, err);
    if (rc != HL_OK || p) return rc; /* there: the drop did not happen */
    before.table_id = t->id;
    return cat->ops->partition_add(cat, &before, err);
  }
bad:
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "metastore is corrupt: malformed undo record in a write intent");
}

hl_status_t hl_cat_undo(hl_cat_t *cat, const char *record, hl_error_t *err) {
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  reader_t r;
  hl_status_t rc = reader_init(&r, record, arena) ? undo_record(cat, &r, err) : hl_err_nomem(err);
  hl_arena_destroy(arena);
  return rc;
}
