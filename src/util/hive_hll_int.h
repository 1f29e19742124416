/*
 * hive_hll_int.h -- what hive_hll.c shares with hive_hll_bias.c (the
 * bias table kept apart because it is data, not logic).
 */
#ifndef HL_HIVE_HLL_INT_H
#define HL_HIVE_HLL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hive_hll.h"

/* HyperLogLog.estimateBias(count) into *OUT for p = 10 or 12 (HLLConstants
 * rows 6 and 8); false for a p whose row hivelite does not carry. */
bool hl_hhll_bias(int p, int64_t count, int64_t *out);

#endif
