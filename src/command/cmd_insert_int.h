/*
 * cmd_insert_int.h -- what cmd_insert.c (planning, targets, commit) and
 * cmd_insert_write.c (rows to files under the memory budget) share: the
 * state of one write statement.
 *
 * A writer_t holds every table a statement writes (wtable_t), each table
 * its targets (wpart_t: a partition, or the unpartitioned table), each
 * target its output files (wfile_t: one, or one per bucket).  Everything
 * lives in the statement arena except the open format writers and batches,
 * which writer_fini (cmd_insert.c) releases on every path.  Nothing
 * outside cmd_insert*.c includes this header.
 */
#ifndef HL_CMD_INSERT_INT_H
#define HL_CMD_INSERT_INT_H

#include "command/cmd_int.h"
#include "format/avro/avro.h"
#include "format/orc/orc.h"
#include "format/parquet/parquet.h"
#include "format/rcfile/rcfile.h"
#include "format/seqfile/seqfile.h"
#include "format/text/text.h"
#include "txn/txn.h"
#include "util/hashmap.h"
#include "util/imap.h"

struct wpart;
struct wtable;

/* One output file: the only file of a target, or one bucket's file. */
typedef struct wfile {
  hl_batch_t *buf;         /* rows waiting for the writer; NULL until the first row */
  hl_text_writer_t *w;     /* the open text file, NULL between files */
  hl_parquet_writer_t *pw; /* the open Parquet file, NULL between files */
  hl_seqfile_writer_t *sw; /* the open SequenceFile, NULL between files */
  hl_rcfile_writer_t *rw;  /* the open RCFile, NULL between files */
  hl_orc_writer_t *ow;     /* the open ORC file, NULL between files */
  hl_avro_writer_t *aw;    /* the open Avro file, NULL between files */
  char *file_name;
  uint64_t file_rows;
  int bucket;        /* bucket number, -1 when the table is not bucketed */
  hl_batch_t **held; /* SORTED BY: full batches kept until the file is sorted */
  size_t n_held, cap_held;
  uint64_t held_bytes; /* their memory, charged to the statement's budget */
  struct wpart *part;  /* the target it belongs to */
  uint64_t mem;        /* its memory when last measured (cmd_insert_write.c, "budget") */
  size_t open_slot;    /* index + 1 in the writer's list of files holding memory; 0: none */
  uint64_t mark;       /* the batch that last routed rows here (writer_t.epoch) */
  uint32_t n_sel, off; /* that batch's rows for this file: writer_t.sel[off, off + n_sel) */
} wfile_t;

/* One target directory: a partition, or the whole unpartitioned table. */
typedef struct wpart {
  char **values;                /* canonical key values (NULL = default); NULL if unpartitioned */
  hl_cat_partition_t *existing; /* as read before the write, NULL if new */
  char *dir;                    /* where the files go: the location the commit records */
  char *dir_read;               /* the location as read before the write (differs from dir on an
                                   object store's fresh prefix: txn.h, "Object stores") */
  hl_txn_target_t *target;
  wfile_t **outs; /* the files: one, or one per bucket that has rows */
  size_t n_outs, cap_outs;
  hl_imap_t by_bucket; /* bucket -> index in outs + 1 (bucketed tables) */
  uint64_t rows, raw_bytes, files, total_bytes;
  bool rows_unknown; /* LOAD DATA: files are not parsed */
  struct wtable *table;
} wpart_t;

/* One table written by the statement. */
typedef struct wtable {
  /* the storage descriptor files are written with: the table's, or an
   * existing partition's when every key is static (plan_table), as Hive
   * writes into a partition with its own format */
  const hl_cat_table_t *store;
  const hl_ast_insert_t *ins;
  hl_table_t *t;
  hl_cat_table_t *create; /* CTAS: the table to create at commit */
  bool overwrite;
  hl_text_format_t fmt;
  bool parquet; /* Parquet output (else text: fmt) */
  bool seqfile; /* SequenceFile output (rows in fmt) */
  bool rcfile;  /* RCFile output (rc_fmt) */
  bool orc;     /* ORC output (orc_opts) */
  bool avro;    /* Avro output (av_schema, av_codec) */
  hl_avro_schema_t *av_schema;
  hl_avro_codec_t av_codec;
  /* text: ".gz"/".zst" compresses (text.compression); NULL or "" not */
  const char *text_ext;
  hl_orc_write_options_t orc_opts;
  hl_rcfile_format_t rc_fmt;
  hl_seqfile_write_opts_t seq_opts; /* SequenceFile compression */
  const char *rc_codec;             /* RCFile compression: codec class (static), NULL none */
  hl_text_guard_t guard;            /* LazySimpleSerDe text: values it could not read back */
  hl_parquet_write_options_t pq_opts;
  int n_dyn;          /* the last n_dyn keys are dynamic */
  char **static_vals; /* n_part entries, the first n_part - n_dyn set */
  int *slot_src;      /* per combined column (data, then keys): input column or -1 */
  int n_input;        /* columns the rows must have */
  wpart_t **parts;
  size_t n_parts, cap_parts;
  hl_imap_t dyn_cache; /* one integer dynamic key: input value -> parts index + 1 */
  hl_map_t *map;       /* partition key -> index in parts */
  int n_buckets;       /* CLUSTERED BY ... INTO n BUCKETS; 0 when not bucketed */
  int bucket_version;  /* 1 or 2 (bucket.h) */
  int *bucket_idx;     /* n_bucket_cols data column indexes */
  int n_bucket_cols;
  int *sort_idx; /* SORTED BY: n_sort data column indexes */
  bool *sort_asc;
  int n_sort;
  hl_result_t *res; /* CTAS: the rows, already planned */
  bool skip;        /* IF NOT EXISTS and the partition exists */
  hl_batch_t *conv; /* an input batch in the table's column types (cmd_insert_write.c) */
  wpart_t *only;    /* the target of a write with no dynamic key, once found */
} wtable_t;

