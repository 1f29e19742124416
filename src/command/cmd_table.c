/*
 * cmd_table.c -- CREATE TABLE [LIKE], DROP TABLE and ALTER TABLE (the
 * table-level forms; partition forms are in cmd_partition.c).
 *
 * The catalog record is built completely and validated before anything is
 * touched.  Then, inside one catalog transaction, the record is written and
 * the file system changed (directory created or renamed); a failed commit
 * undoes the file-system change.  DROP removes managed data only after its
 * commit.  External data is never touched, and existing directories are
 * never re-permissioned (storage's mkdirs guarantees that).
 */
#include "command/cmd_int.h"
#include "plan/incr.h"
#include "session/catalogs.h"
#include "session/loc_allow.h"
#include "txn/txn.h"
#include "format/avro/avro.h"
#include "format/orc/orc.h"
#include "format/parquet/parquet.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------ helpers */

static hl_status_t table_exists(hl_session_t *s, const char *db, const char *name,
                                hl_arena_t *arena, hl_cat_table_t **out, hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  *out = NULL;
  hl_status_t rc = hl_cat_table_get(s->cat, db, name, arena, out, &e);
  if (rc == HL_NOTFOUND && strcmp(e.sqlstate, "42P01") == 0) {
    hl_err_clear(&e);
    *out = NULL;
    return HL_OK;
  }
  if (rc != HL_OK) hl_err_move(err, &e);
  return rc;
}

static hl_status_t get_db(hl_session_t *s, const char *db, long pos, hl_arena_t *arena,
                          hl_cat_db_t **out, hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = hl_cat_db_get(s->cat, db, arena, out, &e);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(&e);
    return hl_err_set_at(err, pos, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                         "database \"%s\" does not exist", db);
  }
  if (rc != HL_OK) hl_err_move(err, &e);
  return rc;
}

static hl_status_t column_from_def(const hl_ast_column_def_t *def, bool is_part_key,
                                   hl_arena_t *arena, hl_cat_column_t *out, hl_error_t *err) {
  if (is_part_key && hl_type_is_complex(def->type))
    return hl_err_set_at(err, def->pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "partition column \"%s\" must have a primitive type", def->name);
  out->name = hl_arena_strdup(arena, def->name);
  out->type = hl_type_to_string(arena, def->type);
  out->comment = def->comment ? hl_arena_strdup(arena, def->comment) : NULL;
  if (!out->name || !out->type || (def->comment && !out->comment)) return hl_err_nomem(err);
  return HL_OK;
}

/* 42701 if NAME appears in COLS[0..n) (SKIP excluded). */
static hl_status_t check_unique(const hl_cat_column_t *cols, int n, int skip, const char *name,
                                long pos, hl_error_t *err) {
  for (int i = 0; i < n; i++)
    if (i != skip && strcasecmp(cols[i].name, name) == 0)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(DUPLICATE_COLUMN),
                           "column \"%s\" specified more than once", name);
  return HL_OK;
}

static int data_col_index(const hl_cat_table_t *t, const char *name) {
  for (int i = 0; i < t->n_cols; i++)
    if (strcasecmp(t->cols[i].name, name) == 0) return i;
  return -1;
}

/* ----------------------------------------------------- storage clauses */

/* Fills the storage descriptor of T from the ROW FORMAT / STORED AS
 * clauses of CT; LIKE tables arrive with their source's descriptor, which
 * only explicit clauses override. */
static hl_status_t apply_storage(hl_session_t *s, const hl_ast_create_table_t *ct, long pos,
                                 hl_arena_t *arena, hl_cat_table_t *t, hl_error_t *err) {
  const hl_storage_format_t *fmt = NULL;
  if (ct->stored_as) {
    fmt = hl_storage_format_find(ct->stored_as);
    if (!fmt)
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "file format \"%s\" is not supported", ct->stored_as);
  } else if (!ct->input_format && !t->input_format) {
    const char *dflt = hl_session_get(s, "hive.default.fileformat");
    fmt = hl_storage_format_find(dflt ? dflt : "TEXTFILE");
    if (!fmt)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                           "hive.default.fileformat \"%s\" is not a known file format", dflt);
  }
  if (fmt) {
    t->input_format = (char *)fmt->input_format;
    t->output_format = (char *)fmt->output_format;
    t->serde_lib = (char *)fmt->serde;
  }
  if (ct->input_format) {
    t->input_format = ct->input_format;
    t->output_format = ct->output_format;
    if (!t->serde_lib) t->serde_lib = HL_SERDE_LAZY_SIMPLE;
  }
  const hl_ast_row_format_t *rf = &ct->row_format;
  hl_status_t rc = HL_OK;
  if (rf->present && rf->is_serde) {
    t->serde_lib = rf->serde_class;
    t->serde_params = NULL;
    t->n_serde_params = 0;
    for (int i = 0; rc == HL_OK && i < rf->serde_props.n; i++)
      rc = hl_cmd_kv_put(&t->serde_params, &t->n_serde_params, rf->serde_props.items[i].key,
                         rf->serde_props.items[i].value, arena, err);
  } else if (rf->present) {
    if (rf->lines_terminated && strcmp(rf->lines_terminated, "\n") != 0)
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "LINES TERMINATED BY only supports newline '\\n' right now");
    t->serde_params = NULL;
    t->n_serde_params = 0;
    /* Hive's own keys, including its misspelt "colelction.delim" */
    struct {
      const char *key;
      const char *value;
    } delims[] = {
        {"field.delim", rf->fields_terminated},
        {"serialization.format", rf->fields_terminated},
        {"escape.delim", rf->escaped_by},
        {"colelction.delim", rf->collection_terminated},
        {"mapkey.delim", rf->map_keys_terminated},
        {"line.delim", rf->lines_terminated},
        {"serialization.null.format", rf->null_defined_as},
    };
    for (size_t i = 0; rc == HL_OK && i < sizeof delims / sizeof delims[0]; i++)
      if (delims[i].value)
        rc = hl_cmd_kv_put(&t->serde_params, &t->n_serde_params, delims[i].key, delims[i].value,
                           arena, err);
  }
  /* Hive's Table.getEmptyTable always records serialization.format=1 */
  if (rc == HL_OK && !hl_kv_get(t->serde_params, t->n_serde_params, "serialization.format"))
    rc = hl_cmd_kv_put(&t->serde_params, &t->n_serde_params, "serialization.format", "1", arena,
                       err);
  return rc;
}

