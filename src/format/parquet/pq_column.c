/*
 * pq_column.c -- reading one Parquet column chunk: pages, levels, values.
 *
 * Called by pq_reader.c (see pq_column.h).  Page loop:
 *
 *   next_page: header (grown until it parses) -> CRC -> DICTIONARY: decode
 *              into dict_raw | DATA / DATA_V2: set up levels and the value
 *              decoder (body decompressed lazily, so a skipped flat page is
 *              never decompressed) | INDEX or unknown: passed over
 *   refill:    next PQ_LOOKAHEAD (or fewer) levels of the page
 *   take:      values for the consumed non-null entries, decoded into the
 *              raw scratch array, then converted (conv) into the vector or
 *              into hl_value_t entries
 *
 * Spec: parquet.thrift (PageHeader, DataPageHeader[V2]), Encodings.md,
 * README "Nested encoding", LogicalTypes.md (conversions).  Invariants: no
 * pointer derived from the file is used before being checked against the
 * chunk range or the page buffer; allocations are bounded by the chunk
 * size, PQ_MAX_PAGE_BYTES and PQ_LOOKAHEAD.
 */
#include "format/parquet/pq_codec.h"
#include "format/parquet/pq_encoding.h"
#include "format/parquet/pq_meta.h"
#include "format/parquet/pq_schema.h"

#include "format/parquet/pq_column.h"
#include "util/mem.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { VD_NONE, VD_PLAIN, VD_DICT, VD_RLE_BOOL, VD_DELTA, VD_DLBA, VD_DBA, VD_BSS };

struct pq_col {
  pq_col_spec_t s;
  /* window over the file */
  const uint8_t *win;
  uint64_t win_start;
  size_t win_len;
  uint8_t *own; /* private window buffer */
  size_t own_cap;
  uint64_t pos; /* next page header */
  bool chunk_done;
  /* dictionary */
  bool has_dict;
  bool seen_data;
  uint32_t dict_n;
  uint8_t *dict_buf; /* dictionary page bytes (decompressed or copied) */
  void *dict_raw;    /* dict_n raw values: int32/int64/float/double/int96/bytes */
  size_t dict_elem;
  size_t dict_bytes;  /* decompressed size of dict_buf */
  hl_str_t *dict_str; /* string columns: the entries as vector strings (dictionary views) */
  /* current data page */
  hl_pq_page_header_t ph;
  const uint8_t *body; /* compressed body (in the window), lazily decoded */
  bool body_ready;
  uint8_t *page_buf; /* decompressed page */
  size_t page_cap;
  uint64_t page_left;  /* level slots not yet moved to the lookahead */
  bool rep_bp, def_bp; /* deprecated BIT_PACKED levels */
  const uint8_t *rep_data, *def_data;
  size_t rep_len, def_len, lvl_first;
  hl_pq_rle_dec_t rep_dec, def_dec;
  int vd;
  const uint8_t *vdata;
  size_t vlen;
  size_t vfirst; /* PLAIN booleans / BYTE_STREAM_SPLIT: index of the next value */
  hl_pq_rle_dec_t dict_dec;
  hl_pq_rle_dec_t bool_dec;
  hl_pq_delta_dec_t delta_dec;
  hl_pq_dlba_dec_t dlba_dec;
  hl_pq_dba_dec_t dba_dec;
  hl_arena_t *page_arena; /* DELTA_BYTE_ARRAY values, reset per page */
  uint8_t *bss_buf;       /* FLBA BYTE_STREAM_SPLIT output */
  size_t bss_cap;
  /* lookahead */
  int16_t defs[PQ_LOOKAHEAD];
  int16_t reps[PQ_LOOKAHEAD];
  uint32_t la_pos, la_len;
  /* raw scratch: PQ_LOOKAHEAD values of the widest raw form, and one more */
  void *raw;
  pq_entries_t ent;
  uint64_t pages_skipped;
  uint64_t entries_seen;
};

/* ------------------------------------------------------------------ errors */

static hl_status_t corrupt(pq_col_t *c, hl_error_t *err, const char *what) {
  return hl_err_set(err, HL_CORRUPT, HL_SS(DATA_CORRUPTED), "column \"%s\": %s", c->s.col_name,
                    what);
}

static hl_status_t tag(pq_col_t *c, hl_status_t st, hl_error_t *err) {
  if (st != HL_OK && st != HL_DONE && st != HL_NOMEM)
    hl_err_prefix(err, "column \"%s\"", c->s.col_name);
  return st;
}

static size_t phys_width(const pq_col_t *c) {
  switch (c->s.phys) {
  case HL_PQ_BOOLEAN:
    return 1;
  case HL_PQ_INT32:
  case HL_PQ_FLOAT:
    return 4;
  case HL_PQ_INT64:
  case HL_PQ_DOUBLE:
    return 8;
  case HL_PQ_INT96:
    return 12;
  default:
    return sizeof(hl_pq_bytes_t);
  }
}

/* ------------------------------------------------------------------ window */

/* Makes file bytes [off, off + n) of the chunk addressable at *P. */
static hl_status_t ensure(pq_col_t *c, uint64_t off, size_t n, const uint8_t **p, hl_error_t *err) {
  uint64_t limit = c->s.file_size > c->s.chunk_end ? c->s.file_size : c->s.chunk_end;
  if (off < c->s.chunk_start || off > limit || n > limit - off)
    return corrupt(c, err, "page extends past the end of the file");
  if (c->win && off >= c->win_start && off - c->win_start <= c->win_len &&
      n <= c->win_len - (off - c->win_start)) {
    *p = c->win + (off - c->win_start);
    return HL_OK;
  }
  size_t want = n > PQ_WINDOW_BYTES ? n : PQ_WINDOW_BYTES;
  if (want > limit - off) want = (size_t)(limit - off);
  if (want > c->own_cap) {
    uint8_t *nb = hl_malloc(want ? want : 1);
    if (!nb) return hl_err_nomem(err);
    hl_free(c->own);
    c->own = nb;
    c->own_cap = want;
  }
  size_t got = 0;
  hl_status_t st = c->s.file->fs->ops->read_at(c->s.file, off, c->own, want, &got, err);
  if (st != HL_OK) return st;
  if (got < want) return corrupt(c, err, "file is truncated");
  c->win = c->own;
  c->win_start = off;
  c->win_len = want;
  *p = c->own;
  return HL_OK;
}

hl_status_t pq_col_create(const pq_col_spec_t *spec, const uint8_t *window, uint64_t win_start,
                          size_t win_len, pq_col_t **out, hl_error_t *err) {
  pq_col_t *c = hl_calloc(1, sizeof(*c));
  if (!c) return hl_err_nomem(err);
  c->s = *spec;
  c->win = window;
  c->win_start = win_start;
  c->win_len = win_len;
  c->pos = spec->chunk_start;
  size_t rw = phys_width(c) > 16 ? phys_width(c) : 16;
  c->raw = hl_calloc(PQ_LOOKAHEAD + 1, rw); /* + 1, and defined: see spread8 */
  c->page_arena = hl_arena_create(0);
  if (!c->raw || !c->page_arena) {
    pq_col_destroy(c);
    return hl_err_nomem(err);
  }
  *out = c;
  return HL_OK;
}

