/*
 * hivelite.h -- the public embedding API of hivelite.
 *
 * hivelite is an embeddable Hive table engine: it keeps a metastore next to a
 * warehouse of Hive-layout tables and answers HiveQL over them.  This header
 * is the whole public surface; the CLI (src/cli) uses nothing else.
 *
 * Lifecycle:  hl_open -> (hl_prepare -> hl_step* -> hl_finalize)* -> hl_close
 *
 * Ownership and lifetimes are stated on every function.  One hl_db_t must be
 * used by one thread at a time; open one handle per thread for concurrency.
 * The one exception is hl_interrupt, which another thread or a signal
 * handler may call while a statement runs.
 */
#ifndef HIVELITE_H
#define HIVELITE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HIVELITE_VERSION "0.1.0"

/* Result codes.  HL_ROW and HL_DONE are returned by hl_step only. */
typedef enum hl_status {
  HL_OK = 0,
  HL_ROW,         /* hl_step: a row is ready */
  HL_DONE,        /* hl_step: no more rows */
  HL_ERROR,       /* SQL or semantic error (see hl_sqlstate) */
  HL_NOMEM,       /* out of memory */
  HL_IOERR,       /* a file-system operation failed */
  HL_CORRUPT,     /* a data file or the metastore is malformed */
  HL_NOTFOUND,    /* a named object does not exist */
  HL_CONSTRAINT,  /* an object already exists or is in use */
  HL_INTERRUPT,   /* cancelled */
  HL_UNSUPPORTED, /* valid HiveQL that hivelite does not implement yet */
  HL_MISUSE,      /* API used incorrectly */
  HL_INTERNAL     /* an internal invariant failed: a bug */
} hl_status_t;

typedef struct hl_db hl_db_t;     /* one open warehouse + metastore + session */
typedef struct hl_stmt hl_stmt_t; /* one prepared statement and its result */

/* Opens the warehouse directory WAREHOUSE (created if missing) with the
 * metastore at METASTORE (NULL: WAREHOUSE/.hivelite/metastore.db).  A
 * METASTORE of the form "thrift://host:port[,thrift://host2:port]"
 * attaches that Hive Metastore instead (the embedded one stays open for
 * write intents and locks; docs/operations.md).  *out is
 * set even on failure (unless memory ran out, then it is NULL) so that the
 * error can be read; the caller always calls hl_close(*out). */
hl_status_t hl_open(const char *warehouse, const char *metastore, hl_db_t **out);

/* Closes the handle and frees everything it owns.  hl_close(NULL) is a no-op.
 * Statements must be finalized first; open statements are finalized here. */
void hl_close(hl_db_t *db);

/* Parses the first statement of SQL (NUL-terminated).  On success *out is the
 * statement, or NULL when SQL holds only blanks and comments; *tail (if not
 * NULL) points just after the statement's terminating ';'.  The statement is
 * executed lazily by the first hl_step.  Caller finalizes *out. */
hl_status_t hl_prepare(hl_db_t *db, const char *sql, hl_stmt_t **out, const char **tail);

/* Runs the statement until the next row: HL_ROW, HL_DONE, or an error code.
 * A statement with a parameter not bound fails with HL_ERROR, SQLSTATE
 * 07002 "parameter $n is not bound", before anything runs (bind it and
 * step again). */
hl_status_t hl_step(hl_stmt_t *stmt);

