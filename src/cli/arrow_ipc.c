/*
 * arrow_ipc.c -- `--format arrow`: a result as an Arrow IPC stream.
 *
 * The stream is what the Arrow columnar format specification calls the
 * IPC streaming format: a Schema message, one RecordBatch message per
 * batch hl_stmt_arrow_next gives (the library's C Data Interface arrays,
 * include/hivelite.h), then the end-of-stream marker.  Each message is
 * the continuation marker 0xFFFFFFFF, the metadata's length, the
 * metadata -- a flatbuffer `Message` table (Arrow's Message.fbs and
 * Schema.fbs) -- padded to 8 bytes, then the body: the batch's buffers in
 * the pre-order of its fields, each padded to 8 bytes.  A script of
 * several queries writes one stream per result, one after the other
 * (Arrow readers such as pyarrow's and apache-arrow's `readAll` take
 * them in turn).
 *
 * Why a flatbuffer writer of our own: Debian packages neither Arrow's C++
 * library (no libarrow-dev) nor nanoarrow, and the flatbuffers runtime
 * would bring a code generator and a schema compiler for three message
 * types.  Writing those three tables takes a builder of a page: tables
 * with their vtables, strings, vectors of tables and of structs, built
 * back to front as flatbuffers are, so that every offset points forward.
 * Only the writer is here; the CLI reads no Arrow.
 *
 * Like the rest of src/cli this sees only include/hivelite.h.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- flatbuffer builder */

#define FB_MAX_FIELDS 8

/* A flatbuffer built from its end: data occupies the last LEN bytes of
 * BUF; a "position" is a distance from the end, stable as the buffer
 * grows at the front. */
typedef struct fb {
  unsigned char *buf;
  size_t cap, len;
  int oom;
  uint32_t fields[FB_MAX_FIELDS]; /* the open table's fields (positions; 0: absent) */
  int n_fields;
  size_t table_start;
} fb_t;

static unsigned char *fb_at(fb_t *b, size_t pos) {
  return b->buf + b->cap - pos;
}

static int fb_room(fb_t *b, size_t n) {
  if (b->oom) return -1;
  if (b->cap - b->len >= n) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < n)
    cap *= 2;
  unsigned char *grown = malloc(cap);
  if (!grown) {
    b->oom = 1;
    return -1;
  }
  if (b->len) memcpy(grown + cap - b->len, b->buf + b->cap - b->len, b->len);
  free(b->buf);
  b->buf = grown;
  b->cap = cap;
  return 0;
}

static void fb_push(fb_t *b, const void *p, size_t n) {
  if (n == 0 || fb_room(b, n) != 0) return;
  b->len += n;
  memcpy(fb_at(b, b->len), p, n);
}

/* Little-endian scalars whatever the host (flatbuffers are little-endian). */
static void fb_push_le(fb_t *b, uint64_t v, size_t size) {
  unsigned char bytes[8];
  for (size_t i = 0; i < size; i++)
    bytes[i] = (unsigned char)(v >> (8 * i));
  fb_push(b, bytes, size);
}

/* Zero bytes until EXTRA more bytes would end on an ALIGN boundary. */
static void fb_align(fb_t *b, size_t align, size_t extra) {
  static const unsigned char zeros[8];
  size_t pad = (align - (b->len + extra) % align) % align;
  fb_push(b, zeros, pad);
}

/* An offset to the object at TARGET, stored in a field about to be pushed. */
static void fb_push_offset(fb_t *b, uint32_t target) {
  fb_align(b, 4, 0);
  fb_push_le(b, (uint32_t)(b->len + 4 - target), 4);
}

static uint32_t fb_string(fb_t *b, const char *s) {
  size_t n = strlen(s);
  fb_align(b, 4, n + 1);
  fb_push(b, "", 1);
  fb_push(b, s, n);
  fb_push_le(b, n, 4);
  return (uint32_t)b->len;
}

/* A vector of N structs of SIZE bytes each (8-byte aligned), ELEMS in
 * order and already little-endian. */
static uint32_t fb_struct_vector(fb_t *b, const void *elems, size_t n, size_t size) {
  fb_align(b, 8, n * size);
  if (n) fb_push(b, elems, n * size);
  fb_push_le(b, n, 4);
  return (uint32_t)b->len;
}

