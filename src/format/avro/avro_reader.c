/*
 * avro_reader.c -- reading Avro object container files into batches.
 *
 * A file is the magic "Obj" 1, a metadata map (avro.schema: the writer's
 * schema as JSON; avro.codec: the block codec, "null" when absent), a
 * 16-byte sync marker, then blocks: a count of records, the byte size of
 * the (compressed) records, the records, and the sync marker again.
 *
 *   header -> writer schema -> hl_avro_resolve against the table's schema
 *   per block: count, size -> read size bytes -> check the sync marker
 *     -> decompress (avro_codec.c) -> decode count records (avro_resolve.c)
 *
 * With no column projected (count(*)) a block's records are never
 * decompressed or decoded: the count comes from the block header, checked
 * for plausibility against the block's size (decompressed only when the
 * count claims more records than its bytes could hold compressed).
 * A split (hl_avro_reader_set_range) starts after the first sync marker at
 * or after its start and reads the blocks that start before its end, so
 * the splits of a file read every block exactly once.  A shared file
 * (hl_avro_reader_share, the threads of a parallel scan) is cut into
 * pieces of equal size, each read as a split; a thread reads every n-th
 * piece, and a batch never holds rows of two pieces, so that the scan can
 * put the threads' batches back in file order.
 *
 * Invariant: every count and length from the file is checked against the
 * bytes present before memory is taken for it; a damaged block is XX001
 * naming the file and the block's offset, never a crash or a silently
 * shorter table (a block must decode to exactly its bytes).
 */
#include "format/avro/avro_int.h"

#include "format/seqfile/seq_io.h"
#include "util/mem.h"

#include <stdio.h>
#include <string.h>

#define MAX_BLOCK      HL_SEQIO_MAX_CHUNK /* compressed or not */
#define MAX_META       10000
#define MAX_META_VALUE ((size_t)16 << 20)
#define BATCH_BYTES    ((size_t)32 << 20)

static const uint8_t MAGIC[4] = {'O', 'b', 'j', 1};

struct hl_avro_reader {
  hl_seqio_in_t in;
  hl_arena_t *arena; /* schemas, the program, defaults */
  hl_avro_codec_t codec;
  uint8_t sync[16];
  uint64_t data_start; /* offset of the first block */
  uint64_t range_end;  /* blocks starting at or past it are another split's */
  const av_node_t *writer;
  av_prog_t *prog;
  bool count_only; /* nothing projected */
  uint64_t min_record;
  hl_buf_t raw;   /* the block as stored */
  hl_buf_t block; /* decompressed */
  const uint8_t *data;
  size_t data_len, data_pos;
  uint64_t block_off; /* file offset of the current block, for messages */
  int64_t rows_left;  /* records of the current block not yet decoded */
  bool done;          /* the range (or the file) has no more blocks */
  /* hl_avro_reader_share: piece i, the bytes [i * piece_bytes, (i + 1) *
   * piece_bytes), is this reader's when (share_base + i) % share_n ==
   * share_w; piece is the one being read (piece_open) */
  uint64_t piece_bytes; /* 0: not shared, or every piece read */
  size_t share_base, n_pieces, piece;
  int share_n, share_w;
  bool piece_open;
  uint64_t n_blocks; /* blocks read (EXPLAIN ANALYZE) */
};

static hl_status_t corrupt_at(hl_avro_reader_t *r, uint64_t off, const char *why, hl_error_t *err) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED),
                    "cannot read \"%s\": %s (block at offset %llu)", r->in.path, why,
                    (unsigned long long)off);
}

