/*
 * cmd_msck.c -- MSCK [REPAIR] TABLE t [ADD | DROP | SYNC PARTITIONS].
 *
 * Walks the table location exactly one directory level per partition key
 * (through the storage interface), collects `key=value/...` leaves whose
 * keys match the table's keys in order and whose values type for them, and
 * compares them with one listing of the metastore's partitions (a hash set
 * of value tuples, so 10,000 directories cost one catalog query).  Hidden
 * names (leading '.' or '_') are ignored silently; any other junk is
 * skipped and counted, or is an error under hive.msck.path.validation=throw.
 * All repairs run in one catalog transaction; MSCK never touches files.
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
#include "session/loc_allow.h"

#include "plan/projection.h"
#include "util/partpath.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum { VALIDATE_THROW, VALIDATE_SKIP, VALIDATE_IGNORE };

/* Partitions registered per catalog call. */
#define MSCK_ADD_BATCH 16384

typedef struct found {
  char **values; /* canonical, NULL = default partition */
  char *location;
  char *name;
  char *key;       /* tuple_key of values (report_duplicates) */
  const char *rel; /* location relative to the table's */
  bool canonical;  /* the directory is named as hivelite would name it */
} found_t;

typedef struct walk {
  hl_session_t *s;
  hl_table_t *t;
  hl_arena_t *arena;
  hl_error_t *err;
  int mode;         /* VALIDATE_* */
  size_t max_parts; /* hivelite.max_partitions_per_table: stop walking past it */
  found_t *found;
  size_t n_found, cap_found;
  char **skipped; /* every skipped path, relative ... */
  char **whys;    /* ... and why it was skipped */
  size_t n_skipped, cap_skipped;
  char **values; /* values of the directories being walked */
} walk_t;

/* Records junk REL (relative path); under `throw` it is the error. */
static hl_status_t junk(walk_t *w, const char *rel, const char *why) {
  if (w->mode == VALIDATE_THROW)
    return hl_err_set(w->err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid partition directory \"%s\" in table \"%s.%s\": %s", rel,
                      HL_TNAME(w->t), why);
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

static hl_status_t add_found(walk_t *w, const char *dir) {
  /* fail closed before a huge tree costs memory (SIZE_MAX when the run
   * adds nothing) */
  if (w->n_found >= w->max_parts) return hl_cmd_too_many_partitions(w->t, w->max_parts, w->err);
  if (w->n_found == w->cap_found) {
    size_t cap = w->cap_found ? w->cap_found * 2 : 64;
    found_t *grown =
        hl_arena_realloc(w->arena, w->found, sizeof(found_t) * w->cap_found, sizeof(found_t) * cap);
    if (!grown) return hl_err_nomem(w->err);
    w->found = grown;
    w->cap_found = cap;
  }
  found_t *f = &w->found[w->n_found];
  f->values = hl_arena_alloc(w->arena, sizeof(char *) * (size_t)w->t->n_part);
  f->location = hl_arena_strdup(w->arena, dir);
  if (!f->values || !f->location) return hl_err_nomem(w->err);
  memcpy(f->values, w->values, sizeof(char *) * (size_t)w->t->n_part);
  int leaf = w->t->n_part - 1; /* its value is in the directory's arena */
  if (f->values[leaf] && !(f->values[leaf] = hl_arena_strdup(w->arena, f->values[leaf])))
    return hl_err_nomem(w->err);
  f->name = hl_table_part_name(w->t, f->values, hl_cmd_default_part_name(w->s, w->t), w->arena);
  if (!f->name) return hl_err_nomem(w->err);
  w->n_found++;
  return HL_OK;
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

static hl_status_t walk_level(walk_t *w, hl_arena_t *tmp, const char *dir, const char *rel,
                              int depth);

/* Walks DIR (relative path REL, "" at the table root) at DEPTH.  The
 * listing and the names built for it live in an arena of this directory
 * only: what a million directories leave behind is what add_found and
 * junk keep. */
static hl_status_t walk_dir(walk_t *w, const char *dir, const char *rel, int depth) {
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(w->err);
  hl_status_t rc = walk_level(w, tmp, dir, rel, depth);
  hl_arena_destroy(tmp);
  return rc;
}

static hl_status_t walk_level(walk_t *w, hl_arena_t *tmp, const char *dir, const char *rel,
                              int depth) {
  hl_stor_entry_t *entries;
  size_t n;
  hl_status_t rc = hl_budget_check_cancel(&w->s->budget, w->err);
  if (rc == HL_OK) rc = w->s->fs->ops->list(w->s->fs, dir, tmp, &entries, &n, w->err);
  if (rc != HL_OK) return rc;
  const char *key = w->t->cat->part_keys[depth].name;
  bool leaf = depth + 1 == w->t->n_part;
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
    /* a leaf's values are copied by add_found; a level's value is shared
     * by every leaf below it, so it is kept once */
    if (canon && !leaf && !(canon = hl_arena_strdup(w->arena, canon))) return hl_err_nomem(w->err);
    w->values[depth] = canon;
    char *child = hl_path_join(tmp, dir, name);
    if (!child) return hl_err_nomem(w->err);
    rc = leaf ? add_found(w, child) : walk_dir(w, child, child_rel, depth + 1);
    if (rc != HL_OK) return rc;
    /* the top level is the one whose size is known up front */
    if (depth == 0) hl_notify_progress(&w->s->notify, "msck", i + 1, n, "directories");
  }
  if (depth > 0 && n_visible == 0) return junk(w, rel, "missing partition directories below it");
  return HL_OK;
}

/* ---------------------------------------------------- value-tuple set */

static int cmp_found(const void *a, const void *b);

typedef struct tuple_set {
  char **slots; /* tuple keys, NULL = empty */
  size_t mask;
} tuple_set_t;

static char *tuple_key(hl_arena_t *arena, char *const *values, int n) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < n; i++) {
    /* \2 marks NULL, \1 separates: neither can occur in a stored value
     * that came through a SQL literal or a directory name (both escape or
     * refuse control bytes at the leaf check) -- and if one did, equal
     * tuples still produce equal keys, which is all a set needs */
    if (values[i])
      hl_buf_puts(&b, values[i]);
    else
      hl_buf_putc(&b, '\2');
    hl_buf_putc(&b, '\1');
  }
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* Equal tuples together; within one, the canonically named directory
 * first, then by name. */
