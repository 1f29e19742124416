/*
 * hmsc_cat.c -- the Hive Metastore catalog backend: catalog.h's operations
 * as Thrift calls (hms_client.h).
 *
 * Ids: the catalog API names tables and partitions by id, a metastore by
 * name, so the backend hands out its own ids and keeps id -> name for the
 * session (a table's id is stable for the handle's life; a re-created
 * table of the same name gets the same id).
 *
 * Transactions: a metastore has none, so begin/commit only mark the unit;
 * each write is one call, and add_many is one add_partitions (which Hive's
 * metastore applies all or none).
 *
 * Cache: with hive.metastore-cache-ttl > 0 the reply of every read call is
 * kept (by its exact request) and decoded again while younger than the
 * TTL; every write through this handle drops all of it, and refresh drops
 * what names the table or database.
 */
#include "catalog/cat_backend.h"
#include "hms/hms_call.h"
#include "hms/hms_client_calls.h"
#include "hms/hms_map.h"
#include "hms/hms_map_from.h"
#include "hms/hms_stats_map.h"
#include "hms_client/hms_client.h"
#include "hms_client/hmsc_int.h"
#include "util/hashmap.h"
#include "util/partpath.h"
#include "util/mem.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* What partition calls need of a table, kept from its last table_get so
 * that they do not fetch the table again. */
typedef struct table_ref {
  char *db, *name;
  hl_cat_column_t *keys; /* names only; NULL until a table_get */
  int n_keys;
} table_ref_t;

typedef struct part_ref {
  int64_t table_id;
  char *name;
} part_ref_t;

typedef struct cache_entry {
  struct cache_entry *next;
  char *db, *tbl; /* what the request names (NULL: none) */
  uint8_t *key;   /* the request with its seqid zeroed */
  size_t key_len;
  uint8_t *reply;
  size_t reply_len;
  int32_t seqid; /* of the request the reply answered */
  int64_t at_ms;
} cache_entry_t;

typedef struct hmsc {
  hl_cat_t base; /* first: catalog.h's handle */
  hl_cat_t *local;
  hmsc_conn_t conn;
  hl_arena_t *names; /* the id maps' names, for the handle's life */
  hl_map_t *table_ids;
  table_ref_t *tables; /* id - 1 */
  size_t n_tables, cap_tables;
  hl_map_t *part_ids;
  part_ref_t *parts; /* id - 1 */
  size_t n_parts, cap_parts;
  int batch_max;
  bool no_table_req; /* the server answered get_table_req UNKNOWN_METHOD */
  bool no_names_ps;  /* ... and get_partition_names_ps */
  bool no_count;     /* ... and get_num_partitions_by_filter */
  int64_t ttl_ms;
  cache_entry_t *cache;
  size_t cache_bytes; /* requests and replies held */
  hl_buf_t out;       /* the call being made */
  char *address;      /* the URI list as opened: how recovery reaches it (txn.h) */
} hmsc_t;

static hmsc_t *H(hl_cat_t *cat) {
  return (hmsc_t *)cat;
}

/* ------------------------------------------------------------ ids */

static char *lower_dup(hl_arena_t *a, const char *s) {
  char *d = hl_arena_strdup(a, s ? s : "");
  if (d)
    for (char *p = d; *p; p++)
      *p = (char)tolower((unsigned char)*p);
  return d;
}

static int64_t table_id(hmsc_t *h, const char *db, const char *name) {
  char *ldb = lower_dup(h->names, db), *ln = lower_dup(h->names, name);
  if (!ldb || !ln) return -1;
  size_t a = strlen(ldb), b = strlen(ln);
  char *key = hl_arena_alloc(h->names, a + b + 1);
  if (!key) return -1;
  memcpy(key, ldb, a);
  key[a] = 0;
  memcpy(key + a + 1, ln, b);
  uint64_t v;
  bool ins;
  if (h->n_tables == h->cap_tables) {
    size_t cap = h->cap_tables ? h->cap_tables * 2 : 64;
    table_ref_t *t = hl_realloc(h->tables, cap * sizeof *t);
    if (!t) return -1;
    h->tables = t;
    h->cap_tables = cap;
  }
  if (hl_map_upsert(h->table_ids, key, a + b + 1, h->n_tables + 1, &v, &ins)) return -1;
  if (ins) h->tables[h->n_tables++] = (table_ref_t){ldb, ln, NULL, 0};
  return (int64_t)v;
}

static const table_ref_t *table_ref(hmsc_t *h, int64_t id, hl_error_t *err) {
  if (id < 1 || (size_t)id > h->n_tables) {
    hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE), "no table with id %lld", (long long)id);
    return NULL;
  }
  return &h->tables[id - 1];
}

static int64_t part_id(hmsc_t *h, int64_t tid, const char *name) {
  size_t n = strlen(name);
  char *key = hl_arena_alloc(h->names, n + 9);
  if (!key) return -1;
  memcpy(key, &tid, 8);
  memcpy(key + 8, name, n + 1);
  if (h->n_parts == h->cap_parts) {
    size_t cap = h->cap_parts ? h->cap_parts * 2 : 256;
    part_ref_t *p = hl_realloc(h->parts, cap * sizeof *p);
    if (!p) return -1;
    h->parts = p;
    h->cap_parts = cap;
  }
  uint64_t v;
  bool ins;
  if (hl_map_upsert(h->part_ids, key, n + 8, h->n_parts + 1, &v, &ins)) return -1;
  if (ins) h->parts[h->n_parts++] = (part_ref_t){tid, key + 8};
  return (int64_t)v;
}

/* ------------------------------------------------------------ cache */

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void entry_free(cache_entry_t *e) {
  hl_free(e->db);
  hl_free(e->tbl);
  hl_free(e->key);
  hl_free(e->reply);
  hl_free(e);
}

/* What the cache may hold; past it, it starts again empty (a session that
 * reads more than this within the TTL only asks again). */
#define CACHE_MAX_BYTES (64u << 20)

/* Drops the entries naming DB.TBL (TBL NULL: DB's; DB NULL: all). */
static void cache_drop(hmsc_t *h, const char *db, const char *tbl) {
  cache_entry_t **pp = &h->cache;
  while (*pp) {
    cache_entry_t *e = *pp;
    bool hit = !db || !e->db ||
               (strcasecmp(e->db, db) == 0 && (!tbl || !e->tbl || strcasecmp(e->tbl, tbl) == 0));
    if (hit) {
      *pp = e->next;
      h->cache_bytes -= e->key_len + e->reply_len;
      entry_free(e);
    } else {
      pp = &e->next;
    }
  }
}

/* The seqid's offset in a strict call header: version, name, seqid. */
static size_t seqid_offset(const uint8_t *m, size_t len) {
  if (len < 8) return 0;
  uint32_t n = ((uint32_t)m[4] << 24) | ((uint32_t)m[5] << 16) | ((uint32_t)m[6] << 8) | m[7];
  return 8 + (size_t)n + 4 <= len ? 8 + (size_t)n : 0;
}

static cache_entry_t *cache_find(hmsc_t *h, const uint8_t *msg, size_t len, size_t off) {
  int64_t now = now_ms();
  for (cache_entry_t **pp = &h->cache; *pp;) {
    cache_entry_t *e = *pp;
    if (now - e->at_ms >= h->ttl_ms) { /* expired: gone */
      *pp = e->next;
      h->cache_bytes -= e->key_len + e->reply_len;
      entry_free(e);
      continue;
    }
    if (e->key_len == len && memcmp(e->key, msg, off) == 0 &&
        memcmp(e->key + off + 4, msg + off + 4, len - off - 4) == 0)
      return e;
    pp = &e->next;
  }
  return NULL;
}

