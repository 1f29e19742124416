/*
 * cmd_msck.c -- MSCK [REPAIR] TABLE t [ADD | DROP | SYNC PARTITIONS].
 *
 * Walks the table location exactly one directory level per partition key
 * (through the storage interface), takes `key=value/...` leaves whose keys
 * match the table's keys in order and whose values type for them, and
 * compares them with the metastore's partitions.  The walk goes in name
 * order: each directory's children are sorted by the name component of
 * their typed value (siblings that type alike, hr=1 and hr=01, are walked
 * together), so the leaves below one parent come out as one chunk, and
 * each chunk is compared with the catalog's partitions of that parent's
 * values (hl_cat_partition_scan, an index lookup).  Missing partitions are
 * registered in batches of hivelite.msck.batch_size as they are found and
 * their names go to a spill file (exec/spill.h) the result reads back:
 * memory follows one directory's children and one batch, not the table.
 * Hidden names (leading '.' or '_') are ignored silently; any other junk
 * is skipped and counted, or is an error under
 * hive.msck.path.validation=throw.  All repairs run in one catalog
 * transaction, begun at the first batch; MSCK never touches files.
 *
 * Output (column `result`), as Hive's lines:
 *   Partitions not in metastore:\tt:dt=1/hr=2\t...
 *   Repair: Added partition to metastore t:dt=1/hr=2
 *   Partitions missing from filesystem:\tt:dt=0/hr=0
 *   Repair: Dropped partition from metastore db.t:dt=0/hr=0
 *   Skipped N invalid partition directories: a, b, c, d, e
 *   Skipped a: why                  (each, with hivelite.msck.list.skipped)
 */
#include "command/cmd_int.h"
#include "exec/spill.h"
#include "session/loc_allow.h"

#include "plan/projection.h"
#include "util/partpath.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum { VALIDATE_THROW, VALIDATE_SKIP, VALIDATE_IGNORE };

/* Partitions registered per catalog call (hivelite.msck.batch_size). */
#define MSCK_ADD_BATCH 16384

typedef struct out_lines {
  char **v;
  size_t n, cap;
} out_lines_t;

/* A directory of one level that names a partition key and a value typed
 * for it (the walk's arena of its parent level). */
typedef struct child {
  const char *path; /* absolute */
  const char *rel;  /* relative to the table's location */
  char *canon;      /* the typed value's text, NULL = default partition */
  char *comp;       /* "key=canon" escaped, with a '/' below the leaf level */
  char *name;       /* leaves: the partition's name */
  bool canonical;   /* leaves: the directory is named as hivelite would name it */
} child_t;

typedef struct walk {
  hl_session_t *s;
  hl_table_t *t;
  hl_arena_t *arena; /* the statement's: what outlives the walk */
  hl_error_t *err;
  int mode; /* VALIDATE_* */
  bool do_add, do_drop, repair;
  size_t max_parts;  /* hivelite.max_partitions_per_table */
  size_t batch_size; /* hivelite.msck.batch_size */
  char **skipped;    /* every skipped path, relative ... */
  char **whys;       /* ... and why it was skipped */
  size_t n_skipped, cap_skipped;
  char **values;    /* canonical values of the levels being walked */
  out_lines_t dups; /* "Duplicate partition directories ..." lines */
  size_t n_leaves;  /* leaves kept (one per value tuple) */
  size_t n_missing; /* of them not in the metastore */
  size_t n_base;    /* partitions registered before, less those to drop */
  /* the batch of missing partitions not registered yet */
  hl_arena_t *batch_arena;
  hl_cat_partition_t *batch;
  size_t n_batch;
  bool in_txn;
  int64_t now;
  /* the missing partitions' names, in name order */
  hl_spill_t *spill;
  hl_spill_file_t *names;
  hl_batch_t *names_batch;
} walk_t;

static hl_status_t out_add(out_lines_t *o, char *line, hl_arena_t *arena, hl_error_t *err) {
  if (!line) return hl_err_nomem(err);
  if (o->n == o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 16;
    char **grown = hl_arena_realloc(arena, o->v, sizeof(char *) * o->cap, sizeof(char *) * cap);
    if (!grown) return hl_err_nomem(err);
    o->v = grown;
    o->cap = cap;
  }
  o->v[o->n++] = line;
  return HL_OK;
}

/* Records junk REL (relative path); under `throw` the first in name order
 * is the error once the walk is over (a level is listed before the levels
 * below it, so the first one met need not be the first by name). */
static hl_status_t junk(walk_t *w, const char *rel, const char *why) {
  if (w->n_skipped == w->cap_skipped) {
    size_t cap = w->cap_skipped ? w->cap_skipped * 2 : 16;
    char **p = hl_arena_realloc(w->arena, w->skipped, sizeof(char *) * w->cap_skipped,
                                sizeof(char *) * cap);
    char **q = p ? hl_arena_realloc(w->arena, w->whys, sizeof(char *) * w->cap_skipped,
                                    sizeof(char *) * cap)
                 : NULL;
    if (!p || !q) return hl_err_nomem(w->err);
    w->skipped = p;
    w->whys = q;
    w->cap_skipped = cap;
  }
  w->skipped[w->n_skipped] = hl_arena_strdup(w->arena, rel);
  w->whys[w->n_skipped] = hl_arena_strdup(w->arena, why);
  if (!w->skipped[w->n_skipped] || !w->whys[w->n_skipped]) return hl_err_nomem(w->err);
  w->n_skipped++;
  return HL_OK;
}

