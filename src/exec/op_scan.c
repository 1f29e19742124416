/*
 * op_scan.c -- table scan over the partitions the planner selected.
 *
 * The plan names the partitions (pruned in the catalog); the scan reads
 * only their directories, as the statement's snapshot lists them
 * (snapshot.h: one listing per directory and one reader lock per table for
 * every scan of the statement; hidden files -- names starting with "." or
 * "_", as Hive does -- and sub-directories skipped), and decodes each file
 * with its partition's storage descriptor (format, serde properties,
 * columns: a table whose old partitions are text and new ones Parquet
 * reads each with its own reader, as Hive does).  A partition's column i
 * is the table's column i (Hive maps them by position): the reader looks
 * it up by the partition's name (Parquet, ORC) or position (text); table
 * columns past the partition's read NULL.  Text parses each field as the
 * table's type directly.  A Parquet or ORC partition whose column types
 * differ from the table's (an ALTER ... CHANGE without CASCADE) is read in
 * its own types into a second batch and converted value by value to the
 * table's with CAST's rules (a value that does not convert is NULL), as
 * Hive's schema evolution converts; statistics predicates on those columns
 * are not given to the reader, since they are typed as the table's.  Partition key columns are
 * constants per partition, typed once per partition.  A partition whose directory is missing reads
 * as empty, as in Hive.
 */
#include "exec/ops.h"
#include "exec/snapshot.h"

#include "session/loc_allow.h"

#include "format/avro/avro.h"
#include "format/orc/orc.h"
#include "format/parquet/parquet.h"
#include "format/rcfile/rcfile.h"
#include "format/seqfile/seqfile.h"
#include "format/text/text.h"

#include <string.h>

typedef struct scan {
  hl_op_t op;
  hl_session_t *s;
  const hl_plan_scan_t *plan;
  hl_table_t *table;
  hl_text_format_t fmt;
  /* the table's format, and the reader inputs of the current unit: its
   * format (the flags below, fmt, rc_fmt), how many data columns its
   * files have (n_read <= n_data), their names and the needed ones */
  const char *table_format;
  hl_text_format_t table_fmt;
  hl_rcfile_format_t table_rc_fmt;
  hl_avro_schema_t *table_av_schema; /* AVRO: the table's reader schema */
  int n_read;
  const char **read_names;
  const bool *read_needed;
  /* a unit whose Parquet/ORC column types differ from the table's: its
   * types, the batch its reader fills (converted into batch), and the
   * predicates that still apply; NULL/plan's otherwise */
  const hl_type_t **read_types;
  hl_batch_t *raw;
  const hl_scan_pred_t *preds;
  int n_preds;
  hl_arena_t *unit_arena; /* file list and partition values of one unit */
  hl_batch_t *batch;
  size_t next_unit; /* next partition (or the table dir) to open */
  size_t n_units;
  const hl_stor_entry_t *files; /* files of the current unit (the snapshot's) */
  size_t n_files;
  size_t next_file;
  const char *unit_dir;
  hl_value_t *part_values;  /* typed key values of the current unit */
  hl_text_reader_t *reader; /* text tables */
  hl_parquet_reader_t *pq;  /* Parquet tables */
  bool parquet;
  bool seqfile, rcfile; /* SEQUENCEFILE (fmt) / RCFILE (rc_fmt) tables */
  bool orc;             /* ORC tables */
  bool avro;            /* AVRO tables (av_schema) */
  hl_avro_schema_t *av_schema;
  hl_avro_reader_t *av;
  hl_orc_reader_t *orc_r;
  hl_seqfile_reader_t *seq;
  hl_rcfile_reader_t *rc;
  hl_rcfile_format_t rc_fmt;
  hl_scan_stats_t stats;
  /* parallel scans: this scan reads file ordinals == worker (mod n_workers) */
  int worker, n_workers;
  bool units;          /* hl_op_scan_set_units: split large files with one worker too */
  bool concurrent;     /* hl_op_scan_set_concurrent: other scans of the session on other threads */
  size_t file_ordinal; /* ordinal of the next file over all units */
  void (*on_file)(void *ctx, size_t ordinal); /* hl_op_scan_on_file */
  void *on_file_ctx;
  size_t current_file; /* ordinal of the file being read */
  /* hl_op_scan_set_gate */
  bool (*gate)(void *ctx, size_t ordinal, uint64_t bound);
  void *gate_ctx;
  uint64_t rows_before; /* accurate rows of the units before the current one */
  int64_t unit_rows;    /* ... of the current unit; -1 unknown */
  bool rows_unknown;    /* rows_before is not a bound */
  uint64_t row_groups_total, row_groups_read, pages_skipped;
  bool published;    /* counters added to plan->actual */
  int64_t file_rows; /* rows returned from the current file (TABLESAMPLE) */
  /* the table in the statement's snapshot (NULL for datasets), and the
   * snapshot the scan made for itself when it was given none */
  hl_snap_table_t *snap_table;
  hl_snap_t *own_snap;
  /* hl_op_scan_set_filter: the pushed filter, its scratch arena, and the
   * needed data columns it does not read (read late, Parquet only) */
  const hl_expr_t *pred;
  hl_arena_t *pred_scratch;
  hl_arena_t *arena; /* the query's, for the late mask */
  bool *late;        /* [n_data], NULL: none */
  /* the open file is shared by the threads by row group or Avro piece
   * (open_next_file) */
  bool split;
  size_t split_base;
  /* Parquet and Avro files at least this large (hivelite.scan.split.size,
   * 64 MiB) are read by all threads of a parallel scan, each taking every
   * n-th row group (Parquet) or piece of the file (Avro: a quarter of the
   * split size, at least AVRO_PIECE_MIN, cut at sync markers): a table of a
   * few large files then keeps every core busy */
  uint64_t split_bytes;
  uint64_t blocks; /* Avro blocks read (EXPLAIN ANALYZE) */
  /* hl_op_scan_set_meta; meta_cols[c]: column c of the open file was
   * answered from its statistics (meta_any: some column) */
  const uint8_t *meta_want;
  hl_scan_meta_fn meta_fn;
  void *meta_ctx;
  bool *meta_cols;
  bool meta_any;
} scan_t;

