/*
 * op_agg_spill.c -- hash aggregation past its share of the memory limit:
 * hybrid hash aggregation over spill files (spill.h).
 *
 * While the table is below hl_spill_share() every row is aggregated in
 * memory.  When it reaches the share the table is frozen: from then on a
 * row whose group is already in memory is still aggregated there, and a
 * row of any other group is written, unchanged (the child's columns), to
 * one of HL_GRACE_PARTS spill files chosen by a hash of its group values.
 * A group absent at the freeze had no row before it, so every group's
 * rows are aggregated in exactly one place, in their arrival order: its
 * states are updated by the same operations in the same order as in
 * memory, and every aggregate -- DOUBLE sums bit for bit, collect_list's
 * order, DISTINCT, percentiles -- gives the in-memory answer.
 *
 * Once the groups in memory are out, the table is emptied and becomes the
 * aggregation of one spilled partition (its rows read back in order),
 * which may freeze and cut its new groups again with another hash seed,
 * one level deeper, up to AGG_SPILL_LEVELS; beyond, the partition stays in
 * memory (a 53200 saying so if it does not fit).  Partitions go depth
 * first (a stack), so few files wait; the output order (memory first,
 * then partition 0, 1, ... each recursively) depends only on the input.
 *
 * The replay evaluates the group and argument expressions again, which is
 * why a stateful expression (rand(), row_sequence()) does not spill; nor
 * do grouping sets (one row feeds a group per set, some in memory and
 * some not) nor an ungrouped aggregation (one group).  Spill files belong
 * to the statement's hl_spill_t: closed here on every path, their
 * directory removed with the statement.
 */
#include "exec/op_agg_int.h"

#include "util/mem.h"

#include <string.h>

enum { AGG_SPILL_LEVELS = 4 };

typedef struct pending {
  hl_spill_file_t *f;
  int level;
} pending_t;

struct agg_spill {
  hl_spill_t *spill;
  int level;   /* of the table being filled: 0 the input, L a partition cut L times */
  bool frozen; /* new groups go to files[] */
  hl_spill_file_t *files[HL_GRACE_PARTS];
  uint32_t *rows;   /* [HL_GRACE_PARTS][HL_BATCH_CAP]: a batch's rows per partition */
  uint32_t *n_rows; /* [HL_GRACE_PARTS] */
  int n_cols;       /* the child's columns (known at the first spilled row) */
  const hl_type_t **types;
  pending_t *stack; /* partitions waiting, the next last */
  size_t n_stack, cap_stack;
  hl_batch_t *in;    /* rows read back */
  uint32_t *cut_sel; /* [2][HL_BATCH_CAP]: the two parts of a batch cut at the freeze */
  hl_buf_t key;
};

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

/* Why PLAN's aggregation cannot spill, NULL when it can. */
static const char *no_spill_reason(const hl_plan_t *plan) {
  if (plan->n_group == 0) return "the aggregation (one group, which cannot spill)";
  if (plan->n_grouping_sets) return "the aggregation (grouping sets do not spill yet)";
  for (int g = 0; g < plan->n_group; g++)
    if (hl_expr_is_stateful(plan->group_exprs[g]))
      return "the aggregation (a stateful expression such as rand() does not spill)";
  for (int k = 0; k < plan->n_aggs; k++) {
    const hl_agg_t *ag = &plan->aggs[k];
    if ((ag->arg && hl_expr_is_stateful(ag->arg)) || (ag->arg2 && hl_expr_is_stateful(ag->arg2)))
      return "the aggregation (a stateful expression such as rand() does not spill)";
  }
  return NULL;
}

hl_status_t hl_op_agg_set_spill(hl_op_t *op, hl_spill_t *spill, hl_error_t *err) {
  agg_t *a = (agg_t *)op;
  if (!spill || a->par || a->sp) return HL_OK;
  const char *why = no_spill_reason(a->plan);
  if (why) {
    a->what = why;
    return HL_OK;
  }
  agg_spill_t *sp = hl_calloc(1, sizeof(*sp));
  if (!sp) return hl_err_nomem(err);
  sp->spill = spill;
  hl_buf_init(&sp->key);
  a->sp = sp;
  return HL_OK;
}

