/*
 * cmd_analyze.c -- ANALYZE TABLE t [PARTITION (spec)] COMPUTE STATISTICS
 * [NOSCAN | FOR COLUMNS [c, ...]].
 *
 * Basic statistics go where Hive keeps them, in the partition's (or an
 * unpartitioned table's) parameters: numFiles and totalSize from one
 * listing of the directory (hidden files skipped, as the scan does),
 * numRows by reading every row through the scan operator (op_scan.c, the
 * same code and checks a query uses), rawDataSize as the text bytes
 * without line terminators (totalSize - numRows, as Hive's
 * LazySimpleSerDe counts it for uncompressed text), and
 * COLUMN_STATS_ACCURATE as JSON: {"BASIC_STATS":"true","COLUMN_STATS":
 * {"a":"true"}}.  NOSCAN lists only: numRows stays, and the flag stays
 * true only when the listing proves the data unchanged (same numFiles and
 * totalSize), so a count is never served from stale statistics.
 *
 * FOR COLUMNS also scans (and refreshes the basic statistics on the way)
 * and stores per column numNulls, a HyperLogLog distinct count
 * (util/hll.h), min, max, avgColLen/maxColLen (strings, binary),
 * numTrues/numFalses (booleans) in the catalog's column-statistics
 * tables.  For a partitioned table the table-level basic statistics are
 * the sums over all partitions (accurate only when every partition is),
 * and table-level column statistics merge the partitions' (HyperLogLog
 * registers merge exactly).  Everything is one catalog transaction.
 * Parquet footers are not used for numRows yet: the scan reads text
 * formats only, so scanning a Parquet table is the scan's 0A000 error
 * (NOSCAN works for every format).
 */
#include "command/cmd_int.h"
#include "exec/ops.h"

#include "plan/plan.h"
#include "plan/projection.h"
#include "util/hll.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Running statistics of one column over one unit. */
typedef struct col_acc {
  int col; /* index in the table layout */
  const hl_type_t *type;
  int64_t n_values; /* non-NULL values */
  int64_t n_nulls;
  bool has_minmax;
  hl_value_t min, max; /* strings in the unit arena */
  uint64_t total_len;  /* strings/binary */
  int64_t max_len;
  int64_t n_trues, n_falses;
  hl_hll_t *hll; /* heap; NULL for booleans */
} col_acc_t;

/* What one unit (partition or unpartitioned table) yielded. */
typedef struct unit_stats {
  uint64_t files, size, rows;
  bool scanned;
} unit_stats_t;

typedef struct analyze {
  hl_session_t *s;
  hl_table_t *t;
  hl_arena_t *arena;
  const hl_ast_stmt_t *stmt;
  bool scan;       /* read rows (not NOSCAN) */
  col_acc_t *cols; /* FOR COLUMNS */
  int n_cols;
  hl_buf_t key; /* scratch for HLL keys */
  int64_t now;
} analyze_t;

static bool is_string_type(const hl_type_t *type) {
  return type->id == HL_T_STRING || type->id == HL_T_VARCHAR || type->id == HL_T_CHAR ||
         type->id == HL_T_BINARY;
}

static bool is_complex(const hl_type_t *type) {
  return hl_type_is_complex(type); /* ARRAY, MAP, STRUCT, UNIONTYPE */
}

/* ------------------------------------------------------------------------
 * Column selection and accumulation
 * ------------------------------------------------------------------------ */

static hl_status_t add_col(analyze_t *a, int col, hl_error_t *err) {
  for (int i = 0; i < a->n_cols; i++)
    if (a->cols[i].col == col) return HL_OK; /* named twice */
  col_acc_t *c = &a->cols[a->n_cols++];
  memset(c, 0, sizeof *c);
  c->col = col;
  c->type = a->t->types[col];
  if (c->type->id != HL_T_BOOLEAN) {
    c->hll = hl_malloc(sizeof *c->hll);
    if (!c->hll) return hl_err_nomem(err);
  }
  return HL_OK;
}

/* Resolves FOR COLUMNS: named data columns (a partition key or a complex
 * column is an error, as in Hive), or every primitive data column. */
