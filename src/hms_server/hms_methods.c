/*
 * hms_methods.c -- one call of the Hive Metastore service answered from
 * hivelite's catalog (hl_hms_handle, hms_server.h).
 *
 * Arguments are read by field id with the IDL's types (fields of another
 * type or unknown ids are skipped, as Thrift runtimes do); replies carry
 * the return value in field 0 or a declared exception in the field id the
 * IDL gives it for that method.  A method not served here is answered with
 * a TApplicationException UNKNOWN_METHOD after its arguments were skipped,
 * so clients fall back to an older method and the connection stays usable.
 */
#include "hms_server/hms_int.h"
#include "hms_server/hms_server.h"

#include "hms/hms_call.h"
#include "hms_server/hms_write.h"
#include "hms/hms_map.h"
#include "util/like.h"

#include <stdlib.h>
#include <string.h>

/* The arguments of the served methods: strings 1..3, i16 3 (max_parts),
 * list<string> 3 (names). */
typedef struct args {
  char *s[4];
  int16_t max_parts;
  int has_names;
  hl_hms_strlist_t names;
} args_t;

static hl_status_t read_args(hl_hms_dec_t *d, args_t *a) {
  hl_ttype_t t;
  int16_t id;
  memset(a, 0, sizeof *a);
  a->max_parts = -1;
  hl_status_t rc = hl_tr_enter(&d->r);
  if (rc) return rc;
  while (!(rc = hl_tr_field(&d->r, &t, &id)) && t != HL_TT_STOP) {
    if (id >= 1 && id <= 3 && t == HL_TT_STRING)
      rc = hl_hms_read_string(d, &a->s[id]);
    else if (id == 3 && t == HL_TT_I16)
      rc = hl_tr_i16(&d->r, &a->max_parts);
    else if (id == 3 && t == HL_TT_LIST) {
      rc = hl_hms_read_strlist(d, &a->names);
      a->has_names = 1;
    } else
      rc = hl_tr_skip(&d->r, t);
    if (rc) break;
  }
  hl_tr_leave(&d->r);
  return rc;
}

/* "@cat#db" (Hive 3+ clients prefix the catalog) to "db"; "@cat#" and a
 * NULL name are NULL (no database given).  *OTHER_CAT is set when the
 * catalog is not Hive's default one, which hivelite does not have. */
const char *hl_hms_strip_catalog(const char *name, int *other_cat) {
  *other_cat = 0;
  if (!name || name[0] != '@') return name;
  const char *hash = strchr(name, '#');
  if (!hash) return name;
  size_t n = (size_t)(hash - name - 1);
  if (n != strlen(HL_HMS_CATALOG) || strncmp(name + 1, HL_HMS_CATALOG, n) != 0) *other_cat = 1;
  return hash[1] ? hash + 1 : NULL;
}

typedef hl_hms_call_t call_t;

void hl_hms_begin_reply(call_t *c) {
  hl_tw_message(c->out, c->method, HL_TMSG_REPLY, c->seqid);
}

void hl_hms_reply_exception(call_t *c, int16_t exc_id, const char *message) {
  hl_hms_exception_t e = {(char *)message};
  hl_hms_begin_reply(c);
  hl_tw_field(c->out, HL_TT_STRUCT, exc_id);
  hl_hms_write_exception(c->out, &e);
  hl_tw_stop(c->out);
}

void hl_hms_reply_cat_error(call_t *c, int16_t nosuch_id, int16_t meta_id) {
  const char *msg = c->cerr.message && c->cerr.message[0] ? c->cerr.message : "metastore error";
  hl_hms_reply_exception(c, c->cerr.code == HL_NOTFOUND && nosuch_id ? nosuch_id : meta_id, msg);
}

void hl_hms_reply_strlist(call_t *c, char **items, size_t n) {
  hl_hms_strlist_t l = {(uint32_t)n, items};
  hl_hms_begin_reply(c);
  hl_tw_field(c->out, HL_TT_LIST, 0);
  hl_hms_write_strlist(c->out, &l);
  hl_tw_stop(c->out);
}