void hl_agg_spill_free(agg_spill_t *sp) {
  if (!sp) return;
  for (int p = 0; p < HL_GRACE_PARTS; p++)
    hl_spill_file_close(sp->files[p]);
  for (size_t i = 0; i < sp->n_stack; i++)
    hl_spill_file_close(sp->stack[i].f);
  hl_free(sp->stack);
  hl_free(sp->rows);
  hl_free(sp->cut_sel);
  hl_free(sp->n_rows);
  hl_free(sp->types);
  hl_batch_destroy(sp->in);
  hl_buf_fini(&sp->key);
  hl_free(sp);
}

/* The partition of row R at level LEVEL: a hash of the same bytes for
 * equal group values (NULL included, so a NULL key is one group in one
 * partition). */
static int part_of(agg_spill_t *sp, int level, const hl_vec_t *gvecs, int ng, uint32_t r) {
  hl_buf_reset(&sp->key);
  for (int g = 0; g < ng; g++) {
    hl_value_t v;
    hl_vec_get_value(&gvecs[g], r, &v);
    hl_value_key_append(&sp->key, gvecs[g].type, &v);
  }
  uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)level;
  return (int)(mix(hl_hash_bytes(sp->key.data ? sp->key.data : "", sp->key.len) ^ seed) %
               HL_GRACE_PARTS);
}

/* Remembers the child's column types (the spilled rows' layout). */
static hl_status_t learn_types(agg_spill_t *sp, const hl_batch_t *b, hl_error_t *err) {
  if (sp->types) return HL_OK;
  sp->types = hl_malloc(sizeof(hl_type_t *) * (size_t)(b->n_cols + 1));
  sp->rows = hl_malloc(sizeof(uint32_t) * HL_GRACE_PARTS * HL_BATCH_CAP);
  sp->n_rows = hl_malloc(sizeof(uint32_t) * HL_GRACE_PARTS);
  if (!sp->types || !sp->rows || !sp->n_rows) return hl_err_nomem(err);
  sp->n_cols = b->n_cols;
  for (int c = 0; c < b->n_cols; c++)
    sp->types[c] = b->cols[c].type;
  return HL_OK;
}

hl_status_t hl_agg_spill_split(agg_t *a, const hl_batch_t **bp, hl_batch_t *view,
                               const hl_vec_t *gvecs, uint64_t held, uint32_t *cut,
                               hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  const hl_batch_t *b = *bp;
  *cut = 0;
  if (!sp->frozen) {
    /* a group costs what groups cost so far, at least its state and value
     * arrays, twice over while the arrays double; the rows that may all
     * be new groups within the share stay in memory, the table freezes
     * after them */
    int ng = a->plan->n_group, na = a->plan->n_aggs;
    uint64_t per_group =
        sizeof(agg_state_t) * (uint64_t)(na + 1) + sizeof(hl_value_t) * (uint64_t)(ng + 1) + 32;
    if (a->n_groups && held / a->n_groups > per_group) per_group = held / a->n_groups;
    uint64_t share = hl_spill_share(sp->spill);
    uint64_t room = held < share ? (share - held) / (2 * per_group) : 0;
    uint32_t live = hl_batch_live(b);
    if (live <= room) return HL_OK;
    if (sp->level + 1 >= AGG_SPILL_LEVELS) {
      a->what = "the aggregation (a partition still too large after 4 levels of spilling)";
      return HL_OK;
    }
    if (room > 0) {
      *cut = (uint32_t)room;
      return HL_OK;
    }
    sp->frozen = true;
    a->what = "the aggregation (its groups kept in memory while the others spill)";
  }
  hl_status_t rc = learn_types(sp, b, err);
  if (rc != HL_OK) return rc;
  uint32_t live = hl_batch_live(b);
  uint32_t *keep = hl_arena_alloc(a->scratch, sizeof(uint32_t) * (live ? live : 1));
  if (!keep) return hl_err_nomem(err);
  uint32_t n_keep = 0;
  int ng = a->plan->n_group;
  memset(sp->n_rows, 0, sizeof(uint32_t) * HL_GRACE_PARTS);
  for (uint32_t i = 0; i < live; i++) {
    uint32_t r = hl_batch_row(b, i);
    if (hl_agg_group_known(a, gvecs, r)) {
      keep[n_keep++] = r;
      continue;
    }
    int p = part_of(sp, sp->level + 1, gvecs, ng, r);
    sp->rows[(size_t)p * HL_BATCH_CAP + sp->n_rows[p]++] = r;
  }
  if (sp->key.oom) return hl_err_nomem(err);
  for (int p = 0; p < HL_GRACE_PARTS && rc == HL_OK; p++) {
    if (!sp->n_rows[p]) continue;
    if (!sp->files[p]) rc = hl_spill_file_create(sp->spill, &sp->files[p], err);
    if (rc == HL_OK)
      rc = hl_spill_write(sp->files[p], b, sp->rows + (size_t)p * HL_BATCH_CAP, sp->n_rows[p], err);
  }
  if (rc != HL_OK) return rc;
  if (n_keep == live) return HL_OK;
  *view = *b;
  view->sel = keep;
  view->n_sel = n_keep;
  *bp = view;
  return HL_OK;
}