static hl_status_t choose_columns(analyze_t *a, hl_error_t *err) {
  const hl_ast_stmt_t *st = a->stmt;
  hl_table_t *t = a->t;
  a->cols = hl_arena_zalloc(a->arena, sizeof *a->cols * (size_t)(t->n_data + 1));
  if (!a->cols) return hl_err_nomem(err);
  if (st->n_analyze_cols == 0) {
    for (int c = 0; c < t->n_data; c++)
      if (!is_complex(t->types[c]) && add_col(a, c, err) != HL_OK) return err->code;
    return HL_OK;
  }
  for (int i = 0; i < st->n_analyze_cols; i++) {
    const char *name = st->analyze_cols[i];
    long pos = st->analyze_cols_pos ? st->analyze_cols_pos[i] : st->pos;
    int c = hl_table_column_index(t, name);
    if (c < 0 || c >= t->n_data)
      return hl_err_set_at(err, pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "column \"%s\" for which statistics are requested does not exist in "
                           "table \"%s.%s\"%s",
                           name, HL_TNAME(t), c >= t->n_data ? " (it is a partition column)" : "");
    if (is_complex(t->types[c]))
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "column statistics of column \"%s\" of complex type are not supported",
                           name);
    if (add_col(a, c, err) != HL_OK) return err->code;
  }
  return HL_OK;
}

static void reset_cols(analyze_t *a) {
  for (int i = 0; i < a->n_cols; i++) {
    col_acc_t *c = &a->cols[i];
    hl_hll_t *hll = c->hll;
    int col = c->col;
    const hl_type_t *type = c->type;
    memset(c, 0, sizeof *c);
    c->col = col;
    c->type = type;
    c->hll = hll;
    if (hll) hl_hll_init(hll);
  }
}

static void free_cols(analyze_t *a) {
  for (int i = 0; i < a->n_cols; i++)
    hl_free(a->cols[i].hll);
}

/* Keeps a min/max value of TYPE beyond the batch: string bytes are copied
 * to ARENA (only for string and binary types: the union's other members
 * share its bytes, so a decimal or a double is no pointer). */
static hl_status_t keep_value(const hl_type_t *type, hl_value_t *dst, const hl_value_t *src,
                              hl_arena_t *arena, hl_error_t *err) {
  *dst = *src;
  if (dst->is_null || !(is_string_type(type) || type->id == HL_T_BINARY)) return HL_OK;
  if (dst->u.s.ptr && src->u.s.len) {
    char *copy = hl_arena_strndup(arena, src->u.s.ptr, src->u.s.len);
    if (!copy) return hl_err_nomem(err);
    dst->u.s.ptr = copy;
  }
  return HL_OK;
}

static hl_status_t accumulate(analyze_t *a, const hl_batch_t *b, hl_arena_t *unit_arena,
                              hl_error_t *err) {
  uint32_t live = hl_batch_live(b);
  for (int i = 0; i < a->n_cols; i++) {
    col_acc_t *c = &a->cols[i];
    const hl_vec_t *v = &b->cols[c->col];
    for (uint32_t r = 0; r < live; r++) {
      uint32_t row = hl_batch_row(b, r);
      if (hl_vec_is_null(v, row)) {
        c->n_nulls++;
        continue;
      }
      c->n_values++;
      hl_value_t val;
      hl_vec_get_value(v, row, &val);
      if (c->type->id == HL_T_BOOLEAN) {
        if (val.u.b)
          c->n_trues++;
        else
          c->n_falses++;
        continue;
      }
      hl_buf_reset(&a->key);
      hl_value_key_append(&a->key, c->type, &val);
      if (a->key.oom) return hl_err_nomem(err);
      hl_hll_add(c->hll, a->key.data, a->key.len);
      if (is_string_type(c->type)) {
        c->total_len += val.u.s.len;
        if ((int64_t)val.u.s.len > c->max_len) c->max_len = val.u.s.len;
        continue;
      }
      hl_status_t rc = HL_OK;
      if (!c->has_minmax) {
        rc = keep_value(c->type, &c->min, &val, unit_arena, err);
        if (rc == HL_OK) rc = keep_value(c->type, &c->max, &val, unit_arena, err);
        c->has_minmax = true;
      } else if (hl_value_compare(c->type, &val, &c->min) < 0) {
        rc = keep_value(c->type, &c->min, &val, unit_arena, err);
      } else if (hl_value_compare(c->type, &val, &c->max) > 0) {
        rc = keep_value(c->type, &c->max, &val, unit_arena, err);
      }
      if (rc != HL_OK) return rc;
    }
  }
  return HL_OK;
}

