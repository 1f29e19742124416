/*
 * pq_encoding.h -- Parquet value and level encodings over byte buffers.
 *
 * Pure functions (no file access) used by pq_reader.c (decoders) and
 * pq_writer.c (encoders).  Spec: apache/parquet-format Encodings.md:
 * PLAIN, RLE/bit-packing hybrid, deprecated BIT_PACKED, dictionary indices,
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT.  (ALP is not implemented: the reader rejects it.)
 *
 * Invariants for every decoder: the input is untrusted.  Every length is
 * checked against the input; output counts come from the caller (page
 * headers), never from the data, so no decoder allocates in proportion to a
 * count read from the data.  A malformed input returns HL_CORRUPT (XX001)
 * with a message saying what is wrong; HL_MISUSE (XX000) flags a caller bug
 * (e.g. an unsupported bit width passed by the caller).  Decoders write only
 * the N outputs they are asked for.  Byte-array values are (ptr, len) pairs
 * borrowed from the input buffer (valid while it is), except DELTA_BYTE_ARRAY
 * values, which live in the caller's arena.
 *
 * Host byte order must be little-endian (checked at compile time in
 * pq_encoding.c); INT32/INT64/FLOAT/DOUBLE outputs are native arrays.
 *
 * Thread-safety: no shared state; a decoder state struct is used by one
 * thread at a time.
 */
#ifndef HL_PQ_ENCODING_H
#define HL_PQ_ENCODING_H

#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value; PTR is borrowed (see above). */
typedef struct hl_pq_bytes {
  const uint8_t *ptr; /* first byte; may be NULL when len == 0 */
  uint32_t len;       /* bytes */
} hl_pq_bytes_t;

/* Bits needed for values 0..MAX_VALUE (0 for 0): the bit width of levels
 * with maximum level MAX_VALUE and of dictionary indices (dict size - 1). */
int hl_pq_bit_width(uint64_t max_value);

/* ======================================================================
 * PLAIN decoders.  Each decodes N values from DATA[0, LEN) and stores in
 * *CONSUMED (OUT, may be NULL) the bytes used, so the reader can decode a
 * page in batches by advancing DATA.  HL_CORRUPT when LEN is too short.
 * ====================================================================== */

/* BOOLEAN: bit-packed LSB first.  FIRST is the index of the first value to
 * decode (a bit offset into DATA, for batches); OUT[i] is 0 or 1.  Needs
 * ceil((FIRST + N) / 8) bytes; no CONSUMED (the reader tracks FIRST). */
hl_status_t hl_pq_plain_decode_bool(const uint8_t *data, size_t len, size_t first, size_t n,
                                    uint8_t *out, hl_error_t *err);
/* Fixed-width values of WIDTH bytes copied verbatim: INT32 (4), INT64 (8),
 * FLOAT (4), DOUBLE (8), INT96 (12, raw), FIXED_LEN_BYTE_ARRAY (type_length)
 * into a raw byte array.  OUT holds N * WIDTH bytes. */
hl_status_t hl_pq_plain_decode_fixed(const uint8_t *data, size_t len, size_t n, size_t width,
                                     void *out, size_t *consumed, hl_error_t *err);
/* BYTE_ARRAY: 4-byte little-endian length, then the bytes.  OUT[i] points
 * into DATA. */
hl_status_t hl_pq_plain_decode_bytes(const uint8_t *data, size_t len, size_t n, hl_pq_bytes_t *out,
                                     size_t *consumed, hl_error_t *err);
/* FIXED_LEN_BYTE_ARRAY of WIDTH bytes (WIDTH >= 1) as pointers into DATA. */
hl_status_t hl_pq_plain_decode_flba(const uint8_t *data, size_t len, size_t n, uint32_t width,
                                    hl_pq_bytes_t *out, size_t *consumed, hl_error_t *err);
/* INT96 timestamps (8-byte LE nanoseconds of day, then 4-byte LE Julian
 * day) converted to microseconds since 1970-01-01 UTC (Julian day 2440588);
 * sub-microsecond digits are dropped (floor).  HL_CORRUPT when a value does
 * not fit int64 microseconds. */
hl_status_t hl_pq_plain_decode_int96_micros(const uint8_t *data, size_t len, size_t n, int64_t *out,
                                            size_t *consumed, hl_error_t *err);

/* One INT96 value (12 bytes at SRC) to microseconds since the epoch; false
 * when out of the int64 range. */
bool hl_pq_int96_to_micros(const uint8_t *src, int64_t *out);
/* Microseconds since the epoch to INT96 (12 bytes at DST). */
void hl_pq_int96_from_micros(int64_t micros, uint8_t *dst);

