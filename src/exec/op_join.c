/*
 * op_join.c -- hash join for every join type of HiveQL: INNER, LEFT,
 * RIGHT, FULL, CROSS, LEFT SEMI and LEFT ANTI.
 *
 * One child is the build side: it is read completely into row arrays and
 * a hash table on its key values (chains of row numbers).  The other child
 * is probed batch by batch.  For each probe row the candidate build rows
 * (its hash chain, or every row for a join without keys) become output
 * pairs, written in chunks of up to HL_BATCH_CAP; the residual condition
 * (ON conjuncts that are not key equalities) filters each chunk, and the
 * pairs that pass mark their probe and build rows as matched.  When a probe
 * batch is done, LEFT/RIGHT joins emit its unmatched rows NULL-extended,
 * SEMI emits its matched rows and ANTI its unmatched rows; after the last
 * probe batch a FULL join emits the unmatched build rows.  Rows whose key
 * holds a NULL never match (SQL equality).
 *
 * The output layout is always left columns then right columns (for SEMI
 * and ANTI the right columns are NULL).  RIGHT joins build on the left
 * side, the others on the right.
 *
 * Grace hash join: with a spill space (hl_op_join_set_spill) and keys,
 * once the build side passes its share of the memory limit, the rows held
 * and the rest of the build side, then the whole probe side, are cut into
 * partitions by key hash (op_join_spill.c), and each pair of partitions is
 * joined by a join of the same relation over spill scans, which may cut
 * again.  Build rows then also keep the columns their keys read, so that
 * they can be written back in the build side's layout.  The output comes
 * partition by partition: the same rows, in another order (a join has no
 * defined order).
 */
#include "exec/ops.h"

#include "util/hashmap.h"
#include "util/imap.h"
#include "util/mem.h"

#include <string.h>

typedef enum phase { PH_PAIRS, PH_UNMATCHED, PH_BUILD_UNMATCHED, PH_GRACE, PH_DONE } phase_t;

/* Levels of grace partitioning (16 ways each) before a partition is
 * joined in memory whatever its size. */
#define JOIN_SPILL_LEVELS 4

typedef struct join {
  hl_op_t op;
  const hl_rel_t *rel;
  hl_op_t *probe, *build;
  bool probe_is_left;
  hl_expr_t **probe_keys, **build_keys;
  int n_keys;
  int n_left, n_right;
  /* build side */
  bool built;
  hl_arena_t *build_arena;
  hl_value_t **rows; /* n_build rows of n_build_kept values */
  size_t n_build, cap_build;
  int n_build_cols;
  /* Columns the query reads above the join (NULL: all).  The others come out
   * NULL: a build row keeps only the read columns (build_slot maps a build
   * column to its place in the row, -1 when not kept) and emit() gathers
   * nothing for them -- gathering unread build columns was a cache miss per
   * row and column. */
  bool *used;
  int *build_slot;
  int n_build_kept;
  /* per kept string build column: its distinct strings -> their one copy
   * in build_arena, while there are at most JOIN_INTERN_MAX of them.  A
   * dimension's low-cardinality strings (types, brands, countries) then
   * stay in a few cache lines instead of one copy per build row, which the
   * probe side would otherwise fetch from memory row by row. */
  hl_map_t **intern;
  hl_map_t *map; /* key -> first row + 1 */
  /* one integer key (BIGINT, INT, DATE, ...): an open-addressing table of
   * keys and chain heads instead of serialized keys, one cache line per
   * probe */
  bool int_key;
  hl_imap_t ikeys; /* key -> first row + 1 */
  uint32_t *next;  /* chain: next row + 1, 0 ends */
  uint8_t *build_matched;
  /* probe state */
  hl_batch_t *pb;  /* current probe batch (owned by the probe child) */
  hl_vec_t *pkeys; /* key vectors of the current probe batch */
  hl_arena_t *probe_scratch;
  uint32_t pi;     /* live index of the current probe row */
  uint64_t cursor; /* next candidate build row + 1 (0: start the row) */
  bool row_started;
  uint8_t matched[HL_BATCH_CAP];
  uint32_t unmatched_i;
  size_t build_unmatched_i;
  phase_t phase;
  /* output */
  hl_batch_t *out;
  uint32_t *pair_probe; /* per output row: probe row (physical) or UINT32_MAX */
  uint32_t *pair_build; /* per output row: build row or UINT32_MAX */
  hl_buf_t key;
  hl_budget_t *budget;
  uint64_t charged;
  /* hl_op_join_create_sharing: OWNER's hash table (rows, next, map,
   * ikeys, build_matched), built before this join's first next and only
   * read here, so that threads probe one table; `shared` marks the
   * borrowed pointers, which close leaves alone */
  struct join *owner;
  bool shared;
  bool started;           /* the first probe batch was pulled */
  hl_spill_t *spill;      /* where the build side may spill (NULL: nowhere) */
  uint64_t refuse_over;   /* hl_op_join_set_refuse: build fails past these bytes */
  bool refused;           /* ... and it did */
  int level;              /* grace partitioning levels above this join */
  hl_grace_t *grace;      /* the partitions once spilled (NULL: in memory) */
  int part_i;             /* the next partition to join */
  hl_op_t *part;          /* the join of the current partition */
  hl_arena_t *part_arena; /* what part is made of, freed with it */
  hl_arena_t *arena;      /* the statement's: part_arena's account */
} join_t;

