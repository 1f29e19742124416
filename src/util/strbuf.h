/*
 * strbuf.h -- a growable byte buffer for building text.
 *
 * Heap-backed; an allocation failure makes the buffer sticky-failed
 * (buf->oom = 1) and later appends are no-ops, so builders check once at
 * the end (SQLite's StrAccum idea).  Caller calls hl_buf_fini.
 */
#ifndef HL_STRBUF_H
#define HL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct hl_buf {
  char *data; /* NUL-terminated when len > 0 or after hl_buf_cstr */
  size_t len;
  size_t cap;
  int oom;
} hl_buf_t;

void hl_buf_init(hl_buf_t *buf);
void hl_buf_fini(hl_buf_t *buf);
void hl_buf_reset(hl_buf_t *buf); /* len = 0, keeps capacity */
int hl_buf_reserve(hl_buf_t *buf, size_t extra); /* 0 ok, -1 oom */
void hl_buf_append(hl_buf_t *buf, const void *data, size_t len);
void hl_buf_puts(hl_buf_t *buf, const char *s);
void hl_buf_putc(hl_buf_t *buf, char c);
void hl_buf_printf(hl_buf_t *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hl_buf_vprintf(hl_buf_t *buf, const char *fmt, va_list ap);
/* Always returns a NUL-terminated string ("" on oom). */
const char *hl_buf_cstr(hl_buf_t *buf);
/* Hands the heap string to the caller (hl_free) and resets the buffer;
 * NULL on oom. */
char *hl_buf_detach(hl_buf_t *buf);

#endif
