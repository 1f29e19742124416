/*
 * pg_api.h -- the seam between the server and the library's parameter
 * API (issue 17: hl_bind_*, hl_reset in include/hivelite.h).
 *
 * The server was written before that API landed and calls these names;
 * pg_api.c forwards them to the library (before the API landed it
 * answered HL_UNSUPPORTED and the server refused parameters with 0A000).
 */
#ifndef HL_PG_API_H
#define HL_PG_API_H

#include "hivelite.h"

#include <stddef.h>
#include <stdint.h>

int pg_api_parameter_count(hl_stmt_t *stmt);
const char *pg_api_parameter_type(hl_stmt_t *stmt, int idx);
hl_status_t pg_api_bind_null(hl_stmt_t *stmt, int idx);
hl_status_t pg_api_bind_text(hl_stmt_t *stmt, int idx, const char *text, size_t len);
hl_status_t pg_api_bind_int64(hl_stmt_t *stmt, int idx, int64_t v);
hl_status_t pg_api_bind_double(hl_stmt_t *stmt, int idx, double v);
hl_status_t pg_api_bind_bool(hl_stmt_t *stmt, int idx, int v);
hl_status_t pg_api_bind_decimal(hl_stmt_t *stmt, int idx, int64_t hi, uint64_t lo, int precision,
                                int scale);
hl_status_t pg_api_bind_date(hl_stmt_t *stmt, int idx, int32_t days);
hl_status_t pg_api_bind_timestamp(hl_stmt_t *stmt, int idx, int64_t micros);
hl_status_t pg_api_bind_blob(hl_stmt_t *stmt, int idx, const void *data, size_t len);
hl_status_t pg_api_reset(hl_stmt_t *stmt);

#endif