static char *unescape(hl_arena_t *arena, const char *s, size_t len) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_partpath_unescape(&b, s, len);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* NUM, trimmed, without sign, leading zeros and trailing fractional zeros
 * (into OUT, of CAP bytes); false when it is not a plain decimal number. */
static bool plain_number(const char *num, char *out, size_t cap) {
  while (*num == ' ')
    num++;
  size_t len = strlen(num);
  while (len && num[len - 1] == ' ')
    len--;
  size_t o = 0, i = 0;
  if (i < len && (num[i] == '-' || num[i] == '+')) {
    if (num[i] == '-') out[o++] = '-';
    i++;
  }
  while (i + 1 < len && num[i] == '0' && num[i + 1] != '.')
    i++;
  size_t dot = 0, digits = 0;
  for (; i < len && o + 1 < cap; i++) {
    if (num[i] == '.' && !dot) {
      dot = o + 1;
    } else if (num[i] < '0' || num[i] > '9') {
      return false;
    } else {
      digits++;
    }
    out[o++] = num[i];
  }
  if (i < len || digits == 0) return false;
  if (dot) {
    while (o > dot && out[o - 1] == '0')
      o--;
    if (o == dot) o--; /* "1." -> "1" */
  }
  out[o] = '\0';
  if (strcmp(out, "-0") == 0) strcpy(out, "0");
  return true;
}

/* Whether directory value TEXT is exactly the value CANON it typed to: an
 * integer or decimal key must not lose digits (hr=1.5 is not an INT, but
 * hr=01 and hr=1.0 are the INT 1). */
static bool exact_value(const hl_type_t *type, const char *text, const char *canon) {
  if (type->id < HL_T_TINYINT || (type->id > HL_T_BIGINT && type->id != HL_T_DECIMAL)) return true;
  char a[128], b[128];
  return plain_number(text, a, sizeof a) && plain_number(canon, b, sizeof b) && strcmp(a, b) == 0;
}

/* ------------------------------------------------ missing partitions */

/* Appends NAME to the spill file of missing names (made on the first). */
static hl_status_t names_put(walk_t *w, const char *name) {
  hl_error_t *err = w->err;
  if (!w->names) {
    const char *root;
    hl_status_t rc = hl_spill_root(w->s, w->arena, &root, err);
    if (rc != HL_OK) return rc;
    if (!(w->spill = hl_spill_create(root, w->s->budget.limit, w->arena, err))) return err->code;
    if ((rc = hl_spill_file_create(w->spill, &w->names, err)) != HL_OK) return rc;
    const hl_type_t *types[1] = {hl_type_prim(HL_T_STRING)};
    if (!(w->names_batch = hl_batch_create(1, types))) return hl_err_nomem(err);
  }
  hl_batch_t *b = w->names_batch;
  hl_value_t v = {.u.s = {.ptr = name, .len = (uint32_t)strlen(name)}};
  if (hl_vec_put_value(&b->cols[0], b->arena, b->n_rows, &v) != HL_OK) return hl_err_nomem(err);
  if (++b->n_rows < HL_BATCH_CAP) return HL_OK;
  hl_status_t rc = hl_spill_write(w->names, b, NULL, 0, err);
  if (rc == HL_OK && hl_batch_reset(b) != HL_OK) rc = hl_err_nomem(err);
  return rc;
}

/* Writes the names still in the batch: the file is complete. */
static hl_status_t names_finish(walk_t *w) {
  hl_status_t rc = HL_OK;
  if (w->names_batch && w->names_batch->n_rows)
    rc = hl_spill_write(w->names, w->names_batch, NULL, 0, w->err);
  hl_batch_destroy(w->names_batch);
  w->names_batch = NULL;
  return rc;
}

static hl_status_t txn_begin(walk_t *w) {
  if (w->in_txn) return HL_OK;
  hl_status_t rc = hl_cat_begin(w->s->cat, w->err);
  if (rc == HL_OK) w->in_txn = true;
  return rc;
}

/* Registers the batch of missing partitions (in the repair's one
 * transaction: per-partition calls cost a catalog savepoint each). */
static hl_status_t batch_flush(walk_t *w) {
  if (w->n_batch == 0) return HL_OK;
  hl_status_t rc = txn_begin(w);
  if (rc == HL_OK) rc = hl_cat_partition_add_many(w->s->cat, w->batch, w->n_batch, w->err);
  w->n_batch = 0;
  hl_arena_reset(w->batch_arena);
  return rc;
}

/* LEAF (its values are W->values) is not in the metastore: its name is
 * listed and, when repairing, it joins the batch. */
