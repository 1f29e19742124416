/*
 * test_parser_write.c -- the write statements of the grammar (parser.c):
 * INSERT INTO/OVERWRITE with partition specs, IF NOT EXISTS, column lists,
 * VALUES and queries; multi-insert FROM src INSERT ... INSERT ...;
 * TRUNCATE; and their syntax errors.
 */
#include "sql/parser.h"
#include "test.h"

static hl_arena_t *arena;

static hl_ast_stmt_t *parse(const char *sql, hl_error_t *err) {
  hl_ast_stmt_t *st = NULL;
  size_t used;
  hl_err_clear(err);
  hl_err_init(err);
  if (hl_sql_parse(arena, sql, strlen(sql), &st, &used, err) != HL_OK) return NULL;
  return st;
}

TEST(insert_forms) {
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t *st = parse("INSERT INTO t VALUES (1, 'a'), (2, 'b')", &err);
  CHECK(st && st->kind == HL_STMT_INSERT && st->n_inserts == 1);
  if (st && st->n_inserts == 1) {
    hl_ast_insert_t *i = &st->inserts[0];
    CHECK(!i->overwrite && !i->query && !i->part_spec);
    CHECK_INT(i->n_rows, 2);
    CHECK_INT(i->n_values_cols, 2);
    CHECK_STR(i->table.name, "t");
  }
  st = parse("insert overwrite table db.t partition (dt='x', hr) if not exists select a, b from s",
             &err);
  CHECK(st && st->kind == HL_STMT_INSERT);
  if (st) {
    hl_ast_insert_t *i = &st->inserts[0];
    CHECK(i->overwrite && i->if_not_exists && i->query);
    CHECK_STR(i->table.db, "db");
    CHECK(i->part_spec && i->part_spec->n == 2);
    if (i->part_spec && i->part_spec->n == 2) {
      CHECK(i->part_spec->items[0].value != NULL);
      CHECK(i->part_spec->items[1].value == NULL); /* dynamic */
    }
  }
  st = parse("INSERT INTO TABLE t PARTITION (p) (p, key, value) VALUES ('x', 1, 'foo')", &err);
  CHECK(st && st->inserts[0].n_columns == 3);
  if (st && st->inserts[0].n_columns == 3) CHECK_STR(st->inserts[0].columns[0], "p");
  st = parse("INSERT INTO t (SELECT 1)", &err); /* a parenthesized query is not a column list */
  CHECK(st && st->inserts[0].query && st->inserts[0].n_columns == 0);
  hl_err_clear(&err);
}

TEST(multi_insert) {
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t *st = parse("FROM src s INSERT OVERWRITE TABLE a SELECT s.key WHERE key < 10 "
                            "INSERT INTO TABLE b PARTITION (ds='1') SELECT value LIMIT 3",
                            &err);
  CHECK(st && st->kind == HL_STMT_INSERT && st->n_inserts == 2);
  if (st && st->n_inserts == 2) {
    CHECK(st->inserts[0].overwrite && !st->inserts[1].overwrite);
    CHECK(st->inserts[0].query->from && st->inserts[1].query->from);
    CHECK_STR(st->inserts[0].query->from->alias, "s");
    CHECK(st->inserts[0].query->where != NULL);
    CHECK(st->inserts[1].query->has_limit);
  }
  st = parse("FROM src SELECT key", &err);
  CHECK(st && st->kind == HL_STMT_SELECT && st->select->from);
  st = parse("FROM src INSERT INTO a SELECT key FROM other", &err);
  CHECK(!st && err.code == HL_ERROR && strcmp(err.sqlstate, "42601") == 0);
  hl_err_clear(&err);
}

TEST(truncate_and_errors) {
  hl_error_t err;
  hl_err_init(&err);
  hl_ast_stmt_t *st = parse("TRUNCATE TABLE t PARTITION (dt='1')", &err);
  CHECK(st && st->kind == HL_STMT_TRUNCATE && st->part_spec && st->part_spec->n == 1);
  st = parse("truncate t", &err);
  CHECK(st && st->kind == HL_STMT_TRUNCATE && !st->part_spec);
  st = parse("INSERT INTO t VALUES (1, 2), (3)", &err);
  CHECK(!st && strcmp(err.sqlstate, "42601") == 0);
  CHECK_STR(err.message, "VALUES row 2 has 1 values, the first row has 2");
  st = parse("INSERT OVERWRITE t SELECT 1", &err); /* TABLE is required after OVERWRITE */
  CHECK(!st && strcmp(err.sqlstate, "42601") == 0);
  st = parse("INSERT INTO t", &err);
  CHECK(!st && strcmp(err.sqlstate, "42601") == 0);
  hl_err_clear(&err);
}

int main(void) {
  arena = hl_arena_create(0);
  RUN(insert_forms);
  RUN(multi_insert);
  RUN(truncate_and_errors);
  hl_arena_destroy(arena);
  printf("%d checks, %d failures\n", test_checks, test_failures);
  return test_failures ? 1 : 0;
}