void hl_op_join_set_spill(hl_op_t *op, hl_spill_t *spill) {
  join_t *j = (join_t *)op;
  if (!spill || j->n_keys == 0 || j->owner || j->level >= JOIN_SPILL_LEVELS) return;
  for (int k = 0; k < j->n_keys; k++) /* keys are evaluated again from the files */
    if (hl_expr_is_stateful(j->build_keys[k]) || hl_expr_is_stateful(j->probe_keys[k])) return;
  bool *keyed = hl_calloc((size_t)j->n_build_cols + 1, sizeof(bool));
  if (!keyed) return; /* no spilling, as without a spill space */
  for (int k = 0; k < j->n_keys; k++)
    hl_expr_mark_cols(j->build_keys[k], keyed, j->n_build_cols);
  for (int c = 0; c < j->n_build_cols; c++)
    if (keyed[c] && j->build_slot[c] < 0) j->build_slot[c] = j->n_build_kept++;
  hl_free(keyed);
  j->spill = spill;
}

static bool builds_left(const hl_rel_t *rel) {
  /* RIGHT joins keep unmatched right rows: probe with the right side;
   * INNER joins build on the side the planner found smaller */
  return rel->join_type == HL_JOIN_RIGHT || (rel->join_type == HL_JOIN_INNER && rel->build_left);
}

/* Serializes the key of row R of key vectors KV; false when a key is NULL. */
static bool make_key(join_t *j, const hl_vec_t *kv, uint32_t r) {
  hl_buf_reset(&j->key);
  for (int k = 0; k < j->n_keys; k++) {
    hl_value_t v;
    hl_vec_get_value(&kv[k], r, &v);
    if (v.is_null) return false;
    hl_value_key_append(&j->key, kv[k].type, &v);
  }
  return true;
}

#define JOIN_INTERN_MAX 65536

/* Copies build value V of column C into *OUT (payload in build_arena). */
static hl_status_t keep_build_value(join_t *j, int c, const hl_type_t *type, const hl_value_t *v,
                                    hl_value_t *out) {
  hl_map_t *m = j->intern ? j->intern[c] : NULL;
  if (!m || v->is_null) return hl_value_copy_deep(j->build_arena, type, v, out);
  uint64_t at;
  *out = *v;
  if (hl_map_get(m, v->u.s.ptr, v->u.s.len, &at)) {
    out->u.s.ptr = (const char *)(uintptr_t)at;
    return HL_OK;
  }
  if (hl_value_copy_deep(j->build_arena, type, v, out) != HL_OK) return HL_NOMEM;
  if (hl_map_count(m) >= JOIN_INTERN_MAX) { /* high cardinality: stop interning */
    hl_map_destroy(m);
    j->intern[c] = NULL;
    return HL_OK;
  }
  return hl_map_set(m, v->u.s.ptr, v->u.s.len, (uint64_t)(uintptr_t)out->u.s.ptr) < 0 ? HL_NOMEM
                                                                                      : HL_OK;
}

static size_t intern_bytes(const join_t *j) {
  size_t n = 0;
  for (int c = 0; c < j->n_build_cols; c++)
    if (j->intern[c]) n += hl_map_bytes(j->intern[c]);
  return n;
}

/* What the build side holds in memory. */
static uint64_t held_bytes(const join_t *j) {
  return hl_arena_used(j->build_arena) + hl_map_bytes(j->map) + hl_imap_bytes(&j->ikeys) +
         intern_bytes(j) + j->cap_build * (sizeof(hl_value_t *) + sizeof(uint32_t));
}

/* Cuts the build rows held so far into grace partitions (written back in
 * the build side's layout, batch by batch) and frees them: from here on
 * the build side goes to the partitions. */
