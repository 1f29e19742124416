/*
 * orc_tz.c -- writer time zones for ORC TIMESTAMP columns.
 *
 * ORC stores a TIMESTAMP as seconds since 2015-01-01 00:00:00 in the
 * writer's time zone (the stripe footer's writerTimezone), counted on the
 * UTC time line.  Hive shows the writer's wall clock, so the reader needs
 * that zone's UTC offsets: they come from the system's compiled tz database
 * (/usr/share/zoneinfo, TZif files, RFC 8536; the 64-bit block of version
 * 2+ files).  Offsets after the last listed transition repeat the last one
 * (the POSIX rule string in the file's footer is not evaluated).  A zone
 * name that is absent or unsafe as a path reads as UTC, as Java's
 * TimeZone.getTimeZone gives GMT for unknown ids.
 */
#include "format/orc/orc_tz.h"

#include "util/mem.h"

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
static bool parse_tzif(const uint8_t *buf, size_t len, hl_arena_t *arena, hl_orc_tz_t *tz) {
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
    return true;
  }
  return false;
}

hl_status_t hl_orc_tz_load(const char *name, hl_arena_t *arena, const hl_orc_tz_t **out,
                           hl_error_t *err) {
  *out = NULL;
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
  hl_orc_tz_t *tz = hl_arena_zalloc(arena, sizeof *tz);
  if (tz && parse_tzif(buf, len, arena, tz)) *out = tz;
  hl_free(buf);
  return tz ? HL_OK : hl_err_nomem(err);
}

int32_t hl_orc_tz_offset(const hl_orc_tz_t *tz, int64_t utc) {
  if (!tz) return 0;
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
