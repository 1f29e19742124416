/*
 * like.c -- Hive's name patterns (like.h).
 */
#include "util/like.h"

#include <ctype.h>
#include <string.h>

/* Case-insensitive glob of P[0..plen) against S: '*' and '%' match any
 * sequence; with METASTORE also ".*", and '.' any one character.
 * Iterative with one backtrack point (linear-ish, no recursion). */
static bool glob_match(const char *p, size_t plen, const char *s, bool metastore) {
  size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0, slen = strlen(s);
  for (;;) {
    size_t star = pi < plen && (p[pi] == '*' || p[pi] == '%')                      ? 1
                  : metastore && pi + 1 < plen && p[pi] == '.' && p[pi + 1] == '*' ? 2
                                                                                   : 0;
    if (star) {
      pi += star;
      star_p = pi;
      star_s = si;
    } else if (si < slen && pi < plen &&
               ((metastore && p[pi] == '.') ||
                tolower((unsigned char)p[pi]) == tolower((unsigned char)s[si]))) {
      pi++;
      si++;
    } else if (si == slen && pi == plen) {
      return true;
    } else if (star_p != (size_t)-1 && star_s < slen) {
      pi = star_p;
      si = ++star_s;
    } else {
      return false;
    }
  }
}

static bool match_alternatives(const char *pattern, const char *name, bool metastore) {
  if (metastore && (!pattern || !*pattern)) return true;
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
    if (glob_match(alt, len, name, metastore)) return true;
    if (!bar) return false;
    alt = bar + 1;
  }
}

bool hl_like_match(const char *pattern, const char *name) {
  return match_alternatives(pattern, name, false);
}

bool hl_like_match_metastore(const char *pattern, const char *name) {
  return match_alternatives(pattern, name, true);
}