static void cache_put(hmsc_t *h, const uint8_t *msg, size_t len, size_t off, int32_t seqid,
                      const char *db, const char *tbl, const uint8_t *reply, size_t rlen) {
  if (len + rlen > CACHE_MAX_BYTES / 4) return; /* one huge reply is not kept */
  if (h->cache_bytes + len + rlen > CACHE_MAX_BYTES) cache_drop(h, NULL, NULL);
  cache_entry_t *e = hl_calloc(1, sizeof *e);
  if (!e) return; /* a cache that cannot grow is only slower */
  e->key = hl_malloc(len);
  e->reply = hl_malloc(rlen ? rlen : 1);
  e->db = db ? hl_strdup(db) : NULL;
  e->tbl = tbl ? hl_strdup(tbl) : NULL;
  if (!e->key || !e->reply || (db && !e->db) || (tbl && !e->tbl)) {
    entry_free(e);
    return;
  }
  memcpy(e->key, msg, len);
  memset(e->key + off, 0, 4);
  e->key_len = len;
  memcpy(e->reply, reply, rlen);
  e->reply_len = rlen;
  e->seqid = seqid;
  e->at_ms = now_ms();
  e->next = h->cache;
  h->cache = e;
  h->cache_bytes += len + rlen;
}

/* ------------------------------------------------------------ calls */

typedef struct call {
  const char *method;
  hl_ttype_t type; /* of the result; HL_TT_STOP: void */
  hl_status_t (*read)(hl_hms_dec_t *d, void *out);
  void *out;
  bool write;           /* not idempotent: never resent, drops the cache */
  const char *db, *tbl; /* what it names (cache refresh, messages) */
  const char *notfound; /* SQLSTATE of NoSuchObjectException */
  const char *exists;   /* of AlreadyExistsException */
  const char *invalid;  /* of InvalidObject/InvalidOperationException */
} call_t;

/* Starts the call message in h->out: returns its seqid. */
static int32_t begin_call(hmsc_t *h) {
  hl_buf_reset(&h->out);
  h->out.oom = 0;
  if (++h->conn.seqid <= 0) h->conn.seqid = 1;
  return h->conn.seqid;
}

static hl_status_t decode(hmsc_t *h, const call_t *c, int32_t seqid, const uint8_t *reply,
                          size_t rlen, hl_arena_t *arena, hl_error_t *err) {
  hl_hms_dec_t d;
  hl_hms_reply_t rep;
  hl_hms_dec_init(&d, reply, rlen, arena, err);
  hl_status_t rc = hl_hms_read_reply(&d, c->method, seqid, c->type, c->read, c->out,
                                     hl_hms_client_n_exc(c->method), &rep);
  if (rc) {
    hmsc_conn_close(&h->conn); /* a reply we cannot read: the stream is lost */
    hl_err_prefix(err, "metastore %s: reply to %s", hmsc_conn_uri(&h->conn), c->method);
    return rc;
  }
  if (rep.app_error) {
    if (rep.app.has_type && rep.app.type == HL_TAPP_UNKNOWN_METHOD)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "the metastore %s has no method \"%s\"", hmsc_conn_uri(&h->conn),
                        c->method);
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "metastore %s: %s failed: %s (TApplicationException type %d)",
                      hmsc_conn_uri(&h->conn), c->method, rep.app.message ? rep.app.message : "",
                      (int)rep.app.type);
  }
  if (!rep.exc_id) return HL_OK;
  const char *msg = rep.exc.message ? rep.exc.message : "";
  switch (hl_hms_client_exc_kind(c->method, rep.exc_id)) {
  case HL_HMS_EXC_NO_SUCH_OBJECT:
    return hl_err_set(err, HL_NOTFOUND, c->notfound ? c->notfound : HL_SS(UNDEFINED_OBJECT), "%s",
                      msg);
  case HL_HMS_EXC_ALREADY_EXISTS:
    return hl_err_set(err, HL_CONSTRAINT, c->exists ? c->exists : HL_SS(DUPLICATE_OBJECT), "%s",
                      msg);
  case HL_HMS_EXC_INVALID_OBJECT:
  case HL_HMS_EXC_INVALID_OPERATION:
  case HL_HMS_EXC_INVALID_INPUT:
    return hl_err_set(err, HL_ERROR, c->invalid ? c->invalid : HL_SS(INVALID_PARAMETER_VALUE), "%s",
                      msg);
  default:
    return hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR), "metastore: %s", msg);
  }
}

/* Sends h->out (written with SEQID) and reads its reply into C->out. */
static hl_status_t do_call(hmsc_t *h, const call_t *c, int32_t seqid, hl_arena_t *arena,
                           hl_error_t *err) {
  if (h->out.oom) return hl_err_nomem(err);
  const uint8_t *msg = (const uint8_t *)h->out.data;
  size_t len = h->out.len, off = 0;
  bool cached = !c->write && h->ttl_ms > 0 && (off = seqid_offset(msg, len)) > 0;
  if (cached) {
    cache_entry_t *e = cache_find(h, msg, len, off);
    if (e) return decode(h, c, e->seqid, e->reply, e->reply_len, arena, err);
  } else if (c->write) {
    cache_drop(h, NULL, NULL);
  }
  const uint8_t *reply;
  size_t rlen;
  hl_status_t rc = hmsc_conn_roundtrip(&h->conn, msg, len, !c->write, &reply, &rlen, err);
  if (rc) return rc;
  rc = decode(h, c, seqid, reply, rlen, arena, err);
  if (cached && (rc == HL_OK || rc == HL_NOTFOUND))
    cache_put(h, msg, len, off, seqid, c->db, c->tbl, reply, rlen);
  return rc;
}

/* Replaces the metastore's message of an error RC with hivelite's own
 * (the catalog's contract), keeping its code and SQLSTATE. */
static hl_status_t reword(hl_status_t rc, hl_status_t when, hl_error_t *err, const char *fmt,
                          const char *a, const char *b) {
  if (rc != when) return rc;
  char ss[6];
  memcpy(ss, err->sqlstate, sizeof ss);
  hl_err_clear(err);
  if (b) return hl_err_set(err, rc, ss, fmt, a, b);
  return hl_err_set(err, rc, ss, fmt, a);
}

/* ------------------------------------------------------------ handle */

static bool hmsc_readonly(const hl_cat_t *cat) {
  (void)cat;
  return false;
}

static void hmsc_close(hl_cat_t *cat) {
  hmsc_t *h = H(cat);
  cache_drop(h, NULL, NULL);
  hmsc_conn_fini(&h->conn);
  hl_map_destroy(h->table_ids);
  hl_map_destroy(h->part_ids);
  hl_free(h->tables);
  hl_free(h->parts);
  hl_arena_destroy(h->names);
  hl_buf_fini(&h->out);
  hl_free(h->address);
  hl_free(h);
}

/* Every call takes effect on its own: src/txn journals the writes of a
 * commit through this handle (catalog/cat_journal.c) so that a failure or
 * a crash can undo them. */
static bool hmsc_transactional(const hl_cat_t *cat) {
  (void)cat;
  return false;
}

static const char *hmsc_address(const hl_cat_t *cat) {
  return ((const hmsc_t *)cat)->address;
}

/* The journal names tables (ids are this handle's own). */
static hl_status_t hmsc_table_name(hl_cat_t *cat, int64_t id, hl_arena_t *arena, char **db,
                                   char **name, hl_error_t *err) {
  const table_ref_t *r = table_ref(H(cat), id, err);
  if (!r) return err->code;
  *db = hl_arena_strdup(arena, r->db);
  *name = hl_arena_strdup(arena, r->name);
  return *db && *name ? HL_OK : hl_err_nomem(err);
}

static hl_status_t hmsc_partition_table(hl_cat_t *cat, int64_t partition_id, int64_t *table_id,
                                        hl_error_t *err) {
  hmsc_t *h = H(cat);
  if (partition_id < 1 || (size_t)partition_id > h->n_parts)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT), "no partition with id %lld",
                      (long long)partition_id);
  *table_id = h->parts[partition_id - 1].table_id;
  return HL_OK;
}

