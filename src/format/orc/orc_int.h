/*
 * orc_int.h -- private declarations shared by the ORC reader's files.
 *
 * Error convention: the decoders fill the hl_error_t they were handed with
 * a message that does not name the file; orc_reader.c prefixes
 * "cannot read \"PATH\"" once.  Every length read from the file is checked
 * against the bytes actually present before anything is allocated for it.
 */
#ifndef HL_ORC_INT_H
#define HL_ORC_INT_H

#include "format/orc/orc.h"
#include "orc.pb-c.h"
#include "util/arena.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest compression chunk we accept (the chunk header has 23 bits). */
#define HL_ORC_MAX_BLOCK     (8u * 1024 * 1024)
#define HL_ORC_DEFAULT_BLOCK (256u * 1024)
/* Deepest type nesting read (Hive itself stops far earlier). */
#define HL_ORC_MAX_DEPTH 100

/* hl_orc_codec_t (CompressionKind) is in orc.h, shared with the writer. */

hl_status_t hl_orc_corrupt(hl_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------- codecs */

/* Decompresses SRC[0..src_len) into DST (capacity CAP); *out_len is the
 * size produced.  Output that would exceed CAP is corrupt. */
hl_status_t hl_orc_decompress(hl_orc_codec_t codec, const uint8_t *src, size_t src_len,
                              uint8_t *dst, size_t cap, size_t *out_len, hl_error_t *err);

/* A stream: compressed bytes borrowed from the stripe buffer, decompressed
 * one chunk at a time into BUF (BLOCK bytes, from ARENA on first use). */
typedef struct hl_orc_stream {
  const uint8_t *src; /* compressed (or plain) bytes; NULL: stream absent */
  size_t src_len;
  size_t src_pos;
  hl_orc_codec_t codec;
  size_t block;       /* compression block size */
  uint8_t *buf;       /* decompressed chunk */
  const uint8_t *cur; /* current chunk's bytes */
  size_t cur_len, cur_pos;
  hl_arena_t *arena;
  hl_error_t *err;  /* where failures go (set by the reader per call) */
  const char *name; /* "DATA of column 3", for messages */
} hl_orc_stream_t;

void hl_orc_stream_init(hl_orc_stream_t *s, const uint8_t *src, size_t len, hl_orc_codec_t codec,
                        size_t block, hl_arena_t *arena, hl_error_t *err);
/* Loads the next non-empty chunk.  False at end of stream (no error set)
 * or on failure (error set: check err->code). */
bool hl_orc_stream_fill(hl_orc_stream_t *s);
/* One byte; false (error set) at end or on failure. */
static inline bool hl_orc_byte(hl_orc_stream_t *s, uint8_t *out) {
  if (s->cur_pos >= s->cur_len && !hl_orc_stream_fill(s)) {
    if (s->err->code == HL_OK) hl_orc_corrupt(s->err, "%s ends early", s->name);
    return false;
  }
  *out = s->cur[s->cur_pos++];
  return true;
}
/* Copies LEN bytes into DST. */
hl_status_t hl_orc_read_bytes(hl_orc_stream_t *s, uint8_t *dst, size_t len);
/* An upper bound of the bytes still to come (for allocation checks). */
uint64_t hl_orc_stream_bound(const hl_orc_stream_t *s);
/* Reads the whole rest of the stream into one buffer from ARENA
 * (at most LIMIT bytes; more is corrupt). */
hl_status_t hl_orc_stream_all(hl_orc_stream_t *s, uint64_t limit, uint8_t **out, size_t *len);

/* ------------------------------------------------------ run lengths */

hl_status_t hl_orc_varint(hl_orc_stream_t *s, uint64_t *out);

typedef struct hl_orc_byte_rle {
  hl_orc_stream_t *s;
  uint8_t run[128];
  int n, pos;
  bool repeat; /* run[0] repeated n times */
} hl_orc_byte_rle_t;

typedef struct hl_orc_bool_rle {
  hl_orc_byte_rle_t bytes;
  uint8_t cur;
  int bits_left;
} hl_orc_bool_rle_t;

typedef struct hl_orc_int_rle {
  hl_orc_stream_t *s;
  bool v2;
  bool is_signed;
  int64_t vals[512];
  int n, pos;
} hl_orc_int_rle_t;

void hl_orc_byte_rle_init(hl_orc_byte_rle_t *d, hl_orc_stream_t *s);
hl_status_t hl_orc_byte_rle_next(hl_orc_byte_rle_t *d, uint8_t *out, size_t n);
void hl_orc_bool_rle_init(hl_orc_bool_rle_t *d, hl_orc_stream_t *s);
hl_status_t hl_orc_bool_rle_next(hl_orc_bool_rle_t *d, uint8_t *out, size_t n);
void hl_orc_int_rle_init(hl_orc_int_rle_t *d, hl_orc_stream_t *s, bool v2, bool is_signed);
hl_status_t hl_orc_int_rle_next(hl_orc_int_rle_t *d, int64_t *out, size_t n);

/* -------------------------------------------------------------- tail */

typedef struct hl_orc_tail {
  uint64_t file_size;
  hl_orc_codec_t codec;
  size_t block;
  Orcpb__Footer *footer;       /* in the reader's arena */
  Orcpb__Metadata *metadata;   /* NULL when absent or unreadable */
  int *parent;                 /* per type id: parent id, -1 for the root */
  uint32_t version[2];         /* PostScript version (major, minor); 0.11 if absent */
  uint32_t writer_version;     /* PostScript writerVersion (0: original) */
  uint64_t meta_off, meta_len; /* the Metadata section (stripe statistics) */
} hl_orc_tail_t;

/* Reads and validates the tail of the open file F (SIZE bytes > 0). */
hl_status_t hl_orc_tail_read(hl_stor_t *fs, hl_stor_file_t *f, uint64_t size, hl_arena_t *arena,
                             hl_orc_tail_t *tail, hl_error_t *err);
/* Reads the Metadata section into tail->metadata (NULL when absent). */
hl_status_t hl_orc_metadata_read(hl_stor_t *fs, hl_stor_file_t *f, hl_arena_t *arena,
                                 hl_orc_tail_t *tail, hl_error_t *err);
/* Decompresses a whole metadata section (footer, stripe footer). */
hl_status_t hl_orc_section(const hl_orc_tail_t *tail, const uint8_t *src, size_t len,
                           hl_arena_t *arena, uint8_t **out, size_t *out_len, hl_error_t *err);
/* A protobuf-c allocator over ARENA (frees are no-ops). */
void hl_orc_pb_allocator(ProtobufCAllocator *a, hl_arena_t *arena);
/* The Hive type of file type ID; a UNION is HL_UNSUPPORTED (UNION_AT set to
 * its id). */
hl_status_t hl_orc_hive_type(const hl_orc_tail_t *tail, uint32_t id, hl_arena_t *arena,
                             hl_type_t **out, hl_error_t *err);

#endif