hl_status_t hl_agg_spill_cut(agg_t *a, const hl_batch_t *b, uint32_t cut, agg_bufs_t *bufs,
                             hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  uint32_t live = hl_batch_live(b);
  if (!sp->cut_sel && !(sp->cut_sel = hl_malloc(sizeof(uint32_t) * 2 * HL_BATCH_CAP)))
    return hl_err_nomem(err);
  hl_batch_t pre = *b, post = *b;
  pre.sel = sp->cut_sel;
  post.sel = sp->cut_sel + HL_BATCH_CAP;
  pre.n_sel = cut;
  post.n_sel = live - cut;
  for (uint32_t i = 0; i < live; i++)
    sp->cut_sel[i < cut ? i : HL_BATCH_CAP + i - cut] = hl_batch_row(b, i);
  hl_status_t rc = hl_agg_consume_batch(a, &pre, bufs, err);
  if (rc != HL_OK) return rc;
  /* the rest of the batch after the freeze, its groups looked up in a
   * table that has the first part's */
  if (sp->level + 1 < AGG_SPILL_LEVELS) {
    sp->frozen = true;
    a->what = "the aggregation (its groups kept in memory while the others spill)";
  }
  return hl_agg_consume_batch(a, &post, bufs, err);
}

hl_status_t hl_agg_spill_end(agg_t *a, hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  if (!sp->frozen) return HL_OK;
  sp->frozen = false;
  /* pushed last partition first: partition 0 comes out next */
  for (int p = HL_GRACE_PARTS - 1; p >= 0; p--) {
    if (!sp->files[p]) continue;
    if (sp->n_stack == sp->cap_stack) {
      size_t cap = sp->cap_stack ? sp->cap_stack * 2 : 32;
      pending_t *ns = hl_realloc(sp->stack, sizeof(pending_t) * cap);
      if (!ns) return hl_err_nomem(err);
      sp->stack = ns;
      sp->cap_stack = cap;
    }
    /* flushed now: a waiting file holds no buffer */
    hl_status_t rc = hl_spill_rewind(sp->files[p], err);
    if (rc != HL_OK) return rc;
    sp->stack[sp->n_stack++] = (pending_t){sp->files[p], sp->level + 1};
    sp->files[p] = NULL;
  }
  return HL_OK;
}

hl_status_t hl_agg_spill_next(agg_t *a, bool *more, hl_error_t *err) {
  agg_spill_t *sp = a->sp;
  *more = false;
  if (sp->n_stack == 0) return HL_OK;
  pending_t next = sp->stack[--sp->n_stack];
  hl_status_t rc = hl_agg_table_reset(a, err);
  if (rc == HL_OK && !sp->in &&
      !(sp->in = hl_batch_create(sp->n_cols, (const hl_type_t *const *)sp->types)))
    rc = hl_err_nomem(err);
  agg_bufs_t bufs;
  if (rc == HL_OK) rc = hl_agg_bufs_init(a->plan, a->arena, &bufs, err);
  sp->level = next.level;
  a->what = "the aggregation";
  a->consumed = true;
  while (rc == HL_OK) {
    if ((rc = hl_budget_check_cancel(a->budget, err)) != HL_OK) break;
    if ((rc = hl_spill_read(next.f, sp->in, err)) != HL_OK || sp->in->n_rows == 0) break;
    rc = hl_agg_consume_batch(a, sp->in, &bufs, err);
  }
  hl_spill_file_close(next.f);
  if (rc == HL_OK) rc = hl_agg_spill_end(a, err);
  if (rc == HL_OK) *more = true;
  return rc;
}
