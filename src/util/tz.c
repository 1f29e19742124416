/*
 * tz.c -- time zones by name, from the system's tz database: the UTC offset
 * of a zone at an instant, and a wall-clock time of a zone on the UTC time
 * line.  Used by the ORC reader (TIMESTAMP columns are stored in the
 * writer's zone, the stripe footer's writerTimezone) and by the functions
 * from_utc_timestamp / to_utc_timestamp (vector/func_tz.c).
 *
 * Offsets come from the compiled zone files under /usr/share/zoneinfo
 * (TZif, RFC 8536; the 64-bit block of version 2+ files).  After the last
 * listed transition the POSIX TZ string of the file's footer gives the
 * offsets (slim tzdata lists few transitions and leaves the rest to it);
 * without one the last offset repeats.  Names resolve as Java's
 * TimeZone.getTimeZone resolves them, since Hive and ORC's Java writers
 * name zones that way: tz database names, Java's three-letter aliases
 * ("PST" is America/Los_Angeles), custom "GMT+hh:mm" offsets; a name that
 * is none of these or is unsafe as a path reads as UTC, as Java gives GMT
 * for unknown ids.
 */
#include "util/tz.h"

#include "util/mem.h"
#include "util/value.h"

#include <stdio.h>
#include <string.h>

#define TZ_DIR      "/usr/share/zoneinfo/"
#define TZ_MAX_FILE (1 << 16)

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t be64(const uint8_t *p) {
  return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

static bool safe_name(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n > 100 || name[0] == '/' || strstr(name, "..")) return false;
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
          c == '_' || c == '-' || c == '+'))
      return false;
  }
  return true;
}

/* Parses a TZif image BUF[0..len) into TZ.  False when malformed. */
static bool parse_tzif(const uint8_t *buf, size_t len, hl_arena_t *arena, hl_tz_t *tz) {
  if (len < 44 || memcmp(buf, "TZif", 4) != 0) return false;
  bool v2 = buf[4] >= '2';
  size_t pos = 0;
  int tsize = 4;
  for (int pass = 0; pass < (v2 ? 2 : 1); pass++) {
    if (len - pos < 44 || memcmp(buf + pos, "TZif", 4) != 0) return false;
    const uint8_t *h = buf + pos + 20;
    uint64_t isut = be32(h), isstd = be32(h + 4), leap = be32(h + 8), timecnt = be32(h + 12),
             typecnt = be32(h + 16), charcnt = be32(h + 20);
    uint64_t body = timecnt * (uint64_t)tsize + timecnt + typecnt * 6 + charcnt +
                    leap * (uint64_t)(tsize + 4) + isstd + isut;
    if (timecnt > 100000 || typecnt == 0 || typecnt > 256 || body > len - pos - 44) return false;
    if (pass == 0 && v2) { /* skip the 32-bit block */
      pos += 44 + (size_t)body;
      tsize = 8;
      continue;
    }
    const uint8_t *times = buf + pos + 44;
    const uint8_t *idx = times + timecnt * (uint64_t)tsize;
    const uint8_t *types = idx + timecnt;
    tz->n = (size_t)timecnt;
    tz->trans = hl_arena_alloc(arena, sizeof(int64_t) * (tz->n + 1));
    tz->off = hl_arena_alloc(arena, sizeof(int32_t) * (tz->n + 1));
    if (!tz->trans || !tz->off) return false;
    for (size_t i = 0; i < tz->n; i++) {
      tz->trans[i] = tsize == 8 ? be64(times + 8 * i) : (int32_t)be32(times + 4 * i);
      if (idx[i] >= typecnt) return false;
      tz->off[i] = (int32_t)be32(types + 6 * idx[i]);
      if (i > 0 && tz->trans[i] <= tz->trans[i - 1]) return false;
    }
    tz->off_before = (int32_t)be32(types);
    /* the footer: "\n<POSIX TZ string>\n" after the 64-bit block */
    size_t foot = pos + 44 + (size_t)body;
    if (tsize == 8 && foot < len && buf[foot] == '\n') {
      const uint8_t *nl = memchr(buf + foot + 1, '\n', len - foot - 1);
      if (nl)
        hl_tz_rule_parse((const char *)buf + foot + 1, (size_t)(nl - (buf + foot + 1)), &tz->rule);
    }
    return true;
  }
  return false;
}

/* Java's three-letter zone ids (TimeZone's legacy table) that are no file
 * of the tz database; EST, MST and HST are files (fixed offsets). */
