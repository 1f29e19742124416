/*
 * test_vector.c -- unit tests for src/exec/vector.c: batch lifecycle, the
 * validity bitmap across word boundaries, typed value storage for every
 * physical layout (strings copied into the batch arena), the selection
 * helpers, and batch creation under allocation failure.
 */
#include "test.h"

#include "vector/vector.h"
#include "util/mem.h"

#include <math.h>

static hl_type_t *ty(hl_arena_t *a, const char *text) {
  hl_error_t e;
  hl_err_init(&e);
  hl_type_t *t = NULL;
  if (hl_type_parse_str(a, text, &t, &e) != HL_OK) t = NULL;
  hl_err_clear(&e);
  CHECK(t != NULL);
  return t;
}

enum { C_BOOL, C_INT, C_BIGINT, C_DOUBLE, C_DEC, C_STR, C_DATE, C_TS, C_ARR, N_COLS };

static const char *const col_types[N_COLS] = {
    "boolean", "int",  "bigint",    "double",     "decimal(20,2)",
    "string",  "date", "timestamp", "array<int>",
};

TEST(batch_lifecycle) {
  hl_arena_t *types = hl_arena_create(0);
  const hl_type_t *tv[N_COLS];
  for (int i = 0; i < N_COLS; i++)
    tv[i] = ty(types, col_types[i]);
  hl_batch_t *b = hl_batch_create(N_COLS, tv);
  CHECK(b != NULL);
  CHECK_INT(b->n_cols, N_COLS);
  CHECK_INT(b->n_rows, 0);
  CHECK(b->sel == NULL);
  CHECK_INT(b->n_sel, 0);
  CHECK(b->arena != NULL);
  for (int i = 0; i < N_COLS; i++) {
    CHECK(b->cols[i].type == tv[i]);
    CHECK(b->cols[i].validity == NULL);
    CHECK(b->cols[i].data != NULL);
    CHECK_INT((uintptr_t)b->cols[i].data % 16, 0);
  }
  /* data arrays are zeroed and span HL_BATCH_CAP entries */
  CHECK_INT(HL_VEC_I64(&b->cols[C_INT])[0], 0);
  CHECK_INT(HL_VEC_I64(&b->cols[C_INT])[HL_BATCH_CAP - 1], 0);
  CHECK(HL_VEC_I128(&b->cols[C_DEC])[HL_BATCH_CAP - 1] == 0);
  HL_VEC_I64(&b->cols[C_INT])[HL_BATCH_CAP - 1] = 5;

  /* fill, then reset: everything back to empty */
  CHECK_INT(hl_vec_set_null(&b->cols[C_INT], b->arena, 3), HL_OK);
  b->n_rows = 10;
  b->sel = hl_arena_alloc(b->arena, sizeof(uint32_t) * 2);
  b->n_sel = 2;
  CHECK_INT(hl_batch_reset(b), HL_OK);
  CHECK_INT(b->n_rows, 0);
  CHECK(b->sel == NULL);
  CHECK_INT(b->n_sel, 0);
  CHECK(b->cols[C_INT].validity == NULL);
  CHECK(!hl_vec_is_null(&b->cols[C_INT], 3));
  CHECK_INT(HL_VEC_I64(&b->cols[C_INT])[HL_BATCH_CAP - 1], 0);
  CHECK(b->cols[C_INT].type == tv[C_INT]);
  for (int r = 0; r < 100; r++)
    CHECK_INT(hl_batch_reset(b), HL_OK); /* no growth, no leak */
  hl_batch_destroy(b);
  hl_batch_destroy(NULL);

  /* a batch without columns */
  b = hl_batch_create(0, NULL);
  CHECK(b != NULL);
  CHECK_INT(b->n_cols, 0);
  CHECK_INT(hl_batch_reset(b), HL_OK);
  hl_batch_destroy(b);
  hl_arena_destroy(types);
}

