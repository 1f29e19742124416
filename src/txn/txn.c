/*
 * txn.c -- write transactions (txn.h): staging, plan, commit, rollback,
 * recovery and the fault-injection hook.
 *
 * The plan stored with an intent is text, one record per line, fields
 * separated by tabs (tab, newline and backslash escaped as \t \n \\):
 *
 *   Q <qid>                              the write's id
 *   C <dir>                              directory begin created (the root)
 *   T <idx> <dir> <mode> <created> [<stop>]
 *                                        a target: mode 0 adds files, 1
 *                                        overwrites, 2 drops the directory
 *                                        (stop: see hl_txn_target_add_drop);
 *                                        created may be empty
 *   R <idx> <dir>                        object stores: the location target
 *                                        idx replaces (its O files live there)
 *   N <idx> <name> [<origin>]            a new file of target idx (moved
 *                                        from origin instead of staging)
 *   O <idx> <name>                       an old entry of target idx
 *   M <from> <to> <created>              a directory renamed at publish
 *                                        (created: top-most new parent of
 *                                        to, may be empty)
 *   K <address>                          the write goes through a remote
 *                                        (non-transactional) catalog, which
 *                                        reopens from address
 *   J <record>                           the undo record of one remote
 *                                        call (catalog/cat_journal.c), in
 *                                        the order the calls were made
 *
 * Recovery needs nothing else: staged files live in <staging>/ (file names
 * are unique within a write, across targets),
 * trashed ones in <dir>/.hivelite-trash-<qid>/.  A new file is taken back
 * only when its source (staged copy or origin) is gone, i.e. when this
 * write did move it: a file of the same name that someone else put there
 * is never touched.
 */
#include "txn/txn.h"

#include "util/mem.h"
#include "util/strbuf.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct hl_txn {
  hl_cat_t *cat;
  hl_stor_t *fs;
  hl_arena_t *arena;
  const char *kind;
  char qid[24];
  char *root;         /* directory holding the staging directory */
  char *root_created; /* top-most directory begin created, or NULL */
  char *staging;
  int64_t intent_id;
  hl_cat_owner_t me;
  hl_txn_target_t **targets;
  size_t n_targets, cap_targets;
  char **locks;
  size_t n_locks, cap_locks;
  size_t n_locked;     /* locks[0..n_locked) are held */
  size_t n_files;      /* file names handed out */
  double lock_timeout; /* seconds */
  bool done;
  hl_stor_t *wfs;              /* batch decorator over fs (NULL: fs syncs itself) */
  bool moved;                  /* apply_files started moving files */
  char *lock_dir;              /* publish locks (NULL: no reader isolation) */
  hl_stor_lock_t **pub_locks;  /* held publish locks, n_locks slots */
  char **move_from, **move_to; /* hl_txn_move_add */
  char **move_created;         /* per move: top-most parent created (commit), or NULL */
  size_t n_moves, cap_moves;
  char *perm_dir;  /* the last table directory asked for (inherit) */
  bool perm_found; /* perm_dir exists: perm_mode/perm_gid are its */
  uint32_t perm_mode;
  int64_t perm_gid;
  bool remote;    /* the catalog is not transactional: remote calls are journaled */
  char **journal; /* undo records of the remote calls made or being made, in order */
  size_t n_journal, cap_journal;
  hl_txn_apply_fn plan_hook; /* hl_txn_set_plan_hook */
  void *plan_arg;
};

/* ------------------------------------------------------------ faults */

void hl_txn_fault_point(const char *step) {
  const char *crash = getenv("HIVELITE_CRASH_AT");
  if (crash && strcmp(crash, step) == 0) kill(getpid(), SIGKILL);
  const char *pause = getenv("HIVELITE_PAUSE_AT");
  size_t n = strlen(step);
  if (pause && strncmp(pause, step, n) == 0 && pause[n] == ':') {
    long ms = strtol(pause + n + 1, NULL, 10);
    if (ms > 0 && ms < 600000) {
      struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    }
  }
}

/* ------------------------------------------------------------ owners */

/* Start time of process PID in clock ticks since boot (field 22 of
 * /proc/<pid>/stat), 0 when unknown. */
static int64_t process_start(int64_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%lld/stat", (long long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char buf[1024];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *p = strrchr(buf, ')'); /* the command name may hold blanks */
  if (!p) return 0;
  p++;
  for (int field = 3; field < 22 && p; field++) {
    p = strchr(p + 1, ' ');
  }
  return p ? strtoll(p + 1, NULL, 10) : 0;
}

static void self_owner(hl_cat_owner_t *o, hl_arena_t *arena) {
  char host[256];
  if (gethostname(host, sizeof host) != 0) host[0] = '\0';
  host[sizeof host - 1] = '\0';
  o->host = hl_arena_strdup(arena, host);
  o->pid = (int64_t)getpid();
  o->start = process_start(o->pid);
}

/* True unless O is a process on this host that no longer runs. */
static bool owner_alive(const hl_cat_owner_t *o, hl_arena_t *arena) {
  hl_cat_owner_t me;
  self_owner(&me, arena);
  if (!me.host || strcmp(me.host, o->host) != 0) return true; /* cannot tell: assume alive */
  if (o->pid <= 0 || o->pid > INT32_MAX) return false;
  if (kill((pid_t)o->pid, 0) != 0 && errno == ESRCH) return false;
  int64_t start = process_start(o->pid);
  return !(start && o->start && start != o->start); /* a reused pid is another process */
}

/* ------------------------------------------------------------ helpers */

static hl_status_t nomem(hl_error_t *err) {
  return hl_err_nomem(err);
}

static bool hidden(const char *name) {
  return name[0] == '.' || name[0] == '_';
}

/* PATH lies on an object store (txn.h, "Object stores"). */
static bool is_object(hl_stor_t *fs, const char *path) {
  return path && fs->ops->object_store && fs->ops->object_store(fs, path);
}

static void quiet_remove_tree(hl_stor_t *fs, const char *path) {
  hl_error_t ignored;
  hl_err_init(&ignored);
  if (path) fs->ops->remove_tree(fs, path, &ignored);
  hl_err_clear(&ignored);
}

/* Removes DIR and its parents up to and including TOP while they are
 * empty (rmdir fails on a non-empty directory, which stops the walk). */
static void rmdir_chain(hl_stor_t *fs, const char *dir, const char *top, hl_arena_t *arena) {
  if (!top || !dir || is_object(fs, dir)) return;
  char *p = hl_arena_strdup(arena, dir);
  size_t top_len = strlen(top);
  while (p && strlen(p) >= top_len) {
    hl_error_t e;
    hl_err_init(&e);
    hl_stor_stat_t st;
    bool ok = fs->ops->stat(fs, p, &st, &e) == HL_OK;
    if (ok && st.exists) ok = fs->ops->rmdir(fs, p, &e) == HL_OK;
    hl_err_clear(&e);
    if (!ok || strlen(p) == top_len) return;
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) return;
    *slash = '\0';
  }
}

/* The top-most missing directory on the way to PATH (NULL: PATH exists). */
static hl_status_t first_missing(hl_stor_t *fs, const char *path, hl_arena_t *arena, char **out,
                                 hl_error_t *err) {
  *out = NULL;
  char *probe = hl_arena_strdup(arena, path);
  if (!probe) return nomem(err);
  for (;;) {
    hl_stor_stat_t st;
    hl_status_t rc = fs->ops->stat(fs, probe, &st, err);
    if (rc != HL_OK) return rc;
    if (st.exists) {
      if (!st.is_dir)
        return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                          "location \"%s\" is a file, not a directory", probe);
      return HL_OK;
    }
    if (!(*out = hl_arena_strdup(arena, probe))) return nomem(err);
    char *slash = strrchr(probe, '/');
    if (!slash || slash == probe) return HL_OK;
    *slash = '\0';
  }
}

static char *trash_dir(hl_arena_t *arena, const char *dir, const char *qid) {
  return hl_arena_sprintf(arena, "%s/.hivelite-trash-%s", dir, qid);
}

/* ------------------------------------------------------------ plan text */

static void put_field(hl_buf_t *b, const char *s) {
  hl_buf_putc(b, '\t');
  for (; s && *s; s++) {
    if (*s == '\t')
      hl_buf_puts(b, "\\t");
    else if (*s == '\n')
      hl_buf_puts(b, "\\n");
    else if (*s == '\\')
      hl_buf_puts(b, "\\\\");
    else
      hl_buf_putc(b, *s);
  }
}

