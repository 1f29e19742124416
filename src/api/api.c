/*
 * api.c -- the public API of include/hivelite.h: warehouse handles,
 * statements, row access and errors.
 *
 * A statement owns an arena holding its syntax tree, plan and operators.
 * hl_step executes it on the first call and then walks the live rows of the
 * batches its root operator yields; hl_column_text formats values on demand
 * into per-column buffers owned by the statement.
 */
#include "api_int.h"

#include "hms_client/hms_client.h"
#include "hms_server/hms_server.h"
#include "command/command.h"
#include "exec/spill.h"
#include "session/catalogs.h"
#include "session/params.h"
#include "session/s3conf.h"
#include "format/parquet/parquet.h"
#include "storage/stor_cache.h"
#include "sql/parser.h"
#include "txn/txn.h"
#include "util/mem.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ----------------------------------------------------------------- errors */

static void clear_error(hl_db_t *db) {
  hl_err_clear(&db->err);
  db->err_line = db->err_col = 0;
}

void hl_api_clear_error(hl_db_t *db) {
  clear_error(db);
}

/* Records ERR as the handle's error; positions are offsets into TEXT. */
static hl_status_t take_error(hl_db_t *db, hl_error_t *err, const char *text) {
  hl_status_t code = err->code;
  hl_err_move(&db->err, err);
  db->err_line = db->err_col = 0;
  /* a cancel is no fault of the text, whatever the statement was at */
  if (code == HL_INTERRUPT) db->err.position = -1;
  if (text && db->err.position >= 0 && (size_t)db->err.position <= strlen(text))
    hl_sql_line_col(text, db->err.position, &db->err_line, &db->err_col);
  return code;
}

hl_status_t hl_api_take_error(hl_db_t *db, hl_stmt_t *stmt, hl_error_t *err) {
  return take_error(db, err, stmt ? stmt->text : NULL);
}

hl_status_t hl_errcode(hl_db_t *db) {
  return db ? db->err.code : HL_NOMEM;
}

const char *hl_errmsg(hl_db_t *db) {
  if (!db) return "out of memory";
  return db->err.message ? db->err.message : "not an error";
}

const char *hl_sqlstate(hl_db_t *db) {
  return db ? db->err.sqlstate : "53200";
}

const char *hl_errdetail(hl_db_t *db) {
  return db && db->err.code != HL_OK ? db->err.detail : NULL;
}

const char *hl_errhint(hl_db_t *db) {
  return db && db->err.code != HL_OK ? db->err.hint : NULL;
}

int hl_error_line(hl_db_t *db) {
  return db ? db->err_line : 0;
}

int hl_error_column(hl_db_t *db) {
  return db ? db->err_col : 0;
}

const char *hl_status_name(hl_status_t s) {
  static const char *const names[] = {
      "HL_OK",          "HL_ROW",     "HL_DONE",     "HL_ERROR",      "HL_NOMEM",
      "HL_IOERR",       "HL_CORRUPT", "HL_NOTFOUND", "HL_CONSTRAINT", "HL_INTERRUPT",
      "HL_UNSUPPORTED", "HL_MISUSE",  "HL_INTERNAL"};
  if ((unsigned)s < sizeof names / sizeof names[0]) return names[s];
  return "HL_UNKNOWN";
}

const char *hl_status_str(hl_status_t s) {
  static const char *const texts[] = {"not an error",
                                      "a row is ready",
                                      "no more rows",
                                      "SQL error",
                                      "out of memory",
                                      "I/O error",
                                      "malformed data file or metastore",
                                      "object not found",
                                      "object exists or is in use",
                                      "interrupted",
                                      "not supported yet",
                                      "API misuse",
                                      "internal error"};
  if ((unsigned)s < sizeof texts / sizeof texts[0]) return texts[s];
  return "unknown status";
}

/* ------------------------------------------------------------- handles */

/* Opens a stored catalog (session/catalogs.h's opener): type 'hms', its
 * properties passed to the Hive Metastore client as given. */
static hl_status_t open_catalog(void *ctx, const hl_cat_catalog_t *def, hl_cat_t *local,
                                hl_cat_t **out, hl_error_t *err) {
  (void)ctx;
  if (strcmp(def->type, "hms") != 0)
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "catalog type '%s' is not supported", def->type);
  const char *uris = hl_kv_get(def->props, def->n_props, "hive.metastore.uris");
  if (!uris)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "catalog \"%s\" needs the property 'hive.metastore.uris'", def->name);
  return hl_hmsc_open(uris, def->props, def->n_props, local, out, err);
}

/* `-m thrift://...`: the metastore at URIS attached for this session as
 * the catalog `hive` (the name Trino's and Doris's Hive examples use),
 * current from the start.  The client's settings (hms_client.h) come from
 * the session: the warehouse config file. */
static hl_status_t attach_uris(hl_session_t *s, const char *uris, hl_error_t *err) {
  static const char *const keys[] = {"hive.metastore.client.socket.timeout",
                                     "hive.metastore.client.connect.timeout",
                                     "hive.metastore.thrift.framed.transport.enabled",
                                     "hive.metastore.sasl.enabled",
                                     "hive.metastore.kerberos.principal",
                                     "hive.metastore.thrift.sasl.qop",
                                     "hadoop.rpc.protection",
                                     "hadoop.kerberos.keytab",
                                     "hadoop.kerberos.principal",
                                     "hive.metastore.batch.retrieve.max",
                                     "hive.metastore-cache-ttl"};
  hl_kv_t props[2 + sizeof keys / sizeof keys[0]] = {{"type", "hms"},
                                                     {"hive.metastore.uris", (char *)uris}};
  int n = 2;
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    const char *v = hl_session_get(s, keys[i]);
    if (v) props[n++] = (hl_kv_t){(char *)keys[i], (char *)v};
  }
  hl_cat_catalog_t def = {.name = "hive", .type = "hms", .props = props, .n_props = n};
  hl_cat_t *cat = NULL;
  hl_status_t rc = open_catalog(NULL, &def, s->cat, &cat, err);
  if (rc == HL_OK) rc = hl_catalogs_attach(s, "hive", uris, cat, err);
  if (rc == HL_OK) rc = hl_catalogs_switch(s, "hive", NULL, -1, err);
  return rc;
}