TEST(validity_bitmap) {
  hl_arena_t *a = hl_arena_create(0);
  hl_vec_t v;
  CHECK_INT(hl_vec_alloc(&v, hl_type_prim(HL_T_BIGINT), a), HL_OK);
  CHECK(v.validity == NULL);
  CHECK(!hl_vec_is_null(&v, 0));
  hl_vec_set_valid(&v, 5); /* no bitmap: stays NULL */
  CHECK(v.validity == NULL);
  static const uint32_t nulls[] = {0, 63, 64, 2047};
  for (int i = 0; i < 4; i++)
    CHECK_INT(hl_vec_set_null(&v, a, nulls[i]), HL_OK);
  CHECK(v.validity != NULL);
  int n_null = 0;
  for (uint32_t row = 0; row < HL_BATCH_CAP; row++)
    n_null += hl_vec_is_null(&v, row);
  CHECK_INT(n_null, 4);
  for (int i = 0; i < 4; i++)
    CHECK(hl_vec_is_null(&v, nulls[i]));
  CHECK(!hl_vec_is_null(&v, 1));
  CHECK(!hl_vec_is_null(&v, 62));
  CHECK(!hl_vec_is_null(&v, 65));
  CHECK(!hl_vec_is_null(&v, 2046));
  CHECK(v.validity[0] == ~((uint64_t)1 | ((uint64_t)1 << 63)));
  CHECK(v.validity[1] == ~(uint64_t)1);
  CHECK(v.validity[2] == ~(uint64_t)0);
  CHECK(v.validity[31] == ~((uint64_t)1 << 63));
  /* the bitmap is allocated once */
  uint64_t *bits = v.validity;
  CHECK_INT(hl_vec_set_null(&v, a, 100), HL_OK);
  CHECK(v.validity == bits);
  hl_vec_set_valid(&v, 63);
  hl_vec_set_valid(&v, 64);
  CHECK(!hl_vec_is_null(&v, 63));
  CHECK(!hl_vec_is_null(&v, 64));
  CHECK(hl_vec_is_null(&v, 0));
  CHECK(hl_vec_is_null(&v, 100));
  CHECK(v.validity[1] == ~((uint64_t)1 << 36));
  hl_arena_destroy(a);
}