/* The smallest piece of a shared Avro file: about one block of Hive's
 * (avro.mapred.sync.interval, 64 KiB), so that few pieces hold no block. */
#define AVRO_PIECE_MIN ((uint64_t)64 << 10)

static void note_parquet(scan_t *sc);
static void note_orc(scan_t *sc);
static void note_avro(scan_t *sc);
static hl_status_t apply_meta(scan_t *sc, hl_error_t *err);

/* SELECT FROM parquet.`path`: unit U's files were listed at bind time
 * (absolute paths; open_next_file does not join them to unit_dir). */
static hl_status_t open_dataset_unit(scan_t *sc, size_t u, hl_error_t *err) {
  const hl_parquet_dataset_t *ds = sc->plan->dataset;
  size_t idx = sc->table->n_part > 0 ? (size_t)sc->plan->parts[u].id : 0;
  if (idx >= ds->n_units)
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "file list %zu of %zu is missing",
                      idx, ds->n_units);
  const hl_parquet_dataset_unit_t *unit = &ds->units[idx];
  hl_stor_entry_t *files =
      hl_arena_zalloc(sc->unit_arena, sizeof(hl_stor_entry_t) * (unit->n_files + 1));
  if (!files) return hl_err_nomem(err);
  for (size_t i = 0; i < unit->n_files; i++)
    files[i].name = unit->files[i];
  sc->files = files;
  sc->n_files = unit->n_files;
  sc->next_file = 0;
  if (unit->n_files && sc->n_workers <= 1) sc->stats.partitions_read++;
  return HL_OK;
}

hl_status_t hl_scan_part_key(hl_session_t *s, const hl_plan_scan_t *plan,
                             const hl_cat_partition_t *part, int k, hl_arena_t *arena,
                             hl_value_t *out, hl_error_t *err) {
  /* The key of the default partition reads NULL, whatever its type, as in
   * pruning, so a predicate answers the same wherever it is evaluated
   * (pruning, a row filter, above a subquery or a join), as Trino and Spark
   * read it.  Hive itself shows a string key as the directory name. */
  (void)s;
  const hl_table_t *t = plan->table;
  return hl_table_part_value(t, k, part->values[k], arena, out, err);
}

/* Sets the reader flags for format NAME. */
static void set_format(scan_t *sc, const char *name) {
  sc->parquet = strcmp(name, "parquet") == 0;
  sc->seqfile = strcmp(name, "sequencefile") == 0;
  sc->rcfile = strcmp(name, "rcfile") == 0;
  sc->orc = strcmp(name, "orc") == 0;
  sc->avro = strcmp(name, "avro") == 0;
}

/* Partition P (Parquet or ORC) declares its first N columns in types of
 * its own: where one differs from the table's, the unit reads P's types
 * into sc->raw and converts (see the header). */
static hl_status_t unit_types(scan_t *sc, const hl_cat_partition_t *p, int n, hl_error_t *err) {
  hl_table_t *t = sc->table;
  const hl_type_t **types = NULL;
  for (int i = 0; i < n; i++) {
    if (!sc->read_needed[i]) continue;
    hl_type_t *pt;
    hl_status_t rc = hl_type_parse_str(sc->unit_arena, p->sd->cols[i].type, &pt, err);
    if (rc != HL_OK) return rc;
    if (hl_type_equal(pt, t->types[i])) continue;
    if (!types) {
      if (!(types = hl_arena_alloc(sc->unit_arena, sizeof(*types) * (size_t)(t->n_all + 1))))
        return hl_err_nomem(err);
      memcpy(types, t->types, sizeof(*types) * (size_t)t->n_all);
    }
    types[i] = pt;
  }
  if (!types) return HL_OK;
  sc->read_types = types;
  sc->raw = hl_batch_create_charged(t->n_all, types, hl_arena_account(sc->arena));
  if (!sc->raw) return hl_err_nomem(err);
  for (int c = 0; c < t->n_all; c++)
    if (!sc->read_needed[c] && hl_batch_set_unused(sc->raw, c) != HL_OK) return hl_err_nomem(err);
  hl_scan_pred_t *keep =
      hl_arena_alloc(sc->unit_arena, sizeof(*keep) * (size_t)(sc->plan->n_preds + 1));
  if (!keep) return hl_err_nomem(err);
  sc->n_preds = 0;
  for (int i = 0; i < sc->plan->n_preds; i++)
    if (types[sc->plan->preds[i].col] == t->types[sc->plan->preds[i].col])
      keep[sc->n_preds++] = sc->plan->preds[i];
  sc->preds = keep;
  return HL_OK;
}

/* The rows of sc->raw (the unit's own types) into sc->batch (the table's):
 * every needed data column value by value, converted where the types
 * differ; the selection as the reader left it. */
