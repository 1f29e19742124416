/*
 * hms_int.h -- what the codec files of src/hms share and nobody else
 * needs: the field-loop macros of the struct decoders and the allocation
 * and container helpers of hms_codec.c and the field writers of the
 * encoders, so that hms_ddl.c and hms_query.c (and later codec
 * files) decode with the same budget and the same checks.
 */
#ifndef HL_HMS_HMS_INT_H
#define HL_HMS_HMS_INT_H

#include "hms/hms.h"

#include <string.h>

/* Zeroed arena memory for N bytes, charged to the decoder's budget. */
hl_status_t hl_hms_dalloc(hl_hms_dec_t *d, size_t n, void **out);
/* A list header whose element type must be WANT (an empty list may say
 * any type). */
hl_status_t hl_hms_list_header(hl_hms_dec_t *d, hl_ttype_t want, uint32_t *n);
hl_status_t hl_hms_read_strmap(hl_hms_dec_t *d, hl_hms_strmap_t *out);
/* list<struct>: ELEM_SIZE bytes per element, each read by READ. */
hl_status_t hl_hms_read_struct_list(hl_hms_dec_t *d, size_t elem_size,
                                    hl_status_t (*read)(hl_hms_dec_t *, void *), void **items,
                                    uint32_t *n);
/* Field writers of the struct encoders: field ID holding the value (a NULL
 * string is an absent field). */
static inline void hl_hms_w_str(hl_buf_t *b, int16_t id, const char *s) {
  if (!s) return;
  hl_tw_field(b, HL_TT_STRING, id);
  hl_tw_string(b, s);
}
static inline void hl_hms_w_i32(hl_buf_t *b, int16_t id, int32_t v) {
  hl_tw_field(b, HL_TT_I32, id);
  hl_tw_i32(b, v);
}
static inline void hl_hms_w_i64(hl_buf_t *b, int16_t id, int64_t v) {
  hl_tw_field(b, HL_TT_I64, id);
  hl_tw_i64(b, v);
}
static inline void hl_hms_w_bool(hl_buf_t *b, int16_t id, int v) {
  hl_tw_field(b, HL_TT_BOOL, id);
  hl_tw_bool(b, v);
}
static inline void hl_hms_w_strlist(hl_buf_t *b, int16_t id, const hl_hms_strlist_t *v) {
  hl_tw_field(b, HL_TT_LIST, id);
  hl_hms_write_strlist(b, v);
}

/* Field ID holding map<string, string> V. */
void hl_hms_write_strmap(hl_buf_t *b, int16_t id, const hl_hms_strmap_t *v);

/* An optional struct field: allocated, then read. */
#define READ_PTR(d, ptr, fn)                                                                       \
  (hl_hms_dalloc((d), sizeof *(ptr), (void **)&(ptr)) ? (d)->r.err->code : fn((d), (ptr)))

/* The field loop of a struct decoder: FIELD(id, wire type, expression)
 * reads a known field; any other id, or a known id with another wire type,
 * is skipped. */
#define FIELDS_BEGIN(d)                                                                            \
  hl_ttype_t ft_;                                                                                  \
  int16_t fid_;                                                                                    \
  hl_status_t rc_;                                                                                 \
  memset(out, 0, sizeof *out);                                                                     \
  if ((rc_ = hl_tr_enter(&(d)->r))) return rc_;                                                    \
  while (!(rc_ = hl_tr_field(&(d)->r, &ft_, &fid_)) && ft_ != HL_TT_STOP) {                        \
    switch (fid_) {
#define FIELD(id, type, expr)                                                                      \
  case id:                                                                                         \
    if (ft_ == (type)) {                                                                           \
      rc_ = (expr);                                                                                \
      goto next_;                                                                                  \
    }                                                                                              \
    break;
#define FIELDS_END(d)                                                                              \
  default:                                                                                         \
    break;                                                                                         \
    }                                                                                              \
    rc_ = hl_tr_skip(&(d)->r, ft_);                                                                \
  next_:                                                                                           \
    if (rc_) break;                                                                                \
    }                                                                                              \
    hl_tr_leave(&(d)->r);

#define R               (&d->r)
#define HAS(flag, expr) ((flag) = 1, (expr))

#endif
