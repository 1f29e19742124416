/*
 * snapshot.c -- one read state per statement (see snapshot.h).
 *
 * A snapshot is a list of tables, each with its reader lock, the catalog's
 * partition count read under it, and a map from directory to the list of
 * its visible files.  Tables and lists live in the snapshot's own arena,
 * guarded by one mutex (the threads of a parallel scan list through it);
 * hl_snap_end gives everything back.
 */
#include "exec/snapshot.h"

#include "storage/stor_cache.h"
#include "txn/txn.h"
#include "util/hashmap.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

typedef struct listing {
  const hl_stor_entry_t *files;
  size_t n;
  bool busy; /* a thread is listing it now: the others wait (snap->done) */
} listing_t;

struct hl_snap_table {
  hl_snap_t *snap;
  const hl_cat_t *catalog; /* the catalog the table is in */
  const char *db, *table;
  char *name;           /* "db.table": the lock's name */
  bool locked;          /* the lock was taken (lock may still be NULL: none to take) */
  hl_stor_lock_t *lock; /* the shared reader lock, NULL: none */
  hl_stor_t *fs;        /* the lock's file system */
  bool counted;         /* n_parts read from the catalog under the lock */
  const char **pin_ok;  /* the pinned listing checked already (a scan's pin_eq) */
  size_t n_parts;
  hl_map_t *dirs;  /* directory -> listing_t * */
  bool prefetched; /* hl_snap_prefetch ran for it */
};

#define PREFETCH_MAX 32 /* listing threads of one prefetch */

/* A prefetch: threads that list DIRS[next..n) ahead of the scans. */
typedef struct prefetch {
  hl_snap_table_t *t;
  hl_session_t *s;
  char **dirs; /* in the snapshot's arena */
  size_t n, next;
  pthread_t threads[PREFETCH_MAX];
  int n_threads;
  struct prefetch *next_prefetch;
} prefetch_t;

struct hl_snap {
  pthread_mutex_t mu;
  pthread_cond_t done;    /* a listing finished */
  prefetch_t *prefetches; /* running or finished, joined by hl_snap_end */
  bool stop;              /* hl_snap_end: prefetch threads stop */
  hl_arena_t *arena;      /* tables and listings, NULL until the first table */
  hl_snap_table_t **tables;
  size_t n_tables, cap_tables;
};

static bool is_hidden(const char *name) {
  return name[0] == '.' || name[0] == '_';
}

void hl_snap_end(hl_snap_t *snap) {
  if (!snap) return;
  pthread_mutex_lock(&snap->mu);
  snap->stop = true;
  prefetch_t *pf = snap->prefetches;
  snap->prefetches = NULL;
  pthread_mutex_unlock(&snap->mu);
  for (; pf; pf = pf->next_prefetch) /* the listings they are making end first */
    for (int i = 0; i < pf->n_threads; i++)
      pthread_join(pf->threads[i], NULL);
  pthread_mutex_lock(&snap->mu);
  snap->stop = false;
  for (size_t i = 0; i < snap->n_tables; i++) {
    hl_snap_table_t *t = snap->tables[i];
    if (t->lock) hl_txn_read_end(t->fs, t->lock);
    t->lock = NULL;
    hl_map_destroy(t->dirs);
    t->dirs = NULL;
  }
  snap->n_tables = snap->cap_tables = 0;
  snap->tables = NULL;
  hl_arena_destroy(snap->arena);
  snap->arena = NULL;
  pthread_mutex_unlock(&snap->mu);
}

/* The arena's cleanup: the snapshot's memory goes with the arena. */
static void snap_destroy(void *arg) {
  hl_snap_t *snap = arg;
  hl_snap_end(snap);
  pthread_mutex_destroy(&snap->mu);
  pthread_cond_destroy(&snap->done);
}

hl_snap_t *hl_snap_create(hl_arena_t *arena, hl_error_t *err) {
  hl_snap_t *snap = hl_arena_zalloc(arena, sizeof *snap);
  if (!snap) return hl_err_nomem(err), NULL;
  if (pthread_mutex_init(&snap->mu, NULL) != 0) return hl_err_nomem(err), NULL;
  if (pthread_cond_init(&snap->done, NULL) != 0) {
    pthread_mutex_destroy(&snap->mu);
    return hl_err_nomem(err), NULL;
  }
  if (hl_arena_on_reset(arena, snap_destroy, snap) != 0) {
    pthread_mutex_destroy(&snap->mu);
    pthread_cond_destroy(&snap->done);
    return hl_err_nomem(err), NULL;
  }
  return snap;
}