static hl_status_t hmsc_begin(hl_cat_t *cat, hl_error_t *err) {
  (void)cat, (void)err;
  return HL_OK;
}
static hl_status_t hmsc_commit(hl_cat_t *cat, hl_error_t *err) {
  (void)cat, (void)err;
  return HL_OK;
}
static void hmsc_rollback(hl_cat_t *cat) {
  (void)cat;
}

static hl_cat_t *hmsc_local(hl_cat_t *cat) {
  return H(cat)->local;
}

static hl_status_t hmsc_refresh(hl_cat_t *cat, const char *db, const char *table, hl_error_t *err) {
  (void)err;
  cache_drop(H(cat), db, table);
  return HL_OK;
}

/* ------------------------------------------------------------ databases */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A reply's name list, lower-cased and sorted, as the catalog gives it. */
static hl_status_t names_out(const hl_hms_strlist_t *l, hl_arena_t *arena, char ***names, size_t *n,
                             hl_error_t *err) {
  *n = l->n;
  *names = l->items;
  for (uint32_t i = 0; i < l->n; i++)
    for (char *p = l->items[i]; *p; p++)
      *p = (char)tolower((unsigned char)*p);
  if (l->n) qsort(l->items, l->n, sizeof(char *), cmp_str);
  (void)arena, (void)err;
  return HL_OK;
}

static hl_status_t hmsc_db_list(hl_cat_t *cat, hl_arena_t *arena, char ***names, size_t *n,
                                hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_hms_strlist_t l;
  call_t c = {
      .method = "get_all_databases", .type = HL_TT_LIST, .read = hl_hms_read_strlist_v, .out = &l};
  int32_t s = begin_call(h);
  hl_hms_write_strings_call(&h->out, c.method, s, NULL, NULL);
  hl_status_t rc = do_call(h, &c, s, arena, err);
  return rc ? rc : names_out(&l, arena, names, n, err);
}

static hl_status_t hmsc_db_get(hl_cat_t *cat, const char *name, hl_arena_t *arena,
                               hl_cat_db_t **out, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_hms_database_t d;
  call_t c = {.method = "get_database",
              .type = HL_TT_STRUCT,
              .read = hl_hms_read_database_v,
              .out = &d,
              .db = name,
              .notfound = HL_SS(INVALID_SCHEMA_NAME)};
  int32_t s = begin_call(h);
  hl_hms_write_strings_call(&h->out, c.method, s, name, NULL);
  hl_status_t rc = do_call(h, &c, s, arena, err);
  rc = reword(rc, HL_NOTFOUND, err, "database \"%s\" does not exist", name, NULL);
  if (rc) return rc;
  if (!(*out = hmsc_db_from(&d, arena))) return hl_err_nomem(err);
  return HL_OK;
}

static hl_status_t hmsc_db_create(hl_cat_t *cat, const hl_cat_db_t *db, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_hms_database_t *d = hl_hms_map_database(db, a);
  hl_status_t rc;
  if (!d) {
    rc = hl_err_nomem(err);
  } else {
    call_t c = {.method = "create_database",
                .type = HL_TT_STOP,
                .write = true,
                .db = db->name,
                .exists = HL_SS(DUPLICATE_DATABASE)};
    int32_t s = begin_call(h);
    hl_hms_write_create_database_call(&h->out, s, d);
    rc = do_call(h, &c, s, a, err);
    rc = reword(rc, HL_CONSTRAINT, err, "database \"%s\" already exists", db->name, NULL);
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t hmsc_db_drop(hl_cat_t *cat, const char *name, bool cascade, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  /* deleteData false: hivelite removed the managed data itself */
  call_t c = {.method = "drop_database",
              .type = HL_TT_STOP,
              .write = true,
              .db = name,
              .notfound = HL_SS(INVALID_SCHEMA_NAME),
              .invalid = HL_SS(DEPENDENT_OBJECTS_STILL_EXIST)};
  int32_t s = begin_call(h);
  hl_hms_write_drop_database_call(&h->out, s, name, false, cascade);
  hl_status_t rc = do_call(h, &c, s, a, err);
  rc = reword(rc, HL_NOTFOUND, err, "database \"%s\" does not exist", name, NULL);
  hl_arena_destroy(a);
  return rc;
}

/* ------------------------------------------------------------ tables */

static hl_status_t hmsc_table_list(hl_cat_t *cat, const char *db, hl_arena_t *arena, char ***names,
                                   size_t *n, hl_error_t *err) {
  hmsc_t *h = H(cat);
  /* get_all_tables of a missing database is an empty list in Hive; the
   * catalog's contract says 3F000 */
  hl_cat_db_t *d;
  hl_status_t rc = hmsc_db_get(cat, db, arena, &d, err);
  if (rc) return rc;
  hl_hms_strlist_t l;
  call_t c = {.method = "get_all_tables",
              .type = HL_TT_LIST,
              .read = hl_hms_read_strlist_v,
              .out = &l,
              .db = db};
  int32_t s = begin_call(h);
  hl_hms_write_strings_call(&h->out, c.method, s, db, NULL);
  rc = do_call(h, &c, s, arena, err);
  return rc ? rc : names_out(&l, arena, names, n, err);
}

/* get_table_req (Hive 3+), falling back to get_table on UNKNOWN_METHOD
 * (Hive 2.x servers before get_table_req, and servers that dropped
 * get_table answer the first one). */
static hl_status_t fetch_table(hmsc_t *h, const char *db, const char *name, hl_arena_t *arena,
                               hl_hms_table_t *t, hl_error_t *err) {
  call_t c = {.method = "get_table_req",
              .type = HL_TT_STRUCT,
              .read = hl_hms_read_table_result_v,
              .out = t,
              .db = db,
              .tbl = name,
              .notfound = HL_SS(UNDEFINED_TABLE)};
  int32_t s;
  if (!h->no_table_req) {
    s = begin_call(h);
    hl_hms_write_get_table_req_call(&h->out, s, db, name);
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = do_call(h, &c, s, arena, &e);
    if (rc != HL_UNSUPPORTED) {
      hl_err_move(err, &e);
      return rc;
    }
    hl_err_clear(&e);
    h->no_table_req = true;
  }
  c.method = "get_table";
  c.read = hl_hms_read_table_v;
  s = begin_call(h);
  hl_hms_write_strings_call(&h->out, c.method, s, db, name);
  return do_call(h, &c, s, arena, err);
}

static hl_status_t hmsc_table_get(hl_cat_t *cat, const char *db, const char *name,
                                  hl_arena_t *arena, hl_cat_table_t **out, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_hms_table_t t;
  hl_status_t rc = fetch_table(h, db, name, arena, &t, err);
  if (rc == HL_NOTFOUND) {
    /* Hive says NoSuchObject for a missing database too: tell them apart */
    hl_cat_db_t *d;
    hl_error_t e;
    hl_err_init(&e);
    if (hmsc_db_get(cat, db, arena, &d, &e) == HL_NOTFOUND) {
      hl_err_clear(err);
      hl_err_move(err, &e);
      return HL_NOTFOUND;
    }
    hl_err_clear(&e);
    hl_err_clear(err);
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE), "table \"%s.%s\" does not exist",
                      db, name);
  }
  if (rc) return rc;
  int64_t id = table_id(h, t.db_name ? t.db_name : db, t.table_name ? t.table_name : name);
  if (id < 0 || !(*out = hmsc_table_from(&t, id, arena))) return hl_err_nomem(err);
  table_ref_t *r = &h->tables[id - 1];
  int nk = (*out)->n_part_keys;
  bool same = r->keys && r->n_keys == nk;
  for (int k = 0; same && k < nk; k++)
    same = strcmp(r->keys[k].name, (*out)->part_keys[k].name) == 0;
  if (!same) { /* first seen, or re-created with other keys */
    hl_cat_column_t *keys = hl_arena_zalloc(h->names, sizeof *keys * (size_t)(nk ? nk : 1));
    if (!keys) return hl_err_nomem(err);
    for (int k = 0; k < nk; k++)
      if (!(keys[k].name = hl_arena_strdup(h->names, (*out)->part_keys[k].name)))
        return hl_err_nomem(err);
    r->keys = keys;
    r->n_keys = nk;
  }
  return HL_OK;
}

