/*
 * hms_stats.c -- the Hive Metastore's column statistics methods served
 * from the catalog's column statistics (catalog.h, hl_cat_col_stats_*,
 * the records hivelite's ANALYZE ... FOR COLUMNS writes):
 * update_table_column_statistics, update_partition_column_statistics and
 * their Hive 4 _req forms, set_aggr_stats_for, get_table_column_statistics,
 * get_partition_column_statistics, get_table_statistics_req,
 * get_partitions_statistics_req, get_aggr_stats_for,
 * delete_table_column_statistics,
 * delete_partition_column_statistics.
 *
 * The catalog keeps min/max as text in the column's type (so hivelite's
 * planner reads them like its own); the Thrift kinds map to it
 * (src/hms/hms_stats_map.c, shared with the metastore client) by the
 * column's type: boolean, the integers (LONG), float/double (DOUBLE),
 * decimal (Decimal: unscaled big-endian bytes and scale), date (days),
 * timestamp (Hive 4's TIMESTAMP kind, seconds), string/varchar/char
 * (STRING), binary (BINARY).  A kind that is not the column's is refused
 * (InvalidObjectException).  bitVectors are not kept: Hive's serialized
 * sketches are not hivelite's HyperLogLog registers, and the registers
 * hivelite keeps are not sent either (so a client never merges one into
 * the other).  Every required field of a reply is set: counts the catalog
 * does not have (-1) are sent as 0.  Writes replace what was stored
 * (needMerge is not applied), each call in one catalog transaction.
 * Basic statistics (numRows, totalSize, ...) are table and partition
 * parameters, written with alter_table / alter_partition(s).
 */
#include "hms/hms_stats_map.h"
#include "hms_server/hms_write.h"

#include "util/partpath.h"
#include "util/strbuf.h"
#include "util/type.h"
#include "util/value.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static hl_status_t failm(hl_hms_outcome_t *o, int16_t id, const char *fmt, const char *a,
                         const char *b) {
  hl_err_clear(&o->e);
  hl_err_set(&o->e, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE), fmt, a ? a : "", b ? b : "");
  return hl_hms_wfail(o, id);
}

/* The column COL of T: its index in cols, -1 if none (partition keys have
 * no column statistics in Hive either). */
static int find_col(const hl_cat_table_t *t, const char *col) {
  for (int i = 0; i < t->n_cols; i++)
    if (strcasecmp(t->cols[i].name, col) == 0) return i;
  return -1;
}

/* The statistics S of a column of T as an object (the column's current
 * type; hms_stats_map.c maps it). */
static hl_status_t to_obj(hl_hms_wcall_t *c, const hl_cat_table_t *t, const hl_cat_col_stats_t *s,
                          hl_hms_stats_obj_t *o, hl_error_t *err) {
  int ci = find_col(t, s->col_name);
  return hl_hms_stats_to_obj(c->arena, ci >= 0 ? t->cols[ci].type : NULL, s, o, err);
}

/* Statistics object O of a column of T as a catalog record; the
 * InvalidObject reason in E. */
static hl_status_t from_obj(hl_hms_wcall_t *c, const hl_cat_table_t *t, const hl_hms_stats_obj_t *o,
                            int64_t analyzed, hl_cat_col_stats_t *s, hl_error_t *e) {
  memset(s, 0, sizeof *s);
  int ci = find_col(t, o->col_name);
  if (ci < 0)
    return hl_err_set(e, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                      "column \"%s\" of table \"%s.%s\" does not exist (statistics are kept for "
                      "data columns)",
                      o->col_name, t->db_name, t->name);
  return hl_hms_stats_from_obj(c->arena, t->cols[ci].name, t->cols[ci].type, o, analyzed, s, e);
}