TEST(put_get_values) {
  hl_arena_t *types = hl_arena_create(0);
  const hl_type_t *tv[N_COLS];
  for (int i = 0; i < N_COLS; i++)
    tv[i] = ty(types, col_types[i]);
  hl_batch_t *b = hl_batch_create(N_COLS, tv);
  hl_arena_t *ar = b->arena;
  hl_value_t in, out;
  memset(&in, 0, sizeof in);

  in.u.b = true;
  CHECK_INT(hl_vec_put_value(&b->cols[C_BOOL], ar, 7, &in), HL_OK);
  CHECK_INT(HL_VEC_BOOL(&b->cols[C_BOOL])[7], 1);
  hl_vec_get_value(&b->cols[C_BOOL], 7, &out);
  CHECK(!out.is_null);
  CHECK(out.u.b);

  in.u.i = -2147483648LL;
  CHECK_INT(hl_vec_put_value(&b->cols[C_INT], ar, 2047, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_INT], 2047, &out);
  CHECK_INT(out.u.i, -2147483648LL);
  in.u.i = INT64_MAX;
  CHECK_INT(hl_vec_put_value(&b->cols[C_BIGINT], ar, 0, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_BIGINT], 0, &out);
  CHECK_INT(out.u.i, INT64_MAX);
  in.u.i = -719162; /* 0001-01-01 */
  CHECK_INT(hl_vec_put_value(&b->cols[C_DATE], ar, 1, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_DATE], 1, &out);
  CHECK_INT(out.u.i, -719162);
  in.u.i = -1; /* 1969-12-31 23:59:59.999999 */
  CHECK_INT(hl_vec_put_value(&b->cols[C_TS], ar, 1, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_TS], 1, &out);
  CHECK_INT(out.u.i, -1);

  in.u.d = -0.0;
  CHECK_INT(hl_vec_put_value(&b->cols[C_DOUBLE], ar, 3, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_DOUBLE], 3, &out);
  CHECK(out.u.d == 0.0 && signbit(out.u.d));
  in.u.d = NAN;
  CHECK_INT(hl_vec_put_value(&b->cols[C_DOUBLE], ar, 4, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_DOUBLE], 4, &out);
  CHECK(isnan(out.u.d));

  __int128 big = (__int128)123456789012345678LL * 1000 + 999; /* beyond 64 bits */
  in.u.dec = -big;
  CHECK_INT(hl_vec_put_value(&b->cols[C_DEC], ar, 9, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_DEC], 9, &out);
  CHECK(out.u.dec == -big);

  /* strings are copied into the arena */
  char src[] = "hello, world";
  in.u.s.ptr = src;
  in.u.s.len = 5;
  CHECK_INT(hl_vec_put_value(&b->cols[C_STR], ar, 64, &in), HL_OK);
  memcpy(src, "XXXXX", 5);
  hl_vec_get_value(&b->cols[C_STR], 64, &out);
  CHECK_INT(out.u.s.len, 5);
  CHECK(out.u.s.ptr != src);
  CHECK(memcmp(out.u.s.ptr, "hello", 5) == 0);
  in.u.s.ptr = "";
  in.u.s.len = 0;
  CHECK_INT(hl_vec_put_value(&b->cols[C_STR], ar, 65, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_STR], 65, &out);
  CHECK_INT(out.u.s.len, 0);
  CHECK(out.u.s.ptr != NULL);
  /* embedded NUL and a long string */
  char longs[5000];
  for (int i = 0; i < 5000; i++)
    longs[i] = (char)('a' + i % 26);
  longs[10] = '\0';
  in.u.s.ptr = longs;
  in.u.s.len = 5000;
  CHECK_INT(hl_vec_put_value(&b->cols[C_STR], ar, 66, &in), HL_OK);
  hl_vec_get_value(&b->cols[C_STR], 66, &out);
  CHECK_INT(out.u.s.len, 5000);
  CHECK(memcmp(out.u.s.ptr, longs, 5000) == 0);

  /* complex values: the top-level value is copied, items are shared */
  hl_value_t items[2];
  memset(items, 0, sizeof items);
  items[0].u.i = 10;
  items[1].is_null = true;
  hl_value_t arr;
  memset(&arr, 0, sizeof arr);
  arr.u.list.n = 2;
  arr.u.list.items = items;
  CHECK_INT(hl_vec_put_value(&b->cols[C_ARR], ar, 5, &arr), HL_OK);
  arr.u.list.n = 99; /* the caller's copy may change */
  hl_vec_get_value(&b->cols[C_ARR], 5, &out);
  CHECK(!out.is_null);
  CHECK_INT(out.u.list.n, 2);
  CHECK(out.u.list.items == items);
  CHECK_INT(out.u.list.items[0].u.i, 10);
  CHECK(out.u.list.items[1].is_null);
  hl_buf_t buf;
  hl_buf_init(&buf);
  hl_value_format(&buf, tv[C_ARR], &out);
  CHECK_STR(hl_buf_cstr(&buf), "[10,null]");
  hl_buf_fini(&buf);
  /* a never-written complex slot reads as NULL */
  hl_vec_get_value(&b->cols[C_ARR], 6, &out);
  CHECK(out.is_null);

  /* NULLs, then a value over a NULL */
  hl_value_t null;
  memset(&null, 0, sizeof null);
  null.is_null = true;
  for (int c = 0; c < N_COLS; c++) {
    CHECK_INT(hl_vec_put_value(&b->cols[c], ar, 1000, &null), HL_OK);
    hl_vec_get_value(&b->cols[c], 1000, &out);
    CHECK(out.is_null);
    CHECK(hl_vec_is_null(&b->cols[c], 1000));
    CHECK(!hl_vec_is_null(&b->cols[c], 999));
  }
  in.u.i = 77;
  CHECK_INT(hl_vec_put_value(&b->cols[C_INT], ar, 1000, &in), HL_OK);
  CHECK(!hl_vec_is_null(&b->cols[C_INT], 1000));
  hl_vec_get_value(&b->cols[C_INT], 1000, &out);
  CHECK(!out.is_null);
  CHECK_INT(out.u.i, 77);
  /* values already stored are untouched by later NULLs */
  hl_vec_get_value(&b->cols[C_INT], 2047, &out);
  CHECK_INT(out.u.i, -2147483648LL);

  hl_batch_destroy(b);
  hl_arena_destroy(types);
}