/* Recovery's opener once `-m` attached CAT: the writes of dead processes
 * recorded with CAT's address are undone through it (the first recovery,
 * before the attach, left them). */
static hl_status_t attached_opener(void *arg, const char *address, hl_cat_t **out,
                                   hl_error_t *err) {
  (void)err;
  hl_cat_t *cat = arg;
  *out = address && *address && strcmp(hl_cat_address(cat), address) == 0 ? cat : NULL;
  return HL_OK;
}

/* METASTORE names a Hive Metastore to attach rather than a file. */
static bool is_uri(const char *metastore) {
  return metastore && strncmp(metastore, "thrift://", 9) == 0;
}

static hl_status_t open_session(hl_db_t *db, const char *warehouse, const char *metastore,
                                hl_error_t *err) {
  hl_session_t *s = &db->session;
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  const char *uris = is_uri(metastore) ? metastore : NULL;
  if (uris) metastore = NULL; /* the embedded one keeps intents and catalogs */
  char *wh = hl_path_normalize(tmp, warehouse, NULL);
  if (!wh || !(s->warehouse = hl_strdup(wh)) || !(s->current_db = hl_strdup("default"))) {
    rc = hl_err_nomem(err);
    goto done;
  }
  if (!(s->list_cache = hl_list_cache_create(16384))) {
    rc = hl_err_nomem(err);
    goto done;
  }
  if (!(s->parquet_cache = hl_parquet_cache_create(256))) {
    rc = hl_err_nomem(err);
    goto done;
  }
  /* every location through one router: local paths, and s3:// ones with
   * the session's S3 settings (session/s3conf.c) */
  hl_stor_t *s3 = hl_stor_s3_create(hl_session_s3_config, s);
  s->s3 = s3;
  if (!s3 || !(s->fs = hl_stor_route_create(hl_stor_local_create(), s3))) {
    rc = hl_err_nomem(err);
    goto done;
  }
  rc = s->fs->ops->mkdirs(s->fs, s->warehouse, err);
  if (rc == HL_OK) rc = hl_session_load_config(s, err);
  if (rc != HL_OK) goto done;
  const char *ms = metastore ? hl_path_normalize(tmp, metastore, NULL)
                             : hl_arena_sprintf(tmp, "%s/.hivelite/metastore.db", s->warehouse);
  if (!ms || !(s->metastore = hl_strdup(ms))) {
    rc = hl_err_nomem(err);
    goto done;
  }
  rc = hl_cat_open(ms, &s->cat, err);
  if (rc == HL_OK && hl_catalogs_init(s, open_catalog, NULL) != HL_OK) rc = hl_err_nomem(err);
  double lock_timeout = 60;
  if (rc == HL_OK)
    rc = hl_txn_parse_lock_timeout(hl_session_get(s, "hivelite.lock.timeout"), &lock_timeout, err);
  if (rc == HL_OK) { /* writes cut short by a crash */
    const char *lock_dir = hl_txn_lock_dir(tmp, s->warehouse);
    rc = lock_dir ? hl_txn_recover(s->cat, s->fs, lock_dir, lock_timeout, NULL, NULL, NULL, err)
                  : hl_err_nomem(err);
    if (rc != HL_OK && hl_cat_readonly(s->cat))
      hl_err_prefix(err, "a write cut short by a crash must be repaired first");
  }
  if (rc != HL_OK) goto done;
  { /* spill files of a process that died (exec/spill.h); never fails the open */
    const char *spill_root;
    hl_error_t serr;
    hl_err_init(&serr);
    if (hl_spill_root(s, tmp, &spill_root, &serr) == HL_OK) hl_spill_sweep(spill_root);
    hl_err_clear(&serr);
  }
  /* the default database lives at the warehouse root */
  hl_cat_db_t *def;
  hl_error_t gerr;
  hl_err_init(&gerr);
  rc = hl_cat_db_get(s->cat, "default", tmp, &def, &gerr);
  if (rc == HL_NOTFOUND) {
    hl_err_clear(&gerr);
    hl_cat_db_t d = {
        .name = "default", .comment = "Default Hive database", .location = s->warehouse};
    rc = hl_cat_db_create(s->cat, &d, &gerr);
    /* a concurrent first open of the same new warehouse created it first */
    if (rc == HL_CONSTRAINT && strcmp(gerr.sqlstate, HL_SS(DUPLICATE_DATABASE)) == 0) {
      hl_err_clear(&gerr);
      rc = HL_OK;
    } else if (rc != HL_OK) {
      hl_err_move(err, &gerr);
    }
  } else if (rc != HL_OK) {
    hl_err_move(err, &gerr);
  }
  if (rc == HL_OK && uris) rc = attach_uris(s, uris, err);
  if (rc == HL_OK && uris) { /* writes through that metastore cut short by a crash */
    const char *lock_dir = hl_txn_lock_dir(tmp, s->warehouse);
    rc = lock_dir ? hl_txn_recover(hl_cat_local(s->cat), s->fs, lock_dir, lock_timeout,
                                   attached_opener, s->cat, NULL, err)
                  : hl_err_nomem(err);
  }
done:
  hl_arena_destroy(tmp);
  return rc;
}

