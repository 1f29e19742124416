/*
 * cmd_util.c -- helpers shared by the command handlers (see cmd_int.h):
 * LOCATION clauses, default locations, managed-data removal, partition
 * specs (typing, canonical values, comparison filters), Hive's SHOW ...
 * LIKE patterns and small rowset builders.
 */
#include "command/cmd_int.h"
#include "format/text/text.h"
#include "session/loc_allow.h"

#include "txn/txn.h"
#include "util/partpath.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ locations */

/* An S3 location: "s3://bucket/key", "s3a://" or "s3n://" (the scheme as
 * written, lower case), with a bucket name S3 accepts, normalised like a
 * path below the bucket. */
static hl_status_t resolve_object(const char *location, long pos, hl_arena_t *arena, char **out,
                                  hl_error_t *err) {
  size_t root = hl_uri_object_root(location);
  const char *b = root ? strstr(location, "://") + 3 : NULL;
  size_t blen = root ? (size_t)(location + root - b) : 0;
  bool ok = root && blen >= 3 && blen <= 63 && isalnum((unsigned char)b[0]) &&
            isalnum((unsigned char)b[blen - 1]);
  for (size_t k = 0; ok && k < blen; k++)
    ok = (b[k] >= 'a' && b[k] <= 'z') || isdigit((unsigned char)b[k]) || b[k] == '-' || b[k] == '.';
  if (!ok)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "location \"%s\" is not a valid S3 location (s3://bucket/path, with a "
                         "bucket name of 3 to 63 lower-case letters, digits, '.' and '-')",
                         location);
  char *norm = hl_path_normalize(arena, location, NULL);
  if (!norm) return hl_err_nomem(err);
  *out = norm;
  return HL_OK;
}

hl_status_t hl_cmd_resolve_location(const char *location, const char *base, long pos,
                                    hl_arena_t *arena, char **out, hl_error_t *err) {
  const char *path = location;
  if (!location || !*location)
    return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "location must not be empty");
  /* A URI scheme: letters, digits, + - . before the first ':' */
  size_t i = 0;
  while (isalnum((unsigned char)location[i]) || location[i] == '+' || location[i] == '-' ||
         location[i] == '.')
    i++;
  if (i > 0 && location[i] == ':' && isalpha((unsigned char)location[0])) {
    if (i == 4 && strncasecmp(location, "file", 4) == 0) {
      path = location + 5;
      if (strncmp(path, "//", 2) == 0) {
        /* file://host/path: only an empty host or localhost is local */
        const char *slash = strchr(path + 2, '/');
        size_t host_len = slash ? (size_t)(slash - (path + 2)) : strlen(path + 2);
        if (host_len != 0 && !(host_len == 9 && strncasecmp(path + 2, "localhost", 9) == 0))
          return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                               "location \"%s\" names a remote host, which is not supported",
                               location);
        path = slash ? slash : "/";
      }
      if (path[0] != '/')
        return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                             "location \"%s\" is not an absolute file URI", location);
    } else if (hl_uri_object_root(location) || (i >= 2 && i <= 3 && location[i + 1] == '/' &&
                                                strncasecmp(location, "s3", 2) == 0)) {
      return resolve_object(location, pos, arena, out, err);
    } else {
      return hl_err_set_at(err, pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "file system \"%.*s\" is not supported yet", (int)i, location);
    }
  }
  char *abs = hl_path_normalize(arena, path, base);
  if (!abs) return hl_err_nomem(err);
  *out = abs;
  return HL_OK;
}

/* NAME for a message: bytes below 0x20 and 0x7F as \xNN, so that a name
 * holding a newline cannot break the one-line error format. */
static char *printable_name(hl_arena_t *arena, const char *name) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    if (*p < 0x20 || *p == 0x7f)
      hl_buf_printf(&b, "\\x%02X", *p);
    else
      hl_buf_putc(&b, (char)*p);
  }
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

