/*
 * tsasl_client.c -- hivelite's SASL GSSAPI client (src/thrift/tsasl.h)
 * driven from the command line, for tests/hms/server_kerberos.py: connects to a
 * metastore, negotiates Kerberos at a protection level, then makes the
 * calls named on the command line over the SASL transport and prints
 * their results one per line:
 *
 *   tsasl_client HOST PORT SERVICE SERVER_HOST QOP KEYTAB|- PRINCIPAL|- CALL...
 *     CALL: dbs              -> "databases: a,b,..."
 *           table:DB.TABLE   -> "table: DB.TABLE type TYPE"
 *
 * KEYTAB "-" uses the default credential cache (KRB5CCNAME); a SERVICE
 * holding a '/' is taken as the server's whole principal.  Errors go
 * to stderr as "ERROR <SQLSTATE>: message", exit status 1.
 */
#include "hms/hms_call.h"
#include "thrift/tsasl.h"
#include "util/arena.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fail(hl_error_t *err) {
  fprintf(stderr, "ERROR %s: %s\n", err->sqlstate, err->message ? err->message : "");
  return 1;
}

/* Sends CALL (already in OUT), receives the reply, decodes it by KIND. */
static hl_status_t call(hl_ttransport_t *t, const char *what, int32_t seqid, hl_buf_t *out,
                        hl_arena_t *arena, hl_error_t *err) {
  const uint8_t *msg;
  size_t len;
  hl_status_t rc = hl_tt_send(t, out->data, out->len, err);
  if (!rc) rc = hl_tt_recv(t, &msg, &len, err);
  if (rc) return rc;
  hl_hms_dec_t d;
  hl_hms_reply_t rep;
  memset(&rep, 0, sizeof rep);
  hl_hms_dec_init(&d, msg, len, arena, err);
  if (strcmp(what, "dbs") == 0) {
    hl_hms_strlist_t dbs = {0, NULL};
    if ((rc = hl_hms_read_get_all_databases_reply(&d, seqid, &dbs, &rep))) return rc;
    printf("databases: ");
    for (uint32_t i = 0; i < dbs.n; i++)
      printf("%s%s", i ? "," : "", dbs.items[i]);
    printf("\n");
  } else {
    hl_hms_table_t tab;
    memset(&tab, 0, sizeof tab);
    if ((rc = hl_hms_read_get_table_reply(&d, seqid, &tab, &rep))) return rc;
    if (rep.app_error || rep.exc_id)
      printf("table: exception %d\n", rep.app_error ? -1 : rep.exc_id);
    else
      printf("table: %s.%s type %s\n", tab.db_name, tab.table_name,
             tab.table_type ? tab.table_type : "?");
  }
  return HL_OK;
}

int main(int argc, char **argv) {
  if (argc < 9) {
    fprintf(stderr, "usage: tsasl_client HOST PORT SERVICE SERVER_HOST QOP KEYTAB|- "
                    "PRINCIPAL|- CALL...\n");
    return 2;
  }
  hl_error_t err;
  hl_err_init(&err);
  hl_tsasl_qop_t qop;
  if (hl_tsasl_qop_parse(argv[5], &qop, &err)) return fail(&err);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || inet_pton(AF_INET, argv[1], &a.sin_addr) != 1 ||
      connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    fprintf(stderr, "ERROR 08000: cannot connect to %s:%s\n", argv[1], argv[2]);
    return 1;
  }
  /* a SERVICE with a '/' is the server's whole principal */
  hl_tsasl_client_opts_t co = {strcmp(argv[6], "-") ? argv[6] : NULL,
                               strcmp(argv[7], "-") ? argv[7] : NULL,
                               strchr(argv[3], '/') ? argv[3] : NULL};
  hl_ttransport_t t;
  hl_tt_init(&t, fd, 0);
  t.timeout_ms = 20000;
  hl_arena_t *arena = hl_arena_create(64 * 1024);
  hl_buf_t out;
  hl_buf_init(&out);
  int status = 0;
  if (!arena || hl_tsasl_client_start(&t, argv[3], argv[4], qop, &co, &err)) {
    status = fail(&err);
  } else {
    printf("negotiated: %s\n", hl_tsasl_qop_name(qop));
    for (int i = 8; i < argc && !status; i++) {
      hl_buf_reset(&out);
      hl_arena_reset(arena);
      const char *what = argv[i];
      if (strcmp(what, "dbs") == 0) {
        hl_hms_write_get_all_databases_call(&out, i);
      } else if (strncmp(what, "table:", 6) == 0 && strchr(what + 6, '.')) {
        char db[256];
        const char *dot = strchr(what + 6, '.');
        snprintf(db, sizeof db, "%.*s", (int)(dot - what - 6), what + 6);
        hl_hms_write_get_table_call(&out, i, db, dot + 1);
        what = "table";
      } else {
        fprintf(stderr, "unknown call %s\n", what);
        status = 2;
        break;
      }
      if (call(&t, what, i, &out, arena, &err)) status = fail(&err);
    }
  }
  hl_buf_fini(&out);
  hl_arena_destroy(arena);
  hl_tt_fini(&t);
  close(fd);
  hl_err_clear(&err);
  return status;
}