/* A vector of N offsets to the tables at OBJS. */
static uint32_t fb_table_vector(fb_t *b, const uint32_t *objs, size_t n) {
  fb_align(b, 4, 4 * n);
  for (size_t i = n; i-- > 0;)
    fb_push_le(b, (uint32_t)(b->len + 4 - objs[i]), 4);
  fb_push_le(b, n, 4);
  return (uint32_t)b->len;
}

static void fb_start(fb_t *b) {
  memset(b->fields, 0, sizeof b->fields);
  b->n_fields = 0;
  b->table_start = b->len;
}

static void fb_field_at(fb_t *b, int id) {
  b->fields[id] = (uint32_t)b->len;
  if (id + 1 > b->n_fields) b->n_fields = id + 1;
}

static void fb_add_scalar(fb_t *b, int id, uint64_t v, size_t size) {
  fb_align(b, size, 0);
  fb_push_le(b, v, size);
  fb_field_at(b, id);
}

static void fb_add_offset(fb_t *b, int id, uint32_t target) {
  fb_push_offset(b, target);
  fb_field_at(b, id);
}

/* Ends the open table: its soffset to a vtable written just before it. */
static uint32_t fb_end(fb_t *b) {
  fb_align(b, 4, 0);
  fb_push_le(b, 0, 4); /* the vtable's soffset, set below */
  size_t table = b->len;
  for (int i = b->n_fields; i-- > 0;)
    fb_push_le(b, b->fields[i] ? table - b->fields[i] : 0, 2);
  fb_push_le(b, table - b->table_start, 2);
  fb_push_le(b, 4 + 2 * (size_t)b->n_fields, 2);
  if (b->oom) return 0;
  /* the table's address minus its vtable's: positive, the vtable is first */
  uint32_t soff = (uint32_t)(b->len - table);
  unsigned char *p = fb_at(b, table);
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(soff >> (8 * i));
  return (uint32_t)table;
}

/* The root offset; the buffer's size is then a multiple of 8. */
static void fb_finish(fb_t *b, uint32_t root) {
  fb_align(b, 8, 4);
  fb_push_le(b, (uint32_t)(b->len + 4 - root), 4);
}

/* ---------------------------------------------------- Arrow metadata */

/* Message.fbs / Schema.fbs: union tags and enum values used here */
enum {
  MH_SCHEMA = 1,
  MH_RECORD_BATCH = 3,
  METADATA_V5 = 4,
  T_NULL = 1,
  T_INT = 2,
  T_FLOAT = 3,
  T_BINARY = 4,
  T_UTF8 = 5,
  T_BOOL = 6,
  T_DECIMAL = 7,
  T_DATE = 8,
  T_TIMESTAMP = 10,
  T_LIST = 12,
  T_STRUCT = 13,
  T_MAP = 17
};

/* The buffers of an array in the IPC body, by its format string. */
typedef enum layout {
  L_NONE,  /* null: no buffers */
  L_BITS,  /* validity + bit-packed values */
  L_FIXED, /* validity + values of WIDTH bytes */
  L_VAR,   /* validity + int32 offsets + bytes */
  L_LIST,  /* validity + int32 offsets (+m too) */
  L_STRUCT /* validity */
} layout_t;

/* What FORMAT is: its layout, value width, and the flatbuffer Type table
 * it becomes (written into B; *TAG its union tag).  -1: a format this
 * writer does not know. */
