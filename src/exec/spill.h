/*
 * spill.h -- temporary files for operators that hold more than their share
 * of the memory limit (external sort, grace hash join).
 *
 * Where: the directory named by the setting hivelite.spill.directory, by
 * default WAREHOUSE/.hivelite/tmp (beside the metastore and the locks).
 * Spill I/O is always local POSIX I/O (open/write/read on a local file
 * system), never the storage router: the spill directory must be local
 * even when tables live on S3, and a warehouse on S3 spills under
 * $TMPDIR (or /tmp) /hivelite-spill instead.
 *
 * Lifetime: a statement has one spill space (hl_spill_t), made with the
 * statement's arena.  Its subdirectory ROOT/<pid>-<start>-<tag>-XXXXXX
 * (pid and start time of the process; tag: host name and pid namespace;
 * a random suffix from mkdtemp) is created when the first file is, and
 * removed with everything in it when the arena is destroyed or reset (the
 * api does so when the statement ends: success, error, cancel).  Files
 * never have a name (O_TMPFILE; where the file system lacks it, a file is
 * unlinked as soon as it is opened), so even a killed process leaves no
 * file data behind, only an empty subdirectory; hl_spill_sweep (run when a
 * warehouse is opened) removes subdirectories of this host and pid
 * namespace whose process is gone: the pid is not running, or runs with
 * another start time (a reused pid).  A live process's subdirectory is
 * never touched, nor one made on another machine or in another container
 * (its pids are not ours to judge), so two processes on one warehouse do
 * not remove each other's.
 *
 * Files: a sequence of blocks, one per written batch, buffered into 256 KiB
 * writes and read back through a 256 KiB buffer, so I/O is large and
 * sequential.  A block is a 24-byte header (magic, rows, columns, payload bytes) and
 * the columns one after the other: a flag (no NULL, a validity bitmap
 * follows, or all NULL and nothing follows), then fixed-width values as they lie in the vector,
 * strings as lengths then bytes, complex values (ARRAY, MAP, STRUCT) as a tree of null flags,
 * counts and leaves.  The reader checks every length against the block and every block against the
 * file, so a torn file (a write that failed half-way) is an error (XX001), never a crash.  A failed
 * write is 53100 (disk full) for ENOSPC/EDQUOT, else 58030.
 *
 * Share: each spilling operator may keep up to hl_spill_share() bytes of
 * rows, a quarter of hivelite.memory_limit, so that a sort above a join
 * above a scan still fits; past it the operator spills.
 *
 * Thread-safety: one hl_spill_t may hand out files to several threads
 * (hl_spill_file_create locks); one file is used by one thread at a time.
 */
#ifndef HL_SPILL_H
#define HL_SPILL_H

#include "session/session.h"
#include "util/strbuf.h"
#include "vector/vector.h"

typedef struct hl_spill hl_spill_t;
typedef struct hl_spill_file hl_spill_file_t;

/* The spill root of session S: hivelite.spill.directory when set and not
 * empty (blanks and one pair of quotes trimmed), else WAREHOUSE/.hivelite/tmp
 * for a local warehouse, else $TMPDIR/hivelite-spill.  A URI is 0A000 (the
 * spill directory is local), a relative path 22023.  The path is in ARENA. */
hl_status_t hl_spill_root(const hl_session_t *s, hl_arena_t *arena, const char **out,
                          hl_error_t *err);

/* A statement's spill space under ROOT (copied), in ARENA: nothing is
 * created on disk until the first file; the subdirectory is removed when
 * ARENA is reset or destroyed.  LIMIT is the statement's memory limit
 * (hl_spill_share is a quarter of it).  NULL with ERR set on OOM. */
hl_spill_t *hl_spill_create(const char *root, uint64_t limit, hl_arena_t *arena, hl_error_t *err);
/* The bytes one spilling operator may keep before it spills (at least
 * 64 KiB). */
uint64_t hl_spill_share(const hl_spill_t *sp);
/* The statement's subdirectory, NULL before the first file. */
const char *hl_spill_dir(const hl_spill_t *sp);
/* Bytes written to spill files so far (for EXPLAIN ANALYZE and tests). */
uint64_t hl_spill_bytes(const hl_spill_t *sp);