/* ======================================================================
 * RLE / bit-packing hybrid (levels, dictionary indices, RLE booleans).
 *
 *   hl_pq_rle_init*(&dec, ...)      over a buffer (no allocation, no fini)
 *   hl_pq_rle_get_*(&dec, n, out)   repeatedly, in batches of any size
 *
 * N_VALUES given at init is the most values the caller will ever take (the
 * page's value count); a run claiming more than what is left of it is
 * HL_CORRUPT, as is asking for values past the end of the data.  The padding
 * of the last bit-packed group (up to 7 values) is ignored.  Every decoded
 * value is checked against MAX_VALUE (the maximum level, or dictionary
 * size - 1): larger is HL_CORRUPT.
 * ====================================================================== */

typedef struct hl_pq_rle_dec {
  const uint8_t *pos;     /* next unread byte */
  const uint8_t *end;     /* end of the encoded data */
  const uint8_t *bp_data; /* current bit-packed run: next unread group */
  int bit_width;          /* 0..32 */
  uint64_t limit;         /* values must be < LIMIT (max_value + 1; 0: none valid) */
  bool check;             /* LIMIT < 2^bit_width: values need checking */
  uint64_t left;          /* values the caller may still take (N_VALUES budget) */
  uint32_t rle_left;      /* values left in the current RLE run */
  uint32_t rle_value;     /* its value */
  uint64_t bp_left;       /* real values left in the current bit-packed run (no padding) */
  const uint8_t *bp_end;  /* end of the current bit-packed run's bytes */
  bool dict;              /* dictionary indices (for messages) */
  uint32_t group[8];      /* current unpacked group of a bit-packed run */
  int group_pos;          /* next value in GROUP; 8 = none buffered */
  const char *what;       /* "definition levels", ... for messages (static) */
} hl_pq_rle_dec_t;

/* Over exactly DATA[0, LEN) (no length prefix: v2 page levels, or a
 * length already stripped).  BIT_WIDTH 0..32 (else HL_MISUSE).  WHAT is a
 * static string naming the data in messages, e.g. "definition levels". */
hl_status_t hl_pq_rle_init(hl_pq_rle_dec_t *dec, const uint8_t *data, size_t len, int bit_width,
                           uint32_t max_value, uint64_t n_values, const char *what,
                           hl_error_t *err);
/* v1 page levels and RLE booleans: DATA starts with a 4-byte little-endian
 * length of the encoded data that follows.  *CONSUMED (OUT, may be NULL) is
 * 4 + that length: where the next section of the page starts. */
hl_status_t hl_pq_rle_init_prefixed(hl_pq_rle_dec_t *dec, const uint8_t *data, size_t len,
                                    int bit_width, uint32_t max_value, uint64_t n_values,
                                    const char *what, size_t *consumed, hl_error_t *err);
/* Dictionary indices (RLE_DICTIONARY / PLAIN_DICTIONARY data pages): the
 * first byte is the bit width (at most 32, else HL_CORRUPT), then the
 * hybrid data up to LEN.  Indices are checked against DICT_SIZE (a page
 * with values and an empty dictionary is HL_CORRUPT at the first get). */
hl_status_t hl_pq_dict_init(hl_pq_rle_dec_t *dec, const uint8_t *data, size_t len,
                            uint32_t dict_size, uint64_t n_values, hl_error_t *err);

hl_status_t hl_pq_rle_get_u32(hl_pq_rle_dec_t *dec, size_t n, uint32_t *out, hl_error_t *err);
/* Levels as int16 (MAX_VALUE must be <= 32767, else HL_MISUSE). */
hl_status_t hl_pq_rle_get_levels(hl_pq_rle_dec_t *dec, size_t n, int16_t *out, hl_error_t *err);
/* Takes up to MAX values when the decoder stands in an RLE run of VALUE
 * (the next run header is read when the current run is used up): *TOOK is
 * how many, 0 in a bit-packed run or a run of another value.  Lets a
 * reader skip materialising a long run of "present" levels. */
hl_status_t hl_pq_rle_take_run(hl_pq_rle_dec_t *dec, uint32_t value, size_t max, size_t *took,
                               hl_error_t *err);
/* Booleans (bit width 1) as uint8 0/1. */
hl_status_t hl_pq_rle_get_bool(hl_pq_rle_dec_t *dec, size_t n, uint8_t *out, hl_error_t *err);

/* Dictionary gather: decodes N indices from DEC (inited by hl_pq_dict_init)
 * and copies DICT[index] (elements of ELEM_SIZE bytes: 4 for INT32/FLOAT,
 * 8 for INT64/DOUBLE, 12 for raw INT96, sizeof(hl_pq_bytes_t) for byte
 * arrays, any other size works too) into OUT (N * ELEM_SIZE bytes).  DICT
 * must hold the DICT_SIZE given to hl_pq_dict_init. */
