/*
 * mem.h -- the one door for heap memory.
 *
 * All heap traffic goes through hl_malloc/hl_realloc/hl_free so that tests
 * can fail the Nth allocation (HIVELITE_FAIL_ALLOC=N in the environment of a
 * debug build is read by the test harness, not here) and count what leaks.
 * Allocation failure returns NULL; nothing here aborts.
 */
#ifndef HL_MEM_H
#define HL_MEM_H

#include <stddef.h>

void *hl_malloc(size_t nbytes);
void *hl_calloc(size_t count, size_t size);
void *hl_realloc(void *ptr, size_t nbytes);
void hl_free(void *ptr);
char *hl_strdup(const char *s);
char *hl_strndup(const char *s, size_t len);

/* Hands the free pages of the C library's heaps back to the system (glibc:
 * malloc_trim, which also trims the per-thread arenas; elsewhere nothing).
 * For a caller that has just freed much memory that other threads
 * allocated: glibc keeps a thread's freed chunks in that thread's arena,
 * where only the top of the heap is ever returned by itself. */
void hl_mem_release(void);

/* Fault injection for tests: the Nth allocation from now fails (0 = off).
 * The counter is per process; tests that use it run single-threaded. */
void hl_mem_fail_after(long n);

#endif