hl_status_t hl_cmd_check_name(const char *kind, const char *name, long pos, hl_arena_t *arena,
                              hl_error_t *err) {
  const char *why = NULL;
  if (!name || !*name) why = "be empty";
  for (const unsigned char *p = (const unsigned char *)name; !why && p && *p; p++) {
    if (*p == '/')
      why = "contain \"/\"";
    else if (*p == '.')
      why = "contain \".\"";
    else if (*p < 0x20 || *p == 0x7f)
      why = "contain control characters";
  }
  if (!why) return HL_OK;
  char *shown = printable_name(arena, name ? name : "");
  if (!shown) return hl_err_nomem(err);
  return hl_err_set_at(err, pos, HL_ERROR, HL_SS(INVALID_NAME),
                       "invalid %s name \"%s\": a %s name must not %s", kind, shown, kind, why);
}

hl_status_t hl_cmd_child_dir(const char *parent, const char *name, const char *kind,
                             hl_arena_t *arena, char **out, hl_error_t *err) {
  *out = NULL;
  char *joined = hl_arena_sprintf(arena, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", name);
  if (!joined) return hl_err_nomem(err);
  /* one normal segment below a normal parent: nothing to resolve */
  if (!hl_path_is_normal(parent) || !*name || strchr(name, '/') || !hl_path_is_normal(joined) ||
      !hl_path_strictly_inside(joined, parent)) {
    char *shown = printable_name(arena, name);
    if (!shown) return hl_err_nomem(err);
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_NAME),
                      "invalid %s name \"%s\": its directory \"%s\" would not lie inside \"%s\"",
                      kind, shown, joined, parent);
  }
  *out = joined;
  return HL_OK;
}

hl_status_t hl_cmd_db_default_location(hl_session_t *s, const char *db, hl_arena_t *arena,
                                       char **out, hl_error_t *err) {
  *out = NULL;
  if (strcmp(db, "default") == 0) {
    *out = hl_arena_strdup(arena, s->warehouse);
    return *out ? HL_OK : hl_err_nomem(err);
  }
  char *name = hl_arena_sprintf(arena, "%s.db", db);
  if (!name) return hl_err_nomem(err);
  return hl_cmd_child_dir(s->warehouse, name, "database", arena, out, err);
}

bool hl_cmd_path_under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (strncmp(path, dir, n) != 0) return false;
  return path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/');
}

/* True when normal PATH is WH/.hivelite or lies inside it. */
static bool within_meta_dir(const char *path, const char *wh) {
  if (!hl_path_strictly_inside(path, wh)) return false;
  const char *rest = path + strlen(wh) + (strcmp(wh, "/") != 0);
  return strncmp(rest, ".hivelite", 9) == 0 && (rest[9] == '\0' || rest[9] == '/');
}

hl_status_t hl_cmd_check_target(hl_session_t *s, const char *path, const char *action,
                                hl_error_t *err) {
  const char *wh = s->warehouse;
  if (!path || !hl_path_is_normal(path))
    return hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                      "refusing to %s \"%s\": the path is not normalised (it has \".\", \"..\" "
                      "or empty segments)",
                      action, path ? path : "");
  if (wh && strcmp(path, wh) == 0)
    return hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                      "refusing to %s \"%s\": it is the warehouse root", action, path);
  if (wh && hl_path_within(wh, path))
    return hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                      "refusing to %s \"%s\": it holds the warehouse \"%s\"", action, path, wh);
  if (wh && within_meta_dir(path, wh)) {
    const char *sep = strcmp(wh, "/") ? "/" : "";
    size_t n = strlen(wh) + strlen(sep) + 9;
    if (strlen(path) == n)
      return hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                        "refusing to %s \"%s\": it is the metastore directory", action, path);
    return hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                      "refusing to %s \"%s\": it lies inside the metastore directory "
                      "\"%s%s.hivelite\"",
                      action, path, wh, sep);
  }
  if (s->metastore && hl_path_within(s->metastore, path))
    return hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                      "refusing to %s \"%s\": it holds the metastore \"%s\"", action, path,
                      s->metastore);
  return HL_OK;
}

