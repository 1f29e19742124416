/*
 * ds_theta.h -- the Apache DataSketches Theta sketch, as Hive 4's
 * ds_theta_* functions (datasketches-hive's theta UDFs on datasketches-java)
 * build, combine and read it, byte-compatible with Java's serialization.
 *
 * What Hive keeps per group is a Union: its gadget is a QuickSelect update
 * sketch (a hash table of 63-bit hashes below theta, resized by 8 up to
 * 2k slots, rebuilt to its k smallest hashes when it passes 15/16 full)
 * and the union's own theta.  A result is a compact ordered sketch (the
 * retained hashes sorted, pulled back to k), which is what Hive stores in a
 * BINARY column: serial version 3, little-endian, an 8-byte preamble for
 * the empty sketch (seed hash 0, flags 0x1E), 16 bytes for one hash with
 * theta 1 (flags 0x3A), else 2 preamble longs (count, p = 1.0f) or 3 (and
 * theta) followed by the hashes.  Readers also take Java's update-sketch
 * images (QuickSelect, and Alpha for the union) and the older serial
 * versions 1 and 2; serial version 4 (the compressed form newer Java
 * writes) is refused as not supported.
 *
 * The result of a union or of the sketch of a stream is the k smallest
 * distinct hashes with theta the next one, whatever the order and the
 * partitioning of the input (for p = 1 and p < 1 alike), so partial states
 * merged by a union give the single-stream bytes.  Bad bytes are 22023
 * (INVALID_PARAMETER_VALUE), as util/hive_hll.c's decoder; every length and
 * count is checked against the bytes before use.  Memory comes from the
 * caller's arena; temporary arrays are freed before return.
 */
#ifndef HL_UTIL_DS_THETA_H
#define HL_UTIL_DS_THETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/error.h"

/* Java's Long.MAX_VALUE: theta = 1.0 */
#define HL_DS_THETA_MAX INT64_MAX
/* DEFAULT_NOMINAL_ENTRIES */
#define HL_DS_THETA_DEFAULT_K 4096

/* The 16-bit seed hash Java stores (computeSeedHash); 22023 when SEED
 * gives 0, as Java refuses it. */
hl_status_t hl_ds_theta_seed_hash(int64_t seed, uint16_t *out, hl_error_t *err);

/* The QuickSelect update sketch (HeapQuickSelectSketch). */
typedef struct hl_ds_theta_qs {
  uint64_t *table; /* 1 << lg_arr slots, 0 = free */
  uint64_t theta;
  uint32_t count;     /* hashes in the table */
  uint32_t threshold; /* resize / rebuild past this count */
  uint8_t lg_nom, lg_arr;
  bool empty;
} hl_ds_theta_qs_t;

/* A union (UnionImpl on the heap): the gadget and the union's theta. */
typedef struct hl_ds_theta_union {
  hl_ds_theta_qs_t g;
  uint64_t union_theta;
  bool union_empty;
  uint16_t seed_hash;
  uint64_t seed;
} hl_ds_theta_union_t;

/* A compact ordered sketch: COUNT hashes, ascending, all in (0, theta). */
typedef struct hl_ds_theta_compact {
  const uint64_t *hashes;
  uint32_t count;
  uint64_t theta;
  uint16_t seed_hash;
  bool empty;
} hl_ds_theta_compact_t;

/* Serialized bytes, checked and read in place. */
typedef struct hl_ds_theta_view {
  const uint8_t *entries; /* n_slots little-endian longs */
  uint32_t n_slots;       /* compact: count; hash table: its size */
  uint32_t count;
  uint64_t theta;
  uint16_t seed_hash;
  uint8_t ser_ver, family, pre_longs;
  bool empty;   /* the empty rule of the reading side (see hl_ds_theta_read) */
  bool ordered; /* compact and ascending */
  bool table;   /* hash-table form (update sketch): slots may be 0 */
} hl_ds_theta_view_t;

/* How bytes are read: as Sketch.wrap (estimate, intersection, A not B:
 * compact or QuickSelect images, seed hash checked unless empty) or as
 * Union.union(Memory) (also Alpha, the preamble's counts taken as they
 * are, a single item's seed hash not checked). */
