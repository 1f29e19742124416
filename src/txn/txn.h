/*
 * txn.h -- write transactions: staging, the intent log, commit, rollback
 * and crash recovery.
 *
 * Every statement that writes table data (INSERT, INSERT OVERWRITE, CTAS,
 * TRUNCATE) runs one hl_txn_t.  The protocol:
 *
 *   begin      intent row (state "staging") naming the staging directory
 *              <root>/.hivelite-staging-<qid>/ ; files of every target are
 *              written into it (file names are unique within a write)
 *   commit:
 *     lock     the catalog write locks the caller named (sorted, so two
 *              writers never deadlock), waiting up to the lock timeout
 *     plan     under the lock: for each overwritten target the visible
 *              entries it holds now; the plan (targets, new files, old
 *              files, created directories) is stored with state "pending"
 *     publish lock: the exclusive reader lock of every table written
 *              (see "Readers" below), waiting for running scans to end
 *     trash    old entries -> <dir>/.hivelite-trash-<qid>/ (same directory:
 *              a rename)
 *     publish  staged files -> <dir>/ (names are unique per write)
 *     sync     ONE sync_fs per file system: staged data, new directories
 *              and every rename of this write become durable together
 *     commit   ONE catalog transaction: the caller's metadata changes
 *              (partitions, statistics, new table) + state "committed";
 *              then the publish locks are released
 *     cleanup  remove trash and staging, forget the intent, unlock
 *
 * Durability is batched (the fsync rule): files are written and renamed
 * without syncing (hl_txn_fs gives writers a stor_batch decorator) and made
 * durable by the one "sync" step.  The order that makes this safe against
 * power loss is spelled out at hl_txn_commit in txn.c.
 *
 * Permissions: new files (staged by the write) and new directories take
 * the permission bits (files: without execute bits) and the group of the
 * table directory the caller names with hl_txn_target_inherit.  Nothing
 * that existed before the write is chmod-ed or chown-ed.
 *
 * Readers (hl_txn_read_begin, used by the statement snapshot of
 * exec/snapshot.h): a statement sees a table as of one committed state.
 * Each table has a lock file <lock_dir>/<db.table>.lock (lock_dir =
 * <warehouse>/.hivelite/locks).  A statement holds a shared lock on it
 * from its first scan of the table until its operators close, and all its
 * scans read one listing made under it; a write holds the exclusive lock
 * only from "trash" through its catalog commit.  So no scan runs while
 * files move, and the files a statement lists are those of the catalog
 * state committed last.  The locks are the file system's (open
 * file description locks), so a dead process never leaves one behind.
 * Writers never wait while holding one (they take all or none, then
 * retry), so readers and writers cannot deadlock.  The plan of a query is
 * bound (partition list) before its scans start; a write committed in
 * between that added partitions is detected when the lock is taken
 * (partition count) and fails the query with 40001 instead of mixing two
 * states.
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
 * Remote metastores.  Through a catalog that is not transactional
 * (hl_cat_transactional false: an attached Hive Metastore, whose every
 * call takes effect at once and on its own) the "commit" step cannot be
 * one transaction.  There it is:
 *
 *   journal    for each remote write call the apply callback makes, the
 *              catalog first hands txn an undo record (what the call does
 *              and the before-image it destroys: "added" for a partition,
 *              the old parameters and location for an update, the table
 *              for a create; catalog/cat_journal.c); txn appends it to the
 *              intent's plan (a "J" line) in its own local commit, then
 *              the call is made.  The first record turns "pending" into
 *              "remote" (stored as "pending" with a journal: the schema's
 *              state column predates it, and no migration is needed)
 *   committed  all calls done: state "committed" (a local commit)
 *   cleanup    as above
 *
 *     staging -> pending -> remote (journal open) -> committed -> (gone)
 *
 * The intent also records the catalog's address ("K" line, from
 * hl_cat_address), so that recovery in another process can reach it.
 * A failed remote call (or any error after the first record) undoes the
 * journaled calls, last first, then the files (the ordinary rollback).
 * Recovery of a "remote" intent rolls back the same way.  Why back and not
 * forward: the writer never reported success; undo needs only what the
 * journal holds (before-images), while finishing would need the calls not
 * yet made, which only the dead writer's apply callback knew.  Each undo
 * checks the remote state first, since a crash can come after a call took
 * effect and before anyone learned so (or before it took effect, after its
 * record): an added partition or a created table is removed only while it
 * is the one this write made (same location), an update is reversed by
 * writing the before-image back.  Every step is idempotent, and the intent
 * is forgotten only after the files are back, so a crash during recovery
 * is repaired by the next one.  When the undo itself fails (the metastore
 * is unreachable), nothing more is done: files and intent stay, and the
 * write locks go with the intent to a holder that no longer runs (this
 * pid with an impossible start time), so the next writer of those tables
 * -- in this process too -- retries the repair before it writes, and
 * fails with 55P03 while it cannot.  Recovery at open (api.c) has only
 * the embedded catalog (attached metastores are opened later): it leaves
 * writes through a remote one (and every other intent of the same dead
 * process) untouched and counts them; a writer through the catalog with
 * that address repairs them when it takes the table's lock.
 *
 * Object stores (S3: no rename, no directories, every object whole).
 * A target whose directory is on one (target->object) is written
 * without staging: its files are created as pending objects at their
 * final names (stor.h create_pending: multipart uploads that no reader
 * sees), "publish" completes them, and nothing is moved to a trash.  An
 * overwrite (and a new partition) writes to a fresh prefix
 * (hl_txn_target_fresh) that the caller's catalog commit makes the
 * location, so readers of the catalog switch from the old files to the
 * new ones at once; the replaced location's visible files (listed under
 * the lock, "O" lines, with the location in an "R" line) are deleted
 * only after the commit.  Rollback and recovery: published new files
 * (named by the write's id) are deleted, and every pending upload under
 * the write's root and targets whose name starts with the write's id is
 * aborted (stor.h abort_pending_under) -- so the intent, recorded before
 * anything is uploaded, is all recovery needs.  A drop deletes the
 * directory's objects after the commit.  Directory moves (RENAME of a
 * managed table) are not possible there; callers keep the location.
 *
 * Fault injection: HIVELITE_CRASH_AT=<step> kills the process with SIGKILL
 * at that step (staged, locked, pending, trash, publish, synced,
 * before_commit, journaled (after the first undo record, before its
 * call), remote_done, undo (after the last remote call was undone, before
 * the others), committed, cleanup); HIVELITE_PAUSE_AT=<step>:<ms> sleeps
 * there (for concurrency tests; "publish" pauses after the first file is
 * published, with the publish locks held; "scan" is a reader's step: a
 * statement passes it once per table it reads, after the query was bound,
 * before it takes the table's lock; "recover" is recovery's step, after it
 * listed the intents, when there are any).
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
  char *created;  /* set by commit: top-most directory created, or NULL */
  void *user;     /* the caller's data */
  bool inherit;   /* new files/dirs get mode/gid (hl_txn_target_inherit) */
  uint32_t mode;  /* the table directory's permission bits */
  int64_t gid;    /* the table directory's group */
  bool drop;      /* the write removes DIR (hl_txn_target_add_drop) */
  char *stop;     /* drop: empty parents of DIR strictly below this go too */
  bool object;    /* DIR is on an object store (see "Object stores") */
  char *replaces; /* hl_txn_target_fresh: the location DIR replaces, or NULL */
  bool fresh;     /* hl_txn_target_fresh moved DIR to a new prefix */
} hl_txn_target_t;