/* The partition of T named NAME ("k=v/..."); NULL with O set (NOSUCH). */
static hl_cat_partition_t *part_by_name(hl_hms_wcall_t *c, const hl_cat_table_t *t,
                                        const char *name, int16_t nosuch, hl_hms_outcome_t *o) {
  hl_cat_partition_t *parts;
  size_t n;
  if (!name) {
    failm(o, nosuch, "no partition name given%s%s", NULL, NULL);
    return NULL;
  }
  if (hl_cat_partition_list(c->cat, t->id, c->arena, &parts, &n, &o->e)) {
    hl_hms_wfail(o, nosuch);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    if (strcmp(parts[i].name, name) == 0) return &parts[i];
  hl_err_set(&o->e, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
             "partition \"%s\" of table \"%s.%s\" does not exist", name, t->db_name, t->name);
  hl_hms_wfail(o, nosuch);
  return NULL;
}

/* Stores ColumnStatistics CS[0..n) (each table- or partition-level as its
 * desc says, PART_LEVEL: what the method requires, -1: either) in one
 * catalog transaction.  Exception ids of every update method: 1
 * NoSuchObject, 2 InvalidObject, 3 Meta, 4 InvalidInput. */
static hl_status_t put_stats(hl_hms_wcall_t *c, const hl_hms_col_stats_t *cs, uint32_t n,
                             int part_level, hl_hms_outcome_t *o, hl_error_t *err) {
  hl_cat_col_stats_t **recs = hl_arena_zalloc(c->arena, sizeof *recs * (n ? n : 1));
  int64_t *tids = hl_arena_zalloc(c->arena, sizeof *tids * (n ? n : 1));
  int64_t *pids = hl_arena_zalloc(c->arena, sizeof *pids * (n ? n : 1));
  if (!recs || !tids || !pids) return hl_err_nomem(err);
  for (uint32_t i = 0; i < n; i++) {
    const hl_hms_stats_desc_t *dsc = &cs[i].desc;
    if (part_level >= 0 && (!dsc->is_tbl_level) != part_level)
      return failm(o, 4,
                   part_level ? "partition statistics must not be table-level%s%s"
                              : "table statistics must be table-level%s%s",
                   NULL, NULL);
    if (dsc->cat_name && strcmp(dsc->cat_name, "hive") != 0)
      return failm(o, 1, "catalog %s does not exist%s", dsc->cat_name, NULL);
    hl_cat_table_t *t = hl_hms_wtable(c, dsc->db_name, dsc->table_name, 1, 3, o);
    if (!t) return HL_ERROR;
    tids[i] = t->id;
    if (!dsc->is_tbl_level) {
      hl_cat_partition_t *p = part_by_name(c, t, dsc->part_name, 1, o);
      if (!p) return HL_ERROR;
      pids[i] = p->id;
    }
    if (!(recs[i] = hl_arena_zalloc(c->arena, sizeof **recs * (cs[i].n_objs + 1))))
      return hl_err_nomem(err);
    int64_t when = dsc->has_last_analyzed ? dsc->last_analyzed : (int64_t)time(NULL);
    for (uint32_t j = 0; j < cs[i].n_objs; j++) {
      hl_status_t rc = from_obj(c, t, &cs[i].objs[j], when, &recs[i][j], &o->e);
      if (rc) return rc == HL_NOMEM ? hl_err_nomem(err) : hl_hms_wfail(o, 2);
    }
  }
  hl_status_t rc = hl_cat_begin(c->cat, &o->e);
  for (uint32_t i = 0; rc == HL_OK && i < n; i++)
    if (cs[i].n_objs)
      rc = hl_cat_col_stats_put(c->cat, tids[i], pids[i], recs[i], cs[i].n_objs, &o->e);
  if (rc == HL_OK) rc = hl_cat_commit(c->cat, &o->e);
  if (rc) {
    hl_cat_rollback(c->cat);
    return hl_hms_wfail(o, 3);
  }
  return HL_OK;
}

static void reply_bool(hl_hms_wcall_t *c, int v) {
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_BOOL, 0);
  hl_tw_bool(c->out, v);
  hl_tw_stop(c->out);
}

/* Reads the method's arguments: strings at ids 1..5, struct 1 by READ. */
typedef struct sargs {
  char *s[6];
  int has_struct;
} sargs_t;

