// clang-format off
/*
 * fuzz_funcs.c -- libFuzzer target for the pattern and format parsers of
 * the function library: get_json_object documents and paths
 * (func_json.c), json_read documents and type strings
 * (func_json_read.c), printf formats (func_format.c), date_format and
 * unix_timestamp patterns (func_date.c), str_to_map delimiters and
 * parse_url (func_text.c), conv (func_math.c), and time-zone names and
 * POSIX TZ rules (util/tz.c through func_tz.c's from/to_utc_timestamp),
 * XML documents and XPath expressions (func_xpath.c), format_number's
 * DecimalFormat patterns (func_decfmt.c) over a double, a decimal and a
 * bigint, encode/decode through iconv (func_charset.c), and with
 * parse_url: deserialize's base64 and gzip, split_map_privs
 * (func_internal.c) and datetime_legacy_hybrid_calendar over any 64 bits
 * (func_calendar.c).
 *
 * Build (as the fuzz.funcs CTest entry does):
 *   clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/fuzz_funcs.c src/vector/[a-z]*.c src/util/[a-z]*.c -lcrypto -lz -lm -lpthread -o fuzz_funcs
 *
 * The first byte picks the parser (0xF0 and above: time zones and XPath,
 * 0xFC and above format_number and the character sets, so that the older
 * corpus mostly keeps its targets); the rest is split at the first NUL
 * byte into the text and the pattern (path, format, delimiter).  Every
 * call must return HL_OK or a clean error with a SQLSTATE, and a JSON
 * result must itself be valid for the same path language when it is an
 * object or an array.
 */
// clang-format on
#include "vector/func_int.h"

#include "util/mem.h"
#include "util/tz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A call of FN over N arguments of the given types, for the row functions. */
typedef struct fake_call {
  hl_expr_t call;
  hl_expr_t args[4];
  hl_expr_t *argp[4];
} fake_call_t;

static void make_call(fake_call_t *f, int n, const hl_type_t *const *types) {
  memset(f, 0, sizeof *f);
  for (int i = 0; i < n; i++) {
    f->args[i].type = types[i];
    f->argp[i] = &f->args[i];
  }
  f->call.kind = HL_EX_FUNC;
  f->call.type = hl_type_prim(HL_T_STRING);
  f->call.args = f->argp;
  f->call.n_args = n;
}

static hl_value_t str(const char *p, size_t n) {
  hl_value_t v;
  memset(&v, 0, sizeof v);
  v.u.s.ptr = p;
  v.u.s.len = (uint32_t)n;
  return v;
}

