/*
 * test.h -- a minimal unit-test harness (one executable per module).
 *
 *   TEST(name) { CHECK(x == 1); CHECK_STR(s, "abc"); }
 *   int main(void) { RUN(name); return test_report(); }
 *
 * A failed check prints file:line and the values and marks the test failed;
 * the test function carries on so one run shows every failure.
 */
#ifndef HL_TEST_H
#define HL_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int test_failures;
static int test_checks;
static inline const char *test_fixtures_dir(void) {
  const char *d = getenv("HIVELITE_FIXTURES");
  return d ? d : NULL;
}

#define TEST(name) static void test_##name(void)
#define RUN(name)                                                                                  \
  do {                                                                                             \
    int before_ = test_failures;                                                                   \
    test_##name();                                                                                 \
    printf("%s %s\n", test_failures == before_ ? "ok  " : "FAIL", #name);                          \
  } while (0)

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    test_checks++;                                                                                 \
    if (!(cond)) {                                                                                 \
      test_failures++;                                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

#define CHECK_INT(a, b)                                                                            \
  do {                                                                                             \
    long long a_ = (long long)(a), b_ = (long long)(b);                                            \
    test_checks++;                                                                                 \
    if (a_ != b_) {                                                                                \
      test_failures++;                                                                             \
      fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_);       \
    }                                                                                              \
  } while (0)

#define CHECK_STR(a, b)                                                                            \
  do {                                                                                             \
    const char *a_ = (a), *b_ = (b);                                                               \
    test_checks++;                                                                                 \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                                       \
      test_failures++;                                                                             \
      fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,            \
              a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                             \
    }                                                                                              \
  } while (0)

/* Makes a fresh directory "$HIVELITE_TEST_TMP/<prefix>_XXXXXX" (under
 * /tmp without that variable; missing parents created) in DIR[0..n); 0,
 * or -1 with a message. */
static inline int test_tmpdir(char *dir, size_t n, const char *prefix) {
  const char *base = getenv("HIVELITE_TEST_TMP");
  if (!base || !*base) base = "/tmp";
  snprintf(dir, n, "%s", base);
  for (char *p = dir + 1;; p++) /* mkdir -p */
    if (*p == '/' || !*p) {
      char c = *p;
      *p = '\0';
      mkdir(dir, 0777);
      *p = c;
      if (!c) break;
    }
  snprintf(dir, n, "%s/%s_XXXXXX", base, prefix);
  if (mkdtemp(dir)) return 0;
  fprintf(stderr, "mkdtemp %s: %s\n", dir, strerror(errno));
  return -1;
}

static inline int test_report(void) {
  printf("%d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}

#endif
/* Exit code that CTest reports as "skipped" (SKIP_RETURN_CODE). */
#define TEST_SKIP_CODE 77
