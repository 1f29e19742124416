/*
 * cmd_show.c -- SHOW TABLES / COLUMNS / TBLPROPERTIES / CREATE TABLE /
 * CREATE DATABASE and DESCRIBE [EXTENDED | FORMATTED] [PARTITION (...)]
 * [column].
 *
 * Outputs follow Hive's column names and row layouts as HiveServer2 returns
 * them (what beeline shows): no padding, section headers such as
 * `# Partition Information` with NULL in the other columns.  SHOW CREATE
 * TABLE prints a statement that this parser reads back into an identical
 * table (every storage detail explicit, strings escaped as '\001'); SHOW
 * CREATE DATABASE likewise for a database (Hive 4's form).
 */
#include "command/cmd_int.h"

#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ SHOW TABLES */

hl_status_t hl_cmd_show_tables(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                               hl_result_t *result, hl_error_t *err) {
  char *db = hl_table_db_name(s, stmt->db_name, arena);
  if (!db) return hl_err_nomem(err);
  hl_cat_db_t *d;
  hl_status_t rc = hl_cat_db_get(s->cat, db, arena, &d, err);
  if (rc != HL_OK) {
    hl_err_position(err, stmt->pos);
    return rc;
  }
  char **names;
  size_t n;
  rc = hl_cat_table_list(s->cat, d->name, arena, &names, &n, err);
  if (rc != HL_OK) return rc;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (!stmt->like_pattern || hl_like_match(stmt->like_pattern, names[i]))
      names[kept++] = names[i];
  hl_cmd_sort_strings(names, kept);
  return hl_cmd_lines_result(arena, "tab_name", names, kept, result, err);
}

/* ----------------------------------------------------------- SHOW COLUMNS */

hl_status_t hl_cmd_show_columns(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                hl_result_t *result, hl_error_t *err) {
  hl_ast_qname_t q = stmt->table;
  if (!q.db && stmt->db_name) q.db = stmt->db_name; /* SHOW COLUMNS FROM t IN db */
  hl_table_t *t;
  hl_status_t rc = hl_table_load_or_view(s, &q, arena, &t, err);
  if (rc != HL_OK) return rc;
  /* Hive's pattern ('*', '|', any case) over every column, partition keys
   * last; SORTED orders the names, else they keep the table's order */
  char **names = hl_arena_alloc(arena, sizeof *names * (size_t)(t->n_all ? t->n_all : 1));
  if (!names) return hl_err_nomem(err);
  size_t kept = 0;
  for (int i = 0; i < t->n_all; i++)
    if (!stmt->like_pattern || hl_like_match(stmt->like_pattern, t->names[i]))
      names[kept++] = (char *)t->names[i];
  if (stmt->show_sorted) hl_cmd_sort_strings(names, kept);
  return hl_cmd_lines_result(arena, "field", names, kept, result, err);
}

/* ------------------------------------------------------ SHOW TBLPROPERTIES */

hl_status_t hl_cmd_show_tblproperties(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                      hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load_or_view(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  const hl_cat_table_t *c = t->cat;
  if (stmt->prop_key) {
    const char *v = hl_kv_get(c->params, c->n_params, stmt->prop_key);
    if (v && hl_kv_is_secret(stmt->prop_key)) v = HL_KV_MASK;
    char *line = v ? hl_arena_strdup(arena, v)
                   : hl_arena_sprintf(arena, "Table %s.%s does not have property: %s", c->db_name,
                                      c->name, stmt->prop_key);
    if (!line) return hl_err_nomem(err);
    return hl_cmd_lines_result(arena, "prpt_value", &line, 1, result, err);
  }
  static const char *const names[] = {"prpt_name", "prpt_value"};
  hl_rowset_t *rs = hl_rowset_create_text(arena, 2, names);
  hl_kv_t *kvs = hl_cmd_sorted_kvs(c->params, c->n_params, arena);
  if (!rs || !kvs) return hl_err_nomem(err);
  for (int i = 0; i < c->n_params; i++) {
    const char *row[2] = {kvs[i].key, kvs[i].value};
    rc = hl_rowset_add_text(rs, row, err);
    if (rc != HL_OK) return rc;
  }
  return hl_rowset_result(rs, result, err);
}

/* ------------------------------------------------------ SHOW CREATE TABLE */

/* Appends S as a single-quoted HiveQL literal that the lexer reads back
 * byte for byte: quote and backslash escaped, control bytes as \ooo. */
static void put_literal(hl_buf_t *b, const char *s) {
  hl_buf_putc(b, '\'');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\'' || *p == '\\') {
      hl_buf_putc(b, '\\');
      hl_buf_putc(b, (char)*p);
    } else if (*p < 0x20 || *p == 0x7F) {
      hl_buf_printf(b, "\\%03o", *p);
    } else {
      hl_buf_putc(b, (char)*p);
    }
  }
  hl_buf_putc(b, '\'');
}

