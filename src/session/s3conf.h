/*
 * s3conf.h -- the S3 backend's settings for a bucket, from the session
 * (s3conf.c has the order of sources and the names).
 */
#ifndef HL_S3CONF_H
#define HL_S3CONF_H

#include "session/session.h"
#include "storage/s3/stor_s3.h"

/* An hl_s3_config_fn: ARG is the hl_session_t. */
hl_status_t hl_session_s3_config(void *arg, const char *bucket, hl_arena_t *arena,
                                 hl_s3_config_t *out, hl_error_t *err);

#endif