/* Starts a write of kind KIND ("insert", "overwrite", "ctas", "truncate",
 * "load") whose staging directory goes under ROOT (the table directory; it
 * is created if missing and removed again on rollback; NULL: the write
 * stages no files, as a drop or a rename does).  Borrowed CAT/FS
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

/* Adds a target directory (its stage_dir is the write's staging directory,
 * shared by all targets).  The pointer stays valid until the transaction
 * ends. */
hl_status_t hl_txn_target_add(hl_txn_t *txn, const char *dir, bool overwrite, hl_txn_target_t **out,
                              hl_error_t *err);
/* Adds a target the write removes (DROP TABLE, DROP PARTITION): at commit
 * every entry of DIR (hidden ones too, but not the staging or trash
 * directories of writes) moves to DIR's trash like an overwrite's old
 * files; after the catalog commit the trash goes, then DIR if it is empty,
 * then its parents while they are empty and strictly below STOP (NULL:
 * none).  A DIR that does not exist is nothing to remove.  A DIR whose
 * entries cannot be moved fails the commit: nothing is dropped. */
hl_status_t hl_txn_target_add_drop(hl_txn_t *txn, const char *dir, const char *stop,
                                   hl_txn_target_t **out, hl_error_t *err);
/* Records that directory FROM is renamed to TO at publish (ALTER TABLE
 * RENAME of a managed table); missing parents of TO are created.  A
 * rollback renames it back.  A FROM that does not exist at commit is
 * nothing to move. */