/* Parameters.  A SELECT, EXPLAIN or INSERT may hold placeholders for
 * values: `?` (numbered 1, 2, ... left to right) or `$1`, `$2`, ...
 * (PostgreSQL's spelling, in any order and repeatable), not both kinds in
 * one statement (42601); other statements refuse them (0A000).  A
 * parameter stands where a literal could: each execution plans the
 * statement with the bound values as literals, so `WHERE dt = ?` on a
 * partition key reads only the matching partitions, as `dt = '...'`
 * would.  Its type comes from its context where the context fixes one
 * (the other side of a comparison, BETWEEN or IN; an operand of
 * arithmetic; the target column of INSERT ... VALUES; LIMIT and OFFSET,
 * bigint): a bound text or NULL becomes a value of that type the way
 * Hive casts a string literal (a bound integer that fits a narrower
 * integer context takes its type too); any other bound value keeps its
 * own type (hl_bind_int64: bigint, _double: double, _decimal:
 * decimal(p,s), ...) and the usual coercions apply.  Parameter indexes are
 * 1-based; an index out of range is HL_ERROR with SQLSTATE 42P02 (the
 * handle's error).  Values are copied: the caller's buffers may go when
 * the call returns.  Bindings last until rebound or hl_clear_bindings and
 * take effect at the statement's next execution (the first hl_step, or
 * the first after hl_reset). */
int hl_bind_parameter_count(hl_stmt_t *stmt); /* the highest parameter number */
/* The Hive type ("int", "string", "decimal(10,2)", ...) the statement
 * needs for parameter IDX, or NULL when its context does not fix one (any
 * binding is then taken as the value it is) or IDX is out of range.  For
 * a query known before it runs (it is planned once to learn it, like
 * hl_column_count); for INSERT ... VALUES only after its first execution.
 * Owned by the statement. */
const char *hl_bind_parameter_type(hl_stmt_t *stmt, int idx);
hl_status_t hl_bind_null(hl_stmt_t *stmt, int idx);
hl_status_t hl_bind_int64(hl_stmt_t *stmt, int idx, int64_t v);
hl_status_t hl_bind_double(hl_stmt_t *stmt, int idx, double v);
hl_status_t hl_bind_bool(hl_stmt_t *stmt, int idx, int v);
/* The decimal (HI * 2^64 + LO) / 10^SCALE (HI:LO two's complement, as
 * hl_column_decimal gives it) of type DECIMAL(PRECISION, SCALE):
 * 1 <= PRECISION <= 38, 0 <= SCALE <= PRECISION (else 22023); a value
 * with more than PRECISION digits is 22003. */
hl_status_t hl_bind_decimal(hl_stmt_t *stmt, int idx, int64_t hi, uint64_t lo, int precision,
                            int scale);
hl_status_t hl_bind_date(hl_stmt_t *stmt, int idx, int32_t days);        /* since 1970-01-01 */
hl_status_t hl_bind_timestamp(hl_stmt_t *stmt, int idx, int64_t micros); /* since the epoch */
/* A STRING value of LEN bytes (copied; may hold NUL), converted where the
 * context needs another type as Hive converts a string literal. */
hl_status_t hl_bind_text(hl_stmt_t *stmt, int idx, const char *text, size_t len);
/* A BINARY value of LEN bytes (copied). */
hl_status_t hl_bind_blob(hl_stmt_t *stmt, int idx, const void *data, size_t len);
/* Rewinds STMT to run again from the start with its current bindings: the
 * running execution ends (result rows not yet stepped are dropped, its
 * operators closed) and the next hl_step plans and runs the statement
 * again -- a write writes again.  A cancel request (hl_interrupt) made
 * before the call is forgotten, as hl_prepare forgets one.  HL_OK. */
hl_status_t hl_reset(hl_stmt_t *stmt);
/* Unbinds every parameter (the next execution then fails with 07002 until
 * they are bound again).  HL_OK. */
hl_status_t hl_clear_bindings(hl_stmt_t *stmt);

/* Moves to the statement's next result, for statements that return more
 * than one (PROFILE TABLE: the column profiles, then a one-row summary).
 * HL_OK: the columns now describe the next result and hl_step returns its
 * rows (rows of the current result not yet stepped are dropped); HL_DONE:
 * there is none.  Call it after hl_step has run the statement (its first
 * call); before that it is HL_MISUSE. */
hl_status_t hl_next_result(hl_stmt_t *stmt);

