/*
 * loc_allow.h -- the storage location allowlist
 * (hivelite.storage.allowed_locations).
 *
 * The setting (SET per session, or the warehouse configuration file
 * WAREHOUSE/.hivelite/config) is a comma-separated list of prefixes the
 * warehouse may read and write.  Empty (the default) allows every
 * location.  Commands check a location when DDL records it; the scan and
 * MSCK check it again before every read, because a metastore row can be
 * planted by anyone who can write the metastore file.
 */
#ifndef HL_LOC_ALLOW_H
#define HL_LOC_ALLOW_H

#include "session/session.h"

/* HL_OK when PATH lies under one of the allowed prefixes (component-wise,
 * after normalising "." and ".." in both and then resolving their symbolic
 * links, the part of PATH that does not exist yet kept as written), else
 * HL_ERROR 42501 naming the location (and the target it resolves to) and
 * WHAT it belongs to (`table "default.t"`, `partition "dt=1" of table
 * "default.t"`) and saying why.  Local prefixes may be written as 'file:/x'
 * or 'file:///x'; a relative prefix is taken against the warehouse; other
 * schemes ('s3://b/p') match textually on '/' boundaries.  Allocates only
 * in a temporary arena it frees. */
hl_status_t hl_loc_allow_check(const hl_session_t *s, const char *path, const char *what,
                               hl_error_t *err);
/* The same for table T (PART NULL) or its partition named PART. */
hl_status_t hl_loc_allow_check_table(const hl_session_t *s, const char *path, const char *db,
                                     const char *table, const char *part, hl_error_t *err);

/* The check for every entry of the listing of DIR that is a symbolic link
 * (hl_stor_entry_t.is_link), so a link in an allowed directory to a file
 * or directory outside is refused (42501) instead of read, loaded or
 * registered.  WHAT names what DIR belongs to, as above. */
hl_status_t hl_loc_allow_check_links(const hl_session_t *s, const char *dir,
                                     const hl_stor_entry_t *entries, size_t n, const char *what,
                                     hl_error_t *err);

#endif