hl_status_t hl_hms_reply_partitions(call_t *c, const hl_cat_table_t *t,
                                    hl_cat_partition_t *const *parts, size_t n, int16_t meta_id,
                                    int16_t wrap, hl_error_t *err) {
  hl_hms_begin_reply(c);
  if (wrap) {
    hl_tw_field(c->out, HL_TT_STRUCT, 0);
    hl_tw_field(c->out, HL_TT_LIST, wrap);
  } else {
    hl_tw_field(c->out, HL_TT_LIST, 0);
  }
  hl_tw_list(c->out, HL_TT_STRUCT, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    hl_hms_partition_t *h = hl_hms_map_partition(t, parts[i], c->arena);
    if (!h) return hl_err_nomem(err);
    hl_hms_write_partition(c->out, h);
    if (c->out->len > c->max_reply) {
      /* clients refuse a message over their cap (100 MB) anyway: say what
       * to do instead of sending what they would drop */
      char *msg = hl_arena_sprintf(
          c->arena,
          "%zu partitions of %s.%s make a reply larger than %zu bytes "
          "(hivelite.metastore.max_reply_bytes): list them with get_partition_names and "
          "fetch them in batches with get_partitions_by_names",
          n, t->db_name, t->name, c->max_reply);
      hl_buf_reset(c->out);
      hl_hms_reply_exception(c, meta_id, msg ? msg : "reply too large");
      return HL_OK;
    }
  }
  if (wrap) hl_tw_stop(c->out);
  hl_tw_stop(c->out);
  return HL_OK;
}

/* Keeps the names matching Hive's metastore pattern PATTERN (like.h). */
static size_t filter_names(char **names, size_t n, const char *pattern) {
  if (!pattern || !*pattern) return n;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (hl_like_match_metastore(pattern, names[i])) names[k++] = names[i];
  return k;
}

static hl_status_t oom(call_t *c, hl_error_t *err) {
  (void)c;
  return hl_err_nomem(err);
}

/* The database named by the client, NULL (with a NoSuchObjectException
 * message in c->cerr) when it is missing or of another catalog. */
const char *hl_hms_db_arg(call_t *c, const char *raw) {
  int other;
  const char *db = hl_hms_strip_catalog(raw, &other);
  if (other) {
    hl_err_set(&c->cerr, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME),
               "catalog of \"%s\" does not exist", raw);
    return NULL;
  }
  if (!db) hl_err_set(&c->cerr, HL_NOTFOUND, HL_SS(INVALID_SCHEMA_NAME), "no database name given");
  return db;
}

/* The table DB.TBL, NULL (c->cerr set) when missing. */
hl_cat_table_t *hl_hms_get_table(call_t *c, const char *raw_db, const char *tbl) {
  const char *db = hl_hms_db_arg(c, raw_db);
  hl_cat_table_t *t = NULL;
  if (!db) return NULL;
  if (!tbl) {
    hl_err_set(&c->cerr, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE), "no table name given");
    return NULL;
  }
  if (hl_cat_table_get(c->cat, db, tbl, c->arena, &t, &c->cerr)) return NULL;
  return t;
}

static hl_status_t do_databases(call_t *c, const char *pattern, hl_error_t *err) {
  char **names;
  size_t n;
  int other = 0;
  if (pattern) pattern = hl_hms_strip_catalog(pattern, &other);
  if (hl_cat_db_list(c->cat, c->arena, &names, &n, &c->cerr)) {
    hl_hms_reply_cat_error(c, 0, 1);
    return HL_OK;
  }
  if (other) n = 0;
  hl_hms_reply_strlist(c, names, filter_names(names, n, pattern));
  (void)err;
  return HL_OK;
}