/* CLUSTERED BY / SORTED BY: columns must be data columns. */
hl_status_t hl_cmd_apply_buckets(const hl_ast_create_table_t *ct, long pos, hl_arena_t *arena,
                                 hl_cat_table_t *t, hl_error_t *err) {
  if (ct->num_buckets < 0 && ct->n_bucket_cols == 0 && ct->n_sort_cols == 0) return HL_OK;
  if (ct->num_buckets <= 0)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "number of buckets must be positive");
  t->num_buckets = ct->num_buckets;
  t->n_bucket_cols = ct->n_bucket_cols;
  t->bucket_cols = hl_arena_alloc(arena, sizeof(char *) * (size_t)(ct->n_bucket_cols + 1));
  t->n_sort_cols = ct->n_sort_cols;
  t->sort_cols = hl_arena_alloc(arena, sizeof(hl_cat_sort_col_t) * (size_t)(ct->n_sort_cols + 1));
  if (!t->bucket_cols || !t->sort_cols) return hl_err_nomem(err);
  for (int i = 0; i < ct->n_bucket_cols; i++) {
    int c = data_col_index(t, ct->bucket_cols[i]);
    if (c < 0)
      return hl_err_set_at(err, ct->bucket_cols_pos ? ct->bucket_cols_pos[i] : pos, HL_ERROR,
                           HL_SS(UNDEFINED_COLUMN),
                           "bucket column \"%s\" is not a column of the table", ct->bucket_cols[i]);
    t->bucket_cols[i] = t->cols[c].name;
  }
  for (int i = 0; i < ct->n_sort_cols; i++) {
    const hl_ast_expr_t *e = ct->sort_cols[i].expr;
    int c = e && e->kind == HL_AST_COLUMN ? data_col_index(t, e->name) : -1;
    if (c < 0)
      return hl_err_set_at(err, e ? e->pos : pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "sort column \"%s\" is not a column of the table",
                           e && e->name ? e->name : "?");
    t->sort_cols[i].name = t->cols[c].name;
    t->sort_cols[i].ascending = !ct->sort_cols[i].descending;
  }
  return HL_OK;
}

/* Doris's 'compression' property, as Doris's Hive catalog records it:
 * parquet.compression for Parquet, orc.compress for ORC, text.compression
 * for text (which the text writer honours: hl_cmd_text_codec_ext), and
 * for Avro the avro.output.codec its writer reads.  SequenceFile and
 * RCFile have no table-level codec, so there it is refused rather than
 * stored and ignored. */
static hl_status_t doris_compression(const hl_ast_create_table_t *ct, hl_cat_table_t *t,
                                     hl_arena_t *arena, hl_error_t *err) {
  const char *in = t->input_format ? t->input_format : "";
  const char *key = NULL;
  if (strstr(in, "Parquet"))
    key = "parquet.compression";
  else if (strstr(in, "OrcInputFormat"))
    key = "orc.compress";
  else if (strstr(in, "TextInputFormat"))
    key = "text.compression";
  else if (strstr(in, "AvroContainerInputFormat"))
    key = "avro.output.codec";
  if (!key) {
    const hl_storage_format_t *f = hl_storage_format_by_classes(t->input_format, t->output_format);
    return hl_err_set_at(err, ct->compression_pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "the 'compression' property is not supported for %s tables",
                         f ? f->name : "these");
  }
  /* Doris's 'plain' is no compression; each format's writer names it */
  const char *codec = ct->compression;
  if (strcasecmp(codec, "plain") == 0 && strcmp(key, "text.compression") != 0)
    codec = strcmp(key, "orc.compress") == 0        ? "NONE"
            : strcmp(key, "avro.output.codec") == 0 ? "null"
                                                    : "UNCOMPRESSED";
  /* checked now by the writer's own rules: a codec the writer refuses
   * would otherwise make every later INSERT fail */
  hl_kv_t kv = {(char *)key, (char *)codec};
  hl_status_t rc;
  if (strcmp(key, "text.compression") == 0) {
    const char *ext;
    rc = hl_cmd_text_codec_ext(codec, &ext, err);
  } else if (strcmp(key, "orc.compress") == 0) {
    hl_orc_write_options_t o;
    rc = hl_orc_write_options_init(&o, &kv, 1, err);
  } else if (strcmp(key, "avro.output.codec") == 0) {
    hl_avro_codec_t c;
    rc = hl_avro_codec_from_name(codec, &c, err);
    if (rc == HL_OK) codec = hl_avro_codec_name(c); /* "zstd" is recorded as "zstandard" */
  } else {
    hl_parquet_write_options_t o;
    rc = hl_parquet_write_options_init(&o, &kv, 1, err);
  }
  if (rc != HL_OK) return hl_err_position(err, ct->compression_pos), rc;
  return hl_cmd_kv_put(&t->params, &t->n_params, key, codec, arena, err);
}

/* ------------------------------------------------------- CREATE TABLE */

/* Impala's CREATE TABLE t LIKE PARQUET 'file': *OUT is CT with the file's
 * top-level columns as its column list (the rest of the statement applies
 * as written).  The file must be allowed by the location allowlist. */
static hl_status_t like_parquet(hl_session_t *s, const hl_ast_create_table_t *ct, long pos,
                                hl_arena_t *arena, hl_ast_create_table_t *out, hl_error_t *err) {
  const char *path = ct->like_parquet;
  if (strncmp(path, "file://", 7) == 0)
    path += 7;
  else if (strncmp(path, "file:", 5) == 0)
    path += 5;
  char *abs = hl_path_normalize(arena, path, NULL);
  if (!abs) return hl_err_nomem(err);
  hl_status_t rc = hl_loc_allow_check(s, abs, "the Parquet file", err);
  hl_stor_stat_t st;
  if (rc == HL_OK) rc = s->fs->ops->stat(s->fs, abs, &st, err);
  if (rc == HL_OK && !st.exists)
    rc = hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE), "file \"%s\" does not exist", abs);
  if (rc == HL_OK && st.is_dir)
    rc = hl_err_set(err, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                    "\"%s\" is a directory; LIKE PARQUET needs a Parquet file", abs);
  int n = 0;
  char **names = NULL;
  hl_type_t **types = NULL;
  if (rc == HL_OK) rc = hl_parquet_file_schema(s->fs, abs, arena, &n, &names, &types, err);
  if (rc != HL_OK) return hl_err_position(err, pos), rc;
  if (n == 0)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                         "Parquet file \"%s\" has no columns", abs);
  *out = *ct;
  out->cols = hl_arena_zalloc(arena, sizeof(hl_ast_column_def_t) * (size_t)n);
  if (!out->cols) return hl_err_nomem(err);
  for (int i = 0; i < n; i++) {
    out->cols[i].name = names[i];
    out->cols[i].type = types[i];
    out->cols[i].pos = pos;
  }
  out->n_cols = n;
  out->like_parquet = NULL;
  return HL_OK;
}