hl_status_t hl_txn_move_add(hl_txn_t *txn, const char *from, const char *to, hl_error_t *err);
/* Object stores: moves TARGET (just added, no file written yet) to a
 * fresh prefix "<dir>/.hl-<qid>" below its directory (below the directory
 * it names without such a suffix, so prefixes never nest), so that the
 * catalog commit switches readers from the old location to the new one
 * at once; an overwrite's old files stay where they are until the commit
 * and are deleted after it (REPLACES_OLD: an overwrite of a location that
 * exists; false for a new partition).  TARGET->dir is then the location to
 * record.
 * Does nothing on a file system with rename (*MOVED false). */
hl_status_t hl_txn_target_fresh(hl_txn_t *txn, hl_txn_target_t *target, bool replaces_old,
                                bool *moved, hl_error_t *err);
size_t hl_txn_target_count(const hl_txn_t *txn);
hl_txn_target_t *hl_txn_target_at(hl_txn_t *txn, size_t i);
/* A new unique file name "<qid>_<n><ext>" for TARGET (not yet recorded). */
char *hl_txn_file_name(hl_txn_t *txn, const char *ext);
/* Records that NAME was written completely into TARGET's stage_dir.  Names
 * must be unique within the write (hl_txn_file_name's are). */
hl_status_t hl_txn_target_add_file(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                                   hl_error_t *err);

/* Records that file ORIGIN (outside the staging directory, on the same file
 * system) is to be moved to TARGET's directory as NAME at publish.  A
 * rollback moves it back to ORIGIN. */
hl_status_t hl_txn_target_add_moved(hl_txn_t *txn, hl_txn_target_t *target, const char *name,
                                    const char *origin, hl_error_t *err);

/* The caller's metadata step, run inside the commit's catalog transaction
 * after every file is in place; an error rolls everything back.  Through a
 * remote catalog each of its write calls is journaled first (see "Remote
 * metastores"): it must make its changes through TXN's catalog only. */
typedef hl_status_t (*hl_txn_apply_fn)(void *arg, hl_txn_t *txn, hl_error_t *err);

/* Commits (see the protocol above).  Whatever it returns, the transaction
 * is over: on error everything was rolled back. */
hl_status_t hl_txn_commit(hl_txn_t *txn, hl_txn_apply_fn apply, void *arg, hl_error_t *err);
/* FN(ARG, TXN) runs in hl_txn_commit once the write locks are held, before
 * the plan is made: the caller re-reads what may have changed since it
 * chose its targets (an object store's overwrite: the location it
 * replaces now, hl_txn_target_set_replaces). */
void hl_txn_set_plan_hook(hl_txn_t *txn, hl_txn_apply_fn fn, void *arg);
/* True when locations A and B are one up to an object store's fresh-prefix
 * suffix ("/.hl-<id>"): the same partition's or table's data. */
bool hl_txn_same_base(const char *a, const char *b);
/* The location fresh TARGET replaces (NULL: none), as read under the
 * lock; copied. */
hl_status_t hl_txn_target_set_replaces(hl_txn_t *txn, hl_txn_target_t *target, const char *location,
                                       hl_error_t *err);
/* Rolls back a transaction that was not committed. */
void hl_txn_abort(hl_txn_t *txn);

