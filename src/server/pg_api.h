/*
 * pg_api.h -- the parts of the library API the server needs that are not
 * in include/hivelite.h yet (issue 17's parameters and re-execution), with
 * the names they will have there.
 *
 * pg_api.c answers HL_UNSUPPORTED for all of them today, and the server
 * refuses a Bind with parameter values with 0A000 and prepares a
 * statement again instead of rewinding it.  When hl_bind_* / hl_reset land
 * in the public header, pg_api.c becomes a forwarder and nothing else in
 * the server changes.
 */
#ifndef HL_PG_API_H
#define HL_PG_API_H

#include "hivelite.h"

#include <stddef.h>
#include <stdint.h>

/* 1 when statements take parameters ($1, ?) and hl_bind_* works. */
int pg_api_has_parameters(void);
/* Placeholders in STMT (0 without the parameter API). */
int pg_api_parameter_count(hl_stmt_t *stmt);
/* The Hive type parameter IDX (1-based) needs, or NULL. */
const char *pg_api_parameter_type(hl_stmt_t *stmt, int idx);
hl_status_t pg_api_bind_null(hl_stmt_t *stmt, int idx);
hl_status_t pg_api_bind_text(hl_stmt_t *stmt, int idx, const char *text, size_t len);
hl_status_t pg_api_bind_int64(hl_stmt_t *stmt, int idx, int64_t v);
hl_status_t pg_api_bind_double(hl_stmt_t *stmt, int idx, double v);
hl_status_t pg_api_bind_bool(hl_stmt_t *stmt, int idx, int v);
hl_status_t pg_api_bind_blob(hl_stmt_t *stmt, int idx, const void *data, size_t len);
/* Rewinds STMT to run again (hl_reset); HL_UNSUPPORTED: prepare it anew. */
hl_status_t pg_api_reset(hl_stmt_t *stmt);

#endif