hl_status_t hl_open(const char *warehouse, const char *metastore, hl_db_t **out) {
  hl_db_t *db = hl_calloc(1, sizeof(*db));
  *out = db;
  if (!db) return HL_NOMEM;
  hl_err_init(&db->err);
  hl_error_t err;
  hl_err_init(&err);
  if (!warehouse || !*warehouse) {
    hl_err_set(&err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "no warehouse directory given");
    return take_error(db, &err, NULL);
  }
  if (open_session(db, warehouse, metastore, &err) != HL_OK) return take_error(db, &err, NULL);
  return HL_OK;
}

/* hivelite.metastore.sasl.enabled and its companions into O: the
 * principal with _HOST replaced as Hive's server does it (the canonical
 * name of this machine; *PRINCIPAL is that heap string), the keytab, the
 * protection level (auth unless set). */
static hl_status_t metastore_sasl_settings(hl_session_t *s, hl_hms_server_opts_t *o,
                                           char **principal, hl_error_t *err) {
  const char *on = hl_session_get(s, "hivelite.metastore.sasl.enabled");
  if (!on || !*on || strcasecmp(on, "false") == 0) return HL_OK;
  if (strcasecmp(on, "true") != 0)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "hivelite.metastore.sasl.enabled must be true or false, not \"%s\"", on);
  const char *pattern = hl_session_get(s, "hivelite.metastore.kerberos.principal");
  const char *keytab = hl_session_get(s, "hivelite.metastore.kerberos.keytab.file");
  const char *qop = hl_session_get(s, "hivelite.metastore.sasl.qop");
  if (!pattern || !*pattern || !keytab || !*keytab)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "hivelite.metastore.sasl.enabled needs hivelite.metastore.kerberos.principal "
                      "and hivelite.metastore.kerberos.keytab.file");
  o->sasl_qop = HL_TSASL_AUTH;
  if (qop && *qop && hl_tsasl_qop_parse(qop, &o->sasl_qop, err) != HL_OK) {
    hl_err_prefix(err, "hivelite.metastore.sasl.qop");
    return HL_MISUSE;
  }
  hl_status_t rc = hl_tsasl_resolve_principal(pattern, NULL, principal, err);
  if (rc) return rc;
  o->sasl_principal = *principal;
  o->sasl_keytab = keytab;
  return HL_OK;
}

hl_status_t hl_metastore_serve(hl_db_t *db, const char *host, int port, int idle_timeout_s,
                               hl_listen_fn fn, void *ctx) {
  hl_error_t err;
  hl_err_init(&err);
  clear_error(db);
  if (!host || port < 0 || port > 65535) {
    hl_err_set(&err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "metastore: bad listen address");
    return take_error(db, &err, NULL);
  }
  uint64_t max_conns;
  if (hl_session_get_u64(&db->session, "hivelite.metastore.max_connections", 256, &max_conns,
                         &err) != HL_OK)
    return take_error(db, &err, NULL);
  if (max_conns < 1 || max_conns > 65536) {
    hl_err_set(&err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
               "hivelite.metastore.max_connections must be between 1 and 65536");
    return take_error(db, &err, NULL);
  }
  /* the largest partition list answered whole; default what clients take */
  uint64_t max_reply;
  if (hl_session_get_u64(&db->session, "hivelite.metastore.max_reply_bytes",
                         HL_HMS_DEFAULT_MAX_REPLY, &max_reply, &err) != HL_OK)
    return take_error(db, &err, NULL);
  if (max_reply < 1024 || max_reply > HL_HMS_DEFAULT_MAX_REPLY) {
    hl_err_set(&err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
               "hivelite.metastore.max_reply_bytes must be between 1024 and %u",
               HL_HMS_DEFAULT_MAX_REPLY);
    return take_error(db, &err, NULL);
  }
  uint64_t lock_timeout;
  if (hl_session_get_u64(&db->session, "hivelite.metastore.lock_timeout_s", 300, &lock_timeout,
                         &err) != HL_OK)
    return take_error(db, &err, NULL);
  if (lock_timeout < 1 || lock_timeout > 86400 * 365) {
    hl_err_set(&err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
               "hivelite.metastore.lock_timeout_s must be between 1 and 31536000");
    return take_error(db, &err, NULL);
  }
  hl_hms_server_opts_t o = {.metastore = db->session.metastore,
                            .host = host,
                            .port = port,
                            .idle_timeout_ms = idle_timeout_s > 0 ? idle_timeout_s * 1000 : 0,
                            .max_conns = (int)max_conns,
                            .lock_timeout_s = (int)lock_timeout,
                            .on_listen = fn,
                            .ctx = ctx,
                            .max_reply = (size_t)max_reply,
                            .fs = db->session.fs};
  char *principal = NULL;
  hl_status_t rc = metastore_sasl_settings(&db->session, &o, &principal, &err);
  if (rc == HL_OK) rc = hl_hms_serve(&o, &err);
  hl_free(principal);
  if (rc != HL_OK) return take_error(db, &err, NULL);
  return HL_OK;
}

void hl_close(hl_db_t *db) {
  if (!db) return;
  hl_session_t *s = &db->session;
  hl_catalogs_fini(s); /* the attached catalogs; s->cat is internal again */
  hl_cat_close(s->cat);
  hl_parquet_cache_destroy(s->parquet_cache);
  hl_list_cache_destroy(s->list_cache);
  if (s->fs) s->fs->ops->destroy(s->fs);
  hl_session_fini(s);
  hl_free(s->warehouse);
  hl_free(s->current_db);
  hl_err_clear(&db->err);
  hl_free(db);
}

void hl_interrupt(hl_db_t *db) {
  if (db) hl_budget_cancel(&db->session.budget);
}

