/*
 * cmd_insert.c -- INSERT INTO / INSERT OVERWRITE (static, dynamic and
 * mixed partition specs, column lists, VALUES, multi-insert), CREATE TABLE
 * AS SELECT and TRUNCATE: the write side of the engine.
 *
 * Rows come from the SELECT's operator pipeline (hl_exec_select).  Each
 * row is routed to its target partition (static values from the spec,
 * dynamic ones from the last select columns, typed and canonicalized like
 * ADD PARTITION does; NULL or '' is the default partition), converted to
 * the column types with Hive's CAST rules (bad values become NULL, or an
 * error naming row and column under hivelite.strict.conversion=true),
 * checked against what a LazySimpleSerDe file can hold (a value that would
 * not read back as written is 22P05 naming row and column, unless
 * hivelite.text.write.unescaped=true asks for Hive's behaviour) and
 * buffered in a batch per partition that is flushed to the table's format
 * writer.  Files are staged by the write transaction (txn/txn.h) under
 * unique names <qid>_<n>, and roll over at hivelite.write.file.size bytes.
 * Bucketed tables (CLUSTERED BY) get one file per bucket per target,
 * <bucket>_0_<qid>_<n>, rows placed by Hive's hash (bucket.h) and, with
 * SORTED BY, sorted within the file (all of a file's rows are held in
 * memory until it is written).
 *
 * All caps (hive.exec.max.dynamic.partitions, hive.exec.max.created.files,
 * hivelite.max_partitions_per_table) are checked while writing, before
 * anything is committed.  The commit's metadata step (apply) re-reads the
 * touched partitions and the table under the write lock, adds new
 * partitions, and updates the basic statistics (numFiles, numRows,
 * totalSize, rawDataSize, COLUMN_STATS_ACCURATE) of every touched
 * partition and of the table.
 */
#include "command/cmd_insert_int.h"
#include "plan/incr.h"
#include "storage/stor_cache.h"
#include "exec/snapshot.h"

#include "util/bucket.h"
#include "vector/expr.h"
#include "session/loc_allow.h"
#include "session/params.h"
#include "util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define STATS_ACCURATE "{\"BASIC_STATS\":\"true\"}"

/* ------------------------------------------------------------ settings */

/* ------------------------------------------------------------ partitions */

/* The map key of a values tuple: values separated by \x1f, NULL as \x1e. */
static char *values_key(hl_arena_t *arena, char **values, int n) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < n; i++) {
    if (i) hl_buf_putc(&b, '\x1f');
    if (values[i])
      hl_buf_puts(&b, values[i]);
    else
      hl_buf_putc(&b, '\x1e');
  }
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

void *hl_cmd_ins_grow(hl_arena_t *arena, void *arr, size_t *cap, size_t elem, size_t first) {
  size_t ncap = *cap ? *cap * 2 : first;
  void *g = hl_arena_realloc(arena, arr, *cap * elem, ncap * elem);
  if (g) *cap = ncap;
  return g;
}

/* The output of P for BUCKET (-1: the only one of an unbucketed
 * target), created on first use: only buckets that receive rows cost
 * memory, however many buckets the table has. */
hl_status_t hl_cmd_ins_out_get(writer_t *w, wpart_t *p, int bucket, wfile_t **out,
                               hl_error_t *err) {
  uint32_t idx = bucket >= 0 ? hl_imap_get(&p->by_bucket, bucket) : (p->n_outs ? 1 : 0);
  if (idx) {
    *out = p->outs[idx - 1];
    return HL_OK;
  }
  if (p->n_outs == p->cap_outs) {
    wfile_t **g = hl_cmd_ins_grow(w->arena, p->outs, &p->cap_outs, sizeof *g, 4);
    if (!g) return hl_err_nomem(err);
    p->outs = g;
  }
  wfile_t *f = hl_arena_zalloc(w->arena, sizeof *f);
  if (!f) return hl_err_nomem(err);
  f->bucket = bucket;
  f->part = p;
  uint32_t found;
  if (bucket >= 0 && hl_imap_upsert(&p->by_bucket, bucket, (uint32_t)p->n_outs + 1, &found) != 0)
    return hl_err_nomem(err);
  p->outs[p->n_outs++] = f;
  *out = f;
  return HL_OK;
}

/* Whether a partition's columns are the table's (names and types). */
static bool same_columns(const hl_cat_sd_t *sd, const hl_table_t *t) {
  if (sd->n_cols != t->n_data) return false;
  for (int i = 0; i < t->n_data; i++)
    if (strcasecmp(sd->cols[i].name, t->cat->cols[i].name) != 0 ||
        strcasecmp(sd->cols[i].type, t->cat->cols[i].type) != 0)
      return false;
  return true;
}

/* Rows are the table's columns: written under a partition's other names or
 * types they would not read back (Hive writes them anyway and the
 * partition then reads NULL or garbage), so such a write is refused. */
static hl_status_t columns_differ(const hl_table_t *t, const char *part, long pos,
                                  hl_error_t *err) {
  return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                       "writing into partition \"%s\" of table \"%s.%s\", whose columns differ "
                       "from the table's, is not supported (ALTER TABLE ... CASCADE changes the "
                       "columns of every partition)",
                       part ? part : "?", HL_TNAME(t));
}

/* Creates the target for VALUES (copied) in table WT. */
static hl_status_t part_open(writer_t *w, wtable_t *wt, char **values, wpart_t **out,
                             hl_error_t *err) {
  hl_session_t *s = w->s;
  hl_table_t *t = wt->t;
  wpart_t *p = hl_arena_zalloc(w->arena, sizeof *p);
  if (!p) return hl_err_nomem(err);
  p->table = wt;
  const char *dflt = hl_cmd_default_part_name(s, t);
  if (t->n_part > 0) {
    p->values = hl_arena_zalloc(w->arena, sizeof(char *) * (size_t)t->n_part);
    if (!p->values) return hl_err_nomem(err);
    for (int k = 0; k < t->n_part; k++)
      if (values[k] && !(p->values[k] = hl_arena_strdup(w->arena, values[k])))
        return hl_err_nomem(err);
    if (!wt->create) {
      hl_error_t e;
      hl_err_init(&e);
      hl_status_t rc = hl_cat_partition_get(s->cat, t->cat->id, p->values, t->n_part, w->arena,
                                            &p->existing, &e);
      if (rc == HL_NOTFOUND) {
        hl_err_clear(&e);
        p->existing = NULL;
      } else if (rc != HL_OK) {
        hl_err_move(err, &e);
        return rc;
      }
    }
    /* files in one partition share its format: a dynamic write (which
     * writes the table's) cannot add to one that has another.  Only rows
     * written here are (wt->store: INSERT, CTAS); LOAD DATA moves files
     * as they are, as in Hive, and TRUNCATE writes none. */
    hl_cat_sd_t store = hl_cat_table_sd(wt->store ? wt->store : t->cat);
    if (p->existing && wt->store && !w->truncate && !hl_cat_sd_equal(p->existing->sd, &store)) {
      char *name = hl_table_part_name(t, p->values, dflt, w->arena);
      if (!same_columns(p->existing->sd, t)) return columns_differ(t, name, 0, err);
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "writing into partition \"%s\" of table \"%s.%s\", whose storage "
                        "differs from the table's, is supported only with every partition key "
                        "given a value (PARTITION (k='v', ...))",
                        name ? name : "?", HL_TNAME(t));
    }
    p->dir = p->existing ? p->existing->location : hl_table_part_path(t, p->values, dflt, w->arena);
  } else {
    p->dir = t->cat->location;
  }
  if (!p->dir) return hl_err_nomem(err);
  /* the allowlist is checked again before every write (loc_allow.h) */
  char *pname = t->n_part > 0 ? hl_table_part_name(t, p->values, dflt, w->arena) : NULL;
  if (t->n_part > 0 && !pname) return hl_err_nomem(err);
  hl_status_t rc = hl_loc_allow_check_table(s, p->dir, HL_TNAME(t), pname, err);
  if (rc != HL_OK) return rc;
  /* a write touches only its own files: never a location it shares */
  char *what =
      pname ? hl_arena_sprintf(w->arena, "partition \"%s\" of table \"%s.%s\"", pname, HL_TNAME(t))
            : hl_arena_sprintf(w->arena, "table \"%s.%s\"", HL_TNAME(t));
  if (!what) return hl_err_nomem(err);
  rc = hl_cmd_check_write_location(s, p->dir, t->cat, p->existing ? p->existing->id : 0, false,
                                   w->truncate     ? "truncate"
                                   : wt->overwrite ? "overwrite"
                                                   : "write into",
                                   what, w->arena, err);
  if (rc != HL_OK) return rc;
  rc = hl_txn_target_add(w->txn, p->dir, wt->overwrite, &p->target, err);
  /* new files and partition directories take the table directory's mode */
  if (rc == HL_OK) rc = hl_txn_target_inherit(w->txn, p->target, t->cat->location, err);
  if (rc != HL_OK) return rc;
  p->dir_read = p->dir;
  /* on an object store an overwrite of a managed table goes to a fresh
   * prefix that the commit makes the location; an external table's data
   * stays where its location says (other tools read it by that path: the
   * old files go after the commit); an append (to a new partition too)
   * completes its uploads in place, so that two appends creating one
   * partition both land */
  if (wt->overwrite && p->target->object && !wt->create && !t->cat->external) {
    bool moved;
    rc = hl_txn_target_fresh(w->txn, p->target, t->n_part == 0 || p->existing, &moved, err);
    if (rc != HL_OK) return rc;
    p->dir = p->target->dir;
  }
  p->target->user = p;
  /* an unbucketed target has one output; a bucketed one gets an output
   * per bucket on the bucket's first row (out_get) */
  if (wt->n_buckets == 0) {
    wfile_t *f;
    rc = hl_cmd_ins_out_get(w, p, -1, &f, err);
    if (rc != HL_OK) return rc;
  }
  if (wt->n_parts == wt->cap_parts) {
    wpart_t **g = hl_cmd_ins_grow(w->arena, wt->parts, &wt->cap_parts, sizeof *g, 8);
    if (!g) return hl_err_nomem(err);
    wt->parts = g;
  }
  wt->parts[wt->n_parts++] = p;
  *out = p;
  return HL_OK;
}