void pq_col_destroy(pq_col_t *c) {
  if (!c) return;
  hl_free(c->own);
  hl_free(c->dict_buf);
  hl_free(c->dict_raw);
  hl_free(c->dict_str);
  hl_free(c->page_buf);
  hl_free(c->bss_buf);
  hl_free(c->raw);
  hl_free(c->ent.def);
  hl_free(c->ent.rep);
  hl_free(c->ent.val);
  hl_arena_destroy(c->page_arena);
  hl_free(c);
}

pq_entries_t *pq_col_entries(pq_col_t *c) {
  return &c->ent;
}
uint64_t pq_col_pages_skipped(const pq_col_t *c) {
  return c->pages_skipped;
}

/* ------------------------------------------------------------------ pages */

static hl_status_t grow(uint8_t **buf, size_t *cap, size_t need, hl_error_t *err) {
  if (need <= *cap) return HL_OK;
  uint8_t *nb = hl_malloc(need);
  if (!nb) return hl_err_nomem(err);
  hl_free(*buf);
  *buf = nb;
  *cap = need;
  return HL_OK;
}

/* Decompresses (or copies) SRC of the current page into *BUF sized USIZE. */
static hl_status_t inflate(pq_col_t *c, const uint8_t *src, size_t clen, size_t usize,
                           uint8_t **buf, size_t *cap, hl_error_t *err) {
  hl_status_t st = grow(buf, cap, usize ? usize : 1, err);
  if (st != HL_OK) return st;
  if (c->s.codec == HL_PQ_UNCOMPRESSED) {
    if (clen != usize) return corrupt(c, err, "uncompressed page size does not match its header");
    if (usize) memcpy(*buf, src, usize);
    return HL_OK;
  }
  if (usize == 0 && clen == 0) return HL_OK;
  return tag(c, hl_pq_decompress((hl_parquet_codec_t)c->s.codec, src, clen, *buf, usize, err), err);
}

/* Strings that reach the vector unchanged (no VARCHAR truncation). */
static bool is_plain_string(const pq_col_t *c) {
  return (c->s.conv == HL_PQ_CV_STRING || c->s.conv == HL_PQ_CV_BINARY) && !c->s.trunc_chars &&
         (c->s.phys == HL_PQ_BYTE_ARRAY || c->s.phys == HL_PQ_FIXED_LEN_BYTE_ARRAY);
}

static hl_status_t decode_dictionary(pq_col_t *c, const uint8_t *body, hl_error_t *err) {
  const hl_pq_dict_page_header_t *dh = &c->ph.dictionary_page_header;
  if (c->has_dict || c->seen_data) return corrupt(c, err, "unexpected second dictionary page");
  if (dh->num_values < 0) return corrupt(c, err, "negative dictionary size");
  if (dh->encoding != HL_PQ_ENC_PLAIN && dh->encoding != HL_PQ_ENC_PLAIN_DICTIONARY)
    return corrupt(c, err, "unsupported dictionary encoding");
  size_t usize = (size_t)c->ph.uncompressed_page_size;
  size_t cap = 0;
  hl_status_t st =
      inflate(c, body, (size_t)c->ph.compressed_page_size, usize, &c->dict_buf, &cap, err);
  if (st != HL_OK) return st;
  uint32_t n = (uint32_t)dh->num_values;
  size_t w = phys_width(c);
  if (c->s.phys == HL_PQ_BOOLEAN) return corrupt(c, err, "dictionary for a BOOLEAN column");
  /* every encoded value takes at least one byte, except zero-length
   * strings, which take the 4-byte length: bound the allocation */
  if (n > usize) return corrupt(c, err, "dictionary has more values than bytes");
  c->dict_raw = hl_malloc(w * (n ? n : 1));
  if (!c->dict_raw) return hl_err_nomem(err);
  c->dict_n = n;
  c->dict_elem = w;
  c->dict_bytes = usize;
  switch (c->s.phys) {
  case HL_PQ_BYTE_ARRAY:
    st = hl_pq_plain_decode_bytes(c->dict_buf, usize, n, c->dict_raw, NULL, err);
    break;
  case HL_PQ_FIXED_LEN_BYTE_ARRAY:
    st = hl_pq_plain_decode_flba(c->dict_buf, usize, n, (uint32_t)c->s.type_length, c->dict_raw,
                                 NULL, err);
    break;
  default:
    st = hl_pq_plain_decode_fixed(c->dict_buf, usize, n, w, c->dict_raw, NULL, err);
    break;
  }
  if (st != HL_OK) return tag(c, st, err);
  if (is_plain_string(c)) {
    const hl_pq_bytes_t *b = c->dict_raw;
    c->dict_str = hl_malloc(sizeof(hl_str_t) * (n ? n : 1));
    if (!c->dict_str) return hl_err_nomem(err);
    for (uint32_t i = 0; i < n; i++) /* an empty value may have no pointer */
      c->dict_str[i] = (hl_str_t){b[i].len ? (const char *)b[i].ptr : "", b[i].len};
  }
  c->has_dict = true;
  return HL_OK;
}

/* Sets up levels and the value decoder of the current data page (decoding
 * the body).  Called the first time the page's levels are needed. */