static char *plan_text(hl_txn_t *txn) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "Q");
  put_field(&b, txn->qid);
  hl_buf_putc(&b, '\n');
  if (txn->root_created) {
    hl_buf_puts(&b, "C");
    put_field(&b, txn->root_created);
    hl_buf_putc(&b, '\n');
  }
  for (size_t i = 0; i < txn->n_targets; i++) {
    hl_txn_target_t *t = txn->targets[i];
    char idx[24];
    snprintf(idx, sizeof idx, "%d", t->idx);
    hl_buf_puts(&b, "T");
    put_field(&b, idx);
    put_field(&b, t->dir);
    put_field(&b, t->drop ? "2" : t->overwrite ? "1" : "0");
    put_field(&b, t->created ? t->created : "");
    if (t->stop) put_field(&b, t->stop);
    hl_buf_putc(&b, '\n');
    if (t->replaces) {
      hl_buf_puts(&b, "R");
      put_field(&b, idx);
      put_field(&b, t->replaces);
      hl_buf_putc(&b, '\n');
    }
    for (size_t f = 0; f < t->n_new; f++) {
      hl_buf_puts(&b, "N");
      put_field(&b, idx);
      put_field(&b, t->new_files[f]);
      if (t->moved_from && t->moved_from[f]) put_field(&b, t->moved_from[f]);
      hl_buf_putc(&b, '\n');
    }
    for (size_t f = 0; f < t->n_old; f++) {
      hl_buf_puts(&b, "O");
      put_field(&b, idx);
      put_field(&b, t->old_files[f]);
      hl_buf_putc(&b, '\n');
    }
  }
  for (size_t i = 0; i < txn->n_moves; i++) {
    hl_buf_puts(&b, "M");
    put_field(&b, txn->move_from[i]);
    put_field(&b, txn->move_to[i]);
    put_field(&b, txn->move_created && txn->move_created[i] ? txn->move_created[i] : "");
    hl_buf_putc(&b, '\n');
  }
  if (txn->remote) {
    hl_buf_puts(&b, "K");
    put_field(&b, hl_cat_address(txn->cat));
    hl_buf_putc(&b, '\n');
  }
  for (size_t i = 0; i < txn->n_journal; i++) {
    hl_buf_puts(&b, "J");
    put_field(&b, txn->journal[i]);
    hl_buf_putc(&b, '\n');
  }
  char *out = b.oom ? NULL : hl_arena_strndup(txn->arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

/* Splits one plan line into at most MAX fields (unescaped in place). */
static int split_fields(char *line, char **fields, int max) {
  int n = 0;
  char *w = line;
  fields[n++] = w;
  for (char *r = line; *r; r++) {
    if (*r == '\t') {
      *w++ = '\0';
      if (n == max) return n;
      fields[n++] = w;
    } else if (*r == '\\' && r[1]) {
      r++;
      *w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
    } else {
      *w++ = *r;
    }
  }
  *w = '\0';
  return n;
}

typedef struct rtarget {
  char *dir;
  char *replaces; /* R: the location an object-store target replaces */
  char *created;
  bool drop;
  char *stop; /* drop: see hl_txn_target_add_drop */
  char **news, **olds;
  char **origins; /* per new file, NULL: staged */
  size_t n_new, n_old, cap_new, cap_old, n_orig, cap_orig;
} rtarget_t;

typedef struct rplan {
  char *qid;
  char *root_created;
  char *address;  /* K: the remote catalog, NULL: the embedded one */
  char **journal; /* J: undo records, in call order */
  size_t n_journal, cap_journal;
  rtarget_t *targets;
  int n_targets;
  char **move_from, **move_to, **move_created;
  size_t n_moves, cap_from, cap_to, cap_created;
} rplan_t;

static bool push_name(hl_arena_t *arena, char ***v, size_t *n, size_t *cap, char *name) {
  if (*n == *cap) {
    size_t ncap = *cap ? *cap * 2 : 8;
    char **g = hl_arena_realloc(arena, *v, *cap * sizeof(char *), ncap * sizeof(char *));
    if (!g) return false;
    *v = g;
    *cap = ncap;
  }
  (*v)[(*n)++] = name;
  return true;
}

static hl_status_t parse_plan(const char *text, hl_arena_t *arena, rplan_t *p, hl_error_t *err) {
  memset(p, 0, sizeof *p);
  char *copy = hl_arena_strdup(arena, text);
  if (!copy) return nomem(err);
  int cap = 0;
  for (char *line = copy; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    char *f[6];
    int n = split_fields(line, f, 6);
    if (strcmp(f[0], "Q") == 0 && n >= 2) {
      p->qid = f[1];
    } else if (strcmp(f[0], "C") == 0 && n >= 2) {
      p->root_created = f[1];
    } else if (strcmp(f[0], "K") == 0 && n >= 2) {
      p->address = f[1];
    } else if (strcmp(f[0], "J") == 0 && n >= 2) {
      if (!push_name(arena, &p->journal, &p->n_journal, &p->cap_journal, f[1])) return nomem(err);
    } else if (strcmp(f[0], "T") == 0 && n >= 5) {
      long idx = strtol(f[1], NULL, 10);
      if (idx != p->n_targets) goto bad;
      if (p->n_targets == cap) {
        int ncap = cap ? cap * 2 : 8;
        rtarget_t *g = hl_arena_realloc(arena, p->targets, sizeof(rtarget_t) * (size_t)cap,
                                        sizeof(rtarget_t) * (size_t)ncap);
        if (!g) return nomem(err);
        p->targets = g;
        cap = ncap;
      }
      rtarget_t *t = &p->targets[p->n_targets++];
      memset(t, 0, sizeof *t);
      t->dir = f[2];
      t->created = f[4][0] ? f[4] : NULL;
      t->drop = strcmp(f[3], "2") == 0;
      t->stop = n >= 6 && f[5][0] ? f[5] : NULL;
      if (t->dir[0] != '/' && !hl_uri_object_root(t->dir)) goto bad;
    } else if (strcmp(f[0], "R") == 0 && n >= 3) {
      long idx = strtol(f[1], NULL, 10);
      if (idx < 0 || idx >= p->n_targets || !hl_uri_object_root(f[2])) goto bad;
      p->targets[idx].replaces = f[2];
    } else if (strcmp(f[0], "M") == 0 && n >= 4) {
      if ((f[1][0] != '/' && !hl_uri_object_root(f[1])) ||
          (f[2][0] != '/' && !hl_uri_object_root(f[2])))
        goto bad;
      size_t n_from = p->n_moves, n_to = p->n_moves;
      if (!push_name(arena, &p->move_from, &n_from, &p->cap_from, f[1]) ||
          !push_name(arena, &p->move_to, &n_to, &p->cap_to, f[2]) ||
          !push_name(arena, &p->move_created, &p->n_moves, &p->cap_created, f[3][0] ? f[3] : NULL))
        return nomem(err);
    } else if ((strcmp(f[0], "N") == 0 || strcmp(f[0], "O") == 0) && n >= 3) {
      long idx = strtol(f[1], NULL, 10);
      if (idx < 0 || idx >= p->n_targets || strchr(f[2], '/') || !f[2][0]) goto bad;
      rtarget_t *t = &p->targets[idx];
      bool ok = f[0][0] == 'N' ? push_name(arena, &t->news, &t->n_new, &t->cap_new, f[2]) &&
                                     push_name(arena, &t->origins, &t->n_orig, &t->cap_orig,
                                               n >= 4 ? f[3] : NULL)
                               : push_name(arena, &t->olds, &t->n_old, &t->cap_old, f[2]);
      if (!ok) return nomem(err);
    } else if (f[0][0]) {
      goto bad;
    }
    line = nl ? nl + 1 : NULL;
  }
  return HL_OK;
bad:
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "metastore is corrupt: malformed write intent plan");
}

static char *parent_dir(hl_arena_t *arena, const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash != path ? hl_arena_strndup(arena, path, (size_t)(slash - path)) : NULL;
}

/* After a drop's commit: DIR goes if it is empty now, then its parents
 * while they are empty and strictly below STOP. */
static void remove_dropped_dir(hl_stor_t *fs, const char *dir, const char *stop,
                               hl_arena_t *arena) {
  /* the chain ends at DIR's ancestor one level below STOP (DIR itself
   * without STOP, or when DIR is not below it) */
  size_t n = stop ? strlen(stop) : 0;
  const char *top = dir;
  if (stop && strncmp(dir, stop, n) == 0 && dir[n] == '/' && dir[n + 1]) {
    const char *end = strchr(dir + n + 1, '/');
    top = end ? hl_arena_strndup(arena, dir, (size_t)(end - dir)) : dir;
  }
  rmdir_chain(fs, dir, top, arena);
}

/* Finishes one committed target: its trash goes; a dropped directory too. */
static void finish_target(hl_stor_t *fs, const char *dir, const char *qid, bool drop,
                          const char *stop, hl_arena_t *arena) {
  if (qid) quiet_remove_tree(fs, trash_dir(arena, dir, qid));
  if (drop) remove_dropped_dir(fs, dir, stop, arena);
}

static bool under_dir(const char *path, const char *dir);
static char *parent_dir(hl_arena_t *arena, const char *path);

/* Rolls back object-store target T of the write QID (txn.h, "Object
 * stores"): its new files carry the write's id, so every one that exists
 * is this write's and goes; pending uploads are aborted, by name and --
 * unless ROOT's sweep covers T -- by a sweep of T's prefix. */
