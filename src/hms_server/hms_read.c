/*
 * hms_read.c -- the metastore server's further read methods
 * (hl_hms_read_dispatch, hms_int.h): table objects and table metadata by
 * name, type and pattern, fields and schemas, partitions by partial values
 * (_ps), by values, by filter (hms_filter.h) and by names in a request,
 * and the small calls clients make when they connect (set_ugi,
 * getMetaConf, get_config_value, functions, notification ids).
 *
 * Arguments are read with hl_hms_read_fields (hms/hms_query.h) and taken
 * by the field ids the IDLs give them; each exception goes in the field id
 * the method's IDL declares (Hive 2.3 and 4 agree for every method here).
 * A _with_auth variant's user and groups are read and not used: hivelite's
 * metastore has no privileges, every partition is visible.
 */
#include "hms_server/hms_filter.h"
#include "hms_server/hms_int.h"
#include "hms/hms_map.h"

#include "hms/hms_call.h"
#include "hms/hms_query.h"
#include "util/like.h"
#include "util/partpath.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef hl_hms_call_t call_t;

static hl_status_t oom(hl_error_t *err) {
  return hl_err_nomem(err);
}

/* ------------------------------------------------------------ tables */

static const char *table_type(const hl_cat_table_t *t) {
  return t->view ? "VIRTUAL_VIEW" : t->external ? "EXTERNAL_TABLE" : "MANAGED_TABLE";
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list<Table> of DB's tables named in NAMES (lower-cased, sorted, each
 * once; names of no table left out, as Hive does), as the value or, when
 * WRAP, as field 1 of GetTablesResult.  NAMES NULL: every table whose name
 * matches PATTERN.  0, or -1 with c->cerr set (the database is missing). */
static int tables_by_name(call_t *c, const char *db, const hl_hms_strlist_t *names,
                          const char *pattern, int wrap, hl_error_t *err, hl_status_t *rc) {
  char **all;
  size_t n_all;
  *rc = HL_OK;
  if (!(db = hl_hms_db_arg(c, db)) ||
      hl_cat_table_list(c->cat, db, c->arena, &all, &n_all, &c->cerr))
    return -1;
  char **want = all;
  size_t n = 0;
  if (names) {
    if (!(want = hl_arena_alloc(c->arena, sizeof *want * (names->n ? names->n : 1)))) {
      *rc = oom(err);
      return 0;
    }
    for (uint32_t i = 0; i < names->n; i++) {
      char *s = hl_arena_strdup(c->arena, names->items[i]);
      if (!s) {
        *rc = oom(err);
        return 0;
      }
      for (char *p = s; *p; p++)
        *p = (char)tolower((unsigned char)*p);
      want[n++] = s;
    }
    qsort(want, n, sizeof *want, cmp_str);
  } else {
    for (size_t i = 0; i < n_all; i++)
      if (hl_like_match_metastore(pattern, all[i])) want[n++] = all[i];
  }
  hl_hms_table_t **h = hl_arena_alloc(c->arena, sizeof *h * (n ? n : 1));
  size_t k = 0;
  if (!h) {
    *rc = oom(err);
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (i && strcmp(want[i], want[i - 1]) == 0) continue;
    if (!bsearch(&want[i], all, n_all, sizeof *all, cmp_str)) continue;
    hl_cat_table_t *t;
    if (hl_cat_table_get(c->cat, db, want[i], c->arena, &t, &c->cerr)) {
      if (c->cerr.code != HL_NOTFOUND) return -1;
      hl_err_clear(&c->cerr); /* dropped meanwhile */
      hl_err_init(&c->cerr);
      continue;
    }
    if (!(h[k++] = hl_hms_map_table(t, c->arena))) {
      *rc = oom(err);
      return 0;
    }
  }
  hl_hms_begin_reply(c);
  if (wrap) {
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_tw_field(c->out, HL_TT_LIST, 1);
  } else {
    hl_tw_field(c->out, HL_TT_LIST, 0);
  }
  hl_tw_list(c->out, HL_TT_STRUCT, (uint32_t)k);
  for (size_t i = 0; i < k; i++) {
    hl_hms_write_table(c->out, h[i]);
    if (c->out->len > c->max_reply) { /* as for partition lists (hl_hms_reply_partitions) */
      char *msg = hl_arena_sprintf(c->arena,
                                   "%zu tables of %s make a reply larger than %zu bytes "
                                   "(hivelite.metastore.max_reply_bytes): ask for fewer at a time",
                                   k, db, c->max_reply);
      hl_buf_reset(c->out);
      if (wrap)
        hl_hms_reply_exception(c, 1, msg ? msg : "reply too large");
      else /* Hive 2.3 declares no exception here */
        hl_hms_write_app_exception_reply(c->out, c->method, c->seqid, HL_TAPP_INTERNAL_ERROR,
                                         msg ? msg : "reply too large");
      return 0;
    }
  }
  if (wrap) hl_tw_stop(c->out);
  hl_tw_stop(c->out);
  return 0;
}

