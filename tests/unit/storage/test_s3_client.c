/*
 * test_s3_client.c -- the S3 client without a network: reply header
 * lines, URL building for both addressing styles, retry classification
 * and backoff, and whole calls against a loopback HTTP server thread of
 * this test that answers canned replies in order, so that retries,
 * truncated bodies, redirects, 200-with-error, ETag changes and the exact
 * number of requests are deterministic.
 */
#include "storage/s3/s3_client_int.h"
#include "test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define SECRET       "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

/* ---- header lines */

static hl_status_t hdr(hl_s3_resp_headers_t *h, const char *line, hl_error_t *err) {
  return hl_s3_parse_header_line(h, line, strlen(line), err);
}

TEST(header_lines) {
  hl_s3_resp_headers_t h;
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_resp_headers_init(&h);
  CHECK_INT(h.content_length, -1);
  CHECK_INT(hdr(&h, "HTTP/1.1 206 Partial Content\r\n", &err), HL_OK);
  CHECK_INT(hdr(&h, "Content-Length: 100\r\n", &err), HL_OK);
  CHECK_INT(h.content_length, 100);
  CHECK_INT(hdr(&h, "content-length:0", &err), HL_OK);
  CHECK_INT(h.content_length, 0);
  CHECK_INT(hdr(&h, "CONTENT-LENGTH: \t9223372036854775807 \r\n", &err), HL_OK);
  CHECK_INT(h.content_length, INT64_MAX);
  CHECK_INT(hdr(&h, "Content-Range: bytes 0-99/1000\r\n", &err), HL_OK);
  CHECK(h.has_range);
  CHECK_INT(h.range_first, 0);
  CHECK_INT(h.range_last, 99);
  CHECK_INT(h.range_total, 1000);
  CHECK_INT(hdr(&h, "Content-Range: bytes */1000\r\n", &err), HL_OK);
  CHECK(!h.has_range);
  CHECK_INT(h.range_total, 1000);
  CHECK_INT(hdr(&h, "ETag: \"9b2cf535f27731c974343645a3985328\"\r\n", &err), HL_OK);
  CHECK_STR(h.etag, "\"9b2cf535f27731c974343645a3985328\"");
  CHECK_INT(hdr(&h, "x-amz-request-id: 4442587FB7D0A2F9\r\n", &err), HL_OK);
  CHECK_STR(h.request_id, "4442587FB7D0A2F9");
  CHECK_INT(hdr(&h, "Location: https://bkt.s3.eu-west-1.amazonaws.com/k\r\n", &err), HL_OK);
  CHECK_STR(h.location, "https://bkt.s3.eu-west-1.amazonaws.com/k");
  CHECK_INT(hdr(&h, "X-Amz-Bucket-Region: eu-west-1\r\n", &err), HL_OK);
  CHECK_STR(h.region, "eu-west-1");
  CHECK_INT(hdr(&h, "Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT\r\n", &err), HL_OK);
  CHECK_INT(h.mtime_ns, 1445412480LL * 1000000000LL);
  CHECK_INT(hdr(&h, "Last-Modified: Thu, 01 Jan 1970 00:00:00 GMT", &err), HL_OK);
  CHECK_INT(h.mtime_ns, 0);
  CHECK_INT(hdr(&h, "Last-Modified: Tue, 29 Feb 2028 23:59:59 GMT", &err), HL_OK);
  CHECK_INT(h.mtime_ns, 1835481599LL * 1000000000LL);
  /* unknown names and lines without a colon are ignored */
  CHECK_INT(hdr(&h, "X-Other: Content-Length: 5\r\n", &err), HL_OK);
  CHECK_INT(hdr(&h, "\r\n", &err), HL_OK);
  CHECK_INT(hdr(&h, "", &err), HL_OK);
  CHECK_INT(h.content_length, INT64_MAX);
  CHECK_INT(err.code, HL_OK);
  /* a value exactly the field's size less one fits */
  char line[200];
  snprintf(line, sizeof line, "ETag: %0127d", 7);
  CHECK_INT(hdr(&h, line, &err), HL_OK);
  CHECK_INT(strlen(h.etag), 127);
}

/* LINE must be refused with 08P01 and the message MSG. */
static void bad(const char *line, const char *msg) {
  hl_s3_resp_headers_t h;
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_resp_headers_init(&h);
  CHECK_INT(hdr(&h, line, &err), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, msg);
  hl_err_clear(&err);
}

