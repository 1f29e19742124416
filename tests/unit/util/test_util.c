/*
 * test_util.c -- unit tests for src/util: arena, strbuf, error records and
 * the SQLSTATE table, the allocation fault injector (with a SQLite-style
 * "fail the Nth allocation" sweep over a small workload), Hive types (text
 * grammar, canonical spelling, properties) and values (Hive's casts from
 * STRING, Java-style printing, the proleptic Gregorian calendar).
 *
 * Every check states an exact expected value; leaks are caught by
 * LeakSanitizer in the sanitizer build.
 */
#include "test.h"
#include "util/partpath.h"

#include "util/arena.h"
#include "util/error.h"
#include "util/kv.h"
#include "util/mem.h"
#include "util/strbuf.h"
#include "util/type.h"
#include "util/value.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

/* ================================================================ arena */

TEST(arena_alignment) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK(a != NULL);
  char *p1 = hl_arena_alloc(a, 1);
  char *p2 = hl_arena_alloc(a, 3);
  char *p3 = hl_arena_alloc(a, 17);
  char *p4 = hl_arena_alloc(a, 0);
  CHECK_INT((uintptr_t)p1 % 16, 0);
  CHECK_INT((uintptr_t)p2 % 16, 0);
  CHECK_INT((uintptr_t)p3 % 16, 0);
  CHECK_INT((uintptr_t)p4 % 16, 0);
  CHECK_INT(p2 - p1, 16);
  CHECK_INT(p3 - p2, 16);
  CHECK_INT(p4 - p3, 32);
  CHECK_INT(hl_arena_used(a), 16 + 16 + 32 + 16);
  unsigned char *z = hl_arena_zalloc(a, 100);
  int zeros = 0;
  for (int i = 0; i < 100; i++)
    zeros += z[i] == 0;
  CHECK_INT(zeros, 100);
  hl_arena_destroy(a);
  hl_arena_destroy(NULL); /* no-op */
}

TEST(arena_big_allocations) {
  hl_arena_t *a = hl_arena_create(1024);
  char *p0 = hl_arena_alloc(a, 1000); /* 1008 of the first block's 1024 */
  /* does not fit and is over a quarter block: a dedicated block */
  char *big = hl_arena_alloc(a, 600);
  CHECK(big != NULL);
  CHECK_INT((uintptr_t)big % 16, 0);
  memset(big, 'x', 600);
  /* the first block keeps serving small requests */
  char *small = hl_arena_alloc(a, 8);
  CHECK(small == p0 + 1008);
  CHECK_INT(hl_arena_used(a), 1008 + 608 + 16);
  /* much larger than a block */
  char *huge = hl_arena_alloc(a, 1 << 20);
  CHECK(huge != NULL);
  memset(huge, 'y', 1 << 20);
  CHECK_INT(big[599], 'x');
  /* sizes that would wrap are refused, never handed to malloc */
  CHECK(hl_arena_alloc(a, SIZE_MAX) == NULL);
  CHECK(hl_arena_alloc(a, SIZE_MAX - 8) == NULL);
  CHECK(hl_arena_alloc(a, SIZE_MAX - 40) == NULL);
  /* reset keeps the first block (not the dedicated one linked behind it) */
  hl_arena_reset(a);
  CHECK_INT(hl_arena_used(a), 0);
  CHECK(hl_arena_alloc(a, 16) == p0);
  hl_arena_destroy(a);
}

TEST(arena_realloc) {
  hl_arena_t *a = hl_arena_create(4096);
  char *p = hl_arena_alloc(a, 10);
  memcpy(p, "123456789", 10);
  size_t used = hl_arena_used(a);
  /* the last allocation grows in place */
  char *q = hl_arena_realloc(a, p, 10, 100);
  CHECK(q == p);
  CHECK_INT(hl_arena_used(a), used - 16 + 112);
  CHECK_STR(q, "123456789");
  /* the next allocation follows the grown one */
  char *r = hl_arena_alloc(a, 4);
  CHECK(r == p + 112);
  /* an older allocation is copied */
  char *s = hl_arena_realloc(a, p, 100, 200);
  CHECK(s != p);
  CHECK_STR(s, "123456789");
  /* shrinking keeps the pointer */
  CHECK(hl_arena_realloc(a, s, 200, 50) == s);
  /* growing the last one beyond its block copies into a new block */
  char *t = hl_arena_alloc(a, 16);
  memcpy(t, "abc", 4);
  char *u = hl_arena_realloc(a, t, 16, 5000);
  CHECK(u != t);
  CHECK_STR(u, "abc");
  /* realloc(NULL) allocates; an overflowing size fails */
  CHECK(hl_arena_realloc(a, NULL, 0, 8) != NULL);
  char *v = hl_arena_alloc(a, 8);
  CHECK(hl_arena_realloc(a, v, 8, SIZE_MAX) == NULL);
  CHECK(hl_arena_alloc(a, 8) == v + 16); /* the failed realloc changed nothing */
  hl_arena_destroy(a);
}

typedef struct cleanup_log {
  int order[8];
  int n;
} cleanup_log_t;

typedef struct cleanup_arg {
  cleanup_log_t *log;
  int id;
} cleanup_arg_t;

static void record_cleanup(void *arg) {
  cleanup_arg_t *c = arg;
  c->log->order[c->log->n++] = c->id;
}

TEST(arena_reset_and_cleanups) {
  hl_arena_t *a = hl_arena_create(256);
  cleanup_log_t log = {.n = 0};
  cleanup_arg_t args[5];
  for (int i = 0; i < 5; i++)
    args[i] = (cleanup_arg_t){.log = &log, .id = i + 1};
  char *first = hl_arena_alloc(a, 8);
  for (int i = 0; i < 3; i++)
    CHECK_INT(hl_arena_on_reset(a, record_cleanup, &args[i]), 0);
  for (int i = 0; i < 50; i++)
    hl_arena_sprintf(a, "filler %d", i); /* several blocks */
  hl_arena_reset(a);
  CHECK_INT(log.n, 3);
  CHECK_INT(log.order[0], 3);
  CHECK_INT(log.order[1], 2);
  CHECK_INT(log.order[2], 1);
  CHECK_INT(hl_arena_used(a), 0);
  CHECK(hl_arena_alloc(a, 8) == first); /* memory is reused */
  hl_arena_reset(a);
  CHECK_INT(log.n, 3); /* cleanups ran once */
  CHECK_INT(hl_arena_on_reset(a, record_cleanup, &args[3]), 0);
  CHECK_INT(hl_arena_on_reset(a, record_cleanup, &args[4]), 0);
  hl_arena_destroy(a);
  CHECK_INT(log.n, 5);
  CHECK_INT(log.order[3], 5);
  CHECK_INT(log.order[4], 4);
}

TEST(arena_strings) {
  hl_arena_t *a = hl_arena_create(64);
  CHECK_STR(hl_arena_strdup(a, "hello"), "hello");
  CHECK_STR(hl_arena_strdup(a, ""), "");
  CHECK_STR(hl_arena_strndup(a, "hello", 3), "hel");
  CHECK_STR(hl_arena_sprintf(a, "%s-%d-%c", "x", 42, 'z'), "x-42-z");
  char *long_s = hl_arena_sprintf(a, "%0300d", 7);
  CHECK_INT(strlen(long_s), 300);
  CHECK_INT(long_s[299], '7');
  CHECK_INT(long_s[0], '0');
  hl_arena_destroy(a);
}

/* An account with a fixed limit, as the statement budget charges it. */
typedef struct test_account {
  hl_mem_account_t acct; /* first */
  size_t used, limit;
  int refused;
} test_account_t;

static int test_charge(hl_mem_account_t *a, size_t bytes) {
  test_account_t *t = (test_account_t *)a;
  if (t->used + bytes > t->limit) {
    t->refused++;
    return -1;
  }
  t->used += bytes;
  return 0;
}

static void test_release(hl_mem_account_t *a, size_t bytes) {
  ((test_account_t *)a)->used -= bytes;
}

TEST(arena_account) {
  test_account_t t = {{test_charge, test_release}, 0, 10000, 0};
  hl_arena_t *a = hl_arena_create_charged(1024, &t.acct);
  CHECK(a != NULL);
  CHECK(hl_arena_account(a) == &t.acct);
  size_t first = hl_arena_reserved(a); /* the first block and its header */
  CHECK(first > 1024 && first < 1024 + 64);
  CHECK_INT(t.used, first);
  /* allocations inside a block charge nothing more */
  CHECK(hl_arena_alloc(a, 100) != NULL);
  CHECK(hl_arena_alloc(a, 200) != NULL);
  CHECK_INT(t.used, first);
  /* a new standard block and a dedicated one are charged */
  for (int i = 0; i < 4; i++) /* 112 + 208 + 4 * 208 > 1024: the last opens a block */
    CHECK(hl_arena_alloc(a, 200) != NULL);
  CHECK_INT(t.used, 2 * first);
  CHECK(hl_arena_alloc(a, 3000) != NULL);
  CHECK_INT(t.used, hl_arena_reserved(a));
  CHECK(t.used > 2 * first + 3000);
  /* past the limit: the allocation fails, nothing stays charged for it */
  size_t before = t.used;
  CHECK(hl_arena_alloc(a, 8000) == NULL);
  CHECK_INT(t.refused, 1);
  CHECK_INT(t.used, before);
  CHECK_INT(hl_arena_reserved(a), before);
  /* reset gives back every block but the first */
  hl_arena_reset(a);
  CHECK_INT(t.used, first);
  CHECK(hl_arena_alloc(a, 8000) != NULL);
  /* moving the charge: all of it leaves, all of it arrives */
  test_account_t u = {{test_charge, test_release}, 0, 100000, 0};
  size_t held = hl_arena_reserved(a);
  CHECK_INT(hl_arena_set_account(a, &u.acct), 0);
  CHECK_INT(t.used, 0);
  CHECK_INT(u.used, held);
  /* a move into an account too small fails and leaves nothing charged */
  test_account_t tiny = {{test_charge, test_release}, 0, 100, 0};
  CHECK_INT(hl_arena_set_account(a, &tiny.acct), -1);
  CHECK_INT(u.used, 0);
  CHECK_INT(tiny.used, 0);
  CHECK(hl_arena_account(a) == NULL);
  CHECK_INT(hl_arena_set_account(a, &u.acct), 0);
  hl_arena_destroy(a);
  CHECK_INT(u.used, 0);
  /* an account that cannot hold the first block: no arena */
  CHECK(hl_arena_create_charged(1024, &tiny.acct) == NULL);
  CHECK_INT(tiny.used, 0);
  /* without an account nothing is charged */
  hl_arena_t *plain = hl_arena_create(1024);
  CHECK(hl_arena_account(plain) == NULL);
  CHECK(hl_arena_alloc(plain, 5000) != NULL);
  hl_arena_destroy(plain);
}

