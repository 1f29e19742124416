/*
 * test_func_doc.c -- the function registry (src/vector/func_doc.c) and the
 * scalar table (func.c) agree: every scalar entry of the registry resolves
 * through hl_func_lookup to an implementation, every scalar function has
 * an entry, names are unique and sorted, every entry has a usage naming it
 * (operators excepted) and an example.  tests/functions/check_registry.py
 * then runs the examples through the CLI.
 */
#include "test.h"

#include "vector/expr.h"
#include "vector/func_doc.h"

#include <string.h>

TEST(scalars_resolve) {
  size_t n;
  const hl_func_doc_t *d = hl_func_docs(&n);
  CHECK(n > 150);
  for (size_t i = 0; i < n; i++) {
    if (i > 0) CHECK(strcmp(d[i - 1].name, d[i].name) < 0);
    CHECK(d[i].usage && d[i].usage[0]);
    CHECK(d[i].examples && strncmp(d[i].examples, "> ", 2) == 0);
    if (d[i].kind == HL_FK_SCALAR) {
      const hl_func_def_t *f = hl_func_lookup(d[i].name);
      if (!f || !f->impl) fprintf(stderr, "no implementation: %s\n", d[i].name);
      CHECK(f && f->impl);
      CHECK(strncmp(d[i].usage, "_FUNC_(", 7) == 0);
    }
  }
}

TEST(every_scalar_documented) {
  for (size_t i = 0; hl_func_name_at(i); i++) {
    const char *name = hl_func_name_at(i);
    const hl_func_doc_t *d = hl_func_doc_lookup(name);
    if (!d) fprintf(stderr, "undocumented: %s\n", name);
    CHECK(d && d->kind == HL_FK_SCALAR);
  }
  CHECK(hl_func_doc_lookup("ABS") == hl_func_doc_lookup("abs"));
  CHECK(hl_func_doc_lookup("no_such_function") == NULL);
}

int main(void) {
  (void)test_fixtures_dir;
  RUN(scalars_resolve);
  RUN(every_scalar_documented);
  return test_report();
}
