/*
 * cmd_profile.c -- PROFILE TABLE t [PARTITION (spec)] [WHERE expr]
 * [LIMIT n] [FULL | INCREMENTAL [AS 'name'] [WITH LATE]].
 *
 * One pass over the selected rows profiles every column at once
 * (vector/profile.h: counts, distinct, min/max, moments, quantiles, string
 * lengths, frequent values).  The rows are those of `SELECT * FROM t WHERE
 * expr`, bound by the planner (plan/bind.c: partition pruning, pushed
 * predicates), read unit by unit -- a partition, or the unpartitioned
 * table -- by the same scan operator a query uses, under one snapshot
 * (exec/snapshot.h: one reader lock and one listing for the statement).
 *
 * Without LIMIT the units are read by worker threads (hivelite.threads),
 * each into its own states, and merged into the totals in unit order as
 * they finish: the result does not depend on the threads.  The state of
 * every unit read whole and without a row filter is stored in the catalog
 * under the fingerprint of its files (names, sizes, mtimes, from the
 * listing); the next profile merges a stored state whose fingerprint still
 * matches instead of reading the unit, so re-profiling a table after one
 * partition changed reads that one partition.
 *
 * With LIMIT n the units are read newest first (plan/incr.h), one after
 * the other, and the last one is cut short: exactly min(n, rows selected)
 * rows are profiled, counted as they are read (never from statistics).
 *
 * Partition keys are profiled too, after the data columns: a key holds
 * one value on every row of its partition, added once per unit with its
 * row count (hl_prof_col_add_repeat), so they cost nothing to read and
 * need no stored state.
 *
 * INCREMENTAL is cmd_profile_incr.c.  The statement returns the column
 * profiles, then (api hl_next_result) a one-row summary.
 */
#include "command/cmd_profile.h"

#include "exec/ops.h"
#include "exec/query.h"
#include "plan/projection.h"
#include "session/budget.h"
#include "session/catalogs.h"
#include "session/notify.h"
#include "sql/parser.h"
#include "txn/txn.h"
#include "util/mem.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Warnings and JSON text
 * ------------------------------------------------------------------------ */

void hl_prof_json_string(hl_buf_t *b, const char *s) {
  hl_buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      hl_buf_putc(b, '\\');
      hl_buf_putc(b, (char)*p);
    } else if (*p < 0x20) {
      hl_buf_printf(b, "\\u%04x", *p);
    } else {
      hl_buf_putc(b, (char)*p);
    }
  }
  hl_buf_putc(b, '"');
}

hl_status_t hl_prof_warn(hl_prof_run_t *r, const char *code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (r->n_warnings++) hl_buf_putc(&r->warnings, ',');
  hl_buf_puts(&r->warnings, "{\"code\":");
  hl_prof_json_string(&r->warnings, code);
  hl_buf_puts(&r->warnings, ",\"message\":");
  hl_prof_json_string(&r->warnings, msg);
  hl_buf_putc(&r->warnings, '}');
  hl_notify_warn(&r->s->notify, "%s: %s", code, msg);
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * The rows: SELECT * FROM t WHERE ...
 * ------------------------------------------------------------------------ */

void hl_prof_quote_ident(hl_buf_t *b, const char *name) {
  hl_buf_putc(b, '`');
  for (const char *p = name; *p; p++) {
    if (*p == '`') hl_buf_putc(b, '`');
    hl_buf_putc(b, *p);
  }
  hl_buf_putc(b, '`');
}

static hl_ast_expr_t *and_expr(hl_arena_t *arena, hl_ast_expr_t *a, hl_ast_expr_t *b) {
  if (!a || !b) return a ? a : b;
  hl_ast_expr_t *e = hl_arena_zalloc(arena, sizeof *e);
  hl_ast_expr_t **args = hl_arena_alloc(arena, sizeof *args * 2);
  if (!e || !args) return NULL;
  e->kind = HL_AST_BINARY;
  e->op = HL_OP_AND;
  e->pos = a->pos;
  args[0] = a;
  args[1] = b;
  e->args = args;
  e->n_args = 2;
  return e;
}

/* Binds SELECT * FROM <the table> WHERE <the statement's WHERE> [AND the
 * incremental value filter]: the planner prunes partitions and pushes
 * predicates exactly as for a query. */
static hl_status_t bind_rows(hl_prof_run_t *r, hl_error_t *err) {
  const hl_ast_qname_t *q = &r->stmt->table;
  hl_buf_t sql;
  hl_buf_init(&sql);
  hl_buf_puts(&sql, "SELECT * FROM ");
  hl_prof_quote_ident(&sql, r->catalog);
  hl_buf_putc(&sql, '.');
  hl_prof_quote_ident(&sql, r->t->cat->db_name);
  hl_buf_putc(&sql, '.');
  hl_prof_quote_ident(&sql, r->t->cat->name);
  if (r->value_filter) {
    hl_buf_puts(&sql, " WHERE ");
    hl_buf_puts(&sql, r->value_filter);
  }
  if (sql.oom) {
    hl_buf_fini(&sql);
    return hl_err_nomem(err);
  }
  hl_ast_stmt_t *st = NULL;
  size_t used;
  hl_status_t rc = hl_sql_parse(r->arena, sql.data, sql.len, &st, &used, err);
  hl_buf_fini(&sql);
  if (rc != HL_OK) return rc;
  if (!st || st->kind != HL_STMT_SELECT || !st->select)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "PROFILE: bad row query");
  hl_ast_select_t *sel = st->select;
  sel->from->pos = sel->from_item->pos = q->pos;
  if (r->stmt->profile_where) {
    sel->where = and_expr(r->arena, r->stmt->profile_where, sel->where);
    if (!sel->where) return hl_err_nomem(err);
  }
  r->has_where = sel->where != NULL;
  rc = hl_plan_select(r->s, sel, r->arena, &r->plan, err);
  if (rc != HL_OK) return rc;
  if (!r->plan->from || r->plan->from->kind != HL_REL_SCAN)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "PROFILE: the rows are no scan");
  r->scan = r->plan->from->scan;
  return hl_exec_scan_filter(r->scan, r->plan->filter, r->arena, &r->filter, err);
}

