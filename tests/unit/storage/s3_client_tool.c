/*
 * s3_client_tool.c -- a command-line driver of the S3 client, for
 * tests/s3/client_s3rver.py: one call (or a short sequence) per run,
 * results printed one per line so the script can compare them exactly.
 *
 *   s3_client_tool [options] COMMAND ARGS...
 *   options: --endpoint URL --region R --virtual --anon --key AK --secret SK
 *            --token T --attempts N --retry-base-ms N --connect-ms N --timeout-ms N
 *   put BUCKET KEY FILE [if-none-match]     -> "etag E"
 *   get BUCKET KEY OFFSET LEN OUT [ETAG]    -> "got N" (bytes to OUT)
 *   getall BUCKET KEY OUT PIECE [PARALLEL]  -> HEAD, then every PIECE-byte range
 *                                              at once (hl_s3_get_ranges) -> "size N"
 *   head BUCKET KEY                         -> "size N etag E mtime S" or "missing"
 *   list BUCKET PREFIX MAX_KEYS [DELIM]     -> every page: "key K size N", "prefix P",
 *                                              then "pages N keys N"
 *   mpu BUCKET KEY FILE PART_SIZE [if-none-match] -> "part I etag E", "complete"
 *   mpu-start BUCKET KEY                    -> "upload ID"
 *   mpu-list BUCKET PREFIX                  -> "upload KEY ID" per upload, "uploads N"
 *   mpu-abort BUCKET KEY ID                 -> "aborted"
 *   delete BUCKET KEY                       -> "deleted"
 *   delete-many BUCKET                      -> the keys from stdin (one a line); "deleted N"
 * Last line always: "stats head=.. get=.. list=.. put=.. mpu_create=.. mpu_part=..
 * mpu_complete=.. mpu_abort=.. mpu_list=.. delete=.. retries=..".  A failure
 * prints "error SQLSTATE MESSAGE" and exits 1; bad usage exits 2.
 */
#include "storage/s3/s3_client.h"

#include "util/mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void) {
  fprintf(stderr, "usage: s3_client_tool [options] COMMAND ARGS... (see the source)\n");
  return 2;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (n == cap) buf = realloc(buf, cap *= 2);
    size_t k = fread(buf + n, 1, cap - n, f);
    if (k == 0) break;
    n += k;
  }
  fclose(f);
  *len = n;
  return buf;
}

static bool write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

static void print_stats(hl_s3_client_t *c) {
  static const char *const names[HL_S3_N_KINDS] = {
      "head",     "get",          "list",      "put",      "mpu_create",
      "mpu_part", "mpu_complete", "mpu_abort", "mpu_list", "delete"};
  hl_s3_stats_t s;
  hl_s3_client_stats(c, &s);
  printf("stats");
  for (int i = 0; i < HL_S3_N_KINDS; i++)
    printf(" %s=%" PRIu64, names[i], s.requests[i]);
  printf(" retries=%" PRIu64 "\n", s.retries);
}