/* The target for VALUES, created on first use; checks the caps. */
hl_status_t hl_cmd_ins_part_find(writer_t *w, wtable_t *wt, char **values, wpart_t **out,
                                 size_t *index, hl_error_t *err) {
  int n = wt->t->n_part;
  char *key = values_key(w->scratch, values, n);
  if (!key) return hl_err_nomem(err);
  uint64_t idx;
  if (hl_map_get(wt->map, key, strlen(key), &idx)) {
    *out = wt->parts[idx];
    *index = (size_t)idx;
    return HL_OK;
  }
  if (wt->n_dyn > 0 && wt->n_parts + 1 > w->max_dyn)
    return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "the insert into table \"%s.%s\" creates more than %llu dynamic partitions; "
                      "raise hive.exec.max.dynamic.partitions to allow it",
                      HL_TNAME(wt->t), (unsigned long long)w->max_dyn);
  hl_status_t rc = part_open(w, wt, values, out, err);
  if (rc != HL_OK) return rc;
  bool inserted;
  if (hl_map_upsert(wt->map, key, strlen(key), wt->n_parts - 1, &idx, &inserted) != 0)
    return hl_err_nomem(err);
  *index = wt->n_parts - 1;
  return HL_OK;
}

/* ------------------------------------------------------------ setup */

static int find_col(const hl_table_t *t, const char *name) {
  return hl_table_column_index(t, name);
}

/* CLUSTERED BY (cols) [SORTED BY (...)] INTO n BUCKETS: the bucket and
 * sort columns and the hash version.  hive.enforce.bucketing is always on
 * since Hive 2: every write into a bucketed table is bucketed. */
/* An Avro target's schema (the table's: hl_avro_table_schema) and codec:
 * the table's avro.output.codec, else -- as Hive's AvroContainerOutputFormat
 * -- with hive.exec.compress.output=true the session's avro.output.codec,
 * deflate by default; else none. */
static hl_status_t avro_output(writer_t *w, wtable_t *wt, hl_arena_t *arena, hl_error_t *err) {
  const hl_cat_table_t *c = wt->store;
  hl_table_t *t = wt->t;
  const char *file; /* the allowlist may have been narrowed since CREATE */
  hl_status_t rc = hl_avro_schema_file(arena, c->serde_params, c->n_serde_params, c->params,
                                       c->n_params, &file, err);
  if (rc == HL_OK && file) rc = hl_loc_allow_check(w->s, file, "the Avro schema file", err);
  if (rc != HL_OK) return rc;
  rc = hl_avro_table_schema(w->s->fs, arena, c->serde_params, c->n_serde_params, c->params,
                            c->n_params, t->n_data, t->types, (const char *const *)t->names,
                            &wt->av_schema, err);
  if (rc != HL_OK) return rc;
  const char *codec = hl_kv_get(c->params, c->n_params, "avro.output.codec");
  if (!codec && hl_cmd_setting_true(w->s, "hive.exec.compress.output")) {
    codec = hl_session_get(w->s, "avro.output.codec");
    if (!codec) codec = "deflate";
  }
  wt->av_codec = HL_AVRO_NULL;
  return codec ? hl_avro_codec_from_name(codec, &wt->av_codec, err) : HL_OK;
}

/* SequenceFile and RCFile compression, as Hive's Utilities.createSequenceWriter
 * and RCFileOutputFormat: off unless hive.exec.compress.output=true; then
 * the codec class of mapreduce.output.fileoutputformat.compress.codec
 * (mapred.output.compression.codec; DefaultCodec by default), and for
 * SequenceFiles the CompressionType of
 * mapreduce.output.fileoutputformat.compress.type
 * (mapred.output.compression.type; RECORD by default, as
 * SequenceFileOutputFormat.getOutputCompressionType) with blocks of
 * io.seqfile.compress.blocksize bytes. */
static hl_status_t seq_rc_output(writer_t *w, wtable_t *wt, hl_error_t *err) {
  memset(&wt->seq_opts, 0, sizeof wt->seq_opts);
  wt->rc_codec = NULL;
  if (!hl_cmd_setting_true(w->s, "hive.exec.compress.output")) return HL_OK;
  const char *codec = hl_session_get(w->s, "mapreduce.output.fileoutputformat.compress.codec");
  if (!codec) codec = hl_session_get(w->s, "mapred.output.compression.codec");
  if (!codec) codec = "org.apache.hadoop.io.compress.DefaultCodec";
  hl_hcodec_t c = HL_HCODEC_NONE;
  const char *cls = hl_hcodec_from_name(codec, &c);
  if (!cls)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "compression codec \"%s\" is not supported for %s output (DefaultCodec, "
                      "DeflateCodec, GzipCodec, BZip2Codec, SnappyCodec, Lz4Codec or "
                      "ZStandardCodec)",
                      codec, wt->seqfile ? "SEQUENCEFILE" : "RCFILE");
  if (wt->rcfile) {
    wt->rc_codec = cls;
    return HL_OK;
  }
  const char *type = hl_session_get(w->s, "mapreduce.output.fileoutputformat.compress.type");
  if (!type) type = hl_session_get(w->s, "mapred.output.compression.type");
  hl_status_t rc = hl_seqfile_ctype_parse(type ? type : "RECORD", &wt->seq_opts.type, err);
  uint64_t block = HL_SEQFILE_BLOCK_BYTES;
  if (rc == HL_OK)
    rc = hl_session_get_u64(w->s, "io.seqfile.compress.blocksize", HL_SEQFILE_BLOCK_BYTES, &block,
                            err);
  if (rc != HL_OK) return rc;
  wt->seq_opts.codec = c;
  wt->seq_opts.codec_class = cls;
  wt->seq_opts.block_bytes = (size_t)block;
  return HL_OK;
}