/* The AST's properties as catalog pairs, in ARENA. */
static hl_kv_t *kv_of(const hl_ast_kvlist_t *l, hl_arena_t *arena) {
  hl_kv_t *kv = hl_arena_zalloc(arena, sizeof(hl_kv_t) * (size_t)(l->n + 1));
  for (int i = 0; kv && i < l->n; i++) {
    kv[i].key = l->items[i].key;
    kv[i].value = l->items[i].value;
  }
  return kv;
}

/* The columns of the schema that the serde properties SP and table
 * properties TP name (avro.schema.literal, else avro.schema.url; a local
 * avro.schema.url must be allowed by the location allowlist), as Hive's
 * AvroSerDe maps them; errors carry POS. */
static hl_status_t avro_schema_columns(hl_session_t *s, const hl_kv_t *sp, int nsp,
                                       const hl_kv_t *tp, int ntp, long pos, hl_arena_t *arena,
                                       int *n, char ***names, hl_type_t ***types, hl_error_t *err) {
  const char *file;
  hl_status_t frc = hl_avro_schema_file(arena, sp, nsp, tp, ntp, &file, err);
  if (frc == HL_OK && file) frc = hl_loc_allow_check(s, file, "the Avro schema file", err);
  if (frc != HL_OK) return hl_err_position(err, pos), frc;
  hl_avro_schema_t *schema;
  hl_status_t rc =
      hl_avro_table_schema(s->fs, arena, sp, nsp, tp, ntp, 0, NULL, NULL, &schema, err);
  if (rc == HL_OK) rc = hl_avro_schema_columns(schema, arena, n, names, types, err);
  if (rc != HL_OK) return hl_err_position(err, pos), rc;
  return HL_OK;
}

/* An Avro table whose properties name a schema (avro.schema.literal or
 * avro.schema.url) takes its columns from it, as Hive's AvroSerDe does:
 * *OUT is CT with the schema's columns (declared ones are replaced; their
 * comments say "from deserializer" in Hive, here they have none).  *OUT is
 * CT unchanged otherwise. */
static hl_status_t avro_columns(hl_session_t *s, const hl_ast_create_table_t *ct, long pos,
                                hl_arena_t *arena, hl_ast_create_table_t *out, hl_error_t *err) {
  *out = *ct;
  const char *in = ct->input_format ? ct->input_format : "";
  bool avro = (ct->stored_as && strcasecmp(ct->stored_as, "AVRO") == 0) || strstr(in, "Avro") ||
              (ct->row_format.is_serde && ct->row_format.serde_class &&
               strstr(ct->row_format.serde_class, "AvroSerDe"));
  if (!avro || ct->as_select || ct->like) return HL_OK;
  hl_kv_t *sp = kv_of(&ct->row_format.serde_props, arena), *tp = kv_of(&ct->tblprops, arena);
  if (!sp || !tp) return hl_err_nomem(err);
  int nsp = ct->row_format.serde_props.n, ntp = ct->tblprops.n;
  if (!hl_avro_has_schema_param(sp, nsp, tp, ntp)) return HL_OK;
  int n = 0;
  char **names;
  hl_type_t **types;
  hl_status_t rc = avro_schema_columns(s, sp, nsp, tp, ntp, pos, arena, &n, &names, &types, err);
  if (rc != HL_OK) return rc;
  out->cols = hl_arena_zalloc(arena, sizeof(hl_ast_column_def_t) * (size_t)(n + 1));
  if (!out->cols) return hl_err_nomem(err);
  for (int i = 0; i < n; i++) {
    out->cols[i].name = names[i];
    out->cols[i].type = types[i];
    out->cols[i].pos = pos;
  }
  out->n_cols = n;
  return HL_OK;
}

/* ALTER TABLE SET TBLPROPERTIES (or SERDEPROPERTIES) naming
 * avro.schema.literal or avro.schema.url on an Avro table NT: Hive's
 * AvroSerDe derives the table's columns from the schema in force (the
 * table's property over the serde's), so they are replaced by its columns
 * (DESCRIBE shows them; partitions read by the table's schema too,
 * op_scan.c) and *CHANGED is set.  Other tables and properties: NT
 * unchanged. */
static hl_status_t avro_alter_columns(hl_session_t *s, const hl_ast_alter_table_t *alt, long pos,
                                      hl_arena_t *arena, hl_cat_table_t *nt, bool *changed,
                                      hl_error_t *err) {
  const char *fmt = hl_table_format_name(nt);
  if (!fmt || strcmp(fmt, "avro") != 0) return HL_OK;
  bool named = false;
  for (int i = 0; i < alt->props.n; i++)
    named |= strcmp(alt->props.items[i].key, "avro.schema.literal") == 0 ||
             strcmp(alt->props.items[i].key, "avro.schema.url") == 0;
  if (!named) return HL_OK;
  int n = 0;
  char **names;
  hl_type_t **types;
  hl_status_t rc = avro_schema_columns(s, nt->serde_params, nt->n_serde_params, nt->params,
                                       nt->n_params, pos, arena, &n, &names, &types, err);
  if (rc != HL_OK) return rc;
  hl_cat_column_t *cols = hl_arena_zalloc(arena, sizeof(hl_cat_column_t) * (size_t)(n + 1));
  if (!cols) return hl_err_nomem(err);
  for (int i = 0; i < n; i++) {
    hl_ast_column_def_t def = {.name = names[i], .type = types[i], .pos = pos};
    rc = column_from_def(&def, false, arena, &cols[i], err);
    if (rc == HL_OK) rc = check_unique(cols, i, -1, cols[i].name, pos, err);
    if (rc == HL_OK) rc = check_unique(nt->part_keys, nt->n_part_keys, -1, cols[i].name, pos, err);
    if (rc != HL_OK) return rc;
  }
  nt->cols = cols;
  nt->n_cols = n;
  *changed = true;
  return HL_OK;
}