/* A varint from the stream; *eof when the file ends before its first byte. */
static hl_status_t in_long(hl_avro_reader_t *r, int64_t *out, bool *eof, hl_error_t *err) {
  uint8_t b[10];
  if (eof) *eof = false;
  for (int i = 0; i < 10; i++) {
    if (hl_seqio_in_eof(&r->in)) {
      if (i == 0 && eof) {
        *eof = true;
        return HL_OK;
      }
      return hl_seqio_corrupt(&r->in, err, "unexpected end of file in a varint");
    }
    hl_status_t st = hl_seqio_in_u8(&r->in, &b[i], err);
    if (st != HL_OK) return st;
    if (!(b[i] & 0x80)) {
      size_t pos = 0;
      if (!hl_avro_get_long(b, (size_t)i + 1, &pos, out))
        return hl_seqio_corrupt(&r->in, err, "bad varint");
      return HL_OK;
    }
  }
  return hl_seqio_corrupt(&r->in, err, "varint longer than 10 bytes");
}

/* A length-prefixed string of the header into the reader's arena. */
static hl_status_t in_bytes(hl_avro_reader_t *r, char **out, size_t *len, hl_error_t *err) {
  int64_t n;
  hl_status_t st = in_long(r, &n, NULL, err);
  if (st != HL_OK) return st;
  if (n < 0 || (uint64_t)n > MAX_META_VALUE || (uint64_t)n > hl_seqio_in_left(&r->in))
    return hl_seqio_corrupt(&r->in, err, "bad length in the header");
  char *s = hl_arena_alloc(r->arena, (size_t)n + 1);
  if (!s) return hl_err_nomem(err);
  if ((st = hl_seqio_in_read(&r->in, s, (size_t)n, err)) != HL_OK) return st;
  s[n] = '\0';
  *out = s;
  *len = (size_t)n;
  return HL_OK;
}

static hl_status_t read_header(hl_avro_reader_t *r, char **schema, size_t *schema_len,
                               hl_error_t *err) {
  uint8_t magic[4];
  hl_status_t st = hl_seqio_in_read(&r->in, magic, 4, err);
  if (st != HL_OK || memcmp(magic, MAGIC, 4) != 0) {
    hl_err_clear(err);
    return hl_seqio_corrupt(&r->in, err, "not an Avro object container file");
  }
  *schema = NULL;
  const char *codec = NULL;
  int entries = 0;
  for (;;) {
    int64_t count;
    if ((st = in_long(r, &count, NULL, err)) != HL_OK) return st;
    if (count == 0) break;
    if (count < 0) {
      int64_t bytes;
      if (count == INT64_MIN) return hl_seqio_corrupt(&r->in, err, "bad metadata count");
      count = -count;
      if ((st = in_long(r, &bytes, NULL, err)) != HL_OK) return st;
    }
    if (count > MAX_META || (entries += (int)count) > MAX_META)
      return hl_seqio_corrupt(&r->in, err, "too many metadata entries");
    for (int64_t i = 0; i < count; i++) {
      char *k, *v;
      size_t kl, vl;
      if ((st = in_bytes(r, &k, &kl, err)) != HL_OK || (st = in_bytes(r, &v, &vl, err)) != HL_OK)
        return st;
      if (strcmp(k, "avro.schema") == 0) {
        *schema = v;
        *schema_len = vl;
      } else if (strcmp(k, "avro.codec") == 0) {
        codec = v;
      }
    }
  }
  if ((st = hl_seqio_in_read(&r->in, r->sync, 16, err)) != HL_OK) return st;
  if (!*schema) return hl_seqio_corrupt(&r->in, err, "the header has no avro.schema");
  r->codec = HL_AVRO_NULL;
  if (codec && *codec) {
    hl_error_t e;
    hl_err_init(&e);
    if (hl_avro_codec_from_name(codec, &r->codec, &e) != HL_OK) {
      hl_err_clear(&e);
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "cannot read \"%s\": Avro codec \"%s\" is not supported", r->in.path,
                        codec);
    }
  }
  r->data_start = hl_seqio_in_tell(&r->in);
  return HL_OK;
}

