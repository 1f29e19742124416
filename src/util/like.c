/*
 * like.c -- Hive's name patterns (like.h).
 */
#include "util/like.h"

#include <ctype.h>
#include <string.h>

/* Case-insensitive glob of P[0..plen) against S: '*' and '%' match any
 * sequence.  Iterative with one backtrack point (linear-ish, no recursion). */
static bool glob_match(const char *p, size_t plen, const char *s) {
  size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0;
  size_t slen = strlen(s);
  while (si < slen) {
    if (pi < plen && (p[pi] == '*' || p[pi] == '%')) {
      star_p = pi++;
      star_s = si;
    } else if (pi < plen && tolower((unsigned char)p[pi]) == tolower((unsigned char)s[si])) {
      pi++;
      si++;
    } else if (star_p != (size_t)-1) {
      pi = star_p + 1;
      si = ++star_s;
    } else {
      return false;
    }
  }
  while (pi < plen && (p[pi] == '*' || p[pi] == '%'))
    pi++;
  return pi == plen;
}

bool hl_like_match(const char *pattern, const char *name) {
  const char *alt = pattern;
  for (;;) {
    const char *bar = strchr(alt, '|');
    size_t len = bar ? (size_t)(bar - alt) : strlen(alt);
    /* Hive trims blanks around alternatives ("a* | b*") */
    while (len && isspace((unsigned char)*alt)) {
      alt++;
      len--;
    }
    while (len && isspace((unsigned char)alt[len - 1]))
      len--;
    if (glob_match(alt, len, name)) return true;
    if (!bar) return false;
    alt = bar + 1;
  }
}