void hl_set_warning_handler(hl_db_t *db, hl_warning_fn fn, void *ctx) {
  if (!db) return;
  db->session.notify.warn = fn;
  db->session.notify.warn_ctx = ctx;
}

void hl_set_progress_handler(hl_db_t *db, hl_progress_fn fn, void *ctx) {
  if (!db) return;
  db->session.notify.progress = fn;
  db->session.notify.progress_ctx = ctx;
}

/* ---------------------------------------------------------- statements */

/* hivelite.sql.string_literals: hive (the default) or standard. */
static hl_status_t string_literals(hl_session_t *s, hl_sql_strings_t *out, hl_error_t *err) {
  const char *v = hl_session_get(s, "hivelite.sql.string_literals");
  if (!v || strcasecmp(v, "hive") == 0) {
    *out = HL_SQL_STRINGS_HIVE;
  } else if (strcasecmp(v, "standard") == 0) {
    *out = HL_SQL_STRINGS_STANDARD;
  } else {
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for hivelite.sql.string_literals (expected hive or "
                      "standard)",
                      v);
  }
  return HL_OK;
}

hl_status_t hl_prepare(hl_db_t *db, const char *sql, hl_stmt_t **out, const char **tail) {
  *out = NULL;
  if (tail) *tail = sql;
  clear_error(db);
  /* a request from before this statement is not for it (include/hivelite.h) */
  hl_budget_clear_cancel(&db->session.budget);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return take_error(db, (hl_err_nomem(&err), &err), NULL);
  hl_ast_stmt_t *ast = NULL;
  size_t len = strlen(sql), consumed = 0;
  hl_sql_strings_t strings = HL_SQL_STRINGS_HIVE;
  /* a bad value fails every statement but a SET (that may fix it) */
  hl_error_t bad;
  hl_err_init(&bad);
  hl_status_t bad_rc = string_literals(&db->session, &strings, &bad);
  hl_status_t rc = hl_sql_parse_strings(arena, sql, len, strings, &ast, &consumed, &err);
  if (rc == HL_OK && bad_rc != HL_OK && ast && ast->kind != HL_STMT_SET &&
      ast->kind != HL_STMT_RESET) {
    hl_err_move(&err, &bad);
    rc = bad_rc;
  }
  hl_err_clear(&bad);
  if (rc != HL_OK) {
    hl_arena_destroy(arena);
    return take_error(db, &err, sql);
  }
  if (tail) *tail = sql + consumed;
  if (!ast) {
    hl_arena_destroy(arena);
    return HL_OK;
  }
  hl_stmt_t *st = hl_arena_zalloc(arena, sizeof(*st));
  char *text = st ? hl_arena_strndup(arena, sql, consumed) : NULL;
  if (!text) {
    hl_arena_destroy(arena);
    return take_error(db, (hl_err_nomem(&err), &err), NULL);
  }
  st->db = db;
  st->arena = arena;
  hl_err_init(&st->desc_err);
  st->ast = ast;
  st->text = text;
  st->params.arena = arena;
  if (ast->n_params > 0) {
    /* parameters stand for values of queries and writes; a view or a DDL
     * statement would keep the placeholder itself */
    if (ast->kind != HL_STMT_SELECT && ast->kind != HL_STMT_EXPLAIN &&
        ast->kind != HL_STMT_INSERT) {
      hl_err_set_at(&err, ast->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "parameters are supported in SELECT, EXPLAIN and INSERT statements only");
      hl_status_t code = take_error(db, &err, text);
      hl_arena_destroy(arena);
      return code;
    }
    st->params.n = ast->n_params;
    st->params.items = hl_arena_zalloc(arena, sizeof(hl_param_t) * (size_t)ast->n_params);
    if (!st->params.items) {
      hl_arena_destroy(arena);
      return take_error(db, (hl_err_nomem(&err), &err), NULL);
    }
  }
  db->n_open_stmts++;
  *out = st;
  return HL_OK;
}

static void close_root(hl_stmt_t *st) {
  if (st->result.root) {
    st->result.root->close(st->result.root);
    st->result.root = NULL;
  }
}

static hl_status_t prepare_columns(hl_stmt_t *st, hl_error_t *err) {
  int n = st->result.n_cols;
  st->texts = hl_arena_zalloc(st->run, sizeof(hl_buf_t) * (size_t)(n ? n : 1));
  st->type_names = hl_arena_zalloc(st->run, sizeof(char *) * (size_t)(n ? n : 1));
  if (!st->texts || !st->type_names) return hl_err_nomem(err);
  for (int c = 0; c < n; c++) {
    hl_buf_init(&st->texts[c]);
    st->type_names[c] = hl_type_to_string(st->run, st->result.types[c]);
    if (!st->type_names[c]) return hl_err_nomem(err);
  }
  return HL_OK;
}

