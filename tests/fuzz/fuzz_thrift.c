// clang-format off
/*
 * fuzz_thrift.c -- libFuzzer target for the Thrift binary protocol reader
 * (src/thrift/) and the Hive Metastore decoders (src/hms/).
 *
 * Build (as `make fuzz` and the fuzz.thrift CTest entry do):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_thrift.c src/thrift/[a-z]*.c src/hms/hms_[!m]*.c src/util/[a-z]*.c -lm -lpthread $(pkg-config --cflags --libs krb5-gssapi) -o fuzz_thrift
 *
 * (src/hms/hms_map.c, catalog records to structs, needs the catalog and
 * decodes nothing: not linked.)  The first byte picks a decoder (every struct decoder, skip of each wire
 * type, a whole message with each method's arguments and reply); the rest
 * is its input.  A struct that decodes is encoded again, decoded again and
 * encoded a second time: the two encodings must be identical.  The
 * message-length selector also runs the SASL transport's untrusted input:
 * the negotiation frame parser (hl_tsasl_parse_frame) over the bytes as a
 * run of frames, and a SASL-framed receive (hl_tt_recv with no security
 * layer, as under qop auth) over a pipe holding them.  Seeds:
 * tests/fuzz/corpus/thrift/ (written by tests/hms/codec_interop.py from
 * Apache Thrift's own Python serializer).
 */
// clang-format on
#include "hms/hms_call.h"
#include "thrift/tsasl.h"
#include "hms/hms_client_calls.h"
#include "thrift/ttransport.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One struct kind: decode into a buffer of SIZE bytes, encode from it. */
typedef struct kind {
  size_t size;
  hl_status_t (*read)(hl_hms_dec_t *, void *);
  void (*write)(hl_buf_t *, const void *);
} kind_t;

#define KIND(T, name)                                                                              \
  static hl_status_t rd_##name(hl_hms_dec_t *d, void *p) {                                         \
    return hl_hms_read_##name(d, p);                                                               \
  }                                                                                                \
  static void wr_##name(hl_buf_t *b, const void *p) {                                              \
    hl_hms_write_##name(b, p);                                                                     \
  }
KIND(hl_hms_table_t, table)
KIND(hl_hms_partition_t, partition)
KIND(hl_hms_database_t, database)
KIND(hl_hms_sd_t, sd)
KIND(hl_hms_serde_info_t, serde_info)
KIND(hl_hms_skewed_info_t, skewed_info)
KIND(hl_hms_field_schema_t, field_schema)
KIND(hl_hms_order_t, order)
KIND(hl_hms_exception_t, exception)
KIND(hl_hms_app_exception_t, app_exception)

static const kind_t kinds[] = {
    {sizeof(hl_hms_table_t), rd_table, wr_table},
    {sizeof(hl_hms_partition_t), rd_partition, wr_partition},
    {sizeof(hl_hms_database_t), rd_database, wr_database},
    {sizeof(hl_hms_sd_t), rd_sd, wr_sd},
    {sizeof(hl_hms_serde_info_t), rd_serde_info, wr_serde_info},
    {sizeof(hl_hms_skewed_info_t), rd_skewed_info, wr_skewed_info},
    {sizeof(hl_hms_field_schema_t), rd_field_schema, wr_field_schema},
    {sizeof(hl_hms_order_t), rd_order, wr_order},
    {sizeof(hl_hms_exception_t), rd_exception, wr_exception},
    {sizeof(hl_hms_app_exception_t), rd_app_exception, wr_app_exception},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static void struct_case(const kind_t *k, const uint8_t *data, size_t size, hl_arena_t *arena) {
  hl_error_t err;
  hl_hms_dec_t d;
  hl_buf_t a, b;
  void *v1 = calloc(1, k->size), *v2 = calloc(1, k->size);
  if (!v1 || !v2) abort();
  hl_err_init(&err);
  hl_buf_init(&a);
  hl_buf_init(&b);
  hl_hms_dec_init(&d, data, size, arena, &err);
  if (k->read(&d, v1) == HL_OK) {
    k->write(&a, v1);
    hl_hms_dec_init(&d, a.data, a.len, arena, &err);
    if (a.oom || k->read(&d, v2) != HL_OK) abort(); /* our own encoding must decode */
    k->write(&b, v2);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) abort();
  } else if (err.code == HL_OK || (err.code == HL_CORRUPT && strcmp(err.sqlstate, "08P01"))) {
    abort(); /* a failure always says why, as a protocol violation */
  }
  hl_err_clear(&err);
  hl_buf_fini(&a);
  hl_buf_fini(&b);
  free(v1);
  free(v2);
}

