/*
 * sort.h -- a stable merge sort of indexes with a caller's comparator.
 *
 * Operators that order rows held elsewhere (window partitions, the rows of
 * a SORTED BY bucket file) sort an array of row indexes and compare the
 * rows through a context; stability keeps equal rows in arrival order, as
 * Hive's sorts do.
 */
#ifndef HL_SORT_H
#define HL_SORT_H

#include <stddef.h>

/* <0, 0, >0 as row A orders before, with, or after row B. */
typedef int (*hl_sort_cmp_fn)(const void *ctx, size_t a, size_t b);

/* Sorts V[0..n) stably by CMP; TMP is caller scratch of n entries. */
void hl_sort_indexes(size_t *v, size_t *tmp, size_t n, hl_sort_cmp_fn cmp, const void *ctx);

#endif