hl_status_t hl_api_execute(hl_stmt_t *st) {
  hl_db_t *db = st->db;
  hl_error_t err;
  hl_err_init(&err);
  for (int i = 0; i < st->params.n; i++)
    if (!st->params.items[i].type) {
      /* nothing ran: bind it and step again */
      hl_err_set_at(&err, -1, HL_ERROR, HL_SS(PARAMETER_NOT_BOUND), "parameter $%d is not bound",
                    i + 1);
      return take_error(db, &err, NULL);
    }
  st->executed = true;
  hl_budget_t *budget = &db->session.budget;
  hl_status_t rc =
      hl_budget_start(budget, hl_session_get(&db->session, "hivelite.memory_limit"), &err);
  uint64_t delay_ms = 500; /* a quicker statement shows no progress */
  if (rc == HL_OK)
    rc = hl_session_get_u64(&db->session, "hivelite.progress.delay_ms", delay_ms, &delay_ms, &err);
  hl_notify_start(&db->session.notify, delay_ms);
  int64_t timeout_ms = 0; /* from the start of the statement's execution */
  if (rc == HL_OK)
    rc = hl_session_parse_millis("hivelite.statement_timeout",
                                 hl_session_get(&db->session, "hivelite.statement_timeout"),
                                 &timeout_ms, &err);
  if (rc == HL_OK) hl_budget_set_deadline(budget, timeout_ms);
  if (rc == HL_OK) rc = hl_budget_check_cancel(budget, &err);
  /* the statement's arena (syntax tree so far, then plan and operators)
   * counts against the limit from here on */
  if (rc == HL_OK && !(st->run = hl_arena_create(0))) rc = hl_err_nomem(&err);
  if (rc == HL_OK && hl_arena_set_account(st->run, hl_budget_account(budget)) != 0)
    rc = hl_err_nomem(&err);
  if (rc == HL_OK) {
    st->params.describe = false;
    db->session.params = &st->params;
    rc = hl_cmd_run(&db->session, st->ast, st->run, &st->result, &err);
    db->session.params = NULL;
  }
  if (rc == HL_OK) rc = prepare_columns(st, &err);
  if (rc != HL_OK) {
    close_root(st);
    st->finished = true;
    hl_budget_explain_nomem(budget, &err);
    return take_error(db, &err, st->text);
  }
  return HL_OK;
}

hl_status_t hl_api_fetch(hl_stmt_t *st) {
  hl_db_t *db = st->db;
  st->batch = NULL;
  st->live_idx = 0;
  if (!st->result.root) {
    st->finished = true;
    return HL_OK;
  }
  hl_error_t err;
  hl_err_init(&err);
  hl_batch_t *b = NULL;
  /* a cancel also stops a caller that pulls the rows slowly */
  hl_status_t rc = hl_budget_check_cancel(&db->session.budget, &err);
  if (rc == HL_OK) rc = st->result.root->next(st->result.root, &b, &err);
  if (rc != HL_OK) {
    close_root(st);
    st->finished = true;
    hl_budget_explain_nomem(&db->session.budget, &err);
    return take_error(db, &err, st->text);
  }
  st->batch = b;
  if (!b) {
    close_root(st);
    st->finished = true;
  }
  return HL_OK;
}

void hl_api_abort(hl_stmt_t *st) {
  close_root(st);
  st->batch = NULL;
  st->live_idx = 0;
  st->finished = true;
}

hl_status_t hl_step(hl_stmt_t *st) {
  if (!st) return HL_MISUSE;
  clear_error(st->db);
  if (st->finished) return HL_DONE;
  if (!st->executed) {
    hl_status_t rc = hl_api_execute(st);
    if (rc != HL_OK) return rc;
  }
  if (st->batch) st->live_idx++;
  for (;;) {
    if (st->batch && st->live_idx < hl_batch_live(st->batch)) return HL_ROW;
    hl_status_t rc = hl_api_fetch(st);
    if (rc != HL_OK) return rc;
    if (!st->batch) return HL_DONE;
  }
}

/* The results after the current one were made by the statement, like it:
 * their operators are closed with the statement. */
static void close_next(hl_stmt_t *st) {
  for (hl_result_t *r = st->result.next; r; r = r->next)
    if (r->root) {
      r->root->close(r->root);
      r->root = NULL;
    }
}

hl_status_t hl_next_result(hl_stmt_t *st) {
  if (!st) return HL_MISUSE;
  hl_db_t *db = st->db;
  clear_error(db);
  if (!st->executed) return HL_MISUSE;
  hl_result_t *next = st->result.next;
  if (!next) return HL_DONE;
  close_root(st);
  if (st->texts)
    for (int c = 0; c < st->result.n_cols; c++)
      hl_buf_fini(&st->texts[c]);
  st->texts = NULL;
  st->result = *next;
  st->batch = NULL;
  st->live_idx = 0;
  st->finished = false;
  hl_error_t err;
  hl_err_init(&err);
  if (prepare_columns(st, &err) != HL_OK) {
    close_root(st);
    close_next(st);
    st->finished = true;
    return take_error(db, &err, st->text);
  }
  return HL_OK;
}

/* Ends the current execution: operators closed, its memory freed. */
static void end_run(hl_stmt_t *st) {
  close_root(st);
  close_next(st);
  if (st->texts)
    for (int c = 0; c < st->result.n_cols; c++)
      hl_buf_fini(&st->texts[c]);
  st->texts = NULL;
  st->type_names = NULL;
  hl_arena_destroy(st->run);
  st->run = NULL;
  memset(&st->result, 0, sizeof st->result);
  st->batch = NULL;
  st->live_idx = 0;
}

static void clear_param(hl_param_t *p) {
  hl_free(p->bytes);
  p->bytes = NULL;
  p->type = NULL;
  memset(&p->value, 0, sizeof p->value);
}

void hl_finalize(hl_stmt_t *st) {
  if (!st) return;
  end_run(st);
  for (int i = 0; i < st->params.n; i++)
    clear_param(&st->params.items[i]);
  hl_err_clear(&st->desc_err);
  st->db->n_open_stmts--;
  hl_arena_destroy(st->arena);
}

hl_status_t hl_reset(hl_stmt_t *st) {
  if (!st) return HL_MISUSE;
  clear_error(st->db);
  end_run(st);
  st->executed = false;
  st->finished = false;
  /* a cancel meant for the run that ended is not for the next one */
  hl_budget_clear_cancel(&st->db->session.budget);
  return HL_OK;
}

