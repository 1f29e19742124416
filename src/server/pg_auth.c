/*
 * pg_auth.c -- who may connect: the users file and SCRAM-SHA-256 (RFC 5802
 * with SHA-256, RFC 7677), or a cleartext password over TLS, or trust.
 *
 * The users file holds one line per user in PostgreSQL's verifier format,
 *   NAME:SCRAM-SHA-256$ITERATIONS:SALT$STOREDKEY:SERVERKEY   (base64)
 * so the password itself is never stored: StoredKey = H(HMAC(SaltedPassword,
 * "Client Key")), ServerKey = HMAC(SaltedPassword, "Server Key"),
 * SaltedPassword = PBKDF2-HMAC-SHA-256(password, salt, iterations).
 *
 * An unknown user goes through the same exchange with a salt derived from
 * the name and a per-process secret, and fails at the end like a wrong
 * password, so the reply does not tell which names exist.  Channel binding
 * is not offered (the client's gs2 header must be "n" or "y").
 */
#include "pg_int.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEY_LEN    32
#define SALT_LEN   16
#define ITERATIONS 4096
#define MAX_USERS  10000
#define MAX_LINE   1024

typedef struct pg_user {
  char *name;
  int iterations;
  unsigned char salt[64];
  int salt_len;
  unsigned char stored_key[KEY_LEN], server_key[KEY_LEN];
} pg_user_t;

struct pg_users {
  pg_user_t *users;
  int n;
  unsigned char mock_secret[KEY_LEN]; /* for unknown users' salts */
};

/* ---- base64 ---- */

static int b64_decode(const char *s, size_t n, unsigned char *out, size_t cap) {
  if (n % 4 || n / 4 * 3 > cap) return -1;
  int len = EVP_DecodeBlock(out, (const unsigned char *)s, (int)n);
  if (len < 0) return -1;
  while (n > 0 && s[n - 1] == '=') { /* DecodeBlock counts padding as bytes */
    n--;
    len--;
  }
  return len;
}

static void b64_encode(const unsigned char *p, size_t n, char *out) {
  EVP_EncodeBlock((unsigned char *)out, p, (int)n);
}

/* ---- keys ---- */

static int hmac(const unsigned char *key, size_t klen, const void *msg, size_t mlen,
                unsigned char out[KEY_LEN]) {
  unsigned int n = KEY_LEN;
  return HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &n) ? 0 : -1;
}

static int derive(const char *password, const unsigned char *salt, int salt_len, int iterations,
                  unsigned char stored[KEY_LEN], unsigned char server[KEY_LEN]) {
  unsigned char salted[KEY_LEN], client[KEY_LEN];
  if (PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, salt_len, iterations, EVP_sha256(),
                        KEY_LEN, salted) != 1 ||
      hmac(salted, KEY_LEN, "Client Key", 10, client) != 0 ||
      hmac(salted, KEY_LEN, "Server Key", 10, server) != 0)
    return -1;
  SHA256(client, KEY_LEN, stored);
  OPENSSL_cleanse(salted, sizeof salted);
  return 0;
}

/* ---- the file ---- */

static int parse_line(char *line, pg_user_t *u) {
  char *colon = strchr(line, ':');
  if (!colon) return -1;
  *colon = '\0';
  const char *v = colon + 1;
  if (strncmp(v, "SCRAM-SHA-256$", 14) != 0) return -1;
  char *e;
  long it = strtol(v + 14, &e, 10);
  if (*e != ':' || it < 1 || it > 10000000) return -1;
  char *salt = e + 1, *dollar = strchr(salt, '$');
  if (!dollar) return -1;
  char *stored = dollar + 1, *colon2 = strchr(stored, ':');
  if (!colon2) return -1;
  char *server = colon2 + 1;
  unsigned char k1[48], k2[48];
  u->salt_len = b64_decode(salt, (size_t)(dollar - salt), u->salt, sizeof u->salt);
  if (u->salt_len < 1 || b64_decode(stored, (size_t)(colon2 - stored), k1, sizeof k1) != KEY_LEN ||
      b64_decode(server, strlen(server), k2, sizeof k2) != KEY_LEN)
    return -1;
  memcpy(u->stored_key, k1, KEY_LEN);
  memcpy(u->server_key, k2, KEY_LEN);
  u->iterations = (int)it;
  u->name = strdup(line);
  return u->name ? 0 : -1;
}

