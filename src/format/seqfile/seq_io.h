/*
 * seq_io.h -- Hadoop's binary building blocks shared by the SequenceFile
 * (seqfile.c) and RCFile (format/rcfile/) readers and writers.
 *
 *   - a buffered, bounds-checked input stream over one storage file; every
 *     short read is HL_CORRUPT XX001 naming the file
 *   - WritableUtils' zero-compressed variable-length integers (vint/vlong;
 *     LazyBinary uses the same encoding), big-endian ints, Text strings
 *
 * Spec: org.apache.hadoop.io.WritableUtils (writeVLong/readVLong),
 * org.apache.hadoop.io.Text (writeString), SequenceFile.Metadata.
 */
#ifndef HL_SEQ_IO_H
#define HL_SEQ_IO_H

#include "storage/stor.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HL_SEQIO_SYNC_SIZE 16                /* bytes of a sync marker */
#define HL_SEQIO_MAX_CHUNK ((size_t)1 << 28) /* largest record / buffer accepted */

/* ---------------------------------------------------------------- input */

typedef struct hl_seqio_in {
  hl_stor_t *fs;
  hl_stor_file_t *file;
  char *path;         /* heap copy, for messages */
  uint64_t size;      /* file size */
  uint64_t buf_off;   /* file offset of buf[0] */
  unsigned char *buf; /* heap, HL_SEQIO_BUF bytes */
  size_t len, pos;    /* bytes in buf, next unread byte */
} hl_seqio_in_t;

/* Opens PATH on FS for reading.  On error nothing is left open. */
hl_status_t hl_seqio_in_open(hl_seqio_in_t *in, hl_stor_t *fs, const char *path, hl_error_t *err);
void hl_seqio_in_close(hl_seqio_in_t *in); /* zeroed or closed: no-op */
/* Bytes of the file not yet consumed (checked before sizing a buffer by a
 * length read from the file). */
uint64_t hl_seqio_in_left(const hl_seqio_in_t *in);
/* True when every byte of the file has been consumed. */
bool hl_seqio_in_eof(const hl_seqio_in_t *in);
/* The file offset of the next unread byte. */
uint64_t hl_seqio_in_tell(const hl_seqio_in_t *in);
/* Moves to file offset OFF (at most the file size); the next read refills
 * the buffer there unless OFF lies inside it. */
void hl_seqio_in_seek(hl_seqio_in_t *in, uint64_t off);
/* Reads exactly N bytes into DST (NULL: skips them).  Fewer bytes left is
 * HL_CORRUPT naming the file. */
hl_status_t hl_seqio_in_read(hl_seqio_in_t *in, void *dst, size_t n, hl_error_t *err);
hl_status_t hl_seqio_in_u8(hl_seqio_in_t *in, uint8_t *out, hl_error_t *err);
hl_status_t hl_seqio_in_i32(hl_seqio_in_t *in, int32_t *out, hl_error_t *err); /* big-endian */
hl_status_t hl_seqio_in_vlong(hl_seqio_in_t *in, int64_t *out, hl_error_t *err);
/* A Text string (vint length, bytes) into a heap string (caller frees);
 * longer than MAX is HL_CORRUPT. */
hl_status_t hl_seqio_in_text(hl_seqio_in_t *in, size_t max, char **out, hl_error_t *err);
/* Reads a SequenceFile.Metadata block (int count, Text key/value pairs)
 * and returns the value of KEY (heap, caller frees; NULL if absent). */
hl_status_t hl_seqio_in_metadata(hl_seqio_in_t *in, const char *key, char **value, hl_error_t *err);
/* The HL_CORRUPT error for IN: `cannot read "<path>": <why>`. */
hl_status_t hl_seqio_corrupt(const hl_seqio_in_t *in, hl_error_t *err, const char *why);

/* ------------------------------------------------------------- decoding */

/* Decodes a vlong from P[0..n) into *out; returns the bytes used, 0 when
 * P holds no complete vlong. */
size_t hl_seqio_vlong_decode(const unsigned char *p, size_t n, int64_t *out);

/* ------------------------------------------------------------- encoding */

void hl_seqio_put_vlong(hl_buf_t *buf, int64_t v);
void hl_seqio_put_i32(hl_buf_t *buf, int32_t v);
void hl_seqio_put_text(hl_buf_t *buf, const char *s); /* Text.writeString */
int hl_seqio_vlong_size(int64_t v);                   /* WritableUtils.getVIntSize */

/* Fills SYNC with 16 unpredictable bytes (the marker Hadoop derives from an
 * MD5 of a UID and the time; any 16 bytes serve). */
void hl_seqio_random_sync(uint8_t sync[HL_SEQIO_SYNC_SIZE]);

#endif