static hl_status_t start_grace(join_t *j, hl_error_t *err) {
  const hl_type_t *const *bt = j->rel->types + (j->probe_is_left ? j->n_left : 0);
  hl_batch_t *gb = hl_batch_create_charged(j->n_build_cols, bt, hl_arena_account(j->arena));
  hl_vec_t *kv = hl_calloc((size_t)j->n_keys + 1, sizeof(hl_vec_t));
  hl_arena_t *scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(j->arena));
  hl_status_t rc = HL_OK;
  if (!gb || !kv || !scratch || !(j->grace = hl_grace_create(j->spill, j->level, j->int_key, err)))
    rc = hl_err_nomem(err);
  for (size_t from = 0; rc == HL_OK && from < j->n_build; from += HL_BATCH_CAP) {
    uint32_t n = j->n_build - from < HL_BATCH_CAP ? (uint32_t)(j->n_build - from) : HL_BATCH_CAP;
    hl_arena_reset(scratch);
    if (hl_batch_reset(gb) != HL_OK) rc = hl_err_nomem(err);
    for (uint32_t i = 0; i < n && rc == HL_OK; i++)
      for (int c = 0; c < j->n_build_cols && rc == HL_OK; c++) {
        int slot = j->build_slot[c];
        hl_status_t vr =
            slot < 0 ? hl_vec_set_null(&gb->cols[c], gb->arena, i)
                     : hl_vec_put_value(&gb->cols[c], gb->arena, i, &j->rows[from + i][slot]);
        if (vr != HL_OK) rc = hl_err_nomem(err);
      }
    gb->n_rows = n;
    for (int k = 0; k < j->n_keys && rc == HL_OK; k++)
      rc = hl_expr_eval(j->build_keys[k], gb, &kv[k], scratch, err);
    if (rc == HL_OK) rc = hl_grace_add(j->grace, 0, gb, kv, j->n_keys, err);
  }
  hl_arena_destroy(scratch);
  hl_free(kv);
  hl_batch_destroy(gb);
  if (rc != HL_OK) return rc;
  /* the rows are in the files now */
  for (int c = 0; c < j->n_build_cols; c++) {
    hl_map_destroy(j->intern[c]);
    j->intern[c] = NULL;
  }
  hl_map_destroy(j->map);
  j->map = NULL;
  hl_imap_free(&j->ikeys);
  memset(&j->ikeys, 0, sizeof j->ikeys);
  hl_free(j->rows);
  hl_free(j->next);
  j->rows = NULL;
  j->next = NULL;
  j->n_build = j->cap_build = 0;
  hl_arena_reset(j->build_arena);
  hl_budget_release(j->budget, j->charged);
  j->charged = 0;
  return HL_OK;
}

static hl_status_t build(join_t *j, hl_error_t *err) {
  /* not in build_arena: a spill (start_grace) resets it while the build goes on */
  hl_vec_t *kv = hl_calloc((size_t)j->n_keys + 1, sizeof(hl_vec_t));
  hl_arena_t *scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(j->probe_scratch));
  if (!kv || !scratch) {
    hl_free(kv);
    hl_arena_destroy(scratch);
    return hl_err_nomem(err);
  }
  hl_status_t rc = HL_OK;
  for (;;) {
    hl_arena_reset(scratch);
    hl_batch_t *b;
    rc = j->build->next(j->build, &b, err);
    if (rc != HL_OK || !b) break;
    for (int k = 0; k < j->n_keys && rc == HL_OK; k++)
      rc = hl_expr_eval(j->build_keys[k], b, &kv[k], scratch, err);
    if (rc == HL_OK && j->spill && !j->grace && held_bytes(j) >= hl_spill_share(j->spill))
      rc = start_grace(j, err);
    if (rc == HL_OK && j->refuse_over && held_bytes(j) >= j->refuse_over) {
      j->refused = true;
      rc = hl_err_set(err, HL_ERROR, HL_SS(OUT_OF_MEMORY),
                      "the join's build side passes its share of hivelite.memory_limit");
    }
    if (rc == HL_OK && j->grace) {
      rc = hl_grace_add(j->grace, 0, b, kv, j->n_keys, err);
      if (rc != HL_OK) break;
      continue;
    }
    if (rc == HL_OK)
      rc = hl_budget_track(j->budget, &j->charged, held_bytes(j), "the join's build side", err);
    if (rc != HL_OK) break;
    uint32_t live = hl_batch_live(b);
    for (uint32_t i = 0; i < live && rc == HL_OK; i++) {
      uint32_t r = hl_batch_row(b, i);
      if (j->n_build == j->cap_build) {
        size_t cap = j->cap_build ? j->cap_build * 2 : 1024;
        hl_value_t **nr = hl_realloc(j->rows, sizeof(hl_value_t *) * cap);
        uint32_t *nn = nr ? hl_realloc(j->next, sizeof(uint32_t) * cap) : NULL;
        if (nr) j->rows = nr;
        if (!nn) {
          rc = hl_err_nomem(err);
          break;
        }
        j->next = nn;
        j->cap_build = cap;
      }
      if (j->n_build >= UINT32_MAX - 1) {
        rc = hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "the build side of a join has too many rows");
        break;
      }
      hl_value_t *row =
          hl_arena_alloc(j->build_arena, sizeof(hl_value_t) * (size_t)(j->n_build_kept + 1));
      if (!row) {
        rc = hl_err_nomem(err);
        break;
      }
      for (int c = 0; c < j->n_build_cols; c++) {
        if (j->build_slot[c] < 0) continue;
        /* strings and complex values point into the child's batch, which
         * the next pull reuses: keep deep copies */
        hl_value_t v;
        hl_vec_get_value(&b->cols[c], r, &v);
        if (keep_build_value(j, c, b->cols[c].type, &v, &row[j->build_slot[c]]) != HL_OK) {
          rc = hl_err_nomem(err);
          break;
        }
      }
      if (rc != HL_OK) break;
      size_t idx = j->n_build++;
      j->rows[idx] = row;
      j->next[idx] = 0;
      if (j->n_keys == 0) continue;
      if (j->int_key) {
        if (hl_vec_is_null(&kv[0], r)) continue; /* NULL keys never match */
        uint32_t head;
        if (hl_imap_upsert(&j->ikeys, HL_VEC_I64(&kv[0])[r], (uint32_t)idx + 1, &head) < 0) {
          rc = hl_err_nomem(err);
          break;
        }
        if (head != (uint32_t)idx + 1) { /* not the first row of this key */
          j->next[idx] = j->next[head - 1];
          j->next[head - 1] = (uint32_t)(idx + 1);
        }
        continue;
      }
      if (!make_key(j, kv, r)) continue; /* NULL keys never match */
      if (j->key.oom) {
        rc = hl_err_nomem(err);
        break;
      }
      uint64_t head;
      bool inserted;
      if (hl_map_upsert(j->map, j->key.data, j->key.len, idx + 1, &head, &inserted) < 0) {
        rc = hl_err_nomem(err);
        break;
      }
      if (!inserted) {
        /* insert after the head so the chain keeps build order after it */
        j->next[idx] = j->next[head - 1];
        j->next[head - 1] = (uint32_t)(idx + 1);
      }
    }
  }
  hl_arena_destroy(scratch);
  hl_free(kv);
  if (rc != HL_OK) return rc;
  j->build_matched = hl_arena_zalloc(j->build_arena, j->n_build ? j->n_build : 1);
  return j->build_matched ? HL_OK : hl_err_nomem(err);
}