void pg_users_free(pg_users_t *u) {
  if (!u) return;
  for (int i = 0; i < u->n; i++)
    free(u->users[i].name);
  free(u->users);
  OPENSSL_cleanse(u->mock_secret, sizeof u->mock_secret);
  free(u);
}

pg_users_t *pg_users_load(const char *path, FILE *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(err, "ERROR 58030: cannot read the users file \"%s\": %s\n", path, strerror(errno));
    return NULL;
  }
  pg_users_t *u = calloc(1, sizeof *u);
  if (!u || RAND_bytes(u->mock_secret, KEY_LEN) != 1) goto oom;
  char line[MAX_LINE];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0] || line[0] == '#') continue;
    if (u->n == MAX_USERS) {
      fprintf(err, "ERROR 54000: the users file \"%s\" has more than %d users\n", path, MAX_USERS);
      goto fail;
    }
    pg_user_t *grown = realloc(u->users, (size_t)(u->n + 1) * sizeof *grown);
    if (!grown) goto oom;
    u->users = grown;
    if (parse_line(line, &u->users[u->n]) != 0) {
      fprintf(err, "ERROR 22P02: the users file \"%s\", line %d: not NAME:SCRAM-SHA-256$...\n",
              path, lineno);
      goto fail;
    }
    u->n++;
  }
  fclose(f);
  return u;
oom:
  fprintf(err, "ERROR 53200: out of memory\n");
fail:
  fclose(f);
  pg_users_free(u);
  return NULL;
}

int hl_pg_passwd(const char *path, const char *user, const char *password, FILE *err) {
  if (!*user || strpbrk(user, ":\n\r#") || strlen(user) > 200) {
    fprintf(err, "ERROR 22023: a user name must be 1 to 200 characters without ':' or '#'\n");
    return 1;
  }
  if (!*password) {
    fprintf(err, "ERROR 22023: the password is empty\n");
    return 1;
  }
  unsigned char salt[SALT_LEN], stored[KEY_LEN], server[KEY_LEN];
  if (RAND_bytes(salt, SALT_LEN) != 1 ||
      derive(password, salt, SALT_LEN, ITERATIONS, stored, server) != 0) {
    fprintf(err, "ERROR 58000: cannot derive the keys\n");
    return 1;
  }
  char s64[32], k1[48], k2[48];
  b64_encode(salt, SALT_LEN, s64);
  b64_encode(stored, KEY_LEN, k1);
  b64_encode(server, KEY_LEN, k2);
  size_t plen = strlen(path);
  char *tmp = malloc(plen + 8);
  if (!tmp) return 1;
  snprintf(tmp, plen + 8, "%s.tmpXX", path);
  FILE *in = fopen(path, "r");
  if (!in && errno != ENOENT) {
    fprintf(err, "ERROR 58030: cannot read \"%s\": %s\n", path, strerror(errno));
    free(tmp);
    return 1;
  }
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out) {
    fprintf(err, "ERROR 58030: cannot write \"%s\": %s\n", tmp, strerror(errno));
    if (fd >= 0) close(fd);
    if (in) fclose(in);
    free(tmp);
    return 1;
  }
  char line[MAX_LINE];
  size_t ulen = strlen(user);
  while (in && fgets(line, sizeof line, in)) {
    if (strncmp(line, user, ulen) == 0 && line[ulen] == ':') continue; /* replaced below */
    fputs(line, out);
    if (!strchr(line, '\n')) fputc('\n', out);
  }
  fprintf(out, "%s:SCRAM-SHA-256$%d:%s$%s:%s\n", user, ITERATIONS, s64, k1, k2);
  int bad = ferror(out) | (in ? ferror(in) : 0);
  if (in) fclose(in);
  if (fflush(out) != 0 || fsync(fileno(out)) != 0) bad = 1;
  if (fclose(out) != 0) bad = 1;
  if (bad || rename(tmp, path) != 0) {
    fprintf(err, "ERROR 58030: cannot write \"%s\": %s\n", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return 1;
  }
  free(tmp);
  return 0;
}

/* ---- the exchange ---- */

static void send_auth(pg_conn_t *c, int32_t code, const void *data, size_t n) {
  pg_msg_begin(&c->io.out, 'R');
  pg_put_i32(&c->io.out, code);
  pg_put_bytes(&c->io.out, data, n);
  pg_msg_end(&c->io.out);
}