static int type_of(fb_t *b, const char *format, layout_t *layout, size_t *width, uint8_t *tag,
                   uint32_t *table) {
  int bits = 0, precision = 0, scale = 0, used = 0;
  *width = 0;
  if (strcmp(format, "n") == 0) {
    *layout = L_NONE;
    *tag = T_NULL;
  } else if (strcmp(format, "b") == 0) {
    *layout = L_BITS;
    *tag = T_BOOL;
  } else if (strcmp(format, "c") == 0 || strcmp(format, "s") == 0 || strcmp(format, "i") == 0 ||
             strcmp(format, "l") == 0) {
    bits = format[0] == 'c' ? 8 : format[0] == 's' ? 16 : format[0] == 'i' ? 32 : 64;
    *layout = L_FIXED;
    *width = (size_t)bits / 8;
    *tag = T_INT;
  } else if (strcmp(format, "f") == 0 || strcmp(format, "g") == 0) {
    *layout = L_FIXED;
    *width = format[0] == 'f' ? 4 : 8;
    *tag = T_FLOAT;
  } else if (sscanf(format, "d:%d,%d%n", &precision, &scale, &used) == 2 && !format[used]) {
    *layout = L_FIXED;
    *width = 16;
    *tag = T_DECIMAL;
  } else if (strcmp(format, "u") == 0 || strcmp(format, "z") == 0) {
    *layout = L_VAR;
    *tag = format[0] == 'u' ? T_UTF8 : T_BINARY;
  } else if (strcmp(format, "tdD") == 0) {
    *layout = L_FIXED;
    *width = 4;
    *tag = T_DATE;
  } else if (strcmp(format, "tsu:") == 0) {
    *layout = L_FIXED;
    *width = 8;
    *tag = T_TIMESTAMP;
  } else if (strcmp(format, "+l") == 0 || strcmp(format, "+m") == 0) {
    *layout = L_LIST;
    *tag = format[1] == 'l' ? T_LIST : T_MAP;
  } else if (strcmp(format, "+s") == 0) {
    *layout = L_STRUCT;
    *tag = T_STRUCT;
  } else {
    return -1;
  }
  if (!b) return 0;
  fb_start(b);
  switch (*tag) {
  case T_INT:
    fb_add_scalar(b, 0, (uint32_t)bits, 4); /* bitWidth */
    fb_add_scalar(b, 1, 1, 1);              /* is_signed */
    break;
  case T_FLOAT: /* precision: SINGLE 1, DOUBLE 2 */
    fb_add_scalar(b, 0, *width == 4 ? 1 : 2, 2);
    break;
  case T_DECIMAL:
    fb_add_scalar(b, 0, (uint32_t)precision, 4);
    fb_add_scalar(b, 1, (uint32_t)scale, 4);
    fb_add_scalar(b, 2, 128, 4);
    break;
  case T_DATE: /* unit DAY: written, the default is MILLISECOND */
    fb_add_scalar(b, 0, 0, 2);
    break;
  case T_TIMESTAMP: /* unit MICROSECOND; no timezone: naive wall-clock */
    fb_add_scalar(b, 0, 2, 2);
    break;
  case T_MAP: /* keysSorted false */
    fb_add_scalar(b, 0, 0, 1);
    break;
  default: /* Null, Bool, Utf8, Binary, List, Struct_: empty tables */
    break;
  }
  *table = fb_end(b);
  return 0;
}

/* The Field table of S and its children.  -1: an unknown format. */
static int field_table(fb_t *b, const struct ArrowSchema *s, uint32_t *out) {
  uint32_t *kids = s->n_children ? calloc((size_t)s->n_children, sizeof *kids) : NULL;
  if (s->n_children && !kids) {
    b->oom = 1;
    return 0;
  }
  int rc = 0;
  for (int64_t i = 0; rc == 0 && i < s->n_children; i++)
    rc = field_table(b, s->children[i], &kids[i]);
  uint32_t kids_vec = rc == 0 ? fb_table_vector(b, kids, (size_t)s->n_children) : 0;
  free(kids);
  if (rc != 0) return rc;
  uint32_t name = fb_string(b, s->name ? s->name : "");
  layout_t layout;
  size_t width;
  uint8_t tag;
  uint32_t type = 0;
  if (type_of(b, s->format, &layout, &width, &tag, &type) != 0) return -1;
  fb_start(b);
  fb_add_offset(b, 0, name);
  fb_add_scalar(b, 1, (s->flags & ARROW_FLAG_NULLABLE) ? 1 : 0, 1);
  fb_add_scalar(b, 2, tag, 1);
  fb_add_offset(b, 3, type);
  fb_add_offset(b, 5, kids_vec);
  *out = fb_end(b);
  return 0;
}

static bool host_is_big_endian(void) {
  uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 0;
}