static void rollback_object_target(hl_stor_t *fs, const rtarget_t *t, const char *qid,
                                   const char *root, hl_arena_t *arena) {
  char **paths = t->n_new ? hl_arena_alloc(arena, sizeof(char *) * t->n_new) : NULL;
  size_t n = 0;
  for (size_t f = 0; paths && f < t->n_new; f++) {
    if (t->origins[f]) continue; /* moved files cannot be on an object store */
    char *path = hl_path_join(arena, t->dir, t->news[f]);
    if (!path) continue;
    fs->ops->abort_pending(fs, path);
    paths[n++] = path;
  }
  hl_error_t e;
  hl_err_init(&e);
  if (n) fs->ops->remove_many(fs, paths, n, &e);
  hl_err_clear(&e);
  if (qid && !(root && under_dir(t->dir, root))) fs->ops->abort_pending_under(fs, t->dir, qid, &e);
  hl_err_clear(&e);
}

/* Undoes the file moves of plan P (any prefix of them may have happened)
 * and removes what the write created. */
static void rollback_plan(hl_stor_t *fs, const rplan_t *p, const char *staging, hl_arena_t *arena) {
  /* an object store's uploads of this write anywhere under its root */
  char *root = staging ? parent_dir(arena, staging) : NULL;
  if (root && !is_object(fs, root)) root = NULL;
  for (size_t i = p->n_moves; i-- > 0;) {
    hl_error_t e;
    hl_err_init(&e);
    hl_stor_stat_t from, to;
    /* moved back only if this write moved it: TO is there, FROM is not */
    if (fs->ops->stat(fs, p->move_from[i], &from, &e) == HL_OK && !from.exists &&
        fs->ops->stat(fs, p->move_to[i], &to, &e) == HL_OK && to.exists)
      fs->ops->rename(fs, p->move_to[i], p->move_from[i], &e);
    hl_err_clear(&e);
    if (p->move_created[i])
      rmdir_chain(fs, parent_dir(arena, p->move_to[i]), p->move_created[i], arena);
  }
  for (int i = p->n_targets; i-- > 0;) {
    const rtarget_t *t = &p->targets[i];
    hl_error_t e;
    hl_err_init(&e);
    if (is_object(fs, t->dir)) {
      rollback_object_target(fs, t, p->qid, root, arena);
      continue;
    }
    const char *stage = staging; /* one flat directory: names are unique per write */
    for (size_t f = 0; f < t->n_new; f++) {
      const char *origin = t->origins[f];
      char *src = origin ? (char *)origin : hl_path_join(arena, stage, t->news[f]);
      char *path = hl_path_join(arena, t->dir, t->news[f]);
      hl_stor_stat_t st;
      /* ours only if its source is gone (moved by this write) */
      if (src && path && fs->ops->stat(fs, src, &st, &e) == HL_OK && !st.exists &&
          fs->ops->stat(fs, path, &st, &e) == HL_OK && st.exists) {
        if (origin)
          fs->ops->rename(fs, path, origin, &e);
        else
          fs->ops->remove(fs, path, &e);
      }
      hl_err_clear(&e);
    }
    if (p->qid) {
      char *trash = trash_dir(arena, t->dir, p->qid);
      for (size_t f = 0; trash && f < t->n_old; f++) {
        char *from = hl_path_join(arena, trash, t->olds[f]);
        char *to = hl_path_join(arena, t->dir, t->olds[f]);
        hl_stor_stat_t st;
        if (from && to && fs->ops->stat(fs, from, &st, &e) == HL_OK && st.exists)
          fs->ops->rename(fs, from, to, &e);
        hl_err_clear(&e);
      }
      if (trash) fs->ops->rmdir(fs, trash, &e);
      hl_err_clear(&e);
    }
    if (t->created) rmdir_chain(fs, t->dir, t->created, arena);
  }
  if (!staging) return;
  if (root) {
    hl_error_t e;
    hl_err_init(&e);
    if (p->qid) fs->ops->abort_pending_under(fs, root, p->qid, &e);
    hl_err_clear(&e);
    return; /* nothing was staged or created there */
  }
  quiet_remove_tree(fs, staging);
  if (p->root_created) {
    /* the staging directory's parent chain */
    const char *slash = strrchr(staging, '/');
    char *parent = slash ? hl_arena_strndup(arena, staging, (size_t)(slash - staging)) : NULL;
    rmdir_chain(fs, parent, p->root_created, arena);
  }
}

/* Finishes a committed object-store target: the files it replaced (in
 * REPLACES, or in DIR itself) are deleted, and a dropped directory's
 * objects.  The write is committed: an error leaves old files behind,
 * which a caller keeps the intent for (recovery finishes it). */
static hl_status_t finish_object(hl_stor_t *fs, const char *dir, const char *replaces,
                                 char *const *olds, size_t n_old, bool drop, hl_arena_t *arena,
                                 hl_error_t *err) {
  const char *from = replaces ? replaces : dir;
  char **paths = n_old ? hl_arena_alloc(arena, sizeof(char *) * n_old) : NULL;
  if (n_old && !paths) return nomem(err);
  for (size_t f = 0; f < n_old; f++)
    if (!(paths[f] = hl_path_join(arena, from, olds[f]))) return nomem(err);
  hl_status_t rc = n_old ? fs->ops->remove_many(fs, paths, n_old, err) : HL_OK;
  if (rc == HL_OK && drop) rc = fs->ops->remove_tree(fs, dir, err);
  return rc;
}

/* Finishes a committed plan: the trash and staging directories go, and
 * dropped directories. */
static hl_status_t finish_plan(hl_stor_t *fs, const rplan_t *p, const char *staging,
                               hl_arena_t *arena, hl_error_t *err) {
  hl_status_t rc = HL_OK;
  for (int i = 0; i < p->n_targets; i++) {
    const rtarget_t *t = &p->targets[i];
    if (is_object(fs, t->dir)) {
      hl_status_t r2 =
          finish_object(fs, t->dir, t->replaces, t->olds, t->n_old, t->drop, arena, err);
      if (rc == HL_OK) rc = r2;
    } else {
      finish_target(fs, t->dir, p->qid, t->drop, t->stop, arena);
    }
  }
  char *root = staging ? parent_dir(arena, staging) : NULL;
  if (!is_object(fs, root)) quiet_remove_tree(fs, staging);
  return rc;
}

/* ------------------------------------------------------------ begin */

static void make_qid(char out[24], hl_arena_t *arena) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long long x =
      ((unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec);
  x ^= (unsigned long long)getpid() << 40;
  x ^= (unsigned long long)(uintptr_t)arena;
  x ^= x >> 31;
  x *= 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  snprintf(out, 24, "%016llx", x);
}

hl_status_t hl_txn_begin(hl_cat_t *cat, hl_stor_t *fs, const char *kind, const char *root,
                         hl_arena_t *arena, hl_txn_t **out, hl_error_t *err) {
  *out = NULL;
  hl_txn_t *txn = hl_arena_zalloc(arena, sizeof *txn);
  if (!txn) return nomem(err);
  txn->cat = cat;
  txn->fs = fs;
  txn->arena = arena;
  txn->kind = kind;
  txn->lock_timeout = 60;
  txn->remote = !hl_cat_transactional(cat);
  make_qid(txn->qid, arena);
  self_owner(&txn->me, arena);
  if (!txn->me.host) return nomem(err);
  hl_status_t rc = HL_OK;
  if (root) {
    txn->root = hl_arena_strdup(arena, root);
    txn->staging = hl_arena_sprintf(arena, "%s/.hivelite-staging-%s", root, txn->qid);
    if (!txn->root || !txn->staging) return nomem(err);
    /* an object store has no directories to create (nor a staging one:
     * files are pending uploads at their final names) */
    rc = is_object(fs, root) ? HL_OK : first_missing(fs, root, arena, &txn->root_created, err);
    if (rc != HL_OK) return rc;
  }
  /* The intent is recorded before anything exists on disk, so that a crash
   * at any later point leaves something recovery can find. */
  hl_cat_intent_t in = {0};
  in.kind = (char *)kind;
  in.state = "staging";
  in.staging = txn->staging ? txn->staging : "";
  in.plan = plan_text(txn);
  in.owner = txn->me;
  if (!in.plan) return nomem(err);
  rc = hl_cat_intent_add(cat, &in, &txn->intent_id, err);
  if (rc != HL_OK) return rc;
  if (txn->staging && !is_object(fs, txn->root)) rc = fs->ops->mkdirs(fs, txn->staging, err);
  if (rc != HL_OK) {
    hl_txn_abort(txn);
    return rc;
  }
  txn->wfs = hl_stor_batch_create(fs); /* NULL: write through FS, durable per call */
  *out = txn;
  return HL_OK;
}

hl_stor_t *hl_txn_fs(hl_txn_t *txn) {
  return txn->wfs ? txn->wfs : txn->fs;
}

hl_status_t hl_txn_parse_lock_timeout(const char *value, double *out, hl_error_t *err) {
  *out = 60;
  if (!value || !*value) return HL_OK;
  char *end;
  double d = strtod(value, &end);
  if (*end || !(d >= 0) || d > 1e9)
    return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "invalid value \"%s\" for hivelite.lock.timeout (expected seconds)", value);
  *out = d;
  return HL_OK;
}

hl_status_t hl_txn_set_lock_dir(hl_txn_t *txn, const char *lock_dir, hl_error_t *err) {
  txn->lock_dir = hl_arena_strdup(txn->arena, lock_dir);
  return txn->lock_dir ? HL_OK : nomem(err);
}