static char *value_text(const hl_type_t *type, const hl_value_t *v, hl_arena_t *arena) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, type, v);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* The catalog record of accumulator C, in ARENA. */
static hl_status_t make_stats(analyze_t *a, const col_acc_t *c, hl_cat_col_stats_t *out,
                              hl_error_t *err) {
  memset(out, 0, sizeof *out);
  out->col_name = (char *)a->t->names[c->col];
  out->col_type = hl_type_to_string(a->arena, c->type);
  if (!out->col_type) return hl_err_nomem(err);
  out->num_nulls = c->n_nulls;
  out->num_distinct = -1;
  out->avg_col_len = -1;
  out->max_col_len = -1;
  out->num_trues = out->num_falses = -1;
  out->last_analyzed = a->now;
  if (c->type->id == HL_T_BOOLEAN) {
    out->num_trues = c->n_trues;
    out->num_falses = c->n_falses;
    return HL_OK;
  }
  out->num_distinct = (int64_t)hl_hll_estimate(c->hll);
  out->bit_vector = (unsigned char *)c->hll->reg;
  out->bit_vector_len = sizeof c->hll->reg;
  if (is_string_type(c->type)) {
    out->avg_col_len = c->n_values ? (double)c->total_len / (double)c->n_values : 0.0;
    out->max_col_len = c->max_len;
  } else if (c->has_minmax) {
    out->low_value = value_text(c->type, &c->min, a->arena);
    out->high_value = value_text(c->type, &c->max, a->arena);
    if (!out->low_value || !out->high_value) return hl_err_nomem(err);
  }
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * One unit: list, then (unless NOSCAN) read every row
 * ------------------------------------------------------------------------ */

static hl_status_t list_unit(analyze_t *a, const char *dir, unit_stats_t *u, hl_error_t *err) {
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_stor_entry_t *entries;
  size_t n;
  hl_error_t lerr;
  hl_err_init(&lerr);
  hl_status_t rc = a->s->fs->ops->list(a->s->fs, dir, tmp, &entries, &n, &lerr);
  if (rc == HL_NOTFOUND) { /* a missing directory is an empty partition, as in a scan */
    hl_err_clear(&lerr);
    rc = HL_OK;
    n = 0;
  } else if (rc != HL_OK) {
    hl_err_move(err, &lerr);
  }
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const char *name = entries[i].name;
    if (entries[i].is_dir || name[0] == '.' || name[0] == '_') continue;
    u->files++;
    u->size += entries[i].size;
  }
  hl_arena_destroy(tmp);
  return rc;
}

static hl_status_t scan_unit(analyze_t *a, hl_cat_partition_t *part, unit_stats_t *u,
                             hl_error_t *err) {
  hl_table_t *t = a->t;
  hl_arena_t *qa = hl_arena_create(0);
  if (!qa) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  hl_op_t *scan = NULL;
  hl_plan_scan_t *plan = hl_arena_zalloc(qa, sizeof *plan);
  bool *needed = hl_arena_zalloc(qa, sizeof(bool) * (size_t)(t->n_all + 1));
  if (!plan || !needed) {
    rc = hl_err_nomem(err);
    goto done;
  }
  for (int i = 0; i < a->n_cols; i++)
    needed[a->cols[i].col] = true;
  plan->table = t;
  plan->needed = needed;
  plan->parts = part;
  plan->n_parts = plan->n_parts_total = part ? 1 : 0;
  plan->format_name = hl_table_format_name(t->cat);
  if (!plan->format_name) {
    rc = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "reading the files of table \"%s.%s\" is not supported yet", t->cat->db_name,
                    t->cat->name);
    goto done;
  }
  scan = hl_op_scan_create(a->s, NULL, plan, qa, err); /* its own lock and listing */
  if (!scan) {
    rc = err->code;
    goto done;
  }
  reset_cols(a);
  for (;;) {
    hl_batch_t *b;
    rc = scan->next(scan, &b, err);
    if (rc != HL_OK || !b) break;
    u->rows += hl_batch_live(b);
    rc = accumulate(a, b, qa, err);
    if (rc != HL_OK) break;
  }
  u->scanned = rc == HL_OK;
  if (rc == HL_OK && a->n_cols) {
    /* store now: min/max strings live in QA */
    hl_cat_col_stats_t *stats = hl_arena_alloc(a->arena, sizeof *stats * (size_t)a->n_cols);
    if (!stats) rc = hl_err_nomem(err);
    for (int i = 0; rc == HL_OK && i < a->n_cols; i++)
      rc = make_stats(a, &a->cols[i], &stats[i], err);
    if (rc == HL_OK)
      rc = hl_cat_col_stats_put(a->s->cat, t->cat->id, part ? part->id : 0, stats,
                                (size_t)a->n_cols, err);
  }
