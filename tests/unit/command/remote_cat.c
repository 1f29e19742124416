/*
 * remote_cat.c -- the test-only remote catalog backend (remote_cat.h).
 *
 * Reads go straight to the store; each write call is counted and may be
 * faulted.  Nothing here knows about journals: the catalog's dispatch
 * (cat_dispatch.c) journals the calls because transactional() is false,
 * exactly as it does for the Hive Metastore client.
 */
#include "remote_cat.h"

#include "catalog/cat_backend.h"
#include "util/mem.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

typedef struct remote_cat {
  hl_cat_t base;
  hl_cat_t *store; /* the "metastore service" */
  hl_cat_t *local; /* intents and locks */
  char *address;
  int writes; /* write calls since the fault was armed */
  int fault_at;
  remote_fault_t fault;
} remote_cat_t;

#define RC(cat) ((remote_cat_t *)(cat))

/* Before a write call: the fault, if this is call N. */
static hl_status_t before_write(hl_cat_t *cat, bool *fail_after, hl_error_t *err) {
  remote_cat_t *r = RC(cat);
  *fail_after = false;
  int n = ++r->writes;
  if (r->fault == REMOTE_DOWN && n >= r->fault_at)
    return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION),
                      "the remote metastore is not reachable");
  if (n != r->fault_at) return HL_OK;
  switch (r->fault) {
  case REMOTE_FAIL_BEFORE:
    return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR),
                      "MetaException(message:injected failure of call %d)", n);
  case REMOTE_CRASH_BEFORE:
    kill(getpid(), SIGKILL);
    break;
  case REMOTE_FAIL_AFTER:
    *fail_after = true;
    break;
  default:
    break;
  }
  return HL_OK;
}

/* After a write call that returned RC. */
static hl_status_t after_write(hl_cat_t *cat, hl_status_t rc, bool fail_after, hl_error_t *err) {
  remote_cat_t *r = RC(cat);
  if (r->fault == REMOTE_CRASH_AFTER && r->writes == r->fault_at) kill(getpid(), SIGKILL);
  if (rc == HL_OK && fail_after)
    return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION),
                      "connection to the remote metastore lost after call %d", r->writes);
  return rc;
}

#define WRITE_CALL(cat, call)                                                                      \
  do {                                                                                             \
    bool fail_after_;                                                                              \
    hl_status_t rc_ = before_write(cat, &fail_after_, err);                                        \
    if (rc_ != HL_OK) return rc_;                                                                  \
    return after_write(cat, call, fail_after_, err);                                               \
  } while (0)

static bool r_readonly(const hl_cat_t *cat) {
  return hl_cat_readonly(((const remote_cat_t *)cat)->store);
}

static void r_close(hl_cat_t *cat) {
  hl_free(RC(cat)->address);
  hl_free(cat);
}

static hl_status_t r_begin(hl_cat_t *cat, hl_error_t *err) {
  return hl_cat_begin(RC(cat)->local, err);
}

static hl_status_t r_commit(hl_cat_t *cat, hl_error_t *err) {
  return hl_cat_commit(RC(cat)->local, err);
}

static void r_rollback(hl_cat_t *cat) {
  hl_cat_rollback(RC(cat)->local);
}

static hl_status_t r_db_create(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_db_create(RC(cat)->store, db, err));
}

static hl_status_t r_db_get(hl_cat_t *cat, const char *name, hl_arena_t *arena, hl_cat_db_t **out,
                            hl_error_t *err) {
  return hl_cat_db_get(RC(cat)->store, name, arena, out, err);
}

static hl_status_t r_db_list(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                             hl_error_t *err) {
  return hl_cat_db_list(RC(cat)->store, arena, names, n, err);
}

static hl_status_t r_db_update(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_db_update(RC(cat)->store, db, err));
}

static hl_status_t r_db_drop(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_db_drop(RC(cat)->store, name, cascade, err));
}

static hl_status_t r_table_create(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_table_create(RC(cat)->store, table, err));
}

static hl_status_t r_table_get(hl_cat_t *cat, const char *db, const char *name, hl_arena_t *arena,
                               hl_cat_table_t **out, hl_error_t *err) {
  return hl_cat_table_get(RC(cat)->store, db, name, arena, out, err);
}

static hl_status_t r_table_list(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                                size_t *n, hl_error_t *err) {
  return hl_cat_table_list(RC(cat)->store, db, arena, names, n, err);
}

static hl_status_t r_table_update(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_table_update(RC(cat)->store, table, err));
}

static hl_status_t r_table_drop(hl_cat_t *cat, int64_t table_id, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_table_drop(RC(cat)->store, table_id, err));
}

static hl_status_t r_partition_add(hl_cat_t *cat, const hl_cat_partition_t *part, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_partition_add(RC(cat)->store, part, err));
}

static hl_status_t r_partition_add_many(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                        hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_partition_add_many(RC(cat)->store, parts, n, err));
}

static hl_status_t r_partition_get(hl_cat_t *cat, int64_t table_id, char *const *values,
                                   int n_values, hl_arena_t *arena, hl_cat_partition_t **out,
                                   hl_error_t *err) {
  return hl_cat_partition_get(RC(cat)->store, table_id, values, n_values, arena, out, err);
}

static hl_status_t r_partition_list(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena,
                                    hl_cat_partition_t **out, size_t *n, hl_error_t *err) {
  return hl_cat_partition_list(RC(cat)->store, table_id, arena, out, n, err);
}

static hl_status_t r_partition_count(hl_cat_t *cat, int64_t table_id, size_t *n, hl_error_t *err) {
  return hl_cat_partition_count(RC(cat)->store, table_id, n, err);
}