TEST(header_lines_bad) {
  bad("Content-Length: -1", "malformed \"Content-Length\" header in the S3 reply: \"-1\"");
  bad("Content-Length: +5", "malformed \"Content-Length\" header in the S3 reply: \"+5\"");
  bad("Content-Length: ", "malformed \"Content-Length\" header in the S3 reply: \"\"");
  bad("Content-Length: 12 34", "malformed \"Content-Length\" header in the S3 reply: \"12 34\"");
  bad("Content-Length: 9223372036854775808",
      "malformed \"Content-Length\" header in the S3 reply: \"9223372036854775808\"");
  bad("Content-Length: 0x10", "malformed \"Content-Length\" header in the S3 reply: \"0x10\"");
  bad("Content-Range: bytes 5-4/10",
      "malformed \"Content-Range\" header in the S3 reply: \"bytes 5-4/10\"");
  bad("Content-Range: bytes 0-10/10",
      "malformed \"Content-Range\" header in the S3 reply: \"bytes 0-10/10\"");
  bad("Content-Range: bytes 0-9/*",
      "malformed \"Content-Range\" header in the S3 reply: \"bytes 0-9/*\"");
  bad("Content-Range: items 0-9/10",
      "malformed \"Content-Range\" header in the S3 reply: \"items 0-9/10\"");
  bad("Content-Range: bytes 0-/10",
      "malformed \"Content-Range\" header in the S3 reply: \"bytes 0-/10\"");
  bad("Content-Range: bytes -9/10",
      "malformed \"Content-Range\" header in the S3 reply: \"bytes -9/10\"");
  bad("Content-Range: bytes 0-18446744073709551616/18446744073709551617",
      "malformed \"Content-Range\" header in the S3 reply: "
      "\"bytes 0-18446744073709551616/18446744073709551617\"");
  bad("Last-Modified: 2015-10-21T07:28:00Z",
      "malformed \"Last-Modified\" header in the S3 reply: \"2015-10-21T07:28:00Z\"");
  bad("Last-Modified: Wed, 21 Foo 2015 07:28:00 GMT",
      "malformed \"Last-Modified\" header in the S3 reply: \"Wed, 21 Foo 2015 07:28:00 GMT\"");
  bad("Last-Modified: Wed, 21 Oct 2015 25:28:00 GMT",
      "malformed \"Last-Modified\" header in the S3 reply: \"Wed, 21 Oct 2015 25:28:00 GMT\"");
  /* found by fuzz.s3_http: a year whose nanoseconds overflow */
  bad("Last-Modified: Mon, 01 Jan 0001 00:00:00 GMT",
      "malformed \"Last-Modified\" header in the S3 reply: \"Mon, 01 Jan 0001 00:00:00 GMT\"");
  bad("Last-Modified: Mon, 01 Jan 2300 00:00:00 GMT",
      "malformed \"Last-Modified\" header in the S3 reply: \"Mon, 01 Jan 2300 00:00:00 GMT\"");
  char line[700];
  snprintf(line, sizeof line, "ETag: %0128d", 7);
  bad(line, "\"ETag\" header of the S3 reply is too long (128 bytes, at most 127)");
  snprintf(line, sizeof line, "Location: http://x/%0600d", 7);
  bad(line, "\"Location\" header of the S3 reply is too long (609 bytes, at most 511)");
  snprintf(line, sizeof line, "x-amz-bucket-region: %064d", 7);
  bad(line, "\"x-amz-bucket-region\" header of the S3 reply is too long (64 bytes, at most 63)");
}

/* ---- URLs */

TEST(urls) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_endpoint_t ep;
  hl_s3_url_t u;
  CHECK_INT(hl_s3_endpoint_parse("http://127.0.0.1:9000", "us-east-1", true, a, &ep, &err), HL_OK);
  CHECK_INT(hl_s3_build_url(&ep, "bkt", "dir/a b+c=%.parquet", NULL, a, &u, &err), HL_OK);
  CHECK_STR(u.url, "http://127.0.0.1:9000/bkt/dir/a%20b%2Bc%3D%25.parquet");
  CHECK_STR(u.host, "127.0.0.1:9000");
  CHECK_STR(u.path, "/bkt/dir/a%20b%2Bc%3D%25.parquet");
  CHECK_INT(hl_s3_build_url(&ep, "bkt", NULL, "list-type=2&prefix=a%2Fb", a, &u, &err), HL_OK);
  CHECK_STR(u.url, "http://127.0.0.1:9000/bkt?list-type=2&prefix=a%2Fb");
  CHECK_STR(u.path, "/bkt");
  /* virtual-hosted: the bucket in the host */
  CHECK_INT(hl_s3_endpoint_parse("https://minio.local/", "us-east-1", false, a, &ep, &err), HL_OK);
  CHECK_INT(hl_s3_build_url(&ep, "bkt", "x/\xc3\xa9~_-.", "uploads=", a, &u, &err), HL_OK);
  CHECK_STR(u.url, "https://bkt.minio.local/x/%C3%A9~_-.?uploads=");
  CHECK_STR(u.host, "bkt.minio.local");
  CHECK_STR(u.path, "/x/%C3%A9~_-.");
  CHECK_INT(hl_s3_build_url(&ep, "bkt", NULL, NULL, a, &u, &err), HL_OK);
  CHECK_STR(u.url, "https://bkt.minio.local/");
  CHECK_STR(u.path, "/");
  /* AWS by default */
  CHECK_INT(hl_s3_endpoint_parse(NULL, "eu-west-1", false, a, &ep, &err), HL_OK);
  CHECK(ep.https);
  CHECK_INT(hl_s3_build_url(&ep, "bkt", "k", NULL, a, &u, &err), HL_OK);
  CHECK_STR(u.url, "https://bkt.s3.eu-west-1.amazonaws.com/k");
  CHECK_INT(hl_s3_endpoint_parse("", "us-east-1", true, a, &ep, &err), HL_OK);
  CHECK_INT(hl_s3_build_url(&ep, "bkt", "k", NULL, a, &u, &err), HL_OK);
  CHECK_STR(u.url, "https://s3.us-east-1.amazonaws.com/bkt/k");
  CHECK_INT(err.code, HL_OK);
  const char *bad_eps[] = {"ftp://h",       "h:9000",       "http://",
                           "http://h/path", "http://u:p@h", "http://h?x"};
  for (size_t i = 0; i < sizeof bad_eps / sizeof bad_eps[0]; i++) {
    CHECK_INT(hl_s3_endpoint_parse(bad_eps[i], "us-east-1", true, a, &ep, &err), HL_ERROR);
    CHECK_STR(err.sqlstate, "22023");
    hl_err_clear(&err);
  }
  hl_arena_destroy(a);
}

