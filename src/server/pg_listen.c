/*
 * pg_listen.c -- hl_pg_serve: the listening socket, one thread per
 * connection, the connection slots with their cancel keys, and shutdown.
 *
 * Signals: SIGTERM and SIGINT are blocked in the calling thread before any
 * thread starts (threads inherit the mask) and read from a signalfd beside
 * the listening socket, so no handler runs anywhere.  On one of them the
 * listener stops accepting and sets `stop`; sessions that wait for a
 * message see it within a poll slice and end with 57P01, a running
 * statement finishes first; the call returns when the last thread ended.
 *
 * A connection beyond --max-connections still gets a short-lived thread
 * (at most a few at once): it may be a CancelRequest, which needs no slot;
 * otherwise it is told 53300 "sorry, too many clients already".
 */
#include "pg_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

/* Handshake threads for connections beyond the maximum (cancels). */
#define EXTRA_THREADS 8

void pg_conn_main(pg_server_t *srv, int fd); /* pg_conn.c */

typedef struct conn_arg {
  pg_server_t *srv;
  int fd;
} conn_arg_t;

static void *conn_thread(void *p) {
  conn_arg_t a = *(conn_arg_t *)p;
  free(p);
  pg_conn_main(a.srv, a.fd);
  /* OpenSSL's per-thread state (the random generator's) goes with the thread */
  OPENSSL_thread_stop();
  pthread_mutex_lock(&a.srv->mu);
  a.srv->n_threads--;
  pthread_cond_signal(&a.srv->gone);
  pthread_mutex_unlock(&a.srv->mu);
  return NULL;
}

void pg_server_cancel(pg_server_t *srv, int32_t pid, int32_t key) {
  pthread_mutex_lock(&srv->mu);
  for (int i = 0; i < srv->cfg->max_connections; i++) {
    pg_slot_t *s = &srv->slots[i];
    /* the key is compared whole: a wrong one must not cancel anything */
    if (s->in_use && s->pid == pid && s->key == key && s->db) hl_interrupt(s->db);
  }
  pthread_mutex_unlock(&srv->mu);
}

pg_slot_t *pg_server_slot_take(pg_server_t *srv) {
  pg_slot_t *got = NULL;
  pthread_mutex_lock(&srv->mu);
  for (int i = 0; i < srv->cfg->max_connections && !got; i++) {
    pg_slot_t *s = &srv->slots[i];
    if (s->in_use) continue;
    int32_t key;
    if (RAND_bytes((unsigned char *)&key, sizeof key) != 1) break;
    s->in_use = 1;
    s->pid = i + 1000; /* what clients print as the "backend PID" */
    s->key = key;
    s->db = NULL;
    got = s;
  }
  pthread_mutex_unlock(&srv->mu);
  return got;
}

void pg_server_slot_set_db(pg_server_t *srv, pg_slot_t *slot, hl_db_t *db) {
  pthread_mutex_lock(&srv->mu);
  slot->db = db;
  pthread_mutex_unlock(&srv->mu);
}

void pg_server_slot_release(pg_server_t *srv, pg_slot_t *slot) {
  pthread_mutex_lock(&srv->mu);
  slot->in_use = 0;
  slot->db = NULL;
  pthread_mutex_unlock(&srv->mu);
}

static int is_loopback(const struct sockaddr *sa) {
  if (sa->sa_family == AF_INET) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (sa->sa_family == AF_INET6) {
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
    return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
  }
  return 0;
}

static SSL_CTX *tls_context(const hl_pg_config_t *cfg) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
  if (!ctx) return NULL;
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  if (SSL_CTX_use_certificate_chain_file(ctx, cfg->tls_cert) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, cfg->tls_key, SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx) != 1) {
    unsigned long e = ERR_get_error();
    char msg[256];
    ERR_error_string_n(e, msg, sizeof msg);
    fprintf(cfg->log, "ERROR 58030: cannot load the TLS certificate or key: %s\n", msg);
    ERR_clear_error();
    SSL_CTX_free(ctx);
    return NULL;
  }
  return ctx;
}

/* Binds and listens on cfg's address: the socket, or -1 (reported). */
static int listen_on(const hl_pg_config_t *cfg, int *loopback, char *shown, size_t shown_cap) {
  struct addrinfo hints = {
      .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
  struct addrinfo *ai = NULL;
  char port[16];
  snprintf(port, sizeof port, "%d", cfg->port);
  int rc = getaddrinfo(cfg->host, port, &hints, &ai);
  if (rc != 0) {
    fprintf(cfg->log, "ERROR 08001: cannot resolve listen address \"%s\": %s\n", cfg->host,
            gai_strerror(rc));
    return -1;
  }
  int fd = -1, err = 0;
  for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 128) != 0) {
      err = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(ai);
  if (fd < 0) {
    fprintf(cfg->log, "ERROR 08001: cannot listen on %s:%d: %s\n", cfg->host, cfg->port,
            strerror(err));
    return -1;
  }
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  getsockname(fd, (struct sockaddr *)&ss, &sl);
  *loopback = is_loopback((struct sockaddr *)&ss);
  char host[INET6_ADDRSTRLEN] = "?";
  int p = 0;
  if (ss.ss_family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *)&ss;
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
    p = ntohs(in->sin_port);
  } else if (ss.ss_family == AF_INET6) {
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
    inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
    p = ntohs(in6->sin6_port);
  }
  snprintf(shown, shown_cap, "%s:%d", host, p);
  return fd;
}