static hl_status_t r_partition_update(hl_cat_t *cat, const hl_cat_partition_t *part,
                                      hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_partition_update(RC(cat)->store, part, err));
}

static hl_status_t r_partition_set_columns_all(hl_cat_t *cat, int64_t table_id,
                                               const hl_cat_column_t *cols, int n,
                                               hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_partition_set_columns_all(RC(cat)->store, table_id, cols, n, err));
}

static hl_status_t r_partition_drop(hl_cat_t *cat, int64_t partition_id, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_partition_drop(RC(cat)->store, partition_id, err));
}

static hl_status_t r_locations_within(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                      hl_cat_location_user_t **out, size_t *n, hl_error_t *err) {
  return hl_cat_locations_within(RC(cat)->store, dir, arena, out, n, err);
}

static hl_status_t r_locations_at(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                                  hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                                  hl_error_t *err) {
  return hl_cat_locations_at(RC(cat)->store, paths, n_paths, arena, out, n, err);
}

static hl_status_t r_col_stats_put(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                   const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err) {
  WRITE_CALL(cat, hl_cat_col_stats_put(RC(cat)->store, table_id, partition_id, stats, n, err));
}

static hl_status_t r_col_stats_delete(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                      const char *col, bool *deleted, hl_error_t *err) {
  WRITE_CALL(cat,
             hl_cat_col_stats_delete(RC(cat)->store, table_id, partition_id, col, deleted, err));
}

static hl_status_t r_col_stats_get(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                   const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                                   hl_error_t *err) {
  return hl_cat_col_stats_get(RC(cat)->store, table_id, partition_id, col, arena, out, err);
}

static hl_status_t r_col_stats_list_parts(hl_cat_t *cat, int64_t table_id, const char *col,
                                          hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                          hl_error_t *err) {
  return hl_cat_col_stats_list_parts(RC(cat)->store, table_id, col, arena, out, n, err);
}

static hl_status_t r_partition_names(hl_cat_t *cat, int64_t table_id, const char *const *eq,
                                     hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                     hl_error_t *err) {
  return hl_cat_partition_names(RC(cat)->store, table_id, eq, arena, out, n, err);
}

static hl_status_t r_partition_get_many(hl_cat_t *cat, int64_t table_id,
                                        const hl_cat_partition_t *keys, size_t n_keys,
                                        hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                        hl_error_t *err) {
  return hl_cat_partition_get_many(RC(cat)->store, table_id, keys, n_keys, arena, out, n, err);
}

static hl_cat_t *r_local(hl_cat_t *cat) {
  return RC(cat)->local;
}

static bool r_transactional(const hl_cat_t *cat) {
  (void)cat;
  return false;
}

static const char *r_address(const hl_cat_t *cat) {
  return ((const remote_cat_t *)cat)->address;
}

static hl_status_t r_table_name(hl_cat_t *cat, int64_t table_id, hl_arena_t *arena, char **db,
                                char **name, hl_error_t *err) {
  hl_cat_t *store = RC(cat)->store;
  return store->ops->table_name(store, table_id, arena, db, name, err);
}

static hl_status_t r_partition_table(hl_cat_t *cat, int64_t partition_id, int64_t *table_id,
                                     hl_error_t *err) {
  hl_cat_t *store = RC(cat)->store;
  return store->ops->partition_table(store, partition_id, table_id, err);
}

static const hl_cat_ops_t remote_ops = {
    .name = "test-remote",
    .readonly = r_readonly,
    .close = r_close,
    .begin = r_begin,
    .commit = r_commit,
    .rollback = r_rollback,
    .db_create = r_db_create,
    .db_get = r_db_get,
    .db_list = r_db_list,
    .db_update = r_db_update,
    .db_drop = r_db_drop,
    .table_create = r_table_create,
    .table_get = r_table_get,
    .table_list = r_table_list,
    .table_update = r_table_update,
    .table_drop = r_table_drop,
    .partition_add = r_partition_add,
    .partition_add_many = r_partition_add_many,
    .partition_get = r_partition_get,
    .partition_list = r_partition_list,
    .partition_count = r_partition_count,
    .partition_update = r_partition_update,
    .partition_set_columns_all = r_partition_set_columns_all,
    .partition_drop = r_partition_drop,
    .locations_within = r_locations_within,
    .locations_at = r_locations_at,
    .col_stats_put = r_col_stats_put,
    .col_stats_delete = r_col_stats_delete,
    .col_stats_get = r_col_stats_get,
    .col_stats_list_parts = r_col_stats_list_parts,
    .partition_names = r_partition_names,
    .partition_get_many = r_partition_get_many,
    .local = r_local,
    .transactional = r_transactional,
    .address = r_address,
    .table_name = r_table_name,
    .partition_table = r_partition_table,
};

hl_status_t remote_cat_create(hl_cat_t *store, hl_cat_t *local, const char *address, hl_cat_t **out,
                              hl_error_t *err) {
  remote_cat_t *r = hl_calloc(1, sizeof *r);
  char *addr = hl_strdup(address);
  if (!r || !addr) {
    hl_free(r);
    hl_free(addr);
    return hl_err_nomem(err);
  }
  r->base.ops = &remote_ops;
  r->store = store;
  r->local = local;
  r->address = addr;
  *out = &r->base;
  return HL_OK;
}

void remote_cat_fault(hl_cat_t *cat, int n, remote_fault_t fault) {
  RC(cat)->writes = 0;
  RC(cat)->fault_at = n;
  RC(cat)->fault = fault;
}

int remote_cat_writes(const hl_cat_t *cat) {
  return ((const remote_cat_t *)cat)->writes;
}
