/*
 * strbuf.c -- growable byte buffer (see strbuf.h).
 */
#include "util/strbuf.h"

#include "util/mem.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void hl_buf_init(hl_buf_t *b) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
  b->oom = 0;
}

void hl_buf_fini(hl_buf_t *b) {
  hl_free(b->data);
  hl_buf_init(b);
}

void hl_buf_reset(hl_buf_t *b) {
  b->len = 0;
  if (b->data) b->data[0] = '\0';
}

int hl_buf_reserve(hl_buf_t *b, size_t extra) {
  if (b->oom) return -1;
  if (extra > SIZE_MAX - b->len - 1) { /* the size itself would wrap */
    b->oom = 1;
    return -1;
  }
  if (b->len + extra + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) {
    if (cap > ((size_t)-1) / 2) {
      b->oom = 1;
      return -1;
    }
    cap *= 2;
  }
  char *p = hl_realloc(b->data, cap);
  if (!p) {
    b->oom = 1;
    return -1;
  }
  p[b->len] = '\0'; /* hl_buf_cstr must see a string even before the first append */
  b->data = p;
  b->cap = cap;
  return 0;
}

void hl_buf_append(hl_buf_t *b, const void *data, size_t len) {
  if (hl_buf_reserve(b, len) < 0) return;
  if (len) memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
}

void hl_buf_puts(hl_buf_t *b, const char *s) {
  hl_buf_append(b, s, strlen(s));
}

void hl_buf_putc(hl_buf_t *b, char c) {
  hl_buf_append(b, &c, 1);
}

void hl_buf_vprintf(hl_buf_t *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    b->oom = 1;
    return;
  }
  if (hl_buf_reserve(b, (size_t)n) < 0) return;
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void hl_buf_printf(hl_buf_t *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *hl_buf_cstr(hl_buf_t *b) {
  if (b->oom) return "";
  if (!b->data) return "";
  return b->data;
}

char *hl_buf_detach(hl_buf_t *b) {
  if (b->oom) {
    hl_buf_fini(b);
    return NULL;
  }
  char *p = b->data;
  if (!p) p = hl_strdup("");
  hl_buf_init(b);
  return p;
}