/* The rows a write wrote, once hl_step returned HL_DONE: INSERT (all
 * tables of a multi-insert), INSERT OVERWRITE, CREATE TABLE AS SELECT.
 * -1 for other statements, a LOAD DATA (its files are moved unread), and
 * a statement not run to its end or whose write failed. */
int64_t hl_changes(hl_stmt_t *stmt);

/* Frees the statement.  NULL is a no-op. */
void hl_finalize(hl_stmt_t *stmt);

/* Result shape; valid after hl_prepare for queries (SELECT, EXPLAIN: the
 * first call plans the statement once to learn it, unbound parameters
 * taken as NULLs of their contexts' types), after the first hl_step for
 * other statements (0 columns before).  Strings are owned by the
 * statement. */
int hl_column_count(hl_stmt_t *stmt);
const char *hl_column_name(hl_stmt_t *stmt, int col);
const char *hl_column_type(hl_stmt_t *stmt, int col); /* Hive spelling */
/* Whether a query that has not run yet names what exists, with the right
 * types: it is planned once, as hl_column_count plans it, and an error of
 * SQLSTATE class 42 (an unknown column, table or function, a type
 * mismatch) is returned (its code: HL_ERROR, HL_NOTFOUND for a missing
 * table) with the handle's error set (hl_errmsg, hl_sqlstate, position),
 * as PostgreSQL reports one when a statement is prepared; the statement's
 * executions report it too.  Other planning errors, which may depend on
 * data or bound values, are left for the execution.  HL_OK for other
 * statements and once executed. */
hl_status_t hl_stmt_check(hl_stmt_t *stmt);

/* Values of the current row (after hl_step returned HL_ROW).  The text form
 * follows hivelite's printing rules (timestamps as YYYY-MM-DD HH:MM:SS[.f],
 * doubles shortest round-trip, complex values as Hive prints them).  The
 * returned pointer is valid until the next hl_step or hl_finalize. */
int hl_column_is_null(hl_stmt_t *stmt, int col);
const char *hl_column_text(hl_stmt_t *stmt, int col, size_t *len);
/* 1 when the column's values are numbers (printed unquoted in JSON). */
int hl_column_is_numeric(hl_stmt_t *stmt, int col);
/* 1 when the column is BOOLEAN (printed as true/false in JSON). */
int hl_column_is_boolean(hl_stmt_t *stmt, int col);
/* 1 when the column's STRING values are JSON documents (PROFILE's `top`,
 * `warnings`, `checkpoint`): a JSON printer embeds them as they are. */
int hl_column_is_json(hl_stmt_t *stmt, int col);

/* The Hive type of a column as an enumeration (hl_column_type is its
 * text).  The numbering is part of the ABI. */
typedef enum hl_kind {
  HL_KIND_VOID = 0, /* the type of an untyped NULL ("void") */
  HL_KIND_BOOLEAN,
  HL_KIND_TINYINT,
  HL_KIND_SMALLINT,
  HL_KIND_INT,
  HL_KIND_BIGINT,
  HL_KIND_FLOAT,
  HL_KIND_DOUBLE,
  HL_KIND_DECIMAL,
  HL_KIND_STRING,
  HL_KIND_VARCHAR,
  HL_KIND_CHAR,
  HL_KIND_DATE,
  HL_KIND_TIMESTAMP,
  HL_KIND_BINARY,
  HL_KIND_ARRAY,
  HL_KIND_MAP,
  HL_KIND_STRUCT,
  HL_KIND_UNION, /* UNIONTYPE<...> */
  /* expression types only (no table column has them); hl_column_int64
   * gives the months / the microseconds */
  HL_KIND_INTERVAL_YEAR_MONTH,
  HL_KIND_INTERVAL_DAY_TIME
} hl_kind_t;

typedef struct hl_column_info {
  hl_kind_t kind;
  int precision, scale; /* DECIMAL(precision, scale); else 0 */
  int length;           /* VARCHAR/CHAR maximum length in characters; else 0 */
} hl_column_info_t;