/* =============================================================== strbuf */

TEST(strbuf_basics) {
  hl_buf_t b;
  hl_buf_init(&b);
  CHECK_STR(hl_buf_cstr(&b), "");
  hl_buf_puts(&b, "abc");
  hl_buf_putc(&b, '-');
  hl_buf_append(&b, "xyz", 2);
  hl_buf_printf(&b, "[%d|%s]", -5, "q");
  CHECK_STR(hl_buf_cstr(&b), "abc-xy[-5|q]");
  CHECK_INT(b.len, 12);
  hl_buf_append(&b, "\0z", 2); /* embedded NUL is kept */
  CHECK_INT(b.len, 14);
  CHECK_INT(b.data[13], 'z');
  size_t cap = b.cap;
  hl_buf_reset(&b);
  CHECK_INT(b.len, 0);
  CHECK_INT(b.cap, cap);
  CHECK_STR(hl_buf_cstr(&b), "");
  hl_buf_puts(&b, "again");
  char *s = hl_buf_detach(&b);
  CHECK_STR(s, "again");
  CHECK(b.data == NULL);
  CHECK_INT(b.len, 0);
  hl_free(s);
  /* detaching an empty buffer gives an empty heap string */
  s = hl_buf_detach(&b);
  CHECK_STR(s, "");
  hl_free(s);
  /* reserved but never written: still a string */
  CHECK_INT(hl_buf_reserve(&b, 10), 0);
  CHECK_STR(hl_buf_cstr(&b), "");
  hl_buf_fini(&b);
}

TEST(strbuf_growth) {
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < 10000; i++)
    hl_buf_puts(&b, "abc");
  for (int i = 0; i < 1000; i++)
    hl_buf_printf(&b, "%04d", i);
  CHECK_INT(b.len, 30000 + 4000);
  CHECK_INT(b.oom, 0);
  CHECK(b.cap > b.len);
  CHECK_INT(strlen(hl_buf_cstr(&b)), 34000);
  CHECK(memcmp(b.data + 29997, "abc0000", 7) == 0);
  CHECK_STR(b.data + 33996, "0999");
  hl_buf_fini(&b);
  CHECK(b.data == NULL);
}

TEST(strbuf_oom_sticky) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_buf_puts(&b, "x");
  CHECK_INT(hl_buf_reserve(&b, SIZE_MAX), -1); /* would wrap: refused */
  CHECK_INT(b.oom, 1);
  hl_buf_puts(&b, "more");
  hl_buf_printf(&b, "%d", 1);
  CHECK_INT(b.len, 1);
  CHECK_STR(hl_buf_cstr(&b), "");
  CHECK(hl_buf_detach(&b) == NULL);
  CHECK(b.data == NULL);
  /* an injected allocation failure also sticks */
  hl_buf_init(&b);
  hl_mem_fail_after(1);
  hl_buf_puts(&b, "abc");
  hl_mem_fail_after(0);
  CHECK_INT(b.oom, 1);
  hl_buf_puts(&b, "def");
  CHECK_STR(hl_buf_cstr(&b), "");
  hl_buf_fini(&b);
}

/* ================================================================ error */

TEST(error_basics) {
  hl_error_t e;
  hl_err_init(&e);
  CHECK_INT(e.code, HL_OK);
  CHECK_STR(e.sqlstate, "00000");
  CHECK(e.message == NULL);
  CHECK_INT(e.position, -1);
  CHECK_INT(
      hl_err_set(&e, HL_NOTFOUND, HL_SS(UNDEFINED_TABLE), "table \"%s\" does not exist", "t1"),
      HL_NOTFOUND);
  CHECK_STR(e.sqlstate, "42P01");
  CHECK_STR(e.message, "table \"t1\" does not exist");
  CHECK_INT(e.position, -1);
  /* the first error wins */
  CHECK_INT(hl_err_set(&e, HL_ERROR, HL_SS(SYNTAX_ERROR), "later"), HL_NOTFOUND);
  CHECK_INT(hl_err_set_at(&e, 7, HL_ERROR, HL_SS(SYNTAX_ERROR), "later"), HL_NOTFOUND);
  CHECK_INT(hl_err_nomem(&e), HL_NOTFOUND);
  CHECK_STR(e.message, "table \"t1\" does not exist");
  CHECK_STR(e.sqlstate, "42P01");
  CHECK_INT(e.position, -1);
  /* a position is attached once */
  hl_err_position(&e, 12);
  hl_err_position(&e, 99);
  CHECK_INT(e.position, 12);
  hl_err_clear(&e);
  CHECK_INT(e.code, HL_OK);
  CHECK(e.message == NULL);
  CHECK_INT(e.position, -1);
  CHECK_STR(e.sqlstate, "00000");
  /* no position on a clear record */
  hl_err_position(&e, 5);
  CHECK_INT(e.position, -1);
  /* set_at */
  CHECK_INT(
      hl_err_set_at(&e, 4, HL_ERROR, HL_SS(SYNTAX_ERROR), "syntax error at or near \"%s\"", "FORM"),
      HL_ERROR);
  CHECK_INT(e.position, 4);
  CHECK_STR(e.sqlstate, "42601");
  CHECK_STR(e.message, "syntax error at or near \"FORM\"");
  hl_err_clear(&e);
  /* a NULL sqlstate becomes XX000 */
  hl_err_set(&e, HL_INTERNAL, NULL, "boom %d", 1);
  CHECK_STR(e.sqlstate, "XX000");
  CHECK_STR(e.message, "boom 1");
  hl_err_clear(&e);
  hl_err_clear(&e); /* clearing twice is harmless */
}

TEST(error_nomem_is_static) {
  hl_error_t e;
  hl_err_init(&e);
  /* the next allocation would fail; reporting OOM must not need it */
  hl_mem_fail_after(1);
  CHECK_INT(hl_err_nomem(&e), HL_NOMEM);
  void *p = hl_malloc(1); /* the armed failure is still pending */
  hl_mem_fail_after(0);
  CHECK(p == NULL);
  hl_free(p);
  CHECK_STR(e.sqlstate, "53200");
  CHECK_STR(e.message, "out of memory");
  CHECK_INT(e.message_owned, 0);
  hl_err_clear(&e);
  /* hl_err_set with HL_NOMEM gives the same static record */
  CHECK_INT(hl_err_set(&e, HL_NOMEM, HL_SS(OUT_OF_MEMORY), "ignored %s", "text"), HL_NOMEM);
  CHECK_STR(e.message, "out of memory");
  CHECK_INT(e.message_owned, 0);
  hl_err_clear(&e);
  /* a message that cannot be allocated turns into the OOM error */
  hl_mem_fail_after(1);
  CHECK_INT(hl_err_set(&e, HL_ERROR, HL_SS(SYNTAX_ERROR), "x"), HL_NOMEM);
  hl_mem_fail_after(0);
  CHECK_STR(e.sqlstate, "53200");
  CHECK_STR(e.message, "out of memory");
  /* prefixing leaves the OOM message alone */
  hl_err_prefix(&e, "reading \"%s\"", "f");
  CHECK_STR(e.message, "out of memory");
  hl_err_clear(&e);
}

TEST(error_prefix_move) {
  hl_error_t e, d;
  hl_err_init(&e);
  hl_err_init(&d);
  hl_err_prefix(&e, "ignored"); /* no error: no-op */
  CHECK(e.message == NULL);
  hl_err_set_at(&e, 3, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "bad footer");
  hl_err_prefix(&e, "file \"%s\"", "a.parquet");
  CHECK_STR(e.message, "file \"a.parquet\": bad footer");
  CHECK_INT(e.code, HL_CORRUPT);
  CHECK_STR(e.sqlstate, "XX001");
  CHECK_INT(e.position, 3);
  /* a failed prefix keeps the old message */
  hl_mem_fail_after(1);
  hl_err_prefix(&e, "outer");
  hl_mem_fail_after(0);
  CHECK_STR(e.message, "file \"a.parquet\": bad footer");
  /* move into a record that holds an error: the old one is freed */
  hl_err_set(&d, HL_ERROR, HL_SS(SYNTAX_ERROR), "old");
  hl_err_move(&d, &e);
  CHECK_STR(d.message, "file \"a.parquet\": bad footer");
  CHECK_INT(d.code, HL_CORRUPT);
  CHECK_INT(d.position, 3);
  CHECK_INT(e.code, HL_OK);
  CHECK(e.message == NULL);
  CHECK_INT(e.position, -1);
  hl_err_clear(&d);
  hl_err_clear(&e);
}

TEST(sqlstate_table) {
  int bad = 0;
  for (int id = 0; id < HL_SQLSTATE_COUNT_; id++) {
    const char *c = hl_sqlstate_code((hl_sqlstate_id_t)id);
    if (strlen(c) != 5) bad++;
    for (int i = 0; c[i]; i++)
      if (!((c[i] >= '0' && c[i] <= '9') || (c[i] >= 'A' && c[i] <= 'Z'))) bad++;
  }
  CHECK_INT(bad, 0);
  CHECK(HL_SQLSTATE_COUNT_ > 40);
  CHECK_STR(HL_SS(SUCCESS), "00000");
  CHECK_STR(HL_SS(SYNTAX_ERROR), "42601");
  CHECK_STR(HL_SS(OUT_OF_MEMORY), "53200");
  CHECK_STR(HL_SS(FEATURE_NOT_SUPPORTED), "0A000");
  CHECK_STR(HL_SS(INVALID_TEXT_REPRESENTATION), "22P02");
  CHECK_STR(hl_sqlstate_code(HL_SQLSTATE_COUNT_), "XX000");
  CHECK_STR(hl_sqlstate_code((hl_sqlstate_id_t)-1), "XX000");
}

/* ================================================================== kv */

TEST(kv_get) {
  hl_kv_t kvs[] = {{"a", "1"}, {"b", "2"}, {"a", "3"}};
  CHECK_STR(hl_kv_get(kvs, 3, "a"), "3"); /* later pairs override */
  CHECK_STR(hl_kv_get(kvs, 3, "b"), "2");
  CHECK(hl_kv_get(kvs, 3, "A") == NULL);
  CHECK(hl_kv_get(kvs, 0, "a") == NULL);
}

/* ================================================================= mem */