static hl_status_t plan_buckets(writer_t *w, wtable_t *wt, long pos, hl_error_t *err) {
  hl_table_t *t = wt->t;
  const hl_cat_table_t *c = wt->store ? wt->store : t->cat;
  if (c->num_buckets <= 0 || c->n_bucket_cols == 0) return HL_OK;
  hl_status_t rc = hl_bucket_version(c->params, c->n_params, &wt->bucket_version, err);
  if (rc != HL_OK) return hl_err_position(err, pos), rc;
  wt->n_buckets = c->num_buckets;
  wt->n_bucket_cols = c->n_bucket_cols;
  wt->n_sort = c->n_sort_cols;
  wt->bucket_idx = hl_arena_alloc(w->arena, sizeof(int) * (size_t)(c->n_bucket_cols + 1));
  wt->sort_idx = hl_arena_alloc(w->arena, sizeof(int) * (size_t)(c->n_sort_cols + 1));
  wt->sort_asc = hl_arena_alloc(w->arena, sizeof(bool) * (size_t)(c->n_sort_cols + 1));
  if (!wt->bucket_idx || !wt->sort_idx || !wt->sort_asc) return hl_err_nomem(err);
  for (int i = 0; i < c->n_bucket_cols; i++) {
    int col = find_col(t, c->bucket_cols[i]);
    if (col < 0 || col >= t->n_data)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "bucket column \"%s\" is not a data column of table \"%s.%s\"",
                           c->bucket_cols[i], HL_TNAME(t));
    if (!hl_bucket_type_supported(t->types[col], wt->bucket_version))
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "writing table \"%s.%s\" bucketed on column \"%s\" of type %s is "
                           "not supported (bucket columns must be BOOLEAN, TINYINT, SMALLINT, "
                           "INT, BIGINT, FLOAT, DOUBLE, STRING, VARCHAR, CHAR or DATE, or "
                           "DECIMAL with bucketing_version 1)",
                           HL_TNAME(t), c->bucket_cols[i], c->cols[col].type);
    wt->bucket_idx[i] = col;
  }
  for (int i = 0; i < c->n_sort_cols; i++) {
    int col = find_col(t, c->sort_cols[i].name);
    if (col < 0 || col >= t->n_data)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "sort column \"%s\" is not a data column of table \"%s.%s\"",
                           c->sort_cols[i].name, HL_TNAME(t));
    if (hl_type_is_complex(t->types[col]))
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "writing table \"%s.%s\" sorted by column \"%s\" of type %s is not "
                           "supported",
                           HL_TNAME(t), c->sort_cols[i].name, c->cols[col].type);
    wt->sort_idx[i] = col;
    wt->sort_asc[i] = c->sort_cols[i].ascending;
  }
  return HL_OK;
}

/* An insert naming every key of an existing partition whose descriptor is
 * not the table's writes that partition's format, serde properties and
 * buckets (wt->store).  Its columns must be the table's: the rows are the
 * table's columns, and writing them under other names or types would not
 * read back. */
static hl_status_t partition_store(writer_t *w, wtable_t *wt, long pos, hl_error_t *err) {
  hl_table_t *t = wt->t;
  hl_cat_partition_t *p;
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc =
      hl_cat_partition_get(w->s->cat, t->cat->id, wt->static_vals, t->n_part, w->arena, &p, &e);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(&e);
    return HL_OK;
  }
  if (rc != HL_OK) return hl_err_move(err, &e), rc;
  hl_cat_sd_t tsd = hl_cat_table_sd(t->cat);
  if (hl_cat_sd_equal(p->sd, &tsd)) return HL_OK;
  if (!same_columns(p->sd, t)) return columns_differ(t, p->name, pos, err);
  hl_cat_table_t *view = hl_arena_alloc(w->arena, sizeof *view);
  if (!view) return hl_err_nomem(err);
  /* the columns are the table's (checked above) */
  *view = hl_cat_table_with_sd(t->cat, p->sd);
  wt->store = view;
  return HL_OK;
}

/* Partition spec and column list of one insert into WT: static values,
 * dynamic keys, and which input column feeds each table column. */
static hl_status_t plan_table(writer_t *w, wtable_t *wt, const hl_ast_insert_t *ins,
                              hl_error_t *err) {
  hl_session_t *s = w->s;
  hl_table_t *t = wt->t;
  hl_arena_t *arena = w->arena;
  wt->static_vals = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(t->n_part + 1));
  wt->slot_src = hl_arena_alloc(arena, sizeof(int) * (size_t)t->n_all);
  if (!wt->static_vals || !wt->slot_src) return hl_err_nomem(err);
  for (int i = 0; i < t->n_all; i++)
    wt->slot_src[i] = -1;
  const hl_ast_part_spec_t *spec = ins ? ins->part_spec : NULL;
  if (spec && t->n_part == 0)
    return hl_err_set_at(err, spec->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  int n_static = 0;
  if (t->n_part > 0) {
    /* items in key order: static keys first, then dynamic ones */
    bool *seen = hl_arena_zalloc(arena, (size_t)t->n_part);
    bool *is_static = hl_arena_zalloc(arena, (size_t)t->n_part);
    if (!seen || !is_static) return hl_err_nomem(err);
    for (int i = 0; spec && i < spec->n; i++) {
      const hl_ast_part_item_t *item = &spec->items[i];
      int k = -1;
      for (int j = 0; j < t->n_part; j++)
        if (strcasecmp(t->cat->part_keys[j].name, item->key) == 0) k = j;
      if (k < 0)
        return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                             "column \"%s\" is not a partition column of table \"%s.%s\"",
                             item->key, HL_TNAME(t));
      if (seen[k])
        return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                             "partition column \"%s\" is given more than once", item->key);
      seen[k] = true;
      if (item->value) {
        char *text;
        hl_status_t rc = hl_cmd_part_item_text(item, arena, &text, err);
        if (rc == HL_OK)
          rc = hl_cmd_part_value_canon(s, t, k, text, arena, &wt->static_vals[k], err);
        if (rc != HL_OK) {
          hl_err_position(err, item->value->pos);
          return rc;
        }
        is_static[k] = true;
      }
    }
    bool has_columns = ins && ins->n_columns > 0;
    for (int k = 0; k < t->n_part; k++) {
      if (!seen[k] && spec && !has_columns)
        return hl_err_set_at(err, spec->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                             "partition spec of table \"%s.%s\" is missing partition column \"%s\"",
                             HL_TNAME(t), t->cat->part_keys[k].name);
      if (is_static[k]) {
        if (k != n_static)
          return hl_err_set_at(err, spec->pos, HL_ERROR,
                               HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                               "dynamic partition column \"%s\" cannot be the parent of static "
                               "partition column \"%s\"",
                               t->cat->part_keys[n_static].name, t->cat->part_keys[k].name);
        n_static++;
      }
    }
    wt->n_dyn = t->n_part - n_static;
    if (wt->n_dyn > 0) {
      if (!hl_cmd_setting_true(s, "hive.exec.dynamic.partition"))
        return hl_err_set_at(
            err, ins ? ins->pos : 0, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
            "dynamic partitions are disabled; set hive.exec.dynamic.partition=true");
      const char *mode = hl_session_get(s, "hive.exec.dynamic.partition.mode");
      if (n_static == 0 && !wt->create && (!mode || strcasecmp(mode, "nonstrict") != 0))
        return hl_err_set_at(
            err, spec ? spec->pos : (ins ? ins->pos : 0), HL_ERROR,
            HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
            "dynamic partition strict mode requires at least one static partition column; "
            "set hive.exec.dynamic.partition.mode=nonstrict to turn this off");
    }
  }
  /* input columns -> table columns */
  if (ins && ins->n_columns > 0) {
    for (int i = 0; i < ins->n_columns; i++) {
      int c = find_col(t, ins->columns[i]);
      long cpos = ins->columns_pos ? ins->columns_pos[i] : ins->pos;
      if (c < 0 || (c >= t->n_data && c - t->n_data < n_static))
        return hl_err_set_at(err, cpos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                             "column \"%s\" is not a %scolumn of table \"%s.%s\"", ins->columns[i],
                             c < 0 ? "" : "dynamic partition ", HL_TNAME(t));
      if (wt->slot_src[c] >= 0)
        return hl_err_set_at(err, cpos, HL_ERROR, HL_SS(DUPLICATE_COLUMN),
                             "column \"%s\" is given more than once", ins->columns[i]);
      wt->slot_src[c] = i;
    }
    wt->n_input = ins->n_columns;
  } else {
    for (int c = 0; c < t->n_data; c++)
      wt->slot_src[c] = c;
    for (int k = 0; k < wt->n_dyn; k++)
      wt->slot_src[t->n_data + n_static + k] = t->n_data + k;
    wt->n_input = t->n_data + wt->n_dyn;
  }
  wt->store = t->cat;
  if (t->n_part > 0 && n_static == t->n_part && !wt->create) {
    hl_status_t rc = partition_store(w, wt, ins ? ins->pos : 0, err);
    if (rc != HL_OK) return rc;
  }
  const hl_cat_table_t *c = wt->store;
  const char *in = c->input_format ? c->input_format : "";
  hl_status_t brc = plan_buckets(w, wt, ins ? ins->pos : 0, err);
  if (brc != HL_OK) return brc;
  if (strstr(in, "Parquet")) {
    wt->parquet = true;
    hl_status_t rc = hl_parquet_write_options_init(&wt->pq_opts, c->params, c->n_params, err);
    if (rc != HL_OK) return rc;
  } else if (strstr(in, "SequenceFile")) {
    wt->seqfile = true; /* rows in the table's text serde: fmt below */
  } else if (strstr(in, "RCFile")) {
    wt->rcfile = true;
    hl_status_t rc = hl_rcfile_format_init(&wt->rc_fmt, arena, c->serde_lib, c->serde_params,
                                           c->n_serde_params, c->params, c->n_params, err);
    if (rc != HL_OK) return rc;
  } else if (strstr(in, "OrcInputFormat")) {
    wt->orc = true;
    hl_status_t rc = hl_orc_write_options_init(&wt->orc_opts, c->params, c->n_params, err);
    if (rc != HL_OK) return rc;
  } else if (strstr(in, "AvroContainerInputFormat")) {
    wt->avro = true;
    hl_status_t rc = avro_output(w, wt, arena, err);
    if (rc != HL_OK) return hl_err_position(err, ins ? ins->pos : 0), rc;
  } else if (!strstr(in, "TextInputFormat")) {
    const char *what = in;
    return hl_err_set_at(err, ins ? ins->pos : 0, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "writing %s tables is not supported yet (table \"%s.%s\")", what,
                         HL_TNAME(t));
  }
  if (!wt->parquet && !wt->rcfile && !wt->orc && !wt->avro) {
    hl_status_t rc = hl_text_format_init(&wt->fmt, arena, c->serde_lib, c->serde_params,
                                         c->n_serde_params, c->params, c->n_params, err);
    if (rc == HL_OK) rc = hl_text_format_writable(&wt->fmt, err); /* RegexSerDe reads only */
    if (rc != HL_OK) return hl_err_position(err, ins ? ins->pos : 0), rc;
  }
  /* text files are compressed by their name's extension (text_io.c): the
   * table's text.compression, else -- as Hive's HiveIgnoreKeyTextOutputFormat
   * -- with hive.exec.compress.output=true the session's output codec,
   * DefaultCodec (.deflate) by default */
  const char *codec = hl_kv_get(c->params, c->n_params, "text.compression");
  if (!codec && hl_cmd_setting_true(w->s, "hive.exec.compress.output")) {
    codec = hl_session_get(w->s, "mapreduce.output.fileoutputformat.compress.codec");
    if (!codec) codec = hl_session_get(w->s, "mapred.output.compression.codec");
    if (!codec) codec = "org.apache.hadoop.io.compress.DefaultCodec";
  }
  if (!wt->parquet && !wt->rcfile && !wt->orc && !wt->seqfile && !wt->avro && codec) {
    hl_status_t rc = hl_cmd_text_codec_ext(codec, &wt->text_ext, err);
    if (rc != HL_OK) return hl_err_position(err, ins ? ins->pos : 0), rc;
  }
  if (wt->seqfile || wt->rcfile) {
    hl_status_t rc = seq_rc_output(w, wt, err);
    if (rc != HL_OK) return hl_err_position(err, ins ? ins->pos : 0), rc;
  }
  /* LazySimpleSerDe text refuses what it could not read back */
  if (wt->rcfile && !wt->rc_fmt.binary)
    hl_text_guard_init(&wt->guard, &wt->rc_fmt.text, HL_TEXT_ROWS_CELLS);
  else if (wt->seqfile)
    hl_text_guard_init(&wt->guard, &wt->fmt, HL_TEXT_ROWS_RECORDS);
  else if (!wt->parquet && !wt->rcfile && !wt->orc && !wt->avro)
    hl_text_guard_init(&wt->guard, &wt->fmt, HL_TEXT_ROWS_LINES);
  if (w->unescaped) wt->guard.active = false;
  wt->map = hl_map_create();
  if (!wt->map) return hl_err_nomem(err);
  return HL_OK;
}