hl_status_t hl_pq_dict_get(hl_pq_rle_dec_t *dec, const void *dict, size_t elem_size, size_t n,
                           void *out, hl_error_t *err);

/* Deprecated BIT_PACKED levels (MSB first, no header): values FIRST ..
 * FIRST+N-1 of a page whose levels section holds ceil(total*BIT_WIDTH/8)
 * bytes (hl_pq_bitpacked_size).  Values above MAX_VALUE are HL_CORRUPT. */
hl_status_t hl_pq_bitpacked_decode(const uint8_t *data, size_t len, int bit_width,
                                   uint32_t max_value, size_t first, size_t n, int16_t *out,
                                   hl_error_t *err);
/* Bytes of a BIT_PACKED section of N_VALUES values (false on overflow). */
bool hl_pq_bitpacked_size(uint64_t n_values, int bit_width, size_t *nbytes);

/* ======================================================================
 * DELTA_BINARY_PACKED (INT32, INT64).  Streaming: init reads the header,
 * get decodes the next N values.  The header's total count must not exceed
 * N_VALUES (HL_CORRUPT); taking more than the total is HL_CORRUPT.
 * Arithmetic wraps (two's complement) as the spec requires.
 * ====================================================================== */

typedef struct hl_pq_delta_dec {
  const uint8_t *pos;        /* next unread byte */
  const uint8_t *end;        /* end of input */
  const uint8_t *bit_widths; /* current block's miniblock bit widths */
  const uint8_t *mini_data;  /* current miniblock's packed data */
  const uint8_t *mini_end;   /* end of its data */
  uint64_t block_size;       /* values per block */
  uint64_t n_minis;          /* miniblocks per block */
  uint64_t mini_size;        /* values per miniblock */
  uint64_t total;            /* values in the stream (header) */
  uint64_t left;             /* values not yet returned */
  uint64_t last;             /* last value returned (wrapping) */
  uint64_t min_delta;        /* current block's frame of reference */
  uint64_t mini_idx;         /* current miniblock in the block */
  uint64_t mini_left;        /* values left in the current miniblock */
  uint64_t group[8];         /* unpacked deltas of the current group of 8 */
  int group_pos;             /* next in GROUP; 8 = none buffered */
  int cur_width;             /* bit width of the current miniblock */
  int max_width;             /* 32 for INT32, 64 for INT64 */
  bool first_pending;        /* the header's first value not yet returned */
} hl_pq_delta_dec_t;

/* IS_INT64 selects INT64 (bit widths up to 64) or INT32 (up to 32). */
hl_status_t hl_pq_delta_init(hl_pq_delta_dec_t *dec, const uint8_t *data, size_t len, bool is_int64,
                             uint64_t n_values, hl_error_t *err);
hl_status_t hl_pq_delta_get_i32(hl_pq_delta_dec_t *dec, size_t n, int32_t *out, hl_error_t *err);
hl_status_t hl_pq_delta_get_i64(hl_pq_delta_dec_t *dec, size_t n, int64_t *out, hl_error_t *err);
/* Total values announced by the header. */
uint64_t hl_pq_delta_total(const hl_pq_delta_dec_t *dec);
/* Walks the rest of the stream without unpacking (validating lengths) and
 * stores in *END (OUT) the first byte after it.  Does not change DEC. */
hl_status_t hl_pq_delta_find_end(const hl_pq_delta_dec_t *dec, const uint8_t **end,
                                 hl_error_t *err);

/* One-shot forms: exactly N values (the header must announce exactly N). */
hl_status_t hl_pq_delta_decode_i32(const uint8_t *data, size_t len, size_t n, int32_t *out,
                                   size_t *consumed, hl_error_t *err);
hl_status_t hl_pq_delta_decode_i64(const uint8_t *data, size_t len, size_t n, int64_t *out,
                                   size_t *consumed, hl_error_t *err);

/* ======================================================================
 * DELTA_LENGTH_BYTE_ARRAY: delta-packed lengths, then the bytes.  Values
 * point into the input.
 * ====================================================================== */

typedef struct hl_pq_dlba_dec {
  hl_pq_delta_dec_t lengths; /* the length stream */
  const uint8_t *data;       /* next value's bytes */
  const uint8_t *end;        /* end of input */
} hl_pq_dlba_dec_t;

hl_status_t hl_pq_dlba_init(hl_pq_dlba_dec_t *dec, const uint8_t *data, size_t len,
                            uint64_t n_values, hl_error_t *err);
hl_status_t hl_pq_dlba_get(hl_pq_dlba_dec_t *dec, size_t n, hl_pq_bytes_t *out, hl_error_t *err);

