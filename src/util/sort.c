/*
 * sort.c -- stable merge sort of indexes (sort.h): top-down, recursion
 * depth log2(n), O(n log n) comparisons whatever the input order.
 */
#include "util/sort.h"

#include <string.h>

void hl_sort_indexes(size_t *v, size_t *tmp, size_t n, hl_sort_cmp_fn cmp, const void *ctx) {
  if (n < 2) return;
  size_t mid = n / 2;
  hl_sort_indexes(v, tmp, mid, cmp, ctx);
  hl_sort_indexes(v + mid, tmp, n - mid, cmp, ctx);
  size_t i = 0, j = mid, k = 0;
  /* take from the right run only when strictly smaller: stable */
  while (i < mid && j < n)
    tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
  while (i < mid)
    tmp[k++] = v[i++];
  while (j < n)
    tmp[k++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}
