/*
 * hms_lock.c -- the in-memory lock manager of `hivelite metastore`
 * (hms_lock.h): a list of locks in request order under one mutex.  Every
 * call first drops the locks whose heartbeat is older than the timeout,
 * then re-evaluates the waiting ones, oldest first.
 */
#include "hms_server/hms_lock.h"

#include "util/mem.h"

#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef struct comp {
  int32_t type, level;
  char *db, *table, *part; /* lower-case copies; table/part NULL when absent */
} comp_t;

typedef struct lock {
  int64_t id;
  int32_t state; /* ACQUIRED or WAITING */
  comp_t *comps;
  uint32_t n;
  char *user, *host, *agent;
  int has_txnid;
  int64_t txnid;
  int64_t beat_mono;  /* monotonic ms of the last heartbeat */
  int64_t beat_epoch; /* wall-clock ms of the same */
  int64_t acquired_at;
  int32_t beats;
  struct lock *next;
} lock_t;

struct hl_hms_locks {
  pthread_mutex_t mu;
  int64_t timeout_ms;
  int64_t next_id;
  lock_t *head, **tail; /* request order */
  size_t count;
  size_t n_comps; /* components of all locks */
  int dirty;      /* a lock came or went since waiting ones were checked */
};

static int64_t now_ms(clockid_t clk) {
  struct timespec ts;
  clock_gettime(clk, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

hl_hms_locks_t *hl_hms_locks_create(int64_t timeout_ms) {
  hl_hms_locks_t *m = hl_calloc(1, sizeof *m);
  if (!m) return NULL;
  if (pthread_mutex_init(&m->mu, NULL) != 0) {
    hl_free(m);
    return NULL;
  }
  m->timeout_ms = timeout_ms;
  m->next_id = 1;
  m->tail = &m->head;
  return m;
}

static void lock_free(lock_t *l) {
  for (uint32_t i = 0; i < l->n; i++) {
    hl_free(l->comps[i].db);
    hl_free(l->comps[i].table);
    hl_free(l->comps[i].part);
  }
  hl_free(l->comps);
  hl_free(l->user);
  hl_free(l->host);
  hl_free(l->agent);
  hl_free(l);
}

void hl_hms_locks_destroy(hl_hms_locks_t *m) {
  if (!m) return;
  for (lock_t *l = m->head, *next; l; l = next) {
    next = l->next;
    lock_free(l);
  }
  pthread_mutex_destroy(&m->mu);
  hl_free(m);
}

/* Hive's names are case-insensitive: components compare lower-cased.
 * NULL stays NULL; *FAILED is set on OOM. */
static char *lower_dup(const char *s, int *failed) {
  if (!s) return NULL;
  char *d = hl_strdup(s);
  if (!d) {
    *failed = 1;
    return NULL;
  }
  for (char *p = d; *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  return d;
}

/* Do components A and B cover a common object? */
static int overlap(const comp_t *a, const comp_t *b) {
  if (strcmp(a->db, b->db) != 0) return 0;
  if (a->level == HL_HMS_LEVEL_DB || b->level == HL_HMS_LEVEL_DB || !a->table || !b->table)
    return 1;
  if (strcmp(a->table, b->table) != 0) return 0;
  if (a->level == HL_HMS_LEVEL_TABLE || b->level == HL_HMS_LEVEL_TABLE || !a->part || !b->part)
    return 1;
  return strcmp(a->part, b->part) == 0;
}

/* May a component of type WANT be granted beside one of type HAVE?  (The
 * compatibility table of Hive's TxnHandler for these types; EXCL_WRITE,
 * Hive 4's, excludes every writer but admits readers.) */
static int compatible(int32_t want, int32_t have) {
  if (want == HL_HMS_LOCK_EXCLUSIVE || have == HL_HMS_LOCK_EXCLUSIVE) return 0;
  if (want == HL_HMS_LOCK_SHARED_READ || have == HL_HMS_LOCK_SHARED_READ) return 1;
  return 0; /* two writers of SHARED_WRITE / EXCL_WRITE */
}

static int conflicts(const lock_t *a, const lock_t *b) {
  for (uint32_t i = 0; i < a->n; i++)
    for (uint32_t j = 0; j < b->n; j++)
      if (overlap(&a->comps[i], &b->comps[j]) && !compatible(a->comps[i].type, b->comps[j].type))
        return 1;
  return 0;
}

/* Drops timed-out locks, then grants each waiting lock that no older lock
 * conflicts with. */
static void refresh(hl_hms_locks_t *m) {
  int64_t now = now_ms(CLOCK_MONOTONIC);
  m->tail = &m->head;
  for (lock_t **pp = &m->head; *pp;) {
    lock_t *l = *pp;
    if (now - l->beat_mono > m->timeout_ms) {
      *pp = l->next;
      m->n_comps -= l->n;
      lock_free(l);
      m->count--;
      m->dirty = 1;
      continue;
    }
    pp = &l->next;
    m->tail = pp;
  }
  /* nothing came or went: no waiting lock can have become free (polling
   * check_lock costs one pass, not a pass per pair of locks) */
  if (!m->dirty) return;
  m->dirty = 0;
  for (lock_t *l = m->head; l; l = l->next) {
    if (l->state != HL_HMS_LOCK_WAITING) continue;
    int blocked = 0;
    for (lock_t *o = m->head; o != l && !blocked; o = o->next)
      blocked = conflicts(l, o);
    if (!blocked) {
      l->state = HL_HMS_LOCK_ACQUIRED;
      l->acquired_at = now_ms(CLOCK_REALTIME);
    }
  }
}

static lock_t *find(hl_hms_locks_t *m, int64_t id) {
  for (lock_t *l = m->head; l; l = l->next)
    if (l->id == id) return l;
  return NULL;
}

static void beat(lock_t *l) {
  l->beat_mono = now_ms(CLOCK_MONOTONIC);
  l->beat_epoch = now_ms(CLOCK_REALTIME);
  l->beats++;
}

int hl_hms_lock_request(hl_hms_locks_t *m, const hl_hms_lock_request_t *req,
                        hl_hms_lock_response_t *resp) {
  memset(resp, 0, sizeof *resp);
  lock_t *l = hl_calloc(1, sizeof *l);
  int failed = !l;
  if (l && req->n_components && !(l->comps = hl_calloc(req->n_components, sizeof *l->comps)))
    failed = 1;
  if (l && l->comps) {
    l->n = req->n_components;
    for (uint32_t i = 0; i < l->n; i++) {
      const hl_hms_lock_component_t *c = &req->components[i];
      l->comps[i].type = c->type;
      l->comps[i].level = c->level;
      l->comps[i].db = lower_dup(c->dbname ? c->dbname : "", &failed);
      l->comps[i].table = lower_dup(c->tablename, &failed);
      l->comps[i].part =
          c->level == HL_HMS_LEVEL_PARTITION ? lower_dup(c->partitionname, &failed) : NULL;
    }
  }
  if (l) {
    l->user = hl_strdup(req->user ? req->user : ""); /* kept as sent */
    l->host = hl_strdup(req->hostname ? req->hostname : "");
    l->agent = req->agent_info ? hl_strdup(req->agent_info) : NULL;
    if (!l->user || !l->host || (req->agent_info && !l->agent)) failed = 1;
    l->has_txnid = req->has_txnid;
    l->txnid = req->txnid;
  }
  if (failed) {
    if (l) lock_free(l);
    return -1;
  }
  pthread_mutex_lock(&m->mu);
  refresh(m);
  if (m->count >= HL_HMS_MAX_LOCKS || l->n > HL_HMS_MAX_LOCK_COMPONENTS ||
      m->n_comps + l->n > HL_HMS_MAX_LOCK_COMPONENTS) {
    pthread_mutex_unlock(&m->mu);
    lock_free(l);
    return HL_HMS_LOCK_FULL;
  }
  l->id = m->next_id++;
  l->state = HL_HMS_LOCK_WAITING;
  beat(l);
  l->beats = 0;
  *m->tail = l;
  m->tail = &l->next;
  m->count++;
  m->n_comps += l->n;
  m->dirty = 1;
  refresh(m);
  resp->lockid = l->id;
  resp->state = l->state;
  pthread_mutex_unlock(&m->mu);
  return HL_HMS_LOCK_OK;
}

int hl_hms_lock_check(hl_hms_locks_t *m, int64_t id, hl_hms_lock_response_t *resp) {
  memset(resp, 0, sizeof *resp);
  pthread_mutex_lock(&m->mu);
  refresh(m);
  lock_t *l = find(m, id);
  if (l) {
    beat(l);
    resp->lockid = id;
    resp->state = l->state;
  }
  pthread_mutex_unlock(&m->mu);
  return l ? HL_HMS_LOCK_OK : HL_HMS_LOCK_NO_SUCH;
}

int hl_hms_lock_unlock(hl_hms_locks_t *m, int64_t id) {
  int rc = HL_HMS_LOCK_NO_SUCH;
  pthread_mutex_lock(&m->mu);
  refresh(m);
  for (lock_t **pp = &m->head; *pp; pp = &(*pp)->next)
    if ((*pp)->id == id) {
      lock_t *l = *pp;
      *pp = l->next;
      m->n_comps -= l->n;
      lock_free(l);
      m->count--;
      m->dirty = 1;
      rc = HL_HMS_LOCK_OK;
      break;
    }
  refresh(m); /* fixes the tail and grants what waited for it */
  pthread_mutex_unlock(&m->mu);
  return rc;
}

int hl_hms_lock_heartbeat(hl_hms_locks_t *m, int64_t id) {
  pthread_mutex_lock(&m->mu);
  refresh(m);
  lock_t *l = find(m, id);
  if (l) beat(l);
  pthread_mutex_unlock(&m->mu);
  return l ? HL_HMS_LOCK_OK : HL_HMS_LOCK_NO_SUCH;
}

static int match(const char *filter, const char *v) {
  return !filter || (v && strcasecmp(filter, v) == 0);
}

int hl_hms_lock_show(hl_hms_locks_t *m, const hl_hms_show_locks_request_t *req, hl_arena_t *arena,
                     hl_hms_show_locks_response_t *out) {
  int rc = 0;
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&m->mu);
  refresh(m);
  size_t n = 0;
  for (lock_t *l = m->head; l; l = l->next)
    n += l->n;
  out->locks = hl_arena_zalloc(arena, sizeof *out->locks * (n ? n : 1));
  if (!out->locks) rc = -1;
  for (lock_t *l = m->head; l && !rc; l = l->next)
    for (uint32_t i = 0; i < l->n && !rc; i++) {
      const comp_t *c = &l->comps[i];
      if (!match(req->dbname, c->db) || !match(req->tablename, c->table) ||
          !match(req->partname, c->part))
        continue;
      hl_hms_show_locks_element_t *e = &out->locks[out->n_locks++];
      e->lockid = l->id;
      e->state = l->state;
      e->type = c->type;
      e->lastheartbeat = l->beat_epoch;
      e->has_acquiredat = l->state == HL_HMS_LOCK_ACQUIRED;
      e->acquiredat = l->acquired_at;
      e->has_txnid = l->has_txnid;
      e->txnid = l->txnid;
      e->has_heartbeat_count = 1;
      e->heartbeat_count = l->beats;
      e->dbname = hl_arena_strdup(arena, c->db);
      e->tablename = c->table ? hl_arena_strdup(arena, c->table) : NULL;
      e->partname = c->part ? hl_arena_strdup(arena, c->part) : NULL;
      e->user = hl_arena_strdup(arena, l->user);
      e->hostname = hl_arena_strdup(arena, l->host);
      e->agent_info = l->agent ? hl_arena_strdup(arena, l->agent) : NULL;
      if (!e->dbname || !e->user || !e->hostname || (c->table && !e->tablename) ||
          (c->part && !e->partname) || (l->agent && !e->agent_info))
        rc = -1;
    }
  pthread_mutex_unlock(&m->mu);
  return rc;
}

/* ------------------------------------------------- the lock methods */

#include "hms/hms_call.h"
#include "hms_server/hms_write.h"

/* Reads { 1: <request struct> } with READ into OUT (zeroed when absent:
 * a missing request is a protocol error for the methods whose request
 * has required fields, REQUIRED). */
static hl_status_t read_req(hl_hms_dec_t *d, void *out, size_t size,
                            hl_status_t (*read)(hl_hms_dec_t *, void *), int required,
                            const char *method) {
  hl_ttype_t t;
  int16_t id;
  int seen = 0;
  memset(out, 0, size);
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    if (id == 1 && t == HL_TT_STRUCT) {
      rc = read(d, out);
      seen = 1;
    } else {
      rc = hl_tr_skip(&d->r, t);
    }
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  if (!rc && !seen && required) rc = hl_tr_fail(&d->r, "%s: no request given", method);
  return rc;
}

#define READER(name, type)                                                                         \
  static hl_status_t name##_v(hl_hms_dec_t *d, void *p) {                                          \
    return hl_hms_read_##name(d, (type *)p);                                                       \
  }
READER(lock_request, hl_hms_lock_request_t)
READER(check_lock_request, hl_hms_check_lock_request_t)
READER(unlock_request, hl_hms_unlock_request_t)
READER(heartbeat_request, hl_hms_heartbeat_request_t)
READER(show_locks_request, hl_hms_show_locks_request_t)

static void reply_lock_response(hl_hms_wcall_t *c, const hl_hms_lock_response_t *r) {
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_lock_response(c->out, r);
  hl_tw_stop(c->out);
}

static void no_such_lock(hl_hms_wcall_t *c, int16_t id, int64_t lockid) {
  char *msg = hl_arena_sprintf(c->arena, "No such lock: %lld (it was released or timed out)",
                               (long long)lockid);
  hl_hms_wreply_exception(c, id, msg ? msg : "No such lock");
}

/* Checks a component (levels and types Hive defines; a table below a
 * table-level lock; a partition below a partition-level one). */
static const char *bad_component(const hl_hms_lock_component_t *k) {
  if (k->type < HL_HMS_LOCK_SHARED_READ || k->type > HL_HMS_LOCK_EXCL_WRITE)
    return "unknown lock type";
  if (k->level < HL_HMS_LEVEL_DB || k->level > HL_HMS_LEVEL_PARTITION) return "unknown lock level";
  if (!k->dbname || !*k->dbname) return "a lock component without a database";
  if (k->level >= HL_HMS_LEVEL_TABLE && (!k->tablename || !*k->tablename))
    return "a table or partition lock without a table name";
  if (k->level == HL_HMS_LEVEL_PARTITION && (!k->partitionname || !*k->partitionname))
    return "a partition lock without a partition name";
  return NULL;
}

hl_status_t hl_hms_lock_dispatch(hl_hms_wcall_t *c, hl_hms_dec_t *d, int *handled,
                                 hl_error_t *err) {
  hl_hms_locks_t *m = c->env ? c->env->locks : NULL;
  hl_status_t rc;
  hl_hms_lock_response_t resp;
  *handled = 1;
  if (strcmp(c->method, "lock") == 0) {
    /* lock(1 LockRequest) throws (1 NoSuchTxn, 2 TxnAborted) */
    hl_hms_lock_request_t q;
    if ((rc = read_req(d, &q, sizeof q, lock_request_v, 1, c->method))) return rc;
    const char *bad = q.n_components ? NULL : "a lock request without components";
    for (uint32_t i = 0; i < q.n_components && !bad; i++)
      bad = bad_component(&q.components[i]);
    if (q.has_txnid && q.txnid > 0) {
      hl_hms_wreply_exception(c, 1,
                              "hivelite's metastore has no transactions: only locks "
                              "without a txnid are served");
    } else if (bad) {
      hl_hms_write_app_exception_reply(c->out, c->method, c->seqid, HL_TAPP_UNKNOWN, bad);
    } else {
      int r = m ? hl_hms_lock_request(m, &q, &resp) : HL_HMS_LOCK_FULL;
      if (r < 0) return hl_err_nomem(err);
      if (r == HL_HMS_LOCK_FULL)
        hl_hms_write_app_exception_reply(c->out, c->method, c->seqid, HL_TAPP_INTERNAL_ERROR,
                                         "too many locks or lock components are held or waiting");
      else
        reply_lock_response(c, &resp);
    }
  } else if (strcmp(c->method, "check_lock") == 0) {
    /* check_lock(1 CheckLockRequest) throws (1 NoSuchTxn, 2 TxnAborted,
     * 3 NoSuchLock) */
    hl_hms_check_lock_request_t q;
    if ((rc = read_req(d, &q, sizeof q, check_lock_request_v, 1, c->method))) return rc;
    if (m && hl_hms_lock_check(m, q.lockid, &resp) == HL_HMS_LOCK_OK)
      reply_lock_response(c, &resp);
    else
      no_such_lock(c, 3, q.lockid);
  } else if (strcmp(c->method, "unlock") == 0) {
    /* unlock(1 UnlockRequest) throws (1 NoSuchLock, 2 TxnOpen) */
    hl_hms_unlock_request_t q;
    if ((rc = read_req(d, &q, sizeof q, unlock_request_v, 1, c->method))) return rc;
    if (m && hl_hms_lock_unlock(m, q.lockid) == HL_HMS_LOCK_OK)
      hl_hms_wreply_void(c);
    else
      no_such_lock(c, 1, q.lockid);
  } else if (strcmp(c->method, "heartbeat") == 0) {
    /* heartbeat(1 HeartbeatRequest) throws (1 NoSuchLock, 2 NoSuchTxn,
     * 3 TxnAborted) */
    hl_hms_heartbeat_request_t q;
    if ((rc = read_req(d, &q, sizeof q, heartbeat_request_v, 0, c->method))) return rc;
    if (q.has_txnid && q.txnid > 0)
      hl_hms_wreply_exception(c, 2, "hivelite's metastore has no transactions");
    else if (!q.has_lockid || (m && hl_hms_lock_heartbeat(m, q.lockid) == HL_HMS_LOCK_OK))
      hl_hms_wreply_void(c);
    else
      no_such_lock(c, 1, q.lockid);
  } else if (strcmp(c->method, "show_locks") == 0) {
    hl_hms_show_locks_request_t q;
    hl_hms_show_locks_response_t r = {0};
    if ((rc = read_req(d, &q, sizeof q, show_locks_request_v, 0, c->method))) return rc;
    if (m && hl_hms_lock_show(m, &q, c->arena, &r) < 0) return hl_err_nomem(err);
    hl_hms_wreply_begin(c);
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_hms_write_show_locks_response(c->out, &r);
    hl_tw_stop(c->out);
  } else {
    *handled = 0;
  }
  return HL_OK;
}