static hl_status_t hmsc_table_create(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_hms_table_t *t = hl_hms_map_table(table, a);
  hl_status_t rc;
  if (!t) {
    rc = hl_err_nomem(err);
  } else {
    t->has_id = 0; /* the metastore assigns its own */
    call_t c = {.method = "create_table",
                .type = HL_TT_STOP,
                .write = true,
                .db = table->db_name,
                .tbl = table->name,
                .exists = HL_SS(DUPLICATE_TABLE),
                .notfound = HL_SS(INVALID_SCHEMA_NAME),
                .invalid = HL_SS(INVALID_TABLE_DEFINITION)};
    int32_t s = begin_call(h);
    hl_hms_write_create_table_call(&h->out, s, t);
    rc = do_call(h, &c, s, a, err);
    rc = reword(rc, HL_CONSTRAINT, err, "table \"%s.%s\" already exists", table->db_name,
                table->name);
    rc = reword(rc, HL_NOTFOUND, err, "database \"%s\" does not exist", table->db_name, NULL);
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t hmsc_table_update(hl_cat_t *cat, const hl_cat_table_t *table, hl_error_t *err) {
  hmsc_t *h = H(cat);
  const table_ref_t *r = table_ref(h, table->id, err);
  if (!r) return HL_NOTFOUND;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_hms_table_t *t = hl_hms_map_table(table, a);
  hl_status_t rc;
  if (!t) {
    rc = hl_err_nomem(err);
  } else {
    t->has_id = 0;
    call_t c = {.method = "alter_table",
                .type = HL_TT_STOP,
                .write = true,
                .db = r->db,
                .tbl = r->name,
                .invalid = HL_SS(INVALID_TABLE_DEFINITION)};
    int32_t s = begin_call(h);
    hl_hms_write_alter_table_call(&h->out, s, r->db, r->name, t);
    rc = do_call(h, &c, s, a, err);
    if (rc == HL_OK && (strcmp(r->db, table->db_name) || strcmp(r->name, table->name))) {
      /* a rename: the id follows the table */
      char *db = lower_dup(h->names, table->db_name), *n = lower_dup(h->names, table->name);
      if (!db || !n) {
        rc = hl_err_nomem(err);
      } else {
        h->tables[table->id - 1].db = db;
        h->tables[table->id - 1].name = n;
        size_t la = strlen(db), lb = strlen(n);
        char *key = hl_arena_alloc(h->names, la + lb + 1);
        if (!key) {
          rc = hl_err_nomem(err);
        } else {
          memcpy(key, db, la + 1);
          memcpy(key + la + 1, n, lb);
          if (hl_map_set(h->table_ids, key, la + lb + 1, (uint64_t)table->id))
            rc = hl_err_nomem(err);
        }
      }
    }
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t hmsc_table_drop(hl_cat_t *cat, int64_t id, hl_error_t *err) {
  hmsc_t *h = H(cat);
  const table_ref_t *r = table_ref(h, id, err);
  if (!r) return HL_NOTFOUND;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  call_t c = {.method = "drop_table",
              .type = HL_TT_STOP,
              .write = true,
              .db = r->db,
              .tbl = r->name,
              .notfound = HL_SS(UNDEFINED_TABLE)};
  int32_t s = begin_call(h);
  hl_hms_write_drop_table_call(&h->out, s, r->db, r->name, false);
  hl_status_t rc = do_call(h, &c, s, a, err);
  hl_arena_destroy(a);
  return rc;
}

/* ------------------------------------------------------------ partitions */

/* The table with id ID as partition calls need it: names, id and keys
 * (from the table_get that gave the id; a partition the metastore sends
 * without a descriptor then has an empty one). */
static hl_status_t id_table(hmsc_t *h, int64_t id, hl_arena_t *arena, hl_cat_table_t **t,
                            hl_error_t *err) {
  const table_ref_t *r = table_ref(h, id, err);
  if (!r) return HL_NOTFOUND;
  if (!r->keys) return hmsc_table_get(&h->base, r->db, r->name, arena, t, err);
  hl_cat_table_t *c = hl_arena_zalloc(arena, sizeof *c);
  if (!c) return hl_err_nomem(err);
  c->id = id;
  c->db_name = r->db;
  c->name = r->name;
  c->part_keys = r->keys;
  c->n_part_keys = r->n_keys;
  c->num_buckets = -1;
  *t = c;
  return HL_OK;
}

/* The whole table with id ID (writes map partitions with its descriptor). */
static hl_status_t id_table_full(hmsc_t *h, int64_t id, hl_arena_t *arena, hl_cat_table_t **t,
                                 hl_error_t *err) {
  const table_ref_t *r = table_ref(h, id, err);
  if (!r) return HL_NOTFOUND;
  return hmsc_table_get(&h->base, r->db, r->name, arena, t, err);
}

static hl_status_t hmsc_partition_names(hl_cat_t *cat, int64_t id, const char *const *eq,
                                        hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                        hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_cat_table_t *t;
  hl_status_t rc = id_table(h, id, arena, &t, err);
  if (rc) return rc;
  bool any_eq = false;
  for (int k = 0; eq && k < t->n_part_keys; k++)
    any_eq |= eq[k] != NULL;
  hl_hms_strlist_t l;
  call_t c = {.method = "get_partition_names",
              .type = HL_TT_LIST,
              .read = hl_hms_read_strlist_v,
              .out = &l,
              .db = t->db_name,
              .tbl = t->name,
              .notfound = HL_SS(UNDEFINED_TABLE)};
  int32_t s;
  rc = HL_UNSUPPORTED;
  if (any_eq && !h->no_names_ps) { /* the metastore matches the pinned values */
    hl_hms_strlist_t vals = {(uint32_t)t->n_part_keys,
                             hl_arena_zalloc(arena, sizeof(char *) * (size_t)t->n_part_keys)};
    if (!vals.items) return hl_err_nomem(err);
    for (int k = 0; k < t->n_part_keys; k++)
      vals.items[k] = eq[k] ? (char *)eq[k] : "";
    call_t ps = c;
    ps.method = "get_partition_names_ps";
    s = begin_call(h);
    hl_hms_write_get_partition_names_ps_call(&h->out, s, t->db_name, t->name, &vals, -1);
    hl_error_t e;
    hl_err_init(&e);
    rc = do_call(h, &ps, s, arena, &e);
    if (rc != HL_UNSUPPORTED) {
      hl_err_move(err, &e);
      if (rc) return rc;
      any_eq = false; /* matched already */
    } else {
      hl_err_clear(&e);
      h->no_names_ps = true;
    }
  }
  if (rc == HL_UNSUPPORTED) { /* all names; pinned values matched below */
    s = begin_call(h);
    hl_hms_write_get_partition_names_call(&h->out, s, t->db_name, t->name, -1);
    if ((rc = do_call(h, &c, s, arena, err))) return rc;
  }
  if (l.n) qsort(l.items, l.n, sizeof(char *), cmp_str);
  hl_cat_partition_t *p = hl_arena_zalloc(arena, sizeof *p * (l.n ? l.n : 1));
  if (!p) return hl_err_nomem(err);
  size_t m = 0;
  for (uint32_t i = 0; i < l.n; i++) {
    p[m].table_id = id;
    p[m].n_values = t->n_part_keys;
    p[m].values = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(t->n_part_keys + 1));
    if (!p[m].values) return hl_err_nomem(err);
    if (hmsc_parse_name(l.items[i], t->n_part_keys, p[m].values, arena))
      return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "metastore %s: partition name \"%s\" of \"%s.%s\" does not have %d keys",
                        hmsc_conn_uri(&h->conn), l.items[i], t->db_name, t->name, t->n_part_keys);
    /* the name as hivelite spells it (keys lower-case, Hive's escaping) */
    bool keep = true;
    for (int k = 0; any_eq && k < t->n_part_keys; k++)
      if (eq[k] && (!p[m].values[k] || strcmp(eq[k], p[m].values[k]) != 0)) keep = false;
    if (!keep) continue;
    if (!(p[m].name = hl_hms_part_name(t, p[m].values, arena))) return hl_err_nomem(err);
    if ((p[m].id = part_id(h, id, p[m].name)) < 0) return hl_err_nomem(err);
    m++;
  }
  *out = p;
  *n = m;
  return HL_OK;
}

/* get_num_partitions_by_filter with an empty filter counts them all in the
 * metastore (the names of 100,000 partitions are 3 MB); a metastore without
 * it is asked for the names once (no_count). */
static hl_status_t hmsc_partition_count(hl_cat_t *cat, int64_t id, size_t *n, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_cat_table_t *t;
  hl_status_t rc = id_table(h, id, a, &t, err);
  if (rc == HL_OK && !h->no_count) {
    int32_t count = 0;
    call_t c = {.method = "get_num_partitions_by_filter",
                .type = HL_TT_I32,
                .read = hl_hms_read_i32_v,
                .out = &count,
                .db = t->db_name,
                .tbl = t->name,
                .notfound = HL_SS(UNDEFINED_TABLE)};
    int32_t s = begin_call(h);
    hl_hms_write_strings3_call(&h->out, "get_num_partitions_by_filter", s, t->db_name, t->name, "");
    hl_error_t e;
    hl_err_init(&e);
    rc = do_call(h, &c, s, a, &e);
    if (rc == HL_UNSUPPORTED) {
      hl_err_clear(&e);
      h->no_count = true;
    } else {
      hl_err_move(err, &e);
      if (rc == HL_OK && count < 0)
        rc = hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                        "metastore %s: a partition count of %d for \"%s.%s\"",
                        hmsc_conn_uri(&h->conn), (int)count, t->db_name, t->name);
      if (rc == HL_OK) *n = (size_t)count;
      hl_arena_destroy(a);
      return rc;
    }
  }
  if (rc == HL_OK) {
    hl_cat_partition_t *p;
    rc = hmsc_partition_names(cat, id, NULL, a, &p, n, err);
  }
  hl_arena_destroy(a);
  return rc;
}

/* The full records of the partitions named KEYS[0..n) (their names as the
 * metastore spells them), batch by batch, in KEYS' order. */
static hl_status_t hmsc_partition_get_many(hl_cat_t *cat, int64_t id,
                                           const hl_cat_partition_t *keys, size_t n_keys,
                                           hl_arena_t *arena, hl_cat_partition_t **out, size_t *n,
                                           hl_error_t *err) {
  hmsc_t *h = H(cat);
  *n = 0;
  hl_cat_table_t *t;
  hl_status_t rc = id_table(h, id, arena, &t, err);
  if (rc) return rc;
  hl_cat_partition_t *res = hl_arena_zalloc(arena, sizeof *res * (n_keys ? n_keys : 1));
  char **names = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(h->batch_max + 1));
  if (!res || !names) return hl_err_nomem(err);
  size_t got = 0;
  for (size_t start = 0; start < n_keys; start += (size_t)h->batch_max) {
    size_t m = n_keys - start < (size_t)h->batch_max ? n_keys - start : (size_t)h->batch_max;
    for (size_t i = 0; i < m; i++)
      names[i] = keys[start + i].name;
    hl_hms_partition_list_t l;
    call_t c = {.method = "get_partitions_by_names",
                .type = HL_TT_LIST,
                .read = hl_hms_read_partition_list_v,
                .out = &l,
                .db = t->db_name,
                .tbl = t->name,
                .notfound = HL_SS(UNDEFINED_TABLE)};
    int32_t s = begin_call(h);
    hl_hms_write_get_partitions_by_names_call(&h->out, s, t->db_name, t->name, names, (uint32_t)m);
    if ((rc = do_call(h, &c, s, arena, err))) return rc;
    /* the metastore answers in its own order: put them in KEYS' */
    hl_cat_partition_t *batch = hl_arena_zalloc(arena, sizeof *batch * (l.n ? l.n : 1));
    if (!batch) return hl_err_nomem(err);
    for (uint32_t i = 0; i < l.n; i++) {
      hl_cat_partition_t *p = hmsc_partition_from(t, &l.items[i], 0, arena);
      if (!p)
        return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                          "metastore %s: a partition of \"%s.%s\" without %d values",
                          hmsc_conn_uri(&h->conn), t->db_name, t->name, t->n_part_keys);
      batch[i] = *p;
    }
    for (size_t i = 0; i < m; i++) {
      for (uint32_t j = 0; j < l.n; j++) {
        if (batch[j].name && strcmp(batch[j].name, keys[start + i].name) == 0) {
          res[got] = batch[j];
          if ((res[got].id = part_id(h, id, res[got].name)) < 0) return hl_err_nomem(err);
          got++;
          batch[j].name = NULL;
          break;
        }
      }
    }
  }
  *out = res;
  *n = got;
  return HL_OK;
}

