/*
 * stor_s3.h -- the S3 backend of the file-system interface (stor.h).
 *
 * Paths are "s3://bucket/key" (or s3a://, s3n://).  One backend serves
 * every bucket: the settings of a bucket (endpoint, credentials, ...) come
 * from the embedder's callback each time a request is made, so a SET
 * takes effect at the next statement; a client (s3_client.h) is kept per
 * distinct configuration.  What an object store cannot do the backend says
 * so: rename is 0A000; mkdirs and rmdir do nothing (a "directory" is a
 * key prefix); writes of a transaction are pending multipart uploads
 * (create_pending), visible only once published.  docs/operations.md has
 * the write protocol.
 */
#ifndef HL_STOR_S3_H
#define HL_STOR_S3_H

#include "storage/s3/s3_client.h"
#include "storage/stor.h"

/* Fills OUT for a request on PATH in BUCKET (strings in ARENA, which
 * lives until the request ends).  An error is returned to the operation
 * that needed it. */
typedef hl_status_t (*hl_s3_config_fn)(void *arg, const char *path, const char *bucket,
                                       hl_arena_t *arena, hl_s3_config_t *out, hl_error_t *err);

/* The backend; FN(ARG) is called from any thread.  NULL on OOM.  Destroy
 * with fs->ops->destroy(fs): pending uploads not yet published are
 * aborted. */
hl_stor_t *hl_stor_s3_create(hl_s3_config_fn fn, void *arg);
/* The request counts of every client of FS (an hl_stor_s3_create
 * backend) since it was created. */
void hl_stor_s3_stats(hl_stor_t *fs, hl_s3_stats_t *out);
/* Size of the parts of multipart uploads (>= 5 MiB; default 8 MiB). */
void hl_stor_s3_set_part_size(hl_stor_t *fs, size_t bytes);

#endif
