/*
 * orc_tail.c -- the ORC file tail: PostScript, Footer and the type tree.
 *
 * The last byte of the file is the PostScript's length; the PostScript
 * (never compressed) gives the compression kind, the block size and the
 * Footer's and Metadata's lengths; the Footer (compressed) holds the
 * stripes and the flattened schema.  Protobuf messages are unpacked with
 * protobuf-c into the reader's arena.  Validation done here, so the rest
 * of the reader can trust it: every stripe lies inside the file, the type
 * tree is a tree (each subtype id greater than its parent's, one parent
 * each), and struct field names match their subtypes.
 */
#include "format/orc/orc_int.h"

#include "util/type.h"

#include <string.h>

static void *pb_alloc(void *data, size_t size) {
  return hl_arena_alloc(data, size ? size : 1);
}

static void pb_free(void *data, void *ptr) {
  (void)data;
  (void)ptr;
}

void hl_orc_pb_allocator(ProtobufCAllocator *a, hl_arena_t *arena) {
  a->alloc = pb_alloc;
  a->free = pb_free;
  a->allocator_data = arena;
}

hl_status_t hl_orc_section(const hl_orc_tail_t *tail, const uint8_t *src, size_t len,
                           hl_arena_t *arena, uint8_t **out, size_t *out_len, hl_error_t *err) {
  if (tail->codec == HL_ORC_NONE) {
    *out = (uint8_t *)src;
    *out_len = len;
    return HL_OK;
  }
  hl_orc_stream_t s;
  hl_orc_stream_init(&s, src, len, tail->codec, tail->block, arena, err);
  s.name = "metadata section";
  hl_status_t st = hl_orc_stream_all(&s, (uint64_t)1 << 28, out, out_len);
  if (st == HL_OK && !*out) *out = (uint8_t *)"";
  return st;
}

static hl_status_t read_exact(hl_stor_t *fs, hl_stor_file_t *f, uint64_t off, void *buf, size_t len,
                              hl_error_t *err) {
  size_t got = 0;
  hl_status_t st = fs->ops->read_at(f, off, buf, len, &got, err);
  if (st != HL_OK) return st;
  if (got != len) return hl_orc_corrupt(err, "file is truncated");
  return HL_OK;
}

/* Checks the type tree and fills tail->parent. */
static hl_status_t check_types(hl_orc_tail_t *t, hl_arena_t *arena, hl_error_t *err) {
  const Orcpb__Footer *ft = t->footer;
  size_t n = ft->n_types;
  if (n == 0) return hl_orc_corrupt(err, "the footer has no types");
  if (n > (size_t)1 << 20) return hl_orc_corrupt(err, "too many types");
  t->parent = hl_arena_alloc(arena, sizeof(int) * n);
  if (!t->parent) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++)
    t->parent[i] = -2;
  t->parent[0] = -1;
  int *depth = hl_arena_zalloc(arena, sizeof(int) * n);
  if (!depth) return hl_err_nomem(err);
  for (size_t i = 0; i < n; i++) {
    const Orcpb__Type *ty = ft->types[i];
    if (t->parent[i] == -2) return hl_orc_corrupt(err, "type %zu is not in the schema tree", i);
    /* the decoders recurse once per level */
    if (i > 0 && (depth[i] = depth[t->parent[i]] + 1) > HL_ORC_MAX_DEPTH)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "types nested deeper than %d levels are not supported", HL_ORC_MAX_DEPTH);
    size_t want_kids = 0;
    bool any_kids = false;
    switch (ty->kind) {
    case ORCPB__TYPE__KIND__LIST:
      want_kids = 1;
      break;
    case ORCPB__TYPE__KIND__MAP:
      want_kids = 2;
      break;
    case ORCPB__TYPE__KIND__STRUCT:
      any_kids = true;
      if (ty->n_field_names != ty->n_subtypes)
        return hl_orc_corrupt(err, "struct type %zu has %zu fields but %zu names", i,
                              ty->n_subtypes, ty->n_field_names);
      break;
    case ORCPB__TYPE__KIND__UNION:
      any_kids = true;
      if (ty->n_subtypes == 0) return hl_orc_corrupt(err, "union type %zu has no variants", i);
      break;
    default:
      if ((unsigned)ty->kind > ORCPB__TYPE__KIND__TIMESTAMP_INSTANT)
        return hl_orc_corrupt(err, "type %zu has unknown kind %d", i, (int)ty->kind);
      break;
    }
    if (!any_kids && ty->n_subtypes != want_kids)
      return hl_orc_corrupt(err, "type %zu has %zu subtypes", i, ty->n_subtypes);
    for (size_t k = 0; k < ty->n_subtypes; k++) {
      uint32_t c = ty->subtypes[k];
      if (c <= i || c >= n || t->parent[c] != -2)
        return hl_orc_corrupt(err, "type %zu has a bad subtype %u", i, c);
      t->parent[c] = (int)i;
    }
  }
  return HL_OK;
}