/* The SASL transport's parsers over DATA (see the header comment). */
static void sasl_case(const uint8_t *data, size_t size) {
  hl_error_t err;
  size_t off = 0;
  hl_err_init(&err);
  for (;;) { /* negotiation frames, one after another */
    int status, truncated;
    const uint8_t *payload;
    size_t plen, flen;
    if (hl_tsasl_parse_frame(data + off, size - off, 1024, &status, &payload, &plen, &flen,
                             &truncated, &err) != HL_OK)
      break;
    if (flen != plen + 5 || flen > size - off || payload != data + off + 5 || status < 1 ||
        status > 5 || plen > 1024)
      abort();
    off += flen;
  }
  if (err.code == HL_OK || strcmp(err.sqlstate, "08P01")) abort();
  hl_err_clear(&err);
  int p[2];
  if (pipe(p) != 0) return;
  if (write(p[1], data, size) != (ssize_t)size) abort(); /* fits: max_len is 8192 */
  close(p[1]);
  hl_ttransport_t t;
  hl_tt_init(&t, p[0], 0);
  t.sasl = 1;
  t.timeout_ms = 1000;
  t.max_message = 4096;
  const uint8_t *msg;
  size_t len;
  while (hl_tt_recv(&t, &msg, &len, &err) == HL_OK)
    if (len == 0 || len > t.plain.len || msg != (const uint8_t *)t.plain.data) abort();
  if (err.code == HL_OK && t.plain.len) abort(); /* a clean end only between messages */
  hl_err_clear(&err);
  hl_tt_fini(&t);
  close(p[0]);
}

static void message_case(int which, const uint8_t *data, size_t size, hl_arena_t *arena) {
  hl_error_t err;
  hl_hms_dec_t d;
  hl_hms_message_t m;
  hl_hms_reply_t rep;
  hl_hms_strlist_t list;
  hl_hms_table_t t;
  hl_hms_partition_list_t plist;
  char *db, *tbl;
  int16_t maxp;
  size_t len;
  int truncated;
  hl_err_init(&err);
  hl_hms_dec_init(&d, data, size, arena, &err);
  switch (which) {
  case 0:
    if (!hl_hms_read_message(&d, &m)) hl_hms_read_get_all_databases_args(&d);
    break;
  case 1:
    if (!hl_hms_read_message(&d, &m)) hl_hms_read_get_table_args(&d, &db, &tbl);
    break;
  case 2:
    if (!hl_hms_read_message(&d, &m)) hl_hms_read_get_partition_names_args(&d, &db, &tbl, &maxp);
    break;
  case 3:
    hl_hms_read_get_all_databases_reply(&d, 0, &list, &rep);
    break;
  case 4:
    hl_hms_read_get_table_reply(&d, 0, &t, &rep);
    break;
  case 5:
    hl_hms_read_get_partition_names_reply(&d, 0, &list, &rep);
    break;
  case 6: /* the metastore client's readers (hms_client_calls.h) */
    hl_hms_read_reply(&d, "get_partitions_by_names", 0, HL_TT_LIST, hl_hms_read_partition_list_v,
                      &plist, 3, &rep);
    break;
  case 7:
    hl_hms_read_reply(&d, "get_table_req", 0, HL_TT_STRUCT, hl_hms_read_table_result_v, &t, 2,
                      &rep);
    break;
  default:
    if (hl_tt_message_length(data, size, &len, &truncated, &err) == HL_OK && len > size) abort();
    sasl_case(data, size);
    break;
  }
  hl_err_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  unsigned sel = data[0] % (NKINDS + 9 + 16);
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) abort();
  if (sel < NKINDS) {
    struct_case(&kinds[sel], data + 1, size - 1, arena);
  } else if (sel < NKINDS + 9) {
    message_case((int)(sel - NKINDS), data + 1, size - 1, arena);
  } else { /* skip of one value of any type code, valid or not */
    hl_error_t err;
    hl_treader_t r;
    hl_err_init(&err);
    hl_tr_init(&r, data + 1, size - 1, &err);
    if (hl_tr_skip(&r, (hl_ttype_t)(sel - NKINDS - 7)) == HL_OK && hl_tr_offset(&r) > size - 1)
      abort();
    if (r.depth != 0 && err.code == HL_OK) abort();
    hl_err_clear(&err);
  }
  hl_arena_destroy(arena);
  return 0;
}