static hl_status_t convert_raw(scan_t *sc, hl_error_t *err) {
  hl_batch_t *in = sc->raw, *out = sc->batch;
  const hl_type_t *const *tt = (const hl_type_t *const *)sc->table->types;
  out->n_rows = in->n_rows;
  for (int c = 0; c < sc->n_read; c++) {
    if (!sc->read_needed[c]) continue;
    for (uint32_t r = 0; r < in->n_rows; r++) {
      hl_value_t v, w;
      hl_vec_get_value(&in->cols[c], r, &v);
      hl_status_t rc = hl_value_cast(sc->read_types[c], &v, tt[c], &w, out->arena, err);
      if (rc == HL_OK) rc = hl_vec_put_value(&out->cols[c], out->arena, r, &w);
      if (rc != HL_OK) return rc;
    }
  }
  if (in->sel) {
    if (!(out->sel = hl_arena_alloc(out->arena, sizeof(uint32_t) * (in->n_sel ? in->n_sel : 1))))
      return hl_err_nomem(err);
    memcpy(out->sel, in->sel, sizeof(uint32_t) * in->n_sel);
    out->n_sel = in->n_sel;
  }
  return HL_OK;
}

/* The reader inputs of partition P: the table's when P kept the table's
 * descriptor, else its own format, serde properties and columns. */
/* An Avro schema file is checked against the location allowlist at every
 * read of it, not only when the table was created: the allowlist may have
 * been narrowed since.  SP are the serde parameters in force (the
 * partition's or the table's), C's the table parameters. */
static hl_status_t avro_schema_allowed(hl_session_t *s, hl_arena_t *arena, const hl_kv_t *sp,
                                       int nsp, const hl_cat_table_t *c, hl_error_t *err) {
  const char *file;
  hl_status_t rc = hl_avro_schema_file(arena, sp, nsp, c->params, c->n_params, &file, err);
  if (rc == HL_OK && file) rc = hl_loc_allow_check(s, file, "the Avro schema file", err);
  return rc;
}

static hl_status_t unit_storage(scan_t *sc, const hl_cat_partition_t *p, hl_error_t *err) {
  hl_table_t *t = sc->table;
  const hl_cat_table_t *c = t->cat;
  hl_cat_sd_t tsd = hl_cat_table_sd(c);
  set_format(sc, sc->table_format);
  sc->fmt = sc->table_fmt;
  sc->rc_fmt = sc->table_rc_fmt;
  sc->av_schema = sc->table_av_schema;
  sc->n_read = t->n_data;
  sc->read_names = t->names;
  sc->read_needed = sc->plan->needed;
  sc->read_types = NULL;
  hl_batch_destroy(sc->raw);
  sc->raw = NULL;
  sc->preds = sc->plan->preds;
  sc->n_preds = sc->plan->n_preds;
  if (!p->sd || hl_cat_sd_equal(p->sd, &tsd)) return HL_OK;
  hl_cat_table_t view = hl_cat_table_with_sd(c, p->sd);
  const char *name = hl_table_format_name(&view);
  if (!name)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "reading the format of partition \"%s\" of table \"%s.%s\" (%s) is not "
                      "supported yet",
                      p->name, c->db_name, c->name, view.input_format ? view.input_format : "none");
  set_format(sc, name);
  hl_status_t rc = HL_OK;
  if (sc->rcfile)
    rc = hl_rcfile_format_init(&sc->rc_fmt, sc->unit_arena, view.serde_lib, view.serde_params,
                               view.n_serde_params, c->params, c->n_params, err);
  else if (sc->avro && (rc = avro_schema_allowed(sc->s, sc->unit_arena, view.serde_params,
                                                 view.n_serde_params, c, err)) == HL_OK)
    rc = hl_avro_table_schema(sc->s->fs, sc->unit_arena, view.serde_params, view.n_serde_params,
                              c->params, c->n_params, t->n_data, t->types,
                              (const char *const *)t->names, &sc->av_schema, err);
  else if (!sc->parquet && !sc->orc)
    rc = hl_text_format_init(&sc->fmt, sc->unit_arena, view.serde_lib, view.serde_params,
                             view.n_serde_params, c->params, c->n_params, err);
  if (rc != HL_OK) return rc;
  /* an Avro partition read by the schema of the table's properties (which
   * win over the partition's serde properties): Hive derives the
   * partition's columns from that schema too, so the table's columns, not
   * the partition's own list (older after ALTER TABLE SET TBLPROPERTIES),
   * are what it holds */
  if (sc->avro && hl_avro_has_schema_param(NULL, 0, c->params, c->n_params)) return HL_OK;
  int n = p->sd->n_cols < t->n_data ? p->sd->n_cols : t->n_data;
  const char **names = hl_arena_alloc(sc->unit_arena, sizeof(char *) * (size_t)(t->n_all + 1));
  bool *needed = hl_arena_zalloc(sc->unit_arena, sizeof(bool) * (size_t)(t->n_all + 1));
  if (!names || !needed) return hl_err_nomem(err);
  for (int i = 0; i < t->n_all; i++) {
    names[i] = i < n ? p->sd->cols[i].name : t->names[i];
    needed[i] = (i < n || i >= t->n_data) && sc->plan->needed[i];
  }
  sc->n_read = n;
  sc->read_names = names;
  sc->read_needed = needed;
  return (sc->parquet || sc->orc) ? unit_types(sc, p, n, err) : HL_OK;
}