hl_status_t hl_txn_target_inherit(hl_txn_t *txn, hl_txn_target_t *target, const char *table_dir,
                                  hl_error_t *err) {
  hl_stor_t *fs = txn->fs;
  if (!fs->ops->mode_group || !fs->ops->set_mode_group) return HL_OK;
  if (!txn->perm_dir || strcmp(txn->perm_dir, table_dir) != 0) {
    if (!(txn->perm_dir = hl_arena_strdup(txn->arena, table_dir))) return nomem(err);
    hl_error_t e;
    hl_err_init(&e);
    hl_status_t rc = fs->ops->mode_group(fs, table_dir, &txn->perm_mode, &txn->perm_gid, &e);
    txn->perm_found = rc == HL_OK;
    if (rc != HL_OK && rc != HL_NOTFOUND) {
      hl_err_move(err, &e);
      return rc;
    }
    hl_err_clear(&e);
  }
  target->inherit = txn->perm_found;
  target->mode = txn->perm_mode;
  target->gid = txn->perm_gid;
  return HL_OK;
}

const char *hl_txn_query_id(const hl_txn_t *txn) {
  return txn->qid;
}

void hl_txn_set_lock_timeout(hl_txn_t *txn, double seconds) {
  txn->lock_timeout = seconds < 0 ? 0 : seconds;
}

hl_status_t hl_txn_lock_add(hl_txn_t *txn, const char *name, hl_error_t *err) {
  for (size_t i = 0; i < txn->n_locks; i++)
    if (strcmp(txn->locks[i], name) == 0) return HL_OK;
  char *copy = hl_arena_strdup(txn->arena, name);
  if (!copy || !push_name(txn->arena, &txn->locks, &txn->n_locks, &txn->cap_locks, copy))
    return nomem(err);
  return HL_OK;
}

hl_status_t hl_txn_target_add(hl_txn_t *txn, const char *dir, bool overwrite, hl_txn_target_t **out,
                              hl_error_t *err) {
  if (txn->n_targets == txn->cap_targets) {
    size_t ncap = txn->cap_targets ? txn->cap_targets * 2 : 8;
    hl_txn_target_t **g = hl_arena_realloc(txn->arena, txn->targets, txn->cap_targets * sizeof(*g),
                                           ncap * sizeof(*g));
    if (!g) return nomem(err);
    txn->targets = g;
    txn->cap_targets = ncap;
  }
  hl_txn_target_t *t = hl_arena_zalloc(txn->arena, sizeof *t);
  if (!t) return nomem(err);
  t->idx = (int)txn->n_targets;
  t->dir = hl_arena_strdup(txn->arena, dir);
  t->overwrite = overwrite;
  /* All targets share the staging directory (names are unique per write):
   * a directory per target would cost a mkdir and an rmdir per partition. */
  t->stage_dir = txn->staging;
  if (!t->dir) return nomem(err);
  t->object = is_object(txn->fs, dir);
  if (t->object) t->stage_dir = t->dir; /* pending uploads at the final names */
  txn->targets[txn->n_targets++] = t;
  /* recovery sweeps an object store's pending uploads under the root and
   * the planned targets: one outside the root is recorded now, before its
   * first upload, so that a crash before the plan still finds them */
  if (t->object && !(txn->root && under_dir(dir, txn->root))) {
    char *plan = plan_text(txn);
    hl_status_t rc =
        plan ? hl_cat_intent_update(txn->cat, txn->intent_id, "staging", plan, err) : nomem(err);
    if (rc != HL_OK) {
      txn->n_targets--;
      return rc;
    }
  }
  *out = t;
  return HL_OK;
}

hl_status_t hl_txn_target_add_drop(hl_txn_t *txn, const char *dir, const char *stop,
                                   hl_txn_target_t **out, hl_error_t *err) {
  hl_status_t rc = hl_txn_target_add(txn, dir, true, out, err);
  if (rc != HL_OK) return rc;
  (*out)->drop = true;
  if (stop && !((*out)->stop = hl_arena_strdup(txn->arena, stop))) return nomem(err);
  return HL_OK;
}

hl_status_t hl_txn_move_add(hl_txn_t *txn, const char *from, const char *to, hl_error_t *err) {
  char *f = hl_arena_strdup(txn->arena, from), *t = hl_arena_strdup(txn->arena, to);
  if (!f || !t) return nomem(err);
  size_t n_from = txn->n_moves, cap = txn->cap_moves;
  if (!push_name(txn->arena, &txn->move_from, &n_from, &cap, f)) return nomem(err);
  cap = txn->cap_moves;
  if (!push_name(txn->arena, &txn->move_to, &txn->n_moves, &txn->cap_moves, t)) return nomem(err);
  char **g = hl_arena_realloc(txn->arena, txn->move_created, cap * sizeof(char *),
                              txn->cap_moves * sizeof(char *));
  if (!g) return nomem(err);
  g[txn->n_moves - 1] = NULL;
  txn->move_created = g;
  return HL_OK;
}

/* The length of DIR without a trailing "/.hl-<qid>" (the prefix of an
 * earlier write). */
static size_t base_len(const char *dir) {
  const char *slash = strrchr(dir, '/');
  if (slash && strncmp(slash, "/.hl-", 5) == 0 && strlen(slash + 5) == 16 &&
      strspn(slash + 5, "0123456789abcdef") == 16)
    return (size_t)(slash - dir);
  return strlen(dir);
}

bool hl_txn_same_base(const char *a, const char *b) {
  size_t n = base_len(a);
  return n == base_len(b) && strncmp(a, b, n) == 0;
}

hl_status_t hl_txn_target_fresh(hl_txn_t *txn, hl_txn_target_t *target, bool replaces_old,
                                bool *moved, hl_error_t *err) {
  *moved = false;
  if (!target->object || target->fresh) return HL_OK;
  char *dir = hl_arena_sprintf(txn->arena, "%.*s/.hl-%s", (int)base_len(target->dir), target->dir,
                               txn->qid);
  if (!dir) return nomem(err);
  if (target->overwrite && replaces_old) target->replaces = target->dir;
  target->dir = target->stage_dir = dir;
  target->fresh = *moved = true;
  return HL_OK;
}

void hl_txn_set_plan_hook(hl_txn_t *txn, hl_txn_apply_fn fn, void *arg) {
  txn->plan_hook = fn;
  txn->plan_arg = arg;
}

hl_status_t hl_txn_target_set_replaces(hl_txn_t *txn, hl_txn_target_t *target, const char *location,
                                       hl_error_t *err) {
  target->replaces = location ? hl_arena_strdup(txn->arena, location) : NULL;
  return !location || target->replaces ? HL_OK : nomem(err);
}

size_t hl_txn_target_count(const hl_txn_t *txn) {
  return txn->n_targets;
}

hl_txn_target_t *hl_txn_target_at(hl_txn_t *txn, size_t i) {
  return i < txn->n_targets ? txn->targets[i] : NULL;
}

char *hl_txn_file_name(hl_txn_t *txn, const char *ext) {
  return hl_arena_sprintf(txn->arena, "%s_%06zu%s", txn->qid, txn->n_files++, ext ? ext : "");
}

static hl_status_t add_new(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                           const char *origin, hl_error_t *err) {
  char *copy = hl_arena_strdup(txn->arena, name);
  char *orig = origin ? hl_arena_strdup(txn->arena, origin) : NULL;
  if (!copy || (origin && !orig)) return nomem(err);
  size_t cap = target->cap_new;
  if (!push_name(txn->arena, &target->new_files, &target->n_new, &target->cap_new, copy))
    return nomem(err);
  if (target->cap_new != cap || !target->moved_from) {
    char **g = hl_arena_realloc(txn->arena, target->moved_from, cap * sizeof(char *),
                                target->cap_new * sizeof(char *));
    if (!g) return nomem(err);
    if (!target->moved_from) memset(g, 0, target->cap_new * sizeof(char *));
    target->moved_from = g;
  }
  target->moved_from[target->n_new - 1] = orig;
  return HL_OK;
}

hl_status_t hl_txn_target_add_file(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                                   hl_error_t *err) {
  if (target->inherit) { /* before publish: no reader sees another mode */
    char *path = hl_path_join(txn->arena, target->stage_dir, name);
    if (!path) return nomem(err);
    hl_status_t rc =
        txn->fs->ops->set_mode_group(txn->fs, path, target->mode & 0666, target->gid, err);
    if (rc != HL_OK) return rc;
  }
  return add_new(txn, target, name, NULL, err);
}

hl_status_t hl_txn_target_add_moved(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                                    const char *origin, hl_error_t *err) {
  return add_new(txn, target, name, origin, err);
}