/* get_table_objects_by_name (Hive 2.3: no exceptions declared, so a
 * missing database is an empty list) and _req (1 MetaException,
 * 3 UnknownDBException). */
static hl_status_t do_table_objects(call_t *c, hl_hms_dec_t *d, int req, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, req ? 1 : 0, &f);
  if (rc) return rc;
  const hl_hms_fields_t *q = req ? f.sub : &f;
  if (req && (!q || !q->s[1])) return hl_tr_fail(&d->r, "GetTablesRequest without its dbName");
  if (req && q->s[4] && strcmp(q->s[4], HL_HMS_CATALOG) != 0) {
    char *msg = hl_arena_sprintf(c->arena, "catalog %s does not exist", q->s[4]);
    hl_hms_reply_exception(c, 3, msg ? msg : "catalog does not exist");
    return HL_OK;
  }
  const hl_hms_strlist_t *names = hl_hms_fields_has(q, 2) ? &q->l[2] : NULL;
  static const hl_hms_strlist_t none = {0, NULL};
  if (!req && !names) names = &none;
  if (tables_by_name(c, q->s[1], names, req ? q->s[8] : NULL, req, err, &rc) == 0) return rc;
  if (!req && c->cerr.code == HL_NOTFOUND) {
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_LIST, 0);
    hl_tw_list(c->out, HL_TT_STRUCT, 0);
    hl_tw_stop(c->out);
    return HL_OK;
  }
  if (!req) { /* Hive 2.3 declares no exception here: the runtime's own kind */
    hl_hms_write_app_exception_reply(c->out, c->method, c->seqid, HL_TAPP_INTERNAL_ERROR,
                                     c->cerr.message ? c->cerr.message : "metastore error");
    return HL_OK;
  }
  hl_hms_reply_cat_error(c, c->cerr.code == HL_NOTFOUND ? 3 : 0, 1);
  return HL_OK;
}

/* The tables of database DB (all, or those whose type is in TYPES when
 * N_TYPES > 0) matching PATTERN, with their records; a missing database
 * has none. */
static hl_status_t typed_tables(call_t *c, const char *db, const char *pattern, char **types,
                                uint32_t n_types, hl_cat_table_t ***out, size_t *n_out,
                                hl_error_t *err) {
  char **names;
  size_t n;
  *n_out = 0;
  if (hl_cat_table_list(c->cat, db, c->arena, &names, &n, &c->cerr))
    return c->cerr.code == HL_NOTFOUND ? HL_NOTFOUND : HL_ERROR;
  hl_cat_table_t **v = hl_arena_alloc(c->arena, sizeof *v * (n ? n : 1));
  if (!v) return oom(err);
  for (size_t i = 0; i < n; i++) {
    hl_cat_table_t *t;
    if (!hl_like_match_metastore(pattern, names[i])) continue;
    if (hl_cat_table_get(c->cat, db, names[i], c->arena, &t, &c->cerr)) {
      if (c->cerr.code != HL_NOTFOUND) return HL_ERROR;
      hl_err_clear(&c->cerr);
      hl_err_init(&c->cerr);
      continue;
    }
    int keep = n_types == 0;
    for (uint32_t j = 0; j < n_types && !keep; j++)
      keep = types[j] && strcmp(types[j], table_type(t)) == 0;
    if (keep) v[(*n_out)++] = t;
  }
  *out = v;
  return HL_OK;
}

static void clear_notfound(call_t *c) {
  hl_err_clear(&c->cerr);
  hl_err_init(&c->cerr);
}

/* get_tables_by_type(db, pattern, tableType): names; a missing database
 * is an empty list, as for get_tables; no type (or "") is every type. */
static hl_status_t do_tables_by_type(call_t *c, hl_hms_dec_t *d, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, 0, &f);
  if (rc) return rc;
  const char *db = hl_hms_db_arg(c, f.s[1]);
  hl_cat_table_t **t = NULL;
  size_t n = 0;
  char *type = f.s[3] && *f.s[3] ? f.s[3] : NULL;
  if (db) {
    rc = typed_tables(c, db, f.s[2], &type, type ? 1 : 0, &t, &n, err);
    if (rc == HL_NOMEM) return rc;
    if (rc == HL_ERROR) {
      hl_hms_reply_cat_error(c, 0, 1);
      return HL_OK;
    }
  }
  char **names = hl_arena_alloc(c->arena, sizeof *names * (n ? n : 1));
  if (!names) return oom(err);
  for (size_t i = 0; i < n; i++)
    names[i] = t[i]->name;
  clear_notfound(c);
  hl_hms_reply_strlist(c, names, n);
  return HL_OK;
}

