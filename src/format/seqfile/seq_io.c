/*
 * seq_io.c -- Hadoop's binary building blocks (see seq_io.h): a buffered
 * input stream with bounds checks, WritableUtils vlongs, Text strings,
 * SequenceFile metadata, sync markers.
 *
 * Invariant: nothing read from a file is trusted; lengths are checked
 * against HL_SEQIO_MAX_CHUNK and the bytes left before memory is taken.
 */
#include "format/seqfile/seq_io.h"

#include "util/mem.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define HL_SEQIO_BUF     ((size_t)256 << 10)
#define MAX_META_ENTRIES 100000

/* ---------------------------------------------------------------- input */

hl_status_t hl_seqio_corrupt(const hl_seqio_in_t *in, hl_error_t *err, const char *why) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "cannot read \"%s\": %s",
                    in->path ? in->path : "?", why);
}

hl_status_t hl_seqio_in_open(hl_seqio_in_t *in, hl_stor_t *fs, const char *path, hl_error_t *err) {
  memset(in, 0, sizeof *in);
  in->fs = fs;
  in->path = hl_strdup(path);
  in->buf = hl_malloc(HL_SEQIO_BUF);
  if (!in->path || !in->buf) {
    hl_seqio_in_close(in);
    return hl_err_nomem(err);
  }
  hl_status_t st = fs->ops->open_read(fs, path, &in->file, err);
  if (st != HL_OK) {
    hl_seqio_in_close(in);
    return st;
  }
  in->size = fs->ops->file_size(in->file);
  return HL_OK;
}

void hl_seqio_in_close(hl_seqio_in_t *in) {
  if (in->file) {
    hl_error_t e;
    hl_err_init(&e);
    in->fs->ops->close(in->file, &e);
    hl_err_clear(&e);
  }
  hl_free(in->buf);
  hl_free(in->path);
  memset(in, 0, sizeof *in);
}

uint64_t hl_seqio_in_left(const hl_seqio_in_t *in) {
  uint64_t at = in->buf_off + in->pos;
  return at < in->size ? in->size - at : 0;
}

bool hl_seqio_in_eof(const hl_seqio_in_t *in) {
  return in->buf_off + in->pos >= in->size;
}

uint64_t hl_seqio_in_tell(const hl_seqio_in_t *in) {
  return in->buf_off + in->pos;
}

void hl_seqio_in_seek(hl_seqio_in_t *in, uint64_t off) {
  if (off > in->size) off = in->size;
  if (off >= in->buf_off && off <= in->buf_off + in->len) {
    in->pos = (size_t)(off - in->buf_off);
    return;
  }
  in->buf_off = off;
  in->pos = in->len = 0;
}

/* Refills the buffer from the current position. */
static hl_status_t refill(hl_seqio_in_t *in, hl_error_t *err) {
  in->buf_off += in->pos;
  in->pos = in->len = 0;
  if (in->buf_off >= in->size) return HL_OK;
  uint64_t left = in->size - in->buf_off;
  size_t want = left < HL_SEQIO_BUF ? (size_t)left : HL_SEQIO_BUF;
  size_t got = 0;
  hl_status_t st = in->fs->ops->read_at(in->file, in->buf_off, in->buf, want, &got, err);
  if (st != HL_OK) return st;
  in->len = got;
  return HL_OK;
}

hl_status_t hl_seqio_in_read(hl_seqio_in_t *in, void *dst, size_t n, hl_error_t *err) {
  uint64_t at = in->buf_off + in->pos;
  if (at > in->size || n > in->size - at)
    return hl_seqio_corrupt(in, err, "unexpected end of file");
  unsigned char *d = dst;
  while (n > 0) {
    if (in->pos == in->len) {
      if (!dst && n > HL_SEQIO_BUF) { /* skip without reading */
        in->buf_off += in->pos + n;
        in->pos = in->len = 0;
        return HL_OK;
      }
      hl_status_t st = refill(in, err);
      if (st != HL_OK) return st;
      if (in->len == 0) return hl_seqio_corrupt(in, err, "unexpected end of file");
    }
    size_t take = in->len - in->pos < n ? in->len - in->pos : n;
    if (d) {
      memcpy(d, in->buf + in->pos, take);
      d += take;
    }
    in->pos += take;
    n -= take;
  }
  return HL_OK;
}

hl_status_t hl_seqio_in_u8(hl_seqio_in_t *in, uint8_t *out, hl_error_t *err) {
  return hl_seqio_in_read(in, out, 1, err);
}

hl_status_t hl_seqio_in_i32(hl_seqio_in_t *in, int32_t *out, hl_error_t *err) {
  unsigned char b[4];
  hl_status_t st = hl_seqio_in_read(in, b, 4, err);
  if (st != HL_OK) return st;
  *out = (int32_t)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
  return HL_OK;
}