/* A Message of header type TAG at HEADER with BODY_LEN bytes of body. */
static void message(fb_t *b, uint8_t tag, uint32_t header, int64_t body_len) {
  fb_start(b);
  fb_add_scalar(b, 3, (uint64_t)body_len, 8); /* bodyLength */
  fb_add_offset(b, 2, header);
  fb_add_scalar(b, 0, METADATA_V5, 2); /* version */
  fb_add_scalar(b, 1, tag, 1);         /* header_type */
  fb_finish(b, fb_end(b));
}

/* ------------------------------------------------------- the stream */

/* The body of one record batch: its field nodes and buffers, pre-order. */
typedef struct body {
  unsigned char *nodes; /* FieldNode structs, little-endian, 16 bytes each */
  unsigned char *bufs;  /* Buffer structs */
  const void **data;    /* each buffer's bytes */
  size_t n_nodes, n_bufs, cap_nodes, cap_bufs;
  int64_t size; /* body bytes so far, each buffer padded to 8 */
  int oom;
} body_t;

static void put_le64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void body_node(body_t *bd, int64_t length, int64_t null_count) {
  if (bd->oom) return;
  if (bd->n_nodes == bd->cap_nodes) {
    size_t cap = bd->cap_nodes ? 2 * bd->cap_nodes : 16;
    unsigned char *nodes = realloc(bd->nodes, 16 * cap);
    if (!nodes) {
      bd->oom = 1;
      return;
    }
    bd->nodes = nodes;
    bd->cap_nodes = cap;
  }
  put_le64(bd->nodes + 16 * bd->n_nodes, (uint64_t)length);
  put_le64(bd->nodes + 16 * bd->n_nodes + 8, (uint64_t)null_count);
  bd->n_nodes++;
}

static void body_buffer(body_t *bd, const void *data, int64_t len) {
  if (bd->oom) return;
  if (bd->n_bufs == bd->cap_bufs) {
    size_t cap = bd->cap_bufs ? 2 * bd->cap_bufs : 16;
    unsigned char *bufs = realloc(bd->bufs, 16 * cap);
    if (bufs) bd->bufs = bufs;
    const void **ptrs = bufs ? realloc(bd->data, sizeof *ptrs * cap) : NULL;
    if (!ptrs) {
      bd->oom = 1;
      return;
    }
    bd->data = ptrs;
    bd->cap_bufs = cap;
  }
  put_le64(bd->bufs + 16 * bd->n_bufs, (uint64_t)bd->size);
  put_le64(bd->bufs + 16 * bd->n_bufs + 8, (uint64_t)len);
  bd->data[bd->n_bufs++] = data;
  bd->size += (len + 7) & ~(int64_t)7;
}

/* Adds array A (of schema S) and its children to the body.  -1: an array
 * this writer cannot lay out (an offset, an unknown format). */
static int body_add(body_t *bd, const struct ArrowSchema *s, const struct ArrowArray *a) {
  layout_t layout;
  size_t width;
  uint8_t tag;
  if (type_of(NULL, s->format, &layout, &width, &tag, NULL) != 0 || a->offset != 0 ||
      a->n_children != s->n_children)
    return -1;
  body_node(bd, a->length, a->null_count);
  int64_t n = a->length, bitmap = (n + 7) / 8;
  if (layout != L_NONE) body_buffer(bd, a->buffers[0], a->null_count ? bitmap : 0);
  switch (layout) {
  case L_BITS:
    body_buffer(bd, a->buffers[1], bitmap);
    break;
  case L_FIXED:
    body_buffer(bd, a->buffers[1], n * (int64_t)width);
    break;
  case L_VAR:
    body_buffer(bd, a->buffers[1], 4 * (n + 1));
    body_buffer(bd, a->buffers[2], ((const int32_t *)a->buffers[1])[n]);
    break;
  case L_LIST:
    body_buffer(bd, a->buffers[1], 4 * (n + 1));
    break;
  default:
    break;
  }
  for (int64_t i = 0; i < a->n_children; i++)
    if (body_add(bd, s->children[i], a->children[i]) != 0) return -1;
  return 0;
}

