/*
 * pg_wire.h -- the PostgreSQL frontend/backend protocol 3.0 as bytes: the
 * outgoing message builder and the checked decoders of what clients send.
 *
 * Nothing here does I/O or touches a session, so the fuzz target
 * (tests/fuzz/fuzz_pg_wire.c) links this file alone.  Every decoder reads
 * from a bounded body (pg_rd_t) and fails, never reads past it; every count
 * a client declares is checked against the bytes left before anything is
 * allocated for it, and whole messages are capped (PG_MAX_MESSAGE) before
 * their bytes are read (pg_frame).
 */
#ifndef HL_PG_WIRE_H
#define HL_PG_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The largest message body accepted from a client: a query text or a Bind
 * of 64 MB is far beyond what a tool sends; a larger length is a protocol
 * violation (08P01), not an allocation. */
#define PG_MAX_MESSAGE ((size_t)64 << 20)
/* The startup packet (parameters, SSLRequest, CancelRequest) is small. */
#define PG_MAX_STARTUP ((size_t)10000)

/* Special request codes of the untyped first packet. */
#define PG_PROTOCOL_3     196608u   /* 3.0 */
#define PG_SSL_REQUEST    80877103u /* 1234.5679 */
#define PG_GSSENC_REQUEST 80877104u /* 1234.5680 */
#define PG_CANCEL_REQUEST 80877102u /* 1234.5678 */

/* ---- outgoing messages ---- */

/* A growable byte buffer with one open message at a time.  OOM is sticky:
 * later appends are dropped and the caller checks `oom` once. */
typedef struct pg_buf {
  unsigned char *data;
  size_t len, cap;
  size_t msg_start; /* offset of the open message's type byte */
  int oom;
} pg_buf_t;

void pg_buf_free(pg_buf_t *b);
void pg_buf_reset(pg_buf_t *b);
void pg_put_bytes(pg_buf_t *b, const void *p, size_t n);
void pg_put_u8(pg_buf_t *b, unsigned v);
void pg_put_i16(pg_buf_t *b, int v);
void pg_put_i32(pg_buf_t *b, int32_t v);
void pg_put_i64(pg_buf_t *b, int64_t v);
void pg_put_cstr(pg_buf_t *b, const char *s); /* with its NUL */
/* Starts a message of TYPE (its length is filled in by pg_msg_end). */
void pg_msg_begin(pg_buf_t *b, char type);
void pg_msg_end(pg_buf_t *b);

/* ---- framing ---- */

typedef enum pg_frame_rc {
  PG_FRAME_OK,   /* *out is a whole message */
  PG_FRAME_MORE, /* need more bytes (at least *need in all) */
  PG_FRAME_BAD   /* a length below 4 or above the cap: close */
} pg_frame_rc_t;

typedef struct pg_frame {
  char type;                 /* 0 for the untyped startup packet */
  const unsigned char *body; /* after the length word */
  size_t body_len;
  size_t total; /* bytes of the message in the input */
} pg_frame_t;

/* Splits the next message from BUF[0..LEN).  STARTUP: the untyped first
 * packet (length word first, cap PG_MAX_STARTUP); else a type byte, then
 * the length (cap MAX).  *NEED is the total size known so far (so a reader
 * can grow its buffer as bytes come, never to a declared size at once). */
pg_frame_rc_t pg_frame(const unsigned char *buf, size_t len, int startup, size_t max,
                       pg_frame_t *out, size_t *need);

/* ---- reading a body ---- */

typedef struct pg_rd {
  const unsigned char *p;
  size_t len, pos;
  int bad; /* sticky: a read past the end or a missing terminator */
} pg_rd_t;

void pg_rd_init(pg_rd_t *r, const unsigned char *p, size_t len);
unsigned pg_get_u8(pg_rd_t *r);
int pg_get_i16(pg_rd_t *r);
int32_t pg_get_i32(pg_rd_t *r);
/* A NUL-terminated string inside the body (borrowed), NULL when none. */
const char *pg_get_cstr(pg_rd_t *r);
/* N bytes (borrowed), NULL when fewer are left. */
const unsigned char *pg_get_bytes(pg_rd_t *r, size_t n);
/* 1 when the body was read exactly to its end without error. */
int pg_rd_done(const pg_rd_t *r);

/* ---- decoded messages (pointers borrow from the body) ---- */

#define PG_MAX_STARTUP_PARAMS 64

typedef struct pg_startup {
  uint32_t code; /* PG_PROTOCOL_3, PG_SSL_REQUEST, ... */
  /* protocol 3.0: name/value pairs */
  const char *names[PG_MAX_STARTUP_PARAMS], *values[PG_MAX_STARTUP_PARAMS];
  int n_params;
  /* PG_CANCEL_REQUEST */
  int32_t cancel_pid, cancel_key;
} pg_startup_t;

/* 0, or -1 (malformed: 08P01) or -2 (a protocol other than 3.x: 0A000)
 * with a reason in *why (a static string). */
int pg_decode_startup(const unsigned char *body, size_t len, pg_startup_t *out, const char **why);

typedef struct pg_parse_msg {
  const char *name, *query;
  int n_types;
  const unsigned char *types; /* n_types big-endian int32 OIDs */
} pg_parse_msg_t;
int pg_decode_parse(const unsigned char *body, size_t len, pg_parse_msg_t *out);

/* Bind: the arrays are read lazily from the body with the accessors below,
 * so a Bind costs no allocation here whatever counts it declares. */
typedef struct pg_bind_msg {
  const char *portal, *stmt;
  int n_formats;                       /* parameter format codes */
  const unsigned char *formats;        /* n_formats int16 */
  int n_params;                        /* parameter values */
  const unsigned char *params;         /* n_params (int32 length, bytes) */
  size_t params_len;                   /* bytes of the values, checked */
  int n_result_formats;                /* result format codes */
  const unsigned char *result_formats; /* int16 each */
} pg_bind_msg_t;
int pg_decode_bind(const unsigned char *body, size_t len, pg_bind_msg_t *out);
/* The format of parameter I (0-based): 0 text, 1 binary (PostgreSQL's rule:
 * no codes = all text, one code = all that code). */
int pg_bind_param_format(const pg_bind_msg_t *b, int i);
int pg_bind_result_format(const pg_bind_msg_t *b, int col);
/* Walks the parameter values in order: call with *cursor 0 first; sets
 * *value (NULL for SQL NULL) and *len; -1 when the list is exhausted. */
int pg_bind_next_param(const pg_bind_msg_t *b, size_t *cursor, const unsigned char **value,
                       int32_t *len);

typedef struct pg_target_msg { /* Describe and Close */
  char kind;                   /* 'S' statement or 'P' portal */
  const char *name;
} pg_target_msg_t;
int pg_decode_target(const unsigned char *body, size_t len, pg_target_msg_t *out);

typedef struct pg_execute_msg {
  const char *portal;
  int32_t max_rows; /* 0: all */
} pg_execute_msg_t;
int pg_decode_execute(const unsigned char *body, size_t len, pg_execute_msg_t *out);

/* SASLInitialResponse: mechanism and the client's first message (may hold
 * NULs, so with a length; -1 length in the protocol = none). */
typedef struct pg_sasl_initial {
  const char *mechanism;
  const unsigned char *data;
  size_t data_len;
} pg_sasl_initial_t;
int pg_decode_sasl_initial(const unsigned char *body, size_t len, pg_sasl_initial_t *out);

#endif