hl_status_t hl_orc_tail_read(hl_stor_t *fs, hl_stor_file_t *f, uint64_t size, hl_arena_t *arena,
                             hl_orc_tail_t *tail, hl_error_t *err) {
  memset(tail, 0, sizeof *tail);
  tail->file_size = size;
  uint8_t last[256];
  size_t n_last = size < sizeof last ? (size_t)size : sizeof last;
  hl_status_t st = read_exact(fs, f, size - n_last, last, n_last, err);
  if (st != HL_OK) return st;
  size_t ps_len = last[n_last - 1];
  if (ps_len == 0 || ps_len + 1 > n_last) return hl_orc_corrupt(err, "bad PostScript length");
  ProtobufCAllocator pa;
  hl_orc_pb_allocator(&pa, arena);
  Orcpb__PostScript *ps = orcpb__post_script__unpack(&pa, ps_len, last + n_last - 1 - ps_len);
  if (!ps) return hl_orc_corrupt(err, "not an ORC file (bad PostScript)");
  if (ps->magic && strcmp(ps->magic, "ORC") != 0)
    return hl_orc_corrupt(err, "not an ORC file (bad magic)");
  if (!ps->magic) { /* early writers left the magic out of the PostScript */
    uint8_t head[3];
    if (size < 3 || read_exact(fs, f, 0, head, 3, err) != HL_OK || memcmp(head, "ORC", 3) != 0)
      return err->code != HL_OK ? err->code : hl_orc_corrupt(err, "not an ORC file");
  }
  tail->writer_version = ps->writer_version;
  tail->version[0] = ps->n_version > 0 ? ps->version[0] : 0;
  tail->version[1] = ps->n_version > 1 ? ps->version[1] : 11;
  if ((unsigned)ps->compression > HL_ORC_ZSTD)
    return hl_orc_corrupt(err, "unknown compression kind %d", (int)ps->compression);
  tail->codec = (hl_orc_codec_t)ps->compression;
  tail->block = HL_ORC_DEFAULT_BLOCK;
  if (ps->has_compression_block_size) {
    if (ps->compression_block_size == 0 || ps->compression_block_size > HL_ORC_MAX_BLOCK)
      return hl_orc_corrupt(err, "bad compression block size %llu",
                            (unsigned long long)ps->compression_block_size);
    tail->block = (size_t)ps->compression_block_size;
  }
  uint64_t footer_len = ps->footer_length, meta_len = ps->metadata_length;
  uint64_t avail = size - 1 - ps_len;
  if (footer_len == 0 || footer_len > avail || meta_len > avail - footer_len)
    return hl_orc_corrupt(err, "bad footer length");
  uint8_t *raw = hl_arena_alloc(arena, (size_t)footer_len);
  if (!raw) return hl_err_nomem(err);
  if ((st = read_exact(fs, f, avail - footer_len, raw, (size_t)footer_len, err)) != HL_OK)
    return st;
  uint8_t *plain;
  size_t plain_len;
  if ((st = hl_orc_section(tail, raw, (size_t)footer_len, arena, &plain, &plain_len, err)) != HL_OK)
    return st;
  tail->footer = orcpb__footer__unpack(&pa, plain_len, plain);
  if (!tail->footer) return hl_orc_corrupt(err, "bad footer");
  if ((st = check_types(tail, arena, err)) != HL_OK) return st;
  uint64_t content_end = avail - footer_len - meta_len;
  tail->meta_off = content_end;
  tail->meta_len = meta_len;
  for (size_t i = 0; i < tail->footer->n_stripes; i++) {
    const Orcpb__StripeInformation *si = tail->footer->stripes[i];
    uint64_t end = si->offset;
    if (__builtin_add_overflow(end, si->index_length, &end) ||
        __builtin_add_overflow(end, si->data_length, &end) ||
        __builtin_add_overflow(end, si->footer_length, &end) || end > content_end ||
        si->footer_length == 0)
      return hl_orc_corrupt(err, "stripe %zu lies outside the file", i);
  }
  return HL_OK;
}

hl_status_t hl_orc_metadata_read(hl_stor_t *fs, hl_stor_file_t *f, hl_arena_t *arena,
                                 hl_orc_tail_t *tail, hl_error_t *err) {
  tail->metadata = NULL;
  if (tail->meta_len == 0) return HL_OK;
  uint8_t *raw = hl_arena_alloc(arena, (size_t)tail->meta_len);
  if (!raw) return hl_err_nomem(err);
  hl_status_t st = read_exact(fs, f, tail->meta_off, raw, (size_t)tail->meta_len, err);
  uint8_t *plain;
  size_t plain_len;
  if (st == HL_OK)
    st = hl_orc_section(tail, raw, (size_t)tail->meta_len, arena, &plain, &plain_len, err);
  if (st != HL_OK) return st;
  ProtobufCAllocator pa;
  hl_orc_pb_allocator(&pa, arena);
  tail->metadata = orcpb__metadata__unpack(&pa, plain_len, plain);
  if (!tail->metadata) return hl_orc_corrupt(err, "bad metadata section");
  return HL_OK;
}

