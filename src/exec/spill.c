/*
 * spill.c -- the spill space of a statement, its files, and the block
 * format of spilled batches (spill.h says where files live, when they go
 * and what a block holds).
 *
 * Invariant: every length read back from a file is checked against the
 * bytes left in its block, and every block's size against the bytes left
 * in the file, before it is used; the file is ours, but a torn write must
 * end as XX001, not as a wild read.
 */
#include "exec/spill.h"

#include "util/mem.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_MAGIC  0x42534c48u  /* "HLSB" */
#define HEADER_BYTES 24           /* magic, rows, columns, reserved: u32; payload bytes: u64 */
#define WRITE_CHUNK  (1u << 20)   /* writes go out in pieces of at least this */
#define READ_CHUNK   (256u << 10) /* reads come in pieces of this */
#define MIN_SHARE    (64u << 10)

struct hl_spill {
  char *root;         /* heap */
  char *dir;          /* heap; NULL until the first file */
  uint64_t limit;     /* the statement's memory limit */
  uint64_t n_files;   /* names the next file */
  uint64_t n_bytes;   /* written so far */
  pthread_mutex_t mu; /* dir, n_files, n_bytes */
};

struct hl_spill_file {
  hl_spill_t *sp;
  int fd;
  hl_buf_t wbuf;   /* blocks not yet written */
  uint64_t size;   /* bytes in the file */
  uint64_t n_rows; /* rows written */
  char *rbuf;      /* READ_CHUNK bytes (heap), allocated on the first read */
  size_t rpos, rlen;
  uint64_t roff; /* file offset of rbuf[rlen] */
};

/* ------------------------------------------------------------ directories */

/* Start time of process PID in clock ticks since boot (field 22 of
 * /proc/PID/stat); 0 when unknown. */
static unsigned long long proc_start(long pid) {
  char path[64], text[1024];
  if (pid > 0)
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  else
    snprintf(path, sizeof path, "/proc/self/stat");
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  /* the command name (field 2) may hold spaces and parentheses: count
   * fields after its last ')' */
  char *p = strrchr(text, ')');
  if (!p) return 0;
  int field = 2;
  for (p++; *p && field < 22; p++)
    if (*p == ' ') field++;
  return field == 22 ? strtoull(p, NULL, 10) : 0;
}

void hl_spill_owner_prefix(char *buf, size_t n) {
  snprintf(buf, n, "%ld-%llu-", (long)getpid(), proc_start(0));
}

bool hl_spill_name_is_stale(const char *name) {
  char *end;
  errno = 0;
  long pid = strtol(name, &end, 10);
  if (errno || end == name || *end != '-' || pid <= 0) return false;
  const char *p = end + 1;
  unsigned long long start = strtoull(p, &end, 10);
  if (end == p || *end != '-' || end[1] == '\0') return false;
  if (kill((pid_t)pid, 0) != 0) return errno == ESRCH; /* EPERM: alive, not ours to judge */
  /* alive: a different start time means the pid was reused */
  unsigned long long now = proc_start(pid);
  return now != 0 && start != 0 && now != start;
}

/* Removes DIR's files and DIR itself (our subdirectories hold only files). */
static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    hl_buf_t path;
    hl_buf_init(&path);
    while ((e = readdir(d))) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      hl_buf_reset(&path);
      hl_buf_printf(&path, "%s/%s", dir, e->d_name);
      if (!path.oom) unlink(hl_buf_cstr(&path));
    }
    hl_buf_fini(&path);
    closedir(d);
  }
  rmdir(dir);
}

void hl_spill_sweep(const char *root) {
  DIR *d = opendir(root);
  if (!d) return;
  struct dirent *e;
  hl_buf_t path;
  hl_buf_init(&path);
  while ((e = readdir(d))) {
    if (!hl_spill_name_is_stale(e->d_name)) continue;
    hl_buf_reset(&path);
    hl_buf_printf(&path, "%s/%s", root, e->d_name);
    if (!path.oom) remove_dir(hl_buf_cstr(&path));
  }
  hl_buf_fini(&path);
  closedir(d);
}