TEST(mem_fail_nth) {
  void *p[6];
  hl_mem_fail_after(3);
  p[0] = hl_malloc(8);
  p[1] = hl_calloc(2, 8);
  p[2] = hl_strdup("x"); /* the 3rd */
  p[3] = hl_malloc(8);
  p[4] = hl_realloc(NULL, 8);
  p[5] = hl_strndup("abc", 2);
  CHECK(p[0] != NULL);
  CHECK(p[1] != NULL);
  CHECK(p[2] == NULL);
  CHECK(p[3] != NULL);
  CHECK(p[4] != NULL);
  CHECK_STR(p[5], "ab");
  for (int i = 0; i < 6; i++)
    hl_free(p[i]);
  /* realloc failure leaves the block alone */
  char *s = hl_strdup("keep");
  hl_mem_fail_after(1);
  CHECK(hl_realloc(s, 1000) == NULL);
  CHECK_STR(s, "keep");
  hl_free(s);
  /* 0 turns injection off */
  hl_mem_fail_after(2);
  hl_mem_fail_after(0);
  int ok = 0;
  for (int i = 0; i < 5; i++) {
    void *q = hl_malloc(1);
    ok += q != NULL;
    hl_free(q);
  }
  CHECK_INT(ok, 5);
  /* zero-size requests return a pointer */
  void *z = hl_malloc(0);
  CHECK(z != NULL);
  hl_free(z);
  hl_free(NULL);
}

static void count_cleanup(void *arg) {
  (*(int *)arg)++;
}

/* A small workload over arena, strbuf, error, type and value that reports
 * HL_NOMEM (or swallows the failure where the API allows it) whichever
 * allocation fails. */
static hl_status_t fault_workload(hl_error_t *err, int *cleanups) {
  hl_status_t rc = HL_OK;
  hl_buf_t b;
  hl_buf_init(&b);
  char *detached = NULL;
  hl_error_t inner;
  hl_err_init(&inner);
  hl_arena_t *a = hl_arena_create(256);
  if (!a) return hl_err_nomem(err);
  for (int i = 0; i < 30; i++) {
    if (!hl_arena_sprintf(a, "item %d", i)) {
      rc = hl_err_nomem(err);
      goto done;
    }
  }
  if (!hl_arena_alloc(a, 1000) || hl_arena_on_reset(a, count_cleanup, cleanups) < 0) {
    rc = hl_err_nomem(err);
    goto done;
  }
  char *grow = hl_arena_alloc(a, 8);
  if (!grow || !hl_arena_realloc(a, grow, 8, 400)) {
    rc = hl_err_nomem(err);
    goto done;
  }
  hl_arena_reset(a);
  hl_type_t *t;
  rc = hl_type_parse_str(
      a, "struct<a:int,b:array<decimal(5,2)>,c:map<string,varchar(3)>,d:int,e:int>", &t, err);
  if (rc != HL_OK) goto done;
  char *spelled = hl_type_to_string(a, t);
  hl_type_t *copy = hl_type_copy(a, t);
  if (!spelled || !copy) {
    rc = hl_err_nomem(err);
    goto done;
  }
  hl_value_t v;
  rc = hl_value_from_text(a, t->children[2]->children[1], "abcdef", 6, &v, err);
  if (rc != HL_OK) goto done;
  for (int i = 0; i < 100; i++)
    hl_buf_printf(&b, "%s %d;", spelled, i);
  hl_value_format(&b, t->children[2]->children[1], &v);
  detached = hl_buf_detach(&b);
  if (!detached) {
    rc = hl_err_nomem(err);
    goto done;
  }
  hl_err_set_at(&inner, 2, HL_ERROR, HL_SS(UNDEFINED_TABLE), "table \"%s\" does not exist", "t");
  hl_err_prefix(&inner, "while reading \"%s\"", "x");
  if (strcmp(inner.message, "out of memory") != 0 &&
      strcmp(inner.message, "table \"t\" does not exist") != 0 &&
      strcmp(inner.message, "while reading \"x\": table \"t\" does not exist") != 0)
    rc = hl_err_set(err, HL_INTERNAL, HL_SS(INTERNAL_ERROR), "bad message");
done:
  hl_err_clear(&inner);
  hl_free(detached);
  hl_buf_fini(&b);
  hl_arena_destroy(a);
  return rc;
}

/* True when an allocation failure armed with hl_mem_fail_after(n) has
 * fired; otherwise the countdown is still pending and one of the next n
 * allocations hits it. */
static int armed_failure_fired(long n) {
  int fired = 1;
  for (long i = 0; i < n; i++) {
    void *p = hl_malloc(1);
    if (!p) fired = 0;
    hl_free(p);
  }
  hl_mem_fail_after(0);
  return fired;
}

TEST(mem_faultsim_workload) {
  int completed = 0, nomem = 0, other = 0;
  long n;
  for (n = 1; n < 2000; n++) {
    hl_error_t err;
    hl_err_init(&err);
    int cleanups = 0;
    hl_mem_fail_after(n);
    hl_status_t rc = fault_workload(&err, &cleanups);
    int fired = armed_failure_fired(n);
    if (rc == HL_NOMEM && strcmp(err.sqlstate, "53200") == 0 && fired)
      nomem++;
    else if (rc != HL_OK)
      other++;
    if (cleanups > 1) other++;
    hl_err_clear(&err);
    if (!fired) {
      completed = rc == HL_OK && cleanups == 1;
      break;
    }
  }
  CHECK_INT(other, 0);
  CHECK(nomem > 10);
  CHECK_INT(completed, 1); /* the sweep reached a run without failure */
  CHECK(n < 2000);
}

/* ================================================================ type */

static hl_type_t *ty(hl_arena_t *a, const char *text) {
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  if (hl_type_parse_str(a, text, &t, &e) != HL_OK) {
    fprintf(stderr, "type \"%s\": %s\n", text, e.message);
    t = NULL;
  }
  hl_err_clear(&e);
  CHECK(t != NULL);
  return t;
}

/* Canonical spelling of TEXT, or "ERR:<sqlstate>@<position>:<message>". */
static const char *spell(hl_arena_t *a, const char *text) {
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  const char *out;
  if (hl_type_parse_str(a, text, &t, &e) != HL_OK)
    out = hl_arena_sprintf(a, "ERR:%s@%ld:%s", e.sqlstate, e.position, e.message);
  else
    out = hl_type_to_string(a, t);
  hl_err_clear(&e);
  return out;
}