static const char *const short_ids[][2] = {
    {"ACT", "Australia/Darwin"},
    {"AET", "Australia/Sydney"},
    {"AGT", "America/Argentina/Buenos_Aires"},
    {"ART", "Africa/Cairo"},
    {"AST", "America/Anchorage"},
    {"BET", "America/Sao_Paulo"},
    {"BST", "Asia/Dhaka"},
    {"CAT", "Africa/Harare"},
    {"CNT", "America/St_Johns"},
    {"CST", "America/Chicago"},
    {"CTT", "Asia/Shanghai"},
    {"EAT", "Africa/Addis_Ababa"},
    {"ECT", "Europe/Paris"},
    {"IET", "America/Indiana/Indianapolis"},
    {"IST", "Asia/Kolkata"},
    {"JST", "Asia/Tokyo"},
    {"MIT", "Pacific/Apia"},
    {"NET", "Asia/Yerevan"},
    {"NST", "Pacific/Auckland"},
    {"PLT", "Asia/Karachi"},
    {"PNT", "America/Phoenix"},
    {"PRT", "America/Puerto_Rico"},
    {"PST", "America/Los_Angeles"},
    {"SST", "Pacific/Guadalcanal"},
    {"VST", "Asia/Ho_Chi_Minh"},
};

/* Java's custom id "GMT" [+-] h[h] [[:]mm]: the offset in seconds, or
 * false when NAME is not one. */
static bool custom_id(const char *name, int32_t *off) {
  if (strncmp(name, "GMT", 3) != 0 || (name[3] != '+' && name[3] != '-')) return false;
  const char *p = name + 4;
  int h = 0, m = 0, nh = 0, nm = 0;
  while (*p >= '0' && *p <= '9' && nh < 2)
    h = h * 10 + (*p++ - '0'), nh++;
  if (*p == ':') p++;
  while (*p >= '0' && *p <= '9' && nm < 2)
    m = m * 10 + (*p++ - '0'), nm++;
  if (*p || nh == 0 || (nm != 0 && nm != 2) || h > 23 || m > 59) return false;
  *off = (name[3] == '-' ? -1 : 1) * (h * 3600 + m * 60);
  return true;
}

hl_status_t hl_tz_load(const char *name, hl_arena_t *arena, const hl_tz_t **out, hl_error_t *err) {
  *out = NULL;
  int32_t fixed;
  if (name && custom_id(name, &fixed)) {
    hl_tz_t *tz = fixed ? hl_arena_zalloc(arena, sizeof *tz) : NULL;
    if (fixed && !tz) return hl_err_nomem(err);
    if (tz) tz->off_before = fixed;
    *out = tz;
    return HL_OK;
  }
  for (size_t i = 0; name && i < sizeof short_ids / sizeof short_ids[0]; i++)
    if (strcmp(name, short_ids[i][0]) == 0) name = short_ids[i][1];
  if (!name || !safe_name(name) || strcmp(name, "UTC") == 0 || strcmp(name, "GMT") == 0)
    return HL_OK;
  char path[160];
  snprintf(path, sizeof path, TZ_DIR "%s", name);
  FILE *f = fopen(path, "rb");
  if (!f) return HL_OK;
  uint8_t *buf = hl_malloc(TZ_MAX_FILE);
  if (!buf) {
    fclose(f);
    return hl_err_nomem(err);
  }
  size_t len = fread(buf, 1, TZ_MAX_FILE, f);
  fclose(f);
  hl_tz_t *tz = hl_arena_zalloc(arena, sizeof *tz);
  if (tz && parse_tzif(buf, len, arena, tz)) *out = tz;
  hl_free(buf);
  return tz ? HL_OK : hl_err_nomem(err);
}

/* ---------------------------------------------------- POSIX TZ rules */

typedef struct cursor {
  const char *p, *end;
} cursor_t;

static bool parse_name(cursor_t *c) {
  const char *s = c->p;
  if (c->p < c->end && *c->p == '<') {
    while (c->p < c->end && *c->p != '>')
      c->p++;
    if (c->p >= c->end) return false;
    c->p++;
    return true;
  }
  while (c->p < c->end && ((*c->p >= 'A' && *c->p <= 'Z') || (*c->p >= 'a' && *c->p <= 'z')))
    c->p++;
  return c->p - s >= 3;
}

static bool parse_num(cursor_t *c, int max, int *out) {
  int v = 0, digits = 0;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && digits < 4) {
    v = v * 10 + (*c->p++ - '0');
    digits++;
  }
  *out = v;
  return digits > 0 && v <= max;
}

/* [+-]hh[:mm[:ss]] as seconds (HOURS_MAX 24, or 167 for rule times). */
static bool parse_hms(cursor_t *c, int hours_max, int32_t *out) {
  int sign = 1, h, m = 0, sec = 0;
  if (c->p < c->end && (*c->p == '+' || *c->p == '-')) sign = *c->p++ == '-' ? -1 : 1;
  if (!parse_num(c, hours_max, &h)) return false;
  if (c->p < c->end && *c->p == ':') {
    c->p++;
    if (!parse_num(c, 59, &m)) return false;
    if (c->p < c->end && *c->p == ':') {
      c->p++;
      if (!parse_num(c, 59, &sec)) return false;
    }
  }
  *out = sign * (h * 3600 + m * 60 + sec);
  return true;
}