/* The type of column COL into *OUT; valid when hl_column_type is.  HL_OK,
 * or HL_MISUSE (no such column, or the statement has not described its
 * result yet). */
hl_status_t hl_column_info(hl_stmt_t *stmt, int col, hl_column_info_t *out);

/* Typed values of the current row (after hl_step returned HL_ROW).  A NULL
 * value, no current row or a column out of range gives 0 (NULL for
 * pointers); use hl_column_is_null to tell a NULL from a zero.  No getter
 * converts text: a STRING column's hl_column_int64 is 0. */
/* BOOLEAN (0/1) and TINYINT..BIGINT exactly; DATE: days since 1970-01-01;
 * TIMESTAMP: microseconds since 1970-01-01 00:00:00; others 0. */
int64_t hl_column_int64(hl_stmt_t *stmt, int col);
/* FLOAT and DOUBLE (a FLOAT widened exactly); integers, DATE, TIMESTAMP as
 * hl_column_int64 converted; DECIMAL rounded to the nearest double; others
 * 0. */
double hl_column_double(hl_stmt_t *stmt, int col);
/* BOOLEAN as 0/1; numbers: 1 when not zero; others 0. */
int hl_column_bool(hl_stmt_t *stmt, int col);
/* DECIMAL: the unscaled value as a two's-complement 128-bit integer (*HI
 * the upper 64 bits, signed; *LO the lower 64) and the column's scale, so
 * the value is (HI * 2^64 + LO) / 10^SCALE; integer columns give their
 * value with scale 0; others 0.  The decimal as text is hl_column_text. */
void hl_column_decimal(hl_stmt_t *stmt, int col, int64_t *hi, uint64_t *lo, int *scale);
/* DATE: days since 1970-01-01 (negative before); TIMESTAMP: the day of its
 * date; others 0. */
int32_t hl_column_date(hl_stmt_t *stmt, int col);
/* TIMESTAMP: microseconds since 1970-01-01 00:00:00 (no time zone: the
 * wall-clock value as stored); DATE: its midnight; others 0. */
int64_t hl_column_timestamp(hl_stmt_t *stmt, int col);
/* BINARY bytes, or the UTF-8 bytes of a STRING/VARCHAR/CHAR value (not
 * NUL-terminated; *LEN their count); NULL (and *LEN 0) for NULL and other
 * types.  Valid until the next hl_step or hl_finalize. */
const void *hl_column_blob(hl_stmt_t *stmt, int col, size_t *len);

/* Columnar results: the Arrow C Data Interface.
 *
 * The two structs below are the ABI the Apache Arrow specification fixes
 * ("The Arrow C data interface"); a program that already has them (from
 * Arrow, nanoarrow, DuckDB, ...) defines ARROW_C_DATA_INTERFACE first and
 * this header leaves them out.  Type names are "format strings": "b"
 * boolean (bit-packed), "c" "s" "i" "l" 8..64-bit signed integers, "f" "g"
 * float and double, "d:P,S" decimal128, "u" UTF-8 string, "z" binary,
 * "tdD" date32 (days), "tsu:" timestamp in microseconds without a time
 * zone, "n" null, "+l" list, "+m" map, "+s" struct. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE           2
#define ARROW_FLAG_MAP_KEYS_SORTED    4

struct ArrowSchema {
  /* the type */
  const char *format;
  const char *name;
  const char *metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema **children;
  struct ArrowSchema *dictionary;
  /* frees what the producer allocated; NULL once released */
  void (*release)(struct ArrowSchema *);
  void *private_data; /* the producer's */
};

struct ArrowArray {
  /* the data */
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void **buffers;
  struct ArrowArray **children;
  struct ArrowArray *dictionary;
  /* frees what the producer allocated; NULL once released */
  void (*release)(struct ArrowArray *);
  void *private_data; /* the producer's */
};

#endif /* ARROW_C_DATA_INTERFACE */