bool hl_cmd_path_removable(hl_session_t *s, const char *path) {
  hl_error_t ignored;
  hl_err_init(&ignored);
  /* a local directory other than "/", or an object-store prefix below
   * its bucket (never the whole bucket) */
  size_t root = path ? hl_uri_object_root(path) : 0;
  bool ok = path && ((path[0] == '/' && strcmp(path, "/") != 0) || (root && path[root] == '/')) &&
            hl_cmd_check_target(s, path, "delete", &ignored) == HL_OK;
  hl_err_clear(&ignored);
  return ok;
}

hl_status_t hl_cmd_check_write_location(hl_session_t *s, const char *dir, const hl_cat_table_t *t,
                                        int64_t part_id, bool recursive, const char *verb,
                                        const char *what, hl_arena_t *arena, hl_error_t *err) {
  /* a drop or overwrite must not reach through a link out of the allowed
   * locations either (loc_allow.h) */
  hl_status_t rc = hl_loc_allow_check(s, dir, what, err);
  if (rc != HL_OK) return rc;
  rc = hl_cmd_check_target(s, dir, verb, err);
  if (rc != HL_OK) {
    hl_err_prefix(err, "%s", what);
    return rc;
  }
  hl_cat_location_user_t *users;
  size_t n;
  rc = hl_cat_locations_within(s->cat, dir, arena, &users, &n, err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const hl_cat_location_user_t *u = &users[i];
    bool same = strcmp(u->location, dir) == 0;
    if (u->table_id == t->id && (u->partition_id == part_id || (recursive && part_id == 0)))
      continue; /* the target itself; DROP TABLE: its own partitions */
    if (recursive && part_id != 0 && u->table_id == t->id && u->partition_id != 0)
      continue; /* DROP PARTITION weighs its own table's partitions itself */
    if (!recursive && (!same || u->table_id == 0))
      continue; /* files only: subdirectories and database directories stay */
    const char *obj = u->table_id == 0 ? hl_arena_sprintf(arena, "database \"%s\"", u->db)
                      : u->partition_id
                          ? hl_arena_sprintf(arena, "partition \"%s\" of table \"%s.%s\"",
                                             u->partition, u->db, u->table)
                          : hl_arena_sprintf(arena, "table \"%s.%s\"", u->db, u->table);
    if (!obj) return hl_err_nomem(err);
    return hl_err_set(err, HL_ERROR, HL_SS(OBJECT_NOT_IN_PREREQUISITE_STATE),
                      same ? "cannot %s %s: its location \"%s\" is also the location of %s"
                           : "cannot %s %s: its location \"%s\" holds the directory of %s",
                      verb, what, dir, obj);
  }
  return rc;
}

hl_status_t hl_cmd_txn_begin(hl_session_t *s, const char *kind, const char *root, hl_arena_t *arena,
                             hl_txn_t **out, hl_error_t *err) {
  *out = NULL; /* callers abort *out on every failure */
  double timeout;
  hl_status_t rc =
      hl_txn_parse_lock_timeout(hl_session_get(s, "hivelite.lock.timeout"), &timeout, err);
  if (rc == HL_OK) rc = hl_txn_begin(s->cat, s->fs, kind, root, arena, out, err);
  if (rc != HL_OK) return rc;
  hl_txn_set_lock_timeout(*out, timeout);
  /* readers of the written tables wait while its files move (txn.h) */
  if (s->warehouse) {
    char *dir = hl_txn_lock_dir(arena, s->warehouse);
    rc = dir ? hl_txn_set_lock_dir(*out, dir, err) : hl_err_nomem(err);
  }
  if (rc != HL_OK) {
    hl_txn_abort(*out);
    *out = NULL;
  }
  return rc;
}

hl_status_t hl_cmd_txn_lock_table(hl_txn_t *txn, const char *db, const char *name,
                                  hl_arena_t *arena, hl_error_t *err) {
  char *lock = hl_arena_sprintf(arena, "%s.%s", db, name);
  return lock ? hl_txn_lock_add(txn, lock, err) : hl_err_nomem(err);
}

