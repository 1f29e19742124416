/*
 * remote_cat.h -- a test-only catalog backend that behaves like a remote
 * metastore (the Hive Metastore over Thrift) without a network.
 *
 * It keeps its metadata in an embedded SQLite catalog STORE (the
 * "metastore service"), where every write call commits on its own, as a
 * Thrift call does; hl_cat_transactional is false, so src/txn journals
 * every write.  Intents and write locks live in a second embedded catalog
 * LOCAL (hl_cat_local), which begin/commit/rollback also go to.  The Nth
 * write call can fail (before or after it took effect: a MetaException, or
 * a connection dropped after the server applied the call) or kill the
 * process (SIGKILL, before or after the call), and the metastore can be
 * "down" (every write from the Nth on fails) to test failed undos.
 */
#ifndef HL_TEST_REMOTE_CAT_H
#define HL_TEST_REMOTE_CAT_H

#include "catalog/catalog.h"

typedef enum remote_fault {
  REMOTE_OK,           /* no fault */
  REMOTE_FAIL_BEFORE,  /* write N fails, nothing applied */
  REMOTE_FAIL_AFTER,   /* write N is applied, then reports failure */
  REMOTE_CRASH_BEFORE, /* SIGKILL before write N */
  REMOTE_CRASH_AFTER,  /* SIGKILL after write N took effect */
  REMOTE_DOWN,         /* write N and every later one fail */
} remote_fault_t;

/* A remote catalog over STORE with intents in LOCAL (both borrowed, must
 * outlive it), reopened elsewhere by ADDRESS (copied).  Caller closes it
 * with hl_cat_close (which closes neither STORE nor LOCAL). */
hl_status_t remote_cat_create(hl_cat_t *store, hl_cat_t *local, const char *address, hl_cat_t **out,
                              hl_error_t *err);
/* Arms FAULT at the Nth write call from now (1-based). */
void remote_cat_fault(hl_cat_t *cat, int n, remote_fault_t fault);
/* Write calls made since the last remote_cat_fault (or creation). */
int remote_cat_writes(const hl_cat_t *cat);

#endif