done:
  if (scan) scan->close(scan);
  hl_arena_destroy(qa);
  return rc;
}

/* ------------------------------------------------------------------------
 * Parameters
 * ------------------------------------------------------------------------ */

static hl_status_t put_u64(hl_kv_t **kvs, int *n, const char *key, uint64_t v, hl_arena_t *arena,
                           hl_error_t *err) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  return hl_cmd_kv_put(kvs, n, key, buf, arena, err);
}

static uint64_t get_u64(const hl_kv_t *kvs, int n, const char *key, bool *present) {
  const char *v = hl_kv_get(kvs, n, key);
  if (present) *present = v && *v && *v != '-';
  return v && *v != '-' ? strtoull(v, NULL, 10) : 0;
}

/* True when "name":"true" appears in the COLUMN_STATS object of FLAG. */
static bool col_flag_set(const char *flag, const char *name, hl_arena_t *arena) {
  const char *cs = flag ? strstr(flag, "\"COLUMN_STATS\":{") : NULL;
  char *pat = cs ? hl_arena_sprintf(arena, "\"%s\":\"true\"", name) : NULL;
  return pat && strstr(cs, pat) != NULL;
}

/* The new COLUMN_STATS_ACCURATE of a unit: basic statistics accurate or
 * not, plus the analyzed columns and, when the data is proven unchanged,
 * the columns that were accurate before. */