static void put_ident(hl_buf_t *b, const char *s) {
  hl_buf_putc(b, '`');
  for (; *s; s++) {
    if (*s == '`') hl_buf_putc(b, '`');
    hl_buf_putc(b, *s);
  }
  hl_buf_putc(b, '`');
}

/* Lines are collected in a growable array; each line is built in LINE. */
typedef struct lines {
  char **v;
  size_t n, cap;
  hl_arena_t *arena;
  int oom;
} lines_t;

static void line_end(lines_t *l, hl_buf_t *line) {
  if (line->oom) l->oom = 1;
  if (l->oom) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 32;
    char **grown = hl_arena_realloc(l->arena, l->v, sizeof(char *) * l->cap, sizeof(char *) * cap);
    if (!grown) {
      l->oom = 1;
      return;
    }
    l->v = grown;
    l->cap = cap;
  }
  char *text = hl_arena_strndup(l->arena, hl_buf_cstr(line), line->len);
  if (!text)
    l->oom = 1;
  else
    l->v[l->n++] = text;
  hl_buf_reset(line);
}

static void put_columns(lines_t *l, hl_buf_t *b, const hl_cat_column_t *cols, int n) {
  for (int i = 0; i < n; i++) {
    hl_buf_puts(b, "  ");
    put_ident(b, cols[i].name);
    hl_buf_printf(b, " %s", cols[i].type);
    if (cols[i].comment) {
      hl_buf_puts(b, " COMMENT ");
      put_literal(b, cols[i].comment);
    }
    hl_buf_puts(b, i + 1 < n ? "," : ")");
    line_end(l, b);
  }
}

static void put_props(lines_t *l, hl_buf_t *b, const hl_kv_t *kvs, int n, const char *skip) {
  int last = -1;
  for (int i = 0; i < n; i++)
    if (!skip || strcmp(kvs[i].key, skip) != 0) last = i;
  for (int i = 0; i < n; i++) {
    if (skip && strcmp(kvs[i].key, skip) == 0) continue;
    hl_buf_puts(b, "  ");
    put_literal(b, kvs[i].key);
    hl_buf_putc(b, '=');
    put_literal(b, kvs[i].value);
    hl_buf_puts(b, i == last ? ")" : ",");
    line_end(l, b);
  }
}

