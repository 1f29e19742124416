/*
 * like.c -- Hive's name patterns (like.h).
 */
#include "util/like.h"

#include <ctype.h>
#include <string.h>

enum { NAMES, METASTORE, SQL };

/* Case-insensitive glob of P[0..plen) against S.  NAMES: '*' and '%'
 * match any sequence; METASTORE also ".*", and '.' any one character;
 * SQL: '%' any sequence, '_' any one character, '\' escapes the next.
 * Iterative with one backtrack point (linear-ish, no recursion). */
static bool glob_match(const char *p, size_t plen, const char *s, int mode) {
  size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0, slen = strlen(s);
  bool metastore = mode == METASTORE;
  for (;;) {
    size_t star = pi < plen && (p[pi] == '%' || (p[pi] == '*' && mode != SQL))     ? 1
                  : metastore && pi + 1 < plen && p[pi] == '.' && p[pi + 1] == '*' ? 2
                                                                                   : 0;
    size_t lit = mode == SQL && pi + 1 < plen && p[pi] == '\\' ? 1 : 0; /* escaped */
    if (star) {
      pi += star;
      star_p = pi;
      star_s = si;
    } else if (si < slen && pi + lit < plen &&
               ((!lit && metastore && p[pi] == '.') || (!lit && mode == SQL && p[pi] == '_') ||
                tolower((unsigned char)p[pi + lit]) == tolower((unsigned char)s[si]))) {
      pi += 1 + lit;
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

static bool match_alternatives(const char *pattern, const char *name, int mode) {
  if (mode == METASTORE && (!pattern || !*pattern)) return true;
  const char *alt = pattern;
  for (;;) {
    const char *bar = strchr(alt, '|');
    size_t len = bar ? (size_t)(bar - alt) : strlen(alt);
    /* Hive trims blanks around alternatives ("a* | b*"), except in SHOW
     * FUNCTIONS, which trims only the whole pattern */
    bool first = alt == pattern, last = !bar;
    while (len && isspace((unsigned char)*alt) && (mode != SQL || first)) {
      alt++;
      len--;
    }
    while (len && isspace((unsigned char)alt[len - 1]) && (mode != SQL || last))
      len--;
    if (glob_match(alt, len, name, mode)) return true;
    if (!bar) return false;
    alt = bar + 1;
  }
}

bool hl_like_match(const char *pattern, const char *name) {
  return match_alternatives(pattern, name, NAMES);
}

bool hl_like_match_metastore(const char *pattern, const char *name) {
  return match_alternatives(pattern, name, METASTORE);
}

bool hl_like_match_sql(const char *pattern, const char *name) {
  return match_alternatives(pattern, name, SQL);
}