int64_t hl_changes(hl_stmt_t *st) {
  if (!st || !st->executed || !st->finished || !st->result.wrote ||
      st->result.n_written > INT64_MAX)
    return -1;
  return (int64_t)st->result.n_written;
}

/* ---------------------------------------------------------- parameters */

int hl_bind_parameter_count(hl_stmt_t *st) {
  return st ? st->params.n : 0;
}

/* Parameter IDX of ST, or NULL with 42P02 as the handle's error. */
static hl_param_t *param_slot(hl_stmt_t *st, int idx) {
  if (!st) return NULL;
  clear_error(st->db);
  if (idx >= 1 && idx <= st->params.n) return &st->params.items[idx - 1];
  hl_error_t err;
  hl_err_init(&err);
  hl_err_set(&err, HL_ERROR, HL_SS(UNDEFINED_PARAMETER), "there is no parameter $%d", idx);
  take_error(st->db, &err, NULL);
  return NULL;
}

static hl_status_t bind_value(hl_stmt_t *st, int idx, hl_type_id_t id, const hl_value_t *v) {
  hl_param_t *p = param_slot(st, idx);
  if (!p) return st ? HL_ERROR : HL_MISUSE;
  clear_param(p);
  p->type = hl_type_prim(id);
  p->value = *v;
  return HL_OK;
}

hl_status_t hl_bind_null(hl_stmt_t *st, int idx) {
  hl_value_t v = {.is_null = true};
  return bind_value(st, idx, HL_T_NULL, &v);
}

hl_status_t hl_bind_int64(hl_stmt_t *st, int idx, int64_t x) {
  hl_value_t v = {.u.i = x};
  return bind_value(st, idx, HL_T_BIGINT, &v);
}

hl_status_t hl_bind_double(hl_stmt_t *st, int idx, double x) {
  hl_value_t v = {.u.d = x};
  return bind_value(st, idx, HL_T_DOUBLE, &v);
}

hl_status_t hl_bind_bool(hl_stmt_t *st, int idx, int x) {
  hl_value_t v = {.u.b = x != 0};
  return bind_value(st, idx, HL_T_BOOLEAN, &v);
}

hl_status_t hl_bind_date(hl_stmt_t *st, int idx, int32_t days) {
  hl_value_t v = {.u.i = days};
  return bind_value(st, idx, HL_T_DATE, &v);
}

hl_status_t hl_bind_timestamp(hl_stmt_t *st, int idx, int64_t micros) {
  hl_value_t v = {.u.i = micros};
  return bind_value(st, idx, HL_T_TIMESTAMP, &v);
}

hl_status_t hl_bind_decimal(hl_stmt_t *st, int idx, int64_t hi, uint64_t lo, int precision,
                            int scale) {
  hl_param_t *p = param_slot(st, idx);
  if (!p) return st ? HL_ERROR : HL_MISUSE;
  __int128 x = (__int128)(((unsigned __int128)(uint64_t)hi << 64) | lo);
  __int128 bound = 1;
  for (int i = 0; i < precision && i < 38; i++)
    bound *= 10;
  hl_error_t err;
  hl_err_init(&err);
  if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
    hl_err_set(&err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
               "parameter $%d: DECIMAL(%d,%d) is not a valid type", idx, precision, scale);
    return take_error(st->db, &err, NULL);
  }
  if (x >= bound || x <= -bound) {
    hl_err_set(&err, HL_ERROR, HL_SS(NUMERIC_VALUE_OUT_OF_RANGE),
               "parameter $%d: the value needs more than %d digits", idx, precision);
    return take_error(st->db, &err, NULL);
  }
  clear_param(p);
  p->own_type = (hl_type_t){.id = HL_T_DECIMAL, .precision = precision, .scale = scale};
  p->type = &p->own_type;
  p->value.u.dec = x;
  return HL_OK;
}

static hl_status_t bind_bytes(hl_stmt_t *st, int idx, hl_type_id_t id, const void *data,
                              size_t len) {
  hl_param_t *p = param_slot(st, idx);
  if (!p) return st ? HL_ERROR : HL_MISUSE;
  if (len > UINT32_MAX || (!data && len)) {
    hl_error_t err;
    hl_err_init(&err);
    hl_err_set(&err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE), "parameter $%d: %s", idx,
               data ? "the value is larger than 4 GB" : "no data");
    return take_error(st->db, &err, NULL);
  }
  char *copy = hl_malloc(len + 1);
  if (!copy) {
    hl_error_t err;
    hl_err_init(&err);
    return take_error(st->db, (hl_err_nomem(&err), &err), NULL);
  }
  if (len) memcpy(copy, data, len);
  copy[len] = '\0';
  clear_param(p);
  p->bytes = copy;
  p->type = hl_type_prim(id);
  p->value.u.s.ptr = copy;
  p->value.u.s.len = (uint32_t)len;
  return HL_OK;
}

hl_status_t hl_bind_text(hl_stmt_t *st, int idx, const char *text, size_t len) {
  return bind_bytes(st, idx, HL_T_STRING, text, len);
}

hl_status_t hl_bind_blob(hl_stmt_t *st, int idx, const void *data, size_t len) {
  return bind_bytes(st, idx, HL_T_BINARY, data, len);
}

hl_status_t hl_clear_bindings(hl_stmt_t *st) {
  if (!st) return HL_MISUSE;
  for (int i = 0; i < st->params.n; i++)
    clear_param(&st->params.items[i]);
  return HL_OK;
}

static void describe(hl_stmt_t *st);

const char *hl_bind_parameter_type(hl_stmt_t *st, int idx) {
  if (!st || idx < 1 || idx > st->params.n) return NULL;
  describe(st);
  hl_param_t *p = &st->params.items[idx - 1];
  if (!p->want) return NULL;
  /* spelled once, in the statement's arena (the type is there too) */
  if (!p->want_name) p->want_name = hl_type_to_string(st->arena, p->want);
  return p->want_name;
}