static char *accuracy_json(analyze_t *a, bool basic, const char *old_flag, bool unchanged) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "{");
  if (basic) hl_buf_puts(&b, "\"BASIC_STATS\":\"true\"");
  int n_listed = 0;
  for (int c = 0; basic && c < a->t->n_data; c++) {
    const char *name = a->t->names[c];
    bool now = false;
    for (int i = 0; i < a->n_cols; i++)
      now = now || a->cols[i].col == c;
    if (!now && !(unchanged && col_flag_set(old_flag, name, a->arena))) continue;
    hl_buf_printf(&b, "%s\"%s\":\"true\"", n_listed++ ? "," : ",\"COLUMN_STATS\":{", name);
  }
  if (n_listed) hl_buf_puts(&b, "}");
  hl_buf_puts(&b, "}");
  char *out = b.oom ? NULL : hl_arena_strndup(a->arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* Rewrites the statistics parameters of one unit in *KVS. */
static hl_status_t update_params(analyze_t *a, const unit_stats_t *u, hl_kv_t **kvs, int *n,
                                 hl_error_t *err) {
  const char *old_flag = hl_kv_get(*kvs, *n, "COLUMN_STATS_ACCURATE");
  bool was_accurate = old_flag && strstr(old_flag, "\"BASIC_STATS\":\"true\"");
  bool had_files, had_size;
  uint64_t old_files = get_u64(*kvs, *n, "numFiles", &had_files);
  uint64_t old_size = get_u64(*kvs, *n, "totalSize", &had_size);
  bool unchanged =
      was_accurate && had_files && had_size && old_files == u->files && old_size == u->size;
  if (u->scanned) {
    bool had_rows;
    uint64_t old_rows = get_u64(*kvs, *n, "numRows", &had_rows);
    unchanged = unchanged && had_rows && old_rows == u->rows;
  }
  hl_status_t rc = put_u64(kvs, n, "numFiles", u->files, a->arena, err);
  if (rc == HL_OK) rc = put_u64(kvs, n, "totalSize", u->size, a->arena, err);
  if (rc == HL_OK && u->scanned) {
    rc = put_u64(kvs, n, "numRows", u->rows, a->arena, err);
    if (rc == HL_OK)
      rc = put_u64(kvs, n, "rawDataSize", u->size > u->rows ? u->size - u->rows : 0, a->arena, err);
  }
  if (rc != HL_OK) return rc;
  /* NOSCAN: numRows is still right only if the listing shows the same data */
  bool basic = u->scanned || unchanged;
  char *flag = accuracy_json(a, basic, old_flag, unchanged);
  if (!flag) return hl_err_nomem(err);
  return hl_cmd_kv_put(kvs, n, "COLUMN_STATS_ACCURATE", flag, a->arena, err);
}

/* Copies the parameter array so that kv_put can grow it in the arena. */
static hl_status_t own_params(hl_kv_t **kvs, int *n, hl_arena_t *arena, hl_error_t *err) {
  hl_kv_t *copy = hl_arena_alloc(arena, sizeof *copy * (size_t)(*n + 1));
  if (!copy) return hl_err_nomem(err);
  if (*n) memcpy(copy, *kvs, sizeof *copy * (size_t)*n);
  *kvs = copy;
  return HL_OK;
}

/* ------------------------------------------------------------------------
 * Table level of a partitioned table
 * ------------------------------------------------------------------------ */

/* numRows of partition ID among PARTS (0 when unknown). */
static uint64_t part_rows(const hl_cat_partition_t *parts, size_t n, int64_t id) {
  for (size_t i = 0; i < n; i++)
    if (parts[i].id == id) return get_u64(parts[i].params, parts[i].n_params, "numRows", NULL);
  return 0;
}

/* Merges the column statistics of every partition into table-level ones. */
static hl_status_t merge_col_stats(analyze_t *a, const hl_cat_partition_t *parts, size_t n_parts,
                                   hl_error_t *err) {
  hl_table_t *t = a->t;
  hl_status_t rc = HL_OK;
  hl_hll_t *hll = hl_malloc(sizeof *hll);
  if (!hll) return hl_err_nomem(err);
  for (int i = 0; rc == HL_OK && i < a->n_cols; i++) {
    const col_acc_t *c = &a->cols[i];
    hl_cat_col_stats_t *ps;
    size_t n;
    rc = hl_cat_col_stats_list_parts(a->s->cat, t->cat->id, t->names[c->col], a->arena, &ps, &n,
                                     err);
    if (rc != HL_OK || n == 0) continue;
    hl_cat_col_stats_t m = ps[0];
    m.last_analyzed = a->now;
    m.col_type = hl_type_to_string(a->arena, c->type);
    if (!m.col_type) {
      rc = hl_err_nomem(err);
      break;
    }
    hl_hll_init(hll);
    double len_sum = 0, len_n = 0;
    size_t merged = 0; /* partitions with registers */
    int64_t max_dv = -1;
    hl_value_t lo = {.is_null = true}, hi = {.is_null = true};
    m.num_nulls = 0;
    if (m.num_trues >= 0) m.num_trues = m.num_falses = 0;
    m.max_col_len = m.max_col_len >= 0 ? 0 : -1;
    m.low_value = m.high_value = NULL;
    for (size_t j = 0; rc == HL_OK && j < n; j++) {
      const hl_cat_col_stats_t *p = &ps[j];
      m.num_nulls += p->num_nulls > 0 ? p->num_nulls : 0;
      if (m.num_trues >= 0) {
        m.num_trues += p->num_trues > 0 ? p->num_trues : 0;
        m.num_falses += p->num_falses > 0 ? p->num_falses : 0;
      }
      if (p->bit_vector && p->bit_vector_len == sizeof hll->reg) {
        hl_hll_merge(hll, (const hl_hll_t *)(const void *)p->bit_vector);
        merged++;
      }
      if (p->num_distinct > max_dv) max_dv = p->num_distinct;
      if (m.max_col_len >= 0 && p->max_col_len > m.max_col_len) m.max_col_len = p->max_col_len;
      /* average length weighted by the partition's non-NULL values */
      if (p->avg_col_len >= 0) {
        double w = (double)part_rows(parts, n_parts, p->partition_id) - (double)p->num_nulls;
        if (w > 0) {
          len_sum += p->avg_col_len * w;
          len_n += w;
        }
      }
      hl_value_t v;
      hl_error_t e;
      hl_err_init(&e);
      for (int side = 0; side < 2; side++) {
        const char *text = side ? p->high_value : p->low_value;
        if (!text || hl_value_from_text(a->arena, c->type, text, strlen(text), &v, &e) != HL_OK) {
          hl_err_clear(&e);
          continue;
        }
        hl_value_t *dst = side ? &hi : &lo;
        int cmp = dst->is_null ? 0 : hl_value_compare(c->type, &v, dst);
        if (dst->is_null || (side ? cmp > 0 : cmp < 0)) {
          *dst = v;
          if (side)
            m.high_value = (char *)text;
          else
            m.low_value = (char *)text;
        }
      }
    }
    if (m.avg_col_len >= 0) m.avg_col_len = len_n > 0 ? len_sum / len_n : 0;
    if (m.num_distinct >= 0 && merged < n) {
      /* some partitions without registers (an attached metastore keeps
       * none): the largest count, a lower bound as Hive's aggregators give */
      m.num_distinct = max_dv;
      m.bit_vector = NULL;
      m.bit_vector_len = 0;
    } else if (m.num_distinct >= 0) {
      m.num_distinct = (int64_t)hl_hll_estimate(hll);
      m.bit_vector = hll->reg;
      m.bit_vector_len = sizeof hll->reg;
    }
    if (rc == HL_OK) rc = hl_cat_col_stats_put(a->s->cat, t->cat->id, 0, &m, 1, err);
  }
  hl_free(hll);
  return rc;
}

/* Table parameters of a partitioned table: sums over all partitions,
 * accurate only when every partition's are. */
static hl_status_t update_table_totals(analyze_t *a, hl_error_t *err) {
  hl_table_t *t = a->t;
  hl_cat_partition_t *parts;
  size_t n;
  hl_status_t rc = hl_cat_partition_list(a->s->cat, t->cat->id, a->arena, &parts, &n, err);
  if (rc != HL_OK) return rc;
  uint64_t files = 0, size = 0, rows = 0, raw = 0;
  bool accurate = true;
  for (size_t i = 0; i < n; i++) {
    const hl_cat_partition_t *p = &parts[i];
    const char *flag = hl_kv_get(p->params, p->n_params, "COLUMN_STATS_ACCURATE");
    if (!flag || !strstr(flag, "\"BASIC_STATS\":\"true\"")) accurate = false;
    files += get_u64(p->params, p->n_params, "numFiles", NULL);
    size += get_u64(p->params, p->n_params, "totalSize", NULL);
    rows += get_u64(p->params, p->n_params, "numRows", NULL);
    raw += get_u64(p->params, p->n_params, "rawDataSize", NULL);
  }
  hl_cat_table_t *c = t->cat;
  rc = own_params(&c->params, &c->n_params, a->arena, err);
  if (rc == HL_OK) rc = put_u64(&c->params, &c->n_params, "numFiles", files, a->arena, err);
  if (rc == HL_OK) rc = put_u64(&c->params, &c->n_params, "totalSize", size, a->arena, err);
  if (rc == HL_OK && accurate) {
    rc = put_u64(&c->params, &c->n_params, "numRows", rows, a->arena, err);
    if (rc == HL_OK) rc = put_u64(&c->params, &c->n_params, "rawDataSize", raw, a->arena, err);
  }
  if (rc != HL_OK) return rc;
  /* table-level column stats are accurate when every partition's are */
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, accurate ? "{\"BASIC_STATS\":\"true\"" : "{");
  int n_listed = 0;
  for (int col = 0; accurate && col < t->n_data; col++) {
    bool all = n > 0;
    for (size_t i = 0; all && i < n; i++)
      all = col_flag_set(hl_kv_get(parts[i].params, parts[i].n_params, "COLUMN_STATS_ACCURATE"),
                         t->names[col], a->arena);
    if (all)
      hl_buf_printf(&b, "%s\"%s\":\"true\"", n_listed++ ? "," : ",\"COLUMN_STATS\":{",
                    t->names[col]);
  }
  if (n_listed) hl_buf_puts(&b, "}");
  hl_buf_puts(&b, "}");
  char *flag = b.oom ? NULL : hl_arena_strndup(a->arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  if (!flag) return hl_err_nomem(err);
  rc = hl_cmd_kv_put(&c->params, &c->n_params, "COLUMN_STATS_ACCURATE", flag, a->arena, err);
  if (rc == HL_OK && a->n_cols) rc = merge_col_stats(a, parts, n, err);
  if (rc == HL_OK) rc = hl_cat_table_update(a->s->cat, c, err);
  return rc;
}

/* ------------------------------------------------------------------------
 * The statement
 * ------------------------------------------------------------------------ */

/* The partitions PART_SPEC names: items with a value filter, items
 * without one (PARTITION (ds, hr)) take every value. */
static hl_status_t select_parts(analyze_t *a, hl_cat_partition_t **out, size_t *n_out,
                                hl_error_t *err) {
  hl_table_t *t = a->t;
  const hl_ast_part_spec_t *spec = a->stmt->part_spec;
  hl_cmd_part_filter_t f = {0};
  hl_status_t rc = spec ? hl_cmd_read_spec_compile(a->s, t, spec, a->arena, &f, err) : HL_OK;
  hl_cat_partition_t *parts;
  size_t n;
  if (rc == HL_OK) rc = hl_cat_partition_list(a->s->cat, t->cat->id, a->arena, &parts, &n, err);
  if (rc != HL_OK) return rc;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (hl_cmd_part_filter_match(t, &f, &parts[i], a->arena)) parts[kept++] = parts[i];
  if (spec && kept == 0 && f.n == t->n_part)
    return hl_err_set_at(err, spec->pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                         "partition not found in table \"%s.%s\"", HL_TNAME(t));
  *out = parts;
  *n_out = kept;
  return HL_OK;
}

hl_status_t hl_cmd_analyze(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err) {
  (void)result; /* no rows, as in Hive */
  analyze_t a = {0};
  a.s = s;
  a.arena = arena;
  a.stmt = stmt;
  a.scan = !stmt->analyze_noscan;
  a.now = (int64_t)time(NULL);
  hl_buf_init(&a.key);
  bool in_txn = false;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &a.t, err);
  if (rc != HL_OK) goto done;
  hl_table_t *t = a.t;
  if (t->n_part > 0 && hl_plan_projection_enabled(t)) {
    rc = hl_err_set_at(err, stmt->table.pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                       "ANALYZE is not supported on table \"%s.%s\": its partitions come from "
                       "partition projection, not the metastore",
                       HL_TNAME(t));
    goto done;
  }
  if (stmt->part_spec && t->n_part == 0) {
    rc = hl_err_set_at(err, stmt->part_spec->pos, HL_ERROR, HL_SS(WRONG_OBJECT_TYPE),
                       "table \"%s.%s\" is not partitioned", HL_TNAME(t));
    goto done;
  }
  if (stmt->analyze_for_columns && (rc = choose_columns(&a, err)) != HL_OK) goto done;
  hl_cat_partition_t *parts = NULL;
  size_t n_parts = 0;
  if (t->n_part > 0 && (rc = select_parts(&a, &parts, &n_parts, err)) != HL_OK) goto done;
  if ((rc = hl_cat_begin(s->cat, err)) != HL_OK) goto done;
  in_txn = true;
  size_t n_units = t->n_part > 0 ? n_parts : 1;
  for (size_t i = 0; rc == HL_OK && i < n_units; i++) {
    hl_cat_partition_t *p = t->n_part > 0 ? &parts[i] : NULL;
    unit_stats_t u = {0};
    rc = list_unit(&a, p ? p->location : t->cat->location, &u, err);
    if (rc == HL_OK && a.scan) rc = scan_unit(&a, p, &u, err);
    if (rc != HL_OK) break;
    if (p) {
      rc = own_params(&p->params, &p->n_params, arena, err);
      if (rc == HL_OK) rc = update_params(&a, &u, &p->params, &p->n_params, err);
      if (rc == HL_OK) rc = hl_cat_partition_update(s->cat, p, err);
    } else {
      hl_cat_table_t *c = t->cat;
      rc = own_params(&c->params, &c->n_params, arena, err);
      if (rc == HL_OK) rc = update_params(&a, &u, &c->params, &c->n_params, err);
      if (rc == HL_OK) rc = hl_cat_table_update(s->cat, c, err);
    }
  }
  if (rc == HL_OK && t->n_part > 0) rc = update_table_totals(&a, err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  in_txn = false;
done:
  if (in_txn) hl_cat_rollback(s->cat);
  if (rc != HL_OK && in_txn) hl_cat_rollback(s->cat);
  free_cols(&a);
  hl_buf_fini(&a.key);
  return rc;
}

/* ------------------------------------------------------------------------
 * DESCRIBE FORMATTED t col
 * ------------------------------------------------------------------------ */

static char *count_text(int64_t v, hl_arena_t *arena) {
  return v < 0 ? "" : hl_arena_sprintf(arena, "%lld", (long long)v);
}

hl_status_t hl_cmd_describe_col_stats(hl_session_t *s, hl_table_t *t, hl_cat_partition_t *p,
                                      const char *col, hl_arena_t *arena, hl_result_t *result,
                                      hl_error_t *err) {
  int idx = hl_table_column_index(t, col);
  if (idx < 0)
    return hl_err_set(err, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                      "column \"%s\" does not exist in table \"%s.%s\"", col, HL_TNAME(t));
  const hl_cat_column_t *c =
      idx < t->n_data ? &t->cat->cols[idx] : &t->cat->part_keys[idx - t->n_data];
  hl_cat_col_stats_t *st = NULL;
  if (idx < t->n_data) {
    hl_status_t rc =
        hl_cat_col_stats_get(s->cat, t->cat->id, p ? p->id : 0, c->name, arena, &st, err);
    if (rc != HL_OK) return rc;
  }
  char *avg = "";
  if (st && st->avg_col_len >= 0) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_format_double(&b, st->avg_col_len, false);
    avg = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
  }
  const char *flag = p ? hl_kv_get(p->params, p->n_params, "COLUMN_STATS_ACCURATE")
                       : hl_kv_get(t->cat->params, t->cat->n_params, "COLUMN_STATS_ACCURATE");
  const char *rows[][2] = {
      {"col_name", c->name},
      {"data_type", c->type},
      {"min", st && st->low_value ? st->low_value : ""},
      {"max", st && st->high_value ? st->high_value : ""},
      {"num_nulls", st ? count_text(st->num_nulls, arena) : ""},
      {"distinct_count", st ? count_text(st->num_distinct, arena) : ""},
      {"avg_col_len", avg},
      {"max_col_len", st ? count_text(st->max_col_len, arena) : ""},
      {"num_trues", st ? count_text(st->num_trues, arena) : ""},
      {"num_falses", st ? count_text(st->num_falses, arena) : ""},
      {"bitVector", st && st->bit_vector ? "HL" : ""}, /* HyperLogLog, as Hive labels it */
      {"comment", c->comment ? c->comment : ""},
      {"COLUMN_STATS_ACCURATE", flag ? flag : ""},
  };
  static const char *const names[] = {"column_property", "value"};
  hl_rowset_t *rs = hl_rowset_create_text(arena, 2, names);
  if (!rs) return hl_err_nomem(err);
  size_t n_rows = sizeof rows / sizeof rows[0] - (flag ? 0 : 1);
  for (size_t i = 0; i < n_rows; i++) {
    if (!rows[i][1]) return hl_err_nomem(err);
    hl_status_t rc = hl_rowset_add_text(rs, rows[i], err);
    if (rc != HL_OK) return rc;
  }
  return hl_rowset_result(rs, result, err);
}