static hl_status_t read_sargs(hl_hms_dec_t *d, sargs_t *a, void *st,
                              hl_status_t (*read)(hl_hms_dec_t *, void *)) {
  hl_ttype_t t;
  int16_t id;
  memset(a, 0, sizeof *a);
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    if (id == 1 && t == HL_TT_STRUCT && read) {
      rc = read(d, st);
      a->has_struct = 1;
    } else if (id >= 1 && id <= 5 && t == HL_TT_STRING) {
      rc = hl_hms_read_string(d, &a->s[id]);
    } else {
      rc = hl_tr_skip(&d->r, t);
    }
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  if (!rc && read && !a->has_struct) rc = hl_tr_fail(&d->r, "no request given");
  return rc;
}

static hl_status_t rd_col_stats(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_col_stats(d, p);
}
static hl_status_t rd_set_stats(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_set_stats_request(d, p);
}
static hl_status_t rd_table_req(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_stats_request(d, 0, p);
}
static hl_status_t rd_parts_req(hl_hms_dec_t *d, void *p) {
  return hl_hms_read_stats_request(d, 1, p);
}

/* The statistics of columns COLS of table T (PID 0) or partition PID as
 * objects; *N those that have them. */
static hl_status_t get_objs(hl_hms_wcall_t *c, const hl_cat_table_t *t, int64_t pid,
                            const hl_hms_strlist_t *cols, hl_hms_stats_obj_t **out, uint32_t *n,
                            hl_error_t *e) {
  *n = 0;
  *out = hl_arena_zalloc(c->arena, sizeof **out * (cols->n + 1));
  if (!*out) return hl_err_nomem(e);
  for (uint32_t i = 0; i < cols->n; i++) {
    hl_cat_col_stats_t *s;
    char *lc = hl_arena_strdup(c->arena, cols->items[i]);
    if (!lc) return hl_err_nomem(e);
    for (char *q = lc; *q; q++)
      if (*q >= 'A' && *q <= 'Z') *q = (char)(*q - 'A' + 'a');
    hl_status_t rc = hl_cat_col_stats_get(c->cat, t->id, pid, lc, c->arena, &s, e);
    if (rc) return rc;
    if (!s) continue;
    if ((rc = to_obj(c, t, s, &(*out)[*n], e))) {
      if (rc == HL_NOMEM) return rc;
      hl_err_clear(e); /* a type without Hive statistics: left out */
      continue;
    }
    (*n)++;
  }
  return HL_OK;
}

/* get_table_column_statistics(1 db, 2 tbl, 3 col) and
 * get_partition_column_statistics(1 db, 2 tbl, 3 part, 4 col): throws
 * (1 NoSuchObject, 2 Meta, 3 InvalidInput, 4 InvalidObject) */
static hl_status_t get_one(hl_hms_wcall_t *c, const sargs_t *a, int part, hl_hms_outcome_t *o,
                           hl_error_t *err) {
  hl_cat_table_t *t = hl_hms_wtable(c, a->s[1], a->s[2], 1, 2, o);
  hl_cat_partition_t *p = NULL;
  if (!t) return HL_ERROR;
  if (part && !(p = part_by_name(c, t, a->s[3], 1, o))) return HL_ERROR;
  const char *col = a->s[part ? 4 : 3];
  if (!col) return failm(o, 3, "no column name given%s%s", NULL, NULL);
  hl_hms_strlist_t cols = {1, (char **)&col};
  hl_hms_stats_obj_t *objs;
  uint32_t n;
  if (get_objs(c, t, p ? p->id : 0, &cols, &objs, &n, &o->e)) return hl_hms_wfail(o, 2);
  if (n == 0) {
    hl_err_set(&o->e, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
               "no statistics of column \"%s\" of %s%s%s.%s", col, p ? p->name : "",
               p ? " of " : "", t->db_name, t->name);
    return hl_hms_wfail(o, 1);
  }
  hl_hms_col_stats_t cs = {0};
  cs.desc.is_tbl_level = !part;
  cs.desc.db_name = t->db_name;
  cs.desc.table_name = t->name;
  cs.desc.part_name = p ? p->name : NULL;
  cs.desc.has_last_analyzed = 1;
  hl_cat_col_stats_t *s;
  if (hl_cat_col_stats_get(c->cat, t->id, p ? p->id : 0, objs[0].col_name, c->arena, &s, &o->e) ||
      !s)
    return hl_hms_wfail(o, 2);
  cs.desc.last_analyzed = s->last_analyzed;
  cs.desc.cat_name = "hive";
  cs.n_objs = 1;
  cs.objs = objs;
  (void)err;
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_col_stats(c->out, &cs);
  hl_tw_stop(c->out);
  return HL_OK;
}