void hl_cmd_prune_empty_parents(hl_session_t *s, const char *table_loc, const char *dir,
                                hl_arena_t *arena) {
  char *d = hl_arena_strdup(arena, dir);
  while (d) {
    char *slash = strrchr(d, '/');
    if (!slash) return;
    *slash = '\0';
    if (strcmp(d, table_loc) == 0 || !hl_cmd_path_under(d, table_loc)) return;
    hl_error_t e;
    hl_err_init(&e);
    bool ok = s->fs->ops->rmdir(s->fs, d, &e) == HL_OK;
    hl_err_clear(&e);
    if (!ok) return;
  }
}

void hl_cmd_remove_data(hl_session_t *s, const char *path) {
  hl_error_t ignored;
  hl_err_init(&ignored);
  /* never "/", the warehouse or above it, the metastore, a path with ".."
   * (every stored location is normalised: such a path came from a name) */
  if (path && strcmp(path, "/") != 0 && hl_cmd_check_target(s, path, "delete", &ignored) == HL_OK)
    s->fs->ops->remove_tree(s->fs, path, &ignored);
  hl_err_clear(&ignored);
}

const char *hl_cmd_owner(hl_session_t *s) {
  const char *u = hl_session_get(s, "user.name");
  if (u && *u) return u;
  u = getenv("USER");
  return u && *u ? u : NULL;
}

/* ------------------------------------------------------ partition specs */

hl_status_t hl_cmd_part_item_text(const hl_ast_part_item_t *item, hl_arena_t *arena, char **out,
                                  hl_error_t *err) {
  const hl_ast_expr_t *e = item->value;
  bool negate = false;
  *out = NULL;
  if (!e)
    return hl_err_set_at(err, item->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                         "dynamic partition column \"%s\" is not allowed here; give a value",
                         item->key);
  if (e->kind == HL_AST_UNARY && (e->op == HL_OP_NEG || e->op == HL_OP_PLUS) && e->n_args == 1 &&
      e->args[0]->kind == HL_AST_LITERAL) {
    negate = e->op == HL_OP_NEG;
    e = e->args[0];
  }
  if (e->kind != HL_AST_LITERAL)
    return hl_err_set_at(err, e->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "partition value of \"%s\" must be a constant", item->key);
  if (e->lit_type == HL_LIT_NULL) return HL_OK;
  if (negate && (e->lit_type == HL_LIT_STRING || e->lit_type == HL_LIT_BOOL ||
                 e->lit_type == HL_LIT_DATE || e->lit_type == HL_LIT_TIMESTAMP))
    return hl_err_set_at(err, e->pos, HL_ERROR, HL_SS(SYNTAX_ERROR),
                         "partition value of \"%s\" must be a constant", item->key);
  if (e->text_len != strlen(e->text))
    return hl_err_set_at(err, e->pos, HL_ERROR, HL_SS(INVALID_TEXT_REPRESENTATION),
                         "partition value of \"%s\" must not contain a NUL byte", item->key);
  *out = negate ? hl_arena_sprintf(arena, "-%s", e->text) : hl_arena_strdup(arena, e->text);
  return *out ? HL_OK : hl_err_nomem(err);
}

const char *hl_cmd_default_part_name(hl_session_t *s, const hl_table_t *t) {
  const char *own = hl_kv_get(t->cat->params, t->cat->n_params, HL_CMD_DEFAULT_PART_PROP);
  return own && *own ? own : hl_session_default_part_name(s);
}

hl_status_t hl_cmd_part_value_canon(hl_session_t *s, const hl_table_t *t, int key_idx,
                                    const char *text, hl_arena_t *arena, char **out,
                                    hl_error_t *err) {
  *out = NULL;
  if (!text || !*text || strcmp(text, hl_cmd_default_part_name(s, t)) == 0) return HL_OK;
  hl_value_t v;
  hl_status_t rc = hl_table_part_value(t, key_idx, text, arena, &v, err);
  if (rc != HL_OK) return rc;
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, t->types[t->n_data + key_idx], &v);
  *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return *out ? HL_OK : hl_err_nomem(err);
}