/* ======================================================================
 * DELTA_BYTE_ARRAY: delta-packed prefix lengths, then the suffixes as
 * DELTA_LENGTH_BYTE_ARRAY.  Reconstructed values are allocated in ARENA
 * (borrowed; must outlive the values); a value equal to a prefix of the
 * previous one shares its bytes.  MAX_BYTES caps the total bytes the
 * decoder may allocate over its life (0: 256 MiB), because tiny inputs can
 * describe huge outputs (long prefixes repeated); exceeding it is
 * HL_CORRUPT.  For FIXED_LEN_BYTE_ARRAY the reader checks each length.
 * ====================================================================== */

typedef struct hl_pq_dba_dec {
  hl_pq_delta_dec_t prefixes; /* prefix length stream */
  hl_pq_dlba_dec_t suffixes;  /* suffix stream */
  hl_pq_bytes_t prev;         /* previous value (empty at start) */
  hl_arena_t *arena;          /* where values are built (borrowed) */
  size_t budget;              /* bytes the decoder may still allocate */
  size_t max_bytes;           /* the cap (for messages) */
} hl_pq_dba_dec_t;

hl_status_t hl_pq_dba_init(hl_pq_dba_dec_t *dec, const uint8_t *data, size_t len, uint64_t n_values,
                           hl_arena_t *arena, size_t max_bytes, hl_error_t *err);
hl_status_t hl_pq_dba_get(hl_pq_dba_dec_t *dec, size_t n, hl_pq_bytes_t *out, hl_error_t *err);

/* ======================================================================
 * BYTE_STREAM_SPLIT (FLOAT 4, DOUBLE 8, INT32 4, INT64 8, FLBA type_length):
 * DATA[0, LEN) is the whole values section of the page, LEN a multiple of
 * WIDTH (else HL_CORRUPT); decodes values FIRST .. FIRST+N-1 into OUT
 * (N * WIDTH bytes, native layout).
 * ====================================================================== */
hl_status_t hl_pq_bss_decode(const uint8_t *data, size_t len, size_t width, size_t first, size_t n,
                             void *out, hl_error_t *err);

/* ======================================================================
 * Encoders (for pq_writer.c).  Append to BUF; HL_NOMEM when BUF ran out of
 * memory (buf->oom), HL_MISUSE for invalid arguments from the caller.
 * ====================================================================== */

/* PLAIN */
hl_status_t hl_pq_plain_encode_bool(hl_buf_t *buf, const uint8_t *values, size_t n,
                                    hl_error_t *err);
/* INT32/INT64/FLOAT/DOUBLE/INT96/FLBA from a packed array of N * WIDTH bytes. */
hl_status_t hl_pq_plain_encode_fixed(hl_buf_t *buf, const void *values, size_t n, size_t width,
                                     hl_error_t *err);
hl_status_t hl_pq_plain_encode_bytes(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                                     hl_error_t *err);
/* FLBA from pointers; every LEN must equal WIDTH (else HL_MISUSE). */
hl_status_t hl_pq_plain_encode_flba(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                                    uint32_t width, hl_error_t *err);

/* RLE/bit-packing hybrid without length prefix (v2 levels).  Values must fit
 * BIT_WIDTH (0..32).  Runs of >= 8 equal values become RLE runs, the rest
 * bit-packed groups of 8. */
hl_status_t hl_pq_rle_encode(hl_buf_t *buf, const uint32_t *values, size_t n, int bit_width,
                             hl_error_t *err);
/* Levels; PREFIXED adds the 4-byte length (v1 pages). */
hl_status_t hl_pq_rle_encode_levels(hl_buf_t *buf, const int16_t *levels, size_t n, int bit_width,
                                    bool prefixed, hl_error_t *err);
/* RLE booleans: 4-byte length prefix, bit width 1. */
hl_status_t hl_pq_rle_encode_bool(hl_buf_t *buf, const uint8_t *values, size_t n, hl_error_t *err);
/* Dictionary indices: bit-width byte then the hybrid data. */
hl_status_t hl_pq_dict_encode(hl_buf_t *buf, const uint32_t *indices, size_t n, int bit_width,
                              hl_error_t *err);

/* DELTA_BINARY_PACKED with block size 128 and 4 miniblocks of 32. */
hl_status_t hl_pq_delta_encode_i32(hl_buf_t *buf, const int32_t *values, size_t n, hl_error_t *err);
hl_status_t hl_pq_delta_encode_i64(hl_buf_t *buf, const int64_t *values, size_t n, hl_error_t *err);
hl_status_t hl_pq_dlba_encode(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n,
                              hl_error_t *err);
hl_status_t hl_pq_dba_encode(hl_buf_t *buf, const hl_pq_bytes_t *values, size_t n, hl_error_t *err);
/* BYTE_STREAM_SPLIT from a packed array of N * WIDTH bytes. */
hl_status_t hl_pq_bss_encode(hl_buf_t *buf, const void *values, size_t n, size_t width,
                             hl_error_t *err);

#endif