TEST(type_primitives) {
  hl_arena_t *a = hl_arena_create(0);
  static const char *const cases[][2] = {
      {"boolean", "boolean"},
      {"TINYINT", "tinyint"},
      {"SmallInt", "smallint"},
      {"int", "int"},
      {"INTEGER", "int"},
      {"bigint", "bigint"},
      {"float", "float"},
      {"REAL", "float"},
      {"double", "double"},
      {"DOUBLE PRECISION", "double"},
      {"double   precision", "double"},
      {"decimal", "decimal(10,0)"},
      {"DEC", "decimal(10,0)"},
      {"numeric", "decimal(10,0)"},
      {"Numeric(12,4)", "decimal(12,4)"},
      {"decimal(5)", "decimal(5,0)"},
      {"decimal( 7 , 3 )", "decimal(7,3)"},
      {"decimal(38,38)", "decimal(38,38)"},
      {"decimal(1,0)", "decimal(1,0)"},
      {"string", "string"},
      {"varchar(10)", "varchar(10)"},
      {"VARCHAR(65535)", "varchar(65535)"},
      {"char(1)", "char(1)"},
      {"char(255)", "char(255)"},
      {"date", "date"},
      {"timestamp", "timestamp"},
      {"binary", "binary"},
      {"void", "void"},
      {"  int  ", "int"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CHECK_STR(spell(a, cases[i][0]), cases[i][1]);
  hl_type_t *t = ty(a, "decimal");
  CHECK_INT(t->precision, 10);
  CHECK_INT(t->scale, 0);
  t = ty(a, "numeric(12,4)");
  CHECK_INT(t->id, HL_T_DECIMAL);
  CHECK_INT(t->precision, 12);
  CHECK_INT(t->scale, 4);
  t = ty(a, "varchar(10)");
  CHECK_INT(t->id, HL_T_VARCHAR);
  CHECK_INT(t->length, 10);
  t = ty(a, "char(3)");
  CHECK_INT(t->id, HL_T_CHAR);
  CHECK_INT(t->length, 3);
  hl_arena_destroy(a);
}

TEST(type_complex) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(spell(a, "array<int>"), "array<int>");
  CHECK_STR(spell(a, "ARRAY < INT >"), "array<int>");
  CHECK_STR(spell(a, "MAP<STRING,Array<BIGINT>>"), "map<string,array<bigint>>");
  CHECK_STR(spell(a, "array<map<string,struct<a:int,b:array<decimal(5,2)>>>>"),
            "array<map<string,struct<a:int,b:array<decimal(5,2)>>>>");
  CHECK_STR(spell(a, "struct< a : int , b : string >"), "struct<a:int,b:string>");
  /* field names are folded to lower case, as Hive stores them */
  CHECK_STR(spell(a, "struct<Col_1:int>"), "struct<col_1:int>");
  CHECK_STR(spell(a, "struct<`my field`:int,`select`:string>"),
            "struct<my field:int,select:string>");
  CHECK_STR(spell(a, "struct<a:int,b:int,c:int,d:int,e:int,f:int,g:int,h:int,i:int>"),
            "struct<a:int,b:int,c:int,d:int,e:int,f:int,g:int,h:int,i:int>");
  hl_type_t *t = ty(a, "map<int,struct<x:double,y:array<char(2)>>>");
  CHECK_INT(t->id, HL_T_MAP);
  CHECK_INT(t->n_children, 2);
  CHECK_INT(t->children[0]->id, HL_T_INT);
  hl_type_t *st = t->children[1];
  CHECK_INT(st->id, HL_T_STRUCT);
  CHECK_INT(st->n_children, 2);
  CHECK_STR(st->field_names[0], "x");
  CHECK_STR(st->field_names[1], "y");
  CHECK_INT(st->children[1]->children[0]->id, HL_T_CHAR);
  CHECK_INT(st->children[1]->children[0]->length, 2);
  hl_arena_destroy(a);
}

TEST(type_errors) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(spell(a, "decimal(0)"), "ERR:42611@8:decimal precision 0 is out of range [1, 38]");
  CHECK_STR(spell(a, "decimal(39,2)"), "ERR:42611@8:decimal precision 39 is out of range [1, 38]");
  CHECK_STR(spell(a, "decimal(5,6)"), "ERR:42611@8:decimal scale 6 is greater than precision 5");
  CHECK_STR(spell(a, "decimal(10"), "ERR:42601@10:expected \")\" in type at end of input");
  CHECK_STR(spell(a, "decimal(,2)"), "ERR:42601@8:expected a number in type at or near \",\"");
  CHECK_STR(spell(a, "varchar(0)"), "ERR:42611@8:varchar length 0 is out of range [1, 65535]");
  CHECK_STR(spell(a, "varchar(65536)"),
            "ERR:42611@8:varchar length 65536 is out of range [1, 65535]");
  CHECK_STR(spell(a, "char(256)"), "ERR:42611@5:char length 256 is out of range [1, 255]");
  CHECK_STR(spell(a, "char(0)"), "ERR:42611@5:char length 0 is out of range [1, 255]");
  CHECK_STR(spell(a, "varchar"), "ERR:42601@7:VARCHAR needs a length in type at end of input");
  CHECK_STR(spell(a, "char x"), "ERR:42601@5:CHAR needs a length in type at or near \"x\"");
  CHECK_STR(spell(a, "struct<a:int,a:string>"),
            "ERR:42611@13:duplicate field \"a\" in struct type");
  CHECK_STR(spell(a, "struct<A:int,`a`:string>"),
            "ERR:42611@14:duplicate field \"a\" in struct type");
  CHECK_STR(spell(a, "foo"), "ERR:42704@0:unknown type \"foo\"");
  CHECK_STR(spell(a, "array<strin>"), "ERR:42704@6:unknown type \"strin\"");
  CHECK_STR(spell(a, "uniontype<int,string>"), "uniontype<int,string>");
  CHECK_STR(spell(a, "UnionType< INT , array<uniontype<string>> >"),
            "uniontype<int,array<uniontype<string>>>");
  CHECK_STR(spell(a, "uniontype<>"), "ERR:42601@10:expected a type name in type at or near \">\"");
  CHECK_STR(spell(a, "uniontype<int"),
            "ERR:42601@13:expected \",\" or \">\" in type at end of input");
  CHECK_STR(spell(a, "uniontype"), "ERR:42601@9:expected \"<\" in type at end of input");
  {
    /* 128 alternatives (Hive's tag is a signed byte), not 129 */
    char many[1024] = "uniontype<int";
    for (int i = 1; i < 128; i++)
      strcat(many, ",int");
    strcat(many, ">");
    CHECK(spell(a, many)[0] == 'u');
    many[strlen(many) - 1] = '\0';
    strcat(many, ",int>");
    CHECK_STR(spell(a, many), "ERR:42611@522:a uniontype has at most 128 alternatives");
  }
  CHECK_STR(spell(a, "timestamp with local time zone"),
            "ERR:0A000@10:TIMESTAMP WITH LOCAL TIME ZONE is not supported");
  CHECK_STR(spell(a, "array<int"), "ERR:42601@9:expected \">\" in type at end of input");
  CHECK_STR(spell(a, "array int"), "ERR:42601@6:expected \"<\" in type at or near \"int\"");
  CHECK_STR(spell(a, "map<int>"), "ERR:42601@7:expected \",\" in type at or near \">\"");
  CHECK_STR(spell(a, "array<>"), "ERR:42601@6:expected a type name in type at or near \">\"");
  CHECK_STR(spell(a, "struct<>"), "ERR:42601@7:expected a field name in type at or near \">\"");
  CHECK_STR(spell(a, "struct<a int>"), "ERR:42601@9:expected \":\" in type at or near \"int\"");
  CHECK_STR(spell(a, "struct<a:int;b:int>"),
            "ERR:42601@12:expected \",\" or \">\" in type at or near \";\"");
  CHECK_STR(spell(a, "struct<`a:int>"),
            "ERR:42601@14:unterminated quoted field name in type at end of input");
  CHECK_STR(spell(a, "struct<a:int comment 'x'>"),
            "ERR:0A000@13:comments on struct fields are not supported");
  CHECK_STR(spell(a, ""), "ERR:42601@0:expected a type name in type at end of input");
  CHECK_STR(spell(a, "   "), "ERR:42601@3:expected a type name in type at end of input");
  CHECK_STR(spell(a, "<int>"), "ERR:42601@0:expected a type name in type at or near \"<\"");
  CHECK_STR(spell(a, "int)"), "ERR:42601@3:unexpected text after type: \")\"");
  CHECK_STR(spell(a, "int string"), "ERR:42601@4:unexpected text after type: \"string\"");
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  /* the interval types: Hive's names and SQL spellings; INTERVAL alone is no type */
  CHECK_STR(spell(a, "interval"),
            "ERR:42601@0:expected INTERVAL YEAR TO MONTH or INTERVAL DAY TO SECOND in type at or "
            "near \"interval\"");
  CHECK_STR(spell(a, "INTERVAL  Year To Month"), "interval_year_month");
  CHECK_STR(spell(a, "interval day to second"), "interval_day_time");
  CHECK_STR(spell(a, "array<Interval_Day_Time>"), "array<interval_day_time>");
  CHECK_INT(hl_type_parse_str(a, "map<string,interval_year_month>", &t, &e), HL_OK);
  CHECK(hl_type_has_interval(t) && !hl_type_is_interval(t) &&
        hl_type_phys(t->children[1]) == HL_P_I64);
  CHECK_INT(hl_type_parse_str(a, "interval day to minute", &t, &e), HL_ERROR);
  hl_err_clear(&e);
  /* a union copies and compares like the other complex types */
  CHECK_INT(hl_type_parse_str(a, "uniontype<int,map<string,date>>", &t, &e), HL_OK);
  hl_type_t *c = hl_type_copy(a, t), *o = NULL;
  CHECK(c && hl_type_equal(t, c) && hl_type_is_complex(c));
  CHECK(hl_type_contains(c, HL_T_UNION) && hl_type_contains(c, HL_T_DATE));
  CHECK(!hl_type_contains(c, HL_T_ARRAY));
  CHECK_INT(hl_type_parse_str(a, "uniontype<int,map<string,string>>", &o, &e), HL_OK);
  CHECK(!hl_type_equal(t, o));
  CHECK_INT(hl_type_parse_str(a, "struct<a:int,b:map<string,date>>", &o, &e), HL_OK);
  CHECK(!hl_type_equal(t, o));
  hl_err_clear(&e);
  CHECK_INT(hl_type_parse_str(a, "foo", &t, &e), HL_ERROR);
  hl_err_clear(&e);
  hl_arena_destroy(a);
}

TEST(type_nesting_limit) {
  hl_arena_t *a = hl_arena_create(0);
  hl_buf_t b;
  hl_buf_init(&b);
  for (int i = 0; i < 64; i++)
    hl_buf_puts(&b, "array<");
  hl_buf_puts(&b, "int");
  for (int i = 0; i < 64; i++)
    hl_buf_putc(&b, '>');
  hl_type_t *t = ty(a, hl_buf_cstr(&b));
  int depth = 0;
  while (t && t->id == HL_T_ARRAY) {
    t = t->children[0];
    depth++;
  }
  CHECK_INT(depth, 64);
  hl_buf_reset(&b);
  for (int i = 0; i < 65; i++)
    hl_buf_puts(&b, "array<");
  hl_buf_puts(&b, "int");
  for (int i = 0; i < 65; i++)
    hl_buf_putc(&b, '>');
  CHECK_STR(spell(a, hl_buf_cstr(&b)),
            "ERR:42601@390:type nested too deeply in type at or near \"int\"");
  /* a hostile depth stops early instead of recursing without bound */
  hl_buf_reset(&b);
  for (int i = 0; i < 100000; i++)
    hl_buf_puts(&b, "struct<a:");
  CHECK_STR(spell(a, hl_buf_cstr(&b)),
            "ERR:42601@585:type nested too deeply in type at or near \"struct\"");
  hl_buf_fini(&b);
  hl_arena_destroy(a);
}

TEST(type_consumed_prefix) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  size_t used = 99;
  static const struct {
    const char *text;
    size_t consumed;
    const char *spelled;
  } cases[] = {
      {"int, b string", 3, "int"},
      {"decimal(10,2) not null", 13, "decimal(10,2)"},
      {"decimal not null", 7, "decimal(10,0)"},
      {"double precision x", 16, "double"},
      {"double x", 6, "double"},
      {"array<int>> x", 10, "array<int>"},
      {"  bigint  ", 8, "bigint"},
      {"timestamp,", 9, "timestamp"},
      {"varchar(5)comment", 10, "varchar(5)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    used = 99;
    CHECK_INT(hl_type_parse(a, cases[i].text, strlen(cases[i].text), &used, &t, &e), HL_OK);
    CHECK_INT(used, cases[i].consumed);
    CHECK_STR(hl_type_to_string(a, t), cases[i].spelled);
  }
  /* LEN bounds the text: no NUL needed */
  CHECK_INT(hl_type_parse(a, "intXYZ", 3, &used, &t, &e), HL_OK);
  CHECK_INT(used, 3);
  CHECK_INT(t->id, HL_T_INT);
  CHECK_INT(hl_type_parse(a, "array<int>", 9, &used, &t, &e), HL_ERROR);
  CHECK_INT(e.position, 9);
  hl_err_clear(&e);
  hl_arena_destroy(a);
}

