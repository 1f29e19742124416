/*
 * expr.h -- bound expressions and their vectorized evaluation.
 *
 * The binder (plan/bind.c) turns AST expressions into these trees: names
 * resolved to column indexes of the input batch, every node typed, implicit
 * casts made explicit (HL_EX_CAST), BETWEEN rewritten to comparisons.
 * hl_expr_eval computes a node for every live row of a batch at a time:
 * comparisons, logic and arithmetic run as tight loops over the physical
 * arrays; casts and the scalar function library work value by value.
 */
#ifndef HL_EXPR_H
#define HL_EXPR_H

#include "vector/vector.h"
#include "util/strbuf.h"

#include <regex.h>

typedef enum hl_expr_kind {
  HL_EX_CONST,  /* value */
  HL_EX_COLUMN, /* col: index into the input batch */
  HL_EX_CAST,   /* args[0] converted to type (bad conversions are NULL) */
  HL_EX_CMP,    /* op in {EQ, NE, LT, LE, GT, GE, EQ_NS}; args of one type */
  HL_EX_ARITH,  /* op in {ADD, SUB, MUL, DIV, IDIV, MOD}; args cast to type
                   (DIV of decimals: args keep their own decimal types) */
  HL_EX_NEG,    /* unary minus */
  HL_EX_AND,    /* n-ary, three-valued */
  HL_EX_OR,     /* n-ary, three-valued */
  HL_EX_NOT,
  HL_EX_IS_NULL,  /* negated: IS NOT NULL */
  HL_EX_IN,       /* args[0] [NOT] IN (args[1..]); all one type */
  HL_EX_LIKE,     /* args[0] [NOT] LIKE args[1]; rlike: regex */
  HL_EX_CASE,     /* searched CASE: (when, then)* [else] */
  HL_EX_FUNC,     /* scalar function fn over args, row by row */
  HL_EX_SUBQUERY, /* uncorrelated subquery (sub_kind); exec/query.c runs it and
                     turns the node into HL_EX_CONST or HL_EX_IN_SET first */
  HL_EX_IN_SET    /* args[0] [NOT] IN a hash set of value keys (in_set) */
} hl_expr_kind_t;

typedef enum hl_expr_op {
  HL_XOP_EQ,
  HL_XOP_NE,
  HL_XOP_LT,
  HL_XOP_LE,
  HL_XOP_GT,
  HL_XOP_GE,
  HL_XOP_EQ_NS,
  HL_XOP_ADD,
  HL_XOP_SUB,
  HL_XOP_MUL,
  HL_XOP_DIV,
  HL_XOP_IDIV,
  HL_XOP_MOD
} hl_expr_op_t;

struct hl_expr;
struct hl_func_def;

typedef struct hl_expr {
  hl_expr_kind_t kind;
  const hl_type_t *type; /* result type */
  hl_expr_op_t op;
  bool negated;                 /* NOT IN, NOT LIKE, IS NOT NULL */
  bool rlike;                   /* HL_EX_LIKE: regular expression */
  bool has_else;                /* HL_EX_CASE */
  hl_value_t value;             /* HL_EX_CONST */
  int col;                      /* HL_EX_COLUMN */
  const char *col_name;         /* HL_EX_COLUMN: for EXPLAIN */
  const struct hl_func_def *fn; /* HL_EX_FUNC */
  regex_t *regex;               /* HL_EX_LIKE rlike with a constant pattern */
  /* from_utc_timestamp / to_utc_timestamp with a constant zone: loaded by
   * the binder (tz NULL is UTC) */
  bool tz_const;
  const struct hl_tz *tz;
  struct hl_expr **args;
  int n_args;
  long pos;     /* source position, for errors */
  bool out_ref; /* binder: a column of the aggregate output layout */
  /* HL_EX_SUBQUERY: the bound subquery and how its rows are used */
  struct hl_plan *subquery;
  enum { HL_SUB_SCALAR, HL_SUB_EXISTS, HL_SUB_IN } sub_kind;
  /* HL_EX_IN_SET: keys built with hl_value_key_append of args[0]'s type */
  struct hl_map *in_set;
  bool in_has_null; /* the set held a NULL: a miss is NULL, not FALSE */
  void *state;      /* HL_EX_FUNC: per-call state some functions keep (rand) */
} hl_expr_t;

/* A scalar function evaluated row by row on non-vector values.  ARGS are
 * the row's argument values (NULLs included: functions decide); the result
 * goes to *out (strings in ARENA). */
typedef hl_status_t (*hl_func_impl_t)(const hl_expr_t *call, const hl_value_t *args,
                                      hl_value_t *out, hl_arena_t *arena, hl_error_t *err);

typedef struct hl_func_def {
  const char *name;
  int min_args, max_args; /* max -1: variadic */
  hl_func_impl_t impl;
  const char *sig; /* result and argument type codes (func_int.h); NULL: the
                      binder types the call itself */
} hl_func_def_t;

/* The scalar function NAME (lower-case), NULL when unknown. */
const hl_func_def_t *hl_func_lookup(const char *name);