static int find_key(const hl_table_t *t, const char *key) {
  for (int k = 0; k < t->n_part; k++)
    if (strcasecmp(t->cat->part_keys[k].name, key) == 0) return k;
  return -1;
}

static hl_status_t unknown_key(const hl_table_t *t, const hl_ast_part_item_t *item,
                               hl_error_t *err) {
  return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                       "column \"%s\" is not a partition column of table \"%s.%s\"", item->key,
                       HL_TNAME(t));
}

hl_status_t hl_cmd_part_spec_full(hl_session_t *s, const hl_table_t *t,
                                  const hl_ast_part_spec_t *spec, hl_arena_t *arena, char ***values,
                                  hl_error_t *err) {
  if (t->n_part == 0)
    return hl_err_set_at(err, spec->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  char **vals = hl_arena_zalloc(arena, sizeof(char *) * (size_t)t->n_part);
  bool *seen = hl_arena_zalloc(arena, (size_t)t->n_part);
  if (!vals || !seen) return hl_err_nomem(err);
  for (int i = 0; i < spec->n; i++) {
    const hl_ast_part_item_t *item = &spec->items[i];
    int k = find_key(t, item->key);
    if (k < 0) return unknown_key(t, item, err);
    if (seen[k])
      return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                           "partition column \"%s\" is given more than once", item->key);
    if (item->op != HL_OP_EQ && item->op != HL_OP_NONE)
      return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                           "partition column \"%s\" needs a value given with \"=\"", item->key);
    seen[k] = true;
    char *text;
    hl_status_t rc = hl_cmd_part_item_text(item, arena, &text, err);
    if (rc == HL_OK) rc = hl_cmd_part_value_canon(s, t, k, text, arena, &vals[k], err);
    if (rc != HL_OK) {
      hl_err_position(err, item->value ? item->value->pos : item->pos);
      return rc;
    }
  }
  for (int k = 0; k < t->n_part; k++)
    if (!seen[k])
      return hl_err_set_at(err, spec->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                           "partition spec of table \"%s.%s\" is missing partition column \"%s\"",
                           HL_TNAME(t), t->cat->part_keys[k].name);
  *values = vals;
  return HL_OK;
}

hl_status_t hl_cmd_part_filter_compile(hl_session_t *s, const hl_table_t *t,
                                       const hl_ast_part_spec_t *spec, hl_arena_t *arena,
                                       hl_cmd_part_filter_t *out, hl_error_t *err) {
  size_t n = (size_t)(spec->n > 0 ? spec->n : 1);
  out->n = spec->n;
  out->key_idx = hl_arena_alloc(arena, sizeof(int) * n);
  out->ops = hl_arena_alloc(arena, sizeof(hl_ast_op_t) * n);
  out->values = hl_arena_zalloc(arena, sizeof(hl_value_t) * n);
  if (!out->key_idx || !out->ops || !out->values) return hl_err_nomem(err);
  for (int i = 0; i < spec->n; i++) {
    const hl_ast_part_item_t *item = &spec->items[i];
    int k = find_key(t, item->key);
    if (k < 0) return unknown_key(t, item, err);
    hl_ast_op_t op = item->op == HL_OP_NONE ? HL_OP_EQ : item->op;
    switch (op) {
    case HL_OP_EQ:
    case HL_OP_NE:
    case HL_OP_LT:
    case HL_OP_LE:
    case HL_OP_GT:
    case HL_OP_GE:
      break;
    default:
      return hl_err_set_at(err, item->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                           "unsupported comparison for partition column \"%s\"", item->key);
    }
    char *text;
    hl_status_t rc = hl_cmd_part_item_text(item, arena, &text, err);
    if (rc != HL_OK) return rc;
    out->key_idx[i] = k;
    out->ops[i] = op;
    if (!text || !*text || strcmp(text, hl_cmd_default_part_name(s, t)) == 0) {
      out->values[i].is_null = true;
      if (op != HL_OP_EQ && op != HL_OP_NE)
        return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                             "the default partition of \"%s\" can only be compared with = or <>",
                             item->key);
      continue;
    }
    rc = hl_table_part_value(t, k, text, arena, &out->values[i], err);
    if (rc != HL_OK) {
      hl_err_position(err, item->value ? item->value->pos : item->pos);
      return rc;
    }
  }
  return HL_OK;
}