static hl_status_t hmsc_partition_list(hl_cat_t *cat, int64_t id, hl_arena_t *arena,
                                       hl_cat_partition_t **out, size_t *n, hl_error_t *err) {
  hl_cat_partition_t *names;
  size_t n_names;
  hl_status_t rc = hmsc_partition_names(cat, id, NULL, arena, &names, &n_names, err);
  if (rc) return rc;
  return hmsc_partition_get_many(cat, id, names, n_names, arena, out, n, err);
}

static hl_status_t hmsc_partition_get(hl_cat_t *cat, int64_t id, char *const *values, int n_values,
                                      hl_arena_t *arena, hl_cat_partition_t **out,
                                      hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_cat_table_t *t;
  hl_status_t rc = id_table(h, id, arena, &t, err);
  if (rc) return rc;
  hl_hms_strlist_t vals = {(uint32_t)n_values,
                           hl_arena_zalloc(arena, sizeof(char *) * (size_t)(n_values + 1))};
  if (!vals.items) return hl_err_nomem(err);
  for (int k = 0; k < n_values; k++)
    vals.items[k] = values[k] ? values[k] : HL_DEFAULT_PARTITION_NAME;
  hl_hms_partition_t p;
  call_t c = {.method = "get_partition",
              .type = HL_TT_STRUCT,
              .read = hl_hms_read_partition_v,
              .out = &p,
              .db = t->db_name,
              .tbl = t->name,
              .notfound = HL_SS(UNDEFINED_OBJECT)};
  int32_t s = begin_call(h);
  hl_hms_write_get_partition_call(&h->out, s, t->db_name, t->name, &vals);
  if ((rc = do_call(h, &c, s, arena, err))) return rc;
  hl_cat_partition_t *cp = hmsc_partition_from(t, &p, 0, arena);
  if (!cp)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "metastore %s: a partition of \"%s.%s\" without %d values",
                      hmsc_conn_uri(&h->conn), t->db_name, t->name, t->n_part_keys);
  if ((cp->id = part_id(h, id, cp->name)) < 0) return hl_err_nomem(err);
  *out = cp;
  return HL_OK;
}