/* Opens the next unit: its files (the snapshot's list) and its typed key
 * values. */
static hl_status_t open_unit(scan_t *sc, hl_error_t *err) {
  hl_arena_reset(sc->unit_arena);
  hl_table_t *t = sc->table;
  size_t u = sc->next_unit++;
  if (t->n_part > 0) {
    const hl_cat_partition_t *p = &sc->plan->parts[u];
    sc->unit_dir = p->location;
    if (!sc->plan->dataset) {
      hl_status_t rc = unit_storage(sc, p, err);
      if (rc != HL_OK) return rc;
    }
    for (int k = 0; k < t->n_part; k++) {
      hl_status_t rc =
          hl_scan_part_key(sc->s, sc->plan, p, k, sc->unit_arena, &sc->part_values[k], err);
      if (rc != HL_OK) return rc;
    }
  } else {
    sc->unit_dir = t->cat->location;
  }
  /* re-checked on every read: a planted metastore row must not be read */
  hl_status_t crc = hl_loc_allow_check_table(sc->s, sc->unit_dir, t->cat->db_name, t->cat->name,
                                             t->n_part > 0 ? sc->plan->parts[u].name : NULL, err);
  if (crc != HL_OK) return crc;
  if (sc->plan->dataset) return open_dataset_unit(sc, u, err);
  /* on an object store every listing is a request: the partitions a
   * whole scan reads are listed ahead, many at once (a scan under a
   * LIMIT, with its gate, lists only what it needs) */
  if (u == 0 && t->n_part > 0 && sc->n_units > 1 && !sc->gate && hl_uri_object_root(sc->unit_dir)) {
    const char **dirs = hl_arena_alloc(sc->unit_arena, sizeof(char *) * sc->n_units);
    if (!dirs) return hl_err_nomem(err);
    for (size_t i = 0; i < sc->n_units; i++)
      dirs[i] = sc->plan->parts[i].location;
    hl_status_t prc = hl_snap_prefetch(sc->snap_table, sc->s, dirs, sc->n_units, 16, err);
    if (prc != HL_OK) return prc;
  }
  hl_status_t rc = hl_snap_list(sc->snap_table, sc->s, sc->unit_dir, &sc->files, &sc->n_files, err);
  /* a data file that is a symbolic link is judged by its target */
  if (rc == HL_OK && sc->n_files) {
    char *what =
        t->n_part > 0
            ? hl_arena_sprintf(sc->unit_arena, "partition \"%s\" of table \"%s.%s\"",
                               sc->plan->parts[u].name, t->cat->db_name, t->cat->name)
            : hl_arena_sprintf(sc->unit_arena, "table \"%s.%s\"", t->cat->db_name, t->cat->name);
    rc = what ? hl_loc_allow_check_links(sc->s, sc->unit_dir, sc->files, sc->n_files, what, err)
              : hl_err_nomem(err);
  }
  sc->next_file = 0;
  if (rc != HL_OK) {
    sc->n_files = 0;
    return rc;
  }
  if (sc->n_files && sc->n_workers <= 1) sc->stats.partitions_read++;
  /* every worker lists every unit: one counts them for the progress */
  hl_notify_scan_files(&sc->s->notify, sc->n_workers <= 1 || sc->worker == 0 ? sc->n_files : 0, 0);
  return HL_OK;
}

/* The gate said no: nothing more is read. */
static void scan_stop(scan_t *sc) {
  sc->next_file = sc->n_files;
  sc->next_unit = sc->n_units;
}

/* Before listing the next unit: every earlier file is done (progress), and
 * the gate decides whether the unit can still be needed.  False: stop. */
static bool unit_gate(scan_t *sc) {
  if (!sc->gate) return true;
  if (sc->unit_rows < 0) sc->rows_unknown = true;
  if (sc->next_unit > 0 && !sc->rows_unknown) sc->rows_before += (uint64_t)sc->unit_rows;
  hl_table_t *t = sc->table;
  sc->unit_rows = t->n_part > 0 && !sc->plan->dataset
                      ? hl_plan_accurate_rows(sc->plan->parts[sc->next_unit].params,
                                              sc->plan->parts[sc->next_unit].n_params)
                      : -1;
  if (sc->on_file) sc->on_file(sc->on_file_ctx, sc->file_ordinal);
  if (sc->gate(sc->gate_ctx, sc->file_ordinal, sc->rows_unknown ? UINT64_MAX : sc->rows_before))
    return true;
  scan_stop(sc);
  return false;
}