static hl_status_t check_width(const wtable_t *wt, int n_cols, long pos, hl_error_t *err) {
  if (n_cols == wt->n_input) return HL_OK;
  return hl_err_set_at(err, pos, HL_ERROR, HL_SS(DATATYPE_MISMATCH),
                       "cannot insert into table \"%s.%s\": the query gives %d column%s, the "
                       "target expects %d",
                       HL_TNAME(wt->t), n_cols, n_cols == 1 ? "" : "s", wt->n_input);
}

/* Rows of one insert (its SELECT, or its VALUES rows one by one). */
static hl_status_t feed(writer_t *w, wtable_t *wt, const hl_ast_insert_t *ins, hl_error_t *err) {
  w->row_no = 0;
  if (ins->query) {
    hl_result_t res = {0};
    hl_status_t rc = hl_exec_select(w->s, ins->query, w->arena, &res, err);
    if (rc != HL_OK) return rc;
    rc = check_width(wt, res.n_cols, ins->pos, err);
    if (rc != HL_OK) {
      res.root->close(res.root);
      return rc;
    }
    return hl_cmd_ins_write_result(w, wt, &res, err);
  }
  /* a parameter in VALUES is typed by its target column (hl_bind_parameter_type);
   * its value reaches the column through the usual cast */
  for (int c = 0; c < wt->t->n_all; c++) {
    int src = wt->slot_src[c];
    for (int r = 0; src >= 0 && src < ins->n_values_cols && r < ins->n_rows; r++) {
      const hl_ast_expr_t *e = ins->values[(size_t)r * (size_t)ins->n_values_cols + (size_t)src];
      if (e->kind == HL_AST_PARAM) hl_params_note_type(w->s->params, e->param, wt->t->types[c]);
    }
  }
  for (int r = 0; r < ins->n_rows; r++) {
    hl_ast_select_t sel = {0};
    hl_ast_select_item_t *items =
        hl_arena_zalloc(w->arena, sizeof(*items) * (size_t)ins->n_values_cols);
    if (!items) return hl_err_nomem(err);
    for (int c = 0; c < ins->n_values_cols; c++) {
      items[c].expr = ins->values[(size_t)r * (size_t)ins->n_values_cols + (size_t)c];
      items[c].pos = items[c].expr->pos;
    }
    sel.items = items;
    sel.n_items = ins->n_values_cols;
    sel.pos = ins->pos;
    hl_result_t res = {0};
    hl_status_t rc = hl_exec_select(w->s, &sel, w->arena, &res, err);
    if (rc != HL_OK) return rc;
    rc = check_width(wt, res.n_cols, ins->pos, err);
    if (rc != HL_OK) {
      res.root->close(res.root);
      return rc;
    }
    rc = hl_cmd_ins_write_result(w, wt, &res, err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

/* ------------------------------------------------------------ commit */

static const char *kv_get(const hl_kv_t *kvs, int n, const char *key) {
  return hl_kv_get(kvs, n, key);
}

static bool stats_accurate(const hl_kv_t *kvs, int n) {
  const char *a = kv_get(kvs, n, "COLUMN_STATS_ACCURATE");
  return a && strstr(a, "\"BASIC_STATS\":\"true\"") != NULL;
}

static uint64_t kv_u64(const hl_kv_t *kvs, int n, const char *key) {
  const char *v = kv_get(kvs, n, key);
  return v ? strtoull(v, NULL, 10) : 0;
}

/* Writes the four basic statistics and the accuracy flag into *KVS. */
static hl_status_t put_stats(hl_kv_t **kvs, int *n, uint64_t files, uint64_t rows, uint64_t size,
                             uint64_t raw, bool accurate, hl_arena_t *arena, hl_error_t *err) {
  char buf[32];
  hl_status_t rc;
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)files);
  if ((rc = hl_cmd_kv_put(kvs, n, "numFiles", buf, arena, err)) != HL_OK) return rc;
  if (accurate)
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)rows);
  else
    snprintf(buf, sizeof buf, "-1");
  if ((rc = hl_cmd_kv_put(kvs, n, "numRows", buf, arena, err)) != HL_OK) return rc;
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)size);
  if ((rc = hl_cmd_kv_put(kvs, n, "totalSize", buf, arena, err)) != HL_OK) return rc;
  if (accurate)
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)raw);
  else
    snprintf(buf, sizeof buf, "-1");
  if ((rc = hl_cmd_kv_put(kvs, n, "rawDataSize", buf, arena, err)) != HL_OK) return rc;
  return hl_cmd_kv_put(kvs, n, "COLUMN_STATS_ACCURATE", accurate ? STATS_ACCURATE : "{}", arena,
                       err);
}

/* Stats of a target after the write: the new files alone (overwrite, new
 * partition), else the old accurate stats plus the new files; old stats
 * that are not accurate make numRows unknown, and the old files are then
 * counted by one listing of the directory. */