/* Table DB.TABLE of catalog CAT in SNAP, added when new (snap->mu held).
 * Two catalogs may both have a db.table of that name: they are two tables
 * (their reader locks share the name, which only makes a lock wider). */
static hl_status_t find_table(hl_snap_t *snap, const hl_cat_t *cat, const char *db,
                              const char *table, hl_snap_table_t **out, hl_error_t *err) {
  for (size_t i = 0; i < snap->n_tables; i++)
    if (snap->tables[i]->catalog == cat && strcmp(snap->tables[i]->table, table) == 0 &&
        strcmp(snap->tables[i]->db, db) == 0) {
      *out = snap->tables[i];
      return HL_OK;
    }
  if (!snap->arena && !(snap->arena = hl_arena_create(0))) return hl_err_nomem(err);
  if (snap->n_tables == snap->cap_tables) {
    size_t cap = snap->cap_tables ? snap->cap_tables * 2 : 4;
    hl_snap_table_t **tables = hl_arena_realloc(
        snap->arena, snap->tables, sizeof(*tables) * snap->cap_tables, sizeof(*tables) * cap);
    if (!tables) return hl_err_nomem(err);
    snap->tables = tables;
    snap->cap_tables = cap;
  }
  hl_snap_table_t *t = hl_arena_zalloc(snap->arena, sizeof *t);
  if (!t || !(t->db = hl_arena_strdup(snap->arena, db)) ||
      !(t->table = hl_arena_strdup(snap->arena, table)) ||
      !(t->name = hl_arena_sprintf(snap->arena, "%s.%s", db, table)))
    return hl_err_nomem(err);
  if (!(t->dirs = hl_map_create())) return hl_err_nomem(err);
  t->snap = snap;
  t->catalog = cat;
  snap->tables[snap->n_tables++] = t;
  *out = t;
  return HL_OK;
}

/* Takes T's shared reader lock (txn.h "Readers"); none without a
 * warehouse (no lock directory). */
static hl_status_t lock_table(hl_snap_table_t *t, hl_session_t *s, hl_error_t *err) {
  if (!s->warehouse) {
    t->locked = true;
    return HL_OK;
  }
  char *dir = hl_txn_lock_dir(t->snap->arena, s->warehouse);
  if (!dir) return hl_err_nomem(err);
  double timeout;
  hl_status_t rc =
      hl_txn_parse_lock_timeout(hl_session_get(s, "hivelite.lock.timeout"), &timeout, err);
  hl_txn_fault_point("scan"); /* tests widen the bind-to-lock window here */
  if (rc == HL_OK) rc = hl_txn_read_begin(s->fs, dir, t->name, timeout, &t->lock, err);
  if (rc != HL_OK) return rc;
  t->fs = s->fs;
  t->locked = true;
  return HL_OK;
}

/* The partitions were listed when the query was bound; a write committed
 * since then that added some would mix two states, so the catalog's count
 * (read once, under the lock) is compared with the bound one (plans from
 * the binder carry `actual` and list every partition). */
static hl_status_t check_parts(hl_snap_table_t *t, hl_session_t *s, const hl_plan_scan_t *plan,
                               hl_error_t *err) {
  const hl_cat_table_t *c = plan->table->cat;
  if (!s->warehouse || plan->table->n_part == 0 || plan->projected || !plan->actual) return HL_OK;
  if (plan->pin_eq && t->pin_ok == plan->pin_eq) return HL_OK; /* every thread of the scan */
  if (plan->pin_eq) { /* the pinned partitions as they are now: an index lookup */
    hl_arena_t *a = hl_arena_create(0);
    hl_cat_partition_t *now;
    size_t n_now = 0;
    hl_status_t rc = a ? hl_cat_partition_names(hl_table_catalog(s, plan->table), c->id,
                                                plan->pin_eq, a, &now, &n_now, err)
                       : hl_err_nomem(err);
    hl_arena_destroy(a);
    if (rc != HL_OK) return rc;
    if (n_now == plan->n_pinned) {
      t->pin_ok = plan->pin_eq;
      return HL_OK;
    }
  } else if (!t->counted) {
    hl_status_t rc =
        hl_cat_partition_count(hl_table_catalog(s, plan->table), c->id, &t->n_parts, err);
    if (rc != HL_OK) return rc;
    t->counted = true;
  }
  if (!plan->pin_eq && t->n_parts == plan->n_parts_total) return HL_OK;
  hl_err_set(err, HL_ERROR, HL_SS(SERIALIZATION_FAILURE),
             "could not read table \"%s.%s\" as of one state: a write changed its "
             "partitions while the query was planned; run the query again",
             c->db_name, c->name);
  hl_err_hint(err, NULL, "The statement might succeed if run again.");
  return err->code;
}

