/*
 * query.h -- running a query: SELECT and EXPLAIN bound into a plan
 * (plan/bind.c) and assembled into an operator tree (query.c).
 *
 * The command layer (command/) calls these for queries and for the
 * commands that consume a query's rows (INSERT ... SELECT, CTAS); the
 * operators themselves are in ops.h.
 */
#ifndef HL_QUERY_H
#define HL_QUERY_H

#include "exec/result.h"
#include "session/session.h"
#include "sql/ast.h"

/* Runs a SELECT or EXPLAIN statement into RESULT (zeroed by the caller).
 * ARENA is the statement arena (lives until the statement is finalized). */
hl_status_t hl_exec_query(hl_session_t *s, const hl_ast_stmt_t *stmt, hl_arena_t *arena,
                          hl_result_t *result, hl_error_t *err);

/* Builds the operator pipeline of one SELECT (bind + plan + operators)
 * into RESULT, for commands that consume query results (INSERT, CTAS).
 * The caller pulls result->root and closes it. */
hl_status_t hl_exec_select(hl_session_t *s, const hl_ast_select_t *select, hl_arena_t *arena,
                           hl_result_t *result, hl_error_t *err);
struct hl_plan;
/* Same from a bound plan (plan/plan.h). */
hl_status_t hl_exec_plan(hl_session_t *s, const struct hl_plan *plan, hl_arena_t *arena,
                         hl_result_t *result, hl_error_t *err);

/* How many threads a scan of LOCATION uses (hivelite.threads; object
 * stores: at least hivelite.s3.scan_threads); 0 with ERR set on a bad
 * setting.  For commands that read partitions themselves (PROFILE). */
int hl_exec_scan_threads(hl_session_t *s, const char *location, hl_error_t *err);
struct hl_plan_scan;
struct hl_expr;
/* SCAN's own filter AND EXTRA (a filter over the same layout; either may
 * be NULL) in *OUT (ARENA). */
hl_status_t hl_exec_scan_filter(const struct hl_plan_scan *scan, const struct hl_expr *extra,
                                hl_arena_t *arena, const struct hl_expr **out, hl_error_t *err);

#endif