/* --------------------------------------------------------------- rows */

/* Learns the result columns of a query that has not run yet, and the
 * types its parameters' contexts fix (hl_bind_parameter_type), by planning
 * it once with each unbound parameter a NULL of its context's type
 * (params.h, describe mode) and closing the operators unread.  Statements
 * other than queries describe nothing before they run (a write would have
 * to run to be planned).  An error here is left for the execution to
 * report; one of class 42 is also kept for hl_stmt_check. */
static void describe(hl_stmt_t *st) {
  if (st->executed || st->described) return;
  st->described = true;
  if (st->ast->kind != HL_STMT_SELECT && st->ast->kind != HL_STMT_EXPLAIN) return;
  hl_db_t *db = st->db;
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return;
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t plain = *st->ast;
  plain.explain_analyze = false; /* EXPLAIN ANALYZE would run the query */
  hl_result_t res = {0};
  st->params.describe = true;
  db->session.params = &st->params;
  /* the deadline of a statement still open is not this planning's */
  hl_budget_t *budget = &db->session.budget;
  int64_t deadline = atomic_load(&budget->deadline_ns);
  atomic_store(&budget->deadline_ns, 0);
  hl_status_t rc = hl_cmd_run(&db->session, &plain, tmp, &res, &err);
  atomic_store(&budget->deadline_ns, deadline);
  db->session.params = NULL;
  st->params.describe = false;
  int n = rc == HL_OK ? res.n_cols : 0;
  if (rc != HL_OK && strncmp(err.sqlstate, "42", 2) == 0) hl_err_move(&st->desc_err, &err);
  if (n > 0) {
    char **names = hl_arena_zalloc(st->arena, sizeof(char *) * (size_t)n);
    const hl_type_t **types = hl_arena_zalloc(st->arena, sizeof(hl_type_t *) * (size_t)n);
    char **tnames = hl_arena_zalloc(st->arena, sizeof(char *) * (size_t)n);
    bool ok = names && types && tnames;
    for (int c = 0; ok && c < n; c++)
      ok = (names[c] = hl_arena_strdup(st->arena, res.names[c])) &&
           (types[c] = hl_type_copy(st->arena, res.types[c])) &&
           (tnames[c] = hl_type_to_string(st->arena, res.types[c]));
    if (ok) {
      st->desc_n = n;
      st->desc_names = names;
      st->desc_types = types;
      st->desc_type_names = tnames;
    }
  }
  for (hl_result_t *r = &res; r; r = r->next)
    if (r->root) r->root->close(r->root);
  hl_err_clear(&err);
  hl_arena_destroy(tmp);
}

/* Columns of the result the statement describes now (executed: its
 * current result; before: the described one). */
static int shape_n(hl_stmt_t *st) {
  if (!st) return 0;
  if (st->executed) return st->result.n_cols;
  describe(st);
  return st->desc_n;
}

static bool valid_col(hl_stmt_t *st, int col) {
  return col >= 0 && col < shape_n(st);
}

static const hl_type_t *col_type(hl_stmt_t *st, int col) {
  return st->executed ? st->result.types[col] : st->desc_types[col];
}

int hl_column_count(hl_stmt_t *st) {
  return shape_n(st);
}

hl_status_t hl_stmt_check(hl_stmt_t *st) {
  if (!st) return HL_MISUSE;
  clear_error(st->db);
  describe(st);
  const hl_error_t *e = &st->desc_err;
  if (e->code == HL_OK) return HL_OK;
  /* a copy: the statement keeps its answer for the next call */
  hl_error_t copy;
  hl_err_init(&copy);
  hl_err_set_at(&copy, e->position, e->code, e->sqlstate, "%s", e->message);
  return take_error(st->db, &copy, st->text);
}

const char *hl_column_name(hl_stmt_t *st, int col) {
  if (!valid_col(st, col)) return NULL;
  return st->executed ? st->result.names[col] : st->desc_names[col];
}

const char *hl_column_type(hl_stmt_t *st, int col) {
  if (!valid_col(st, col)) return NULL;
  return st->executed ? (st->type_names ? st->type_names[col] : NULL) : st->desc_type_names[col];
}

static bool current_row(hl_stmt_t *st, int col, uint32_t *row) {
  if (!st || !st->executed || !valid_col(st, col) || st->finished || !st->batch) return false;
  *row = hl_batch_row(st->batch, st->live_idx);
  return true;
}

int hl_column_is_null(hl_stmt_t *st, int col) {
  uint32_t row;
  if (!current_row(st, col, &row)) return 1;
  const hl_vec_t *v = &st->batch->cols[col];
  if (hl_vec_is_null(v, row)) return 1;
  if (hl_type_phys(v->type) == HL_P_VALUE) {
    hl_value_t val;
    hl_vec_get_value(v, row, &val);
    return val.is_null;
  }
  return 0;
}

const char *hl_column_text(hl_stmt_t *st, int col, size_t *len) {
  uint32_t row;
  if (!current_row(st, col, &row)) {
    if (len) *len = 0;
    return NULL;
  }
  hl_buf_t *b = &st->texts[col];
  hl_buf_reset(b);
  hl_value_t v;
  hl_vec_get_value(&st->batch->cols[col], row, &v);
  hl_value_format(b, st->batch->cols[col].type, &v);
  if (b->oom) {
    if (len) *len = 0;
    return NULL;
  }
  if (len) *len = b->len;
  return hl_buf_cstr(b);
}

int hl_column_is_numeric(hl_stmt_t *st, int col) {
  return valid_col(st, col) && hl_type_is_numeric(col_type(st, col));
}

