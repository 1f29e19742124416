/*
 * loc_allow.c -- checks locations against hivelite.storage.allowed_locations
 * (see loc_allow.h).
 *
 * Both sides are normalised before comparing, so '/data/../etc' is '/etc'
 * and cannot slip under '/data'.  The prefix list is parsed on every call:
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
 * stripped; other schemes as written. */
static const char *canon(hl_arena_t *arena, const char *loc, const char *base) {
  if (strncmp(loc, "file://", 7) == 0)
    loc += 7;
  else if (strncmp(loc, "file:", 5) == 0)
    loc += 5;
  if (strstr(loc, "://")) return loc;
  return hl_path_normalize(arena, loc, base);
}

hl_status_t hl_loc_allow_check(const hl_session_t *s, const char *path, const char *what,
                               hl_error_t *err) {
  const char *list = hl_session_get(s, "hivelite.storage.allowed_locations");
  if (!list || !list[strspn(list, " \t,")]) return HL_OK;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return hl_err_nomem(err);
  hl_status_t rc = HL_OK;
  const char *p = canon(arena, path, s->warehouse);
  if (!p) {
    rc = hl_err_nomem(err);
    goto done;
  }
  for (const char *item = list; *item;) {
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
    const char *cp = prefix ? canon(arena, prefix, s->warehouse) : NULL;
    if (!cp) {
      rc = hl_err_nomem(err);
      goto done;
    }
    if (under(p, cp)) goto done;
  }
  rc = hl_err_set(err, HL_ERROR, HL_SS(INSUFFICIENT_PRIVILEGE),
                  "location \"%s\" of %s is outside the allowed storage locations "
                  "(hivelite.storage.allowed_locations)",
                  p, what);
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