static hl_status_t new_stats(writer_t *w, const wpart_t *p, bool overwrite, hl_kv_t **kvs, int *n,
                             hl_error_t *err) {
  /* parameters without any statistic (a new table with TBLPROPERTIES,
   * such as a bucketed table's bucketing_version) count as no statistics */
  bool none =
      !*kvs || (!kv_get(*kvs, *n, "numFiles") && !kv_get(*kvs, *n, "COLUMN_STATS_ACCURATE"));
  if (!p->rows_unknown && (overwrite || stats_accurate(*kvs, *n))) {
    bool keep = !overwrite && !none;
    uint64_t files = p->files + (keep ? kv_u64(*kvs, *n, "numFiles") : 0);
    uint64_t rows = p->rows + (keep ? kv_u64(*kvs, *n, "numRows") : 0);
    uint64_t size = p->total_bytes + (keep ? kv_u64(*kvs, *n, "totalSize") : 0);
    uint64_t raw = p->raw_bytes + (keep ? kv_u64(*kvs, *n, "rawDataSize") : 0);
    return put_stats(kvs, n, files, rows, size, raw, true, w->arena, err);
  }
  hl_stor_entry_t *entries;
  size_t n_entries;
  hl_status_t rc = w->s->fs->ops->list(w->s->fs, p->dir, w->arena, &entries, &n_entries, err);
  if (rc != HL_OK) return rc;
  uint64_t files = 0, size = 0;
  for (size_t i = 0; i < n_entries; i++) {
    if (entries[i].is_dir || entries[i].name[0] == '.' || entries[i].name[0] == '_') continue;
    files++;
    size += entries[i].size;
  }
  /* no statistics before (an empty new table, or files nobody counted: a
   * partition MSCK registered, an external table over existing files):
   * the new files' counts are the whole only when the listing holds no
   * other file, else numRows is unknown -- never the new rows alone */
  if (!p->rows_unknown && none && files == p->files)
    return put_stats(kvs, n, p->files, p->rows, p->total_bytes, p->raw_bytes, true, w->arena, err);
  return put_stats(kvs, n, files, 0, size, 0, false, w->arena, err);
}

/* Table-level statistics of a partitioned table: the sum over its
 * partitions (from the catalog; no file-system calls). */
static hl_status_t table_sum_stats(writer_t *w, hl_cat_table_t *c, hl_error_t *err) {
  hl_cat_partition_t *parts;
  size_t n;
  hl_status_t rc = hl_cat_partition_list(w->s->cat, c->id, w->arena, &parts, &n, err);
  if (rc != HL_OK) return rc;
  uint64_t files = 0, rows = 0, size = 0, raw = 0;
  bool accurate = true;
  for (size_t i = 0; i < n; i++) {
    const hl_cat_partition_t *p = &parts[i];
    accurate = accurate && stats_accurate(p->params, p->n_params);
    files += kv_u64(p->params, p->n_params, "numFiles");
    rows += kv_u64(p->params, p->n_params, "numRows");
    size += kv_u64(p->params, p->n_params, "totalSize");
    raw += kv_u64(p->params, p->n_params, "rawDataSize");
  }
  return put_stats(&c->params, &c->n_params, files, rows, size, raw, accurate, w->arena, err);
}

static hl_status_t apply_table(writer_t *w, wtable_t *wt, hl_error_t *err) {
  hl_session_t *s = w->s;
  hl_table_t *t = wt->t;
  hl_status_t rc;
  hl_cat_table_t *c;
  if (wt->create) {
    rc = hl_cat_table_create(s->cat, wt->create, err);
    if (rc != HL_OK) return rc;
  }
  /* re-read under the lock: another writer may have changed stats */
  rc = hl_cat_table_get(s->cat, t->cat->db_name, t->cat->name, w->arena, &c, err);
  if (rc != HL_OK) return rc;
  if (!wt->create && c->id != t->cat->id)
    return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                      "table \"%s.%s\" was replaced during the write", HL_TNAME(t));
  if (t->n_part == 0) {
    wpart_t *p = wt->n_parts ? wt->parts[0] : NULL;
    if (p) {
      if (strcmp(c->location, p->dir_read) != 0)
        return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                          "the location of table \"%s.%s\" changed during the write", HL_TNAME(t));
      c->location = p->dir; /* an object store's fresh prefix */
      rc = new_stats(w, p, wt->overwrite || wt->create, &c->params, &c->n_params, err);
      if (rc != HL_OK) return rc;
    }
    return hl_cat_table_update(s->cat, c, err);
  }
  for (size_t i = 0; i < wt->n_parts; i++) {
    wpart_t *p = wt->parts[i];
    hl_cat_partition_t *cur = NULL;
    hl_error_t e;
    hl_err_init(&e);
    rc = hl_cat_partition_get(s->cat, c->id, p->values, t->n_part, w->arena, &cur, &e);
    if (rc == HL_NOTFOUND) {
      hl_err_clear(&e);
      hl_cat_partition_t np = {0};
      np.table_id = c->id;
      np.values = p->values;
      np.n_values = t->n_part;
      np.name = hl_table_part_name(t, p->values, hl_cmd_default_part_name(s, t), w->arena);
      np.location = p->dir;
      np.create_time = (int64_t)time(NULL);
      if (!np.name) return hl_err_nomem(err);
      rc = new_stats(w, p, true, &np.params, &np.n_params, err);
      if (rc == HL_OK) rc = hl_cat_partition_add(s->cat, &np, err);
    } else if (rc == HL_OK) {
      if (strcmp(cur->location, p->dir_read) != 0)
        return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                          "the location of partition \"%s\" of table \"%s.%s\" changed during "
                          "the write",
                          cur->name, HL_TNAME(t));
      cur->location = p->dir; /* an object store's fresh prefix */
      rc = new_stats(w, p, wt->overwrite, &cur->params, &cur->n_params, err);
      if (rc == HL_OK) rc = hl_cat_partition_update(s->cat, cur, err);
    } else {
      hl_err_move(err, &e);
    }
    if (rc != HL_OK) return rc;
  }
  if (wt->n_parts > 0) {
    size_t count;
    rc = hl_cat_partition_count(s->cat, c->id, &count, err);
    if (rc != HL_OK) return rc;
    if (count > w->max_parts) return hl_cmd_too_many_partitions(t, w->max_parts, err);
  }
  rc = table_sum_stats(w, c, err);
  /* a new table of text-date partitions: its incremental field (cmd_incr.c) */
  bool incr_set;
  if (rc == HL_OK && wt->create) rc = hl_cmd_incr_auto_fill(s, c, w->arena, &incr_set, err);
  if (rc != HL_OK) return rc;
  return hl_cat_table_update(s->cat, c, err);
}

/* The plan hook (hl_txn_set_plan_hook): under the write locks, the
 * location each object-store overwrite replaces is the one the catalog
 * has now -- a concurrent overwrite may have switched it since the write
 * began.  A location that is no longer the same partition's (up to a
 * fresh prefix) is not deleted: the write fails. */
static hl_status_t plan_replaced(void *arg, hl_txn_t *txn, hl_error_t *err) {
  writer_t *w = arg;
  for (int i = 0; i < w->n_tables; i++) {
    wtable_t *wt = &w->tables[i];
    if (wt->skip || wt->create) continue;
    hl_table_t *t = wt->t;
    for (size_t j = 0; j < wt->n_parts; j++) {
      wpart_t *p = wt->parts[j];
      if (!p->target || !p->target->fresh) continue;
      const char *now = NULL;
      hl_status_t rc;
      hl_error_t e;
      hl_err_init(&e);
      if (t->n_part > 0) {
        hl_cat_partition_t *cur;
        rc = hl_cat_partition_get(w->s->cat, t->cat->id, p->values, t->n_part, w->arena, &cur, &e);
        if (rc == HL_OK) now = cur->location;
      } else {
        hl_cat_table_t *c;
        rc = hl_cat_table_get(w->s->cat, t->cat->db_name, t->cat->name, w->arena, &c, &e);
        if (rc == HL_OK) now = c->location;
      }
      if (rc == HL_NOTFOUND && t->n_part > 0) { /* dropped meanwhile, or still new */
        hl_err_clear(&e);
        rc = HL_OK;
      } else if (rc != HL_OK) {
        hl_err_move(err, &e);
        return rc;
      }
      if (now && !hl_txn_same_base(now, p->dir_read))
        return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                          "the location of %s \"%s.%s\" changed during the write (to \"%s\")",
                          t->n_part ? "a partition of table" : "table", HL_TNAME(t), now);
      rc = hl_txn_target_set_replaces(txn, p->target, now, err);
      if (rc != HL_OK) return rc;
      if (now) p->dir_read = (char *)now; /* what the commit replaces */
    }
  }
  return HL_OK;
}

