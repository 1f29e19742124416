/*
 * ds_hll_int.h -- the constant tables of the DataSketches HLL estimators
 * (ds_hll_tables.c), shared with ds_hll.c only.
 */
#ifndef HL_UTIL_DS_HLL_INT_H
#define HL_UTIL_DS_HLL_INT_H

/* The composite estimator's interpolation points for one lgK: x values,
 * their number, and the y stride (y of point i is i * y_stride). */
typedef struct hl_ds_hll_xtab {
  const double *x;
  int n;
  double y_stride;
} hl_ds_hll_xtab_t;

extern const hl_ds_hll_xtab_t hl_ds_hll_xtabs[18]; /* lgK 4..21 */
extern const double hl_ds_hll_coupon_x[40];
extern const double hl_ds_hll_coupon_y[40];
/* Relative errors for lgK 4..12, three per lgK (1, 2, 3 standard
 * deviations): HIP and non-HIP (out of order), lower and upper bound. */
extern const double hl_ds_hll_hip_lb[27], hl_ds_hll_hip_ub[27];
extern const double hl_ds_hll_nonhip_lb[27], hl_ds_hll_nonhip_ub[27];

#endif