hl_status_t hl_cmd_show_create_table(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                                     hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load_or_view(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  const hl_cat_table_t *c = t->cat;
  lines_t l = {.arena = arena};
  hl_buf_t b;
  hl_buf_init(&b);
  if (c->view) { /* Hive: CREATE VIEW `db`.`v` AS <expanded text> */
    hl_buf_puts(&b, "CREATE VIEW ");
    put_ident(&b, c->db_name);
    hl_buf_putc(&b, '.');
    put_ident(&b, c->name);
    hl_buf_puts(&b, " AS ");
    hl_buf_puts(&b, c->view_expanded_text);
    line_end(&l, &b);
    hl_buf_fini(&b);
    if (l.oom) return hl_err_nomem(err);
    return hl_cmd_lines_result(arena, "createtab_stmt", l.v, l.n, result, err);
  }
  hl_buf_puts(&b, c->external ? "CREATE EXTERNAL TABLE " : "CREATE TABLE ");
  put_ident(&b, c->db_name);
  hl_buf_putc(&b, '.');
  put_ident(&b, c->name);
  hl_buf_putc(&b, '(');
  line_end(&l, &b);
  put_columns(&l, &b, c->cols, c->n_cols);
  const char *comment = hl_kv_get(c->params, c->n_params, "comment");
  if (comment) {
    hl_buf_puts(&b, "COMMENT ");
    put_literal(&b, comment);
    line_end(&l, &b);
  }
  if (c->n_part_keys > 0) {
    hl_buf_puts(&b, "PARTITIONED BY (");
    line_end(&l, &b);
    put_columns(&l, &b, c->part_keys, c->n_part_keys);
  }
  if (c->num_buckets > 0) {
    if (c->n_bucket_cols > 0) {
      hl_buf_puts(&b, "CLUSTERED BY (");
      line_end(&l, &b);
      for (int i = 0; i < c->n_bucket_cols; i++) {
        hl_buf_puts(&b, "  ");
        put_ident(&b, c->bucket_cols[i]);
        hl_buf_puts(&b, i + 1 < c->n_bucket_cols ? "," : ")");
        line_end(&l, &b);
      }
    }
    if (c->n_sort_cols > 0) {
      hl_buf_puts(&b, "SORTED BY (");
      line_end(&l, &b);
      for (int i = 0; i < c->n_sort_cols; i++) {
        hl_buf_puts(&b, "  ");
        put_ident(&b, c->sort_cols[i].name);
        hl_buf_puts(&b, c->sort_cols[i].ascending ? " ASC" : " DESC");
        hl_buf_puts(&b, i + 1 < c->n_sort_cols ? "," : ")");
        line_end(&l, &b);
      }
    }
    hl_buf_printf(&b, "INTO %d BUCKETS", c->num_buckets);
    line_end(&l, &b);
  }
  hl_buf_puts(&b, "ROW FORMAT SERDE");
  line_end(&l, &b);
  hl_buf_puts(&b, "  ");
  put_literal(&b, c->serde_lib ? c->serde_lib : HL_SERDE_LAZY_SIMPLE);
  line_end(&l, &b);
  hl_kv_t *sp = hl_cmd_sorted_kvs(c->serde_params, c->n_serde_params, arena);
  hl_kv_t *tp = hl_cmd_sorted_kvs(c->params, c->n_params, arena);
  if (!sp || !tp) l.oom = 1;
  if (sp && c->n_serde_params > 0) {
    hl_buf_puts(&b, "WITH SERDEPROPERTIES (");
    line_end(&l, &b);
    put_props(&l, &b, sp, c->n_serde_params, NULL);
  }
  hl_buf_puts(&b, "STORED AS INPUTFORMAT");
  line_end(&l, &b);
  hl_buf_puts(&b, "  ");
  put_literal(&b, c->input_format ? c->input_format : "");
  line_end(&l, &b);
  hl_buf_puts(&b, "OUTPUTFORMAT");
  line_end(&l, &b);
  hl_buf_puts(&b, "  ");
  put_literal(&b, c->output_format ? c->output_format : "");
  line_end(&l, &b);
  hl_buf_puts(&b, "LOCATION");
  line_end(&l, &b);
  hl_buf_puts(&b, "  ");
  put_literal(&b, c->location);
  line_end(&l, &b);
  int n_tp = c->n_params - (comment ? 1 : 0);
  if (tp && n_tp > 0) {
    hl_buf_puts(&b, "TBLPROPERTIES (");
    line_end(&l, &b);
    put_props(&l, &b, tp, c->n_params, "comment");
  }
  hl_buf_fini(&b);
  if (l.oom) return hl_err_nomem(err);
  return hl_cmd_lines_result(arena, "createtab_stmt", l.v, l.n, result, err);
}

/* --------------------------------------------------- SHOW CREATE DATABASE */

/* Hive 4's layout: CREATE DATABASE `db`, then COMMENT, LOCATION and WITH
 * DBPROPERTIES, each keyword on its line and its value indented below.
 * The owner is not part of it (CREATE DATABASE has no clause for it: the
 * creating user owns the new database). */
hl_status_t hl_cmd_show_create_database(hl_session_t *s, const hl_ast_stmt_t *stmt,
                                        hl_arena_t *arena, hl_result_t *result, hl_error_t *err) {
  hl_cat_db_t *db;
  hl_status_t rc = hl_cat_db_get(s->cat, stmt->db_name, arena, &db, err);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(err);
    return hl_err_set_at(err, stmt->pos, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
                         "database \"%s\" does not exist", stmt->db_name);
  }
  if (rc != HL_OK) return rc;
  lines_t l = {.arena = arena};
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "CREATE DATABASE ");
  put_ident(&b, db->name);
  line_end(&l, &b);
  if (db->comment) {
    hl_buf_puts(&b, "COMMENT");
    line_end(&l, &b);
    hl_buf_puts(&b, "  ");
    put_literal(&b, db->comment);
    line_end(&l, &b);
  }
  hl_buf_puts(&b, "LOCATION");
  line_end(&l, &b);
  hl_buf_puts(&b, "  ");
  put_literal(&b, db->location);
  line_end(&l, &b);
  hl_kv_t *kvs = hl_cmd_sorted_kvs(db->params, db->n_params, arena);
  if (!kvs) l.oom = 1;
  if (kvs && db->n_params > 0) {
    hl_buf_puts(&b, "WITH DBPROPERTIES (");
    line_end(&l, &b);
    put_props(&l, &b, kvs, db->n_params, NULL);
  }
  hl_buf_fini(&b);
  if (l.oom) return hl_err_nomem(err);
  return hl_cmd_lines_result(arena, "createdb_stmt", l.v, l.n, result, err);
}