static hl_status_t apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  (void)txn;
  writer_t *w = arg;
  for (int i = 0; i < w->n_tables; i++) {
    if (w->tables[i].skip) continue;
    hl_status_t rc = apply_table(w, &w->tables[i], err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

/* ------------------------------------------------------------ driver */

/* After a commit (or its failure): the listings this process cached of
 * the directories written are no longer current (object stores keep
 * them for a time, not by mtime: stor_cache.h). */
static void forget_listings(writer_t *w) {
  for (int i = 0; w->tables && i < w->n_tables; i++)
    for (size_t j = 0; j < w->tables[i].n_parts; j++) {
      const wpart_t *p = w->tables[i].parts[j];
      if (p->dir) hl_list_cache_forget(w->s->list_cache, p->dir);
      if (p->dir_read) hl_list_cache_forget(w->s->list_cache, p->dir_read);
    }
}

static void writer_fini(writer_t *w) {
  for (int i = 0; w->tables && i < w->n_tables; i++) {
    wtable_t *wt = &w->tables[i];
    for (size_t j = 0; j < wt->n_parts; j++) {
      wpart_t *p = wt->parts[j];
      for (size_t b = 0; b < p->n_outs; b++) {
        wfile_t *f = p->outs[b];
        if (f->w) {
          hl_error_t e;
          hl_err_init(&e);
          hl_text_writer_close(f->w, &e);
          hl_err_clear(&e);
          f->w = NULL;
        }
        hl_parquet_writer_abort(f->pw);
        f->pw = NULL;
        hl_seqfile_writer_abort(f->sw);
        f->sw = NULL;
        hl_rcfile_writer_abort(f->rw);
        f->rw = NULL;
        hl_orc_writer_abort(f->ow);
        f->ow = NULL;
        hl_avro_writer_abort(f->aw);
        f->aw = NULL;
        hl_batch_destroy(f->buf);
        f->buf = NULL;
        for (size_t i = 0; i < f->n_held; i++)
          hl_batch_destroy(f->held[i]);
        f->n_held = 0;
      }
      hl_imap_free(&p->by_bucket);
    }
    hl_map_destroy(wt->map);
    wt->map = NULL;
    hl_imap_free(&wt->dyn_cache);
    hl_cmd_ins_table_fini(wt);
    if (wt->res) {
      wt->res->root->close(wt->res->root);
      wt->res = NULL;
    }
  }
  hl_cmd_ins_chunk_fini(w);
  hl_arena_destroy(w->scratch);
  w->scratch = NULL;
  hl_buf_fini(&w->guard_buf);
  if (w->s) hl_budget_release(&w->s->budget, w->held_bytes);
  w->held_bytes = 0;
}

static hl_status_t writer_init(writer_t *w, hl_session_t *s, hl_arena_t *arena, int n_tables,
                               hl_error_t *err) {
  memset(w, 0, sizeof *w);
  w->s = s;
  w->arena = arena;
  w->n_tables = n_tables;
  w->tables = hl_arena_zalloc(arena, sizeof(wtable_t) * (size_t)(n_tables > 0 ? n_tables : 1));
  w->scratch = hl_arena_create(0);
  if (!w->tables || !w->scratch) return hl_err_nomem(err);
  w->strict = hl_cmd_setting_true(s, "hivelite.strict.conversion");
  w->unescaped = hl_cmd_setting_true(s, "hivelite.text.write.unescaped");
  hl_buf_init(&w->guard_buf);
  hl_status_t rc =
      hl_session_get_u64(s, "hivelite.write.file.size", 256ULL << 20, &w->file_size, err);
  if (rc == HL_OK)
    rc = hl_session_get_u64(s, "hive.exec.max.created.files", 100000, &w->max_files, err);
  if (rc == HL_OK)
    rc = hl_session_get_u64(s, "hive.exec.max.dynamic.partitions", 1000, &w->max_dyn, err);
  if (rc == HL_OK) rc = hl_cmd_max_partitions(s, &w->max_parts, err);
  if (rc == HL_OK) rc = hl_cmd_ins_budget_init(w, err);
  return rc;
}

static hl_status_t start_txn(writer_t *w, const char *kind, hl_error_t *err) {
  hl_status_t rc =
      hl_cmd_txn_begin(w->s, kind, w->tables[0].t->cat->location, w->arena, &w->txn, err);
  for (int i = 0; rc == HL_OK && i < w->n_tables; i++)
    rc = hl_cmd_txn_lock_table(w->txn, HL_TNAME(w->tables[i].t), w->arena, err);
  return rc;
}

/* Writes every table's rows and commits; W's tables are planned. */
static hl_status_t run_writes(writer_t *w, const char *kind, hl_error_t *err) {
  hl_status_t rc = start_txn(w, kind, err);
  /* the SELECTs of a multi-insert read one snapshot of their tables
   * (exec/snapshot.h), ended before the commit: the statement's own shared
   * reader lock of a table it also writes would keep the publish lock from
   * it */
  hl_snap_t *snap = NULL;
  if (rc == HL_OK && !w->s->snap) {
    if ((snap = hl_snap_create(w->arena, err)))
      w->s->snap = snap;
    else
      rc = err->code;
  }
  for (int i = 0; rc == HL_OK && i < w->n_tables; i++) {
    wtable_t *wt = &w->tables[i];
    if (wt->skip) continue;
    /* a static target exists even when no row arrives (an empty partition,
     * or an overwrite that empties the table) */
    if (wt->n_dyn == 0) {
      wpart_t *p;
      size_t index;
      rc = hl_cmd_ins_part_find(w, wt, wt->static_vals, &p, &index, err);
      hl_arena_reset(w->scratch);
      wt->only = p;
    }
    if (rc == HL_OK && wt->res) {
      hl_result_t *res = wt->res;
      wt->res = NULL; /* write_result closes it */
      rc = hl_cmd_ins_write_result(w, wt, res, err);
    } else if (rc == HL_OK && wt->ins) {
      rc = feed(w, wt, wt->ins, err);
    }
    for (size_t j = 0; rc == HL_OK && j < wt->n_parts; j++)
      rc = hl_cmd_ins_part_close(w, wt, wt->parts[j], err);
    for (size_t j = 0; rc == HL_OK && j < wt->n_parts; j++)
      w->written += wt->parts[j]->rows;
  }
  if (snap) {
    w->s->snap = NULL;
    hl_snap_end(snap);
  }
  /* the last chance to cancel: once the commit starts it runs to its end */
  if (rc == HL_OK) rc = hl_budget_check_cancel(&w->s->budget, err);
  if (rc == HL_OK) {
    writer_fini(w);
    hl_txn_set_plan_hook(w->txn, plan_replaced, w);
    rc = hl_txn_commit(w->txn, apply, w, err);
    w->txn = NULL;
    forget_listings(w);
  }
  writer_fini(w);
  if (w->txn) hl_txn_abort(w->txn);
  return rc;
}

/* ------------------------------------------------------------ CTAS */

/* The table column for query column I: its name (lower-case) and type. */
static hl_status_t column_from_result(const hl_result_t *res, int i, hl_arena_t *arena,
                                      hl_cat_column_t *out, hl_error_t *err) {
  const hl_type_t *ty = res->types[i];
  memset(out, 0, sizeof *out);
  if (hl_type_has_interval(ty)) /* Hive: expression types only */
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                      "column \"%s\" is an interval, which cannot be stored in a table (cast it "
                      "to STRING)",
                      res->names[i]);
  out->name = hl_arena_strdup(arena, res->names[i]);
  out->type = ty->id == HL_T_NULL ? hl_arena_strdup(arena, "string") : hl_type_to_string(arena, ty);
  if (!out->name || !out->type) return hl_err_nomem(err);
  for (char *c = out->name; *c; c++)
    if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  return HL_OK;
}

hl_status_t hl_cmd_ctas(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_cat_table_t *table,
                        hl_arena_t *arena, hl_result_t *result, hl_error_t *err) {
  const hl_ast_create_table_t *ct = stmt->create_table;
  writer_t w;
  memset(&w, 0, sizeof w);
  hl_result_t *res = hl_arena_zalloc(arena, sizeof *res);
  if (!res) return hl_err_nomem(err);
  hl_status_t rc = hl_exec_select(s, ct->as_select->select, arena, res, err);
  if (rc != HL_OK) return rc;
  /* src[i]: the query column of table column i (data columns, then keys) */
  int *src = NULL;
  if (table->n_cols == 0) {
    /* columns from the query: the keys are its last columns (PARTITIONED
     * BY), or the columns named by Doris's PARTITION BY LIST */
    int n_named = ct->n_part_names;
    int n_keys = n_named ? n_named : table->n_part_keys;
    int n_data = res->n_cols - n_keys;
    if (n_data <= 0)
      rc = hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "the query of CREATE TABLE AS SELECT gives %d column%s, too few for %d "
                         "partition column%s and at least one data column",
                         res->n_cols, res->n_cols == 1 ? "" : "s", n_keys, n_keys == 1 ? "" : "s");
    hl_cat_column_t *cols =
        rc == HL_OK ? hl_arena_zalloc(arena, sizeof(hl_cat_column_t) * (size_t)res->n_cols) : NULL;
    bool *is_key = rc == HL_OK ? hl_arena_zalloc(arena, (size_t)res->n_cols) : NULL;
    src = rc == HL_OK ? hl_arena_alloc(arena, sizeof(int) * (size_t)res->n_cols) : NULL;
    if (rc == HL_OK && (!cols || !is_key || !src)) rc = hl_err_nomem(err);
    for (int k = 0; rc == HL_OK && k < n_keys; k++) {
      int q = res->n_cols - n_keys + k;
      if (n_named) {
        q = -1;
        for (int i = 0; i < res->n_cols; i++)
          if (strcasecmp(res->names[i], ct->part_names[k]) == 0) q = i;
        if (q < 0) {
          rc = hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                             "partition column \"%s\" is not a column of the query",
                             ct->part_names[k]);
          break;
        }
        rc = column_from_result(res, q, arena, &cols[n_data + k], err);
      } else {
        cols[n_data + k] = table->part_keys[k]; /* declared with its type */
      }
      is_key[q] = true;
      src[n_data + k] = q;
    }
    for (int i = 0, d = 0; rc == HL_OK && i < res->n_cols; i++) {
      if (is_key[i]) continue;
      rc = column_from_result(res, i, arena, &cols[d], err);
      src[d++] = i;
    }
    for (int i = 0; rc == HL_OK && i < res->n_cols; i++)
      for (int j = 0; rc == HL_OK && j < i; j++)
        if (strcmp(cols[j].name, cols[i].name) == 0)
          rc = hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(DUPLICATE_COLUMN),
                             "column \"%s\" is given more than once in the query of CREATE "
                             "TABLE AS SELECT",
                             cols[i].name);
    if (rc == HL_OK) {
      table->cols = cols;
      table->n_cols = n_data;
      table->part_keys = cols + n_data;
      table->n_part_keys = n_keys;
      rc = hl_cmd_apply_buckets(ct, stmt->pos, arena, table, err);
    }
  }
  if (rc == HL_OK) rc = writer_init(&w, s, arena, 1, err);
  if (rc != HL_OK) {
    res->root->close(res->root);
    writer_fini(&w);
    return rc;
  }
  wtable_t *wt = &w.tables[0];
  wt->create = table;
  wt->res = res; /* from here on closed by run_writes or writer_fini */
  rc = hl_table_from_catalog(table, arena, &wt->t, err);
  /* now that the columns are known (plan/incr.h) */
  if (rc == HL_OK) rc = hl_incr_props_check(wt->t, table->params, table->n_params, err);
  if (rc != HL_OK) hl_err_position(err, stmt->pos);
  if (rc == HL_OK) rc = plan_table(&w, wt, NULL, err);
  if (rc == HL_OK && src)
    for (int i = 0; i < wt->t->n_all; i++)
      wt->slot_src[i] = src[i];
  if (rc == HL_OK) rc = check_width(wt, res->n_cols, stmt->pos, err);
  if (rc == HL_OK) rc = run_writes(&w, "ctas", err);
  if (rc == HL_OK) {
    result->wrote = true;
    result->n_written = w.written;
  }
  writer_fini(&w);
  return rc;
}

