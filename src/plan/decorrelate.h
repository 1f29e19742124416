/*
 * decorrelate.h -- correlated [NOT] EXISTS and IN subqueries as joins.
 *
 * A WHERE conjunct such as
 *   EXISTS (SELECT ... FROM u WHERE u.k = t.k AND u.x > 0)
 * is rewritten, on the syntax tree, into a LEFT SEMI JOIN of the FROM
 * clause with (SELECT u.k AS _hl_c1 FROM u WHERE u.x > 0) ON t.k = _hl_c1;
 * NOT EXISTS becomes a LEFT ANTI JOIN and x IN (...) a semi join on x too.
 * Inner columns are told from outer ones by the inner tables' columns
 * (SQL's rule: the nearest scope wins).  Shapes it cannot rewrite (NOT IN,
 * grouped or limited subqueries, subqueries over CTEs or subqueries) are
 * left alone for the binder, which reports correlation as not supported.
 */
#ifndef HL_DECORRELATE_H
#define HL_DECORRELATE_H

#include "session/session.h"
#include "sql/ast.h"

/* *OUT is SEL when nothing changed, else a rewritten copy in ARENA. */
hl_status_t hl_plan_decorrelate(hl_session_t *s, const hl_ast_select_t *sel, hl_arena_t *arena,
                                const hl_ast_select_t **out, hl_error_t *err);

#endif