/* delete_*_column_statistics: (1 db, 2 tbl, [3 part,] col[, engine])
 * throws (1 NoSuchObject, 2 Meta, 3 InvalidObject, 4 InvalidInput); no
 * column: every column. */
static hl_status_t delete_stats(hl_hms_wcall_t *c, const sargs_t *a, int part,
                                hl_hms_outcome_t *o) {
  hl_cat_table_t *t = hl_hms_wtable(c, a->s[1], a->s[2], 1, 2, o);
  hl_cat_partition_t *p = NULL;
  if (!t) return HL_ERROR;
  if (part && !(p = part_by_name(c, t, a->s[3], 1, o))) return HL_ERROR;
  char *col = a->s[part ? 4 : 3];
  for (char *q = col; q && *q; q++)
    if (*q >= 'A' && *q <= 'Z') *q = (char)(*q - 'A' + 'a');
  bool deleted = false;
  hl_status_t rc = hl_cat_begin(c->cat, &o->e);
  if (rc == HL_OK) rc = hl_cat_col_stats_delete(c->cat, t->id, p ? p->id : 0, col, &deleted, &o->e);
  if (rc == HL_OK && deleted) rc = hl_cat_commit(c->cat, &o->e);
  if (rc || !deleted) hl_cat_rollback(c->cat);
  if (rc) return hl_hms_wfail(o, 2);
  if (!deleted) {
    hl_err_set(&o->e, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
               "no statistics of column \"%s\" of %s%s%s.%s", col ? col : "*", p ? p->name : "",
               p ? " of " : "", t->db_name, t->name);
    return hl_hms_wfail(o, 1);
  }
  reply_bool(c, 1);
  return HL_OK;
}

static __int128 dec_value(const hl_hms_decimal_t *v) {
  __int128 x = v->len && (v->unscaled[0] & 0x80) ? -1 : 0;
  for (uint32_t i = 0; i < v->len && i < 16; i++)
    x = (__int128)(((unsigned __int128)x << 8) | v->unscaled[i]);
  return x;
}

/* Folds B (another partition's statistics of the same column) into A as
 * Hive's aggregators do: nulls, trues and falses add up, distinct counts
 * and lengths take the largest (a lower bound of the whole), the range
 * widens. */
static void merge(hl_hms_stats_data_t *a, const hl_hms_stats_data_t *b) {
  a->num_nulls += b->num_nulls;
  a->num_trues += b->num_trues;
  a->num_falses += b->num_falses;
  if (b->num_dvs > a->num_dvs) a->num_dvs = b->num_dvs;
  if (b->max_col_len > a->max_col_len) a->max_col_len = b->max_col_len;
  if (b->avg_col_len > a->avg_col_len) a->avg_col_len = b->avg_col_len;
  for (int hi = 0; hi < 2; hi++) {
    int has_b = hi ? b->has_high : b->has_low, *has_a = hi ? &a->has_high : &a->has_low;
    if (!has_b) continue;
    int take = !*has_a;
    if (!take && a->kind == HL_HMS_STATS_DOUBLE) {
      double x = hi ? a->high_d : a->low_d, y = hi ? b->high_d : b->low_d;
      take = hi ? y > x : y < x;
    } else if (!take && a->kind == HL_HMS_STATS_DECIMAL) {
      __int128 x = dec_value(hi ? &a->high_dec : &a->low_dec),
               y = dec_value(hi ? &b->high_dec : &b->low_dec);
      take = hi ? y > x : y < x;
    } else if (!take) {
      int64_t x = hi ? a->high_i : a->low_i, y = hi ? b->high_i : b->low_i;
      take = hi ? y > x : y < x;
    }
    if (!take) continue;
    *has_a = 1;
    if (hi) {
      a->high_i = b->high_i;
      a->high_d = b->high_d;
      a->high_dec = b->high_dec;
    } else {
      a->low_i = b->low_i;
      a->low_d = b->low_d;
      a->low_dec = b->low_dec;
    }
  }
}