static hl_status_t take_missing(walk_t *w, const child_t *leaf) {
  hl_error_t *err = w->err;
  w->n_missing++;
  if (w->repair && w->n_base + w->n_missing > w->max_parts)
    return hl_cmd_too_many_partitions(w->t, w->max_parts, err);
  hl_status_t rc = names_put(w, leaf->name);
  if (rc != HL_OK || !w->repair) return rc;
  hl_arena_t *a = w->batch_arena;
  int n = w->t->n_part;
  hl_cat_partition_t *p = &w->batch[w->n_batch];
  memset(p, 0, sizeof *p);
  p->table_id = w->t->cat->id;
  p->n_values = n;
  p->values = hl_arena_alloc(a, sizeof(char *) * (size_t)n);
  p->name = hl_arena_strdup(a, leaf->name);
  p->location = hl_arena_strdup(a, leaf->path);
  p->create_time = w->now;
  if (!p->values || !p->name || !p->location) return hl_err_nomem(err);
  for (int k = 0; k < n; k++) {
    p->values[k] = w->values[k] ? hl_arena_strdup(a, w->values[k]) : NULL;
    if (w->values[k] && !p->values[k]) return hl_err_nomem(err);
  }
  return ++w->n_batch == w->batch_size ? batch_flush(w) : HL_OK;
}

/* ------------------------------------------------------ one chunk */

/* The registered partitions below one parent (hl_cat_part_fn context):
 * the values of the leaf key of those whose other values are the walk's. */
typedef struct registered {
  walk_t *w;
  int depth;       /* the leaf level */
  hl_arena_t *tmp; /* the chunk's arena */
  const char **leaf_values;
  bool has_null; /* the default partition is one of them */
  size_t n, cap;
} registered_t;

static bool same_text(const char *a, const char *b) {
  return a ? b && strcmp(a, b) == 0 : !b;
}

static hl_status_t registered_take(void *ctx, const hl_cat_partition_t *p, hl_error_t *err) {
  registered_t *r = ctx;
  if (p->n_values != r->depth + 1) return HL_OK;
  for (int k = 0; k < r->depth; k++) /* a default partition above is not pinned */
    if (!same_text(p->values[k], r->w->values[k])) return HL_OK;
  const char *v = p->values[r->depth];
  if (!v) {
    r->has_null = true;
    return HL_OK;
  }
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 64;
    const char **grown =
        hl_arena_realloc(r->tmp, r->leaf_values, sizeof(char *) * r->cap, sizeof(char *) * cap);
    if (!grown) return hl_err_nomem(err);
    r->leaf_values = grown;
    r->cap = cap;
  }
  if (!(r->leaf_values[r->n] = hl_arena_strdup(r->tmp, v))) return hl_err_nomem(err);
  r->n++;
  return HL_OK;
}

static int cmp_str_ptr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Children of one level in name order; the leaves of one value tuple with
 * the canonically named directory first, then by path. */
static int cmp_child(const void *a, const void *b) {
  const child_t *x = a, *y = b;
  int c = strcmp(x->comp, y->comp);
  if (c) return c;
  if (x->canonical != y->canonical) return x->canonical ? -1 : 1;
  return strcmp(x->rel, y->rel);
}

/* The leaves KIDS[0..n) below one parent (values W->values[0..depth)):
 * duplicates reported, the rest compared with the metastore's partitions
 * of that parent. */
static hl_status_t leaves_flush(walk_t *w, child_t *kids, size_t n, int depth, hl_arena_t *tmp) {
  hl_error_t *err = w->err;
  const hl_table_t *t = w->t;
  if (n == 0) return HL_OK;
  const char *def = hl_cmd_default_part_name(w->s, t);
  for (size_t i = 0; i < n; i++) {
    w->values[depth] = kids[i].canon;
    kids[i].name = hl_table_part_name(t, w->values, def, tmp);
    if (!kids[i].name) return hl_err_nomem(err);
    kids[i].canonical = strcmp(kids[i].rel, kids[i].name) == 0;
  }
  qsort(kids, n, sizeof *kids, cmp_child);
  registered_t reg = {.w = w, .depth = depth, .tmp = tmp};
  if (w->do_add) {
    const char **eq = hl_arena_zalloc(tmp, sizeof(char *) * (size_t)t->n_part);
    if (!eq) return hl_err_nomem(err);
    bool any = false;
    for (int k = 0; k < depth; k++)
      any = any || (eq[k] = w->values[k]) != NULL;
    hl_cat_part_filter_t f = {.eq = eq};
    hl_status_t rc =
        hl_cat_partition_scan(w->s->cat, t->cat->id, any ? &f : NULL, registered_take, &reg, err);
    if (rc != HL_OK) return rc;
    if (reg.n > 1) qsort(reg.leaf_values, reg.n, sizeof(char *), cmp_str_ptr);
  }
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && strcmp(kids[j].comp, kids[i].comp) == 0)
      j++;
    /* directories that type to the same values (hr=1, hr=01, hr=1.0): one
     * is the partition -- the one named canonically, else the first in
     * name order -- and the others are reported, never dropped silently */
    if (j - i > 1) {
      hl_buf_t b;
      hl_buf_init(&b);
      hl_buf_printf(&b, "Duplicate partition directories for %s:%s: kept %s, ignored", t->cat->name,
                    kids[i].name, kids[i].rel);
      for (size_t k = i + 1; k < j; k++)
        hl_buf_printf(&b, "%s %s", k > i + 1 ? "," : "", kids[k].rel);
      char *line = b.oom ? NULL : hl_arena_strndup(w->arena, hl_buf_cstr(&b), b.len);
      hl_buf_fini(&b);
      hl_status_t rc = out_add(&w->dups, line, w->arena, err);
      if (rc != HL_OK) return rc;
      hl_notify_warn(&w->s->notify, "%s", line);
    }
    w->n_leaves++;
    const char *v = kids[i].canon;
    bool known = v ? reg.n && bsearch(&v, reg.leaf_values, reg.n, sizeof(char *), cmp_str_ptr)
                   : reg.has_null;
    if (w->do_add && !known) {
      w->values[depth] = kids[i].canon;
      hl_status_t rc = take_missing(w, &kids[i]);
      if (rc != HL_OK) return rc;
    }
    i = j;
  }
  return HL_OK;
}