/* Removes the subdirectories of ROOT left by processes that are gone (see
 * above); a missing ROOT is no error.  Errors removing are ignored (the
 * next open tries again): this never fails an open. */
void hl_spill_sweep(const char *root);
/* True when a subdirectory NAME of the spill root belongs to a process
 * that is gone (exposed for tests). */
bool hl_spill_name_is_stale(const char *name);
/* This process's subdirectory prefix "<pid>-<start>-<tag>-" into BUF (N
 * bytes; 256 are enough). */
void hl_spill_owner_prefix(char *buf, size_t n);

/* A new empty spill file of SP for writing (the subdirectory is made on
 * the first call).  Caller closes.  HL_NOMEM, or an I/O error (58030). */
hl_status_t hl_spill_file_create(hl_spill_t *sp, hl_spill_file_t **out, hl_error_t *err);
/* Writes of F go out once BYTES are buffered (default 256 KiB): an
 * operator writing many files at once (a wide cut) buffers less in
 * each. */
void hl_spill_file_set_chunk(hl_spill_file_t *f, uint32_t bytes);
/* Appends rows of B as one block: ROWS[0..n) (physical rows of B) when
 * ROWS is not NULL, else B's live rows.  Types are B's column types.  An
 * empty selection writes nothing.  53100 / 58030 on a failed write. */
hl_status_t hl_spill_write(hl_spill_file_t *f, const hl_batch_t *b, const uint32_t *rows,
                           uint32_t n, hl_error_t *err);
/* Ends writing (flushes) and moves to the first block for reading; may be
 * called again to read the file once more. */
hl_status_t hl_spill_rewind(hl_spill_file_t *f, hl_error_t *err);
/* Resets B and fills it with the next blocks, as many as fit in one batch
 * (B's column types must be the ones written; strings and complex values
 * live in B's arena); B->n_rows is 0 at the end of the file.  XX001 on a
 * torn or corrupt file. */
hl_status_t hl_spill_read(hl_spill_file_t *f, hl_batch_t *b, hl_error_t *err);
/* Rows and bytes written to F. */
uint64_t hl_spill_file_rows(const hl_spill_file_t *f);
uint64_t hl_spill_file_bytes(const hl_spill_file_t *f);
/* ---- blocks (spill_block.c) */
#define HL_SPILL_HEADER_BYTES 24 /* magic, rows, columns, 0 (u32 each); payload bytes (u64) */
/* Appends the block of rows ROWS[0..n) (physical rows of B, 1 <= n <=
 * HL_BATCH_CAP) to BUF: header then payload.  HL_NOMEM. */
hl_status_t hl_spill_block_encode(hl_buf_t *buf, const hl_batch_t *b, const uint32_t *rows,
                                  uint32_t n);
/* Reads the header HEAD (HL_SPILL_HEADER_BYTES bytes); false when it is
 * not one (bad magic, 0 or more than HL_BATCH_CAP rows). */
bool hl_spill_block_header(const uint8_t *head, uint32_t *n_rows, uint32_t *n_cols,
                           uint64_t *payload);
/* Decodes the payload PAYLOAD[0..len) of a block of N_ROWS rows into B
 * after its B->n_rows rows (B reset before the first block; the rows must
 * fit HL_BATCH_CAP), B's column types being those written (strings point
 * into PAYLOAD, complex values are built in B's arena: PAYLOAD must live
 * as long as B's contents).  HL_CORRUPT (no message: the caller words
 * it) or HL_NOMEM. */
hl_status_t hl_spill_block_decode(const uint8_t *payload, size_t len, uint32_t n_rows,
                                  hl_batch_t *b);

/* F's descriptor, for tests that damage a file. */
int hl_spill_file_fd(const hl_spill_file_t *f);
/* Closes F, freeing its buffers (its data went with the unlink at
 * creation).  NULL is a no-op. */
void hl_spill_file_close(hl_spill_file_t *f);

#endif
