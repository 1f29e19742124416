/*
 * hms_server.c -- the metastore server's sockets and threads
 * (hms_server.h): a listening socket, one thread per connection with its
 * own catalog connection and buffered Thrift transport, shutdown on
 * SIGTERM/SIGINT taken through a signalfd.
 *
 * The main loop owns every connection's socket: a connection thread only
 * marks itself done, the loop joins it and closes the socket, so a
 * shutdown(2) at exit never hits a descriptor number already reused.
 *
 * With SASL on, a connection negotiates (tsasl.c) before its first
 * message and is closed when it does not; the result goes to stderr, the
 * server's log (the `hivelite metastore` command is a long-running server
 * whose stderr is where an operator looks for who connected).
 */
#include "hms_server/hms_server.h"

#include "hms_server/hms_lock.h"
#include "thrift/ttransport.h"
#include "util/mem.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct conn {
  struct server *srv;
  int fd;
  pthread_t thread;
  atomic_int done;
  char peer[64]; /* the client's address, for the log */
  struct conn *next;
} conn_t;

typedef struct server {
  const hl_hms_server_opts_t *opts;
  hl_hms_locks_t *locks; /* shared by every connection (its own mutex) */
  conn_t *conns;         /* touched by the main loop only */
  int n_conns;
} server_t;

/* Serves one connection until the peer closes it, goes idle, sends bytes
 * that are not a call, or the server shuts the socket down. */
static void *conn_main(void *arg) {
  conn_t *c = arg;
  hl_cat_t *cat = NULL;
  hl_error_t err;
  hl_ttransport_t t;
  hl_buf_t out;
  hl_arena_t *arena = hl_arena_create(64 * 1024);
  size_t max_reply = c->srv->opts->max_reply ? c->srv->opts->max_reply : HL_HMS_DEFAULT_MAX_REPLY;
  hl_err_init(&err);
  hl_tt_init(&t, c->fd, HL_TT_DETECT); /* buffered or framed: the client's first bytes say */
  t.timeout_ms = c->srv->opts->idle_timeout_ms;
  hl_buf_init(&out);
  const hl_hms_server_opts_t *o = c->srv->opts;
  int ok = arena != NULL;
  if (ok && o->sasl_principal) {
    hl_tsasl_server_opts_t so = {o->sasl_principal, o->sasl_keytab, o->sasl_qop};
    char *who = NULL;
    if (hl_tsasl_server_accept(&t, &so, &who, &err) == HL_OK) {
      fprintf(stderr, "metastore: connection from %s: authenticated as %s (%s)\n", c->peer, who,
              hl_tsasl_qop_name(o->sasl_qop));
    } else {
      fprintf(stderr, "metastore: connection from %s refused: ERROR %s: %s\n", c->peer,
              err.sqlstate, err.message ? err.message : "");
      ok = 0;
    }
    hl_free(who);
  }
  /* the write methods create and remove directories through the
   * server's file system, or each connection's own (local only: data on
   * S3 is refused with 0A000, never taken as a relative local path) */
  hl_stor_t *own = o->fs ? NULL : hl_stor_route_create(hl_stor_local_create(), NULL);
  hl_hms_env_t env = {o->fs ? o->fs : own, c->srv->locks};
  if (ok && env.fs && hl_cat_open(o->metastore, &cat, &err) == HL_OK) {
    for (;;) {
      const uint8_t *msg;
      size_t len;
      if (hl_tt_recv(&t, &msg, &len, &err) != HL_OK) break;
      hl_buf_reset(&out);
      hl_arena_reset(arena);
      if (hl_hms_handle(cat, &env, msg, len, max_reply, arena, &out, &err) != HL_OK) break;
      if (out.len && hl_tt_send(&t, out.data, out.len, &err) != HL_OK) break;
    }
  }
  hl_cat_close(cat);
  if (own) own->ops->destroy(own);
  hl_buf_fini(&out);
  hl_tt_fini(&t);
  hl_arena_destroy(arena);
  hl_err_clear(&err);
  atomic_store(&c->done, 1);
  return NULL;
}

/* Joins and frees the finished connections (all of them when ALL). */
static void reap(server_t *s, int all) {
  conn_t **pp = &s->conns;
  while (*pp) {
    conn_t *c = *pp;
    if (!all && !atomic_load(&c->done)) {
      pp = &c->next;
      continue;
    }
    if (all) shutdown(c->fd, SHUT_RDWR); /* wakes a thread waiting in poll */
    pthread_join(c->thread, NULL);
    close(c->fd);
    *pp = c->next;
    free(c);
    s->n_conns--;
  }
}