hl_status_t hl_avro_reader_open(hl_stor_t *fs, const char *path, const hl_avro_schema_t *schema,
                                int n_cols, const hl_type_t *const *types, const char *const *names,
                                const bool *projected, hl_avro_reader_t **out, hl_error_t *err) {
  *out = NULL;
  hl_avro_reader_t *r = hl_calloc(1, sizeof *r);
  if (!r) return hl_err_nomem(err);
  hl_buf_init(&r->raw);
  hl_buf_init(&r->block);
  r->range_end = UINT64_MAX;
  hl_status_t st = (r->arena = hl_arena_create(0)) ? HL_OK : hl_err_nomem(err);
  if (st == HL_OK) st = hl_seqio_in_open(&r->in, fs, path, err);
  if (st != HL_OK) {
    hl_avro_reader_close(r);
    return st;
  }
  if (r->in.size == 0) { /* Hive's empty buckets */
    r->done = true;
    *out = r;
    return HL_OK;
  }
  char *wtext = NULL;
  size_t wlen = 0;
  st = read_header(r, &wtext, &wlen, err);
  hl_avro_schema_t *ws = NULL;
  if (st == HL_OK) {
    hl_error_t e;
    hl_err_init(&e);
    st = hl_avro_schema_parse(r->arena, wtext, wlen, NULL, &ws, &e);
    if (st == HL_NOMEM || st == HL_UNSUPPORTED)
      hl_err_move(err, &e);
    else if (st != HL_OK)
      st = hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "cannot read \"%s\": %s", path,
                      e.message);
    hl_err_clear(&e);
  }
  bool any = false;
  for (int i = 0; i < n_cols; i++)
    any |= !projected || projected[i];
  if (st == HL_OK) {
    r->writer = ws->root;
    r->count_only = !any;
    r->min_record = hl_avro_min_bytes(ws->root);
    st = hl_avro_resolve(ws->root, schema ? schema->root : NULL, n_cols, types, names, projected,
                         path, r->arena, &r->prog, err);
  }
  if (st != HL_OK) {
    hl_avro_reader_close(r);
    return st;
  }
  *out = r;
  return HL_OK;
}

/* Moves to just after the first sync marker that ends at or after BEGIN
 * and before END (a block starts there); *found false when there is none. */
static hl_status_t seek_sync(hl_avro_reader_t *r, uint64_t begin, uint64_t end, bool *found,
                             hl_error_t *err) {
  *found = true;
  if (begin <= r->data_start) {
    hl_seqio_in_seek(&r->in, r->data_start);
    *found = r->data_start < end;
    return HL_OK;
  }
  /* the marker lies in [from, end): read in chunks, each starting with the
   * last 15 bytes of the one before, so that no marker is cut */
  uint64_t from = begin - 16 < r->data_start ? r->data_start : begin - 16;
  uint8_t chunk[16384];
  size_t have = 0;
  uint64_t at = from; /* file offset of chunk[0] */
  hl_seqio_in_seek(&r->in, from);
  for (;;) {
    uint64_t want = end - (at + have), left = hl_seqio_in_left(&r->in);
    if (want > sizeof chunk - have) want = sizeof chunk - have;
    if (want > left) want = left;
    if (want == 0) break;
    hl_status_t st = hl_seqio_in_read(&r->in, chunk + have, (size_t)want, err);
    if (st != HL_OK) return st;
    have += (size_t)want;
    const uint8_t *hit = memmem(chunk, have, r->sync, 16);
    if (hit) { /* a block starts right after it */
      hl_seqio_in_seek(&r->in, at + (uint64_t)(hit - chunk) + 16);
      return HL_OK;
    }
    if (have > 15) {
      memmove(chunk, chunk + have - 15, 15);
      at += have - 15;
      have = 15;
    }
  }
  *found = false;
  return HL_OK;
}