/* get_aggr_stats_for(1 PartitionsStatsRequest) throws (1 NoSuchObject,
 * 2 Meta): per column, the statistics of the named partitions folded
 * together; partsFound is the number of those partitions that have
 * statistics of every requested column (Hive's meaning). */
static hl_status_t aggr_stats(hl_hms_wcall_t *c, const hl_hms_stats_request_t *q,
                              hl_hms_outcome_t *o, hl_error_t *err) {
  hl_cat_table_t *t = hl_hms_wtable(c, q->db_name, q->tbl_name, 1, 2, o);
  if (!t) return HL_ERROR;
  hl_hms_aggr_stats_t r = {0};
  uint32_t nc = q->col_names.n;
  int *found = hl_arena_zalloc(c->arena, sizeof(int) * (nc + 1));
  if (!(r.objs = hl_arena_zalloc(c->arena, sizeof *r.objs * (nc + 1))) || !found)
    return hl_err_nomem(err);
  for (uint32_t i = 0; i < q->part_names.n; i++) {
    hl_hms_outcome_t miss = {0};
    hl_err_init(&miss.e);
    hl_cat_partition_t *p = part_by_name(c, t, q->part_names.items[i], 1, &miss);
    hl_err_clear(&miss.e);
    if (!p) continue;
    uint32_t have = 0;
    for (uint32_t j = 0; j < nc; j++) {
      hl_hms_strlist_t one = {1, &q->col_names.items[j]};
      hl_hms_stats_obj_t *obj;
      uint32_t n;
      if (get_objs(c, t, p->id, &one, &obj, &n, &o->e)) return hl_hms_wfail(o, 2);
      if (!n) continue;
      have++;
      if (found[j]++ == 0)
        r.objs[j] = obj[0];
      else
        merge(&r.objs[j].data, &obj[0].data);
    }
    r.parts_found += have == nc;
  }
  uint32_t k = 0; /* columns no partition had are left out */
  for (uint32_t j = 0; j < nc; j++)
    if (found[j]) r.objs[k++] = r.objs[j];
  r.n_objs = k;
  hl_hms_wreply_begin(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_aggr_stats(c->out, &r);
  hl_tw_stop(c->out);
  return HL_OK;
}

hl_status_t hl_hms_stats_dispatch(hl_hms_wcall_t *c, hl_hms_dec_t *d, int *handled,
                                  hl_error_t *err) {
  const char *m = c->method;
  sargs_t a;
  hl_hms_outcome_t o = {0};
  hl_status_t rc = HL_OK;
  hl_err_init(&o.e);
  *handled = 1;
  size_t mark = c->out->len;
  if (strcmp(m, "update_table_column_statistics") == 0 ||
      strcmp(m, "update_partition_column_statistics") == 0) {
    hl_hms_col_stats_t cs;
    if ((rc = read_sargs(d, &a, &cs, rd_col_stats))) return rc;
    rc = put_stats(c, &cs, 1, strstr(m, "partition") != NULL, &o, err);
    if (rc == HL_OK) reply_bool(c, 1);
  } else if (strcmp(m, "update_table_column_statistics_req") == 0 ||
             strcmp(m, "update_partition_column_statistics_req") == 0 ||
             strcmp(m, "set_aggr_stats_for") == 0) {
    hl_hms_set_stats_request_t q;
    if ((rc = read_sargs(d, &a, &q, rd_set_stats))) return rc;
    int level = m[0] == 's' ? -1 : strstr(m, "partition") != NULL;
    rc = put_stats(c, q.col_stats, q.n_col_stats, level, &o, err);
    if (rc == HL_OK && m[0] == 's') {
      reply_bool(c, 1);
    } else if (rc == HL_OK) {
      hl_hms_set_stats_response_t r = {1};
      hl_hms_wreply_begin(c);
      hl_tw_field(c->out, HL_TT_STRUCT, 0);
      hl_hms_write_set_stats_response(c->out, &r);
      hl_tw_stop(c->out);
    }
  } else if (strcmp(m, "get_table_column_statistics") == 0 ||
             strcmp(m, "get_partition_column_statistics") == 0) {
    if ((rc = read_sargs(d, &a, NULL, NULL))) return rc;
    rc = get_one(c, &a, strstr(m, "partition") != NULL, &o, err);
  } else if (strcmp(m, "get_table_statistics_req") == 0) {
    /* (1 TableStatsRequest) throws (1 NoSuchObject, 2 Meta) */
    hl_hms_stats_request_t q;
    if ((rc = read_sargs(d, &a, &q, rd_table_req))) return rc;
    hl_cat_table_t *t = hl_hms_wtable(c, q.db_name, q.tbl_name, 1, 2, &o);
    hl_hms_table_stats_result_t r = {0};
    rc = t ? HL_OK : HL_ERROR;
    if (rc == HL_OK && get_objs(c, t, 0, &q.col_names, &r.objs, &r.n_objs, &o.e))
      rc = hl_hms_wfail(&o, 2);
    if (rc == HL_OK) {
      hl_hms_wreply_begin(c);
      hl_tw_field(c->out, HL_TT_STRUCT, 0);
      hl_hms_write_table_stats_result(c->out, &r);
      hl_tw_stop(c->out);
    }
  } else if (strcmp(m, "get_partitions_statistics_req") == 0) {
    /* (1 PartitionsStatsRequest) throws (1 NoSuchObject, 2 Meta):
     * partitions (and columns) without statistics are left out */
    hl_hms_stats_request_t q;
    if ((rc = read_sargs(d, &a, &q, rd_parts_req))) return rc;
    hl_cat_table_t *t = hl_hms_wtable(c, q.db_name, q.tbl_name, 1, 2, &o);
    hl_hms_partitions_stats_result_t r = {0};
    rc = t ? HL_OK : HL_ERROR;
    if (rc == HL_OK &&
        !(r.parts = hl_arena_zalloc(c->arena, sizeof *r.parts * (q.part_names.n + 1))))
      return hl_err_nomem(err);
    for (uint32_t i = 0; rc == HL_OK && i < q.part_names.n; i++) {
      hl_hms_outcome_t miss = {0};
      hl_err_init(&miss.e);
      hl_cat_partition_t *p = part_by_name(c, t, q.part_names.items[i], 1, &miss);
      hl_err_clear(&miss.e);
      if (!p) continue;
      hl_hms_part_stats_t *ps = &r.parts[r.n_parts];
      if (get_objs(c, t, p->id, &q.col_names, &ps->objs, &ps->n_objs, &o.e))
        rc = hl_hms_wfail(&o, 2);
      ps->part_name = p->name;
      if (ps->n_objs) r.n_parts++;
    }
    if (rc == HL_OK) {
      hl_hms_wreply_begin(c);
      hl_tw_field(c->out, HL_TT_STRUCT, 0);
      hl_hms_write_partitions_stats_result(c->out, &r);
      hl_tw_stop(c->out);
    }
  } else if (strcmp(m, "get_aggr_stats_for") == 0) {
    hl_hms_stats_request_t q;
    if ((rc = read_sargs(d, &a, &q, rd_parts_req))) return rc;
    rc = aggr_stats(c, &q, &o, err);
  } else if (strcmp(m, "delete_table_column_statistics") == 0 ||
             strcmp(m, "delete_partition_column_statistics") == 0) {
    if ((rc = read_sargs(d, &a, NULL, NULL))) return rc;
    rc = delete_stats(c, &a, strstr(m, "partition") != NULL, &o);
  } else {
    *handled = 0;
  }
  if (rc != HL_OK && o.exc_id) {
    c->out->len = mark;
    hl_hms_wreply_exception(c, o.exc_id, o.e.message && o.e.message[0] ? o.e.message : NULL);
    rc = HL_OK;
  }
  hl_err_clear(&o.e);
  return rc;
}