/* ------------------------------------------------------------ walk */

typedef struct kids {
  child_t *v;
  size_t n, cap;
} kids_t;

static hl_status_t kids_push(kids_t *k, hl_arena_t *arena, const child_t *c, hl_error_t *err) {
  if (k->n == k->cap) {
    size_t cap = k->cap ? k->cap * 2 : 64;
    child_t *grown = hl_arena_realloc(arena, k->v, sizeof *k->v * k->cap, sizeof *k->v * cap);
    if (!grown) return hl_err_nomem(err);
    k->v = grown;
    k->cap = cap;
  }
  k->v[k->n++] = *c;
  return HL_OK;
}

/* Lists DIR (relative path REL, "" at the table root) at DEPTH into KIDS
 * (in TMP): the children that name the level's key with a value typed for
 * it; the others are junk. */
static hl_status_t list_level(walk_t *w, hl_arena_t *tmp, const char *dir, const char *rel,
                              int depth, kids_t *kids) {
  hl_stor_entry_t *entries;
  size_t n;
  hl_status_t rc = hl_budget_check_cancel(&w->s->budget, w->err);
  if (rc == HL_OK) rc = w->s->fs->ops->list(w->s->fs, dir, tmp, &entries, &n, w->err);
  if (rc != HL_OK) return rc;
  const char *key = w->t->cat->part_keys[depth].name;
  const char *keys[1] = {w->t->names[w->t->n_data + depth]};
  bool leaf = depth + 1 == w->t->n_part;
  const char *def = hl_cmd_default_part_name(w->s, w->t);
  size_t n_visible = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = entries[i].name;
    if (name[0] == '.' || name[0] == '_') continue;
    n_visible++;
    /* a linked directory is judged by its target, as a read would */
    if (entries[i].is_link) {
      char *what = hl_arena_sprintf(tmp, "table \"%s.%s\"", HL_TNAME(w->t));
      rc = what ? hl_loc_allow_check_links(w->s, dir, &entries[i], 1, what, w->err)
                : hl_err_nomem(w->err);
      if (rc != HL_OK) return rc;
    }
    char *child_rel = *rel ? hl_arena_sprintf(tmp, "%s/%s", rel, name) : hl_arena_strdup(tmp, name);
    if (!child_rel) return hl_err_nomem(w->err);
    if (!entries[i].is_dir) {
      rc = junk(w, child_rel, "a file where a partition directory was expected");
      if (rc != HL_OK) return rc;
      continue;
    }
    const char *eq = strchr(name, '=');
    if (!eq || eq == name || !eq[1] || strchr(eq + 1, '=')) {
      rc = junk(w, child_rel, "not a key=value directory name");
      if (rc != HL_OK) return rc;
      continue;
    }
    char *k = unescape(tmp, name, (size_t)(eq - name));
    char *v = unescape(tmp, eq + 1, strlen(eq + 1));
    if (!k || !v) return hl_err_nomem(w->err);
    if (strcasecmp(k, key) != 0) {
      char *why = hl_arena_sprintf(tmp, "expected partition key \"%s\" at this level", key);
      rc = why ? junk(w, child_rel, why) : hl_err_nomem(w->err);
      if (rc != HL_OK) return rc;
      continue;
    }
    /* the raw name, not the decoded value: "10%3A11" is what Hive writes */
    if (w->mode != VALIDATE_IGNORE && !hl_partpath_is_escaped(eq + 1, strlen(eq + 1))) {
      rc = junk(w, child_rel, "the value holds characters that Hive escapes");
      if (rc != HL_OK) return rc;
      continue;
    }
    hl_error_t verr;
    hl_err_init(&verr);
    char *canon;
    rc = hl_cmd_part_value_canon(w->s, w->t, depth, v, tmp, &canon, &verr);
    if (rc == HL_NOMEM) {
      hl_err_clear(&verr);
      return hl_err_nomem(w->err);
    }
    if (rc != HL_OK) {
      char *why = hl_arena_strdup(tmp, verr.message);
      hl_err_clear(&verr);
      rc = why ? junk(w, child_rel, why) : hl_err_nomem(w->err);
      if (rc != HL_OK) return rc;
      continue;
    }
    if (canon && !exact_value(w->t->types[w->t->n_data + depth], v, canon)) {
      char *type_name = hl_type_to_string(tmp, w->t->types[w->t->n_data + depth]);
      char *why = type_name ? hl_arena_sprintf(tmp, "the value \"%s\" is not exactly of type %s", v,
                                               type_name)
                            : NULL;
      rc = why ? junk(w, child_rel, why) : hl_err_nomem(w->err);
      if (rc != HL_OK) return rc;
      continue;
    }
    /* the name component of the typed value: siblings sort by it (with the
     * '/' that follows it in a partition name below the leaf level) */
    hl_buf_t b;
    hl_buf_init(&b);
    const char *vals[1] = {canon};
    hl_partpath_name(&b, 1, keys, vals, def);
    if (!leaf) hl_buf_putc(&b, '/');
    child_t c = {.rel = child_rel, .canon = canon};
    c.comp = b.oom ? NULL : hl_arena_strndup(tmp, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    c.path = hl_path_join(tmp, dir, name);
    if (!c.comp || !c.path) return hl_err_nomem(w->err);
    if ((rc = kids_push(kids, tmp, &c, w->err)) != HL_OK) return rc;
  }
  if (depth > 0 && n_visible == 0) return junk(w, rel, "missing partition directories below it");
  return HL_OK;
}