hl_status_t hl_cmd_create_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                hl_result_t *result, hl_error_t *err) {
  const hl_ast_create_table_t *ct = stmt->create_table;
  long pos = stmt->pos;
  if (ct->temporary)
    return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "temporary tables are not supported");
  if (ct->stored_by)
    return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "STORED BY storage handlers are not supported");
  if (ct->as_select && (ct->like || ct->external))
    return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "CREATE %s TABLE AS SELECT is not supported",
                         ct->like ? "... LIKE" : "EXTERNAL");
  /* a managed table's directory is <database dir>/<name> */
  hl_status_t nrc = hl_cmd_check_name("table", ct->name.name, ct->name.pos, arena, err);
  if (nrc != HL_OK) return nrc;
  hl_ast_create_table_t from_file;
  if (ct->like_parquet) {
    if (ct->as_select || ct->n_cols)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                           "LIKE PARQUET takes its columns from the file");
    hl_status_t lrc = like_parquet(s, ct, pos, arena, &from_file, err);
    if (lrc != HL_OK) return lrc;
    ct = &from_file;
  }
  hl_ast_create_table_t from_schema;
  hl_status_t arc = avro_columns(s, ct, pos, arena, &from_schema, err);
  if (arc != HL_OK) return arc;
  ct = &from_schema;
  char *db_name = hl_table_db_name(s, ct->name.db, arena);
  if (!db_name) return hl_err_nomem(err);
  hl_cat_db_t *db;
  hl_status_t rc = get_db(s, db_name, ct->name.pos, arena, &db, err);
  if (rc != HL_OK) return rc;
  hl_cat_table_t *existing;
  rc = table_exists(s, db->name, ct->name.name, arena, &existing, err);
  if (rc != HL_OK) return rc;
  if (existing) {
    if (ct->if_not_exists) return HL_OK;
    return hl_err_set_at(err, ct->name.pos, HL_CONSTRAINT, HL_SS(DUPLICATE_TABLE),
                         "table \"%s.%s\" already exists", db->name, ct->name.name);
  }

  hl_cat_table_t t = {0};
  t.db_name = db->name;
  t.name = ct->name.name;
  t.external = ct->external;
  t.owner = (char *)hl_cmd_owner(s);
  t.create_time = (int64_t)time(NULL);
  t.num_buckets = -1;

  if (ct->like) {
    hl_table_t *src;
    rc = hl_table_load(s, ct->like, arena, &src, err);
    if (rc != HL_OK) return rc;
    const hl_cat_table_t *c = src->cat;
    t.cols = c->cols;
    t.n_cols = c->n_cols;
    t.part_keys = c->part_keys;
    t.n_part_keys = c->n_part_keys;
    t.input_format = c->input_format;
    t.output_format = c->output_format;
    t.serde_lib = c->serde_lib;
    t.serde_params = c->serde_params;
    t.n_serde_params = c->n_serde_params;
    t.num_buckets = c->num_buckets;
    t.bucket_cols = c->bucket_cols;
    t.n_bucket_cols = c->n_bucket_cols;
    t.sort_cols = c->sort_cols;
    t.n_sort_cols = c->n_sort_cols;
    if (ct->stored_as || ct->input_format || ct->row_format.present) {
      if (ct->stored_as || ct->input_format) t.input_format = NULL;
      rc = apply_storage(s, ct, pos, arena, &t, err);
      if (rc != HL_OK) return rc;
    }
  } else {
    if (ct->n_cols == 0 && !ct->as_select)
      return hl_err_set_at(err, ct->name.pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                           "table \"%s.%s\" must have at least one column", db->name,
                           ct->name.name);
    int n_all = ct->n_cols + ct->n_part_cols;
    hl_cat_column_t *all = hl_arena_zalloc(arena, sizeof(hl_cat_column_t) * (size_t)n_all);
    if (!all) return hl_err_nomem(err);
    for (int i = 0; i < n_all; i++) {
      bool is_key = i >= ct->n_cols;
      const hl_ast_column_def_t *def = is_key ? &ct->part_cols[i - ct->n_cols] : &ct->cols[i];
      rc = check_unique(all, i, -1, def->name, def->pos, err);
      if (rc == HL_OK) rc = column_from_def(def, is_key, arena, &all[i], err);
      if (rc != HL_OK) return rc;
    }
    t.cols = all;
    t.n_cols = ct->n_cols;
    t.part_keys = all + ct->n_cols;
    t.n_part_keys = ct->n_part_cols;
    rc = apply_storage(s, ct, pos, arena, &t, err);
    /* CTAS without a column list: the columns come from the query, and
     * hl_cmd_ctas resolves the bucket columns once it has them */
    if (rc == HL_OK && !(ct->as_select && ct->n_cols == 0))
      rc = hl_cmd_apply_buckets(ct, pos, arena, &t, err);
    if (rc != HL_OK) return rc;
  }
  for (int i = 0; i < ct->tblprops.n; i++) {
    rc = hl_cmd_kv_put(&t.params, &t.n_params, ct->tblprops.items[i].key,
                       ct->tblprops.items[i].value, arena, err);
    if (rc != HL_OK) return rc;
  }
  if (ct->compression) {
    rc = doris_compression(ct, &t, arena, err);
    if (rc != HL_OK) return rc;
  }
  /* Hive 3+ creates tables with bucketing_version 2 (Murmur3); a table
   * without the property is read as version 1 by Hive and Trino, so a
   * bucketed table says which one its files use (exec/bucket.h) */
  if ((t.num_buckets > 0 || ct->num_buckets > 0) &&
      !hl_kv_get(t.params, t.n_params, "bucketing_version")) {
    rc = hl_cmd_kv_put(&t.params, &t.n_params, "bucketing_version", "2", arena, err);
    if (rc != HL_OK) return rc;
  }
  if (ct->comment) {
    rc = hl_cmd_kv_put(&t.params, &t.n_params, "comment", ct->comment, arena, err);
    if (rc != HL_OK) return rc;
  }
  if (ct->location) {
    rc = hl_cmd_resolve_location(ct->location, NULL, pos, arena, &t.location, err);
    if (rc != HL_OK) return rc;
  } else {
    /* inside the database directory, and (a database may live above the
     * warehouse) not the warehouse or the metastore directory itself */
    rc = hl_cmd_child_dir(db->location, t.name, "table", arena, &t.location, err);
    if (rc == HL_OK) rc = hl_cmd_check_target(s, t.location, "create a managed table in", err);
    if (rc != HL_OK) return hl_err_position(err, ct->name.pos), rc;
  }
  rc = hl_loc_allow_check_table(s, t.location, t.db_name, t.name, NULL, err);
  if (rc != HL_OK) return hl_err_position(err, pos), rc;
  /* a table on S3 may carry its own fs.s3a.* settings: they apply already
   * to the location's checks and the CTAS's writes */
  rc = hl_table_s3_scope(s, s->cat, &t, arena, err);
  if (rc != HL_OK) return rc;
  if (ct->as_select) return hl_cmd_ctas(s, stmt, &t, arena, result, err); /* cmd_insert.c */
  {
    hl_table_t *tt; /* the incremental field's properties (plan/incr.h) */
    rc = hl_table_from_catalog(&t, arena, &tt, err);
    if (rc == HL_OK) rc = hl_incr_props_check(tt, t.params, t.n_params, err);
    if (rc != HL_OK) return hl_err_position(err, pos), rc;
  }
  char *created = NULL;
  rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  rc = hl_cat_table_create(s->cat, &t, err);
  if (rc == HL_OK) rc = hl_cmd_mkdirs_tracked(s, t.location, arena, &created, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    hl_cat_rollback(s->cat);
    hl_cmd_undo_mkdirs(s, created);
    hl_err_position(err, pos);
  }
  return rc;
}