TEST(type_properties) {
  hl_arena_t *a = hl_arena_create(0);
  static const struct {
    const char *text;
    hl_phys_t phys;
  } phys[] = {
      {"boolean", HL_P_BOOL},        {"tinyint", HL_P_I64},
      {"smallint", HL_P_I64},        {"int", HL_P_I64},
      {"bigint", HL_P_I64},          {"date", HL_P_I64},
      {"timestamp", HL_P_I64},       {"float", HL_P_F64},
      {"double", HL_P_F64},          {"decimal(5,2)", HL_P_I128},
      {"string", HL_P_STR},          {"varchar(3)", HL_P_STR},
      {"char(3)", HL_P_STR},         {"binary", HL_P_STR},
      {"array<int>", HL_P_VALUE},    {"map<int,int>", HL_P_VALUE},
      {"struct<a:int>", HL_P_VALUE}, {"void", HL_P_VALUE},
  };
  for (size_t i = 0; i < sizeof phys / sizeof phys[0]; i++)
    CHECK_INT(hl_type_phys(ty(a, phys[i].text)), phys[i].phys);

  CHECK(hl_type_equal(ty(a, "int"), hl_type_prim(HL_T_INT)));
  CHECK(hl_type_equal(ty(a, "INTEGER"), ty(a, "int")));
  CHECK(!hl_type_equal(ty(a, "int"), ty(a, "bigint")));
  CHECK(hl_type_equal(ty(a, "decimal"), hl_type_prim(HL_T_DECIMAL)));
  CHECK(hl_type_equal(ty(a, "decimal(10,2)"), ty(a, "numeric(10,2)")));
  CHECK(!hl_type_equal(ty(a, "decimal(10,2)"), ty(a, "decimal(10,3)")));
  CHECK(!hl_type_equal(ty(a, "decimal(10,2)"), ty(a, "decimal(11,2)")));
  CHECK(!hl_type_equal(ty(a, "varchar(5)"), ty(a, "varchar(6)")));
  CHECK(!hl_type_equal(ty(a, "varchar(5)"), ty(a, "char(5)")));
  CHECK(!hl_type_equal(ty(a, "array<int>"), ty(a, "array<bigint>")));
  CHECK(!hl_type_equal(ty(a, "struct<a:int>"), ty(a, "struct<b:int>")));
  CHECK(!hl_type_equal(ty(a, "struct<a:int>"), ty(a, "struct<a:int,b:int>")));
  CHECK(hl_type_equal(ty(a, "struct<A:int,b:map<string,int>>"),
                      ty(a, "struct<a:int,B:map<STRING,INT>>")));

  CHECK(hl_type_is_integer(ty(a, "tinyint")));
  CHECK(hl_type_is_integer(ty(a, "bigint")));
  CHECK(!hl_type_is_integer(ty(a, "float")));
  CHECK(hl_type_is_numeric(ty(a, "decimal(3,1)")));
  CHECK(hl_type_is_numeric(ty(a, "double")));
  CHECK(!hl_type_is_numeric(ty(a, "string")));
  CHECK(!hl_type_is_numeric(ty(a, "boolean")));
  CHECK(hl_type_is_string(ty(a, "char(2)")));
  CHECK(!hl_type_is_string(ty(a, "binary")));
  CHECK(hl_type_is_complex(ty(a, "map<int,int>")));
  CHECK(!hl_type_is_complex(ty(a, "date")));
  CHECK_STR(hl_type_id_name(HL_T_BIGINT), "BIGINT");
  CHECK_STR(hl_type_id_name(HL_T_NULL), "VOID");
  CHECK_STR(hl_type_id_name(HL_T_STRUCT), "STRUCT");
  CHECK_STR(hl_type_id_name((hl_type_id_t)99), "UNKNOWN");
  CHECK_INT(hl_type_prim(HL_T_VARCHAR)->length, 65535);
  CHECK_INT(hl_type_prim(HL_T_CHAR)->length, 255);
  CHECK_INT(hl_type_prim(HL_T_DECIMAL)->precision, 10);
  CHECK_STR(hl_type_to_string(a, hl_type_decimal(a, 7, 2)), "decimal(7,2)");
  CHECK_STR(hl_type_to_string(a, hl_type_varchar(a, HL_T_VARCHAR, 12)), "varchar(12)");
  CHECK_STR(hl_type_to_string(a, hl_type_varchar(a, HL_T_CHAR, 4)), "char(4)");
  hl_arena_destroy(a);
}

TEST(type_copy) {
  hl_arena_t *src = hl_arena_create(0);
  hl_arena_t *dst = hl_arena_create(0);
  const char *text = "array<map<string,struct<a:int,b:array<decimal(5,2)>,c:varchar(7)>>>";
  hl_type_t *t = ty(src, text);
  hl_type_t *c = hl_type_copy(dst, t);
  CHECK(c != NULL);
  CHECK(c != t);
  CHECK(c->children[0] != t->children[0]);
  CHECK(hl_type_equal(c, t));
  hl_arena_destroy(src); /* the copy must not point into the source */
  CHECK_STR(hl_type_to_string(dst, c), text);
  hl_type_t *p = hl_type_copy(dst, hl_type_prim(HL_T_DATE));
  CHECK_INT(p->id, HL_T_DATE);
  hl_arena_destroy(dst);
}

/* =============================================================== value */

/* Casts TEXT to TYPE and prints the result, or "ERR:<sqlstate>". */
static const char *conv(hl_arena_t *a, const char *type_text, const char *text) {
  hl_type_t *t = ty(a, type_text);
  if (!t) return "no type";
  hl_error_t e;
  hl_err_init(&e);
  hl_value_t v;
  const char *out;
  if (hl_value_from_text(a, t, text, strlen(text), &v, &e) != HL_OK) {
    out = hl_arena_sprintf(a, "ERR:%s", e.sqlstate);
  } else {
    hl_buf_t b;
    hl_buf_init(&b);
    hl_value_format(&b, t, &v);
    out = hl_arena_strndup(a, hl_buf_cstr(&b), b.len);
    hl_buf_fini(&b);
  }
  hl_err_clear(&e);
  return out;
}

static hl_value_t val(hl_arena_t *a, const char *type_text, const char *text) {
  hl_value_t v;
  hl_error_t e;
  hl_err_init(&e);
  CHECK_INT(hl_value_from_text(a, ty(a, type_text), text, strlen(text), &v, &e), HL_OK);
  hl_err_clear(&e);
  return v;
}

TEST(value_boolean) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(conv(a, "boolean", "true"), "true");
  CHECK_STR(conv(a, "boolean", "TRUE"), "true");
  CHECK_STR(conv(a, "boolean", " False\t"), "false");
  CHECK_STR(conv(a, "boolean", "fAlSe"), "false");
  CHECK_STR(conv(a, "boolean", "t"), "ERR:22P02");
  CHECK_STR(conv(a, "boolean", "1"), "ERR:22P02");
  CHECK_STR(conv(a, "boolean", "truex"), "ERR:22P02");
  CHECK_STR(conv(a, "boolean", ""), "ERR:22P02");
  CHECK_STR(conv(a, "boolean", "  "), "ERR:22P02");
  CHECK_INT(val(a, "boolean", "true").u.b, 1);
  hl_arena_destroy(a);
}

TEST(value_integers) {
  hl_arena_t *a = hl_arena_create(0);
  static const char *const cases[][3] = {
      {"tinyint", "127", "127"},
      {"tinyint", "128", "ERR:22003"},
      {"tinyint", "-128", "-128"},
      {"tinyint", "-129", "ERR:22003"},
      {"smallint", "32767", "32767"},
      {"smallint", "32768", "ERR:22003"},
      {"smallint", "-32768", "-32768"},
      {"smallint", "-32769", "ERR:22003"},
      {"int", "2147483647", "2147483647"},
      {"int", "2147483648", "ERR:22003"},
      {"int", "-2147483648", "-2147483648"},
      {"int", "-2147483649", "ERR:22003"},
      {"bigint", "9223372036854775807", "9223372036854775807"},
      {"bigint", "9223372036854775808", "ERR:22003"},
      {"bigint", "-9223372036854775808", "-9223372036854775808"},
      {"bigint", "-9223372036854775809", "ERR:22003"},
      {"bigint", "18446744073709551616", "ERR:22003"},
      {"bigint", "99999999999999999999999999999", "ERR:22003"},
      {"int", "+5", "5"},
      {"int", "-0", "0"},
      {"int", "007", "7"},
      {"int", " 42 ", "42"},
      {"int", "\t-3\n", "-3"},
      /* Hive (LazyInteger) truncates a fractional part */
      {"int", "1.9", "1"},
      {"int", "-1.9", "-1"},
      {"int", "7.", "7"},
      {"tinyint", "127.99", "127"},
      {"tinyint", "128.5", "ERR:22003"},
      {"int", ".", "ERR:22P02"},
      {"int", "1.x", "ERR:22P02"},
      {"int", "1.2.3", "ERR:22P02"},
      {"int", "", "ERR:22P02"},
      {"int", "   ", "ERR:22P02"},
      {"int", "-", "ERR:22P02"},
      {"int", "+", "ERR:22P02"},
      {"int", "12a", "ERR:22P02"},
      {"int", "1 2", "ERR:22P02"},
      {"int", "0x10", "ERR:22P02"},
      {"int", "1e3", "ERR:22P02"},
      {"int", "--1", "ERR:22P02"},
      {"int", "one", "ERR:22P02"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *got = conv(a, cases[i][0], cases[i][1]);
    if (strcmp(got, cases[i][2]) != 0) fprintf(stderr, "  %s '%s'\n", cases[i][0], cases[i][1]);
    CHECK_STR(got, cases[i][2]);
  }
  CHECK_INT(val(a, "bigint", "-9223372036854775808").u.i, INT64_MIN);
  CHECK_INT(val(a, "tinyint", "-128").u.i, -128);
  /* messages */
  hl_error_t e;
  hl_err_init(&e);
  hl_value_t v;
  CHECK_INT(hl_value_from_text(a, ty(a, "int"), "12a", 3, &v, &e), HL_ERROR);
  CHECK_STR(e.message, "invalid input syntax for type INT: \"12a\"");
  hl_err_clear(&e);
  CHECK_INT(hl_value_from_text(a, ty(a, "tinyint"), "128", 3, &v, &e), HL_ERROR);
  CHECK_STR(e.message, "value \"128\" is out of range for type TINYINT");
  hl_err_clear(&e);
  /* LEN bounds the text */
  CHECK_INT(hl_value_from_text(a, ty(a, "int"), "123456", 3, &v, &e), HL_OK);
  CHECK_INT(v.u.i, 123);
  CHECK(!v.is_null);
  hl_arena_destroy(a);
}

TEST(value_floats) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(conv(a, "double", "1.5"), "1.5");
  CHECK_STR(conv(a, "double", " 2 "), "2.0");
  CHECK_STR(conv(a, "double", "-3.25e2"), "-325.0");
  CHECK_STR(conv(a, "double", "1e308"), "1.0E308");
  CHECK_STR(conv(a, "double", "1.7976931348623157E308"), "1.7976931348623157E308");
  CHECK_STR(conv(a, "double", "1e309"), "Infinity"); /* Java's parseDouble overflows */
  CHECK_STR(conv(a, "double", "4.9e-324"), "4.9E-324");
  CHECK_STR(conv(a, "double", ".5"), "0.5");
  CHECK_STR(conv(a, "double", "5."), "5.0");
  CHECK_STR(conv(a, "double", "+7"), "7.0");
  CHECK_STR(conv(a, "double", "-0"), "-0.0");
  CHECK_STR(conv(a, "double", "NaN"), "NaN");
  CHECK_STR(conv(a, "double", "Infinity"), "Infinity");
  CHECK_STR(conv(a, "double", "-Infinity"), "-Infinity");
  CHECK_STR(conv(a, "double", "+Infinity"), "Infinity");
  CHECK_STR(conv(a, "double", " NaN "), "NaN");
  CHECK_STR(conv(a, "double", "inf"), "ERR:22P02");
  CHECK_STR(conv(a, "double", "nan"), "ERR:22P02");
  CHECK_STR(conv(a, "double", "infinity"), "ERR:22P02");
  CHECK_STR(conv(a, "double", "0x10"), "ERR:22P02");
  CHECK_STR(conv(a, "double", ""), "ERR:22P02");
  CHECK_STR(conv(a, "double", "."), "ERR:22P02");
  CHECK_STR(conv(a, "double", "1e"), "ERR:22P02");
  CHECK_STR(conv(a, "double", "1.2.3"), "ERR:22P02");
  CHECK_STR(conv(a, "double", "1 2"), "ERR:22P02");
  CHECK_STR(conv(a, "double", "abc"), "ERR:22P02");
  CHECK_STR(conv(a, "float", "0.1"), "0.1");
  CHECK_STR(conv(a, "float", "3.4028235E38"), "3.4028235E38");
  CHECK_STR(conv(a, "float", "1e39"), "Infinity");
  CHECK_STR(conv(a, "float", "1.4e-45"), "1.4E-45");
  CHECK_STR(conv(a, "float", "16777217"), "1.6777216E7"); /* rounded to float */
  CHECK(val(a, "float", "0.1").u.d == (double)0.1f);
  CHECK(val(a, "double", "0.1").u.d == 0.1);
  CHECK(isnan(val(a, "double", "NaN").u.d));
  hl_arena_destroy(a);
}