/* ------------------------------------------------------------ locks */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* How recovery reaches the remote catalog of an intent (hl_txn_recover's
 * callback, or a writer's own catalog). */
typedef struct opener {
  hl_txn_cat_open_fn fn;
  void *arg;
  hl_cat_t *self; /* a writer's remote catalog, tried first; NULL: none */
} opener_t;

static hl_status_t recover_owner(hl_cat_t *cat, hl_stor_t *fs, const char *lock_dir, double timeout,
                                 const hl_cat_owner_t *dead, const hl_cat_owner_t *me,
                                 const opener_t *open, size_t *left, char **left_address,
                                 hl_arena_t *arena_out, hl_error_t *err);

static hl_status_t take_locks(hl_txn_t *txn, hl_error_t *err) {
  if (txn->n_locks > 1) qsort(txn->locks, txn->n_locks, sizeof(char *), cmp_str);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long sleep_ms = 5;
  while (txn->n_locked < txn->n_locks) {
    const char *name = txn->locks[txn->n_locked];
    hl_cat_owner_t holder = {0};
    bool acquired = false;
    hl_status_t rc =
        hl_cat_lock_try(txn->cat, name, &txn->me, NULL, &acquired, &holder, txn->arena, err);
    if (rc == HL_OK && !acquired && !owner_alive(&holder, txn->arena)) {
      /* A dead holder's write is repaired before anyone writes that table
       * again; its locks come free when that is done. */
      size_t left;
      char *where;
      opener_t o = {NULL, NULL, txn->remote ? txn->cat : NULL};
      rc = recover_owner(txn->cat, txn->fs, txn->lock_dir, txn->lock_timeout, &holder, &txn->me, &o,
                         &left, &where, txn->arena, err);
      if (rc == HL_OK && left > 0)
        return hl_err_set(err, HL_ERROR, HL_SS(LOCK_NOT_AVAILABLE),
                          "could not lock table \"%s\" for writing: a write through the metastore "
                          "\"%s\" that was cut short must be undone first, and that metastore "
                          "is not reachable from here",
                          name, where ? where : "");
      if (rc == HL_OK) continue;
    }
    if (rc != HL_OK) return rc;
    if (acquired) {
      txn->n_locked++;
      sleep_ms = 5;
      continue;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double waited = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
    if (waited >= txn->lock_timeout)
      return hl_err_set(err, HL_ERROR, HL_SS(LOCK_NOT_AVAILABLE),
                        "could not lock table \"%s\" for writing: held by process %lld on \"%s\" "
                        "for more than %g seconds",
                        name, (long long)holder.pid, holder.host, txn->lock_timeout);
    struct timespec ts = {0, sleep_ms * 1000000L};
    nanosleep(&ts, NULL);
    if (sleep_ms < 100) sleep_ms *= 2;
  }
  return HL_OK;
}

static void release_locks(hl_txn_t *txn) {
  for (size_t i = txn->n_locked; i-- > 0;) {
    hl_error_t e;
    hl_err_init(&e);
    hl_cat_lock_release(txn->cat, txn->locks[i], &txn->me, &e);
    hl_err_clear(&e);
  }
  txn->n_locked = 0;
}

/* ------------------------------------------------------------ commit */

static bool under_dir(const char *path, const char *dir);

/* Under the lock: what each overwritten target holds now, and which
 * directories the write will create. */
static hl_status_t plan_targets(hl_txn_t *txn, hl_error_t *err) {
  hl_stor_t *fs = txn->fs;
  for (size_t i = 0; i < txn->n_moves; i++) {
    char *parent = parent_dir(txn->arena, txn->move_to[i]);
    hl_status_t rc =
        parent ? first_missing(fs, parent, txn->arena, &txn->move_created[i], err) : HL_OK;
    if (rc != HL_OK) return rc;
  }
  for (size_t i = 0; i < txn->n_targets; i++) {
    hl_txn_target_t *t = txn->targets[i];
    if (t->object) { /* no directories; old files are listed, never moved */
      t->created = NULL;
      t->n_old = 0;
      /* a drop deletes everything after the commit; a fresh prefix that
       * replaces nothing is known empty */
      if (!t->overwrite || t->drop || (t->fresh && !t->replaces)) continue;
      const char *from = t->replaces ? t->replaces : t->dir;
      hl_stor_entry_t *entries;
      size_t n;
      hl_status_t rc = fs->ops->list(fs, from, txn->arena, &entries, &n, err);
      if (rc != HL_OK) return rc;
      t->old_files = hl_arena_alloc(txn->arena, sizeof(char *) * (n + 1));
      if (!t->old_files) return nomem(err);
      for (size_t e = 0; e < n; e++)
        if (!hidden(entries[e].name) && !entries[e].is_dir)
          t->old_files[t->n_old++] = entries[e].name;
      continue;
    }
    hl_status_t rc = first_missing(fs, t->dir, txn->arena, &t->created, err);
    if (rc != HL_OK) return rc;
    t->n_old = 0;
    if (t->drop && t->created) t->created = NULL; /* nothing to drop; never create it */
    if (!t->overwrite || t->created) continue;
    bool nested = false; /* a dropped directory inside another goes with it */
    for (size_t j = 0; t->drop && !nested && j < txn->n_targets; j++)
      nested = j != i && txn->targets[j]->drop && under_dir(t->dir, txn->targets[j]->dir) &&
               (strcmp(t->dir, txn->targets[j]->dir) != 0 || j < i);
    if (nested) continue;
    hl_stor_entry_t *entries;
    size_t n;
    rc = fs->ops->list(fs, t->dir, txn->arena, &entries, &n, err);
    if (rc != HL_OK) return rc;
    t->old_files = hl_arena_alloc(txn->arena, sizeof(char *) * (n + 1));
    if (!t->old_files) return nomem(err);
    for (size_t e = 0; e < n; e++) {
      const char *name = entries[e].name;
      /* an overwrite replaces visible files; a drop takes everything but
       * the staging and trash directories of writes (its own or others') */
      bool keep = t->drop ? strncmp(name, ".hivelite-staging-", 18) == 0 ||
                                strncmp(name, ".hivelite-trash-", 16) == 0
                          : hidden(name) || entries[e].is_dir; /* files only, never a directory */
      if (!keep) t->old_files[t->n_old++] = entries[e].name;
    }
  }
  return HL_OK;
}

/* Gives the directories commit created for T (T->created down to T->dir)
 * the table directory's mode and group. */
static hl_status_t inherit_dirs(hl_txn_t *txn, hl_txn_target_t *t, hl_error_t *err) {
  if (!t->inherit || !t->created) return HL_OK;
  char *p = hl_arena_strdup(txn->arena, t->dir);
  if (!p) return nomem(err);
  size_t top = strlen(t->created);
  while (strlen(p) >= top) {
    hl_status_t rc = txn->fs->ops->set_mode_group(txn->fs, p, t->mode & 03777, t->gid, err);
    if (rc != HL_OK) return rc;
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) break;
    *slash = '\0';
  }
  return HL_OK;
}

/* Trash and publish.  Renames go through the batch decorator: they become
 * durable together at the sync step. */
static hl_status_t apply_files(hl_txn_t *txn, hl_error_t *err) {
  hl_stor_t *fs = hl_txn_fs(txn);
  bool first_trash = true, first_publish = true;
  txn->moved = true;
  for (size_t i = 0; i < txn->n_targets; i++) {
    hl_txn_target_t *t = txn->targets[i];
    hl_status_t rc = HL_OK;
    if (t->object) continue; /* nothing to create or trash */
    if (t->created) rc = fs->ops->mkdirs(fs, t->dir, err);
    if (rc == HL_OK) rc = inherit_dirs(txn, t, err);
    if (rc != HL_OK) return rc;
    if (t->n_old > 0) {
      char *trash = trash_dir(txn->arena, t->dir, txn->qid);
      if (!trash) return nomem(err);
      rc = fs->ops->mkdirs(fs, trash, err);
      for (size_t f = 0; rc == HL_OK && f < t->n_old; f++) {
        char *from = hl_path_join(txn->arena, t->dir, t->old_files[f]);
        char *to = hl_path_join(txn->arena, trash, t->old_files[f]);
        rc = from && to ? fs->ops->rename(fs, from, to, err) : nomem(err);
        if (rc == HL_OK && first_trash) {
          first_trash = false;
          hl_txn_fault_point("trash");
        }
      }
      if (rc != HL_OK) return rc;
    }
  }
  /* an object store's files: the first one alone (the "publish" fault
   * point comes after it), the others completed together */
  size_t n_objects = 0;
  for (size_t i = 0; i < txn->n_targets; i++)
    if (txn->targets[i]->object) n_objects += txn->targets[i]->n_new;
  char **objects = n_objects ? hl_arena_alloc(txn->arena, sizeof(char *) * n_objects) : NULL;
  if (n_objects && !objects) return nomem(err);
  n_objects = 0;
  for (size_t i = 0; i < txn->n_targets; i++) {
    hl_txn_target_t *t = txn->targets[i];
    for (size_t f = 0; f < t->n_new; f++) {
      bool moved = t->moved_from && t->moved_from[f];
      char *from =
          moved ? t->moved_from[f] : hl_path_join(txn->arena, t->stage_dir, t->new_files[f]);
      char *to = hl_path_join(txn->arena, t->dir, t->new_files[f]);
      if (!from || !to) return nomem(err);
      if (t->object && !moved && !first_publish) {
        objects[n_objects++] = to;
        continue;
      }
      hl_status_t rc = t->object && !moved ? fs->ops->publish_pending(fs, to, err)
                                           : fs->ops->rename(fs, from, to, err);
      if (rc != HL_OK) return rc;
      if (first_publish) {
        first_publish = false;
        hl_txn_fault_point("publish");
      }
    }
  }
  if (n_objects) {
    hl_status_t rc = HL_OK;
    if (fs->ops->publish_pending_many)
      rc = fs->ops->publish_pending_many(fs, objects, n_objects, err);
    for (size_t i = 0; !fs->ops->publish_pending_many && rc == HL_OK && i < n_objects; i++)
      rc = fs->ops->publish_pending(fs, objects[i], err);
    if (rc != HL_OK) return rc;
  }
  for (size_t i = 0; i < txn->n_moves; i++) {
    hl_stor_stat_t st;
    hl_status_t rc = fs->ops->stat(fs, txn->move_from[i], &st, err);
    if (rc != HL_OK) return rc;
    if (!st.exists) continue; /* nothing to move */
    char *parent = parent_dir(txn->arena, txn->move_to[i]);
    if (parent && txn->move_created[i]) rc = fs->ops->mkdirs(fs, parent, err);
    if (rc == HL_OK) rc = fs->ops->rename(fs, txn->move_from[i], txn->move_to[i], err);
    if (rc != HL_OK) return rc;
    if (first_publish) {
      first_publish = false;
      hl_txn_fault_point("publish");
    }
  }
  return HL_OK;
}

static bool under_dir(const char *path, const char *dir) {
  size_t n = strlen(dir);
  return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The sync step: one sync_fs for the table directory's file system, and
 * one per target outside it (custom partition locations).  LOAD DATA's
 * moved files come from the same file system as their target. */
static hl_status_t sync_durable(hl_txn_t *txn, hl_error_t *err) {
  hl_stor_t *fs = txn->fs;
  if (!txn->wfs) return HL_OK; /* every write and rename was durable on its own */
  hl_status_t rc = txn->root ? fs->ops->sync_fs(fs, txn->root, err) : HL_OK;
  for (size_t i = 0; rc == HL_OK && i < txn->n_targets; i++) {
    const hl_txn_target_t *t = txn->targets[i];
    bool done = (txn->root && under_dir(t->dir, txn->root)) || (t->drop && t->n_old == 0);
    for (size_t j = 0; !done && j < i; j++)
      done = strcmp(txn->targets[j]->dir, t->dir) == 0;
    if (!done) rc = fs->ops->sync_fs(fs, t->dir, err);
  }
  for (size_t i = 0; rc == HL_OK && i < txn->n_moves; i++) {
    hl_stor_stat_t st;
    rc = fs->ops->stat(fs, txn->move_to[i], &st, err);
    if (rc == HL_OK && st.exists) rc = fs->ops->sync_fs(fs, txn->move_to[i], err);
  }
  return rc;
}

/* ------------------------------------------------------------ readers */

char *hl_txn_lock_dir(hl_arena_t *arena, const char *warehouse) {
  return hl_arena_sprintf(arena, "%s/.hivelite/locks", warehouse);
}

/* <lock_dir>/<name>.lock, NAME's bytes other than [a-z0-9_.-] as %XX. */
static char *lock_path(hl_arena_t *arena, const char *lock_dir, const char *name) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, lock_dir);
  hl_buf_putc(&b, '/');
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
    if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' ||
        (*c == '.' && c != (const unsigned char *)name)) {
      hl_buf_putc(&b, (char)*c);
    } else {
      char hex[4];
      snprintf(hex, sizeof hex, "%%%02X", *c);
      hl_buf_puts(&b, hex);
    }
  }
  hl_buf_puts(&b, ".lock");
  char *out = b.oom ? NULL : hl_arena_strndup(arena, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Sleeps *MS milliseconds and doubles it, up to 32. */
static void backoff(long *ms) {
  struct timespec ts = {0, *ms * 1000000L};
  nanosleep(&ts, NULL);
  if (*ms < 32) *ms *= 2;
}

hl_status_t hl_txn_read_begin(hl_stor_t *fs, const char *lock_dir, const char *name, double timeout,
                              hl_stor_lock_t **out, hl_error_t *err) {
  *out = NULL;
  if (!fs->ops->lock_try || !fs->ops->unlock) return HL_OK;
  hl_arena_t *arena = hl_arena_create(0);
  char *path = arena ? lock_path(arena, lock_dir, name) : NULL;
  if (!path) {
    hl_arena_destroy(arena);
    return nomem(err);
  }
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long sleep_ms = 1;
  bool made_dir = false;
  hl_status_t rc = HL_OK;
  for (;;) {
    bool unlockable = false;
    hl_error_t e;
    hl_err_init(&e);
    rc = fs->ops->lock_try(fs, path, false, out, &unlockable, &e);
    if (rc == HL_NOTFOUND && !made_dir) { /* first use of the warehouse's lock directory */
      hl_err_clear(&e);
      made_dir = true;
      rc = fs->ops->mkdirs(fs, lock_dir, &e);
      hl_err_clear(&e);
      if (rc != HL_OK) { /* a read-only warehouse: nobody can publish */
        rc = HL_OK;
        break;
      }
      continue;
    }
    if (rc != HL_OK) {
      hl_err_move(err, &e);
      break;
    }
    if (*out || unlockable) break;
    if (seconds_since(&t0) >= timeout) {
      rc = hl_err_set(err, HL_ERROR, HL_SS(LOCK_NOT_AVAILABLE),
                      "could not read table \"%s\": a write to it has been publishing for more "
                      "than %g seconds",
                      name, timeout);
      break;
    }
    backoff(&sleep_ms);
  }
  hl_arena_destroy(arena);
  return rc;
}

void hl_txn_read_end(hl_stor_t *fs, hl_stor_lock_t *lock) {
  if (lock) fs->ops->unlock(fs, lock);
}

static void unlock_all(hl_stor_t *fs, hl_stor_lock_t **locks, size_t n) {
  for (size_t i = 0; locks && i < n; i++) {
    if (locks[i]) fs->ops->unlock(fs, locks[i]);
    locks[i] = NULL;
  }
}

static void release_publish_locks(hl_txn_t *txn) {
  unlock_all(txn->fs, txn->pub_locks, txn->n_locks);
}

/* The exclusive reader lock of every table in NAMES[0..N): all or none,
 * so a writer never waits while it holds one (readers hold several shared
 * locks at once, in any order: waiting while holding could deadlock).
 * LOCKS (N slots) receives them; none are held on error, and none when
 * the lock directory cannot be made (readers cannot lock there either).
 * WHAT names the caller in the timeout error. */
static hl_status_t lock_exclusive_all(hl_stor_t *fs, const char *lock_dir, char *const *names,
                                      size_t n, double timeout, hl_arena_t *arena,
                                      hl_stor_lock_t **locks, hl_error_t *err) {
  if (!lock_dir || n == 0 || !fs->ops->lock_try || !fs->ops->unlock) return HL_OK;
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = fs->ops->mkdirs(fs, lock_dir, &e);
  hl_err_clear(&e);
  if (rc != HL_OK) return HL_OK;
  char **paths = hl_arena_alloc(arena, sizeof(char *) * n);
  if (!paths) return nomem(err);
  for (size_t i = 0; i < n; i++)
    if (!(paths[i] = lock_path(arena, lock_dir, names[i]))) return nomem(err);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long sleep_ms = 1;
  for (;;) {
    size_t busy = n;
    for (size_t i = 0; i < n; i++) {
      bool unlockable;
      rc = fs->ops->lock_try(fs, paths[i], true, &locks[i], &unlockable, err);
      if (rc != HL_OK) {
        unlock_all(fs, locks, n);
        return rc;
      }
      if (!locks[i]) {
        busy = i;
        break;
      }
    }
    if (busy == n) return HL_OK;
    unlock_all(fs, locks, n);
    if (seconds_since(&t0) >= timeout)
      return hl_err_set(err, HL_ERROR, HL_SS(LOCK_NOT_AVAILABLE),
                        "could not publish the write to table \"%s\": queries kept reading it for "
                        "more than %g seconds",
                        names[busy], timeout);
    backoff(&sleep_ms);
  }
}

static hl_status_t take_publish_locks(hl_txn_t *txn, hl_error_t *err) {
  if (!txn->lock_dir || txn->n_locks == 0) return HL_OK;
  txn->pub_locks = hl_arena_zalloc(txn->arena, sizeof(hl_stor_lock_t *) * txn->n_locks);
  if (!txn->pub_locks) return nomem(err);
  return lock_exclusive_all(txn->fs, txn->lock_dir, txn->locks, txn->n_locks, txn->lock_timeout,
                            txn->arena, txn->pub_locks, err);
}

static void end_txn(hl_txn_t *txn) {
  release_publish_locks(txn);
  if (txn->wfs) txn->wfs->ops->destroy(txn->wfs);
  txn->wfs = NULL;
}

static void forget_intent(hl_txn_t *txn) {
  hl_error_t e;
  hl_err_init(&e);
  hl_cat_intent_delete(txn->cat, txn->intent_id, &e);
  hl_err_clear(&e);
}

static void rollback_files(hl_txn_t *txn) {
  char *text = plan_text(txn);
  rplan_t p;
  hl_error_t e;
  hl_err_init(&e);
  if (text && parse_plan(text, txn->arena, &p, &e) == HL_OK)
    rollback_plan(txn->fs, &p, txn->staging, txn->arena);
  else
    quiet_remove_tree(txn->fs, txn->staging);
  hl_err_clear(&e);
}

/* ------------------------------------------------------------ remote */

/* The journal hook (hl_cat_journal_set) of a write through a remote
 * catalog: RECORD joins the intent's plan in the embedded catalog (its own
 * commit: durable) before the remote call it undoes is made. */
static hl_status_t journal_record(void *arg, const char *record, hl_error_t *err) {
  hl_txn_t *txn = arg;
  char *copy = hl_arena_strdup(txn->arena, record);
  if (!copy || !push_name(txn->arena, &txn->journal, &txn->n_journal, &txn->cap_journal, copy))
    return nomem(err);
  char *plan = plan_text(txn);
  hl_status_t rc =
      plan ? hl_cat_intent_update(txn->cat, txn->intent_id, "pending", plan, err) : nomem(err);
  if (rc != HL_OK) {
    txn->n_journal--; /* not durable: the call is not made */
    return rc;
  }
  hl_txn_fault_point("journaled");
  return HL_OK;
}

/* The metadata step through a remote catalog: each call of APPLY is
 * journaled, then made; "committed" is set (a local commit) once every
 * call is done. */
static hl_status_t apply_remote(hl_txn_t *txn, hl_txn_apply_fn apply, void *arg, hl_error_t *err) {
  hl_cat_journal_set(txn->cat, journal_record, txn);
  hl_status_t rc = apply ? apply(arg, txn, err) : HL_OK;
  hl_cat_journal_set(txn->cat, NULL, NULL);
  if (rc == HL_OK) {
    hl_txn_fault_point("remote_done");
    rc = hl_cat_intent_update(txn->cat, txn->intent_id, "committed", NULL, err);
  }
  return rc;
}

/* Undoes JOURNAL[0..N) on CAT, last call first.  Every record's undo
 * checks the remote state and is idempotent, so a crash during it is
 * repaired by running it again.  The first failure stops it. */
static hl_status_t undo_journal(hl_cat_t *cat, char *const *journal, size_t n, hl_error_t *err) {
  for (size_t i = n; i-- > 0;) {
    hl_status_t rc = hl_cat_undo(cat, journal[i], err);
    if (rc != HL_OK) return rc;
    if (i == n - 1) hl_txn_fault_point("undo"); /* half undone */
  }
  return HL_OK;
}

/* After a failed remote step: undoes the calls journaled so far.  When
 * that fails, ERR (the write's first error) is prefixed with why. */
static hl_status_t undo_remote(hl_txn_t *txn, hl_error_t *err) {
  hl_error_t e;
  hl_err_init(&e);
  hl_status_t rc = undo_journal(txn->cat, txn->journal, txn->n_journal, &e);
  if (rc != HL_OK)
    hl_err_prefix(err,
                  "the write is left for crash recovery, which undoes it once this process has "
                  "ended (undoing its metastore calls failed: %s)",
                  e.message ? e.message : "unknown error");
  hl_err_clear(&e);
  return rc;
}

/* Hands the intent and the held write locks to this process with an
 * impossible start time: a holder that owner_alive finds dead. */
static void leave_to_recovery(hl_txn_t *txn) {
  hl_cat_owner_t orphan = txn->me;
  orphan.start = -1;
  hl_error_t e;
  hl_err_init(&e);
  if (hl_cat_intent_hand_over(txn->cat, txn->intent_id, &txn->me, &orphan, txn->locks,
                              txn->n_locked, &e) == HL_OK)
    txn->n_locked = 0;
  hl_err_clear(&e); /* else this process keeps them until it ends */
}

/* Why batched durability is safe.  A SIGKILL loses nothing the kernel
 * already has (page cache), so the crash matrix passes with or without any
 * sync; the syncs exist for power loss, where only what reached the disk
 * counts.  The order:
 *   1. the intent with its full plan is committed to the catalog in state
 *      "pending" (a SQLite commit: durable) BEFORE any rename;
 *   2. renames (trash, publish) and new directories, not synced: after a
 *      power loss any subset of them may have survived, in any
 *      combination -- recovery rolls "pending" back per file (a new file
 *      is removed only if its source is gone, a trashed one is moved back
 *      if it is in the trash), so every subset is repaired, and the
 *      contents of new files do not matter on that path;
 *   3. sync: staged file data, new directories and all renames become
 *      durable (one sync_fs per file system);
 *   4. only then the catalog commit ("committed" + metadata): once it is
 *      on disk, everything it refers to is too, and recovery rolls forward
 *      (removes trash and staging) -- it never needs a file that step 3
 *      did not make durable.
 * A rollback after step 2 syncs again before the intent is forgotten, so
 * the old files are back on disk before the record of where they were is
 * gone.  After the commit, losing the cleanup's removals leaves only hidden
 * trash or staging behind, never a visible change. */
hl_status_t hl_txn_commit(hl_txn_t *txn, hl_txn_apply_fn apply, void *arg, hl_error_t *err) {
  if (txn->done)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_TRANSACTION_STATE),
                      "write transaction already ended");
  /* an object store's uploads still in flight land first: "staged" means
   * every byte is in the store (pending); a failed part is the publish's
   * to report */
  for (size_t i = 0; i < txn->n_targets; i++)
    if (txn->targets[i]->object) {
      hl_error_t e;
      hl_err_init(&e);
      txn->fs->ops->sync_fs(txn->fs, txn->targets[i]->dir, &e);
      hl_err_clear(&e);
      break; /* one wait covers every upload */
    }
  hl_txn_fault_point("staged");
  hl_status_t rc = take_locks(txn, err);
  if (rc == HL_OK) {
    hl_txn_fault_point("locked");
    if (txn->plan_hook) rc = txn->plan_hook(txn->plan_arg, txn, err);
    if (rc == HL_OK) rc = plan_targets(txn, err);
  }
  char *plan = rc == HL_OK ? plan_text(txn) : NULL;
  if (rc == HL_OK && !plan) rc = nomem(err);
  if (rc == HL_OK) rc = hl_cat_intent_update(txn->cat, txn->intent_id, "pending", plan, err);
  if (rc == HL_OK) {
    hl_txn_fault_point("pending");
    rc = take_publish_locks(txn, err);
  }
  if (rc == HL_OK) rc = apply_files(txn, err);
  if (rc == HL_OK) rc = sync_durable(txn, err);
  if (rc == HL_OK) {
    hl_txn_fault_point("synced");
    hl_txn_fault_point("before_commit");
    if (txn->remote) {
      rc = apply_remote(txn, apply, arg, err);
    } else {
      rc = hl_cat_begin(txn->cat, err);
      if (rc == HL_OK) {
        if (apply) rc = apply(arg, txn, err);
        if (rc == HL_OK)
          rc = hl_cat_intent_update(txn->cat, txn->intent_id, "committed", NULL, err);
        if (rc == HL_OK)
          rc = hl_cat_commit(txn->cat, err);
        else
          hl_cat_rollback(txn->cat);
      }
    }
  }
  txn->done = true;
  if (rc != HL_OK && txn->n_journal > 0 && undo_remote(txn, err) != HL_OK) {
    /* Remote calls took effect that cannot be undone now: the files stay
     * as the remote metadata may already see them, and the intent (with
     * its journal) and the write locks go to a holder that no longer
     * runs, so that no writer of these tables -- this process's next one
     * included -- builds on a half-made write: the next one recovers it
     * first (and fails while the metastore still cannot be reached). */
    leave_to_recovery(txn);
    end_txn(txn);
    return rc;
  }
  if (rc != HL_OK) {
    rollback_files(txn); /* still under the publish locks: readers wait */
    if (txn->moved && txn->wfs) {
      hl_error_t e;
      hl_err_init(&e);
      sync_durable(txn, &e);
      hl_err_clear(&e);
    }
    end_txn(txn);
    forget_intent(txn);
    release_locks(txn);
    return rc;
  }
  release_publish_locks(txn);
  hl_txn_fault_point("committed");
  bool finished = true; /* an object store's old files are gone */
  for (size_t i = 0; i < txn->n_targets; i++) {
    hl_txn_target_t *t = txn->targets[i];
    if (t->object) {
      hl_error_t e;
      hl_err_init(&e);
      if (finish_object(txn->fs, t->dir, t->replaces, t->old_files, t->n_old, t->drop, txn->arena,
                        &e) != HL_OK)
        finished = false;
      hl_err_clear(&e);
      continue;
    }
    finish_target(txn->fs, t->dir, t->n_old > 0 ? txn->qid : NULL, t->drop, t->stop, txn->arena);
  }
  if (!is_object(txn->fs, txn->root)) quiet_remove_tree(txn->fs, txn->staging);
  hl_txn_fault_point("cleanup");
  end_txn(txn);
  /* a committed intent whose old objects could not be deleted stays, for
   * recovery (after this process) to finish */
  if (finished) forget_intent(txn);
  release_locks(txn);
  return HL_OK;
}

