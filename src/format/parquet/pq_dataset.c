/*
 * pq_dataset.c -- the files, partition directories and schema behind a
 * path, for Spark's direct file query SELECT FROM parquet.`path` (see
 * hl_parquet_dataset_list in parquet.h).
 *
 * The planner turns the result into a synthetic table (file columns, then
 * one STRING column per partition key) with one synthetic partition per
 * unit, so the ordinary scan, partition pruning and pushed predicates work
 * unchanged.  The walk is depth first over sorted listings, so the files of
 * one partition directory are consecutive and become one unit.
 * Invariant: the walk is bounded by the listed entries and 64 levels (a
 * symbolic link loop ends as an error, not a hang).
 */
#include "format/parquet/parquet.h"

#include "util/mem.h"
#include "util/partpath.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 64

typedef struct walk {
  hl_stor_t *fs;
  hl_arena_t *arena; /* the result's */
  hl_error_t *err;
  const char *root;
  /* partition components of the directory being walked */
  char *keys[MAX_DEPTH];
  char *values[MAX_DEPTH]; /* NULL: default partition */
  char *raw[MAX_DEPTH];    /* "k=v" as spelled */
  int depth;               /* directory levels below the root */
  int n_comp;
  /* the result being built */
  bool have_keys; /* the first file fixed the key list */
  char **first_keys;
  int n_first_keys;
  char *first_name; /* partition name of the first file, for messages */
  hl_parquet_dataset_unit_t *units;
  size_t n_units, cap_units;
  size_t cap_files; /* of the last unit */
} walk_t;

/* Spark's InMemoryFileIndex rule: "_x" and ".x" are hidden, except "_k=v"
 * directories; "*._COPYING_" are files being copied in. */
static bool is_hidden(const char *name) {
  size_t n = strlen(name);
  if (name[0] == '.') return true;
  if (name[0] == '_' && !strchr(name, '=')) return true;
  return n >= 10 && strcmp(name + n - 10, "._COPYING_") == 0;
}

static char *unescape(walk_t *w, const char *s, size_t len, bool lower) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_partpath_unescape(&b, s, len);
  char *out = b.oom ? NULL : hl_arena_strndup(w->arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  if (out && lower)
    for (char *c = out; *c; c++)
      *c = (char)tolower((unsigned char)*c);
  return out;
}

static char *comp_name(walk_t *w) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < w->n_comp; i++) {
    if (i) hl_buf_putc(&b, '/');
    hl_buf_puts(&b, w->raw[i]);
  }
  char *out = b.oom ? NULL : hl_arena_strndup(w->arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

static bool same_values(const walk_t *w, const hl_parquet_dataset_unit_t *u) {
  for (int i = 0; i < w->n_comp; i++) {
    if (!w->values[i] != !u->values[i]) return false;
    if (w->values[i] && strcmp(w->values[i], u->values[i]) != 0) return false;
  }
  return true;
}

/* Records file PATH found in directory DIR under the current components. */
static hl_status_t add_file(walk_t *w, const char *dir, char *path) {
  if (!w->have_keys) {
    w->have_keys = true;
    w->n_first_keys = w->n_comp;
    w->first_keys = hl_arena_alloc(w->arena, sizeof(char *) * (size_t)(w->n_comp + 1));
    w->first_name = comp_name(w);
    if (!w->first_keys || !w->first_name) return hl_err_nomem(w->err);
    for (int i = 0; i < w->n_comp; i++)
      w->first_keys[i] = w->keys[i];
  } else {
    bool same = w->n_comp == w->n_first_keys;
    for (int i = 0; same && i < w->n_comp; i++)
      same = strcmp(w->keys[i], w->first_keys[i]) == 0;
    if (!same) {
      char *name = comp_name(w);
      if (!name) return hl_err_nomem(w->err);
      return hl_err_set(w->err, HL_ERROR, HL_SS(DATA_EXCEPTION),
                        "conflicting partition directories under \"%s\": \"%s\" and \"%s\"",
                        w->root, w->first_name[0] ? w->first_name : ".", name[0] ? name : ".");
    }
  }
  hl_parquet_dataset_unit_t *u = w->n_units ? &w->units[w->n_units - 1] : NULL;
  if (!u || !same_values(w, u)) {
    if (w->n_units == w->cap_units) {
      size_t cap = w->cap_units ? w->cap_units * 2 : 8;
      hl_parquet_dataset_unit_t *n =
          hl_arena_realloc(w->arena, w->units, sizeof(*n) * w->cap_units, sizeof(*n) * cap);
      if (!n) return hl_err_nomem(w->err);
      w->units = n;
      w->cap_units = cap;
    }
    u = &w->units[w->n_units++];
    memset(u, 0, sizeof *u);
    u->values = hl_arena_alloc(w->arena, sizeof(char *) * (size_t)(w->n_comp + 1));
    u->name = comp_name(w);
    u->dir = hl_arena_strdup(w->arena, dir);
    if (!u->values || !u->name || !u->dir) return hl_err_nomem(w->err);
    for (int i = 0; i < w->n_comp; i++)
      u->values[i] = w->values[i];
    w->cap_files = 0;
  }
  if (u->n_files == w->cap_files) {
    size_t cap = w->cap_files ? w->cap_files * 2 : 4;
    char **n =
        hl_arena_realloc(w->arena, u->files, sizeof(char *) * w->cap_files, sizeof(char *) * cap);
    if (!n) return hl_err_nomem(w->err);
    u->files = n;
    w->cap_files = cap;
  }
  u->files[u->n_files++] = path;
  return HL_OK;
}

static hl_status_t walk_dir(walk_t *w, const char *dir) {
  if (w->depth >= MAX_DEPTH)
    return hl_err_set(w->err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                      "directory \"%s\" is nested more than %d levels deep", dir, MAX_DEPTH);
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(w->err);
  hl_stor_entry_t *ents;
  size_t n;
  hl_status_t rc = w->fs->ops->list(w->fs, dir, tmp, &ents, &n, w->err);
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const char *name = ents[i].name;
    if (is_hidden(name)) continue;
    char *path = hl_path_join(w->arena, dir, name);
    if (!path) {
      rc = hl_err_nomem(w->err);
      break;
    }
    if (!ents[i].is_dir) {
      rc = add_file(w, dir, path);
      continue;
    }
    const char *eq = strchr(name, '=');
    bool part = eq && eq > name;
    if (part) {
      bool is_default = strcmp(eq + 1, HL_DEFAULT_PARTITION_NAME) == 0;
      w->keys[w->n_comp] = unescape(w, name, (size_t)(eq - name), true);
      w->values[w->n_comp] = is_default ? NULL : unescape(w, eq + 1, strlen(eq + 1), false);
      w->raw[w->n_comp] = hl_arena_strdup(w->arena, name);
      if (!w->keys[w->n_comp] || (!is_default && !w->values[w->n_comp]) || !w->raw[w->n_comp]) {
        rc = hl_err_nomem(w->err);
        break;
      }
      w->n_comp++;
    }
    w->depth++;
    rc = walk_dir(w, path);
    w->depth--;
    if (part) w->n_comp--;
  }
  hl_arena_destroy(tmp);
  return rc;
}

