/*
 * loc_allow.c -- checks locations against hivelite.storage.allowed_locations
 * (see loc_allow.h).
 *
 * Both sides are normalised and then have their symbolic links resolved
 * (the storage backend's real_path) before comparing, so '/data/../etc'
 * is '/etc' and cannot slip under '/data', and neither can a link
 * '/data/t/x -> /etc'.  The prefix list is parsed on every call:
 * it is a handful of entries and reads call this once per partition
 * directory, which is cheap next to listing that directory.
 */
#include "session/loc_allow.h"

#include "util/arena.h"

#include <string.h>

/* True when PATH is DIR or below it, on '/' boundaries. */
static bool under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (strncmp(path, dir, n) != 0) return false;
  return path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/');
}

/* The comparable form of a location: local paths normalised, 'file:'
 * stripped; other schemes as written.  *REAL gets the local path with its
 * symbolic links resolved (the same string when there are none). */
static hl_status_t canon(const hl_session_t *s, hl_arena_t *arena, const char *loc,
                         const char **lexical, const char **real, hl_error_t *err) {
  if (strncmp(loc, "file://", 7) == 0)
    loc += 7;
  else if (strncmp(loc, "file:", 5) == 0)
    loc += 5;
  *lexical = *real = loc;
  if (strstr(loc, "://")) return HL_OK;
  if (!(*lexical = *real = hl_path_normalize(arena, loc, s->warehouse))) return hl_err_nomem(err);
  if (!s->fs || !s->fs->ops->real_path) return HL_OK;
  char *r;
  hl_status_t rc = s->fs->ops->real_path(s->fs, *lexical, arena, &r, err);
  if (rc == HL_OK) *real = r;
  return rc;
}

hl_status_t hl_loc_allow_check(const hl_session_t *s, const char *path, const char *what,
                               hl_error_t *err) {
  const char *list = hl_session_get(s, "hivelite.storage.allowed_locations");
  if (!list || !list[strspn(list, " \t,")]) return HL_OK;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  const char *p, *rp;
  hl_status_t rc = canon(s, arena, path, &p, &rp, err);
  for (const char *item = list; rc == HL_OK && *item;) {
    const char *comma = strchr(item, ',');
    const char *end = comma ? comma : item + strlen(item);
    const char *b = item;
    while (b < end && (*b == ' ' || *b == '\t'))
      b++;
    const char *e = end;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    item = comma ? comma + 1 : end;
    if (b == e) continue;
    char *prefix = hl_arena_strndup(arena, b, (size_t)(e - b));
    const char *cp, *crp;
    rc = prefix ? canon(s, arena, prefix, &cp, &crp, err) : hl_err_nomem(err);
    /* Both sides resolved: a link inside an allowed root is judged by its
     * target, and a root named through a link (/tmp -> /private/tmp)
     * still holds what lies under it. */
    if (rc == HL_OK && under(rp, crp)) goto done;
  }
  if (rc != HL_OK) goto done;
  if (strcmp(p, rp) != 0)
    rc = hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                    "location \"%s\" of %s resolves through a symbolic link to \"%s\", which "
                    "is outside the allowed storage locations "
                    "(hivelite.storage.allowed_locations)",
                    p, what, rp);
  else
    rc = hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                    "location \"%s\" of %s is outside the allowed storage locations "
                    "(hivelite.storage.allowed_locations)",
                    p, what);
  hl_err_hint(err, NULL,
              "Add the location to hivelite.storage.allowed_locations, or leave the setting "
              "empty to allow every location.");
done:
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_loc_allow_check_table(const hl_session_t *s, const char *path, const char *db,
                                     const char *table, const char *part, hl_error_t *err) {
  const char *list = hl_session_get(s, "hivelite.storage.allowed_locations");
  if (!list || !list[strspn(list, " \t,")]) return HL_OK; /* skip building the name */
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  char *what = part
                   ? hl_arena_sprintf(arena, "partition \"%s\" of table \"%s.%s\"", part, db, table)
                   : hl_arena_sprintf(arena, "table \"%s.%s\"", db, table);
  hl_status_t rc = what ? hl_loc_allow_check(s, path, what, err) : hl_err_nomem(err);
  hl_arena_destroy(arena);
  return rc;
}

hl_status_t hl_loc_allow_check_links(const hl_session_t *s, const char *dir,
                                     const hl_stor_entry_t *entries, size_t n, const char *what,
                                     hl_error_t *err) {
  const char *list = hl_session_get(s, "hivelite.storage.allowed_locations");
  if (!list || !list[strspn(list, " \t,")]) return HL_OK;
  hl_status_t rc = HL_OK;
  for (size_t i = 0; rc == HL_OK && i < n; i++) {
    if (!entries[i].is_link) continue;
    hl_arena_t *arena = hl_arena_create(0);
    char *path = arena ? hl_path_join(arena, dir, entries[i].name) : NULL;
    rc = path ? hl_loc_allow_check(s, path, what, err) : hl_err_nomem(err);
    hl_arena_destroy(arena);
  }
  return rc;
}