typedef enum { HL_DS_THETA_WRAP, HL_DS_THETA_UNION } hl_ds_theta_mode_t;

/* DATA[0..len) as a sketch of SEED's hash; 22023 when damaged or of
 * another seed, 0A000 for serial version 4. */
hl_status_t hl_ds_theta_read(const uint8_t *data, size_t len, int64_t seed, hl_ds_theta_mode_t mode,
                             hl_ds_theta_view_t *v, hl_error_t *err);
/* Entry I of V. */
uint64_t hl_ds_theta_entry(const hl_ds_theta_view_t *v, uint32_t i);
/* Sketch.getEstimate() of V. */
double hl_ds_theta_view_estimate(const hl_ds_theta_view_t *v);

/* A new union of nominal entries K (rounded up to a power of 2, 16 to
 * 2^26), sampling probability P in (0, 1] and SEED, in ARENA.  22023 for
 * parameters Java refuses (its messages). */
hl_status_t hl_ds_theta_union_init(hl_ds_theta_union_t *u, int64_t k, float p, int64_t seed,
                                   hl_arena_t *arena, hl_error_t *err);
/* update(x) of one item already hashed (Murmur3 h1 >>> 1). */
hl_status_t hl_ds_theta_union_update(hl_ds_theta_union_t *u, uint64_t hash, hl_arena_t *arena,
                                     hl_error_t *err);
/* union(Memory) of V (read in HL_DS_THETA_UNION mode). */
hl_status_t hl_ds_theta_union_view(hl_ds_theta_union_t *u, const hl_ds_theta_view_t *v,
                                   hl_arena_t *arena, hl_error_t *err);
/* union(Sketch) of a compact sketch (a partial state's result). */
hl_status_t hl_ds_theta_union_compact(hl_ds_theta_union_t *u, const hl_ds_theta_compact_t *c,
                                      hl_arena_t *arena, hl_error_t *err);
/* getResult(): BUF has room for u->g.count hashes and holds OUT's. */
void hl_ds_theta_union_result(const hl_ds_theta_union_t *u, uint64_t *buf,
                              hl_ds_theta_compact_t *out);

/* An intersection (IntersectionImpl on the heap). */
typedef struct hl_ds_theta_inter {
  uint64_t *hashes; /* count of them, ascending, in the arena */
  int64_t count;    /* -1: no sketch yet (the universe) */
  uint64_t theta;
  uint16_t seed_hash;
  bool empty;
} hl_ds_theta_inter_t;

hl_status_t hl_ds_theta_inter_init(hl_ds_theta_inter_t *x, int64_t seed, hl_error_t *err);
/* intersect(Sketch) of V (read in HL_DS_THETA_WRAP mode). */
hl_status_t hl_ds_theta_inter_add(hl_ds_theta_inter_t *x, const hl_ds_theta_view_t *v,
                                  hl_arena_t *arena, hl_error_t *err);
/* getResult(); 22023 before any sketch (Java's "infinite set"). */
hl_status_t hl_ds_theta_inter_result(const hl_ds_theta_inter_t *x, hl_ds_theta_compact_t *out,
                                     hl_error_t *err);

/* aNotB(A, B) with the seed hash SEED_HASH; BUF has room for a->n_slots
 * hashes.  22023 for a seed-hash mismatch. */
hl_status_t hl_ds_theta_a_not_b(const hl_ds_theta_view_t *a, const hl_ds_theta_view_t *b,
                                uint16_t seed_hash, uint64_t *buf, hl_ds_theta_compact_t *out,
                                hl_error_t *err);

/* Sketch.getEstimate() of C. */
double hl_ds_theta_estimate(const hl_ds_theta_compact_t *c);
/* The serialized length of C (toByteArray). */
size_t hl_ds_theta_size(const hl_ds_theta_compact_t *c);
/* C's bytes into OUT (hl_ds_theta_size(c) of them). */
void hl_ds_theta_write(const hl_ds_theta_compact_t *c, uint8_t *out);

#endif