/* Walks the N_DIRS directories DIRS (relative paths RELS) at DEPTH, all
 * of one canonical value tuple of the levels above: their children
 * together, in name order, so that hr=1 and hr=01 (one partition) are
 * compared as one.  Everything listed lives in an arena of this call. */
static hl_status_t walk_group(walk_t *w, const char *const *dirs, const char *const *rels,
                              size_t n_dirs, int depth) {
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(w->err);
  kids_t kids = {0};
  hl_status_t rc = HL_OK;
  for (size_t i = 0; rc == HL_OK && i < n_dirs; i++)
    rc = list_level(w, tmp, dirs[i], rels[i], depth, &kids);
  if (rc == HL_OK && depth + 1 == w->t->n_part) {
    rc = leaves_flush(w, kids.v, kids.n, depth, tmp);
  } else if (rc == HL_OK) {
    if (kids.n > 1) qsort(kids.v, kids.n, sizeof *kids.v, cmp_child);
    const char **paths = hl_arena_alloc(tmp, sizeof(char *) * (kids.n + 1));
    const char **sub_rels = hl_arena_alloc(tmp, sizeof(char *) * (kids.n + 1));
    if (!paths || !sub_rels) rc = hl_err_nomem(w->err);
    for (size_t i = 0; rc == HL_OK && i < kids.n;) {
      size_t j = i;
      for (; j < kids.n && strcmp(kids.v[j].comp, kids.v[i].comp) == 0; j++) {
        paths[j - i] = kids.v[j].path;
        sub_rels[j - i] = kids.v[j].rel;
      }
      w->values[depth] = kids.v[i].canon;
      rc = walk_group(w, paths, sub_rels, j - i, depth + 1);
      /* the top level is the one whose size is known up front */
      if (depth == 0) hl_notify_progress(&w->s->notify, "msck", j, kids.n, "directories");
      i = j;
    }
  }
  hl_arena_destroy(tmp);
  return rc;
}

/* ---------------------------------------------- the metastore's side */

typedef struct gone {
  char *name;
  int64_t id;
} gone_t;

/* Registered partitions whose directory is gone (hl_cat_part_fn context):
 * only those are kept. */
typedef struct known {
  hl_session_t *s;
  hl_arena_t *arena;
  size_t n_seen;
  gone_t *gone;
  size_t n_gone, cap_gone;
} known_t;

static hl_status_t known_take(void *ctx, const hl_cat_partition_t *p, hl_error_t *err) {
  known_t *kn = ctx;
  kn->n_seen++;
  hl_stor_stat_t st;
  hl_status_t rc = hl_budget_check_cancel(&kn->s->budget, err);
  if (rc == HL_OK) rc = kn->s->fs->ops->stat(kn->s->fs, p->location, &st, err);
  if (rc != HL_OK) return rc;
  if (st.exists && st.is_dir) return HL_OK;
  if (kn->n_gone == kn->cap_gone) {
    size_t cap = kn->cap_gone ? kn->cap_gone * 2 : 16;
    gone_t *grown = hl_arena_realloc(kn->arena, kn->gone, sizeof *kn->gone * kn->cap_gone,
                                     sizeof *kn->gone * cap);
    if (!grown) return hl_err_nomem(err);
    kn->gone = grown;
    kn->cap_gone = cap;
  }
  kn->gone[kn->n_gone].id = p->id;
  if (!(kn->gone[kn->n_gone].name = hl_arena_strdup(kn->arena, p->name))) return hl_err_nomem(err);
  kn->n_gone++;
  return HL_OK;
}

static int cmp_gone(const void *a, const void *b) {
  return strcmp(((const gone_t *)a)->name, ((const gone_t *)b)->name);
}

/* ---------------------------------------------------------- output */

/* Names per "Partitions not in metastore:" line: a million partitions
 * are listed on 100 lines of the same form, not on one line of 20 MB
 * (the embedder would copy it more than once). */
#define MSCK_LIST_NAMES 10000

/* The result, read as its rows are asked for: HEAD lines; the lines
 * listing the names of the spill file NAMES ("Partitions not in
 * metastore:\tt:a\tt:b...", MSCK_LIST_NAMES a line); MID lines; when
 * ADDED, "Repair: Added partition to metastore t:a" for each name again;
 * TAIL lines. */