/* get_table_meta(db_patterns, tbl_patterns, tbl_types): a TableMeta for
 * every matching table, by database then table name. */
static hl_status_t do_table_meta(call_t *c, hl_hms_dec_t *d, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, 0, &f);
  if (rc) return rc;
  char **dbs;
  size_t n_dbs;
  int other = 0;
  const char *db_pattern = f.s[1] ? hl_hms_strip_catalog(f.s[1], &other) : NULL;
  if (hl_cat_db_list(c->cat, c->arena, &dbs, &n_dbs, &c->cerr)) {
    hl_hms_reply_cat_error(c, 0, 1);
    return HL_OK;
  }
  if (other) n_dbs = 0;
  hl_buf_t *b = c->out;
  size_t count = 0, count_at;
  hl_hms_begin_reply(c);
  hl_tw_field(b, HL_TT_LIST, 0);
  count_at = b->len;
  hl_tw_list(b, HL_TT_STRUCT, 0); /* the count is patched below */
  for (size_t i = 0; i < n_dbs; i++) {
    if (!hl_like_match_metastore(db_pattern, dbs[i])) continue;
    hl_cat_table_t **t;
    size_t n;
    rc = typed_tables(c, dbs[i], f.s[2], f.l[3].items, f.l[3].n, &t, &n, err);
    if (rc == HL_NOMEM) return rc;
    if (rc == HL_ERROR) {
      hl_buf_reset(b);
      hl_hms_reply_cat_error(c, 0, 1);
      return HL_OK;
    }
    clear_notfound(c);
    for (size_t j = 0; j < n; j++) {
      hl_hms_table_meta_t m = {t[j]->db_name,  t[j]->name,  (char *)table_type(t[j]), NULL,
                               HL_HMS_CATALOG, t[j]->owner, t[j]->owner != NULL,      1 /* USER */};
      m.comments = (char *)hl_kv_get(t[j]->params, t[j]->n_params, "comment");
      hl_hms_write_table_meta(b, &m);
      count++;
    }
  }
  hl_tw_stop(b);
  if (hl_tw_check(b, err)) return HL_NOMEM;
  uint8_t *p = (uint8_t *)b->data + count_at + 1; /* after the element type */
  p[0] = (uint8_t)(count >> 24);
  p[1] = (uint8_t)(count >> 16);
  p[2] = (uint8_t)(count >> 8);
  p[3] = (uint8_t)count;
  return HL_OK;
}

/* get_table_names_by_filter(db, filter, max_tables): the filter language
 * of partitions over the table fields Hive names (hive_metastore.thrift's
 * HIVE_FILTER_FIELD_* constants): hive_filter_field_owner__,
 * hive_filter_field_last_access__ (an int: hivelite keeps 0),
 * hive_filter_field_tableName__, hive_filter_field_tableType__ and
 * hive_filter_field_params__<key>; a table without that parameter (or
 * without an owner) is unknown, so neither = nor <> holds for it, as the
 * IDL says.  Trino lists its views with params__presto_view = "true".
 * 1 MetaException (a bad filter), 2 InvalidOperationException (no
 * filter), 3 UnknownDBException. */
