/*
 * arena.c -- chained-block bump allocator (see arena.h).
 *
 * Blocks form a singly linked list, newest first.  Requests larger than a
 * quarter of the block size get a block of their own so that one huge
 * allocation does not waste the rest of a standard block.  An arena with an
 * account charges each block before it takes it from the heap and releases
 * it when the block goes back (reset, destroy).
 */
#include "util/arena.h"

#include "util/mem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARENA_ALIGN         16
#define ARENA_DEFAULT_BLOCK (16 * 1024)

typedef struct arena_block {
  struct arena_block *next; /* older block */
  size_t cap;               /* usable bytes in data[] */
  size_t used;              /* bytes handed out from data[] */
  _Alignas(16) unsigned char data[];
} arena_block_t;

typedef struct arena_cleanup {
  struct arena_cleanup *next;
  void (*fn)(void *);
  void *arg;
} arena_cleanup_t;

struct hl_arena {
  arena_block_t *head;       /* current block */
  arena_block_t *first;      /* the standard block made by create, kept by reset */
  size_t block_size;         /* default block capacity */
  size_t used;               /* bytes handed out */
  arena_cleanup_t *cleanups; /* LIFO */
  void *last;                /* most recent allocation, for realloc */
  hl_mem_account_t *acct;    /* charged per block, or NULL */
  size_t reserved;           /* bytes of the blocks held (header included) */
};

static size_t align_up(size_t n) {
  return (n + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1);
}

static size_t block_bytes(const arena_block_t *b) {
  return sizeof(arena_block_t) + b->cap;
}

static arena_block_t *block_new(hl_arena_t *a, size_t cap) {
  if (cap > SIZE_MAX - sizeof(arena_block_t)) return NULL; /* the header would wrap */
  size_t bytes = sizeof(arena_block_t) + cap;
  if (a->acct && a->acct->charge(a->acct, bytes) != 0) return NULL;
  arena_block_t *b = hl_malloc(bytes);
  if (!b) {
    if (a->acct) a->acct->release(a->acct, bytes);
    return NULL;
  }
  a->reserved += bytes;
  b->next = NULL;
  b->cap = cap;
  b->used = 0;
  return b;
}

static void block_free(hl_arena_t *a, arena_block_t *b) {
  size_t bytes = block_bytes(b);
  a->reserved -= bytes;
  if (a->acct) a->acct->release(a->acct, bytes);
  hl_free(b);
}

hl_arena_t *hl_arena_create_charged(size_t block_size, hl_mem_account_t *acct) {
  hl_arena_t *a = hl_malloc(sizeof(*a));
  if (!a) return NULL;
  a->block_size = block_size ? align_up(block_size) : ARENA_DEFAULT_BLOCK;
  a->acct = acct;
  a->reserved = 0;
  a->head = a->first = block_new(a, a->block_size);
  if (!a->head) {
    hl_free(a);
    return NULL;
  }
  a->used = 0;
  a->cleanups = NULL;
  a->last = NULL;
  return a;
}

hl_arena_t *hl_arena_create(size_t block_size) {
  return hl_arena_create_charged(block_size, NULL);
}

static void run_cleanups(hl_arena_t *a) {
  while (a->cleanups) {
    arena_cleanup_t *c = a->cleanups;
    a->cleanups = c->next;
    c->fn(c->arg); /* the record itself lives in the arena */
  }
}

void hl_arena_reset(hl_arena_t *a) {
  if (!a) return;
  run_cleanups(a);
  /* keep the first standard block; dedicated big blocks are linked behind
   * the head, so the list tail is not necessarily that block */
  arena_block_t *b = a->head;
  while (b) {
    arena_block_t *next = b->next;
    if (b != a->first) block_free(a, b);
    b = next;
  }
  a->first->next = NULL;
  a->first->used = 0;
  a->head = a->first;
  a->used = 0;
  a->last = NULL;
}