/* A batch that points into the chunk: one file's rows (cmd_insert_write.c). */
typedef struct gather {
  hl_batch_t *b;
  uint64_t *valid; /* its validity bits: HL_BATCH_CAP per column */
} gather_t;

typedef struct writer {
  hl_session_t *s;
  hl_arena_t *arena;
  hl_txn_t *txn;
  wtable_t *tables;
  int n_tables;
  bool strict;        /* hivelite.strict.conversion */
  bool unescaped;     /* hivelite.text.write.unescaped: write text as Hive does */
  hl_buf_t guard_buf; /* text of a value being checked by a guard */
  bool truncate;      /* TRUNCATE: overwrites with nothing */
  uint64_t file_size; /* roll over after this many bytes */
  uint64_t max_files; /* hive.exec.max.created.files */
  uint64_t max_dyn;   /* hive.exec.max.dynamic.partitions */
  size_t max_parts;   /* hivelite.max_partitions_per_table */
  uint64_t n_files;
  uint64_t held_bytes; /* SORTED BY rows held, charged to the budget */
  uint64_t row_no;     /* 1-based row number in the current insert, for errors */
  uint64_t written;    /* rows written to every partition of every table */
  hl_arena_t *scratch; /* per-batch conversions and partition values */
  /* the memory budget of open files (hivelite.write.memory_limit) */
  int threads; /* hivelite.threads: encoders of a chunk's files */
  uint64_t mem_limit;
  uint64_t mem_used; /* sum of wfile_t.mem over open */
  wfile_t **open;    /* files holding memory, in the order they started holding it */
  size_t n_open, cap_open;
  uint64_t freed; /* bytes the budget took back since the heap was last trimmed */
  /* the chunk: input rows held to be written file by file (cmd_insert_write.c) */
  uint64_t epoch;       /* chunks written so far */
  wpart_t **row_part;   /* per live row of the input batch: its target */
  uint32_t *route_slot; /* ROUTE_SLOTS: a batch's distinct dynamic keys (1 + live row) */
  wtable_t *chunk_wt;   /* the table whose column types chunk and gather have */
  hl_batch_t **chunk;   /* copies of input batches' live rows, converted */
  size_t n_chunk;       /* batches of chunk in use */
  size_t cap_chunk;     /* batches of chunk allocated (kept for the next chunk) */
  size_t room;          /* batches the arrays below (and chunk) have room for */
  uint64_t chunk_limit; /* bytes the chunk may hold */
  uint32_t chunk_rows;
  /* heap arrays of room * HL_BATCH_CAP entries, freed by hl_cmd_ins_chunk_fini */
  wfile_t **chunk_file; /* per chunk row: its file */
  uint32_t *chunk_ref;  /* per chunk row: batch << 11 | row */
  uint32_t *refs;       /* chunk rows grouped by file, in row order within each */
  wfile_t **touched;    /* the files the chunk reaches, in the order of their first row */
  uint32_t n_touched;
  gather_t gather; /* one file's rows of the chunk, handed to its writer */
} writer_t;

/* ARR (an arena array of *CAP elements of ELEM bytes) with twice the room
 * (FIRST when empty), or NULL on OOM with ARR and *CAP unchanged. */
void *hl_cmd_ins_grow(hl_arena_t *arena, void *arr, size_t *cap, size_t elem, size_t first);

/* cmd_insert.c: the output of P for BUCKET (-1: the only one of an
 * unbucketed target), created on first use. */
hl_status_t hl_cmd_ins_out_get(writer_t *w, wpart_t *p, int bucket, wfile_t **out, hl_error_t *err);
/* cmd_insert.c: the target for VALUES (n_part canonical key values; NULL
 * is the default partition) of WT, created on first use; checks the caps.
 * *INDEX: its index in wt->parts. */
hl_status_t hl_cmd_ins_part_find(writer_t *w, wtable_t *wt, char **values, wpart_t **out,
                                 size_t *index, hl_error_t *err);

/* cmd_insert_write.c: reads the memory budget setting into W. */
hl_status_t hl_cmd_ins_budget_init(writer_t *w, hl_error_t *err);
/* cmd_insert_write.c: pulls every batch of RES into table WT and closes
 * RES (also on error). */
hl_status_t hl_cmd_ins_write_result(writer_t *w, wtable_t *wt, hl_result_t *res, hl_error_t *err);
/* cmd_insert_write.c: writes P's pending rows and closes its files. */
hl_status_t hl_cmd_ins_part_close(writer_t *w, wtable_t *wt, wpart_t *p, hl_error_t *err);
/* cmd_insert_write.c: frees the per-table routing state of WT. */
void hl_cmd_ins_table_fini(wtable_t *wt);
/* cmd_insert_write.c: frees W's chunk. */
void hl_cmd_ins_chunk_fini(writer_t *w);

#endif