void hl_txn_abort(hl_txn_t *txn) {
  if (!txn || txn->done) return;
  txn->done = true;
  for (size_t i = 0; i < txn->n_targets; i++) { /* nothing was moved yet */
    hl_txn_target_t *t = txn->targets[i];
    for (size_t f = 0; t->object && f < t->n_new; f++) { /* nor published */
      char *path = hl_path_join(txn->arena, t->dir, t->new_files[f]);
      if (path) txn->fs->ops->abort_pending(txn->fs, path);
    }
    txn->targets[i]->n_new = 0;
    txn->targets[i]->n_old = 0;
    txn->targets[i]->created = NULL;
  }
  rollback_files(txn);
  end_txn(txn);
  forget_intent(txn);
  release_locks(txn);
}

/* ------------------------------------------------------------ recovery */

/* After a rollback, the files moved back are made durable before the
 * intent that says where they were is forgotten. */
static void sync_rolled_back(hl_stor_t *fs, const rplan_t *p) {
  hl_error_t e;
  hl_err_init(&e);
  for (int i = 0; i < p->n_targets; i++) {
    hl_stor_stat_t st;
    if (is_object(fs, p->targets[i].dir)) continue; /* nothing was moved there */
    if (p->targets[i].n_old > 0 && fs->ops->stat(fs, p->targets[i].dir, &st, &e) == HL_OK &&
        st.exists) {
      fs->ops->sync_fs(fs, p->targets[i].dir, &e);
      break; /* one sync_fs covers the file system */
    }
    hl_err_clear(&e);
  }
  for (size_t i = 0; i < p->n_moves; i++) {
    hl_stor_stat_t st;
    if (fs->ops->stat(fs, p->move_from[i], &st, &e) == HL_OK && st.exists)
      fs->ops->sync_fs(fs, p->move_from[i], &e);
    hl_err_clear(&e);
  }
  hl_err_clear(&e);
}