static hl_status_t start_conn(server_t *s, int fd, const struct sockaddr_in *from,
                              hl_error_t *err) {
  conn_t *c = calloc(1, sizeof *c);
  if (!c) {
    close(fd);
    return hl_err_nomem(err);
  }
  c->srv = s;
  c->fd = fd;
  char ip[INET_ADDRSTRLEN] = "?";
  inet_ntop(AF_INET, &from->sin_addr, ip, sizeof ip);
  snprintf(c->peer, sizeof c->peer, "%s:%d", ip, ntohs(from->sin_port));
  atomic_init(&c->done, 0);
  int rc = pthread_create(&c->thread, NULL, conn_main, c);
  if (rc != 0) { /* refuse this client, keep serving the others */
    close(fd);
    free(c);
    return HL_OK;
  }
  c->next = s->conns;
  s->conns = c;
  s->n_conns++;
  return HL_OK;
}

static hl_status_t open_listener(const hl_hms_server_opts_t *o, int *out, int *port,
                                 hl_error_t *err) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)o->port)};
  socklen_t alen = sizeof a;
  if (inet_pton(AF_INET, o->host, &a.sin_addr) != 1)
    return hl_err_set(err, HL_MISUSE, HL_SS(INVALID_PARAMETER_VALUE),
                      "metastore: not an IPv4 address: %s", o->host);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
  if (fd < 0)
    return hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "metastore: socket: %s",
                      strerror(errno));
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0 ||
      getsockname(fd, (struct sockaddr *)&a, &alen) != 0) {
    hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "metastore: cannot listen on %s:%d: %s",
               o->host, o->port, strerror(errno));
    close(fd);
    return HL_IOERR;
  }
  *out = fd;
  *port = ntohs(a.sin_port);
  return HL_OK;
}

hl_status_t hl_hms_serve(const hl_hms_server_opts_t *opts, hl_error_t *err) {
  server_t s = {opts, NULL, NULL, 0};
  sigset_t stop, saved;
  int lfd = -1, port = 0, sfd;
  if (opts->sasl_principal) {
    hl_tsasl_server_opts_t so = {opts->sasl_principal, opts->sasl_keytab, opts->sasl_qop};
    if (hl_tsasl_server_check(&so, err)) return err->code;
    fprintf(stderr, "metastore: SASL GSSAPI (Kerberos) required: principal %s, keytab %s, qop %s\n",
            so.principal, so.keytab, hl_tsasl_qop_name(so.qop));
  }
  int timeout_s = opts->lock_timeout_s > 0 ? opts->lock_timeout_s : 300;
  if (!(s.locks = hl_hms_locks_create((int64_t)timeout_s * 1000))) return hl_err_nomem(err);
  hl_status_t rc = open_listener(opts, &lfd, &port, err);
  if (rc) {
    hl_hms_locks_destroy(s.locks);
    return rc;
  }
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, &saved);
  if ((sfd = signalfd(-1, &stop, SFD_CLOEXEC)) < 0) {
    rc = hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "metastore: signalfd: %s",
                    strerror(errno));
    goto out;
  }
  if (opts->on_listen) opts->on_listen(opts->ctx, opts->host, port);
  for (;;) {
    /* at the cap the listener is not watched: new clients wait in the
     * backlog (bounded threads and catalog connections), and the loop
     * wakes often to reap a finished one */
    bool full = s.n_conns >= (opts->max_conns > 0 ? opts->max_conns : 1);
    struct pollfd p[2] = {{.fd = full ? -1 : lfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
    int n = poll(p, 2, full ? 50 : 1000); /* wakes to reap finished threads */
    reap(&s, 0);
    if (n < 0 && errno != EINTR) {
      rc = hl_err_set(err, HL_IOERR, HL_SS(CONNECTION_EXCEPTION), "metastore: poll: %s",
                      strerror(errno));
      break;
    }
    if (n > 0 && p[1].revents) break; /* SIGTERM or SIGINT */
    if (n > 0 && (p[0].revents & POLLIN)) {
      struct sockaddr_in from = {0};
      socklen_t flen = sizeof from;
      int fd = accept4(lfd, (struct sockaddr *)&from, &flen, SOCK_CLOEXEC);
      if (fd < 0) {
        /* out of descriptors: the listener stays readable, so wait a
         * little (still watching for the signal) instead of spinning */
        if (errno == EMFILE || errno == ENFILE) poll(&p[1], 1, 100);
        continue; /* or the client went away */
      }
      if ((rc = start_conn(&s, fd, &from, err))) break;
    }
  }
out:
  close(lfd);
  reap(&s, 1);
  if (sfd >= 0) {
    /* the signal that stopped us was read by nobody: take it so that
     * unblocking does not deliver it */
    struct signalfd_siginfo si;
    struct pollfd p = {.fd = sfd, .events = POLLIN};
    while (poll(&p, 1, 0) == 1 && read(sfd, &si, sizeof si) == sizeof si) {
    }
    close(sfd);
  }
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  hl_hms_locks_destroy(s.locks); /* every connection thread was joined */
  return rc;
}