static int run(hl_s3_client_t *c, int argc, char **argv, hl_arena_t *a, hl_error_t *err) {
  const char *cmd = argv[0];
  hl_status_t st = HL_OK;
  if (strcmp(cmd, "put") == 0 && argc >= 4) {
    size_t len;
    char *data = read_file(argv[3], &len), *etag = NULL;
    if (!data) return usage();
    st = hl_s3_put(c, argv[1], argv[2], data, len, argc > 4 && !strcmp(argv[4], "if-none-match"), a,
                   &etag, err);
    free(data);
    if (st == HL_OK) printf("etag %s\n", etag);
  } else if (strcmp(cmd, "get") == 0 && argc >= 6) {
    uint64_t off = strtoull(argv[3], NULL, 10);
    size_t len = strtoull(argv[4], NULL, 10), got = 0;
    char *buf = malloc(len ? len : 1);
    st = hl_s3_get_range(c, argv[1], argv[2], argc > 6 ? argv[6] : NULL, off, len, buf, &got, err);
    if (st == HL_OK) {
      if (!write_file(argv[5], buf, got)) st = HL_IOERR;
      printf("got %zu\n", got);
    }
    free(buf);
  } else if (strcmp(cmd, "getall") == 0 && argc >= 5) {
    bool exists;
    hl_s3_object_t o;
    st = hl_s3_head(c, argv[1], argv[2], a, &exists, &o, err);
    if (st == HL_OK && !exists) {
      printf("missing\n");
      return 0;
    }
    if (st != HL_OK) return 1;
    size_t piece = strtoull(argv[4], NULL, 10);
    int par = argc > 5 ? atoi(argv[5]) : 0;
    size_t n = piece ? (o.size + piece - 1) / piece : 0;
    char *data = malloc(o.size ? o.size : 1);
    uint64_t *offs = calloc(n + 1, sizeof *offs);
    size_t *lens = calloc(n + 1, sizeof *lens);
    void **bufs = calloc(n + 1, sizeof *bufs);
    for (size_t i = 0; i < n; i++) {
      offs[i] = i * piece;
      lens[i] = o.size - offs[i] < piece ? o.size - offs[i] : piece;
      bufs[i] = data + offs[i];
    }
    st = hl_s3_get_ranges(c, argv[1], argv[2], o.etag, offs, lens, bufs, n, par, err);
    if (st == HL_OK) {
      if (!write_file(argv[3], data, o.size)) st = HL_IOERR;
      printf("size %" PRIu64 "\n", o.size);
    }
    free(data);
    free(offs);
    free(lens);
    free(bufs);
  } else if (strcmp(cmd, "head") == 0 && argc >= 3) {
    bool exists;
    hl_s3_object_t o;
    st = hl_s3_head(c, argv[1], argv[2], a, &exists, &o, err);
    if (st == HL_OK && exists)
      printf("size %" PRIu64 " etag %s mtime %" PRId64 "\n", o.size, o.etag,
             o.mtime_ns / 1000000000);
    else if (st == HL_OK)
      printf("missing\n");
  } else if (strcmp(cmd, "list") == 0 && argc >= 4) {
    const char *token = NULL;
    size_t pages = 0, keys = 0;
    do {
      hl_s3_list_t l;
      st = hl_s3_list_page(c, argv[1], argv[2], argc > 4 ? argv[4] : NULL, token, atoi(argv[3]), a,
                           &l, err);
      if (st != HL_OK) break;
      pages++;
      for (size_t i = 0; i < l.n_objects; i++)
        printf("key %s size %" PRIu64 "\n", l.objects[i].key, l.objects[i].size);
      for (size_t i = 0; i < l.n_prefixes; i++)
        printf("prefix %s\n", l.prefixes[i]);
      keys += l.n_objects;
      token = l.truncated ? l.next_token : NULL;
      if (l.truncated && !token) {
        printf("truncated without a token\n");
        return 1;
      }
    } while (token);
    if (st == HL_OK) printf("pages %zu keys %zu\n", pages, keys);
  } else if (strcmp(cmd, "mpu") == 0 && argc >= 5) {
    size_t len, part = strtoull(argv[4], NULL, 10);
    char *data = read_file(argv[3], &len), *id = NULL;
    if (!data || part == 0) return usage();
    size_t n = (len + part - 1) / part;
    char **etags = hl_arena_zalloc(a, (n + 1) * sizeof *etags);
    st = hl_s3_mpu_create(c, argv[1], argv[2], a, &id, err);
    for (size_t i = 0; st == HL_OK && i < n; i++) {
      size_t l = len - i * part < part ? len - i * part : part;
      st = hl_s3_mpu_part(c, argv[1], argv[2], id, (int)i + 1, data + i * part, l, a, &etags[i],
                          err);
      if (st == HL_OK) printf("part %zu etag %s\n", i + 1, etags[i]);
    }
    if (st == HL_OK)
      st = hl_s3_mpu_complete(c, argv[1], argv[2], id, etags, n,
                              argc > 5 && !strcmp(argv[5], "if-none-match"), a, err);
    if (st == HL_OK) printf("complete\n");
    free(data);
  } else if (strcmp(cmd, "mpu-start") == 0 && argc >= 3) {
    char *id;
    st = hl_s3_mpu_create(c, argv[1], argv[2], a, &id, err);
    if (st == HL_OK) printf("upload %s\n", id);
  } else if (strcmp(cmd, "mpu-list") == 0 && argc >= 3) {
    hl_s3_uploads_t u;
    st = hl_s3_mpu_list(c, argv[1], argv[2], a, &u, err);
    for (size_t i = 0; st == HL_OK && i < u.n_uploads; i++)
      printf("upload %s %s\n", u.uploads[i].key, u.uploads[i].upload_id);
    if (st == HL_OK) printf("uploads %zu\n", u.n_uploads);
  } else if (strcmp(cmd, "mpu-abort") == 0 && argc >= 4) {
    st = hl_s3_mpu_abort(c, argv[1], argv[2], argv[3], err);
    if (st == HL_OK) printf("aborted\n");
  } else if (strcmp(cmd, "delete") == 0 && argc >= 3) {
    st = hl_s3_delete(c, argv[1], argv[2], err);
    if (st == HL_OK) printf("deleted\n");
  } else if (strcmp(cmd, "delete-many") == 0 && argc >= 2) {
    size_t n = 0, cap = 1024;
    char **keys = malloc(cap * sizeof *keys), line[2048];
    while (fgets(line, sizeof line, stdin)) {
      line[strcspn(line, "\n")] = '\0';
      if (n == cap) keys = realloc(keys, (cap *= 2) * sizeof *keys);
      keys[n++] = hl_arena_strdup(a, line);
    }
    st = hl_s3_delete_many(c, argv[1], keys, n, err);
    if (st == HL_OK) printf("deleted %zu\n", n);
    free(keys);
  } else {
    return usage();
  }
  return st == HL_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  hl_s3_config_t cfg = {.path_style = true, .access_key = "S3RVER", .secret_key = "S3RVER"};
  int i = 1;
  for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--virtual")) {
      cfg.path_style = false;
      continue;
    }
    if (!strcmp(o, "--anon")) {
      cfg.access_key = cfg.secret_key = NULL;
      continue;
    }
    if (!v) return usage();
    i++;
    if (!strcmp(o, "--endpoint"))
      cfg.endpoint = v;
    else if (!strcmp(o, "--region"))
      cfg.region = v;
    else if (!strcmp(o, "--key"))
      cfg.access_key = v;
    else if (!strcmp(o, "--secret"))
      cfg.secret_key = v;
    else if (!strcmp(o, "--token"))
      cfg.session_token = v;
    else if (!strcmp(o, "--attempts"))
      cfg.max_attempts = atoi(v);
    else if (!strcmp(o, "--retry-base-ms"))
      cfg.retry_base_ms = atoll(v);
    else if (!strcmp(o, "--connect-ms"))
      cfg.connect_timeout_ms = atoll(v);
    else if (!strcmp(o, "--timeout-ms"))
      cfg.request_timeout_ms = atoll(v);
    else
      return usage();
  }
  if (i >= argc) return usage();
  hl_error_t err;
  hl_err_init(&err);
  hl_s3_client_t *c = hl_s3_client_create(&cfg, &err);
  if (!c) {
    printf("error %s %s\n", err.sqlstate, err.message);
    hl_err_clear(&err);
    return 1;
  }
  hl_arena_t *a = hl_arena_create(0);
  int rc = run(c, argc - i, argv + i, a, &err);
  if (rc == 1 && err.code != HL_OK) printf("error %s %s\n", err.sqlstate, err.message);
  print_stats(c);
  hl_err_clear(&err);
  hl_arena_destroy(a);
  hl_s3_client_destroy(c);
  return rc;
}