TEST(classify) {
  CHECK_INT(hl_s3_classify(false, 0, NULL), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 200, NULL), HL_S3_FAIL_NONE);
  CHECK_INT(hl_s3_classify(true, 206, NULL), HL_S3_FAIL_NONE);
  CHECK_INT(hl_s3_classify(true, 200, "InternalError"), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 200, "AccessDenied"), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 500, NULL), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 502, NULL), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 503, "SlowDown"), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 504, NULL), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 429, NULL), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 400, "RequestTimeout"), HL_S3_FAIL_TRANSIENT);
  CHECK_INT(hl_s3_classify(true, 400, "InvalidArgument"), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 501, NULL), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 404, "NoSuchKey"), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 403, "AccessDenied"), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 301, "PermanentRedirect"), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 307, NULL), HL_S3_FAIL_FINAL);
  CHECK_INT(hl_s3_classify(true, 412, "PreconditionFailed"), HL_S3_FAIL_FINAL);

  hl_status_t st;
  const char *ss;
  hl_s3_error_state(404, "NoSuchKey", false, &st, &ss);
  CHECK_INT(st, HL_NOTFOUND);
  CHECK_STR(ss, "58P01");
  hl_s3_error_state(404, "NoSuchUpload", false, &st, &ss);
  CHECK_STR(ss, "58P01");
  hl_s3_error_state(404, NULL, false, &st, &ss);
  CHECK_STR(ss, "58P01");
  hl_s3_error_state(403, "SignatureDoesNotMatch", false, &st, &ss);
  CHECK_STR(ss, "28000");
  hl_s3_error_state(403, "InvalidAccessKeyId", false, &st, &ss);
  CHECK_STR(ss, "28000");
  hl_s3_error_state(403, NULL, false, &st, &ss);
  CHECK_STR(ss, "28000");
  hl_s3_error_state(412, "PreconditionFailed", true, &st, &ss);
  CHECK_INT(st, HL_CONSTRAINT);
  CHECK_STR(ss, "58P02");
  hl_s3_error_state(412, "PreconditionFailed", false, &st, &ss);
  CHECK_STR(ss, "55000");
  hl_s3_error_state(503, "SlowDown", false, &st, &ss);
  CHECK_INT(st, HL_IOERR);
  CHECK_STR(ss, "58030");
}

TEST(backoff) {
  uint64_t s = 12345;
  int64_t max_seen[8] = {0};
  for (int i = 0; i < 2000; i++)
    for (int att = 0; att < 8; att++) {
      int64_t d = hl_s3_backoff_ms(&s, 100, att);
      CHECK(d >= 0);
      int64_t ceil = 100LL << att;
      if (ceil > HL_S3_BACKOFF_CAP_MS) ceil = HL_S3_BACKOFF_CAP_MS;
      CHECK(d < ceil);
      if (d > max_seen[att]) max_seen[att] = d;
    }
  /* full jitter spreads over the whole window */
  CHECK(max_seen[0] >= 90);
  CHECK(max_seen[7] >= 4500);
  uint64_t z = 0;
  CHECK(hl_s3_backoff_ms(&z, 100, 0) < 100);
  CHECK(z != 0);
}

/* ---- a loopback HTTP server of canned replies */

typedef struct canned {
  const char *text; /* the raw reply; NULL: close the connection without one */
  int delay_ms;     /* sleep after sending, before closing */
} canned_t;

#define MAX_REQS 8
typedef struct srv {
  int fd, port;
  pthread_t tid;
  const canned_t *replies;
  size_t n_replies;
  pthread_mutex_t mu;
  int n_requests;
  char heads[MAX_REQS][4096]; /* request line and headers of the first requests */
  char *bodies[MAX_REQS];
  size_t body_lens[MAX_REQS];
  volatile int stop;
} srv_t;

static size_t find_clen(const char *head) {
  const char *p = head;
  while ((p = strchr(p, '\n')) != NULL) {
    p++;
    if (strncasecmp(p, "content-length:", 15) == 0) return strtoul(p + 15, NULL, 10);
  }
  return 0;
}