static bool emits_pairs(hl_ast_join_type_t t) {
  return t != HL_JOIN_LEFT_SEMI && t != HL_JOIN_LEFT_ANTI;
}

/* Records output row O as probe row PR and build row BR (either may be
 * UINT32_MAX for a NULL side); emit() fills the columns afterwards. */
static void put_pair(join_t *j, uint32_t o, uint32_t pr, uint32_t br) {
  j->pair_probe[o] = pr;
  j->pair_build[o] = br;
}

/* Gives DST a validity mask with every row valid, to clear bits in. */
static uint64_t *all_valid(hl_vec_t *dst, hl_arena_t *arena) {
  if (!dst->validity) {
    dst->validity = hl_arena_alloc(arena, HL_BATCH_CAP / 8);
    if (dst->validity) memset(dst->validity, 0xff, HL_BATCH_CAP / 8);
  }
  return dst->validity;
}

/* Makes DST all NULL (a column nobody reads); false on OOM. */
static bool all_null(hl_vec_t *dst, hl_arena_t *arena) {
  uint64_t *dv = all_valid(dst, arena);
  if (dv) memset(dv, 0, HL_BATCH_CAP / 8);
  return dv != NULL;
}

#define CLEAR_BIT(m, o) ((m)[(o) >> 6] &= ~((uint64_t)1 << ((o)&63)))

typedef hl_value_t *value_ptr_t;

/* DST rows 0..N from SRC rows IDX[0..N) (UINT32_MAX: NULL).  Strings and
 * complex values are shared, not copied: the probe batch stays valid
 * until the next pull, which comes after the consumer is done with this
 * output batch. */
static hl_status_t gather_probe(hl_vec_t *dst, const hl_vec_t *src, uint32_t src_rows,
                                const uint32_t *idx, uint32_t n, hl_arena_t *arena) {
  const uint64_t *sv = src->validity;
  uint64_t *dv = NULL;
  if (sv) {
    /* a column the query does not read is all NULL: no per-row work */
    bool all_null_src = true;
    for (uint32_t w = 0; w < (src_rows + 63) / 64 && all_null_src; w++)
      all_null_src =
          (sv[w] & (w == src_rows / 64 ? ((uint64_t)1 << (src_rows & 63)) - 1 : ~0ULL)) == 0;
    if (all_null_src) return all_null(dst, arena) ? HL_OK : HL_NOMEM;
  }
  for (uint32_t o = 0; o < n; o++) {
    uint32_t r = idx[o];
    if (r == UINT32_MAX || (sv && !((sv[r >> 6] >> (r & 63)) & 1))) {
      if (!dv && !(dv = all_valid(dst, arena))) return HL_NOMEM;
      CLEAR_BIT(dv, o); /* the data slot is masked */
    }
  }
  switch (hl_type_phys(dst->type)) {
#define GATHER(T)                                                                                  \
  do {                                                                                             \
    T *d = (T *)dst->data;                                                                         \
    const T *sd = (const T *)src->data;                                                            \
    for (uint32_t o = 0; o < n; o++)                                                               \
      if (idx[o] != UINT32_MAX) d[o] = sd[idx[o]];                                                 \
  } while (0)
  case HL_P_BOOL:
    GATHER(uint8_t);
    break;
  case HL_P_I64:
    GATHER(int64_t);
    break;
  case HL_P_F64:
    GATHER(double);
    break;
  case HL_P_I128:
    GATHER(__int128);
    break;
  case HL_P_STR:
    GATHER(hl_str_t);
    break;
  case HL_P_VALUE:
    GATHER(value_ptr_t);
    break;
#undef GATHER
  }
  return HL_OK;
}

/* DST rows 0..N from column C of the build rows IDX[0..N); the values live
 * in the build arena until the join closes. */