typedef struct msck_op {
  hl_op_t base;
  char **lines[3]; /* head, mid, tail */
  size_t n_lines[3];
  int phase;              /* 0 head, 1 list, 2 mid, 3 added, 4 tail, 5 done */
  size_t next;            /* next line of a phase of lines */
  hl_spill_file_t *names; /* owned; NULL: no names */
  bool added;
  const char *table; /* the table's name, before each name */
  hl_batch_t *in;    /* names read back */
  uint32_t in_next;  /* next row of IN */
  bool eof;          /* NAMES read to its end */
  hl_batch_t *out;   /* the rows handed out */
  hl_buf_t line;
} msck_op_t;

static hl_status_t put_line(hl_batch_t *b, const char *text, size_t len, hl_error_t *err) {
  hl_value_t v = {.u.s = {.ptr = text, .len = (uint32_t)len}};
  if (hl_vec_put_value(&b->cols[0], b->arena, b->n_rows, &v) != HL_OK) return hl_err_nomem(err);
  b->n_rows++;
  return HL_OK;
}

/* The next name of NAMES into *V; false at its end. */
static bool next_name(msck_op_t *m, hl_value_t *v, hl_status_t *rc, hl_error_t *err) {
  if (m->in_next >= m->in->n_rows && !m->eof) {
    *rc = hl_spill_read(m->names, m->in, err);
    m->in_next = 0;
    m->eof = *rc != HL_OK || m->in->n_rows == 0;
  }
  if (m->eof) return false;
  hl_vec_get_value(&m->in->cols[0], m->in_next++, v);
  return true;
}

/* Reads NAMES again from its start. */
static hl_status_t names_restart(msck_op_t *m, hl_error_t *err) {
  m->eof = false;
  m->in_next = 0;
  m->in->n_rows = 0;
  return hl_spill_rewind(m->names, err);
}

static hl_status_t msck_next(hl_op_t *op, hl_batch_t **out, hl_error_t *err) {
  msck_op_t *m = (msck_op_t *)op;
  *out = NULL;
  if (hl_batch_reset(m->out) != HL_OK) return hl_err_nomem(err);
  hl_batch_t *b = m->out;
  hl_status_t rc = HL_OK;
  hl_value_t v;
  while (rc == HL_OK && b->n_rows < HL_BATCH_CAP && m->phase < 5) {
    int p = m->phase;
    if (p == 0 || p == 2 || p == 4) { /* lines held */
      int i = p / 2;
      if (m->next < m->n_lines[i]) {
        rc = put_line(b, m->lines[i][m->next], strlen(m->lines[i][m->next]), err);
        m->next++;
      } else {
        m->phase++;
        m->next = 0;
      }
    } else if (!m->names || (p == 3 && !m->added)) {
      m->phase++;
    } else if (p == 1) { /* one listing line, a batch of its own */
      m->line.len = 0;
      hl_buf_puts(&m->line, "Partitions not in metastore:");
      size_t n = 0;
      while (n < MSCK_LIST_NAMES && next_name(m, &v, &rc, err)) {
        hl_buf_printf(&m->line, "\t%s:", m->table);
        hl_buf_append(&m->line, v.u.s.ptr, v.u.s.len);
        n++;
      }
      if (rc == HL_OK && m->line.oom) rc = hl_err_nomem(err);
      if (rc == HL_OK && n) rc = put_line(b, hl_buf_cstr(&m->line), m->line.len, err);
      if (rc == HL_OK && m->eof) {
        rc = names_restart(m, err);
        m->phase++;
      }
      if (n) break;
    } else if (next_name(m, &v, &rc, err)) { /* p == 3 */
      m->line.len = 0;
      hl_buf_printf(&m->line, "Repair: Added partition to metastore %s:", m->table);
      hl_buf_append(&m->line, v.u.s.ptr, v.u.s.len);
      rc = m->line.oom ? hl_err_nomem(err) : put_line(b, hl_buf_cstr(&m->line), m->line.len, err);
    } else if (rc == HL_OK) {
      m->phase++;
    }
  }
  if (rc == HL_OK && b->n_rows) *out = b;
  return rc;
}

static void msck_close(hl_op_t *op) {
  msck_op_t *m = (msck_op_t *)op;
  hl_spill_file_close(m->names);
  m->names = NULL;
  hl_batch_destroy(m->in);
  hl_batch_destroy(m->out);
  m->in = m->out = NULL;
  hl_buf_fini(&m->line);
}

/* Arena reset hook: closes what the consumer never closed. */
static void msck_cleanup(void *arg) {
  msck_close(arg);
}

/* Frees what the walk holds when the statement fails before its result
 * owns it. */
static void walk_fini(walk_t *w) {
  hl_batch_destroy(w->names_batch);
  w->names_batch = NULL;
  hl_spill_file_close(w->names);
  w->names = NULL;
  hl_arena_destroy(w->batch_arena);
  w->batch_arena = NULL;
}

typedef struct skip_pair {
  char *path, *why;
} skip_pair_t;

static int cmp_skip(const void *a, const void *b) {
  return strcmp(((const skip_pair_t *)a)->path, ((const skip_pair_t *)b)->path);
}

