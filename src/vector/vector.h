/*
 * vector.h -- columnar batches: the unit of data between operators.
 *
 * A batch is a set of equal-length vectors (DuckDB's DataChunk).  Each
 * vector holds up to HL_BATCH_CAP values in the physical layout of its type
 * (util/type.h: hl_phys_t) plus a validity bitmap (bit set = value present;
 * a NULL bitmap means no NULLs).  A selection vector on the batch names the
 * rows that are live after a filter, so filters never copy data.
 *
 * Memory: vector arrays and the strings they point to belong to the batch's
 * arena, which the producing operator resets before it refills the batch.
 * A consumer may use a batch until it asks its producer for the next one.
 *
 * Dictionary view: a scan of dictionary-encoded strings (Parquet) also
 * says which dictionary entry each row holds, so that an operator can work
 * once per distinct entry instead of once per row (DuckDB's dictionary
 * vectors, kept here beside the plain strings, which stay valid: code that
 * does not know the view loses nothing).  Only the producer that fills
 * `data` sets it; hl_vec_alloc and hl_batch_reset clear it, so a vector
 * whose data is replaced never keeps a stale view.
 */
#ifndef HL_VECTOR_H
#define HL_VECTOR_H

#include "util/arena.h"
#include "util/type.h"
#include "util/value.h"

#include <stdbool.h>
#include <stdint.h>

#define HL_BATCH_CAP 2048

typedef struct hl_vec {
  const hl_type_t *type; /* borrowed: from the plan or the catalog */
  uint64_t *validity;    /* NULL: all valid; else HL_BATCH_CAP bits */
  void *data;            /* array of the physical type: HL_BATCH_CAP entries from
                            hl_vec_alloc; a reader may point it at just n_rows */
  /* dictionary view of a string vector (NULL: none): each valid row r
   * holds dict[dict_idx[r]] (dict_idx[r] < dict_n); NULL rows hold any index */
  const hl_str_t *dict;
  const uint32_t *dict_idx;
  uint32_t dict_n;
} hl_vec_t;

typedef struct hl_batch {
  int n_cols;
  hl_vec_t *cols;
  uint32_t n_rows; /* rows present in the vectors */
  uint32_t *sel;   /* NULL: all n_rows live; else live rows sel[0..n_sel) */
  uint32_t n_sel;
  hl_arena_t *arena; /* owns vector data and strings; reset per refill */
  bool *unused;      /* per column, NULL: none (hl_batch_set_unused) */
  void *zeros;       /* the shared all-zero data of unused columns */
} hl_batch_t;

/* Typed views of vector data. */
#define HL_VEC_BOOL(v)  ((uint8_t *)(v)->data)
#define HL_VEC_I64(v)   ((int64_t *)(v)->data)
#define HL_VEC_F64(v)   ((double *)(v)->data)
#define HL_VEC_I128(v)  ((__int128 *)(v)->data)
#define HL_VEC_STR(v)   ((hl_str_t *)(v)->data)
#define HL_VEC_VALUE(v) ((hl_value_t **)(v)->data)

static inline bool hl_vec_is_null(const hl_vec_t *v, uint32_t row) {
  return v->validity && !(v->validity[row >> 6] & ((uint64_t)1 << (row & 63)));
}

/* Number of live rows. */
static inline uint32_t hl_batch_live(const hl_batch_t *b) {
  return b->sel ? b->n_sel : b->n_rows;
}

/* The physical row of the I-th live row. */
static inline uint32_t hl_batch_row(const hl_batch_t *b, uint32_t i) {
  return b->sel ? b->sel[i] : i;
}

/* Creates an empty batch with N_COLS columns of TYPES (borrowed) whose data
 * arrays come from a new arena owned by the batch.  Caller destroys. */
hl_batch_t *hl_batch_create(int n_cols, const hl_type_t *const *types);
/* Like hl_batch_create, with the batch's arena charged to ACCT (NULL: none;
 * see hl_arena_create_charged): operators pass their statement's account,
 * so that wide batches count against the memory limit. */
hl_batch_t *hl_batch_create_charged(int n_cols, const hl_type_t *const *types,
                                    hl_mem_account_t *acct);
void hl_batch_destroy(hl_batch_t *batch);
/* Marks column C as read by no one above the producer (a column the query
 * does not need): hl_batch_reset then gives it no zeroed data array of its
 * own but a zero block shared by such columns, never to be written, and
 * makes it all NULL.  Saves zeroing an array per column per batch.
 * HL_NOMEM. */
hl_status_t hl_batch_set_unused(hl_batch_t *batch, int c);
/* Resets the arena and reallocates the column arrays: n_rows = 0, no sel,
 * all validity NULL.  Returns HL_OK or HL_NOMEM. */
hl_status_t hl_batch_reset(hl_batch_t *batch);

/* Marks ROW null, allocating the bitmap (all valid) on first use.
 * Returns HL_NOMEM if the bitmap cannot be allocated. */
hl_status_t hl_vec_set_null(hl_vec_t *v, hl_arena_t *arena, uint32_t row);
/* Marks every row of V NULL (a zeroed bitmap in ARENA).  HL_NOMEM. */
hl_status_t hl_vec_set_all_null(hl_vec_t *v, hl_arena_t *arena);
/* Marks ROW valid (only needed when reusing rows). */
void hl_vec_set_valid(hl_vec_t *v, uint32_t row);
/* Allocates the data array for V's type in ARENA (validity NULL). */
hl_status_t hl_vec_alloc(hl_vec_t *v, const hl_type_t *type, hl_arena_t *arena);

/* Stores value V of the vector's type at ROW (strings are copied into
 * ARENA).  Reads back the value at ROW into *out (strings borrowed). */
hl_status_t hl_vec_put_value(hl_vec_t *v, hl_arena_t *arena, uint32_t row, const hl_value_t *val);
void hl_vec_get_value(const hl_vec_t *v, uint32_t row, hl_value_t *out);
/* Stores VAL in rows [0, N) of V (a string copied into ARENA once, every
 * row pointing at the copy): a partition key's column.  HL_NOMEM. */
hl_status_t hl_vec_fill(hl_vec_t *v, hl_arena_t *arena, uint32_t n, const hl_value_t *val);

#endif