static hl_status_t gather_build(join_t *j, hl_vec_t *dst, int c, const uint32_t *idx, uint32_t n,
                                hl_arena_t *arena) {
  hl_phys_t ph = hl_type_phys(dst->type);
  uint64_t *dv = NULL;
  bool ahead = j->n_build > 4096; /* build rows beyond the cache */
  for (uint32_t o = 0; o < n; o++) {
    uint32_t br = idx[o];
    if (ahead) { /* the row pointer 16 pairs ahead, the row's value 8 ahead */
      if (o + 16 < n && idx[o + 16] != UINT32_MAX) __builtin_prefetch(&j->rows[idx[o + 16]]);
      if (o + 8 < n && idx[o + 8] != UINT32_MAX)
        __builtin_prefetch(&j->rows[idx[o + 8]][j->build_slot[c]]);
    }
    hl_value_t *v = br == UINT32_MAX ? NULL : &j->rows[br][j->build_slot[c]];
    if (!v || v->is_null) {
      if (!dv && !(dv = all_valid(dst, arena))) return HL_NOMEM;
      CLEAR_BIT(dv, o);
      continue;
    }
    switch (ph) {
    case HL_P_BOOL:
      HL_VEC_BOOL(dst)[o] = v->u.b ? 1 : 0;
      break;
    case HL_P_I64:
      HL_VEC_I64(dst)[o] = v->u.i;
      break;
    case HL_P_F64:
      HL_VEC_F64(dst)[o] = v->u.d;
      break;
    case HL_P_I128:
      HL_VEC_I128(dst)[o] = v->u.dec;
      break;
    case HL_P_STR:
      HL_VEC_STR(dst)[o] = v->u.s;
      break;
    case HL_P_VALUE:
      HL_VEC_VALUE(dst)[o] = v;
      break;
    }
  }
  return HL_OK;
}

/* Fills the N output rows recorded by put_pair, one column at a time. */
static hl_status_t emit(join_t *j, uint32_t n, hl_error_t *err) {
  hl_batch_t *out = j->out;
  int n_probe_cols = j->probe_is_left ? j->n_left : j->n_right;
  int probe_off = j->probe_is_left ? 0 : j->n_left;
  int build_off = j->probe_is_left ? j->n_left : 0;
  for (int c = 0; c < n_probe_cols; c++) {
    hl_vec_t *dst = &out->cols[probe_off + c];
    if (j->used && !j->used[probe_off + c]) {
      if (!all_null(dst, out->arena)) return hl_err_nomem(err);
    } else if (j->pb) {
      if (gather_probe(dst, &j->pb->cols[c], j->pb->n_rows, j->pair_probe, n, out->arena) != HL_OK)
        return hl_err_nomem(err);
    } else { /* the build rows left over by a FULL join: no probe batch */
      uint64_t *dv = all_valid(dst, out->arena);
      if (!dv) return hl_err_nomem(err);
      for (uint32_t o = 0; o < n; o++)
        CLEAR_BIT(dv, o);
    }
  }
  for (int c = 0; c < j->n_build_cols; c++) {
    hl_vec_t *dst = &out->cols[build_off + c];
    bool unread = j->build_slot[c] < 0 || (j->used && !j->used[build_off + c]);
    if (unread ? !all_null(dst, out->arena)
               : gather_build(j, dst, c, j->pair_build, n, out->arena) != HL_OK)
      return hl_err_nomem(err);
  }
  out->n_rows = n;
  return HL_OK;
}

static hl_status_t next_probe_batch(join_t *j, hl_error_t *err) {
  hl_arena_reset(j->probe_scratch);
  hl_status_t rc = j->probe->next(j->probe, &j->pb, err);
  if (rc != HL_OK || !j->pb) return rc;
  for (int k = 0; k < j->n_keys; k++) {
    rc = hl_expr_eval(j->probe_keys[k], j->pb, &j->pkeys[k], j->probe_scratch, err);
    if (rc != HL_OK) return rc;
  }
  j->pi = 0;
  j->cursor = 0;
  j->row_started = false;
  j->unmatched_i = 0;
  memset(j->matched, 0, sizeof j->matched);
  return HL_OK;
}

/* Fills the output batch with candidate pairs of the current probe batch;
 * returns with out->n_rows == 0 when the batch has no more pairs. */
static hl_status_t fill_pairs(join_t *j, hl_error_t *err) {
  uint32_t live = hl_batch_live(j->pb);
  uint32_t o = 0;
  bool ahead = j->int_key && j->ikeys.cap > 4096; /* a key table beyond the cache */
  while (j->pi < live && o < HL_BATCH_CAP) {
    uint32_t pr = hl_batch_row(j->pb, j->pi);
    if (!j->row_started) {
      j->row_started = true;
      if (ahead && j->pi + 16 < live) /* the lookup 16 rows ahead */
        hl_imap_prefetch(&j->ikeys, HL_VEC_I64(&j->pkeys[0])[hl_batch_row(j->pb, j->pi + 16)]);
      if (j->n_keys == 0) {
        j->cursor = j->n_build ? 1 : 0;
      } else if (j->int_key) {
        j->cursor = hl_vec_is_null(&j->pkeys[0], pr)
                        ? 0
                        : hl_imap_get(&j->ikeys, HL_VEC_I64(&j->pkeys[0])[pr]);
      } else if (!make_key(j, j->pkeys, pr)) {
        j->cursor = 0;
      } else {
        if (j->key.oom) return hl_err_nomem(err);
        uint64_t head;
        j->cursor = hl_map_get(j->map, j->key.data, j->key.len, &head) ? head : 0;
      }
    }
    if (j->cursor == 0) {
      j->pi++;
      j->row_started = false;
      continue;
    }
    uint32_t br = (uint32_t)(j->cursor - 1);
    put_pair(j, o++, pr, br);
    if (j->n_keys == 0)
      j->cursor = br + 2 <= j->n_build ? br + 2 : 0;
    else
      j->cursor = j->next[br];
  }
  /* SEMI and ANTI joins without a residual condition only need the pairs */
  if (o && (j->rel->residual || emits_pairs(j->rel->join_type))) return emit(j, o, err);
  j->out->n_rows = o;
  return HL_OK;
}