static hl_status_t prepare_page(pq_col_t *c, hl_error_t *err) {
  hl_status_t st;
  const hl_pq_page_header_t *ph = &c->ph;
  size_t clen = (size_t)ph->compressed_page_size, usize = (size_t)ph->uncompressed_page_size;
  const uint8_t *data;
  size_t len;
  int enc;
  uint64_t nv = c->page_left;
  int bw_rep = hl_pq_bit_width((uint64_t)c->s.max_rep);
  int bw_def = hl_pq_bit_width((uint64_t)c->s.max_def);
  hl_arena_reset(c->page_arena);
  c->vfirst = 0;
  c->lvl_first = 0;
  if (ph->type == HL_PQ_PAGE_DATA) {
    const hl_pq_data_page_header_t *dp = &ph->data_page_header;
    st = inflate(c, c->body, clen, usize, &c->page_buf, &c->page_cap, err);
    if (st != HL_OK) return st;
    data = c->page_buf;
    len = usize;
    enc = dp->encoding;
    for (int which = 0; which < 2; which++) {
      int16_t maxl = which == 0 ? c->s.max_rep : c->s.max_def;
      if (maxl == 0) continue;
      int lenc = which == 0 ? dp->repetition_level_encoding : dp->definition_level_encoding;
      int bw = which == 0 ? bw_rep : bw_def;
      size_t used = 0;
      const char *what = which == 0 ? "repetition levels" : "definition levels";
      if (lenc == HL_PQ_ENC_BIT_PACKED) {
        if (!hl_pq_bitpacked_size(nv, bw, &used) || used > len)
          return corrupt(c, err, "level data extends past the page");
        if (which == 0)
          c->rep_bp = true, c->rep_data = data, c->rep_len = used;
        else
          c->def_bp = true, c->def_data = data, c->def_len = used;
      } else if (lenc == HL_PQ_ENC_RLE) {
        hl_pq_rle_dec_t *d = which == 0 ? &c->rep_dec : &c->def_dec;
        st = hl_pq_rle_init_prefixed(d, data, len, bw, (uint32_t)maxl, nv, what, &used, err);
        if (st != HL_OK) return tag(c, st, err);
        if (which == 0)
          c->rep_bp = false;
        else
          c->def_bp = false;
      } else {
        return corrupt(c, err, "unsupported level encoding");
      }
      data += used;
      len -= used;
    }
  } else {
    const hl_pq_data_page_header_v2_t *dp = &ph->data_page_header_v2;
    if (dp->repetition_levels_byte_length < 0 || dp->definition_levels_byte_length < 0)
      return corrupt(c, err, "negative level length");
    size_t rl = (size_t)dp->repetition_levels_byte_length;
    size_t dl = (size_t)dp->definition_levels_byte_length;
    if (rl > clen || dl > clen - rl || rl + dl > usize)
      return corrupt(c, err, "level lengths exceed the page size");
    enc = dp->encoding;
    c->rep_bp = c->def_bp = false;
    if (c->s.max_rep > 0) {
      st = hl_pq_rle_init(&c->rep_dec, c->body, rl, bw_rep, (uint32_t)c->s.max_rep, nv,
                          "repetition levels", err);
      if (st != HL_OK) return tag(c, st, err);
    }
    if (c->s.max_def > 0) {
      st = hl_pq_rle_init(&c->def_dec, c->body + rl, dl, bw_def, (uint32_t)c->s.max_def, nv,
                          "definition levels", err);
      if (st != HL_OK) return tag(c, st, err);
    }
    const uint8_t *vsrc = c->body + rl + dl;
    size_t vclen = clen - rl - dl, vulen = usize - rl - dl;
    if (dp->is_compressed && c->s.codec != HL_PQ_UNCOMPRESSED) {
      if (vclen == 0 && vulen == 0) {
        data = vsrc;
        len = 0;
      } else {
        st = grow(&c->page_buf, &c->page_cap, vulen ? vulen : 1, err);
        if (st != HL_OK) return st;
        st = hl_pq_decompress((hl_parquet_codec_t)c->s.codec, vsrc, vclen, c->page_buf, vulen, err);
        if (st != HL_OK) return tag(c, st, err);
        data = c->page_buf;
        len = vulen;
      }
    } else {
      if (vclen != vulen)
        return corrupt(c, err, "uncompressed page size does not match its header");
      data = vsrc;
      len = vclen;
    }
  }
  c->vdata = data;
  c->vlen = len;
  /* value decoder; the value count is at most the level count */
  switch (enc) {
  case HL_PQ_ENC_PLAIN:
    c->vd = VD_PLAIN;
    break;
  case HL_PQ_ENC_PLAIN_DICTIONARY:
  case HL_PQ_ENC_RLE_DICTIONARY:
    if (!c->has_dict) return corrupt(c, err, "dictionary-encoded page without a dictionary page");
    if (len == 0) {
      c->vd = VD_NONE; /* all null: fine unless a value is asked for */
      break;
    }
    st = hl_pq_dict_init(&c->dict_dec, data, len, c->dict_n, nv, err);
    if (st != HL_OK) return tag(c, st, err);
    c->vd = VD_DICT;
    break;
  case HL_PQ_ENC_RLE:
    if (c->s.phys != HL_PQ_BOOLEAN) return corrupt(c, err, "RLE encoding for a non-BOOLEAN column");
    if (len == 0) {
      c->vd = VD_NONE;
      break;
    }
    st = hl_pq_rle_init_prefixed(&c->bool_dec, data, len, 1, 1, nv, "boolean values", NULL, err);
    if (st != HL_OK) return tag(c, st, err);
    c->vd = VD_RLE_BOOL;
    break;
  case HL_PQ_ENC_DELTA_BINARY_PACKED:
    if (c->s.phys != HL_PQ_INT32 && c->s.phys != HL_PQ_INT64)
      return corrupt(c, err, "DELTA_BINARY_PACKED for a non-integer column");
    if (len == 0) {
      c->vd = VD_NONE;
      break;
    }
    st = hl_pq_delta_init(&c->delta_dec, data, len, c->s.phys == HL_PQ_INT64, nv, err);
    if (st != HL_OK) return tag(c, st, err);
    c->vd = VD_DELTA;
    break;
  case HL_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
    if (c->s.phys != HL_PQ_BYTE_ARRAY)
      return corrupt(c, err, "DELTA_LENGTH_BYTE_ARRAY for a non-BYTE_ARRAY column");
    if (len == 0) {
      c->vd = VD_NONE;
      break;
    }
    st = hl_pq_dlba_init(&c->dlba_dec, data, len, nv, err);
    if (st != HL_OK) return tag(c, st, err);
    c->vd = VD_DLBA;
    break;
  case HL_PQ_ENC_DELTA_BYTE_ARRAY:
    if (c->s.phys != HL_PQ_BYTE_ARRAY && c->s.phys != HL_PQ_FIXED_LEN_BYTE_ARRAY)
      return corrupt(c, err, "DELTA_BYTE_ARRAY for a non-byte-array column");
    if (len == 0) {
      c->vd = VD_NONE;
      break;
    }
    st = hl_pq_dba_init(&c->dba_dec, data, len, nv, c->page_arena, 0, err);
    if (st != HL_OK) return tag(c, st, err);
    c->vd = VD_DBA;
    break;
  case HL_PQ_ENC_BYTE_STREAM_SPLIT:
    if (c->s.phys == HL_PQ_BOOLEAN || c->s.phys == HL_PQ_BYTE_ARRAY || c->s.phys == HL_PQ_INT96)
      return corrupt(c, err, "BYTE_STREAM_SPLIT for an unsupported physical type");
    c->vd = VD_BSS;
    break;
  default:
    return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                      "column \"%s\": unsupported encoding %s", c->s.col_name,
                      hl_pq_encoding_name((hl_pq_encoding_t)enc));
  }
  c->body_ready = true;
  return HL_OK;
}

/* Moves to the next data page (HL_DONE at the end of the chunk).  The body
 * is checked (CRC) but not decoded yet. */
static hl_status_t next_page(pq_col_t *c, hl_error_t *err) {
  hl_status_t st;
  for (;;) {
    if (c->pos >= c->s.chunk_end || c->chunk_done) {
      c->chunk_done = true;
      return HL_DONE;
    }
    uint64_t limit = c->s.file_size > c->s.chunk_end ? c->s.file_size : c->s.chunk_end;
    size_t avail = (size_t)(limit - c->pos), hlen = 0, try_len = avail < 256 ? avail : 256;
    const uint8_t *p = NULL;
    for (;;) {
      bool need_more = false;
      st = ensure(c, c->pos, try_len, &p, err);
      if (st != HL_OK) return st;
      hl_error_t e2;
      hl_err_init(&e2);
      st = hl_pq_page_header_decode(NULL, p, try_len, &c->ph, &hlen, &need_more, &e2);
      if (st == HL_OK) {
        hl_err_clear(&e2);
        break;
      }
      if (need_more && try_len < avail) {
        hl_err_clear(&e2);
        try_len = try_len > avail / 4 ? avail : try_len * 4;
        continue;
      }
      hl_err_move(err, &e2);
      return tag(c, st, err);
    }
    const hl_pq_page_header_t *ph = &c->ph;
    size_t clen = (size_t)ph->compressed_page_size;
    if (clen > avail - hlen) return corrupt(c, err, "page extends past the end of the file");
    if ((size_t)ph->uncompressed_page_size > PQ_MAX_PAGE_BYTES)
      return hl_err_set(err, HL_ERROR, HL_SS(PROGRAM_LIMIT_EXCEEDED),
                        "column \"%s\": page of %d bytes exceeds the limit of %u bytes",
                        c->s.col_name, ph->uncompressed_page_size, PQ_MAX_PAGE_BYTES);
    uint64_t body_off = c->pos + hlen;
    c->pos = body_off + clen;
    if (ph->type != HL_PQ_PAGE_DATA && ph->type != HL_PQ_PAGE_DATA_V2 &&
        ph->type != HL_PQ_PAGE_DICTIONARY)
      continue; /* INDEX_PAGE and types from newer writers carry nothing we read */
    const uint8_t *body = NULL;
    st = ensure(c, body_off, clen, &body, err);
    if (st != HL_OK) return st;
    if (ph->has_crc && hl_pq_crc32(body, clen) != (uint32_t)ph->crc)
      return corrupt(c, err, "page checksum mismatch");
    if (ph->type == HL_PQ_PAGE_DICTIONARY) {
      st = decode_dictionary(c, body, err);
      if (st != HL_OK) return st;
      continue;
    }
    int32_t nv = ph->type == HL_PQ_PAGE_DATA ? ph->data_page_header.num_values
                                             : ph->data_page_header_v2.num_values;
    if (nv < 0) return corrupt(c, err, "negative value count in a page header");
    c->seen_data = true;
    if (nv == 0) continue;
    c->body = body;
    c->body_ready = false;
    c->page_left = (uint64_t)nv;
    return HL_OK;
  }
}