static void auth_failed(pg_conn_t *c) {
  char msg[300];
  snprintf(msg, sizeof msg, "password authentication failed for user \"%s\"", c->user);
  pg_send_error(c, "FATAL", "28P01", msg, 0);
  pg_io_flush(&c->io);
}

/* The next message, which must be a 'p' (password / SASL response). */
static int read_p(pg_conn_t *c, pg_frame_t *f) {
  if (pg_io_flush(&c->io) != PG_IO_OK) return -1;
  if (pg_io_next(&c->io, 0, 0, f) != PG_IO_OK) return -1;
  if (f->type != 'p') {
    pg_send_error(c, "FATAL", "08P01", "expected a password response", 0);
    pg_io_flush(&c->io);
    return -1;
  }
  return 0;
}

static const pg_user_t *lookup(pg_users_t *u, const char *name, pg_user_t *mock) {
  for (int i = 0; i < u->n; i++)
    if (strcmp(u->users[i].name, name) == 0) return &u->users[i];
  /* a stable salt for this name, so that repeated tries look alike */
  unsigned char h[KEY_LEN];
  hmac(u->mock_secret, KEY_LEN, name, strlen(name), h);
  memset(mock, 0, sizeof *mock);
  memcpy(mock->salt, h, SALT_LEN);
  mock->salt_len = SALT_LEN;
  mock->iterations = ITERATIONS;
  RAND_bytes(mock->stored_key, KEY_LEN); /* matches no proof */
  return NULL;
}

/* The value of attribute KEY ("r=") in a comma-separated SCRAM message, as
 * [*v, *v + *n); -1 when absent. */
static int attr(const char *msg, size_t len, char key, const char **v, size_t *n) {
  const char *p = msg, *end = msg + len;
  while (p < end) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *stop = comma ? comma : end;
    if (stop - p >= 2 && p[0] == key && p[1] == '=') {
      *v = p + 2;
      *n = (size_t)(stop - p - 2);
      return 0;
    }
    p = stop + 1;
  }
  return -1;
}