static bool same_owner(const hl_cat_owner_t *a, const hl_cat_owner_t *b) {
  return a->pid == b->pid && a->start == b->start && strcmp(a->host, b->host) == 0;
}

/* The remote catalog at ADDRESS, or NULL when none is at hand. */
static hl_cat_t *open_remote(const opener_t *o, const char *address) {
  if (o->self && strcmp(hl_cat_address(o->self), address) == 0) return o->self;
  hl_cat_t *out = NULL;
  hl_error_t e;
  hl_err_init(&e);
  if (o->fn && o->fn(o->arg, address, &out, &e) != HL_OK) out = NULL;
  hl_err_clear(&e);
  return out;
}

/* True when intent IN (state as its dead owner left it) made remote calls
 * that recovery must undo: "pending" with a journal ("remote"). */
static bool needs_remote(const hl_cat_intent_t *in, const rplan_t *p) {
  return strcmp(in->state, "committed") != 0 && p->n_journal > 0;
}

/* Repairs every write of the dead process DEAD (see hl_txn_recover).
 * When a write of DEAD needs a remote catalog that OPEN cannot give,
 * nothing of DEAD is claimed (its intents and locks stay as they are, for
 * a process that has the catalog) and *LEFT (OUT) is the number of such
 * writes; *LEFT_ADDRESS (in ARENA_OUT) the catalog of one. */