/* Makes a data page with levels left current and its body decoded (HL_DONE
 * at the end of the chunk). */
static hl_status_t ready_page(pq_col_t *c, hl_error_t *err) {
  hl_status_t st;
  while (c->page_left == 0)
    if ((st = next_page(c, err)) != HL_OK) return st;
  if (!c->body_ready && (st = prepare_page(c, err)) != HL_OK) return st;
  return HL_OK;
}

/* Decodes the next levels of the page into the lookahead (HL_DONE at the
 * end of the chunk). */
static hl_status_t refill(pq_col_t *c, hl_error_t *err) {
  hl_status_t st;
  if ((st = ready_page(c, err)) != HL_OK) return st;
  uint32_t n = c->page_left < PQ_LOOKAHEAD ? (uint32_t)c->page_left : PQ_LOOKAHEAD;
  if (c->s.max_rep > 0) {
    st = c->rep_bp ? hl_pq_bitpacked_decode(c->rep_data, c->rep_len,
                                            hl_pq_bit_width((uint64_t)c->s.max_rep),
                                            (uint32_t)c->s.max_rep, c->lvl_first, n, c->reps, err)
                   : hl_pq_rle_get_levels(&c->rep_dec, n, c->reps, err);
    if (st != HL_OK) return tag(c, st, err);
  } else {
    memset(c->reps, 0, n * sizeof(int16_t));
  }
  if (c->s.max_def > 0) {
    st = c->def_bp ? hl_pq_bitpacked_decode(c->def_data, c->def_len,
                                            hl_pq_bit_width((uint64_t)c->s.max_def),
                                            (uint32_t)c->s.max_def, c->lvl_first, n, c->defs, err)
                   : hl_pq_rle_get_levels(&c->def_dec, n, c->defs, err);
    if (st != HL_OK) return tag(c, st, err);
  } else {
    memset(c->defs, 0, n * sizeof(int16_t));
  }
  c->lvl_first += n;
  c->page_left -= n;
  c->la_pos = 0;
  c->la_len = n;
  return HL_OK;
}

/* Decodes the next N values of the page into OUT (N of the physical
 * width). */
static hl_status_t decode_into(pq_col_t *c, size_t n, void *out, hl_error_t *err) {
  hl_status_t st = HL_OK;
  size_t used = 0, w = phys_width(c);
  if (n == 0) return HL_OK;
  switch (c->vd) {
  case VD_PLAIN:
    switch (c->s.phys) {
    case HL_PQ_BOOLEAN:
      st = hl_pq_plain_decode_bool(c->vdata, c->vlen, c->vfirst, n, out, err);
      c->vfirst += n;
      break;
    case HL_PQ_BYTE_ARRAY:
      st = hl_pq_plain_decode_bytes(c->vdata, c->vlen, n, out, &used, err);
      break;
    case HL_PQ_FIXED_LEN_BYTE_ARRAY:
      st = hl_pq_plain_decode_flba(c->vdata, c->vlen, n, (uint32_t)c->s.type_length, out, &used,
                                   err);
      break;
    default:
      st = hl_pq_plain_decode_fixed(c->vdata, c->vlen, n, w, out, &used, err);
      break;
    }
    if (st == HL_OK) {
      c->vdata += used;
      c->vlen -= used;
    }
    break;
  case VD_DICT:
    st = hl_pq_dict_get(&c->dict_dec, c->dict_raw, c->dict_elem, n, out, err);
    break;
  case VD_RLE_BOOL:
    st = hl_pq_rle_get_bool(&c->bool_dec, n, out, err);
    break;
  case VD_DELTA:
    st = c->s.phys == HL_PQ_INT64 ? hl_pq_delta_get_i64(&c->delta_dec, n, out, err)
                                  : hl_pq_delta_get_i32(&c->delta_dec, n, out, err);
    break;
  case VD_DLBA:
    st = hl_pq_dlba_get(&c->dlba_dec, n, out, err);
    break;
  case VD_DBA:
    st = hl_pq_dba_get(&c->dba_dec, n, out, err);
    if (st == HL_OK && c->s.phys == HL_PQ_FIXED_LEN_BYTE_ARRAY) {
      hl_pq_bytes_t *b = out;
      for (size_t i = 0; i < n; i++)
        if (b[i].len != (uint32_t)c->s.type_length)
          return corrupt(c, err, "DELTA_BYTE_ARRAY value of the wrong length");
    }
    break;
  case VD_BSS: {
    size_t bw = c->s.phys == HL_PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)c->s.type_length : w;
    if (bw == 0 || c->vlen / bw < c->vfirst + n)
      return corrupt(c, err, "not enough values in the page");
    if (c->s.phys == HL_PQ_FIXED_LEN_BYTE_ARRAY) {
      hl_status_t g = grow(&c->bss_buf, &c->bss_cap, n * bw, err);
      if (g != HL_OK) return g;
      st = hl_pq_bss_decode(c->vdata, c->vlen, bw, c->vfirst, n, c->bss_buf, err);
      hl_pq_bytes_t *b = out;
      for (size_t i = 0; i < n; i++)
        b[i].ptr = c->bss_buf + i * bw, b[i].len = (uint32_t)bw;
    } else {
      st = hl_pq_bss_decode(c->vdata, c->vlen, bw, c->vfirst, n, out, err);
    }
    c->vfirst += n;
    break;
  }
  default:
    return corrupt(c, err, "page has fewer values than its levels say");
  }
  return tag(c, st, err);
}

/* Decodes the next N (<= PQ_LOOKAHEAD) values of the page into c->raw. */
static hl_status_t decode_raw(pq_col_t *c, size_t n, hl_error_t *err) {
  return decode_into(c, n, c->raw, err);
}

/* ------------------------------------------------------------------ conversion */