static hl_status_t fill_unmatched(join_t *j, hl_error_t *err) {
  hl_ast_join_type_t t = j->rel->join_type;
  uint32_t live = hl_batch_live(j->pb), o = 0;
  while (j->unmatched_i < live && o < HL_BATCH_CAP) {
    uint32_t i = j->unmatched_i++;
    uint32_t pr = hl_batch_row(j->pb, i);
    bool m = j->matched[pr];
    bool emit_row = t == HL_JOIN_LEFT_SEMI ? m : !m;
    if (!emit_row) continue;
    put_pair(j, o++, pr, UINT32_MAX);
  }
  return emit(j, o, err);
}

static hl_status_t fill_build_unmatched(join_t *j, hl_error_t *err) {
  uint32_t o = 0;
  while (j->build_unmatched_i < j->n_build && o < HL_BATCH_CAP) {
    size_t br = j->build_unmatched_i++;
    if (j->build_matched[br]) continue;
    put_pair(j, o++, UINT32_MAX, (uint32_t)br);
  }
  return emit(j, o, err);
}

static bool has_unmatched_phase(hl_ast_join_type_t t) {
  return t == HL_JOIN_LEFT || t == HL_JOIN_RIGHT || t == HL_JOIN_FULL || t == HL_JOIN_LEFT_SEMI ||
         t == HL_JOIN_LEFT_ANTI;
}

/* Builds J's hash table, or borrows its owner's (already built). */
static hl_status_t ensure_built(join_t *j, hl_error_t *err) {
  j->built = true;
  if (!j->owner) return build(j, err);
  const join_t *o = j->owner;
  if (!o->built)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "a shared join table is not built");
  hl_map_destroy(j->map);
  j->map = o->map;
  j->ikeys = o->ikeys;
  j->rows = o->rows;
  j->next = o->next;
  j->n_build = o->n_build;
  j->build_matched = o->build_matched;
  j->shared = true;
  return HL_OK;
}

void hl_op_join_set_refuse(hl_op_t *op, uint64_t bytes) {
  ((join_t *)op)->refuse_over = bytes;
}

bool hl_op_join_refused(const hl_op_t *op) {
  return ((const join_t *)op)->refused;
}

hl_status_t hl_op_join_build(hl_op_t *op, hl_error_t *err) {
  join_t *j = (join_t *)op;
  return j->built ? HL_OK : ensure_built(j, err);
}

bool hl_join_builds_left(const hl_rel_t *rel) {
  return builds_left(rel);
}

/* ---------------------------------------------------------------- grace */

/* Cuts the whole probe side into the grace partitions. */
static hl_status_t partition_probe(join_t *j, hl_error_t *err) {
  hl_status_t rc;
  while ((rc = next_probe_batch(j, err)) == HL_OK && j->pb)
    if ((rc = hl_grace_add(j->grace, 1, j->pb, j->pkeys, j->n_keys, err)) != HL_OK) return rc;
  j->pb = NULL;
  return rc;
}

/* Makes j->part the join of the next pair of partitions that can give a
 * row (NULL after the last). */
static hl_status_t next_part(join_t *j, hl_error_t *err) {
  hl_ast_join_type_t t = j->rel->join_type;
  /* a probe partition alone still gives its unmatched rows; a build
   * partition alone only to FULL joins */
  bool probe_alone = has_unmatched_phase(t) && t != HL_JOIN_LEFT_SEMI;
  bool build_alone = t == HL_JOIN_FULL;
  int build_off = j->probe_is_left ? j->n_left : 0, probe_off = j->probe_is_left ? 0 : j->n_left;
  int n_probe = j->probe_is_left ? j->n_left : j->n_right;
  j->part = NULL;
  while (j->part_i < HL_GRACE_PARTS) {
    int p = j->part_i++;
    hl_spill_file_t *bf = hl_grace_take(j->grace, 0, p), *pf = hl_grace_take(j->grace, 1, p);
    if ((!bf && !pf) || (!bf && !probe_alone) || (!pf && !build_alone)) {
      hl_spill_file_close(bf);
      hl_spill_file_close(pf);
      continue;
    }
    /* one arena per partition: the statement's does not grow with their count */
    hl_arena_t *pa = hl_arena_create_charged(0, hl_arena_account(j->arena));
    if (!pa) {
      hl_spill_file_close(bf);
      hl_spill_file_close(pf);
      return hl_err_nomem(err);
    }
    j->part_arena = pa;
    hl_op_t *bs =
        hl_op_spill_scan_create(bf, j->n_build_cols, j->rel->types + build_off, j->budget, pa, err);
    hl_op_t *ps =
        hl_op_spill_scan_create(pf, n_probe, j->rel->types + probe_off, j->budget, pa, err);
    if (!bs || !ps) {
      if (bs) bs->close(bs);
      if (ps) ps->close(ps);
      return err->code;
    }
    hl_op_t *sub = j->probe_is_left
                       ? hl_op_join_create(ps, bs, j->rel, j->used, j->budget, pa, err)
                       : hl_op_join_create(bs, ps, j->rel, j->used, j->budget, pa, err);
    if (!sub) return err->code;
    ((join_t *)sub)->level = j->level + 1; /* a partition too big is cut again, another way */
    hl_op_join_set_spill(sub, j->spill);
    j->part = sub;
    return HL_OK;
  }
  return HL_OK;
}