hl_status_t hl_spill_root(const hl_session_t *s, hl_arena_t *arena, const char **out,
                          hl_error_t *err) {
  const char *set = hl_session_get(s, "hivelite.spill.directory");
  size_t len = set ? strlen(set) : 0;
  /* SET keeps what was written, quotes included */
  while (len && (set[len - 1] == ' ' || set[len - 1] == '\t'))
    len--;
  while (len && (*set == ' ' || *set == '\t'))
    set++, len--;
  if (len >= 2 && (*set == '\'' || *set == '"') && set[len - 1] == *set) set++, len -= 2;
  const char *root;
  if (len) {
    if (!(root = hl_arena_strndup(arena, set, len))) return hl_err_nomem(err);
    if (strstr(root, "://"))
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "hivelite.spill.directory must be a local directory, not \"%s\"", root);
    if (*root != '/')
      return hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                        "hivelite.spill.directory must be an absolute path, not \"%s\"", root);
  } else if (s->warehouse && !strstr(s->warehouse, "://")) {
    root = hl_arena_sprintf(arena, "%s/.hivelite/tmp", s->warehouse);
  } else {
    const char *tmp = getenv("TMPDIR");
    root = hl_arena_sprintf(arena, "%s/hivelite-spill", tmp && *tmp ? tmp : "/tmp");
  }
  if (!root) return hl_err_nomem(err);
  *out = root;
  return HL_OK;
}

static void spill_cleanup(void *arg) {
  hl_spill_t *sp = arg;
  if (sp->dir) remove_dir(sp->dir);
  hl_free(sp->dir);
  hl_free(sp->root);
  sp->dir = sp->root = NULL;
  pthread_mutex_destroy(&sp->mu);
}

hl_spill_t *hl_spill_create(const char *root, uint64_t limit, hl_arena_t *arena, hl_error_t *err) {
  hl_spill_t *sp = hl_arena_zalloc(arena, sizeof(*sp));
  if (!sp || !(sp->root = hl_strdup(root))) return hl_err_nomem(err), NULL;
  sp->limit = limit;
  if (pthread_mutex_init(&sp->mu, NULL) != 0) {
    hl_free(sp->root);
    return hl_err_nomem(err), NULL;
  }
  if (hl_arena_on_reset(arena, spill_cleanup, sp) != 0) {
    spill_cleanup(sp);
    return hl_err_nomem(err), NULL;
  }
  return sp;
}

uint64_t hl_spill_share(const hl_spill_t *sp) {
  uint64_t share = sp->limit / 4;
  return share < MIN_SHARE ? MIN_SHARE : share;
}

const char *hl_spill_dir(const hl_spill_t *sp) {
  return sp->dir;
}

uint64_t hl_spill_bytes(const hl_spill_t *sp) {
  hl_spill_t *m = (hl_spill_t *)sp;
  pthread_mutex_lock(&m->mu);
  uint64_t n = m->n_bytes;
  pthread_mutex_unlock(&m->mu);
  return n;
}