TEST(selection) {
  hl_batch_t *b = hl_batch_create(1, (const hl_type_t *const[]){hl_type_prim(HL_T_INT)});
  b->n_rows = 10;
  CHECK_INT(hl_batch_live(b), 10);
  CHECK_INT(hl_batch_row(b, 0), 0);
  CHECK_INT(hl_batch_row(b, 9), 9);
  uint32_t *sel = hl_arena_alloc(b->arena, sizeof(uint32_t) * 3);
  sel[0] = 1;
  sel[1] = 5;
  sel[2] = 9;
  b->sel = sel;
  b->n_sel = 3;
  CHECK_INT(hl_batch_live(b), 3);
  CHECK_INT(hl_batch_row(b, 0), 1);
  CHECK_INT(hl_batch_row(b, 1), 5);
  CHECK_INT(hl_batch_row(b, 2), 9);
  b->n_sel = 0; /* a filter that kept nothing */
  CHECK_INT(hl_batch_live(b), 0);
  /* summing through the selection */
  for (uint32_t r = 0; r < 10; r++)
    HL_VEC_I64(&b->cols[0])[r] = (int64_t)r * 10;
  b->n_sel = 3;
  int64_t sum = 0;
  for (uint32_t i = 0; i < hl_batch_live(b); i++)
    sum += HL_VEC_I64(&b->cols[0])[hl_batch_row(b, i)];
  CHECK_INT(sum, 150);
  hl_batch_destroy(b);
}

TEST(batch_alloc_failure) {
  hl_arena_t *types = hl_arena_create(0);
  const hl_type_t *tv[N_COLS];
  for (int i = 0; i < N_COLS; i++)
    tv[i] = ty(types, col_types[i]);
  int failed = 0, made = 0;
  for (long n = 1; n < 100; n++) {
    hl_mem_fail_after(n);
    hl_batch_t *b = hl_batch_create(N_COLS, tv);
    hl_status_t rc = HL_OK;
    hl_value_t v;
    memset(&v, 0, sizeof v);
    v.u.s.ptr = "abc";
    v.u.s.len = 3;
    if (b) {
      rc = hl_vec_put_value(&b->cols[C_STR], b->arena, 0, &v);
      if (rc == HL_OK) rc = hl_vec_set_null(&b->cols[C_INT], b->arena, 0);
      if (rc == HL_OK) rc = hl_batch_reset(b);
    }
    hl_mem_fail_after(0);
    CHECK(rc == HL_OK || rc == HL_NOMEM);
    if (b && rc != HL_OK) {
      /* a failed reset leaves no column pointing into the old arena */
      int stale = 0;
      for (int c = 0; c < N_COLS; c++)
        stale += b->cols[c].validity != NULL;
      CHECK_INT(stale, 0);
      CHECK_INT(hl_batch_reset(b), HL_OK); /* and a retry recovers */
      CHECK(b->cols[N_COLS - 1].data != NULL);
    }
    if (!b || rc != HL_OK)
      failed++;
    else
      made++;
    hl_batch_destroy(b);
  }
  CHECK(failed > 3);
  CHECK(made > 0);
  hl_arena_destroy(types);
}

int main(void) {
  (void)test_fixtures_dir; /* the harness helper is unused here */
  RUN(batch_lifecycle);
  RUN(validity_bitmap);
  RUN(put_get_values);
  RUN(selection);
  RUN(batch_alloc_failure);
  return test_report();
}