hl_status_t hl_snap_table(hl_snap_t *snap, hl_session_t *s, const hl_plan_scan_t *plan,
                          hl_snap_table_t **out, hl_error_t *err) {
  *out = NULL;
  const hl_cat_table_t *c = plan->table->cat;
  /* object stores: how long a listing is reused (Trino's property name) */
  int64_t ttl_ms = 0;
  const char *ttl_key = "hive.file-status-cache-expire-time";
  hl_status_t trc = hl_session_parse_millis(ttl_key, hl_session_get(s, ttl_key), &ttl_ms, err);
  if (trc != HL_OK) return trc;
  hl_list_cache_set_object_ttl(s->list_cache, ttl_ms * 1000000);
  /* Waiting for the lock with the mutex held keeps the statement's other
   * threads from listing meanwhile; the wait is bounded (a writer that
   * publishes waits for nothing of ours). */
  pthread_mutex_lock(&snap->mu);
  hl_snap_table_t *t = NULL;
  hl_status_t rc = find_table(snap, hl_table_catalog(s, plan->table), c->db_name, c->name, &t, err);
  if (rc == HL_OK && !t->locked) rc = lock_table(t, s, err);
  if (rc == HL_OK) rc = check_parts(t, s, plan, err);
  pthread_mutex_unlock(&snap->mu);
  if (rc == HL_OK) *out = t;
  return rc;
}

/* The listing of DIR kept for T, or NULL (snap->mu held). */
static listing_t *listing_of(hl_snap_table_t *t, const char *dir) {
  uint64_t v;
  return hl_map_get(t->dirs, dir, strlen(dir), &v) ? (listing_t *)(uintptr_t)v : NULL;
}

hl_status_t hl_snap_list(hl_snap_table_t *t, hl_session_t *s, const char *dir,
                         const hl_stor_entry_t **files, size_t *n, hl_error_t *err) {
  hl_snap_t *snap = t->snap;
  pthread_mutex_lock(&snap->mu);
  listing_t *l = listing_of(t, dir);
  while (l && l->busy)
    pthread_cond_wait(&snap->done, &snap->mu);
  if (l && l->files) {
    *files = l->files;
    *n = l->n;
    pthread_mutex_unlock(&snap->mu);
    return HL_OK;
  }
  /* Listed without the mutex, so that the statement's threads list
   * different partitions at the same time (on an object store each
   * listing is a request); a thread that wants a directory being listed
   * waits for it.  A listing that failed is tried again by the next. */
  if (!l) {
    l = hl_arena_zalloc(snap->arena, sizeof *l);
    if (!l || hl_map_set(t->dirs, dir, strlen(dir), (uint64_t)(uintptr_t)l) < 0) {
      pthread_mutex_unlock(&snap->mu);
      return hl_err_nomem(err);
    }
  }
  l->busy = true;
  pthread_mutex_unlock(&snap->mu);
  hl_arena_t *tmp = hl_arena_create(0);
  hl_stor_entry_t *entries = NULL;
  size_t count = 0;
  hl_error_t lerr;
  hl_err_init(&lerr);
  hl_status_t rc = tmp ? hl_list_cache_list(s->list_cache, s->fs, dir, tmp, &entries, &count, &lerr)
                       : hl_err_nomem(&lerr);
  if (rc == HL_NOTFOUND) { /* a partition whose directory is missing reads as empty */
    hl_err_clear(&lerr);
    entries = NULL;
    count = 0;
    rc = HL_OK;
  }
  if (rc != HL_OK) hl_err_move(err, &lerr);
  pthread_mutex_lock(&snap->mu);
  hl_stor_entry_t *kept = NULL;
  size_t k = 0;
  if (rc == HL_OK && !(kept = hl_arena_alloc(snap->arena, sizeof *kept * (count ? count : 1))))
    rc = hl_err_nomem(err);
  for (size_t i = 0; rc == HL_OK && i < count; i++) {
    if (entries[i].is_dir || is_hidden(entries[i].name)) continue;
    kept[k] = entries[i];
    if (!(kept[k++].name = hl_arena_strdup(snap->arena, entries[i].name))) rc = hl_err_nomem(err);
  }
  if (rc == HL_OK) {
    l->files = kept;
    l->n = k;
    *files = kept;
    *n = k;
  }
  l->busy = false;
  pthread_cond_broadcast(&snap->done);
  pthread_mutex_unlock(&snap->mu);
  hl_arena_destroy(tmp);
  return rc;
}