static int cmp_found(const void *a, const void *b) {
  const found_t *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  if (c) return c;
  if (x->canonical != y->canonical) return x->canonical ? -1 : 1;
  return strcmp(x->rel, y->rel);
}

static uint64_t fnv(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static bool set_init(tuple_set_t *set, size_t n, hl_arena_t *arena) {
  size_t cap = 16;
  while (cap < n * 2 + 2)
    cap *= 2;
  set->slots = hl_arena_zalloc(arena, sizeof(char *) * cap);
  set->mask = cap - 1;
  return set->slots != NULL;
}

/* Inserts KEY; returns false when it was present already. */
static bool set_insert(tuple_set_t *set, char *key) {
  for (size_t i = fnv(key) & set->mask;; i = (i + 1) & set->mask) {
    if (!set->slots[i]) {
      set->slots[i] = key;
      return true;
    }
    if (strcmp(set->slots[i], key) == 0) return false;
  }
}

/* ---------------------------------------------- the metastore's side */

typedef struct gone {
  char *name;
  int64_t id;
} gone_t;

/* What MSCK knows of the registered partitions (hl_cat_part_fn context). */
typedef struct known {
  hl_session_t *s;
  hl_arena_t *arena;
  bool do_drop;    /* look for partitions whose directory is gone */
  tuple_set_t set; /* every registered value tuple */
  size_t n_seen;
  gone_t *gone;
  size_t n_gone, cap_gone;
} known_t;

static hl_status_t known_take(void *ctx, const hl_cat_partition_t *p, hl_error_t *err) {
  known_t *kn = ctx;
  char *key = tuple_key(kn->arena, p->values, p->n_values);
  if (!key) return hl_err_nomem(err);
  if (kn->n_seen++ * 2 + 2 > kn->set.mask) /* a partition added since the count */
    return hl_err_set(err, HL_ERROR, HL_SS(SERIALIZATION_FAILURE),
                      "the table's partitions changed during MSCK; run it again");
  set_insert(&kn->set, key);
  if (!kn->do_drop) return HL_OK;
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

/* ------------------------------------------------------------- MSCK */

typedef struct out_lines {
  char **v;
  size_t n, cap;
} out_lines_t;

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

static int cmp_name_ptr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "HEADER:\tPREFIX:name\tPREFIX:name..." over NAMES (sorted here). */
static char *list_line(const char *header, const char *prefix, char **names, size_t n,
                       hl_arena_t *arena) {
  qsort(names, n, sizeof(char *), cmp_name_ptr);
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, header);
  for (size_t i = 0; i < n; i++)
    hl_buf_printf(&b, "\t%s:%s", prefix, names[i]);
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* Orders W's found directories so that each group of equal value tuples
 * is contiguous, its kept directory first, and reports every group of more
 * than one; the others are removed from W->found. */
static hl_status_t report_duplicates(walk_t *w, out_lines_t *out) {
  const hl_table_t *t = w->t;
  size_t root_len = strlen(t->cat->location);
  for (size_t i = 0; i < w->n_found; i++) {
    found_t *f = &w->found[i];
    f->key = tuple_key(w->arena, f->values, t->n_part);
    if (!f->key) return hl_err_nomem(w->err);
    f->rel = f->location + root_len + (f->location[root_len] == '/');
    f->canonical = strcmp(f->rel, f->name) == 0;
  }
  /* no directory found: w->found is NULL, which qsort may not be given */
  if (w->n_found > 1) qsort(w->found, w->n_found, sizeof *w->found, cmp_found);
  size_t kept = 0;
  for (size_t i = 0; i < w->n_found;) {
    size_t j = i + 1;
    while (j < w->n_found && strcmp(w->found[j].key, w->found[i].key) == 0)
      j++;
    if (j - i > 1) {
      hl_buf_t b;
      hl_buf_init(&b);
      hl_buf_printf(&b, "Duplicate partition directories for %s:%s: kept %s, ignored", t->cat->name,
                    w->found[i].name, w->found[i].rel);
      for (size_t k = i + 1; k < j; k++)
        hl_buf_printf(&b, "%s %s", k > i + 1 ? "," : "", w->found[k].rel);
      char *line = b.oom ? NULL : hl_arena_strndup(w->arena, hl_buf_cstr(&b), b.len);
      hl_buf_fini(&b);
      hl_status_t rc = out_add(out, line, w->arena, w->err);
      if (rc != HL_OK) return rc;
      hl_notify_warn(&w->s->notify, "%s", line);
    }
    w->found[kept++] = w->found[i];
    i = j;
  }
  w->n_found = kept;
  return HL_OK;
}

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
  walk_t w = {.s = s, .t = t, .arena = arena, .err = err};
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
  w.values = hl_arena_zalloc(arena, sizeof(char *) * (size_t)t->n_part);
  if (!w.values) return hl_err_nomem(err);
  bool do_add = stmt->msck_mode == 0 || stmt->msck_mode == 2 || !stmt->msck_repair;
  bool do_drop = stmt->msck_mode == 1 || stmt->msck_mode == 2 || !stmt->msck_repair;
  size_t max_parts;
  rc = hl_cmd_max_partitions(s, &max_parts, err);
  if (rc != HL_OK) return hl_err_position(err, stmt->pos), rc;
  w.max_parts = stmt->msck_repair && do_add ? max_parts : SIZE_MAX;
  rc = hl_loc_allow_check_table(s, t->cat->location, HL_TNAME(t), NULL, err);
  if (rc != HL_OK) return hl_err_position(err, stmt->table.pos), rc;
  hl_stor_stat_t root;
  rc = s->fs->ops->stat(s->fs, t->cat->location, &root, err);
  if (rc != HL_OK) return rc;
  if (root.exists && root.is_dir) {
    rc = walk_dir(&w, t->cat->location, "", 0);
    if (rc != HL_OK) {
      hl_err_position(err, stmt->pos);
      return rc;
    }
  }

  /* The metastore's partitions, streamed: each one's value tuple goes
   * into the set and, when dropping, a partition whose directory is gone
   * is kept (name and id); nothing else of a million records is held. */
  size_t n_parts;
  rc = hl_cat_partition_count(s->cat, t->cat->id, &n_parts, err);
  if (rc != HL_OK) return rc;
  known_t kn = {.s = s, .arena = arena, .do_drop = do_drop};
  if (!set_init(&kn.set, n_parts + w.n_found, arena)) return hl_err_nomem(err);
  if (do_drop && hl_cat_local(s->cat) != s->cat) {
    /* a remote metastore's names come without locations: whole records */
    hl_cat_partition_t *parts;
    size_t n_list;
    rc = hl_cat_partition_list(s->cat, t->cat->id, arena, &parts, &n_list, err);
    for (size_t i = 0; rc == HL_OK && i < n_list; i++)
      rc = known_take(&kn, &parts[i], err);
  } else {
    rc = hl_cat_partition_scan(s->cat, t->cat->id, NULL, known_take, &kn, err);
  }
  if (rc != HL_OK) return rc;
  n_parts = kn.n_seen;
  tuple_set_t set = kn.set;

  /* directories that type to the same values (hr=1, hr=01, hr=1.0): one
   * is the partition -- the one named canonically, else the first in name
   * order -- and the others are reported, never dropped silently */
  out_lines_t out = {0};
  rc = report_duplicates(&w, &out);
  if (rc != HL_OK) return rc;
  /* directories missing from the metastore (a tuple found twice, e.g.
   * hr=01 and hr=1, is added once: the kept one) */
  found_t **missing = hl_arena_alloc(arena, sizeof(found_t *) * (w.n_found + 1));
  char **missing_names = hl_arena_alloc(arena, sizeof(char *) * (w.n_found + 1));
  if (!missing || !missing_names) return hl_err_nomem(err);
  size_t n_missing = 0;
  for (size_t i = 0; do_add && i < w.n_found; i++) {
    if (!set_insert(&set, w.found[i].key)) continue;
    missing_names[n_missing] = w.found[i].name;
    missing[n_missing++] = &w.found[i];
  }
  /* metastore partitions whose directory is gone */
  gone_t *gone = kn.gone;
  size_t n_gone = kn.n_gone;
  char **gone_names = hl_arena_alloc(arena, sizeof(char *) * (n_gone + 1));
  if (!gone_names) return hl_err_nomem(err);
  for (size_t i = 0; i < n_gone; i++)
    gone_names[i] = gone[i].name;

  if (stmt->msck_repair && n_parts - n_gone + n_missing > max_parts)
    return hl_err_position(err, stmt->pos), hl_cmd_too_many_partitions(t, max_parts, err);

  if (n_missing)
    rc = out_add(
        &out,
        list_line("Partitions not in metastore:", t->cat->name, missing_names, n_missing, arena),
        arena, err);
  if (rc == HL_OK && n_gone)
    rc = out_add(
        &out,
        list_line("Partitions missing from filesystem:", t->cat->name, gone_names, n_gone, arena),
        arena, err);
  if (rc != HL_OK) return rc;

  if (stmt->msck_repair && (n_missing || n_gone)) {
    rc = hl_cat_begin(s->cat, err);
    if (rc != HL_OK) return rc;
    int64_t now = (int64_t)time(NULL);
    /* batches in the one transaction: per-partition calls cost a catalog
     * savepoint each, and one batch of a million records would hold them
     * all at once */
    size_t cap = n_missing < MSCK_ADD_BATCH ? n_missing : MSCK_ADD_BATCH;
    hl_cat_partition_t *adds = hl_arena_zalloc(arena, sizeof *adds * (cap + 1));
    if (!adds) rc = hl_err_nomem(err);
    for (size_t start = 0; rc == HL_OK && start < n_missing; start += cap) {
      size_t n = n_missing - start < cap ? n_missing - start : cap;
      for (size_t i = 0; i < n; i++) {
        hl_cat_partition_t *p = &adds[i];
        const found_t *f = missing[start + i];
        p->table_id = t->cat->id;
        p->values = f->values;
        p->n_values = t->n_part;
        p->name = f->name;
        p->location = f->location;
        p->create_time = now;
      }
      rc = hl_cat_partition_add_many(s->cat, adds, n, err);
    }
    for (size_t i = 0; rc == HL_OK && i < n_gone; i++)
      rc = hl_cat_partition_drop(s->cat, gone[i].id, err);
    /* text dates in the first key: the table's incremental field */
    if (rc == HL_OK && n_missing) rc = hl_cmd_incr_auto(s, t, arena, err);
    if (rc == HL_OK) rc = hl_cat_commit(s->cat, err);
    if (rc != HL_OK) {
      hl_cat_rollback(s->cat);
      return rc;
    }
    /* missing_names was sorted by list_line */
    for (size_t i = 0; rc == HL_OK && i < n_missing; i++)
      rc = out_add(&out,
                   hl_arena_sprintf(arena, "Repair: Added partition to metastore %s:%s",
                                    t->cat->name, missing_names[i]),
                   arena, err);
    qsort(gone_names, n_gone, sizeof(char *), cmp_name_ptr);
    for (size_t i = 0; rc == HL_OK && i < n_gone; i++)
      rc = out_add(&out,
                   hl_arena_sprintf(arena, "Repair: Dropped partition from metastore %s.%s:%s",
                                    HL_TNAME(t), gone_names[i]),
                   arena, err);
    if (rc != HL_OK) return rc;
  }
  if (w.n_skipped) {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_buf_printf(&b, "Skipped %zu invalid partition director%s: ", w.n_skipped,
                  w.n_skipped == 1 ? "y" : "ies");
    for (size_t i = 0; i < w.n_skipped && i < 5; i++)
      hl_buf_printf(&b, "%s%s", i ? ", " : "", w.skipped[i]);
    if (w.n_skipped > 5) hl_buf_puts(&b, ", ...");
    char *line = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
    rc = out_add(&out, line, arena, err);
    if (rc != HL_OK) return rc;
    /* every one of them, with the reason: as warnings always, as result
     * lines on request */
    bool list = hl_cmd_setting_true(s, "hivelite.msck.list.skipped");
    for (size_t i = 0; i < w.n_skipped; i++) {
      char *each = hl_arena_sprintf(arena, "Skipped %s: %s", w.skipped[i], w.whys[i]);
      if (!each) return hl_err_nomem(err);
      hl_notify_warn(&s->notify, "%s", each);
      if (list && (rc = out_add(&out, each, arena, err)) != HL_OK) return rc;
    }
  }
  return hl_cmd_lines_result(arena, "result", out.v, out.n, result, err);
}