static int start_thread(pg_server_t *srv, int fd) {
  pthread_mutex_lock(&srv->mu);
  /* sessions take a slot after their startup packet (pg_conn.c); the
   * threads are capped a few above, for cancel requests */
  if (srv->n_threads >= srv->cfg->max_connections + EXTRA_THREADS) {
    pthread_mutex_unlock(&srv->mu);
    close(fd);
    return 0;
  }
  srv->n_threads++;
  pthread_mutex_unlock(&srv->mu);
  conn_arg_t *a = malloc(sizeof *a);
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* statements recurse (parser, binder): a generous stack */
  pthread_attr_setstacksize(&attr, (size_t)8 << 20);
  if (a) *a = (conn_arg_t){srv, fd};
  if (!a || pthread_create(&t, &attr, conn_thread, a) != 0) {
    free(a);
    close(fd);
    pthread_mutex_lock(&srv->mu);
    srv->n_threads--;
    pthread_mutex_unlock(&srv->mu);
  }
  pthread_attr_destroy(&attr);
  return 0;
}

int hl_pg_serve(const hl_pg_config_t *cfg) {
  if (cfg->max_connections < 1) {
    fprintf(cfg->log, "ERROR 22023: --max-connections must be at least 1\n");
    return 1;
  }
  if ((cfg->tls_cert == NULL) != (cfg->tls_key == NULL)) {
    fprintf(cfg->log, "ERROR 22023: --tls-cert and --tls-key go together\n");
    return 1;
  }
  if (!cfg->auth_trust && !cfg->auth_file) {
    fprintf(cfg->log, "ERROR 22023: --auth FILE or --auth trust is required\n");
    return 1;
  }
  if (cfg->allow_cleartext && !cfg->tls_cert) {
    fprintf(cfg->log, "ERROR 22023: --auth-cleartext needs --tls-cert: a password is sent in "
                      "clear only over TLS\n");
    return 1;
  }
  if (pg_check_config(cfg) != 0) return 1;
  pg_server_t srv = {.cfg = cfg};
  int status = 1, lfd = -1, sfd = -1, loopback = 0;
  sigset_t mask, old;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  pthread_sigmask(SIG_BLOCK, &mask, &old);
  signal(SIGPIPE, SIG_IGN);
  pthread_mutex_init(&srv.mu, NULL);
  pthread_cond_init(&srv.gone, NULL);
  srv.slots = calloc((size_t)cfg->max_connections, sizeof *srv.slots);
  char shown[INET6_ADDRSTRLEN + 16];
  if (!srv.slots) {
    fprintf(cfg->log, "ERROR 53200: out of memory\n");
    goto out;
  }
  if (cfg->auth_file && !(srv.users = pg_users_load(cfg->auth_file, cfg->log))) goto out;
  if (cfg->tls_cert && !(srv.tls = tls_context(cfg))) goto out;
  if ((lfd = listen_on(cfg, &loopback, shown, sizeof shown)) < 0) goto out;
  if (cfg->auth_trust && !loopback) {
    fprintf(cfg->log, "ERROR 28000: --auth trust is allowed only on a loopback address, not %s\n",
            shown);
    goto out;
  }
  if ((sfd = signalfd(-1, &mask, SFD_CLOEXEC)) < 0) {
    fprintf(cfg->log, "ERROR 58000: signalfd: %s\n", strerror(errno));
    goto out;
  }
  fprintf(cfg->log, "listening on %s\n", shown);
  fflush(cfg->log);
  for (;;) {
    struct pollfd p[2] = {{.fd = lfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p[1].revents) { /* SIGTERM or SIGINT: read, so it is not pending when unblocked */
      struct signalfd_siginfo si;
      if (read(sfd, &si, sizeof si) < 0) {
      }
      break;
    }
    if (p[0].revents & POLLIN) {
      int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
      if (fd < 0) continue;
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      start_thread(&srv, fd);
    }
  }
  status = 0;
  close(lfd);
  lfd = -1;
  atomic_store(&srv.stop, 1);
  pthread_mutex_lock(&srv.mu);
  while (srv.n_threads > 0)
    pthread_cond_wait(&srv.gone, &srv.mu);
  pthread_mutex_unlock(&srv.mu);
  fprintf(cfg->log, "shut down\n");
out:
  if (lfd >= 0) close(lfd);
  if (sfd >= 0) {
    /* a second SIGTERM during the drain is consumed, not delivered on unblocking */
    struct pollfd p = {.fd = sfd, .events = POLLIN};
    struct signalfd_siginfo si;
    while (poll(&p, 1, 0) > 0 && read(sfd, &si, sizeof si) > 0) {
    }
    close(sfd);
  }
  if (srv.tls) SSL_CTX_free(srv.tls);
  pg_users_free(srv.users);
  free(srv.slots);
  pthread_cond_destroy(&srv.gone);
  pthread_mutex_destroy(&srv.mu);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return status;
}
