/*
 * ptf.h -- Hive's partitioned table functions in FROM (noop, noopwithmap,
 * noopstreaming, noopwithmapstreaming, matchpath) as queries the binder
 * binds like subqueries in FROM.
 *
 * bind.c meets an HL_FROM_PTF item, asks hl_ptf_check which function it
 * is, binds hl_ptf_input (the source with its rows grouped by the
 * partition and sorted by the order keys), and for matchpath, which needs
 * the source's column names, hl_ptf_matchpath over them.
 */
#ifndef HL_PLAN_PTF_H
#define HL_PLAN_PTF_H

#include "sql/ast.h"
#include "util/arena.h"
#include "util/error.h"

typedef enum hl_ptf_kind { HL_PTF_NOOP, HL_PTF_MATCHPATH } hl_ptf_kind_t;

/* Which function F names: 42883 for no such table function, 0A000 for
 * windowingtablefunction (see ptf.c), 42883 for arguments a noop does not
 * take. */
hl_status_t hl_ptf_check(const hl_ast_from_t *f, hl_ptf_kind_t *kind, hl_error_t *err);

/* SELECT * FROM <F's source> ORDER BY <partition keys>, <order keys>:
 * what a noop returns, and matchpath's input.  Nodes in ARENA. */
hl_status_t hl_ptf_input(hl_arena_t *arena, const hl_ast_from_t *f, hl_ast_select_t **out,
                         hl_error_t *err);

/* Matchpath F over INPUT (hl_ptf_input's query) whose columns are
 * NAMES[0..n): its result select list over the input's columns and tpath
 * (the ARRAY<STRUCT> of the path's rows), one row per row where the
 * pattern matches, in input order.  22023 for a bad pattern or argument,
 * the parser's error for a bad result list. */
hl_status_t hl_ptf_matchpath(hl_arena_t *arena, const hl_ast_from_t *f, hl_ast_select_t *input,
                             const char *const *names, int n, hl_ast_select_t **out,
                             hl_error_t *err);

#endif