#define TF_PREFIX "hive_filter_field_"
static hl_status_t do_table_names_by_filter(call_t *c, hl_hms_dec_t *d, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, 0, &f);
  if (rc) return rc;
  const char *db = hl_hms_db_arg(c, f.s[1]);
  if (!f.s[2] || !*f.s[2]) {
    hl_hms_reply_exception(c, 2, "get_table_names_by_filter needs a filter");
    return HL_OK;
  }
  char **names;
  size_t n_names;
  hl_error_t ferr;
  hl_err_init(&ferr);
  if ((rc = hl_hms_filter_names(f.s[2], c->arena, &names, &n_names, &ferr))) {
    if (rc == HL_NOMEM) {
      hl_err_clear(&ferr);
      return oom(err);
    }
    hl_hms_reply_exception(c, 1, ferr.message ? ferr.message : "bad filter");
    hl_err_clear(&ferr);
    return HL_OK;
  }
  /* what each name reads: 'o'wner, 'a'ccess, 'n'ame, 't'ype, 'p'arameter */
  hl_cat_column_t *keys = hl_arena_zalloc(c->arena, sizeof *keys * (n_names ? n_names : 1));
  char *what = hl_arena_alloc(c->arena, n_names + 1);
  if (!keys || !what) return oom(err);
  for (size_t i = 0; i < n_names; i++) {
    const char *nm = names[i], *rest = nm;
    keys[i].name = names[i];
    keys[i].type = "string";
    what[i] = 0;
    if (strncmp(nm, TF_PREFIX, strlen(TF_PREFIX)) == 0) {
      rest = nm + strlen(TF_PREFIX);
      if (strcmp(rest, "owner__") == 0) what[i] = 'o';
      if (strcmp(rest, "last_access__") == 0) what[i] = 'a';
      if (strcmp(rest, "tableName__") == 0) what[i] = 'n';
      if (strcmp(rest, "tableType__") == 0) what[i] = 't';
      if (strncmp(rest, "params__", 8) == 0 && rest[8]) what[i] = 'p';
    }
    if (what[i] == 'a') keys[i].type = "int";
    if (!what[i]) {
      char *msg =
          hl_arena_sprintf(c->arena,
                           "filter: \"%s\" is not a table field (hive_filter_field_owner__, "
                           "_last_access__, _tableName__, _tableType__, _params__<key>)",
                           nm);
      hl_hms_reply_exception(c, 1, msg ? msg : "filter: not a table field");
      return HL_OK;
    }
  }
  hl_hms_filter_t *filter;
  if ((rc = hl_hms_filter_parse(f.s[2], keys, (int)n_names, c->arena, &filter, &ferr))) {
    if (rc == HL_NOMEM) {
      hl_err_clear(&ferr);
      return oom(err);
    }
    hl_hms_reply_exception(c, 1, ferr.message ? ferr.message : "bad filter");
    hl_err_clear(&ferr);
    return HL_OK;
  }
  hl_cat_table_t **t = NULL;
  size_t n = 0;
  if (!db || (rc = typed_tables(c, db, NULL, NULL, 0, &t, &n, err)) == HL_NOTFOUND) {
    hl_hms_reply_cat_error(c, 3, 1);
    return HL_OK;
  }
  if (rc == HL_NOMEM) return rc;
  if (rc) {
    hl_hms_reply_cat_error(c, 0, 1);
    return HL_OK;
  }
  int64_t max = hl_hms_fields_has(&f, 3) ? f.i[3] : -1;
  char **out = hl_arena_alloc(c->arena, sizeof *out * (n ? n : 1));
  char **vals = hl_arena_alloc(c->arena, sizeof *vals * (n_names ? n_names : 1));
  hl_arena_t *scratch = hl_arena_create(1024);
  size_t k = 0;
  if (!out || !vals || !scratch) {
    hl_arena_destroy(scratch);
    return oom(err);
  }
  for (size_t i = 0; i < n && (max < 0 || (int64_t)k < max); i++) {
    for (size_t j = 0; j < n_names; j++) {
      /* 'p': names[j] is TF_PREFIX "params__" KEY */
      const char *key = names[j] + (what[j] == 'p' ? strlen(TF_PREFIX) + 8 : 0);
      vals[j] = what[j] == 'o'   ? t[i]->owner
                : what[j] == 'a' ? "0"
                : what[j] == 'n' ? t[i]->name
                : what[j] == 't' ? (char *)table_type(t[i])
                                 : (char *)hl_kv_get(t[i]->params, t[i]->n_params, key);
    }
    if (hl_hms_filter_match(filter, vals, scratch)) out[k++] = t[i]->name;
    hl_arena_reset(scratch);
  }
  hl_arena_destroy(scratch);
  clear_notfound(c);
  hl_hms_reply_strlist(c, out, k);
  return HL_OK;
}

/* ------------------------------------------------------------ fields */

/* get_fields / get_schema (SCHEMA: the partition keys after the columns),
 * with or without an environment context, and Hive 4's _req forms (REQ:
 * a GetFieldsRequest / GetSchemaRequest, the answer its Response).
 * Exceptions: 1 MetaException, 2 UnknownTableException, 3
 * UnknownDBException. */
static hl_status_t do_fields(call_t *c, hl_hms_dec_t *d, int schema, int req, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, req ? 1 : 0, &f);
  if (rc) return rc;
  const char *db = f.s[1], *tbl = f.s[2];
  if (req) {
    if (!f.sub || !f.sub->s[2] || !f.sub->s[3])
      return hl_tr_fail(&d->r, "%s without its dbName or tblName", c->method);
    if (f.sub->s[1] && strcmp(f.sub->s[1], HL_HMS_CATALOG) != 0) {
      char *msg = hl_arena_sprintf(c->arena, "catalog %s does not exist", f.sub->s[1]);
      hl_hms_reply_exception(c, 3, msg ? msg : "catalog does not exist");
      return HL_OK;
    }
    db = f.sub->s[2];
    tbl = f.sub->s[3];
  }
  hl_cat_table_t *t = hl_hms_get_table(c, db, tbl);
  if (!t) {
    int no_db = c->cerr.sqlstate[0] && strcmp(c->cerr.sqlstate, HL_SS(INVALID_SCHEMA_NAME)) == 0;
    hl_hms_reply_cat_error(c, no_db ? 3 : 2, 1);
    return HL_OK;
  }
  int n = t->n_cols + (schema ? t->n_part_keys : 0);
  hl_hms_field_schema_t *cols = hl_arena_zalloc(c->arena, sizeof *cols * (size_t)(n ? n : 1));
  if (!cols) return oom(err);
  for (int i = 0; i < n; i++) {
    const hl_cat_column_t *col = i < t->n_cols ? &t->cols[i] : &t->part_keys[i - t->n_cols];
    cols[i].name = col->name;
    cols[i].type = col->type;
    cols[i].comment = col->comment;
  }
  hl_hms_begin_reply(c);
  if (req) {
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_hms_write_fields_response(c->out, cols, (uint32_t)n);
  } else {
    hl_tw_field(c->out, HL_TT_LIST, 0);
    hl_hms_write_field_list(c->out, cols, (uint32_t)n);
  }
  hl_tw_stop(c->out);
  return HL_OK;
}