static int scram(pg_conn_t *c) {
  static const char mech[] = "SCRAM-SHA-256\0";
  send_auth(c, 10, mech, sizeof mech);
  pg_frame_t f;
  if (read_p(c, &f) != 0) return -1;
  pg_sasl_initial_t init;
  if (pg_decode_sasl_initial(f.body, f.body_len, &init) != 0 || !init.data) {
    pg_send_error(c, "FATAL", "08P01", "malformed SASLInitialResponse", 0);
    pg_io_flush(&c->io);
    return -1;
  }
  if (strcmp(init.mechanism, "SCRAM-SHA-256") != 0) {
    pg_send_error(c, "FATAL", "28000", "the client selected an invalid SASL mechanism", 0);
    pg_io_flush(&c->io);
    return -1;
  }
  /* client-first: gs2 header "n,," or "y,," (optional a=authzid), then the bare part */
  const char *d = (const char *)init.data;
  size_t dl = init.data_len;
  if (memchr(d, 0, dl) || dl < 3 || (d[0] != 'n' && d[0] != 'y') || d[1] != ',') {
    pg_send_error(c, "FATAL", "08P01",
                  d && dl && d[0] == 'p' ? "channel binding is not supported"
                                         : "malformed SCRAM client-first message",
                  0);
    pg_io_flush(&c->io);
    return -1;
  }
  const char *comma = memchr(d + 2, ',', dl - 2);
  if (!comma) return -1;
  size_t gs2_len = (size_t)(comma + 1 - d);
  const char *bare = comma + 1;
  size_t bare_len = dl - gs2_len;
  const char *cnonce;
  size_t cnonce_len;
  if (attr(bare, bare_len, 'r', &cnonce, &cnonce_len) != 0 || cnonce_len == 0 || cnonce_len > 200 ||
      bare_len > 500) {
    pg_send_error(c, "FATAL", "08P01", "malformed SCRAM client-first message", 0);
    pg_io_flush(&c->io);
    return -1;
  }
  pg_user_t mock;
  const pg_user_t *u = lookup(c->srv->users, c->user, &mock);
  const pg_user_t *k = u ? u : &mock;
  unsigned char rnd[18];
  char snonce[32], salt64[96];
  if (RAND_bytes(rnd, sizeof rnd) != 1) return -1;
  b64_encode(rnd, sizeof rnd, snonce);
  b64_encode(k->salt, (size_t)k->salt_len, salt64);
  char server_first[512];
  int sf_len = snprintf(server_first, sizeof server_first, "r=%.*s%s,s=%s,i=%d", (int)cnonce_len,
                        cnonce, snonce, salt64, k->iterations);
  send_auth(c, 11, server_first, (size_t)sf_len);
  /* client-final: c=<gs2 header b64>,r=<nonce>[,...],p=<proof>; what it is
   * checked against is copied now, as the next read reuses the buffer */
  char gs2_b64[400];
  if (gs2_len > 280) return -1;
  b64_encode((const unsigned char *)d, gs2_len, gs2_b64);
  char bare_copy[512];
  memcpy(bare_copy, bare, bare_len);
  bare_copy[bare_len] = '\0';
  if (read_p(c, &f) != 0) return -1;
  const char *fin = (const char *)f.body;
  size_t fin_len = f.body_len;
  const char *proof = NULL, *cb, *nonce;
  size_t proof_len = 0, cb_len, nonce_len;
  for (size_t i = 0; i + 3 <= fin_len; i++)
    if (fin[i] == ',' && fin[i + 1] == 'p' && fin[i + 2] == '=') {
      proof = fin + i + 3;
      proof_len = fin_len - i - 3;
    }
  size_t without_len = proof ? (size_t)(proof - 3 - fin) : 0;
  int ok = proof && !memchr(fin, 0, fin_len) && attr(fin, without_len, 'c', &cb, &cb_len) == 0 &&
           cb_len == strlen(gs2_b64) && memcmp(cb, gs2_b64, cb_len) == 0 &&
           attr(fin, without_len, 'r', &nonce, &nonce_len) == 0 &&
           nonce_len == strcspn(server_first + 2, ",") &&
           memcmp(nonce, server_first + 2, nonce_len) == 0;
  unsigned char proof_bytes[48], sig[KEY_LEN], client_key[KEY_LEN], check[KEY_LEN];
  if (ok) ok = b64_decode(proof, proof_len, proof_bytes, sizeof proof_bytes) == KEY_LEN;
  /* AuthMessage = client-first-bare "," server-first "," client-final-without-proof */
  size_t am_len = bare_len + 1 + (size_t)sf_len + 1 + without_len;
  char *am = ok ? malloc(am_len + 1) : NULL;
  if (ok && !am) ok = 0;
  if (ok) {
    snprintf(am, am_len + 1, "%s,%s,%.*s", bare_copy, server_first, (int)without_len, fin);
    hmac(k->stored_key, KEY_LEN, am, am_len, sig);
    for (int i = 0; i < KEY_LEN; i++)
      client_key[i] = proof_bytes[i] ^ sig[i];
    SHA256(client_key, KEY_LEN, check);
    ok = u && CRYPTO_memcmp(check, k->stored_key, KEY_LEN) == 0;
  }
  if (!ok) {
    free(am);
    auth_failed(c);
    return -1;
  }
  unsigned char server_sig[KEY_LEN];
  char final_msg[64] = "v=";
  hmac(k->server_key, KEY_LEN, am, am_len, server_sig);
  free(am);
  b64_encode(server_sig, KEY_LEN, final_msg + 2);
  send_auth(c, 12, final_msg, strlen(final_msg));
  return 0;
}

static int cleartext(pg_conn_t *c) {
  send_auth(c, 3, NULL, 0);
  pg_frame_t f;
  if (read_p(c, &f) != 0) return -1;
  if (!f.body_len || f.body[f.body_len - 1] != 0) {
    pg_send_error(c, "FATAL", "08P01", "malformed password message", 0);
    pg_io_flush(&c->io);
    return -1;
  }
  pg_user_t mock;
  const pg_user_t *u = lookup(c->srv->users, c->user, &mock);
  unsigned char stored[KEY_LEN], server[KEY_LEN];
  if (!u ||
      derive((const char *)f.body, u->salt, u->salt_len, u->iterations, stored, server) != 0 ||
      CRYPTO_memcmp(stored, u->stored_key, KEY_LEN) != 0) {
    auth_failed(c);
    return -1;
  }
  return 0;
}

int pg_auth_run(pg_conn_t *c) {
  int rc = 0;
  if (c->srv->users) {
    /* a cleartext password only inside TLS; SCRAM everywhere else */
    rc = c->srv->cfg->allow_cleartext && c->is_tls ? cleartext(c) : scram(c);
  }
  if (rc != 0) return -1;
  send_auth(c, 0, NULL, 0);
  return 0;
}