hl_status_t hl_avro_reader_set_range(hl_avro_reader_t *r, uint64_t begin, uint64_t end,
                                     hl_error_t *err) {
  if (r->done) return HL_OK;
  r->range_end = end;
  bool found;
  hl_status_t st = seek_sync(r, begin, end, &found, err);
  if (st == HL_OK && !found) r->done = true; /* no block starts in the range */
  return st;
}

size_t hl_avro_reader_share(hl_avro_reader_t *r, uint64_t piece_bytes, size_t base, int n, int w) {
  if (piece_bytes == 0) piece_bytes = 1;
  r->n_pieces = (size_t)((r->in.size + piece_bytes - 1) / piece_bytes);
  if (n < 1) n = 1;
  r->piece_bytes = piece_bytes;
  r->share_base = base;
  r->share_n = n;
  r->share_w = w;
  r->piece_open = false;
  r->done = true; /* the first next opens the first piece */
  return r->n_pieces;
}

size_t hl_avro_reader_current_piece(const hl_avro_reader_t *r) {
  return r->piece;
}

uint64_t hl_avro_reader_blocks(const hl_avro_reader_t *r) {
  return r->n_blocks;
}

/* The current range is done: moves to the next piece of the share that
 * holds the start of a block; none left: r->done stays set and sharing
 * ends. */
static hl_status_t next_piece(hl_avro_reader_t *r, hl_error_t *err) {
  size_t n = (size_t)r->share_n;
  size_t p = r->piece_open ? r->piece + n : ((size_t)r->share_w + n - r->share_base % n) % n;
  for (; p < r->n_pieces; p += n) {
    uint64_t begin = (uint64_t)p * r->piece_bytes;
    uint64_t end = p + 1 == r->n_pieces ? r->in.size : begin + r->piece_bytes;
    bool found;
    hl_status_t st = seek_sync(r, begin, end, &found, err);
    if (st != HL_OK) return st;
    r->piece = p;
    r->piece_open = true;
    if (!found) continue;
    r->range_end = end;
    r->done = false;
    return HL_OK;
  }
  r->piece_bytes = 0;
  return HL_OK;
}

/* Reads the next block header and bytes; r->done at the end. */
static hl_status_t next_block(hl_avro_reader_t *r, hl_error_t *err) {
  uint64_t off = hl_seqio_in_tell(&r->in);
  r->block_off = off;
  if (off >= r->range_end) {
    r->done = true;
    return HL_OK;
  }
  int64_t count, size;
  bool eof;
  hl_status_t st = in_long(r, &count, &eof, err);
  if (st != HL_OK) return hl_err_clear(err), corrupt_at(r, off, "truncated block header", err);
  if (eof) {
    r->done = true;
    return HL_OK;
  }
  st = in_long(r, &size, NULL, err);
  if (st != HL_OK) return hl_err_clear(err), corrupt_at(r, off, "truncated block header", err);
  if (count < 0 || size < 0) return corrupt_at(r, off, "negative block count or size", err);
  r->n_blocks++;
  if ((uint64_t)size > MAX_BLOCK) return corrupt_at(r, off, "block larger than 256 MiB", err);
  if ((uint64_t)size + 16 > hl_seqio_in_left(&r->in))
    return corrupt_at(r, off, "block runs past the end of the file", err);
  if (r->min_record == 0 && count > ((int64_t)1 << 32))
    return corrupt_at(r, off, "implausible record count", err);
  bool need_data = !r->count_only;
  /* count(*): decompressed only when the count is more than the bytes
   * could hold even compressed 1024 times */
  if (r->count_only && r->min_record > 0 &&
      (uint64_t)count > (uint64_t)size / r->min_record * (r->codec == HL_AVRO_NULL ? 1 : 1024))
    need_data = true;
  if (need_data) {
    hl_buf_reset(&r->raw);
    if (hl_buf_reserve(&r->raw, (size_t)size + 1) < 0) return hl_err_nomem(err);
    st = hl_seqio_in_read(&r->in, r->raw.data, (size_t)size, err);
    if (st != HL_OK) return st;
    r->raw.len = (size_t)size;
  } else if ((st = hl_seqio_in_read(&r->in, NULL, (size_t)size, err)) != HL_OK) {
    return st;
  }
  uint8_t sync[16];
  if ((st = hl_seqio_in_read(&r->in, sync, 16, err)) != HL_OK) return st;
  if (memcmp(sync, r->sync, 16) != 0)
    return corrupt_at(r, off, "wrong sync marker after the block", err);
  r->rows_left = count;
  r->data = NULL;
  r->data_len = r->data_pos = 0;
  if (!need_data || count == 0) return HL_OK;
  if (r->codec == HL_AVRO_NULL) {
    r->data = (const uint8_t *)r->raw.data;
    r->data_len = r->raw.len;
  } else {
    st = hl_avro_decompress(r->codec, (const uint8_t *)r->raw.data, r->raw.len, MAX_BLOCK,
                            &r->block, err);
    if (st == HL_CORRUPT) {
      char why[256];
      snprintf(why, sizeof why, "%s", err->message ? err->message : "corrupt data");
      hl_err_clear(err);
      return corrupt_at(r, off, why, err);
    }
    if (st != HL_OK) return st;
    r->data = (const uint8_t *)r->block.data;
    r->data_len = r->block.len;
  }
  if (r->min_record > 0 && (uint64_t)count > r->data_len / r->min_record)
    return corrupt_at(r, off, "the block holds fewer bytes than its records need", err);
  if (r->count_only) r->data = NULL; /* checked; not decoded */
  return HL_OK;
}

