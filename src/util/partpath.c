/*
 * partpath.c -- Hive partition directory names (see partpath.h).
 */
#include "util/partpath.h"

#include <ctype.h>
#include <string.h>

static bool must_escape(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  return strchr("\"#%'*/:=?\\{[]^", c) != NULL && c != '\0';
}

bool hl_partpath_needs_escape(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (must_escape((unsigned char)s[i])) return true;
  return false;
}

static int hexval(char c);

bool hl_partpath_is_escaped(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '%') {
      if (i + 2 >= len || hexval(s[i + 1]) < 0 || hexval(s[i + 2]) < 0) return false;
      i += 2;
    } else if (must_escape((unsigned char)s[i])) {
      return false;
    }
  }
  return true;
}

void hl_partpath_escape(hl_buf_t *buf, const char *s, size_t len) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (must_escape(c)) {
      char e[3] = {'%', hex[c >> 4], hex[c & 15]};
      hl_buf_append(buf, e, 3);
    } else {
      hl_buf_putc(buf, (char)c);
    }
  }
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void hl_partpath_unescape(hl_buf_t *buf, const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '%' && i + 2 < len) {
      int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        hl_buf_putc(buf, (char)(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    hl_buf_putc(buf, s[i]);
  }
}

void hl_partpath_name(hl_buf_t *buf, int n, const char *const *keys, const char *const *values,
                      const char *default_name) {
  for (int i = 0; i < n; i++) {
    if (i) hl_buf_putc(buf, '/');
    for (const char *k = keys[i]; *k; k++) {
      char c = (char)tolower((unsigned char)*k);
      hl_partpath_escape(buf, &c, 1);
    }
    hl_buf_putc(buf, '=');
    if (!values[i] || !values[i][0])
      hl_buf_puts(buf, default_name);
    else
      hl_partpath_escape(buf, values[i], strlen(values[i]));
  }
}