static void *srv_main(void *arg) {
  srv_t *s = arg;
  for (;;) {
    int c = accept(s->fd, NULL, NULL);
    if (c < 0 || s->stop) {
      if (c >= 0) close(c);
      break;
    }
    char head[65536];
    size_t n = 0;
    char *end = NULL;
    while (n < sizeof head - 1) {
      ssize_t k = read(c, head + n, sizeof head - 1 - n);
      if (k <= 0) break;
      n += (size_t)k;
      head[n] = '\0';
      if ((end = strstr(head, "\r\n\r\n")) != NULL) break;
    }
    if (!end) {
      close(c);
      continue;
    }
    size_t hn = (size_t)(end - head) + 4, clen = find_clen(head);
    char *body = malloc(clen + 1);
    size_t have = n - hn < clen ? n - hn : clen;
    memcpy(body, head + hn, have);
    while (have < clen) {
      ssize_t k = read(c, body + have, clen - have);
      if (k <= 0) break;
      have += (size_t)k;
    }
    body[have] = '\0'; /* the checks search it as text */
    pthread_mutex_lock(&s->mu);
    int i = s->n_requests++;
    if (i < MAX_REQS) {
      snprintf(s->heads[i], sizeof s->heads[i], "%.*s", (int)hn, head);
      s->bodies[i] = body;
      s->body_lens[i] = have;
      body = NULL;
    }
    pthread_mutex_unlock(&s->mu);
    free(body);
    const canned_t *r = (size_t)i < s->n_replies ? &s->replies[i] : NULL;
    const char *none = "HTTP/1.1 418 No More Canned Replies\r\nContent-Length: 0\r\n"
                       "Connection: close\r\n\r\n";
    const char *text = r ? r->text : none;
    char fixed[8192];
    const char *at = text ? strstr(text, "Content-Length: @\r\n") : NULL;
    if (at) { /* "@": the body's real length */
      const char *b = strstr(text, "\r\n\r\n");
      snprintf(fixed, sizeof fixed, "%.*sContent-Length: %zu%s", (int)(at - text), text,
               b ? strlen(b + 4) : 0, at + 17);
      text = fixed;
    }
    if (text) {
      size_t left = strlen(text);
      while (left > 0) {
        ssize_t k = write(c, text, left);
        if (k <= 0) break;
        text += k;
        left -= (size_t)k;
      }
    }
    if (r && r->delay_ms) {
      struct timespec ts = {r->delay_ms / 1000, (r->delay_ms % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    }
    shutdown(c, SHUT_WR);
    close(c);
  }
  return NULL;
}

static void srv_start(srv_t *s, const canned_t *replies, size_t n) {
  memset(s, 0, sizeof *s);
  s->replies = replies;
  s->n_replies = n;
  pthread_mutex_init(&s->mu, NULL);
  s->fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  CHECK_INT(bind(s->fd, (struct sockaddr *)&sa, sizeof sa), 0);
  CHECK_INT(listen(s->fd, 64), 0);
  socklen_t sl = sizeof sa;
  getsockname(s->fd, (struct sockaddr *)&sa, &sl);
  s->port = ntohs(sa.sin_port);
  pthread_create(&s->tid, NULL, srv_main, s);
}

static void srv_stop(srv_t *s) {
  s->stop = 1;
  int c = socket(AF_INET, SOCK_STREAM, 0); /* wakes accept */
  struct sockaddr_in sa = {.sin_family = AF_INET,
                           .sin_port = htons((uint16_t)s->port),
                           .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  connect(c, (struct sockaddr *)&sa, sizeof sa);
  close(c);
  pthread_join(s->tid, NULL);
  close(s->fd);
  for (int i = 0; i < MAX_REQS; i++)
    free(s->bodies[i]);
  pthread_mutex_destroy(&s->mu);
}

static bool has_line(const char *head, const char *line) {
  char want[600];
  snprintf(want, sizeof want, "\r\n%s\r\n", line);
  return strstr(head, want) != NULL;
}

static hl_s3_client_t *client_for(srv_t *s, bool anonymous, int attempts) {
  char ep[64];
  snprintf(ep, sizeof ep, "http://127.0.0.1:%d", s->port);
  hl_s3_config_t cfg = {.endpoint = ep,
                        .region = "us-east-1",
                        .path_style = true,
                        .access_key = anonymous ? NULL : "AKIDEXAMPLE",
                        .secret_key = anonymous ? NULL : SECRET,
                        .max_attempts = attempts,
                        .retry_base_ms = 1,
                        .connect_timeout_ms = 2000,
                        .request_timeout_ms = 800};
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_client_t *c = hl_s3_client_create(&cfg, &err);
  CHECK(c != NULL);
  hl_err_clear(&err);
  return c;
}

#define SLOWDOWN                                                                                   \
  "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nConnection: close\r\n"               \
  "Content-Length: @\r\n\r\n"                                                                      \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"                       \
  "<Message>Please reduce your request rate</Message><RequestId>R1</RequestId></Error>"
#define RANGE_OK                                                                                   \
  "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/20\r\nETag: \"e1\"\r\n"                \
  "Content-Length: 10\r\nConnection: close\r\n\r\n0123456789"

static size_t nreq(srv_t *s) {
  pthread_mutex_lock(&s->mu);
  size_t n = (size_t)s->n_requests;
  pthread_mutex_unlock(&s->mu);
  return n;
}

TEST(get_retries_then_succeeds) {
  const canned_t replies[] = {
      {SLOWDOWN, 0},
      {"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0},
      {RANGE_OK, 0}};
  srv_t s;
  srv_start(&s, replies, 3);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  char buf[10];
  size_t got = 0;
  CHECK_INT(hl_s3_get_range(c, "bkt", "dir/a b", "\"e1\"", 0, 10, buf, &got, &err), HL_OK);
  CHECK_INT(got, 10);
  CHECK(memcmp(buf, "0123456789", 10) == 0);
  CHECK_INT(nreq(&s), 3);
  hl_s3_stats_t st;
  hl_s3_client_stats(c, &st);
  CHECK_INT(st.requests[HL_S3_GET], 3);
  CHECK_INT(st.retries, 2);
  CHECK_INT(st.bytes_in, strlen(strstr(SLOWDOWN, "\r\n\r\n") + 4) + 10);
  char hostline[64];
  snprintf(hostline, sizeof hostline, "Host: 127.0.0.1:%d", s.port);
  for (int i = 0; i < 3; i++) {
    CHECK(strncmp(s.heads[i], "GET /bkt/dir/a%20b HTTP/1.1\r\n", 29) == 0);
    CHECK(has_line(s.heads[i], hostline));
    CHECK(has_line(s.heads[i], "Range: bytes=0-9"));
    CHECK(has_line(s.heads[i], "If-Match: \"e1\""));
    CHECK(has_line(s.heads[i], "x-amz-content-sha256: " EMPTY_SHA256));
    CHECK(strstr(s.heads[i], "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") !=
          NULL);
    CHECK(strstr(s.heads[i], "SignedHeaders=host;x-amz-content-sha256;x-amz-date,") != NULL);
    CHECK(strstr(s.heads[i], SECRET) == NULL);
  }
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(get_gives_up) {
  const canned_t replies[] = {{SLOWDOWN, 0}, {SLOWDOWN, 0}, {SLOWDOWN, 0},
                              {SLOWDOWN, 0}, {SLOWDOWN, 0}, {RANGE_OK, 0}};
  srv_t s;
  srv_start(&s, replies, 6);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  char buf[100];
  size_t got = 0;
  CHECK_INT(hl_s3_get_range(c, "bucket", "key", NULL, 0, 100, buf, &got, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message, "could not GET s3://bucket/key (bytes 0-99): HTTP 503 SlowDown "
                         "\"Please reduce your request rate\" after 5 attempts");
  CHECK_INT(nreq(&s), 5);
  hl_err_clear(&err);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(truncated_and_dropped_replies_are_retried) {
  const canned_t replies[] = {/* the connection ends after 5 of 10 bytes */
                              {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/20\r\n"
                               "Content-Length: 10\r\nConnection: close\r\n\r\n01234",
                               0},
                              {NULL, 0}, /* closed without a reply */
                              /* a stalled body: the request times out (800 ms) */
                              {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/20\r\n"
                               "Content-Length: 10\r\nConnection: close\r\n\r\n0123",
                               1500},
                              /* the wrong range */
                              {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-14/20\r\n"
                               "Content-Length: 10\r\nConnection: close\r\n\r\n5678901234",
                               0},
                              {RANGE_OK, 0}};
  srv_t s;
  srv_start(&s, replies, 5);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  char buf[10];
  size_t got = 0;
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 0, 10, buf, &got, &err), HL_OK);
  CHECK_INT(got, 10);
  CHECK(memcmp(buf, "0123456789", 10) == 0);
  CHECK_INT(nreq(&s), 5);
  if (err.code) fprintf(stderr, "%s\n", err.message);
  hl_err_clear(&err);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(wrong_range_gives_up_as_protocol_violation) {
  const char *wrong = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n"
                      "abcdefghij";
  const canned_t replies[] = {{wrong, 0}, {wrong, 0}};
  srv_t s;
  srv_start(&s, replies, 2);
  hl_s3_client_t *c = client_for(&s, false, 2);
  hl_error_t err;
  hl_err_init(&err);
  char buf[10];
  size_t got;
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 10, 10, buf, &got, &err), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, "could not GET s3://bkt/k (bytes 10-19): the reply (HTTP 200, 10 bytes) "
                         "is not the range asked for after 2 attempts");
  CHECK_INT(nreq(&s), 2);
  hl_err_clear(&err);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(redirect_is_refused) {
  const canned_t replies[] = {
      {"HTTP/1.1 301 Moved Permanently\r\nx-amz-bucket-region: eu-west-1\r\n"
       "Location: http://127.0.0.1:1/elsewhere\r\nContent-Type: application/xml\r\n"
       "Content-Length: @\r\nConnection: close\r\n\r\n"
       "<Error><Code>PermanentRedirect</Code><Message>Use the specified endpoint.</Message>"
       "<Endpoint>x</Endpoint></Error>",
       0}};
  srv_t s;
  srv_start(&s, replies, 1);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  bool exists;
  hl_s3_object_t o;
  hl_arena_t *a = hl_arena_create(0);
  char *etag;
  CHECK_INT(hl_s3_put(c, "bkt", "k", "x", 1, false, a, &etag, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK_STR(err.message, "could not PUT s3://bkt/k: HTTP 301 PermanentRedirect \"Use the specified "
                         "endpoint.\": the bucket is in region \"eu-west-1\" (Location "
                         "\"http://127.0.0.1:1/elsewhere\"); redirects are not followed");
  CHECK_INT(nreq(&s), 1);
  CHECK(has_line(s.heads[0], "x-amz-content-sha256: "
                             "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"));
  CHECK(s.body_lens[0] == 1 && s.bodies[0][0] == 'x');
  hl_err_clear(&err);
  (void)exists;
  (void)o;
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(etag_change_is_detected) {
  const canned_t replies[] = {
      {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/20\r\nETag: \"e2\"\r\n"
       "Content-Length: 10\r\nConnection: close\r\n\r\n0123456789",
       0},
      {"HTTP/1.1 412 Precondition Failed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0}};
  srv_t s;
  srv_start(&s, replies, 2);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  char buf[10];
  size_t got;
  /* a server that ignores If-Match: the reply's ETag tells */
  CHECK_INT(hl_s3_get_range(c, "bkt", "t/f.parquet", "\"e1\"", 0, 10, buf, &got, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "55000");
  CHECK_STR(err.message, "could not GET s3://bkt/t/f.parquet (bytes 0-9): the object changed while "
                         "it was read (ETag \"e2\", expected \"e1\")");
  hl_err_clear(&err);
  CHECK_INT(hl_s3_get_range(c, "bkt", "t/f.parquet", "\"e1\"", 0, 10, buf, &got, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "55000");
  CHECK_STR(err.message, "could not GET s3://bkt/t/f.parquet (bytes 0-9): the object changed while "
                         "it was read (HTTP 412, expected ETag \"e1\")");
  CHECK_INT(nreq(&s), 2);
  hl_err_clear(&err);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

#define COMPLETE_OK                                                                                \
  "HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"                              \
  "<CompleteMultipartUploadResult><Bucket>bkt</Bucket><Key>k</Key><ETag>\"aa-2\"</ETag>"           \
  "</CompleteMultipartUploadResult>"

TEST(complete_200_with_error) {
  const canned_t replies[] = {
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<Error><Code>InternalError</Code><Message>We encountered an error</Message></Error>  ",
       0},
      {COMPLETE_OK, 0},
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>",
       0}};
  srv_t s;
  srv_start(&s, replies, 3);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(0);
  char *etags[] = {"\"p1\"", "\"p2\""};
  CHECK_INT(hl_s3_mpu_complete(c, "bkt", "k", "U/1", etags, 2, false, a, &err), HL_OK);
  CHECK_INT(nreq(&s), 2);
  CHECK(strncmp(s.heads[0], "POST /bkt/k?uploadId=U%2F1 HTTP/1.1\r\n", 37) == 0);
  CHECK(s.bodies[0] && strstr(s.bodies[0], "<PartNumber>2</PartNumber>") != NULL);
  CHECK_INT(hl_s3_mpu_complete(c, "bkt", "k", "U/1", etags, 2, true, a, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "28000");
  CHECK_STR(err.message,
            "could not complete the multipart upload of s3://bkt/k: HTTP 200 AccessDenied "
            "\"Access Denied\"");
  CHECK(has_line(s.heads[2], "If-None-Match: *"));
  CHECK_INT(nreq(&s), 3);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(complete_after_lost_reply) {
  const canned_t replies[] = {
      {NULL, 0}, /* completed, but the reply was lost */
      {"HTTP/1.1 404 Not Found\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<Error><Code>NoSuchUpload</Code><Message/></Error>\n\n",
       0},
      {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"aa-2\"\r\n"
       "Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT\r\nConnection: close\r\n\r\n",
       0},
      /* a second upload: lost reply, NoSuchUpload, and no object */
      {NULL, 0},
      {"HTTP/1.1 404 Not Found\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<Error><Code>NoSuchUpload</Code><Message/></Error>\n\n",
       0},
      {"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0}};
  srv_t s;
  srv_start(&s, replies, 6);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(0);
  char *etags[] = {"\"p1\"", "\"p2\""};
  CHECK_INT(hl_s3_mpu_complete(c, "bkt", "k", "U1", etags, 2, false, a, &err), HL_OK);
  CHECK_INT(nreq(&s), 3);
  CHECK(strncmp(s.heads[2], "HEAD /bkt/k HTTP/1.1\r\n", 22) == 0);
  CHECK_INT(hl_s3_mpu_complete(c, "bkt", "k", "U1", etags, 2, false, a, &err), HL_NOTFOUND);
  CHECK_STR(err.sqlstate, "58P01");
  CHECK_STR(err.message, "could not complete the multipart upload of s3://bkt/k: HTTP 404 "
                         "NoSuchUpload after 2 attempts");
  CHECK_INT(nreq(&s), 6);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(complete_after_lost_reply_checks_the_s3_etag) {
  /* parts with MD5 ETags: the object's ETag must be the MD5 of their MD5s */
  const char *nsu = "HTTP/1.1 404 Not Found\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
                    "<Error><Code>NoSuchUpload</Code></Error>";
  const canned_t replies[] = {
      {NULL, 0},
      {nsu, 0},
      {"HTTP/1.1 200 OK\r\nContent-Length: 16\r\n"
       "ETag: \"0732917abc3288784e318ac0aab1757a-2\"\r\nConnection: close\r\n\r\n",
       0},
      {NULL, 0},
      {nsu, 0},
      /* another object there (another writer's, or s3rver's whole-object MD5) */
      {"HTTP/1.1 200 OK\r\nContent-Length: 16\r\n"
       "ETag: \"1732917abc3288784e318ac0aab1757a-2\"\r\nConnection: close\r\n\r\n",
       0}};
  srv_t s;
  srv_start(&s, replies, 6);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(0);
  char *etags[] = {"\"3303e12af474ca11d85ed2966a932992\"", "\"3ea4e15b91a17dc76052c56cfcdf67a2\""};
  CHECK_INT(hl_s3_mpu_complete(c, "bkt", "k", "U1", etags, 2, false, a, &err), HL_OK);
  CHECK_INT(nreq(&s), 3);
  CHECK_INT(hl_s3_mpu_complete(c, "bkt", "k", "U1", etags, 2, false, a, &err), HL_NOTFOUND);
  CHECK_STR(err.message, "could not complete the multipart upload of s3://bkt/k: HTTP 404 "
                         "NoSuchUpload after 2 attempts");
  CHECK_INT(nreq(&s), 6);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(replies_longer_than_the_range) {
  /* a server that ignores Range (200: the whole object) or answers more
   * than asked from the right offset: the first LEN bytes are the range */
  const canned_t replies[] = {
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n0123456789abcdef", 0},
      {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 4-15/16\r\n"
       "Content-Length: @\r\nConnection: close\r\n\r\n456789abcdef",
       0},
      /* a whole object shorter than asked: all of it */
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n0123", 0}};
  srv_t s;
  srv_start(&s, replies, 3);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  char buf[8];
  size_t got = 0;
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 0, 1, buf, &got, &err), HL_OK);
  CHECK_INT(got, 1);
  CHECK(buf[0] == '0');
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 4, 3, buf, &got, &err), HL_OK);
  CHECK_INT(got, 3);
  CHECK(memcmp(buf, "456", 3) == 0);
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 0, 8, buf, &got, &err), HL_OK);
  CHECK_INT(got, 4);
  CHECK(memcmp(buf, "0123", 4) == 0);
  CHECK_INT(nreq(&s), 3);
  if (err.code) fprintf(stderr, "%s\n", err.message);
  hl_err_clear(&err);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(head_and_anonymous) {
  const canned_t replies[] = {
      {"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0},
      {"HTTP/1.1 200 OK\r\nContent-Length: 1234\r\nETag: \"abc\"\r\n"
       "Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT\r\nConnection: close\r\n\r\n",
       0},
      {"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0}};
  srv_t s;
  srv_start(&s, replies, 3);
  hl_s3_client_t *c = client_for(&s, true, 5);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(0);
  bool exists = true;
  hl_s3_object_t o;
  CHECK_INT(hl_s3_head(c, "bkt", "missing", a, &exists, &o, &err), HL_OK);
  CHECK(!exists);
  CHECK_INT(hl_s3_head(c, "bkt", "k", a, &exists, &o, &err), HL_OK);
  CHECK(exists);
  CHECK_INT(o.size, 1234);
  CHECK_STR(o.etag, "\"abc\"");
  CHECK_STR(o.key, "k");
  CHECK_INT(o.mtime_ns, 1445412480LL * 1000000000LL);
  CHECK_INT(hl_s3_head(c, "bkt", "private", a, &exists, &o, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "28000");
  CHECK_STR(err.message, "could not HEAD s3://bkt/private: HTTP 403");
  CHECK_INT(nreq(&s), 3);
  for (int i = 0; i < 3; i++) {
    CHECK(strstr(s.heads[i], "Authorization") == NULL);
    CHECK(strstr(s.heads[i], "x-amz-date") == NULL);
  }
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

static void b64md5(const char *data, size_t len, char out[25]) {
  unsigned char md[16];
  unsigned int n = 0;
  EVP_Digest(data, len, md, &n, EVP_md5(), NULL);
  EVP_EncodeBlock((unsigned char *)out, md, 16);
}

TEST(delete_many_batches) {
  const char *ok = "HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
                   "<DeleteResult/>";
  const canned_t replies[] = {
      {ok, 0},
      {ok, 0},
      {ok, 0},
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<DeleteResult><Error><Key>k1</Key><Code>AccessDenied</Code><Message>Access Denied"
       "</Message></Error><Error><Key>k2</Key><Code>AccessDenied</Code></Error></DeleteResult>",
       0}};
  srv_t s;
  srv_start(&s, replies, 4);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(0);
  char **keys = hl_arena_alloc(a, 2500 * sizeof *keys);
  for (int i = 0; i < 2500; i++)
    keys[i] = hl_arena_sprintf(a, "t/part-%05d", i);
  CHECK_INT(hl_s3_delete_many(c, "bkt", keys, 2500, &err), HL_OK);
  CHECK_INT(nreq(&s), 3);
  for (int i = 0; i < 3; i++) {
    CHECK(strncmp(s.heads[i], "POST /bkt?delete= HTTP/1.1\r\n", 28) == 0);
    char md5[25], line[64];
    b64md5(s.bodies[i], s.body_lens[i], md5);
    snprintf(line, sizeof line, "Content-MD5: %s", md5);
    CHECK(has_line(s.heads[i], line));
    CHECK(strstr(s.bodies[i], "<Quiet>true</Quiet>") != NULL);
  }
  CHECK(strstr(s.bodies[0], "<Key>t/part-00999</Key>") != NULL);
  CHECK(strstr(s.bodies[0], "<Key>t/part-01000</Key>") == NULL);
  CHECK(strstr(s.bodies[1], "<Key>t/part-01000</Key>") != NULL);
  CHECK(strstr(s.bodies[2], "<Key>t/part-02499</Key>") != NULL);
  CHECK(strstr(s.bodies[2], "<Key>t/part-01999</Key>") == NULL);
  CHECK_INT(hl_s3_delete_many(c, "bkt", keys, 2, &err), HL_ERROR);
  CHECK_STR(err.sqlstate, "28000");
  CHECK_STR(err.message, "could not delete s3://bkt/k1: AccessDenied \"Access Denied\" (and 1 more "
                         "keys)");
  hl_err_clear(&err);
  CHECK_INT(hl_s3_delete_many(c, "bkt", keys, 0, &err), HL_OK);
  CHECK_INT(nreq(&s), 4);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(mpu_list_pages_and_malformed_replies) {
  const canned_t replies[] = {
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<ListMultipartUploadsResult><IsTruncated>true</IsTruncated><NextKeyMarker>a/b"
       "</NextKeyMarker><NextUploadIdMarker>U+2</NextUploadIdMarker><Upload><Key>a/a</Key>"
       "<UploadId>U1</UploadId></Upload></ListMultipartUploadsResult>",
       0},
      {"HTTP/1.1 200 OK\r\nContent-Length: @\r\nConnection: close\r\n\r\n"
       "<ListMultipartUploadsResult><IsTruncated>false</IsTruncated><Upload><Key>a/b</Key>"
       "<UploadId>U3</UploadId></Upload></ListMultipartUploadsResult>",
       0},
      {"HTTP/1.1 200 OK\r\nContent-Length: 25\r\nConnection: close\r\n\r\n"
       "<ListBucketResult><IsTrun",
       0},
      {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/x\r\n"
       "Content-Length: 10\r\nConnection: close\r\n\r\n0123456789",
       0}};
  srv_t s;
  srv_start(&s, replies, 4);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  hl_arena_t *a = hl_arena_create(0);
  hl_s3_uploads_t u;
  CHECK_INT(hl_s3_mpu_list(c, "bkt", "a/", a, &u, &err), HL_OK);
  CHECK_INT(u.n_uploads, 2);
  if (u.n_uploads == 2) {
    CHECK_STR(u.uploads[0].key, "a/a");
    CHECK_STR(u.uploads[1].upload_id, "U3");
  }
  CHECK(strncmp(s.heads[0], "GET /bkt?prefix=a%2F&uploads= HTTP/1.1\r\n", 40) == 0);
  CHECK(strncmp(s.heads[1],
                "GET /bkt?key-marker=a%2Fb&prefix=a%2F&upload-id-marker=U%2B2&uploads= "
                "HTTP/1.1\r\n",
                80) == 0);
  hl_s3_list_t l;
  CHECK_INT(hl_s3_list_page(c, "bkt", "", NULL, NULL, 0, a, &l, &err), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK(strncmp(err.message, "could not list s3://bkt: ", 25) == 0);
  hl_err_clear(&err);
  char buf[10];
  size_t got;
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 0, 10, buf, &got, &err), HL_CORRUPT);
  CHECK_STR(err.sqlstate, "08P01");
  CHECK_STR(err.message, "could not GET s3://bkt/k (bytes 0-9): malformed \"Content-Range\" header "
                         "in the S3 reply: \"bytes 0-9/x\"");
  CHECK_INT(nreq(&s), 4); /* not retried */
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(ranges_in_parallel) {
  /* 4 ranges, 2 at a time: the server answers in the order requests
   * come, so all 4 ask for the same bytes and get the same reply */
  const char *same = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/40\r\n"
                     "Content-Length: 10\r\nConnection: close\r\n\r\nabcdefghij";
  const canned_t replies[] = {
      {same, 0},
      {same, 0},
      {same, 0},
      {same, 0},
      /* the object is 5 bytes long */
      {"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-4/5\r\n"
       "Content-Length: 5\r\nConnection: close\r\n\r\nabcde",
       0},
      {"HTTP/1.1 416 Requested Range Not Satisfiable\r\nContent-Range: bytes */5\r\n"
       "Content-Length: 0\r\nConnection: close\r\n\r\n",
       0}};
  srv_t s;
  srv_start(&s, replies, 6);
  hl_s3_client_t *c = client_for(&s, false, 5);
  hl_error_t err;
  hl_err_init(&err);
  char b[4][10];
  uint64_t offs[4] = {0, 0, 0, 0};
  size_t lens[4] = {10, 10, 10, 10};
  void *bufs[4] = {b[0], b[1], b[2], b[3]};
  CHECK_INT(hl_s3_get_ranges(c, "bkt", "k", NULL, offs, lens, bufs, 4, 2, &err), HL_OK);
  for (int i = 0; i < 4; i++)
    CHECK(memcmp(b[i], "abcdefghij", 10) == 0);
  CHECK_INT(nreq(&s), 4);
  hl_s3_stats_t st;
  hl_s3_client_stats(c, &st);
  CHECK_INT(st.requests[HL_S3_GET], 4);
  CHECK_INT(st.retries, 0);
  /* a range past the end of the object: a short reply is an error */
  CHECK_INT(hl_s3_get_ranges(c, "bkt", "k", NULL, offs, lens, bufs, 1, 2, &err), HL_IOERR);
  CHECK_STR(err.message, "could not GET s3://bkt/k (bytes 0-9): the object ends at byte 5");
  hl_err_clear(&err);
  /* while hl_s3_get_range reads to the end, and from there nothing */
  size_t got = 99;
  CHECK_INT(hl_s3_get_range(c, "bkt", "k", NULL, 5, 10, b[0], &got, &err), HL_OK);
  CHECK_INT(got, 0);
  CHECK_INT(nreq(&s), 6);
  hl_s3_client_destroy(c);
  srv_stop(&s);
}

TEST(create_checks_config) {
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_config_t cfg = {.endpoint = "http://h", .access_key = "a"};
  CHECK(hl_s3_client_create(&cfg, &err) == NULL);
  CHECK_STR(err.sqlstate, "22023");
  hl_err_clear(&err);
  cfg = (hl_s3_config_t){.endpoint = "gopher://h"};
  CHECK(hl_s3_client_create(&cfg, &err) == NULL);
  CHECK_STR(err.message, "invalid S3 endpoint \"gopher://h\": it must start with http:// or "
                         "https://");
  hl_err_clear(&err);
  hl_s3_client_destroy(NULL);
  /* a range past 2^64 is refused before any request */
  cfg = (hl_s3_config_t){.endpoint = "http://127.0.0.1:1", .max_attempts = 1};
  hl_s3_client_t *c = hl_s3_client_create(&cfg, &err);
  char b[2];
  size_t got;
  CHECK_INT(hl_s3_get_range(c, "b", "k", NULL, UINT64_MAX, 2, b, &got, &err), HL_MISUSE);
  CHECK_STR(err.message, "could not GET s3://b/k: the range at 18446744073709551615 of 2 bytes "
                         "passes 2^64");
  hl_err_clear(&err);
  CHECK_INT(hl_s3_get_range(c, "b", "k", "\"e\"\r\nX-Evil: 1", 0, 2, b, &got, &err), HL_MISUSE);
  CHECK_STR(err.message, "could not GET s3://b/k: a line break in the If-Match header");
  hl_err_clear(&err);
  /* nothing listens there: a transport error, retried to the last attempt */
  CHECK_INT(hl_s3_get_range(c, "b", "k", NULL, UINT64_MAX, 1, b, &got, &err), HL_IOERR);
  CHECK_STR(err.sqlstate, "58030");
  CHECK(err.message && strncmp(err.message,
                               "could not GET s3://b/k (bytes "
                               "18446744073709551615-18446744073709551615): ",
                               70) == 0);
  hl_err_clear(&err);
  hl_s3_client_destroy(c);
}

int main(void) {
  RUN(header_lines);
  RUN(header_lines_bad);
  RUN(urls);
  RUN(classify);
  RUN(backoff);
  RUN(get_retries_then_succeeds);
  RUN(get_gives_up);
  RUN(truncated_and_dropped_replies_are_retried);
  RUN(wrong_range_gives_up_as_protocol_violation);
  RUN(redirect_is_refused);
  RUN(etag_change_is_detected);
  RUN(complete_200_with_error);
  RUN(complete_after_lost_reply);
  RUN(complete_after_lost_reply_checks_the_s3_etag);
  RUN(replies_longer_than_the_range);
  RUN(head_and_anonymous);
  RUN(delete_many_batches);
  RUN(mpu_list_pages_and_malformed_replies);
  RUN(ranges_in_parallel);
  RUN(create_checks_config);
  return test_report();
}