hl_status_t hl_orc_hive_type(const hl_orc_tail_t *tail, uint32_t id, hl_arena_t *arena,
                             hl_type_t **out, hl_error_t *err) {
  const Orcpb__Type *ty = tail->footer->types[id];
  hl_type_id_t tid;
  switch (ty->kind) {
  case ORCPB__TYPE__KIND__BOOLEAN:
    tid = HL_T_BOOLEAN;
    break;
  case ORCPB__TYPE__KIND__BYTE:
    tid = HL_T_TINYINT;
    break;
  case ORCPB__TYPE__KIND__SHORT:
    tid = HL_T_SMALLINT;
    break;
  case ORCPB__TYPE__KIND__INT:
    tid = HL_T_INT;
    break;
  case ORCPB__TYPE__KIND__LONG:
    tid = HL_T_BIGINT;
    break;
  case ORCPB__TYPE__KIND__FLOAT:
    tid = HL_T_FLOAT;
    break;
  case ORCPB__TYPE__KIND__DOUBLE:
    tid = HL_T_DOUBLE;
    break;
  case ORCPB__TYPE__KIND__STRING:
    tid = HL_T_STRING;
    break;
  case ORCPB__TYPE__KIND__BINARY:
    tid = HL_T_BINARY;
    break;
  case ORCPB__TYPE__KIND__TIMESTAMP:
  case ORCPB__TYPE__KIND__TIMESTAMP_INSTANT:
    tid = HL_T_TIMESTAMP;
    break;
  case ORCPB__TYPE__KIND__DATE:
    tid = HL_T_DATE;
    break;
  case ORCPB__TYPE__KIND__DECIMAL: {
    /* Hive 0.11 wrote DECIMAL without precision: values carry their own
     * scale; Hive reads such columns as decimal(38,18) */
    int p = ty->precision ? (int)ty->precision : 38;
    int s = ty->precision ? (int)ty->scale : 18;
    if (p < 1 || p > 38 || s < 0 || s > p)
      return hl_orc_corrupt(err, "bad decimal(%u,%u) type", ty->precision, ty->scale);
    *out = hl_type_decimal(arena, p, s);
    return *out ? HL_OK : hl_err_nomem(err);
  }
  case ORCPB__TYPE__KIND__VARCHAR:
  case ORCPB__TYPE__KIND__CHAR: {
    bool is_char = ty->kind == ORCPB__TYPE__KIND__CHAR;
    int max = is_char ? 255 : 65535;
    int len = ty->has_maximum_length
                  ? (int)(ty->maximum_length > (uint32_t)max ? (uint32_t)max : ty->maximum_length)
                  : max;
    if (len < 1) len = 1;
    *out = hl_type_varchar(arena, is_char ? HL_T_CHAR : HL_T_VARCHAR, len);
    return *out ? HL_OK : hl_err_nomem(err);
  }
  case ORCPB__TYPE__KIND__UNION:
    /* the tags stream holds a byte per value: Hive reads at most 128 */
    if (ty->n_subtypes > HL_UNION_MAX_TAGS)
      return hl_err_set(err, HL_UNSUPPORTED, HL_SS(FEATURE_NOT_SUPPORTED),
                        "ORC UNION type %u has %zu variants, more than the %d Hive reads", id,
                        ty->n_subtypes, HL_UNION_MAX_TAGS);
    /* fall through */
  case ORCPB__TYPE__KIND__LIST:
  case ORCPB__TYPE__KIND__MAP:
  case ORCPB__TYPE__KIND__STRUCT: {
    hl_type_t *t = hl_arena_zalloc(arena, sizeof *t);
    size_t n = ty->n_subtypes;
    if (!t) return hl_err_nomem(err);
    t->id = ty->kind == ORCPB__TYPE__KIND__LIST    ? HL_T_ARRAY
            : ty->kind == ORCPB__TYPE__KIND__MAP   ? HL_T_MAP
            : ty->kind == ORCPB__TYPE__KIND__UNION ? HL_T_UNION
                                                   : HL_T_STRUCT;
    t->n_children = (int)n;
    t->children = hl_arena_zalloc(arena, sizeof(hl_type_t *) * (n ? n : 1));
    if (!t->children) return hl_err_nomem(err);
    if (t->id == HL_T_STRUCT) {
      t->field_names = hl_arena_zalloc(arena, sizeof(char *) * (n ? n : 1));
      if (!t->field_names) return hl_err_nomem(err);
    }
    for (size_t k = 0; k < n; k++) {
      hl_status_t st = hl_orc_hive_type(tail, ty->subtypes[k], arena, &t->children[k], err);
      if (st != HL_OK) return st;
      if (t->field_names && !(t->field_names[k] = hl_arena_strdup(arena, ty->field_names[k])))
        return hl_err_nomem(err);
    }
    *out = t;
    return HL_OK;
  }
  default:
    return hl_orc_corrupt(err, "type %u has unknown kind %d", id, (int)ty->kind);
  }
  *out = (hl_type_t *)hl_type_prim(tid);
  return HL_OK;
}
