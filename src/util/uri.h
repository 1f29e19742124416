/*
 * uri.h -- which locations are on an object store.
 *
 * One rule for every stage: storage/ routes such paths to its S3 backend,
 * hms/ accepts them from metastore clients, txn/ and command/ treat them
 * as having no rename.  A location is on an object store when it is
 * "s3://bucket...", "s3a://..." or "s3n://..." (Hive and Spark write all
 * three; the scheme is kept as written) with a non-empty bucket.
 */
#ifndef HL_URI_H
#define HL_URI_H

#include <stddef.h>

/* The length of PATH's root ("s3a://bucket"), or 0 when PATH is not an
 * object-store URI. */
size_t hl_uri_object_root(const char *path);

#endif