static bool parse_date(cursor_t *c, hl_tz_date_t *d) {
  memset(d, 0, sizeof *d);
  d->time = 7200; /* 02:00 by default */
  if (c->p < c->end && *c->p == 'M') {
    c->p++;
    d->kind = 'M';
    if (!parse_num(c, 12, &d->m) || d->m < 1 || c->p >= c->end || *c->p++ != '.') return false;
    if (!parse_num(c, 5, &d->w) || d->w < 1 || c->p >= c->end || *c->p++ != '.') return false;
    if (!parse_num(c, 6, &d->d)) return false;
  } else if (c->p < c->end && *c->p == 'J') {
    c->p++;
    d->kind = 'J';
    if (!parse_num(c, 365, &d->n) || d->n < 1) return false;
  } else {
    d->kind = 'n';
    if (!parse_num(c, 365, &d->n)) return false;
  }
  if (c->p < c->end && *c->p == '/') {
    c->p++;
    if (!parse_hms(c, 167, &d->time)) return false;
  }
  return true;
}

bool hl_tz_rule_parse(const char *s, size_t len, hl_tz_rule_t *rule) {
  memset(rule, 0, sizeof *rule);
  cursor_t c = {s, s + len};
  int32_t std;
  if (!parse_name(&c) || !parse_hms(&c, 24, &std)) return false;
  rule->std_off = -std; /* POSIX counts west positive */
  if (c.p < c.end) {
    if (!parse_name(&c)) return false;
    rule->has_dst = true;
    rule->dst_off = rule->std_off + 3600;
    if (c.p < c.end && *c.p != ',') {
      int32_t dst;
      if (!parse_hms(&c, 24, &dst)) return false;
      rule->dst_off = -dst;
    }
    if (c.p >= c.end || *c.p++ != ',' || !parse_date(&c, &rule->start) || c.p >= c.end ||
        *c.p++ != ',' || !parse_date(&c, &rule->end))
      return false;
  }
  if (c.p != c.end) return false;
  rule->valid = true;
  return true;
}

static bool is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Local seconds (since the epoch, as if UTC) at which D happens in YEAR. */
static int64_t rule_local(const hl_tz_date_t *d, int64_t year) {
  int64_t days;
  if (d->kind == 'J') {
    days = hl_days_from_civil(year, 1, 1) + d->n - 1 + (is_leap(year) && d->n >= 60);
  } else if (d->kind == 'n') {
    days = hl_days_from_civil(year, 1, 1) + d->n;
  } else {
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t first = hl_days_from_civil(year, (unsigned)d->m, 1);
    int dow = (int)(((first + 4) % 7 + 7) % 7); /* 1970-01-01 was a Thursday */
    int64_t day = 1 + (d->d - dow + 7) % 7 + (int64_t)(d->w - 1) * 7;
    int len = mdays[d->m - 1] + (d->m == 2 && is_leap(year));
    while (day > len)
      day -= 7;
    days = first + day - 1;
  }
  return days * 86400 + d->time;
}

int32_t hl_tz_rule_offset(const hl_tz_rule_t *rule, int64_t utc) {
  if (!rule->has_dst) return rule->std_off;
  int64_t year;
  unsigned month, day;
  int64_t local = utc + rule->std_off;
  hl_civil_from_days(local >= 0 ? local / 86400 : -((-local + 86399) / 86400), &year, &month, &day);
  /* the start is given in standard time, the end in daylight time */
  int64_t start = rule_local(&rule->start, year) - rule->std_off;
  int64_t end = rule_local(&rule->end, year) - rule->dst_off;
  bool dst = start < end ? (utc >= start && utc < end) : !(utc >= end && utc < start);
  return dst ? rule->dst_off : rule->std_off;
}

int32_t hl_tz_offset(const hl_tz_t *tz, int64_t utc) {
  if (!tz) return 0;
  if (tz->rule.valid && (tz->n == 0 || utc >= tz->trans[tz->n - 1]))
    return hl_tz_rule_offset(&tz->rule, utc);
  if (tz->n == 0 || utc < tz->trans[0]) return tz->off_before;
  size_t lo = 0, hi = tz->n; /* trans[lo] <= utc < trans[hi] */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (tz->trans[mid] <= utc)
      lo = mid;
    else
      hi = mid;
  }
  return tz->off[lo];
}

int64_t hl_tz_local_to_utc(const hl_tz_t *tz, int64_t local) {
  if (!tz) return local;
  /* the offsets a day before and after: at most one transition lies
   * between in any zone, so these are the candidates */
  int32_t before = hl_tz_offset(tz, local - 86400), after = hl_tz_offset(tz, local + 86400);
  bool ok_before = hl_tz_offset(tz, local - before) == before;
  bool ok_after = hl_tz_offset(tz, local - after) == after;
  if (ok_before) return local - before; /* also the earlier of an overlap */
  if (ok_after) return local - after;
  /* a gap: Java moves the wall clock forward by the gap's length, to the
   * same instant as reading it with the offset before */
  return local - before;
}