/* The result's columns as an Arrow schema into *OUT: a struct ("+s", no
 * name) with one child per column, named as hl_column_name and typed by
 * the column's Hive type: BOOLEAN "b", TINYINT "c", SMALLINT "s", INT "i",
 * BIGINT "l", FLOAT "f", DOUBLE "g", DECIMAL(p,s) "d:p,s", STRING, VARCHAR
 * and CHAR "u", BINARY "z", DATE "tdD", TIMESTAMP "tsu:" (wall-clock
 * microseconds, no zone, as hl_column_timestamp), the type of an untyped
 * NULL "n", ARRAY "+l" (child "item"), MAP "+m" (child "entries", a
 * struct of "key" and "value"; keys and entries not nullable, keys not
 * sorted) and STRUCT "+s" (children named as the fields).  Every field is
 * nullable (ARROW_FLAG_NULLABLE) but those two.  Valid when hl_column_info
 * is: before a query's first hl_step, after the first hl_step of any
 * statement; a statement with no columns (yet) gives a struct with no
 * children.  The caller owns *OUT and calls out->release(out).  HL_OK,
 * HL_MISUSE (a NULL argument), HL_NOMEM (out->release then NULL). */
hl_status_t hl_stmt_arrow_schema(hl_stmt_t *stmt, struct ArrowSchema *out);

/* The next rows of the current result as one Arrow struct array into
 * *OUT, laid out as hl_stmt_arrow_schema describes (one child per column,
 * no top-level NULLs, offset 0 everywhere).  Runs the statement first when
 * no hl_step has.  The rows start at the current one when hl_step has just
 * returned HL_ROW (that row included) and go on to the end of whole
 * engine batches (of up to 2048 rows) until there are at least
 * hivelite.arrow.batch_rows of them (SET hivelite.arrow.batch_rows=N,
 * default 65536), the buffers hold 256 MB, or the result ends.
 * Afterwards there is no current row (the hl_column_* getters give
 * nothing) and hl_step or this function go on from the row after the
 * last one returned.  At the end of the result out->release is NULL and
 * the return is HL_OK (again at every later call).  Errors as hl_step:
 * HL_ERROR, HL_INTERRUPT, ... with the error on the handle and
 * out->release NULL; also HL_ERROR with SQLSTATE 22004 for a MAP value
 * holding a NULL key (Arrow's map keys cannot be NULL) and 54000 for more
 * than 2^31-1 bytes or elements in one column of one batch.
 *
 * The array owns its memory: it stays valid after later calls, after
 * hl_finalize and hl_close, until the caller calls out->release(out).
 * As the specification allows, a consumer may move a child out (copy the
 * struct, set the original's release to NULL) and release it alone,
 * before or after its parent.  Buffers follow the Arrow columnar format:
 * a validity bitmap (NULL when the array has no NULLs), 32-bit offsets
 * for strings, binaries, lists and maps, 16-byte two's complement
 * decimals in the host's byte order (little-endian on x86-64, arm64);
 * FLOAT values are 4-byte floats, DATE 4-byte days, TIMESTAMP 8-byte
 * microseconds; the other buffers are never NULL, even when empty. */
hl_status_t hl_stmt_arrow_next(hl_stmt_t *stmt, struct ArrowArray *out);

/* The last error of DB (set by hl_open, hl_prepare or hl_step).  Strings are
 * owned by DB and valid until the next call on it.  Line and column are
 * 1-based positions in the statement text, 0 when not applicable. */
hl_status_t hl_errcode(hl_db_t *db);
const char *hl_errmsg(hl_db_t *db);
const char *hl_sqlstate(hl_db_t *db);
/* PostgreSQL's DETAIL and HINT of the last error: a fact about it, and
 * what can be done about it (for example which setting to raise); NULL
 * when the error has none. */
const char *hl_errdetail(hl_db_t *db);
const char *hl_errhint(hl_db_t *db);
int hl_error_line(hl_db_t *db);
int hl_error_column(hl_db_t *db);

