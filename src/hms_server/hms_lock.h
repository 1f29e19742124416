/*
 * hms_lock.h -- the Hive Metastore's lock service (lock, check_lock,
 * unlock, heartbeat, show_locks) for clients of `hivelite metastore`: an
 * in-memory lock manager owned by the server (hl_hms_serve creates one and
 * every connection thread shares it under its mutex).
 *
 * The rules are those of Hive's DbLockManager / TxnHandler for
 * non-transactional locks: a lock is a set of components (type SHARED_READ,
 * SHARED_WRITE, EXCL_WRITE or EXCLUSIVE on a database, a table or a
 * partition) granted all together or not at all; two components conflict
 * when they cover the same object (a database covers its tables, a table
 * its partitions) and their types are incompatible (SHARED_READ goes with
 * SHARED_READ, SHARED_WRITE and EXCL_WRITE; SHARED_WRITE with SHARED_READ;
 * EXCLUSIVE with nothing).  Locks are granted in the order they were
 * requested: a lock waits (WAITING; the client polls check_lock) while an
 * older lock, granted or waiting, conflicts with it.  A lock whose holder
 * stops calling heartbeat or check_lock for the timeout
 * (hivelite.metastore.lock_timeout_s, Hive's hive.txn.timeout, default
 * 300 s) is dropped; afterwards its id is unknown (NoSuchLockException).
 *
 * These locks are not hivelite's own write locks (txn/txn.h): a hivelite
 * INSERT does not see them and they do not see it.  They only order
 * metastore clients among themselves, as Hive's locks do.
 */
#ifndef HL_HMS_LOCK_H
#define HL_HMS_LOCK_H

#include "hms/hms_ddl.h"
#include "util/arena.h"
#include "util/error.h"

#include <stdint.h>

typedef struct hl_hms_locks hl_hms_locks_t;

/* Most locks, and most components of all locks, held or waiting at once
 * (a client that asks for more is told so -- a TApplicationException --
 * instead of growing the table and the cost of granting without bound:
 * granting compares each waiting lock's components with those of every
 * older lock). */
#define HL_HMS_MAX_LOCKS           10000
#define HL_HMS_MAX_LOCK_COMPONENTS 100000

/* A manager whose locks time out after TIMEOUT_MS without a heartbeat.
 * NULL on OOM.  Destroyed by hl_hms_locks_destroy (NULL: no-op). */
hl_hms_locks_t *hl_hms_locks_create(int64_t timeout_ms);
void hl_hms_locks_destroy(hl_hms_locks_t *m);

/* Result of the calls below besides HL_OK: */
enum { HL_HMS_LOCK_OK = 0, HL_HMS_LOCK_NO_SUCH = 1, HL_HMS_LOCK_FULL = 2 };

/* Requests the lock REQ; *RESP gets its id and state (ACQUIRED or
 * WAITING).  HL_HMS_LOCK_FULL at the cap; HL_NOMEM (returned as -1) on
 * OOM. */
int hl_hms_lock_request(hl_hms_locks_t *m, const hl_hms_lock_request_t *req,
                        hl_hms_lock_response_t *resp);
/* The state of lock ID now (granting it when nothing older conflicts any
 * more); also a heartbeat.  HL_HMS_LOCK_NO_SUCH when unknown. */
int hl_hms_lock_check(hl_hms_locks_t *m, int64_t id, hl_hms_lock_response_t *resp);
/* Releases lock ID (granted or waiting). */
int hl_hms_lock_unlock(hl_hms_locks_t *m, int64_t id);
/* Keeps lock ID alive. */
int hl_hms_lock_heartbeat(hl_hms_locks_t *m, int64_t id);
/* Every lock component matching REQ's dbname/tablename/partname filters
 * (absent: any), one element per component, in lock id order, in ARENA.
 * -1 on OOM. */
int hl_hms_lock_show(hl_hms_locks_t *m, const hl_hms_show_locks_request_t *req, hl_arena_t *arena,
                     hl_hms_show_locks_response_t *out);

#endif