/* The file system writers of TXN's files must use (a stor_batch decorator
 * whose sync is deferred to the commit's one sync step, or the plain one).
 * Borrowed; valid until the transaction ends.  Every file created through
 * it must be closed before hl_txn_commit/hl_txn_abort. */
hl_stor_t *hl_txn_fs(hl_txn_t *txn);

/* New files and directories of TARGET take the permission bits and group
 * of TABLE_DIR (one stat per distinct TABLE_DIR per write).  A TABLE_DIR
 * that does not exist (yet) sets nothing. */
hl_status_t hl_txn_target_inherit(hl_txn_t *txn, hl_txn_target_t *target, const char *table_dir,
                                  hl_error_t *err);

/* Enables reader isolation for this write: publish locks live in LOCK_DIR
 * (copied; created if missing).  Without it no publish lock is taken. */
hl_status_t hl_txn_set_lock_dir(hl_txn_t *txn, const char *lock_dir, hl_error_t *err);

/* Parses hivelite.lock.timeout (seconds, >= 0); NULL or "" is the default
 * of 60. */
hl_status_t hl_txn_parse_lock_timeout(const char *value, double *out, hl_error_t *err);

/* ------------------------------------------------------------ readers */

/* The lock directory of warehouse WAREHOUSE, in ARENA (NULL on OOM). */
char *hl_txn_lock_dir(hl_arena_t *arena, const char *warehouse);

/* Takes the shared lock of table NAME ("db.table") in LOCK_DIR, waiting up
 * to TIMEOUT seconds while a write publishes (then 55P03).  *out (OUT) is
 * the lock to pass to hl_txn_read_end; it is NULL when FS cannot lock or
 * the lock file cannot be created (a read-only warehouse: no hivelite
 * writer can publish there through it). */
hl_status_t hl_txn_read_begin(hl_stor_t *fs, const char *lock_dir, const char *name, double timeout,
                              hl_stor_lock_t **out, hl_error_t *err);
/* Releases a lock from hl_txn_read_begin (NULL is a no-op). */
void hl_txn_read_end(hl_stor_t *fs, hl_stor_lock_t *lock);

/* Opens the remote catalog recorded as ADDRESS (hl_cat_address) for
 * recovery: *out (OUT) is borrowed (the callback's to close, after
 * hl_txn_recover returned) and its hl_cat_local must be the catalog
 * recovery runs on; *out NULL: not at hand. */
typedef hl_status_t (*hl_txn_cat_open_fn)(void *arg, const char *address, hl_cat_t **out,
                                          hl_error_t *err);

/* Repairs the writes of processes that died mid-write (see above).  Writes
 * of live processes are left alone.  Per dead process, recovery first
 * claims its intents and write locks (hl_cat_intent_claim: one catalog
 * transaction), so it decides on each intent's state as it is after the
 * owner died, never on a state read before: a write that committed and
 * exited meanwhile is left alone.  With LOCK_DIR (the warehouse's lock
 * directory, NULL: none) it takes the publish locks of the tables the dead
 * writer locked while it repairs their files, waiting up to TIMEOUT
 * seconds for running scans (then it repairs without them).  A writer that
 * finds a table's write lock held by a dead process recovers that process
 * the same way before it takes the lock.
 *
 * CAT is the embedded catalog.  A write that made remote calls (see
 * "Remote metastores") is undone through the catalog OPEN (NULL: none)
 * gives for its address; a dead process with such a write that cannot be
 * undone here (no catalog, or the metastore fails) is left exactly as it
 * is -- intents, locks and files -- and counted in *N_LEFT (OUT, may be
 * NULL), for a process that has the catalog. */
hl_status_t hl_txn_recover(hl_cat_t *cat, hl_stor_t *fs, const char *lock_dir, double timeout,
                           hl_txn_cat_open_fn open, void *open_arg, size_t *n_left,
                           hl_error_t *err);

/* The fault-injection hook (HIVELITE_CRASH_AT / HIVELITE_PAUSE_AT), for
 * other steps of a write (exec uses it between files). */
void hl_txn_fault_point(const char *step);

#endif
