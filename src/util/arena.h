/*
 * arena.h -- chained-block bump allocator.
 *
 * Statements, plans and batches allocate from arenas and free everything at
 * once (Postgres memory contexts without the global current context).  An
 * arena may register cleanup callbacks that run on reset/destroy, so that a
 * file handle can be tied to the lifetime of the query that opened it.
 * Allocation returns NULL when memory runs out; callers turn that into
 * HL_NOMEM.
 */
#ifndef HL_ARENA_H
#define HL_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct hl_arena hl_arena_t;

/* A memory account that arenas charge as they take blocks from the heap and
 * release as they give them back (session/budget.c makes the statement's
 * budget one).  CHARGE returns 0 when BYTES fit, else -1 with nothing left
 * charged; then the allocation that needed the block returns NULL.  Both
 * may be called from any thread.  Charging is per block, never per
 * allocation. */
typedef struct hl_mem_account {
  int (*charge)(struct hl_mem_account *acct, size_t bytes);
  void (*release)(struct hl_mem_account *acct, size_t bytes);
} hl_mem_account_t;

/* BLOCK_SIZE 0 picks a default (16 KiB).  Caller destroys. */
hl_arena_t *hl_arena_create(size_t block_size);
/* Like hl_arena_create, with every block (the first one included) charged
 * to ACCT (NULL: none).  NULL when the first block does not fit. */
hl_arena_t *hl_arena_create_charged(size_t block_size, hl_mem_account_t *acct);
void hl_arena_destroy(hl_arena_t *arena); /* NULL is a no-op */
/* Frees every allocation (keeping the first block) and runs cleanups. */
void hl_arena_reset(hl_arena_t *arena);

/* 16-byte aligned; NULL on OOM. */
void *hl_arena_alloc(hl_arena_t *arena, size_t nbytes);
void *hl_arena_zalloc(hl_arena_t *arena, size_t nbytes);
/* Grows the most recent allocation PTR of OLD bytes to NEW bytes if it is
 * the last one in its block, otherwise copies.  NULL on OOM. */
void *hl_arena_realloc(hl_arena_t *arena, void *ptr, size_t old_nbytes, size_t new_nbytes);
char *hl_arena_strdup(hl_arena_t *arena, const char *s);
char *hl_arena_strndup(hl_arena_t *arena, const char *s, size_t len);
char *hl_arena_sprintf(hl_arena_t *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *hl_arena_vsprintf(hl_arena_t *arena, const char *fmt, va_list ap);

/* Runs FN(ARG) at the next reset or destroy (in reverse registration order).
 * Returns 0 on success, -1 on OOM (then FN is not registered). */
int hl_arena_on_reset(hl_arena_t *arena, void (*fn)(void *), void *arg);

/* Bytes handed out since creation or the last reset. */
size_t hl_arena_used(const hl_arena_t *arena);
/* Bytes of the blocks the arena holds (what it charges). */
size_t hl_arena_reserved(const hl_arena_t *arena);

/* Moves ARENA's charge to ACCT (NULL: stops charging): the blocks it holds
 * are released from the old account and charged to ACCT, and so is every
 * block it takes from now on.  Returns -1 when the blocks held do not fit
 * in ACCT (then the arena charges nothing), else 0. */
int hl_arena_set_account(hl_arena_t *arena, hl_mem_account_t *acct);
/* The account ARENA charges, or NULL; arenas and batches made for the same
 * statement pass it on (hl_arena_create_charged). */
hl_mem_account_t *hl_arena_account(const hl_arena_t *arena);

#endif
