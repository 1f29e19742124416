/*
 * func_int.h -- private to the scalar function library (func*.c).
 *
 * Functions are described by a signature string that the binder
 * (plan/bind.c) reads: the result code, then one code per argument (the
 * last one repeats for variadic functions).  Codes:
 *   s STRING   i INT   l BIGINT   d DOUBLE   b BOOLEAN   D DATE
 *   T TIMESTAMP   A ARRAY<STRING>   * any type, left as is
 *   c the common type of every `c` argument (as a result: that type)
 *   n a number (strings become DOUBLE); as a result: the first argument's type
 *   t a point in time: DATE and TIMESTAMP kept, strings cast to TIMESTAMP
 */
#ifndef HL_FUNC_INT_H
#define HL_FUNC_INT_H

#include "vector/expr.h"

#include <stdatomic.h>

#define HL_FN(name)                                                                                \
  hl_status_t name(const hl_expr_t *call, const hl_value_t *a, hl_value_t *out, hl_arena_t *arena, \
                   hl_error_t *err)

/* Returns a string value of LEN bytes allocated in ARENA (out->u.s). */
char *hl_fn_alloc_str(hl_value_t *out, hl_arena_t *arena, size_t len);
/* Compiles a Hive (Java) regular expression as POSIX extended, after
 * rewriting \d and \D which POSIX lacks.  NOSUB: no capture groups. */
hl_status_t hl_regex_compile(regex_t *re, const char *pat, size_t len, bool nosub,
                             hl_arena_t *arena, long pos, hl_error_t *err);
/* Days/micros of a `t` argument value of TYPE. */
int64_t hl_fn_micros(const hl_type_t *type, const hl_value_t *v);

/* func_str.c */
HL_FN(hl_fn_concat_ws);
HL_FN(hl_fn_split);
HL_FN(hl_fn_instr);
HL_FN(hl_fn_locate);
HL_FN(hl_fn_replace);
HL_FN(hl_fn_regexp_extract);
HL_FN(hl_fn_regexp_replace);
HL_FN(hl_fn_reverse);
HL_FN(hl_fn_initcap);
HL_FN(hl_fn_lpad);
HL_FN(hl_fn_rpad);
HL_FN(hl_fn_repeat);
HL_FN(hl_fn_space);
HL_FN(hl_fn_ascii);
HL_FN(hl_fn_md5);
HL_FN(hl_fn_sha2);
HL_FN(hl_fn_hash);
HL_FN(hl_fn_nvl2);
HL_FN(hl_fn_greatest);
HL_FN(hl_fn_least);

/* func_date.c */
HL_FN(hl_fn_current_date);
HL_FN(hl_fn_current_timestamp);
HL_FN(hl_fn_to_date);
HL_FN(hl_fn_year);
HL_FN(hl_fn_quarter);
HL_FN(hl_fn_month);
HL_FN(hl_fn_day);
HL_FN(hl_fn_hour);
HL_FN(hl_fn_minute);
HL_FN(hl_fn_second);
HL_FN(hl_fn_dayofweek);
HL_FN(hl_fn_weekofyear);
HL_FN(hl_fn_date_add);
HL_FN(hl_fn_date_sub);
HL_FN(hl_fn_add_months);
HL_FN(hl_fn_datediff);
HL_FN(hl_fn_date_format);
HL_FN(hl_fn_unix_timestamp);
HL_FN(hl_fn_from_unixtime);
HL_FN(hl_fn_trunc);
HL_FN(hl_fn_last_day);

/* rand([seed]): a counter advanced atomically (scan workers may share the
 * expression) and a seed; the n-th value is a hash of (seed, n). */
typedef struct hl_rand_state {
  _Atomic uint64_t counter;
  uint64_t seed;
} hl_rand_state_t;

/* func_math.c */
HL_FN(hl_fn_rand);
HL_FN(hl_fn_round);
HL_FN(hl_fn_bround);
HL_FN(hl_fn_floor);
HL_FN(hl_fn_ceil);
HL_FN(hl_fn_pow);
HL_FN(hl_fn_sqrt);
HL_FN(hl_fn_exp);
HL_FN(hl_fn_ln);
HL_FN(hl_fn_log);
HL_FN(hl_fn_log10);
HL_FN(hl_fn_log2);
HL_FN(hl_fn_pmod);
HL_FN(hl_fn_sign);

/* func_complex.c */
HL_FN(hl_fn_size);
HL_FN(hl_fn_array_contains);
HL_FN(hl_fn_sort_array);
HL_FN(hl_fn_map_keys);
HL_FN(hl_fn_map_values);
HL_FN(hl_fn_struct);

#endif
