/*
 * cmd_load.c -- LOAD DATA [LOCAL] INPATH 'p' [OVERWRITE] INTO TABLE t
 * [PARTITION (spec)].
 *
 * Files are moved (or copied for LOCAL) without being parsed, as Hive does.
 * The load is atomic:
 *
 *   stage    incoming files -> <target>/.hivelite-staging-<rand>/ (copy/rename)
 *   begin    catalog transaction; add the partition if it is new
 *   clear    (OVERWRITE) existing visible files -> <target>/.hivelite-trash-<rand>/
 *   publish  staged files -> <target>/ (clashes get Hive's _copy_N suffix)
 *   commit
 *   cleanup  remove trash and staging directories
 *
 * Every rename is logged; a failure at any step replays the log backwards
 * (files back where they came from, copies removed, created directories
 * removed) and rolls the catalog back, so no partition entry and no stray
 * file remain.  Hidden names ('.' and '_' prefixes) are never loaded and
 * never cleared, so readers never see staging directories.
 */
#include "exec/cmd_int.h"
#include "exec/loc_allow.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct move {
  char *from;
  char *to;
  bool copied; /* undo removes TO instead of renaming back */
} move_t;

typedef struct load {
  hl_session_t *s;
  hl_arena_t *arena;
  hl_error_t *err;
  move_t *log;
  size_t n_log, cap_log;
} load_t;

static hl_status_t log_move(load_t *l, char *from, char *to, bool copied) {
  if (l->n_log == l->cap_log) {
    size_t cap = l->cap_log ? l->cap_log * 2 : 16;
    move_t *grown =
        hl_arena_realloc(l->arena, l->log, sizeof(move_t) * l->cap_log, sizeof(move_t) * cap);
    if (!grown) return hl_err_nomem(l->err);
    l->log = grown;
    l->cap_log = cap;
  }
  l->log[l->n_log++] = (move_t){from, to, copied};
  return HL_OK;
}

/* Moves (or copies) FROM to TO and logs it for undo. */
static hl_status_t do_move(load_t *l, char *from, char *to, bool copy) {
  hl_stor_t *fs = l->s->fs;
  hl_status_t rc =
      copy ? hl_stor_copy(fs, from, to, l->err) : fs->ops->rename(fs, from, to, l->err);
  if (rc != HL_OK) return rc;
  return log_move(l, from, to, copy);
}

/* Replays the log backwards.  Returns false if some file could not be put
 * back (then nothing may be removed recursively: it could be user data). */
static bool undo(load_t *l) {
  hl_stor_t *fs = l->s->fs;
  bool ok = true;
  for (size_t i = l->n_log; i-- > 0;) {
    hl_error_t ignored;
    hl_err_init(&ignored);
    hl_status_t rc = l->log[i].copied ? fs->ops->remove(fs, l->log[i].to, &ignored)
                                      : fs->ops->rename(fs, l->log[i].to, l->log[i].from, &ignored);
    if (rc != HL_OK) ok = false;
    hl_err_clear(&ignored);
  }
  l->n_log = 0;
  return ok;
}

/* "kv1.txt" -> "kv1_copy_N.txt" (Hive's naming for a clashing file). */
static char *copy_name(hl_arena_t *arena, const char *name, int n) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name) return hl_arena_sprintf(arena, "%s_copy_%d", name, n);
  return hl_arena_sprintf(arena, "%.*s_copy_%d%s", (int)(dot - name), name, n, dot);
}

static char *random_suffix(hl_arena_t *arena) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long long x =
      ((unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec) ^
      ((unsigned long long)getpid() << 32) ^ (unsigned long long)(uintptr_t)arena;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return hl_arena_sprintf(arena, "%016llx", x);
}