/* The element accessors, which no function name reaches: x[i] / m[k]
 * (args: collection, index) and s.f (args: struct, INT constant field
 * index).  func_complex.c. */
extern const hl_func_def_t hl_func_subscript;
extern const hl_func_def_t hl_func_field;
extern const hl_func_def_t hl_func_elems_field; /* a.f over an array of structs */
/* CAST(x AS type FORMAT 'template'): args x and the template constant,
 * the compiled template in state (func_sqldt.c; bound by plan/bind.c). */
extern const hl_func_def_t hl_func_cast_format;
/* The bitwise operators a & b, a | b, a ^ b and ~a over one integer type
 * (func_bit.c). */
extern const hl_func_def_t hl_func_bitand;
extern const hl_func_def_t hl_func_bitor;
extern const hl_func_def_t hl_func_bitxor;
extern const hl_func_def_t hl_func_bitnot;

/* Arithmetic on intervals (func_interval.c): x + y and x - y where an
 * operand is an INTERVAL_YEAR_MONTH or INTERVAL_DAY_TIME, or x - y of two
 * DATEs or TIMESTAMPs.  hl_interval_op returns false when no operand calls
 * for these rules; true with *R filled: R->fn the definition to call (NULL:
 * Hive has no such operation, an error for the caller), R->result its type,
 * R->x and R->y the types the operands are cast to, R->swap whether the
 * operands go in as (y, x) (the functions take the date or timestamp
 * first). */
typedef struct hl_interval_op {
  const hl_func_def_t *fn;
  const hl_type_t *result, *x, *y;
  bool swap;
} hl_interval_op_t;
bool hl_interval_op(hl_expr_op_t op, const hl_type_t *x, const hl_type_t *y, hl_interval_op_t *r);
/* -x of an interval (a range check: -INT32_MIN months is out of range). */
extern const hl_func_def_t hl_func_iv_neg;
/* Whether FN is one of the interval operators (EXPLAIN prints them infix). */
bool hl_func_is_interval_op(const hl_func_def_t *fn);

/* Evaluates E over the live rows of IN into OUT (whose data, if not
 * borrowed from an input column, is allocated in ARENA).  OUT is indexed by
 * physical row like IN's vectors.  Errors: only real ones (out of memory,
 * invalid regular expression); Hive returns NULL for bad casts, overflow
 * and division by zero, and so does this. */
hl_status_t hl_expr_eval(const hl_expr_t *e, const hl_batch_t *in, hl_vec_t *out, hl_arena_t *arena,
                         hl_error_t *err);

/* Evaluates predicate E over IN and narrows IN's selection to the rows where
 * it is TRUE (not FALSE, not NULL).  SEL storage comes from ARENA. */
hl_status_t hl_expr_filter(const hl_expr_t *e, hl_batch_t *in, hl_arena_t *arena, hl_error_t *err);

/* Whether S[0..sn) matches the LIKE pattern P[0..pn) (% any text, _ one
 * UTF-8 character, backslash escapes), as x LIKE p does; for likeany and
 * likeall (func_likeany.c). */
bool hl_expr_like_match(const char *s, size_t sn, const char *p, size_t pn);

/* Converts one value between types with Hive's CAST rules; an impossible
 * conversion sets out->is_null. */
hl_status_t hl_value_cast(const hl_type_t *from, const hl_value_t *in, const hl_type_t *to,
                          hl_value_t *out, hl_arena_t *arena, hl_error_t *err);

/* Column A converted to TO into OUT (allocated in ARENA) for the live rows
 * of IN, with hl_value_cast's rules: the casts among numbers, BOOLEAN,
 * DATE and TIMESTAMP as loops over the column, the rest row by row.  OUT
 * may share A's validity bitmap.  Errors: those of hl_value_cast (out of
 * memory; a union to another kind). */
hl_status_t hl_vec_cast(const hl_type_t *to, const hl_batch_t *in, const hl_vec_t *a, hl_vec_t *out,
                        hl_arena_t *arena, hl_error_t *err);

/* Copies V (of TYPE) into *OUT so that it no longer points into the memory
 * it came from: string bytes and complex-value trees (items and their
 * strings) are copied into ARENA.  Operators that keep values beyond the
 * batch they read them from (sort, aggregation) must use it.  Returns HL_OK
 * or HL_NOMEM. */
hl_status_t hl_value_copy_deep(hl_arena_t *arena, const hl_type_t *type, const hl_value_t *v,
                               hl_value_t *out);

/* Appends a readable form of E for EXPLAIN (column names, SQL operators). */
void hl_expr_print(hl_buf_t *buf, const hl_expr_t *e);

/* True when E reads only columns in [lo, hi). */
bool hl_expr_cols_within(const hl_expr_t *e, int lo, int hi);

/* True when evaluating E keeps state between rows (rand), so that several
 * threads cannot evaluate it at once. */
bool hl_expr_is_stateful(const hl_expr_t *e);

/* Sets used[c] for every column c < N that E reads. */
void hl_expr_mark_cols(const hl_expr_t *e, bool *used, int n);

#endif
