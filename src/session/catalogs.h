/*
 * catalogs.h -- the catalogs one session sees by name (Doris's model):
 * `internal`, the embedded metastore the handle opened, and the Hive
 * Metastores stored with CREATE CATALOG (catalog.h "named catalogs") or
 * attached for the session alone (`hivelite -m thrift://...`).
 *
 * A stored catalog is opened on first use, through the opener the api layer
 * installs (the Hive Metastore client sits above this stage), and stays
 * open until the session ends or DROP / ALTER CATALOG forgets it.  The
 * session's current catalog is s->cat, and s->current_db its current
 * database, so code that works on "the catalog" keeps working; each other
 * catalog remembers its own current database (Doris keeps one per
 * catalog), `default` until a USE names another.
 *
 * Names are case-insensitive identifiers (compared lower-cased).  Unknown
 * catalogs are 3D000 `catalog "x" does not exist`.
 */
#ifndef HL_SESSION_CATALOGS_H
#define HL_SESSION_CATALOGS_H

#include "session/session.h"

#define HL_CATALOG_INTERNAL "internal"

/* Opens catalog DEF (its type and properties as stored) with LOCAL, the
 * embedded catalog, as the keeper of intents and locks; caller of the
 * opener owns *OUT. */
typedef hl_status_t (*hl_catalogs_open_fn)(void *ctx, const hl_cat_catalog_t *def, hl_cat_t *local,
                                           hl_cat_t **out, hl_error_t *err);

/* Starts S's registry with s->cat, already open, as `internal` and current.
 * HL_NOMEM on failure. */
hl_status_t hl_catalogs_init(hl_session_t *s, hl_catalogs_open_fn open, void *open_ctx);
/* Closes every catalog the registry opened and makes s->cat `internal`
 * again (which stays the caller's to close). */
void hl_catalogs_fini(hl_session_t *s);

/* The embedded catalog (`internal`). */
hl_cat_t *hl_catalogs_internal(hl_session_t *s);
/* The name of the current catalog. */
const char *hl_catalogs_current(const hl_session_t *s);
bool hl_catalogs_is_internal(const char *name);

/* Catalog NAME (NULL: the current one), opened if it is not open yet;
 * borrowed until the session forgets it.  POS is the error position. */
hl_status_t hl_catalogs_get(hl_session_t *s, const char *name, long pos, hl_cat_t **out,
                            hl_error_t *err);
/* Names without a catalog resolve in CAT (NULL: the current catalog) from
 * now on: a view binds its query in the view's own catalog.  Returns the
 * previous setting, to restore. */
hl_cat_t *hl_catalogs_resolve_in(hl_session_t *s, hl_cat_t *cat);
/* The name under which CAT is open (for messages and snapshot keys). */
const char *hl_catalogs_name_of(const hl_session_t *s, const hl_cat_t *cat);

/* Registers CAT (owned from now on, closed at the end even on failure) as
 * the session-only catalog NAME reached at URIS, as `-m` attaches one.
 * 42710 when NAME is taken. */
hl_status_t hl_catalogs_attach(hl_session_t *s, const char *name, const char *uris, hl_cat_t *cat,
                               hl_error_t *err);
/* The session-only catalog I (0-based; false past the last): its name and
 * URIs, borrowed. */
bool hl_catalogs_session_only(const hl_session_t *s, int i, const char **name, const char **uris);

/* Makes catalog NAME current (opening it) with database DB (NULL: the
 * database it last had); the caller has checked that DB exists there. */
hl_status_t hl_catalogs_switch(hl_session_t *s, const char *name, const char *db, long pos,
                               hl_error_t *err);
/* Closes catalog NAME if it is open (DROP / ALTER CATALOG); if it was
 * current, `internal` becomes current. */
void hl_catalogs_forget(hl_session_t *s, const char *name);

#endif