static bool hidden(const char *name) {
  return name[0] == '.' || name[0] == '_';
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

hl_status_t hl_cmd_load_data(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                             hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  hl_stor_t *fs = s->fs;
  if (t->n_part > 0 && !stmt->part_spec)
    return hl_err_set_at(err, stmt->table.pos, HL_ERROR,
                         HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is partitioned: LOAD DATA needs a PARTITION spec "
                         "naming every partition column",
                         HL_TNAME(t));
  if (t->n_part == 0 && stmt->part_spec)
    return hl_err_set_at(err, stmt->part_spec->pos, HL_ERROR,
                         HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  char **values = NULL;
  hl_cat_partition_t *part = NULL;
  char *target = t->cat->location;
  const char *dflt = hl_cmd_default_part_name(s);
  if (t->n_part > 0) {
    rc = hl_cmd_part_spec_full(s, t, stmt->part_spec, arena, &values, err);
    if (rc != HL_OK) return rc;
    hl_error_t e;
    hl_err_init(&e);
    rc = hl_cat_partition_get(s->cat, t->cat->id, values, t->n_part, arena, &part, &e);
    if (rc == HL_NOTFOUND) {
      hl_err_clear(&e);
      part = NULL;
    } else if (rc != HL_OK) {
      hl_err_move(err, &e);
      return rc;
    }
    target = part ? part->location : hl_table_part_path(t, values, dflt, arena);
    if (!target) return hl_err_nomem(err);
  }

  /* the source: a file, or the visible files of a directory */
  char *src;
  rc = hl_cmd_resolve_location(stmt->load_path, NULL, stmt->pos, arena, &src, err);
  if (rc == HL_OK) rc = hl_exec_location_check(s, src, "the LOAD DATA source", err);
  if (rc == HL_OK) rc = hl_exec_location_check(s, target, "the LOAD DATA target", err);
  if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  hl_stor_stat_t st;
  rc = fs->ops->stat(fs, src, &st, err);
  if (rc != HL_OK) return rc;
  if (!st.exists)
    return hl_err_set_at(err, stmt->pos, HL_NOTFOUND, HL_SS(UNDEFINED_FILE),
                         "path \"%s\" does not exist", stmt->load_path);
  char **files;
  size_t n_files = 0;
  if (st.is_dir) {
    hl_stor_entry_t *entries;
    size_t n;
    rc = fs->ops->list(fs, src, arena, &entries, &n, err);
    if (rc != HL_OK) return rc;
    files = hl_arena_alloc(arena, sizeof(char *) * (n + 1));
    if (!files) return hl_err_nomem(err);
    for (size_t i = 0; i < n; i++) {
      if (hidden(entries[i].name)) continue;
      if (entries[i].is_dir)
        return hl_err_set_at(err, stmt->pos, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                             "source directory \"%s\" contains directory \"%s\"; only files can "
                             "be loaded",
                             src, entries[i].name);
      files[n_files] = hl_path_join(arena, src, entries[i].name);
      if (!files[n_files++]) return hl_err_nomem(err);
    }
  } else {
    files = hl_arena_alloc(arena, sizeof(char *));
    if (!files) return hl_err_nomem(err);
    files[n_files++] = src;
  }
  if (hl_cmd_path_under(src, target) || hl_cmd_path_under(target, src))
    return hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "cannot load \"%s\" into \"%s\": the paths overlap", src, target);

  load_t l = {.s = s, .arena = arena, .err = err};
  char *created = NULL, *staging = NULL, *trash = NULL;
  bool in_txn = false, trash_made = false;
  char *suffix = random_suffix(arena);
  if (!suffix) return hl_err_nomem(err);
  staging = hl_arena_sprintf(arena, "%s/.hivelite-staging-%s", target, suffix);
  trash = hl_arena_sprintf(arena, "%s/.hivelite-trash-%s", target, suffix);
  char **staged = hl_arena_alloc(arena, sizeof(char *) * (n_files + 1));
  if (!staging || !trash || !staged) return hl_err_nomem(err);

  /* 1. stage */
  rc = hl_cmd_mkdirs_tracked(s, target, arena, &created, err);
  if (rc == HL_OK) rc = fs->ops->mkdirs(fs, staging, err);
  for (size_t i = 0; rc == HL_OK && i < n_files; i++) {
    staged[i] = hl_path_join(arena, staging, base_name(files[i]));
    rc = staged[i] ? do_move(&l, files[i], staged[i], stmt->load_local) : hl_err_nomem(err);
  }
  /* 2. catalog: the partition, if new */
  if (rc == HL_OK) rc = hl_cat_begin(s->cat, err);
  in_txn = rc == HL_OK;
  if (rc == HL_OK && t->n_part > 0 && !part) {
    hl_cat_partition_t p = {0};
    p.table_id = t->cat->id;
    p.values = values;
    p.n_values = t->n_part;
    p.name = hl_table_part_name(t, values, dflt, arena);
    p.location = target;
    p.create_time = (int64_t)time(NULL);
    rc = p.name ? hl_cat_partition_add(s->cat, &p, err) : hl_err_nomem(err);
  }
  /* 3. OVERWRITE: visible entries to the trash */
  if (rc == HL_OK && stmt->load_overwrite) {
    hl_stor_entry_t *entries;
    size_t n;
    rc = fs->ops->list(fs, target, arena, &entries, &n, err);
    if (rc == HL_OK) rc = fs->ops->mkdirs(fs, trash, err);
    trash_made = rc == HL_OK;
    for (size_t i = 0; rc == HL_OK && i < n; i++) {
      if (hidden(entries[i].name)) continue;
      char *from = hl_path_join(arena, target, entries[i].name);
      char *to = hl_path_join(arena, trash, entries[i].name);
      rc = from && to ? do_move(&l, from, to, false) : hl_err_nomem(err);
    }
  }
  /* 4. publish */
  for (size_t i = 0; rc == HL_OK && i < n_files; i++) {
    const char *name = base_name(files[i]);
    char *to = hl_path_join(arena, target, name);
    for (int copy = 1; rc == HL_OK && to; copy++) {
      hl_stor_stat_t tst;
      rc = fs->ops->stat(fs, to, &tst, err);
      if (rc != HL_OK || !tst.exists) break;
      char *alt = copy_name(arena, name, copy);
      to = alt ? hl_path_join(arena, target, alt) : NULL;
    }
    if (rc == HL_OK) rc = to ? do_move(&l, staged[i], to, false) : hl_err_nomem(err);
  }
  /* 5. commit */
  if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
  if (rc != HL_OK) {
    if (in_txn) hl_cat_rollback(s->cat);
    bool clean = undo(&l);
    hl_error_t ignored;
    hl_err_init(&ignored);
    if (trash_made) fs->ops->rmdir(fs, trash, &ignored);
    fs->ops->rmdir(fs, staging, &ignored); /* empty after a clean undo */
    hl_err_clear(&ignored);
    if (clean) hl_cmd_undo_mkdirs(s, created);
    hl_err_position(err, stmt->pos);
    return rc;
  }
  /* 6. cleanup (the load has happened; errors here leave hidden dirs) */
  hl_error_t ignored;
  hl_err_init(&ignored);
  if (trash_made) fs->ops->remove_tree(fs, trash, &ignored);
  fs->ops->rmdir(fs, staging, &ignored);
  hl_err_clear(&ignored);
  return HL_OK;
}
