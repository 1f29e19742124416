/*
 * catalogs.c -- the session's catalogs by name (see catalogs.h).
 *
 * A small array: a session sees a handful of catalogs.  Entry 0 is
 * `internal` (the api layer's handle, never closed here); the others own
 * their handles.  The current entry's database is s->current_db; the
 * others keep theirs in the entry, so switching back finds it.
 */
#include "session/catalogs.h"

#include "util/mem.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

typedef struct entry {
  char *name;    /* lower-case (heap) */
  hl_cat_t *cat; /* owned, except entry 0's */
  char *db;      /* current database while not current (heap; NULL: "default") */
  char *uris;    /* session-only (-m): where it is; NULL for stored catalogs */
} entry_t;

struct hl_catalogs {
  entry_t *e;
  int n, cap;
  int current;
  hl_cat_t *resolve; /* where names without a catalog resolve; NULL: current (a view's) */
  hl_catalogs_open_fn open;
  void *open_ctx;
};

static char *lower_dup(const char *s) {
  char *d = hl_strdup(s);
  if (d)
    for (char *c = d; *c; c++)
      *c = (char)tolower((unsigned char)*c);
  return d;
}

static hl_status_t add(struct hl_catalogs *r, const char *name, hl_cat_t *cat, const char *uris) {
  if (r->n == r->cap) {
    int ncap = r->cap ? r->cap * 2 : 4;
    entry_t *ne = hl_realloc(r->e, sizeof *ne * (size_t)ncap);
    if (!ne) return HL_NOMEM;
    r->e = ne;
    r->cap = ncap;
  }
  entry_t *e = &r->e[r->n];
  memset(e, 0, sizeof *e);
  if (!(e->name = lower_dup(name)) || (uris && !(e->uris = hl_strdup(uris)))) {
    hl_free(e->name);
    return HL_NOMEM;
  }
  e->cat = cat;
  r->n++;
  return HL_OK;
}

hl_status_t hl_catalogs_init(hl_session_t *s, hl_catalogs_open_fn open, void *open_ctx) {
  struct hl_catalogs *r = hl_calloc(1, sizeof *r);
  if (!r) return HL_NOMEM;
  r->open = open;
  r->open_ctx = open_ctx;
  if (add(r, HL_CATALOG_INTERNAL, s->cat, NULL) != HL_OK) {
    hl_free(r);
    return HL_NOMEM;
  }
  s->catalogs = r;
  return HL_OK;
}

static void free_entry(entry_t *e, bool close) {
  if (close) hl_cat_close(e->cat);
  hl_free(e->name);
  hl_free(e->db);
  hl_free(e->uris);
}

void hl_catalogs_fini(hl_session_t *s) {
  struct hl_catalogs *r = s->catalogs;
  if (!r) return;
  s->cat = r->e[0].cat;
  for (int i = 0; i < r->n; i++)
    free_entry(&r->e[i], i > 0);
  hl_free(r->e);
  hl_free(r);
  s->catalogs = NULL;
}

hl_cat_t *hl_catalogs_internal(hl_session_t *s) {
  return s->catalogs ? s->catalogs->e[0].cat : s->cat;
}

const char *hl_catalogs_current(const hl_session_t *s) {
  return s->catalogs ? s->catalogs->e[s->catalogs->current].name : HL_CATALOG_INTERNAL;
}

bool hl_catalogs_is_internal(const char *name) {
  return strcasecmp(name, HL_CATALOG_INTERNAL) == 0;
}

static int find(const struct hl_catalogs *r, const char *name) {
  for (int i = 0; i < r->n; i++)
    if (strcasecmp(r->e[i].name, name) == 0) return i;
  return -1;
}

const char *hl_catalogs_name_of(const hl_session_t *s, const hl_cat_t *cat) {
  if (!s->catalogs) return HL_CATALOG_INTERNAL;
  for (int i = 0; i < s->catalogs->n; i++)
    if (s->catalogs->e[i].cat == cat) return s->catalogs->e[i].name;
  return HL_CATALOG_INTERNAL;
}

