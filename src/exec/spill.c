/*
 * spill.c -- the spill space of a statement and its files (spill.h says
 * where files live and when they go; spill_block.c encodes the blocks).
 *
 * Invariant: every block's size is checked against the bytes left in the
 * file before it is read; the file is ours, but a torn write must end as
 * XX001, not as a wild read.
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

#define WRITE_CHUNK (256u << 10) /* writes go out in pieces of at least this */
#define READ_CHUNK  (256u << 10) /* reads come in pieces of this */
#define MIN_SHARE   (64u << 10)

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
  uint32_t chunk;  /* writes go out past this many bytes (hl_spill_file_set_chunk) */
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

/* Where pids mean what they say: the host name (letters, digits, '.' and
 * '_' kept) and the pid namespace ("host.4026531836"), so that a process
 * judges only subdirectories made on its own machine and namespace. */
static void owner_tag(char *buf, size_t n) {
  char host[256] = "", ns[64] = "";
  if (gethostname(host, sizeof host - 1) != 0) strcpy(host, "host");
  host[sizeof host - 1] = '\0';
  size_t k = 0;
  for (size_t i = 0; host[i] && k < 64; i++)
    if ((host[i] >= 'a' && host[i] <= 'z') || (host[i] >= 'A' && host[i] <= 'Z') ||
        (host[i] >= '0' && host[i] <= '9') || host[i] == '.' || host[i] == '_')
      host[k++] = host[i];
  host[k] = '\0';
  ssize_t len = readlink("/proc/self/ns/pid", ns, sizeof ns - 1); /* "pid:[4026531836]" */
  ns[len > 0 ? len : 0] = '\0';
  char *digits = strchr(ns, '[');
  snprintf(buf, n, "%s.%llu", host, digits ? strtoull(digits + 1, NULL, 10) : 0ull);
}

void hl_spill_owner_prefix(char *buf, size_t n) {
  char tag[128];
  owner_tag(tag, sizeof tag);
  snprintf(buf, n, "%ld-%llu-%s-", (long)getpid(), proc_start(0), tag);
}

bool hl_spill_name_is_stale(const char *name) {
  char *end;
  errno = 0;
  long pid = strtol(name, &end, 10);
  if (errno || end == name || *end != '-' || pid <= 0) return false;
  const char *p = end + 1;
  unsigned long long start = strtoull(p, &end, 10);
  if (end == p || *end != '-') return false;
  /* then "<tag>-<random>": only our machine's and namespace's pids are ours to judge */
  const char *tag = end + 1, *last = strrchr(tag, '-');
  char own[128];
  owner_tag(own, sizeof own);
  if (!last || last[1] == '\0' || (size_t)(last - tag) != strlen(own) ||
      strncmp(tag, own, strlen(own)) != 0)
    return false;
  if (kill((pid_t)pid, 0) != 0) return errno == ESRCH; /* EPERM: alive */
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

/* A file in DIR that has no name, so that no kill can leave its data
 * behind: O_TMPFILE where the kernel and file system have it; elsewhere a
 * named file unlinked at once (a kill between the two leaves it, and the
 * next open's sweep removes the subdirectory). NAME is scratch space. */
static int open_unnamed(const char *dir, uint64_t seq, char *name, size_t cap) {
#ifdef O_TMPFILE
  int fd = open(dir, O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
#endif
  snprintf(name, cap, "%s/%llu.spill", dir, (unsigned long long)seq);
  int named = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (named >= 0) unlink(name); /* the data goes with the descriptor */
  return named;
}

hl_status_t hl_spill_file_create(hl_spill_t *sp, hl_spill_file_t **out, hl_error_t *err) {
  *out = NULL;
  hl_spill_file_t *f = hl_calloc(1, sizeof(*f));
  if (!f) return hl_err_nomem(err);
  f->sp = sp;
  f->fd = -1;
  f->chunk = WRITE_CHUNK;
  hl_buf_init(&f->wbuf);
  hl_status_t rc = HL_OK;
  char name[4096];
  pthread_mutex_lock(&sp->mu);
  if (!sp->dir) {
    char prefix[256];
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
    f->fd = open_unnamed(sp->dir, seq, name, sizeof name);
    if (f->fd < 0) rc = io_error(err, "create", sp->dir, errno);
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
  if (hl_spill_block_encode(&f->wbuf, b, rows, n) != HL_OK) return hl_err_nomem(err);
  f->n_rows += n;
  return f->wbuf.len >= f->chunk ? flush(f, err) : HL_OK;
}

void hl_spill_file_set_chunk(hl_spill_file_t *f, uint32_t bytes) {
  f->chunk = bytes ? bytes : 1;
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

/* Makes the next N (<= READ_CHUNK) bytes contiguous at f->rbuf + f->rpos
 * without consuming them. */
static hl_status_t peek(hl_spill_file_t *f, size_t n, hl_error_t *err) {
  if (f->rlen - f->rpos >= n) return HL_OK;
  memmove(f->rbuf, f->rbuf + f->rpos, f->rlen - f->rpos);
  f->rlen -= f->rpos;
  f->rpos = 0;
  while (f->rlen < n) {
    ssize_t got = pread(f->fd, f->rbuf + f->rlen, READ_CHUNK - f->rlen, (off_t)f->roff);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return io_error(err, "read", f->sp->dir, errno);
    if (got == 0) return torn(err);
    f->roff += (uint64_t)got;
    f->rlen += (size_t)got;
  }
  return HL_OK;
}

hl_status_t hl_spill_read(hl_spill_file_t *f, hl_batch_t *b, hl_error_t *err) {
  if (hl_batch_reset(b) != HL_OK) return hl_err_nomem(err);
  if (!f->rbuf && !(f->rbuf = hl_malloc(READ_CHUNK))) return hl_err_nomem(err);
  /* blocks as long as they fill the batch: a grace partition's blocks
   * hold a few rows each, and a batch reset per block would cost more
   * than the rows */
  for (;;) {
    uint64_t left = f->size - (f->roff - (f->rlen - f->rpos)); /* bytes after the read position */
    if (left == 0) return HL_OK;
    uint32_t n_rows, n_cols;
    uint64_t payload;
    if (left < HL_SPILL_HEADER_BYTES) return torn(err);
    hl_status_t rc = peek(f, HL_SPILL_HEADER_BYTES, err);
    if (rc != HL_OK) return rc;
    if (!hl_spill_block_header((const uint8_t *)f->rbuf + f->rpos, &n_rows, &n_cols, &payload) ||
        n_cols != (uint32_t)b->n_cols || payload > left - HL_SPILL_HEADER_BYTES)
      return torn(err);
    if (b->n_rows + n_rows > HL_BATCH_CAP) return HL_OK; /* the next call's */
    f->rpos += HL_SPILL_HEADER_BYTES;
    uint8_t *block = hl_arena_alloc(b->arena, payload ? (size_t)payload : 1);
    if (!block) return hl_err_nomem(err);
    if ((rc = read_bytes(f, block, (size_t)payload, err)) != HL_OK) return rc;
    rc = hl_spill_block_decode(block, (size_t)payload, n_rows, b);
    if (rc == HL_NOMEM) return hl_err_nomem(err);
    if (rc != HL_OK) return torn(err);
  }
}