TEST(value_decimals) {
  hl_arena_t *a = hl_arena_create(0);
  static const char *const cases[][3] = {
      {"decimal(5,2)", "1.005", "1.01"},
      {"decimal(5,2)", "-1.005", "-1.01"},
      {"decimal(5,2)", "1.004", "1.00"},
      {"decimal(5,2)", "1.5", "1.50"},
      {"decimal(5,2)", "999.99", "999.99"},
      {"decimal(5,2)", "999.994", "999.99"},
      {"decimal(5,2)", "999.995", "ERR:22003"},
      {"decimal(5,2)", "1000", "ERR:22003"},
      {"decimal(5,2)", "-1000", "ERR:22003"},
      {"decimal(5,2)", "1.5e2", "150.00"},
      {"decimal(5,2)", "15e-1", "1.50"},
      {"decimal(5,2)", "1E+2", "100.00"},
      {"decimal(5,2)", "007.5", "7.50"},
      {"decimal(5,2)", "000", "0.00"},
      {"decimal(5,2)", ".5", "0.50"},
      {"decimal(5,2)", "5.", "5.00"},
      {"decimal(5,2)", "+3", "3.00"},
      {"decimal(5,2)", " 2.25 ", "2.25"},
      {"decimal(5,2)", "-0.5", "-0.50"},
      {"decimal(5,2)", "0.05", "0.05"},
      {"decimal(5,2)", "0.005", "0.01"},
      {"decimal(5,2)", "0.0049", "0.00"},
      {"decimal(5,2)", "-0.001", "0.00"},
      {"decimal(5,2)", "-0", "0.00"},
      {"decimal(5,2)", "12345e-3", "12.35"},
      {"decimal(5,2)", "1e-5000", "0.00"},
      {"decimal(5,2)", "abc", "ERR:22P02"},
      {"decimal(5,2)", "", "ERR:22P02"},
      {"decimal(5,2)", ".", "ERR:22P02"},
      {"decimal(5,2)", "-", "ERR:22P02"},
      {"decimal(5,2)", "1e", "ERR:22P02"},
      {"decimal(5,2)", "1.2.3", "ERR:22P02"},
      {"decimal(5,2)", "1,5", "ERR:22P02"},
      {"decimal(5,2)", "NaN", "ERR:22P02"},
      {"decimal", "12.5", "13"},
      {"decimal", "-12.5", "-13"},
      {"decimal", "12.49", "12"},
      {"decimal", "9999999999", "9999999999"},
      {"decimal", "10000000000", "ERR:22003"},
      {"decimal(3,1)", "1e-5", "0.0"},
      {"decimal(38,38)", "0.12345678901234567890123456789012345678",
       "0.12345678901234567890123456789012345678"},
      {"decimal(38,38)", "1", "ERR:22003"},
      {"decimal(38,0)", "99999999999999999999999999999999999999",
       "99999999999999999999999999999999999999"},
      {"decimal(38,0)", "-99999999999999999999999999999999999999",
       "-99999999999999999999999999999999999999"},
      {"decimal(38,0)", "100000000000000000000000000000000000000", "ERR:22003"},
      {"decimal(38,0)", "1e38", "ERR:22003"},
      {"decimal(38,0)",
       "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345",
       "ERR:22003"},
      {"decimal(38,2)", "1e5000", "ERR:22003"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *got = conv(a, cases[i][0], cases[i][1]);
    if (strcmp(got, cases[i][2]) != 0) fprintf(stderr, "  %s '%s'\n", cases[i][0], cases[i][1]);
    CHECK_STR(got, cases[i][2]);
  }
  CHECK(val(a, "decimal(5,2)", "1.005").u.dec == 101);
  CHECK(val(a, "decimal(5,2)", "-1.005").u.dec == -101);
  __int128 u = 0;
  CHECK_INT(hl_parse_decimal("12.345", 6, 10, 3, &u), 0);
  CHECK(u == 12345);
  CHECK_INT(hl_parse_decimal("x", 1, 10, 3, &u), -1);
  CHECK_INT(hl_parse_decimal("1e10", 4, 10, 3, &u), -2);
  hl_arena_destroy(a);
}

TEST(value_dates) {
  hl_arena_t *a = hl_arena_create(0);
  static const char *const cases[][2] = {
      {"2024-02-29", "2024-02-29"},
      {"2023-02-29", "ERR:22P02"},
      {"2000-02-29", "2000-02-29"},
      {"1900-02-29", "ERR:22P02"},
      {"2024-1-5", "2024-01-05"},
      {"0001-01-01", "0001-01-01"},
      {"1-01-01", "0001-01-01"},
      {"9999-12-31", "9999-12-31"},
      {"1969-12-31", "1969-12-31"},
      {" 2024-03-04 ", "2024-03-04"},
      {"0000-01-01", "ERR:22P02"},
      {"2024-13-01", "ERR:22P02"},
      {"2024-00-10", "ERR:22P02"},
      {"2024-04-31", "ERR:22P02"},
      {"2024-04-00", "ERR:22P02"},
      {"12345-01-01", "ERR:22P02"},
      {"2024-001-01", "ERR:22P02"},
      {"2024/01/01", "ERR:22P02"},
      {"2024-01", "ERR:22P02"},
      {"garbage", "ERR:22P02"},
      {"", "ERR:22P02"},
      {"2024-01-01x", "ERR:22P02"},
      {"2024-01-01 10:00:00", "ERR:22P02"},
      {"-2024-01-01", "ERR:22P02"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *got = conv(a, "date", cases[i][0]);
    if (strcmp(got, cases[i][1]) != 0) fprintf(stderr, "  date '%s'\n", cases[i][0]);
    CHECK_STR(got, cases[i][1]);
  }
  int64_t d = 99;
  CHECK_INT(hl_parse_date("1970-01-01", 10, &d), 0);
  CHECK_INT(d, 0);
  CHECK_INT(hl_parse_date("1969-12-31", 10, &d), 0);
  CHECK_INT(d, -1);
  CHECK_INT(hl_parse_date("2000-03-01", 10, &d), 0);
  CHECK_INT(d, 11017);
  CHECK_INT(hl_parse_date("0001-01-01", 10, &d), 0);
  CHECK_INT(d, -719162);
  CHECK_INT(hl_parse_date("9999-12-31", 10, &d), 0);
  CHECK_INT(d, 2932896);
  CHECK_INT(val(a, "date", "2024-02-29").u.i, 19782);
  hl_arena_destroy(a);
}

TEST(value_timestamps) {
  hl_arena_t *a = hl_arena_create(0);
  static const char *const cases[][2] = {
      {"2024-01-02 03:04:05", "2024-01-02 03:04:05"},
      {"2024-01-02 03:04:05.123", "2024-01-02 03:04:05.123"},
      {"2024-01-02T03:04:05.5", "2024-01-02 03:04:05.5"},
      {"2024-01-02 03:04:05.123456", "2024-01-02 03:04:05.123456"},
      {"2024-01-02 03:04:05.123456789", "2024-01-02 03:04:05.123456"},
      {"2024-01-02 03:04:05.999999999", "2024-01-02 03:04:05.999999"},
      {"2024-01-02 03:04:05.1234567890", "ERR:22P02"},
      {"2024-01-02 03:04:05.000", "2024-01-02 03:04:05"},
      {"2024-01-02 03:04:05.100", "2024-01-02 03:04:05.1"},
      {"2024-01-02", "2024-01-02 00:00:00"},
      {"2024-01-02 03:04", "2024-01-02 03:04:00"},
      {"2024-1-2 3:4:5", "2024-01-02 03:04:05"},
      {" 2024-01-02 03:04:05 ", "2024-01-02 03:04:05"},
      {"1969-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999"},
      {"0001-01-01 00:00:00", "0001-01-01 00:00:00"},
      {"9999-12-31 23:59:59.999999", "9999-12-31 23:59:59.999999"},
      {"2024-01-02 24:00:00", "ERR:22P02"},
      {"2024-01-02 03:60", "ERR:22P02"},
      {"2024-01-02 03:04:60", "ERR:22P02"},
      {"2024-01-02 03:04:05.", "ERR:22P02"},
      {"2024-01-02 03", "ERR:22P02"},
      {"2024-01-02T", "ERR:22P02"},
      {"2024-01-02 03:04:05 x", "ERR:22P02"},
      {"2024-01-02x03:04:05", "ERR:22P02"},
      {"2023-02-29 00:00:00", "ERR:22P02"},
      {"garbage", "ERR:22P02"},
      {"", "ERR:22P02"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *got = conv(a, "timestamp", cases[i][0]);
    if (strcmp(got, cases[i][1]) != 0) fprintf(stderr, "  timestamp '%s'\n", cases[i][0]);
    CHECK_STR(got, cases[i][1]);
  }
  int64_t us = 0;
  CHECK_INT(hl_parse_timestamp("1970-01-01 00:00:01.5", 21, &us), 0);
  CHECK_INT(us, 1500000);
  CHECK_INT(hl_parse_timestamp("1969-12-31 23:59:59.999999", 26, &us), 0);
  CHECK_INT(us, -1);
  CHECK_INT(val(a, "timestamp", "2024-01-02 03:04:05.000006").u.i, 1704164645000006LL);
  hl_arena_destroy(a);
}

TEST(value_strings) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(conv(a, "string", " x y "), " x y ");
  CHECK_STR(conv(a, "string", ""), "");
  CHECK_STR(conv(a, "varchar(3)", "héllo"), "hél");
  CHECK_STR(conv(a, "varchar(3)", "ab"), "ab");
  CHECK_STR(conv(a, "varchar(2)", "日本語"), "日本");
  CHECK_STR(conv(a, "varchar(5)", "abc  "), "abc  ");
  CHECK_STR(conv(a, "char(5)", "ab"), "ab   ");
  CHECK_STR(conv(a, "char(2)", "héllo"), "hé");
  CHECK_STR(conv(a, "char(3)", "日"), "日  ");
  CHECK_STR(conv(a, "char(1)", ""), " ");
  hl_value_t v = val(a, "varchar(3)", "héllo");
  CHECK_INT(v.u.s.len, 4);
  v = val(a, "char(3)", "日");
  CHECK_INT(v.u.s.len, 5);
  /* strings are copied, not borrowed */
  char src[] = "copy me";
  v = val(a, "string", src);
  src[0] = 'X';
  CHECK_INT(v.u.s.len, 7);
  CHECK(memcmp(v.u.s.ptr, "copy me", 7) == 0);
  CHECK(v.u.s.ptr != src);
  v = val(a, "binary", "\x01\x02");
  CHECK_INT(v.u.s.len, 2);
  CHECK_INT(v.u.s.ptr[1], 2);
  /* void is NULL; complex types are not parsed from text */
  v = val(a, "void", "anything");
  CHECK(v.is_null);
  CHECK_STR(conv(a, "array<int>", "[1]"), "ERR:0A000");
  hl_arena_destroy(a);
}

static const char *fmt_double(hl_arena_t *a, double d, bool is_float) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_format_double(&b, d, is_float);
  const char *out = hl_arena_strdup(a, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return out;
}

TEST(format_doubles) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(fmt_double(a, 1.0, false), "1.0");
  CHECK_STR(fmt_double(a, 0.1, false), "0.1");
  CHECK_STR(fmt_double(a, 100.0, false), "100.0");
  CHECK_STR(fmt_double(a, 1e7, false), "1.0E7");
  CHECK_STR(fmt_double(a, 9999999.0, false), "9999999.0");
  CHECK_STR(fmt_double(a, 12345678.0, false), "1.2345678E7");
  CHECK_STR(fmt_double(a, 1e-4, false), "1.0E-4");
  CHECK_STR(fmt_double(a, 0.001, false), "0.001");
  CHECK_STR(fmt_double(a, 0.002, false), "0.002");
  CHECK_STR(fmt_double(a, 0.00123, false), "0.00123");
  CHECK_STR(fmt_double(a, -0.0, false), "-0.0");
  CHECK_STR(fmt_double(a, 0.0, false), "0.0");
  CHECK_STR(fmt_double(a, -1.5, false), "-1.5");
  CHECK_STR(fmt_double(a, 123.456, false), "123.456");
  CHECK_STR(fmt_double(a, 0.1 + 0.2, false), "0.30000000000000004");
  CHECK_STR(fmt_double(a, 1e21, false), "1.0E21");
  CHECK_STR(fmt_double(a, 1e23, false), "1.0E23");
  CHECK_STR(fmt_double(a, -2.5e-10, false), "-2.5E-10");
  CHECK_STR(fmt_double(a, NAN, false), "NaN");
  CHECK_STR(fmt_double(a, INFINITY, false), "Infinity");
  CHECK_STR(fmt_double(a, -INFINITY, false), "-Infinity");
  CHECK_STR(fmt_double(a, DBL_MAX, false), "1.7976931348623157E308");
  CHECK_STR(fmt_double(a, 4.9e-324, false), "4.9E-324");
  CHECK_STR(fmt_double(a, DBL_MIN, false), "2.2250738585072014E-308");
  CHECK_STR(fmt_double(a, 9007199254740993.0, false), "9.007199254740992E15");
  CHECK_STR(fmt_double(a, (double)0.1f, true), "0.1");
  CHECK_STR(fmt_double(a, (double)FLT_MAX, true), "3.4028235E38");
  CHECK_STR(fmt_double(a, (double)1.4e-45f, true), "1.4E-45");
  CHECK_STR(fmt_double(a, (double)(1.0f / 3.0f), true), "0.33333334");
  CHECK_STR(fmt_double(a, (double)1e10f, true), "1.0E10");
  CHECK_STR(fmt_double(a, (double)-2.5f, true), "-2.5");
  CHECK_STR(fmt_double(a, (double)1.1f, false), "1.100000023841858"); /* as a double */
  hl_arena_destroy(a);
}

static const char *fmt_with(hl_arena_t *a, void (*fn)(hl_buf_t *, int64_t), int64_t x) {
  hl_buf_t b;
  hl_buf_init(&b);
  fn(&b, x);
  const char *out = hl_arena_strdup(a, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return out;
}

static const char *fmt_dec(hl_arena_t *a, __int128 v, int scale) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_format_decimal(&b, v, scale);
  const char *out = hl_arena_strdup(a, hl_buf_cstr(&b));
  hl_buf_fini(&b);
  return out;
}

TEST(format_decimal_date_timestamp) {
  hl_arena_t *a = hl_arena_create(0);
  CHECK_STR(fmt_dec(a, 100, 2), "1.00");
  CHECK_STR(fmt_dec(a, -50, 2), "-0.50");
  CHECK_STR(fmt_dec(a, 5, 2), "0.05");
  CHECK_STR(fmt_dec(a, 0, 2), "0.00");
  CHECK_STR(fmt_dec(a, 0, 0), "0");
  CHECK_STR(fmt_dec(a, -5, 0), "-5");
  CHECK_STR(fmt_dec(a, 123456, 3), "123.456");
  __int128 max38 = 0;
  for (int i = 0; i < 38; i++)
    max38 = max38 * 10 + 9;
  CHECK_STR(fmt_dec(a, max38, 0), "99999999999999999999999999999999999999");
  CHECK_STR(fmt_dec(a, -max38, 38), "-0.99999999999999999999999999999999999999");
  CHECK_STR(fmt_dec(a, (__int128)(((unsigned __int128)1) << 127), 0),
            "-170141183460469231731687303715884105728");

  CHECK_STR(fmt_with(a, hl_format_date, 0), "1970-01-01");
  CHECK_STR(fmt_with(a, hl_format_date, -1), "1969-12-31");
  CHECK_STR(fmt_with(a, hl_format_date, -719162), "0001-01-01");
  CHECK_STR(fmt_with(a, hl_format_date, -25567), "1900-01-01");
  CHECK_STR(fmt_with(a, hl_format_date, 2932896), "9999-12-31");
  CHECK_STR(fmt_with(a, hl_format_timestamp, 0), "1970-01-01 00:00:00");
  CHECK_STR(fmt_with(a, hl_format_timestamp, 1500000), "1970-01-01 00:00:01.5");
  CHECK_STR(fmt_with(a, hl_format_timestamp, 1), "1970-01-01 00:00:00.000001");
  CHECK_STR(fmt_with(a, hl_format_timestamp, 120000), "1970-01-01 00:00:00.12");
  CHECK_STR(fmt_with(a, hl_format_timestamp, -1), "1969-12-31 23:59:59.999999");
  CHECK_STR(fmt_with(a, hl_format_timestamp, -1000000), "1969-12-31 23:59:59");
  CHECK_STR(fmt_with(a, hl_format_timestamp, -86400000000LL), "1969-12-31 00:00:00");
  CHECK_STR(fmt_with(a, hl_format_timestamp, -500000), "1969-12-31 23:59:59.5");
  CHECK_STR(fmt_with(a, hl_format_timestamp, -719162LL * 86400000000LL), "0001-01-01 00:00:00");
  CHECK_STR(fmt_with(a, hl_format_timestamp, -719162LL * 86400000000LL + 3723000004LL),
            "0001-01-01 01:02:03.000004");
  hl_arena_destroy(a);
}

static const char *fmt_value(hl_arena_t *a, const hl_type_t *t, const hl_value_t *v) {
  hl_buf_t b;
  hl_buf_init(&b);
  hl_value_format(&b, t, v);
  const char *out = hl_arena_strndup(a, hl_buf_cstr(&b), b.len);
  hl_buf_fini(&b);
  return out;
}

static hl_value_t list_of(hl_arena_t *a, uint32_t n, const hl_value_t *items, uint32_t n_items) {
  hl_value_t v = {.is_null = false};
  v.u.list.n = n;
  v.u.list.items = hl_arena_alloc(a, sizeof(hl_value_t) * n_items);
  memcpy(v.u.list.items, items, sizeof(hl_value_t) * n_items);
  return v;
}

TEST(format_values) {
  hl_arena_t *a = hl_arena_create(0);
  hl_value_t null = {.is_null = true};
  /* scalars at top level */
  CHECK_STR(fmt_value(a, ty(a, "int"), &null), "NULL");
  hl_value_t v = val(a, "string", "a\"b");
  CHECK_STR(fmt_value(a, ty(a, "string"), &v), "a\"b");
  v = val(a, "boolean", "false");
  CHECK_STR(fmt_value(a, ty(a, "boolean"), &v), "false");
  v = val(a, "decimal(5,2)", "-0.5");
  CHECK_STR(fmt_value(a, ty(a, "decimal(5,2)"), &v), "-0.50");
  v = val(a, "date", "0001-01-01");
  CHECK_STR(fmt_value(a, ty(a, "date"), &v), "0001-01-01");
  v = val(a, "bigint", "-7");
  CHECK_STR(fmt_value(a, ty(a, "bigint"), &v), "-7");
  v = val(a, "float", "0.1");
  CHECK_STR(fmt_value(a, ty(a, "float"), &v), "0.1");
  CHECK_STR(fmt_value(a, ty(a, "void"), &v), "NULL");

  /* array of strings, escaped */
  hl_value_t strs[] = {val(a, "string", "a"), val(a, "string", "b\"c"),
                       val(a, "string", "\\\n\x01")};
  hl_value_t arr = list_of(a, 3, strs, 3);
  CHECK_STR(fmt_value(a, ty(a, "array<string>"), &arr), "[\"a\",\"b\\\"c\",\"\\\\\\n\\u0001\"]");
  arr.u.list.n = 0;
  CHECK_STR(fmt_value(a, ty(a, "array<string>"), &arr), "[]");
  CHECK_STR(fmt_value(a, ty(a, "array<string>"), &null), "NULL");

  /* nested NULL and numbers */
  hl_value_t ints[] = {val(a, "int", "1"), null, val(a, "int", "-3")};
  arr = list_of(a, 3, ints, 3);
  CHECK_STR(fmt_value(a, ty(a, "array<int>"), &arr), "[1,null,-3]");
  hl_value_t dbls[] = {val(a, "double", "1"), val(a, "double", "NaN"), val(a, "double", "1e7")};
  arr = list_of(a, 3, dbls, 3);
  CHECK_STR(fmt_value(a, ty(a, "array<double>"), &arr), "[1.0,NaN,1.0E7]");
  hl_value_t dates[] = {val(a, "date", "2024-01-02")};
  arr = list_of(a, 1, dates, 1);
  CHECK_STR(fmt_value(a, ty(a, "array<date>"), &arr), "[\"2024-01-02\"]");
  hl_value_t tss[] = {val(a, "timestamp", "2024-01-02 03:04:05.5")};
  arr = list_of(a, 1, tss, 1);
  CHECK_STR(fmt_value(a, ty(a, "array<timestamp>"), &arr), "[\"2024-01-02 03:04:05.5\"]");
  hl_value_t bools[] = {val(a, "boolean", "true"), val(a, "boolean", "false")};
  arr = list_of(a, 2, bools, 2);
  CHECK_STR(fmt_value(a, ty(a, "array<boolean>"), &arr), "[true,false]");
  hl_value_t chars[] = {val(a, "char(3)", "x"), val(a, "varchar(2)", "abc")};
  arr = list_of(a, 1, chars, 1);
  CHECK_STR(fmt_value(a, ty(a, "array<char(3)>"), &arr), "[\"x  \"]");
  arr = list_of(a, 1, chars + 1, 1);
  CHECK_STR(fmt_value(a, ty(a, "array<varchar(2)>"), &arr), "[\"ab\"]");
  /* binary prints its bytes unquoted, as Hive's SerDeUtils does */
  hl_value_t bins[] = {val(a, "binary", "ab")};
  arr = list_of(a, 1, bins, 1);
  CHECK_STR(fmt_value(a, ty(a, "array<binary>"), &arr), "[ab]");

  /* maps: keys print like nested values (Hive: {1:"x"}, {"k":2}) */
  hl_value_t kv1[] = {val(a, "int", "1"), val(a, "string", "x"), val(a, "int", "2"), null};
  hl_value_t m = list_of(a, 2, kv1, 4);
  CHECK_STR(fmt_value(a, ty(a, "map<int,string>"), &m), "{1:\"x\",2:null}");
  hl_value_t kv2[] = {val(a, "string", "k"), val(a, "int", "2")};
  m = list_of(a, 1, kv2, 2);
  CHECK_STR(fmt_value(a, ty(a, "map<string,int>"), &m), "{\"k\":2}");
  hl_value_t kv3[] = {val(a, "date", "2024-05-06"), val(a, "decimal(3,1)", "1.25")};
  m = list_of(a, 1, kv3, 2);
  CHECK_STR(fmt_value(a, ty(a, "map<date,decimal(3,1)>"), &m), "{\"2024-05-06\":1.3}");
  m.u.list.n = 0;
  CHECK_STR(fmt_value(a, ty(a, "map<string,int>"), &m), "{}");

  /* struct with a NULL field */
  hl_value_t fields[] = {val(a, "int", "1"), null};
  hl_value_t st = list_of(a, 2, fields, 2);
  CHECK_STR(fmt_value(a, ty(a, "struct<a:int,b:string>"), &st), "{\"a\":1,\"b\":null}");
  CHECK_STR(fmt_value(a, ty(a, "struct<a:int,b:string>"), &null), "NULL");

  /* array<map<string,struct<a:int,b:array<decimal(5,2)>>>> */
  hl_value_t decs[] = {val(a, "decimal(5,2)", "1.5"), null};
  hl_value_t inner_fields[] = {val(a, "int", "7"), list_of(a, 2, decs, 2)};
  hl_value_t entries[] = {val(a, "string", "k"), list_of(a, 2, inner_fields, 2),
                          val(a, "string", "n"), null};
  hl_value_t maps[] = {list_of(a, 2, entries, 4), null};
  hl_value_t deep = list_of(a, 2, maps, 2);
  CHECK_STR(fmt_value(a, ty(a, "array<map<string,struct<a:int,b:array<decimal(5,2)>>>>"), &deep),
            "[{\"k\":{\"a\":7,\"b\":[1.50,null]},\"n\":null},null]");
  hl_arena_destroy(a);
}

/* ============================================================ calendar */

static int is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Sort prefixes never contradict hl_value_sort_compare: for every pair of
 * a set of awkward values of each type, prefix(a) < prefix(b) only when a
 * sorts before b (asc/desc, NULLs first/last), and equal values (0.0 and
 * -0.0, NaNs) have equal prefixes; NULL placement does not flip with DESC. */
TEST(value_sort_prefix) {
  hl_arena_t *a = hl_arena_create(0);
  enum { N = 12 };
  hl_value_t v[4][N];
  const hl_type_t *types[4] = {hl_type_prim(HL_T_BIGINT), hl_type_prim(HL_T_DOUBLE),
                               hl_type_decimal(a, 38, 2), hl_type_prim(HL_T_STRING)};
  memset(v, 0, sizeof v);
  static const int64_t ints[N - 1] = {INT64_MIN, INT64_MIN + 1, -5,        -1, 0, 0, 1,
                                      7,         INT64_MAX - 1, INT64_MAX, 42};
  static const double dbls[N - 1] = {-INFINITY, -1e300, -0.0,     0.0, 1e-300, 2.5,
                                     2.5,       1e300,  INFINITY, NAN, -NAN};
  static const char *strs[N - 1] = {
      "",         "a",          "a\0",
      "abcdefgh", "abcdefgh\0", "abcdefghi",
      "abcdefgi", "b",          "\xff\xff\xff\xff\xff\xff\xff\xff\xff",
      "abcdefgh", "B"};
  for (int i = 0; i < N - 1; i++) {
    v[0][i].u.i = ints[i];
    v[1][i].u.d = dbls[i];
    v[2][i].u.dec = i < 3   ? -((__int128)1 << (100 - i))
                    : i > 8 ? ((__int128)1 << (90 + i))
                            : ints[i];
    v[3][i].u.s.ptr = strs[i];
    v[3][i].u.s.len = (uint32_t)(i == 2 || i == 4 ? strlen(strs[i]) + 1 : strlen(strs[i]));
  }
  for (int t = 0; t < 4; t++)
    v[t][N - 1].is_null = true;
  for (int t = 0; t < 4; t++) {
    CHECK(hl_value_has_sort_prefix(types[t]));
    for (int desc = 0; desc < 2; desc++)
      for (int nf = 0; nf < 2; nf++)
        for (int i = 0; i < N; i++)
          for (int j = 0; j < N; j++) {
            uint64_t pi = hl_value_sort_prefix(types[t], &v[t][i], desc, nf);
            uint64_t pj = hl_value_sort_prefix(types[t], &v[t][j], desc, nf);
            int o = hl_value_sort_compare(types[t], &v[t][i], &v[t][j], desc, nf);
            if (pi < pj) CHECK(o < 0);
            if (o == 0) CHECK(pi == pj);
          }
  }
  /* NULL placement does not flip with DESC */
  CHECK(hl_value_sort_compare(types[0], &v[0][N - 1], &v[0][0], true, true) < 0);
  CHECK(hl_value_sort_compare(types[0], &v[0][N - 1], &v[0][0], false, false) > 0);
  CHECK(hl_value_sort_compare(types[0], &v[0][0], &v[0][1], true, true) > 0);
  CHECK(!hl_value_has_sort_prefix(hl_type_varchar(a, HL_T_CHAR, 4)));
  hl_arena_destroy(a);
}

TEST(calendar_round_trip) {
  /* walk every day from 0001-01-01 to 9999-12-31 with a naive calendar and
   * compare both conversions against it */
  static const unsigned mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int64_t y = 1;
  unsigned m = 1, d = 1;
  int64_t days = hl_days_from_civil(1, 1, 1);
  CHECK_INT(days, -719162);
  long mismatches = 0, checked = 0;
  for (;;) {
    if (hl_days_from_civil(y, m, d) != days) mismatches++;
    int64_t yy;
    unsigned mm, dd;
    hl_civil_from_days(days, &yy, &mm, &dd);
    if (yy != y || mm != m || dd != d) mismatches++;
    checked++;
    if (y == 9999 && m == 12 && d == 31) break;
    unsigned dim = mdays[m - 1] + (m == 2 && is_leap(y));
    if (++d > dim) {
      d = 1;
      if (++m > 12) {
        m = 1;
        y++;
      }
    }
    days++;
  }
  CHECK_INT(mismatches, 0);
  CHECK_INT(checked, 2932896 + 719162 + 1);
  CHECK_INT(days, 2932896);
  /* and the brief's sparse sweep: every 37th day round-trips */
  long bad = 0;
  for (int64_t z = -719162; z <= 2932896; z += 37) {
    int64_t yy;
    unsigned mm, dd;
    hl_civil_from_days(z, &yy, &mm, &dd);
    if (hl_days_from_civil(yy, mm, dd) != z) bad++;
  }
  CHECK_INT(bad, 0);
  CHECK_INT(hl_days_from_civil(1970, 1, 1), 0);
  CHECK_INT(hl_days_from_civil(2000, 3, 1), 11017);
  CHECK_INT(hl_days_from_civil(1600, 2, 29), -135081);
}

TEST(partpath_is_escaped) {
  const char *ok[] = {
      "2024-01-01 10%3A11%3A12",   "a%2Fb", "50%25", "x%3Dy", "plain", "%7e", "", "caf\xc3\xa9",
      "__HIVE_DEFAULT_PARTITION__"};
  const char *bad[] = {"10:11", "a/b", "50%", "50%2", "%zz", "x=y", "tab\there", "q?", "a#b"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    CHECK(hl_partpath_is_escaped(ok[i], strlen(ok[i])));
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(!hl_partpath_is_escaped(bad[i], strlen(bad[i])));
  /* everything the escaper writes is well formed */
  hl_buf_t b;
  hl_buf_init(&b);
  char all[256];
  for (int c = 1; c < 256; c++)
    all[c - 1] = (char)c;
  hl_partpath_escape(&b, all, 255);
  CHECK(hl_partpath_is_escaped(hl_buf_cstr(&b), b.len));
  hl_buf_fini(&b);
}

int main(void) {
  (void)test_fixtures_dir; /* the harness helper is unused here */
  RUN(arena_alignment);
  RUN(arena_big_allocations);
  RUN(arena_realloc);
  RUN(arena_reset_and_cleanups);
  RUN(arena_strings);
  RUN(arena_account);
  RUN(strbuf_basics);
  RUN(strbuf_growth);
  RUN(strbuf_oom_sticky);
  RUN(error_basics);
  RUN(error_nomem_is_static);
  RUN(error_prefix_move);
  RUN(sqlstate_table);
  RUN(kv_get);
  RUN(mem_fail_nth);
  RUN(mem_faultsim_workload);
  RUN(value_sort_prefix);
  RUN(type_primitives);
  RUN(type_complex);
  RUN(type_errors);
  RUN(type_nesting_limit);
  RUN(type_consumed_prefix);
  RUN(type_properties);
  RUN(type_copy);
  RUN(value_boolean);
  RUN(value_integers);
  RUN(value_floats);
  RUN(value_decimals);
  RUN(value_dates);
  RUN(value_timestamps);
  RUN(value_strings);
  RUN(format_doubles);
  RUN(format_decimal_date_timestamp);
  RUN(format_values);
  RUN(calendar_round_trip);
  RUN(partpath_is_escaped);
  return test_report();
}