/* --------------------------------------------------------------- DESCRIBE */

typedef struct desc {
  hl_rowset_t *rs;
  hl_error_t *err;
  hl_status_t rc;
} desc_t;

static void row3(desc_t *d, const char *a, const char *b, const char *c) {
  if (d->rc != HL_OK) return;
  const char *row[3] = {a, b, c};
  d->rc = hl_rowset_add_text(d->rs, row, d->err);
}

static void desc_columns(desc_t *d, const hl_cat_column_t *cols, int n) {
  for (int i = 0; i < n; i++)
    row3(d, cols[i].name, cols[i].type, cols[i].comment ? cols[i].comment : "");
}

static void desc_partition_block(desc_t *d, const hl_cat_table_t *c) {
  if (c->n_part_keys == 0) return;
  row3(d, "", NULL, NULL);
  row3(d, "# Partition Information", NULL, NULL);
  row3(d, "# col_name", "data_type", "comment");
  desc_columns(d, c->part_keys, c->n_part_keys);
}

/* Java's Date.toString layout, which Hive prints for CreateTime. */
static char *java_time(int64_t secs, hl_arena_t *arena) {
  time_t tt = (time_t)secs;
  struct tm tm;
  char buf[64];
  if (!localtime_r(&tt, &tm) || !strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Z %Y", &tm))
    return hl_arena_sprintf(arena, "%lld", (long long)secs);
  return hl_arena_strdup(arena, buf);
}

static void desc_params(desc_t *d, const hl_kv_t *kvs, int n, hl_arena_t *arena) {
  hl_kv_t *sorted = hl_cmd_sorted_kvs(kvs, n, arena);
  if (!sorted) {
    if (d->rc == HL_OK) d->rc = hl_err_nomem(d->err);
    return;
  }
  for (int i = 0; i < n; i++)
    row3(d, "", sorted[i].key, sorted[i].value);
}

static void desc_storage(desc_t *d, const hl_cat_table_t *c, hl_arena_t *arena) {
  row3(d, "", NULL, NULL);
  row3(d, "# Storage Information", NULL, NULL);
  row3(d, "SerDe Library:", c->serde_lib ? c->serde_lib : "", NULL);
  row3(d, "InputFormat:", c->input_format ? c->input_format : "", NULL);
  row3(d, "OutputFormat:", c->output_format ? c->output_format : "", NULL);
  row3(d, "Compressed:", "No", NULL);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_printf(&b, "%d", c->num_buckets > 0 ? c->num_buckets : -1);
  char *nb = hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_reset(&b);
  hl_buf_putc(&b, '[');
  for (int i = 0; i < c->n_bucket_cols; i++)
    hl_buf_printf(&b, "%s%s", i ? ", " : "", c->bucket_cols[i]);
  hl_buf_putc(&b, ']');
  char *bc = hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_reset(&b);
  /* Hive prints Order(col:a, order:1) per sort column */
  hl_buf_putc(&b, '[');
  for (int i = 0; i < c->n_sort_cols; i++)
    hl_buf_printf(&b, "%sOrder(col:%s, order:%d)", i ? ", " : "", c->sort_cols[i].name,
                  c->sort_cols[i].ascending ? 1 : 0);
  hl_buf_putc(&b, ']');
  char *sc = b.oom ? NULL : hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  if (!nb || !bc || !sc) {
    if (d->rc == HL_OK) d->rc = hl_err_nomem(d->err);
    return;
  }
  row3(d, "Num Buckets:", nb, NULL);
  row3(d, "Bucket Columns:", bc, NULL);
  row3(d, "Sort Columns:", sc, NULL);
  row3(d, "Storage Desc Params:", NULL, NULL);
  desc_params(d, c->serde_params, c->n_serde_params, arena);
}

/* {k=v, k2=v2} as Hive's Thrift toString prints maps. */
static void put_map(hl_buf_t *b, const hl_kv_t *kvs, int n, hl_arena_t *arena) {
  hl_kv_t *sorted = hl_cmd_sorted_kvs(kvs, n, arena);
  hl_buf_putc(b, '{');
  for (int i = 0; sorted && i < n; i++)
    hl_buf_printf(b, "%s%s=%s", i ? ", " : "", sorted[i].key, sorted[i].value);
  hl_buf_putc(b, '}');
}

static void put_fields(hl_buf_t *b, const hl_cat_column_t *cols, int n) {
  hl_buf_putc(b, '[');
  for (int i = 0; i < n; i++)
    hl_buf_printf(b, "%sFieldSchema(name:%s, type:%s, comment:%s)", i ? ", " : "", cols[i].name,
                  cols[i].type, cols[i].comment ? cols[i].comment : "null");
  hl_buf_putc(b, ']');
}

/* The one-line summary of DESCRIBE EXTENDED (Hive prints the Thrift
 * object; this keeps its shape with the fields we store). */
static char *extended_summary(const hl_cat_table_t *c, const hl_cat_partition_t *p,
                              hl_arena_t *arena) {
  hl_buf_t b;
  hl_buf_init(&b);
  if (p) {
    hl_buf_puts(&b, "Partition(values:[");
    for (int i = 0; i < p->n_values; i++)
      hl_buf_printf(&b, "%s%s", i ? ", " : "", p->values[i] ? p->values[i] : "null");
    hl_buf_printf(&b, "], dbName:%s, tableName:%s, createTime:%lld, lastAccessTime:0, ", c->db_name,
                  c->name, (long long)p->create_time);
  } else {
    hl_buf_printf(&b,
                  "Table(tableName:%s, dbName:%s, owner:%s, createTime:%lld, lastAccessTime:0, "
                  "retention:0, ",
                  c->name, c->db_name, c->owner ? c->owner : "null", (long long)c->create_time);
  }
  hl_buf_puts(&b, "sd:StorageDescriptor(cols:");
  put_fields(&b, c->cols, c->n_cols);
  hl_buf_printf(&b,
                ", location:%s, inputFormat:%s, outputFormat:%s, compressed:false, "
                "numBuckets:%d, serdeInfo:SerDeInfo(name:null, serializationLib:%s, parameters:",
                p ? p->location : c->location, c->input_format ? c->input_format : "null",
                c->output_format ? c->output_format : "null",
                c->num_buckets > 0 ? c->num_buckets : -1, c->serde_lib ? c->serde_lib : "null");
  put_map(&b, c->serde_params, c->n_serde_params, arena);
  hl_buf_puts(&b, ")), ");
  if (p) {
    hl_buf_puts(&b, "parameters:");
    put_map(&b, p->params, p->n_params, arena);
    hl_buf_puts(&b, ")");
  } else {
    hl_buf_puts(&b, "partitionKeys:");
    put_fields(&b, c->part_keys, c->n_part_keys);
    hl_buf_puts(&b, ", parameters:");
    put_map(&b, c->params, c->n_params, arena);
    hl_buf_printf(&b, ", tableType:%s)",
                  c->view       ? "VIRTUAL_VIEW"
                  : c->external ? "EXTERNAL_TABLE"
                                : "MANAGED_TABLE");
  }
  char *out = b.oom ? NULL : hl_arena_strdup(arena, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return out;
}

static void desc_formatted(desc_t *d, const hl_cat_table_t *c, const hl_cat_partition_t *p,
                           hl_arena_t *arena) {
  row3(d, "# col_name", "data_type", "comment");
  desc_columns(d, c->cols, c->n_cols);
  desc_partition_block(d, c);
  row3(d, "", NULL, NULL);
  if (p) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_putc(&b, '[');
    for (int i = 0; i < p->n_values; i++)
      hl_buf_printf(&b, "%s%s", i ? ", " : "", p->values[i] ? p->values[i] : "null");
    hl_buf_putc(&b, ']');
    char *vals = b.oom ? NULL : hl_arena_strdup(arena, hl_buf_cstr(&b));
    hl_buf_fini(&b);
    char *ct = java_time(p->create_time, arena);
    if (!vals || !ct) {
      if (d->rc == HL_OK) d->rc = hl_err_nomem(d->err);
      return;
    }
    row3(d, "# Detailed Partition Information", NULL, NULL);
    row3(d, "Partition Value:", vals, NULL);
    row3(d, "Database:", c->db_name, NULL);
    row3(d, "Table:", c->name, NULL);
    row3(d, "CreateTime:", ct, NULL);
    row3(d, "LastAccessTime:", "UNKNOWN", NULL);
    row3(d, "Location:", p->location, NULL);
    row3(d, "Partition Parameters:", NULL, NULL);
    desc_params(d, p->params, p->n_params, arena);
  } else {
    char *ct = java_time(c->create_time, arena);
    if (!ct) {
      if (d->rc == HL_OK) d->rc = hl_err_nomem(d->err);
      return;
    }
    row3(d, "# Detailed Table Information", NULL, NULL);
    row3(d, "Database:", c->db_name, NULL);
    row3(d, "OwnerType:", "USER", NULL);
    row3(d, "Owner:", c->owner ? c->owner : "", NULL);
    row3(d, "CreateTime:", ct, NULL);
    row3(d, "LastAccessTime:", "UNKNOWN", NULL);
    row3(d, "Retention:", "0", NULL);
    if (!c->view) row3(d, "Location:", c->location, NULL);
    row3(d, "Table Type:",
         c->view       ? "VIRTUAL_VIEW"
         : c->external ? "EXTERNAL_TABLE"
                       : "MANAGED_TABLE",
         NULL);
    row3(d, "Table Parameters:", NULL, NULL);
    desc_params(d, c->params, c->n_params, arena);
  }
  if (c->view) { /* a view has no storage; Hive shows its query instead */
    row3(d, "", NULL, NULL);
    row3(d, "# View Information", NULL, NULL);
    row3(d, "View Original Text:", c->view_original_text, NULL);
    row3(d, "View Expanded Text:", c->view_expanded_text, NULL);
    return;
  }
  desc_storage(d, c, arena);
}

hl_status_t hl_cmd_describe(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                            hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load_or_view(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  const hl_cat_table_t *c = t->cat;
  hl_cat_partition_t *p = NULL;
  if (stmt->part_spec) {
    char **values;
    rc = hl_cmd_part_spec_full(s, t, stmt->part_spec, arena, &values, err);
    if (rc != HL_OK) return rc;
    hl_error_t e;
    hl_err_init(&e);
    rc = hl_cat_partition_get(s->cat, c->id, values, t->n_part, arena, &p, &e);
    if (rc == HL_NOTFOUND) {
      hl_err_clear(&e);
      char *name = hl_table_part_name(t, values, hl_cmd_default_part_name(s, t), arena);
      return hl_err_set_at(err, stmt->part_spec->pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                           "partition \"%s\" does not exist in table \"%s.%s\"", name ? name : "?",
                           HL_TNAME(t));
    }
    if (rc != HL_OK) {
      hl_err_move(err, &e);
      return rc;
    }
  }
  /* a partition is described with its own storage descriptor (columns,
   * formats, serde, buckets), as Hive does */
  hl_cat_table_t part_view;
  if (p && !stmt->describe_column) {
    part_view = hl_cat_table_with_sd(t->cat, p->sd);
    c = &part_view;
  }
  if (stmt->describe_column && stmt->describe_mode == 2) /* column statistics: cmd_analyze.c */
    return hl_cmd_describe_col_stats(s, t, p, stmt->describe_column, arena, result, err);
  static const char *const names[] = {"col_name", "data_type", "comment"};
  desc_t d = {hl_rowset_create_text(arena, 3, names), err, HL_OK};
  if (!d.rs) return hl_err_nomem(err);
  if (stmt->describe_column) {
    int i = hl_table_column_index(t, stmt->describe_column);
    if (i < 0)
      return hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "column \"%s\" does not exist in table \"%s.%s\"", stmt->describe_column,
                           HL_TNAME(t));
    const hl_cat_column_t *col = i < t->n_data ? &c->cols[i] : &c->part_keys[i - t->n_data];
    if (stmt->describe_mode == 2) row3(&d, "# col_name", "data_type", "comment");
    desc_columns(&d, col, 1);
  } else if (stmt->describe_mode == 2) {
    desc_formatted(&d, c, p, arena);
  } else {
    /* plain and EXTENDED list partition keys among the columns, as Hive */
    desc_columns(&d, c->cols, c->n_cols);
    desc_columns(&d, c->part_keys, c->n_part_keys);
    desc_partition_block(&d, c);
    if (stmt->describe_mode == 1) {
      char *summary = extended_summary(c, p, arena);
      if (!summary) return hl_err_nomem(err);
      row3(&d, "", NULL, NULL);
      row3(&d, p ? "Detailed Partition Information" : "Detailed Table Information", summary, "");
    }
  }
  if (d.rc != HL_OK) return d.rc;
  return hl_rowset_result(d.rs, result, err);
}
