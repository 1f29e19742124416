/*
 * text_int.h -- private declarations shared by the text-format files.
 *
 * text_io.c turns a storage file into a stream of plain bytes (inflating
 * .gz and .deflate, decompressing .zst, .bz2, and .snappy / .lz4 in
 * Hadoop's block framing, whose chunks format/hcodec codes) and the
 * reverse for writers; text_read.c and
 * text_write.c build on it.  Base64 (Hive writes BINARY as base64 in text
 * and JSON) lives in text_io.c too.  Nothing here is exported beyond
 * src/format/text/.
 */
#ifndef HL_TEXT_INT_H
#define HL_TEXT_INT_H

#include "format/hcodec/hcodec.h"
#include "format/text/text.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Picks the codec from PATH's extension.  Known Hadoop codecs that are not
 * implemented (.lzo, .lzo_deflate, .br) are HL_UNSUPPORTED 0A000 naming
 * the codec and the file. */
hl_status_t hl_text_codec_for_path(const char *path, hl_hcodec_t *out, hl_error_t *err);

/* A decompressing reader over one storage file.  Opaque; heap object. */
typedef struct hl_text_src hl_text_src_t;

/* Opens PATH (borrowed, must outlive the source) on FS.  Caller closes. */
hl_status_t hl_text_src_open(hl_stor_t *fs, const char *path, hl_text_src_t **out, hl_error_t *err);
/* Fills DST with up to CAP plain bytes; *got < CAP only at end of data
 * (*got == 0: end).  Corrupt compressed data is HL_CORRUPT XX001 naming the
 * file. */
hl_status_t hl_text_src_read(hl_text_src_t *src, char *dst, size_t cap, size_t *got,
                             hl_error_t *err);
void hl_text_src_close(hl_text_src_t *src); /* NULL is a no-op */

/* A compressing writer over one new storage file.  Opaque; heap object. */
typedef struct hl_text_sink hl_text_sink_t;

/* Creates PATH exclusively (borrowed, must outlive the sink).  Caller
 * finishes with hl_text_sink_close. */
hl_status_t hl_text_sink_open(hl_stor_t *fs, const char *path, hl_text_sink_t **out,
                              hl_error_t *err);
/* Compresses (if the codec says so) and appends LEN plain bytes. */
hl_status_t hl_text_sink_write(hl_text_sink_t *sink, const char *data, size_t len, hl_error_t *err);
/* Bytes of memory SINK holds: its output chunk and compressor state. */
uint64_t hl_text_sink_mem(const hl_text_sink_t *sink);
/* Ends the compressed stream, syncs and closes, then frees the sink (also
 * on error).  With ABORT set only closes and frees (no flush, no sync). */
hl_status_t hl_text_sink_close(hl_text_sink_t *sink, bool abort, hl_error_t *err);

/* RegexSerDe (text_regex.c).  Opaque; heap object, one per reader. */
typedef struct hl_text_regex hl_text_regex_t;
/* Compiles FMT's input.regex for N_COLS columns of TYPES (NAMES for
 * messages): a complex or BINARY column is 42804, a bad pattern 2201B. */
hl_status_t hl_text_regex_open(const hl_text_format_t *fmt, int n_cols,
                               const hl_type_t *const *types, const char *const *names,
                               hl_text_regex_t **out, hl_error_t *err);
void hl_text_regex_close(hl_text_regex_t *rx); /* NULL is a no-op */
/* Matches the line P[0..n) as a whole (*MATCHED).  A pattern whose group
 * count is not the column count is 22023 at the first line, as in Hive. */
hl_status_t hl_text_regex_match(hl_text_regex_t *rx, const char *p, size_t n, bool *matched,
                                hl_error_t *err);
/* Column COL's group of the last match: false when it took no part. */
bool hl_text_regex_group(const hl_text_regex_t *rx, int col, size_t *off, size_t *len);
/* Java's valueOf of a group (PRESENT false: a null group) for the types
 * whose Java parse differs from Hive's cast (integers: sign and digits
 * only; FLOAT/DOUBLE: Double.valueOf; BOOLEAN: "true" in any case, else
 * false, even for a null group).  False for other types. */
bool hl_text_regex_java_value(const hl_type_t *type, const char *p, size_t n, bool present,
                              hl_value_t *out);

/* Appends the base64 form (RFC 4648 alphabet with padding, no line breaks,
 * as commons-codec's encodeBase64 writes it) of DATA[0..len) to BUF. */
void hl_text_b64_encode(hl_buf_t *buf, const unsigned char *data, size_t len);
/* True when every byte of TEXT is in the base64 alphabet, '=' or white
 * space: what hl_text_b64_decode decodes. */
bool hl_text_b64_alphabet(const char *text, size_t len);
/* Hive's LazyBinary rule: when every byte of TEXT is in the base64
 * alphabet (or '=' or white space) the text is decoded leniently as
 * commons-codec does (white space skipped, decoding stops at '=', an
 * incomplete last quantum yields its whole bytes); otherwise the bytes are
 * taken as they are.  OUT gets at most LEN bytes and must hold LEN bytes;
 * returns the number of bytes written. */
size_t hl_text_b64_decode(const char *text, size_t len, unsigned char *out);

#endif