/* ------------------------------------------------------------ partitions */

/* How a partition-list method takes its arguments and where its
 * exceptions go.  The _req forms (Hive 4) take one request struct in
 * argument 1 (1 catName, 2 dbName, 3 tblName, then the ids below) and
 * answer a Response struct whose field WRAP holds the value (0: the value
 * itself, as get_partitions_by_filter_req). */
typedef struct part_method {
  const char *name;
  int req;        /* the arguments are fields of request struct 1 */
  int db_id;      /* field of the database name */
  int vals_id;    /* field of list<string> part_vals; 0: none */
  int max_id;     /* field of i16 max_parts; 0: none */
  int filter_id;  /* field of the filter string; 0: none */
  int names_id;   /* field of list<string> partition names (a _req's partNames); 0: none */
  int16_t nosuch; /* NoSuchObjectException's field */
  int16_t meta;   /* MetaException's field */
  enum { R_PARTS, R_NAMES, R_COUNT, R_ONE } result;
  int16_t wrap;
} part_method_t;

static const part_method_t part_methods[] = {
    {"get_partition_names_ps", 0, 1, 3, 4, 0, 0, 2, 1, R_NAMES, 0},
    {"get_partitions_ps", 0, 1, 3, 4, 0, 0, 2, 1, R_PARTS, 0},
    {"get_partitions_ps_with_auth", 0, 1, 3, 4, 0, 0, 1, 2, R_PARTS, 0},
    {"get_partitions_with_auth", 0, 1, 0, 3, 0, 0, 1, 2, R_PARTS, 0},
    {"get_partition", 0, 1, 3, 0, 0, 0, 2, 1, R_ONE, 0},
    {"get_partition_with_auth", 0, 1, 3, 0, 0, 0, 2, 1, R_ONE, 0},
    {"get_partitions_by_filter", 0, 1, 0, 4, 3, 0, 2, 1, R_PARTS, 0},
    {"get_num_partitions_by_filter", 0, 1, 0, 0, 3, 0, 2, 1, R_COUNT, 0},
    {"get_partition_req", 1, 2, 4, 0, 0, 0, 2, 1, R_ONE, 1},
    {"get_partition_names_ps_req", 1, 2, 4, 5, 0, 0, 2, 1, R_NAMES, 1},
    {"get_partitions_ps_with_auth_req", 1, 2, 4, 5, 0, 13, 2, 1, R_PARTS, 1},
    {"get_partitions_by_filter_req", 1, 2, 0, 5, 4, 0, 2, 1, R_PARTS, 0},
};

/* Whether P's values match VALS: Hive's partial specification (as its
 * MetaStoreUtils.makePartNameMatcher): the first vals->n keys, an empty
 * string matching any value. */
static bool ps_match(const hl_cat_partition_t *p, const hl_hms_strlist_t *vals) {
  for (uint32_t i = 0; i < vals->n && i < (uint32_t)p->n_values; i++) {
    const char *want = vals->items[i], *have = p->values[i];
    if (!*want) continue;
    if (strcmp(want, have ? have : HL_DEFAULT_PARTITION_NAME) != 0) return false;
  }
  return true;
}