static void expect_clean(hl_status_t rc, hl_error_t *err) {
  if (rc == HL_OK) return;
  if (err->sqlstate[0] == 0) abort(); /* every error carries a SQLSTATE */
  hl_err_clear(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 1 << 16) return 0;
  int which = data[0] >= 0xFC ? 10 : data[0] >= 0xF0 ? 7 + data[0] % 3 : data[0] % 7;
  const char *text = (const char *)data + 1;
  size_t n = size - 1;
  const char *nul = memchr(text, 0, n);
  size_t tn = nul ? (size_t)(nul - text) : n;
  const char *pat = nul ? nul + 1 : "";
  size_t pn = nul ? n - tn - 1 : 0;
  hl_arena_t *arena = hl_arena_create(0);
  if (!arena) return 0;
  hl_error_t err;
  hl_err_init(&err);
  const hl_type_t *s = hl_type_prim(HL_T_STRING), *ts = hl_type_prim(HL_T_TIMESTAMP);
  const hl_type_t *i64 = hl_type_prim(HL_T_BIGINT), *d = hl_type_prim(HL_T_DOUBLE);
  fake_call_t f;
  hl_value_t a[4], out;
  memset(&out, 0, sizeof out);
  switch (which) {
  case 0: { /* get_json_object */
    hl_buf_t b;
    hl_buf_init(&b);
    bool found;
    if (hl_json_extract(text, tn, pat, pn, arena, &b, &found) != HL_OK) abort();
    if (found && b.len && (b.data[0] == '{' || b.data[0] == '[')) {
      hl_buf_t again;
      hl_buf_init(&again);
      bool f2;
      /* a compact object or array reads back as itself */
      if (hl_json_extract(b.data, b.len, "$", 1, arena, &again, &f2) != HL_OK || !f2 ||
          again.len != b.len || memcmp(again.data, b.data, b.len) != 0)
        abort();
      hl_buf_fini(&again);
    }
    hl_buf_fini(&b);
    /* json_read(text, type): the pattern as a Hive type string (as the
     * binder rewrites it), else a type with every kind of leaf */
    hl_type_t *jt = NULL;
    char *tt = hl_json_read_type_text(arena, pat, pn);
    if (!tt || memchr(pat, 0, pn) || hl_type_parse_str(arena, tt, &jt, &err) != HL_OK) {
      hl_err_clear(&err);
      if (hl_type_parse_str(arena,
                            "struct<a:array<int>,b:map<bigint,string>,c:struct<d:boolean,"
                            "e:double,f:float,g:tinyint,h:smallint>,i:decimal(10,2),j:date,"
                            "k:timestamp,l:binary,m:varchar(3),n:char(2)>",
                            &jt, &err) != HL_OK)
        abort();
    }
    const hl_type_t *jtypes[2] = {s, s};
    make_call(&f, 2, jtypes);
    f.call.type = jt;
    a[0] = str(text, tn);
    expect_clean(hl_fn_json_read(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 1: { /* printf(format, bigint, double, string) */
    const hl_type_t *types[4] = {s, i64, d, s};
    make_call(&f, 4, types);
    a[0] = str(text, tn);
    memset(&a[1], 0, sizeof a[1]);
    a[1].u.i = (int64_t)(pn ? (int8_t)pat[0] : 7) * 1234567;
    memset(&a[2], 0, sizeof a[2]);
    a[2].u.d = pn > 1 ? (double)(int8_t)pat[1] / 3.0 : 1.005;
    a[3] = str(pat, pn);
    hl_buf_t b;
    hl_buf_init(&b);
    expect_clean(hl_printf_format(&f.call, a, text, tn, &b, &err), &err);
    hl_buf_fini(&b);
    break;
  }
  case 2: { /* date_format(timestamp, fmt) */
    const hl_type_t *types[2] = {ts, s};
    make_call(&f, 2, types);
    memset(&a[0], 0, sizeof a[0]);
    a[0].u.i = (int64_t)tn * 86400000003LL - 62135596800000000LL / 2;
    a[1] = str(text, tn);
    expect_clean(hl_fn_date_format(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 3: { /* unix_timestamp(text, pattern) */
    const hl_type_t *types[2] = {s, s};
    make_call(&f, 2, types);
    f.call.type = i64;
    a[0] = str(text, tn);
    a[1] = str(pat, pn);
    expect_clean(hl_fn_unix_timestamp(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 4: { /* str_to_map(text, pair regex, kv regex) */
    const hl_type_t *types[3] = {s, s, s};
    make_call(&f, 3, types);
    const char *nul2 = memchr(pat, 0, pn);
    size_t p1 = nul2 ? (size_t)(nul2 - pat) : pn;
    a[0] = str(text, tn);
    a[1] = str(pat, p1);
    a[2] = nul2 ? str(nul2 + 1, pn - p1 - 1) : str(":", 1);
    expect_clean(hl_fn_str_to_map(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 5: { /* parse_url(url, part[, key]) */
    const hl_type_t *types[3] = {s, s, s};
    static const char *const parts[] = {"HOST",     "PATH",      "QUERY", "REF",
                                        "PROTOCOL", "AUTHORITY", "FILE",  "USERINFO"};
    make_call(&f, pn ? 3 : 2, types);
    const char *part = parts[tn % 8];
    a[0] = str(text, tn);
    a[1] = str(part, strlen(part));
    a[2] = str(pat, pn);
    expect_clean(hl_fn_parse_url(&f.call, a, &out, arena, &err), &err);
    /* deserialize: the text as base64, and the text's bytes as the gzip
     * data inside base64; split_map_privs of the text */
    static const char gz[] = "gzip";
    a[1] = str(gz, 4);
    expect_clean(hl_fn_deserialize(&f.call, a, &out, arena, &err), &err);
    unsigned char *b64 = hl_arena_alloc(arena, 4 * ((tn + 2) / 3) + 1);
    if (b64) {
      int bn = EVP_EncodeBlock(b64, (const unsigned char *)text, (int)tn);
      a[0] = str((const char *)b64, (size_t)bn);
      expect_clean(hl_fn_deserialize(&f.call, a, &out, arena, &err), &err);
    }
    a[0] = str(text, tn);
    expect_clean(hl_fn_split_map_privs(&f.call, a, &out, arena, &err), &err);
    /* datetime_legacy_hybrid_calendar over any 64 bits, as a date and a timestamp */
    uint64_t bits = 0;
    for (size_t i = 0; i < pn && i < 8; i++)
      bits = bits << 8 | (uint8_t)pat[i];
    memset(&a[0], 0, sizeof a[0]);
    a[0].u.i = (int64_t)bits;
    f.call.type = hl_type_prim(tn % 2 ? HL_T_DATE : HL_T_TIMESTAMP);
    expect_clean(hl_fn_legacy_calendar(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 7: { /* from/to_utc_timestamp(ts, zone name): names as Java reads them */
    const hl_type_t *types[2] = {ts, s};
    make_call(&f, 2, types);
    f.call.type = ts;
    memset(&a[0], 0, sizeof a[0]);
    uint64_t us = 0; /* any 64 bits, the extremes included */
    for (size_t i = 0; i < pn && i < 8; i++)
      us = us << 8 | (uint8_t)pat[i];
    a[0].u.i = (int64_t)us;
    a[1] = str(text, tn);
    expect_clean(hl_fn_from_utc_timestamp(&f.call, a, &out, arena, &err), &err);
    expect_clean(hl_fn_to_utc_timestamp(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 8: { /* a POSIX TZ rule (a zone file's footer) and its offsets */
    hl_tz_rule_t rule;
    if (hl_tz_rule_parse(text, tn, &rule)) {
      uint64_t t = 0;
      for (size_t i = 0; i < pn && i < 8; i++)
        t = t << 8 | (uint8_t)pat[i];
      (void)hl_tz_rule_offset(&rule, (int64_t)(t % ((uint64_t)1 << 40)) - ((int64_t)1 << 39));
    }
    break;
  }
  case 9: { /* xpath(xml, path) in every result form */
    const hl_type_t *types[2] = {s, s};
    make_call(&f, 2, types);
    a[0] = str(text, tn);
    a[1] = str(pat, pn);
    f.call.fn = hl_func_lookup("xpath");
    expect_clean(hl_fn_xpath(&f.call, a, &out, arena, &err), &err);
    expect_clean(hl_fn_xpath_string(&f.call, a, &out, arena, &err), &err);
    expect_clean(hl_fn_xpath_boolean(&f.call, a, &out, arena, &err), &err);
    const hl_type_t *nums[] = {d, hl_type_prim(HL_T_FLOAT), i64, hl_type_prim(HL_T_INT),
                               hl_type_prim(HL_T_SMALLINT)};
    f.call.type = nums[tn % 5];
    expect_clean(hl_fn_xpath_number(&f.call, a, &out, arena, &err), &err);
    break;
  }
  case 10: { /* format_number(x, pattern) and encode/decode(text, charset name) */
    hl_decfmt_t fmt;
    if (hl_decfmt_parse(pat, pn, arena, 0, &fmt, &err) == HL_OK) {
      const hl_type_t *dec = hl_type_decimal(arena, 38, (int)(tn % 39));
      const hl_type_t *xs[3] = {d, dec ? dec : i64, i64};
      for (int k = 0; k < 3; k++) {
        hl_value_t x;
        memset(&x, 0, sizeof x);
        uint64_t bits = 0;
        memcpy(&bits, text, tn < 8 ? tn : 8);
        if (k == 0)
          memcpy(&x.u.d, &bits, sizeof x.u.d);
        else if (k == 1)
          x.u.dec = (__int128)(int64_t)bits * (__int128)(int64_t)(bits >> 7);
        else
          x.u.i = (int64_t)bits;
        hl_buf_t b;
        hl_buf_init(&b);
        (void)hl_decfmt_format(&fmt, xs[k], &x, &b);
        hl_buf_fini(&b);
      }
    } else {
      expect_clean(HL_ERROR, &err);
    }
    const hl_type_t *types[2] = {s, s};
    make_call(&f, 2, types);
    f.args[1].kind = HL_EX_CONST;
    f.call.fn = hl_func_lookup("encode");
    a[0] = str(text, tn);
    a[1] = str(pat, pn);
    expect_clean(hl_fn_encode(&f.call, a, &out, arena, &err), &err);
    f.args[1].kind = HL_EX_FUNC; /* a set that varies by row: replacement */
    expect_clean(hl_fn_encode(&f.call, a, &out, arena, &err), &err);
    expect_clean(hl_fn_decode(&f.call, a, &out, arena, &err), &err);
    break;
  }
  default: { /* conv(num, from, to) */
    const hl_type_t *types[3] = {s, i64, i64};
    make_call(&f, 3, types);
    a[0] = str(text, tn);
    memset(&a[1], 0, sizeof a[1]);
    memset(&a[2], 0, sizeof a[2]);
    a[1].u.i = pn ? (int8_t)pat[0] : 10;
    a[2].u.i = pn > 1 ? (int8_t)pat[1] : -16;
    expect_clean(hl_fn_conv(&f.call, a, &out, arena, &err), &err);
    break;
  }
  }
  hl_arena_destroy(arena);
  return 0;
}