static double half_to_double(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = ldexp((double)mant, -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = ldexp((double)(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

/* Big-endian two's complement of any length into an int128; false when it
 * does not fit. */
static bool be_to_i128(const uint8_t *p, size_t len, __int128 *out) {
  if (len == 0) {
    *out = 0;
    return true;
  }
  uint8_t fill = (p[0] & 0x80) ? 0xff : 0;
  size_t skip = len > 16 ? len - 16 : 0;
  for (size_t i = 0; i < skip; i++)
    if (p[i] != fill) return false;
  if (skip && ((p[skip] ^ fill) & 0x80)) return false;
  unsigned __int128 v = fill ? ~(unsigned __int128)0 : 0;
  for (size_t i = skip; i < len; i++)
    v = (v << 8) | p[i];
  *out = (__int128)v;
  return true;
}

static bool ts_scale(int conv, int64_t v, int64_t *out) {
  switch (conv) {
  case HL_PQ_CV_TS_MILLIS:
    return !__builtin_mul_overflow(v, (int64_t)1000, out);
  case HL_PQ_CV_TS_NANOS:
    *out = v / 1000 - (v % 1000 < 0 ? 1 : 0);
    return true;
  default:
    *out = v;
    return true;
  }
}

uint32_t pq_utf8_prefix(const char *s, uint32_t len, uint32_t chars) {
  uint32_t i = 0, n = 0;
  while (i < len) {
    if (((uint8_t)s[i] & 0xc0) != 0x80) {
      if (n == chars) return i;
      n++;
    }
    i++;
  }
  return len;
}

/* Converts raw value I into *OUT (strings copied into ARENA; NULL arena:
 * borrowed). */
static hl_status_t conv_one(pq_col_t *c, const void *raw, size_t i, hl_value_t *out,
                            hl_arena_t *arena, hl_error_t *err) {
  out->is_null = false;
  switch (c->s.conv) {
  case HL_PQ_CV_BOOLEAN:
    out->u.b = ((const uint8_t *)raw)[i] != 0;
    break;
  case HL_PQ_CV_INT32:
  case HL_PQ_CV_DATE:
    out->u.i = ((const int32_t *)raw)[i];
    break;
  case HL_PQ_CV_UINT32:
    out->u.i = (uint32_t)((const int32_t *)raw)[i];
    break;
  case HL_PQ_CV_INT64:
  case HL_PQ_CV_TS_MICROS:
    out->u.i = ((const int64_t *)raw)[i];
    break;
  case HL_PQ_CV_TS_MILLIS:
  case HL_PQ_CV_TS_NANOS:
    if (!ts_scale(c->s.conv, ((const int64_t *)raw)[i], &out->u.i))
      return corrupt(c, err, "timestamp out of range");
    break;
  case HL_PQ_CV_TS_INT96:
    if (!hl_pq_int96_to_micros((const uint8_t *)raw + 12 * i, &out->u.i)) {
      /* out of the int64 range: wrap as Spark's long arithmetic does */
      const uint8_t *p = (const uint8_t *)raw + 12 * i;
      int64_t nanos;
      int32_t julian;
      memcpy(&nanos, p, 8);
      memcpy(&julian, p + 8, 4);
      uint64_t us = (uint64_t)((int64_t)julian - 2440588) * UINT64_C(86400000000) +
                    (uint64_t)(nanos / 1000 - (nanos % 1000 < 0));
      out->u.i = (int64_t)us;
    }
    break;
  case HL_PQ_CV_UINT64:
    out->u.dec = (__int128)(uint64_t)((const int64_t *)raw)[i];
    break;
  case HL_PQ_CV_DECIMAL_INT32:
    out->u.dec = ((const int32_t *)raw)[i];
    break;
  case HL_PQ_CV_DECIMAL_INT64:
    out->u.dec = ((const int64_t *)raw)[i];
    break;
  case HL_PQ_CV_DECIMAL_BYTES: {
    const hl_pq_bytes_t *b = (const hl_pq_bytes_t *)raw + i;
    if (!be_to_i128(b->ptr, b->len, &out->u.dec))
      return corrupt(c, err, "decimal value out of range");
    break;
  }
  case HL_PQ_CV_FLOAT:
    out->u.d = ((const float *)raw)[i];
    break;
  case HL_PQ_CV_DOUBLE:
    out->u.d = ((const double *)raw)[i];
    break;
  case HL_PQ_CV_FLOAT16: {
    const hl_pq_bytes_t *b = (const hl_pq_bytes_t *)raw + i;
    if (b->len != 2) return corrupt(c, err, "FLOAT16 value is not 2 bytes");
    out->u.d = half_to_double((uint16_t)(b->ptr[0] | (b->ptr[1] << 8)));
    break;
  }
  case HL_PQ_CV_STRING:
  case HL_PQ_CV_BINARY: {
    const hl_pq_bytes_t *b = (const hl_pq_bytes_t *)raw + i;
    uint32_t len = b->len;
    if (c->s.pad_chars && arena) {
      if (hl_char_fit(arena, c->s.trunc_chars, (const char *)b->ptr, len, &out->u.s) < 0)
        return hl_err_nomem(err);
      if (out->u.s.ptr != (const char *)b->ptr) break; /* a padded copy */
      len = out->u.s.len;
    } else if (c->s.trunc_chars) {
      len = pq_utf8_prefix((const char *)b->ptr, len, c->s.trunc_chars);
    }
    if (!arena) {
      out->u.s.ptr = (const char *)b->ptr;
    } else {
      char *p = hl_arena_alloc(arena, len ? len : 1);
      if (!p) return hl_err_nomem(err);
      if (len) memcpy(p, b->ptr, len);
      out->u.s.ptr = p;
    }
    out->u.s.len = len;
    break;
  }
  case HL_PQ_CV_UUID:
  case HL_PQ_CV_TIME_MILLIS:
  case HL_PQ_CV_TIME_MICROS:
  case HL_PQ_CV_TIME_NANOS: {
    char tmp[40];
    size_t len;
    if (c->s.conv == HL_PQ_CV_UUID) {
      const hl_pq_bytes_t *b = (const hl_pq_bytes_t *)raw + i;
      if (b->len != 16) return corrupt(c, err, "UUID value is not 16 bytes");
      hl_pq_format_uuid(b->ptr, tmp);
      len = 36;
    } else if (c->s.conv == HL_PQ_CV_TIME_MILLIS) {
      len = hl_pq_format_time(((const int32_t *)raw)[i], HL_PQ_UNIT_MILLIS, tmp);
    } else {
      len = hl_pq_format_time(
          ((const int64_t *)raw)[i],
          c->s.conv == HL_PQ_CV_TIME_MICROS ? HL_PQ_UNIT_MICROS : HL_PQ_UNIT_NANOS, tmp);
    }
    if (!arena) return corrupt(c, err, "cannot compare this type");
    char *p = hl_arena_strndup(arena, tmp, len);
    if (!p) return hl_err_nomem(err);
    out->u.s.ptr = p;
    out->u.s.len = (uint32_t)len;
    break;
  }
  default:
    return corrupt(c, err, "unsupported conversion");
  }
  return HL_OK;
}

/* Bit j set: DEFS[j] (j < M <= 64) is not MAXD, a NULL. */
static uint64_t null_bits(const int16_t *defs, uint32_t m, int16_t maxd) {
  uint64_t bits = 0;
  uint32_t j = 0;
#ifdef __SSE2__
  __m128i mx = _mm_set1_epi16(maxd);
  for (; j + 16 <= m; j += 16) { /* 16 levels per compare */
    __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(defs + j));
    __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(defs + j + 8));
    __m128i eq = _mm_packs_epi16(_mm_cmpeq_epi16(lo, mx), _mm_cmpeq_epi16(hi, mx));
    bits |= (uint64_t)(uint16_t)~_mm_movemask_epi8(eq) << j;
  }
#endif
  for (; j < m; j++)
    bits |= (uint64_t)(defs[j] != maxd) << j;
  return bits;
}

/* Marks the rows ROW0.. of VEC whose level in DEFS[0..n) is not the
 * maximum NULL.  HL_NOMEM. */
static hl_status_t mark_nulls(const pq_col_t *c, const int16_t *defs, uint32_t n, hl_vec_t *vec,
                              uint32_t row0, hl_arena_t *arena) {
  if (!vec->validity) {
    vec->validity = hl_arena_alloc(arena, HL_BATCH_CAP / 8);
    if (!vec->validity) return HL_NOMEM;
    memset(vec->validity, 0xff, HL_BATCH_CAP / 8);
  }
  /* a word of the bitmap at a time, without a branch per row */
  for (uint32_t i = 0; i < n;) {
    uint32_t r = row0 + i, b = r & 63, m = 64 - b < n - i ? 64 - b : n - i;
    vec->validity[r >> 6] &= ~(null_bits(defs + i, m, c->s.max_def) << b);
    i += m;
  }
  return HL_OK;
}

/* Dictionary-encoded strings of a span: the entry numbers go to IDX[0..n)
 * (NULL rows: 0) and the vector's strings point at the entries, which live
 * until the column chunk ends -- in a later call of the reader, after the
 * caller is done with this batch -- so nothing is copied and equal values
 * share one pointer. */
static hl_status_t take_dict_strings(pq_col_t *c, const int16_t *defs, uint32_t n, size_t nn,
                                     hl_vec_t *vec, uint32_t row0, uint32_t *idx, hl_arena_t *arena,
                                     hl_error_t *err) {
  hl_status_t st = hl_pq_rle_get_u32(&c->dict_dec, nn, idx, err);
  if (st != HL_OK) return tag(c, st, err);
  hl_str_t *dst = HL_VEC_STR(vec) + row0;
  if (nn == n) {
    for (uint32_t i = 0; i < n; i++)
      dst[i] = c->dict_str[idx[i]];
    return HL_OK;
  }
  if (mark_nulls(c, defs, n, vec, row0, arena) != HL_OK) return hl_err_nomem(err);
  size_t k = nn; /* spread the present values out, last first: k <= i throughout */
  for (uint32_t i = n; i-- > 0;) {
    if (defs[i] == c->s.max_def) {
      idx[i] = idx[--k];
      dst[i] = c->dict_str[idx[i]];
    } else {
      idx[i] = 0;
      dst[i] = (hl_str_t){"", 0};
    }
  }
  return HL_OK;
}

/* Spreads the present 8-byte values SRC[0..) over DST[0..n) by the levels
 * (NULL rows: 0) without a branch per row; SRC is read one past the
 * present values, so it must have room for one more (c->raw has). */
static void spread8(const void *src, void *dst, const int16_t *defs, uint32_t n, int16_t maxd) {
  size_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x;
    memcpy(&x, (const uint8_t *)src + 8 * k, 8);
    uint64_t p = defs[i] == maxd;
    x &= 0 - p; /* a mask, not a conditional: compilers branch on "p ? x : 0" */
    memcpy((uint8_t *)dst + 8 * (size_t)i, &x, 8);
    k += p;
  }
}

/* Stores the NN raw values into the vector slots of the non-null entries
 * among DEFS[0..n) (rows ROW0..), marking the others NULL. */
static hl_status_t scatter(pq_col_t *c, const int16_t *defs, uint32_t n, size_t nn, hl_vec_t *vec,
                           uint32_t row0, hl_arena_t *arena, hl_error_t *err) {
  int16_t maxd = c->s.max_def;
  if (nn < n && mark_nulls(c, defs, n, vec, row0, arena) != HL_OK) return hl_err_nomem(err);
  /* fast paths for the common layouts; one conversion switch per call */
  size_t k = 0;
  switch (c->s.conv) {
  case HL_PQ_CV_INT32:
  case HL_PQ_CV_DATE: {
    const int32_t *src = c->raw;
    int64_t *dst = HL_VEC_I64(vec) + row0;
    if (nn == n) {
      for (uint32_t i = 0; i < n; i++)
        dst[i] = src[i];
    } else {
      for (uint32_t i = 0; i < n; i++)
        dst[i] = defs[i] == maxd ? src[k++] : 0;
    }
    return HL_OK;
  }
  case HL_PQ_CV_INT64:
  case HL_PQ_CV_TS_MICROS: {
    if (nn == n)
      memcpy(HL_VEC_I64(vec) + row0, c->raw, n * sizeof(int64_t));
    else
      spread8(c->raw, HL_VEC_I64(vec) + row0, defs, n, maxd);
    return HL_OK;
  }
  case HL_PQ_CV_DECIMAL_INT32:
  case HL_PQ_CV_DECIMAL_INT64: {
    if (hl_type_phys(vec->type) != HL_P_I128) break;
    __int128 *dst = HL_VEC_I128(vec) + row0;
    if (c->s.conv == HL_PQ_CV_DECIMAL_INT64) {
      const int64_t *src = c->raw;
      for (uint32_t i = 0; i < n; i++)
        dst[i] = (nn == n || defs[i] == maxd) ? src[k++] : 0;
    } else {
      const int32_t *src = c->raw;
      for (uint32_t i = 0; i < n; i++)
        dst[i] = (nn == n || defs[i] == maxd) ? src[k++] : 0;
    }
    return HL_OK;
  }
  case HL_PQ_CV_DOUBLE: {
    if (nn == n)
      memcpy(HL_VEC_F64(vec) + row0, c->raw, n * sizeof(double));
    else
      spread8(c->raw, HL_VEC_F64(vec) + row0, defs, n, maxd);
    return HL_OK;
  }
  case HL_PQ_CV_FLOAT: {
    const float *src = c->raw;
    double *dst = HL_VEC_F64(vec) + row0;
    for (uint32_t i = 0; i < n; i++)
      dst[i] = (nn == n || defs[i] == maxd) ? src[k++] : 0;
    return HL_OK;
  }
  case HL_PQ_CV_BOOLEAN: {
    const uint8_t *src = c->raw;
    uint8_t *dst = HL_VEC_BOOL(vec) + row0;
    for (uint32_t i = 0; i < n; i++)
      dst[i] = (nn == n || defs[i] == maxd) ? src[k++] : 0;
    return HL_OK;
  }
  case HL_PQ_CV_STRING:
  case HL_PQ_CV_BINARY:
    if (!c->s.trunc_chars) {
      /* one allocation for the strings of the whole run */
      const hl_pq_bytes_t *src = c->raw;
      hl_str_t *dst = HL_VEC_STR(vec) + row0;
      size_t total = 0;
      for (size_t j = 0; j < nn; j++)
        total += src[j].len;
      char *p = hl_arena_alloc(arena, total ? total : 1);
      if (!p) return hl_err_nomem(err);
      for (uint32_t i = 0; i < n; i++) {
        if (nn != n && defs[i] != maxd) {
          dst[i].ptr = "";
          dst[i].len = 0;
          continue;
        }
        uint32_t len = src[k].len;
        if (len) memcpy(p, src[k].ptr, len);
        dst[i].ptr = p;
        dst[i].len = len;
        p += len;
        k++;
      }
      return HL_OK;
    }
    break;
  default:
    break;
  }
  hl_phys_t ph = hl_type_phys(vec->type);
  for (uint32_t i = 0; i < n; i++) {
    if (nn != n && defs[i] != maxd) continue;
    hl_value_t v;
    hl_status_t st = conv_one(c, c->raw, k++, &v, arena, err);
    if (st != HL_OK) return st;
    uint32_t row = row0 + i;
    switch (ph) {
    case HL_P_BOOL:
      HL_VEC_BOOL(vec)[row] = v.u.b;
      break;
    case HL_P_I64:
      HL_VEC_I64(vec)[row] = v.u.i;
      break;
    case HL_P_F64:
      HL_VEC_F64(vec)[row] = v.u.d;
      break;
    case HL_P_I128:
      HL_VEC_I128(vec)[row] = v.u.dec;
      break;
    case HL_P_STR:
      HL_VEC_STR(vec)[row] = v.u.s;
      break;
    default:
      return corrupt(c, err, "column type does not fit its vector");
    }
  }
  return HL_OK;
}

static size_t count_present(const int16_t *defs, uint32_t n, int16_t maxd) {
  size_t nn = 0;
  for (uint32_t i = 0; i < n; i++)
    nn += defs[i] == maxd;
  return nn;
}

/* With the lookahead used up: makes the next data page ready and takes
 * the levels of its next rows (at most MAX) that are known to be present
 * without decoding them -- all of a required column's, or a run of the
 * maximum definition level.  *M is how many (0: decode levels as usual). */
static hl_status_t take_present(pq_col_t *c, uint32_t max, uint32_t *m, hl_error_t *err) {
  hl_status_t st;
  *m = 0;
  if ((st = ready_page(c, err)) != HL_OK) return st;
  size_t k = c->page_left < max ? (size_t)c->page_left : max;
  if (c->s.max_def > 0) {
    if (c->def_bp) return HL_OK;
    if ((st = hl_pq_rle_take_run(&c->def_dec, (uint32_t)c->s.max_def, k, &k, err)) != HL_OK)
      return tag(c, st, err);
  }
  c->page_left -= k;
  c->lvl_first += k;
  *m = (uint32_t)k;
  return HL_OK;
}

/* Whether values reach an 8-byte vector unchanged (no conversion). */
static bool is_plain8(const pq_col_t *c, const hl_vec_t *vec) {
  if (c->s.phys == HL_PQ_INT64)
    return (c->s.conv == HL_PQ_CV_INT64 || c->s.conv == HL_PQ_CV_TS_MICROS) &&
           hl_type_phys(vec->type) == HL_P_I64;
  return c->s.phys == HL_PQ_DOUBLE && c->s.conv == HL_PQ_CV_DOUBLE &&
         hl_type_phys(vec->type) == HL_P_F64;
}

/* One pq_col_read_flat call. */
typedef struct flat {
  hl_vec_t *vec;
  hl_arena_t *arena;
  uint32_t row0, n_rows;
  uint32_t *idx; /* dictionary entry of each row, while every span is dictionary-encoded */
  bool all_dict;
} flat_t;

/* Rows [ROW, ROW + K) of the vector from the page's next values: NN of the
 * rows are present, their levels in DEFS (NULL when all are, NN == K). */
static hl_status_t put_rows(pq_col_t *c, flat_t *f, const int16_t *defs, uint32_t k, size_t nn,
                            uint32_t row, hl_error_t *err) {
  if (nn > 0 && c->vd == VD_DICT && c->dict_str) {
    if (!f->idx) {
      f->idx = hl_arena_alloc(f->arena, sizeof(uint32_t) * (f->row0 + f->n_rows));
      if (!f->idx) return hl_err_nomem(err);
      memset(f->idx, 0, sizeof(uint32_t) * row);
    }
    return take_dict_strings(c, defs, k, nn, f->vec, row, f->idx + row, f->arena, err);
  }
  if (nn > 0) f->all_dict = false;
  if (f->idx) memset(f->idx + row, 0, sizeof(uint32_t) * k);
  if (nn == k && is_plain8(c, f->vec)) {
    /* a whole batch of PLAIN values is the page's bytes: the vector points
     * at them (the page buffer is only reused in a later call) */
    if (c->vd == VD_PLAIN && row == 0 && k == f->n_rows && c->vlen / 8 >= k &&
        (uintptr_t)c->vdata % 8 == 0) {
      f->vec->data = (void *)(uintptr_t)c->vdata;
      c->vdata += 8 * (size_t)k;
      c->vlen -= 8 * (size_t)k;
      return HL_OK;
    }
    return decode_into(c, k, (uint8_t *)f->vec->data + 8 * (size_t)row, err); /* straight in */
  }
  if (defs && nn < k && c->vd == VD_PLAIN && is_plain8(c, f->vec) && c->vlen / 8 > nn) {
    /* PLAIN values spread straight from the page, which holds a value past
     * them (spread8 reads one ahead) */
    if (mark_nulls(c, defs, k, f->vec, row, f->arena) != HL_OK) return hl_err_nomem(err);
    spread8(c->vdata, (uint8_t *)f->vec->data + 8 * (size_t)row, defs, k, c->s.max_def);
    c->vdata += 8 * nn;
    c->vlen -= 8 * nn;
    return HL_OK;
  }
  for (uint32_t off = 0; off < k;) { /* through c->raw, PQ_LOOKAHEAD at a time */
    uint32_t kk = defs || k - off < PQ_LOOKAHEAD ? k - off : PQ_LOOKAHEAD;
    size_t nk = defs ? nn : kk;
    hl_status_t st = decode_raw(c, nk, err);
    if (st == HL_OK) st = scatter(c, defs, kk, nk, f->vec, row + off, f->arena, err);
    if (st != HL_OK) return st;
    off += kk;
  }
  return HL_OK;
}

hl_status_t pq_col_read_flat(pq_col_t *c, uint32_t n_rows, hl_vec_t *vec, uint32_t row0,
                             hl_arena_t *arena, hl_error_t *err) {
  flat_t f = {.vec = vec, .arena = arena, .row0 = row0, .n_rows = n_rows, .all_dict = true};
  uint32_t done = 0;
  hl_status_t st;
  while (done < n_rows) {
    if (c->la_pos == c->la_len) {
      /* rows known present skip the lookahead: no levels materialised */
      uint32_t m;
      st = take_present(c, n_rows - done, &m, err);
      if (st == HL_OK && m > 0) st = put_rows(c, &f, NULL, m, m, row0 + done, err);
      if (st == HL_DONE) return corrupt(c, err, "column chunk has fewer rows than its row group");
      if (st != HL_OK) return st;
      if (m > 0) {
        done += m;
        continue;
      }
      st = refill(c, err);
      if (st != HL_OK) return st;
    }
    uint32_t k = c->la_len - c->la_pos;
    if (k > n_rows - done) k = n_rows - done;
    const int16_t *defs = c->defs + c->la_pos;
    size_t nn = c->s.max_def ? count_present(defs, k, c->s.max_def) : k;
    if ((st = put_rows(c, &f, defs, k, nn, row0 + done, err)) != HL_OK) return st;
    c->la_pos += k;
    done += k;
  }
  /* a dictionary view only of a whole batch from one dictionary */
  bool view = f.idx && f.all_dict && row0 == 0;
  vec->dict = view ? c->dict_str : NULL;
  vec->dict_idx = view ? f.idx : NULL;
  vec->dict_n = view ? c->dict_n : 0;
  return HL_OK;
}

static hl_status_t ent_reserve(pq_col_t *c, size_t more, hl_error_t *err) {
  pq_entries_t *e = &c->ent;
  if (e->n + more <= e->cap) return HL_OK;
  size_t ncap = e->cap ? e->cap * 2 : 4096;
  while (ncap < e->n + more)
    ncap *= 2;
  int16_t *d = hl_realloc(e->def, ncap * sizeof(int16_t));
  if (!d) return hl_err_nomem(err);
  e->def = d;
  int16_t *r = hl_realloc(e->rep, ncap * sizeof(int16_t));
  if (!r) return hl_err_nomem(err);
  e->rep = r;
  hl_value_t *v = hl_realloc(e->val, ncap * sizeof(hl_value_t));
  if (!v) return hl_err_nomem(err);
  e->val = v;
  e->cap = ncap;
  return HL_OK;
}

/* Consumes entries of up to N_ROWS rows (KEEP: append them to the entry
 * arrays).  *GOT is the rows consumed; fewer than asked only at the end of
 * the chunk. */
static hl_status_t consume(pq_col_t *c, uint64_t n_rows, bool keep, hl_arena_t *arena,
                           uint64_t *got, hl_error_t *err) {
  uint64_t rows = 0;
  bool first = true;
  for (;;) {
    if (c->la_pos == c->la_len) {
      hl_status_t st = refill(c, err);
      if (st == HL_DONE) break;
      if (st != HL_OK) return st;
    }
    /* span [la_pos, j): stop before the row start past the last wanted row */
    uint32_t j = c->la_pos;
    if (first && c->reps[j] != 0) return corrupt(c, err, "repetition levels do not start a record");
    first = false;
    while (j < c->la_len) {
      if (c->reps[j] == 0) {
        if (rows == n_rows) break;
        rows++;
      }
      j++;
    }
    uint32_t k = j - c->la_pos;
    const int16_t *defs = c->defs + c->la_pos;
    size_t nn = count_present(defs, k, c->s.max_def);
    hl_status_t st = decode_raw(c, nn, err);
    if (st != HL_OK) return st;
    if (keep) {
      if ((st = ent_reserve(c, k, err)) != HL_OK) return st;
      pq_entries_t *e = &c->ent;
      memcpy(e->def + e->n, defs, k * sizeof(int16_t));
      memcpy(e->rep + e->n, c->reps + c->la_pos, k * sizeof(int16_t));
      size_t vi = 0;
      for (uint32_t i = 0; i < k; i++) {
        hl_value_t *v = &e->val[e->n + i];
        if (defs[i] != c->s.max_def) {
          v->is_null = true;
          continue;
        }
        if (c->s.discard) {
          v->is_null = true;
          vi++;
          continue;
        }
        if ((st = conv_one(c, c->raw, vi++, v, arena, err)) != HL_OK) return st;
      }
      e->n += k;
    }
    c->entries_seen += k;
    c->la_pos = j;
    if (j < c->la_len) break; /* stopped at the next row */
  }
  *got = rows;
  return HL_OK;
}

hl_status_t pq_col_read_entries(pq_col_t *c, uint32_t n_rows, hl_arena_t *arena, hl_error_t *err) {
  uint64_t got = 0;
  hl_status_t st = consume(c, n_rows, true, arena, &got, err);
  if (st != HL_OK) return st;
  if (got < n_rows) return corrupt(c, err, "column chunk has fewer rows than its row group");
  return HL_OK;
}

hl_status_t pq_col_skip_rows(pq_col_t *c, uint64_t n_rows, hl_error_t *err) {
  /* a flat column's page holds exactly its level count of rows: pages that
   * end before the target are dropped without being decompressed */
  if (c->s.max_rep == 0) {
    while (n_rows > 0) {
      if (c->la_pos == c->la_len) {
        while (c->page_left == 0) {
          hl_status_t st = next_page(c, err);
          if (st == HL_DONE)
            return corrupt(c, err, "column chunk has fewer rows than its row group");
          if (st != HL_OK) return st;
        }
        if (!c->body_ready && c->page_left <= n_rows) {
          n_rows -= c->page_left;
          c->page_left = 0;
          c->pages_skipped++;
          continue;
        }
        hl_status_t st = refill(c, err);
        if (st != HL_OK) return st;
      }
      uint32_t k = c->la_len - c->la_pos;
      if (k > n_rows) k = (uint32_t)n_rows;
      size_t nn = count_present(c->defs + c->la_pos, k, c->s.max_def);
      hl_status_t st = decode_raw(c, nn, err);
      if (st != HL_OK) return st;
      c->la_pos += k;
      n_rows -= k;
    }
    return HL_OK;
  }
  uint64_t got = 0;
  hl_status_t st = consume(c, n_rows, false, NULL, &got, err);
  if (st != HL_OK) return st;
  if (got < n_rows) return corrupt(c, err, "column chunk has fewer rows than its row group");
  return HL_OK;
}

/* ------------------------------------------------------------------ statistics */

bool pq_stat_value(int phys, int32_t type_length, int conv, const uint8_t *bytes, size_t len,
                   hl_value_t *out) {
  pq_col_t c;
  uint8_t raw[16];
  hl_pq_bytes_t b = {bytes, (uint32_t)len};
  hl_error_t e;
  memset(&c.s, 0, sizeof(c.s));
  c.s.phys = phys;
  c.s.conv = conv;
  c.s.col_name = "";
  const void *src = raw;
  switch (phys) {
  case HL_PQ_BOOLEAN:
    if (len != 1) return false;
    raw[0] = bytes[0] & 1;
    break;
  case HL_PQ_INT32:
  case HL_PQ_FLOAT:
    if (len != 4) return false;
    memcpy(raw, bytes, 4);
    break;
  case HL_PQ_INT64:
  case HL_PQ_DOUBLE:
    if (len != 8) return false;
    memcpy(raw, bytes, 8);
    break;
  case HL_PQ_INT96:
    if (len != 12) return false;
    memcpy(raw, bytes, 12);
    break;
  case HL_PQ_FIXED_LEN_BYTE_ARRAY:
    if (len != (size_t)type_length) return false;
    src = &b;
    break;
  default:
    if (len > UINT32_MAX) return false;
    src = &b;
    break;
  }
  if (conv == HL_PQ_CV_UUID || conv == HL_PQ_CV_TIME_MILLIS || conv == HL_PQ_CV_TIME_MICROS ||
      conv == HL_PQ_CV_TIME_NANOS)
    return false;
  hl_err_init(&e);
  bool ok = conv_one(&c, src, 0, out, NULL, &e) == HL_OK;
  hl_err_clear(&e);
  return ok;
}