/* Decodes up to a batch of rows of the current range into BATCH. */
static hl_status_t fill(hl_avro_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  while (batch->n_rows < HL_BATCH_CAP) {
    if (r->rows_left == 0) {
      if (r->data && r->data_pos != r->data_len)
        return corrupt_at(r, r->block_off, "the block has bytes after its last record", err);
      r->data = NULL;
      if (r->done) break;
      hl_status_t st = next_block(r, err);
      if (st != HL_OK) return st;
      if (r->done) break;
      continue;
    }
    if (r->count_only) {
      int64_t take = HL_BATCH_CAP - batch->n_rows;
      if (take > r->rows_left) take = r->rows_left;
      batch->n_rows += (uint32_t)take;
      r->rows_left -= take;
      continue;
    }
    const char *why = NULL;
    hl_status_t st = hl_avro_decode_row(r->prog, r->data, r->data_len, &r->data_pos, batch,
                                        batch->n_rows, &why, err);
    if (st == HL_CORRUPT && why) return corrupt_at(r, r->block_off, why, err);
    if (st != HL_OK) {
      if (st != HL_NOMEM)
        hl_err_prefix(err, "cannot read \"%s\" (block at offset %llu)", r->in.path,
                      (unsigned long long)r->block_off);
      return st;
    }
    batch->n_rows++;
    r->rows_left--;
    if (hl_arena_used(batch->arena) >= BATCH_BYTES) break;
  }
  return HL_OK;
}

hl_status_t hl_avro_reader_next(hl_avro_reader_t *r, hl_batch_t *batch, hl_error_t *err) {
  batch->n_rows = 0;
  /* a shared file: a batch holds the rows of one piece; a piece whose
   * blocks hold no records gives none */
  while (r->piece_bytes && r->done && r->rows_left == 0) {
    hl_status_t st = next_piece(r, err);
    if (st == HL_OK) st = fill(r, batch, err);
    if (st != HL_OK || batch->n_rows) return st;
  }
  return fill(r, batch, err);
}

void hl_avro_reader_close(hl_avro_reader_t *r) {
  if (!r) return;
  hl_seqio_in_close(&r->in);
  hl_buf_fini(&r->raw);
  hl_buf_fini(&r->block);
  hl_arena_destroy(r->arena);
  hl_free(r);
}
