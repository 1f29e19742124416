/*
 * test_matchpath.c -- the matchpath pattern (src/vector/matchpath.c):
 * compiling against symbol names, and matching with Hive's MatchPath
 * results, its end-of-partition behaviour included.  A partition is a
 * string of symbol letters, one row each ('L' late, 'E' early, '-'
 * neither); the expected path lengths per start row are worked out from
 * MatchPath.java's Symbol / Star / Plus / Chain classes.
 */
#include "test.h"

#include "vector/matchpath.h"

#include <string.h>

static const char *const names[] = {"LATE", "early"};

static bool sym(void *ctx, int symbol, size_t row) {
  const char *rows = ctx;
  return rows[row] == (symbol == 0 ? 'L' : 'E');
}

/* The path length at each start row of ROWS ('0' no match, '1'..'9'). */
static void lengths(const char *pattern, const char *rows, char *out) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_err_init(&err);
  hl_mp_pattern_t *p = NULL;
  CHECK(hl_mp_compile(pattern, strlen(pattern), names, 2, a, &p, &err) == HL_OK);
  size_t n = strlen(rows);
  for (size_t i = 0; p && i < n; i++) {
    size_t len = 0;
    out[i] = hl_mp_match(p, n, i, sym, (void *)rows, &len) ? (char)('0' + len) : '0';
  }
  out[n] = '\0';
  hl_arena_destroy(a);
}

#define EXPECT_PATHS(pattern, rows, want)                                                          \
  do {                                                                                             \
    char got[64];                                                                                  \
    lengths(pattern, rows, got);                                                                   \
    if (strcmp(got, want) != 0)                                                                    \
      fprintf(stderr, "%s over %s: %s, want %s\n", pattern, rows, got, want);                      \
    CHECK(strcmp(got, want) == 0);                                                                 \
  } while (0)

TEST(plus_and_one) {
  /* ptf_matchpath.q's flight 1142: six late rows then an on-time one */
  EXPECT_PATHS("LATE.LATE+", "-LLLLLL-", "06543200");
  /* late to the end: a + reaching the last row stops before it */
  EXPECT_PATHS("LATE.LATE+", "-LLL", "0210");
  EXPECT_PATHS("late+", "LL-L", "2101");
  EXPECT_PATHS("LATE", "L-L", "101");
}

TEST(star) {
  /* a * that matches nothing takes no row; at the last row it takes it */
  EXPECT_PATHS("EARLY*.LATE", "ELL-E", "21100");
  EXPECT_PATHS("LATE*", "LL--", "2111");
  /* greedy, no backtracking: A*.A never matches */
  EXPECT_PATHS("LATE*.LATE", "LLL-", "0000");
  /* trailing * steps after the partition's end are skipped */
  EXPECT_PATHS("LATE.EARLY*", "LE", "20");
  EXPECT_PATHS("LATE.LATE.EARLY*", "LL", "20");
}

TEST(compile_errors) {
  hl_arena_t *a = hl_arena_create(0);
  hl_error_t err;
  hl_mp_pattern_t *p;
  static const char *const bad[] = {"", "LATE..EARLY", ".LATE", "ONTIME", "LATE*+", "*", "..."};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hl_err_init(&err);
    CHECK(hl_mp_compile(bad[i], strlen(bad[i]), names, 2, a, &p, &err) == HL_ERROR);
    CHECK(strcmp(err.sqlstate, "22023") == 0);
    hl_err_clear(&err);
  }
  /* trailing dots are dropped, as Java's split does; case does not matter */
  hl_err_init(&err);
  CHECK(hl_mp_compile("late.Early+..", 13, names, 2, a, &p, &err) == HL_OK);
  CHECK(p->n_steps == 2 && p->steps[0].symbol == 0 && p->steps[0].kind == HL_MP_ONE &&
        p->steps[1].symbol == 1 && p->steps[1].kind == HL_MP_PLUS);
  hl_arena_destroy(a);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(plus_and_one);
  RUN(star);
  RUN(compile_errors);
  return test_report();
}