static hl_status_t open_next_file(scan_t *sc, hl_error_t *err) {
  hl_table_t *t = sc->table;
  size_t ordinal = sc->file_ordinal++;
  const hl_stor_entry_t *entry = &sc->files[sc->next_file++];
  if (sc->on_file) sc->on_file(sc->on_file_ctx, ordinal);
  const char *name = entry->name;
  /* A large Parquet or Avro file is shared by the threads: its row groups
   * (Avro: pieces) are units of work numbered on from its ordinal (so every
   * thread opens it and reads its share); any other file is one unit, read
   * by one thread. */
  bool split = (sc->n_workers > 1 || sc->units) && (sc->parquet || sc->avro) &&
               !sc->plan->sampled && entry->size >= sc->split_bytes;
  sc->split = false;
  sc->meta_any = false; /* set again by apply_meta for this file */
  /* another worker's file: leave the reader closed and move on */
  if (!split && sc->n_workers > 1 && ordinal % (size_t)sc->n_workers != (size_t)sc->worker)
    return HL_OK;
  if (sc->gate) {
    /* a later file of the unit may follow all of the unit's rows */
    bool first = sc->next_file == 1;
    uint64_t bound = sc->rows_unknown || (!first && sc->unit_rows < 0)
                         ? UINT64_MAX
                         : sc->rows_before + (first ? 0 : (uint64_t)sc->unit_rows);
    if (!sc->gate(sc->gate_ctx, ordinal, bound)) {
      scan_stop(sc);
      return HL_OK;
    }
  }
  sc->current_file = ordinal;
  const char *path = sc->plan->dataset ? name : hl_path_join(sc->unit_arena, sc->unit_dir, name);
  if (!path) return hl_err_nomem(err);
  if (!split || ordinal % (size_t)sc->n_workers == (size_t)sc->worker) {
    sc->stats.files_read++;
    /* with threads, the partition counts for the worker of its first file
     * (every worker lists it; a LIMIT may stop the others first) */
    if (sc->n_workers > 1 && sc->next_file == 1) sc->stats.partitions_read++;
    hl_notify_scan_files(&sc->s->notify, 0, 1);
  }
  sc->file_rows = 0;
  /* a sample is the first rows of the file: skipping row groups by
   * statistics would sample other rows */
  if (sc->parquet) {
    hl_status_t rc = hl_parquet_reader_open(
        sc->s->fs, path, sc->n_read, sc->read_types ? sc->read_types : t->types, sc->read_names,
        sc->read_needed, sc->plan->sampled ? NULL : sc->preds, sc->plan->sampled ? 0 : sc->n_preds,
        /* the footer cache is for one thread at a time */
        sc->n_workers > 1 || sc->concurrent ? NULL : sc->s->parquet_cache, &sc->pq, err);
    if (rc == HL_OK && sc->late && !sc->raw) hl_parquet_reader_set_late(sc->pq, sc->late);
    if (rc == HL_OK && split) {
      int n_rg = hl_parquet_reader_row_groups(sc->pq);
      sc->file_ordinal = ordinal + (size_t)(n_rg > 0 ? n_rg : 1);
      hl_parquet_reader_share(sc->pq, ordinal, sc->n_workers, sc->worker);
      sc->split = true;
      sc->split_base = ordinal;
    }
    return rc == HL_OK ? apply_meta(sc, err) : rc;
  }
  if (sc->seqfile)
    return hl_seqfile_reader_open(sc->s->fs, path, &sc->fmt, sc->n_read, t->types, sc->read_names,
                                  sc->read_needed, &sc->seq, err);
  if (sc->rcfile)
    return hl_rcfile_reader_open(sc->s->fs, path, &sc->rc_fmt, sc->n_read, t->types, sc->read_names,
                                 sc->read_needed, &sc->rc, err);
  if (sc->avro) {
    hl_status_t rc = hl_avro_reader_open(sc->s->fs, path, sc->av_schema, sc->n_read, t->types,
                                         sc->read_names, sc->read_needed, &sc->av, err);
    if (rc == HL_OK && split) {
      uint64_t piece = sc->split_bytes / 4 > AVRO_PIECE_MIN ? sc->split_bytes / 4 : AVRO_PIECE_MIN;
      size_t n = hl_avro_reader_share(sc->av, piece, ordinal, sc->n_workers, sc->worker);
      sc->file_ordinal = ordinal + (n > 0 ? n : 1);
      sc->split = true;
      sc->split_base = ordinal;
    }
    return rc;
  }
  if (sc->orc) {
    hl_status_t rc =
        hl_orc_reader_open(sc->s->fs, path, sc->n_read, sc->read_types ? sc->read_types : t->types,
                           sc->read_names, sc->read_needed, sc->plan->sampled ? NULL : sc->preds,
                           sc->plan->sampled ? 0 : sc->n_preds, &sc->orc_r, err);
    return rc == HL_OK ? apply_meta(sc, err) : rc;
  }
  return hl_text_reader_open(sc->s->fs, path, &sc->fmt, sc->n_read, t->types, sc->read_names,
                             sc->read_needed, &sc->reader, err);
}

/* The open Parquet or ORC file's statistics answer the columns asked for
 * (hl_op_scan_set_meta); the answered ones are not decoded. */
static hl_status_t apply_meta(scan_t *sc, hl_error_t *err) {
  sc->meta_any = false;
  if (!sc->meta_fn || sc->read_types || sc->n_preds || sc->pred || sc->plan->sampled || sc->split ||
      sc->n_workers > 1)
    return HL_OK;
  size_t n =
      sc->pq ? (size_t)hl_parquet_reader_row_groups(sc->pq) : hl_orc_reader_n_stripes(sc->orc_r);
  hl_chunk_meta_t *chunks = hl_arena_alloc(sc->unit_arena, sizeof *chunks * (n + 1));
  if (!chunks) return hl_err_nomem(err);
  for (int c = 0; c < sc->n_read; c++) {
    sc->meta_cols[c] = false;
    if (!sc->meta_want[c] || !sc->read_needed[c]) continue;
    bool values = sc->meta_want[c] == 2;
    bool ok = sc->pq ? hl_parquet_reader_meta(sc->pq, c, values, chunks)
                     : hl_orc_reader_meta(sc->orc_r, c, values, chunks);
    if (!ok) continue;
    hl_status_t rc = sc->meta_fn(sc->meta_ctx, c, chunks, n, err);
    if (rc != HL_OK) return rc;
    if (sc->pq)
      hl_parquet_reader_skip(sc->pq, c);
    else
      hl_orc_reader_skip(sc->orc_r, c);
    sc->meta_cols[c] = sc->meta_any = true;
  }
  return HL_OK;
}