hl_status_t hl_parquet_dataset_list(hl_stor_t *fs, const char *path, hl_arena_t *arena,
                                    hl_parquet_dataset_t **out, hl_error_t *err) {
  if (strncmp(path, "file://", 7) == 0)
    path += 7;
  else if (strncmp(path, "file:", 5) == 0)
    path += 5;
  if (!path[0])
    return hl_err_set(err, HL_ERROR, HL_SS(UNDEFINED_FILE), "the Parquet path is empty");
  hl_parquet_dataset_t *ds = hl_arena_zalloc(arena, sizeof *ds);
  if (!ds || !(ds->path = hl_path_normalize(arena, path, NULL))) return hl_err_nomem(err);
  hl_stor_stat_t st;
  hl_status_t rc = fs->ops->stat(fs, ds->path, &st, err);
  if (rc != HL_OK) return rc;
  if (!st.exists)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE), "path \"%s\" does not exist",
                      ds->path);
  walk_t w;
  memset(&w, 0, sizeof w);
  w.fs = fs;
  w.arena = arena;
  w.err = err;
  w.root = ds->path;
  if (st.is_dir) {
    if ((rc = walk_dir(&w, ds->path)) != HL_OK) return rc;
  } else {
    ds->single_file = true;
    const char *slash = strrchr(ds->path, '/');
    char *dir = hl_arena_strndup(arena, ds->path,
                                 slash && slash > ds->path ? (size_t)(slash - ds->path) : 1);
    if (!dir) return hl_err_nomem(err);
    if ((rc = add_file(&w, dir, ds->path)) != HL_OK) return rc;
  }
  if (w.n_units == 0)
    return hl_err_set(err, HL_NOTFOUND, HL_SS(UNDEFINED_FILE),
                      "directory \"%s\" holds no data files", ds->path);
  rc = hl_parquet_file_schema(fs, w.units[0].files[0], arena, &ds->n_cols, &ds->names, &ds->types,
                              err);
  if (rc != HL_OK) return rc;
  for (int k = 0; k < w.n_first_keys; k++) {
    for (int j = 0; j < k; j++)
      if (strcmp(w.first_keys[j], w.first_keys[k]) == 0)
        return hl_err_set(err, HL_ERROR, HL_SS(DUPLICATE_COLUMN),
                          "partition column \"%s\" appears twice in the directories under \"%s\"",
                          w.first_keys[k], ds->path);
    for (int c = 0; c < ds->n_cols; c++)
      if (strcasecmp(ds->names[c], w.first_keys[k]) == 0)
        return hl_err_set(err, HL_ERROR, HL_SS(DUPLICATE_COLUMN),
                          "partition column \"%s\" under \"%s\" is also a column of its files",
                          w.first_keys[k], ds->path);
  }
  ds->n_part_keys = w.n_first_keys;
  ds->part_keys = w.first_keys;
  ds->units = w.units;
  ds->n_units = w.n_units;
  *out = ds;
  return HL_OK;
}