static void *prefetch_main(void *arg) {
  prefetch_t *pf = arg;
  hl_snap_t *snap = pf->t->snap;
  for (;;) {
    pthread_mutex_lock(&snap->mu);
    size_t i = snap->stop ? pf->n : pf->next++;
    pthread_mutex_unlock(&snap->mu);
    if (i >= pf->n) return NULL;
    const hl_stor_entry_t *files;
    size_t n;
    hl_error_t e;
    hl_err_init(&e);
    /* a failure is the scan's to report: it lists the directory again */
    hl_snap_list(pf->t, pf->s, pf->dirs[i], &files, &n, &e);
    hl_err_clear(&e);
  }
}

hl_status_t hl_snap_prefetch(hl_snap_table_t *t, hl_session_t *s, const char *const *dirs, size_t n,
                             int threads, hl_error_t *err) {
  hl_snap_t *snap = t->snap;
  pthread_mutex_lock(&snap->mu);
  if (t->prefetched || n < 2 || threads < 2) {
    pthread_mutex_unlock(&snap->mu);
    return HL_OK;
  }
  t->prefetched = true;
  prefetch_t *pf = hl_arena_zalloc(snap->arena, sizeof *pf);
  char **copy = pf ? hl_arena_alloc(snap->arena, sizeof(char *) * n) : NULL;
  for (size_t i = 0; copy && i < n; i++)
    if (!(copy[i] = hl_arena_strdup(snap->arena, dirs[i]))) copy = NULL;
  if (!copy) {
    pthread_mutex_unlock(&snap->mu);
    return hl_err_nomem(err);
  }
  pf->t = t;
  pf->s = s;
  pf->dirs = copy;
  pf->n = n;
  int want = threads > PREFETCH_MAX ? PREFETCH_MAX : threads;
  if ((size_t)want > n) want = (int)n;
  for (int i = 0; i < want; i++) {
    if (pthread_create(&pf->threads[pf->n_threads], NULL, prefetch_main, pf) != 0) break;
    pf->n_threads++;
  }
  pf->next_prefetch = snap->prefetches;
  snap->prefetches = pf;
  pthread_mutex_unlock(&snap->mu);
  return HL_OK; /* no thread at all: the scans list by themselves */
}

/* ------------------------------------------------------ the root operator */

typedef struct snap_op {
  hl_op_t op;
  hl_op_t *child;
  hl_snap_t *snap;
} snap_op_t;

static hl_status_t snap_op_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  snap_op_t *so = (snap_op_t *)op;
  return so->child->next(so->child, out, err);
}

static void snap_op_close(hl_op_t *op) {
  snap_op_t *so = (snap_op_t *)op;
  if (so->child) so->child->close(so->child);
  so->child = NULL;
  hl_snap_end(so->snap);
}

hl_op_t *hl_op_snapshot_create(hl_op_t *child, hl_snap_t *snap, hl_arena_t *arena,
                               hl_error_t *err) {
  snap_op_t *so = hl_arena_zalloc(arena, sizeof *so);
  if (!so) {
    child->close(child);
    hl_snap_end(snap);
    return hl_err_nomem(err), NULL;
  }
  so->op.next = snap_op_next;
  so->op.close = snap_op_close;
  so->child = child;
  so->snap = snap;
  return &so->op;
}