void hl_arena_destroy(hl_arena_t *a) {
  if (!a) return;
  run_cleanups(a);
  arena_block_t *b = a->head;
  while (b) {
    arena_block_t *next = b->next;
    block_free(a, b);
    b = next;
  }
  hl_free(a);
}

void *hl_arena_alloc(hl_arena_t *a, size_t nbytes) {
  size_t need = align_up(nbytes ? nbytes : 1);
  if (need < nbytes) return NULL; /* overflow */
  arena_block_t *b = a->head;
  if (b->cap - b->used < need) {
    if (need > a->block_size / 4) {
      /* dedicated block, linked behind the current one so the current
       * block keeps serving small requests */
      arena_block_t *big = block_new(a, need);
      if (!big) return NULL;
      big->used = need;
      big->next = b->next;
      b->next = big;
      a->used += need;
      a->last = NULL;
      return big->data;
    }
    arena_block_t *nb = block_new(a, a->block_size);
    if (!nb) return NULL;
    nb->next = b;
    a->head = nb;
    b = nb;
  }
  void *p = b->data + b->used;
  b->used += need;
  a->used += need;
  a->last = p;
  return p;
}

void *hl_arena_zalloc(hl_arena_t *a, size_t nbytes) {
  void *p = hl_arena_alloc(a, nbytes);
  if (p) memset(p, 0, nbytes);
  return p;
}

void *hl_arena_realloc(hl_arena_t *a, void *ptr, size_t old_nbytes, size_t new_nbytes) {
  if (!ptr) return hl_arena_alloc(a, new_nbytes);
  if (new_nbytes <= old_nbytes) return ptr;
  arena_block_t *b = a->head;
  if (ptr == a->last) {
    size_t old_al = align_up(old_nbytes ? old_nbytes : 1);
    size_t new_al = align_up(new_nbytes);
    if (new_al < new_nbytes) return NULL; /* overflow */
    if ((unsigned char *)ptr + old_al == b->data + b->used && b->used - old_al + new_al <= b->cap) {
      b->used = b->used - old_al + new_al;
      a->used = a->used - old_al + new_al;
      return ptr;
    }
  }
  void *p = hl_arena_alloc(a, new_nbytes);
  if (!p) return NULL;
  memcpy(p, ptr, old_nbytes);
  return p;
}

char *hl_arena_strndup(hl_arena_t *a, const char *s, size_t len) {
  char *p = hl_arena_alloc(a, len + 1);
  if (!p) return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *hl_arena_strdup(hl_arena_t *a, const char *s) {
  return hl_arena_strndup(a, s, strlen(s));
}

char *hl_arena_vsprintf(hl_arena_t *a, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return NULL;
  char *p = hl_arena_alloc(a, (size_t)n + 1);
  if (!p) return NULL;
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

char *hl_arena_sprintf(hl_arena_t *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = hl_arena_vsprintf(a, fmt, ap);
  va_end(ap);
  return p;
}

int hl_arena_on_reset(hl_arena_t *a, void (*fn)(void *), void *arg) {
  arena_cleanup_t *c = hl_arena_alloc(a, sizeof(*c));
  if (!c) return -1;
  c->fn = fn;
  c->arg = arg;
  c->next = a->cleanups;
  a->cleanups = c;
  return 0;
}

size_t hl_arena_used(const hl_arena_t *a) {
  return a->used;
}

size_t hl_arena_reserved(const hl_arena_t *a) {
  return a->reserved;
}

int hl_arena_set_account(hl_arena_t *a, hl_mem_account_t *acct) {
  if (a->acct) a->acct->release(a->acct, a->reserved);
  a->acct = NULL;
  if (acct && acct->charge(acct, a->reserved) != 0) return -1;
  a->acct = acct;
  return 0;
}

hl_mem_account_t *hl_arena_account(const hl_arena_t *a) {
  return a ? a->acct : NULL;
}
