/*
 * cat_intent.c -- the write-intent log and write locks of the SQLite
 * metastore (catalog.h, schema v2 in cat_schema.c).
 *
 * src/txn records every write here before it touches a table directory
 * and marks it committed in the same SQLite transaction as the write's
 * metadata, so recovery can tell a write to roll back from one to finish.
 * Locks are rows keyed by name; the caller decides whether a holder is
 * dead (it knows how to check a process) and passes it back as STALE.
 * Statements are prepared per call: these run a few times per write, not
 * per row.
 */
#include "catalog/catalog.h"

#include "catalog/catalog_int.h"

#include <string.h>
#include <time.h>

static hl_status_t prepare(hl_cat_t *cat, const char *sql, sqlite3_stmt **st, hl_error_t *err) {
  int rc = sqlite3_prepare_v2(hl_cat_sqlite_db(cat), sql, -1, st, NULL);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(*st);
    *st = NULL;
    return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
  }
  return HL_OK;
}

static hl_status_t step_done(hl_cat_t *cat, sqlite3_stmt *st, hl_error_t *err) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return HL_OK;
  return hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
}

static void bind_owner(sqlite3_stmt *st, int first, const hl_cat_owner_t *o) {
  sqlite3_bind_text(st, first, o->host ? o->host : "", -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, first + 1, o->pid);
  sqlite3_bind_int64(st, first + 2, o->start);
}

static char *col_text(sqlite3_stmt *st, int col, hl_arena_t *arena) {
  const char *t = (const char *)sqlite3_column_text(st, col);
  return hl_arena_strndup(arena, t ? t : "", (size_t)sqlite3_column_bytes(st, col));
}