static hl_status_t do_part_method(call_t *c, hl_hms_dec_t *d, const part_method_t *pm,
                                  hl_error_t *err) {
  hl_hms_fields_t args;
  hl_status_t rc = hl_hms_read_fields(d, pm->req, &args);
  if (rc) return rc;
  const hl_hms_fields_t *a = pm->req ? args.sub : &args;
  if (pm->req) {
    if (!a || !a->s[2] || !a->s[3])
      return hl_tr_fail(&d->r, "%s without its dbName or tblName", c->method);
    if (a->s[1] && strcmp(a->s[1], HL_HMS_CATALOG) != 0) {
      char *msg = hl_arena_sprintf(c->arena, "catalog %s does not exist", a->s[1]);
      hl_hms_reply_exception(c, pm->nosuch, msg ? msg : "catalog does not exist");
      return HL_OK;
    }
  }
  const hl_hms_fields_t f = *a;
  hl_cat_table_t *t = hl_hms_get_table(c, f.s[pm->db_id], f.s[pm->db_id + 1]);
  hl_cat_partition_t *parts = NULL;
  size_t n = 0;
  if (!t) {
    hl_hms_reply_cat_error(c, pm->nosuch, pm->meta);
    return HL_OK;
  }
  /* a _req's partNames: only those partitions (sorted for the lookup) */
  hl_hms_strlist_t names = {0, NULL};
  int by_names = pm->names_id && hl_hms_fields_has(&f, pm->names_id);
  if (by_names) {
    names = f.l[pm->names_id];
    qsort(names.items, names.n, sizeof *names.items, cmp_str);
  }
  const hl_hms_strlist_t *vals = pm->vals_id ? &f.l[pm->vals_id] : NULL;
  if (vals && (vals->n > (uint32_t)t->n_part_keys ||
               (pm->result == R_ONE && vals->n != (uint32_t)t->n_part_keys))) {
    char *msg = hl_arena_sprintf(c->arena,
                                 "%u partition values given for %s.%s, which has %d partition keys",
                                 vals->n, t->db_name, t->name, t->n_part_keys);
    hl_hms_reply_exception(c, pm->meta, msg ? msg : "wrong number of partition values");
    return HL_OK;
  }
  if (pm->result == R_ONE) {
    char **v = hl_arena_alloc(c->arena, sizeof *v * (vals->n ? vals->n : 1));
    hl_cat_partition_t *p;
    if (!v) return oom(err);
    for (uint32_t i = 0; i < vals->n; i++)
      v[i] = strcmp(vals->items[i], HL_DEFAULT_PARTITION_NAME) == 0 ? NULL : vals->items[i];
    if (hl_cat_partition_get(c->cat, t->id, v, (int)vals->n, c->arena, &p, &c->cerr)) {
      if (c->cerr.code == HL_NOTFOUND) {
        hl_buf_t shown;
        hl_buf_init(&shown);
        for (uint32_t i = 0; i < vals->n; i++) {
          if (i) hl_buf_append(&shown, ", ", 2);
          hl_buf_append(&shown, vals->items[i], strlen(vals->items[i]));
        }
        char *msg =
            hl_arena_sprintf(c->arena, "partition (%.*s) of %s.%s does not exist", (int)shown.len,
                             shown.len ? shown.data : "", t->db_name, t->name);
        hl_buf_fini(&shown);
        hl_hms_reply_exception(c, pm->nosuch, msg ? msg : "partition does not exist");
      } else {
        hl_hms_reply_cat_error(c, 0, pm->meta);
      }
      return HL_OK;
    }
    hl_hms_partition_t *h = hl_hms_map_partition(t, p, c->arena);
    if (!h) return oom(err);
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    if (pm->wrap) hl_tw_field(c->out, HL_TT_STRUCT, pm->wrap);
    hl_hms_write_partition(c->out, h);
    if (pm->wrap) hl_tw_stop(c->out);
    hl_tw_stop(c->out);
    return HL_OK;
  }
  hl_hms_filter_t *filter = NULL;
  if (pm->filter_id) {
    const char *text = f.s[pm->filter_id];
    if (text && *text) {
      hl_error_t ferr;
      hl_err_init(&ferr);
      rc = hl_hms_filter_parse(text, t->part_keys, t->n_part_keys, c->arena, &filter, &ferr);
      if (rc == HL_NOMEM) {
        hl_err_clear(&ferr);
        return oom(err);
      }
      if (rc) {
        hl_hms_reply_exception(c, pm->meta, ferr.message ? ferr.message : "bad partition filter");
        hl_err_clear(&ferr);
        return HL_OK;
      }
    }
  }
  /* What the catalog can select itself: named partitions, values pinned
   * by the partial specification (through the value index), the count. */
  const char **eq = NULL;
  for (uint32_t i = 0; vals && i < vals->n; i++) {
    const char *v = vals->items[i];
    if (!*v || strcmp(v, HL_DEFAULT_PARTITION_NAME) == 0) continue; /* ps_match decides */
    if (!eq && !(eq = hl_arena_zalloc(c->arena, sizeof *eq * (size_t)t->n_part_keys)))
      return oom(err);
    eq[i] = v;
  }
  if (pm->result == R_COUNT && !filter && !eq && !by_names) {
    if (hl_cat_partition_count(c->cat, t->id, &n, &c->cerr)) {
      hl_hms_reply_cat_error(c, pm->nosuch, pm->meta);
      return HL_OK;
    }
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_I32, 0);
    hl_tw_i32(c->out, (int32_t)n);
    hl_tw_stop(c->out);
    return HL_OK;
  }
  int got = by_names ? hl_hms_parts_by_name(c, t, &names, &parts, &n)
            : hl_cat_partition_names(c->cat, t->id, eq, c->arena, &parts, &n, &c->cerr) != HL_OK
                ? -1
                : 0;
  if (got) {
    hl_hms_reply_cat_error(c, pm->nosuch, pm->meta);
    return HL_OK;
  }
  int64_t max = pm->max_id && hl_hms_fields_has(&f, pm->max_id) ? f.i[pm->max_id] : -1;
  hl_cat_partition_t **sel = hl_arena_alloc(c->arena, sizeof *sel * (n ? n : 1));
  size_t k = 0;
  hl_arena_t *scratch = filter ? hl_arena_create(4096) : NULL;
  if (!sel || (filter && !scratch)) {
    hl_arena_destroy(scratch);
    return oom(err);
  }
  for (size_t i = 0; i < n && (max < 0 || (int64_t)k < max); i++) {
    if (vals && !ps_match(&parts[i], vals)) continue;
    if (filter) {
      bool ok = hl_hms_filter_match(filter, parts[i].values, scratch);
      hl_arena_reset(scratch);
      if (!ok) continue;
    }
    sel[k++] = &parts[i];
  }
  hl_arena_destroy(scratch);
  if (pm->result == R_COUNT) {
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_I32, 0);
    hl_tw_i32(c->out, (int32_t)k);
    hl_tw_stop(c->out);
    return HL_OK;
  }
  if (pm->result == R_NAMES) {
    char **out = hl_arena_alloc(c->arena, sizeof *out * (k ? k : 1));
    if (!out) return oom(err);
    for (size_t i = 0; i < k; i++)
      out[i] = sel[i]->name;
    if (!pm->wrap) {
      hl_hms_reply_strlist(c, out, k);
      return HL_OK;
    }
    hl_hms_strlist_t l = {(uint32_t)k, out};
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_tw_field(c->out, HL_TT_LIST, pm->wrap);
    hl_hms_write_strlist(c->out, &l);
    hl_tw_stop(c->out);
    hl_tw_stop(c->out);
    return HL_OK;
  }
  if (hl_hms_parts_complete(c, t, sel, &k)) {
    hl_hms_reply_cat_error(c, pm->nosuch, pm->meta);
    return HL_OK;
  }
  return hl_hms_reply_partitions(c, t, sel, k, pm->meta, pm->wrap, err);
}