/* Fills the key columns, and the needed data columns the partition's
 * files do not have (NULL). */
static hl_status_t fill_keys(scan_t *sc, hl_error_t *err) {
  hl_table_t *t = sc->table;
  static const hl_value_t null_value = {.is_null = true};
  for (int c = sc->n_read; c < t->n_data; c++)
    if (sc->plan->needed[c] &&
        hl_vec_fill(&sc->batch->cols[c], sc->batch->arena, sc->batch->n_rows, &null_value) != HL_OK)
      return hl_err_nomem(err);
  for (int k = 0; k < t->n_part; k++) {
    int col = t->n_data + k;
    if (!sc->plan->needed[col]) continue;
    if (hl_vec_fill(&sc->batch->cols[col], sc->batch->arena, sc->batch->n_rows,
                    &sc->part_values[k]) != HL_OK)
      return hl_err_nomem(err);
  }
  return HL_OK;
}

static hl_status_t scan_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  scan_t *sc = (scan_t *)op;
  *out = NULL;
  for (;;) {
    /* between batches and files (also those a pushed filter drops whole) */
    hl_status_t crc = hl_budget_check_cancel(&sc->s->budget, err);
    if (crc != HL_OK) return crc;
    if (sc->reader || sc->pq || sc->seq || sc->rc || sc->orc_r || sc->av) {
      if (hl_batch_reset(sc->batch) != HL_OK) return hl_err_nomem(err);
      hl_batch_t *into = sc->raw ? sc->raw : sc->batch;
      if (sc->raw && hl_batch_reset(sc->raw) != HL_OK) return hl_err_nomem(err);
      hl_status_t rc = sc->pq      ? hl_parquet_reader_next(sc->pq, into, err)
                       : sc->seq   ? hl_seqfile_reader_next(sc->seq, sc->batch, err)
                       : sc->rc    ? hl_rcfile_reader_next(sc->rc, sc->batch, err)
                       : sc->av    ? hl_avro_reader_next(sc->av, sc->batch, err)
                       : sc->orc_r ? hl_orc_reader_next(sc->orc_r, into, err)
                                   : hl_text_reader_next(sc->reader, sc->batch, err);
      if (rc == HL_OK && sc->raw) rc = convert_raw(sc, err);
      if (rc != HL_OK) return rc;
      if (sc->plan->sampled) { /* TABLESAMPLE (n ROWS): n rows per file, as Hive per split */
        int64_t left = sc->plan->sample_rows - sc->file_rows;
        if (left <= 0)
          sc->batch->n_rows = 0;
        else if ((int64_t)sc->batch->n_rows > left)
          sc->batch->n_rows = (uint32_t)left;
        sc->file_rows += sc->batch->n_rows;
      }
      if (sc->batch->n_rows > 0) {
        if (sc->split) /* the unit: the row group's (piece's) number after the file's */
          sc->current_file =
              sc->split_base + (sc->pq ? (size_t)hl_parquet_reader_current_row_group(sc->pq)
                                       : hl_avro_reader_current_piece(sc->av));
        sc->stats.rows_read += sc->batch->n_rows;
        rc = fill_keys(sc, err);
        if (rc != HL_OK) return rc;
        if (sc->pred) {
          hl_arena_reset(sc->pred_scratch);
          if ((rc = hl_expr_filter(sc->pred, sc->batch, sc->pred_scratch, err)) != HL_OK) return rc;
          bool keep = hl_batch_live(sc->batch) > 0;
          if (sc->pq && (rc = hl_parquet_reader_finish(sc->pq, sc->batch, keep, err)) != HL_OK)
            return rc;
          if (!keep) continue;
        }
        hl_notify_scan_files(&sc->s->notify, 0, 0); /* a long file shows progress too */
        *out = sc->batch;
        return HL_OK;
      }
      hl_text_reader_close(sc->reader);
      sc->reader = NULL;
      hl_seqfile_reader_close(sc->seq);
      sc->seq = NULL;
      hl_rcfile_reader_close(sc->rc);
      sc->rc = NULL;
      note_avro(sc);
      hl_avro_reader_close(sc->av);
      sc->av = NULL;
      note_orc(sc);
      hl_orc_reader_close(sc->orc_r);
      sc->orc_r = NULL;
      note_parquet(sc);
      hl_parquet_reader_close(sc->pq);
      sc->pq = NULL;
    }
    if (sc->next_file < sc->n_files) {
      hl_status_t rc = open_next_file(sc, err);
      if (rc != HL_OK) return rc;
      continue;
    }
    if (sc->next_unit >= sc->n_units) return HL_OK;
    if (!unit_gate(sc)) return HL_OK;
    hl_status_t rc = open_unit(sc, err);
    if (rc != HL_OK) return rc;
  }
}

/* Adds a closing Parquet reader's row-group counts to the scan's. */
static void note_parquet(scan_t *sc) {
  if (!sc->pq) return;
  const hl_parquet_scan_stats_t *ps = hl_parquet_reader_stats(sc->pq);
  sc->row_groups_total += ps->row_groups_total;
  sc->row_groups_read += ps->row_groups_read;
  sc->pages_skipped += ps->pages_skipped;
}

/* Adds a closing ORC reader's stripe counts to the scan's row-group
 * counts (EXPLAIN ANALYZE shows ORC stripes as row groups). */