/* Index of catalog NAME, opening a stored one on first use. */
static hl_status_t open_entry(hl_session_t *s, const char *name, long pos, int *idx,
                              hl_error_t *err) {
  struct hl_catalogs *r = s->catalogs;
  if ((*idx = find(r, name)) >= 0) return HL_OK;
  hl_arena_t *tmp = hl_arena_create(0);
  if (!tmp) return hl_err_nomem(err);
  hl_cat_catalog_t *def = NULL;
  hl_status_t rc = hl_cat_catalog_get(r->e[0].cat, name, tmp, &def, err);
  hl_cat_t *cat = NULL;
  if (rc == HL_OK && !r->open)
    rc = hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                    "catalog \"%s\" cannot be opened: no Hive Metastore client in this build",
                    def->name);
  if (rc == HL_OK) {
    rc = r->open(r->open_ctx, def, r->e[0].cat, &cat, err);
    if (rc != HL_OK) hl_err_prefix(err, "catalog \"%s\"", def->name);
  }
  if (rc == HL_OK && add(r, def->name, cat, NULL) != HL_OK) {
    hl_cat_close(cat);
    rc = hl_err_nomem(err);
  }
  if (rc == HL_OK) *idx = r->n - 1;
  hl_arena_destroy(tmp);
  if (rc != HL_OK) hl_err_position(err, pos);
  return rc;
}

hl_status_t hl_catalogs_get(hl_session_t *s, const char *name, long pos, hl_cat_t **out,
                            hl_error_t *err) {
  if (!name || !s->catalogs) {
    struct hl_catalogs *r = s->catalogs;
    *out = !r ? s->cat : r->resolve ? r->resolve : r->e[r->current].cat;
    return HL_OK;
  }
  int idx;
  hl_status_t rc = open_entry(s, name, pos, &idx, err);
  if (rc == HL_OK) *out = s->catalogs->e[idx].cat;
  return rc;
}

hl_cat_t *hl_catalogs_resolve_in(hl_session_t *s, hl_cat_t *cat) {
  if (!s->catalogs) return NULL;
  hl_cat_t *prev = s->catalogs->resolve;
  s->catalogs->resolve = cat;
  return prev;
}

hl_status_t hl_catalogs_attach(hl_session_t *s, const char *name, const char *uris, hl_cat_t *cat,
                               hl_error_t *err) {
  struct hl_catalogs *r = s->catalogs;
  if (!r || find(r, name) >= 0) {
    hl_cat_close(cat);
    return hl_err_set(err, HL_CONSTRAINT, HL_SS(DUPLICATE_OBJECT), "catalog \"%s\" already exists",
                      name);
  }
  if (add(r, name, cat, uris) != HL_OK) {
    hl_cat_close(cat);
    return hl_err_nomem(err);
  }
  return HL_OK;
}

bool hl_catalogs_session_only(const hl_session_t *s, int i, const char **name, const char **uris) {
  if (!s->catalogs) return false;
  for (int k = 0; k < s->catalogs->n; k++) {
    const entry_t *e = &s->catalogs->e[k];
    if (!e->uris) continue;
    if (i-- == 0) {
      *name = e->name;
      *uris = e->uris;
      return true;
    }
  }
  return false;
}

hl_status_t hl_catalogs_switch(hl_session_t *s, const char *name, const char *db, long pos,
                               hl_error_t *err) {
  struct hl_catalogs *r = s->catalogs;
  if (!r)
    return hl_err_set_at(err, pos, HL_MISUSE, HL_SS(INTERNAL_ERROR), "session has no catalogs");
  int idx;
  hl_status_t rc = open_entry(s, name, pos, &idx, err);
  if (rc != HL_OK) return rc;
  entry_t *to = &r->e[idx], *from = &r->e[r->current];
  /* SWITCH to the current catalog keeps its database */
  const char *keep = idx == r->current ? s->current_db : to->db;
  char *new_db = lower_dup(db ? db : keep ? keep : "default");
  if (!new_db) return hl_err_nomem(err);
  if (idx != r->current) {
    hl_free(from->db); /* the database to come back to */
    from->db = s->current_db;
    s->current_db = NULL;
  }
  hl_free(s->current_db);
  s->current_db = new_db;
  hl_free(to->db);
  to->db = NULL;
  r->current = idx;
  s->cat = to->cat;
  return HL_OK;
}

void hl_catalogs_forget(hl_session_t *s, const char *name) {
  struct hl_catalogs *r = s->catalogs;
  if (!r) return;
  int idx = find(r, name);
  if (idx <= 0) return;
  if (idx == r->current) { /* back to internal, without a step that can fail */
    if (r->e[0].db) {
      hl_free(s->current_db);
      s->current_db = r->e[0].db;
      r->e[0].db = NULL;
    } else {
      char *d = hl_strdup("default");
      if (d) {
        hl_free(s->current_db);
        s->current_db = d;
      }
    }
    r->current = 0;
    s->cat = r->e[0].cat;
  }
  free_entry(&r->e[idx], true);
  memmove(&r->e[idx], &r->e[idx + 1], sizeof *r->e * (size_t)(r->n - idx - 1));
  r->n--;
  if (r->current > idx) r->current--;
}