/* PARTS as metastore partitions of T (in A). */
static hl_hms_partition_t *to_hms_parts(const hl_cat_table_t *t, const hl_cat_partition_t *parts,
                                        size_t n, hl_arena_t *a) {
  hl_hms_partition_t *hp = hl_arena_zalloc(a, sizeof *hp * (n ? n : 1));
  if (!hp) return NULL;
  for (size_t i = 0; i < n; i++) {
    hl_hms_partition_t *m = hl_hms_map_partition(t, &parts[i], a);
    if (!m) return NULL;
    m->cat_name = NULL; /* Hive 2 servers have no catalogs */
    hp[i] = *m;
  }
  return hp;
}

static hl_status_t hmsc_partition_add_many(hl_cat_t *cat, const hl_cat_partition_t *parts, size_t n,
                                           hl_error_t *err) {
  hmsc_t *h = H(cat);
  if (n == 0) return HL_OK;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_cat_table_t *t;
  hl_status_t rc = id_table_full(h, parts[0].table_id, a, &t, err);
  if (rc == HL_OK) {
    hl_hms_partition_t *hp = to_hms_parts(t, parts, n, a);
    if (!hp) {
      rc = hl_err_nomem(err);
    } else {
      int32_t added;
      call_t c = {.method = "add_partitions",
                  .type = HL_TT_I32,
                  .read = hl_hms_read_i32_v,
                  .out = &added,
                  .write = true,
                  .db = t->db_name,
                  .tbl = t->name,
                  .exists = HL_SS(DUPLICATE_OBJECT),
                  .invalid = HL_SS(INVALID_PARAMETER_VALUE)};
      int32_t s = begin_call(h);
      hl_hms_write_add_partitions_call(&h->out, s, hp, (uint32_t)n);
      rc = do_call(h, &c, s, a, err);
    }
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t hmsc_partition_add(hl_cat_t *cat, const hl_cat_partition_t *part,
                                      hl_error_t *err) {
  return hmsc_partition_add_many(cat, part, 1, err);
}

/* The values of partition PID (by its name) under T's keys. */
static hl_status_t pid_values(hmsc_t *h, int64_t pid, hl_cat_table_t **t, char ***values,
                              hl_arena_t *a, hl_error_t *err) {
  if (pid < 1 || (size_t)pid > h->n_parts)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT), "no partition with id %lld",
                      (long long)pid);
  const part_ref_t *r = &h->parts[pid - 1];
  hl_status_t rc = id_table_full(h, r->table_id, a, t, err);
  if (rc) return rc;
  if (!(*values = hl_arena_zalloc(a, sizeof(char *) * (size_t)((*t)->n_part_keys + 1))))
    return hl_err_nomem(err);
  if (hmsc_parse_name(r->name, (*t)->n_part_keys, *values, a))
    return hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "partition id %lld: bad name",
                      (long long)pid);
  return HL_OK;
}

static hl_status_t hmsc_partition_update(hl_cat_t *cat, const hl_cat_partition_t *part,
                                         hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_cat_table_t *t;
  char **values;
  hl_status_t rc = pid_values(h, part->id, &t, &values, a, err);
  if (rc == HL_OK) {
    for (int k = 0; k < t->n_part_keys && rc == HL_OK; k++) {
      const char *o = values[k], *v = part->values[k];
      if ((o == NULL) != (v == NULL) || (o && strcmp(o, v) != 0))
        rc = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "renaming a partition of an attached metastore is not supported yet");
    }
  }
  if (rc == HL_OK) {
    hl_cat_partition_t p = *part;
    hl_cat_partition_t *cur = NULL;
    if (!p.sd) { /* NULL keeps the partition's descriptor */
      rc = hmsc_partition_get(cat, t->id, values, t->n_part_keys, a, &cur, err);
      if (rc == HL_OK) p.sd = cur->sd;
    }
    hl_hms_partition_t *hp = rc ? NULL : to_hms_parts(t, &p, 1, a);
    if (rc == HL_OK && !hp) rc = hl_err_nomem(err);
    if (rc == HL_OK) {
      call_t c = {.method = "alter_partition",
                  .type = HL_TT_STOP,
                  .write = true,
                  .db = t->db_name,
                  .tbl = t->name,
                  .invalid = HL_SS(UNDEFINED_OBJECT)};
      int32_t s = begin_call(h);
      hl_hms_write_alter_partition_call(&h->out, s, t->db_name, t->name, hp);
      rc = do_call(h, &c, s, a, err);
    }
  }
  hl_arena_destroy(a);
  return rc;
}

static hl_status_t hmsc_partition_drop(hl_cat_t *cat, int64_t pid, hl_error_t *err) {
  hmsc_t *h = H(cat);
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_cat_table_t *t;
  char **values;
  hl_status_t rc = pid_values(h, pid, &t, &values, a, err);
  if (rc == HL_OK) {
    hl_hms_strlist_t vals = {(uint32_t)t->n_part_keys,
                             hl_arena_zalloc(a, sizeof(char *) * (size_t)(t->n_part_keys + 1))};
    if (!vals.items) rc = hl_err_nomem(err);
    for (int k = 0; rc == HL_OK && k < t->n_part_keys; k++)
      vals.items[k] = values[k] ? values[k] : HL_DEFAULT_PARTITION_NAME;
    int dropped = 0;
    call_t c = {.method = "drop_partition",
                .type = HL_TT_BOOL,
                .read = hl_hms_read_bool_v,
                .out = &dropped,
                .write = true,
                .db = t->db_name,
                .tbl = t->name,
                .notfound = HL_SS(UNDEFINED_OBJECT)};
    if (rc == HL_OK) {
      int32_t s = begin_call(h);
      /* deleteData false: the files are the write transaction's */
      hl_hms_write_drop_partition_call(&h->out, s, t->db_name, t->name, &vals, false);
      rc = do_call(h, &c, s, a, err);
    }
  }
  hl_arena_destroy(a);
  return rc;
}

/* The metastore cannot say which objects lie under a directory; no
 * overlap is reported (docs/operations.md says so). */
static hl_status_t hmsc_locations_within(hl_cat_t *cat, const char *dir, hl_arena_t *arena,
                                         hl_cat_location_user_t **out, size_t *n, hl_error_t *err) {
  (void)cat, (void)dir, (void)arena, (void)err;
  *out = NULL;
  *n = 0;
  return HL_OK;
}

static hl_status_t hmsc_locations_at(hl_cat_t *cat, const char *const *paths, size_t n_paths,
                                     hl_arena_t *arena, hl_cat_location_user_t **out, size_t *n,
                                     hl_error_t *err) {
  (void)cat, (void)paths, (void)n_paths, (void)arena, (void)err;
  *out = NULL;
  *n = 0;
  return HL_OK;
}

/* ------------------------------------------------------------ column statistics
 *
 * The records as ColumnStatisticsObj (src/hms/hms_stats_map.c, the same
 * mapping the server uses): bitVectors are not sent, so an attached
 * metastore keeps no HyperLogLog registers and a table's distinct counts
 * over partitions are the largest partition's (cmd_analyze.c).  These
 * writes are journaled as irreversible (cat_dispatch.c). */

/* The names of TABLE_ID and of partition PID (0: none) for a call. */
static hl_status_t stats_names(hmsc_t *h, int64_t table_id, int64_t pid, const table_ref_t **t,
                               const char **part, hl_error_t *err) {
  if (!(*t = table_ref(h, table_id, err))) return HL_NOTFOUND;
  *part = NULL;
  if (pid == 0) return HL_OK;
  if (pid < 0 || (size_t)pid > h->n_parts || h->parts[pid - 1].table_id != table_id)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT), "no partition with id %lld",
                      (long long)pid);
  *part = h->parts[pid - 1].name;
  return HL_OK;
}