static void close_part(join_t *j) {
  if (j->part) j->part->close(j->part);
  j->part = NULL;
  hl_arena_destroy(j->part_arena);
  j->part_arena = NULL;
}

/* The next batch of the partitions' joins (NULL after the last). */
static hl_status_t grace_next(join_t *j, hl_batch_t **out, hl_error_t *err) {
  for (;;) {
    if (!j->part) {
      hl_status_t rc = next_part(j, err);
      if (rc != HL_OK || !j->part) return rc;
    }
    hl_status_t rc = j->part->next(j->part, out, err);
    if (rc != HL_OK || *out) return rc;
    close_part(j);
  }
}

static hl_status_t join_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  join_t *j = (join_t *)op;
  hl_ast_join_type_t t = j->rel->join_type;
  *out = NULL;
  hl_status_t rc;
  if (!j->started) {
    j->started = true;
    if (!j->built && (rc = ensure_built(j, err)) != HL_OK) return rc;
    if (j->grace) {
      if ((rc = partition_probe(j, err)) != HL_OK) return rc;
      j->phase = PH_GRACE;
    } else {
      if ((rc = next_probe_batch(j, err)) != HL_OK) return rc;
      j->phase = j->pb ? PH_PAIRS : (t == HL_JOIN_FULL ? PH_BUILD_UNMATCHED : PH_DONE);
    }
  }
  for (;;) {
    /* a probe row may pair with a whole build side: batches without a
     * scan below them */
    if ((rc = hl_budget_check_cancel(j->budget, err)) != HL_OK) return rc;
    if (hl_batch_reset(j->out) != HL_OK) return hl_err_nomem(err);
    switch (j->phase) {
    case PH_PAIRS:
      if ((rc = fill_pairs(j, err)) != HL_OK) return rc;
      if (j->out->n_rows == 0) {
        j->phase = has_unmatched_phase(t) ? PH_UNMATCHED : PH_PAIRS;
        if (j->phase == PH_PAIRS) {
          if ((rc = next_probe_batch(j, err)) != HL_OK) return rc;
          if (!j->pb) j->phase = t == HL_JOIN_FULL ? PH_BUILD_UNMATCHED : PH_DONE;
        }
        continue;
      }
      if (j->rel->residual &&
          (rc = hl_expr_filter(j->rel->residual, j->out, j->out->arena, err)) != HL_OK)
        return rc;
      for (uint32_t i = 0; i < hl_batch_live(j->out); i++) {
        uint32_t o = hl_batch_row(j->out, i);
        j->matched[j->pair_probe[o]] = 1;
        if (t == HL_JOIN_FULL) j->build_matched[j->pair_build[o]] = 1; /* read by FULL only */
      }
      if (!emits_pairs(t) || hl_batch_live(j->out) == 0) continue;
      *out = j->out;
      return HL_OK;
    case PH_UNMATCHED:
      if ((rc = fill_unmatched(j, err)) != HL_OK) return rc;
      if (j->out->n_rows == 0) {
        if ((rc = next_probe_batch(j, err)) != HL_OK) return rc;
        j->phase = j->pb ? PH_PAIRS : (t == HL_JOIN_FULL ? PH_BUILD_UNMATCHED : PH_DONE);
        continue;
      }
      *out = j->out;
      return HL_OK;
    case PH_BUILD_UNMATCHED:
      if ((rc = fill_build_unmatched(j, err)) != HL_OK) return rc;
      if (j->out->n_rows == 0) {
        j->phase = PH_DONE;
        continue;
      }
      *out = j->out;
      return HL_OK;
    case PH_GRACE:
      if ((rc = grace_next(j, out, err)) != HL_OK || *out) return rc;
      j->phase = PH_DONE;
      continue;
    case PH_DONE:
      return HL_OK;
    }
  }
}