/* --------------------------------------------------------- DROP TABLE */

hl_status_t hl_cmd_drop_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                              hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &t, err);
  /* Hive ignores a missing table unless hive.exec.drop.ignorenonexistent
   * is false (a missing database is always an error) */
  if (rc == HL_NOTFOUND && strcmp(err->sqlstate, HL_SS(UNDEFINED_TABLE)) == 0 &&
      (stmt->if_exists || hl_cmd_setting_true(s, "hive.exec.drop.ignorenonexistent"))) {
    hl_err_clear(err);
    return HL_OK;
  }
  if (rc != HL_OK) return rc;
  return hl_cmd_drop_tables(s, &t->cat, 1, NULL, NULL, arena, err);
}

/* The catalog step of a drop, inside the write's commit. */
typedef struct drop_arg {
  hl_session_t *s;
  hl_cat_table_t **tables;
  int n;
  const char *db; /* DROP DATABASE: the database, dropped with CASCADE */
} drop_arg_t;

/* The profile states and checkpoints of the dropped tables go too: the
 * embedded catalog's own tables take theirs along (catalog.h), another
 * catalog's are removed here. */
static hl_status_t drop_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  drop_arg_t *d = arg;
  const char *catalog = hl_catalogs_name_of(d->s, d->s->cat);
  bool other = !hl_catalogs_is_internal(catalog);
  if (d->db) {
    hl_status_t rc = hl_cat_db_drop(d->s->cat, d->db, true, err);
    if (rc == HL_OK && other) rc = hl_cat_scan_state_forget(d->s->cat, catalog, d->db, NULL, err);
    return rc;
  }
  hl_status_t rc = HL_OK;
  for (int i = 0; rc == HL_OK && i < d->n; i++) {
    rc = hl_cat_table_drop(d->s->cat, d->tables[i]->id, err);
    if (rc == HL_OK && other)
      rc = hl_cat_scan_state_forget(d->s->cat, catalog, d->tables[i]->db_name, d->tables[i]->name,
                                    err);
  }
  return rc;
}

hl_status_t hl_cmd_drop_tables(hl_session_t *s, hl_cat_table_t **tables, int n, const char *db,
                               const char *db_dir, hl_arena_t *arena, hl_error_t *err) {
  /* DROP DATABASE: a table directory inside DB_DIR takes DB_DIR with it
   * once it is empty (stop: its parent) */
  char *stop = NULL;
  if (db_dir) {
    const char *slash = strrchr(db_dir, '/');
    if (slash && slash != db_dir &&
        !(stop = hl_arena_strndup(arena, db_dir, (size_t)(slash - db_dir))))
      return hl_err_nomem(err);
  }
  /* One write: the tables' locks, their managed directories (the table's
   * and partition directories elsewhere) to the trash, the catalog change,
   * then the trash goes.  A crash at any point is repaired by recovery;
   * data that cannot be moved fails the drop and changes nothing. */
  hl_txn_t *txn;
  hl_status_t rc = hl_cmd_txn_begin(s, "drop", NULL, arena, &txn, err);
  for (int i = 0; rc == HL_OK && i < n; i++) {
    hl_cat_table_t *c = tables[i];
    rc = hl_cmd_txn_lock_table(txn, c->db_name, c->name, arena, err);
    if (rc != HL_OK || c->external) continue;
    hl_txn_target_t *tgt;
    char *what = hl_arena_sprintf(arena, "table \"%s.%s\"", c->db_name, c->name);
    if (!what) rc = hl_err_nomem(err);
    /* its data only: never a directory that holds another object's.  A
     * location that no table's data may have (the warehouse root, the
     * metastore, a path with "..": planted or named before names were
     * checked) keeps its files: only the metadata goes */
    bool own = hl_cmd_path_removable(s, c->location);
    if (rc == HL_OK && own)
      rc = hl_cmd_check_write_location(s, c->location, c, 0, true, "drop", what, arena, err);
    if (rc == HL_OK && own)
      rc = hl_txn_target_add_drop(txn, c->location,
                                  stop && hl_cmd_path_under(c->location, db_dir) ? stop : NULL,
                                  &tgt, err);
    if (rc != HL_OK || c->n_part_keys == 0) continue;
    hl_cat_partition_t *parts = NULL;
    size_t n_parts = 0;
    rc = hl_cat_partition_list(s->cat, c->id, arena, &parts, &n_parts, err);
    for (size_t j = 0; rc == HL_OK && j < n_parts; j++) {
      if (hl_cmd_path_under(parts[j].location, c->location) ||
          !hl_cmd_path_removable(s, parts[j].location))
        continue;
      rc = hl_cmd_check_write_location(s, parts[j].location, c, 0, true, "drop", what, arena, err);
      if (rc == HL_OK) rc = hl_txn_target_add_drop(txn, parts[j].location, NULL, &tgt, err);
    }
  }
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    return rc;
  }
  drop_arg_t d = {s, tables, n, db};
  rc = hl_txn_commit(txn, drop_apply, &d, err);
  if (rc != HL_OK && strcmp(err->sqlstate, HL_SS(IO_ERROR)) == 0)
    hl_err_prefix(err, "the data could not be removed, so nothing was dropped");
  return rc;
}

/* -------------------------------------------------------- ALTER TABLE */

/* The catalog step of ALTER TABLE RENAME, inside the write's commit: the
 * table row, and the partitions under the old location moved with it. */
typedef struct rename_arg {
  hl_session_t *s;
  hl_cat_table_t *nt; /* the table as renamed */
  const char *old_location;
  hl_cat_partition_t *parts; /* set when the directory moves */
  size_t n_parts;
  hl_arena_t *arena;
  const char *old_db, *old_name; /* the table's names before */
} rename_arg_t;

static hl_status_t rename_apply(void *arg, hl_txn_t *txn, hl_error_t *err) {
  rename_arg_t *r = arg;
  hl_status_t rc = hl_cat_table_update(r->s->cat, r->nt, err);
  /* profile states and checkpoints follow (the embedded catalog's own
   * tables move theirs by themselves, catalog.h) */
  const char *catalog = hl_catalogs_name_of(r->s, r->s->cat);
  if (rc == HL_OK && !hl_catalogs_is_internal(catalog))
    rc = hl_cat_scan_state_move(r->s->cat, catalog, r->old_db, r->old_name, r->nt->db_name,
                                r->nt->name, err);
  size_t old_len = strlen(r->old_location);
  for (size_t i = 0; rc == HL_OK && i < r->n_parts; i++) {
    hl_cat_partition_t *p = &r->parts[i];
    if (!hl_cmd_path_under(p->location, r->old_location)) continue;
    p->location = hl_arena_sprintf(r->arena, "%s%s", r->nt->location, p->location + old_len);
    rc = p->location ? hl_cat_partition_update(r->s->cat, p, err) : hl_err_nomem(err);
  }
  return rc;
}