static hl_status_t hmsc_col_stats_put(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                      const hl_cat_col_stats_t *stats, size_t n, hl_error_t *err) {
  hmsc_t *h = H(cat);
  const table_ref_t *t;
  const char *part;
  hl_status_t rc = stats_names(h, table_id, partition_id, &t, &part, err);
  if (rc) return rc;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  hl_hms_col_stats_t cs = {0};
  cs.desc.is_tbl_level = part == NULL;
  cs.desc.db_name = t->db;
  cs.desc.table_name = t->name;
  cs.desc.part_name = (char *)part;
  cs.engine = "hive";
  cs.objs = hl_arena_zalloc(a, sizeof *cs.objs * (n ? n : 1));
  if (!cs.objs) rc = hl_err_nomem(err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    if (stats[i].last_analyzed > 0) {
      cs.desc.has_last_analyzed = 1;
      cs.desc.last_analyzed = stats[i].last_analyzed;
    }
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t r = hl_hms_stats_to_obj(a, NULL, &stats[i], &cs.objs[cs.n_objs], &e);
    if (r == HL_NOMEM) rc = hl_err_nomem(err);
    if (r == HL_OK) cs.n_objs++; /* a type Hive keeps no statistics of is left out */
    hl_err_clear(&e);
  }
  if (rc == HL_OK && cs.n_objs) {
    int ok = 0;
    call_t c = {.method =
                    part ? "update_partition_column_statistics" : "update_table_column_statistics",
                .type = HL_TT_BOOL,
                .read = hl_hms_read_bool_v,
                .out = &ok,
                .write = true,
                .db = t->db,
                .tbl = t->name,
                .notfound = part ? HL_SS(UNDEFINED_OBJECT) : HL_SS(UNDEFINED_TABLE),
                .invalid = HL_SS(INVALID_PARAMETER_VALUE)};
    int32_t s = begin_call(h);
    hl_hms_write_update_col_stats_call(&h->out, s, &cs);
    rc = do_call(h, &c, s, a, err);
    if (rc == HL_OK && !ok)
      rc = hl_err_set(err, HL_ERROR, HL_SS(INTERNAL_ERROR),
                      "metastore %s: %s of \"%s.%s\" answered false", hmsc_conn_uri(&h->conn),
                      c.method, t->db, t->name);
  }
  hl_arena_destroy(a);
  return rc;
}

/* The record of object O (a reply's, in ARENA) of table T; analyzed at
 * WHEN. */
static hl_status_t stats_rec(hmsc_t *h, const table_ref_t *t, const hl_hms_stats_obj_t *o,
                             int64_t when, hl_arena_t *arena, hl_cat_col_stats_t *out,
                             hl_error_t *err) {
  if (!o->col_name || !o->col_type)
    return hl_err_set(err, HL_CORRUPT, HL_SS(PROTOCOL_VIOLATION),
                      "metastore %s: statistics of \"%s.%s\" without a column name or type",
                      hmsc_conn_uri(&h->conn), t->db, t->name);
  char *name = lower_dup(arena, o->col_name);
  if (!name) return hl_err_nomem(err);
  hl_status_t rc = hl_hms_stats_from_obj(arena, name, o->col_type, o, when, out, err);
  if (rc && rc != HL_NOMEM)
    hl_err_prefix(err, "metastore %s: statistics of \"%s.%s\"", hmsc_conn_uri(&h->conn), t->db,
                  t->name);
  return rc;
}

static hl_status_t hmsc_col_stats_get(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                      const char *col, hl_arena_t *arena, hl_cat_col_stats_t **out,
                                      hl_error_t *err) {
  hmsc_t *h = H(cat);
  *out = NULL;
  const table_ref_t *t;
  const char *part;
  hl_status_t rc = stats_names(h, table_id, partition_id, &t, &part, err);
  if (rc) return rc;
  hl_hms_col_stats_t cs;
  call_t c = {.method = part ? "get_partition_column_statistics" : "get_table_column_statistics",
              .type = HL_TT_STRUCT,
              .read = hl_hms_read_col_stats_v,
              .out = &cs,
              .db = t->db,
              .tbl = t->name};
  int32_t s = begin_call(h);
  hl_hms_write_col_stats_call(&h->out, c.method, s, t->db, t->name, part, col, false);
  rc = do_call(h, &c, s, arena, err);
  if (rc == HL_NOTFOUND) { /* no statistics (or no such column) */
    hl_err_clear(err);
    return HL_OK;
  }
  if (rc) return rc;
  for (uint32_t i = 0; i < cs.n_objs; i++) {
    if (!cs.objs[i].col_name || strcasecmp(cs.objs[i].col_name, col) != 0) continue;
    hl_cat_col_stats_t *r = hl_arena_zalloc(arena, sizeof *r);
    if (!r) return hl_err_nomem(err);
    rc = stats_rec(h, t, &cs.objs[i], cs.desc.has_last_analyzed ? cs.desc.last_analyzed : 0, arena,
                   r, err);
    if (rc) return rc;
    r->partition_id = partition_id;
    *out = r;
    break;
  }
  return HL_OK;
}

/* Partition names in batches of hive.metastore.batch.retrieve.max. */
static hl_status_t hmsc_col_stats_list_parts(hl_cat_t *cat, int64_t table_id, const char *col,
                                             hl_arena_t *arena, hl_cat_col_stats_t **out, size_t *n,
                                             hl_error_t *err) {
  hmsc_t *h = H(cat);
  *out = NULL;
  *n = 0;
  const table_ref_t *t;
  const char *none;
  hl_status_t rc = stats_names(h, table_id, 0, &t, &none, err);
  if (rc) return rc;
  hl_cat_partition_t *parts;
  size_t n_parts;
  if ((rc = hmsc_partition_names(cat, table_id, NULL, arena, &parts, &n_parts, err))) return rc;
  hl_cat_col_stats_t *res = hl_arena_zalloc(arena, sizeof *res * (n_parts ? n_parts : 1));
  char **names = hl_arena_zalloc(arena, sizeof(char *) * (size_t)(h->batch_max + 1));
  if (!res || !names) return hl_err_nomem(err);
  char *one = (char *)col;
  hl_hms_strlist_t cols = {1, &one};
  for (size_t start = 0; start < n_parts; start += (size_t)h->batch_max) {
    size_t m = n_parts - start < (size_t)h->batch_max ? n_parts - start : (size_t)h->batch_max;
    for (size_t i = 0; i < m; i++)
      names[i] = parts[start + i].name;
    hl_hms_strlist_t pl = {(uint32_t)m, names};
    hl_hms_partitions_stats_result_t r;
    call_t c = {.method = "get_partitions_statistics_req",
                .type = HL_TT_STRUCT,
                .read = hl_hms_read_partitions_stats_result_v,
                .out = &r,
                .db = t->db,
                .tbl = t->name,
                .notfound = HL_SS(UNDEFINED_TABLE)};
    int32_t s = begin_call(h);
    hl_hms_write_partitions_stats_call(&h->out, s, t->db, t->name, &cols, &pl);
    if ((rc = do_call(h, &c, s, arena, err))) return rc;
    /* in the partitions' order; names the metastore sends that were not
     * asked for are ignored */
    for (size_t i = 0; i < m; i++) {
      for (uint32_t j = 0; j < r.n_parts; j++) {
        const hl_hms_part_stats_t *ps = &r.parts[j];
        if (!ps->part_name || strcmp(ps->part_name, names[i]) != 0) continue;
        for (uint32_t k = 0; k < ps->n_objs; k++) {
          if (!ps->objs[k].col_name || strcasecmp(ps->objs[k].col_name, col) != 0) continue;
          if ((rc = stats_rec(h, t, &ps->objs[k], 0, arena, &res[*n], err))) return rc;
          res[(*n)++].partition_id = parts[start + i].id;
          break;
        }
        break;
      }
    }
  }
  *out = res;
  return HL_OK;
}