/* Sorts W's skipped paths (and their reasons with them) by path. */
static void skip_sort(walk_t *w) {
  skip_pair_t *pairs = hl_arena_alloc(w->arena, sizeof *pairs * w->n_skipped);
  if (!pairs) return; /* left in walk order */
  for (size_t i = 0; i < w->n_skipped; i++)
    pairs[i] = (skip_pair_t){w->skipped[i], w->whys[i]};
  qsort(pairs, w->n_skipped, sizeof *pairs, cmp_skip);
  for (size_t i = 0; i < w->n_skipped; i++) {
    w->skipped[i] = pairs[i].path;
    w->whys[i] = pairs[i].why;
  }
}

static hl_status_t batch_setting(hl_session_t *s, size_t *out, hl_error_t *err) {
  const char *v = hl_session_get(s, "hivelite.msck.batch_size");
  *out = MSCK_ADD_BATCH;
  if (!v || !*v) return HL_OK;
  char *end;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  if (errno || *end || n < 1 || n > 1000000)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for hivelite.msck.batch_size (expected 1 to 1000000)",
                      v);
  *out = (size_t)n;
  return HL_OK;
}

static hl_status_t msck_run(walk_t *w, const hl_ast_stmt_t *stmt, hl_result_t *result);

hl_status_t hl_cmd_msck(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                        hl_result_t *result, hl_error_t *err) {
  hl_table_t *t;
  hl_status_t rc = hl_table_load(s, &stmt->table, arena, &t, err);
  if (rc != HL_OK) return rc;
  if (t->n_part == 0)
    return hl_err_set_at(err, stmt->table.pos, HL_ERROR,
                         HL_SS(SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION),
                         "table \"%s.%s\" is not a partitioned table", HL_TNAME(t));
  /* partitions of a projected table are computed, never registered */
  if (hl_plan_projection_enabled(t))
    return hl_cmd_lines_result(arena, "result", NULL, 0, result, err);
  const char *mode = hl_session_get(s, "hive.msck.path.validation");
  walk_t w = {.s = s, .t = t, .arena = arena, .err = err, .now = (int64_t)time(NULL)};
  if (!mode || strcasecmp(mode, "skip") == 0)
    w.mode = VALIDATE_SKIP;
  else if (strcasecmp(mode, "throw") == 0)
    w.mode = VALIDATE_THROW;
  else if (strcasecmp(mode, "ignore") == 0)
    w.mode = VALIDATE_IGNORE;
  else
    return hl_err_set_at(err, stmt->pos, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                         "invalid value \"%s\" for hive.msck.path.validation (expected throw, "
                         "skip or ignore)",
                         mode);
  if ((rc = batch_setting(s, &w.batch_size, err)) != HL_OK)
    return hl_err_position(err, stmt->pos), rc;
  w.values = hl_arena_zalloc(arena, sizeof(char *) * (size_t)t->n_part);
  if (!w.values) return hl_err_nomem(err);
  w.do_add = stmt->msck_mode == 0 || stmt->msck_mode == 2 || !stmt->msck_repair;
  w.do_drop = stmt->msck_mode == 1 || stmt->msck_mode == 2 || !stmt->msck_repair;
  w.repair = stmt->msck_repair;
  rc = hl_cmd_max_partitions(s, &w.max_parts, err);
  if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  rc = hl_loc_allow_check_table(s, t->cat->location, HL_TNAME(t), NULL, err);
  if (rc != HL_OK) return hl_err_position(err, stmt->table.pos), rc;
  rc = msck_run(&w, stmt, result);
  if (w.in_txn && rc != HL_OK) hl_cat_rollback(s->cat);
  walk_fini(&w);
  return rc;
}

