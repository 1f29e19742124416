/*
 * snappy_dec.h -- a Snappy block decompressor.
 *
 * Parquet and ORC pages compressed with SNAPPY are decompressed here, not
 * with libsnappy: Debian's libsnappy calls glibc's out-of-line memcpy for
 * every literal and back-reference, and on typical column data (short
 * literals and copies) that made decompression the larger half of a scan.
 * This decoder moves 16 bytes at a time with fixed-size copies, writing up
 * to 15 bytes past a piece's end when the buffer has room (the next pieces
 * overwrite them), and checks every length and offset against both
 * buffers.  Compression still uses libsnappy.
 */
#ifndef HL_SNAPPY_DEC_H
#define HL_SNAPPY_DEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The uncompressed length a Snappy block SRC[0..n) declares, in *len;
 * false when its header is malformed. */
bool hl_snappy_length(const uint8_t *src, size_t n, size_t *len);

/* Decompresses the block SRC[0..n) into DST, which must be exactly the
 * declared length DST_LEN.  False when the block is malformed (a tag runs
 * past the input, a copy reaches before the output's start or past its
 * end, or the output is not exactly filled); DST is then unspecified. */
bool hl_snappy_uncompress(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len);

#endif