static hl_status_t alter_rename(hl_session_t *s, const hl_ast_alter_table_t *alt, long pos,
                                hl_table_t *t, hl_arena_t *arena, hl_error_t *err) {
  hl_cat_table_t nt = *t->cat;
  hl_status_t rc = hl_cmd_check_name(t->cat->view ? "view" : "table", alt->new_name.name,
                                     alt->new_name.pos, arena, err);
  if (rc != HL_OK) return rc;
  char *db_name = hl_arena_strdup(arena, alt->new_name.db ? alt->new_name.db : t->cat->db_name);
  if (!db_name) return hl_err_nomem(err);
  for (char *p = db_name; *p; p++)
    *p = (char)tolower((unsigned char)*p);
  hl_cat_db_t *new_db, *old_db;
  rc = get_db(s, db_name, alt->new_name.pos, arena, &new_db, err);
  if (rc == HL_OK) rc = get_db(s, t->cat->db_name, pos, arena, &old_db, err);
  if (rc != HL_OK) return rc;
  hl_cat_table_t *clash;
  rc = table_exists(s, new_db->name, alt->new_name.name, arena, &clash, err);
  if (rc != HL_OK) return rc;
  if (clash)
    return hl_err_set_at(err, alt->new_name.pos, HL_CONSTRAINT, HL_SS(DUPLICATE_TABLE),
                         "table \"%s.%s\" already exists", new_db->name, alt->new_name.name);
  nt.db_name = new_db->name;
  nt.name = alt->new_name.name;
  /* A managed table at its default path moves with its name. */
  char *old_default = hl_path_join(arena, old_db->location, t->cat->name);
  if (!old_default) return hl_err_nomem(err);
  /* an object store cannot rename a directory: its table keeps its
   * location under the new name (docs/operations.md, "S3") */
  bool move = !t->cat->external && strcmp(t->cat->location, old_default) == 0 &&
              !hl_uri_object_root(t->cat->location);
  rename_arg_t r = {s, &nt, t->cat->location, NULL, 0, arena, t->cat->db_name, t->cat->name};
  if (move) {
    /* the new directory is derived from the new name, strictly inside the
     * new database's directory; neither directory may be the warehouse,
     * the metastore or hold them, and the allowlist applies as for CREATE */
    rc = hl_cmd_child_dir(new_db->location, nt.name, "table", arena, &nt.location, err);
    if (rc == HL_OK) rc = hl_cmd_check_target(s, t->cat->location, "move", err);
    if (rc == HL_OK) rc = hl_cmd_check_target(s, nt.location, "move a table to", err);
    if (rc == HL_OK) rc = hl_loc_allow_check_table(s, nt.location, nt.db_name, nt.name, NULL, err);
    if (rc != HL_OK) return hl_err_position(err, alt->new_name.pos), rc;
    if (t->cat->n_part_keys > 0)
      rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &r.parts, &r.n_parts, err);
    if (rc != HL_OK) return rc;
  }
  /* One write (txn.h): both names locked, the directory renamed, the
   * catalog updated; a crash in between is rolled back by recovery. */
  hl_txn_t *txn;
  rc = hl_cmd_txn_begin(s, "rename", NULL, arena, &txn, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, t->cat->db_name, t->cat->name, arena, err);
  if (rc == HL_OK) rc = hl_cmd_txn_lock_table(txn, nt.db_name, nt.name, arena, err);
  if (rc == HL_OK && move) rc = hl_txn_move_add(txn, t->cat->location, nt.location, err);
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    return rc;
  }
  return hl_txn_commit(txn, rename_apply, &r, err);
}

static hl_status_t defs_to_columns(const hl_ast_column_def_t *defs, int n, hl_arena_t *arena,
                                   hl_cat_column_t **out, hl_error_t *err) {
  *out = hl_arena_zalloc(arena, sizeof(hl_cat_column_t) * (size_t)(n + 1));
  if (!*out) return hl_err_nomem(err);
  for (int i = 0; i < n; i++) {
    hl_status_t rc = column_from_def(&defs[i], false, arena, &(*out)[i], err);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

static hl_status_t alter_columns(const hl_ast_alter_table_t *alt, long pos, hl_table_t *t,
                                 hl_arena_t *arena, hl_cat_table_t *nt, hl_error_t *err) {
  const hl_cat_table_t *c = t->cat;
  hl_cat_column_t *defs;
  hl_status_t rc = defs_to_columns(alt->cols, alt->n_cols, arena, &defs, err);
  if (rc != HL_OK) return rc;
  if (alt->kind == HL_ALTER_ADD_COLUMNS || alt->kind == HL_ALTER_REPLACE_COLUMNS) {
    bool add = alt->kind == HL_ALTER_ADD_COLUMNS;
    int base = add ? c->n_cols : 0;
    int n = base + alt->n_cols;
    hl_cat_column_t *cols = hl_arena_zalloc(arena, sizeof(hl_cat_column_t) * (size_t)(n + 1));
    if (!cols) return hl_err_nomem(err);
    if (base) memcpy(cols, c->cols, sizeof(hl_cat_column_t) * (size_t)base);
    for (int i = 0; i < alt->n_cols; i++) {
      rc = check_unique(cols, base + i, -1, defs[i].name, alt->cols[i].pos, err);
      if (rc == HL_OK)
        rc = check_unique(c->part_keys, c->n_part_keys, -1, defs[i].name, alt->cols[i].pos, err);
      if (rc != HL_OK) return rc;
      cols[base + i] = defs[i];
    }
    if (n == 0)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_TABLE_DEFINITION),
                           "table \"%s.%s\" must have at least one column", HL_TNAME(t));
    nt->cols = cols;
    nt->n_cols = n;
    return HL_OK;
  }
  /* CHANGE [COLUMN] old new type [COMMENT] [FIRST | AFTER col] */
  int old = data_col_index(c, alt->old_col);
  if (old < 0) {
    for (int k = 0; k < c->n_part_keys; k++)
      if (strcasecmp(c->part_keys[k].name, alt->old_col) == 0)
        return hl_err_set_at(err, alt->old_col_pos, HL_ERROR,
                             HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                             "partition column \"%s\" of table \"%s.%s\" cannot be changed",
                             alt->old_col, HL_TNAME(t));
    return hl_err_set_at(err, alt->old_col_pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                         "column \"%s\" does not exist in table \"%s.%s\"", alt->old_col,
                         HL_TNAME(t));
  }
  if (alt->n_cols != 1)
    return hl_err_set_at(err, pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR),
                         "CHANGE COLUMN needs exactly one new column definition");
  rc = check_unique(c->cols, c->n_cols, old, defs[0].name, alt->cols[0].pos, err);
  if (rc == HL_OK)
    rc = check_unique(c->part_keys, c->n_part_keys, -1, defs[0].name, alt->cols[0].pos, err);
  if (rc != HL_OK) return rc;
  /* Hive keeps the old comment when CHANGE gives none. */
  if (!defs[0].comment) defs[0].comment = c->cols[old].comment;
  int n = c->n_cols;
  hl_cat_column_t *rest = hl_arena_alloc(arena, sizeof(hl_cat_column_t) * (size_t)n);
  hl_cat_column_t *cols = hl_arena_alloc(arena, sizeof(hl_cat_column_t) * (size_t)n);
  if (!rest || !cols) return hl_err_nomem(err);
  int n_rest = 0;
  for (int i = 0; i < n; i++)
    if (i != old) rest[n_rest++] = c->cols[i];
  int insert_at = old; /* no FIRST/AFTER: stays in place */
  if (alt->first) {
    insert_at = 0;
  } else if (alt->after_col) {
    insert_at = -1;
    for (int i = 0; i < n_rest; i++)
      if (strcasecmp(rest[i].name, alt->after_col) == 0) insert_at = i + 1;
    if (insert_at < 0)
      return hl_err_set_at(err, alt->after_col_pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "column \"%s\" does not exist in table \"%s.%s\"", alt->after_col,
                           HL_TNAME(t));
  }
  int k = 0;
  for (int i = 0; i <= n_rest; i++) {
    if (i == insert_at) cols[k++] = defs[0];
    if (i < n_rest) cols[k++] = rest[i];
  }
  nt->cols = cols;
  /* bucket and sort columns follow a renamed column */
  if (strcmp(c->cols[old].name, defs[0].name) != 0) {
    char **bc = hl_arena_alloc(arena, sizeof(char *) * (size_t)(c->n_bucket_cols + 1));
    hl_cat_sort_col_t *sc =
        hl_arena_alloc(arena, sizeof(hl_cat_sort_col_t) * (size_t)(c->n_sort_cols + 1));
    if (!bc || !sc) return hl_err_nomem(err);
    for (int i = 0; i < c->n_bucket_cols; i++)
      bc[i] =
          strcasecmp(c->bucket_cols[i], c->cols[old].name) == 0 ? defs[0].name : c->bucket_cols[i];
    for (int i = 0; i < c->n_sort_cols; i++) {
      sc[i] = c->sort_cols[i];
      if (strcasecmp(sc[i].name, c->cols[old].name) == 0) sc[i].name = defs[0].name;
    }
    nt->bucket_cols = bc;
    nt->sort_cols = sc;
  }
  return HL_OK;
}

