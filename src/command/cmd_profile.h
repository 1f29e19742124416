/*
 * cmd_profile.h -- what the files of PROFILE TABLE share: the run of one
 * statement (cmd_profile.c: units, reading, merging, results) and its
 * incremental part (cmd_profile_incr.c: the incremental field, the
 * checkpoint, which partitions are new, late rows).
 *
 * A unit is what one profile state is kept for: one partition, or the
 * whole of an unpartitioned table.  Units are read whole (a LIMIT cuts
 * only the last, oldest one short), each into its own per-column states,
 * which are merged into the totals in unit order, so that a profile
 * merged from stored states equals one read fresh.
 */
#ifndef HL_CMD_PROFILE_H
#define HL_CMD_PROFILE_H

#include "command/cmd_int.h"
#include "exec/snapshot.h"
#include "plan/incr.h"
#include "plan/plan.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "vector/profile.h"

typedef struct hl_prof_unit {
  hl_cat_partition_t *part; /* NULL: the unpartitioned table */
  const char *name;         /* partition name; "" for the table */
  char *fp;                 /* fingerprint of its files (heap), NULL: not listed */
  bool reuse;               /* merged from stored states, not read */
  bool late;                /* read again: rows arrived after a checkpoint scanned it */
  bool whole;               /* every row of the unit went into its states */
  hl_prof_col_t **cols;     /* per profiled column (heap), NULL once merged */
  hl_buf_t *enc;            /* encoded states to store (heap), NULL: none */
  uint64_t rows;            /* rows that went into its states */
  uint32_t *meta_files;     /* per data column: files whose statistics answered it (heap) */
  uint64_t *meta_chunks;    /* ... and their row groups / stripes */
  int state;                /* 0 waiting, 1 taken by a worker, 2 done */
} hl_prof_unit_t;

typedef struct hl_prof_run {
  hl_session_t *s;
  const hl_ast_stmt_t *stmt;
  hl_arena_t *arena; /* the statement's */
  hl_table_t *t;
  const char *catalog; /* the table's catalog name */
  hl_cat_t *cat;       /* the table's catalog */
  hl_plan_t *plan;
  hl_plan_scan_t *scan;
  const hl_expr_t *filter; /* scan + block filter; NULL: none */
  bool has_where;          /* rows are selected (WHERE or an incremental value filter) */
  hl_snap_t *snap;
  hl_snap_table_t *snap_table;

  int n_cols; /* profiled columns read from files: the data columns */
  hl_prof_col_t **total;
  hl_prof_col_t **keys; /* the partition keys' states (t->n_part) */
  /* per data column, what file statistics may answer (hl_op_scan_set_meta:
   * 1 the NULL counts, 2 the values); NULL: off (hivelite.profile.metadata) */
  uint8_t *meta_want;
  uint32_t *meta_files; /* per data column, totals of the units read */
  uint64_t *meta_chunks;
  hl_prof_unit_t *units;
  size_t n_units;
  size_t n_parts_total; /* the table's partitions */
  uint64_t rows;        /* rows profiled */
  size_t n_read, n_reused;
  bool cut; /* a LIMIT stopped the reading */

  /* incremental (cmd_profile_incr.c) */
  hl_incr_field_t field;
  bool have_cp;
  hl_cat_checkpoint_t cp;
  char *cp_new;       /* the checkpoint's next value, NULL: unchanged */
  char *value_filter; /* a value field's "col > checkpoint" as SQL, NULL: none */

  hl_buf_t warnings; /* a JSON array's items, comma-separated */
  int n_warnings;
} hl_prof_run_t;

/* Appends NAME as a HiveQL identifier in backquotes. */
void hl_prof_quote_ident(hl_buf_t *b, const char *name);
/* Appends S as a JSON string (quoted, escaped). */
void hl_prof_json_string(hl_buf_t *b, const char *s);
/* Adds a warning {"code": CODE, "message": ...} to the summary and tells
 * the embedder's warning handler. */
hl_status_t hl_prof_warn(hl_prof_run_t *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Incremental: resolves the table's incremental field and reads the named
 * checkpoint (missing: the first scan); for a value field sets
 * r->value_filter. */
hl_status_t hl_prof_incr_begin(hl_prof_run_t *r, hl_error_t *err);
/* Incremental on a date or batch field: keeps of PARTS[0..*n) those after
 * the checkpoint (values that do not parse are left out with a warning),
 * adds (WITH LATE) or reports the already scanned partitions whose files
 * changed since, and sets the checkpoint's next value. */
hl_status_t hl_prof_incr_select(hl_prof_run_t *r, hl_cat_partition_t *parts, size_t *n,
                                hl_cat_partition_t **late, size_t *n_late, hl_error_t *err);
/* Incremental: advances the checkpoint (compare-and-set on its version:
 * 40001 when another scan of the name committed first) and records the
 * partitions read.  The checkpoint's text for the summary in *OUT (NULL:
 * not incremental). */
hl_status_t hl_prof_incr_commit(hl_prof_run_t *r, const char **out, hl_error_t *err);
/* The catalog's fingerprint of partition P: what the metastore knows of its
 * files (numFiles, totalSize), so late rows are found without listing. */
char *hl_prof_catalog_fp(const hl_cat_partition_t *p, hl_arena_t *arena);

#endif