static hl_status_t recover_owner(hl_cat_t *cat, hl_stor_t *fs, const char *lock_dir, double timeout,
                                 const hl_cat_owner_t *dead, const hl_cat_owner_t *me,
                                 const opener_t *open, size_t *left, char **left_address,
                                 hl_arena_t *arena_out, hl_error_t *err) {
  *left = 0;
  if (left_address) *left_address = NULL;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return nomem(err);
  /* first, without claiming: can every remote write of DEAD be undone here? */
  hl_cat_intent_t *all;
  size_t n_all;
  hl_status_t rc = hl_cat_intent_list(cat, arena, &all, &n_all, err);
  for (size_t i = 0; rc == HL_OK && i < n_all; i++) {
    if (!same_owner(&all[i].owner, dead)) continue;
    rplan_t p;
    rc = parse_plan(all[i].plan, arena, &p, err);
    if (rc == HL_OK && needs_remote(&all[i], &p) &&
        !open_remote(open, p.address ? p.address : "")) {
      if (left_address && !*left_address)
        *left_address = hl_arena_strdup(arena_out, p.address ? p.address : "");
      (*left)++;
    }
  }
  if (rc != HL_OK || *left > 0) {
    hl_arena_destroy(arena);
    return rc;
  }
  int64_t *ids;
  char **locks;
  size_t n_ids, n_locks;
  rc = hl_cat_intent_claim(cat, dead, me, arena, &ids, &n_ids, &locks, &n_locks, err);
  hl_stor_lock_t **pub = NULL;
  if (rc == HL_OK && n_ids > 0 && n_locks > 0) {
    /* readers wait while the files move back; if scans keep a table busy
     * past the timeout, the repair goes ahead without them */
    pub = hl_arena_zalloc(arena, sizeof *pub * n_locks);
    hl_error_t e;
    hl_err_init(&e);
    if (!pub)
      rc = nomem(err);
    else
      lock_exclusive_all(fs, lock_dir, locks, n_locks, timeout, arena, pub, &e);
    hl_err_clear(&e);
  }
  bool keep_locks = false; /* a write left unrepaired keeps its tables locked */
  for (size_t i = 0; rc == HL_OK && i < n_ids; i++) {
    hl_cat_intent_t in;
    bool found;
    rc = hl_cat_intent_get(cat, ids[i], arena, &in, &found, err);
    if (rc != HL_OK || !found) continue;
    rplan_t p;
    rc = parse_plan(in.plan, arena, &p, err);
    if (rc != HL_OK) break;
    const char *staging = in.staging[0] ? in.staging : NULL;
    /* the state as the owner left it: it can no longer change */
    if (strcmp(in.state, "committed") == 0) {
      hl_error_t e;
      hl_err_init(&e);
      hl_status_t frc = finish_plan(fs, &p, staging, arena, &e);
      hl_err_clear(&e);
      if (frc != HL_OK) { /* an object store's old files: the next recovery deletes them */
        (*left)++;
        continue;
      }
    } else {
      if (needs_remote(&in, &p)) {
        /* Remote calls first, then the files (their reverse order): the
         * files are published and synced, so they can always be moved
         * back; an undo that fails leaves both as they are, for the next
         * recovery to try again. */
        hl_cat_t *remote = open_remote(open, p.address ? p.address : "");
        hl_error_t e;
        hl_err_init(&e);
        bool undone = remote && undo_journal(remote, p.journal, p.n_journal, &e) == HL_OK;
        hl_err_clear(&e);
        if (!undone) {
          keep_locks = true;
          (*left)++;
          if (left_address && !*left_address)
            *left_address = hl_arena_strdup(arena_out, p.address ? p.address : "");
          continue;
        }
      }
      /* In "staging" the plan lists no targets yet: only the staging
       * directory (and the root, if begin created it) exist. */
      rollback_plan(fs, &p, staging, arena);
      sync_rolled_back(fs, &p);
    }
    rc = hl_cat_intent_delete(cat, in.id, err);
  }
  unlock_all(fs, pub, n_locks);
  for (size_t i = 0; !keep_locks && i < n_locks; i++) {
    hl_error_t e;
    hl_err_init(&e);
    hl_cat_lock_release(cat, locks[i], me, &e);
    hl_err_clear(&e);
  }
  if (keep_locks) { /* to a dead holder, so that the next writer retries */
    hl_cat_owner_t orphan = *me;
    orphan.start = -1;
    for (size_t i = 0; i < n_ids; i++) {
      hl_error_t e;
      hl_err_init(&e);
      hl_cat_intent_hand_over(cat, ids[i], me, &orphan, locks, i == 0 ? n_locks : 0, &e);
      hl_err_clear(&e);
    }
  }
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_txn_recover(hl_cat_t *cat, hl_stor_t *fs, const char *lock_dir, double timeout,
                           hl_txn_cat_open_fn open, void *open_arg, size_t *n_left,
                           hl_error_t *err) {
  if (n_left) *n_left = 0;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return nomem(err);
  hl_cat_owner_t me;
  self_owner(&me, arena);
  hl_cat_intent_t *intents;
  size_t n;
  hl_status_t rc = me.host ? hl_cat_intent_list(cat, arena, &intents, &n, err) : nomem(err);
  if (rc == HL_OK && n > 0) hl_txn_fault_point("recover"); /* the list may be stale from here */
  opener_t o = {open, open_arg, NULL};
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    const hl_cat_owner_t *ow = &intents[i].owner;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++)
      seen = same_owner(&intents[j].owner, ow);
    if (seen || owner_alive(ow, arena)) continue;
    size_t left;
    rc = recover_owner(cat, fs, lock_dir, timeout, ow, &me, &o, &left, NULL, arena, err);
    if (n_left) *n_left += left;
  }
  hl_arena_destroy(arena);
  return rc;
}