/* ------------------------------------------------------------ INSERT */

hl_status_t hl_cmd_insert(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err) {
  writer_t w;
  hl_status_t rc = writer_init(&w, s, arena, stmt->n_inserts, err);
  bool all_skipped = true;
  for (int i = 0; rc == HL_OK && i < stmt->n_inserts; i++) {
    const hl_ast_insert_t *ins = &stmt->inserts[i];
    wtable_t *wt = &w.tables[i];
    wt->ins = ins;
    wt->overwrite = ins->overwrite;
    rc = hl_table_load(s, &ins->table, arena, &wt->t, err);
    if (rc == HL_OK) rc = plan_table(&w, wt, ins, err);
    /* several inserts may write one table, but each partition only once
     * (two writers of one directory could not both replace it) */
    for (int j = 0; rc == HL_OK && j < i; j++) {
      const wtable_t *o = &w.tables[j];
      if (o->t->cat->id != wt->t->cat->id) continue;
      bool same = wt->n_dyn > 0 || o->n_dyn > 0 || wt->t->n_part == 0;
      if (!same) {
        same = true;
        for (int v = 0; v < wt->t->n_part; v++) {
          const char *a = wt->static_vals[v], *b = o->static_vals[v];
          if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0)) same = false;
        }
      }
      if (same)
        rc = hl_err_set_at(err, ins->table.pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "a multi-insert may write each partition of table \"%s.%s\" only "
                           "once",
                           HL_TNAME(wt->t));
    }
    if (rc == HL_OK && ins->if_not_exists && wt->n_dyn == 0 && wt->t->n_part > 0) {
      hl_cat_partition_t *p;
      hl_error_t e;
      hl_err_init(&e);
      hl_status_t g = hl_cat_partition_get(s->cat, wt->t->cat->id, wt->static_vals, wt->t->n_part,
                                           arena, &p, &e);
      hl_err_clear(&e);
      if (g == HL_OK) wt->skip = true;
    }
    if (!wt->skip) all_skipped = false;
  }
  if (rc == HL_OK && !all_skipped) {
    bool any_overwrite = false;
    for (int i = 0; i < w.n_tables; i++)
      any_overwrite = any_overwrite || w.tables[i].overwrite;
    rc = run_writes(&w, any_overwrite ? "overwrite" : "insert", err);
  }
  if (rc == HL_OK) { /* IF NOT EXISTS of a partition that exists writes nothing */
    result->wrote = true;
    result->n_written = w.written;
  }
  writer_fini(&w);
  return rc;
}

/* ------------------------------------------------------------ TRUNCATE */

/* A partition spec in which keys without a value match any value (Hive's
 * TRUNCATE TABLE t PARTITION (ds, hr='12')). */
static hl_status_t compile_partial(hl_session_t *s, const hl_table_t *t,
                                   const hl_ast_part_spec_t *spec, hl_arena_t *arena,
                                   hl_cmd_part_filter_t *f, hl_error_t *err) {
  hl_ast_part_spec_t given = *spec;
  given.items = hl_arena_alloc(arena, sizeof(*given.items) * (size_t)(spec->n + 1));
  if (!given.items) return hl_err_nomem(err);
  given.n = 0;
  for (int i = 0; i < spec->n; i++) {
    int c = hl_table_column_index(t, spec->items[i].key);
    if (spec->items[i].value)
      given.items[given.n++] = spec->items[i];
    else if (c < t->n_data)
      return hl_err_set_at(err, spec->items[i].pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "column \"%s\" is not a partition column of table \"%s.%s\"",
                           spec->items[i].key, HL_TNAME(t));
  }
  return hl_cmd_part_filter_compile(s, t, &given, arena, f, err);
}

hl_status_t hl_cmd_truncate(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err) {
  (void)result;
  writer_t w;
  hl_status_t rc = writer_init(&w, s, arena, 1, err);
  wtable_t *wt = &w.tables[0];
  if (rc == HL_OK) rc = hl_table_load(s, &stmt->table, arena, &wt->t, err);
  if (rc == HL_OK && wt->t->cat->external)
    rc = hl_err_set_at(err, stmt->table.pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                       "cannot truncate external table \"%s.%s\"", HL_TNAME(wt->t));
  if (rc != HL_OK) {
    writer_fini(&w);
    return rc;
  }
  hl_table_t *t = wt->t;
  wt->overwrite = true;
  w.truncate = true;
  wt->map = hl_map_create();
  if (!wt->map) rc = hl_err_nomem(err);
  /* the partitions to empty: the one named, those matching a partial spec,
   * or all of them */
  hl_cat_partition_t *parts = NULL;
  size_t n_parts = 0;
  if (rc == HL_OK && t->n_part > 0) {
    rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n_parts, err);
    hl_cmd_part_filter_t f = {0};
    if (rc == HL_OK && stmt->part_spec) rc = compile_partial(s, t, stmt->part_spec, arena, &f, err);
    size_t kept = 0;
    for (size_t i = 0; rc == HL_OK && i < n_parts; i++)
      if (!stmt->part_spec || hl_cmd_part_filter_match(t, &f, &parts[i], arena))
        parts[kept++] = parts[i];
    n_parts = kept;
    if (rc == HL_OK && stmt->part_spec && n_parts == 0)
      rc = hl_err_set_at(err, stmt->part_spec->pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                         "no partition of table \"%s.%s\" matches the partition spec", HL_TNAME(t));
  } else if (rc == HL_OK && stmt->part_spec) {
    rc = hl_err_set_at(err, stmt->part_spec->pos, HL_ERROR,
                       HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                       "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  }
  if (rc == HL_OK) rc = start_txn(&w, "truncate", err);
  if (rc == HL_OK && t->n_part == 0) {
    wpart_t *p;
    rc = part_open(&w, wt, NULL, &p, err);
  }
  for (size_t i = 0; rc == HL_OK && i < n_parts; i++) {
    wpart_t *p;
    rc = part_open(&w, wt, parts[i].values, &p, err);
  }
  if (rc == HL_OK) {
    writer_fini(&w);
    hl_txn_set_plan_hook(w.txn, plan_replaced, &w);
    rc = hl_txn_commit(w.txn, apply, &w, err);
    w.txn = NULL;
    forget_listings(&w);
  }
  writer_fini(&w);
  if (w.txn) hl_txn_abort(w.txn);
  return rc;
}

/* ------------------------------------------------------------ LOAD DATA */

/* "kv1.txt" -> "kv1_copy_N.txt" (Hive's naming for a clashing file). */
static char *copy_name(hl_arena_t *arena, const char *name, int n) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name) return hl_arena_sprintf(arena, "%s_copy_%d", name, n);
  return hl_arena_sprintf(arena, "%.*s_copy_%d%s", (int)(dot - name), name, n, dot);
}

