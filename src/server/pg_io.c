/*
 * pg_io.c -- one connection's byte stream: a socket, or TLS over it after
 * an SSLRequest, with an input buffer that grows only as bytes arrive (a
 * declared 2 GB length costs nothing until 2 GB come, and is refused by
 * pg_frame long before) and the outgoing message buffer.
 *
 * Reads wait in poll() slices of 200 ms so that an idle session sees the
 * shutdown flag and its idle timeout; a statement that runs is never
 * waiting here, so shutdown lets it finish.
 */
#include "pg_int.h"

#include <errno.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SLICE_MS 200

void pg_io_init(pg_io_t *io, int fd, const atomic_int *stop, int idle_timeout_ms) {
  memset(io, 0, sizeof *io);
  io->fd = fd;
  io->stop = stop;
  io->idle_timeout_ms = idle_timeout_ms;
}

void pg_io_close(pg_io_t *io) {
  if (io->ssl) {
    SSL_shutdown(io->ssl);
    SSL_free(io->ssl);
    io->ssl = NULL;
  }
  if (io->fd >= 0) close(io->fd);
  io->fd = -1;
  free(io->in);
  io->in = NULL;
  pg_buf_free(&io->out);
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until FD is readable (or writable with OUT): PG_IO_OK, or a
 * timeout/stop when IDLE. */
static pg_io_rc_t wait_fd(pg_io_t *io, int out, int idle, long long deadline) {
  for (;;) {
    if (idle && atomic_load(io->stop)) return PG_IO_STOP;
    struct pollfd p = {.fd = io->fd, .events = out ? POLLOUT : POLLIN};
    int rc = poll(&p, 1, SLICE_MS);
    if (rc > 0) return PG_IO_OK;
    if (rc < 0 && errno != EINTR) return PG_IO_ERR;
    if (deadline && now_ms() >= deadline) return PG_IO_TIMEOUT;
  }
}

/* Reads some bytes into the input buffer. */
static pg_io_rc_t fill(pg_io_t *io, size_t want, int idle) {
  long long deadline = 0;
  if (io->idle_timeout_ms > 0)
    deadline = now_ms() + (idle ? io->idle_timeout_ms : io->idle_timeout_ms + 60000);
  if (want > io->in_cap) {
    /* grow by at most 1 MB beyond what is held: bytes must arrive first */
    size_t cap = io->in_cap ? io->in_cap : 8192;
    while (cap < want && cap < io->in_len + ((size_t)1 << 20))
      cap *= 2;
    unsigned char *p = realloc(io->in, cap);
    if (!p) return PG_IO_ERR;
    io->in = p;
    io->in_cap = cap;
  }
  for (;;) {
    if (io->ssl && SSL_pending(io->ssl) == 0) {
      pg_io_rc_t w = wait_fd(io, 0, idle, deadline);
      if (w != PG_IO_OK) return w;
    } else if (!io->ssl) {
      pg_io_rc_t w = wait_fd(io, 0, idle, deadline);
      if (w != PG_IO_OK) return w;
    }
    size_t room = io->in_cap - io->in_len;
    if (io->ssl) {
      int n = SSL_read(io->ssl, io->in + io->in_len, room > INT32_MAX ? INT32_MAX : (int)room);
      if (n > 0) {
        io->in_len += (size_t)n;
        return PG_IO_OK;
      }
      int e = SSL_get_error(io->ssl, n);
      if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) continue;
      ERR_clear_error();
      return e == SSL_ERROR_ZERO_RETURN ? PG_IO_EOF : PG_IO_ERR;
    }
    ssize_t n = read(io->fd, io->in + io->in_len, room);
    if (n > 0) {
      io->in_len += (size_t)n;
      return PG_IO_OK;
    }
    if (n == 0) return PG_IO_EOF;
    if (errno != EINTR && errno != EAGAIN) return PG_IO_ERR;
  }
}

pg_io_rc_t pg_io_next(pg_io_t *io, int startup, int idle, pg_frame_t *f) {
  if (io->consumed) {
    memmove(io->in, io->in + io->consumed, io->in_len - io->consumed);
    io->in_len -= io->consumed;
    io->consumed = 0;
  }
  for (;;) {
    size_t need = 0;
    pg_frame_rc_t rc = pg_frame(io->in, io->in_len, startup, PG_MAX_MESSAGE, f, &need);
    if (rc == PG_FRAME_OK) {
      io->consumed = f->total;
      return PG_IO_OK;
    }
    if (rc == PG_FRAME_BAD) return PG_IO_ERR;
    /* only the wait for a message's first byte counts as idle */
    pg_io_rc_t r = fill(io, need, idle && io->in_len == 0);
    if (r != PG_IO_OK) return r;
  }
}

size_t pg_io_pending(const pg_io_t *io) {
  return io->in_len - io->consumed;
}

pg_io_rc_t pg_io_flush(pg_io_t *io) {
  if (io->out.oom) return PG_IO_ERR;
  size_t off = 0;
  while (off < io->out.len) {
    size_t n = io->out.len - off;
    if (io->ssl) {
      int w = SSL_write(io->ssl, io->out.data + off, n > INT32_MAX ? INT32_MAX : (int)n);
      if (w > 0) {
        off += (size_t)w;
        continue;
      }
      int e = SSL_get_error(io->ssl, w);
      if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ) {
        if (wait_fd(io, e == SSL_ERROR_WANT_WRITE, 0, 0) != PG_IO_OK) return PG_IO_ERR;
        continue;
      }
      ERR_clear_error();
      return PG_IO_ERR;
    }
    ssize_t w = send(io->fd, io->out.data + off, n, MSG_NOSIGNAL);
    if (w > 0) {
      off += (size_t)w;
    } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (wait_fd(io, 1, 0, 0) != PG_IO_OK) return PG_IO_ERR;
    } else {
      return PG_IO_ERR;
    }
  }
  pg_buf_reset(&io->out);
  return PG_IO_OK;
}

int pg_io_start_tls(pg_io_t *io, SSL_CTX *ctx) {
  io->ssl = SSL_new(ctx);
  if (!io->ssl || SSL_set_fd(io->ssl, io->fd) != 1) goto fail;
  for (;;) {
    int rc = SSL_accept(io->ssl);
    if (rc == 1) return 0;
    int e = SSL_get_error(io->ssl, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
      if (wait_fd(io, e == SSL_ERROR_WANT_WRITE, 0, 0) != PG_IO_OK) goto fail;
      continue;
    }
    goto fail;
  }
fail:
  ERR_clear_error();
  if (io->ssl) SSL_free(io->ssl);
  io->ssl = NULL;
  return -1;
}
