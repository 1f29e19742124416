/*
 * s3conf.h -- the S3 backend's settings for a bucket, from the session
 * (s3conf.c has the order of sources and the names).
 */
#ifndef HL_S3CONF_H
#define HL_S3CONF_H

#include "session/session.h"
#include "storage/s3/stor_s3.h"

/* An hl_s3_config_fn: ARG is the hl_session_t. */
hl_status_t hl_session_s3_config(void *arg, const char *path, const char *bucket,
                                 hl_arena_t *arena, hl_s3_config_t *out, hl_error_t *err);
/* Remembers, for paths at or below LOCATION (an S3 one; anything else is
 * ignored), the fs.s3a.* properties of a table (TABLE) and of its catalog
 * (CATALOG, Doris's s3.* names too; the table's win), replacing what was
 * remembered for LOCATION.  Called whenever a statement resolves a table,
 * so the properties are the table's current ones. */
hl_status_t hl_session_s3_scope(hl_session_t *s, const char *location, const hl_kv_t *catalog,
                                int n_catalog, const hl_kv_t *table, int n_table,
                                hl_error_t *err);
/* Frees what hl_session_s3_scope remembered. */
void hl_session_s3_scopes_free(hl_session_t *s);

#endif
