/*
 * snapshot.h -- what one statement reads of each table: one shared reader
 * lock and one listing of each directory, shared by all its scans.
 *
 * A statement's scans -- the threads of a parallel scan or aggregation,
 * both sides of a self-join, UNION branches, subqueries, the partition
 * groups of an ordered scan, the SELECTs of a multi-insert -- all join the
 * statement's snapshot.  The first scan of a table takes the table's shared
 * reader lock (txn.h "Readers") and, for a partitioned table, compares the
 * catalog's partition count with the plan's (40001 when a write added
 * partitions since the query was bound); later scans of the table find
 * both done.  The first scan to open a directory lists it (through the
 * session's listing cache), keeping the visible data files (no hidden
 * names, no sub-directories); every other scan of the table reads that
 * list.  So every scan of the statement reads one committed state, and
 * file ordinals (which file is whose thread's) mean the same in every
 * thread.  Everything is held until hl_snap_end: the statement's root
 * operator (hl_op_snapshot_create), or the command that owns the snapshot
 * (INSERT ends it before its commit publishes), ends it.
 *
 * Lock order: a statement takes the shared locks of its tables one at a
 * time, in the order its scans are built, waiting while a write publishes.
 * That cannot deadlock: a writer takes the exclusive locks of all the
 * tables it writes or none (txn.c take_publish_locks), so it never waits
 * while holding one, and a publishing writer waits for nothing a reader
 * holds.
 *
 * hl_snap_table is called by the statement's thread (where operators are
 * built); hl_snap_list by any thread of the statement.
 */
#ifndef HL_SNAPSHOT_H
#define HL_SNAPSHOT_H

#include "exec/result.h"
#include "plan/plan.h"
#include "session/session.h"

typedef struct hl_snap hl_snap_t;
typedef struct hl_snap_table hl_snap_table_t; /* one table of a snapshot */

/* An empty snapshot in ARENA (no lock, no listing yet); ended (locks
 * released) at the latest when ARENA is reset or destroyed.  NULL with ERR
 * set on OOM. */
hl_snap_t *hl_snap_create(hl_arena_t *arena, hl_error_t *err);
/* Releases every lock and listing of SNAP (NULL is a no-op).  SNAP is
 * empty again: a later scan would start a new state. */
void hl_snap_end(hl_snap_t *snap);
/* The table PLAN scans (a catalog table, not a dataset) in SNAP: its
 * shared reader lock is taken on its first use (hivelite.lock.timeout,
 * then 55P03), and PLAN's partition count is checked against the catalog's
 * at that moment (40001).  *OUT lives until hl_snap_end. */
hl_status_t hl_snap_table(hl_snap_t *snap, hl_session_t *s, const hl_plan_scan_t *plan,
                          hl_snap_table_t **out, hl_error_t *err);
/* The visible data files of directory DIR of table T, in name order:
 * listed on the first call, the same list on every later one.  A missing
 * directory has no files.  *FILES is borrowed until hl_snap_end. */
hl_status_t hl_snap_list(hl_snap_table_t *t, hl_session_t *s, const char *dir,
                         const hl_stor_entry_t **files, size_t *n, hl_error_t *err);

/* An operator that returns CHILD's batches and, once CHILD is closed, ends
 * SNAP: the root of a query that owns its snapshot.  On OOM, CHILD is
 * closed, SNAP ended, NULL returned. */
/* Lists DIRS[0..n) of T ahead of the scans that will need them, with up
 * to THREADS threads (object stores: each listing is a request, and the
 * scans' own threads would wait for each in turn); hl_snap_list then
 * finds them done, or waits for the one being made.  Once per table of a
 * snapshot; hl_snap_end stops and joins the threads. */
hl_status_t hl_snap_prefetch(hl_snap_table_t *t, hl_session_t *s, const char *const *dirs, size_t n,
                             int threads, hl_error_t *err);
hl_op_t *hl_op_snapshot_create(hl_op_t *child, hl_snap_t *snap, hl_arena_t *arena, hl_error_t *err);

#endif
