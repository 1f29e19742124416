/*
 * stor_util.c -- helpers built on the file-system interface (stor.h):
 * whole-file reads, file copies, and lexical path joining, normalisation
 * and containment tests.
 *
 * They use only the ops table, so they work on every backend.  The path
 * functions are pure string work (no system calls except getcwd when the
 * caller passes no working directory) and never resolve symbolic links.
 */
#include "storage/stor.h"

#include "util/mem.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#define COPY_CHUNK (256 * 1024)

hl_status_t hl_stor_read_all(hl_stor_t *fs, const char *path, hl_arena_t *arena, size_t max_bytes,
                             char **data, size_t *len, hl_error_t *err) {
  *data = NULL;
  *len = 0;
  hl_stor_file_t *f = NULL;
  hl_status_t rc = fs->ops->open_read(fs, path, &f, err);
  if (rc != HL_OK) return rc;
  uint64_t size = fs->ops->file_size(f);
  if (size > (uint64_t)max_bytes) {
    rc = hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                    "file \"%s\" is too large (%llu bytes, limit %zu)", path,
                    (unsigned long long)size, max_bytes);
    goto done;
  }
  /* One extra byte so text callers get a NUL-terminated buffer. */
  char *buf = hl_arena_alloc(arena, (size_t)size + 1);
  if (!buf) {
    rc = hl_err_nomem(err);
    goto done;
  }
  size_t got = 0;
  rc = fs->ops->read_at(f, 0, buf, (size_t)size, &got, err);
  if (rc != HL_OK) goto done;
  buf[got] = '\0'; /* a file that shrank since open yields what is there */
  *data = buf;
  *len = got;
done:
  fs->ops->close(f, err);
  return rc;
}

hl_status_t hl_stor_copy(hl_stor_t *fs, const char *from, const char *to, hl_error_t *err) {
  hl_stor_file_t *in = NULL, *out = NULL;
  char *chunk = NULL;
  hl_status_t rc = fs->ops->open_read(fs, from, &in, err);
  if (rc != HL_OK) return rc;
  rc = fs->ops->create(fs, to, &out, err);
  if (rc != HL_OK) goto done;
  chunk = hl_malloc(COPY_CHUNK);
  if (!chunk) {
    rc = hl_err_nomem(err);
    goto done;
  }
  for (uint64_t offset = 0;;) {
    size_t got = 0;
    rc = fs->ops->read_at(in, offset, chunk, COPY_CHUNK, &got, err);
    if (rc != HL_OK) goto done;
    if (got > 0) {
      rc = fs->ops->append(out, chunk, got, err);
      if (rc != HL_OK) goto done;
    }
    if (got < COPY_CHUNK) break;
    offset += got;
  }
  rc = fs->ops->sync(out, err);
done:
  hl_free(chunk);
  fs->ops->close(in, err);
  if (out) {
    hl_status_t crc = fs->ops->close(out, err);
    if (rc == HL_OK) rc = crc;
    /* The target was created exclusively by us: a failed copy removes it. */
    if (rc != HL_OK) {
      hl_error_t ignored;
      hl_err_init(&ignored);
      fs->ops->remove(fs, to, &ignored);
      hl_err_clear(&ignored);
    }
  }
  return rc;
}

char *hl_path_join(hl_arena_t *arena, const char *dir, const char *name) {
  size_t dlen = strlen(dir);
  while (dlen > 1 && dir[dlen - 1] == '/')
    dlen--;
  if (dlen == 0) return hl_arena_strdup(arena, name);
  while (*name == '/')
    name++;
  size_t nlen = strlen(name);
  bool slash = dir[dlen - 1] != '/'; /* dir "/" already ends in one */
  char *out = hl_arena_alloc(arena, dlen + (slash ? 1 : 0) + nlen + 1);
  if (!out) return NULL;
  memcpy(out, dir, dlen);
  size_t pos = dlen;
  if (slash) out[pos++] = '/';
  memcpy(out + pos, name, nlen + 1);
  return out;
}

/* Appends the segments of SRC to OUT (which holds OUT_LEN bytes and starts
 * with '/'), resolving "." and ".." lexically. */
static size_t append_segments(char *out, size_t out_len, const char *src) {
  const char *p = src;
  while (*p) {
    while (*p == '/')
      p++;
    const char *start = p;
    while (*p && *p != '/')
      p++;
    size_t seg = (size_t)(p - start);
    if (seg == 0 || (seg == 1 && start[0] == '.')) continue;
    if (seg == 2 && start[0] == '.' && start[1] == '.') {
      /* ".." at the root stays at the root, as the kernel does. */
      while (out_len > 1 && out[out_len - 1] != '/')
        out_len--;
      if (out_len > 1) out_len--; /* drop the separator too */
      continue;
    }
    if (out_len > 1) out[out_len++] = '/';
    memcpy(out + out_len, start, seg);
    out_len += seg;
  }
  return out_len;
}

/* An object-store URI normalised like a path below its root: "//", "."
 * and ".." segments go (".." stops at the bucket), no trailing slash. */
static char *normalize_object(hl_arena_t *arena, const char *path, size_t root) {
  char *out = hl_arena_alloc(arena, strlen(path) + 3);
  if (!out) return NULL;
  out[0] = '/';
  size_t len = append_segments(out, 1, path + root);
  memmove(out + root, out, len);
  memcpy(out, path, root);
  len += root;
  if (len > root && out[len - 1] == '/') len--; /* the root itself: no "/" */
  out[len] = '\0';
  return out;
}

char *hl_path_normalize(hl_arena_t *arena, const char *path, const char *cwd) {
  size_t root = hl_uri_object_root(path);
  if (root) return normalize_object(arena, path, root);
  char cwd_buf[PATH_MAX];
  if (path[0] != '/' && !cwd) {
    if (!getcwd(cwd_buf, sizeof cwd_buf)) return NULL;
    cwd = cwd_buf;
  }
  size_t cap = strlen(path) + (path[0] != '/' ? strlen(cwd) : 0) + 3;
  char *out = hl_arena_alloc(arena, cap);
  if (!out) return NULL;
  out[0] = '/';
  size_t len = 1;
  if (path[0] != '/') len = append_segments(out, len, cwd);
  len = append_segments(out, len, path);
  out[len] = '\0';
  return out;
}

bool hl_path_is_normal(const char *path) {
  if (!path) return false;
  size_t root = hl_uri_object_root(path);
  if (root)
    return path[root] == '\0' ||
           (path[root] == '/' && path[root + 1] != '\0' && hl_path_is_normal(path + root));
  if (path[0] != '/') return false;
  if (path[1] == '\0') return true; /* "/" */
  for (const char *p = path + 1;;) {
    const char *end = strchr(p, '/');
    size_t seg = end ? (size_t)(end - p) : strlen(p);
    if (seg == 0 || (seg == 1 && p[0] == '.') || (seg == 2 && p[0] == '.' && p[1] == '.'))
      return false; /* "//", a trailing "/", "." or ".." */
    if (!end) return true;
    p = end + 1;
  }
}

bool hl_path_within(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1 && dir[0] == '/') return path[0] == '/';
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

bool hl_path_strictly_inside(const char *path, const char *dir) {
  return hl_path_within(path, dir) && strcmp(path, dir) != 0;
}