bool hl_cmd_part_filter_match(const hl_table_t *t, const hl_cmd_part_filter_t *f,
                              const hl_cat_partition_t *p, hl_arena_t *arena) {
  for (int i = 0; i < f->n; i++) {
    int k = f->key_idx[i];
    const char *stored = k < p->n_values ? p->values[k] : NULL;
    hl_ast_op_t op = f->ops[i];
    if (f->values[i].is_null) {
      bool is_default = stored == NULL;
      if ((op == HL_OP_EQ) != is_default) return false;
      continue;
    }
    if (!stored) return false; /* the default partition compares with nothing */
    hl_value_t v;
    hl_error_t ignored;
    hl_err_init(&ignored);
    hl_status_t rc = hl_table_part_value(t, k, stored, arena, &v, &ignored);
    hl_err_clear(&ignored);
    if (rc != HL_OK) {
      if (op == HL_OP_NE) continue;
      return false;
    }
    int c = hl_value_compare(t->types[t->n_data + k], &v, &f->values[i]);
    bool ok;
    switch (op) {
    case HL_OP_EQ:
      ok = c == 0;
      break;
    case HL_OP_NE:
      ok = c != 0;
      break;
    case HL_OP_LT:
      ok = c < 0;
      break;
    case HL_OP_LE:
      ok = c <= 0;
      break;
    case HL_OP_GT:
      ok = c > 0;
      break;
    default:
      ok = c >= 0;
      break;
    }
    if (!ok) return false;
  }
  return true;
}

/* ------------------------------------------------------------------ text */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void hl_cmd_sort_strings(char **v, size_t n) {
  if (n > 1) qsort(v, n, sizeof(char *), cmp_str);
}

static int cmp_kv(const void *a, const void *b) {
  return strcmp(((const hl_kv_t *)a)->key, ((const hl_kv_t *)b)->key);
}

hl_kv_t *hl_cmd_sorted_kvs(const hl_kv_t *kvs, int n, hl_arena_t *arena) {
  hl_kv_t *out = hl_arena_alloc(arena, sizeof(hl_kv_t) * (size_t)(n > 0 ? n : 1));
  if (!out) return NULL;
  if (n > 0) {
    memcpy(out, kvs, sizeof(hl_kv_t) * (size_t)n);
    qsort(out, (size_t)n, sizeof(hl_kv_t), cmp_kv);
  }
  for (int i = 0; i < n; i++) /* shown, never a secret (fs.s3a.secret.key, ...) */
    if (hl_kv_is_secret(out[i].key)) out[i].value = (char *)HL_KV_MASK;
  return out;
}

hl_status_t hl_cmd_text_codec_ext(const char *value, const char **ext, hl_error_t *err) {
  /* Hive, Trino and hivelite's reader all pick the codec by the file name */
  if (hl_text_codec_ext(value, ext)) return HL_OK;
  return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "text compression \"%s\" is not supported (gzip, zstd, deflate, bzip2, "
                    "snappy, lz4 or plain)",
                    value);
}