/* Writes the message in B with BODY (NULL: none) on OUT. */
static void write_message(FILE *out, fb_t *b, const body_t *body) {
  static const unsigned char zeros[8];
  uint32_t marker = 0xffffffffu, len = (uint32_t)b->len;
  unsigned char prefix[8];
  memcpy(prefix, &marker, 4);
  for (int i = 0; i < 4; i++)
    prefix[4 + i] = (unsigned char)(len >> (8 * i));
  fwrite(prefix, 1, 8, out);
  fwrite(fb_at(b, b->len), 1, b->len, out);
  for (size_t i = 0; body && i < body->n_bufs; i++) {
    const unsigned char *e = body->bufs + 16 * i + 8;
    uint64_t n = 0;
    for (int k = 0; k < 8; k++)
      n |= (uint64_t)e[k] << (8 * k);
    if (n) fwrite(body->data[i], 1, n, out);
    fwrite(zeros, 1, (8 - n % 8) % 8, out);
  }
}

/* The Schema message of S. */
static int schema_message(fb_t *b, const struct ArrowSchema *s) {
  uint32_t *fields = s->n_children ? calloc((size_t)s->n_children, sizeof *fields) : NULL;
  if (s->n_children && !fields) return -1;
  int rc = 0;
  for (int64_t i = 0; rc == 0 && i < s->n_children; i++)
    rc = field_table(b, s->children[i], &fields[i]);
  uint32_t vec = rc == 0 ? fb_table_vector(b, fields, (size_t)s->n_children) : 0;
  free(fields);
  if (rc != 0) return -1;
  fb_start(b);
  fb_add_offset(b, 1, vec);
  fb_add_scalar(b, 0, host_is_big_endian() ? 1 : 0, 2); /* endianness */
  message(b, MH_SCHEMA, fb_end(b), 0);
  return b->oom ? -1 : 0;
}

/* The RecordBatch message of A (schema S) into B and BODY. */
static int batch_message(fb_t *b, body_t *body, const struct ArrowSchema *s,
                         const struct ArrowArray *a) {
  /* the top-level struct is the batch itself, not a field: its columns are */
  for (int64_t i = 0; i < a->n_children; i++)
    if (i >= s->n_children || body_add(body, s->children[i], a->children[i]) != 0) return -1;
  if (body->oom) return -1;
  uint32_t bufs = fb_struct_vector(b, body->bufs, body->n_bufs, 16);
  uint32_t nodes = fb_struct_vector(b, body->nodes, body->n_nodes, 16);
  fb_start(b);
  fb_add_scalar(b, 0, (uint64_t)a->length, 8);
  fb_add_offset(b, 1, nodes);
  fb_add_offset(b, 2, bufs);
  message(b, MH_RECORD_BATCH, fb_end(b), body->size);
  return b->oom ? -1 : 0;
}

hl_status_t hl_cli_print_arrow(hl_cli_t *cli, hl_stmt_t *stmt, hl_status_t first) {
  (void)first; /* a row hl_step returned is the first of the first batch */
  struct ArrowSchema schema;
  hl_status_t rc = hl_stmt_arrow_schema(stmt, &schema);
  if (rc != HL_OK) return rc;
  fb_t b = {0};
  if (schema_message(&b, &schema) != 0) {
    rc = HL_NOMEM;
  } else {
    write_message(cli->out, &b, NULL);
    for (;;) {
      struct ArrowArray a;
      rc = hl_stmt_arrow_next(stmt, &a);
      if (rc != HL_OK) break;
      if (!a.release) {
        rc = HL_DONE;
        break;
      }
      body_t body = {0};
      b.len = 0;
      int ok = batch_message(&b, &body, &schema, &a) == 0;
      if (ok) write_message(cli->out, &b, &body);
      free(body.nodes);
      free(body.bufs);
      free(body.data);
      a.release(&a);
      if (!ok) {
        rc = HL_NOMEM;
        break;
      }
    }
    /* end of stream: a continuation marker and a zero length */
    if (rc == HL_DONE) fwrite("\xff\xff\xff\xff\0\0\0\0", 1, 8, cli->out);
  }
  free(b.buf);
  schema.release(&schema);
  return rc;
}