/* Keeps of the plan's partitions those PARTITION (spec) names. */
static hl_status_t apply_spec(hl_prof_run_t *r, hl_error_t *err) {
  const hl_ast_part_spec_t *spec = r->stmt->part_spec;
  hl_table_t *t = r->t;
  if (!spec) return HL_OK;
  hl_cmd_part_filter_t f;
  hl_status_t rc = hl_cmd_read_spec_compile(r->s, t, spec, r->arena, &f, err);
  if (rc != HL_OK) return rc;
  size_t kept = 0;
  for (size_t i = 0; i < r->scan->n_parts; i++)
    if (hl_cmd_part_filter_match(t, &f, &r->scan->parts[i], r->arena))
      r->scan->parts[kept++] = r->scan->parts[i];
  r->scan->n_parts = kept;
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * Units: listing, stored states, reading
 * ------------------------------------------------------------------------ */

/* Fingerprint of a unit's files (the listing is in name order): count,
 * bytes, and a hash (util/hashmap.h's, stable across runs) of every name,
 * size and mtime. */
static char *listing_fp(const hl_stor_entry_t *files, size_t n) {
  hl_buf_t b;
  hl_buf_init(&b);
  uint64_t bytes = 0;
  for (size_t i = 0; i < n; i++) {
    hl_buf_printf(&b, "%s/%llu/%lld/", files[i].name, (unsigned long long)files[i].size,
                  (long long)files[i].mtime_ns);
    bytes += files[i].size;
  }
  char buf[80];
  snprintf(buf, sizeof buf, "%zu:%llu:%016llx", n, (unsigned long long)bytes,
           (unsigned long long)hl_hash_bytes(b.data ? b.data : "", b.len));
  bool oom = b.oom;
  hl_buf_fini(&b);
  return oom ? NULL : hl_strdup(buf);
}

static void free_states(hl_prof_col_t **cols, int n) {
  if (!cols) return;
  for (int c = 0; c < n; c++)
    hl_prof_col_free(cols[c]);
  hl_free(cols);
}

static hl_prof_col_t **new_states(hl_prof_run_t *r, hl_error_t *err) {
  hl_prof_col_t **cols = hl_calloc((size_t)r->n_cols + 1, sizeof *cols);
  if (!cols) return hl_err_nomem(err), NULL;
  for (int c = 0; c < r->n_cols; c++)
    if (!(cols[c] = hl_prof_col_new(r->t->types[c], err))) {
      free_states(cols, r->n_cols);
      return NULL;
    }
  return cols;
}

/* States for the partition keys (columns n_data.. of the table). */
static hl_prof_col_t **key_states(hl_prof_run_t *r, hl_error_t *err) {
  int n = r->t->n_part;
  hl_prof_col_t **cols = hl_calloc((size_t)n + 1, sizeof *cols);
  if (!cols) return hl_err_nomem(err), NULL;
  for (int k = 0; k < n; k++)
    if (!(cols[k] = hl_prof_col_new(r->t->types[r->n_cols + k], err))) {
      free_states(cols, n);
      return NULL;
    }
  return cols;
}

/* The stored state of column C among the unit's STATES[0..n) (ordered by
 * column) when it was made from the files the unit has now (same
 * fingerprint, same column type), else NULL. */
static const hl_cat_prof_state_t *stored_state(const hl_prof_run_t *r,
                                               const hl_cat_prof_state_t *states, size_t n,
                                               const hl_prof_unit_t *u, int c, hl_arena_t *tmp) {
  char *type = hl_type_to_string(tmp, r->t->types[c]);
  for (size_t i = 0; type && i < n; i++)
    if (strcmp(states[i].column, r->t->names[c]) == 0)
      return strcmp(states[i].col_type, type) == 0 && strcmp(states[i].fingerprint, u->fp) == 0
                 ? &states[i]
                 : NULL;
  return NULL;
}

typedef struct reader {
  hl_prof_run_t *r;
  bool concurrent; /* units read by several threads at once (each scan keeps off the
                      session's Parquet footer cache, which is for one thread) */
  pthread_mutex_t mu;
  pthread_mutex_t cat_mu; /* the catalog: one connection for the workers and the merger */
  pthread_cond_t cv;
  size_t next;    /* first unit no worker has taken */
  size_t stored;  /* first merged unit whose states are not stored yet */
  size_t pending; /* bytes of encoded states merged but not stored */
  bool failed;
  hl_error_t err; /* the first failure */
} reader_t;

/* Adds rows [0, take) of the live rows of B to STATES, but for the
 * columns SKIP names (answered from the file's statistics). */
static hl_status_t add_batch(hl_prof_run_t *r, hl_prof_col_t **states, const hl_batch_t *b,
                             uint32_t take, const bool *skip, hl_error_t *err) {
  for (int c = 0; c < r->n_cols; c++) {
    if (skip && skip[c]) continue;
    hl_status_t rc = hl_prof_col_add(states[c], &b->cols[c], b->sel, take, err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

typedef struct meta_ctx {
  hl_prof_run_t *r;
  hl_prof_unit_t *u;
} meta_ctx_t;

/* hl_scan_meta_fn: a file's statistics answer data column COL. */
static hl_status_t meta_add(void *ctx, int col, const hl_chunk_meta_t *chunks, size_t n,
                            hl_error_t *err) {
  meta_ctx_t *m = ctx;
  hl_prof_unit_t *u = m->u;
  if (!u->meta_files) {
    u->meta_files = hl_calloc((size_t)m->r->n_cols + 1, sizeof *u->meta_files);
    u->meta_chunks = hl_calloc((size_t)m->r->n_cols + 1, sizeof *u->meta_chunks);
    if (!u->meta_files || !u->meta_chunks) return hl_err_nomem(err);
  }
  for (size_t i = 0; i < n; i++) {
    hl_status_t rc = hl_prof_col_add_repeat(u->cols[col], &chunks[i].value, chunks[i].values,
                                            chunks[i].nulls, err);
    if (rc != HL_OK) return rc;
  }
  u->meta_files[col]++;
  u->meta_chunks[col] += n;
  return HL_OK;
}

/* Reads unit U into its states: from the stored states when they match,
 * else through a scan of the unit alone.  Takes at most *LIMIT rows and
 * lowers it by what it took. */
static hl_status_t read_unit(reader_t *rd, hl_prof_unit_t *u, uint64_t *limit, hl_error_t *err) {
  hl_prof_run_t *r = rd->r;
  hl_session_t *s = r->s;
  const char *dir = u->part ? u->part->location : r->t->cat->location;
  const hl_stor_entry_t *files;
  size_t n_files;
  hl_status_t rc = hl_snap_list(r->snap_table, s, dir, &files, &n_files, err);
  if (rc != HL_OK) return rc;
  if (!(u->fp = listing_fp(files, n_files))) return hl_err_nomem(err);
  if (!(u->cols = new_states(r, err))) return err->code;
  hl_arena_t *ua = hl_arena_create_charged(0, hl_arena_account(r->arena));
  if (!ua) return hl_err_nomem(err);
  /* stored states: only for whole units without a row filter, and under
   * a LIMIT only when the whole unit fits */
  if (!r->has_where && !u->late) {
    bool all = true;
    int64_t rows = -1;
    hl_cat_prof_state_t *states = NULL;
    size_t n_states = 0;
    const hl_cat_prof_state_t **found =
        hl_arena_zalloc(ua, sizeof *found * (size_t)(r->n_cols + 1));
    if (!found) rc = hl_err_nomem(err);
    if (rc == HL_OK) {
      pthread_mutex_lock(&rd->cat_mu);
      rc = hl_cat_prof_get(r->cat, r->catalog, r->t->cat->db_name, r->t->cat->name, u->name, ua,
                           &states, &n_states, err);
      pthread_mutex_unlock(&rd->cat_mu);
    }
    for (int c = 0; rc == HL_OK && all && c < r->n_cols; c++) {
      found[c] = stored_state(r, states, n_states, u, c, ua);
      all = found[c] && (rows < 0 || found[c]->rows == rows);
      if (found[c]) rows = found[c]->rows;
    }
    if (rc == HL_OK && all && r->n_cols > 0 && (uint64_t)rows <= *limit) {
      for (int c = 0; rc == HL_OK && c < r->n_cols; c++) {
        hl_prof_col_t *d =
            hl_prof_col_decode(r->t->types[c], found[c]->state, found[c]->state_len, err);
        if (!d) {
          rc = err->code;
          break;
        }
        hl_prof_col_free(u->cols[c]);
        u->cols[c] = d;
      }
      if (rc == HL_OK) {
        u->reuse = u->whole = true;
        u->rows = (uint64_t)rows;
        *limit -= (uint64_t)rows;
      }
      if (rc != HL_CORRUPT) {
        hl_arena_destroy(ua);
        return rc;
      }
      /* a state that does not decode (XX001: an older format, or damage)
       * is not a failure: the unit is read again, from empty states */
      hl_err_clear(err);
      rc = HL_OK;
      free_states(u->cols, r->n_cols);
      if (!(u->cols = new_states(r, err))) rc = err->code;
    }
  }
  hl_plan_scan_t *plan = hl_arena_alloc(ua, sizeof *plan);
  if (rc == HL_OK && !plan) rc = hl_err_nomem(err);
  hl_op_t *op = NULL;
  if (rc == HL_OK) {
    *plan = *r->scan;
    plan->actual = NULL; /* the statement's plan was checked against the catalog */
    plan->pin_eq = NULL;
    plan->parts = u->part;
    plan->n_parts = plan->n_parts_total = u->part ? 1 : 0;
    op = hl_op_scan_create(s, r->snap, plan, ua, err);
    if (!op) rc = err->code;
  }
  if (rc == HL_OK && rd->concurrent) hl_op_scan_set_concurrent(op);
  if (rc == HL_OK && r->filter) rc = hl_op_scan_set_filter(op, r->filter, err);
  /* whole files without a row filter or limit: what their statistics
   * answer is not decoded */
  meta_ctx_t mc = {r, u};
  if (rc == HL_OK && r->meta_want && !r->has_where && *limit == UINT64_MAX)
    hl_op_scan_set_meta(op, r->meta_want, meta_add, &mc);
  bool cut = false;
  while (rc == HL_OK) {
    hl_batch_t *b;
    if ((rc = hl_budget_check_cancel(&s->budget, err)) != HL_OK) break;
    pthread_mutex_lock(&rd->mu);
    bool stop = rd->failed;
    pthread_mutex_unlock(&rd->mu);
    if (stop) break;
    if ((rc = op->next(op, &b, err)) != HL_OK || !b) break;
    uint32_t live = hl_batch_live(b);
    if (live == 0) continue;
    if (*limit == 0) {
      cut = true;
      break;
    }
    uint32_t take = (uint64_t)live > *limit ? (uint32_t)*limit : live;
    if (take < live) cut = true;
    if ((rc = add_batch(r, u->cols, b, take, hl_op_scan_meta_cols(op), err)) != HL_OK) break;
    u->rows += take;
    *limit -= take;
    if (cut) break;
  }
  if (op) op->close(op);
  hl_arena_destroy(ua);
  if (rc != HL_OK) return rc;
  u->whole = !cut && !r->has_where;
  if (cut) r->cut = true;
  if (u->whole) { /* to store: encoded now, while the worker has the state */
    u->enc = hl_calloc((size_t)r->n_cols + 1, sizeof *u->enc);
    if (!u->enc) return hl_err_nomem(err);
    for (int c = 0; rc == HL_OK && c < r->n_cols; c++) {
      hl_buf_init(&u->enc[c]);
      rc = hl_prof_col_encode(u->cols[c], &u->enc[c], err);
    }
  }
  return rc;
}

/* Encoded states are stored in batches of about this many bytes. */
#define HL_PROF_STORE_BATCH ((size_t)8 << 20)

static void fail(reader_t *rd, hl_error_t *err) {
  pthread_mutex_lock(&rd->mu);
  if (!rd->failed) {
    rd->failed = true;
    hl_err_move(&rd->err, err);
  }
  pthread_cond_broadcast(&rd->cv);
  pthread_mutex_unlock(&rd->mu);
}

static void *worker(void *arg) {
  reader_t *rd = arg;
  hl_prof_run_t *r = rd->r;
  hl_error_t err;
  hl_err_init(&err);
  for (;;) {
    pthread_mutex_lock(&rd->mu);
    if (rd->failed || rd->next >= r->n_units) {
      pthread_mutex_unlock(&rd->mu);
      break;
    }
    hl_prof_unit_t *u = &r->units[rd->next++];
    u->state = 1;
    pthread_mutex_unlock(&rd->mu);
    uint64_t all = UINT64_MAX;
    if (read_unit(rd, u, &all, &err) != HL_OK) {
      fail(rd, &err);
      break;
    }
    pthread_mutex_lock(&rd->mu);
    u->state = 2;
    pthread_cond_broadcast(&rd->cv);
    pthread_mutex_unlock(&rd->mu);
  }
  hl_err_clear(&err);
  return NULL;
}

/* Merges unit U into the totals and frees its states. */
static hl_status_t merge_unit(hl_prof_run_t *r, hl_prof_unit_t *u, hl_error_t *err) {
  hl_status_t rc = HL_OK;
  for (int c = 0; rc == HL_OK && c < r->n_cols; c++)
    rc = hl_prof_col_merge(r->total[c], u->cols[c], err);
  /* a partition key holds one value on every row of its partition */
  for (int k = 0; rc == HL_OK && u->part && u->rows > 0 && k < r->t->n_part; k++) {
    hl_value_t v;
    rc = hl_table_part_value(r->t, k, u->part->values[k], r->arena, &v, err);
    if (rc == HL_OK)
      rc = hl_prof_col_add_repeat(r->keys[k], &v, v.is_null ? 0 : (int64_t)u->rows,
                                  v.is_null ? (int64_t)u->rows : 0, err);
  }
  free_states(u->cols, r->n_cols);
  u->cols = NULL;
  for (int c = 0; u->meta_files && c < r->n_cols; c++) {
    r->meta_files[c] += u->meta_files[c];
    r->meta_chunks[c] += u->meta_chunks[c];
  }
  hl_free(u->meta_files);
  hl_free(u->meta_chunks);
  u->meta_files = NULL;
  u->meta_chunks = NULL;
  r->rows += u->rows;
  if (u->reuse)
    r->n_reused++;
  else
    r->n_read++;
  return rc;
}

static void free_enc(const hl_prof_run_t *r, hl_prof_unit_t *u) {
  if (!u->enc) return;
  for (int c = 0; c < r->n_cols; c++)
    hl_buf_fini(&u->enc[c]);
  hl_free(u->enc);
  u->enc = NULL;
}

/* Stores the encoded states of the merged units [rd->stored, UPTO) (one
 * catalog transaction) and frees them: states go to the catalog in
 * batches as the units are merged, so that memory holds a batch, not the
 * table's. */
static hl_status_t store_states(reader_t *rd, size_t upto, hl_error_t *err) {
  hl_prof_run_t *r = rd->r;
  size_t n = 0;
  for (size_t i = rd->stored; i < upto; i++)
    if (r->units[i].enc) n += (size_t)r->n_cols;
  hl_status_t rc = HL_OK;
  hl_arena_t *a = n ? hl_arena_create_charged(0, hl_arena_account(r->arena)) : NULL;
  hl_cat_prof_state_t *states = a ? hl_arena_zalloc(a, sizeof *states * n) : NULL;
  if (n && !states) rc = hl_err_nomem(err);
  size_t k = 0;
  for (size_t i = rd->stored; rc == HL_OK && i < upto; i++) {
    const hl_prof_unit_t *u = &r->units[i];
    for (int c = 0; u->enc && c < r->n_cols; c++) {
      hl_cat_prof_state_t *st = &states[k++];
      st->part = u->name;
      st->column = r->t->names[c];
      st->col_type = hl_type_to_string(a, r->t->types[c]);
      st->fingerprint = u->fp;
      st->state = u->enc[c].data;
      st->state_len = u->enc[c].len;
      st->rows = (int64_t)u->rows;
      if (!st->col_type || u->enc[c].oom) rc = hl_err_nomem(err);
    }
  }
  if (rc == HL_OK && n) {
    pthread_mutex_lock(&rd->cat_mu);
    rc = hl_cat_prof_put(r->cat, r->catalog, r->t->cat->db_name, r->t->cat->name, states, n, err);
    pthread_mutex_unlock(&rd->cat_mu);
  }
  hl_arena_destroy(a);
  for (size_t i = rd->stored; i < upto; i++)
    free_enc(r, &r->units[i]);
  rd->stored = upto;
  rd->pending = 0;
  return rc;
}

/* Unit I is done: merged into the totals, its states stored with the
 * batch once the batch is big enough (or at LAST). */
static hl_status_t unit_done(reader_t *rd, size_t i, bool last, hl_error_t *err) {
  hl_prof_run_t *r = rd->r;
  hl_prof_unit_t *u = &r->units[i];
  hl_status_t rc = merge_unit(r, u, err);
  for (int c = 0; u->enc && c < r->n_cols; c++)
    rd->pending += u->enc[c].len;
  if (rc == HL_OK && (last || rd->pending >= HL_PROF_STORE_BATCH))
    rc = store_states(rd, i + 1, err);
  return rc;
}

/* Reads every unit: in parallel without LIMIT, else newest first, one
 * after the other, until the LIMIT is reached. */
static hl_status_t read_units(hl_prof_run_t *r, hl_error_t *err) {
  reader_t rd = {.r = r};
  hl_err_init(&rd.err);
  pthread_mutex_init(&rd.mu, NULL);
  pthread_mutex_init(&rd.cat_mu, NULL);
  pthread_cond_init(&rd.cv, NULL);
  hl_status_t rc = HL_OK;
  if (r->stmt->profile_has_limit) {
    uint64_t limit = (uint64_t)r->stmt->profile_limit;
    size_t i = 0;
    for (; rc == HL_OK && i < r->n_units && limit > 0; i++) {
      rc = read_unit(&rd, &r->units[i], &limit, err);
      if (rc == HL_OK) rc = unit_done(&rd, i, limit == 0 || i + 1 == r->n_units, err);
    }
    goto done;
  }
  int threads = hl_exec_scan_threads(r->s, r->t->cat->location, err);
  if (threads == 0) {
    rc = err->code;
    goto done;
  }
  if (r->filter && hl_expr_is_stateful(r->filter)) threads = 1;
  if ((size_t)threads > r->n_units) threads = (int)r->n_units;
  rd.concurrent = threads > 1;
  pthread_t *tids = threads > 0 ? hl_calloc((size_t)threads, sizeof *tids) : NULL;
  int started = 0;
  if (threads > 0 && !tids) rc = hl_err_nomem(err);
  for (; rc == HL_OK && started < threads; started++)
    if (pthread_create(&tids[started], NULL, worker, &rd) != 0) {
      rc = hl_err_set(err, HL_NOMEM, HL_SS(OUT_OF_MEMORY), "could not start a thread");
      break;
    }
  if (rc != HL_OK) {
    pthread_mutex_lock(&rd.mu);
    rd.failed = true;
    pthread_mutex_unlock(&rd.mu);
  }
  /* merged in unit order as the workers finish them */
  for (size_t i = 0; rc == HL_OK && i < r->n_units; i++) {
    pthread_mutex_lock(&rd.mu);
    while (r->units[i].state != 2 && !rd.failed)
      pthread_cond_wait(&rd.cv, &rd.mu);
    bool failed = rd.failed;
    pthread_mutex_unlock(&rd.mu);
    if (failed) break;
    if ((rc = unit_done(&rd, i, i + 1 == r->n_units, err)) != HL_OK) fail(&rd, err);
  }
  for (int i = 0; i < started; i++)
    pthread_join(tids[i], NULL);
  hl_free(tids);
  if (rd.failed && rc == HL_OK) {
    hl_err_move(err, &rd.err);
    rc = err->code;
  }
done:
  hl_err_clear(&rd.err);
  pthread_mutex_destroy(&rd.mu);
  pthread_mutex_destroy(&rd.cat_mu);
  pthread_cond_destroy(&rd.cv);
  return rc;
}

/* ------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------ */

static const char *const profile_cols[] = {"column",
                                           "type",
                                           "count",
                                           "nulls",
                                           "distinct",
                                           "distinct_exact",
                                           "distinct_error",
                                           "min",
                                           "max",
                                           "mean",
                                           "stddev",
                                           "q25",
                                           "q50",
                                           "q75",
                                           "zeros",
                                           "negatives",
                                           "min_length",
                                           "max_length",
                                           "mean_length",
                                           "empty",
                                           "top"};
enum { N_PROFILE_COLS = sizeof profile_cols / sizeof profile_cols[0] };

static const char *const summary_cols[] = {
    "rows_read",         "partitions_read", "partitions_reused", "partitions_total", "total_rows",
    "total_rows_source", "warnings",        "checkpoint",        "from_metadata"};
enum { N_SUMMARY_COLS = sizeof summary_cols / sizeof summary_cols[0] };

static char *value_text(hl_arena_t *arena, const hl_type_t *type, const hl_value_t *v) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, type, v);
  char *s = b.oom ? NULL : hl_arena_strndup(arena, b.data ? b.data : "", b.len);
  hl_buf_fini(&b);
  return s;
}

static hl_status_t profile_rows(hl_prof_run_t *r, hl_result_t *result, hl_error_t *err) {
  const hl_type_t *types[N_PROFILE_COLS];
  const hl_type_t *str = hl_type_prim(HL_T_STRING), *big = hl_type_prim(HL_T_BIGINT),
                  *dbl = hl_type_prim(HL_T_DOUBLE), *boo = hl_type_prim(HL_T_BOOLEAN);
  for (int i = 0; i < N_PROFILE_COLS; i++)
    types[i] = str;
  types[2] = types[3] = types[4] = big;
  types[5] = boo;
  types[6] = types[9] = types[10] = dbl;
  types[14] = types[15] = types[16] = types[17] = big;
  types[18] = dbl;
  types[19] = big;
  hl_rowset_t *rs = hl_rowset_create(r->arena, N_PROFILE_COLS, profile_cols, types);
  if (!rs) return hl_err_nomem(err);
  for (int c = 0; c < r->n_cols + r->t->n_part; c++) {
    hl_prof_result_t pr;
    const hl_prof_col_t *st = c < r->n_cols ? r->total[c] : r->keys[c - r->n_cols];
    hl_status_t rc = hl_prof_col_result(st, r->arena, &pr, err);
    if (rc != HL_OK) return rc;
    const hl_type_t *ct = r->t->types[c];
    hl_value_t v[N_PROFILE_COLS];
    memset(v, 0, sizeof v);
    for (int i = 0; i < N_PROFILE_COLS; i++)
      v[i].is_null = true;
#define SET_STR(i, text)                                                                           \
  do {                                                                                             \
    const char *s_ = (text);                                                                       \
    if (!s_) return hl_err_nomem(err);                                                             \
    v[i].is_null = false;                                                                          \
    v[i].u.s.ptr = s_;                                                                             \
    v[i].u.s.len = strlen(s_);                                                                     \
  } while (0)
#define SET_I64(k, x) (v[k].is_null = false, v[k].u.i = (x))
#define SET_DBL(k, x) (v[k].is_null = false, v[k].u.d = (x))
    SET_STR(0, r->t->names[c]);
    SET_STR(1, hl_type_to_string(r->arena, ct));
    SET_I64(2, pr.count);
    SET_I64(3, pr.nulls);
    SET_I64(4, pr.distinct);
    v[5].is_null = false;
    v[5].u.b = pr.distinct_exact;
    SET_DBL(6, pr.distinct_rel_err);
    if (pr.has_minmax) {
      SET_STR(7, value_text(r->arena, ct, &pr.min));
      SET_STR(8, value_text(r->arena, ct, &pr.max));
    }
    if (pr.has_mean) SET_DBL(9, pr.mean);
    if (pr.has_stddev) SET_DBL(10, pr.stddev);
    if (pr.has_quantiles) {
      SET_STR(11, value_text(r->arena, ct, &pr.q25));
      SET_STR(12, value_text(r->arena, ct, &pr.q50));
      SET_STR(13, value_text(r->arena, ct, &pr.q75));
    }
    if (pr.has_signs) {
      SET_I64(14, pr.zeros);
      SET_I64(15, pr.negatives);
    }
    if (pr.has_lengths) {
      SET_I64(16, pr.min_len);
      SET_I64(17, pr.max_len);
      SET_DBL(18, pr.mean_len);
      SET_I64(19, pr.empties);
    } else if (ct->id == HL_T_STRING || ct->id == HL_T_VARCHAR || ct->id == HL_T_CHAR ||
               ct->id == HL_T_BINARY) {
      SET_I64(19, 0); /* no value: none empty, as zeros and negatives count 0 */
    }
    if (pr.n_top > 0) { /* [{"value":..,"count":n},...] most frequent first */
      hl_buf_t b;
      hl_buf_init(&b);
      hl_buf_putc(&b, '[');
      for (int i = 0; i < pr.n_top; i++) {
        char *t = value_text(r->arena, ct, &pr.top[i]);
        if (!t) {
          hl_buf_fini(&b);
          return hl_err_nomem(err);
        }
        hl_buf_puts(&b, i ? ",{\"value\":" : "{\"value\":");
        hl_prof_json_string(&b, t);
        hl_buf_printf(&b, ",\"count\":%lld}", (long long)pr.top_count[i]);
      }
      hl_buf_putc(&b, ']');
      char *s = b.oom ? NULL : hl_arena_strndup(r->arena, b.data, b.len);
      hl_buf_fini(&b);
      SET_STR(20, s);
    }
    if ((rc = hl_rowset_add(rs, v, err)) != HL_OK) return rc;
  }
  bool *json = hl_arena_zalloc(r->arena, sizeof *json * N_PROFILE_COLS);
  if (!json) return hl_err_nomem(err);
  json[20] = true; /* top */
  hl_status_t rc = hl_rowset_result(rs, result, err);
  result->json = json;
  return rc;
}

static hl_status_t summary_row(hl_prof_run_t *r, const char *checkpoint, hl_result_t *result,
                               hl_error_t *err) {
  const hl_type_t *big = hl_type_prim(HL_T_BIGINT), *str = hl_type_prim(HL_T_STRING);
  const hl_type_t *types[N_SUMMARY_COLS] = {big, big, big, big, big, str, str, str, str};
  hl_rowset_t *rs = hl_rowset_create(r->arena, N_SUMMARY_COLS, summary_cols, types);
  if (!rs) return hl_err_nomem(err);
  hl_value_t v[N_SUMMARY_COLS];
  memset(v, 0, sizeof v);
  v[0].u.i = (int64_t)r->rows;
  v[1].u.i = (int64_t)r->n_read;
  v[2].u.i = (int64_t)r->n_reused;
  v[3].u.i = (int64_t)r->n_parts_total;
  /* the table's row count: exact when every row was read, else from
   * accurate statistics (Hive's COLUMN_STATS_ACCURATE numRows), else none */
  bool all = !r->has_where && !r->cut && !r->stmt->part_spec && !r->stmt->profile_incremental &&
             r->n_read + r->n_reused == r->n_units &&
             (r->t->n_part == 0 || r->n_units == r->n_parts_total);
  int64_t stats = hl_plan_accurate_rows(r->t->cat->params, r->t->cat->n_params);
  const char *source = NULL;
  if (all) {
    v[4].u.i = (int64_t)r->rows;
    source = "exact";
  } else if (stats >= 0) {
    v[4].u.i = stats;
    source = "statistics";
  } else {
    v[4].is_null = true;
  }
  v[5].is_null = !source;
  if (source) {
    v[5].u.s.ptr = source;
    v[5].u.s.len = strlen(source);
  }
  char *w = hl_arena_sprintf(r->arena, "[%.*s]", (int)r->warnings.len,
                             r->warnings.data ? r->warnings.data : "");
  if (!w || r->warnings.oom) return hl_err_nomem(err);
  v[6].u.s.ptr = w;
  v[6].u.s.len = strlen(w);
  v[7].is_null = !checkpoint;
  if (checkpoint) {
    v[7].u.s.ptr = checkpoint;
    v[7].u.s.len = strlen(checkpoint);
  }
  /* the columns file statistics answered, without decoding them:
   * [{"column","metrics","files","chunks"}] */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_putc(&b, '[');
  for (int c = 0, k = 0; r->meta_files && c < r->n_cols; c++) {
    if (!r->meta_files[c]) continue;
    hl_buf_puts(&b, k++ ? ",{\"column\":" : "{\"column\":");
    hl_prof_json_string(&b, r->t->names[c]);
    hl_buf_printf(&b, ",\"metrics\":\"%s\",\"files\":%u,\"chunks\":%llu}",
                  r->meta_want[c] == 2 ? "all" : "count,nulls", r->meta_files[c],
                  (unsigned long long)r->meta_chunks[c]);
  }
  hl_buf_putc(&b, ']');
  char *meta = b.oom ? NULL : hl_arena_strndup(r->arena, b.data, b.len);
  hl_buf_fini(&b);
  if (!meta) return hl_err_nomem(err);
  v[8].u.s.ptr = meta;
  v[8].u.s.len = strlen(meta);
  hl_status_t rc = hl_rowset_add(rs, v, err);
  if (rc == HL_OK) rc = hl_rowset_result(rs, result, err);
  /* warnings, checkpoint, from_metadata */
  static const bool json[N_SUMMARY_COLS] = {[6] = true, [7] = true, [8] = true};
  result->json = json;
  return rc;
}

/* ------------------------------------------------------------------------
 * The statement
 * ------------------------------------------------------------------------ */

static hl_status_t check_table(hl_prof_run_t *r, hl_error_t *err) {
  hl_table_t *t = r->t;
  if (t->n_part > 0 && hl_plan_projection_enabled(t))
    return hl_err_set_at(err, r->stmt->table.pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "PROFILE is not supported on table \"%s.%s\": its partitions come from "
                         "partition projection, not the metastore",
                         HL_TNAME(t));
  if (r->stmt->part_spec && t->n_part == 0)
    return hl_err_set_at(err, r->stmt->part_spec->pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                         "table \"%s.%s\" is not partitioned", HL_TNAME(t));
  return HL_OK;
}

static hl_status_t make_units(hl_prof_run_t *r, hl_cat_partition_t *late, size_t n_late,
                              hl_error_t *err) {
  hl_table_t *t = r->t;
  size_t n = t->n_part > 0 ? r->scan->n_parts + n_late : 1;
  r->units = hl_arena_zalloc(r->arena, sizeof *r->units * (n + 1));
  if (!r->units) return hl_err_nomem(err);
  r->n_units = n;
  if (t->n_part == 0) {
    r->units[0].name = "";
    return HL_OK;
  }
  for (size_t i = 0; i < r->scan->n_parts; i++) {
    r->units[i].part = &r->scan->parts[i];
    r->units[i].name = r->scan->parts[i].name;
  }
  for (size_t i = 0; i < n_late; i++) {
    hl_prof_unit_t *u = &r->units[r->scan->n_parts + i];
    u->part = &late[i];
    u->name = late[i].name;
    u->late = true;
  }
  return HL_OK;
}

/* What file statistics may answer, per data column: the values of a
 * column whose metrics all follow from them (every row NULL, or one
 * value), the NULL counts of a complex one (its profile is count and
 * NULLs).  Off with SET hivelite.profile.metadata=false. */
static hl_status_t meta_setup(hl_prof_run_t *r, hl_error_t *err) {
  if (!hl_cmd_setting_true(r->s, "hivelite.profile.metadata")) return HL_OK;
  r->meta_want = hl_arena_zalloc(r->arena, (size_t)r->n_cols + 1);
  r->meta_files = hl_arena_zalloc(r->arena, sizeof *r->meta_files * ((size_t)r->n_cols + 1));
  r->meta_chunks = hl_arena_zalloc(r->arena, sizeof *r->meta_chunks * ((size_t)r->n_cols + 1));
  if (!r->meta_want || !r->meta_files || !r->meta_chunks) return hl_err_nomem(err);
  for (int c = 0; c < r->n_cols; c++)
    r->meta_want[c] = hl_type_is_complex(r->t->types[c]) ? 1 : 2;
  return HL_OK;
}

static void free_run(hl_prof_run_t *r) {
  for (size_t i = 0; i < r->n_units; i++) {
    hl_prof_unit_t *u = &r->units[i];
    free_states(u->cols, r->n_cols);
    free_enc(r, u);
    hl_free(u->fp);
    hl_free(u->meta_files);
    hl_free(u->meta_chunks);
  }
  if (r->total) free_states(r->total, r->n_cols);
  if (r->keys) free_states(r->keys, r->t->n_part);
  hl_buf_fini(&r->warnings);
}

hl_status_t hl_cmd_profile(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err) {
  hl_prof_run_t r = {0};
  r.s = s;
  r.stmt = stmt;
  r.arena = arena;
  hl_buf_init(&r.warnings);
  hl_cat_partition_t *late = NULL;
  size_t n_late = 0;
  const char *checkpoint = NULL;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &r.t, err);
  if (rc == HL_OK) rc = check_table(&r, err);
  if (rc != HL_OK) goto done;
  r.cat = hl_table_catalog(s, r.t);
  r.catalog = hl_catalogs_name_of(s, r.cat);
  r.n_cols = r.t->n_data;
  if ((rc = meta_setup(&r, err)) != HL_OK) goto done;
  if (stmt->profile_incremental && (rc = hl_prof_incr_begin(&r, err)) != HL_OK) goto done;
  if ((rc = bind_rows(&r, err)) != HL_OK || (rc = apply_spec(&r, err)) != HL_OK) goto done;
  r.n_parts_total = r.t->n_part > 0 ? r.scan->n_parts_total : 1;
  if (r.n_parts_total == HL_PLAN_TOTAL_UNKNOWN && /* pinned by the WHERE: the kept count */
      (rc = hl_cat_partition_count(r.cat, r.t->cat->id, &r.n_parts_total, err)) != HL_OK)
    goto done;
  if (stmt->profile_incremental && r.t->n_part > 0 && r.field.is_part &&
      r.field.kind != HL_INCR_VALUE &&
      (rc = hl_prof_incr_select(&r, r.scan->parts, &r.scan->n_parts, &late, &n_late, err)) != HL_OK)
    goto done;
  if (stmt->profile_has_limit && r.t->n_part > 0 &&
      (rc = hl_plan_sort_newest(r.t, r.scan->parts, r.scan->n_parts, arena, err)) != HL_OK)
    goto done;
  if ((rc = make_units(&r, late, n_late, err)) != HL_OK) goto done;
  if (!(r.total = new_states(&r, err)) || !(r.keys = key_states(&r, err))) {
    rc = err->code;
    goto done;
  }
  /* one reader lock and one listing for the whole statement */
  if (!(r.snap = hl_snap_create(arena, err))) {
    rc = err->code;
    goto done;
  }
  if ((rc = hl_snap_table(r.snap, s, r.scan, &r.snap_table, err)) != HL_OK) goto done;
  rc = read_units(&r, err);
  hl_snap_end(r.snap);
  if (rc == HL_OK && stmt->profile_incremental) {
    hl_txn_fault_point("profile_commit"); /* tests race two scans of one checkpoint here */
    rc = hl_prof_incr_commit(&r, &checkpoint, err);
  }
  if (rc == HL_OK) rc = profile_rows(&r, result, err);
  if (rc == HL_OK) {
    hl_result_t *next = hl_arena_zalloc(arena, sizeof *next);
    rc = next ? summary_row(&r, checkpoint, next, err) : hl_err_nomem(err);
    if (rc == HL_OK) result->next = next;
  }
done:
  free_run(&r);
  return rc;
}
