/*
 * newest.c -- newest partitions first for a LIMIT without ORDER BY.
 *
 * `SELECT ... FROM t [WHERE ...] LIMIT n` may return any n rows; the ones a
 * data-quality tool previewing a huge table wants are the latest.  So when
 * a query block is exactly that over one partitioned table (no ORDER BY,
 * aggregate or window, not sampled, not a parquet.`path` dataset), the
 * binder reorders the scan's partitions newest first (hl_plan_newest_apply,
 * called at the end of binding, so EXPLAIN and the executor see one plan).
 * The scans read partitions in that order -- the parallel scan numbers its
 * files over it and, under the LIMIT, opens no file before it is needed
 * (exec/op_parallel.c) -- so the LIMIT stops after the newest partitions
 * that hold enough rows, skipping empty ones and, with a filter, going on
 * to older ones until it has n rows.
 *
 * "Newest" compares the partition values key by key, each as its declared
 * type (on an INT hr, 23 is newer than 9).  A STRING first key is compared
 * as batch numbers when the table's incremental field (plan/incr.h) says
 * so, else as text dates when the field says so or its values are
 * recognised as such (util/partorder.h); other STRING keys compare as
 * text.  Values that are none of these (junk such as 'test', the default
 * partition, values that do not convert to the key's type) are the oldest.
 * Ties keep the catalog's order (the sort is stable), so the order is
 * deterministic.
 */
#include "plan/incr.h"
#include "plan/plan.h"
#include "util/sort.h"

#include <string.h>

typedef struct nkey {
  bool ok;     /* a date, batch number or value of the key's type */
  int64_t num; /* dates (epoch seconds) and batch numbers */
  hl_value_t v;
} nkey_t;

typedef struct nctx {
  const hl_table_t *t;
  const nkey_t *keys; /* [partition * n_part + key] */
  int n_part;
  int first_kind; /* HL_INCR_DATE / HL_INCR_BATCH: the first key as numbers */
} nctx_t;

static int newer_first(const void *ctx, size_t a, size_t b) {
  const nctx_t *c = ctx;
  for (int k = 0; k < c->n_part; k++) {
    const nkey_t *x = &c->keys[a * (size_t)c->n_part + (size_t)k];
    const nkey_t *y = &c->keys[b * (size_t)c->n_part + (size_t)k];
    if (x->ok != y->ok) return x->ok ? -1 : 1; /* values that are none: oldest */
    if (!x->ok) continue;
    int r;
    if (k == 0 && c->first_kind != HL_INCR_NONE)
      r = (x->num > y->num) - (x->num < y->num);
    else
      r = hl_value_compare(c->t->types[c->t->n_data + k], &x->v, &y->v);
    if (r) return -r; /* the higher value is newer */
  }
  return 0;
}

int hl_plan_newest_mode(const hl_table_t *t, const hl_cat_partition_t *parts, size_t n,
                        hl_arena_t *scratch, hl_tdate_fmt_t *fmt) {
  *fmt = HL_TDATE_NONE;
  if (t->n_part == 0 || t->types[t->n_data]->id != HL_T_STRING) return HL_INCR_NONE;
  int kind = hl_incr_first_key_kind(t);
  if (kind == HL_INCR_BATCH) return kind;
  const char **firsts = hl_arena_alloc(scratch, sizeof(char *) * (n ? n : 1));
  if (firsts) {
    for (size_t i = 0; i < n; i++)
      firsts[i] = parts[i].n_values > 0 ? parts[i].values[0] : NULL;
    *fmt = hl_tdate_recognise(firsts, n);
  }
  return *fmt != HL_TDATE_NONE ? HL_INCR_DATE : kind;
}

/* Sorts PARTS newest first with the first key compared as FIRST_KIND says
 * (hl_plan_newest_mode's answer). */
static hl_status_t sort_newest(const hl_table_t *t, hl_cat_partition_t *parts, size_t n,
                               int first_kind, hl_arena_t *scratch, hl_error_t *err) {
  if (n < 2 || t->n_part == 0) return HL_OK;
  nctx_t c = {.t = t, .n_part = t->n_part, .first_kind = first_kind};
  nkey_t *keys = hl_arena_zalloc(scratch, sizeof(nkey_t) * n * (size_t)t->n_part);
  size_t *idx = hl_arena_alloc(scratch, sizeof(size_t) * n);
  size_t *tmp = hl_arena_alloc(scratch, sizeof(size_t) * n);
  hl_cat_partition_t *copy = hl_arena_alloc(scratch, sizeof(hl_cat_partition_t) * n);
  if (!keys || !idx || !tmp || !copy) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++) {
    idx[i] = i;
    for (int k = 0; k < t->n_part; k++) {
      nkey_t *key = &keys[i * (size_t)t->n_part + (size_t)k];
      const char *text = k < parts[i].n_values ? parts[i].values[k] : NULL;
      if (!text) continue; /* the default partition */
      size_t len = strlen(text);
      if (k == 0 && c.first_kind == HL_INCR_BATCH) {
        key->ok = hl_batch_parse(text, len, &key->num);
      } else if (k == 0 && c.first_kind == HL_INCR_DATE) {
        key->ok = hl_tdate_parse(text, len, &key->num, NULL);
      } else {
        hl_error_t verr;
        hl_err_init(&verr);
        hl_status_t rc =
            hl_value_from_text(scratch, t->types[t->n_data + k], text, len, &key->v, &verr);
        hl_err_clear(&verr);
        if (rc == HL_NOMEM) return hl_err_nomem(err);
        key->ok = rc == HL_OK && !key->v.is_null;
      }
    }
  }
  c.keys = keys;
  hl_sort_indexes(idx, tmp, n, newer_first, &c);
  memcpy(copy, parts, sizeof(hl_cat_partition_t) * n);
  for (size_t i = 0; i < n; i++)
    parts[i] = copy[idx[i]];
  return HL_OK;
}

hl_status_t hl_plan_sort_newest(const hl_table_t *t, hl_cat_partition_t *parts, size_t n,
                                hl_arena_t *scratch, hl_error_t *err) {
  if (n < 2 || t->n_part == 0) return HL_OK;
  hl_tdate_fmt_t fmt;
  return sort_newest(t, parts, n, hl_plan_newest_mode(t, parts, n, scratch, &fmt), scratch, err);
}

bool hl_plan_newest_qualifies(const hl_plan_t *plan) {
  if (!plan->from || plan->from->kind != HL_REL_SCAN) return false;
  const hl_plan_scan_t *sc = plan->from->scan;
  return plan->has_limit && !plan->n_order && !plan->aggregate && !plan->n_windows &&
         !plan->catalog_answer && plan->stats_rows < 0 && sc->table->n_part > 0 && !sc->sampled &&
         !sc->dataset;
}

hl_status_t hl_plan_newest_apply(hl_plan_t *plan, hl_error_t *err) {
  if (!hl_plan_newest_qualifies(plan)) return HL_OK;
  hl_plan_scan_t *sc = plan->from->scan;
  hl_arena_t *scratch = hl_arena_create(0);
  if (!scratch) return hl_err_nomem(err);
  sc->newest_first = true;
  sc->newest_kind =
      hl_plan_newest_mode(sc->table, sc->parts, sc->n_parts, scratch, &sc->newest_fmt);
  hl_status_t rc = sort_newest(sc->table, sc->parts, sc->n_parts, sc->newest_kind, scratch, err);
  hl_arena_destroy(scratch);
  return rc;
}