hl_status_t hl_cat_sq_intent_add(hl_cat_t *cat, const hl_cat_intent_t *intent, int64_t *id,
                                 hl_error_t *err) {
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   "INSERT INTO write_intents (kind, state, staging, plan, owner_host, owner_pid, "
                   "owner_start, create_time) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                   &st, err);
  if (status == HL_OK) {
    sqlite3_bind_text(st, 1, intent->kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, intent->state, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, intent->staging, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, intent->plan ? intent->plan : "", -1, SQLITE_STATIC);
    bind_owner(st, 5, &intent->owner);
    sqlite3_bind_int64(st, 8, intent->create_time ? intent->create_time : (int64_t)time(NULL));
    status = step_done(cat, st, err);
    if (status == HL_OK) *id = sqlite3_last_insert_rowid(hl_cat_sqlite_db(cat));
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_intent_update(hl_cat_t *cat, int64_t id, const char *state, const char *plan,
                                    hl_error_t *err) {
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status =
      prepare(cat, "UPDATE write_intents SET state = ?2, plan = coalesce(?3, plan) WHERE id = ?1",
              &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, state, -1, SQLITE_STATIC);
    if (plan)
      sqlite3_bind_text(st, 3, plan, -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 3);
    status = step_done(cat, st, err);
    if (status == HL_OK && sqlite3_changes(hl_cat_sqlite_db(cat)) == 0)
      status = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                          "write intent %lld does not exist", (long long)id);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

#define INTENT_COLUMNS                                                                             \
  "id, kind, state, staging, plan, owner_host, owner_pid, owner_start, create_time"

/* One row of INTENT_COLUMNS into *IT (strings in ARENA). */
static hl_status_t read_intent(sqlite3_stmt *st, hl_arena_t *arena, hl_cat_intent_t *it,
                               hl_error_t *err) {
  memset(it, 0, sizeof *it);
  it->id = sqlite3_column_int64(st, 0);
  it->kind = col_text(st, 1, arena);
  it->state = col_text(st, 2, arena);
  it->staging = col_text(st, 3, arena);
  it->plan = col_text(st, 4, arena);
  it->owner.host = col_text(st, 5, arena);
  it->owner.pid = sqlite3_column_int64(st, 6);
  it->owner.start = sqlite3_column_int64(st, 7);
  it->create_time = sqlite3_column_int64(st, 8);
  if (!it->kind || !it->state || !it->staging || !it->plan || !it->owner.host)
    return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_cat_sq_intent_list(hl_cat_t *cat, hl_arena_t *arena, hl_cat_intent_t **out,
                                  size_t *n, hl_error_t *err) {
  *out = NULL;
  *n = 0;
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat, "SELECT " INTENT_COLUMNS " FROM write_intents ORDER BY id", &st, err);
  size_t cap = 0;
  while (status == HL_OK) {
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
      break;
    }
    if (*n == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      hl_cat_intent_t *grown =
          hl_arena_realloc(arena, *out, cap * sizeof **out, ncap * sizeof **out);
      if (!grown) {
        status = hl_err_nomem(err);
        break;
      }
      *out = grown;
      cap = ncap;
    }
    hl_cat_intent_t *it = &(*out)[*n];
    if ((status = read_intent(st, arena, it, err)) != HL_OK) break;
    (*n)++;
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_intent_delete(hl_cat_t *cat, int64_t id, hl_error_t *err) {
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat, "DELETE FROM write_intents WHERE id = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, id);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_intent_get(hl_cat_t *cat, int64_t id, hl_arena_t *arena, hl_cat_intent_t *out,
                                 bool *found, hl_error_t *err) {
  *found = false;
  hl_status_t status = hl_cat_op_begin(cat, 0, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat, "SELECT " INTENT_COLUMNS " FROM write_intents WHERE id = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      status = read_intent(st, arena, out, err);
      *found = status == HL_OK;
    } else if (rc != SQLITE_DONE) {
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    }
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

/* Runs SQL (bound to the owner DEAD at ?1..?3) and collects column 0 of
 * every row: integers into *IDS or texts into *NAMES (the other NULL). */
static hl_status_t collect_owned(hl_cat_t *cat, const char *sql, const hl_cat_owner_t *dead,
                                 hl_arena_t *arena, int64_t **ids, char ***names, size_t *n,
                                 hl_error_t *err) {
  sqlite3_stmt *st = NULL;
  hl_status_t status = prepare(cat, sql, &st, err);
  size_t cap = 0;
  if (status == HL_OK) bind_owner(st, 1, dead);
  while (status == HL_OK) {
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
      break;
    }
    if (*n == cap) {
      size_t ncap = cap ? cap * 2 : 8;
      size_t width = ids ? sizeof(int64_t) : sizeof(char *);
      void *old = ids ? (void *)*ids : (void *)*names;
      void *grown = hl_arena_realloc(arena, old, cap * width, ncap * width);
      if (!grown) {
        status = hl_err_nomem(err);
        break;
      }
      if (ids)
        *ids = grown;
      else
        *names = grown;
      cap = ncap;
    }
    if (ids) {
      (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    } else if (!((*names)[(*n)++] = col_text(st, 0, arena))) {
      status = hl_err_nomem(err);
    }
  }
  sqlite3_finalize(st);
  return status;
}

hl_status_t hl_cat_sq_intent_claim(hl_cat_t *cat, const hl_cat_owner_t *dead,
                                   const hl_cat_owner_t *me, hl_arena_t *arena, int64_t **ids,
                                   size_t *n_ids, char ***locks, size_t *n_locks, hl_error_t *err) {
  *ids = NULL;
  *locks = NULL;
  *n_ids = *n_locks = 0;
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  status = collect_owned(cat,
                         "SELECT id FROM write_intents WHERE owner_host = ?1 AND owner_pid = ?2 "
                         "AND owner_start = ?3 ORDER BY id",
                         dead, arena, ids, NULL, n_ids, err);
  if (status == HL_OK)
    status = collect_owned(cat,
                           "SELECT name FROM write_locks WHERE owner_host = ?1 AND owner_pid = ?2 "
                           "AND owner_start = ?3 ORDER BY name",
                           dead, arena, NULL, locks, n_locks, err);
  static const char *const moves[] = {
      "UPDATE write_intents SET owner_host = ?4, owner_pid = ?5, owner_start = ?6 "
      "WHERE owner_host = ?1 AND owner_pid = ?2 AND owner_start = ?3",
      "UPDATE write_locks SET owner_host = ?4, owner_pid = ?5, owner_start = ?6 "
      "WHERE owner_host = ?1 AND owner_pid = ?2 AND owner_start = ?3"};
  for (int i = 0; status == HL_OK && i < 2; i++) {
    sqlite3_stmt *st = NULL;
    status = prepare(cat, moves[i], &st, err);
    if (status == HL_OK) {
      bind_owner(st, 1, dead);
      bind_owner(st, 4, me);
      status = step_done(cat, st, err);
    }
    sqlite3_finalize(st);
  }
  return hl_cat_op_end(cat, status, err);
}

static bool same_owner(const hl_cat_owner_t *a, const hl_cat_owner_t *b) {
  return a->pid == b->pid && a->start == b->start &&
         strcmp(a->host ? a->host : "", b->host ? b->host : "") == 0;
}

hl_status_t hl_cat_sq_lock_try(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                               const hl_cat_owner_t *stale, bool *acquired, hl_cat_owner_t *holder,
                               hl_arena_t *arena, hl_error_t *err) {
  *acquired = false;
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  bool free_lock = false, take_over = false;
  status = prepare(
      cat, "SELECT owner_host, owner_pid, owner_start FROM write_locks WHERE name = ?1", &st, err);
  if (status == HL_OK) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
      free_lock = true;
    } else if (rc == SQLITE_ROW) {
      holder->host = col_text(st, 0, arena);
      holder->pid = sqlite3_column_int64(st, 1);
      holder->start = sqlite3_column_int64(st, 2);
      if (!holder->host)
        status = hl_err_nomem(err);
      else if (same_owner(holder, me))
        *acquired = true;
      else if (stale && same_owner(holder, stale))
        take_over = true;
    } else {
      status = hl_cat_sqlite_error(hl_cat_sqlite_db(cat), rc, err);
    }
  }
  sqlite3_finalize(st);
  st = NULL;
  if (status == HL_OK && (free_lock || take_over)) {
    status =
        prepare(cat,
                "INSERT OR REPLACE INTO write_locks (name, owner_host, owner_pid, owner_start, "
                "acquired) VALUES (?1, ?2, ?3, ?4, ?5)",
                &st, err);
    if (status == HL_OK) {
      sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
      bind_owner(st, 2, me);
      sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
      status = step_done(cat, st, err);
      if (status == HL_OK) *acquired = true;
    }
    sqlite3_finalize(st);
  }
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_lock_release(hl_cat_t *cat, const char *name, const hl_cat_owner_t *me,
                                   hl_error_t *err) {
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   "DELETE FROM write_locks WHERE name = ?1 AND owner_host = ?2 AND "
                   "owner_pid = ?3 AND owner_start = ?4",
                   &st, err);
  if (status == HL_OK) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    bind_owner(st, 2, me);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}

hl_status_t hl_cat_sq_intent_hand_over(hl_cat_t *cat, int64_t id, const hl_cat_owner_t *me,
                                       const hl_cat_owner_t *to, char *const *locks, size_t n_locks,
                                       hl_error_t *err) {
  hl_status_t status = hl_cat_op_begin(cat, 1, err);
  if (status != HL_OK) return status;
  sqlite3_stmt *st = NULL;
  status = prepare(cat,
                   "UPDATE write_intents SET owner_host = ?4, owner_pid = ?5, owner_start = ?6 "
                   "WHERE id = ?7 AND owner_host = ?1 AND owner_pid = ?2 AND owner_start = ?3",
                   &st, err);
  if (status == HL_OK) {
    bind_owner(st, 1, me);
    bind_owner(st, 4, to);
    sqlite3_bind_int64(st, 7, id);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  st = NULL;
  if (status == HL_OK)
    status = prepare(cat,
                     "UPDATE write_locks SET owner_host = ?4, owner_pid = ?5, owner_start = ?6 "
                     "WHERE name = ?7 AND owner_host = ?1 AND owner_pid = ?2 AND owner_start = ?3",
                     &st, err);
  for (size_t i = 0; status == HL_OK && i < n_locks; i++) {
    sqlite3_reset(st);
    bind_owner(st, 1, me);
    bind_owner(st, 4, to);
    sqlite3_bind_text(st, 7, locks[i], -1, SQLITE_STATIC);
    status = step_done(cat, st, err);
  }
  sqlite3_finalize(st);
  return hl_cat_op_end(cat, status, err);
}