static void note_orc(scan_t *sc) {
  if (!sc->orc_r) return;
  uint64_t total, read;
  hl_orc_reader_stripes(sc->orc_r, &total, &read);
  sc->row_groups_total += total;
  sc->row_groups_read += read;
}

/* Adds a closing Avro reader's blocks to the scan's. */
static void note_avro(scan_t *sc) {
  if (sc->av) sc->blocks += hl_avro_reader_blocks(sc->av);
}

/* Publishes the counters to the plan (workers of a parallel scan add up). */
static void publish_actual(scan_t *sc) {
  hl_scan_actual_t *a = sc->plan->actual;
  if (!a || sc->published) return;
  sc->published = true;
  __atomic_fetch_add(&a->partitions, sc->stats.partitions_read, __ATOMIC_RELAXED);
  __atomic_fetch_add(&a->files, sc->stats.files_read, __ATOMIC_RELAXED);
  __atomic_fetch_add(&a->rows, sc->stats.rows_read, __ATOMIC_RELAXED);
  __atomic_fetch_add(&a->row_groups_total, sc->row_groups_total, __ATOMIC_RELAXED);
  __atomic_fetch_add(&a->row_groups_read, sc->row_groups_read, __ATOMIC_RELAXED);
  __atomic_fetch_add(&a->pages_skipped, sc->pages_skipped, __ATOMIC_RELAXED);
  __atomic_fetch_add(&a->blocks, sc->blocks, __ATOMIC_RELAXED);
}

static void scan_close(hl_op_t *op) {
  scan_t *sc = (scan_t *)op;
  hl_text_reader_close(sc->reader);
  sc->reader = NULL;
  hl_seqfile_reader_close(sc->seq);
  sc->seq = NULL;
  hl_rcfile_reader_close(sc->rc);
  sc->rc = NULL;
  note_avro(sc);
  hl_avro_reader_close(sc->av);
  sc->av = NULL;
  note_orc(sc);
  hl_orc_reader_close(sc->orc_r);
  sc->orc_r = NULL;
  note_parquet(sc);
  hl_parquet_reader_close(sc->pq);
  sc->pq = NULL;
  publish_actual(sc);
  hl_batch_destroy(sc->batch);
  hl_batch_destroy(sc->raw);
  sc->batch = NULL;
  hl_arena_destroy(sc->unit_arena);
  sc->unit_arena = NULL;
  hl_snap_end(sc->own_snap); /* a shared snapshot is ended by its owner */
  hl_arena_destroy(sc->pred_scratch);
  sc->pred_scratch = NULL;
}

/* Directories hl_op_scan_busy_threads lists at most: enough to find a
 * file per thread in any table but one of mostly empty partitions. */
enum { BUSY_DIRS = 64 };

hl_status_t hl_op_scan_busy_threads(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *plan,
                                    size_t max, size_t *out, hl_error_t *err) {
  *out = max;
  const hl_table_t *t = plan->table;
  if (max <= 1 || !snap || plan->dataset) return HL_OK;
  uint64_t split_bytes;
  if (hl_session_get_u64(s, "hivelite.scan.split.size", (uint64_t)64 << 20, &split_bytes, err) !=
      HL_OK)
    return err->code;
  hl_snap_table_t *st;
  if (hl_snap_table(snap, s, plan, &st, err) != HL_OK) return err->code;
  size_t n_dirs = t->n_part > 0 ? plan->n_parts : 1, units = 0;
  for (size_t i = 0; i < n_dirs; i++) {
    if (i == BUSY_DIRS) return HL_OK; /* mostly empty directories: not worth finding out */
    const char *dir = t->n_part > 0 ? plan->parts[i].location : t->cat->location;
    if (!dir || hl_uri_object_root(dir)) return HL_OK;
    hl_error_t e;
    hl_err_init(&e);
    const hl_stor_entry_t *files;
    size_t n;
    hl_status_t rc = hl_loc_allow_check_table(s, dir, t->cat->db_name, t->cat->name,
                                              t->n_part > 0 ? plan->parts[i].name : NULL, &e);
    if (rc == HL_OK) rc = hl_snap_list(st, s, dir, &files, &n, &e);
    if (rc != HL_OK) { /* the scan meets it again, in its order */
      hl_err_clear(&e);
      return HL_OK;
    }
    for (size_t f = 0; f < n; f++)
      if (files[f].size >= split_bytes || ++units >= max) return HL_OK;
  }
  *out = units;
  return HL_OK;
}

void hl_op_scan_on_file(hl_op_t *op, void (*fn)(void *ctx, size_t ordinal), void *ctx) {
  scan_t *sc = (scan_t *)op;
  sc->on_file = fn;
  sc->on_file_ctx = ctx;
}

void hl_op_scan_set_gate(hl_op_t *op, bool (*fn)(void *ctx, size_t ordinal, uint64_t bound),
                         void *ctx) {
  scan_t *sc = (scan_t *)op;
  sc->gate = fn;
  sc->gate_ctx = ctx;
}

void hl_op_scan_set_worker(hl_op_t *op, int worker, int n_workers) {
  scan_t *sc = (scan_t *)op;
  sc->worker = worker;
  sc->n_workers = n_workers;
}

void hl_op_scan_set_units(hl_op_t *op) {
  scan_t *sc = (scan_t *)op;
  sc->units = true;
  if (sc->n_workers < 1) sc->n_workers = 1;
}

