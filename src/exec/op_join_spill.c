/*
 * op_join_spill.c -- the partitions of a grace hash join, and the operator
 * that replays a spill file.
 *
 * When a join's build side passes its share of the memory limit
 * (op_join.c), its rows, and then every probe row, are cut by a hash of
 * their join key into HL_GRACE_PARTS spill files per side; op_join.c then
 * joins partition p of the build side with partition p of the probe side
 * by a join of the same relation over two spill scans, which may
 * partition again (with another hash seed, one level deeper) when a
 * partition still does not fit.  Equal keys always meet in one partition
 * (the hash is over the very key the hash table compares: the integer of
 * an integer key, else hl_value_key_append's bytes), so every join type
 * keeps its answer: a row whose key holds a NULL matches nothing in any
 * partition, so such rows are dealt round-robin to spread them.
 */
#include "exec/ops.h"

#include "util/hashmap.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <string.h>

struct hl_grace {
  hl_spill_t *spill;
  uint64_t seed;                               /* per level: another cut */
  bool int_key;                                /* hash the int64 key, else key bytes */
  hl_spill_file_t *files[2][HL_GRACE_PARTS];   /* [side][partition]; NULL: empty */
  uint32_t rows[HL_GRACE_PARTS][HL_BATCH_CAP]; /* scratch: rows of a batch per partition */
  uint32_t n_rows[HL_GRACE_PARTS];
  uint32_t deal; /* round-robin for NULL keys */
  hl_buf_t key;
};

hl_grace_t *hl_grace_create(hl_spill_t *spill, int level, bool int_key, hl_error_t *err) {
  hl_grace_t *g = hl_calloc(1, sizeof(*g));
  if (!g) return hl_err_nomem(err), NULL;
  g->spill = spill;
  g->seed = 0x9e3779b97f4a7c15ull * (uint64_t)(level + 1);
  g->int_key = int_key;
  hl_buf_init(&g->key);
  return g;
}

void hl_grace_destroy(hl_grace_t *g) {
  if (!g) return;
  for (int side = 0; side < 2; side++)
    for (int p = 0; p < HL_GRACE_PARTS; p++)
      hl_spill_file_close(g->files[side][p]);
  hl_buf_fini(&g->key);
  hl_free(g);
}

/* The partition of physical row R of key vectors KV[0..n_keys). */
static int part_of(hl_grace_t *g, const hl_vec_t *kv, int n_keys, uint32_t r) {
  if (g->int_key) {
    if (hl_vec_is_null(&kv[0], r)) return (int)(g->deal++ % HL_GRACE_PARTS);
    return (int)(hl_hash_mix64((uint64_t)HL_VEC_I64(&kv[0])[r] ^ g->seed) % HL_GRACE_PARTS);
  }
  hl_buf_reset(&g->key);
  for (int k = 0; k < n_keys; k++) {
    hl_value_t v;
    hl_vec_get_value(&kv[k], r, &v);
    if (v.is_null) return (int)(g->deal++ % HL_GRACE_PARTS);
    hl_value_key_append(&g->key, kv[k].type, &v);
  }
  return (int)(hl_hash_mix64(hl_hash_bytes(g->key.data, g->key.len) ^ g->seed) % HL_GRACE_PARTS);
}

hl_status_t hl_grace_add(hl_grace_t *g, int side, const hl_batch_t *b, const hl_vec_t *kv,
                         int n_keys, hl_error_t *err) {
  memset(g->n_rows, 0, sizeof g->n_rows);
  uint32_t live = hl_batch_live(b);
  for (uint32_t i = 0; i < live; i++) {
    uint32_t r = hl_batch_row(b, i);
    int p = part_of(g, kv, n_keys, r);
    g->rows[p][g->n_rows[p]++] = r;
  }
  if (g->key.oom) return hl_err_nomem(err);
  for (int p = 0; p < HL_GRACE_PARTS; p++) {
    if (!g->n_rows[p]) continue;
    hl_status_t rc = HL_OK;
    if (!g->files[side][p]) rc = hl_spill_file_create(g->spill, &g->files[side][p], err);
    if (rc == HL_OK) rc = hl_spill_write(g->files[side][p], b, g->rows[p], g->n_rows[p], err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

hl_spill_file_t *hl_grace_take(hl_grace_t *g, int side, int p) {
  hl_spill_file_t *f = g->files[side][p];
  g->files[side][p] = NULL;
  return f;
}

/* ------------------------------------------------------------ spill scan */

typedef struct spill_scan {
  hl_op_t op;
  hl_spill_file_t *file; /* owned; NULL: no rows */
  hl_batch_t *out;
  hl_budget_t *budget;
  bool started;
} spill_scan_t;

static hl_status_t spill_scan_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  spill_scan_t *s = (spill_scan_t *)op;
  *out = NULL;
  if (!s->file) return HL_OK;
  hl_status_t rc = hl_budget_check_cancel(s->budget, err);
  if (rc == HL_OK && !s->started) {
    s->started = true;
    rc = hl_spill_rewind(s->file, err);
  }
  if (rc == HL_OK) rc = hl_spill_read(s->file, s->out, err);
  if (rc == HL_OK && s->out->n_rows) *out = s->out;
  return rc;
}

static void spill_scan_close(hl_op_t *op) {
  spill_scan_t *s = (spill_scan_t *)op;
  hl_spill_file_close(s->file);
  s->file = NULL;
  hl_batch_destroy(s->out);
  s->out = NULL;
}

hl_op_t *hl_op_spill_scan_create(hl_spill_file_t *file, int n_cols, const hl_type_t *const *types,
                                 hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err) {
  spill_scan_t *s = hl_arena_zalloc(arena, sizeof(*s));
  if (!s) {
    hl_spill_file_close(file);
    return hl_err_nomem(err), NULL;
  }
  s->op.next = spill_scan_next;
  s->op.close = spill_scan_close;
  s->file = file;
  s->budget = budget;
  if (!(s->out = hl_batch_create_charged(n_cols, types, hl_arena_account(arena)))) {
    spill_scan_close(&s->op);
    return hl_err_nomem(err), NULL;
  }
  return &s->op;
}
