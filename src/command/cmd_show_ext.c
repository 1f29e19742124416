/*
 * cmd_show_ext.c -- SHOW TABLE EXTENDED [IN db] LIKE 'pattern'
 * [PARTITION (spec)].
 *
 * Prints Hive's "table status" block (TextMetaDataFormatter) for every
 * table whose name matches the pattern, one "key:value" line each,
 * followed by an empty line:
 *
 *   tableName  owner  location  inputformat  outputformat
 *   columns:struct columns { type name, ...}
 *   partitioned  partitionColumns:struct partition_columns { type name, ...}
 *   totalNumberFiles  totalFileSize  maxFileSize  minFileSize
 *   lastAccessTime  lastUpdateTime
 *
 * File statistics come from listing the table directory, or the directory
 * of every partition (of the one named by PARTITION), as Hive does; hidden
 * files (names starting with "." or "_") are skipped as scans skip them.
 * Times are milliseconds since the epoch; the local file system keeps no
 * access time we read, so lastAccessTime is the modification time.
 */
#include "command/cmd_int.h"

#include <string.h>

typedef struct file_stats {
  uint64_t n_files, total, max, min;
  int64_t last_mtime_ns;
} file_stats_t;

static hl_status_t add_dir(hl_session_t *s, const char *dir, hl_arena_t *arena, file_stats_t *fs,
                           hl_error_t *err) {
  hl_stor_entry_t *entries;
  size_t n;
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = s->fs->ops->list(s->fs, dir, arena, &entries, &n, &e);
  if (rc == HL_NOTFOUND) { /* a missing directory holds nothing */
    hl_err_clear(&e);
    return HL_OK;
  }
  if (rc != HL_OK) {
    hl_err_move(err, &e);
    return rc;
  }
  for (size_t i = 0; i < n; i++) {
    const hl_stor_entry_t *en = &entries[i];
    if (en->is_dir || en->name[0] == '.' || en->name[0] == '_') continue;
    if (fs->n_files == 0 || en->size < fs->min) fs->min = en->size;
    if (en->size > fs->max) fs->max = en->size;
    fs->total += en->size;
    fs->n_files++;
    if (en->mtime_ns > fs->last_mtime_ns) fs->last_mtime_ns = en->mtime_ns;
  }
  return HL_OK;
}

/* "struct NAME { type col, ...}" as Hive's getDDLFromFieldSchema writes it. */
static void put_struct(hl_buf_t *b, const char *name, const hl_cat_column_t *cols, int n) {
  hl_buf_printf(b, "struct %s {", name);
  for (int i = 0; i < n; i++)
    hl_buf_printf(b, "%s %s %s", i ? "," : "", cols[i].type, cols[i].name);
  hl_buf_puts(b, "}");
}

typedef struct lines {
  char **v;
  size_t n, cap;
  hl_arena_t *arena;
  bool oom;
} lines_t;

/* Appends the text of B as one line and resets B. */
static void emit(lines_t *l, hl_buf_t *b) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 32;
    char **nv = hl_arena_realloc(l->arena, l->v, sizeof(char *) * l->cap, sizeof(char *) * cap);
    if (!nv) {
      l->oom = true;
      hl_buf_reset(b);
      return;
    }
    l->v = nv;
    l->cap = cap;
  }
  char *line = b->oom ? NULL : hl_arena_strndup(l->arena, hl_buf_cstr(b), b->len);
  if (!line)
    l->oom = true;
  else
    l->v[l->n++] = line;
  hl_buf_reset(b);
}