static bool load_hidden(const char *name) {
  return name[0] == '.' || name[0] == '_';
}

/* LOAD DATA [LOCAL] INPATH 'p' [OVERWRITE] INTO TABLE t [PARTITION (spec)]:
 * files are copied (LOCAL) or moved without being parsed, as Hive does,
 * through the write transaction: a LOCAL copy is staged, a moved file goes
 * from its source straight to the target at publish (and back on
 * rollback, so the source file is never lost). */
hl_status_t hl_cmd_load(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                        hl_result_t *result, hl_error_t *err) {
  (void)result;
  hl_stor_t *fs = s->fs;
  writer_t w;
  hl_status_t rc = writer_init(&w, s, arena, 1, err);
  wtable_t *wt = w.tables;
  if (rc == HL_OK) rc = hl_table_load(s, &stmt->table, arena, &wt->t, err);
  hl_table_t *t = rc == HL_OK ? wt->t : NULL;
  /* LOAD DATA moves files unparsed, so it cannot put rows into buckets.
   * Hive 3 rewrites such a load into INSERT ... SELECT over a temporary
   * table (Hive 2 refused it under hive.strict.checks.bucketing); we
   * refuse and say how to do the insert. */
  if (rc == HL_OK && t->cat->num_buckets > 0 && t->cat->n_bucket_cols > 0)
    rc = hl_err_set_at(err, stmt->table.pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                       "LOAD DATA into bucketed table \"%s.%s\" is not supported; load the "
                       "files into a table with the same columns that is not bucketed and use "
                       "INSERT INTO ... SELECT",
                       HL_TNAME(t));
  if (rc == HL_OK && t->n_part > 0 && !stmt->part_spec)
    rc = hl_err_set_at(err, stmt->table.pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                       "table \"%s.%s\" is partitioned: LOAD DATA needs a PARTITION spec "
                       "naming every partition column",
                       HL_TNAME(t));
  if (rc == HL_OK && t->n_part == 0 && stmt->part_spec)
    rc = hl_err_set_at(err, stmt->part_spec->pos, HL_ERROR,
                       HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                       "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  char **values = NULL;
  if (rc == HL_OK && t->n_part > 0)
    rc = hl_cmd_part_spec_full(s, t, stmt->part_spec, arena, &values, err);
  char *src = NULL;
  if (rc == HL_OK) rc = hl_cmd_resolve_location(stmt->load_path, NULL, stmt->pos, arena, &src, err);
  if (rc == HL_OK) rc = hl_loc_allow_check(s, src, "the LOAD DATA source", err);
  hl_stor_stat_t st = {0};
  if (rc == HL_OK) rc = fs->ops->stat(fs, src, &st, err);
  if (rc == HL_OK && !st.exists)
    rc = hl_err_set_at(err, stmt->pos, HL_NOTFOUND, HL_SS(UNDEFINED_FILE),
                       "path \"%s\" does not exist", stmt->load_path);
  /* the source: a file, or the visible files of a directory */
  char **files = NULL;
  size_t n_files = 0;
  if (rc == HL_OK && st.is_dir) {
    hl_stor_entry_t *entries;
    size_t n;
    rc = fs->ops->list(fs, src, arena, &entries, &n, err);
    /* a linked file is loaded only when its target is allowed too */
    if (rc == HL_OK) rc = hl_loc_allow_check_links(s, src, entries, n, "the LOAD DATA source", err);
    files = rc == HL_OK ? hl_arena_alloc(arena, sizeof(char *) * (n + 1)) : NULL;
    if (rc == HL_OK && !files) rc = hl_err_nomem(err);
    for (size_t i = 0; rc == HL_OK && i < n; i++) {
      if (load_hidden(entries[i].name)) continue;
      if (entries[i].is_dir)
        rc = hl_err_set_at(err, stmt->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "source directory \"%s\" contains directory \"%s\"; only files can "
                           "be loaded",
                           src, entries[i].name);
      else if (!(files[n_files++] = hl_path_join(arena, src, entries[i].name)))
        rc = hl_err_nomem(err);
    }
  } else if (rc == HL_OK) {
    files = hl_arena_alloc(arena, sizeof(char *));
    if (!files)
      rc = hl_err_nomem(err);
    else
      files[n_files++] = src;
  }
  wt->overwrite = stmt->load_overwrite;
  if (rc == HL_OK) {
    wt->map = hl_map_create();
    if (!wt->map) rc = hl_err_nomem(err);
  }
  if (rc == HL_OK) rc = start_txn(&w, "load", err);
  wpart_t *p = NULL;
  if (rc == HL_OK) rc = part_open(&w, wt, values, &p, err);
  if (rc == HL_OK && (hl_cmd_path_under(src, p->dir) || hl_cmd_path_under(p->dir, src)))
    rc = hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                       "cannot load \"%s\" into \"%s\": the paths overlap", src, p->dir);
  if (rc == HL_OK) p->rows_unknown = true;
  for (size_t i = 0; rc == HL_OK && i < n_files; i++) {
    const char *slash = strrchr(files[i], '/');
    const char *base = slash ? slash + 1 : files[i];
    char *name = hl_arena_strdup(arena, base);
    for (int copy = 1; rc == HL_OK && name; copy++) {
      bool clash = false;
      for (size_t f = 0; f < p->target->n_new && !clash; f++)
        clash = strcmp(p->target->new_files[f], name) == 0;
      if (!clash && !wt->overwrite) {
        char *to = hl_path_join(arena, p->dir, name);
        hl_stor_stat_t tst;
        rc = to ? fs->ops->stat(fs, to, &tst, err) : hl_err_nomem(err);
        clash = rc == HL_OK && tst.exists;
      }
      if (!clash) break;
      name = copy_name(arena, base, copy);
    }
    if (rc == HL_OK && !name) rc = hl_err_nomem(err);
    hl_stor_stat_t fst;
    if (rc == HL_OK) rc = fs->ops->stat(fs, files[i], &fst, err);
    if (rc == HL_OK) {
      p->files++;
      p->total_bytes += fst.size;
    }
    if (rc == HL_OK && stmt->load_local) {
      char *to = hl_path_join(arena, p->target->stage_dir, name);
      rc = to ? hl_stor_copy(hl_txn_fs(w.txn), files[i], to, err) : hl_err_nomem(err);
      if (rc == HL_OK) rc = hl_txn_target_add_file(w.txn, p->target, name, err);
      if (rc == HL_OK) hl_txn_fault_point("file");
    } else if (rc == HL_OK) {
      rc = hl_txn_target_add_moved(w.txn, p->target, name, files[i], err);
    }
    /* between files: a copy of many large files may be cancelled */
    if (rc == HL_OK) rc = hl_budget_check_cancel(&s->budget, err);
  }
  if (rc == HL_OK) {
    writer_fini(&w);
    hl_txn_set_plan_hook(w.txn, plan_replaced, &w);
    rc = hl_txn_commit(w.txn, apply, &w, err);
    w.txn = NULL;
    forget_listings(&w);
  }
  writer_fini(&w);
  if (w.txn) hl_txn_abort(w.txn);
  if (rc != HL_OK) hl_err_position(err, stmt->pos);
  return rc;
}