/* CLUSTERED BY (cols) [SORTED BY (...)] INTO n BUCKETS on the descriptor
 * of NT (a table, or a partition's view of one): CREATE TABLE's rules
 * (hl_cmd_apply_buckets) on the same clause. */
static hl_status_t alter_clustered(const hl_ast_alter_table_t *alt, hl_arena_t *arena,
                                   hl_cat_table_t *nt, hl_error_t *err) {
  hl_ast_create_table_t clause = {0};
  clause.bucket_cols = alt->bucket_cols;
  clause.bucket_cols_pos = alt->bucket_cols_pos;
  clause.n_bucket_cols = alt->n_bucket_cols;
  clause.sort_cols = alt->sort_cols;
  clause.n_sort_cols = alt->n_sort_cols;
  clause.num_buckets = alt->num_buckets;
  return hl_cmd_apply_buckets(&clause, alt->name.pos, arena, nt, err);
}

/* ALTER TABLE t TOUCH [PARTITION (spec)]...: Hive rewrites the object so
 * that its last-modified time (parameter transient_lastDdlTime) moves and
 * its hooks fire; hivelite has no hooks, so TOUCH checks that the table
 * and each partition exist and sets transient_lastDdlTime to now, in one
 * transaction. */
static hl_status_t alter_touch(hl_session_t *s, const hl_ast_alter_table_t *alt, hl_table_t *t,
                               hl_arena_t *arena, hl_error_t *err) {
  char *now = hl_arena_sprintf(arena, "%lld", (long long)time(NULL));
  if (!now) return hl_err_nomem(err);
  if (alt->n_part_specs > 0 && t->n_part == 0)
    return hl_err_set_at(err, alt->name.pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  hl_cat_partition_t **parts =
      hl_arena_zalloc(arena, sizeof(hl_cat_partition_t *) * (size_t)(alt->n_part_specs + 1));
  if (!parts) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  for (int i = 0; rc == HL_OK && i < alt->n_part_specs; i++) {
    rc = hl_cmd_part_get_existing(s, t, &alt->part_specs[i], arena, &parts[i], err);
    if (rc == HL_OK)
      rc = hl_cmd_kv_put(&parts[i]->params, &parts[i]->n_params, "transient_lastDdlTime", now,
                         arena, err);
  }
  hl_cat_table_t nt = *t->cat;
  if (rc == HL_OK && alt->n_part_specs == 0)
    rc = hl_cmd_kv_put(&nt.params, &nt.n_params, "transient_lastDdlTime", now, arena, err);
  if (rc != HL_OK) return rc;
  return hl_cmd_cat_update(s, alt->n_part_specs == 0 ? &nt : NULL, parts, (size_t)alt->n_part_specs,
                           err);
}

/* Whether KIND changes a storage descriptor (and so has a partition form). */
static bool alters_sd(hl_ast_alter_kind_t kind) {
  return kind == HL_ALTER_ADD_COLUMNS || kind == HL_ALTER_REPLACE_COLUMNS ||
         kind == HL_ALTER_CHANGE_COLUMN || kind == HL_ALTER_SET_SERDE ||
         kind == HL_ALTER_SET_SERDEPROPS || kind == HL_ALTER_SET_FILEFORMAT ||
         kind == HL_ALTER_CLUSTERED_BY;
}

/* Stores the descriptor of NT (a table record or a partition's view) in
 * PART, or in the table (with every partition's columns too for CASCADE),
 * in one transaction. */
static hl_status_t store_altered(hl_session_t *s, bool cascade, hl_cat_partition_t *part,
                                 hl_cat_table_t *nt, hl_arena_t *arena, hl_error_t *err) {
  hl_cat_sd_t *sd = NULL;
  if (part) {
    if (!(sd = hl_arena_alloc(arena, sizeof *sd))) return hl_err_nomem(err);
    *sd = hl_cat_table_sd(nt);
    part->sd = sd;
  }
  hl_status_t rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  rc = part ? hl_cat_partition_update(s->cat, part, err) : hl_cat_table_update(s->cat, nt, err);
  if (rc == HL_OK && !part && cascade && nt->n_part_keys > 0)
    rc = hl_cat_partition_set_columns_all(s->cat, nt->id, nt->cols, nt->n_cols, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) hl_cat_rollback(s->cat);
  return rc;
}

hl_status_t hl_cmd_alter_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err) {
  const hl_ast_alter_table_t *alt = stmt->alter_table;
  long pos = stmt->pos;
  hl_table_t *t;
  hl_status_t rc = hl_table_load(s, &alt->name, arena, &t, err);
  if (rc != HL_OK) return rc;
  if (alt->kind == HL_ALTER_TOUCH) return alter_touch(s, alt, t, arena, err);
  /* a descriptor change of one partition runs the table-level code on the
   * partition's view of the table (hl_cat_table_with_sd) */
  hl_cat_partition_t *part = NULL;
  hl_cat_table_t part_view;
  hl_table_t part_table;
  if (alters_sd(alt->kind) && alt->n_part_specs == 1) {
    if (t->n_part == 0)
      return hl_err_set_at(err, alt->name.pos, HL_ERROR,
                           HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                           "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
    rc = hl_cmd_part_get_existing(s, t, &alt->part_specs[0], arena, &part, err);
    if (rc != HL_OK) return rc;
    part_view = hl_cat_table_with_sd(t->cat, part->sd);
    part_table = *t;
    part_table.cat = &part_view;
    t = &part_table;
  }
  switch (alt->kind) {
  case HL_ALTER_ADD_PARTITIONS:
  case HL_ALTER_DROP_PARTITIONS:
  case HL_ALTER_RENAME_PARTITION:
  case HL_ALTER_SET_DEFAULT_PART:
  case HL_ALTER_PART_KEY_TYPE:
    return hl_cmd_alter_partitions(s, alt, t, arena, err);
  case HL_ALTER_SET_LOCATION:
    if (alt->n_part_specs > 0) return hl_cmd_alter_partitions(s, alt, t, arena, err);
    break;
  case HL_ALTER_RENAME:
    return alter_rename(s, alt, pos, t, arena, err);
  case HL_ALTER_EXCHANGE_PARTITION:
    return hl_cmd_exchange_partition(s, alt, t, arena, err); /* cmd_exchange.c */
  default:
    if (alt->n_part_specs > 0 && !part)
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "this ALTER TABLE form is not supported for a single partition");
    break;
  }
  hl_cat_table_t nt = *t->cat;
  bool avro_cols = false; /* avro_alter_columns replaced the columns */
  switch (alt->kind) {
  case HL_ALTER_ADD_COLUMNS:
  case HL_ALTER_REPLACE_COLUMNS:
  case HL_ALTER_CHANGE_COLUMN:
    rc = alter_columns(alt, pos, t, arena, &nt, err);
    break;
  case HL_ALTER_SET_TBLPROPS:
    for (int i = 0; rc == HL_OK && i < alt->props.n; i++)
      rc = hl_cmd_kv_put(&nt.params, &nt.n_params, alt->props.items[i].key,
                         alt->props.items[i].value, arena, err);
    if (rc == HL_OK) rc = avro_alter_columns(s, alt, pos, arena, &nt, &avro_cols, err);
    break;
  case HL_ALTER_UNSET_TBLPROPS:
    rc = hl_cmd_kv_unset(t->cat, "table", alt, pos, arena, &nt.params, &nt.n_params, err);
    break;
  case HL_ALTER_SET_LOCATION:
    rc = hl_cmd_resolve_location(alt->location, NULL, pos, arena, &nt.location, err);
    if (rc == HL_OK) rc = hl_loc_allow_check_table(s, nt.location, nt.db_name, nt.name, NULL, err);
    if (rc != HL_OK) hl_err_position(err, pos);
    break;
  case HL_ALTER_SET_SERDE:
  case HL_ALTER_SET_SERDEPROPS:
    if (alt->serde_class) nt.serde_lib = alt->serde_class;
    for (int i = 0; rc == HL_OK && i < alt->props.n; i++)
      rc = hl_cmd_kv_put(&nt.serde_params, &nt.n_serde_params, alt->props.items[i].key,
                         alt->props.items[i].value, arena, err);
    if (rc == HL_OK) rc = avro_alter_columns(s, alt, pos, arena, &nt, &avro_cols, err);
    break;
  case HL_ALTER_SET_FILEFORMAT: {
    const hl_storage_format_t *fmt = hl_storage_format_find(alt->stored_as);
    if (!fmt)
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "file format \"%s\" is not supported",
                           alt->stored_as ? alt->stored_as : "");
    nt.input_format = (char *)fmt->input_format;
    nt.output_format = (char *)fmt->output_format;
    nt.serde_lib = (char *)fmt->serde;
    break;
  }
  case HL_ALTER_CLUSTERED_BY:
    rc = alter_clustered(alt, arena, &nt, err);
    /* a table bucketed now hashes as one created bucketed does (Hive 3+'s
     * bucketing_version 2, see CREATE TABLE); one bucketed before keeps
     * the version its files were written with */
    if (rc == HL_OK && !part && t->cat->num_buckets <= 0 &&
        !hl_kv_get(nt.params, nt.n_params, "bucketing_version"))
      rc = hl_cmd_kv_put(&nt.params, &nt.n_params, "bucketing_version", "2", arena, err);
    break;
  default:
    return hl_err_set_at(err, pos, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "unknown ALTER TABLE form");
  }
  if (rc != HL_OK) return rc;
  if (alt->kind == HL_ALTER_SET_TBLPROPS || alt->kind == HL_ALTER_UNSET_TBLPROPS) {
    bool incr = false; /* the incremental field's properties (plan/incr.h) */
    for (int i = 0; i < alt->props.n; i++)
      incr = incr || hl_cmd_incr_key(alt->props.items[i].key);
    for (int k = 0; alt->kind == HL_ALTER_UNSET_TBLPROPS && k < alt->n_keys; k++)
      incr = incr || hl_cmd_incr_key(alt->keys[k]);
    if (incr && (rc = hl_incr_props_check(t, nt.params, nt.n_params, err)) != HL_OK)
      return hl_err_position(err, pos), rc;
  }
  /* an Avro table's new columns from a table property are its partitions'
   * too (they read by that schema, op_scan.c): kept in step, as CASCADE
   * does, so that INSERT into an old partition writes by the new schema */
  bool cascade = alt->cascade || (avro_cols && alt->kind == HL_ALTER_SET_TBLPROPS);
  return store_altered(s, cascade, part, &nt, arena, err);
}