/* mkdir -p of ROOT (local). */
static int make_root(const char *root) {
  char *p = hl_strdup(root);
  if (!p) return -1;
  for (char *q = p + 1; *q; q++)
    if (*q == '/') {
      *q = '\0';
      if (mkdir(p, 0700) != 0 && errno != EEXIST) break;
      *q = '/';
    }
  hl_free(p);
  return mkdir(root, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

static hl_status_t io_error(hl_error_t *err, const char *what, const char *path, int e) {
  if (e == ENOSPC || e == EDQUOT)
    return hl_err_set(err, HL_IOERR, HL_SS(DISK_FULL),
                      "could not %s spill file in \"%s\": no space left on device", what, path);
  return hl_err_set(err, HL_IOERR, HL_SS(IO_ERROR), "could not %s spill file in \"%s\": %s", what,
                    path, strerror(e));
}

hl_status_t hl_spill_file_create(hl_spill_t *sp, hl_spill_file_t **out, hl_error_t *err) {
  *out = NULL;
  hl_spill_file_t *f = hl_calloc(1, sizeof(*f));
  if (!f) return hl_err_nomem(err);
  f->sp = sp;
  f->fd = -1;
  hl_buf_init(&f->wbuf);
  hl_status_t rc = HL_OK;
  char name[4096];
  pthread_mutex_lock(&sp->mu);
  if (!sp->dir) {
    char prefix[64];
    hl_spill_owner_prefix(prefix, sizeof prefix);
    int n = snprintf(name, sizeof name, "%s/%sXXXXXX", sp->root, prefix);
    if (n < 0 || (size_t)n >= sizeof name) {
      rc = hl_err_set(err, HL_ERROR, HL_SS(INVALID_PARAMETER_VALUE),
                      "hivelite.spill.directory is too long");
    } else if (make_root(sp->root) != 0 || !mkdtemp(name)) {
      rc = io_error(err, "create", sp->root, errno);
    } else if (!(sp->dir = hl_strdup(name))) {
      rmdir(name);
      rc = hl_err_nomem(err);
    }
  }
  uint64_t seq = sp->n_files++;
  if (rc == HL_OK) {
    snprintf(name, sizeof name, "%s/%llu.spill", sp->dir, (unsigned long long)seq);
    f->fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (f->fd < 0)
      rc = io_error(err, "create", sp->dir, errno);
    else
      unlink(name); /* the data goes with the descriptor, even on a crash */
  }
  pthread_mutex_unlock(&sp->mu);
  if (rc != HL_OK) {
    hl_spill_file_close(f);
    return rc;
  }
  *out = f;
  return HL_OK;
}

void hl_spill_file_close(hl_spill_file_t *f) {
  if (!f) return;
  if (f->fd >= 0) close(f->fd);
  hl_buf_fini(&f->wbuf);
  hl_free(f->rbuf);
  hl_free(f);
}

int hl_spill_file_fd(const hl_spill_file_t *f) {
  return f->fd;
}

uint64_t hl_spill_file_rows(const hl_spill_file_t *f) {
  return f->n_rows;
}

uint64_t hl_spill_file_bytes(const hl_spill_file_t *f) {
  return f->size + f->wbuf.len;
}

/* ------------------------------------------------------------------ write */

static hl_status_t flush(hl_spill_file_t *f, hl_error_t *err) {
  size_t done = 0;
  while (done < f->wbuf.len) {
    ssize_t n = pwrite(f->fd, f->wbuf.data + done, f->wbuf.len - done, (off_t)(f->size + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return io_error(err, "write", f->sp->dir, n < 0 ? errno : ENOSPC);
    done += (size_t)n;
  }
  f->size += done;
  pthread_mutex_lock(&f->sp->mu);
  f->sp->n_bytes += done;
  pthread_mutex_unlock(&f->sp->mu);
  hl_buf_reset(&f->wbuf);
  return HL_OK;
}

static void put_u8(hl_buf_t *b, uint8_t v) {
  hl_buf_append(b, &v, 1);
}

static void put_u32(hl_buf_t *b, uint32_t v) {
  hl_buf_append(b, &v, sizeof v);
}

/* One value of TYPE, nested: a presence byte, then the leaf or the items. */
static void put_value(hl_buf_t *b, const hl_type_t *type, const hl_value_t *v) {
  if (!v || v->is_null) {
    put_u8(b, 0);
    return;
  }
  put_u8(b, 1);
  switch (hl_type_phys(type)) {
  case HL_P_BOOL:
    put_u8(b, v->u.b ? 1 : 0);
    return;
  case HL_P_I64:
    hl_buf_append(b, &v->u.i, sizeof v->u.i);
    return;
  case HL_P_F64:
    hl_buf_append(b, &v->u.d, sizeof v->u.d);
    return;
  case HL_P_I128:
    hl_buf_append(b, &v->u.dec, sizeof v->u.dec);
    return;
  case HL_P_STR:
    put_u32(b, v->u.s.len);
    hl_buf_append(b, v->u.s.ptr, v->u.s.len);
    return;
  case HL_P_VALUE:
    break;
  }
  uint32_t n = v->u.list.n, items = type->id == HL_T_MAP ? 2 * n : n;
  put_u32(b, n);
  for (uint32_t i = 0; i < items; i++) {
    const hl_type_t *t = type->id == HL_T_STRUCT ? type->children[i]
                         : type->id == HL_T_MAP  ? type->children[i & 1]
                                                 : type->children[0];
    put_value(b, t, &v->u.list.items[i]);
  }
}

static bool row_is_null(const hl_vec_t *v, uint32_t r) {
  if (hl_vec_is_null(v, r)) return true;
  if (hl_type_phys(v->type) != HL_P_VALUE) return false;
  const hl_value_t *p = HL_VEC_VALUE(v)[r];
  return !p || p->is_null;
}

static void put_column(hl_buf_t *b, const hl_vec_t *v, const uint32_t *rows, uint32_t n) {
  hl_phys_t phys = hl_type_phys(v->type);
  bool nulls = false;
  for (uint32_t i = 0; i < n && !nulls; i++)
    nulls = row_is_null(v, rows[i]);
  put_u8(b, nulls);
  if (nulls) {
    uint8_t byte = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (!row_is_null(v, rows[i])) byte |= (uint8_t)(1u << (i & 7));
      if ((i & 7) == 7 || i + 1 == n) {
        put_u8(b, byte);
        byte = 0;
      }
    }
  }
  static const char zero[16];
  switch (phys) {
  case HL_P_BOOL:
  case HL_P_I64:
  case HL_P_F64:
  case HL_P_I128: {
    size_t w = phys == HL_P_BOOL ? 1 : phys == HL_P_I128 ? 16 : 8;
    if (hl_buf_reserve(b, w * n) != 0) return;
    for (uint32_t i = 0; i < n; i++) /* NULL rows as zeros: deterministic bytes */
      hl_buf_append(b, row_is_null(v, rows[i]) ? zero : (const char *)v->data + w * rows[i], w);
    return;
  }
  case HL_P_STR: {
    const hl_str_t *s = HL_VEC_STR(v);
    for (uint32_t i = 0; i < n; i++)
      put_u32(b, row_is_null(v, rows[i]) ? 0 : s[rows[i]].len);
    for (uint32_t i = 0; i < n; i++)
      if (!row_is_null(v, rows[i])) hl_buf_append(b, s[rows[i]].ptr, s[rows[i]].len);
    return;
  }
  case HL_P_VALUE:
    for (uint32_t i = 0; i < n; i++)
      put_value(b, v->type, row_is_null(v, rows[i]) ? NULL : HL_VEC_VALUE(v)[rows[i]]);
    return;
  }
}

hl_status_t hl_spill_write(hl_spill_file_t *f, const hl_batch_t *b, const uint32_t *rows,
                           uint32_t n, hl_error_t *err) {
  uint32_t live[HL_BATCH_CAP];
  if (!rows) {
    n = hl_batch_live(b);
    for (uint32_t i = 0; i < n; i++)
      live[i] = hl_batch_row(b, i);
    rows = live;
  }
  if (n == 0) return HL_OK;
  size_t start = f->wbuf.len;
  uint32_t head[4] = {BLOCK_MAGIC, n, (uint32_t)b->n_cols, 0};
  uint64_t payload = 0;
  hl_buf_append(&f->wbuf, head, sizeof head);
  hl_buf_append(&f->wbuf, &payload, sizeof payload);
  for (int c = 0; c < b->n_cols; c++)
    put_column(&f->wbuf, &b->cols[c], rows, n);
  if (f->wbuf.oom) return hl_err_nomem(err);
  payload = f->wbuf.len - start - HEADER_BYTES;
  memcpy(f->wbuf.data + start + sizeof head, &payload, sizeof payload);
  f->n_rows += n;
  return f->wbuf.len >= WRITE_CHUNK ? flush(f, err) : HL_OK;
}

/* ------------------------------------------------------------------- read */

hl_status_t hl_spill_rewind(hl_spill_file_t *f, hl_error_t *err) {
  hl_status_t rc = flush(f, err);
  if (rc != HL_OK) return rc;
  hl_buf_fini(&f->wbuf); /* a file waiting to be read (a sort's run) holds no buffer */
  hl_buf_init(&f->wbuf);
  f->rpos = f->rlen = 0;
  f->roff = 0;
  return HL_OK;
}

static hl_status_t torn(hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "spill file is damaged (a write may have failed)");
}

/* Copies N bytes at the read position into DST (reading on as needed). */
static hl_status_t read_bytes(hl_spill_file_t *f, void *dst, size_t n, hl_error_t *err) {
  char *d = dst;
  while (n) {
    if (f->rpos == f->rlen) {
      if (n >= READ_CHUNK) { /* a big payload: straight into place */
        ssize_t got = pread(f->fd, d, n, (off_t)f->roff);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return io_error(err, "read", f->sp->dir, errno);
        if (got == 0) return torn(err);
        f->roff += (uint64_t)got;
        d += got;
        n -= (size_t)got;
        continue;
      }
      ssize_t got = pread(f->fd, f->rbuf, READ_CHUNK, (off_t)f->roff);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return io_error(err, "read", f->sp->dir, errno);
      if (got == 0) return torn(err);
      f->roff += (uint64_t)got;
      f->rpos = 0;
      f->rlen = (size_t)got;
    }
    size_t k = f->rlen - f->rpos < n ? f->rlen - f->rpos : n;
    memcpy(d, f->rbuf + f->rpos, k);
    f->rpos += k;
    d += k;
    n -= k;
  }
  return HL_OK;
}

typedef struct cursor {
  const uint8_t *p, *end;
} cursor_t;

static const uint8_t *take(cursor_t *c, uint64_t n) {
  if ((uint64_t)(c->end - c->p) < n) return NULL;
  const uint8_t *p = c->p;
  c->p += n;
  return p;
}

static bool take_u32(cursor_t *c, uint32_t *v) {
  const uint8_t *p = take(c, 4);
  if (p) memcpy(v, p, 4);
  return p != NULL;
}

/* The inverse of put_value: HL_OK, HL_CORRUPT on a malformed encoding,
 * HL_NOMEM.  Strings point into the block, which lives in ARENA. */
static hl_status_t get_value(cursor_t *c, const hl_type_t *type, hl_arena_t *arena,
                             hl_value_t *out) {
  memset(out, 0, sizeof *out);
  const uint8_t *flag = take(c, 1);
  if (!flag || *flag > 1) return HL_CORRUPT;
  out->is_null = *flag == 0;
  if (out->is_null) return HL_OK;
  const uint8_t *p;
  switch (hl_type_phys(type)) {
  case HL_P_BOOL:
    if (!(p = take(c, 1))) return HL_CORRUPT;
    out->u.b = *p != 0;
    return HL_OK;
  case HL_P_I64:
    if (!(p = take(c, 8))) return HL_CORRUPT;
    memcpy(&out->u.i, p, 8);
    return HL_OK;
  case HL_P_F64:
    if (!(p = take(c, 8))) return HL_CORRUPT;
    memcpy(&out->u.d, p, 8);
    return HL_OK;
  case HL_P_I128:
    if (!(p = take(c, 16))) return HL_CORRUPT;
    memcpy(&out->u.dec, p, 16);
    return HL_OK;
  case HL_P_STR:
    if (!take_u32(c, &out->u.s.len) || !(p = take(c, out->u.s.len))) return HL_CORRUPT;
    out->u.s.ptr = (const char *)p;
    return HL_OK;
  case HL_P_VALUE:
    break;
  }
  uint32_t n;
  if (type->id == HL_T_NULL || !take_u32(c, &n)) return HL_CORRUPT;
  uint64_t items = type->id == HL_T_MAP ? 2 * (uint64_t)n : n;
  /* every item takes at least its presence byte: the count is bounded by
   * the block, so the allocation is too */
  if (items > (uint64_t)(c->end - c->p)) return HL_CORRUPT;
  if (type->id == HL_T_STRUCT && n != (uint32_t)type->n_children) return HL_CORRUPT;
  out->u.list.n = n;
  out->u.list.items = items ? hl_arena_alloc(arena, sizeof(hl_value_t) * items) : NULL;
  if (items && !out->u.list.items) return HL_NOMEM;
  for (uint64_t i = 0; i < items; i++) {
    const hl_type_t *t = type->id == HL_T_STRUCT ? type->children[i]
                         : type->id == HL_T_MAP  ? type->children[i & 1]
                                                 : type->children[0];
    hl_status_t rc = get_value(c, t, arena, &out->u.list.items[i]);
    if (rc != HL_OK) return rc;
  }
  return HL_OK;
}

/* Column V of N rows from C; SKIP: parse only (an unused column of the
 * target batch, whose data must not be written).  HL_CORRUPT or HL_NOMEM
 * (returned bare; the caller words the error). */
static hl_status_t get_column(cursor_t *c, hl_vec_t *v, hl_arena_t *arena, uint32_t n, bool skip) {
  const uint8_t *flag = take(c, 1), *bits = NULL;
  if (!flag || *flag > 1) return HL_CORRUPT;
  if (*flag && !(bits = take(c, (n + 7) / 8))) return HL_CORRUPT;
  hl_phys_t phys = hl_type_phys(v->type);
  switch (phys) {
  case HL_P_BOOL:
  case HL_P_I64:
  case HL_P_F64:
  case HL_P_I128: {
    size_t w = phys == HL_P_BOOL ? 1 : phys == HL_P_I128 ? 16 : 8;
    const uint8_t *p = take(c, (uint64_t)w * n);
    if (!p) return HL_CORRUPT;
    if (!skip) memcpy(v->data, p, w * n);
    break;
  }
  case HL_P_STR: {
    const uint8_t *lens = take(c, 4 * (uint64_t)n);
    if (!lens) return HL_CORRUPT;
    hl_str_t *s = skip ? NULL : HL_VEC_STR(v);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t len;
      memcpy(&len, lens + 4 * (size_t)i, 4);
      const uint8_t *p = take(c, len);
      if (!p) return HL_CORRUPT;
      if (s) s[i] = (hl_str_t){(const char *)p, len};
    }
    break;
  }
  case HL_P_VALUE:
    for (uint32_t i = 0; i < n; i++) {
      hl_value_t *val = hl_arena_alloc(arena, sizeof(*val));
      if (!val) return HL_NOMEM;
      hl_status_t rc = get_value(c, v->type, arena, val);
      if (rc != HL_OK) return rc;
      if (!skip) HL_VEC_VALUE(v)[i] = val->is_null ? NULL : val;
    }
    break;
  }
  if (bits && !skip)
    for (uint32_t i = 0; i < n; i++)
      if (!(bits[i >> 3] & (1u << (i & 7))) && hl_vec_set_null(v, arena, i) != HL_OK)
        return HL_NOMEM;
  return HL_OK;
}

hl_status_t hl_spill_read(hl_spill_file_t *f, hl_batch_t *b, hl_error_t *err) {
  if (hl_batch_reset(b) != HL_OK) return hl_err_nomem(err);
  if (!f->rbuf && !(f->rbuf = hl_malloc(READ_CHUNK))) return hl_err_nomem(err);
  uint64_t left = f->size - (f->roff - (f->rlen - f->rpos)); /* bytes after the read position */
  if (left == 0) return HL_OK;
  uint32_t head[4];
  uint64_t payload;
  if (left < HEADER_BYTES) return torn(err);
  hl_status_t rc = read_bytes(f, head, sizeof head, err);
  if (rc == HL_OK) rc = read_bytes(f, &payload, sizeof payload, err);
  if (rc != HL_OK) return rc;
  if (head[0] != BLOCK_MAGIC || head[1] == 0 || head[1] > HL_BATCH_CAP ||
      head[2] != (uint32_t)b->n_cols || payload > left - HEADER_BYTES)
    return torn(err);
  uint8_t *block = hl_arena_alloc(b->arena, payload ? (size_t)payload : 1);
  if (!block) return hl_err_nomem(err);
  if ((rc = read_bytes(f, block, (size_t)payload, err)) != HL_OK) return rc;
  cursor_t c = {block, block + payload};
  for (int col = 0; col < b->n_cols; col++) {
    bool skip = b->unused && b->unused[col];
    rc = get_column(&c, &b->cols[col], b->arena, head[1], skip);
    if (rc == HL_NOMEM) return hl_err_nomem(err);
    if (rc != HL_OK) return torn(err);
  }
  if (c.p != c.end) return torn(err);
  b->n_rows = head[1];
  return HL_OK;
}