static hl_status_t hmsc_col_stats_delete(hl_cat_t *cat, int64_t table_id, int64_t partition_id,
                                         const char *col, bool *deleted, hl_error_t *err) {
  hmsc_t *h = H(cat);
  *deleted = false;
  const table_ref_t *t;
  const char *part;
  hl_status_t rc = stats_names(h, table_id, partition_id, &t, &part, err);
  if (rc) return rc;
  hl_arena_t *a = hl_arena_create(0);
  if (!a) return hl_err_nomem(err);
  int ok = 0;
  call_t c = {.method =
                  part ? "delete_partition_column_statistics" : "delete_table_column_statistics",
              .type = HL_TT_BOOL,
              .read = hl_hms_read_bool_v,
              .out = &ok,
              .write = true,
              .db = t->db,
              .tbl = t->name};
  int32_t s = begin_call(h);
  hl_hms_write_col_stats_call(&h->out, c.method, s, t->db, t->name, part, col, true);
  rc = do_call(h, &c, s, a, err);
  if (rc == HL_NOTFOUND) { /* there were none */
    hl_err_clear(err);
    rc = HL_OK;
  } else if (rc == HL_OK) {
    *deleted = ok != 0;
  }
  hl_arena_destroy(a);
  return rc;
}

static const hl_cat_ops_t HMSC_OPS = {
    .name = "hms",
    .readonly = hmsc_readonly,
    .close = hmsc_close,
    .begin = hmsc_begin,
    .commit = hmsc_commit,
    .rollback = hmsc_rollback,
    .db_create = hmsc_db_create,
    .db_get = hmsc_db_get,
    .db_list = hmsc_db_list,
    .db_drop = hmsc_db_drop,
    .table_create = hmsc_table_create,
    .table_get = hmsc_table_get,
    .table_list = hmsc_table_list,
    .table_update = hmsc_table_update,
    .table_drop = hmsc_table_drop,
    .partition_add = hmsc_partition_add,
    .partition_add_many = hmsc_partition_add_many,
    .partition_get = hmsc_partition_get,
    .partition_list = hmsc_partition_list,
    .partition_count = hmsc_partition_count,
    .partition_update = hmsc_partition_update,
    .partition_drop = hmsc_partition_drop,
    .locations_within = hmsc_locations_within,
    .locations_at = hmsc_locations_at,
    .partition_names = hmsc_partition_names,
    .partition_get_many = hmsc_partition_get_many,
    .refresh = hmsc_refresh,
    .local = hmsc_local,
    .transactional = hmsc_transactional,
    .address = hmsc_address,
    .table_name = hmsc_table_name,
    .partition_table = hmsc_partition_table,
    .col_stats_put = hmsc_col_stats_put,
    .col_stats_get = hmsc_col_stats_get,
    .col_stats_list_parts = hmsc_col_stats_list_parts,
    .col_stats_delete = hmsc_col_stats_delete,
};

/* ------------------------------------------------------------ open */

bool hl_hmsc_is_uri(const char *text) {
  return text && strncmp(text, "thrift://", 9) == 0;
}

/* A duration property in seconds ("600", "600s", "10m", "500ms"): *MS. */
static hl_status_t duration_ms(const hl_kv_t *props, int n, const char *key, int64_t *ms,
                               hl_error_t *err) {
  const char *v = hl_kv_get(props, n, key);
  if (!v) return HL_OK;
  char *end;
  double d = strtod(v, &end);
  double scale = 1000;
  if (strcmp(end, "ms") == 0)
    scale = 1;
  else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
    scale = 60000;
  else if (*end && strcmp(end, "s") != 0)
    d = -1;
  if (end == v || d < 0 || d * scale > 86400000.0 * 365)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "%s must be a duration in seconds, not \"%s\"", key, v);
  *ms = (int64_t)(d * scale);
  return HL_OK;
}

static bool prop_true(const hl_kv_t *props, int n, const char *key) {
  const char *v = hl_kv_get(props, n, key);
  return v && strcasecmp(v, "true") == 0;
}

/* The Kerberos settings of a SASL connection (hms_client.h): Hive's
 * names for the service and the level, Doris's for the client keytab. */
static hl_status_t sasl_settings(hmsc_conn_t *c, const hl_kv_t *props, int n, hl_error_t *err) {
  const char *principal = hl_kv_get(props, n, "hive.metastore.kerberos.principal");
  const char *keytab = hl_kv_get(props, n, "hadoop.kerberos.keytab");
  const char *client = hl_kv_get(props, n, "hadoop.kerberos.principal");
  const char *qop_key = "hive.metastore.thrift.sasl.qop";
  const char *qop = hl_kv_get(props, n, qop_key);
  if (!qop) qop = hl_kv_get(props, n, qop_key = "hadoop.rpc.protection");
  c->sasl_qop = HL_TSASL_AUTH;
  if (qop && hl_tsasl_qop_parse(qop, &c->sasl_qop, err)) {
    hl_err_prefix(err, "%s", qop_key);
    return err->code;
  }
  if (client && !keytab)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "'hadoop.kerberos.principal' needs 'hadoop.kerberos.keytab' (without "
                      "both, the ticket cache is used)");
  if ((principal && !(c->sasl_principal = hl_strdup(principal))) ||
      (keytab && !(c->sasl_keytab = hl_strdup(keytab))) ||
      (client && !(c->sasl_client = hl_strdup(client))))
    return hl_err_nomem(err);
  return HL_OK;
}

hl_status_t hl_hmsc_open(const char *uris, const hl_kv_t *props, int n_props, hl_cat_t *local,
                         hl_cat_t **out, hl_error_t *err) {
  *out = NULL;
  hmsc_t *h = hl_calloc(1, sizeof *h);
  if (!h) return hl_err_nomem(err);
  h->base.ops = &HMSC_OPS;
  h->local = local;
  h->batch_max = 300;
  hl_buf_init(&h->out);
  if (!(h->address = hl_strdup(uris ? uris : ""))) {
    hl_free(h);
    return hl_err_nomem(err);
  }
  hl_status_t rc = hmsc_conn_init(&h->conn, uris ? uris : "", err);
  if (rc) {
    hl_buf_fini(&h->out);
    hl_free(h->address);
    hl_free(h);
    return rc;
  }
  if (!(h->names = hl_arena_create(0)) || !(h->table_ids = hl_map_create()) ||
      !(h->part_ids = hl_map_create())) {
    hmsc_close(&h->base);
    return hl_err_nomem(err);
  }
  int64_t sock = 600000, conn = 20000, ttl = 0;
  rc = duration_ms(props, n_props, "hive.metastore.client.socket.timeout", &sock, err);
  if (!rc) rc = duration_ms(props, n_props, "hive.metastore.client.connect.timeout", &conn, err);
  if (!rc) rc = duration_ms(props, n_props, "hive.metastore-cache-ttl", &ttl, err);
  const char *batch = hl_kv_get(props, n_props, "hive.metastore.batch.retrieve.max");
  if (!rc && batch) {
    char *end;
    long b = strtol(batch, &end, 10);
    if (*end || b < 1 || b > 100000)
      rc = hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "hive.metastore.batch.retrieve.max must be between 1 and 100000, not "
                      "\"%s\"",
                      batch);
    h->batch_max = (int)b;
  }
  if (rc) {
    hmsc_close(&h->base);
    return rc;
  }
  h->conn.socket_timeout_ms = sock > INT32_MAX ? INT32_MAX : (int)sock;
  h->conn.connect_timeout_ms = conn > INT32_MAX ? INT32_MAX : (int)conn;
  h->ttl_ms = ttl;
  h->conn.framed = prop_true(props, n_props, "hive.metastore.thrift.framed.transport.enabled");
  h->conn.sasl = prop_true(props, n_props, "hive.metastore.sasl.enabled");
  if (h->conn.sasl && (rc = sasl_settings(&h->conn, props, n_props, err))) {
    hmsc_close(&h->base);
    return rc;
  }
  if ((rc = hmsc_conn_connect(&h->conn, err))) {
    hmsc_close(&h->base);
    return rc;
  }
  *out = &h->base;
  return HL_OK;
}