/* Cancels the statement running on DB, from any thread or from a signal
 * handler (async-signal-safe: one lock-free atomic store, nothing else).
 * The statement stops at its next batch, file or directory boundary and
 * its hl_step fails with HL_INTERRUPT, SQLSTATE 57014 "canceling statement
 * due to user request"; a cancelled write is rolled back like any failed
 * write (no files, no catalog change), a write already committing ends
 * normally.  The request is forgotten when the next statement is prepared
 * (hl_prepare), so a call while no statement runs has no effect on the
 * next one, and a call between hl_prepare and the statement's first
 * hl_step cancels it (hl_reset forgets one too).  DB must stay open for
 * the duration of the call.
 *
 * SET hivelite.statement_timeout=N (milliseconds, or with a unit: 500ms,
 * 30s, 5m; at most 24 hours; 0 or unset: none) cancels a statement the
 * same way once N has passed since its first hl_step (the time a caller
 * holds the rows between hl_step calls counts too): HL_INTERRUPT, 57014
 * "canceling statement due to statement timeout".  After hl_reset the
 * clock starts again at the next hl_step. */
void hl_interrupt(hl_db_t *db);

/* Warnings: things a statement that succeeds wants the user to see (MSCK's
 * skipped and duplicate partition directories).  FN(CTX, sqlstate "01000",
 * message) is called during hl_step, on its thread, once per warning;
 * MESSAGE is valid during the call only.  FN NULL: no handler (the
 * default; the warnings are dropped).  The warnings are also part of the
 * statement's result where it has one (MSCK's lines). */
typedef void (*hl_warning_fn)(void *ctx, const char *sqlstate, const char *message);
void hl_set_warning_handler(hl_db_t *db, hl_warning_fn fn, void *ctx);

/* Progress of long statements: FN(CTX, phase, done, total, unit) with
 * phase "scan" (unit "files": files opened of those listed so far by all
 * the statement's scans), "insert" ("rows": rows written, total 0) or
 * "msck" ("directories": top-level directories walked of all of them);
 * TOTAL 0 means unknown.  Throttled: the first call comes half a second
 * into a statement (SET hivelite.progress.delay_ms), then at most ten a
 * second.  FN may be called from the
 * statement's worker threads, never two calls at once, and must return
 * quickly; it must not call into DB.  Nothing marks the end: the statement
 * is over when hl_step returns HL_DONE or an error.  FN NULL: none. */
typedef void (*hl_progress_fn)(void *ctx, const char *phase, uint64_t done, uint64_t total,
                               const char *unit);
void hl_set_progress_handler(hl_db_t *db, hl_progress_fn fn, void *ctx);

/* Serves DB's catalog as a Hive Metastore: the Thrift binary protocol over
 * the buffered transport (what Hive, Spark and Trino clients speak by
 * default) on HOST:PORT (a numeric IPv4 address; PORT 0 picks a free
 * port), for the read methods docs/operations.md lists.  One thread per
 * connection, each with its own connection to DB's metastore file; a
 * connection silent for IDLE_TIMEOUT_S seconds (<= 0: never) is closed.
 * FN(CTX, host, port) is called once the socket listens (FN may be NULL).
 * Runs until the process receives SIGTERM or SIGINT (blocked in the
 * calling thread while it runs, so call it where other threads block them
 * too): then it stops accepting, closes every connection and returns
 * HL_OK.  Errors (the address cannot be bound, ...) are DB's last error. */
typedef void (*hl_listen_fn)(void *ctx, const char *host, int port);
hl_status_t hl_metastore_serve(hl_db_t *db, const char *host, int port, int idle_timeout_s,
                               hl_listen_fn fn, void *ctx);

/* Static names: "HL_OK", ... and a short description. */
const char *hl_status_name(hl_status_t status);
const char *hl_status_str(hl_status_t status);

#ifdef __cplusplus
}
#endif
#endif