hl_status_t hl_cmd_kv_unset(const hl_cat_table_t *t, const char *what,
                            const hl_ast_alter_table_t *alt, long pos, hl_arena_t *arena,
                            hl_kv_t **kvs, int *n, hl_error_t *err) {
  for (int k = 0; k < alt->n_keys; k++)
    if (!alt->if_exists && !hl_kv_get(t->params, t->n_params, alt->keys[k]))
      return hl_err_set_at(err, pos, HL_NOTFOUND, HL_SS(UNDEFINED_OBJECT),
                           "property \"%s\" does not exist in %s \"%s.%s\"", alt->keys[k], what,
                           t->db_name, t->name);
  hl_kv_t *kept = hl_arena_alloc(arena, sizeof(hl_kv_t) * (size_t)(t->n_params + 1));
  if (!kept) return hl_err_nomem(err);
  int m = 0;
  for (int i = 0; i < t->n_params; i++) {
    bool drop = false;
    for (int k = 0; k < alt->n_keys; k++)
      if (strcmp(t->params[i].key, alt->keys[k]) == 0) drop = true;
    if (!drop) kept[m++] = t->params[i];
  }
  *kvs = kept;
  *n = m;
  return HL_OK;
}

hl_status_t hl_cmd_kv_put(hl_kv_t **kvs, int *n, const char *key, const char *value,
                          hl_arena_t *arena, hl_error_t *err) {
  char *v = hl_arena_strdup(arena, value ? value : "");
  if (!v) return hl_err_nomem(err);
  for (int i = 0; i < *n; i++) {
    if (strcmp((*kvs)[i].key, key) == 0) {
      (*kvs)[i].value = v;
      return HL_OK;
    }
  }
  hl_kv_t *grown = hl_arena_alloc(arena, sizeof(hl_kv_t) * (size_t)(*n + 1));
  char *k = hl_arena_strdup(arena, key);
  if (!grown || !k) return hl_err_nomem(err);
  if (*n) memcpy(grown, *kvs, sizeof(hl_kv_t) * (size_t)*n);
  grown[*n].key = k;
  grown[*n].value = v;
  *kvs = grown;
  (*n)++;
  return HL_OK;
}

hl_status_t hl_cmd_lines_result(hl_arena_t *arena, const char *name, char **lines, size_t n,
                                hl_result_t *result, hl_error_t *err) {
  const char *names[1] = {name};
  hl_rowset_t *rs = hl_rowset_create_text(arena, 1, names);
  if (!rs) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++) {
    const char *row[1] = {lines[i]};
    hl_status_t rc = hl_rowset_add_text(rs, row, err);
    if (rc != HL_OK) return rc;
  }
  return hl_rowset_result(rs, result, err);
}

/* -------------------------------------------------- tracked mkdirs */

hl_status_t hl_cmd_mkdirs_tracked(hl_session_t *s, const char *path, hl_arena_t *arena,
                                  char **created, hl_error_t *err) {
  *created = NULL;
  /* Find the top-most missing ancestor: that is what an undo removes. */
  char *probe = hl_arena_strdup(arena, path);
  if (!probe) return hl_err_nomem(err);
  for (;;) {
    hl_stor_stat_t st;
    hl_status_t rc = s->fs->ops->stat(s->fs, probe, &st, err);
    if (rc != HL_OK) return rc;
    if (st.exists) {
      if (!st.is_dir)
        return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                          "location \"%s\" is a file, not a directory", probe);
      break;
    }
    *created = hl_arena_strdup(arena, probe);
    if (!*created) return hl_err_nomem(err);
    char *slash = strrchr(probe, '/');
    if (!slash || slash == probe) break;
    *slash = '\0';
  }
  if (!*created) return HL_OK; /* already there */
  hl_status_t rc = s->fs->ops->mkdirs(s->fs, path, err);
  if (rc != HL_OK) {
    hl_cmd_undo_mkdirs(s, *created);
    *created = NULL;
  }
  return rc;
}

void hl_cmd_undo_mkdirs(hl_session_t *s, const char *created) {
  if (created) hl_cmd_remove_data(s, created);
}

bool hl_cmd_setting_true(hl_session_t *s, const char *key) {
  const char *v = hl_session_get(s, key);
  return v && strcasecmp(v, "true") == 0;
}