static void join_close(hl_op_t *op) {
  join_t *j = (join_t *)op;
  if (j->shared) { /* the owner's */
    j->map = NULL;
    memset(&j->ikeys, 0, sizeof j->ikeys);
    j->rows = NULL;
    j->next = NULL;
  }
  hl_budget_release(j->budget, j->charged);
  j->charged = 0;
  close_part(j);
  hl_grace_destroy(j->grace);
  j->grace = NULL;
  if (j->probe) j->probe->close(j->probe);
  if (j->build) j->build->close(j->build);
  j->probe = j->build = NULL;
  hl_map_destroy(j->map);
  j->map = NULL;
  for (int c = 0; j->intern && c < j->n_build_cols; c++)
    hl_map_destroy(j->intern[c]);
  j->intern = NULL;
  hl_imap_free(&j->ikeys);
  hl_free(j->rows);
  hl_free(j->next);
  j->rows = NULL;
  j->next = NULL;
  hl_batch_destroy(j->out);
  j->out = NULL;
  hl_arena_destroy(j->build_arena);
  hl_arena_destroy(j->probe_scratch);
  j->build_arena = j->probe_scratch = NULL;
  hl_buf_fini(&j->key);
}

hl_op_t *hl_op_join_create(hl_op_t *left, hl_op_t *right, const hl_rel_t *rel, const bool *used,
                           hl_budget_t *budget, hl_arena_t *arena, hl_error_t *err) {
  join_t *j = hl_arena_zalloc(arena, sizeof(*j));
  if (!j) {
    if (left) left->close(left);
    if (right) right->close(right);
    return hl_err_nomem(err), NULL;
  }
  j->op.next = join_next;
  j->op.close = join_close;
  j->budget = budget;
  j->arena = arena;
  j->rel = rel;
  j->n_left = rel->left->n_cols;
  j->n_right = rel->right->n_cols;
  j->n_keys = rel->n_keys;
  hl_buf_init(&j->key);
  if (builds_left(rel)) {
    j->build = left;
    j->probe = right;
    j->probe_is_left = false;
    j->build_keys = rel->left_keys;
    j->probe_keys = rel->right_keys;
    j->n_build_cols = j->n_left;
  } else {
    j->build = right;
    j->probe = left;
    j->probe_is_left = true;
    j->build_keys = rel->right_keys;
    j->probe_keys = rel->left_keys;
    j->n_build_cols = j->n_right;
  }
  j->int_key = j->n_keys == 1 && hl_type_phys(j->build_keys[0]->type) == HL_P_I64 &&
               hl_type_phys(j->probe_keys[0]->type) == HL_P_I64;
  j->build_arena = hl_arena_create(0);
  j->probe_scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(arena));
  j->map = hl_map_create();
  j->pkeys = hl_arena_zalloc(arena, sizeof(hl_vec_t) * (size_t)(j->n_keys + 1));
  j->pair_probe = hl_arena_alloc(arena, sizeof(uint32_t) * HL_BATCH_CAP);
  j->pair_build = hl_arena_alloc(arena, sizeof(uint32_t) * HL_BATCH_CAP);
  j->out = hl_batch_create_charged(rel->n_cols, rel->types, hl_arena_account(arena));
  j->build_slot = hl_arena_alloc(arena, sizeof(int) * (size_t)(j->n_build_cols + 1));
  if (used && (j->used = hl_arena_alloc(arena, sizeof(bool) * (size_t)(rel->n_cols + 1)))) {
    memcpy(j->used, used, sizeof(bool) * (size_t)rel->n_cols);
    if (rel->residual) hl_expr_mark_cols(rel->residual, j->used, rel->n_cols);
  }
  j->intern = hl_arena_zalloc(arena, sizeof(hl_map_t *) * (size_t)(j->n_build_cols + 1));
  bool intern_ok = j->intern != NULL;
  for (int c = 0; j->out && j->used && c < rel->n_cols; c++) /* columns nobody reads */
    if (!j->used[c] && hl_batch_set_unused(j->out, c) != HL_OK) intern_ok = false;
  if (j->build_slot && j->intern) {
    int build_off = j->probe_is_left ? j->n_left : 0;
    const hl_type_t *const *bt = rel->types + build_off;
    for (int c = 0; c < j->n_build_cols; c++) {
      j->build_slot[c] = !used || j->used[build_off + c] ? j->n_build_kept++ : -1;
      if (j->build_slot[c] >= 0 && hl_type_phys(bt[c]) == HL_P_STR &&
          !(j->intern[c] = hl_map_create()))
        intern_ok = false;
    }
  }
  if (!j->build_arena || !j->probe_scratch || !j->map || !j->pkeys || !j->pair_probe ||
      !j->pair_build || !j->out || !j->build_slot || !intern_ok || (used && !j->used)) {
    join_close(&j->op);
    return hl_err_nomem(err), NULL;
  }
  return &j->op;
}

hl_op_t *hl_op_join_create_sharing(hl_op_t *probe, const hl_rel_t *rel, const bool *used,
                                   hl_op_t *owner, hl_budget_t *budget, hl_arena_t *arena,
                                   hl_error_t *err) {
  bool bl = builds_left(rel);
  hl_op_t *op =
      hl_op_join_create(bl ? NULL : probe, bl ? probe : NULL, rel, used, budget, arena, err);
  if (op) ((join_t *)op)->owner = (join_t *)owner;
  return op;
}