int hl_column_is_boolean(hl_stmt_t *st, int col) {
  return valid_col(st, col) && col_type(st, col)->id == HL_T_BOOLEAN;
}

int hl_column_is_json(hl_stmt_t *st, int col) {
  return valid_col(st, col) && st->executed && st->result.json && st->result.json[col];
}

/* --------------------------------------------------------- typed values */

/* hl_kind_t is numbered as hl_type_id_t (include/hivelite.h fixes the
 * public numbering; these keep the two in step). */
_Static_assert((int)HL_KIND_VOID == (int)HL_T_NULL && (int)HL_KIND_DECIMAL == (int)HL_T_DECIMAL &&
                   (int)HL_KIND_STRUCT == (int)HL_T_STRUCT && (int)HL_KIND_UNION == (int)HL_T_UNION,
               "hl_kind_t follows hl_type_id_t");

hl_status_t hl_column_info(hl_stmt_t *st, int col, hl_column_info_t *out) {
  if (!out || !valid_col(st, col)) return HL_MISUSE;
  const hl_type_t *t = col_type(st, col);
  *out = (hl_column_info_t){.kind = (hl_kind_t)t->id};
  if (t->id == HL_T_DECIMAL) {
    out->precision = t->precision;
    out->scale = t->scale;
  } else if (t->id == HL_T_VARCHAR || t->id == HL_T_CHAR) {
    out->length = t->length;
  }
  return HL_OK;
}

/* The current row's value of COL (false: NULL, or no row / no column). */
static bool column_value(hl_stmt_t *st, int col, const hl_type_t **type, hl_value_t *v) {
  uint32_t row;
  if (!current_row(st, col, &row)) return false;
  const hl_vec_t *vec = &st->batch->cols[col];
  if (hl_vec_is_null(vec, row)) return false;
  hl_vec_get_value(vec, row, v);
  *type = vec->type;
  return !v->is_null;
}

int64_t hl_column_int64(hl_stmt_t *st, int col) {
  const hl_type_t *t;
  hl_value_t v;
  if (!column_value(st, col, &t, &v)) return 0;
  switch (hl_type_phys(t)) {
  case HL_P_BOOL:
    return v.u.b ? 1 : 0;
  case HL_P_I64:
    return v.u.i;
  default:
    return 0;
  }
}

double hl_column_double(hl_stmt_t *st, int col) {
  const hl_type_t *t;
  hl_value_t v;
  if (!column_value(st, col, &t, &v)) return 0;
  switch (hl_type_phys(t)) {
  case HL_P_F64:
    return v.u.d;
  case HL_P_I64:
    return (double)v.u.i;
  case HL_P_I128: {
    /* the text form parsed back rounds correctly, which a division by a
     * power of ten in binary floating point does not always */
    hl_buf_t b;
    hl_buf_init(&b);
    hl_format_decimal(&b, v.u.dec, t->scale);
    double d = b.oom ? 0 : strtod(hl_buf_cstr(&b), NULL);
    hl_buf_fini(&b);
    return d;
  }
  default:
    return 0;
  }
}

int hl_column_bool(hl_stmt_t *st, int col) {
  const hl_type_t *t;
  hl_value_t v;
  if (!column_value(st, col, &t, &v)) return 0;
  switch (hl_type_phys(t)) {
  case HL_P_BOOL:
    return v.u.b ? 1 : 0;
  case HL_P_I64:
    return t->id != HL_T_DATE && t->id != HL_T_TIMESTAMP && v.u.i != 0;
  case HL_P_F64:
    return v.u.d != 0;
  case HL_P_I128:
    return v.u.dec != 0;
  default:
    return 0;
  }
}

void hl_column_decimal(hl_stmt_t *st, int col, int64_t *hi, uint64_t *lo, int *scale) {
  const hl_type_t *t;
  hl_value_t v;
  __int128 x = 0;
  int sc = 0;
  if (column_value(st, col, &t, &v)) {
    if (t->id == HL_T_DECIMAL) {
      x = v.u.dec;
      sc = t->scale;
    } else if (hl_type_is_integer(t)) {
      x = v.u.i;
    }
  }
  if (hi) *hi = (int64_t)(x >> 64);
  if (lo) *lo = (uint64_t)x;
  if (scale) *scale = sc;
}

/* Days of the date of MICROS (floor division: before 1970 too). */
static int64_t micros_to_days(int64_t micros) {
  int64_t d = micros / 86400000000LL;
  if (micros % 86400000000LL < 0) d--;
  return d;
}

int32_t hl_column_date(hl_stmt_t *st, int col) {
  const hl_type_t *t;
  hl_value_t v;
  if (!column_value(st, col, &t, &v)) return 0;
  if (t->id == HL_T_DATE) return (int32_t)v.u.i;
  if (t->id == HL_T_TIMESTAMP) return (int32_t)micros_to_days(v.u.i);
  return 0;
}

int64_t hl_column_timestamp(hl_stmt_t *st, int col) {
  const hl_type_t *t;
  hl_value_t v;
  if (!column_value(st, col, &t, &v)) return 0;
  if (t->id == HL_T_TIMESTAMP) return v.u.i;
  if (t->id == HL_T_DATE) return v.u.i * 86400000000LL;
  return 0;
}

const void *hl_column_blob(hl_stmt_t *st, int col, size_t *len) {
  const hl_type_t *t;
  hl_value_t v;
  if (len) *len = 0;
  if (!column_value(st, col, &t, &v) || hl_type_phys(t) != HL_P_STR) return NULL;
  if (len) *len = v.u.s.len;
  /* an empty value is not NULL: a pointer into the statement */
  return v.u.s.ptr ? (const void *)v.u.s.ptr : (const void *)"";
}