/* get_partitions_by_names_req (Hive 4): GetPartitionsByNamesRequest 1
 * db_name, 2 tbl_name required, 3 names; the answer
 * GetPartitionsByNamesResult { 1: list<Partition> }.  Names of no
 * partition are left out.  1 MetaException, 2 NoSuchObjectException. */
static hl_status_t do_partitions_by_names_req(call_t *c, hl_hms_dec_t *d, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, 1, &f);
  if (rc) return rc;
  if (!f.sub || !f.sub->s[1] || !f.sub->s[2])
    return hl_tr_fail(&d->r, "GetPartitionsByNamesRequest without its db_name or tbl_name");
  hl_cat_table_t *t = hl_hms_get_table(c, f.sub->s[1], f.sub->s[2]);
  hl_cat_partition_t *parts;
  size_t n;
  if (!t || hl_hms_parts_by_name(c, t, &f.sub->l[3], &parts, &n)) {
    hl_hms_reply_cat_error(c, 2, 1);
    return HL_OK;
  }
  hl_cat_partition_t **sel = hl_arena_alloc(c->arena, sizeof *sel * (n ? n : 1));
  if (!sel) return oom(err);
  for (size_t i = 0; i < n; i++)
    sel[i] = &parts[i];
  return hl_hms_reply_partitions(c, t, sel, n, 1, 1, err);
}

/* ------------------------------------------------------------ connecting */

/* The settings a client may ask for with getMetaConf / get_config_value,
 * with what hivelite's metastore does: it returns every partition asked
 * for (no limit), in one batch size as Hive's default. */
static const struct {
  const char *key, *value;
} meta_conf[] = {
    {"hive.metastore.batch.retrieve.max", "300"},
    {"hive.metastore.batch.retrieve.table.partition.max", "1000"},
    {"hive.metastore.limit.partition.request", "-1"},
    {"hive.metastore.partition.name.whitelist.pattern", ""},
    {"hive.metastore.try.direct.sql", "false"},
};

static const char *meta_conf_get(const char *key) {
  for (size_t i = 0; key && i < sizeof meta_conf / sizeof meta_conf[0]; i++)
    if (strcmp(meta_conf[i].key, key) == 0) return meta_conf[i].value;
  return NULL;
}

static void reply_string(call_t *c, const char *s) {
  hl_hms_begin_reply(c);
  hl_tw_field(c->out, HL_TT_STRING, 0);
  hl_tw_string(c->out, s);
  hl_tw_stop(c->out);
}

