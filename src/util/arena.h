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

/* BLOCK_SIZE 0 picks a default (16 KiB).  Caller destroys. */
hl_arena_t *hl_arena_create(size_t block_size);
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

#endif