hl_status_t hl_cmd_max_partitions(hl_session_t *s, size_t *out, hl_error_t *err) {
  const char *v = hl_session_get(s, "hivelite.max_partitions_per_table");
  char *end = NULL;
  errno = 0;
  unsigned long long n = v ? strtoull(v, &end, 10) : 0;
  if (!v || !*v || *end || errno || n == 0 || v[0] == '-' || n > SIZE_MAX / 2)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for hivelite.max_partitions_per_table (expected a "
                      "positive integer)",
                      v ? v : "");
  *out = (size_t)n;
  return HL_OK;
}

hl_status_t hl_cmd_too_many_partitions(const hl_table_t *t, size_t max, hl_error_t *err) {
  return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                    "table \"%s.%s\" would have more than %zu partitions "
                    "(hivelite.max_partitions_per_table)",
                    HL_TNAME(t), max);
}

hl_status_t hl_cmd_part_move_target(hl_session_t *s, const hl_table_t *t,
                                    const hl_cat_partition_t *p, char *const *values,
                                    const char *dflt_old, const char *dflt_new, long pos,
                                    hl_arena_t *arena, char **to, hl_error_t *err) {
  *to = NULL;
  /* an object store cannot rename: its partitions keep their locations */
  if (t->cat->external || hl_uri_object_root(p->location)) return HL_OK;
  char *old_path = hl_table_part_path(t, p->values, dflt_old, arena);
  if (!old_path) return hl_err_nomem(err);
  if (strcmp(p->location, old_path) != 0) return HL_OK;
  char *path = hl_table_part_path(t, values, dflt_new, arena);
  if (!path) return hl_err_nomem(err);
  hl_stor_stat_t st;
  hl_status_t rc = hl_cmd_check_target(s, p->location, "move", err);
  if (rc == HL_OK) rc = hl_cmd_check_target(s, path, "move a partition to", err);
  if (rc == HL_OK) rc = s->fs->ops->stat(s->fs, path, &st, err);
  if (rc != HL_OK) return rc;
  if (st.exists)
    return hl_err_set_at(err, pos, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT),
                         "cannot move partition \"%s\" of table \"%s.%s\" to \"%s\": the "
                         "directory exists",
                         p->name, HL_TNAME(t), path);
  *to = path;
  return HL_OK;
}

hl_status_t hl_cmd_cat_update(hl_session_t *s, const hl_cat_table_t *t,
                              hl_cat_partition_t *const *parts, size_t n, hl_error_t *err) {
  hl_status_t rc = hl_cat_begin(s->cat, err);
  if (rc != HL_OK) return rc;
  if (t) rc = hl_cat_table_update(s->cat, t, err);
  for (size_t i = 0; rc == HL_OK && i < n; i++)
    rc = hl_cat_partition_update(s->cat, parts[i], err);
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) hl_cat_rollback(s->cat);
  return rc;
}

hl_status_t hl_cmd_read_spec_compile(hl_session_t *s, const hl_table_t *t,
                                     const hl_ast_part_spec_t *spec, hl_arena_t *arena,
                                     hl_cmd_part_filter_t *out, hl_error_t *err) {
  hl_ast_part_spec_t fixed = {0};
  fixed.items = hl_arena_alloc(arena, sizeof *fixed.items * (size_t)(spec->n + 1));
  if (!fixed.items) return hl_err_nomem(err);
  fixed.pos = spec->pos;
  for (int i = 0; i < spec->n; i++) {
    const hl_ast_part_item_t *item = &spec->items[i];
    int k = hl_table_column_index(t, item->key);
    if (k < t->n_data)
      return hl_err_set_at(err, item->pos, HL_ERROR, HL_SS(UNDEFINED_COLUMN),
                           "\"%s\" is not a partition column of table \"%s.%s\"", item->key,
                           HL_TNAME(t));
    if (item->value) fixed.items[fixed.n++] = *item;
  }
  return hl_cmd_part_filter_compile(s, t, &fixed, arena, out, err);
}