static hl_status_t do_small(call_t *c, hl_hms_dec_t *d, const char *m, hl_error_t *err) {
  hl_hms_fields_t f;
  hl_status_t rc = hl_hms_read_fields(d, 0, &f);
  if (rc) return rc;
  if (strcmp(m, "set_ugi") == 0) {
    /* Hive's metastore answers the groups given followed by the user name
     * (HMSHandler.set_ugi adds it to the list) */
    size_t n = f.l[2].n;
    char **names = hl_arena_alloc(c->arena, (n + 1) * sizeof *names);
    if (!names) return oom(err);
    for (size_t i = 0; i < n; i++)
      names[i] = f.l[2].items[i];
    names[n] = f.s[1] ? f.s[1] : "";
    hl_hms_reply_strlist(c, names, n + 1);
  } else if (strcmp(m, "getMetaConf") == 0) {
    const char *v = meta_conf_get(f.s[1]);
    if (v) {
      reply_string(c, v);
    } else {
      char *msg = hl_arena_sprintf(c->arena, "%s is not a metastore setting hivelite knows",
                                   f.s[1] ? f.s[1] : "(no key)");
      hl_hms_reply_exception(c, 1, msg ? msg : "unknown setting");
    }
  } else if (strcmp(m, "get_config_value") == 0) {
    const char *v = meta_conf_get(f.s[1]);
    reply_string(c, v ? v : f.s[2] ? f.s[2] : "");
  } else if (strcmp(m, "get_all_functions") == 0) {
    /* GetAllFunctionsResponse with an empty list: hivelite's metastore
     * keeps no permanent functions (clients iterate the list unchecked) */
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_tw_field(c->out, HL_TT_LIST, 1);
    hl_tw_list(c->out, HL_TT_STRUCT, 0);
    hl_tw_stop(c->out);
    hl_tw_stop(c->out);
  } else if (strcmp(m, "get_functions") == 0) {
    hl_hms_reply_strlist(c, NULL, 0);
  } else if (strcmp(m, "get_function") == 0) { /* 2: NoSuchObjectException */
    char *msg = hl_arena_sprintf(c->arena, "function %s.%s does not exist", f.s[1] ? f.s[1] : "",
                                 f.s[2] ? f.s[2] : "");
    hl_hms_reply_exception(c, 2, msg ? msg : "function does not exist");
  } else { /* get_current_notificationEventId: no events are kept */
    hl_hms_begin_reply(c);
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_tw_field(c->out, HL_TT_I64, 1);
    hl_tw_i64(c->out, 0);
    hl_tw_stop(c->out);
    hl_tw_stop(c->out);
  }
  return HL_OK;
}

/* ------------------------------------------------------------ dispatch */

int hl_hms_read_dispatch(call_t *c, hl_hms_dec_t *d, hl_status_t *rc, hl_error_t *err) {
  const char *m = c->method;
  static const char *const small[] = {"set_ugi",
                                      "getMetaConf",
                                      "get_config_value",
                                      "get_all_functions",
                                      "get_functions",
                                      "get_function",
                                      "get_current_notificationEventId"};
  for (size_t i = 0; i < sizeof part_methods / sizeof part_methods[0]; i++)
    if (strcmp(m, part_methods[i].name) == 0) {
      *rc = do_part_method(c, d, &part_methods[i], err);
      return 1;
    }
  for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
    if (strcmp(m, small[i]) == 0) {
      *rc = do_small(c, d, m, err);
      return 1;
    }
  if (strcmp(m, "get_table_objects_by_name") == 0)
    *rc = do_table_objects(c, d, 0, err);
  else if (strcmp(m, "get_table_objects_by_name_req") == 0)
    *rc = do_table_objects(c, d, 1, err);
  else if (strcmp(m, "get_tables_by_type") == 0)
    *rc = do_tables_by_type(c, d, err);
  else if (strcmp(m, "get_table_meta") == 0)
    *rc = do_table_meta(c, d, err);
  else if (strcmp(m, "get_table_names_by_filter") == 0)
    *rc = do_table_names_by_filter(c, d, err);
  else if (strcmp(m, "get_fields") == 0 || strcmp(m, "get_fields_with_environment_context") == 0)
    *rc = do_fields(c, d, 0, 0, err);
  else if (strcmp(m, "get_schema") == 0 || strcmp(m, "get_schema_with_environment_context") == 0)
    *rc = do_fields(c, d, 1, 0, err);
  else if (strcmp(m, "get_fields_req") == 0)
    *rc = do_fields(c, d, 0, 1, err);
  else if (strcmp(m, "get_schema_req") == 0)
    *rc = do_fields(c, d, 1, 1, err);
  else if (strcmp(m, "get_partitions_by_names_req") == 0)
    *rc = do_partitions_by_names_req(c, d, err);
  else
    return 0;
  return 1;
}