static hl_status_t table_status(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_table_t *t,
                                hl_arena_t *arena, lines_t *l, hl_buf_t *b, hl_error_t *err) {
  const hl_cat_table_t *c = t->cat;
  const char *location = c->location;
  file_stats_t fs = {0};
  hl_status_t rc = HL_OK;
  if (stmt->part_spec) {
    if (t->n_part == 0)
      return hl_err_set_at(err, stmt->part_spec->pos, HL_ERROR,
                           HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                           "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
    char **values;
    hl_cat_partition_t *p;
    rc = hl_cmd_part_spec_full(s, t, stmt->part_spec, arena, &values, err);
    if (rc == HL_OK) rc = hl_cat_partition_get(s->cat, c->id, values, t->n_part, arena, &p, err);
    if (rc != HL_OK) return hl_err_position(err, stmt->part_spec->pos), rc;
    location = p->location;
    /* the partition's own formats and columns */
    hl_cat_table_t *view = hl_arena_alloc(arena, sizeof *view);
    if (!view) return hl_err_nomem(err);
    *view = hl_cat_table_with_sd(t->cat, p->sd);
    c = view;
    rc = add_dir(s, p->location, arena, &fs, err);
  } else if (c->view) {
    location = NULL;
  } else if (t->n_part > 0) {
    hl_cat_partition_t *parts;
    size_t n;
    rc = hl_cat_partition_list(s->cat, c->id, arena, &parts, &n, err);
    for (size_t i = 0; rc == HL_OK && i < n; i++)
      rc = add_dir(s, parts[i].location, arena, &fs, err);
  } else {
    rc = add_dir(s, c->location, arena, &fs, err);
  }
  if (rc != HL_OK) return rc;
  hl_buf_printf(b, "tableName:%s", c->name);
  emit(l, b);
  hl_buf_printf(b, "owner:%s", c->owner ? c->owner : "");
  emit(l, b);
  hl_buf_printf(b, "location:%s", location ? location : "");
  emit(l, b);
  hl_buf_printf(b, "inputformat:%s", c->input_format ? c->input_format : "");
  emit(l, b);
  hl_buf_printf(b, "outputformat:%s", c->output_format ? c->output_format : "");
  emit(l, b);
  hl_buf_puts(b, "columns:");
  put_struct(b, "columns", c->cols, c->n_cols);
  emit(l, b);
  hl_buf_printf(b, "partitioned:%s", t->n_part > 0 ? "true" : "false");
  emit(l, b);
  hl_buf_puts(b, "partitionColumns:");
  if (t->n_part > 0) put_struct(b, "partition_columns", c->part_keys, c->n_part_keys);
  emit(l, b);
  if (c->view) { /* a view has no files */
    static const char *const unknown[] = {"totalNumberFiles", "totalFileSize",  "maxFileSize",
                                          "minFileSize",      "lastAccessTime", "lastUpdateTime"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
      hl_buf_printf(b, "%s:unknown", unknown[i]);
      emit(l, b);
    }
  } else {
    int64_t ms = fs.last_mtime_ns / 1000000;
    hl_buf_printf(b, "totalNumberFiles:%llu", (unsigned long long)fs.n_files);
    emit(l, b);
    hl_buf_printf(b, "totalFileSize:%llu", (unsigned long long)fs.total);
    emit(l, b);
    hl_buf_printf(b, "maxFileSize:%llu", (unsigned long long)fs.max);
    emit(l, b);
    hl_buf_printf(b, "minFileSize:%llu", (unsigned long long)fs.min);
    emit(l, b);
    hl_buf_printf(b, "lastAccessTime:%lld", (long long)ms);
    emit(l, b);
    hl_buf_printf(b, "lastUpdateTime:%lld", (long long)ms);
    emit(l, b);
  }
  emit(l, b); /* Hive ends each table's block with an empty line */
  return l->oom ? hl_err_nomem(err) : HL_OK;
}

hl_status_t hl_cmd_show_table_extended(hl_session_t *s, const hl_ast_stmt_t *stmt,
                                       hl_arena_t *arena, hl_result_t *result, hl_error_t *err) {
  char *db = hl_table_db_name(s, stmt->db_name, arena);
  if (!db) return hl_err_nomem(err);
  hl_cat_db_t *d;
  hl_status_t rc = hl_cat_db_get(s->cat, db, arena, &d, err);
  if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  char **names;
  size_t n;
  if ((rc = hl_cat_table_list(s->cat, d->name, arena, &names, &n, err)) != HL_OK) return rc;
  hl_cmd_sort_strings(names, n);
  lines_t l = {.arena = arena};
  hl_buf_t b;
  hl_buf_init(&b);
  size_t matched = 0;
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    if (!hl_like_match(stmt->like_pattern, names[i])) continue;
    matched++;
    hl_ast_qname_t q = {.db = d->name, .name = names[i], .pos = stmt->pos};
    hl_table_t *t;
    rc = hl_table_load_or_view(s, &q, arena, &t, err);
    if (rc == HL_OK) rc = table_status(s, stmt, t, arena, &l, &b, err);
  }
  hl_buf_fini(&b);
  if (rc != HL_OK) return rc;
  if (matched == 0 && stmt->part_spec) /* Hive: the partition's table must exist */
    return hl_err_set_at(err, stmt->pos, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE),
                         "no table of database \"%s\" matches \"%s\"", d->name, stmt->like_pattern);
  return hl_cmd_lines_result(arena, "tab_name", l.v, l.n, result, err);
}
