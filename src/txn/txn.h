/*
 * txn.h -- write transactions: staging, the intent log, commit, rollback
 * and crash recovery.
 *
 * Every statement that writes table data (INSERT, INSERT OVERWRITE, CTAS,
 * TRUNCATE) runs one hl_txn_t.  The protocol:
 *
 *   begin      intent row (state "staging") naming the staging directory
 *              <root>/.hivelite-staging-<qid>/ ; files are written below
 *              it, one sub-directory per target directory
 *   commit:
 *     lock     the catalog write locks the caller named (sorted, so two
 *              writers never deadlock), waiting up to the lock timeout
 *     plan     under the lock: for each overwritten target the visible
 *              entries it holds now; the plan (targets, new files, old
 *              files, created directories) is stored with state "pending"
 *     trash    old entries -> <dir>/.hivelite-trash-<qid>/ (same directory:
 *              a rename)
 *     publish  staged files -> <dir>/ (names are unique per write)
 *     commit   ONE catalog transaction: the caller's metadata changes
 *              (partitions, statistics, new table) + state "committed"
 *     cleanup  remove trash and staging, forget the intent, unlock
 *
 * Any error before the catalog commit undoes the file moves in reverse and
 * removes what the write created; the catalog is untouched.  A crash is
 * repaired by hl_txn_recover (run when a warehouse is opened): intents of
 * dead processes in state "staging"/"pending" are rolled back from the
 * plan (new files removed, old files moved back), "committed" ones are
 * rolled forward (trash and staging removed).  Both directions are
 * idempotent, so a crash during recovery is repaired by the next one.
 *
 * Nothing outside a target's own directory is deleted; hidden names ('.'
 * and '_' prefixes) in a target are never moved, so the staging and trash
 * directories are invisible to readers.  Existing directories and files
 * that a write does not replace are not touched (no chmod, no listing
 * except of overwritten targets).
 *
 * Fault injection: HIVELITE_CRASH_AT=<step> kills the process with SIGKILL
 * at that step (staged, locked, pending, trash, publish, before_commit,
 * committed, cleanup); HIVELITE_PAUSE_AT=<step>:<ms> sleeps there (for
 * concurrency tests).
 */
#ifndef HL_TXN_H
#define HL_TXN_H

#include "catalog/catalog.h"
#include "storage/stor.h"

#include <stdbool.h>

typedef struct hl_txn hl_txn_t;

/* One directory the write puts files into (a partition or a table). */
typedef struct hl_txn_target {
  int idx;          /* position in the write */
  char *dir;        /* final directory (absolute) */
  bool overwrite;   /* replace the visible entries of DIR */
  char *stage_dir;  /* where the caller writes this target's files */
  char **new_files; /* base names written to stage_dir */
  size_t n_new, cap_new;
  char **moved_from; /* per new file: the path it is moved from at publish
                        (LOAD DATA without LOCAL), or NULL: from stage_dir */
  char **old_files;  /* set by commit: entries of DIR replaced */
  size_t n_old;
  char *created; /* set by commit: top-most directory created, or NULL */
  void *user;    /* the caller's data */
} hl_txn_target_t;

/* Starts a write of kind KIND ("insert", "overwrite", "ctas", "truncate",
 * "load") whose staging directory goes under ROOT (the table directory; it
 * is created if missing and removed again on rollback).  Borrowed CAT/FS
 * must outlive the transaction; everything is allocated in ARENA.  Caller
 * ends it with hl_txn_commit or hl_txn_abort. */
hl_status_t hl_txn_begin(hl_cat_t *cat, hl_stor_t *fs, const char *kind, const char *root,
                         hl_arena_t *arena, hl_txn_t **out, hl_error_t *err);
/* The write's unique id (hex), used in file names. */
const char *hl_txn_query_id(const hl_txn_t *txn);
/* Seconds to wait for a lock before failing with 55P03 (default 60). */
void hl_txn_set_lock_timeout(hl_txn_t *txn, double seconds);
/* Adds lock NAME ("db.table") to take at commit. */
hl_status_t hl_txn_lock_add(hl_txn_t *txn, const char *name, hl_error_t *err);

/* Adds a target directory; its stage_dir is created.  The pointer stays
 * valid until the transaction ends. */
hl_status_t hl_txn_target_add(hl_txn_t *txn, const char *dir, bool overwrite, hl_txn_target_t **out,
                              hl_error_t *err);
size_t hl_txn_target_count(const hl_txn_t *txn);
hl_txn_target_t *hl_txn_target_at(hl_txn_t *txn, size_t i);
/* A new unique file name "<qid>_<n><ext>" for TARGET (not yet recorded). */
char *hl_txn_file_name(hl_txn_t *txn, const char *ext);
/* Records that NAME was written completely into TARGET's stage_dir. */
hl_status_t hl_txn_target_add_file(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                                   hl_error_t *err);

/* Records that file ORIGIN (outside the staging directory, on the same file
 * system) is to be moved to TARGET's directory as NAME at publish.  A
 * rollback moves it back to ORIGIN. */
hl_status_t hl_txn_target_add_moved(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                                    const char *origin, hl_error_t *err);

/* The caller's metadata step, run inside the commit's catalog transaction
 * after every file is in place; an error rolls everything back. */
typedef hl_status_t (*hl_txn_apply_fn)(void *arg, hl_txn_t *txn, hl_error_t *err);

/* Commits (see the protocol above).  Whatever it returns, the transaction
 * is over: on error everything was rolled back. */
hl_status_t hl_txn_commit(hl_txn_t *txn, hl_txn_apply_fn apply, void *arg, hl_error_t *err);
/* Rolls back a transaction that was not committed. */
void hl_txn_abort(hl_txn_t *txn);

/* Repairs the writes of processes that died mid-write (see above).  Writes
 * of live processes are left alone. */
hl_status_t hl_txn_recover(hl_cat_t *cat, hl_stor_t *fs, hl_error_t *err);

/* The fault-injection hook (HIVELITE_CRASH_AT / HIVELITE_PAUSE_AT), for
 * other steps of a write (exec uses it between files). */
void hl_txn_fault_point(const char *step);

#endif