void hl_op_scan_set_meta(hl_op_t *op, const uint8_t *want, hl_scan_meta_fn fn, void *ctx) {
  scan_t *sc = (scan_t *)op;
  sc->meta_cols = hl_arena_zalloc(sc->arena, sizeof(bool) * (size_t)(sc->table->n_all + 1));
  if (!sc->meta_cols) return; /* out of memory: nothing is answered, all is read */
  sc->meta_want = want;
  sc->meta_fn = fn;
  sc->meta_ctx = ctx;
}

const bool *hl_op_scan_meta_cols(const hl_op_t *op) {
  const scan_t *sc = (const scan_t *)op;
  return sc->meta_any ? sc->meta_cols : NULL;
}

void hl_op_scan_set_concurrent(hl_op_t *op) {
  ((scan_t *)op)->concurrent = true;
}

hl_status_t hl_op_scan_set_filter(hl_op_t *op, const hl_expr_t *pred, hl_error_t *err) {
  scan_t *sc = (scan_t *)op;
  hl_table_t *t = sc->table;
  sc->pred = pred;
  if (!(sc->pred_scratch = hl_arena_create_charged(64 * 1024, hl_arena_account(sc->arena))))
    return hl_err_nomem(err);
  /* a sample keeps the first rows of a file, filter or not: read all */
  if (!sc->parquet || sc->plan->sampled) return HL_OK;
  bool *reads = hl_arena_zalloc(sc->arena, sizeof(bool) * (size_t)(t->n_all + 1));
  bool *late = hl_arena_zalloc(sc->arena, sizeof(bool) * (size_t)(t->n_data + 1));
  if (!reads || !late) return hl_err_nomem(err);
  hl_expr_mark_cols(pred, reads, t->n_all);
  bool any = false;
  for (int c = 0; c < t->n_data; c++)
    any |= late[c] = sc->plan->needed[c] && !reads[c];
  sc->late = any ? late : NULL;
  return HL_OK;
}

size_t hl_op_scan_current_file(const hl_op_t *op) {
  return ((const scan_t *)op)->current_file;
}

const hl_scan_stats_t *hl_op_scan_stats(const hl_op_t *op) {
  return &((const scan_t *)op)->stats;
}

hl_op_t *hl_op_scan_create(hl_session_t *s, hl_snap_t *snap, const hl_plan_scan_t *plan,
                           hl_arena_t *arena, hl_error_t *err) {
  hl_table_t *t = plan->table;
  scan_t *sc = hl_arena_zalloc(arena, sizeof(*sc));
  if (!sc) return hl_err_nomem(err), NULL;
  sc->op.next = scan_next;
  sc->op.close = scan_close;
  sc->arena = arena;
  sc->s = s;
  sc->plan = plan;
  sc->table = t;
  sc->n_units = t->n_part > 0 ? plan->n_parts : 1;
  const hl_cat_table_t *c = t->cat;
  sc->table_format = plan->format_name;
  set_format(sc, plan->format_name);
  sc->n_read = t->n_data;
  sc->read_names = t->names;
  sc->read_needed = plan->needed;
  sc->preds = plan->preds;
  sc->n_preds = plan->n_preds;
  if (sc->rcfile && hl_rcfile_format_init(&sc->rc_fmt, arena, c->serde_lib, c->serde_params,
                                          c->n_serde_params, c->params, c->n_params, err) != HL_OK)
    return NULL;
  if (sc->avro &&
      (avro_schema_allowed(s, arena, c->serde_params, c->n_serde_params, c, err) != HL_OK ||
       hl_avro_table_schema(s->fs, arena, c->serde_params, c->n_serde_params, c->params,
                            c->n_params, t->n_data, t->types, (const char *const *)t->names,
                            &sc->av_schema, err) != HL_OK))
    return NULL;
  if (!sc->parquet && !sc->rcfile && !sc->orc && !sc->avro &&
      hl_text_format_init(&sc->fmt, arena, c->serde_lib, c->serde_params, c->n_serde_params,
                          c->params, c->n_params, err) != HL_OK)
    return NULL;
  sc->table_fmt = sc->fmt;
  sc->table_rc_fmt = sc->rc_fmt;
  sc->table_av_schema = sc->av_schema;
  if (hl_session_get_u64(s, "hivelite.scan.split.size", (uint64_t)64 << 20, &sc->split_bytes,
                         err) != HL_OK)
    return NULL;
  sc->part_values = hl_arena_zalloc(arena, sizeof(hl_value_t) * (size_t)(t->n_part + 1));
  sc->unit_arena = hl_arena_create_charged(0, hl_arena_account(arena));
  sc->batch = hl_batch_create_charged(t->n_all, t->types, hl_arena_account(arena));
  bool marked = sc->batch != NULL;
  for (int c = 0; marked && c < t->n_all; c++)
    if (!sc->plan->needed[c]) marked = hl_batch_set_unused(sc->batch, c) == HL_OK;
  if (!sc->part_values || !sc->unit_arena || !marked) {
    scan_close(&sc->op);
    hl_err_nomem(err);
    return NULL;
  }
  /* reader isolation (snapshot.h): the table's lock, taken once per
   * statement, and one listing of each directory for all its scans */
  if (!plan->dataset) {
    if (!snap) snap = sc->own_snap = hl_snap_create(arena, err);
    if (!snap || hl_snap_table(snap, s, plan, &sc->snap_table, err) != HL_OK) {
      scan_close(&sc->op);
      return NULL;
    }
  }
  return &sc->op;
}