hl_status_t hl_seqio_in_vlong(hl_seqio_in_t *in, int64_t *out, hl_error_t *err) {
  unsigned char b[9];
  hl_status_t st = hl_seqio_in_read(in, b, 1, err);
  if (st != HL_OK) return st;
  int8_t first = (int8_t)b[0];
  size_t extra = first >= -112 ? 0 : first < -120 ? (size_t)(-120 - first) : (size_t)(-112 - first);
  if (extra && (st = hl_seqio_in_read(in, b + 1, extra, err)) != HL_OK) return st;
  if (hl_seqio_vlong_decode(b, 1 + extra, out) != 1 + extra)
    return hl_seqio_corrupt(in, err, "bad variable-length integer");
  return HL_OK;
}

hl_status_t hl_seqio_in_text(hl_seqio_in_t *in, size_t max, char **out, hl_error_t *err) {
  *out = NULL;
  int64_t n = 0;
  hl_status_t st = hl_seqio_in_vlong(in, &n, err);
  if (st != HL_OK) return st;
  if (n < 0 || (uint64_t)n > max || (uint64_t)n > hl_seqio_in_left(in))
    return hl_seqio_corrupt(in, err, "bad string length in header");
  char *s = hl_malloc((size_t)n + 1);
  if (!s) return hl_err_nomem(err);
  if ((st = hl_seqio_in_read(in, s, (size_t)n, err)) != HL_OK) {
    hl_free(s);
    return st;
  }
  s[n] = '\0';
  *out = s;
  return HL_OK;
}

hl_status_t hl_seqio_in_metadata(hl_seqio_in_t *in, const char *key, char **value,
                                 hl_error_t *err) {
  *value = NULL;
  int32_t count;
  hl_status_t st = hl_seqio_in_i32(in, &count, err);
  if (st != HL_OK) return st;
  if (count < 0 || count > MAX_META_ENTRIES)
    return hl_seqio_corrupt(in, err, "bad metadata entry count");
  for (int32_t i = 0; i < count; i++) {
    char *k = NULL, *v = NULL;
    st = hl_seqio_in_text(in, (size_t)1 << 20, &k, err);
    if (st == HL_OK) st = hl_seqio_in_text(in, (size_t)1 << 20, &v, err);
    if (st == HL_OK && key && !*value && strcmp(k, key) == 0) {
      *value = v;
      v = NULL;
    }
    hl_free(k);
    hl_free(v);
    if (st != HL_OK) {
      hl_free(*value);
      *value = NULL;
      return st;
    }
  }
  return HL_OK;
}

/* ------------------------------------------------------------- decoding */

size_t hl_seqio_vlong_decode(const unsigned char *p, size_t n, int64_t *out) {
  if (n == 0) return 0;
  int8_t first = (int8_t)p[0];
  if (first >= -112) {
    *out = first;
    return 1;
  }
  bool negative = first < -120;
  size_t extra = negative ? (size_t)(-120 - first) : (size_t)(-112 - first);
  if (extra > 8 || n < 1 + extra) return 0;
  uint64_t v = 0;
  for (size_t i = 1; i <= extra; i++)
    v = v << 8 | p[i];
  *out = negative ? (int64_t)~v : (int64_t)v;
  return 1 + extra;
}

/* ------------------------------------------------------------- encoding */

int hl_seqio_vlong_size(int64_t v) {
  if (v >= -112 && v <= 127) return 1;
  uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;
  int bytes = 0;
  while (u) {
    u >>= 8;
    bytes++;
  }
  return 1 + bytes;
}

void hl_seqio_put_vlong(hl_buf_t *buf, int64_t v) {
  unsigned char b[9];
  if (v >= -112 && v <= 127) {
    b[0] = (unsigned char)(int8_t)v;
    hl_buf_append(buf, b, 1);
    return;
  }
  int marker = -112;
  uint64_t u = (uint64_t)v;
  if (v < 0) {
    u = ~u;
    marker = -120;
  }
  int bytes = 0;
  for (uint64_t t = u; t; t >>= 8)
    bytes++;
  b[0] = (unsigned char)(int8_t)(marker - bytes);
  for (int i = 0; i < bytes; i++)
    b[1 + i] = (unsigned char)(u >> (8 * (bytes - 1 - i)));
  hl_buf_append(buf, b, (size_t)bytes + 1);
}

void hl_seqio_put_i32(hl_buf_t *buf, int32_t v) {
  uint32_t u = (uint32_t)v;
  unsigned char b[4] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16), (unsigned char)(u >> 8),
                        (unsigned char)u};
  hl_buf_append(buf, b, 4);
}

void hl_seqio_put_text(hl_buf_t *buf, const char *s) {
  size_t n = strlen(s);
  hl_seqio_put_vlong(buf, (int64_t)n);
  hl_buf_append(buf, s, n);
}

void hl_seqio_random_sync(uint8_t sync[HL_SEQIO_SYNC_SIZE]) {
  ssize_t got = getrandom(sync, HL_SEQIO_SYNC_SIZE, GRND_NONBLOCK);
  if (got == HL_SEQIO_SYNC_SIZE) return;
  /* no entropy yet: mix the clock and an address (uniqueness per file is
   * all a sync marker needs) */
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)(uintptr_t)sync;
  for (int i = 0; i < HL_SEQIO_SYNC_SIZE; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sync[i] = (uint8_t)(x >> 24);
  }
}