static hl_status_t msck_run(walk_t *w, const hl_ast_stmt_t *stmt, hl_result_t *result) {
  hl_session_t *s = w->s;
  const hl_table_t *t = w->t;
  hl_arena_t *arena = w->arena;
  hl_error_t *err = w->err;
  /* The registered partitions whose directory is gone, first: streamed,
   * only those kept (name and id). */
  known_t kn = {.s = s, .arena = arena};
  size_t n_parts;
  hl_status_t rc = hl_cat_partition_count(s->cat, t->cat->id, &n_parts, err);
  if (rc == HL_OK && w->do_drop && hl_cat_local(s->cat) != s->cat) {
    /* a remote metastore's names come without locations: whole records */
    hl_cat_partition_t *parts;
    size_t n_list;
    rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n_list, err);
    for (size_t i = 0; rc == HL_OK && i < n_list; i++)
      rc = known_take(&kn, &parts[i], err);
  } else if (rc == HL_OK && w->do_drop) {
    rc = hl_cat_partition_scan(s->cat, t->cat->id, NULL, known_take, &kn, err);
  }
  if (rc != HL_OK) return rc;
  if (w->do_drop) n_parts = kn.n_seen;
  w->n_base = n_parts - (w->repair ? kn.n_gone : 0);
  if (w->n_base > w->max_parts && w->repair && w->do_add)
    return hl_err_position(err, stmt->pos), hl_cmd_too_many_partitions(t, w->max_parts, err);

  /* The directories, in name order, compared and registered a chunk and
   * a batch at a time. */
  if (w->repair && w->do_add) {
    w->batch_arena = hl_arena_create(0);
    w->batch = hl_arena_alloc(arena, sizeof *w->batch * w->batch_size);
    if (!w->batch_arena || !w->batch) return hl_err_nomem(err);
  }
  hl_stor_stat_t root;
  rc = s->fs->ops->stat(s->fs, t->cat->location, &root, err);
  if (rc != HL_OK) return rc;
  if (root.exists && root.is_dir) {
    const char *dirs[1] = {t->cat->location}, *rels[1] = {""};
    rc = walk_group(w, dirs, rels, 1, 0);
    if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  }
  if ((rc = names_finish(w)) != HL_OK) return rc;
  if (w->mode == VALIDATE_THROW && w->n_skipped) {
    skip_sort(w);
    hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
               "invalid partition directory \"%s\" in table \"%s.%s\": %s", w->skipped[0],
               HL_TNAME(t), w->whys[0]);
    return hl_err_position(err, stmt->pos), err->code;
  }

  gone_t *gone = kn.gone;
  size_t n_gone = kn.n_gone;
  if (n_gone > 1) qsort(gone, n_gone, sizeof *gone, cmp_gone);
  if (w->repair && (w->n_missing || n_gone)) {
    rc = batch_flush(w);
    if (rc == HL_OK) rc = txn_begin(w);
    for (size_t i = 0; rc == HL_OK && i < n_gone; i++)
      rc = hl_cat_partition_drop(s->cat, gone[i].id, err);
    /* text dates in the first key: the table's incremental field */
    if (rc == HL_OK && w->n_missing) rc = hl_cmd_incr_auto(s, t, arena, err);
    if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
    w->in_txn = false; /* committed, or rolled back by the commit */
    if (rc != HL_OK) return rc;
  }

  msck_op_t *m = hl_arena_zalloc(arena, sizeof *m);
  if (!m || hl_arena_on_reset(arena, msck_cleanup, m) != 0) return hl_err_nomem(err);
  hl_buf_init(&m->line);
  out_lines_t mid = {0}, tail = {0};
  if (n_gone) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_puts(&b, "Partitions missing from filesystem:");
    for (size_t i = 0; i < n_gone; i++)
      hl_buf_printf(&b, "\t%s:%s", t->cat->name, gone[i].name);
    char *line = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    if ((rc = out_add(&mid, line, arena, err)) != HL_OK) return rc;
  }
  for (size_t i = 0; w->repair && i < n_gone; i++)
    if ((rc = out_add(&tail,
                      hl_arena_sprintf(arena, "Repair: Dropped partition from metastore %s.%s:%s",
                                       HL_TNAME(t), gone[i].name),
                      arena, err)) != HL_OK)
      return rc;
  if (w->n_skipped) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_printf(&b, "Skipped %zu invalid partition director%s: ", w->n_skipped,
                  w->n_skipped == 1 ? "y" : "ies");
    /* in name order (the walk records a level before the levels below) */
    skip_sort(w);
    for (size_t i = 0; i < w->n_skipped && i < 5; i++)
      hl_buf_printf(&b, "%s%s", i ? ", " : "", w->skipped[i]);
    if (w->n_skipped > 5) hl_buf_puts(&b, ", ...");
    char *line = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    if ((rc = out_add(&tail, line, arena, err)) != HL_OK) return rc;
    /* every one of them, with the reason: as warnings always, as result
     * lines on request */
    bool list = hl_cmd_setting_true(s, "hivelite.msck.list.skipped");
    for (size_t i = 0; i < w->n_skipped; i++) {
      char *each = hl_arena_sprintf(arena, "Skipped %s: %s", w->skipped[i], w->whys[i]);
      if (!each) return hl_err_nomem(err);
      hl_notify_warn(&s->notify, "%s", each);
      if (list && (rc = out_add(&tail, each, arena, err)) != HL_OK) return rc;
    }
  }

  const hl_type_t *types[1] = {hl_type_prim(HL_T_STRING)};
  char **names = hl_arena_alloc(arena, sizeof(char *));
  const hl_type_t **col_types = hl_arena_alloc(arena, sizeof(hl_type_t *));
  if (!names || !col_types || !(names[0] = hl_arena_strdup(arena, "result")))
    return hl_err_nomem(err);
  col_types[0] = types[0];
  m->base.next = msck_next;
  m->base.close = msck_close;
  m->lines[0] = w->dups.v;
  m->n_lines[0] = w->dups.n;
  m->lines[1] = mid.v;
  m->n_lines[1] = mid.n;
  m->lines[2] = tail.v;
  m->n_lines[2] = tail.n;
  m->table = t->cat->name;
  m->added = w->repair;
  m->in = hl_batch_create(1, types);
  m->out = hl_batch_create(1, types);
  if (!m->in || !m->out) return hl_err_nomem(err); /* msck_cleanup frees */
  /* the file is the result's from here on */
  if (w->names) {
    if ((rc = hl_spill_rewind(w->names, err)) != HL_OK) return rc;
    m->names = w->names;
    w->names = NULL;
  }
  result->n_cols = 1;
  result->names = names;
  result->types = col_types;
  result->root = &m->base;
  return HL_OK;
}