static hl_status_t do_database(call_t *c, const args_t *a, hl_error_t *err) {
  const char *name = hl_hms_db_arg(c, a->s[1]);
  hl_cat_db_t *db;
  if (!name || hl_cat_db_get(c->cat, name, c->arena, &db, &c->cerr)) {
    hl_hms_reply_cat_error(c, 1, 2);
    return HL_OK;
  }
  hl_hms_database_t *h = hl_hms_map_database(db, c->arena);
  if (!h) return oom(c, err);
  hl_hms_begin_reply(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_database(c->out, h);
  hl_tw_stop(c->out);
  return HL_OK;
}

/* get_all_tables / get_tables: a missing database gives an empty list, as
 * Hive's metastore answers (these methods declare only MetaException). */
static hl_status_t do_tables(call_t *c, const args_t *a, const char *pattern, hl_error_t *err) {
  const char *db = hl_hms_db_arg(c, a->s[1]);
  char **names = NULL;
  size_t n = 0;
  (void)err;
  if (db && hl_cat_table_list(c->cat, db, c->arena, &names, &n, &c->cerr)) {
    if (c->cerr.code != HL_NOTFOUND) {
      hl_hms_reply_cat_error(c, 0, 1);
      return HL_OK;
    }
    n = 0;
  }
  hl_hms_reply_strlist(c, names, filter_names(names, n, pattern));
  return HL_OK;
}

static hl_status_t do_table(call_t *c, const char *db, const char *tbl, int req, hl_error_t *err) {
  hl_cat_table_t *t = hl_hms_get_table(c, db, tbl);
  if (!t) {
    hl_hms_reply_cat_error(c, 2, 1);
    return HL_OK;
  }
  hl_hms_table_t *h = hl_hms_map_table(t, c->arena);
  if (!h) return oom(c, err);
  hl_hms_begin_reply(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  if (req) {
    hl_hms_get_table_result_t r = {h, 0, 0};
    hl_hms_write_get_table_result(c->out, &r);
  } else {
    hl_hms_write_table(c->out, h);
  }
  hl_tw_stop(c->out);
  return HL_OK;
}

/* The partitions of table A->s[1].A->s[2]: *T and *PARTS (sorted by
 * name); 0, or -1 with c->cerr set. */
static int list_parts(call_t *c, const args_t *a, hl_cat_table_t **t, hl_cat_partition_t **parts,
                      size_t *n) {
  if (!(*t = hl_hms_get_table(c, a->s[1], a->s[2]))) return -1;
  if (hl_cat_partition_list(c->cat, (*t)->id, c->arena, parts, n, &c->cerr)) return -1;
  return 0;
}

/* get_partition_names / get_partitions: MAX_PARTS < 0 is all.  Exception
 * ids: NoSuchObjectException 1, MetaException 2 (in the Hive 2.3 IDL
 * get_partition_names declares only 1: MetaException, so a 2.3 client
 * sees a missing table as a MetaException, as with Hive 2.3's server). */
static hl_status_t do_partitions(call_t *c, const args_t *a, int names_only, hl_error_t *err) {
  hl_cat_table_t *t;
  hl_cat_partition_t *parts;
  size_t n;
  if (list_parts(c, a, &t, &parts, &n)) {
    hl_hms_reply_cat_error(c, 1, 2);
    return HL_OK;
  }
  if (a->max_parts >= 0 && (size_t)a->max_parts < n) n = (size_t)a->max_parts;
  if (names_only) {
    char **names = hl_arena_alloc(c->arena, sizeof(char *) * (n ? n : 1));
    if (!names) return oom(c, err);
    for (size_t i = 0; i < n; i++)
      names[i] = parts[i].name;
    hl_hms_reply_strlist(c, names, n);
    return HL_OK;
  }
  hl_cat_partition_t **h = hl_arena_alloc(c->arena, sizeof *h * (n ? n : 1));
  if (!h) return oom(c, err);
  for (size_t i = 0; i < n; i++)
    h[i] = &parts[i];
  return hl_hms_reply_partitions(c, t, h, n, 2, 0, err);
}

/* get_partitions_by_names (names that match no partition are left out, as
 * Hive does) and get_partition_by_name (a missing one is
 * NoSuchObjectException 2). */
static hl_status_t do_partitions_by_name(call_t *c, const args_t *a, int single, hl_error_t *err) {
  hl_cat_partition_t *parts;
  size_t n;
  hl_cat_table_t *t = hl_hms_get_table(c, a->s[1], a->s[2]);
  if (!t) {
    hl_hms_reply_cat_error(c, 2, 1);
    return HL_OK;
  }
  if (single && !a->s[3]) {
    hl_hms_reply_exception(c, 2, "no partition name given");
    return HL_OK;
  }
  hl_hms_strlist_t one = {1, (char **)&a->s[3]};
  if (hl_hms_parts_by_name(c, t, single ? &one : &a->names, &parts, &n)) {
    hl_hms_reply_cat_error(c, 2, 1);
    return HL_OK;
  }
  hl_cat_partition_t **h = hl_arena_alloc(c->arena, sizeof *h * (n ? n : 1));
  size_t k = n;
  if (!h) return oom(c, err);
  for (size_t i = 0; i < n; i++)
    h[i] = &parts[i];
  if (!single) return hl_hms_reply_partitions(c, t, h, k, 1, 0, err);
  if (k == 0) {
    char *msg = hl_arena_sprintf(c->arena, "partition %s of %s.%s does not exist", a->s[3],
                                 t->db_name, t->name);
    hl_hms_reply_exception(c, 2, msg ? msg : "partition does not exist");
    return HL_OK;
  }
  hl_hms_partition_t *hp = hl_hms_map_partition(t, h[0], c->arena);
  if (!hp) return oom(c, err);
  hl_hms_begin_reply(c);
  hl_tw_field(c->out, HL_TT_STRUCT, 0);
  hl_hms_write_partition(c->out, hp);
  hl_tw_stop(c->out);
  return HL_OK;
}

hl_status_t hl_hms_handle(hl_cat_t *cat, const hl_hms_env_t *env, const uint8_t *msg, size_t len,
                          size_t max_reply, hl_arena_t *arena, hl_buf_t *out, hl_error_t *err) {
  hl_hms_dec_t d;
  hl_hms_message_t m;
  args_t a;
  call_t c = {cat, arena, out, NULL, 0, {0}, max_reply};
  hl_hms_dec_init(&d, msg, len, arena, err);
  hl_status_t rc = hl_hms_read_message(&d, &m);
  if (rc) return rc;
  if (m.type != HL_TMSG_CALL && m.type != HL_TMSG_ONEWAY)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "message of type %d where a call was expected", (int)m.type);
  c.method = m.name;
  c.seqid = m.seqid;
  hl_err_init(&c.cerr);
  /* ---- the write methods, statistics and locks (hms_write.c,
   * hms_lock.c): each reads its own arguments */
  if (m.type == HL_TMSG_CALL) {
    hl_hms_wcall_t w = {cat, env, arena, out, m.name, m.seqid};
    int handled = 0;
    rc = hl_hms_write_dispatch(&w, &d, &handled, err);
    if (!handled) rc = hl_hms_stats_dispatch(&w, &d, &handled, err);
    if (!handled) rc = hl_hms_lock_dispatch(&w, &d, &handled, err);
    if (handled) {
      hl_err_clear(&c.cerr);
      return rc ? rc : hl_tw_check(out, err);
    }
  }
  if (strcmp(m.name, "get_table_req") == 0) {
    hl_hms_get_table_request_t q;
    if ((rc = hl_hms_read_get_table_req_args(&d, &q))) return rc;
    if (q.cat_name && strcmp(q.cat_name, HL_HMS_CATALOG) != 0) {
      char *msg = hl_arena_sprintf(arena, "catalog %s does not exist", q.cat_name);
      hl_hms_reply_exception(&c, 2, msg ? msg : "catalog does not exist");
      rc = HL_OK;
    } else {
      rc = do_table(&c, q.db_name, q.tbl_name, 1, err);
    }
  } else if (m.type == HL_TMSG_CALL && hl_hms_read_dispatch(&c, &d, &rc, err)) {
    /* the methods of hms_read.c, answered there */
  } else {
    if ((rc = read_args(&d, &a))) return rc;
    if (m.type == HL_TMSG_ONEWAY) /* fb303 shutdown and any other: no reply */
      rc = HL_OK;
    else if (strcmp(m.name, "get_all_databases") == 0)
      rc = do_databases(&c, NULL, err);
    else if (strcmp(m.name, "get_databases") == 0)
      rc = do_databases(&c, a.s[1] ? a.s[1] : "", err);
    else if (strcmp(m.name, "get_database") == 0)
      rc = do_database(&c, &a, err);
    else if (strcmp(m.name, "get_all_tables") == 0)
      rc = do_tables(&c, &a, NULL, err);
    else if (strcmp(m.name, "get_tables") == 0)
      rc = do_tables(&c, &a, a.s[2], err);
    else if (strcmp(m.name, "get_table") == 0)
      rc = do_table(&c, a.s[1], a.s[2], 0, err);
    else if (strcmp(m.name, "get_partition_names") == 0)
      rc = do_partitions(&c, &a, 1, err);
    else if (strcmp(m.name, "get_partitions") == 0)
      rc = do_partitions(&c, &a, 0, err);
    else if (strcmp(m.name, "get_partitions_by_names") == 0)
      rc = do_partitions_by_name(&c, &a, 0, err);
    else if (strcmp(m.name, "get_partition_by_name") == 0)
      rc = do_partitions_by_name(&c, &a, 1, err);
    else {
      char *why = hl_arena_sprintf(arena, "Invalid method name: '%s'", m.name);
      hl_hms_write_app_exception_reply(out, m.name, m.seqid, HL_TAPP_UNKNOWN_METHOD,
                                       why ? why : "Invalid method name");
    }
  }
  hl_err_clear(&c.cerr);
  if (rc) return rc;
  return hl_tw_check(out, err);
}
